/* rules.c - surface rules -> the IR rule table (ir/rules.h), for both Minecraft dialects
 * (../shared/MATERIAL-RULES.md §4.2, §4.3, §6.2):
 *   1.18-1.21 (and 26.1-26.2) `surface_rule`: inline rules, block states {"Name", "Properties"},
 *     `biome_is` a list of ids (26.2: or one id), `noise_threshold` 2-D (26.2: `is_3d`);
 *   26.3 `material_rule`: every rule or condition may be a string id of a `material_rule` /
 *     `material_condition` registry entry (compiled again at each reference; a reference back
 *     into one being compiled is a cycle), block states as id strings, `biome_is` a holder set
 *     (an id, a list, or a #tag of data/<ns>/tags/worldgen/biome/, read by host/base/tags.c as the game
 *     merges it over the packs), `ore_vein`.
 * Noises and density functions become program outputs through the front-end's callbacks.
 * Errors: one line, "file.json#/pointer: what was wrong".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/frontend.h"

typedef struct rc {
    const fr_host *h;
    cf_rules *r;
    int caprows;
    const char **chain; /* the references being compiled, outermost first (arena; --max-depth of them) */
    int nchain, capchain, depth;
    int *hslot[3], hcap[3]; /* the hashes of r's blocks, biomes and names (intern) */
    int over;               /* the first block state past CF_RULE_MAX_BLOCKS: reported with the count at the end */
    cf_loc over_at;
} rc;

static int fail(rc *c, cf_loc at, cf_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(rc *c, cf_loc at, cf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    loc_vfail(c->h->err, at, st, fmt, ap);
    va_end(ap);
    return -1;
}
static int nomem(rc *c) { return err_set(c->h->err, CF_ERR_NOMEM, "out of memory"), -1; }
static cf_arena *arena(rc *c) { return &c->h->p->arena; }
static cf_loc at_key(rc *c, cf_loc at, const char *k) { return loc_key(arena(c), at, k); }

static int row_add(rc *c, int kind)
{
    cf_rules *r = c->r;
    if ((size_t)r->nrows >= c->h->pk->lim.max_nodes) return err_set(c->h->err, CF_ERR_LIMIT, "the surface rule has more than %zu rows", c->h->pk->lim.max_nodes), -1;
    if (r->nrows == c->caprows) {
        int cap = c->caprows ? 2 * c->caprows : 64;
        cf_rrow *n = arena_alloc(arena(c), sizeof *n * (size_t)cap);
        if (!n) return nomem(c);
        if (r->nrows) memcpy(n, r->rows, sizeof *n * (size_t)r->nrows);
        r->rows = n, c->caprows = cap;
    }
    memset(&r->rows[r->nrows], 0, sizeof r->rows[0]);
    r->rows[r->nrows].kind = kind;
    return r->nrows++;
}

/* index of s in a growing string list (arena), appended when new; the list's hash (in the arena, grown
 * with it) finds it in constant time: a condition naming 100,000 distinct biomes took 17 CPU s by a
 * linear search, a million would take half an hour */
enum { L_BLOCKS, L_BIOMES, L_NAMES };
static uint32_t str_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}
static void hash_put(int *slot, int cap, uint32_t h, int id)
{
    uint32_t m = (uint32_t)cap - 1, i = h & m;
    while (slot[i]) i = (i + 1) & m;
    slot[i] = id + 1;
}
static int intern(rc *c, int which, const char ***list, int *n, const char *s)
{
    int *slot = c->hslot[which], cap = c->hcap[which];
    uint32_t h = str_hash(s);
    if (cap)
        for (uint32_t m = (uint32_t)cap - 1, i = h & m; slot[i]; i = (i + 1) & m)
            if (strcmp((*list)[slot[i] - 1], s) == 0) return slot[i] - 1;
    char *d = arena_strdup(arena(c), s);
    if (!d) return nomem(c);
    if ((*n & (*n - 1)) == 0) { /* the capacity doubles at each power of two (was one copy per entry: quadratic memory) */
        const char **l = arena_alloc(arena(c), sizeof(char *) * (size_t)(*n ? 2 * *n : 1));
        if (!l) return nomem(c);
        if (*n) memcpy(l, *list, sizeof(char *) * (size_t)*n);
        *list = l;
    }
    int id = (*n)++;
    (*list)[id] = d;
    if (2 * *n > cap) { /* at most half full: a new table of 4 n slots */
        int ncap = 16;
        while (ncap < 4 * *n) ncap *= 2;
        int *ns = arena_alloc(arena(c), sizeof(int) * (size_t)ncap);
        if (!ns) return nomem(c);
        memset(ns, 0, sizeof(int) * (size_t)ncap);
        for (int i = 0; i < *n; i++) hash_put(ns, ncap, str_hash((*list)[i]), i);
        c->hslot[which] = ns, c->hcap[which] = ncap;
    } else {
        hash_put(slot, cap, h, id);
    }
    return id;
}

