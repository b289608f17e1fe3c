#!/bin/sh
# make-corpus.sh [seeds] - the corpora of the fuzz harnesses.
#
#   fuzz/make-corpus.sh        fills fuzz/corpus-work/{pack,graph,args} (kept between runs,
#                              git-ignored): the seed corpora of fuzz/corpus/ plus, when
#                              ../shared/vanilla/26.3 exists, vanilla 26.3 density functions
#                              rewritten for the harnesses (vanilla JSON never enters the repo)
#   fuzz/make-corpus.sh seeds  regenerates the committed seed corpora fuzz/corpus/ from our own
#                              packs (tests/packs/nodes, tests/packs/tiny, packs/default) and the
#                              hand-written command lines below
# Input formats: fuzz_pack.c (one file), fuzz_graph.c (pieces split at 0x00), fuzz_args.c,
# fuzz_libnoise.c (one libnoise file), fuzz_archive.c (one zip archive), fuzz_http.c (the bytes a
# client sends; its seeds fuzz/corpus/http/ are written by hand).
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$FUZZ")
VANILLA=${VANILLA:-$ROOT/../shared/vanilla/26.3}
AWK="awk -f $FUZZ/rewrite.awk"

# graph_input PACKROOT FILE CFG OUT: FILE as t:f0, the functions it references (their own
# references replaced by a constant) as t:f1..t:f7, its first two noises as t:n0, t:n1,
# the default router, then the configuration bytes CFG (printf octal escapes)
graph_input() {
  tmp=$(mktemp -d)
  $AWK -v mode=graph -v map="$tmp/map" "$2" > "$tmp/f0"
  touch "$tmp/map"
  for k in 1 2 3 4 5 6 7; do : > "$tmp/f$k"; done
  : > "$tmp/n0"
  : > "$tmp/n1"
  while read -r slot id; do
    ns=${id%%:*}
    path=${id#*:}
    case $slot in
      f*) src="$1/data/$ns/worldgen/density_function/$path.json"
          if [ -f "$src" ]; then $AWK -v mode=leaf "$src" > "$tmp/$slot"; else echo 0.25 > "$tmp/$slot"; fi ;;
      n*) src="$1/data/$ns/worldgen/noise/$path.json"
          [ -f "$src" ] && cp "$src" "$tmp/$slot" ;;
    esac
  done < "$tmp/map"
  {
    for p in f0 f1 f2 f3 f4 f5 f6 f7 n0 n1; do cat "$tmp/$p"; printf '\000'; done
    printf '\000' # piece 10: the router (empty: the default)
    # shellcheck disable=SC2059
    printf "$3"
  } > "$4"
  rm -rf "$tmp"
}

# name of a pack file in a flat corpus: its path below worldgen/<kind>/, '/' -> '_'
flat() { echo "$1" | sed 's|.*/worldgen/density_function/||; s|/|_|g; s|\.json$||'; }

