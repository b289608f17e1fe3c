/* cf_hytale_legacy.h - the leaf maths of Hytale's legacy noise assets (HYTALE.md Part A).
 * A part of kernels/cf_hytale.h, included by it only (after what it needs; cmake/embed_text.cmake
 * inlines it into the OpenCL program's text the same way). */
/* ---- legacy (hytale-legacy) ----------------------------------------------------------------
 * The leaf maths of the legacy noise assets (HYTALE.md Part A, host/frontend/hytale/legacy.c).
 * Every algorithm here is a chunkfill choice (HYTALE.md §2.6, §2.8 UNK), not verified
 * against Hytale. Leaves are 2-D on (x, z); their base noises are FNL's Perlin, Value,
 * OpenSimplex2 and cellular with FNLfloat = double for the coordinate skew/floor and the
 * rest in float (OLD_SIMPLEX: a classic simplex in double), mapped from [-1, 1] to [0, 1]
 * as v * 0.5 + 0.5. */
enum { CF_HY_L_SIMPLEX = 0, CF_HY_L_PERLIN = 1, CF_HY_L_VALUE = 2, CF_HY_L_CELL = 3, CF_HY_L_OLDSIMPLEX = 4 };
enum { CF_HY_L_QUINTIC = 0, CF_HY_L_HERMITE = 1, CF_HY_L_LINEAR = 2 };
enum { CF_HY_L_FBM = 0, CF_HY_L_FMAX = 1 };
enum {
    CF_HY_F_NORMAL = 0, CF_HY_F_INVERTED, CF_HY_F_SQRT, CF_HY_F_INVERTED_SQRT, CF_HY_F_SQUARED, CF_HY_F_INVERTED_SQUARED,
    CF_HY_F_RIDGED, CF_HY_F_INVERTED_RIDGED, CF_HY_F_RIDGED_SQRT, CF_HY_F_INVERTED_RIDGED_SQRT
};

CF_INLINE float cf_hy_linterp(int mode, float t)
{
    if (mode == CF_HY_L_LINEAR) return t;
    if (mode == CF_HY_L_HERMITE) return (t * t) * (3.0f - (2.0f * t));
    return ((t * t) * t) * ((t * ((t * 6.0f) - 15.0f)) + 10.0f);
}
CF_INLINE float cf_hy_lerpf(float a, float b, float t) { return a + (t * (b - a)); }
/* FNL's value at a lattice point: hash * hash, ^ << 19, scaled by 2^-31 */
CF_INLINE float cf_hy_valcoord(cf_i32 seed, cf_i32 xp, cf_i32 yp)
{
    cf_i32 h = cf_hy_hash2(seed, xp, yp);
    h = cf_hy_wmul(h, h);
    h ^= (cf_i32)((cf_u32)h << 19);
    return (float)h * (1.0f / 2147483648.0f);
}
/* FNL Perlin 2D (choice), the fade selected by InterpolationMode */
CF_INLINE float cf_hy_perlin2(cf_i32 seed, double x, double y, int interp)
{
    cf_i32 x0 = cf_hy_floord(x), y0 = cf_hy_floord(y);
    float xd0 = (float)(x - (double)x0), yd0 = (float)(y - (double)y0);
    float xd1 = xd0 - 1.0f, yd1 = yd0 - 1.0f;
    float xs = cf_hy_linterp(interp, xd0), ys = cf_hy_linterp(interp, yd0);
    cf_i32 xp = cf_hy_wmul(x0, CF_HY_PRIME_X), yp = cf_hy_wmul(y0, CF_HY_PRIME_Y);
    cf_i32 xq = cf_hy_wadd(xp, CF_HY_PRIME_X), yq = cf_hy_wadd(yp, CF_HY_PRIME_Y);
    float xf0 = cf_hy_lerpf(cf_hy_grad2c(seed, xp, yp, xd0, yd0), cf_hy_grad2c(seed, xq, yp, xd1, yd0), xs);
    float xf1 = cf_hy_lerpf(cf_hy_grad2c(seed, xp, yq, xd0, yd1), cf_hy_grad2c(seed, xq, yq, xd1, yd1), xs);
    return cf_hy_lerpf(xf0, xf1, ys) * 1.4247691104677813f;
}
/* FNL Value 2D (choice), the fade selected by InterpolationMode */
CF_INLINE float cf_hy_value2(cf_i32 seed, double x, double y, int interp)
{
    cf_i32 x0 = cf_hy_floord(x), y0 = cf_hy_floord(y);
    float xs = cf_hy_linterp(interp, (float)(x - (double)x0)), ys = cf_hy_linterp(interp, (float)(y - (double)y0));
    cf_i32 xp = cf_hy_wmul(x0, CF_HY_PRIME_X), yp = cf_hy_wmul(y0, CF_HY_PRIME_Y);
    cf_i32 xq = cf_hy_wadd(xp, CF_HY_PRIME_X), yq = cf_hy_wadd(yp, CF_HY_PRIME_Y);
    float xf0 = cf_hy_lerpf(cf_hy_valcoord(seed, xp, yp), cf_hy_valcoord(seed, xq, yp), xs);
    float xf1 = cf_hy_lerpf(cf_hy_valcoord(seed, xp, yq), cf_hy_valcoord(seed, xq, yq), xs);
    return cf_hy_lerpf(xf0, xf1, ys);
}
/* OLD_SIMPLEX (HYTALE.md §2.6 choice): the classic (2001) 2-D simplex noise in double, the
 * permutation of 0..255 shuffled by java.util.Random(seed): for i = 255 .. 1, swap p[i] and
 * p[nextInt(i + 1)]; the 12 edge gradients, radius 0.5, scale 70 */
