#!/bin/sh
# layout.sh - checks that docs/layout.md lists every source file of host/, kernels/ and include/
# (.c, .h, .def, .html, .java; not the READMEs and licence notices beside them).
#
# Usage: sh scripts/layout.sh     exit status 0 when every file is listed
#
# A file is listed when its path from the repository root (host/cpu/fill.c) appears in
# docs/layout.md, or when a folder above it deeper than host/NAME/ does, written with its
# trailing slash (host/net/clients/java/). The files are those git tracks plus the untracked
# ones it does not ignore, so a file just added is checked before it is committed. Run by
# scripts/lint.sh. For each file missing, one line names it and says where to add it.
# It also holds every hand-written source file (.c, .h, .def, .py, .sh, .html, .java under
# host/, kernels/, include/, tests/, bench/, fuzz/, scripts/, python/) to 1,200 lines at most
# (issue 30: files cut by job); a generated file ("do not edit" in its first 5 lines) is exempt.
set -eu
cd "$(dirname "$0")/.."
doc=docs/layout.md
missing=0
files=$(git ls-files --cached --others --exclude-standard -- host kernels include |
        grep -E '\.(c|h|def|html|java)$' | sort -u)
for f in $files; do
    [ -f "$f" ] || continue # deleted in the working tree, not yet committed
    if grep -qF "$f" "$doc"; then continue; fi
    d=$(dirname "$f")
    found=0
    # a folder entry deeper than host/NAME/ (three or more parts) covers the files under it
    while [ "$(echo "$d" | awk -F/ '{print NF}')" -ge 3 ]; do
        if grep -qF "$d/" "$doc"; then found=1; break; fi
        d=$(dirname "$d")
    done
    if [ "$found" = 0 ]; then
        echo "layout: $f is not listed in $doc (add a line: the path and what the file holds)"
        missing=$((missing + 1))
    fi
done
max=1200
long=0
for f in $(git ls-files --cached --others --exclude-standard -- host kernels include tests bench fuzz scripts python |
           grep -E '\.(c|h|def|py|sh|html|java)$' | sort -u); do
    [ -f "$f" ] || continue
    n=$(wc -l < "$f")
    [ "$n" -gt "$max" ] || continue
    if head -n 5 "$f" | grep -qi "do not edit"; then continue; fi
    echo "layout: $f has $n lines, more than $max (cut it by job; a generated file says \"do not edit\" in its first 5 lines)"
    long=$((long + 1))
done
if [ "$long" -gt 0 ]; then missing=$((missing + long)); fi
if [ "$missing" -gt 0 ]; then
    echo "layout: $missing file(s) missing from $doc or too long"
    exit 1
fi
echo "layout: every source file of host/, kernels/, include/ is in $doc; none is over $max lines"
