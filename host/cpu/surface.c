/* surface.c - the surface stage on the CPU (../shared/MATERIAL-RULES.md §6): SurfaceSystem's
 * column loop over a chunk that left the noise stage, the rule table of ir/rules.h walked per
 * block, the eroded-badlands and frozen-ocean extensions.
 *
 * The stage itself (conditions, leaves, the extensions, a column's loop) is the template
 * kernels/cf_surface.h, shared with the OpenCL k_surface; this file supplies what it reads,
 * with the CPU's caches: the zoom's corners, the column noises, the volume buffers, the biome
 * conditions a chunk rules out, and the rule walk over a pre-order list (rule).
 *
 * Input: the chunk's block kinds ([y][z][x], CF_BK_* and the palette of surface_palette), the
 * stored biomes of the chunk and its neighbours (a quart grid, surface_apply) and, through the
 * 1.18-1.21 noise stage (aquifer121.c), the noises and preliminary surface levels. 1.21
 * arithmetic: f64 noises, the rule tried on default blocks only.
 */
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"
#include "kernels/cf_biome.h"
#include "kernels/cf_surface.h"
#include "cpu/cpu.h"

#define BZ_CACHE 256 /* quart corners remembered by bz_fiddles (direct-mapped) */

/* vanilla biome climate the extensions and `temperature` read: base temperature and the
 * frozen modifier (facts of the game's biome data; biomes not listed: 0.8, the plains') */
static const struct {
    const char *id;
    float t;
    int frozen;
} climate[] = {
    {"minecraft:frozen_ocean", 0.0f, 1},   {"minecraft:deep_frozen_ocean", 0.5f, 1}, {"minecraft:frozen_river", 0.0f, 0},
    {"minecraft:snowy_plains", 0.0f, 0},   {"minecraft:ice_spikes", 0.0f, 0},        {"minecraft:snowy_taiga", -0.5f, 0},
    {"minecraft:snowy_beach", 0.05f, 0},   {"minecraft:snowy_slopes", -0.3f, 0},     {"minecraft:frozen_peaks", -0.7f, 0},
    {"minecraft:jagged_peaks", -0.7f, 0},  {"minecraft:grove", -0.2f, 0},            {"minecraft:cold_ocean", 0.5f, 0},
    {"minecraft:deep_cold_ocean", 0.5f, 0}, {"minecraft:ocean", 0.5f, 0},            {"minecraft:deep_ocean", 0.5f, 0},
    {"minecraft:river", 0.5f, 0},          {"minecraft:taiga", 0.25f, 0},            {"minecraft:old_growth_pine_taiga", 0.3f, 0},
    {"minecraft:old_growth_spruce_taiga", 0.25f, 0}, {"minecraft:windswept_hills", 0.2f, 0},
    {"minecraft:windswept_gravelly_hills", 0.2f, 0}, {"minecraft:windswept_forest", 0.2f, 0},
    {"minecraft:stony_shore", 0.2f, 0},    {"minecraft:meadow", 0.5f, 0},            {"minecraft:cherry_grove", 0.5f, 0},
    {"minecraft:stony_peaks", 1.0f, 0},    {"minecraft:lukewarm_ocean", 0.5f, 0},    {"minecraft:deep_lukewarm_ocean", 0.5f, 0},
    {"minecraft:warm_ocean", 0.5f, 0},     {"minecraft:beach", 0.8f, 0},             {"minecraft:plains", 0.8f, 0},
    {"minecraft:birch_forest", 0.6f, 0},   {"minecraft:old_growth_birch_forest", 0.6f, 0}, {"minecraft:dark_forest", 0.7f, 0},
    {"minecraft:forest", 0.7f, 0},         {"minecraft:flower_forest", 0.7f, 0},     {"minecraft:swamp", 0.8f, 0},
    {"minecraft:dripstone_caves", 0.8f, 0}, {"minecraft:lush_caves", 0.5f, 0},       {"minecraft:deep_dark", 0.8f, 0},
    {"minecraft:pale_garden", 0.7f, 0},
};

/* Biome's fixed-seed climate noises (PerlinSimplexNoise of java.util.Random seeds, no origin
 * offsets): TEMPERATURE_NOISE (1234, octave 0), FROZEN_TEMPERATURE_NOISE (3456, octaves -2..0),
 * BIOME_INFO_NOISE (2345, octave 0); built once */
typedef struct psn {
    int n;
    uint8_t p[3][256];
    double in0, val0; /* highestFreqInputFactor, highestFreqValueFactor */
} psn;
static void simplex_init(cf_aq_rnd *r, uint8_t *p)
{
    for (int k = 0; k < 6; k++) cf_aq_next32(r, 1, k & 1 ? 27 : 26); /* xo, yo, zo: three nextDouble */
    for (int i = 0; i < 256; i++) p[i] = (uint8_t)i;
    for (int i = 0; i < 256; i++) {
        int j = i + cf_aq_next_int(r, 1, 256 - i);
        uint8_t t = p[i];
        p[i] = p[j], p[j] = t;
    }
}
static void psn_init(psn *o, int64_t seed, int octaves)
{
    cf_aq_rnd r = {((cf_u64)seed ^ (cf_u64)0x5deece66d) & (((cf_u64)1 << 48) - 1), 0};
    o->n = octaves; /* octaves 1 - n .. 0: every level present */
    for (int k = 0; k < octaves; k++) simplex_init(&r, o->p[k]);
    o->in0 = 1.0;
    o->val0 = 1.0 / (pow(2.0, octaves) - 1.0);
}
static double psn_value(const psn *o, double x, double y)
{
    double d = 0.0, e = o->in0, f = o->val0;
    for (int k = 0; k < o->n; k++, e /= 2.0, f *= 2.0) d += cf_simplex2(o->p[k], 0.0, 0.0, x * e, y * e) * f;
    return d;
}
static psn noise_temperature, noise_frozen, noise_info;
static pthread_once_t climate_once = PTHREAD_ONCE_INIT;
static void climate_init(void)
{
    psn_init(&noise_temperature, 1234, 1);
    psn_init(&noise_frozen, 3456, 3);
    psn_init(&noise_info, 2345, 1);
}

