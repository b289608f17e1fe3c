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
    int cells; /* this query bounds interpolated nodes by their computed corner rows (hbound_nonpos_cells) */
};

/* 1 / 2: the interval of id may depend on the query's rows / not: a y gradient with its own
 * rule, an interpolated node (its corner rows), or such a node below (memo in s) */
static int node_ydep(const cf_program *p, int id, uint8_t *s)
{
    if (s[id]) return s[id];
    const cf_node *n = &p->nodes[id];
    int y = n->kind == NK_INTERPOLATED || n->kind == NK_GRADIENT;
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
    return b;
}

void hbound_free(cf_hbound *b)
{
    if (!b) return;
    free(b->safe), free(b->exact), free(b->ydep), free(b->cval), free(b->cst), free(b->klo), free(b->khi), free(b->kok),
        free(b->kst);
    free(b->lo), free(b->hi), free(b->ok), free(b->sst);
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
