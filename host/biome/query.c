/* query.c - the biome queries of a cf_biomes that source.c opened (../shared/BIOMES.md §3-§5,
 * §8): the list search, the climate of quarts (the six router fields, a row's climate noises in
 * lanes through host/cpu/stackrow.c), quarts, blocks (the zoom), the 1:4 grid and chunk fills on
 * threads.
 *
 * Input: a cf_biomes (its list and tree, its climate program and world) and quart or block
 * positions; output: palette indices. Per thread a query context (qctx) holds the evaluators'
 * memos; nothing here changes the cf_biomes but its counters.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "kernels/cf_math.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"

/* ------------------------------------------------------------------ lookups */
int32_t biome_lookup(const cf_biomes *b, const int64_t *t, int32_t warm, int64_t *fit, int *ties)
{
    int32_t leaf = cf_b_search(b->tree, t, warm, fit);
    if (ties) *ties = cf_b_count_at(b->tree, t, *fit);
    return leaf;
}

/* per-thread state of a query run */
typedef struct qctx {
    cf_biomes *b;
    ev64_ctx c; /* 1.18-1.21 (it remembers every node's last point) */
    int has_c;
    cf_fill f;  /* 26.3: a last-point memo on every node, so that the six fields share their
                 * common subgraphs (shift noises; depth's offset spline reads the other fields) */
    uint8_t *memo;
    int32_t hint; /* the last point query's leaf (cf_b_search_hint), or -1 */
    uint64_t lookups, ties;
    int want_tie, tie; /* biome_quart_stored: a tie at the last search */
    /* 1.18-1.21 chunk fills: the fields whose value provably does not depend on y (yfree, a
     * bit per field) once per quart column: the f64 path remembers only its last point and
     * the fill order changes x or z at every query */
    unsigned yfree;
    int32_t ccx, ccz;   /* the chunk of fcol (chunk_fill) */
    int cok;            /* fcol belongs to (ccx, ccz) */
    int flat_ok;        /* chunk fills may run eval64's chunk mode (yfree_fields) */
    uint8_t fhave[16];  /* per quart column: bit k, fcol[.][k] known */
    float fcol[16][6];
    /* 26.3 grid rows: the noises the fields reach, a row of samples at a time in lanes
     * (stackrow.c; lanes_init), their values put in the memo before each sample */
    int nl;             /* lane nodes, in program order */
    struct lnode *ln;
    float (*lv)[STACK_LANES_MAX]; /* per lane node, per sample of the row */
    int lisa, lrow;     /* stack_lanes_isa(); the sample of the row being looked up, or -1 */
} qctx;

/* a noise node whose values a grid row computes in lanes: shift_a, shift_b, shift, or a
 * noise whose shift inputs are literals or lane nodes (through cache markers) */
typedef struct lnode {
    int id, kind, stack;
    int in[3];      /* the shift inputs: a lane node's index, or -1 (the literal lit[k]) */
    float lit[3];
    int zero;       /* every input the literal +0 (eval.c's unshifted form); zy: shift_y so */
    int zy;
    double xz, ys;
} lnode;

/* the 1.18-1.21 fields (outputs 0..5) that do not read y on the point path (eval64.c,
 * EV64_POINT: markers are their argument): a bit per field. Kinds not named: y-dependent.
 * shifted_noise with y_scale 0 reads y * 0 (+0 or -0) plus shift_y: y-free only where
 * shift_y is a constant without the sign bit (then the sum is +0 for every y). */
