/* aquifer.c - the blocks of the noise stage on the CPU (MINECRAFT-26.3.md §14).
 *
 * Input: a seeded world whose program holds the aquifer's six functions
 * (outputs "aquifer:<field>", see cf_aquifer_fields) and a chunk's final
 * density. Output: one block kind (CF_BK_*, the palette index) per block.
 * The decision itself is kernels/cf_aquifer.h, shared with the device; this
 * file supplies what the template asks for, lazily, as vanilla does: cell
 * centres, fluid statuses (computed once per chunk and cell), surface levels
 * (the box around the chunk from the volume path, the columns outside it from
 * the point path, each once per chunk) and the functions on the point path.
 * A sampled column (aquifer_column) makes even less: the centres of the cells its blocks
 * are near, the levels its statuses read, and the box's 121 levels (the skip level) only
 * where a block above the bound its known levels give decides other than the global fluid.
 * Surface levels go through eval.c's eval_scan_f32 (its memo kept; one evaluation where
 * the level is the same on both paths).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"

struct cf_aquifer {
    const cf_world *w;
    int fn[6];          /* node of each aquifer function, or -1 */
    int enabled;        /* the settings have aquifers */
    int avx2;           /* aq_nearest_avx2 (CF_NO_AVX2 in the environment: the plain lanes) */
    int32_t sea, fluid; /* sea level, the default fluid's kind */
    int32_t gy0, ny;    /* the grid's y cells */
    int32_t cx, cz;     /* the chunk */
    int32_t skip;       /* its skip level (cf_aq_skip of the box's highest surface; 0 without aquifers),
                         * or where !exact a lower bound of it (the box's levels computed so far) */
    int boxes;          /* aquifer_column's chunks whose skip level a block needed exactly (statistics) */
    int nobound;        /* aquifer_column_unbounded: the levels read do not raise the bound */
    int exact;          /* skip is the chunk's (aquifer_begin; aquifer_column: once every box level is known) */
    int begun;          /* aquifer_begin or aquifer_column was called */
    int32_t *cen;       /* 3 per cell */
    uint8_t *chave;     /* per cell: centre computed (aquifer_column; aquifer_begin computes all) */
    struct cf_aq_fluid *st; /* per cell */
    uint8_t *have;      /* per cell: status computed */
    uint8_t *span;      /* aquifer_span per (cell row, x and z half of the chunk): 0 not asked, 1 every
                         * candidate's status the global fluid, 2 not */
    int32_t lx, lz;     /* the last column of aquifer_column */
    int cols;           /* the columns of this chunk aquifer_column saw (1, then 2: several) */
    int32_t surf[27 * 19]; /* CF_AQ_SQ */
    uint8_t shave[27 * 19];
    /* surface levels across the chunks of one thread, by (quart column, path): neighbouring
     * chunks share most of their box and their outside columns (exact: a pure function) */
    cf_scan *scan;      /* the surface levels' evaluator (eval.c eval_scan_f32) */
    int same;           /* the surface level is the same on the volume and the point path */
    struct aq_slot {
        int32_t qx, qz, v;
        int32_t used; /* 0 empty, 1 point path, 2 volume path */
    } *cache;
};
#define AQ_CACHE 16384 /* slots, a power of two */

typedef struct cf_aquifer aqc;
static float aq_fn(const aqc *a, int k, int32_t x, int32_t y, int32_t z);
static int32_t aq_surface(aqc *a, int32_t x, int32_t z);
static struct cf_aq_fluid aq_status(aqc *a, int32_t i);
#define CF_AQ_CTX aqc *a
#define CF_AQ_ARG a
#define CF_AQ_SEA (a->sea)
#define CF_AQ_FLUID (a->fluid)
#define CF_AQ_SURFACE(x, z) aq_surface(a, (x), (z))
#define CF_AQ_FN(k, x, y, z) aq_fn(a, (k), (x), (y), (z))
#define CF_AQ_STATUS(i) aq_status(a, (i))
#define CF_AQ_CENTRES const int32_t *
#include "kernels/cf_aquifer.h"


