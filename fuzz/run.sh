#!/bin/sh
# run.sh [SECONDS] - builds the harnesses, makes the working corpora and fuzzes each
# harness for SECONDS (default 60), then prints executions, exec/s, coverage and the
# exit status of each. Exit status: 0 when no harness found a crash, a leak or a timeout.
#
#   fuzz/run.sh 600                 10 minutes per harness, two at a time
# Environment:
#   FUZZ_HARNESSES  which harnesses (default "pack graph args libnoise hytale iris http"; also
#                   "archive": whole zip archives as packs, fuzz_archive.c)
#   FUZZ_PARALLEL   harness processes at a time (default 2; one process each; batches of
#                   that many start together)
#   FUZZ_TIMEOUT    seconds before one input counts as a hang (default 10)
#   FUZZ_ARGS       more libFuzzer options for every harness (e.g. "-seed=1")
#   FUZZ_STRICT=1   do not mask the known open findings (see build.sh)
# Files: fuzz/corpus-work/<h>/ (the growing corpora, kept between runs; runs at the same time
# may share them), fuzz/out/logs/<UTC time>-<pid>/<h>.log (one folder per run), crash inputs
# fuzz/out/artifacts/<h>-crash-* (copy them to fuzz/regressions/<h>-NAME).
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
OUT="$FUZZ/out"
SECS=${1:-60}
HARNESSES=${FUZZ_HARNESSES:-pack graph args libnoise hytale iris http}
PAR=${FUZZ_PARALLEL:-2}
TIMEOUT=${FUZZ_TIMEOUT:-10}

"$FUZZ/build.sh"
"$FUZZ/make-corpus.sh"
LOGS="$OUT/logs/$(date -u +%Y%m%d-%H%M%S)-$$"
mkdir -p "$LOGS" "$OUT/artifacts"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

run_one() {
  h=$1
  dict=json.dict
  [ "$h" = args ] && dict=args.dict
  [ "$h" = http ] && dict=http.dict
  rc=0
  # shellcheck disable=SC2086
  "$OUT/fuzz_$h" -max_total_time="$SECS" -timeout="$TIMEOUT" -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$OUT/$dict" -artifact_prefix="$OUT/artifacts/$h-" ${FUZZ_ARGS:-} "$FUZZ/corpus-work/$h" \
    > "$LOGS/$h.log" 2>&1 || rc=$?
  echo $rc > "$LOGS/$h.rc"
}

echo "run.sh: $(date -u '+%Y-%m-%d %H:%M UTC'): $HARNESSES, $SECS s each, $PAR at a time"
running=0
for h in $HARNESSES; do
  rm -f "$LOGS/$h.rc"
  if [ "$running" -ge "$PAR" ]; then
    wait
    running=0
  fi
  run_one "$h" &
  running=$((running + 1))
done
wait

status=0
printf '%-8s %12s %9s %7s %8s %6s %s\n' harness executions exec/s cov ft rc result
for h in $HARNESSES; do
  log="$LOGS/$h.log"
  rc=$(cat "$LOGS/$h.rc" 2>/dev/null || echo '?')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  last=$(grep -a -E '^#[0-9]+.*cov: [0-9]+' "$log" | tail -n 1 || true)
  cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
  result=ok
  if [ "$rc" != 0 ]; then
    result="FAILED: $(grep -a -m 1 -E 'ERROR: |runtime error|fuzz check failed|ALARM|out-of-memory' "$log" | cut -c 1-120 || true)"
    status=1
  fi
  printf '%-8s %12s %9s %7s %8s %6s %s\n' "$h" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$rc" "$result"
  grep -a 'Test unit written to' "$log" | sed 's/.*Test unit written to /         input: /' || true
done
echo "run.sh: logs in $LOGS"
exit $status