static unsigned yfree_fields(const cf_program *p, int *flat_ok)
{
    *flat_ok = 0;
    int n = p->nnodes;
    uint8_t *fr = malloc((size_t)n + 1);
    if (!fr) return 0;
    for (int i = 0; i < n; i++) { /* inputs come before their users (program order) */
        const cf_node *nd = &p->nodes[i];
        int all = 1, f = 0;
        for (int k = 0; k < nd->nin; k++) all &= nd->in[k] >= 0 && nd->in[k] < i && fr[nd->in[k]];
        switch (nd->kind) {
        case NK_M_CONSTANT: case NK_M_BLEND_ALPHA: case NK_M_BLEND_OFFSET: case NK_M_BEARDIFIER:
        case NK_M_SHIFT_A: case NK_M_SHIFT_B: case NK_M_END_ISLANDS: f = 1; break;
        case NK_M_ADD: case NK_M_MUL: case NK_M_MIN: case NK_M_MAX: case NK_M_ABS: case NK_M_SQUARE: case NK_M_CUBE:
        case NK_M_HALF_NEGATIVE: case NK_M_QUARTER_NEGATIVE: case NK_M_INVERT: case NK_M_SQUEEZE: case NK_M_CLAMP:
        case NK_M_RANGE_CHOICE: case NK_M_INTERVAL_SELECT: case NK_M_SPLINE:
        case NK_M_FLAT_CACHE: case NK_M_CACHE_2D: case NK_M_CACHE_ONCE: case NK_M_CACHE_ALL_IN_CELL: case NK_M_BLEND_DENSITY:
        case NK_M_INTERPOLATED: f = all; break;
        case NK_M_SHIFTED_NOISE: {
            const cf_node *sy = nd->nin == 3 ? &p->nodes[nd->in[1]] : NULL;
            f = all && nd->d[1] == 0.0 && sy && sy->kind == NK_M_CONSTANT && !signbit(sy->d[0]);
            break;
        }
        default: f = 0; break;
        }
        fr[i] = (uint8_t)f;
    }
    unsigned m = 0;
    for (int k = 0; k < 6 && k < p->noutputs; k++)
        if (p->outputs[k] >= 0 && p->outputs[k] < n && fr[p->outputs[k]]) m |= 1u << k;
    /* eval64's chunk mode gives every field its point value at a quart's corner (x, z
     * multiples of 4) where nothing the fields read changes with the mode but flat_cache
     * of a y-free argument (its value at (x, 0, z): the point value at (x, y, z)) */
    uint8_t *reach = p->dialect == DIALECT_MC121 ? calloc((size_t)n + 1, 1) : NULL;
    if (reach) {
        int ok = 1;
        for (int k = 0; k < 6 && k < p->noutputs; k++)
            if (p->outputs[k] >= 0 && p->outputs[k] < n) reach[p->outputs[k]] = 1;
        for (int i = n - 1; i >= 0; i--) {
            if (!reach[i]) continue;
            const cf_node *nd = &p->nodes[i];
            if (nd->kind == NK_M_INTERPOLATED || nd->kind == NK_M_CACHE_ALL_IN_CELL) ok = 0;
            if (nd->kind == NK_M_FLAT_CACHE && !(nd->nin == 1 && fr[nd->in[0]])) ok = 0;
            for (int k = 0; k < nd->nin; k++)
                if (nd->in[k] >= 0 && nd->in[k] < i) reach[nd->in[k]] = 1;
                else ok = 0;
        }
        *flat_ok = ok;
        free(reach);
    }
    free(fr);
    return m;
}

static void qctx_free(qctx *q)
{
    if (q->has_c) eval64_free(&q->c);
    q->has_c = 0;
    free(q->ln), free(q->lv);
    q->ln = NULL, q->lv = NULL, q->nl = 0;
    free(q->memo);
    for (int m = 0; m < 2; m++) {
        free(q->f.last[m]);
        free(q->f.col[m]);
        free(q->f.colstamp[m]);
        q->f.last[m] = NULL;
        q->f.col[m] = NULL;
        q->f.colstamp[m] = NULL;
    }
    free(q->f.islot);
    free(q->f.lat);
    q->memo = NULL;
    q->f.islot = NULL;
    q->f.lat = NULL;
}

/* the literal +0 (eval.c's test for an unshifted noise) */
static int plus_zero(const cf_node *nodes, int id)
{
    return (nodes[id].flags & NF_LITERAL) && nodes[id].f[0] == 0.0f && !signbit(nodes[id].f[0]);
}