static float aq_fn(const aqc *a, int k, int32_t x, int32_t y, int32_t z)
{
    return eval_f32(a->w, NULL, MODE_POINT, a->fn[k], x, y, z);
}

/* floor(surface_level) at quart column (qx, qz) on the point (path 1) or the volume
 * path (2, a volume whose min y is 0), through the thread's cache */
static int32_t aq_level(aqc *a, int32_t qx, int32_t qz, int32_t path)
{
    if (a->same) path = 1; /* one value on both paths: one cache entry */
    uint32_t h = ((uint32_t)qx * 0x9e3779b1u) ^ ((uint32_t)qz * 0x85ebca77u) ^ (uint32_t)path;
    h ^= h >> 15;
    struct aq_slot *e = NULL;
    for (uint32_t k = 0; k < 8; k++) {
        struct aq_slot *c = &a->cache[(h + k) & (AQ_CACHE - 1)];
        if (c->used == path && c->qx == qx && c->qz == qz) return c->v;
        if (!c->used && !e) e = c;
    }
    if (!e) e = &a->cache[h & (AQ_CACHE - 1)]; /* full: replace */
    int node = a->fn[CF_AQF_SURFACE];
    float v = eval_scan_f32(a->scan, path == 2 ? MODE_VOLUME : MODE_POINT, node, qx * 4, 0, qz * 4);
    e->qx = qx, e->qz = qz, e->used = path, e->v = cf_jfloor((double)v);
    return e->v;
}

/* floor(surface_level) at the quart column of block (x, z), as the chunk's aquifer reads it */
static int32_t aq_surface(aqc *a, int32_t x, int32_t z)
{
    int32_t qx = (int32_t)cf_floordiv(x, 4), qz = (int32_t)cf_floordiv(z, 4);
    int32_t ix = qx - (4 * a->cx - 16), iz = qz - (4 * a->cz - 8);
    if (ix < 0 || ix >= CF_AQ_SQX || iz < 0 || iz >= CF_AQ_SQZ) /* cannot happen: the grid covers every read */
        return aq_level(a, qx, qz, 1);
    int k = iz * CF_AQ_SQX + ix;
    if (!a->shave[k]) {
        /* the box (only where aquifer_column left it to be computed as read) from the volume path */
        int box = ix >= 12 && ix < 12 + CF_AQ_BOX && iz >= 4 && iz < 4 + CF_AQ_BOX;
        a->surf[k] = aq_level(a, qx, qz, box ? 2 : 1);
        a->shave[k] = 1;
        if (box && !a->nobound && cf_aq_skip(a->surf[k]) > a->skip) a->skip = cf_aq_skip(a->surf[k]);
    }
    return a->surf[k];
}


static cf_aq_fluid aq_status(aqc *a, int32_t i)
{
    if (!a->have[i]) {
        a->st[i] = cf_aq_compute_fluid(a, a->cen[3 * i], a->cen[3 * i + 1], a->cen[3 * i + 2]);
        a->have[i] = 1;
    }
    return a->st[i];
}

/* the kind of a block id of the settings */
static int32_t fluid_kind(const char *id)
{
    if (strcmp(id, "minecraft:air") == 0) return CF_BK_AIR;
    if (strcmp(id, "minecraft:water") == 0) return CF_BK_WATER;
    if (strcmp(id, "minecraft:lava") == 0) return CF_BK_LAVA;
    return CF_BK_FLUID;
}

