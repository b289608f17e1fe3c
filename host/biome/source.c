/* source.c - biome sources (../shared/BIOMES.md §1, §2, §6-§8) and the public
 * biome calls of include/chunkfill.h.
 *
 * Input: packs (a dimension file or a noise settings id, parameter lists) and a
 * seed; output: biome palette indices per quart, per block (zoom), per 1:4 grid
 * and per chunk. A cf_biomes owns an arena (palette, describe text), the list
 * and its tree (malloc'd), and the climate program and world it samples.
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

/* an inline "biomes" list of a multi_noise source */
static int inline_list(rd *r, const cJSON *arr, cf_loc at)
{
    static const char *const keys[6] = {"temperature", "humidity", "continentalness", "erosion", "depth", "weirdness"};
    if (!cJSON_IsArray(arr)) return rfail(r, at, CF_ERR_SCHEMA, "expected an array of biome entries, found %s", json_type(arr));
    int n = cJSON_GetArraySize(arr);
    if (n < 1) return rfail(r, at, CF_ERR_SCHEMA, "the biome list has no entries");
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
            if (n > CF_BIOME_PALETTE_MAX) return rfail(r, vl, CF_ERR_LIMIT, "more than %d biomes", CF_BIOME_PALETTE_MAX);
            for (int i = 0; i < n; i++)
                if ((b->chk[i] = pal_index(r->b, ids[i])) < 0) return rfail(r, vl, CF_ERR_LIMIT, "more than %d distinct biomes", CF_BIOME_PALETTE_MAX);
            b->nchk = n;
        } else if (cJSON_IsString(v)) {
            if ((b->chk[0] = biome_value(r, v, vl)) < 0) return -1;
            b->nchk = 1;
        } else if (cJSON_IsArray(v)) {
            int i = 0;
            for (const cJSON *e = v->child; e; e = e->next, i++) {
                if (i == CF_BIOME_PALETTE_MAX) return rfail(r, vl, CF_ERR_LIMIT, "more than %d biomes", CF_BIOME_PALETTE_MAX);
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

/* ------------------------------------------------------------------ lookups */
int32_t biome_lookup(const cf_biomes *b, const int64_t *t, int32_t warm, int64_t *fit, int *ties)
{
    int32_t leaf = cf_b_search(b->tree, t, warm, fit);
    if (ties) *ties = cf_b_count_at(b->tree, t, *fit);
    return leaf;
}

/* per-thread state of a query run */
typedef struct qctx {
    cf_biomes *b;
    ev64_ctx c; /* 1.18-1.21 (it remembers every node's last point) */
    int has_c;
    cf_fill f;  /* 26.3: a last-point memo on every node, so that the six fields share their
                 * common subgraphs (shift noises; depth's offset spline reads the other fields) */
    uint8_t *memo;
    int32_t hint; /* the last point query's leaf (cf_b_search_hint), or -1 */
    uint64_t lookups, ties;
    int want_tie, tie; /* biome_quart_stored: a tie at the last search */
    /* 1.18-1.21 chunk fills: the fields whose value provably does not depend on y (yfree, a
     * bit per field) once per quart column: the f64 path remembers only its last point and
     * the fill order changes x or z at every query */
    unsigned yfree;
    int32_t ccx, ccz;   /* the chunk of fcol (chunk_fill) */
    int cok;            /* fcol belongs to (ccx, ccz) */
    int flat_ok;        /* chunk fills may run eval64's chunk mode (yfree_fields) */
    uint8_t fhave[16];  /* per quart column: bit k, fcol[.][k] known */
    float fcol[16][6];
    /* 26.3 grid rows: the noises the fields reach, a row of samples at a time in lanes
     * (stackrow.c; lanes_init), their values put in the memo before each sample */
    int nl;             /* lane nodes, in program order */
    struct lnode *ln;
    float (*lv)[STACK_LANES_MAX]; /* per lane node, per sample of the row */
    int lisa, lrow;     /* stack_lanes_isa(); the sample of the row being looked up, or -1 */
} qctx;

/* a noise node whose values a grid row computes in lanes: shift_a, shift_b, shift, or a
 * noise whose shift inputs are literals or lane nodes (through cache markers) */
typedef struct lnode {
    int id, kind, stack;
    int in[3];      /* the shift inputs: a lane node's index, or -1 (the literal lit[k]) */
    float lit[3];
    int zero;       /* every input the literal +0 (eval.c's unshifted form); zy: shift_y so */
    int zy;
    double xz, ys;
} lnode;

/* the 1.18-1.21 fields (outputs 0..5) that do not read y on the point path (eval64.c,
 * EV64_POINT: markers are their argument): a bit per field. Kinds not named: y-dependent.
 * shifted_noise with y_scale 0 reads y * 0 (+0 or -0) plus shift_y: y-free only where
 * shift_y is a constant without the sign bit (then the sum is +0 for every y). */
static unsigned yfree_fields(const cf_program *p, int *flat_ok)
{
    *flat_ok = 0;
    int n = p->nnodes;
    uint8_t *fr = malloc((size_t)n + 1);
    if (!fr) return 0;
    for (int i = 0; i < n; i++) { /* inputs come before their users (program order) */
        const cf_node *nd = &p->nodes[i];
        int all = 1, f = 0;
        for (int k = 0; k < nd->nin; k++) all &= nd->in[k] >= 0 && nd->in[k] < i && fr[nd->in[k]];
        switch (nd->kind) {
        case NK_M_CONSTANT: case NK_M_BLEND_ALPHA: case NK_M_BLEND_OFFSET: case NK_M_BEARDIFIER:
        case NK_M_SHIFT_A: case NK_M_SHIFT_B: case NK_M_END_ISLANDS: f = 1; break;
        case NK_M_ADD: case NK_M_MUL: case NK_M_MIN: case NK_M_MAX: case NK_M_ABS: case NK_M_SQUARE: case NK_M_CUBE:
        case NK_M_HALF_NEGATIVE: case NK_M_QUARTER_NEGATIVE: case NK_M_INVERT: case NK_M_SQUEEZE: case NK_M_CLAMP:
        case NK_M_RANGE_CHOICE: case NK_M_INTERVAL_SELECT: case NK_M_SPLINE:
        case NK_M_FLAT_CACHE: case NK_M_CACHE_2D: case NK_M_CACHE_ONCE: case NK_M_CACHE_ALL_IN_CELL: case NK_M_BLEND_DENSITY:
        case NK_M_INTERPOLATED: f = all; break;
        case NK_M_SHIFTED_NOISE: {
            const cf_node *sy = nd->nin == 3 ? &p->nodes[nd->in[1]] : NULL;
            f = all && nd->d[1] == 0.0 && sy && sy->kind == NK_M_CONSTANT && !signbit(sy->d[0]);
            break;
        }
        default: f = 0; break;
        }
        fr[i] = (uint8_t)f;
    }
    unsigned m = 0;
    for (int k = 0; k < 6 && k < p->noutputs; k++)
        if (p->outputs[k] >= 0 && p->outputs[k] < n && fr[p->outputs[k]]) m |= 1u << k;
    /* eval64's chunk mode gives every field its point value at a quart's corner (x, z
     * multiples of 4) where nothing the fields read changes with the mode but flat_cache
     * of a y-free argument (its value at (x, 0, z): the point value at (x, y, z)) */
    uint8_t *reach = p->dialect == DIALECT_MC121 ? calloc((size_t)n + 1, 1) : NULL;
    if (reach) {
        int ok = 1;
        for (int k = 0; k < 6 && k < p->noutputs; k++)
            if (p->outputs[k] >= 0 && p->outputs[k] < n) reach[p->outputs[k]] = 1;
        for (int i = n - 1; i >= 0; i--) {
            if (!reach[i]) continue;
            const cf_node *nd = &p->nodes[i];
            if (nd->kind == NK_M_INTERPOLATED || nd->kind == NK_M_CACHE_ALL_IN_CELL) ok = 0;
            if (nd->kind == NK_M_FLAT_CACHE && !(nd->nin == 1 && fr[nd->in[0]])) ok = 0;
            for (int k = 0; k < nd->nin; k++)
                if (nd->in[k] >= 0 && nd->in[k] < i) reach[nd->in[k]] = 1;
                else ok = 0;
        }
        *flat_ok = ok;
        free(reach);
    }
    free(fr);
    return m;
}

static void qctx_free(qctx *q)
{
    if (q->has_c) eval64_free(&q->c);
    q->has_c = 0;
    free(q->ln), free(q->lv);
    q->ln = NULL, q->lv = NULL, q->nl = 0;
    free(q->memo);
    for (int m = 0; m < 2; m++) {
        free(q->f.last[m]);
        free(q->f.col[m]);
        free(q->f.colstamp[m]);
        q->f.last[m] = NULL;
        q->f.col[m] = NULL;
        q->f.colstamp[m] = NULL;
    }
    free(q->f.islot);
    free(q->f.lat);
    q->memo = NULL;
    q->f.islot = NULL;
    q->f.lat = NULL;
}

/* the literal +0 (eval.c's test for an unshifted noise) */
static int plus_zero(const cf_node *nodes, int id)
{
    return (nodes[id].flags & NF_LITERAL) && nodes[id].f[0] == 0.0f && !signbit(nodes[id].f[0]);
}

/* the lane nodes of a 26.3 multi-noise source's fields (q->ln); 0, or -1 out of memory */
static int lanes_init(qctx *q, const cf_biomes *b)
{
    const cf_program *p = b->prog;
    const cf_world *w = b->w;
    int n = p->nnodes;
    q->lrow = -1;
    uint8_t *reach = calloc((size_t)n + 1, 1);
    int *lidx = malloc(((size_t)n + 1) * sizeof(int));
    q->ln = calloc((size_t)n + 1, sizeof *q->ln);
    if (!reach || !lidx || !q->ln) {
        free(reach), free(lidx);
        return -1;
    }
    for (int k = 0; k < 6 && k < p->noutputs; k++)
        if (p->outputs[k] >= 0 && p->outputs[k] < n) reach[p->outputs[k]] = 1;
    for (int i = n - 1; i >= 0; i--)
        if (reach[i])
            for (int k = 0; k < p->nodes[i].nin; k++)
                if (p->nodes[i].in[k] >= 0 && p->nodes[i].in[k] < i) reach[p->nodes[i].in[k]] = 1;
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        lidx[i] = -1;
        if (!reach[i] || (nd->flags & NF_F64) || q->memo[i] == MEMO_NONE) continue;
        lnode l = {.id = i, .kind = nd->kind, .in = {-1, -1, -1}};
        if (nd->kind == NK_SHIFT_A || nd->kind == NK_SHIFT_B || nd->kind == NK_SHIFT) {
            l.stack = w->noise_stack[nd->noise];
        } else if (nd->kind == NK_NOISE && nd->nin == 3) {
            int ok = 1;
            l.stack = w->noise_stack[nd->noise];
            l.xz = nd->d[0], l.ys = nd->d[1];
            l.zero = plus_zero(p->nodes, nd->in[0]) && plus_zero(p->nodes, nd->in[1]) && plus_zero(p->nodes, nd->in[2]);
            l.zy = plus_zero(p->nodes, nd->in[1]);
            for (int k = 0; k < 3; k++) {
                int c = nd->in[k];
                while (c >= 0 && c < i && p->nodes[c].kind == NK_CACHE && p->nodes[c].nin == 1) c = p->nodes[c].in[0];
                int lit = c >= 0 && c < i && (p->nodes[c].flags & NF_LITERAL);
                if (lit) l.lit[k] = eval_point_f32(w, c, 0, 0, 0);
                else if (c >= 0 && c < i && lidx[c] >= 0) l.in[k] = lidx[c];
                else ok = 0;
            }
            if (!ok) continue;
        } else {
            continue;
        }
        lidx[i] = q->nl;
        q->ln[q->nl++] = l;
    }
    free(reach), free(lidx);
    if (q->nl && !(q->lv = malloc((size_t)q->nl * sizeof *q->lv))) return -1;
    q->lisa = stack_lanes_isa();
    return 0;
}

/* the lane nodes' values at the quarts qs[3 l .. 3 l + 2], l < m <= STACK_LANES_MAX: as
 * ev_node computes each at the quart's block (eval.c's NOISE and SHIFT_* on the point path) */
static void climate_lanes(qctx *q, const int32_t *qs, int m)
{
    double x[STACK_LANES_MAX], y[STACK_LANES_MAX], z[STACK_LANES_MAX], bx[STACK_LANES_MAX], by[STACK_LANES_MAX], bz[STACK_LANES_MAX];
    for (int l = 0; l < m; l++) {
        bx[l] = (double)(int32_t)((uint32_t)qs[3 * l] << 2);
        by[l] = (double)(int32_t)((uint32_t)qs[3 * l + 1] << 2);
        bz[l] = (double)(int32_t)((uint32_t)qs[3 * l + 2] << 2);
    }
    for (int a = 0; a < q->nl; a++) {
        const lnode *ln = &q->ln[a];
        float *v = q->lv[a];
        switch (ln->kind) {
        case NK_SHIFT_A: for (int l = 0; l < m; l++) x[l] = bx[l] * 0.25, y[l] = 0.0, z[l] = bz[l] * 0.25; break;
        case NK_SHIFT_B: for (int l = 0; l < m; l++) x[l] = bz[l] * 0.25, y[l] = bx[l] * 0.25, z[l] = 0.0; break;
        case NK_SHIFT: for (int l = 0; l < m; l++) x[l] = bx[l] * 0.25, y[l] = by[l] * 0.25, z[l] = bz[l] * 0.25; break;
        default: /* NK_NOISE */
            for (int l = 0; l < m; l++) {
                float s[3];
                for (int k = 0; k < 3; k++) s[k] = ln->in[k] >= 0 ? q->lv[ln->in[k]][l] : ln->lit[k];
                if (ln->zero) {
                    x[l] = bx[l] * ln->xz, y[l] = by[l] * ln->ys, z[l] = bz[l] * ln->xz;
                } else {
                    x[l] = bx[l] * ln->xz + (double)s[0];
                    y[l] = ln->zy ? by[l] * ln->ys : by[l] * ln->ys + (double)s[1];
                    z[l] = bz[l] * ln->xz + (double)s[2];
                }
            }
            break;
        }
        stack_lanes(q->b->w, q->lisa, ln->stack, m, x, y, z, q->f.lat, v);
        if (ln->kind != NK_NOISE)
            for (int l = 0; l < m; l++) v[l] = v[l] * 4.0f;
    }
}

static int quart_biome(qctx *c, int path, int32_t qy0, const int32_t *q, int32_t *warm);

/* the point biomes of m <= STACK_LANES_MAX quarts qs (point queries), their noises in lanes */
static void lanes_quarts(qctx *c, const int32_t *qs, int m, int *res)
{
    if (c->nl) climate_lanes(c, qs, m);
    for (int l = 0; l < m; l++) {
        c->lrow = c->nl ? l : -1;
        res[l] = quart_biome(c, BP_POINT, 0, qs + 3 * l, NULL);
    }
    c->lrow = -1;
}

/* the lane nodes' values of sample q->lrow into the point memo (after qctx_region(x, z, 0)) */
static void lanes_put(qctx *q, int32_t x, int32_t y, int32_t z)
{
    cf_fill *f = &q->f;
    int m = MODE_POINT - 1;
    for (int a = 0; a < q->nl; a++) {
        int id = q->ln[a].id;
        float v = q->lv[a][q->lrow];
        if (f->memo[id] == MEMO_COLUMN) { /* the region is the point: dx = dz = 0 */
            size_t k = (size_t)f->colslot[id] * (size_t)f->colstride;
            f->col[m][k] = v, f->colstamp[m][k] = f->stamp;
        } else {
            cf_memo *c = &f->last[m][id];
            c->x = x, c->y = y, c->z = z, c->stamp = f->stamp, c->v = v;
        }
    }
}

static int qctx_init(qctx *q, cf_biomes *b)
{
    memset(q, 0, sizeof *q);
    q->lrow = -1;
    q->b = b;
    q->hint = -1;
    if (b->f64) {
        if (eval64_init(&q->c, b->w) < 0) return -1;
        q->has_c = 1;
        q->yfree = b->kind == BS_MULTI ? yfree_fields(b->w->prog, &q->flat_ok) : 0;
        return 0;
    }
    const cf_program *p = b->prog;
    size_t n = (size_t)p->nnodes + 1;
    q->memo = malloc(n);
    q->f.last[0] = calloc(n, sizeof(cf_memo));
    q->f.last[1] = calloc(n, sizeof(cf_memo));
    q->f.islot = malloc(n * sizeof(int));
    q->f.lat = calloc((size_t)(b->w->noct > 0 ? b->w->noct : 1), sizeof *q->f.lat); /* the lattice cells of the point path */
    /* the plan's column memo (2-D nodes once per quart column of a chunk: 17 x 17 slots,
     * as fill.c's), the other nodes a last-point memo */
    size_t cols = (size_t)(p->ncol > 0 ? p->ncol : 1) * 289;
    for (int m = 0; m < 2; m++) {
        q->f.col[m] = malloc(cols * sizeof(float));
        q->f.colstamp[m] = calloc(cols, sizeof(uint32_t));
    }
    if (!q->memo || !q->f.last[0] || !q->f.last[1] || !q->f.islot || !q->f.lat || !q->f.col[0] || !q->f.col[1] || !q->f.colstamp[0] ||
        !q->f.colstamp[1]) {
        qctx_free(q);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int lit = i >= (size_t)p->nnodes || (p->nodes[i].flags & NF_LITERAL);
        q->memo[i] = lit ? MEMO_NONE : p->memo[i] == MEMO_COLUMN ? MEMO_COLUMN : MEMO_LAST;
        q->f.islot[i] = -1; /* no interpolation buffers: interpolated nodes compute their corners */
    }
    q->f.w = b->w;
    q->f.memo = q->memo;
    q->f.colslot = p->colslot;
    q->f.colstride = 289;
    q->f.stamp = 1;
    if (b->kind == BS_MULTI && lanes_init(q, b) < 0) {
        qctx_free(q);
        return -1;
    }
    return 0;
}
static void qctx_done(qctx *q)
{
    qctx_free(q);
    atomic_fetch_add(&q->b->lookups, q->lookups);
    atomic_fetch_add(&q->b->ties, q->ties);
}

/* the memo's region: the columns [x0, x0 + size] x [z0, z0 + size] (a chunk: 16; a point: 0);
 * a new region forgets every memo */
static void qctx_region(qctx *q, int32_t x0, int32_t z0, int32_t size)
{
    q->f.x0 = x0, q->f.z0 = z0, q->f.sx = q->f.sz = size;
    if (++q->f.stamp == 0) q->f.stamp = 1;
}

/* one field at block (x, y, z): the point path, the volume path (26.3; vmin: the volume's min y),
 * or 1.18-1.21's double value cast to float */
static float field(qctx *q, int k, int path, int32_t vmin, int32_t x, int32_t y, int32_t z)
{
    const cf_world *w = q->b->w;
    int node = w->prog->outputs[k];
    if (q->b->f64) return (float)eval_f64(&q->c, node, (double)x, (double)y, (double)z);
    q->f.y0 = vmin; /* the volume's min y (interpolated nodes' corners; set per chunk) */
    return eval_f32(w, &q->f, path == BP_VOLUME ? MODE_VOLUME : MODE_POINT, node, x, y, z);
}

int biome_climate(const cf_biomes *b, int path, int32_t qy0, const int32_t *q, float *v)
{
    qctx c;
    if (qctx_init(&c, (cf_biomes *)b) < 0) return -1;
    int32_t x = (int32_t)((uint32_t)q[0] << 2), y = (int32_t)((uint32_t)q[1] << 2), z = (int32_t)((uint32_t)q[2] << 2);
    if (!b->f64) qctx_region(&c, x, z, 0);
    for (int k = 0; k < b->prog->noutputs; k++) v[k] = field(&c, k, path, (int32_t)((uint32_t)qy0 << 2), x, y, z);
    qctx_free(&c);
    return 0;
}

/* the biome of quart q; *warm: the warm-start leaf in and out (multi_noise), or NULL (cold) */
static int quart_biome(qctx *c, int path, int32_t qy0, const int32_t *q, int32_t *warm)
{
    cf_biomes *b = c->b;
    int32_t x = (int32_t)((uint32_t)q[0] << 2), y = (int32_t)((uint32_t)q[1] << 2), z = (int32_t)((uint32_t)q[2] << 2);
    switch (b->kind) {
    case BS_FIXED:
        return b->fixed;
    case BS_CHECKER: {
        int32_t s = (int32_t)((uint32_t)(q[0] >> b->shift) + (uint32_t)(q[2] >> b->shift));
        int32_t m = s % b->nchk;
        return b->chk[m < 0 ? m + b->nchk : m];
    }
    case BS_END: {
        int32_t cx = x >> 4, cz = z >> 4;
        if ((int64_t)cx * cx + (int64_t)cz * cz <= 4096) return CF_BE_THE_END;
        /* the chunk's centre block, the quart's y; 26.3: the point path also in chunk fills */
        int32_t bx = (int32_t)((uint32_t)cx * 16u + 8u), bz = (int32_t)((uint32_t)cz * 16u + 8u);
        double e = b->f64 ? eval_f64(&c->c, b->w->prog->outputs[0], (double)bx, (double)y, (double)bz) /* 1.21: the double */
                          : (double)eval_f32(b->w, NULL, MODE_POINT, b->w->prog->outputs[0], bx, y, bz);
        return cf_b_end(cx, cz, e);
    }
    default: {
        int64_t t[6], fit;
        int32_t vmin = (int32_t)((uint32_t)qy0 << 2);
        if (!warm && !b->f64) {
            qctx_region(c, x, z, 0); /* a point query: the memo holds this point */
            if (c->lrow >= 0) lanes_put(c, x, y, z); /* a grid row's noises, computed in lanes */
        }
        if (warm && c->yfree && c->cok && c->ccx == q[0] >> 2 && c->ccz == q[2] >> 2) { /* a 1.18-1.21 chunk fill */
            int col = (q[2] & 3) * 4 + (q[0] & 3);
            for (int k = 0; k < 6; k++) {
                if (!(c->yfree >> k & 1)) {
                    t[k] = cf_b_quantize(field(c, k, path, vmin, x, y, z));
                    continue;
                }
                if (!(c->fhave[col] >> k & 1)) c->fcol[col][k] = field(c, k, path, vmin, x, y, z), c->fhave[col] |= (uint8_t)(1u << k);
                t[k] = cf_b_quantize(c->fcol[col][k]);
            }
        } else {
            for (int k = 0; k < 6; k++) t[k] = cf_b_quantize(field(c, k, path, vmin, x, y, z));
        }
        /* chunk fills: vanilla's warm start; point queries: the cold answer, found from the
         * previous answer of this thread as a hint */
        int32_t leaf = warm ? bm_fast_search(&b->fast, b->tree, t, *warm, *warm, &fit) : bm_fast_search(&b->fast, b->tree, t, c->hint, -1, &fit);
        if (warm) *warm = leaf;
        else c->hint = leaf;
        c->lookups++;
        if ((b->count_ties || c->want_tie) && cf_b_count_at(b->tree, t, fit) > 1) c->ties += b->count_ties, c->tie = 1;
        return cf_b_leaf_value(b->tree, leaf);
    }
    }
}

cf_status biome_quarts(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    if (!b || (n && (!q || !out))) return err_set(err, CF_ERR_ARG, "cf_biomes_quarts: bad arguments");
    qctx c;
    if (qctx_init(&c, b) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)quart_biome(&c, BP_POINT, 0, q + 3 * i, NULL);
    qctx_done(&c);
    return CF_OK;
}

/* one quart as a chunk fill stores it (the maps' sampled columns, host/api/map.c): the chunk
 * fill's path (26.3: the volume path of the chunk's volume), searched cold; the chunk fill's
 * warm start finds the same leaf unless several leaves fit equally well (a tie: -1) */
struct cf_bquart {
    qctx c;
    int32_t ccx, ccz; /* the chunk of the memo's region (26.3), ok 0 before the first */
    int ok;
};

cf_bquart *biome_quart_new(cf_biomes *b)
{
    cf_bquart *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    if (qctx_init(&q->c, b) < 0) {
        free(q);
        return NULL;
    }
    return q;
}

void biome_quart_free(cf_bquart *q)
{
    if (!q) return;
    qctx_done(&q->c);
    free(q);
}

int biome_quart_stored(cf_bquart *bq, const int32_t *q)
{
    qctx *c = &bq->c;
    cf_biomes *b = c->b;
    int32_t cx = q[0] >> 2, cz = q[2] >> 2;
    if (!b->f64 && (!bq->ok || bq->ccx != cx || bq->ccz != cz)) {
        qctx_region(c, (int32_t)((uint32_t)cx * 16u), (int32_t)((uint32_t)cz * 16u), 16);
        bq->ccx = cx, bq->ccz = cz, bq->ok = 1;
    }
    c->cok = 0; /* not chunk_fill's 1.18-1.21 column memo */
    c->want_tie = 1, c->tie = 0;
    int32_t cold = -1;
    int v = quart_biome(c, b->f64 ? BP_POINT : BP_VOLUME, b->min_y >> 2, q, &cold);
    return c->tie ? -1 : v; /* another leaf as close as the one found */
}

cf_status biome_quarts_warm_from(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, int32_t *warm, cf_error *err)
{
    if (!b || !warm || (n && (!q || !out))) return err_set(err, CF_ERR_ARG, "biome_quarts_warm: bad arguments");
    qctx c;
    if (qctx_init(&c, b) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)quart_biome(&c, BP_POINT, 0, q + 3 * i, warm);
    qctx_done(&c);
    return CF_OK;
}

cf_status biome_quarts_warm(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    int32_t warm = -1;
    return biome_quarts_warm_from(b, n, q, out, &warm, err);
}

cf_status biome_blocks(cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err)
{
    if (!b || (n && (!xyz || !out))) return err_set(err, CF_ERR_ARG, "cf_biomes_blocks: bad arguments");
    qctx c;
    if (qctx_init(&c, b) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    /* the blocks' quarts in batches of up to STACK_LANES_MAX distinct ones (a quart met again
     * among the batch's last 8 is looked up once: a point query's answer is a function of
     * the quart), each batch's noises in lanes */
    int32_t qs[3 * STACK_LANES_MAX];
    int res[STACK_LANES_MAX];
    uint8_t slot[256];
    for (size_t i = 0; i < n;) {
        size_t i0 = i;
        int m = 0;
        for (; i < n && i - i0 < sizeof slot; i++) {
            int32_t q[3];
            cf_bz_quart(b->zseed, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], q);
            int k = m - 1;
            while (k >= 0 && k >= m - 8 && (qs[3 * k] != q[0] || qs[3 * k + 1] != q[1] || qs[3 * k + 2] != q[2])) k--;
            if (k < 0 || k < m - 8) {
                if (m == STACK_LANES_MAX) break;
                k = m++;
                qs[3 * k] = q[0], qs[3 * k + 1] = q[1], qs[3 * k + 2] = q[2];
            }
            slot[i - i0] = (uint8_t)k;
        }
        lanes_quarts(&c, qs, m, res);
        for (size_t t = i0; t < i; t++) out[t] = (uint8_t)res[slot[t - i0]];
    }
    qctx_done(&c);
    return CF_OK;
}

/* ------------------------------------------------------------------ threaded runs */
typedef struct job {
    cf_biomes *b;
    int kind; /* 0 grid rows, 1 chunks */
    int32_t qx0, qz0, nx, qy;
    const int32_t *chunks;
    uint8_t *out;
    size_t n;
    atomic_size_t next;
    atomic_int failed;
} job;

static void grid_row(qctx *c, job *j, size_t iz)
{
    int32_t q[3] = {0, j->qy, (int32_t)((uint32_t)j->qz0 + (uint32_t)iz)};
    uint8_t *o = j->out + iz * (size_t)j->nx;
    int32_t qs[3 * STACK_LANES_MAX];
    int res[STACK_LANES_MAX];
    for (int32_t ix = 0; ix < j->nx; ix += STACK_LANES_MAX) {
        int m = (int)(j->nx - ix < STACK_LANES_MAX ? j->nx - ix : STACK_LANES_MAX);
        for (int l = 0; l < m; l++)
            qs[3 * l] = (int32_t)((uint32_t)j->qx0 + (uint32_t)ix + (uint32_t)l), qs[3 * l + 1] = q[1], qs[3 * l + 2] = q[2];
        lanes_quarts(c, qs, m, res);
        for (int l = 0; l < m; l++) o[ix + l] = (uint8_t)res[l];
    }
}

/* a chunk's stored biomes in vanilla's fill order: sections bottom to top, inside one
 * x outer, y middle, z inner; the warm start carried from quart to quart, cold at the first */
static void chunk_fill(qctx *c, job *j, size_t ci)
{
    cf_biomes *b = c->b;
    int32_t cx = j->chunks[2 * ci], cz = j->chunks[2 * ci + 1];
    int32_t qy0 = b->min_y >> 2, ny = b->height >> 2;
    uint8_t *o = j->out + ci * (size_t)ny * 16;
    int32_t warm = -1;
    int path = b->f64 ? BP_POINT : BP_VOLUME;
    if (!b->f64) qctx_region(c, (int32_t)((uint32_t)cx * 16u), (int32_t)((uint32_t)cz * 16u), 16);
    c->ccx = cx, c->ccz = cz, c->cok = 1;
    memset(c->fhave, 0, sizeof c->fhave);
    if (b->f64 && c->flat_ok) eval64_chunk(&c->c, cx, cz, EV64_VALUE); /* flat_cache once per quart column */
    for (int32_t s = 0; s < ny; s += 4)
        for (int x = 0; x < 4; x++)
            for (int32_t y = s; y < s + 4 && y < ny; y++)
                for (int z = 0; z < 4; z++) {
                    int32_t q[3] = {cx * 4 + x, qy0 + y, cz * 4 + z};
                    o[((size_t)y * 4 + (size_t)z) * 4 + (size_t)x] = (uint8_t)quart_biome(c, path, qy0, q, &warm);
                }
    if (b->f64 && c->flat_ok) eval64_chunk(&c->c, 0, 0, EV64_POINT); /* back to single points */
}

static void *worker(void *arg)
{
    job *j = arg;
    qctx c;
    if (qctx_init(&c, j->b) < 0) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n) break;
        if (j->kind == 0) grid_row(&c, j, i);
        else chunk_fill(&c, j, i);
    }
    qctx_done(&c);
    return NULL;
}