if [ "${1:-}" = seeds ]; then
  C="$FUZZ/corpus"
  rm -rf "$C/pack" "$C/graph" "$C/args" "$C/libnoise" "$C/hytale" "$C/iris" "$C/archive"
  mkdir -p "$C/pack" "$C/graph" "$C/args" "$C/libnoise" "$C/hytale" "$C/iris" "$C/archive"
  # archives of tests/packs/tiny (fuzz_archive.c): data/ at the root, in a single top folder,
  # and a server jar's bundler holding it as a nested jar (zip -X: no time-dependent extras)
  t=$(mktemp -d)
  (cd "$ROOT/tests/packs/tiny" && zip -qrX "$C/archive/root.zip" data && zip -qrX "$t/server-1.21.jar" data)
  mkdir -p "$t/top/Tiny Pack" "$t/b/META-INF/versions/1.21"
  cp -r "$ROOT/tests/packs/tiny/data" "$t/top/Tiny Pack/"
  (cd "$t/top" && zip -qrX "$C/archive/top.zip" "Tiny Pack")
  cp "$t/server-1.21.jar" "$t/b/META-INF/versions/1.21/"
  (cd "$t/b" && zip -qrX "$C/archive/bundler.jar" META-INF)
  rm -rf "$t"
  # Iris generator files (fuzz_iris.c), written here
  printf '{"seed": 12, "interpolator": {"function": "HERMITE_STARCAST_3", "horizontalScale": 5.5}, "composite": [{"seed": 3, "negative": true, "exponent": 1.3, "style": {"style": "IRIS_DOUBLE", "zoom": 0.5, "fracture": {"style": "NOWHERE", "multiplier": 9, "axialFracturing": true}}, "fracture": [{"seed": 4, "opacity": 0.5, "style": {"style": "SIMPLEX"}}, {"enabled": false}]}]}' > "$C/iris/layers"
  printf '{"multiplicitive": true, "zoom": 2, "offsetX": -7.5, "cliffHeightMin": 10, "cliffHeightMax": 40, "cliffHeightGenerator": {"style": {"style": "CELLULAR_HEIGHT"}}, "cellFractureHeight": 0.5, "composite": [{"style": {"style": "VASCULAR", "cellularFrequency": 2.5, "cellularZoom": 1.5}, "sinCentered": true, "bezier": true, "parametric": true}, {"opacity": 0.3, "style": {"style": "STATIC", "zoom": 3}}]}' > "$C/iris/composite"
  # Hytale V2 density files and a legacy asset (fuzz_hytale.c)
  cp "$ROOT/packs/hytale-biome-tiles/hytale/Density/Recipes.json" "$C/hytale/recipes"
  cp "$ROOT/packs/hytale-biome-tiles/hytale/Density/Tiles.json" "$C/hytale/tiles"
  printf '{"Type":"SUM","Factors":[2],"Scale":0.5,"Noise":[{"NoiseType":"SIMPLEX","Seed":"s","Octaves":2},{"NoiseType":"CONSTANT"}]}' > "$C/hytale/legacy"
  # legacy assets with every Type / NoiseType chunkfill lowers (test_hytale_legacy.c's device cases)
  printf '{"Type":"DISTORTED","Seed":"w","Noise":{"Type":"BLEND","Thresholds":[0.3,0.6],"Alpha":{"NoiseType":"VALUE","InterpolationMode":"HERMITE","Scale":0.02},"Noise":[{"NoiseType":"PERLIN","Octaves":3,"FractalMode":"MAX"},{"NoiseType":"CELL","CellMode":"DISTANCE","Jitter":0.7}]},"Randomizer":{"Rotate":{"Yaw":30},"Generators":[{"NoiseType":"SIMPLEX","Scale":0.01,"Amplitude":9}]}}' > "$C/hytale/legacy-distorted"
  printf '{"Type":"ROTATE","Rotate":{"Pitch":20,"OriginY":64},"Formula":"INVERTED_RIDGED_SQRT","Normalize":[-1,1],"Noise":{"Type":"GRADIENT","Distance":2,"Noise":{"Type":"MIN","Noise":[{"NoiseType":"POINT","Y":64,"OuterRadius":90},{"NoiseType":"DISTANCE","Distance2Mode":"DIV","Scale":0.05}]}}}' > "$C/hytale/legacy-rotate"
  printf '{"Type":"NORMALIZE","Range":[0.6,1.6],"Noise":{"Type":"SUM","Factors":[1,0.3],"Noise":[{"Type":"MULTIPLY","Noise":[{"NoiseType":"POINT","Y":40,"OuterRadius":200},{"Type":"INVERT","Noise":{"Type":"OFFSET","OffsetX":3,"Noise":{"NoiseType":"CONSTANT","Value":0.2}}}]},{"Type":"SCALE","Scale":0.02,"Noise":{"Type":"FORMULA","Formula":"SQRT","Noise":{"NoiseType":"SIMPLEX","Octaves":4}}}]}}' > "$C/hytale/legacy-terrain"
  # libnoise files: our test pack and example pack as they are
  cp "$ROOT/tests/packs/libnoise/libnoise/modules.json" "$C/libnoise/modules"
  cp "$ROOT/packs/libnoise-obsidian/libnoise/overworld.json" "$C/libnoise/obsidian"
  printf '{"modules": {"p": {"module": "Perlin"}}, "output": "p", "terrain": {"scale": 8}}' > "$C/libnoise/minimal"
  i=0
  for pack in "$ROOT/tests/packs/nodes" "$ROOT/tests/packs/tiny" "$ROOT/packs/default"; do
    tag=$(basename "$pack")
    find "$pack/data" -path '*worldgen/density_function/*' -name '*.json' | sort | while read -r f; do
      $AWK -v mode=pack "$f" > "$C/pack/$tag-$(flat "$f")"
    done
    find "$pack/data" -path '*worldgen/density_function/*' -name '*.json' | sort | while read -r f; do
      i=$((i + 1))
      # configuration: mostly the default settings, every 4th seed another height/min_y/seed/chunk
      if [ $((i % 4)) -eq 0 ]; then cfg=$(printf '\\%03o\\%03o\\%03o\\%03o' $((i % 16)) $(((i / 4) % 8)) $((i % 8)) $(((i / 4) % 3))); else cfg=''; fi
      graph_input "$pack" "$f" "$cfg" "$C/graph/$tag-$(flat "$f")"
    done
  done
  # command lines: first byte = command (0 sample 1 fill 2 check 3 render 4 slice 5 plan
  # 6 emit 7 info 8 nodes 9 devices, 10..15 the first argument), arguments split at 0x00
  # shellcheck disable=SC2059
  a() { name=$1; shift; { printf "$1"; shift; first=1; for x in "$@"; do [ $first = 1 ] || printf '\000'; first=0; printf '%s' "$x"; done; } > "$C/args/$name"; }
  a sample-at '\000' --seed 1 --function router:final_density --at 1,2,3 --at -5,0,7
  a sample-fn '\000' --seed hello --function t:g --at 0,8,0 --settings minecraft:overworld
  a sample-noise '\000' --seed -9223372036854775808 --function noise:t:n --at 2147483647,-2147483648,0
  a sample-points '\000' --seed 7 --function t:g --points -
  a fill '\001' --seed 1 --chunks 0,0:1,0 --out o.npy
  a fill-fn '\001' --seed 3 --function t:g --chunks -1,-1 --out o.npy --max-memory 100000000
  a check '\002' --seed 1 --chunks 0,0 --device opencl
  a render '\003' --seed 1 --area 0,0:31,31 --out m.png --heights h.npy --scale 2
  a render-below '\003' --seed 2 --area -8,-8:8,8 --below 4 --out m.png
  a slice '\004' --seed 1 --x 5 --span -16:47 --mode density --out s.png
  a slice-z '\004' --seed 1 --z -3 --out s.png
  a plan '\005' --function t:g
  a emit '\006' --function router:continents
  a info '\007' --function t:g --function noise:t:n --max-nodes 100 --max-depth 5 --max-file-bytes 1000
  a nodes '\010'
  a devices-help '\011' --help
  a help '\012' --help
  a unknown '\013' bogus --seed 1
  echo "make-corpus.sh: $(ls "$C/pack" | wc -l) pack, $(ls "$C/graph" | wc -l) graph, $(ls "$C/args" | wc -l) args, $(ls "$C/libnoise" | wc -l) libnoise, $(ls "$C/hytale" | wc -l) hytale, $(ls "$C/iris" | wc -l) iris, $(ls "$C/archive" | wc -l) archive seeds"
  exit 0
fi

W="$FUZZ/corpus-work"
mkdir -p "$W/pack" "$W/graph" "$W/args" "$W/libnoise" "$W/hytale" "$W/iris" "$W/archive" "$W/http"
for h in pack graph args libnoise hytale iris archive http; do cp "$FUZZ/corpus/$h/"* "$W/$h/"; done
if [ -d "$VANILLA/data" ]; then
  n=0
  for f in $(find "$VANILLA/data" -path '*worldgen/density_function/*' -name '*.json' | sort); do
    n=$((n + 1))
    $AWK -v mode=pack "$f" > "$W/pack/vanilla-$(flat "$f")"
    graph_input "$VANILLA" "$f" "" "$W/graph/vanilla-$(flat "$f")"
  done
  echo "make-corpus.sh: added $n vanilla density functions (rewritten) to $W/pack and $W/graph"
else
  echo "make-corpus.sh: no vanilla data at $VANILLA: seeds only"
fi
