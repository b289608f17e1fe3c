/* eval.c - the CPU reference evaluator (MINECRAFT-26.3.md §9-§13).
 *
 * Input: a seeded world, a path (MODE_SAMPLE, MODE_POINT, MODE_VOLUME) and a
 * block position. Output: the node's float value, computed exactly as vanilla
 * 26.3 does on that path: every step rounded to float, Java's casts, the point
 * path's mul/div zero shortcuts and Math.min/max, the volume path's noise
 * scaling order and z-x-incremental-y interpolation. Inside a chunk fill the
 * fill context (fill.c) supplies memos: column values of 2-D nodes, the last
 * point of shared nodes, and the corner and block buffers of `interpolated`.
 * One evaluator per node kind, named by the node table (eval_<KIND>); the leaf
 * math lives in kernels/cf_math.h, shared with the OpenCL programs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"

typedef struct ev {
    const cf_world *w;
    const cf_node *nodes;
    int mode;
    cf_fill *f;
    int has_vmin;   /* a volume is being filled: its min y (for incremental y starts) */
    int32_t vmin;
    cf_cmemo *memo; /* corners of interpolated nodes outside a fill (eval_volume_memo), or NULL */
    struct scan_memo *sm; /* a find_top_surface scan's y-free values (outside a fill), or NULL */
    struct cf_cmap **cmp; /* the map of corners met outside the fill's buffers (made on first use), or NULL */
    cf_scan *scan;  /* a find_top_surface scan's memo kept between calls (eval_scan_f32), or NULL */
} ev;

/* Every corner value of an interpolated node that neither the fill's corner buffers nor a
 * cf_cmemo holds, once: a corner is a pure function of (world, node, x, y, z, the corner
 * volume's min y), and an interpolated node under another one is asked for the corners
 * around the outer node's corners, which outside the fill's window were computed again for
 * each of the eight corners that asked (nested interpolated: 8^depth evaluations; a chain of
 * 12 never finished). With this map each corner of each node is computed once per chunk of
 * a fill (the fill context's map, emptied when its stamp changes) or per evaluation outside
 * a fill (a map of the call, freed when it returns), so it never outlives one world's call.
 * Made on the first corner that needs it: evaluations that meet none pay nothing. */
typedef struct cmap_e {
    uint32_t gen; /* the map's generation when written; 0: empty */
    int32_t id, x, y, z, vmin;
    float v;
} cmap_e;
typedef struct cf_cmap {
    cmap_e *e;
    size_t cap, n;  /* cap: a power of two, or 0 */
    uint32_t gen;   /* entries of another generation are empty */
    uint32_t stamp; /* fill maps: the fill stamp the entries belong to */
} cmap;
enum { CMAP_MIN = 64, CMAP_MAX = 1 << 22 };

static void cmap_free(cmap *m)
{
    if (m) free(m->e), free(m);
}
void eval_cmap_free(struct cf_cmap *m) { cmap_free(m); }

/* empty: a new generation (on a wrap every entry is cleared: none may look current) */
static void cmap_clear(cmap *m)
{
    m->n = 0;
    if (++m->gen == 0) {
        if (m->e) memset(m->e, 0, sizeof(cmap_e) * m->cap);
        m->gen = 1;
    }
}

static size_t cmap_slot(const cmap *m, int32_t id, int32_t x, int32_t y, int32_t z, int32_t vmin)
{
    uint32_t h = (uint32_t)id * 0x9E3779B1u ^ (uint32_t)x * 0x85EBCA6Bu ^ (uint32_t)y * 0xC2B2AE35u
               ^ (uint32_t)z * 0x27D4EB2Fu ^ (uint32_t)vmin * 0x165667B1u;
    h ^= h >> 15, h *= 0x2C1B3C6Du, h ^= h >> 12;
    size_t i = h & (m->cap - 1);
    while (m->e[i].gen == m->gen
           && !(m->e[i].id == id && m->e[i].x == x && m->e[i].y == y && m->e[i].z == z && m->e[i].vmin == vmin))
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* room for one more entry (the table at most half full); 0 when none could be had: the
 * caller computes without the map. At CMAP_MAX the map starts over empty. */
static int cmap_room(cmap *m)
{
    if (m->cap && (m->n + 1) * 2 <= m->cap) return 1;
    if (m->cap >= CMAP_MAX) return cmap_clear(m), 1;
    size_t cap = m->cap ? m->cap * 2 : CMAP_MIN;
    cmap_e *e = calloc(cap, sizeof *e);
    if (!e) return 0;
    cmap old = *m;
    m->e = e, m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.e[i].gen == m->gen) m->e[cmap_slot(m, old.e[i].id, old.e[i].x, old.e[i].y, old.e[i].z, old.e[i].vmin)] = old.e[i];
    free(old.e);
    return 1;
}

/* A group of samples on corner columns (cpu.h cf_lanes): per lane the column memos of the 2-D
 * nodes, per interpolated node and corner row the lanes' corner values (valid from lane rowlo
 * on: a row is computed for the lanes from the one that first needs it, the earlier ones have
 * finished their scans). Every value is keyed by the group's stamp. */
struct cf_lanes {
    int n, cur;
    int32_t x0, step, z;
    uint32_t stamp;
    struct cf_corners *cs;
    int ncol, nslot, maxj;       /* column memo slots, interpolated nodes, corner rows per node */
    float *col[2];               /* [mode-1][slot * CF_LANES_MAX + lane] */
    uint32_t *colst[2];
    float *row;                  /* [(islot * maxj + j) * CF_LANES_MAX + lane] */
    uint32_t *rowst;             /* [islot * maxj + j] */
    int *rowlo;
};

cf_lanes *lanes_new(const cf_program *p)
{
    int maxj = 0;
    for (int i = 0; i < p->nnodes; i++)
        if (p->islot[i] >= 0 && p->nodes[i].i[1] > 0 && p->height / p->nodes[i].i[1] + 3 > maxj)
            maxj = p->height / p->nodes[i].i[1] + 3; /* a 1 x height x 1 fill's corner rows (fill_new) */
    if (p->ninterp == 0 || maxj == 0) return NULL;
    cf_lanes *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->ncol = p->ncol, l->nslot = p->ninterp, l->maxj = maxj, l->cur = -1;
    size_t nc = (size_t)(p->ncol ? p->ncol : 1) * CF_LANES_MAX, nr = (size_t)p->ninterp * (size_t)maxj;
    int ok = 1;
    for (int m = 0; m < 2; m++) {
        l->col[m] = malloc(sizeof(float) * nc), l->colst[m] = calloc(nc, sizeof(uint32_t));
        ok = ok && l->col[m] && l->colst[m];
    }
    l->row = malloc(sizeof(float) * nr * CF_LANES_MAX), l->rowst = calloc(nr, sizeof(uint32_t));
    l->rowlo = calloc(nr, sizeof(int));
    if (!ok || !l->row || !l->rowst || !l->rowlo) {
        lanes_free(l);
        return NULL;
    }
    return l;
}

void lanes_free(cf_lanes *l)
{
    if (!l) return;
    for (int m = 0; m < 2; m++) free(l->col[m]), free(l->colst[m]);
    free(l->row), free(l->rowst), free(l->rowlo), free(l);
}

