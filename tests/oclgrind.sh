#!/bin/sh
# oclgrind.sh - one small fill under oclgrind's simulator, with its memory,
# data-race and API checks: the run must report nothing and equal the CPU.
# usage: oclgrind.sh CHUNKFILL_BINARY SOURCE_DIR
set -e
bin=$1; src=$2
if ! command -v oclgrind >/dev/null; then echo "oclgrind.sh: oclgrind is not installed (scripts/deps.sh installs it)"; exit 1; fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CHUNKFILL_CACHE=$dir oclgrind --data-races --check-api "$bin" check --pack "$src/tests/packs/tiny" --settings t:tiny \
  --seed 1 --chunks 0,0:1,0 >"$dir/out" 2>"$dir/err" || { cat "$dir/out" "$dir/err"; exit 1; }
cat "$dir/out"
if grep -qiE "invalid|error|race|uninitiali" "$dir/err"; then cat "$dir/err"; exit 1; fi
grep -q " 0 differ" "$dir/out"
echo "oclgrind: no invalid access, no data race, no API error; device equals CPU"
