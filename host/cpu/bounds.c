/* bounds.c - column bounds: an interval for a node's value over one column and a range of
 * rows, from the program's range analysis (ir/passes.c infer_ranges) sharpened by what the
 * column fixes: its 2-D nodes' exact values, y-gradients over the rows, the interpolated nodes'
 * corner columns and corner rows. The top-down surface search (heights.c) skips the windows
 * where the density provably is not > 0 (above the terrain: the y-gradients of depth and the
 * top slide against the noises' amplitude bounds), so a sample computes only the rows near
 * its surface.
 *
 * Soundness: a node takes part only where its whole subtree is "safe" (every range finite
 * within +-1e37 and no kind that makes NaN or infinity from finite inputs: div, sqrt, log,
 * pow, reciprocal), so every value below it is finite; each interval is then the
 * range analysis' rule on the children's intervals, widened by 1e-6 relative + 1e-30 for the
 * float roundings (as infer_ranges), or an exact value (a 2-D node's value at the column,
 * computed by the evaluator as the fill computes it). Anything else (unsafe nodes, a
 * gradient that repeats, too many corner columns) gives no bound, and the search computes
 * the rows as before: a bound never changes a value, only which rows are computed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include "kernels/cf_math.h"
#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"
#include "cpu/fill.h"
#define CF_RNG_NEVER_NAN /* the intervals here are checked: never NaN (ir/ranges.h) */
#include "ir/ranges.h"

enum { HB_SLOTS = 24, HB_COLS = 16 };
/* old_blended_noise's octave faces in a y cell over a column (octave_faces, below) */
typedef struct bn_face {
    int32_t x, z, j, s; /* the key: column, y cell, stack (s -1: empty) */
    double c[2], sl[2];
} bn_face;
enum { BN_OCTAVES = 32 }; /* octaves a stack keeps faces of (the cache: 2 stacks, 2 y cells) */

struct cf_hbound {
    const cf_program *p;
    int nn;
    uint8_t *safe;  /* 1: the node's subtree is safe (above) */
    uint8_t *exact; /* 1: reads no y and has no interpolated node below: its value per column */
    uint8_t *ydep;  /* 1: its interval may depend on the rows (a y gradient or an interpolated node
                     * at or below it); 0: on the column alone, kept per column across queries */
    /* exact values per column, valid while cst == cstamp (a region) */
    int ncols;
    int32_t colx[HB_COLS], colz[HB_COLS];
    float *cval;
    uint32_t *cst, cstamp;
    /* the intervals of nodes with ydep 0 per column, valid while kst == cstamp */
    double *klo, *khi;
    uint8_t *kok;
    uint32_t *kst;
    /* intervals per (column, rows) slot, valid while sst == sstamp (one query) */
    int nslots;
    int32_t sx[HB_SLOTS], sz[HB_SLOTS], ylo[HB_SLOTS], yhi[HB_SLOTS];
    int scol[HB_SLOTS]; /* the slot's column in the column table (column_of), or -1 */
    double *lo, *hi;
    uint8_t *ok;
    uint32_t *sst, sstamp;
    int blended;  /* old_blended_noise bounded over the rows (blended_bound) */
    bn_face *bnf; /* its octaves' faces: 2 stacks x BN_OCTAVES x 2 y cells */
    int cells; /* this query bounds interpolated nodes by their computed corner rows (hbound_nonpos_cells) */
};

/* 1 / 2: the interval of id may depend on the query's rows / not: a y gradient with its own
 * rule, an interpolated node (its corner rows), or such a node below (memo in s) */
static int node_ydep(const cf_program *p, int id, uint8_t *s)
{
    if (s[id]) return s[id];
    const cf_node *n = &p->nodes[id];
    int y = n->kind == NK_INTERPOLATED || n->kind == NK_GRADIENT || n->kind == NK_OLD_BLENDED_NOISE;
    for (int k = 0; !y && k < n->nin; k++) y = node_ydep(p, n->in[k], s) == 1;
    return s[id] = y ? 1 : 2;
}

/* 1 / 2: some interpolated node at or below id / none */
static int has_interp(const cf_program *p, int id, uint8_t *s)
{
    if (s[id]) return s[id];
    const cf_node *n = &p->nodes[id];
    int y = n->kind == NK_INTERPOLATED;
    for (int k = 0; !y && k < n->nin; k++) y = has_interp(p, n->in[k], s) == 1;
    return s[id] = y ? 1 : 2;
}

