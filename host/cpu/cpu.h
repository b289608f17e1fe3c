/* cpu.h - the CPU reference: single-point and volume evaluation of 26.3 graphs
 * (eval.c), of the double dialects (eval64.c), chunk fills (fill.c, jobs.c) and surfaces (heights.c),
 * the aquifer's blocks (aquifer.c).
 */
#ifndef CF_CPU_H
#define CF_CPU_H

#include <pthread.h>
#include <stddef.h>

#include "ir/ir.h"

/* ------------------------------------------------------------------ context pools
 * pool.c: idle contexts kept per world between calls (fill.c's float contexts, fill121.c's
 * double ones, aquifer121.c's 1.21 block contexts). A context embeds a cf_pooled named
 * `pool` (its world and the list link); a pool keeps at most max idle ones per world. */
typedef struct cf_pooled {
    struct cf_pooled *next;
    const cf_world *w;
} cf_pooled;
typedef struct cf_pool {
    pthread_mutex_t mu;
    cf_pooled *head;
    int max;
} cf_pool;
#define CF_POOL_INIT(max) {PTHREAD_MUTEX_INITIALIZER, NULL, (max)}
/* the context holding pooled member p (type: the context's struct, its member named pool) */
#define CF_POOLED(p, type) ((type *)(void *)((char *)(p) - offsetof(type, pool)))
/* an idle context of w for which fits(o, arg) holds (fits NULL: any), unlinked; NULL: none */
cf_pooled *pool_take(cf_pool *p, const cf_world *w, int (*fits)(const cf_pooled *, const void *), const void *arg);
/* keeps o idle; returns NULL, or o itself when its world has max idle ones (the caller frees it) */
cf_pooled *pool_give(cf_pool *p, cf_pooled *o);
/* w's idle contexts, unlinked, as a list through next (the caller frees them) */
cf_pooled *pool_drop(cf_pool *p, const cf_world *w);

/* ------------------------------------------------------------------ evaluation */


typedef struct cf_memo {
    int32_t x, y, z;
    uint32_t stamp;
    float v;
} cf_memo;

enum { CF_MAX_CORNERS_X = 24 }; /* corners along x of a fill region's interpolation (16 / 1 + 3 at most) */

/* Per-thread state of a chunk fill: the block region, per-node memos and the
 * corner and block buffers of `interpolated` nodes. Built by fill.c. */
/* a lattice cell of one octave (cf_fill.lat): its corner (i, j, k) and the eight gradient
 * hashes of its corners, in cf_perlin_lattice's order; ok 0 until filled */
typedef struct cf_latcell {
    int32_t i, j, k, ok;
    uint8_t h[8];
} cf_latcell;

typedef struct cf_fill {
    const cf_world *w;
    int32_t x0, y0, z0, sx, sy, sz; /* block region [x0, x0+sx) x [y0, y0+sy) x [z0, z0+sz) */
    int32_t vol_min_y;              /* min y of the volume being filled (incremental y start) */
    uint32_t stamp;                 /* changes per chunk: invalidates every memo */
    struct cf_cmap *cmap;           /* corners of interpolated nodes outside the corner buffers
                                     * (eval.c; emptied when stamp changes), or NULL */
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
        /* once per region (colst: the fill stamp they belong to): per x (sx) its corner
         * cell, then per z (sz) its corner offset; the x and z weights */
        size_t *cidx;
        float *cax, *caz;
        uint32_t colst;
        /* the y walk (sx*sz each): the running values of row runy and the steps of its
         * cells; valid while runst is the fill stamp */
        float *run, *stp;
        int32_t runy;
        uint32_t runst;
    } *interp;
    int ninterp;
    float **vbuf;                   /* per node of the block-stage list: its buffer, the window's rows
                                     * from wy0 ((y - wy0)*sz + z)*sx + x (one row without y) */
    uint32_t *vstamp;               /* per node: window stamp of the rows its buffer holds (nodes
                                     * without y: the fill stamp, their value is the same at every y) */
    int32_t wy0, wy1;               /* the window of rows the block stage computes: [wy0, wy1) */
    int32_t wmax;                   /* the most rows a window has (buffers hold wmax rows) */
    uint32_t wstamp;                /* changes per window (and per chunk) */
    float *scratch;                 /* 3*sx*sz floats: a row of each input of vec_node's row operation */
    int isa;                        /* ROW_ISA_*: the lanes of the block stage's row operations */
    int share;                      /* fill.c: a chunk region takes the last one's +x / +z corner faces */
    float *bbuf;                    /* eval.c corner rows: per node bcap values (NULL: corner by corner) */
    uint32_t *bst, bstamp;          /* per node: the batch whose values bbuf holds */
    int inrow;                      /* a corner row is being evaluated (eval.c corner_row): a nested
                                     * interpolated node's corners go corner by corner */
    int bcap;
    uint32_t *count;                /* tests: per node evaluation counts, or NULL */
    cf_latcell *lat;                /* point path: per octave of w (w->noct) its last cell, or NULL (biome maps:
                                     * neighbouring samples mostly share every low-frequency cell) */
    struct cf_corners *corners;     /* corners.c: noises over the corner lattice, or NULL */
    struct cf_lanes *lanes;         /* heights.c's group of samples on corner columns (eval.c), or NULL */
    int nnodes;                     /* the program's node count (vbuf entries) */
    cf_pooled pool;                 /* fill.c's pool of idle contexts (pool.w == w) */
} cf_fill;

