/* biome.h - the biome stage (../shared/BIOMES.md): climate -> biome ids.
 *
 * Pipeline: a dimension (pack dimension file, or a noise settings id with its
 * vanilla biome source) -> biome source (multi_noise with a built-in preset or
 * a pack's list, the_end, fixed, checkerboard) -> for multi_noise, the list's
 * RTree as a flat table (kernels/cf_biome.h) -> lookups per quart, through the
 * climate program of the dimension's noise settings (cpu: host eval paths).
 * A cf_biomes owns its arena (palette, list, tree), its climate program and world.
 */
#ifndef CF_BIOME_INTERNAL_H
#define CF_BIOME_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "ir/ir.h"

/* ------------------------------------------------------------------ presets.c (generated) */
#define BP_NAMES 56
#define BP_INTERVALS 58
#define BP_LISTS 7
#define BP_NETHER 5
typedef struct bp_list {
    const char *version;       /* the first version of the list: "1.18" ... "26.3" */
    const int32_t (*ops)[2];   /* the patch of the 26.3 list: {base, n} copies n rows from base, {-1, n} takes n rows */
    const uint8_t *rows;       /*   of rows (7 bytes a row: biome (bp_names), six intervals (bp_intervals)); */
    int count;                 /* entries */
    int nops;                  /* 0: rows is the list itself */
} bp_list;
typedef struct bp_point {
    const char *biome;
    int32_t v[6];
    int32_t offset;
} bp_point;
extern const char *const bp_names[BP_NAMES];
extern const int32_t bp_intervals[BP_INTERVALS][2];
extern const bp_list bp_lists[BP_LISTS];
extern const bp_point bp_nether[BP_NETHER];

/* ------------------------------------------------------------------ lists and trees */
/* a parameter list in insertion order, biomes as palette indices */
typedef struct bm_list {
    int n;
    int32_t (*lo)[7], (*hi)[7]; /* 7-D boxes, offset as the degenerate 7th interval */
    int *pal;
} bm_list;

/* The list of the overworld preset of version `version` ("1.18" ... "26.3", any
 * release in between: "1.21.11") into l (malloc'd arrays; bm_list_free), palette
 * indices into names[] (bp_names order). Returns 0, or -1 when out of memory. */
int bm_preset_overworld(const char *version, bm_list *l);
int bm_preset_nether(bm_list *l, const char **names);
void bm_list_free(bm_list *l);
/* RTree children per node of a version: 10 (1.18 .. 1.19.2), 6 (1.19.3 .. 26.2), 19 (26.3+);
 * -1 for text that is not a version */
int bm_version_k(const char *version);
/* vanilla's Climate.RTree built from l with k children per node (BIOMES.md §4.2), as the flat
 * table of kernels/cf_biome.h; *nnodes its node count. malloc'd, or NULL when out of memory
 * or deeper than CF_B_MAXDEPTH. */
int32_t *bm_tree_build(const bm_list *l, int k, int *nnodes);
/* the same, and *entry_of (malloc'd, per node: the list index of a leaf, -1 for a subtree) */
int32_t *bm_tree_build_ex(const bm_list *l, int k, int *nnodes, int32_t **entry_of);
/* An exact faster search (tree.c): the entries grouped by depth interval, a tree per group
 * whose boxes know the smallest depth-first rank (in vanilla's tree) of their leaves; a
 * node's children side by side, one lane each (bm_wnode), measured together (AVX-512, AVX2 or
 * portable loops: cpu_isa() when built). */
#define BM_FAST_GROUPS 8
/* children per node of those trees (any shape gives the same answers): the lanes of a node */
#define BM_FAST_K 16
typedef struct bm_wnode {
    int32_t lo[6][BM_FAST_K], hi[6][BM_FAST_K]; /* the child boxes' first six axes */
    uint64_t off2[BM_FAST_K];                   /* the offset axis' square (its target is 0) */
    int32_t child[BM_FAST_K];                   /* a node of the group, or ~leaf: vanilla's leaf node */
    int32_t minrank[BM_FAST_K];                 /* the smallest depth-first rank below the child */
    int32_t n;                                  /* children */
} bm_wnode;
typedef struct bm_fast {
    int ngroups;
    bm_wnode *node[BM_FAST_GROUPS]; /* node 0 the root */
    int nnodes[BM_FAST_GROUPS];
    int32_t *rank; /* per node of vanilla's tree: a leaf's depth-first rank, -1 for a subtree */
    int narrow;    /* every box within 2^20: targets within 2^28 take the 32-bit lanes */
    int bydepth;   /* the groups are the depth intervals (not one group for all) */
    int32_t *grp;  /* per node of vanilla's tree: a leaf's group, -1 for a subtree */
    int32_t *ovl_first, *ovl; /* per leaf L of vanilla's tree: ovl[ovl_first[L] ..
                               * ovl_first[L + 1]), the leaves of its group of smaller rank
                               * and offset 0 that may hold a target strictly inside L's box
                               * in the other five axes (fast_search's shortcut) */
    int isa;       /* BM_ISA_*: the lanes of those targets */
} bm_fast;
enum { BM_ISA_PORTABLE = 0, BM_ISA_AVX2 = 1, BM_ISA_AVX512 = 2 };
/* from list l, vanilla's tree vtree (vn nodes) and its entry_of, k <= BM_FAST_K children per
 * node; 0, or -1 out of memory */
