/* mc121.c - the Minecraft 1.18.2-1.21 front-end: old-format JSON -> graph IR.
 *
 * Input: noise settings with noise.size_horizontal/size_vertical and a
 * noise_router, density functions with argument/argument1/argument2 fields,
 * noises with firstOctave/amplitudes. Output: prog->nodes of the NF_F64 kinds
 * of host/ir/nodes_mc121.def, children first; the program's dialect is DIALECT_MC121
 * (double values at block positions, kernels/cf_mc121.h). A file referenced
 * twice becomes one node; a reference back into a file being parsed is a
 * cycle. Errors are one line, "file.json#/pointer: message". JSON trees are
 * scratch, freed before returning; nodes and locations live in the program arena.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/frontend.h"
#include "frontend/mcfiles.h"


typedef struct mc {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    cf_fields f; /* the field reader (base.h): errors into err, locations in the program arena */
    mc_files m; /* the files read (mcfiles.h) */
    int depth;
    const char *settings_file; /* display path of the noise settings (messages about mixed formats) */
    int *extra, nextra, cap_extra, out_base; /* surface rule noises: program outputs out_base + k (as many as
                                                * the rule reads: Terralith's reads 65; bounded by --max-nodes) */
} mc;


/* ------------------------------------------------------------------ fields
 * Fields are read with base/fields.c; an object's keys are checked against what its
 * type reads (field_unknown): a misspelt key is an error, not a silently ignored default. */

/* ------------------------------------------------------------------ nodes */
static int node_add(mc *c, const cf_node *n) { return ir_node_add(c->p, &c->pk->lim, n, "graph", c->err); }

static int set_inputs(mc *c, cf_node *n, int count) { return ir_set_inputs(c->p, n, count, c->err); }

static void node_init(cf_node *n, int kind, cf_loc at)
{
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->flags = node_flags[kind];
    n->prec = PREC_F64;
    n->noise = -1;
    n->loc = at;
}

static int constant(mc *c, cf_loc at, double v)
{
    cf_node n;
    node_init(&n, NK_M_CONSTANT, at);
    n.d[0] = v;
    return node_add(c, &n);
}

static int parse_df(mc *c, const cJSON *v, cf_loc at);
static int parse_ref(mc *c, const char *id, cf_loc at);

static int df_field(mc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key)
{
    const cJSON *v = field_get(&c->f, ks, o, key);
    if (!v) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"%s\"", key);
    return parse_df(c, v, field_key(&c->f, at, key));
}

static int noise_value(mc *c, const cJSON *v, cf_loc at);
/* a noise reference (firstOctave/amplitudes files); returns the program noise index */
static int noise_ref(mc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key)
{
    const cJSON *v = field_get(&c->f, ks, o, key);
    if (!v) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"%s\"", key);
    return noise_value(c, v, field_key(&c->f, at, key));
}

static int noise_value(mc *c, const cJSON *v, cf_loc at)
{
    int have;
    mc_file *f;
    if (mc_noise_file(&c->m, v, at, &have, &f) < 0) return -1;
    if (have >= 0) return have;
    cf_program *p = c->p;
    cf_loc r = {f->display, NULL};
    const cJSON *no = f->root;
    cf_keys nks = {{0}, 0};
    cf_noisedef d = {0};
    d.id = f->id;
    d.loc = r;
    d.base_amplitude = 1.0;
    if (field_int(&c->f, &nks, no, r, "firstOctave", CF_REQUIRED, 0, -64, 64, &d.base_octave) < 0) return -1;
    const cJSON *amps = field_get(&c->f, &nks, no, "amplitudes");
    if (!amps) return field_fail(&c->f, r, CF_ERR_SCHEMA, "missing field \"amplitudes\"");
    cf_loc aa = field_key(&c->f, r, "amplitudes");
    if (!cJSON_IsArray(amps)) return field_fail(&c->f, aa, CF_ERR_SCHEMA, "expected an array of numbers, found %s", json_type(amps));
    d.nmods = cJSON_GetArraySize(amps);
    /* as many as the list holds: the game's codec (NormalNoise.NoiseParameters, Codec.DOUBLE.listOf()) has no
     * limit; the list is bounded by --max-file-bytes and the octaves by --max-memory (ir/seed.c add_octave) */
    if (d.nmods < 1) return field_fail(&c->f, aa, CF_ERR_SCHEMA, "0 amplitudes (a noise needs at least one)");
    d.octave_count = d.nmods;
    d.mods = arena_alloc(&p->arena, sizeof(double) * (size_t)d.nmods);
    if (!d.mods) return field_nomem(&c->f);
    int i = 0;
    for (const cJSON *m = amps->child; m; m = m->next, i++) {
        if (!cJSON_IsNumber(m) || !isfinite(m->valuedouble))
            return field_fail(&c->f, field_index(&c->f, aa, i), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(m));
        d.mods[i] = m->valuedouble;
    }
    if (field_unknown(&c->f, &nks, no, r, 0, "for a 1.21 noise (firstOctave, amplitudes)") < 0) return -1;
    cf_noisedef *nd = realloc(p->noises, sizeof *nd * (size_t)(p->nnoises + 1));
    if (!nd) return field_nomem(&c->f);
    p->noises = nd;
    p->noises[p->nnoises] = d;
    return p->nnoises++;
}

