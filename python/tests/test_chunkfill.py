"""The Python module against the CLI: the arrays equal the CLI's .npy files byte for byte.

Run by ctest (test 'python'): CHUNKFILL_LIBRARY names the build's libchunkfill.so,
CHUNKFILL_CLI its chunkfill binary, PYTHONPATH holds python/.
"""
import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import chunkfill

CLI = os.environ.get("CHUNKFILL_CLI", "chunkfill")
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli(*args):
    subprocess.run([CLI, *args], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def npy_bytes(arr, tmp_path, name):
    p = tmp_path / name
    np.save(p, arr)
    return p.read_bytes()


def test_fill_equals_cli_npy(tmp_path):
    w = chunkfill.World([], seed=42)
    got = w.fill(-1, 0, 1, 1)
    assert got.shape == (6, 384, 16, 16) and got.dtype == np.float32
    cli("fill", "--seed", "42", "--chunks", "-1,0:1,1", "--out", str(tmp_path / "cli.npy"))
    assert npy_bytes(got, tmp_path, "py.npy") == (tmp_path / "cli.npy").read_bytes()


def shared_need(rel):
    """The path of ../shared/REL (CF_SHARED overrides the folder); where it is missing the test is
    skipped (a clone alone), and fails under CI=true (CI has it), as tests/testutil.h shared_have."""
    path = os.path.join(os.environ.get("CF_SHARED", os.path.join(SRC, "..", "shared")), rel)
    if not os.path.exists(path):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing (CI=true: the shared data must be beside the clone)")
        pytest.skip(f"no {path} (../shared beside the clone, or CF_SHARED; CI has it)")
    return path


def test_fill_mc121_float64_equals_cli_npy(tmp_path):
    pack = shared_need("vanilla/1.21.11")
    w = chunkfill.World([pack], seed="a seed")
    got = w.fill(3, -2)
    assert got.dtype == np.float64
    cli("fill", "--pack", pack, "--seed", "a seed", "--chunks", "3,-2", "--out", str(tmp_path / "cli.npy"))
    assert npy_bytes(got, tmp_path, "py.npy") == (tmp_path / "cli.npy").read_bytes()


def test_blocks_equal_cli_npy(tmp_path):
    w = chunkfill.World([], seed=7)
    idx, palette = w.blocks(0, 0, 1, 0)
    cli("fill", "--seed", "7", "--chunks", "0,0:1,0", "--blocks", "--out", str(tmp_path / "cli.npy"))
    assert npy_bytes(idx, tmp_path, "py.npy") == (tmp_path / "cli.npy").read_bytes()
    assert palette == json.loads((tmp_path / "cli.palette.json").read_text())


def test_heights_equal_cli_npy(tmp_path):
    w = chunkfill.World([], seed=42)
    h = w.heights((-20, 5, 40, 37))
    assert h.shape == (33, 61) and h.dtype == np.int32
    cli("render", "--seed", "42", "--area", "-20,5:40,37", "--out", str(tmp_path / "m.png"),
        "--heights", str(tmp_path / "cli.npy"))
    assert npy_bytes(h, tmp_path, "py.npy") == (tmp_path / "cli.npy").read_bytes()


def test_sample_equals_cli():
    w = chunkfill.World([], seed=42)
    pts = [(0, 64, 0), (100, 30, -7), (-5000, -60, 123)]
    got = w.sample(pts)
    out = subprocess.run([CLI, "sample", "--seed", "42", "--function", "router:final_density"]
                         + sum((["--at", "%d,%d,%d" % p] for p in pts), []),
                         check=True, stdout=subprocess.PIPE, text=True).stdout.split("\n")
    want = [np.float32(line.split()[3]) for line in out if line]
    assert [np.float32(v) for v in got] == want
    assert all(float(np.float32(v)) == v for v in got)  # float32 values, widened exactly


def test_sample_matches_fill():
    w = chunkfill.World([], seed=3)
    v = w.fill(0, 0)
    # the single-point path differs from the chunk fill only inside interpolation cells:
    # a cell corner (x, z multiples of 4, y a multiple of 8) is exact in both
    pts = [(4, 8 * k, 12) for k in range(-8, 30)]
    s = w.sample(pts)
    want = [v[0, y - w.min_y, 12, 4] for (_, y, _) in pts]
    assert [np.float32(x) for x in s] == want


def test_bad_pack_raises_with_the_message(tmp_path):
    with pytest.raises(chunkfill.ChunkfillError) as e:
        chunkfill.World([str(tmp_path / "missing")])
    assert e.value.status == "io"
    assert str(e.value).startswith(str(tmp_path / "missing") + ": cannot open pack")
    bad = tmp_path / "bad"
    f = bad / "data" / "minecraft" / "worldgen" / "noise_settings" / "overworld.json"
    f.parent.mkdir(parents=True)
    f.write_text('{"sea_level": 63, "noise": [}')
    with pytest.raises(chunkfill.ChunkfillError) as e:
        chunkfill.World([str(bad)])
    msg = str(e.value)
    assert msg.startswith(str(f) + "#") and "\n" not in msg, msg


def test_threads_run_in_parallel():
    # ctypes releases the GIL during calls: two fills on two threads give the same arrays
    w = chunkfill.World([], seed=42, threads=1)
    res = [None, None]

    def run(i):
        res[i] = w.fill(i, 0)

    ts = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert np.array_equal(res[0], w.fill(0, 0)) and np.array_equal(res[1], w.fill(1, 0))


def test_bad_arguments():
    w = chunkfill.World([], seed=1)
    with pytest.raises(ValueError):
        w.fill(1, 0, 0, 0)
    with pytest.raises(ValueError):
        w.heights((0, 0, -1, 0))
    w.close()
    with pytest.raises(ValueError):
        w.fill(0, 0)


def test_nul_in_text_and_float_coordinates_are_refused():
    # a NUL cut the text short in C ("minecraft:over\0world" became "minecraft:over"), and float
    # chunk coordinates were truncated (1.5 -> chunk 1): each is one clear error now
    for kw in ({"settings": "minecraft:over\0world"}, {"function": "router:final_density\0x"}, {"seed": "12\0ab"},
               {"packs": ["packs/x\0y"]}, {"defines": {"a:b\0c": 1}}):
        with pytest.raises(ValueError, match="holds a NUL byte"):
            chunkfill.World(**kw)
    w = chunkfill.World([], seed=1)
    for call in (lambda: w.fill(0.5, 0), lambda: w.fill(0, 0, 1.0, 0), lambda: w.biomes(0, 1.5), lambda: w.blocks(True, 0),
                 lambda: w.heights((0, 0, 2.5, 0)), lambda: w.heights((0, 0, 1, 1), below=60.5),
                 lambda: w.sample([[0.5, 0, 0]])):
        with pytest.raises(TypeError, match="expected an integer"):
            call()
    assert np.array_equal(w.fill(np.int64(0), np.int32(0)), w.fill(0, 0))  # NumPy integers stay fine
    w.close()


def test_lenient_warns_strict_raises_defines(tmp_path):
    pack = os.path.join(SRC, "tests", "packs", "lenient121")
    with pytest.warns(chunkfill.ChunkfillWarning, match=r"s\.json#/noise/sampling: unknown key \"sampling\" ignored"):
        w = chunkfill.World([pack], settings="t:s", function="t:unsorted", seed=1)
    w.close()
    with pytest.raises(chunkfill.ChunkfillError, match=r"unknown key \"sampling\""):
        chunkfill.World([pack], settings="t:s", function="t:unsorted", seed=1, strict=True)
    wg = tmp_path / "data" / "t" / "worldgen"
    (wg / "noise_settings").mkdir(parents=True)
    (wg / "density_function").mkdir()
    (wg / "noise_settings" / "s.json").write_text(
        '{"noise": {"min_y": 0, "height": 16, "size_horizontal": 1, "size_vertical": 1}, "noise_router": {}}')
    (wg / "density_function" / "f.json").write_text(
        '// the mod type\n{"type": "minecraft:mul", "argument1": {"type": "tectonic:config"}, "argument2": 2}')
    with pytest.raises(chunkfill.ChunkfillError, match="give it a constant with --define tectonic:config=VALUE"):
        chunkfill.World([str(tmp_path)], settings="t:s", function="t:f")
    with chunkfill.World([str(tmp_path)], settings="t:s", function="t:f", defines={"tectonic:config": 0.25}) as w:
        assert w.sample([[0, 0, 0]])[0] == 0.5


def test_biomes_equal_cli_npy(tmp_path):
    pack = shared_need("vanilla/26.3")
    for settings in ("minecraft:overworld", "minecraft:nether"):
        w = chunkfill.World([pack], settings=settings, seed=11)
        idx, palette = w.biomes(-1, 2, 0, 2)
        assert idx.dtype == np.uint8 and idx.shape == (2, w.height // 4, 4, 4)
        cli("fill", "--biomes", "--pack", pack, "--settings", settings, "--seed", "11", "--chunks", "-1,2:0,2",
            "--out", str(tmp_path / "cli.npy"))
        assert npy_bytes(idx, tmp_path, "py.npy") == (tmp_path / "cli.npy").read_bytes()
        assert palette == json.loads((tmp_path / "cli.palette.json").read_text())
        assert len(set(idx.ravel())) >= 1 and all(palette[i] for i in set(idx.ravel()))


def test_surface_blocks_equal_cli_npy(tmp_path):
    pack = shared_need("vanilla/26.2")
    w = chunkfill.World([pack], seed=3)
    idx, palette = w.blocks(0, 0, stage="surface")
    cli("fill", "--blocks", "--stage", "surface", "--pack", pack, "--seed", "3", "--chunks", "0,0",
        "--out", str(tmp_path / "cli.npy"))
    assert npy_bytes(idx, tmp_path, "py.npy") == (tmp_path / "cli.npy").read_bytes()
    assert palette == json.loads((tmp_path / "cli.palette.json").read_text())
    used = {palette[i] for i in set(idx.ravel())}
    assert "minecraft:bedrock" in used and len(palette) > 11  # the rules' blocks beyond the noise stage's
    noise, _ = w.blocks(0, 0, stage="noise")
    assert (noise != idx).any()
    with pytest.raises(ValueError):
        w.blocks(0, 0, stage="carvers")


def test_at_equals_cli_at():
    """World.at / height_at / biome_at answer what `chunkfill at --json` prints (the /at line)"""
    with chunkfill.World(seed=42) as w:
        for x, z in ((100, -40), (-300, -200), (0, 0)):
            out = subprocess.run([CLI, "at", "%d,%d" % (x, z), "--seed", "42", "--json"], check=True, stdout=subprocess.PIPE,
                                 text=True).stdout
            want = json.loads(out)
            assert w.at(x, z) == want
            assert w.height_at(x, z) == want["height"] and w.biome_at(x, z) == want["biome"]
    with pytest.raises(chunkfill.ChunkfillError):
        chunkfill.World(seed=1, version="1.22")


def test_a_missing_library_is_one_line_saying_what_to_do():
    """without the library: ImportError naming CHUNKFILL_LIBRARY (it was the loader's raw OSError)"""
    env = dict(os.environ, CHUNKFILL_LIBRARY="/nonexistent/libchunkfill.so")
    r = subprocess.run([sys.executable, "-c", "import chunkfill"], env=env, stderr=subprocess.PIPE, text=True)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: chunkfill: cannot load the library /nonexistent/libchunkfill.so") and \
        "CHUNKFILL_LIBRARY=" in last, r.stderr


def test_coordinates_and_threads_are_checked_as_the_cli_does():
    """at() and locate_biome() take integers only, as fill() does (a float was truncated: at(1.5, 0)
    answered column 1); threads below 0 are refused as --threads -1 is"""
    with chunkfill.World(seed=3) as w:
        for bad in ((1.5, 0), (0, 2.0), (True, 0)):
            with pytest.raises(TypeError):
                w.at(*bad)
        with pytest.raises(TypeError):
            w.at(0, 0, below=60.5)
        with pytest.raises(TypeError):
            w.locate_biome("minecraft:desert", 0.5, 0)
    with pytest.raises(ValueError, match="threads"):
        chunkfill.World(seed=3, threads=-1)


def test_locate_biome_equals_cli():
    """World.locate_biome answers what `chunkfill locate biome` prints; none within the radius: None"""
    with chunkfill.World(seed=7) as w:
        for biome, (x, y, z) in (("minecraft:lush_caves", (0, -20, 0)), ("minecraft:desert", (50, 70, -30))):
            out = subprocess.run([CLI, "locate", "biome", biome, "--seed", "7", "--from", "%d,%d,%d" % (x, y, z)], check=True,
                                 stdout=subprocess.PIPE, text=True).stdout
            assert w.locate_biome(biome, x, z, y=y) == json.loads(out)
        with pytest.raises(ValueError, match="gives no biome minecraft:nether_wastes"):  # as the CLI: one line, not None
            w.locate_biome("minecraft:nether_wastes", 0, 0)
        assert w.locate_biome("minecraft:desert", 50, -30, y=70, radius=0) is None or \
            w.locate_biome("minecraft:desert", 50, -30, y=70, radius=0)["x"] == 50


def test_structures_locate_spawn_equal_cli():
    """World.structures, locate_structure and spawn answer what `chunkfill structures`, `locate
    structure` and `spawn` print (the test pack's vanilla-parameter sets, with terrain checks)"""
    packs = [os.path.join(SRC, "packs", "default"), os.path.join(SRC, "tests", "packs", "structures")]
    pk = sum((["--pack", p] for p in packs), [])
    area = (1024, -1536, 2047, -1024)  # two swamp huts (terrain checks), villages, outposts, ...
    with chunkfill.World(packs, seed=0) as w:
        out = subprocess.run([CLI, "structures", *pk, "--seed", "0", "--area", "%d,%d:%d,%d" % area], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        want = [json.loads(line) for line in out.splitlines()]
        assert w.structures(area) == want and any(s["checked"] == "biome" and s["y"] is not None for s in want)
        only = w.structures(area, structure="minecraft:swamp_hut")
        assert only == [s for s in want if s["structure"] == "minecraft:swamp_hut"] and len(only) == 2
        assert w.structures(area, structure=["minecraft:igloo", "minecraft:swamp_hut"]) == \
            [s for s in want if s["structure"] in ("minecraft:igloo", "minecraft:swamp_hut")]
        for what, (x, z) in (("minecraft:swamp_hut", (1300, -1300)), ("minecraft:stronghold", (0, 0))):
            out = subprocess.run([CLI, "locate", "structure", what, *pk, "--seed", "0", "--from", "%d,%d" % (x, z)], check=True,
                                 stdout=subprocess.PIPE, text=True).stdout
            assert w.locate_structure(what, x, z) == json.loads(out)
        assert w.locate_structure("minecraft:swamp_hut", 1300, -1300, radius=0) is None or \
            w.locate_structure("minecraft:swamp_hut", 1300, -1300, radius=0)["structure"] == "minecraft:swamp_hut"
        with pytest.raises(chunkfill.ChunkfillError):
            w.structures(area, structure="#chunkfill_test:nope")
        out = subprocess.run([CLI, "spawn", *pk, "--seed", "0"], check=True, stdout=subprocess.PIPE, text=True).stdout
        assert w.spawn() == json.loads(out) and w.spawn()["spawn"] is None  # the default pack has no surface rules
    vanilla = shared_need("vanilla/26.3")
    with chunkfill.World([vanilla], seed=80) as w:
        out = subprocess.run([CLI, "spawn", "--pack", vanilla, "--seed", "80"], check=True, stdout=subprocess.PIPE, text=True).stdout
        assert w.spawn() == json.loads(out) and w.spawn()["spawn"] == [4, 64, 0]
