#!/usr/bin/env node
// make-chunks.mjs - writes the golden chunk files of tests/golden/ (chunks-vanilla.txt, chunks-packs.txt) from the
// deepslate oracle.  Node built-ins only.
//
// Usage (normally through make-chunks.sh next to this file):
//   node make-chunks.mjs --oracle DIR --shared DIR [--repo DIR] [--out DIR] [--jobs N] [--only vanilla,packs]
//
// For every (pack, settings, seed, chunk) it runs
//   node $ORACLE/deepslate-oracle.mjs <pack> chunk --mc 26.3 --settings S --seed N --chunk CX,CZ --out tmp.json
// checks the JSON (deepslate 0.27.2, profile 26.3, no unknown types, full 16 x height x 16 volume, every value an exact
// float32) and writes one `@` block:
//   @ pack=P settings=S seed=N chunk=CX,CZ min_y=Y height=H md5=M
// where M is the MD5 of all final_density values as float32 little-endian bytes in the oracle's order
// (index ((iy*16)+iz)*16+ix, y from min_y upward; NaN written as 0x7fc00000), followed by 64 sample lines
// `x y z 0xBITS` (block coordinates, BITS = float32 bits) at fixed pseudo-random indices (always index 0, the last
// index and a few at y = sea level +-2), in index order.
// Nothing is copied from the vanilla data: only the oracle's numbers are written.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
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
const ONLY = new Set((args.only ?? 'vanilla,packs').split(','));
const ORACLE = path.join(ORACLE_DIR, 'deepslate-oracle.mjs');
const VANILLA = path.join(SHARED, 'vanilla', '26.3');
const NODES_SRC = path.join(REPO, 'tests', 'packs', 'nodes');
const DEFAULT_SRC = path.join(REPO, 'packs', 'default');
for (const p of [ORACLE, VANILLA, NODES_SRC, DEFAULT_SRC]) if (!fs.existsSync(p)) throw new Error(`missing ${p}`);

const ORACLE_TAG = '(oracle deepslate-oracle.mjs, deepslate 0.27.2, --mc 26.3, chunk mode)';
const N_SAMPLES = 64;

// ---------------------------------------------------------------- plan
const SEED_A = -4172144997902289642n;
const VAN_SEEDS = [0n, SEED_A, 123456789n];
// per settings: a mid-range chunk and a far chunk (|block x| or |block z| >= 1,000,000); every settings also gets (0,0)
const VAN_SETTINGS = [
	['minecraft:overworld',        [[0, 0], [-3, 7],    [62500, -3]]],          // far: block x = 1,000,000
	['minecraft:large_biomes',     [[0, 0], [100, -50], [-70000, 70001]]],      // far: block x = -1,120,000, z = 1,120,016
	['minecraft:amplified',        [[0, 0], [-3, 7],    [1874999, -1874999]]],  // far: block x = 29,999,984 (world border)
	['minecraft:nether',           [[0, 0], [100, -50], [62500, -3]]],
	['minecraft:end',              [[0, 0], [-3, 7],    [-70000, 70001], [90, 12]]],   // (90,12): outer islands, block x = 1440
	['minecraft:caves',            [[0, 0], [100, -50], [-70000, 70001]]],
	['minecraft:floating_islands', [[0, 0], [-3, 7],    [62500, -3]]],
];
const PACK_PLAN = [
	// [pack tag, source dir, settings, seeds, chunks]
	['nodes', NODES_SRC, 'test:nodes',        [0n, SEED_A], [[0, 0], [-5, 3]]],
	['nodes', NODES_SRC, 'test:nodes_legacy', [0n, SEED_A], [[0, 0], [-5, 3]]],
	['default', DEFAULT_SRC, 'minecraft:overworld', [0n, 42n], [[0, 0], [7, -2], [100000, -100000]]],
];

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
// a content hash of a pack folder (reported on stdout, so a run can be tied to the state of the pack it read)
function packHash(root) {
	const h = crypto.createHash('sha256');
	for (const f of walkJson(path.join(root, 'data'))) {
		h.update(path.relative(root, f).split(path.sep).join('/') + '\0');
		h.update(fs.readFileSync(f));
		h.update('\0');
	}
	return h.digest('hex').slice(0, 16);
}
const ROUND_TYPES = new Set(['floor', 'round', 'ceil', 'truncate']);
const bareType = t => (typeof t === 'string' ? t.replace(/^minecraft:/, '') : undefined);
// Oracle work-around (same as make-golden.mjs): deepslate 0.27.2 reads a missing `multiple` of
// floor/round/ceil/truncate as the constant 0 (the node then returns its input unchanged); Minecraft 26.3's codec
// defaults it to the constant 1.  A pack with such nodes is run from a temporary copy in which every such node carries
// an explicit `"multiple": 1.0`; the pack in the repository keeps the omitted field.
function addRoundDefaults(node, hits) {
	if (Array.isArray(node)) return node.map(n => addRoundDefaults(n, hits));
	if (node === null || typeof node !== 'object') return node;
	const out = {};
	for (const [k, v] of Object.entries(node)) out[k] = addRoundDefaults(v, hits);
	if (ROUND_TYPES.has(bareType(out.type)) && !('multiple' in out)) { out.multiple = 1.0; hits.n++; }
	return out;
}
// returns the folder to give the oracle: the pack itself, or a patched copy if some round node lacks `multiple`
function oraclePackDir(src, dst) {
	const patched = [];
	const files = walkJson(path.join(src, 'data')).map(f => {
		const hits = { n: 0 };
		const j = addRoundDefaults(JSON.parse(fs.readFileSync(f, 'utf8')), hits);
		const rel = path.relative(src, f);
		if (hits.n) patched.push(rel.split(path.sep).join('/'));
		return [rel, j];
	});
	if (!patched.length) return { dir: src, patched };
	for (const [rel, j] of files) {
		const to = path.join(dst, rel);
		fs.mkdirSync(path.dirname(to), { recursive: true });
		fs.writeFileSync(to, JSON.stringify(j, null, 2) + '\n');
	}
	return { dir: dst, patched };
}