void lanes_group(cf_lanes *l, cf_corners *cs, int32_t x0, int32_t step, int32_t z, int n)
{
    l->cs = cs, l->x0 = x0, l->step = step, l->z = z, l->n = n, l->cur = -1;
    if (++l->stamp == 0) { /* wrapped: every stamp cleared */
        size_t nc = (size_t)(l->ncol ? l->ncol : 1) * CF_LANES_MAX;
        for (int m = 0; m < 2; m++) memset(l->colst[m], 0, sizeof(uint32_t) * nc);
        memset(l->rowst, 0, sizeof(uint32_t) * (size_t)l->nslot * (size_t)l->maxj);
        l->stamp = 1;
    }
}

void lanes_at(cf_lanes *l, int cur) { l->cur = cur; }

/* the lane whose column is (x, z), or -1 */
static int lane_of(const cf_lanes *l, int32_t x, int32_t z)
{
    if (z != l->z) return -1;
    int64_t d = (int64_t)x - l->x0;
    if (d < 0 || d % l->step) return -1;
    d /= l->step;
    return d < l->n ? (int)d : -1;
}

/* The probes of one find_top_surface scan share x and z (§12): a node whose
 * value provably does not read y is computed once per (node, x, z) of the scan.
 * yf[id]: no evaluator under the node reads the block's y (see scan_yfree). The
 * whole scan has one context (mode, f == NULL, vmin, corner memo), so within it
 * such a node's value is a function of (x, z) alone. */
struct scan_memo {
    int mode;
    uint8_t *yf;
    struct scan_e {
        int32_t x, z;
        float v;
        uint32_t gen; /* valid where it is the memo's */
    } *v;
    uint32_t gen;
};

/* what eval_scan_f32 keeps between calls: the memo (its entries renewed by a new gen) and
 * mf[id] = 1 where node id has the same value on the volume and the point path outside a
 * fill (scan_modefree) */
struct cf_scan {
    const cf_world *w;
    struct scan_memo sm;
    uint8_t *mf;
};

#define EVAL(K) static float eval_##K(const ev *e, const cf_node *n, int32_t x, int32_t y, int32_t z)
static float ev_node(const ev *e, int id, int32_t x, int32_t y, int32_t z);
#define IN(k) ev_node(e, n->in[k], x, y, z)

/* a literal operand: a JSON constant or a constant marker (blend_alpha, ...) */
static int is_literal(const ev *e, int id) { return (e->nodes[id].flags & NF_LITERAL) != 0; }

EVAL(CONSTANT) { (void)e, (void)x, (void)y, (void)z; return n->f[0]; }
EVAL(BLEND_ALPHA) { (void)e, (void)n, (void)x, (void)y, (void)z; return 1.0f; }
EVAL(BLEND_OFFSET) { (void)e, (void)n, (void)x, (void)y, (void)z; return 0.0f; }
EVAL(BEARDIFIER) { (void)e, (void)n, (void)x, (void)y, (void)z; return 0.0f; }
EVAL(BLEND_DENSITY) { return IN(0); }
EVAL(CACHE) { return IN(0); }
/* node id is a chain of value-transparent wrappers over a find_top_surface,
 * whose evaluator ignores the block's y (§12: one value per column) */
static int is_column_surface(const ev *e, int id)
{
    for (int d = 0; d < 64; d++) {
        const cf_node *n = &e->nodes[id];
        if (n->kind == NK_FIND_TOP_SURFACE) return 1;
        if (n->kind != NK_CACHE && n->kind != NK_BLEND_DENSITY) return 0;
        id = n->in[0];
    }
    return 0;
}

/* corner value of node id (input `in`, context c: the volume path, c->vmin) through the map */
static float corner_mapped(const ev *c, int id, int in, int32_t x, int32_t y, int32_t z)
{
    if (!c->cmp) return ev_node(c, in, x, y, z);
    cmap *m = *c->cmp;
    if (!m) {
        if (!(m = *c->cmp = calloc(1, sizeof *m))) return ev_node(c, in, x, y, z);
        m->gen = 1, m->stamp = c->f ? c->f->stamp : 0;
    } else if (c->f && m->stamp != c->f->stamp) {
        cmap_clear(m), m->stamp = c->f->stamp;
    }
    if (m->cap) {
        cmap_e *q = &m->e[cmap_slot(m, id, x, y, z, c->vmin)];
        if (q->gen == m->gen) return q->v;
    }
    float v = ev_node(c, in, x, y, z);
    if (cmap_room(m)) {
        cmap_e *q = &m->e[cmap_slot(m, id, x, y, z, c->vmin)];
        if (q->gen != m->gen) m->n++;
        *q = (cmap_e){m->gen, id, x, y, z, c->vmin, v};
    }
    return v;
}

/* a corner value of an interpolated node: always the volume path (§11) */
static float corner(const ev *e, const cf_node *n, int32_t x, int32_t y, int32_t z)
{
    int id = (int)(n - e->nodes);
    int h = n->i[1];
    cf_fill *f = e->f;
    ev c = *e;
    c.mode = MODE_VOLUME;
    c.has_vmin = 1;
    c.vmin = (int32_t)cf_floordiv(e->has_vmin ? e->vmin : y, h) * h;
    if (f && f->islot[id] >= 0 && e->has_vmin && e->vmin == f->y0) {
        struct cf_interp *ip = &f->interp[f->islot[id]];
        int64_t i = cf_floordiv(x, n->i[0]) - ip->cx0, j = cf_floordiv(y, h) - ip->cy0, k = cf_floordiv(z, n->i[0]) - ip->cz0;
        if (i >= 0 && i < ip->ncx && j >= 0 && j < ip->ncy && k >= 0 && k < ip->ncz) {
            size_t q = ((size_t)k * (size_t)ip->ncy + (size_t)j) * (size_t)ip->ncx + (size_t)i;
            if (ip->cstamp[q] != f->stamp) {
                ip->corner[q] = ev_node(&c, n->in[0], x, y, z);
                ip->cstamp[q] = f->stamp;
            }
            return ip->corner[q];
        }
    }
    if (e->memo) {
        /* a find_top_surface input has one value per column: the corners at y and y + h
         * share one entry (same x, z, path and vmin; its evaluator never reads y) */
        if (is_column_surface(e, n->in[0])) y = 0;
        /* a mixed hash and CF_CMEMO_WAYS slots from there: the corners of one cell
         * (x and z 16 apart) do not evict each other (a plain sum of x*7 and z*13 sent
         * (x0 + 16, z0 + 16) to the slot of (x0, z0): every column recomputed them) */
        uint32_t h = (uint32_t)id * 0x9E3779B1u ^ (uint32_t)x * 0x85EBCA6Bu ^ (uint32_t)y * 0xC2B2AE35u
                   ^ (uint32_t)z * 0x27D4EB2Fu ^ (uint32_t)c.vmin * 0x165667B1u;
        h ^= h >> 15, h *= 0x2C1B3C6Du, h ^= h >> 12;
        struct cf_cmemo_e *m = NULL;
        for (uint32_t k = 0; k < CF_CMEMO_WAYS && !m; k++) {
            struct cf_cmemo_e *q = &e->memo->e[(h + k) % CF_CMEMO];
            if (q->id == id + 1 && q->x == x && q->y == y && q->z == z && q->vmin == c.vmin) return q->v;
            if (q->id == 0) m = q;
        }
        if (!m) m = &e->memo->e[(h + e->memo->next++ % CF_CMEMO_WAYS) % CF_CMEMO];
        m->v = corner_mapped(&c, id, n->in[0], x, y, z);
        m->id = id + 1, m->x = x, m->y = y, m->z = z, m->vmin = c.vmin;
        return m->v;
    }
    return corner_mapped(&c, id, n->in[0], x, y, z);
}

