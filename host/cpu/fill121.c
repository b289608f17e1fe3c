/* fill121.c - the staged chunk fill of the Minecraft 1.18-1.21 dialect (double).
 *
 * Input: a thread's eval64 context of a DIALECT_MC121 world, an output node and a
 * chunk. Output: the chunk's doubles [y][z][x], the same bits as fill121_points (every
 * block on its own through eval64.c's per-node memo, kept as the reference).
 *
 * NoiseChunk's fill as stages. The block expression above the markers (what is not
 * inside an interpolated or flat_cache node) is compiled once into a list of ops, one
 * per (node, interpolation order). A chunk is filled cell by cell; an op computes all
 * blocks of a cell at once into its buffer (lanes (y, z, x) of the cell), at most once
 * per cell:
 *  - interpolated: its input at the cell's 8 corners (eval64's corner mode, each corner
 *    once per chunk, kept in a buffer over the corner lattice), then per block the same
 *    lerps as eval64.c: x, y, z (the cell cache of router:final_density) or y, x, z;
 *  - flat_cache: its input at the quart corner (x, 0, z) once per chunk and quart;
 *  - arithmetic, y_clamped_gradient, constants: the same double operations per block;
 *  - range_choice and a mul's zero left side choose per block; a branch
 *    that no block of the cell takes is not computed (values are pure: computing one that
 *    only some blocks take changes no value, only time), so the noodle caves cost nothing
 *    in cells where their toggle rules them out;
 *  - every other kind (noises, splines, ... outside the markers): eval64 at each block.
 * Programs whose cells do not tile the chunk (16 % cell width, height or min_y % cell
 * height) are not staged: fill121_new returns NULL and the caller uses fill121_points.
 * Sampled columns (heights.c): a cell that holds one sample computes that column alone (ch
 * lanes); on a cell corner, where bound121 proves the interpolated inputs finite, from its own
 * corner column alone (interp: the lerps with weight 0 keep their first end).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_mc121.h"
#include "cpu/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define F121_AVX512 1
#endif

enum { OP_POINT = -1 }; /* an op of another kind: eval64 at each block */
enum { F121_MAX_LANES = 4096, F121_MAX_COLUMN = 1024 };

typedef struct op121 {
    int kind; /* NK_M_* or OP_POINT */
    int node, mode;
    int in[3];    /* ops of the inputs (the kinds that have them) */
    int slot;     /* interpolated: corner buffer; flat_cache: quart table */
    uint32_t st;  /* the cell stamp of buf */
    double *buf;  /* lanes */
    const double *out; /* block ops: the cell's values (buf, or the buffer of the branch every block takes) */
    uint8_t *have; /* corner ops: per lane 1 where computed for the column (valid while part is the column's stamp) */
    uint32_t full, part; /* corner ops: the column stamp when every lane / some lanes are computed */
    cf_i32 rec;    /* noises: the seed record */
} op121;

struct cf_fill121 {
    ev64_ctx *c;
    const cf_program *p;
    int root, final, mode;
    op121 *ops;
    int nops;
    int cw, ch, lanes, ncxz, ncy; /* cell size; blocks a cell; cells per chunk axis */
    int *lx, *ly, *lz;            /* per lane: its block in the cell (the whole cell's, or one column's) */
    int *wlx, *wly, *wlz;         /* the whole cell's lanes */
    int *clx, *cly, *clz;         /* one column's lanes (ch of them, y = lane) */
    int col, colbx, colbz;        /* the current cell is one column (colbx, colbz) of ch lanes, not the whole cell */
    double *fx, *fy, *fz;         /* per lane: the lerp weights (eval64.c's) */
    double *ends;                 /* interpolation: the lerps at both z ends, per (y, x) of a cell */
    int ninterp, nflat;
    int *islot_node, *fslot_node;      /* per slot: the marker's node */
    double *corner;                    /* per interpolated slot: (ncxz+1)^2 (ncy+1) corners */
    uint32_t *cornst;                  /* their chunk stamps */
    int *slot_op;                      /* per interpolated slot: the op of its input at corners, or -1 */
    uint8_t *always;                   /* per interpolated slot: read by every cell (corner_lattice) */
    uint8_t *fin;                      /* per interpolated slot: its input's values proven finite (bound121) */
    int allfin;                        /* every slot's (a corner column's cell reads its own corners only) */
    uint8_t *ones;                     /* a mask of every corner of a column */
    double flat[25 * 64];              /* per flat slot (at most 64): the chunk's 5 x 5 quarts */
    uint32_t flatst[25 * 64];
    uint32_t cst, st, cols; /* chunk stamp, cell stamp, column stamp */
    int blen, clanes, clp;  /* lanes of an op's buffer; corners of a column (ncy + 1); clanes rounded up to 64 */
    double colx, colz, *coly; /* the corner column: its x, z; per lane its y */
    double *work;             /* the column noises' scratch: 8 doubles a corner */
    int avx512;               /* col_octave: 8 corners at a time (AVX-512 with VBMI; CF_NO_AVX512 in the environment: not) */
    uint8_t *wm;              /* and a byte a corner */
    int32_t cx, cz;   /* the chunk */
    int64_t fcx, fcz, fcy; /* its first cell x, z; the cell y of min_y */
    int32_t bx0, by0, bz0, icx, icy, icz; /* the cell: its first block, its index */
};

typedef struct cf_fill121 f121;

/* ------------------------------------------------------------------ compile */

/* the markers that pass their input through in mode `mode` (eval64.c's): a block stage
 * (EV64_CELL, EV64_VALUE) or cell corners (EV64_CORNER: interpolated is its input;
 * cache_all_in_cell would change the mode, it stays an eval64 op) */
static int resolve(const cf_program *p, int node, int *mode)
{
    for (;;) {
        int k = p->nodes[node].kind;
        if (k == NK_M_CACHE_2D || k == NK_M_CACHE_ONCE || k == NK_M_BLEND_DENSITY || (k == NK_M_INTERPOLATED && *mode == EV64_CORNER))
            node = p->nodes[node].in[0];
        else if (k == NK_M_CACHE_ALL_IN_CELL && *mode != EV64_CORNER) node = p->nodes[node].in[0], *mode = EV64_CELL;
        else return node;
    }
}

/* the inputs an op of this kind reads from other ops (0: a leaf, or an eval64 op) */
static int nin_of(int kind, int mode)
{
    if (mode == EV64_CORNER) switch (kind) {
        case NK_M_SHIFTED_NOISE: return 3;
        case NK_M_WEIRD_SCALED_SAMPLER: return 1;
        default: break;
        }
    switch (kind) {
    case NK_M_ADD: case NK_M_MUL: case NK_M_MIN: case NK_M_MAX: return 2;
    case NK_M_ABS: case NK_M_SQUARE: case NK_M_CUBE: case NK_M_HALF_NEGATIVE: case NK_M_QUARTER_NEGATIVE:
    case NK_M_INVERT: case NK_M_SQUEEZE: case NK_M_CLAMP: return 1;
    case NK_M_RANGE_CHOICE: return 3;
    default: return 0;
    }
}

/* op of (node, mode), compiled with its inputs; -1 when out of memory */
static int compile(f121 *s, int *memo, int node, int mode)
{
    const cf_program *p = s->p;
    node = resolve(p, node, &mode);
    int *m = &memo[3 * node + (mode == EV64_CELL ? 1 : mode == EV64_CORNER ? 2 : 0)];
    if (*m >= 0) return *m;
    const cf_node *n = &p->nodes[node];
    op121 o = {.kind = n->kind, .node = node, .mode = mode, .in = {-1, -1, -1}, .slot = -1};
    int nin = nin_of(n->kind, mode);
    switch (n->kind) {
    case NK_M_CONSTANT: case NK_M_BLEND_ALPHA: case NK_M_BLEND_OFFSET: case NK_M_BEARDIFIER:
    case NK_M_Y_CLAMPED_GRADIENT: case NK_M_INTERPOLATED: case NK_M_FLAT_CACHE:
        break;
    case NK_M_NOISE: case NK_M_SHIFTED_NOISE: case NK_M_SHIFT_A: case NK_M_SHIFT_B: case NK_M_SHIFT:
    case NK_M_OLD_BLENDED_NOISE: case NK_M_WEIRD_SCALED_SAMPLER: case NK_M_END_ISLANDS:
        if (mode != EV64_CORNER) o.kind = OP_POINT;
        else o.rec = cf21_record(s->c->w->tab, node);
        break;
    default:
        if (!nin) o.kind = OP_POINT;
    }
    for (int k = 0; k < nin; k++)
        if ((o.in[k] = compile(s, memo, n->in[k], mode)) < 0) return -1;
    if (o.kind == NK_M_INTERPOLATED) {
        for (o.slot = 0; o.slot < s->ninterp && s->islot_node[o.slot] != node; o.slot++) {}
        if (o.slot == s->ninterp) s->islot_node[s->ninterp++] = node;
    }
    if (o.kind == NK_M_FLAT_CACHE) {
        for (o.slot = 0; o.slot < s->nflat && s->fslot_node[o.slot] != node; o.slot++) {}
        if (o.slot == s->nflat) {
            if (s->nflat == 64) o.kind = OP_POINT, o.slot = -1;
            else s->fslot_node[s->nflat++] = node;
        }
    }
    o.buf = calloc((size_t)s->blen, sizeof(double));
    if (!o.buf) return -1;
    if (mode == EV64_CORNER && !(o.have = calloc((size_t)s->clp, 1))) {
        free(o.buf);
        return -1;
    }
    double cv = n->kind == NK_M_CONSTANT ? n->d[0] : n->kind == NK_M_BLEND_ALPHA ? 1.0 : 0.0;
    if (o.kind == NK_M_CONSTANT || o.kind == NK_M_BLEND_ALPHA || o.kind == NK_M_BLEND_OFFSET || o.kind == NK_M_BEARDIFIER)
        for (int l = 0; l < s->blen; l++) o.buf[l] = cv;
    s->ops[s->nops] = o;
    return *m = s->nops++;
}

