/* fill.c - chunk fills on the CPU: the volume driver over the fill plan (ir/plan.c).
 *
 * fill_chunks: per thread a cf_fill context; chunks are
 * handed out one at a time; each block of the volume is the root evaluated on
 * the volume path (eval.c), with the memos above. Output layout: per chunk
 * [y][z][x], y from min_y upward.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/cf_math.h"
#include "cpu/cpu.h"

/* ------------------------------------------------------------------ contexts */

static void fill_free(cf_fill *f)
{
    if (!f) return;
    for (int m = 0; m < 2; m++) free(f->col[m]), free(f->colstamp[m]), free(f->last[m]);
    if (f->vbuf) {
        /* without the program (a pooled context may outlive it): interpolated nodes'
         * entries alias their block buffers, freed below */
        for (int i = 0; i < f->nnodes; i++) {
            int alias = 0;
            for (int k = 0; k < f->ninterp; k++) alias |= f->vbuf[i] == f->interp[k].block;
            if (!alias) free(f->vbuf[i]);
        }
        free(f->vbuf);
    }
    for (int i = 0; f->interp && i < f->ninterp; i++) {
        free(f->interp[i].corner), free(f->interp[i].cstamp), free(f->interp[i].block);
        free(f->interp[i].cidx), free(f->interp[i].cax), free(f->interp[i].caz);
        free(f->interp[i].run), free(f->interp[i].stp);
    }
    free(f->interp);
    free(f->vstamp);
    free(f->scratch);
    free(f->bbuf), free(f->bst);
    corners_free(f->corners);
    free(f);
}

/* the buffer shape of a block-stage node: 1 along axes it does not read */
static void vdims(const cf_fill *f, const cf_node *n, int *dx, int *dy, int *dz)
{
    unsigned a = n->kind == NK_INTERPOLATED ? (AX_X | AX_Y | AX_Z) : n->axes;
    *dx = (a & AX_X) ? f->sx : 1;
    *dy = (a & AX_Y) ? f->sy : 1;
    *dz = (a & AX_Z) ? f->sz : 1;
}

static int32_t window_rows(const cf_program *p);

/* the rows of fill_chunk's windows: two rows of 16 x 16 blocks, the block stage's buffers of
 * a window (2 KB a node, 34 KB for the vanilla overworld) in L1; 1, 2, 4 and 8 rows measured
 * (bench/RESULTS.md): one row pays vec_node's per-call set-up twice as often, 4 and 8 rows
 * were no faster */
enum { FUSED_ROWS = 2 };

/* the most rows a window of a context for sy rows has: fill_chunk's, surface_scan's */
static int32_t window_max(const cf_program *p, int32_t sy)
{
    int32_t m = window_rows(p);
    if (m < FUSED_ROWS) m = FUSED_ROWS;
    return m < sy ? m : sy;
}

static cf_fill *fill_new(const cf_world *w, int32_t sx, int32_t sy, int32_t sz)
{
    const cf_program *p = w->prog;
    cf_fill *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->w = w, f->pool.w = w;
    f->wmax = window_max(p, sy);
    f->isa = rowop_isa();
    f->share = !getenv("CF_NO_CORNER_SHARE");
    f->nnodes = p->nnodes;
    f->sx = sx, f->sy = sy, f->sz = sz;
    f->memo = p->memo;
    f->colslot = p->colslot;
    f->islot = p->islot;
    f->colstride = (sx + 1) * (sz + 1);
    size_t ncol = (size_t)(p->ncol ? p->ncol : 1) * (size_t)f->colstride;
    for (int m = 0; m < 2; m++) {
        f->col[m] = malloc(sizeof(float) * ncol);
        f->colstamp[m] = calloc(ncol, sizeof(uint32_t));
        f->last[m] = calloc((size_t)p->nnodes + 1, sizeof(cf_memo));
        if (!f->col[m] || !f->colstamp[m] || !f->last[m]) goto fail;
    }
    f->ninterp = p->ninterp;
    f->interp = calloc((size_t)p->ninterp + 1, sizeof *f->interp);
    if (!f->interp) goto fail;
    for (int i = 0; i < p->nnodes; i++) {
        if (p->islot[i] < 0) continue;
        const cf_node *n = &p->nodes[i];
        struct cf_interp *ip = &f->interp[p->islot[i]];
        size_t nc = (size_t)(sx / n->i[0] + 3) * (size_t)(sy / n->i[1] + 3) * (size_t)(sz / n->i[0] + 3);
        ip->corner = malloc(sizeof(float) * nc);
        ip->cstamp = calloc(nc, sizeof(uint32_t));
        ip->block = malloc(sizeof(float) * (size_t)sx * (size_t)f->wmax * (size_t)sz);
        ip->cidx = malloc(sizeof(size_t) * ((size_t)sx + (size_t)sz));
        ip->cax = malloc(sizeof(float) * (size_t)sx), ip->caz = malloc(sizeof(float) * (size_t)sz);
        ip->run = malloc(sizeof(float) * (size_t)sx * (size_t)sz), ip->stp = malloc(sizeof(float) * (size_t)sx * (size_t)sz);
        if (!ip->corner || !ip->cstamp || !ip->block || !ip->cidx || !ip->cax || !ip->caz || !ip->run || !ip->stp) goto fail;
        if (sx / n->i[0] + 3 > CF_MAX_CORNERS_X) goto fail; /* regions are at most 16 wide */
    }
    f->vbuf = calloc((size_t)p->nnodes + 1, sizeof(float *));
    f->vstamp = calloc((size_t)p->nnodes + 1, sizeof(uint32_t));
    /* a row of each of vec_node's inputs */
    f->scratch = malloc(sizeof(float) * 3 * (size_t)sx * (size_t)sz);
    if (!f->vbuf || !f->vstamp || !f->scratch) goto fail;
    for (int k = 0; k < p->nvlist; k++) {
        int id = p->vlist[k];
        const cf_node *n = &p->nodes[id];
        if (n->kind == NK_INTERPOLATED) continue; /* aliases the block buffer */
        int dx, dy, dz;
        vdims(f, n, &dx, &dy, &dz);
        if (dy > 1) dy = f->wmax; /* the rows of a window */
        if (!(f->vbuf[id] = malloc(sizeof(float) * (size_t)dx * (size_t)dy * (size_t)dz))) goto fail;
    }
    f->corners = corners_new(w, sx, sy, sz); /* NULL: every corner through the evaluator */
    /* the corner rows' node buffers (eval.c corner_row): a row has at most (sx/w + 3) x (sz/w + 3)
     * corners; without them (CF_NO_CORNER_ROWS=1, benchmarks) every corner on its own */
    int cmin = 0;
    for (int i = 0; i < p->nnodes; i++)
        if (p->islot[i] >= 0 && (cmin == 0 || p->nodes[i].i[0] < cmin)) cmin = p->nodes[i].i[0];
    if (cmin > 0 && !getenv("CF_NO_CORNER_ROWS")) {
        f->bcap = (sx / cmin + 3) * (sz / cmin + 3);
        f->bbuf = malloc(sizeof(float) * (size_t)f->bcap * ((size_t)p->nnodes + 1));
        f->bst = calloc((size_t)p->nnodes + 1, sizeof(uint32_t));
        if (!f->bbuf || !f->bst) goto fail;
    }
    return f;
fail:
    fill_free(f);
    return NULL;
}

/* ------------------------------------------------------------------ the context pool
 * A fill context costs a few MB of buffers (the overworld: about 8 MB); made afresh per
 * call, its first touches are page faults (about a quarter of a lone chunk's time): a world
 * keeps the contexts its fills have used idle (pool.c), at most 64. A context's memos are
 * keyed by its stamp (fill_region), so a reused context gives the same values as a new one. */
static cf_pool fill_pool = CF_POOL_INIT(64);

