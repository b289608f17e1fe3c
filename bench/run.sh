#!/bin/sh
# bench/run.sh - CPU chunk fill speed of chunkfill beside the oracle, in one run.
#
# usage: bench/run.sh [CHUNKS]   (env: ORACLE = folder with deepslate-oracle.mjs and
#        node_modules/deepslate; SHARED = folder with vanilla/26.3; default ../shared)
# For each settings it runs the oracle's `bench` mode and bench_fill on the same
# chunks (i = 0..warmup+CHUNKS-1 at (1000+7i, -500+5i), 3 warm-up), seed 0, and
# prints a markdown table: median ms per chunk on one thread for both, the ratio,
# and chunkfill's chunks/s on all cores.
set -e
cd "$(dirname "$0")/.."
N=${1:-20}
ORACLE=${ORACLE:-/work/oracle}
SHARED=${SHARED:-$(cd .. && pwd)/shared}
V=$SHARED/vanilla/26.3
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
echo
echo "| pack / settings | oracle ms/chunk (median) | chunkfill ms/chunk, 1 thread (median, min-max) | ratio | chunkfill chunks/s, $(nproc) threads |"
echo "|---|---|---|---|---|"
row() { # label pack-args settings
  label=$1; settings=$3
  if [ -n "$2" ]; then packarg="--pack $2"; packdir=$2; else packarg=""; packdir=packs/default; fi
  ours=$(./build-release/bench_fill $packarg --settings "$settings" --chunks "$N" --warmup 3)
  if [ -f "$ORACLE/deepslate-oracle.mjs" ]; then
    orc=$(node "$ORACLE/deepslate-oracle.mjs" "$packdir" bench --settings "$settings" --seed 0 --chunks "$N" --warmup 3 --points 200 2>/dev/null |
          python3 -c 'import json,sys; print(json.load(sys.stdin)["chunk_fill_ms"]["median"])')
  else orc=nan; fi
  python3 - "$label" "$orc" "$ours" <<'PY'
import json, sys
label, orc, ours = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
m = ours["ms_per_chunk_1_thread"]
ratio = orc / m["median"] if orc == orc else float("nan")
print(f"| {label} | {orc:.1f} | {m['median']:.2f} ({m['min']:.2f}-{m['max']:.2f}) | {ratio:.0f}x | {ours['chunks_per_s_all_threads']:.0f} |")
PY
}
row "vanilla 26.3 overworld" "$V" minecraft:overworld
row "vanilla 26.3 nether" "$V" minecraft:nether
row "vanilla 26.3 end" "$V" minecraft:end
row "embedded default pack" "" minecraft:overworld
