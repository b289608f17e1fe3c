#!/bin/sh
# bench/gpu.sh - the GPU exactness check and benchmark as one prepared script.
#
#   here:  sh bench/gpu.sh prepare        builds build-release, bundles chunkfill and its
#                                         libraries into gpu-bundle/ (../shared/gpu/bundle.sh)
#                                         and copies the vanilla 26.3 data beside it (ignored by
#                                         git: gpu-bundle/ is never committed)
#   there: sh bench/gpu.sh run OUTDIR     (the device tool: carry gpu-bundle; OUTDIR = $OUT)
#          lists the devices, checks the GPU against the CPU on every vanilla noise settings
#          (3 seeds x 64 chunks near and far) and block fills (check --blocks), measures fills
#          and block fills of 4096 chunks and a 16384 x 16384
#          render, and writes OUTDIR/gpu-results.md (figures for bench/RESULTS.md) and the logs.
# Also runs on PoCL here: sh bench/gpu.sh run /tmp/gpu-out (with build-release, no bundle).
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
  cmake --build build-release -j"$(nproc)" >/dev/null
  rm -rf gpu-bundle
  sh "${SHARED:-../shared}/gpu/bundle.sh" build-release/chunkfill gpu-bundle
  cp -r "${SHARED:-../shared}/vanilla/26.3" gpu-bundle/vanilla
  grep -qx 'gpu-bundle/' .git/info/exclude 2>/dev/null || echo 'gpu-bundle/' >>.git/info/exclude
  du -sh gpu-bundle
  ;;
run)
  out=${2:?usage: bench/gpu.sh run OUTDIR}
  mkdir -p "$out"
  if [ -x gpu-bundle/run.sh ]; then cf="gpu-bundle/run.sh"; V=gpu-bundle/vanilla
  else cf=build-release/chunkfill; V=${SHARED:-../shared}/vanilla/26.3; fi
  export CHUNKFILL_CACHE="$out/cl-cache"
  {
    echo "# GPU check and benchmark, $(date -u +%Y-%m-%d)"
    echo
    echo '```'
    $cf devices
    echo '```'
    echo
    echo "## chunkfill check (device = CPU reference, every block)"
    echo
    for s in overworld large_biomes amplified nether end caves floating_islands; do
      for seed in 0 -4172144997902289642 123456789; do
        for area in 0,0:7,7 62496,-8:62503,-1; do
          printf -- "- %s seed %s chunks %s: " "$s" "$seed" "$area"
          $cf check --pack "$V" --settings minecraft:$s --seed "$seed" --chunks "$area" --device opencl 2>&1 | tail -n 1
        done
      done
    done
    echo
    echo "## chunkfill check --blocks (the noise stage's blocks: final density + aquifer)"
    echo
    for s in overworld large_biomes amplified nether end caves floating_islands; do
      for seed in 0 -4172144997902289642; do
        printf -- "- %s seed %s blocks: " "$s" "$seed"
        $cf check --pack "$V" --settings minecraft:$s --seed "$seed" --chunks -8,-8:7,7 --device opencl --blocks 2>&1 | tail -n 1
      done
    done
    echo
    echo "## block fills of 4096 chunks (64 x 64), seed 0: device time split (1 byte per block read back)"
    echo
    for s in overworld nether; do
      printf -- "- %s: " "$s"
      $cf check --pack "$V" --settings minecraft:$s --seed 0 --chunks 1000,-500:1063,-437 --device opencl --blocks 2>&1 | tail -n 1
    done
    echo
    echo "## fills of 4096 chunks (64 x 64), seed 0: device time split"
    echo
    for s in overworld nether end; do
      printf -- "- %s: " "$s"
      $cf check --pack "$V" --settings minecraft:$s --seed 0 --chunks 1000,-500:1063,-437 --device opencl 2>&1 | tail -n 1
    done
    echo
    echo "## render 16384 x 16384 (vanilla overworld, seed 0, --device opencl)"
    echo
    $cf render --pack "$V" --seed 0 --area -8192,-8192:8191,8191 --scale 4 --device opencl --out "$out/map16384.png" 2>&1 | tail -n 1
  } >"$out/gpu-results.md" 2>"$out/gpu-errors.log"
  cat "$out/gpu-results.md"
  ;;
*) echo "usage: bench/gpu.sh prepare | run OUTDIR" >&2; exit 2 ;;
esac
