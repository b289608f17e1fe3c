/* emit.c - OpenCL C generation from the fill plan (the device backend's front half).
 *
 * Input: a compiled program, the output to fill, and the table layout of a
 * seed binding (stack and octave indices do not depend on the seed). Output: one
 * OpenCL C source (malloc'd), independent of the seed. emit_program picks the
 * dialect's generator: 1.18-1.21 (emit_mc121.c), the other double dialects
 * (emit_f64.c), or the 26.3 program here, made in steps, each a function below:
 *   plan            the interpolated nodes the block stage reads and the column nodes
 *                   (2-D memo nodes a block or corner body reads, into the column buffer);
 *   columns_kernel  k_columns: every column node once per column of a chunk that a body
 *                   reads (a 17 x 17 buffer; only the corner columns when that is all);
 *   corner_axes     k_axes (axis_tables): the corner stage's per-axis tables: for each octave
 *                   a corner body reads (unshifted noises, old_blended_noise), the double half
 *                   of the octave (scale, wrap, offset, floor, fraction, smear fudge) once per
 *                   x and z value of a chunk's corner lattice and once per batch for its y values;
 *   corner_kernels  k_corners_<n>: the input of interpolated node n at each cell corner (its
 *                   octaves: integer hashing and float lerps over the axis tables,
 *                   cf_stack_axes); small ones share a kernel; with many noise sites, in the
 *                   GPU form (CF_GPU) k_stacks_<n> (stacks_kernel) first writes each stack's
 *                   value at every corner and the body reads them;
 *   blocks_kernel   k_blocks: one work item per block column walks y upward, interpolating
 *                   like vanilla (z, x, then a float step per y) and evaluating the nodes above;
 * then the block fills' kernels (emit_blocks.c) and the functions the bodies asked for
 * (emit_f32.c: the expressions, the bodies, the f<mode>_<node> functions).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/emit_gen.h"
#include "kernels/cf_nodes.h"

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
        gen_mark_body(g, nd->in[0], ext);
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

/* one 26.3 program between its steps */
typedef struct prog32 {
    gen g;
    const cf_program *p;
    emit_layout *lay;
    int n, root;
    uint8_t *ext;      /* nodes a body reads from a buffer: column nodes, interpolated nodes the blocks read */
    uint8_t *need;     /* nodes the block stage's body reaches */
    int *cslot;        /* a column node's slot in the column buffer, else -1 */
    int *svst, *svoff; /* k_stacks_<k>: each value's stack and first table layer */
    int axw, axh;      /* the lattice of the axis tables (0: none) */
} prog32;

#define P_LOCALS                                                                                                       \
    gen *g = &P->g;                                                                                                    \
    const cf_program *p = P->p;                                                                                        \
    emit_layout *lay = P->lay;                                                                                         \
    int n = P->n;                                                                                                      \
    (void)g, (void)p, (void)lay, (void)n

/* the interpolated nodes the block stage reads, and the 2-D memo nodes that block
 * and corner bodies read (into the column buffer); 0, or -1 with err set */
