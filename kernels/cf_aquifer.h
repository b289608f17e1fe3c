/* cf_aquifer.h - the blocks of the noise stage: vanilla 26.3's aquifer
 * (MINECRAFT-26.3.md §14, the oracle's M10/M11), shared by the CPU reference
 * (host/cpu/aquifer.c) and the generated OpenCL programs (host/opencl/emit.c).
 *
 * A template: the includer defines, before including it,
 *   CF_AQ_CTX                      the context parameter's declaration
 *   CF_AQ_ARG                      the context argument (its name)
 *   CF_AQ_SEA, CF_AQ_FLUID         sea level and the default fluid's kind
 *   CF_AQ_LEGACY                   1 when the settings use the legacy random source
 *   CF_AQ_SURFACE(x, z)            floor(surface_level) at the quart column of block (x, z)
 *   CF_AQ_FN(k, x, y, z)           aquifer function k (CF_AQF_*) on the point path (float)
 *   CF_AQ_STATUS(i)                the fluid status of grid cell i of the chunk (cf_aq_fluid)
 *   CF_AQ_CENTRES                  the type of a pointer to the cell centres (3 ints a cell)
 * Everything is in Java's int/double arithmetic on the float values the
 * functions return; the order of every step is the oracle's.
 */
#ifndef CF_AQUIFER_H
#define CF_AQUIFER_H

/* block kinds: the palette indices of a block fill */
#define CF_BK_SOLID 0 /* the settings' default block */
#define CF_BK_AIR 1
#define CF_BK_WATER 2
#define CF_BK_LAVA 3
#define CF_BK_FLUID 4 /* a default fluid that is neither air, water nor lava */
#define CF_BK_COUNT 5
/* the ore veins of the 1.18-1.21 noise stage (OreVeinifier, MATERIAL-RULES.md §3) */
#define CF_BK_COPPER_ORE 5
#define CF_BK_RAW_COPPER 6
#define CF_BK_GRANITE 7
#define CF_BK_IRON_ORE 8 /* deepslate_iron_ore */
#define CF_BK_RAW_IRON 9
#define CF_BK_TUFF 10
#define CF_BK_VEIN_COUNT 11

/* the aquifer functions, in the order of cf_aquifer_fields (host/frontend/mc263/parse.c) */
#define CF_AQF_BARRIER 0
#define CF_AQF_FLOODEDNESS 1
#define CF_AQF_SPREAD 2
#define CF_AQF_LAVA 3
#define CF_AQF_EXCLUSION 4
#define CF_AQF_SURFACE 5

#define CF_AQ_NO_FLUID (-32512) /* DimensionType.WAY_BELOW_MIN_Y */

typedef struct cf_aq_fluid {
    cf_i32 level, kind;
} cf_aq_fluid;

/* the aquifer grid of chunk (cx, cz): cells (gx, gy, gz) with gx in [cx-1, cx+1],
 * gz in [cz-1, cz+1], gy in [gy0, gy0 + ny); index ((gy-gy0)*3 + gz-cz+1)*3 + gx-cx+1 */
CF_INLINE cf_i32 cf_aq_gy0(cf_i32 min_y) { return (cf_i32)cf_floordiv(min_y + 1, 12) - 1; }
CF_INLINE cf_i32 cf_aq_ny(cf_i32 min_y, cf_i32 height)
{
    return (cf_i32)cf_floordiv(min_y + height - 1 + 1, 12) + 1 - cf_aq_gy0(min_y) + 1;
}

/* The surface-level grid of a chunk: quart columns qx in [4cx-16, 4cx+10],
 * qz in [4cz-8, 4cz+10] (every column a fluid status can read); the box
 * qx in [4cx-4, 4cx+6], qz in [4cz-4, 4cz+6] comes from the volume path. */
#define CF_AQ_SQX 27
#define CF_AQ_SQZ 19
#if CF_AQ_SQX * CF_AQ_SQZ != 27 * 19
#error "host/cpu/aquifer.c sizes its surface grid as 27 x 19"
#endif
#define CF_AQ_SQ (CF_AQ_SQX * CF_AQ_SQZ)
#define CF_AQ_BOX 11

