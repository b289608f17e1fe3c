/* cf_iris_layers.h - the steps of Iris's JSON layers (styles' cellularize, IrisNoiseGenerator, IrisGenerator), IrisInterpolator, expressions and image maps, terrains.
 * A part of kernels/cf_iris.h, included by it only (after what it needs; cmake/embed_text.cmake
 * inlines it into the OpenCL program's text the same way). */
/* ================================================================== the JSON layers (IRIS.md §5.5, §7, §8.5)
 * Shared by eval64.c (IRIS_CELLZ, IRIS_LAYER, IRIS_GEN, IRIS_CELLGEN, IRIS_INTERP)
 * and the OpenCL generator: the steps between source samples; the sources
 * themselves (a CNG, a layer, any 2-D node) are sampled by the callers. */

/* cellularize (§5.5): the nearest cell of (x, y) (f32, already times the
 * frequency) by Manhattan distance |vx| + |vy|, first minimum wins */
CF_INLINE void cf_ir_cellz_cell(cf_i32 s, float x, float y, cf_i32 *xc, cf_i32 *yc)
{
    cf_i32 xr = cf_ir_fround32(x), yr = cf_ir_fround32(y);
    float best = 999999.0f;
    *xc = 0, *yc = 0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++) {
            /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
            cf_i32 xi = (cf_i32)((cf_u32)xr + (cf_u32)(cf_i32)ka), yi = (cf_i32)((cf_u32)yr + (cf_u32)(cf_i32)kb);
            int c = (int)(cf_ir_hash2_32(s, xi, yi) & 255u) * 2;
            float vx = ((float)xi - x) + cf_ir_f32(cf_iris_cell2[c]);
            float vy = ((float)yi - y) + cf_ir_f32(cf_iris_cell2[c + 1]);
            float nd = cf_fabsf(vx) + cf_fabsf(vy);
            if (nd < best) best = nd, *xc = xi, *yc = yi;
        }
}
/* the cellularized generator's lookup point: n3(a, b, c) = n2(a, b + c) */
CF_INLINE void cf_ir_cellz_at(cf_i32 s, float fr, double a, double b, double *px, double *pz)
{
    cf_i32 xc, yc;
    cf_ir_cellz_cell(s, (float)a * fr, (float)b * fr, &xc, &yc);
    *px = (double)xc, *pz = (double)yc;
}
/* the value from the source sample v: f32(v) * 0.5 + 0.5, then CNG post (§5.3) */
CF_INLINE double cf_ir_cellz_value(double v) { return cf_ir_post((double)(float)v * 0.5 + 0.5, 1.0, 1.0); }

/* FND 2-D two-edge cellular, Natural distance (§3.7; CellGenerator) */
CF_INLINE double cf_ir_cell2(cf_i64 s, double x, double y, int div)
{
    cf_i64 xr = cf_ir_fround(x), yr = cf_ir_fround(y);
    double d1 = 999999.0, d2 = 999999.0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++) {
            /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
            cf_i64 xi = (cf_i64)((cf_u64)xr + (cf_u64)(cf_i64)ka), yi = (cf_i64)((cf_u64)yr + (cf_u64)(cf_i64)kb);
            cf_u64 h = (cf_u64)s;
            h ^= CF_IR_PX * (cf_u64)xi;
            h ^= CF_IR_PY * (cf_u64)yi;
            h = h * h * h * 60493UL;
            h = cf_ir_sar13(h) ^ h;
            int c = (int)(h & 255UL) * 2;
            double vx = (double)xi - x + (double)cf_ir_f32(cf_iris_cell2[c]);
            double vy = (double)yi - y + (double)cf_ir_f32(cf_iris_cell2[c + 1]);
            double nd = (cf_fabs(vx) + cf_fabs(vy)) + (vx * vx + vy * vy);
            double m = d2 <= nd ? d2 : nd;
            d2 = m >= d1 ? m : d1;
            d1 = d1 <= nd ? d1 : nd;
        }
    return div ? d1 / d2 - 1 : d2 - d1 - 1;
}
/* CellGenerator.distance (§7.4) from the signature samples sx = sig(x, z), sz = sig(z, x) */
CF_INLINE double cf_ir_cellgen(cf_i64 sc, double shuffle, double x, double z, double sx, double sz)
{
    double a = (x * 0.73) + sx * shuffle, b = (z * 0.73) + sz * shuffle;
    return (cf_ir_cell2(sc, a * 0.01, b * 0.01, 0) + 1.0) / 2.0;
}

