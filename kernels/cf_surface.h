/* cf_surface.h - the surface stage (../shared/MATERIAL-RULES.md §6), once for the CPU and the
 * device, both dialects: 1.18-1.21 SurfaceSystem (f64 noises, the rule tried on the default
 * block only) and, with CF_SF_F32, 26.3's MaterialSystem (f32 point values widened, every
 * non-air non-fluid block, ore_vein on the volume path). host/cpu/surface.c instantiates it for
 * the CPU's chunks, host/opencl/emit.c for the generated k_surface (a work item per chunk).
 *
 * A column (cf_sf_column) is SurfaceSystem's column loop: the eroded-badlands pillar, the
 * depth, the walk down the column with the rule at every block it applies to, the frozen-ocean
 * iceberg. A chunk walks its 256 columns x outer, z inner (cf_sf_chunk), so that the heightmap
 * `steep` reads holds what the columns before it wrote, as in the game.
 *
 * A template: the includer defines, before including it, CF_SF_CTX (the parameter list of every
 * function here, holding the state pointer `s`) and CF_SF_ARG (its arguments), and
 *   CF_SF_F32, CF_SF_LEGACY, CF_SF_MINY, CF_SF_HEIGHT, CF_SF_SEA      the dialect and the settings
 *   CF_SF_RK(row), CF_SF_RA(row, k), CF_SF_RD(row, k), CF_SF_RF(row), CF_SF_RN(row),
 *   CF_SF_RKID(row, i)             a rule row's kind, a[k], d[k], f, n, kids[i] (host/ir/rules.h)
 *   CF_SF_FIXED(k)                 the program output of fixed noise k (SN_*)
 *   CF_SF_PAL(i), CF_SF_BANDPAL(i) rule block i's palette index; the clay band i's (0..191)
 *   CF_SF_BMAP(b), CF_SF_BKIND(b), CF_SF_BTEMP(b), CF_SF_BFROZEN(b)
 *                                  per stored biome b: its rule biome (-1), SF_BIO_*, base
 *                                  temperature (float), frozen flag
 *   CF_SF_PSN_TEMP(x, z), CF_SF_PSN_FROZEN(x, z), CF_SF_PSN_INFO(x, z)   Biome's climate noises
 *   CF_SF_GRAD(name, k), CF_SF_ROOT_LO/HI, CF_SF_ORE_LO/HI   positional random factories
 *   CF_SF_OUT(out, x, y, z)        a rule input at a point (double: 1.21 the NoiseChunk's
 *                                  context, 26.3 the f32 point value widened)
 *   CF_SF_COL(out), CF_SF_COL_RESET()   output `out` at (x, 0, z) of the column, remembered
 *   CF_SF_VOL(out, x, y, z)        26.3: output `out` on the volume path of the chunk's fill (float)
 *   CF_SF_CSL(x, z)                26.3: chunk_surface_level on the volume path at (x, 0, z) (float)
 *   CF_SF_LEVEL(x, z)              1.21: NoiseChunk.preliminarySurfaceLevel at block (x, z) (int)
 *   CF_SF_BIOME(x, y, z)           the stored biome at a block through BiomeManager's zoom
 *   CF_SF_BCOND(row)               0 where biome condition `row` is false in the whole chunk, else 1
 *   CF_SF_RULE()                   the rule's result at the current block (palette index, -1);
 *                                  default: cf_sf_rule_stack, which needs CF_SF_ROOT, CF_SF_STACK
 *   CF_SF_GET(lx, y, lz), CF_SF_PUT(lx, y, lz, b), CF_SF_HMAP(lx, lz)
 *                                  a block, its store, the heightmap (default: s->blk, s->hmap)
 *   CF_SF_STATE                    the state's type (default: cf_sf below, with the device's
 *                                  definitions of the hooks above from its tables)
 *   CF_SF_WALK_ON(y)               whether a column's walk goes on to block y, below the
 *                                  blocks it has done (default y >= CF_SF_MINY; one column
 *                                  alone stops below the blocks its caller reads)
 *   CF_SF_STEEP_PREP()             run before `steep` reads the neighbours' heightmap (default:
 *                                  nothing; one column alone computes them there)
 * The state has the fields x, y, z, depth, steep, have_steep, min_surface, have_min_surface,
 * secondary, have_secondary, stone_above, stone_below, have_below, next_ceiling, water, biome,
 * have_biome.
 * Rules are walked without recursion (OpenCL C has none).
 */