/* Mth.getSeed(x, y, z), with Java's int product for x */
CF_INLINE cf_i64 cf_aq_getseed(cf_i32 x, cf_i32 y, cf_i32 z)
{
    cf_u64 l = (cf_u64)(cf_i64)(cf_i32)((cf_u32)x * 3129871u) ^ ((cf_u64)(cf_i64)z * (cf_u64)116129781)
             ^ (cf_u64)(cf_i64)y;
    l = l * l * (cf_u64)42317861 + l * (cf_u64)11;
    cf_u64 s = l >> 16;
    if (l >> 63) s |= ~((~(cf_u64)0) >> 16); /* arithmetic shift */
    return (cf_i64)s;
}

/* one positional random: Xoroshiro128++ (lo, hi) or java.util.Random (48 bits in lo) */
typedef struct cf_aq_rnd {
    cf_u64 lo, hi;
} cf_aq_rnd;

#ifdef __OPENCL_VERSION__
CF_INLINE cf_u64 cf_aq_rotl(cf_u64 x, int k) { return rotate(x, (cf_u64)k); } /* the builtin (oclgrind has no funnel shift) */
#else
CF_INLINE cf_u64 cf_aq_rotl(cf_u64 x, int k) { return (x << k) | (x >> (64 - k)); }
#endif

/* Xoroshiro128++ nextLong */
CF_INLINE cf_u64 cf_aq_next64(cf_aq_rnd *r)
{
    cf_u64 lo = r->lo, hi = r->hi;
    cf_u64 n = cf_aq_rotl(lo + hi, 17) + lo;
    hi ^= lo;
    r->lo = cf_aq_rotl(lo, 49) ^ hi ^ (hi << 21);
    r->hi = cf_aq_rotl(hi, 28);
    return n;
}

CF_INLINE cf_u32 cf_aq_next32(cf_aq_rnd *r, int legacy, int bits)
{
    if (legacy) {
        r->lo = (r->lo * (cf_u64)0x5deece66d + (cf_u64)0xb) & (((cf_u64)1 << 48) - 1);
        return (cf_u32)(r->lo >> (48 - bits));
    }
    return (cf_u32)cf_aq_next64(r);
}

/* nextFloat: Xoroshiro (nextLong >>> 40) * 2^-24, legacy next(24) * 2^-24 (exact) */
CF_INLINE float cf_aq_next_float(cf_aq_rnd *r, int legacy)
{
    cf_u32 b = legacy ? cf_aq_next32(r, 1, 24) : (cf_u32)(cf_aq_next64(r) >> 40);
    return (float)b * 5.9604645E-8f;
}

/* a positional factory (lo, hi) at (x, y, z): Xoroshiro (getSeed ^ lo, hi), legacy java.util.Random(getSeed ^ lo) */
CF_INLINE cf_aq_rnd cf_aq_at_pos(cf_u64 lo, cf_u64 hi, int legacy, cf_i32 x, cf_i32 y, cf_i32 z)
{
    cf_aq_rnd r;
    cf_u64 s = (cf_u64)cf_aq_getseed(x, y, z);
    if (legacy) {
        r.lo = ((s ^ lo) ^ (cf_u64)0x5deece66d) & (((cf_u64)1 << 48) - 1);
        r.hi = 0;
    } else {
        r.lo = s ^ lo, r.hi = hi;
        if (r.lo == 0 && r.hi == 0) r.lo = (cf_u64)0x9e3779b97f4a7c15, r.hi = (cf_u64)0x6a09e667f3bcc909;
    }
    return r;
}