/* corners.c: the corner stage of a fill context (unshifted noises and old_blended_noise over
 * the corner lattice of its interpolated nodes, per-axis math once per axis value, AVX-512 or AVX2
 * lanes where present) */
typedef struct cf_corners cf_corners;
/* NULL when the program has no such noise (or no interpolation, or no memory): the
 * evaluator then computes every point itself */
cf_corners *corners_new(const cf_world *w, int32_t sx, int32_t sy, int32_t sz);
void corners_free(cf_corners *c);
void corners_region(cf_corners *c, int32_t x0, int32_t y0, int32_t z0, int32_t sx, int32_t sy, int32_t sz);
void corners_clear(cf_corners *c); /* the fill stamp wrapped: every row is stale */
/* a strided row of samples: the corner columns (x0 + i*step, z0), i < n, as one lattice row,
 * each corner row computed for all n in vector lanes (n at most corners_lanes); 0, or -1 where
 * x0, z0 or step are not on the lattice */
int corners_lanes(const cf_corners *c);
int corners_samples(cf_corners *c, int32_t x0, int32_t y0, int32_t z0, int32_t step, int n, int32_t sy);
/* c, a fill's 1 x 1 corner column at sample i of src (corners_samples, same y range), takes
 * its rows from src; src NULL: its own again. 0, or -1 (not shared) where they do not match */
int corners_share(cf_corners *c, cf_corners *src, int i);
/* node id's value at (x, y, z) into *out when the node and the point are on the
 * lattice of f's region (1), else 0 */
int corners_noise(cf_fill *f, int id, int32_t x, int32_t y, int32_t z, float *out);
/* node id's corner row at y, [k * corners_ncx + i] for the corner (cx0 + i, cz0 + k) * w, when
 * the node has the stage, y is on its lattice and the lattice is (w, cx0, cz0) with at least
 * ncx x ncz corners; else NULL */
const float *corners_row(cf_fill *f, int id, int32_t y, int32_t w, int32_t cx0, int32_t cz0, int ncx, int ncz);
int corners_ncx(const cf_corners *c);
/* the strided row of samples c (corners_samples): node id's values at the row's corner columns
 * at y, [i] for sample i, when the node has the stage and y is on the lattice; else NULL */
const float *corners_lane_row(const cf_world *w, cf_corners *c, int id, int32_t y);
/* tests: every corner of every such node over chunk (cx, cz) against cf_stack_volume or
 * cf_blended, on every lattice path the CPU has (AVX-512, AVX2, portable); returns the mismatches (-1: none to check),
 * *n the corners compared */
long corners_check(const cf_world *w, int32_t cx, int32_t cz, long *n);

/* eval.c: a group of samples on corner columns, lane i at (x0 + i*step, z) (heights.c corner_group):
 * while f->lanes points at it and its lane `cur` is f's 1 x 1 region, a corner row that the
 * sample needs is computed for the lanes cur.. of the group at once (bnode over their corners,
 * the noises from the strided lattice row cs), kept for the later lanes; the 2-D nodes' column
 * memos hold every lane's column. Values are pure functions of the position: the same bits. */