static const cJSON *field(rc *c, const cJSON *o, cf_loc at, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!v) fail(c, at, CF_ERR_SCHEMA, "missing field \"%s\"", k);
    return v;
}

static int get_int(rc *c, const cJSON *o, cf_loc at, const char *k, int dflt, int lo, int hi, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    *out = dflt;
    if (!v) return 0;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi)
        return fail(c, at_key(c, at, k), CF_ERR_SCHEMA, "expected an integer in [%d, %d], found %s", lo, hi, json_type(v));
    *out = (int)v->valuedouble;
    return 0;
}

static int get_bool(rc *c, const cJSON *o, cf_loc at, const char *k, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    *out = 0;
    if (!v) return 0;
    if (!cJSON_IsBool(v)) return fail(c, at_key(c, at, k), CF_ERR_SCHEMA, "expected true or false, found %s", json_type(v));
    *out = cJSON_IsTrue(v);
    return 0;
}

static int get_num(rc *c, const cJSON *o, cf_loc at, const char *k, double *out)
{
    const cJSON *v = field(c, o, at, k);
    if (!v) return -1;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return fail(c, at_key(c, at, k), CF_ERR_SCHEMA, "expected a number, found %s", json_type(v));
    *out = v->valuedouble;
    return 0;
}

/* an id with the default namespace: "stone" -> "minecraft:stone" */
static int norm_id(rc *c, cf_loc at, const char *s, char *out, size_t n)
{
    if (!*s) return fail(c, at, CF_ERR_SCHEMA, "empty id");
    for (const char *q = s; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || strchr("_-./:", *q)))
            return fail(c, at, CF_ERR_SCHEMA, "invalid character in id \"%s\"", s);
    if (strchr(s, ':')) snprintf(out, n, "%s", s);
    else snprintf(out, n, "minecraft:%s", s);
    return 0;
}

/* a block state: "minecraft:id" (26.3) or {"Name", "Properties"}; the index in blocks[] */
static int block_state(rc *c, const cJSON *v, cf_loc at)
{
    char id[512], full[1024];
    if (cJSON_IsObject(v) && !c->h->f32) {
        for (const cJSON *k = v->child; k; k = k->next)
            if (strcmp(k->string, "Name") != 0 && strcmp(k->string, "Properties") != 0)
                return fail(c, at_key(c, at, k->string), CF_ERR_SCHEMA, "unknown key \"%s\" for a block state (Name, Properties)", k->string);
        const cJSON *nm = field(c, v, at, "Name");
        if (!nm) return -1;
        if (!cJSON_IsString(nm)) return fail(c, at_key(c, at, "Name"), CF_ERR_SCHEMA, "expected a block id (a string), found %s", json_type(nm));
        if (norm_id(c, at_key(c, at, "Name"), nm->valuestring, id, sizeof id) < 0) return -1;
        size_t len = (size_t)snprintf(full, sizeof full, "%s", id);
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(v, "Properties");
        if (pr) {
            cf_loc pa = at_key(c, at, "Properties");
            if (!cJSON_IsObject(pr)) return fail(c, pa, CF_ERR_SCHEMA, "expected an object of strings, found %s", json_type(pr));
            int first = 1;
            for (const cJSON *k = pr->child; k; k = k->next) {
                if (!cJSON_IsString(k)) return fail(c, at_key(c, pa, k->string), CF_ERR_SCHEMA, "expected a string, found %s", json_type(k));
                len += (size_t)snprintf(full + len, len < sizeof full ? sizeof full - len : 0, "%s%s=%s", first ? "[" : ",", k->string, k->valuestring);
                first = 0;
            }
            if (!first) len += (size_t)snprintf(full + len, len < sizeof full ? sizeof full - len : 0, "]");
            if (len >= sizeof full) return fail(c, pa, CF_ERR_LIMIT, "block state too long");
        }
    } else {
        if (!cJSON_IsString(v)) return fail(c, at, CF_ERR_SCHEMA, "expected a block id (a string), found %s", json_type(v));
        if (norm_id(c, at, v->valuestring, full, sizeof full) < 0) return -1;
    }
    /* the block outputs hold one byte per block (.npy u1, the protocol's BLOCKS_U8, region palettes built
     * from them): 255 states with the noise stage's and snow_block and packed_ice (cpu/surface.c) */
    int k = intern(c, L_BLOCKS, &c->r->blocks, &c->r->nblocks, full);
    if (k >= CF_RULE_MAX_BLOCKS && !c->over) c->over = 1, c->over_at = at; /* counted to the end, then refused */
    return k;
}