/* nextInt(bound), 0 < bound < 2^31 small (Xoroshiro: Lemire; legacy: java.util.Random) */
CF_INLINE cf_i32 cf_aq_next_int(cf_aq_rnd *r, int legacy, cf_i32 bound)
{
    if (!legacy) {
        cf_u64 m = (cf_u64)cf_aq_next32(r, 0, 32) * (cf_u64)bound;
        if ((m & 0xffffffffu) < (cf_u64)bound) {
            cf_u32 t = (cf_u32)(0u - (cf_u32)bound) % (cf_u32)bound;
            while ((m & 0xffffffffu) < (cf_u64)t) m = (cf_u64)cf_aq_next32(r, 0, 32) * (cf_u64)bound;
        }
        return (cf_i32)(m >> 32);
    }
    if ((bound & -bound) == bound) return (cf_i32)(((cf_i64)bound * (cf_i64)cf_aq_next32(r, 1, 31)) >> 31);
    cf_i32 bits, val;
    do {
        bits = (cf_i32)cf_aq_next32(r, 1, 31);
        val = bits % bound;
    } while ((cf_i32)((cf_u32)bits - (cf_u32)val + (cf_u32)(bound - 1)) < 0);
    return val;
}

/* the centre of aquifer cell (gx, gy, gz): positional("minecraft:aquifer").at(gx, gy, gz),
 * (16gx + nextInt(10), 12gy + nextInt(9), 16gz + nextInt(10)); packed in c[0..2] */
CF_INLINE void cf_aq_centre(cf_u64 lo, cf_u64 hi, int legacy, cf_i32 gx, cf_i32 gy, cf_i32 gz, cf_i32 *c)
{
    cf_aq_rnd r = cf_aq_at_pos(lo, hi, legacy, gx, gy, gz);
    c[0] = (cf_i32)((cf_u32)gx * 16u + (cf_u32)cf_aq_next_int(&r, legacy, 10));
    c[1] = (cf_i32)((cf_u32)gy * 12u + (cf_u32)cf_aq_next_int(&r, legacy, 9));
    c[2] = (cf_i32)((cf_u32)gz * 16u + (cf_u32)cf_aq_next_int(&r, legacy, 10));
}

/* OreVeinifier (1.18-1.21, MATERIAL-RULES.md §3.3), in three steps so that the caller reads vein_ridged and
 * vein_gap only where vanilla does (every value is f64; the draws are positional, so laziness changes nothing).
 * Steps 1-4: -1 (no vein), else the vein's filler kind; *r is the block's random after its first draw. */
CF_INLINE cf_i32 cf_aq_vein_start(cf_u64 lo, cf_u64 hi, int legacy, cf_i32 x, cf_i32 y, cf_i32 z, double toggle, cf_aq_rnd *r)
{
    int copper = toggle > 0.0;
    double e = cf_fabs(toggle);
    cf_i32 j = copper ? 50 - y : -8 - y, k = copper ? y - 0 : y - -60;
    if (k < 0 || j < 0) return -1;
    double l = (double)(j < k ? j : k);
    double t = l / 20.0; /* clampedMap(l, 0, 20, -0.2, 0.0) */
    double f = t < 0.0 ? -0.2 : t > 1.0 ? 0.0 : -0.2 + t * (0.0 - -0.2);
    if (e + f < (double)0.4f) return -1;
    *r = cf_aq_at_pos(lo, hi, legacy, x, y, z);
    if (cf_aq_next_float(r, legacy) > 0.7f) return -1;
    return copper ? CF_BK_GRANITE : CF_BK_TUFF;
}
/* step 6's draw, after vein_ridged < 0: 1 when the block may be ore (then vein_gap decides) */
CF_INLINE int cf_aq_vein_draw(double toggle, cf_aq_rnd *r, int legacy)
{
    double e = cf_fabs(toggle);
    double t = (e - (double)0.4f) / ((double)0.6f - (double)0.4f); /* clampedMap(e, 0.4f, 0.6f, 0.1f, 0.3f) */
    double g = t < 0.0 ? (double)0.1f : t > 1.0 ? (double)0.3f : (double)0.1f + t * ((double)0.3f - (double)0.1f);
    return (double)cf_aq_next_float(r, legacy) < g;
}
/* the ore block of a filler kind (vein_gap > (double)-0.3f): raw with chance 0.02f */
CF_INLINE cf_i32 cf_aq_vein_ore(cf_i32 filler, cf_aq_rnd *r, int legacy)
{
    int raw = cf_aq_next_float(r, legacy) < 0.02f;
    if (filler == CF_BK_GRANITE) return raw ? CF_BK_RAW_COPPER : CF_BK_COPPER_ORE;
    return raw ? CF_BK_RAW_IRON : CF_BK_IRON_ORE;
}

