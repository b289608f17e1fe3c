/* libnoise.c - the libnoise front-end: module graphs as JSON -> graph IR.
 *
 * Input: a pack file libnoise/<NAME>.json = {"modules": {ID: MODULE, ...},
 * "output": ID, "terrain": {...} | "density": ..., "world": {...}} and the
 * requested functions (libnoise:NAME/ID, libnoise:NAME, or the default
 * router:final_density = the file's terrain). Output: prog->nodes of the
 * NF_F64 kinds of host/ir/nodes_libnoise.def, children first; the program's dialect is
 * DIALECT_LIBNOISE (double values at double positions). A module referenced
 * twice becomes one node; a reference back into a module being parsed is a
 * cycle. Errors are one line, "file.json#/pointer: message". The JSON tree is
 * scratch, freed before returning; nodes and locations live in the program arena.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ir/ir.h"

#define LN_MAX_OCTAVE 30 /* libnoise's PERLIN/BILLOW/RIDGED_MAX_OCTAVE */
/* Module evaluations per position when every use of a module computes it again
 * (what libnoise itself and the generated OpenCL do; the CPU's memo only helps at
 * one position): a graph whose uses multiply past this is refused, not run for ever. */
#define LN_MAX_EXPANSION 1e7

typedef struct lmod {
    const char *id;
    const cJSON *v;
    int state; /* 0 not parsed, 1 being parsed, 2 parsed */
    int node;
} lmod;

typedef struct lc {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    cf_fields f; /* the field reader (base.h): errors into err, locations in the program arena */
    cf_loc modules_at;
    lmod *mods;
    int nmods;
    const char **chain;
    int nchain, depth;
    int sharp; /* "dialect": "sharpnoise" */
} lc;

/* ------------------------------------------------------------------ parameters
 * An object's keys are checked against what its module reads (field_unknown): a
 * misspelt key is an error, not a silently ignored default. */
static int get_quality(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, int *out)
{
    const cJSON *v = field_get(&c->f, ks, o, "noiseQuality");
    *out = 1;
    if (!v) return 0;
    static const char *const names[] = {"fast", "std", "best"};
    if (cJSON_IsString(v))
        for (int i = 0; i < 3; i++)
            if (strcmp(v->valuestring, names[i]) == 0) return *out = i, 0;
    return field_fail(&c->f, field_key(&c->f, at, "noiseQuality"), CF_ERR_SCHEMA, "expected \"fast\", \"std\" or \"best\", found %s%s%s%s",
                json_type(v), cJSON_IsString(v) ? " \"" : "", cJSON_IsString(v) ? v->valuestring : "", cJSON_IsString(v) ? "\"" : "");
}

static int seed_param(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, int *out)
{
    return field_int(&c->f, ks, o, at, "seed", 0, 0, INT32_MIN, INT32_MAX, out);
}

/* ------------------------------------------------------------------ nodes */
static int module(lc *c, const cJSON *v, cf_loc at);

static int node_add(lc *c, const cf_node *n) { return ir_node_add(c->p, &c->pk->lim, n, "module graph", c->err); }

static int set_inputs(lc *c, cf_node *n, int count) { return ir_set_inputs(c->p, n, count, c->err); }

/* an input field: an ID or an inline module, required */
static int input(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const char *mod)
{
    const cJSON *v = field_get(&c->f, ks, o, key);
    if (!v) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing source \"%s\" (%s needs it)", key, mod);
    return module(c, v, field_key(&c->f, at, key));
}

