/* cf.h - internal declarations shared by the files of host/.
 *
 * Pipeline (one file per stage):
 *   pack.c    packs on disk / embedded -> file text by (kind, id)
 *   json.c    file text -> cJSON tree, with located errors and value checks
 *   parse.c   Minecraft 26.3 JSON -> graph IR (references inlined while parsing)
 *   passes.c  fold constants, merge equal subgraphs, axes, value ranges, compaction
 *   seed.c    random sources + per-seed tables (permutations, offsets, amplitudes)
 *   eval.c    CPU reference, single-point path
 *   api.c     the public API (include/chunkfill.h) tying the stages together
 * Memory: a program owns one arena (graph, tables); compile-time scratch
 * (JSON trees, file cache) lives in the compile context and dies with it.
 */
#ifndef CF_H
#define CF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "chunkfill.h"

/* ------------------------------------------------------------------ arena */
typedef struct cf_arena {
    struct arena_block *head;
} cf_arena;

void *arena_alloc(cf_arena *a, size_t n);                     /* zeroed; NULL on OOM */
char *arena_strdup(cf_arena *a, const char *s);
char *arena_printf(cf_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(cf_arena *a);

/* ------------------------------------------------------------------ errors */
/* Records the first error only; returns the status it recorded (or the one
 * already there). e may be NULL. */
cf_status err_set(cf_error *e, cf_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int err_failed(const cf_error *e);

/* ------------------------------------------------------------------ node kinds */
enum {
#define NODE(K, name, flags, fields, summary) NK_##K,
#include "nodes.def"
#undef NODE
    NK_COUNT
};

enum {
    NF_LITERAL = 1u, /* a JSON constant or a constant marker (blend_alpha, ...) */
    NF_SEEDED = 2u,  /* reads the seed's tables */
    NF_MARKER = 4u,  /* value-transparent wrapper (cache, interpolated, blend_density) */
    NF_F64 = 8u      /* a double-dialect kind (NODE64 rows): double values at double positions */
};

extern const char *const node_name[NK_COUNT];
extern const unsigned node_flags[NK_COUNT];

enum { AX_X = 1, AX_Y = 2, AX_Z = 4 };
enum { TILE_CLAMP, TILE_REPEAT, TILE_MIRROR };
enum { MET_EUCLID, MET_EUCLID_SQ, MET_MANHATTAN, MET_CHEBYSHEV };
enum { PREC_F32 = 32, PREC_F64 = 64 };

/* A JSON pointer as a chain of steps (shared by all the pointers below it, so a
 * deep graph costs a step per node, not a string per node). NULL is the root. */
typedef struct cf_ptr {
    const struct cf_ptr *parent;
    const char *key; /* an object key, or NULL for an array index */
    int index;
} cf_ptr;

typedef struct cf_loc {
    const char *file;   /* display path of the JSON file */
    const cf_ptr *ptr;  /* JSON pointer inside it (NULL for the root) */
} cf_loc;

/* Renders ptr as RFC 6901 text ("" for the root) into buf (size n >= 64); a
 * pointer longer than the buffer keeps its start and end around "/...". Returns buf. */
const char *ptr_text(const cf_ptr *ptr, char *buf, size_t n);
/* util.c: what every JSON front-end reports errors with (one line, FILE#POINTER: message) */
int loc_vfail(cf_error *err, cf_loc at, cf_status st, const char *fmt, va_list ap); /* returns -1 */
cf_loc loc_key(cf_arena *a, cf_loc at, const char *key); /* at plus one key (arena-allocated) */
cf_loc loc_index(cf_arena *a, cf_loc at, int i);         /* at plus one array index */
struct cJSON;
const char *json_type(const struct cJSON *v);             /* "a number", "an object", ... */
int loc_fail(cf_error *err, cf_loc at, cf_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* util.c: the text of a reference cycle, "A -> B -> ... -> id", from the first id in chain */
const char *cycle_text(char *buf, size_t n, const char *const *chain, int nchain, const char *id);

/* One IR node. Children come before parents in program order. */
typedef struct cf_node {
    int kind;
    unsigned flags;
    int prec;           /* PREC_F32 for 26.3 */
    int nin;
    int *in;            /* children, node indices */
    double d[5];        /* double parameters (noise scales, blended noise) */
    float f[4];         /* float parameters (constant, bounds, gradient values) */
    int i[6];           /* int parameters (axis, tiling, coordinates, cell sizes) */
    int nfa;
    float *fa;          /* float arrays: interval thresholds; spline loc,der pairs */
    int nda;
    double *da;         /* double arrays (f64 kinds): curve and terrace points, rotation matrix */
    int noise;          /* index into program noises, or -1 */
    unsigned axes;      /* AX_* the value depends on */
    int depth;          /* longest path to a leaf, counting this node (bounded by limits.max_depth) */
    double lo, hi;      /* value range (conservative) */
    cf_loc loc;
} cf_node;

/* A noise definition (data/<ns>/worldgen/noise/<path>.json). */
typedef struct cf_noisedef {
    const char *id;      /* "minecraft:offset" */
    double base_amplitude;
    int base_octave, octave_count;
    int normalize;       /* 0 disabled, 1 enabled, 2 legacy */
    int nmods;
    double *mods;        /* amplitude_modifiers (nmods may be 0: all 1) */
    cf_loc loc;
} cf_noisedef;

/* The value type of a program, from its front-end (one per program):
 *   DIALECT_MC263     float values at int32 block positions (Minecraft 26.3);
 *   DIALECT_LIBNOISE  double values at double positions (libnoise, Debian's build);
 *   DIALECT_SHARPNOISE  the same, SharpNoise's variant (host/libnoise.md);
 *   DIALECT_MC121     double values at block positions (Minecraft 1.18-1.21, host/mc121.c).
 *   DIALECT_IRIS_*  Iris's NoiseStyles, master or unification branch (host/iris.c).
 * A double dialect's nodes are NF_F64 kinds, evaluated by eval64.c, filled by
 * fill.c's f64 path and emitted by emit.c's f64 generator. */
enum {
    DIALECT_MC263 = 0, DIALECT_LIBNOISE = 1, DIALECT_SHARPNOISE = 2, DIALECT_HYTALE = 3, DIALECT_MC121 = 4,
    DIALECT_IRIS_MASTER = 5, DIALECT_IRIS_UNIFICATION = 6
};

struct cf_program {
    cf_arena arena;
    int dialect;             /* DIALECT_* */
    int prec;                /* PREC_F32 or PREC_F64: the values of outputs and fills */
    int nnodes, cap;
    cf_node *nodes;
    int nnoises;
    cf_noisedef *noises;
    int noutputs;
    int *outputs;
    const char **output_names;
    int min_y, height, sea_level, legacy_random;
    int cell_xz, cell_y;     /* DIALECT_MC121: cell size in blocks (size_horizontal*4, size_vertical*4) */
    const char *settings_id;
    const char *default_block, *default_fluid; /* block ids of the settings */
    int has_aquifers;        /* the settings have an "aquifers" object */
    int aq_out[6];           /* output index of each aquifer function (cf_aquifer_fields), or -1 */
    int blocks;              /* compiled for block fills (cf_program_compile_blocks): output 0 is final_density */
    size_t parsed_nodes;     /* before the passes */
    size_t max_fill_bytes;   /* from the pack's limits */
    char *describe;
    /* the fill plan (fill.c) */
    uint8_t *memo;           /* per node: MEMO_* */
    int *colslot, ncol;      /* per node: column-memo slot or -1 */
    int *islot, ninterp;     /* per node: interpolated slot or -1 */
    uint8_t *stage;          /* per node: STAGE_* */
    int *vlist, nvlist;      /* block-stage nodes evaluated as whole buffers, children first */
    uint8_t *vop;            /* per node: 1 = computed from child buffers, 0 = per element */
    char *plan;              /* `chunkfill plan` text */
    double *hy_maps;         /* DIALECT_HYTALE: the external maps' samples, appended to the seed table */
    size_t hy_nmaps;         /* their count (doubles) */
};

/* util.c: append node n to p (its depth computed; the depth and the node count checked
 * against lim unless NULL: "the WHAT is nested deeper than N"); its id, or -1 with err set */
int ir_node_add(struct cf_program *p, const cf_limits *lim, const cf_node *n, const char *what, cf_error *err);
/* util.c: count inputs for n on p's arena, each -1; 0, or -1 with err set (memory) */
int ir_set_inputs(struct cf_program *p, cf_node *n, int count, cf_error *err);

/* resolution stages of a chunk fill */
enum { STAGE_CONST = 0, STAGE_COLUMN, STAGE_CORNER, STAGE_BLOCK, STAGE_PROBE };
cf_status plan_build(cf_program *p, cf_error *err);

/* ------------------------------------------------------------------ fixed limits */
#define CF_MAX_JSON_VALUES 4000000   /* per file: bounds the JSON tree's memory (~64 bytes a value) */
#define CF_MAX_SURFACE_BOUND 65536   /* |find_top_surface.upper_bound|: bounds the probes per column */

/* ------------------------------------------------------------------ packs */
/* a caller's 2-D external map: w x h samples data[iz * w + ix], sample (ix, iz) covering the
 * columns [x0 + ix*step, x0 + (ix+1)*step) x [z0 + iz*step, ...) */
typedef struct cf_extmap {
    int w, h;
    double x0, z0, step;
    const double *data;
} cf_extmap;
struct cf_pack {
    cf_arena arena;
    cf_limits lim;
    int n;
    const char **roots;  /* NULL root = the embedded default pack (or mem, when set) */
    const struct cf_embedded_file *mem; /* a pack in memory (cf_pack_open_memory) */
    size_t nmem;
    int next;            /* named external inputs (Hytale context nodes): cf_pack_set_external */
    const char **ext_names;
    double *ext_values;
    struct cf_extmap *ext_maps; /* per external: a 2-D map (cf_pack_set_external_map), w == 0 for a constant */
    int dialect;         /* CF_DIALECT_*: forced by cf_pack_set_dialect, else detected per settings */
};

/* Finds data/<ns>/worldgen/<kind>/<path>.json in the packs, last pack first.
 * Returns 1 and a malloc'd NUL-terminated *text (caller frees) and its display
 * path (arena of the pack); 0 when absent; -1 on error (err set). */
/* pack_read by a path relative to the pack root ("libnoise/terrain.json"). */
int pack_read_rel(cf_pack *pk, const char *rel, char **text, size_t *len, const char **display, cf_error *err);
/* Names (without ".json") of the files <dir>/NAME.json in any pack, each once;
 * fills names[0..max-1] (strings in the pack's arena) and returns the count (may exceed max). */
int pack_list(cf_pack *pk, const char *dir, const char **names, int max);
/* 1 when the packs hold Minecraft noise settings minecraft:overworld (a front-end that
 * answers the default request on its own files leaves such packs to Minecraft) */
int pack_has_overworld(cf_pack *pk);
/* 1 for the default request: settings minecraft:overworld, every function router:final_density */
int request_is_default(const char *settings_id, const char *const *functions, int n);
int pack_read(cf_pack *pk, const char *kind, const char *ns, const char *path,
              char **text, size_t *len, const char **display, cf_error *err);

/* the embedded default pack (generated at build time from packs/default) */
struct cf_embedded_file;
typedef struct cf_embedded_file {
    const char *path; /* "data/minecraft/worldgen/noise_settings/overworld.json" */
    const unsigned char *data;
    size_t len;
} cf_embedded_file;
extern const cf_embedded_file cf_default_pack[];
extern const size_t cf_default_pack_count;

/* ------------------------------------------------------------------ stages */
/* parse.c: builds prog->nodes for the requested functions. */
cf_status parse_program(cf_program *p, cf_pack *pk, const char *settings_id,
                        const char *const *functions, int n, cf_error *err);
/* the aquifer's density functions, in the order of cf_program.aq_out */
extern const char *const cf_aquifer_fields[6];
/* parse.c: reads and parses the pack file at rel with the JSON checks of every
 * front-end (size, UTF-8, NUL, value count, duplicate keys). Returns 1 with *root
 * (the caller deletes it) and *display (program arena); 0 when absent; -1 on error. */
struct cJSON;
int json_load_rel(cf_program *p, cf_pack *pk, const char *rel, struct cJSON **root, const char **display, cf_error *err);
/* libnoise.c: 1 when the request is for the libnoise front-end (a libnoise:
 * settings id or function, or the default request on a pack holding only libnoise files). */
int libnoise_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n);
/* libnoise.c: builds prog->nodes (NF_F64 kinds) for libnoise:NAME[/ID] functions. */
cf_status libnoise_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                         cf_error *err);
/* hytale.c: 1 when the request is for the Hytale front-end (a hytale: function or
 * settings, or the default request on a pack with hytale/Density and no Minecraft settings) */
int hytale_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n);
/* hytale.c: builds prog->nodes (NF_F64 kinds of hytale.def) for hytale:NAME functions */
cf_status hytale_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                       cf_error *err);
/* hytale.c: HYTALE.md §1 choice: the int seed of a seed label under a world seed */
int32_t hytale_seed(const char *label, int64_t world);
/* hytale.c: the legacy noise assets' 14 composite Types and 11 leaf NoiseTypes (HYTALE.md
 * §2.5, §2.6), NULL-terminated (tests enumerate them) */
