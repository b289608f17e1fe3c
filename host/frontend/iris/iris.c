/* iris.c - the Iris front-end (shared/IRIS.md): requests -> graph IR, and its record.
 *
 * Input: the requested functions iris:style/NAME (3-D: Iris's noise(x, y, z))
 * and iris:style/NAME#2d (2-D: Iris's noise(x, z), read from the position's x
 * and z), iris:generator/KEY (generators/KEY.json in the pack), iris:expression/KEY,
 * iris:image/KEY, and the dialect from the settings id (iris:master, the default, or
 * iris:unification). Output: prog->nodes of the IRIS_* kinds (host/ir/nodes_iris.def),
 * children first, dialect DIALECT_IRIS_MASTER/UNIFICATION. A style needs no
 * pack. The seeds of every node come from Iris's RNG per world (iris_rng.c iris_seeds,
 * called by seed_bind); the kernels are kernels/cf_iris.h.
 * This file: the JSON layers and generators (IRIS.md §7), the interpolators (§8), the
 * requests, the tests' compile entry and the front-end record; the styles are
 * iris_styles.c, expressions and image maps iris_expr.c, terrains iris_pack.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/iris/iris_ctx.h"


extern const cf_frontend cf_frontend_iris;
static void iris_ctx_fields(ic *c)
{
    field_init(&c->f, &c->p->arena, c->err);
    c->f.got = 1, c->f.null_absent = 1;
}
/* a long field: an integer of at most 2^53 in magnitude (JSON numbers are read as doubles) */
static int iris_jseed(ic *c, const cJSON *o, cf_loc at, const char *key, int64_t def, int64_t *out)
{
    double d;
    *out = def;
    if (!field_get(&gson, NULL, o, key)) return 0;
    if (field_num(&c->f, NULL, o, at, key, 0, 0, &d) < 0) return -1;
    if (!(d == floor(d) && d >= -9007199254740992.0 && d <= 9007199254740992.0))
        return loc_fail(c->err, loc_key(&c->p->arena, at, key), CF_ERR_SCHEMA, "expected an integer of at most 2^53 in magnitude, got %.17g", d);
    *out = (int64_t)d;
    return 0;
}
/* IrisNoiseGenerator (IRIS.md §7.2) at `at` whose super seed is base + kl: its
 * IRIS_LAYER node (2-D), or -1. o NULL: every field at its default. */
