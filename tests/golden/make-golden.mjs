#!/usr/bin/env node
// make-golden.mjs - writes the golden reference files of tests/golden/ from the deepslate oracle.
//
// Usage (normally through make-golden.sh next to this file):
//   node make-golden.mjs --oracle DIR --shared DIR [--repo DIR] [--out DIR] [--jobs N] [--only nodes,legacy,vanilla,noise]
//
// For every (pack, settings, seed, function) it runs
//   node oracle-wrap.mjs $ORACLE/deepslate-oracle.mjs <pack> df --mc 26.3 --settings S --seed N --df F --points @pts.json --out tmp.json
// (noise.txt: `noise` mode instead of `df`), checks the JSON (deepslate 0.27.2, profile 26.3, no unknown types, every
// value an exact float32) and writes one `@` block of `x y z 0xHEX` lines (HEX = float32 bits of the value).
// Nothing is copied from the vanilla data: only the oracle's numbers are written.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- arguments
const args = {};
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
	args[a.slice(2)] = process.argv[++i];
}
const REPO = path.resolve(args.repo ?? path.join(HERE, '..', '..'));
const ORACLE_DIR = path.resolve(args.oracle ?? '/work/oracle');
const SHARED = path.resolve(args.shared ?? path.join(REPO, '..', 'shared'));
const OUT = path.resolve(args.out ?? HERE);
const JOBS = Math.max(1, Number(args.jobs ?? os.cpus().length));
const ONLY = new Set((args.only ?? 'nodes,legacy,vanilla,noise').split(','));
const ORACLE = path.join(ORACLE_DIR, 'deepslate-oracle.mjs');
const WRAP = path.join(HERE, 'oracle-wrap.mjs');   // fixes the sign of zero of JS Math.round (see that file)
const VANILLA = path.join(SHARED, 'vanilla', '26.3');
const NODES_SRC = path.join(REPO, 'tests', 'packs', 'nodes');
for (const p of [ORACLE, WRAP, VANILLA, NODES_SRC]) if (!fs.existsSync(p)) throw new Error(`missing ${p}`);

const ORACLE_TAG = '(oracle deepslate-oracle.mjs, deepslate 0.27.2, --mc 26.3)';

// ---------------------------------------------------------------- seeds
// Java String.hashCode: s[0]*31^(n-1) + ... + s[n-1], int arithmetic; a text seed is that int widened to long.
function javaStringHashCode(s) {
	let h = 0;
	for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
	return BigInt(h);                      // |0 keeps the sign, BigInt() sign-extends
}
const TEXT_SEED = 'chunkfill';
const SEEDS = [
	{ seed: 0n, text: '-' },
	{ seed: -4172144997902289642n, text: '-' },
	{ seed: 123456789n, text: '-' },
	{ seed: javaStringHashCode(TEXT_SEED), text: TEXT_SEED },
];

// ---------------------------------------------------------------- points
// small deterministic PRNG (LCG, 32-bit), so the point lists never change
function rng(seed) {
	let s = seed >>> 0;
	return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}
function uniq(points) {
	const seen = new Set(), out = [];
	for (const p of points) { const k = p.join(','); if (!seen.has(k)) { seen.add(k); out.push(p); } }
	return out;
}
const FAR = 29999000, M = 1000000, P24 = 16777216, P25 = 33554432;