#ifndef CF_SURFACE_H
#define CF_SURFACE_H

/* the row kinds (the emitter pastes kernels/cf_rules.h before this file) */
#include "cf_rules.h"

#define CF_SF_ROW 9
/* the device's int table: rule block -> palette index (then snow_block, packed_ice), per biome of
 * the source's palette its rule biome (-1), its kind (SF_BIO_*), frozen flag, base temperature
 * (float bits); the clay bands */
#define CF_SF_I_PAL 0
#define CF_SF_I_BMAP 260
#define CF_SF_I_BKIND (CF_SF_I_BMAP + 256)
#define CF_SF_I_BFROZEN (CF_SF_I_BKIND + 256)
#define CF_SF_I_BTEMP (CF_SF_I_BFROZEN + 256)
#define CF_SF_I_BANDS (CF_SF_I_BTEMP + 256)
#define CF_SF_I_COUNT (CF_SF_I_BANDS + 192)

#define CF_SF_NO_WATER (-2147483647 - 1)

#endif /* CF_SURFACE_H */

/* the template (the host's C without CF_SF_CTX includes only the constants above), once */
#if defined(CF_SF_CTX) && !defined(CF_SURFACE_TEMPLATE)
#define CF_SURFACE_TEMPLATE
#ifndef CF_BK_AIR
#error "include kernels/cf_aquifer.h first (the block kinds)"
#endif

#ifndef CF_SF_STATE
/* the device's state and tables: sf_rows[] (CF_SF_ROW ints a row: kind, a[0..5], n, first kid),
 * sf_d[] (2 a row), sf_kids[], sf_band[7], sf_fixed[SN_COUNT], sf_f[] (1 a row: raw_ore_chance)
 * as __constant tables; the kernel passes the per-seed tables: ints (CF_SF_I_*), the gradients'
 * factories (2 ulongs a random name), the climate noises' permutations (5 x 256 bytes) */
typedef struct cf_sf {
    cf_i32 cx, cz, x, y, z;
    int depth, steep, have_steep, min_surface, have_min_surface, have_secondary;
    int stone_above, stone_below, have_below, biome, have_biome;
    cf_i32 water, next_ceiling;
    double secondary;
    CF_GLOBAL cf_u8 *blk;
    CF_GLOBAL const cf_u8 *bgrid;
    CF_GLOBAL const cf_i32 *ints;
    CF_GLOBAL const cf_u64 *grad;
    CF_GLOBAL const cf_u8 *psn;
    cf_i64 zseed;
    cf_u64 rlo, rhi, olo, ohi;
    cf_i32 hmap[256];
    double col[CF_SF_NOUT];
    cf_u8 have_col[CF_SF_NOUT];
} cf_sf;
#define CF_SF_STATE cf_sf
#define CF_SF_RK(row) sf_rows[(row) * CF_SF_ROW]
#define CF_SF_RA(row, k) sf_rows[(row) * CF_SF_ROW + 1 + (k)]
#define CF_SF_RN(row) sf_rows[(row) * CF_SF_ROW + 7]
#define CF_SF_RKID(row, i) sf_kids[sf_rows[(row) * CF_SF_ROW + 8] + (i)]
#define CF_SF_RD(row, k) sf_d[2 * (row) + (k)]
#define CF_SF_RF(row) sf_f[row]
#define CF_SF_FIXED(k) sf_fixed[k]
#define CF_SF_PAL(i) s->ints[CF_SF_I_PAL + (i)]
#define CF_SF_BANDPAL(i) s->ints[CF_SF_I_PAL + sf_band[s->ints[CF_SF_I_BANDS + (i)]]]
#define CF_SF_BMAP(b) s->ints[CF_SF_I_BMAP + (b)]
#define CF_SF_BKIND(b) s->ints[CF_SF_I_BKIND + (b)]
#define CF_SF_BFROZEN(b) s->ints[CF_SF_I_BFROZEN + (b)]
#define CF_SF_BTEMP(b) as_float(s->ints[CF_SF_I_BTEMP + (b)])
#define CF_SF_PSN_TEMP(x, z) cf_sf_psn(s, 0, 1, 1.0, (x), (z))
#define CF_SF_PSN_FROZEN(x, z) cf_sf_psn(s, 1, 3, 1.0 / 7.0, (x), (z))
#define CF_SF_PSN_INFO(x, z) cf_sf_psn(s, 4, 1, 1.0, (x), (z))
#define CF_SF_GRAD(name, k) s->grad[2 * (name) + (k)]
#define CF_SF_ROOT_LO s->rlo
#define CF_SF_ROOT_HI s->rhi
#define CF_SF_ORE_LO s->olo
#define CF_SF_ORE_HI s->ohi
#define CF_SF_COL(out) cf_sf_col(CF_SF_ARG, (out))
#define CF_SF_COL_RESET() \
    for (int k_ = 0; k_ < CF_SF_NOUT; k_++) s->have_col[k_] = 0
