/* eval64.c - the CPU reference evaluator of the double dialects (libnoise).
 *
 * Input: a seeded world of a PREC_F64 program and a double position. Output:
 * the node's double value, computed as libnoise's GetValue does: the module
 * math is kernels/cf_libnoise.h (the same text the OpenCL programs compile);
 * transformer modules (ScalePoint, TranslatePoint, RotatePoint, Displace,
 * Turbulence, terrain) evaluate their sources at other positions. A context
 * memoizes the last position of every shared node and of Cache (values never
 * change: nodes are pure), so a module used twice at a point is computed once.
 * One evaluator per NODE64 kind, named by the node table (eval64_<KIND>).
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_hytale.h"
#include "kernels/cf_iris.h"
#include "kernels/cf_libnoise.h"
#include "kernels/cf_mc121.h"
#include "cpu/cpu.h"

#define U __attribute__((unused))
#define EVAL64(K) static double eval64_##K(U ev64_ctx *c, U const cf_node *n, U double x, U double y, U double z)
static double ev64_node(ev64_ctx *c, int id, double x, double y, double z);

/* The value column of the node tables (host/ir/nodes.def): a row's V64(expression) is its
 * evaluator here and its OpenCL text in emit_f64.c, in these names:
 *   IN(k)              input k at (x, y, z)       AT(k, X, Y, Z)  input k at (X, Y, Z)
 *   D(k), I(k), F(k)   the node's d[k], i[k], f[k] WS              the world seed's low 32 bits
 *   HSEED              a Hytale node's seed (i[0], the label's hash, plus WS)
 *   SHARP              i[5]: the SharpNoise dialect (CF_LN_SHARP, kernels/cf_libnoise.h)
 *   HYC, LNP, NDA      the node's da (a Hytale or a libnoise table) and its length
 *   TAB, REC           a 1.21 node's seed tables and its record (kernels/cf_mc121.h)
 * x, y, z are the position; every other name is kernels/ C, the same on both sides.
 * B64(statements) is the same for a value that needs statements (a local, a lazy input): a
 * function body ending in return, statements of kernel C with the names above. */
#define IN(k) ev64_node(c, n->in[k], x, y, z)
#define AT(k, X, Y, Z) ev64_node(c, n->in[k], X, Y, Z)
#define D(k) (n->d[k])
#define I(k) (n->i[k])
#define F(k) (n->f[k])
#define WS (c->w->lseed)
#define HSEED cf_hy_wadd(WS, n->i[0])
#define SHARP (n->i[5] ? CF_LN_SHARP : 0)
#define HYC (n->da)
#define LNP (n->da)
#define NDA (n->nda)
#define TAB (c->w->tab)
#define REC (cf21_record(TAB, (int)(n - c->w->prog->nodes)))
/* a V64 or B64 row's evaluator; an OWN64 row's is written below */
#define V64(...) { return __VA_ARGS__; }
#define B64(...) { __VA_ARGS__ }
#define OWN64 ;
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary, value) EVAL64(K) value
#include "ir/nodes.def"
#undef NODE64
#undef NODE
#undef OWN64
#undef B64
#undef V64

/* a module's seed plus the world's (libnoise's int arithmetic, wrapping) */
static cf_i32 seed_of(const ev64_ctx *c, int s) { return cf_ln_seed(c->w->lseed, s); }

