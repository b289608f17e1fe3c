/* ir.c - the node table (ir/nodes.def and the front-ends' rows it includes) as data,
 * and appending nodes to a program.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

const char *const node_name[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary) [NK_##K] = name,
#include "ir/nodes.def"
#undef NODE
};
const unsigned node_flags[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary) [NK_##K] = (flags),
#include "ir/nodes.def"
#undef NODE
};
static const char *const node_fields[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary) [NK_##K] = fields,
#include "ir/nodes.def"
#undef NODE
};
static const char *const node_summary[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary) [NK_##K] = summary,
#include "ir/nodes.def"
#undef NODE
};

int node_kind_info(int i, const char **name, const char **fields, const char **summary)
{
    if (i < 0 || i >= NK_COUNT) return 0;
    if (name) *name = node_name[i];
    if (fields) *fields = node_fields[i];
    if (summary) *summary = node_summary[i];
    return 1;
}

const char *const cf_aquifer_fields[6] = {"barrier", "fluid_level_floodedness", "fluid_level_spread",
                                           "lava", "exclusion", "surface_level"};

int ir_node_add(cf_program *p, const cf_limits *lim, const cf_node *n, const char *what, cf_error *err)
{
    int depth = 1;
    for (int k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && p->nodes[n->in[k]].depth + 1 > depth) depth = p->nodes[n->in[k]].depth + 1;
    if (lim && depth > lim->max_depth)
        return loc_fail(err, n->loc, CF_ERR_LIMIT, "the %s is nested deeper than %d", what, lim->max_depth);
    int inest = n->kind == NK_INTERPOLATED;
    for (int k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && p->nodes[n->in[k]].inest + (n->kind == NK_INTERPOLATED) > inest)
            inest = p->nodes[n->in[k]].inest + (n->kind == NK_INTERPOLATED);
    if (inest > CF_MAX_INTERP_NEST)
        return loc_fail(err, n->loc, CF_ERR_LIMIT,
                        "interpolated is nested %d deep under interpolated (at most %d: each level widens the corners "
                        "every chunk computes)", inest, CF_MAX_INTERP_NEST);
    if (lim && (size_t)p->nnodes >= lim->max_nodes)
        return loc_fail(err, n->loc, CF_ERR_LIMIT, "graph has more than %zu nodes (the limit: --max-nodes, cf_limits.max_nodes)", lim->max_nodes);
    if (p->nnodes == p->cap) {
        int cap = p->cap ? p->cap * 2 : 256;
        cf_node *nn = realloc(p->nodes, sizeof *nn * (size_t)cap);
        if (!nn) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
        p->nodes = nn;
        p->cap = cap;
    }
    p->nodes[p->nnodes] = *n;
    p->nodes[p->nnodes].depth = depth;
    p->nodes[p->nnodes].inest = inest;
    p->parsed_nodes++;
    return p->nnodes++;
}

int ir_set_inputs(cf_program *p, cf_node *n, int count, cf_error *err)
{
    n->nin = count;
    n->in = arena_alloc(&p->arena, sizeof(int) * (size_t)(count ? count : 1));
    if (!n->in) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < count; i++) n->in[i] = -1;
    return 0;
}

int ir_set_outputs(cf_program *p, const char *const *functions, int count, cf_error *err)
{
    p->noutputs = count;
    p->outputs = arena_alloc(&p->arena, sizeof(int) * (size_t)(count + 1));
    p->output_names = arena_alloc(&p->arena, sizeof(char *) * (size_t)(count + 1));
    if (!p->outputs || !p->output_names) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < count; i++) p->output_names[i] = arena_strdup(&p->arena, functions[i]);
    return 0;
}

int ir_add_outputs(cf_program *p, const int *ids, int count, const char *name)
{
    int n = p->noutputs;
    int *o = arena_alloc(&p->arena, sizeof(int) * (size_t)(n + count));
    const char **nm = arena_alloc(&p->arena, sizeof(char *) * (size_t)(n + count));
    if (!o || !nm) return -1;
    memcpy(o, p->outputs, sizeof(int) * (size_t)n);
    memcpy(nm, p->output_names, sizeof(char *) * (size_t)n);
    for (int k = 0; k < count; k++) o[n + k] = ids[k], nm[n + k] = name;
    p->outputs = o, p->output_names = nm, p->noutputs = n + count;
    return 0;
}

void program_free(cf_program *p)
{
    if (!p) return;
    free(p->nodes);
    free(p->noises);
    arena_free(&p->arena);
    free(p);
}