struct cf_surface {
    const cf_world *w;
    const cf_rules *r;
    const cf_rrow *rows;               /* r->rows */
    cf_blocks121 *a;
    int legacy;
    int32_t min_y, height, sea;
    int pal[CF_BLOCK_PALETTE];         /* rule block -> palette index; then snow_block, packed_ice */
    uint64_t (*grad)[2];               /* per random name: its positional factory */
    /* the biomes of the current chunk's area: quart grid 12 x ny x 12 from (4cx-4, min_y/4, 4cz-4) */
    const uint8_t *bgrid;
    int bmap[256];                     /* source palette -> rule biome, -1 */
    int bkind[256];                    /* SF_BIO_* */
    float btemp[256];
    int bfrozen[256];
    int64_t zseed;
    int32_t cx, cz;
    uint8_t *blk;                      /* the chunk [y][z][x] */
    int32_t hmap[256];                 /* WORLD_SURFACE_WG: top non-air y, min_y - 1 where none */
    /* the context of the current column and block */
    int32_t x, y, z;
    int depth, steep, have_steep, min_surface, have_min_surface;
    double secondary;
    int have_secondary;
    int stone_above, stone_below, have_below;
    int32_t water, next_ceiling;
    /* one column alone (surface_column): its blocks, the neighbours' heightmap, the stored biomes
     * and the volume-path values through col's hooks; NULL: the chunk's (surface_apply) */
    cf_sfcol *col;
    int32_t walk_end;  /* the lowest block the walk applies the rule to (min_y: a chunk) */
    int col_flat;      /* cflat holds the column walk's list (every biome condition asked) */
    int biome, have_biome;
    /* the caches below have one entry per program output (nout: every noise the rules read,
     * as many as the pack's rules read; Terralith's 1.21 rule reads 65) */
    int nout;
    double *colnoise;
    uint8_t *have_colnoise;
    /* 26.3: the volume-path values of output `out` over the chunk ([y][z][x]) */
    const float *(*vol)(void *u, int out);
    void *u;
    cf_cmemo memo; /* chunk_surface_level's corners (eval_volume_memo) */
    /* the zoom's fiddled offsets of quart corners (biome_src): a column's blocks share them */
    struct bz_corner {
        int32_t x, y, z;
        int ok;
        double g[3];
    } bz[BZ_CACHE];
    int32_t ux, uy, uz; /* biome_src: the last quart cell and its one biome (-1: several) */
    int uv, uok;        /* uok: valid for this chunk's grid */
    /* the rule biomes (biomes[]) stored anywhere in the quarts this chunk's zoom can pick
     * (x and z 4c-1 .. 4c+4, every y): a biome condition none of whose biomes is among them
     * is false in the whole chunk, without the zoom */
    uint8_t *rpresent; /* [nbiomes] */
    int8_t *bcond;     /* per row: -1 not yet known this chunk, 0 false everywhere, 1 look */
    const float **volp; /* s->vol of output k for this chunk (NULL: not asked yet) */
    /* the layers (y - min_y) of output k's volume holding a value > 0 (vlay[k][y]: 1), made when
     * vol() first asks for it this chunk, for the ore veins' densities only (vlay[k] NULL else) */
    uint8_t **vlay;
    struct flat_op {
        int row, skip; /* skip: the entry after this row's subtree */
        /* copies of what the walk asks first (rule, cond_fast, no_vein): the row's kind; a
         * condition's row, its kind (-1: out of range) and a[0], a[1]; an ore vein's density
         * output a[3] */
        int kind, ck, crow, c0, c1, vout;
    } *flat;           /* the root's tree in pre-order (rule), or NULL: rule_rec */
    int nflat;
    /* flat for the current chunk (surface_apply): without the sequences (they pass on to their
     * first kid) and the subtrees of biome conditions the chunk rules out (bcond 0), the skips
     * renumbered; *cmap: an entry's index in it (nflat + 1 ints) */
    struct flat_op *cflat;
    int ncflat, *cmap;
    /* the stone_depth conditions of the ceiling side: offset, add_surface_depth, secondary range
     * (col_below_max) */
    int nceil;
    int (*ceil)[3];
};

/* a rule input at a point: 1.21 f64 (aquifer121.c's context), 26.3 the f32 point value widened */
static double out_at(cf_surface *s, int out, double x, double y, double z)
{
    if (!s->r->f32) return blocks121_output(s->a, out, x, y, z);
    return (double)eval_point_f32(s->w, s->w->prog->outputs[out], (int32_t)x, (int32_t)y, (int32_t)z);
}

