/* cf_iris_noises.h - the Iris NoiseTypes beyond the FND and FN32 leaves: Clover noise, the interpolated NoiseTypes, the hexagon family.
 * A part of kernels/cf_iris.h, included by it only (after what it needs; cmake/embed_text.cmake
 * inlines it into the OpenCL program's text the same way). */
/* ------------------------------------------------------------------ Clover noise (§3.9) */
#define CF_IR_PI 3.141592653589793
#define CF_IR_HM 281474976710656L
CF_INLINE cf_i64 cf_ir_cstep(cf_i64 v, cf_i64 a)
{
    v = (cf_i64)((cf_u64)v + (cf_u64)a);
    if (v < 0) v = (cf_i64)((cf_u64)v + (cf_u64)CF_IR_HM);
    v = (cf_i64)((cf_u64)v * 25214903917UL + 11UL);
    return v % CF_IR_HM;
}
/* the cell hash of a whole-number point, in [0, 1); dims 2 ignores pz */
CF_INLINE double cf_ir_chash(int br, cf_i64 k, int dims, double px, double py, double pz)
{
    cf_i64 qx = cf_jtolong(cf_floor(px)), qy = cf_jtolong(cf_floor(py)), qz = cf_jtolong(cf_floor(pz)), h;
    if (br == CF_IR_UNIFICATION) {
        cf_u64 u = (cf_u64)k;
        u ^= cf_ir_mix((cf_u64)qx + CF_IR_GX);
        u ^= cf_ir_mix((cf_u64)qy + CF_IR_GZ);
        if (dims == 3) u ^= cf_ir_mix((cf_u64)qz + 0x165667B19E3779F9UL);
        h = (cf_i64)(cf_ir_mix(u) & (cf_u64)(CF_IR_HM - 1));
    } else {
        h = cf_ir_cstep(k, qx);
        h = cf_ir_cstep(h, qy);
        if (dims == 3) {
            h = cf_ir_cstep(h, qz);
            h = cf_ir_cstep(h, (cf_i64)((cf_u64)h * (cf_u64)cf_jtolong(cf_floor(px + py + pz))));
        } else {
            h = cf_ir_cstep(h, (cf_i64)((cf_u64)h * (cf_u64)cf_jtolong(cf_floor(px + py))));
        }
    }
    if (h < 0) h += CF_IR_HM;
    return (double)h / (double)CF_IR_HM;
}
/* 2-D feature point of cell corner (cx, cy) */
CF_INLINE void cf_ir_o2(int br, cf_i64 k, double cx, double cy, double *ox, double *oy)
{
    double h = cf_ir_chash(br, k, 2, cx, cy, 0.0);
    double sc = cf_floor(h * 50 + 1) / 100, a = h * CF_IR_PI * 100;
    double vx = cf_ir_sin(a) * sc + 0.5, vy = cf_ir_cos(a) * sc + 0.5;
    *ox = (cx + vx * (0.3 * 2.0)) + (0.5 - 0.3);
    *oy = (cy + vy * (0.3 * 2.0)) + (0.5 - 0.3);
}
CF_INLINE double cf_ir_clover2(int br, cf_i64 k, double px, double py)
{
    double fx = cf_floor(px), fy = cf_floor(py);
    double c11x, c11y, c10x, c10y, c12x, c12y, c01x, c01y, c21x, c21y;
    cf_ir_o2(br, k, fx, fy, &c11x, &c11y);
    cf_ir_o2(br, k, fx, fy + -1.0, &c10x, &c10y);
    cf_ir_o2(br, k, fx, fy + 1.0, &c12x, &c12y);
    cf_ir_o2(br, k, fx + -1.0, fy, &c01x, &c01y);
    cf_ir_o2(br, k, fx + 1.0, fy, &c21x, &c21y);
    double dx = py - c11y, dy = px - c11x, mx = dx * c11x, my = dy * c11y;
#define CF_IR_SIDE(cx, cy) ((my - dy * (cy)) - (mx - dx * (cx)))
    double ax, ay, ccx, ccy, ddx, ddy;
    if ((CF_IR_SIDE(c01x, c01y) < 0 && px < c11x) || (CF_IR_SIDE(c21x, c21y) > 0 && px > c11x)) {
        if (CF_IR_SIDE(c12x, c12y) > 0) ax = c12x, ay = c12y, ccx = c01x, ccy = c01y, ddx = -1, ddy = 1;
        else ax = c21x, ay = c21y, ccx = c12x, ccy = c12y, ddx = 1, ddy = 1;
    } else if (CF_IR_SIDE(c10x, c10y) > 0) {
        ax = c10x, ay = c10y, ccx = c21x, ccy = c21y, ddx = 1, ddy = -1;
    } else {
        ax = c01x, ay = c01y, ccx = c10x, ccy = c10y, ddx = -1, ddy = -1;
    }
#undef CF_IR_SIDE
    double dfx, dfy;
    cf_ir_o2(br, k, fx + ddx, fy + ddy, &dfx, &dfy);
    double Fx = ax, Fy = ay, Gx = ccx, Gy = ccy, Hx = dfx, Hy = dfy;
    double acx = ax - ccx, acy = ay - ccy, bdx = c11x - dfx, bdy = c11y - dfy;
    if (acx * acx + acy * acy < bdx * bdx + bdy * bdy) {
        double pax = px - ax, pay = py - ay;
        if (pax * acy - pay * acx > 0) Hx = c11x, Hy = c11y;
    } else {
        double pbx = px - c11x, pby = py - c11y;
        if (pbx * bdy - pby * bdx > 0) Fx = c11x, Fy = c11y;
        else Gx = c11x, Gy = c11y;
    }
    double v0x = Gx - Fx, v0y = Gy - Fy, v1x = Hx - Fx, v1y = Hy - Fy, v2x = px - Fx, v2y = py - Fy;
    double den = 1 / (v0x * v1y - v1x * v0y);
    double v = (v2x * v1y - v1x * v2y) * den, w = (v0x * v2y - v2x * v0y) * den, u = 1 - v - w;
    v = v * v * v, w = w * w * w, u = u * u * u;
    double s = 1 / (u + v + w);
    v *= s, w *= s, u *= s;
    return u * cf_ir_chash(br, k, 2, cf_floor(Fx), cf_floor(Fy), 0.0) + v * cf_ir_chash(br, k, 2, cf_floor(Gx), cf_floor(Gy), 0.0)
           + w * cf_ir_chash(br, k, 2, cf_floor(Hx), cf_floor(Hy), 0.0);
}
typedef struct cf_ir_v3 {
    double x, y, z;
} cf_ir_v3;
CF_INLINE cf_ir_v3 cf_ir_v(double x, double y, double z)
{
    cf_ir_v3 r;
    r.x = x, r.y = y, r.z = z;
    return r;
}
CF_INLINE cf_ir_v3 cf_ir_sub(cf_ir_v3 a, cf_ir_v3 b) { return cf_ir_v(a.x - b.x, a.y - b.y, a.z - b.z); }
CF_INLINE cf_ir_v3 cf_ir_cross(cf_ir_v3 a, cf_ir_v3 b)
{
    return cf_ir_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* dot3(a ∘ b) = a.x*b.x + a.y*b.y + a.z*b.z, left to right */
CF_INLINE double cf_ir_dotp(cf_ir_v3 a, cf_ir_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CF_INLINE cf_ir_v3 cf_ir_o3(int br, cf_i64 k, double cx, double cy, double cz)
{
    double h = cf_ir_chash(br, k, 3, cx, cy, cz);
    double th = h * CF_IR_PI * 2000;
    double ht = ((fmod((cf_floor(h * 1000) + 0.5) / 100, 1.0) - 0.5) * CF_IR_PI) / 2;
    double ly = cf_floor(h * 10 + 1) / 10;
    double st = cf_ir_sin(th), ct = cf_ir_cos(th), sh = cf_ir_sin(ht), ch = cf_ir_cos(ht);
    double ox = (st * ch) * ly + 0.5, oy = sh * ly + 0.5, oz = (ct * ch) * ly + 0.5;
    return cf_ir_v(cx + (ox * (0.2 * 2.0) + (0.5 - 0.2)), cy + (oy * (0.2 * 2.0) + (0.5 - 0.2)), cz + (oz * (0.2 * 2.0) + (0.5 - 0.2)));
}
/* the boundary test B of §3.9 (x, y of the points; z decides) */
CF_INLINE int cf_ir_cb(cf_ir_v3 p, cf_ir_v3 c00, cf_ir_v3 c10, cf_ir_v3 c20, cf_ir_v3 c01, cf_ir_v3 c11, cf_ir_v3 c21, cf_ir_v3 c02,
                       cf_ir_v3 c12, cf_ir_v3 c22)
{
    double dx = p.y - c11.y, dy = p.x - c11.x, mx = dx * c11.x, my = dy * c11.y;
#define CF_IR_SIDE(c) ((my - dy * (c).y) - (mx - dx * (c).x))
    cf_ir_v3 a, b, c, d;
    if ((CF_IR_SIDE(c01) < 0 && p.x < c11.x) || (CF_IR_SIDE(c21) > 0 && p.x >= c11.x)) {
        if (CF_IR_SIDE(c12) > 0) a = c01, b = c02, c = c12, d = c11;
        else a = c11, b = c12, c = c22, d = c21;
    } else if (CF_IR_SIDE(c10) > 0) {
        a = c10, b = c11, c = c21, d = c20;
    } else {
        a = c00, b = c01, c = c11, d = c10;
    }
#undef CF_IR_SIDE
    cf_ir_v3 f = a, g = c, h = d;
    if ((p.x - a.x) * (a.y - c.y) - (p.y - a.y) * (a.x - c.x) > 0) h = b;
    double v0x = g.x - f.x, v0y = g.y - f.y, v1x = h.x - f.x, v1y = h.y - f.y, v2x = p.x - f.x, v2y = p.y - f.y;
    double den = 1 / (v0x * v1y - v1x * v0y);
    double v = (v2x * v1y - v1x * v2y) * den, w = (v0x * v2y - v2x * v0y) * den, u = 1 - v - w;
    return p.z < u * f.z + v * g.z + w * h.z;
}
CF_INLINE cf_ir_v3 cf_ir_yzx(cf_ir_v3 v) { return cf_ir_v(v.y, v.z, v.x); }
CF_INLINE cf_ir_v3 cf_ir_xzy(cf_ir_v3 v) { return cf_ir_v(v.x, v.z, v.y); }
CF_INLINE double cf_ir_clover3(int br, cf_i64 k, double x, double y, double z)
{
    cf_ir_v3 p = cf_ir_v(x, y, z), C[27];
    double fx = cf_floor(x), fy = cf_floor(y), fz = cf_floor(z);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++) C[a * 9 + b * 3 + c] = cf_ir_o3(br, k, fx + (double)(a - 1), fy + (double)(b - 1), fz + (double)(c - 1));
#define CC(a, b, c) C[(a) * 9 + (b) * 3 + (c)]
#define YZX(a, b, c) cf_ir_yzx(CC(a, b, c))
#define XZY(a, b, c) cf_ir_xzy(CC(a, b, c))
    int bx = cf_ir_cb(cf_ir_yzx(p), YZX(1, 0, 0), YZX(1, 1, 0), YZX(1, 2, 0), YZX(1, 0, 1), YZX(1, 1, 1), YZX(1, 2, 1), YZX(1, 0, 2),
                      YZX(1, 1, 2), YZX(1, 2, 2));
    int by = cf_ir_cb(cf_ir_xzy(p), XZY(0, 1, 0), XZY(1, 1, 0), XZY(2, 1, 0), XZY(0, 1, 1), XZY(1, 1, 1), XZY(2, 1, 1), XZY(0, 1, 2),
                      XZY(1, 1, 2), XZY(2, 1, 2));
    int bz = cf_ir_cb(p, CC(0, 0, 1), CC(1, 0, 1), CC(2, 0, 1), CC(0, 1, 1), CC(1, 1, 1), CC(2, 1, 1), CC(0, 2, 1), CC(1, 2, 1), CC(2, 2, 1));
    int x0 = bx ? 0 : 1, y0 = by ? 0 : 1, z0 = bz ? 0 : 1;
    cf_ir_v3 ca = CC(x0, y0, z0), cb = CC(x0, y0, z0 + 1), cc = CC(x0, y0 + 1, z0), cd = CC(x0, y0 + 1, z0 + 1);
    cf_ir_v3 ce = CC(x0 + 1, y0, z0), cf = CC(x0 + 1, y0, z0 + 1), cg = CC(x0 + 1, y0 + 1, z0), ch = CC(x0 + 1, y0 + 1, z0 + 1);
#undef XZY
#undef YZX
#undef CC
    cf_ir_v3 ah = cf_ir_sub(ca, ch), pa = cf_ir_sub(p, ca);
#define PL(q) cf_ir_dotp(cf_ir_cross(ah, cf_ir_sub((q), ch)), pa)
    double pb = PL(cb), pc = PL(cc), pd = PL(cd), pe = PL(ce), pf = PL(cf), pg = PL(cg);
#undef PL
    cf_ir_v3 i = ca, j = ch, kk, l;
    if (pb > 0 && pd <= 0) kk = cb, l = cd;
    else if (pd > 0 && pc <= 0) kk = cd, l = cc;
    else if (pc > 0 && pg <= 0) kk = cc, l = cg;
    else if (pg > 0 && pe <= 0) kk = cg, l = ce;
    else if (pe > 0 && pf <= 0) kk = ce, l = cf;
    else kk = cf, l = cb;
    cf_ir_v3 AP = cf_ir_sub(p, i), BP = cf_ir_sub(p, j), AB = cf_ir_sub(j, i), AC = cf_ir_sub(kk, i), AD = cf_ir_sub(l, i);
    cf_ir_v3 BC = cf_ir_sub(kk, j), BD = cf_ir_sub(l, j);
    double va = cf_ir_dotp(BP, cf_ir_cross(BD, BC)), vb = cf_ir_dotp(AP, cf_ir_cross(AC, AD));
    double vc = cf_ir_dotp(AP, cf_ir_cross(AD, AB)), vd = cf_ir_dotp(AP, cf_ir_cross(AB, AC));
    double r = 1 / cf_ir_dotp(AB, cf_ir_cross(AC, AD));
    double v = va * r, w = vb * r, t = vc * r, u = vd * r;
    double Fu = u * u * u * (1 - v * w * t), Fv = v * v * v * (1 - u * w * t), Fw = w * w * w * (1 - v * u * t), Ft = t * t * t * (1 - v * w * u);
    double s = Fu + Fv + Fw + Ft;
    Fu /= s, Fv /= s, Fw /= s, Ft /= s;
    return Fv * cf_ir_chash(br, k, 3, cf_floor(i.x), cf_floor(i.y), cf_floor(i.z)) + Fw * cf_ir_chash(br, k, 3, cf_floor(j.x), cf_floor(j.y), cf_floor(j.z))
           + Ft * cf_ir_chash(br, k, 3, cf_floor(kk.x), cf_floor(kk.y), cf_floor(kk.z)) + Fu * cf_ir_chash(br, k, 3, cf_floor(l.x), cf_floor(l.y), cf_floor(l.z));
}

/* ------------------------------------------------------------------ interpolated NoiseTypes (§4.3, §8) */
/* Starcast directions (IRIS.md Appendix C): (cos, sin) as binary32 bit patterns,
 * tables 3, 6, 9, 12 one after the other (offsets 0, 6, 18, 36) */
CF_CONST cf_u32 cf_ir_star_dirs[60] = {
    0x3f800000u, 0x00000000u, 0xbf000000u, 0x3f5db3d7u, 0xbf000000u, 0xbf5db3d7u, 0x3f800000u, 0x00000000u,
    0x3f000000u, 0x3f5db3d7u, 0xbf000000u, 0x3f5db3d7u, 0xbf800000u, 0x250d3132u, 0xbf000000u, 0xbf5db3d7u,
    0x3f000000u, 0xbf5db3d7u, 0x3f800000u, 0x00000000u, 0x3f441b7du, 0x3f248dbbu, 0x3e31d0d4u, 0x3f7c1c5cu,
    0xbf000000u, 0x3f5db3d7u, 0xbf708fb2u, 0x3eaf1d44u, 0xbf708fb2u, 0xbeaf1d44u, 0xbf000000u, 0xbf5db3d7u,
    0x3e31d0d4u, 0xbf7c1c5cu, 0x3f441b7du, 0xbf248dbbu, 0x3f800000u, 0x00000000u, 0x3f5db3d7u, 0x3f000000u,
    0x3f000000u, 0x3f5db3d7u, 0x248d3132u, 0x3f800000u, 0xbf000000u, 0x3f5db3d7u, 0xbf5db3d7u, 0x3f000000u,
    0xbf800000u, 0x250d3132u, 0xbf5db3d7u, 0xbf000000u, 0xbf000000u, 0xbf5db3d7u, 0xa553c9cau, 0xbf800000u,
    0x3f000000u, 0xbf5db3d7u, 0x3f5db3d7u, 0xbf000000u,
};

/* FN32 2-D pieces of the providers: val2_32, hash2_32, cellvalue2_32, white2_32 */
CF_INLINE float cf_ir_val2_32(cf_i32 s, cf_i32 x, cf_i32 y)
{
    cf_u32 n = (cf_u32)s ^ (1619u * (cf_u32)x) ^ (31337u * (cf_u32)y);
    cf_u32 v = n * n * n * 60493u;
    return (float)(cf_i32)v / 2147483648.0f;
}
CF_INLINE cf_u32 cf_ir_hash2_32(cf_i32 s, cf_i32 x, cf_i32 y)
{
    cf_u32 h = (cf_u32)s;
    h ^= 1619u * (cf_u32)x;
    h ^= 31337u * (cf_u32)y;
    h = h * h * h * 60493u;
    return cf_ir_sar13_32(h) ^ h;
}
CF_INLINE float cf_ir_cellvalue2_32(cf_i32 s, float x, float y)
{
    cf_i32 xr = cf_ir_fround32(x), yr = cf_ir_fround32(y);
    float best = 999999.0f;
    cf_i32 xc = 0, yc = 0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++) {
            /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
            cf_i32 xi = (cf_i32)((cf_u32)xr + (cf_u32)(cf_i32)ka), yi = (cf_i32)((cf_u32)yr + (cf_u32)(cf_i32)kb);
            int c = (int)(cf_ir_hash2_32(s, xi, yi) & 255u) * 2;
            float vx = ((float)xi - x) + cf_ir_f32(cf_iris_cell2[c]);
            float vy = ((float)yi - y) + cf_ir_f32(cf_iris_cell2[c + 1]);
            float nd = (cf_fabsf(vx) + cf_fabsf(vy)) + (vx * vx + vy * vy);
            if (nd < best) best = nd, xc = xi, yc = yi;
        }
    return cf_ir_val2_32(0, xc, yc);
}

