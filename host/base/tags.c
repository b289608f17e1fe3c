/* tags.c - biome tags, "#ns:path": data/<ns>/tags/worldgen/biome/<path>.json, read as the game
 * reads them (TagLoader) for every user: checkerboard biome sources (host/biome/source.c),
 * 26.3 material rules' biome_is (host/frontend/rules.c), structures' biomes (host/structure/);
 * structure tags (tags/worldgen/structure, `structures --structure #TAG`) are read the same way.
 *  - the file of every pack, lowest priority first: each file's "values" appended, a file with
 *    "replace": true drops what the packs below gave;
 *  - values in order: biome ids, "#tags" (nested) or {"id": ..., "required": false} (skipped
 *    when the biome or tag does not exist);
 *  - the tag's biomes are the values' biomes in order of first appearance (a set keeping
 *    insertion order).
 * Every bad tag is one located line: unknown tag, bad file or entry, cycle (with its chain),
 * non-boolean "required". An empty tag is valid (the game accepts one): a rule selects nothing with
 * it; a checkerboard source, which needs biomes, refuses it (source.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/base.h"

#define TAG_DEPTH 32
#define TAG_MAX 4096 /* distinct biomes of one tag */
#define TAG_FILES 64 /* packs holding one tag's file */

typedef struct tr {
    cf_arena *a;
    cf_pack *pk;
    cf_error *err;
    int (*exists)(void *ctx, const char *id);
    void *ctx;
    const char *kind, *dir; /* "biome", "worldgen/biome" or "structure", "worldgen/structure" */
    const char **ids;
    int n, cap;
    const char *chain[TAG_DEPTH];
    int depth;
} tr;

