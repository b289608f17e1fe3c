/* cf_iris_strictmath.h - Java's StrictMath for the Iris kernels: fdlibm 5.3's sin, cos and pow.
 * A part of kernels/cf_iris.h, included by it only (after what it needs; cmake/embed_text.cmake
 * inlines it into the OpenCL program's text the same way). */
/* ------------------------------------------------------------------ sin / cos (fdlibm 5.3, i.e. Java's StrictMath) */
/* Clover noise calls Math.sin/cos; the project follows StrictMath (fdlibm's
 * algorithms, written here from + - * / only), so a golden record equals its
 * strict_bits when it has one, else bits. Arguments on Iris's paths stay below
 * 2^19 * pi/2 (fdlibm's medium range); larger ones use the same reduction. */
CF_INLINE cf_u32 cf_ir_hi(double x) { return (cf_u32)(cf_bits(x) >> 32); }
CF_INLINE double cf_ir_ksin(double x, double y, int iy)
{
    const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03, S3 = -1.98412698298579493134e-04,
                 S4 = 2.75573137070700676789e-06, S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    cf_u32 ix = cf_ir_hi(x) & 0x7fffffffu;
    if (ix < 0x3e400000u && (int)x == 0) return x;
    double z = x * x, v = z * x, r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    if (iy == 0) return x + v * (S1 + z * r);
    return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}
CF_INLINE double cf_ir_kcos(double x, double y)
{
    const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03, C3 = 2.48015872894767294178e-05,
                 C4 = -2.75573143513906633035e-07, C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    cf_u32 ix = cf_ir_hi(x) & 0x7fffffffu;
    if (ix < 0x3e400000u && (int)x == 0) return 1.0;
    double z = x * x, r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    if (ix < 0x3FD33333u) return 1.0 - (0.5 * z - (z * r - x * y));
    double qx = ix > 0x3fe90000u ? 0.28125 : cf_from_bits((cf_u64)(ix - 0x00200000u) << 32);
    double hz = 0.5 * z - qx, a = 1.0 - qx;
    return a - (hz - (z * r - x * y));
}
CF_CONST cf_u32 cf_ir_npio2_hw[32] = {
    0x3ff921fbu, 0x400921fbu, 0x4012d97cu, 0x401921fbu, 0x401f6a7au, 0x4022d97cu, 0x4025fdbbu, 0x402921fbu,
    0x402c463au, 0x402f6a7au, 0x4031475cu, 0x4032d97cu, 0x40346b9cu, 0x4035fdbbu, 0x40378fdbu, 0x403921fbu,
    0x403ab41bu, 0x403c463au, 0x403dd85au, 0x403f6a7au, 0x40407e4cu, 0x4041475cu, 0x4042106cu, 0x4042d97cu,
    0x4043a28cu, 0x40446b9cu, 0x404534acu, 0x4045fdbbu, 0x4046c6cbu, 0x40478fdbu, 0x404858ebu, 0x404921fbu};