static int is_literal(mc *c, int id)
{
    int k = c->p->nodes[id].kind;
    return k == NK_M_CONSTANT || k == NK_M_BLEND_ALPHA || k == NK_M_BLEND_OFFSET || k == NK_M_BEARDIFIER;
}

static int parse_spline(mc *c, const cJSON *v, cf_loc at);

/* a spline object {coordinate, points} (or a number: a constant spline) */
static int parse_spline(mc *c, const cJSON *v, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    if (cJSON_IsNumber(v)) {
        if (!isfinite(v->valuedouble) || !isfinite((float)v->valuedouble))
            return field_fail(&c->f, at, CF_ERR_SCHEMA, "number %g is out of float range", v->valuedouble);
        return constant(c, at, (double)(float)v->valuedouble);
    }
    if (!cJSON_IsObject(v)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a spline (an object or a number), found %s", json_type(v));
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d (the limit: --max-depth, cf_limits.max_depth)", c->pk->lim.max_depth);
    cf_keys ks = {{0}, 0};
    cf_node n;
    node_init(&n, NK_M_SPLINE, at);
    const cJSON *pts = field_get(&c->f, &ks, v, "points");
    field_get(&c->f, &ks, v, "coordinate");
    if (!pts) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"points\"");
    cf_loc pa = field_key(&c->f, at, "points");
    if (!cJSON_IsArray(pts)) return field_fail(&c->f, pa, CF_ERR_SCHEMA, "expected an array of points, found %s", json_type(pts));
    int np = cJSON_GetArraySize(pts);
    /* as many points as the list holds (the game's codec has no limit; --max-file-bytes bounds the list) */
    if (np < 1) return field_fail(&c->f, pa, CF_ERR_SCHEMA, "a spline needs at least one point");
    if (set_inputs(c, &n, np + 1) < 0) return -1;
    n.nda = 2 * np;
    n.da = arena_alloc(&c->p->arena, sizeof(double) * (size_t)n.nda);
    if (!n.da) return field_nomem(&c->f);
    {
        cf_keys cks = {{0}, 0};
        if ((n.in[0] = df_field(c, &cks, v, at, "coordinate")) < 0) return -1;
    }
    int i = 0;
    for (const cJSON *e = pts->child; e; e = e->next, i++) {
        cf_loc ea = field_index(&c->f, pa, i);
        if (!cJSON_IsObject(e)) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "expected a point (an object), found %s", json_type(e));
        cf_keys pks = {{0}, 0};
        if (field_num_in(&c->f, &pks, e, ea, "location", NULL, CF_REQUIRED, 0, -1e30, 1e30, &n.da[2 * i]) < 0) return -1;
        if (field_num_in(&c->f, &pks, e, ea, "derivative", NULL, CF_REQUIRED, 0, -1e30, 1e30, &n.da[2 * i + 1]) < 0) return -1;
        n.da[2 * i] = (double)(float)n.da[2 * i]; /* CubicSpline keeps float locations and derivatives */
        n.da[2 * i + 1] = (double)(float)n.da[2 * i + 1];
        const cJSON *val = field_get(&c->f, &pks, e, "value");
        if (!val) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "missing field \"value\"");
        if (i > 0 && n.da[2 * i] < n.da[2 * i - 2]) {
            /* the game accepts them and evaluates with its binary search as it is (Mth.binarySearch,
             * which cf21_spline_index is, probe for probe); --strict refuses them */
            if (c->pk->strict)
                return field_fail(&c->f, field_key(&c->f, ea, "location"), CF_ERR_SCHEMA, "locations must not decrease (%g after %g)",
                                  n.da[2 * i], n.da[2 * i - 2]);
            pack_warn_at(c->pk, field_key(&c->f, ea, "location"),
                         "spline locations decrease (%g after %g): evaluated as the game does, with its binary search over the points as "
                         "they are (--strict refuses them)", n.da[2 * i], n.da[2 * i - 2]);
        }
        if ((n.in[i + 1] = parse_spline(c, val, field_key(&c->f, ea, "value"))) < 0) return -1;
        if (field_unknown(&c->f, &pks, e, ea, 0, "for a spline point (location, value, derivative)") < 0) return -1;
    }
    if (field_unknown(&c->f, &ks, v, at, 0, "for a spline (coordinate, points)") < 0) return -1;
    c->depth--;
    return node_add(c, &n);
}

