#!/bin/sh
# tests/golden/lenient.txt: splines whose locations decrease (tests/packs/lenient, 26.3 format, and
# tests/packs/lenient121, 1.18-1.21 format), evaluated by the oracles at 300 points for two seeds.
# Usage (from the repository root): ORACLE=/work/oracle tests/golden/make-lenient.sh > tests/golden/lenient.txt
set -eu
ORACLE=${ORACLE:-/work/oracle}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "
import json
json.dump([[x, y, z] for x in (0, 37, -113, 2049) for z in (0, -77, 301) for y in range(-64, 321, 16)], open('$tmp/pts.json', 'w'))"
echo "# made by: ORACLE=$ORACLE tests/golden/make-lenient.sh > tests/golden/lenient.txt; per block:"
echo "#   node \$ORACLE/deepslate-oracle.mjs tests/packs/lenient df --mc 26.3 --settings t:s --seed S --df t:unsorted --points @pts.json (deepslate 0.27.2; values: float32 bits)"
echo "#   node \$ORACLE/legacy/deepslate-oracle-legacy.mjs tests/packs/lenient121 df --settings t:s --seed S --df t:unsorted --points @pts.json (deepslate 0.26.2; values: float64 bits)"
echo "# pts.json: x in 0 37 -113 2049, z in 0 -77 301, y from -64 to 320 step 16"
for seed in 1 -7309468371244957219; do
    node "$ORACLE/deepslate-oracle.mjs" tests/packs/lenient df --mc 26.3 --settings t:s --seed "$seed" --df t:unsorted \
        --points "@$tmp/pts.json" --out "$tmp/a.json" >/dev/null
    node "$ORACLE/legacy/deepslate-oracle-legacy.mjs" tests/packs/lenient121 df --settings t:s --seed "$seed" --df t:unsorted \
        --points "@$tmp/pts.json" --out "$tmp/b.json" >/dev/null
    python3 - "$tmp/a.json" "$tmp/b.json" "$seed" <<'PY'
import json, struct, sys
for path, pack, fmt in ((sys.argv[1], 'lenient', 'f'), (sys.argv[2], 'lenient121', 'd')):
    d = json.load(open(path))
    assert d['meta']['unknown_types'] == [], d['meta']
    print('@ pack=%s settings=t:s seed=%s function=t:unsorted' % (pack, sys.argv[3]))
    for (x, y, z), v in zip(d['points'], d['values']):
        if fmt == 'f':
            b = struct.pack('>f', v)
            assert struct.unpack('>f', b)[0] == v, 'not a float32: %r' % v
            print('%d %d %d 0x%s' % (x, y, z, b.hex()))
        else:
            print('%d %d %d 0x%s' % (x, y, z, struct.pack('>d', v).hex()))
PY
done
