/* emit_f64.c - the double formats' generated OpenCL: the emit table (one EMIT64 entry per
 * double node kind of ir/nodes.def: libnoise, Iris, Hytale, Minecraft 1.18-1.21), the bodies
 * with statements, and the program of the double dialects (libnoise, Iris, Hytale): one
 * function n<id> per node reached and k_blocks. The 1.18-1.21 program is emit_mc121.c. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/emit_gen.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_iris.h"
#include "kernels/cf_libnoise.h"

/* ------------------------------------------------------------------ double dialects
 * One function per node, children first: n<id>(ws, x, y, z) returns the node's
 * double value at a double position (ws: the world seed's low 32 bits), calling
 * its sources at the positions its module gives them. The module math is
 * kernels/cf_libnoise.h, the text the CPU evaluator (eval64.c) compiles.
 * A shared module may run more than once per block: values never change. */
#define U64 __attribute__((unused))
#define EMIT64(K) static void emit64_##K(U64 sb *b, U64 const cf_node *n, U64 int id)
#define SRC(k) sbf(b, "n%d(t, ws, x, y, z)", n->in[k])
#define D(k) dlit(b, n->d[k])

/* The value column of the node tables (host/ir/nodes.def): a V64 row's expression, which
 * eval64.c compiles, written as OpenCL text with its names (the list in eval64.c) replaced:
 * IN(k) and AT(k, ...) call the input's function, D(k), I(k), F(k), NDA write the node's
 * numbers, WS, HSEED and SHARP the seeds and flags, HYC and LNP the node's table (hyc<id>,
 * lnp<id>, written by function64), TAB and REC a 1.21 node's tables and record. The rest is
 * kernels/ C, copied as it stands. A B64 row's statements (body != 0) are written one a
 * line; in a 1.21 program (b->m21, the evaluation mode's letter) IN(k) calls the input's
 * function of that mode (emit_mc121.c). */
static void emit64_value(sb *b, const cf_node *n, int id, const char *e, int body)
{
    int depth = 0;
    if (body) sbf(b, "    ");
    while (*e) {
        size_t len = 0;
        while (isalnum((unsigned char)e[len]) || e[len] == '_') len++;
        if (len == 0) {
            depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
            sbf(b, "%c", *e);
            if (body && *e == ';' && depth == 0) {
                while (e[1] == ' ') e++;
                sbf(b, e[1] ? "\n    " : "\n");
            }
            e++;
            continue;
        }
#define IS(name) (len == sizeof name - 1 && memcmp(e, name, len) == 0)
        int k = e[len] == '(' ? atoi(e + len + 1) : 0;
        const char *arg = e[len] == '(' ? strpbrk(e + len, ",)") : NULL; /* after the index */
        if (IS("IN") && arg && b->m21) sbf(b, "n%d_%c(t, CF21_PASS, x, y, z)", n->in[k], b->m21), e = arg + 1;
        else if (IS("IN") && arg) sbf(b, "n%d(t, ws, x, y, z)", n->in[k]), e = arg + 1;
        else if (IS("AT") && arg) sbf(b, "n%d(t, ws,", n->in[k]), e = arg + 1, depth++; /* its ')' follows */
        else if (IS("D") && arg) dlit(b, n->d[k]), e = arg + 1;
        else if (IS("I") && arg) sbf(b, "%d", n->i[k]), e = arg + 1;
        else if (IS("F") && arg) flit(b, n->f[k]), e = arg + 1;
        else {
            if (IS("WS")) sbf(b, "ws");
            else if (IS("HSEED")) sbf(b, "cf_hy_wadd(ws, %d)", n->i[0]);
            else if (IS("SHARP")) sbf(b, "%d", n->i[5] ? CF_LN_SHARP : 0);
            else if (IS("HYC")) sbf(b, "hyc%d", id);
            else if (IS("LNP")) sbf(b, "lnp%d", id);
            else if (IS("NDA")) sbf(b, "%d", n->nda);
            else if (IS("TAB")) sbf(b, "t");
            else if (IS("REC")) sbf(b, "cf21_record(t, %d)", id);
            else sbf(b, "%.*s", (int)len, e);
            e += len;
        }
#undef IS
    }
}
#define V64(...) { emit64_value(b, n, id, #__VA_ARGS__, 0); }
#define B64(...) { emit64_value(b, n, id, #__VA_ARGS__, 1); }
#define OWN64 ;
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary, value) EMIT64(K) value
#include "ir/nodes.def"
#undef NODE64
#undef NODE
#undef OWN64
#undef B64
#undef V64