EVAL(INTERPOLATED)
{
    if (e->mode == MODE_SAMPLE) return IN(0);
    cf_fill *f = e->f;
    int id = (int)(n - e->nodes);
    if (e->mode == MODE_VOLUME && f && f->islot[id] >= 0 && e->has_vmin && e->vmin == f->y0
        && (uint32_t)(x - f->x0) < (uint32_t)f->sx && y - f->y0 >= f->wy0 && y - f->y0 < f->wy1
        && (uint32_t)(z - f->z0) < (uint32_t)f->sz) {
        struct cf_interp *ip = &f->interp[f->islot[id]];
        if (ip->bstamp != f->wstamp) fill_interp_blocks(f, id);
        return ip->block[((size_t)(y - f->y0 - f->wy0) * (size_t)f->sz + (size_t)(z - f->z0)) * (size_t)f->sx + (size_t)(x - f->x0)];
    }
    int32_t w = n->i[0], h = n->i[1];
    int32_t ix = (int32_t)cf_floormod(x, w), iy = (int32_t)cf_floormod(y, h), iz = (int32_t)cf_floormod(z, w);
    if (e->mode == MODE_POINT && ix == 0 && iy == 0 && iz == 0) return IN(0);
    int32_t x0 = x - ix, y0 = y - iy, z0 = z - iz;
    float v000 = corner(e, n, x0, y0, z0), v100 = corner(e, n, x0 + w, y0, z0);
    float v010 = corner(e, n, x0, y0 + h, z0), v110 = corner(e, n, x0 + w, y0 + h, z0);
    float v001 = corner(e, n, x0, y0, z0 + w), v101 = corner(e, n, x0 + w, y0, z0 + w);
    float v011 = corner(e, n, x0, y0 + h, z0 + w), v111 = corner(e, n, x0 + w, y0 + h, z0 + w);
    if (e->mode == MODE_VOLUME) {
        float inv = 1.0f / (float)w, invy = 1.0f / (float)h;
        float az = (float)iz * inv, ax = (float)ix * inv;
        float v00 = cf_lerpf(az, v000, v001), v01 = cf_lerpf(az, v010, v011);
        float v10 = cf_lerpf(az, v100, v101), v11 = cf_lerpf(az, v110, v111);
        float a = cf_lerpf(ax, v00, v10), b = cf_lerpf(ax, v01, v11);
        float step = (b - a) * invy;
        int32_t start = 0;
        if (e->has_vmin) {
            int64_t s0 = (int64_t)e->vmin - y0;
            start = s0 < 0 ? 0 : s0 > iy ? iy : (int32_t)s0;
        }
        float v = a + step * (float)start;
        for (int32_t k = start; k < iy; k++) v = v + step;
        return v;
    }
    return cf_lerp3f((float)ix / (float)w, (float)iy / (float)h, (float)iz / (float)w, v000, v100, v010, v110, v001,
                     v101, v011, v111);
}
/* the kinds whose value is their op on every path (kernels/cf_nodes_ops.h, use ROW or ONE):
 * the inputs evaluated in order, then cf_op_K */
#define EVAL_OP_1(K) EVAL(K) { return cf_op_##K(IN(0)); }
#define EVAL_OP_2(K) EVAL(K) { float a = IN(0), b = IN(1); return cf_op_##K(a, b); }
#define CF_OP_NODE_CASE(K, N) EVAL_OP_##N(K)
CF_OPS(CF_OP_NODES)
#undef CF_OP_NODE_CASE
/* VOL and OWN kinds: the point path's own rule around the op */
EVAL(MUL)
{
    float a = IN(0);
    if (e->mode != MODE_VOLUME && a == 0.0f && !is_literal(e, n->in[0]) && !is_literal(e, n->in[1])) return 0.0f;
    return cf_op_MUL(a, IN(1));
}
EVAL(DIV)
{
    if (is_literal(e, n->in[1])) {
        float a = IN(0);
        return cf_op_MUL(a, 1.0f / e->nodes[n->in[1]].f[0]);
    }
    float a = IN(0);
    if (e->mode != MODE_VOLUME && a == 0.0f && !is_literal(e, n->in[0])) return 0.0f;
    return cf_op_DIV(a, IN(1));
}
EVAL(MIN)
{
    float a = IN(0), b = IN(1);
    return e->mode == MODE_VOLUME ? cf_op_MIN(a, b) : cf_jminf(a, b);
}
EVAL(MAX)
{
    float a = IN(0), b = IN(1);
    return e->mode == MODE_VOLUME ? cf_op_MAX(a, b) : cf_jmaxf(a, b);
}
EVAL(CLAMP) { return cf_op_CLAMP(IN(0), n->f[0], n->f[1]); }

static float rounding(const ev *e, const cf_node *n, int32_t x, int32_t y, int32_t z)
{
    float a = IN(0);
    float m = IN(1);
    int one = is_literal(e, n->in[1]) && e->nodes[n->in[1]].f[0] == 1.0f;
    return cf_rounding(n->kind == NK_FLOOR ? 0 : n->kind == NK_ROUND ? 1 : n->kind == NK_CEIL ? 2 : 3, a, m, one);
}
EVAL(FLOOR) { return rounding(e, n, x, y, z); }
EVAL(ROUND) { return rounding(e, n, x, y, z); }
EVAL(CEIL) { return rounding(e, n, x, y, z); }
EVAL(TRUNCATE) { return rounding(e, n, x, y, z); }
EVAL(POW)
{
    float b = IN(0);
    return cf_pow_node(b, IN(1), is_literal(e, n->in[1]));
}
EVAL(RANGE_CHOICE)
{
    float v = IN(0);
    return (v >= n->f[0] && v < n->f[1]) ? IN(1) : IN(2);
}
EVAL(INTERVAL_SELECT)
{
    return IN(1 + cf_interval_index(n->fa, n->nfa, IN(0)));
}
EVAL(LERP)
{
    float a = IN(0);
    if (a == 0.0f) return IN(1);
    if (a == 1.0f) return IN(2);
    float f = IN(1);
    return cf_op_LERP(a, f, IN(2));
}
EVAL(GRADIENT)
{
    (void)e;
    int64_t c = n->i[0] == 0 ? x : n->i[0] == 1 ? y : z;
    return cf_gradient(c, n->i[1], n->i[2], n->f[0], n->f[1], n->i[3]);
}
EVAL(DISTANCE_TO_POINT)
{
    (void)e;
    return cf_distance(n->i[0], n->i[1], n->i[2], x, y, z, n->i[3]);
}
EVAL(SLICE)
{
    int32_t c = n->i[1];
    return n->i[0] == 0 ? ev_node(e, n->in[0], c, y, z) : n->i[0] == 1 ? ev_node(e, n->in[0], x, c, z)
                                                                      : ev_node(e, n->in[0], x, y, c);
}
EVAL(SPLINE)
{
    float c = IN(0);
    int np = n->nfa / 2;
    int i = cf_spline_index(n->fa, np, c);
    float y1 = IN(1 + (i < 0 ? 0 : i));
    float y2 = (i >= 0 && i < np - 1) ? IN(2 + i) : y1;
    return cf_spline_value(n->fa, np, c, i, y1, y2);
}
/* cf_stack_point with the lattice hashes of each octave's last cell kept in f->lat (plain
 * octaves; smeared ones and runs without a cache take cf_stack_point): the same operations on
 * the same values as cf_perlin and cf_perlin_lattice, so the same bits */
