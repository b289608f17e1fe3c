// viewer_test.mjs - the map viewer in a real browser (headless Chromium over the
// DevTools protocol; Node's own WebSocket, no npm packages): opens the page, waits for
// its tiles, takes a screenshot and checks that two whole tiles on it equal, pixel for
// pixel, the PNGs `chunkfill render` gives for their areas; drags the map and checks
// which tiles were then requested (the server's log, or the page's images for a static
// folder); moves the cursor and checks that the page shows /at's answer there, and never an
// earlier position's late answer; coarse first (after '+', the level-1 tiles scaled 2x while the
// level-0 answers are held), the requests of tiles that left the view cancelled, the go-to box;
// with tests/packs/dims (mode dims): the legend, the dimension menu, below, the state in the URL.
// usage: node --experimental-websocket viewer_test.mjs WS_URL PAGE_URL MODE REFDIR [SERVER_LOG SERVER_URL]
//   MODE: server (the tiny pack, seed 5), static (a tiles folder), dims (tests/packs/dims, seed 1) or
//   structures (tests/packs/dims with tests/packs/structures, seed 1: the markers and the spawn point)
//   REFDIR holds tile_X_Y.png rendered by `chunkfill render` for tiles (-1,-1) and (0,0).
import fs from "node:fs";
import zlib from "node:zlib";

const [wsUrl, pageUrl, mode, refDir, serverLog, serverUrl] = process.argv.slice(2);
const W = 1000, H = 800, T = 256;
const view = {x: 0, z: -40}; // centre block given in the page's hash
function fail(msg) { console.error("viewer_test: FAIL: " + msg); process.exit(1); }

// ---------------------------------------------------------------- PNG decoding (8-bit RGB/RGBA)
function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) fail("not a PNG");
  let off = 8, w = 0, h = 0, ct = 0, idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString("ascii", off + 4, off + 8), d = buf.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      w = d.readUInt32BE(0); h = d.readUInt32BE(4); ct = d[9];
      if (d[8] !== 8 || (ct !== 2 && ct !== 6) || d[12] !== 0) fail("unsupported PNG format");
    } else if (type === "IDAT") idat.push(d);
    off += 12 + len;
  }
  const bpp = ct === 6 ? 4 : 3, raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp;
  const out = Buffer.alloc(w * h * 3), prev = Buffer.alloc(stride), cur = Buffer.alloc(stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let p;
      if (f === 0) p = 0; else if (f === 1) p = a; else if (f === 2) p = b; else if (f === 3) p = (a + b) >> 1;
      else { const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      cur[i] = (src[i] + p) & 255;
    }
    for (let x = 0; x < w; x++) for (let k = 0; k < 3; k++) out[(y * w + x) * 3 + k] = cur[x * bpp + k];
    cur.copy(prev);
  }
  return {w, h, px: out};
}