static cf_status run_job(job *j, int threads, cf_error *err)
{
    if (threads <= 0) threads = cpu_count();
    if ((size_t)threads > j->n) threads = (int)(j->n ? j->n : 1);
    if (threads > 256) threads = 256;
    pthread_t th[256];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&th[i], NULL, worker, j) != 0) break;
        started = i;
    }
    worker(j);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    if (atomic_load(&j->failed)) return err_set(err, CF_ERR_NOMEM, "out of memory");
    return CF_OK;
}

cf_status biome_grid(cf_biomes *b, int32_t qx0, int32_t qz0, int32_t nx, int32_t nz, int32_t qy, uint8_t *out,
                         int threads, cf_error *err)
{
    if (!b || nx < 0 || nz < 0 || (nx > 0 && nz > 0 && !out)) return err_set(err, CF_ERR_ARG, "cf_biomes_grid: bad arguments");
    job j = {.b = b, .kind = 0, .qx0 = qx0, .qz0 = qz0, .nx = nx, .qy = qy, .out = out, .n = (size_t)nz};
    if (!nx || !nz) return CF_OK;
    return run_job(&j, threads, err);
}

cf_status biome_fill(cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err)
{
    if (!b || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_fill_biomes: bad arguments");
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK, CF_MAX_CHUNK);
    job j = {.b = b, .kind = 1, .chunks = chunks, .out = out, .n = n};
    if (!n) return CF_OK;
    return run_job(&j, threads, err);
}
