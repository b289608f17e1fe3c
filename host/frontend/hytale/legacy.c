/* legacy.c - the Hytale front-end's legacy noise assets (HYTALE.md Part A) -> graph IR:
 * hytale/Noise/<ID>.json, requested as hytale:noise/ID (or the default request in a pack without
 * hytale/Density/Terrain.json). The legacy choices are the block below; the leaf maths are
 * kernels/cf_hytale.h's legacy block. Errors are one line, "file.json#/pointer: message".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/hytale/parse.h"

/* ------------------------------------------------------------------ Part A: legacy noise assets
 * hytale/Noise/<ID>.json, function hytale:noise/ID. `Parent` inheritance is resolved
 * first (HYTALE.md §2.2: the child's fields replace the parent's; objects merge field by
 * field; arrays are replaced whole; a parent of another Type/NoiseType, a missing parent
 * and a cycle are errors), then the asset is lowered to V2 kinds and the legacy kinds of
 * nodes_hytale.def (legacy-noise, -point, -formula, -curve, -rotate, -distort, -gradient, -scale). Every
 * Type and NoiseType of HYTALE.md §2.5/§2.6 and every wrapper (§2.9 order) of tiers 1 and 2
 * is lowered; the tier-3 types and values (§2.10) are located "not supported" errors, as the
 * spec prescribes. The UNK choices are the "legacy choices" block below. */
#define HY_LEGACY_MAX_CHAIN 64

typedef struct lchain {
    const char *ids[HY_LEGACY_MAX_CHAIN];
    int n;
} lchain;

static int legacy_load(hc *c, const char *id, cf_loc at, cJSON **root, const char **display)
{
    if (!hy_valid_name(id)) return field_fail(&c->f, at, CF_ERR_REF, "bad noise asset id \"%s\"", id);
    char rel[600];
    snprintf(rel, sizeof rel, "hytale/Noise/%s.json", id);
    int r = json_load_rel(&c->p->arena, c->pk, rel, root, display, c->err);
    if (r < 0) return -1;
    if (r == 0) return field_fail(&c->f, at, CF_ERR_REF, "no noise asset \"%s\" (no %s in any pack)", id, rel);
    if (!cJSON_IsObject(*root)) {
        field_fail(&c->f, (cf_loc){*display, NULL}, CF_ERR_SCHEMA, "expected a noise asset (an object), found %s", json_type(*root));
        cJSON_Delete(*root);
        return -1;
    }
    return 0;
}

/* the child's fields over a copy of the parent's: objects field by field, the rest replaced */
static int merge_into(cJSON *dst, const cJSON *src)
{
    for (const cJSON *k = src->child; k; k = k->next) {
        if (strcmp(k->string, "Parent") == 0) continue;
        cJSON *d = cJSON_GetObjectItemCaseSensitive(dst, k->string);
        if (d && cJSON_IsObject(d) && cJSON_IsObject(k)) {
            if (merge_into(d, k) < 0) return -1;
            continue;
        }
        cJSON *copy = cJSON_Duplicate(k, 1);
        if (!copy) return -1;
        if (d) cJSON_ReplaceItemInObjectCaseSensitive(dst, k->string, copy);
        else cJSON_AddItemToObject(dst, k->string, copy);
    }
    return 0;
}

static const char *str_field(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* an asset with its Parent chain applied (a new tree the caller deletes), or NULL */
static cJSON *legacy_resolve(hc *c, const cJSON *a, cf_loc at, lchain *ch)
{
    const cJSON *par = cJSON_GetObjectItemCaseSensitive(a, "Parent");
    if (!par) return cJSON_Duplicate(a, 1);
    cf_loc pa = field_key(&c->f, at, "Parent");
    if (!cJSON_IsString(par)) return field_fail(&c->f, pa, CF_ERR_SCHEMA, "expected a noise asset id (a string), found %s", json_type(par)), NULL;
    for (int i = 0; i < ch->n; i++)
        if (strcmp(ch->ids[i], par->valuestring) == 0) {
            char path[600] = "";
            for (int k = i; k < ch->n; k++) {
                strncat(path, ch->ids[k], sizeof path - strlen(path) - 1);
                strncat(path, " -> ", sizeof path - strlen(path) - 1);
            }
            strncat(path, par->valuestring, sizeof path - strlen(path) - 1);
            return field_fail(&c->f, pa, CF_ERR_CYCLE, "Parent cycle: %s", path), NULL;
        }
    if (ch->n >= HY_LEGACY_MAX_CHAIN) return field_fail(&c->f, pa, CF_ERR_LIMIT, "Parent chain longer than %d", HY_LEGACY_MAX_CHAIN), NULL;
    cJSON *proot = NULL;
    const char *pdisp = "";
    if (legacy_load(c, par->valuestring, pa, &proot, &pdisp) < 0) return NULL;
    ch->ids[ch->n++] = arena_strdup(&c->p->arena, par->valuestring);
    cJSON *base = legacy_resolve(c, proot, (cf_loc){pdisp, NULL}, ch);
    ch->n--;
    cJSON_Delete(proot);
    if (!base) return NULL;
    /* UNK choice (§2.2 rule 5): a parent of another Type / NoiseType is an error */
    const char *kt = str_field(a, "Type"), *kn = str_field(a, "NoiseType"), *bt = str_field(base, "Type"), *bn = str_field(base, "NoiseType");
    if ((kt && (!bt || strcmp(kt, bt))) || (kn && (!bn || strcmp(kn, bn))) || (kt && bn) || (kn && bt)) {
        field_fail(&c->f, pa, CF_ERR_SCHEMA, "parent \"%s\" is a %s %s, this asset a %s %s", par->valuestring, bt ? "Type" : "NoiseType",
             bt ? bt : bn ? bn : "?", kt ? "Type" : "NoiseType", kt ? kt : kn ? kn : "?");
        cJSON_Delete(base);
        return NULL;
    }
    if (merge_into(base, a) < 0) {
        cJSON_Delete(base);
        return field_nomem(&c->f), NULL;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(base, "Parent");
    return base;
}

static int legacy_asset(hc *c, const cJSON *v, cf_loc at, const char *label, lchain *ch);

static int add_node(hc *c, int kind, cf_loc at, const int *in, int nin, double d0)
{
    cf_node n;
    hy_new_node(c, kind, at, &n);
    n.nin = nin;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nin ? nin : 1));
    if (!n.in) return field_nomem(&c->f);
    for (int k = 0; k < nin; k++) n.in[k] = in[k];
    n.d[0] = d0;
    return hy_node_add(c, &n);
}