// ---------------------------------------------------------------- DevTools protocol
const ws = new WebSocket(wsUrl);
let seq = 0;
const pending = new Map(), events = [];
ws.onmessage = (m) => {
  const msg = JSON.parse(m.data);
  if (msg.id && pending.has(msg.id)) {
    const {resolve, reject} = pending.get(msg.id);
    pending.delete(msg.id);
    msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result);
  } else events.push(msg);
};
function send(method, params = {}, sessionId) {
  const id = ++seq;
  ws.send(JSON.stringify({id, method, params, sessionId}));
  return new Promise((resolve, reject) => pending.set(id, {resolve, reject}));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await new Promise((r, j) => { ws.onopen = r; ws.onerror = () => j(new Error("cannot connect to " + wsUrl)); });

const {targetId} = await send("Target.createTarget", {url: "about:blank"});
const {sessionId} = await send("Target.attachToTarget", {targetId, flatten: true});
const S = (m, p) => send(m, p, sessionId);
await S("Page.enable");
await S("Emulation.setDeviceMetricsOverride", {width: W, height: H, deviceScaleFactor: 1, mobile: false});
const evaluate = async (expr) => (await S("Runtime.evaluate", {expression: expr, returnByValue: true})).result.value;

// the view's exact tiles once the page has shown all of them (#map's data-missing 0, every
// img.tile decoded); fails on tiles the server refused
async function waitTiles(what) {
  for (let i = 0; i < 1800; i++) { // up to 180 s (a loaded machine)
    const st = await evaluate(`(() => { const m = document.getElementById("map"), im = Array.from(m.querySelectorAll("img.tile"));
      if (m.getAttribute("data-failed")) return {failed: m.getAttribute("data-failed")};
      return m.getAttribute("data-missing") === "0" && im.length > 0 && im.every(i => i.complete) ? im.map(i => [i.naturalWidth, i.getAttribute("data-tile")]) : null; })()`);
    if (st && st.failed) fail(`${what}: tiles that did not load: ${st.failed}`);
    if (st) {
      const bad = st.filter((s) => s[0] !== T);
      if (bad.length) fail(`${what}: tiles that did not load: ${bad.map((b) => b[1]).join(" ")}`);
      return st.map((s) => s[1]);
    }
    await sleep(100);
  }
  fail(`${what}: the tiles did not load within 180 s`);
}

// the tiles a view needs: the page's own arithmetic (level 0), recomputed here
function tilesFor(cx, cz, layer = "relief") {
  const ox = cx - Math.floor(W / 2), oz = cz - Math.floor(H / 2), set = new Set();
  for (let ty = Math.floor(oz / T); ty <= Math.floor((oz + H - 1) / T); ty++)
    for (let tx = Math.floor(ox / T); tx <= Math.floor((ox + W - 1) / T); tx++) set.add(`${layer}/0/${tx}/${ty}.png`);
  return set;
}
const bare = (u) => u.replace(/^\//, "").replace(/\?.*$/, "");
const seedQ = {server: "&seed=5", static: "", dims: "&seed=1"}[mode];
if (mode === "legend") await staticLegend(); // exits
if (mode === "structures") await structuresChecks(); // exits

await S("Page.navigate", {url: `${pageUrl}#layer=relief&zoom=0&x=${view.x}&z=${view.z}` + seedQ});
const first = await waitTiles("first view");
const t0 = Date.now();
if (mode === "dims") await dimsChecks(); // exits

// 1. the screenshot equals render's pixels for two whole tiles (refs: prefix_TX_TY.png)
async function screenEqualsRender(prefix, layer) {
  const shot = decodePng(Buffer.from((await S("Page.captureScreenshot", {format: "png"})).data, "base64"));
  if (shot.w !== W || shot.h !== H) fail(`screenshot is ${shot.w}x${shot.h}, not ${W}x${H}`);
  fs.writeFileSync(`${refDir}/screenshot-${mode}-${layer}.png`, Buffer.from((await S("Page.captureScreenshot", {format: "png"})).data, "base64"));
  const ox = view.x - W / 2, oz = view.z - H / 2;
  for (const [tx, ty] of [[-1, -1], [0, 0]]) {
    const ref = decodePng(fs.readFileSync(`${refDir}/${prefix}_${tx}_${ty}.png`));
    const sx = tx * T - ox, sy = ty * T - oz;
    let diff = 0, firstDiff = "";
    for (let y = 0; y < T; y++)
      for (let x = 0; x < T; x++)
        for (let k = 0; k < 3; k++)
          if (shot.px[((sy + y) * W + sx + x) * 3 + k] !== ref.px[(y * T + x) * 3 + k]) {
            if (!diff) firstDiff = `(${x}, ${y})`;
            diff++;
          }
    if (diff) fail(`${mode}: ${layer} tile (${tx}, ${ty}) at screen (${sx}, ${sy}): ${diff} channel values differ from render, first at ${firstDiff}`);
    console.log(`viewer_test: ${mode}: ${layer} tile (${tx}, ${ty}) on screen equals render --layer ${layer} of its area (${T}x${T} pixels)`);
  }
}
await screenEqualsRender("tile", "relief");

// 2. dragging the map by (+300, +200) pixels in 10 steps requests every tile that comes
// into view on the way (the end view's new tiles among them) and no other
const before = tilesFor(view.x, view.z), after = tilesFor(view.x - 300, view.z - 200);
const logLines = () => (serverLog ? fs.readFileSync(serverLog, "utf8").split("\n") : []);
const logBefore = Math.max(0, logLines().length - 1); // the text after the last newline is the next line
await S("Input.dispatchMouseEvent", {type: "mousePressed", x: 500, y: 400, button: "left", clickCount: 1});
for (let i = 1; i <= 10; i++) await S("Input.dispatchMouseEvent", {type: "mouseMoved", x: 500 + 30 * i, y: 400 + 20 * i, button: "left"});
await S("Input.dispatchMouseEvent", {type: "mouseReleased", x: 800, y: 600, button: "left", clickCount: 1});
const shown = (await waitTiles("after the drag")).map(bare);
const want = [...after].sort();
if (JSON.stringify([...new Set(shown)].sort()) !== JSON.stringify(want)) fail(`after the drag the page shows ${shown.sort()} instead of ${want}`);
if (serverLog) {
  const fresh = [...after].filter((t) => !before.has(t));
  let requested = new Set();
  for (let i = 0; i < 50; i++) { // the server logs a request after answering it
    requested = new Set(logLines().slice(logBefore).map((l) => (l.match(/GET \/(relief\/0\/-?\d+\/-?\d+\.png)\?seed=5[^ ]* 200/) || [])[1]).filter(Boolean));
    if (fresh.every((t) => requested.has(t))) break;
    await sleep(100);
  }
  for (const t of fresh) if (!requested.has(t)) fail(`the drag did not request ${t} (server log: ${[...requested].join(" ")}; log tail: ${logLines().slice(-5).join(" / ")})`);
  const path = new Set(); // every view the drag passed through
  for (let i = 1; i <= 10; i++) for (const t of tilesFor(view.x - 30 * i, view.z - 20 * i)) path.add(t);
  for (const t of requested) if (!path.has(t) || before.has(t)) fail(`the drag requested ${t}, which it never brought into view`);
  if (!fresh.length) fail("the drag showed no new tiles (test geometry)");
  console.log(`viewer_test: ${mode}: the drag requested the ${fresh.length} newly visible tiles of the end view (${requested.size} along its path, none outside it) (server log)`);
} else {
  console.log(`viewer_test: ${mode}: after the drag the page shows the ${want.length} tiles of the new view`);
}

// 3. the cursor: coordinates, and /at's answer there
const cx = view.x - 300, cz = view.z - 200, px = 321, py = 234;
const bx = cx - W / 2 + px, bz = cz - H / 2 + py;
await S("Input.dispatchMouseEvent", {type: "mouseMoved", x: px, y: py});
let info = "";
for (let i = 0; i < 100; i++) {
  info = await evaluate(`document.getElementById("info").textContent`);
  if (mode !== "server" || info.includes("height")) break;
  await sleep(100);
}
if (!info.startsWith(`x ${bx}  z ${bz}`)) fail(`the cursor at (${px}, ${py}) shows '${info}', not block (${bx}, ${bz})`);
if (mode === "server") {
  const at = await (await fetch(`${serverUrl}at?x=${bx}&z=${bz}&seed=5`)).json();
  const want = `height ${at.height}  block ${at.block}  fluid ${at.fluid}  biome ${at.biome}`;
  if (!info.includes(want)) fail(`the cursor query shows '${info}', /at says '${want}'`);
  console.log(`viewer_test: ${mode}: the cursor at block (${bx}, ${bz}) shows /at's answer: ${want}`);
}
// 3b. a late answer is never shown beside a newer position (the page's race: today's flake). The
// answers of /at are held in the browser (DevTools Fetch domain, response stage): the cursor rests
// at A until A's answer is held, moves to B, then A's answer is released; the read-out must never
// show A's answer, and B's answer must follow.
if (mode === "server") {
  const waitEvent = async (method, pred, what) => {
    for (let i = 0; i < 600; i++) {
      const k = events.findIndex((e) => e.method === method && pred(e.params));
      if (k >= 0) return events.splice(k, 1)[0].params;
      await sleep(10);
    }
    fail(`no ${method} event: ${what}`);
  };
  const block = (x, y) => [cx - W / 2 + x, cz - H / 2 + y];
  const [ax, az] = block(700, 500), [qx, qz] = block(200, 150);
  await S("Fetch.enable", {patterns: [{urlPattern: "*/at?*", requestStage: "Response"}]});
  await S("Input.dispatchMouseEvent", {type: "mouseMoved", x: 700, y: 500});
  const heldA = await waitEvent("Fetch.requestPaused", (p) => p.request.url.includes(`x=${ax}&z=${az}`), "the answer at A");
  await S("Input.dispatchMouseEvent", {type: "mouseMoved", x: 200, y: 150});
  await S("Fetch.continueRequest", {requestId: heldA.requestId}).catch(() => {}); // the page may have aborted it
  for (let i = 0; i < 30; i++) { // A's answer reaches the page within this time, B's is asked for after 120 ms
    const now = await evaluate(`document.getElementById("info").textContent`);
    if (now.includes("height") && !now.startsWith(`x ${qx}  z ${qz}`)) fail(`the cursor at B (${qx}, ${qz}) shows an earlier answer: '${now}'`);
    await sleep(10);
  }
  const heldB = await waitEvent("Fetch.requestPaused", (p) => p.request.url.includes(`x=${qx}&z=${qz}`), "the answer at B");
  await S("Fetch.continueRequest", {requestId: heldB.requestId});
  await S("Fetch.disable");
  let got = "";
  for (let i = 0; i < 100 && !got.includes("height"); i++) { got = await evaluate(`document.getElementById("info").textContent`); await sleep(50); }
  if (!got.startsWith(`x ${qx}  z ${qz}\nheight`)) fail(`after A's late answer the cursor at B (${qx}, ${qz}) shows '${got}'`);
  console.log(`viewer_test: ${mode}: an answer for an earlier cursor position that arrives late is not shown (held with the Fetch domain)`);
}
const hash = await evaluate("location.hash");
if (!hash.includes(`x=${cx}`) || !hash.includes(`z=${cz}`) || (mode === "server" && !hash.includes("seed=5")))
  fail(`the URL hash '${hash}' does not hold the view`);
// 4. the layer menu: back to the first view, then "blocks" from the menu: its tiles, equal to render --layer blocks
await evaluate(`location.hash = "#layer=relief&zoom=0&x=${view.x}&z=${view.z}` + (mode === "server" ? "&seed=5" : "") + `"`);
await sleep(200);
await waitTiles("back at the first view");
await evaluate(`(() => { const s = document.getElementById("layer"); s.value = "blocks"; s.dispatchEvent(new Event("change")); })()`);
const blk = await waitTiles("the blocks layer");
if (!blk.length || !blk.every((u) => /(^|\/)blocks\/0\//.test(u))) fail(`after choosing blocks the page shows ${blk.join(" ")}`);
await screenEqualsRender("blocks", "blocks");
if (mode === "server") await coarseFirst();
if (mode === "server") await coldPreview();
await goTo();
console.log(`viewer_test: ${mode}: ok (${first.length} tiles first, ${Date.now() - t0} ms after them)`);
await send("Target.closeTarget", {targetId});
ws.close();
process.exit(0);

// 5. coarse first (server): at level 1 every tile of a view not seen before loads; then "+" with
// the level-0 answers held (DevTools Fetch domain, before they reach the server): the screen shows
// the level-1 tiles scaled 2x, pixel for pixel; released, the exact level-0 tiles replace them
// zs: the screen's level (2^zs blocks a pixel); tries: screenshots taken 300 ms apart until one
// equals (a loaded machine may paint the decoded images a frame late)
async function screenEqualsTiles(level, c, what, zs = 0, tries = 1) {
  for (let t = 1; ; t++) {
    const bad = await screenDiff(level, c, zs);
    if (!bad) return;
    if (t >= tries) fail(`${what}: the screen is not the level-${level} tiles scaled ${1 << (level - zs)}x: ${bad}`);
    await sleep(300);
  }
}
async function screenDiff(level, c, zs) {
  const shot = decodePng(Buffer.from((await S("Page.captureScreenshot", {format: "png"})).data, "base64"));
  const sc = 1 << zs, ox = Math.floor(c.x / sc) * sc - (W / 2) * sc, oz = Math.floor(c.z / sc) * sc - (H / 2) * sc, span = T << level, tiles = new Map();
  let diff = 0, firstDiff = "";
  for (let py = 100; py < H - 100; py++) // the middle of the screen: no controls over it
    for (let px = 100; px < W - 100; px++) {
      const bx = ox + px * sc, bz = oz + py * sc, X = Math.floor(bx / span), Y = Math.floor(bz / span), key = `${X}/${Y}`;
      if (!tiles.has(key)) tiles.set(key, decodePng(Buffer.from(await (await fetch(`${serverUrl}relief/${level}/${key}.png?seed=5`)).arrayBuffer())));
      const p = tiles.get(key), i = ((bz - Y * span) >> level) * T + ((bx - X * span) >> level);
      for (let k = 0; k < 3; k++)
        if (shot.px[(py * W + px) * 3 + k] !== p.px[i * 3 + k]) {
          if (!diff) firstDiff = `(${px}, ${py}): screen ${Array.from(shot.px.slice((py * W + px) * 3, (py * W + px) * 3 + 3))}, tile ${key} pixel ${i % T},${Math.floor(i / T)} ${Array.from(p.px.slice(i * 3, i * 3 + 3))}`;
          diff++;
        }
    }
  return diff ? `${diff} channel values differ, first at ${firstDiff}` : "";
}
async function coarseFirst() {
  const c = {x: 3000, z: 2000};
  await evaluate(`location.hash = "#layer=relief&zoom=1&x=${c.x}&z=${c.z}${seedQ}"`);
  await sleep(200);
  await waitTiles("level 1");
  await S("Fetch.enable", {patterns: [{urlPattern: "*/relief/0/*", requestStage: "Request"}]});
  await evaluate(`document.getElementById("zin").click()`);
  const held = [];
  for (let i = 0; i < 300 && !held.length; i++) {
    for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) held.push(events.splice(k, 1)[0].params.requestId);
    await sleep(10);
  }
  if (!held.length) fail("after '+' the page asked for no level-0 tile");
  const st = await evaluate(`[document.getElementById("map").getAttribute("data-missing"), document.querySelectorAll("#map img.coarse").length]`);
  if (+st[0] === 0 || st[1] === 0) fail(`while level 0 loads: ${st[0]} tiles missing, ${st[1]} coarse tiles shown`);
  for (let i = 0; i < 100 && !(await evaluate(`Array.from(document.querySelectorAll("#map img.coarse")).every(i => i.complete)`)); i++) await sleep(50);
  await screenEqualsTiles(1, c, "while level 0 loads");
  console.log(`viewer_test: ${mode}: after '+' the level-1 tiles, scaled 2x, show at once (${(W - 200) * (H - 200)} pixels equal, ${st[0]} level-0 tiles missing)`);
  // requests paused after the first poll are held too: release every one, and leave no stale
  // Fetch.requestPaused event behind for the next step to mistake for one of its own
  for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) held.push(events.splice(k, 1)[0].params.requestId);
  for (const id of held) await S("Fetch.continueRequest", {requestId: id}).catch(() => {});
  await S("Fetch.disable");
  for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) events.splice(k, 1);
  await waitTiles("level 0 after the coarse tiles");
  if (await evaluate(`document.querySelectorAll("#map img.coarse").length`)) fail("coarse tiles still shown once level 0 has loaded");
  await screenEqualsTiles(0, c, "once level 0 has loaded");
  console.log(`viewer_test: ${mode}: then the exact level-0 tiles replace them`);
  // the tiles of a view left before their answers: the page aborts their requests (held unsent
  // here, so the browser reports each one canceled)
  await S("Network.enable");
  await S("Fetch.enable", {patterns: [{urlPattern: "*/relief/0/*", requestStage: "Request"}]});
  await evaluate(`(() => { document.getElementById("goto").value = "9000, 7000"; document.getElementById("gotoform").requestSubmit(); })()`);
  const away = [];
  for (let i = 0; i < 300 && away.length < 2; i++) {
    for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) {
      const p = events.splice(k, 1)[0].params, m = /\/relief\/0\/(-?\d+)\/(-?\d+)\.png/.exec(p.request.url);
      // only a tile of the view around (9000, 7000) counts; anything else is released at once
      if (m && Math.abs(+m[1] * T + T / 2 - 9000) < W && Math.abs(+m[2] * T + T / 2 - 7000) < H) away.push(p);
      else await S("Fetch.continueRequest", {requestId: p.requestId}).catch(() => {});
    }
    await sleep(10);
  }
  if (!away.length) fail("go to 9000, 7000 asked for no tile");
  await evaluate(`(() => { document.getElementById("goto").value = "${c.x}, ${c.z}"; document.getElementById("gotoform").requestSubmit(); })()`);
  for (const p of away) {
    let ok = false;
    for (let i = 0; i < 300 && !ok; i++) {
      ok = events.some((e) => e.method === "Network.loadingFailed" && e.params.requestId === p.networkId && e.params.canceled);
      if (!ok) await sleep(10);
    }
    if (!ok) fail(`${p.request.url}: its tile left the view, the request was not cancelled`);
  }
  for (const p of away) await S("Fetch.continueRequest", {requestId: p.requestId}).catch(() => {});
  await S("Fetch.disable");
  await S("Network.disable");
  await waitTiles("back from 9000, 7000");
  console.log(`viewer_test: ${mode}: leaving a view cancels the requests of its tiles still out (${away.length} of them, canceled in the browser)`);
}