static int fill_fits(const cf_pooled *o, const void *arg)
{
    const cf_fill *f = CF_POOLED(o, cf_fill);
    const int32_t *s = arg;
    return f->sx == s[0] && f->sy == s[1] && f->sz == s[2];
}

/* an idle context of w with this region size, or a new one (NULL: out of memory) */
static cf_fill *fill_take(const cf_world *w, int32_t sx, int32_t sy, int32_t sz)
{
    int32_t s[3] = {sx, sy, sz};
    cf_pooled *o = pool_take(&fill_pool, w, fill_fits, s);
    if (!o) return fill_new(w, sx, sy, sz);
    cf_fill *f = CF_POOLED(o, cf_fill);
    f->count = NULL;
    return f;
}

/* gives f back to its world's idle list (freed beyond the pool's limit) */
static void fill_give(cf_fill *f)
{
    if (f && pool_give(&fill_pool, &f->pool)) fill_free(f);
}

void fill_pool_drop(const cf_world *w)
{
    for (cf_pooled *o = pool_drop(&fill_pool, w), *next; o; o = next) {
        next = o->next;
        fill_free(CF_POOLED(o, cf_fill));
    }
    ctx64_pool_drop(w);     /* the double dialects' contexts (fill121.c) */
    blocks121_pool_drop(w); /* the 1.21 block fills' contexts (aquifer121.c) */
}

/* the block stage's buffers and the interpolation rows become stale */
static void next_window(cf_fill *f)
{
    if (++f->wstamp == 0) {
        const cf_program *p = f->w->prog;
        memset(f->vstamp, 0, ((size_t)p->nnodes + 1) * sizeof(uint32_t));
        for (int i = 0; i < f->ninterp; i++) f->interp[i].bstamp = 0;
        f->wstamp = 1;
    }
}

/* Corners shared between neighbouring chunks: a corner value is a pure function of the
 * node, the corner's position and the volume's min y, so when a chunk region follows the
 * context's last one along +x or +z (same min y) the corners of the last one's +x / +z face
 * are this one's -x / -z face: they are moved, not computed (5 of 25 corner columns a
 * chunk along a row of chunks). Chunk regions only (16 wide: a 1 x 1 corner_region stamps
 * neighbour corners it never computed). CF_NO_CORNER_SHARE=1 turns it off (benchmarks). */
static void share_corners(cf_fill *f, struct cf_interp *ip, const int32_t *old, uint32_t ost)
{
    /* old: the last region's cx0, cy0, cz0, ncx, ncy, ncz (the layout of the corner buffer; a
     * cell width that does not divide 16 changes the counts from one chunk to the next) */
    int64_t di = (int64_t)ip->cx0 - old[0], dk = (int64_t)ip->cz0 - old[2];
    if (ip->cy0 != old[1] || ip->ncx != old[3] || ip->ncy != old[4] || ip->ncz != old[5]) return;
    if (di < 0 || dk < 0 || (di == 0 && dk == 0) || di >= ip->ncx || dk >= ip->ncz) return;
    size_t ncx = (size_t)ip->ncx, ncy = (size_t)ip->ncy;
    /* ascending: a source index is never below its destination, so no source is overwritten first */
    for (size_t k = 0; k + (size_t)dk < (size_t)ip->ncz; k++)
        for (size_t j = 0; j < ncy; j++)
            for (size_t i = 0; i + (size_t)di < ncx; i++) {
                size_t d = (k * ncy + j) * ncx + i, s = ((k + (size_t)dk) * ncy + j) * ncx + i + (size_t)di;
                if (ip->cstamp[s] != ost) continue;
                ip->corner[d] = ip->corner[s];
                ip->cstamp[d] = f->stamp;
            }
}

/* points a context at a new region; every memo becomes stale */
static void fill_region(cf_fill *f, int32_t x0, int32_t y0, int32_t z0)
{
    const cf_program *p = f->w->prog;
    uint32_t ost = f->stamp;
    int share = f->share && ost != 0 && f->sx == 16 && f->sz == 16 && f->y0 == y0;
    f->x0 = x0, f->y0 = y0, f->z0 = z0;
    f->vol_min_y = y0;
    f->wy0 = 0, f->wy1 = f->sy;
    if (++f->stamp == 0) { /* wrapped: clear every stamp */
        size_t ncol = (size_t)(p->ncol ? p->ncol : 1) * (size_t)f->colstride;
        for (int m = 0; m < 2; m++) {
            memset(f->colstamp[m], 0, ncol * sizeof(uint32_t));
            memset(f->last[m], 0, ((size_t)p->nnodes + 1) * sizeof(cf_memo));
        }
        for (int i = 0; i < p->nnodes; i++) {
            if (p->islot[i] < 0) continue;
            const cf_node *n = &p->nodes[i];
            size_t nc = (size_t)(f->sx / n->i[0] + 3) * (size_t)(f->sy / n->i[1] + 3) * (size_t)(f->sz / n->i[0] + 3);
            memset(f->interp[p->islot[i]].cstamp, 0, nc * sizeof(uint32_t));
            f->interp[p->islot[i]].bstamp = 0;
            f->interp[p->islot[i]].colst = 0;
            f->interp[p->islot[i]].runst = 0;
        }
        memset(f->vstamp, 0, ((size_t)p->nnodes + 1) * sizeof(uint32_t));
        f->stamp = 1;
        f->wstamp = 0;
        corners_clear(f->corners);
        share = 0;
    }
    corners_region(f->corners, x0, y0, z0, f->sx, f->sy, f->sz);
    next_window(f);
    for (int i = 0; i < p->nnodes; i++) {
        if (p->islot[i] < 0) continue;
        const cf_node *n = &p->nodes[i];
        struct cf_interp *ip = &f->interp[p->islot[i]];
        int32_t w = n->i[0], h = n->i[1];
        int32_t old[6] = {ip->cx0, ip->cy0, ip->cz0, ip->ncx, ip->ncy, ip->ncz};
        ip->cx0 = (int32_t)cf_floordiv(x0, w), ip->cy0 = (int32_t)cf_floordiv(y0, h), ip->cz0 = (int32_t)cf_floordiv(z0, w);
        ip->ncx = (int)(cf_floordiv((int64_t)x0 + f->sx - 1, w) + 1 - ip->cx0 + 1);
        ip->ncy = (int)(cf_floordiv((int64_t)y0 + f->sy - 1, h) + 1 - ip->cy0 + 1);
        ip->ncz = (int)(cf_floordiv((int64_t)z0 + f->sz - 1, w) + 1 - ip->cz0 + 1);
        if (share) share_corners(f, ip, old, ost);
    }
}

/* one block-stage node over the region, from its children's buffers (the volume
 * forms of eval.c, element by element) or per element through eval_f32 */
static void vec_node(cf_fill *f, int id);

/* a block-stage node's buffer for this chunk, computed on first use */
static const float *vec_get(cf_fill *f, int id)
{
    const cf_node *n = &f->w->prog->nodes[id];
    /* a node without y has one value per column: computed once per region */
    uint32_t st = n->kind == NK_INTERPOLATED || (n->axes & AX_Y) ? f->wstamp : f->stamp;
    if (f->vstamp[id] != st) {
        vec_node(f, id);
        f->vstamp[id] = st;
    }
    return f->vbuf[id];
}

/* 1 when every element of node id's buffer satisfies lo <= v < hi (mode 0), fails
 * it (mode 1), or equals v0 (mode 2) */
static int vec_all(cf_fill *f, int id, int mode, float lo, float hi)
{
    int dx, dy, dz;
    vdims(f, &f->w->prog->nodes[id], &dx, &dy, &dz);
    const float *b = vec_get(f, id);
    size_t plane = (size_t)dx * (size_t)dz;
    size_t n = dy > 1 ? (size_t)(f->wy1 - f->wy0) * plane : plane;
    size_t m = rowop_count(f->isa, b, n, mode == 2, lo, hi);
    return mode == 1 ? m == 0 : m == n;
}

