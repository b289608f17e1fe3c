/* plan.c - the fill plan, built once per program: which nodes are constant, per
 * column (2-D), at interpolation corners or per block, which are read by
 * find_top_surface probes (point path), and the memo class of each: 2-D nodes worth
 * memoizing get a per-column slot (computed once per column), shared 3-D nodes
 * remember their last point, every `interpolated` node gets corner and block
 * buffers (its input runs once per corner). The CPU fills (cpu/fill.c) and the
 * OpenCL emitter (opencl/emit.c) both follow it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "kernels/cf_nodes.h"

/* ------------------------------------------------------------------ plan */

static double node_cost(const cf_program *p, const cf_node *n)
{
    switch (n->kind) {
    case NK_NOISE: case NK_SHIFT_A: case NK_SHIFT_B: case NK_SHIFT: {
        const cf_noisedef *d = &p->noises[n->noise];
        return 16.0 * 2 * d->octave_count;
    }
    case NK_OLD_BLENDED_NOISE: return 16.0 * 30;
    case NK_END_OUTER_ISLANDS: return 4000;
    case NK_FIND_TOP_SURFACE: return 10000;
    case NK_SPLINE: return 6;
    case NK_INTERPOLATED: return 10;
    default: return 1;
    }
}

static cf_status plan_build_f64(cf_program *p, cf_error *err)
{
    int n = p->nnodes;
    p->memo = arena_alloc(&p->arena, (size_t)n + 1);
    p->stage = arena_alloc(&p->arena, (size_t)n + 1);
    p->colslot = arena_alloc(&p->arena, sizeof(int) * ((size_t)n + 1));
    p->islot = arena_alloc(&p->arena, sizeof(int) * ((size_t)n + 1));
    if (!p->memo || !p->stage || !p->colslot || !p->islot) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) p->colslot[i] = p->islot[i] = -1, p->stage[i] = STAGE_BLOCK;
    if (p->dialect == DIALECT_MC121)
        p->plan = arena_printf(&p->arena,
                               "%s: dialect Minecraft 1.18.2-1.21 (old format, double arithmetic), %d nodes, cells %dx%dx%d;\n"
                               "chunk fills as 1.21's NoiseChunk: flat_cache holds its input at (quart x, 0, quart z) per\n"
                               "quart cell, interpolated lerps its input's cell corners (x, then y, then z for\n"
                               "router:final_density, which gets the beardifier's + 0.0; y, x, z for other outputs);\n"
                               "single points: markers pass their input through\n",
                               p->settings_id, n, p->cell_xz, p->cell_y, p->cell_xz);
    else
        p->plan = arena_printf(&p->arena,
                               "%s: double dialect, %d nodes; every block evaluated on its own (the terrain's height once\n"
                               "per column, shared modules once per point through a last-point memo)\n",
                               p->settings_id, n);
    return CF_OK;
}