static int plan(prog32 *P, cf_error *err)
{
    P_LOCALS;
    int root = P->root, *cslot = P->cslot;
    uint8_t *need = P->need, *ext = P->ext;
    memset(lay, 0, sizeof *lay);
    lay->h = p->height;
    /* interpolated under interpolated: a corner function would compute each corner's
     * corners again (8^depth a corner; a chain of 8 took minutes a chunk on PoCL); the CPU
     * computes each corner once (eval.c's corner map) */
    memset(g->mark, 0, (size_t)n);
    g->mark[root] = 1;
    for (int i = root; i >= 0; i--)
        for (int k = 0; g->mark[i] && k < p->nodes[i].nin; k++)
            if (p->nodes[i].in[k] >= 0) g->mark[p->nodes[i].in[k]] = 1;
    for (int i = 0; i < n; i++)
        if (g->mark[i] && p->nodes[i].kind == NK_INTERPOLATED && p->nodes[i].inest >= 2) {
            char ptr[256];
            return err_set(err, CF_ERR_LIMIT,
                           "%s#%s: interpolated under interpolated runs on the CPU only (--device cpu): the device "
                           "would compute the corners of every corner again",
                           p->nodes[i].loc.file, ptr_text(p->nodes[i].loc.ptr, ptr, sizeof ptr)),
                   -1;
        }
    for (int i = 0; i < n; i++) /* every node, whichever stage computes it */
        if (emit_table_limit(&p->nodes[i], err) < 0) return -1;
    gen_mark_body(g, root, NULL);
    memcpy(need, g->mark, (size_t)n);
    /* the block stage stops at interpolated nodes: their corners come from buffers */
    for (int i = n - 1; i >= 0; i--) {
        if (!need[i]) continue;
        const cf_node *nd = &p->nodes[i];
        if (nd->kind == NK_INTERPOLATED) {
            if (lay->ninterp >= EMIT_MAX_INTERP) {
                err_set(err, CF_ERR_LIMIT, "the device backend handles at most %d interpolated nodes in a fill", EMIT_MAX_INTERP);
                return -1;
            }
            lay->interp[lay->ninterp++] = i;
        }
    }
    for (int i = 0; i < n; i++) cslot[i] = -1;
    /* column nodes: 2-D memo nodes reached from the block body or a corner body */
    uint8_t *reach = calloc((size_t)n + 1, 1);
    if (!reach) return err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source"), -1;
    for (int k = 0; k < lay->ninterp; k++) reach[p->nodes[lay->interp[k]].in[0]] = 1;
    reach[root] = 1;
    for (int i = n - 1; i >= 0; i--) {
        if (!reach[i]) continue;
        const cf_node *nd = &p->nodes[i];
        if (p->memo[i] == MEMO_COLUMN) {
            if (cslot[i] < 0) cslot[i] = lay->ncol++;
            continue; /* its subgraph runs in k_columns */
        }
        if (gen_is_special(nd)) continue;
        for (int k = 0; k < nd->nin; k++) reach[nd->in[k]] = 1;
    }
    free(reach);
    for (int i = 0; i < n; i++) ext[i] = cslot[i] >= 0 || (p->nodes[i].kind == NK_INTERPOLATED && need[i]);
    return 0;
}

/* k_columns: column q of chunk c at (x0 + q % 17, z0 + q / 17); 0, or -1 out of memory */
static int columns_kernel(prog32 *P)
{
    P_LOCALS;
    sb *o = &g->out;
    int root = P->root, *cslot = P->cslot;
    const uint8_t *ext = P->ext;
    sbf(o, "\n__kernel void k_columns(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global float *col)\n{\n");
    {
        /* only the columns someone reads: the 256 block columns when the block stage
         * reads a column node, and the corner columns of each interpolation cell width.
         * When the block stage reads none and every interpolated node has one cell width w
         * that divides 16, those are the (16 / w + 1)^2 columns x0 + i * w, z0 + j * w of
         * every chunk: only they are launched (lay->colitems); else all 17 x 17 are and
         * each tests its need */
        gen_mark_body(g, root, ext);
        int block_reads = 0, gw = 0;
        for (int i = 0; i < n; i++) block_reads |= cslot[i] >= 0 && g->mark[i];
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
        if (!all) return -1;
        for (int i = 0; i < n; i++)
            if (cslot[i] >= 0) {
                gen_mark_body(g, i, NULL);
                for (int j = 0; j <= i; j++) all[j] |= g->mark[j];
                top = i;
            }
        if (n > 0) /* gcc 12 -O2 inlined here reads n < 0 as a huge size (-Wstringop-overflow) */
            memcpy(g->mark, all, (size_t)n);
        free(all);
        for (int i = 0; i <= top; i++) {
            if (!g->mark[i]) continue;
            const cf_node *nd = &p->nodes[i];
            src_comment(o, nd, "    ");
            if (nd->kind == NK_SPLINE && !gen_spline_chain(nd)) {
                int np = nd->nfa / 2;
                sbf(o, "    int si%d = cf_spline_index(spl%d, %d, v%d);\n", i, i, np, nd->in[0]);
                sbf(o, "    float sv%d[%d] = {", i, np);
                for (int k = 0; k < np; k++) sbf(o, "%sv%d", k ? ", " : "", nd->in[1 + k]);
                sbf(o, "};\n");
            }
            sbf(o, "    float v%d = ", i);
            gen_expr(g, o, MODE_VOLUME, i);
            sbf(o, ";\n");
            if (cslot[i] >= 0) sbf(o, "    col[(c * %d + %d) * 289 + q] = v%d;\n", lay->ncol ? lay->ncol : 1, cslot[i], i);
        }
    }
    sbf(o, "}\n");
    return 0;
}

/* column values read by a body at (x, z) of chunk c (x0, z0), the nodes g->mark holds: in the
 * 17 x 17 grid, or computed; ingrid: the body's (x, z) is in the grid by construction (no
 * fallback emitted) */
