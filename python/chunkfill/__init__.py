"""chunkfill: exact terrain density fills from Python (NumPy arrays over libchunkfill.so).

    import chunkfill
    w = chunkfill.World([], seed=42)           # [] : the embedded default pack (Minecraft 26.3)
    v = w.fill(0, 0, 1, 1)                     # float32 (4, 384, 16, 16), [chunk][y][z][x]
    h = w.heights((0, 0, 255, 255))            # int32 (256, 256), [z][x]

A thin ctypes layer over include/chunkfill.h: every call goes to the C library, which
releases the GIL while it works (ctypes does for every foreign call), so fills on other
threads run in parallel. Errors raise ChunkfillError carrying the library's one-line
message ("path/in/pack.json#/json/pointer: what was wrong").

The library is found in this order: $CHUNKFILL_LIBRARY; the one installed beside this
module (cmake --install writes its relative place to _config.py); libchunkfill.so.0 on
the loader's path.
"""
import ctypes
import ctypes.util
import json
import os

import numpy as np

__all__ = ["World", "ChunkfillError", "ChunkfillWarning", "library_path"]

_STATUS = ["ok", "io", "json", "schema", "ref", "cycle", "limit", "nomem", "arg", "device"]


class ChunkfillError(Exception):
    """An error of the C library: .status ("io", "json", "schema", ...) and .message (one line)."""

    def __init__(self, status, message):
        self.status = _STATUS[status] if 0 <= status < len(_STATUS) else str(status)
        self.message = message
        super().__init__(message)


class _Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("message", ctypes.c_char * 1024)]


