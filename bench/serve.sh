#!/bin/sh
# serve.sh - throughput and latency of `chunkfill serve` under load (bench/RESULTS.md).
#
# Usage: bench/serve.sh [CLIENTS REQUESTS MAXCHUNKS]   (default 32 200 16)
# Builds build-release, then for the tiny test pack and the embedded default pack's
# overworld, on the CPU reference and on OpenCL (PoCL here): starts the server on an
# ephemeral loopback port, runs bench_serve (CLIENTS threads x REQUESTS requests of
# 1..MAXCHUNKS random chunks, one after another per client), prints its line, stops
# the server with SIGTERM. The default pack runs a tenth of the requests (its chunks
# are 24x taller and cost ~3 ms each on the CPU).
set -eu
cd "$(dirname "$0")/.."
C=${1:-32} R=${2:-200} M=${3:-16}
B=build-release
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCF_TESTS=OFF >/dev/null
cmake --build $B -j"$(nproc)" --target chunkfill-cli bench_serve >/dev/null
export CHUNKFILL_CACHE="$PWD/$B/cl-cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # name device requests args...
    name=$1 dev=$2 req=$3
    shift 3
    "$B/chunkfill" serve "$@" --device "$dev" --listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/log" &
    pid=$!
    i=0
    while ! grep -q "listening on" "$tmp/out" 2>/dev/null; do
        sleep 0.1; i=$((i + 1))
        if [ $i -gt 1200 ]; then echo "server did not start"; cat "$tmp/log"; kill $pid; exit 1; fi
    done
    addr=$(sed -n 's/^listening on //p' "$tmp/out")
    printf '%s: ' "$name"
    "$B/bench_serve" "$addr" "$CFG" "$C" "$req" "$M"
    kill -TERM $pid
    wait $pid
}
# the reference in the same run: a local fill of the same pack, all cores, no server
reference() { # name chunks args...
    name=$1 range=$2
    shift 2
    t0=$(date +%s.%N)
    "$B/chunkfill" fill "$@" --seed 42 --chunks "$range" --out "$tmp/local.npy"
    t1=$(date +%s.%N)
    awk -v n="$name" -v r="$range" -v a="$t0" -v b="$t1" 'BEGIN { split(r, p, /[,:]/); c = (p[3]-p[1]+1)*(p[4]-p[2]+1);
        printf "%s: local fill (reference): %d chunks in %.2f s = %.0f chunks/s\n", n, c, b-a, c/(b-a) }'
}
reference "tiny pack" -32,-32:31,31 --pack tests/packs/tiny --settings t:tiny
reference "default pack" -8,-8:7,7
CFG=t:tiny
run "tiny pack, cpu" cpu "$R" --pack tests/packs/tiny --settings t:tiny
run "tiny pack, opencl" opencl "$R" --pack tests/packs/tiny --settings t:tiny --batch 512
CFG=minecraft:overworld
run "default pack, cpu" cpu $((R / 10)) --settings minecraft:overworld
run "default pack, opencl" opencl $((R / 10)) --settings minecraft:overworld --batch 256
