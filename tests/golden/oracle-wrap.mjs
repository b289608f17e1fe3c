#!/usr/bin/env node
// oracle-wrap.mjs - runs deepslate-oracle.mjs unchanged except for one JavaScript-vs-Java difference:
//
//   Java's Math.round(float) returns an int, and Minecraft 26.3's `round` node converts that int back to float, so
//   round(x) for -0.5 <= x <= -0.0 is +0.0.  JavaScript's Math.round returns -0 for those inputs, and the oracle's
//   `round` node (patch M7) keeps that -0 (and -0 * multiple flips the sign of a zero result).  Here Math.round's
//   result gets `+ 0`, which turns -0 into +0 and leaves every other value as it is.  The oracle and deepslate use
//   Math.round nowhere else on the df/noise paths (only in structure placement).
//
// Usage: node oracle-wrap.mjs <path/to/deepslate-oracle.mjs> <oracle arguments...>
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [oracle, ...rest] = process.argv.slice(2);
if (!oracle) { console.error('usage: node oracle-wrap.mjs <deepslate-oracle.mjs> <arguments...>'); process.exit(2); }
const jsRound = Math.round;
Math.round = (x) => jsRound(x) + 0;
process.argv = [process.argv[0], path.resolve(oracle), ...rest];
await import(pathToFileURL(path.resolve(oracle)).href);