/* cf_bz_dist's fiddles (gx, gy, gz) of quart corner (cx, cy, cz): a pure function of the
 * corner and the seed, so computed once per corner while the columns walk down (the same
 * LCG steps on the same values: the same doubles) */
static const double *bz_fiddles(cf_surface *s, int32_t cx, int32_t cy, int32_t cz)
{
    uint32_t h = (uint32_t)cx * 0x9E3779B1u ^ (uint32_t)cy * 0x85EBCA6Bu ^ (uint32_t)cz * 0xC2B2AE35u;
    h ^= h >> 16;
    struct bz_corner *c = &s->bz[h % BZ_CACHE];
    if (c->ok && c->x == cx && c->y == cy && c->z == cz) return c->g;
    cf_i64 seed = s->zseed, r = cf_bz_next(seed, cx);
    r = cf_bz_next(r, cy);
    r = cf_bz_next(r, cz);
    r = cf_bz_next(r, cx);
    r = cf_bz_next(r, cy);
    r = cf_bz_next(r, cz);
    c->g[0] = cf_bz_fiddle(r);
    r = cf_bz_next(r, seed);
    c->g[1] = cf_bz_fiddle(r);
    r = cf_bz_next(r, seed);
    c->g[2] = cf_bz_fiddle(r);
    c->x = cx, c->y = cy, c->z = cz, c->ok = 1;
    return c->g;
}

/* cf_bz_quart (kernels/cf_biome.h, BiomeManager.getBiome) with the corners' fiddles from
 * bz_fiddles: the same distances in the same order, the same first minimum */
static void bz_quart(cf_surface *s, int32_t x, int32_t y, int32_t z, int32_t *q)
{
    int32_t ax = (int32_t)((uint32_t)x - 2u), ay = (int32_t)((uint32_t)y - 2u), az = (int32_t)((uint32_t)z - 2u);
    int32_t px = ax >> 2, py = ay >> 2, pz = az >> 2;
    double fx = (double)(ax & 3) / 4.0, fy = (double)(ay & 3) / 4.0, fz = (double)(az & 3) / 4.0;
    int bi = 0;
    double bd = 1.0 / 0.0;
    for (int i = 0; i < 8; i++) {
        int ox = (i & 4) != 0, oy = (i & 2) != 0, oz = (i & 1) != 0;
        const double *g = bz_fiddles(s, (int32_t)((uint32_t)px + (uint32_t)ox), (int32_t)((uint32_t)py + (uint32_t)oy),
                                     (int32_t)((uint32_t)pz + (uint32_t)oz));
        double dx = ox ? fx - 1.0 : fx, dy = oy ? fy - 1.0 : fy, dz = oz ? fz - 1.0 : fz;
        double a = dz + g[2], b = dy + g[1], c = dx + g[0];
        double d = a * a + b * b + c * c;
        if (bd > d) {
            bi = i;
            bd = d;
        }
    }
    q[0] = (int32_t)((uint32_t)px + (uint32_t)((bi & 4) != 0));
    q[1] = (int32_t)((uint32_t)py + (uint32_t)((bi & 2) != 0));
    q[2] = (int32_t)((uint32_t)pz + (uint32_t)((bi & 1) != 0));
}

/* the stored biome (source palette index) of quart (qx, qy, qz), clamped to the chunk's grid */
static int grid_at(const cf_surface *s, int32_t qx, int32_t qy, int32_t qz)
{
    int32_t ny = s->height / 4, iy = qy - s->min_y / 4;
    if (iy < 0) iy = 0;
    if (iy >= ny) iy = ny - 1;
    if (s->col) return s->col->quart(s->col->u, qx, s->min_y / 4 + iy, qz); /* a column's zoom stays in its chunk's grid */
    int32_t ix = qx - (4 * s->cx - 4), iz = qz - (4 * s->cz - 4);
    if (ix < 0) ix = 0;
    if (ix > 11) ix = 11;
    if (iz < 0) iz = 0;
    if (iz > 11) iz = 11;
    return s->bgrid[((size_t)iy * 12 + (size_t)iz) * 12 + (size_t)ix];
}

/* the stored biome (source palette index) at block (x, y, z) through BiomeManager's zoom.
 * The zoom picks one of the 8 quarts (px..px+1, py..py+1, pz..pz+1); where all 8 store
 * the same biome the pick does not matter and the distances are skipped (the same value,
 * whichever wins). The answer for the last (px, py, pz) is remembered: 4 blocks of a
 * column share it. */
static int biome_src(cf_surface *s, int32_t x, int32_t y, int32_t z)
{
    if (s->col) { /* one column: each quart is a lookup, so only the one the zoom picks (the same biome) */
        int32_t q[3];
        bz_quart(s, x, y, z, q);
        return grid_at(s, q[0], q[1], q[2]);
    }
    int32_t px = (int32_t)((uint32_t)x - 2u) >> 2, py = (int32_t)((uint32_t)y - 2u) >> 2, pz = (int32_t)((uint32_t)z - 2u) >> 2;
    if (!s->uok || s->ux != px || s->uy != py || s->uz != pz) {
        int v = grid_at(s, px, py, pz);
        for (int i = 1; i < 8 && v >= 0; i++)
            if (grid_at(s, (int32_t)((uint32_t)px + (uint32_t)((i & 4) != 0)), (int32_t)((uint32_t)py + (uint32_t)((i & 2) != 0)),
                        (int32_t)((uint32_t)pz + (uint32_t)((i & 1) != 0))) != v)
                v = -1;
        s->ux = px, s->uy = py, s->uz = pz, s->uv = v, s->uok = 1;
    }
    if (s->uv >= 0) return s->uv;
    int32_t q[3];
    bz_quart(s, x, y, z, q);
    return grid_at(s, q[0], q[1], q[2]);
}