EVAL64(LN_BILLOW) { return cf_ln_fbm(1 | SHARP, x, y, z, n->d[0], n->d[1], n->d[2], n->i[0], seed_of(c, n->i[1]), n->i[2]); }
EVAL64(LN_CLAMP)
{
    double v = IN(0);
    return v < n->d[0] ? n->d[0] : v > n->d[1] ? n->d[1] : v;
}
EVAL64(LN_CURVE) { return cf_ln_curve(IN(0), n->da, n->nda / 2); }
EVAL64(LN_ADD)
{
    double a = IN(0);
    return a + IN(1);
}
EVAL64(LN_MAX)
{
    double a = IN(0), b = IN(1);
    return a > b ? a : b;
}
EVAL64(LN_MIN)
{
    double a = IN(0), b = IN(1);
    return a < b ? a : b;
}
EVAL64(LN_MULTIPLY)
{
    double a = IN(0);
    return a * IN(1);
}
EVAL64(LN_POWER)
{
    double a = IN(0);
    return cf_ln_pow(a, IN(1));
}
EVAL64(LN_BLEND)
{
    double a = IN(0), b = IN(1);
    return cf_ln_lerp(a, b, (IN(2) + 1.0) / 2.0);
}
EVAL64(LN_SELECT)
{
    double alpha;
    switch (cf_ln_select(IN(2), n->d[0], n->d[1], n->d[2], &alpha)) {
    case 0: return IN(0);
    case 1: return IN(1);
    case 2: {
        double a = IN(0);
        return cf_ln_lerp(a, IN(1), alpha);
    }
    default: {
        double b = IN(1);
        return cf_ln_lerp(b, IN(0), alpha);
    }
    }
}
EVAL64(LN_DISPLACE)
{
    double dx = x + IN(1), dy = y + IN(2), dz = z + IN(3);
    return ev64_node(c, n->in[0], dx, dy, dz);
}
EVAL64(LN_ROTATEPOINT)
{
    const double *m = n->da;
    double nx = (m[0] * x) + (m[1] * y) + (m[2] * z);
    double ny = (m[3] * x) + (m[4] * y) + (m[5] * z);
    double nz = (m[6] * x) + (m[7] * y) + (m[8] * z);
    return ev64_node(c, n->in[0], nx, ny, nz);
}
EVAL64(LN_TURBULENCE)
{
    cf_i32 s = seed_of(c, n->i[1]);
    double f = n->d[0], pw = n->d[1];
    int r = n->i[0];
    double dx = x + (cf_ln_fbm(SHARP, x + CF_LN_TURB_X0, y + CF_LN_TURB_Y0, z + CF_LN_TURB_Z0, f, 2.0, 0.5, r, s, CF_LN_STD) * pw);
    double dy = y + (cf_ln_fbm(SHARP, x + CF_LN_TURB_X1, y + CF_LN_TURB_Y1, z + CF_LN_TURB_Z1, f, 2.0, 0.5, r, cf_ln_seed(s, 1), CF_LN_STD) * pw);
    double dz = z + (cf_ln_fbm(SHARP, x + CF_LN_TURB_X2, y + CF_LN_TURB_Y2, z + CF_LN_TURB_Z2, f, 2.0, 0.5, r, cf_ln_seed(s, 2), CF_LN_STD) * pw);
    return ev64_node(c, n->in[0], dx, dy, dz);
}
/* Iris CNG (IRIS.md §5.2): fracture displacement of the unscaled position,
 * times the effective scale, the NoiseType's n3, then cf_ir_post. 2-D nodes
 * read Iris's (x, z) from the position's x and z; their 2-D children are
 * evaluated at (a, 0, b). Seeds: per world, w->tab (the front-end's bind_seed: 6 x i64 per node). */