// ---------------------------------------------------------------- values
const f32view = new DataView(new ArrayBuffer(4));
function bitsOf(v, where) {
	let d;
	if (v === 'NaN') return 0x7fc00000;
	if (v === 'Infinity') d = Infinity;
	else if (v === '-Infinity') d = -Infinity;
	else if (typeof v === 'number') d = v;
	else throw new Error(`${where}: unexpected value ${JSON.stringify(v)}`);
	if (Number.isNaN(d)) return 0x7fc00000;
	if (!Object.is(Math.fround(d), d)) throw new Error(`${where}: value ${d} is not a float32`);
	f32view.setFloat32(0, d);
	return f32view.getUint32(0);
}
const hex8 = b => '0x' + (b >>> 0).toString(16).padStart(8, '0');

// small deterministic PRNG (LCG, 32-bit), so the sample indices never change
function rng(seed) {
	let s = seed >>> 0;
	return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}
// the 64 sample indices of a volume: fixed for a given (size, min_y, sea level)
function sampleIndices(sx, sy, sz, minY, seaLevel) {
	const n = sx * sy * sz, idx = (ix, iy, iz) => (iy * sz + iz) * sx + ix;
	const clampY = iy => Math.min(sy - 1, Math.max(0, iy));
	const sea = seaLevel - minY;
	const set = new Set([0, n - 1]);
	// near sea level: y = sea-2 .. sea+2 in a few columns (corners and middle)
	for (const [ix, dy, iz] of [[0, 0, 0], [sx - 1, 0, sz - 1], [7, -1, 8], [8, 1, 7], [3, -2, 12], [12, 2, 3], [sx - 1, 0, 0], [5, 1, 10]])
		set.add(idx(Math.min(ix, sx - 1), clampY(sea + dy), Math.min(iz, sz - 1)));
	const r = rng(0x63686b73);   // "chks"
	while (set.size < Math.min(N_SAMPLES, n)) set.add(Math.floor(r() * n));
	return [...set].sort((a, b) => a - b);
}

// ---------------------------------------------------------------- running the oracle
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'chunkfill-chunks-'));
const warnings = new Map();        // stderr line -> count
const failures = [];
let done = 0, total = 0;
function runOracle(argv) {
	return new Promise((resolve) => {
		const t = Date.now();
		execFile(process.execPath, [ORACLE, ...argv], { maxBuffer: 64 << 20, cwd: ORACLE_DIR }, (err, stdout, stderr) => {
			for (const line of stderr.split('\n').map(s => s.trim()).filter(Boolean)) warnings.set(line, (warnings.get(line) ?? 0) + 1);
			resolve({ err, stdout, stderr, ms: Date.now() - t });
		});
	});
}
async function pool(tasks, n) {
	let i = 0;
	const worker = async () => { while (i < tasks.length) { const t = tasks[i++]; await t(); } };
	await Promise.all(Array.from({ length: n }, worker));
}