extern const char *const hytale_legacy_types[];
extern const char *const hytale_legacy_noise_types[];
/* mc121.c: 1 when the request is for the 1.18-1.21 front-end (forced on the pack,
 * or noise settings with noise.size_horizontal) */
int mc121_wanted(cf_pack *pk, const char *settings_id);
/* mc121.c: builds prog->nodes (NF_F64 kinds of mc121.def) from old-format data */
cf_status mc121_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                      cf_error *err);
/* iris.c: 1 when the request is for the Iris front-end (iris: settings or functions) */
int iris_wanted(const char *settings_id, const char *const *functions, int n);
/* iris.c: builds prog->nodes (IRIS_* kinds) for iris:style/NAME[#2d] and
 * iris:generator/KEY[#2d][#super][#interpolated] functions (host/iris.h); the
 * dialect from settings "iris:master" (default) or "iris:unification" */
cf_status iris_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n, cf_error *err);
/* iris_pack.c: 1 for an Iris terrain (settings iris:terrain/KEY, or the default
 * request on a pack with terrains/ and no Minecraft overworld settings) */
int iris_pack_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n);
/* iris_pack.c: a terrain's program: router:final_density (= iris:terrain) and iris:height */
cf_status iris_pack_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n, cf_error *err);
/* iris.c: the style table: count, name and branches (1 master, 2 unification, 3 both) */
int iris_style_count(void);
const char *iris_style_name(int i, int *branches);
/* iris.c: 1 implemented, 0 a NoiseType missing (its name in missing), -1 no such style on the branch */
int iris_style_status(const char *name, int unification, char *missing, size_t msz);
/* iris.c: 1 when the node is one of Iris's 2-D ones (its value reads x and z only) */
int iris_node_2d(const cf_node *n);
/* iris_expr.c: the byte offset in the world table of image node id's pixel
 * values (after the per-node seeds of iris_seeds, image nodes in node order) */