cf_hbound *hbound_new(const cf_program *p)
{
    if (p->prec == PREC_F64) return NULL; /* the float dialect (26.3) only */
    cf_hbound *b = calloc(1, sizeof *b);
    size_t nn = (size_t)p->nnodes + 1;
    if (!b) return NULL;
    b->p = p, b->nn = p->nnodes;
    b->safe = calloc(nn, 1), b->exact = calloc(nn, 1), b->ydep = calloc(nn, 1);
    uint8_t *hi = calloc(nn, 1);
    b->cval = malloc(sizeof(float) * nn * HB_COLS), b->cst = calloc(nn * HB_COLS, sizeof(uint32_t));
    b->klo = malloc(sizeof(double) * nn * HB_COLS), b->khi = malloc(sizeof(double) * nn * HB_COLS);
    b->kok = malloc(nn * HB_COLS), b->kst = calloc(nn * HB_COLS, sizeof(uint32_t));
    b->lo = malloc(sizeof(double) * nn * HB_SLOTS), b->hi = malloc(sizeof(double) * nn * HB_SLOTS);
    b->ok = malloc(nn * HB_SLOTS), b->sst = calloc(nn * HB_SLOTS, sizeof(uint32_t));
    if (!b->safe || !b->exact || !b->ydep || !hi || !b->cval || !b->cst || !b->klo || !b->khi || !b->kok || !b->kst
        || !b->lo || !b->hi || !b->ok || !b->sst) {
        free(hi);
        hbound_free(b);
        return NULL;
    }
    for (int i = 0; i < p->nnodes; i++) {
        ir_finite_below(p, i, b->safe); /* 1 / 2: finite below (ir/passes.c) */
        node_ydep(p, i, b->ydep);
        b->exact[i] = !(p->nodes[i].axes & AX_Y) && has_interp(p, i, hi) == 2;
    }
    free(hi);
    b->cstamp = 1, b->sstamp = 1;
    b->blended = !getenv("CF_NO_BLENDED_BOUND");
    b->bnf = b->blended ? malloc(sizeof(bn_face) * 4 * BN_OCTAVES) : NULL;
    for (int k = 0; b->bnf && k < 4 * BN_OCTAVES; k++) b->bnf[k].s = -1;
    return b;
}

void hbound_free(cf_hbound *b)
{
    if (!b) return;
    free(b->safe), free(b->exact), free(b->ydep), free(b->cval), free(b->cst), free(b->klo), free(b->khi), free(b->kok),
        free(b->kst);
    free(b->lo), free(b->hi), free(b->ok), free(b->sst), free(b->bnf);
    free(b);
}

/* a new region: the exact values kept per column become stale */
void hbound_region(cf_hbound *b)
{
    b->ncols = 0;
    if (++b->cstamp == 0) {
        memset(b->cst, 0, sizeof(uint32_t) * (size_t)(b->nn + 1) * HB_COLS);
        memset(b->kst, 0, sizeof(uint32_t) * (size_t)(b->nn + 1) * HB_COLS);
        b->cstamp = 1;
    }
}


/* ------------------------------------------------------------------ old_blended_noise
 * A bound of old_blended_noise (cf_blended) over one column (x, z) and the rows [ylo, yhi]:
 * the value is a stack's, or a float lerp with a weight in (0, 1) between the min and max
 * limit stacks, so within the hull of their bounds (the main noise is not needed). A stack is
 * the float sum of amp * octave; an octave (cf_smeared, or cf_perlin where q is 0) over the
 * column has fixed x and z lattice cells and fractions, and over the rows its y cell j, y
 * fraction v and fade fraction r; where the rows span at most two y cells each is bounded
 * from its eight gradient dots, which are linear in v: the x and z lerps' weights are fixed, so
 * the value is A(v) + t2 * (B(v) - A(v)) with A the cell's bottom face and B its top face
 * (linear in v) and t2 = smooth(r) in [smooth(r_lo), smooth(r_hi)]; else the octave's global
 * bound (every dot within 2 + the smear's slack). Each octave's interval is widened by 1e-5
 * and the stack's by 4e-6 of its magnitude for the float roundings (values of at most a few
 * units, about ten float operations each). */
