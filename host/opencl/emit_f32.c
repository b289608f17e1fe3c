/* emit_f32.c - the 26.3 float expressions of the generated OpenCL (emit.c's program and the
 * biome program, host/biome/program.c).
 *
 * Input: a compiled 26.3 program and the table layout of a seed binding (stack and octave
 * indices). Output, into the generator context (gen): each node's value as an OpenCL C
 * expression with its children as v<child>; straight-line bodies (every node once,
 * eagerly: both sides of a choice, as nodes are pure) and lazy bodies (a choice evaluates
 * the side it takes); one function f<mode>_<node> per (node, path) that needs one:
 * `interpolated`, slices, find_top_surface and whatever they reach. Every node's code is
 * preceded by a comment naming its source (file#pointer). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/emit_gen.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_iris.h"

static const char gen_mode_ch[3] = {'S', 'P', 'V'}; /* the function name letter of a mode: f<ch>_<node> */

int gen_is_special(const cf_node *n)
{
    return n->kind == NK_INTERPOLATED || n->kind == NK_FIND_TOP_SURFACE || n->kind == NK_SLICE;
}
static int is_lit(const gen *g, int id) { return (g->p->nodes[id].flags & NF_LITERAL) != 0; }

void gen_want(gen *g, int mode, int id)
{
    if (g->fn[mode][id] == FN_NONE) {
        g->fn[mode][id] = FN_WANTED;
        g->work[g->nwork++] = mode * g->p->nnodes + id;
        sbf(&g->protos, "static float f%c_%d(CF_TAB t, int x, int y, int z, int hv, int vmin);\n", gen_mode_ch[mode], id);
    }
}

/* A spline as a chain of comparisons: the first point k with c < loc_k picks the segment
 * k-1 (before the first point and from the last one on: the extensions; a NaN c compares
 * false everywhere and takes the last extension), which is what cf_spline_index's binary
 * search finds when the locations are sorted. Literal locations and derivatives, no table,
 * no array of point values (a private array indexed per lane lives in scratch memory). */
int gen_spline_chain(const cf_node *n)
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

/* the ops of kernels/cf_nodes_ops.h by kind: name and arity (no name: the kind has no op) */
static const struct {
    const char *name;
    int arity;
} op_info[NK_COUNT] = {
#define CF_OP_INFO(K, N, USE, E) [NK_##K] = {#K, N},
    CF_OPS(CF_OP_INFO)
#undef CF_OP_INFO
};

/* the call of kind's op on the node's first inputs: cf_op_K(v<in0>, ...) */
static void op_call(sb *b, int kind, const int *in)
{
    sbf(b, "cf_op_%s(", op_info[kind].name);
    for (int k = 0; k < op_info[kind].arity; k++) sbf(b, "%sv%d", k ? ", " : "", in[k]);
    sbf(b, ")");
}