static float stack_point(const ev *e, int s, double x, double y, double z)
{
    cf_latcell *lat = e->f ? e->f->lat : NULL;
    CF_TAB t = e->w->tab;
    if (!lat) return cf_stack_point(t, s, x, y, z);
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    float v = 0.0f;
    for (int n = 0; n < count; n++, ly += CF_LAYER_BYTES) {
        int oi = cf_ld_i32(ly);
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * oi;
        float amp = cf_ld_f32(ly + 4);
        double f = cf_ld_f64(ly + 8), q = cf_ld_f64(o + 24);
        float nv;
        if (q > 0.0) {
            nv = cf_smeared(o + 32, cf_ld_f64(o), cf_ld_f64(o + 8), cf_ld_f64(o + 16), q, x * f, y * f, z * f);
        } else {
            double X = cf_wrap(x * f) + cf_ld_f64(o), Y = cf_wrap(y * f) + cf_ld_f64(o + 8), Z = cf_wrap(z * f) + cf_ld_f64(o + 16);
            int32_t i = cf_jfloor(X), j = cf_jfloor(Y), k = cf_jfloor(Z);
            float u = (float)(X - (double)i), vv = (float)(Y - (double)j), w = (float)(Z - (double)k);
            cf_latcell *c = &lat[oi];
            if (!c->ok || c->i != i || c->j != j || c->k != k) lat_cell_set(c, o + 32, i, j, k);
            float u1 = u - 1.0f, v1 = vv - 1.0f, w1 = w - 1.0f;
            nv = cf_lerp3f(cf_smoothf(u), cf_smoothf(vv), cf_smoothf(w), cf_gdot(c->h[0], u, vv, w), cf_gdot(c->h[1], u1, vv, w),
                           cf_gdot(c->h[2], u, v1, w), cf_gdot(c->h[3], u1, v1, w), cf_gdot(c->h[4], u, vv, w1),
                           cf_gdot(c->h[5], u1, vv, w1), cf_gdot(c->h[6], u, v1, w1), cf_gdot(c->h[7], u1, v1, w1));
        }
        v = v + amp * nv;
    }
    return v;
}

EVAL(NOISE)
{
    int s = e->w->noise_stack[n->noise];
    int zx = is_literal(e, n->in[0]) && e->nodes[n->in[0]].f[0] == 0.0f && !signbit(e->nodes[n->in[0]].f[0]);
    int zy = is_literal(e, n->in[1]) && e->nodes[n->in[1]].f[0] == 0.0f && !signbit(e->nodes[n->in[1]].f[0]);
    int zz = is_literal(e, n->in[2]) && e->nodes[n->in[2]].f[0] == 0.0f && !signbit(e->nodes[n->in[2]].f[0]);
    double xz = n->d[0], ys = n->d[1];
    if (zx && zy && zz) {
        if (e->mode == MODE_VOLUME) {
            float v; /* the corner stage's value where (x, y, z) is a corner of the fill (corners.c) */
            if (e->f && e->f->corners && corners_noise(e->f, (int)(n - e->nodes), x, y, z, &v)) return v;
            return cf_stack_volume(e->w->tab, s, x, y, z, xz, ys);
        }
        return stack_point(e, s, (double)x * xz, (double)y * ys, (double)z * xz);
    }
    double px = (double)x * xz + (double)IN(0);
    double py = zy ? (double)y * ys : (double)y * ys + (double)IN(1);
    double pz = (double)z * xz + (double)IN(2);
    return stack_point(e, s, px, py, pz);
}
EVAL(SHIFT_A)
{
    (void)y;
    return stack_point(e, e->w->noise_stack[n->noise], (double)x * 0.25, 0.0, (double)z * 0.25) * 4.0f;
}
EVAL(SHIFT_B)
{
    (void)y;
    return stack_point(e, e->w->noise_stack[n->noise], (double)z * 0.25, (double)x * 0.25, 0.0) * 4.0f;
}
EVAL(SHIFT)
{
    return stack_point(e, e->w->noise_stack[n->noise], (double)x * 0.25, (double)y * 0.25, (double)z * 0.25) * 4.0f;
}
EVAL(OLD_BLENDED_NOISE)
{
    float v; /* the corner stage's value where (x, y, z) is a corner of the fill (corners.c) */
    if (e->f && e->f->corners && corners_noise(e->f, (int)(n - e->nodes), x, y, z, &v)) return v;
    return cf_blended(e->w->tab, e->w->node_stack[n - e->nodes], n->d[0], n->d[1], n->d[2], n->d[3], x, y, z);
}
EVAL(END_OUTER_ISLANDS)
{
    (void)n, (void)y;
    return cf_end_islands(e->w->tab, e->w->islands, x, z);
}
/* yf[i] = 1 where node i's value does not depend on the block's y on the point and
 * sample paths: its own evaluator reads no y (or replaces it) and so do its
 * children's. Read y: interpolated (cell offsets, corners), gradient along y,
 * distance_to_point, shift, old_blended_noise, noise with a y scale. noise with
 * y scale 0 computes y * 0.0 = +-0, and +-0 + the octave's y offset is the same
 * double (also in cf_smeared, where lim is +-0 and lim / q + 1e-7 the same).
 * slice(y) and find_top_surface replace y. Children come before parents; any
 * other order counts as y-dependent. */
static void scan_yfree(const cf_node *nodes, int nn, uint8_t *yf)
{
    for (int i = 0; i < nn; i++) {
        const cf_node *n = &nodes[i];
        int free_ = 1;
        for (int k = 0; k < n->nin; k++)
            if (n->in[k] < 0 || n->in[k] >= i || !yf[n->in[k]]) free_ = 0;
        switch (n->kind) {
        case NK_INTERPOLATED: case NK_DISTANCE_TO_POINT: case NK_SHIFT: case NK_OLD_BLENDED_NOISE: free_ = 0; break;
        case NK_GRADIENT: free_ = n->i[0] != 1; break;
        case NK_NOISE: free_ = free_ && n->d[1] == 0.0; break;
        case NK_SLICE: case NK_FIND_TOP_SURFACE: /* y replaced: the children may read it */
            free_ = n->kind == NK_FIND_TOP_SURFACE || n->i[0] == 1 ? 1 : free_;
            for (int k = 0; k < n->nin; k++)
                if (n->in[k] < 0 || n->in[k] >= i) free_ = 0;
            break;
        default: break;
        }
        if (n->flags & NF_F64) free_ = 0;
        yf[i] = (uint8_t)free_;
    }
}

/* mf[i] = 1 where node i's value outside a fill is the same on the volume and the point path:
 * no kind below it whose evaluator reads the path (interpolated; min and max; mul of two
 * non-literals and div of two non-literals, whose point rule returns 0 for a 0 first operand;
 * an unshifted noise, cf_stack_volume against stack_point; the double kinds), or a
 * find_top_surface whose upper bound is such (its probes take the point path on both).
 * Children come before parents; any other order counts as path-dependent. */