/* "sources": exactly n inputs, in libnoise's source-index order */
static int sources(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, int count, int extra, const char *mod)
{
    if (set_inputs(c, n, count + extra) < 0) return -1;
    const cJSON *s = field_get(&c->f, ks, o, "sources");
    if (!s) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing source: \"sources\" (%s takes %d)", mod, count);
    cf_loc sa = field_key(&c->f, at, "sources");
    if (!cJSON_IsArray(s)) return field_fail(&c->f, sa, CF_ERR_SCHEMA, "expected an array of %d sources, found %s", count, json_type(s));
    int m = cJSON_GetArraySize(s);
    if (m != count)
        return field_fail(&c->f, sa, CF_ERR_SCHEMA, "%s takes %d source%s, found %d%s", mod, count, count == 1 ? "" : "s", m,
                    m < count ? " (missing source)" : "");
    int i = 0;
    for (const cJSON *e = s->child; e; e = e->next, i++)
        if ((n->in[i] = module(c, e, field_index(&c->f, sa, i))) < 0) return -1;
    return 0;
}

/* controlPoints of Curve ([[in, out], ...], width 2) or Terrace ([in, ...], width 1) */
static int points(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, int width, int min)
{
    const cJSON *s = field_get(&c->f, ks, o, "controlPoints");
    if (!s) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"controlPoints\" (at least %d)", min);
    cf_loc sa = field_key(&c->f, at, "controlPoints");
    if (!cJSON_IsArray(s)) return field_fail(&c->f, sa, CF_ERR_SCHEMA, "expected an array, found %s", json_type(s));
    int m = cJSON_GetArraySize(s);
    if (m < min || m > 4096) return field_fail(&c->f, sa, CF_ERR_SCHEMA, "expected %d to 4096 control points, found %d", min, m);
    double *d = arena_alloc(&c->p->arena, sizeof(double) * (size_t)(m * width));
    if (!d) return field_nomem(&c->f);
    int i = 0;
    for (const cJSON *e = s->child; e; e = e->next, i++) {
        cf_loc ea = field_index(&c->f, sa, i);
        double v[2] = {0, 0};
        if (width == 2) {
            if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2)
                return field_fail(&c->f, ea, CF_ERR_SCHEMA, "expected [input, output], found %s", json_type(e));
            const cJSON *a = e->child, *b = a->next;
            if (!cJSON_IsNumber(a) || !isfinite(a->valuedouble))
                return field_fail(&c->f, field_index(&c->f, ea, 0), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(a));
            if (!cJSON_IsNumber(b) || !isfinite(b->valuedouble))
                return field_fail(&c->f, field_index(&c->f, ea, 1), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(b));
            v[0] = a->valuedouble, v[1] = b->valuedouble;
        } else {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
                return field_fail(&c->f, ea, CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(e));
            v[0] = e->valuedouble;
        }
        /* libnoise inserts in order and refuses an input it already has */
        int pos = 0;
        while (pos < i && !(v[0] < d[pos * width])) {
            if (v[0] == d[pos * width])
                return field_fail(&c->f, ea, CF_ERR_SCHEMA, "control point input %.17g appears twice", v[0]);
            pos++;
        }
        memmove(d + (pos + 1) * width, d + pos * width, sizeof(double) * (size_t)((i - pos) * width));
        for (int k = 0; k < width; k++) d[pos * width + k] = v[k];
    }
    n->da = d;
    n->nda = m * width;
    return 0;
}

static int bounds(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, double *lo, double *hi)
{
    if (field_num(&c->f, ks, o, at, "lowerBound", 0, -1.0, lo) < 0 || field_num(&c->f, ks, o, at, "upperBound", 0, 1.0, hi) < 0) return -1;
    if (!(*lo < *hi))
        return field_fail(&c->f, at, CF_ERR_SCHEMA, "lowerBound %.17g must be below upperBound %.17g (libnoise's SetBounds)", *lo, *hi);
    return 0;
}

#define U __attribute__((unused))
#define LNPARSE(K) static int lnparse_##K(U lc *c, U cf_keys *ks, U const cJSON *o, U cf_loc at, U cf_node *n, U const char *mod)