static void col_reads(prog32 *P, const char *ind, int ingrid)
{
    P_LOCALS;
    sb *o = &g->out;
    const int *cslot = P->cslot;
    for (int i = 0; i < n; i++) {
        if (cslot[i] < 0 || !g->mark[i]) continue;
        if (ingrid) {
            sbf(o, "%sfloat v%d = col[(c * %d + %d) * 289 + (z - z0) * 17 + (x - x0)];\n", ind, i, lay->ncol ? lay->ncol : 1,
                cslot[i]);
            continue;
        }
        gen_want(g, MODE_VOLUME, i);
        sbf(o, "%sfloat v%d = (x - x0) >= 0 && (x - x0) <= 16 && (z - z0) >= 0 && (z - z0) <= 16"
               " ? col[(c * %d + %d) * 289 + (z - z0) * 17 + (x - x0)] : fV_%d(t, x, y, z, hv, vmin);\n",
            ind, i, lay->ncol ? lay->ncol : 1, cslot[i], i);
    }
}

/* the axis tables of the corner bodies on the first interpolated node's lattice; 0, or -1 out of memory */
static int corner_axes(prog32 *P)
{
    P_LOCALS;
    if (lay->ninterp > 0) {
        const cf_node *nd = &p->nodes[lay->interp[0]];
        int w = nd->i[0], h = nd->i[1];
        int ncx = 16 % w == 0 ? 16 / w + 1 : 16 / w + 2;
        int ncy = (p->height % h == 0 && p->min_y % h == 0) ? p->height / h + 1 : p->height / h + 2;
        if (axis_tables(g, &g->out, lay, P->ext, w, h, ncx, ncy, ncx) < 0) return -1;
        P->axw = w, P->axh = h;
    }
    return 0;
}

/* Many noise sites: in the GPU form, k_stacks_<k> first writes every site's stack at every
 * corner into sv (each stack once, one small kernel), and the body reads the values
 * (CF_SV): no calls in the body, no values live across them (registers). Each distinct
 * (stack, axis layer) once; old_blended_noise: its three stacks. Sets g->site for the body
 * (its nodes in g->mark), closes the open corner kernel (*open) and returns the count. */
static int stacks_kernel(prog32 *P, int k, int ncx, int ncy, int *open)
{
    P_LOCALS;
    sb *o = &g->out;
    int id = lay->interp[k], ns = 0, *svst = P->svst, *svoff = P->svoff;
    for (int i = 0; i < n; i++) {
        g->site[i] = -1;
        if (!g->mark[i] || g->axl0[i][0] < 0) continue;
        const cf_node *sn = &p->nodes[i];
        int blended = sn->kind == NK_OLD_BLENDED_NOISE, m = blended ? 3 : 1, first = -1;
        for (int u = 0; u < m; u++) {
            int st = blended ? g->w->node_stack[i] + u : g->w->noise_stack[sn->noise], off = g->axl0[i][u], f = -1;
            for (int v = 0; v < ns && !blended; v++)
                if (svst[v] == st && svoff[v] == off) f = v;
            if (f < 0) svst[ns] = st, svoff[ns] = off, f = ns++;
            if (u == 0) first = f;
        }
        g->site[i] = first; /* blended: first, first + 1, first + 2 */
    }
    lay->nsites[k] = ns;
    if (*open >= 0) sbf(o, "}\n"); /* not merged: close the open kernel before this one */
    *open = -1;
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
    sbf(o, "    __global const int *a = ax + %d + (size_t)c * %d + sv_l_%d[s] * %d, *ay = ax + sv_l_%d[s] * %d;\n", g->naxy,
        lay->naxes, k, g->axR, k, g->axRY);
    sbf(o, "    sv[(size_t)nchunks * %zu + (size_t)c * %d + s * %d + q] = inl ? cf_stack_axes_l(t, st, a, %d, %d, ay, %d, i, j, kk,"
           " (__local const uchar *)lp)\n        : cf_stack_axes(t, st, a, %d, %d, ay, %d, i, j, kk);\n}\n#endif\n",
        lay->sv_off[k], ns * lay->ncorner[k], lay->ncorner[k], g->axR, g->axzoff, g->axRY, g->axR, g->axzoff, g->axRY);
    return ns;
}

