/* source.c - biome sources (../shared/BIOMES.md §1, §2, §6-§8): reading a dimension's biome
 * source from the packs, opening and freeing a cf_biomes, its palette and settings.
 *
 * Input: packs (a dimension file or a noise settings id, parameter lists) and a
 * seed; output: a cf_biomes, which owns an arena (palette, describe text), the list
 * and its tree (malloc'd), and the climate program and world it samples. Its
 * queries (quarts, blocks, grids, chunk fills) are query.c's.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "kernels/cf_math.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"


static const char *const field_fn[6] = {"router:temperature", "router:vegetation", "router:continents",
                                        "router:erosion",     "router:depth",      "router:ridges"};
static const char *const end_names[5] = {"minecraft:the_end", "minecraft:end_highlands", "minecraft:end_midlands",
                                         "minecraft:small_end_islands", "minecraft:end_barrens"};

/* ------------------------------------------------------------------ small helpers */
int64_t biome_zoom_seed(int64_t seed)
{
    uint8_t in[8], d[32];
    for (int i = 0; i < 8; i++) in[i] = (uint8_t)((uint64_t)seed >> (8 * i)); /* little-endian */
    SHA2_CTX c;
    SHA256Init(&c);
    SHA256Update(&c, in, 8);
    SHA256Final(d, &c);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | d[i];
    return (int64_t)v;
}

const int32_t *biome_tree(const cf_biomes *b, int *nnodes, int *k)
{
    if (nnodes) *nnodes = b->nnodes;
    if (k) *k = b->k;
    return b->tree;
}
const bm_list *biome_list(const cf_biomes *b) { return &b->list; }

/* the palette index of biome id (interned), or -1 when the palette is full */
static int pal_index(cf_biomes *b, const char *id)
{
    for (int i = 0; i < b->npal; i++)
        if (strcmp(b->pal[i], id) == 0) return i;
    if (b->npal == CF_BIOME_PALETTE_MAX) return -1;
    const char *s = arena_strdup(&b->arena, id);
    if (!s) return -1;
    b->pal[b->npal] = s;
    return b->npal++;
}


/* the full id "ns:path" (arena) */
static const char *full_id(cf_biomes *b, const char *id)
{
    char ns[128], path[384];
    if (res_split(id, ns, path) < 0) return NULL;
    return arena_printf(&b->arena, "%s:%s", ns, path);
}

/* ------------------------------------------------------------------ JSON reading */
typedef struct rd {
    cf_biomes *b;
    cf_pack *pk;
    cf_arena scratch; /* json_load_rel's arena (display paths) */
    cf_error *err;
} rd;

static int rfail(rd *r, cf_loc at, cf_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int rfail(rd *r, cf_loc at, cf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    loc_vfail(r->err, at, st, fmt, ap);
    va_end(ap);
    return -1;
}
static cf_loc at_key(rd *r, cf_loc at, const char *k) { return loc_key(&r->scratch, at, k); }
static cf_loc at_index(rd *r, cf_loc at, int i) { return loc_index(&r->scratch, at, i); }

/* loads data/<ns>/<dir>/<path>.json: 1 (root, display), 0 absent, -1 error */
static int load(rd *r, const char *dir, const char *id, cJSON **root, cf_loc *at)
{
    char ns[128], path[384], rel[640];
    if (res_split(id, ns, path) < 0)
        return err_set(r->err, CF_ERR_ARG, "\"%s\" is not a resource location (namespace:path)", id), -1;
    snprintf(rel, sizeof rel, "data/%s/%s/%s.json", ns, dir, path);
    const char *display = NULL;
    int got = json_load_rel(&r->scratch, r->pk, rel, root, &display, r->err);
    if (got > 0) {
        at->file = display;
        at->ptr = NULL;
    }
    return got;
}

static const cJSON *need(rd *r, const cJSON *o, cf_loc at, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) rfail(r, at, CF_ERR_SCHEMA, "missing field \"%s\"", key);
    return v;
}

static const char *need_string(rd *r, const cJSON *o, cf_loc at, const char *key)
{
    const cJSON *v = need(r, o, at, key);
    if (!v) return NULL;
    if (!cJSON_IsString(v)) return rfail(r, at_key(r, at, key), CF_ERR_SCHEMA, "expected a string, found %s", json_type(v)), NULL;
    return v->valuestring;
}