enum { BN_GLOBAL_CELLS = 2 }; /* y cells an octave's rows may span before its global bound */
/* octaves under this share of the stack's largest amplitude take their global bound: the
 * low-frequency octaves hold most of the range, and the rest cost more than they tighten
 * (bench/RESULTS.md: 0.4 gave the fewest instructions of 0 / 0.2 / 0.4 / 0.6) */
#define BN_AMP 0.4

/* the interval of c + s * v over v in [v0, v1] */
static void lin_range(double c, double sl, double v0, double v1, double *lo, double *hi)
{
    double a = c + sl * v0, b = c + sl * v1;
    *lo = a < b ? a : b, *hi = a < b ? b : a;
}

/* an octave's faces in y cell j over the column: face y (0: bottom, 1: top) is c[y] + sl[y] * v
 * in the real numbers (the x and z lerps of its four dots; the top's dots read v - 1); pm its
 * permutation, (i, u) and (k, w) the column's x and z cells and fractions */
static void octave_faces(const uint8_t *pm, int32_t i, int32_t j, int32_t k, float u, float w, bn_face *fc)
{
    cf_u32 ui = (cf_u32)i, uj = (cf_u32)j, uk = (cf_u32)k;
    cf_u32 a = pm[ui & 255u], b = pm[(ui + 1u) & 255u];
    double t1 = cf_smoothf(u), t3 = cf_smoothf(w);
    double wx[2] = {1.0 - t1, t1}, wz[2] = {1.0 - t3, t3}, cu[2] = {u, (double)u - 1.0}, cw[2] = {w, (double)w - 1.0};
    for (int y = 0; y < 2; y++) {
        cf_u32 hy[2] = {pm[(a + uj + (cf_u32)y) & 255u], pm[(b + uj + (cf_u32)y) & 255u]};
        double c = 0, sl = 0;
        for (int z = 0; z < 2; z++)
            for (int x = 0; x < 2; x++) {
                cf_u32 g = pm[(hy[x] + uk + (cf_u32)z) & 255u] & 15u;
                double wt = wx[x] * wz[z], gy = cf_grad_y[g];
                c += wt * (cf_grad_x[g] * cu[x] + cf_grad_z[g] * cw[z] - gy * (double)y);
                sl += wt * gy;
            }
        fc->c[y] = c, fc->sl[y] = sl;
    }
}

/* the octave's value over its faces fc with y fractions v in [v0, v1] and fade fractions in
 * [r0, r1] (within [0, 1]): A + t2 * (B - A), and within the hull of the faces (t2 in [0, 1]) */
static void octave_cell(const bn_face *fc, double v0, double v1, double r0, double r1, double *lo, double *hi)
{
    double a0, a1, b0, b1, d0, d1;
    lin_range(fc->c[0], fc->sl[0], v0, v1, &a0, &a1);
    lin_range(fc->c[1], fc->sl[1], v0, v1, &b0, &b1);
    lin_range(fc->c[1] - fc->c[0], fc->sl[1] - fc->sl[0], v0, v1, &d0, &d1);
    double t0 = rng_max((double)cf_smoothf((float)r0) - 1e-6, 0.0), tt = rng_min((double)cf_smoothf((float)r1) + 1e-6, 1.0);
    double p0 = t0 * d0, p1 = t0 * d1, p2 = tt * d0, p3 = tt * d1;
    double l = a0 + rng_min(rng_min(p0, p1), rng_min(p2, p3)), m = a1 + rng_max(rng_max(p0, p1), rng_max(p2, p3));
    *lo = rng_max(l, rng_min(a0, b0)), *hi = rng_min(m, rng_max(a1, b1));
}

/* stack s of the world's tables at the column's scaled coordinates (bx, bz) over the scaled
 * rows [by0, by1] (cf_stack_point's x, y, z before each layer's factor) */
