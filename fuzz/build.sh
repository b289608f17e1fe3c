#!/bin/sh
# build.sh - builds the libFuzzer harnesses into fuzz/out/ (not part of the CMake build).
#
#   fuzz/build.sh            -> fuzz/out/fuzz_pack, fuzz/out/fuzz_graph, fuzz/out/fuzz_args, fuzz/out/fuzz_libnoise,
#                               fuzz/out/fuzz_hytale, fuzz/out/fuzz_iris, fuzz/out/fuzz_archive, fuzz/out/fuzz_http
#                               and the dictionaries fuzz/out/json.dict, fuzz/out/args.dict, fuzz/out/http.dict
# The library (host/*.c but the command line, host/cli/) is compiled once per change with coverage
# instrumentation and ASan + UBSan (every UBSan finding aborts); the generated
# sources are made as CMakeLists.txt makes them (cmake -P cmake/embed*.cmake).
# Environment: CC (default clang), JOBS (parallel compiles, default 2), FUZZ_OPT (default -O1),
# FUZZ_OUT (default fuzz/out), FUZZ_STRICT=1 (do not mask the known open findings below).
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$FUZZ")
OUT=${FUZZ_OUT:-$FUZZ/out}

# Known open findings, masked so that a fuzzing run can get past them while they are
# being fixed: "file.c:FLAG" compiles that library file with FLAG (e.g.
# emit.c:-fno-sanitize=pointer-overflow), "harness:FLAG" the harnesses (e.g. a -D the
# harness reads). Each one has a reproducer in fuzz/regressions/, which fuzz/regress.sh
# replays with FUZZ_STRICT=1; delete the entry once the bug is fixed. Empty: the four
# findings so far are fixed (fuzz/regressions/README.md).
KNOWN=${FUZZ_KNOWN-""}
[ "${FUZZ_STRICT:-0}" = 1 ] && KNOWN=""
CC=${CC:-clang}
JOBS=${JOBS:-2}
OPT=${FUZZ_OPT:--O1}
mkdir -p "$OUT/gen" "$OUT/obj" "$OUT/gen/new"
# a change of the masked list rebuilds every object
echo "$KNOWN" > "$OUT/known.new"
if cmp -s "$OUT/known.new" "$OUT/known" 2>/dev/null; then
  rm "$OUT/known.new"