/* a type no 1.18.2-1.21 codec knows: a mod's own (--define gives it a constant), one of the
 * 26.3 format (the packs mix formats), or a mistake */
static int unknown_type(mc *c, cf_loc ta, const char *type, const cJSON *o)
{
    if (mc_mod_type(&c->f, ta, type, o) < 0) return -1; /* a mod's type: the --define that gives it */
    const char *name = strncmp(type, "minecraft:", 10) == 0 ? type + 10 : type;
    for (int k = 0; k < NK_COUNT; k++)
        if (!(node_flags[k] & NF_F64) && !strchr(node_name[k], ':') && strcmp(node_name[k], name) == 0)
            return field_fail(&c->f, ta, CF_ERR_SCHEMA,
                              "unknown density function type \"%s\" in 1.18.2-1.21 data: it is a 26.3 type, so the packs mix formats "
                              "(the noise settings %s are 1.18.2-1.21, this file is 26.3); layer a pack over the vanilla data of its own "
                              "version (1.18.2-1.21 data over vanilla 1.21.11, 26.3 data over vanilla 26.3)",
                              type, c->settings_file ? c->settings_file : "");
    return field_fail(&c->f, ta, CF_ERR_SCHEMA, "unknown density function type \"%s\" (1.18.2-1.21 dialect)", type);
}