void fill121_free(cf_fill121 *s)
{
    if (!s) return;
    for (int i = 0; i < s->nops; i++) free(s->ops[i].buf), free(s->ops[i].have);
    free(s->ops), free(s->wlx), free(s->wly), free(s->wlz), free(s->clx), free(s->cly), free(s->clz), free(s->fx), free(s->fy), free(s->fz), free(s->ends);
    free(s->islot_node), free(s->fslot_node), free(s->slot_op), free(s->coly), free(s->work), free(s->wm), free(s->always), free(s->fin), free(s->ones), free(s->corner), free(s->cornst);
    free(s);
}

int fill121_staged(const cf_program *p)
{
    return p->dialect == DIALECT_MC121 && p->cell_xz > 0 && p->cell_y > 0 && 16 % p->cell_xz == 0 && p->height % p->cell_y == 0 &&
           p->min_y % p->cell_y == 0 && p->cell_xz * p->cell_xz * p->cell_y <= F121_MAX_LANES;
}

size_t fill121_bytes(const cf_program *p)
{
    if (!fill121_staged(p)) return 0;
    size_t lanes = (size_t)p->cell_xz * (size_t)p->cell_xz * (size_t)p->cell_y, nc = 16 / (size_t)p->cell_xz + 1;
    size_t cl = (size_t)p->height / (size_t)p->cell_y + 1, clp = (cl + 63) / 64 * 64, blen = lanes > clp ? lanes : clp, ni = 0;
    size_t n = (size_t)p->nnodes;
    for (int i = 0; i < p->nnodes; i++) ni += p->nodes[i].kind == NK_M_INTERPOLATED;
    /* at most 3 ops a node (block orders, corners) with their lanes; per-lane tables; corner buffers; column scratch */
    return sizeof(f121) + 3 * n * (sizeof(op121) + sizeof(int) + 8 * blen + 4 * clp) + 3 * n * sizeof(int) + n + lanes * 52
           + ni * nc * nc * cl * 12 + clp * (11 * 8 + 8 + 2);
}

/* the corner ops of the interpolated slots (their inputs in eval64's corner mode); the slots
 * every cell reads (reached from the root through no choice) are computed over the whole
 * corner lattice first, a column at a time, the others a column when a cell first needs one */
static int corner_stage(f121 *s, int *memo)
{
    const cf_program *p = s->p;
    uint8_t *un = calloc((size_t)s->nops + 1, 1);
    if (!un) return -1;
    un[s->root] = 1;
    for (int i = s->nops - 1; i >= 0; i--) { /* inputs come before the ops that read them */
        const op121 *o = &s->ops[i];
        if (!un[i]) continue;
        int nin = o->kind == NK_M_RANGE_CHOICE ? 1 : o->kind == NK_M_MUL && !p->nodes[o->node].i[0] ? 1 : nin_of(o->kind, o->mode);
        for (int k = 0; k < nin; k++) un[o->in[k]] = 1;
    }
    int nblock = s->nops, rc = 0;
    for (int i = 0; i < nblock && rc == 0; i++) {
        const op121 *o = &s->ops[i];
        if (o->kind != NK_M_INTERPOLATED) continue;
        s->always[o->slot] |= un[i];
        if (s->slot_op[o->slot] >= 0) continue;
        int id = compile(s, memo, p->nodes[o->node].in[0], EV64_CORNER);
        if (id < 0) rc = -1;
        else s->slot_op[o->slot] = id;
    }
    free(un);
    return rc;
}

/* ------------------------------------------------------------------ bounds
 * b[i]: a bound on |value| of node i at every position and in every mode (INFINITY or NaN: none
 * proven). It proves the corner shortcut's premise (interp): where an interpolated input is
 * bounded by 1e300, its corners and their differences are finite, so a lerp with weight 0 is its
 * first end (but -0). Conservative: a kind or a parameter not understood bounds nothing. */
static double bmax(double a, double b) { return a != a || b != b ? INFINITY : a > b ? a : b; }
/* PerlinNoise.getValue: each octave's ImprovedNoise at wrapped coordinates is at most 2 (a gradient
 * has two components of +-1, the fractions are in [0, 1], the lerps are convex) */
static double perlin_bound(CF_TAB t, cf_i32 r)
{
    CF_TAB pr = cf21_rec(t, r);
    int n = cf_ld_i32(pr);
    double vf = cf_ld_f64(pr + 16), b = 0.0;
    CF_TAB l = pr + CF21_PERLIN_HEAD;
    for (int i = 0; i < n; i++, l += CF21_LEVEL_BYTES, vf /= 2.0)
        if (cf_ld_i32(l) >= 0) b += fabs(cf_ld_f64(l + 8)) * 2.0 * fabs(vf);
    return b * 1.001;
}
static double normal_bound(CF_TAB t, int node)
{
    CF_TAB nr = cf21_rec(t, cf21_record(t, node));
    return (perlin_bound(t, cf_ld_i32(nr + 8)) + perlin_bound(t, cf_ld_i32(nr + 12))) * fabs(cf_ld_f64(nr)) * 1.001;
}
static int small(double v) { return fabs(v) < 1e200; } /* a scale whose coordinates stay finite (NaN: no) */
void bound121(CF_TAB t, const cf_program *p, double *b)
{
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        double in[3] = {INFINITY, INFINITY, INFINITY}, r = INFINITY;
        for (int k = 0; k < n->nin && k < 3; k++)
            if (n->in[k] >= 0 && n->in[k] < i) in[k] = b[n->in[k]]; /* inputs come first, else none */
        switch (n->kind) {
        case NK_M_CONSTANT: r = fabs(n->d[0]); break;
        case NK_M_BLEND_ALPHA: r = 1.0; break;
        case NK_M_BLEND_OFFSET: case NK_M_BEARDIFIER: r = 0.0; break;
        /* end_islands: none (far out the int square of its distance wraps: sqrt of a negative, NaN) */
        case NK_M_ADD: r = in[0] + in[1]; break;
        case NK_M_MUL: r = in[0] * in[1]; break;
        case NK_M_MIN: case NK_M_MAX: case NK_M_RANGE_CHOICE: r = n->kind == NK_M_RANGE_CHOICE ? bmax(in[1], in[2]) : bmax(in[0], in[1]); break;
        case NK_M_ABS: case NK_M_HALF_NEGATIVE: case NK_M_QUARTER_NEGATIVE: r = in[0]; break;
        case NK_M_SQUARE: r = in[0] * in[0]; break;
        case NK_M_CUBE: r = in[0] * in[0] * in[0]; break;
        case NK_M_SQUEEZE: r = in[0] < 1e300 ? 1.0 : INFINITY; break;
        case NK_M_CLAMP: r = in[0] < 1e300 ? bmax(fabs(n->d[0]), fabs(n->d[1])) : INFINITY; break;
        case NK_M_Y_CLAMPED_GRADIENT: /* from_y != to_y: the fraction is finite, the lerp within 3 x its ends */
            r = n->d[0] != n->d[1] && small(n->d[0]) && small(n->d[1]) ? 3.0 * bmax(fabs(n->d[2]), fabs(n->d[3])) : INFINITY;
            break;
        case NK_M_NOISE: r = small(n->d[0]) && small(n->d[1]) ? normal_bound(t, i) : INFINITY; break;
        case NK_M_SHIFTED_NOISE:
            r = small(n->d[0]) && small(n->d[1]) && small(in[0]) && small(in[1]) && small(in[2]) ? normal_bound(t, i) : INFINITY;
            break;
        case NK_M_SHIFT_A: case NK_M_SHIFT_B: case NK_M_SHIFT: r = 4.0 * normal_bound(t, i); break;
        case NK_M_WEIRD_SCALED_SAMPLER: r = 3.0 * normal_bound(t, i); break; /* rarity in [0.5, 3] */
        case NK_M_OLD_BLENDED_NOISE: { /* cf21_blended: octaves at most 4 + |y fudge step| (the fudge moves the y
                                        * fraction by at most 1 + the step), 3 x that after the limits' sums */
            const double *d = n->d;
            double ys = fabs(684.412 * d[1] * d[4]) * bmax(1.0, 1.0 / fabs(d[3]));
            int ok = small(d[0]) && small(d[1]) && small(d[4]) && d[2] != 0.0 && d[3] != 0.0 && small(1.0 / d[2]) &&
                     small(1.0 / d[3]) && small(684.412 * d[0] / d[2]) && small(684.412 * d[1] / d[3]) && small(ys);
            r = ok ? 4.0 * (4.0 + ys) : INFINITY;
            break;
        }
        case NK_M_SPLINE: { /* float: 8 (values + derivatives x (segment widths + |coordinate| + |locations|)) */
            int np = n->nda / 2, ok = np >= 1 && n->nin == np + 1 && in[0] < 1e30;
            double y = 0.0, dmax = 0.0, lmax = 0.0, wmax = 0.0;
            for (int k = 0; ok && k < np; k++) {
                int v = n->in[1 + k];
                y = bmax(y, v >= 0 && v < i ? b[v] : INFINITY);
                dmax = bmax(dmax, fabs(n->da[2 * k + 1])), lmax = bmax(lmax, fabs(n->da[2 * k]));
                if (k + 1 < np) wmax = bmax(wmax, n->da[2 * k + 2] - n->da[2 * k]), ok &= n->da[2 * k + 2] > n->da[2 * k];
            }
            r = ok ? 8.0 * (y + dmax * (wmax + in[0] + lmax)) : INFINITY;
            if (!(r < 1e30)) r = INFINITY; /* float arithmetic: far from FLT_MAX */
            break;
        }
        case NK_M_INTERVAL_SELECT:
            r = 0.0;
            for (int k = 1; k < n->nin; k++) r = bmax(r, n->in[k] >= 0 && n->in[k] < i ? b[n->in[k]] : INFINITY);
            break;
        case NK_M_INTERPOLATED: case NK_M_FLAT_CACHE: case NK_M_CACHE_2D: case NK_M_CACHE_ONCE: case NK_M_CACHE_ALL_IN_CELL:
        case NK_M_BLEND_DENSITY: r = 3.0 * in[0]; break; /* lerps of the input's values */
        default: break;
        }
        b[i] = r == r ? r : INFINITY;
    }
}