/* a noise slot: an asset id, {"File": id}, or an inline asset */
static int legacy_slot(hc *c, const cJSON *v, cf_loc at, const char *label, lchain *ch)
{
    const cJSON *file = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "File") : NULL;
    if (file && cJSON_GetArraySize(v) == 1) v = file, at = field_key(&c->f, at, "File");
    if (cJSON_IsString(v)) {
        for (int i = 0; i < ch->n; i++)
            if (strcmp(ch->ids[i], v->valuestring) == 0) return field_fail(&c->f, at, CF_ERR_CYCLE, "noise reference cycle through \"%s\"", v->valuestring);
        if (ch->n >= HY_LEGACY_MAX_CHAIN) return field_fail(&c->f, at, CF_ERR_LIMIT, "noise references nested deeper than %d", HY_LEGACY_MAX_CHAIN);
        cJSON *root = NULL;
        const char *disp = "";
        if (legacy_load(c, v->valuestring, at, &root, &disp) < 0) return -1;
        ch->ids[ch->n++] = arena_strdup(&c->p->arena, v->valuestring);
        int r = legacy_asset(c, root, (cf_loc){disp, NULL}, label, ch);
        ch->n--;
        cJSON_Delete(root);
        return r;
    }
    if (cJSON_IsObject(v)) return legacy_asset(c, v, at, label, ch);
    return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a noise asset (an id or an object), found %s", json_type(v));
}

/* [min, max] of a range field: array, {"Min","Max"} map, or a number n = [0, n] (UNK choices) */
static int legacy_range(hc *c, const cJSON *v, cf_loc at, double *lo, double *hi)
{
    if (cJSON_IsNumber(v)) return *lo = 0, *hi = v->valuedouble, 0;
    if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 2 && cJSON_IsNumber(v->child) && cJSON_IsNumber(v->child->next))
        return *lo = v->child->valuedouble, *hi = v->child->next->valuedouble, 0;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, "Min"), *b = cJSON_GetObjectItemCaseSensitive(v, "Max");
    if (cJSON_IsObject(v) && cJSON_IsNumber(a) && cJSON_IsNumber(b) && cJSON_GetArraySize(v) == 2)
        return *lo = a->valuedouble, *hi = b->valuedouble, 0;
    return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a range: [min, max], {\"Min\": a, \"Max\": b} or a number");
}

/* ---- legacy choices (HYTALE.md UNK; the one place, mirrored in host/frontend/hytale/README.md "Unknowns and the
 * choices made (legacy)"). The leaf algorithms are kernels/cf_hytale.h's legacy block.
 *  - label -> int: hytale_seed() in hytale.c (shared with V2)
 *  - Seed "parent" (§2.3): after Parent inheritance, the nearest enclosing asset's label; "" at the root
 *  - Parent (§2.2): arrays replaced whole; another Type/NoiseType, a cycle, a missing parent: errors
 *  - dimension: SIMPLEX/OLD_SIMPLEX/PERLIN/VALUE/CELL/DISTANCE leaves are 2-D on (x, z); POINT is 3-D
 *  - base noises: FNL OpenSimplex2 / Perlin / Value / cellular, [-1, 1] mapped as v * 0.5 + 0.5
 *  - OLD_SIMPLEX (the spec's named choice): classic 2-D simplex in double (12 edge gradients,
 *    radius 0.5, x70) over a permutation shuffled by java.util.Random(seed), i = 255 .. 1,
 *    swap(p[i], p[nextInt(i + 1)])
 *  - fractal (§2.8): FBM = sum P^i n_i(L^i p) / sum P^i with seed + i; MAX = max_i of the same
 *    weighted terms; OLDSCHOOL is tier 3 (unsupported)
 *  - DISTANCE Distance2Mode: SUB/ADD/MUL/DIV = FNL Distance2Sub/Add/Mul/Div, MIN = FNL Distance
 *    (F1), MAX = FNL Distance2 (F2); CELL CellMode CELL_VALUE / DISTANCE = FNL CellValue / Distance
 *  - Jitter: FNL's jitter (1 = FNL 1); JitterX != JitterZ is unsupported (FNL has one jitter)
 *  - InterpolationMode: QUINTIC, HERMITE, LINEAR select the lattice fade of PERLIN and VALUE
 *  - POINT: 1 within InnerRadius, 0 beyond OuterRadius, linear in between
 *  - SUM Factors: a missing factor is 1, more factors than noises is an error
 *  - MAX / MIN / SUM / MULTIPLY with no noise: error
 *  - NORMALIZE: (child - a) / (b - a), no clamp; Range / Normalize number n = [0, n], [a, b], {Min, Max}
 *  - Normalize wrapper: [0, 1] -> [min, max]; for GRADIENT, Normalize is the divisor (a number,
 *    or element 0 / Min of a range)
 *  - OFFSET and the Offset wrapper: child(p + o)
 *  - ROTATE / Pitch+Yaw wrapper: child(R (p - origin) + origin), R = pitch about +X after yaw
 *    about +Y, right-handed, degrees, matrix folded on the host (libm sin/cos); 0/0 is no node
 *  - GRADIENT: MAGNITUDE only, central differences of step Distance in x, y and z, no clamp
 *  - DISTORTED: p' = p + sum_g Amplitude_g (2 g(p; label + HY_L_AXIS[a]) - 1) per axis a, the
 *    generators in order, x then y then z; Randomizer.Rotate rotates p' afterwards
 *  - BLEND: below T0 -> child 0, above the last -> the last child, linear between the two children
 *    whose thresholds bracket Alpha (only those two are evaluated)
 *  - Formula: NORMAL v, INVERTED 1 - v, SQRT sqrt(v) (odd for v < 0), SQUARED v*v,
 *    RIDGED 1 - |2v - 1|, RIDGED_SQRT sqrt(RIDGED), INVERTED_X 1 - X; *_FIX unsupported
 *  - CURVE / Curve wrapper: v < 0.5: 0.5 (2v)^A, else 1 - 0.5 (2 (1 - v))^(-B) (A 2, B -2: the
 *    quadratic S curve), powers by cf_hy_pow (odd extension; integer exponents by multiplication)
 *  - wrapper order (§2.9): Formula, Curve, Scale, Normalize, Offset, rotation, Gradient
 *  - tier 3 (HYTALE.md §2.10): MESH, GRID, BRANCH,
 *    HEX cells, NATURAL / MAX distance, Density, DistanceRange, Skip > 0, CellMode lookups
 *    (NoiseLookup), Measurement other than CENTRE_DISTANCE, OLDSCHOOL, *_FIX: a located
 *    "unsupported (tier 3)" error naming the field or value */
