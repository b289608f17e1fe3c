/* corners.c - the corner stage: noises over the corner lattice of a fill.
 *
 * An unshifted `noise` on the volume path is cf_stack_volume (kernels/cf_nodes.h), and
 * old_blended_noise is cf_blended (three cf_stack_point stacks, plain and smeared
 * octaves): per octave, the x, y and z double math (scale, wrap, floor, fraction, the
 * smear fudge) depends on one axis each, and only the lattice hashing and the float
 * lerp need the whole corner. Inside a fill these nodes' values are needed at the cell
 * corners of the region's interpolated nodes: this file computes them a corner row (one
 * y, every x and z corner) at a time, octave by octave, with the per-axis math done
 * once per axis value and per chunk, and the lattice part over all corners of the row
 * at once (16 AVX-512 lanes with byte permutes of the permutation table where the CPU has
 * AVX-512 VBMI, else 8 AVX2 lanes with gathers and byte shuffles, else 4 SSE2 lanes (x86-64's
 * baseline: scalar look-ups, vector float math), else plain C (row_hoisted, non-x86 builds);
 * chosen at run time, CF_NO_AVX512 / CF_NO_AVX2 / CF_NO_SSE in the environment step down).
 * old_blended_noise's limit stacks are computed only for the corners whose blend
 * factor needs them (compacted lists), as cf_blended branches. Each corner's float
 * operations are the header's, in its order (sum over octaves left to right, no
 * contraction: -ffp-contract=off), so the values are bit for bit the same;
 * corners_check() (tests/test_fill.c) compares them with the header's functions at
 * every corner of many chunks. eval.c asks corners_noise() before evaluating such a
 * node at a point.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CF_HAVE_AVX2_PATH 1
#endif
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define CF_HAVE_SSE2_PATH 1
#endif

/* one noise stack over the lattice: per layer, per corner of a row (c = k*ncx + i), the
 * lattice cell and fraction in x and z */
typedef struct cn_stack {
    int stack, nlayers;
    double sxz, sy;      /* the node's scales */
    int point;           /* 1: cf_stack_point at (x*sxz, y*sy, z*sxz); 0: cf_stack_volume */
    int32_t *ci, *ck;
    float *cu, *cw;
} cn_stack;

enum { CN_NOISE = 0, CN_BLENDED = 1 };

/* one node's corner values over the region's lattice */
typedef struct cn_slot {
    int node, kind;      /* CN_*: an unshifted noise (one stack), old_blended_noise (min, max, main) */
    int nst;
    cn_stack st[3];
    float *val;          /* [j][k][i] */
    uint32_t *rowstamp;  /* per j: the fill stamp whose row val holds */
    uint32_t axstamp;    /* the fill stamp of the per-axis tables */
} cn_slot;

struct cf_corners {
    int32_t w, h;              /* the lattice: cell width and height */
    int32_t cx0, cy0, cz0;     /* first corner (cell index) of the region */
    int ncx, ncy, ncz, maxy;   /* corners per axis (maxy: the rows allocated) */
    int ncol;                  /* ncx * ncz */
    int *slot;                 /* per node: index in slots, or -1 */
    cn_slot *slots;
    int nslots;
    int32_t *perm;             /* per octave the slots read: the 256 permutation bytes as int32 (vector gathers) */
    /* the same octaves, 512 entries each (x and x + 256 alike, so sums of two bytes need no
     * mask): permg the byte shuffle index of perm[x]'s gradient, (perm & 15) << 24 | 0x808080
     * (AVX2); gpk the gradient of perm[x] as three signed bytes, x in byte 0, y in byte 1, z
     * in byte 3 (SSE2); gtab the gradient of perm[x] as x, y, z floats (portable) */
    int32_t *permg, *gpk;
    float *gtab;
    int nperm;                 /* the octaves in perm */
    int *pmap;                 /* per octave of the world: its index in perm, or -1 */
    /* a row's scratch (ncol each): compacted corner tables, blend factors, the limits */
    int32_t *ti, *tk;
    float *tu, *tw, *ta, *tlo, *thi, *tacc;
    int *idx;
    int32_t *cix, *ciz;        /* per corner of the row (c = k*ncx + i): i and k, padded with zeros to 8 */
    int32_t *tix, *tiz;        /* the same for a compacted list */
    int isa;                   /* CN_ISA_*: the lattice path this CPU takes */
    int capx;                  /* the corner columns along x there is room for (corners_new) */
    int32_t stride;            /* cells between corner columns along x: 1, or a strided row's (corners_samples) */
    uint32_t own;              /* a strided row's stamp (its rows are its own, not a fill's) */
    cf_corners *src;           /* a lone column's rows come from this strided row, column src_i (corners_share) */
    int src_i;
};

/* the lattice paths, each a step above the one before (corners_check() walks them down):
 * scalar (portable), 4 SSE2 lanes, 8 AVX2 lanes with gathers, 16 AVX-512 lanes with byte
 * permutes of the permutation table (AVX-512 VBMI) */
enum { CN_ISA_SCALAR = 0, CN_ISA_SSE2 = 1, CN_ISA_AVX2 = 2, CN_ISA_AVX512 = 3 };

/* the node is an unshifted noise (every input the literal +0.0): eval.c's test */
static int plain_zero(const cf_node *nodes, int id)
{
    const cf_node *c = &nodes[id];
    return (c->flags & NF_LITERAL) && c->f[0] == 0.0f && !signbit(c->f[0]);
}

void corners_free(cf_corners *c)
{
    if (!c) return;
    for (int s = 0; s < c->nslots; s++) {
        cn_slot *q = &c->slots[s];
        free(q->val), free(q->rowstamp);
        for (int k = 0; k < q->nst; k++) free(q->st[k].ci), free(q->st[k].ck), free(q->st[k].cu), free(q->st[k].cw);
    }
    free(c->slots), free(c->slot), free(c->perm), free(c->permg), free(c->gpk), free(c->gtab), free(c->pmap);
    free(c->ti), free(c->tk), free(c->tu), free(c->tw), free(c->ta), free(c->tlo), free(c->thi), free(c->tacc), free(c->idx);
    free(c->cix), free(c->ciz), free(c->tix), free(c->tiz);
    free(c);
}

/* the gradient tables of the lattice path c->isa takes (130 octaves in the vanilla overworld:
 * permg 260 KB for AVX2, gpk 260 KB for SSE2 (and AVX2's regions wider than 8 corners), gtab
 * 780 KB for the portable path, none for AVX-512); 0 or -1 */
static int tables(cf_corners *c)
{
    free(c->permg), free(c->gpk), free(c->gtab);
    c->permg = NULL, c->gpk = NULL, c->gtab = NULL;
    size_t np = (size_t)(c->nperm > 0 ? c->nperm : 1);
    int avx2 = c->isa == CN_ISA_AVX2, sse = c->isa == CN_ISA_SSE2 || (avx2 && (c->ncx > 8 || c->ncz > 8));
    if (avx2 && !(c->permg = malloc(sizeof(int32_t) * 512 * np))) return -1;
    if (sse && !(c->gpk = malloc(sizeof(int32_t) * 512 * np))) return -1;
    if (c->isa == CN_ISA_SCALAR && !(c->gtab = malloc(sizeof(float) * 3 * 512 * np))) return -1;
    for (size_t o = 0; o < (size_t)c->nperm; o++)
        for (size_t k = 0; k < 512; k++) {
            uint32_t b = (uint32_t)c->perm[256 * o + (k & 255)] & 15u;
            if (c->permg) c->permg[512 * o + k] = (int32_t)(b << 24 | 0x808080u);
            if (c->gpk)
                c->gpk[512 * o + k] = (int32_t)((uint32_t)(uint8_t)(int8_t)cf_grad_x[b] | (uint32_t)(uint8_t)(int8_t)cf_grad_y[b] << 8
                                                | (uint32_t)(uint8_t)(int8_t)cf_grad_z[b] << 24);
            if (c->gtab) {
                float *g = c->gtab + 3 * (512 * o + k);
                g[0] = cf_grad_x[b], g[1] = cf_grad_y[b], g[2] = cf_grad_z[b];
            }
        }
    return 0;
}