static void stack_bound(const uint8_t *t, int s, int32_t x, int32_t z, double bx, double by0, double by1, double bz,
                        bn_face *cache, double *lo, double *hi)
{
    const uint8_t *st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    const uint8_t *ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    double L = 0, H = 0, mag = 0;
    double amin = 0; /* octaves below BN_AMP of the largest amplitude: their global bound */
    for (int n = 0; n < count; n++) amin = rng_max(amin, fabs(cf_ld_f32(ly + CF_LAYER_BYTES * n + 4)));
    amin *= BN_AMP;
    for (int n = 0; n < count; n++, ly += CF_LAYER_BYTES) {
        const uint8_t *o = t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly);
        double amp = cf_ld_f32(ly + 4), f = cf_ld_f64(ly + 8), q = cf_ld_f64(o + 24), oy = cf_ld_f64(o + 8);
        double e = q > 0 ? 1.0000000116860974e-07 * q + 1e-9 : 0; /* the smear's slack below 0 */
        double ol = -2.0 - e - 1e-5, oh = 2.0 + e + 1e-5;        /* the octave's global bound */
        double ya = by0 * f, yb = by1 * f;
        if (ya > yb) { double tmp = ya; ya = yb, yb = tmp; }
        double Y0 = ya + oy, Y1 = yb + oy;
        /* cf_wrap is the identity, and the rows span at most BN_GLOBAL_CELLS y cells */
        if (fabs(amp) >= amin && ya > -16777216.0 && yb < 16777216.0 && cf_jfloor(Y1) - cf_jfloor(Y0) < BN_GLOBAL_CELLS) {
            int32_t j0 = cf_jfloor(Y0), j1 = cf_jfloor(Y1), i = 0, k = 0, axes = 0;
            float u = 0, w = 0;
            {
                double cl = INFINITY, ch = -INFINITY;
                for (int32_t j = j0; j <= j1; j++) {
                    double r0 = rng_max(Y0 - (double)j, 0.0), r1 = rng_min(Y1 - (double)j, 1.0);
                    double v0 = r0, v1 = r1; /* plain: v is r */
                    if (q > 0) {
                        /* v = r - floor(lim / q + 1e-7) * q, lim the raw y where 0 <= y < r, else r:
                         * with lim = y, r - lim = oy - j, so v in oy - j + [-e, q]; with lim = r, v in
                         * [-e, q] and v <= r */
                        double cj = oy - (double)j;
                        v0 = INFINITY, v1 = -INFINITY;
                        if (yb >= 0 && cj > -1e-9) v0 = rng_min(v0, cj - e), v1 = rng_max(v1, cj + q);
                        if (ya < 0 || cj < 1e-9) v0 = rng_min(v0, -e), v1 = rng_max(v1, rng_min(q, r1) + 1e-9);
                    }
                    /* the faces: kept per (column, y cell) for the sample's next queries */
                    bn_face own = {0, 0, 0, -1, {0, 0}, {0, 0}}, *fc = cache && n < BN_OCTAVES ? &cache[n * 2 + (j & 1)] : &own;
                    if (fc == &own || fc->s != s || fc->j != j || fc->x != x || fc->z != z) {
                        if (!axes) i = cf_axis(bx * f, cf_ld_f64(o), &u), k = cf_axis(bz * f, cf_ld_f64(o + 16), &w), axes = 1;
                        octave_faces(o + 32, i, j, k, u, w, fc);
                        fc->x = x, fc->z = z, fc->j = j, fc->s = s;
                    }
                    double l, h;
                    octave_cell(fc, v0 - 1e-6, v1 + 1e-6, r0, r1, &l, &h);
                    cl = rng_min(cl, l), ch = rng_max(ch, h);
                }
                ol = rng_max(ol, cl - 1e-5), oh = rng_min(oh, ch + 1e-5);
            }
        }
        double p0 = amp * ol, p1 = amp * oh;
        L += rng_min(p0, p1), H += rng_max(p0, p1);
        mag += fabs(amp) * rng_max(fabs(ol), fabs(oh));
    }
    *lo = L - mag * 4e-6 - 1e-30, *hi = H + mag * 4e-6 + 1e-30;
}

/* old_blended_noise node n (stacks from s) at column (x, z) over the rows [ylo, yhi] */
static void blended_bound(const cf_world *w, const cf_node *n, int s, int32_t x, int32_t z, int32_t ylo, int32_t yhi,
                          bn_face *cache, double *lo, double *hi)
{
    double xzm = 684.412 * n->d[0], ym = 684.412 * n->d[1];
    double bx = (double)x * xzm, bz = (double)z * xzm, b0 = (double)ylo * ym, b1 = (double)yhi * ym;
    double l0, h0, l1, h1;
    stack_bound(w->tab, s, x, z, bx, b0, b1, bz, cache, &l0, &h0);
    stack_bound(w->tab, s + 1, x, z, bx, b0, b1, bz, cache ? cache + 2 * BN_OCTAVES : NULL, &l1, &h1);
    *lo = rng_min(l0, l1) - 1e-6, *hi = rng_max(h0, h1) + 1e-6; /* and the lerp's rounding */
}