/* the lane nodes of a 26.3 multi-noise source's fields (q->ln); 0, or -1 out of memory */
static int lanes_init(qctx *q, const cf_biomes *b)
{
    const cf_program *p = b->prog;
    const cf_world *w = b->w;
    int n = p->nnodes;
    q->lrow = -1;
    uint8_t *reach = calloc((size_t)n + 1, 1);
    int *lidx = malloc(((size_t)n + 1) * sizeof(int));
    q->ln = calloc((size_t)n + 1, sizeof *q->ln);
    if (!reach || !lidx || !q->ln) {
        free(reach), free(lidx);
        return -1;
    }
    for (int k = 0; k < 6 && k < p->noutputs; k++)
        if (p->outputs[k] >= 0 && p->outputs[k] < n) reach[p->outputs[k]] = 1;
    for (int i = n - 1; i >= 0; i--)
        if (reach[i])
            for (int k = 0; k < p->nodes[i].nin; k++)
                if (p->nodes[i].in[k] >= 0 && p->nodes[i].in[k] < i) reach[p->nodes[i].in[k]] = 1;
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        lidx[i] = -1;
        if (!reach[i] || (nd->flags & NF_F64) || q->memo[i] == MEMO_NONE) continue;
        lnode l = {.id = i, .kind = nd->kind, .in = {-1, -1, -1}};
        if (nd->kind == NK_SHIFT_A || nd->kind == NK_SHIFT_B || nd->kind == NK_SHIFT) {
            l.stack = w->noise_stack[nd->noise];
        } else if (nd->kind == NK_NOISE && nd->nin == 3) {
            int ok = 1;
            l.stack = w->noise_stack[nd->noise];
            l.xz = nd->d[0], l.ys = nd->d[1];
            l.zero = plus_zero(p->nodes, nd->in[0]) && plus_zero(p->nodes, nd->in[1]) && plus_zero(p->nodes, nd->in[2]);
            l.zy = plus_zero(p->nodes, nd->in[1]);
            for (int k = 0; k < 3; k++) {
                int c = nd->in[k];
                while (c >= 0 && c < i && p->nodes[c].kind == NK_CACHE && p->nodes[c].nin == 1) c = p->nodes[c].in[0];
                int lit = c >= 0 && c < i && (p->nodes[c].flags & NF_LITERAL);
                if (lit) l.lit[k] = eval_point_f32(w, c, 0, 0, 0);
                else if (c >= 0 && c < i && lidx[c] >= 0) l.in[k] = lidx[c];
                else ok = 0;
            }
            if (!ok) continue;
        } else {
            continue;
        }
        lidx[i] = q->nl;
        q->ln[q->nl++] = l;
    }
    free(reach), free(lidx);
    if (q->nl && !(q->lv = malloc((size_t)q->nl * sizeof *q->lv))) return -1;
    q->lisa = stack_lanes_isa();
    return 0;
}

/* the lane nodes' values at the quarts qs[3 l .. 3 l + 2], l < m <= STACK_LANES_MAX: as
 * ev_node computes each at the quart's block (eval.c's NOISE and SHIFT_* on the point path) */
