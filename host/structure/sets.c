/* sets.c - the structure stage's input: every data/<ns>/worldgen/structure_set/<path>.json of the
 * packs, sub-folders included (<path> "a/b/name", the id ns:a/b/name) (the last pack's file wins, as every other registry file), the structures they name
 * (worldgen/structure/<path>.json; 1.18.2: worldgen/configured_structure_feature) and the biomes
 * of each (an id, a list of ids or a #tag of tags/worldgen/biome) -> the tables of structure.h.
 * Of a structure file only "type" and "biomes" are read (each type has many other fields, which
 * placement does not use). One table per kind: placements, frequency reductions, spread types,
 * structure types. Errors: one located line, file#/pointer: what was wrong.
 * Allocates in the cf_structures' arena; JSON trees die before return. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "structure/structure.h"

#define ST_MAX_SETS 1024
#define ST_MAX_ENTRIES 64

/* ------------------------------------------------------------------ the kinds, once */
static const char *const placement_names[SP_KINDS + 1] = {
    [SP_RANDOM_SPREAD] = "minecraft:random_spread",
    [SP_CONCENTRIC_RINGS] = "minecraft:concentric_rings",
};
static const char *const reduction_names[FR_KINDS + 1] = {
    [FR_DEFAULT] = "default",
    [FR_LEGACY_TYPE_1] = "legacy_type_1",
    [FR_LEGACY_TYPE_2] = "legacy_type_2",
    [FR_LEGACY_TYPE_3] = "legacy_type_3",
};
static const char *const spread_names[] = {[SPREAD_LINEAR] = "linear", [SPREAD_TRIANGULAR] = "triangular", NULL};

#define JIGSAW "a jigsaw structure: its start piece (template size, rotation) places the biome check; chunkfill has no templates"
#define CENTRE "the chunk centre's WORLD_SURFACE_WG height (water included) places the biome check: needs the terrain (a block program)"
#define CORNERS "the lowest corner must be at or above sea level and the chunk centre's WORLD_SURFACE_WG height places the biome check: needs the terrain (a block program)"
/* structure types, 1.19+ ids and 1.18.2's structure feature ids */
const st_type st_types[] = {
    {"minecraft:fortress", START_FIXED_Y, 64, NULL},
    {"minecraft:jigsaw", START_UNMODELLED, 0, JIGSAW},
    {"minecraft:village", START_UNMODELLED, 0, JIGSAW},
    {"minecraft:pillager_outpost", START_UNMODELLED, 0, JIGSAW},
    {"minecraft:bastion_remnant", START_UNMODELLED, 0, JIGSAW},
    {"minecraft:desert_pyramid", START_SINGLE_PIECE, 21 * 64 + 21, CORNERS},
    {"minecraft:jungle_temple", START_SINGLE_PIECE, 12 * 64 + 15, CORNERS},
    {"minecraft:jungle_pyramid", START_SINGLE_PIECE, 12 * 64 + 15, CORNERS},
    {"minecraft:swamp_hut", START_CENTRE, 0, CENTRE},
    {"minecraft:igloo", START_CENTRE, 0, CENTRE},
    {"minecraft:ocean_monument", START_UNMODELLED, 0, "the monument checks the biomes around its centre at sea level; not modelled yet"},
    {"minecraft:monument", START_UNMODELLED, 0, "the monument checks the biomes around its centre at sea level; not modelled yet"},
    {"minecraft:woodland_mansion", START_UNMODELLED, 0, "the mansion's start needs its rotation and the terrain's lowest corner"},
    {"minecraft:mansion", START_UNMODELLED, 0, "the mansion's start needs its rotation and the terrain's lowest corner"},
    {"minecraft:end_city", START_UNMODELLED, 0, "the end city needs the terrain's lowest corner (height >= 60)"},
    {"minecraft:endcity", START_UNMODELLED, 0, "the end city needs the terrain's lowest corner (height >= 60)"},
    {"minecraft:shipwreck", START_UNMODELLED, 0, "a single-piece start: its rotation and the terrain place the biome check"},
    {"minecraft:ocean_ruin", START_UNMODELLED, 0, "a single-piece start: its rotation and the terrain place the biome check"},
    {"minecraft:ruined_portal", START_UNMODELLED, 0, "the ruined portal's setup, rotation and terrain place the biome check"},
    {"minecraft:buried_treasure", START_UNMODELLED, 0, "the buried treasure's start at (9, 90, 9) of the chunk: its height is the terrain's"},
    {"minecraft:mineshaft", START_UNMODELLED, 0, "the mineshaft's start height is the terrain's (sea level, or a random one below)"},
    {"minecraft:nether_fossil", START_UNMODELLED, 0, "the nether fossil searches the terrain for its height"},
    {"minecraft:stronghold", START_UNMODELLED, 0, "the stronghold's start piece is laid out with its own random"},
    {NULL, 0, 0, NULL},
};

