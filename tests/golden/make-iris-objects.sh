#!/bin/sh
# make-iris-objects.sh - writes tests/golden/iris-objects.jsonl: a committed subset
# of ../shared/iris/objects_{master,unification}.jsonl (values computed by Iris's
# own Java classes; see ../shared/iris/README.md), so that test_iris_objects
# checks every Iris object on a clone without ../shared. First one line
# {"definition": {kind, name, json}} per object of definitions.json, then, per
# object, seed and branch: the records at 2-D points (123.456, 789.012) and
# (29999999.5, -29999999.5), at 3-D point (123.456, 78.9, 789.012), and every
# record that carries strict_bits. Records are copied verbatim, in file order.
# Usage: sh tests/golden/make-iris-objects.sh [SHARED_DIR]
set -e
cd "$(dirname "$0")"
S=${1:-../../../shared}
python3 - "$S/iris" > iris-objects.jsonl <<'PY'
import json, sys
d = sys.argv[1]
for o in json.load(open(f"{d}/definitions.json"))["objects"]:
    print(json.dumps({"definition": o}, separators=(",", ":")))
want = {(123.456, None, 789.012), (29999999.5, None, -29999999.5), (123.456, 78.9, 789.012)}
for b in ("master", "unification"):
    for line in open(f"{d}/objects_{b}.jsonl"):
        r = json.loads(line)
        if (r["x"], r["y"], r["z"]) in want or "strict_bits" in r:
            sys.stdout.write(line)
PY
wc -l iris-objects.jsonl