static void vec_node(cf_fill *f, int id)
{
    const cf_program *p = f->w->prog;
    const cf_node *n = &p->nodes[id];
    int dx, dy, dz;
    vdims(f, n, &dx, &dy, &dz);
    if (n->kind == NK_INTERPOLATED) {
        struct cf_interp *ip = &f->interp[p->islot[id]];
        if (ip->bstamp != f->wstamp) fill_interp_blocks(f, id);
        f->vbuf[id] = ip->block;
        return;
    }
    float *out = f->vbuf[id];
    /* the window's rows (a node without y has one row), at 0 in the buffer */
    int nrow = dy > 1 ? f->wy1 - f->wy0 : 1;
    if (f->count && p->vop[id]) f->count[id] += (uint32_t)(dx * nrow * dz);
    if (!p->vop[id]) {
        for (int r = 0; r < nrow; r++)
            for (int z = 0; z < dz; z++)
                for (int x = 0; x < dx; x++)
                    out[((size_t)r * (size_t)dz + (size_t)z) * (size_t)dx + (size_t)x] =
                        eval_f32(f->w, f, MODE_VOLUME, id, f->x0 + x, f->y0 + (dy > 1 ? f->wy0 + r : 0), f->z0 + z);
        return;
    }
    /* children: buffer and strides (0 along axes the child does not read); a branch
     * that no element takes is not computed at all (range_choice, lerp) */
    int need[3] = {1, 1, 1};
    if (n->kind == NK_RANGE_CHOICE) {
        if (vec_all(f, n->in[0], 0, n->f[0], n->f[1])) need[2] = 0;
        else if (vec_all(f, n->in[0], 1, n->f[0], n->f[1])) need[1] = 0;
    } else if (n->kind == NK_LERP) {
        if (vec_all(f, n->in[0], 2, 0.0f, 0.0f)) need[2] = 0;
        else if (vec_all(f, n->in[0], 2, 1.0f, 0.0f)) need[1] = 0;
    }
    const float *cb[3] = {0};
    size_t sx[3] = {0}, sy[3] = {0}, sz[3] = {0};
    for (int k = 0; k < n->nin && k < 3; k++) {
        if (!need[k]) continue;
        const cf_node *c = &p->nodes[n->in[k]];
        int cx, cy, cz;
        vdims(f, c, &cx, &cy, &cz);
        cb[k] = vec_get(f, n->in[k]);
        sx[k] = cx > 1 ? 1 : 0;
        sz[k] = cz > 1 ? (size_t)cx : 0;
        sy[k] = cy > 1 ? (size_t)cx * (size_t)cz : 0;
    }
    /* a node without y reads its children's y-dependent buffers (an interpolated
     * node always has rows) at the window's first row: its value is the same at every y */
    int lit = n->kind == NK_DIV && (p->nodes[n->in[1]].flags & NF_LITERAL);
    float rcp = lit ? 1.0f / p->nodes[n->in[1]].f[0] : 0.0f;
    if (dx == f->sx && dz == f->sz) {
        /* the fused row operation (rowops.c): whole planes, an input that does not span the
         * plane spread into a scratch row first */
        size_t plane = (size_t)dx * (size_t)dz;
        int whole = 1; /* every input a full plane with the node's rows: one run */
        for (int k = 0; k < n->nin && k < 3; k++)
            if (need[k] && (sx[k] != 1 || sz[k] != (size_t)dx || (nrow > 1 && sy[k] == 0))) whole = 0;
        for (int r = 0; r < (whole ? 1 : nrow); r++) {
            const float *in[3];
            for (int k = 0; k < 3; k++) {
                in[k] = NULL;
                if (k >= n->nin || !need[k]) continue;
                const float *src = cb[k] + (size_t)r * sy[k];
                if (sx[k] == 1 && sz[k] == (size_t)dx) {
                    in[k] = src;
                    continue;
                }
                float *t = f->scratch + (size_t)k * plane;
                if (sx[k] == 0 && sz[k] == 0) { /* one value (a constant) */
                    float v = src[0];
                    for (size_t q = 0; q < plane; q++) t[q] = v;
                    in[k] = t;
                    continue;
                }
                for (int z = 0; z < dz; z++)
                    for (int x = 0; x < dx; x++) t[(size_t)z * (size_t)dx + (size_t)x] = src[(size_t)z * sz[k] + (size_t)x * sx[k]];
                in[k] = t;
            }
            /* every vop kind has an input */
            const float *a = in[0], *b = in[1] ? in[1] : a, *c = in[2] ? in[2] : a;
            rowop(f->isa, n->kind, out + (size_t)r * plane, a, b, c, whole ? plane * (size_t)nrow : plane, n->f[0], n->f[1],
                  lit, rcp);
        }
        return;
    }
#define LOOP(EXPR)                                                                                       \
    for (int y = 0; y < nrow; y++)                                                                       \
        for (int z = 0; z < dz; z++) {                                                                   \
            float *o = out + ((size_t)y * (size_t)dz + (size_t)z) * (size_t)dx;                          \
            const float *A = cb[0] + y * sy[0] + z * sz[0];                                              \
            const float *B = cb[1] ? cb[1] + y * sy[1] + z * sz[1] : A;                                  \
            const float *C = cb[2] ? cb[2] + y * sy[2] + z * sz[2] : A;                                  \
            size_t sxb = cb[1] ? sx[1] : sx[0], sxc = cb[2] ? sx[2] : sx[0];                              \
            for (int x = 0; x < dx; x++) {                                                               \
                float a = A[x * sx[0]], b = B[x * sxb], c = C[x * sxc];                                  \
                (void)b, (void)c;                                                                        \
                o[x] = (EXPR);                                                                           \
            }                                                                                            \
        }
    float lo = n->f[0], hi = n->f[1];
    /* every vop kind has an input, so cb[0] is set (the analyzer cannot know) */
    /* NOLINTBEGIN(clang-analyzer-core.NullDereference) */
    switch (n->kind) {
    case NK_ADD: LOOP(a + b); break;
    case NK_SUB: LOOP(a - b); break;
    case NK_MUL: LOOP(a * b); break;
    case NK_DIV:
        if (lit) {
            LOOP(a * rcp);
        } else {
            LOOP(a / b);
        }
        break;
    case NK_MIN: LOOP(b < a ? b : a); break;
    case NK_MAX: LOOP(b > a ? b : a); break;
    case NK_ABS: LOOP(cf_fabsf(a)); break;
    case NK_NEGATE: LOOP(-a); break;
    case NK_SQUARE: LOOP(a * a); break;
    case NK_CUBE: LOOP((a * a) * a); break;
    case NK_HALF_NEGATIVE: LOOP(a > 0.0f ? a : a * 0.5f); break;
    case NK_QUARTER_NEGATIVE: LOOP(a > 0.0f ? a : a * 0.25f); break;
    case NK_SQUEEZE: {
        LOOP((cf_clampf(a, -1.0f, 1.0f) / 2.0f) - ((cf_clampf(a, -1.0f, 1.0f) * cf_clampf(a, -1.0f, 1.0f)) * cf_clampf(a, -1.0f, 1.0f)) / 24.0f);
        break;
    }
    case NK_CLAMP: LOOP(cf_clampf(a, lo, hi)); break;
    case NK_RANGE_CHOICE: LOOP((a >= lo && a < hi) ? b : c); break;
    case NK_LERP: LOOP(a == 0.0f ? b : a == 1.0f ? c : cf_lerpf(a, b, c)); break;
    default: LOOP(a); break; /* cache, blend_density: the input */
    }
    /* NOLINTEND(clang-analyzer-core.NullDereference) */
#undef LOOP
}

