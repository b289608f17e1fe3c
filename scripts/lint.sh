#!/bin/sh
# lint.sh - static analysis of the C sources: cppcheck, then clang-tidy.
#
# Usage: scripts/lint.sh [BUILD_DIR]     exit status 0 when both are clean
#
# cppcheck: warning, performance and portability checks over host/, kernels/,
# bench/, tests/ and fuzz/ (those that exist), in the one configuration CMake
# builds (_POSIX_C_SOURCE, _DEFAULT_SOURCE), with POSIX knowledge and
# cppcheck-criterion.cfg for the test macros. Suppressions: inline beside the
# code (cppcheck-suppress, with the reason) or in .cppcheck-suppressions.
# clang-tidy-14 (checks and why some are off: .clang-tidy) over host/*.c and
# bench/*.c, one process per file, using BUILD_DIR/compile_commands.json
# (default build-lint, configured here when it has none). format.sh --check holds the files of
# scripts/format.list to .clang-format (skipped with a note without clang-format-14). layers.sh checks the include
# lines and, in BUILD_DIR's objects (built here), the symbols: no call up the layers. Skipped with a note
# when clang-tidy is not installed, or with CF_LINT_NO_TIDY=1.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

dirs=""
for d in host kernels bench tests fuzz; do
    if [ -d "$d" ]; then dirs="$dirs $d/"; fi
done

status=0
build=${1:-build-lint}
if [ ! -f "$build/compile_commands.json" ]; then
    cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
# the library's and the CLI's objects, for layers.sh's symbol check (calls up the layers)
cmake --build "$build" --target chunkfill_obj chunkfill-cli -j "$jobs" >/dev/null || status=1
sh scripts/layers.sh "$build" || status=1
sh scripts/layout.sh || status=1
# the files held to .clang-format (scripts/format.list); clang-format 14 only: another version formats differently
if command -v clang-format-14 >/dev/null 2>&1; then
    # shellcheck disable=SC2046
    sh scripts/format.sh --check $(grep -v '^#' scripts/format.list) || status=1
else
    echo "format: clang-format-14 not installed, scripts/format.list not checked"
fi
python3 scripts/checklinks.py || status=1
echo "cppcheck:$dirs"
# shellcheck disable=SC2086
cppcheck --enable=warning,performance,portability --std=c11 --platform=unix64 \
    --library=posix --library=cppcheck-criterion.cfg \
    -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DCF_SOURCE_DIR='"."' -DCF_BINARY='"chunkfill"' \
    --error-exitcode=1 --inline-suppr --suppressions-list=.cppcheck-suppressions \
    --quiet -j "$jobs" --template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
    -I include -I host -I . $dirs || status=1

tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
if [ "${CF_LINT_NO_TIDY:-0}" = 1 ]; then
    echo "clang-tidy: skipped (CF_LINT_NO_TIDY=1)"
elif [ -z "$tidy" ]; then
    echo "clang-tidy: not installed, skipped"
else
    echo "clang-tidy: host/ bench/ ($build/compile_commands.json)"
    log="$build/clang-tidy.log"
    # one file per process: several files in one clang-tidy 14 process give false
    # "uninitialized va_list" reports (clang-analyzer-valist) after the first file
    find host -name "*.c" | xargs -P "$jobs" -n 1 "$tidy" -p "$build" --quiet >"$log" 2>/dev/null || true
    # bench_fill is a one-shot program: main() returns without freeing its buffers
    for f in bench/*.c; do
        if [ -f "$f" ]; then "$tidy" -p "$build" --quiet --checks=-clang-analyzer-unix.Malloc "$f" >>"$log" 2>/dev/null || true; fi
    done
    if grep -q ': warning: \|: error: ' "$log"; then
        cat "$log"
        status=1
    fi
fi
if [ "$status" = 0 ]; then echo "lint: clean"; fi
exit "$status"