static double col_noise(cf_surface *s, int out)
{
    if (out < 0 || out >= s->nout) return out_at(s, out, s->x, 0, s->z);
    if (!s->have_colnoise[out]) s->colnoise[out] = out_at(s, out, s->x, 0, s->z), s->have_colnoise[out] = 1;
    return s->colnoise[out];
}

/* s->vol's buffer of output `out`, asked once per chunk */
static const float *vol(cf_surface *s, int out)
{
    if (out < 0 || out >= s->nout) return s->vol(s->u, out);
    if (!s->volp[out]) {
        const float *v = s->volp[out] = s->vol(s->u, out);
        if (s->vlay[out] && v) /* memory order, once per chunk */
            for (int32_t y = 0; y < s->height; y++) {
                int any = 0;
                for (int k = 0; k < 256; k++) any |= v[(size_t)y * 256 + (size_t)k] > 0.0f;
                s->vlay[out][y] = (uint8_t)any;
            }
    }
    return s->volp[out];
}

static int bcond_of(cf_surface *s, int row);
static int rule(cf_surface *s, int row);

/* the surface stage's template (kernels/cf_surface.h) on this file's tables and caches */
#define CF_SF_CTX cf_surface *s
#define CF_SF_ARG s
#define CF_SF_STATE cf_surface
#define CF_SF_F32 (s->r->f32)
#define CF_SF_LEGACY (s->legacy)
#define CF_SF_MINY (s->min_y)
#define CF_SF_HEIGHT (s->height)
#define CF_SF_SEA (s->sea)
#define CF_SF_NBLOCKS (s->r->nblocks)
#define CF_SF_RK(row) (s->rows[row].kind)
#define CF_SF_RA(row, k) (s->rows[row].a[k])
#define CF_SF_RD(row, k) (s->rows[row].d[k])
#define CF_SF_RF(row) (s->rows[row].f)
#define CF_SF_RN(row) (s->rows[row].n)
#define CF_SF_RKID(row, i) (s->rows[row].kids[i])
#define CF_SF_FIXED(k) (s->r->fixed[k])
#define CF_SF_PAL(i) (s->pal[i])
#define CF_SF_BANDPAL(i) (s->pal[s->r->band_block[s->w->bands[i]]])
#define CF_SF_BMAP(b) (s->bmap[b])
#define CF_SF_BKIND(b) (s->bkind[b])
#define CF_SF_BTEMP(b) (s->btemp[b])
#define CF_SF_BFROZEN(b) (s->bfrozen[b])
#define CF_SF_PSN_TEMP(x, z) psn_value(&noise_temperature, (x), (z))
#define CF_SF_PSN_FROZEN(x, z) psn_value(&noise_frozen, (x), (z))
#define CF_SF_PSN_INFO(x, z) psn_value(&noise_info, (x), (z))
#define CF_SF_GRAD(name, k) (s->grad[name][k])
#define CF_SF_ROOT_LO (s->w->root_lo)
#define CF_SF_ROOT_HI (s->w->root_hi)
#define CF_SF_ORE_LO (s->w->ore_lo)
#define CF_SF_ORE_HI (s->w->ore_hi)
#define CF_SF_OUT(out, x, y, z) out_at(s, (out), (x), (y), (z))
#define CF_SF_COL(out) col_noise(s, (out))
#define CF_SF_COL_RESET() memset(s->have_colnoise, 0, (size_t)s->nout)
#define CF_SF_VOL(out, x, y, z)                                     \
    (s->col ? s->col->vol(s->col->u, (out), (y))                    \
            : vol(s, (out))[((size_t)((y) - s->min_y) * 16 + (size_t)((z) & 15)) * 16 + (size_t)((x) & 15)])
#define CF_SF_CSL(x, z) eval_volume_memo(s->w, &s->memo, s->w->prog->outputs[CF_B263_SURFACE], (x), 0, (z), 0)
#define CF_SF_LEVEL(x, z) blocks121_surface_level(s->a, (x), (z))
#define CF_SF_BIOME(x, y, z) biome_src(s, (x), (y), (z))
#define CF_SF_BCOND(row) bcond_of(s, (row))
#define CF_SF_RULE() rule(s, s->r->root)
#define CF_SF_NO_CHUNK /* surface_apply: the heightmap in memory order */
#define CF_SF_GET(lx, y, lz) (s->col ? s->col->get(s->col->u, (y)) : cf_sf_block(s, (lx), (y), (lz)))
#define CF_SF_PUT(lx, y, lz, b) (s->col ? s->col->set(s->col->u, (y), (b)) : (void)CF_SF_BLK_PUT(lx, y, lz, b))
#define CF_SF_WALK_ON(y) col_walk_on(s, (y))
static int col_walk_on(const cf_surface *s, int32_t y);
#define CF_SF_STEEP_PREP() col_steep(s)
static void col_steep(cf_surface *s);
#define CF_SF_BELOW_MAX() col_below_max(s)
static int32_t col_below_max(cf_surface *s);
#include "kernels/cf_surface.h"

