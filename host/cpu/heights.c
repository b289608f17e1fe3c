/* heights.c - surface heights on the CPU: the top block with density > 0 of each column,
 * searched from the top down in windows of rows (surface_scan over fill.c's block stage), for
 * areas of columns (surface_heights) and samples every step blocks (surface_samples: whole
 * chunks, lone columns or corner columns); the double dialects per column (eval64.c) or per
 * chunk (1.21: fill121.c). What render, tiles and /at draw (host/api/map.c).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_math.h"
#include "cpu/cpu.h"
#include "cpu/fill.h"

/* the double dialects' surfaces: the first sample, samples per axis, the chunks that hold
 * samples (1.21) */
typedef struct sjob64 {
    const cf_world *w;
    int node;
    size_t n;
    int32_t x0, z0, nx, nz, below; /* the first sample, samples per axis */
    int32_t step;                  /* blocks between samples */
    const int32_t *cxs, *czs;      /* DIALECT_MC121: the chunks that hold samples */
    size_t ncxs;
    int32_t *hout;
    atomic_size_t next;
    atomic_int failed;
    int final; /* DIALECT_MC121: the output is router:final_density (cell-cache order, + beardifier 0.0) */
} sjob64;

/* surfaces: one work item per row of the area */
static void *surface64(void *arg)
{
    sjob64 *j = arg;
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

/* the samples that lie in chunk (cx, cz): their columns in the chunk (xs, zs) and output
 * indices (at); returns their count */
static int chunk_samples(const sjob64 *j, int64_t cx, int64_t cz, int *xs, int *zs, size_t *at)
{
    int ns = 0;
    for (int z = 0; z < 16; z++) {
        int64_t sz = sample_index(cz * 16 + z, j->z0, j->step, j->nz);
        if (sz < 0) continue;
        for (int x = 0; x < 16; x++) {
            int64_t sx = sample_index(cx * 16 + x, j->x0, j->step, j->nx);
            if (sx < 0) continue;
            xs[ns] = x, zs[ns] = z, at[ns++] = (size_t)sz * (size_t)j->nx + (size_t)sx;
        }
    }
    return ns;
}

/* the samples without their block yet (hout min_y - 1): their top block > 0 among rows
 * yhi down to ylo of the chunk's values v; returns how many found one */
static int scan_rows(sjob64 *j, const double *v, int ns, const int *xs, const int *zs, const size_t *at, int64_t ylo,
                     int64_t yhi)
{
    const cf_program *p = j->w->prog;
    int found = 0;
    for (int k = 0; k < ns; k++) {
        if (j->hout[at[k]] >= p->min_y) continue;
        for (int64_t y = yhi; y >= ylo; y--)
            if (v[((size_t)(y - p->min_y) * 16 + (size_t)zs[k]) * 16 + (size_t)xs[k]] > 0.0) {
                j->hout[at[k]] = (int32_t)y, found++;
                break;
            }
    }
    return found;
}

/* a chunk's samples through the staged fill's parts (fill121_begin, fill121_cells): only the
 * cells that hold a sample column (of a cell with one sample, that column alone), in windows of 4 cell rows from the top down, stopping once
 * every sample has its block (the cells computed are the same bits as a whole chunk's) */
static void sampled121(sjob64 *j, cf_fill121 *s, int64_t cx, int64_t cz, int64_t top, double *v, int ns, const int *xs,
                       const int *zs, const size_t *at)
{
    const cf_program *p = j->w->prog;
    int n = fill121_cells_per_axis(s), cw = 16 / n, left = ns, ch = p->cell_y;
    uint8_t cells[256] = {0};
    /* a cell that holds one sample: that column only (2 + its block in the cell), else the whole cell (1) */
    for (int k = 0; k < ns; k++) {
        uint8_t *c = &cells[(zs[k] / cw) * n + xs[k] / cw];
        *c = *c ? 1 : (uint8_t)(2 + (zs[k] % cw) * cw + xs[k] % cw);
    }
    fill121_begin(s, (int32_t)cx, (int32_t)cz, cells);
    for (int64_t r = top < p->min_y ? -1 : (top - p->min_y) / ch; r >= 0 && left > 0; r -= 4) {
        int64_t rlo = r - 3 < 0 ? 0 : r - 3, ylo = p->min_y + rlo * ch, yhi = p->min_y + (r + 1) * ch - 1;
        if (yhi > top) yhi = top;
        fill121_cells(s, (int32_t)ylo, (int32_t)yhi, cells, v);
        left -= scan_rows(j, v, ns, xs, zs, at, ylo, yhi);
    }
}

/* 1.21 surfaces: the value of a column depends on its chunk (NoiseChunk's caches),
 * so each work item takes one chunk that holds samples: its sampled cells (staged
 * programs), else the whole chunk, and scans those columns */
static void *surface121(void *arg)
{
    sjob64 *j = arg;
    const cf_program *p = j->w->prog;
    double *v = malloc(sizeof(double) * (size_t)p->height * 256);
    cf_ctx64 *e = v ? ctx64_take(j->w, j->node, j->final) : NULL; /* the thread's context, from the world's pool */
    if (!e) {
        free(v);
        atomic_store(&j->failed, 1);
        return NULL;
    }
    int64_t top = (int64_t)p->min_y + p->height - 1 < j->below ? (int64_t)p->min_y + p->height - 1 : j->below;
    int xs[256], zs[256];
    size_t at[256];
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        int64_t cx = j->cxs[i % j->ncxs], cz = j->czs[i / j->ncxs];
        int ns = chunk_samples(j, cx, cz, xs, zs, at);
        for (int k = 0; k < ns; k++) j->hout[at[k]] = p->min_y - 1;
        if (ns == 0) continue;
        if (e->s) {
            sampled121(j, e->s, cx, cz, top, v, ns, xs, zs, at);
            eval64_chunk(&e->c, 0, 0, EV64_POINT);
        } else {
            fill121_chunk(&e->c, e->s, j->node, j->final, (int32_t)cx, (int32_t)cz, v);
            scan_rows(j, v, ns, xs, zs, at, p->min_y, top);
        }
    }
    ctx64_give(e);
    free(v);
    return NULL;
}

