/* aquifer121.c - the blocks of the 1.18-1.21 noise stage on the CPU: vanilla's
 * fillFromNoise, MaterialRuleList[aquifer, OreVeinifier] (MATERIAL-RULES.md §1, §3).
 *
 * Input: a seeded world of a DIALECT_MC121 program compiled for block fills
 * (outputs CF_B21_*, ir/ir.h). Output: one block kind (CF_BK_*) per block of a
 * chunk, index [y][z][x]. Everything is 1.21's double arithmetic:
 *  - final_density through NoiseChunk's cell cache (eval64.c EV64_CELL, + the
 *    beardifier's 0.0), as the density fill;
 *  - the aquifer is kernels/cf_aquifer.h instantiated with double values; its
 *    functions are read as NoiseChunk's wrapped router reads them at a
 *    SinglePointContext (EV64_CORNER: flat_cache reads the chunk's quart cache,
 *    interpolated passes its input through), the barrier at the block (EV64_VALUE);
 *    the exclusion is 1.21's deep dark test, erosion < -0.225f && depth > 0.9f;
 *    the surface level is floor(preliminary_surface_level(x, 0, z)) at the quart column;
 *  - the ore veins only where the aquifer returned null (density > 0 or a
 *    barrier), the vein fields read per block outside the cell cache
 *    (EV64_VALUE: interpolated lerps y, x, z), the draws from positional("minecraft:ore").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"

struct cf_blocks121 {
    const cf_world *w;
    ev64_ctx c;
    int fn[CF_B21_COUNT]; /* node of each output */
    int enabled, veins, legacy;
    int avx2; /* aq_row_nearest's AVX2 lanes (CF_NO_AVX2 in the environment: the plain lanes) */
    int32_t sea, fluid;
    int32_t gy0, ny;
    int32_t cx, cz;
    int32_t *cen;
    struct cf_aq_fluid *st;
    uint8_t *have;
    int32_t surf[27 * 19];
    uint8_t shave[27 * 19];
    double *dens; /* the chunk's final density [y][z][x] */
    cf_fill121 *staged; /* fill121.c's fill of it, or NULL (every block through eval64) */
    cf_fill121 *vstaged; /* the ore veins' toggle over the chunk (fill121.c, y, x, z as EV64_VALUE), or NULL */
    double *vtog;        /* its values [y][z][x] */
    struct b21_slot {
        int32_t qx, qz, v, used;
    } *cache;
    cf_pooled pool; /* the idle list (blocks121_take / blocks121_give, pool.c) */
};
#define B21_CACHE 16384 /* surface levels across the chunks of one thread (a pure function of the column) */

typedef struct cf_blocks121 b21;
static double b21_fn(b21 *a, int k, int32_t x, int32_t y, int32_t z);
static int b21_excluded(b21 *a, int32_t x, int32_t y, int32_t z);
static int32_t b21_surface(b21 *a, int32_t x, int32_t z);
static struct cf_aq_fluid b21_status(b21 *a, int32_t i);
#define CF_AQ_CTX b21 *a
#define CF_AQ_ARG a
#define CF_AQ_REAL double
#define CF_AQ_SEA (a->sea)
#define CF_AQ_FLUID (a->fluid)
#define CF_AQ_SURFACE(x, z) b21_surface(a, (x), (z))
#define CF_AQ_FN(k, x, y, z) b21_fn(a, (k), (x), (y), (z))
#define CF_AQ_EXCLUDED(x, y, z) b21_excluded(a, (x), (y), (z))
#define CF_AQ_STATUS(i) b21_status(a, (i))
#define CF_AQ_CENTRES const int32_t *
#include "kernels/cf_aquifer.h"

static double b21_at(b21 *a, int mode, int out, int32_t x, int32_t y, int32_t z)
{
    return eval_f64_mode(&a->c, mode, a->fn[out], (double)x, (double)y, (double)z);
}

/* the aquifer's functions (CF_AQF_*) as 1.21's NoiseBasedAquifer reads them */
static double b21_fn(b21 *a, int k, int32_t x, int32_t y, int32_t z)
{
    switch (k) {
    case CF_AQF_BARRIER: return b21_at(a, EV64_VALUE, CF_B21_BARRIER, x, y, z); /* at the block (the NoiseChunk context) */
    case CF_AQF_FLOODEDNESS: return b21_at(a, EV64_CORNER, CF_B21_FLOODEDNESS, x, y, z);
    case CF_AQF_SPREAD: return b21_at(a, EV64_CORNER, CF_B21_SPREAD, x, y, z);
    case CF_AQF_LAVA: return b21_at(a, EV64_CORNER, CF_B21_LAVA, x, y, z);
    default: return 0.0;
    }
}

