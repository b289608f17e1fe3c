/* cf_mc121.h - the leaf math of the Minecraft 1.18-1.21 dialect, in double,
 * shared by the CPU reference (host/cpu/eval64.c) and the generated OpenCL programs.
 *
 * The arithmetic is the pre-26.3 one (MINECRAFT-26.3.md §15, the legacy oracle's
 * fixes L1-L10): ImprovedNoise in double, PerlinNoise sums amp*noise*valueFactor
 * per octave, NormalNoise = (first(x) + second(x*1.0181268882175227))*valueFactor,
 * BlendedNoise in double with the smear epsilon (double)1.0E-7f, splines in float
 * (float locations and derivatives), end islands as 1.21.
 *
 * Seed tables (one little-endian blob, built by host/ir/seed.c, uploaded as is):
 *   header   [0] int32 directory offset, [4] int32 directory entries, [8] int32 octaves, [12] int32 record base
 *   octave k at 16 + 288k: double ox, oy, oz, q (unused), then 256 permutation bytes (cf_nodes.h layout)
 *   directory: int32 per node index: the node's record, or -1
 *   records (every record offset, in the directory and inside records, counts from the record base):
 *   perlin record: int32 levels n, int32 0, double input factor, double value factor,
 *                  then n x {int32 octave or -1, int32 0, double amplitude}
 *   normal noise record: double value factor, int32 first perlin offset, int32 second perlin offset
 *   blended noise record: int32 min limit, max limit, main perlin offsets, int32 0
 *   end islands record: int32 simplex octave, int32 0
 */
#ifndef CF_MC121_H
#define CF_MC121_H

#include "cf_nodes.h"

#define CF21_PERLIN_HEAD 24
#define CF21_LEVEL_BYTES 16

CF_INLINE double cf21_lerp(double t, double a, double b) { return a + t * (b - a); }
CF_INLINE double cf21_smooth(double x) { return x * x * x * (x * (x * 6.0 - 15.0) + 10.0); }
/* Mth.clamp(double): v < lo ? lo : Math.min(v, hi) */
CF_INLINE double cf21_min(double a, double b)
{
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0 && b == 0.0) return cf_signbit(a) ? a : b;
    return a < b ? a : b;
}
CF_INLINE double cf21_max(double a, double b)
{
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0 && b == 0.0) return cf_signbit(a) ? b : a;
    return a > b ? a : b;
}
CF_INLINE double cf21_clamp(double v, double lo, double hi) { return v < lo ? lo : cf21_min(v, hi); }

/* the gradient dot g0*x + g1*y + g2*z in double (ImprovedNoise's gradDot) */
CF_INLINE double cf21_gdot(cf_u32 h, double x, double y, double z)
{
    h &= 15u;
    return ((double)cf_grad_x[h] * x + (double)cf_grad_y[h] * y) + (double)cf_grad_z[h] * z;
}

/* ImprovedNoise.noise's lattice part: a, b = p[i], p[i + 1] (the first permutation step),
 * uj, uk the cell's y and z, u, vv, w the fractions (vv after the y fudge), su, sv, sw their
 * smoothsteps (sv of the fraction before the fudge). Shared by cf21_improved and the CPU's
 * staged fill (host/cpu/fill121.c), which does the x and z steps once per corner column. */