cf_fill121 *fill121_new(ev64_ctx *c, int node, int final)
{
    const cf_program *p = c->w->prog;
    if (!fill121_staged(p)) return NULL;
    f121 *s = calloc(1, sizeof *s);
    int *memo = malloc(sizeof(int) * 3 * (size_t)p->nnodes);
    if (!s || !memo) return free(s), free(memo), NULL;
    s->c = c, s->p = p, s->final = final, s->mode = final ? EV64_CELL : EV64_VALUE;
    s->cw = p->cell_xz, s->ch = p->cell_y, s->lanes = s->cw * s->cw * s->ch;
    s->ncxz = 16 / s->cw, s->ncy = p->height / s->ch;
    s->clanes = s->ncy + 1;
#ifdef F121_AVX512
    s->avx512 = (cpu_isa() & CPU_AVX512VBMI) != 0; /* isa.c */
#endif
    /* the corner stage's loops run over clp lanes: with AVX-512 a multiple of 64 (the vectoriser's
     * step with byte masks; the lanes past clanes are never asked for), else clanes */
    s->clp = s->avx512 ? (s->clanes + 63) / 64 * 64 : s->clanes;
    s->blen = s->lanes > s->clp ? s->lanes : s->clp;
    for (int i = 0; i < 3 * p->nnodes; i++) memo[i] = -1;
    s->ops = malloc(sizeof(op121) * 3 * (size_t)p->nnodes);
    s->islot_node = malloc(sizeof(int) * (size_t)p->nnodes);
    s->slot_op = malloc(sizeof(int) * (size_t)p->nnodes);
    s->fslot_node = malloc(sizeof(int) * 64);
    s->coly = calloc((size_t)s->clp, sizeof(double));
    s->work = calloc(11 * (size_t)s->clp, sizeof(double)); /* 8 a lane (col_blended), 11 (weird_scaled_sampler) */
    s->always = calloc((size_t)p->nnodes, 1);
    s->fin = calloc((size_t)p->nnodes, 1);
    s->ones = calloc((size_t)s->clp, 1); /* every corner of a column (the lanes past it: 0) */
    if (s->ones) memset(s->ones, 1, (size_t)s->clanes);
    s->wm = calloc((size_t)s->clp, 1);
    size_t L = (size_t)s->lanes;
    s->lx = s->wlx = malloc(sizeof(int) * L), s->ly = s->wly = malloc(sizeof(int) * L), s->lz = s->wlz = malloc(sizeof(int) * L);
    s->clx = malloc(sizeof(int) * (size_t)s->ch), s->cly = malloc(sizeof(int) * (size_t)s->ch), s->clz = malloc(sizeof(int) * (size_t)s->ch);
    s->fx = malloc(sizeof(double) * L), s->fy = malloc(sizeof(double) * L), s->fz = malloc(sizeof(double) * L);
    s->ends = malloc(sizeof(double) * 2 * (size_t)s->cw * (size_t)s->ch);
    if (s->slot_op)
        for (int i = 0; i < p->nnodes; i++) s->slot_op[i] = -1;
    if (!s->ops || !s->islot_node || !s->slot_op || !s->fslot_node || !s->coly || !s->work || !s->wm || !s->always || !s->fin || !s->ones || !s->lx || !s->ly || !s->lz || !s->clx || !s->cly || !s->clz || !s->fx || !s->fy ||
        !s->fz || !s->ends || (s->root = compile(s, memo, node, s->mode)) < 0 ||
        (s->clanes <= F121_MAX_COLUMN && corner_stage(s, memo) < 0)) {
        free(memo);
        fill121_free(s);
        return NULL;
    }
    free(memo);
    double *b = malloc(sizeof(double) * (size_t)p->nnodes);
    if (!b) return fill121_free(s), NULL;
    bound121(c->w->tab, p, b);
    s->allfin = !getenv("CF_NO_CORNER_COLUMNS"); /* benchmarks: every cell from its 8 corners */
    for (int k = 0; k < s->ninterp; k++) s->allfin &= s->fin[k] = s->allfin && b[p->nodes[s->islot_node[k]].in[0]] < 1e300;
    free(b);
    for (int l = 0; l < s->lanes; l++) {
        s->lx[l] = l % s->cw, s->lz[l] = l / s->cw % s->cw, s->ly[l] = l / (s->cw * s->cw);
        /* eval64.c: (double)(b - cell * size) / (double)size */
        s->fx[l] = (double)s->lx[l] / (double)s->cw, s->fz[l] = (double)s->lz[l] / (double)s->cw;
        s->fy[l] = (double)s->ly[l] / (double)s->ch;
    }
    for (int l = 0; l < s->ch; l++) s->cly[l] = l;
    size_t nc = (size_t)(s->ncxz + 1) * (size_t)(s->ncxz + 1) * (size_t)(s->ncy + 1) * (size_t)s->ninterp;
    s->corner = malloc(sizeof(double) * (nc + 1));
    s->cornst = calloc(nc + 1, sizeof(uint32_t));
    if (!s->corner || !s->cornst) return fill121_free(s), NULL;
    return s;
}

/* cf21_min / cf21_max without branches (the block stage's loops vectorise): the same
 * choice for every pair, NaN and signed zeros included (a == b and not zero: the same bits
 * either way); fill121_check_minmax compares them on the special values */
static inline int sign_of(double a)
{
    uint64_t u;
    memcpy(&u, &a, sizeof u);
    return (int)(u >> 63);
}
static inline double lane_min(double a, double b) { return ((a != a) | (a < b) | ((a == b) & sign_of(a))) ? a : b; }
static inline double lane_max(double a, double b) { return ((a != a) | (a > b) | ((a == b) & (sign_of(a) ^ 1))) ? a : b; }
/* cf21_clamp and cf21_squeeze in forms the vectoriser takes (no branch): lane_clamp chooses
 * what cf21_clamp chooses (lane_min is cf21_min); squeeze's bounds are -1 and 1, so
 * cf21_clamp(d, -1, 1) is d < -1 ? -1 : d > 1 ? 1 : d (NaN: d; d == 1: 1, the same bits) */