static void climate_lanes(qctx *q, const int32_t *qs, int m)
{
    double x[STACK_LANES_MAX], y[STACK_LANES_MAX], z[STACK_LANES_MAX], bx[STACK_LANES_MAX], by[STACK_LANES_MAX], bz[STACK_LANES_MAX];
    for (int l = 0; l < m; l++) {
        bx[l] = (double)(int32_t)((uint32_t)qs[3 * l] << 2);
        by[l] = (double)(int32_t)((uint32_t)qs[3 * l + 1] << 2);
        bz[l] = (double)(int32_t)((uint32_t)qs[3 * l + 2] << 2);
    }
    for (int a = 0; a < q->nl; a++) {
        const lnode *ln = &q->ln[a];
        float *v = q->lv[a];
        switch (ln->kind) {
        case NK_SHIFT_A: for (int l = 0; l < m; l++) x[l] = bx[l] * 0.25, y[l] = 0.0, z[l] = bz[l] * 0.25; break;
        case NK_SHIFT_B: for (int l = 0; l < m; l++) x[l] = bz[l] * 0.25, y[l] = bx[l] * 0.25, z[l] = 0.0; break;
        case NK_SHIFT: for (int l = 0; l < m; l++) x[l] = bx[l] * 0.25, y[l] = by[l] * 0.25, z[l] = bz[l] * 0.25; break;
        default: /* NK_NOISE */
            for (int l = 0; l < m; l++) {
                float s[3];
                for (int k = 0; k < 3; k++) s[k] = ln->in[k] >= 0 ? q->lv[ln->in[k]][l] : ln->lit[k];
                if (ln->zero) {
                    x[l] = bx[l] * ln->xz, y[l] = by[l] * ln->ys, z[l] = bz[l] * ln->xz;
                } else {
                    x[l] = bx[l] * ln->xz + (double)s[0];
                    y[l] = ln->zy ? by[l] * ln->ys : by[l] * ln->ys + (double)s[1];
                    z[l] = bz[l] * ln->xz + (double)s[2];
                }
            }
            break;
        }
        stack_lanes(q->b->w, q->lisa, ln->stack, m, x, y, z, q->f.lat, v);
        if (ln->kind != NK_NOISE)
            for (int l = 0; l < m; l++) v[l] = v[l] * 4.0f;
    }
}

static int quart_biome(qctx *c, int path, int32_t qy0, const int32_t *q, int32_t *warm);

/* the point biomes of m <= STACK_LANES_MAX quarts qs (point queries), their noises in lanes */
static void lanes_quarts(qctx *c, const int32_t *qs, int m, int *res)
{
    if (c->nl) climate_lanes(c, qs, m);
    for (int l = 0; l < m; l++) {
        c->lrow = c->nl ? l : -1;
        res[l] = quart_biome(c, BP_POINT, 0, qs + 3 * l, NULL);
    }
    c->lrow = -1;
}

/* the lane nodes' values of sample q->lrow into the point memo (after qctx_region(x, z, 0)) */
static void lanes_put(qctx *q, int32_t x, int32_t y, int32_t z)
{
    cf_fill *f = &q->f;
    int m = MODE_POINT - 1;
    for (int a = 0; a < q->nl; a++) {
        int id = q->ln[a].id;
        float v = q->lv[a][q->lrow];
        if (f->memo[id] == MEMO_COLUMN) { /* the region is the point: dx = dz = 0 */
            size_t k = (size_t)f->colslot[id] * (size_t)f->colstride;
            f->col[m][k] = v, f->colstamp[m][k] = f->stamp;
        } else {
            cf_memo *c = &f->last[m][id];
            c->x = x, c->y = y, c->z = z, c->stamp = f->stamp, c->v = v;
        }
    }
}

