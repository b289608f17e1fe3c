#!/usr/bin/env python3
"""checklinks.py [ROOT] - every markdown link (file and #anchor) and every backticked
repository path (host/..., tests/..., ...) in the project's .md files must resolve.
Run by scripts/lint.sh; exit 1 with one line per broken link or path."""
import re, os, sys, subprocess
os.chdir(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
files = subprocess.run(['git','ls-files','-co','--exclude-standard','*.md'],capture_output=True,text=True).stdout.split()
def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')
def anchors(path):
    out=set(); incode=False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'): incode = not incode; continue
        if not incode and line.startswith('#'):
            out.add(slug(line.lstrip('#')))
    return out
bad = 0; nlinks = 0; npaths = 0
prefixes = ('host/','kernels/','tests/','packs/','include/','scripts/','bench/','fuzz/','docs/','cmake/','.ci/')
for f in files:
    text = open(f, encoding='utf-8').read()
    # strip fenced code for link check
    nocode = re.sub(r'```.*?```', '', text, flags=re.S)
    for m in re.finditer(r'\]\(([^)\s]+)\)', nocode):
        t = m.group(1); nlinks += 1
        if re.match(r'[a-z]+://', t): continue
        p, _, a = t.partition('#')
        tgt = os.path.normpath(os.path.join(os.path.dirname(f), p)) if p else f
        if not os.path.exists(tgt):
            print(f'{f}: broken link {t}'); bad += 1; continue
        if a and tgt.endswith('.md') and a not in anchors(tgt):
            print(f'{f}: missing anchor {t}'); bad += 1
    for m in re.finditer(r'`([^`\s]+)`', nocode):
        p = m.group(1).rstrip('.,:;')
        if not p.startswith(prefixes): continue
        if any(c in p for c in '*<>{}$[') : continue
        npaths += 1
        p2 = p.split('#')[0]
        if not os.path.exists(p2):
            print(f'{f}: path not found `{p}`'); bad += 1
print(f'{len(files)} files, {nlinks} links, {npaths} backticked paths, {bad} problems')
sys.exit(1 if bad else 0)
