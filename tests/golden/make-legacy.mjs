// make-legacy.mjs - golden values of the 1.18-1.21 dialect from the legacy oracle
// (deepslate-oracle-legacy.mjs, deepslate 0.26.2), vanilla 1.21.11 data.
// Run through make-legacy.sh (paths). Writes legacy-df.txt:
//   # made by: <command>
//   @ settings=ID seed=N function=ID
//   X Y Z 0x<16 hex digits: the IEEE-754 bits of the double>
// One oracle run (df mode, single points) per block; the script stops on any
// oracle failure, unknown density function type or deepslate version other than 0.26.2.
import { execFileSync } from 'node:child_process';
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

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-legacy-'));
const ptsFile = n => { const f = path.join(tmp, `pts${n.length}.json`); fs.writeFileSync(f, JSON.stringify(n)); return f; };
const lines = [`# made by: tests/golden/make-legacy.sh = node tests/golden/make-legacy.mjs; one run per @ block: node $ORACLE/deepslate-oracle-legacy.mjs $SHARED/vanilla/1.21.11 df --settings <settings> --seed <seed> --df <function> --points @<points>.json  (deepslate 0.26.2, fixes on; single points: markers transparent)`];
const hex = v => { const b = Buffer.alloc(8); b.writeDoubleBE(v); return '0x' + b.toString('hex'); };
for (const seed of SEEDS) {
	for (const [settings, fn, pts] of jobs) {
		const out = path.join(tmp, 'out.json');
		execFileSync('node', [path.join(ORACLE, 'deepslate-oracle-legacy.mjs'), PACK, 'df', '--settings', settings, '--seed', seed,
			'--df', fn, '--points', '@' + ptsFile(pts), '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
		const j = JSON.parse(fs.readFileSync(out, 'utf8'));
		if (j.meta.deepslate !== '0.26.2') throw new Error(`deepslate ${j.meta.deepslate}, expected 0.26.2`);
		if (j.meta.unknown_types.length) throw new Error(`unknown types ${j.meta.unknown_types}`);
		lines.push(`@ settings=${settings} seed=${seed} function=${fn}`);
		j.values.forEach((v, i) => {
			const x = typeof v === 'string' ? Number(v) : v;
			lines.push(`${pts[i][0]} ${pts[i][1]} ${pts[i][2]} ${hex(x)}`);
		});
	}
	process.stderr.write(`seed ${seed} done\n`);
}
fs.writeFileSync(path.join(OUT, 'legacy-df.txt'), lines.join('\n') + '\n');
fs.rmSync(tmp, { recursive: true });