EMIT64(LN_BILLOW)
{
    sbf(b, "cf_ln_fbm(%d, x, y, z, ", n->i[5] ? 3 : 1), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2);
    sbf(b, ", %d, cf_ln_seed(ws, %d), %d)", n->i[0], n->i[1], n->i[2]);
}
EMIT64(LN_CLAMP)
{
    sbf(b, "cf_ln_clamp("), SRC(0), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ")");
}
EMIT64(LN_CURVE) { sbf(b, "cf_ln_curve("), SRC(0), sbf(b, ", lnp%d, %d)", id, n->nda / 2); }
EMIT64(LN_ADD) { SRC(0), sbf(b, " + "), SRC(1); }
EMIT64(LN_MAX) { sbf(b, "cf_ln_max("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ")"); }
EMIT64(LN_MIN) { sbf(b, "cf_ln_min("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ")"); }
EMIT64(LN_MULTIPLY) { SRC(0), sbf(b, " * "), SRC(1); }
EMIT64(LN_POWER) { sbf(b, "cf_ln_pow("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ")"); }
EMIT64(LN_BLEND)
{
    sbf(b, "cf_ln_lerp("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ", ("), SRC(2), sbf(b, " + 1.0) / 2.0)");
}
EMIT64(LN_SELECT)
{
    /* a statement-expression is not OpenCL C: the body is written by function64 */
    (void)b;
}
EMIT64(LN_DISPLACE)
{
    sbf(b, "n%d(t, ws, x + ", n->in[0]), SRC(1), sbf(b, ", y + "), SRC(2), sbf(b, ", z + "), SRC(3), sbf(b, ")");
}
EMIT64(LN_ROTATEPOINT)
{
    sbf(b, "n%d(t, ws, ", n->in[0]);
    for (int r = 0; r < 3; r++) {
        sbf(b, "%s(", r ? ", " : "");
        dlit(b, n->da[3 * r]), sbf(b, " * x) + ("), dlit(b, n->da[3 * r + 1]), sbf(b, " * y) + ("), dlit(b, n->da[3 * r + 2]);
        sbf(b, " * z)");
    }
    sbf(b, ")");
}
EMIT64(LN_TURBULENCE)
{
    static const char *const off[3][3] = {{"CF_LN_TURB_X0", "CF_LN_TURB_Y0", "CF_LN_TURB_Z0"},
                                          {"CF_LN_TURB_X1", "CF_LN_TURB_Y1", "CF_LN_TURB_Z1"},
                                          {"CF_LN_TURB_X2", "CF_LN_TURB_Y2", "CF_LN_TURB_Z2"}};
    static const char axis[3] = {'x', 'y', 'z'};
    sbf(b, "n%d(t, ws", n->in[0]);
    for (int a = 0; a < 3; a++) {
        sbf(b, ", %c + (cf_ln_fbm(%d, x + %s, y + %s, z + %s, ", axis[a], n->i[5] ? 2 : 0, off[a][0], off[a][1], off[a][2]);
        D(0), sbf(b, ", 2.0, 0.5, %d, cf_ln_seed(cf_ln_seed(ws, %d), %d), CF_LN_STD) * ", n->i[0], n->i[1], a), D(1);
        sbf(b, ")");
    }
    sbf(b, ")");
}
/* Iris CNG: the same steps as eval64_IRIS_CNG; seeds from the world's table
 * (t: 16-byte header, then 6 x i64 per node, the front-end's bind_seed) */
