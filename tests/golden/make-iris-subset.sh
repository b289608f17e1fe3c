#!/bin/sh
# make-iris-subset.sh - writes tests/golden/iris-styles.jsonl: a committed subset
# of ../shared/iris/styles_{master,unification}.jsonl (values computed by Iris's
# own Java code; see ../shared/iris/README.md), so that test_iris checks every
# implemented style on a clone without ../shared. Per style and branch: seed
# 1337 at 2-D point 11 (123.456, 789.012), seed -7 at 3-D point 50
# (123.456, 78.9, 789.012), seed 9000000000 at 2-D point 31
# (29999999.5, -29999999.5), and every record that carries strict_bits.
# Records are copied verbatim, in file order.
# Usage: sh tests/golden/make-iris-subset.sh [SHARED_DIR]
set -e
cd "$(dirname "$0")"
S=${1:-../../../shared}
python3 - "$S/iris" > iris-styles.jsonl <<'PY'
import json, sys
d = sys.argv[1]
want = {(1337, 123.456, None, 789.012), (-7, 123.456, 78.9, 789.012), (9000000000, 29999999.5, None, -29999999.5)}
for b in ("master", "unification"):
    for line in open(f"{d}/styles_{b}.jsonl"):
        r = json.loads(line)
        if (r["seed"], r["x"], r["y"], r["z"]) in want or "strict_bits" in r:
            sys.stdout.write(line)
PY
wc -l iris-styles.jsonl