CF_INLINE double cf21_lattice(CF_TAB p, cf_u32 a, cf_u32 b, cf_u32 uj, cf_u32 uk, double u, double vv, double w, double su,
                              double sv, double sw)
{
    cf_u32 aa = cf_perm(p, a + uj), ab = cf_perm(p, a + uj + 1u);
    cf_u32 ba = cf_perm(p, b + uj), bb = cf_perm(p, b + uj + 1u);
    double d000 = cf21_gdot(cf_perm(p, aa + uk), u, vv, w);
    double d100 = cf21_gdot(cf_perm(p, ba + uk), u - 1.0, vv, w);
    double d010 = cf21_gdot(cf_perm(p, ab + uk), u, vv - 1.0, w);
    double d110 = cf21_gdot(cf_perm(p, bb + uk), u - 1.0, vv - 1.0, w);
    double d001 = cf21_gdot(cf_perm(p, aa + uk + 1u), u, vv, w - 1.0);
    double d101 = cf21_gdot(cf_perm(p, ba + uk + 1u), u - 1.0, vv, w - 1.0);
    double d011 = cf21_gdot(cf_perm(p, ab + uk + 1u), u, vv - 1.0, w - 1.0);
    double d111 = cf21_gdot(cf_perm(p, bb + uk + 1u), u - 1.0, vv - 1.0, w - 1.0);
    double e0 = cf21_lerp(sv, cf21_lerp(su, d000, d100), cf21_lerp(su, d010, d110));
    double e1 = cf21_lerp(sv, cf21_lerp(su, d001, d101), cf21_lerp(su, d011, d111));
    return cf21_lerp(sw, e0, e1);
}

/* ImprovedNoise.noise(x, y, z, yScale, yMax) */
CF_INLINE double cf21_improved(CF_TAB o, double x, double y, double z, double ys, double ymax)
{
    CF_TAB p = o + 32;
    double X = x + cf_ld_f64(o), Y = y + cf_ld_f64(o + 8), Z = z + cf_ld_f64(o + 16);
    cf_i32 i = cf_jfloor(X), j = cf_jfloor(Y), k = cf_jfloor(Z);
    double u = X - (double)i, v = Y - (double)j, w = Z - (double)k;
    double fudge = 0.0;
    if (ys != 0.0) {
        double lim = (ymax >= 0.0 && ymax < v) ? ymax : v;
        fudge = (double)cf_jfloor(lim / ys + 1.0000000116860974e-07) * ys; /* (double)1.0E-7f */
    }
    cf_u32 ui = (cf_u32)i;
    return cf21_lattice(p, cf_perm(p, ui), cf_perm(p, ui + 1u), (cf_u32)j, (cf_u32)k, u, v - fudge, w, cf21_smooth(u),
                        cf21_smooth(v), cf21_smooth(w));
}

CF_INLINE CF_TAB cf21_octave(CF_TAB t, int k) { return t + CF_TAB_HEADER + CF_OCT_BYTES * k; }
CF_INLINE cf_i32 cf21_record(CF_TAB t, int node) { return cf_ld_i32(t + cf_ld_i32(t) + 4 * node); }
CF_INLINE CF_TAB cf21_rec(CF_TAB t, cf_i32 r) { return t + cf_ld_i32(t + 12) + r; }

/* PerlinNoise.getValue(x, y, z) of the perlin record at byte offset r */
CF_INLINE double cf21_perlin(CF_TAB t, cf_i32 r, double x, double y, double z)
{
    CF_TAB pr = cf21_rec(t, r);
    int n = cf_ld_i32(pr);
    double inf = cf_ld_f64(pr + 8), vf = cf_ld_f64(pr + 16), v = 0.0;
    CF_TAB l = pr + CF21_PERLIN_HEAD;
    for (int i = 0; i < n; i++, l += CF21_LEVEL_BYTES) {
        cf_i32 oct = cf_ld_i32(l);
        if (oct >= 0) {
            double g = cf21_improved(cf21_octave(t, oct), cf_wrap(x * inf), cf_wrap(y * inf), cf_wrap(z * inf), 0.0, 0.0);
            v += cf_ld_f64(l + 8) * g * vf;
        }
        inf *= 2.0;
        vf /= 2.0;
    }
    return v;
}

/* NormalNoise.getValue of the normal-noise record at byte offset r */
CF_INLINE double cf21_normal(CF_TAB t, cf_i32 r, double x, double y, double z)
{
    CF_TAB nr = cf21_rec(t, r);
    double a = cf21_perlin(t, cf_ld_i32(nr + 8), x, y, z);
    double b = cf21_perlin(t, cf_ld_i32(nr + 12), x * 1.0181268882175227, y * 1.0181268882175227, z * 1.0181268882175227);
    return (a + b) * cf_ld_f64(nr);
}