static int layer_json(ic *c, const cJSON *o, cf_loc at, int64_t kl, int depth)
{
    if (o && !cJSON_IsObject(o))
        return loc_fail(c->err, at, CF_ERR_SCHEMA, "expected an IrisNoiseGenerator object, got %s", json_type(o));
    if (depth > 16) return loc_fail(c->err, at, CF_ERR_LIMIT, "layer fractures are nested deeper than 16");
    double d[5], exponent, oct;
    int64_t seed;
    int en, fl[4];
    static const char *const flags[4] = {"negative", "parametric", "bezier", "sinCentered"};
    if (field_num(&c->f, NULL, o, at, "zoom", 0, 1, &d[0]) < 0 || field_num(&c->f, NULL, o, at, "opacity", 0, 1, &d[1]) < 0 || field_num(&c->f, NULL, o, at, "offsetX", 0, 0, &d[2]) < 0 ||
        field_num(&c->f, NULL, o, at, "offsetY", 0, 0, &d[3]) < 0 || field_num(&c->f, NULL, o, at, "offsetZ", 0, 0, &d[4]) < 0 ||
        field_num(&c->f, NULL, o, at, "exponent", 0, 1, &exponent) < 0 || field_num(&c->f, NULL, o, at, "octaves", 0, 1, &oct) < 0 ||
        iris_jseed(c, o, at, "seed", 0, &seed) < 0 || field_bool(&c->f, NULL, o, at, "enabled", 0, 1, &en) < 0)
        return -1;
    int fmask = 0;
    for (int i = 0; i < 4; i++) {
        if (field_bool(&c->f, NULL, o, at, flags[i], 0, 0, &fl[i]) < 0) return -1;
        fmask |= fl[i] ? 1 << i : 0;
    }
    const cJSON *fr = field_get(&gson, NULL, o, "fracture"), *st = field_get(&gson, NULL, o, "style");
    cf_loc fat = loc_key(&c->p->arena, at, "fracture");
    if (fr && !cJSON_IsArray(fr)) return loc_fail(c->err, fat, CF_ERR_SCHEMA, "expected an array of layers, got %s", json_type(fr));
    int nf = fr ? cJSON_GetArraySize(fr) : 0;
    if (nf > 64) return loc_fail(c->err, fat, CF_ERR_LIMIT, "more than 64 fracture layers");
    int kids[65], nk = 1;
    double cop[65];
    if (en) {
        int64_t g = 33;
        for (int i = 0; i < nf; i++, g += 819) {
            const cJSON *ch = cJSON_GetArrayItem(fr, i);
            cf_loc cat = loc_index(&c->p->arena, fat, i);
            int cen;
            if (!cJSON_IsObject(ch)) return loc_fail(c->err, cat, CF_ERR_SCHEMA, "expected an IrisNoiseGenerator object, got %s", json_type(ch));
            if (field_bool(&c->f, NULL, ch, cat, "enabled", 0, 1, &cen) < 0 || field_num(&c->f, NULL, ch, cat, "opacity", 0, 1, &cop[nk]) < 0) return -1;
            if (!cen) continue;
            if ((kids[nk] = layer_json(c, ch, cat, wadd(wadd(kl, seed), g), depth + 1)) < 0) return -1;
            nk++;
        }
        cf_loc sat = st ? loc_key(&c->p->arena, at, "style") : at;
        int top = iris_style_json(c, st, sat, wadd(wadd(kl, 33955677), -seed), 0, st ? "FLAT" : "IRIS");
        if (top < 0) return -1;
        cf_loc keep = c->at;
        c->at = sat;
        kids[0] = iris_style_build(c, top, 2);
        c->at = keep;
        if (kids[0] < 0) return -1;
    }
    cf_node n = ir_node_of(NK_IRIS_LAYER, PREC_F64, at);
    for (int i = 0; i < 5; i++) n.d[i] = d[i];
    n.i[0] = fmask, n.i[1] = en, n.i[2] = c->br;
    n.nda = nk;
    n.da = arena_alloc(&c->p->arena, sizeof(double) * (size_t)nk);
    if (!n.da || ir_set_inputs(c->p, &n, en ? nk : 0, c->err) < 0) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    n.da[0] = exponent;
    for (int k = 1; k < nk; k++) n.da[k] = cop[k];
    for (int k = 0; en && k < nk; k++) n.in[k] = kids[k];
    return iris_node_add(c, &n);
}

static int check_cost(cf_program *p, int id, cf_loc at, cf_error *err);

/* InterpolationMethod names, in CF_IIM_* order */
static const char *const imethods[CF_IIM_COUNT] = {
    "NONE", "BILINEAR", "BICUBIC", "BILINEAR_BEZIER", "BILINEAR_PARAMETRIC_2", "BILINEAR_PARAMETRIC_4", "BILINEAR_PARAMETRIC_1_5",
    "HERMITE", "HERMITE_TENSE", "CATMULL_ROM_SPLINE", "HERMITE_LOOSE", "HERMITE_LOOSE_HALF_POSITIVE_BIAS",
    "HERMITE_LOOSE_HALF_NEGATIVE_BIAS", "HERMITE_LOOSE_FULL_POSITIVE_BIAS", "HERMITE_LOOSE_FULL_NEGATIVE_BIAS", "STARCAST_3",
    "STARCAST_6", "STARCAST_9", "STARCAST_12", "BILINEAR_STARCAST_3", "BILINEAR_STARCAST_6", "BILINEAR_STARCAST_9",
    "BILINEAR_STARCAST_12", "HERMITE_STARCAST_3", "HERMITE_STARCAST_6", "HERMITE_STARCAST_9", "HERMITE_STARCAST_12"};