EMIT64(IRIS_CNG)
{
    int t = n->i[0], oct = n->i[1], br = n->i[2];
    char gen[160];
    snprintf(gen, sizeof gen, "cf_ir_gen3(%d, %d, %d, IRS(%d, 0), (int)IRS(%d, 1), (double)IRS(%d, 2), (double)IRS(%d, 3), IRS(%d, 4), IRS(%d, 5), ",
             t, br, oct, id, id, id, id, id, id);
    sbf(b, "cf_ir_post(");
    if (n->nin == 0) {
        sbf(b, "%s", gen);
        if (n->i[3] == 2) sbf(b, "x * "), D(0), sbf(b, ", z * "), D(0), sbf(b, ", 0.0)");
        else sbf(b, "x * "), D(0), sbf(b, ", y * "), D(0), sbf(b, ", z * "), D(0), sbf(b, ")");
    } else if (br == CF_IR_UNIFICATION || n->i[4]) {
        int c2 = n->in[n->nin - 1];
        if (n->i[3] == 2) {
            sbf(b, "%s(x + (n%d(t, ws, x, 0.0, z) - 0.5) * ", gen, n->in[0]), D(2), sbf(b, ") * "), D(0);
            sbf(b, ", (z + (n%d(t, ws, z, 0.0, x) - 0.5) * ", n->in[0]), D(2), sbf(b, ") * "), D(0), sbf(b, ", 0.0)");
        } else {
            sbf(b, "%s(x + (n%d(t, ws, x, y, z) - 0.5) * ", gen, n->in[0]), D(2), sbf(b, ") * "), D(0);
            sbf(b, ", (y + (n%d(t, ws, y, 0.0, x) - 0.5) * ", c2), D(2), sbf(b, ") * "), D(0);
            sbf(b, ", (z + (n%d(t, ws, z, x, y) - 0.5) * ", n->in[0]), D(2), sbf(b, ") * "), D(0), sbf(b, ")");
        }
    } else {
        /* master: f = F * m; (x + f, [y - f,] z - f), f computed once */
        sbf(b, "cf_ir_frac_m(%d, n%d(t, ws, x, %s, z) * ", n->i[3], n->in[0], n->i[3] == 2 ? "0.0" : "y"), D(2);
        sbf(b, ", x, y, z, "), D(0);
        sbf(b, ", %d, %d, %d, IRS(%d, 0), (int)IRS(%d, 1), (double)IRS(%d, 2), (double)IRS(%d, 3), IRS(%d, 4), IRS(%d, 5))", t, br, oct,
            id, id, id, id, id, id);
    }
    sbf(b, ", "), D(3), sbf(b, ", "), D(1), sbf(b, ")");
}
EMIT64(IRIS_ROWS) { (void)b; /* a switch: written by function64 */ }
/* the JSON layers: bodies with statements, written by layer_body */
EMIT64(IRIS_CELLZ) { (void)b; }
EMIT64(IRIS_LAYER) { (void)b; }
EMIT64(IRIS_GEN) { (void)b; }
EMIT64(IRIS_CELLGEN) { (void)b; }
EMIT64(IRIS_INTERP) { (void)b; }
EMIT64(IRIS_SCNG) { (void)b; }
EMIT64(IRIS_IMAGE) { (void)b; }
/* expressions: one operation (cf_ir_xop, kernels/cf_iris.h) */
EMIT64(IRIS_XOP)
{
    int op = n->i[0];
    if (op == CF_IX_X || op == CF_IX_Y || op == CF_IX_Z) {
        sbf(b, "%c", "xyz"[op - CF_IX_X]);
        return;
    }
    if (op == CF_IX_IF) {
        sbf(b, "("), SRC(0), sbf(b, " == 0.0 ? "), SRC(2), sbf(b, " : "), SRC(1), sbf(b, ")");
        return;
    }
    sbf(b, "cf_ir_xop(%d, ", op);
    if (n->nin > 0) SRC(0);
    else sbf(b, "0.0");
    sbf(b, ", ");
    if (n->nin > 1) SRC(1);
    else sbf(b, "0.0");
    sbf(b, ", "), D(0), sbf(b, ")");
}
EMIT64(IRIS_XCALL)
{
    sbf(b, "n%d(t, ws, ", n->in[0]), SRC(1);
    if (n->i[0] == 2) sbf(b, ", 0.0, "), SRC(2);
    else sbf(b, ", "), SRC(2), sbf(b, ", "), SRC(3);
    sbf(b, ")");
}
EMIT64(IRIS_GROUP) { (void)b; }
EMIT64(IRIS_HEIGHT) { (void)b; }
#define AT2(k, A, B) sbf(b, "n%d(t, ws, %s, 0.0, %s)", n->in[k], A, B)
/* the statements of eval64_IRIS_CELLZ ... eval64_IRIS_INTERP (eval64.c); 1 when written */
static int layer_body(sb *b, const cf_program *p, const cf_node *n, int id)
{
    switch (n->kind) {
    case NK_IRIS_CELLZ:
        sbf(b, "    double es = "), D(0), sbf(b, ", a = x * es, c = %s, px, pz;\n", n->i[3] == 2 ? "z * es + 0.0" : "y * es + z * es");
        sbf(b, "    cf_ir_cellz_at((int)IRS(%d, 1), (float)", id), D(1), sbf(b, ", a, c, &px, &pz);\n");
        sbf(b, "    return cf_ir_cellz_value("), AT2(0, "px", "pz"), sbf(b, ");\n}\n");
        return 1;
    case NK_IRIS_LAYER:
        if (!n->i[1]) return sbf(b, "    return "), D(3), sbf(b, ";\n}\n"), 1;
        sbf(b, "    double lx = x, lz = z;\n");
        for (int k = 1; k < n->nin; k++) {
            sbf(b, "    lx = cf_ir_layer_frac(%d, 0, lx, ", n->i[2]), AT2(k, "x", "z"), sbf(b, ", "), dlit(b, n->da[k]);
            sbf(b, ", "), D(1), sbf(b, ");\n");
            sbf(b, "    lz = cf_ir_layer_frac(%d, 1, lz, ", n->i[2]), AT2(k, "z", "x"), sbf(b, ", "), dlit(b, n->da[k]);
            sbf(b, ", "), D(1), sbf(b, ");\n");
        }
        sbf(b, "    double v = n%d(t, ws, lx / ", n->in[0]), D(0), sbf(b, " + "), D(2), sbf(b, ", 0.0, lz / "), D(0);
        sbf(b, " + "), D(4), sbf(b, ");\n");
        sbf(b, "    return cf_ir_layer(%d, %d, v, ", n->i[2], n->i[0]), D(1), sbf(b, ", "), dlit(b, n->da[0]);
        sbf(b, ", "), D(3), sbf(b, ");\n}\n");
        return 1;
    case NK_IRIS_GEN: {
        int nl = n->i[1];
        if (nl == 0) return sbf(b, "    return 0.0;\n}\n"), 1;
        sbf(b, "    double px = (x + "), D(2), sbf(b, ") / "), D(0), sbf(b, ", pz = (z + "), D(3), sbf(b, ") / "), D(0);
        sbf(b, ", h = %s, v;\n", n->i[0] ? "1" : "0");
        for (int k = 0; k < nl; k++) sbf(b, "    h %s= ", n->i[0] ? "*" : "+"), AT2(k, "px", "pz"), sbf(b, ";\n");
        if (n->i[0]) sbf(b, "    v = h * "), D(1), sbf(b, ";\n");
        else sbf(b, "    v = (h / "), D(4), sbf(b, ") * "), D(1), sbf(b, ";\n");
        sbf(b, "    if (v != v) v = 0;\n");
        if (n->i[2]) {
            sbf(b, "    v = cf_ir_cliff(v, "), dlit(b, n->da[0]), sbf(b, ", "), dlit(b, n->da[1]), sbf(b, ", ");
            AT2(nl, "px", "pz"), sbf(b, ");\n");
        }
        if (n->i[3]) {
            sbf(b, "    if (n%d(t, ws, x / ", n->in[n->nin - 1]), dlit(b, n->da[2]), sbf(b, ", 0.0, z / "), dlit(b, n->da[2]);
            sbf(b, ") > "), dlit(b, n->da[4]), sbf(b, ") v = v * "), dlit(b, n->da[3]), sbf(b, ";\n");
        }
        sbf(b, "    return v;\n}\n");
        return 1;
    }
    case NK_IRIS_CELLGEN:
        sbf(b, "    return cf_ir_cellgen(IRS(%d, 0), ", id), D(0), sbf(b, ", x, z, "), AT2(0, "x", "z"), sbf(b, ", ");
        AT2(0, "z", "x"), sbf(b, ");\n}\n");
        return 1;
    case NK_IRIS_INTERP:
        sbf(b, "    double v[%d], r = ", cf_ir_inpts(n->i[0])), D(0), sbf(b, ";\n");
        sbf(b, "    int xi = cf_ir_l2i_round(x), zi = cf_ir_l2i_round(z);\n");
        sbf(b, "    for (int k = 0; k < %d; k++) {\n        double a, c;\n", cf_ir_inpts(n->i[0]));
        sbf(b, "        cf_ir_ipt(%d, xi, zi, r, k, &a, &c);\n        v[k] = ", n->i[0]), AT2(0, "a", "c"), sbf(b, ";\n    }\n");
        sbf(b, "    return cf_ir_icomb(%d, xi, zi, r, v);\n}\n", n->i[0]);
        return 1;
    case NK_IRIS_SCNG: {
        int nf = n->nin - 1;
        sbf(b, "    double es = "), D(0), sbf(b, ", fs = "), D(2), sbf(b, ", ga, gb, gc;\n");
        if (n->i[3] == 2) {
            sbf(b, "    gc = 0.0 * es;\n");
            if (nf == 0) sbf(b, "    ga = x * es, gb = z * es;\n");
            else if (n->i[2] == CF_IR_UNIFICATION || n->i[4]) {
                sbf(b, "    ga = (x + ("), AT2(1, "x", "z"), sbf(b, " - 0.5) * fs) * es;\n");
                sbf(b, "    gb = (z + ("), AT2(1, "z", "x"), sbf(b, " - 0.5) * fs) * es;\n");
            } else {
                sbf(b, "    double f = "), AT2(1, "x", "z"), sbf(b, " * fs;\n    ga = (x + f) * es, gb = (z - f) * es;\n");
            }
        } else {
            if (nf == 0) sbf(b, "    ga = x * es, gb = y * es, gc = z * es;\n");
            else if (n->i[2] == CF_IR_UNIFICATION || n->i[4]) {
                sbf(b, "    ga = (x + (n%d(t, ws, x, y, z) - 0.5) * fs) * es;\n", n->in[1]);
                sbf(b, "    gb = (y + ("), AT2(n->nin - 1, "y", "x"), sbf(b, " - 0.5) * fs) * es;\n");
                sbf(b, "    gc = (z + (n%d(t, ws, z, x, y) - 0.5) * fs) * es;\n", n->in[1]);
            } else {
                sbf(b, "    double f = n%d(t, ws, x, y, z) * fs;\n    ga = (x + f) * es, gb = (y - f) * es, gc = (z - f) * es;\n", n->in[1]);
            }
        }
        sbf(b, "    return cf_ir_post(n%d(t, ws, ga, gb, gc), 1.0, ", n->in[0]), D(1), sbf(b, ");\n}\n");
        return 1;
    }
    case NK_IRIS_IMAGE: {
        int m = n->i[2], np = cf_ir_inpts(m);
        sbf(b, "    double v[%d], r = ", np), D(0), sbf(b, ";\n");
        sbf(b, "    int xi = cf_jtoint(x), zi = cf_jtoint(%s);\n", n->i[3] == 2 ? "z" : "z + y");
        sbf(b, "    for (int k = 0; k < %d; k++) {\n        double a, c;\n", np);
        sbf(b, "        cf_ir_ipt(%d, xi, zi, r, k, &a, &c);\n", m);
        sbf(b, "        v[k] = cf_ir_img_raw(t, %ldL, %d, %d, %d, r, a, c);\n    }\n", (long)node_table_offset(p, id), n->i[0], n->i[1], n->i[4]);
        sbf(b, "    return cf_ir_icomb(%d, xi, zi, r, v);\n}\n", m);
        return 1;
    }
    case NK_IRIS_GROUP:
        sbf(b, "    double lo = "), AT2(0, "x", "z"), sbf(b, ", hi = "), AT2(1, "x", "z"), sbf(b, ", d = 0;\n");
        for (int k = 2; k < n->nin; k++) sbf(b, "    d += cf_ir_lerp(lo, hi, "), AT2(k, "x", "z"), sbf(b, ");\n");
        sbf(b, "    return d / %d.0;\n}\n", n->nin - 2);
        return 1;
    case NK_IRIS_HEIGHT:
        sbf(b, "    double h = 0;\n");
        for (int k = 0; k < n->nin; k++) sbf(b, "    h += "), AT2(k, "x", "z"), sbf(b, ";\n");
        sbf(b, "    return cf_ir_height(h, "), D(0), sbf(b, ", "), D(1), sbf(b, ");\n}\n");
        return 1;
    default: return 0;
    }
}