cf_corners *corners_new(const cf_world *w, int32_t sx, int32_t sy, int32_t sz)
{
    const cf_program *p = w->prog;
    if (p->dialect != DIALECT_MC263 || p->prec == PREC_F64 || !w->noise_stack || !w->tab) return NULL;
    int32_t cw = 0, ch = 0;
    for (int i = 0; i < p->nnodes; i++)
        if (p->islot[i] >= 0) {
            cw = p->nodes[i].i[0], ch = p->nodes[i].i[1];
            break;
        }
    if (cw <= 0 || ch <= 0) return NULL; /* no interpolation: no corners */
    cf_corners *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->w = cw, c->h = ch;
    c->ncx = sx / cw + 3, c->ncz = sz / cw + 3, c->maxy = sy / ch + 3;
    c->capx = c->ncx * c->ncz < 64 ? c->ncx * c->ncz : 64; /* a strided row: ncol, at most axes()' tables */
    if (c->ncx > 64 || c->ncz > 64) { /* the per-axis tables of axes() */
        free(c);
        return NULL;
    }
    c->slot = malloc(sizeof(int) * ((size_t)p->nnodes + 1));
    c->slots = calloc((size_t)p->nnodes + 1, sizeof *c->slots);
    if (!c->slot || !c->slots) goto fail;
    int noct = cf_ld_i32(w->tab + 8);
    int32_t soff = cf_ld_i32(w->tab + 4);
    size_t ncol = (size_t)c->ncx * (size_t)c->ncz;
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        c->slot[i] = -1;
        cn_slot *q = &c->slots[c->nslots];
        if (n->kind == NK_NOISE && n->noise >= 0 && n->nin >= 3 && plain_zero(p->nodes, n->in[0])
            && plain_zero(p->nodes, n->in[1]) && plain_zero(p->nodes, n->in[2]) && w->noise_stack[n->noise] >= 0) {
            q->kind = CN_NOISE, q->nst = 1;
            q->st[0] = (cn_stack){.stack = w->noise_stack[n->noise], .sxz = n->d[0], .sy = n->d[1], .point = 0};
        } else if (n->kind == NK_OLD_BLENDED_NOISE && w->node_stack && w->node_stack[i] >= 0) {
            /* cf_blended's scales, in its order */
            double xzm = 684.412 * n->d[0], ym = 684.412 * n->d[1];
            int s0 = w->node_stack[i];
            q->kind = CN_BLENDED, q->nst = 3;
            q->st[0] = (cn_stack){.stack = s0, .sxz = xzm, .sy = ym, .point = 1};
            q->st[1] = (cn_stack){.stack = s0 + 1, .sxz = xzm, .sy = ym, .point = 1};
            q->st[2] = (cn_stack){.stack = s0 + 2, .sxz = xzm / n->d[2], .sy = ym / n->d[3], .point = 1};
        } else {
            continue;
        }
        q->node = i;
        c->slot[i] = c->nslots++;
        q->val = malloc(sizeof(float) * ncol * (size_t)c->maxy);
        q->rowstamp = calloc((size_t)c->maxy, sizeof(uint32_t));
        if (!q->val || !q->rowstamp) goto fail;
        for (int k = 0; k < q->nst; k++) {
            cn_stack *st = &q->st[k];
            st->nlayers = cf_ld_i32(w->tab + soff + 8 * st->stack + 4);
            size_t nl = (size_t)(st->nlayers > 0 ? st->nlayers : 1);
            st->ci = malloc(sizeof(int32_t) * nl * ncol), st->ck = malloc(sizeof(int32_t) * nl * ncol);
            st->cu = malloc(sizeof(float) * nl * ncol), st->cw = malloc(sizeof(float) * nl * ncol);
            if (!st->ci || !st->ck || !st->cu || !st->cw) goto fail;
        }
    }
    if (c->nslots == 0) {
        corners_free(c);
        return NULL;
    }
    /* the octaves the slots read, numbered in pmap */
    c->pmap = malloc(sizeof(int) * (size_t)(noct > 0 ? noct : 1));
    if (!c->pmap) goto fail;
    for (int o = 0; o < noct; o++) c->pmap[o] = -1;
    int nperm = 0;
    for (int s = 0; s < c->nslots; s++)
        for (int k = 0; k < c->slots[s].nst; k++) {
            const cn_stack *st = &c->slots[s].st[k];
            CF_TAB ly = w->tab + cf_ld_i32(w->tab) + CF_LAYER_BYTES * cf_ld_i32(w->tab + soff + 8 * st->stack);
            for (int l = 0; l < st->nlayers; l++, ly += CF_LAYER_BYTES) {
                int o = cf_ld_i32(ly);
                if (o >= 0 && o < noct && c->pmap[o] < 0) c->pmap[o] = nperm++;
            }
        }
    c->perm = malloc(sizeof(int32_t) * 256 * (size_t)(nperm > 0 ? nperm : 1));
    c->ti = malloc(sizeof(int32_t) * ncol), c->tk = malloc(sizeof(int32_t) * ncol), c->idx = malloc(sizeof(int) * ncol);
    c->tu = malloc(sizeof(float) * ncol), c->tw = malloc(sizeof(float) * ncol), c->ta = malloc(sizeof(float) * ncol);
    c->tlo = malloc(sizeof(float) * ncol), c->thi = malloc(sizeof(float) * ncol), c->tacc = malloc(sizeof(float) * ncol);
    c->cix = calloc(ncol + 8, sizeof(int32_t)), c->ciz = calloc(ncol + 8, sizeof(int32_t));
    c->tix = calloc(ncol + 8, sizeof(int32_t)), c->tiz = calloc(ncol + 8, sizeof(int32_t));
    if (!c->perm || !c->ti || !c->tk || !c->idx || !c->tu || !c->tw || !c->ta || !c->tlo || !c->thi || !c->tacc
        || !c->cix || !c->ciz || !c->tix || !c->tiz)
        goto fail;
    for (int o = 0; o < noct; o++)
        if (c->pmap[o] >= 0)
            for (int k = 0; k < 256; k++) c->perm[256 * c->pmap[o] + k] = w->tab[CF_TAB_HEADER + CF_OCT_BYTES * o + 32 + k];
    c->nperm = nperm;
    /* CF_NO_SSE: the portable path; CF_NO_AVX2: at most SSE2; CF_NO_AVX512: at most AVX2
     * (benchmarks, checks); each one steps down past the paths above it too */
    unsigned cpu = cpu_isa(); /* isa.c */
