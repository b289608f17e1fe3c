/* iris_pack.c - Iris terrains: a pack manifest terrains/KEY.json that links
 * generators (generators/KEY.json) into one height, as Iris's IrisComplex does
 * for a single biome (IRIS.md §7.6), and the density height - y.
 *
 * Manifest (our format; host/frontend/iris/README.md "Iris terrains"):
 *   {"branch": "master" | "unification",           default "master"
 *    "fluidHeight": INT,                             default 63 (world y)
 *    "dimensionHeight": {"min": INT, "max": INT},    default -64, 320
 *    "dimension": KEY,     fluidHeight and dimensionHeight from dimensions/KEY.json
 *                          (an Iris dimension; other fields ignored; the manifest's own win)
 *    "generators": [{"generator": KEY, "min": INT, "max": INT}, ...]
 *    | "biome": KEY}       the links of biomes/KEY.json's "generators" (an Iris biome)
 *
 * Height at (x, z), Iris's internal y (0 = the dimension's min):
 *   links deduplicated by generator key (the last link's min/max win, first
 *   position kept: Iris keeps a set of generators and a map key -> band);
 *   grouped by interpolator (function and horizontalScale), in first-seen order;
 *   per group: hi = interpolate(sum of the group's max), lo = interpolate(sum of
 *   the min) - the band is a biome value, so it goes through the interpolator
 *   too (starcast rounds it to binary32) - and
 *   group = (0 + lerp(lo, hi, g1) + lerp(lo, hi, g2) ...) / count, g = the
 *   generator's getHeight(x, z, SeedManager(world seed).getHeight() + 239945);
 *   H = max(min(((0 + group1 + group2 ...) + fluid) + 0.0, max - min), 0) with
 *   fluid = fluidHeight - min.
 * Iris sums groups and generators in HashMap/HashSet order; ours is the
 * manifest's, so where Iris's order differs the last ulp may too (§7.6).
 * Density (router:final_density) = (H + min) - y: positive below the surface.
 * Iris places a block at internal y i when i <= round(H) (IrisTerrainNormalActuator).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ir/ir.h"
#include "frontend/iris/iris.h"

#define TERRAIN_DIR "terrains"
#define MAX_LINKS 256

typedef struct link {
    const char *key;
    int min, max;
    cf_loc at;
} link;

typedef struct tc {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    cf_fields f; /* the field reader (base.h): integers as "expected an integer in [lo, hi], found v" */
} tc;

/* a pack key: letters, digits, _ - . /, no "..", not absolute */
static int key_ok(const char *s)
{
    int ok = *s && *s != '/' && strlen(s) < 200 && !strstr(s, "..");
    for (const char *q = s; ok && *q; q++)
        ok = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || strchr("_-./", *q);
    return ok;
}

static int get_key(tc *c, const cJSON *o, cf_loc at, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) return *out = NULL, 0;
    cf_loc ka = field_key(&c->f, at, key);
    if (!cJSON_IsString(v)) return loc_fail(c->err, ka, CF_ERR_SCHEMA, "expected a key (a string), found %s", json_type(v));
    const char *s = v->valuestring;
    if (!key_ok(s)) return loc_fail(c->err, ka, CF_ERR_SCHEMA, "bad key \"%s\" (letters, digits, _ - . /)", s);
    *out = arena_strdup(&c->p->arena, s);
    return *out ? 0 : (err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1);
}

/* loads DIR/KEY.json; a missing file is a located error at `ref` */
static int load(tc *c, const char *dir, const char *key, cf_loc ref, cJSON **root, cf_loc *at)
{
    char rel[300];
    snprintf(rel, sizeof rel, "%s/%s.json", dir, key);
    const char *disp = NULL;
    int r = json_load_rel(&c->p->arena, c->pk, rel, root, &disp, c->err);
    if (r < 0) return -1;
    if (r == 0) return loc_fail(c->err, ref, CF_ERR_REF, "no %s in the pack", rel);
    *at = (cf_loc){disp, NULL};
    return 0;
}