#define CF_SF_BIOME(x, y, z) cf_sf_biome_src(s, (x), (y), (z))
#define CF_SF_BCOND(row) 1

/* PerlinSimplexNoise of octaves 1-n .. 0 (tables k0 .. k0+n-1 of psn), as surface.c's psn_value */
CF_INLINE double cf_sf_psn(const cf_sf *s, int k0, int n, double val0, double x, double y)
{
    double d = 0.0, e = 1.0, f = val0;
    for (int k = 0; k < n; k++, e /= 2.0, f *= 2.0) d += cf_simplex2(s->psn + (size_t)(k0 + k) * 256, 0.0, 0.0, x * e, y * e) * f;
    return d;
}

/* the stored biome (source palette index) at block (x, y, z) through BiomeManager's zoom */
CF_INLINE int cf_sf_biome_src(const cf_sf *s, cf_i32 x, cf_i32 y, cf_i32 z)
{
    cf_i32 q[3];
    cf_bz_quart(s->zseed, x, y, z, q);
    cf_i32 ny = CF_SF_HEIGHT / 4, qy = q[1] - CF_SF_MINY / 4;
    if (qy < 0) qy = 0;
    if (qy >= ny) qy = ny - 1;
    cf_i32 ix = q[0] - (4 * s->cx - 4), iz = q[2] - (4 * s->cz - 4);
    if (ix < 0) ix = 0;
    if (ix > 11) ix = 11;
    if (iz < 0) iz = 0;
    if (iz > 11) iz = 11;
    return s->bgrid[((size_t)qy * 12 + (size_t)iz) * 12 + (size_t)ix];
}

CF_INLINE double cf_sf_col(CF_SF_CTX, int out)
{
    if (!s->have_col[out]) s->col[out] = CF_SF_OUT(out, (double)s->x, 0.0, (double)s->z), s->have_col[out] = 1;
    return s->col[out];
}
#endif /* !CF_SF_STATE */

#ifndef CF_SF_WALK_ON
#define CF_SF_WALK_ON(y) ((y) >= CF_SF_MINY)
#endif
#ifndef CF_SF_STEEP_PREP
#define CF_SF_STEEP_PREP()
#endif
/* CF_SF_BELOW_MAX() (optional): the blocks under a solid block cf_sf_stone_below looks at, at
 * least every stone_depth ceiling bound of the column (1 + offset + depth + secondary term); a
 * longer solid run answers lim + 1 (the same condition results) */

/* the blocks of the chunk, [y][z][x] (s->blk) */
CF_INLINE int cf_sf_block(const CF_SF_STATE *s, cf_i32 lx, cf_i32 y, cf_i32 lz)
{
    if (y < CF_SF_MINY || y >= CF_SF_MINY + CF_SF_HEIGHT) return CF_BK_AIR;
    return s->blk[((size_t)(y - CF_SF_MINY) * 16 + (size_t)lz) * 16 + (size_t)lx];
}
#define CF_SF_BLK_PUT(lx, y, lz, b) (s->blk[((size_t)((y) - CF_SF_MINY) * 16 + (size_t)(lz)) * 16 + (size_t)(lx)] = (cf_u8)(b))
#ifndef CF_SF_GET
#define CF_SF_GET(lx, y, lz) cf_sf_block(s, (lx), (y), (lz))
#define CF_SF_PUT(lx, y, lz, b) CF_SF_BLK_PUT(lx, y, lz, b)
#endif
#ifndef CF_SF_HMAP /* the chunk's WORLD_SURFACE_WG heightmap */
#define CF_SF_HMAP(lx, lz) s->hmap[(lz) * 16 + (lx)]
#endif
/* a block written (CF_SF_PUT: the includer's store of a block in the world's rows), the
 * heightmap kept */