static inline double lane_clamp(double v, double lo, double hi)
{
    double m = lane_min(v, hi);
    return v < lo ? lo : m;
}
static inline double lane_squeeze(double d)
{
    double c = d < -1.0 ? -1.0 : d > 1.0 ? 1.0 : d;
    return c / 2.0 - c * c * c / 24.0;
}

/* ------------------------------------------------------------------ one cell */

static const double *val(f121 *s, int id);

/* the corners of interpolated slot k around the current cell, eval64's corner mode */
static void column_at(f121 *s, int ix, int iz);
static void column_slot(f121 *s, int k, int ix, int iz);
/* the corner (ix, iy, iz) of the chunk's lattice of op o's slot: its whole column when first needed */
static double corner_at(f121 *s, const op121 *o, int ix, int iy, int iz)
{
    const cf_program *p = s->p;
    int nx = s->ncxz + 1;
    size_t k = ((size_t)o->slot * (size_t)(s->ncy + 1) + (size_t)iy) * (size_t)nx * (size_t)nx + (size_t)iz * (size_t)nx + (size_t)ix;
    if (s->cornst[k] != s->cst && s->slot_op[o->slot] >= 0) {
        column_at(s, ix, iz);
        column_slot(s, o->slot, ix, iz);
    }
    if (s->cornst[k] != s->cst) {
        double x = (double)((s->fcx + ix) * p->cell_xz), y = (double)((s->fcy + iy) * p->cell_y);
        double z = (double)((s->fcz + iz) * p->cell_xz);
        s->corner[k] = eval_f64_mode(s->c, EV64_CORNER, p->nodes[o->node].in[0], x, y, z);
        s->cornst[k] = s->cst;
    }
    return s->corner[k];
}

static void corners(f121 *s, const op121 *o, double n[8])
{
    int nx = s->ncxz + 1, q = 0;
    size_t base = (size_t)o->slot * (size_t)nx * (size_t)nx * (size_t)(s->ncy + 1);
    size_t k0 = base + ((size_t)s->icy * (size_t)nx + (size_t)s->icz) * (size_t)nx + (size_t)s->icx;
    size_t dy = (size_t)nx * (size_t)nx;
    const uint32_t *st = s->cornst + k0;
    if (s->always[o->slot] && s->clanes <= F121_MAX_COLUMN && st[0] == s->cst && st[1] == s->cst && st[nx] == s->cst &&
        st[nx + 1] == s->cst) { /* corner_lattice computed the cell's 4 corner columns */
        const double *c = s->corner + k0;
        n[0] = c[0], n[1] = c[1], n[2] = c[dy], n[3] = c[dy + 1];
        n[4] = c[nx], n[5] = c[nx + 1], n[6] = c[dy + (size_t)nx], n[7] = c[dy + (size_t)nx + 1];
        return;
    }
    /* n000, n100, n010, n110, n001, n101, n011, n111 */
    for (int dz = 0; dz < 2; dz++)
        for (int ddy = 0; ddy < 2; ddy++)
            for (int dx = 0; dx < 2; dx++, q++) n[q] = corner_at(s, o, s->icx + dx, s->icy + ddy, s->icz + dz);
}

/* eval64.c's lerps per block, the same operations on the same values (the same bits), each
 * computed once: the cell cache (x, y, z) lerps x once per x of the cell, then y per (y, x);
 * other outputs (y, x, z) y once per y, then x per (y, x); the z lerp per block. A lerp
 * a + t * (b - a) shares its b - a between the lerps of the same ends (the same value) */
static inline __attribute__((always_inline)) void interp(f121 *s, op121 *o)
{
    if (s->col && s->colbx == 0 && s->colbz == 0 && s->fin[o->slot]) {
        /* the cell's corner column: the x and z weights are 0, so each block is lerp(fy, n000, n010), the
         * value of either order's lerps, where the other corners are finite (the slot's bound) and the
         * ends that the 0 weights keep are not zeros (a -0 would take the sign of 0 x the difference);
         * else the whole interpolation below */
        double a = corner_at(s, o, s->icx, s->icy, s->icz), b = corner_at(s, o, s->icx, s->icy + 1, s->icz);
        int ok = a != 0.0 && b != 0.0 && a - a == 0.0 && b - b == 0.0;
        for (int y = 0; y < s->ch && ok; y++) ok = (o->buf[y] = cf21_lerp(s->fy[y * s->cw * s->cw], a, b)) != 0.0;
        if (ok) return;
    }
    double c[8];
    corners(s, o, c);
    double n000 = c[0], n100 = c[1], n010 = c[2], n110 = c[3], n001 = c[4], n101 = c[5], n011 = c[6], n111 = c[7];
    int cw = s->cw, ch = s->ch;
    if (s->col) { /* one column (colbx, colbz): per y the operations the whole cell does for its block */
        double fx = s->fx[s->colbx], fz = s->fz[s->colbz * cw], *restrict r = o->buf;
        if (o->mode == EV64_VALUE)
            for (int y = 0; y < ch; y++) {
                double fy = s->fy[y * cw * cw];
                double a0 = cf21_lerp(fy, n000, n010), a1 = cf21_lerp(fy, n100, n110);
                double b0 = cf21_lerp(fy, n001, n011), b1 = cf21_lerp(fy, n101, n111);
                double av = a0 + fx * (a1 - a0), bv = b0 + fx * (b1 - b0);
                r[y] = av + fz * (bv - av);
            }
        else {
            double p1 = cf21_lerp(fx, n010, n110), q1 = cf21_lerp(fx, n011, n111);
            double p0 = cf21_lerp(fx, n000, n100), q0 = cf21_lerp(fx, n001, n101), dp = p1 - p0, dq = q1 - q0;
            for (int y = 0; y < ch; y++) {
                double fy = s->fy[y * cw * cw], av = p0 + fy * dp, bv = q0 + fy * dq;
                r[y] = av + fz * (bv - av);
            }
        }
        return;
    }
    double *restrict A = s->ends, *restrict D = s->ends + cw * ch; /* per (y, x): the z = 0 end, the far end minus it */
    const double *restrict fxs = s->fx; /* lanes 0 .. cw-1: x = lane, y = z = 0 */
    if (o->mode == EV64_VALUE) { /* NoiseInterpolator.updateForY, X, Z */
        for (int y = 0; y < ch; y++) {
            double fy = s->fy[y * cw * cw];
            double a0 = cf21_lerp(fy, n000, n010), a1 = cf21_lerp(fy, n100, n110);
            double b0 = cf21_lerp(fy, n001, n011), b1 = cf21_lerp(fy, n101, n111);
            double da = a1 - a0, db = b1 - b0;
            for (int x = 0; x < cw; x++) {
                double av = a0 + fxs[x] * da, bv = b0 + fxs[x] * db; /* cf21_lerp(fx, a0, a1), (fx, b0, b1) */
                A[y * cw + x] = av, D[y * cw + x] = bv - av;
            }
        }
    } else { /* the cell cache: Mth.lerp3 (x, then y, then z) */
        double p0[16], dp[16], q0[16], dq[16]; /* cw <= 16 */
        for (int x = 0; x < cw; x++) {
            double p1 = cf21_lerp(fxs[x], n010, n110), q1 = cf21_lerp(fxs[x], n011, n111);
            p0[x] = cf21_lerp(fxs[x], n000, n100), q0[x] = cf21_lerp(fxs[x], n001, n101);
            dp[x] = p1 - p0[x], dq[x] = q1 - q0[x];
        }
        for (int y = 0; y < ch; y++) {
            double fy = s->fy[y * cw * cw];
            for (int x = 0; x < cw; x++) {
                double av = p0[x] + fy * dp[x], bv = q0[x] + fy * dq[x]; /* cf21_lerp(fy, p0, p1), (fy, q0, q1) */
                A[y * cw + x] = av, D[y * cw + x] = bv - av;
            }
        }
    }
    double *restrict r = o->buf;
    if (cw == 4) /* vanilla's width: rows of 4 the vectoriser sees whole */
        for (int y = 0; y < ch; y++) {
            const double *a = A + y * 4, *d = D + y * 4;
            for (int z = 0; z < 4; z++) {
                double fz = s->fz[z * 4];
                for (int x = 0; x < 4; x++) r[(y * 4 + z) * 4 + x] = a[x] + fz * d[x]; /* cf21_lerp(fz, a, b) */
            }
        }
    else
        for (int y = 0; y < ch; y++) {
            const double *a = A + y * cw, *d = D + y * cw;
            for (int z = 0; z < cw; z++) {
                double fz = s->fz[z * cw];
                for (int x = 0; x < cw; x++) r[(y * cw + z) * cw + x] = a[x] + fz * d[x];
            }
        }
}