/* OverworldBiomeBuilder.isDeepDarkRegion: erosion < -0.225F && depth > 0.9F (compared as doubles) */
static int b21_excluded(b21 *a, int32_t x, int32_t y, int32_t z)
{
    return b21_at(a, EV64_CORNER, CF_B21_EROSION, x, y, z) < (double)-0.225f
           && b21_at(a, EV64_CORNER, CF_B21_DEPTH, x, y, z) > (double)0.9f;
}

/* NoiseChunk.preliminarySurfaceLevel: floor(preliminary_surface_level(qx*4, 0, qz*4)), cached */
static int32_t b21_level(b21 *a, int32_t qx, int32_t qz)
{
    uint32_t h = ((uint32_t)qx * 0x9e3779b1u) ^ ((uint32_t)qz * 0x85ebca77u);
    h ^= h >> 15;
    struct b21_slot *e = NULL;
    for (uint32_t k = 0; k < 8; k++) {
        struct b21_slot *c = &a->cache[(h + k) & (B21_CACHE - 1)];
        if (c->used && c->qx == qx && c->qz == qz) return c->v;
        if (!c->used && !e) e = c;
    }
    if (!e) e = &a->cache[h & (B21_CACHE - 1)];
    double v = b21_at(a, EV64_CORNER, CF_B21_SURFACE, qx * 4, 0, qz * 4);
    e->qx = qx, e->qz = qz, e->used = 1, e->v = cf_jfloor(v);
    return e->v;
}

static int32_t b21_surface(b21 *a, int32_t x, int32_t z)
{
    int32_t qx = (int32_t)cf_floordiv(x, 4), qz = (int32_t)cf_floordiv(z, 4);
    int32_t ix = qx - (4 * a->cx - 16), iz = qz - (4 * a->cz - 8);
    if (ix < 0 || ix >= CF_AQ_SQX || iz < 0 || iz >= CF_AQ_SQZ) return b21_level(a, qx, qz);
    int k = iz * CF_AQ_SQX + ix;
    if (!a->shave[k]) {
        a->surf[k] = b21_level(a, qx, qz);
        a->shave[k] = 1;
    }
    return a->surf[k];
}

static cf_aq_fluid b21_status(b21 *a, int32_t i)
{
    if (!a->have[i]) {
        a->st[i] = cf_aq_compute_fluid(a, a->cen[3 * i], a->cen[3 * i + 1], a->cen[3 * i + 2]);
        a->have[i] = 1;
    }
    return a->st[i];
}

static int32_t fluid_kind(const char *id)
{
    if (strcmp(id, "minecraft:air") == 0) return CF_BK_AIR;
    if (strcmp(id, "minecraft:water") == 0) return CF_BK_WATER;
    if (strcmp(id, "minecraft:lava") == 0) return CF_BK_LAVA;
    return CF_BK_FLUID;
}

size_t blocks121_bytes(const cf_program *p)
{
    size_t cells = (size_t)cf_aq_ny(p->min_y, p->height) * 9;
    return sizeof(b21) + cells * (3 * sizeof(int32_t) + sizeof(cf_aq_fluid) + 1) + B21_CACHE * sizeof(struct b21_slot)
           + 2 * (sizeof(double) * (size_t)p->height * 256 + fill121_bytes(p));
}

static void blocks121_free(cf_blocks121 *a);
/* a DIALECT_MC121 block fill's state: NULL when out of memory */
static cf_blocks121 *blocks121_new(const cf_world *w)
{
    const cf_program *p = w->prog;
    b21 *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->w = w, a->pool.w = w;
    if (eval64_init(&a->c, w) < 0) {
        free(a);
        return NULL;
    }
    a->enabled = p->has_aquifers;
    a->veins = p->ore_veins;
    a->legacy = p->legacy_random;
    a->avx2 = (cpu_isa() & CPU_AVX2) != 0; /* isa.c */
    a->sea = p->sea_level;
    a->fluid = fluid_kind(p->default_fluid ? p->default_fluid : "minecraft:water");
    for (int k = 0; k < CF_B21_COUNT; k++) a->fn[k] = p->outputs[k];
    a->gy0 = cf_aq_gy0(p->min_y);
    a->ny = cf_aq_ny(p->min_y, p->height);
    size_t cells = (size_t)a->ny * 9;
    a->cen = malloc(sizeof(int32_t) * 3 * cells);
    a->st = malloc(sizeof(cf_aq_fluid) * cells);
    a->have = malloc(cells);
    a->cache = calloc(B21_CACHE, sizeof *a->cache);
    a->dens = malloc(sizeof(double) * (size_t)p->height * 256);
    a->staged = fill121_new(&a->c, a->fn[CF_B21_FINAL], 1);
    if (a->veins && fill121_staged(p)) {
        a->vstaged = fill121_new(&a->c, a->fn[CF_B21_VEIN_TOGGLE], 0);
        a->vtog = malloc(sizeof(double) * (size_t)p->height * 256);
    }
    if (!a->cen || !a->st || !a->have || !a->cache || !a->dens || (!a->staged && fill121_staged(p)) ||
        (a->veins && fill121_staged(p) && (!a->vstaged || !a->vtog))) {
        blocks121_free(a);
        return NULL;
    }
    return a;
}