/* ---- Hytale (kernels/cf_hytale.h); multi-statement bodies are written by hy_body */
#define HS(n) sbf(b, "cf_hy_wadd(ws, %d)", (n)->i[0])
static void fold(sb *b, const cf_node *n, const char *fn, const char *op)
{
    if (n->nin == 0) {
        sbf(b, "0.0");
        return;
    }
    for (int k = 1; k < n->nin; k++) sbf(b, "%s(", fn);
    SRC(0);
    for (int k = 1; k < n->nin; k++) sbf(b, "%s", op), SRC(k), sbf(b, ")");
}
EMIT64(HY_SUM) { fold(b, n, "", " + "); }
EMIT64(HY_MULTIPLIER) { (void)b; }
EMIT64(HY_MAX) { fold(b, n, "cf_hy_jmax", ", "); }
EMIT64(HY_MIN) { fold(b, n, "cf_hy_jmin", ", "); }
EMIT64(HY_OFFSET) { SRC(0), sbf(b, " + "), SRC(1); }
EMIT64(HY_AMPLITUDE) { SRC(0), sbf(b, " * "), SRC(1); }
EMIT64(HY_SMAX) { sbf(b, "cf_hy_smax("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_SMIN) { sbf(b, "cf_hy_smin("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_MIX) { (void)b; }
EMIT64(HY_MULTIMIX) { (void)b; }
EMIT64(HY_FASTWARP) { (void)b; }
/* ---- V2 (hytale-v2); hyc<id> holds the node's da (matrix, curves) */
EMIT64(HY_CYLINDER) { (void)b; }
EMIT64(HY_ANGLE) { (void)b; }
EMIT64(HY_YSAMPLED) { (void)b; }
EMIT64(HY_GRADWARP) { (void)b; }
EMIT64(HY_VECWARP) { (void)b; }
EMIT64(HY_ANCHOR) { (void)b; }
EMIT64(HY_EXTMAP) { (void)b; }
EMIT64(HY_PCELL) { (void)b; }
/* the V2 bodies that need statements; 1 when written */
static int hy_body_v2(sb *b, const cf_node *n, int id)
{
#define AT1(k, X, Y, Z) sbf(b, "n%d(t, ws, %s, %s, %s)", n->in[k], X, Y, Z)
    switch (n->kind) {
    case NK_HY_CYLINDER:
        sbf(b, "    double qx = CF_HY_MX(hyc%d, x, y, z), qy = CF_HY_MY(hyc%d, x, y, z), qz = CF_HY_MZ(hyc%d, x, y, z);\n", id, id, id);
        sbf(b, "    return cf_hy_curve(hyc%d + 9, qy) * cf_hy_curve(cf_hy_curve2(hyc%d + 9), sqrt((qx * qx) + (qz * qz)));\n}\n", id, id);
        return 1;
    case NK_HY_ANGLE:
        sbf(b, "    double h = "), D(3), sbf(b, ", g0 = "), AT1(0, "x", "y", "z"), sbf(b, ";\n");
        sbf(b, "    double gx = ("), AT1(0, "x + h", "y", "z"), sbf(b, " - g0) / h, gy = ("), AT1(0, "x", "y + h", "z");
        sbf(b, " - g0) / h, gz = ("), AT1(0, "x", "y", "z + h"), sbf(b, " - g0) / h;\n");
        sbf(b, "    return cf_hy_angle("), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", gx, gy, gz);\n}\n");
        return 1;
    case NK_HY_YSAMPLED:
        sbf(b, "    double tt, y1, y0 = cf_hy_ysample(y, "), D(0), sbf(b, ", "), D(1), sbf(b, ", &tt, &y1);\n");
        sbf(b, "    double a = "), AT1(0, "x", "y0", "z"), sbf(b, ";\n");
        sbf(b, "    if (%s tt == 0.0) return a;\n", n->i[0] ? "" : "1 ||");
        sbf(b, "    return (a * (1.0 - tt)) + ("), AT1(0, "x", "y1", "z"), sbf(b, " * tt);\n}\n");
        return 1;
    case NK_HY_GRADWARP:
        sbf(b, "    double k = "), D(0), sbf(b, ", h = "), D(1), sbf(b, ";\n");
        if (n->i[0]) {
            sbf(b, "    double yy = "), D(2), sbf(b, ", g0 = "), AT1(1, "x", "yy", "z"), sbf(b, ";\n");
            sbf(b, "    double gx = ("), AT1(1, "x + h", "yy", "z"), sbf(b, " - g0) / h, gz = ("), AT1(1, "x", "yy", "z + h"), sbf(b, " - g0) / h;\n");
            sbf(b, "    return "), AT1(0, "x + (k * gx)", "y", "z + (k * gz)"), sbf(b, ";\n}\n");
        } else {
            sbf(b, "    double g0 = "), AT1(1, "x", "y", "z"), sbf(b, ";\n");
            sbf(b, "    double gx = ("), AT1(1, "x + h", "y", "z"), sbf(b, " - g0) / h, gy = ("), AT1(1, "x", "y + h", "z");
            sbf(b, " - g0) / h, gz = ("), AT1(1, "x", "y", "z + h"), sbf(b, " - g0) / h;\n");
            sbf(b, "    return "), AT1(0, "x + (k * gx)", "y + (k * gy)", "z + (k * gz)"), sbf(b, ";\n}\n");
        }
        return 1;
    case NK_HY_VECWARP:
        sbf(b, "    double s = "), D(0), sbf(b, " * "), AT1(1, "x", "y", "z"), sbf(b, ";\n    return ");
        sbf(b, "n%d(t, ws, x + (s * ", n->in[0]), D(1), sbf(b, "), y + (s * "), D(2), sbf(b, "), z + (s * "), D(3), sbf(b, "));\n}\n");
        return 1;
    case NK_HY_ANCHOR:
        sbf(b, "    double ax = "), AT1(1, "x", "y", "z"), sbf(b, ", ay = "), AT1(2, "x", "y", "z"), sbf(b, ", az = "), AT1(3, "x", "y", "z");
        sbf(b, ";\n    return n%d(t, ws, x %c ax, y %c ay, z %c az);\n}\n", n->in[0], n->i[0] ? '+' : '-', n->i[0] ? '+' : '-', n->i[0] ? '+' : '-');
        return 1;
    case NK_HY_PCELL:
        sbf(b, "    double f1, f2, px, py, pz;\n    int found = cf_hy_pcell(hyc%d, ws, x, y, z, &f1, &f2, &px, &py, &pz);\n", id);
        if (n->i[0] == 0 /* CellValue */) sbf(b, "    if (!found) return "), D(0), sbf(b, ";\n    return n%d(t, ws, px, py, pz);\n}\n", n->in[0]);
        else if (n->i[0] == 1 /* Curve */) sbf(b, "    return cf_hy_curve(hyc%d + %d, f1);\n}\n", id, (int)n->da[9 /* CF_HY_PC_CURVE */]);
        else sbf(b, "    (void)found;\n    return cf_hy_pcell_result(%d, f1, f2);\n}\n", n->i[0]);
        return 1;
    case NK_HY_EXTMAP:
        sbf(b, "    long k = cf_hy_map_index(x, z, "), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", %d, %d);\n", n->i[2], n->i[3]);
        sbf(b, "    if (k < 0) return cf_hy_nan();\n    return cf_ld_f64(t + 16 + 8 * (%dL + k));\n}\n", n->i[1]);
        return 1;
    default: return 0;
    }
#undef AT1
}
/* ---- legacy (hytale-legacy) ---- */
EMIT64(HY_LROTATE) { (void)b; }
EMIT64(HY_LDISTORT) { (void)b; }
EMIT64(HY_LGRADIENT) { (void)b; }
/* the legacy bodies that need statements; 1 when written */
static int hy_legacy_body(sb *b, const cf_node *n)
{
    switch (n->kind) {
    case NK_HY_LROTATE: {
        const double *m = n->da;
        sbf(b, "    double qx = x - "), dlit(b, m[9]), sbf(b, ", qy = y - "), dlit(b, m[10]), sbf(b, ", qz = z - "), dlit(b, m[11]);
        sbf(b, ";\n");
        for (int r = 0; r < 3; r++) {
            sbf(b, "    double r%c = (((", "xyz"[r]), dlit(b, m[3 * r]), sbf(b, " * qx) + ("), dlit(b, m[3 * r + 1]), sbf(b, " * qy)) + (");
            dlit(b, m[3 * r + 2]), sbf(b, " * qz)) + "), dlit(b, m[9 + r]), sbf(b, ";\n");
        }
        sbf(b, "    return n%d(t, ws, rx, ry, rz);\n}\n", n->in[0]);
        return 1;
    }
    case NK_HY_LDISTORT:
        sbf(b, "    double d0 = 0.0, d1 = 0.0, d2 = 0.0, g;\n");
        for (int k = 1; k < n->nin; k++) {
            sbf(b, "    g = "), SRC(k), sbf(b, ";\n    d%d = d%d + (", (k - 1) % 3, (k - 1) % 3), dlit(b, n->da[(k - 1) / 3]);
            sbf(b, " * ((2.0 * g) - 1.0));\n");
        }
        sbf(b, "    return n%d(t, ws, x + d0, y + d1, z + d2);\n}\n", n->in[0]);
        return 1;
    case NK_HY_LGRADIENT: {
        int c0 = n->in[0];
        sbf(b, "    double h = "), D(0), sbf(b, ", h2 = "), D(2), sbf(b, ";\n");
        sbf(b, "    double gx = (n%d(t, ws, x + h, y, z) - n%d(t, ws, x - h, y, z)) / h2;\n", c0, c0);
        sbf(b, "    double gy = (n%d(t, ws, x, y + h, z) - n%d(t, ws, x, y - h, z)) / h2;\n", c0, c0);
        sbf(b, "    double gz = (n%d(t, ws, x, y, z + h) - n%d(t, ws, x, y, z - h)) / h2;\n", c0, c0);
        sbf(b, "    return sqrt(((gx * gx) + (gy * gy)) + (gz * gz)) / "), D(1), sbf(b, ";\n}\n");
        return 1;
    }
    default: return 0;
    }
}
/* ---- end legacy (hytale-legacy) ---- */