static const char *const HY_L_AXIS[3] = {"/X", "/Y", "/Z"};
/* a limit, not a choice: GRADIENTs nested on one path (6^n evaluations of the innermost noise) */
#define HY_L_MAX_GRADIENTS 4

/* every S1 field and the Types / NoiseTypes it applies to ("*" = every asset) */
typedef struct lfield {
    const char *name, *applies;
} lfield;
#define HY_L_NOISES " SIMPLEX OLD_SIMPLEX PERLIN VALUE CELL DISTANCE MESH GRID BRANCH "
#define HY_L_CELLS " CELL DISTANCE MESH BRANCH "
static const lfield legacy_fields[] = {
    {"Type", "*"}, {"NoiseType", "*"}, {"Parent", "*"}, {"Seed", "*"}, {"Tags", "*"},
    {"Formula", "*"}, {"Curve", "*"}, {"Scale", "*"}, {"Normalize", "*"}, {"Offset", "*"}, {"OffsetX", "*"}, {"OffsetY", "*"},
    {"OffsetZ", "*"}, {"Pitch", "*"}, {"Yaw", "*"}, {"OriginX", "*"}, {"OriginY", "*"}, {"OriginZ", "*"}, {"Gradient", "*"},
    {"Noise", " MAX MIN SUM MULTIPLY SCALE FORMULA DISTORTED NORMALIZE INVERT OFFSET ROTATE GRADIENT CURVE BLEND "},
    {"Factors", " SUM "}, {"Alpha", " BLEND "}, {"Thresholds", " BLEND "}, {"Range", " NORMALIZE "}, {"Rotate", " ROTATE "},
    {"Randomizer", " DISTORTED "}, {"Mode", " GRADIENT "}, {"Distance", " GRADIENT "}, {"A", " CURVE "}, {"B", " CURVE "},
    {"Octaves", HY_L_NOISES}, {"FractalMode", HY_L_NOISES}, {"Lacunarity", HY_L_NOISES}, {"Persistence", HY_L_NOISES},
    {"InterpolationMode", " PERLIN VALUE "}, {"Value", " CONSTANT "},
    {"CellMode", " CELL "}, {"NoiseLookup", " CELL "}, {"CellType", HY_L_CELLS}, {"DistanceMode", HY_L_CELLS},
    {"Distance2Mode", " DISTANCE "}, {"Measurement", " DISTANCE "}, {"Jitter", HY_L_CELLS}, {"JitterX", HY_L_CELLS},
    {"JitterY", HY_L_CELLS}, {"JitterZ", HY_L_CELLS}, {"Density", HY_L_CELLS}, {"DistanceRange", HY_L_CELLS},
    {"Skip", HY_L_CELLS}, {"SkipMode", HY_L_CELLS}, {"Thickness", " GRID MESH "}, {"ThicknessX", " GRID "},
    {"ThicknessY", " GRID "}, {"ThicknessZ", " GRID "}, {"LinesX", " MESH "}, {"LinesY", " MESH "}, {"LinesZ", " MESH "},
    {"X", " POINT "}, {"Y", " POINT "}, {"Z", " POINT "}, {"InnerRadius", " POINT "}, {"OuterRadius", " POINT "},
    {"ParentType", " BRANCH "}, {"ParentDistanceMode", " BRANCH "}, {"ParentDistanceType", " BRANCH "},
    {"ParentFormula", " BRANCH "}, {"ParentJitter", " BRANCH "}, {"ParentJitterX", " BRANCH "}, {"ParentJitterY", " BRANCH "},
    {"ParentValue", " BRANCH "}, {"ParentFade", " BRANCH "}, {"ParentDensity", " BRANCH "}, {"LineType", " BRANCH "},
    {"LineDirection", " BRANCH "}, {"LineScale", " BRANCH "}, {"LineJitter", " BRANCH "}, {"LineJitterX", " BRANCH "},
    {"LineJitterY", " BRANCH "}, {"LineThickness", " BRANCH "},
};
/* the 14 composite Types and 11 leaf NoiseTypes of HYTALE.md §2.5 / §2.6 (tests enumerate them) */
const char *const hytale_legacy_types[] = {"MAX", "MIN", "SUM", "MULTIPLY", "SCALE", "FORMULA", "DISTORTED", "NORMALIZE",
                                           "INVERT", "OFFSET", "ROTATE", "GRADIENT", "CURVE", "BLEND", NULL};
const char *const hytale_legacy_noise_types[] = {"CONSTANT", "SIMPLEX", "OLD_SIMPLEX", "PERLIN", "VALUE", "CELL", "DISTANCE",
                                                 "MESH", "GRID", "POINT", "BRANCH", NULL};
static const char *const legacy_formulas[] = {"NORMAL", "INVERTED", "SQRT", "INVERTED_SQRT", "SQUARED", "INVERTED_SQUARED",
                                              "RIDGED", "INVERTED_RIDGED", "RIDGED_SQRT", "INVERTED_RIDGED_SQRT"};

static int unsup(hc *c, cf_loc at, const char *what, const char *value)
{
    return field_fail(&c->f, at, HY_ERR_UNSUPPORTED, "%s%s%s%s is not supported (HYTALE.md §2.10 tier 3: no documented semantics)", what,
                value ? " \"" : "", value ? value : "", value ? "\"" : "");
}

/* a string enum field: index into names, or -1 after a located error; tier3 values are unsupported */
static int lenum(hc *c, const cJSON *a, cf_loc at, const char *key, const char *const *names, int count, int def,
                 const char *const *tier3, int n3)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(a, key);
    if (!v) {
        if (def < 0) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"%s\"", key);
        return def;
    }
    cf_loc va = field_key(&c->f, at, key);
    if (!cJSON_IsString(v)) return field_fail(&c->f, va, CF_ERR_SCHEMA, "expected a string, found %s", json_type(v));
    for (int i = 0; i < count; i++)
        if (strcmp(v->valuestring, names[i]) == 0) return i;
    for (int i = 0; i < n3; i++)
        if (strcmp(v->valuestring, tier3[i]) == 0) return unsup(c, va, key, v->valuestring);
    size_t fl = strlen(v->valuestring);
    if (fl > 4 && strcmp(v->valuestring + fl - 4, "_FIX") == 0 && strcmp(key, "Formula") == 0) return unsup(c, va, key, v->valuestring);
    char list[400] = "";
    for (int i = 0; i < count; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    return field_fail(&c->f, va, CF_ERR_SCHEMA, "unknown %s \"%s\" (expected one of %s)", key, v->valuestring, list);
}

