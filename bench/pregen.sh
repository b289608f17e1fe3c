#!/bin/sh
# bench/pregen.sh - pregeneration figures (issue 21): regions/s and chunks/s at 1 process and
# `mpirun -np 2` (static), the surface stage (the default for vanilla 26.3) against the noise
# stage, .mca, .npy and tiles, and the bytes written per chunk. A small area so that it runs
# in a minute or two on a shared 2-core machine: 4 regions of 4 x 4 chunks (64 chunks, the
# corners of 4 regions: partial regions), vanilla 26.3 overworld, seed 5, 1 thread per process.
# The configurations are interleaved, ROUNDS rounds (default 3); the median of each is printed.
# Prints wall and CPU (user, all processes) seconds: on a loaded machine CPU is the steadier one.
# usage: bench/pregen.sh   (SHARED as in bench/run.sh; BIN=path/to/chunkfill and
#                           MPIBIN=path/to/chunkfill-mpi to skip the build)
set -e
cd "$(dirname "$0")/.."
SHARED=${SHARED:-$(cd .. && pwd)/shared}
V=$SHARED/vanilla/26.3
ROUNDS=${ROUNDS:-3}
if [ -z "${BIN:-}" ]; then
  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
  cmake --build build-release -j"$(nproc)" --target chunkfill-cli chunkfill-mpi >/dev/null
  BIN=./build-release/chunkfill
  MPIBIN=./build-release/chunkfill-mpi
fi
T=$(mktemp -d /tmp/cf-bench-pregen-XXXXXX)
trap 'rm -rf "$T"' EXIT
AREA="--area -64,-64:63,63"
CHUNKS=64
REGIONS=4
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1 /proc/loadavg); $(date -u +%Y-%m-%d)"
# name | command (OUT is the output folder)
run() {
  name=$1; shift
  rm -rf "$T/out"
  /usr/bin/time -f "%e %U" -o "$T/time" "$@" >/dev/null 2>"$T/err" || { cat "$T/err"; exit 1; }
  # bytes written: the region files (or tiles), not the manifest
  echo "$name $(cat "$T/time") $(find "$T/out" -type f ! -name 'manifest.*' -printf '%s\n' | awk '{ s += $1 } END { print s }')" >>"$T/all"
}
P="pregen --pack $V --seed 5 --quiet --threads 1 $AREA --out $T/out"
for r in $(seq "$ROUNDS"); do
  run mca-surface-1 "$BIN" $P
  run mca-surface-2ranks mpirun -np 2 --oversubscribe --allow-run-as-root "$MPIBIN" $P
  run mca-noise-1 "$BIN" $P --stage noise
  run npy-surface-1 "$BIN" $P --format npy
  run tiles-relief-1 "$BIN" $P --format tiles
done
echo "raw: configuration wall-s CPU-s bytes"
cat "$T/all"
echo "configuration | wall s (median) | CPU s (median) | regions/s (wall) | chunks/s (wall) | CPU ms/chunk | bytes/chunk"
echo "(tiles: 4 tiles of 256 x 256 blocks for the 4 regions; their bytes per chunk of the area)"
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for c in mca-surface-1 mca-surface-2ranks mca-noise-1 npy-surface-1 tiles-relief-1; do
  w=$(grep "^$c " "$T/all" | cut -d' ' -f2 | med)
  u=$(grep "^$c " "$T/all" | cut -d' ' -f3 | med)
  b=$(grep "^$c " "$T/all" | cut -d' ' -f4 | head -1)
  awk -v c="$c" -v w="$w" -v u="$u" -v b="$b" -v n="$CHUNKS" -v rg="$REGIONS" 'BEGIN {
    printf "%s | %.2f | %.2f | %.3f | %.1f | %.1f | %.0f\n", c, w, u, rg / w, n / w, 1000 * u / n, b / n }'
done