static int column_of(cf_hbound *b, int32_t x, int32_t z);

/* the slot of column (x, z) over rows [ylo, yhi], -1 when none is left */
static int slot_of(cf_hbound *b, int32_t x, int32_t z, int32_t ylo, int32_t yhi)
{
    for (int s = 0; s < b->nslots; s++)
        if (b->sx[s] == x && b->sz[s] == z && b->ylo[s] == ylo && b->yhi[s] == yhi) return s;
    if (b->nslots == HB_SLOTS) return -1;
    int s = b->nslots++;
    b->sx[s] = x, b->sz[s] = z, b->ylo[s] = ylo, b->yhi[s] = yhi;
    b->scol[s] = column_of(b, x, z);
    return s;
}

/* the index of column (x, z) in the region's column table, added where new; -1 when full */
static int column_of(cf_hbound *b, int32_t x, int32_t z)
{
    int c = 0;
    while (c < b->ncols && (b->colx[c] != x || b->colz[c] != z)) c++;
    if (c == b->ncols) {
        if (c == HB_COLS) return -1;
        b->colx[c] = x, b->colz[c] = z, b->ncols++;
    }
    return c;
}

/* the exact value of a 2-D node at slot s's column, through the fill's evaluator (its column memo) */
static float exact_at(cf_hbound *b, cf_fill *f, int id, int s)
{
    int c = b->scol[s];
    int32_t x = b->sx[s], z = b->sz[s];
    if (c < 0) return eval_f32(f->w, f, MODE_VOLUME, id, x, b->p->min_y, z);
    size_t k = (size_t)c * (size_t)(b->nn + 1) + (size_t)id;
    if (b->cst[k] != b->cstamp) {
        b->cval[k] = eval_f32(f->w, f, MODE_VOLUME, id, x, b->p->min_y, z);
        b->cst[k] = b->cstamp;
    }
    return b->cval[k];
}

static int bound(cf_hbound *b, cf_fill *f, int id, int s, double *lo, double *hi);

/* the children's intervals, or 0 */
#define IN(k, L, H)                                                                                                    \
    double L, H;                                                                                                       \
    if (!bound(b, f, n->in[k], s, &L, &H)) return 0

/* the intervals of node n's first m inputs (at most its own count) in in[], or 0 */
static inline int inputs(cf_hbound *b, cf_fill *f, const cf_node *n, int s, cf_rng *in, int m)
{
    for (int k = 0; k < m && k < n->nin; k++)
        if (!bound(b, f, n->in[k], s, &in[k].lo, &in[k].hi)) return 0;
    return 1;
}