#ifdef CF_HAVE_SSE2_PATH
    if (cpu & CPU_SSE2) c->isa = CN_ISA_SSE2;
#endif
#ifdef CF_HAVE_AVX2_PATH
    if (c->isa == CN_ISA_SSE2 && (cpu & CPU_AVX2)) c->isa = CN_ISA_AVX2;
    if (c->isa == CN_ISA_AVX2 && (cpu & CPU_AVX512VBMI)) c->isa = CN_ISA_AVX512;
#endif
    (void)cpu;
    if (tables(c) != 0) goto fail;
    return c;
fail:
    corners_free(c);
    return NULL;
}

void corners_clear(cf_corners *c)
{
    if (!c) return;
    for (int s = 0; s < c->nslots; s++) {
        memset(c->slots[s].rowstamp, 0, sizeof(uint32_t) * (size_t)c->maxy);
        c->slots[s].axstamp = 0;
    }
}

void corners_region(cf_corners *c, int32_t x0, int32_t y0, int32_t z0, int32_t sx, int32_t sy, int32_t sz)
{
    if (!c) return;
    c->cx0 = (int32_t)cf_floordiv(x0, c->w), c->cy0 = (int32_t)cf_floordiv(y0, c->h), c->cz0 = (int32_t)cf_floordiv(z0, c->w);
    c->ncx = (int)(cf_floordiv((int64_t)x0 + sx - 1, c->w) + 2 - c->cx0);
    c->ncy = (int)(cf_floordiv((int64_t)y0 + sy - 1, c->h) + 2 - c->cy0);
    c->ncz = (int)(cf_floordiv((int64_t)z0 + sz - 1, c->w) + 2 - c->cz0);
    c->ncol = c->ncx * c->ncz;
    c->stride = 1;
    for (int k = 0; k < c->ncz; k++)
        for (int i = 0; i < c->ncx; i++) c->cix[k * c->ncx + i] = i, c->ciz[k * c->ncx + i] = k;
    for (int e = c->ncol; e < c->ncol + 8; e++) c->cix[e] = c->ciz[e] = 0;
}

int corners_lanes(const cf_corners *c)
{
    int n = c->isa == CN_ISA_AVX512 ? 16 : c->isa == CN_ISA_SSE2 ? 4 : 8;
    return n < c->capx ? n : c->capx;
}

int corners_samples(cf_corners *c, int32_t x0, int32_t y0, int32_t z0, int32_t step, int n, int32_t sy)
{
    if (!c || step % c->w || n < 1 || n > corners_lanes(c)) return -1;
    corners_region(c, x0, y0, z0, 1, sy, 1);
    if (c->cx0 * (int64_t)c->w != x0 || c->cz0 * (int64_t)c->w != z0) return -1;
    c->stride = step / c->w, c->ncx = n, c->ncz = 1, c->ncol = n;
    for (int i = 0; i < n; i++) c->cix[i] = i, c->ciz[i] = 0;
    for (int e = n; e < n + 8; e++) c->cix[e] = c->ciz[e] = 0;
    if (++c->own == 0) { /* wrapped: every row is stale */
        corners_clear(c);
        c->own = 1;
    }
    return 0;
}

int corners_share(cf_corners *c, cf_corners *src, int i)
{
    if (!c) return -1;
    c->src = NULL;
    if (!src) return 0;
    if (c->nslots != src->nslots || c->w != src->w || c->h != src->h || c->ncx != 1 || c->ncz != 1 || i < 0
        || i >= src->ncx || c->cz0 != src->cz0 || c->cy0 != src->cy0 || c->maxy > src->maxy
        || (int64_t)c->cx0 != (int64_t)src->cx0 + (int64_t)i * src->stride)
        return -1;
    c->src = src, c->src_i = i;
    return 0;
}

/* ------------------------------------------------------------------ the lattice part */

/* the hoisted lattice: a row has one y, so the steps of the hash that do not read z (P[i],
 * P[i+1], then P[a+j], P[a+j+1], P[b+j], P[b+j+1]) depend on the corner's x alone and are
 * looked up once per x corner (xi, xu: the nx x corners; zk, zw: the nz z corners; ix, iz:
 * each listed corner's x and z corner). Per corner only the last step, P[aa+k] and its seven
 * kin, remains. The values are cf_perlin_lattice's: the same bytes and the same float
 * operations in the same order (cf_smoothf of u and w computed once per axis value). */
typedef struct cn_axes {
    int nx, nz;
    const int32_t *ix, *iz;      /* per listed corner: its x and z corner (padded to 8 with 0) */
    int32_t xi[64], zk[64];
    float xu[64], zw[64];
} cn_axes;

