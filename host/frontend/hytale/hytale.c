/* hytale.c - the Hytale front-end (HYTALE.md): World Gen V2 density graphs and legacy noise
 * assets -> graph IR. This file: the request (which files a function names), the files, the
 * nodes both formats make, the seed rule and the front-end record; v2.c parses V2 graphs,
 * legacy.c legacy noise assets, parse.h holds their shared context and the V2 "choices" block.
 *
 * Input: a pack folder holding hytale/Density/<NAME>.json files, each a V2
 * density node ({"Type": ..., "Inputs": [...], fields}), and the requested
 * functions: hytale:NAME (the node of hytale/Density/NAME.json), or the default
 * request (router:final_density) = hytale:Terrain. `Imported {Name}` reads a node
 * published with `Exported`/`ExportAs` in any file of hytale/Density (one shared
 * subgraph; a duplicate name, a missing name or an import cycle is an error).
 * Output: prog->nodes of the NF_F64 kinds of host/ir/nodes_hytale.def, children first;
 * the program's dialect is DIALECT_HYTALE (double values at double positions).
 * Context nodes that need a game engine (BaseHeight, DistanceToBiomeEdge,
 * Terrain) read named external inputs the caller supplies (cf_pack_set_external,
 * CLI --external NAME=VALUE); a missing one is a located error, never a zero.
 * Every HYTALE.md UNK choice of the V2 parser is a named constant in parse.h's
 * "choices" block (host/frontend/hytale/README.md lists them; the legacy choices head legacy.c). Errors are one line,
 * "file.json#/pointer: message". JSON trees are scratch, freed before returning.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/hytale/parse.h"

/* HYTALE.md §1 UNK choice (one place): the FNL integer seed of a seed label is
 * Java's String.hashCode of the label plus the world seed's low 32 bits, wrapping.
 * Nodes keep the label's hash (i[0]); eval64.c and emit.c add the world part. */
int32_t hytale_seed(const char *label, int64_t world)
{
    return (int32_t)((uint32_t)java_string_hash(label) + (uint32_t)(uint64_t)world);
}

/* ------------------------------------------------------------------ nodes */

int hy_node_add(hc *c, const cf_node *n) { return ir_node_add(c->p, &c->pk->lim, n, "density graph", c->err); }

int hy_new_node(__attribute__((unused)) hc *c, int kind, cf_loc at, cf_node *n)
{
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->flags = node_flags[kind];
    n->prec = PREC_F64;
    n->noise = -1;
    n->loc = at;
    return 0;
}

int hy_constant(hc *c, double v, cf_loc at)
{
    cf_node n;
    hy_new_node(c, NK_HY_CONSTANT, at, &n);
    n.d[0] = v;
    return hy_node_add(c, &n);
}

static int has_file(const char *const *names, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], id) == 0) return 1;
    return 0;
}

/* ------------------------------------------------------------------ files */

static int hytale_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    if (settings_id && strncmp(settings_id, "hytale:", 7) == 0) return 1;
    for (int i = 0; i < n; i++)
        if (functions[i] && strncmp(functions[i], "hytale:", 7) == 0) return 1;
    if (!request_is_default(settings_id, functions, n)) return 0;
    const char *names[2];
    if (pack_list(pk, "hytale/Density", names, 2) < 1 && pack_list(pk, "hytale/Noise", names, 2) < 1) return 0;
    return !pack_has_overworld(pk);
}