/* x - n*pi/2 as y0 + y1; returns n (|x| > pi/4) */
CF_INLINE int cf_ir_rem_pio2(double x, double *y0, double *y1)
{
    const double invpio2 = 6.36619772367581382433e-01, pio2_1 = 1.57079632673412561417e+00, pio2_1t = 6.07710050650619224932e-11,
                 pio2_2 = 6.07710050630396597660e-11, pio2_2t = 2.02226624879595063154e-21, pio2_3 = 2.02226624871116645580e-21,
                 pio2_3t = 8.47842766036889956997e-32;
    cf_u32 hx = cf_ir_hi(x), ix = hx & 0x7fffffffu;
    int neg = (hx >> 31) != 0;
    if (ix < 0x4002d97cu) { /* |x| < 3pi/4: n = +-1 */
        double z;
        if (!neg) {
            z = x - pio2_1;
            if (ix != 0x3ff921fbu) *y0 = z - pio2_1t, *y1 = (z - *y0) - pio2_1t;
            else z -= pio2_2, *y0 = z - pio2_2t, *y1 = (z - *y0) - pio2_2t;
            return 1;
        }
        z = x + pio2_1;
        if (ix != 0x3ff921fbu) *y0 = z + pio2_1t, *y1 = (z - *y0) + pio2_1t;
        else z += pio2_2, *y0 = z + pio2_2t, *y1 = (z - *y0) + pio2_2t;
        return -1;
    }
    double t = cf_fabs(x);
    int n = cf_jtoint(t * invpio2 + 0.5); /* saturates beyond the medium range (not reached by Iris; no UB) */
    double fn = (double)n, r = t - fn * pio2_1, w = fn * pio2_1t, a;
    if (n > 0 && n < 32 && ix != cf_ir_npio2_hw[n - 1]) { /* n >= 1 here (|x| >= 3pi/4) */
        a = r - w;
    } else {
        int j = (int)(ix >> 20);
        a = r - w;
        int i = j - (int)((cf_ir_hi(a) >> 20) & 0x7ffu);
        if (i > 16) {
            t = r;
            w = fn * pio2_2;
            r = t - w;
            w = fn * pio2_2t - ((t - r) - w);
            a = r - w;
            i = j - (int)((cf_ir_hi(a) >> 20) & 0x7ffu);
            if (i > 49) {
                t = r;
                w = fn * pio2_3;
                r = t - w;
                w = fn * pio2_3t - ((t - r) - w);
                a = r - w;
            }
        }
    }
    double b = (r - a) - w;
    if (neg) {
        *y0 = -a, *y1 = -b;
        return -n;
    }
    *y0 = a, *y1 = b;
    return n;
}
CF_INLINE double cf_ir_sin(double x)
{
    if ((cf_ir_hi(x) & 0x7fffffffu) >= 0x7ff00000u) return x - x; /* NaN, +-inf: NaN */
    if ((cf_ir_hi(x) & 0x7fffffffu) <= 0x3fe921fbu) return cf_ir_ksin(x, 0.0, 0);
    double a, b;
    int n = cf_ir_rem_pio2(x, &a, &b) & 3;
    if (n == 0) return cf_ir_ksin(a, b, 1);
    if (n == 1) return cf_ir_kcos(a, b);
    if (n == 2) return -cf_ir_ksin(a, b, 1);
    return -cf_ir_kcos(a, b);
}
CF_INLINE double cf_ir_cos(double x)
{
    if ((cf_ir_hi(x) & 0x7fffffffu) >= 0x7ff00000u) return x - x;
    if ((cf_ir_hi(x) & 0x7fffffffu) <= 0x3fe921fbu) return cf_ir_kcos(x, 0.0);
    double a, b;
    int n = cf_ir_rem_pio2(x, &a, &b) & 3;
    if (n == 0) return cf_ir_kcos(a, b);
    if (n == 1) return -cf_ir_ksin(a, b, 1);
    if (n == 2) return -cf_ir_kcos(a, b);
    return cf_ir_ksin(a, b, 1);
}

/* ------------------------------------------------------------------ pow (fdlibm 5.3's e_pow.c, i.e. Java's StrictMath.pow) */
/* The project follows StrictMath on Iris's paths (IRIS.md §9): pow is
 * fdlibm's algorithm, written here from + - * / and bit operations (the same
 * steps, constants given by their bit patterns), so a golden record equals its
 * strict_bits where it carries one, else bits. */
