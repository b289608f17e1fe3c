#!/usr/bin/env node
// oracle-wrap.mjs - runs deepslate-oracle.mjs unchanged except for one JavaScript-vs-Java difference:
//
//   Java's Math.round(float) returns an int, and Minecraft 26.3's `round` node converts that int back to float, so
//   round(x) for -0.5 <= x <= -0.0 is +0.0.  JavaScript's Math.round returns -0 for those inputs, and the oracle's
//   `round` node (patch M7) keeps that -0 (and -0 * multiple flips the sign of a zero result).  Here Math.round's
//   result gets `+ 0`, which turns -0 into +0 and leaves every other value as it is.  The oracle and deepslate use
//   Math.round nowhere else on the df/noise paths (only in structure placement).
//
// and one bug of deepslate 0.27.2 that vanilla does not have (it matters only to the aquifer, `blocks` mode):
//
//   ChunkPos.asLong(x, z) is `BigInt(x & 0xFFFFFFFF) | BigInt(z & 0xFFFFFFFF) << 32n`.  In JavaScript `x & 0xFFFFFFFF`
//   is a signed int, so for x < 0 the BigInt is negative, and OR-ing a negative BigInt with anything above bit 31
//   leaves it unchanged: every z gives the same key.  The aquifer's surface-level cache is keyed by it, so for a quart
//   column with x < 0 the oracle returns the surface level of whichever z it computed first.  Java's
//   `ChunkPos.asLong` masks to 32 bits on longs and keys every (x, z) apart.  The wrapper replaces asLong by the
//   masked form before the oracle runs (the function is used only for that cache on the paths we run).
//
// Usage: node oracle-wrap.mjs <path/to/deepslate-oracle.mjs> <oracle arguments...>
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [oracle, ...rest] = process.argv.slice(2);
if (!oracle) { console.error('usage: node oracle-wrap.mjs <deepslate-oracle.mjs> <arguments...>'); process.exit(2); }
const jsRound = Math.round;
Math.round = (x) => jsRound(x) + 0;
const ds = await import(pathToFileURL(createRequire(path.resolve(oracle)).resolve('deepslate')).href);
ds.ChunkPos.asLong = (x, z) => (BigInt(x) & 0xFFFFFFFFn) | ((BigInt(z) & 0xFFFFFFFFn) << 32n);
process.argv = [process.argv[0], path.resolve(oracle), ...rest];
await import(pathToFileURL(path.resolve(oracle)).href);