/* IrisNoiseGenerator (§7.2): the layer's flags */
enum { CF_IR_NEGATIVE = 1, CF_IR_PARAMETRIC = 2, CF_IR_BEZIER = 4, CF_IR_SINCENTERED = 8 };
/* the remaps after the style sample v, in Iris's order: opacity, negative,
 * exponent, offsetY, parametric, bezier, sinCentered. pow and sin are
 * fdlibm's (StrictMath) */
CF_INLINE double cf_ir_layer(int br, int flags, double v, double opacity, double exponent, double offy)
{
    double n;
    if (br == CF_IR_MASTER) n = opacity == 0 ? 0.0 : 0.0 + v * (opacity - 0.0);
    else n = v * opacity;
    if (flags & CF_IR_NEGATIVE) n = -n + opacity;
    if (exponent != 1) n = n < 0 ? -cf_ir_pow(-n, exponent) : cf_ir_pow(n, exponent);
    n = n + offy;
    if (flags & CF_IR_PARAMETRIC) n = n / ((n - 1) + 1);
    if (flags & CF_IR_BEZIER) n = n * n * (3 - 2 * n);
    if (flags & CF_IR_SINCENTERED) n = cf_ir_sin(n * CF_IR_PI);
    return n;
}
/* a fracture child's displacement of x (dz 0) or z (dz 1) from its sample c:
 * unification subtracts the child's opacity / 2 and adds; master the parent's
 * and subtracts for z */
CF_INLINE double cf_ir_layer_frac(int br, int dz, double p, double c, double copacity, double popacity)
{
    if (br == CF_IR_UNIFICATION) return p + (c - copacity / 2);
    return dz ? p - (c - popacity / 2) : p + (c - popacity / 2);
}
/* IrisGenerator cliffs (§7.3): v snapped to multiples of ch / 255 */
CF_INLINE double cf_ir_cliff(double v, double lo, double hi, double t)
{
    double ch = cf_ir_lerp(lo, hi, t);
    return ((double)cf_ir_jround((v * 255) / ch) * ch) / 255;
}

/* ------------------------------------------------------------------ IrisInterpolator (§8, §8.5)
 * interp(m, x, z, r, P) over any provider P, in two steps: the caller samples
 * P at the points cf_ir_ipt(m, x, z, r, k, ..) for k < cf_ir_inpts(m), then
 * cf_ir_icomb combines the samples. Methods: InterpolationMethod's 27 values. */
