#!/bin/sh
# layers.sh - checks the layout of host/ (host/base/base.h describes it):
#  1. a folder includes only the folders it may build on (the table below), so
#     front-ends and back ends meet only in ir/ and no two folders import each other;
#  2. outside host/frontend/, no code names a front-end's functions (iris_, hytale_,
#     libnoise_, mc121_): the back ends reach them through the program's cf_frontend.
# Exit 1 with one line per violation.
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
    pregen) echo "base ir cpu opencl image api biome pregen" ;;
    api) echo "base ir frontend cpu opencl image biome api" ;;
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
[ "$status" = 0 ] && echo "layers: clean"
exit "$status"