#define IRIS2(k, a, b) ev64_node(c, n->in[k], (a), 0.0, (b))
EVAL64(IRIS_CNG)
{
    cf_i64 sd[6];
    memcpy(sd, c->w->tab + 16 + 48 * (size_t)(n - c->w->prog->nodes), sizeof sd);
    int t = n->i[0], oct = n->i[1], br = n->i[2];
    double es = n->d[0], fs = n->d[2], v;
#define GEN(a, b, cc) cf_ir_gen3(t, br, oct, sd[0], (cf_i32)sd[1], (double)sd[2], (double)sd[3], sd[4], sd[5], (a), (b), (cc))
    if (n->i[3] == 2) {
        if (n->nin == 0) v = GEN(x * es, z * es, 0.0);
        else if (br == CF_IR_UNIFICATION || n->i[4]) {
            double fx = x + (IRIS2(0, x, z) - 0.5) * fs;
            double fz = z + (IRIS2(0, z, x) - 0.5) * fs;
            v = GEN(fx * es, fz * es, 0.0);
        } else {
            v = cf_ir_frac_m(2, IRIS2(0, x, z) * fs, x, y, z, es, t, br, oct, sd[0], (cf_i32)sd[1], (double)sd[2], (double)sd[3], sd[4], sd[5]);
        }
    } else {
        if (n->nin == 0) v = GEN(x * es, y * es, z * es);
        else if (br == CF_IR_UNIFICATION || n->i[4]) {
            double fx = x + (ev64_node(c, n->in[0], x, y, z) - 0.5) * fs;
            double fy = y + (IRIS2(n->nin - 1, y, x) - 0.5) * fs;
            double fz = z + (ev64_node(c, n->in[0], z, x, y) - 0.5) * fs;
            v = GEN(fx * es, fy * es, fz * es);
        } else {
            v = cf_ir_frac_m(3, IN(0) * fs, x, y, z, es, t, br, oct, sd[0], (cf_i32)sd[1], (double)sd[2], (double)sd[3], sd[4], sd[5]);
        }
    }
#undef GEN
    return cf_ir_post(v, n->d[3], n->d[1]);
}
EVAL64(IRIS_ROWS) { return ev64_node(c, n->in[cf_ir_row(x, y, n->nin)], x, y, z); }
/* the JSON layers (host/ir/nodes_iris.def): the steps are kernels/cf_iris.h's, the sources sampled here */
EVAL64(IRIS_CELLZ)
{
    double es = n->d[0], a = x * es, b = n->i[3] == 2 ? z * es + 0.0 : y * es + z * es, px, pz;
    cf_i64 s32;
    memcpy(&s32, c->w->tab + 16 + 48 * (size_t)(n - c->w->prog->nodes) + 8, sizeof s32);
    cf_ir_cellz_at((cf_i32)s32, (float)n->d[1], a, b, &px, &pz);
    return cf_ir_cellz_value(IRIS2(0, px, pz));
}
EVAL64(IRIS_LAYER)
{
    const double *d = n->d;
    if (!n->i[1]) return d[3];
    double lx = x, lz = z;
    for (int k = 1; k < n->nin; k++) {
        lx = cf_ir_layer_frac(n->i[2], 0, lx, IRIS2(k, x, z), n->da[k], d[1]);
        lz = cf_ir_layer_frac(n->i[2], 1, lz, IRIS2(k, z, x), n->da[k], d[1]);
    }
    double v = IRIS2(0, lx / d[0] + d[2], lz / d[0] + d[4]);
    return cf_ir_layer(n->i[2], n->i[0], v, d[1], n->da[0], d[3]);
}
EVAL64(IRIS_GEN)
{
    int nl = n->i[1];
    if (nl == 0) return 0.0;
    double px = (x + n->d[2]) / n->d[0], pz = (z + n->d[3]) / n->d[0], h, v;
    if (n->i[0]) {
        h = 1;
        for (int k = 0; k < nl; k++) h *= IRIS2(k, px, pz);
        v = h * n->d[1];
    } else {
        h = 0;
        for (int k = 0; k < nl; k++) h += IRIS2(k, px, pz);
        v = (h / n->d[4]) * n->d[1];
    }
    if (v != v) v = 0;
    if (n->i[2]) v = cf_ir_cliff(v, n->da[0], n->da[1], IRIS2(nl, px, pz));
    if (n->i[3] && IRIS2(n->nin - 1, x / n->da[2], z / n->da[2]) > n->da[4]) v = v * n->da[3];
    return v;
}
EVAL64(IRIS_CELLGEN)
{
    cf_i64 sc;
    memcpy(&sc, c->w->tab + 16 + 48 * (size_t)(n - c->w->prog->nodes), sizeof sc);
    return cf_ir_cellgen(sc, n->d[0], x, z, IRIS2(0, x, z), IRIS2(0, z, x));
}
EVAL64(IRIS_INTERP)
{
    double v[CF_IR_MAXPTS], r = n->d[0];
    int m = n->i[0], np = cf_ir_inpts(m);
    cf_i32 xi = cf_ir_l2i_round(x), zi = cf_ir_l2i_round(z);
    for (int k = 0; k < np; k++) {
        double a, b;
        cf_ir_ipt(m, xi, zi, r, k, &a, &b);
        v[k] = IRIS2(0, a, b);
    }
    return cf_ir_icomb(m, xi, zi, r, v);
}
/* Iris expressions and image maps (frontend/iris, expressions.md): a CNG around a
 * generator sub-graph (in[0], sampled at the generator's 3 arguments), the
 * expression operations, style-backed functions and image maps */