/* the value expression of node n in `mode`, children as v<child> */
void gen_expr(gen *g, sb *b, int mode, int id)
{
    const cf_program *p = g->p;
    const cf_node *n = &p->nodes[id];
    int *in = n->in;
#define V(k) sbf(b, "v%d", in[k])
    switch (n->kind) {
    case NK_CONSTANT: case NK_BLEND_ALPHA: case NK_BLEND_OFFSET: case NK_BEARDIFIER: flit(b, n->f[0]); break;
#define CF_OP_NODE_CASE(K, N) case NK_##K:
        CF_OPS(CF_OP_NODES) /* a kind whose value is its op: cf_op_K(inputs) */
#undef CF_OP_NODE_CASE
        op_call(b, n->kind, in);
        break;
    case NK_MUL:
        if (mode != MODE_VOLUME && !is_lit(g, in[0]) && !is_lit(g, in[1])) sbf(b, "v%d == 0.0f ? 0.0f : ", in[0]);
        op_call(b, NK_MUL, in);
        break;
    case NK_DIV:
        if (is_lit(g, in[1])) {
            sbf(b, "cf_op_MUL(v%d, ", in[0]), flit(b, 1.0f / p->nodes[in[1]].f[0]), sbf(b, ")");
            break;
        }
        if (mode != MODE_VOLUME && !is_lit(g, in[0])) sbf(b, "v%d == 0.0f ? 0.0f : ", in[0]);
        op_call(b, NK_DIV, in);
        break;
    case NK_MIN: case NK_MAX:
        if (mode == MODE_VOLUME) op_call(b, n->kind, in);
        else sbf(b, "cf_j%sf(v%d, v%d)", n->kind == NK_MIN ? "min" : "max", in[0], in[1]);
        break;
    case NK_CLAMP:
        sbf(b, "cf_op_CLAMP(v%d, ", in[0]), flit(b, n->f[0]), sbf(b, ", "), flit(b, n->f[1]), sbf(b, ")");
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
    case NK_LERP: op_call(b, NK_LERP, in); break;
    case NK_GRADIENT: {
        const char *c = n->i[0] == 0 ? "x" : n->i[0] == 1 ? "y" : "z";
        sbf(b, "cf_gradient((long)%s, %dL, %dL, ", c, n->i[1], n->i[2]);
        flit(b, n->f[0]), sbf(b, ", "), flit(b, n->f[1]), sbf(b, ", %d)", n->i[3]);
        break;
    }
    case NK_DISTANCE_TO_POINT: sbf(b, "cf_distance(%d, %d, %d, x, y, z, %d)", n->i[0], n->i[1], n->i[2], n->i[3]); break;
    case NK_SPLINE: {
        int np = n->nfa / 2;
        if (gen_spline_chain(n)) {
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
        gen_want(g, mode, id);
        sbf(b, "f%c_%d(t, x, y, z, hv, vmin)", gen_mode_ch[mode], id);
        break;
    }
#undef V
}

/* marks the nodes a straight-line body of root needs: stops at ext nodes and at
 * special nodes (whose children their functions evaluate) */
void gen_mark_body(gen *g, int root, const uint8_t *ext)
{
    const cf_program *p = g->p;
    memset(g->mark, 0, (size_t)p->nnodes);
    g->mark[root] = 1;
    for (int i = root; i >= 0; i--) {
        if (!g->mark[i] || (ext && ext[i])) continue;
        const cf_node *n = &p->nodes[i];
        if (gen_is_special(n)) continue;
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
        ind(L), sbf(b, "v%d = ", id), op_call(b, NK_LERP, in), sbf(b, ";\n"), close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    } else if (n->kind == NK_SPLINE && gen_spline_chain(n)) {
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
        open_block(L), lazy_node(L, in[1]), ind(L), sbf(b, "v%d = ", id), op_call(b, NK_MUL, in), sbf(b, ";\n");
        close_block(L);
        ind(L), sbf(b, "}\n");
        branch = 1;
    }
    if (branch) {
        define(L, id);
        return;
    }
    if (!gen_is_special(n))
        for (int k = 0; k < n->nin; k++) lazy_node(L, in[k]);
    ind(L), src_comment(b, n, "");
    if (n->kind == NK_SPLINE && !gen_spline_chain(n)) {
        int np = n->nfa / 2;
        ind(L), sbf(b, "int si%d = cf_spline_index(spl%d, %d, v%d);\n", id, id, np, in[0]);
        ind(L), sbf(b, "float sv%d[%d] = {", id, np);
        for (int k = 0; k < np; k++) sbf(b, "%sv%d", k ? ", " : "", in[1 + k]);
        sbf(b, "};\n");
    }
    ind(L), sbf(b, "float v%d = ", id);
    gen_expr(g, b, L->mode, id);
    sbf(b, ";\n");
    define(L, id);
}

/* emits the code defining v<root> (and what it needs) at indentation depth `depth`;
 * ext nodes are assumed defined */
void gen_body(gen *g, sb *b, int mode, int root, const uint8_t *ext, int depth)
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
static void gen_function(gen *g, int mode, int id)
{
    const cf_program *p = g->p;
    const cf_node *n = &p->nodes[id];
    sb *b = &g->out;
    sbf(b, "\nstatic float f%c_%d(CF_TAB t, int x, int y, int z, int hv, int vmin)\n{\n", gen_mode_ch[mode], id);
    sbf(b, "    (void)x; (void)y; (void)z; (void)hv; (void)vmin;\n");
    src_comment(b, n, "    ");
    if (n->kind == NK_SLICE) {
        int c = n->in[0];
        gen_want(g, mode, c);
        const char *xs = n->i[0] == 0 ? "%d, y, z" : n->i[0] == 1 ? "x, %d, z" : "x, y, %d";
        char args[64];
        snprintf(args, sizeof args, xs, n->i[1]);
        /* the child's function evaluates its own subgraph */
        sbf(b, "    return f%c_%d(t, %s, hv, vmin);\n}\n", gen_mode_ch[mode], c, args);
        return;
    }
    if (n->kind == NK_FIND_TOP_SURFACE) {
        int probe = mode == MODE_VOLUME ? MODE_POINT : mode;
        gen_want(g, mode, n->in[1]);
        gen_want(g, probe, n->in[0]);
        sbf(b, "    float u = f%c_%d(t, x, 0, z, hv, vmin);\n", gen_mode_ch[mode], n->in[1]);
        sbf(b, "    int ch = %d, lower = %d;\n", n->i[1], n->i[0]);
        sbf(b, "    int top = (int)((uint)cf_jfloor((double)(u / (float)ch)) * (uint)ch);\n");
        sbf(b, "    if (top <= lower) return (float)lower;\n");
        sbf(b, "    for (long yy = top; yy >= lower; yy -= ch)\n");
        sbf(b, "        if (f%c_%d(t, x, (int)yy, z, hv, vmin) > 0.0f) return (float)yy;\n", gen_mode_ch[probe], n->in[0]);
        sbf(b, "    return (float)lower;\n}\n");
        return;
    }
    if (n->kind == NK_INTERPOLATED) {
        int c = n->in[0], w = n->i[0], h = n->i[1];
        gen_want(g, MODE_VOLUME, c);
        sbf(b, "    int w = %d, h = %d;\n", w, h);
        sbf(b, "    int ix = (int)cf_floormod(x, w), iy = (int)cf_floormod(y, h), iz = (int)cf_floormod(z, w);\n");
        if (mode == MODE_POINT) {
            gen_want(g, MODE_POINT, c);
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
    gen_body(g, b, mode, id, NULL, 1);
    sbf(b, "    return v%d;\n}\n", id);
}

#ifdef CF_FAULT_INJECTION
int emit_test_break; /* test builds only (CF_FAULT_INJECTION, like device.c's fault()) */
#else
#define emit_test_break 0
#endif

/* the embedded kernels/ headers, without their #include lines */
void gen_headers(sb *b)
{
    sbf(b, "%s\n", emit_header_math);
    sbf(b, "%s\n", emit_header_nodes);
    if (emit_test_break) /* a deliberately inexact program (tests): the generated lerps fused */
        sbf(b, "#define cf_lerpf(t, a, b) fma((t), (b) - (a), (a))\n");
}

void gen_static_tables(gen *g, sb *b)
{
    const cf_program *p = g->p;
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->kind != NK_SPLINE || gen_spline_chain(n)) continue;
        sbf(b, "__constant float spl%d[%d] = {", i, n->nfa);
        for (int k = 0; k < n->nfa; k++) {
            if (k) sbf(b, ", ");
            flit(b, n->fa[k]);
        }
        sbf(b, "};\n");
    }
}
int gen_open(gen *g, const cf_program *p, const cf_world *w)
{
    memset(g, 0, sizeof *g);
    g->p = p;
    g->w = w;
    int n = p->nnodes;
    for (int m = 0; m < 3; m++) g->fn[m] = calloc((size_t)n + 1, 1);
    g->work = malloc(sizeof(int) * (size_t)(3 * n + 1));
    g->mark = calloc((size_t)n + 1, 1);
    return g->fn[0] && g->fn[1] && g->fn[2] && g->work && g->mark ? 0 : -1;
}

void gen_close(gen *g)
{
    free(g->out.s);
    free(g->protos.s);
    for (int m = 0; m < 3; m++) free(g->fn[m]);
    free(g->work), free(g->mark), free(g->axl0), free(g->site);
    memset(g, 0, sizeof *g);
}

static void gen_functions(gen *g)
{
    int n = g->p->nnodes;
    for (int i = 0; i < g->nwork; i++) {
        int m = g->work[i] / n, id = g->work[i] % n;
        if (g->fn[m][id] == FN_DONE) continue;
        g->fn[m][id] = FN_DONE;
        gen_function(g, m, id);
    }
}

int gen_finish(gen *g, sb *ker)
{
    sb kernels = g->out;
    memset(&g->out, 0, sizeof g->out);
    gen_functions(g);
    sbf(ker, "\n/* prototypes */\n");
    if (g->protos.s) sbf(ker, "%s", g->protos.s);
    if (g->out.s) sbf(ker, "%s", g->out.s);
    if (kernels.s) sbf(ker, "%s", kernels.s);
    int oom = ker->oom || g->out.oom || kernels.oom || g->protos.oom;
    free(kernels.s);
    return oom ? -1 : 0;
}