// 5b. a cold start at level 2 (a view none of whose tiles, at any level, has loaded): the page asks
// for the view's tiles 3 levels up before its own; with the level-2 answers held (before they reach
// the server) the screen is the level-5 tiles scaled 8x; released, the exact level-2 tiles replace them
async function coldPreview() {
  const c = {x: -40000, z: 36000};
  for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) events.splice(k, 1);
  await S("Fetch.enable", {patterns: [{urlPattern: "*/relief/2/*", requestStage: "Request"}]});
  await evaluate(`location.hash = "#layer=relief&zoom=2&x=${c.x}&z=${c.z}${seedQ}"`);
  const held = [];
  let shown = 0;
  for (let i = 0; i < 1800 && !(held.length && shown); i++) { // up to 180 s (a loaded machine)
    for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) held.push(events.splice(k, 1)[0].params.requestId);
    shown = await evaluate(`(() => { const a = Array.from(document.querySelectorAll("#map img.coarse"));
      return a.length && a.every(i => i.complete && i.getAttribute("data-tile").includes("/relief/5/")) ? a.length : 0; })()`);
    if (!(held.length && shown)) await sleep(100);
  }
  if (!held.length) fail("a cold start at level 2 asked for no level-2 tile");
  if (!shown) fail("a cold start at level 2: no level-5 tile shown while the level-2 tiles are held");
  const missing = await evaluate(`document.getElementById("map").getAttribute("data-missing")`);
  if (+missing === 0) fail("a cold start at level 2: the level-5 tiles were counted as the view's");
  await screenEqualsTiles(5, c, "a cold start at level 2, its tiles held", 2, 10);
  console.log(`viewer_test: ${mode}: a cold start at level 2 shows ${shown} level-5 tile(s) scaled 8x first (${missing} level-2 tiles held)`);
  for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) held.push(events.splice(k, 1)[0].params.requestId);
  for (const id of held) await S("Fetch.continueRequest", {requestId: id}).catch(() => {});
  await S("Fetch.disable");
  for (let k; (k = events.findIndex((e) => e.method === "Fetch.requestPaused")) >= 0;) events.splice(k, 1);
  await waitTiles("level 2 after the coarse screen");
  if (await evaluate(`document.querySelectorAll("#map img.coarse").length`)) fail("coarse tiles still shown once level 2 has loaded");
  await screenEqualsTiles(2, c, "once level 2 has loaded", 2, 10);
  console.log(`viewer_test: ${mode}: then the exact level-2 tiles replace them`);
  await evaluate(`location.hash = "#layer=relief&zoom=0&x=3000&z=2000${seedQ}"`); // back where coarseFirst left the page
  await sleep(200);
  await waitTiles("back at level 0");
}