/* a vertical anchor: {"absolute" | "above_bottom" | "below_top" | "relative_to_sea_level": int} */
static int anchor(rc *c, const cJSON *o, cf_loc at, const char *k, int *y)
{
    const cJSON *v = field(c, o, at, k);
    if (!v) return -1;
    at = at_key(c, at, k);
    if (!cJSON_IsObject(v) || !v->child || v->child->next)
        return fail(c, at, CF_ERR_SCHEMA, "expected an anchor (an object with one key), found %s", json_type(v));
    const cJSON *e = v->child;
    if (!cJSON_IsNumber(e) || e->valuedouble != floor(e->valuedouble) || fabs(e->valuedouble) > 1e6)
        return fail(c, at_key(c, at, e->string), CF_ERR_SCHEMA, "expected an integer, found %s", json_type(e));
    int o2 = (int)e->valuedouble;
    const cf_program *p = c->h->p;
    if (strcmp(e->string, "absolute") == 0) *y = o2;
    else if (strcmp(e->string, "above_bottom") == 0) *y = p->min_y + o2;
    else if (strcmp(e->string, "below_top") == 0) *y = p->height - 1 + p->min_y - o2;
    else if (strcmp(e->string, "relative_to_sea_level") == 0 && c->h->f32) *y = p->sea_level + o2;
    else return fail(c, at_key(c, at, e->string), CF_ERR_SCHEMA, "unknown anchor \"%s\"", e->string);
    return 0;
}

static int compile(rc *c, const cJSON *v, cf_loc at, int cond);

/* a registry reference (26.3): the entry compiled at this place */
static int reference(rc *c, const char *s, cf_loc at, int cond)
{
    const char *kind = cond ? "material_condition" : "material_rule";
    if (!c->h->ref) return fail(c, at, CF_ERR_SCHEMA, "expected a %s (an object), found a string", cond ? "condition" : "rule");
    char id[512];
    if (norm_id(c, at, s, id, sizeof id) < 0) return -1;
    for (int i = 0; i < c->nchain; i++)
        if (strcmp(c->chain[i], id) == 0) return fail(c, at, CF_ERR_CYCLE, "reference cycle through %s \"%s\"", kind, id);
    if (c->nchain >= c->h->pk->lim.max_depth)
        return fail(c, at, CF_ERR_LIMIT, "references nested deeper than %d (the limit: --max-depth, cf_limits.max_depth)", c->nchain);
    if (c->nchain == c->capchain) { /* the game has no limit but its stack: ours is --max-depth */
        int cap = c->capchain ? 2 * c->capchain : 16;
        const char **n = arena_alloc(arena(c), sizeof *n * (size_t)cap);
        if (!n) return nomem(c);
        if (c->nchain) memcpy(n, c->chain, sizeof *n * (size_t)c->nchain);
        c->chain = n, c->capchain = cap;
    }
    cf_loc fa;
    const cJSON *e = c->h->ref(c->h->ctx, kind, id, &fa);
    if (!e) {
        if (err_failed(c->h->err)) return -1;
        return fail(c, at, CF_ERR_REF, "unresolved reference to %s \"%s\"", kind, id);
    }
    c->chain[c->nchain++] = arena_strdup(arena(c), id);
    int r = compile(c, e, fa, cond);
    c->nchain--;
    return r;
}

