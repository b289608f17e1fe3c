#!/bin/sh
# run.sh - install what is missing, build, and run the main job on the embedded
# default pack (seed 42): fill 16 chunks exactly as vanilla's chunk fill does
# (build-release/chunks.npy) and as blocks of the noise stage with the aquifer
# (build-release/blocks.npy + blocks.palette.json), draw a 1024 x 1024 map of the
# exact surface (build-release/map.png), and print the final density down one column.
set -e
cd "$(dirname "$0")"
sh scripts/deps.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)"
cf=./build-release/chunkfill
$cf fill --seed 42 --chunks -2,-2:1,1 --out build-release/chunks.npy
echo "wrote build-release/chunks.npy: float32 (16, 384, 16, 16), index [chunk][y][z][x]"
$cf fill --seed 42 --chunks -2,-2:1,1 --blocks --out build-release/blocks.npy
echo "wrote build-release/blocks.npy: uint8 (16, 384, 16, 16) indices into $(cat build-release/blocks.palette.json)"
$cf render --seed 42 --area -512,-512:511,511 --out build-release/map.png
echo "wrote build-release/map.png"
for y in 160 128 96 80 72 64 48 0 -40; do set -- "$@" --at "0,$y,0"; done
$cf sample --seed 42 --function router:final_density "$@"
