#!/bin/sh
# install.sh BUILD SOURCE PYDIR LIBDIR PYTHON - installs the build into a temporary prefix
# and uses it as an outside project would: a C consumer built with pkg-config and one built
# with find_package(chunkfill), the installed CLI, 'import chunkfill' from the prefix's
# site-packages, the man page. Each must give the CLI's sample of the default pack.
set -eu
B=$1 S=$2 PYDIR=$3 LIBDIR=$4 PY=${5:-}
T=$(mktemp -d /tmp/cf-install-XXXXXX)
trap 'rm -rf "$T"' EXIT
P=$T/prefix
cmake --install "$B" --prefix "$P" >/dev/null
for f in "$LIBDIR/libchunkfill.so" "$LIBDIR/libchunkfill.so.0" include/chunkfill.h include/chunkfill_net.h \
         "$LIBDIR/pkgconfig/chunkfill.pc" "$LIBDIR/cmake/chunkfill/chunkfillConfig.cmake" bin/chunkfill \
         share/man/man1/chunkfill.1 "$PYDIR/chunkfill/__init__.py" "$PYDIR/chunkfill/_config.py"; do
  [ -e "$P/$f" ] || { echo "install.sh: $f was not installed"; exit 1; }
done
# the library exports the public API only
if nm -D --defined-only "$P/$LIBDIR/libchunkfill.so" | awk '{print $3}' | grep -v '^cf_' | grep -v '^CHUNKFILL_' | grep -q .; then
  echo "install.sh: libchunkfill.so exports names outside the API:"; nm -D --defined-only "$P/$LIBDIR/libchunkfill.so" | grep -v ' cf_' | head
  exit 1
fi
want=$("$P/bin/chunkfill" sample --seed 42 --function router:final_density --at 0,64,0)
# pkg-config (the .pc file is relocatable: the prefix is found from its own place)
export PKG_CONFIG_PATH="$P/$LIBDIR/pkgconfig"
libdir=$(pkg-config --variable=libdir chunkfill)
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$T/c1" "$S/tests/install/consumer.c" $(pkg-config --cflags --libs chunkfill) -Wl,-rpath,"$libdir"
got=$("$T/c1")
[ "$got" = "$want" ] || { echo "install.sh: pkg-config consumer printed '$got', the CLI '$want'"; exit 1; }
# CMake: find_package(chunkfill)
cmake -S "$S/tests/install" -B "$T/cb" -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$T/cb" >/dev/null
got=$("$T/cb/consumer")
[ "$got" = "$want" ] || { echo "install.sh: CMake consumer printed '$got', the CLI '$want'"; exit 1; }
# Python, from the prefix alone (no CHUNKFILL_LIBRARY): it must load the installed library
if [ -n "$PY" ]; then
  got=$(cd "$T" && env -u CHUNKFILL_LIBRARY PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$P/$PYDIR" "$PY" -c '
import chunkfill, os, sys
assert os.path.realpath(chunkfill.library_path).startswith(os.path.realpath(sys.argv[1])), chunkfill.library_path
v = chunkfill.World([], seed=42).sample([(0, 64, 0)])[0]
print("0 64 0 %.9g" % v)' "$P")
  [ "$got" = "$want" ] || { echo "install.sh: python printed '$got', the CLI '$want'"; exit 1; }
fi
grep -q '^\.SH "CHUNKFILL fill"' "$P/share/man/man1/chunkfill.1" || { echo "install.sh: the man page lacks 'chunkfill fill'"; exit 1; }
echo "install.sh: library, headers, pkg-config, CMake package, CLI, Python module and man page work from $P"