CF_INLINE void cf_sf_set(CF_SF_CTX, cf_i32 lx, cf_i32 y, cf_i32 lz, int b)
{
    if (y < CF_SF_MINY || y >= CF_SF_MINY + CF_SF_HEIGHT) return;
    CF_SF_PUT(lx, y, lz, b);
    cf_i32 h = CF_SF_HMAP(lx, lz);
    if (b != CF_BK_AIR && y > h) h = y;
    if (b == CF_BK_AIR && y == h)
        while (h >= CF_SF_MINY && CF_SF_GET(lx, h, lz) == CF_BK_AIR) h--;
    CF_SF_HMAP(lx, lz) = h;
}
#define CF_SF_SET(lx, y, lz, b) cf_sf_set(CF_SF_ARG, (lx), (y), (lz), (b))

CF_INLINE int cf_sf_fluid(int b) { return b == CF_BK_WATER || b == CF_BK_LAVA || b == CF_BK_FLUID; }

/* Xoroshiro / java.util.Random nextDouble */
CF_INLINE double cf_sf_next_double(cf_aq_rnd *r, int legacy)
{
    if (legacy) {
        cf_u64 hi = cf_aq_next32(r, 1, 26), lo = cf_aq_next32(r, 1, 27);
        return (double)((hi << 27) + lo) * 1.1102230246251565e-16;
    }
    return (double)(cf_aq_next64(r) >> 11) * 1.1102230246251565e-16;
}

/* the preliminary surface of the column minus 8 plus the depth (above_preliminary_surface, the
 * iceberg's floor), once a column */
CF_INLINE cf_i32 cf_sf_min_surface(CF_SF_CTX)
{
    if (!s->have_min_surface && CF_SF_F32) { /* chunk_surface_level on the volume path of the 16 x 1 x 16 volume at y 0 */
        float pv = CF_SF_CSL(s->x, s->z);
        s->min_surface = (cf_i32)floor(pv) + s->depth - 8;
        s->have_min_surface = 1;
    }
    if (!s->have_min_surface) {
        cf_i32 x0 = (cf_i32)cf_floordiv(s->x, 16) * 16, z0 = (cf_i32)cf_floordiv(s->z, 16) * 16;
        double c00 = (double)CF_SF_LEVEL(x0, z0), c10 = (double)CF_SF_LEVEL(x0 + 16, z0);
        double c01 = (double)CF_SF_LEVEL(x0, z0 + 16), c11 = (double)CF_SF_LEVEL(x0 + 16, z0 + 16);
        double fx = (double)((float)(s->x & 15) / 16.0f), fz = (double)((float)(s->z & 15) / 16.0f);
        double a = c00 + fx * (c10 - c00), b = c01 + fx * (c11 - c01);
        s->min_surface = cf_jfloor(a + fz * (b - a)) + s->depth - 8;
        s->have_min_surface = 1;
    }
    return s->min_surface;
}

/* Biome.getHeightAdjustedTemperature of stored biome b at (x, y, z): the frozen modifier, then
 * the height term */
CF_INLINE float cf_sf_temperature(CF_SF_CTX, int b, cf_i32 y)
{
    float temp = CF_SF_BTEMP(b);
    if (CF_SF_BFROZEN(b)) {
        double d = CF_SF_PSN_FROZEN(s->x * 0.05, s->z * 0.05) * 7.0;
        double e = CF_SF_PSN_INFO(s->x * 0.2, s->z * 0.2);
        if (d + e < 0.3 && CF_SF_PSN_INFO(s->x * 0.09, s->z * 0.09) < 0.8) temp = 0.2f;
    }
    cf_i32 snow = CF_SF_SEA + 17;
    if (y > snow) {
        float g = (float)(CF_SF_PSN_TEMP((double)((float)s->x / 8.0f), (double)((float)s->z / 8.0f)) * 8.0);
        temp -= (g + (float)y - (float)snow) * 0.05f / 40.0f;
    }
    return temp;
}