const char *iris_interp_method_name(int m) { return m >= 0 && m < CF_IIM_COUNT ? imethods[m] : NULL; }

int iris_interpolator_parse(cf_program *p, const cJSON *obj, cf_loc at, int *method, double *scale, cf_error *err)
{
    ic c = {0};
    c.p = p, c.err = err;
    iris_ctx_fields(&c);
    *method = CF_IIM_BILINEAR_STARCAST + 1, *scale = 7;
    if (!obj) return 0;
    if (!cJSON_IsObject(obj)) return loc_fail(err, at, CF_ERR_SCHEMA, "expected an IrisInterpolator object, got %s", json_type(obj));
    const cJSON *f = field_get(&gson, NULL, obj, "function");
    cf_loc fat = loc_key(&p->arena, at, "function");
    if (f && !cJSON_IsString(f)) return loc_fail(err, fat, CF_ERR_SCHEMA, "expected an InterpolationMethod name, got %s", json_type(f));
    if (f) {
        int m = -1;
        for (int i = 0; i < CF_IIM_COUNT; i++)
            if (strcmp(imethods[i], f->valuestring) == 0) m = i;
        if (m < 0) return loc_fail(err, fat, CF_ERR_REF, "unknown interpolation function \"%s\" (InterpolationMethod: BILINEAR, HERMITE, STARCAST_6, ...)", f->valuestring);
        *method = m;
    }
    if (field_num(&c.f, NULL, obj, at, "horizontalScale", 0, 7, scale) < 0) return -1;
    if (!(*scale > 0 && *scale <= 1e9))
        return loc_fail(err, loc_key(&p->arena, at, "horizontalScale"), CF_ERR_SCHEMA, "expected a number in (0, 1e9], got %.17g", *scale);
    return 0;
}

int iris_interp_node(cf_program *p, int src, int method, double scale, cf_loc at, cf_error *err)
{
    if (method < 0 || method >= CF_IIM_COUNT || src < 0 || src >= p->nnodes)
        return err_set(err, CF_ERR_ARG, "iris_interp_node: bad arguments"), -1;
    cf_node n = ir_node_of(NK_IRIS_INTERP, PREC_F64, at);
    n.i[0] = method;
    n.d[0] = scale;
    if (ir_set_inputs(p, &n, 1, err) < 0) return -1;
    n.in[0] = src;
    return check_cost(p, ir_node_add(p, NULL, &n, "graph", err), at, err);
}

/* Evaluation cost: source samples per sample of node id (nested fractures
 * multiply: a CNG samples its fracture up to 3 times, a layer each child twice,
 * an interpolator its source at up to 192 points). Iris's own cost, but a
 * hostile file could nest it into years per sample: builders refuse more than
 * IRIS_MAX_COST (a located error). */
#define IRIS_MAX_COST 1e6
static double node_cost(const cf_program *p, int id, double *memo)
{
    if (memo[id] >= 0) return memo[id];
    const cf_node *n = &p->nodes[id];
    double c = 1;
    for (int k = 0; k < n->nin; k++) {
        double m = 1;
        if (n->kind == NK_IRIS_CNG || (n->kind == NK_IRIS_SCNG && k > 0)) m = 3;
        else if ((n->kind == NK_IRIS_LAYER && k > 0) || n->kind == NK_IRIS_CELLGEN) m = 2;
        else if (n->kind == NK_IRIS_INTERP) m = cf_ir_inpts(n->i[0]);
        c += m * node_cost(p, n->in[k], memo);
        if (c > 1e30) c = 1e30;
    }
    return memo[id] = c;
}
static int check_cost(cf_program *p, int id, cf_loc at, cf_error *err)
{
    if (id < 0) return id;
    double *memo = malloc(sizeof(double) * (size_t)p->nnodes);
    if (!memo) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < p->nnodes; i++) memo[i] = -1;
    double c = node_cost(p, id, memo);
    free(memo);
    if (c > IRIS_MAX_COST)
        return loc_fail(err, at, CF_ERR_LIMIT, "about %.3g noise samples per height (nested fractures multiply), more than %.0g", c,
                        IRIS_MAX_COST);
    return id;
}