#ifdef CF_AQ_CTX /* the template: what the includer's macros complete */
#ifndef CF_AQ_REAL
#define CF_AQ_REAL float /* the functions' values: float (26.3) or double (1.18-1.21) */
#endif
#ifndef CF_AQ_EXCLUDED /* 26.3: the exclusion function (1.21: the deep dark region of erosion and depth) */
#define CF_AQ_EXCLUDED(x, y, z) (CF_AQ_FN(CF_AQF_EXCLUSION, (x), (y), (z)) > 0.0f)
#endif

/* the global fluid picker: lava below min(-54, sea level), else the default fluid */
CF_INLINE cf_aq_fluid cf_aq_global(cf_i32 sea, cf_i32 fluid, cf_i32 y)
{
    cf_aq_fluid f;
    if (y < (sea < -54 ? sea : -54)) f.level = -54, f.kind = CF_BK_LAVA;
    else f.level = sea, f.kind = fluid;
    return f;
}
CF_INLINE cf_i32 cf_aq_at(cf_aq_fluid f, cf_i32 y) { return y < f.level ? f.kind : CF_BK_AIR; }

/* skipSamplingAboveY = fromGridY(gridY(max surface + 8 + 12) + 1, 11); blocks above
 * skip - 1 take the global fluid (the oracle's M10) */
CF_INLINE cf_i32 cf_aq_skip(cf_i32 max_surface)
{
    cf_i32 adj = (cf_i32)((cf_u32)max_surface + 8u + 12u);
    return (cf_i32)((cf_u32)(cf_i32)cf_floordiv(adj, 12) * 12u + 12u + 11u);
}

/* the surface sampling offsets in chunks, the centre first */
#define CF_AQ_OFFX 0x4321421043213ul /* ox + 3 per nibble, offset 0 in the low nibble */
#define CF_AQ_OFFZ 0x2222111100001ul /* oz + 1 */

/* a cell's fluid status at its centre (x, y, z) (Aquifer.computeFluid) */
CF_INLINE cf_aq_fluid cf_aq_compute_fluid(CF_AQ_CTX, cf_i32 x, cf_i32 y, cf_i32 z)
{
    cf_aq_fluid g = cf_aq_global(CF_AQ_SEA, CF_AQ_FLUID, y);
    cf_i32 lowest = 2147483647, under = 0;
    cf_i32 top = (cf_i32)((cf_u32)y + 12u), bottom = (cf_i32)((cf_u32)y - 12u);
    for (int k = 0; k < 13; k++) {
        cf_i32 ox = (cf_i32)((CF_AQ_OFFX >> (4 * k)) & 15u) - 3, oz = (cf_i32)((CF_AQ_OFFZ >> (4 * k)) & 15u) - 1;
        cf_i32 sx = (cf_i32)((cf_u32)x + (cf_u32)ox * 16u), sz = (cf_i32)((cf_u32)z + (cf_u32)oz * 16u);
        cf_i32 surface = CF_AQ_SURFACE(sx, sz);
        cf_i32 adjusted = (cf_i32)((cf_u32)surface + 8u);
        if (k == 0 && bottom > adjusted) return g;
        int pokes = top > adjusted;
        if (pokes || k == 0) {
            cf_aq_fluid at = cf_aq_global(CF_AQ_SEA, CF_AQ_FLUID, adjusted);
            if (cf_aq_at(at, adjusted) != CF_BK_AIR) {
                if (k == 0) under = 1;
                if (pokes) return at;
            }
        }
        if (surface < lowest) lowest = surface;
    }
    double partial, full;
    if (CF_AQ_EXCLUDED(x, y, z)) {
        partial = -1.0, full = -1.0;
    } else {
        cf_i32 below = (cf_i32)((cf_u32)lowest + 8u - (cf_u32)y);
        double rel = (double)below / 64.0;
        double factor = under ? (rel < 0.0 ? 1.0 : rel > 1.0 ? 0.0 : 1.0 + rel * (0.0 - 1.0)) : 0.0;
        double fl = (double)CF_AQ_FN(CF_AQF_FLOODEDNESS, x, y, z);
        fl = fl < -1.0 ? -1.0 : fl > 1.0 ? 1.0 : fl;
        double inv = (factor - 1.0) / (0.0 - 1.0);
        double full_t = -0.3 + inv * (0.8 - -0.3), part_t = -0.8 + inv * (0.4 - -0.8);
        partial = fl - part_t;
        full = fl - full_t;
    }
    cf_i32 level;
    if (full > 0.0) {
        level = g.level;
    } else if (partial > 0.0) {
        cf_i32 cx = (cf_i32)cf_floordiv(x, 16), cy = (cf_i32)cf_floordiv(y, 40), cz = (cf_i32)cf_floordiv(z, 16);
        CF_AQ_REAL spread = CF_AQ_FN(CF_AQF_SPREAD, cx, cy, cz) * (CF_AQ_REAL)10;
        cf_i32 v = (cf_i32)((cf_u32)cy * 40u + 20u + (cf_u32)cf_jfloor((double)spread / 3.0) * 3u);
        level = lowest < v ? lowest : v;
    } else {
        level = CF_AQ_NO_FLUID;
    }
    cf_aq_fluid s;
    s.level = level;
    s.kind = g.kind;
    if (level <= -10 && level != CF_AQ_NO_FLUID && g.kind != CF_BK_LAVA) {
        CF_AQ_REAL lava = CF_AQ_FN(CF_AQF_LAVA, (cf_i32)cf_floordiv(x, 64), (cf_i32)cf_floordiv(y, 40), (cf_i32)cf_floordiv(z, 64));
        if (cf_fabs((double)lava) > 0.3) s.kind = CF_BK_LAVA;
    }
    return s;
}