static void scan_modefree(const cf_node *nodes, int nn, uint8_t *mf)
{
    for (int i = 0; i < nn; i++) {
        const cf_node *n = &nodes[i];
        int free_ = 1;
        for (int k = 0; k < n->nin; k++)
            if (n->in[k] < 0 || n->in[k] >= i || !mf[n->in[k]]) free_ = 0;
        int lit0 = n->nin > 0 && n->in[0] >= 0 && (nodes[n->in[0]].flags & NF_LITERAL);
        int lit1 = n->nin > 1 && n->in[1] >= 0 && (nodes[n->in[1]].flags & NF_LITERAL);
        switch (n->kind) {
        case NK_INTERPOLATED: case NK_MIN: case NK_MAX: free_ = 0; break;
        case NK_MUL: case NK_DIV: free_ = free_ && (lit0 || lit1); break;
        case NK_NOISE: {
            int zero = 1;
            for (int k = 0; k < 3 && k < n->nin; k++) {
                const cf_node *c = n->in[k] >= 0 ? &nodes[n->in[k]] : NULL;
                if (!c || !(c->flags & NF_LITERAL) || c->f[0] != 0.0f || signbit(c->f[0])) zero = 0;
            }
            free_ = free_ && !zero;
            break;
        }
        case NK_FIND_TOP_SURFACE: free_ = n->nin > 1 && n->in[1] >= 0 && n->in[1] < i && mf[n->in[1]]; break;
        default: break;
        }
        if (n->flags & NF_F64) free_ = 0;
        mf[i] = (uint8_t)free_;
    }
}

EVAL(FIND_TOP_SURFACE)
{
    (void)y;
    ev p = *e; /* the probes take the point path */
    if (p.mode == MODE_VOLUME) p.mode = MODE_POINT;
    struct scan_memo sm = {p.mode, NULL, NULL, 1};
    int kept = 0; /* the memo of eval_scan_f32 (not inside another scan) */
    if (!p.f && e->scan && !e->sm) {
        kept = 1, p.sm = &e->scan->sm;
        p.sm->mode = p.mode;
        if (++p.sm->gen == 0) { /* wrapped: every entry stale */
            memset(p.sm->v, 0, sizeof *p.sm->v * (size_t)e->w->prog->nnodes);
            p.sm->gen = 1;
        }
    } else if (!p.f) { /* outside a fill (a fill has its own column memos) */
        int nn = e->w->prog->nnodes;
        sm.yf = malloc((size_t)nn);
        sm.v = calloc((size_t)nn, sizeof *sm.v);
        if (sm.yf && sm.v) {
            scan_yfree(e->nodes, nn, sm.yf);
            p.sm = &sm;
        }
    }
    /* on the point path, or where the upper bound's value is the same on both paths, it shares
     * the probes' y-free values (offset, factor) */
    int same = e->mode == p.mode || (kept && e->scan->mf[n->in[1]]);
    float u = ev_node(same ? &p : e, n->in[1], x, 0, z);
    int32_t ch = n->i[1], lower = n->i[0];
    int32_t top = (int32_t)((uint32_t)cf_jfloor((double)(u / (float)ch)) * (uint32_t)ch);
    float r = (float)lower;
    for (int64_t yy = top; top > lower && yy >= lower; yy -= ch)
        if (ev_node(&p, n->in[0], x, (int32_t)yy, z) > 0.0f) {
            r = (float)yy;
            break;
        }
    free(sm.yf), free(sm.v);
    return r;
}

typedef float (*eval_fn)(const ev *, const cf_node *, int32_t, int32_t, int32_t);
static const eval_fn evals[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary) [NK_##K] = eval_##K,
#define NODE64(K, name, flags, fields, summary, value) /* eval64.c */
#include "ir/nodes.def"
#undef NODE64
#undef NODE
};

static float ev_node(const ev *e, int id, int32_t x, int32_t y, int32_t z)
{
    const cf_node *n = &e->nodes[id];
    cf_fill *f = e->f;
    if (f && f->count) f->count[id]++;
    if (f && e->mode != MODE_SAMPLE && f->memo[id] != MEMO_NONE) {
        int m = e->mode - 1;
        if (f->memo[id] == MEMO_COLUMN) {
            cf_lanes *l = f->lanes;
            int q = l ? lane_of(l, x, z) : -1;
            if (q >= 0) { /* a column of the group: its lane's memo */
                size_t k = (size_t)f->colslot[id] * CF_LANES_MAX + (size_t)q;
                if (l->colst[m][k] == l->stamp) {
                    if (f->count) f->count[id]--;
                    return l->col[m][k];
                }
                float v = evals[n->kind](e, n, x, y, z);
                l->col[m][k] = v, l->colst[m][k] = l->stamp;
                return v;
            }
            uint32_t dx = (uint32_t)(x - f->x0), dz = (uint32_t)(z - f->z0);
            if (dx <= (uint32_t)f->sx && dz <= (uint32_t)f->sz) {
                size_t k = (size_t)f->colslot[id] * (size_t)f->colstride + dz * (size_t)(f->sx + 1) + dx;
                if (f->colstamp[m][k] == f->stamp) {
                    if (f->count) f->count[id]--; /* served from the memo: not computed */
                    return f->col[m][k];
                }
                float v = evals[n->kind](e, n, x, y, z);
                f->col[m][k] = v;
                f->colstamp[m][k] = f->stamp;
                return v;
            }
        } else {
            cf_memo *c = &f->last[m][id];
            if (c->stamp == f->stamp && c->x == x && c->y == y && c->z == z) {
                if (f->count) f->count[id]--;
                return c->v;
            }
            float v = evals[n->kind](e, n, x, y, z);
            c->x = x, c->y = y, c->z = z, c->stamp = f->stamp, c->v = v;
            return v;
        }
    }
    if (e->sm && e->sm->yf[id] && e->mode == e->sm->mode) {
        struct scan_e *c = &e->sm->v[id];
        if (c->gen == e->sm->gen && c->x == x && c->z == z) {
            if (f && f->count) f->count[id]--;
            return c->v;
        }
        float v = evals[n->kind](e, n, x, y, z);
        c->x = x, c->z = z, c->v = v, c->gen = e->sm->gen;
        return v;
    }
    return evals[n->kind](e, n, x, y, z);
}

float eval_f32(const cf_world *w, cf_fill *f, int mode, int node, int32_t x, int32_t y, int32_t z)
{
    ev e = {w, w->prog->nodes, mode, f, f != NULL && mode == MODE_VOLUME, f ? f->y0 : 0, NULL, NULL, NULL, NULL};
    if (f) {
        e.cmp = &f->cmap;
        return ev_node(&e, node, x, y, z);
    }
    cmap *m = NULL;
    e.cmp = &m;
    float v = ev_node(&e, node, x, y, z);
    cmap_free(m);
    return v;
}

float eval_volume_f32(const cf_world *w, int node, int32_t x, int32_t y, int32_t z, int32_t vmin)
{
    cmap *cm = NULL;
    ev e = {w, w->prog->nodes, MODE_VOLUME, NULL, 1, vmin, NULL, NULL, &cm, NULL};
    float v = ev_node(&e, node, x, y, z);
    cmap_free(cm);
    return v;
}

float eval_volume_memo(const cf_world *w, cf_cmemo *m, int node, int32_t x, int32_t y, int32_t z, int32_t vmin)
{
    cmap *cm = NULL;
    ev e = {w, w->prog->nodes, MODE_VOLUME, NULL, 1, vmin, m, NULL, &cm, NULL};
    float v = ev_node(&e, node, x, y, z);
    cmap_free(cm);
    return v;
}

