#!/bin/sh
# regress.sh [--seeds] - replays every input of fuzz/regressions/ through its harness
# (the file name starts with the harness: pack-*, graph-*, args-*), built with
# FUZZ_STRICT=1 (no finding masked) into fuzz/out/strict/. Prints PASS or FAIL per
# input and exits non-zero when any input crashes, leaks, hangs or breaks a check.
# --seeds also replays the seed corpora fuzz/corpus/{pack,graph,args}.
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
OUT="$FUZZ/out/strict"
FUZZ_STRICT=1 FUZZ_OUT="$OUT" "$FUZZ/build.sh" > "$OUT.build.log" 2>&1 || {
  cat "$OUT.build.log" >&2
  exit 1
}
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fail=0
n=0
for f in "$FUZZ"/regressions/*; do
  [ -f "$f" ] || continue
  case $f in *.md) continue ;; esac
  name=$(basename "$f")
  h=${name%%-*}
  case $h in pack|graph|args|libnoise|iris|http) ;; *) echo "SKIP $name (the name must start with pack-, graph-, args-, libnoise-, iris- or http-)"; continue ;; esac
  n=$((n + 1))
  if log=$("$OUT/fuzz_$h" -timeout=10 -rss_limit_mb=2048 "$f" 2>&1); then
    echo "PASS $name"
  else
    echo "FAIL $name"
    echo "$log" | grep -E -A 12 'ERROR: |runtime error|fuzz check failed|ALARM|out-of-memory' | grep -v '^INFO' | head -n 16 | sed 's/^/     /'
    fail=$((fail + 1))
  fi
done
if [ "${1:-}" = --seeds ]; then
  for h in pack graph args; do
    if "$OUT/fuzz_$h" -timeout=10 -rss_limit_mb=2048 "$FUZZ/corpus/$h"/* > "$OUT.seeds-$h.log" 2>&1; then
      echo "PASS seeds of $h ($(ls "$FUZZ/corpus/$h" | wc -l) inputs)"
    else
      echo "FAIL seeds of $h: see $OUT.seeds-$h.log"
      fail=$((fail + 1))
    fi
  done
fi
echo "regress.sh: $n regression inputs, $fail failed"
[ "$fail" -eq 0 ]