static int biome_set(rc *c, int row, const cJSON *v, cf_loc at)
{
    int *ids = NULL, n = 0, cap = 0; /* as many as the condition names (the game has no limit) */
    const cJSON *one = cJSON_IsString(v) ? v : NULL;
    if (!v || (!one && !cJSON_IsArray(v))) return fail(c, at, CF_ERR_SCHEMA, "expected a biome id or a list of them, found %s", json_type(v));
    for (const cJSON *b = one ? one : v->child; b; b = one ? NULL : b->next) {
        cf_loc ba = one ? at : loc_index(arena(c), at, n);
        if (!cJSON_IsString(b)) return fail(c, ba, CF_ERR_SCHEMA, "expected a biome id (a string), found %s", json_type(b));
        const char *s = b->valuestring;
        if (s[0] == '#') {
            if (!c->h->f32) return fail(c, ba, CF_ERR_SCHEMA, "biome tags are not allowed here (\"%s\")", s);
            char id[512];
            if (norm_id(c, ba, s + 1, id, sizeof id) < 0) return -1;
            const char **members = NULL; /* host/base/tags.c: the game's merging over the packs */
            int m = tag_biomes(arena(c), c->h->pk, id, ba, NULL, NULL, &members, c->h->err);
            if (m < 0) return -1;
            for (int i = 0; i < m; i++) {
                int b = intern(c, L_BIOMES, &c->r->biomes, &c->r->nbiomes, members[i]);
                if (b < 0) return -1;
                if (arena_push_int(arena(c), &ids, n++, &cap, b) < 0) return nomem(c);
            }
            continue;
        }
        char id[512];
        if (norm_id(c, ba, s, id, sizeof id) < 0) return -1;
        int bi = intern(c, L_BIOMES, &c->r->biomes, &c->r->nbiomes, id);
        if (bi < 0) return -1;
        if (arena_push_int(arena(c), &ids, n++, &cap, bi) < 0) return nomem(c);
    }
    cf_rrow *r = &c->r->rows[row];
    r->n = n;
    r->kids = ids ? ids : arena_alloc(arena(c), sizeof(int));
    if (!r->kids) return nomem(c);
    return 0;
}

static const char *const kinds[SR_KINDS] = {
    "block", "sequence", "condition", "bandlands", "ore_vein", "stone_depth", "y_above", "water", "vertical_gradient",
    "noise_threshold", "biome", "not", "hole", "steep", "above_preliminary_surface", "temperature"};
/* the keys each type reads ("type" always) */
static const char *const keys[SR_KINDS] = {
    "result_state", "sequence", "if_true then_run", "", "ore_block raw_ore_block filler_block raw_ore_chance density richness filler_gap",
    "offset add_surface_depth secondary_depth_range surface_type", "anchor surface_depth_multiplier add_stone_depth",
    "offset surface_depth_multiplier add_stone_depth", "random_name true_at_and_below false_at_and_above",
    "noise min_threshold max_threshold is_3d", "biome_is", "invert", "", "", "", ""};