/* the three nearest cell centres of block (x, y, z) in the grid of chunk (cx, cz):
 * cell indices i[0..2] and squared distances d[0..2], in vanilla's visiting order
 * (x, then y, then z) with ties going to the later cell */
CF_INLINE void cf_aq_nearest(CF_AQ_CENTRES cen, cf_i32 ccx, cf_i32 ccz, cf_i32 gy0, cf_i32 x, cf_i32 y, cf_i32 z,
                             cf_i32 *i, cf_i32 *d)
{
    cf_i32 ax = (cf_i32)cf_floordiv(x - 5, 16), ay = (cf_i32)cf_floordiv(y + 1, 12), az = (cf_i32)cf_floordiv(z - 5, 16);
    d[0] = d[1] = d[2] = 2147483647;
    i[0] = i[1] = i[2] = 0;
    for (int x1 = 0; x1 <= 1; x1++)
        for (int y1 = -1; y1 <= 1; y1++)
            for (int z1 = 0; z1 <= 1; z1++) {
                cf_i32 idx = ((ay + y1 - gy0) * 3 + az + z1 - ccz + 1) * 3 + ax + x1 - ccx + 1;
                cf_i32 dx = cen[3 * idx] - x, dy = cen[3 * idx + 1] - y, dz = cen[3 * idx + 2] - z;
                cf_i32 dd = dx * dx + dy * dy + dz * dz;
                if (d[0] >= dd) {
                    i[2] = i[1], i[1] = i[0], i[0] = idx;
                    d[2] = d[1], d[1] = d[0], d[0] = dd;
                } else if (d[1] >= dd) {
                    i[2] = i[1], i[1] = idx;
                    d[2] = d[1], d[1] = dd;
                } else if (d[2] >= dd) {
                    i[2] = idx;
                    d[2] = dd;
                }
            }
}

CF_INLINE double cf_aq_similarity(cf_i32 a, cf_i32 b) { return 1.0 - (double)(b - a) / 25.0; }