EVAL64(IRIS_SCNG)
{
    int br = n->i[2], nf = n->nin - 1;
    double es = n->d[0], fs = n->d[2], a, b, cc;
    if (n->i[3] == 2) {
        cc = 0.0 * es;
        if (nf == 0) a = x * es, b = z * es;
        else if (br == CF_IR_UNIFICATION || n->i[4]) {
            a = (x + (IRIS2(1, x, z) - 0.5) * fs) * es;
            b = (z + (IRIS2(1, z, x) - 0.5) * fs) * es;
        } else {
            double f = IRIS2(1, x, z) * fs;
            a = (x + f) * es, b = (z - f) * es;
        }
    } else {
        if (nf == 0) a = x * es, b = y * es, cc = z * es;
        else if (br == CF_IR_UNIFICATION || n->i[4]) {
            a = (x + (ev64_node(c, n->in[1], x, y, z) - 0.5) * fs) * es;
            b = (y + (IRIS2(n->nin - 1, y, x) - 0.5) * fs) * es;
            cc = (z + (ev64_node(c, n->in[1], z, x, y) - 0.5) * fs) * es;
        } else {
            double f = ev64_node(c, n->in[1], x, y, z) * fs;
            a = (x + f) * es, b = (y - f) * es, cc = (z - f) * es;
        }
    }
    return cf_ir_post(ev64_node(c, n->in[0], a, b, cc), 1.0, n->d[1]);
}
EVAL64(IRIS_XOP)
{
    int op = n->i[0];
    if (op == CF_IX_X) return x;
    if (op == CF_IX_Y) return y;
    if (op == CF_IX_Z) return z;
    if (op == CF_IX_IF) return IN(0) == 0.0 ? IN(2) : IN(1);
    double a = n->nin > 0 ? IN(0) : 0.0, b = n->nin > 1 ? IN(1) : 0.0;
    return cf_ir_xop(op, a, b, n->d[0]);
}
EVAL64(IRIS_XCALL)
{
    double a = IN(1), b = IN(2);
    if (n->i[0] == 2) return ev64_node(c, n->in[0], a, 0.0, b);
    return ev64_node(c, n->in[0], a, b, IN(3));
}
EVAL64(IRIS_IMAGE)
{
    double v[CF_IR_MAXPTS] = {0}, r = n->d[0];
    int m = n->i[2], np = cf_ir_inpts(m);
    long off = (long)node_table_offset(c->w->prog, (int)(n - c->w->prog->nodes));
    cf_i32 xi = cf_jtoint(x), zi = cf_jtoint(n->i[3] == 2 ? z : z + y);
    for (int k = 0; k < np; k++) {
        double a, b;
        cf_ir_ipt(m, xi, zi, r, k, &a, &b);
        v[k] = cf_ir_img_raw(c->w->tab, off, n->i[0], n->i[1], n->i[4], r, a, b);
    }
    return cf_ir_icomb(m, xi, zi, r, v);
}
EVAL64(IRIS_GROUP)
{
    double lo = IRIS2(0, x, z), hi = IRIS2(1, x, z), d = 0;
    for (int k = 2; k < n->nin; k++) d += cf_ir_lerp(lo, hi, IRIS2(k, x, z));
    return d / (double)(n->nin - 2);
}
EVAL64(IRIS_HEIGHT)
{
    double h = 0;
    for (int k = 0; k < n->nin; k++) h += IRIS2(k, x, z);
    return cf_ir_height(h, n->d[0], n->d[1]);
}