static int compile(rc *c, const cJSON *v, cf_loc at, int cond)
{
    if (++c->depth > c->h->pk->lim.max_depth) return fail(c, at, CF_ERR_LIMIT, "the surface rule is nested deeper than %d", c->h->pk->lim.max_depth);
    int res = -1;
    if (cJSON_IsString(v)) {
        res = reference(c, v->valuestring, at, cond);
        c->depth--;
        return res;
    }
    if (!cJSON_IsObject(v)) {
        c->depth--;
        return fail(c, at, CF_ERR_SCHEMA, "expected a %s (an object with \"type\"), found %s", cond ? "condition" : "rule", json_type(v));
    }
    const cJSON *t = field(c, v, at, "type");
    if (!t) return -1;
    if (!cJSON_IsString(t)) return fail(c, at_key(c, at, "type"), CF_ERR_SCHEMA, "expected a type id (a string), found %s", json_type(t));
    const char *ts = strncmp(t->valuestring, "minecraft:", 10) == 0 ? t->valuestring + 10 : t->valuestring;
    int kind = -1;
    for (int k = cond ? SC_STONE_DEPTH : 0; k < (cond ? SR_KINDS : SC_STONE_DEPTH); k++)
        if (strcmp(kinds[k], ts) == 0) kind = k;
    if (kind == SR_ORE_VEIN && !c->h->f32) kind = -1; /* 26.3 only */
    if (kind < 0)
        return fail(c, at_key(c, at, "type"), CF_ERR_SCHEMA, "unknown %s type \"%s\"", cond ? "condition" : "rule", t->valuestring);
    for (const cJSON *k = v->child; k; k = k->next) {
        if (strcmp(k->string, "type") == 0) continue;
        const char *ks = keys[kind], *hit = strstr(ks, k->string);
        size_t l = strlen(k->string);
        while (hit && !((hit == ks || hit[-1] == ' ') && (hit[l] == 0 || hit[l] == ' '))) hit = strstr(hit + 1, k->string);
        if (!hit) return fail(c, at_key(c, at, k->string), CF_ERR_SCHEMA, "unknown key \"%s\" for %s", k->string, kinds[kind]);
    }
    int row = row_add(c, kind);
    if (row < 0) return -1;
#define R (c->r->rows[row])
    switch (kind) {
    case SR_BLOCK: {
        const cJSON *b = field(c, v, at, "result_state");
        if (!b || (R.a[0] = block_state(c, b, at_key(c, at, "result_state"))) < 0) return -1;
        break;
    }
    case SR_SEQUENCE: {
        const cJSON *s = field(c, v, at, "sequence");
        if (!s) return -1;
        cf_loc sa = at_key(c, at, "sequence");
        if (!cJSON_IsArray(s) || cJSON_GetArraySize(s) < 1)
            return fail(c, sa, CF_ERR_SCHEMA, "expected a non-empty list of rules, found %s", json_type(s));
        int n = cJSON_GetArraySize(s), i = 0;
        int *kids = arena_alloc(arena(c), sizeof(int) * (size_t)n);
        if (!kids) return nomem(c);
        for (const cJSON *e = s->child; e; e = e->next, i++)
            if ((kids[i] = compile(c, e, loc_index(arena(c), sa, i), 0)) < 0) return -1;
        R.n = n, R.kids = kids;
        break;
    }
    case SR_CONDITION: {
        const cJSON *ci = field(c, v, at, "if_true"), *th = ci ? field(c, v, at, "then_run") : NULL;
        if (!th) return -1;
        int a = compile(c, ci, at_key(c, at, "if_true"), 1);
        if (a < 0) return -1;
        int b = compile(c, th, at_key(c, at, "then_run"), 0);
        if (b < 0) return -1;
        R.a[0] = a, R.a[1] = b;
        break;
    }
    case SR_BANDLANDS: {
        static const char *const band[7] = {"minecraft:terracotta", "minecraft:orange_terracotta", "minecraft:yellow_terracotta",
                                            "minecraft:brown_terracotta", "minecraft:red_terracotta", "minecraft:white_terracotta",
                                            "minecraft:light_gray_terracotta"};
        for (int i = 0; i < 7; i++)
            if ((c->r->band_block[i] = intern(c, L_BLOCKS, &c->r->blocks, &c->r->nblocks, band[i])) < 0) return -1;
        break;
    }
    case SR_ORE_VEIN: {
        static const char *const bk[3] = {"ore_block", "raw_ore_block", "filler_block"};
        static const char *const dk[3] = {"density", "richness", "filler_gap"};
        for (int i = 0; i < 3; i++) {
            const cJSON *b = field(c, v, at, bk[i]);
            if (!b || (R.a[i] = block_state(c, b, at_key(c, at, bk[i]))) < 0) return -1;
        }
        double ch;
        if (get_num(c, v, at, "raw_ore_chance", &ch) < 0) return -1;
        if (ch < 0 || ch > 1) return fail(c, at_key(c, at, "raw_ore_chance"), CF_ERR_SCHEMA, "expected a number in [0, 1], found %g", ch);
        R.f = (float)ch;
        for (int i = 0; i < 3; i++) {
            const cJSON *d = field(c, v, at, dk[i]);
            if (!d) return -1;
            int o = c->h->function(c->h->ctx, d, at_key(c, at, dk[i]));
            if (o < 0) return -1;
            c->r->rows[row].a[3 + i] = o;
        }
        break;
    }
    case SC_STONE_DEPTH: {
        const cJSON *st = field(c, v, at, "surface_type");
        if (!st) return -1;
        if (!cJSON_IsString(st) || (strcmp(st->valuestring, "floor") != 0 && strcmp(st->valuestring, "ceiling") != 0))
            return fail(c, at_key(c, at, "surface_type"), CF_ERR_SCHEMA, "expected \"floor\" or \"ceiling\", found %s", json_type(st));
        R.a[3] = strcmp(st->valuestring, "ceiling") == 0;
        if (!field(c, v, at, "offset") || get_int(c, v, at, "offset", 0, -1000000, 1000000, &R.a[0]) < 0
            || get_bool(c, v, at, "add_surface_depth", &R.a[1]) < 0
            || get_int(c, v, at, "secondary_depth_range", 0, -1000000, 1000000, &R.a[2]) < 0)
            return -1;
        break;
    }
    case SC_Y_ABOVE:
        if (anchor(c, v, at, "anchor", &R.a[0]) < 0 || !field(c, v, at, "surface_depth_multiplier")
            || get_int(c, v, at, "surface_depth_multiplier", 0, -20, 20, &R.a[1]) < 0 || get_bool(c, v, at, "add_stone_depth", &R.a[2]) < 0)
            return -1;
        break;
    case SC_WATER:
        if (!field(c, v, at, "offset") || get_int(c, v, at, "offset", 0, -1000000, 1000000, &R.a[0]) < 0
            || !field(c, v, at, "surface_depth_multiplier")
            || get_int(c, v, at, "surface_depth_multiplier", 0, -20, 20, &R.a[1]) < 0 || get_bool(c, v, at, "add_stone_depth", &R.a[2]) < 0)
            return -1;
        break;
    case SC_GRADIENT: {
        const cJSON *nm = field(c, v, at, "random_name");
        if (!nm) return -1;
        if (!cJSON_IsString(nm) || !*nm->valuestring)
            return fail(c, at_key(c, at, "random_name"), CF_ERR_SCHEMA, "expected a random name (a string), found %s", json_type(nm));
        char id[512];
        if (norm_id(c, at_key(c, at, "random_name"), nm->valuestring, id, sizeof id) < 0) return -1;
        int k = intern(c, L_NAMES, &c->r->names, &c->r->nnames, id);
        if (k < 0) return -1;
        c->r->rows[row].a[2] = k;
        if (anchor(c, v, at, "true_at_and_below", &R.a[0]) < 0 || anchor(c, v, at, "false_at_and_above", &R.a[1]) < 0) return -1;
        break;
    }
    case SC_NOISE: {
        const cJSON *nz = field(c, v, at, "noise");
        if (!nz || get_num(c, v, at, "min_threshold", &R.d[0]) < 0 || get_num(c, v, at, "max_threshold", &R.d[1]) < 0
            || get_bool(c, v, at, "is_3d", &R.a[1]) < 0)
            return -1;
        int o = c->h->noise(c->h->ctx, nz, at_key(c, at, "noise"), 1.0);
        if (o < 0) return -1;
        c->r->rows[row].a[0] = o;
        break;
    }
    case SC_BIOME: {
        const cJSON *b = field(c, v, at, "biome_is");
        if (!b || biome_set(c, row, b, at_key(c, at, "biome_is")) < 0) return -1;
        break;
    }
    case SC_NOT: {
        const cJSON *i = field(c, v, at, "invert");
        if (!i) return -1;
        int a = compile(c, i, at_key(c, at, "invert"), 1);
        if (a < 0) return -1;
        c->r->rows[row].a[0] = a;
        break;
    }
    default: break;
    }
#undef R
    c->depth--;
    return row;
}