def _find_library():
    env = os.environ.get("CHUNKFILL_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _config  # written by cmake --install
        cand = os.path.normpath(os.path.join(here, _config.LIBRARY))
        if os.path.exists(cand):
            return cand
    except ImportError:
        pass
    return ctypes.util.find_library("chunkfill") or "libchunkfill.so.0"


library_path = _find_library()
try:
    _lib = ctypes.CDLL(library_path)
except OSError as e:  # one line that says what to do, not only the loader's words
    raise ImportError("chunkfill: cannot load the library %s (%s): build it (cmake --build build) and set "
                      "CHUNKFILL_LIBRARY=/path/to/build/libchunkfill.so, or install it (cmake --install build)"
                      % (library_path, e)) from None

_p = ctypes.c_void_p
_err_p = ctypes.POINTER(_Error)
_i32p = ctypes.POINTER(ctypes.c_int32)
_SIG = {
    "cf_pack_open": (ctypes.c_int, [ctypes.POINTER(_p), ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, _p, _err_p]),
    "cf_pack_free": (None, [_p]),
    "cf_pack_set_dialect": (None, [_p, ctypes.c_int]),
    "cf_pack_set_strict": (None, [_p, ctypes.c_int]),
    "cf_pack_set_warnings": (None, [_p, _p, _p]),
    "cf_pack_define": (ctypes.c_int, [_p, ctypes.c_char_p, ctypes.c_double, _err_p]),
    "cf_program_compile": (ctypes.c_int, [ctypes.POINTER(_p), _p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, _err_p]),
    "cf_program_compile_blocks": (ctypes.c_int, [ctypes.POINTER(_p), _p, ctypes.c_char_p, _err_p]),
    "cf_program_free": (None, [_p]),
    "cf_program_precision": (ctypes.c_int, [_p]),
    "cf_program_settings": (None, [_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]),
    "cf_seed_parse": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64), _err_p]),
    "cf_world_new": (ctypes.c_int, [ctypes.POINTER(_p), _p, ctypes.c_int64, _err_p]),
    "cf_world_free": (None, [_p]),
    "cf_sample": (ctypes.c_int, [_p, ctypes.c_int, ctypes.c_size_t, _i32p, ctypes.POINTER(ctypes.c_double), _err_p]),
    "cf_fill_chunks": (ctypes.c_int, [_p, ctypes.c_int, ctypes.c_size_t, _i32p, _p, ctypes.c_int, _err_p]),
    "cf_block_palette": (ctypes.c_int, [_p, ctypes.POINTER(ctypes.c_char_p)]),
    "cf_fill_blocks": (ctypes.c_int, [_p, ctypes.c_size_t, _i32p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_int, _err_p]),
    "cf_program_has_surface": (ctypes.c_int, [_p]),
    "cf_fill_blocks_surface": (ctypes.c_int, [_p, _p, ctypes.c_size_t, _i32p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_int,
                                              _err_p]),
    "cf_biomes_open": (ctypes.c_int, [ctypes.POINTER(_p), _p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.c_int64, _err_p]),
    "cf_biomes_free": (None, [_p]),
    "cf_biomes_palette": (ctypes.c_int, [_p, ctypes.POINTER(ctypes.c_char_p)]),
    "cf_biomes_range": (None, [_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]),
    "cf_fill_biomes": (ctypes.c_int, [_p, ctypes.c_size_t, _i32p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_int, _err_p]),
    "cf_biomes_locate": (ctypes.c_int, [_p, _p, ctypes.c_char_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                                        ctypes.c_int32, ctypes.c_int32, _i32p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                        _err_p]),
    "cf_pack_set_game_version": (ctypes.c_int, [_p, ctypes.c_char_p, _err_p]),
    "cf_map_column_below": (ctypes.c_int, [_p, _p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, _p, _err_p]),
    "cf_map_column_json": (ctypes.c_int, [_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_char_p, ctypes.c_size_t]),
    "cf_surface_heights": (ctypes.c_int, [_p, ctypes.c_int, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                                          ctypes.c_int32, _i32p, ctypes.c_int, _err_p]),
    "cf_pack_game_version": (ctypes.c_char_p, [_p, _p, _p]),
    "cf_structures_open": (ctypes.c_int, [ctypes.POINTER(_p), _p, _p, ctypes.c_int64, ctypes.c_char_p, _err_p]),
    "cf_structures_free": (None, [_p]),
    "cf_structures_terrain": (ctypes.c_int, [_p, _p, _err_p]),
    "cf_structures_find": (ctypes.c_int, [_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                                          ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, _p, _p, _err_p]),
    "cf_structures_locate": (ctypes.c_int, [_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int32, ctypes.c_int32,
                                            ctypes.c_int32, ctypes.c_int, _p, ctypes.POINTER(ctypes.c_int), _err_p]),
    "cf_structure_json": (ctypes.c_int, [_p, ctypes.c_char_p, ctypes.c_size_t]),
    "cf_spawn_find": (ctypes.c_int, [_p, _p, ctypes.c_char_p, _p, _err_p]),
    "cf_spawn_json": (ctypes.c_int, [_p, ctypes.c_char_p, ctypes.c_size_t]),
}
for _name, (_res, _args) in _SIG.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args

_DIALECTS = {None: 0, "auto": 0, "26.3": 1, "1.21": 2}
_PALETTE_MAX = 256  # CF_PALETTE_MAX and CF_BIOME_PALETTE_MAX (include/chunkfill.h)
_MAX_CHUNK = 134000000


class _Start(ctypes.Structure):  # cf_structure_start
    _fields_ = [("structure", ctypes.c_char_p), ("set", ctypes.c_char_p), ("chunk_x", ctypes.c_int32), ("chunk_z", ctypes.c_int32),
                ("x", ctypes.c_int32), ("y", ctypes.c_int32), ("z", ctypes.c_int32), ("has_y", ctypes.c_int),
                ("checked", ctypes.c_char_p), ("unverified", ctypes.c_char_p)]


class _Spawn(ctypes.Structure):  # cf_spawn
    _fields_ = [("climate", ctypes.c_int32 * 2), ("found", ctypes.c_int), ("block", ctypes.c_int32 * 3), ("unknown", ctypes.c_char * 128)]


_EMIT_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Start))