/* scalar code: GCC's vectoriser would emulate the look-ups lane by lane, which costs more */
#if defined(__GNUC__) && !defined(__clang__)
#define CN_NOVEC __attribute__((optimize("no-tree-vectorize")))
#else
#define CN_NOVEC
#endif
CN_NOVEC static void row_hoisted(const uint8_t *p, const float *G, int n, const cn_axes *ax, int32_t j, float v,
                                 float fade, float amp, float *acc)
{
    uint32_t base[64][4]; /* per x corner: aa, ba, ab, bb */
    float su[64], sw[64];
    uint32_t uj = (uint32_t)j;
    for (int i = 0; i < ax->nx; i++) {
        uint32_t ui = (uint32_t)ax->xi[i];
        uint32_t a = cf_perm(p, ui), b = cf_perm(p, ui + 1u);
        base[i][0] = cf_perm(p, a + uj), base[i][2] = cf_perm(p, a + uj + 1u);
        base[i][1] = cf_perm(p, b + uj), base[i][3] = cf_perm(p, b + uj + 1u);
        su[i] = cf_smoothf(ax->xu[i]);
    }
    for (int k = 0; k < ax->nz; k++) sw[k] = cf_smoothf(ax->zw[k]);
    float sv = cf_smoothf(fade), v1 = v - 1.0f;
    /* per corner: G[x] is the gradient of perm[x & 255] (base + (k & 255) + 1 <= 511), and
     * cf_perlin_lattice's float operations in its order */
    for (int c = 0; c < n; c++) {
        int i = ax->ix[c], k = ax->iz[c];
        uint32_t uk = (uint32_t)ax->zk[k] & 255u;
        float u = ax->xu[i], w = ax->zw[k], u1 = u - 1.0f, w1 = w - 1.0f, d[8];
        for (int t = 0; t < 8; t++) {
            const float *g = G + 3 * (base[i][t & 3] + uk + (uint32_t)(t >> 2));
            float x = t & 1 ? u1 : u, y = t & 2 ? v1 : v, z = t & 4 ? w1 : w;
            d[t] = (g[0] * x + g[1] * y) + g[2] * z;
        }
        acc[c] = acc[c] + amp * cf_lerp3f(su[i], sv, sw[k], d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
    }
}

#ifdef CF_HAVE_SSE2_PATH
/* row_hoisted on 4 SSE2 lanes (x86-64's baseline: no gathers, no byte shuffles). The per-x
 * hash steps as there, kept as byte offsets into GP (the octave's 512 gradient words, gpk), so
 * that a corner's look-up is one add; one 8-byte load per lane gives the gradient words of
 * entries e and e + 1 (the z corners k and k + 1), two unpacks a pair of 4-lane vectors of
 * them, and the components come out by shifts and int -> float conversion (-1, 1 and +0.0f,
 * the values of cf_grad_x/y/z), so no float transposes; then cf_perlin_lattice's float
 * operations lane by lane in its order (mulps, addps, subps: no FMA). */
static inline __m128 dot4(__m128 gx, __m128 gy, __m128 gz, __m128 x, __m128 y, __m128 z)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(gx, x), _mm_mul_ps(gy, y)), _mm_mul_ps(gz, z));
}
/* the dot of 4 lanes' gradient words W */
static inline __m128 wdot4(__m128i W, __m128 x, __m128 y, __m128 z)
{
    __m128 gx = _mm_cvtepi32_ps(_mm_srai_epi32(_mm_slli_epi32(W, 24), 24));
    __m128 gy = _mm_cvtepi32_ps(_mm_srai_epi32(_mm_slli_epi32(W, 16), 24));
    return dot4(gx, gy, _mm_cvtepi32_ps(_mm_srai_epi32(W, 24)), x, y, z);
}
/* the words of entries o_l / 4 and the next ones of 4 lanes (byte offsets o0..o3): W and W1 */
static inline void words4(const char *GP, uint32_t o0, uint32_t o1, uint32_t o2, uint32_t o3, __m128i *W, __m128i *W1)
{
    __m128i q0 = _mm_loadl_epi64((const __m128i *)(GP + o0)), q1 = _mm_loadl_epi64((const __m128i *)(GP + o1));
    __m128i q2 = _mm_loadl_epi64((const __m128i *)(GP + o2)), q3 = _mm_loadl_epi64((const __m128i *)(GP + o3));
    __m128i a = _mm_unpacklo_epi32(q0, q1), b = _mm_unpacklo_epi32(q2, q3); /* e0 e1 e0+1 e1+1, e2 e3 e2+1 e3+1 */
    *W = _mm_unpacklo_epi64(a, b);
    *W1 = _mm_unpackhi_epi64(a, b);
}
static inline __m128 lerp4(__m128 t, __m128 a, __m128 b)
{
    return _mm_add_ps(a, _mm_mul_ps(t, _mm_sub_ps(b, a)));
}
/* acc[c..c+4) += va * (cf_lerp3f's lerps of the 8 dots), the lanes below n */
static inline void add4(float *acc, int c, int n, __m128 va, __m128 tu, __m128 sv, __m128 tw, __m128 l00, __m128 l01,
                        __m128 d010, __m128 d110, __m128 d011, __m128 d111)
{
    /* cf_lerp3f: b0 = lerp(t2, lerp(t1, a000, a100), lerp(t1, a010, a110)), b1 the same at k + 1 */
    __m128 e0 = lerp4(sv, l00, lerp4(tu, d010, d110)), e1 = lerp4(sv, l01, lerp4(tu, d011, d111));
    __m128 r = _mm_mul_ps(va, lerp4(tw, e0, e1));
    if (n - c >= 4) {
        _mm_storeu_ps(acc + c, _mm_add_ps(_mm_loadu_ps(acc + c), r));
    } else { /* the last 1-3 corners */
        float o[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int l = 0; l < n - c; l++) o[l] = acc[c + l];
        _mm_storeu_ps(o, _mm_add_ps(_mm_loadu_ps(o), r));
        for (int l = 0; l < n - c; l++) acc[c + l] = o[l];
    }
}
static void row_sse2(const uint8_t *p, const int32_t *GP, int n, const cn_axes *ax, int32_t j, float v, float fade,
                     float amp, float *acc)
{
    uint32_t bx[64][4], kz[64]; /* per x corner: aa, ba, ab, bb (row_hoisted's); per z corner: k (x 4: bytes) */
    float su[64], sw[64];
    uint32_t uj = (uint32_t)j;
    /* one lattice cell for the whole row (all x corners in one, all z corners in one: 40 % of
     * the vanilla overworld's samples, its low octaves): the 8 gradients are the same in every
     * lane, broadcast once */
    int one = ax->nx > 0 && ax->nz > 0;
    for (int i = 1; i < ax->nx; i++) one &= ax->xi[i] == ax->xi[0];
    for (int k = 1; k < ax->nz; k++) one &= ax->zk[k] == ax->zk[0];
    for (int i = 0; i < ax->nx; i++) {
        if (i == 0 || !one) {
            uint32_t ui = (uint32_t)ax->xi[i];
            uint32_t a = cf_perm(p, ui), b = cf_perm(p, ui + 1u);
            bx[i][0] = 4u * cf_perm(p, a + uj), bx[i][2] = 4u * cf_perm(p, a + uj + 1u);
            bx[i][1] = 4u * cf_perm(p, b + uj), bx[i][3] = 4u * cf_perm(p, b + uj + 1u);
        }
        su[i] = cf_smoothf(ax->xu[i]);
    }
    for (int k = 0; k < ax->nz; k++) kz[k] = 4u * ((uint32_t)ax->zk[k] & 255u), sw[k] = cf_smoothf(ax->zw[k]);
    const char *g = (const char *)GP;
    __m128 vv = _mm_set1_ps(v), v1 = _mm_set1_ps(v - 1.0f), onef = _mm_set1_ps(1.0f);
    __m128 sv = _mm_set1_ps(cf_smoothf(fade)), va = _mm_set1_ps(amp);
    if (one) {
        __m128 gv[8][3]; /* per cube corner t (x: bit 0, y: bit 1, z: bit 2): the gradient's x, y, z */
        for (int t = 0; t < 8; t++) {
            int32_t wd = GP[(bx[0][t & 3] + kz[0]) / 4u + (uint32_t)(t >> 2)];
            __m128 wf = _mm_cvtepi32_ps(_mm_setr_epi32((int8_t)(wd & 255), (int8_t)((wd >> 8) & 255), (int8_t)((wd >> 24) & 255), 0));
            gv[t][0] = _mm_shuffle_ps(wf, wf, 0x00), gv[t][1] = _mm_shuffle_ps(wf, wf, 0x55), gv[t][2] = _mm_shuffle_ps(wf, wf, 0xaa);
        }
        for (int c = 0; c < n; c += 4) {
            int i0 = ax->ix[c], i1 = ax->ix[c + 1], i2 = ax->ix[c + 2], i3 = ax->ix[c + 3];
            int k0 = ax->iz[c], k1 = ax->iz[c + 1], k2 = ax->iz[c + 2], k3 = ax->iz[c + 3];
            __m128 u = _mm_setr_ps(ax->xu[i0], ax->xu[i1], ax->xu[i2], ax->xu[i3]);
            __m128 w = _mm_setr_ps(ax->zw[k0], ax->zw[k1], ax->zw[k2], ax->zw[k3]);
            __m128 u1 = _mm_sub_ps(u, onef), w1 = _mm_sub_ps(w, onef);
            __m128 tu = _mm_setr_ps(su[i0], su[i1], su[i2], su[i3]);
            __m128 l00 = lerp4(tu, dot4(gv[0][0], gv[0][1], gv[0][2], u, vv, w), dot4(gv[1][0], gv[1][1], gv[1][2], u1, vv, w));
            __m128 l01 = lerp4(tu, dot4(gv[4][0], gv[4][1], gv[4][2], u, vv, w1), dot4(gv[5][0], gv[5][1], gv[5][2], u1, vv, w1));
            __m128 d010 = dot4(gv[2][0], gv[2][1], gv[2][2], u, v1, w), d110 = dot4(gv[3][0], gv[3][1], gv[3][2], u1, v1, w);
            __m128 d011 = dot4(gv[6][0], gv[6][1], gv[6][2], u, v1, w1), d111 = dot4(gv[7][0], gv[7][1], gv[7][2], u1, v1, w1);
            __m128 tw = _mm_setr_ps(sw[k0], sw[k1], sw[k2], sw[k3]);
            add4(acc, c, n, va, tu, sv, tw, l00, l01, d010, d110, d011, d111);
        }
        return;
    }
    for (int c = 0; c < n; c += 4) {
        /* per lane (corners past n: x and z corner 0, computed and not stored) */
        int i0 = ax->ix[c], i1 = ax->ix[c + 1], i2 = ax->ix[c + 2], i3 = ax->ix[c + 3];
        int k0 = ax->iz[c], k1 = ax->iz[c + 1], k2 = ax->iz[c + 2], k3 = ax->iz[c + 3];
        const uint32_t *b0 = bx[i0], *b1 = bx[i1], *b2 = bx[i2], *b3 = bx[i3];
        uint32_t z0 = kz[k0], z1 = kz[k1], z2 = kz[k2], z3 = kz[k3];
        __m128 u = _mm_setr_ps(ax->xu[i0], ax->xu[i1], ax->xu[i2], ax->xu[i3]);
        __m128 w = _mm_setr_ps(ax->zw[k0], ax->zw[k1], ax->zw[k2], ax->zw[k3]);
        __m128 u1 = _mm_sub_ps(u, onef), w1 = _mm_sub_ps(w, onef);
        __m128 tu = _mm_setr_ps(su[i0], su[i1], su[i2], su[i3]);
        __m128i W, W1;
        words4(g, b0[0] + z0, b1[0] + z1, b2[0] + z2, b3[0] + z3, &W, &W1);
        __m128 d000 = wdot4(W, u, vv, w), d001 = wdot4(W1, u, vv, w1);
        words4(g, b0[1] + z0, b1[1] + z1, b2[1] + z2, b3[1] + z3, &W, &W1);
        __m128 l00 = lerp4(tu, d000, wdot4(W, u1, vv, w)), l01 = lerp4(tu, d001, wdot4(W1, u1, vv, w1));
        words4(g, b0[2] + z0, b1[2] + z1, b2[2] + z2, b3[2] + z3, &W, &W1);
        __m128 d010 = wdot4(W, u, v1, w), d011 = wdot4(W1, u, v1, w1);
        words4(g, b0[3] + z0, b1[3] + z1, b2[3] + z2, b3[3] + z3, &W, &W1);
        __m128 d110 = wdot4(W, u1, v1, w), d111 = wdot4(W1, u1, v1, w1);
        __m128 tw = _mm_setr_ps(sw[k0], sw[k1], sw[k2], sw[k3]);
        add4(acc, c, n, va, tu, sv, tw, l00, l01, d010, d110, d011, d111);
    }
}
#endif