/* IrisGenerator (IRIS.md §7.3) */
static int gen_json(ic *c, const cJSON *o, cf_loc at)
{
    if (!cJSON_IsObject(o)) return loc_fail(c->err, at, CF_ERR_SCHEMA, "expected an IrisGenerator object, got %s", json_type(o));
    double d[5], da[6], cmin, cmax;
    int mult, im;
    int64_t seed;
    double isc;
    if (field_num(&c->f, NULL, o, at, "zoom", 0, 1, &d[0]) < 0 || field_num(&c->f, NULL, o, at, "opacity", 0, 1, &d[1]) < 0 || field_num(&c->f, NULL, o, at, "offsetX", 0, 0, &d[2]) < 0 ||
        field_num(&c->f, NULL, o, at, "offsetZ", 0, 0, &d[3]) < 0 || field_bool(&c->f, NULL, o, at, "multiplicitive", 0, 0, &mult) < 0 ||
        iris_jseed(c, o, at, "seed", 1, &seed) < 0 || field_num(&c->f, NULL, o, at, "cliffHeightMin", 0, 0, &cmin) < 0 ||
        field_num(&c->f, NULL, o, at, "cliffHeightMax", 0, 0, &cmax) < 0 || field_num(&c->f, NULL, o, at, "cellFractureZoom", 0, 1, &da[2]) < 0 ||
        field_num(&c->f, NULL, o, at, "cellFractureShuffle", 0, 12, &da[5]) < 0 || field_num(&c->f, NULL, o, at, "cellFractureHeight", 0, 0, &da[3]) < 0 ||
        field_num(&c->f, NULL, o, at, "cellPercentSize", 0, 0.75, &da[4]) < 0)
        return -1;
    if (iris_interpolator_parse(c->p, field_get(&gson, NULL, o, "interpolator"), loc_key(&c->p->arena, at, "interpolator"), &im, &isc, c->err) < 0) return -1;
    da[0] = cmin, da[1] = cmax;
    const cJSON *comp = field_get(&gson, NULL, o, "composite"), *chg = field_get(&gson, NULL, o, "cliffHeightGenerator");
    cf_loc cat = loc_key(&c->p->arena, at, "composite");
    if (comp && !cJSON_IsArray(comp)) return loc_fail(c->err, cat, CF_ERR_SCHEMA, "expected an array of layers, got %s", json_type(comp));
    int nl = comp ? cJSON_GetArraySize(comp) : 0;
    if (nl > 256) return loc_fail(c->err, cat, CF_ERR_LIMIT, "more than 256 composite layers");
    /* hc = d2i(cliffHeightMin * 10 + 10 + cliffHeightMax * seed + offsetX + offsetZ) */
    int32_t hc = cf_jtoint(cmin * 10 + 10 + cmax * (double)seed + d[2] + d[3]);
    int kids[260], nk = 0;
    double tp = 0;
    for (int i = 0; i < nl; i++) {
        const cJSON *l = cJSON_GetArrayItem(comp, i);
        cf_loc lat = loc_index(&c->p->arena, cat, i);
        double op = 1;
        if (cJSON_IsObject(l) && field_num(&c->f, NULL, l, lat, "opacity", 0, 1, &op) < 0) return -1;
        if ((kids[nk++] = layer_json(c, l, lat, wadd(seed, hc), 0)) < 0) return -1;
        tp += op;
    }
    d[4] = tp;
    int cliff = cmax > 0 && nl > 0, cells = da[3] != 0 && nl > 0;
    if (cliff) {
        int keep = c->smode;
        c->smode = (c->smode & SB_MANAGER) | SB_CLIFF;
        c->cgseed = (double)seed, c->chc = hc;
        kids[nk] = layer_json(c, chg, chg ? loc_key(&c->p->arena, at, "cliffHeightGenerator") : at, 0, 0);
        c->smode = keep;
        if (kids[nk++] < 0) return -1;
    }
    if (cells) {
        /* CellGenerator(RNG(seed + 46222 + 239466)): SIG(SIMPLEX) from + 3204, kernel seed from + 8735652 */
        int keep = c->smode;
        int64_t r = wadd(wadd(seed, 46222), 239466);
        c->smode = SB_ZERO;
        c->nsp = 0;
        c->kbase = wadd(r, 3204);
        c->s = "SIG(SIMPLEX)";
        c->at = at;
        int top = iris_style_expr(c), sig = top < 0 ? -1 : iris_style_build(c, top, 2);
        c->at = (cf_loc){0};
        cf_node n = ir_node_of(NK_IRIS_CELLGEN, PREC_F64, at);
        n.d[0] = da[5];
        int bad = sig < 0 || iris_seed_fields(c, &n, wadd(r, 8735652)) < 0 || ir_set_inputs(c->p, &n, 1, c->err) < 0;
        c->smode = keep;
        if (bad) return c->overflow ? loc_fail(c->err, at, CF_ERR_LIMIT, "too many CNGs") : -1;
        n.in[0] = sig;
        if ((kids[nk++] = iris_node_add(c, &n)) < 0) return -1;
    }
    cf_node n = ir_node_of(NK_IRIS_GEN, PREC_F64, at);
    for (int i = 0; i < 5; i++) n.d[i] = d[i];
    n.i[0] = mult, n.i[1] = nl, n.i[2] = cliff, n.i[3] = cells;
    n.nda = 5;
    n.da = arena_alloc(&c->p->arena, sizeof(double) * 5);
    if (!n.da || ir_set_inputs(c->p, &n, nk, c->err) < 0) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    memcpy(n.da, da, sizeof(double) * 5);
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return iris_node_add(c, &n);
}