/* whether the walk goes on to block y: a chunk's down to min_y; one column's down to walk_end,
 * then on while the block above (done) is air or a fluid, so that every block from the top down
 * to the first solid one is final (a rule's air, vanilla's frozen-ocean `hole`, uncovers the
 * blocks below it) */
static int col_walk_on(const cf_surface *s, int32_t y)
{
    if (y >= s->walk_end) return 1;
    if (!s->col || y < s->min_y) return 0;
    int b = s->col->get(s->col->u, y + 1);
    return b == CF_BK_AIR || cf_sf_fluid(b);
}

/* one column alone: the heightmap of the neighbours `steep` reads (clamped to the chunk, as
 * cf_sf_cond does), from the noise stage's blocks. A neighbour the chunk's walk visits
 * earlier (x outer, z inner) may have raised its heightmap with an eroded-badlands pillar or a
 * frozen-ocean iceberg: there the column alone is not exact (col->inexact) */
static void col_steep(cf_surface *s)
{
    if (!s->col) return;
    int lx = s->x & 15, lz = s->z & 15;
    static const int d[4][2] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}};
    for (int k = 0; k < 4; k++) {
        int nx = lx + d[k][0], nz = lz + d[k][1];
        if (nx < 0 || nx > 15 || nz < 0 || nz > 15) continue; /* clamped onto the column itself */
        int32_t h = s->col->hmap(s->col->u, d[k][0], d[k][1]);
        s->hmap[nz * 16 + nx] = h;
        if (k < 2) { /* visited before the column */
            int32_t x = s->x + d[k][0], z = s->z + d[k][1];
            int kind = s->bkind[biome_src(s, x, CF_SF_LEGACY && !CF_SF_F32 ? 0 : h + 1, z)];
            if (kind == SF_BIO_ERODED_BADLANDS || kind == SF_BIO_FROZEN_OCEAN) s->col->inexact = 1;
        }
    }
}

/* how far under a solid block cf_sf_stone_below looks: a chunk, to the bottom; one column alone,
 * the largest bound 1 + offset + (depth) + secondary term of the ceiling-side stone_depth
 * conditions (the same terms cf_sf_cond computes; the secondary noise as it reads it), so that a
 * solid run longer than it answers every such condition as the whole run does: false */
static int32_t col_below_max(cf_surface *s)
{
    if (!s->col) return INT32_MAX;
    int64_t lim = 1;
    for (int i = 0; i < s->nceil; i++) {
        const int *c = s->ceil[i];
        int sec = 0;
        if (c[2] != 0) {
            if (!s->have_secondary) s->secondary = col_noise(s, s->r->fixed[SN_SECONDARY]), s->have_secondary = 1;
            double ft = (s->secondary - -1.0) / (1.0 - -1.0);
            sec = (int)(0.0 + ft * ((double)c[2] - 0.0));
        }
        int64_t t = 1 + (int64_t)c[0] + (c[1] ? s->depth : 0) + (int64_t)sec;
        if (t > lim) lim = t;
    }
    return lim > INT32_MAX / 2 ? INT32_MAX / 2 : (int32_t)lim;
}

/* 0 when none of biome condition `row`'s biomes is stored in the quarts the chunk's zoom can
 * pick (false in the whole chunk), else 1; once per chunk and row */
static int bcond_of(cf_surface *s, int row)
{
    if (s->col) return 1; /* a column: no chunk grid to rule a biome out */
    if (s->bcond[row] < 0) {
        const cf_rrow *r = &s->r->rows[row];
        int any = 0;
        for (int i = 0; i < r->n && !any; i++) any = r->kids[i] >= 0 && r->kids[i] < s->r->nbiomes && s->rpresent[r->kids[i]];
        s->bcond[row] = (int8_t)any;
    }
    return s->bcond[row];
}
/* the rule tree at a block, recursively (rule's fallback past its stack) */
static int rule_rec(cf_surface *s, int row)
{
    const cf_rrow *r = &s->r->rows[row];
    switch (r->kind) {
    case SR_SEQUENCE:
        for (int i = 0; i < r->n; i++) {
            int b = rule_rec(s, r->kids[i]);
            if (b >= 0) return b;
        }
        return -1;
    case SR_CONDITION: return cf_sf_cond(s, r->a[0]) ? rule_rec(s, r->a[1]) : -1;
    default: return cf_sf_leaf(s, row);
    }
}

/* cond's cheapest answers inline (the same tests, the same results, from the flat op's copies
 * of the condition row); the rest through cond */
static inline int cond_fast(cf_surface *s, const struct flat_op *o)
{
    switch (o->ck) {
    case SC_GRADIENT:
        if (s->y <= o->c0) return 1;
        if (s->y >= o->c1) return 0;
        break;
    case SC_BIOME:
        if (s->bcond[o->crow] == 0) return 0;
        break;
    case SC_ABOVE_PRELIMINARY:
        if (s->have_min_surface) return s->y >= s->min_surface;
        break;
    default: break;
    }
    return cf_sf_cond(s, o->crow);
}

/* rule_leaf's first test inline: an ore vein whose density volume (asked already) is not
 * positive at this block gives nothing */