static int octaves(lc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, int pers)
{
    if (field_num(&c->f, ks, o, at, "frequency", 0, 1.0, &n->d[0]) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "lacunarity", 0, 2.0, &n->d[1]) < 0) return -1;
    if (pers && field_num(&c->f, ks, o, at, "persistence", 0, 0.5, &n->d[2]) < 0) return -1;
    if (field_int(&c->f, ks, o, at, "octaveCount", 0, 6, 1, LN_MAX_OCTAVE, &n->i[0]) < 0) return -1;
    if (seed_param(c, ks, o, at, &n->i[1]) < 0) return -1;
    return get_quality(c, ks, o, at, &n->i[2]);
}
LNPARSE(LN_PERLIN) { return octaves(c, ks, o, at, n, 1); }
LNPARSE(LN_BILLOW) { return octaves(c, ks, o, at, n, 1); }
LNPARSE(LN_RIDGED) { return octaves(c, ks, o, at, n, 0); }
LNPARSE(LN_VORONOI)
{
    if (field_num(&c->f, ks, o, at, "frequency", 0, 1.0, &n->d[0]) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "displacement", 0, 1.0, &n->d[1]) < 0) return -1;
    if (field_bool(&c->f, ks, o, at, "enableDistance", 0, 0, &n->i[0]) < 0) return -1;
    return seed_param(c, ks, o, at, &n->i[1]);
}
/* libnoise's SetConstValue: "constValue", like every other field; "value" is kept as an alias */
LNPARSE(LN_CONST) { return field_num_in(&c->f, ks, o, at, "constValue", "value", 0, 0.0, -HUGE_VAL, HUGE_VAL, &n->d[0]); }
LNPARSE(LN_CHECKERBOARD) { return 0; }
LNPARSE(LN_CYLINDERS) { return field_num(&c->f, ks, o, at, "frequency", 0, 1.0, &n->d[0]); }
LNPARSE(LN_SPHERES) { return field_num(&c->f, ks, o, at, "frequency", 0, 1.0, &n->d[0]); }
LNPARSE(LN_ABS) { return sources(c, ks, o, at, n, 1, 0, mod); }
LNPARSE(LN_CLAMP)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    return bounds(c, ks, o, at, &n->d[0], &n->d[1]);
}
LNPARSE(LN_CURVE)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    return points(c, ks, o, at, n, 2, 4);
}
LNPARSE(LN_EXPONENT)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    return field_num(&c->f, ks, o, at, "exponent", 0, 1.0, &n->d[0]);
}
LNPARSE(LN_INVERT) { return sources(c, ks, o, at, n, 1, 0, mod); }
LNPARSE(LN_SCALEBIAS)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "scale", 0, 1.0, &n->d[0]) < 0) return -1;
    return field_num(&c->f, ks, o, at, "bias", 0, 0.0, &n->d[1]);
}
LNPARSE(LN_TERRACE)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    if (points(c, ks, o, at, n, 1, 2) < 0) return -1;
    return field_bool(&c->f, ks, o, at, "invertTerraces", 0, 0, &n->i[0]);
}
LNPARSE(LN_ADD) { return sources(c, ks, o, at, n, 2, 0, mod); }
LNPARSE(LN_MAX) { return sources(c, ks, o, at, n, 2, 0, mod); }
LNPARSE(LN_MIN) { return sources(c, ks, o, at, n, 2, 0, mod); }
LNPARSE(LN_MULTIPLY) { return sources(c, ks, o, at, n, 2, 0, mod); }
LNPARSE(LN_POWER) { return sources(c, ks, o, at, n, 2, 0, mod); }
LNPARSE(LN_BLEND)
{
    if (sources(c, ks, o, at, n, 2, 1, mod) < 0) return -1;
    return (n->in[2] = input(c, ks, o, at, "control", mod)) < 0 ? -1 : 0;
}
LNPARSE(LN_SELECT)
{
    if (sources(c, ks, o, at, n, 2, 1, mod) < 0) return -1;
    if ((n->in[2] = input(c, ks, o, at, "control", mod)) < 0) return -1;
    if (bounds(c, ks, o, at, &n->d[0], &n->d[1]) < 0) return -1;
    double fall = 0;
    if (field_num(&c->f, ks, o, at, "edgeFalloff", 0, 0.0, &fall) < 0) return -1;
    /* SetEdgeFalloff: at most half the bounds' width */
    double half = (n->d[1] - n->d[0]) / 2;
    n->d[2] = fall > half ? half : fall;
    return 0;
}
LNPARSE(LN_DISPLACE)
{
    if (set_inputs(c, n, 4) < 0) return -1;
    if ((n->in[0] = input(c, ks, o, at, "source", mod)) < 0) return -1;
    if ((n->in[1] = input(c, ks, o, at, "x", mod)) < 0) return -1;
    if ((n->in[2] = input(c, ks, o, at, "y", mod)) < 0) return -1;
    return (n->in[3] = input(c, ks, o, at, "z", mod)) < 0 ? -1 : 0;
}
LNPARSE(LN_ROTATEPOINT)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "xAngle", 0, 0.0, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "yAngle", 0, 0.0, &n->d[1]) < 0
        || field_num(&c->f, ks, o, at, "zAngle", 0, 0.0, &n->d[2]) < 0)
        return -1;
    /* SetAngles, once, on the host: the matrix is data for both backends. libm's
     * cos/sin here are the ones libnoise itself calls (see the README). */
    const double deg = 3.1415926535897932385 / 180.0;
    double xc = cos(n->d[0] * deg), yc = cos(n->d[1] * deg), zc = cos(n->d[2] * deg);
    double xs = sin(n->d[0] * deg), ys = sin(n->d[1] * deg), zs = sin(n->d[2] * deg);
    double *m = arena_alloc(&c->p->arena, sizeof(double) * 9);
    if (!m) return field_nomem(&c->f);
    m[0] = ys * xs * zs + yc * zc;
    m[1] = xc * zs;
    m[2] = ys * zc - yc * xs * zs;
    m[3] = ys * xs * zc - yc * zs;
    m[4] = xc * zc;
    m[5] = -yc * xs * zc - ys * zs;
    m[6] = -ys * xc;
    m[7] = xs;
    m[8] = yc * xc;
    n->da = m;
    n->nda = 9;
    return 0;
}
LNPARSE(LN_SCALEPOINT)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "xScale", 0, 1.0, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "yScale", 0, 1.0, &n->d[1]) < 0) return -1;
    return field_num(&c->f, ks, o, at, "zScale", 0, 1.0, &n->d[2]);
}
LNPARSE(LN_TRANSLATEPOINT)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "xTranslation", 0, 0.0, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "yTranslation", 0, 0.0, &n->d[1]) < 0)
        return -1;
    return field_num(&c->f, ks, o, at, "zTranslation", 0, 0.0, &n->d[2]);
}
LNPARSE(LN_TURBULENCE)
{
    if (sources(c, ks, o, at, n, 1, 0, mod) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "frequency", 0, 1.0, &n->d[0]) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "power", 0, 1.0, &n->d[1]) < 0) return -1;
    if (field_int(&c->f, ks, o, at, "roughness", 0, 3, 1, LN_MAX_OCTAVE, &n->i[0]) < 0) return -1;
    return seed_param(c, ks, o, at, &n->i[1]);
}
LNPARSE(LN_CACHE) { return sources(c, ks, o, at, n, 1, 0, mod); }
LNPARSE(LN_TERRAIN) { return 0; } /* built from the file's "terrain" (file_terrain) */

