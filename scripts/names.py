#!/usr/bin/env python3
"""names.py - finds names of files that do not exist in the sources' comments and the docs.

Every word shaped like a file name (name.c, name.h, name.def, name.md, name.py, name.sh,
name.java, name.cmake, folder/name.ext) in the C sources, scripts and Markdown files that git
tracks (or would track) is looked up: a path must exist from the repository root, from host/,
or beside ../shared; a bare name must be the name of some file in the tree or in ../shared.
Names in the allowlist below are files of other projects, or outputs, that the text names
on purpose. Prints one line per stale name: file:line: the name. Exit 1 when any is found.
Usage: python3 scripts/names.py
"""
import os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                       capture_output=True, text=True, check=True).stdout.split()
files = [f for f in files if os.path.isfile(f)]
shared = os.path.join(root, "..", "shared")
names = set(os.path.basename(f) for f in files)
if os.path.isdir(shared):
    for d, _, fs in os.walk(shared):
        names.update(fs)
# files of other projects (upstream sources read to learn facts), build outputs (header_*.c,
# gpu-bundle/run.sh), a script of an earlier tree named in dated records (bench/RESULTS.md)
ALLOW = set("""
biomes.h biomenoise.c vectortable.h noise.h e_pow.c criterion.h cl_ext.h string.h stdlib.h
MultiNoiseBiomeSourceMixin.java R.java nptree_bin.py
default_pack.c viewer_html.c header_math.c header_nodes.c header_aquifer.c header_libnoise.c
header_hytale.c header_mc121.c header_iris.c header_biome.c header_surface.c _config.py
gpu-results.md run.sh pairmin.sh
""".split())
pat = re.compile(r"(?<![\w./$}-])((?:[\w.-]+/)*[A-Za-z_][\w-]*\.(?:c|h|def|md|py|sh|java|cmake))(?![\w/]|\.\w)")
scan = [f for f in files if f.endswith((".c", ".h", ".def", ".md", ".py", ".sh", ".cmake", ".txt"))]
bad = 0
for f in scan:
    try:
        text = open(f, encoding="utf-8", errors="replace").read().split("\n")
    except OSError:
        continue
    for i, line in enumerate(text, 1):
        if line.lstrip().startswith("#include <"):
            continue  # system headers
        for m in pat.finditer(line):
            n = m.group(1)
            base = os.path.basename(n)
            if base in ALLOW or n in ALLOW or re.match(r"btree\w*\.h$", base):
                continue
            if re.match(r"[A-Z_]+/", n) or re.match(r"(name|NAME|file|cf_NAME|[A-Z_]+\.)", base):
                continue  # a shell variable's folder ($ROOT/...), a placeholder (name.c, cf_NAME.h)
            if "/" in n:
                cands = [n, os.path.join("host", n), os.path.join(os.path.dirname(f), n), os.path.join(shared, n),
                         os.path.join(shared, n.replace("shared/", "", 1)), n.replace("../shared/", shared + "/", 1)]
                if any(os.path.exists(c) for c in cands) or base in names and n.startswith(("shared/", "../shared/")) \
                        or any(g.endswith("/" + n) for g in files):
                    continue
                if base in names:
                    print("%s:%d: %s (no such path; a file of that name is elsewhere)" % (f, i, n))
                else:
                    print("%s:%d: %s" % (f, i, n))
                bad += 1
            elif len(base.split(".")[0]) < 2:
                continue  # a one-letter stem is a variable's member (l.c, h.c), not a file
            elif base not in names:
                print("%s:%d: %s" % (f, i, n))
                bad += 1
print("names: %d stale name%s" % (bad, "" if bad == 1 else "s"), file=sys.stderr)
sys.exit(1 if bad else 0)