typedef struct cf_lanes cf_lanes;
enum { CF_LANES_MAX = 16 }; /* the most lanes of a group (corners_lanes: 16 AVX-512) */
cf_lanes *lanes_new(const cf_program *p); /* NULL: out of memory, or no interpolated node */
void lanes_free(cf_lanes *l);
/* a new group (every value kept is stale): n lanes (at most CF_LANES_MAX), cs its strided row */
void lanes_group(cf_lanes *l, cf_corners *cs, int32_t x0, int32_t step, int32_t z, int n);
void lanes_at(cf_lanes *l, int cur); /* the fill's region is lane cur's column (-1: none) */

/* fill.c: frees the idle fill contexts kept for world w (cf_world_free calls it) */
void fill_pool_drop(const cf_world *w);
/* frees a world and the fill contexts kept for it (fill_pool_drop); the work of cf_world_free */
void world_release(cf_world *w);

/* tests: fills one chunk of output fn; counts (per node, may be NULL) receive
 * how often each node was evaluated. Returns 0, or -1 when out of memory. */
int fill_one_counted(const cf_world *w, int fn, int32_t cx, int32_t cz, float *out, uint32_t *counts);

/* heights.c: the top solid block of each column of chunk
 * (cx, cz) (min_y - 1 where none), scanning windows of rows from the top; out[z*16 + x].
 * *rows receives how many rows were computed (tests, benchmarks). Returns 0 or -1 (memory). */
int fill_surface_chunk(const cf_world *w, int fn, int32_t cx, int32_t cz, int32_t *out, int *rows);

/* aquifer.c: the nearest three aquifer cells of the 16 blocks of one row (y, z) of a chunk, as
 * cf_aq_nearest finds them (kernels/cf_aquifer.h), a block per lane; the 26.3 aquifer and
 * aquifer121.c's share it. The 12 candidate cells of each block (ax = floor((x - 5) / 16) is
 * cx - 1 for x < 5 in the chunk, else cx) are looked up once per cell row (aq_row_init, from the
 * chunk's 3 x ny x 3 grid of centres cen whose y cells start at gy0); aq_row_nearest ranks a
 * block's candidates by the key dd * 16 + (11 - k) (k the visiting order; dd < 2^26 in the grid),
 * so that its three smallest keys are the insertion's three (equal distances go to the later
 * cell), its lane loops plain or target("avx2"); aq_row_lane gives lane l's cells and squared
 * distances in cf_aq_nearest's order. Start with ay = INT32_MIN (no candidates yet). */
typedef struct cf_aq_row {
    int32_t c[3][12][16]; /* the candidates' centres (x, y, z), per lane */
    int32_t idx[12][16];  /* their cell indices */
    int32_t key[3][16];   /* out: the three smallest keys of each lane */
    int32_t ay, az;       /* the cell row the candidates are of (ay INT32_MIN: none yet) */
} cf_aq_row;
void aq_row_init(cf_aq_row *r, const int32_t *cen, int32_t gy0, int32_t cx, int32_t cz, int32_t y, int32_t z);
void aq_row_nearest(cf_aq_row *r, int avx2, int32_t x0, int32_t y, int32_t z);
static inline void aq_row_lane(const cf_aq_row *r, int l, int32_t *i, int32_t *d)
{
    for (int j = 0; j < 3; j++) {
        int32_t k = r->key[j][l];
        d[j] = k >> 4;
        i[j] = r->idx[11 - (k & 15)][l];
    }
}

/* aquifer.c: the blocks of the noise stage (kernels/cf_aquifer.h) */
typedef struct cf_aquifer cf_aquifer;
cf_aquifer *aquifer_new(const cf_world *w); /* NULL when out of memory */
void aquifer_free(cf_aquifer *a);
size_t aquifer_bytes(const cf_program *p); /* what aquifer_new allocates */
/* the block kinds (CF_BK_*) of chunk (cx, cz) from its final density ([y][z][x]) */
void aquifer_chunk(cf_aquifer *a, int32_t cx, int32_t cz, const float *density, uint8_t *out);
/* block by block (the per-column path, colblocks.c): aquifer_begin makes chunk (cx, cz) the one
 * aquifer_block decides in (its cell centres, the skip level from the box's surface levels);
 * aquifer_column makes the chunk of column (x, z) that one lazily (each centre, level and the
 * exact skip level only where a block of a column reads it; the state stays while the columns
 * of one chunk follow each other); aquifer_at says whether chunk (cx, cz) is the one;
 * aquifer_block is the block (CF_BK_*) at (x, y, z) of that chunk with final density `density`
 * (cf_aq_block: the same block as aquifer_chunk's); aquifer_boxes counts aquifer_column's chunks
 * whose every box level a block needed (the skip level exactly) */