/* a type name with or without "minecraft:" */
static int is_type(const char *t, const char *name) { return strcmp(t, name) == 0 || (strncmp(t, "minecraft:", 10) == 0 && strcmp(t + 10, name) == 0); }

/* a biome id value: its palette index */
static int biome_value(rd *r, const cJSON *v, cf_loc at)
{
    if (!cJSON_IsString(v)) return rfail(r, at, CF_ERR_SCHEMA, "expected a biome id (a string), found %s", json_type(v));
    if (v->valuestring[0] == '#')
        return rfail(r, at, CF_ERR_SCHEMA,
                     "biome tag \"%s\": a tag is allowed only as a checkerboard's whole \"biomes\" value, not here (list the biome ids)",
                     v->valuestring);
    const char *id = full_id(r->b, v->valuestring);
    if (!id) return rfail(r, at, CF_ERR_SCHEMA, "\"%s\" is not a biome id (namespace:path)", v->valuestring);
    int i = pal_index(r->b, id);
    if (i < 0) return rfail(r, at, CF_ERR_LIMIT, "more than %d distinct biomes", CF_BIOME_PALETTE_MAX);
    return i;
}

/* ------------------------------------------------------------------ biome tags
 * A checkerboard's "biomes" may be a tag, "#ns:path": host/base/tags.c reads it as the game
 * does (every pack's file merged, "replace", nested tags, "required": false). A biome exists
 * when it is vanilla's or the packs hold data/<ns>/worldgen/biome/<path>.json. */
static int vanilla_biome(const char *id)
{
    if (strcmp(id, "minecraft:the_void") == 0) return 1;
    for (int i = 0; i < BP_NAMES; i++)
        if (strcmp(bp_names[i], id) == 0) return 1;
    for (int i = 0; i < BP_NETHER; i++)
        if (strcmp(bp_nether[i].biome, id) == 0) return 1;
    for (int i = 0; i < 5; i++)
        if (strcmp(end_names[i], id) == 0) return 1;
    return 0;
}

/* 1 when biome `id` (full) exists, 0 when not, -1 on a read error (tag_biomes' exists) */
static int biome_exists(void *ctx, const char *id)
{
    rd *r = ctx;
    if (vanilla_biome(id)) return 1;
    char ns[128], path[384], rel[640];
    if (res_split(id, ns, path) < 0) return 0;
    snprintf(rel, sizeof rel, "data/%s/worldgen/biome/%s.json", ns, path);
    char *text = NULL;
    size_t len;
    const char *display;
    int got = pack_read_rel(r->pk, rel, &text, &len, &display, r->err);
    free(text);
    return got;
}

/* a float of Climate.Parameter's codec in [lo, hi], quantized (§3) */
static int quant_value(rd *r, const cJSON *v, cf_loc at, float lo, float hi, int32_t *out)
{
    if (!cJSON_IsNumber(v)) return rfail(r, at, CF_ERR_SCHEMA, "expected a number, found %s", json_type(v));
    double d = v->valuedouble;
    float f = (float)d;
    if (!(f >= lo && f <= hi)) return rfail(r, at, CF_ERR_SCHEMA, "value %.9g out of range [%g, %g]", d, (double)lo, (double)hi);
    *out = (int32_t)cf_b_quantize(f);
    return 0;
}