cf_scan *scan_new(const cf_world *w)
{
    int nn = w->prog->nnodes;
    cf_scan *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->w = w;
    s->sm.yf = malloc((size_t)nn);
    s->sm.v = calloc((size_t)nn, sizeof *s->sm.v);
    s->mf = malloc((size_t)nn);
    if (!s->sm.yf || !s->sm.v || !s->mf) {
        scan_free(s);
        return NULL;
    }
    scan_yfree(w->prog->nodes, nn, s->sm.yf);
    scan_modefree(w->prog->nodes, nn, s->mf);
    return s;
}

void scan_free(cf_scan *s)
{
    if (!s) return;
    free(s->sm.yf), free(s->sm.v), free(s->mf);
    free(s);
}

int scan_same_paths(const cf_scan *s, int node) { return s->mf[node]; }

float eval_scan_f32(cf_scan *s, int mode, int node, int32_t x, int32_t y, int32_t z)
{
    cmap *cm = NULL;
    ev e = {s->w, s->w->prog->nodes, mode, NULL, mode == MODE_VOLUME, 0, NULL, NULL, &cm, s};
    float v = ev_node(&e, node, x, y, z);
    cmap_free(cm);
    return v;
}

float eval_point_f32(const cf_world *w, int node, int32_t x, int32_t y, int32_t z)
{
    return eval_f32(w, NULL, MODE_SAMPLE, node, x, y, z);
}

/* ------------------------------------------------------------------ corner rows
 * The corners of an interpolated node's input, a corner row at a time (one y, the row's
 * stale corners): the expression under the input is evaluated node by node over the row
 * (bnode), so the node table is dispatched once per node and row, not per corner. The
 * element-wise kinds are rowops.c's operations (the volume path's float operations, lane
 * by lane), selects compute their branches where some corner takes them, interval_select
 * selects per corner, the corner stage's noises are read from their rows (corners_noise),
 * gradients are computed per corner; every other node (splines and 2-D nodes, served by
 * their column memos, shifted noises, ...) goes through ev_node per corner as before. A
 * node's values are a pure function of the corner, so the values are the same. */
typedef struct batch {
    const ev *e;
    int np;                 /* corners of the row */
    const int32_t *xs, *zs; /* their x and z; y is common */
    const int *is, *ks;     /* their corner index along x and z in the interpolation's lattice */
    int32_t y;
    int32_t w, cx0, cz0;    /* the lattice: cell width, first corner */
    int ncx, ncz;
    int lanes;              /* the corners are f->lanes' columns, is[] their lanes (lanes_row) */
} batch;

static const float *bnode(const batch *b, int id);

/* the per-batch buffers of f: node id's values in f->bbuf + id * f->bcap, valid while
 * f->bst[id] == f->bstamp */
static float *bslot(cf_fill *f, int id) { return f->bbuf + (size_t)id * (size_t)f->bcap; }

static const float *bnode(const batch *b, int id)
{
    const ev *e = b->e;
    cf_fill *f = e->f;
    if (f->bst[id] == f->bstamp) return bslot(f, id);
    const cf_node *n = &e->nodes[id];
    float *o = bslot(f, id);
    int np = b->np, batched = 1;
    /* a 2-D node with a column memo: the memo's value per corner (computed once per column) */
    switch (f->memo[id] == MEMO_COLUMN ? NK_COUNT : n->kind) {
    /* the row kinds' ops of one and two operands (kernels/cf_nodes_ops.h: ROW, VOL); lerp's
     * three have their lazy branches below */
#define CF_OP_ROW_CASE(K, N) CF_OP_BNODE_##N(K)
#define CF_OP_BNODE_1(K) case NK_##K:
#define CF_OP_BNODE_2(K) case NK_##K:
#define CF_OP_BNODE_3(K)
    CF_OPS(CF_OP_ROWS)
#undef CF_OP_ROW_CASE
#undef CF_OP_BNODE_1
#undef CF_OP_BNODE_2
#undef CF_OP_BNODE_3
    case NK_CLAMP: case NK_CACHE: case NK_BLEND_DENSITY: {
        int lit = n->kind == NK_DIV && is_literal(e, n->in[1]);
        const float *a = bnode(b, n->in[0]);
        const float *c = n->nin > 1 && !lit ? bnode(b, n->in[1]) : a;
        rowop(f->isa, n->kind, o, a, c, a, (size_t)np, n->f[0], n->f[1], lit, lit ? 1.0f / e->nodes[n->in[1]].f[0] : 0.0f);
        break;
    }
    case NK_RANGE_CHOICE: case NK_LERP: {
        /* a branch no corner takes is not computed (eval's RANGE_CHOICE / LERP branch per corner) */
        const float *a = bnode(b, n->in[0]);
        int rc = n->kind == NK_RANGE_CHOICE;
        size_t m1 = rowop_count(f->isa, a, (size_t)np, !rc, rc ? n->f[0] : 0.0f, n->f[1]);
        size_t m2 = rc ? (size_t)np - m1 : rowop_count(f->isa, a, (size_t)np, 1, 1.0f, 0.0f);
        /* range_choice: m1 corners take in[1], m2 in[2]; lerp: m1 take in[1] alone, m2 in[2] alone */
        if (m1 == (size_t)np) {
            memcpy(o, bnode(b, n->in[1]), sizeof(float) * (size_t)np);
        } else if (m2 == (size_t)np) {
            memcpy(o, bnode(b, n->in[2]), sizeof(float) * (size_t)np);
        } else {
            const float *u = bnode(b, n->in[1]), *v = bnode(b, n->in[2]);
            rowop(f->isa, n->kind, o, a, u, v, (size_t)np, n->f[0], n->f[1], 0, 0.0f);
        }
        break;
    }
    case NK_INTERVAL_SELECT: {
        const float *a = bnode(b, n->in[0]);
        for (int q = 0; q < np; q++) {
            o[q] = bnode(b, n->in[1 + cf_interval_index(n->fa, n->nfa, a[q])])[q]; /* computed on first use */
        }
        break;
    }
    case NK_CONSTANT:
        for (int q = 0; q < np; q++) o[q] = n->f[0];
        break;
    case NK_GRADIENT:
        if (n->i[0] == 1) { /* along y: one value for the row */
            float v = cf_gradient(b->y, n->i[1], n->i[2], n->f[0], n->f[1], n->i[3]);
            for (int q = 0; q < np; q++) o[q] = v;
            break;
        }
        for (int q = 0; q < np; q++) {
            int64_t c = n->i[0] == 0 ? b->xs[q] : n->i[0] == 1 ? b->y : b->zs[q];
            o[q] = cf_gradient(c, n->i[1], n->i[2], n->f[0], n->f[1], n->i[3]);
        }
        break;
    case NK_NOISE: case NK_OLD_BLENDED_NOISE:
        if (b->lanes) { /* the group's strided lattice row: lane is[q] */
            const float *row = corners_lane_row(f->w, f->lanes->cs, id, b->y);
            if (row) {
                for (int q = 0; q < np; q++) o[q] = row[b->is[q]];
                if (f->count) f->count[id] += (uint32_t)np;
                f->bst[id] = f->bstamp;
                return o;
            }
        }
        if (f->corners) { /* the corner stage's rows where it has the node (corners.c), else the evaluator */
            const float *row = b->lanes ? NULL : corners_row(f, id, b->y, b->w, b->cx0, b->cz0, b->ncx, b->ncz);
            if (row) {
                size_t sk = (size_t)corners_ncx(f->corners);
                for (int q = 0; q < np; q++) o[q] = row[(size_t)b->ks[q] * sk + (size_t)b->is[q]];
                if (f->count) f->count[id] += (uint32_t)np;
                f->bst[id] = f->bstamp;
                return o;
            }
            for (int q = 0; q < np; q++) {
                if (corners_noise(f, id, b->xs[q], b->y, b->zs[q], &o[q])) {
                    if (f->count) f->count[id]++;
                } else {
                    o[q] = ev_node(e, id, b->xs[q], b->y, b->zs[q]);
                }
            }
            f->bst[id] = f->bstamp;
            return o;
        }
        batched = 0;
        break;
    default: batched = 0; break;
    }
    if (!batched && f->memo[id] == MEMO_COLUMN && !b->lanes) {
        /* the column memo read here (ev_node's MEMO_COLUMN lookup), ev_node where it is stale */
        int m = e->mode - 1;
        const float *col = f->col[m] + (size_t)f->colslot[id] * (size_t)f->colstride;
        const uint32_t *cst = f->colstamp[m] + (size_t)f->colslot[id] * (size_t)f->colstride;
        for (int q = 0; q < np; q++) {
            uint32_t dx = (uint32_t)(b->xs[q] - f->x0), dz = (uint32_t)(b->zs[q] - f->z0);
            size_t k = dz * (size_t)(f->sx + 1) + dx;
            o[q] = dx <= (uint32_t)f->sx && dz <= (uint32_t)f->sz && cst[k] == f->stamp ? col[k]
                                                                                       : ev_node(e, id, b->xs[q], b->y, b->zs[q]);
        }
    } else if (!batched) {
        for (int q = 0; q < np; q++) o[q] = ev_node(e, id, b->xs[q], b->y, b->zs[q]);
    } else if (f->count) {
        f->count[id] += (uint32_t)np;
    }
    f->bst[id] = f->bstamp;
    return o;
}

