/* ir.h - the graph IR: node kinds (nodes.def and the front-ends' rows beside it),
 * programs, the passes, the fill plan, per-seed tables, and the front-end record
 * through which the back ends reach what a front-end's node kinds need.
 */
#ifndef CF_IR_H
#define CF_IR_H

#include "base/base.h"
#include "ir/rules.h"

/* ------------------------------------------------------------------ node kinds */
enum {
#define NODE(K, name, flags, fields, summary) NK_##K,
#include "ir/nodes.def"
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
    int inest;          /* the most interpolated nodes on a path to a leaf, counting this node
                         * (bounded by CF_MAX_INTERP_NEST) */
    double lo, hi;      /* value range (conservative) */
    cf_loc loc;
} cf_node;

/* a new node of kind (its flags from the node table), precision prec (PREC_*), no noise, at loc */
static inline cf_node ir_node_of(int kind, int prec, cf_loc loc)
{
    cf_node n = {0};
    n.kind = kind, n.flags = node_flags[kind], n.prec = prec, n.noise = -1, n.loc = loc;
    return n;
}

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
 *   DIALECT_SHARPNOISE  the same, SharpNoise's variant (host/frontend/libnoise/README.md);
 *   DIALECT_MC121     double values at block positions (Minecraft 1.18-1.21, host/frontend/mc121/mc121.c).
 *   DIALECT_IRIS_*  Iris's NoiseStyles, master or unification branch (host/frontend/iris/).
 * A double dialect's nodes are NF_F64 kinds, evaluated by eval64.c, filled by
 * fill.c's f64 path and emitted by opencl/emit_f64.c. */
enum {
    DIALECT_MC263 = 0, DIALECT_LIBNOISE = 1, DIALECT_SHARPNOISE = 2, DIALECT_HYTALE = 3, DIALECT_MC121 = 4,
    DIALECT_IRIS_MASTER = 5, DIALECT_IRIS_UNIFICATION = 6
};

struct cf_frontend;
struct cf_program {
    cf_arena arena;
    const struct cf_frontend *fe; /* the front-end that parsed it (frontend/registry.c) */
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
    int ore_veins;           /* DIALECT_MC121: the settings' ore_veins_enabled (OreVeinifier in the noise stage) */
    cf_rules *rules;         /* block fills: the surface stage's rules (ir/rules.h), or NULL (none) */
    size_t parsed_nodes;     /* before the passes */
    size_t max_fill_bytes;   /* from the pack's limits */
    char *describe;
    /* the fill plan (plan.c) */
    uint8_t *memo;           /* per node: MEMO_* */
    int *colslot, ncol;      /* per node: column-memo slot or -1 */
    int *islot, ninterp;     /* per node: interpolated slot or -1 */
    uint8_t *stage;          /* per node: STAGE_* */
    int *vlist, nvlist;      /* block-stage nodes evaluated as buffers, children first */
    uint8_t *vop;            /* per node: 1 = computed from child buffers, 0 = per element */
    char *plan;              /* `chunkfill plan` text */
    double *hy_maps;         /* DIALECT_HYTALE: the external maps' samples, appended to the seed table */
    size_t hy_nmaps;         /* their count (doubles) */
};

/* ir.c: append node n to p (its depth computed; the depth and the node count checked
 * against lim unless NULL: "the WHAT is nested deeper than N"); its id, or -1 with err set */
int ir_node_add(struct cf_program *p, const cf_limits *lim, const cf_node *n, const char *what, cf_error *err);
/* ir.c: count inputs for n on p's arena, each -1; 0, or -1 with err set (memory) */
int ir_set_inputs(struct cf_program *p, cf_node *n, int count, cf_error *err);
/* ir.c: p's count outputs (p->outputs for the front-end to set) named by functions (copied);
 * 0, or -1 with err set (memory) */
int ir_set_outputs(struct cf_program *p, const char *const *functions, int count, cf_error *err);
/* ir.c: count outputs appended to p's (a rule's noises and functions: ids, each named name, a
 * string that outlives p); 0, or -1 (memory: the front-end says where) */
int ir_add_outputs(struct cf_program *p, const int *ids, int count, const char *name);

/* passes.c, on the ranges of a compiled program: 1 when node id's value is finite (within
 * +-1e37) whenever its inputs are: its range is within +-1e37 (not for NaN bounds) and it is
 * none of the kinds that make NaN or an infinity from finite inputs (log, pow; div and
 * reciprocal whose divisor's range holds 0; sqrt of a range reaching below 0). The proofs of
 * the surface search's column bounds (cpu/bounds.c), the CPU's corner columns (cpu/heights.c)
 * and the device's lone corner columns (opencl/emit.c) rest on it. */
int ir_finite_node(const struct cf_program *p, int id);
/* the same for id and every node under it; seen: per node 0 unknown, 1 yes, 2 no (a memo
 * that the caller zeroes) */
int ir_finite_below(const struct cf_program *p, int id, uint8_t *seen);

/* Evaluation paths (MINECRAFT-26.3.md §9): SAMPLE = single point with
 * `interpolated` passing its input through (chunkfill sample, the oracle's df
 * mode); POINT = vanilla's sampleValue (find_top_surface probes); VOLUME = the
 * chunk fill's sampleVolume forms. */
enum { MODE_SAMPLE = 0, MODE_POINT = 1, MODE_VOLUME = 2 };