int iris_generator_node_pk(cf_program *p, cf_pack *pk, const cJSON *gen, cf_loc at, int super_rule, cf_error *err)
{
    ic c = {0};
    c.p = p, c.err = err, c.pk = pk;
    iris_ctx_fields(&c);
    if (p->dialect != DIALECT_IRIS_MASTER && p->dialect != DIALECT_IRIS_UNIFICATION)
        return err_set(err, CF_ERR_ARG, "iris_generator_node_pk: the program is not an Iris one"), -1;
    c.br = p->dialect == DIALECT_IRIS_MASTER ? CF_IR_MASTER : CF_IR_UNIFICATION;
    c.smode = super_rule == IRIS_SUPER_ENGINE ? SB_MANAGER : 0;
    return check_cost(p, gen_json(&c, gen, at), at, err);
}

/* iris:generator/KEY[#2d][#super][#interpolated] (KEY: generators/KEY.json in the pack) */
static int generator_function(cf_program *p, cf_pack *pk, const char *fn, cf_error *err)
{
    const char *key = fn + 15, *hash = strchr(key, '#');
    size_t kl = hash ? (size_t)(hash - key) : strlen(key);
    int direct = 0, interp = 0;
    for (const char *h = hash; h; h = strchr(h + 1, '#')) {
        const char *e = strchr(h + 1, '#');
        size_t l = e ? (size_t)(e - h - 1) : strlen(h + 1);
        if (l == 2 && strncmp(h + 1, "2d", 2) == 0) continue;
        if (l == 5 && strncmp(h + 1, "super", 5) == 0) direct = 1;
        else if (l == 12 && strncmp(h + 1, "interpolated", 12) == 0) interp = 1;
        else
            return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": unknown suffix \"#%.*s\" (#2d, #super, #interpolated)", fn,
                           (int)l, h + 1),
                   -1;
    }
    int ok = kl > 0 && kl < 200 && key[0] != '/' && key[kl - 1] != '/';
    for (size_t i = 0; ok && i < kl; i++)
        ok = (key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z') || (key[i] >= '0' && key[i] <= '9') ||
             strchr("_-./", key[i]);
    if (ok && (strstr(key, "..") != NULL && (size_t)(strstr(key, "..") - key) < kl)) ok = 0;
    if (!ok)
        return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": expected iris:generator/KEY (letters, digits, _ - . /)", fn), -1;
    char rel[256];
    snprintf(rel, sizeof rel, "generators/%.*s.json", (int)kl, key);
    if (!pk) return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": a generator needs a pack (--pack)", fn), -1;
    cJSON *root = NULL;
    const char *display = NULL;
    int r = json_load_rel(&p->arena, pk, rel, &root, &display, err);
    if (r < 0) return -1;
    if (r == 0) return err_set(err, CF_ERR_REF, "<arguments>: function \"%s\": no %s in the pack", fn, rel), -1;
    cf_loc at = {display, NULL};
    int node = iris_generator_node_pk(p, pk, root, at, direct ? IRIS_SUPER_DIRECT : IRIS_SUPER_ENGINE, err);
    if (node >= 0 && interp) {
        int m;
        double sc;
        if (iris_interpolator_parse(p, field_get(&gson, NULL, root, "interpolator"), loc_key(&p->arena, at, "interpolator"), &m, &sc, err) < 0) node = -1;
        else node = iris_interp_node(p, node, m, sc, at, err);
    }
    cJSON_Delete(root);
    return node;
}