size_t iris_table_offset(const cf_program *p, int id);
/* iris_expr.c: the world table's length for p (seeds and image pixels) */
size_t iris_table_len(const cf_program *p);
struct cf_world;
/* iris.c: the per-world seeds of the seeded Iris nodes (w->tab: 16-byte header, then 6 x i64 per node) */
cf_status iris_seeds(struct cf_world *w, cf_error *err);
/* passes.c */
cf_status passes_run(cf_program *p, cf_error *err);
int node_is_literal(const cf_program *p, int id, float *value);

/* ------------------------------------------------------------------ seed tables */
typedef struct cf_octave {
    double ox, oy, oz, q;  /* offsets; q = smear fudge scale (smeared octaves) */
    uint8_t p[256];
} cf_octave;
typedef struct cf_layer {
    int octave;
    float amp;
    double freq;
} cf_layer;
typedef struct cf_stack {
    int first, count;
} cf_stack;

struct cf_world {
    const cf_program *prog;
    int64_t seed;
    int noct, nlayers, nstacks;
    cf_octave *oct;
    cf_layer *layers;
    cf_stack *stacks;
    int *noise_stack;   /* per program noise: stack index */
    int *node_stack;    /* per node: first stack index (old_blended_noise: 3), or -1 */
    int islands;        /* octave index of the end islands simplex, or -1 */
    uint64_t aq_lo, aq_hi; /* the aquifer's positional random factory (legacy: the seed in aq_lo) */
    int32_t lseed;      /* double dialects: the seed's low 32 bits, added to every module seed */
    uint8_t *tab;       /* the packed tables (kernels/cf_nodes.h), what a device receives */
    size_t tablen;
};