enum {
    CF_IIM_NONE = 0, CF_IIM_BILINEAR, CF_IIM_BICUBIC, CF_IIM_BILINEAR_BEZIER, CF_IIM_PARAMETRIC_2, CF_IIM_PARAMETRIC_4,
    CF_IIM_PARAMETRIC_1_5, CF_IIM_HERMITE, CF_IIM_HERMITE_TENSE, CF_IIM_CATMULL_ROM, CF_IIM_HERMITE_LOOSE,
    CF_IIM_HL_HALF_POS, CF_IIM_HL_HALF_NEG, CF_IIM_HL_FULL_POS, CF_IIM_HL_FULL_NEG,
    CF_IIM_STARCAST = 15,          /* + 0..3: 3, 6, 9, 12 directions */
    CF_IIM_BILINEAR_STARCAST = 19, /* + 0..3 */
    CF_IIM_HERMITE_STARCAST = 23,  /* + 0..3 */
    CF_IIM_COUNT = 27
};
#define CF_IR_MAXPTS 192
/* the inner interpolation of a method: 0 the provider, 1 a bilinear form, 2 a bihermite */
CF_INLINE int cf_ir_iform(int m)
{
    if (m == CF_IIM_NONE || (m >= CF_IIM_STARCAST && m < CF_IIM_BILINEAR_STARCAST)) return 0;
    if (m <= CF_IIM_PARAMETRIC_1_5 || (m >= CF_IIM_BILINEAR_STARCAST && m < CF_IIM_HERMITE_STARCAST)) return 1;
    return 2;
}
CF_INLINE int cf_ir_istar(int m) { return m >= CF_IIM_STARCAST ? (m - CF_IIM_STARCAST) % 4 + 1 : 0; } /* 1..4: 3..12 directions */
CF_INLINE int cf_ir_inpts(int m)
{
    int f = cf_ir_iform(m), per = f == 0 ? 1 : f == 1 ? 4 : 16, s = cf_ir_istar(m);
    return s ? per * 3 * s : per;
}
/* direction i of star nd (0..3) around (x, z): the f32 sample point */
CF_INLINE void cf_ir_istarpt(int nd, cf_i32 x, cf_i32 z, double r, int i, double *a, double *b)
{
    const int off[4] = {0, 6, 18, 36};
    float X = (float)x, Z = (float)z, R = (float)r;
    float c = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i]), s = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i + 1]);
    float cx = X + ((R * c) - (R * s));
    float cz = Z + ((R * s) + (R * c));
    *a = (double)cx, *b = (double)cz;
}
/* the k-th sample point of interp(m, x, z, r) */
CF_INLINE void cf_ir_ipt(int m, cf_i32 x, cf_i32 z, double r, int k, double *a, double *b)
{
    int f = cf_ir_iform(m), per = f == 0 ? 1 : f == 1 ? 4 : 16, s = cf_ir_istar(m);
    if (s) {
        double sa, sb;
        cf_ir_istarpt(s - 1, x, z, r, k / per, &sa, &sb);
        if (f == 0) {
            *a = sa, *b = sb;
            return;
        }
        x = cf_jtoint(sa), z = cf_jtoint(sb);
        k = k % per;
    }
    if (f == 0) {
        *a = (double)x, *b = (double)z;
    } else if (f == 1) { /* (X0, Z0), (X1, Z0), (X0, Z1), (X1, Z1) */
        *a = (double)cf_ir_grid(x, r, k & 1), *b = (double)cf_ir_grid(z, r, k >> 1);
    } else { /* (X_i, Z_j), k = 4 i + j, i and j for grid k - 1 */
        *a = (double)cf_ir_grid(x, r, k / 4 - 1), *b = (double)cf_ir_grid(z, r, k % 4 - 1);
    }
}
/* BILINEAR_PARAMETRIC's par(t, a) = t^a / (a * (t^a - t^(a-1)) + 1) (pow: fdlibm's) */
CF_INLINE double cf_ir_par(double t, double al)
{
    double ta = cf_ir_pow(t, al);
    return ta / (al * (ta - cf_ir_pow(t, al - 1)) + 1);
}
CF_INLINE double cf_ir_ilerp(int m, double a, double b, double t)
{
    if (m == CF_IIM_BILINEAR_BEZIER) return a + (t * t * (3 - 2 * t)) * (b - a);
    if (m == CF_IIM_PARAMETRIC_2) return a + cf_ir_par(t, 2) * (b - a);
    if (m == CF_IIM_PARAMETRIC_4) return a + cf_ir_par(t, 4) * (b - a);
    if (m == CF_IIM_PARAMETRIC_1_5) return a + cf_ir_par(t, 1.5) * (b - a);
    return cf_ir_lerp(a, b, t);
}
/* one inner interpolation at the integer point (x, z) from its samples v */
CF_INLINE double cf_ir_iform_comb(int m, cf_i32 x, cf_i32 z, double r, const double *v)
{
    int f = cf_ir_iform(m);
    if (f == 0) return v[0];
    if (f == 1) {
        cf_i32 x0 = cf_ir_grid(x, r, 0), x1 = cf_ir_grid(x, r, 1), z0 = cf_ir_grid(z, r, 0), z1 = cf_ir_grid(z, r, 1);
        double tx = 0 + 1 * (((double)x - (double)x0) / ((double)x1 - (double)x0));
        double tz = 0 + 1 * (((double)z - (double)z0) / ((double)z1 - (double)z0));
        int lm = m >= CF_IIM_STARCAST ? CF_IIM_BILINEAR : m;
        return cf_ir_ilerp(lm, cf_ir_ilerp(lm, v[0], v[1], tx), cf_ir_ilerp(lm, v[2], v[3], tx), tz);
    }
    double tn = 0, bs = 0;
    if (m == CF_IIM_HERMITE) tn = 0.5;
    else if (m == CF_IIM_HERMITE_TENSE) tn = 0.8;
    else if (m == CF_IIM_CATMULL_ROM) tn = 1;
    else if (m == CF_IIM_HL_HALF_POS) bs = 0.5;
    else if (m == CF_IIM_HL_HALF_NEG) bs = -0.5;
    else if (m == CF_IIM_HL_FULL_POS) bs = 1;
    else if (m == CF_IIM_HL_FULL_NEG) bs = -1;
    cf_i32 gx1 = cf_ir_grid(x, r, 0), gx2 = cf_ir_grid(x, r, 1), gz1 = cf_ir_grid(z, r, 0), gz2 = cf_ir_grid(z, r, 1);
    double tx = 0 + 1 * (((double)x - (double)gx1) / ((double)gx2 - (double)gx1));
    double tz = 0 + 1 * (((double)z - (double)gz1) / ((double)gz2 - (double)gz1));
    double col[4];
    for (int i = 0; i < 4; i++) col[i] = cf_ir_herm(v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3], tz, tn, bs);
    return cf_ir_herm(col[0], col[1], col[2], col[3], tx, tn, bs);
}
CF_INLINE double cf_ir_icomb(int m, cf_i32 x, cf_i32 z, double r, const double *v)
{
    int s = cf_ir_istar(m);
    if (!s) return cf_ir_iform_comb(m, x, z, r, v);
    const cf_u32 inv[4] = {0x3eaaaaabu, 0x3e2aaaabu, 0x3de38e39u, 0x3daaaaabu};
    int f = cf_ir_iform(m), per = f == 0 ? 1 : f == 1 ? 4 : 16, n = 3 * s;
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        double a, b;
        cf_ir_istarpt(s - 1, x, z, r, i, &a, &b);
        double q = cf_ir_iform_comb(m, cf_jtoint(a), cf_jtoint(b), r, v + per * i);
        acc = i == 0 ? (float)q : acc + (float)q;
    }
    return (double)(acc * cf_ir_f32(inv[s - 1]));
}
/* IrisInterpolator.interpolate's grid point: l2i(jround(x)) */
CF_INLINE cf_i32 cf_ir_l2i_round(double x) { return (cf_i32)(cf_u32)(cf_u64)cf_ir_jround(x); }


