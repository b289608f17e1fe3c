#!/usr/bin/env python3
"""make-biome.py - writes biomes.txt, the biome goldens of tests/test_biome.c, from the oracle.

Oracle: ../shared/oracle/deepslate-biomes.mjs, installed as ORACLE_DIR/deepslate-biomes.mjs next to
deepslate-oracle.mjs (deepslate 0.27.2) and legacy/deepslate-oracle-legacy.mjs (deepslate 0.26.2)
(BIOMES.md §10). Usage (from the repository root):
    python3 tests/golden/biome/make-biome.py ORACLE_DIR SHARED_DIR > tests/golden/biome/biomes.txt
e.g. python3 tests/golden/biome/make-biome.py /work/oracle /work/shared > tests/golden/biome/biomes.txt
Every position is chosen here with a fixed random seed; each oracle run is printed as a '#' line.
Lines (fields separated by spaces):
  Q VER SETTINGS SEED QX QY QZ T H C E D W RTREE BRUTE COLD FITNESS TIES   multi_noise, point path
  E VER SEED QX QY QZ EROSION BIOME                                        the_end (EROSION '-': main island)
  B VER SETTINGS SEED X Y Z QX QY QZ RTREE BRUTE COLD TIES                 block through the zoom
  T LIST K T H C E D W RTREE BRUTE COLD FITNESS TIES                       lookup only (box boundaries)
  D LIST K SHA256                                                          digest of the oracle's tree dump
RTREE: the oracle's RTree with warm start in query order; COLD: with --cold; BRUTE: first minimum in
insertion order; TIES: entries at the minimum fitness (> 1: vanilla's answer depends on the warm start).
"""
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

oracle_dir, shared = sys.argv[1], sys.argv[2]
script = os.path.join(oracle_dir, 'deepslate-biomes.mjs')
bdir = os.path.join(shared, 'vanilla', 'biomes')
rng = random.Random(20261201)
SEEDS = ['0', '1', '-4172144997902289642']
VERS = {'26.3': ('26.3', 'overworld-26.3.json'), '1.21.11': ('1.21.11', 'overworld-1.21.5.json')}


def run(args):
    print('# node deepslate-biomes.mjs ' + ' '.join(args))
    sys.stdout.flush()
    with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as t:
        out = t.name
    subprocess.run(['node', script] + args + ['--out', out], check=True, cwd=oracle_dir, stdout=subprocess.DEVNULL)
    with open(out) as f:
        d = json.load(f)
    os.unlink(out)
    return d


def write_points(pts):
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as t:
        json.dump(pts, t)
        return t.name


def quarts(ymin, ymax):
    pts = []
    for _ in range(24):
        pts.append([rng.randint(-2000, 2000), rng.randint(ymin, ymax), rng.randint(-2000, 2000)])
    for _ in range(20):
        pts.append([rng.randint(-7000000, 7000000), rng.randint(ymin, ymax), rng.randint(-7000000, 7000000)])
    for sx in (-1, 1):
        for sz in (-1, 1):
            pts.append([sx * 7000000, rng.randint(ymin, ymax), sz * 7000000])
    return pts


def fmt_target(t):
    return ' '.join(str(v) for v in t)


