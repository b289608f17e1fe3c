/* cf_math.h - the leaf math of Minecraft 26.3 terrain noise, shared by the CPU
 * reference (C11) and the generated OpenCL programs (OpenCL C 1.2 + cl_khr_fp64).
 *
 * Everything here is a pure function of its arguments: Java's casts and float
 * steps (MINECRAFT-26.3.md §1), gradient (Perlin) noise on the point path (§3),
 * the smeared octaves of old_blended_noise (§4), 2-D simplex noise (§13), the
 * cubic spline segment (§10), and a log/exp/pow built from IEEE + - * / only,
 * so the CPU and every device round identically. No libm transcendental is used.
 * Compile C with -ffp-contract=off; OpenCL programs set FP_CONTRACT OFF.
 */
#ifndef CF_MATH_H
#define CF_MATH_H

#ifdef __OPENCL_VERSION__
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#define CF_INLINE static inline
#define CF_GLOBAL __global
#define CF_CONST __constant
typedef int cf_i32;
typedef uint cf_u32;
typedef long cf_i64;
typedef ulong cf_u64;
typedef uchar cf_u8;
#define cf_floor(x) floor(x)
#define cf_sqrt(x) sqrt(x)
#define cf_fabs(x) fabs(x)
#define cf_fabsf(x) fabs(x)
#define cf_isnan(x) isnan(x)
#define cf_signbit(x) signbit(x)
#define cf_fmodf(a, b) fmod(a, b)
#else
#include <math.h>
#include <stdint.h>
#define CF_INLINE static inline
#define CF_GLOBAL
#define CF_CONST static const
typedef int32_t cf_i32;
typedef uint32_t cf_u32;
typedef int64_t cf_i64;
typedef uint64_t cf_u64;
typedef uint8_t cf_u8;
#define cf_floor(x) floor(x)
#define cf_sqrt(x) sqrt(x)
#define cf_fabs(x) fabs(x)
#define cf_fabsf(x) fabsf(x)
#define cf_isnan(x) isnan(x)
#define cf_signbit(x) signbit(x)
#define cf_fmodf(a, b) fmodf(a, b)
#endif

#include "cf_java.h" /* Java's casts, Math.round, Math.min / max, signum */

/* Mth.clamp(float v, lo, hi) = v < lo ? lo : Math.min(v, hi) */
CF_INLINE float cf_clampf(float v, float lo, float hi)
{
    return v < lo ? lo : cf_jminf(v, hi);
}

/* Java floorDiv / floorMod on 64-bit ints (b != 0). */
CF_INLINE cf_i64 cf_floordiv(cf_i64 a, cf_i64 b)
{
    cf_i64 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}
CF_INLINE cf_i64 cf_floormod(cf_i64 a, cf_i64 b)
{
    return a - cf_floordiv(a, b) * b;
}

/* ------------------------------------------------------------------ float steps */

/* Mth.lerp(float): a + t*(b - a), every step rounded to float. */
CF_INLINE float cf_lerpf(float t, float a, float b)
{
    return a + t * (b - a);
}

/* smoothstep t*t*t*(t*(t*6-15)+10), left to right in float. */
CF_INLINE float cf_smoothf(float t)
{
    return ((t * t) * t) * ((t * ((t * 6.0f) - 15.0f)) + 10.0f);
}

CF_INLINE float cf_lerp3f(float t1, float t2, float t3,
                          float a000, float a100, float a010, float a110,
                          float a001, float a101, float a011, float a111)
{
    float b0 = cf_lerpf(t2, cf_lerpf(t1, a000, a100), cf_lerpf(t1, a010, a110));
    float b1 = cf_lerpf(t2, cf_lerpf(t1, a001, a101), cf_lerpf(t1, a011, a111));
    return cf_lerpf(t3, b0, b1);
}

/* ------------------------------------------------------------------ gradient noise */

/* wrap(c): c - floor(c/2^25 + 1/2)*2^25 in double (identical to 26.3's form). */
CF_INLINE double cf_wrap(double c)
{
    if (c > -16777216.0 && c < 16777216.0) return c; /* floor(c/2^25 + 1/2) == 0: c - 0 == c */
    return c - (double)cf_jfloor_l(c / 33554432.0 + 0.5) * 33554432.0;
}