function makeJob({ pack, packTag, settings, seed, chunk }) {
	const job = { packTag, settings, seed, chunk, head: null, lines: null, ms: 0 };
	job.run = async () => {
		const out = path.join(TMP, `out-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
		const [cx, cz] = chunk;
		const argv = [pack, 'chunk', '--mc', '26.3', '--settings', settings, '--seed', seed.toString(), '--chunk', `${cx},${cz}`, '--out', out];
		const { err, stderr, ms } = await runOracle(argv);
		job.ms = ms;
		const where = `${packTag} ${settings} seed ${seed} chunk ${cx},${cz}`;
		try {
			if (err) throw new Error(`oracle failed: ${(stderr || String(err)).trim().split('\n').slice(-3).join(' | ')}`);
			if (/unknown/i.test(stderr)) throw new Error(`oracle warned: ${stderr.trim().split('\n').join(' | ')}`);
			const res = JSON.parse(fs.readFileSync(out, 'utf8'));   // keeps -0 ("-0.0"); NaN/Infinity are strings
			const m = res.meta;
			if (m.deepslate !== '0.27.2') throw new Error(`deepslate ${m.deepslate}, expected 0.27.2`);
			if (m.mc !== '26.3') throw new Error(`profile ${m.mc}, expected 26.3`);
			if (m.mode !== 'chunk') throw new Error(`mode ${m.mode}`);
			if (m.unknown_types.length) throw new Error(`unknown types ${m.unknown_types.join(',')}`);
			if (m.seed !== seed.toString() || m.settings !== settings) throw new Error('meta does not match the request');
			if (res.chunk[0] !== cx || res.chunk[1] !== cz) throw new Error('chunk does not match the request');
			const { sizeX: sx, sizeY: sy, sizeZ: sz } = res;
			if (sx !== 16 || sz !== 16 || sy !== m.height || res.strideXZ !== 1 || res.strideY !== 1) throw new Error(`unexpected volume ${sx}x${sy}x${sz}`);
			if (res.minX !== cx * 16 || res.minZ !== cz * 16 || res.minY !== m.min_y) throw new Error('unexpected volume origin');
			const vals = res.final_density, n = sx * sy * sz;
			if (!Array.isArray(vals) || vals.length !== n) throw new Error(`final_density has ${vals?.length} values, expected ${n}`);
			const bytes = Buffer.alloc(4 * n);
			const bits = new Uint32Array(n);
			let nan = 0, inf = 0;
			for (let i = 0; i < n; i++) {
				const b = bitsOf(vals[i], `${where} index ${i}`);
				if (vals[i] === 'NaN') nan++; else if (typeof vals[i] === 'string') inf++;
				bits[i] = b;
				bytes.writeUInt32LE(b, 4 * i);
			}
			const md5 = crypto.createHash('md5').update(bytes).digest('hex');
			job.head = `@ pack=${packTag} settings=${settings} seed=${seed} chunk=${cx},${cz} min_y=${m.min_y} height=${m.height} md5=${md5}`;
			job.md5 = md5; job.nan = nan; job.inf = inf;
			job.lines = sampleIndices(sx, sy, sz, m.min_y, m.sea_level).map(i => {
				const ix = i % sx, iz = Math.floor(i / sx) % sz, iy = Math.floor(i / (sx * sz));
				return `${res.minX + ix} ${res.minY + iy} ${res.minZ + iz} ${hex8(bits[i])}`;
			});
		} catch (e) {
			failures.push(`${where}: ${e.message}`);
		} finally {
			fs.rmSync(out, { force: true });
			done++;
			if (done % 10 === 0 || done === total) process.stderr.write(`  ${done}/${total} oracle runs\n`);
		}
	};
	return job;
}

// ---------------------------------------------------------------- files
const files = [];   // { name, header, jobs }
const cmdText = (packExpr) =>
	`node $ORACLE/deepslate-oracle.mjs ${packExpr} chunk --mc 26.3 --settings <settings> --seed <seed> --chunk <cx>,<cz> --out <tmp.json>`;
const header = (packExpr) => `# made by: tests/golden/make-chunks.sh (make-chunks.mjs), one oracle run per @ block: ${cmdText(packExpr)}; `
	+ `md5 = MD5 of final_density as float32 little-endian (NaN as 0x7fc00000) in the oracle's order ((iy*16)+iz)*16+ix; `
	+ `64 samples \`x y z 0xBITS\` at fixed pseudo-random indices  ${ORACLE_TAG}`;

const packNotes = [];
if (ONLY.has('vanilla')) files.push({
	name: 'chunks-vanilla.txt',
	header: header('$SHARED/vanilla/26.3'),
	jobs: VAN_SETTINGS.flatMap(([settings, chunks]) => VAN_SEEDS.flatMap(seed => chunks.map(chunk =>
		makeJob({ pack: VANILLA, packTag: 'vanilla-26.3', settings, seed, chunk })))),
});
if (ONLY.has('packs')) {
	const dirs = new Map();
	for (const [tag, src] of PACK_PLAN) if (!dirs.has(tag)) {
		const d = oraclePackDir(src, path.join(TMP, tag));
		dirs.set(tag, d);
		packNotes.push(`${tag} (${path.relative(REPO, src)}): content sha256/16 ${packHash(src)}; `
			+ (d.patched.length ? `run from a copy with round-family \`multiple\` written out as 1.0 in ${d.patched.length} files` : 'run as is'));
	}
	const exprs = [...dirs].map(([tag, d]) => {
		const rel = PACK_PLAN.find(p => p[0] === tag)[1];
		return `${path.relative(REPO, rel)}` + (d.patched.length ? ' (a temporary copy with the omitted floor/round/ceil/truncate `multiple` written out as 1.0, see make-golden.mjs)' : '');
	});
	files.push({
		name: 'chunks-packs.txt',
		header: header(`<pack: ${exprs.join(' | ')}>`),
		jobs: PACK_PLAN.flatMap(([tag, , settings, seeds, chunks]) => seeds.flatMap(seed => chunks.map(chunk =>
			makeJob({ pack: dirs.get(tag).dir, packTag: tag, settings, seed, chunk })))),
	});
}

// ---------------------------------------------------------------- run and write
const t0 = Date.now();
const allJobs = files.flatMap(f => f.jobs);
total = allJobs.length;
process.stderr.write(`make-chunks: ${total} oracle runs with ${JOBS} parallel jobs (tmp ${TMP})\n`);
await pool(allJobs.map(j => j.run), JOBS);

const summary = [];
for (const f of files) {
	const parts = [f.header];
	for (const j of f.jobs) if (j.lines) parts.push(j.head, ...j.lines);
	const text = parts.join('\n') + '\n';
	fs.writeFileSync(path.join(OUT, f.name), text);
	const ok = f.jobs.filter(j => j.lines);
	const nan = ok.reduce((s, j) => s + j.nan, 0), inf = ok.reduce((s, j) => s + j.inf, 0);
	summary.push(`${f.name}: ${text.length} bytes, ${ok.length} of ${f.jobs.length} chunks, NaN values ${nan}, infinite values ${inf}`);
}
fs.rmSync(TMP, { recursive: true, force: true });

console.log(`make-chunks: done in ${((Date.now() - t0) / 1000).toFixed(1)} s (${JOBS} parallel jobs)`);
const slow = [...allJobs].sort((a, b) => b.ms - a.ms)[0];
if (slow) console.log(`slowest oracle run: ${(slow.ms / 1000).toFixed(1)} s (${slow.packTag} ${slow.settings} seed ${slow.seed} chunk ${slow.chunk})`);
for (const s of packNotes) console.log(s);
for (const s of summary) console.log(s);
const ref = allJobs.find(j => j.packTag === 'vanilla-26.3' && j.settings === 'minecraft:overworld' && j.seed === 0n && j.chunk[0] === 0 && j.chunk[1] === 0);
if (ref?.md5) console.log(`cross-check: vanilla-26.3 minecraft:overworld seed 0 chunk 0,0 md5=${ref.md5}`);
if (warnings.size) {
	console.log('oracle stderr:');
	for (const [w, n] of warnings) console.log(`  ${n}x ${w}`);
} else console.log('oracle stderr: none');
if (failures.length) {
	console.log(`FAILED (${failures.length}):`);
	for (const f of failures) console.log('  ' + f);
	process.exit(1);
}