/* ---- Hytale (host/ir/nodes_hytale.def, kernels/cf_hytale.h); i[0] of a seeded node: the label's hash */
EVAL64(HY_SUM)
{
    if (n->nin == 0) return 0.0;
    double s = IN(0);
    for (int k = 1; k < n->nin; k++) s = s + IN(k);
    return s;
}
EVAL64(HY_MULTIPLIER)
{
    double s = 0.0;
    for (int k = 0; k < n->nin; k++) {
        double v = IN(k);
        if (v == 0.0) return 0.0;
        s = k ? s * v : v;
    }
    return s;
}
EVAL64(HY_MAX)
{
    if (n->nin == 0) return 0.0;
    double s = IN(0);
    for (int k = 1; k < n->nin; k++) s = cf_hy_jmax(s, IN(k));
    return s;
}
EVAL64(HY_MIN)
{
    if (n->nin == 0) return 0.0;
    double s = IN(0);
    for (int k = 1; k < n->nin; k++) s = cf_hy_jmin(s, IN(k));
    return s;
}
EVAL64(HY_OFFSET)
{
    double a = IN(0);
    return a + IN(1);
}
EVAL64(HY_AMPLITUDE)
{
    double a = IN(0);
    return a * IN(1);
}
EVAL64(HY_SMAX)
{
    double a = IN(0);
    return cf_hy_smax(a, IN(1), n->d[0]);
}
EVAL64(HY_SMIN)
{
    double a = IN(0);
    return cf_hy_smin(a, IN(1), n->d[0]);
}
EVAL64(HY_MIX)
{
    double g = IN(2);
    if (g <= 0.0) return IN(0);
    if (g >= 1.0) return IN(1);
    double a = IN(0);
    return (a * (1.0 - g)) + (IN(1) * g);
}
EVAL64(HY_MULTIMIX)
{
    int m = n->nin - 1; /* densities; keys da[0..m-1] */
    double g = IN(m);
    const double *k = n->da;
    if (g <= k[0]) return IN(0);
    if (g >= k[m - 1]) return IN(m - 1);
    if (g != g) return g;
    int i = 0;
    for (int q = 1; q + 1 < m; q++)
        if (g >= k[q]) i = q;
    double t = (g - k[i]) / (k[i + 1] - k[i]);
    double a = IN(i);
    return (a * (1.0 - t)) + (IN(i + 1) * t);
}
EVAL64(HY_FASTWARP)
{
    double wx = x, wy = y, wz = z;
    if (n->i[2]) cf_hy_fastwarp2(HSEED, n->d[0], n->d[1], n->i[1], n->d[2], n->d[3], &wx, &wz);
    else cf_hy_fastwarp3(HSEED, n->d[0], n->d[1], n->i[1], n->d[2], n->d[3], &wx, &wy, &wz);
    return AT(0, wx, wy, wz);
}
/* ---- V2 (hytale-v2) */
EVAL64(HY_CYLINDER)
{
    const double *m = n->da;
    double qx = CF_HY_MX(m, x, y, z), qy = CF_HY_MY(m, x, y, z), qz = CF_HY_MZ(m, x, y, z);
    return cf_hy_curve(m + 9, qy) * cf_hy_curve(cf_hy_curve2(m + 9), cf_sqrt((qx * qx) + (qz * qz)));
}
EVAL64(HY_ANGLE)
{
    double h = n->d[3], g0 = IN(0);
    double gx = (AT(0, x + h, y, z) - g0) / h, gy = (AT(0, x, y + h, z) - g0) / h, gz = (AT(0, x, y, z + h) - g0) / h;
    return cf_hy_angle(n->d[0], n->d[1], n->d[2], gx, gy, gz);
}
EVAL64(HY_YSAMPLED)
{
    double t, y1, y0 = cf_hy_ysample(y, n->d[0], n->d[1], &t, &y1);
    double a = AT(0, x, y0, z);
    if (!n->i[0] || t == 0.0) return a;
    return (a * (1.0 - t)) + (AT(0, x, y1, z) * t);
}
EVAL64(HY_GRADWARP)
{
    double k = n->d[0], h = n->d[1];
    if (n->i[0]) {
        double yy = n->d[2], g0 = AT(1, x, yy, z);
        double gx = (AT(1, x + h, yy, z) - g0) / h, gz = (AT(1, x, yy, z + h) - g0) / h;
        return AT(0, x + (k * gx), y, z + (k * gz));
    }
    double g0 = AT(1, x, y, z);
    double gx = (AT(1, x + h, y, z) - g0) / h, gy = (AT(1, x, y + h, z) - g0) / h, gz = (AT(1, x, y, z + h) - g0) / h;
    return AT(0, x + (k * gx), y + (k * gy), z + (k * gz));
}
EVAL64(HY_VECWARP)
{
    double s = n->d[0] * IN(1);
    return AT(0, x + (s * n->d[1]), y + (s * n->d[2]), z + (s * n->d[3]));
}
EVAL64(HY_ANCHOR)
{
    double ax = IN(1), ay = IN(2), az = IN(3);
    if (n->i[0]) return AT(0, x + ax, y + ay, z + az);
    return AT(0, x - ax, y - ay, z - az);
}
EVAL64(HY_PCELL)
{
    double f1, f2, px, py, pz;
    int found = cf_hy_pcell(n->da, c->w->lseed, x, y, z, &f1, &f2, &px, &py, &pz), rt = n->i[0];
    if (rt == CF_HY_PR_CELLVALUE) return found ? AT(0, px, py, pz) : n->d[0];
    if (rt == CF_HY_PR_CURVE) return cf_hy_curve(n->da + (int)n->da[CF_HY_PC_CURVE], f1);
    return cf_hy_pcell_result(rt, f1, f2);
}
EVAL64(HY_EXTMAP)
{
    long k = cf_hy_map_index(x, z, n->d[0], n->d[1], n->d[2], n->i[2], n->i[3]);
    if (k < 0) return cf_hy_nan();
    double v;
    memcpy(&v, c->w->tab + 16 + 8 * ((size_t)n->i[1] + (size_t)k), sizeof v);
    return v;
}
/* ---- legacy (hytale-legacy) ---- */
EVAL64(HY_LROTATE)
{
    const double *m = n->da;
    double qx = x - m[9], qy = y - m[10], qz = z - m[11];
    double rx = (((m[0] * qx) + (m[1] * qy)) + (m[2] * qz)) + m[9];
    double ry = (((m[3] * qx) + (m[4] * qy)) + (m[5] * qz)) + m[10];
    double rz = (((m[6] * qx) + (m[7] * qy)) + (m[8] * qz)) + m[11];
    return AT(0, rx, ry, rz);
}
EVAL64(HY_LDISTORT)
{
    double d[3] = {0.0, 0.0, 0.0};
    for (int k = 1; k < n->nin; k++) {
        double g = IN(k);
        d[(k - 1) % 3] = d[(k - 1) % 3] + (n->da[(k - 1) / 3] * ((2.0 * g) - 1.0));
    }
    return AT(0, x + d[0], y + d[1], z + d[2]);
}
EVAL64(HY_LGRADIENT)
{
    double h = n->d[0], h2 = n->d[2];
    double gx = (AT(0, x + h, y, z) - AT(0, x - h, y, z)) / h2;
    double gy = (AT(0, x, y + h, z) - AT(0, x, y - h, z)) / h2;
    double gz = (AT(0, x, y, z + h) - AT(0, x, y, z - h)) / h2;
    return cf_sqrt(((gx * gx) + (gy * gy)) + (gz * gz)) / n->d[1];
}
/* ---- end legacy (hytale-legacy) ---- */