/* the noise slot(s) of a composite: out[m]; single: exactly one */
static int legacy_noises(hc *c, const cJSON *a, cf_loc at, const char *type, const char *label, lchain *ch, int single, int **out)
{
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(a, "Noise");
    cf_loc na = field_key(&c->f, at, "Noise");
    if (!ns) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Noise\" (%s needs it)", type);
    int m = cJSON_IsArray(ns) ? cJSON_GetArraySize(ns) : 1;
    if (single && m != 1) return field_fail(&c->f, na, CF_ERR_SCHEMA, "%s takes one noise, found %d", type, m);
    if (m == 0 || m > 4096) return field_fail(&c->f, na, CF_ERR_SCHEMA, "%s takes 1 to 4096 noises, found %d", type, m);
    int *in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(m + 1));
    if (!in) return field_nomem(&c->f);
    if (cJSON_IsArray(ns)) {
        int i = 0;
        for (const cJSON *e = ns->child; e; e = e->next, i++)
            if ((in[i] = legacy_slot(c, e, field_index(&c->f, na, i), label, ch)) < 0) return -1;
    } else if ((in[0] = legacy_slot(c, ns, na, label, ch)) < 0) {
        return -1;
    }
    *out = in;
    return m;
}

/* a rotation node (no node for 0/0): obj holds Pitch, Yaw, OriginX/Y/Z */
static int legacy_rotate(hc *c, const cJSON *obj, cf_loc at, int base)
{
    cf_keys ks = {{0}, 0};
    double pitch = 0, yaw = 0, o[3] = {0, 0, 0};
    if (field_num(&c->f, &ks, obj, at, "Pitch", 0, 0, &pitch) < 0 || field_num(&c->f, &ks, obj, at, "Yaw", 0, 0, &yaw) < 0 || field_num(&c->f, &ks, obj, at, "OriginX", 0, 0, &o[0]) < 0
        || field_num(&c->f, &ks, obj, at, "OriginY", 0, 0, &o[1]) < 0 || field_num(&c->f, &ks, obj, at, "OriginZ", 0, 0, &o[2]) < 0)
        return -1;
    if (pitch == 0 && yaw == 0) return base;
    const double deg = 3.14159265358979323846 / 180.0;
    double cx = cos(pitch * deg), sx = sin(pitch * deg), cy = cos(yaw * deg), sy = sin(yaw * deg);
    double *m = arena_alloc(&c->p->arena, sizeof(double) * 12);
    if (!m) return field_nomem(&c->f);
    /* R = Rx(pitch) * Ry(yaw) */
    m[0] = cy, m[1] = 0.0, m[2] = sy;
    m[3] = sx * sy, m[4] = cx, m[5] = -(sx * cy);
    m[6] = -(cx * sy), m[7] = sx, m[8] = cx * cy;
    m[9] = o[0], m[10] = o[1], m[11] = o[2];
    cf_node n;
    hy_new_node(c, NK_HY_LROTATE, at, &n);
    n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
    if (!n.in) return field_nomem(&c->f);
    n.in[0] = base, n.da = m, n.nda = 12;
    return hy_node_add(c, &n);
}

/* the most GRADIENT nodes on one path below node k (each evaluates its child 6 times) */
static int legacy_gdepth(const cf_program *p, int k, int *memo)
{
    if (memo[k] >= 0) return memo[k];
    int m = 0;
    for (int i = 0; i < p->nodes[k].nin; i++) {
        int d = legacy_gdepth(p, p->nodes[k].in[i], memo);
        if (d > m) m = d;
    }
    return memo[k] = m + (p->nodes[k].kind == NK_HY_LGRADIENT);
}

/* MAGNITUDE gradient of base: Mode, Distance, divisor */
static int legacy_gradient(hc *c, const cJSON *obj, cf_loc at, int base, int is_type)
{
    static const char *const modes[] = {"MAGNITUDE"};
    cf_keys ks = {{0}, 0};
    cf_node n;
    hy_new_node(c, NK_HY_LGRADIENT, at, &n);
    if (lenum(c, obj, at, "Mode", modes, 1, 0, NULL, 0) < 0 || field_num(&c->f, &ks, obj, at, "Distance", 0, 5.0, &n.d[0]) < 0) return -1;
    const cJSON *nv = cJSON_GetObjectItemCaseSensitive(obj, "Normalize");
    n.d[1] = 0.1;
    if (nv && cJSON_IsNumber(nv)) n.d[1] = nv->valuedouble;
    else if (nv && is_type) {
        double lo = 0, hi = 0;
        if (legacy_range(c, nv, field_key(&c->f, at, "Normalize"), &lo, &hi) < 0) return -1;
        n.d[1] = lo;
    } else if (nv) {
        return field_fail(&c->f, field_key(&c->f, at, "Normalize"), CF_ERR_SCHEMA, "expected a number (the gradient divisor), found %s", json_type(nv));
    }
    if (!(n.d[0] > 0) || !isfinite(n.d[1]) || n.d[1] == 0)
        return field_fail(&c->f, at, CF_ERR_SCHEMA, "GRADIENT needs Distance > 0 and a non-zero Normalize divisor");
    n.d[2] = 2.0 * n.d[0];
    int *memo = malloc(sizeof(int) * (size_t)c->p->nnodes);
    if (!memo) return field_nomem(&c->f);
    for (int i = 0; i < c->p->nnodes; i++) memo[i] = -1;
    int gd = legacy_gdepth(c->p, base, memo);
    free(memo);
    if (gd >= HY_L_MAX_GRADIENTS)
        return field_fail(&c->f, at, CF_ERR_LIMIT, "GRADIENT nested more than %d deep (each one evaluates its noise 6 times)", HY_L_MAX_GRADIENTS);
    n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
    if (!n.in) return field_nomem(&c->f);
    n.in[0] = base;
    return hy_node_add(c, &n);
}

