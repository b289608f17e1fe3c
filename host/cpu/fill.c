/* fill.c - a chunk fill on the CPU: the fill context (cf_fill), its pool, the block stage
 * over windows of rows (vec_node) and fill_chunk, the volume driver over the fill plan
 * (ir/plan.c). Each block of the volume is the root evaluated on the volume path (eval.c),
 * with the memos above; out is [y][z][x], y from min_y upward. Threads and jobs: jobs.c;
 * the top-down surface search and sampled heights: heights.c (fill.h between them).
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"
#include "cpu/fill.h"

/* ------------------------------------------------------------------ contexts */

void fill_free(cf_fill *f)
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
    eval_cmap_free(f->cmap);
    free(f);
}

/* the buffer shape of a block-stage node: 1 along axes it does not read */
void fill_vdims(const cf_fill *f, const cf_node *n, int *dx, int *dy, int *dz)
{
    unsigned a = n->kind == NK_INTERPOLATED ? (AX_X | AX_Y | AX_Z) : n->axes;
    *dx = (a & AX_X) ? f->sx : 1;
    *dy = (a & AX_Y) ? f->sy : 1;
    *dz = (a & AX_Z) ? f->sz : 1;
}

/* the rows of fill_chunk's windows: two rows of 16 x 16 blocks, the block stage's buffers of
 * a window (2 KB a node, 34 KB for the vanilla overworld) in L1; 1, 2, 4 and 8 rows measured
 * (bench/RESULTS.md): one row pays vec_node's per-call set-up twice as often, 4 and 8 rows
 * were no faster */
enum { FUSED_ROWS = 2 };

/* the most rows a window of a context for sy rows has: fill_chunk's, surface_scan's */
static int32_t window_max(const cf_program *p, int32_t sy)
{
    int32_t m = fill_window_rows(p);
    if (m < FUSED_ROWS) m = FUSED_ROWS;
    return m < sy ? m : sy;
}

cf_fill *fill_new(const cf_world *w, int32_t sx, int32_t sy, int32_t sz)
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
        fill_vdims(f, n, &dx, &dy, &dz);
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
        if (f->bcap < CF_LANES_MAX) f->bcap = CF_LANES_MAX; /* a group's corner rows (eval.c lanes_row) */
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
cf_fill *fill_take(const cf_world *w, int32_t sx, int32_t sy, int32_t sz)
{
    int32_t s[3] = {sx, sy, sz};
    cf_pooled *o = pool_take(&fill_pool, w, fill_fits, s);
    if (!o) return fill_new(w, sx, sy, sz);
    cf_fill *f = CF_POOLED(o, cf_fill);
    f->count = NULL;
    return f;
}

/* gives f back to its world's idle list (freed beyond the pool's limit) */
void fill_give(cf_fill *f)
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
void fill_next_window(cf_fill *f)
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
void fill_region(cf_fill *f, int32_t x0, int32_t y0, int32_t z0)
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
    fill_next_window(f);
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
const float *fill_vec_get(cf_fill *f, int id)
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
    fill_vdims(f, &f->w->prog->nodes[id], &dx, &dy, &dz);
    const float *b = fill_vec_get(f, id);
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
    fill_vdims(f, n, &dx, &dy, &dz);
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
        fill_vdims(f, c, &cx, &cy, &cz);
        cb[k] = fill_vec_get(f, n->in[k]);
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
    /* the row kinds' ops (kernels/cf_nodes_ops.h: ROW and VOL, the volume path's values) */
#define CF_OP_ROW_CASE(K, N) case NK_##K: LOOP(CF_OP_CALL_##N(K)); break;
    if (lit) {
        LOOP(cf_op_MUL(a, rcp)); /* div by a literal: times its reciprocal */
    } else {
        switch (n->kind) {
            CF_OPS(CF_OP_ROWS)
        case NK_CLAMP: LOOP(cf_op_CLAMP(a, lo, hi)); break;
        case NK_RANGE_CHOICE: LOOP((a >= lo && a < hi) ? b : c); break;
        default: LOOP(a); break; /* cache, blend_density: the input */
        }
    }
    /* NOLINTEND(clang-analyzer-core.NullDereference) */
#undef CF_OP_ROW_CASE
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
void fill_chunk(cf_fill *f, int node, int32_t cx, int32_t cz, float *out)
{
    const cf_program *p = f->w->prog;
    fill_region(f, cx * 16, p->min_y, cz * 16);
    int dx, dy, dz;
    fill_vdims(f, &p->nodes[node], &dx, &dy, &dz);
    int32_t h = p->height;
    for (int32_t y0 = 0; y0 < h; y0 += FUSED_ROWS) {
        f->wy0 = y0;
        f->wy1 = y0 + FUSED_ROWS < h ? y0 + FUSED_ROWS : h;
        fill_next_window(f);
        const float *r = fill_vec_get(f, node);
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
cf_status fill_check_memory(const cf_program *p, int threads, cf_error *err)
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

/* the window height: a multiple of every interpolation cell height (windows start
 * on cell boundaries, so each row's float walk is the full fill's) */
int32_t fill_window_rows(const cf_program *p)
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