/* ------------------------------------------------------------------ public */
static int iris_node_2d(const cf_program *p, const cf_node *n)
{
    (void)p;
    switch (n->kind) {
    case NK_IRIS_LAYER:
    case NK_IRIS_GEN:
    case NK_IRIS_CELLGEN:
    case NK_IRIS_INTERP:
    case NK_IRIS_CONST:
    case NK_IRIS_GROUP:
    case NK_IRIS_HEIGHT: return 1;
    case NK_IRIS_CNG:
    case NK_IRIS_SCNG:
    case NK_IRIS_IMAGE:
    case NK_IRIS_CELLZ: return n->i[3] == 2;
    default: return 0;
    }
}



static cf_status iris_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    cf_loc cli = {"<arguments>", NULL};
    ic c = {0};
    c.p = p;
    c.err = err;
    iris_ctx_fields(&c);
    c.pk = pk;
    p->prec = PREC_F64;
    p->min_y = 0, p->height = 256, p->sea_level = 64;
    const char *dl = settings_id && strncmp(settings_id, "iris:", 5) == 0 ? settings_id + 5 : "master";
    if (strcmp(dl, "master") == 0) c.br = CF_IR_MASTER;
    else if (strcmp(dl, "unification") == 0) c.br = CF_IR_UNIFICATION;
    else return err_set(err, CF_ERR_ARG, "%s: unknown Iris dialect \"%s\" (master or unification)", cli.file, dl);
    p->dialect = c.br == CF_IR_MASTER ? DIALECT_IRIS_MASTER : DIALECT_IRIS_UNIFICATION;
    p->settings_id = arena_printf(&p->arena, "iris:%s", dl);
    if (!p->settings_id) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (ir_set_outputs(p, functions, nfn, err) < 0) return err->status;
    for (int f = 0; f < nfn; f++) {
        const char *fn = functions[f];
        if (strcmp(fn, "iris:all") == 0) {
            if ((p->outputs[f] = iris_build_all(&c)) < 0) return err->status;
            continue;
        }
        if (strncmp(fn, "iris:generator/", 15) == 0) {
            if ((p->outputs[f] = generator_function(p, pk, fn, err)) < 0) return err->status;
            continue;
        }
        if (strncmp(fn, "iris:expression/", 16) == 0 || strncmp(fn, "iris:image/", 11) == 0) {
            if ((p->outputs[f] = iris_expr_function(&c, fn)) < 0) return err->status;
            continue;
        }
        if (strncmp(fn, "iris:style/", 11) != 0)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": an Iris program takes iris:style/NAME, iris:generator/KEY, iris:expression/KEY or iris:image/KEY", cli.file, fn);
        char name[128];
        const char *nm = fn + 11, *hash = strchr(nm, '#');
        int dims = 3;
        size_t l = hash ? (size_t)(hash - nm) : strlen(nm);
        if (hash && strcmp(hash, "#2d") == 0) dims = 2;
        else if (hash)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": unknown suffix \"%s\" (#2d)", cli.file, fn, hash);
        if (l == 0 || l >= sizeof name)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": expected iris:style/NAME", cli.file, fn);
        memcpy(name, nm, l);
        name[l] = 0;
        int row = -1;
        for (int i = 0; i < iris_style_count(); i++)
            if (strcmp(iris_styles[i].name, name) == 0 && (iris_styles[i].br & (c.br == CF_IR_MASTER ? BR_M : BR_U))) row = i;
        if (row < 0)
            return err_set(err, CF_ERR_REF, "%s: function \"%s\": unknown NoiseStyle \"%s\" on Iris's %s branch", cli.file,
                           fn, name, dl);
        c.nsp = 0;
        c.missing[0] = 0;
        c.s = iris_styles[row].cons;
        int top = iris_style_expr(&c);
        if (top < 0) return err_set(err, CF_ERR_ARG, "iris.c: style %s: bad construction \"%s\"", name, iris_styles[row].cons);
        if (c.missing[0])
            return err_set(err, CF_ERR_SCHEMA, "%s: function \"%s\": NoiseStyle %s needs NoiseType %s, not implemented yet",
                           cli.file, fn, name, c.missing);
        int node = iris_style_build(&c, top, dims);
        if (node < 0) return err->status;
        p->outputs[f] = node;
    }
    return CF_OK;
}