int aquifer_palette(const cf_program *p, const char **names)
{
    names[CF_BK_SOLID] = p->default_block ? p->default_block : "minecraft:stone";
    names[CF_BK_AIR] = "minecraft:air";
    names[CF_BK_WATER] = "minecraft:water";
    names[CF_BK_LAVA] = "minecraft:lava";
    const char *fl = p->default_fluid ? p->default_fluid : "minecraft:water";
    names[CF_BK_FLUID] = fluid_kind(fl) == CF_BK_FLUID ? fl : "";
    if (p->ore_veins) { /* 1.18-1.21: OreVeinifier's blocks follow ("" above stays unused) */
        static const char *const veins[CF_BK_VEIN_COUNT - CF_BK_COUNT] = {
            "minecraft:copper_ore", "minecraft:raw_copper_block", "minecraft:granite",
            "minecraft:deepslate_iron_ore", "minecraft:raw_iron_block", "minecraft:tuff"};
        for (int k = CF_BK_COUNT; k < CF_BK_VEIN_COUNT; k++) names[k] = veins[k - CF_BK_COUNT];
        return CF_BK_VEIN_COUNT;
    }
    return names[CF_BK_FLUID][0] ? CF_BK_COUNT : CF_BK_COUNT - 1;
}

size_t aquifer_bytes(const cf_program *p)
{
    size_t cells = (size_t)cf_aq_ny(p->min_y, p->height) * 9;
    return sizeof(aqc) + cells * (3 * sizeof(int32_t) + sizeof(cf_aq_fluid) + 2) + AQ_CACHE * sizeof(struct aq_slot);
}

cf_aquifer *aquifer_new(const cf_world *w)
{
    const cf_program *p = w->prog;
    aqc *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->w = w;
    a->enabled = p->has_aquifers;
    a->sea = p->sea_level;
    a->fluid = fluid_kind(p->default_fluid ? p->default_fluid : "minecraft:water");
    for (int k = 0; k < 6; k++) a->fn[k] = p->aq_out[k] >= 0 ? p->outputs[p->aq_out[k]] : -1;
    a->avx2 = (cpu_isa() & CPU_AVX2) != 0; /* isa.c */
    a->gy0 = cf_aq_gy0(p->min_y);
    a->ny = cf_aq_ny(p->min_y, p->height);
    size_t cells = (size_t)a->ny * 9;
    a->cen = malloc(sizeof(int32_t) * 3 * cells);
    a->st = malloc(sizeof(cf_aq_fluid) * cells);
    a->have = malloc(cells);
    a->chave = malloc(cells);
    a->span = calloc((size_t)a->ny * 4, 1);
    a->cache = calloc(AQ_CACHE, sizeof *a->cache);
    a->scan = scan_new(w);
    if (!a->cen || !a->st || !a->have || !a->chave || !a->span || !a->cache || !a->scan) {
        aquifer_free(a);
        return NULL;
    }
    a->same = a->fn[CF_AQF_SURFACE] >= 0 && scan_same_paths(a->scan, a->fn[CF_AQF_SURFACE]);
    return a;
}

void aquifer_free(cf_aquifer *a)
{
    if (!a) return;
    free(a->cen), free(a->st), free(a->have), free(a->chave), free(a->span), free(a->cache);
    scan_free(a->scan);
    free(a);
}

/* the nearest aquifer cells of a row of blocks (cpu.h cf_aq_row), shared with aquifer121.c */
void aq_row_init(cf_aq_row *r, const int32_t *cen, int32_t gy0, int32_t cx, int32_t cz, int32_t y, int32_t z)
{
    cf_i32 ay = (cf_i32)cf_floordiv(y + 1, 12), az = (cf_i32)cf_floordiv(z - 5, 16);
    if (r->ay == ay && r->az == az) return; /* the candidates of the last row */
    r->ay = ay, r->az = az;
    for (int h = 0; h < 2; h++) {
        cf_i32 ax = (cf_i32)cf_floordiv(cx * 16 + (h ? 5 : 0) - 5, 16);
        int k = 0;
        for (int x1 = 0; x1 <= 1; x1++)
            for (int y1 = -1; y1 <= 1; y1++)
                for (int z1 = 0; z1 <= 1; z1++, k++) {
                    cf_i32 i = ((ay + y1 - gy0) * 3 + az + z1 - cz + 1) * 3 + ax + x1 - cx + 1;
                    for (int l = h ? 5 : 0; l < (h ? 16 : 5); l++) {
                        r->idx[k][l] = i;
                        for (int e = 0; e < 3; e++) r->c[e][k][l] = cen[3 * i + e];
                    }
                }
    }
}

