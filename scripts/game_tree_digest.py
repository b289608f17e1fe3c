#!/usr/bin/env python3
"""game_tree_digest.py - digests of the game's own Climate.RTree dumps, in the text form
that host/biome/tree.c bm_tree_digest hashes, so that equal digests mean node-for-node
equal trees (../shared/BIOMES.md §4, §5; tests/golden/biome/README.md).

    python3 scripts/game_tree_digest.py FILE [--tree NAME] [--golden LIST K | --text] [--repair-first-child]

FILE is one dump:
  * a cubiomes table header (Cubitect/cubiomes or xpple/cubiomes tables/btree*.h): one tree;
  * Pumpkin's assets/multi_noise_biome_tree.json: the trees "overworld" and "nether".
Output, one line per tree: NAME nodes=N leaves=L maxchildren=M sha256=HEX; with --golden
LIST K (one tree, chosen with --tree when the file has several) the golden line
"G LIST K HEX"; with --text the hashed text itself (to diff node for node).

The text form (tree.c digest_node): the tree depth first, children in order, one line a
node: the seven axes (temperature, humidity, continentalness, erosion, depth, weirdness,
offset) as "min,max " each, then "b <biome id>" for a leaf or "c <child count>" for a
subtree, then a newline.

What each dump says, and what this script adds:
  * Pumpkin: every node's seven intervals, its kind, children in order, leaves' biome ids
    ("minecraft:..."). Nothing is added; every subtree's box is checked to be the union
    of its children's boxes.
  * cubiomes: 64-bit nodes in depth-first preorder (ids given by the dumper's gen_ids:
    docs/MultiNoiseBiomeSourceMixin.java and docs/nptree_bin.py of xpple/cubiomes); the
    low 48 bits are six byte indices into the table's interval list (axis 0 lowest),
    the top 16 bits the first child's index, or 0xFF00 | biome enum id for a leaf. The
    child count is not stored: children are found as cubiomes' own reader does
    (biomenoise.c get_resulting_node: at first, first + step, ... up to `order`
    children, the step steps[depth], moved to a deeper step while node + step is past
    the end, stopping at the end of the table; a node is a leaf where steps[depth] is
    0). The decoding is accepted only if it reaches every node exactly once, the leaf
    flag (0xFF) agrees with the reader's depth at every node, and every subtree's stored
    box (but the root's) equals the union of its children's. Added, because the format has no room for them:
      - the offset axis: "0,0" for every node (the table drops it; every overworld
        entry's offset is 0, BIOMES.md §5);
      - the root's box: the union of its children's boxes (the dumper writes none; the
        table holds the interval {0,0} there) - true of every Climate.RTree subtree;
      - biome names: the enum ids mapped with BIOME_IDS below (written from cubiomes'
        biomes.h enum BiomeID and the 1.18+ names of util.c biome2str, xpple/cubiomes @
        10afebac72fceb85c0de1232cb4b2e04324b0048; the Cubitect ids are the same).
    A first-child index must be its node's index + 1 (preorder); any other value is an
    error naming the node, unless --repair-first-child is given, which uses index + 1
    and names every repaired node on stderr (xpple's btree262.h needs it for nodes 8533
    and 8540, vanilla/biomes/SOURCE.md).
"""
import argparse
import hashlib
import json
import re
import sys

# cubiomes biome enum id -> the game's id, for the biomes of 1.18+ overworld and nether
# trees (biomes.h enum BiomeID; util.c biome2str with mc >= MC_1_18 for the renamed ones).
BIOME_IDS = {
    0: 'ocean', 1: 'plains', 2: 'desert', 3: 'windswept_hills', 4: 'forest', 5: 'taiga',
    6: 'swamp', 7: 'river', 8: 'nether_wastes', 10: 'frozen_ocean', 11: 'frozen_river',
    12: 'snowy_plains', 14: 'mushroom_fields', 16: 'beach', 21: 'jungle', 23: 'sparse_jungle',
    24: 'deep_ocean', 25: 'stony_shore', 26: 'snowy_beach', 27: 'birch_forest',
    29: 'dark_forest', 30: 'snowy_taiga', 32: 'old_growth_pine_taiga', 34: 'windswept_forest',
    35: 'savanna', 36: 'savanna_plateau', 37: 'badlands', 38: 'wooded_badlands',
    44: 'warm_ocean', 45: 'lukewarm_ocean', 46: 'cold_ocean', 47: 'deep_warm_ocean',
    48: 'deep_lukewarm_ocean', 49: 'deep_cold_ocean', 50: 'deep_frozen_ocean',
    129: 'sunflower_plains', 131: 'windswept_gravelly_hills', 132: 'flower_forest',
    140: 'ice_spikes', 155: 'old_growth_birch_forest',
    160: 'old_growth_spruce_taiga', 163: 'windswept_savanna', 165: 'eroded_badlands',
    168: 'bamboo_jungle', 170: 'soul_sand_valley', 171: 'crimson_forest', 172: 'warped_forest',
    173: 'basalt_deltas', 174: 'dripstone_caves', 175: 'lush_caves', 177: 'meadow', 178: 'grove',
    179: 'snowy_slopes', 180: 'jagged_peaks', 181: 'frozen_peaks', 182: 'stony_peaks',
    183: 'deep_dark', 184: 'mangrove_swamp', 185: 'cherry_grove', 186: 'pale_garden',
    187: 'sulfur_caves',
}