/* the power curve of base: A (2), B (-2) */
static int legacy_curve(hc *c, const cJSON *obj, cf_loc at, int base)
{
    cf_keys ks = {{0}, 0};
    cf_node n;
    hy_new_node(c, NK_HY_LCURVE, at, &n);
    if (field_num(&c->f, &ks, obj, at, "A", 0, 2.0, &n.d[0]) < 0 || field_num(&c->f, &ks, obj, at, "B", 0, -2.0, &n.d[1]) < 0) return -1;
    n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
    if (!n.in) return field_nomem(&c->f);
    n.in[0] = base;
    return hy_node_add(c, &n);
}

/* check a sub-object's keys */
static int legacy_keys(hc *c, const cJSON *o, cf_loc at, const char *what, const char *const *keys, int nk)
{
    if (!cJSON_IsObject(o)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected an object (%s), found %s", what, json_type(o));
    cf_keys ks = {{0}, 0};
    for (int i = 0; i < nk; i++) field_get(&c->f, &ks, NULL, keys[i]);
    return field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "in %s", what);
}

/* a noise leaf: SIMPLEX, OLD_SIMPLEX, PERLIN, VALUE, CELL, DISTANCE */
static int legacy_noise_leaf(hc *c, const cJSON *a, cf_loc at, const char *leaf, const char *label)
{
    static const char *const fmodes[] = {"FBM", "MAX"}, *const fmodes3[] = {"OLDSCHOOL"};
    static const char *const interps[] = {"QUINTIC", "HERMITE", "LINEAR"};
    static const char *const cmodes[] = {"CELL_VALUE", "DISTANCE"}, *const cmodes3[] = {"NOISE_LOOKUP", "DIRECTION"};
    static const char *const ctypes[] = {"SQUARE"}, *const ctypes3[] = {"HEX"};
    static const char *const dmodes[] = {"EUCLIDEAN", "MANHATTAN"}, *const dmodes3[] = {"NATURAL", "MAX"};
    static const char *const d2modes[] = {"SUB", "ADD", "MUL", "DIV", "MIN", "MAX"};
    static const char *const meas[] = {"CENTRE_DISTANCE"}, *const skipm[] = {"CHECKERBOARD"};
    cf_keys ks = {{0}, 0};
    cf_node n;
    hy_new_node(c, NK_HY_LNOISE, at, &n);
    n.i[0] = java_string_hash(label);
    int oct = 1, fm;
    if (field_int(&c->f, &ks, a, at, "Octaves", 0, 1, 1, 32, &oct) < 0 || (fm = lenum(c, a, at, "FractalMode", fmodes, 2, 0, fmodes3, 1)) < 0
        || field_num(&c->f, &ks, a, at, "Lacunarity", 0, 2.0, &n.d[0]) < 0 || field_num(&c->f, &ks, a, at, "Persistence", 0, 0.5, &n.d[1]) < 0)
        return -1;
    n.i[2] = oct, n.i[3] = fm == 1 ? CF_HY_L_FMAX : CF_HY_L_FBM;
    if (strcmp(leaf, "SIMPLEX") == 0) n.i[1] = CF_HY_L_SIMPLEX;
    else if (strcmp(leaf, "OLD_SIMPLEX") == 0) n.i[1] = CF_HY_L_OLDSIMPLEX;
    else if (strcmp(leaf, "PERLIN") == 0 || strcmp(leaf, "VALUE") == 0) {
        n.i[1] = leaf[0] == 'P' ? CF_HY_L_PERLIN : CF_HY_L_VALUE;
        int im = lenum(c, a, at, "InterpolationMode", interps, 3, 0, NULL, 0);
        if (im < 0) return -1;
        n.i[4] = im == 0 ? CF_HY_L_QUINTIC : im == 1 ? CF_HY_L_HERMITE : CF_HY_L_LINEAR;
    } else {
        int dist = strcmp(leaf, "DISTANCE") == 0;
        n.i[1] = CF_HY_L_CELL;
        if (cJSON_GetObjectItemCaseSensitive(a, "NoiseLookup")) return unsup(c, field_key(&c->f, at, "NoiseLookup"), "NoiseLookup", NULL);
        if (cJSON_GetObjectItemCaseSensitive(a, "Density")) return unsup(c, field_key(&c->f, at, "Density"), "Density", NULL);
        if (cJSON_GetObjectItemCaseSensitive(a, "DistanceRange")) return unsup(c, field_key(&c->f, at, "DistanceRange"), "DistanceRange", NULL);
        int skip = 0, cm = 0, dm, rt;
        if (field_int(&c->f, &ks, a, at, "Skip", 0, 0, 0, 1 << 20, &skip) < 0 || lenum(c, a, at, "SkipMode", skipm, 1, 0, NULL, 0) < 0
            || lenum(c, a, at, "CellType", ctypes, 1, 0, ctypes3, 1) < 0 || (dm = lenum(c, a, at, "DistanceMode", dmodes, 2, 0, dmodes3, 2)) < 0)
            return -1;
        if (skip > 0) return unsup(c, field_key(&c->f, at, "Skip"), "Skip > 0", NULL);
        if (!dist && (cm = lenum(c, a, at, "CellMode", cmodes, 2, 0, cmodes3, 2)) < 0) return -1;
        if (dist) {
            static const int rts[] = {CF_HY_D2SUB, CF_HY_D2ADD, CF_HY_D2MUL, CF_HY_D2DIV, CF_HY_DISTANCE, CF_HY_DISTANCE2};
            int m2 = lenum(c, a, at, "Distance2Mode", d2modes, 6, 0, NULL, 0);
            if (m2 < 0 || lenum(c, a, at, "Measurement", meas, 1, 0, NULL, 0) < 0) return -1;
            rt = rts[m2];
        } else {
            rt = cm == 0 ? CF_HY_CELLVALUE : CF_HY_DISTANCE;
        }
        double j = 1, jx = 1, jy = 1, jz = 1;
        if (field_num(&c->f, &ks, a, at, "Jitter", 0, 1.0, &j) < 0 || field_num(&c->f, &ks, a, at, "JitterX", 0, j, &jx) < 0 || field_num(&c->f, &ks, a, at, "JitterY", 0, j, &jy) < 0
            || field_num(&c->f, &ks, a, at, "JitterZ", 0, j, &jz) < 0)
            return -1;
        if (jx != jz) return unsup(c, field_key(&c->f, at, "JitterZ"), "JitterX != JitterZ (one FNL jitter)", NULL);
        n.i[4] = dm == 0 ? CF_HY_EUCLIDEAN : CF_HY_MANHATTAN, n.i[5] = rt, n.f[0] = (float)jx;
    }
    return hy_node_add(c, &n);
}

