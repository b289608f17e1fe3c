#!/bin/sh
# bench/pair.sh - paired, interleaved runs of several bench_fill binaries (a loaded
# machine: every round runs each binary once, in turn; the medians over the rounds).
#
# usage: bench/pair.sh ROUNDS CHUNKS LABEL=BINARY[:ENV=VALUE] ... [-- bench_fill options]
# e.g.   bench/pair.sh 5 20 base=/tmp/base/bench_fill new=build-release/bench_fill \
#            scalar=build-release/bench_fill:CF_NO_AVX2=1 -- --pack ../shared/vanilla/26.3
# Prints per binary the median over rounds of bench_fill's 1-thread wall median, the median and
# the minimum over rounds of its 1-thread per-chunk minimum (on a loaded machine the least
# disturbed chunks move less than the medians), its 1-thread CPU-time median
# (cpu_ms_per_chunk_1_thread) and the all-threads chunks/s.
set -e
R=$1 N=$2
shift 2
runs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do runs="$runs $1"; shift; done
[ "$1" = "--" ] && shift
tmp=$(mktemp)
i=0
while [ $i -lt "$R" ]; do
  for r in $runs; do
    label=${r%%=*}; rest=${r#*=}; bin=${rest%%:*}; envv=""
    [ "$bin" != "$rest" ] && envv=${rest#*:}
    # shellcheck disable=SC2086 # envv: empty or one NAME=VALUE
    line=$(env $envv "$bin" --chunks "$N" --warmup 3 "$@")
    echo "$label $line" >>"$tmp"
  done
  i=$((i + 1))
done
python3 - "$tmp" <<'PY'
import json, sys, statistics as st
rows = {}
for l in open(sys.argv[1]):
    label, js = l.split(" ", 1)
    d = json.loads(js)
    rows.setdefault(label, []).append(d)
print("| binary | wall ms/chunk, 1 thread (median of rounds) | median of minima | min of minima | CPU ms/chunk, 1 thread | chunks/s, all threads | checksum |")
print("|---|---|---|---|---|---|---|")
for k, v in rows.items():
    m = [d["ms_per_chunk_1_thread"] for d in v]
    c = st.median(d.get("cpu_ms_per_chunk_1_thread", float("nan")) for d in v)
    t = st.median(d["chunks_per_s_all_threads"] for d in v)
    print(f"| {k} | {st.median(x['median'] for x in m):.3f} | {st.median(x['min'] for x in m):.3f} | "
          f"{min(x['min'] for x in m):.3f} | {c:.3f} | {t:.1f} | {v[0]['checksum']} |")
PY
rm -f "$tmp"