/* the bodies that need statements (laziness, position updates); 1 when written */
static int hy_body(sb *b, const cf_node *n)
{
    switch (n->kind) {
    case NK_HY_MULTIPLIER:
        sbf(b, "    double s = 0.0, v;\n");
        for (int k = 0; k < n->nin; k++) {
            sbf(b, "    v = "), SRC(k), sbf(b, ";\n    if (v == 0.0) return 0.0;\n");
            sbf(b, k ? "    s = s * v;\n" : "    s = v;\n");
        }
        sbf(b, "    return s;\n}\n");
        return 1;
    case NK_HY_MIX:
        /* each input called at one place (a call written twice is inlined twice: a chain of Mix
         * nodes would grow exponentially); the same inputs are evaluated as on the CPU */
        sbf(b, "    double g = "), SRC(2), sbf(b, ", a = 0.0, c = 0.0;\n");
        sbf(b, "    if (!(g >= 1.0)) a = "), SRC(0), sbf(b, ";\n    if (!(g <= 0.0)) c = "), SRC(1), sbf(b, ";\n");
        sbf(b, "    if (g <= 0.0) return a;\n    if (g >= 1.0) return c;\n    return (a * (1.0 - g)) + (c * g);\n}\n");
        return 1;
    case NK_HY_MULTIMIX: {
        int m = n->nin - 1;
        sbf(b, "    double g = "), SRC(m), sbf(b, ", mt = 0.0, lo = 0.0, hi = 0.0;\n    int i = 0, j = -1;\n");
        sbf(b, "    if (g <= "), dlit(b, n->da[0]), sbf(b, ") i = 0;\n    else if (g >= "), dlit(b, n->da[m - 1]);
        sbf(b, ") i = %d;\n    else if (g != g) return g;\n    else {\n", m - 1);
        for (int i = 1; i + 1 < m; i++) sbf(b, "        if (g >= "), dlit(b, n->da[i]), sbf(b, ") i = %d;\n", i);
        sbf(b, "        j = i + 1;\n");
        for (int i = 0; i + 1 < m; i++) {
            sbf(b, "        if (i == %d) mt = (g - ", i), dlit(b, n->da[i]), sbf(b, ") / ("), dlit(b, n->da[i + 1]), sbf(b, " - ");
            dlit(b, n->da[i]), sbf(b, ");\n");
        }
        sbf(b, "    }\n");
        for (int k = 0; k < m; k++) {
            sbf(b, "    if (i == %d || j == %d) { double v = ", k, k), SRC(k);
            sbf(b, "; if (i == %d) lo = v; else hi = v; }\n", k);
        }
        sbf(b, "    if (j < 0) return lo;\n    return (lo * (1.0 - mt)) + (hi * mt);\n}\n");
        return 1;
    }
    case NK_HY_FASTWARP:
        sbf(b, "    double wx = x, wy = y, wz = z;\n");
        if (n->i[2]) sbf(b, "    cf_hy_fastwarp2("), HS(n), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ", %d, ", n->i[1]), D(2), sbf(b, ", "), D(3), sbf(b, ", &wx, &wz);\n");
        else sbf(b, "    cf_hy_fastwarp3("), HS(n), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ", %d, ", n->i[1]), D(2), sbf(b, ", "), D(3), sbf(b, ", &wx, &wy, &wz);\n");
        sbf(b, "    return n%d(t, ws, wx, wy, wz);\n}\n", n->in[0]);
        return 1;
    default: return hy_legacy_body(b, n);
    }
}
/* ---- Minecraft 1.18-1.21 (nodes_mc121.def): most kinds are B64 rows (emit64_value writes
 * their bodies); these write the function's whole body by hand (statements ending in return:
 * an input chosen at run time, another position, the evaluation mode); sources are
 * n<id>_<mode>(t, CF21_PASS, x, y, z); the math is kernels/cf_mc121.h, the text eval64.c compiles. */