int hy_valid_name(const char *s)
{
    if (!*s || *s == '.') return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

#define HY_MAX_FILES 4096

static cf_status hytale_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    hc c = {0};
    c.p = p;
    c.pk = pk;
    c.err = err;
    field_init(&c.f, &p->arena, err);
    c.f.missing = CF_MISSING_NAME;
    c.f.ints = CF_INTS_IN;
    c.state = HY_ROOT_SWITCH_STATE;
    p->dialect = DIALECT_HYTALE;
    p->prec = PREC_F64;
    p->max_fill_bytes = pk->lim.max_fill_bytes;
    p->min_y = 0, p->height = 320, p->sea_level = 100;
    cf_loc cli = {"<arguments>", NULL};
    if (settings_id && strncmp(settings_id, "hytale:", 7) == 0 && strcmp(settings_id, "hytale:default") != 0)
        return field_fail(&c.f, cli, CF_ERR_ARG, "settings \"%s\": a Hytale pack takes --settings hytale:default (or none)", settings_id), err->status;
    p->settings_id = "hytale:default";
    const char **names = calloc(HY_MAX_FILES, sizeof *names);
    if (!names) return field_nomem(&c.f), err->status;
    int nf = pack_list(pk, "hytale/Density", names, HY_MAX_FILES);
    if (nf > HY_MAX_FILES) {
        free(names);
        return field_fail(&c.f, cli, CF_ERR_LIMIT, "more than %d files in hytale/Density", HY_MAX_FILES), err->status;
    }
    c.roots = calloc((size_t)nf + 1, sizeof *c.roots);
    c.files = calloc((size_t)nf + 1, sizeof *c.files);
    if (!c.roots || !c.files) {
        field_nomem(&c.f);
        goto done;
    }
    for (int i = 0; i < nf; i++) {
        char rel[600];
        snprintf(rel, sizeof rel, "hytale/Density/%s.json", names[i]);
        int r = json_load_rel(&p->arena, pk, rel, &c.roots[i], &c.files[i], err);
        if (r < 0) goto done;
        c.nfiles = i + 1;
        if (hy_scan(&c, c.roots[i], (cf_loc){c.files[i], NULL}, 0) < 0) goto done;
    }
    if (ir_set_outputs(p, functions, nfn, err) < 0) goto done;
    for (int i = 0; i < nfn; i++) {
        const char *f = functions[i], *file = NULL;
        if (strncmp(f, "hytale:noise/", 13) == 0) {
            int nd = hy_legacy_function(&c, f + 13, cli);
            if (nd < 0) goto done;
            p->outputs[i] = nd;
            continue;
        }
        if (strcmp(f, "router:final_density") == 0 && !has_file(names, c.nfiles, "Terrain") && hy_legacy_has(&c, "Terrain")) {
            /* a legacy-only pack: the default request is the noise asset hytale/Noise/Terrain.json */
            int nd = hy_legacy_function(&c, "Terrain", cli);
            if (nd < 0) goto done;
            p->outputs[i] = nd;
            continue;
        }
        if (strcmp(f, "router:final_density") == 0) file = "Terrain";
        else if (strncmp(f, "hytale:", 7) == 0 && hy_valid_name(f + 7)) file = f + 7;
        else {
            field_fail(&c.f, cli, CF_ERR_ARG, "function \"%s\": a Hytale program takes hytale:NAME (the node of hytale/Density/NAME.json)", f);
            goto done;
        }
        int k = -1;
        for (int j = 0; j < c.nfiles; j++)
            if (strcmp(names[j], file) == 0) k = j;
        if (k < 0) {
            field_fail(&c.f, cli, CF_ERR_REF, "function \"%s\": no hytale/Density/%s.json in the packs", f, file);
            goto done;
        }
        int nd = hy_node(&c, c.roots[k], (cf_loc){c.files[k], NULL});
        if (nd < 0) goto done;
        p->outputs[i] = nd;
    }
done:
    for (int i = 0; i < c.nfiles; i++) cJSON_Delete(c.roots[i]);
    free(c.roots);
    free(c.files);
    free(c.exps);
    free(c.mapname);
    free(c.mapoff);
    free(names);
    return err_failed(err) ? err->status : CF_OK;
}

const cf_frontend cf_frontend_hytale = {
    .name = "hytale", .title = "Hytale (V2 density graphs, legacy noise assets)", .prefix = "hytale:",
    .first_kind = NK_HY_CONSTANT, .last_kind = NK_HY_PCELL,
    .claims = hytale_wanted, .parse = hytale_parse,
};
