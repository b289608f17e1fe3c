// make-legacy.mjs - golden values of the 1.18-1.21 dialect from the legacy oracle
// (deepslate-oracle-legacy.mjs, deepslate 0.26.2), vanilla 1.21.11 data.
// Run through make-legacy.sh (paths). Writes legacy-df.txt:
//   # made by: <command>
//   @ settings=ID seed=N function=ID
//   X Y Z 0x<16 hex digits: the IEEE-754 bits of the double>
// and legacy-chunks.txt (chunk mode: router:final_density of whole chunks, as a fill):
//   @ settings=ID seed=N chunk=X,Z min_y=Y height=H md5=<MD5 of the float64 LE values in the oracle's order>
//   X Y Z 0x<double bits>      (48 samples at fixed pseudo-random indices)
// One oracle run per block; the script stops on any oracle failure, unknown
// density function type or deepslate version other than 0.26.2.
// and, for our own old-format test pack tests/packs/mc121 (every 1.21 node kind, cell sizes
// 8x4 and 4x8, legacy random wiring): legacy-pack-df.txt and legacy-pack-chunks.txt, the same
// formats with pack=mc121 (and function= on chunk blocks: router:vein_toggle fills
// interpolate y, x, z).
// --only df|chunks|pack makes one group.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((a, s, i, v) => (s.startsWith('--') ? a.concat([[s.slice(2), v[i + 1]]]) : a), []));
const ORACLE = args.oracle, PACK = args.pack, OUT = args.out;
const SEEDS = ['0', '-4172144997902289642', '123456789'];

// points: fixed ones (origin, cell corners, a y sweep, far and wrap-around coordinates) and pseudo-random ones
function points(nrand) {
	const p = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, -1, -1], [4, 8, 4], [-5, 70, 13], [15, -64, 15], [16, 319, -16],
		[-8, -63, -8], [3, 100, -3], [1000, 60, 1000], [-1000, 40, 700], [2000, 90, -1500]];
	for (let y = -96; y <= 416; y += 32) p.push([100, y, -200]);
	for (const v of [29999000, -29999000, 1000000, -1000000, 16777216, -16777217, 33554431, -33554433, 33554432])
		p.push([v, 64, v > 0 ? -v : 5], [7, 12, v]);
	let s = 987654321;
	const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
	const spans = [2000, 200000, 30000000];
	for (let i = 0; i < nrand; i++) {
		const r = spans[i % 3];
		p.push([Math.floor(rnd() * 2 * r - r), Math.floor(-64 + rnd() * 384), Math.floor(rnd() * 2 * r - r)]);
	}
	return p;
}
const PTS = points(110), RPTS = points(20);

function walk(dir) {
	const out = [];
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const f = path.join(dir, e.name);
		if (e.isDirectory()) out.push(...walk(f));
		else if (e.name.endsWith('.json')) out.push(f);
	}
	return out;
}
const dfdir = path.join(PACK, 'data/minecraft/worldgen/density_function');
const ids = walk(dfdir).map(f => 'minecraft:' + path.relative(dfdir, f).split(path.sep).join('/').replace(/\.json$/, '')).sort();
const jobs = [];
const group = (settings, pred) => ids.filter(pred).forEach(id => jobs.push([settings, id, PTS]));
group('minecraft:overworld', id => /^minecraft:(overworld\/|shift_x$|shift_z$|y$|zero$)/.test(id));
group('minecraft:large_biomes', id => id.startsWith('minecraft:overworld_large_biomes/'));
group('minecraft:amplified', id => id.startsWith('minecraft:overworld_amplified/'));
group('minecraft:nether', id => id.startsWith('minecraft:nether/'));
group('minecraft:end', id => id.startsWith('minecraft:end/'));
for (const st of ['overworld', 'large_biomes', 'amplified', 'nether', 'end', 'caves', 'floating_islands']) {
	const j = JSON.parse(fs.readFileSync(path.join(PACK, `data/minecraft/worldgen/noise_settings/${st}.json`), 'utf8'));
	for (const f of Object.keys(j.noise_router).sort()) jobs.push([`minecraft:${st}`, `router:${f}`, RPTS]);
}