static void blocks121_free(cf_blocks121 *a)
{
    if (!a) return;
    fill121_free(a->staged);
    fill121_free(a->vstaged);
    free(a->vtog);
    eval64_free(&a->c);
    free(a->cen), free(a->st), free(a->have), free(a->cache), free(a->dens);
    free(a);
}

/* OreVeinifier at a block the aquifer left null: a vein kind, or CF_BK_SOLID */
static uint8_t b21_vein(b21 *a, int32_t x, int32_t y, int32_t z)
{
    if (y < -60 || y > 50) return CF_BK_SOLID; /* outside both veins' y ranges: null whatever the toggle */
    double toggle = a->vstaged ? a->vtog[((size_t)(y - a->w->prog->min_y) * 16 + (size_t)(z - a->cz * 16)) * 16 + (size_t)(x - a->cx * 16)]
                               : b21_at(a, EV64_VALUE, CF_B21_VEIN_TOGGLE, x, y, z);
    cf_aq_rnd r;
    cf_i32 filler = cf_aq_vein_start(a->w->ore_lo, a->w->ore_hi, a->legacy, x, y, z, toggle, &r);
    if (filler < 0) return CF_BK_SOLID;
    if (b21_at(a, EV64_VALUE, CF_B21_VEIN_RIDGED, x, y, z) >= 0.0) return CF_BK_SOLID;
    if (cf_aq_vein_draw(toggle, &r, a->legacy) && b21_at(a, EV64_VALUE, CF_B21_VEIN_GAP, x, y, z) > (double)-0.3f)
        return (uint8_t)cf_aq_vein_ore(filler, &r, a->legacy);
    return (uint8_t)filler;
}