typedef struct ld {
    cf_structures *s;
    cf_fields r;
    cf_error *err;
    cf_arena scratch;
} ld;

static int nomem(ld *l) { return err_set(l->err, CF_ERR_NOMEM, "out of memory"), -1; }

/* "ns:path" of id, or NULL (after a located line at `at` when it is not a resource location) */
static const char *full_id(ld *l, const char *id, cf_loc at, const char *what)
{
    char ns[128], path[384];
    if (res_split(id, ns, path) < 0) return field_fail(&l->r, at, CF_ERR_SCHEMA, "\"%s\" is not a %s id (namespace:path)", id, what), NULL;
    const char *f = arena_printf(&l->s->arena, "%s:%s", ns, path);
    if (!f) nomem(l);
    return f;
}

/* a HolderSet of biomes (an id, [ids] or "#tag") at v -> in[palette index] */
static int biome_set(ld *l, const cJSON *v, cf_loc at, uint8_t *in)
{
    const char *names[CF_BIOME_PALETTE_MAX];
    int np = biome_palette(l->s->b, names);
    const char **ids = NULL;
    int n = 0;
    const char *one[1];
    if (cJSON_IsString(v) && v->valuestring[0] == '#') {
        if ((n = tag_biomes(&l->scratch, l->s->pk, v->valuestring + 1, at, NULL, NULL, &ids, l->err)) < 0) return -1;
    } else if (cJSON_IsString(v)) {
        if (!(one[0] = full_id(l, v->valuestring, at, "biome"))) return -1;
        ids = one, n = 1;
    } else if (cJSON_IsArray(v)) {
        n = cJSON_GetArraySize(v);
        if (!(ids = arena_alloc(&l->scratch, sizeof *ids * (size_t)(n + 1)))) return nomem(l);
        int i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            cf_loc el = field_index(&l->r, at, i);
            if (!cJSON_IsString(e)) return field_fail(&l->r, el, CF_ERR_SCHEMA, "expected a biome id (a string), found %s", json_type(e));
            if (!(ids[i] = full_id(l, e->valuestring, el, "biome"))) return -1;
        }
    } else {
        return field_fail(&l->r, at, CF_ERR_SCHEMA, "expected a biome id, a list of biome ids or a #tag, found %s", json_type(v));
    }
    for (int i = 0; i < n; i++)
        for (int p = 0; p < np; p++)
            if (strcmp(ids[i], names[p]) == 0) in[p] = 1;
    return 0;
}

/* the structure `id` (referenced at `at`): its index in s->st, or -1 */
static int structure(ld *l, const char *id, cf_loc at)
{
    cf_structures *s = l->s;
    for (int i = 0; i < s->nst; i++)
        if (strcmp(s->st[i].id, id) == 0) return i;
    char ns[128], path[384], rel[700];
    if (res_split(id, ns, path) < 0) return field_fail(&l->r, at, CF_ERR_SCHEMA, "\"%s\" is not a structure id (namespace:path)", id);
    cJSON *root = NULL;
    const char *display = NULL;
    int got = 0;
    static const char *const dirs[] = {"structure", "configured_structure_feature"};
    for (int d = 0; d < 2 && got == 0; d++) {
        snprintf(rel, sizeof rel, "data/%s/worldgen/%s/%s.json", ns, dirs[d], path);
        got = json_load_rel(&l->scratch, s->pk, rel, &root, &display, l->err);
    }
    if (got < 0) return -1;
    if (got == 0)
        return field_fail(&l->r, at, CF_ERR_REF, "unknown structure \"%s:%s\" (no data/%s/worldgen/structure/%s.json in the packs)", ns, path,
                          ns, path);
    int rc = -1;
    cf_loc fl = {display, NULL};
    st_structure *t = &s->st[s->nst];
    memset(t, 0, sizeof *t);
    const char *type = NULL;
    const cJSON *bv;
    if (!cJSON_IsObject(root)) {
        field_fail(&l->r, fl, CF_ERR_SCHEMA, "expected a structure (an object), found %s", json_type(root));
        goto out;
    }
    if (field_str(&l->r, NULL, root, fl, "type", CF_REQUIRED, &type) < 0) goto out;
    char tns[128], tpath[384], tfull[520];
    if (res_split(type, tns, tpath) < 0) tns[0] = 0;
    snprintf(tfull, sizeof tfull, "%s:%s", tns, tpath);
    for (const st_type *k = st_types; k->id && !t->type; k++)
        if (tns[0] && strcmp(k->id, tfull) == 0) t->type = k;
    if (!t->type) {
        field_fail(&l->r, field_key(&l->r, fl, "type"), CF_ERR_SCHEMA, "unknown structure type \"%s\"", type);
        goto out;
    }
    if (!(bv = field_need(&l->r, NULL, root, fl, "biomes"))) goto out;
    if (biome_set(l, bv, field_key(&l->r, fl, "biomes"), t->in) < 0) goto out;
    int np = biome_palette(s->b, NULL), nin = 0;
    for (int p = 0; p < np; p++) nin += t->in[p];
    t->all = nin == np, t->none = nin == 0;
    if (!(t->id = arena_printf(&s->arena, "%s:%s", ns, path)) || !(t->file = arena_strdup(&s->arena, display))) {
        nomem(l);
        goto out;
    }
    rc = s->nst++;
out:
    cJSON_Delete(root);
    return rc;
}