void aquifer_begin(cf_aquifer *a, int32_t cx, int32_t cz);
void aquifer_column(cf_aquifer *a, int32_t x, int32_t z);
/* aquifer_column without the column's own level as the skip level's first bound, so that every
 * block of a fresh chunk goes through the comparison with the global fluid (tests) */
void aquifer_column_unbounded(cf_aquifer *a, int32_t x, int32_t z);
int aquifer_at(const cf_aquifer *a, int32_t cx, int32_t cz);
int aquifer_boxes(const cf_aquifer *a);
int aquifer_block(cf_aquifer *a, int32_t x, int32_t y, int32_t z, float density);
/* the palette of a program's block fills: names[CF_BK_*] ("" where unused) */
int aquifer_palette(const cf_program *p, const char **names);

/* colblocks.c: the noise stage's blocks of one column (maps of sampled columns): a context
 * per thread (colblk_new: NULL when out of memory or where colblk_serves is 0: only 26.3 float
 * programs compiled for blocks); colblk_column points it at column (x, z) whose height (the
 * top block with final density > 0 at or below `below`, heights.c) is h; colblk_get is the
 * block (CF_BK_*) at y there, the one cf_fill_blocks gives (air outside the world's rows);
 * colblk_rows the rows of density it computed */
typedef struct cf_colblk cf_colblk;
int colblk_serves(const cf_program *p);
cf_colblk *colblk_new(const cf_world *w);
void colblk_free(cf_colblk *c);
void colblk_column(cf_colblk *c, int32_t x, int32_t z, int32_t h, int32_t below);
int colblk_get(cf_colblk *c, int32_t y);
int colblk_rows(const cf_colblk *c);
/* colblk_column with the column's height searched here (heights_column) and returned */
int32_t colblk_height(cf_colblk *c, int32_t x, int32_t z, int32_t below);
/* the surface stage of the current column (surface.c surface_column on s, a surface_new of the
 * thread) down to its height: colblk_get gives the blocks after it. quart(qu, qx, qy, qz) is
 * the stored biome (source palette index) at a quart. Returns 1 where the column alone is not
 * exact (surface_column) or a context could not be made: the caller fills the chunk */
typedef struct cf_surface cf_surface;
int colblk_surface(cf_colblk *c, cf_surface *s, int (*quart)(void *u, int32_t qx, int32_t qy, int32_t qz), void *qu);

float eval_f32(const cf_world *w, cf_fill *f, int mode, int node, int32_t x, int32_t y, int32_t z);
float eval_point_f32(const cf_world *w, int node, int32_t x, int32_t y, int32_t z); /* MODE_SAMPLE */
/* Many find_top_surface values outside a fill (the aquifer's surface levels): eval_f32 without a
 * fill on MODE_POINT, or eval_volume_f32 with vmin 0 on MODE_VOLUME, the same value, with the
 * scan's memo of y-free nodes kept between calls (not made per call). scan_same_paths: node's
 * value is the same on both paths (no path-dependent kind below it). One cf_scan per thread. */
typedef struct cf_scan cf_scan;
cf_scan *scan_new(const cf_world *w);
void scan_free(cf_scan *s);
int scan_same_paths(const cf_scan *s, int node);
float eval_scan_f32(cf_scan *s, int mode, int node, int32_t x, int32_t y, int32_t z);
/* one point of a volume whose min y is vmin, without a fill context (MODE_VOLUME) */
float eval_volume_f32(const cf_world *w, int node, int32_t x, int32_t y, int32_t z, int32_t vmin);
/* The corner values of interpolated nodes met by eval_volume_memo: a corner is a pure
 * function of (node, x, y, z, the volume's min y) for one world, so columns that share a
 * cell's corners compute them once (26.3's chunk_surface_level: 4 corners a chunk, not 4
 * find_top_surface scans a column). Four slots from a mixed hash, round-robin eviction;
 * zero-initialise; one world only. */