static int qctx_init(qctx *q, cf_biomes *b)
{
    memset(q, 0, sizeof *q);
    q->lrow = -1;
    q->b = b;
    q->hint = -1;
    if (b->f64) {
        if (eval64_init(&q->c, b->w) < 0) return -1;
        q->has_c = 1;
        q->yfree = b->kind == BS_MULTI ? yfree_fields(b->w->prog, &q->flat_ok) : 0;
        return 0;
    }
    const cf_program *p = b->prog;
    size_t n = (size_t)p->nnodes + 1;
    q->memo = malloc(n);
    q->f.last[0] = calloc(n, sizeof(cf_memo));
    q->f.last[1] = calloc(n, sizeof(cf_memo));
    q->f.islot = malloc(n * sizeof(int));
    q->f.lat = calloc((size_t)(b->w->noct > 0 ? b->w->noct : 1), sizeof *q->f.lat); /* the lattice cells of the point path */
    /* the plan's column memo (2-D nodes once per quart column of a chunk: 17 x 17 slots,
     * as fill.c's), the other nodes a last-point memo */
    size_t cols = (size_t)(p->ncol > 0 ? p->ncol : 1) * 289;
    for (int m = 0; m < 2; m++) {
        q->f.col[m] = malloc(cols * sizeof(float));
        q->f.colstamp[m] = calloc(cols, sizeof(uint32_t));
    }
    if (!q->memo || !q->f.last[0] || !q->f.last[1] || !q->f.islot || !q->f.lat || !q->f.col[0] || !q->f.col[1] || !q->f.colstamp[0] ||
        !q->f.colstamp[1]) {
        qctx_free(q);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int lit = i >= (size_t)p->nnodes || (p->nodes[i].flags & NF_LITERAL);
        q->memo[i] = lit ? MEMO_NONE : p->memo[i] == MEMO_COLUMN ? MEMO_COLUMN : MEMO_LAST;
        q->f.islot[i] = -1; /* no interpolation buffers: interpolated nodes compute their corners */
    }
    q->f.w = b->w;
    q->f.memo = q->memo;
    q->f.colslot = p->colslot;
    q->f.colstride = 289;
    q->f.stamp = 1;
    if (b->kind == BS_MULTI && lanes_init(q, b) < 0) {
        qctx_free(q);
        return -1;
    }
    return 0;
}
static void qctx_done(qctx *q)
{
    qctx_free(q);
    atomic_fetch_add(&q->b->lookups, q->lookups);
    atomic_fetch_add(&q->b->ties, q->ties);
}

/* the memo's region: the columns [x0, x0 + size] x [z0, z0 + size] (a chunk: 16; a point: 0);
 * a new region forgets every memo */
static void qctx_region(qctx *q, int32_t x0, int32_t z0, int32_t size)
{
    q->f.x0 = x0, q->f.z0 = z0, q->f.sx = q->f.sz = size;
    if (++q->f.stamp == 0) q->f.stamp = 1;
}

/* one field at block (x, y, z): the point path, the volume path (26.3; vmin: the volume's min y),
 * or 1.18-1.21's double value cast to float */
static float field(qctx *q, int k, int path, int32_t vmin, int32_t x, int32_t y, int32_t z)
{
    const cf_world *w = q->b->w;
    int node = w->prog->outputs[k];
    if (q->b->f64) return (float)eval_f64(&q->c, node, (double)x, (double)y, (double)z);
    q->f.y0 = vmin; /* the volume's min y (interpolated nodes' corners; set per chunk) */
    return eval_f32(w, &q->f, path == BP_VOLUME ? MODE_VOLUME : MODE_POINT, node, x, y, z);
}

int biome_climate(const cf_biomes *b, int path, int32_t qy0, const int32_t *q, float *v)
{
    qctx c;
    if (qctx_init(&c, (cf_biomes *)b) < 0) return -1;
    int32_t x = (int32_t)((uint32_t)q[0] << 2), y = (int32_t)((uint32_t)q[1] << 2), z = (int32_t)((uint32_t)q[2] << 2);
    if (!b->f64) qctx_region(&c, x, z, 0);
    for (int k = 0; k < b->prog->noutputs; k++) v[k] = field(&c, k, path, (int32_t)((uint32_t)qy0 << 2), x, y, z);
    qctx_free(&c);
    return 0;
}