/* DISTORTED: Randomizer {Generators: [...], Rotate?}; base is the child */
static int legacy_distort(hc *c, const cJSON *a, cf_loc at, int base, const char *label, lchain *ch)
{
    static const char *const rkeys[] = {"Generators", "Rotate"}, *const rotkeys[] = {"Pitch", "Yaw", "OriginX", "OriginY", "OriginZ"};
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(a, "Randomizer");
    cf_loc ra = field_key(&c->f, at, "Randomizer");
    if (!r) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Randomizer\" (DISTORTED needs it)");
    if (legacy_keys(c, r, ra, "Randomizer", rkeys, 2) < 0) return -1;
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(r, "Rotate");
    if (rot) {
        cf_loc ro = field_key(&c->f, ra, "Rotate");
        if (legacy_keys(c, rot, ro, "Rotate", rotkeys, 5) < 0 || (base = legacy_rotate(c, rot, ro, base)) < 0) return -1;
    }
    const cJSON *gs = cJSON_GetObjectItemCaseSensitive(r, "Generators");
    cf_loc ga = field_key(&c->f, ra, "Generators");
    if (!gs) return field_fail(&c->f, ra, CF_ERR_SCHEMA, "missing \"Generators\"");
    int ng = cJSON_IsArray(gs) ? cJSON_GetArraySize(gs) : -1;
    if (ng < 1 || ng > 256) return field_fail(&c->f, ga, CF_ERR_SCHEMA, "expected an array of 1 to 256 noise generators, found %s", json_type(gs));
    cf_node n;
    hy_new_node(c, NK_HY_LDISTORT, at, &n);
    n.nin = 1 + 3 * ng;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)n.nin);
    n.da = arena_alloc(&c->p->arena, sizeof(double) * (size_t)ng);
    if (!n.in || !n.da) return field_nomem(&c->f);
    n.nda = ng, n.in[0] = base;
    int i = 0;
    for (const cJSON *g = gs->child; g; g = g->next, i++) {
        cf_loc gi = field_index(&c->f, ga, i);
        if (!cJSON_IsObject(g)) return field_fail(&c->f, gi, CF_ERR_SCHEMA, "expected a noise generator (an object), found %s", json_type(g));
        cJSON *gr = legacy_resolve(c, g, gi, ch);
        if (!gr) return -1;
        cf_keys ks = {{0}, 0};
        int rc = field_num(&c->f, &ks, gr, gi, "Amplitude", 0, 1.0, &n.da[i]);
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(gr, "Seed");
        if (rc == 0 && sd && !cJSON_IsString(sd)) rc = field_fail(&c->f, field_key(&c->f, gi, "Seed"), CF_ERR_SCHEMA, "expected a seed label (a string), found %s", json_type(sd));
        if (rc == 0 && cJSON_GetObjectItemCaseSensitive(gr, "Type"))
            rc = field_fail(&c->f, field_key(&c->f, gi, "Type"), CF_ERR_SCHEMA, "a noise generator is a leaf (NoiseType), not a Type");
        const char *gl = sd ? arena_strdup(&c->p->arena, sd->valuestring) : label;
        if (!gl) rc = field_nomem(&c->f);
        cJSON_DeleteItemFromObjectCaseSensitive(gr, "Amplitude");
        for (int ax = 0; ax < 3 && rc == 0; ax++) {
            char lab[520];
            snprintf(lab, sizeof lab, "%.500s%s", gl, HY_L_AXIS[ax]);
            cJSON_DeleteItemFromObjectCaseSensitive(gr, "Seed");
            if (!cJSON_AddStringToObject(gr, "Seed", lab)) rc = field_nomem(&c->f);
            else if ((n.in[1 + 3 * i + ax] = legacy_asset(c, gr, gi, label, ch)) < 0) rc = -1;
        }
        cJSON_Delete(gr);
        if (rc < 0) return -1;
    }
    return hy_node_add(c, &n);
}