#define CF_CMEMO 64
#define CF_CMEMO_WAYS 4u
typedef struct cf_cmemo {
    struct cf_cmemo_e {
        int id; /* node + 1; 0: empty */
        int32_t x, y, z, vmin;
        float v;
    } e[CF_CMEMO];
    uint32_t next; /* round-robin victim among the CF_CMEMO_WAYS slots of a key */
} cf_cmemo;
float eval_volume_memo(const cf_world *w, cf_cmemo *m, int node, int32_t x, int32_t y, int32_t z, int32_t vmin);
void eval_cmap_free(struct cf_cmap *m); /* a fill context's corner map (fill_free) */
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
/* the same in another mode (EV64_*) of the current chunk; the context's mode is kept */
double eval_f64_mode(ev64_ctx *c, int mode, int node, double x, double y, double z);

/* fill121.c: the staged chunk fill of DIALECT_MC121 (cell by cell: interpolated nodes lerp their
 * corners, computed once per chunk; the block expression per cell of blocks), the same bits as
 * fill121_points (every block through eval64's memo: the reference). A fill belongs to one
 * context c and one output node; final: router:final_density (the cell cache's lerp order, + 0.0) */
typedef struct cf_fill121 cf_fill121;
int fill121_staged(const cf_program *p); /* whether the cells of p tile a chunk (else fill121_new gives NULL) */
size_t fill121_bytes(const cf_program *p); /* what fill121_new allocates, at most */
cf_fill121 *fill121_new(ev64_ctx *c, int node, int final); /* NULL: not staged, or out of memory */
void fill121_free(cf_fill121 *s);
/* chunk (cx, cz) into out ([y][z][x]); leaves c in the chunk's mode (eval64_chunk) */
void fill121_run(cf_fill121 *s, int32_t cx, int32_t cz, double *out);
/* the same for the cell rows holding a block y in [ylo, yhi] only: the others of out are not written */
void fill121_run_rows(cf_fill121 *s, int32_t cx, int32_t cz, int32_t ylo, int32_t yhi, double *out);
/* the same in parts (heights.c's sampled columns): fill121_begin prepares chunk (cx, cz) for the
 * cells marked in cells ([icz * n + icx], n = fill121_cells_per_axis; NULL: every cell), then each
 * fill121_cells writes the cell rows holding a block y in [ylo, yhi] of the cells marked (a subset
 * of begin's), the same bits as a whole fill; the chunk's corners are kept between the calls. A mark
 * 1 is the whole cell, 2 + k one column of it (k = z * cell width + x in the cell): only that
 * column's blocks of out are written */
void fill121_begin(cf_fill121 *s, int32_t cx, int32_t cz, const uint8_t *cells);
void fill121_cells(cf_fill121 *s, int32_t ylo, int32_t yhi, const uint8_t *cells, double *out);
int fill121_cells_per_axis(const cf_fill121 *s);
void fill121_points(ev64_ctx *c, int node, int final, int32_t cx, int32_t cz, double *out);
/* a bound on |value| of each node of a DIALECT_MC121 program p (tables t) into b[nnodes]: INFINITY
 * where none is proven (fill121.c's corner columns: an interpolated input's corners are finite) */
void bound121(const uint8_t *t, const cf_program *p, double *b);
/* tests: n chunks (pairs) of node by both paths; returns the values that differ (-1: not staged
 * or no memory), *values the values compared */
long fill121_check(const cf_world *w, int node, int final, size_t n, const int32_t *chunks, long *values);
int fill121_check_minmax(void); /* tests: the stages' min, max, clamp and squeeze against cf21_*; the values that differ */
/* the pool of double-dialect contexts (fill121.c): a thread's eval64 context and, for DIALECT_MC121,
 * its staged fill of (node, final), kept idle per world between calls (as fill.c's pool does for
 * the float fills: made afresh per call, their first touches are page faults). Reuse gives the
 * same values: the memos and caches are keyed by stamps. */
typedef struct cf_ctx64 {
    ev64_ctx c;
    cf_fill121 *s; /* NULL: not staged (or another dialect): fill121_points / eval64 */
    const cf_world *w;
    int node, final;
    cf_pooled pool; /* fill121.c's pool of idle contexts */
} cf_ctx64;
cf_ctx64 *ctx64_take(const cf_world *w, int node, int final); /* an idle one or a new one; NULL: out of memory */
void ctx64_give(cf_ctx64 *e);
void ctx64_pool_drop(const cf_world *w); /* fill_pool_drop calls it */

/* aquifer121.c: the blocks of the 1.18-1.21 noise stage (aquifer + ore veins, double) of
 * a DIALECT_MC121 program compiled for block fills (outputs CF_B21_*) */