/* ================================================================== expressions and image maps (host/frontend/iris/iris_expr.c, host/frontend/iris/expressions.md)
 * IRIS_XOP: one operation of a Paralithic expression as Iris runs it (the
 * compiled bytecode's semantics: comparisons via DCMPG, so NaN compares as
 * "greater"; |v| keeps -0.0; if() takes the first branch unless the predicate
 * == 0). Native functions are Java's Math.* with the project's StrictMath
 * choice (fdlibm sin, cos, pow: cf_ir_sin, cf_ir_cos, cf_ir_pow). */
enum {
    CF_IX_CONST = 0, CF_IX_X, CF_IX_Y, CF_IX_Z,
    CF_IX_ADD, CF_IX_SUB, CF_IX_MUL, CF_IX_DIV, CF_IX_MOD,
    CF_IX_LT, CF_IX_LE, CF_IX_EQ, CF_IX_GE, CF_IX_GT, CF_IX_NE, CF_IX_AND, CF_IX_OR,
    CF_IX_NEG, CF_IX_ABSOP, CF_IX_IF,
    CF_IX_POW, CF_IX_MAX, CF_IX_MIN, CF_IX_SIN, CF_IX_COS, CF_IX_ROUND, CF_IX_FLOOR, CF_IX_CEIL, CF_IX_SQRT,
    CF_IX_RAD, CF_IX_DEG, CF_IX_ABS, CF_IX_SIGN, CF_IX_POW2, CF_IX_INTPOW,
    CF_IX_COUNT
};
/* Java's Math.min / Math.max (NaN wins; -0.0 below +0.0) */
CF_INLINE double cf_ir_jmin(double a, double b)
{
    if (a != a) return a;
    if (a == 0.0 && b == 0.0 && (cf_bits(b) >> 63)) return b;
    return a <= b ? a : b;
}
CF_INLINE double cf_ir_jmax(double a, double b)
{
    if (a != a) return a;
    if (a == 0.0 && b == 0.0 && (cf_bits(a) >> 63)) return b;
    return a >= b ? a : b;
}
/* the JVM's dcmpg: 1 if a > b or either is NaN, 0 if equal, -1 if less */
CF_INLINE int cf_ir_dcmpg(double a, double b) { return a > b ? 1 : a == b ? 0 : a < b ? -1 : 1; }
/* Paralithic's intPow(x, y) for the integral y > 0 of a constant exponent */
CF_INLINE double cf_ir_intpow(double x, double yd)
{
    cf_i64 y = cf_jtolong(yd);
    double r = 1;
    while (y > 0) {
        if ((y & 1) == 0) x *= x, y = (cf_i64)((cf_u64)y >> 1);
        else r *= x, y--;
    }
    return r;
}
/* one operation on its operands a, b (k: the constant) */
CF_INLINE double cf_ir_xop(int op, double a, double b, double k)
{
    switch (op) {
    case CF_IX_CONST: return k;
    case CF_IX_ADD: return a + b;
    case CF_IX_SUB: return a - b;
    case CF_IX_MUL: return a * b;
    case CF_IX_DIV: return a / b;
    case CF_IX_MOD: return fmod(a, b);
    case CF_IX_LT: return cf_ir_dcmpg(a, b) < 0 ? 1.0 : 0.0;
    case CF_IX_LE: return cf_ir_dcmpg(a, b) <= 0 ? 1.0 : 0.0;
    case CF_IX_EQ: return cf_ir_dcmpg(a, b) == 0 ? 1.0 : 0.0;
    case CF_IX_GE: return cf_ir_dcmpg(a, b) >= 0 ? 1.0 : 0.0;
    case CF_IX_GT: return cf_ir_dcmpg(a, b) > 0 ? 1.0 : 0.0;
    case CF_IX_NE: return cf_ir_dcmpg(a, b) != 0 ? 1.0 : 0.0;
    case CF_IX_AND: return (cf_ir_dcmpg(a, 0.0) != 0 && cf_ir_dcmpg(b, 0.0) != 0) ? 1.0 : 0.0;
    case CF_IX_OR: return (cf_ir_dcmpg(a, 0.0) != 0 || cf_ir_dcmpg(b, 0.0) != 0) ? 1.0 : 0.0;
    case CF_IX_NEG: return -a;
    case CF_IX_ABSOP: return cf_ir_dcmpg(a, 0.0) >= 0 ? a : -a;
    case CF_IX_POW: return cf_ir_pow(a, b);
    case CF_IX_MAX: return cf_ir_jmax(a, b);
    case CF_IX_MIN: return cf_ir_jmin(a, b);
    case CF_IX_SIN: return cf_ir_sin(a);
    case CF_IX_COS: return cf_ir_cos(a);
    case CF_IX_ROUND: return (double)cf_ir_jround(a);
    case CF_IX_FLOOR: return cf_floor(a);
    case CF_IX_CEIL: return -cf_floor(-a);
    case CF_IX_SQRT: return cf_sqrt(a);
    case CF_IX_RAD: return a * 0.017453292519943295;
    case CF_IX_DEG: return a * 57.29577951308232;
    case CF_IX_ABS: return cf_fabs(a);
    case CF_IX_SIGN: return (a == 0.0 || a != a) ? a : (cf_bits(a) >> 63) ? -1.0 : 1.0;
    case CF_IX_POW2: return a * a;
    case CF_IX_INTPOW: return cf_ir_intpow(a, b);
    default: return 0.0;
    }
}