class DumpError(Exception):
    pass


class Node:
    __slots__ = ('box', 'biome', 'ch')

    def __init__(self, box, biome=None, ch=None):
        self.box, self.biome, self.ch = box, biome, ch


def union(ch):
    return [(min(c.box[a][0] for c in ch), max(c.box[a][1] for c in ch)) for a in range(7)]


# ---------------------------------------------------------------- cubiomes tables
def block(text, name):
    m = re.search(r'\b%s\s*(?:\[\w*\])*\s*=\s*\{(.*?)\};' % re.escape(name), text, re.S)
    if not m:
        raise DumpError('no array %s' % name)
    return m.group(1)


def read_cubiomes(path, text, repair):
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    m = re.search(r'enum\s*\{\s*(\w+)_order\s*=\s*(\d+)\s*\}', text)
    if not m:
        raise DumpError('%s: no "enum { NAME_order = K }"' % path)
    name, order = m.group(1), int(m.group(2))
    steps = [int(x) for x in re.findall(r'-?\d+', block(text, name + '_steps'))]
    param = [(int(a), int(b)) for a, b in re.findall(r'\{\s*(-?\d+)\s*,\s*(-?\d+)\s*\}', block(text, name + '_param'))]
    nodes = [int(x, 16) for x in re.findall(r'0x([0-9A-Fa-f]+)', block(text, name + '_nodes'))]
    n = len(nodes)
    if not steps or steps[-1] != 0 or not param or n < 2:
        raise DumpError('%s: %s: empty or malformed tables' % (path, name))

    def box_of(i):
        v = nodes[i]
        b = []
        for a in range(6):
            p = (v >> (8 * a)) & 0xFF
            if p >= len(param):
                raise DumpError('%s: node %d: interval index %d past the %d intervals' % (path, i, p, len(param)))
            b.append(param[p])
        return b + [(0, 0)]

    seen = [0] * n

    def grow(idx, depth):
        # biomenoise.c get_resulting_node's walk, recording what it visits
        seen[idx] += 1
        v = nodes[idx]
        top = v >> 48
        if top >> 8 == 0xFF:
            bid = top & 0xFF
            if bid not in BIOME_IDS:
                raise DumpError('%s: node %d: biome enum id %d is not in BIOME_IDS' % (path, idx, bid))
            if steps[depth] != 0:
                raise DumpError('%s: node %d: a leaf where cubiomes\' reader sees a subtree' % (path, idx))
            return Node(box_of(idx), 'minecraft:' + BIOME_IDS[bid])
        if steps[depth] == 0:
            raise DumpError('%s: node %d: a subtree below the deepest level' % (path, idx))
        first = top
        if first != idx + 1:
            if not repair:
                raise DumpError('%s: node %d: first child %d (0x%04X), preorder says %d (--repair-first-child)'
                                % (path, idx, first, first, idx + 1))
            print('%s: node %d: first child %d (0x%04X) repaired to %d' % (path, idx, first, first, idx + 1), file=sys.stderr)
            first = idx + 1
        while True:
            step = steps[depth]
            depth += 1
            if idx + step < n:
                break
            if steps[depth] == 0:
                raise DumpError('%s: node %d: no step fits' % (path, idx))
        ch = []
        inner = first
        for _ in range(order):
            ch.append(grow(inner, depth))
            inner += step
            if inner >= n:
                break
        node = Node(box_of(idx), None, ch)
        if idx != 0 and node.box[:6] != union(ch)[:6]:
            raise DumpError('%s: node %d: box %s is not the union of its %d children %s' % (path, idx, node.box[:6], len(ch), union(ch)[:6]))
        return node

    root = grow(0, 0)
    root.box = union(root.ch)
    bad = [i for i in range(n) if seen[i] != 1]
    if bad:
        raise DumpError('%s: %d nodes reached %s times (first: node %d); the child layout is not the one decoded'
                        % (path, len(bad), sorted(set(seen[i] for i in bad)), bad[0]))
    return [(name, order, root)]


