#!/bin/sh
# bench/first_screen.sh - the time until a fresh viewer's first screen is complete (issue 29
# item 5): a fresh `serve --http` (empty tile cache) is started, and the tiles of a 1000 x 800
# map centred on block (0, 0) are fetched as the viewer asks for them (host/api/viewer.html
# draw(): the view's tiles nearest the centre first, at most 4 requests at once, the server's
# --workers default), each level in its own fresh server. Prints, per layer and level, the
# wall seconds from the server's start until the last tile arrived, and the server process's
# CPU seconds (user + system, pack compile included); on a loaded machine the CPU figure is the
# steadier one. A level-0 screen is measured in the same run as the reference.
# usage: bench/first_screen.sh   (SHARED as in bench/run.sh; BIN=path/to/chunkfill to skip the
#        build; LEVELS="0 4" the levels, LAYERS="relief biomes" the layers, W=1000 H=800 the view;
#        TIMEOUT_MS=600000 the server's --tile-timeout-ms: its default, 120 s, answers 503 to tiles
#        queued longer, which a loaded machine reaches at level 4)
set -e
cd "$(dirname "$0")/.."
V=${SHARED:-$(cd .. && pwd)/shared}/vanilla/26.3
BIN=${BIN:-./build-release/chunkfill}
[ -n "${BIN##./build-release/*}" ] || { cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null &&
  cmake --build build-release -j2 --target chunkfill-cli >/dev/null; }
LEVELS=${LEVELS:-"0 4"}
LAYERS=${LAYERS:-"relief biomes"}
W=${W:-1000}
H=${H:-800}
T=$(mktemp -d /tmp/cf-bench-screen-XXXXXX)
SRV=
trap '[ -n "$SRV" ] && kill "$SRV" 2>/dev/null; rm -rf "$T"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1 /proc/loadavg); $(date -u +%Y-%m-%d)"
# the viewer's tiles of a W x H view centred on (0, 0) at level z, nearest the centre first (as draw())
tiles() {
  awk -v z="$1" -v w="$W" -v h="$H" 'function fdiv(a, b) { return a >= 0 ? int(a / b) : -int((-a + b - 1) / b) }
  BEGIN {
    s = 2 ^ z; span = 256 * s; ox = -fdiv(w, 2) * s; oz = -fdiv(h, 2) * s
    x0 = fdiv(ox, span); x1 = fdiv(ox + w * s - 1, span); y0 = fdiv(oz, span); y1 = fdiv(oz + h * s - 1, span)
    cx = ox + w * s / 2; cz = oz + h * s / 2
    for (ty = y0; ty <= y1; ty++) for (tx = x0; tx <= x1; tx++) {
      dx = tx * span + span / 2 - cx; dz = ty * span + span / 2 - cz
      printf "%.0f %d/%d/%d\n", dx * dx + dz * dz, z, tx, ty
    }
  }' | sort -n -s -k1,1 | cut -d' ' -f2
}
for l in $LAYERS; do
  for z in $LEVELS; do
    rm -rf "$T/cache" "$T/srv.out"
    t0=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$T/cpu" "$BIN" serve --http 127.0.0.1:0 --pack "$V" --cache "$T/cache" \
      --tile-timeout-ms "${TIMEOUT_MS:-600000}" >"$T/srv.out" 2>"$T/srv.log" &
    SRV=$!
    while ! grep -q listening "$T/srv.out" 2>/dev/null; do sleep 0.02; done
    url=$(sed -n 's/^listening on //p' "$T/srv.out")
    tiles "$z" > "$T/list"
    n=$(wc -l < "$T/list")
    # 4 at a time, in the viewer's order; every answer must be a 200
    : > "$T/bad"
    sed "s|^|$l/|; s|\$|.png?seed=0|" "$T/list" |
      xargs -P 4 -I{} sh -c 'c=$(curl -s -o /dev/null -w "%{http_code}" "$1{}"); [ "$c" = 200 ] || echo "$c {}" >>"$2"' _ "$url" "$T/bad"
    t1=$(date +%s.%N)
    # the server's pid is time's child: SIGTERM it, time writes the CPU seconds when it ends
    kill -TERM $(pgrep -P "$SRV") 2>/dev/null || true
    wait "$SRV" 2>/dev/null || true
    SRV=
    echo "$l level $z: $n tiles of a ${W}x$H screen complete after $(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}') s wall; server CPU $(awk '{printf "%.2f", $1 + $2}' "$T/cpu") s;" \
      "$(wc -l < "$T/bad") answers not 200"
    sed 's/^/  not 200: /' "$T/bad"
  done
done
