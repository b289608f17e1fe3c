#!/bin/sh
# bench/maps.sh - map figures (issue 20): a 1024 x 1024 relief at scale 1 and the
# same area at larger scales (cost follows pixels), tiles per second per zoom level
# and layer, and the time until a fresh `serve --http` answers its first tile.
# Vanilla 26.3 overworld, seed 0, CPU (all cores). Prints wall and CPU (user) seconds:
# on a shared machine the CPU figure is the steadier one.
# usage: bench/maps.sh   (SHARED as in bench/run.sh; BIN=path/to/chunkfill to skip the build)
set -e
cd "$(dirname "$0")/.."
SHARED=${SHARED:-$(cd .. && pwd)/shared}
V=$SHARED/vanilla/26.3
if [ -z "${BIN:-}" ]; then
  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
  cmake --build build-release -j"$(nproc)" --target chunkfill-cli >/dev/null
  BIN=./build-release/chunkfill
fi
T=$(mktemp -d /tmp/cf-bench-maps-XXXXXX)
trap 'rm -rf "$T"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1 /proc/loadavg); $(date -u +%Y-%m-%d)"
for s in 1 4 8 16 64; do
  /usr/bin/time -f "render 1024x1024 --scale $s: %e s wall, %U s CPU" \
    "$BIN" render --pack "$V" --seed 0 --area -512,-512:511,511 --scale $s --out "$T/r.png" 2>&1 | grep -v '^render:'
done
for z in 0 2 3 6; do
  /usr/bin/time -f "tiles relief zoom $z (1 tile of 256x256 pixels, $((1 << z)) blocks/pixel): %e s wall, %U s CPU" \
    "$BIN" tiles --pack "$V" --seed 0 --area 0,0:0,0 --zoom $z..$z --out "$T/t" 2>&1 | grep -v '^tiles:'
done
/usr/bin/time -f "tiles water zoom 0 (1 tile): %e s wall, %U s CPU" \
  "$BIN" tiles --pack "$V" --seed 0 --area 0,0:0,0 --layer water --out "$T/t" 2>&1 | grep -v '^tiles:'
# a fresh server: start-up (pack, compile) and the first tile of the viewer's first view
t0=$(date +%s.%N)
"$BIN" serve --http 127.0.0.1:0 --pack "$V" >"$T/srv.out" 2>"$T/srv.log" &
SRV=$!
while ! grep -q listening "$T/srv.out" 2>/dev/null; do sleep 0.05; done
URL=$(sed -n 's/^listening on //p' "$T/srv.out")
t1=$(date +%s.%N)
curl -s -o "$T/first.png" "${URL}relief/0/-1/-1.png?seed=0"
t2=$(date +%s.%N)
kill $SRV; wait $SRV 2>/dev/null || true
echo "serve --http: listening after $(echo "$t1 - $t0" | bc) s, first tile (level 0) after $(echo "$t2 - $t0" | bc) s"