/* interpolated types: t = CF_IG_INTERP + 16 * base + method */
#define CF_IG_INTERP 32
enum { CF_IR_BASE_CELLULAR = 0, CF_IR_BASE_WHITE = 1, CF_IR_BASE_CLOVER = 2 };
enum {
    CF_IM_BILINEAR = 0, CF_IM_BICUBIC = 1, CF_IM_HERMITE = 2,
    CF_IM_STARCAST = 3,          /* + 0..3: 3, 6, 9, 12 directions */
    CF_IM_BILINEAR_STARCAST = 7, /* + 0..3 */
    CF_IM_HERMITE_STARCAST = 11  /* + 0..3 */
};

/* the provider: the base type's 2-argument call (unification: offset-wrapped) */
CF_INLINE double cf_ir_prov(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, double a, double b)
{
    if (br == CF_IR_UNIFICATION) a = a + ox, b = b + oz;
    if (base == CF_IR_BASE_CLOVER) return cf_ir_clover2(br, kc, a, b);
    if (base == CF_IR_BASE_WHITE)
        return (double)cf_ir_val2_32(s32, cf_ir_whitebits(fmod(a, 8192.0) * 1024), cf_ir_whitebits(fmod(b, 8192.0) * 1024)) / 2.0 + 0.5;
    return (double)cf_ir_cellvalue2_32(s32, (float)a * 0.01f, (float)b * 0.01f) / 2.0 + 0.5;
}
#define CF_IR_P(a, b) cf_ir_prov(base, br, s32, ox, oz, kc, (double)(a), (double)(b))