/* the interval of node id in slot s: 1 and [*lo, *hi], or 0 (no bound) */
static int bound_node(cf_hbound *b, cf_fill *f, int id, int s, double *lo, double *hi)
{
    const cf_program *p = b->p;
    const cf_node *n = &p->nodes[id];
    if (b->safe[id] != 1) return 0;
    if (n->kind == NK_CONSTANT || (n->flags & NF_LITERAL)) {
        *lo = *hi = n->f[0];
        return 1;
    }
    if (b->exact[id]) {
        float v = exact_at(b, f, id, s);
        if (!(v >= -1e37f && v <= 1e37f)) return 0;
        *lo = *hi = v;
        return 1;
    }
    double l = n->lo, h = n->hi; /* the range analysis' interval: the default */
    switch (n->kind) {
    case NK_CACHE: case NK_BLEND_DENSITY: {
        IN(0, a0, a1);
        *lo = a0, *hi = a1;
        return 1;
    }
    case NK_INTERPOLATED: {
        /* a lerp of the input at the corners of the cells holding the rows: within the hull of
         * the corner columns that have a weight (x or z on a cell boundary: one of two) */
        int32_t w = n->i[0], ch = n->i[1], x = b->sx[s], z = b->sz[s];
        int32_t x0 = (int32_t)cf_floordiv(x, w) * w, z0 = (int32_t)cf_floordiv(z, w) * w;
        int32_t y0 = (int32_t)cf_floordiv(b->ylo[s], ch) * ch, y1 = ((int32_t)cf_floordiv(b->yhi[s], ch) + 1) * ch;
        int nx = x == x0 ? 1 : 2, nz = z == z0 ? 1 : 2;
        double L = INFINITY, H = -INFINITY;
        if (b->cells) {
            /* the blocks are lerps of these corner values (x and z weights in [0, 1], then the y
             * walk: a + k * ((b - a) / h), k < h), within their hull but for the float roundings
             * of the lerps and of at most h - 1 additions: a few units in the last place of the
             * largest magnitude, widened here by 1e-5 of it */
            for (int k = 0; k < nz; k++)
                for (int i = 0; i < nx; i++) {
                    float cl, cu;
                    if (!fill_interp_hull(f, id, x0 + i * w, z0 + k * w, b->ylo[s], b->yhi[s], &cl, &cu)
                        || !(cl >= -1e37f && cu <= 1e37f))
                        return 0;
                    L = rng_min(L, cl), H = rng_max(H, cu);
                }
            double m = rng_max(fabs(L), fabs(H)) * 1e-5 + 1e-30;
            *lo = rng_max(L - m, n->lo), *hi = rng_min(H + m, n->hi);
            return 1;
        }
        for (int k = 0; k < nz; k++)
            for (int i = 0; i < nx; i++) {
                int t = slot_of(b, x0 + i * w, z0 + k * w, y0, y1);
                double a0, a1;
                if (t < 0 || !bound(b, f, n->in[0], t, &a0, &a1)) return 0;
                L = rng_min(L, a0), H = rng_max(H, a1);
            }
        l = L, h = H;
        break;
    }
    case NK_RANGE_CHOICE: {
        /* the selector's interval decides the branch where it lies on one side (the test is
         * lo <= v < hi on the float value, which the widened interval holds) */
        IN(0, c0, c1);
        if (c0 >= n->f[0] && c1 < n->f[1]) {
            IN(1, a0, a1);
            l = a0, h = a1;
        } else if (c1 < n->f[0] || c0 >= n->f[1]) {
            IN(2, a0, a1);
            l = a0, h = a1;
        } else {
            IN(1, a0, a1);
            IN(2, b0, b1);
            l = rng_min(a0, b0), h = rng_max(a1, b1);
        }
        break;
    }
    case NK_LERP: {
        IN(0, t0, t1);
        if ((t0 == 0 && t1 == 0) || (t0 == 1 && t1 == 1)) { /* the evaluator's a == 0 / a == 1: the input itself */
            IN(t0 == 0 ? 1 : 2, a0, a1);
            *lo = a0, *hi = a1;
            return 1;
        }
        cf_rng in[3] = {rng_of(t0, t1)}, r;
        IN(1, a0, a1);
        IN(2, b0, b1);
        in[1] = rng_of(a0, a1), in[2] = rng_of(b0, b1), r = rng_LERP(in, n->f);
        l = r.lo, h = r.hi;
        break;
    }
    case NK_GRADIENT:
        /* along y and clamped: monotone in y, its values at the rows' ends */
        if (n->i[0] == 1 && n->i[3] == 0) {
            float g0 = cf_gradient(b->ylo[s], n->i[1], n->i[2], n->f[0], n->f[1], 0);
            float g1 = cf_gradient(b->yhi[s], n->i[1], n->i[2], n->f[0], n->f[1], 0);
            *lo = fminf(g0, g1), *hi = fmaxf(g0, g1);
            return 1;
        }
        break;
    case NK_OLD_BLENDED_NOISE:
        /* its limit stacks over the rows (above; CF_NO_BLENDED_BOUND=1: the range analysis') */
        if (b->blended && f->w->node_stack && f->w->node_stack[id] >= 0 && f->w->tab && b->ylo[s] <= b->yhi[s])
            blended_bound(f->w, n, f->w->node_stack[id], b->sx[s], b->sz[s], b->ylo[s], b->yhi[s], b->bnf, &l, &h);
        break;
    case NK_SIGN: case NK_LOG: break; /* the range analysis' interval */
    default: {
        /* the element-wise ops (ir/ranges.h, one case per op of CF_OPS) on the inputs' intervals */
        cf_rng in[3] = {{0, 0}, {0, 0}, {0, 0}}, r;
        switch (n->kind) {
#define HB_OP_CASE(K, N, USE, E)                                                                                       \
    case NK_##K:                                                                                                       \
        if (!inputs(b, f, n, s, in, N)) return 0;                                                                      \
        r = rng_##K(in, n->f);                                                                                         \
        l = r.lo, h = r.hi;                                                                                            \
        break;
            CF_OPS(HB_OP_CASE)
#undef HB_OP_CASE
        default: break;
        }
        break;
    }
    }
    if (!(l == l) || !(h == h)) return 0;
    /* widen by float rounding (infer_ranges' rule); never wider than the range analysis' */
    l = l - fabs(l) * 1e-6 - 1e-30, h = h + fabs(h) * 1e-6 + 1e-30;
    *lo = rng_max(l, n->lo), *hi = rng_min(h, n->hi);
    return *lo >= -1e37 && *hi <= 1e37;
}
#undef IN

