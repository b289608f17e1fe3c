/* cf_java.h - Java's numeric casts and Math steps, once for every dialect (26.3, 1.18-1.21,
 * libnoise, Iris, Hytale): (int) and (long) casts of a double (truncating, NaN -> 0,
 * saturating), (int)/(long)Math.floor, Math.round(float), Math.min / Math.max of floats (NaN
 * wins, -0 < +0) and Math.signum (MINECRAFT-26.3.md §1). Included by cf_math.h after its types
 * (cf_i32, cf_i64, cf_isnan, cf_floor); its text is inlined into cf_math.h's for the OpenCL
 * programs (cmake/embed_text.cmake). Java's StrictMath sin, cos and pow (fdlibm) are
 * cf_iris_strictmath.h's, the one front-end that reads them.
 */
#ifndef CF_JAVA_H
#define CF_JAVA_H

/* (int)Math.floor(d): NaN -> 0, saturating to [-2^31, 2^31-1] (Mth.floor). */
CF_INLINE cf_i32 cf_jfloor(double d)
{
    if (d >= -2147483648.0 && d < 2147483648.0) { /* the common case, without a libm call */
        cf_i32 i = (cf_i32)d;                      /* truncation toward zero */
        return d < (double)i ? i - 1 : i;
    }
    if (cf_isnan(d)) return 0;
    double f = cf_floor(d);
    if (f <= -2147483648.0) return (cf_i32)(-2147483647 - 1);
    if (f >= 2147483647.0) return 2147483647;
    return (cf_i32)f;
}

/* (long)Math.floor(d), saturating (used by wrap; NaN -> 0). */
CF_INLINE cf_i64 cf_jfloor_l(double d)
{
    if (cf_isnan(d)) return 0;
    double f = cf_floor(d);
    if (f <= -9223372036854775808.0) return (cf_i64)(-9223372036854775807L - 1);
    if (f >= 9223372036854775807.0) return (cf_i64)9223372036854775807L;
    return (cf_i64)f;
}

/* Java (int)f for a float or double (truncation, NaN -> 0, saturating). */
CF_INLINE cf_i32 cf_jtoint(double d)
{
    if (cf_isnan(d)) return 0;
    if (d <= -2147483648.0) return (cf_i32)(-2147483647 - 1);
    if (d >= 2147483647.0) return 2147483647;
    return (cf_i32)d;
}

/* Java (long)d (truncation, NaN -> 0, saturating). */
CF_INLINE cf_i64 cf_jtolong(double d)
{
    if (cf_isnan(d)) return 0;
    if (d >= 9223372036854775808.0) return (cf_i64)0x7fffffffffffffffL;
    if (d <= -9223372036854775808.0) return (cf_i64)(-0x7fffffffffffffffL - 1);
    return (cf_i64)d;
}

/* Java Math.round(float) -> int: floor(x + 1/2) computed exactly, saturating. */
CF_INLINE cf_i32 cf_jround_f(float x)
{
    if (cf_isnan(x)) return 0;
    /* x + 0.5 in double is exact for every float of magnitude < 2^52 */
    return cf_jfloor((double)x + 0.5);
}

/* Math.min / Math.max on floats: NaN wins, -0 < +0. */
CF_INLINE float cf_jminf(float a, float b)
{
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0f && b == 0.0f) return cf_signbit(a) ? a : b;
    return a <= b ? a : b;
}
CF_INLINE float cf_jmaxf(float a, float b)
{
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0f && b == 0.0f) return cf_signbit(a) ? b : a;
    return a >= b ? a : b;
}

/* Math.signum(float) */
CF_INLINE float cf_signumf(float x)
{
    if (x != x || x == 0.0f) return x;
    return x > 0.0f ? 1.0f : -1.0f;
}

#endif /* CF_JAVA_H */