/* fluidHeight and dimensionHeight of an object (a manifest or an Iris dimension) */
static int dimension_fields(tc *c, const cJSON *o, cf_loc at, int *fluid, int *min, int *max)
{
    if (field_int(&c->f, NULL, o, at, "fluidHeight", 0, *fluid, -2032, 2032, fluid) < 0) return -1;
    const cJSON *dh = cJSON_GetObjectItemCaseSensitive(o, "dimensionHeight");
    if (!dh) return 0;
    cf_loc da = field_key(&c->f, at, "dimensionHeight");
    if (!cJSON_IsObject(dh)) return loc_fail(c->err, da, CF_ERR_SCHEMA, "expected an object {min, max}, found %s", json_type(dh));
    if (field_int(&c->f, NULL, dh, da, "min", 0, *min, -2032, 2032, min) < 0 || field_int(&c->f, NULL, dh, da, "max", 0, *max, -2032, 2032, max) < 0) return -1;
    if (*min % 16 || *max % 16 || *max <= *min)
        return loc_fail(c->err, da, CF_ERR_SCHEMA, "min and max must be multiples of 16 with min < max (found %d, %d)", *min, *max);
    return 0;
}

/* the links of a "generators" array, deduplicated by key */
static int links(tc *c, const cJSON *a, cf_loc at, link *out, int *n)
{
    if (!cJSON_IsArray(a)) return loc_fail(c->err, at, CF_ERR_SCHEMA, "expected an array of generator links, found %s", json_type(a));
    int i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        cf_loc ea = loc_index(&c->p->arena, at, i);
        if (!cJSON_IsObject(e)) return loc_fail(c->err, ea, CF_ERR_SCHEMA, "expected a generator link {generator, min, max}, found %s", json_type(e));
        link l = {NULL, 0, 0, ea};
        if (get_key(c, e, ea, "generator", &l.key) < 0) return -1;
        if (!l.key) l.key = "default"; /* IrisBiomeGeneratorLink's default */
        if (field_int(&c->f, NULL, e, ea, "min", 0, 0, -1000000, 1000000, &l.min) < 0 || field_int(&c->f, NULL, e, ea, "max", 0, 0, -1000000, 1000000, &l.max) < 0)
            return -1;
        int k = 0;
        while (k < *n && strcmp(out[k].key, l.key) != 0) k++;
        if (k < *n) {
            out[k].min = l.min, out[k].max = l.max; /* Iris's key -> band map: the last link wins */
            continue;
        }
        if (*n >= MAX_LINKS) return loc_fail(c->err, ea, CF_ERR_LIMIT, "more than %d generators in one terrain", MAX_LINKS);
        out[(*n)++] = l;
    }
    return 0;
}

static int node_of(tc *c, int kind, cf_loc at, const int *in, int nin, double d0, double d1)
{
    cf_node n = ir_node_of(kind, PREC_F64, at);
    n.d[0] = d0, n.d[1] = d1;
    if (ir_set_inputs(c->p, &n, nin, c->err) < 0) return -1;
    for (int k = 0; k < nin; k++) n.in[k] = in[k];
    return ir_node_add(c->p, NULL, &n, "terrain", c->err);
}

typedef struct terrain {
    int height;  /* IRIS_HEIGHT node */
    int density; /* LN_TERRAIN node over it */
} terrain;