/* k_corners_<k>: the input of interpolated node k at corner q of chunk c. Consecutive
 * nodes with the same lattice whose bodies have at most two noise sites (no out-of-line
 * call) share the first one's kernel, each body in its own block (fewer launches; the
 * bodies run one after the other, so the registers are about the largest body's):
 * lay->cmerged[k] = 1 for a node whose corners an earlier kernel writes */
static void corner_kernels(prog32 *P)
{
    P_LOCALS;
    sb *o = &g->out;
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
        int axon = w == P->axw && h == P->axh && lay->naxes > 0;
        gen_mark_body(g, nd->in[0], P->ext);
        int sites = 0;
        if (axon) { /* more than two noise sites: calls (the lazy body may repeat a node per branch) */
            for (int i = 0; i < n; i++) sites += g->mark[i] && g->axl0[i][0] >= 0;
            if (sites > 2) axon = 2;
        }
        int ns = axon == 2 ? stacks_kernel(P, k, ncx, ncy, &open) : 0;
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
            if (axon) sbf(o, "    __global const int *axc = ax + %d + (size_t)c * %d;\n", g->naxy, lay->naxes);
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
        g->axon = axon;
        sbf(o, "    {\n    /* interpolated node %d */\n", id);
        src_comment(o, nd, "    ");
        /* w divides 16: the corners' x - x0 and z - z0 are 0, w, ..., 16 */
        col_reads(P, "    ", 16 % w == 0);
        gen_body(g, o, MODE_VOLUME, nd->in[0], P->ext, 1);
        g->axon = 0;
        /* the corner buffer of a batch: node k's corners start at nchunks * offset_k */
        sbf(o, "    corner[(size_t)nchunks * %zu + (size_t)c * %d + q] = v%d;\n    }\n", lay->corner_off[k], lay->ncorner[k], nd->in[0]);
        if (ns) sbf(o, "#undef CF_SV\n#undef CF_SVB\n");
        for (int i = 0; i < n; i++) g->site[i] = -1;
    }
    if (open >= 0) sbf(o, "}\n");
}