/* the keys of the row's blocks x0 + l, l in [0, 16), at (y, z): 8 lanes a vector (GCC's vector
 * extensions; the plain build takes two SSE2 halves) */
typedef cf_i32 aq_v8 __attribute__((vector_size(32)));
#define AQ_SEL(m, a, b) (((m) & (a)) | (~(m) & (b)))
#define AQ_NEAREST_BODY                                                                          \
    {                                                                                            \
        for (int h = 0; h < 2; h++) {                                                            \
            aq_v8 X = {0, 1, 2, 3, 4, 5, 6, 7}, MX = X * 0 + 2147483647, key[12], c, k0, k1, k2; \
            X = X + (x0 + 8 * h);                                                                \
            for (int k = 0; k < 12; k++) {                                                       \
                aq_v8 dd;                                                                        \
                memcpy(&c, &r->c[0][k][8 * h], sizeof c);                                        \
                dd = (c - X) * (c - X);                                                          \
                memcpy(&c, &r->c[1][k][8 * h], sizeof c);                                        \
                dd = dd + (c - y) * (c - y);                                                     \
                memcpy(&c, &r->c[2][k][8 * h], sizeof c);                                        \
                dd = dd + (c - z) * (c - z);                                                     \
                key[k] = dd * 16 + (11 - k);                                                     \
            }                                                                                    \
            k0 = key[0], k1 = MX, k2 = MX;                                                       \
            for (int k = 1; k < 12; k++) k0 = AQ_SEL(key[k] < k0, key[k], k0);                   \
            for (int k = 0; k < 12; k++) { /* the keys are distinct */                           \
                aq_v8 t = AQ_SEL(key[k] > k0, key[k], MX);                                       \
                k1 = AQ_SEL(t < k1, t, k1);                                                      \
            }                                                                                    \
            for (int k = 0; k < 12; k++) {                                                       \
                aq_v8 t = AQ_SEL(key[k] > k1, key[k], MX);                                       \
                k2 = AQ_SEL(t < k2, t, k2);                                                      \
            }                                                                                    \
            memcpy(&r->key[0][8 * h], &k0, sizeof k0);                                           \
            memcpy(&r->key[1][8 * h], &k1, sizeof k1);                                           \
            memcpy(&r->key[2][8 * h], &k2, sizeof k2);                                           \
        }                                                                                        \
    }
static void aq_nearest_plain(cf_aq_row *r, cf_i32 x0, cf_i32 y, cf_i32 z) AQ_NEAREST_BODY
__attribute__((target("avx2"))) static void aq_nearest_avx2(cf_aq_row *r, cf_i32 x0, cf_i32 y, cf_i32 z) AQ_NEAREST_BODY
#undef AQ_NEAREST_BODY
#undef AQ_SEL

void aq_row_nearest(cf_aq_row *r, int avx2, int32_t x0, int32_t y, int32_t z)
{
    if (avx2) aq_nearest_avx2(r, x0, y, z);
    else aq_nearest_plain(r, x0, y, z);
}

/* the box's level at quart column (qx, qz) (volume path), raising the skip level's bound */
static int32_t box_level(aqc *a, int32_t qx, int32_t qz)
{
    return aq_surface(a, qx * 4, qz * 4);
}