static int parse_obj(mc *c, const cJSON *o, cf_loc at)
{
    cf_keys ks = {{0}, 0};
    const cJSON *t = field_get(&c->f, &ks, o, "type");
    if (!t) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"type\"");
    cf_loc ta = field_key(&c->f, at, "type");
    if (!cJSON_IsString(t)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected a type name (a string), found %s", json_type(t));
    const char *name = t->valuestring;
    if (strncmp(name, "minecraft:", 10) == 0) name += 10;
    int kind = -1;
    for (int k = 0; k < NK_COUNT; k++)
        if (strncmp(node_name[k], "mc121:", 6) == 0 && strcmp(node_name[k] + 6, name) == 0) kind = k;
    if (kind < 0) {
        double dv = 0;
        if (pack_defined(c->pk, t->valuestring, o, &dv)) return constant(c, at, dv); /* cf_pack_define, --define */
        return unknown_type(c, ta, t->valuestring, o);
    }
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d (the limit: --max-depth, cf_limits.max_depth)", c->pk->lim.max_depth);
    cf_node n;
    node_init(&n, kind, at);
    const double B = 1e6; /* Java's codec bound of constants, clamp bounds and range_choice bounds */
    switch (kind) {
    case NK_M_CONSTANT:
        if (field_num_in(&c->f, &ks, o, at, "argument", NULL, CF_REQUIRED, 0, -B, B, &n.d[0]) < 0) return -1;
        break;
    case NK_M_ADD:
    case NK_M_MUL:
    case NK_M_MIN:
    case NK_M_MAX:
        if (set_inputs(c, &n, 2) < 0) return -1;
        if ((n.in[0] = df_field(c, &ks, o, at, "argument1")) < 0 || (n.in[1] = df_field(c, &ks, o, at, "argument2")) < 0)
            return -1;
        if (kind == NK_M_MUL && (is_literal(c, n.in[0]) || is_literal(c, n.in[1]))) n.i[0] = 1; /* MulOrAdd */
        break;
    case NK_M_ABS:
    case NK_M_SQUARE:
    case NK_M_CUBE:
    case NK_M_HALF_NEGATIVE:
    case NK_M_QUARTER_NEGATIVE:
    case NK_M_INVERT:
    case NK_M_SQUEEZE:
    case NK_M_INTERPOLATED:
    case NK_M_FLAT_CACHE:
    case NK_M_CACHE_2D:
    case NK_M_CACHE_ONCE:
    case NK_M_CACHE_ALL_IN_CELL:
    case NK_M_BLEND_DENSITY:
        if (set_inputs(c, &n, 1) < 0 || (n.in[0] = df_field(c, &ks, o, at, "argument")) < 0) return -1;
        break;
    case NK_M_CLAMP:
        if (set_inputs(c, &n, 1) < 0 || (n.in[0] = df_field(c, &ks, o, at, "input")) < 0) return -1;
        if (field_num_in(&c->f, &ks, o, at, "min", NULL, CF_REQUIRED, 0, -B, B, &n.d[0]) < 0 || field_num_in(&c->f, &ks, o, at, "max", NULL, CF_REQUIRED, 0, -B, B, &n.d[1]) < 0) return -1;
        if (n.d[1] < n.d[0]) return field_fail(&c->f, field_key(&c->f, at, "max"), CF_ERR_SCHEMA, "max %g is below min %g", n.d[1], n.d[0]);
        break;
    case NK_M_Y_CLAMPED_GRADIENT: {
        int fy = 0, ty = 0;
        if (field_int(&c->f, &ks, o, at, "from_y", CF_REQUIRED, 0, -8128, 8128, &fy) < 0 || field_int(&c->f, &ks, o, at, "to_y", CF_REQUIRED, 0, -8128, 8128, &ty) < 0)
            return -1;
        n.d[0] = fy, n.d[1] = ty;
        if (field_num_in(&c->f, &ks, o, at, "from_value", NULL, CF_REQUIRED, 0, -B, B, &n.d[2]) < 0 || field_num_in(&c->f, &ks, o, at, "to_value", NULL, CF_REQUIRED, 0, -B, B, &n.d[3]) < 0)
            return -1;
        break;
    }
    case NK_M_NOISE:
    case NK_M_SHIFTED_NOISE:
        if (kind == NK_M_SHIFTED_NOISE) {
            if (set_inputs(c, &n, 3) < 0) return -1;
            if ((n.in[0] = df_field(c, &ks, o, at, "shift_x")) < 0 || (n.in[1] = df_field(c, &ks, o, at, "shift_y")) < 0
                || (n.in[2] = df_field(c, &ks, o, at, "shift_z")) < 0)
                return -1;
        }
        if ((n.noise = noise_ref(c, &ks, o, at, "noise")) < 0) return -1;
        if (field_num_in(&c->f, &ks, o, at, "xz_scale", NULL, CF_REQUIRED, 0, -B, B, &n.d[0]) < 0 || field_num_in(&c->f, &ks, o, at, "y_scale", NULL, CF_REQUIRED, 0, -B, B, &n.d[1]) < 0)
            return -1;
        break;
    case NK_M_SHIFT_A:
    case NK_M_SHIFT_B:
    case NK_M_SHIFT:
        if ((n.noise = noise_ref(c, &ks, o, at, "argument")) < 0) return -1;
        break;
    case NK_M_OLD_BLENDED_NOISE:
        if (field_num_in(&c->f, &ks, o, at, "xz_scale", NULL, CF_REQUIRED, 0, 0.001, 1000, &n.d[0]) < 0 || field_num_in(&c->f, &ks, o, at, "y_scale", NULL, CF_REQUIRED, 0, 0.001, 1000, &n.d[1]) < 0
            || field_num_in(&c->f, &ks, o, at, "xz_factor", NULL, CF_REQUIRED, 0, 0.001, 1000, &n.d[2]) < 0
            || field_num_in(&c->f, &ks, o, at, "y_factor", NULL, CF_REQUIRED, 0, 0.001, 1000, &n.d[3]) < 0
            || field_num_in(&c->f, &ks, o, at, "smear_scale_multiplier", NULL, CF_REQUIRED, 0, 1, 8, &n.d[4]) < 0)
            return -1;
        break;
    case NK_M_WEIRD_SCALED_SAMPLER: {
        if (set_inputs(c, &n, 1) < 0 || (n.in[0] = df_field(c, &ks, o, at, "input")) < 0) return -1;
        const cJSON *m = field_get(&c->f, &ks, o, "rarity_value_mapper");
        if (!m) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"rarity_value_mapper\"");
        if (!cJSON_IsString(m) || (strcmp(m->valuestring, "type_1") && strcmp(m->valuestring, "type_2")))
            return field_fail(&c->f, field_key(&c->f, at, "rarity_value_mapper"), CF_ERR_SCHEMA, "expected \"type_1\" or \"type_2\", found %s",
                        json_type(m));
        n.i[0] = m->valuestring[5] - '0';
        if ((n.noise = noise_ref(c, &ks, o, at, "noise")) < 0) return -1;
        break;
    }
    case NK_M_RANGE_CHOICE:
        if (set_inputs(c, &n, 3) < 0 || (n.in[0] = df_field(c, &ks, o, at, "input")) < 0) return -1;
        if (field_num_in(&c->f, &ks, o, at, "min_inclusive", NULL, CF_REQUIRED, 0, -B, B, &n.d[0]) < 0
            || field_num_in(&c->f, &ks, o, at, "max_exclusive", NULL, CF_REQUIRED, 0, -B, B, &n.d[1]) < 0)
            return -1;
        if ((n.in[1] = df_field(c, &ks, o, at, "when_in_range")) < 0 || (n.in[2] = df_field(c, &ks, o, at, "when_out_of_range")) < 0)
            return -1;
        break;
    case NK_M_INTERVAL_SELECT: { /* 26.2 (old format): thresholds and functions, one more function */
        const cJSON *th = field_get(&c->f, &ks, o, "thresholds"), *fn = field_get(&c->f, &ks, o, "functions");
        if (!th) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"thresholds\"");
        if (!fn) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"functions\"");
        cf_loc ta = field_key(&c->f, at, "thresholds"), fa = field_key(&c->f, at, "functions");
        if (!cJSON_IsArray(th)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected an array of numbers, found %s", json_type(th));
        if (!cJSON_IsArray(fn)) return field_fail(&c->f, fa, CF_ERR_SCHEMA, "expected an array of density functions, found %s", json_type(fn));
        int nt = cJSON_GetArraySize(th), nf = cJSON_GetArraySize(fn);
        if (nf != nt + 1)
            return field_fail(&c->f, fa, CF_ERR_SCHEMA, "%d functions for %d thresholds (expected one more function than thresholds)", nf, nt);
        if (set_inputs(c, &n, nf + 1) < 0 || (n.in[0] = df_field(c, &ks, o, at, "input")) < 0) return -1;
        n.nda = nt;
        n.da = arena_alloc(&c->p->arena, sizeof(double) * (size_t)(nt + 1));
        if (!n.da) return field_nomem(&c->f);
        int i = 0;
        for (const cJSON *e = th->child; e; e = e->next, i++) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > B)
                return field_fail(&c->f, field_index(&c->f, ta, i), CF_ERR_SCHEMA, "expected a number in [-1000000, 1000000], found %s", json_type(e));
            n.da[i] = e->valuedouble;
        }
        i = 0;
        for (const cJSON *e = fn->child; e; e = e->next, i++)
            if ((n.in[1 + i] = parse_df(c, e, field_index(&c->f, fa, i))) < 0) return -1;
        break;
    }
    case NK_M_SPLINE: {
        const cJSON *s = field_get(&c->f, &ks, o, "spline");
        if (!s) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"spline\"");
        if (field_unknown(&c->f, &ks, o, at, 0, "for spline") < 0) return -1;
        c->depth--;
        return parse_spline(c, s, field_key(&c->f, at, "spline"));
    }
    case NK_M_FIND_TOP_SURFACE:
        if (set_inputs(c, &n, 2) < 0) return -1;
        if ((n.in[0] = df_field(c, &ks, o, at, "density")) < 0 || (n.in[1] = df_field(c, &ks, o, at, "upper_bound")) < 0) return -1;
        if (field_int(&c->f, &ks, o, at, "lower_bound", CF_REQUIRED, 0, -4064, 4062, &n.i[0]) < 0 || field_int(&c->f, &ks, o, at, "cell_height", CF_REQUIRED, 0, 1, 4064, &n.i[1]) < 0)
            return -1;
        break;
    case NK_M_BLEND_ALPHA: n.d[0] = 1.0; break;
    default: break; /* end_islands, blend_offset, beardifier: no fields */
    }
    if (field_unknown(&c->f, &ks, o, at, 0, "for %s", name) < 0) return -1;
    c->depth--;
    return node_add(c, &n);
}