function nodePoints() {
	const p = [
		[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, -1, -1], [-1, 0, 0], [0, 0, -1],
		// cell corners and neighbours (multiples of 4 and 8)
		[4, 8, 4], [8, 16, -8], [-4, -8, -4], [-8, -64, 8], [3, 7, 3], [5, 9, -5], [7, -57, -9], [16, 64, 16], [-16, -16, 32],
		// y range ends and outside
		[0, -64, 0], [0, 319, 0], [5, 320, -5], [-3, -65, 2], [11, 400, -13], [-2, -200, 6],
		// in/half = y/2-64: thresholds and edges at y = 88 (-20), 108 (-10), 127, 128 (0), 129 (0.5), 149 (10.5), 188 (30)
		[9, 88, -9], [-21, 108, 13], [6, 127, 2], [7, 128, 7], [-3, 129, 11], [2048, 149, -2048], [-12345, 188, 6789], [31, 190, -31],
		// gradient tile edges (x: -16..48, y: 0..100, z: 40..-24)
		[-16, 50, 3], [48, 50, 3], [47, 50, 3], [49, 50, 3], [112, 50, 3], [-80, 50, 3], [-81, 50, 3],
		[3, 100, 3], [3, 200, 3], [3, -100, 3], [3, 50, 40], [3, 50, -24], [3, 50, -88], [3, 50, 104], [3, 50, 105],
		// distance_to_point centre, end-island area, truncating division of negatives
		[100, 64, -200], [1500, 60, -300], [-7, 0, -9], [-15, 0, 17], [-1100, 64, 0], [5000, 64, 5000], [-12000, 64, 3000],
		// far points
		[FAR, 64, 0], [-FAR, 64, 0], [0, 64, FAR], [0, 64, -FAR], [FAR, -64, -FAR], [-FAR, 319, FAR],
		[M, 100, -M], [-M, -50, M], [M, 0, M], [-M, 200, -M],
	];
	const r = rng(20260915);
	for (let i = 0; i < 20; i++) {
		const span = i < 12 ? 5000 : 300000;
		p.push([Math.floor(r() * 2 * span) - span, -64 + Math.floor(r() * 384), Math.floor(r() * 2 * span) - span]);
	}
	return uniq(p);
}

function vanillaPoints() {
	const p = [
		[0, 0, 0], [0, 64, 0], [1, 70, -1], [15, 63, 15], [-1, -1, -1], [-17, 100, 33], [123, 80, -456], [4, -64, 4],
		[8, 319, -8], [-4, 320, -4], [16, 0, -16], [-1000, -30, 2000], [4096, 120, -4096], [-3, 5, 7], [2, -2, 2],
	];
	for (const y of [-2048, -100, -65, -64, -63, -40, -8, 0, 7, 8, 31, 32, 56, 63, 64, 100, 128, 200, 255, 256, 300, 312, 319, 320, 321, 400, 1000])
		p.push([1234, y, -5678]);
	for (const sx of [1, -1]) for (const sz of [1, -1]) for (const y of [-64, 64, 319]) p.push([sx * FAR, y, sz * FAR]);
	p.push([FAR, 70, 0], [0, 70, -FAR], [-29999984, 60, 29999984], [29999999, 100, -29999999]);
	p.push([P24, 64, P24], [P24 - 1, 0, -(P24 - 1)], [-P24, 100, P24 + 1], [-(P24 + 1), -30, -P24], [P24 + 3, 200, -5], [-5, 40, P24 + 8]);
	p.push([P25 + 5, 64, P25 + 9], [-P25 - 7, 0, P25 + 1], [P25 - 1, 120, -(P25 - 1)], [-P25 - 4, -64, -P25 - 8], [P25 + 1000, 63, 1000], [77, 90, -P25 - 12345]);
	p.push([M, 100, -M], [-M, -50, M], [M, 0, M], [-M, 200, -M]);
	// ore veins are rare: points where ore_vein/copper_density resp. iron_density is not -1, 3 + 3 for each of the 4
	// seeds (found once by running the oracle on 20,000 random points per seed and function)
	p.push([-50620, 48, -1972], [-65934, 24, -6265], [97595, 20, 132875], [193829, -11, -71122], [185621, -31, -21905], [174577, -24, -170106],
		[-131376, 28, -157256], [130980, 4, 128062], [-78687, 45, -20342], [172767, -25, 161846], [-103810, -28, 119491], [-131047, -45, -74744],
		[-60681, 27, 162083], [-14779, 46, -150764], [26749, 6, 196007], [-117044, -15, 12754], [171547, -39, 99283], [77045, -35, -157190],
		[151664, 25, -132840], [-41090, 37, 5612], [-73593, 20, 169468], [98336, -27, -43405], [53198, -35, 99560], [-167728, -23, 168447]);
	const r = rng(123456789);
	const rnd = (span) => Math.floor(r() * 2 * span) - span;
	for (let i = 0; i < 150; i++) {
		const span = i < 50 ? 2000 : i < 100 ? 200000 : i < 130 ? 30000000 : 100000;
		const y = i < 130 ? -64 + Math.floor(r() * 385) : -200 + Math.floor(r() * 800);
		p.push([rnd(span), y, rnd(span)]);
	}
	return uniq(p);
}