static int legacy_asset(hc *c, const cJSON *v, cf_loc at, const char *label, lchain *ch)
{
    if (err_failed(c->err)) return -1;
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d", c->pk->lim.max_depth);
    cJSON *a = legacy_resolve(c, v, at, ch);
    if (!a) return -1;
    int r = -1, base = -1;
    cf_keys ks = {{0}, 0};
    const char *type = str_field(a, "Type"), *leaf = str_field(a, "NoiseType"), *what = type ? type : leaf;
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(a, "Type"), *nt = cJSON_GetObjectItemCaseSensitive(a, "NoiseType");
        if ((t && !type) || (nt && !leaf)) {
            field_fail(&c->f, field_key(&c->f, at, t && !type ? "Type" : "NoiseType"), CF_ERR_SCHEMA, "expected a string, found %s", json_type(t && !type ? t : nt));
            goto done;
        }
    }
    if ((type != NULL) == (leaf != NULL)) {
        field_fail(&c->f, at, CF_ERR_SCHEMA, type ? "both \"Type\" and \"NoiseType\"" : "missing \"Type\" (a composite) or \"NoiseType\" (a leaf)");
        goto done;
    }
    {
        const char *const *list = type ? hytale_legacy_types : hytale_legacy_noise_types;
        int known = 0;
        for (int i = 0; list[i]; i++) known |= strcmp(list[i], what) == 0;
        if (!known) {
            field_fail(&c->f, field_key(&c->f, at, type ? "Type" : "NoiseType"), CF_ERR_SCHEMA, "unknown %s \"%s\"", type ? "Type" : "NoiseType", what);
            goto done;
        }
    }
    for (const cJSON *k = a->child; k; k = k->next) {
        if (k->string[0] == '$') continue;
        const lfield *f = NULL;
        for (size_t i = 0; i < sizeof legacy_fields / sizeof *legacy_fields; i++)
            if (strcmp(k->string, legacy_fields[i].name) == 0) f = &legacy_fields[i];
        char pat[40];
        snprintf(pat, sizeof pat, " %s ", what);
        if (!f || (strcmp(f->applies, "*") != 0 && !strstr(f->applies, pat))) {
            field_fail(&c->f, field_key(&c->f, at, k->string), CF_ERR_SCHEMA, "unknown key \"%s\" for %s \"%s\"", k->string, type ? "Type" : "NoiseType", what);
            goto done;
        }
    }
    {
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(a, "Seed");
        if (sd && !cJSON_IsString(sd)) {
            field_fail(&c->f, field_key(&c->f, at, "Seed"), CF_ERR_SCHEMA, "expected a seed label (a string), found %s", json_type(sd));
            goto done;
        }
        if (sd) label = arena_strdup(&c->p->arena, sd->valuestring);
        const cJSON *tg = cJSON_GetObjectItemCaseSensitive(a, "Tags");
        if (tg && !cJSON_IsObject(tg)) {
            field_fail(&c->f, field_key(&c->f, at, "Tags"), CF_ERR_SCHEMA, "expected a map of string arrays, found %s", json_type(tg));
            goto done;
        }
    }
    if (leaf) {
        static const char *const tier3[] = {"MESH", "GRID", "BRANCH"};
        for (size_t i = 0; i < sizeof tier3 / sizeof *tier3; i++)
            if (strcmp(leaf, tier3[i]) == 0) {
                unsup(c, field_key(&c->f, at, "NoiseType"), "NoiseType", leaf);
                goto done;
            }
        if (strcmp(leaf, "CONSTANT") == 0) {
            double val = 0;
            if (field_num(&c->f, &ks, a, at, "Value", 0, 0.5, &val) < 0) goto done;
            base = hy_constant(c, val, at);
        } else if (strcmp(leaf, "POINT") == 0) {
            cf_node n;
            hy_new_node(c, NK_HY_LPOINT, at, &n);
            if (field_num(&c->f, &ks, a, at, "X", 0, 0, &n.d[0]) < 0 || field_num(&c->f, &ks, a, at, "Y", 0, 0, &n.d[1]) < 0 || field_num(&c->f, &ks, a, at, "Z", 0, 0, &n.d[2]) < 0
                || field_num(&c->f, &ks, a, at, "InnerRadius", 0, 0, &n.d[3]) < 0 || field_num(&c->f, &ks, a, at, "OuterRadius", 0, 0, &n.d[4]) < 0)
                goto done;
            base = hy_node_add(c, &n);
        } else {
            base = legacy_noise_leaf(c, a, at, leaf, label);
        }
    } else {
        int many = !strcmp(type, "SUM") || !strcmp(type, "MULTIPLY") || !strcmp(type, "MAX") || !strcmp(type, "MIN") || !strcmp(type, "BLEND");
        int *in = NULL, m = legacy_noises(c, a, at, type, label, ch, !many, &in);
        if (m < 0) goto done;
        if (!strcmp(type, "SUM")) {
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(a, "Factors");
            cf_loc fa = field_key(&c->f, at, "Factors");
            if (f && (!cJSON_IsArray(f) || cJSON_GetArraySize(f) > m)) {
                field_fail(&c->f, fa, CF_ERR_SCHEMA, "expected at most %d factors (one per noise), found %s", m, cJSON_IsArray(f) ? "more" : json_type(f));
                goto done;
            }
            int i = 0;
            for (const cJSON *e = f ? f->child : NULL; e; e = e->next, i++) {
                if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
                    field_fail(&c->f, field_index(&c->f, fa, i), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(e));
                    goto done;
                }
                if ((in[i] = add_node(c, NK_HY_AMPC, at, &in[i], 1, e->valuedouble)) < 0) goto done;
            }
            base = add_node(c, NK_HY_SUM, at, in, m, 0);
        } else if (!strcmp(type, "MULTIPLY")) {
            base = in[0];
            for (int i = 1; i < m && base >= 0; i++) {
                int two[2] = {base, in[i]};
                base = add_node(c, NK_HY_AMPLITUDE, at, two, 2, 0);
            }
        } else if (!strcmp(type, "MAX") || !strcmp(type, "MIN")) {
            base = add_node(c, type[1] == 'A' ? NK_HY_MAX : NK_HY_MIN, at, in, m, 0);
        } else if (!strcmp(type, "INVERT")) {
            int neg = add_node(c, NK_HY_INVERTER, at, in, 1, 0), two[2] = {hy_constant(c, 1.0, at), neg};
            base = neg < 0 || two[0] < 0 ? -1 : add_node(c, NK_HY_SUM, at, two, 2, 0); /* 1 - child */
        } else if (!strcmp(type, "NORMALIZE")) {
            const cJSON *rg = cJSON_GetObjectItemCaseSensitive(a, "Range");
            double lo = 0, hi = 0;
            if (!rg) {
                field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Range\" (NORMALIZE needs it)");
                goto done;
            }
            if (legacy_range(c, rg, field_key(&c->f, at, "Range"), &lo, &hi) < 0) goto done;
            cf_node n;
            hy_new_node(c, NK_HY_NORMALIZER, at, &n);
            n.nin = 1, n.in = in, n.d[0] = lo, n.d[1] = hi, n.d[2] = 0, n.d[3] = 1;
            base = hy_node_add(c, &n);
        } else if (!strcmp(type, "ROTATE")) {
            static const char *const rotkeys[] = {"Pitch", "Yaw", "OriginX", "OriginY", "OriginZ"};
            const cJSON *ro = cJSON_GetObjectItemCaseSensitive(a, "Rotate");
            if (!ro) {
                field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Rotate\" (ROTATE needs it)");
                goto done;
            }
            if (legacy_keys(c, ro, field_key(&c->f, at, "Rotate"), "Rotate", rotkeys, 5) < 0) goto done;
            base = legacy_rotate(c, ro, field_key(&c->f, at, "Rotate"), in[0]);
        } else if (!strcmp(type, "GRADIENT")) {
            base = legacy_gradient(c, a, at, in[0], 1);
        } else if (!strcmp(type, "CURVE")) {
            base = legacy_curve(c, a, at, in[0]);
        } else if (!strcmp(type, "DISTORTED")) {
            base = legacy_distort(c, a, at, in[0], label, ch);
        } else if (!strcmp(type, "BLEND")) {
            const cJSON *al = cJSON_GetObjectItemCaseSensitive(a, "Alpha"), *th = cJSON_GetObjectItemCaseSensitive(a, "Thresholds");
            cf_loc ta = field_key(&c->f, at, "Thresholds");
            if (!al || !th) {
                field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"%s\" (BLEND needs it)", al ? "Thresholds" : "Alpha");
                goto done;
            }
            if (!cJSON_IsArray(th) || cJSON_GetArraySize(th) != m) {
                field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected %d thresholds (one per noise), found %s", m, cJSON_IsArray(th) ? "a different count" : json_type(th));
                goto done;
            }
            double *k = arena_alloc(&c->p->arena, sizeof(double) * (size_t)m);
            if (!k) {
                field_nomem(&c->f);
                goto done;
            }
            int i = 0;
            for (const cJSON *e = th->child; e; e = e->next, i++) {
                if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
                    field_fail(&c->f, field_index(&c->f, ta, i), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(e));
                    goto done;
                }
                k[i] = e->valuedouble;
                if (i && !(k[i] > k[i - 1])) {
                    field_fail(&c->f, field_index(&c->f, ta, i), CF_ERR_SCHEMA, "thresholds must increase strictly (%.17g after %.17g)", k[i], k[i - 1]);
                    goto done;
                }
            }
            if ((in[m] = legacy_slot(c, al, field_key(&c->f, at, "Alpha"), label, ch)) < 0) goto done;
            cf_node n;
            hy_new_node(c, NK_HY_MULTIMIX, at, &n);
            n.nin = m + 1, n.in = in, n.da = k, n.nda = m;
            base = hy_node_add(c, &n);
        } else {
            base = in[0]; /* SCALE, FORMULA, OFFSET: the wrapper of the same field below */
            const char *need = !strcmp(type, "SCALE") ? "Scale" : !strcmp(type, "FORMULA") ? "Formula" : NULL;
            if (need && !cJSON_GetObjectItemCaseSensitive(a, need)) {
                field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"%s\" (%s needs it)", need, type);
                goto done;
            }
        }
    }
    if (base < 0) goto done;
    /* wrappers, HYTALE.md §2.9 order: Formula, Curve, Scale, Normalize, Offset, rotation, Gradient */
    if (cJSON_GetObjectItemCaseSensitive(a, "Formula")) {
        int f = lenum(c, a, at, "Formula", legacy_formulas, 10, 0, NULL, 0);
        if (f < 0) goto done;
        if (f != 0) {
            cf_node n;
            hy_new_node(c, NK_HY_LFORMULA, at, &n);
            n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
            if (!n.in) {
                field_nomem(&c->f);
                goto done;
            }
            n.in[0] = base, n.i[0] = f;
            if ((base = hy_node_add(c, &n)) < 0) goto done;
        }
    }
    {
        static const char *const ckeys[] = {"A", "B"};
        const cJSON *cv = cJSON_GetObjectItemCaseSensitive(a, "Curve");
        if (cv && (legacy_keys(c, cv, field_key(&c->f, at, "Curve"), "Curve", ckeys, 2) < 0 || (base = legacy_curve(c, cv, field_key(&c->f, at, "Curve"), base)) < 0))
            goto done;
    }
    if (cJSON_GetObjectItemCaseSensitive(a, "Scale")) {
        double sv = 0;
        if (field_num(&c->f, &ks, a, at, "Scale", CF_REQUIRED, NAN, &sv) < 0) goto done;
        if ((base = add_node(c, NK_HY_LSCALE, at, &base, 1, sv)) < 0) goto done;
    }
    const cJSON *nz = cJSON_GetObjectItemCaseSensitive(a, "Normalize");
    if (nz && strcmp(type ? type : "", "GRADIENT") != 0) {
        double lo = 0, hi = 0;
        if (legacy_range(c, nz, field_key(&c->f, at, "Normalize"), &lo, &hi) < 0) goto done;
        cf_node n;
        hy_new_node(c, NK_HY_NORMALIZER, at, &n);
        n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
        if (!n.in) {
            field_nomem(&c->f);
            goto done;
        }
        n.in[0] = base, n.d[0] = 0, n.d[1] = 1, n.d[2] = lo, n.d[3] = hi; /* [0, 1] -> [lo, hi] */
        if ((base = hy_node_add(c, &n)) < 0) goto done;
    }
    {
        double o = 0, ox = 0, oy = 0, oz = 0;
        if (field_num(&c->f, &ks, a, at, "Offset", 0, 0, &o) < 0 || field_num(&c->f, &ks, a, at, "OffsetX", 0, o, &ox) < 0 || field_num(&c->f, &ks, a, at, "OffsetY", 0, o, &oy) < 0
            || field_num(&c->f, &ks, a, at, "OffsetZ", 0, o, &oz) < 0)
            goto done;
        if (ox != 0 || oy != 0 || oz != 0) {
            /* child(p + o) as a Slider by -o (p - (-o) == p + o exactly) */
            cf_node n;
            hy_new_node(c, NK_HY_SLIDER, at, &n);
            n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
            if (!n.in) {
                field_nomem(&c->f);
                goto done;
            }
            n.in[0] = base, n.d[0] = -ox, n.d[1] = -oy, n.d[2] = -oz;
            if ((base = hy_node_add(c, &n)) < 0) goto done;
        }
    }
    if ((base = legacy_rotate(c, a, at, base)) < 0) goto done;
    {
        static const char *const gkeys[] = {"Mode", "Distance", "Normalize"};
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(a, "Gradient");
        if (g && (legacy_keys(c, g, field_key(&c->f, at, "Gradient"), "Gradient", gkeys, 3) < 0 || (base = legacy_gradient(c, g, field_key(&c->f, at, "Gradient"), base, 0)) < 0))
            goto done;
    }
    r = base;
done:
    cJSON_Delete(a);
    c->depth--;
    return r;
}

/* 1 when hytale/Noise/<id>.json is in the packs */
int hy_legacy_has(hc *c, const char *id)
{
    /* the file itself, not a listing of the folder (a list of 4,096 names left later files out) */
    char rel[600], *text = NULL;
    size_t len;
    const char *disp;
    cf_error e = {0};
    if (!hy_valid_name(id)) return 0;
    snprintf(rel, sizeof rel, "hytale/Noise/%s.json", id);
    int r = pack_read_rel(c->pk, rel, &text, &len, &disp, &e);
    free(text);
    return r > 0;
}

int hy_legacy_function(hc *c, const char *id, cf_loc cli)
{
    cJSON *root = NULL;
    const char *disp = "";
    if (legacy_load(c, id, cli, &root, &disp) < 0) return -1;
    lchain ch = {{0}, 0};
    ch.ids[ch.n++] = arena_strdup(&c->p->arena, id);
    int r = legacy_asset(c, root, (cf_loc){disp, NULL}, "", &ch);
    cJSON_Delete(root);
    return r;
}

