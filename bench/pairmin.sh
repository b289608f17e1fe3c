#!/bin/sh
# bench/pairmin.sh - bench/pair.sh's interleaved rounds, one thread, with the per-chunk minima
# beside the medians (on a loaded machine the least disturbed chunks move less than the medians).
#
# usage: bench/pairmin.sh ROUNDS CHUNKS LABEL=BINARY[:ENV=VALUE] ... [-- bench_fill options]
# Prints per binary the median over rounds of bench_fill's 1-thread median, the median and the
# minimum over rounds of its 1-thread minimum, and the median 1-thread CPU time per chunk.
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
    line=$(env $envv "$bin" --chunks "$N" --warmup 3 --threads 1 "$@")
    echo "$label $line" >>"$tmp"
  done
  i=$((i + 1))
done
python3 - "$tmp" <<'PY'
import json, sys, statistics as st
rows = {}
for l in open(sys.argv[1]):
    label, js = l.split(" ", 1)
    rows.setdefault(label, []).append(json.loads(js))
print("| binary | ms/chunk, median of medians | median of minima | min of minima | CPU ms/chunk (median) | checksum |")
print("|---|---|---|---|---|---|")
for k, v in rows.items():
    m = [d["ms_per_chunk_1_thread"] for d in v]
    print(f"| {k} | {st.median(x['median'] for x in m):.3f} | {st.median(x['min'] for x in m):.3f} | "
          f"{min(x['min'] for x in m):.3f} | {st.median(d['cpu_ms_per_chunk_1_thread'] for d in v):.3f} | {v[0]['checksum']} |")
PY
rm -f "$tmp"