/* flat_cache slot k at quart (qx, qz) of the chunk (0..4): its input at the quart corner
 * with y = 0, as a single point (eval64.c's), once per chunk */
static double flat_at(f121 *s, int k, int node, int qx, int qz)
{
    int q = 25 * k + qz * 5 + qx;
    if (s->flatst[q] != s->cst) {
        s->flat[q] = eval_f64_mode(s->c, EV64_POINT, s->p->nodes[node].in[0], (double)(((int64_t)s->cx * 4 + qx) * 4), 0.0,
                                   (double)(((int64_t)s->cz * 4 + qz) * 4));
        s->flatst[q] = s->cst;
    }
    return s->flat[q];
}

static void flat(f121 *s, op121 *o)
{
    for (int l = 0; l < s->lanes; l++)
        o->buf[l] = flat_at(s, o->slot, o->node, (s->icx * s->cw + s->lx[l]) >> 2, (s->icz * s->cw + s->lz[l]) >> 2);
}

/* ------------------------------------------------------------------ noises down a column
 * kernels/cf_mc121.h's noises at the corners of one column (x and z the same for every lane):
 * per octave the x and z arithmetic (wrap, offset, floor, fraction, smoothstep, the first
 * permutation step) once, then per lane cf21_improved's operations on y in its order, so
 * each lane's value has the same bits as the scalar function's. */

/* one ImprovedNoise octave (cf21_improved) at (x, y[l], z); ys, ymax[l]: its y fudge (ys 0: none) */
static void col_octave_scalar(CF_TAB o, double x, double z, const double *y, double ys, const double *ymax, const uint8_t *todo,
                              int from, int L, double *g)
{
    CF_TAB p = o + 32;
    double X = x + cf_ld_f64(o), Z = z + cf_ld_f64(o + 16), oy = cf_ld_f64(o + 8);
    cf_i32 i = cf_jfloor(X), k = cf_jfloor(Z);
    double u = X - (double)i, w = Z - (double)k;
    cf_u32 ui = (cf_u32)i, uk = (cf_u32)k;
    cf_u32 a = cf_perm(p, ui), b = cf_perm(p, ui + 1u);
    double su = cf21_smooth(u), sw = cf21_smooth(w);
    for (int l = from; l < L; l++) {
        if (!todo[l]) continue;
        double Y = y[l] + oy;
        cf_i32 j = cf_jfloor(Y);
        double v = Y - (double)j, fudge = 0.0;
        if (ys != 0.0) {
            double lim = (ymax[l] >= 0.0 && ymax[l] < v) ? ymax[l] : v;
            fudge = (double)cf_jfloor(lim / ys + 1.0000000116860974e-07) * ys; /* (double)1.0E-7f */
        }
        g[l] = cf21_lattice(p, a, b, (cf_u32)j, uk, u, v - fudge, w, su, cf21_smooth(v), sw);
    }
}

#ifdef F121_AVX512
/* AVX-512: 8 corners at a time, cf21_improved's double operations lane by lane (adds, subtracts,
 * multiplies, divides, floor; no FMA: -ffp-contract=off and intrinsics without fused forms); the
 * permutation by byte permutes of the octave's 256 bytes (VBMI), the gradients (-1, 0, 1, exact)
 * by a double permute. A group with a coordinate outside cf_jfloor's fast range (or NaN) goes to
 * the scalar path. */