typedef int (*lnparse_fn)(lc *, cf_keys *, const cJSON *, cf_loc, cf_node *, const char *);
static const lnparse_fn lnparsers[NK_COUNT] = {
#define NODE64(K, name, flags, fields, summary, value) [NK_##K] = lnparse_##K,
#include "ir/nodes_libnoise.def"
#undef NODE64
};

static int module_ref(lc *c, const char *id, cf_loc at);

/* a MODULE object */
static int module_obj(lc *c, const cJSON *o, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    cf_keys ks = {{0}, 0};
    const cJSON *m = field_get(&c->f, &ks, o, "module");
    if (!m) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"module\" (a libnoise module class name such as \"Perlin\")");
    cf_loc ma = field_key(&c->f, at, "module");
    if (!cJSON_IsString(m)) return field_fail(&c->f, ma, CF_ERR_SCHEMA, "expected a module class name (a string), found %s", json_type(m));
    int kind = -1;
    for (int k = 0; k < NK_COUNT; k++)
        if (lnparsers[k] && k != NK_LN_TERRAIN && strcmp(node_name[k] + 9, m->valuestring) == 0) kind = k;
    if (c->sharp) {
        /* SharpNoise's names and module set */
        if (strcmp(m->valuestring, "Constant") == 0) kind = NK_LN_CONST;
        if (kind == NK_LN_VORONOI || strcmp(m->valuestring, "Cell") == 0 || strcmp(m->valuestring, "Simplex") == 0
            || strcmp(m->valuestring, "White") == 0)
            return field_fail(&c->f, ma, CF_ERR_SCHEMA, "module \"%s\" is not implemented in the sharpnoise dialect (Cell, Simplex, "
                        "White: not yet; Voronoi: not a SharpNoise module)", m->valuestring);
    }
    if (kind < 0) return field_fail(&c->f, ma, CF_ERR_SCHEMA, "unknown module \"%s\"", m->valuestring);
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d", c->pk->lim.max_depth);
    cf_node n = ir_node_of(kind, PREC_F64, at);
    if (lnparsers[kind](c, &ks, o, at, &n, m->valuestring) < 0) return -1;
    if (c->sharp && (kind == NK_LN_PERLIN || kind == NK_LN_BILLOW || kind == NK_LN_RIDGED || kind == NK_LN_TURBULENCE
                     || kind == NK_LN_CHECKERBOARD))
        n.i[5] = 1; /* SharpNoise's variant of the module (kernels/cf_libnoise.h, CF_LN_SHARP) */
    if (field_unknown(&c->f, &ks, o, at, 0, "for %s", m->valuestring) < 0) return -1;
    c->depth--;
    return node_add(c, &n);
}