#ifdef CF_HAVE_AVX2_PATH
/* 8 corners: the same operations as cf_perlin_lattice, lane by lane (float adds,
 * multiplies and subtracts only, no FMA: the target adds AVX2, not FMA) */
__attribute__((target("avx2"))) static inline __m256i perm8(const int32_t *P, __m256i i)
{
    return _mm256_i32gather_epi32(P, _mm256_and_si256(i, _mm256_set1_epi32(255)), 4);
}
__attribute__((target("avx2"))) static inline __m256 lerp8(__m256 t, __m256 a, __m256 b)
{
    return _mm256_add_ps(a, _mm256_mul_ps(t, _mm256_sub_ps(b, a)));
}
__attribute__((target("avx2"))) static inline __m256 smooth8(__m256 t)
{
    __m256 t3 = _mm256_mul_ps(_mm256_mul_ps(t, t), t);
    __m256 in = _mm256_sub_ps(_mm256_mul_ps(t, _mm256_set1_ps(6.0f)), _mm256_set1_ps(15.0f));
    return _mm256_mul_ps(t3, _mm256_add_ps(_mm256_mul_ps(t, in), _mm256_set1_ps(10.0f)));
}
/* the hoisted lattice (row_hoisted) on 8 AVX2 lanes, for at most 8 x and 8 z corners: the
 * per-x steps are 6 gathers a row, and a corner's x values (aa, ab, ba, bb, u, smooth(u))
 * and z values (k, w, smooth(w)) are lane permutes of the per-axis vectors; per 8 corners
 * 8 gathers remain (14 before) */