/* the top block of every column of f's current region (sx x sz columns, at most 256):
 * out[z*sx + x], min_y - 1 where none; windows of rows from the top down, stopping once
 * every column has its block */
/* windows above the previous sample's lowest proven row where the hint's span stops: the
 * bounds (old_blended_noise over the rows, bounds.c) prove down to about a window above the
 * surface, and a neighbour's surface is often higher (bench/RESULTS.md: 2 fewer instructions
 * than 0, 1 or 3) */
enum { HINT_MARGIN = 2 };
static void surface_scan(cf_fill *f, cf_hbound *hb, int node, int32_t below, int32_t *out, int *rows, int32_t *hint)
{
    const cf_program *p = f->w->prog;
    int32_t wh = fill_window_rows(p), h = p->height;
    int dx, dy, dz;
    fill_vdims(f, &p->nodes[node], &dx, &dy, &dz);
    int ncol = f->sx * f->sz, left = ncol;
    for (int c = 0; c < ncol; c++) out[c] = p->min_y - 1;
    uint8_t done[256] = {0};
    /* windows [k*wh, (k+1)*wh) in absolute y, from the top down */
    int64_t ymax = (int64_t)p->min_y + h - 1 < below ? (int64_t)p->min_y + h - 1 : below;
    int64_t top = cf_floordiv(ymax, wh) * wh;
    *rows = 0;
    /* a lone column (hb): the windows from the top where its bounds prove the value is not > 0
     * are not computed (bounds.c), until the first one that is not proven */
    /* windows proven at once: 8, then 2 where that fails, then none (the corner rows below: a
     * window proven from them costs about what a failed interval proof does) */
    int skip = hb && ncol == 1, span = 8;
    if (skip) hbound_region(hb);
    /* hint (a group's samples): the first span reaches down to the lowest row the spans proved
     * in the sample before; proven like any span (a guess that fails costs one interval pass) */
    int64_t proven = skip ? ymax + 1 : INT64_MIN; /* the lowest row the spans proved (INT64_MIN: told) */
    if (skip && hint && *hint > p->min_y && *hint <= ymax) {
        int64_t lo = cf_floordiv(*hint, wh) * wh + (int64_t)HINT_MARGIN * wh;
        if (lo > p->min_y && lo <= top && hbound_nonpos(hb, f, node, f->x0, f->z0, (int32_t)lo, (int32_t)ymax))
            top = lo - wh, span = 2, proven = lo;
    }
    for (int64_t wb = top; left > 0 && wb + wh > p->min_y; wb -= wh) {
        int32_t a = (int32_t)(wb < p->min_y ? p->min_y : wb) - p->min_y;
        int32_t b = (int32_t)(wb + wh > (int64_t)p->min_y + h ? (int64_t)p->min_y + h : wb + wh) - p->min_y;
        int32_t ystart = (int32_t)(ymax - p->min_y) < b - 1 ? (int32_t)(ymax - p->min_y) : b - 1;
        while (skip && ystart >= a) {
            int64_t lo = wb - (int64_t)(span - 1) * wh; /* the lowest window of the span */
            if (lo < p->min_y) lo = p->min_y;
            if (hbound_nonpos(hb, f, node, f->x0, f->z0, (int32_t)lo, p->min_y + ystart)) {
                wb -= (int64_t)(span - 1) * wh; /* the loop steps past the span's last window */
                proven = lo;
                break;
            }
            if (span <= 2) skip = 0;
            else span /= 4;
        }
        if (skip && ystart >= a) continue;
        if (hint && proven != INT64_MIN) *hint = (int32_t)proven, proven = INT64_MIN; /* the spans' end */
        skip = 0;
        /* below the last window the input intervals prove: proven from the window's corner rows
         * (they are needed to compute it anyway), else its block stage */
        if (hb && ncol == 1 && ystart >= a && hbound_nonpos_cells(hb, f, node, f->x0, f->z0, p->min_y + a, p->min_y + ystart))
            continue;
        f->wy0 = a, f->wy1 = b;
        fill_next_window(f);
        *rows += b - a;
        const float *r = fill_vec_get(f, node);
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

/* surface_scan over the region whose first column is (x0, z0) */
static void surface_region(cf_fill *f, cf_hbound *hb, int node, int32_t x0, int32_t z0, int32_t below, int32_t *out, int *rows)
{
    fill_region(f, x0, f->w->prog->min_y, z0);
    surface_scan(f, hb, node, below, out, rows, NULL);
}

int32_t heights_column(cf_fill *f, cf_hbound *hb, int node, int32_t x, int32_t z, int32_t below, int *rows)
{
    int32_t h = f->w->prog->min_y - 1; /* surface_scan's answer where no block is > 0 */
    surface_region(f, hb, node, x, z, below, &h, rows);
    return h;
}

static void surface_chunk(cf_fill *f, int node, int32_t cx, int32_t cz, int32_t below, int32_t *out, int *rows)
{
    surface_region(f, NULL, node, cx * 16, cz * 16, below, out, rows);
}

int fill_surface_chunk(const cf_world *w, int fn, int32_t cx, int32_t cz, int32_t *out, int *rows)
{
    cf_fill *f = fill_new(w, 16, w->prog->height, 16);
    if (!f) return -1;
    surface_chunk(f, w->prog->outputs[fn], cx, cz, INT32_MAX, out, rows);
    fill_free(f);
    return 0;
}

/* ------------------------------------------------------------------ surface heights */

/* Samples (x0 + i*step, z0 + k*step), i < nx, k < nz. Below SPARSE_STEP blocks between
 * samples a work item fills a whole chunk that holds samples (neighbouring columns
 * share its cell corners and column caches); from SPARSE_STEP on, a work item is one
 * sample's column alone (a 1 x 1 region: its own 2 x 2 corner columns, windowed from
 * the top), so the cost follows the samples, not the blocks between them; from
 * CORNER_STEP on, samples that all lie on cell corner columns take one corner column each
 * (corner_region, where corner_exact proves it exact). The three give the same heights (a region's values do not depend on its extent: corners and
 * caches are keyed by absolute position; tests/test_render.c checks it). */
/* samples on corner columns alone from this step on. At step 4, in groups of lanes and with
 * the corner-row proofs (hbound_nonpos_cells), a sample takes 0.25 M instructions against 0.39 M
 * for its share of a chunk, and a level-2 tile 1.75 s CPU against 2.19 s (bench/RESULTS.md;
 * before the lanes it was the other way round: 11.2 s against 5.9 s) */
enum { CORNER_STEP = 4 };
enum { SPARSE_STEP = 10 }; /* a lone column costs about what 100 blocks of a chunk do (bench/RESULTS.md) */

typedef struct sjob {
    const cf_world *w;
    int node;
    int32_t x0, z0, nx, nz, below, step;
    int corner;               /* every sample on corner columns and corner_exact: corner_region */
    int lanes;                /* corner: samples per work item (a group along x, corner_group) */
    size_t groups;            /* corner: groups per row of samples */
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
 * that make NaN or infinity from finite inputs: ir_finite_below), and no corner of the sample's own column
 * is -0 (checked after the fact; the sample is then redone with its 2 x 2 corner columns),
 * the neighbour corner columns can hold any finite value: they are stamped 0 and never
 * computed. The sample needs one corner column instead of four. */

/* 1 when the interpolated nodes that node reads allow corner columns (above); *w the cell
 * width a sample's x and z must be multiples of (the lcm of their widths). Only the nodes
 * under node count: a program compiled with the noise stage's blocks (the server's, or render
 * of relief and water at once) holds the aquifer's interpolated nodes too (a 16 x 1 cell one
 * whose input is not finite-safe), which the surface scan of node never reads; counting them
 * sent every sample of such a program through four corner columns alone (7x the CPU of a
 * tile of the final density's own program, bench/RESULTS.md) */
static int corner_exact(const cf_program *p, int node, int32_t *w)
{
    if (p->prec == PREC_F64 || p->ninterp == 0 || node < 0 || node >= p->nnodes) return 0;
    uint8_t *seen = calloc((size_t)p->nnodes + 1, 1), *under = calloc((size_t)p->nnodes + 1, 1);
    int *stack = malloc(sizeof(int) * ((size_t)p->nnodes + 1));
    int ok = seen && under && stack, top = 0;
    if (ok) stack[top++] = node, under[node] = 1;
    while (ok && top > 0) { /* the nodes under node: each pushed once */
        const cf_node *n = &p->nodes[stack[--top]];
        for (int k = 0; k < n->nin; k++)
            if (!under[n->in[k]]) under[n->in[k]] = 1, stack[top++] = n->in[k];
    }
    int64_t l = 1;
    int found = 0; /* none under node: not corner columns (as a program without interpolation) */
    for (int i = 0; ok && i < p->nnodes; i++) {
        if (p->nodes[i].kind != NK_INTERPOLATED || !under[i]) continue;
        found = 1;
        int64_t cw = p->nodes[i].i[0], a = l, b = cw;
        while (b) { int64_t t = a % b; a = b; b = t; }
        l = l / a * cw;
        ok = cw > 0 && l <= 64 && ir_finite_below(p, p->nodes[i].in[0], seen);
    }
    free(seen), free(under), free(stack);
    *w = (int32_t)l;
    return ok && found;
}

/* a 1 x 1 region at (x0, z0) on corner columns: the neighbour corner columns (i or k 1) of
 * every interpolated node are stamped 0, and the corner stage computes one column */
static void corner_region(cf_fill *f, int32_t x0, int32_t z0)
{
    const cf_program *p = f->w->prog;
    fill_region(f, x0, p->min_y, z0);
    for (int s = 0; s < f->ninterp; s++) { /* every interpolated node's slot (plan.c: one a node) */
        struct cf_interp *ip = &f->interp[s];
        size_t nx = (size_t)ip->ncx, row = (size_t)ip->ncy * nx, all = (size_t)ip->ncz * row;
        for (size_t j = 0; j < row; j += nx) /* k = 0: the columns c >= 1 */
            for (size_t c = 1; c < nx; c++) ip->corner[j + c] = 0.0f, ip->cstamp[j + c] = f->stamp;
        for (size_t q = row; q < all; q++) ip->corner[q] = 0.0f, ip->cstamp[q] = f->stamp; /* k >= 1: all */
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
    for (int s = 0; s < f->ninterp; s++) {
        const struct cf_interp *ip = &f->interp[s];
        for (int j = 0; j < ip->ncy; j++) {
            size_t q = (size_t)j * (size_t)ip->ncx;
            if (ip->cstamp[q] == f->stamp && ip->corner[q] == 0.0f && signbit(ip->corner[q])) return 1;
        }
    }
    return 0;
}

/* a group of samples on corner columns (j->corner): up to lanes samples along x from (sx0, sz),
 * their noise corners one strided lattice row (corners_samples: each corner row computed for the
 * group in vector lanes), the rest of their corner rows and their 2-D nodes in the group's lanes
 * too (l: eval.c's cf_lanes), each sample's scan as corner_region's; cs NULL: one by one */
static void corner_group(sjob *j, cf_fill *f, cf_hbound *hb, cf_corners *cs, cf_lanes *l, size_t sx0, size_t sz, int n,
                         int32_t *hint)
{
    int32_t z = (int32_t)((int64_t)j->z0 + (int64_t)sz * j->step);
    int32_t xg = (int32_t)((int64_t)j->x0 + (int64_t)sx0 * j->step);
    int shared = cs && corners_samples(cs, xg, f->w->prog->min_y, z, j->step, n, f->w->prog->height) == 0;
    /* the group's corner rows and column memos in lanes (eval.c): with the shared lattice row only */
    if (shared && l && n <= CF_LANES_MAX && n <= f->bcap) {
        lanes_group(l, cs, xg, j->step, z, n);
        f->lanes = l;
    }
    for (int k = 0; k < n; k++) {
        size_t i = sz * (size_t)j->nx + sx0 + (size_t)k;
        int32_t x = (int32_t)((int64_t)xg + (int64_t)k * j->step), h[1];
        int rows;
        h[0] = f->w->prog->min_y - 1; /* surface_scan's none (it writes every column it scans) */
        corner_region(f, x, z);
        if (shared) corners_share(f->corners, cs, k);
        if (f->lanes) lanes_at(l, k);
        surface_scan(f, hb, j->node, j->below, h, &rows, hint);
        corners_share(f->corners, NULL, 0);
        if (f->lanes) lanes_at(l, -1);
        if (!corner_negzero(f)) {
            atomic_fetch_add(&j->rows, rows);
            j->out[i] = h[0];
            continue;
        }
        j->out[i] = heights_column(f, hb, j->node, x, z, j->below, &rows);
        atomic_fetch_add(&j->rows, rows);
    }
    f->lanes = NULL;
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
    /* lone columns skip the rows their bounds rule out (CF_NO_COLUMN_BOUNDS=1: every row, benchmarks) */
    cf_hbound *hb = sparse && !getenv("CF_NO_COLUMN_BOUNDS") ? hbound_new(j->w->prog) : NULL;
    /* corner columns: a strided lattice row per group of samples (CF_NO_SAMPLE_LANES=1: one by one) */
    cf_corners *cs = j->corner && f->corners && !getenv("CF_NO_SAMPLE_LANES")
                         ? corners_new(j->w, 64, j->w->prog->height, 1) : NULL;
    /* and their corner expressions and 2-D nodes in lanes (CF_NO_ROW_LANES=1: one sample at a time) */
    cf_lanes *l = cs && !getenv("CF_NO_ROW_LANES") ? lanes_new(j->w->prog) : NULL;
    int32_t h[256] = {0};
    /* the lowest row the span proofs reached in this thread's last sample (surface_scan's hint;
     * CF_NO_SPAN_HINT=1: none, every sample's spans from the top) */
    int32_t hint0 = INT32_MIN, *hint = getenv("CF_NO_SPAN_HINT") ? NULL : &hint0;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->nitems || atomic_load(&j->failed)) break;
        int rows;
        if (j->corner) { /* item i: group i % groups of row i / groups */
            size_t g = i % j->groups, sz = i / j->groups, sx0 = g * (size_t)j->lanes;
            int n = (size_t)j->nx - sx0 < (size_t)j->lanes ? (int)((size_t)j->nx - sx0) : j->lanes;
            corner_group(j, f, hb, cs, l, sx0, sz, n, hint);
            continue;
        }
        if (sparse) {
            size_t sx = i % (size_t)j->nx, sz = i / (size_t)j->nx;
            int32_t x = (int32_t)((int64_t)j->x0 + (int64_t)sx * j->step), z = (int32_t)((int64_t)j->z0 + (int64_t)sz * j->step);
            j->out[i] = heights_column(f, hb, j->node, x, z, j->below, &rows);
            atomic_fetch_add(&j->rows, rows);
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
    lanes_free(l);
    corners_free(cs);
    hbound_free(hb);
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
    int corner = step >= CORNER_STEP && corner_exact(w->prog, w->prog->outputs[fn], &cw) && cf_floormod(x0, cw) == 0 &&
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
        sjob64 j;
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
        if (chunked && (st = fill_check_memory(w->prog, threads, err)) != CF_OK) {
        } else if (fill_run_threads(fnp, &j, threads) < 0) st = err_set(err, CF_ERR_NOMEM, "out of memory");
        else if (atomic_load(&j.failed)) st = err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    } else {
        sjob j;
        memset(&j, 0, sizeof j);
        j.w = w, j.node = w->prog->outputs[fn];
        j.x0 = x0, j.z0 = z0, j.nx = nx, j.nz = nz, j.below = below, j.step = step, j.out = out;
        j.corner = corner;
        j.cxs = cxs, j.czs = czs, j.ncxs = ncx;
        j.nitems = chunked ? ncx * ncz : (size_t)nx * (size_t)nz;
        if (corner) { /* groups of samples along x: the corner stage's lanes */
            cf_corners *c = corners_new(w, 64, w->prog->height, 1);
            j.lanes = c ? corners_lanes(c) : 1;
            corners_free(c);
            j.groups = ((size_t)nx + (size_t)j.lanes - 1) / (size_t)j.lanes;
            j.nitems = j.groups * (size_t)nz;
        }
        if ((size_t)threads > j.nitems) threads = (int)j.nitems;
        if ((st = fill_check_memory(w->prog, threads, err)) != CF_OK) {
        } else if (fill_run_threads(surface_worker, &j, threads) < 0) st = err_set(err, CF_ERR_NOMEM, "out of memory");
        else if (atomic_load(&j.failed)) st = err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    }
    free(cxs), free(czs);
    return st;
}