function noisePoints() {
	const p = [
		[0, 0, 0], [1, 1, 1], [-1, -1, -1], [17, -3, 42], [-100, 64, 250], [4096, 120, -4096], [12345, -60, -54321],
		[FAR, 64, -FAR], [-FAR, 0, FAR], [M, 100, -M], [P24, 7, -P24], [P25 + 5, 64, -(P25 + 9)], [-P25 - 3, -64, 11],
		// fractional coordinates (the df modes only use integers; raw noises are sampled at any double)
		[0.5, 0.25, -0.75], [0.125, -0.0625, 3.5], [-1.5, 2.25, -7.125], [12345.678, -63.5, 98765.4321], [0.1, 0.2, 0.3],
		[-0.0001, 1e-7, 0.9999], [1.0181268882175227, -2.0362537764350454, 4.072507552870091], [100.00390625, -31.5, 1000.5],
		[-29999000.25, 80.75, 29999000.5], [1e6 + 0.5, -0.5, -1e6 - 0.5], [33554431.75, 0.5, -33554432.25],
	];
	const r = rng(4242);
	while (p.length < 50) {
		const span = p.length < 40 ? 3000 : 3000000;
		p.push([Math.floor(r() * 2 * span) - span, -64 + Math.floor(r() * 384), Math.floor(r() * 2 * span) - span]);
	}
	return uniq(p);
}

// ---------------------------------------------------------------- pack helpers
function walkJson(dir) {
	const out = [];
	if (!fs.existsSync(dir)) return out;
	for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) out.push(...walkJson(p));
		else if (e.name.endsWith('.json')) out.push(p);
	}
	return out;
}
// all density function ids of a pack: { id -> parsed JSON }
function densityFunctions(root) {
	const res = new Map();
	const data = path.join(root, 'data');
	for (const ns of fs.readdirSync(data).sort()) {
		const base = path.join(data, ns, 'worldgen', 'density_function');
		for (const f of walkJson(base)) {
			const id = `${ns}:${path.relative(base, f).split(path.sep).join('/').replace(/\.json$/, '')}`;
			res.set(id, JSON.parse(fs.readFileSync(f, 'utf8')));
		}
	}
	return res;
}
const ROUND_TYPES = new Set(['floor', 'round', 'ceil', 'truncate']);
const bareType = t => (typeof t === 'string' ? t.replace(/^minecraft:/, '') : undefined);

// Oracle work-around (see README): deepslate 0.27.2 reads a missing `multiple` of floor/round/ceil/truncate as the
// constant 0 (the node then returns its input unchanged); Minecraft 26.3's codec defaults it to the constant 1
// (RoundFunction: optionalFieldOf("multiple", constant(1.0f))).  The oracle is therefore run on a copy of the pack in
// which every such node carries an explicit `"multiple": 1.0`; the pack in the repository keeps the omitted field.
function addRoundDefaults(node, hits) {
	if (Array.isArray(node)) return node.map(n => addRoundDefaults(n, hits));
	if (node === null || typeof node !== 'object') return node;
	const out = {};
	for (const [k, v] of Object.entries(node)) out[k] = addRoundDefaults(v, hits);
	if (ROUND_TYPES.has(bareType(out.type)) && !('multiple' in out)) { out.multiple = 1.0; hits.n++; }
	return out;
}
function copyPackWithRoundDefaults(src, dst) {
	const patched = [];
	for (const f of walkJson(path.join(src, 'data'))) {
		const rel = path.relative(src, f);
		const to = path.join(dst, rel);
		fs.mkdirSync(path.dirname(to), { recursive: true });
		const hits = { n: 0 };
		const j = addRoundDefaults(JSON.parse(fs.readFileSync(f, 'utf8')), hits);
		if (hits.n) patched.push(rel.split(path.sep).join('/'));
		fs.writeFileSync(to, JSON.stringify(j, null, 2) + '\n');
	}
	return patched;
}