/* the current block's distance to the first air or fluid below it, plus one (stone_depth's
 * ceiling side), on first use: the block under the solid run found once a run */
CF_INLINE int cf_sf_stone_below(CF_SF_CTX)
{
    if (!s->have_below) {
        if (s->next_ceiling >= s->y) {
            int lx = s->x & 15, lz = s->z & 15;
            cf_i32 end = CF_SF_MINY - 1;
#ifdef CF_SF_BELOW_MAX
            cf_i32 lim = CF_SF_BELOW_MAX();
            if ((cf_i64)s->y - (cf_i64)lim > (cf_i64)end) end = s->y - lim;
#endif
            s->next_ceiling = CF_SF_NO_WATER;
            for (cf_i32 yc = s->y - 1; yc >= end; yc--) {
                int bc = CF_SF_GET(lx, yc, lz);
                if (bc == CF_BK_AIR || cf_sf_fluid(bc)) {
                    s->next_ceiling = yc + 1;
                    break;
                }
            }
#ifdef CF_SF_BELOW_MAX
            if (s->next_ceiling == CF_SF_NO_WATER && end > CF_SF_MINY - 1) {
                /* the lim blocks under this one are solid: the distance is > lim, past every
                 * bound the includer's lim covers; the next block of the run looks again */
                s->next_ceiling = 2147483647, s->stone_below = lim + 1, s->have_below = 1;
                return s->stone_below;
            }
#endif
        }
        s->stone_below = s->y - s->next_ceiling + 1;
        s->have_below = 1;
    }
    return s->stone_below;
}

/* condition row `row` at the current block */
CF_INLINE int cf_sf_cond(CF_SF_CTX, int row)
{
    int neg = 0;
    while (CF_SF_RK(row) == SC_NOT) neg ^= 1, row = CF_SF_RA(row, 0);
    int v = 0;
    switch (CF_SF_RK(row)) {
    case SC_STONE_DEPTH: {
        int d = CF_SF_RA(row, 3) ? cf_sf_stone_below(CF_SF_ARG) : s->stone_above;
        int sec = 0;
        if (CF_SF_RA(row, 2) != 0) {
            if (!s->have_secondary) s->secondary = CF_SF_COL(CF_SF_FIXED(SN_SECONDARY)), s->have_secondary = 1;
            double ft = (s->secondary - -1.0) / (1.0 - -1.0);
            sec = (int)(0.0 + ft * ((double)CF_SF_RA(row, 2) - 0.0));
        }
        v = d <= 1 + CF_SF_RA(row, 0) + (CF_SF_RA(row, 1) ? s->depth : 0) + sec;
        break;
    }
    case SC_Y_ABOVE: v = s->y + (CF_SF_RA(row, 2) ? s->stone_above : 0) >= CF_SF_RA(row, 0) + s->depth * CF_SF_RA(row, 1); break;
    case SC_WATER:
        v = s->water == CF_SF_NO_WATER
         || s->y + (CF_SF_RA(row, 2) ? s->stone_above : 0) >= s->water + CF_SF_RA(row, 0) + s->depth * CF_SF_RA(row, 1);
        break;
    case SC_GRADIENT: {
        cf_i32 ty = CF_SF_RA(row, 0), fy = CF_SF_RA(row, 1);
        if (s->y <= ty) v = 1;
        else if (s->y >= fy) v = 0;
        else {
            double p = 1.0 + (((double)s->y - (double)ty) / ((double)fy - (double)ty)) * (0.0 - 1.0);
            int name = CF_SF_RA(row, 2);
            cf_aq_rnd q = cf_aq_at_pos(CF_SF_GRAD(name, 0), CF_SF_GRAD(name, 1), CF_SF_LEGACY, s->x, s->y, s->z);
            v = (double)cf_aq_next_float(&q, CF_SF_LEGACY) < p;
        }
        break;
    }
    case SC_NOISE: {
        double n = CF_SF_RA(row, 1) ? CF_SF_OUT(CF_SF_RA(row, 0), (double)s->x, (double)s->y, (double)s->z) : CF_SF_COL(CF_SF_RA(row, 0));
        v = n >= CF_SF_RD(row, 0) && n <= CF_SF_RD(row, 1);
        break;
    }
    case SC_BIOME: {
        if (!CF_SF_BCOND(row)) break;
        if (!s->have_biome) s->biome = CF_SF_BIOME(s->x, s->y, s->z), s->have_biome = 1;
        int b = CF_SF_BMAP(s->biome);
        for (int i = 0, n = CF_SF_RN(row); i < n; i++)
            if (CF_SF_RKID(row, i) == b) {
                v = 1;
                break;
            }
        break;
    }
    case SC_HOLE: v = s->depth <= 0; break;
    case SC_STEEP:
        if (!s->have_steep) {
            CF_SF_STEEP_PREP();
            int lx = s->x & 15, lz = s->z & 15;
            int zm = lz > 0 ? lz - 1 : 0, zp = lz < 15 ? lz + 1 : 15, xm = lx > 0 ? lx - 1 : 0, xp = lx < 15 ? lx + 1 : 15;
            s->steep = CF_SF_HMAP(lx, zp) >= CF_SF_HMAP(lx, zm) + 4 || CF_SF_HMAP(xm, lz) >= CF_SF_HMAP(xp, lz) + 4;
            s->have_steep = 1;
        }
        v = s->steep;
        break;
    case SC_ABOVE_PRELIMINARY: v = s->y >= cf_sf_min_surface(CF_SF_ARG); break;
    case SC_TEMPERATURE:
        if (!s->have_biome) s->biome = CF_SF_BIOME(s->x, s->y, s->z), s->have_biome = 1;
        v = cf_sf_temperature(CF_SF_ARG, s->biome, s->y) < 0.15f;
        break;
    default: v = 0;
    }
    return v ^ neg;
}

