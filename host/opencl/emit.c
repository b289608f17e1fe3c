/* emit.c - OpenCL C generation from the fill plan (the device backend's front half).
 *
 * Input: a compiled program, the output to fill, and the table layout of a
 * seed binding (stack and octave indices do not depend on the seed). Output: one
 * OpenCL C source (malloc'd), independent of the seed, holding
 *   - kernels/cf_math.h and kernels/cf_nodes.h (the leaf math the CPU uses too),
 *   - one function per (node, path) that needs one: `interpolated`, slices,
 *     find_top_surface and whatever they reach, as straight-line code,
 *   - k_columns: every memoized 2-D node once per column of a chunk that a body reads
 *     (a 17 x 17 buffer; 26.3 launches only the corner columns when that is all),
 *   - k_axes: the corner stage's per-axis tables: for each octave a corner body reads
 *     (unshifted noises, old_blended_noise), the double half of the octave (scale, wrap,
 *     offset, floor, fraction, smear fudge) once per x and z value of a chunk's corner
 *     lattice and once per batch for its y values,
 *   - k_corners_<n>: the input of interpolated node n at each cell corner (its octaves:
 *     integer hashing and float lerps over the axis tables, cf_stack_axes); small ones
 *     share a kernel; with many noise sites, in the GPU form (CF_GPU) k_stacks_<n> first
 *     writes each stack's value at every corner and the body reads them,
 *   - k_blocks: one work item per block column walks y upward, interpolating
 *     like vanilla (z, x, then a float step per y) and evaluating the nodes above.
 * Every node's code is preceded by a comment naming its source (file#pointer).
 * Straight-line bodies compute each node once, eagerly (both sides of a choice:
 * the values are the same, as nodes are pure).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "opencl/emit.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"
#include "kernels/cf_iris.h"

/* ------------------------------------------------------------------ text */
typedef struct sb {
    char *s;
    size_t len, cap;
    int oom;
    char m21; /* the 1.21 generator: the mode suffix of source calls (p, c, b) */
} sb;

