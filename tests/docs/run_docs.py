#!/usr/bin/env python3
"""run_docs.py - runs every `$ ` command line of the documentation and compares its output.

    run_docs.py --bin BUILD/chunkfill [--root SRC] [FILE.md ...]

Every fenced block (```) of README.md and docs/*.md (or the files given) that holds lines
starting with "$ " is a transcript: each "$ CMD" runs in bash, in one temporary folder per
file (so a later block may use an earlier block's files), with `chunkfill` on PATH as the
build's binary; the lines after it, up to the next "$ " or the end of the block, are the
output it must print (standard output and standard error together, in order). A line "…"
stands for any number of lines. "CMD &" runs in the background as job %N: the lines after it
are what it prints first (the runner waits for them before it goes on); "$ kill %N" stops it
(SIGTERM) and the lines after it are the rest of what the job printed. Every command must
exit 0 (a background job: 0 after its SIGTERM).

Both sides are compared after the declared patterns below (times, rates, the OpenCL device's
name, the temporary folder), and nothing else: a changed output fails the run, naming the
file, the line and both texts. Exit 0 when every transcript matched, 1 otherwise.

The declared substitution (GAME_JARS below): a command that names `~/.minecraft` (the user's
own game, README.md's first example) runs with HOME set to a folder of the temporary one whose
.minecraft/versions/V/V.jar is a jar-shaped zip made here from ../shared/vanilla/V (or
$CF_SHARED/vanilla/V): its data/ tree and the version.json fields chunkfill reads ("id",
"world_version"). The jar is never committed; vanilla data stays in ../shared. Without that
folder the command is skipped and counted as such (under CI=true it fails).
tests/docs/selftest.sh checks that a changed output fails.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# The declared patterns: what may differ between two runs of the same command. Each is
# applied to the documented and to the actual line alike.
PATTERNS = [
    # elapsed times and rates ("3.50 s", "75000 blocks/s", "247 ms", "ETA 0:08")
    (re.compile(r"\b\d+(\.\d+)? s\b"), "<T> s"),
    (re.compile(r"\b\d+(\.\d+)? (blocks|chunks|tiles|quarts|columns)/s\b"), r"<R> \2/s"),
    (re.compile(r"\b\d+ ms\b"), "<T> ms"),
    # whether the program came from the OpenCL cache (CHUNKFILL_CACHE) or was compiled
    (re.compile(r"compile <T> ms from the cache"), "compile <T> ms"),
    # the OpenCL device chosen on this machine: "opencl:0 (NAME, PLATFORM)"
    (re.compile(r"opencl:\d+ \((?:[^()]|\([^()]*\))*\)"), "opencl:<N> (<DEVICE>)"),
]


# the game jars a `~/.minecraft` command finds: version -> world_version (the data version its
# version.json names, host/base/version.c)
GAME_JARS = {"26.3": 5023}


def shared_dir(root):
    return os.environ.get("CF_SHARED") or os.path.join(root, "..", "shared")


def game_home(tmp, root):
    """tmp/home with .minecraft/versions/V/V.jar for each GAME_JARS version; None (the vanilla data
    is missing) when one cannot be made"""
    import json
    import zipfile
    home = os.path.join(tmp, "home")
    for v, dv in GAME_JARS.items():
        jar = os.path.join(home, ".minecraft", "versions", v, v + ".jar")
        if os.path.exists(jar):
            continue
        data = os.path.join(shared_dir(root), "vanilla", v, "data")
        if not os.path.isdir(data):
            return None
        os.makedirs(os.path.dirname(jar), exist_ok=True)
        with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("version.json", json.dumps({"id": v, "name": v, "world_version": dv}))
            for d, dirs, files in os.walk(data):
                dirs.sort()
                for f in sorted(files):
                    full = os.path.join(d, f)
                    z.write(full, os.path.relpath(full, os.path.dirname(data)))
    return home


def normalize(line, tmp):
    line = line.rstrip("\n").replace(tmp, "<TMP>")
    for rx, rep in PATTERNS:
        line = rx.sub(rep, line)
    return line.rstrip()


def transcripts(path):
    """[(line number, command, [expected lines])] of path's `$ ` blocks, in order."""
    out, inblock, cur = [], False, None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("```"):
                inblock = not inblock
                cur = None
                continue
            if not inblock:
                continue
            if line.startswith("$ "):
                cur = (n, line[2:], [])
                out.append(cur)
            elif cur is not None:
                cur[2].append(line)
    return out


