#!/usr/bin/env bash
# Regenerates tests/golden/veins121.txt: the 1.18-1.21 ore veins (OreVeinifier) of whole chunks from the veins
# oracle (deepslate-oracle-veins.mjs, deepslate 0.26.2; the rule is its own code from MATERIAL-RULES.md §3).
#   ORACLE  folder with deepslate-oracle-veins.mjs and node_modules/deepslate@0.26.2 (default /work/oracle/legacy)
#   SHARED  folder with vanilla/1.21.11 (default: ../shared relative to the repository root)
# One oracle run per chunk:
#   node $ORACLE/deepslate-oracle-veins.mjs $SHARED/vanilla/1.21.11 veins --settings S --seed N --chunk X,Z
# About 30 s on 2 cores.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/oracle-env.sh"
oracle_env make-veins121.sh /work/oracle/legacy deepslate-oracle-veins.mjs 1.21.11
# settings seed chunk: near and far, copper and iron (chosen where the oracle finds both kinds of ore)
CHUNKS="minecraft:overworld 42 11,8
minecraft:overworld 42 10,9
minecraft:overworld -7777 -19,19
minecraft:overworld 0 0,0
minecraft:overworld 42 -60000,70000
minecraft:overworld -7777 1000001,-999995
minecraft:large_biomes 7 3,1
minecraft:large_biomes 123456789 100002,100002
minecraft:amplified 2024 -15,-15
minecraft:amplified -5 8,9
minecraft:amplified 2024 500005,-400000"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
OUT="$HERE/veins121.txt"
{
    echo "# veins121.txt - made by tests/golden/make-veins121.sh (see README.md): the ore veins of the veins oracle"
    echo "# per chunk: positive = blocks with final density > 0 (the oracle's, through the cell cache);"
    echo "# then 'index:kind' for every such block that is a vein block (index ((y - min_y)*16 + z)*16 + x;"
    echo "# kind g granite, c copper_ore, C raw_copper_block, t tuff, i deepslate_iron_ore, I raw_iron_block)"
} > "$OUT.tmp"
echo "$CHUNKS" | while read -r S N C; do
    node "$ORACLE/deepslate-oracle-veins.mjs" "$PACK" veins --settings "$S" --seed "$N" --chunk "$C" --out "$TMP/v.json"
    node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
if (d.meta.deepslate !== "0.26.2" || d.meta.unknown_types.length) throw new Error("oracle: deepslate " + d.meta.deepslate + ", unknown types " + d.meta.unknown_types);
const k = {"minecraft:granite": "g", "minecraft:copper_ore": "c", "minecraft:raw_copper_block": "C", "minecraft:tuff": "t",
           "minecraft:deepslate_iron_ore": "i", "minecraft:raw_iron_block": "I"};
let pos = 0, list = [];
for (let i = 0; i < d.vein.length; i++) {
  if (!(d.final_density[i] > 0)) continue;
  pos++;
  if (d.vein[i]) list.push(i + ":" + k[d.palette[d.vein[i]]]);
}
console.log(`@ settings=${d.meta.settings} seed=${d.meta.seed} chunk=${d.chunk[0]},${d.chunk[1]} positive=${pos} veins=${list.length}`);
for (let i = 0; i < list.length; i += 16) console.log(list.slice(i, i + 16).join(" "));
' "$TMP/v.json" >> "$OUT.tmp"
done
mv "$OUT.tmp" "$OUT"
echo "wrote $OUT"