void aquifer_begin(cf_aquifer *a, int32_t cx, int32_t cz)
{
    const cf_program *p = a->w->prog;
    int32_t skip = 0;
    a->cx = cx, a->cz = cz, a->begun = 1, a->exact = 1;
    if (a->enabled) {
        for (int32_t gy = 0; gy < a->ny; gy++)
            for (int32_t gz = 0; gz < 3; gz++)
                for (int32_t gx = 0; gx < 3; gx++) {
                    size_t i = ((size_t)gy * 3 + (size_t)gz) * 3 + (size_t)gx;
                    cf_aq_centre(a->w->aq_lo, a->w->aq_hi, p->legacy_random, cx - 1 + gx, a->gy0 + gy, cz - 1 + gz,
                                 &a->cen[3 * i]);
                }
        memset(a->chave, 1, (size_t)a->ny * 9);
        memset(a->have, 0, (size_t)a->ny * 9);
        memset(a->span, 0, (size_t)a->ny * 4);
        memset(a->shave, 0, sizeof a->shave);
        /* the box: the volume path (NoiseBasedAquifer's maxSurfaceLevel fills the cache) */
        int32_t mx = INT32_MIN;
        for (int32_t iz = 0; iz < CF_AQ_BOX; iz++)
            for (int32_t ix = 0; ix < CF_AQ_BOX; ix++) {
                int32_t qx = 4 * cx - 4 + ix, qz = 4 * cz - 4 + iz;
                int k = (qz - (4 * cz - 8)) * CF_AQ_SQX + (qx - (4 * cx - 16));
                a->surf[k] = aq_level(a, qx, qz, 2);
                a->shave[k] = 1;
                if (a->surf[k] > mx) mx = a->surf[k];
            }
        skip = cf_aq_skip(mx);
    }
    a->skip = skip;
}

/* The per-column form: the chunk's state is made as the column's blocks read it. A cell's
 * centre when it is a candidate of a block, a surface level (the box's too) when a status or
 * the skip level reads it. The skip level stays a lower bound (cf_aq_skip of the box's levels
 * known: skip is monotone in them) until a block needs it exactly (aquifer_block). */
static void column_at(aqc *a, int32_t x, int32_t z, int bound)
{
    int32_t cx = (int32_t)cf_floordiv(x, 16), cz = (int32_t)cf_floordiv(z, 16);
    if (!aquifer_at(a, cx, cz) || a->nobound != !bound) {
        a->cx = cx, a->cz = cz, a->begun = 1, a->nobound = !bound;
        a->exact = !a->enabled, a->skip = a->enabled ? INT32_MIN : 0;
        if (a->enabled) {
            memset(a->chave, 0, (size_t)a->ny * 9);
            memset(a->have, 0, (size_t)a->ny * 9);
            memset(a->shave, 0, sizeof a->shave);
            memset(a->span, 0, (size_t)a->ny * 4);
        }
        a->cols = 0;
    }
    if (!a->cols || a->lx != x || a->lz != z) a->cols = a->cols ? 2 : 1, a->lx = x, a->lz = z;
    /* the column's own quart column is in the box: a first bound */
    if (bound && a->enabled && !a->exact) box_level(a, (int32_t)cf_floordiv(x, 4), (int32_t)cf_floordiv(z, 4));
}

void aquifer_column(cf_aquifer *a, int32_t x, int32_t z) { column_at(a, x, z, 1); }
void aquifer_column_unbounded(cf_aquifer *a, int32_t x, int32_t z) { column_at(a, x, z, 0); }

/* every level of the box: the exact skip level */
static void box_all(aqc *a)
{
    int32_t mx = INT32_MIN;
    for (int32_t iz = 0; iz < CF_AQ_BOX; iz++)
        for (int32_t ix = 0; ix < CF_AQ_BOX; ix++) {
            int32_t v = box_level(a, 4 * a->cx - 4 + ix, 4 * a->cz - 4 + iz);
            mx = v > mx ? v : mx;
        }
    a->skip = cf_aq_skip(mx), a->exact = 1, a->nobound = 0, a->boxes++;
}