CF_INLINE double cf_ir_setlo0(double x) { return cf_from_bits(cf_bits(x) & 0xffffffff00000000UL); }
CF_INLINE double cf_ir_sethi(double x, cf_u32 hi) { return cf_from_bits(((cf_u64)hi << 32) | (cf_bits(x) & 0xffffffffUL)); }
CF_INLINE cf_u32 cf_ir_lo(double x) { return (cf_u32)(cf_bits(x) & 0xffffffffUL); }
#define CF_IR_D(b) cf_from_bits(b##UL)
CF_INLINE double cf_ir_pow(double x, double y)
{
    const double two53 = 9007199254740992.0, huge = 1.0e300, tiny = 1.0e-300;
    cf_i32 hx = (cf_i32)cf_ir_hi(x), hy = (cf_i32)cf_ir_hi(y);
    cf_u32 lx = cf_ir_lo(x), ly = cf_ir_lo(y);
    cf_i32 ix = hx & 0x7fffffff, iy = hy & 0x7fffffff;
    if ((iy | (cf_i32)ly) == 0) return 1.0;
    if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0)) return x + y;
    int yisint = 0;
    if (hx < 0) {
        if (iy >= 0x43400000) yisint = 2;
        else if (iy >= 0x3ff00000) {
            int k = (iy >> 20) - 0x3ff;
            if (k > 20) {
                cf_u32 j = ly >> (52 - k);
                if ((j << (52 - k)) == ly) yisint = 2 - (int)(j & 1);
            } else if (ly == 0) {
                cf_i32 j = iy >> (20 - k);
                if ((j << (20 - k)) == iy) yisint = 2 - (int)(j & 1);
            }
        }
    }
    if (ly == 0) {
        if (iy == 0x7ff00000) {
            if (((ix - 0x3ff00000) | (cf_i32)lx) == 0) return y - y;
            if (ix >= 0x3ff00000) return hy >= 0 ? y : 0.0;
            return hy < 0 ? -y : 0.0;
        }
        if (iy == 0x3ff00000) return hy < 0 ? 1.0 / x : x;
        if (hy == 0x40000000) return x * x;
        if (hy == 0x3fe00000 && hx >= 0) return cf_sqrt(x);
    }
    double ax = cf_fabs(x), z;
    if (lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000)) {
        z = ax;
        if (hy < 0) z = 1.0 / z;
        if (hx < 0) {
            if (((ix - 0x3ff00000) | yisint) == 0) z = (z - z) / (z - z);
            else if (yisint == 1) z = -z;
        }
        return z;
    }
    int n = hx < 0 ? 0 : 1;
    if ((n | yisint) == 0) return (x - x) / (x - x);
    double s = 1.0;
    if ((n | (yisint - 1)) == 0) s = -1.0;
    double t1, t2;
    const double ivln2 = CF_IR_D(0x3ff71547652b82fe), ivln2_h = CF_IR_D(0x3ff7154760000000), ivln2_l = CF_IR_D(0x3e54ae0bf85ddf44);
    if (iy > 0x41e00000) {
        if (iy > 0x43f00000) {
            if (ix <= 0x3fefffff) return hy < 0 ? huge * huge : tiny * tiny;
            if (ix >= 0x3ff00000) return hy > 0 ? huge * huge : tiny * tiny;
        }
        if (ix < 0x3fefffff) return hy < 0 ? s * huge * huge : s * tiny * tiny;
        if (ix > 0x3ff00000) return hy > 0 ? s * huge * huge : s * tiny * tiny;
        double t = ax - 1.0;
        double w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        double u = ivln2_h * t, v = t * ivln2_l - w * ivln2;
        t1 = cf_ir_setlo0(u + v);
        t2 = v - (t1 - u);
    } else {
        const double bp[2] = {1.0, 1.5}, dp_h[2] = {0.0, CF_IR_D(0x3fe2b80340000000)}, dp_l[2] = {0.0, CF_IR_D(0x3e4cfdeb43cfd006)};
        const double L1 = CF_IR_D(0x3fe3333333333303), L2 = CF_IR_D(0x3fdb6db6db6fabff), L3 = CF_IR_D(0x3fd55555518f264d),
                     L4 = CF_IR_D(0x3fd17460a91d4101), L5 = CF_IR_D(0x3fcd864a93c9db65), L6 = CF_IR_D(0x3fca7e284a454eef);
        const double cp = CF_IR_D(0x3feec709dc3a03fd), cp_h = CF_IR_D(0x3feec709e0000000), cp_l = CF_IR_D(0xbe3e2fe0145b01f5);
        n = 0;
        if (ix < 0x00100000) {
            ax *= two53;
            n -= 53;
            ix = (cf_i32)cf_ir_hi(ax);
        }
        n += (ix >> 20) - 0x3ff;
        cf_i32 j = ix & 0x000fffff;
        int k;
        ix = j | 0x3ff00000;
        if (j <= 0x3988E) k = 0;
        else if (j < 0xBB67A) k = 1;
        else {
            k = 0;
            n += 1;
            ix -= 0x00100000;
        }
        ax = cf_ir_sethi(ax, (cf_u32)ix);
        double u = ax - bp[k], v = 1.0 / (ax + bp[k]);
        double ss = u * v, s_h = cf_ir_setlo0(ss);
        double t_h = cf_from_bits((cf_u64)(cf_u32)(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18)) << 32);
        double t_l = ax - (t_h - bp[k]);
        double s_l = v * ((u - s_h * t_h) - s_h * t_l);
        double s2 = ss * ss;
        double r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
        r += s_l * (s_h + ss);
        s2 = s_h * s_h;
        t_h = cf_ir_setlo0(3.0 + s2 + r);
        t_l = r - ((t_h - 3.0) - s2);
        u = s_h * t_h;
        v = s_l * t_h + t_l * ss;
        double p_h = cf_ir_setlo0(u + v);
        double p_l = v - (p_h - u);
        double z_h = cp_h * p_h;
        double z_l = cp_l * p_h + p_l * cp + dp_l[k];
        double t = (double)n;
        t1 = cf_ir_setlo0(((z_h + z_l) + dp_h[k]) + t);
        t2 = z_l - (((t1 - t) - dp_h[k]) - z_h);
    }
    const double P1 = CF_IR_D(0x3fc555555555553e), P2 = CF_IR_D(0xbf66c16c16bebd93), P3 = CF_IR_D(0x3f11566aaf25de2c),
                 P4 = CF_IR_D(0xbebbbd41c5d26bf1), P5 = CF_IR_D(0x3e66376972bea4d0);
    const double lg2 = CF_IR_D(0x3fe62e42fefa39ef), lg2_h = CF_IR_D(0x3fe62e4300000000), lg2_l = CF_IR_D(0xbe205c610ca86c39),
                 ovt = CF_IR_D(0x3c971547652b82fe);
    double y1 = cf_ir_setlo0(y);
    double p_l = (y - y1) * t1 + y * t2, p_h = y1 * t1;
    z = p_l + p_h;
    cf_i32 j = (cf_i32)cf_ir_hi(z);
    cf_i32 i = (cf_i32)cf_ir_lo(z);
    if (j >= 0x40900000) {
        if (((j - 0x40900000) | i) != 0) return s * huge * huge;
        if (p_l + ovt > z - p_h) return s * huge * huge;
    } else if ((j & 0x7fffffff) >= 0x4090cc00) {
        if ((cf_i32)(((cf_u32)j - 0xc090cc00u) | (cf_u32)i) != 0) return s * tiny * tiny;
        if (p_l <= z - p_h) return s * tiny * tiny;
    }
    i = j & 0x7fffffff;
    int k = (i >> 20) - 0x3ff;
    n = 0;
    if (i > 0x3fe00000) {
        n = j + (0x00100000 >> (k + 1));
        k = ((n & 0x7fffffff) >> 20) - 0x3ff;
        double t = cf_from_bits((cf_u64)(cf_u32)(n & ~(0x000fffff >> k)) << 32);
        n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
        if (j < 0) n = -n;
        p_h -= t;
    }
    double t = cf_ir_setlo0(p_l + p_h);
    double u = t * lg2_h, v = (p_l - (t - p_h)) * lg2 + t * lg2_l;
    z = u + v;
    double w = v - (z - u);
    t = z * z;
    double tt = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    double r = (z * tt) / (tt - 2.0) - (w + z * w);
    z = 1.0 - (r - z);
    j = (cf_i32)cf_ir_hi(z);
    j += (cf_i32)((cf_u32)n << 20);
    if ((j >> 20) <= 0) {
        /* scalbn(z, n) with a subnormal result: one rounding */
        int e = (int)((cf_ir_hi(z) >> 20) & 0x7ff) + n;
        if (e <= -54) return s * tiny * tiny;
        z = cf_from_bits((cf_bits(z) & 0x800fffffffffffffUL) | ((cf_u64)(e + 54) << 52)) * CF_IR_D(0x3c90000000000000);
    } else {
        z = cf_ir_sethi(z, (cf_u32)j);
    }
    return s * z;
}
#undef CF_IR_D

/* CNG post-processing without children (§5.3): opacity, signed power, then
 * ((n / 1) - 0 + 0) * 1 (turns -0 into +0, as Iris does). The power is
 * fdlibm's (cf_ir_pow, Java's StrictMath.pow), as the project follows StrictMath. */
CF_INLINE double cf_ir_post(double n, double opacity, double power)
{
    n = n * opacity;
    if (power != 1) n = n < 0 ? -cf_ir_pow(-n, power) : cf_ir_pow(n, power);
    return ((n / 1.0) - 0.0 + 0.0) * 1.0;
}