/* a rule row that is neither a sequence nor a condition, at the current block: a palette index, or -1 */
CF_INLINE int cf_sf_leaf(CF_SF_CTX, int row)
{
    int a0 = CF_SF_RA(row, 0); /* read once */
    switch (CF_SF_RK(row)) {
    case SR_BLOCK: return CF_SF_PAL(a0);
    case SR_ORE_VEIN: { /* 26.3 (§5.3) */
        float d = CF_SF_VOL(CF_SF_RA(row, 3), s->x, s->y, s->z);
        if (!(d > 0.0f)) return -1;
        cf_aq_rnd q = cf_aq_at_pos(CF_SF_ORE_LO, CF_SF_ORE_HI, CF_SF_LEGACY, s->x, s->y, s->z);
        if (cf_aq_next_float(&q, CF_SF_LEGACY) > d) return -1;
        float rich = CF_SF_VOL(CF_SF_RA(row, 4), s->x, s->y, s->z);
        if (cf_aq_next_float(&q, CF_SF_LEGACY) < rich && CF_SF_OUT(CF_SF_RA(row, 5), (double)s->x, (double)s->y, (double)s->z) < 0.0)
            return CF_SF_PAL(cf_aq_next_float(&q, CF_SF_LEGACY) < CF_SF_RF(row) ? CF_SF_RA(row, 1) : a0);
        return CF_SF_PAL(CF_SF_RA(row, 2));
    }
    case SR_BANDLANDS:
        if (CF_SF_F32) { /* Math.round(f32 * 4f) */
            float v = (float)CF_SF_COL(CF_SF_FIXED(SN_BANDS_OFFSET)) * 4.0f;
            int o = (int)floor(v + 0.5f);
            return CF_SF_BANDPAL(((s->y + o) % 192 + 192) % 192);
        } else { /* (int)Math.round(v * 4.0): floor(v * 4.0 + 0.5) */
            int o = (int)floor(CF_SF_COL(CF_SF_FIXED(SN_BANDS_OFFSET)) * 4.0 + 0.5);
            return CF_SF_BANDPAL(((s->y + o + 192) % 192 + 192) % 192);
        }
    default: return -1;
    }
}

#ifndef CF_SF_RULE
#define CF_SF_RULE() cf_sf_rule_stack(CF_SF_ARG)
/* the rule's result at the current block (a palette index, or -1), with an explicit stack of
 * the open sequences (CF_SF_STACK deep: the emitter's rule depth + 1) */