/* the biome of quart q; *warm: the warm-start leaf in and out (multi_noise), or NULL (cold) */
static int quart_biome(qctx *c, int path, int32_t qy0, const int32_t *q, int32_t *warm)
{
    cf_biomes *b = c->b;
    int32_t x = (int32_t)((uint32_t)q[0] << 2), y = (int32_t)((uint32_t)q[1] << 2), z = (int32_t)((uint32_t)q[2] << 2);
    switch (b->kind) {
    case BS_FIXED:
        return b->fixed;
    case BS_CHECKER: {
        int32_t s = (int32_t)((uint32_t)(q[0] >> b->shift) + (uint32_t)(q[2] >> b->shift));
        int32_t m = s % b->nchk;
        return b->chk[m < 0 ? m + b->nchk : m];
    }
    case BS_END: {
        int32_t cx = x >> 4, cz = z >> 4;
        if ((int64_t)cx * cx + (int64_t)cz * cz <= 4096) return CF_BE_THE_END;
        /* the chunk's centre block, the quart's y; 26.3: the point path also in chunk fills */
        int32_t bx = (int32_t)((uint32_t)cx * 16u + 8u), bz = (int32_t)((uint32_t)cz * 16u + 8u);
        double e = b->f64 ? eval_f64(&c->c, b->w->prog->outputs[0], (double)bx, (double)y, (double)bz) /* 1.21: the double */
                          : (double)eval_f32(b->w, NULL, MODE_POINT, b->w->prog->outputs[0], bx, y, bz);
        return cf_b_end(cx, cz, e);
    }
    default: {
        int64_t t[6], fit;
        int32_t vmin = (int32_t)((uint32_t)qy0 << 2);
        if (!warm && !b->f64) {
            qctx_region(c, x, z, 0); /* a point query: the memo holds this point */
            if (c->lrow >= 0) lanes_put(c, x, y, z); /* a grid row's noises, computed in lanes */
        }
        if (warm && c->yfree && c->cok && c->ccx == q[0] >> 2 && c->ccz == q[2] >> 2) { /* a 1.18-1.21 chunk fill */
            int col = (q[2] & 3) * 4 + (q[0] & 3);
            for (int k = 0; k < 6; k++) {
                if (!(c->yfree >> k & 1)) {
                    t[k] = cf_b_quantize(field(c, k, path, vmin, x, y, z));
                    continue;
                }
                if (!(c->fhave[col] >> k & 1)) c->fcol[col][k] = field(c, k, path, vmin, x, y, z), c->fhave[col] |= (uint8_t)(1u << k);
                t[k] = cf_b_quantize(c->fcol[col][k]);
            }
        } else {
            for (int k = 0; k < 6; k++) t[k] = cf_b_quantize(field(c, k, path, vmin, x, y, z));
        }
        /* chunk fills: vanilla's warm start; point queries: the cold answer, found from the
         * previous answer of this thread as a hint */
        int32_t leaf = warm ? bm_fast_search(&b->fast, b->tree, t, *warm, *warm, &fit) : bm_fast_search(&b->fast, b->tree, t, c->hint, -1, &fit);
        if (warm) *warm = leaf;
        else c->hint = leaf;
        c->lookups++;
        if ((b->count_ties || c->want_tie) && cf_b_count_at(b->tree, t, fit) > 1) c->ties += b->count_ties, c->tie = 1;
        return cf_b_leaf_value(b->tree, leaf);
    }
    }
}

cf_status biome_quarts(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    if (!b || (n && (!q || !out))) return err_set(err, CF_ERR_ARG, "cf_biomes_quarts: bad arguments");
    qctx c;
    if (qctx_init(&c, b) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)quart_biome(&c, BP_POINT, 0, q + 3 * i, NULL);
    qctx_done(&c);
    return CF_OK;
}

/* one quart as a chunk fill stores it (the maps' sampled columns, host/api/map.c): the chunk
 * fill's path (26.3: the volume path of the chunk's volume), searched cold; the chunk fill's
 * warm start finds the same leaf unless several leaves fit equally well (a tie: -1) */
struct cf_bquart {
    qctx c;
    int32_t ccx, ccz; /* the chunk of the memo's region (26.3), ok 0 before the first */
    int ok;
};

cf_bquart *biome_quart_new(cf_biomes *b)
{
    cf_bquart *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    if (qctx_init(&q->c, b) < 0) {
        free(q);
        return NULL;
    }
    return q;
}

