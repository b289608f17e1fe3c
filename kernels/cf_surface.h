/* cf_surface.h - the surface stage on the device (../shared/MATERIAL-RULES.md §6): the
 * OpenCL form of host/cpu/surface.c, step for step, for both dialects: 1.18-1.21 SurfaceSystem
 * (f64 noises, the rule tried on the default block only) and, with CF_SF_F32, 26.3's
 * MaterialSystem (f32 point values widened, every non-air non-fluid block, ore_vein on the volume
 * path). One work item per chunk walks its
 * 256 columns in the CPU's order (x outer, z inner), so that the heightmap `steep` reads holds
 * what the columns before it wrote, as in the game.
 *
 * A template: the includer (host/opencl/emit.c) defines, before including it,
 *   CF_SF_CTX, CF_SF_ARG            the context parameter's declaration and its name
 *   CF_SF_OUT(out, x, y, z)         program output `out` at block (x, y, z) in the chunk's
 *                                   NoiseChunk context (double; host/cpu/aquifer121.c)
 *   CF_SF_LEVEL(x, z)               1.21: NoiseChunk.preliminarySurfaceLevel at block (x, z) (int)
 *   CF_SF_CSL(x, z)                 26.3: chunk_surface_level on the volume path at (x, 0, z), vmin 0 (float)
 *   CF_SF_VOL(out, x, y, z)         26.3: output `out` on the volume path of the chunk's fill (float)
 *   CF_SF_F32, CF_SF_MINY, CF_SF_HEIGHT, CF_SF_SEA, CF_SF_LEGACY, CF_SF_ROOT, CF_SF_NOUT, CF_SF_STACK
 *   sf_rows[] (CF_SF_ROW ints a row: kind, a[0..5], n, first kid), sf_d[] (2 a row),
 *   sf_kids[], sf_band[7], sf_fixed[SN_COUNT], sf_f[] (1 a row: raw_ore_chance) as __constant tables,
 * and the kernel passes the per-seed tables: ints (CF_SF_I_* below), the gradients' factories
 * (2 ulongs a random name), the climate noises' permutations (5 x 256 bytes).
 * Rules are walked with an explicit stack (OpenCL C has no recursion).
 */
#ifndef CF_SURFACE_H
#define CF_SURFACE_H

#define CF_SF_ROW 9
/* the int table: rule block -> palette index (then snow_block, packed_ice), per biome of the
 * source's palette its rule biome (-1), its kind (0 other, 1 eroded badlands, 2 frozen ocean),
 * frozen flag, base temperature (float bits); the clay bands */
#define CF_SF_I_PAL 0
#define CF_SF_I_BMAP 260
#define CF_SF_I_BKIND (CF_SF_I_BMAP + 256)
#define CF_SF_I_BFROZEN (CF_SF_I_BKIND + 256)
#define CF_SF_I_BTEMP (CF_SF_I_BFROZEN + 256)
#define CF_SF_I_BANDS (CF_SF_I_BTEMP + 256)
#define CF_SF_I_COUNT (CF_SF_I_BANDS + 192)

/* row kinds and fixed noises: host/ir/rules.h (the includer checks they agree) */
#define CF_SR_BLOCK 0
#define CF_SR_SEQUENCE 1
#define CF_SR_CONDITION 2
#define CF_SR_BANDLANDS 3
#define CF_SR_ORE_VEIN 4
#define CF_SC_STONE_DEPTH 5
#define CF_SC_Y_ABOVE 6
#define CF_SC_WATER 7
#define CF_SC_GRADIENT 8
#define CF_SC_NOISE 9
#define CF_SC_BIOME 10
#define CF_SC_NOT 11
#define CF_SC_HOLE 12
#define CF_SC_STEEP 13
#define CF_SC_ABOVE_PRELIMINARY 14
#define CF_SC_TEMPERATURE 15

#define CF_SF_NO_WATER (-2147483647 - 1)
#ifdef __OPENCL_VERSION__
#define CF_SF_TAB __constant const int *
#else
#define CF_SF_TAB const int *
#endif

/* the template (the host's C includes only the constants above) */
#ifdef CF_SF_CTX
#ifndef CF_BK_AIR
#error "include kernels/cf_aquifer.h first (the block kinds)"
#endif