#define F121_T512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))
F121_T512 static inline __m256i perm8x(const __m512i *t, __m256i i)
{
    __m512i w = _mm512_castsi256_si512(_mm256_and_si256(i, _mm256_set1_epi32(255)));
    __m512i lo = _mm512_permutex2var_epi8(t[0], w, t[1]), hi = _mm512_permutex2var_epi8(t[2], w, t[3]);
    __m512i r = _mm512_and_si512(_mm512_mask_blend_epi8(_mm512_movepi8_mask(w), lo, hi), _mm512_set1_epi32(255));
    return _mm512_castsi512_si256(r);
}
F121_T512 static inline __m512d gdot8d(__m256i h, __m512d x, __m512d y, __m512d z, const __m512d *g)
{
    __m512i h64 = _mm512_cvtepu32_epi64(h); /* permutex2var_pd reads bits 3:0: h & 15 */
    __m512d gx = _mm512_permutex2var_pd(g[0], h64, g[1]), gy = _mm512_permutex2var_pd(g[2], h64, g[3]);
    __m512d gz = _mm512_permutex2var_pd(g[4], h64, g[5]);
    return _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(gx, x), _mm512_mul_pd(gy, y)), _mm512_mul_pd(gz, z));
}
F121_T512 static inline __m512d lerp8d(__m512d t, __m512d a, __m512d b) { return _mm512_add_pd(a, _mm512_mul_pd(t, _mm512_sub_pd(b, a))); }
F121_T512 static inline __m512d smooth8d(__m512d x)
{
    __m512d x3 = _mm512_mul_pd(_mm512_mul_pd(x, x), x);
    __m512d in = _mm512_sub_pd(_mm512_mul_pd(x, _mm512_set1_pd(6.0)), _mm512_set1_pd(15.0));
    return _mm512_mul_pd(x3, _mm512_add_pd(_mm512_mul_pd(x, in), _mm512_set1_pd(10.0)));
}
/* lanes of m whose d is in [-2^31, 2^31) (cf_jfloor's fast case; NaN is not) */
F121_T512 static inline int in_int8(__m512d d, __mmask8 m)
{
    __mmask8 ok = _mm512_cmp_pd_mask(d, _mm512_set1_pd(-2147483648.0), _CMP_GE_OQ) & _mm512_cmp_pd_mask(d, _mm512_set1_pd(2147483648.0), _CMP_LT_OQ);
    return (ok & m) == m;
}
/* bit q: todo[l + q] != 0, for the (at most) 64 lanes from l (a multiple of 64) */
F121_T512 static inline uint64_t todo_mask(const uint8_t *todo, int l, int L)
{
    if (L - l >= 64) {
        __m512i v = _mm512_loadu_si512((const void *)(todo + l));
        return (uint64_t)_mm512_test_epi8_mask(v, v);
    }
    uint64_t m = 0;
    for (int q = 0; q < L - l; q++) m |= (uint64_t)(todo[l + q] != 0) << q;
    return m;
}
F121_T512 static inline __m256i floor8(__m512d d) { return _mm512_cvttpd_epi32(_mm512_roundscale_pd(d, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)); }
/* the gradient rows as doubles, 16 entries each of x, y, z in two vectors (gdot8d's table) */
static const double g8_x[16] = {1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 1, 0, -1, 0};
static const double g8_y[16] = {1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
static const double g8_z[16] = {0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 1, 0, -1};
F121_T512 static inline void gtab8d(__m512d gt[6])
{
    gt[0] = _mm512_loadu_pd(g8_x), gt[1] = _mm512_loadu_pd(g8_x + 8), gt[2] = _mm512_loadu_pd(g8_y), gt[3] = _mm512_loadu_pd(g8_y + 8);
    gt[4] = _mm512_loadu_pd(g8_z), gt[5] = _mm512_loadu_pd(g8_z + 8);
}
/* the eight corners' dots from the (x, y) hashes aak .. bbk (z corner k; k + 1 adds one) and the
 * trilinear lerp, in cf21_improved's order */
F121_T512 static inline __m512d corners8d(const __m512i t[4], __m256i aak, __m256i bak, __m256i abk, __m256i bbk, __m512d u,
                                          __m512d u1, __m512d vv, __m512d vv1, __m512d w, __m512d w1, __m512d su, __m512d sv,
                                          __m512d sw, const __m512d gt[6])
{
    __m256i i1 = _mm256_set1_epi32(1);
    __m512d d000 = gdot8d(perm8x(t, aak), u, vv, w, gt);
    __m512d d100 = gdot8d(perm8x(t, bak), u1, vv, w, gt);
    __m512d d010 = gdot8d(perm8x(t, abk), u, vv1, w, gt);
    __m512d d110 = gdot8d(perm8x(t, bbk), u1, vv1, w, gt);
    __m512d d001 = gdot8d(perm8x(t, _mm256_add_epi32(aak, i1)), u, vv, w1, gt);
    __m512d d101 = gdot8d(perm8x(t, _mm256_add_epi32(bak, i1)), u1, vv, w1, gt);
    __m512d d011 = gdot8d(perm8x(t, _mm256_add_epi32(abk, i1)), u, vv1, w1, gt);
    __m512d d111 = gdot8d(perm8x(t, _mm256_add_epi32(bbk, i1)), u1, vv1, w1, gt);
    __m512d e0 = lerp8d(sv, lerp8d(su, d000, d100), lerp8d(su, d010, d110));
    __m512d e1 = lerp8d(sv, lerp8d(su, d001, d101), lerp8d(su, d011, d111));
    return lerp8d(sw, e0, e1);
}
F121_T512 static void col_octave_avx512(CF_TAB o, double x, double z, const double *y, double ys, const double *ymax,
                                        const uint8_t *todo, int L, double *g)
{
    CF_TAB p = o + 32;
    double X = x + cf_ld_f64(o), Z = z + cf_ld_f64(o + 16), oy = cf_ld_f64(o + 8);
    cf_i32 i = cf_jfloor(X), k = cf_jfloor(Z);
    double u = X - (double)i, w = Z - (double)k;
    cf_u32 a = cf_perm(p, (cf_u32)i), b = cf_perm(p, (cf_u32)i + 1u);
    __m512i t[4];
    for (int q = 0; q < 4; q++) t[q] = _mm512_loadu_si512((const void *)(p + 64 * q));
    __m512d gt[6];
    gtab8d(gt);
    __m512d vu = _mm512_set1_pd(u), vu1 = _mm512_set1_pd(u - 1.0), vw = _mm512_set1_pd(w), vw1 = _mm512_set1_pd(w - 1.0);
    __m512d su = _mm512_set1_pd(cf21_smooth(u)), sw = _mm512_set1_pd(cf21_smooth(w)), one = _mm512_set1_pd(1.0);
    __m256i va = _mm256_set1_epi32((int)a), vb = _mm256_set1_epi32((int)b), uk = _mm256_set1_epi32((int)k), i1 = _mm256_set1_epi32(1);
    uint64_t tm = 0;
    for (int l = 0; l < L; l += 8) {
        if ((l & 63) == 0) tm = todo_mask(todo, l, L);
        __mmask8 m = (__mmask8)(tm >> (l & 63));
        if (!m) continue;
        __m512d Y = _mm512_add_pd(_mm512_maskz_loadu_pd(m, y + l), _mm512_set1_pd(oy));
        if (!in_int8(Y, m)) {
            col_octave_scalar(o, x, z, y, ys, ymax, todo, l, l + 8 < L ? l + 8 : L, g);
            continue;
        }
        __m256i uj = floor8(Y);
        __m512d v = _mm512_sub_pd(Y, _mm512_cvtepi32_pd(uj)), vv = _mm512_sub_pd(v, _mm512_setzero_pd());
        if (ys != 0.0) {
            __m512d ym = _mm512_maskz_loadu_pd(m, ymax + l);
            __mmask8 take = _mm512_cmp_pd_mask(ym, _mm512_setzero_pd(), _CMP_GE_OQ) & _mm512_cmp_pd_mask(ym, v, _CMP_LT_OQ);
            __m512d lim = _mm512_mask_blend_pd(take, v, ym);
            __m512d q = _mm512_add_pd(_mm512_div_pd(lim, _mm512_set1_pd(ys)), _mm512_set1_pd(1.0000000116860974e-07));
            if (!in_int8(q, m)) {
                col_octave_scalar(o, x, z, y, ys, ymax, todo, l, l + 8 < L ? l + 8 : L, g);
                continue;
            }
            vv = _mm512_sub_pd(v, _mm512_mul_pd(_mm512_cvtepi32_pd(floor8(q)), _mm512_set1_pd(ys)));
        }
        __m256i aj = _mm256_add_epi32(va, uj), bj = _mm256_add_epi32(vb, uj);
        __m256i aa = perm8x(t, aj), ab = perm8x(t, _mm256_add_epi32(aj, i1));
        __m256i ba = perm8x(t, bj), bb = perm8x(t, _mm256_add_epi32(bj, i1));
        __m256i aak = _mm256_add_epi32(aa, uk), bak = _mm256_add_epi32(ba, uk), abk = _mm256_add_epi32(ab, uk), bbk = _mm256_add_epi32(bb, uk);
        __m512d vv1 = _mm512_sub_pd(vv, one);
        _mm512_mask_storeu_pd(g + l, m, corners8d(t, aak, bak, abk, bbk, vu, vu1, vv, vv1, vw, vw1, su, smooth8d(v), sw, gt));
    }
}

/* one ImprovedNoise octave (cf21_improved, no y fudge) at (x[l], y[l], z[l]), 8 lanes at a time:
 * col_octave_avx512's operations with x and z per lane too (the weird_scaled_sampler's points) */
F121_T512 static void oct3_avx512(CF_TAB o, const double *x, const double *y, const double *z, const uint8_t *todo, int L, double *g)
{
    CF_TAB p = o + 32;
    double ox = cf_ld_f64(o), oy = cf_ld_f64(o + 8), oz = cf_ld_f64(o + 16);
    __m512i t[4];
    for (int q = 0; q < 4; q++) t[q] = _mm512_loadu_si512((const void *)(p + 64 * q));
    __m512d gt[6];
    gtab8d(gt);
    __m512d one = _mm512_set1_pd(1.0);
    __m256i i1 = _mm256_set1_epi32(1);
    uint64_t tm = 0;
    for (int l = 0; l < L; l += 8) {
        if ((l & 63) == 0) tm = todo_mask(todo, l, L);
        __mmask8 m = (__mmask8)(tm >> (l & 63));
        if (!m) continue;
        __m512d X = _mm512_add_pd(_mm512_maskz_loadu_pd(m, x + l), _mm512_set1_pd(ox));
        __m512d Y = _mm512_add_pd(_mm512_maskz_loadu_pd(m, y + l), _mm512_set1_pd(oy));
        __m512d Z = _mm512_add_pd(_mm512_maskz_loadu_pd(m, z + l), _mm512_set1_pd(oz));
        if (!in_int8(X, m) || !in_int8(Y, m) || !in_int8(Z, m)) {
            for (int q = 0; q < 8 && l + q < L; q++)
                if (todo[l + q]) g[l + q] = cf21_improved(o, x[l + q], y[l + q], z[l + q], 0.0, 0.0);
            continue;
        }
        __m256i ui = floor8(X), uj = floor8(Y), uk = floor8(Z);
        __m512d u = _mm512_sub_pd(X, _mm512_cvtepi32_pd(ui)), v = _mm512_sub_pd(Y, _mm512_cvtepi32_pd(uj));
        __m512d w = _mm512_sub_pd(Z, _mm512_cvtepi32_pd(uk));
        __m512d vv = _mm512_sub_pd(v, _mm512_setzero_pd()); /* cf21_improved: v - fudge, fudge 0 */
        __m256i a = perm8x(t, ui), b = perm8x(t, _mm256_add_epi32(ui, i1));
        __m256i aj = _mm256_add_epi32(a, uj), bj = _mm256_add_epi32(b, uj);
        __m256i aa = perm8x(t, aj), ab = perm8x(t, _mm256_add_epi32(aj, i1));
        __m256i ba = perm8x(t, bj), bb = perm8x(t, _mm256_add_epi32(bj, i1));
        __m256i aak = _mm256_add_epi32(aa, uk), bak = _mm256_add_epi32(ba, uk), abk = _mm256_add_epi32(ab, uk), bbk = _mm256_add_epi32(bb, uk);
        __m512d u1 = _mm512_sub_pd(u, one), vv1 = _mm512_sub_pd(vv, one), w1 = _mm512_sub_pd(w, one);
        _mm512_mask_storeu_pd(g + l, m, corners8d(t, aak, bak, abk, bbk, u, u1, vv, vv1, w, w1, smooth8d(u), smooth8d(v), smooth8d(w), gt));
    }
}
#endif

/* the octave at o over the lanes of todo: AVX-512 where the fill has it */
static void col_octave(f121 *s, CF_TAB o, double x, double z, const double *y, double ys, const double *ymax, const uint8_t *todo,
                       int L, double *g)
{
#ifdef F121_AVX512
    if (s->avx512) {
        col_octave_avx512(o, x, z, y, ys, ymax, todo, L, g);
        return;
    }
#endif
    (void)s;
    col_octave_scalar(o, x, z, y, ys, ymax, todo, 0, L, g);
}

/* the corner stage (fill121_col.h), plain and for AVX-512 */
#define F121_SFX(n) n##_plain
#define F121_TGT
#include "cpu/fill121_col.h"
#undef F121_SFX
#undef F121_TGT
#ifdef F121_AVX512
#define F121_SFX(n) n##_avx512
#define F121_TGT F121_T512
#define F121_WIDE 1 /* pure per-lane ops over every lane (fill121_col.h ALL) */
#include "cpu/fill121_col.h"
#undef F121_SFX
#undef F121_TGT
#undef F121_WIDE
#endif

/* interpolated slot k's corners of the current column: the AVX-512 copy where the fill has it */
static void column_slot(f121 *s, int k, int ix, int iz)
{
#ifdef F121_AVX512
    if (s->avx512) {
        column_slot_avx512(s, k, ix, iz);
        return;
    }
#endif
    column_slot_plain(s, k, ix, iz);
}

/* the next corner column: (ix, iz) of the chunk's corner lattice */
static void column_at(f121 *s, int ix, int iz)
{
    const cf_program *p = s->p;
    if (++s->cols == 0) {
        for (int i = 0; i < s->nops; i++)
            if (s->ops[i].have) {
                s->ops[i].full = s->ops[i].part = 0;
            }
        s->cols = 1;
    }
    s->colx = (double)((s->fcx + ix) * p->cell_xz);
    s->colz = (double)((s->fcz + iz) * p->cell_xz);
}

/* 1 when cell (icx, icz) of the chunk is one to compute (cells NULL: every cell) */
static int cell_on(const f121 *s, const uint8_t *cells, int icx, int icz)
{
    return !cells || (icx >= 0 && icz >= 0 && icx < s->ncxz && icz < s->ncxz && cells[icz * s->ncxz + icx]);
}

/* the corners of the slots every cell reads, over the chunk's corner lattice (the corner columns
 * of the cells to compute) */
static int cell_needs(const f121 *s, const uint8_t *cells, int icx, int icz, int own)
{
    if (!cell_on(s, cells, icx, icz)) return 0;
    return !cells || cells[icz * s->ncxz + icx] != 2 || own || !s->allfin; /* 2: the cell's corner column alone */
}
static void corner_lattice(f121 *s, const uint8_t *cells)
{
    const cf_program *p = s->p;
    int nx = s->ncxz + 1;
    int64_t fcy = (int64_t)p->min_y / s->ch;
    for (int iy = 0; iy < s->clanes; iy++) s->coly[iy] = (double)((fcy + iy) * p->cell_y);
    for (int iz = 0; iz < nx; iz++)
        for (int ix = 0; ix < nx; ix++) {
            if (cells && !cell_needs(s, cells, ix, iz, 1) && !cell_needs(s, cells, ix - 1, iz, 0) &&
                !cell_needs(s, cells, ix, iz - 1, 0) && !cell_needs(s, cells, ix - 1, iz - 1, 0))
                continue;
            column_at(s, ix, iz);
            for (int k = 0; k < s->ninterp; k++)
                if (s->always[k]) column_slot(s, k, ix, iz);
        }
}

/* one op over the blocks of the cell: compute_body's loops are built twice, plain and for AVX-512
 * (the same C operations: -ffp-contract=off, no FMA; the vectoriser's blends and masks choose what
 * the scalar code chooses), chosen per fill (CF_NO_AVX512 in the environment: plain) */
static inline __attribute__((always_inline)) void compute_body(f121 *s, op121 *o)
{
    const cf_node *n = &s->p->nodes[o->node];
    double *r = o->buf;
    int L = s->lanes;
    o->out = r;
    switch (o->kind) {
    case NK_M_INTERPOLATED: interp(s, o); return;
    case NK_M_FLAT_CACHE: flat(s, o); return;
    case NK_M_Y_CLAMPED_GRADIENT:
        for (int l = 0; l < L; l++) r[l] = cf21_ygrad((double)(s->by0 + s->ly[l]), n->d[0], n->d[1], n->d[2], n->d[3]);
        return;
    case NK_M_ADD: {
        const double *a = val(s, o->in[0]), *b = val(s, o->in[1]);
        for (int l = 0; l < L; l++) r[l] = a[l] + b[l];
        return;
    }
    case NK_M_MUL: {
        const double *a = val(s, o->in[0]);
        if (n->i[0]) { /* MulOrAdd: a literal side */
            const double *b = val(s, o->in[1]);
            for (int l = 0; l < L; l++) r[l] = a[l] * b[l];
            return;
        }
        int any = 0;
        for (int l = 0; l < L; l++) any |= a[l] != 0.0;
        if (!any) {
            for (int l = 0; l < L; l++) r[l] = 0.0;
            return;
        }
        const double *b = val(s, o->in[1]);
        for (int l = 0; l < L; l++) r[l] = a[l] == 0.0 ? 0.0 : a[l] * b[l];
        return;
    }
    case NK_M_MIN: {
        const double *a = val(s, o->in[0]), *b = val(s, o->in[1]);
        for (int l = 0; l < L; l++) r[l] = lane_min(a[l], b[l]);
        return;
    }
    case NK_M_MAX: {
        const double *a = val(s, o->in[0]), *b = val(s, o->in[1]);
        for (int l = 0; l < L; l++) r[l] = lane_max(a[l], b[l]);
        return;
    }
    case NK_M_RANGE_CHOICE: {
        const double *v = val(s, o->in[0]);
        int nin = 0;
        double lo = n->d[0], hi = n->d[1];
        for (int l = 0; l < L; l++) nin += (lo <= v[l]) & (v[l] < hi);
        if (nin == L || nin == 0) { /* every block takes one branch: its values (no copy) */
            o->out = val(s, o->in[nin ? 1 : 2]);
            return;
        }
        const double *a = val(s, o->in[1]), *b = val(s, o->in[2]);
        for (int l = 0; l < L; l++) r[l] = (n->d[0] <= v[l] && v[l] < n->d[1]) ? a[l] : b[l];
        return;
    }
    case OP_POINT: {
        double bx = (double)s->bx0, by = (double)s->by0, bz = (double)s->bz0;
        for (int l = 0; l < L; l++)
            r[l] = eval_f64_mode(s->c, o->mode, o->node, bx + (double)s->lx[l], by + (double)s->ly[l], bz + (double)s->lz[l]);
        return;
    }
    default:
        break;
    }
    /* unary */
    const double *a = val(s, o->in[0]);
    switch (o->kind) {
    case NK_M_ABS: for (int l = 0; l < L; l++) r[l] = cf_fabs(a[l]); break;
    case NK_M_SQUARE: for (int l = 0; l < L; l++) r[l] = a[l] * a[l]; break;
    case NK_M_CUBE: for (int l = 0; l < L; l++) r[l] = a[l] * a[l] * a[l]; break;
    case NK_M_HALF_NEGATIVE: for (int l = 0; l < L; l++) r[l] = a[l] > 0.0 ? a[l] : a[l] * 0.5; break;
    case NK_M_QUARTER_NEGATIVE: for (int l = 0; l < L; l++) r[l] = a[l] > 0.0 ? a[l] : a[l] * 0.25; break;
    case NK_M_INVERT: for (int l = 0; l < L; l++) r[l] = 1.0 / a[l]; break;
    case NK_M_SQUEEZE: for (int l = 0; l < L; l++) r[l] = lane_squeeze(a[l]); break;
    case NK_M_CLAMP: for (int l = 0; l < L; l++) r[l] = lane_clamp(a[l], n->d[0], n->d[1]); break;
    default: break;
    }
}

static void compute_plain(f121 *s, op121 *o) { compute_body(s, o); }
#ifdef F121_AVX512
__attribute__((target("avx512f"))) static void compute_avx512(f121 *s, op121 *o) { compute_body(s, o); }
#endif

static const double *val(f121 *s, int id)
{
    op121 *o = &s->ops[id];
    switch (o->kind) {
    case NK_M_CONSTANT: case NK_M_BLEND_ALPHA: case NK_M_BLEND_OFFSET: case NK_M_BEARDIFIER: return o->buf;
    default: break;
    }
    if (o->st != s->st) {
#ifdef F121_AVX512
        if (s->avx512) compute_avx512(s, o);
        else
#endif
            compute_plain(s, o);
        o->st = s->st;
    }
    return o->out;
}

/* ------------------------------------------------------------------ a chunk */

void fill121_run(cf_fill121 *s, int32_t cx, int32_t cz, double *out) { fill121_run_rows(s, cx, cz, INT32_MIN, INT32_MAX, out); }

void fill121_run_rows(cf_fill121 *s, int32_t cx, int32_t cz, int32_t ylo, int32_t yhi, double *out)
{
    fill121_begin(s, cx, cz, NULL);
    fill121_cells(s, ylo, yhi, NULL, out);
}

void fill121_begin(cf_fill121 *s, int32_t cx, int32_t cz, const uint8_t *cells)
{
    const cf_program *p = s->p;
    eval64_chunk(s->c, cx, cz, s->mode);
    if (++s->cst == 0) {
        size_t nc = (size_t)(s->ncxz + 1) * (size_t)(s->ncxz + 1) * (size_t)(s->ncy + 1) * (size_t)s->ninterp;
        memset(s->cornst, 0, sizeof(uint32_t) * (nc + 1));
        memset(s->flatst, 0, sizeof s->flatst);
        s->cst = 1;
    }
    s->cx = cx, s->cz = cz;
    s->fcx = (int64_t)cx * 16 / s->cw, s->fcz = (int64_t)cz * 16 / s->cw, s->fcy = (int64_t)p->min_y / s->ch; /* exact: 16 % cw == 0 */
    if (s->clanes <= F121_MAX_COLUMN) corner_lattice(s, cells);
}

int fill121_cells_per_axis(const cf_fill121 *s) { return s->ncxz; }

void fill121_cells(cf_fill121 *s, int32_t ylo, int32_t yhi, const uint8_t *cells, double *out)
{
    const cf_program *p = s->p;
    int32_t cx = s->cx, cz = s->cz;
    int cw = s->cw, ch = s->ch;
    /* the cell rows that hold a block of [ylo, yhi] (every cell is computed from its corners alone:
     * the rows and cells computed are the same bits as in a whole fill) */
    int64_t lo = ylo <= p->min_y ? 0 : ((int64_t)ylo - p->min_y) / ch;
    int64_t hi = (int64_t)yhi >= (int64_t)p->min_y + (int64_t)s->ncy * ch ? s->ncy : ((int64_t)yhi - p->min_y) / ch + 1;
    for (int icy = (int)lo; icy < (int)hi; icy++)
        for (int icz = 0; icz < s->ncxz; icz++)
            for (int icx = 0; icx < s->ncxz; icx++) {
                if (!cell_on(s, cells, icx, icz)) continue;
                if (++s->st == 0) {
                    for (int i = 0; i < s->nops; i++) s->ops[i].st = 0;
                    s->st = 1;
                }
                s->icx = icx, s->icy = icy, s->icz = icz;
                s->bx0 = cx * 16 + icx * cw, s->by0 = p->min_y + icy * ch, s->bz0 = cz * 16 + icz * cw;
                int m = cells ? cells[icz * s->ncxz + icx] : 1;
                if (m >= 2) { /* one column of the cell: its ch blocks (lane y), each the same bits as in the whole cell */
                    m -= 2;
                    s->col = 1, s->colbx = m % cw, s->colbz = m / cw, s->lanes = ch;
                    for (int y = 0; y < ch; y++) s->clx[y] = s->colbx, s->clz[y] = s->colbz;
                    s->lx = s->clx, s->ly = s->cly, s->lz = s->clz;
                    const double *v = val(s, s->root);
                    s->col = 0, s->lanes = cw * cw * ch, s->lx = s->wlx, s->ly = s->wly, s->lz = s->wlz;
                    double *o = out + ((size_t)(icy * ch) * 16 + (size_t)(icz * cw + m / cw)) * 16 + (size_t)(icx * cw + m % cw);
                    for (int y = 0; y < ch; y++) o[(size_t)y * 256] = s->final ? v[y] + 0.0 : v[y];
                    continue;
                }
                const double *v = val(s, s->root);
                for (int y = 0; y < ch; y++)
                    for (int z = 0; z < cw; z++) {
                        double *o = out + ((size_t)(icy * ch + y) * 16 + (size_t)(icz * cw + z)) * 16 + (size_t)(icx * cw);
                        const double *r = v + (y * cw + z) * cw;
                        if (s->final)
                            for (int x = 0; x < cw; x++) o[x] = r[x] + 0.0;
                        else
                            memcpy(o, r, sizeof(double) * (size_t)cw);
                    }
            }
}

/* the reference: every block through eval64's memo (NoiseChunk's markers, eval64_chunk) */
void fill121_points(ev64_ctx *c, int node, int final, int32_t cx, int32_t cz, double *out)
{
    const cf_program *p = c->w->prog;
    eval64_chunk(c, cx, cz, final ? EV64_CELL : EV64_VALUE);
    for (int y = 0; y < p->height; y++)
        for (int z = 0; z < 16; z++)
            for (int x = 0; x < 16; x++) {
                double v = eval_f64(c, node, (double)((int64_t)cx * 16 + x), (double)(p->min_y + y), (double)((int64_t)cz * 16 + z));
                out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = final ? v + 0.0 : v;
            }
    eval64_chunk(c, 0, 0, EV64_POINT);
}

long fill121_check(const cf_world *w, int node, int final, size_t n, const int32_t *chunks, long *values)
{
    const cf_program *p = w->prog;
    ev64_ctx a, b;
    size_t per = (size_t)p->height * 256;
    double *va = malloc(sizeof(double) * per), *vb = malloc(sizeof(double) * per);
    if (!va || !vb || eval64_init(&a, w) < 0) return free(va), free(vb), -1;
    if (eval64_init(&b, w) < 0) return eval64_free(&a), free(va), free(vb), -1;
    cf_fill121 *s = fill121_new(&b, node, final);
    long bad = -1;
    *values = 0;
    if (s) {
        bad = 0;
        for (size_t i = 0; i < n; i++) {
            fill121_points(&a, node, final, chunks[2 * i], chunks[2 * i + 1], va);
            fill121_run(s, chunks[2 * i], chunks[2 * i + 1], vb);
            eval64_chunk(&b, 0, 0, EV64_POINT);
            for (size_t k = 0; k < per; k++) bad += memcmp(&va[k], &vb[k], sizeof(double)) != 0;
            *values += (long)per;
        }
    }
    fill121_free(s);
    eval64_free(&a), eval64_free(&b);
    free(va), free(vb);
    return bad;
}

int fill121_check_minmax(void)
{
    const double v[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e300, -1e300, 4.9e-324, -4.9e-324, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -(0.0 / 0.0),
                        1.0000000000000002, -1.0000000000000002, 0.9999999999999999, -0.9999999999999999};
    int n = (int)(sizeof v / sizeof v[0]), bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double a = lane_min(v[i], v[j]), b = cf21_min(v[i], v[j]), c = lane_max(v[i], v[j]), d = cf21_max(v[i], v[j]);
            bad += memcmp(&a, &b, sizeof a) != 0;
            bad += memcmp(&c, &d, sizeof c) != 0;
            double e = lane_clamp(v[i], v[j], 1.0), f = cf21_clamp(v[i], v[j], 1.0), g = lane_clamp(v[i], -1.0, v[j]);
            double h = cf21_clamp(v[i], -1.0, v[j]);
            bad += memcmp(&e, &f, sizeof e) != 0;
            bad += memcmp(&g, &h, sizeof g) != 0;
        }
    for (int i = 0; i < n; i++) {
        double a = lane_squeeze(v[i]), b = cf21_squeeze(v[i]);
        bad += memcmp(&a, &b, sizeof a) != 0;
    }
    return bad;
}