__attribute__((target("avx2"))) static inline __m256 gdot8h(__m256i q, __m256 x2, __m256 y2, __m256 z2, const __m256i *g)
{
    __m256 gx = _mm256_castsi256_ps(_mm256_shuffle_epi8(g[0], q)), gy = _mm256_castsi256_ps(_mm256_shuffle_epi8(g[1], q));
    __m256 gz = _mm256_castsi256_ps(_mm256_shuffle_epi8(g[2], q));
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(gx, x2), _mm256_mul_ps(gy, y2)), _mm256_mul_ps(gz, z2));
}
__attribute__((target("avx2"))) static void row_avx2h(const int32_t *P, const int32_t *PG, int n, const cn_axes *ax,
                                                      int32_t j, float v, float fade, float amp, float *acc)
{
    /* the gradients as halves: byte 3 of +-0.5f (0x3f / 0xbf) or of +0.0f, per h, in both
     * 128-bit lanes; PG's gather gives (h & 15) << 24 | 0x808080, the shuffle index that puts
     * the byte of h into byte 3 and zeros bytes 0-2. (2x) * (+-0.5f) is +-x exactly and
     * (2x) * (+0.0f) is 0.0f * x to the sign, so gdot8h equals cf_gdot lane by lane. */
    __m256i g[3];
    {
        int8_t t[3][16];
        const float *gr[3] = {cf_grad_x, cf_grad_y, cf_grad_z};
        for (int a = 0; a < 3; a++)
            for (int h = 0; h < 16; h++) t[a][h] = (int8_t)(gr[a][h] > 0.0f ? 0x3f : gr[a][h] < 0.0f ? (int8_t)0xbf : 0);
        for (int a = 0; a < 3; a++) g[a] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t[a]));
    }
    __m256i uj = _mm256_set1_epi32(j), one = _mm256_set1_epi32(1);
    __m256 vv2 = _mm256_set1_ps(v + v), v12 = _mm256_set1_ps((v - 1.0f) + (v - 1.0f)), onef = _mm256_set1_ps(1.0f);
    __m256 sv = _mm256_set1_ps(cf_smoothf(fade)), va = _mm256_set1_ps(amp);
    /* the per-axis vectors (lanes past nx / nz are never selected) */
    __m256i xv = _mm256_loadu_si256((const __m256i *)ax->xi);
    __m256i zv = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)ax->zk), _mm256_set1_epi32(255));
    __m256 xu = _mm256_loadu_ps(ax->xu), zw = _mm256_loadu_ps(ax->zw);
    __m256i a = perm8(P, xv), b = perm8(P, _mm256_add_epi32(xv, one));
    __m256i aj = _mm256_add_epi32(a, uj), bj = _mm256_add_epi32(b, uj);
    __m256i XAA = perm8(P, aj), XAB = perm8(P, _mm256_add_epi32(aj, one));
    __m256i XBA = perm8(P, bj), XBB = perm8(P, _mm256_add_epi32(bj, one));
    __m256 XSU = smooth8(xu), ZSW = smooth8(zw);
    __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int c = 0; c < n; c += 8) {
        __m256i ix = _mm256_loadu_si256((const __m256i *)(ax->ix + c)), iz = _mm256_loadu_si256((const __m256i *)(ax->iz + c));
        __m256i uk = _mm256_permutevar8x32_epi32(zv, iz);
        __m256 u = _mm256_permutevar8x32_ps(xu, ix), w = _mm256_permutevar8x32_ps(zw, iz);
        __m256 su = _mm256_permutevar8x32_ps(XSU, ix), sw = _mm256_permutevar8x32_ps(ZSW, iz);
        __m256i aak = _mm256_add_epi32(_mm256_permutevar8x32_epi32(XAA, ix), uk);
        __m256i bak = _mm256_add_epi32(_mm256_permutevar8x32_epi32(XBA, ix), uk);
        __m256i abk = _mm256_add_epi32(_mm256_permutevar8x32_epi32(XAB, ix), uk);
        __m256i bbk = _mm256_add_epi32(_mm256_permutevar8x32_epi32(XBB, ix), uk);
        __m256 u1 = _mm256_sub_ps(u, onef), w1 = _mm256_sub_ps(w, onef);
        __m256 u2 = _mm256_add_ps(u, u), u12 = _mm256_add_ps(u1, u1), w2 = _mm256_add_ps(w, w), w12 = _mm256_add_ps(w1, w1);
        /* aak..bbk <= 510: PG's 512 entries need no mask; each pair lerped when it is there */
        __m256 d000 = gdot8h(_mm256_i32gather_epi32(PG, aak, 4), u2, vv2, w2, g);
        __m256 d100 = gdot8h(_mm256_i32gather_epi32(PG, bak, 4), u12, vv2, w2, g);
        __m256 l00 = lerp8(su, d000, d100);
        __m256 d010 = gdot8h(_mm256_i32gather_epi32(PG, abk, 4), u2, v12, w2, g);
        __m256 d110 = gdot8h(_mm256_i32gather_epi32(PG, bbk, 4), u12, v12, w2, g);
        __m256 b0 = lerp8(sv, l00, lerp8(su, d010, d110));
        __m256 d001 = gdot8h(_mm256_i32gather_epi32(PG, _mm256_add_epi32(aak, one), 4), u2, vv2, w12, g);
        __m256 d101 = gdot8h(_mm256_i32gather_epi32(PG, _mm256_add_epi32(bak, one), 4), u12, vv2, w12, g);
        __m256 l01 = lerp8(su, d001, d101);
        __m256 d011 = gdot8h(_mm256_i32gather_epi32(PG, _mm256_add_epi32(abk, one), 4), u2, v12, w12, g);
        __m256 d111 = gdot8h(_mm256_i32gather_epi32(PG, _mm256_add_epi32(bbk, one), 4), u12, v12, w12, g);
        __m256 b1 = lerp8(sv, l01, lerp8(su, d011, d111));
        __m256 nv = lerp8(sw, b0, b1);
        __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - c), lane); /* the lanes below n */
        __m256 r = _mm256_add_ps(_mm256_maskload_ps(acc + c, m), _mm256_mul_ps(va, nv));
        _mm256_maskstore_ps(acc + c, m, r);
    }
}


/* 16 corners at a time: the permutation table looked up with byte permutes (two 128-entry
 * halves, bit 7 selects) instead of gathers, the gradients with one float permute; the
 * float operations are cf_perlin_lattice's, lane by lane (no FMA: the target has none) */
#define CN_T512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))
CN_T512 static inline __m512i perm16(const __m512i *t, __m512i i)
{
    __m512i lo = _mm512_permutex2var_epi8(t[0], i, t[1]), hi = _mm512_permutex2var_epi8(t[2], i, t[3]);
    return _mm512_and_si512(_mm512_mask_blend_epi8(_mm512_movepi8_mask(i), lo, hi), _mm512_set1_epi32(255));
}
CN_T512 static inline __m512 gdot16(__m512i h, __m512 x, __m512 y, __m512 z, const __m512 *g)
{
    __m512 gx = _mm512_permutexvar_ps(h, g[0]), gy = _mm512_permutexvar_ps(h, g[1]), gz = _mm512_permutexvar_ps(h, g[2]);
    return _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(gx, x), _mm512_mul_ps(gy, y)), _mm512_mul_ps(gz, z));
}
CN_T512 static inline __m512 lerp16(__m512 t, __m512 a, __m512 b)
{
    return _mm512_add_ps(a, _mm512_mul_ps(t, _mm512_sub_ps(b, a)));
}
CN_T512 static inline __m512 smooth16(__m512 t)
{
    __m512 t3 = _mm512_mul_ps(_mm512_mul_ps(t, t), t);
    __m512 in = _mm512_sub_ps(_mm512_mul_ps(t, _mm512_set1_ps(6.0f)), _mm512_set1_ps(15.0f));
    return _mm512_mul_ps(t3, _mm512_add_ps(_mm512_mul_ps(t, in), _mm512_set1_ps(10.0f)));
}
CN_T512 static void row_avx512(const uint8_t *p, int n, const int32_t *ci, const int32_t *ck, const float *cu,
                               const float *cw, int32_t j, float v, float fade, float amp, float *acc)
{
    __m512i t[4];
    for (int k = 0; k < 4; k++) t[k] = _mm512_loadu_si512((const void *)(p + 64 * k));
    __m512 g[3];
    g[0] = _mm512_loadu_ps(cf_grad_x), g[1] = _mm512_loadu_ps(cf_grad_y), g[2] = _mm512_loadu_ps(cf_grad_z);
    __m512i uj = _mm512_set1_epi32(j), one = _mm512_set1_epi32(1);
    __m512 vv = _mm512_set1_ps(v), v1 = _mm512_set1_ps(v - 1.0f), onef = _mm512_set1_ps(1.0f);
    __m512 sv = _mm512_set1_ps(cf_smoothf(fade)), va = _mm512_set1_ps(amp);
    for (int c = 0; c < n; c += 16) {
        __mmask16 m = n - c >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - c)) - 1u);
        __m512i ui = _mm512_maskz_loadu_epi32(m, ci + c), uk = _mm512_maskz_loadu_epi32(m, ck + c);
        __m512 u = _mm512_maskz_loadu_ps(m, cu + c), w = _mm512_maskz_loadu_ps(m, cw + c);
        __m512i a = perm16(t, ui), b = perm16(t, _mm512_add_epi32(ui, one));
        __m512i aj = _mm512_add_epi32(a, uj), bj = _mm512_add_epi32(b, uj);
        __m512i aa = perm16(t, aj), ab = perm16(t, _mm512_add_epi32(aj, one));
        __m512i ba = perm16(t, bj), bb = perm16(t, _mm512_add_epi32(bj, one));
        __m512i aak = _mm512_add_epi32(aa, uk), bak = _mm512_add_epi32(ba, uk);
        __m512i abk = _mm512_add_epi32(ab, uk), bbk = _mm512_add_epi32(bb, uk);
        __m512 u1 = _mm512_sub_ps(u, onef), w1 = _mm512_sub_ps(w, onef);
        __m512 d000 = gdot16(perm16(t, aak), u, vv, w, g);
        __m512 d100 = gdot16(perm16(t, bak), u1, vv, w, g);
        __m512 d010 = gdot16(perm16(t, abk), u, v1, w, g);
        __m512 d110 = gdot16(perm16(t, bbk), u1, v1, w, g);
        __m512 d001 = gdot16(perm16(t, _mm512_add_epi32(aak, one)), u, vv, w1, g);
        __m512 d101 = gdot16(perm16(t, _mm512_add_epi32(bak, one)), u1, vv, w1, g);
        __m512 d011 = gdot16(perm16(t, _mm512_add_epi32(abk, one)), u, v1, w1, g);
        __m512 d111 = gdot16(perm16(t, _mm512_add_epi32(bbk, one)), u1, v1, w1, g);
        __m512 su = smooth16(u), sw = smooth16(w);
        __m512 b0 = lerp16(sv, lerp16(su, d000, d100), lerp16(su, d010, d110));
        __m512 b1 = lerp16(sv, lerp16(su, d001, d101), lerp16(su, d011, d111));
        __m512 nv = lerp16(sw, b0, b1);
        _mm512_mask_storeu_ps(acc + c, m, _mm512_add_ps(_mm512_maskz_loadu_ps(m, acc + c), _mm512_mul_ps(va, nv)));
    }
}
#endif