/* a Parameter: a number, [min, max] or {"min", "max"} */
static int parameter(rd *r, const cJSON *v, cf_loc at, int32_t *lo, int32_t *hi)
{
    *lo = *hi = 0;
    if (cJSON_IsNumber(v)) {
        if (quant_value(r, v, at, -2.0f, 2.0f, lo) < 0) return -1;
        *hi = *lo;
        return 0;
    }
    const cJSON *a = NULL, *c = NULL;
    cf_loc la, lc;
    if (cJSON_IsArray(v)) {
        if (cJSON_GetArraySize(v) != 2) return rfail(r, at, CF_ERR_SCHEMA, "expected [min, max], found %d values", cJSON_GetArraySize(v));
        a = cJSON_GetArrayItem(v, 0), c = cJSON_GetArrayItem(v, 1);
        la = at_index(r, at, 0), lc = at_index(r, at, 1);
    } else if (cJSON_IsObject(v)) {
        if (!(a = need(r, v, at, "min")) || !(c = need(r, v, at, "max"))) return -1;
        la = at_key(r, at, "min"), lc = at_key(r, at, "max");
    } else {
        return rfail(r, at, CF_ERR_SCHEMA, "expected a number or [min, max], found %s", json_type(v));
    }
    float fa = (float)a->valuedouble, fc = (float)c->valuedouble;
    if (quant_value(r, a, la, -2.0f, 2.0f, lo) < 0 || quant_value(r, c, lc, -2.0f, 2.0f, hi) < 0) return -1;
    if (fa > fc) return rfail(r, at, CF_ERR_SCHEMA, "min %.9g is greater than max %.9g", (double)fa, (double)fc);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* the distinct biome ids of a list (strings, or objects' "biome" strings; others are reported
 * where the list is read), beyond the palette's CF_BIOME_PALETTE_MAX: one line with the count
 * (issue 32 item 7: biome outputs hold one byte per biome). 0 when they fit, -1 reported. */
static int biomes_fit(rd *r, const cJSON *arr, cf_loc at, const char *what)
{
    int n = cJSON_GetArraySize(arr), k = 0, distinct = 0;
    if (n <= CF_BIOME_PALETTE_MAX) return 0;
    const char **ids = malloc(sizeof(char *) * (size_t)n);
    if (!ids) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
    for (const cJSON *e = arr->child; e; e = e->next) {
        const cJSON *v = cJSON_IsObject(e) ? cJSON_GetObjectItemCaseSensitive(e, "biome") : e;
        const char *id = cJSON_IsString(v) && v->valuestring[0] != '#' ? full_id(r->b, v->valuestring) : NULL;
        if (id) ids[k++] = id;
    }
    qsort(ids, (size_t)k, sizeof *ids, cmp_str);
    for (int i = 0; i < k; i++) distinct += i == 0 || strcmp(ids[i], ids[i - 1]) != 0;
    free(ids);
    if (distinct <= CF_BIOME_PALETTE_MAX) return 0;
    return rfail(r, at, CF_ERR_LIMIT, "%s names %d distinct biomes, more than the %d a biome palette holds (biome outputs hold one byte per biome)",
                 what, distinct, CF_BIOME_PALETTE_MAX);
}

/* an inline "biomes" list of a multi_noise source */
static int inline_list(rd *r, const cJSON *arr, cf_loc at)
{
    static const char *const keys[6] = {"temperature", "humidity", "continentalness", "erosion", "depth", "weirdness"};
    if (!cJSON_IsArray(arr)) return rfail(r, at, CF_ERR_SCHEMA, "expected an array of biome entries, found %s", json_type(arr));
    int n = cJSON_GetArraySize(arr);
    if (n < 1) return rfail(r, at, CF_ERR_SCHEMA, "the biome list has no entries");
    if (biomes_fit(r, arr, at, "the biome list") < 0) return -1;
    bm_list *l = &r->b->list;
    l->n = n;
    l->lo = malloc((size_t)n * sizeof *l->lo);
    l->hi = malloc((size_t)n * sizeof *l->hi);
    l->pal = malloc((size_t)n * sizeof *l->pal);
    if (!l->lo || !l->hi || !l->pal) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        cf_loc ei = at_index(r, at, i);
        if (!cJSON_IsObject(e)) return rfail(r, ei, CF_ERR_SCHEMA, "expected an object, found %s", json_type(e));
        const cJSON *bv = need(r, e, ei, "biome");
        if (!bv) return -1;
        if ((l->pal[i] = biome_value(r, bv, at_key(r, ei, "biome"))) < 0) return -1;
        const cJSON *p = need(r, e, ei, "parameters");
        if (!p) return -1;
        cf_loc pl = at_key(r, ei, "parameters");
        if (!cJSON_IsObject(p)) return rfail(r, pl, CF_ERR_SCHEMA, "expected an object, found %s", json_type(p));
        for (int a = 0; a < 6; a++) {
            const cJSON *v = need(r, p, pl, keys[a]);
            if (!v || parameter(r, v, at_key(r, pl, keys[a]), &l->lo[i][a], &l->hi[i][a]) < 0) return -1;
        }
        const cJSON *o = need(r, p, pl, "offset");
        if (!o || quant_value(r, o, at_key(r, pl, "offset"), 0.0f, 1.0f, &l->lo[i][6]) < 0) return -1;
        l->hi[i][6] = l->lo[i][6];
    }
    return 0;
}