cf_status seed_bind(cf_world *w, cf_error *err);
void seed_free(cf_world *w);
/* sum of |layer amplitudes| of a noise's stack (seed-independent) */
double noise_amplitude_sum(const cf_noisedef *d);

/* Java String.hashCode of UTF-8 text (UTF-16 code units). */
int32_t java_string_hash(const char *utf8);

/* ------------------------------------------------------------------ evaluation */
/* Evaluation paths (MINECRAFT-26.3.md §9): SAMPLE = single point with
 * `interpolated` passing its input through (chunkfill sample, the oracle's df
 * mode); POINT = vanilla's sampleValue (find_top_surface probes); VOLUME = the
 * chunk fill's sampleVolume forms. */
enum { MODE_SAMPLE = 0, MODE_POINT = 1, MODE_VOLUME = 2 };

/* memo classes of a node during a fill (fill.c decides, eval.c applies) */
enum { MEMO_NONE = 0, MEMO_COLUMN = 1, MEMO_LAST = 2 };

typedef struct cf_memo {
    int32_t x, y, z;
    uint32_t stamp;
    float v;
} cf_memo;

/* Per-thread state of a chunk fill: the block region, per-node memos and the
 * corner and block buffers of `interpolated` nodes. Built by fill.c. */
typedef struct cf_fill {
    const cf_world *w;
    int32_t x0, y0, z0, sx, sy, sz; /* block region [x0, x0+sx) x [y0, y0+sy) x [z0, z0+sz) */
    int32_t vol_min_y;              /* min y of the volume being filled (incremental y start) */
    uint32_t stamp;                 /* changes per chunk: invalidates every memo */
    const uint8_t *memo;            /* per node: MEMO_* */
    float *col[2];                  /* [mode-1]: per node (sx+1)*(sz+1) column values */
    uint32_t *colstamp[2];
    int colstride;                  /* (sx+1)*(sz+1) */
    int *colslot;                   /* per node: slot in col, or -1 */
    cf_memo *last[2];               /* [mode-1][node] */
    /* interpolated nodes (slot per node, -1 if none) */
    int *islot;
    struct cf_interp {
        int32_t cx0, cy0, cz0;  /* first corner cell index */
        int ncx, ncy, ncz;      /* corners per axis */
        float *corner;
        uint32_t *cstamp;
        float *block;           /* (y*sz + z)*sx + x */
        uint32_t bstamp;
    } *interp;
    int ninterp;
    float **vbuf;                   /* per node of the block-stage list: its buffer */
    uint32_t *vstamp;               /* per node: window stamp of the rows its buffer holds */
    int32_t wy0, wy1;               /* the window of rows the block stage computes: [wy0, wy1) */
    uint32_t wstamp;                /* changes per window (and per chunk) */
    float *scratch;                 /* 2*sx*sz floats for the interpolation */
    uint32_t *count;                /* tests: per node evaluation counts, or NULL */
} cf_fill;

