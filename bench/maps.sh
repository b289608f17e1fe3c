#!/bin/sh
# bench/maps.sh - map figures (issue 20): a 1024 x 1024 relief at scale 1 (CPU and the
# OpenCL device, PoCL here: cold program cache and warm) and the same area at larger
# scales (cost follows pixels), tiles per second per zoom level and layer, `columns`,
# and the time until a fresh `serve --http` answers the first tile of a viewer, per layer.
# Vanilla 26.3 overworld, seed 0, CPU (all cores). Prints wall and CPU (user) seconds:
# on a shared machine the CPU figure is the steadier one.
# usage: bench/maps.sh   (SHARED as in bench/run.sh; BIN=path/to/chunkfill to skip the build;
#        QUICK=1 leaves out the slow rows: relief levels 3 and 6, scales 4 and 8;
#        LEVELS=1 [REF=other/chunkfill] [LAYERS="water blocks"] [ZOOMS="0 2 4"]: the zoom levels
#        0-8 of relief and biomes, or of the layers and levels named, see below;
#        DEVICE=opencl: the tiles of those rows on the OpenCL device, beside the CPU's level-0
#        relief reference)
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
tm() { label=$1; shift; /usr/bin/time -f "$label: %e s wall, %U s CPU" "$@" 2>&1 | grep -v '^render:\|^tiles:' || true; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1 /proc/loadavg); $(date -u +%Y-%m-%d)"
# LEVELS=1: only the zoom levels (issue 29): one relief and one biomes tile at each level 0-8 on
# 2 threads, each beside a level-0 relief tile run just before it (the reference of the same
# moment: the ratio is the figure on a loaded machine), then render --scale 16 of 2048 x 2048
# beside --scale 1 of 256 x 256. REF=path/to/another/chunkfill runs each row with it too,
# interleaved (before/after in one run).
if [ -n "${LEVELS:-}" ]; then
  lv() { # binary, zoom, layer[, device]: CPU seconds (user + system) of one tile, then wall seconds
    /usr/bin/time -f "%U %S %e" -o "$T/tm" "$1" tiles --pack "$V" --seed 0 --area 0,0:0,0 --zoom "$2..$2" --layer "$3" \
      --threads 2 ${4:+--device "$4"} --out "$T/l" >/dev/null 2>&1
    rm -rf "$T/l"; awk '{printf "%.2f %.2f", $1 + $2, $3}' "$T/tm"
  }
  for z in ${ZOOMS:-0 1 2 3 4 5 6 7 8}; do
    for l in ${LAYERS:-relief biomes}; do
      for b in "$BIN" ${REF:-}; do
        r=$(lv "$b" 0 relief); t=$(lv "$b" $z $l "${DEVICE:-}")
        echo "$(basename "$(dirname "$b")") level $z $l${DEVICE:+ on $DEVICE}: CPU, wall $t s; level-0 relief (CPU) just before: $r s;" \
          "CPU ratio $(echo "$t $r" | awk '{printf "%.1f", $1 / $3}')"
      done
    done
  done
  [ -z "${LAYERS:-}" ] || exit 0 # the layers named only
  for b in "$BIN" ${REF:-}; do
    tm "$(basename "$(dirname "$b")") render 256x256 --scale 1" "$b" render --pack "$V" --seed 0 --area 0,0:255,255 --threads 2 --quiet --out "$T/a.png"
    tm "$(basename "$(dirname "$b")") render 2048x2048 --scale 16" "$b" render --pack "$V" --seed 0 --area 0,0:2047,2047 --scale 16 --threads 2 --quiet --out "$T/b.png"
  done
  exit 0
fi
scales="1 16 64"
[ -n "${QUICK:-}" ] || scales="1 4 8 16 64"
for s in $scales; do
  tm "render relief 1024x1024 --scale $s" "$BIN" render --pack "$V" --seed 0 --area -512,-512:511,511 --scale $s --out "$T/r.png"
done
if "$BIN" devices 2>/dev/null | grep -q '^opencl:0'; then
  CHUNKFILL_CACHE=$T/clcache tm "render relief 1024x1024 --device opencl (cold program cache)" \
    "$BIN" render --pack "$V" --seed 0 --area -512,-512:511,511 --device opencl --quiet --out "$T/d.png"
  CHUNKFILL_CACHE=$T/clcache tm "render relief 1024x1024 --device opencl (warm cache)" \
    "$BIN" render --pack "$V" --seed 0 --area -512,-512:511,511 --device opencl --quiet --out "$T/d.png"
fi
zooms="0 2"
[ -n "${QUICK:-}" ] || zooms="0 2 3 6"
for z in $zooms; do
  tm "tiles relief zoom $z (1 tile of 256x256 pixels, $((1 << z)) blocks/pixel)" \
    "$BIN" tiles --pack "$V" --seed 0 --area 0,0:0,0 --zoom $z..$z --out "$T/t"
done
for l in water biomes blocks; do
  tm "tiles $l zoom 0 (1 tile)" "$BIN" tiles --pack "$V" --seed 0 --area 0,0:0,0 --layer $l --out "$T/t"
done
tm "tiles biomes zoom 4 (1 tile, 16 blocks/pixel)" "$BIN" tiles --pack "$V" --seed 0 --area 0,0:0,0 --zoom 4..4 --layer biomes --out "$T/t"
tm "columns 512x512 --stride 16 (1,024 columns, one per chunk)" \
  "$BIN" columns --pack "$V" --seed 0 --area 0,0:511,511 --stride 16 --out "$T/c.npy"
# a fresh server per layer: start-up (pack, compile) and the first tile of the viewer's first view
for l in relief blocks; do
  t0=$(date +%s.%N)
  "$BIN" serve --http 127.0.0.1:0 --pack "$V" --cache "$T/hc-$l" >"$T/srv.out" 2>"$T/srv.log" &
  SRV=$!
  while ! grep -q listening "$T/srv.out" 2>/dev/null; do sleep 0.05; done
  t1=$(date +%s.%N)
  curl -s -o "$T/first.png" "$(sed -n 's/^listening on //p' "$T/srv.out")$l/0/-1/-1.png?seed=0"
  t2=$(date +%s.%N)
  kill $SRV; wait $SRV 2>/dev/null || true
  echo "serve --http, $l: listening after $(echo "$t1 - $t0" | bc) s, first tile (level 0) after $(echo "$t2 - $t0" | bc) s"
done