/* Math.round(double) -> long (ties toward +inf, exact) */
CF_INLINE cf_i64 cf_ir_jround(double x)
{
    double f = cf_floor(x);
    cf_i64 r = cf_jtolong(f);
    if (x - f >= 0.5) r += 1;
    return r;
}
/* grid coordinate k (-1..2) around the i32 c with radius r (§8.1) */
CF_INLINE cf_i32 cf_ir_grid(cf_i32 c, double r, int k)
{
    cf_i32 f = cf_jtoint(cf_floor((double)c / r));
    return (cf_i32)(cf_u32)(cf_u64)cf_ir_jround((double)(cf_i32)((cf_u32)f + (cf_u32)k) * r);
}
CF_INLINE double cf_ir_bilinear(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, cf_i32 x, cf_i32 z, double r)
{
    cf_i32 x0 = cf_ir_grid(x, r, 0), x1 = cf_ir_grid(x, r, 1), z0 = cf_ir_grid(z, r, 0), z1 = cf_ir_grid(z, r, 1);
    double tx = 0 + 1 * (((double)x - (double)x0) / ((double)x1 - (double)x0));
    double tz = 0 + 1 * (((double)z - (double)z0) / ((double)z1 - (double)z0));
    double p00 = CF_IR_P(x0, z0), p10 = CF_IR_P(x1, z0), p01 = CF_IR_P(x0, z1), p11 = CF_IR_P(x1, z1);
    return cf_ir_lerp(cf_ir_lerp(p00, p10, tx), cf_ir_lerp(p01, p11, tx), tz);
}
CF_INLINE double cf_ir_herm(double p0, double p1, double p2, double p3, double mu, double tn, double bs)
{
    double mu2 = mu * mu, mu3 = mu2 * mu;
    double m0 = (p1 - p0) * (1 + bs) * (1 - tn) / 2;
    m0 += (p2 - p1) * (1 - bs) * (1 - tn) / 2;
    double m1 = (p2 - p1) * (1 + bs) * (1 - tn) / 2;
    m1 += (p3 - p2) * (1 - bs) * (1 - tn) / 2;
    double a0 = 2 * mu3 - 3 * mu2 + 1, a1 = mu3 - 2 * mu2 + mu, a2 = mu3 - mu2, a3 = -2 * mu3 + 3 * mu2;
    return a0 * p1 + a1 * m0 + a2 * m1 + a3 * p2;
}
CF_INLINE double cf_ir_bihermite(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, cf_i32 x, cf_i32 z, double r, double tn,
                                 double bs)
{
    cf_i32 gx[4], gz[4];
    for (int k = 0; k < 4; k++) gx[k] = cf_ir_grid(x, r, k - 1), gz[k] = cf_ir_grid(z, r, k - 1);
    double tx = 0 + 1 * (((double)x - (double)gx[1]) / ((double)gx[2] - (double)gx[1]));
    double tz = 0 + 1 * (((double)z - (double)gz[1]) / ((double)gz[2] - (double)gz[1]));
    double col[4];
    for (int i = 0; i < 4; i++)
        col[i] = cf_ir_herm(CF_IR_P(gx[i], gz[0]), CF_IR_P(gx[i], gz[1]), CF_IR_P(gx[i], gz[2]), CF_IR_P(gx[i], gz[3]), tz, tn, bs);
    return cf_ir_herm(col[0], col[1], col[2], col[3], tx, tn, bs);
}
/* starcast (§8.4), binary32; q: 0 the provider, 1 bilinear, 2 bihermite(0, 0) at (d2i(a), d2i(b)) */
CF_INLINE double cf_ir_star(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, int nd, int q, cf_i32 x, cf_i32 z, double r)
{
    const int off[4] = {0, 6, 18, 36};
    const cf_u32 inv[4] = {0x3eaaaaabu, 0x3e2aaaabu, 0x3de38e39u, 0x3daaaaabu};
    int n = 3 * (nd + 1);
    float X = (float)x, Z = (float)z, R = (float)r, acc = 0.0f;
    for (int i = 0; i < n; i++) {
        float c = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i]), s = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i + 1]);
        float cx = X + ((R * c) - (R * s));
        float cz = Z + ((R * s) + (R * c));
        double a = (double)cx, b = (double)cz, v;
        if (q == 0) v = CF_IR_P(a, b);
        else if (q == 1) v = cf_ir_bilinear(base, br, s32, ox, oz, kc, cf_jtoint(a), cf_jtoint(b), r);
        else v = cf_ir_bihermite(base, br, s32, ox, oz, kc, cf_jtoint(a), cf_jtoint(b), r, 0.0, 0.0);
        acc = i == 0 ? (float)v : acc + (float)v;
    }
    return (double)(acc * cf_ir_f32(inv[nd]));
}
/* the interpolated generator's n3 (after the unification offset): the grid
 * point is (d2i(x), d2i(z)), or (d2i(x), d2i(y)) when z == 0 */