static int parse_df(mc *c, const cJSON *v, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    if (cJSON_IsNumber(v)) {
        if (!isfinite(v->valuedouble) || fabs(v->valuedouble) > 1e6)
            return field_fail(&c->f, at, CF_ERR_SCHEMA, "constant %.17g out of range [-1000000, 1000000]", v->valuedouble);
        return constant(c, at, v->valuedouble);
    }
    if (cJSON_IsString(v)) return parse_ref(c, v->valuestring, at);
    if (cJSON_IsObject(v)) return parse_obj(c, v, at);
    return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a density function (a number, an id or an object), found %s", json_type(v));
}

static int parse_df_file(void *ctx, const cJSON *root, cf_loc at) { return parse_df(ctx, root, at); }

static int parse_ref(mc *c, const char *id, cf_loc at) { return mc_reference(&c->m, id, at, parse_df_file, c); }

/* ------------------------------------------------------------------ settings */

static int mc121_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    (void)functions, (void)n;
    if (pk->dialect == CF_DIALECT_MC121) return 1;
    if (pk->dialect == CF_DIALECT_MC263 || !settings_id) return 0;
    const char *colon = strchr(settings_id, ':');
    char ns[128], path[384];
    size_t nl = colon ? (size_t)(colon - settings_id) : 9;
    const char *ps = colon ? colon + 1 : settings_id;
    if (nl >= sizeof ns || strlen(ps) >= sizeof path || strstr(settings_id, "..")) return 0;
    memcpy(ns, colon ? settings_id : "minecraft", nl);
    ns[nl] = 0;
    strcpy(path, ps);
    char *text = NULL;
    size_t len = 0;
    const char *disp;
    cf_error e = {0};
    if (pack_read(pk, "noise_settings", ns, path, &text, &len, &disp, &e) != 1) return 0;
    /* the old settings carry noise.size_horizontal (a cheap test: the parser checks the rest) */
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *noise = cJSON_GetObjectItemCaseSensitive(root, "noise");
    int r = cJSON_IsObject(noise) && cJSON_GetObjectItemCaseSensitive(noise, "size_horizontal") != NULL;
    cJSON_Delete(root);
    return r;
}