// functions whose value depends on the random source of the settings (noises, shifts, old_blended_noise)
function randomDependent(dfs) {
	const memo = new Map();
	const RANDOM_TYPES = new Set(['noise', 'shift_a', 'shift_b', 'shift', 'old_blended_noise']);
	const visit = (node) => {
		if (typeof node === 'string') return dep(node);
		if (Array.isArray(node)) return node.some(visit);
		if (node === null || typeof node !== 'object') return false;
		if (RANDOM_TYPES.has(bareType(node.type))) return true;
		return Object.entries(node).some(([k, v]) => k !== 'type' && k !== 'noise' && visit(v));
	};
	const dep = (id) => {
		if (!id.includes(':')) id = `minecraft:${id}`;
		if (memo.has(id)) return memo.get(id);
		memo.set(id, false);
		const r = dfs.has(id) && visit(dfs.get(id));
		memo.set(id, r);
		return r;
	};
	return [...dfs.keys()].filter(dep);
}

// ---------------------------------------------------------------- values
const f32buf = new DataView(new ArrayBuffer(4));
function hexOf(v, where) {
	let d;
	if (v === 'NaN') return '0x7fc00000';
	if (v === 'Infinity') d = Infinity;
	else if (v === '-Infinity') d = -Infinity;
	else if (typeof v === 'number') d = v;
	else throw new Error(`${where}: unexpected value ${JSON.stringify(v)}`);
	if (Number.isNaN(d)) return '0x7fc00000';
	if (!Object.is(Math.fround(d), d)) throw new Error(`${where}: value ${d} is not a float32`);
	f32buf.setFloat32(0, d);
	return '0x' + f32buf.getUint32(0).toString(16).padStart(8, '0');
}
// the oracle writes -0 as "-0.0" and NaN/Infinity as strings; JSON.parse keeps -0
function parseOracleJson(text) { return JSON.parse(text); }

// ---------------------------------------------------------------- running the oracle
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'chunkfill-golden-'));
const warnings = new Map();        // stderr line -> count
const failures = [];
let done = 0, total = 0;
function runOracle(argv) {
	return new Promise((resolve) => {
		execFile(process.execPath, [WRAP, ORACLE, ...argv], { maxBuffer: 64 << 20, cwd: ORACLE_DIR }, (err, stdout, stderr) => {
			for (const line of stderr.split('\n').map(s => s.trim()).filter(Boolean)) warnings.set(line, (warnings.get(line) ?? 0) + 1);
			resolve({ err, stdout, stderr });
		});
	});
}
async function pool(tasks, n) {
	let i = 0;
	const worker = async () => { while (i < tasks.length) { const t = tasks[i++]; await t(); } };
	await Promise.all(Array.from({ length: n }, worker));
}