/* the per-axis part of every layer of stack st for the current region: x and z corners */
static void axes(const cf_world *w, cf_corners *c, cn_stack *st)
{
    CF_TAB t = w->tab;
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * cf_ld_i32(t + cf_ld_i32(t + 4) + 8 * st->stack);
    int32_t xs[64], zs[64];
    float ux[64], uz[64];
    for (int l = 0; l < st->nlayers; l++, ly += CF_LAYER_BYTES) {
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly);
        double f = cf_ld_f64(ly + 8), fxz = st->sxz * f, ox = cf_ld_f64(o), oz = cf_ld_f64(o + 16);
        for (int i = 0; i < c->ncx; i++) {
            double x = (double)(((int64_t)c->cx0 + (int64_t)i * c->stride) * c->w);
            /* cf_stack_point: (x*scale)*f; cf_stack_volume: x*(scale*f) */
            double X = cf_wrap(st->point ? (x * st->sxz) * f : x * fxz) + ox;
            xs[i] = cf_jfloor(X);
            ux[i] = (float)(X - (double)xs[i]);
        }
        for (int k = 0; k < c->ncz; k++) {
            double z = (double)((int64_t)(c->cz0 + k) * c->w);
            double Z = cf_wrap(st->point ? (z * st->sxz) * f : z * fxz) + oz;
            zs[k] = cf_jfloor(Z);
            uz[k] = (float)(Z - (double)zs[k]);
        }
        size_t b = (size_t)l * (size_t)c->ncol;
        for (int k = 0; k < c->ncz; k++)
            for (int i = 0; i < c->ncx; i++) {
                size_t e = b + (size_t)k * (size_t)c->ncx + (size_t)i;
                st->ci[e] = xs[i], st->cu[e] = ux[i], st->ck[e] = zs[k], st->cw[e] = uz[k];
            }
    }
}

/* stack st at corner y over the row's corners (idx: the n corners to compute, or NULL
 * for all of them, n = ncol) into acc[0..n): cf_stack_volume or cf_stack_point */
static void stack_row(const cf_world *w, cf_corners *c, const cn_stack *st, int64_t y, const int *idx, int n, float *acc)
{
    CF_TAB t = w->tab;
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * cf_ld_i32(t + cf_ld_i32(t + 4) + 8 * st->stack);
    for (int e = 0; e < n; e++) acc[e] = 0.0f;
    cn_axes ax;
    memset(&ax, 0, sizeof ax);
    ax.nx = c->ncx, ax.nz = c->ncz, ax.ix = c->cix, ax.iz = c->ciz;
    if (idx && c->isa != CN_ISA_AVX512) { /* the listed corners' x and z corners */
        for (int e = 0; e < n; e++) c->tix[e] = c->cix[idx[e]], c->tiz[e] = c->ciz[idx[e]];
        for (int e = n; e < n + 8; e++) c->tix[e] = c->tiz[e] = 0;
        ax.ix = c->tix, ax.iz = c->tiz;
    }
    for (int l = 0; l < st->nlayers; l++, ly += CF_LAYER_BYTES) {
        int oct = cf_ld_i32(ly);
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * oct;
        float amp = cf_ld_f32(ly + 4);
        double f = cf_ld_f64(ly + 8), q = cf_ld_f64(o + 24);
        int32_t j;
        float v, fade;
        if (!st->point) { /* cf_stack_volume: plain octaves at y*(scale*f) */
            double Y = cf_wrap((double)y * (st->sy * f)) + cf_ld_f64(o + 8);
            j = cf_jfloor(Y);
            v = fade = (float)(Y - (double)j);
        } else {
            double yy = ((double)y * st->sy) * f, Y = cf_wrap(yy) + cf_ld_f64(o + 8);
            j = cf_jfloor(Y);
            if (q > 0.0) { /* cf_smeared */
                double r = Y - (double)j;
                double lim = (yy >= 0.0 && yy < r) ? yy : r;
                double fudge = (double)cf_jfloor(lim / q + 1.0000000116860974e-07) * q;
                v = (float)(r - fudge), fade = (float)r;
            } else { /* cf_perlin */
                v = fade = (float)(Y - (double)j);
            }
        }
        size_t b = (size_t)l * (size_t)c->ncol;
        const int32_t *ci = st->ci + b, *ck = st->ck + b;
        const float *cu = st->cu + b, *cw = st->cw + b;
#ifdef CF_HAVE_AVX2_PATH
        if (c->isa == CN_ISA_AVX512) {
            if (idx) { /* the listed corners, compacted */
                for (int e = 0; e < n; e++) {
                    int k = idx[e];
                    c->ti[e] = ci[k], c->tk[e] = ck[k], c->tu[e] = cu[k], c->tw[e] = cw[k];
                }
                ci = c->ti, ck = c->tk, cu = c->tu, cw = c->tw;
            }
            row_avx512(o + 32, n, ci, ck, cu, cw, j, v, fade, amp, acc);
            continue;
        }
#endif
        /* the layer's x and z corners (row k = 0, column i = 0 of its tables) */
        for (int i = 0; i < c->ncx; i++) ax.xi[i] = ci[i], ax.xu[i] = cu[i];
        for (int k = 0; k < c->ncz; k++) ax.zk[k] = ck[(size_t)k * (size_t)c->ncx], ax.zw[k] = cw[(size_t)k * (size_t)c->ncx];
#ifdef CF_HAVE_AVX2_PATH
        if (c->isa == CN_ISA_AVX2) {
            if (c->ncx <= 8 && c->ncz <= 8)
                row_avx2h(c->perm + 256 * (size_t)c->pmap[oct], c->permg + 512 * (size_t)c->pmap[oct], n, &ax, j, v,
                          fade, amp, acc);
            else /* wider regions than fill.c's (16 blocks: at most 6 corners a row) */
                row_sse2(o + 32, c->gpk + 512 * (size_t)c->pmap[oct], n, &ax, j, v, fade, amp, acc);
            continue;
        }
#endif
#ifdef CF_HAVE_SSE2_PATH
        if (c->isa == CN_ISA_SSE2) {
            row_sse2(o + 32, c->gpk + 512 * (size_t)c->pmap[oct], n, &ax, j, v, fade, amp, acc);
            continue;
        }
#endif
        row_hoisted(o + 32, c->gtab + 3 * 512 * (size_t)c->pmap[oct], n, &ax, j, v, fade, amp, acc);
    }
}