/* the centres of block (x, y, z)'s candidate cells (cf_aq_nearest's twelve) */
static void centres_of(aqc *a, int32_t x, int32_t y, int32_t z)
{
    const cf_program *p = a->w->prog;
    int32_t ax = (int32_t)cf_floordiv(x - 5, 16), ay = (int32_t)cf_floordiv(y + 1, 12), az = (int32_t)cf_floordiv(z - 5, 16);
    for (int32_t x1 = 0; x1 <= 1; x1++)
        for (int32_t y1 = -1; y1 <= 1; y1++)
            for (int32_t z1 = 0; z1 <= 1; z1++) {
                int32_t gx = ax + x1, gy = ay + y1, gz = az + z1;
                int32_t i = ((gy - a->gy0) * 3 + gz - a->cz + 1) * 3 + gx - a->cx + 1;
                if (a->chave[i]) continue;
                cf_aq_centre(a->w->aq_lo, a->w->aq_hi, p->legacy_random, gx, gy, gz, &a->cen[3 * i]);
                a->chave[i] = 1;
            }
}

int aquifer_at(const cf_aquifer *a, int32_t cx, int32_t cz) { return a->begun && a->cx == cx && a->cz == cz; }
int aquifer_boxes(const cf_aquifer *a) { return a->boxes; }

int aquifer_block(cf_aquifer *a, int32_t x, int32_t y, int32_t z, float density)
{
    if (a->exact || density > 0.0f) return cf_aq_block(a, a->cen, a->cx, a->cz, a->gy0, a->skip, a->enabled, x, y, z, density);
    centres_of(a, x, y, z);
    if ((int64_t)y <= (int64_t)a->skip - 1) /* below the bound: below the chunk's skip level too */
        return cf_aq_block(a, a->cen, a->cx, a->cz, a->gy0, a->skip, 1, x, y, z, density);
    /* Above the bound: the decision (a pure function of the position and the density, which
     * vanilla asks only below the skip level) against the global fluid above it; where they
     * agree, either is the block. Else the skip level decides: the whole box. */
    int32_t g = cf_aq_at(cf_aq_global(a->sea, a->fluid, y), y);
    int32_t d = cf_aq_block(a, a->cen, a->cx, a->cz, a->gy0, INT32_MAX, 1, x, y, z, density);
    if (d == g || (int64_t)y <= (int64_t)a->skip - 1) return d; /* the statuses may have raised the bound */
    box_all(a);
    return (int64_t)y <= (int64_t)a->skip - 1 ? d : g;
}

/* The rows of block (x, y, z)'s span (the rows whose candidate cells are y's: floor((y + 1) / 12)
 * the same, and the same global fluid G as y), within [ylo, yhi]. Where the status of every cell
 * the decision of a row there reads (cf_aq_needs of its nearest cells: the statuses the row's own
 * decision would compute) is G, every block of those rows with density <= 0 is cf_aq_at(G, row):
 * cf_aq_decide's nearest status is G, and equal statuses make no pressure, so no barrier gives
 * stone at density <= 0; above the skip level (any skip level) the block is G's too, so the skip
 * level is not needed. Then 1, the rows in [*lo, *hi] and G in *level, *kind; else 0 (the
 * statuses computed are the chunk's, kept). */