/* ------------------------------------------------------------------ Minecraft 1.18-1.21 (nodes_mc121.def)
 * Double values at block positions; the leaf math is kernels/cf_mc121.h. Most kinds are
 * B64 rows of the table (above); these are not: an input chosen at run time, another
 * position, or the evaluation mode. Markers pass their input through here (single points);
 * chunk fills apply flat_cache and interpolated (fill.c). */
EVAL64(M_INTERVAL_SELECT)
{
    double v = IN(0);
    int k = 0;
    while (k < n->nda && !(v < n->da[k])) k++;
    return IN(1 + k);
}
EVAL64(M_SPLINE)
{
    int np = n->nda / 2;
    float co = (float)IN(0);
    int i = cf21_spline_index(n->da, np, co);
    float y1 = (float)IN(i < 0 ? 1 : i + 1);
    float y2 = (i >= 0 && i < np - 1) ? (float)IN(i + 2) : y1;
    return (double)cf21_spline_value(n->da, np, co, i, y1, y2);
}
EVAL64(M_FIND_TOP_SURFACE)
{
    double cell = (double)n->i[1], lower = (double)n->i[0];
    double top = cf21_top_start(IN(1), cell, lower);
    if (!(top >= lower)) return lower;
    for (int64_t k = 0, nk = (int64_t)((top - lower) / cell); k <= nk; k++) {
        double by = top - (double)k * cell;
        if (ev64_node(c, n->in[0], x, by, z) > 0.0) return by;
    }
    return lower;
}
/* a mode change: memo entries of the other mode become empty */
static void ev64_bump(ev64_ctx *c)
{
    if (++c->stamp == 0xffffffffu) {
        for (int i = 0; i < c->w->prog->nnodes; i++)
            if (c->memo[i].stamp != 0xffffffffu) c->memo[i].stamp = 0;
        c->stamp = 1;
    }
}
static double ev64_in_mode(ev64_ctx *c, int id, int mode, double x, double y, double z)
{
    int old = c->mode;
    if (old == mode) return ev64_node(c, id, x, y, z);
    c->mode = mode;
    ev64_bump(c);
    double v = ev64_node(c, id, x, y, z);
    c->mode = old;
    ev64_bump(c);
    return v;
}
static double ev64_corner(ev64_ctx *c, const cf_node *n, int s, int ix, int iy, int iz)
{
    const cf_program *p = c->w->prog;
    int nx = c->ncxz + 1;
    size_t k = (size_t)s * (size_t)nx * (size_t)nx * (size_t)(c->ncy + 1) + ((size_t)iy * (size_t)nx + (size_t)iz) * (size_t)nx + (size_t)ix;
    if (c->cornst[k] == c->cstamp) return c->corner[k];
    double x = (double)(((int64_t)c->fcx + ix) * p->cell_xz), y = (double)(((int64_t)c->fcy + iy) * p->cell_y);
    double z = (double)(((int64_t)c->fcz + iz) * p->cell_xz);
    double v = ev64_in_mode(c, n->in[0], EV64_CORNER, x, y, z);
    c->corner[k] = v;
    c->cornst[k] = c->cstamp;
    return v;
}
EVAL64(M_INTERPOLATED)
{
    if (c->mode == EV64_POINT || c->mode == EV64_CORNER) return IN(0);
    const cf_program *p = c->w->prog;
    int s = c->slot[n - p->nodes];
    int64_t bx = (int64_t)x, by = (int64_t)y, bz = (int64_t)z;
    int64_t cx = cf_floordiv(bx, p->cell_xz), cy = cf_floordiv(by, p->cell_y), cz = cf_floordiv(bz, p->cell_xz);
    int ix = (int)(cx - c->fcx), iy = (int)(cy - c->fcy), iz = (int)(cz - c->fcz);
    if (ix < 0 || iz < 0 || iy < 0 || ix >= c->ncxz || iz >= c->ncxz || iy >= c->ncy) return IN(0); /* outside the chunk */
    double fx = (double)(bx - cx * p->cell_xz) / (double)p->cell_xz, fy = (double)(by - cy * p->cell_y) / (double)p->cell_y;
    double fz = (double)(bz - cz * p->cell_xz) / (double)p->cell_xz;
    double n000 = ev64_corner(c, n, s, ix, iy, iz), n100 = ev64_corner(c, n, s, ix + 1, iy, iz);
    double n010 = ev64_corner(c, n, s, ix, iy + 1, iz), n110 = ev64_corner(c, n, s, ix + 1, iy + 1, iz);
    double n001 = ev64_corner(c, n, s, ix, iy, iz + 1), n101 = ev64_corner(c, n, s, ix + 1, iy, iz + 1);
    double n011 = ev64_corner(c, n, s, ix, iy + 1, iz + 1), n111 = ev64_corner(c, n, s, ix + 1, iy + 1, iz + 1);
    if (c->mode == EV64_VALUE) { /* NoiseInterpolator.updateForY, X, Z */
        double a = cf21_lerp(fx, cf21_lerp(fy, n000, n010), cf21_lerp(fy, n100, n110));
        double b = cf21_lerp(fx, cf21_lerp(fy, n001, n011), cf21_lerp(fy, n101, n111));
        return cf21_lerp(fz, a, b);
    }
    /* the cell cache: Mth.lerp3 (x, then y, then z) */
    double a = cf21_lerp(fy, cf21_lerp(fx, n000, n100), cf21_lerp(fx, n010, n110));
    double b = cf21_lerp(fy, cf21_lerp(fx, n001, n101), cf21_lerp(fx, n011, n111));
    return cf21_lerp(fz, a, b);
}
EVAL64(M_FLAT_CACHE)
{
    if (c->mode == EV64_POINT) return IN(0);
    int64_t qx = cf_floordiv((int64_t)x, 4), qz = cf_floordiv((int64_t)z, 4);
    int64_t ix = qx - c->fqx, iz = qz - c->fqz;
    if (ix < 0 || iz < 0 || ix > 4 || iz > 4) return IN(0);
    size_t k = (size_t)c->slot[n - c->w->prog->nodes] * 25 + (size_t)(iz * 5 + ix);
    if (c->flatst[k] == c->cstamp) return c->flat[k];
    /* the value at the quart corner with y = 0, computed as a single point */
    double v = ev64_in_mode(c, n->in[0], EV64_POINT, (double)(qx * 4), 0.0, (double)(qz * 4));
    c->flat[k] = v;
    c->flatst[k] = c->cstamp;
    return v;
}
EVAL64(M_CACHE_ALL_IN_CELL)
{
    if (c->mode == EV64_POINT || c->mode == EV64_CELL) return IN(0);
    return ev64_in_mode(c, n->in[0], EV64_CELL, x, y, z);
}
#undef TAB
#undef REC