cf_status rules_compile(const fr_host *h, const cJSON *rule, cf_loc at)
{
    cf_program *p = h->p;
    cf_rules *r = arena_alloc(&p->arena, sizeof *r);
    if (!r) return err_set(h->err, CF_ERR_NOMEM, "out of memory");
    rc c = {.h = h, .r = r};
    r->f32 = h->f32;
    for (int i = 0; i < 7; i++) r->band_block[i] = -1;
    /* SurfaceSystem's own noises, at (x, 0, z) times these scales */
    static const char *const fixed[SN_COUNT] = {"minecraft:surface", "minecraft:surface_secondary", "minecraft:clay_bands_offset",
                                                "minecraft:badlands_surface", "minecraft:badlands_pillar", "minecraft:badlands_pillar_roof",
                                                "minecraft:iceberg_surface", "minecraft:iceberg_pillar", "minecraft:iceberg_pillar_roof"};
    static const double scale[SN_COUNT] = {1, 1, 1, 1, 0.2, 0.75, 1, 1.28, 1.17};
    for (int i = 0; i < SN_COUNT; i++) {
        cJSON *s = cJSON_CreateString(fixed[i]);
        if (!s) return err_set(h->err, CF_ERR_NOMEM, "out of memory");
        r->fixed[i] = h->noise(h->ctx, s, at, scale[i]);
        cJSON_Delete(s);
        if (r->fixed[i] < 0) return h->err->status;
    }
    r->root = compile(&c, rule, at, 0);
    if (r->root < 0) return err_failed(h->err) ? h->err->status : CF_ERR_SCHEMA;
    if (c.over) /* one line with the count, at the first state past the limit */
        return fail(&c, c.over_at, CF_ERR_LIMIT,
                    "the rule names %d distinct block states, more than the %d it may (block outputs hold one byte per block: "
                    "at most 255 states with the noise stage's)",
                    r->nblocks, CF_RULE_MAX_BLOCKS),
               CF_ERR_LIMIT;
    p->rules = r;
    return CF_OK;
}