static inline int no_vein(const cf_surface *s, const struct flat_op *o)
{
    if (o->kind != SR_ORE_VEIN || o->vout < 0 || o->vout >= s->nout || !s->volp[o->vout]) return 0;
    if (s->vlay[o->vout] && !s->vlay[o->vout][s->y - s->min_y]) return 1; /* no value > 0 in the layer */
    size_t i = ((size_t)(s->y - s->min_y) * 16 + (size_t)(s->z & 15)) * 16 + (size_t)(s->x & 15);
    return !(s->volp[o->vout][i] > 0.0f);
}

/* the rule tree at a block as a pre-order list (surface_new, flat_add): a block anywhere is
 * the root's result (conditions and sequences pass the first one up unchanged), so the walk
 * returns it at once; a sequence goes on into its first kid, a false condition and a leaf
 * without a block past their subtree (what follows a finished subtree in pre-order is the
 * next kid of the innermost open sequence). The same rows in the same order as rule_rec:
 * the same conditions asked, the same draws. */
static int rule(cf_surface *s, int row)
{
    if (!s->flat || row != s->r->root) return rule_rec(s, row);
    const struct flat_op *f = s->cflat;
    for (int i = 0, n = s->ncflat; i < n;) {
        const struct flat_op *o = &f[i];
        if (o->kind == SR_CONDITION) {
            i = cond_fast(s, o) ? i + 1 : o->skip;
            continue;
        }
        if (o->kind != SR_SEQUENCE && !no_vein(s, o)) { /* a sequence goes on into its first kid */
            int b = cf_sf_leaf(s, o->row);
            if (b >= 0) return b;
        }
        i++;
    }
    return -1;
}

/* appends the subtree of `row` to s->flat in pre-order; -1 past max entries or depth */
static int flat_add(cf_surface *s, int row, int max, int depth)
{
    if (s->nflat >= max || depth > 64 || row < 0 || row >= s->r->nrows) return -1;
    const cf_rrow *r = &s->r->rows[row];
    int at = s->nflat++;
    struct flat_op *o = &s->flat[at];
    o->row = row, o->kind = r->kind, o->ck = -1, o->crow = -1, o->c0 = o->c1 = 0, o->vout = -1;
    if (r->kind == SR_CONDITION) {
        o->crow = r->a[0];
        if (r->a[0] >= 0 && r->a[0] < s->r->nrows) {
            const cf_rrow *c = &s->r->rows[r->a[0]];
            o->ck = c->kind, o->c0 = c->a[0], o->c1 = c->a[1];
        }
    }
    if (r->kind == SR_ORE_VEIN) o->vout = r->a[3];
    if (r->kind == SR_SEQUENCE) {
        for (int i = 0; i < r->n; i++)
            if (flat_add(s, r->kids[i], max, depth + 1) < 0) return -1;
    } else if (r->kind == SR_CONDITION) {
        if (flat_add(s, r->a[1], max, depth + 1) < 0) return -1;
    }
    s->flat[at].skip = s->nflat;
    return 0;
}

/* the chunk's walk list (cflat): what rule would pass over without a question (the
 * subtrees of biome conditions bcond_of rules out; none for a column) */
static void walk_list(cf_surface *s)
{
    if (!s->flat) return;
    int n = 0;
    for (int i = 0; i < s->nflat;) {
        const struct flat_op *o = &s->flat[i];
        if (o->kind == SR_CONDITION && o->ck == SC_BIOME && !bcond_of(s, o->crow)) {
            for (int j = i; j < o->skip; j++) s->cmap[j] = n;
            i = o->skip;
            continue;
        }
        s->cmap[i] = n;
        if (o->kind != SR_SEQUENCE) s->cflat[n++] = *o;
        i++;
    }
    s->cmap[s->nflat] = n;
    for (int k = 0; k < n; k++) s->cflat[k].skip = s->cmap[s->cflat[k].skip];
    s->ncflat = n;
}

int surface_column(cf_surface *s, int32_t x, int32_t z, int32_t walk_end, cf_sfcol *col)
{
    int32_t cx = (int32_t)cf_floordiv(x, 16), cz = (int32_t)cf_floordiv(z, 16);
    int lx = x & 15, lz = z & 15;
    s->cx = cx, s->cz = cz, s->col = col, s->blk = NULL, s->bgrid = NULL;
    s->uok = 0;
    col->inexact = 0;
    if (!s->col_flat) { /* every biome condition asked (cond_fast reads bcond), no chunk volume (no_vein) */
        memset(s->bcond, 1, (size_t)s->r->nrows);
        memset(s->volp, 0, sizeof *s->volp * (size_t)s->nout);
        walk_list(s), s->col_flat = 1;
    }
    s->walk_end = walk_end < s->min_y ? s->min_y : walk_end;
    s->hmap[lz * 16 + lx] = col->hmap(col->u, 0, 0);
    cf_sf_column(s, cx, cz, lx, lz);
    s->col = NULL, s->walk_end = s->min_y;
    return col->inexact;
}