static int module(lc *c, const cJSON *v, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    if (cJSON_IsString(v)) return module_ref(c, v->valuestring, at);
    if (cJSON_IsObject(v)) return module_obj(c, v, at);
    return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a module (an ID or an object), found %s", json_type(v));
}

static int module_ref(lc *c, const char *id, cf_loc at)
{
    lmod *m = NULL;
    for (int i = 0; i < c->nmods; i++)
        if (c->mods[i].id && strcmp(c->mods[i].id, id) == 0) m = &c->mods[i];
    if (!m) return field_fail(&c->f, at, CF_ERR_REF, "unknown module ID \"%s\" (not a key of /modules)", id);
    if (m->state == 2) return m->node;
    if (m->state == 1) {
        char chain[512];
        cycle_text(chain, sizeof chain, (const char *const *)c->chain, c->nchain, id);
        return field_fail(&c->f, at, CF_ERR_CYCLE, "module cycle: %s", chain);
    }
    if (c->nchain >= c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "references nested deeper than %d", c->pk->lim.max_depth);
    m->state = 1;
    c->chain[c->nchain++] = m->id;
    int node = module(c, m->v, field_key(&c->f, c->modules_at, m->id));
    c->nchain--;
    m->state = node < 0 ? 1 : 2;
    m->node = node;
    return node;
}

/* ------------------------------------------------------------------ files */

