#!/bin/sh
# browser.sh - the map viewer in headless Chromium (tests/browser/viewer_test.mjs),
# against a running `chunkfill serve --http` and against a static `chunkfill tiles`
# folder opened from file://. Uses the tiny test pack so that the tiles are quick.
# usage: sh tests/browser.sh CHUNKFILL_BINARY SOURCE_DIR
# Exit 77 (ctest: skipped), saying so loudly, only when Chromium is missing or cannot
# start; CI installs it (scripts/deps.sh), so there it runs.
set -eu
BIN=$1
SRC=$2
# It once failed about one run in several under load, the cursor's read-out showing /at's answer
# for an earlier position after the drag: the page's fault (an answer asked for before a move,
# arriving after it, was shown); viewer_test.mjs now holds such an answer back on purpose (step 3b).
skip() {
    if [ "${CI:-}" = true ]; then echo "browser.sh: FAILED: $1 (CI installs it: a skip does not count there)" >&2; exit 1; fi
    echo "##################################################################" >&2
    echo "browser.sh: SKIPPED: $1" >&2
    echo "##################################################################" >&2
    exit 77
}
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || skip "no chromium (install the Debian package chromium: scripts/deps.sh)"
command -v node >/dev/null || skip "no node"
T=$(mktemp -d /tmp/cf-browser-XXXXXX)
SRV=""
SRV2=""
SRV3=""
CHR=""
cleanup() {
    [ -n "$CHR" ] && kill "$CHR" 2>/dev/null && wait "$CHR" 2>/dev/null
    [ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
    [ -n "$SRV2" ] && kill "$SRV2" 2>/dev/null && wait "$SRV2" 2>/dev/null
    [ -n "$SRV3" ] && kill "$SRV3" 2>/dev/null && wait "$SRV3" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
PACK="--pack $SRC/tests/packs/tiny --settings t:tiny"
start=$(date +%s)
# the reference pixels: render of the two tiles' areas the test finds on screen
"$BIN" render $PACK --seed 5 --area -256,-256:-1,-1 --out "$T/tile_-1_-1.png" 2>/dev/null
"$BIN" render $PACK --seed 5 --area 0,0:255,255 --out "$T/tile_0_0.png" 2>/dev/null
"$BIN" render $PACK --seed 5 --layer blocks --area -256,-256:-1,-1 --out "$T/blocks_-1_-1.png" 2>/dev/null
"$BIN" render $PACK --seed 5 --layer blocks --area 0,0:255,255 --out "$T/blocks_0_0.png" 2>/dev/null
# the static folder: every tile of both views the test shows
"$BIN" tiles $PACK --seed 5 --layer relief --layer blocks --area -800,-640:499,359 --out "$T/tiles" 2>/dev/null
# a static biomes folder of the dims pack's overworld with --below: its legend (the second
# server's /legend) and below box
"$BIN" tiles --pack $SRC/tests/packs/dims --dimension minecraft:overworld --seed 1 --layer biomes --below 40 --area 0,0:255,255 --out "$T/tiles_legend" 2>/dev/null
# the dims pack: an overworld and a nether with a roof; the nether's relief from y 11 down
DIMS="--pack $SRC/tests/packs/dims"
"$BIN" render $DIMS --settings d:cave --below 11 --seed 1 --area -256,-256:-1,-1 --out "$T/nether_-1_-1.png" 2>/dev/null
"$BIN" render $DIMS --settings d:cave --below 11 --seed 1 --area 0,0:255,255 --out "$T/nether_0_0.png" 2>/dev/null

"$BIN" serve --http 127.0.0.1:0 $PACK >"$T/srv.out" 2>"$T/srv.log" &
SRV=$!
i=0
while ! grep -q "listening on" "$T/srv.out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 100 ] || { cat "$T/srv.log" >&2; echo "browser.sh: the server did not start" >&2; exit 1; }
    sleep 0.1
done
URL=$(sed -n 's/^listening on //p' "$T/srv.out")
"$BIN" serve --http 127.0.0.1:0 $DIMS >"$T/srv2.out" 2>"$T/srv2.log" &
SRV2=$!
i=0
while ! grep -q "listening on" "$T/srv2.out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 100 ] || { cat "$T/srv2.log" >&2; echo "browser.sh: the second server did not start" >&2; exit 1; }
    sleep 0.1
done
URL2=$(sed -n 's/^listening on //p' "$T/srv2.out")
# the dims pack with the structures test pack: the structure markers and the spawn point
"$BIN" serve --http 127.0.0.1:0 $DIMS --pack "$SRC/tests/packs/structures" >"$T/srv3.out" 2>"$T/srv3.log" &
SRV3=$!
i=0
while ! grep -q "listening on" "$T/srv3.out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 100 ] || { cat "$T/srv3.log" >&2; echo "browser.sh: the third server did not start" >&2; exit 1; }
    sleep 0.1
done
URL3=$(sed -n 's/^listening on //p' "$T/srv3.out")

"$CHROME" --headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions --mute-audio \
    --remote-debugging-port=0 --user-data-dir="$T/profile" --window-size=1000,800 about:blank 2>"$T/chrome.err" &
CHR=$!
i=0
while ! grep -q "DevTools listening on" "$T/chrome.err" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -ge 150 ] || ! kill -0 "$CHR" 2>/dev/null; then
        tail -5 "$T/chrome.err" >&2
        skip "chromium did not start"
    fi
    sleep 0.1
done
WS=$(sed -n 's/.*DevTools listening on \(ws:[^ ]*\).*/\1/p' "$T/chrome.err" | head -1)

node --experimental-websocket "$SRC/tests/browser/viewer_test.mjs" "$WS" "$URL" server "$T" "$T/srv.log" "$URL"
node --experimental-websocket "$SRC/tests/browser/viewer_test.mjs" "$WS" "file://$T/tiles/index.html" static "$T"
CF_BIOME_COLOURS="$SRC/../shared/vanilla/biomes/colors.json" \
    node --experimental-websocket "$SRC/tests/browser/viewer_test.mjs" "$WS" "file://$T/tiles_legend/index.html" legend "$T" "" "$URL2"
CF_BIOME_COLOURS="$SRC/../shared/vanilla/biomes/colors.json" \
    node --experimental-websocket "$SRC/tests/browser/viewer_test.mjs" "$WS" "$URL2" dims "$T" "$T/srv2.log" "$URL2"
node --experimental-websocket "$SRC/tests/browser/viewer_test.mjs" "$WS" "$URL3" structures "$T" "$T/srv3.log" "$URL3"
echo "browser.sh: ok in $(( $(date +%s) - start )) s"
