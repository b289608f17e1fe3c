#!/bin/sh
# oclgrind.sh - a small fill of each test pack under oclgrind's simulator, with its
# memory, data-race and API checks: each run must report nothing and equal the CPU.
# usage: oclgrind.sh CHUNKFILL_BINARY SOURCE_DIR
set -e
bin=$1; src=$2
if ! command -v oclgrind >/dev/null; then echo "oclgrind.sh: oclgrind is not installed (scripts/deps.sh installs it)"; exit 1; fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
one() { # label, check arguments...
  t0=$(date +%s)
  label=$1; shift
  CHUNKFILL_CACHE=$dir oclgrind --data-races --check-api "$bin" check "$@" >"$dir/out" 2>"$dir/err" \
    || { echo "$label:"; cat "$dir/out" "$dir/err"; exit 1; }
  if grep -qiE "invalid|error|race|uninitiali" "$dir/err"; then echo "$label:"; cat "$dir/err"; exit 1; fi
  grep -q " 0 differ" "$dir/out" || { echo "$label:"; cat "$dir/out"; exit 1; }
  echo "$label: $(tail -n 1 "$dir/out") ($(( $(date +%s) - t0 )) s)"
}
one tiny --pack "$src/tests/packs/tiny" --settings t:tiny --seed 1 --chunks 0,0:1,0
one nodes --pack "$src/tests/packs/nodes" --settings test:nodes --seed 1 --chunks 0,0
one nodes_legacy --pack "$src/tests/packs/nodes" --settings test:nodes_legacy --seed -5 --chunks -1,2
one default --seed 1 --chunks 0,0
one default_blocks --seed 1 --chunks 0,0 --blocks
one libnoise --pack "$src/packs/libnoise-obsidian" --seed 3 --chunks 0,0
one iris --pack "$src/packs/iris-example" --seed 1 --chunks 0,0
one hytale_legacy --pack "$src/packs/hytale-legacy-islands" --seed 1 --chunks 0,0
echo "oclgrind: no invalid access, no data race, no API error; device equals CPU on every test pack"