/* one chunk into out[(y*16 + z)*16 + x], in windows of FUSED_ROWS rows from the bottom up:
 * the block stage computes a window's rows node by node in buffers of a window (L1), the
 * interpolations continue their y walks from the row below (fill_interp_blocks), and the
 * root's rows are copied out. A range_choice or lerp whose
 * selector rules a branch out in every block of a window does not compute that branch's
 * buffers there (vec_node's need[]), e.g. vanilla's noodle caves (their four interpolations
 * and the corner rows of their three noises) wherever the noodle toggle is negative in a
 * whole window; the values do not change. */
static void fill_chunk(cf_fill *f, int node, int32_t cx, int32_t cz, float *out)
{
    const cf_program *p = f->w->prog;
    fill_region(f, cx * 16, p->min_y, cz * 16);
    int dx, dy, dz;
    vdims(f, &p->nodes[node], &dx, &dy, &dz);
    int32_t h = p->height;
    for (int32_t y0 = 0; y0 < h; y0 += FUSED_ROWS) {
        f->wy0 = y0;
        f->wy1 = y0 + FUSED_ROWS < h ? y0 + FUSED_ROWS : h;
        next_window(f);
        const float *r = vec_get(f, node);
        if (dx == 16 && dz == 16 && dy > 1) {
            memcpy(out + (size_t)y0 * 256, r, sizeof(float) * 256 * (size_t)(f->wy1 - f->wy0));
            continue;
        }
        for (int32_t y = f->wy0; y < f->wy1; y++)
            for (int32_t z = 0; z < 16; z++)
                for (int32_t x = 0; x < 16; x++)
                    out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] =
                        r[((size_t)(dy > 1 ? y - f->wy0 : 0) * (size_t)dz + (size_t)(dz > 1 ? z : 0)) * (size_t)dx + (size_t)(dx > 1 ? x : 0)];
    }
}

/* what fill_new allocates for a 16 x height x 16 region */
size_t fill_bytes_per_thread(const cf_program *p)
{
    if (p->dialect == DIALECT_MC121) { /* the memo, flat caches, corners, a chunk of doubles (surfaces), the staged fill */
        size_t nf = 0, ni = 0, ncxz = 16 / (size_t)p->cell_xz, ncy = (size_t)p->height / (size_t)p->cell_y;
        for (int i = 0; i < p->nnodes; i++) nf += p->nodes[i].kind == NK_M_FLAT_CACHE, ni += p->nodes[i].kind == NK_M_INTERPOLATED;
        return (sizeof(ev64_memo) + sizeof(int)) * ((size_t)p->nnodes + 1) + 12 * 25 * nf
               + 12 * (ncxz + 1) * (ncxz + 1) * (ncy + 1) * ni + sizeof(double) * (size_t)p->height * 256
               + (p->blocks ? blocks121_bytes(p) : 0) + fill121_bytes(p);
    }
    if (p->prec == PREC_F64) return sizeof(ev64_memo) * ((size_t)p->nnodes + 1);
    size_t sx = 16, sy = (size_t)p->height, sz = 16, n = (size_t)p->nnodes + 1;
    size_t wy = (size_t)window_max(p, p->height); /* the rows of the block stage's buffers */
    size_t b = sizeof(cf_fill);
    b += 2 * (size_t)(p->ncol ? p->ncol : 1) * (sx + 1) * (sz + 1) * (sizeof(float) + sizeof(uint32_t));
    b += 2 * n * sizeof(cf_memo) + n * (sizeof(float *) + sizeof(uint32_t)) + 3 * sx * sz * sizeof(float);
    if (p->blocks) b += sx * sy * sz * sizeof(float) + aquifer_bytes(p); /* the density of a chunk, the aquifer */
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *nd = &p->nodes[i];
        if (p->islot[i] >= 0) {
            size_t nc = (sx / (size_t)nd->i[0] + 3) * (sy / (size_t)nd->i[1] + 3) * (sz / (size_t)nd->i[0] + 3);
            b += sizeof(struct cf_interp) + nc * (sizeof(float) + sizeof(uint32_t)) + sx * wy * sz * sizeof(float)
                 + (sx + sz) * (sizeof(size_t) + sizeof(float)) + 2 * sx * sz * sizeof(float);
        }
    }
    for (int k = 0; k < p->nvlist; k++) {
        const cf_node *nd = &p->nodes[p->vlist[k]];
        if (nd->kind == NK_INTERPOLATED) continue;
        b += sizeof(float) * ((nd->axes & AX_X) ? sx : 1) * ((nd->axes & AX_Y) ? wy : 1) * ((nd->axes & AX_Z) ? sz : 1);
    }
    return b;
}

/* refuses a fill over the memory limit, with the figures */
static cf_status check_memory(const cf_program *p, int threads, cf_error *err)
{
    size_t per = fill_bytes_per_thread(p);
    if (p->max_fill_bytes && (double)per * threads > (double)p->max_fill_bytes)
        return err_set(err, CF_ERR_LIMIT,
                       "%s: a fill needs %.1f MiB per thread (%.1f MiB for %d threads), over the limit of %.1f MiB"
                       " (--max-memory)",
                       p->settings_id, per / 1048576.0, per * (double)threads / 1048576.0, threads,
                       p->max_fill_bytes / 1048576.0);
    return CF_OK;
}

/* ------------------------------------------------------------------ threads */

/* runs fn(arg) on `threads` threads (the caller's thread alone when 1, or when none
 * can be started) and waits for them; -1 when out of memory */
static int run_threads(void *(*fn)(void *), void *arg, int threads)
{
    if (threads <= 1) {
        fn(arg);
        return 0;
    }
    pthread_t *t = malloc(sizeof(pthread_t) * (size_t)threads);
    if (!t) return -1;
    int started = 0;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&t[i], NULL, fn, arg) != 0) break;
        started++;
    }
    if (started == 0) fn(arg);
    for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
    free(t);
    return 0;
}

typedef struct job {
    const cf_world *w;
    int node;
    size_t n;
    const int32_t *chunks;
    float *out;
    size_t per_chunk;
    atomic_size_t next;
    atomic_int failed;
    uint8_t *bytes; /* block fills: the palette indices */
    /* the surface stage (surface.c): the biomes of each chunk's area, their names, the zoom seed */
    const uint8_t *bgrid;
    size_t bgrid_len;
    const char *const *bnames;
    int nb;
    int64_t zseed;
    int threads; /* job_take's runs */
} job;

/* the next run of chunks [*i, *end) of j, 0 when none is left. Consecutive chunks of the list
 * (neighbours along x in an area, z outer) on one context share their corner faces
 * (share_corners), so a thread takes a run of them: a quarter of its share of what is left,
 * at most 16, down to single chunks at the end (no thread waits long for another's run) */
static int job_take(job *j, size_t *i, size_t *end)
{
    size_t cur = atomic_load(&j->next), left = cur < j->n ? j->n - cur : 0;
    size_t run = left / ((size_t)(j->threads > 0 ? j->threads : 1) * 4);
    run = run < 1 ? 1 : run > 16 ? 16 : run;
    *i = atomic_fetch_add(&j->next, run);
    if (*i >= j->n || atomic_load(&j->failed)) return 0;
    *end = *i + run < j->n ? *i + run : j->n;
    return 1;
}

static void *worker(void *arg)
{
    job *j = arg;
    cf_fill *f = fill_take(j->w, 16, j->w->prog->height, 16);
    if (!f) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    size_t i, end;
    while (job_take(j, &i, &end))
        for (; i < end; i++) fill_chunk(f, j->node, j->chunks[2 * i], j->chunks[2 * i + 1], j->out + i * j->per_chunk);
    fill_give(f);
    return NULL;
}