static void sbf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbf(sb *b, const char *fmt, ...)
{
    if (b->oom) return;
    if (!b->s) { /* a first buffer, so that s + len is never arithmetic on NULL */
        if (!(b->s = malloc(b->cap = 4096))) {
            b->oom = 1;
            return;
        }
        b->s[0] = 0;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

/* an exact float literal */
static void flit(sb *b, float f)
{
    if (isinf(f)) sbf(b, f > 0 ? "INFINITY" : "(-INFINITY)");
    else if (f != f) sbf(b, "NAN");
    else sbf(b, "(%af)", (double)f);
}
static void dlit(sb *b, double d) { sbf(b, "(%a)", d); }

/* a comment naming the node's source; the pointer may hold any text: keep it out of the comment syntax */
static void src_text(sb *b, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_.-/:~<>", c);
        if (c == '*' || !ok) c = '?';
        sbf(b, "%c", c);
    }
}
static void src_comment(sb *b, const cf_node *n, const char *indent)
{
    sbf(b, "%s/* ", indent);
    src_text(b, n->loc.file);
    sbf(b, "#");
    char ptr[400];
    src_text(b, ptr_text(n->loc.ptr, ptr, sizeof ptr));
    sbf(b, " */\n");
}

/* ------------------------------------------------------------------ context */
enum { FN_NONE = 0, FN_WANTED = 1, FN_DONE = 2 };

typedef struct gen {
    const cf_program *p;
    const cf_world *w;
    sb out;   /* functions and kernels */
    sb protos;
    uint8_t *fn[3]; /* [mode] per node: a function f<mode>_<node> is wanted/emitted */
    int *work, nwork;
    uint8_t *mark;  /* scratch: nodes of the body being emitted */
    /* the corner stage's axis tables (k_axes): per node, the first table layer of each of
     * its stacks (a noise: 1, old_blended_noise: 3), or -1 */
    int (*axl0)[3];
    int axon;                /* emitting a corner kernel body that reads the tables (axc, i, j, kk); */
    int *site;               /* with axon == 2: node -> its first stack value in sv (CF_SV), -1: none */
                             /* 2: one with many noise sites (cf_stack_axes_call) */
    int axR, axzoff, axRY;   /* ints per table layer of a chunk (x, z records), offset of the z records in
                              * one; ints per layer of the batch's y records */
    int naxy;                /* ints of the batch's y records, at the front of ax */
} gen;

static const char mode_ch[3] = {'S', 'P', 'V'};

static int is_special(const cf_node *n)
{
    return n->kind == NK_INTERPOLATED || n->kind == NK_FIND_TOP_SURFACE || n->kind == NK_SLICE;
}
static int is_lit(const gen *g, int id) { return (g->p->nodes[id].flags & NF_LITERAL) != 0; }

static void want(gen *g, int mode, int id)
{
    if (g->fn[mode][id] == FN_NONE) {
        g->fn[mode][id] = FN_WANTED;
        g->work[g->nwork++] = mode * g->p->nnodes + id;
        sbf(&g->protos, "static float f%c_%d(CF_TAB t, int x, int y, int z, int hv, int vmin);\n", mode_ch[mode], id);
    }
}

/* A spline as a chain of comparisons: the first point k with c < loc_k picks the segment
 * k-1 (before the first point and from the last one on: the extensions; a NaN c compares
 * false everywhere and takes the last extension), which is what cf_spline_index's binary
 * search finds when the locations are sorted. Literal locations and derivatives, no table,
 * no array of point values (a private array indexed per lane lives in scratch memory). */
static int spline_chain(const cf_node *n)
{
    int np = n->nfa / 2;
    if (np < 1) return 0;
    for (int k = 0; k < np; k++)
        if (isnan(n->fa[2 * k]) || (k && !(n->fa[2 * k - 2] <= n->fa[2 * k]))) return 0;
    return 1;
}

/* the extension at point k, or the segment from point k - 1 to k; values v<a>, v<b> */
static void spline_piece(sb *b, const cf_node *n, int k, int segment)
{
    const float *f = n->fa;
    if (!segment) {
        sbf(b, "cf_spline_extend(v%d, ", n->in[0]), flit(b, f[2 * k]), sbf(b, ", v%d, ", n->in[1 + k]);
        flit(b, f[2 * k + 1]), sbf(b, ")");
        return;
    }
    sbf(b, "cf_spline_segment(v%d, ", n->in[0]), flit(b, f[2 * k - 2]), sbf(b, ", "), flit(b, f[2 * k]);
    sbf(b, ", v%d, v%d, ", n->in[k], n->in[1 + k]), flit(b, f[2 * k - 1]), sbf(b, ", "), flit(b, f[2 * k + 1]), sbf(b, ")");
}

/* the value expression of node n in `mode`, children as v<child> */
static void expr(gen *g, sb *b, int mode, int id)
{
    const cf_program *p = g->p;
    const cf_node *n = &p->nodes[id];
    int *in = n->in;
#define V(k) sbf(b, "v%d", in[k])
    switch (n->kind) {
    case NK_CONSTANT: case NK_BLEND_ALPHA: case NK_BLEND_OFFSET: case NK_BEARDIFIER: flit(b, n->f[0]); break;
    case NK_ADD: sbf(b, "v%d + v%d", in[0], in[1]); break;
    case NK_SUB: sbf(b, "v%d - v%d", in[0], in[1]); break;
    case NK_MUL:
        if (mode != MODE_VOLUME && !is_lit(g, in[0]) && !is_lit(g, in[1]))
            sbf(b, "v%d == 0.0f ? 0.0f : v%d * v%d", in[0], in[0], in[1]);
        else sbf(b, "v%d * v%d", in[0], in[1]);
        break;
    case NK_DIV:
        if (is_lit(g, in[1])) {
            sbf(b, "v%d * ", in[0]);
            flit(b, 1.0f / p->nodes[in[1]].f[0]);
        } else if (mode != MODE_VOLUME && !is_lit(g, in[0])) {
            sbf(b, "v%d == 0.0f ? 0.0f : v%d / v%d", in[0], in[0], in[1]);
        } else {
            sbf(b, "v%d / v%d", in[0], in[1]);
        }
        break;
    case NK_MIN:
        if (mode == MODE_VOLUME) sbf(b, "v%d < v%d ? v%d : v%d", in[1], in[0], in[1], in[0]);
        else sbf(b, "cf_jminf(v%d, v%d)", in[0], in[1]);
        break;
    case NK_MAX:
        if (mode == MODE_VOLUME) sbf(b, "v%d > v%d ? v%d : v%d", in[1], in[0], in[1], in[0]);
        else sbf(b, "cf_jmaxf(v%d, v%d)", in[0], in[1]);
        break;
    case NK_ABS: sbf(b, "cf_fabsf("), V(0), sbf(b, ")"); break;
    case NK_NEGATE: sbf(b, "-"), V(0); break;
    case NK_SQUARE: sbf(b, "v%d * v%d", in[0], in[0]); break;
    case NK_CUBE: sbf(b, "(v%d * v%d) * v%d", in[0], in[0], in[0]); break;
    case NK_SQRT: sbf(b, "(float)cf_sqrt((double)v%d)", in[0]); break;
    case NK_RECIPROCAL: sbf(b, "1.0f / v%d", in[0]); break;
    case NK_LOG: sbf(b, "(float)cf_log((double)v%d)", in[0]); break;
    case NK_SIGN: sbf(b, "cf_signumf(v%d)", in[0]); break;
    case NK_HALF_NEGATIVE: sbf(b, "v%d > 0.0f ? v%d : v%d * 0.5f", in[0], in[0], in[0]); break;
    case NK_QUARTER_NEGATIVE: sbf(b, "v%d > 0.0f ? v%d : v%d * 0.25f", in[0], in[0], in[0]); break;
    case NK_SQUEEZE: sbf(b, "cf_squeeze(v%d)", in[0]); break;
    case NK_CLAMP:
        sbf(b, "cf_clampf(v%d, ", in[0]), flit(b, n->f[0]), sbf(b, ", "), flit(b, n->f[1]), sbf(b, ")");
        break;
    case NK_FLOOR: case NK_ROUND: case NK_CEIL: case NK_TRUNCATE: {
        int k = n->kind == NK_FLOOR ? 0 : n->kind == NK_ROUND ? 1 : n->kind == NK_CEIL ? 2 : 3;
        int one = is_lit(g, in[1]) && p->nodes[in[1]].f[0] == 1.0f;
        sbf(b, "cf_rounding(%d, v%d, v%d, %d)", k, in[0], in[1], one);
        break;
    }
    case NK_POW: sbf(b, "cf_pow_node(v%d, v%d, %d)", in[0], in[1], is_lit(g, in[1])); break;
    case NK_RANGE_CHOICE:
        sbf(b, "(v%d >= ", in[0]), flit(b, n->f[0]), sbf(b, " && v%d < ", in[0]), flit(b, n->f[1]);
        sbf(b, ") ? v%d : v%d", in[1], in[2]);
        break;
    case NK_INTERVAL_SELECT:
        for (int i = 0; i < n->nfa; i++) sbf(b, "v%d < ", in[0]), flit(b, n->fa[i]), sbf(b, " ? v%d : ", in[1 + i]);
        sbf(b, "v%d", in[n->nin - 1]);
        break;
    case NK_LERP:
        sbf(b, "v%d == 0.0f ? v%d : v%d == 1.0f ? v%d : cf_lerpf(v%d, v%d, v%d)", in[0], in[1], in[0], in[2], in[0],
            in[1], in[2]);
        break;
    case NK_GRADIENT: {
        const char *c = n->i[0] == 0 ? "x" : n->i[0] == 1 ? "y" : "z";
        sbf(b, "cf_gradient((long)%s, %dL, %dL, ", c, n->i[1], n->i[2]);
        flit(b, n->f[0]), sbf(b, ", "), flit(b, n->f[1]), sbf(b, ", %d)", n->i[3]);
        break;
    }
    case NK_DISTANCE_TO_POINT: sbf(b, "cf_distance(%d, %d, %d, x, y, z, %d)", n->i[0], n->i[1], n->i[2], n->i[3]); break;
    case NK_SPLINE: {
        int np = n->nfa / 2;
        if (spline_chain(n)) {
            for (int k = 0; k < np; k++) {
                sbf(b, "v%d < ", in[0]), flit(b, n->fa[2 * k]), sbf(b, " ? ");
                spline_piece(b, n, k, k > 0);
                sbf(b, " : ");
            }
            spline_piece(b, n, np - 1, 0);
            break;
        }
        sbf(b, "cf_spline_value(spl%d, %d, v%d, si%d, sv%d[si%d < 0 ? 0 : si%d], sv%d[si%d >= 0 && si%d < %d ? si%d + 1 : 0])",
            id, np, in[0], id, id, id, id, id, id, id, np - 1, id);
        break;
    }
    case NK_NOISE: {
        int s = g->w->noise_stack[n->noise];
        if (mode == MODE_VOLUME && g->axon && g->axl0[id][0] >= 0) {
            if (g->axon == 2 && g->site[id] >= 0) sbf(b, "CF_SV(%d, ", g->site[id]);
            sbf(b, "cf_stack_axes%s(t, %d, axc + %d, %d, %d, ax + %d, %d, i, j, kk)", g->axon == 2 ? "_call" : "", s,
                g->axl0[id][0] * g->axR, g->axR, g->axzoff, g->axl0[id][0] * g->axRY, g->axRY);
            if (g->axon == 2 && g->site[id] >= 0) sbf(b, ")");
            break;
        }
        int zx = is_lit(g, in[0]) && p->nodes[in[0]].f[0] == 0.0f && !signbit(p->nodes[in[0]].f[0]);
        int zy = is_lit(g, in[1]) && p->nodes[in[1]].f[0] == 0.0f && !signbit(p->nodes[in[1]].f[0]);
        int zz = is_lit(g, in[2]) && p->nodes[in[2]].f[0] == 0.0f && !signbit(p->nodes[in[2]].f[0]);
        if (zx && zy && zz) {
            if (mode == MODE_VOLUME) {
                sbf(b, "cf_stack_volume(t, %d, x, y, z, ", s), dlit(b, n->d[0]), sbf(b, ", "), dlit(b, n->d[1]), sbf(b, ")");
            } else {
                sbf(b, "cf_stack_point(t, %d, (double)x * ", s), dlit(b, n->d[0]), sbf(b, ", (double)y * "), dlit(b, n->d[1]);
                sbf(b, ", (double)z * "), dlit(b, n->d[0]), sbf(b, ")");
            }
        } else {
            sbf(b, "cf_stack_point(t, %d, (double)x * ", s), dlit(b, n->d[0]), sbf(b, " + (double)v%d, (double)y * ", in[0]);
            dlit(b, n->d[1]);
            if (!zy) sbf(b, " + (double)v%d", in[1]);
            sbf(b, ", (double)z * "), dlit(b, n->d[0]), sbf(b, " + (double)v%d)", in[2]);
        }
        break;
    }
    case NK_SHIFT_A: sbf(b, "cf_stack_point(t, %d, (double)x * 0.25, 0.0, (double)z * 0.25) * 4.0f", g->w->noise_stack[n->noise]); break;
    case NK_SHIFT_B: sbf(b, "cf_stack_point(t, %d, (double)z * 0.25, (double)x * 0.25, 0.0) * 4.0f", g->w->noise_stack[n->noise]); break;
    case NK_SHIFT:
        sbf(b, "cf_stack_point(t, %d, (double)x * 0.25, (double)y * 0.25, (double)z * 0.25) * 4.0f", g->w->noise_stack[n->noise]);
        break;
    case NK_OLD_BLENDED_NOISE:
        if (g->axon && g->axl0[id][0] >= 0) {
            /* sites: min limit, max limit, main (axis_tables' order); cf_blended_vals(main, lo, hi) */
            if (g->axon == 2 && g->site[id] >= 0) sbf(b, "CF_SVB(%d, %d, %d, ", g->site[id] + 2, g->site[id], g->site[id] + 1);
            sbf(b, "cf_blended_axes(t, %d, axc + %d, axc + %d, axc + %d, %d, %d, ax + %d, ax + %d, ax + %d, %d, i, j, kk)",
                g->w->node_stack[id], g->axl0[id][0] * g->axR, g->axl0[id][1] * g->axR, g->axl0[id][2] * g->axR, g->axR, g->axzoff,
                g->axl0[id][0] * g->axRY, g->axl0[id][1] * g->axRY, g->axl0[id][2] * g->axRY, g->axRY);
            if (g->axon == 2 && g->site[id] >= 0) sbf(b, ")");
            break;
        }
        sbf(b, "cf_blended(t, %d, ", g->w->node_stack[id]);
        for (int k = 0; k < 4; k++) dlit(b, n->d[k]), sbf(b, ", ");
        sbf(b, "x, y, z)");
        break;
    case NK_END_OUTER_ISLANDS: sbf(b, "cf_end_islands(t, %d, x, z)", g->w->islands); break;
    case NK_CACHE: case NK_BLEND_DENSITY: V(0); break;
    case NK_INTERPOLATED: case NK_FIND_TOP_SURFACE: case NK_SLICE:
        want(g, mode, id);
        sbf(b, "f%c_%d(t, x, y, z, hv, vmin)", mode_ch[mode], id);
        break;
    }
#undef V
}

/* marks the nodes a straight-line body of root needs: stops at ext nodes and at
 * special nodes (whose children their functions evaluate) */
static void mark_body(gen *g, int root, const uint8_t *ext)
{
    const cf_program *p = g->p;
    memset(g->mark, 0, (size_t)p->nnodes);
    g->mark[root] = 1;
    for (int i = root; i >= 0; i--) {
        if (!g->mark[i] || (ext && ext[i])) continue;
        const cf_node *n = &p->nodes[i];
        if (is_special(n)) continue;
        for (int k = 0; k < n->nin; k++) g->mark[n->in[k]] = 1;
    }
}

/* Lazy straight-line code: a node is emitted where it is first needed, inside the
 * branch of a choice (range_choice, interval_select, lerp with alpha 0 or 1, the
 * point path's mul by 0) that needs it, as vanilla evaluates it; a value already
 * defined in an enclosing block is reused. */
typedef struct lazy {
    gen *g;
    sb *b;
    int mode;
    const uint8_t *ext;
    int depth;
    int *defd;  /* per node: block depth where v<N> is defined, or -1 */
    int *stack; /* defined nodes, innermost last */
    int nstack;
} lazy;

static void ind(lazy *L)
{
    for (int i = 0; i < L->depth; i++) sbf(L->b, "    ");
}
static void define(lazy *L, int id)
{
    L->defd[id] = L->depth;
    L->stack[L->nstack++] = id;
}
static void open_block(lazy *L) { L->depth++; }
static void close_block(lazy *L)
{
    while (L->nstack > 0 && L->defd[L->stack[L->nstack - 1]] == L->depth) L->defd[L->stack[--L->nstack]] = -1;
    L->depth--;
}

static void lazy_node(lazy *L, int id)
{
    gen *g = L->g;
    const cf_program *p = g->p;
    if ((L->ext && L->ext[id]) || L->defd[id] >= 0) return;
    const cf_node *n = &p->nodes[id];
    sb *b = L->b;
    int *in = n->in;
    int branch = 0;
    if (n->kind == NK_RANGE_CHOICE) {
        lazy_node(L, in[0]);
        ind(L), src_comment(b, n, "");
        ind(L), sbf(b, "float v%d;\n", id);
        ind(L), sbf(b, "if (v%d >= ", in[0]), flit(b, n->f[0]), sbf(b, " && v%d < ", in[0]), flit(b, n->f[1]), sbf(b, ") {\n");
        open_block(L), lazy_node(L, in[1]), ind(L), sbf(b, "v%d = v%d;\n", id, in[1]), close_block(L);
        ind(L), sbf(b, "} else {\n");
        open_block(L), lazy_node(L, in[2]), ind(L), sbf(b, "v%d = v%d;\n", id, in[2]), close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    } else if (n->kind == NK_INTERVAL_SELECT) {
        lazy_node(L, in[0]);
        ind(L), src_comment(b, n, "");
        ind(L), sbf(b, "float v%d;\n", id);
        for (int i = 0; i < n->nfa; i++) {
            ind(L), sbf(b, "%sif (v%d < ", i ? "} else " : "", in[0]), flit(b, n->fa[i]), sbf(b, ") {\n");
            open_block(L), lazy_node(L, in[1 + i]), ind(L), sbf(b, "v%d = v%d;\n", id, in[1 + i]), close_block(L);
        }
        ind(L), sbf(b, "%s\n", n->nfa ? "} else {" : "{");
        open_block(L), lazy_node(L, in[n->nin - 1]), ind(L), sbf(b, "v%d = v%d;\n", id, in[n->nin - 1]), close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    } else if (n->kind == NK_LERP) {
        lazy_node(L, in[0]);
        ind(L), src_comment(b, n, "");
        ind(L), sbf(b, "float v%d;\n", id);
        ind(L), sbf(b, "if (v%d == 0.0f) {\n", in[0]);
        open_block(L), lazy_node(L, in[1]), ind(L), sbf(b, "v%d = v%d;\n", id, in[1]), close_block(L);
        ind(L), sbf(b, "} else if (v%d == 1.0f) {\n", in[0]);
        open_block(L), lazy_node(L, in[2]), ind(L), sbf(b, "v%d = v%d;\n", id, in[2]), close_block(L);
        ind(L), sbf(b, "} else {\n");
        open_block(L), lazy_node(L, in[1]), lazy_node(L, in[2]);
        ind(L), sbf(b, "v%d = cf_lerpf(v%d, v%d, v%d);\n", id, in[0], in[1], in[2]), close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    } else if (n->kind == NK_SPLINE && spline_chain(n)) {
        /* the chain of spline_chain, each piece's point values computed in its branch */
        int np = n->nfa / 2;
        lazy_node(L, in[0]);
        ind(L), src_comment(b, n, "");
        ind(L), sbf(b, "float v%d;\n", id);
        for (int k = 0; k < np; k++) {
            ind(L), sbf(b, "%sif (v%d < ", k ? "} else " : "", in[0]), flit(b, n->fa[2 * k]), sbf(b, ") {\n");
            open_block(L);
            if (k) lazy_node(L, in[k]);
            lazy_node(L, in[1 + k]);
            ind(L), sbf(b, "v%d = ", id), spline_piece(b, n, k, k > 0), sbf(b, ";\n");
            close_block(L);
        }
        ind(L), sbf(b, "} else {\n");
        open_block(L), lazy_node(L, in[np]);
        ind(L), sbf(b, "v%d = ", id), spline_piece(b, n, np - 1, 0), sbf(b, ";\n");
        close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    } else if (n->kind == NK_MUL && L->mode != MODE_VOLUME && !is_lit(g, in[0]) && !is_lit(g, in[1])) {
        lazy_node(L, in[0]);
        ind(L), src_comment(b, n, "");
        ind(L), sbf(b, "float v%d = 0.0f;\n", id);
        ind(L), sbf(b, "if (v%d != 0.0f) {\n", in[0]);
        open_block(L), lazy_node(L, in[1]), ind(L), sbf(b, "v%d = v%d * v%d;\n", id, in[0], in[1]), close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    }
    if (branch) {
        define(L, id);
        return;
    }
    if (!is_special(n))
        for (int k = 0; k < n->nin; k++) lazy_node(L, in[k]);
    ind(L), src_comment(b, n, "");
    if (n->kind == NK_SPLINE && !spline_chain(n)) {
        int np = n->nfa / 2;
        ind(L), sbf(b, "int si%d = cf_spline_index(spl%d, %d, v%d);\n", id, id, np, in[0]);
        ind(L), sbf(b, "float sv%d[%d] = {", id, np);
        for (int k = 0; k < np; k++) sbf(b, "%sv%d", k ? ", " : "", in[1 + k]);
        sbf(b, "};\n");
    }
    ind(L), sbf(b, "float v%d = ", id);
    expr(g, b, L->mode, id);
    sbf(b, ";\n");
    define(L, id);
}

/* emits the code defining v<root> (and what it needs) at indentation depth `depth`;
 * ext nodes are assumed defined */
static void body(gen *g, sb *b, int mode, int root, const uint8_t *ext, int depth)
{
    const cf_program *p = g->p;
    lazy L = {g, b, mode, ext, depth, NULL, NULL, 0};
    L.defd = malloc(sizeof(int) * (size_t)p->nnodes);
    L.stack = malloc(sizeof(int) * (size_t)p->nnodes);
    if (!L.defd || !L.stack) {
        free(L.defd), free(L.stack);
        b->oom = 1;
        return;
    }
    for (int i = 0; i < p->nnodes; i++) L.defd[i] = -1;
    lazy_node(&L, root);
    free(L.defd), free(L.stack);
}

/* the function f<mode>_<id>: straight-line for ordinary nodes; the special kinds' own logic */
static void function(gen *g, int mode, int id)
{
    const cf_program *p = g->p;
    const cf_node *n = &p->nodes[id];
    sb *b = &g->out;
    sbf(b, "\nstatic float f%c_%d(CF_TAB t, int x, int y, int z, int hv, int vmin)\n{\n", mode_ch[mode], id);
    sbf(b, "    (void)x; (void)y; (void)z; (void)hv; (void)vmin;\n");
    src_comment(b, n, "    ");
    if (n->kind == NK_SLICE) {
        int c = n->in[0];
        want(g, mode, c);
        const char *xs = n->i[0] == 0 ? "%d, y, z" : n->i[0] == 1 ? "x, %d, z" : "x, y, %d";
        char args[64];
        snprintf(args, sizeof args, xs, n->i[1]);
        /* the child's function evaluates its own subgraph */
        sbf(b, "    return f%c_%d(t, %s, hv, vmin);\n}\n", mode_ch[mode], c, args);
        return;
    }
    if (n->kind == NK_FIND_TOP_SURFACE) {
        int probe = mode == MODE_VOLUME ? MODE_POINT : mode;
        want(g, mode, n->in[1]);
        want(g, probe, n->in[0]);
        sbf(b, "    float u = f%c_%d(t, x, 0, z, hv, vmin);\n", mode_ch[mode], n->in[1]);
        sbf(b, "    int ch = %d, lower = %d;\n", n->i[1], n->i[0]);
        sbf(b, "    int top = (int)((uint)cf_jfloor((double)(u / (float)ch)) * (uint)ch);\n");
        sbf(b, "    if (top <= lower) return (float)lower;\n");
        sbf(b, "    for (long yy = top; yy >= lower; yy -= ch)\n");
        sbf(b, "        if (f%c_%d(t, x, (int)yy, z, hv, vmin) > 0.0f) return (float)yy;\n", mode_ch[probe], n->in[0]);
        sbf(b, "    return (float)lower;\n}\n");
        return;
    }
    if (n->kind == NK_INTERPOLATED) {
        int c = n->in[0], w = n->i[0], h = n->i[1];
        want(g, MODE_VOLUME, c);
        sbf(b, "    int w = %d, h = %d;\n", w, h);
        sbf(b, "    int ix = (int)cf_floormod(x, w), iy = (int)cf_floormod(y, h), iz = (int)cf_floormod(z, w);\n");
        if (mode == MODE_POINT) {
            want(g, MODE_POINT, c);
            sbf(b, "    if (ix == 0 && iy == 0 && iz == 0) return fP_%d(t, x, y, z, hv, vmin);\n", c);
        }
        sbf(b, "    int x0 = x - ix, y0 = y - iy, z0 = z - iz;\n");
        sbf(b, "    int cv = (int)cf_floordiv(hv ? vmin : y, h) * h;\n");
        static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
        static const char *names[8] = {"v000", "v100", "v010", "v110", "v001", "v101", "v011", "v111"};
        for (int k = 0; k < 8; k++)
            sbf(b, "    float %s = fV_%d(t, x0 + %d, y0 + %d, z0 + %d, 1, cv);\n", names[k], c, d[k][0] * w, d[k][1] * h,
                d[k][2] * w);
        if (mode == MODE_VOLUME) {
            sbf(b, "    float inv = 1.0f / (float)w, invy = 1.0f / (float)h;\n");
            sbf(b, "    float az = (float)iz * inv, ax = (float)ix * inv;\n");
            sbf(b, "    float v00 = cf_lerpf(az, v000, v001), v01 = cf_lerpf(az, v010, v011);\n");
            sbf(b, "    float v10 = cf_lerpf(az, v100, v101), v11 = cf_lerpf(az, v110, v111);\n");
            sbf(b, "    float a = cf_lerpf(ax, v00, v10), b = cf_lerpf(ax, v01, v11);\n");
            sbf(b, "    float step = (b - a) * invy;\n");
            sbf(b, "    int start = 0;\n");
            sbf(b, "    if (hv) { long s0 = (long)vmin - y0; start = s0 < 0 ? 0 : s0 > iy ? iy : (int)s0; }\n");
            sbf(b, "    float v = a + step * (float)start;\n");
            sbf(b, "    for (int k = start; k < iy; k++) v = v + step;\n");
            sbf(b, "    return v;\n}\n");
        } else {
            sbf(b, "    return cf_lerp3f((float)ix / (float)w, (float)iy / (float)h, (float)iz / (float)w, v000, v100, v010,"
                   " v110, v001, v101, v011, v111);\n}\n");
        }
        return;
    }
    body(g, b, mode, id, NULL, 1);
    sbf(b, "    return v%d;\n}\n", id);
}

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

static void octave_args(sb *b, const cf_node *n, int pers)
{
    sbf(b, "x, y, z, "), D(0), sbf(b, ", "), D(1);
    if (pers) sbf(b, ", "), D(2);
    sbf(b, ", %d, cf_ln_seed(ws, %d), %d", n->i[0], n->i[1], n->i[2]);
    if (pers) sbf(b, ")");
    else sbf(b, ", %d)", n->i[5]); /* RidgedMulti: its SharpNoise flag */
}
EMIT64(LN_PERLIN) { sbf(b, "cf_ln_fbm(%d, ", n->i[5] ? 2 : 0), octave_args(b, n, 1); }
EMIT64(LN_BILLOW) { sbf(b, "cf_ln_fbm(%d, ", n->i[5] ? 3 : 1), octave_args(b, n, 1); }
EMIT64(LN_RIDGED) { sbf(b, "cf_ln_ridged("), octave_args(b, n, 0); }
EMIT64(LN_VORONOI)
{
    sbf(b, "cf_ln_voronoi(x, y, z, "), D(0), sbf(b, ", "), D(1);
    sbf(b, ", %d, cf_ln_seed(ws, %d), 0)", n->i[0], n->i[1]);
}
EMIT64(LN_CONST) { D(0); }
EMIT64(LN_CHECKERBOARD) { sbf(b, "cf_ln_checkerboard(x, y, z, %d)", n->i[5]); }
EMIT64(LN_CYLINDERS) { sbf(b, "cf_ln_cylinders(x, z, "), D(0), sbf(b, ")"); }
EMIT64(LN_SPHERES) { sbf(b, "cf_ln_spheres(x, y, z, "), D(0), sbf(b, ")"); }
EMIT64(LN_ABS) { sbf(b, "fabs("), SRC(0), sbf(b, ")"); }
EMIT64(LN_CLAMP)
{
    sbf(b, "cf_ln_clamp("), SRC(0), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ")");
}
EMIT64(LN_CURVE) { sbf(b, "cf_ln_curve("), SRC(0), sbf(b, ", lnp%d, %d)", id, n->nda / 2); }
EMIT64(LN_EXPONENT) { sbf(b, "cf_ln_exponent("), SRC(0), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(LN_INVERT) { sbf(b, "-"), SRC(0); }
EMIT64(LN_SCALEBIAS) { SRC(0), sbf(b, " * "), D(0), sbf(b, " + "), D(1); }
EMIT64(LN_TERRACE) { sbf(b, "cf_ln_terrace("), SRC(0), sbf(b, ", lnp%d, %d, %d)", id, n->nda, n->i[0]); }
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
EMIT64(LN_SCALEPOINT)
{
    sbf(b, "n%d(t, ws, x * ", n->in[0]), D(0), sbf(b, ", y * "), D(1), sbf(b, ", z * "), D(2), sbf(b, ")");
}
EMIT64(LN_TRANSLATEPOINT)
{
    sbf(b, "n%d(t, ws, x + ", n->in[0]), D(0), sbf(b, ", y + "), D(1), sbf(b, ", z + "), D(2), sbf(b, ")");
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
EMIT64(LN_CACHE) { SRC(0); }
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
EMIT64(IRIS_CONST) { D(0); }
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
        sbf(b, "    int xi = cf_ir_d2i(x), zi = cf_ir_d2i(%s);\n", n->i[3] == 2 ? "z" : "z + y");
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
EMIT64(LN_TERRAIN)
{
    sbf(b, "((n%d(t, ws, x, 0.0, z) * ", n->in[0]), D(0), sbf(b, ") + "), D(1), sbf(b, ") - y");
}

/* ---- Hytale (kernels/cf_hytale.h); multi-statement bodies are written by hy_body */
#define HS(n) sbf(b, "cf_hy_wadd(ws, %d)", (n)->i[0])
#define AT3(k, X, Y, Z) sbf(b, "n%d(t, ws, %s, %s, %s)", n->in[k], X, Y, Z)
EMIT64(HY_CONSTANT) { D(0); }
EMIT64(HY_XVALUE) { sbf(b, "x"); }
EMIT64(HY_YVALUE) { sbf(b, "y"); }
EMIT64(HY_ZVALUE) { sbf(b, "z"); }
EMIT64(HY_XOVERRIDE) { sbf(b, "n%d(t, ws, ", n->in[0]), D(0), sbf(b, ", y, z)"); }
EMIT64(HY_YOVERRIDE) { sbf(b, "n%d(t, ws, x, ", n->in[0]), D(0), sbf(b, ", z)"); }
EMIT64(HY_ZOVERRIDE) { sbf(b, "n%d(t, ws, x, y, ", n->in[0]), D(0), sbf(b, ")"); }
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
EMIT64(HY_ABS) { sbf(b, "fabs("), SRC(0), sbf(b, ")"); }
EMIT64(HY_INVERTER) { sbf(b, "-"), SRC(0); }
EMIT64(HY_SQRT) { sbf(b, "cf_hy_sqrt("), SRC(0), sbf(b, ")"); }
EMIT64(HY_POW) { sbf(b, "cf_hy_pow("), SRC(0), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_OFFSETC) { SRC(0), sbf(b, " + "), D(0); }
EMIT64(HY_AMPC) { SRC(0), sbf(b, " * "), D(0); }
EMIT64(HY_OFFSET) { SRC(0), sbf(b, " + "), SRC(1); }
EMIT64(HY_AMPLITUDE) { SRC(0), sbf(b, " * "), SRC(1); }
EMIT64(HY_NORMALIZER)
{
    sbf(b, "cf_hy_normalize("), SRC(0);
    for (int k = 0; k < 4; k++) sbf(b, ", "), D(k);
    sbf(b, ")");
}
EMIT64(HY_CLAMP) { sbf(b, "cf_hy_jmin(cf_hy_jmax("), SRC(0), sbf(b, ", "), D(0), sbf(b, "), "), D(1), sbf(b, ")"); }
EMIT64(HY_FLOOR) { sbf(b, "cf_hy_jmax("), SRC(0), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_CEILING) { sbf(b, "cf_hy_jmin("), SRC(0), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_SMAX) { sbf(b, "cf_hy_smax("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_SMIN) { sbf(b, "cf_hy_smin("), SRC(0), sbf(b, ", "), SRC(1), sbf(b, ", "), D(0), sbf(b, ")"); }
EMIT64(HY_SCLAMP)
{
    sbf(b, "cf_hy_smax("), D(0), sbf(b, ", cf_hy_smin("), SRC(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, "), "), D(2), sbf(b, ")");
}
EMIT64(HY_SFLOOR) { sbf(b, "cf_hy_smax("), SRC(0), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ")"); }
EMIT64(HY_SCEILING) { sbf(b, "cf_hy_smin("), SRC(0), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ")"); }
EMIT64(HY_MIX) { (void)b; }
EMIT64(HY_MULTIMIX) { (void)b; }
EMIT64(HY_CURVEMAPPER) { sbf(b, "cf_hy_curve(hyc%d, ", id), SRC(0), sbf(b, ")"); }
EMIT64(HY_SCALE)
{
    sbf(b, "n%d(t, ws, x / ", n->in[0]), D(0), sbf(b, ", y / "), D(1), sbf(b, ", z / "), D(2), sbf(b, ")");
}
EMIT64(HY_SLIDER)
{
    sbf(b, "n%d(t, ws, x - ", n->in[0]), D(0), sbf(b, ", y - "), D(1), sbf(b, ", z - "), D(2), sbf(b, ")");
}
EMIT64(HY_DISTANCE) { sbf(b, "cf_hy_curve(hyc%d, sqrt(((x * x) + (y * y)) + (z * z)))", id); }
EMIT64(HY_CUBE) { sbf(b, "cf_hy_curve(hyc%d, cf_hy_jmax(cf_hy_jmax(fabs(x), fabs(y)), fabs(z)))", id); }
EMIT64(HY_CELL2D)
{
    sbf(b, "cf_hy_cellnoise2d("), HS(n), sbf(b, ", x, z, "), D(0), sbf(b, ", "), D(2), sbf(b, ", ");
    flit(b, n->f[0]), sbf(b, ", %d, %d, %d)", n->i[1], n->i[2], n->i[3]);
}
EMIT64(HY_CELL3D)
{
    sbf(b, "cf_hy_cellnoise3d("), HS(n), sbf(b, ", x, y, z, "), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", ");
    flit(b, n->f[0]), sbf(b, ", %d, %d, %d)", n->i[1], n->i[2], n->i[3]);
}
EMIT64(HY_FASTWARP) { (void)b; }
EMIT64(HY_WHITENOISE) { sbf(b, "cf_hy_white("), HS(n), sbf(b, ", x, y, z)"); }
EMIT64(HY_SIMPLEX2D)
{
    sbf(b, "cf_hy_simplex2d("), HS(n), sbf(b, ", x, z, "), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", %d)", n->i[1]);
}
EMIT64(HY_CACHE) { SRC(0); }
EMIT64(HY_LSCALE)
{
    sbf(b, "n%d(t, ws, x * ", n->in[0]), D(0), sbf(b, ", y * "), D(0), sbf(b, ", z * "), D(0), sbf(b, ")");
}
EMIT64(HY_EXTERNAL) { D(0); }
/* ---- V2 (hytale-v2); hyc<id> holds the node's da (matrix, curves) */
#define QXYZ(id) sbf(b, "CF_HY_MX(hyc%d, x, y, z), CF_HY_MY(hyc%d, x, y, z), CF_HY_MZ(hyc%d, x, y, z)", id, id, id)
EMIT64(HY_ROTATOR) { sbf(b, "n%d(t, ws, ", n->in[0]), QXYZ(id), sbf(b, ")"); }
EMIT64(HY_ELLIPSOID) { sbf(b, "cf_hy_curve(hyc%d + 9, cf_hy_len3(", id), QXYZ(id), sbf(b, "))"); }
EMIT64(HY_CUBOID) { sbf(b, "cf_hy_curve(hyc%d + 9, cf_hy_cheb3(", id), QXYZ(id), sbf(b, "))"); }
EMIT64(HY_CYLINDER) { (void)b; }
EMIT64(HY_AXIS) { sbf(b, "cf_hy_curve(hyc%d, cf_hy_axisdist(", id), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", x, y, z))"); }
EMIT64(HY_PLANE)
{
    sbf(b, "cf_hy_curve(hyc%d, ((x * ", id), D(0), sbf(b, ") + (y * "), D(1), sbf(b, ")) + (z * "), D(2), sbf(b, "))");
}
EMIT64(HY_SHELL) { sbf(b, "cf_hy_shell(hyc%d, ", id), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", %d, x, y, z)", n->i[0]); }
EMIT64(HY_ANGLE) { (void)b; }
EMIT64(HY_GRADIENT) { sbf(b, "cf_hy_ramp(y, "), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", "), D(3), sbf(b, ")"); }
EMIT64(HY_YSAMPLED) { (void)b; }
EMIT64(HY_GRADWARP) { (void)b; }
EMIT64(HY_VECWARP) { (void)b; }
EMIT64(HY_SIMPLEX3D)
{
    sbf(b, "cf_hy_simplex3d("), HS(n), sbf(b, ", x, y, z, "), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", "), D(3);
    sbf(b, ", %d)", n->i[1]);
}
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
EMIT64(HY_LNOISE)
{
    sbf(b, "cf_hy_lnoise("), HS(n), sbf(b, ", x, z, %d, %d, %d, ", n->i[1], n->i[2], n->i[3]), D(0), sbf(b, ", "), D(1);
    sbf(b, ", %d, %d, ", n->i[4], n->i[5]), flit(b, n->f[0]), sbf(b, ")");
}
EMIT64(HY_LPOINT)
{
    sbf(b, "cf_hy_lpoint(x, y, z");
    for (int k = 0; k < 5; k++) sbf(b, ", "), D(k);
    sbf(b, ")");
}
EMIT64(HY_LFORMULA) { sbf(b, "cf_hy_lformula(%d, ", n->i[0]), SRC(0), sbf(b, ")"); }
EMIT64(HY_LCURVE) { sbf(b, "cf_hy_lcurve("), SRC(0), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ")"); }
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
/* ---- Minecraft 1.18-1.21 (mc121.def): each writes the function's whole body
 * (statements ending in return); sources are n<id>(t, x, y, z); the math is
 * kernels/cf_mc121.h, the text eval64.c compiles. */