def _start_json(st):
    """a start as its JSON line (cf_structure_json), parsed"""
    n = _lib.cf_structure_json(ctypes.cast(st, _p), None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _lib.cf_structure_json(ctypes.cast(st, _p), buf, n + 1)
    return json.loads(buf.value.decode())


class ChunkfillWarning(UserWarning):
    """what the game accepts and chunkfill reads with a warning (unknown keys, unsorted spline
    locations), one per file: "file#/pointer: ..." """


_WARN_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)


@_WARN_FN
def _on_warning(ctx, line):
    import warnings
    warnings.warn(line.decode("utf-8", "replace"), ChunkfillWarning, stacklevel=3)


def _check(status, err):
    if status != 0:
        raise ChunkfillError(status, err.message.decode("utf-8", "replace"))


def _text(what, v):
    """v (str, bytes or a path) as the C library's NUL-terminated bytes; a NUL inside would
    cut it short there ("minecraft:over\\0world" read as "minecraft:over"): ValueError"""
    b = v if isinstance(v, bytes) else os.fsencode(v) if isinstance(v, (str, os.PathLike)) else str(v).encode()
    if b"\0" in b:
        raise ValueError("%s %r: holds a NUL byte" % (what, v))
    return b


def _integer(what, v):
    """v as an int: ints and NumPy integers only, never a float (1.5, or 1.0) or a bool: TypeError"""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError("%s: expected an integer, got %r (%s)" % (what, v, type(v).__name__))
    return int(v)


def _chunk_list(x0, z0, x1, z1):
    """the chunks of the inclusive range, z outer, x inner (as `chunkfill fill --chunks`)"""
    x0, z0, x1, z1 = (_integer(n, v) for n, v in (("x0", x0), ("z0", z0), ("x1", x1), ("z1", z1)))
    for v in (x0, z0, x1, z1):
        if not -_MAX_CHUNK <= v <= _MAX_CHUNK:
            raise ValueError("chunk coordinate %d out of range [%d, %d]" % (v, -_MAX_CHUNK, _MAX_CHUNK))
    if x1 < x0 or z1 < z0:
        raise ValueError("the second corner must not be below the first")
    zs, xs = np.meshgrid(np.arange(z0, z1 + 1, dtype=np.int32), np.arange(x0, x1 + 1, dtype=np.int32), indexing="ij")
    return np.ascontiguousarray(np.stack([xs.ravel(), zs.ravel()], axis=1))