#define CF_HY_G2D 0x1.b0cb174df99c8p-3 /* (3 - sqrt3) / 6 in double */
CF_INLINE cf_i32 cf_hy_jrnext(cf_u64 *s, int bits)
{
    *s = ((*s * 0x5DEECE66DUL) + 0xBUL) & 0xFFFFFFFFFFFFUL;
    return (cf_i32)(cf_u32)(*s >> (48 - bits));
}
/* java.util.Random.nextInt(bound), bound > 0 */
CF_INLINE cf_i32 cf_hy_jrint(cf_u64 *s, cf_i32 bound)
{
    if ((bound & -bound) == bound) return (cf_i32)(((cf_i64)bound * (cf_i64)cf_hy_jrnext(s, 31)) >> 31);
    cf_i32 bits, val;
    do {
        bits = cf_hy_jrnext(s, 31);
        val = bits % bound;
    } while (cf_hy_wadd(cf_hy_wadd(bits, -val), bound - 1) < 0);
    return val;
}
CF_INLINE double cf_hy_oldgrad(int g, double x, double y)
{
    switch (g) {
    case 0: return x + y;
    case 1: return -x + y;
    case 2: return x - y;
    case 3: return -x - y;
    case 4: case 6: return x;
    case 5: case 7: return -x;
    case 8: case 10: return y;
    default: return -y;
    }
}
CF_INLINE double cf_hy_oldcorner(double x, double y, int g)
{
    double t = (0.5 - (x * x)) - (y * y);
    if (t < 0.0) return 0.0;
    t = t * t;
    return (t * t) * cf_hy_oldgrad(g, x, y);
}
CF_INLINE double cf_hy_oldsimplex2(cf_i32 seed, double xin, double yin)
{
    int p[256];
    cf_u64 s = ((cf_u64)(cf_i64)seed ^ 0x5DEECE66DUL) & 0xFFFFFFFFFFFFUL;
    for (int i = 0; i < 256; i++) p[i] = i;
    for (int i = 255; i > 0; i--) {
        int j = cf_hy_jrint(&s, i + 1), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    double sk = (xin + yin) * CF_HY_F2D;
    cf_i32 i = cf_jfloor(xin + sk), j = cf_jfloor(yin + sk);
    double t = (double)cf_hy_wadd(i, j) * CF_HY_G2D;
    double x0 = xin - ((double)i - t), y0 = yin - ((double)j - t);
    int i1 = x0 > y0 ? 1 : 0, j1 = 1 - i1;
    double x1 = (x0 - (double)i1) + CF_HY_G2D, y1 = (y0 - (double)j1) + CF_HY_G2D;
    double x2 = (x0 - 1.0) + (2.0 * CF_HY_G2D), y2 = (y0 - 1.0) + (2.0 * CF_HY_G2D);
    int ii = i & 255, jj = j & 255;
    int g0 = p[(ii + p[jj]) & 255] % 12, g1 = p[(ii + i1 + p[(jj + j1) & 255]) & 255] % 12;
    int g2 = p[(ii + 1 + p[(jj + 1) & 255]) & 255] % 12;
    double n = (cf_hy_oldcorner(x0, y0, g0) + cf_hy_oldcorner(x1, y1, g1)) + cf_hy_oldcorner(x2, y2, g2);
    return 70.0 * n;
}
/* one octave of a legacy leaf's base noise in [-1, 1] at 2-D (x, y) = world (x, z) */
CF_INLINE double cf_hy_lbase(int type, cf_i32 seed, double x, double y, int a, int b, float jitter)
{
    if (type == CF_HY_L_PERLIN) return (double)cf_hy_perlin2(seed, x, y, a);
    if (type == CF_HY_L_VALUE) return (double)cf_hy_value2(seed, x, y, a);
    if (type == CF_HY_L_CELL) return (double)cf_hy_cell2_single(seed, (float)x, (float)y, jitter, a, b);
    if (type == CF_HY_L_OLDSIMPLEX) return cf_hy_oldsimplex2(seed, x, y);
    return (double)cf_hy_os2_2d(seed, x, y);
}
/* a legacy leaf with its fractal (HYTALE.md §2.8 choice): octave i at frequency L^i with
 * seed + i and weight P^i; FBM: sum_i P^i n_i / sum_i P^i; MAX: max_i (P^i n_i / sum P^i);
 * the result mapped to [0, 1] as v * 0.5 + 0.5 */
CF_INLINE double cf_hy_lnoise(cf_i32 seed, double x, double z, int type, int octaves, int mode, double lac, double pers, int a,
                              int b, float jitter)
{
    double f = 1.0, amp = 1.0, norm = 0.0, v = 0.0;
    for (int i = 0; i < octaves; i++) {
        norm += amp;
        amp *= pers;
    }
    amp = 1.0;
    for (int i = 0; i < octaves; i++) {
        double w = (amp * cf_hy_lbase(type, cf_hy_wadd(seed, i), x * f, z * f, a, b, jitter)) / norm;
        v = (mode == CF_HY_L_FMAX && i > 0) ? cf_hy_jmax(v, w) : (i > 0 ? v + w : w);
        amp *= pers;
        f *= lac;
    }
    return (v * 0.5) + 0.5;
}
/* Formula (HYTALE.md §2.7 choice, for values in [0, 1]); SQRT of a negative is the odd extension */
CF_INLINE double cf_hy_lformula(int f, double v)
{
    double r = v;
    int base = f & ~1; /* the INVERTED_ variant is the odd member of each pair */
    if (base == CF_HY_F_SQRT) r = cf_hy_sqrt(v);
    else if (base == CF_HY_F_SQUARED) r = v * v;
    else if (base == CF_HY_F_RIDGED) r = 1.0 - cf_fabs((2.0 * v) - 1.0);
    else if (base == CF_HY_F_RIDGED_SQRT) r = cf_hy_sqrt(1.0 - cf_fabs((2.0 * v) - 1.0));
    return (f & 1) ? 1.0 - r : r;
}
/* CURVE, the "power curve" (HYTALE.md §2.5 UNK, chunkfill choice): an ease-in/ease-out pair,
 * v < 0.5: 0.5 (2v)^A, else 1 - 0.5 (2 (1 - v))^(-B); A = 2, B = -2 is the quadratic S curve;
 * powers by cf_hy_pow (odd for negative bases) */
CF_INLINE double cf_hy_lcurve(double v, double a, double b)
{
    if (v < 0.5) return 0.5 * cf_hy_pow(2.0 * v, a);
    return 1.0 - (0.5 * cf_hy_pow(2.0 * (1.0 - v), -b));
}
/* POINT (HYTALE.md §2.6 choice): 3-D Euclidean distance d to (cx, cy, cz); d <= inner -> 1,
 * d >= outer -> 0, linear in between */
CF_INLINE double cf_hy_lpoint(double x, double y, double z, double cx, double cy, double cz, double inner, double outer)
{
    double dx = x - cx, dy = y - cy, dz = z - cz;
    double d = cf_sqrt(((dx * dx) + (dy * dy)) + (dz * dz));
    if (d <= inner) return 1.0;
    if (d >= outer) return 0.0;
    return (outer - d) / (outer - inner);
}
/* ---- end legacy (hytale-legacy) ---- */