/* block fills: the density of a chunk into a scratch buffer, then the aquifer */
static void *block_worker(void *arg)
{
    job *j = arg;
    const cf_program *p = j->w->prog;
    cf_fill *f = fill_take(j->w, 16, p->height, 16);
    cf_aquifer *a = aquifer_new(j->w);
    float *dens = malloc(sizeof(float) * j->per_chunk);
    if (!f || !a || !dens) {
        atomic_store(&j->failed, 1);
    } else {
        size_t i, end;
        while (job_take(j, &i, &end))
            for (; i < end; i++) {
                int32_t cx = j->chunks[2 * i], cz = j->chunks[2 * i + 1];
                fill_chunk(f, j->node, cx, cz, dens);
                aquifer_chunk(a, cx, cz, dens, j->bytes + i * j->per_chunk);
            }
    }
    free(dens);
    aquifer_free(a);
    fill_give(f);
    return NULL;
}

/* block fills of the 1.18-1.21 dialect: aquifer121.c, a chunk at a time */
static void *block121_worker(void *arg)
{
    job *j = arg;
    cf_blocks121 *a = blocks121_take(j->w); /* the thread's context, from the world's pool */
    if (!a) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        blocks121_chunk(a, j->chunks[2 * i], j->chunks[2 * i + 1], j->bytes + i * j->per_chunk);
    }
    blocks121_give(a);
    return NULL;
}

/* the 1.18-1.21 noise stage, then the surface stage, a chunk at a time */
static void *surface121_worker(void *arg)
{
    job *j = arg;
    cf_blocks121 *a = blocks121_take(j->w); /* the thread's context, from the world's pool */
    cf_surface *s = a ? surface_new(j->w, a, j->bnames, j->nb, j->zseed) : NULL;
    if (!s) {
        blocks121_give(a);
        atomic_store(&j->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        int32_t cx = j->chunks[2 * i], cz = j->chunks[2 * i + 1];
        blocks121_chunk(a, cx, cz, j->bytes + i * j->per_chunk);
        surface_apply(s, cx, cz, j->bgrid + i * j->bgrid_len, j->bytes + i * j->per_chunk, NULL, NULL);
    }
    surface_free(s);
    blocks121_give(a);
    return NULL;
}

/* 26.3: the volume-path values of a rule input over the current chunk, filled on first use */
typedef struct vols {
    cf_fill *f;
    int32_t cx, cz;
    size_t per;
    float *buf[64];
    uint8_t have[64];
} vols;
static const float *vol_of(void *u, int out)
{
    vols *v = u;
    int k = out & 63; /* outputs beyond the aquifer's: at most 64 (frontend) */
    if (!v->buf[k]) v->buf[k] = malloc(sizeof(float) * v->per);
    if (!v->buf[k]) abort(); /* NOLINT: out of memory mid-chunk */
    if (!v->have[k]) fill_chunk(v->f, v->f->w->prog->outputs[out], v->cx, v->cz, v->buf[k]), v->have[k] = 1;
    return v->buf[k];
}

/* 26.3: the noise stage (density, aquifer), then the material pass */
static void *surface263_worker(void *arg)
{
    job *j = arg;
    const cf_program *p = j->w->prog;
    cf_fill *f = fill_take(j->w, 16, p->height, 16);
    cf_aquifer *a = aquifer_new(j->w);
    float *dens = malloc(sizeof(float) * j->per_chunk);
    cf_surface *s = surface_new(j->w, NULL, j->bnames, j->nb, j->zseed);
    vols v = {f, 0, 0, j->per_chunk, {0}, {0}};
    if (!f || !a || !dens || !s) {
        atomic_store(&j->failed, 1);
    } else {
        for (;;) {
            size_t i = atomic_fetch_add(&j->next, 1);
            if (i >= j->n || atomic_load(&j->failed)) break;
            int32_t cx = j->chunks[2 * i], cz = j->chunks[2 * i + 1];
            fill_chunk(f, j->node, cx, cz, dens);
            aquifer_chunk(a, cx, cz, dens, j->bytes + i * j->per_chunk);
            v.cx = cx, v.cz = cz;
            memset(v.have, 0, sizeof v.have);
            surface_apply(s, cx, cz, j->bgrid + i * j->bgrid_len, j->bytes + i * j->per_chunk, vol_of, &v);
        }
    }
    for (int k = 0; k < 64; k++) free(v.buf[k]);
    surface_free(s);
    free(dens);
    aquifer_free(a);
    fill_give(f);
    return NULL;
}

cf_status fill_blocks_surface(const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *bgrid,
                              const char *const *bnames, int nb, int64_t zseed, uint8_t *out, int threads, cf_error *err)
{
    const cf_program *p = w->prog;
    if (!p->blocks || !p->rules || (p->dialect != DIALECT_MC121 && p->dialect != DIALECT_MC263))
        return err_set(err, CF_ERR_ARG, "%s: the surface stage needs noise settings with a surface_rule or material_rule",
                       p->settings_id ? p->settings_id : "program");
    if (n == 0) return CF_OK;
    if (threads <= 0) threads = cpu_count();
    if ((size_t)threads > n) threads = (int)n;
    if (check_memory(p, threads, err) != CF_OK) return err->status;
    job j = {w, p->outputs[0], n, chunks, NULL, (size_t)p->height * 256, 0, 0, out,
             bgrid, (size_t)144 * (size_t)(p->height / 4), bnames, nb, zseed, 0};
    if (run_threads(p->dialect == DIALECT_MC121 ? surface121_worker : surface263_worker, &j, threads) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context (or a palette over 256 blocks)");
    return CF_OK;
}

cf_status fill_chunks_blocks(const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err)
{
    if (!w || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_fill_blocks: bad arguments");
    if (!w->prog->blocks)
        return err_set(err, CF_ERR_ARG, "cf_fill_blocks: the program was not compiled for block fills"
                       " (cf_program_compile_blocks)");
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK,
                           CF_MAX_CHUNK);
    if (n == 0) return CF_OK;
    if (threads <= 0) threads = cpu_count();
    if ((size_t)threads > n) threads = (int)n;
    if (check_memory(w->prog, threads, err) != CF_OK) return err->status;
    job j = {w, w->prog->outputs[0], n, chunks, NULL, (size_t)w->prog->height * 256, 0, 0, out, NULL, 0, NULL, 0, 0, 0};
    j.threads = threads;
    if (run_threads(w->prog->dialect == DIALECT_MC121 ? block121_worker : block_worker, &j, threads) < 0)
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    return CF_OK;
}

int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

/* ------------------------------------------------------------------ double dialects
 * Every block on its own through eval64.c; column by column, y innermost, so a
 * terrain's height (x, 0, z) is computed once per column (the memo). */
typedef struct job64 {
    const cf_world *w;
    int node;
    size_t n;
    const int32_t *chunks;  /* fills: (x, z) chunk pairs */
    double *out;
    int32_t x0, z0, nx, nz, below; /* surfaces: the first sample, samples per axis */
    int32_t step;                  /* surfaces: blocks between samples */
    const int32_t *cxs, *czs;      /* DIALECT_MC121 surfaces: the chunks that hold samples */
    size_t ncxs;
    int32_t *hout;
    atomic_size_t next;
    atomic_int failed;
    int final; /* DIALECT_MC121: the output is router:final_density (cell-cache order, + beardifier 0.0) */
} job64;

/* a 1.21 chunk: NoiseChunk's markers; block densities go through the cell cache
 * (lerp x, y, z) and get the beardifier's 0.0 added, other outputs interpolate y, x, z
 * (as the oracle's chunk mode). The staged fill (fill121.c) where the program has one,
 * else every block through eval64.c */
static void fill121_chunk(ev64_ctx *c, cf_fill121 *s, int node, int final, int32_t cx, int32_t cz, double *out)
{
    if (!s) {
        fill121_points(c, node, final, cx, cz, out);
        return;
    }
    fill121_run(s, cx, cz, out);
    eval64_chunk(c, 0, 0, EV64_POINT);
}

static void fill64_chunk(ev64_ctx *c, int node, int32_t cx, int32_t cz, double *out)
{
    const cf_program *p = c->w->prog;
    const cf_node *r = &p->nodes[node];
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            double bx = (double)((int64_t)cx * 16 + x), bz = (double)((int64_t)cz * 16 + z);
            if (node_is_2d(p, r)) {
                /* a 2-D Iris node does not read y: once per column */
                double v = eval_f64(c, node, bx, 0.0, bz);
                for (int y = 0; y < p->height; y++) out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = v;
                continue;
            }
            if (r->kind == NK_LN_TERRAIN) {
                /* eval64's terrain, its height once per column */
                double h = eval_f64(c, r->in[0], bx, 0.0, bz);
                for (int y = 0; y < p->height; y++)
                    out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = ((h * r->d[0]) + r->d[1]) - (double)(p->min_y + y);
                continue;
            }
            for (int y = 0; y < p->height; y++)
                out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = eval_f64(c, node, bx, (double)(p->min_y + y), bz);
        }
}

static void *worker64(void *arg)
{
    job64 *j = arg;
    cf_ctx64 *e = ctx64_take(j->w, j->node, j->final); /* the thread's context, from the world's pool */
    if (!e) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    size_t per = (size_t)j->w->prog->height * 256;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        if (j->w->prog->dialect == DIALECT_MC121) fill121_chunk(&e->c, e->s, j->node, j->final, j->chunks[2 * i], j->chunks[2 * i + 1], j->out + i * per);
        else fill64_chunk(&e->c, j->node, j->chunks[2 * i], j->chunks[2 * i + 1], j->out + i * per);
    }
    ctx64_give(e);
    return NULL;
}

