#!/bin/sh
# selftest.sh CHUNKFILL SRC [PYTHON] - the docs runner fails when a documented output changes:
# a transcript that matches passes (times through the declared patterns, "…" elisions), the
# same transcript with one printed digit changed fails, and so does docs/cli.md with one line
# of a help text changed.
set -u
BIN=$1 SRC=$2 PY=${3:-python3}
T=$(mktemp -d /tmp/cf-docs-self-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "selftest: $*"; exit 1; }
cat > "$T/good.md" <<'MD'
```
$ chunkfill sample --seed 42 --function router:final_density --at 0,64,0
0 64 0 0.0478481725
$ chunkfill fill --seed 42 --chunks 0,0 --out a.npy
fill: 1 chunks, 393.3 kB, 9.99 s, 123.4 chunks/s (cpu)
$ printf 'a\nb\nc\n'
a
…
c
```
MD
"$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$SRC" "$T/good.md" > "$T/out" 2>&1 || { cat "$T/out"; fail "a matching transcript failed"; }
sed 's/0.0478481725/0.0478481726/' "$T/good.md" > "$T/bad.md"
"$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$SRC" "$T/bad.md" > "$T/out" 2>&1 && fail "a changed output passed"
grep -q "bad.md:2: \$ chunkfill sample" "$T/out" || { cat "$T/out"; fail "the failure does not name the line"; }
sed 's/393.3 kB/393.4 kB/' "$T/good.md" > "$T/bad2.md"
"$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$SRC" "$T/bad2.md" > "$T/out" 2>&1 && fail "a changed size passed"
# docs/cli.md: one help line changed
mkdir -p "$T/root/docs"
sed '0,/^Prints one line per point: X Y Z VALUE/s//Prints one line per point: X Y Z VALUES/' "$SRC/docs/cli.md" > "$T/root/docs/cli.md"
cmp -s "$SRC/docs/cli.md" "$T/root/docs/cli.md" && fail "the sed did not change docs/cli.md"
"$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$T/root" --cli-md > "$T/out" 2>&1 && fail "a changed help text in docs/cli.md passed"
grep -q "'### sample' is not the help" "$T/out" || { cat "$T/out"; fail "the cli.md failure does not name the section"; }
"$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$SRC" --cli-md > "$T/out" 2>&1 || { cat "$T/out"; fail "docs/cli.md differs from the help texts"; }
# the declared substitution: ~/.minecraft/versions/26.3/26.3.jar is a jar made from ../shared's
# vanilla 26.3 (its version.json names 26.3); without the data the line is skipped, not passed
cat > "$T/jar.md" <<'MD'
```
$ python3 -c "import zipfile, os; print(zipfile.ZipFile(os.path.expanduser('~/.minecraft/versions/26.3/26.3.jar')).read('version.json').decode())"
{"id": "26.3", "name": "26.3", "world_version": 5023}
```
MD
if [ -d "${CF_SHARED:-$SRC/../shared}/vanilla/26.3/data" ]; then
    "$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$SRC" "$T/jar.md" > "$T/out" 2>&1 || { cat "$T/out"; fail "the game jar substitution failed"; }
fi
CF_SHARED="$T/none" CI=false "$PY" "$SRC/tests/docs/run_docs.py" --bin "$BIN" --root "$SRC" "$T/jar.md" > "$T/out" 2>&1 && fail "a transcript of skipped lines alone passed"
grep -q "1 skipped (not counted)" "$T/out" || { cat "$T/out"; fail "a line without its game jar was not skipped"; }
echo "selftest: the runner fails on changed outputs and help texts"