// 6. the go-to box: "X, Z" centres block (X, Z) (its tiles, the URL hash); bad text changes nothing
async function goTo() {
  const layer = await evaluate(`document.getElementById("layer").value`);
  await evaluate(`(() => { document.getElementById("goto").value = "-300, -200"; document.getElementById("gotoform").requestSubmit(); })()`);
  const hash = await evaluate("location.hash");
  if (!hash.includes("x=-300&z=-200")) fail(`after go to -300, -200 the hash is ${hash}`);
  const got = (await waitTiles("after go to")).map(bare), want = [...tilesFor(-300, -200, layer)].sort();
  if (JSON.stringify([...new Set(got)].sort()) !== JSON.stringify(want)) fail(`after go to the page shows ${got.sort()} instead of ${want}`);
  await evaluate(`(() => { document.getElementById("goto").value = "12, north"; document.getElementById("gotoform").requestSubmit(); })()`);
  const info = await evaluate(`document.getElementById("info").textContent`);
  if (!info.startsWith("go to:") || (await evaluate("location.hash")) !== hash) fail(`go to '12, north' shows '${info}' and moves to ${await evaluate("location.hash")}`);
  console.log(`viewer_test: ${mode}: go to -300, -200 shows its ${want.length} tiles; '12, north' is refused`);
}

