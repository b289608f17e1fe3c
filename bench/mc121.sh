#!/bin/sh
# bench/mc121.sh - the Minecraft 1.18-1.21 dialect (double) beside 26.3 (float), in one run.
#
# usage: bench/mc121.sh [CHUNKS]   (env: ORACLE_LEGACY = folder with deepslate-oracle-legacy.mjs
#        and node_modules/deepslate@0.26.2, default /work/oracle-legacy; SHARED = folder with
#        vanilla/26.3 and vanilla/1.21.11, default ../shared)
# For the overworld, nether and end of both versions: bench_fill on the chunks at
# (1000+7i, -500+5i), 3 warm-up, seed 0, one thread (median ms per chunk) and all
# threads (chunks/s), and PoCL chunks/s (64 chunks after a warm-up batch); for 1.21
# also the legacy oracle's bench mode on the same chunks.
set -e
cd "$(dirname "$0")/.."
N=${1:-20}
ORACLE=${ORACLE_LEGACY:-/work/oracle-legacy}
SHARED=${SHARED:-$(cd .. && pwd)/shared}
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
echo
echo "| version / settings | values | chunkfill ms/chunk, 1 thread (median, min-max) | chunks/s, $(nproc) threads | PoCL chunks/s | legacy oracle ms/chunk | oracle / chunkfill |"
echo "|---|---|---|---|---|---|---|"
row() { # version pack settings values
  ours=$(./build-release/bench_fill --pack "$2" --settings "$3" --chunks "$N" --warmup 3)
  dev=$(./build-release/bench_fill --pack "$2" --settings "$3" --chunks 64 --device opencl 2>/dev/null || echo '{}')
  orc=nan
  if [ "$1" = 1.21.11 ] && [ -f "$ORACLE/deepslate-oracle-legacy.mjs" ]; then
    orc=$(node "$ORACLE/deepslate-oracle-legacy.mjs" "$2" bench --settings "$3" --seed 0 --chunks "$N" --warmup 3 --points 200 2>/dev/null |
          python3 -c 'import json,sys; print(json.load(sys.stdin)["chunk_fill_ms"]["median"])')
  fi
  python3 - "$1" "$3" "$4" "$orc" "$ours" "$dev" <<'PY'
import json, sys
ver, st, vals, orc, ours, dev = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), json.loads(sys.argv[5]), json.loads(sys.argv[6])
m = ours["ms_per_chunk_1_thread"]
d = dev.get("device_chunks_per_s", float("nan"))
o = f"{orc:.1f}" if orc == orc else "-"
r = f"{orc / m['median']:.1f}x" if orc == orc else "-"
print(f"| {ver} {st} | {vals} | {m['median']:.2f} ({m['min']:.2f}-{m['max']:.2f}) | {ours['chunks_per_s_all_threads']:.0f} | {d:.0f} | {o} | {r} |")
PY
}
for s in overworld nether end; do
  row 26.3 "$SHARED/vanilla/26.3" "minecraft:$s" float32
  row 1.21.11 "$SHARED/vanilla/1.21.11" "minecraft:$s" float64
done