/* IRIS_ROWS over kids[0..n) */
static int rows_node(ic *c, const int *kids, int n)
{
    cf_node r = ir_node_of(NK_IRIS_ROWS, PREC_F64, (cf_loc){"<json>", NULL});
    if (ir_set_inputs(c->p, &r, n, c->err) < 0) return -1;
    memcpy(r.in, kids, sizeof(int) * (size_t)n);
    return iris_node_add(c, &r);
}
/* tests: an array of {kind, name, json} objects (../shared/iris/definitions.json)
 * as IRIS_ROWS over each object (styles in 3-D and 2-D) */
static int all_json(ic *c, const cJSON *arr, cf_loc at)
{
    int n = cJSON_GetArraySize(arr), k = 0;
    int *kids = malloc(sizeof(int) * (size_t)(2 * n + 1));
    if (!kids) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < n; i++) {
        const cJSON *o = cJSON_GetArrayItem(arr, i), *kd = field_get(&gson, NULL, o, "kind"), *js = field_get(&gson, NULL, o, "json");
        cf_loc oat = loc_index(&c->p->arena, at, i);
        if (!cJSON_IsString(kd) || !js) {
            free(kids);
            return loc_fail(c->err, oat, CF_ERR_SCHEMA, "expected {kind, name, json}");
        }
        int node = -1;
        c->smode = 0;
        if (strcmp(kd->valuestring, "style") == 0) {
            c->at = oat;
            int top = iris_style_json(c, js, oat, 0, 0, "FLAT");
            node = top < 0 ? -1 : iris_style_build(c, top, 3);
            kids[k++] = node;
            node = node < 0 ? -1 : iris_style_build(c, top, 2);
        } else if (strcmp(kd->valuestring, "layer") == 0) node = layer_json(c, js, oat, 0, 0);
        else node = gen_json(c, js, oat);
        if (node < 0) {
            free(kids);
            return -1;
        }
        kids[k++] = node;
    }
    int r = rows_node(c, kids, k);
    free(kids);
    return r;
}

/* tests: one program of one output from the JSON text of an Iris object, its
 * RNG (style) or super seed (layer, generator) the world seed itself */