// a static folder of the biomes layer written with --below 40 (tiles --dimension --layer biomes):
// its legend is the server's /legend for the same pack, dimension and seed, each colour the colour table's;
// the below box shows 40 and cannot be changed (the tiles are drawn)
async function staticLegend() {
  await S("Page.navigate", {url: `${pageUrl}#zoom=0&x=128&z=128`});
  const rowsOf = () => evaluate(`Array.from(document.querySelectorAll("#legend div")).map(d => [d.textContent, d.getAttribute("data-rgb")])`);
  let rows = [];
  for (let i = 0; i < 100 && !rows.length; i++) { rows = await rowsOf(); await sleep(50); }
  const api = (await (await fetch(`${serverUrl}legend?seed=1`)).json()).biomes;
  if (!api.length || JSON.stringify(rows) !== JSON.stringify(api.map((b) => [b.id.replace(/^minecraft:/, ""), b.rgb])))
    fail(`the static folder's legend shows ${JSON.stringify(rows)}, the server's /legend says ${JSON.stringify(api)}`);
  const colours = process.env.CF_BIOME_COLOURS;
  if (colours && fs.existsSync(colours)) {
    const table = JSON.parse(fs.readFileSync(colours, "utf8")).colors;
    for (const b of api) if (table[b.id] && table[b.id] !== b.rgb) fail(`legend colour of ${b.id}: ${b.rgb}, the colour table ${table[b.id]}`);
  }
  const below = await evaluate(`[document.getElementById("below").value, document.getElementById("below").disabled]`);
  if (JSON.stringify(below) !== JSON.stringify(["40", true])) fail(`the static folder's below box: ${JSON.stringify(below)} (tiles --below 40)`);
  console.log(`viewer_test: legend: a static biomes folder shows the server's legend (${api.length} biomes) and its --below 40`);
  await send("Target.closeTarget", {targetId});
  ws.close();
  process.exit(0);
}