CF_INLINE double cf_ir_interp3(int t, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, double x, double y, double z)
{
    int base = (t - CF_IG_INTERP) / 16, m = (t - CF_IG_INTERP) % 16;
    cf_i32 a = cf_jtoint(x), b = cf_jtoint(z == 0 ? y : z);
    const double r = 32.0;
    if (m == CF_IM_BILINEAR || m == CF_IM_BICUBIC) return cf_ir_bilinear(base, br, s32, ox, oz, kc, a, b, r);
    if (m == CF_IM_HERMITE) return cf_ir_bihermite(base, br, s32, ox, oz, kc, a, b, r, 0.5, 0.0);
    if (m < CF_IM_BILINEAR_STARCAST) return cf_ir_star(base, br, s32, ox, oz, kc, m - CF_IM_STARCAST, 0, a, b, r);
    if (m < CF_IM_HERMITE_STARCAST) return cf_ir_star(base, br, s32, ox, oz, kc, m - CF_IM_BILINEAR_STARCAST, 1, a, b, r);
    return cf_ir_star(base, br, s32, ox, oz, kc, m - CF_IM_HERMITE_STARCAST, 2, a, b, r);
}

/* ------------------------------------------------------------------ hexagon family [unification] (§3.3, §3.10, §3.11) */
/* simplex 2-D with unification's constants (the heat fields) */
CF_CONST cf_i32 cf_ir_grad2[16] = {-1, -1, 1, -1, -1, 1, 1, 1, 0, -1, -1, 0, 0, 1, 1, 0};
CF_INLINE cf_u64 cf_ir_hash2(cf_i64 s, cf_i64 x, cf_i64 y)
{
    cf_u64 h = (cf_u64)s;
    h ^= CF_IR_PX * (cf_u64)x;
    h ^= CF_IR_PY * (cf_u64)y;
    h = h * h * h * 60493UL;
    return cf_ir_sar13(h) ^ h;
}
CF_INLINE double cf_ir_s2corner(cf_i64 s, cf_i64 i, cf_i64 j, double x, double y)
{
    double t = 0.5 - x * x - y * y;
    if (t < 0) return 0.0;
    t = t * t;
    int g = (int)(cf_ir_hash2(s, i, j) & 7UL) * 2;
    return t * t * (x * (double)cf_ir_grad2[g] + y * (double)cf_ir_grad2[g + 1]);
}
CF_INLINE double cf_ir_simplex2u(cf_i64 s, double x, double y)
{
    const double F2 = 0x1.76cf5d0b09954p-2, G2 = 0x1.b0cb174df99c8p-3, C2 = 0x1.b0cb174df99c8p-2;
    double t = (x + y) * F2;
    cf_i64 i = cf_ir_ffloor(x + t), j = cf_ir_ffloor(y + t);
    t = (double)(cf_i64)((cf_u64)i + (cf_u64)j) * G2;
    double x0 = x - ((double)i - t), y0 = y - ((double)j - t);
    int i1 = x0 > y0 ? 1 : 0, j1 = x0 > y0 ? 0 : 1;
    double x1 = x0 - (double)i1 + G2, y1 = y0 - (double)j1 + G2;
    double x2 = x0 - 1 + C2, y2 = y0 - 1 + C2;
    double n0 = cf_ir_s2corner(s, i, j, x0, y0);
    double n1 = cf_ir_s2corner(s, cf_ir_ladd(i, i1), cf_ir_ladd(j, j1), x1, y1);
    double n2 = cf_ir_s2corner(s, cf_ir_ladd(i, 1), cf_ir_ladd(j, 1), x2, y2);
    return 50 * (n0 + n1 + n2);
}
/* a heat field: a SIMPLEX generator's 2-argument call (kernel seed s) */
CF_INLINE double cf_ir_hs(cf_i64 s, double a, double b) { return cf_ir_half(cf_ir_simplex2u(s, a * 0.01, b * 0.01)); }