cf_status plan_build(cf_program *p, cf_error *err)
{
    if (p->prec == PREC_F64) return plan_build_f64(p, err);
    int n = p->nnodes;
    p->memo = arena_alloc(&p->arena, (size_t)n + 1);
    p->stage = arena_alloc(&p->arena, (size_t)n + 1);
    p->colslot = arena_alloc(&p->arena, sizeof(int) * ((size_t)n + 1));
    p->islot = arena_alloc(&p->arena, sizeof(int) * ((size_t)n + 1));
    int *fan = calloc((size_t)n + 1, sizeof(int));
    double *cost = calloc((size_t)n + 1, sizeof(double));
    uint8_t *reach = calloc((size_t)n + 1, 1); /* 1 block, 2 corner, 4 probe */
    if (!p->memo || !p->stage || !p->colslot || !p->islot || !fan || !cost || !reach) {
        free(fan), free(cost), free(reach);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        cost[i] = node_cost(p, nd);
        for (int k = 0; k < nd->nin; k++) {
            fan[nd->in[k]]++;
            cost[i] += cost[nd->in[k]];
        }
        if (cost[i] > 1e12) cost[i] = 1e12;
    }
    for (int o = 0; o < p->noutputs; o++) fan[p->outputs[o]]++, reach[p->outputs[o]] |= 1;
    /* stages: walk parents before children (reverse program order) */
    for (int i = n - 1; i >= 0; i--) {
        const cf_node *nd = &p->nodes[i];
        for (int k = 0; k < nd->nin; k++) {
            uint8_t r = reach[i];
            if (nd->kind == NK_INTERPOLATED) r = (uint8_t)((r & 4) | 2);
            if (nd->kind == NK_FIND_TOP_SURFACE && k == 0) r = 4;
            reach[nd->in[k]] |= r;
        }
    }
    p->ncol = p->ninterp = 0;
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        unsigned ax = nd->axes;
        int literal = (nd->flags & NF_LITERAL) || nd->kind == NK_CONSTANT;
        p->stage[i] = literal || ax == 0 ? STAGE_CONST
                    : (ax & AX_Y) == 0   ? STAGE_COLUMN
                    : (reach[i] & 1)     ? STAGE_BLOCK
                    : (reach[i] & 2)     ? STAGE_CORNER
                                         : STAGE_PROBE;
        p->memo[i] = MEMO_NONE;
        p->colslot[i] = p->islot[i] = -1;
        if (nd->kind == NK_INTERPOLATED) p->islot[i] = p->ninterp++;
        if (literal || ax == 0) continue;
        if ((ax & AX_Y) == 0 && cost[i] >= 8) {
            p->memo[i] = MEMO_COLUMN;
            p->colslot[i] = p->ncol++;
        } else if (fan[i] > 1 && cost[i] >= 8) {
            p->memo[i] = MEMO_LAST;
        }
    }
    /* the block stage as buffers (a window of rows): from the outputs down through combinators */
    p->vop = arena_alloc(&p->arena, (size_t)n + 1);
    p->vlist = arena_alloc(&p->arena, sizeof(int) * ((size_t)n + 1));
    uint8_t *inv = calloc((size_t)n + 1, 1);
    if (!p->vop || !p->vlist || !inv) {
        free(fan), free(cost), free(reach), free(inv);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    for (int o = 0; o < p->noutputs; o++) inv[p->outputs[o]] = 1;
    for (int i = n - 1; i >= 0; i--) {
        if (!inv[i]) continue;
        const cf_node *nd = &p->nodes[i];
        switch (nd->kind) {
#define CF_OP_ROW_CASE(K, N) case NK_##K:
            CF_OPS(CF_OP_ROWS) /* the row kinds' ops (kernels/cf_nodes_ops.h: ROW, VOL) */
#undef CF_OP_ROW_CASE
        case NK_CLAMP: case NK_RANGE_CHOICE: case NK_CACHE: case NK_BLEND_DENSITY:
            p->vop[i] = 1;
            for (int k = 0; k < nd->nin; k++) inv[nd->in[k]] = 1;
            break;
        case NK_INTERPOLATED: p->vop[i] = 1; break; /* its input runs at corners */
        default: p->vop[i] = 0; break;              /* per element, on the volume path */
        }
    }
    p->nvlist = 0;
    for (int i = 0; i < n; i++)
        if (inv[i]) p->vlist[p->nvlist++] = i;
    free(inv);

    /* the plan text */
    int st[5] = {0}, memo[3] = {0}, cache2 = 0, cache3 = 0;
    for (int i = 0; i < n; i++) {
        st[p->stage[i]]++;
        memo[p->memo[i]]++;
        if (p->nodes[i].kind == NK_CACHE) {
            if (p->nodes[i].axes & AX_Y) cache3++;
            else cache2++;
        }
    }
    size_t cap = 8192, len = 0;
    char *s = arena_alloc(&p->arena, cap);
    if (!s) {
        free(fan), free(cost), free(reach);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
#define OUT(...) len += (size_t)snprintf(s + len, len < cap ? cap - len : 0, __VA_ARGS__)
    OUT("%s", p->describe ? p->describe : "");
    OUT("stages: constant %d, per column %d, per cell corner %d, per block %d, probe (point path) %d\n", st[STAGE_CONST],
        st[STAGE_COLUMN], st[STAGE_CORNER], st[STAGE_BLOCK], st[STAGE_PROBE]);
    OUT("memo: %d nodes computed once per column, %d shared 3-D nodes remember their last point\n", memo[MEMO_COLUMN],
        memo[MEMO_LAST]);
    OUT("cache nodes: %d 2-D (per column), %d 3-D\n", cache2, cache3);
    int vops = 0;
    for (int k = 0; k < p->nvlist; k++) vops += p->vop[p->vlist[k]];
    OUT("block stage: %d nodes as buffers of a window of rows (%d from child buffers, %d per element)\n", p->nvlist, vops,
        p->nvlist - vops);
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        if (nd->kind != NK_INTERPOLATED) continue;
        char ptr[320];
        OUT("interpolated node %d (%s#%s): cell %dx%dx%d, input node %d runs at cell corners\n", i, nd->loc.file,
            ptr_text(nd->loc.ptr, ptr, sizeof ptr), nd->i[0], nd->i[1], nd->i[0], nd->in[0]);
    }
#undef OUT
    if (len >= cap) s[cap - 1] = 0;
    p->plan = s;
    free(fan), free(cost), free(reach);
    return CF_OK;
}