/* a block state of the settings: {"Name": id, "Properties": {...}} (the 1.21 codec) or an id;
 * *out = the id (properties are not part of chunkfill's palette) */
static int block_state(mc *c, const cJSON *so, cf_loc sa, const char *key, const char *dflt, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(so, key);
    cf_loc at = field_key(&c->f, sa, key);
    *out = dflt;
    if (!v) return 0;
    if (cJSON_IsObject(v)) {
        cf_keys bks = {{0}, 0};
        const cJSON *nm = field_get(&c->f, &bks, v, "Name");
        field_get(&c->f, &bks, v, "Properties");
        if (!nm) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing field \"Name\"");
        if (field_unknown(&c->f, &bks, v, at, 0, "for a block state (Name, Properties)") < 0) return -1;
        at = field_key(&c->f, at, "Name");
        v = nm;
    }
    if (!cJSON_IsString(v)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a block id (a string), found %s", json_type(v));
    *out = mc_full_id(&c->m, at, v->valuestring);
    return *out ? 0 : -1;
}

/* the surface rule's noises (rules.c): a noise node at (x*xz, y, z*xz) as an extra output */
static int rule_noise(void *ctx, const cJSON *id, cf_loc at, double xz)
{
    mc *c = ctx;
    int noise = noise_value(c, id, at);
    if (noise < 0) return -1;
    for (int k = 0; k < c->nextra; k++)
        if (c->p->nodes[c->extra[k]].noise == noise && c->p->nodes[c->extra[k]].d[0] == xz) return c->out_base + k;
    cf_node n;
    node_init(&n, NK_M_NOISE, at);
    n.noise = noise;
    n.d[0] = xz, n.d[1] = 1.0;
    int node = node_add(c, &n);
    if (node < 0) return -1;
    if (arena_push_int(&c->p->arena, &c->extra, c->nextra, &c->cap_extra, node) < 0) return field_nomem(&c->f);
    return c->out_base + c->nextra++;
}