/* one octave of BlendedNoise: getOctaveNoise(i) = levels[n-1-i] of a perlin record */
CF_INLINE double cf21_blend_octave(CF_TAB t, cf_i32 r, int i, double x, double y, double z, double ys, double ymax, int *has)
{
    CF_TAB pr = cf21_rec(t, r);
    int n = cf_ld_i32(pr);
    cf_i32 oct = cf_ld_i32(pr + CF21_PERLIN_HEAD + CF21_LEVEL_BYTES * (n - 1 - i));
    *has = oct >= 0;
    if (oct < 0) return 0.0;
    return cf21_improved(cf21_octave(t, oct), x, y, z, ys, ymax);
}

/* BlendedNoise.compute (old_blended_noise) at block (x, y, z); r = the blended record */
CF_INLINE double cf21_blended(CF_TAB t, cf_i32 r, double xz_scale, double y_scale, double xz_factor, double y_factor,
                              double smear_mul, double x, double y, double z)
{
    CF_TAB br = cf21_rec(t, r);
    cf_i32 rmin = cf_ld_i32(br), rmax = cf_ld_i32(br + 4), rmain = cf_ld_i32(br + 8);
    double xzm = 684.412 * xz_scale, ym = 684.412 * y_scale;
    double sx = x * xzm, sy = y * ym, sz = z * xzm;
    double fx = sx / xz_factor, fy = sy / y_factor, fz = sz / xz_factor;
    double smear = ym * smear_mul, fsmear = smear / y_factor;
    double value = 0.0, factor = 1.0;
    int has;
    for (int i = 0; i < 8; i++) {
        double g = cf21_blend_octave(t, rmain, i, cf_wrap(fx * factor), cf_wrap(fy * factor), cf_wrap(fz * factor),
                                     fsmear * factor, fy * factor, &has);
        if (has) value += g / factor;
        factor /= 2.0;
    }
    value = (value / 10.0 + 1.0) / 2.0;
    factor = 1.0;
    double mn = 0.0, mx = 0.0;
    for (int i = 0; i < 16; i++) {
        double xx = cf_wrap(sx * factor), yy = cf_wrap(sy * factor), zz = cf_wrap(sz * factor);
        double ss = smear * factor;
        if (value < 1.0) {
            double g = cf21_blend_octave(t, rmin, i, xx, yy, zz, ss, sy * factor, &has);
            if (has) mn += g / factor;
        }
        if (value > 0.0) {
            double g = cf21_blend_octave(t, rmax, i, xx, yy, zz, ss, sy * factor, &has);
            if (has) mx += g / factor;
        }
        factor /= 2.0;
    }
    double a = mn / 512.0, b = mx / 512.0;
    double c = value < 0.0 ? a : value > 1.0 ? b : cf21_lerp(value, a, b);
    return c / 128.0;
}

/* end_islands (1.21): the height value at section (i, j) in float, then (h - 8) / 128 in double */
CF_INLINE double cf21_end_islands(CF_TAB t, cf_i32 r, double bx, double bz)
{
    CF_TAB o = cf21_octave(t, cf_ld_i32(cf21_rec(t, r)));
    cf_i32 i = (cf_i32)bx / 8, j = (cf_i32)bz / 8; /* truncating, as Java's int division */
    cf_i32 k = i / 2, l = j / 2, m = i % 2, n = j % 2;
    float f = (float)(100.0f - (float)cf_sqrt((double)(float)(cf_i32)((cf_u32)i * (cf_u32)i + (cf_u32)j * (cf_u32)j)) * 8.0f);
    f = f < -100.0f ? -100.0f : cf_jminf(f, 80.0f);
    for (int ox = -12; ox <= 12; ox++) {
        for (int oz = -12; oz <= 12; oz++) {
            cf_i64 q = (cf_i64)k + ox, s = (cf_i64)l + oz;
            if (!(q * q + s * s > 4096)) continue;
            if (!(cf_simplex2(o + 32, 0.0, 0.0, (double)q, (double)s) < (double)-0.9f)) continue;
            float g = cf_fmodf((float)(q < 0 ? -q : q) * 3439.0f + (float)(s < 0 ? -s : s) * 147.0f, 13.0f) + 9.0f;
            float h = (float)(m - ox * 2), hz = (float)(n - oz * 2);
            float v = 100.0f - (float)cf_sqrt((double)(h * h + hz * hz)) * g;
            v = v < -100.0f ? -100.0f : cf_jminf(v, 80.0f);
            f = cf_jmaxf(f, v);
        }
    }
    return ((double)f - 8.0) / 128.0;
}