/* Aquifer.calculatePressure; *barrier caches the barrier noise of the block (NaN = not yet) */
CF_INLINE double cf_aq_pressure(CF_AQ_CTX, cf_i32 x, cf_i32 y, cf_i32 z, double *barrier, cf_aq_fluid fa, cf_aq_fluid fb)
{
    cf_i32 ta = cf_aq_at(fa, y), tb = cf_aq_at(fb, y);
    if ((ta == CF_BK_LAVA && tb == CF_BK_WATER) || (ta == CF_BK_WATER && tb == CF_BK_LAVA)) return 2.0;
    /* |level difference| (an int in Java; exact in double, and no integer abs, which
     * oclgrind cannot run) */
    double diff = cf_fabs((double)fa.level - (double)fb.level);
    if (diff == 0.0) return 0.0;
    double avg = (double)(fa.level + fb.level) / 2.0;
    double avgdiff = (double)y + 0.5 - avg;
    double p = diff / 2.0 - cf_fabs(avgdiff);
    double g = avgdiff > 0.0 ? (p > 0.0 ? p / 1.5 : p / 2.5) : (p + 3.0 > 0.0 ? (p + 3.0) / 3.0 : (p + 3.0) / 10.0);
    if (g < -2.0 || g > 2.0) return 2.0 * g;
    if (cf_isnan(*barrier)) *barrier = (double)CF_AQ_FN(CF_AQF_BARRIER, x, y, z);
    return 2.0 * (g + *barrier);
}

/* Which statuses the decision of a block may read: bit k = nearest cell k
 * (a superset: the device computes those before deciding). */
CF_INLINE int cf_aq_needs(const cf_i32 *d) { return cf_aq_similarity(d[0], d[1]) <= 0.0 ? 1 : 7; }

/* Aquifer.computeSubstance for a block with density <= 0 below the chunk's
 * skip level, where the global fluid is not lava (the caller checks those) */
CF_INLINE cf_i32 cf_aq_decide(CF_AQ_CTX, cf_i32 x, cf_i32 y, cf_i32 z, CF_AQ_REAL density, const cf_i32 *i, const cf_i32 *d)
{
    cf_aq_fluid s1 = CF_AQ_STATUS(i[0]);
    double sim12 = cf_aq_similarity(d[0], d[1]);
    cf_i32 fluid = cf_aq_at(s1, y);
    if (sim12 <= 0.0) return fluid;
    if (fluid == CF_BK_WATER && cf_aq_at(cf_aq_global(CF_AQ_SEA, CF_AQ_FLUID, y - 1), y - 1) == CF_BK_LAVA) return fluid;
    double barrier = (double)NAN;
    double dens = (double)density;
    cf_aq_fluid s2 = CF_AQ_STATUS(i[1]);
    if (dens + sim12 * cf_aq_pressure(CF_AQ_ARG, x, y, z, &barrier, s1, s2) > 0.0) return CF_BK_SOLID;
    cf_aq_fluid s3 = CF_AQ_STATUS(i[2]);
    double sim13 = cf_aq_similarity(d[0], d[2]);
    if (sim13 > 0.0 && dens + sim12 * sim13 * cf_aq_pressure(CF_AQ_ARG, x, y, z, &barrier, s1, s3) > 0.0) return CF_BK_SOLID;
    double sim23 = cf_aq_similarity(d[1], d[2]);
    if (sim23 > 0.0 && dens + sim12 * sim23 * cf_aq_pressure(CF_AQ_ARG, x, y, z, &barrier, s2, s3) > 0.0) return CF_BK_SOLID;
    return fluid;
}

/* the block of (x, y, z) with final density `density` in chunk (cx, cz) */
CF_INLINE cf_i32 cf_aq_block(CF_AQ_CTX, CF_AQ_CENTRES cen, cf_i32 ccx, cf_i32 ccz, cf_i32 gy0, cf_i32 skip, int enabled,
                             cf_i32 x, cf_i32 y, cf_i32 z, CF_AQ_REAL density)
{
    if (density > (CF_AQ_REAL)0) return CF_BK_SOLID;
    cf_aq_fluid g = cf_aq_global(CF_AQ_SEA, CF_AQ_FLUID, y);
    if (!enabled || y > skip - 1) return cf_aq_at(g, y);
    if (cf_aq_at(g, y) == CF_BK_LAVA) return CF_BK_LAVA;
    cf_i32 i[3], d[3];
    cf_aq_nearest(cen, ccx, ccz, gy0, x, y, z, i, d);
    return cf_aq_decide(CF_AQ_ARG, x, y, z, density, i, d);
}

#endif /* CF_AQ_CTX */
#endif /* CF_AQUIFER_H */