/* row j (corner y = (cy0 + j) * h) of slot q */
static void row(const cf_world *w, cf_corners *c, cn_slot *q, int j)
{
    float *out = q->val + (size_t)j * (size_t)c->ncol;
    int64_t y = (int64_t)(c->cy0 + j) * c->h;
    if (q->kind == CN_NOISE) {
        stack_row(w, c, &q->st[0], y, NULL, c->ncol, out);
        return;
    }
    /* cf_blended: main, then the min limit where the factor is not 1, the max limit where it is not 0 */
    float *a = c->ta;
    stack_row(w, c, &q->st[2], y, NULL, c->ncol, a);
    for (int e = 0; e < c->ncol; e++) a[e] = cf_clampf(a[e] + 0.5f, 0.0f, 1.0f);
    int n = 0;
    for (int e = 0; e < c->ncol; e++)
        if (a[e] != 1.0f) c->idx[n++] = e;
    stack_row(w, c, &q->st[0], y, c->idx, n, c->tacc);
    for (int e = 0; e < n; e++) c->tlo[c->idx[e]] = c->tacc[e];
    n = 0;
    for (int e = 0; e < c->ncol; e++)
        if (a[e] != 0.0f) c->idx[n++] = e;
    stack_row(w, c, &q->st[1], y, c->idx, n, c->tacc);
    for (int e = 0; e < n; e++) c->thi[c->idx[e]] = c->tacc[e];
    for (int e = 0; e < c->ncol; e++)
        out[e] = a[e] == 0.0f ? c->tlo[e] : a[e] == 1.0f ? c->thi[e] : cf_lerpf(a[e], c->tlo[e], c->thi[e]);
}

/* corner row j of slot s, computed on first use in this region (its stacks' axis values
 * first); stamp: the region's (a fill's, or a strided row's own) */
static const float *slot_vals(const cf_world *w, cf_corners *c, uint32_t stamp, int s, int j)
{
    cn_slot *q = &c->slots[s];
    if (q->rowstamp[j] != stamp) {
        if (q->axstamp != stamp) {
            for (int k = 0; k < q->nst; k++) axes(w, c, &q->st[k]);
            q->axstamp = stamp;
        }
        row(w, c, q, j);
        q->rowstamp[j] = stamp;
    }
    return q->val + (size_t)j * (size_t)c->ncol;
}

/* the same for f's corners; a lone column shared with a strided row (corners_share) takes
 * its value from that row, where its neighbours' values are computed in the same lanes */
static const float *slot_row(cf_fill *f, cf_corners *c, int s, int j)
{
    if (!c->src) return slot_vals(f->w, c, f->stamp, s, j);
    cn_slot *q = &c->slots[s];
    if (q->rowstamp[j] != f->stamp) {
        q->val[j] = slot_vals(f->w, c->src, c->src->own, s, j)[c->src_i];
        q->rowstamp[j] = f->stamp;
    }
    return q->val + j;
}

int corners_noise(cf_fill *f, int id, int32_t x, int32_t y, int32_t z, float *out)
{
    cf_corners *c = f->corners;
    int s = c->slot[id];
    if (s < 0) return 0;
    int64_t dx = (int64_t)x - (int64_t)c->cx0 * c->w, dy = (int64_t)y - (int64_t)c->cy0 * c->h,
            dz = (int64_t)z - (int64_t)c->cz0 * c->w;
    if (dx < 0 || dy < 0 || dz < 0 || dx % c->w || dy % c->h || dz % c->w) return 0;
    int64_t i = dx / c->w, j = dy / c->h, k = dz / c->w;
    if (i >= c->ncx || j >= c->ncy || j >= c->maxy || k >= c->ncz) return 0;
    *out = slot_row(f, c, s, (int)j)[(size_t)k * (size_t)c->ncx + (size_t)i];
    return 1;
}

const float *corners_row(cf_fill *f, int id, int32_t y, int32_t w, int32_t cx0, int32_t cz0, int ncx, int ncz)
{
    cf_corners *c = f->corners;
    int s = c->slot[id];
    if (s < 0 || w != c->w || cx0 != c->cx0 || cz0 != c->cz0 || ncx > c->ncx || ncz > c->ncz) return NULL;
    int64_t dy = (int64_t)y - (int64_t)c->cy0 * c->h;
    if (dy < 0 || dy % c->h) return NULL;
    int64_t j = dy / c->h;
    if (j >= c->ncy || j >= c->maxy) return NULL;
    return slot_row(f, c, s, (int)j);
}

int corners_ncx(const cf_corners *c) { return c->ncx; }

const float *corners_lane_row(const cf_world *w, cf_corners *c, int id, int32_t y)
{
    int s = c->slot[id];
    int64_t dy = (int64_t)y - (int64_t)c->cy0 * c->h;
    if (s < 0 || c->stride < 1 || c->ncz != 1 || dy < 0 || dy % c->h) return NULL;
    int64_t j = dy / c->h;
    if (j >= c->ncy || j >= c->maxy) return NULL;
    return slot_vals(w, c, c->own, s, (int)j);
}

long corners_check(const cf_world *w, int32_t cx, int32_t cz, long *n)
{
    long bad = 0;
    *n = 0;
    const cf_program *p = w->prog;
    int isa = 0;
    for (int pass = 0; isa >= 0; pass++, isa--) {
        cf_fill f;
        memset(&f, 0, sizeof f);
        f.w = w, f.stamp = 1;
        f.corners = corners_new(w, 16, p->height, 16);
        if (!f.corners) return -1;
        /* every path this CPU has, from the best down to the portable one */
        if (pass == 0) isa = f.corners->isa;
        f.corners->isa = isa;
        if (tables(f.corners) != 0) {
            corners_free(f.corners);
            return -1;
        }
        corners_region(f.corners, cx * 16, p->min_y, cz * 16, 16, p->height, 16);
        cf_corners *c = f.corners;
        for (int s = 0; s < c->nslots; s++) {
            const cn_slot *q = &c->slots[s];
            for (int j = 0; j < c->ncy; j++)
                for (int k = 0; k < c->ncz; k++)
                    for (int i = 0; i < c->ncx; i++) {
                        int32_t x = (c->cx0 + i) * c->w, y = (c->cy0 + j) * c->h, z = (c->cz0 + k) * c->w;
                        const cf_node *nd = &p->nodes[q->node];
                        float v = 0.0f,
                              r = q->kind == CN_NOISE ? cf_stack_volume(w->tab, q->st[0].stack, x, y, z, nd->d[0], nd->d[1])
                                                      : cf_blended(w->tab, q->st[0].stack, nd->d[0], nd->d[1], nd->d[2], nd->d[3], x, y, z);
                        if (!corners_noise(&f, q->node, x, y, z, &v) || memcmp(&v, &r, sizeof v) != 0) bad++;
                        (*n)++;
                    }
        }
        corners_free(f.corners);
    }
    return bad;
}