#define S21(k) sbf(b, "n%d_%c(t, CF21_PASS, x, y, z)", n->in[k], b->m21)
#define REC21 sbf(b, "cf21_record(t, %d)", id)
static void un21(sb *b, const cf_node *n, const char *expr)
{
    sbf(b, "    double v = "), S21(0), sbf(b, ";\n    return %s;\n", expr);
}
static void bin21(sb *b, const cf_node *n, const char *expr)
{
    sbf(b, "    double va = "), S21(0), sbf(b, ";\n");
    sbf(b, "    double vb = "), S21(1), sbf(b, ";\n    return %s;\n", expr);
}
EMIT64(M_CONSTANT) { sbf(b, "    return "), D(0), sbf(b, ";\n"); }
EMIT64(M_ADD) { bin21(b, n, "va + vb"); }
EMIT64(M_MUL)
{
    if (n->i[0]) {
        bin21(b, n, "va * vb");
        return;
    }
    sbf(b, "    double a = "), S21(0), sbf(b, ";\n    if (a == 0.0) return 0.0;\n    return a * "), S21(1), sbf(b, ";\n");
}
EMIT64(M_MIN) { bin21(b, n, "cf21_min(va, vb)"); }
EMIT64(M_MAX) { bin21(b, n, "cf21_max(va, vb)"); }
EMIT64(M_ABS) { un21(b, n, "fabs(v)"); }
EMIT64(M_SQUARE) { un21(b, n, "v * v"); }
EMIT64(M_CUBE) { un21(b, n, "v * v * v"); }
EMIT64(M_HALF_NEGATIVE) { un21(b, n, "v > 0.0 ? v : v * 0.5"); }
EMIT64(M_QUARTER_NEGATIVE) { un21(b, n, "v > 0.0 ? v : v * 0.25"); }
EMIT64(M_INVERT) { un21(b, n, "1.0 / v"); }
EMIT64(M_SQUEEZE) { un21(b, n, "cf21_squeeze(v)"); }
EMIT64(M_CLAMP)
{
    sbf(b, "    return cf21_clamp("), S21(0), sbf(b, ", "), D(0), sbf(b, ", "), D(1), sbf(b, ");\n");
}
EMIT64(M_Y_CLAMPED_GRADIENT)
{
    sbf(b, "    return cf21_ygrad(y, "), D(0), sbf(b, ", "), D(1), sbf(b, ", "), D(2), sbf(b, ", "), D(3), sbf(b, ");\n");
}
EMIT64(M_NOISE)
{
    sbf(b, "    return cf21_normal(t, "), REC21, sbf(b, ", x * "), D(0), sbf(b, ", y * "), D(1), sbf(b, ", z * "), D(0), sbf(b, ");\n");
}
EMIT64(M_SHIFTED_NOISE)
{
    sbf(b, "    double sx = "), S21(0), sbf(b, ";\n    double sy = "), S21(1), sbf(b, ";\n    double sz = "), S21(2);
    sbf(b, ";\n    return cf21_normal(t, "), REC21, sbf(b, ", x * "), D(0), sbf(b, " + sx, y * "), D(1), sbf(b, " + sy, z * ");
    D(0), sbf(b, " + sz);\n");
}
EMIT64(M_SHIFT_A) { sbf(b, "    return cf21_normal(t, "), REC21, sbf(b, ", x * 0.25, 0.0, z * 0.25) * 4.0;\n"); }
EMIT64(M_SHIFT_B) { sbf(b, "    return cf21_normal(t, "), REC21, sbf(b, ", z * 0.25, x * 0.25, 0.0) * 4.0;\n"); }
EMIT64(M_SHIFT) { sbf(b, "    return cf21_normal(t, "), REC21, sbf(b, ", x * 0.25, y * 0.25, z * 0.25) * 4.0;\n"); }
EMIT64(M_OLD_BLENDED_NOISE)
{
    sbf(b, "    return cf21_blended(t, "), REC21;
    for (int k = 0; k < 5; k++) sbf(b, ", "), D(k);
    sbf(b, ", x, y, z);\n");
}
EMIT64(M_WEIRD_SCALED_SAMPLER)
{
    sbf(b, "    double r = cf21_rarity(%d, ", n->i[0]), S21(0), sbf(b, ");\n");
    sbf(b, "    return r * fabs(cf21_normal(t, "), REC21, sbf(b, ", x / r, y / r, z / r));\n");
}
EMIT64(M_RANGE_CHOICE)
{
    sbf(b, "    double v = "), S21(0), sbf(b, ";\n    if ("), D(0), sbf(b, " <= v && v < "), D(1), sbf(b, ") return "), S21(1);
    sbf(b, ";\n    return "), S21(2), sbf(b, ";\n");
}
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
EMIT64(M_END_ISLANDS) { sbf(b, "    return cf21_end_islands(t, "), REC21, sbf(b, ", x, z);\n"); }
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
EMIT64(M_CACHE_2D) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }
EMIT64(M_CACHE_ONCE) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }
EMIT64(M_CACHE_ALL_IN_CELL) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }
EMIT64(M_BLEND_DENSITY) { sbf(b, "    return "), S21(0), sbf(b, ";\n"); }
EMIT64(M_BLEND_ALPHA) { sbf(b, "    return 1.0;\n"); }
EMIT64(M_BLEND_OFFSET) { sbf(b, "    return 0.0;\n"); }
EMIT64(M_BEARDIFIER) { sbf(b, "    return 0.0;\n"); }

typedef void (*emit64_fn)(sb *, const cf_node *, int);
static const emit64_fn emits64[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary) [NK_##K] = emit64_##K,
#include "ir/nodes.def"
#undef NODE64
#undef NODE
};