typedef struct cf_blocks121 cf_blocks121;
/* the same kept idle per world between calls (fill_pool_drop frees them): an idle one or a new one */
cf_blocks121 *blocks121_take(const cf_world *w);
void blocks121_give(cf_blocks121 *a);
void blocks121_pool_drop(const cf_world *w);
size_t blocks121_bytes(const cf_program *p);
/* the block kinds (CF_BK_*) of chunk (cx, cz), [y][z][x] */
void blocks121_chunk(cf_blocks121 *a, int32_t cx, int32_t cz, uint8_t *out);

/* aquifer121.c, for the surface stage of the chunk blocks121_chunk filled last: program
 * output `out` at a point (noises), and NoiseChunk.preliminarySurfaceLevel at block (x, z) */
double blocks121_output(cf_blocks121 *a, int out, double x, double y, double z);
int32_t blocks121_surface_level(cf_blocks121 *a, int32_t x, int32_t z);

/* surface.c: the surface stage (ir/rules.h) of a block program with rules: 1.21 (a: the noise
 * stage's context) or 26.3 (a NULL; vol in surface_apply gives volume-path values per chunk) */
#define CF_BLOCK_PALETTE 255 /* the protocol's u8 npalette */
typedef struct cf_surface cf_surface;
/* bnames[0..nb): the biome source's palette (what bgrid holds); zseed: BiomeManager's seed.
 * NULL when out of memory or the palette has more than CF_BLOCK_PALETTE blocks. */
cf_surface *surface_new(const cf_world *w, cf_blocks121 *a, const char *const *bnames, int nb, int64_t zseed);
void surface_free(cf_surface *s);
/* applies the stage to chunk (cx, cz) that blocks121_chunk just filled (blk, [y][z][x]);
 * bgrid: the stored biomes of quarts (4cx-4 .. 4cx+7, all y, 4cz-4 .. 4cz+7), [(qy*12 + qz)*12 + qx] */
void surface_apply(cf_surface *s, int32_t cx, int32_t cz, const uint8_t *bgrid, uint8_t *blk,
                   const float *(*vol)(void *u, int out), void *u);
/* the palette of block fills of p: names[0..n), n returned (-1: more than CF_BLOCK_PALETTE);
 * map (may be NULL) receives the palette index of each rules block, then snow_block, packed_ice */
int surface_palette(const cf_program *p, const char **names, int *map);
/* the palette of the fills' outputs (cf_block_palette): surface_palette's names less the ones
 * no fill writes (""), so that no name is empty; remap (256 entries, may be NULL) receives each
 * internal index's output index. blocks_out_map: that remap where it moves an index, else NULL
 * (and NULL for programs without blocks); blocks_remap applies it to n blocks (NULL: none). */
int block_palette_out(const cf_program *p, const char **names, uint8_t *remap);
const uint8_t *blocks_out_map(const cf_program *p, uint8_t *remap);
void blocks_remap(uint8_t *b, size_t n, const uint8_t *remap);

/* surface.c: the surface stage of one column alone (the maps' sampled columns, colblocks.c),
 * 26.3: column (x, z)'s walk from its top down to walk_end (the lowest block whose result the
 * caller reads) through col's hooks: get/set the column's blocks (the noise stage's, then what
 * the stage wrote), hmap the noise stage's heightmap (top block not air, min_y - 1 where none) of
 * the column at offset (dx, dz) (|dx| + |dz| <= 1, in its chunk), quart the stored biome at a
 * quart, vol output `out` on the volume path at the column's block y. Returns 1 where the
 * column alone is not exact (a neighbour visited before it in the chunk's order raised its
 * heightmap, which `steep` reads): the caller fills the chunk. */
typedef struct cf_sfcol {
    int (*get)(void *u, int32_t y);
    void (*set)(void *u, int32_t y, int b);
    int32_t (*hmap)(void *u, int dx, int dz);
    int (*quart)(void *u, int32_t qx, int32_t qy, int32_t qz);
    float (*vol)(void *u, int out, int32_t y);
    void *u;
    int inexact;
} cf_sfcol;
int surface_column(cf_surface *s, int32_t x, int32_t z, int32_t walk_end, cf_sfcol *col);

/* the tables of the device's surface stage (kernels/cf_surface.h) for biome palette bnames:
 * ints (CF_SF_I_COUNT), psn (5 x 256 bytes), grad (2 per random name, at most maxgrad names).
 * Returns the number of random names, or -1 (no rules, too many names, out of memory). */