int bm_fast_build(bm_fast *f, const bm_list *l, int k, const int32_t *vtree, int vn, const int32_t *ventry);
void bm_fast_free(bm_fast *f);
/* vanilla's answer (a node of vtree) for target t: with warm >= 0, cf_b_search(vtree, t, warm);
 * with warm -1, the cold answer; hint (a leaf of vtree, or -1) only bounds the search */
int32_t bm_fast_search(const bm_fast *f, const int32_t *vtree, const int64_t *t, int32_t hint, int32_t warm, int64_t *fit);
/* SHA-256 of the tree in a canonical text (depth-first: per node its seven min,max then
 * "b NAME" or "c COUNT", one line a node): what tests compare with the oracle's dump */
void bm_tree_digest(const int32_t *tree, const char *const *names, char hex[65]);
/* the brute-force scan (Climate.Parameters.findValueBruteForce): the first entry of minimum
 * fitness in insertion order; *fit the fitness, *ties how many entries reach it */
int bm_brute(const bm_list *l, const int64_t *t, int64_t *fit, int *ties);

/* ------------------------------------------------------------------ sources */
enum { BS_MULTI = 1, BS_END, BS_FIXED, BS_CHECKER };
enum { BF_T, BF_H, BF_C, BF_E, BF_D, BF_W }; /* the climate fields, TargetPoint order */
/* the query paths: 26.3's point and volume paths (1.18-1.21 have one) */
enum { BP_POINT = 0, BP_VOLUME = 1 };

/* an open biome source (include/chunkfill.h's cf_biomes) */
struct cf_biomes {
    cf_arena arena;
    int kind;                  /* BS_* */
    int npal;
    const char *pal[CF_BIOME_PALETTE_MAX];
    struct cf_program *prog;          /* the climate fields (multi_noise: six; the_end: erosion) */
    struct cf_world *w;
    int f64;                   /* 1.18-1.21: f64 fields cast to float */
    int min_y, height;
    bm_list list;              /* multi_noise */
    int32_t *tree;
    int nnodes, k;
    bm_fast fast;              /* the same answers, found faster (CPU) */
    int fixed;                 /* BS_FIXED: its palette index */
    int *chk, nchk, shift; /* BS_CHECKER: palette index per list slot (the cf_biomes' arena) */
    int64_t zseed;             /* BiomeManager's obfuscated seed */
    int count_ties;
    atomic_uint_fast64_t lookups, ties;
    char *describe;
    const char *ov_rel, *ov_text, *ov_display; /* inline noise settings (cf_biomes_open's overlay), or NULL */
    struct biome_opening *opening; /* between biome_open_begin and biome_open_end (source.c) */
};

/* A dimension's inline noise settings (generator.settings an object; b->prog->settings_id is
 * then chunkfill:inline/<ns>/<path>): another program of the same settings (pregen's block
 * program) is compiled between biome_overlay(b, pk, 1), which puts them before every pack of
 * pk as cf_biomes_open did, and biome_overlay(b, pk, 0); after a failed compile
 * biome_overlay_message makes the error's location one pointer into the dimension file. All
 * three do nothing for settings by id (and b NULL). */
void biome_overlay(const cf_biomes *b, cf_pack *pk, int on);
void biome_overlay_message(const cf_biomes *b, cf_error *e);

/* one lookup of a multi_noise source: target t (6 quantized values), warm leaf or -1;
 * returns the leaf; *fit its fitness; *ties the entries at that fitness when ties != NULL */
int32_t biome_lookup(const cf_biomes *b, const int64_t *t, int32_t warm, int64_t *fit, int *ties);
/* the climate floats at quart q on a path (multi_noise: the six it quantizes; the_end: the
 * erosion at the quart's block), qy0 the volume's first quart y; 0, or -1 out of memory */