static void function64(sb *b, const cf_program *p, int id)
{
    const cf_node *n = &p->nodes[id];
    if (n->kind == NK_LN_CURVE || n->kind == NK_LN_TERRACE) {
        sbf(b, "__constant double lnp%d[%d] = {", id, n->nda);
        for (int k = 0; k < n->nda; k++) sbf(b, "%s", k ? ", " : ""), dlit(b, n->da[k]);
        sbf(b, "};\n");
    }
    if (n->nda > 0 && strncmp(node_name[n->kind], "hytale:", 7) == 0 && n->kind != NK_HY_MULTIMIX) {
        sbf(b, "__constant double hyc%d[%d] = {", id, n->nda);
        for (int k = 0; k < n->nda; k++) sbf(b, "%s", k ? ", " : ""), dlit(b, n->da[k]);
        sbf(b, "};\n");
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

/* ------------------------------------------------------------------ Minecraft 1.18-1.21
 * Three stages per batch, as 1.21's NoiseChunk: k_columns computes every
 * flat_cache's 5x5 quart values of each chunk (single points at y = 0), each
 * k_corners_<k> the cell corners of one interpolated node, k_blocks the blocks
 * (one work item per column, y upward) reading both. A node gets one function
 * per evaluation mode it is reached in: _p single point (markers transparent),
 * _c a cell corner (flat_cache reads the column stage, interpolated passes its
 * input), _b a block (interpolated lerps the corners: x, y, z for final_density,
 * else y, x, z). Buffers are doubles (the host sizes them in floats, twice). */
enum { M21_P = 1, M21_C = 2, M21_B = 4, M21_V = 8 }; /* _v: a block, interpolated lerps y, x, z (block fills' vein fields) */

static int aquifer121_kernels(const cf_program *p, sb *o, emit_layout *lay);
static int surface_kernel(const cf_program *p, gen *g, sb *o, emit_layout *lay, cf_error *err);

static char *emit_program_mc121(const cf_program *p, int fn, emit_layout *lay, cf_error *err)
{
    int n = p->nnodes, root = p->outputs[fn];
    int final = strcmp(p->output_names[fn], "router:final_density") == 0;
    uint8_t *need = calloc((size_t)n + 1, 1);
    int *fslot = malloc(sizeof(int) * ((size_t)n + 1)), *islot = malloc(sizeof(int) * ((size_t)n + 1));
    sb o = {0};
    if (!need || !fslot || !islot) goto nomem;
    memset(lay, 0, sizeof *lay);
    lay->h = p->height;
    need[root] = M21_B;
    /* a block fill (cf_program_compile_blocks): the aquifer's functions as NoiseChunk reads them at a
     * single point (_c), the barrier and the vein fields at the block (_v); host/cpu/aquifer121.c */
    int blocks = p->blocks && fn == 0 && final && p->noutputs >= CF_B21_COUNT; /* then the surface rule's noises */
    if (blocks && p->rules) /* the surface stage's noises, read at blocks (host/cpu/surface.c's blocks121_output) */
        for (int k = 0; k < p->rules->nrows + SN_COUNT; k++) {
            int out = k < SN_COUNT ? p->rules->fixed[k] : p->rules->rows[k - SN_COUNT].kind == SC_NOISE ? p->rules->rows[k - SN_COUNT].a[0] : -1;
            if (out >= 0 && out < p->noutputs) need[p->outputs[out]] |= M21_V;
        }
    if (blocks) {
        for (int k = CF_B21_FLOODEDNESS; k <= CF_B21_SURFACE; k++) need[p->outputs[k]] |= M21_C;
        need[p->outputs[CF_B21_BARRIER]] |= M21_V;
        for (int k = CF_B21_VEIN_TOGGLE; k <= CF_B21_VEIN_GAP; k++) need[p->outputs[k]] |= M21_V;
    }
    for (int i = n - 1; i >= 0; i--) {
        const cf_node *nd = &p->nodes[i];
        for (int m = M21_P; m <= M21_V; m <<= 1) {
            if (!(need[i] & m)) continue;
            if (nd->kind == NK_M_CACHE_ALL_IN_CELL && m != M21_P) {
                char ptr[320];
                err_set(err, CF_ERR_ARG, "%s#%s: cache_all_in_cell inside a chunk fill is not generated for OpenCL (use the CPU)",
                        nd->loc.file, ptr_text(nd->loc.ptr, ptr, sizeof ptr));
                goto fail;
            }
            for (int k = 0; k < nd->nin; k++) {
                int cm = m;
                if (nd->kind == NK_M_FLAT_CACHE && m != M21_P) cm = M21_P; /* the column stage and the fallback */
                if (nd->kind == NK_M_FIND_TOP_SURFACE && k == 0) cm = M21_P;
                need[nd->in[k]] |= (uint8_t)cm;
                if (nd->kind == NK_M_INTERPOLATED && (m == M21_B || m == M21_V)) need[nd->in[k]] |= M21_C; /* the corner stage */
            }
        }
    }
    int nflat = 0, ninterp = 0;
    int ncxz = 16 / p->cell_xz, ncy = p->height / p->cell_y, nx = ncxz + 1, ncorner = nx * nx * (ncy + 1);
    for (int i = 0; i < n; i++) {
        int k = p->nodes[i].kind;
        fslot[i] = k == NK_M_FLAT_CACHE && (need[i] & (M21_C | M21_B | M21_V)) ? nflat++ : -1;
        islot[i] = k == NK_M_INTERPOLATED && (need[i] & (M21_B | M21_V)) ? ninterp++ : -1;
        if (islot[i] >= EMIT_MAX_INTERP) {
            err_set(err, CF_ERR_LIMIT, "%s: more than %d interpolated nodes in one fill (OpenCL)", p->settings_id, EMIT_MAX_INTERP);
            goto fail;
        }
        if (islot[i] >= 0) {
            lay->interp[islot[i]] = i, lay->ncx[islot[i]] = nx, lay->ncy[islot[i]] = ncy + 1;
            lay->ncorner[islot[i]] = ncorner;
            lay->corner_off[islot[i]] = (size_t)islot[i] * (size_t)ncorner;
        }
    }
    lay->ninterp = ninterp;
    lay->ncol = 2 * nflat;
    lay->corners = 2 * (size_t)ninterp * (size_t)ncorner;
    sbf(&o, "/* chunkfill: generated OpenCL C for %s, output %s (Minecraft 1.18-1.21, double, seed-independent) */\n",
        p->settings_id, p->output_names[fn]);
    sbf(&o, "%s\n%s\n%s\n", emit_header_math, emit_header_nodes, emit_header_mc121);
    sbf(&o, "#define CF21_ARGS __global const double *col, __global const double *cor, int c, int nch, int cx, int cz\n");
    sbf(&o, "#define CF21_PASS col, cor, c, nch, cx, cz\n");
    sbf(&o, "#define NFLAT %d\n#define NCORNER %d\n#define NX %d\n#define CW %d\n#define CH %d\n#define FCY %lld\n\n", nflat ? nflat : 1,
        ncorner, nx, p->cell_xz, p->cell_y, (long long)cf_floordiv(p->min_y, p->cell_y));
    static const char mc[4] = {'p', 'c', 'b', 'v'};
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        if (!need[i]) continue;
        if (nd->kind == NK_M_SPLINE) {
            sbf(&o, "__constant double sp%d[%d] = {", i, nd->nda);
            for (int k = 0; k < nd->nda; k++) sbf(&o, "%s", k ? ", " : ""), dlit(&o, nd->da[k]);
            sbf(&o, "};\n");
        }
        for (int mi = 0; mi < 4; mi++) {
            int m = 1 << mi;
            if (!(need[i] & m)) continue;
            src_comment(&o, nd, "");
            sbf(&o, "static double n%d_%c(CF_TAB t, CF21_ARGS, double x, double y, double z)\n{\n", i, mc[mi]);
            sbf(&o, "    (void)t, (void)col, (void)cor, (void)c, (void)nch, (void)cx, (void)cz, (void)x, (void)y, (void)z;\n");
            o.m21 = mc[mi];
            int in0 = nd->nin ? nd->in[0] : 0;
            if (nd->kind == NK_M_FLAT_CACHE && m != M21_P) {
                sbf(&o, "    long qx = cf_floordiv((long)x, 4) - (long)cx * 4, qz = cf_floordiv((long)z, 4) - (long)cz * 4;\n");
                sbf(&o, "    if (qx < 0 || qz < 0 || qx > 4 || qz > 4) return n%d_p(t, CF21_PASS, x, y, z);\n", in0);
                sbf(&o, "    return col[((size_t)c * NFLAT + %d) * 289 + (size_t)(qz * 5 + qx)];\n}\n", fslot[i]);
            } else if (nd->kind == NK_M_INTERPOLATED && (m == M21_B || m == M21_V)) {
                sbf(&o, "    long bx = (long)x, by = (long)y, bz = (long)z;\n");
                sbf(&o, "    long gx = cf_floordiv(bx, CW), gy = cf_floordiv(by, CH), gz = cf_floordiv(bz, CW);\n");
                sbf(&o, "    int ix = (int)(gx - cf_floordiv((long)cx * 16, CW)), iy = (int)(gy - FCY), iz = (int)(gz - cf_floordiv((long)cz * 16, CW));\n");
                sbf(&o, "    if (ix < 0 || iz < 0 || iy < 0 || ix >= NX - 1 || iz >= NX - 1 || iy >= %d) return n%d_%c(t, CF21_PASS, x, y, z);\n", ncy, in0,
                    mc[mi]);
                sbf(&o, "    double fx = (double)(bx - gx * CW) / (double)CW, fy = (double)(by - gy * CH) / (double)CH, fz = (double)(bz - gz * CW) / (double)CW;\n");
                sbf(&o, "    __global const double *k = cor + (size_t)%d * (size_t)NCORNER * (size_t)nch + (size_t)c * NCORNER;\n", islot[i]);
                sbf(&o, "#define CI(a, b, d) k[((size_t)(iy + (b)) * NX + (size_t)(iz + (d))) * NX + (size_t)(ix + (a))]\n");
                sbf(&o, "    double n000 = CI(0, 0, 0), n100 = CI(1, 0, 0), n010 = CI(0, 1, 0), n110 = CI(1, 1, 0);\n");
                sbf(&o, "    double n001 = CI(0, 0, 1), n101 = CI(1, 0, 1), n011 = CI(0, 1, 1), n111 = CI(1, 1, 1);\n#undef CI\n");
                if (final && m == M21_B) {
                    sbf(&o, "    double a = cf21_lerp(fy, cf21_lerp(fx, n000, n100), cf21_lerp(fx, n010, n110));\n");
                    sbf(&o, "    double b = cf21_lerp(fy, cf21_lerp(fx, n001, n101), cf21_lerp(fx, n011, n111));\n");
                } else {
                    sbf(&o, "    double a = cf21_lerp(fx, cf21_lerp(fy, n000, n010), cf21_lerp(fy, n100, n110));\n");
                    sbf(&o, "    double b = cf21_lerp(fx, cf21_lerp(fy, n001, n011), cf21_lerp(fy, n101, n111));\n");
                }
                sbf(&o, "    return cf21_lerp(fz, a, b);\n}\n");
            } else {
                emits64[nd->kind](&o, nd, i);
                sbf(&o, "}\n");
            }
        }
    }
    /* the column stage: flat caches */
    sbf(&o, "\n__kernel void k_columns(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global float *colf)\n{\n");
    sbf(&o, "    (void)y0;\n    int gid = get_global_id(0), c = gid / 289, q = gid %% 289;\n");
    sbf(&o, "    if (c >= nchunks || q >= 25) return;\n");
    sbf(&o, "    __global double *col = (__global double *)colf;\n    __global const double *cor = col;\n");
    sbf(&o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1], nch = nchunks;\n");
    sbf(&o, "    double x = (double)(((long)cx * 4 + q %% 5) * 4), z = (double)(((long)cz * 4 + q / 5) * 4);\n");
    sbf(&o, "    (void)t, (void)cor, (void)nch, (void)x, (void)z;\n");
    for (int i = 0; i < n; i++)
        if (fslot[i] >= 0)
            sbf(&o, "    col[((size_t)c * NFLAT + %d) * 289 + (size_t)q] = n%d_p(t, CF21_PASS, x, 0.0, z);\n", fslot[i], p->nodes[i].in[0]);
    sbf(&o, "}\n");
    /* the corner stage */
    for (int i = 0; i < n; i++) {
        if (islot[i] < 0) continue;
        sbf(&o, "\n__kernel void k_corners_%d(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *colf,"
                " __global float *corf)\n{\n", islot[i]);
        sbf(&o, "    (void)y0;\n    int gid = get_global_id(0), c = gid / NCORNER, i = gid %% NCORNER;\n    if (c >= nchunks) return;\n");
        sbf(&o, "    __global const double *col = (__global const double *)colf;\n    __global double *corw = (__global double *)corf;\n");
        sbf(&o, "    __global const double *cor = corw;\n    int cx = chunks[2 * c], cz = chunks[2 * c + 1], nch = nchunks;\n");
        sbf(&o, "    int ix = i %% NX, iz = (i / NX) %% NX, iy = i / (NX * NX);\n");
        sbf(&o, "    double x = (double)((cf_floordiv((long)cx * 16, CW) + ix) * CW), y = (double)((FCY + iy) * CH);\n");
        sbf(&o, "    double z = (double)((cf_floordiv((long)cz * 16, CW) + iz) * CW);\n");
        sbf(&o, "    corw[(size_t)%d * (size_t)NCORNER * (size_t)nch + (size_t)c * NCORNER + (size_t)i] = n%d_c(t, CF21_PASS, x, y, z);\n}\n",
            islot[i], p->nodes[i].in[0]);
    }
    /* the block stage */
    sbf(&o, "\n/* one work item per block column, y upward */\n");
    sbf(&o, "__kernel void k_blocks(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *colf,"
            " __global const float *corf, __global double *out)\n{\n");
    sbf(&o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n    if (c >= nchunks) return;\n");
    sbf(&o, "    __global const double *col = (__global const double *)colf, *cor = (__global const double *)corf;\n");
    sbf(&o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1], nch = nchunks;\n");
    sbf(&o, "    double x = (double)((long)cx * 16 + q %% 16), z = (double)((long)cz * 16 + q / 16);\n");
    sbf(&o, "    for (int yi = 0; yi < %d; yi++) {\n", p->height);
    sbf(&o, "        double v = n%d_b(t, CF21_PASS, x, (double)(y0 + yi), z);\n", root);
    sbf(&o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = %s;\n    }\n}\n", p->height, final ? "v + 0.0" : "v");
    if (blocks && aquifer121_kernels(p, &o, lay) < 0) goto nomem;
    if (blocks && p->rules && surface_kernel(p, NULL, &o, lay, err) < 0) goto fail;
    free(need), free(fslot), free(islot);
    if (o.oom) {
        free(o.s);
        err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
        return NULL;
    }
    return o.s;
nomem:
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
fail:
    free(need), free(fslot), free(islot);
    free(o.s);
    return NULL;
}

static char *emit_program_f64(const cf_program *p, int fn, emit_layout *lay, cf_error *err)
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

/* ------------------------------------------------------------------ program */

int emit_test_break;

/* the embedded kernels/ headers, without their #include lines */
static void headers(sb *b)
{
    sbf(b, "%s\n", emit_header_math);
    sbf(b, "%s\n", emit_header_nodes);
    if (emit_test_break) /* a deliberately inexact program (tests): the generated lerps fused */
        sbf(b, "#define cf_lerpf(t, a, b) fma((t), (b) - (a), (a))\n");
}

static void static_tables(gen *g, sb *b)
{
    const cf_program *p = g->p;
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->kind != NK_SPLINE || spline_chain(n)) continue;
        sbf(b, "__constant float spl%d[%d] = {", i, n->nfa);
        for (int k = 0; k < n->nfa; k++) {
            if (k) sbf(b, ", ");
            flit(b, n->fa[k]);
        }
        sbf(b, "};\n");
    }
}

/* Block fills (kernels/cf_aquifer.h): k_aq_surface (the surface-level grid of
 * each chunk: the box on the volume path, the rest on the point path), k_aq_cells
 * (cell centres and fluid statuses), k_aq_blocks (per block column, from the
 * densities k_blocks wrote). Everything a CPU fill computes lazily is computed
 * here for every cell and column: the values are the same, only more are made. */
