#!/bin/sh
# layers.sh - checks the layout of host/ (host/base/base.h describes it):
#  1. a folder includes only the folders it may build on (the table below), so
#     front-ends and back ends meet only in ir/ and no two folders import each other;
#  2. outside host/frontend/, no code names a front-end's functions (iris_, hytale_,
#     libnoise_, mc121_): the back ends reach them through the program's cf_frontend;
#  3. the same order at link level: no object of a folder uses a symbol that a folder it may
#     not build on defines (nm of the build's objects: BUILD_DIR, the first argument, else
#     build/; skipped with a note where it has none), so a call up the layers fails lint.
#     The public functions (include/chunkfill.h) are defined in host/api/ only; cli/ is a
#     client of the public headers: its objects may call api/, net/ and pregen/ (whose
#     cf_pregen_* functions, the public region writer, sit above api/ as net/ does).
# Usage: scripts/layers.sh [BUILD_DIR]. Exit 1 with one line per violation.
set -eu
cd "$(dirname "$0")/.."
allowed() {
    case "$1" in
    base) echo "base" ;;
    ir) echo "base ir" ;;
    frontend) echo "base ir frontend" ;;
    cpu) echo "base ir cpu" ;;
    opencl) echo "base ir opencl" ;;
    image) echo "base ir image" ;;
    biome) echo "base ir cpu opencl biome" ;;
    structure) echo "base ir cpu opencl biome structure" ;;
    pregen) echo "base ir cpu opencl image api biome pregen" ;;
    api) echo "base ir frontend cpu opencl image biome structure api" ;;
    net) echo "base ir cpu api net" ;;
    cli) echo "cli" ;;
    *) echo "" ;;
    esac
}
status=0
for dir in host/*/; do
    d=$(basename "$dir")
    ok=$(allowed "$d")
    if [ -z "$ok" ]; then
        echo "layers.sh: host/$d/ is not in the layer table (scripts/layers.sh)"
        status=1
        continue
    fi
    # every quoted include of a host/ folder ("ir/ir.h"); kernels/ and public headers are free
    for f in $(find "$dir" -name '*.[ch]' -o -name '*.def'); do
        for inc in $(sed -n 's/^#include "\([a-z_0-9]*\)\/.*"/\1/p' "$f" | sort -u); do
            [ "$inc" = kernels ] && continue
            case " $ok " in
            *" $inc "*) ;;
            *) echo "$f: includes $inc/ (host/$d/ may include: $ok)"; status=1 ;;
            esac
        done
    done
done
hits=$(grep -rnE '(^|[^/A-Za-z0-9_])(iris|hytale|libnoise|mc121)_[a-z0-9_]*' host --include='*.c' --include='*.h' --include='*.def' | grep -v '^host/frontend/' || true)
if [ -n "$hits" ]; then
    echo "$hits" | sed 's/$/  <- a front-end name outside host\/frontend\//'
    status=1
fi
# 3. symbols: folder -> the folders whose symbols its objects may use
calls() {
    case "$1" in
    cli) echo "api net pregen cli" ;;
    *) allowed "$1" ;;
    esac
}
build=${1:-build}
objs="$build/CMakeFiles/chunkfill_obj.dir/host"
if [ -d "$objs" ]; then
    defs=$(mktemp)
    trap 'rm -f "$defs"' EXIT
    for dir in "$objs"/*/; do
        d=$(basename "$dir")
        find "$dir" -name '*.o' | sort | xargs nm -g --defined-only 2>/dev/null |
            awk -v d="$d" 'NF == 3 && $2 ~ /^[TDBRCVW]$/ { print $3, d }' >>"$defs"
    done
    for o in $(find "$objs" "$build/CMakeFiles/chunkfill-cli.dir/host" -name '*.o' 2>/dev/null | sort); do
        rel=${o#*.dir/}
        d=$(echo "$rel" | cut -d/ -f2)
        ok=$(calls "$d")
        out=$(nm -u "$o" | awk '{ print $NF }' | awk -v d="$d" -v ok=" $ok " -v f="${rel%.o}" '
            NR == FNR { home[$1] = $2; next }
            ($1 in home) && home[$1] != d && index(ok, " " home[$1] " ") == 0 {
                print f ": calls " $1 " of host/" home[$1] "/ (host/" d "/ may call: " substr(ok, 2, length(ok) - 2) ")"
            }' "$defs" -)
        if [ -n "$out" ]; then
            echo "$out"
            status=1
        fi
    done
else
    echo "layers.sh: no objects in $objs (build first): symbols not checked"
fi
[ "$status" = 0 ] && echo "layers: clean"
exit "$status"