void surface_apply(cf_surface *s, int32_t cx, int32_t cz, const uint8_t *bgrid, uint8_t *blk,
                   const float *(*vol)(void *u, int out), void *u)
{
    s->cx = cx, s->cz = cz, s->bgrid = bgrid, s->blk = blk, s->vol = vol, s->u = u;
    s->uok = 0; /* a new grid */
    s->col_flat = 0;
    memset(s->volp, 0, sizeof *s->volp * (size_t)s->nout);
    memset(s->bcond, -1, (size_t)s->r->nrows);
    memset(s->rpresent, 0, (size_t)s->r->nbiomes + 1);
    {
        uint8_t src[256] = {0};
        size_t ny = (size_t)(s->height / 4);
        for (size_t iy = 0; iy < ny; iy++)
            for (size_t iz = 3; iz <= 8; iz++)
                for (size_t ix = 3; ix <= 8; ix++) src[bgrid[(iy * 12 + iz) * 12 + ix]] = 1;
        for (int b = 0; b < 256; b++)
            if (src[b] && s->bmap[b] >= 0) s->rpresent[s->bmap[b]] = 1;
    }
    walk_list(s);
    { /* the top non-air block of each column, the layers from the top in memory order */
        int left = 256;
        for (int k = 0; k < 256; k++) s->hmap[k] = INT32_MIN;
        for (int32_t y = s->height - 1; y >= 0 && left > 0; y--) {
            const uint8_t *l = blk + (size_t)y * 256;
            for (int k = 0; k < 256; k++)
                if (s->hmap[k] == INT32_MIN && l[k] != CF_BK_AIR) s->hmap[k] = s->min_y + y, left--;
        }
        for (int k = 0; k < 256; k++)
            if (s->hmap[k] == INT32_MIN) s->hmap[k] = s->min_y - 1;
    }
    for (int lx = 0; lx < 16; lx++)
        for (int lz = 0; lz < 16; lz++) cf_sf_column(s, cx, cz, lx, lz);
}

int surface_palette(const cf_program *p, const char **names, int *map)
{
    int n = aquifer_palette(p, names);
    for (int k = n; k < CF_BK_VEIN_COUNT; k++) names[k] = "";
    if (n < CF_BK_VEIN_COUNT) n = CF_BK_VEIN_COUNT;
    const cf_rules *r = p->rules;
    static const char *const ext[2] = {"minecraft:snow_block", "minecraft:packed_ice"};
    int nb = r ? r->nblocks : 0;
    for (int i = 0; r && i < nb + 2; i++) {
        const char *id = i < nb ? r->blocks[i] : ext[i - nb];
        /* a fluid's default state is the fluid of the noise stage (the frozen-ocean hole's water) */
        if (strcmp(id, "minecraft:water[level=0]") == 0) id = "minecraft:water";
        if (strcmp(id, "minecraft:lava[level=0]") == 0) id = "minecraft:lava";
        int k = 0;
        while (k < n && strcmp(names[k], id) != 0) k++;
        if (k == n) {
            if (n == CF_BLOCK_PALETTE) return -1;
            names[n++] = id;
        }
        if (map) map[i] = k;
    }
    return r ? n : aquifer_palette(p, names);
}

int block_palette_out(const cf_program *p, const char **names, uint8_t *remap)
{
    const char *in[CF_BLOCK_PALETTE];
    int n = surface_palette(p, in, NULL), m = 0;
    for (int i = 0; remap && i < 256; i++) remap[i] = (uint8_t)i;
    for (int i = 0; i < n; i++) {
        if (!in[i][0]) continue; /* an index no fill writes */
        if (remap) remap[i] = (uint8_t)m;
        names[m++] = in[i];
    }
    return n < 0 ? n : m;
}

const uint8_t *blocks_out_map(const cf_program *p, uint8_t *remap)
{
    const char *names[CF_BLOCK_PALETTE];
    if (!p || !p->blocks || block_palette_out(p, names, remap) < 0) return NULL;
    for (int i = 0; i < 256; i++)
        if (remap[i] != i) return remap;
    return NULL;
}

void blocks_remap(uint8_t *b, size_t n, const uint8_t *remap)
{
    if (remap)
        for (size_t i = 0; i < n; i++) b[i] = remap[b[i]];
}