else
  mv "$OUT/known.new" "$OUT/known"
  rm -f "$OUT"/obj/*.o
fi

# generated sources; replaced only when their text changes (keeps objects fresh)
cmake -DPACK_DIR="$ROOT/packs/default" -DOUT="$OUT/gen/new/default_pack.c" -P "$ROOT/cmake/embed.cmake"
# the kernel headers the library embeds: CMakeLists.txt's list (one list, so a new header cannot be missed here)
KH=$(sed -n 's/^foreach(h \(.*\))$/\1/p' "$ROOT/CMakeLists.txt" | grep -w math)
[ -n "$KH" ] || { echo "build.sh: no kernel header list (foreach(h ...)) in CMakeLists.txt" >&2; exit 1; }
for h in $KH; do
  cmake -DIN="$ROOT/kernels/cf_$h.h" -DNAME="emit_header_$h" -DOUT="$OUT/gen/new/header_$h.c" \
        -P "$ROOT/cmake/embed_text.cmake"
done
cmake -DIN="$ROOT/host/api/viewer.html" -DNAME=map_viewer_html -DOUT="$OUT/gen/new/viewer_html.c" -P "$ROOT/cmake/embed_text.cmake"
for f in default_pack.c $(for h in $KH; do printf 'header_%s.c ' "$h"; done) viewer_html.c; do
  cmp -s "$OUT/gen/new/$f" "$OUT/gen/$f" 2>/dev/null || mv "$OUT/gen/new/$f" "$OUT/gen/$f"
done
rm -rf "$OUT/gen/new"

# exact float steps as the project builds them; coverage + sanitizers for fuzzing
CFLAGS="-std=c11 -g $OPT -fno-omit-frame-pointer -ffp-contract=off -fno-fast-math
        -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -I$ROOT/include -I$ROOT/host -I$ROOT"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
LIBS="-lcjson -lmd -lpng -lzip -lz -lOpenCL -lm -lpthread"

SRCS=""
for f in "$ROOT"/host/*/*.c "$ROOT"/host/frontend/*/*.c; do
  case "$f" in "$ROOT"/host/cli/*) ;; *) SRCS="$SRCS $f" ;; esac
done
SRCS="$SRCS $OUT/gen/default_pack.c $(for h in $KH; do printf '%s/gen/header_%s.c ' "$OUT" "$h"; done) $OUT/gen/viewer_html.c"
HDRS="$ROOT/include/chunkfill.h $(ls "$ROOT"/host/*/*.h "$ROOT"/host/frontend/*/*.h "$ROOT"/host/ir/*.def "$ROOT"/kernels/*.h)"

# objects: rebuilt when the source or any header is newer
OBJS=""
TODO=""
for src in $SRCS; do
  obj="$OUT/obj/$(echo "${src#"$ROOT"/}" | tr / _ | sed 's/\.c$//').o"
  OBJS="$OBJS $obj"
  # shellcheck disable=SC2086
  if [ ! -f "$obj" ] || [ -n "$(find "$src" $HDRS -newer "$obj" 2>/dev/null | head -n 1)" ]; then
    TODO="$TODO $src"
  fi
done
if [ -n "$TODO" ]; then
  echo "build.sh: compiling $(echo "$TODO" | wc -w | tr -d ' ') library sources"
  # shellcheck disable=SC2086
  rm -f "$OUT/obj/FAILED"
  n=0
  for src in $TODO; do
    mask=""
    for k in $KNOWN; do
      if [ "${k%%:*}" = "$(basename "$src")" ]; then mask="$mask ${k#*:}"; fi
    done
    obj="$OUT/obj/$(echo "${src#"$ROOT"/}" | tr / _ | sed 's/\.c$//').o"
    # shellcheck disable=SC2086
    { $CC $CFLAGS $SAN -fsanitize=fuzzer-no-link $mask -c "$src" -o "$obj" || { rm -f "$obj"; echo "$src" >> "$OUT/obj/FAILED"; }; } &
    n=$((n + 1))
    if [ "$n" -ge "$JOBS" ]; then wait; n=0; fi
  done
  wait
  if [ -f "$OUT/obj/FAILED" ]; then
    echo "build.sh: FAILED to compile: $(cat "$OUT/obj/FAILED")" >&2
    exit 1
  fi
fi
[ -n "$KNOWN" ] && echo "build.sh: known open findings masked: $KNOWN (FUZZ_STRICT=1 unmasks them)"

failed=""
for h in pack graph args libnoise hytale iris archive http; do
  extra=""
  for k in $KNOWN; do
    if [ "${k%%:*}" = harness ]; then extra="$extra ${k#*:}"; fi
  done
  if [ "$h" = args ]; then extra="$extra -Dmain=cli_main $(ls "$ROOT"/host/cli/*.c | tr '\n' ' ')"; fi
  # shellcheck disable=SC2086
  $CC $CFLAGS $SAN -fsanitize=fuzzer $extra -I"$FUZZ" "$FUZZ/fuzz_$h.c" $OBJS $LIBS -o "$OUT/fuzz_$h" || failed="$failed $h"
done

# dictionaries: the node table's names and fields, the CLI's options (kept in sync with the code)
{
  echo '# generated by fuzz/build.sh from host/ir/nodes.def and host/frontend/mc263/parse.c'
  sed -n 's/^NODE([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/\1/p' "$ROOT/host/ir/nodes.def" | sort -u | while read -r n; do
    printf '"\\"minecraft:%s\\""\n"\\"%s\\""\n' "$n" "$n"
  done
  sed -n 's/^NODE([^"]*"[^"]*", *[^,]*, *"\([^"]*\)".*/\1/p' "$ROOT/host/ir/nodes.def" | tr ' ' '\n' \
    | sed -n 's/^\([a-z_]*\)?*:.*/\1/p' | sort -u | while read -r f; do
    printf '"\\"%s\\":"\n' "$f"
  done
  grep -o '"[a-z_]*"' "$ROOT/host/frontend/mc263/parse.c" | sort -u | while read -r k; do
    printf '"\\%s\\""\n' "$(echo "$k" | sed 's/"$//')"
  done
  printf '"\\"type\\": "\n"{\\"type\\": \\"minecraft:"\n'
  for id in t:f t:g t:n t:f0 t:f1 t:f2 t:f3 t:f7 t:n0 t:n1 t:s minecraft:m; do printf '"\\"%s\\""\n' "$id"; done
  # the libnoise front-end: module names and keys (host/ir/nodes_libnoise.def, host/frontend/libnoise/libnoise.c)
  sed -n 's/^NODE64([A-Z_0-9]*, *"libnoise:\([A-Za-z]*\)".*/\1/p' "$ROOT/host/ir/nodes_libnoise.def" | while read -r n; do
    printf '"\\"%s\\""\n' "$n"
  done
  grep -o '"[a-zA-Z]*"' "$ROOT/host/frontend/libnoise/libnoise.c" | sort -u | while read -r k; do
    printf '"\\%s\\""\n' "$(echo "$k" | sed 's/"$//')"
  done
  # the Hytale front-end: node types and keys (host/ir/nodes_hytale.def, host/frontend/hytale/*.c)
  sed -n 's/^NODE64([A-Z_0-9]*, *"hytale:\([A-Za-z0-9]*\)".*/\1/p' "$ROOT/host/ir/nodes_hytale.def" | while read -r n; do
    printf '"\\"%s\\""\n' "$n"
  done
  cat "$ROOT"/host/frontend/hytale/*.c | grep -o '"[A-Z][a-zA-Z0-9_]*"' | sort -u | while read -r k; do
    printf '"\\%s\\""\n' "$(echo "$k" | sed 's/"$//')"
  done
  # the Iris front-end: keys and NoiseStyle / InterpolationMethod names (host/frontend/iris/iris.c, iris_styles.c)
  cat "$ROOT/host/frontend/iris/iris.c" "$ROOT/host/frontend/iris/iris_styles.c" | grep -o '"[A-Za-z_0-9]*"' | sort -u | while read -r k; do
    printf '"\\%s\\""\n' "$(echo "$k" | sed 's/"$//')"
  done
  printf '"1e39"\n"-0.0"\n"2147483647"\n"-2147483648"\n"NaN"\n"\\\\u0000"\n"\\xef\\xbb\\xbf"\n'
} > "$OUT/json.dict"
{
  echo '# generated by fuzz/build.sh from host/cli/*.c'
  cat "$ROOT"/host/cli/*.c | grep -o '"--*[a-z][a-z-]*"' | sort -u | while read -r o; do
    printf '"%s\\x00"\n' "$(echo "$o" | tr -d '"')"
  done
  printf '"router:final_density\\x00"\n"noise:t:n\\x00"\n"t:g\\x00"\n"0,0:1,1\\x00"\n"-1,-1\\x00"\n"1,2,3\\x00"\n'
  printf '"opencl\\x00"\n"cpu\\x00"\n"auto\\x00"\n"density\\x00"\n"material\\x00"\n"-9223372036854775808\\x00"\n'
} > "$OUT/args.dict"
{
  echo '# generated by fuzz/build.sh: the pieces of a request head (host/net/http_head.c)'
  # libFuzzer's dictionary escapes: \xNN (CR LF, NUL, tab)
  for t in 'GET ' ' HTTP/1.1' ' HTTP/1.0' 'HTTP/2.0' '\x0d\x0a' '\x0a' '\x0d\x0a\x0d\x0a' 'Host: ' 'Host: localhost:8080' \
           'Host: 127.0.0.1' 'Host: [::1]:1' '/at?' '/relief/' '/blocks/' '.png' '?seed=' '&settings=' '&x=' '&z=' \
           '%00' '%2e%2e' '#' '+' '-' '4294967296' '2144000015' '\x00' '\x09'; do
    printf '"%s"\n' "$t"
  done
} > "$OUT/http.dict"
if [ -n "$failed" ]; then
  echo "build.sh: FAILED to build:$failed" >&2
  exit 1
fi
echo "build.sh: built $OUT/fuzz_pack $OUT/fuzz_graph $OUT/fuzz_args $OUT/fuzz_libnoise $OUT/fuzz_hytale $OUT/fuzz_iris $OUT/fuzz_archive $OUT/fuzz_http"