/* "ns:path" or "path" (namespace minecraft), [a-z0-9_.-] and '/' in paths, no ".." */
int res_split(const char *id, char ns[128], char path[384])
{
    const char *colon = strchr(id, ':');
    const char *p = colon ? colon + 1 : id;
    size_t nl = colon ? (size_t)(colon - id) : 9;
    if (nl == 0 || nl >= 128 || !*p || strlen(p) >= 384) return -1;
    memcpy(ns, colon ? id : "minecraft", nl);
    ns[nl] = 0;
    strcpy(path, p);
    for (const char *q = ns; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_' || *q == '-' || *q == '.')) return -1;
    for (const char *q = path; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_' || *q == '-' || *q == '.' || *q == '/'))
            return -1;
    if (strstr(path, "..")) return -1;
    return 0;
}

static int nomem(tr *t) { return err_set(t->err, CF_ERR_NOMEM, "out of memory"), -1; }

static int add(tr *t, const char *id, cf_loc at)
{
    for (int k = 0; k < t->n; k++)
        if (strcmp(t->ids[k], id) == 0) return 0;
    if (t->n == TAG_MAX) return loc_fail(t->err, at, CF_ERR_LIMIT, "a %s tag of more than %d %ss", t->kind, TAG_MAX, t->kind);
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 32;
        const char **ni = realloc(t->ids, sizeof *ni * (size_t)cap);
        if (!ni) return nomem(t);
        t->ids = ni, t->cap = cap;
    }
    if (!(t->ids[t->n] = arena_strdup(t->a, id))) return nomem(t);
    t->n++;
    return 0;
}

static int resolve(tr *t, const char *tag, cf_loc at, int required);

/* one entry of a tag file's "values", located at el */
static int value(tr *t, const cJSON *e, cf_loc el)
{
    const cJSON *idv = e;
    int required = 1;
    if (cJSON_IsObject(e)) {
        idv = cJSON_GetObjectItemCaseSensitive(e, "id");
        if (!idv) return loc_fail(t->err, el, CF_ERR_SCHEMA, "missing field \"id\"");
        const cJSON *rq = cJSON_GetObjectItemCaseSensitive(e, "required");
        if (rq && !cJSON_IsBool(rq))
            return loc_fail(t->err, loc_key(t->a, el, "required"), CF_ERR_SCHEMA, "expected true or false, found %s", json_type(rq));
        if (rq) required = cJSON_IsTrue(rq);
        el = loc_key(t->a, el, "id");
    }
    if (!cJSON_IsString(idv))
        return loc_fail(t->err, el, CF_ERR_SCHEMA, "expected a %s id or a #tag (a string), or {\"id\", \"required\"}, found %s",
                        t->kind, json_type(idv));
    const char *v = idv->valuestring;
    if (v[0] == '#') return resolve(t, v + 1, el, required) < 0 ? -1 : 0;
    char ns[128], path[384], id[520];
    if (res_split(v, ns, path) < 0) return loc_fail(t->err, el, CF_ERR_SCHEMA, "\"%s\" is not a %s id (namespace:path)", v, t->kind);
    snprintf(id, sizeof id, "%s:%s", ns, path);
    int ex = t->exists ? t->exists(t->ctx, id) : 1;
    if (ex < 0) return -1;
    if (!ex) {
        if (!required) return 0;
        return loc_fail(t->err, el, CF_ERR_REF,
                        "unknown biome \"%s\" (not a vanilla biome, and no worldgen/biome file in the packs; "
                        "{\"id\": ..., \"required\": false} skips it)",
                        id);
    }
    return add(t, id, el);
}

/* adds the biomes of tag `tag` (without '#'), referenced at `at`: 1, 0 when an optional tag is
 * absent, -1 on error */
static int resolve(tr *t, const char *tag, cf_loc at, int required)
{
    char ns[128], path[384], rel[640];
    if (res_split(tag, ns, path) < 0) return loc_fail(t->err, at, CF_ERR_SCHEMA, "\"#%s\" is not a %s tag (#namespace:path)", tag, t->kind);
    const char *full = arena_printf(t->a, "%s:%s", ns, path);
    if (!full) return nomem(t);
    for (int i = 0; i < t->depth; i++)
        if (strcmp(t->chain[i], full) == 0) {
            char cyc[512];
            size_t o = 0;
            cyc[0] = 0;
            for (int k = i; k < t->depth && o < sizeof cyc; k++) o += (size_t)snprintf(cyc + o, sizeof cyc - o, "#%s -> ", t->chain[k]);
            return loc_fail(t->err, at, CF_ERR_SCHEMA, "%s tag cycle: %s#%s", t->kind, cyc, full);
        }
    if (t->depth == TAG_DEPTH) return loc_fail(t->err, at, CF_ERR_LIMIT, "%s tags nested deeper than %d", t->kind, TAG_DEPTH);
    snprintf(rel, sizeof rel, "data/%s/tags/%s/%s.json", ns, t->dir, path);
    cJSON *roots[TAG_FILES];
    cf_loc locs[TAG_FILES];
    int nroots = 0, first = 0, rc = 1;
    for (int p = 0; p < t->pk->n; p++) {
        cJSON *root = NULL;
        const char *display = NULL;
        int got = json_load_rel_in(t->a, t->pk, p, rel, &root, &display, t->err);
        if (got < 0) {
            rc = -1;
            goto out;
        }
        if (got == 0) continue;
        if (nroots == TAG_FILES) {
            cJSON_Delete(root);
            rc = loc_fail(t->err, at, CF_ERR_LIMIT, "%s tag \"#%s\" in more than %d packs", t->kind, full, TAG_FILES);
            goto out;
        }
        cf_loc fl = {display, NULL};
        roots[nroots] = root;
        locs[nroots++] = fl;
        if (!cJSON_IsObject(root)) {
            rc = loc_fail(t->err, fl, CF_ERR_SCHEMA, "expected a tag (an object with \"values\"), found %s", json_type(root));
            goto out;
        }
        const cJSON *rp = cJSON_GetObjectItemCaseSensitive(root, "replace");
        if (rp && !cJSON_IsBool(rp)) {
            rc = loc_fail(t->err, loc_key(t->a, fl, "replace"), CF_ERR_SCHEMA, "expected true or false, found %s", json_type(rp));
            goto out;
        }
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(root, "values");
        if (!vals) {
            rc = loc_fail(t->err, fl, CF_ERR_SCHEMA, "expected a tag (an object with \"values\"): missing field \"values\"");
            goto out;
        }
        if (!cJSON_IsArray(vals)) {
            rc = loc_fail(t->err, loc_key(t->a, fl, "values"), CF_ERR_SCHEMA, "expected an array, found %s", json_type(vals));
            goto out;
        }
        if (cJSON_IsTrue(rp)) first = nroots - 1;
    }
    if (nroots == 0) {
        if (!required) {
            rc = 0;
            goto out;
        }
        rc = loc_fail(t->err, at, CF_ERR_REF, "unknown %s tag \"#%s\" (no data/%s/tags/%s/%s.json in the packs)", t->kind, full, ns,
                      t->dir, path);
        goto out;
    }
    t->chain[t->depth++] = full;
    for (int f = first; f < nroots && rc > 0; f++) {
        cf_loc vl = loc_key(t->a, locs[f], "values");
        int i = 0;
        for (const cJSON *e = cJSON_GetObjectItemCaseSensitive(roots[f], "values")->child; e; e = e->next, i++)
            if (value(t, e, loc_index(t->a, vl, i)) < 0) {
                rc = -1;
                break;
            }
    }
    t->depth--;
out:
    for (int i = 0; i < nroots; i++) cJSON_Delete(roots[i]);
    return rc;
}

/* the ids of a tag of registry kind/dir (tag_biomes, tag_structures) */
static int tag_ids(tr *t, const char *tag, cf_loc at, const char ***out)
{
    *out = NULL;
    int rc = resolve(t, tag, at, 1);
    /* an empty tag is a valid tag (a rule's condition then selects nothing); callers that need
     * biomes (a checkerboard source) refuse it */
    const char **ids = rc > 0 && t->n > 0 ? arena_alloc(t->a, sizeof *ids * (size_t)t->n) : NULL;
    if (rc > 0 && t->n > 0 && !ids) rc = nomem(t);
    if (rc > 0 && ids && t->ids) memcpy(ids, t->ids, sizeof *ids * (size_t)t->n);
    *out = ids;
    free(t->ids);
    return rc > 0 ? t->n : -1;
}

int tag_biomes(cf_arena *a, cf_pack *pk, const char *tag, cf_loc at, int (*exists)(void *ctx, const char *id), void *ctx,
               const char ***out, cf_error *err)
{
    tr t = {.a = a, .pk = pk, .err = err, .exists = exists, .ctx = ctx, .kind = "biome", .dir = "worldgen/biome"};
    return tag_ids(&t, tag, at, out);
}

int tag_structures(cf_arena *a, cf_pack *pk, const char *tag, cf_loc at, const char ***out, cf_error *err)
{
    tr t = {.a = a, .pk = pk, .err = err, .kind = "structure", .dir = "worldgen/structure"};
    return tag_ids(&t, tag, at, out);
}