CF_INLINE int cf_sf_rule_stack(CF_SF_CTX)
{
    int stk[CF_SF_STACK], nxt[CF_SF_STACK], sp = 0, cur = CF_SF_ROOT;
    for (;;) {
        int kind = CF_SF_RK(cur), res = -1;
        if (kind == SR_CONDITION) {
            if (cf_sf_cond(CF_SF_ARG, CF_SF_RA(cur, 0))) {
                cur = CF_SF_RA(cur, 1);
                continue;
            }
        } else if (kind == SR_SEQUENCE) {
            if (sp == CF_SF_STACK) return -1; /* the emitter sizes the stack: never */
            stk[sp] = cur, nxt[sp] = 0, sp++;
        } else {
            res = cf_sf_leaf(CF_SF_ARG, cur);
            if (res >= 0) return res;
        }
        /* the next child of the innermost sequence with one left */
        for (;;) {
            if (sp == 0) return -1;
            int q = stk[sp - 1];
            if (nxt[sp - 1] < CF_SF_RN(q)) {
                cur = CF_SF_RKID(q, nxt[sp - 1]++);
                break;
            }
            sp--;
        }
    }
}
#endif

/* the eroded-badlands pillar of column (lx, lz) whose top block is start - 1 */
CF_INLINE void cf_sf_eroded_badlands(CF_SF_CTX, int lx, int lz, cf_i32 start)
{
    double x = s->x, z = s->z;
    double e = fmin(fabs(CF_SF_OUT(CF_SF_FIXED(SN_BADLANDS_SURFACE), x, 0.0, z) * 8.25), CF_SF_OUT(CF_SF_FIXED(SN_BADLANDS_PILLAR), x, 0.0, z) * 15.0);
    if (e <= 0.0) return;
    double g = fabs(CF_SF_OUT(CF_SF_FIXED(SN_BADLANDS_ROOF), x, 0.0, z) * 1.5);
    double h = 64.0 + fmin(e * e * 2.5, ceil(g * 50.0) + 24.0);
    cf_i32 top = cf_jfloor(h);
    if (start > top) return;
    for (cf_i32 y = top; y >= CF_SF_MINY; y--) {
        int b = CF_SF_GET(lx, y, lz);
        if (b == CF_BK_SOLID) break;
        if (b == CF_BK_WATER) return;
    }
    for (cf_i32 y = top; y >= CF_SF_MINY && CF_SF_GET(lx, y, lz) == CF_BK_AIR; y--) CF_SF_SET(lx, y, lz, CF_BK_SOLID);
}

/* the frozen-ocean iceberg of column (lx, lz) in stored biome `biome` */
CF_INLINE void cf_sf_frozen_ocean(CF_SF_CTX, int lx, int lz, cf_i32 start, int biome)
{
    double x = s->x, z = s->z;
    double e = fmin(fabs(CF_SF_OUT(CF_SF_FIXED(SN_ICEBERG_SURFACE), x, 0.0, z) * 8.25), CF_SF_OUT(CF_SF_FIXED(SN_ICEBERG_PILLAR), x, 0.0, z) * 15.0);
    if (e <= 1.8) return;
    double h = fabs(CF_SF_OUT(CF_SF_FIXED(SN_ICEBERG_ROOF), x, 0.0, z) * 1.5);
    double top = fmin(e * e * 1.2, ceil(h * 40.0) + 14.0);
    if (cf_sf_temperature(CF_SF_ARG, biome, CF_SF_SEA) > 0.1f) top -= 2.0;
    if (CF_SF_F32 && top <= 2.0) return; /* 26.3 returns; 1.21 runs the loop with top = bottom = 0 */
    double bottom;
    if (top > 2.0) {
        bottom = (double)CF_SF_SEA - top - 7.0;
        top += CF_SF_SEA;
    } else {
        top = 0.0, bottom = 0.0;
    }
    cf_aq_rnd r = cf_aq_at_pos(CF_SF_ROOT_LO, CF_SF_ROOT_HI, CF_SF_LEGACY, s->x, 0, s->z);
    int maxsnow = 2 + cf_aq_next_int(&r, CF_SF_LEGACY, 4);
    int minsnow = CF_SF_SEA + 18 + cf_aq_next_int(&r, CF_SF_LEGACY, 10);
    int n = 0, snowb = CF_SF_PAL(CF_SF_NBLOCKS), iceb = CF_SF_PAL(CF_SF_NBLOCKS + 1);
    cf_i32 itop = (cf_i32)top, ibot = (cf_i32)bottom, msl = cf_sf_min_surface(CF_SF_ARG);
    for (cf_i32 y = start > itop + 1 ? start : itop + 1; y >= msl; y--) {
        int b = CF_SF_GET(lx, y, lz);
        if ((b == CF_BK_AIR && y < itop && cf_sf_next_double(&r, CF_SF_LEGACY) > 0.01)
            || (b == CF_BK_WATER && y > ibot && y < CF_SF_SEA && bottom != 0.0 && cf_sf_next_double(&r, CF_SF_LEGACY) > 0.15)) {
            if (n <= maxsnow && y > minsnow) {
                CF_SF_SET(lx, y, lz, snowb);
                n++;
            } else {
                CF_SF_SET(lx, y, lz, iceb);
            }
        }
    }
}