CF_INLINE double cf_ir_unit(cf_u64 v) { return (double)(cf_i64)(v & 0x7FFFFFFFFFFFFFFFUL) / 9223372036854775808.0; }
#define CF_IR_R33 0x1.279a74590331cp-1
#define CF_IR_SQ3 0x1.bb67ae8584caap+0
#define CF_IR_T23 (2.0 / 3.0)
#define CF_IR_O13 (1.0 / 3.0)
CF_INLINE double cf_ir_fabsd(double v) { return v < 0 ? -v : v; }
/* the axial cell (rx, rz) of axial coordinates (q, r) */
CF_INLINE void cf_ir_round_axial(double q, double r, cf_i64 *ra, cf_i64 *rb)
{
    double cx = q, cz = r, cy = -cx - cz;
    cf_i64 rx = cf_ir_jround(cx), ry = cf_ir_jround(cy), rz = cf_ir_jround(cz);
    double ex = cf_fabs((double)rx - cx), ey = cf_fabs((double)ry - cy), ez = cf_fabs((double)rz - cz);
    /* the component with the largest rounding error is rebuilt from the other two
     * (ry, when it is that one, is not returned) */
    if (ex > ey && ex > ez) rx = (cf_i64)(0UL - (cf_u64)ry - (cf_u64)rz);
    else if (!(ey > ez)) rz = (cf_i64)(0UL - (cf_u64)rx - (cf_u64)ry);
    *ra = rx, *rb = rz;
}
CF_INLINE double cf_ir_hexdist(double q, double r, double cq, double cr)
{
    double dq = q - cq, dr = r - cr, dy = -dq - dr;
    double a = cf_fabs(dq), b = cf_fabs(dr), c = cf_fabs(dy);
    double m = b >= c ? b : c;
    return a >= m ? a : m;
}
/* JAMES (random = 0) / RANDOM_SIZE (random = 1) helpers */
CF_INLINE double cf_ir_hrnd(int random, cf_u64 nh, cf_i64 salt)
{
    return cf_ir_unit(cf_ir_mix(nh ^ (CF_IR_GX * (cf_u64)(salt + 1)) ^ (CF_IR_GZ * (cf_u64)(salt + (random ? 31 : 7)))));
}
CF_INLINE cf_u64 cf_ir_hnext(int random, cf_u64 nh, cf_i64 ci, cf_i64 lv)
{
    if (random) return cf_ir_mix(nh ^ (CF_IR_GZ * (cf_u64)(ci + 1)) ^ (CF_IR_GX * (cf_u64)(lv + 1)));
    return cf_ir_mix(nh ^ (CF_IR_GX * (cf_u64)(ci + 11)) ^ (CF_IR_GZ * (cf_u64)(lv + 1)));
}
CF_INLINE double cf_ir_hheat(int random, cf_i64 hs, double cq, double cr, cf_u64 nh, int lv)
{
    double wx = CF_IR_SQ3 * (cq + cr * 0.5), wz = 1.5 * cr;
    if (random) {
        double sc = 0.24 * (1 + (double)lv * 0.2);
        return cf_ir_clip01(cf_ir_hs(hs, wx * sc, wz * sc) * 0.74 + cf_ir_hrnd(1, nh, 11 + lv) * 0.26);
    }
    double sc = 0.31 * (1 + (double)lv * 0.24);
    return cf_ir_clip01(cf_ir_hs(hs, wx * sc, wz * sc) * 0.82 + cf_ir_hrnd(0, nh, 31 + lv) * 0.18);
}
CF_INLINE double cf_ir_hexrec(int random, cf_i64 s, cf_i64 hs, cf_i64 hs2, double x, double z)
{
    const int dq[7] = {0, 1, 1, 0, -1, -1, 0}, dr[7] = {0, 0, -1, -1, 0, 1, 1};
    double qw = (CF_IR_R33 * x) - (z / 3.0), rw = CF_IR_T23 * z;
    cf_i64 a, b;
    cf_ir_round_axial(qw, rw, &a, &b);
    double cq = (double)a, cr = (double)b, rad = 0.5;
    double lq = (qw - cq) / rad, lr = (rw - cr) / rad;
    cf_u64 nh = cf_ir_mix((cf_u64)s ^ ((cf_u64)a * CF_IR_GX) ^ ((cf_u64)b * CF_IR_GZ));
    double heat = cf_ir_hheat(random, hs, cq, cr, nh, 0);
    int depth = random ? 8 : 7;
    for (int lv = 0; lv < depth; lv++) {
        if (random) {
            if (lv >= 7) return heat;
            double wx = CF_IR_SQ3 * (cq + cr * 0.5), wz = 1.5 * cr, sc = 0.36 * (1 + (double)lv * 0.31);
            double score = cf_ir_clip01(cf_ir_hs(hs2, wx * sc, wz * sc) * 0.68 + cf_ir_hrnd(1, nh, 71 + lv) * 0.32);
            if (!(score > 0.22 + (double)lv * 0.11)) return heat;
        }
        int ci = -1;
        double bd = 1.0 / 0.0;
        for (int idx = 0; idx < 7; idx++) {
            double d = cf_ir_hexdist(lq, lr, (double)dq[idx] * CF_IR_T23, (double)dr[idx] * CF_IR_T23) / CF_IR_O13;
            if (d <= 1 && d < bd) bd = d, ci = idx;
        }
        if (ci < 0) return heat;
        double ccq = (double)dq[ci] * CF_IR_T23, ccr = (double)dr[ci] * CF_IR_T23;
        cq += ccq * rad;
        cr += ccr * rad;
        rad *= CF_IR_O13;
        lq = (lq - ccq) / CF_IR_O13;
        lr = (lr - ccr) / CF_IR_O13;
        nh = cf_ir_hnext(random, nh, ci, lv);
        heat = cf_ir_hheat(random, hs, cq, cr, nh, lv + 1);
        if (!random) {
            if (lv >= 6) return heat;
            double gate = 0.58;
            if (ci != 0) {
                cf_i32 rot = cf_jtoint(cf_floor(cf_ir_hrnd(0, nh, 3) * 6));
                rot = rot < 0 ? 0 : rot > 5 ? 5 : rot;
                int par = cf_ir_hrnd(0, nh, 5) >= 0.5 ? 1 : 0;
                int ring = ((ci - 1 - rot) % 6 + 6) % 6;
                gate = ring % 2 == par ? 0.26 : 0.79;
            }
            if (!(cf_ir_hrnd(0, nh, 97 + lv) <= gate)) return heat;
        }
    }
    return heat;
}
/* one 2-argument sample of a hexagon-family type */
CF_INLINE double cf_ir_hex2(int t, cf_i64 s, cf_i64 h1, cf_i64 h2, double x, double z)
{
    if (t == CF_IG_HEXAGON || t == CF_IG_HEX_SIMPLEX) {
        cf_i64 a, b;
        cf_ir_round_axial((CF_IR_R33 * x) - (z / 3.0), CF_IR_T23 * z, &a, &b);
        if (t == CF_IG_HEX_SIMPLEX) {
            double wx = CF_IR_SQ3 * ((double)a + (double)b * 0.5), wz = 1.5 * (double)b;
            return cf_ir_clip01(cf_ir_hs(h1, wx * 2.7, wz * 2.7) * 1 / 1);
        }
        cf_u64 h = (cf_u64)s ^ cf_ir_mix((cf_u64)a + CF_IR_GX);
        h ^= cf_ir_mix((cf_u64)b + CF_IR_GZ);
        return cf_ir_unit(cf_ir_mix(h));
    }
    if (t == CF_IG_SIERPINSKI) {
        double sx = (x * 0.18) + ((z * 0.18) * 0.5), sz = (z * 0.18) * 0.8660254037844386;
        cf_i64 ix = cf_jtolong(cf_floor(cf_fabs(sx))), iz = cf_jtolong(cf_floor(cf_fabs(sz)));
        double heat = cf_ir_clip01(cf_ir_hs(h1, x * 0.33, z * 0.33) * 1 / 1);
        return (ix & iz) == 0 ? cf_ir_clip01(heat * 0.65 + 0.35) : cf_ir_clip01(heat * 0.12);
    }
    return cf_ir_hexrec(t == CF_IG_HEX_RANDOM, s, h1, h2, x, z);
}
/* the 3-argument rule of the hexagon family */
CF_INLINE double cf_ir_hex3(int t, cf_i64 s, cf_i64 h1, cf_i64 h2, double x, double y, double z)
{
    if (z == 0) return cf_ir_hex2(t, s, h1, h2, x, y);
    return (cf_ir_hex2(t, s, h1, h2, x, z) + cf_ir_hex2(t, s, h1, h2, y, x) + cf_ir_hex2(t, s, h1, h2, z, y)) / 3;
}