/* k_blocks: block column (x, z) of chunk c walks y upward */
static void blocks_kernel(prog32 *P)
{
    P_LOCALS;
    sb *o = &g->out;
    int root = P->root;
    sbf(o, "\n__kernel void k_blocks(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *col,"
           " __global const float *corner, __global float *out)\n{\n");
    sbf(o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(o, "    if (c >= nchunks) return;\n");
    sbf(o, "    int x0 = chunks[2 * c] * 16, z0 = chunks[2 * c + 1] * 16, x = x0 + q %% 16, z = z0 + q / 16;\n");
    sbf(o, "    int hv = 1, vmin = y0, y = y0; /* y: any height reads a column node */\n");
    gen_mark_body(g, root, P->ext);
    col_reads(P, "    ", 1); /* x - x0, z - z0 in 0..15 */
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
    gen_body(g, o, MODE_VOLUME, root, P->ext, 2);
    sbf(o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = v%d;\n", p->height, root);
    sbf(o, "    }\n}\n");
}

/* The map's sampled columns (k_map_samples): one work item per sample column, its surface
 * height (kernels/cf_colscan.h): windows of rows from the top down, each window's rows upward
 * with k_blocks' interpolation (the same corners, lerps and running sum, so every row's value
 * is k_blocks' bit for bit), the corners of the sample's own cell computed where it needs them
 * (cs_corner_<k>: the corner body of interpolated node k at any corner, its column nodes' values
 * given: computed once per sample at each corner column, as k_columns does at y0, by fV_ in the
 * kernel and cs_cols_<k>); a window's bottom corners are kept for the window below. The host
 * gives each sample the top row to start from (map_device.c: below the windows the CPU's column
 * bounds prove <= 0). */

/* a call of cs_corner_<k> at corner (x, y, z) of corner column c (0: xa, za; 1: xb, za; 2: xa,
 * zb; 3: xb, zb) with that column's values (kc: the column nodes it reads) */
static const char *cs_call(char *buf, size_t cap, int k, const uint8_t *kc, int n, const char *y, int c)
{
    static const char *const xs[4] = {"xa", "xb", "xa", "xb"}, *const zs[4] = {"za", "za", "zb", "zb"};
    size_t at = (size_t)snprintf(buf, cap, "cs_corner_%d(t, %s, %s, %s, y0", k, xs[c], y, zs[c]);
    for (int i = 0; i < n && at < cap; i++)
        if (kc[i]) at += (size_t)snprintf(buf + at, cap - at, ", s->q%d_%d_%d", k, i, c);
    if (at < cap) snprintf(buf + at, cap - at, ")");
    return buf;
}

/* Where ir_finite_below holds for an interpolated node's input (every node under it finite,
 * ir/passes.c), a corner column's neighbours do not change the value of a sample on it (in-cell
 * fractions 0: lerp(0, u, v) = u + 0 * (v - u) is u bit for bit when v - u is finite and u is
 * not -0), so they are stamped 0 and not computed, as the CPU's corner columns
 * (host/cpu/heights.c corner_exact, the same call). */
static void samples_kernel(prog32 *P)
{
    P_LOCALS;
    sb *o = &g->out;
    int root = P->root;
    const int *cslot = P->cslot;
    uint8_t *rootcol = calloc((size_t)n + 1, 1), *seen = calloc((size_t)n + 1, 1);
    uint8_t *kcol = calloc(((size_t)n + 1) * (size_t)(lay->ninterp + 1), 1); /* [k][i]: column node i read by node k's corners */
    if (!rootcol || !seen || !kcol) {
        free(rootcol), free(seen), free(kcol);
        o->oom = 1;
        return;
    }
    gen_mark_body(g, root, P->ext);
    for (int i = 0; i < n; i++) rootcol[i] = cslot[i] >= 0 && g->mark[i];
    int fin[EMIT_MAX_INTERP] = {0};
    for (int k = 0; k < lay->ninterp; k++) fin[k] = ir_finite_below(p, p->nodes[lay->interp[k]].in[0], seen);
    /* the window: the lcm of the cell heights (every window starts a cell of every node), or
     * the whole column */
    int64_t W = 1;
    for (int k = 0; k < lay->ninterp; k++) {
        int64_t h = p->nodes[lay->interp[k]].i[1], a = W, b = h;
        while (b) { int64_t r = a % b; a = b; b = r; }
        W = W / a * h;
        if (W > p->height) W = 0;
        if (W == 0) break;
    }
    if (W == 0) W = (int64_t)p->height * 2;
    for (int k = 0; k < lay->ninterp; k++) {
        const cf_node *nd = &p->nodes[lay->interp[k]];
        sbf(o, "\n/* interpolated node %d's input at corner (x, y, z), as k_corners_<k> gives it */\n", lay->interp[k]);
        uint8_t *kc = kcol + (size_t)k * ((size_t)n + 1);
        gen_mark_body(g, nd->in[0], P->ext);
        for (int i = 0; i < n; i++) kc[i] = cslot[i] >= 0 && g->mark[i];
        sbf(o, "static float cs_corner_%d(CF_TAB t, int x, int y, int z, int y0", k);
        for (int i = 0; i < n; i++)
            if (kc[i]) sbf(o, ", float v%d", i);
        sbf(o, ")\n{\n    int hv = 1, vmin = (int)cf_floordiv(y0, %d) * %d;\n    (void)hv; (void)vmin;\n", nd->i[1], nd->i[1]);
        src_comment(o, nd, "    ");
        gen_mark_body(g, nd->in[0], P->ext);
        for (int i = 0; i < n; i++)
            if (kc[i]) gen_want(g, MODE_VOLUME, i);
        gen_body(g, o, MODE_VOLUME, nd->in[0], P->ext, 1);
        sbf(o, "    return v%d;\n}\n", nd->in[0]);
    }
    sbf(o, "\n/* a sample column's state: its column values, and per interpolated node its in-cell fractions,\n"
           " * corner column, running value and step, and the corners at level pl (the window above's bottom) */\n");
    sbf(o, "typedef struct cs_state {\n    int x, z, y0;\n");
    for (int i = 0; i < n; i++)
        if (rootcol[i]) sbf(o, "    float c%d;\n", i);
    for (int k = 0; k < lay->ninterp; k++) {
        sbf(o, "    float ax%d, az%d, run%d, stp%d, p%d_0, p%d_1, p%d_2, p%d_3;\n    int cx%d, cz%d, pl%d, lone%d, qh%d;\n", k, k, k, k, k, k, k,
            k, k, k, k, k, k);
        for (int i = 0; i < n; i++)
            if (kcol[(size_t)k * ((size_t)n + 1) + (size_t)i]) sbf(o, "    float q%d_%d_0, q%d_%d_1, q%d_%d_2, q%d_%d_3;\n", k, i, k, i, k, i, k, i);
    }
    sbf(o, "} cs_state;\n");
    /* the column values of node k's corner columns: (xa, za) at the start, the other three
     * (xb, za), (xa, zb), (xb, zb) where a corner off the sample's own column is first needed */
    for (int k = 0; k < lay->ninterp; k++) {
        const uint8_t *kc = kcol + (size_t)k * ((size_t)n + 1);
        int w = p->nodes[lay->interp[k]].i[0];
        sbf(o, "\nstatic void cs_cols_%d(CF_TAB t, cs_state *s)\n{\n", k);
        sbf(o, "    int xa = s->cx%d, xb = xa + %d, za = s->cz%d, zb = za + %d, y = s->y0, hv = 1, vmin = s->y0;\n", k, w, k, w);
        sbf(o, "    (void)xa; (void)xb; (void)za; (void)zb; (void)y; (void)hv; (void)vmin;\n");
        sbf(o, "    if (s->qh%d) return;\n    s->qh%d = 1;\n", k, k);
        for (int i = 0; i < n; i++)
            if (kc[i])
                sbf(o, "    s->q%d_%d_1 = fV_%d(t, xb, y, za, hv, vmin), s->q%d_%d_2 = fV_%d(t, xa, y, zb, hv, vmin), s->q%d_%d_3 = fV_%d(t, xb, y, zb, "
                       "hv, vmin);\n", k, i, i, k, i, i, k, i, i);
        sbf(o, "}\n");
    }
    sbf(o, "\n/* the value at row y of the sample column: k_blocks' body */\n");
    sbf(o, "static float cs_row(CF_TAB t, cs_state *s, int y, int first)\n{\n");
    sbf(o, "    int x = s->x, z = s->z, y0 = s->y0, hv = 1, vmin = y0;\n    (void)x; (void)z; (void)hv; (void)vmin;\n");
    for (int i = 0; i < n; i++)
        if (rootcol[i]) sbf(o, "    float v%d = s->c%d;\n", i, i);
    for (int k = 0; k < lay->ninterp; k++) {
        int id = lay->interp[k], w = p->nodes[id].i[0], h = p->nodes[id].i[1];
        sbf(o, "    /* interpolated node %d */\n", id);
        sbf(o, "    int iy%d = (int)cf_floormod(y, %d);\n", k, h);
        sbf(o, "    if (first || iy%d == 0) {\n", k);
        /* lone: the sample is on a corner column and the neighbours need not be computed (a
         * literal 0 where ir_finite_below does not hold: the compiler drops that code) */
        char lone[24];
        snprintf(lone, sizeof lone, fin[k] ? "s->lone%d" : "0", k);
        sbf(o, "        int L = (int)cf_floordiv(y, %d), xa = s->cx%d, xb = xa + %d, za = s->cz%d, zb = za + %d, lone = %s;\n",
            h, k, w, k, w, lone);
        sbf(o, "        float v010, v110 = 0.0f, v011 = 0.0f, v111 = 0.0f, v100 = 0.0f, v001 = 0.0f, v101 = 0.0f;\n");
        sbf(o, "        int yt = (L + 1) * %d, yb = L * %d;\n", h, h);
        const uint8_t *kc = kcol + (size_t)k * ((size_t)n + 1);
        char c[8][512];
        cs_call(c[0], sizeof c[0], k, kc, n, "yt", 0), cs_call(c[1], sizeof c[1], k, kc, n, "yt", 1);
        cs_call(c[2], sizeof c[2], k, kc, n, "yt", 2), cs_call(c[3], sizeof c[3], k, kc, n, "yt", 3);
        cs_call(c[4], sizeof c[4], k, kc, n, "yb", 0), cs_call(c[5], sizeof c[5], k, kc, n, "yb", 1);
        cs_call(c[6], sizeof c[6], k, kc, n, "yb", 2), cs_call(c[7], sizeof c[7], k, kc, n, "yb", 3);
        sbf(o, "        if (s->pl%d == L + 1) v010 = s->p%d_0, v110 = s->p%d_1, v011 = s->p%d_2, v111 = s->p%d_3;\n", k, k, k, k, k);
        sbf(o, "        else {\n            v010 = %s;\n", c[0]);
        sbf(o, "            if (!lone) cs_cols_%d(t, s), v110 = %s, v011 = %s,\n                v111 = %s;\n        }\n", k, c[1], c[2], c[3]);
        sbf(o, "        float v000 = %s;\n", c[4]);
        sbf(o, "        if (lone && ((v000 == 0.0f && signbit(v000)) || (v010 == 0.0f && signbit(v010))))\n"
               "            lone = 0, cs_cols_%d(t, s), v110 = %s, v011 = %s,\n            v111 = %s;\n", k, c[1], c[2], c[3]);
        sbf(o, "        if (!lone) cs_cols_%d(t, s), v100 = %s, v001 = %s, v101 = %s;\n", k, c[5], c[6], c[7]);
        sbf(o, "        s->pl%d = L, s->p%d_0 = v000, s->p%d_1 = v100, s->p%d_2 = v001, s->p%d_3 = v101;\n", k, k, k, k, k);
        sbf(o, "        float v00 = cf_lerpf(s->az%d, v000, v001), v01 = cf_lerpf(s->az%d, v010, v011);\n", k, k);
        sbf(o, "        float v10 = cf_lerpf(s->az%d, v100, v101), v11 = cf_lerpf(s->az%d, v110, v111);\n", k, k);
        sbf(o, "        float a = cf_lerpf(s->ax%d, v00, v10), b = cf_lerpf(s->ax%d, v01, v11);\n", k, k);
        sbf(o, "        s->stp%d = (b - a) * (1.0f / (float)%d);\n", k, h);
        sbf(o, "        s->run%d = a + s->stp%d * (float)iy%d;\n", k, k, k);
        sbf(o, "    } else {\n        s->run%d = s->run%d + s->stp%d;\n    }\n", k, k, k);
        sbf(o, "    float v%d = s->run%d;\n", id, k);
    }
    gen_body(g, o, MODE_VOLUME, root, P->ext, 1);
    sbf(o, "    return v%d;\n}\n", root);
    sbf(o, "\n#define CF_CS_CTX CF_TAB t, cs_state *s\n#define CF_CS_ARG t, s\n#define CF_CS_T float\n"
           "#define CF_CS_ROW(y, first) cs_row(t, s, (y), (first))\n%s\n", emit_header_colscan);
    sbf(o, "\n/* sample i at (xzy[3i], xzy[3i + 1]): its top y <= xzy[3i + 2] with a value > 0, else y0 - 1 */\n");
    sbf(o, "__kernel void k_map_samples(CF_TAB t, __global const int *xzy, int n, int y0, __global int *out)\n{\n");
    sbf(o, "    int gid = get_global_id(0);\n    if (gid >= n) return;\n");
    sbf(o, "    cs_state st, *s = &st;\n");
    sbf(o, "    int x = xzy[3 * gid], z = xzy[3 * gid + 1], ymax = xzy[3 * gid + 2], y = y0, hv = 1, vmin = y0;\n"
           "    (void)y; (void)hv; (void)vmin;\n");
    sbf(o, "    if (ymax < y0) {\n        out[gid] = y0 - 1;\n        return;\n    }\n");
    sbf(o, "    s->x = x, s->z = z, s->y0 = y0;\n");
    for (int i = 0; i < n; i++)
        if (rootcol[i]) {
            gen_want(g, MODE_VOLUME, i);
            sbf(o, "    s->c%d = fV_%d(t, x, y, z, hv, vmin);\n", i, i);
        }
    for (int k = 0; k < lay->ninterp; k++) {
        int w = p->nodes[lay->interp[k]].i[0];
        sbf(o, "    s->ax%d = (float)(int)cf_floormod(x, %d) * (1.0f / (float)%d);\n", k, w, w);
        sbf(o, "    s->az%d = (float)(int)cf_floormod(z, %d) * (1.0f / (float)%d);\n", k, w, w);
        sbf(o, "    s->cx%d = (int)cf_floordiv(x, %d) * %d, s->cz%d = (int)cf_floordiv(z, %d) * %d;\n", k, w, w, k, w, w);
        sbf(o, "    s->run%d = 0.0f, s->stp%d = 0.0f, s->pl%d = -2147483647 - 1;\n", k, k, k);
        sbf(o, "    s->lone%d = %d && s->ax%d == 0.0f && s->az%d == 0.0f, s->qh%d = 0;\n", k, fin[k], k, k, k);
        for (int i = 0; i < n; i++)
            if (kcol[(size_t)k * ((size_t)n + 1) + (size_t)i]) {
                gen_want(g, MODE_VOLUME, i);
                sbf(o, "    s->q%d_%d_0 = fV_%d(t, s->cx%d, y, s->cz%d, hv, vmin);\n", k, i, i, k, k);
            }
    }
    sbf(o, "    out[gid] = cf_colscan(t, s, y0, y0 + %d, ymax, %d);\n}\n", p->height - 1, (int)W);
    free(rootcol), free(seen), free(kcol);
}

char *emit_samples(const cf_program *p, const cf_world *w, int fn, cf_error *err)
{
    if (p->prec == PREC_F64) return err_set(err, CF_ERR_ARG, "the map's sample kernel is for 26.3 float programs"), NULL;
    prog32 P;
    memset(&P, 0, sizeof P);
    emit_layout lay;
    int n = p->nnodes;
    P.p = p, P.lay = &lay, P.n = n, P.root = p->outputs[fn];
    gen *g = &P.g;
    int ok = gen_open(g, p, w) == 0;
    g->axl0 = malloc(sizeof *g->axl0 * ((size_t)n + 1));
    g->site = malloc(sizeof(int) * ((size_t)n + 1));
    P.ext = calloc((size_t)n + 1, 1), P.need = calloc((size_t)n + 1, 1);
    P.cslot = malloc(sizeof(int) * ((size_t)n + 1));
    sb ker = {0};
    if (!ok || !g->axl0 || !g->site || !P.ext || !P.need || !P.cslot) goto nomem;
    for (int i = 0; i < n; i++) g->site[i] = -1, g->axl0[i][0] = g->axl0[i][1] = g->axl0[i][2] = -1;
    if (plan(&P, err) < 0) goto fail;
    sbf(&ker, "/* chunkfill: generated OpenCL C for %s, output %s: the map's sample columns (seed-independent) */\n",
        p->settings_id, p->output_names[fn]);
    gen_headers(&ker);
    gen_static_tables(g, &ker);
    samples_kernel(&P);
    if (gen_finish(g, &ker) < 0) goto nomem;
    gen_close(g);
    free(P.ext), free(P.need), free(P.cslot);
    return ker.s;
nomem:
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
fail:
    free(ker.s);
    gen_close(g);
    free(P.ext), free(P.need), free(P.cslot);
    return NULL;
}

char *emit_program(const cf_program *p, const cf_world *w, int fn, emit_layout *lay, cf_error *err)
{
    if (p->dialect == DIALECT_MC121) return emit_program_mc121(p, fn, lay, err);
    if (p->prec == PREC_F64) return emit_program_f64(p, fn, lay, err);
    prog32 P;
    memset(&P, 0, sizeof P);
    int n = p->nnodes;
    P.p = p, P.lay = lay, P.n = n, P.root = p->outputs[fn];
    gen *g = &P.g;
    int ok = gen_open(g, p, w) == 0;
    g->axl0 = malloc(sizeof *g->axl0 * ((size_t)n + 1));
    g->site = malloc(sizeof(int) * ((size_t)n + 1));
    P.svst = malloc(sizeof(int) * (3 * (size_t)n + 1)), P.svoff = malloc(sizeof(int) * (3 * (size_t)n + 1));
    P.ext = calloc((size_t)n + 1, 1), P.need = calloc((size_t)n + 1, 1);
    P.cslot = malloc(sizeof(int) * ((size_t)n + 1));
    sb ker = {0};
    if (!ok || !g->axl0 || !g->site || !P.svst || !P.svoff || !P.ext || !P.need || !P.cslot) goto nomem;
    for (int i = 0; i < n; i++) g->site[i] = -1;
    if (plan(&P, err) < 0) goto fail;

    sbf(&ker, "/* chunkfill: generated OpenCL C for %s, output %s (seed-independent) */\n", p->settings_id,
        p->output_names[fn]);
    gen_headers(&ker);
    gen_static_tables(g, &ker);
    if (columns_kernel(&P) < 0 || corner_axes(&P) < 0) goto nomem;
    corner_kernels(&P);
    blocks_kernel(&P);
    if (p->blocks && fn == 0 && aquifer_kernels(g, &g->out, lay) < 0) goto nomem;
    if (p->blocks && fn == 0 && p->rules && p->dialect == DIALECT_MC263 && p->noutputs > CF_B263_SURFACE &&
        surface_kernel(p, g, &g->out, lay, err) < 0)
        goto fail;
    if (gen_finish(g, &ker) < 0) goto nomem;
    gen_close(g);
    free(P.svst), free(P.svoff), free(P.ext), free(P.need), free(P.cslot);
    return ker.s;
nomem:
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
fail:
    free(ker.s);
    gen_close(g);
    free(P.svst), free(P.svoff), free(P.ext), free(P.need), free(P.cslot);
    return NULL;
}