static int build(tc *c, const cJSON *m, cf_loc ma, terrain *t)
{
    static const cf_keys known = {{"branch", "fluidHeight", "dimensionHeight", "dimension", "generators", "biome"}, 6};
    if (!cJSON_IsObject(m)) return loc_fail(c->err, ma, CF_ERR_SCHEMA, "expected a terrain object, found %s", json_type(m));
    if (field_unknown(&c->f, &known, m, ma, 0, "(branch, fluidHeight, dimensionHeight, dimension, generators, biome)") < 0) return -1;
    cf_program *p = c->p;
    const cJSON *br = cJSON_GetObjectItemCaseSensitive(m, "branch");
    int uni = 0;
    if (br) {
        if (!cJSON_IsString(br) || (strcmp(br->valuestring, "master") != 0 && strcmp(br->valuestring, "unification") != 0))
            return loc_fail(c->err, field_key(&c->f, ma, "branch"), CF_ERR_SCHEMA, "expected \"master\" or \"unification\", found %s",
                            cJSON_IsString(br) ? br->valuestring : json_type(br));
        uni = strcmp(br->valuestring, "unification") == 0;
    }
    p->dialect = uni ? DIALECT_IRIS_UNIFICATION : DIALECT_IRIS_MASTER;
    int fluid = 63, min = -64, max = 320;
    const char *dkey = NULL;
    if (get_key(c, m, ma, "dimension", &dkey) < 0) return -1;
    if (dkey) {
        cJSON *d = NULL;
        cf_loc da = {NULL, NULL};
        if (load(c, "dimensions", dkey, field_key(&c->f, ma, "dimension"), &d, &da) < 0) return -1;
        int r = cJSON_IsObject(d) ? dimension_fields(c, d, da, &fluid, &min, &max)
                                  : loc_fail(c->err, da, CF_ERR_SCHEMA, "expected an Iris dimension object, found %s", json_type(d));
        cJSON_Delete(d);
        if (r < 0) return -1;
    }
    cf_loc fat = dkey ? field_key(&c->f, ma, "dimension") : ma; /* where the fluid height came from */
    if (cJSON_GetObjectItemCaseSensitive(m, "fluidHeight")) fat = field_key(&c->f, ma, "fluidHeight");
    if (dimension_fields(c, m, ma, &fluid, &min, &max) < 0) return -1;
    if (fluid < min || fluid > max)
        return loc_fail(c->err, fat, CF_ERR_SCHEMA, "fluidHeight %d outside dimensionHeight [%d, %d]", fluid, min, max);
    p->min_y = min, p->height = max - min, p->sea_level = fluid;

    link *ls = calloc(MAX_LINKS, sizeof *ls);
    if (!ls) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    int nl = 0, ret = -1;
    cJSON *biome = NULL;
    const cJSON *ga = cJSON_GetObjectItemCaseSensitive(m, "generators");
    const char *bkey = NULL;
    int *gen = NULL, *meth = NULL, *groups = NULL, *in = NULL;
    double *scale = NULL;
    if (get_key(c, m, ma, "biome", &bkey) < 0) goto done;
    if (ga && bkey) {
        loc_fail(c->err, ma, CF_ERR_SCHEMA, "both \"generators\" and \"biome\": give one");
        goto done;
    }
    if (!ga && !bkey) {
        loc_fail(c->err, ma, CF_ERR_SCHEMA, "no \"generators\" (links {generator, min, max}) or \"biome\" (an Iris biome's key)");
        goto done;
    }
    if (ga) {
        if (links(c, ga, field_key(&c->f, ma, "generators"), ls, &nl) < 0) goto done;
    } else {
        cf_loc ba = {NULL, NULL};
        if (load(c, "biomes", bkey, field_key(&c->f, ma, "biome"), &biome, &ba) < 0) goto done;
        if (!cJSON_IsObject(biome)) {
            loc_fail(c->err, ba, CF_ERR_SCHEMA, "expected an Iris biome object, found %s", json_type(biome));
            goto done;
        }
        const cJSON *bg = cJSON_GetObjectItemCaseSensitive(biome, "generators");
        if (bg && links(c, bg, field_key(&c->f, ba, "generators"), ls, &nl) < 0) goto done;
    }
    gen = calloc((size_t)nl + 1, sizeof *gen);
    meth = calloc((size_t)nl + 1, sizeof *meth);
    groups = calloc((size_t)nl + 1, sizeof *groups);
    in = calloc((size_t)nl + 3, sizeof *in);
    scale = calloc((size_t)nl + 1, sizeof *scale);
    if (!gen || !meth || !groups || !in || !scale) {
        err_set(c->err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < nl; i++) {
        cJSON *g = NULL;
        cf_loc gat = {NULL, NULL};
        if (load(c, "generators", ls[i].key, field_key(&c->f, ls[i].at, "generator"), &g, &gat) < 0) goto done;
        gen[i] = iris_generator_node_pk(p, c->pk, g, gat, IRIS_SUPER_ENGINE, c->err);
        int r = gen[i] < 0 ? -1
                           : iris_interpolator_parse(p, cJSON_GetObjectItemCaseSensitive(g, "interpolator"), field_key(&c->f, gat, "interpolator"),
                                                     &meth[i], &scale[i], c->err);
        cJSON_Delete(g);
        if (r < 0) goto done;
    }
    /* interpolator groups in first-seen order */
    int ng = 0;
    char *done_ = calloc((size_t)nl + 1, 1);
    if (!done_) {
        err_set(c->err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < nl; i++) {
        if (done_[i]) continue;
        double lo = 0, hi = 0;
        int k = 2;
        for (int j = i; j < nl; j++)
            if (!done_[j] && meth[j] == meth[i] && memcmp(&scale[j], &scale[i], sizeof(double)) == 0) {
                done_[j] = 1;
                lo += ls[j].min, hi += ls[j].max;
                in[k++] = gen[j];
            }
        int clo = node_of(c, NK_IRIS_CONST, ls[i].at, NULL, 0, lo, 0), chi = clo < 0 ? -1 : node_of(c, NK_IRIS_CONST, ls[i].at, NULL, 0, hi, 0);
        in[0] = chi < 0 ? -1 : iris_interp_node(p, clo, meth[i], scale[i], ls[i].at, c->err);
        in[1] = in[0] < 0 ? -1 : iris_interp_node(p, chi, meth[i], scale[i], ls[i].at, c->err);
        groups[ng] = in[1] < 0 ? -1 : node_of(c, NK_IRIS_GROUP, ls[i].at, in, k, 0, 0);
        if (groups[ng++] < 0) {
            free(done_);
            goto done;
        }
    }
    free(done_);
    t->height = node_of(c, NK_IRIS_HEIGHT, ma, groups, ng, (double)(fluid - min), (double)(max - min));
    if (t->height < 0) goto done;
    t->density = node_of(c, NK_LN_TERRAIN, ma, &t->height, 1, 1.0, (double)min);
    if (t->density < 0) goto done;
    ret = 0;
done:
    cJSON_Delete(biome);
    free(ls), free(gen), free(meth), free(groups), free(in), free(scale);
    return ret;
}

/* the terrain's key: from --settings iris:terrain/KEY, else the pack's only terrain */
static const char *terrain_key(cf_pack *pk, const char *settings_id)
{
    if (settings_id && strncmp(settings_id, "iris:terrain/", 13) == 0) return settings_id + 13;
    const char *names[2];
    return pack_list(pk, TERRAIN_DIR, names, 2) == 1 ? names[0] : NULL;
}

/* 0 the density (router:final_density, iris:terrain), 1 the height (iris:height), -1 neither;
 * "#2d" (what `sample` asks for its 2-D points) reads the same node at (x, 0, z) */
static int terrain_function(const char *f)
{
    size_t l = strlen(f);
    if (l > 3 && strcmp(f + l - 3, "#2d") == 0) l -= 3;
    if ((l == 20 && strncmp(f, "router:final_density", 20) == 0) || (l == 12 && strncmp(f, "iris:terrain", 12) == 0)) return 0;
    if (l == 11 && strncmp(f, "iris:height", 11) == 0) return 1;
    return -1;
}

int iris_pack_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    if (settings_id && strncmp(settings_id, "iris:terrain/", 13) == 0) return 1;
    for (int i = 0; i < n; i++)
        if (functions[i] && strncmp(functions[i], "iris:", 5) == 0 && terrain_function(functions[i]) >= 0) return 1;
    if (settings_id && strncmp(settings_id, "iris:", 5) == 0) return 0; /* iris:master, iris:unification: styles */
    if (!pk || !request_is_default(settings_id, functions, n)) return 0;
    const char *names[2];
    return pack_list(pk, TERRAIN_DIR, names, 2) >= 1 && !pack_has_overworld(pk);
}

cf_status iris_pack_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    tc c = {p, pk, err, {0}};
    field_init(&c.f, &p->arena, err);
    c.f.ints = CF_INTS_IN;
    cf_loc cli = {"<arguments>", NULL};
    p->prec = PREC_F64;
    p->max_fill_bytes = pk ? pk->lim.max_fill_bytes : 0;
    const char *key = pk ? terrain_key(pk, settings_id) : NULL;
    if (!key) {
        const char *names[1];
        int nt = pk ? pack_list(pk, TERRAIN_DIR, names, 1) : 0;
        return nt > 1 ? err_set(err, CF_ERR_ARG, "<arguments>: the packs have %d terrains: name one with --settings iris:terrain/KEY", nt)
                      : err_set(err, CF_ERR_REF, "<arguments>: no terrains/KEY.json in the packs");
    }
    p->settings_id = arena_printf(&p->arena, "iris:terrain/%s", key);
    if (!p->settings_id) return err_set(err, CF_ERR_NOMEM, "out of memory");
    cJSON *m = NULL;
    cf_loc ma = {NULL, NULL};
    if (!key_ok(key)) return err_set(err, CF_ERR_ARG, "<arguments>: settings \"%s\": bad terrain key (letters, digits, _ - . /)", settings_id);
    if (load(&c, TERRAIN_DIR, key, cli, &m, &ma) < 0) return err->status;
    terrain t = {-1, -1};
    int r = build(&c, m, ma, &t);
    cJSON_Delete(m);
    if (r < 0) return err->status;
    if (ir_set_outputs(p, functions, nfn, err) < 0) return err->status;
    for (int i = 0; i < nfn; i++) {
        const char *f = functions[i];
        int k = terrain_function(f);
        if (k >= 0) p->outputs[i] = k ? t.height : t.density;
        else
            return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": an Iris terrain program takes router:final_density (or iris:terrain) and iris:height", f);
    }
    return CF_OK;
}
