#!/bin/sh
# test.sh - install what is missing, build, and run the whole test suite.
# CF_SANITIZE=1 builds with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/.
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
cd $B && ctest --output-on-failure