def match(want, got, tmp):
    """'' when the expected lines (with … for any lines) match got, else a message."""
    w = [normalize(x, tmp) for x in want]
    g = [normalize(x, tmp) for x in got]

    def rec(i, j):
        if i == len(w):
            return j == len(g)
        if w[i] == "…":
            return any(rec(i + 1, k) for k in range(j, len(g) + 1))
        return j < len(g) and w[i] == g[j] and rec(i + 1, j + 1)

    if rec(0, 0):
        return ""
    return "expected:\n  " + "\n  ".join(want or ["(nothing)"]) + "\nprinted:\n  " + "\n  ".join(got or ["(nothing)"])


class Job:
    """a background command: its output lines as they come"""

    def __init__(self, cmd, cwd, env):
        self.p = subprocess.Popen(["bash", "-c", "exec " + cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines, self.taken = [], 0
        self.t = threading.Thread(target=self.read, daemon=True)
        self.t.start()

    def read(self):
        for line in self.p.stdout:
            self.lines.append(line.rstrip("\n"))

    def first(self, n, timeout=60):
        end = time.time() + timeout
        while len(self.lines) < self.taken + n and self.p.poll() is None and time.time() < end:
            time.sleep(0.05)
        got = self.lines[self.taken:self.taken + n]
        self.taken += len(got)
        return got

    def stop(self, timeout=60):
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGTERM)
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            rc = self.p.wait()
        self.t.join(10)
        rest = self.lines[self.taken:]
        self.taken = len(self.lines)
        return rc, rest


def run_file(path, binary, root, verbose):
    steps = transcripts(path)
    if not steps:
        return 0, 0, 0
    tmp = tempfile.mkdtemp(prefix="cf-docs-")
    bindir = os.path.join(tmp, ".bin")
    os.mkdir(bindir)
    os.symlink(os.path.abspath(binary), os.path.join(bindir, "chunkfill"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C")
    jobs, bad, skipped, rel = [], 0, 0, os.path.relpath(path, root)
    try:
        for n, cmd, want in steps:
            where = "%s:%d: $ %s" % (rel, n, cmd)
            if verbose:
                print(where, flush=True)
            cenv = env
            if "~/.minecraft" in cmd:  # the declared substitution: a game jar made from ../shared
                home = game_home(tmp, root)
                if home is None:
                    if os.environ.get("CI") == "true":
                        bad += 1
                        print("FAIL %s\nno %s/vanilla (CI=true: the shared data must be beside the clone)" % (where, shared_dir(root)))
                    else:
                        skipped += 1
                        print("SKIP %s (no %s/vanilla to make the game jar from)" % (where, shared_dir(root)), flush=True)
                    continue
                cenv = dict(env, HOME=home)
            m = re.fullmatch(r"kill %(\d+)", cmd.strip())
            if cmd.rstrip().endswith("&"):
                jobs.append(Job(cmd.rstrip()[:-1], tmp, cenv))
                k = want.index("…") if "…" in want else len(want)
                got = jobs[-1].first(k)
                msg = match(want[:k], got, tmp)
            elif m:
                k = int(m.group(1))
                if k < 1 or k > len(jobs):
                    msg = "no job %%%d" % k
                else:
                    rc, got = jobs[k - 1].stop()
                    msg = match(want, got, tmp) or ("" if rc == 0 else "job %%%d exited %d after SIGTERM" % (k, rc))
            else:
                p = subprocess.run(["bash", "-c", cmd], cwd=tmp, env=cenv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, timeout=600)
                got = p.stdout.splitlines()
                msg = match(want, got, tmp) or ("" if p.returncode == 0 else "exit status %d" % p.returncode)
            if msg:
                bad += 1
                print("FAIL %s\n%s" % (where, msg), flush=True)
    finally:
        for j in jobs:
            if j.p.poll() is None:
                os.killpg(j.p.pid, signal.SIGKILL)
        shutil.rmtree(tmp, ignore_errors=True)
    return len(steps) - skipped, bad, skipped


def help_of(binary, args):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit("run_docs: %s %s exited %d" % (binary, " ".join(args), p.returncode))
    return p.stdout


def sync_cli_md(path, binary, write):
    """docs/cli.md's "### NAME" sections under "## Every command and option": the first
    fenced block of each is `chunkfill NAME --help` (the command table's help text), one
    section per command of `chunkfill --help` (and fill --biomes, serve --http, and
    "Without a command": `chunkfill --help`). Prose after a block is the document's own.
    Returns the number of sections that differ (write: rewrites them)."""
    main_help = help_of(binary, ["--help"])
    names = [m.group(1) for m in re.finditer(r"^  ([a-z]+) +\S", main_help, re.M)]
    wanted = []  # (heading, help text), in the table's order
    for n in names:
        wanted.append((n, help_of(binary, [n, "--help"])))
        if n == "fill":
            wanted.append(("fill --biomes", help_of(binary, ["fill", "--biomes", "--help"])))
        if n == "serve":
            wanted.append(("serve --http", help_of(binary, ["serve", "--http", "--help"])))
    wanted.append(("Without a command", main_help))
    text = open(path, encoding="utf-8").read()
    start = text.index("## Every command and option\n")
    end = text.find("\n## ", start + 1)
    end = len(text) if end < 0 else end + 1
    part = text[start:end]
    # the sections: heading -> (its text)
    chunks = re.split(r"(?m)^(?=### )", part)
    head, sections = chunks[0], {}
    order = []
    for c in chunks[1:]:
        title = c.split("\n", 1)[0][4:].strip()
        sections[title] = c
        order.append(title)
    bad = 0
    out = [head]
    for title, h in wanted:
        block = "```\n" + h + ("" if h.endswith("\n") else "\n") + "```\n"
        c = sections.get(title)
        if c is None:
            bad += 1
            print("docs: %s: no section '### %s' (the help of chunkfill %s)" % (path, title, title))
            out.append("### %s\n\n%s\n" % (title, block))
            continue
        m = re.search(r"(?s)```\n.*?```\n", c)
        if not m or m.group(0) != block:
            bad += 1
            print("docs: %s: '### %s' is not the help of `chunkfill %s --help`" % (path, title, title))
            c = c[:m.start()] + block + c[m.end():] if m else c.rstrip("\n") + "\n\n" + block + "\n"
        out.append(c)
    for title in order:
        if title not in dict(wanted):
            bad += 1
            print("docs: %s: '### %s' is no command of the table" % (path, title))
    new = text[:start] + "".join(out) + text[end:]
    if write and new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--cli-md", action="store_true", help="only check docs/cli.md's command sections against the help texts")
    ap.add_argument("--write", action="store_true", help="with --cli-md: rewrite the sections that differ")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.cli_md:
        bad = sync_cli_md(os.path.join(a.root, "docs", "cli.md"), a.bin, a.write)
        print("run_docs: docs/cli.md: %d sections differ from the help texts%s" % (bad, " (rewritten)" if a.write and bad else ""))
        return 1 if bad and not a.write else 0
    files = a.files or [os.path.join(a.root, "README.md")] + sorted(glob.glob(os.path.join(a.root, "docs", "*.md")))
    total = failed = skipped = 0
    for f in files:
        n, b, k = run_file(f, a.bin, a.root, a.verbose)
        total, failed, skipped = total + n, failed + b, skipped + k
    print("run_docs: %d command lines, %d differ%s" % (total, failed, ", %d skipped (not counted)" % skipped if skipped else ""))
    return 1 if failed or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