static int aquifer_kernels(gen *g, sb *o, emit_layout *lay)
{
    const cf_program *p = g->p;
    static const char *const fluid_names[] = {"minecraft:air", "minecraft:water", "minecraft:lava"};
    int fluid = CF_BK_FLUID;
    for (int k = 0; k < 3; k++)
        if (p->default_fluid && strcmp(p->default_fluid, fluid_names[k]) == 0) fluid = CF_BK_AIR + k;
    int aq = p->has_aquifers;
    for (int k = 0; k < 6; k++) aq &= p->aq_out[k] >= 0;
    lay->blocks = 1;
    lay->aquifers = aq;
    lay->ncell = 9 * cf_aq_ny(p->min_y, p->height);
    int fnode[6] = {0};
    sbf(o, "\n/* ---- blocks of the noise stage: the aquifer (kernels/cf_aquifer.h) */\n");
    sbf(o, "#define CF_AQ_CTX CF_TAB t, __global const int *sgrid, __global const cf_aq_fluid *st, int cx, int cz\n");
    sbf(o, "#define CF_AQ_ARG t, sgrid, st, cx, cz\n");
    sbf(o, "#define CF_AQ_SEA (%d)\n#define CF_AQ_FLUID (%d)\n", p->sea_level, fluid);
    sbf(o, "#define CF_AQ_SURFACE(x, z) sgrid[((int)cf_floordiv((z), 4) - (4 * cz - 8)) * CF_AQ_SQX"
           " + ((int)cf_floordiv((x), 4) - (4 * cx - 16))]\n");
    sbf(o, "#define CF_AQ_STATUS(i) st[(i)]\n#define CF_AQ_CENTRES __global const int *\n");
    if (aq) {
        for (int k = 0; k < 6; k++) {
            fnode[k] = p->outputs[p->aq_out[k]];
            want(g, MODE_POINT, fnode[k]);
        }
        want(g, MODE_VOLUME, fnode[CF_AQF_SURFACE]);
        sbf(o, "#define CF_AQ_FN(k, x, y, z) cf_aq_fn(t, (k), (x), (y), (z))\n");
        sbf(o, "static float cf_aq_fn(CF_TAB t, int k, int x, int y, int z)\n{\n");
        for (int k = 0; k < 6; k++)
            sbf(o, "    if (k == %d) return fP_%d(t, x, y, z, 0, 0); /* aquifers/%s */\n", k, fnode[k], cf_aquifer_fields[k]);
        sbf(o, "    return 0.0f;\n}\n");
    } else {
        sbf(o, "#define CF_AQ_FN(k, x, y, z) 0.0f\n");
    }
    sbf(o, "%s\n", emit_header_aquifer);
    if (aq) {
        sbf(o, "\n__kernel void k_aq_surface(CF_TAB t, __global const int *chunks, int nchunks, __global int *surf)\n{\n");
        sbf(o, "    int gid = get_global_id(0), c = gid / CF_AQ_SQ, q = gid %% CF_AQ_SQ;\n");
        sbf(o, "    if (c >= nchunks) return;\n");
        sbf(o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1];\n");
        sbf(o, "    int qx = 4 * cx - 16 + q %% CF_AQ_SQX, qz = 4 * cz - 8 + q / CF_AQ_SQX;\n");
        sbf(o, "    int box = qx >= 4 * cx - 4 && qx <= 4 * cx + 6 && qz >= 4 * cz - 4 && qz <= 4 * cz + 6;\n");
        sbf(o, "    float v = box ? fV_%d(t, qx * 4, 0, qz * 4, 1, 0) : fP_%d(t, qx * 4, 0, qz * 4, 0, 0);\n",
            fnode[CF_AQF_SURFACE], fnode[CF_AQF_SURFACE]);
        sbf(o, "    surf[(size_t)c * CF_AQ_SQ + q] = cf_jfloor((double)v);\n}\n");
        sbf(o, "\n__kernel void k_aq_cells(CF_TAB t, __global const int *chunks, int nchunks, ulong lo, ulong hi,"
               " __global const int *surf, __global int *cen, __global cf_aq_fluid *status, __global int *skip)\n{\n");
        sbf(o, "    int gid = get_global_id(0), c = gid / %d, q = gid %% %d;\n", lay->ncell, lay->ncell);
        sbf(o, "    if (c >= nchunks) return;\n");
        sbf(o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1];\n");
        sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ;\n");
        sbf(o, "    __global const cf_aq_fluid *st = status; (void)st;\n");
        sbf(o, "    int gx = cx - 1 + q %% 3, gz = cz - 1 + q / 3 %% 3, gy = %d + q / 9;\n", cf_aq_gy0(p->min_y));
        sbf(o, "    int cc[3];\n");
        sbf(o, "    cf_aq_centre(lo, hi, %d, gx, gy, gz, cc);\n", p->legacy_random);
        sbf(o, "    __global int *ce = cen + ((size_t)c * %d + q) * 3;\n", lay->ncell);
        sbf(o, "    ce[0] = cc[0], ce[1] = cc[1], ce[2] = cc[2];\n");
        sbf(o, "    status[(size_t)c * %d + q] = cf_aq_compute_fluid(CF_AQ_ARG, cc[0], cc[1], cc[2]);\n", lay->ncell);
        sbf(o, "    if (q == 0) {\n");
        sbf(o, "        int mx = -2147483647 - 1;\n");
        sbf(o, "        for (int i = 0; i < CF_AQ_BOX * CF_AQ_BOX; i++) {\n");
        sbf(o, "            int v = sgrid[(4 + i / CF_AQ_BOX) * CF_AQ_SQX + 12 + i %% CF_AQ_BOX];\n");
        sbf(o, "            mx = v > mx ? v : mx;\n        }\n");
        sbf(o, "        skip[c] = cf_aq_skip(mx);\n    }\n}\n");
    }
    sbf(o, "\n__kernel void k_aq_blocks(CF_TAB t, __global const int *chunks, int nchunks, __global const float *dens,"
           " __global const int *surf, __global const int *cen, __global const cf_aq_fluid *status,"
           " __global const int *skip, __global uchar *out)\n{\n");
    sbf(o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(o, "    if (c >= nchunks) return;\n");
    sbf(o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1], x = cx * 16 + q %% 16, z = cz * 16 + q / 16;\n");
    sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ; (void)sgrid;\n");
    sbf(o, "    __global const cf_aq_fluid *st = status + (size_t)c * %d;\n", lay->ncell);
    sbf(o, "    __global const int *ce = cen + (size_t)c * %d * 3;\n", lay->ncell);
    sbf(o, "    int sk = %s;\n", aq ? "skip[c]" : "0");
    sbf(o, "    for (int yi = %d; yi >= 0; yi--) {\n", p->height - 1);
    sbf(o, "        size_t i = (((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16;\n", p->height);
    sbf(o, "        out[i] = (uchar)cf_aq_block(CF_AQ_ARG, ce, cx, cz, %d, sk, %d, x, %d + yi, z, dens[i]);\n",
        cf_aq_gy0(p->min_y), aq, p->min_y);
    sbf(o, "    }\n}\n");
    return o->oom ? -1 : 0;
}

/* Block fills of the 1.18-1.21 dialect (host/cpu/aquifer121.c on the device): the same three
 * kernels as aquifer_kernels with double values, the chunk's column and corner buffers (the
 * aquifer's functions read flat caches, the vein fields corners), then the ore veins in
 * k_aq_blocks. Extra arguments after the 26.3 ones: colf, corf (and ore lo, hi for k_aq_blocks). */
static int aquifer121_kernels(const cf_program *p, sb *o, emit_layout *lay)
{
    static const char *const fluid_names[] = {"minecraft:air", "minecraft:water", "minecraft:lava"};
    int fluid = CF_BK_FLUID;
    for (int k = 0; k < 3; k++)
        if (p->default_fluid && strcmp(p->default_fluid, fluid_names[k]) == 0) fluid = CF_BK_AIR + k;
    const int *f = p->outputs;
    int aq = p->has_aquifers;
    lay->blocks = 1;
    lay->aquifers = aq;
    lay->ncell = 9 * cf_aq_ny(p->min_y, p->height);
    sbf(o, "\n/* ---- blocks of the 1.18-1.21 noise stage: the aquifer in double, the ore veins (kernels/cf_aquifer.h) */\n");
    sbf(o, "#define CF_AQ_CTX CF_TAB t, __global const double *col, __global const double *cor, int c, int nch, int acx, int acz,"
           " __global const int *sgrid, __global const cf_aq_fluid *st\n");
    sbf(o, "#define CF_AQ_ARG t, col, cor, c, nch, acx, acz, sgrid, st\n#define A21 col, cor, c, nch, acx, acz\n");
    sbf(o, "#define CF_AQ_REAL double\n#define CF_AQ_SEA (%d)\n#define CF_AQ_FLUID (%d)\n", p->sea_level, fluid);
    sbf(o, "#define CF_AQ_SURFACE(x, z) sgrid[((int)cf_floordiv((z), 4) - (4 * acz - 8)) * CF_AQ_SQX"
           " + ((int)cf_floordiv((x), 4) - (4 * acx - 16))]\n");
    sbf(o, "#define CF_AQ_STATUS(i) st[(i)]\n#define CF_AQ_CENTRES __global const int *\n");
    sbf(o, "#define CF_AQ_FN(k, x, y, z) cf_aq_fn(t, A21, (k), (x), (y), (z))\n");
    sbf(o, "#define CF_AQ_EXCLUDED(x, y, z) (n%d_c(t, A21, (double)(x), (double)(y), (double)(z)) < (double)-0.225f"
           " && n%d_c(t, A21, (double)(x), (double)(y), (double)(z)) > (double)0.9f)\n", f[CF_B21_EROSION], f[CF_B21_DEPTH]);
    sbf(o, "static double cf_aq_fn(CF_TAB t, __global const double *col, __global const double *cor, int c, int nch, int acx,"
           " int acz, int k, int x, int y, int z)\n{\n");
    sbf(o, "    double bx = (double)x, by = (double)y, bz = (double)z;\n");
    sbf(o, "    if (k == %d) return n%d_v(t, A21, bx, by, bz);\n", CF_AQF_BARRIER, f[CF_B21_BARRIER]);
    sbf(o, "    if (k == %d) return n%d_c(t, A21, bx, by, bz);\n", CF_AQF_FLOODEDNESS, f[CF_B21_FLOODEDNESS]);
    sbf(o, "    if (k == %d) return n%d_c(t, A21, bx, by, bz);\n", CF_AQF_SPREAD, f[CF_B21_SPREAD]);
    sbf(o, "    if (k == %d) return n%d_c(t, A21, bx, by, bz);\n", CF_AQF_LAVA, f[CF_B21_LAVA]);
    sbf(o, "    return 0.0;\n}\n");
    sbf(o, "%s\n", emit_header_aquifer);
    const char *args = "__global const float *colf, __global const float *corf";
    const char *bufs = "    __global const double *col = (__global const double *)colf, *cor = (__global const double *)corf;\n";
    if (aq) {
        sbf(o, "\n__kernel void k_aq_surface(CF_TAB t, __global const int *chunks, int nchunks, __global int *surf, %s)\n{\n", args);
        sbf(o, "    int gid = get_global_id(0), c = gid / CF_AQ_SQ, q = gid %% CF_AQ_SQ;\n");
        sbf(o, "    if (c >= nchunks) return;\n%s", bufs);
        sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks;\n");
        sbf(o, "    int qx = 4 * acx - 16 + q %% CF_AQ_SQX, qz = 4 * acz - 8 + q / CF_AQ_SQX;\n");
        sbf(o, "    surf[(size_t)c * CF_AQ_SQ + q] = cf_jfloor(n%d_c(t, A21, (double)(qx * 4), 0.0, (double)(qz * 4)));\n}\n",
            f[CF_B21_SURFACE]);
        sbf(o, "\n__kernel void k_aq_cells(CF_TAB t, __global const int *chunks, int nchunks, ulong lo, ulong hi,"
               " __global const int *surf, __global int *cen, __global cf_aq_fluid *status, __global int *skip, %s)\n{\n", args);
        sbf(o, "    int gid = get_global_id(0), c = gid / %d, q = gid %% %d;\n", lay->ncell, lay->ncell);
        sbf(o, "    if (c >= nchunks) return;\n%s", bufs);
        sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks;\n");
        sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ;\n");
        sbf(o, "    __global const cf_aq_fluid *st = status; (void)st;\n");
        sbf(o, "    int gx = acx - 1 + q %% 3, gz = acz - 1 + q / 3 %% 3, gy = %d + q / 9;\n", cf_aq_gy0(p->min_y));
        sbf(o, "    int cc[3];\n    cf_aq_centre(lo, hi, %d, gx, gy, gz, cc);\n", p->legacy_random);
        sbf(o, "    __global int *ce = cen + ((size_t)c * %d + q) * 3;\n", lay->ncell);
        sbf(o, "    ce[0] = cc[0], ce[1] = cc[1], ce[2] = cc[2];\n");
        sbf(o, "    status[(size_t)c * %d + q] = cf_aq_compute_fluid(CF_AQ_ARG, cc[0], cc[1], cc[2]);\n", lay->ncell);
        sbf(o, "    if (q == 0) {\n        int mx = -2147483647 - 1;\n");
        sbf(o, "        for (int i = 0; i < CF_AQ_BOX * CF_AQ_BOX; i++) {\n");
        sbf(o, "            int v = sgrid[(4 + i / CF_AQ_BOX) * CF_AQ_SQX + 12 + i %% CF_AQ_BOX];\n");
        sbf(o, "            mx = v > mx ? v : mx;\n        }\n        skip[c] = cf_aq_skip(mx);\n    }\n}\n");
    }
    sbf(o, "\n__kernel void k_aq_blocks(CF_TAB t, __global const int *chunks, int nchunks, __global const float *densf,"
           " __global const int *surf, __global const int *cen, __global const cf_aq_fluid *status,"
           " __global const int *skip, __global uchar *out, %s, ulong olo, ulong ohi)\n{\n", args);
    sbf(o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(o, "    if (c >= nchunks) return;\n%s", bufs);
    sbf(o, "    __global const double *dens = (__global const double *)densf;\n");
    sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks, x = acx * 16 + q %% 16, z = acz * 16 + q / 16;\n");
    sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ; (void)sgrid;\n");
    sbf(o, "    __global const cf_aq_fluid *st = status + (size_t)c * %d;\n", lay->ncell);
    sbf(o, "    __global const int *ce = cen + (size_t)c * %d * 3;\n", lay->ncell);
    sbf(o, "    int sk = %s;\n    (void)olo, (void)ohi;\n", aq ? "skip[c]" : "0");
    sbf(o, "    for (int yi = %d; yi >= 0; yi--) {\n", p->height - 1);
    sbf(o, "        size_t i = (((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16;\n", p->height);
    sbf(o, "        int y = %d + yi;\n", p->min_y);
    sbf(o, "        int k = cf_aq_block(CF_AQ_ARG, ce, acx, acz, %d, sk, %d, x, y, z, dens[i]);\n", cf_aq_gy0(p->min_y), aq);
    if (p->ore_veins) { /* OreVeinifier where the aquifer returned null (aquifer121.c b21_vein) */
        sbf(o, "        if (k == CF_BK_SOLID && y >= -60 && y <= 50) {\n");
        sbf(o, "            double bx = (double)x, by = (double)y, bz = (double)z;\n");
        sbf(o, "            double tog = n%d_v(t, A21, bx, by, bz);\n", f[CF_B21_VEIN_TOGGLE]);
        sbf(o, "            cf_aq_rnd r;\n            int fl = cf_aq_vein_start(olo, ohi, %d, x, y, z, tog, &r);\n", p->legacy_random);
        sbf(o, "            if (fl >= 0 && !(n%d_v(t, A21, bx, by, bz) >= 0.0))\n", f[CF_B21_VEIN_RIDGED]);
        sbf(o, "                k = cf_aq_vein_draw(tog, &r, %d) && n%d_v(t, A21, bx, by, bz) > (double)-0.3f ? cf_aq_vein_ore(fl, &r, %d) : fl;\n",
            p->legacy_random, f[CF_B21_VEIN_GAP], p->legacy_random);
        sbf(o, "        }\n");
    }
    sbf(o, "        out[i] = (uchar)k;\n    }\n}\n");
    return o->oom ? -1 : 0;
}

/* the nesting of sequences below rule row i (the walk's stack depth); memo: -1 unknown */
static int rule_depth(const cf_rules *r, int i, int *memo)
{
    if (i < 0 || i >= r->nrows) return 0;
    if (memo[i] >= 0) return memo[i];
    const cf_rrow *w = &r->rows[i];
    int d = 0;
    if (w->kind == SR_CONDITION) d = rule_depth(r, w->a[1], memo);
    if (w->kind == SR_SEQUENCE)
        for (int k = 0; k < w->n; k++) {
            int e = 1 + rule_depth(r, w->kids[k], memo);
            d = e > d ? e : d;
        }
    return memo[i] = d;
}

/* the program outputs the rules read as noises (fixed noises, noise_threshold), each once: *n of them */
static int *rule_outputs(const cf_program *p, int *n)
{
    const cf_rules *r = p->rules;
    int *out = malloc(sizeof(int) * ((size_t)r->nrows + SN_COUNT + 1));
    uint8_t *seen = calloc((size_t)p->noutputs + 1, 1);
    *n = 0;
    if (!out || !seen) {
        free(out), free(seen);
        return NULL;
    }
    for (int k = 0; k < r->nrows + SN_COUNT; k++) {
        int o = k < SN_COUNT ? r->fixed[k] : r->rows[k - SN_COUNT].kind == SC_NOISE ? r->rows[k - SN_COUNT].a[0] : -1;
        if (o < 0 || o >= p->noutputs || seen[o]) continue;
        seen[o] = 1;
        out[(*n)++] = o;
    }
    free(seen);
    return out;
}

/* The surface stage of a block fill (kernels/cf_surface.h), both dialects: the rule table as
 * __constant arrays (seed-independent) and k_surface, one work item per chunk, which rewrites
 * the noise stage's blocks in place. 1.21 reads its noises through the chunk's NoiseChunk
 * functions (_v: the block context, as aquifer121.c's blocks121_output) and the preliminary
 * surface level through the aquifer's corner functions; 26.3 (g given) reads f32 point values
 * (fS_), chunk_surface_level and the ore veins' density and richness on the volume path (fV_,
 * vmin of the volume: 0 for chunk_surface_level's 16 x 1 x 16 volume, min_y for the chunk). */
static int surface_kernel(const cf_program *p, gen *g, sb *o, emit_layout *lay, cf_error *err)
{
    const cf_rules *r = p->rules;
    if (r->nblocks + 2 > 257 || (g != NULL) != (r->f32 != 0)) {
        err_set(err, CF_ERR_ARG, "%s: this surface stage is not generated for OpenCL", p->settings_id);
        return -1;
    }
    int *memo = malloc(sizeof(int) * ((size_t)r->nrows + 1)), depth = 0, nout = 0;
    int *outs = rule_outputs(p, &nout);
    if (!memo || !outs) {
        free(memo), free(outs);
        err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
        return -1;
    }
    for (int i = 0; i < r->nrows; i++) memo[i] = -1;
    for (int i = 0; i < r->nrows; i++) {
        int d = rule_depth(r, i, memo);
        depth = d > depth ? d : depth;
    }
    free(memo);
    lay->surface = 1;
    sbf(o, "\n/* ---- the surface stage (kernels/cf_surface.h): %d rule rows */\n", r->nrows);
    sbf(o, "#define CF_SF_F32 %d\n#define CF_SF_MINY (%d)\n#define CF_SF_HEIGHT %d\n#define CF_SF_SEA (%d)\n#define CF_SF_LEGACY %d\n",
        r->f32 != 0, p->min_y, p->height, p->sea_level, p->legacy_random);
    sbf(o, "#define CF_SF_ROOT %d\n#define CF_SF_NOUT %d\n#define CF_SF_STACK %d\n#define CF_SF_NBLOCKS %d\n", r->root, p->noutputs,
        depth + 1, r->nblocks);
    size_t nk = 0;
    sbf(o, "__constant int sf_rows[%d] = {", r->nrows * 9);
    for (int i = 0; i < r->nrows; i++) {
        const cf_rrow *w = &r->rows[i];
        sbf(o, "%s\n    %d, %d, %d, %d, %d, %d, %d, %d, %zu", i ? "," : "", w->kind, w->a[0], w->a[1], w->a[2], w->a[3], w->a[4], w->a[5],
            w->kind == SR_SEQUENCE || w->kind == SC_BIOME ? w->n : 0, nk);
        if (w->kind == SR_SEQUENCE || w->kind == SC_BIOME) nk += (size_t)w->n;
    }
    sbf(o, "};\n__constant double sf_d[%d] = {", 2 * r->nrows);
    for (int i = 0; i < r->nrows; i++) sbf(o, "%s", i ? ", " : ""), dlit(o, r->rows[i].d[0]), sbf(o, ", "), dlit(o, r->rows[i].d[1]);
    sbf(o, "};\n__constant float sf_f[%d] = {", r->nrows);
    for (int i = 0; i < r->nrows; i++) sbf(o, "%s", i ? ", " : ""), flit(o, r->rows[i].f);
    sbf(o, "};\n__constant int sf_kids[%zu] = {", nk ? nk : 1);
    int first = 1;
    for (int i = 0; i < r->nrows; i++) {
        const cf_rrow *w = &r->rows[i];
        if (w->kind != SR_SEQUENCE && w->kind != SC_BIOME) continue;
        for (int k = 0; k < w->n; k++) sbf(o, "%s%d", first ? "" : ", ", w->kids[k]), first = 0;
    }
    if (first) sbf(o, "0");
    sbf(o, "};\n__constant int sf_band[7] = {");
    for (int i = 0; i < 7; i++) sbf(o, "%s%d", i ? ", " : "", r->band_block[i] < 0 ? 0 : r->band_block[i]);
    sbf(o, "};\n__constant int sf_fixed[%d] = {", SN_COUNT);
    for (int i = 0; i < SN_COUNT; i++) sbf(o, "%s%d", i ? ", " : "", r->fixed[i]);
    sbf(o, "};\n");
    if (!g) {
        sbf(o, "#define CF_SF_DCTX CF_TAB t, __global const double *col, __global const double *cor, int c, int nch, int acx, int acz\n");
        sbf(o, "#define CF_SF_DARG t, col, cor, c, nch, acx, acz\n");
        sbf(o, "static double cf_sf_out(CF_SF_DCTX, int out, double x, double y, double z)\n{\n    switch (out) {\n");
        for (int k = 0; k < nout; k++) sbf(o, "    case %d: return n%d_v(t, A21, x, y, z);\n", outs[k], p->outputs[outs[k]]);
        sbf(o, "    default: return 0.0;\n    }\n}\n");
        sbf(o, "#define CF_SF_LEVEL(x, z) cf_jfloor(n%d_c(t, A21, (double)(cf_floordiv((x), 4) * 4), 0.0, (double)(cf_floordiv((z), 4) * 4)))\n",
            p->outputs[CF_B21_SURFACE]);
        sbf(o, "#define CF_SF_CSL(x, z) 0.0f\n#define CF_SF_VOL(out, x, y, z) 0.0f\n");
    } else {
        /* point values of the rule noises (the CPU's eval_point_f32), volume values of the veins' inputs */
        sbf(o, "#define CF_SF_DCTX CF_TAB t\n#define CF_SF_DARG t\n");
        sbf(o, "static double cf_sf_out(CF_SF_DCTX, int out, double x, double y, double z)\n{\n    int ix = (int)x, iy = (int)y, iz = (int)z;\n    switch (out) {\n");
        for (int k = 0; k < nout; k++) {
            want(g, MODE_SAMPLE, p->outputs[outs[k]]);
            sbf(o, "    case %d: return (double)fS_%d(t, ix, iy, iz, 0, 0);\n", outs[k], p->outputs[outs[k]]);
        }
        /* ore veins' filler_gap on the point path too */
        for (int i = 0; i < r->nrows; i++)
            if (r->rows[i].kind == SR_ORE_VEIN) {
                int gap = r->rows[i].a[5], dup = 0;
                for (int k = 0; k < nout; k++) dup |= outs[k] == gap;
                for (int j = 0; j < i; j++) dup |= r->rows[j].kind == SR_ORE_VEIN && r->rows[j].a[5] == gap;
                if (dup) continue;
                want(g, MODE_SAMPLE, p->outputs[gap]);
                sbf(o, "    case %d: return (double)fS_%d(t, ix, iy, iz, 0, 0);\n", gap, p->outputs[gap]);
            }
        sbf(o, "    default: return 0.0;\n    }\n}\n");
        sbf(o, "static float cf_sf_vol(CF_SF_DCTX, int out, int x, int y, int z)\n{\n    switch (out) {\n");
        uint8_t *seen = calloc((size_t)p->noutputs + 1, 1);
        if (!seen) {
            free(outs);
            err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
            return -1;
        }
        for (int i = 0; i < r->nrows; i++)
            for (int k = 3; k <= 4 && r->rows[i].kind == SR_ORE_VEIN; k++) {
                int v = r->rows[i].a[k];
                if (v < 0 || v >= p->noutputs || seen[v]) continue;
                seen[v] = 1;
                want(g, MODE_VOLUME, p->outputs[v]);
                sbf(o, "    case %d: return fV_%d(t, x, y, z, 1, %d);\n", v, p->outputs[v], p->min_y);
            }
        free(seen);
        sbf(o, "    default: return 0.0f;\n    }\n}\n");
        want(g, MODE_VOLUME, p->outputs[CF_B263_SURFACE]);
        sbf(o, "#define CF_SF_LEVEL(x, z) ((void)(x), (void)(z), 0)\n");
        sbf(o, "#define CF_SF_CSL(x, z) fV_%d(t, (x), 0, (z), 1, 0)\n", p->outputs[CF_B263_SURFACE]);
        sbf(o, "#define CF_SF_VOL(out, x, y, z) cf_sf_vol(t, (out), (x), (y), (z))\n");
    }
    free(outs);
    sbf(o, "#define CF_SF_OUT(out, x, y, z) cf_sf_out(CF_SF_DARG, (out), (x), (y), (z))\n");
    sbf(o, "#define CF_SF_CTX CF_SF_DCTX, cf_sf *s\n#define CF_SF_ARG CF_SF_DARG, s\n");
    sbf(o, "%s\n%s\n%s\n", emit_header_biome, emit_header_rules, emit_header_surface);
    sbf(o, "\n__kernel void k_surface(CF_TAB t, __global const int *chunks, int nchunks, __global const float *colf,"
           " __global const float *corf, __global uchar *bout, __global const uchar *sgrid, __global const int *sints,"
           " __global const ulong *sgrad, __global const uchar *spsn, ulong rlo, ulong rhi, long zseed, ulong olo, ulong ohi)\n{\n");
    sbf(o, "    int c = get_global_id(0);\n    if (c >= nchunks) return;\n");
    if (!g) {
        sbf(o, "    __global const double *col = (__global const double *)colf, *cor = (__global const double *)corf;\n");
        sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks;\n");
    } else {
        sbf(o, "    (void)colf, (void)corf;\n    int acx = chunks[2 * c], acz = chunks[2 * c + 1];\n");
    }
    sbf(o, "    cf_sf s_, *s = &s_;\n    s->cx = acx, s->cz = acz, s->zseed = zseed, s->rlo = rlo, s->rhi = rhi, s->olo = olo, s->ohi = ohi;\n");
    sbf(o, "    s->blk = bout + (size_t)c * %zu;\n", (size_t)p->height * 256);
    sbf(o, "    s->bgrid = sgrid + (size_t)c * %zu;\n", (size_t)144 * (size_t)(p->height / 4));
    sbf(o, "    s->ints = sints, s->grad = sgrad, s->psn = spsn;\n");
    sbf(o, "    cf_sf_chunk(CF_SF_ARG);\n}\n");
    return o->oom ? (err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source"), -1) : 0;
}

/* The corner stage's axis tables. Per chunk and per table layer (one layer of one stack
 * that a corner body reads: unshifted noises on the volume path, old_blended_noise's three
 * stacks on the point path) the per-axis halves of the octave (cf_axis, cf_axis_y: scale,
 * wrap, offset, floor, fraction, the smear fudge: all the double math) for each x, z and y
 * value of the corner lattice, computed once by k_axes; a corner's octave is then integer
 * hashing and float lerps only (cf_stack_axes). */
typedef struct ax_tab {
    int n, cap;
    int *layer, *point; /* the world's layer index; 1: the point path's scaling (cf_stack_point) */
    double *sxz, *sy;
} ax_tab;

/* appends stack s's layers; returns the first table layer, -1 when out of memory */
static int ax_add(ax_tab *A, const cf_world *w, int s, int point, double sxz, double sy)
{
    int32_t soff = cf_ld_i32(w->tab + 4);
    int first = cf_ld_i32(w->tab + soff + 8 * s), count = cf_ld_i32(w->tab + soff + 8 * s + 4);
    if (A->n + count > A->cap) {
        int cap = (A->n + count) * 2 + 16;
        int *l = realloc(A->layer, sizeof(int) * (size_t)cap), *pt = l ? realloc(A->point, sizeof(int) * (size_t)cap) : NULL;
        if (l) A->layer = l;
        if (pt) A->point = pt;
        double *a = pt ? realloc(A->sxz, sizeof(double) * (size_t)cap) : NULL, *b = a ? realloc(A->sy, sizeof(double) * (size_t)cap) : NULL;
        if (a) A->sxz = a;
        if (b) A->sy = b;
        if (!b) return -1;
        A->cap = cap;
    }
    int l0 = A->n;
    for (int l = 0; l < count; l++, A->n++)
        A->layer[A->n] = first + l, A->point[A->n] = point, A->sxz[A->n] = sxz, A->sy[A->n] = sy;
    return l0;
}

/* collects the tables of the corner bodies on lattice (w, h) and writes k_axes; 0, or -1 out of memory */
static int axis_tables(gen *g, sb *o, emit_layout *lay, const uint8_t *ext, int w, int h, int ncx, int ncy, int ncz)
{
    const cf_program *p = g->p;
    ax_tab A = {0};
    int rc = 0;
    for (int i = 0; i < p->nnodes; i++) g->axl0[i][0] = g->axl0[i][1] = g->axl0[i][2] = -1;
    for (int k = 0; k < lay->ninterp; k++) {
        const cf_node *nd = &p->nodes[lay->interp[k]];
        if (nd->i[0] != w || nd->i[1] != h) continue;
        mark_body(g, nd->in[0], ext);
        for (int i = 0; i < p->nnodes && rc == 0; i++) {
            const cf_node *n = &p->nodes[i];
            if (!g->mark[i] || g->axl0[i][0] >= 0) continue;
            if (n->kind == NK_NOISE && n->noise >= 0 && n->nin >= 3 && g->w->noise_stack[n->noise] >= 0) {
                int zero = 1;
                for (int c = 0; c < 3; c++) {
                    const cf_node *z = &p->nodes[n->in[c]];
                    zero &= (z->flags & NF_LITERAL) && z->f[0] == 0.0f && !signbit(z->f[0]);
                }
                if (zero && (g->axl0[i][0] = ax_add(&A, g->w, g->w->noise_stack[n->noise], 0, n->d[0], n->d[1])) < 0) rc = -1;
            } else if (n->kind == NK_OLD_BLENDED_NOISE && g->w->node_stack && g->w->node_stack[i] >= 0) {
                /* cf_blended's scales, in its order */
                double xzm = 684.412 * n->d[0], ym = 684.412 * n->d[1];
                int s0 = g->w->node_stack[i];
                if ((g->axl0[i][0] = ax_add(&A, g->w, s0, 1, xzm, ym)) < 0 || (g->axl0[i][1] = ax_add(&A, g->w, s0 + 1, 1, xzm, ym)) < 0
                    || (g->axl0[i][2] = ax_add(&A, g->w, s0 + 2, 1, xzm / n->d[2], ym / n->d[3])) < 0)
                    rc = -1;
            }
        }
    }
    g->axR = 2 * ncx + 2 * ncz, g->axzoff = 2 * ncx, g->axRY = 3 * ncy;
    g->naxy = A.n * g->axRY;
    lay->naxes = A.n * g->axR;
    lay->naxy = g->naxy;
    lay->axitems = A.n * (ncx + ncz);
    lay->axyitems = A.n * ncy;
    if (rc == 0 && A.n > 0) {
        int E = ncx + ncz;
        sbf(o, "\n/* the axis tables of the corner stage (%d table layers, lattice %d x %d x %d): the batch's y records\n"
               " * (every chunk has the same y values) at ax[0], %d ints a layer, then per chunk the x and z records,\n"
               " * %d ints a layer */\n", A.n, w, h, w, g->axRY, g->axR);
        sbf(o, "__constant int ax_layer[%d] = {", A.n);
        for (int l = 0; l < A.n; l++) sbf(o, "%s%d", l ? ", " : "", A.layer[l]);
        sbf(o, "};\n__constant uchar ax_point[%d] = {", A.n);
        for (int l = 0; l < A.n; l++) sbf(o, "%s%d", l ? ", " : "", A.point[l]);
        sbf(o, "};\n__constant double ax_sxz[%d] = {", A.n);
        for (int l = 0; l < A.n; l++) sbf(o, "%s", l ? ", " : ""), dlit(o, A.sxz[l]);
        sbf(o, "};\n__constant double ax_sy[%d] = {", A.n);
        for (int l = 0; l < A.n; l++) sbf(o, "%s", l ? ", " : ""), dlit(o, A.sy[l]);
        sbf(o, "};\n");
        sbf(o, "__kernel void k_axes(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global int *ax)\n{\n");
        sbf(o, "    int gid = get_global_id(0), isy = gid < %d, l, e, c = 0;\n", lay->axyitems);
        sbf(o, "    if (isy) l = gid / %d, e = gid %% %d;\n", ncy, ncy);
        sbf(o, "    else c = (gid - %d) / %d, l = (gid - %d) %% %d / %d, e = (gid - %d) %% %d;\n", lay->axyitems, A.n * E,
            lay->axyitems, A.n * E, E, lay->axyitems, E);
        sbf(o, "    if (c >= nchunks) return;\n");
        sbf(o, "    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * ax_layer[l];\n");
        sbf(o, "    CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly);\n");
        sbf(o, "    double f = cf_ld_f64(ly + 8);\n");
        sbf(o, "    int pt = ax_point[l];\n");
        sbf(o, "    if (!isy) { /* x (e < %d) or z: a record (cell, fraction) */\n", ncx);
        sbf(o, "        __global int *rec = ax + %d + (size_t)c * %d + l * %d;\n", g->naxy, lay->naxes, g->axR);
        sbf(o, "        int isx = e < %d, n = isx ? e : e - %d;\n", ncx, ncx);
        sbf(o, "        int v = ((int)cf_floordiv(chunks[2 * c + (isx ? 0 : 1)] * 16, %d) + n) * %d;\n", w, w);
        sbf(o, "        double s = ax_sxz[l], a = pt ? ((double)v * s) * f : (double)v * (s * f);\n");
        sbf(o, "        float u;\n");
        sbf(o, "        rec[2 * e] = cf_axis(a, cf_ld_f64(o + (isx ? 0 : 16)), &u);\n");
        sbf(o, "        rec[2 * e + 1] = as_int(u);\n");
        sbf(o, "    } else { /* y: (cell, fraction, fade fraction); smeared octaves only on the point path */\n");
        sbf(o, "        __global int *rec = ax + l * %d;\n", g->axRY);
        sbf(o, "        int n = e, v = ((int)cf_floordiv(y0, %d) + n) * %d;\n", h, h);
        sbf(o, "        double s = ax_sy[l], a = pt ? ((double)v * s) * f : (double)v * (s * f);\n");
        sbf(o, "        float fv, fd;\n");
        sbf(o, "        rec[3 * n] = cf_axis_y(a, cf_ld_f64(o + 8), pt ? cf_ld_f64(o + 24) : 0.0, &fv, &fd);\n");
        sbf(o, "        rec[3 * n + 1] = as_int(fv);\n");
        sbf(o, "        rec[3 * n + 2] = as_int(fd);\n");
        sbf(o, "    }\n}\n");
    }
    free(A.layer), free(A.point), free(A.sxz), free(A.sy);
    return rc;
}

char *emit_program(const cf_program *p, const cf_world *w, int fn, emit_layout *lay, cf_error *err)
{
    if (p->dialect == DIALECT_MC121) return emit_program_mc121(p, fn, lay, err);
    if (p->prec == PREC_F64) return emit_program_f64(p, fn, lay, err);
    gen g;
    memset(&g, 0, sizeof g);
    g.p = p;
    g.w = w;
    int n = p->nnodes, root = p->outputs[fn];
    for (int m = 0; m < 3; m++) g.fn[m] = calloc((size_t)n + 1, 1);
    g.work = malloc(sizeof(int) * (size_t)(3 * n + 1));
    g.mark = calloc((size_t)n + 1, 1);
    g.axl0 = malloc(sizeof *g.axl0 * ((size_t)n + 1));
    g.site = malloc(sizeof(int) * ((size_t)n + 1));
    int *svst = malloc(sizeof(int) * (3 * (size_t)n + 1)), *svoff = malloc(sizeof(int) * (3 * (size_t)n + 1));
    uint8_t *ext = calloc((size_t)n + 1, 1), *need = calloc((size_t)n + 1, 1);
    int *cslot = malloc(sizeof(int) * ((size_t)n + 1));
    sb ker = {0};
    if (!g.fn[0] || !g.fn[1] || !g.fn[2] || !g.work || !g.mark || !g.axl0 || !g.site || !svst || !svoff || !ext || !need ||
        !cslot)
        goto nomem;
    for (int i = 0; i < n; i++) g.site[i] = -1;

    /* the interpolated nodes the block stage reads, and the 2-D memo nodes that block
     * and corner bodies read (into the column buffer) */
    memset(lay, 0, sizeof *lay);
    lay->h = p->height;
    mark_body(&g, root, NULL);
    memcpy(need, g.mark, (size_t)n);
    /* the block stage stops at interpolated nodes: their corners come from buffers */
    for (int i = n - 1; i >= 0; i--) {
        if (!need[i]) continue;
        const cf_node *nd = &p->nodes[i];
        if (nd->kind == NK_INTERPOLATED) {
            if (lay->ninterp >= EMIT_MAX_INTERP) {
                err_set(err, CF_ERR_LIMIT, "the device backend handles at most %d interpolated nodes in a fill", EMIT_MAX_INTERP);
                goto fail;
            }
            lay->interp[lay->ninterp++] = i;
        }
    }
    for (int i = 0; i < n; i++) cslot[i] = -1;
    /* column nodes: 2-D memo nodes reached from the block body or a corner body */
    uint8_t *reach = calloc((size_t)n + 1, 1);
    if (!reach) goto nomem;
    for (int k = 0; k < lay->ninterp; k++) reach[p->nodes[lay->interp[k]].in[0]] = 1;
    reach[root] = 1;
    for (int i = n - 1; i >= 0; i--) {
        if (!reach[i]) continue;
        const cf_node *nd = &p->nodes[i];
        if (p->memo[i] == MEMO_COLUMN) {
            if (cslot[i] < 0) cslot[i] = lay->ncol++;
            continue; /* its subgraph runs in k_columns */
        }
        if (is_special(nd)) continue;
        for (int k = 0; k < nd->nin; k++) reach[nd->in[k]] = 1;
    }
    free(reach);
    for (int i = 0; i < n; i++) ext[i] = cslot[i] >= 0 || (p->nodes[i].kind == NK_INTERPOLATED && need[i]);

    sbf(&ker, "/* chunkfill: generated OpenCL C for %s, output %s (seed-independent) */\n", p->settings_id,
        p->output_names[fn]);
    headers(&ker);
    static_tables(&g, &ker);

    /* k_columns: column q of chunk c at (x0 + q % 17, z0 + q / 17) */
    sb *o = &g.out;
    sbf(o, "\n__kernel void k_columns(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global float *col)\n{\n");
    {
        /* only the columns someone reads: the 256 block columns when the block stage
         * reads a column node, and the corner columns of each interpolation cell width.
         * When the block stage reads none and every interpolated node has one cell width w
         * that divides 16, those are the (16 / w + 1)^2 columns x0 + i * w, z0 + j * w of
         * every chunk: only they are launched (lay->colitems); else all 17 x 17 are and
         * each tests its need */
        mark_body(&g, root, ext);
        int block_reads = 0, gw = 0;
        for (int i = 0; i < n; i++) block_reads |= cslot[i] >= 0 && g.mark[i];
        for (int k = 0; k < lay->ninterp; k++) {
            int w = p->nodes[lay->interp[k]].i[0];
            gw = k == 0 ? w : gw == w ? gw : -1;
        }
        if (!block_reads && gw > 0 && 16 % gw == 0) {
            int m = 16 / gw + 1;
            lay->colitems = m * m;
            sbf(o, "    int gid = get_global_id(0), c = gid / %d, r = gid %% %d;\n", m * m, m * m);
            sbf(o, "    if (c >= nchunks) return;\n");
            sbf(o, "    int q = (r / %d) * %d + (r %% %d) * %d; /* the corner columns of cell width %d */\n", m, 17 * gw, m, gw, gw);
            sbf(o, "    int x = chunks[2 * c] * 16 + q %% 17, z = chunks[2 * c + 1] * 16 + q / 17, y = y0, hv = 1, vmin = y0;\n");
            sbf(o, "    (void)y; (void)hv; (void)vmin;\n");
        } else {
            lay->colitems = 289;
            sbf(o, "    int gid = get_global_id(0), c = gid / 289, q = gid %% 289;\n");
            sbf(o, "    if (c >= nchunks) return;\n");
            sbf(o, "    int x = chunks[2 * c] * 16 + q %% 17, z = chunks[2 * c + 1] * 16 + q / 17, y = y0, hv = 1, vmin = y0;\n");
            sbf(o, "    (void)y; (void)hv; (void)vmin;\n");
            sbf(o, "    int need = %d && q %% 17 < 16 && q / 17 < 16;\n", block_reads);
            for (int k = 0; k < lay->ninterp; k++) {
                int w = p->nodes[lay->interp[k]].i[0];
                sbf(o, "    need |= cf_floormod(x, %d) == 0 && cf_floormod(z, %d) == 0;\n", w, w);
            }
            sbf(o, "    if (!need) return;\n");
        }
    }
    {
        /* one straight-line body for every column node: shared subgraphs run once */
        int top = -1;
        uint8_t *all = calloc((size_t)n + 1, 1);
        if (!all) goto nomem;
        for (int i = 0; i < n; i++)
            if (cslot[i] >= 0) {
                mark_body(&g, i, NULL);
                for (int j = 0; j <= i; j++) all[j] |= g.mark[j];
                top = i;
            }
        memcpy(g.mark, all, (size_t)n);
        free(all);
        for (int i = 0; i <= top; i++) {
            if (!g.mark[i]) continue;
            const cf_node *nd = &p->nodes[i];
            src_comment(o, nd, "    ");
            if (nd->kind == NK_SPLINE && !spline_chain(nd)) {
                int np = nd->nfa / 2;
                sbf(o, "    int si%d = cf_spline_index(spl%d, %d, v%d);\n", i, i, np, nd->in[0]);
                sbf(o, "    float sv%d[%d] = {", i, np);
                for (int k = 0; k < np; k++) sbf(o, "%sv%d", k ? ", " : "", nd->in[1 + k]);
                sbf(o, "};\n");
            }
            sbf(o, "    float v%d = ", i);
            expr(&g, o, MODE_VOLUME, i);
            sbf(o, ";\n");
            if (cslot[i] >= 0) sbf(o, "    col[(c * %d + %d) * 289 + q] = v%d;\n", lay->ncol ? lay->ncol : 1, cslot[i], i);
        }
    }
    sbf(o, "}\n");

    /* column values read by a body at (x, z) of chunk c (x0, z0): in the 17 x 17 grid, or computed;
     * INGRID: the body's (x, z) is in the grid by construction (no fallback emitted) */
#define COLREADS(IND, INGRID)                                                                                          \
    for (int i = 0; i < n; i++) {                                                                                      \
        if (cslot[i] < 0 || !g.mark[i]) continue;                                                                      \
        if (INGRID) {                                                                                                  \
            sbf(o, IND "float v%d = col[(c * %d + %d) * 289 + (z - z0) * 17 + (x - x0)];\n", i,                       \
                lay->ncol ? lay->ncol : 1, cslot[i]);                                                                  \
            continue;                                                                                                  \
        }                                                                                                              \
        want(&g, MODE_VOLUME, i);                                                                                      \
        sbf(o, IND "float v%d = (x - x0) >= 0 && (x - x0) <= 16 && (z - z0) >= 0 && (z - z0) <= 16"                    \
                   " ? col[(c * %d + %d) * 289 + (z - z0) * 17 + (x - x0)] : fV_%d(t, x, y, z, hv, vmin);\n",          \
            i, lay->ncol ? lay->ncol : 1, cslot[i], i);                                                                \
    }

    /* the axis tables of the corner bodies on the first interpolated node's lattice */
    int axw = 0, axh = 0;
    if (lay->ninterp > 0) {
        const cf_node *nd = &p->nodes[lay->interp[0]];
        int w = nd->i[0], h = nd->i[1];
        int ncx = 16 % w == 0 ? 16 / w + 1 : 16 / w + 2;
        int ncy = (p->height % h == 0 && p->min_y % h == 0) ? p->height / h + 1 : p->height / h + 2;
        if (axis_tables(&g, o, lay, ext, w, h, ncx, ncy, ncx) < 0) goto nomem;
        axw = w, axh = h;
    }

    /* k_corners_<k>: the input of interpolated node k at corner q of chunk c. Consecutive
     * nodes with the same lattice whose bodies have at most two noise sites (no out-of-line
     * call) share the first one's kernel, each body in its own block (fewer launches; the
     * bodies run one after the other, so the registers are about the largest body's):
     * lay->cmerged[k] = 1 for a node whose corners an earlier kernel writes */
    int open = -1, open_small = 0;
    for (int k = 0; k < lay->ninterp; k++) {
        int id = lay->interp[k];
        const cf_node *nd = &p->nodes[id];
        int w = nd->i[0], h = nd->i[1];
        int ncx = 16 % w == 0 ? 16 / w + 1 : 16 / w + 2, ncz = ncx;
        int ncy = (p->height % h == 0 && p->min_y % h == 0) ? p->height / h + 1 : p->height / h + 2;
        lay->ncx[k] = ncx, lay->ncy[k] = ncy;
        lay->ncorner[k] = ncx * ncy * ncz;
        lay->corner_off[k] = lay->corners;
        lay->corners += (size_t)lay->ncorner[k];
        int axon = w == axw && h == axh && lay->naxes > 0;
        mark_body(&g, nd->in[0], ext);
        int sites = 0;
        if (axon) { /* more than two noise sites: calls (the lazy body may repeat a node per branch) */
            for (int i = 0; i < n; i++) sites += g.mark[i] && g.axl0[i][0] >= 0;
            if (sites > 2) axon = 2;
        }
        /* many sites: in the GPU form, k_stacks_<k> first writes every site's stack at every
         * corner into sv (each stack once, one small kernel), and the body reads the values
         * (CF_SV): no calls in the body, no values live across them (registers). Each distinct
         * (stack, axis layer) once; old_blended_noise: its three stacks */
        int ns = 0;
        if (axon == 2) {
            for (int i = 0; i < n; i++) {
                g.site[i] = -1;
                if (!g.mark[i] || g.axl0[i][0] < 0) continue;
                const cf_node *sn = &p->nodes[i];
                int blended = sn->kind == NK_OLD_BLENDED_NOISE, m = blended ? 3 : 1, first = -1;
                for (int u = 0; u < m; u++) {
                    int st = blended ? g.w->node_stack[i] + u : g.w->noise_stack[sn->noise], off = g.axl0[i][u], f = -1;
                    for (int v = 0; v < ns && !blended; v++)
                        if (svst[v] == st && svoff[v] == off) f = v;
                    if (f < 0) svst[ns] = st, svoff[ns] = off, f = ns++;
                    if (u == 0) first = f;
                }
                g.site[i] = first; /* blended: first, first + 1, first + 2 */
            }
            lay->nsites[k] = ns;
            if (open >= 0) sbf(o, "}\n"); /* not merged: close the open kernel before this one */
            open = -1;
            lay->sv_off[k] = lay->svs;
            lay->svs += (size_t)ns * (size_t)lay->ncorner[k];
            sbf(o, "\n#ifdef CF_GPU\n/* the noise stacks of interpolated node %d's corners: stack sv_st_%d[s] with its axis records\n"
                   " * from table layer sv_l_%d[s] on, at corner q of chunk c (%d stacks x %d corners) */\n", id, k, k, ns, lay->ncorner[k]);
            sbf(o, "__constant int sv_st_%d[%d] = {", k, ns);
            for (int v = 0; v < ns; v++) sbf(o, "%s%d", v ? ", " : "", svst[v]);
            sbf(o, "};\n__constant int sv_l_%d[%d] = {", k, ns);
            for (int v = 0; v < ns; v++) sbf(o, "%s%d", v ? ", " : "", svoff[v]);
            sbf(o, "};\n");
            /* three dimensions (corner, stack, chunk), work groups of EMIT_STACK_WG corners of one
             * stack: the group first copies the stack's permutations into local memory (at most
             * EMIT_LP_LAYERS layers; a longer stack reads them from global memory) */
            sbf(o, "__kernel __attribute__((reqd_work_group_size(%d, 1, 1)))\n"
                   "void k_stacks_%d(CF_TAB t, int nchunks, __global const int *ax, __global float *sv)\n{\n", EMIT_STACK_WG, k);
            sbf(o, "    __local uint lp[%d];\n", 64 * EMIT_LP_LAYERS);
            sbf(o, "    int q = get_global_id(0), s = get_global_id(1), c = get_global_id(2), st = sv_st_%d[s];\n", k);
            sbf(o, "    int inl = cf_stack_lp_load(t, st, lp, %d);\n", EMIT_LP_LAYERS);
            sbf(o, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
            sbf(o, "    if (q >= %d || c >= nchunks) return;\n", lay->ncorner[k]);
            sbf(o, "    int i = q %% %d, j = (q / %d) %% %d, kk = q / %d;\n", ncx, ncx, ncy, ncx * ncy);
            sbf(o, "    __global const int *a = ax + %d + (size_t)c * %d + sv_l_%d[s] * %d, *ay = ax + sv_l_%d[s] * %d;\n", g.naxy,
                lay->naxes, k, g.axR, k, g.axRY);
            sbf(o, "    sv[(size_t)nchunks * %zu + (size_t)c * %d + s * %d + q] = inl ? cf_stack_axes_l(t, st, a, %d, %d, ay, %d, i, j, kk,"
                   " (__local const uchar *)lp)\n        : cf_stack_axes(t, st, a, %d, %d, ay, %d, i, j, kk);\n}\n#endif\n",
                lay->sv_off[k], ns * lay->ncorner[k], lay->ncorner[k], g.axR, g.axzoff, g.axRY, g.axR, g.axzoff, g.axRY);
        }
        int small = axon != 2;
        const cf_node *on = open >= 0 ? &p->nodes[lay->interp[open]] : NULL;
        int merge = on && open_small && small && on->i[0] == w && on->i[1] == h;
        if (!merge) {
            if (open >= 0) sbf(o, "}\n");
            open = k, open_small = small;
            sbf(o, "\n/* corners of interpolated node %d (and of the nodes merged below), cell %d x %d x %d */\n", id, w, h, w);
            sbf(o, "__kernel void k_corners_%d(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *col,"
                   " __global float *corner%s%s)\n{\n", k, lay->naxes > 0 ? ", __global const int *ax" : "",
                ns ? ", __global const float *sv" : "");
            sbf(o, "    int gid = get_global_id(0), c = gid / %d, q = gid %% %d;\n", lay->ncorner[k], lay->ncorner[k]);
            sbf(o, "    if (c >= nchunks) return;\n");
            sbf(o, "    int x0 = chunks[2 * c] * 16, z0 = chunks[2 * c + 1] * 16;\n");
            sbf(o, "    int cx0 = (int)cf_floordiv(x0, %d), cy0 = (int)cf_floordiv(y0, %d), cz0 = (int)cf_floordiv(z0, %d);\n", w, h, w);
            sbf(o, "    int i = q %% %d, j = (q / %d) %% %d, kk = q / %d;\n", ncx, ncx, ncy, ncx * ncy);
            sbf(o, "    int x = (cx0 + i) * %d, y = (cy0 + j) * %d, z = (cz0 + kk) * %d;\n", w, h, w);
            sbf(o, "    int hv = 1, vmin = (int)cf_floordiv(y0, %d) * %d;\n", h, h);
            if (axon) sbf(o, "    __global const int *axc = ax + %d + (size_t)c * %d;\n", g.naxy, lay->naxes);
            else if (lay->naxes > 0) sbf(o, "    (void)ax;\n");
            if (ns) {
                sbf(o, "#ifdef CF_GPU\n    __global const float *svc = sv + (size_t)nchunks * %zu + (size_t)c * %d + q;\n", lay->sv_off[k],
                    ns * lay->ncorner[k]);
                sbf(o, "#define CF_SV(s, call) svc[(s) * %d]\n", lay->ncorner[k]);
                sbf(o, "#define CF_SVB(m, lo, hi, call) cf_blended_vals(svc[(m) * %d], svc[(lo) * %d], svc[(hi) * %d])\n",
                    lay->ncorner[k], lay->ncorner[k], lay->ncorner[k]);
                sbf(o, "#else\n    (void)sv;\n#define CF_SV(s, call) (call)\n#define CF_SVB(m, lo, hi, call) (call)\n#endif\n");
            }
        } else {
            lay->cmerged[k] = 1;
        }
        g.axon = axon;
        sbf(o, "    {\n    /* interpolated node %d */\n", id);
        src_comment(o, nd, "    ");
        /* w divides 16: the corners' x - x0 and z - z0 are 0, w, ..., 16 */
        COLREADS("    ", 16 % w == 0)
        body(&g, o, MODE_VOLUME, nd->in[0], ext, 1);
        g.axon = 0;
        /* the corner buffer of a batch: node k's corners start at nchunks * offset_k */
        sbf(o, "    corner[(size_t)nchunks * %zu + (size_t)c * %d + q] = v%d;\n    }\n", lay->corner_off[k], lay->ncorner[k], nd->in[0]);
        if (ns) sbf(o, "#undef CF_SV\n#undef CF_SVB\n");
        for (int i = 0; i < n; i++) g.site[i] = -1;
    }
    if (open >= 0) sbf(o, "}\n");

    /* k_blocks: block column (x, z) of chunk c walks y upward */
    sbf(o, "\n__kernel void k_blocks(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *col,"
           " __global const float *corner, __global float *out)\n{\n");
    sbf(o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(o, "    if (c >= nchunks) return;\n");
    sbf(o, "    int x0 = chunks[2 * c] * 16, z0 = chunks[2 * c + 1] * 16, x = x0 + q %% 16, z = z0 + q / 16;\n");
    sbf(o, "    int hv = 1, vmin = y0, y = y0; /* y: any height reads a column node */\n");
    mark_body(&g, root, ext);
    COLREADS("    ", 1) /* x - x0, z - z0 in 0..15 */
    for (int k = 0; k < lay->ninterp; k++) {
        int id = lay->interp[k];
        const cf_node *nd = &p->nodes[id];
        int w = nd->i[0], h = nd->i[1];
        sbf(o, "    /* interpolated node %d */\n", id);
        sbf(o, "    int ix%d = (int)cf_floormod(x, %d), iz%d = (int)cf_floormod(z, %d);\n", k, w, k, w);
        sbf(o, "    int ci%d = (int)(cf_floordiv(x, %d) - cf_floordiv(x0, %d)), ck%d = (int)(cf_floordiv(z, %d) - cf_floordiv(z0, %d));\n",
            k, w, w, k, w, w);
        sbf(o, "    int iy%d = (int)cf_floormod(y0, %d), cj%d = 0;\n", k, h, k);
        sbf(o, "    float ax%d = (float)ix%d * (1.0f / (float)%d), az%d = (float)iz%d * (1.0f / (float)%d);\n", k, k, w, k, k, w);
        sbf(o, "    __global const float *cb%d = corner + (size_t)nchunks * %zu + (size_t)c * %d;\n", k, lay->corner_off[k], lay->ncorner[k]);
        sbf(o, "    float run%d = 0.0f, stp%d = 0.0f;\n", k, k);
    }
    sbf(o, "    for (int yi = 0; yi < %d; yi++) {\n", p->height);
    sbf(o, "        int y = y0 + yi;\n");
    for (int k = 0; k < lay->ninterp; k++) {
        int id = lay->interp[k];
        const cf_node *nd = &p->nodes[id];
        int h = nd->i[1], ncx = lay->ncx[k], ncy = lay->ncy[k];
        sbf(o, "        if (yi == 0 || iy%d == 0) {\n", k);
        sbf(o, "            __global const float *c0 = cb%d + (ck%d * %d + cj%d) * %d + ci%d;\n", k, k, ncy, k, ncx, k);
        sbf(o, "            float v000 = c0[0], v100 = c0[1], v010 = c0[%d], v110 = c0[%d];\n", ncx, ncx + 1);
        sbf(o, "            float v001 = c0[%d], v101 = c0[%d], v011 = c0[%d], v111 = c0[%d];\n", ncx * ncy, ncx * ncy + 1,
            ncx * ncy + ncx, ncx * ncy + ncx + 1);
        sbf(o, "            float v00 = cf_lerpf(az%d, v000, v001), v01 = cf_lerpf(az%d, v010, v011);\n", k, k);
        sbf(o, "            float v10 = cf_lerpf(az%d, v100, v101), v11 = cf_lerpf(az%d, v110, v111);\n", k, k);
        sbf(o, "            float a = cf_lerpf(ax%d, v00, v10), b = cf_lerpf(ax%d, v01, v11);\n", k, k);
        sbf(o, "            stp%d = (b - a) * (1.0f / (float)%d);\n", k, h);
        sbf(o, "            run%d = a + stp%d * (float)iy%d;\n", k, k, k);
        sbf(o, "        } else {\n            run%d = run%d + stp%d;\n        }\n", k, k, k);
        sbf(o, "        float v%d = run%d;\n", id, k);
        sbf(o, "        if (++iy%d == %d) iy%d = 0, cj%d++;\n", k, h, k, k);
    }
    body(&g, o, MODE_VOLUME, root, ext, 2);
    sbf(o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = v%d;\n", p->height, root);
    sbf(o, "    }\n}\n");
#undef COLREADS

    if (p->blocks && fn == 0 && aquifer_kernels(&g, o, lay) < 0) goto nomem;
    if (p->blocks && fn == 0 && p->rules && p->dialect == DIALECT_MC263 && p->noutputs > CF_B263_SURFACE &&
        surface_kernel(p, &g, o, lay, err) < 0)
        goto fail;

    /* the functions the bodies asked for (and those they ask for in turn) */
    sb kernels = g.out;
    memset(&g.out, 0, sizeof g.out);
    for (int i = 0; i < g.nwork; i++) {
        int m = g.work[i] / n, id = g.work[i] % n;
        if (g.fn[m][id] == FN_DONE) continue;
        g.fn[m][id] = FN_DONE;
        function(&g, m, id);
    }
    sbf(&ker, "\n/* prototypes */\n");
    if (g.protos.s) sbf(&ker, "%s", g.protos.s);
    if (g.out.s) sbf(&ker, "%s", g.out.s);
    if (kernels.s) sbf(&ker, "%s", kernels.s);
    if (ker.oom || g.out.oom || kernels.oom || g.protos.oom) {
        free(kernels.s);
        goto nomem;
    }
    free(kernels.s);
    free(g.out.s);
    free(g.protos.s);
    for (int m = 0; m < 3; m++) free(g.fn[m]);
    free(g.work), free(g.mark), free(g.axl0), free(g.site), free(svst), free(svoff), free(ext), free(need), free(cslot);
    return ker.s;
nomem:
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
fail:
    free(ker.s);
    free(g.out.s);
    free(g.protos.s);
    for (int m = 0; m < 3; m++) free(g.fn[m]);
    free(g.work), free(g.mark), free(g.axl0), free(g.site), free(svst), free(svoff), free(ext), free(need), free(cslot);
    return NULL;
}

/* ------------------------------------------------------------------ biomes
 * The biome program (host/biome/device.c): the climate outputs of p on the point path
 * and (26.3) the volume path, quantized and looked up in the RTree table
 * (kernels/cf_biome.h) like host/biome/source.c does. end: p's output 0 is the End's
 * erosion and the TheEndBiomeSource rule replaces the tree.
 *   k_biome_quarts(t, tree, q, n, out): out[i] = biome of quart (q[3i], q[3i+1], q[3i+2]),
 *     the point path, a cold search;
 *   k_biome_chunks(t, tree, chunks, n, qy0, ny, out): one work item per chunk, vanilla's
 *     fill order with the warm start (26.3: the volume path), out[((c*ny + y)*4 + z)*4 + x].
 * The dialect's part defines cf_bfield(t, k, path, x, y, z, vmin) (field k as the float the
 * source quantizes) and cf_bend(t, x, y, z) (the End's erosion as a double). */
static void biome_kernels(sb *o, int end, int volume)
{
    sbf(o, "\n/* ---- biomes (kernels/cf_biome.h) */\n%s\n", emit_header_biome);
    sbf(o, "static int cf_bquart(CF_TAB t, __global const int *tree, int path, int qx, int qy, int qz, int vmin, int *warm)\n{\n");
    sbf(o, "    int x = (int)((uint)qx << 2), y = (int)((uint)qy << 2), z = (int)((uint)qz << 2);\n");
    if (end) {
        sbf(o, "    (void)tree; (void)path; (void)vmin; (void)warm;\n");
        sbf(o, "    int cx = x >> 4, cz = z >> 4;\n");
        sbf(o, "    if ((long)cx * cx + (long)cz * cz <= 4096) return CF_BE_THE_END;\n");
        sbf(o, "    return cf_b_end(cx, cz, cf_bend(t, (int)((uint)cx * 16u + 8u), y, (int)((uint)cz * 16u + 8u)));\n}\n");
    } else {
        sbf(o, "    long q[6];\n");
        sbf(o, "    for (int k = 0; k < 6; k++) q[k] = cf_b_quantize(cf_bfield(t, k, path, x, y, z, vmin));\n");
        sbf(o, "    long fit;\n    int leaf = cf_b_search(tree, q, *warm, &fit);\n    *warm = leaf;\n");
        sbf(o, "    return cf_b_leaf_value(tree, leaf);\n}\n");
    }
    sbf(o, "\n__kernel void k_biome_quarts(CF_TAB t, __global const int *tree, __global const int *q, int n, __global uchar *out)\n{\n");
    sbf(o, "    int i = get_global_id(0), warm = -1;\n    if (i >= n) return;\n");
    sbf(o, "    out[i] = (uchar)cf_bquart(t, tree, 0, q[3 * i], q[3 * i + 1], q[3 * i + 2], 0, &warm);\n}\n");
    sbf(o, "\n__kernel void k_biome_chunks(CF_TAB t, __global const int *tree, __global const int *chunks, int n, int qy0, int ny,"
           " __global uchar *out)\n{\n");
    sbf(o, "    int c = get_global_id(0), warm = -1, vmin = (int)((uint)qy0 << 2);\n    if (c >= n) return;\n");
    sbf(o, "    int qx0 = chunks[2 * c] * 4, qz0 = chunks[2 * c + 1] * 4;\n");
    sbf(o, "    for (int s = 0; s < ny; s += 4)\n        for (int x = 0; x < 4; x++)\n");
    sbf(o, "            for (int y = s; y < s + 4 && y < ny; y++)\n                for (int z = 0; z < 4; z++)\n");
    sbf(o, "                    out[(((size_t)c * ny + y) * 4 + z) * 4 + x] = (uchar)cf_bquart(t, tree, %d, qx0 + x, qy0 + y, qz0 + z, vmin, &warm);\n}\n",
        volume && !end);
}

/* 1.18-1.21 (double): the fields' point functions of the 1.21 generator, cast to float */
static char *emit_biome_program_mc121(const cf_program *p, int end, cf_error *err)
{
    int n = p->nnodes, nf = end ? 1 : 6;
    uint8_t *need = calloc((size_t)n + 1, 1);
    sb o = {0};
    if (!need || p->noutputs < nf) goto nomem;
    for (int k = 0; k < nf; k++) need[p->outputs[k]] = 1;
    for (int i = n - 1; i >= 0; i--)
        if (need[i])
            for (int k = 0; k < p->nodes[i].nin; k++) need[p->nodes[i].in[k]] = 1;
    sbf(&o, "/* chunkfill: generated OpenCL C for the biomes of %s (Minecraft 1.18-1.21, double, seed-independent) */\n",
        p->settings_id);
    sbf(&o, "%s\n%s\n%s\n", emit_header_math, emit_header_nodes, emit_header_mc121);
    /* the point functions take the chunk-fill arguments of the 1.21 generator; unused here */
    sbf(&o, "#define CF21_ARGS __global const double *col, __global const double *cor, int c, int nch, int cx, int cz\n");
    sbf(&o, "#define CF21_PASS col, cor, c, nch, cx, cz\n\n");
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        if (!need[i]) continue;
        if (nd->kind == NK_M_SPLINE) {
            sbf(&o, "__constant double sp%d[%d] = {", i, nd->nda);
            for (int k = 0; k < nd->nda; k++) sbf(&o, "%s", k ? ", " : ""), dlit(&o, nd->da[k]);
            sbf(&o, "};\n");
        }
        src_comment(&o, nd, "");
        sbf(&o, "static double n%d_p(CF_TAB t, CF21_ARGS, double x, double y, double z)\n{\n", i);
        sbf(&o, "    (void)t, (void)col, (void)cor, (void)c, (void)nch, (void)cx, (void)cz, (void)x, (void)y, (void)z;\n");
        o.m21 = 'p'; /* markers (flat_cache, interpolated, ...) pass their input through on this path */
        emits64[nd->kind](&o, nd, i);
        sbf(&o, "}\n");
    }
    sbf(&o, "\n#define CF21_NONE 0, 0, 0, 0, 0, 0\n");
    sbf(&o, "static float cf_bfield(CF_TAB t, int k, int path, int x, int y, int z, int vmin)\n{\n    (void)path; (void)vmin;\n");
    for (int k = 0; k < nf; k++)
        sbf(&o, "    if (k == %d) return (float)n%d_p(t, CF21_NONE, (double)x, (double)y, (double)z);\n", k, p->outputs[k]);
    sbf(&o, "    return 0.0f;\n}\n");
    sbf(&o, "static double cf_bend(CF_TAB t, int x, int y, int z) { return n%d_p(t, CF21_NONE, (double)x, (double)y, (double)z); }\n",
        p->outputs[0]);
    biome_kernels(&o, end, 0);
    if (o.oom) goto nomem;
    free(need);
    return o.s;
nomem:
    free(o.s);
    free(need);
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
    return NULL;
}

char *emit_biome_program(const cf_program *p, const cf_world *w, int end, cf_error *err)
{
    if (p->dialect == DIALECT_MC121) return emit_biome_program_mc121(p, end, err);
    gen g;
    memset(&g, 0, sizeof g);
    g.p = p;
    g.w = w;
    int n = p->nnodes, nf = end ? 1 : 6;
    sb ker = {0};
    for (int m = 0; m < 3; m++) g.fn[m] = calloc((size_t)n + 1, 1);
    g.work = malloc(sizeof(int) * (size_t)(3 * n + 1));
    g.mark = calloc((size_t)n + 1, 1);
    if (!g.fn[0] || !g.fn[1] || !g.fn[2] || !g.work || !g.mark || p->noutputs < nf) goto nomem;
    sbf(&ker, "/* chunkfill: generated OpenCL C for the biomes of %s (seed-independent) */\n", p->settings_id);
    headers(&ker);
    static_tables(&g, &ker);
    sb *o = &g.out;
    sbf(o, "\nstatic float cf_bfield(CF_TAB t, int k, int path, int x, int y, int z, int vmin)\n{\n");
    for (int k = 0; k < nf; k++) {
        want(&g, MODE_POINT, p->outputs[k]);
        if (!end) want(&g, MODE_VOLUME, p->outputs[k]);
        if (end)
            sbf(o, "    if (k == %d) return fP_%d(t, x, y, z, 0, 0);\n", k, p->outputs[k]);
        else
            sbf(o, "    if (k == %d) return path ? fV_%d(t, x, y, z, 1, vmin) : fP_%d(t, x, y, z, 0, 0);\n", k, p->outputs[k],
                p->outputs[k]);
    }
    sbf(o, "    (void)path; (void)vmin;\n    return 0.0f;\n}\n");
    sbf(o, "static double cf_bend(CF_TAB t, int x, int y, int z) { return (double)fP_%d(t, x, y, z, 0, 0); }\n", p->outputs[0]);
    biome_kernels(o, end, 1);
    sb kernels = g.out;
    memset(&g.out, 0, sizeof g.out);
    for (int i = 0; i < g.nwork; i++) {
        int m = g.work[i] / n, id = g.work[i] % n;
        if (g.fn[m][id] == FN_DONE) continue;
        g.fn[m][id] = FN_DONE;
        function(&g, m, id);
    }
    sbf(&ker, "\n/* prototypes */\n");
    if (g.protos.s) sbf(&ker, "%s", g.protos.s);
    if (g.out.s) sbf(&ker, "%s", g.out.s);
    if (kernels.s) sbf(&ker, "%s", kernels.s);
    int oom = ker.oom || g.out.oom || kernels.oom || g.protos.oom;
    free(kernels.s);
    free(g.out.s);
    free(g.protos.s);
    for (int m = 0; m < 3; m++) free(g.fn[m]);
    free(g.work), free(g.mark);
    if (oom) {
        free(ker.s);
        err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
        return NULL;
    }
    return ker.s;
nomem:
    for (int m = 0; m < 3; m++) free(g.fn[m]);
    free(g.work), free(g.mark);
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
    return NULL;
}