// one job = one @ block
function makeJob({ pack, packLabel, mode, settings, seed, fn, points, pointsFile }) {
	const job = { pack, packLabel, mode, settings, seed, fn, points, lines: null };
	job.run = async () => {
		const out = path.join(TMP, `out-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
		const argv = [pack, mode, '--mc', '26.3', '--settings', settings, '--seed', seed.seed.toString(),
			mode === 'df' ? '--df' : '--noise', fn, '--points', '@' + pointsFile, '--out', out];
		const { err, stderr } = await runOracle(argv);
		const where = `${packLabel} ${settings} seed ${seed.seed} ${mode} ${fn}`;
		try {
			if (err) throw new Error(`oracle failed: ${(stderr || String(err)).trim().split('\n').slice(-3).join(' | ')}`);
			const res = parseOracleJson(fs.readFileSync(out, 'utf8'));
			const m = res.meta;
			if (m.deepslate !== '0.27.2') throw new Error(`deepslate ${m.deepslate}, expected 0.27.2`);
			if (m.mc !== '26.3') throw new Error(`profile ${m.mc}, expected 26.3`);
			if (m.unknown_types.length) throw new Error(`unknown types ${m.unknown_types.join(',')}`);
			if (m.seed !== seed.seed.toString() || m.settings !== settings) throw new Error('meta does not match the request');
			if ((mode === 'df' && (m.df !== fn || m.interpolated !== false)) || (mode === 'noise' && m.noise !== fn)) throw new Error('meta does not match the request');
			if (res.values.length !== points.length) throw new Error('value count differs from point count');
			job.lines = points.map((p, k) => {
				if (res.points[k].some((c, a) => c !== p[a])) throw new Error(`point ${k} differs`);
				return `${p.map(String).join(' ')} ${hexOf(res.values[k], `${where} point ${p}`)}`;
			});
		} catch (e) {
			failures.push(`${where}: ${e.message}`);
		} finally {
			fs.rmSync(out, { force: true });
			done++;
			if (done % 50 === 0 || done === total) process.stderr.write(`  ${done}/${total} oracle runs\n`);
		}
	};
	return job;
}

function writePoints(name, points) {
	const f = path.join(TMP, name);
	fs.writeFileSync(f, JSON.stringify(points));
	return f;
}

// ---------------------------------------------------------------- plan
const files = [];   // { name, header, jobs }
const nodePts = nodePoints(), vanPts = vanillaPoints(), noisePts = noisePoints();
const nodePtsFile = writePoints('points-nodes.json', nodePts);
const vanPtsFile = writePoints('points-vanilla.json', vanPts);
const noisePtsFile = writePoints('points-noise.json', noisePts);

const NODES_PACK = path.join(TMP, 'nodes');
const roundPatched = copyPackWithRoundDefaults(NODES_SRC, NODES_PACK);
const nodeDfs = densityFunctions(NODES_SRC);
const nodeIds = [...nodeDfs.keys()].sort();
const legacyIds = randomDependent(nodeDfs).sort();

const cmd = (packExpr, mode, settings, sel) =>
	`node tests/golden/oracle-wrap.mjs $ORACLE/deepslate-oracle.mjs ${packExpr} ${mode} --mc 26.3 --settings ${settings} --seed <seed> ${sel} --points @<block points>.json --out <tmp>.json`;
const NODES_EXPR = '$TMP/nodes';
const NODES_NOTE = ', where $TMP/nodes = tests/packs/nodes with each omitted floor/round/ceil/truncate `multiple` written out as 1.0 (README)';
const header = (commands, note = '') => `# made by: tests/golden/make-golden.sh, one run per @ block: ${commands}${note}  ${ORACLE_TAG}`;

if (ONLY.has('nodes')) files.push({
	name: 'nodes.txt', packTag: 'nodes',
	header: header(cmd(NODES_EXPR, 'df', 'test:nodes', '--df <function>'), NODES_NOTE),
	jobs: SEEDS.flatMap(seed => nodeIds.map(fn => makeJob({ pack: NODES_PACK, packLabel: 'nodes', mode: 'df', settings: 'test:nodes', seed, fn, points: nodePts, pointsFile: nodePtsFile }))),
});
if (ONLY.has('legacy')) files.push({
	name: 'nodes-legacy.txt', packTag: 'nodes',
	header: header(cmd(NODES_EXPR, 'df', 'test:nodes_legacy', '--df <function>'), NODES_NOTE),
	jobs: SEEDS.flatMap(seed => legacyIds.map(fn => makeJob({ pack: NODES_PACK, packLabel: 'nodes', mode: 'df', settings: 'test:nodes_legacy', seed, fn, points: nodePts, pointsFile: nodePtsFile }))),
});

const vanDfs = [...densityFunctions(VANILLA).keys()].sort();
const vanSettings = (id) => {
	const p = id.replace(/^minecraft:/, '');
	if (p.startsWith('overworld_amplified/')) return 'minecraft:amplified';
	if (p.startsWith('overworld_large_biomes/')) return 'minecraft:large_biomes';
	if (p.startsWith('overworld/') || !p.includes('/')) return 'minecraft:overworld';
	if (p.startsWith('nether/')) return 'minecraft:nether';
	if (p.startsWith('end/')) return 'minecraft:end';
	throw new Error(`no settings for ${id}`);
};
const VAN_EXPR = '$SHARED/vanilla/26.3';
if (ONLY.has('vanilla')) {
	const ow = vanDfs.filter(id => vanSettings(id) === 'minecraft:overworld');
	const other = vanDfs.filter(id => vanSettings(id) !== 'minecraft:overworld');
	const SETTINGS_ORDER = ['minecraft:amplified', 'minecraft:large_biomes', 'minecraft:nether', 'minecraft:end'];
	other.sort((a, b) => SETTINGS_ORDER.indexOf(vanSettings(a)) - SETTINGS_ORDER.indexOf(vanSettings(b)) || a.localeCompare(b));
	const vjobs = ids => SEEDS.flatMap(seed => ids.map(fn => makeJob({ pack: VANILLA, packLabel: 'vanilla-26.3', mode: 'df', settings: vanSettings(fn), seed, fn, points: vanPts, pointsFile: vanPtsFile })));
	files.push({ name: 'vanilla-overworld.txt', packTag: 'vanilla-26.3', header: header(cmd(VAN_EXPR, 'df', 'minecraft:overworld', '--df <function>')), jobs: vjobs(ow) });
	files.push({ name: 'vanilla-other.txt', packTag: 'vanilla-26.3', header: header(cmd(VAN_EXPR, 'df', '<settings of the block>', '--df <function>')), jobs: vjobs(other) });
}
if (ONLY.has('noise')) {
	const NOISES = [['minecraft:continentalness', 'minecraft:overworld'], ['minecraft:offset', 'minecraft:overworld'],
		['minecraft:nether/temperature', 'minecraft:nether'], ['minecraft:cave_cheese', 'minecraft:overworld']];
	files.push({
		name: 'noise.txt', packTag: 'vanilla-26.3',
		header: header(cmd(VAN_EXPR, 'noise', '<settings of the block>', '--noise <id>')),
		jobs: SEEDS.slice(0, 2).flatMap(seed => NOISES.map(([fn, settings]) => makeJob({ pack: VANILLA, packLabel: 'vanilla-26.3', mode: 'noise', settings, seed, fn, points: noisePts, pointsFile: noisePtsFile }))),
	});
}

// ---------------------------------------------------------------- run and write
const t0 = Date.now();
const allJobs = files.flatMap(f => f.jobs);
total = allJobs.length;
process.stderr.write(`make-golden: ${total} oracle runs with ${JOBS} parallel jobs (tmp ${TMP})\n`);
await pool(allJobs.map(j => j.run), JOBS);

const summary = [];
for (const f of files) {
	const parts = [f.header];
	const perFn = new Map();
	for (const j of f.jobs) {
		if (!j.lines) continue;
		const fnLabel = j.mode === 'noise' ? `noise:${j.fn}` : j.fn;
		parts.push(`@ pack=${f.packTag} settings=${j.settings} seed=${j.seed.seed} seedtext=${j.seed.text} function=${fnLabel}`);
		parts.push(...j.lines);
		perFn.set(fnLabel, j.lines.length);
	}
	const text = parts.join('\n') + '\n';
	fs.writeFileSync(path.join(OUT, f.name), text);
	const pts = [...new Set(perFn.values())];
	summary.push(`${f.name}: ${text.length} bytes, ${f.jobs.filter(j => j.lines).length} blocks, ${perFn.size} functions, points per block: ${pts.join('/')}`);
}
fs.rmSync(TMP, { recursive: true, force: true });

// re-read what was written: one header line, then @ lines and `x y z 0xHHHHHHHH` lines only
const AT = /^@ pack=(nodes|vanilla-26\.3) settings=\S+ seed=-?\d+ seedtext=\S+ function=\S+$/;
const LINE = /^-?[0-9.e+-]+ -?[0-9.e+-]+ -?[0-9.e+-]+ 0x[0-9a-f]{8}$/;
for (const f of files) {
	const lines = fs.readFileSync(path.join(OUT, f.name), 'utf8').split('\n');
	if (lines.pop() !== '' || !lines[0].startsWith('# made by: ')) failures.push(`${f.name}: bad header or missing final newline`);
	lines.slice(1).forEach((l, i) => { if (!AT.test(l) && !LINE.test(l)) failures.push(`${f.name}:${i + 2}: bad line ${l}`); });
}

console.log(`make-golden: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`text seed: "${TEXT_SEED}" -> String.hashCode = ${javaStringHashCode(TEXT_SEED)}`);
console.log(`points: nodes ${nodePts.length}, vanilla ${vanPts.length}, noise ${noisePts.length}`);
console.log(`legacy-settings functions (depend on the random source): ${legacyIds.length} of ${nodeIds.length}`);
console.log(`round-family default multiple written out in: ${roundPatched.join(', ') || 'none'}`);
for (const s of summary) console.log(s);
if (warnings.size) {
	console.log('oracle stderr:');
	for (const [w, n] of warnings) console.log(`  ${n}x ${w}`);
} else console.log('oracle stderr: none');
if (failures.length) {
	console.log(`FAILED (${failures.length}):`);
	for (const f of failures) console.log('  ' + f);
	process.exit(1);
}