/* resolution stages of a chunk fill */
enum { STAGE_CONST = 0, STAGE_COLUMN, STAGE_CORNER, STAGE_BLOCK, STAGE_PROBE };
/* memo classes of a node during a fill (plan.c decides, cpu/eval.c applies) */
enum { MEMO_NONE = 0, MEMO_COLUMN = 1, MEMO_LAST = 2 };
cf_status plan_build(cf_program *p, cf_error *err);

/* DIALECT_MC121 block fills (cf_frontend.block_functions): the outputs, in this order */
enum { CF_B21_FINAL = 0, CF_B21_BARRIER, CF_B21_FLOODEDNESS, CF_B21_SPREAD, CF_B21_LAVA, CF_B21_EROSION, CF_B21_DEPTH,
       CF_B21_SURFACE, CF_B21_VEIN_TOGGLE, CF_B21_VEIN_RIDGED, CF_B21_VEIN_GAP, CF_B21_RULES, CF_B21_COUNT };
/* CF_B21_RULES: the settings' surface_rule compiled into cf_program.rules (its output is a constant) */
/* 26.3 (DIALECT_MC263 block programs): the outputs after the aquifer's seven */
enum { CF_B263_SURFACE = 7, CF_B263_RULES = 8 };

/* the aquifer's density functions, in the order of cf_program.aq_out (ir/passes.c) */
extern const char *const cf_aquifer_fields[6];
/* passes.c */
/* the value of node id at a point, all of whose inputs are constants (the CPU
 * reference's point path, given by the library: passes fold with it) */
typedef float (*cf_fold_eval)(const cf_program *p, int id);
cf_status passes_run(cf_program *p, cf_fold_eval fold, cf_error *err); /* fold may be NULL: no folding */

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
    uint64_t ore_lo, ore_hi; /* DIALECT_MC121: positional("minecraft:ore"), the ore veins' factory */
    uint64_t root_lo, root_hi; /* RandomState.random: the base positional factory (legacy: the seed in root_lo) */
    uint8_t bands[192];      /* the clay bands (0 terracotta, 1 orange, 2 yellow, 3 brown, 4 red, 5 white, 6 light gray) */
    int32_t lseed;      /* double dialects: the seed's low 32 bits, added to every module seed */
    uint8_t *tab;       /* the packed tables (kernels/cf_nodes.h), what a device receives */
    size_t tablen;
};

/* a world: prog bound to seed (seed.c's seed_bind); the work of cf_world_new. world_free frees one that
 * no CPU fill has used (those keep contexts per world: cpu.h world_release frees those too) */
cf_status world_new(cf_world **out, const cf_program *prog, int64_t seed, cf_error *err);
void world_free(cf_world *w);
/* frees a program (its nodes, noises and arena); the work of cf_program_free */
void program_free(cf_program *p);
/* positional(name): RandomState.random.fromHashOf(name).forkPositional() (MATERIAL-RULES.md §2) */
void seed_factory(const cf_world *w, const char *name, uint64_t *lo, uint64_t *hi);
/* sum of |layer amplitudes| of a noise's stack (seed-independent) */
double noise_amplitude_sum(const cf_noisedef *d);

/* Java String.hashCode of UTF-8 text (UTF-16 code units). */
int32_t java_string_hash(const char *utf8);

/* ------------------------------------------------------------------ front-ends */
/* One input format. frontend/registry.c holds the one table of them; cf_program_compile
 * asks it once which front-end a request is for and calls that one's parse. The back
 * ends reach a front-end's node kinds only through the record of their program (p->fe). */
typedef struct cf_frontend {
    const char *name;     /* "mc263", "mc121", "libnoise", "iris", "hytale" */
    const char *title;    /* "Minecraft 26.3", ... */
    const char *prefix;   /* "iris:": settings or functions with it are this front-end's; NULL none */
    int first_kind, last_kind; /* its node rows in the IR table: NK_first .. NK_last */
    const int *borrows;   /* kinds of other front-ends' rows it also builds, -1-terminated, or NULL */
    /* 1 when the request is this front-end's beyond prefix and pack_dir (NULL: no other rule) */
    int (*claims)(cf_pack *pk, const char *settings_id, const char *const *functions, int n);
    /* builds p->nodes (and settings, noises, outputs) for the request */
    cf_status (*parse)(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                       cf_error *err);
    /* back ends: 1 when node n's value reads x and z only (computed once per column), or NULL */
    int (*node_2d)(const cf_program *p, const cf_node *n);
    /* seed.c: the world table of a program whose tables are not noise stacks, or NULL */
    cf_status (*bind_seed)(cf_world *w, cf_error *err);
    /* the byte offset in the world table of node id's data (image pixels), or NULL */
    size_t (*table_offset)(const cf_program *p, int id);
    /* the functions a block fill compiles (cf_program_compile_blocks), or NULL: the 26.3 list */
    const char *const *block_functions;
    int nblock_functions;
} cf_frontend;

/* what a back end asks of a node through its program's front-end */
static inline int node_is_2d(const cf_program *p, const cf_node *n)
{
    return p->fe && p->fe->node_2d && p->fe->node_2d(p, n);
}
static inline size_t node_table_offset(const cf_program *p, int id)
{
    return p->fe && p->fe->table_offset ? p->fe->table_offset(p, id) : 0;
}


/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
int node_kind_info(int i, const char **name, const char **fields, const char **summary);  /* cf_node_kind_info */

#endif /* CF_IR_H */
