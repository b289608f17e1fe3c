// locate-order.mjs - the quarts the game's /locate biome looks at, in its order, for the deepslate
// oracle (../shared/oracle/deepslate-biomes.mjs --quarts @FILE, warm start kept as on one thread).
// Written from the facts of the search (not from chunkfill's C): a spiral iterator that keeps a leg
// counter, the leg's size (leg / 2 + 1) and the steps taken in it, moving before it checks whether
// the leg is over and stopping when the leg to start is past 4 r; the ys from an iterator that
// steps away from the origin, the upper side first, one side alone once the other is out of
// [min_y + 1, min_y + height]; columns origin + offset * hstep; quart = block >> 2.
// usage: node locate-order.mjs X Y Z MINY HEIGHT COLUMNS [RADIUS HSTEP VSTEP] > quarts.json
// (BLOCKS=1 in the environment: the block positions instead of their quarts)
const [x, y, z, minY, height, columns, radius = 6400, hstep = 32, vstep = 64] = process.argv.slice(2).map(Number);
const lo = minY + 1, hi = minY + height;
const o = Math.min(Math.max(y, lo), hi);
const ys = [];
for (let v = o; ; ) {
	ys.push(v);
	const below = v <= o, d = Math.abs(o - v);
	let next = o + d + vstep;
	if (!(below && o + d + vstep <= hi)) {
		const c = o - d - (below ? vstep : 0);
		if (c >= lo) next = c;
	}
	const nd = Math.abs(o - next);
	if (!(o - nd >= lo || o + nd <= hi)) break;
	v = next;
}
const dirs = [[1, 0], [0, 1], [-1, 0], [0, -1]];
const r = Math.floor(radius / hstep);
const out = [];
let cx = 0, cz = 1; // the cursor starts one south of the centre; the first move (north) brings it back
let leg = -1, size = 0, idx = 0;
for (let n = 0; n < columns; n++) {
	const dd = dirs[(leg + 4) % 4];
	cx += dd[0], cz += dd[1];
	if (idx >= size) {
		if (leg >= 4 * r) break;
		leg++, idx = 0, size = Math.floor(leg / 2) + 1;
	}
	idx++;
	const bx = x + cx * hstep, bz = z + cz * hstep;
	for (const by of ys) out.push(process.env.BLOCKS ? [bx, by, bz] : [bx >> 2, by >> 2, bz >> 2]);
}
process.stdout.write(JSON.stringify(out) + '\n');
