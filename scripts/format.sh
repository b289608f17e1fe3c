#!/bin/sh
# format.sh - clang-format (the style in .clang-format) over the C sources git tracks:
# host/, kernels/, include/, tests/, bench/, fuzz/, python/ (.c and .h), except generated
# files (a "do not edit" in their first 5 lines).
#
# Usage: sh scripts/format.sh           rewrite the files in place
#        sh scripts/format.sh --check   list the files that differ and how many lines would
#                                       change; exit 1 when any does (nothing is written)
#        sh scripts/format.sh --check FILE...   the same for these files only (scripts/lint.sh
#                                       checks the files listed in scripts/format.list)
set -eu
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$fmt" ]; then
    echo "format: clang-format is not installed (apt-get install clang-format)" >&2
    exit 2
fi
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if [ "$check" = 1 ] && [ $# -gt 0 ]; then
    files="$*"
else
    files=$(git ls-files --cached --others --exclude-standard -- host kernels include tests bench fuzz python |
            grep -E '\.(c|h)$' | sort -u)
fi
differ=0
lines=0
for f in $files; do
    [ -f "$f" ] || continue
    if head -n 5 "$f" | grep -qi 'do not edit'; then continue; fi
    if [ "$check" = 1 ]; then
        n=$("$fmt" --style=file "$f" | diff "$f" - | grep -c '^<' || true)
        if [ "$n" -gt 0 ]; then
            echo "$f: $n line(s) differ"
            differ=$((differ + 1))
            lines=$((lines + n))
        fi
    else
        "$fmt" --style=file -i "$f"
    fi
done
if [ "$check" = 1 ]; then
    echo "format: $differ file(s) differ, $lines line(s) would change"
    [ "$differ" = 0 ]
fi