typedef struct cf_sf {
    cf_i32 cx, cz, x, y, z;
    int depth, steep, have_steep, min_surface, have_min_surface, have_secondary;
    int stone_above, stone_below, biome, have_biome;
    cf_i32 water;
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

CF_INLINE double cf_sf_next_double(cf_aq_rnd *r)
{
    if (CF_SF_LEGACY) {
        cf_u64 hi = cf_aq_next32(r, 1, 26), lo = cf_aq_next32(r, 1, 27);
        return (double)((hi << 27) + lo) * 1.1102230246251565e-16;
    }
    return (double)(cf_aq_next64(r) >> 11) * 1.1102230246251565e-16;
}

CF_INLINE int cf_sf_block(const cf_sf *s, cf_i32 lx, cf_i32 y, cf_i32 lz)
{
    if (y < CF_SF_MINY || y >= CF_SF_MINY + CF_SF_HEIGHT) return CF_BK_AIR;
    return s->blk[((size_t)(y - CF_SF_MINY) * 16 + (size_t)lz) * 16 + (size_t)lx];
}
CF_INLINE void cf_sf_set(cf_sf *s, cf_i32 lx, cf_i32 y, cf_i32 lz, int b)
{
    if (y < CF_SF_MINY || y >= CF_SF_MINY + CF_SF_HEIGHT) return;
    s->blk[((size_t)(y - CF_SF_MINY) * 16 + (size_t)lz) * 16 + (size_t)lx] = (cf_u8)b;
    cf_i32 h = s->hmap[lz * 16 + lx];
    if (b != CF_BK_AIR && y > h) h = y;
    if (b == CF_BK_AIR && y == h)
        while (h >= CF_SF_MINY && cf_sf_block(s, lx, h, lz) == CF_BK_AIR) h--;
    s->hmap[lz * 16 + lx] = h;
}
CF_INLINE int cf_sf_fluid(int b) { return b == CF_BK_WATER || b == CF_BK_LAVA || b == CF_BK_FLUID; }

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

CF_INLINE cf_i32 cf_sf_min_surface(CF_SF_CTX, cf_sf *s)
{
    if (!s->have_min_surface && CF_SF_F32) {
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

CF_INLINE double cf_sf_col(CF_SF_CTX, cf_sf *s, int out)
{
    if (!s->have_col[out]) s->col[out] = CF_SF_OUT(out, (double)s->x, 0.0, (double)s->z), s->have_col[out] = 1;
    return s->col[out];
}

/* PerlinSimplexNoise of octaves 1-n .. 0 (tables k0 .. k0+n-1 of psn), as surface.c's psn_value */
CF_INLINE double cf_sf_psn(const cf_sf *s, int k0, int n, double val0, double x, double y)
{
    double d = 0.0, e = 1.0, f = val0;
    for (int k = 0; k < n; k++, e /= 2.0, f *= 2.0) d += cf_simplex2(s->psn + (size_t)(k0 + k) * 256, 0.0, 0.0, x * e, y * e) * f;
    return d;
}

/* Biome.getHeightAdjustedTemperature at (x, y, z) */
CF_INLINE float cf_sf_temperature(const cf_sf *s, int b, cf_i32 y)
{
    float t = as_float(s->ints[CF_SF_I_BTEMP + b]);
    if (s->ints[CF_SF_I_BFROZEN + b]) {
        double d = cf_sf_psn(s, 1, 3, 1.0 / 7.0, s->x * 0.05, s->z * 0.05) * 7.0;
        double e = cf_sf_psn(s, 4, 1, 1.0, s->x * 0.2, s->z * 0.2);
        if (d + e < 0.3 && cf_sf_psn(s, 4, 1, 1.0, s->x * 0.09, s->z * 0.09) < 0.8) t = 0.2f;
    }
    cf_i32 snow = CF_SF_SEA + 17;
    if (y > snow) {
        float g = (float)(cf_sf_psn(s, 0, 1, 1.0, (double)((float)s->x / 8.0f), (double)((float)s->z / 8.0f)) * 8.0);
        t -= (g + (float)y - (float)snow) * 0.05f / 40.0f;
    }
    return t;
}

CF_INLINE int cf_sf_cond(CF_SF_CTX, cf_sf *s, int row)
{
    int neg = 0;
    while (sf_rows[row * CF_SF_ROW] == CF_SC_NOT) neg ^= 1, row = sf_rows[row * CF_SF_ROW + 1];
    CF_SF_TAB r = sf_rows + row * CF_SF_ROW;
    CF_SF_TAB a = r + 1;
    int v = 0;
    switch (r[0]) {
    case CF_SC_STONE_DEPTH: {
        int d = a[3] ? s->stone_below : s->stone_above;
        int sec = 0;
        if (a[2] != 0) {
            if (!s->have_secondary) s->secondary = cf_sf_col(CF_SF_ARG, s, sf_fixed[1]), s->have_secondary = 1;
            double t = (s->secondary - -1.0) / (1.0 - -1.0);
            sec = (int)(0.0 + t * ((double)a[2] - 0.0));
        }
        v = d <= 1 + a[0] + (a[1] ? s->depth : 0) + sec;
        break;
    }
    case CF_SC_Y_ABOVE: v = s->y + (a[2] ? s->stone_above : 0) >= a[0] + s->depth * a[1]; break;
    case CF_SC_WATER:
        v = s->water == CF_SF_NO_WATER || s->y + (a[2] ? s->stone_above : 0) >= s->water + a[0] + s->depth * a[1];
        break;
    case CF_SC_GRADIENT: {
        cf_i32 t = a[0], f = a[1];
        if (s->y <= t) v = 1;
        else if (s->y >= f) v = 0;
        else {
            double p = 1.0 + (((double)s->y - (double)t) / ((double)f - (double)t)) * (0.0 - 1.0);
            cf_aq_rnd q = cf_aq_at_pos(s->grad[2 * a[2]], s->grad[2 * a[2] + 1], CF_SF_LEGACY, s->x, s->y, s->z);
            v = (double)cf_aq_next_float(&q, CF_SF_LEGACY) < p;
        }
        break;
    }
    case CF_SC_NOISE: {
        double n = a[1] ? CF_SF_OUT(a[0], (double)s->x, (double)s->y, (double)s->z) : cf_sf_col(CF_SF_ARG, s, a[0]);
        v = n >= sf_d[2 * row] && n <= sf_d[2 * row + 1];
        break;
    }
    case CF_SC_BIOME: {
        if (!s->have_biome) s->biome = cf_sf_biome_src(s, s->x, s->y, s->z), s->have_biome = 1;
        int b = s->ints[CF_SF_I_BMAP + s->biome];
        for (int i = 0; i < r[7]; i++)
            if (sf_kids[r[8] + i] == b) v = 1;
        break;
    }
    case CF_SC_HOLE: v = s->depth <= 0; break;
    case CF_SC_STEEP:
        if (!s->have_steep) {
            int lx = s->x & 15, lz = s->z & 15;
            int zm = lz > 0 ? lz - 1 : 0, zp = lz < 15 ? lz + 1 : 15, xm = lx > 0 ? lx - 1 : 0, xp = lx < 15 ? lx + 1 : 15;
            s->steep = s->hmap[zp * 16 + lx] >= s->hmap[zm * 16 + lx] + 4 || s->hmap[lz * 16 + xm] >= s->hmap[lz * 16 + xp] + 4;
            s->have_steep = 1;
        }
        v = s->steep;
        break;
    case CF_SC_ABOVE_PRELIMINARY: v = s->y >= cf_sf_min_surface(CF_SF_ARG, s); break;
    case CF_SC_TEMPERATURE:
        if (!s->have_biome) s->biome = cf_sf_biome_src(s, s->x, s->y, s->z), s->have_biome = 1;
        v = cf_sf_temperature(s, s->biome, s->y) < 0.15f;
        break;
    default: v = 0;
    }
    return v ^ neg;
}

/* the rule's result at the current block: a palette index, or -1 */
CF_INLINE int cf_sf_rule(CF_SF_CTX, cf_sf *s)
{
    int stk[CF_SF_STACK], nxt[CF_SF_STACK], sp = 0, cur = CF_SF_ROOT;
    for (;;) {
        CF_SF_TAB r = sf_rows + cur * CF_SF_ROW;
        CF_SF_TAB a = r + 1;
        int res = -1;
        switch (r[0]) {
        case CF_SR_BLOCK: res = s->ints[CF_SF_I_PAL + a[0]]; break;
        case CF_SR_CONDITION:
            if (cf_sf_cond(CF_SF_ARG, s, a[0])) {
                cur = a[1];
                continue;
            }
            break;
        case CF_SR_SEQUENCE:
            if (sp == CF_SF_STACK) return -1; /* the emitter sizes the stack: never */
            stk[sp] = cur, nxt[sp] = 0, sp++;
            break;
        case CF_SR_BANDLANDS:
            if (CF_SF_F32) { /* Math.round(f32 * 4f) */
                float v = (float)cf_sf_col(CF_SF_ARG, s, sf_fixed[2]) * 4.0f;
                int o = (int)floor(v + 0.5f);
                res = s->ints[CF_SF_I_PAL + sf_band[s->ints[CF_SF_I_BANDS + ((s->y + o) % 192 + 192) % 192]]];
            } else {
                int o = (int)cf_floor(cf_sf_col(CF_SF_ARG, s, sf_fixed[2]) * 4.0 + 0.5);
                int i = ((s->y + o + 192) % 192 + 192) % 192;
                res = s->ints[CF_SF_I_PAL + sf_band[s->ints[CF_SF_I_BANDS + i]]];
            }
            break;
        case CF_SR_ORE_VEIN: { /* 26.3 (§5.3) */
            float d = CF_SF_VOL(a[3], s->x, s->y, s->z);
            if (!(d > 0.0f)) break;
            cf_aq_rnd q = cf_aq_at_pos(s->olo, s->ohi, CF_SF_LEGACY, s->x, s->y, s->z);
            if (cf_aq_next_float(&q, CF_SF_LEGACY) > d) break;
            float rich = CF_SF_VOL(a[4], s->x, s->y, s->z);
            if (cf_aq_next_float(&q, CF_SF_LEGACY) < rich && CF_SF_OUT(a[5], (double)s->x, (double)s->y, (double)s->z) < 0.0)
                res = s->ints[CF_SF_I_PAL + (cf_aq_next_float(&q, CF_SF_LEGACY) < sf_f[cur] ? a[1] : a[0])];
            else
                res = s->ints[CF_SF_I_PAL + a[2]];
            break;
        }
        default: break;
        }
        if (r[0] != CF_SR_SEQUENCE && res >= 0) return res;
        /* the next child of the innermost sequence with one left */
        for (;;) {
            if (sp == 0) return -1;
            CF_SF_TAB q = sf_rows + stk[sp - 1] * CF_SF_ROW;
            if (nxt[sp - 1] < q[7]) {
                cur = sf_kids[q[8] + nxt[sp - 1]++];
                break;
            }
            sp--;
        }
    }
}

CF_INLINE void cf_sf_eroded_badlands(CF_SF_CTX, cf_sf *s, int lx, int lz, cf_i32 start)
{
    double x = s->x, z = s->z;
    double e = fmin(fabs(CF_SF_OUT(sf_fixed[3], x, 0.0, z) * 8.25), CF_SF_OUT(sf_fixed[4], x, 0.0, z) * 15.0);
    if (e <= 0.0) return;
    double g = fabs(CF_SF_OUT(sf_fixed[5], x, 0.0, z) * 1.5);
    double h = 64.0 + fmin(e * e * 2.5, ceil(g * 50.0) + 24.0);
    cf_i32 top = cf_jfloor(h);
    if (start > top) return;
    for (cf_i32 y = top; y >= CF_SF_MINY; y--) {
        int b = cf_sf_block(s, lx, y, lz);
        if (b == CF_BK_SOLID) break;
        if (b == CF_BK_WATER) return;
    }
    for (cf_i32 y = top; y >= CF_SF_MINY && cf_sf_block(s, lx, y, lz) == CF_BK_AIR; y--) cf_sf_set(s, lx, y, lz, CF_BK_SOLID);
}

CF_INLINE void cf_sf_frozen_ocean(CF_SF_CTX, cf_sf *s, int lx, int lz, cf_i32 start, int biome, int snowb, int iceb)
{
    double x = s->x, z = s->z;
    double e = fmin(fabs(CF_SF_OUT(sf_fixed[6], x, 0.0, z) * 8.25), CF_SF_OUT(sf_fixed[7], x, 0.0, z) * 15.0);
    if (e <= 1.8) return;
    double h = fabs(CF_SF_OUT(sf_fixed[8], x, 0.0, z) * 1.5);
    double top = fmin(e * e * 1.2, ceil(h * 40.0) + 14.0);
    if (cf_sf_temperature(s, biome, CF_SF_SEA) > 0.1f) top -= 2.0;
#if CF_SF_F32
    if (top <= 2.0) return; /* 26.3 returns; 1.21 runs the loop with top = bottom = 0 */
#endif
    double bottom;
    if (top > 2.0) {
        bottom = (double)CF_SF_SEA - top - 7.0;
        top += CF_SF_SEA;
    } else {
        top = 0.0, bottom = 0.0;
    }
    cf_aq_rnd r = cf_aq_at_pos(s->rlo, s->rhi, CF_SF_LEGACY, s->x, 0, s->z);
    int maxsnow = 2 + cf_aq_next_int(&r, CF_SF_LEGACY, 4);
    int minsnow = CF_SF_SEA + 18 + cf_aq_next_int(&r, CF_SF_LEGACY, 10);
    int n = 0;
    cf_i32 itop = (cf_i32)top, ibot = (cf_i32)bottom, msl = cf_sf_min_surface(CF_SF_ARG, s);
    for (cf_i32 y = start > itop + 1 ? start : itop + 1; y >= msl; y--) {
        int b = cf_sf_block(s, lx, y, lz);
        if ((b == CF_BK_AIR && y < itop && cf_sf_next_double(&r) > 0.01)
            || (b == CF_BK_WATER && y > ibot && y < CF_SF_SEA && bottom != 0.0 && cf_sf_next_double(&r) > 0.15)) {
            if (n <= maxsnow && y > minsnow) {
                cf_sf_set(s, lx, y, lz, snowb);
                n++;
            } else {
                cf_sf_set(s, lx, y, lz, iceb);
            }
        }
    }
}

/* surface.c's surface_apply on chunk (s->cx, s->cz) */
CF_INLINE void cf_sf_chunk(CF_SF_CTX, cf_sf *s)
{
    int snowb = s->ints[CF_SF_I_PAL + CF_SF_NBLOCKS], iceb = s->ints[CF_SF_I_PAL + CF_SF_NBLOCKS + 1];
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            cf_i32 y = CF_SF_MINY + CF_SF_HEIGHT - 1;
            while (y >= CF_SF_MINY && cf_sf_block(s, lx, y, lz) == CF_BK_AIR) y--;
            s->hmap[lz * 16 + lx] = y;
        }
    for (int lx = 0; lx < 16; lx++)
        for (int lz = 0; lz < 16; lz++) {
            s->x = s->cx * 16 + lx, s->z = s->cz * 16 + lz;
            cf_i32 start = s->hmap[lz * 16 + lx] + 1;
#if CF_SF_F32
            int sb = cf_sf_biome_src(s, s->x, start, s->z);
#else
            int sb = cf_sf_biome_src(s, s->x, CF_SF_LEGACY ? 0 : start, s->z);
#endif
            for (int k = 0; k < CF_SF_NOUT; k++) s->have_col[k] = 0;
            s->have_steep = s->have_min_surface = s->have_secondary = 0;
            int kind = s->ints[CF_SF_I_BKIND + sb];
            if (kind == 1) cf_sf_eroded_badlands(CF_SF_ARG, s, lx, lz, start);
            cf_i32 height = s->hmap[lz * 16 + lx] + 1;
            cf_aq_rnd q = cf_aq_at_pos(s->rlo, s->rhi, CF_SF_LEGACY, s->x, 0, s->z);
            double sn = cf_sf_col(CF_SF_ARG, s, sf_fixed[0]);
            s->depth = (int)(sn * 2.75 + 3.0 + cf_sf_next_double(&q) * 0.25);
            s->stone_above = 0, s->water = CF_SF_NO_WATER;
            cf_i32 next_ceiling = 2147483647;
            for (cf_i32 y = height; y >= CF_SF_MINY; y--) {
                int b = cf_sf_block(s, lx, y, lz);
                if (b == CF_BK_AIR) {
                    s->stone_above = 0, s->water = CF_SF_NO_WATER;
                    continue;
                }
                if (cf_sf_fluid(b)) {
                    if (s->water == CF_SF_NO_WATER) s->water = y + 1;
                    continue;
                }
                if (next_ceiling >= y) {
                    next_ceiling = CF_SF_NO_WATER;
                    for (cf_i32 t = y - 1; t >= CF_SF_MINY - 1; t--) {
                        int c = cf_sf_block(s, lx, t, lz);
                        if (c == CF_BK_AIR || cf_sf_fluid(c)) {
                            next_ceiling = t + 1;
                            break;
                        }
                    }
                }
                s->stone_above++;
                s->stone_below = y - next_ceiling + 1;
                s->y = y, s->have_biome = 0;
#if !CF_SF_F32
                if (b != CF_BK_SOLID) continue; /* 1.21: the default block only */
#endif
                int res = cf_sf_rule(CF_SF_ARG, s);
                if (res >= 0) cf_sf_set(s, lx, y, lz, res);
            }
            if (kind == 2) cf_sf_frozen_ocean(CF_SF_ARG, s, lx, lz, start, sb, snowb, iceb);
        }
}

#endif /* CF_SF_CTX */
#endif /* CF_SURFACE_H */