int biome_climate(const cf_biomes *b, int path, int32_t qy0, const int32_t *q, float *v);
/* the tree, the list and the obfuscated zoom seed (tests) */
const int32_t *biome_tree(const cf_biomes *b, int *nnodes, int *k);
const bm_list *biome_list(const cf_biomes *b);
int64_t biome_zoom_seed(int64_t seed);
/* cf_biomes_open in two steps around the compile of the climate program, which host/api/ does
 * (the front-ends are above this folder): biome_open_begin reads the dimension and says in c
 * what to compile; until biome_open_end the pack reads the dimension's inline settings, if
 * any. biome_open_end takes the program (NULL: its compile failed, err says why) and makes or
 * frees *b (then *out). err must not be NULL. */
typedef struct biome_compile {
    const char *settings;
    const char *const *functions;
    int nfunctions;
} biome_compile;
cf_status biome_open_begin(cf_biomes **out, cf_pack *pack, const char *dimension, const char *settings, const char *version,
                           int64_t seed, biome_compile *c, cf_error *err);
cf_status biome_open_end(cf_biomes *b, cf_program *prog, cf_biomes **out, cf_error *err);
/* The biome program of a climate program (program.c; device.c runs it): kernels k_biome_quarts
 * and k_biome_chunks; end: TheEndBiomeSource from output 0 (erosion). malloc'd, or NULL with err set. */
char *biome_program(const cf_program *p, const cf_world *w, int end, cf_error *err);


/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
/* cf_biomes_device_fill: */
cf_status biome_device_fill(cf_biome_device *d, size_t n, const int32_t *chunks, uint8_t *out, cf_error *err);
void biome_device_free(cf_biome_device *d);  /* cf_biomes_device_free */
const char *biome_device_name(const cf_biome_device *d);  /* cf_biomes_device_name */
/* cf_biomes_device_open: */
cf_status biome_device_open(cf_biome_device **out, const char *spec, cf_biomes *b, cf_error *err);
/* cf_biomes_device_quarts: */
cf_status biome_device_quarts(cf_biome_device *d, size_t n, const int32_t *q, uint8_t *out, cf_error *err);


/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
cf_status biome_blocks(cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err);  /* cf_biomes_blocks */
void biome_count_ties(cf_biomes *b, int on);  /* cf_biomes_count_ties */
const char *biome_describe(const cf_biomes *b);
const char *biome_settings(const cf_biomes *b);  /* cf_biomes_settings */
void biome_free(cf_biomes *b);  /* cf_biomes_free */
/* cf_biomes_grid: */
cf_status biome_grid(cf_biomes *b, int32_t qx0, int32_t qz0, int32_t nx, int32_t nz, int32_t qy, uint8_t *out,
                     int threads, cf_error *err);
int biome_palette(const cf_biomes *b, const char **names);  /* cf_biomes_palette */
cf_status biome_quarts(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err);  /* cf_biomes_quarts */
/* the stored biome of quart q as a chunk fill (biome_fill) stores it, for one quart alone (the
 * maps' sampled columns): a context per thread (biome_quart_new: NULL when out of memory);
 * biome_quart_stored is the palette index, or -1 where leaves tie (the chunk fill's warm start
 * could pick another: fill the chunk) */
typedef struct cf_bquart cf_bquart;
cf_bquart *biome_quart_new(cf_biomes *b);
void biome_quart_free(cf_bquart *q);
int biome_quart_stored(cf_bquart *bq, const int32_t *q);
/* biome_quarts with the RTree's warm start carried from each quart to the next (cold at the first),
 * as one game thread's lookups in turn: BiomeSource.findBiomeHorizontal's scan (host/structure/) */
cf_status biome_quarts_warm(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err);
/* the same from warm start *warm (-1: cold), which receives the last quart's leaf: one scan in batches */
cf_status biome_quarts_warm_from(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, int32_t *warm, cf_error *err);
/* cf_biomes_locate (locate.c): */
cf_status biome_locate(cf_biomes *b, cf_pack *pk, const char *what, int32_t x, int32_t y, int32_t z, int32_t radius,
                       int32_t hstep, int32_t vstep, int32_t pos[3], int *biome, int *found, cf_map_progress_fn progress,
                       void *ctx, cf_error *err);
void biome_range(const cf_biomes *b, int *min_y, int *height);  /* cf_biomes_range */
cf_status biome_set_seed(cf_biomes *b, int64_t seed, cf_error *err);  /* cf_biomes_set_seed */
void biome_stats(const cf_biomes *b, uint64_t *lookups, uint64_t *ties);  /* cf_biomes_stats */
/* cf_fill_biomes: */
cf_status biome_fill(cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err);

#endif /* CF_BIOME_INTERNAL_H */