void biome_quart_free(cf_bquart *q)
{
    if (!q) return;
    qctx_done(&q->c);
    free(q);
}

int biome_quart_stored(cf_bquart *bq, const int32_t *q)
{
    qctx *c = &bq->c;
    cf_biomes *b = c->b;
    int32_t cx = q[0] >> 2, cz = q[2] >> 2;
    if (!b->f64 && (!bq->ok || bq->ccx != cx || bq->ccz != cz)) {
        qctx_region(c, (int32_t)((uint32_t)cx * 16u), (int32_t)((uint32_t)cz * 16u), 16);
        bq->ccx = cx, bq->ccz = cz, bq->ok = 1;
    }
    c->cok = 0; /* not chunk_fill's 1.18-1.21 column memo */
    c->want_tie = 1, c->tie = 0;
    int32_t cold = -1;
    int v = quart_biome(c, b->f64 ? BP_POINT : BP_VOLUME, b->min_y >> 2, q, &cold);
    return c->tie ? -1 : v; /* another leaf as close as the one found */
}

cf_status biome_quarts_warm_from(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, int32_t *warm, cf_error *err)
{
    if (!b || !warm || (n && (!q || !out))) return err_set(err, CF_ERR_ARG, "biome_quarts_warm: bad arguments");
    qctx c;
    if (qctx_init(&c, b) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)quart_biome(&c, BP_POINT, 0, q + 3 * i, warm);
    qctx_done(&c);
    return CF_OK;
}

cf_status biome_quarts_warm(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    int32_t warm = -1;
    return biome_quarts_warm_from(b, n, q, out, &warm, err);
}

cf_status biome_blocks(cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err)
{
    if (!b || (n && (!xyz || !out))) return err_set(err, CF_ERR_ARG, "cf_biomes_blocks: bad arguments");
    qctx c;
    if (qctx_init(&c, b) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    /* the blocks' quarts in batches of up to STACK_LANES_MAX distinct ones (a quart met again
     * among the batch's last 8 is looked up once: a point query's answer is a function of
     * the quart), each batch's noises in lanes */
    int32_t qs[3 * STACK_LANES_MAX];
    int res[STACK_LANES_MAX];
    uint8_t slot[256];
    for (size_t i = 0; i < n;) {
        size_t i0 = i;
        int m = 0;
        for (; i < n && i - i0 < sizeof slot; i++) {
            int32_t q[3];
            cf_bz_quart(b->zseed, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], q);
            int k = m - 1;
            while (k >= 0 && k >= m - 8 && (qs[3 * k] != q[0] || qs[3 * k + 1] != q[1] || qs[3 * k + 2] != q[2])) k--;
            if (k < 0 || k < m - 8) {
                if (m == STACK_LANES_MAX) break;
                k = m++;
                qs[3 * k] = q[0], qs[3 * k + 1] = q[1], qs[3 * k + 2] = q[2];
            }
            slot[i - i0] = (uint8_t)k;
        }
        lanes_quarts(&c, qs, m, res);
        for (size_t t = i0; t < i; t++) out[t] = (uint8_t)res[slot[t - i0]];
    }
    qctx_done(&c);
    return CF_OK;
}

/* ------------------------------------------------------------------ threaded runs */
typedef struct job {
    cf_biomes *b;
    int kind; /* 0 grid rows, 1 chunks */
    int32_t qx0, qz0, nx, qy;
    const int32_t *chunks;
    uint8_t *out;
    size_t n;
    atomic_size_t next;
    atomic_int failed;
} job;

static void grid_row(qctx *c, job *j, size_t iz)
{
    int32_t q[3] = {0, j->qy, (int32_t)((uint32_t)j->qz0 + (uint32_t)iz)};
    uint8_t *o = j->out + iz * (size_t)j->nx;
    int32_t qs[3 * STACK_LANES_MAX];
    int res[STACK_LANES_MAX];
    for (int32_t ix = 0; ix < j->nx; ix += STACK_LANES_MAX) {
        int m = (int)(j->nx - ix < STACK_LANES_MAX ? j->nx - ix : STACK_LANES_MAX);
        for (int l = 0; l < m; l++)
            qs[3 * l] = (int32_t)((uint32_t)j->qx0 + (uint32_t)ix + (uint32_t)l), qs[3 * l + 1] = q[1], qs[3 * l + 2] = q[2];
        lanes_quarts(c, qs, m, res);
        for (int l = 0; l < m; l++) o[ix + l] = (uint8_t)res[l];
    }
}

