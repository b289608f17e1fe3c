#!/bin/sh
# test.sh - install what is missing, build, and run the whole test suite.
# CF_SANITIZE=1 builds with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/
# and fails on any sanitizer report in the tests' output (Criterion may have
# reported a test as passed before a leak report at its exit).
set -e
cd "$(dirname "$0")"
sh scripts/deps.sh
if [ "${CF_SANITIZE:-0}" = 1 ]; then
  B=build-asan
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Debug -DCF_SANITIZE=ON >/dev/null
else
  B=build
  cmake -S . -B $B >/dev/null
fi
cmake --build $B -j"$(nproc)"
cd $B
if [ "${CF_SANITIZE:-0}" = 1 ]; then
  ctest -j"$(nproc)" -V >ctest.log 2>&1 && ok=1 || ok=0
  tail -n 25 ctest.log
  if grep -nE "ERROR: (Address|Leak)Sanitizer|runtime error:" ctest.log; then
    echo "test.sh: sanitizer reports above (full log: $B/ctest.log)"
    exit 1
  fi
  [ $ok = 1 ] || { grep -nE "\[FAIL\]|Assertion|Failed" ctest.log | head -40; exit 1; }
else
  ctest -j"$(nproc)" --output-on-failure
fi