typedef double (*eval64_fn)(ev64_ctx *, const cf_node *, double, double, double);
static const eval64_fn evals64[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary, value) [NK_##K] = eval64_##K,
#include "ir/nodes.def"
#undef NODE64
#undef NODE
};

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static double ev64_node(ev64_ctx *c, int id, double x, double y, double z)
{
    const cf_node *n = &c->w->prog->nodes[id];
    ev64_memo *m = c->memo ? &c->memo[id] : NULL;
    if (m && m->stamp == c->stamp && same(m->x, x) && same(m->y, y) && same(m->z, z)) return m->v;
    double v = evals64[n->kind](c, n, x, y, z);
    if (m && m->stamp != 0xffffffffu) m->x = x, m->y = y, m->z = z, m->v = v, m->stamp = c->stamp;
    return v;
}

int eval64_init(ev64_ctx *c, const cf_world *w)
{
    const cf_program *p = w->prog;
    memset(c, 0, sizeof *c);
    c->w = w;
    c->stamp = 1;
    c->memo = calloc((size_t)p->nnodes + 1, sizeof *c->memo);
    if (!c->memo) return -1;
    /* memoize Cache and nodes with several parents; the others never repeat a point */
    int *parents = calloc((size_t)p->nnodes + 1, sizeof(int));
    if (!parents) return free(c->memo), c->memo = NULL, -1;
    for (int i = 0; i < p->nnodes; i++)
        for (int k = 0; k < p->nodes[i].nin; k++) parents[p->nodes[i].in[k]] += p->nodes[i].kind == NK_LN_TERRAIN ? 2 : 1;
    for (int i = 0; i < p->nnodes; i++)
        c->memo[i].stamp = (parents[i] > 1 || (p->nodes[i].kind == NK_LN_CACHE || p->nodes[i].kind == NK_HY_CACHE)) ? 0 : 0xffffffffu;
    free(parents);
    if (p->dialect != DIALECT_MC121) return 0;
    /* chunk fills: a slot per flat_cache and interpolated node; markers memoize
     * (their value depends on the mode, the memo stamp changes with it) */
    c->slot = malloc(sizeof(int) * ((size_t)p->nnodes + 1));
    if (!c->slot) return eval64_free(c), -1;
    for (int i = 0; i < p->nnodes; i++) {
        int k = p->nodes[i].kind;
        c->slot[i] = k == NK_M_FLAT_CACHE ? c->nflat++ : k == NK_M_INTERPOLATED ? c->ninterp++ : -1;
    }
    c->ncxz = 16 / p->cell_xz;
    c->ncy = p->height / p->cell_y;
    size_t nc = (size_t)(c->ncxz + 1) * (size_t)(c->ncxz + 1) * (size_t)(c->ncy + 1) * (size_t)c->ninterp;
    c->flat = calloc((size_t)c->nflat * 25 + 1, sizeof(double));
    c->flatst = calloc((size_t)c->nflat * 25 + 1, sizeof(uint32_t));
    c->corner = calloc(nc + 1, sizeof(double));
    c->cornst = calloc(nc + 1, sizeof(uint32_t));
    if (!c->flat || !c->flatst || !c->corner || !c->cornst) return eval64_free(c), -1;
    return 0;
}

