#!/bin/sh
# make-heights.sh - golden surface heights from the oracle's chunk mode: per column the
# highest y with density > 0 (summary.highest_positive_density_y; none -> min_y - 1).
# usage: ORACLE=/work/oracle tests/golden/make-heights.sh   (writes tests/golden/heights-default.txt)
# The default pack, settings minecraft:overworld, seed 42, chunks 0..3 x 0..3 (blocks 0..63).
set -e
cd "$(dirname "$0")/../.."
ORACLE=${ORACLE:-/work/oracle}
out=tests/golden/heights-default.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cz in 0 1 2 3; do for cx in 0 1 2 3; do
  node "$ORACLE/deepslate-oracle.mjs" packs/default chunk --settings minecraft:overworld --seed 42 \
    --chunk $cx,$cz --out "$tmp/c_${cx}_${cz}.json" 2>/dev/null
done; done
python3 - "$tmp" "$out" <<'PY'
import json, sys
tmp, out = sys.argv[1], sys.argv[2]
h = [[None] * 64 for _ in range(64)]
for cz in range(4):
    for cx in range(4):
        d = json.load(open(f"{tmp}/c_{cx}_{cz}.json"))
        top = d["summary"]["highest_positive_density_y"]
        for iz in range(16):
            for ix in range(16):
                t = top[iz * 16 + ix]
                h[cz * 16 + iz][cx * 16 + ix] = d["minY"] - 1 if t is None else t
with open(out, "w") as f:
    f.write("# made by: tests/golden/make-heights.sh (node deepslate-oracle.mjs packs/default chunk --settings minecraft:overworld --seed 42 --chunk X,Z for X, Z in 0..3; summary.highest_positive_density_y, none -> min_y - 1)\n")
    f.write("@ pack=default settings=minecraft:overworld seed=42 area=0,0:63,63\n")
    for row in h:
        f.write(" ".join(str(v) for v in row) + "\n")
print(out, "written")
PY