const ONLY = args.only ?? 'all';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-legacy-'));
const ptsFile = n => { const f = path.join(tmp, `pts${n.length}.json`); fs.writeFileSync(f, JSON.stringify(n)); return f; };
function runOracle(argv) {
	const out = path.join(tmp, 'out.json');
	execFileSync('node', [path.join(ORACLE, 'deepslate-oracle-legacy.mjs'), PACK, ...argv, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
	const j = JSON.parse(fs.readFileSync(out, 'utf8'));
	if (j.meta.deepslate !== '0.26.2') throw new Error(`deepslate ${j.meta.deepslate}, expected 0.26.2`);
	if (j.meta.unknown_types.length) throw new Error(`unknown types ${j.meta.unknown_types}`);
	return j;
}
const hex = v => { const b = Buffer.alloc(8); b.writeDoubleBE(typeof v === 'string' ? Number(v) : v); return '0x' + b.toString('hex'); };
if (ONLY === 'all' || ONLY === 'df') {
	const lines = [`# made by: tests/golden/make-legacy.sh = node tests/golden/make-legacy.mjs; one run per @ block: node $ORACLE/deepslate-oracle-legacy.mjs $SHARED/vanilla/1.21.11 df --settings <settings> --seed <seed> --df <function> --points @<points>.json  (deepslate 0.26.2, fixes on; single points: markers transparent)`];
	for (const seed of SEEDS) {
		for (const [settings, fn, pts] of jobs) {
			const j = runOracle(['df', '--settings', settings, '--seed', seed, '--df', fn, '--points', '@' + ptsFile(pts)]);
			lines.push(`@ settings=${settings} seed=${seed} function=${fn}`);
			j.values.forEach((v, i) => lines.push(`${pts[i][0]} ${pts[i][1]} ${pts[i][2]} ${hex(v)}`));
		}
		process.stderr.write(`df: seed ${seed} done\n`);
	}
	fs.writeFileSync(path.join(OUT, 'legacy-df.txt'), lines.join('\n') + '\n');
}
if (ONLY === 'all' || ONLY === 'chunks') {
	// near and far chunks per settings and seed (a handful: the oracle takes about a second per overworld chunk)
	const CHUNKS = ['0,0', '-3,7', '62500,-3', '-1874999,1874999'];
	const SETTINGS = ['overworld', 'large_biomes', 'amplified', 'nether', 'end', 'caves', 'floating_islands'];
	const lines = [`# made by: tests/golden/make-legacy.sh = node tests/golden/make-legacy.mjs; one run per @ block: node $ORACLE/deepslate-oracle-legacy.mjs $SHARED/vanilla/1.21.11 chunk --settings <settings> --seed <seed> --chunk <cx>,<cz> --out <tmp.json> (router:final_density, cell-cache order x, y, z, + beardifier 0.0); md5 = MD5 of the values as float64 little-endian in the oracle's order ((iy*16)+iz)*16+ix; 48 samples at fixed pseudo-random indices`];
	let s2 = 13579;
	const rnd = () => ((s2 = (Math.imul(s2, 1103515245) + 12345) >>> 0) / 4294967296);
	for (const seed of SEEDS) {
		for (const st of SETTINGS) {
			for (const ch of CHUNKS) {
				const j = runOracle(['chunk', '--settings', `minecraft:${st}`, '--seed', seed, '--chunk', ch]);
				const v = j.final_density.map(x => (typeof x === 'string' ? Number(x) : x));
				const buf = Buffer.alloc(8 * v.length);
				v.forEach((x, i) => buf.writeDoubleLE(x, 8 * i));
				const md5 = crypto.createHash('md5').update(buf).digest('hex');
				lines.push(`@ settings=minecraft:${st} seed=${seed} chunk=${ch} min_y=${j.minY} height=${j.sizeY} md5=${md5}`);
				for (let k = 0; k < 48; k++) {
					const i = k === 0 ? 0 : Math.floor(rnd() * v.length);
					const ix = i % 16, iz = Math.floor(i / 16) % 16, iy = Math.floor(i / 256);
					lines.push(`${j.minX + ix} ${j.minY + iy} ${j.minZ + iz} ${hex(v[i])}`);
				}
			}
		}
		process.stderr.write(`chunks: seed ${seed} done\n`);
	}
	fs.writeFileSync(path.join(OUT, 'legacy-chunks.txt'), lines.join('\n') + '\n');
}
if (ONLY === 'all' || ONLY === 'pack') {
	const TP = path.join(args.repo, 'tests/packs/mc121');
	const tdir = path.join(TP, 'data/t/worldgen/density_function');
	const tids = walk(tdir).map(f => 't:' + path.relative(tdir, f).split(path.sep).join('/').replace(/\.json$/, '')).sort();
	const tjobs = tids.map(id => ['t:s', id]).concat(['router:final_density', 'router:temperature', 'router:vegetation', 'router:continents',
		'router:depth', 'router:ridges', 'router:initial_density_without_jaggedness', 'router:vein_toggle'].map(f => ['t:s', f]))
		.concat(['t:legacy_noises', 't:final_legacy', 't:blended2', 't:end', 't:spline', 't:n1', 't:n2', 'router:final_density'].map(f => ['t:legacy', f]));
	const TPTS = points(40);
	const runPack = argv => {
		const out = path.join(tmp, 'out.json');
		execFileSync('node', [path.join(ORACLE, 'deepslate-oracle-legacy.mjs'), TP, ...argv, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
		const j = JSON.parse(fs.readFileSync(out, 'utf8'));
		if (j.meta.deepslate !== '0.26.2') throw new Error(`deepslate ${j.meta.deepslate}, expected 0.26.2`);
		if (j.meta.unknown_types.length) throw new Error(`unknown types ${j.meta.unknown_types}`);
		return j;
	};
	const SEEDS2 = ['0', '-4172144997902289642'];
	const lines = [`# made by: tests/golden/make-legacy.sh --only pack; one run per @ block: node $ORACLE/deepslate-oracle-legacy.mjs tests/packs/mc121 df --settings <settings> --seed <seed> --df <function> --points @<points>.json  (deepslate 0.26.2, fixes on; single points)`];
	for (const seed of SEEDS2)
		for (const [settings, fn] of tjobs) {
			const j = runPack(['df', '--settings', settings, '--seed', seed, '--df', fn, '--points', '@' + ptsFile(TPTS)]);
			lines.push(`@ pack=mc121 settings=${settings} seed=${seed} function=${fn}`);
			j.values.forEach((v, i) => lines.push(`${TPTS[i][0]} ${TPTS[i][1]} ${TPTS[i][2]} ${hex(v)}`));
		}
	fs.writeFileSync(path.join(OUT, 'legacy-pack-df.txt'), lines.join('\n') + '\n');
	const cl = [`# made by: tests/golden/make-legacy.sh --only pack; one run per @ block: node $ORACLE/deepslate-oracle-legacy.mjs tests/packs/mc121 chunk --settings <settings> --seed <seed> --chunk <cx>,<cz> --df <function> --out <tmp.json>; md5 = MD5 of the values as float64 little-endian in the oracle's order; 48 samples`];
	let s3 = 24680;
	const rnd3 = () => ((s3 = (Math.imul(s3, 1103515245) + 12345) >>> 0) / 4294967296);
	for (const seed of SEEDS2)
		for (const [settings, fn] of [['t:s', 'router:final_density'], ['t:legacy', 'router:final_density'], ['t:s', 'router:vein_toggle']])
			for (const ch of ['0,0', '-5,3', '125000,-7']) {
				const j = runPack(['chunk', '--settings', settings, '--seed', seed, '--chunk', ch, '--df', fn]);
				const v = (j.final_density ?? j.values).map(x => (typeof x === 'string' ? Number(x) : x));
				const buf = Buffer.alloc(8 * v.length);
				v.forEach((x, i) => buf.writeDoubleLE(x, 8 * i));
				const md5 = crypto.createHash('md5').update(buf).digest('hex');
				cl.push(`@ pack=mc121 settings=${settings} seed=${seed} chunk=${ch} function=${fn} min_y=${j.minY} height=${j.sizeY} md5=${md5}`);
				for (let k = 0; k < 48; k++) {
					const i = k === 0 ? 0 : Math.floor(rnd3() * v.length);
					const ix = i % 16, iz = Math.floor(i / 16) % 16, iy = Math.floor(i / 256);
					cl.push(`${j.minX + ix} ${j.minY + iy} ${j.minZ + iz} ${hex(v[i])}`);
				}
			}
	fs.writeFileSync(path.join(OUT, 'legacy-pack-chunks.txt'), cl.join('\n') + '\n');
}
fs.rmSync(tmp, { recursive: true });