int surface_device_tables(const cf_world *w, const char *const *bnames, int nb, int32_t *ints, uint8_t *psn, uint64_t *grad, int maxgrad);

/* jobs.c: noise stage + surface stage of chunks (n pairs); bgrid: per chunk the biome grid
 * of surface_apply (144 * height/4 bytes each); out as fill_chunks_blocks */
cf_status fill_blocks_surface(const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *bgrid,
                              const char *const *bnames, int nb, int64_t zseed, const uint8_t *remap, uint8_t *out, int threads,
                              cf_error *err);

/* eval.c: the block values of interpolated node `node` over the fill region */
void fill_interp_blocks(cf_fill *f, int node);
/* eval.c: the least and greatest corner value of interpolated node id at corner column (x, z) (on
 * its lattice) over the corner rows of the cells holding blocks ylo..yhi, the stale ones computed
 * as fill_interp_blocks computes them (kept for it); 1, or 0 where they are outside f's region */
int fill_interp_hull(cf_fill *f, int id, int32_t x, int32_t z, int32_t ylo, int32_t yhi, float *lo, float *hi);
/* rowops.c: the block stage's element-wise operations over n floats (a row of a window):
 * o[i] = kind(a[i], b[i], c[i]) as eval.c's volume path computes it (lo, hi: the clamp or
 * range_choice bounds; lit: a division by the literal whose reciprocal is r). isa: the
 * lanes, rowop_isa() (CF_NO_AVX512 / CF_NO_AVX2 / CF_NO_SSE step down); the values are the same. */
enum { ROW_ISA_PORTABLE = 0, ROW_ISA_AVX2 = 1, ROW_ISA_AVX512 = 2 };
/* isa.c: the CPU's vector features less the CF_NO_* switches of the environment (each bit
 * answers for its own switch: CF_NO_SSE, CF_NO_AVX2, CF_NO_AVX512) */
enum { CPU_SSE2 = 1, CPU_AVX2 = 2, CPU_AVX512 = 4 /* F BW VL DQ */, CPU_AVX512VBMI = 8 /* F BW VBMI */ };
unsigned cpu_isa(void);
int rowop_isa(void);
void rowop(int isa, int kind, float *restrict o, const float *a, const float *b, const float *c, size_t n, float lo,
           float hi, int lit, float r);
/* how many of a[0..n) lie in [lo, hi) (eq 0) or equal lo (eq 1) */
size_t rowop_count(int isa, const float *a, size_t n, int eq, float lo, float hi);
/* stackrow.c: noise stack s of w at n <= STACK_LANES_MAX points (x[l], y[l], z[l]), the point
 * path's value (eval.c's stack_point) bit for bit, octave outer and points inner; lat: the
 * per-octave cell cache (cf_fill.lat) or NULL. isa: stack_lanes_isa() (CF_NO_* step down) */
enum { STACK_LANES_MAX = 64, STACK_ISA_PORTABLE = 0, STACK_ISA_AVX512 = 1, STACK_ISA_AVX2 = 2 };
int stack_lanes_isa(void);
/* the eight gradient hashes of lattice cell (i, j, k) of permutation p into c (cf_latcell) */
void lat_cell_set(cf_latcell *c, const uint8_t *p, int32_t i, int32_t j, int32_t k);
void stack_lanes(const cf_world *w, int isa, int s, int n, const double *x, const double *y, const double *z, cf_latcell *lat,
               float *out);


/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
int cpu_count(void);  /* cf_cpu_count */
/* cf_fill_blocks with remap NULL (internal indices, CF_BK_* and surface_palette's) or the
 * output indices of block_palette_out: */
cf_status fill_chunks_blocks(const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *remap, uint8_t *out, int threads,
                             cf_error *err);
size_t fill_bytes_per_thread(const cf_program *prog);  /* cf_fill_bytes_per_thread */
/* cf_fill_chunks: */
cf_status fill_chunks(const cf_world *w, int fn, size_t n, const int32_t *chunks, void *out, int threads,
                      cf_error *err);
const char *program_plan(const cf_program *prog);  /* cf_program_plan */
/* cf_surface_heights: */
cf_status surface_heights(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t nx, int32_t nz, int32_t below,
                          int32_t *out, int threads, cf_error *err);
/* cf_surface_samples: */
cf_status surface_samples(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                          int32_t below, int32_t *out, int threads, cf_error *err);

#endif /* CF_CPU_H */
