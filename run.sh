#!/bin/sh
# run.sh - install what is missing, build, and run the main job on the embedded
# default pack: sample the final density down one column at seed 42.
set -e
cd "$(dirname "$0")"
sh scripts/deps.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)"
for y in 160 128 96 80 72 64 48 0 -40; do set -- "$@" --at "0,$y,0"; done
./build-release/chunkfill sample --seed 42 --function router:final_density "$@"