/* surfaces: one work item per row of the area */
static void *surface64(void *arg)
{
    job64 *j = arg;
    const cf_program *p = j->w->prog;
    ev64_ctx c;
    if (eval64_init(&c, j->w) < 0) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    int64_t top = (int64_t)p->min_y + p->height - 1 < j->below ? (int64_t)p->min_y + p->height - 1 : j->below;
    for (;;) {
        size_t r = atomic_fetch_add(&j->next, 1);
        if (r >= (size_t)j->nz || atomic_load(&j->failed)) break;
        for (int32_t x = 0; x < j->nx; x++) {
            int32_t h = p->min_y - 1;
            double bx = (double)((int64_t)j->x0 + (int64_t)x * j->step), bz = (double)((int64_t)j->z0 + (int64_t)r * j->step);
            if (node_is_2d(p, &p->nodes[j->node])) {
                /* a 2-D Iris node does not read y: the top row, or none */
                if (top >= p->min_y && eval_f64(&c, j->node, bx, 0.0, bz) > 0.0) h = (int32_t)top;
                j->hout[r * (size_t)j->nx + (size_t)x] = h;
                continue;
            }
            for (int64_t y = top; y >= p->min_y; y--)
                if (eval_f64(&c, j->node, bx, (double)y, bz) > 0.0) {
                    h = (int32_t)y;
                    break;
                }
            j->hout[r * (size_t)j->nx + (size_t)x] = h;
        }
    }
    eval64_free(&c);
    return NULL;
}

/* the sample index of block coordinate b on the grid first + k*step (k < n), or -1 */
static int64_t sample_index(int64_t b, int32_t first, int32_t step, int32_t n)
{
    int64_t d = b - first;
    if (d < 0 || d % step) return -1;
    return d / step < n ? d / step : -1;
}

/* the chunks along one axis that hold samples first + k*step (k < n), increasing;
 * returns their count (at most n, and at most the chunks the samples span) */
static size_t sample_chunks(int32_t first, int32_t step, int32_t n, int32_t *out)
{
    size_t m = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t c = (int32_t)cf_floordiv((int64_t)first + (int64_t)k * step, 16);
        if (m == 0 || out[m - 1] != c) out[m++] = c;
    }
    return m;
}

/* 1.21 surfaces: the value of a column depends on its chunk (NoiseChunk's caches),
 * so each work item fills one chunk that holds samples and scans those columns */
static void *surface121(void *arg)
{
    job64 *j = arg;
    const cf_program *p = j->w->prog;
    double *v = malloc(sizeof(double) * (size_t)p->height * 256);
    cf_ctx64 *e = v ? ctx64_take(j->w, j->node, j->final) : NULL; /* the thread's context, from the world's pool */
    if (!e) {
        free(v);
        atomic_store(&j->failed, 1);
        return NULL;
    }
    int64_t top = (int64_t)p->min_y + p->height - 1 < j->below ? (int64_t)p->min_y + p->height - 1 : j->below;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        int64_t cx = j->cxs[i % j->ncxs], cz = j->czs[i / j->ncxs];
        fill121_chunk(&e->c, e->s, j->node, j->final, (int32_t)cx, (int32_t)cz, v);
        for (int z = 0; z < 16; z++) {
            int64_t sz = sample_index(cz * 16 + z, j->z0, j->step, j->nz);
            if (sz < 0) continue;
            for (int x = 0; x < 16; x++) {
                int64_t sx = sample_index(cx * 16 + x, j->x0, j->step, j->nx);
                if (sx < 0) continue;
                int32_t h = p->min_y - 1;
                for (int64_t y = top; y >= p->min_y; y--)
                    if (v[((size_t)(y - p->min_y) * 16 + (size_t)z) * 16 + (size_t)x] > 0.0) {
                        h = (int32_t)y;
                        break;
                    }
                j->hout[(size_t)sz * (size_t)j->nx + (size_t)sx] = h;
            }
        }
    }
    ctx64_give(e);
    free(v);
    return NULL;
}