// the dims pack (tests/packs/dims: an overworld and a nether with a roof): the biomes layer's
// legend, the dimension menu, below (tiles and /at), the state in the URL
async function dimsChecks() {
  const choose = (id, v) => evaluate(`(() => { const s = document.getElementById("${id}"); s.value = "${v}"; s.dispatchEvent(new Event("change")); })()`);
  if (await evaluate(`document.getElementById("legend").style.display`) !== "none") fail("a legend beside the relief layer");
  await choose("layer", "biomes");
  const legendRows = () => evaluate(`Array.from(document.querySelectorAll("#legend div")).map(d => [d.textContent, d.getAttribute("data-rgb")])`);
  let rows = [];
  for (let i = 0; i < 100 && !rows.length; i++) { rows = await legendRows(); await sleep(50); }
  const api = (await (await fetch(`${serverUrl}legend?seed=1`)).json()).biomes;
  if (JSON.stringify(rows) !== JSON.stringify(api.map((b) => [b.id.replace(/^minecraft:/, ""), b.rgb])))
    fail(`the legend shows ${JSON.stringify(rows)}, /legend says ${JSON.stringify(api)}`);
  if (JSON.stringify(api.map((b) => b.id)) !== JSON.stringify(["minecraft:snowy_plains", "minecraft:desert"])) fail(`/legend lists ${JSON.stringify(api)}`);
  const colours = process.env.CF_BIOME_COLOURS; // the colour table's source (../shared), independent of the C code
  if (colours && fs.existsSync(colours)) {
    const table = JSON.parse(fs.readFileSync(colours, "utf8")).colors;
    for (const b of api) if (table[b.id] !== b.rgb) fail(`legend colour of ${b.id}: ${b.rgb}, the colour table ${table[b.id]}`);
    console.log(`viewer_test: dims: the legend shows /legend's ${api.length} biomes, each with the colour table's colour (${colours})`);
  } else console.log(`viewer_test: dims: the legend shows /legend's ${api.length} biomes (no colour table to compare with)`);
  const dimsShown = await evaluate(`[document.getElementById("dimbox").className, Array.from(document.getElementById("dim").options).map(o => o.value)]`);
  if (dimsShown[0] === "hide" || JSON.stringify(dimsShown[1]) !== JSON.stringify(["minecraft:overworld", "minecraft:the_nether"]))
    fail(`the dimension menu: ${JSON.stringify(dimsShown)}`);
  await choose("dim", "minecraft:the_nether");
  rows = [];
  for (let i = 0; i < 100 && !(rows.length === 1 && rows[0][0] === "nether_wastes"); i++) { rows = await legendRows(); await sleep(50); }
  if (JSON.stringify(rows) !== JSON.stringify([["nether_wastes", "#572526"]])) fail(`the nether's legend: ${JSON.stringify(rows)}`);
  await choose("layer", "relief");
  const roof = await waitTiles("the nether");
  if (!roof.every((u) => u.includes("dimension=minecraft%3Athe_nether") && !u.includes("below"))) fail(`the nether's tiles: ${roof.join(" ")}`);
  await choose("below", "11");
  const under = await waitTiles("the nether below 11");
  if (!under.every((u) => u.includes("dimension=minecraft%3Athe_nether") && u.includes("&below=11"))) fail(`the nether's tiles below 11: ${under.join(" ")}`);
  await screenEqualsRender("nether", "relief");
  console.log("viewer_test: dims: the dimension menu lists both dimensions; the nether below 11 equals render --settings d:cave --below 11");
  await S("Input.dispatchMouseEvent", {type: "mouseMoved", x: 321, y: 234});
  const bx = view.x - W / 2 + 321, bz = view.z - H / 2 + 234;
  let info = "";
  for (let i = 0; i < 100 && !info.includes("height"); i++) { info = await evaluate(`document.getElementById("info").textContent`); await sleep(50); }
  const at = await (await fetch(`${serverUrl}at?x=${bx}&z=${bz}&seed=1&dimension=minecraft:the_nether&below=11`)).json();
  const want = `x ${bx}  z ${bz}\nheight ${at.height}  block ${at.block}  fluid ${at.fluid}  biome ${at.biome}`;
  if (info !== want || at.height > 11 || at.biome !== "minecraft:nether_wastes") fail(`the cursor shows '${info}', /at below 11 says '${want}'`);
  await S("Page.reload");
  await sleep(300);
  await waitTiles("after a reload");
  const kept = await evaluate(`[document.getElementById("dim").value, document.getElementById("below").value, document.getElementById("layer").value]`);
  if (JSON.stringify(kept) !== JSON.stringify(["minecraft:the_nether", "11", "relief"])) fail(`after a reload the page shows ${JSON.stringify(kept)}`);
  console.log(`viewer_test: dims: the cursor shows /at below 11 (${at.height}, ${at.biome}); a reload keeps the dimension and below (URL hash)`);
  console.log(`viewer_test: dims: ok`);
  await send("Target.closeTarget", {targetId});
  ws.close();
  process.exit(0);
}