/* bnode's per-batch buffers become stale */
static void bstamp_next(cf_fill *f)
{
    if (++f->bstamp == 0) {
        memset(f->bst, 0, sizeof(uint32_t) * ((size_t)f->nnodes + 1));
        f->bstamp = 1;
    }
}

/* corner row jj of interpolated node n at f's region, lane l->cur of the group (its one stale
 * corner q0): from the group's rows, or computed through bnode for the lanes from cur on */
static void lanes_row(const ev *c, const cf_node *n, struct cf_interp *ip, size_t jj, size_t q0)
{
    cf_fill *f = c->f;
    cf_lanes *l = f->lanes;
    size_t r = (size_t)f->islot[n - c->nodes] * (size_t)l->maxj + jj;
    float *v = l->row + r * CF_LANES_MAX;
    if (l->rowst[r] != l->stamp || l->rowlo[r] > l->cur) {
        int32_t xs[CF_LANES_MAX], zs[CF_LANES_MAX];
        int is[CF_LANES_MAX], ks[CF_LANES_MAX];
        int np = l->n - l->cur;
        for (int q = 0; q < np; q++) {
            is[q] = l->cur + q, ks[q] = 0; 
            xs[q] = (int32_t)((int64_t)l->x0 + (int64_t)is[q] * l->step), zs[q] = l->z;
        }
        bstamp_next(f);
        batch b = {c, np, xs, zs, is, ks, (ip->cy0 + (int32_t)jj) * n->i[1], n->i[0], ip->cx0, ip->cz0, 1, 1, 1};
        f->inrow = 1; /* corner_row's rule */
        const float *o = bnode(&b, n->in[0]);
        f->inrow = 0;
        memcpy(v + l->cur, o, sizeof(float) * (size_t)np);
        l->rowst[r] = l->stamp, l->rowlo[r] = l->cur;
    }
    ip->corner[q0] = v[l->cur], ip->cstamp[q0] = f->stamp;
}

/* the stale corners of row jj of interpolated node n (slot ip) through bnode */
static void corner_row(const ev *c, const cf_node *n, struct cf_interp *ip, size_t jj)
{
    cf_fill *f = c->f;
    int cw = n->i[0];
    int32_t xs[CF_MAX_CORNERS_X * CF_MAX_CORNERS_X], zs[CF_MAX_CORNERS_X * CF_MAX_CORNERS_X];
    size_t qs[CF_MAX_CORNERS_X * CF_MAX_CORNERS_X];
    int is[CF_MAX_CORNERS_X * CF_MAX_CORNERS_X], ks[CF_MAX_CORNERS_X * CF_MAX_CORNERS_X];
    int np = 0;
    for (int k = 0; k < ip->ncz; k++)
        for (int i = 0; i < ip->ncx; i++) {
            size_t q = ((size_t)k * (size_t)ip->ncy + jj) * (size_t)ip->ncx + (size_t)i;
            if (ip->cstamp[q] == f->stamp) continue;
            xs[np] = (ip->cx0 + i) * cw, zs[np] = (ip->cz0 + k) * cw, qs[np] = q, is[np] = i, ks[np] = k;
            np++;
        }
    if (np == 0) return;
    cf_lanes *l = f->lanes;
    if (l && l->cur >= 0 && np == 1 && (size_t)jj < (size_t)l->maxj && zs[0] == l->z
        && (int64_t)xs[0] == (int64_t)l->x0 + (int64_t)l->cur * l->step) {
        lanes_row(c, n, ip, jj, qs[0]);
        return;
    }
    bstamp_next(f);
    batch b = {c, np, xs, zs, is, ks, (ip->cy0 + (int32_t)jj) * n->i[1], cw, ip->cx0, ip->cz0, ip->ncx, ip->ncz, 0};
    /* the row's buffers stay valid until it ends: an interpolated node under n (evaluated per
     * corner by ev_node) must not start a row of its own, which would restamp and overwrite
     * them (fuzz finding: interpolated(4) of interpolated(8)(g) * g) */
    f->inrow = 1;
    const float *v = bnode(&b, n->in[0]);
    f->inrow = 0;
    for (int q = 0; q < np; q++) ip->corner[qs[q]] = v[q], ip->cstamp[qs[q]] = f->stamp;
}

/* the stale corners of corner row jj of interpolated node n (slot ip): corner_row, or corner by
 * corner inside another corner row (fill_interp_blocks' two ways) */
static void corner_row_any(const ev *c, const cf_node *n, struct cf_interp *ip, size_t jj)
{
    cf_fill *f = c->f;
    if (f->bbuf && !f->inrow) {
        corner_row(c, n, ip, jj);
        return;
    }
    int32_t cw = n->i[0], h = n->i[1];
    for (int k = 0; k < ip->ncz; k++)
        for (int i = 0; i < ip->ncx; i++) {
            size_t q = ((size_t)k * (size_t)ip->ncy + jj) * (size_t)ip->ncx + (size_t)i;
            if (ip->cstamp[q] != f->stamp) {
                ip->corner[q] = ev_node(c, n->in[0], (ip->cx0 + i) * cw, (ip->cy0 + (int32_t)jj) * h, (ip->cz0 + k) * cw);
                ip->cstamp[q] = f->stamp;
            }
        }
}