# ---------------------------------------------------------------- Pumpkin JSON
def read_pumpkin(path, text):
    d = json.loads(text)
    if not isinstance(d, dict):
        raise DumpError('%s: not an object of trees' % path)
    out = []

    def grow(j, ptr):
        if not isinstance(j, dict) or not isinstance(j.get('parameters'), list) or len(j['parameters']) != 7:
            raise DumpError('%s#%s: no seven "parameters"' % (path, ptr))
        box = []
        for a, p in enumerate(j['parameters']):
            if not isinstance(p, dict) or not isinstance(p.get('min'), int) or not isinstance(p.get('max'), int):
                raise DumpError('%s#%s/parameters/%d: not {min, max} integers' % (path, ptr, a))
            box.append((p['min'], p['max']))
        t = j.get('_type')
        if t == 'leaf':
            if not isinstance(j.get('biome'), str):
                raise DumpError('%s#%s/biome: not a string' % (path, ptr))
            return Node(box, j['biome'])
        if t != 'branch' or not isinstance(j.get('subTree'), list) or not j['subTree']:
            raise DumpError('%s#%s: neither a leaf nor a branch with a subTree' % (path, ptr))
        ch = [grow(c, '%s/subTree/%d' % (ptr, i)) for i, c in enumerate(j['subTree'])]
        if box != union(ch):
            raise DumpError('%s#%s: box is not the union of its children' % (path, ptr))
        return Node(box, None, ch)

    for k, v in d.items():
        out.append((k, None, grow(v, '/' + k)))
    return out


# ---------------------------------------------------------------- the text form
def lines_of(root):
    out = []
    stack = [root]
    while stack:
        t = stack.pop()
        p = ''.join('%d,%d ' % ab for ab in t.box)
        if t.ch is None:
            out.append('%sb %s\n' % (p, t.biome))
        else:
            out.append('%sc %d\n' % (p, len(t.ch)))
            stack.extend(reversed(t.ch))
    return out


def stats(root):
    nodes = leaves = maxch = 0
    stack = [root]
    while stack:
        t = stack.pop()
        nodes += 1
        if t.ch is None:
            leaves += 1
        else:
            maxch = max(maxch, len(t.ch))
            stack.extend(t.ch)
    return nodes, leaves, maxch


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('file')
    ap.add_argument('--tree', help='the tree of a file with several (Pumpkin: overworld, nether)')
    ap.add_argument('--golden', nargs=2, metavar=('LIST', 'K'), help='print "G LIST K SHA256" for one tree')
    ap.add_argument('--text', action='store_true', help='print the hashed text form')
    ap.add_argument('--repair-first-child', action='store_true')
    a = ap.parse_args()
    try:
        with open(a.file, encoding='utf-8') as f:
            text = f.read()
        if text.lstrip().startswith('{'):
            trees = read_pumpkin(a.file, text)
        else:
            trees = read_cubiomes(a.file, text, a.repair_first_child)
        if a.tree:
            trees = [t for t in trees if t[0] == a.tree]
            if not trees:
                raise DumpError('%s: no tree %s' % (a.file, a.tree))
        if (a.golden or a.text) and len(trees) != 1:
            raise DumpError('%s: %d trees; choose one with --tree' % (a.file, len(trees)))
        for name, order, root in trees:
            lines = lines_of(root)
            hexd = hashlib.sha256(''.join(lines).encode()).hexdigest()
            nodes, leaves, maxch = stats(root)
            if a.text:
                sys.stdout.write(''.join(lines))
            elif a.golden:
                k = int(a.golden[1])
                if (order is not None and order != k) or maxch > k:
                    raise DumpError('%s: %s: K %d but the dump is %s-ary (at most %d children seen)'
                                    % (a.file, name, k, order if order is not None else '?', maxch))
                print('G %s %d %s' % (a.golden[0], k, hexd))
            else:
                print('%s nodes=%d leaves=%d maxchildren=%d sha256=%s' % (name, nodes, leaves, maxch, hexd))
    except (OSError, ValueError, DumpError) as e:
        print(str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