static int set_index(const cf_structures *s, const char *id)
{
    for (int i = 0; i < s->nsets; i++)
        if (strcmp(s->sets[i].id, id) == 0) return i;
    return -1;
}

/* the "placement" object of set t at pl */
static int placement(ld *l, st_set *t, const cJSON *p, cf_loc pl, const char **other, cf_loc *other_at)
{
    cf_fields *r = &l->r;
    cf_keys ks = {0};
    if (!cJSON_IsObject(p)) return field_fail(r, pl, CF_ERR_SCHEMA, "expected a placement (an object), found %s", json_type(p));
    const char *type = NULL;
    if (field_str(r, &ks, p, pl, "type", CF_REQUIRED, &type) < 0) return -1;
    char ns[128], path[384], full[520];
    t->kind = -1;
    if (res_split(type, ns, path) == 0) {
        snprintf(full, sizeof full, "%s:%s", ns, path);
        for (int k = 0; k < SP_KINDS; k++)
            if (strcmp(placement_names[k], full) == 0) t->kind = k;
    }
    if (t->kind < 0)
        return field_fail(r, field_key(r, pl, "type"), CF_ERR_SCHEMA,
                          "unknown placement type \"%s\" (expected minecraft:random_spread or minecraft:concentric_rings)", type);
    int salt = 0;
    double freq = 1.0;
    if (field_int(r, &ks, p, pl, "salt", t->kind == SP_RANDOM_SPREAD ? CF_REQUIRED : 0, 0, 0, INT32_MAX, &salt) < 0) return -1;
    if (field_num_in(r, &ks, p, pl, "frequency", NULL, 0, 1.0, 0.0, 1.0, &freq) < 0) return -1;
    if (field_enum(r, &ks, p, pl, "frequency_reduction_method", NULL, 0, FR_DEFAULT, reduction_names, &t->reduce) < 0) return -1;
    t->salt = salt, t->frequency = (float)freq;
    double off[3] = {0, 0, 0};
    int noff = 0;
    if (field_nums(r, &ks, p, pl, "locate_offset", 0, 3, 3, off, &noff) < 0) return -1;
    for (int i = 0; i < 3; i++) {
        if (off[i] != (double)(int)off[i] || off[i] < -16 || off[i] > 16)
            return field_fail(r, field_index(r, field_key(r, pl, "locate_offset"), i), CF_ERR_SCHEMA,
                              "expected an integer in [-16, 16], found %g", off[i]);
        t->locate[i] = (int32_t)off[i];
    }
    const cJSON *ez = field_get(r, &ks, p, "exclusion_zone");
    t->excl_set = -1;
    if (ez) {
        cf_loc el = field_key(r, pl, "exclusion_zone");
        cf_keys ek = {0};
        if (!cJSON_IsObject(ez)) return field_fail(r, el, CF_ERR_SCHEMA, "expected an object, found %s", json_type(ez));
        if (field_str(r, &ek, ez, el, "other_set", CF_REQUIRED, other) < 0) return -1;
        if (!(*other = arena_strdup(&l->scratch, *other))) return nomem(l); /* the JSON tree dies first */
        if (field_int(r, &ek, ez, el, "chunk_count", CF_REQUIRED, 0, 1, 16, &t->excl_chunks) < 0) return -1;
        if (field_unknown(r, &ek, ez, el, 0, NULL) < 0) return -1;
        *other_at = field_key(r, el, "other_set");
    }
    if (t->kind == SP_RANDOM_SPREAD) {
        int sp = 0, se = 0;
        if (field_int(r, &ks, p, pl, "spacing", CF_REQUIRED, 0, 0, 4096, &sp) < 0) return -1;
        if (field_int(r, &ks, p, pl, "separation", CF_REQUIRED, 0, 0, 4096, &se) < 0) return -1;
        if (field_enum(r, &ks, p, pl, "spread_type", NULL, 0, SPREAD_LINEAR, spread_names, &t->spread) < 0) return -1;
        if (sp <= se)
            return field_fail(r, pl, CF_ERR_SCHEMA, "spacing %d <= separation %d: the game refuses it (spacing has to be larger than separation)",
                              sp, se);
        t->spacing = sp, t->separation = se;
    } else {
        int d = 0, c = 0, sp = 0;
        if (field_int(r, &ks, p, pl, "distance", CF_REQUIRED, 0, 0, 1023, &d) < 0) return -1;
        if (field_int(r, &ks, p, pl, "spread", CF_REQUIRED, 0, 0, 1023, &sp) < 0) return -1;
        if (field_int(r, &ks, p, pl, "count", CF_REQUIRED, 0, 1, 4095, &c) < 0) return -1;
        const cJSON *pb = field_need(r, &ks, p, pl, "preferred_biomes");
        if (!pb || biome_set(l, pb, field_key(r, pl, "preferred_biomes"), t->preferred) < 0) return -1;
        t->distance = d, t->count = c, t->ring_spread = sp;
    }
    return field_unknown(r, &ks, p, pl, 0, NULL);
}