/* a built-in preset by name ("minecraft:overworld", "minecraft:nether") */
static int preset(rd *r, const char *name, const char *version, cf_loc at)
{
    cf_biomes *b = r->b;
    if (is_type(name, "overworld")) {
        if (bm_preset_overworld(version, &b->list) < 0)
            return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
        int map[BP_NAMES];
        for (int i = 0; i < BP_NAMES; i++) map[i] = -1;
        for (int i = 0; i < b->list.n; i++) {
            int p = b->list.pal[i];
            if (map[p] < 0 && (map[p] = pal_index(b, bp_names[p])) < 0) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
            b->list.pal[i] = map[p];
        }
        return 0;
    }
    if (is_type(name, "nether")) {
        const char *names[BP_NETHER];
        if (bm_preset_nether(&b->list, names) < 0) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
        for (int i = 0; i < b->list.n; i++)
            if ((b->list.pal[i] = pal_index(b, names[i])) < 0) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
        return 0;
    }
    return rfail(r, at, CF_ERR_SCHEMA, "unknown preset \"%s\" (minecraft:overworld or minecraft:nether)", name);
}

/* a biome_source object */
static int biome_source(rd *r, const cJSON *s, cf_loc at, const char *version, char *what, size_t wsz)
{
    cf_biomes *b = r->b;
    if (!cJSON_IsObject(s)) return rfail(r, at, CF_ERR_SCHEMA, "expected a biome source object, found %s", json_type(s));
    const char *type = need_string(r, s, at, "type");
    if (!type) return -1;
    if (is_type(type, "multi_noise")) {
        b->kind = BS_MULTI;
        const cJSON *bl = cJSON_GetObjectItemCaseSensitive(s, "biomes");
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(s, "preset");
        if (bl && pr) return rfail(r, at, CF_ERR_SCHEMA, "give \"biomes\" or \"preset\", not both");
        if (bl) {
            snprintf(what, wsz, "multi_noise (inline list)");
            return inline_list(r, bl, at_key(r, at, "biomes"));
        }
        if (!pr) return rfail(r, at, CF_ERR_SCHEMA, "missing field \"biomes\" or \"preset\"");
        cf_loc pl = at_key(r, at, "preset");
        if (!cJSON_IsString(pr)) return rfail(r, pl, CF_ERR_SCHEMA, "expected a parameter list id, found %s", json_type(pr));
        /* 1.19.3+: the id of a multi_noise_biome_source_parameter_list, whose "preset" names a built-in one */
        cJSON *root = NULL;
        cf_loc fl;
        int got = load(r, "worldgen/multi_noise_biome_source_parameter_list", pr->valuestring, &root, &fl);
        if (got < 0) return -1;
        int rc;
        if (got == 0) {
            if (!is_type(pr->valuestring, "overworld") && !is_type(pr->valuestring, "nether"))
                return rfail(r, pl, CF_ERR_REF, "no parameter list \"%s\" (worldgen/multi_noise_biome_source_parameter_list)",
                             pr->valuestring);
            rc = preset(r, pr->valuestring, version, pl);
            snprintf(what, wsz, "multi_noise preset %s", pr->valuestring);
        } else {
            const char *name = cJSON_IsObject(root) ? need_string(r, root, fl, "preset")
                                                    : (rfail(r, fl, CF_ERR_SCHEMA, "expected an object, found %s", json_type(root)), NULL);
            rc = name ? preset(r, name, version, at_key(r, fl, "preset")) : -1;
            if (name) snprintf(what, wsz, "multi_noise %s (preset %s)", pr->valuestring, name);
        }
        cJSON_Delete(root);
        return rc;
    }
    if (is_type(type, "the_end")) {
        b->kind = BS_END;
        for (int i = 0; i < 5; i++)
            if (pal_index(b, end_names[i]) != i) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
        snprintf(what, wsz, "the_end");
        return 0;
    }
    if (is_type(type, "fixed")) {
        b->kind = BS_FIXED;
        const cJSON *v = need(r, s, at, "biome");
        if (!v || (b->fixed = biome_value(r, v, at_key(r, at, "biome"))) < 0) return -1;
        snprintf(what, wsz, "fixed %s", b->pal[b->fixed]);
        return 0;
    }
    if (is_type(type, "checkerboard")) {
        b->kind = BS_CHECKER;
        const cJSON *v = need(r, s, at, "biomes");
        if (!v) return -1;
        cf_loc vl = at_key(r, at, "biomes");
        if (cJSON_IsString(v) && v->valuestring[0] == '#') {
            const char **ids = NULL;
            int n = tag_biomes(&r->scratch, r->pk, v->valuestring + 1, vl, biome_exists, r, &ids, r->err);
            if (n < 0) return -1;
            if (n == 0) return rfail(r, vl, CF_ERR_SCHEMA, "the biome tag \"%s\" holds no biomes (a checkerboard needs at least one)", v->valuestring);
            if (n > CF_BIOME_PALETTE_MAX)
                return rfail(r, vl, CF_ERR_LIMIT, "the biome tag \"%s\" holds %d biomes, more than the %d a biome palette holds (biome outputs hold one byte per biome)",
                             v->valuestring, n, CF_BIOME_PALETTE_MAX);
            if (!(b->chk = arena_alloc(&r->b->arena, sizeof(int) * (size_t)n))) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
            for (int i = 0; i < n; i++)
                if ((b->chk[i] = pal_index(r->b, ids[i])) < 0) return rfail(r, vl, CF_ERR_LIMIT, "more than %d distinct biomes", CF_BIOME_PALETTE_MAX);
            b->nchk = n;
        } else if (cJSON_IsString(v)) {
            if (!(b->chk = arena_alloc(&r->b->arena, sizeof(int)))) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
            if ((b->chk[0] = biome_value(r, v, vl)) < 0) return -1;
            b->nchk = 1;
        } else if (cJSON_IsArray(v)) {
            int i = 0;
            if (biomes_fit(r, v, vl, "the checkerboard") < 0) return -1;
            /* the list's slots (a biome may repeat), sized from the input */
            size_t nslots = (size_t)cJSON_GetArraySize(v);
            if (!(b->chk = arena_alloc(&r->b->arena, sizeof(int) * (nslots ? nslots : 1)))) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
            for (const cJSON *e = v->child; e; e = e->next, i++) {
                if ((b->chk[i] = biome_value(r, e, at_index(r, vl, i))) < 0) return -1;
            }
            if (i == 0) return rfail(r, vl, CF_ERR_SCHEMA, "the biome list has no entries");
            b->nchk = i;
        } else {
            return rfail(r, vl, CF_ERR_SCHEMA, "expected a biome id or a list of them, found %s", json_type(v));
        }
        int scale = 2;
        const cJSON *sc = cJSON_GetObjectItemCaseSensitive(s, "scale");
        if (sc) {
            if (!cJSON_IsNumber(sc) || sc->valuedouble != floor(sc->valuedouble) || sc->valuedouble < 0 || sc->valuedouble > 62)
                return rfail(r, at_key(r, at, "scale"), CF_ERR_SCHEMA, "expected an integer in [0, 62]");
            scale = (int)sc->valuedouble;
        }
        b->shift = scale + 2;
        if (cJSON_IsString(v) && v->valuestring[0] == '#') snprintf(what, wsz, "checkerboard (%s: %d biomes, scale %d)", v->valuestring, b->nchk, scale);
        else snprintf(what, wsz, "checkerboard (%d biomes, scale %d)", b->nchk, scale);
        return 0;
    }
    return rfail(r, at_key(r, at, "type"), CF_ERR_SCHEMA,
                 "unknown biome source type \"%s\" (minecraft:multi_noise, the_end, fixed or checkerboard)", type);
}