/* the 16 gradient rows: (1,1,0) (-1,1,0) (1,-1,0) (-1,-1,0) (1,0,1) (-1,0,1) (1,0,-1)
 * (-1,0,-1) (0,1,1) (0,-1,1) (0,1,-1) (0,-1,-1) (1,1,0) (0,-1,1) (-1,1,0) (0,-1,-1) */
CF_CONST float cf_grad_x[16] = {1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 1, 0, -1, 0};
CF_CONST float cf_grad_y[16] = {1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
CF_CONST float cf_grad_z[16] = {0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 1, 0, -1};

/* the gradient dot f32(f32(gx*x + gy*y) + gz*z): products by -1/0/1 are exact */
#if defined(__OPENCL_VERSION__) && defined(CF_GPU)
/* GPU builds (host/opencl/device.c defines CF_GPU for a GPU): the row's factors by
 * selects on the bits of h, no per-lane table load (serialised on NVIDIA, address registers
 * on AMD). The same factors, so the same products and sums as the tables give. PoCL's
 * vectorised loads of the tables are faster than the selects there: CPU devices keep them. */
CF_INLINE float cf_gdot(cf_u32 h, float x, float y, float z)
{
    h &= 15u;
    float gx = h < 8u ? ((h & 1u) ? -1.0f : 1.0f) : h == 12u ? 1.0f : h == 14u ? -1.0f : 0.0f;
    float gy = h < 4u ? ((h & 2u) ? -1.0f : 1.0f) : h < 8u ? 0.0f : ((h & 1u) ? -1.0f : 1.0f);
    float gz = h < 4u ? 0.0f : h < 12u ? ((h & 2u) ? -1.0f : 1.0f) : h == 13u ? 1.0f : h == 15u ? -1.0f : 0.0f;
    return (gx * x + gy * y) + gz * z;
}
#else
CF_INLINE float cf_gdot(cf_u32 h, float x, float y, float z)
{
    h &= 15u;
    return (cf_grad_x[h] * x + cf_grad_y[h] * y) + cf_grad_z[h] * z;
}
#endif

CF_INLINE cf_u32 cf_perm(CF_GLOBAL const cf_u8 *p, cf_u32 i)
{
    return (cf_u32)p[i & 255u];
}

/* lattice hashing and the trilinear float lerp (shared by plain and smeared octaves) */
#if defined(__OPENCL_VERSION__) && defined(CF_GPU)
/* GPU builds: the same hashes, products and lerps (cf_lerp3f's, each lerp on the same operands),
 * ordered so that each x-lerp follows its two dots (shorter live ranges: fewer registers).
 * Defined for the permutation in global memory (cf_perlin_lattice) and in local memory
 * (cf_perlin_lattice_l: the GPU form's k_stacks copies a stack's permutations there first) */
#define CF_LATTICE_FN(NAME, AS)                                                                                     \
    CF_INLINE float NAME(AS const cf_u8 *p, cf_i32 i, cf_i32 j, cf_i32 k, float u, float v, float w, float fade_y)  \
    {                                                                                                               \
        cf_u32 ui = (cf_u32)i, uj = (cf_u32)j, uk = (cf_u32)k;                                                      \
        float u1 = u - 1.0f, v1 = v - 1.0f, w1 = w - 1.0f;                                                          \
        float t1 = cf_smoothf(u), t2 = cf_smoothf(fade_y), t3 = cf_smoothf(w);                                      \
        cf_u32 a = p[ui & 255u], b = p[(ui + 1u) & 255u];                                                           \
        cf_u32 aa = p[(a + uj) & 255u], ba = p[(b + uj) & 255u];                                                    \
        float l00 = cf_lerpf(t1, cf_gdot(p[(aa + uk) & 255u], u, v, w), cf_gdot(p[(ba + uk) & 255u], u1, v, w));    \
        float l01 = cf_lerpf(t1, cf_gdot(p[(aa + uk + 1u) & 255u], u, v, w1),                                       \
                             cf_gdot(p[(ba + uk + 1u) & 255u], u1, v, w1));                                         \
        cf_u32 ab = p[(a + uj + 1u) & 255u], bb = p[(b + uj + 1u) & 255u];                                          \
        float l10 = cf_lerpf(t1, cf_gdot(p[(ab + uk) & 255u], u, v1, w), cf_gdot(p[(bb + uk) & 255u], u1, v1, w));  \
        float l11 = cf_lerpf(t1, cf_gdot(p[(ab + uk + 1u) & 255u], u, v1, w1),                                      \
                             cf_gdot(p[(bb + uk + 1u) & 255u], u1, v1, w1));                                        \
        return cf_lerpf(t3, cf_lerpf(t2, l00, l10), cf_lerpf(t2, l01, l11));                                        \
    }
CF_LATTICE_FN(cf_perlin_lattice, CF_GLOBAL)
CF_LATTICE_FN(cf_perlin_lattice_l, __local)
#else
CF_INLINE float cf_perlin_lattice(CF_GLOBAL const cf_u8 *p, cf_i32 i, cf_i32 j, cf_i32 k,
                                  float u, float v, float w, float fade_y)
{
    cf_u32 ui = (cf_u32)i, uj = (cf_u32)j, uk = (cf_u32)k;
    cf_u32 a = cf_perm(p, ui), b = cf_perm(p, ui + 1u);
    cf_u32 aa = cf_perm(p, a + uj), ab = cf_perm(p, a + uj + 1u);
    cf_u32 ba = cf_perm(p, b + uj), bb = cf_perm(p, b + uj + 1u);
    float u1 = u - 1.0f, v1 = v - 1.0f, w1 = w - 1.0f;
    float d000 = cf_gdot(cf_perm(p, aa + uk), u, v, w);
    float d100 = cf_gdot(cf_perm(p, ba + uk), u1, v, w);
    float d010 = cf_gdot(cf_perm(p, ab + uk), u, v1, w);
    float d110 = cf_gdot(cf_perm(p, bb + uk), u1, v1, w);
    float d001 = cf_gdot(cf_perm(p, aa + uk + 1u), u, v, w1);
    float d101 = cf_gdot(cf_perm(p, ba + uk + 1u), u1, v, w1);
    float d011 = cf_gdot(cf_perm(p, ab + uk + 1u), u, v1, w1);
    float d111 = cf_gdot(cf_perm(p, bb + uk + 1u), u1, v1, w1);
    return cf_lerp3f(cf_smoothf(u), cf_smoothf(fade_y), cf_smoothf(w),
                     d000, d100, d010, d110, d001, d101, d011, d111);
}
#endif

/* PerlinNoise.get(x, y, z), point path (§3). o = the octave's offsets. */
CF_INLINE float cf_perlin(CF_GLOBAL const cf_u8 *p, double ox, double oy, double oz,
                          double x, double y, double z)
{
    double X = cf_wrap(x) + ox, Y = cf_wrap(y) + oy, Z = cf_wrap(z) + oz;
    cf_i32 i = cf_jfloor(X), j = cf_jfloor(Y), k = cf_jfloor(Z);
    float v = (float)(Y - (double)j);
    return cf_perlin_lattice(p, i, j, k, (float)(X - (double)i), v, (float)(Z - (double)k), v);
}

/* SmearedPerlinNoise.get (§4): q = the octave's fudge scale. */
CF_INLINE float cf_smeared(CF_GLOBAL const cf_u8 *p, double ox, double oy, double oz, double q,
                           double x, double y, double z)
{
    double X = cf_wrap(x) + ox, Y = cf_wrap(y) + oy, Z = cf_wrap(z) + oz;
    cf_i32 i = cf_jfloor(X), j = cf_jfloor(Y), k = cf_jfloor(Z);
    double r = Y - (double)j;
    double lim = (y >= 0.0 && y < r) ? y : r;
    /* (double)1.0E-7f */
    double fudge = (double)cf_jfloor(lim / q + 1.0000000116860974e-07) * q;
    return cf_perlin_lattice(p, i, j, k, (float)(X - (double)i), (float)(r - fudge),
                             (float)(Z - (double)k), (float)r);
}

/* The per-axis halves of cf_perlin / cf_smeared, for callers that compute them once per
 * axis value (the device corner stage, emit.c's k_axes): with (i, u) = cf_axis(x, ox),
 * (k, w) = cf_axis(z, oz) and (j, v, f) = cf_axis_y(y, oy, q),
 * cf_perlin_lattice(p, i, j, k, u, v, w, f) is cf_perlin(p, ox, oy, oz, x, y, z) when q == 0
 * and cf_smeared(p, ox, oy, oz, q, x, y, z) when q > 0, bit for bit (the same operations). */
CF_INLINE cf_i32 cf_axis(double c, double o, float *u)
{
    double X = cf_wrap(c) + o;
    cf_i32 i = cf_jfloor(X);
    *u = (float)(X - (double)i);
    return i;
}
CF_INLINE cf_i32 cf_axis_y(double y, double oy, double q, float *v, float *fade)
{
    double Y = cf_wrap(y) + oy;
    cf_i32 j = cf_jfloor(Y);
    double r = Y - (double)j;
    if (q > 0.0) {
        double lim = (y >= 0.0 && y < r) ? y : r;
        double fudge = (double)cf_jfloor(lim / q + 1.0000000116860974e-07) * q;
        *v = (float)(r - fudge);
    } else {
        *v = (float)r;
    }
    *fade = (float)r;
    return j;
}

/* ------------------------------------------------------------------ simplex (end islands) */

CF_INLINE double cf_simplex_corner(cf_u32 g, double x, double y)
{
    double t = 0.5 - x * x - y * y;
    if (t < 0.0) return 0.0;
    t *= t;
    return t * t * ((double)cf_grad_x[g] * x + (double)cf_grad_y[g] * y);
}

/* SimplexNoise.getValue(x, y) in double; o = offsets (0 for the end islands). */
CF_INLINE double cf_simplex2(CF_GLOBAL const cf_u8 *p, double ox, double oy, double x, double y)
{
    const double F2 = 0.3660254037844386;   /* 0.5*(sqrt(3)-1) */
    const double G2 = 0.21132486540518713;  /* (3-sqrt(3))/6 */
    double xin = x + ox, yin = y + oy;
    double s = (xin + yin) * F2;
    cf_i32 i = cf_jfloor(xin + s), j = cf_jfloor(yin + s);
    double t = (double)(cf_i32)((cf_u32)i + (cf_u32)j) * G2;
    double x0 = xin - ((double)i - t), y0 = yin - ((double)j - t);
    cf_u32 i1 = x0 > y0 ? 1u : 0u, j1 = x0 > y0 ? 0u : 1u;
    double x1 = x0 - (double)i1 + G2, y1 = y0 - (double)j1 + G2;
    double x2 = x0 - 1.0 + 2.0 * G2, y2 = y0 - 1.0 + 2.0 * G2;
    cf_u32 ii = (cf_u32)i & 255u, jj = (cf_u32)j & 255u;
    cf_u32 g0 = cf_perm(p, ii + cf_perm(p, jj)) % 12u;
    cf_u32 g1 = cf_perm(p, ii + i1 + cf_perm(p, jj + j1)) % 12u;
    cf_u32 g2 = cf_perm(p, ii + 1u + cf_perm(p, jj + 1u)) % 12u;
    return 70.0 * (cf_simplex_corner(g0, x0, y0) + cf_simplex_corner(g1, x1, y1)
                   + cf_simplex_corner(g2, x2, y2));
}

/* ------------------------------------------------------------------ splines (§10) */

/* outside the points: v + d*(c - loc), or v when d == 0 */
CF_INLINE float cf_spline_extend(float c, float loc, float v, float d)
{
    return d == 0.0f ? v : v + d * (c - loc);
}

/* between points (x1, y1, d1) and (x2, y2, d2) */
CF_INLINE float cf_spline_segment(float c, float x1, float x2, float y1, float y2, float d1, float d2)
{
    float dx = x2 - x1, dy = y2 - y1;
    float t = (c - x1) / dx;
    float a = d1 * dx - dy;
    float b = -d2 * dx + dy;
    return cf_lerpf(t, y1, y2) + (t * (1.0f - t)) * cf_lerpf(t, a, b);
}

/* ------------------------------------------------------------------ log / exp / pow
 * Built from + - * / and bit manipulation only (the classic fdlibm reductions),
 * accurate to < 1 ulp in double; the callers round to float. */

CF_INLINE double cf_from_bits(cf_u64 b)
{
#ifdef __OPENCL_VERSION__
    return as_double(b);
#else
    union { cf_u64 u; double d; } c;
    c.u = b;
    return c.d;
#endif
}
CF_INLINE cf_u64 cf_bits(double d)
{
#ifdef __OPENCL_VERSION__
    return as_ulong(d);
#else
    union { cf_u64 u; double d; } c;
    c.d = d;
    return c.u;
#endif
}

/* natural log; special cases as Math.log */
CF_INLINE double cf_log(double x)
{
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    const double Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
                 Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
                 Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
                 Lg7 = 1.479819860511658591e-01;
    if (x != x) return x;
    if (x < 0.0) return cf_from_bits(0x7ff8000000000000UL);
    if (x == 0.0) return -cf_from_bits(0x7ff0000000000000UL);
    if (x == cf_from_bits(0x7ff0000000000000UL)) return x;
    cf_u64 b = cf_bits(x);
    int k = 0;
    if ((b >> 52) == 0) { /* subnormal: scale up by 2^54 */
        x *= 18014398509481984.0;
        b = cf_bits(x);
        k = -54;
    }
    k += (int)(b >> 52) - 1023;
    cf_u64 m = b & 0x000fffffffffffffUL;
    /* normalise the mantissa into [sqrt(2)/2, sqrt(2)) */
    cf_u64 i = (m + 0x95f6400000000UL) & 0x10000000000000UL;  /* 1 when m >= sqrt(2) */
    double f = cf_from_bits(m | (i ^ 0x3ff0000000000000UL)) - 1.0;
    k += (int)(i >> 52);
    double dk = (double)k;
    double s = f / (2.0 + f);
    double z = s * s, w = z * z;
    double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    double R = t2 + t1;
    double hfsq = 0.5 * f * f;
    return dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
}

/* e^x; special cases as Math.exp */
CF_INLINE double cf_exp(double x)
{
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10,
                 inv_ln2 = 1.44269504088896338700e+00;
    const double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03,
                 P3 = 6.61375632143793436117e-05, P4 = -1.65339022054652515390e-06,
                 P5 = 4.13813679705723846039e-08;
    double inf = cf_from_bits(0x7ff0000000000000UL);
    if (x != x) return x;
    if (x > 709.782712893383973096) return inf;
    if (x < -745.13321910194110842) return 0.0;
    double kd = cf_floor(x * inv_ln2 + 0.5);
    int k = (int)kd;
    double hi = x - kd * ln2_hi, lo = kd * ln2_lo;
    double r = hi - lo;
    double t = r * r;
    double c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    /* scale by 2^k in two steps so subnormal results round once at the end */
    if (k < -1021) {
        y *= cf_from_bits((cf_u64)(k + 54 + 1023) << 52);
        return y * cf_from_bits((cf_u64)(1023 - 54) << 52);
    }
    if (k > 1023) return y * 2.0 * cf_from_bits((cf_u64)(k - 1 + 1023) << 52);
    return y * cf_from_bits((cf_u64)(k + 1023) << 52);
}

/* Math.pow(b, e) for the values density functions reach (host/frontend/mc263/README.md: exact to
 * the float result except where the double result lies within ~1e-14 of a float
 * rounding boundary). */
CF_INLINE double cf_pow(double b, double e)
{
    double inf = cf_from_bits(0x7ff0000000000000UL);
    if (e == 0.0) return 1.0;
    if (e != e || b != b) return cf_from_bits(0x7ff8000000000000UL);
    if (e == 1.0) return b;
    int e_int = cf_floor(e) == e;
    int e_odd = e_int && cf_fabs(e) < 9007199254740992.0 && cf_floor(e * 0.5) * 2.0 != e;
    double ab = cf_fabs(b);
    if (e == inf || e == -inf) {
        if (ab == 1.0) return cf_from_bits(0x7ff8000000000000UL);
        return ((ab > 1.0) == (e > 0.0)) ? inf : 0.0;
    }
    if (b == 0.0) {
        if (e > 0.0) return (e_odd && cf_signbit(b)) ? -0.0 : 0.0;
        return (e_odd && cf_signbit(b)) ? -inf : inf;
    }
    if (ab == inf) {
        if (b < 0.0 && e_odd) return e > 0.0 ? -inf : -0.0;
        return e > 0.0 ? inf : 0.0;
    }
    if (b < 0.0 && !e_int) return cf_from_bits(0x7ff8000000000000UL);
    double r = cf_exp(e * cf_log(ab));
    return (b < 0.0 && e_odd) ? -r : r;
}

/* ------------------------------------------------------------------ double-double pow
 * pow(b, e) for the double dialects (libnoise's Exponent and Power), where the
 * reference is glibc's pow (correctly rounded in practice): log(|b|) and
 * e*log(|b|) in double-double (~2^-100 relative), exp of a double-double by a
 * 24-term series, one rounding at the end. Built from + - * / only (Dekker's
 * exact products, no fma), so the CPU and every device agree bit for bit.
 * tests/test_libnoise.c measures it against glibc. */
typedef struct cf_dd {
    double hi, lo;
} cf_dd;

CF_INLINE cf_dd cf_dd_make(double hi, double lo)
{
    cf_dd r;
    r.hi = hi;
    r.lo = lo;
    return r;
}
CF_INLINE cf_dd cf_two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    return cf_dd_make(s, (a - (s - bb)) + (b - bb));
}
CF_INLINE cf_dd cf_fast_two_sum(double a, double b)
{
    double s = a + b;
    return cf_dd_make(s, b - (s - a));
}
/* Dekker: a*b exactly as hi + lo (no overflow for the magnitudes used here) */
CF_INLINE cf_dd cf_two_prod(double a, double b)
{
    double p = a * b;
    double ca = 134217729.0 * a, ah = ca - (ca - a), al = a - ah;
    double cb = 134217729.0 * b, bh = cb - (cb - b), bl = b - bh;
    return cf_dd_make(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}
CF_INLINE cf_dd cf_dd_add(cf_dd a, cf_dd b)
{
    cf_dd s = cf_two_sum(a.hi, b.hi), t = cf_two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = cf_fast_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return cf_fast_two_sum(s.hi, s.lo);
}
CF_INLINE cf_dd cf_dd_mul(cf_dd a, cf_dd b)
{
    cf_dd p = cf_two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return cf_fast_two_sum(p.hi, p.lo);
}
CF_INLINE cf_dd cf_dd_mul_d(cf_dd a, double b)
{
    cf_dd p = cf_two_prod(a.hi, b);
    p.lo += a.lo * b;
    return cf_fast_two_sum(p.hi, p.lo);
}
CF_INLINE cf_dd cf_dd_div_d(cf_dd a, double b)
{
    double q1 = a.hi / b;
    cf_dd p = cf_two_prod(q1, b);
    double r = ((a.hi - p.hi) - p.lo) + a.lo;
    return cf_fast_two_sum(q1, r / b);
}

/* log(x) for finite x > 0, as a double-double */
CF_INLINE cf_dd cf_log_dd(double x)
{
    cf_u64 b = cf_bits(x);
    int k = 0;
    if ((b >> 52) == 0) {
        x *= 18014398509481984.0;
        b = cf_bits(x);
        k = -54;
    }
    k += (int)(b >> 52) - 1023;
    cf_u64 m = b & 0x000fffffffffffffUL;
    cf_u64 i = (m + 0x95f6400000000UL) & 0x10000000000000UL;
    double f = cf_from_bits(m | (i ^ 0x3ff0000000000000UL)) - 1.0; /* exact, in [sqrt(2)/2 - 1, sqrt(2) - 1) */
    k += (int)(i >> 52);
    /* log(1+f) = 2 atanh(s), s = f / (2 + f) */
    cf_dd d = cf_two_sum(2.0, f);
    double sh = f / d.hi;
    cf_dd p = cf_two_prod(sh, d.hi);
    double r = ((f - p.hi) - p.lo) - sh * d.lo;
    cf_dd s = cf_fast_two_sum(sh, r / d.hi);
    cf_dd u = cf_dd_mul(s, s);
    double uh = u.hi, q = 2.0 / 27.0;
    q = 2.0 / 25.0 + uh * q;
    q = 2.0 / 23.0 + uh * q;
    q = 2.0 / 21.0 + uh * q;
    q = 2.0 / 19.0 + uh * q;
    q = 2.0 / 17.0 + uh * q;
    q = 2.0 / 15.0 + uh * q;
    q = 2.0 / 13.0 + uh * q;
    q = 2.0 / 11.0 + uh * q;
    q = 2.0 / 9.0 + uh * q;
    q = 2.0 / 7.0 + uh * q;
    cf_dd t = cf_dd_add(cf_dd_div_d(cf_dd_make(2.0, 0.0), 5.0), cf_two_prod(uh, q));
    t = cf_dd_add(cf_dd_div_d(cf_dd_make(2.0, 0.0), 3.0), cf_dd_mul(u, t));
    cf_dd lm = cf_dd_add(cf_dd_make(2.0 * s.hi, 2.0 * s.lo), cf_dd_mul(cf_dd_mul(s, u), t));
    /* + k ln2 (ln2 = hi + lo to ~2^-106, the products exact) */
    double dk = (double)k;
    cf_dd l2 = cf_dd_add(cf_two_prod(dk, 6.93147180559945286227e-01), cf_two_prod(dk, 2.31904681384629955842e-17));
    return cf_dd_add(l2, lm);
}

/* exp(t) for a double-double t with |t.hi| < 746, rounded once */
CF_INLINE double cf_exp_dd(cf_dd t)
{
    double kd = cf_floor(t.hi * 1.44269504088896338700e+00 + 0.5);
    int k = (int)kd;
    /* r = t - k ln2, |r| < 0.35 */
    cf_dd r = cf_dd_add(t, cf_dd_add(cf_two_prod(-kd, 6.93147180559945286227e-01), cf_two_prod(-kd, 2.31904681384629955842e-17)));
    cf_dd a = cf_dd_make(1.0, 0.0);
    for (int n = 24; n >= 1; n--) a = cf_dd_add(cf_dd_make(1.0, 0.0), cf_dd_div_d(cf_dd_mul(a, r), (double)n));
    /* scale by 2^k (a subnormal result may round twice: below 2^-1022 only) */
    double y = a.hi + a.lo;
    if (k < -1021) {
        if (k < -1200) return 0.0;
        return y * cf_from_bits((cf_u64)(k + 200 + 1023) << 52) * cf_from_bits((cf_u64)(1023 - 200) << 52);
    }
    if (k > 1023) return y * 2.0 * cf_from_bits((cf_u64)(k - 1 + 1023) << 52);
    return y * cf_from_bits((cf_u64)(k + 1023) << 52);
}

/* C's pow(b, e) (C99 Annex F special cases), the finite cases through cf_log_dd
 * and cf_exp_dd */
CF_INLINE double cf_pow_c(double b, double e)
{
    double inf = cf_from_bits(0x7ff0000000000000UL);
    if (e == 0.0 || b == 1.0) return 1.0;
    if (e != e || b != b) return cf_from_bits(0x7ff8000000000000UL);
    int e_int = cf_floor(e) == e;
    int e_odd = e_int && cf_fabs(e) < 9007199254740992.0 && cf_floor(e * 0.5) * 2.0 != e;
    double ab = cf_fabs(b);
    if (e == inf || e == -inf) {
        if (ab == 1.0) return 1.0;
        return ((ab > 1.0) == (e > 0.0)) ? inf : 0.0;
    }
    if (b == 0.0) {
        if (e > 0.0) return (e_odd && cf_signbit(b)) ? -0.0 : 0.0;
        return (e_odd && cf_signbit(b)) ? -inf : inf;
    }
    if (ab == inf) {
        if (b < 0.0 && e_odd) return e > 0.0 ? -inf : -0.0;
        return e > 0.0 ? inf : 0.0;
    }
    if (b < 0.0 && !e_int) return cf_from_bits(0x7ff8000000000000UL);
    if (e == 1.0) return b;
    cf_dd t = cf_dd_mul_d(cf_log_dd(ab), e);
    double r;
    if (t.hi > 709.8) r = inf;
    else if (t.hi < -745.2) r = 0.0;
    else r = cf_exp_dd(t);
    return (b < 0.0 && e_odd) ? -r : r;
}

#endif /* CF_MATH_H */