/* the set files under dir and its sub-folders (their paths "a/b/name", as the game's ids name
 * them) into names[n..]: the new total (more than ST_MAX_SETS: too many; names past it dropped),
 * or -1 (out of memory); folders 8 deep at most */
static int list_sets(cf_structures *s, const char *dir, const char *prefix, const char **names, int n, int depth)
{
    const char *here[ST_MAX_SETS];
    int k = pack_list(s->pk, dir, here, ST_MAX_SETS);
    for (int i = 0; i < k && i < ST_MAX_SETS; i++) {
        if (n < ST_MAX_SETS && !(names[n] = *prefix ? arena_printf(&s->arena, "%s%s", prefix, here[i]) : here[i])) return -1;
        n++;
    }
    if (k > ST_MAX_SETS) n += k - ST_MAX_SETS;
    if (depth >= 8) return n;
    int nd = pack_dirs(s->pk, dir, here, ST_MAX_SETS);
    for (int i = 0; i < nd && i < ST_MAX_SETS && n <= ST_MAX_SETS; i++) {
        char sub[700], pre[700];
        int a = snprintf(sub, sizeof sub, "%s/%s", dir, here[i]), b = snprintf(pre, sizeof pre, "%s%s/", prefix, here[i]);
        if (a < 0 || b < 0 || (size_t)a >= sizeof sub || (size_t)b >= sizeof pre) continue; /* no such long path is read */
        if ((n = list_sets(s, sub, pre, names, n, depth + 1)) < 0) return -1;
    }
    return n;
}

