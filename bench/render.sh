#!/bin/sh
# bench/render.sh - time of `chunkfill render` against filling every chunk of the
# same area, vanilla 26.3 overworld, seed 0, CPU (all cores) and OpenCL.
# usage: bench/render.sh [SIDE...]   (default 1024 4096; SHARED as in bench/run.sh)
set -e
cd "$(dirname "$0")/.."
SHARED=${SHARED:-$(cd .. && pwd)/shared}
V=$SHARED/vanilla/26.3
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
for side in ${@:-1024 4096}; do
  h=$((side / 2)); a="-$h,-$h:$((h - 1)),$((h - 1))"
  ./build-release/chunkfill render --pack "$V" --seed 0 --area "$a" --out /tmp/bench-render.png 2>&1 | tail -1
  if [ "$side" -le 1024 ]; then
    ./build-release/chunkfill render --pack "$V" --seed 0 --area "$a" --device opencl --out /tmp/bench-render.png 2>&1 | tail -1
    c=$((side / 32))
    /usr/bin/time -f "fill of every chunk of the area ($((side / 16))^2 chunks, .npy in /dev/shm): %e s" \
      ./build-release/chunkfill fill --pack "$V" --seed 0 --chunks "-$c,-$c:$((c - 1)),$((c - 1))" --out /dev/shm/bench-fill.npy
    rm -f /dev/shm/bench-fill.npy
  fi
done