int aquifer_span(cf_aquifer *a, int32_t x, int32_t y, int32_t z, int32_t ylo, int32_t yhi, int32_t *lo, int32_t *hi,
                 int32_t *level, int *kind)
{
    int32_t ay = (int32_t)cf_floordiv((int64_t)y + 1, 12), gl = a->sea < -54 ? a->sea : -54;
    int64_t l = (int64_t)ay * 12 - 1, h = (int64_t)ay * 12 + 10;
    if (y < gl) h = h < gl - 1 ? h : gl - 1;
    else l = l > gl ? l : gl;
    l = l > ylo ? l : ylo, h = h < yhi ? h : yhi;
    cf_aq_fluid g = cf_aq_global(a->sea, a->fluid, y);
    *level = g.level, *kind = g.kind;
    *lo = (int32_t)l, *hi = (int32_t)h;
    if (!a->enabled) return 1;
    if (ay - 1 - a->gy0 < 0 || ay + 1 - a->gy0 >= a->ny) return 0;
    centres_of(a, x, y, z);
    /* a chunk several columns read: whether all twelve candidates hold G, once for every column
     * of its x and z halves (ax, az: cx - 1 or cx); one column alone: the statuses its rows read */
    int32_t ax = (int32_t)cf_floordiv(x - 5, 16), az = (int32_t)cf_floordiv(z - 5, 16);
    uint8_t *m = &a->span[((ay - a->gy0) * 2 + az - a->cz + 1) * 2 + ax - a->cx + 1];
    int two = (int64_t)ay * 12 - 1 < gl && gl <= (int64_t)ay * 12 + 10; /* two global fluids in the cell row */
    if (!two && (*m || a->cols > 1)) {
        if (!*m) {
            *m = 1;
            for (int32_t x1 = 0; x1 <= 1 && *m == 1; x1++)
                for (int32_t y1 = -1; y1 <= 1 && *m == 1; y1++)
                    for (int32_t z1 = 0; z1 <= 1; z1++) {
                        int32_t i = ((ay + y1 - a->gy0) * 3 + az + z1 - a->cz + 1) * 3 + ax + x1 - a->cx + 1;
                        cf_aq_fluid s = aq_status(a, i);
                        if (s.level != g.level || s.kind != g.kind) {
                            *m = 2;
                            break;
                        }
                    }
        }
        return *m == 1;
    }
    for (int32_t r = (int32_t)l; r <= h; r++) {
        cf_i32 i[3], d[3];
        cf_aq_nearest(a->cen, a->cx, a->cz, a->gy0, x, r, z, i, d);
        int need = cf_aq_needs(d);
        for (int k = 0; k < 3; k++) {
            if (!(need & (1 << k))) continue;
            cf_aq_fluid s = aq_status(a, i[k]);
            if (s.level != g.level || s.kind != g.kind) return 0;
        }
    }
    return 1;
}

void aquifer_chunk(cf_aquifer *a, int32_t cx, int32_t cz, const float *density, uint8_t *out)
{
    const cf_program *p = a->w->prog;
    int32_t h = p->height, y0 = p->min_y;
    aquifer_begin(a, cx, cz);
    int32_t skip = a->skip;
    /* the blocks in memory order, a row of 16 at a time (every value the decision reads is a pure
     * function of its position or of a cell: the order of the lazy statuses and barriers changes
     * nothing). A row above the skip level, or in the global lava, takes the global fluid wherever
     * the density is <= 0 (cf_aq_block's first three tests); the others go through cf_aq_decide
     * with the nearest cells of aq_nearest. */
    cf_aq_row row;
    row.ay = INT32_MIN, row.az = 0;
    for (int32_t y = 0; y < h; y++) {
        int32_t by = y0 + y;
        cf_aq_fluid g = cf_aq_global(a->sea, a->fluid, by);
        uint8_t gk = (uint8_t)cf_aq_at(g, by);
        const float *dr = density + (size_t)y * 256;
        uint8_t *orow = out + (size_t)y * 256;
        if (!a->enabled || by > skip - 1 || gk == CF_BK_LAVA) {
            for (int k = 0; k < 256; k++) orow[k] = dr[k] > 0.0f ? (uint8_t)CF_BK_SOLID : gk;
            continue;
        }
        for (int32_t z = 0; z < 16; z++) {
            const float *dz = dr + z * 16;
            uint8_t *oz = orow + z * 16;
            int any = 0;
            for (int x = 0; x < 16; x++) any |= !(dz[x] > 0.0f);
            if (!any) {
                memset(oz, CF_BK_SOLID, 16);
                continue;
            }
            aq_row_init(&row, a->cen, a->gy0, cx, cz, by, cz * 16 + z);
            aq_row_nearest(&row, a->avx2, cx * 16, by, cz * 16 + z);
            for (int32_t x = 0; x < 16; x++) {
                if (dz[x] > 0.0f) {
                    oz[x] = CF_BK_SOLID;
                    continue;
                }
                cf_i32 ni[3], nd[3];
                aq_row_lane(&row, x, ni, nd);
                oz[x] = (uint8_t)cf_aq_decide(a, cx * 16 + x, by, cz * 16 + z, dz[x], ni, nd);
            }
        }
    }
}