for ver, (pack, params) in VERS.items():
    packdir = os.path.join(shared, 'vanilla', pack)
    for settings in ('overworld', 'large_biomes', 'amplified', 'nether', 'end'):
        for seed in SEEDS:
            if settings == 'end':
                pts = quarts(0, 63)
                pts[:4] = [[0, 16, 0], [255, 10, 0], [256, 10, 0], [-181, 5, 182]]  # around the main island's edge
                pf = write_points(pts)
                d = run([packdir, '--seed', seed, '--settings', 'minecraft:end', '--params', 'end', '--quarts', '@' + pf])
                os.unlink(pf)
                for r in d['results']:
                    e = repr(r['erosion']) if 'erosion' in r else '-'
                    print('E %s %s %s %s' % (ver, seed, ' '.join(map(str, r['quart'])), e + ' ' + r['biome']))
                continue
            pl = os.path.join(bdir, 'nether.json' if settings == 'nether' else params)
            pts = quarts(0, 31) if settings == 'nether' else quarts(-16, 79)
            pf = write_points(pts)
            base = [packdir, '--seed', seed, '--settings', 'minecraft:' + settings, '--params', pl, '--quarts', '@' + pf]
            warm, cold = run(base), run(base + ['--cold'])
            os.unlink(pf)
            for r, c in zip(warm['results'], cold['results']):
                assert r['quart'] == c['quart'] and r['target'] == c['target']
                print('Q %s minecraft:%s %s %s %s %s %s %s %d %d' % (ver, settings, seed, ' '.join(map(str, r['quart'])),
                      fmt_target(r['target']), r['rtree'], r['brute'], c['rtree'], r['fitness'], r['ties']))
    # blocks through the zoom
    for seed in SEEDS:
        pts = [[0, 64, 0], [3, 64, 3], [-1, 64, -1], [100, 70, -37]]
        pts += [[rng.randint(-30000, 30000), rng.randint(-64, 319), rng.randint(-30000, 30000)] for _ in range(8)]
        pts += [[rng.randint(-28000000, 28000000), rng.randint(-64, 319), rng.randint(-28000000, 28000000)] for _ in range(8)]
        pf = write_points(pts)
        base = [packdir, '--seed', seed, '--params', os.path.join(bdir, params), '--blocks', '@' + pf]
        warm, cold = run(base), run(base + ['--cold'])
        os.unlink(pf)
        for b, r, c in zip(warm['blocks'], warm['results'], cold['results']):
            print('B %s minecraft:overworld %s %s %s %s %s %s %d' % (ver, seed, ' '.join(map(str, b)), ' '.join(map(str, r['quart'])),
                  r['rtree'], r['brute'], c['rtree'], r['ties']))

# lookup only: targets on and next to the box boundaries of each list, and the tree digests
LISTS = [('1.18', 10), ('1.19', 10), ('1.19', 6), ('1.20', 6), ('1.21.4', 6), ('1.21.5', 6), ('26.2', 6), ('26.3', 19), ('nether', 6)]
for name, k in LISTS:
    f = os.path.join(bdir, 'nether.json' if name == 'nether' else 'overworld-%s.json' % name)
    entries = json.load(open(f))['entries']
    targets = []
    for _ in range(60 if name != 'nether' else 20):
        e = rng.choice(entries)
        t = []
        for a in range(6):
            lo, hi = e[1 + a]
            t.append(rng.choice([lo - 1, lo, hi, hi + 1, (lo + hi) // 2]))
        targets.append(t)
    ts = ';'.join(','.join(map(str, t)) for t in targets)
    with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as tf:
        dump = tf.name
    warm = run(['--params', f, '--k', str(k), '--targets', ts, '--dump-tree', dump])
    cold = run(['--params', f, '--k', str(k), '--targets', ts, '--cold'])
    tree = json.load(open(dump))
    os.unlink(dump)
    lines = []

    def walk(n):
        p = ' '.join('%d,%d' % (a, b) for a, b in n['p'])
        if 'b' in n:
            lines.append('%s b %s\n' % (p, n['b']))
        else:
            lines.append('%s c %d\n' % (p, len(n['c'])))
            for c in n['c']:
                walk(c)
    walk(tree)
    print('D %s %d %s' % (name, k, hashlib.sha256(''.join(lines).encode()).hexdigest()))
    for r, c in zip(warm['results'], cold['results']):
        print('T %s %d %s %s %s %s %d %d' % (name, k, fmt_target(r['target']), r['rtree'], r['brute'], c['rtree'], r['fitness'], r['ties']))