/* find_top_surface: the first probe y, floor(upper / cell) * cell; above lower + 2^17
 * it steps down the same lattice first (bounds the probes; vanilla bounds are far lower) */
CF_INLINE double cf21_top_start(double upper, double cell, double lower)
{
    double top = cf_floor(upper / cell) * cell;
    if (top > lower + 131072.0 && top < 9007199254740992.0) top -= cf_floor((top - lower - 131072.0) / cell + 1.0) * cell;
    else if (top > lower + 131072.0) top = lower + cf_floor(131072.0 / cell) * cell;
    return top;
}

/* the 1.21 weird_scaled_sampler rarity mappers */
CF_INLINE double cf21_rarity(int type, double v)
{
    if (type == 1) return v < -0.5 ? 0.75 : v < 0.0 ? 1.0 : v < 0.5 ? 1.5 : 2.0;
    return v < -0.75 ? 0.5 : v < -0.5 ? 0.75 : v < 0.5 ? 1.0 : v < 0.75 ? 2.0 : 3.0;
}

/* y_clamped_gradient: clampedMap(y, from_y, to_y, from_value, to_value) */
CF_INLINE double cf21_ygrad(double y, double fy, double ty, double fv, double tv)
{
    double c = (y - fy) / (ty - fy);
    return c < 0.0 ? fv : c > 1.0 ? tv : cf21_lerp(c, fv, tv);
}

/* squeeze: c = clamp(x, -1, 1); c/2 - c*c*c/24 */
CF_INLINE double cf21_squeeze(double d)
{
    double c = cf21_clamp(d, -1.0, 1.0);
    return c / 2.0 - c * c * c / 24.0;
}

/* splines in float (CubicSpline, the oracle's F5): c = (float)coordinate; p = float loc, der pairs (as doubles) */
CF_INLINE int cf21_spline_index(CF_CONSTP const double *p, int np, float c)
{
    int lo = 0, hi = np;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if ((double)c < p[2 * mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo - 1;
}
CF_INLINE float cf21_spline_extend(float c, double loc, float v, double d)
{
    return d == 0.0 ? v : (float)((double)v + (double)(float)(d * (double)(float)((double)c - loc)));
}
CF_INLINE float cf21_flerp(float t, float a, float b) { return (float)((double)a + (double)(float)((double)t * (double)(float)((double)b - (double)a))); }
/* i = the segment index (cf21_spline_index), y1, y2 = (float) of the values at i (or the end) and i+1 */
CF_INLINE float cf21_spline_value(CF_CONSTP const double *p, int np, float c, int i, float y1, float y2)
{
    if (i < 0) return cf21_spline_extend(c, p[0], y1, p[1]);
    if (i == np - 1) return cf21_spline_extend(c, p[2 * i], y1, p[2 * i + 1]);
    double g = p[2 * i], h = p[2 * i + 2];
    float hg = (float)(h - g);
    float k = (float)((double)(float)((double)c - g) / (double)hg);
    double l = p[2 * i + 1], m = p[2 * i + 3];
    float ba = (float)((double)y2 - (double)y1);
    float pp = (float)((double)(float)(l * (double)hg) - (double)ba);
    float qq = (float)((double)(float)(-m * (double)hg) + (double)ba);
    float kk = (float)((double)k * (double)(float)(1.0 - (double)k));
    return (float)((double)cf21_flerp(k, y1, y2) + (double)(float)((double)kk * (double)cf21_flerp(k, pp, qq)));
}

#endif /* CF_MC121_H */