cf_surface *surface_new(const cf_world *w, cf_blocks121 *a, const char *const *bnames, int nb, int64_t zseed)
{
    const cf_program *p = w->prog;
    if (!p->rules || nb > 256) return NULL;
    pthread_once(&climate_once, climate_init);
    cf_surface *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    const char *names[CF_BLOCK_PALETTE];
    int map[CF_BLOCK_PALETTE + 2] = {0};
    s->w = w, s->r = p->rules, s->rows = p->rules->rows, s->a = a, s->legacy = p->legacy_random, s->zseed = zseed;
    s->min_y = p->min_y, s->height = p->height, s->sea = p->sea_level, s->walk_end = p->min_y;
    if (s->r->nblocks + 2 > CF_BLOCK_PALETTE || surface_palette(p, names, map) < 0) {
        free(s);
        return NULL;
    }
    for (int i = 0; i < s->r->nblocks + 2; i++) s->pal[i] = map[i]; /* then snow_block, packed_ice */
    s->grad = calloc((size_t)s->r->nnames + 1, sizeof *s->grad);
    s->rpresent = calloc((size_t)s->r->nbiomes + 1, 1);
    s->bcond = malloc((size_t)s->r->nrows + 1);
    s->nout = p->noutputs > 0 ? p->noutputs : 0;
    s->colnoise = calloc((size_t)s->nout + 1, sizeof *s->colnoise);
    s->have_colnoise = calloc((size_t)s->nout + 1, 1);
    s->volp = calloc((size_t)s->nout + 1, sizeof *s->volp);
    s->vlay = calloc((size_t)s->nout + 1, sizeof *s->vlay);
    if (!s->grad || !s->rpresent || !s->bcond || !s->colnoise || !s->have_colnoise || !s->volp || !s->vlay) {
        surface_free(s);
        return NULL;
    }
    for (int i = 0; i < s->r->nnames; i++) seed_factory(w, s->r->names[i], &s->grad[i][0], &s->grad[i][1]);
    for (int b = 0; b < 256; b++) {
        s->bmap[b] = -1, s->bkind[b] = SF_BIO_OTHER, s->btemp[b] = 0.8f;
        if (b >= nb) continue;
        for (int i = 0; i < s->r->nbiomes; i++)
            if (strcmp(s->r->biomes[i], bnames[b]) == 0) s->bmap[b] = i;
        if (strcmp(bnames[b], "minecraft:eroded_badlands") == 0) s->bkind[b] = SF_BIO_ERODED_BADLANDS;
        if (strcmp(bnames[b], "minecraft:frozen_ocean") == 0 || strcmp(bnames[b], "minecraft:deep_frozen_ocean") == 0)
            s->bkind[b] = SF_BIO_FROZEN_OCEAN;
        for (size_t k = 0; k < sizeof climate / sizeof climate[0]; k++)
            if (strcmp(climate[k].id, bnames[b]) == 0) s->btemp[b] = climate[k].t, s->bfrozen[b] = climate[k].frozen;
    }
    enum { FLAT_MAX = 1 << 16 }; /* shared subtrees repeat in pre-order: past this, rule_rec */
    s->flat = malloc(sizeof *s->flat * FLAT_MAX);
    if (s->flat && flat_add(s, s->r->root, FLAT_MAX, 0) < 0) free(s->flat), s->flat = NULL, s->nflat = 0;
    if (s->flat) {
        struct flat_op *t = realloc(s->flat, sizeof *s->flat * (size_t)(s->nflat ? s->nflat : 1));
        if (t) s->flat = t;
        s->cflat = malloc(sizeof *s->cflat * (size_t)(s->nflat ? s->nflat : 1));
        s->cmap = malloc(sizeof *s->cmap * (size_t)(s->nflat + 1));
        if (!s->cflat || !s->cmap) {
            surface_free(s);
            return NULL;
        }
    }
    s->ceil = malloc(sizeof *s->ceil * (size_t)(s->r->nrows + 1));
    if (!s->ceil) {
        surface_free(s);
        return NULL;
    }
    for (int i = 0; i < s->r->nrows; i++) { /* the ceiling side's stone_depth conditions (col_below_max) */
        const cf_rrow *r = &s->r->rows[i];
        if (r->kind != SC_STONE_DEPTH || !r->a[3]) continue;
        int k = 0;
        while (k < s->nceil && !(s->ceil[k][0] == r->a[0] && s->ceil[k][1] == r->a[1] && s->ceil[k][2] == r->a[2])) k++;
        if (k == s->nceil) s->ceil[s->nceil][0] = r->a[0], s->ceil[s->nceil][1] = r->a[1], s->ceil[s->nceil++][2] = r->a[2];
    }
    for (int i = 0; i < s->r->nrows; i++) { /* the ore veins' density layers (vol, no_vein) */
        const cf_rrow *r = &s->r->rows[i];
        if (r->kind != SR_ORE_VEIN || r->a[3] < 0 || r->a[3] >= s->nout || s->vlay[r->a[3]]) continue;
        if (!(s->vlay[r->a[3]] = malloc((size_t)s->height))) {
            surface_free(s);
            return NULL;
        }
    }
    return s;
}

void surface_free(cf_surface *s)
{
    if (!s) return;
    free(s->grad);
    free(s->rpresent);
    free(s->bcond);
    free(s->flat);
    free(s->cflat);
    free(s->cmap);
    free(s->ceil);
    for (int k = 0; s->vlay && k < s->nout; k++) free(s->vlay[k]);
    free(s->colnoise), free(s->have_colnoise), free(s->volp), free(s->vlay);
    free(s);
}

int surface_device_tables(const cf_world *w, const char *const *bnames, int nb, int32_t *ints, uint8_t *psn, uint64_t *grad, int maxgrad)
{
    if (!w->prog->rules || w->prog->rules->nnames > maxgrad) return -1;
    cf_surface *s = surface_new(w, NULL, bnames, nb, 0);
    if (!s) return -1;
    memset(ints, 0, sizeof(int32_t) * CF_SF_I_COUNT);
    for (int i = 0; i < s->r->nblocks + 2; i++) ints[CF_SF_I_PAL + i] = s->pal[i];
    for (int b = 0; b < 256; b++) {
        ints[CF_SF_I_BMAP + b] = s->bmap[b], ints[CF_SF_I_BKIND + b] = s->bkind[b], ints[CF_SF_I_BFROZEN + b] = s->bfrozen[b];
        memcpy(&ints[CF_SF_I_BTEMP + b], &s->btemp[b], sizeof(float));
    }
    for (int i = 0; i < 192; i++) ints[CF_SF_I_BANDS + i] = w->bands[i];
    memcpy(psn, noise_temperature.p[0], 256);
    memcpy(psn + 256, noise_frozen.p, 3 * 256);
    memcpy(psn + 4 * 256, noise_info.p[0], 256);
    for (int i = 0; i < s->r->nnames; i++) grad[2 * i] = s->grad[i][0], grad[2 * i + 1] = s->grad[i][1];
    int n = s->r->nnames;
    surface_free(s);
    return n;
}