int fill_interp_hull(cf_fill *f, int id, int32_t x, int32_t z, int32_t ylo, int32_t yhi, float *lo, float *hi)
{
    const cf_world *w = f->w;
    const cf_node *n = &w->prog->nodes[id];
    if (n->kind != NK_INTERPOLATED || !f->islot || f->islot[id] < 0 || ylo > yhi) return 0;
    struct cf_interp *ip = &f->interp[f->islot[id]];
    int32_t cw = n->i[0], h = n->i[1];
    int64_t i = cf_floordiv(x, cw) - ip->cx0, k = cf_floordiv(z, cw) - ip->cz0;
    int64_t j0 = cf_floordiv(ylo, h) - ip->cy0, j1 = cf_floordiv(yhi, h) + 1 - ip->cy0;
    if ((int64_t)x != (int64_t)(ip->cx0 + i) * cw || (int64_t)z != (int64_t)(ip->cz0 + k) * cw || i < 0 || k < 0
        || i >= ip->ncx || k >= ip->ncz || j0 < 0 || j1 >= ip->ncy)
        return 0;
    ev e = {w, w->prog->nodes, MODE_VOLUME, f, 1, f->y0, NULL, NULL, &f->cmap, NULL};
    e.vmin = (int32_t)cf_floordiv(f->y0, h) * h; /* the corners' context, as fill_interp_blocks' */
    float l = INFINITY, u = -INFINITY;
    for (int64_t jj = j0; jj <= j1; jj++) {
        size_t q = ((size_t)k * (size_t)ip->ncy + (size_t)jj) * (size_t)ip->ncx + (size_t)i;
        if (ip->cstamp[q] != f->stamp) corner_row_any(&e, n, ip, (size_t)jj);
        float v = ip->corner[q];
        l = fminf(l, v), u = fmaxf(u, v);
    }
    *lo = l, *hi = u;
    return 1;
}

/* the start of the y walk of n columns: a and b the x lerps of the z lerps (v00 v10, v01 v11),
 * the step (b - a) / h, the value a + step * start (fill_interp_blocks' float operations) */
static void walk_start(float *restrict run, float *restrict stp, float *restrict out, const float *restrict v00,
                       const float *restrict v10, const float *restrict v01, const float *restrict v11,
                       const float *restrict ax, int n, float invy, float fs)
{
    for (int x = 0; x < n; x++) {
        float a = cf_lerpf(ax[x], v00[x], v10[x]), b = cf_lerpf(ax[x], v01[x], v11[x]);
        float step = (b - a) * invy;
        float v = a + step * fs;
        stp[x] = step;
        run[x] = v, out[x] = v;
    }
}

/* The block values of interpolated node `id` over the window's rows, in 26.3's order:
 * per column lerp along z, then x, then walk y by the float step (§11): a row continues the
 * walk of the row below where this context computed it last (ip->runy), else starts it from
 * its cell's first row (or the region's, inside the cell): a + step * start, then the step
 * added once per row, as eval's INTERPOLATED does. So any window, of any rows, in any order
 * (fill_chunk's rows bottom up, surface_scan's windows top down, rows a branch skipped)
 * gives each block the float sequence of a whole-chunk fill. */
void fill_interp_blocks(cf_fill *f, int id)
{
    const cf_world *w = f->w;
    ev e = {w, w->prog->nodes, MODE_VOLUME, f, 1, f->y0, NULL, NULL, &f->cmap, NULL};
    const cf_node *n = &e.nodes[id];
    struct cf_interp *ip = &f->interp[f->islot[id]];
    int32_t cw = n->i[0], h = n->i[1];
    ev c = e; /* the corners: the input on the volume path */
    c.vmin = (int32_t)cf_floordiv(f->y0, h) * h;
    float inv = 1.0f / (float)cw, invy = 1.0f / (float)h;
    size_t sj = (size_t)ip->ncx, sk = (size_t)ip->ncx * (size_t)ip->ncy;
    size_t ncol = (size_t)f->sx * (size_t)f->sz;
    float *restrict run = ip->run, *restrict stp = ip->stp;
    /* once per region: per x its corner cell and weight, per z its corner offset and weight */
    size_t *cix = ip->cidx, *ckz = ip->cidx + f->sx;
    float *cax = ip->cax, *caz = ip->caz;
    if (ip->colst != f->stamp) {
        for (int32_t xi = 0; xi < f->sx; xi++) {
            cix[xi] = (size_t)(cf_floordiv(f->x0 + xi, cw) - ip->cx0);
            cax[xi] = (float)(int32_t)cf_floormod(f->x0 + xi, cw) * inv;
        }
        for (int32_t zi = 0; zi < f->sz; zi++) {
            ckz[zi] = (size_t)(cf_floordiv(f->z0 + zi, cw) - ip->cz0) * sk;
            caz[zi] = (float)(int32_t)cf_floormod(f->z0 + zi, cw) * inv;
        }
        ip->colst = f->stamp;
    }
    /* the z lerps of one z and one corner row, per corner x (shared by the columns of
     * that z: v00 of a column is zl0[i], v10 zl0[i+1], v01 zl1[i], v11 zl1[i+1]) */
    float zl0[CF_MAX_CORNERS_X], zl1[CF_MAX_CORNERS_X];
    for (int32_t yi = f->wy0; yi < f->wy1; yi++) {
        float *restrict out = ip->block + (size_t)(yi - f->wy0) * ncol;
        int64_t ya = (int64_t)f->y0 + yi;
        int32_t iy = (int32_t)cf_floormod(ya, h);
        if (ip->runst == f->stamp && ip->runy == yi - 1 && iy != 0) {
            rowop(f->isa, NK_ADD, out, run, stp, stp, ncol, 0.0f, 0.0f, 0, 0.0f);
            memcpy(run, out, sizeof(float) * ncol);
        } else {
            /* the cell's corners (rows j and j + 1), once per region */
            size_t j = (size_t)(cf_floordiv(ya, h) - ip->cy0);
            for (size_t jj = j; jj <= j + 1 && jj < (size_t)ip->ncy; jj++) corner_row_any(&c, n, ip, jj);
            /* the walk starts at the cell's first row, or the region's where it begins inside the cell */
            int64_t cs = ya - iy;
            int32_t start = cs >= f->y0 ? 0 : (int32_t)(f->y0 - cs);
            float fs = (float)start;
            for (int32_t zi = 0; zi < f->sz; zi++) {
                const float *c0 = ip->corner + ckz[zi] + j * sj;
                float az = caz[zi];
                for (int i = 0; i < ip->ncx; i++) {
                    zl0[i] = cf_lerpf(az, c0[i], c0[sk + i]);
                    zl1[i] = cf_lerpf(az, c0[sj + i], c0[sk + sj + i]);
                }
                /* each column's four z lerps, then the x lerps and the walk's start over the row */
                float g[4][16];
                for (int32_t x0 = 0; x0 < f->sx; x0 += 16) {
                    int nx = f->sx - x0 < 16 ? f->sx - x0 : 16;
                    for (int x = 0; x < nx; x++) {
                        size_t i = cix[x0 + x];
                        g[0][x] = zl0[i], g[1][x] = zl0[i + 1], g[2][x] = zl1[i], g[3][x] = zl1[i + 1];
                    }
                    size_t q0 = (size_t)zi * (size_t)f->sx + (size_t)x0;
                    walk_start(run + q0, stp + q0, out + q0, g[0], g[1], g[2], g[3], cax + x0, nx, invy, fs);
                }
            }
            /* the region begins inside the cell: the rows below it in the cell */
            for (int32_t k = start; k < iy; k++)
                for (size_t q = 0; q < ncol; q++) out[q] = run[q] = run[q] + stp[q];
        }
        ip->runy = yi, ip->runst = f->stamp;
    }
    ip->bstamp = f->wstamp;
}