/* "libnoise:NAME[/ID]" -> NAME and ID ("" when absent); 0, or -1 when malformed */
static int split_fn(const char *f, char *name, size_t nsz, char *id, size_t isz)
{
    if (strncmp(f, "libnoise:", 9) != 0) return -1;
    f += 9;
    const char *slash = strchr(f, '/');
    size_t nl = slash ? (size_t)(slash - f) : strlen(f);
    if (nl == 0 || nl >= nsz) return -1;
    for (size_t i = 0; i < nl; i++) {
        char ch = f[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.')
            || (i == 0 && ch == '.'))
            return -1;
    }
    memcpy(name, f, nl);
    name[nl] = 0;
    const char *i = slash ? slash + 1 : "";
    if (slash && !*i) return -1;
    if (strlen(i) >= isz) return -1;
    strcpy(id, i);
    return 0;
}

static int libnoise_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    if (settings_id && strncmp(settings_id, "libnoise:", 9) == 0) return 1;
    for (int i = 0; i < n; i++)
        if (functions[i] && strncmp(functions[i], "libnoise:", 9) == 0) return 1;
    /* the default request on a pack of libnoise files only */
    if (!request_is_default(settings_id, functions, n)) return 0;
    const char *names[2];
    return pack_list(pk, "libnoise", names, 2) == 1 && !pack_has_overworld(pk);
}

static int world_params(lc *c, const cJSON *root, cf_loc ra)
{
    cf_program *p = c->p;
    p->min_y = 0, p->height = 256, p->sea_level = 64;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(root, "world");
    if (!w) return 0;
    cf_loc wa = field_key(&c->f, ra, "world");
    if (!cJSON_IsObject(w)) return field_fail(&c->f, wa, CF_ERR_SCHEMA, "expected an object, found %s", json_type(w));
    cf_keys ks = {{0}, 0};
    if (field_int(&c->f, &ks, w, wa, "minY", 0, 0, -2032, 2016, &p->min_y) < 0) return -1;
    if (field_int(&c->f, &ks, w, wa, "height", 0, 256, 16, 4064, &p->height) < 0) return -1;
    if (field_int(&c->f, &ks, w, wa, "seaLevel", 0, 64, INT32_MIN, INT32_MAX, &p->sea_level) < 0) return -1;
    if (p->min_y % 16 || p->height % 16) return field_fail(&c->f, wa, CF_ERR_SCHEMA, "minY and height must be multiples of 16");
    if (p->min_y + p->height > 2032) return field_fail(&c->f, wa, CF_ERR_SCHEMA, "minY + height must be at most 2032");
    if (field_unknown(&c->f, &ks, w, wa, 0, "(minY, height, seaLevel)") < 0) return -1;
    return 0;
}

/* the file's terrain density: "terrain" {height, scale, offset} or "density" */
static int file_terrain(lc *c, const cJSON *root, cf_loc ra)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "terrain");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "density");
    if (t && d) return field_fail(&c->f, ra, CF_ERR_SCHEMA, "both \"terrain\" and \"density\": give one");
    if (d) return module(c, d, field_key(&c->f, ra, "density"));
    if (!t) return field_fail(&c->f, ra, CF_ERR_SCHEMA, "no \"terrain\" or \"density\" (name a module: libnoise:NAME/ID)");
    cf_loc ta = field_key(&c->f, ra, "terrain");
    if (!cJSON_IsObject(t)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected an object, found %s", json_type(t));
    cf_keys ks = {{0}, 0};
    cf_node n = ir_node_of(NK_LN_TERRAIN, PREC_F64, ta);
    if (set_inputs(c, &n, 1) < 0) return -1;
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "output");
    if (!cJSON_GetObjectItemCaseSensitive(t, "height") && cJSON_IsString(o))
        n.in[0] = module_ref(c, o->valuestring, field_key(&c->f, ra, "output")); /* the height defaults to the output */
    else
        n.in[0] = input(c, &ks, t, ta, "height", "terrain");
    field_get(&c->f, &ks, t, "height");
    if (n.in[0] < 0) return -1;
    if (field_num(&c->f, &ks, t, ta, "scale", 0, 1.0, &n.d[0]) < 0 || field_num(&c->f, &ks, t, ta, "offset", 0, 0.0, &n.d[1]) < 0) return -1;
    if (field_unknown(&c->f, &ks, t, ta, 0, "(height, scale, offset)") < 0) return -1;
    return node_add(c, &n);
}