cf_status fill_chunks(const cf_world *w, int fn, size_t n, const int32_t *chunks, void *out, int threads,
                         cf_error *err)
{
    if (!w || fn < 0 || fn >= w->prog->noutputs || (n && (!chunks || !out)))
        return err_set(err, CF_ERR_ARG, "cf_fill_chunks: bad arguments");
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK,
                           CF_MAX_CHUNK);
    if (n == 0) return CF_OK;
    if (threads <= 0) threads = cpu_count();
    if ((size_t)threads > n) threads = (int)n;
    if (check_memory(w->prog, threads, err) != CF_OK) return err->status;
    if (w->prog->prec == PREC_F64) {
        job64 j;
        memset(&j, 0, sizeof j);
        j.w = w, j.node = w->prog->outputs[fn], j.n = n, j.chunks = chunks, j.out = out;
        j.final = strcmp(w->prog->output_names[fn], "router:final_density") == 0;
        if (run_threads(worker64, &j, threads) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
        if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
        return CF_OK;
    }
    job j = {w, w->prog->outputs[fn], n, chunks, out, (size_t)w->prog->height * 256, 0, 0, NULL, NULL, 0, NULL, 0, 0, 0};
    j.threads = threads;
    if (run_threads(worker, &j, threads) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    return CF_OK;
}

/* the window height: a multiple of every interpolation cell height (windows start
 * on cell boundaries, so each row's float walk is the full fill's) */
static int32_t window_rows(const cf_program *p)
{
    int32_t wh = 8;
    for (int i = 0; i < p->nnodes; i++) {
        if (p->nodes[i].kind != NK_INTERPOLATED) continue;
        int32_t h = p->nodes[i].i[1], a = wh, b = h;
        while (b) { int32_t t = a % b; a = b; b = t; }
        if (a <= 0) continue; /* cell heights are positive (the parser checks) */
        wh = wh / a * h;
        if (wh > 64) return p->height;
    }
    return wh;
}

/* the top block of every column of f's region (sx x sz columns, at most 256) whose
 * first column is (x0, z0): out[z*sx + x], min_y - 1 where none; windows of rows from
 * the top down, stopping once every column has its block */
static void surface_scan(cf_fill *f, int node, int32_t below, int32_t *out, int *rows);
static void surface_region(cf_fill *f, int node, int32_t x0, int32_t z0, int32_t below, int32_t *out, int *rows)
{
    fill_region(f, x0, f->w->prog->min_y, z0);
    surface_scan(f, node, below, out, rows);
}

/* the search of surface_region over f's current region */
static void surface_scan(cf_fill *f, int node, int32_t below, int32_t *out, int *rows)
{
    const cf_program *p = f->w->prog;
    int32_t wh = window_rows(p), h = p->height;
    int dx, dy, dz;
    vdims(f, &p->nodes[node], &dx, &dy, &dz);
    int ncol = f->sx * f->sz, left = ncol;
    for (int c = 0; c < ncol; c++) out[c] = p->min_y - 1;
    uint8_t done[256] = {0};
    /* windows [k*wh, (k+1)*wh) in absolute y, from the top down */
    int64_t ymax = (int64_t)p->min_y + h - 1 < below ? (int64_t)p->min_y + h - 1 : below;
    int64_t top = cf_floordiv(ymax, wh) * wh;
    *rows = 0;
    for (int64_t wb = top; left > 0 && wb + wh > p->min_y; wb -= wh) {
        int32_t a = (int32_t)(wb < p->min_y ? p->min_y : wb) - p->min_y;
        int32_t b = (int32_t)(wb + wh > (int64_t)p->min_y + h ? (int64_t)p->min_y + h : wb + wh) - p->min_y;
        f->wy0 = a, f->wy1 = b;
        next_window(f);
        *rows += b - a;
        const float *r = vec_get(f, node);
        int32_t ystart = (int32_t)(ymax - p->min_y) < b - 1 ? (int32_t)(ymax - p->min_y) : b - 1;
        for (int c = 0; c < ncol; c++) {
            if (done[c]) continue;
            int x = c % f->sx, z = c / f->sx;
            for (int32_t y = ystart; y >= a; y--) {
                float v = r[((size_t)(dy > 1 ? y - a : 0) * (size_t)dz + (size_t)(dz > 1 ? z : 0)) * (size_t)dx + (size_t)(dx > 1 ? x : 0)];
                if (v > 0.0f) {
                    out[c] = p->min_y + y;
                    done[c] = 1;
                    left--;
                    break;
                }
            }
        }
    }
}

static void surface_chunk(cf_fill *f, int node, int32_t cx, int32_t cz, int32_t below, int32_t *out, int *rows)
{
    surface_region(f, node, cx * 16, cz * 16, below, out, rows);
}

int fill_surface_chunk(const cf_world *w, int fn, int32_t cx, int32_t cz, int32_t *out, int *rows)
{
    cf_fill *f = fill_new(w, 16, w->prog->height, 16);
    if (!f) return -1;
    surface_chunk(f, w->prog->outputs[fn], cx, cz, INT32_MAX, out, rows);
    fill_free(f);
    return 0;
}

int fill_one_counted(const cf_world *w, int fn, int32_t cx, int32_t cz, float *out, uint32_t *counts)
{
    cf_fill *f = fill_new(w, 16, w->prog->height, 16);
    if (!f) return -1;
    f->count = counts;
    fill_chunk(f, w->prog->outputs[fn], cx, cz, out);
    f->count = NULL;
    fill_free(f);
    return 0;
}

const char *program_plan(const cf_program *p) { return p->plan ? p->plan : ""; }

/* ------------------------------------------------------------------ surface heights */

/* Samples (x0 + i*step, z0 + k*step), i < nx, k < nz. Below SPARSE_STEP blocks between
 * samples a work item fills a whole chunk that holds samples (neighbouring columns
 * share its cell corners and column caches); from SPARSE_STEP on, a work item is one
 * sample's column alone (a 1 x 1 region: its own 2 x 2 corner columns, windowed from
 * the top), so the cost follows the samples, not the blocks between them; from
 * CORNER_STEP on, samples that all lie on cell corner columns take one corner column each
 * (corner_region, where corner_exact proves it exact). The three give the same heights (a region's values do not depend on its extent: corners and
 * caches are keyed by absolute position; tests/test_render.c checks it). */
/* samples on corner columns alone from this step on (corner_region: about 0.2 ms a sample
 * for the vanilla overworld, where a chunk holding 16 samples at step 4 costs 0.11 ms a
 * sample and 4 samples at step 8 0.8 ms: bench/RESULTS.md) */
enum { CORNER_STEP = 8 };
enum { SPARSE_STEP = 10 }; /* a lone column costs about what 100 blocks of a chunk do (bench/RESULTS.md) */

typedef struct sjob {
    const cf_world *w;
    int node;
    int32_t x0, z0, nx, nz, below, step;
    int corner;               /* every sample on corner columns and corner_exact: corner_region */
    const int32_t *cxs, *czs; /* chunk mode: the chunks that hold samples */
    size_t ncxs, nitems;
    int32_t *out;
    atomic_size_t next;
    atomic_int failed;
    atomic_llong rows;
} sjob;

/* ------------------------------------------------------------------ corner columns
 * A sample column at x, z multiples of every interpolation cell width has in-cell x/z
 * fractions 0: fill_interp_blocks computes a = lerp(0, lerp(0, c00, c01), lerp(0, c10, c11))
 * with lerp(t, u, v) = u + t*(v - u) (§11), and the y walk from a and b per column. When
 * v - u is finite, 0*(v - u) is +-0, and u + +-0 is u bit for bit unless u is -0. So when
 * every corner value is finite with differences that cannot overflow (corner_exact: every
 * node under every interpolated node has a finite range within +-1e37 and none of the kinds
 * that make NaN or infinity from finite inputs), and no corner of the sample's own column
 * is -0 (checked after the fact; the sample is then redone with its 2 x 2 corner columns),
 * the neighbour corner columns can hold any finite value: they are stamped 0 and never
 * computed. The sample needs one corner column instead of four. */
static int corner_safe(const cf_program *p, int id, uint8_t *seen)
{
    if (seen[id]) return seen[id] == 1;
    const cf_node *n = &p->nodes[id];
    int ok = n->lo >= -1e37 && n->hi <= 1e37; /* false for NaN and infinite bounds */
    switch (n->kind) {
    case NK_SQRT: case NK_LOG: case NK_POW: case NK_DIV: case NK_RECIPROCAL: ok = 0; break;
    default: break;
    }
    for (int k = 0; ok && k < n->nin; k++) ok = corner_safe(p, n->in[k], seen);
    seen[id] = ok ? 1 : 2;
    return ok;
}

/* 1 when the program's interpolated nodes allow corner columns (above); *w the cell
 * width a sample's x and z must be multiples of (the lcm of the widths) */
static int corner_exact(const cf_program *p, int32_t *w)
{
    if (p->prec == PREC_F64 || p->ninterp == 0) return 0;
    uint8_t *seen = calloc((size_t)p->nnodes + 1, 1);
    if (!seen) return 0;
    int ok = 1;
    int64_t l = 1;
    for (int i = 0; ok && i < p->nnodes; i++) {
        if (p->nodes[i].kind != NK_INTERPOLATED) continue;
        int64_t cw = p->nodes[i].i[0], a = l, b = cw;
        while (b) { int64_t t = a % b; a = b; b = t; }
        l = l / a * cw;
        ok = cw > 0 && l <= 64 && corner_safe(p, p->nodes[i].in[0], seen);
    }
    free(seen);
    *w = (int32_t)l;
    return ok;
}

/* a 1 x 1 region at (x0, z0) on corner columns: the neighbour corner columns (i or k 1) of
 * every interpolated node are stamped 0, and the corner stage computes one column */
static void corner_region(cf_fill *f, int32_t x0, int32_t z0)
{
    const cf_program *p = f->w->prog;
    fill_region(f, x0, p->min_y, z0);
    for (int i = 0; i < p->nnodes; i++) {
        if (p->islot[i] < 0) continue;
        struct cf_interp *ip = &f->interp[p->islot[i]];
        for (int k = 0; k < ip->ncz; k++)
            for (int j = 0; j < ip->ncy; j++)
                for (int c = 0; c < ip->ncx; c++) {
                    if (c == 0 && k == 0) continue;
                    size_t q = ((size_t)k * (size_t)ip->ncy + (size_t)j) * (size_t)ip->ncx + (size_t)c;
                    ip->corner[q] = 0.0f, ip->cstamp[q] = f->stamp;
                }
    }
    /* sx = 1 - w: floordiv(x0 - w, w) + 2 - x0/w = 1 corner column per axis */
    int32_t cw = 1;
    for (int i = 0; i < p->nnodes; i++)
        if (p->islot[i] >= 0) { cw = p->nodes[i].i[0]; break; } /* the corner stage's width (corners_new) */
    corners_region(f->corners, x0, p->min_y, z0, 1 - cw, f->sy, 1 - cw);
}

/* 1 when a corner of the region's own column (i = k = 0) that was computed is -0 */
static int corner_negzero(const cf_fill *f)
{
    const cf_program *p = f->w->prog;
    for (int i = 0; i < p->nnodes; i++) {
        if (p->islot[i] < 0) continue;
        const struct cf_interp *ip = &f->interp[p->islot[i]];
        for (int j = 0; j < ip->ncy; j++) {
            size_t q = (size_t)j * (size_t)ip->ncx;
            if (ip->cstamp[q] == f->stamp && ip->corner[q] == 0.0f && signbit(ip->corner[q])) return 1;
        }
    }
    return 0;
}

static void *surface_worker(void *arg)
{
    sjob *j = arg;
    int sparse = j->corner || j->step >= SPARSE_STEP;
    cf_fill *f = sparse ? fill_take(j->w, 1, j->w->prog->height, 1) : fill_take(j->w, 16, j->w->prog->height, 16);
    if (!f) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    int32_t h[256] = {0};
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->nitems || atomic_load(&j->failed)) break;
        int rows;
        if (sparse) {
            size_t sx = i % (size_t)j->nx, sz = i / (size_t)j->nx;
            int32_t x = (int32_t)((int64_t)j->x0 + (int64_t)sx * j->step), z = (int32_t)((int64_t)j->z0 + (int64_t)sz * j->step);
            if (j->corner) {
                corner_region(f, x, z);
                surface_scan(f, j->node, j->below, h, &rows);
                if (!corner_negzero(f)) {
                    atomic_fetch_add(&j->rows, rows);
                    j->out[i] = h[0];
                    continue;
                }
            }
            surface_region(f, j->node, x, z, j->below, h, &rows);
            atomic_fetch_add(&j->rows, rows);
            j->out[i] = h[0];
            continue;
        }
        int32_t cx = j->cxs[i % j->ncxs], cz = j->czs[i / j->ncxs];
        surface_chunk(f, j->node, cx, cz, j->below, h, &rows);
        atomic_fetch_add(&j->rows, rows);
        for (int z = 0; z < 16; z++) {
            int64_t gz = sample_index((int64_t)cz * 16 + z, j->z0, j->step, j->nz);
            if (gz < 0) continue;
            for (int x = 0; x < 16; x++) {
                int64_t gx = sample_index((int64_t)cx * 16 + x, j->x0, j->step, j->nx);
                if (gx < 0) continue;
                j->out[(size_t)gz * (size_t)j->nx + (size_t)gx] = h[z * 16 + x];
            }
        }
    }
    fill_give(f);
    return NULL;
}