/* the set file data/<ns>/worldgen/structure_set/<path>.json into s->sets[s->nsets] */
static int set_file(ld *l, const char *ns, const char *path, const char **other, cf_loc *other_at)
{
    cf_structures *s = l->s;
    char rel[700];
    snprintf(rel, sizeof rel, "data/%s/worldgen/structure_set/%s.json", ns, path);
    cJSON *root = NULL;
    const char *display = NULL;
    int got = json_load_rel(&l->scratch, s->pk, rel, &root, &display, l->err);
    if (got <= 0) return got < 0 ? -1 : 0;
    int rc = -1;
    cf_loc fl = {display, NULL};
    st_set *t = &s->sets[s->nsets];
    memset(t, 0, sizeof *t);
    cf_keys ks = {0};
    const cJSON *arr = NULL, *p;
    int n = 0;
    if (!cJSON_IsObject(root)) {
        field_fail(&l->r, fl, CF_ERR_SCHEMA, "expected a structure set (an object), found %s", json_type(root));
        goto out;
    }
    if (!(t->id = arena_printf(&s->arena, "%s:%s", ns, path)) || !(t->file = arena_strdup(&s->arena, display))) {
        nomem(l);
        goto out;
    }
    if (field_array(&l->r, &ks, root, fl, "structures", CF_REQUIRED, 1, ST_MAX_ENTRIES, &arr, &n) < 0) goto out;
    if (!(t->st = arena_alloc(&s->arena, sizeof *t->st * (size_t)n)) || !(t->weight = arena_alloc(&s->arena, sizeof *t->weight * (size_t)n))) {
        nomem(l);
        goto out;
    }
    cf_loc al = field_key(&l->r, fl, "structures");
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        cf_loc el = field_index(&l->r, al, i);
        cf_keys ek = {0};
        const char *sid = NULL, *full;
        if (!cJSON_IsObject(e)) {
            field_fail(&l->r, el, CF_ERR_SCHEMA, "expected {\"structure\", \"weight\"}, found %s", json_type(e));
            goto out;
        }
        if (field_str(&l->r, &ek, e, el, "structure", CF_REQUIRED, &sid) < 0) goto out;
        if (field_int(&l->r, &ek, e, el, "weight", CF_REQUIRED, 1, 1, INT32_MAX, &t->weight[i]) < 0) goto out;
        if (field_unknown(&l->r, &ek, e, el, 0, NULL) < 0) goto out;
        if (!(full = full_id(l, sid, field_key(&l->r, el, "structure"), "structure"))) goto out;
        if ((t->st[i] = structure(l, full, field_key(&l->r, el, "structure"))) < 0) goto out;
    }
    t->n = n;
    if (!(p = field_need(&l->r, &ks, root, fl, "placement"))) goto out;
    if (placement(l, t, p, field_key(&l->r, fl, "placement"), other, other_at) < 0) goto out;
    if (field_unknown(&l->r, &ks, root, fl, 0, NULL) < 0) goto out;
    for (int k = 0; k < n; k++) t->active |= !s->st[t->st[k]].none;
    s->nsets++;
    rc = 1;
out:
    cJSON_Delete(root);
    return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int structures_load(cf_structures *s, cf_error *err)
{
    ld l = {.s = s, .err = err};
    field_init(&l.r, &l.scratch, err);
    if (s->pk->strict) l.r.unknown = CF_UNKNOWN_REFUSE;
    else l.r.unknown = CF_UNKNOWN_WARN, l.r.warn = pack_unknown_key, l.r.warn_ctx = s->pk;
    int rc = -1;
    const char *nss[256], **names = NULL, **others = NULL;
    cf_loc *other_at = NULL;
    int nns = pack_dirs(s->pk, "data", nss, 256), total = 0;
    if (nns > 256) nns = 256;
    qsort(nss, (size_t)nns, sizeof *nss, cmp_str);
    if (!(names = malloc(sizeof *names * ST_MAX_SETS)) || !(others = calloc(ST_MAX_SETS, sizeof *others)) ||
        !(other_at = calloc(ST_MAX_SETS, sizeof *other_at)) || !(s->sets = arena_alloc(&s->arena, sizeof *s->sets * ST_MAX_SETS)) ||
        !(s->st = arena_alloc(&s->arena, sizeof *s->st * ST_MAX_SETS * 4))) {
        nomem(&l);
        goto out;
    }
    for (int i = 0; i < nns; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, "data/%s/worldgen/structure_set", nss[i]);
        int n = list_sets(s, dir, "", names, 0, 0);
        if (n < 0) {
            nomem(&l);
            goto out;
        }
        if (n > ST_MAX_SETS || total + n > ST_MAX_SETS) {
            err_set(err, CF_ERR_LIMIT, "%s: more than %d structure sets", dir, ST_MAX_SETS);
            goto out;
        }
        qsort(names, (size_t)n, sizeof *names, cmp_str);
        for (int k = 0; k < n; k++) {
            if (s->nst + ST_MAX_ENTRIES > ST_MAX_SETS * 4) {
                err_set(err, CF_ERR_LIMIT, "%s: more than %d structures", dir, ST_MAX_SETS * 4 - ST_MAX_ENTRIES);
                goto out;
            }
            int at = s->nsets;
            int got = set_file(&l, nss[i], names[k], &others[at], &other_at[at]);
            if (got < 0) goto out;
        }
        total += n;
    }
    /* exclusion zones name other sets: resolved once all are read */
    for (int i = 0; i < s->nsets; i++) {
        if (!others[i]) continue;
        char ns[128], path[384], full[520];
        int j = res_split(others[i], ns, path) == 0 ? (snprintf(full, sizeof full, "%s:%s", ns, path), set_index(s, full)) : -1;
        if (j < 0) {
            field_fail(&l.r, other_at[i], CF_ERR_REF, "unknown structure set \"%s\"", others[i]);
            goto out;
        }
        s->sets[i].excl_set = j;
    }
    rc = 0;
out:
    free(names);
    free(others);
    free(other_at);
    arena_free(&l.scratch);
    return rc;
}