static cf_status libnoise_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn,
                         cf_error *err)
{
    lc c = {0};
    c.p = p;
    c.pk = pk;
    c.err = err;
    field_init(&c.f, &p->arena, err);
    c.f.ints = CF_INTS_IN;
    p->dialect = DIALECT_LIBNOISE;
    p->prec = PREC_F64;
    p->max_fill_bytes = pk->lim.max_fill_bytes;
    cJSON *root = NULL;
    char name[256] = "", id[512];
    cf_loc cli = {"<arguments>", NULL};
    /* which file: --settings libnoise:NAME, else the functions' NAME, else the only file */
    if (settings_id && strncmp(settings_id, "libnoise:", 9) == 0) {
        if (split_fn(settings_id, name, sizeof name, id, sizeof id) < 0 || id[0])
            return field_fail(&c.f, cli, CF_ERR_ARG, "settings \"%s\": expected libnoise:NAME", settings_id), err->status;
    }
    for (int i = 0; i < nfn; i++) {
        char nm[256];
        if (strncmp(functions[i], "libnoise:", 9) != 0) continue;
        if (split_fn(functions[i], nm, sizeof nm, id, sizeof id) < 0)
            return field_fail(&c.f, cli, CF_ERR_ARG, "function \"%s\": expected libnoise:NAME or libnoise:NAME/ID", functions[i]),
                   err->status;
        if (!name[0]) strcpy(name, nm);
        else if (strcmp(name, nm) != 0)
            return field_fail(&c.f, cli, CF_ERR_ARG, "function \"%s\": one program reads one libnoise file (%s)", functions[i], name),
                   err->status;
    }
    if (!name[0]) {
        const char *names[2];
        int k = pack_list(pk, "libnoise", names, 2);
        if (k != 1)
            return field_fail(&c.f, cli, CF_ERR_ARG, "%s libnoise files in the packs: name one with --settings libnoise:NAME",
                        k == 0 ? "no" : "several"), err->status;
        snprintf(name, sizeof name, "%s", names[0]);
    }
    char rel[300];
    snprintf(rel, sizeof rel, "libnoise/%s.json", name);
    const char *display = NULL;
    int r = json_load_rel(&p->arena, pk, rel, &root, &display, err);
    if (r < 0) return err->status;
    if (r == 0) return field_fail(&c.f, cli, CF_ERR_REF, "no libnoise file \"%s\" (no %s in any pack)", name, rel), err->status;
    p->settings_id = arena_printf(&p->arena, "libnoise:%s", name);
    cf_loc ra = {display, NULL};
    const cJSON *mods;
    if (!cJSON_IsObject(root)) {
        field_fail(&c.f, ra, CF_ERR_SCHEMA, "expected a module graph (an object), found %s", json_type(root));
        goto done;
    }
    {
        const cJSON *dl = cJSON_GetObjectItemCaseSensitive(root, "dialect");
        if (dl && cJSON_IsString(dl) && strcmp(dl->valuestring, "sharpnoise") == 0) {
            c.sharp = 1;
            p->dialect = DIALECT_SHARPNOISE;
        } else if (dl && !(cJSON_IsString(dl) && strcmp(dl->valuestring, "libnoise") == 0)) {
            field_fail(&c.f, field_key(&c.f, ra, "dialect"), CF_ERR_SCHEMA, "expected \"libnoise\" or \"sharpnoise\", found %s%s%s%s",
                 json_type(dl), cJSON_IsString(dl) ? " \"" : "", cJSON_IsString(dl) ? dl->valuestring : "",
                 cJSON_IsString(dl) ? "\"" : "");
            goto done;
        }
    }
    {
        const cf_keys top = {{"modules", "output", "terrain", "density", "world", "dialect"}, 6};
        if (field_unknown(&c.f, &top, root, ra, 0, "(modules, output, terrain, density, world, dialect)") < 0) goto done;
    }
    mods = cJSON_GetObjectItemCaseSensitive(root, "modules");
    if (!mods) {
        field_fail(&c.f, ra, CF_ERR_SCHEMA, "missing \"modules\"");
        goto done;
    }
    c.modules_at = field_key(&c.f, ra, "modules");
    if (!cJSON_IsObject(mods)) {
        field_fail(&c.f, c.modules_at, CF_ERR_SCHEMA, "expected an object of modules, found %s", json_type(mods));
        goto done;
    }
    c.nmods = cJSON_GetArraySize(mods);
    c.mods = calloc((size_t)c.nmods + 1, sizeof *c.mods);
    c.chain = calloc((size_t)pk->lim.max_depth + 1, sizeof(char *));
    if (!c.mods || !c.chain) {
        field_nomem(&c.f);
        goto done;
    }
    {
        int i = 0;
        for (const cJSON *k = mods->child; k; k = k->next, i++) {
            c.mods[i].id = arena_strdup(&p->arena, k->string);
            c.mods[i].v = k;
            if (!c.mods[i].id) {
                field_nomem(&c.f);
                goto done;
            }
        }
    }
    if (world_params(&c, root, ra) < 0) goto done;
    {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "output");
        if (o && !cJSON_IsString(o)) {
            field_fail(&c.f, field_key(&c.f, ra, "output"), CF_ERR_SCHEMA, "expected a module ID (a string), found %s", json_type(o));
            goto done;
        }
        if (o && module_ref(&c, o->valuestring, field_key(&c.f, ra, "output")) < 0) goto done;
    }
    if (ir_set_outputs(p, functions, nfn, err) < 0) goto done;
    for (int i = 0; i < nfn; i++) {
        const char *f = functions[i];
        char nm[256];
        int node;
        if (strncmp(f, "libnoise:", 9) == 0 && split_fn(f, nm, sizeof nm, id, sizeof id) == 0 && id[0])
            node = module_ref(&c, id, cli);
        else if (strncmp(f, "libnoise:", 9) == 0 || strcmp(f, "router:final_density") == 0)
            node = file_terrain(&c, root, ra);
        else {
            field_fail(&c.f, cli, CF_ERR_ARG, "function \"%s\": a libnoise program takes libnoise:NAME/ID or libnoise:NAME", f);
            goto done;
        }
        if (node < 0) goto done;
        p->outputs[i] = node;
    }
    {
        double *e = malloc(sizeof(double) * ((size_t)p->nnodes + 1));
        if (!e) {
            field_nomem(&c.f);
            goto done;
        }
        for (int i = 0; i < p->nnodes; i++) {
            e[i] = 1;
            for (int k = 0; k < p->nodes[i].nin; k++) e[i] += e[p->nodes[i].in[k]];
        }
        for (int i = 0; i < nfn; i++)
            if (e[p->outputs[i]] > LN_MAX_EXPANSION) {
                field_fail(&c.f, p->nodes[p->outputs[i]].loc, CF_ERR_LIMIT,
                     "the module graph expands to %.3g module evaluations per position (shared modules count once per use; "
                     "the limit is %.0f)", e[p->outputs[i]], LN_MAX_EXPANSION);
                break;
            }
        free(e);
    }
done:
    cJSON_Delete(root);
    free(c.mods);
    free(c.chain);
    return err_failed(err) ? err->status : CF_OK;
}

const cf_frontend cf_frontend_libnoise = {
    .name = "libnoise", .title = "libnoise module graphs", .prefix = "libnoise:",
    .first_kind = NK_LN_PERLIN, .last_kind = NK_LN_TERRAIN,
    .claims = libnoise_wanted, .parse = libnoise_parse,
};
