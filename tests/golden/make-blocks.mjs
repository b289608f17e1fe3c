#!/usr/bin/env node
// make-blocks.mjs - writes tests/golden/blocks.txt: the blocks of the noise stage (final density + aquifer) of whole
// chunks, from the deepslate oracle's `blocks` mode (patches M10, M11: vanilla 26.3's NoiseBasedAquifer).  Node
// built-ins only.  Usage (normally through make-blocks.sh):
//   node make-blocks.mjs --oracle DIR --shared DIR [--repo DIR] [--out FILE] [--jobs N]
//
// Per (pack, settings, seed, chunk) it runs
//   node oracle-wrap.mjs $ORACLE/deepslate-oracle.mjs <pack> blocks --mc 26.3 --settings S --seed N --chunk CX,CZ --out tmp.json
// and writes one line
//   @ pack=P settings=S seed=N chunk=CX,CZ height=H palette=A,B,.. md5=M counts=A:n,B:n,..
// palette = the oracle's block ids (properties dropped) in its order of first appearance; M = MD5 of the palette
// indices as bytes in the oracle's order (index ((iy*16)+iz)*16+ix, y from min_y upward).  Only the oracle's
// numbers are written, nothing from the vanilla data.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = {};
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
	args[a.slice(2)] = process.argv[++i];
}
const REPO = path.resolve(args.repo ?? path.join(HERE, '..', '..'));
const ORACLE_DIR = path.resolve(args.oracle ?? '/work/oracle');
const SHARED = path.resolve(args.shared ?? path.join(REPO, '..', 'shared'));
const OUT = path.resolve(args.out ?? path.join(HERE, 'blocks.txt'));
const JOBS = Math.max(1, Number(args.jobs ?? os.cpus().length));
const ORACLE = path.join(ORACLE_DIR, 'deepslate-oracle.mjs');
// through oracle-wrap.mjs: deepslate's ChunkPos.asLong collides for x < 0 (the aquifer's surface cache); see there
const WRAP = path.join(HERE, 'oracle-wrap.mjs');
const VANILLA = path.join(SHARED, 'vanilla', '26.3');
for (const p of [ORACLE, VANILLA]) if (!fs.existsSync(p)) throw new Error(`missing ${p}`);

// our test packs: packs/default with tests/packs/aquifer layered over it, merged into one folder for the oracle
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'chunkfill-blocks-'));
const MERGED = path.join(TMP, 'aquifer-merged');
for (const src of [path.join(REPO, 'packs', 'default'), path.join(REPO, 'tests', 'packs', 'aquifer')])
	fs.cpSync(path.join(src, 'data'), path.join(MERGED, 'data'), { recursive: true });

const SEEDS = [0n, -4172144997902289642n, 12345n];
const NEAR = [[0, 0], [-3, 7], [-20, -33]];
// far: block x = 1,000,000 and the world border (aquifer grid x past 686: Mth.getSeed's int product wraps)
const FAR = [[62500, -3], [-1874999, 1874999]];
const PLAN = [];
for (const s of ['overworld', 'large_biomes', 'amplified', 'nether', 'end', 'caves', 'floating_islands'])
	for (const seed of SEEDS)
		for (const c of [...NEAR, ...FAR]) PLAN.push(['vanilla-26.3', VANILLA, `minecraft:${s}`, seed, c]);
for (const s of ['minecraft:overworld', 'aq:legacy', 'aq:lava', 'aq:dry'])
	for (const seed of [0n, 42n])
		for (const c of [[0, 0], [5, -9], [100000, -100000]]) PLAN.push(['aquifer', MERGED, s, seed, c]);

function runOracle(argv) {
	return new Promise(resolve => {
		execFile(process.execPath, [WRAP, ORACLE, ...argv], { maxBuffer: 256 << 20, cwd: ORACLE_DIR },
			(err, stdout, stderr) => resolve({ err, stderr }));
	});
}

const lines = new Array(PLAN.length);
const failures = [];
let next = 0, done = 0;
async function worker() {
	while (next < PLAN.length) {
		const k = next++;
		const [tag, dir, settings, seed, [cx, cz]] = PLAN[k];
		const out = path.join(TMP, `o${k}.json`);
		const where = `${tag} ${settings} seed ${seed} chunk ${cx},${cz}`;
		const { err, stderr } = await runOracle([dir, 'blocks', '--mc', '26.3', '--settings', settings, '--seed',
			seed.toString(), '--chunk', `${cx},${cz}`, '--out', out]);
		try {
			if (err) throw new Error(`oracle failed: ${(stderr || String(err)).trim().split('\n').slice(-3).join(' | ')}`);
			const res = JSON.parse(fs.readFileSync(out, 'utf8'));
			const m = res.meta;
			if (m.deepslate !== '0.27.2' || m.mc !== '26.3' || m.mode !== 'blocks') throw new Error(`unexpected meta ${JSON.stringify(m).slice(0, 200)}`);
			if (m.unknown_types.length) throw new Error(`unknown types ${m.unknown_types.join(',')}`);
			if (!m.fixes.some(f => f.startsWith('M10')))   // M11 (aquifer functions bound to the seed) has no flag: always on
				throw new Error('the oracle did not apply M10');
			if (res.sizeX !== 16 || res.sizeZ !== 16 || res.sizeY !== m.height) throw new Error('unexpected volume');
			const names = res.palette.map(p => p.replace(/\[.*$/, ''));
			if (new Set(names).size !== names.length) throw new Error(`palette with repeated ids: ${res.palette}`);
			const bytes = Buffer.from(res.states);
			if (bytes.length !== 256 * m.height || res.states.some(v => v >= names.length)) throw new Error('bad states');
			const counts = names.map((n, i) => `${n}:${res.states.filter(v => v === i).length}`);
			const md5 = crypto.createHash('md5').update(bytes).digest('hex');
			lines[k] = `@ pack=${tag} settings=${settings} seed=${seed} chunk=${cx},${cz} height=${m.height} ` +
				`palette=${names.join(',')} md5=${md5} counts=${counts.join(',')}`;
		} catch (e) {
			failures.push(`${where}: ${e.message}`);
		}
		fs.rmSync(out, { force: true });
		process.stderr.write(`\r${++done}/${PLAN.length}`);
	}
}
await Promise.all(Array.from({ length: JOBS }, worker));
process.stderr.write('\n');
fs.rmSync(TMP, { recursive: true, force: true });
if (failures.length) {
	console.error(failures.join('\n'));
	process.exit(1);
}
const head = `# made by: tests/golden/make-blocks.sh (oracle deepslate-oracle.mjs, deepslate 0.27.2, --mc 26.3, blocks mode)\n`;
fs.writeFileSync(OUT, head + lines.join('\n') + '\n');
console.log(`wrote ${OUT}: ${lines.length} chunks`);