/* tests: fills one chunk of output fn; counts (per node, may be NULL) receive
 * how often each node was evaluated. Returns 0, or -1 when out of memory. */
int fill_one_counted(const cf_world *w, int fn, int32_t cx, int32_t cz, float *out, uint32_t *counts);

/* surface.c-style helper in fill.c: the top solid block of each column of chunk
 * (cx, cz) (min_y - 1 where none), scanning windows of rows from the top; out[z*16 + x].
 * *rows receives how many rows were computed (tests, benchmarks). Returns 0 or -1 (memory). */
int fill_surface_chunk(const cf_world *w, int fn, int32_t cx, int32_t cz, int32_t *out, int *rows);

/* aquifer.c: the blocks of the noise stage (kernels/cf_aquifer.h) */
typedef struct cf_aquifer cf_aquifer;
cf_aquifer *aquifer_new(const cf_world *w); /* NULL when out of memory */
void aquifer_free(cf_aquifer *a);
size_t aquifer_bytes(const cf_program *p); /* what aquifer_new allocates */
/* the block kinds (CF_BK_*) of chunk (cx, cz) from its final density ([y][z][x]) */
void aquifer_chunk(cf_aquifer *a, int32_t cx, int32_t cz, const float *density, uint8_t *out);
/* the palette of a program's block fills: names[CF_BK_*] ("" where unused) */
int aquifer_palette(const cf_program *p, const char **names);