/* IRIS_IMAGE: IrisImageMap.rawNoise (IRIS expr doc) of the provider point (a, b):
 * pix[0..w*h) the channel value of each pixel (row-major, row z), pix[w*h] the
 * value outside the image (Java's getRGB there is 0); flags 1 tiled, 2 centered,
 * 4 inverted; cs coordinateScale */
enum { CF_IR_IMG_TILED = 1, CF_IR_IMG_CENTERED = 2, CF_IR_IMG_INVERTED = 4 };
#ifdef __OPENCL_VERSION__
#define CF_IR_TAB __global const uchar *
#define CF_IR_PIX(t, off, i) (((__global const double *)((t) + (off)))[i])
#else
#include <string.h>
#define CF_IR_TAB const uint8_t *
CF_INLINE double cf_ir_pix_c(const uint8_t *t, size_t off, long i)
{
    double v;
    memcpy(&v, t + off + 8 * (size_t)i, sizeof v);
    return v;
}
#define CF_IR_PIX(t, off, i) cf_ir_pix_c((t), (off), (i))
#endif
CF_INLINE double cf_ir_img_raw(CF_IR_TAB t, long off, int w, int h, int flags, double cs, double a, double b)
{
    double x = a / cs, z = b / cs;
    if (flags & CF_IR_IMG_CENTERED) x += (double)w / 2.0, z += (double)h / 2.0;
    if (flags & CF_IR_IMG_TILED) {
        x = fmod(x, (double)w);
        x = x < 0 ? x + (double)w : x;
        z = fmod(z, (double)h);
        z = z < 0 ? z + (double)h : z;
    }
    cf_i32 xi = cf_jtoint(x), zi = cf_jtoint(z);
    long i = (xi >= w || zi >= h || xi < 0 || zi < 0) ? (long)w * (long)h : (long)zi * (long)w + (long)xi;
    double v = CF_IR_PIX(t, (size_t)off, i);
    return (flags & CF_IR_IMG_INVERTED) ? 1.0 - v : v;
}

/* ------------------------------------------------------------------ terrains (IRIS.md §7.6, host/frontend/iris/iris_pack.c) */
/* IrisComplex.getHeight: (h + fluid) + the overlay's 0.0, clamped to [0, height] with Java's Math.min/max */
CF_INLINE double cf_ir_height(double h, double fluid, double height)
{
    return cf_ir_jmax(cf_ir_jmin((h + fluid) + 0.0, height), 0.0);
}