/* "rules?:surface_rule": the settings' surface_rule into p->rules; a constant output */
static int surface_rule(mc *c, const cJSON *so, cf_loc sa)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(so, "surface_rule");
    if (r) {
        fr_host h = {c->p, c->pk, c->err, 0, c, rule_noise, NULL, NULL};
        if (rules_compile(&h, r, field_key(&c->f, sa, "surface_rule")) != CF_OK) return -1;
    }
    return constant(c, sa, 0.0);
}

static const char *const router_fields[] = {"barrier", "fluid_level_floodedness", "fluid_level_spread", "lava", "temperature",
                                            "vegetation", "continents", "erosion", "depth", "ridges",
                                            "initial_density_without_jaggedness", "preliminary_surface_level", "final_density",
                                            "vein_toggle", "vein_ridged", "vein_gap", NULL};

static cf_status mc121_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    mc c = {0};
    c.p = p;
    c.pk = pk;
    c.err = err;
    field_init(&c.f, &p->arena, err);
    c.f.ints = CF_INTS_NUMBER;
    /* issue 23: the game's codecs ignore keys they do not know; --strict refuses them */
    c.f.unknown = pk->strict ? CF_UNKNOWN_REFUSE : CF_UNKNOWN_WARN;
    c.f.warn = pack_unknown_key, c.f.warn_ctx = pk;
    p->dialect = DIALECT_MC121;
    p->prec = PREC_F64;
    p->max_fill_bytes = pk->lim.max_fill_bytes;
    if (mc_files_init(&c.m, p, pk, &c.f) < 0) return err->status;
    cf_keys ks = {{0}, 0}, nks = {{0}, 0};
    const cJSON *router = NULL, *noise, *so;
    cf_loc ra, sa, na;
    cf_loc cli = {"<arguments>", NULL};
    mc_file *sf = mc_settings(&c.m, settings_id);
    if (!sf) goto done;
    p->settings_id = sf->id;
    c.settings_file = sf->display;
    sa = (cf_loc){sf->display, NULL};
    so = sf->root;
    if (!cJSON_IsObject(so)) {
        field_fail(&c.f, sa, CF_ERR_SCHEMA, "expected noise settings (an object), found %s", json_type(so));
        goto done;
    }
    noise = cJSON_GetObjectItemCaseSensitive(so, "noise");
    if (!noise) {
        field_fail(&c.f, sa, CF_ERR_SCHEMA, "missing field \"noise\"");
        goto done;
    }
    na = field_key(&c.f, sa, "noise");
    if (!cJSON_IsObject(noise)) {
        field_fail(&c.f, na, CF_ERR_SCHEMA, "expected an object, found %s", json_type(noise));
        goto done;
    }
    if (field_int(&c.f, &nks, noise, na, "min_y", CF_REQUIRED, 0, -2032, 2031, &p->min_y) < 0 || field_int(&c.f, &nks, noise, na, "height", CF_REQUIRED, 0, 0, 4064, &p->height) < 0
        || field_int(&c.f, &nks, noise, na, "size_horizontal", CF_REQUIRED, 0, 1, 4, &p->cell_xz) < 0
        || field_int(&c.f, &nks, noise, na, "size_vertical", CF_REQUIRED, 0, 1, 4, &p->cell_y) < 0)
        goto done;
    if (field_unknown(&c.f, &nks, noise, na, 0, "for noise (min_y, height, size_horizontal, size_vertical)") < 0) goto done;
    p->cell_xz *= 4, p->cell_y *= 4;
    if (p->min_y % 16 != 0 || p->height % 16 != 0) {
        field_fail(&c.f, na, CF_ERR_SCHEMA, "min_y and height must be multiples of 16 (found %d, %d)", p->min_y, p->height);
        goto done;
    }
    if (p->min_y + p->height > 2032) {
        field_fail(&c.f, field_key(&c.f, na, "height"), CF_ERR_SCHEMA, "min_y + height must be at most 2032");
        goto done;
    }
    if (p->height % p->cell_y != 0) {
        field_fail(&c.f, na, CF_ERR_SCHEMA, "height %d is not a multiple of the cell height %d", p->height, p->cell_y);
        goto done;
    }
    {
        if (field_int(&c.f, &ks, so, sa, "sea_level", 0, 63, INT32_MIN, INT32_MAX, &p->sea_level) < 0
            || field_bool(&c.f, &ks, so, sa, "legacy_random_source", 0, 0, &p->legacy_random) < 0
            || field_bool(&c.f, &ks, so, sa, "aquifers_enabled", 0, 0, &p->has_aquifers) < 0
            || field_bool(&c.f, &ks, so, sa, "ore_veins_enabled", 0, 0, &p->ore_veins) < 0
            || block_state(&c, so, sa, "default_block", "minecraft:stone", &p->default_block) < 0
            || block_state(&c, so, sa, "default_fluid", "minecraft:water", &p->default_fluid) < 0)
            goto done;
    }
    router = cJSON_GetObjectItemCaseSensitive(so, "noise_router");
    if (!router) {
        field_fail(&c.f, sa, CF_ERR_SCHEMA, "missing field \"noise_router\"");
        goto done;
    }
    ra = field_key(&c.f, sa, "noise_router");
    if (!cJSON_IsObject(router)) {
        field_fail(&c.f, ra, CF_ERR_SCHEMA, "expected an object, found %s", json_type(router));
        goto done;
    }
    for (const cJSON *k = router->child; k; k = k->next) {
        int known = 0;
        for (int i = 0; router_fields[i]; i++)
            if (strcmp(router_fields[i], k->string) == 0) known = 1;
        if (known) continue;
        if (!pk->strict) {
            pack_warn_at(pk, field_key(&c.f, ra, k->string), "unknown noise_router field \"%s\" ignored, as the game does (--strict refuses it)",
                         k->string);
            continue;
        }
        field_fail(&c.f, field_key(&c.f, ra, k->string), CF_ERR_SCHEMA, "unknown noise_router field \"%s\" (1.18.2-1.21 router)", k->string);
        goto done;
    }
    if (ir_set_outputs(p, functions, nfn, err) < 0) goto done;
    for (int i = 0; i < nfn; i++) {
        const char *f = functions[i];
        int id;
        if (strcmp(f, "rules?:surface_rule") == 0) {
            c.out_base = nfn;
            id = surface_rule(&c, so, sa);
        } else if (strncmp(f, "router?:", 8) == 0) { /* block fills: a field the router may lack (0) */
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(router, f + 8);
            id = v ? parse_df(&c, v, field_key(&c.f, ra, f + 8)) : constant(&c, ra, 0.0);
        } else if (strncmp(f, "router:", 7) == 0) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(router, f + 7);
            if (!v) {
                field_fail(&c.f, ra, CF_ERR_REF, "no noise_router field \"%s\"", f + 7);
                goto done;
            }
            id = parse_df(&c, v, field_key(&c.f, ra, f + 7));
        } else if (strchr(f, '?') || strncmp(f, "noise:", 6) == 0 || strncmp(f, "aquifer", 7) == 0) {
            field_fail(&c.f, cli, CF_ERR_ARG,
                       "%s: not available for 1.18.2-1.21 data, which has density function ids (NAMESPACE:PATH) and router:FIELD "
                       "(the aquifer's inputs are router fields: router:barrier, router:fluid_level_floodedness, ...)",
                       f);
            goto done;
        } else {
            id = parse_ref(&c, f, cli);
        }
        if (id < 0) goto done;
        p->outputs[i] = id;
    }
    /* the surface rule's noises */
    if (c.nextra && ir_add_outputs(p, c.extra, c.nextra, "surface_rule noise") < 0) field_nomem(&c.f);
done:
    mc_files_free(&c.m);
    return err_failed(err) ? err->status : CF_OK;
}

/* the noise stage of a block fill (host/cpu/aquifer121.c), in the order of CF_B21_* (ir/ir.h) */
static const char *const block_fields[CF_B21_COUNT] = {
    "router:final_density", "router?:barrier", "router?:fluid_level_floodedness", "router?:fluid_level_spread",
    "router?:lava", "router?:erosion", "router?:depth", "router?:preliminary_surface_level", "router?:vein_toggle",
    "router?:vein_ridged", "router?:vein_gap", "rules?:surface_rule"};

const cf_frontend cf_frontend_mc121 = {
    .name = "mc121", .title = "Minecraft 1.18.2-1.21 (and 26.1-26.2) data", .prefix = NULL,
    .first_kind = NK_M_CONSTANT, .last_kind = NK_M_BEARDIFIER,
    .claims = mc121_wanted, .parse = mc121_parse,
    .block_functions = block_fields, .nblock_functions = CF_B21_COUNT,
};