float eval_f32(const cf_world *w, cf_fill *f, int mode, int node, int32_t x, int32_t y, int32_t z);
float eval_point_f32(const cf_world *w, int node, int32_t x, int32_t y, int32_t z); /* MODE_SAMPLE */
/* one point of a volume whose min y is vmin, without a fill context (MODE_VOLUME) */
float eval_volume_f32(const cf_world *w, int node, int32_t x, int32_t y, int32_t z, int32_t vmin);
/* eval64.c: the double dialects. A context memoizes the last point of every
 * node (libnoise's Cache, and "a module used twice is computed once"). */
typedef struct ev64_memo {
    double x, y, z, v;
    uint32_t stamp;
} ev64_memo;
typedef struct ev64_ctx {
    const cf_world *w;
    ev64_memo *memo; /* per node, or NULL (no memo) */
    uint32_t stamp;  /* memo entries of another stamp are empty */
    /* DIALECT_MC121 chunk fills (1.21's NoiseChunk): flat_cache reads its quart
     * cell, interpolated lerps cell corners; mode EV64_POINT outside a chunk */
    int mode;                /* EV64_* */
    int *slot;               /* per node: flat_cache / interpolated slot, or -1 */
    int nflat, ninterp;
    int32_t fqx, fqz;        /* first quart of the chunk */
    int32_t fcx, fcz, fcy;   /* first cell x, z; cell y of min_y */
    int ncxz, ncy;           /* cells per axis */
    double *flat, *corner;   /* per slot: 5x5 quart values; (ncxz+1)^2 (ncy+1) corners */
    uint32_t *flatst, *cornst, cstamp; /* entries of another chunk stamp are empty */
} ev64_ctx;
enum { EV64_POINT = 0, EV64_CELL = 1, EV64_VALUE = 2, EV64_CORNER = 3 };
/* eval64.c: starts chunk (cx, cz) of a DIALECT_MC121 fill; mode EV64_CELL (block
 * densities through the cell cache: lerp x, y, z) or EV64_VALUE (y, x, z);
 * EV64_POINT goes back to single points */
void eval64_chunk(ev64_ctx *c, int32_t cx, int32_t cz, int mode);
/* a context with a memo per node; returns 0, or -1 when out of memory */
int eval64_init(ev64_ctx *c, const cf_world *w);
void eval64_free(ev64_ctx *c);
double eval_f64(ev64_ctx *c, int node, double x, double y, double z);

/* fill.c: the block values of interpolated node `node` over the fill region */
void fill_interp_blocks(cf_fill *f, int node);

#endif /* CF_H */