static int bound(cf_hbound *b, cf_fill *f, int id, int s, double *lo, double *hi)
{
    if (b->ydep[id] == 2) { /* the same interval for every query of this column: kept per column */
        int c = b->scol[s];
        if (c >= 0) {
            size_t k = (size_t)c * (size_t)(b->nn + 1) + (size_t)id;
            if (b->kst[k] != b->cstamp) {
                b->kok[k] = (uint8_t)bound_node(b, f, id, s, &b->klo[k], &b->khi[k]);
                b->kst[k] = b->cstamp;
            }
            *lo = b->klo[k], *hi = b->khi[k];
            return b->kok[k];
        }
    }
    size_t k = (size_t)s * (size_t)(b->nn + 1) + (size_t)id;
    if (b->sst[k] != b->sstamp) {
        b->ok[k] = (uint8_t)bound_node(b, f, id, s, &b->lo[k], &b->hi[k]);
        b->sst[k] = b->sstamp;
    }
    *lo = b->lo[k], *hi = b->hi[k];
    return b->ok[k];
}

/* 1 when node id's value in slot s is provably not > 0, goal first: a min is when either input
 * is (its value is one of them: b < a ? b : a), so the other one is not bounded at all (the
 * overworld's noodle caves and their four interpolated nodes' corner rows, beside terrain
 * already proven); a cache, blend_density (their input's value) or an add of a node whose range
 * is exactly 0 (the beardifier: x + 0 is x, or +0 for -0) when its input is; else the interval */
static int nonpos_node(cf_hbound *b, cf_fill *f, int id, int s, int depth)
{
    const cf_node *n = &b->p->nodes[id];
    if (b->safe[id] == 1 && depth < 64) {
        switch (n->kind) {
        case NK_MIN:
            return nonpos_node(b, f, n->in[0], s, depth + 1) || nonpos_node(b, f, n->in[1], s, depth + 1);
        case NK_CACHE: case NK_BLEND_DENSITY: return nonpos_node(b, f, n->in[0], s, depth + 1);
        case NK_ADD:
            for (int k = 0; k < 2; k++) {
                const cf_node *c = &b->p->nodes[n->in[k]];
                if (c->lo == 0.0 && c->hi == 0.0) return nonpos_node(b, f, n->in[1 - k], s, depth + 1);
            }
            break;
        default: break;
        }
    }
    double lo, hi;
    return bound(b, f, id, s, &lo, &hi) && hi <= 0.0;
}

static int nonpos(cf_hbound *b, cf_fill *f, int node, int32_t x, int32_t z, int32_t ylo, int32_t yhi)
{
    if (++b->sstamp == 0) {
        memset(b->sst, 0, sizeof(uint32_t) * (size_t)(b->nn + 1) * HB_SLOTS);
        b->sstamp = 1;
    }
    b->nslots = 0;
    int s = slot_of(b, x, z, ylo, yhi);
    return nonpos_node(b, f, node, s, 0);
}

int hbound_nonpos(cf_hbound *b, cf_fill *f, int node, int32_t x, int32_t z, int32_t ylo, int32_t yhi)
{
    if (!b) return 0;
    b->cells = 0;
    return nonpos(b, f, node, x, z, ylo, yhi);
}

int hbound_nonpos_cells(cf_hbound *b, cf_fill *f, int node, int32_t x, int32_t z, int32_t ylo, int32_t yhi)
{
    if (!b) return 0;
    b->cells = 1;
    int r = nonpos(b, f, node, x, z, ylo, yhi);
    b->cells = 0;
    return r;
}