class World:
    """Packs compiled for one noise settings id and bound to one seed.

    packs: pack paths (folders, .zip, .jar), later ones override earlier ones; [] is the
    embedded default pack. settings: the noise settings id. seed: an int or text (hashed
    like Minecraft). function: what sample/fill/heights compute (a density function id,
    router:FIELD or noise:ID). dialect: None (detected), "26.3" or "1.21". threads: fill
    threads (0: one per CPU). Minecraft data is read as the game reads it: unknown keys and
    unsorted spline locations give a ChunkfillWarning (once per file); strict=True refuses them
    (ChunkfillError). defines: {type: value} reads a mod's own density function type (e.g.
    "tectonic:config") as that constant. version: the game version ("1.21.11", "26.2", ...; None: the
    packs' version.json or pack.mcmeta, else the dialect's), as `--version`.
    """

    def __init__(self, packs=(), settings="minecraft:overworld", seed=0, function="router:final_density", dialect=None,
                 threads=0, strict=False, defines=None, version=None):
        if isinstance(packs, (str, bytes, os.PathLike)):
            packs = [packs]
        self._pack = self._prog = self._world = self._bprog = self._bworld = self._biomes = self._structures = None
        self.settings, self.function, self.threads = settings, function, _integer("threads", threads)
        if not 0 <= self.threads <= 1024:
            raise ValueError("threads: 0 (one per CPU) to 1024, not %d" % self.threads)
        _text("settings", settings), _text("function", function)
        err = _Error()
        paths = [_text("pack path", p) for p in packs]
        arr = (ctypes.c_char_p * max(1, len(paths)))(*paths)
        pk = _p()
        _check(_lib.cf_pack_open(ctypes.byref(pk), arr, len(paths), None, ctypes.byref(err)), err)
        self._pack = pk
        if dialect not in _DIALECTS:
            raise ValueError("dialect takes None, '26.3' or '1.21'")
        _lib.cf_pack_set_dialect(pk, _DIALECTS[dialect])
        _lib.cf_pack_set_strict(pk, 1 if strict else 0)
        _lib.cf_pack_set_warnings(pk, ctypes.cast(_on_warning, _p), None)
        if version is not None:
            _check(_lib.cf_pack_set_game_version(pk, _text("version", version), ctypes.byref(err)), err)
        for t, v in (defines or {}).items():
            _check(_lib.cf_pack_define(pk, _text("define", t), float(v), ctypes.byref(err)), err)
        s = ctypes.c_int64()
        _check(_lib.cf_seed_parse(_text("seed", seed), ctypes.byref(s), ctypes.byref(err)), err)
        self.seed = s.value
        fn = (ctypes.c_char_p * 1)(_text("function", function))
        pg = _p()
        _check(_lib.cf_program_compile(ctypes.byref(pg), pk, _text("settings", settings), fn, 1, ctypes.byref(err)), err)
        self._prog = pg
        w = _p()
        _check(_lib.cf_world_new(ctypes.byref(w), pg, self.seed, ctypes.byref(err)), err)
        self._world = w
        a, b, c = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        _lib.cf_program_settings(pg, ctypes.byref(a), ctypes.byref(b), ctypes.byref(c))
        self.min_y, self.height, self.sea_level = a.value, b.value, c.value
        self.precision = _lib.cf_program_precision(pg)

    def close(self):
        """frees the C objects now (also done when the World is collected)"""
        for attr, free in (("_structures", "cf_structures_free"), ("_biomes", "cf_biomes_free"), ("_bworld", "cf_world_free"), ("_world", "cf_world_free"), ("_bprog", "cf_program_free"),
                           ("_prog", "cf_program_free"), ("_pack", "cf_pack_free")):
            h = getattr(self, attr, None)
            if h:
                getattr(_lib, free)(h)
                setattr(self, attr, None)

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _live(self):
        if not self._world:
            raise ValueError("the World is closed")

    def sample(self, points):
        """the function at integer block positions points (n, 3) [x, y, z]: float64 (n,), the
        dialect's precision widened exactly (the single-point path)"""
        self._live()
        raw = np.asarray(points)
        if raw.size and raw.dtype.kind not in "iu":  # a float position would be cut to an integer
            raise TypeError("points: expected an integer array of block positions, got %s" % raw.dtype)
        pts = np.ascontiguousarray(raw.astype(np.int64).reshape(-1, 3))
        if pts.size and (pts.min() < -2**31 or pts.max() >= 2**31):
            raise ValueError("positions must fit int32")
        pts = pts.astype(np.int32)
        out = np.empty(len(pts), dtype=np.float64)
        err = _Error()
        _check(_lib.cf_sample(self._world, 0, len(pts), pts.ctypes.data_as(_i32p),
                              out.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), ctypes.byref(err)), err)
        return out

    def fill(self, x0, z0, x1=None, z1=None):
        """the chunks x0..x1, z0..z1 (inclusive; z outer, x inner) as vanilla's chunk fill:
        (n, height, 16, 16) float32 (26.3) or float64 (1.21, libnoise), [chunk][y][z][x]"""
        self._live()
        x1, z1 = x0 if x1 is None else x1, z0 if z1 is None else z1
        lst = _chunk_list(x0, z0, x1, z1)
        out = np.empty((len(lst), self.height, 16, 16), dtype=np.float64 if self.precision == 64 else np.float32)
        err = _Error()
        _check(_lib.cf_fill_chunks(self._world, 0, len(lst), lst.ctypes.data_as(_i32p), out.ctypes.data_as(_p),
                                   self.threads, ctypes.byref(err)), err)
        return out

    def _biome_source(self):
        if not self._biomes:
            b, err = _p(), _Error()
            _check(_lib.cf_biomes_open(ctypes.byref(b), self._pack, None, _text("settings", self.settings), None, self.seed,
                                       ctypes.byref(err)), err)
            self._biomes = b
        return self._biomes

    def _blocks_world(self):
        if not self._bworld:
            pg, w, err = _p(), _p(), _Error()
            _check(_lib.cf_program_compile_blocks(ctypes.byref(pg), self._pack, _text("settings", self.settings), ctypes.byref(err)), err)
            self._bprog = pg
            _check(_lib.cf_world_new(ctypes.byref(w), pg, self.seed, ctypes.byref(err)), err)
            self._bworld = w
        return self._bworld

    def at(self, x, z, below=None):
        """what the map shows at block column (x, z), as `chunkfill at --json` and /at: a dict
        {"x", "z", "height", "block", "biome", "fluid"} (names None where there is none)"""
        self._live()
        x, z = _integer("x", x), _integer("z", z)
        below = None if below is None else _integer("below", below)
        if below is not None and not -2**31 <= below < 2**31:
            raise ValueError("below must fit int32")
        if not (-_MAX_CHUNK * 16 <= x <= _MAX_CHUNK * 16 + 15 and -_MAX_CHUNK * 16 <= z <= _MAX_CHUNK * 16 + 15):
            raise ValueError("x and z must lie within the world")
        info = (ctypes.c_byte * 64)()  # cf_map_column_info (5 fields, at most 40 bytes)
        err = _Error()
        _check(_lib.cf_map_column_below(self._blocks_world(), self._biome_source(), x, z,
                                        2**31 - 1 if below is None else below, ctypes.cast(info, _p),
                                        ctypes.byref(err)), err)
        buf = ctypes.create_string_buffer(1024)
        _lib.cf_map_column_json(ctypes.cast(info, _p), x, z, buf, len(buf))
        return json.loads(buf.value.decode())

    def height_at(self, x, z, below=None):
        """the surface height at block column (x, z) (as at() and `chunkfill at`)"""
        return self.at(x, z, below)["height"]

    def biome_at(self, x, z, below=None):
        """the biome at the surface of block column (x, z) (as at() and `chunkfill at`)"""
        return self.at(x, z, below)["biome"]

    def locate_biome(self, biome, x, z, y=0, radius=6400):
        """the game's /locate biome from block (x, y, z), as `chunkfill locate biome`: biome is an id
        or "#tag"; a dict {"biome", "x", "y", "z", "distance"}, or None where there is none within
        radius blocks; a biome the source never gives (a typo, another dimension's) raises ValueError,
        as the CLI refuses it"""
        self._live()
        x, y, z, radius = _integer("x", x), _integer("y", y), _integer("z", z), _integer("radius", radius)
        if not all(-2**31 <= v < 2**31 for v in (x, y, z)) or not 0 <= radius <= 30000000:
            raise ValueError("x, y, z must fit int32 and radius lie in 0..30000000")
        pos, bi, found, err = (ctypes.c_int32 * 3)(), ctypes.c_int(), ctypes.c_int(), _Error()
        _check(_lib.cf_biomes_locate(self._biome_source(), self._pack, _text("biome", biome), x, y, z, radius, 32, 64,
                                     pos, ctypes.byref(bi), ctypes.byref(found), ctypes.byref(err)), err)
        if found.value == -1:
            raise ValueError("the biome source of %s gives no biome %s" % (self.settings, biome))
        if found.value != 1:
            return None
        names = (ctypes.c_char_p * _PALETTE_MAX)()
        _lib.cf_biomes_palette(self._biome_source(), names)
        d2 = np.float32(float(pos[0] - x) ** 2 + float(pos[1] - y) ** 2 + float(pos[2] - z) ** 2)
        return {"biome": names[bi.value].decode(), "x": pos[0], "y": pos[1], "z": pos[2],
                "distance": int(np.floor(np.float32(np.sqrt(np.float64(d2)))))}

    def _version(self):
        v = _lib.cf_pack_game_version(self._pack, None, None)
        return v  # bytes or None, as `chunkfill structures` passes it

    def _structure_handle(self):
        """the structure sets of the packs for the settings' biome source, with the terrain checks
        where the settings compile with blocks (as `chunkfill structures`; else those starts stay
        unverified, with a ChunkfillWarning)"""
        if not self._structures:
            s, err = _p(), _Error()
            _check(_lib.cf_structures_open(ctypes.byref(s), self._pack, self._biome_source(), self.seed, self._version(),
                                           ctypes.byref(err)), err)
            self._structures = s
            try:
                _check(_lib.cf_structures_terrain(s, self._blocks_world(), ctypes.byref(err)), err)
            except ChunkfillError as e:
                import warnings
                warnings.warn("structures: no terrain checks (%s)" % e.message, ChunkfillWarning, stacklevel=3)
        return self._structures

    @staticmethod
    def _only(structure):
        if structure is None:
            return None, 0
        lst = [structure] if isinstance(structure, (str, bytes)) else list(structure)
        return (ctypes.c_char_p * max(1, len(lst)))(*[_text("structure", v) for v in lst]), len(lst)

    def structures(self, area, structure=None):
        """the structure starts whose chunk lies in the block area (x0, z0, x1, z1) (inclusive), as
        `chunkfill structures` lists them: a list of dicts {"structure", "set", "chunk", "x", "y",
        "z", "checked"[, "unverified"]}. structure: an id or "#tag", or a list of them (None: all)"""
        self._live()
        x0, z0, x1, z1 = (_integer(n, v) for n, v in zip(("x0", "z0", "x1", "z1"), area))
        if not all(-2**31 <= v < 2**31 for v in (x0, z0, x1, z1)):
            raise ValueError("area: the corners must fit int32")
        only, n = self._only(structure)
        found = []

        @_EMIT_FN
        def emit(ctx, st):
            found.append(_start_json(st))
            return 0

        err = _Error()
        _check(_lib.cf_structures_find(self._structure_handle(), x0, z0, x1, z1, only, n, ctypes.cast(emit, _p), None,
                                       ctypes.byref(err)), err)
        return found

    def locate_structure(self, structure, x, z, y=0, radius=100):
        """the game's /locate structure from block (x, y, z), as `chunkfill locate structure`: a dict
        {"structure", "set", "chunk", "x", "z", "distance", "checked"[, "unverified"]}, or None where
        there is none within radius regions"""
        self._live()
        x, y, z, radius = int(x), int(y), int(z), int(radius)
        if not all(-2**31 <= v < 2**31 for v in (x, y, z)) or not 0 <= radius <= 1000:
            raise ValueError("x, y, z must fit int32 and radius lie in 0..1000")
        only, n = self._only(structure)
        st, found, err = _Start(), ctypes.c_int(), _Error()
        _check(_lib.cf_structures_locate(self._structure_handle(), only, n, x, y, z, radius, ctypes.byref(st), ctypes.byref(found),
                                         ctypes.byref(err)), err)
        if not found.value:
            return None
        d = {"structure": st.structure.decode(), "set": st.set.decode(), "chunk": [st.chunk_x, st.chunk_z], "x": st.x, "z": st.z,
             "distance": int(np.floor(np.sqrt(float(st.x - x) ** 2 + float(st.z - z) ** 2))), "checked": st.checked.decode()}
        if st.unverified:
            d["unverified"] = st.unverified.decode()
        return d

    def spawn(self):
        """the world spawn, as `chunkfill spawn`: {"climate": [x, z], "spawn": [x, y, z] or None,
        "unverified": why}"""
        self._live()
        try:
            w = self._blocks_world()
        except ChunkfillError:
            w = None
        sp, err = _Spawn(), _Error()
        _check(_lib.cf_spawn_find(w, self._biome_source(), self._version(), ctypes.byref(sp), ctypes.byref(err)), err)
        buf = ctypes.create_string_buffer(2048)
        _lib.cf_spawn_json(ctypes.byref(sp), buf, len(buf))
        return json.loads(buf.value.decode())

    def blocks(self, x0, z0, x1=None, z1=None, stage=None):
        """the blocks of the chunks: (indices uint8 (n, height, 16, 16), palette: the block ids
        the indices name). stage: "noise" (final density, aquifer, 1.21's ore veins),
        "surface" (then the settings' surface or material rules, with biomes), or None: surface
        where the settings have rules, as `chunkfill fill --blocks`"""
        self._live()
        err = _Error()
        self._blocks_world()
        if stage not in (None, "noise", "surface"):
            raise ValueError("stage takes None, 'noise' or 'surface'")
        has = _lib.cf_program_has_surface(self._bprog) != 0
        if stage == "surface" and not has:
            raise ChunkfillError(8, "%s: no surface stage (noise settings with a surface_rule or material_rule)" % self.settings)
        surface = has if stage is None else stage == "surface"
        x1, z1 = x0 if x1 is None else x1, z0 if z1 is None else z1
        lst = _chunk_list(x0, z0, x1, z1)
        out = np.empty((len(lst), self.height, 16, 16), dtype=np.uint8)
        u8 = out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))
        if surface:
            _check(_lib.cf_fill_blocks_surface(self._bworld, self._biome_source(), len(lst), lst.ctypes.data_as(_i32p), u8,
                                               self.threads, ctypes.byref(err)), err)
        else:
            _check(_lib.cf_fill_blocks(self._bworld, len(lst), lst.ctypes.data_as(_i32p), u8, self.threads,
                                       ctypes.byref(err)), err)
        names = (ctypes.c_char_p * _PALETTE_MAX)()
        k = _lib.cf_block_palette(self._bprog, names)
        return out, [names[i].decode() for i in range(k)]

    def biomes(self, x0, z0, x1=None, z1=None):
        """the stored biomes of the chunks, as a chunk fill makes them (`chunkfill fill --biomes`):
        (indices uint8 (n, height/4, 4, 4), [chunk][qy][qz][qx], qy from min_y/4 up; palette:
        the biome ids the indices name). The settings' vanilla biome source (the nether preset
        for minecraft:nether, the End for minecraft:end, else the overworld preset)."""
        self._live()
        b = self._biome_source()
        err = _Error()
        lo, h = ctypes.c_int(), ctypes.c_int()
        _lib.cf_biomes_range(b, ctypes.byref(lo), ctypes.byref(h))
        x1, z1 = x0 if x1 is None else x1, z0 if z1 is None else z1
        lst = _chunk_list(x0, z0, x1, z1)
        out = np.empty((len(lst), h.value // 4, 4, 4), dtype=np.uint8)
        _check(_lib.cf_fill_biomes(b, len(lst), lst.ctypes.data_as(_i32p), out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
                                   self.threads, ctypes.byref(err)), err)
        names = (ctypes.c_char_p * _PALETTE_MAX)()
        k = _lib.cf_biomes_palette(b, names)
        return out, [names[i].decode() for i in range(k)]

    def heights(self, area, below=None):
        """the exact surface heights of the block area (x0, z0, x1, z1) (inclusive): int32
        (z1-z0+1, x1-x0+1), [z][x], the highest y (<= below) whose value is > 0, min_y - 1
        where there is none (as `chunkfill render --heights`)"""
        self._live()
        x0, z0, x1, z1 = (_integer(n, v) for n, v in zip(("x0", "z0", "x1", "z1"), area))
        if x1 < x0 or z1 < z0:
            raise ValueError("area: the second corner must not be below the first")
        nx, nz = x1 - x0 + 1, z1 - z0 + 1
        out = np.empty((nz, nx), dtype=np.int32)
        err = _Error()
        _check(_lib.cf_surface_heights(self._world, 0, x0, z0, nx, nz, 2**31 - 1 if below is None else _integer("below", below),
                                       out.ctypes.data_as(_i32p), self.threads, ctypes.byref(err)), err)
        return out