cf_status surface_heights(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t nx, int32_t nz, int32_t below,
                             int32_t *out, int threads, cf_error *err)
{
    return surface_samples(w, fn, x0, z0, 1, nx, nz, below, out, threads, err);
}

cf_status surface_samples(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                             int32_t below, int32_t *out, int threads, cf_error *err)
{
    if (!w || fn < 0 || fn >= w->prog->noutputs || nx <= 0 || nz <= 0 || step <= 0 || !out)
        return err_set(err, CF_ERR_ARG, "cf_surface_samples: bad arguments");
    int64_t lim = (int64_t)CF_MAX_CHUNK * 16;
    int64_t xl = (int64_t)x0 + (int64_t)(nx - 1) * step, zl = (int64_t)z0 + (int64_t)(nz - 1) * step;
    if (x0 < -lim || z0 < -lim || xl > lim + 15 || zl > lim + 15)
        return err_set(err, CF_ERR_ARG, "area outside the block coordinate range");
    if (threads <= 0) threads = cpu_count();
    int32_t cw = 0;
    int corner = step >= CORNER_STEP && corner_exact(w->prog, &cw) && cf_floormod(x0, cw) == 0 &&
                 cf_floormod(z0, cw) == 0 && step % cw == 0;
    int chunked = w->prog->prec == PREC_F64 ? w->prog->dialect == DIALECT_MC121 : step < SPARSE_STEP && !corner;
    int32_t *cxs = NULL, *czs = NULL;
    size_t ncx = 0, ncz = 0;
    if (chunked) {
        cxs = malloc(sizeof(int32_t) * (size_t)nx);
        czs = malloc(sizeof(int32_t) * (size_t)nz);
        if (!cxs || !czs) {
            free(cxs), free(czs);
            return err_set(err, CF_ERR_NOMEM, "out of memory");
        }
        ncx = sample_chunks(x0, step, nx, cxs);
        ncz = sample_chunks(z0, step, nz, czs);
    }
    cf_status st = CF_OK;
    if (w->prog->prec == PREC_F64) {
        job64 j;
        memset(&j, 0, sizeof j);
        j.w = w, j.node = w->prog->outputs[fn], j.x0 = x0, j.z0 = z0, j.nx = nx, j.nz = nz, j.below = below, j.hout = out;
        j.step = step;
        void *(*fnp)(void *) = surface64;
        size_t items = (size_t)nz;
        if (chunked) {
            j.final = strcmp(w->prog->output_names[fn], "router:final_density") == 0;
            j.cxs = cxs, j.czs = czs, j.ncxs = ncx, j.n = items = ncx * ncz;
            fnp = surface121;
        }
        if ((size_t)threads > items) threads = (int)items;
        if (chunked && (st = check_memory(w->prog, threads, err)) != CF_OK) {
        } else if (run_threads(fnp, &j, threads) < 0) st = err_set(err, CF_ERR_NOMEM, "out of memory");
        else if (atomic_load(&j.failed)) st = err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    } else {
        sjob j;
        memset(&j, 0, sizeof j);
        j.w = w, j.node = w->prog->outputs[fn];
        j.x0 = x0, j.z0 = z0, j.nx = nx, j.nz = nz, j.below = below, j.step = step, j.out = out;
        j.corner = corner;
        j.cxs = cxs, j.czs = czs, j.ncxs = ncx;
        j.nitems = chunked ? ncx * ncz : (size_t)nx * (size_t)nz;
        if ((size_t)threads > j.nitems) threads = (int)j.nitems;
        if ((st = check_memory(w->prog, threads, err)) != CF_OK) {
        } else if (run_threads(surface_worker, &j, threads) < 0) st = err_set(err, CF_ERR_NOMEM, "out of memory");
        else if (atomic_load(&j.failed)) st = err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    }
    free(cxs), free(czs);
    return st;
}