/* a chunk's stored biomes in vanilla's fill order: sections bottom to top, inside one
 * x outer, y middle, z inner; the warm start carried from quart to quart, cold at the first */
static void chunk_fill(qctx *c, job *j, size_t ci)
{
    cf_biomes *b = c->b;
    int32_t cx = j->chunks[2 * ci], cz = j->chunks[2 * ci + 1];
    int32_t qy0 = b->min_y >> 2, ny = b->height >> 2;
    uint8_t *o = j->out + ci * (size_t)ny * 16;
    int32_t warm = -1;
    int path = b->f64 ? BP_POINT : BP_VOLUME;
    if (!b->f64) qctx_region(c, (int32_t)((uint32_t)cx * 16u), (int32_t)((uint32_t)cz * 16u), 16);
    c->ccx = cx, c->ccz = cz, c->cok = 1;
    memset(c->fhave, 0, sizeof c->fhave);
    if (b->f64 && c->flat_ok) eval64_chunk(&c->c, cx, cz, EV64_VALUE); /* flat_cache once per quart column */
    for (int32_t s = 0; s < ny; s += 4)
        for (int x = 0; x < 4; x++)
            for (int32_t y = s; y < s + 4 && y < ny; y++)
                for (int z = 0; z < 4; z++) {
                    int32_t q[3] = {cx * 4 + x, qy0 + y, cz * 4 + z};
                    o[((size_t)y * 4 + (size_t)z) * 4 + (size_t)x] = (uint8_t)quart_biome(c, path, qy0, q, &warm);
                }
    if (b->f64 && c->flat_ok) eval64_chunk(&c->c, 0, 0, EV64_POINT); /* back to single points */
}

static void *worker(void *arg)
{
    job *j = arg;
    qctx c;
    if (qctx_init(&c, j->b) < 0) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n) break;
        if (j->kind == 0) grid_row(&c, j, i);
        else chunk_fill(&c, j, i);
    }
    qctx_done(&c);
    return NULL;
}

static cf_status run_job(job *j, int threads, cf_error *err)
{
    if (threads <= 0) threads = cpu_count();
    if ((size_t)threads > j->n) threads = (int)(j->n ? j->n : 1);
    if (threads > 256) threads = 256;
    pthread_t th[256];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&th[i], NULL, worker, j) != 0) break;
        started = i;
    }
    worker(j);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    if (atomic_load(&j->failed)) return err_set(err, CF_ERR_NOMEM, "out of memory");
    return CF_OK;
}

cf_status biome_grid(cf_biomes *b, int32_t qx0, int32_t qz0, int32_t nx, int32_t nz, int32_t qy, uint8_t *out,
                         int threads, cf_error *err)
{
    if (!b || nx < 0 || nz < 0 || (nx > 0 && nz > 0 && !out)) return err_set(err, CF_ERR_ARG, "cf_biomes_grid: bad arguments");
    job j = {.b = b, .kind = 0, .qx0 = qx0, .qz0 = qz0, .nx = nx, .qy = qy, .out = out, .n = (size_t)nz};
    if (!nx || !nz) return CF_OK;
    return run_job(&j, threads, err);
}

cf_status biome_fill(cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err)
{
    if (!b || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_fill_biomes: bad arguments");
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK, CF_MAX_CHUNK);
    job j = {.b = b, .kind = 1, .chunks = chunks, .out = out, .n = n};
    if (!n) return CF_OK;
    return run_job(&j, threads, err);
}