/* ------------------------------------------------------------------ the context pool
 * (pool.c) the double dialects' contexts, idle per world between calls, at most 64 */
static cf_pool ctx64_pool = CF_POOL_INIT(64);

static void ctx64_free(cf_ctx64 *e)
{
    if (!e) return;
    fill121_free(e->s);
    eval64_free(&e->c);
    free(e);
}

static int ctx64_fits(const cf_pooled *o, const void *arg)
{
    const cf_ctx64 *e = CF_POOLED(o, cf_ctx64);
    const int *nf = arg;
    return e->node == nf[0] && e->final == nf[1];
}

cf_ctx64 *ctx64_take(const cf_world *w, int node, int final)
{
    int nf[2] = {node, final};
    cf_pooled *o = pool_take(&ctx64_pool, w, ctx64_fits, nf);
    if (o) return CF_POOLED(o, cf_ctx64);
    cf_ctx64 *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (eval64_init(&e->c, w) < 0) return free(e), NULL;
    e->w = w, e->pool.w = w, e->node = node, e->final = final;
    /* NULL when not staged; out of memory here also leaves the per-block path (as before) */
    e->s = w->prog->dialect == DIALECT_MC121 ? fill121_new(&e->c, node, final) : NULL;
    return e;
}

void ctx64_give(cf_ctx64 *e)
{
    if (e && pool_give(&ctx64_pool, &e->pool)) ctx64_free(e);
}

void ctx64_pool_drop(const cf_world *w)
{
    for (cf_pooled *o = pool_drop(&ctx64_pool, w), *next; o; o = next) {
        next = o->next;
        ctx64_free(CF_POOLED(o, cf_ctx64));
    }
}