#define S21(k) sbf(b, "n%d_%c(t, CF21_PASS, x, y, z)", n->in[k], b->m21)
EMIT64(M_INTERVAL_SELECT)
{
    sbf(b, "    double v = "), S21(0), sbf(b, ";\n");
    for (int k = 0; k < n->nda; k++) sbf(b, "    if (v < "), dlit(b, n->da[k]), sbf(b, ") return "), S21(1 + k), sbf(b, ";\n");
    sbf(b, "    return "), S21(1 + n->nda), sbf(b, ";\n");
}
EMIT64(M_SPLINE)
{
    int np = n->nda / 2;
    sbf(b, "    float co = (float)"), S21(0), sbf(b, ";\n");
    sbf(b, "    int i = cf21_spline_index(sp%d, %d, co);\n    float y1, y2;\n", id, np);
    sbf(b, "    if (i < 0) { y1 = (float)n%d_%c(t, CF21_PASS, x, y, z); y2 = y1; }\n", n->in[1], b->m21);
    for (int k = 0; k < np; k++) {
        sbf(b, "    else if (i == %d) { y1 = (float)n%d_%c(t, CF21_PASS, x, y, z); ", k, n->in[k + 1], b->m21);
        if (k < np - 1) sbf(b, "y2 = (float)n%d_%c(t, CF21_PASS, x, y, z); }\n", n->in[k + 2], b->m21);
        else sbf(b, "y2 = y1; }\n");
    }
    sbf(b, "    else { y1 = 0.0f; y2 = 0.0f; }\n");
    sbf(b, "    return (double)cf21_spline_value(sp%d, %d, co, i, y1, y2);\n", id, np);
}
EMIT64(M_FIND_TOP_SURFACE)
{
    sbf(b, "    double cell = %d.0, lower = %d.0;\n", n->i[1], n->i[0]);
    sbf(b, "    double top = cf21_top_start("), S21(1), sbf(b, ", cell, lower);\n");
    sbf(b, "    if (!(top >= lower)) return lower;\n");
    sbf(b, "    for (long k = 0, nk = (long)((top - lower) / cell); k <= nk; k++) {\n        double by = top - (double)k * cell;\n");
    sbf(b, "        if (n%d_p(t, CF21_PASS, x, by, z) > 0.0) return by;\n    }\n", n->in[0]);
    sbf(b, "    return lower;\n");
}
EMIT64(M_INTERPOLATED) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }
EMIT64(M_FLAT_CACHE) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }
EMIT64(M_CACHE_ALL_IN_CELL) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }

typedef void (*emit64_fn)(sb *, const cf_node *, int);
static const emit64_fn emits64[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary, value) [NK_##K] = emit64_##K,
#include "ir/nodes.def"
#undef NODE64
#undef NODE
};

static void function64(sb *b, const cf_program *p, int id)
{
    const cf_node *n = &p->nodes[id];
    if (n->kind == NK_LN_CURVE || n->kind == NK_LN_TERRACE) {
        dtable(b, "lnp", id, n->da, n->nda);
    }
    if (n->nda > 0 && strncmp(node_name[n->kind], "hytale:", 7) == 0 && n->kind != NK_HY_MULTIMIX) {
        dtable(b, "hyc", id, n->da, n->nda);
    }
    src_comment(b, n, "");
    sbf(b, "static double n%d(CF_TAB t, int ws, double x, double y, double z)\n{\n", id);
    sbf(b, "    (void)t, (void)ws, (void)x, (void)y, (void)z;\n");
    if (hy_body(b, n) || hy_body_v2(b, n, id) || layer_body(b, p, n, id)) return;
    if (n->kind == NK_IRIS_ROWS) {
        sbf(b, "    switch (cf_ir_row(x, y, %d)) {\n", n->nin);
        for (int k = 0; k < n->nin; k++) sbf(b, "    case %d: return n%d(t, ws, x, y, z);\n", k, n->in[k]);
        sbf(b, "    }\n    return 0.0;\n}\n");
        return;
    }
    if (n->kind == NK_LN_SELECT) {
        /* libnoise evaluates only the sources the control value selects */
        sbf(b, "    double alpha;\n    switch (cf_ln_select(n%d(t, ws, x, y, z), ", n->in[2]);
        dlit(b, n->d[0]), sbf(b, ", "), dlit(b, n->d[1]), sbf(b, ", "), dlit(b, n->d[2]);
        sbf(b, ", &alpha)) {\n");
        sbf(b, "    case 0: return n%d(t, ws, x, y, z);\n", n->in[0]);
        sbf(b, "    case 1: return n%d(t, ws, x, y, z);\n", n->in[1]);
        sbf(b, "    case 2: { double a = n%d(t, ws, x, y, z); return cf_ln_lerp(a, n%d(t, ws, x, y, z), alpha); }\n", n->in[0], n->in[1]);
        sbf(b, "    default: { double c = n%d(t, ws, x, y, z); return cf_ln_lerp(c, n%d(t, ws, x, y, z), alpha); }\n    }\n}\n",
            n->in[1], n->in[0]);
        return;
    }
    sbf(b, "    return ");
    emits64[n->kind](b, n, id);
    sbf(b, ";\n}\n");
}