cf_status iris_compile_json(cf_program **out, const char *kind, const char *json, int unification, int dims, cf_error *err)
{
    return iris_compile_json_pk(out, NULL, kind, json, unification, dims, err);
}
cf_status iris_compile_json_pk(cf_program **out, cf_pack *pk, const char *kind, const char *json, int unification, int dims, cf_error *err)
{
    *out = NULL;
    cf_program *p = calloc(1, sizeof *p);
    if (!p) return err_set(err, CF_ERR_NOMEM, "out of memory");
    cJSON *root = cJSON_Parse(json);
    ic c = {0};
    c.p = p, c.err = err, c.pk = pk;
    iris_ctx_fields(&c);
    c.br = unification ? CF_IR_UNIFICATION : CF_IR_MASTER;
    p->prec = PREC_F64;
    p->min_y = 0, p->height = 256, p->sea_level = 64;
    p->dialect = unification ? DIALECT_IRIS_UNIFICATION : DIALECT_IRIS_MASTER;
    p->fe = &cf_frontend_iris;
    p->settings_id = arena_printf(&p->arena, "iris:%s", unification ? "unification" : "master");
    p->noutputs = 1;
    p->outputs = arena_alloc(&p->arena, sizeof(int));
    p->output_names = arena_alloc(&p->arena, sizeof(char *));
    p->max_fill_bytes = (size_t)1 << 30;
    cf_loc at = {"<json>", NULL};
    int node = -1;
    if (!root) err_set(err, CF_ERR_JSON, "<json>: not JSON");
    else if (!p->outputs || !p->output_names || !p->settings_id) err_set(err, CF_ERR_NOMEM, "out of memory");
    else if (strcmp(kind, "style") == 0) {
        c.at = at;
        int top = iris_style_json(&c, root, at, 0, 0, "FLAT");
        node = top < 0 ? -1 : iris_style_build(&c, top, dims);
    } else if (strcmp(kind, "layer") == 0) node = layer_json(&c, root, at, 0, 0);
    else if (strcmp(kind, "generator") == 0) node = gen_json(&c, root, at);
    else if (strcmp(kind, "all") == 0 && cJSON_IsArray(root)) node = all_json(&c, root, at);
    else if (strcmp(kind, "interpolators") == 0) {
        /* every InterpolationMethod over the generator, its horizontalScale */
        int src = gen_json(&c, root, at), m;
        double sc;
        int kids[CF_IIM_COUNT];
        if (src >= 0 && iris_interpolator_parse(p, field_get(&gson, NULL, root, "interpolator"), at, &m, &sc, err) == 0) {
            for (m = 0; m < CF_IIM_COUNT && src >= 0; m++) src = (kids[m] = iris_interp_node(p, src, m, sc, at, err)) < 0 ? -1 : src;
            if (src >= 0) node = rows_node(&c, kids, CF_IIM_COUNT);
        }
    } else err_set(err, CF_ERR_ARG, "iris_compile_json: unknown kind %s", kind);
    cJSON_Delete(root);
    if (node >= 0) {
        p->outputs[0] = node;
        p->output_names[0] = kind;
        if (passes_run(p, NULL, err) == CF_OK && plan_build(p, err) == CF_OK) {
            *out = p;
            return CF_OK;
        }
    }
    program_free(p);
    return err->status;
}

/* ------------------------------------------------------------------ the front-end record */
static cf_status front_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                             cf_error *err)
{
    if (iris_pack_wanted(pk, settings_id, functions, n)) return iris_pack_parse(p, pk, settings_id, functions, n, err);
    cf_status st = iris_parse(p, pk, settings_id, functions, n, err);
    if (st == CF_OK) p->max_fill_bytes = pk->lim.max_fill_bytes;
    return st;
}

const cf_frontend cf_frontend_iris = {
    .name = "iris", .title = "Iris (generators, terrains, NoiseStyles)", .prefix = "iris:",
    .first_kind = NK_IRIS_CNG, .last_kind = NK_IRIS_HEIGHT,
    .borrows = (const int[]){NK_LN_TERRAIN, -1}, /* a terrain's density from its height (iris_pack.c) */
    .claims = iris_pack_wanted, .parse = front_parse,
    .node_2d = iris_node_2d, .bind_seed = iris_seeds, .table_offset = iris_table_offset,
};