/* Inline noise settings: a dimension file's "generator": {"settings": {...}} is compiled as a
 * settings file of its own, id chunkfill:inline/<ns>/<path> of the dimension, that the packs'
 * reader finds before every pack (pack_overlay) while the climate program is compiled; its
 * references (noise router functions, noises) resolve in the packs as a file's would. */
typedef struct overlay {
    const char *id, *rel, *display; /* arena of the cf_biomes */
    char *text;                     /* cJSON_PrintUnformatted (cJSON_free) */
} overlay;

static int inline_settings(rd *r, const cJSON *st, const char *dimension, cf_loc fl, overlay *ov)
{
    char ns[128], path[384];
    if (res_split(dimension, ns, path) < 0)
        return err_set(r->err, CF_ERR_ARG, "\"%s\" is not a resource location (namespace:path)", dimension), -1;
    ov->id = arena_printf(&r->b->arena, "chunkfill:inline/%s/%s", ns, path);
    ov->rel = arena_printf(&r->b->arena, "data/chunkfill/worldgen/noise_settings/inline/%s/%s.json", ns, path);
    /* the display is the settings' place in the dimension file: locations inside read
     * FILE#/generator/settings#/noise/..., which inline_message makes one pointer */
    ov->display = arena_printf(&r->b->arena, "%s#/generator/settings", fl.file);
    ov->text = cJSON_PrintUnformatted(st); /* numbers printed to round-trip exactly */
    if (!ov->id || !ov->rel || !ov->display || !ov->text) return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

/* "D#/generator/settings#/x: m" -> "D#/generator/settings/x: m" (and "#: m" -> ": m") */
static void inline_message(cf_error *e, const char *display)
{
    char *m = strstr(e->message, display);
    if (!m) return;
    m += strlen(display);
    if (*m == '#') memmove(m, m + 1, strlen(m + 1) + 1);
}

/* the vanilla biome source of a settings id (as the normal world preset pairs them) */
static const char *default_source(const char *settings)
{
    if (is_type(settings, "nether")) return "{\"type\":\"minecraft:multi_noise\",\"preset\":\"minecraft:nether\"}";
    if (is_type(settings, "end")) return "{\"type\":\"minecraft:the_end\"}";
    return "{\"type\":\"minecraft:multi_noise\",\"preset\":\"minecraft:overworld\"}";
}

/* what is kept between biome_open_begin and biome_open_end */
struct biome_opening {
    rd r;
    cJSON *dim, *def;
    const cJSON *src;
    overlay ov;
    cf_loc sat;
    const char *sid, *version;
    int64_t seed;
};

/* what an open holds only while it runs: the dimension's JSON, the inline settings' text, the reader's arena */
static void open_scratch_free(cJSON *dim, cJSON *def, char *ovtext, cf_arena *scratch)
{
    cJSON_Delete(dim);
    cJSON_Delete(def);
    cJSON_free(ovtext);
    arena_free(scratch);
}

static void opening_free(struct biome_opening *o)
{
    if (!o) return;
    open_scratch_free(o->dim, o->def, o->ov.text, &o->r.scratch);
    free(o);
}

cf_status biome_open_begin(cf_biomes **out, cf_pack *pack, const char *dimension, const char *settings, const char *version,
                           int64_t seed, biome_compile *c, cf_error *err)
{
    if (out) *out = NULL;
    if (!out || !pack) return err_set(err, CF_ERR_ARG, "cf_biomes_open: bad arguments");
    if (version && bm_version_k(version) < 0)
        return err_set(err, CF_ERR_ARG, "version \"%s\": expected a Minecraft version from 1.18 to 26.3 (1.21.11, 26.3, ...)", version);
    cf_error *e = err;
    cf_biomes *b = calloc(1, sizeof *b);
    if (!b) return err_set(err, CF_ERR_NOMEM, "out of memory");
    rd r = {.b = b, .pk = pack, .err = e};
    cJSON *dim = NULL, *def = NULL;
    const cJSON *src = NULL;
    overlay ov = {0};
    cf_loc sat = {"(default)", NULL};
    const char *sid = settings;
    /* the dimension: its file, or the vanilla default */
    if (dimension) {
        cf_loc fl;
        int got = load(&r, "dimension", dimension, &dim, &fl);
        if (got < 0) goto fail;
        if (got > 0) {
            if (!cJSON_IsObject(dim)) {
                rfail(&r, fl, CF_ERR_SCHEMA, "expected a dimension object, found %s", json_type(dim));
                goto fail;
            }
            const cJSON *gen = need(&r, dim, fl, "generator");
            if (!gen) goto fail;
            cf_loc gl = at_key(&r, fl, "generator");
            if (!cJSON_IsObject(gen)) {
                rfail(&r, gl, CF_ERR_SCHEMA, "expected a generator object, found %s", json_type(gen));
                goto fail;
            }
            const char *gt = need_string(&r, gen, gl, "type");
            if (!gt) goto fail;
            if (!is_type(gt, "noise")) {
                rfail(&r, at_key(&r, gl, "type"), CF_ERR_SCHEMA, "generator type \"%s\": only minecraft:noise has a biome source here", gt);
                goto fail;
            }
            const cJSON *st = need(&r, gen, gl, "settings");
            if (!st) goto fail;
            if (cJSON_IsObject(st)) {
                if (!sid && inline_settings(&r, st, dimension, fl, &ov) < 0) goto fail;
            } else if (!cJSON_IsString(st)) {
                rfail(&r, at_key(&r, gl, "settings"), CF_ERR_SCHEMA, "expected a noise settings id or object, found %s", json_type(st));
                goto fail;
            } else if (!sid) {
                sid = arena_strdup(&b->arena, st->valuestring);
            }
            if (ov.id) sid = ov.id;
            if (!(src = need(&r, gen, gl, "biome_source"))) goto fail;
            sat = at_key(&r, gl, "biome_source");
        } else {
            const char *vs = is_type(dimension, "overworld") ? "minecraft:overworld"
                             : is_type(dimension, "the_nether") ? "minecraft:nether"
                             : is_type(dimension, "the_end") ? "minecraft:end" : NULL;
            if (!vs) {
                err_set(e, CF_ERR_REF, "dimension \"%s\": no dimension file (data/<ns>/dimension/<path>.json) in the packs", dimension);
                goto fail;
            }
            if (!sid) sid = vs;
            def = cJSON_Parse(default_source(vs));
        }
    } else {
        if (!sid) sid = "minecraft:overworld";
        def = cJSON_Parse(default_source(sid));
    }
    if (!src) {
        if (!def) {
            err_set(e, CF_ERR_NOMEM, "out of memory");
            goto fail;
        }
        src = def;
    }
    /* the climate program (the caller compiles it: it tells the dialect, so it comes before the preset) */
    {
        cJSON *t = cJSON_GetObjectItemCaseSensitive(src, "type");
        int end = cJSON_IsObject(src) && cJSON_IsString(t) && is_type(t->valuestring, "the_end");
        static const char *const endfn[1] = {"router:erosion"};
        struct biome_opening *o = malloc(sizeof *o);
        if (!o) {
            err_set(e, CF_ERR_NOMEM, "out of memory");
            goto fail;
        }
        *o = (struct biome_opening){.r = r, .dim = dim, .def = def, .src = src, .ov = ov, .sat = sat, .sid = sid, .version = version,
                                    .seed = seed};
        b->opening = o;
        c->settings = sid;
        c->functions = end ? endfn : field_fn;
        c->nfunctions = end ? 1 : 6;
        if (ov.id) pack_overlay(pack, ov.rel, ov.text, ov.display); /* until biome_open_end */
    }
    *out = b;
    return CF_OK;
fail:
    open_scratch_free(dim, def, ov.text, &r.scratch);
    biome_free(b);
    return e->status ? e->status : CF_ERR_ARG;
}

cf_status biome_open_end(cf_biomes *b, cf_program *prog, cf_biomes **out, cf_error *err)
{
    struct biome_opening *o = b->opening;
    rd r = o->r;
    cJSON *dim = o->dim, *def = o->def;
    const cJSON *src = o->src;
    overlay ov = o->ov;
    cf_loc sat = o->sat;
    const char *sid = o->sid, *version = o->version;
    int64_t seed = o->seed;
    cf_error *e = err;
    char what[256] = "";
    free(o);
    b->opening = NULL;
    b->prog = prog;
    if (ov.id) {
        pack_overlay(r.pk, NULL, NULL, NULL);
        if (!prog) inline_message(e, ov.display);
    }
    if (!prog) goto fail;
    b->f64 = b->prog->prec == PREC_F64;
    if (b->prog->dialect != DIALECT_MC263 && b->prog->dialect != DIALECT_MC121) {
        err_set(e, CF_ERR_ARG, "settings %s: biomes need Minecraft noise settings", sid);
        goto fail;
    }
    b->min_y = b->prog->min_y;
    b->height = b->prog->height;
    if (world_new(&b->w, b->prog, seed, e) != CF_OK) goto fail;
    if (!version) { /* the packs' game version (version.json, pack.mcmeta, --version), else the dialect's */
        const char *pv = pack_game_version(r.pk, NULL, NULL);
        version = pv && game_version_data(pv) ? pv : b->f64 ? "1.21.11" : "26.3";
    }
    if (biome_source(&r, src, sat, version, what, sizeof what) < 0) goto fail;
    if (b->kind == BS_MULTI) {
        b->k = bm_version_k(version);
        int32_t *entry_of = NULL;
        b->tree = bm_tree_build_ex(&b->list, b->k, &b->nnodes, &entry_of);
        if (b->tree && bm_fast_build(&b->fast, &b->list, BM_FAST_K, b->tree, b->nnodes, entry_of) < 0) {
            free(b->tree);
            b->tree = NULL;
        }
        free(entry_of);
        if (!b->tree) {
            err_set(e, CF_ERR_NOMEM, "out of memory (or a parameter list nested deeper than %d)", CF_B_MAXDEPTH);
            goto fail;
        }
    }
    b->zseed = biome_zoom_seed(seed);
    if (ov.id) {
        sid = arena_printf(&b->arena, "inline (%s)", ov.display);
        b->ov_rel = ov.rel, b->ov_display = ov.display; /* biome_overlay: other programs of these settings */
        if (!(b->ov_text = arena_strdup(&b->arena, ov.text))) sid = NULL;
    }
    if (!sid) {
        err_set(e, CF_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if (b->kind == BS_MULTI)
        b->describe = arena_printf(&b->arena, "%s, version %s: %d entries, %d biomes, RTree %d children per node, %d nodes; settings %s (%s)",
                                   what, version, b->list.n, b->npal, b->k, b->nnodes, sid, b->f64 ? "1.18-1.21, double" : "26.3, float");
    else
        b->describe = arena_printf(&b->arena, "%s; settings %s", what, sid);
    open_scratch_free(dim, def, ov.text, &r.scratch);
    *out = b;
    return CF_OK;
fail:
    open_scratch_free(dim, def, ov.text, &r.scratch);
    biome_free(b);
    return e->status ? e->status : CF_ERR_ARG;
}

void biome_overlay(const cf_biomes *b, cf_pack *pk, int on)
{
    if (!b || !b->ov_rel) return;
    if (on) pack_overlay(pk, b->ov_rel, b->ov_text, b->ov_display);
    else pack_overlay(pk, NULL, NULL, NULL);
}

void biome_overlay_message(const cf_biomes *b, cf_error *e)
{
    if (b && b->ov_rel && e) inline_message(e, b->ov_display);
}

cf_status biome_set_seed(cf_biomes *b, int64_t seed, cf_error *err)
{
    if (!b) return err_set(err, CF_ERR_ARG, "cf_biomes_set_seed: bad arguments");
    cf_world *w;
    if (world_new(&w, b->prog, seed, err) != CF_OK) return err && err->status ? err->status : CF_ERR_NOMEM;
    world_release(b->w);
    b->w = w;
    b->zseed = biome_zoom_seed(seed);
    return CF_OK;
}

void biome_free(cf_biomes *b)
{
    if (!b) return;
    opening_free(b->opening);
    world_release(b->w);
    program_free(b->prog);
    bm_list_free(&b->list);
    bm_fast_free(&b->fast);
    free(b->tree);
    arena_free(&b->arena);
    free(b);
}

int biome_palette(const cf_biomes *b, const char **names)
{
    if (names)
        for (int i = 0; i < b->npal; i++) names[i] = b->pal[i];
    return b->npal;
}

void biome_range(const cf_biomes *b, int *min_y, int *height)
{
    if (min_y) *min_y = b->min_y;
    if (height) *height = b->height;
}

const char *biome_settings(const cf_biomes *b) { return b && b->prog ? b->prog->settings_id : NULL; }

const char *biome_describe(const cf_biomes *b) { return b->describe ? b->describe : ""; }

void biome_count_ties(cf_biomes *b, int on) { b->count_ties = on; }

void biome_stats(const cf_biomes *b, uint64_t *lookups, uint64_t *ties)
{
    if (lookups) *lookups = atomic_load(&((cf_biomes *)b)->lookups);
    if (ties) *ties = atomic_load(&((cf_biomes *)b)->ties);
}