// structures (tests/packs/dims and tests/packs/structures, seed 1): with the structures box ticked
// (structures=1 in the URL), every start of /structures whose pixel is on screen has its marker
// there (9 x 9, centred; data-structure, data-x, data-z) and no other marker shows; hovering one
// shows its name and position; the climate spawn point of /spawn has its ring
async function structuresChecks() {
  const q = "seed=1", ox = view.x - W / 2, oz = view.z - H / 2;
  await S("Page.navigate", {url: `${pageUrl}#layer=relief&zoom=0&x=${view.x}&z=${view.z}&${q}&structures=1`});
  const want = [], byKey = new Map(); // a start's key: id, marker left, top (two sets may start at one chunk)
  const text = await (await fetch(`${serverUrl}structures?${q}&area=${ox - 64},${oz - 64}:${ox + W + 63},${oz + H + 63}`)).text();
  for (const l of text.split("\n").filter((l) => l)) {
    const a = JSON.parse(l), px = a.x - ox, pz = a.z - oz;
    if (px >= -5 && pz >= -5 && px <= W + 4 && pz <= H + 4) { const k = `${a.structure} ${px - 4} ${pz - 4}`; want.push(k); byKey.set(k, a); }
  }
  if (want.length < 20) fail(`structures: only ${want.length} starts on screen to look for`);
  const marks = () => evaluate(`Array.from(document.querySelectorAll("#smarks .smark:not(.spawn)")).map(d => d.getAttribute("data-structure") + " " + parseInt(d.style.left) + " " + parseInt(d.style.top))`);
  let got = [];
  for (let i = 0; i < 600 && got.length < want.length; i++) { got = await marks(); await sleep(100); }
  await sleep(300); // no more come
  got = await marks();
  const a1 = [...want].sort(), a2 = [...got].sort();
  if (JSON.stringify(a1) !== JSON.stringify(a2)) {
    const missing = a1.filter((k) => !a2.includes(k)), extra = a2.filter((k) => !a1.includes(k));
    fail(`structures: ${got.length} markers for ${want.length} starts; missing ${missing.slice(0, 3).join(", ")}; extra ${extra.slice(0, 3).join(", ")}`);
  }
  console.log(`viewer_test: structures: the ${want.length} starts of /structures on screen each have their marker`);
  // hover the marker drawn last (on top of any it overlaps)
  const last = got[got.length - 1].split(" "), a = byKey.get(got[got.length - 1]);
  await S("Input.dispatchMouseEvent", {type: "mouseMoved", x: +last[1] + 4, y: +last[2] + 4});
  let tip = "";
  for (let i = 0; i < 50 && !tip; i++) { tip = await evaluate(`document.getElementById("stip").className === "hide" ? "" : document.getElementById("stip").textContent`); await sleep(50); }
  if (!tip.startsWith(`${a.structure}  (${a.set})`) || !tip.includes(`x ${a.x}`) || !tip.includes(`z ${a.z}`))
    fail(`structures: hovering ${a.structure} at ${a.x}, ${a.z} shows '${tip}'`);
  console.log(`viewer_test: structures: hovering a marker shows '${tip.split("\n")[0]}' and its position`);
  const sp = await (await fetch(`${serverUrl}spawn?${q}`)).json();
  await evaluate(`location.hash = "#layer=relief&zoom=0&x=${sp.climate[0]}&z=${sp.climate[1]}&${q}&structures=1"`);
  let ring = null;
  for (let i = 0; i < 100 && !ring; i++) {
    ring = await evaluate(`(() => { const d = document.querySelector("#smarks .spawn"); return d ? [parseInt(d.style.left), parseInt(d.style.top), d.getAttribute("data-x"), d.getAttribute("data-z")] : null; })()`);
    await sleep(50);
  }
  if (!ring || ring[0] !== W / 2 - 6 || ring[1] !== H / 2 - 6 || +ring[2] !== sp.climate[0] || +ring[3] !== sp.climate[1])
    fail(`structures: the spawn ring ${JSON.stringify(ring)} for /spawn's ${JSON.stringify(sp.climate)} at the centre`);
  console.log(`viewer_test: structures: the climate spawn point ${sp.climate.join(", ")} has its ring; ok`);
  await send("Target.closeTarget", {targetId});
  ws.close();
  process.exit(0);
}