/* SurfaceSystem's loop over column (lx, lz) of chunk (cx, cz) (x = 16cx + lx, z = 16cz + lz) */
CF_INLINE void cf_sf_column(CF_SF_CTX, cf_i32 cx, cf_i32 cz, int lx, int lz)
{
    s->x = cx * 16 + lx, s->z = cz * 16 + lz;
    cf_i32 start = CF_SF_HMAP(lx, lz) + 1;
    int sb = CF_SF_BIOME(s->x, CF_SF_LEGACY && !CF_SF_F32 ? 0 : start, s->z);
    CF_SF_COL_RESET();
    s->have_steep = s->have_min_surface = s->have_secondary = 0;
    int kind = CF_SF_BKIND(sb);
    if (kind == SF_BIO_ERODED_BADLANDS) cf_sf_eroded_badlands(CF_SF_ARG, lx, lz, start);
    cf_i32 height = CF_SF_HMAP(lx, lz) + 1;
    cf_aq_rnd q = cf_aq_at_pos(CF_SF_ROOT_LO, CF_SF_ROOT_HI, CF_SF_LEGACY, s->x, 0, s->z);
    s->depth = (int)(CF_SF_COL(CF_SF_FIXED(SN_SURFACE)) * 2.75 + 3.0 + cf_sf_next_double(&q, CF_SF_LEGACY) * 0.25);
    s->stone_above = 0, s->water = CF_SF_NO_WATER, s->next_ceiling = 2147483647;
    for (cf_i32 y = height; CF_SF_WALK_ON(y); y--) {
        int b = CF_SF_GET(lx, y, lz);
        if (b == CF_BK_AIR) {
            s->stone_above = 0, s->water = CF_SF_NO_WATER;
            continue;
        }
        if (cf_sf_fluid(b)) {
            if (s->water == CF_SF_NO_WATER) s->water = y + 1;
            continue;
        }
        s->stone_above++;
        s->y = y, s->have_biome = 0, s->have_below = 0;
        if (b != CF_BK_SOLID && !CF_SF_F32) continue; /* 1.21: the default block only */
        int res = CF_SF_RULE();
        if (res >= 0) CF_SF_SET(lx, y, lz, res);
    }
    if (kind == SF_BIO_FROZEN_OCEAN) cf_sf_frozen_ocean(CF_SF_ARG, lx, lz, start, sb);
}

#ifndef CF_SF_NO_CHUNK
/* the surface stage of chunk (s->cx, s->cz): the heightmap, then the columns x outer, z inner */
CF_INLINE void cf_sf_chunk(CF_SF_CTX)
{
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            cf_i32 y = CF_SF_MINY + CF_SF_HEIGHT - 1;
            while (y >= CF_SF_MINY && CF_SF_GET(lx, y, lz) == CF_BK_AIR) y--;
            CF_SF_HMAP(lx, lz) = y;
        }
    for (int lx = 0; lx < 16; lx++)
        for (int lz = 0; lz < 16; lz++) cf_sf_column(CF_SF_ARG, s->cx, s->cz, lx, lz);
}
#endif

#endif /* CF_SF_CTX */