char *emit_program_f64(const cf_program *p, int fn, emit_layout *lay, cf_error *err)
{
    int n = p->nnodes, root = p->outputs[fn];
    uint8_t *reach = calloc((size_t)n + 1, 1);
    sb o = {0};
    if (!reach) goto nomem;
    memset(lay, 0, sizeof *lay);
    lay->h = p->height;
    reach[root] = 1;
    for (int i = n - 1; i >= 0; i--)
        if (reach[i])
            for (int k = 0; k < p->nodes[i].nin; k++) reach[p->nodes[i].in[k]] = 1;
    sbf(&o, "/* chunkfill: generated OpenCL C for %s, output %s (double dialect, seed-independent) */\n", p->settings_id,
        p->output_names[fn]);
    sbf(&o, "%s\n%s\n%s\n", emit_header_math, emit_header_nodes, emit_header_libnoise);
    if (p->dialect == DIALECT_HYTALE) sbf(&o, "%s\n", emit_header_hytale);
    if (p->dialect == DIALECT_IRIS_MASTER || p->dialect == DIALECT_IRIS_UNIFICATION) {
        sbf(&o, "%s\n", emit_header_iris);
        sbf(&o, "#define IRS(id, k) (((__global const long *)((__global const uchar *)t + 16))[6 * (id) + (k)])\n");
    }
    sbf(&o, "CF_INLINE double cf_ln_clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }\n");
    sbf(&o, "CF_INLINE double cf_ln_max(double a, double b) { return a > b ? a : b; }\n");
    sbf(&o, "CF_INLINE double cf_ln_min(double a, double b) { return a < b ? a : b; }\n\n");
    for (int i = 0; i < n; i++)
        if (reach[i]) function64(&o, p, i);
    const cf_node *r = &p->nodes[root];
    sbf(&o, "\n__kernel void k_columns(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global float *col)\n{\n");
    sbf(&o, "    (void)t, (void)chunks, (void)nchunks, (void)y0, (void)col; /* no column stage */\n}\n");
    sbf(&o, "\n/* one work item per block column, y upward */\n");
    sbf(&o, "__kernel void k_blocks(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *col,"
            " __global const float *corner, __global double *out)\n{\n");
    sbf(&o, "    (void)col, (void)corner;\n");
    sbf(&o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(&o, "    if (c >= nchunks) return;\n");
    sbf(&o, "    int ws = *(__global const int *)t;\n");
    sbf(&o, "    double x = (double)((long)chunks[2 * c] * 16 + q %% 16), z = (double)((long)chunks[2 * c + 1] * 16 + q / 16);\n");
    if (node_is_2d(p, r)) {
        /* a 2-D Iris node: its value once per column (it does not read y), as fill.c does */
        sbf(&o, "    double v = n%d(t, ws, x, 0.0, z);\n", root);
        sbf(&o, "    for (int yi = 0; yi < %d; yi++)\n", p->height);
        sbf(&o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = v;\n}\n", p->height);
    } else if (r->kind == NK_LN_TERRAIN) {
        /* the height once per column, as the CPU's memo does */
        sbf(&o, "    double h = n%d(t, ws, x, 0.0, z);\n", r->in[0]);
        sbf(&o, "    for (int yi = 0; yi < %d; yi++) {\n", p->height);
        sbf(&o, "        double y = (double)(y0 + yi);\n");
        sbf(&o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = ((h * ", p->height);
        dlit(&o, r->d[0]), sbf(&o, ") + "), dlit(&o, r->d[1]), sbf(&o, ") - y;\n    }\n}\n");
    } else {
        sbf(&o, "    for (int yi = 0; yi < %d; yi++)\n", p->height);
        sbf(&o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = n%d(t, ws, x, (double)(y0 + yi), z);\n}\n",
            p->height, root);
    }
    free(reach);
    reach = NULL;
    if (o.oom) goto nomem;
    return o.s;
nomem:
    free(reach);
    free(o.s);
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
    return NULL;
}
void emit64_node(sb *b, const cf_node *n, int id) { emits64[n->kind](b, n, id); }