void eval64_free(ev64_ctx *c)
{
    free(c->memo);
    free(c->slot);
    free(c->flat);
    free(c->flatst);
    free(c->corner);
    free(c->cornst);
    c->memo = NULL, c->slot = NULL, c->flat = c->corner = NULL, c->flatst = c->cornst = NULL;
}

void eval64_chunk(ev64_ctx *c, int32_t cx, int32_t cz, int mode)
{
    const cf_program *p = c->w->prog;
    c->mode = mode;
    ev64_bump(c);
    if (mode == EV64_POINT) return;
    if (++c->cstamp == 0) {
        memset(c->flatst, 0, sizeof(uint32_t) * ((size_t)c->nflat * 25 + 1));
        memset(c->cornst, 0, sizeof(uint32_t) * ((size_t)(c->ncxz + 1) * (size_t)(c->ncxz + 1) * (size_t)(c->ncy + 1) * (size_t)c->ninterp + 1));
        c->cstamp = 1;
    }
    c->fqx = cx * 4, c->fqz = cz * 4;
    c->fcx = (int32_t)cf_floordiv((int64_t)cx * 16, p->cell_xz), c->fcz = (int32_t)cf_floordiv((int64_t)cz * 16, p->cell_xz);
    c->fcy = (int32_t)cf_floordiv(p->min_y, p->cell_y);
}

double eval_f64(ev64_ctx *c, int node, double x, double y, double z) { return ev64_node(c, node, x, y, z); }
double eval_f64_mode(ev64_ctx *c, int mode, int node, double x, double y, double z) { return ev64_in_mode(c, node, mode, x, y, z); }
