#!/bin/sh
# make-game-trees.sh - tests/golden/biome/game-trees.txt from the game-tree dumps (README.md).
# Run: sh tests/golden/biome/make-game-trees.sh   (from the repository root)
set -e
# CUB, XCUB, PMP: git directories of clones of github.com/Cubitect/cubiomes, xpple/cubiomes and
# Pumpkin-MC/Pumpkin holding the commits below (default: the mirrors the fetch tool made)
CUB=${CUB:-/work/.mirror/Cubitect+cubiomes/repo};   CUBC=e61f90580cbdd883214a8054670dacae655e59c0
XCUB=${XCUB:-/work/.mirror/xpple+cubiomes/repo};     XCUBC=10afebac72fceb85c0de1232cb4b2e04324b0048
PMP=${PMP:-/work/.mirror/Pumpkin-MC+Pumpkin/repo};  PMPC=df28c321ac0931581a41688fbb03fefe4ddb6f7e
D=$(mktemp -d)
for t in btree18 btree192 btree19 btree20 btree21wd; do git --git-dir=$CUB show $CUBC:tables/$t.h > $D/$t.h; done
for t in btree215 btree262; do git --git-dir=$XCUB show $XCUBC:tables/$t.h > $D/$t.h; done
git --git-dir=$PMP show $PMPC:assets/multi_noise_biome_tree.json > $D/pumpkin.json
g() { python3 scripts/game_tree_digest.py "$@"; }
{
echo "# game-trees.txt: digests (bm_tree_digest's text form) of the game's own RTree dumps;"
echo "# made by the commands in README.md (scripts/game_tree_digest.py). G LIST K SHA256"
echo "# [CUB] Cubitect/cubiomes $CUBC tables/btree18.h (1.18, 10 children; cubiomes uses it up to 1.18.2)"
g $D/btree18.h --golden 1.18 10;   g $D/btree18.h --golden 1.18.2 10
echo "# [CUB] tables/btree192.h (1.19.2, 10 children; cubiomes: 1.19 .. 1.19.2)"
g $D/btree192.h --golden 1.19 10;  g $D/btree192.h --golden 1.19.2 10
echo "# [CUB] tables/btree19.h (1.19.3, 6 children; cubiomes: 1.19.3 .. 1.19.4)"
g $D/btree19.h --golden 1.19.3 6;  g $D/btree19.h --golden 1.19.4 6
echo "# [CUB] tables/btree20.h (1.20 (23w07a), 6 children; cubiomes: 1.20 .. 1.21.3)"
g $D/btree20.h --golden 1.20 6;    g $D/btree20.h --golden 1.21.3 6
echo "# [CUB] tables/btree21wd.h (1.21 Winter Drop (24w40a), 6 children; cubiomes: 1.21.4)"
g $D/btree21wd.h --golden 1.21.4 6
echo "# [XCUB] xpple/cubiomes $XCUBC tables/btree215.h (6 children; the fork: 1.21.5 .. 26.1)"
g $D/btree215.h --golden 1.21.5 6; g $D/btree215.h --golden 1.21.11 6
echo "# [XCUB] tables/btree262.h (26.2 Chaos Cubed Drop, 6 children), nodes 8533 and 8540 repaired (README)"
g $D/btree262.h --golden 26.2 6 --repair-first-child 2>/dev/null
echo "# [PMP] Pumpkin-MC/Pumpkin $PMPC assets/multi_noise_biome_tree.json (the game's 26.1 trees)"
g $D/pumpkin.json --tree overworld --golden 26.1 6
g $D/pumpkin.json --tree nether --golden nether@26.1 6
} > tests/golden/biome/game-trees.txt
rm -r $D