void blocks121_chunk(cf_blocks121 *a, int32_t cx, int32_t cz, uint8_t *out)
{
    const cf_program *p = a->w->prog;
    int32_t h = p->height, y0 = p->min_y, skip = 0;
    a->cx = cx, a->cz = cz;
    /* the density, through the cell cache (fill121.c; it leaves the context in the chunk's cell mode) */
    if (a->staged) fill121_run(a->staged, cx, cz, a->dens);
    else eval64_chunk(&a->c, cx, cz, EV64_CELL);
    for (int32_t y = 0; !a->staged && y < h; y++)
        for (int32_t z = 0; z < 16; z++)
            for (int32_t x = 0; x < 16; x++)
                a->dens[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] =
                    eval_f64(&a->c, a->fn[CF_B21_FINAL], (double)(cx * 16 + x), (double)(y0 + y), (double)(cz * 16 + z)) + 0.0;
    /* the aquifer */
    if (a->enabled) {
        for (int32_t gy = 0; gy < a->ny; gy++)
            for (int32_t gz = 0; gz < 3; gz++)
                for (int32_t gx = 0; gx < 3; gx++) {
                    size_t i = ((size_t)gy * 3 + (size_t)gz) * 3 + (size_t)gx;
                    cf_aq_centre(a->w->aq_lo, a->w->aq_hi, a->legacy, cx - 1 + gx, a->gy0 + gy, cz - 1 + gz, &a->cen[3 * i]);
                }
        memset(a->have, 0, (size_t)a->ny * 9);
        memset(a->shave, 0, sizeof a->shave);
        int32_t mx = INT32_MIN;
        for (int32_t iz = 0; iz < CF_AQ_BOX; iz++)
            for (int32_t ix = 0; ix < CF_AQ_BOX; ix++) {
                int32_t v = b21_surface(a, (4 * cx - 4 + ix) * 4, (4 * cz - 4 + iz) * 4);
                if (v > mx) mx = v;
            }
        skip = cf_aq_skip(mx);
    }
    /* the blocks in memory order, a row of 16 at a time (every value the decision reads is a pure
     * function of its position or of a cell: the order of the lazy statuses and barriers changes
     * nothing). A row above the skip level, or in the global lava, takes the global fluid wherever
     * the density is <= 0 (cf_aq_block's first three tests); the others go through
     * cf_aq_decide with the nearest cells of aq_row_nearest (aquifer.c). */
    cf_aq_row row; /* aquifer.c's nearest cells of a row */
    row.ay = INT32_MIN, row.az = 0;
    for (int32_t y = 0; y < h; y++) {
        int32_t by = y0 + y;
        cf_aq_fluid g = cf_aq_global(a->sea, a->fluid, by);
        uint8_t gk = (uint8_t)cf_aq_at(g, by);
        const double *dr = a->dens + (size_t)y * 256;
        uint8_t *orow = out + (size_t)y * 256;
        if (!a->enabled || by > skip - 1 || gk == CF_BK_LAVA) {
            for (int k = 0; k < 256; k++) orow[k] = dr[k] > 0.0 ? (uint8_t)CF_BK_SOLID : gk;
            continue;
        }
        for (int32_t z = 0; z < 16; z++) {
            const double *dz = dr + z * 16;
            uint8_t *oz = orow + z * 16;
            int any = 0;
            for (int x = 0; x < 16; x++) any |= !(dz[x] > 0.0);
            if (!any) {
                memset(oz, CF_BK_SOLID, 16);
                continue;
            }
            aq_row_init(&row, a->cen, a->gy0, cx, cz, by, cz * 16 + z);
            aq_row_nearest(&row, a->avx2, cx * 16, by, cz * 16 + z);
            for (int32_t x = 0; x < 16; x++) {
                if (dz[x] > 0.0) {
                    oz[x] = CF_BK_SOLID;
                    continue;
                }
                cf_i32 ni[3], nd[3];
                aq_row_lane(&row, x, ni, nd);
                oz[x] = (uint8_t)cf_aq_decide(a, cx * 16 + x, by, cz * 16 + z, dz[x], ni, nd);
            }
        }
    }
    /* the ore veins where the aquifer returned null; the toggle over the chunk by the staged fill
     * (the values of eval64's EV64_VALUE at each block: mc121::staged_fill_equals_block_path) */
    if (a->vstaged) fill121_run_rows(a->vstaged, cx, cz, -60, 50, a->vtog); /* b21_vein's y range */
    if (a->veins) /* b21_vein's y range only */
        for (int32_t y = y0 > -60 ? 0 : -60 - y0; y < h && y0 + y <= 50; y++) {
            /* cf_aq_vein_start's first test with its per-y terms once a row: a block whose
             * |toggle| + f(y) is below 0.4f there (or outside its vein's y range) stays solid */
            double lim[2]; /* [copper] the least |toggle| that passes (as the sum), or +inf */
            for (int copper = 0; copper < 2; copper++) {
                int32_t by = y0 + y, j = copper ? 50 - by : -8 - by, k = copper ? by - 0 : by - -60;
                double l = (double)(j < k ? j : k), t = l / 20.0;
                lim[copper] = (k < 0 || j < 0) ? INFINITY : t < 0.0 ? -0.2 : t > 1.0 ? 0.0 : -0.2 + t * (0.0 - -0.2);
            }
            for (int32_t z = 0; z < 16; z++)
                for (int32_t x = 0; x < 16; x++) {
                    size_t i = ((size_t)y * 16 + (size_t)z) * 16 + (size_t)x;
                    if (out[i] != CF_BK_SOLID) continue;
                    if (a->vstaged) {
                        double tg = a->vtog[i], f = lim[tg > 0.0];
                        if (f == INFINITY || cf_fabs(tg) + f < (double)0.4f) continue;
                    }
                    out[i] = b21_vein(a, cx * 16 + x, y0 + y, cz * 16 + z);
                }
        }
    eval64_chunk(&a->c, 0, 0, EV64_POINT);
}

double blocks121_output(cf_blocks121 *a, int out, double x, double y, double z)
{
    return eval_f64_mode(&a->c, EV64_VALUE, a->w->prog->outputs[out], x, y, z);
}

int32_t blocks121_surface_level(cf_blocks121 *a, int32_t x, int32_t z) { return b21_surface(a, x, z); }

/* ------------------------------------------------------------------ the context pool
 * A context holds about 2 MB (the chunk's densities, the veins' toggle, the surface cache, two
 * staged fills): kept idle per world between calls, as fill.c's pool of float contexts. Its
 * caches are pure functions of the position or reset per chunk: a reused one gives the same
 * blocks. */
static cf_pool b21_pool = CF_POOL_INIT(64);

cf_blocks121 *blocks121_take(const cf_world *w)
{
    cf_pooled *o = pool_take(&b21_pool, w, NULL, NULL);
    return o ? CF_POOLED(o, b21) : blocks121_new(w);
}

void blocks121_give(cf_blocks121 *a)
{
    if (a && pool_give(&b21_pool, &a->pool)) blocks121_free(a);
}

void blocks121_pool_drop(const cf_world *w)
{
    for (cf_pooled *o = pool_drop(&b21_pool, w), *next; o; o = next) {
        next = o->next;
        blocks121_free(CF_POOLED(o, b21));
    }
}
