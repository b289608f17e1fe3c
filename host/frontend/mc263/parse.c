/* parse.c - the Minecraft 26.3 front-end: pack JSON -> graph IR.
 *
 * Input: a cf_pack, a noise settings id and the requested functions.
 * Output: prog->nodes (children before parents), prog->noises, prog->outputs.
 * References are inlined as they are met (each file becomes one subgraph,
 * shared by every reference to it); a reference back into a file still being
 * parsed is a cycle. Every node records file + JSON pointer; every error is
 * "file.json#/pointer: message". JSON trees and file texts are scratch, freed
 * when parsing returns.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/frontend.h"
#include "frontend/mcfiles.h"

/* ------------------------------------------------------------------ context */

typedef struct pc {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    cf_fields f; /* the field reader (base.h): errors into err, locations in the program arena */
    mc_files m; /* the files read (mcfiles.h) */
    int depth;
    const char *settings_file; /* display path of the noise settings (messages about mixed formats) */
    int *extra, nextra, cap_extra, out_base; /* material rule noises and functions: outputs out_base + k (as
                                                * many as the rule reads; bounded by --max-nodes) */
} pc;



/* ------------------------------------------------------------------ fields */

/* fields are read with base/fields.c (c->f: "missing field", integers said as
 * "expected an integer" / "integer N out of range [lo, hi]") */

static const char *const axis_names[] = {"x", "y", "z", NULL};

/* ------------------------------------------------------------------ nodes */

static int node_add(pc *c, const cf_node *n) { return ir_node_add(c->p, &c->pk->lim, n, "graph, through references,", c->err); }

static int set_inputs(pc *c, cf_node *n, int count) { return ir_set_inputs(c->p, n, count, c->err); }

static int literal(pc *c, cf_loc at, float v)
{
    cf_node n = {0};
    n.kind = NK_CONSTANT;
    n.flags = NF_LITERAL;
    n.prec = PREC_F32;
    n.f[0] = v;
    n.noise = -1;
    n.loc = at;
    return node_add(c, &n);
}

static int parse_df(pc *c, const cJSON *v, cf_loc at);
static int parse_ref(pc *c, const char *id, cf_loc at);

static int node_is_literal_value(pc *c, int id, float *v)
{
    if (id < 0 || !(c->p->nodes[id].flags & NF_LITERAL)) return 0;
    *v = c->p->nodes[id].f[0];
    return 1;
}

static int df_field(pc *c, const cJSON *o, cf_loc at, const char *key)
{
    const cJSON *v = field_need(&c->f, NULL, o, at, key);
    if (!v) return -1;
    return parse_df(c, v, field_key(&c->f, at, key));
}

static int noise_ref(pc *c, const cJSON *v, cf_loc at)
{
    int have;
    mc_file *f;
    if (mc_noise_file(&c->m, v, at, &have, &f) < 0) return -1;
    if (have >= 0) return have;
    cf_program *p = c->p;
    cf_loc r = {f->display, NULL};
    const cJSON *o = f->root;
    cf_noisedef d = {0};
    d.id = f->id;
    d.loc = r;
    if (field_get(&c->f, NULL, o, "firstOctave") || field_get(&c->f, NULL, o, "amplitudes"))
        return field_fail(&c->f, r, CF_ERR_SCHEMA, "noise in the 1.18.2-1.21 format (firstOctave/amplitudes) under 26.3 noise settings (base_octave/octave_count): the packs "
                          "mix formats; layer a pack over the vanilla data of its own version");
    /* the game's limits (26.3 NormalNoise.Parameters.CODEC): base_amplitude in [1e-5f, 1e6], base_octave in
     * [-32, 32], octave_count in [1, 32], at most 32 amplitude_modifiers, each in [0, 1e6], as many as
     * octave_count (or none) */
    if (field_num_in(&c->f, NULL, o, r, "base_amplitude", NULL, 0, 1.0, (double)1.0e-5f, 1e6, &d.base_amplitude) < 0) return -1;
    if (field_int(&c->f, NULL, o, r, "base_octave", CF_REQUIRED, 0, -32, 32, &d.base_octave) < 0) return -1;
    if (field_int(&c->f, NULL, o, r, "octave_count", 0, 1, 1, 32, &d.octave_count) < 0) return -1;
    d.normalize = 1;
    const cJSON *nz = field_get(&c->f, NULL, o, "normalize");
    if (nz) {
        if (cJSON_IsBool(nz)) d.normalize = cJSON_IsTrue(nz) ? 1 : 0;
        else {
            static const char *const norm_names[] = {"disabled", "enabled", "legacy", NULL};
            if (field_enum(&c->f, NULL, o, r, "normalize", NULL, CF_REQUIRED, 1, norm_names, &d.normalize) < 0) return -1;
        }
    }
    const cJSON *mods = field_get(&c->f, NULL, o, "amplitude_modifiers");
    if (mods) {
        cf_loc ma = field_key(&c->f, r, "amplitude_modifiers");
        if (!cJSON_IsArray(mods)) return field_fail(&c->f, ma, CF_ERR_SCHEMA, "expected an array of numbers, found %s", json_type(mods));
        d.nmods = cJSON_GetArraySize(mods);
        if (d.nmods > 32) return field_fail(&c->f, ma, CF_ERR_LIMIT, "%d amplitude modifiers (the game's limit: at most 32)", d.nmods);
        if (d.nmods && d.nmods != d.octave_count)
            return field_fail(&c->f, ma, CF_ERR_SCHEMA, "%d amplitude modifiers for octave_count %d (expected as many, or none)", d.nmods,
                              d.octave_count);
        d.mods = arena_alloc(&p->arena, sizeof(double) * (size_t)(d.nmods + 1));
        if (!d.mods) return field_nomem(&c->f);
        int i = 0;
        for (const cJSON *m = mods->child; m; m = m->next, i++)
            if (field_value_num(&c->f, m, field_index(&c->f, ma, i), 0.0, 1e6, &d.mods[i]) < 0) return -1;
    }
    cf_noisedef *nd = realloc(p->noises, sizeof *nd * (size_t)(p->nnoises + 1));
    if (!nd) return field_nomem(&c->f);
    p->noises = nd;
    p->noises[p->nnoises] = d;
    return p->nnoises++;
}

/* ---- one parser per node kind (named by the table: parse_<KIND>) */
#define PARSER(K) static int parse_##K(pc *c, const cJSON *o, cf_loc at, cf_node *n)

static int unary(pc *c, const cJSON *o, cf_loc at, cf_node *n)
{
    if (set_inputs(c, n, 1) < 0) return -1;
    return (n->in[0] = df_field(c, o, at, "input")) < 0 ? -1 : 0;
}
static int binary(pc *c, const cJSON *o, cf_loc at, cf_node *n)
{
    if (set_inputs(c, n, 2) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "left")) < 0) return -1;
    return (n->in[1] = df_field(c, o, at, "right")) < 0 ? -1 : 0;
}
static int nothing(pc *c, const cJSON *o, cf_loc at, cf_node *n)
{
    (void)c, (void)o, (void)at;
    return set_inputs(c, n, 0);
}

PARSER(CONSTANT)
{
    set_inputs(c, n, 0);
    const char *key = field_get(&c->f, NULL, o, "value") ? "value" : field_get(&c->f, NULL, o, "argument") ? "argument" : "value";
    return field_float(&c->f, NULL, o, at, key, CF_REQUIRED, 0, &n->f[0]);
}
PARSER(ADD) { return binary(c, o, at, n); }
PARSER(SUB) { return binary(c, o, at, n); }
PARSER(MUL) { return binary(c, o, at, n); }
PARSER(DIV) { return binary(c, o, at, n); }
PARSER(MIN) { return binary(c, o, at, n); }
PARSER(MAX) { return binary(c, o, at, n); }
PARSER(ABS) { return unary(c, o, at, n); }
PARSER(NEGATE) { return unary(c, o, at, n); }
PARSER(SQUARE) { return unary(c, o, at, n); }
PARSER(CUBE) { return unary(c, o, at, n); }
PARSER(SQRT) { return unary(c, o, at, n); }
PARSER(RECIPROCAL) { return unary(c, o, at, n); }
PARSER(LOG) { return unary(c, o, at, n); }
PARSER(SIGN) { return unary(c, o, at, n); }
PARSER(HALF_NEGATIVE) { return unary(c, o, at, n); }
PARSER(QUARTER_NEGATIVE) { return unary(c, o, at, n); }
PARSER(SQUEEZE) { return unary(c, o, at, n); }
PARSER(CACHE) { return unary(c, o, at, n); }
PARSER(BLEND_DENSITY) { return unary(c, o, at, n); }
PARSER(CLAMP)
{
    if (unary(c, o, at, n) < 0) return -1;
    if (field_float(&c->f, NULL, o, at, "min", CF_REQUIRED, 0, &n->f[0]) < 0) return -1;
    if (field_float(&c->f, NULL, o, at, "max", CF_REQUIRED, 0, &n->f[1]) < 0) return -1;
    if (n->f[0] > n->f[1]) return field_fail(&c->f, field_key(&c->f, at, "min"), CF_ERR_SCHEMA, "min %g is greater than max %g", n->f[0], n->f[1]);
    return 0;
}
static int rounding(pc *c, const cJSON *o, cf_loc at, cf_node *n)
{
    if (set_inputs(c, n, 2) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "input")) < 0) return -1;
    const cJSON *m = field_get(&c->f, NULL, o, "multiple");
    n->in[1] = m ? parse_df(c, m, field_key(&c->f, at, "multiple")) : literal(c, at, 1.0f);
    return n->in[1] < 0 ? -1 : 0;
}
PARSER(FLOOR) { return rounding(c, o, at, n); }
PARSER(ROUND) { return rounding(c, o, at, n); }
PARSER(CEIL) { return rounding(c, o, at, n); }
PARSER(TRUNCATE) { return rounding(c, o, at, n); }
PARSER(POW)
{
    if (set_inputs(c, n, 2) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "base")) < 0) return -1;
    return (n->in[1] = df_field(c, o, at, "exponent")) < 0 ? -1 : 0;
}
PARSER(RANGE_CHOICE)
{
    if (set_inputs(c, n, 3) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "input")) < 0) return -1;
    if (field_float(&c->f, NULL, o, at, "min_inclusive", CF_REQUIRED, 0, &n->f[0]) < 0) return -1;
    if (field_float(&c->f, NULL, o, at, "max_exclusive", CF_REQUIRED, 0, &n->f[1]) < 0) return -1;
    if ((n->in[1] = df_field(c, o, at, "when_in_range")) < 0) return -1;
    return (n->in[2] = df_field(c, o, at, "when_out_of_range")) < 0 ? -1 : 0;
}
PARSER(INTERVAL_SELECT)
{
    const cJSON *th = field_need(&c->f, NULL, o, at, "thresholds");
    const cJSON *fn = th ? field_need(&c->f, NULL, o, at, "functions") : NULL;
    if (!th || !fn) return -1;
    cf_loc ta = field_key(&c->f, at, "thresholds"), fa = field_key(&c->f, at, "functions");
    if (!cJSON_IsArray(th)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected an array of numbers, found %s", json_type(th));
    if (!cJSON_IsArray(fn)) return field_fail(&c->f, fa, CF_ERR_SCHEMA, "expected an array of density functions, found %s", json_type(fn));
    int nt = cJSON_GetArraySize(th), nf = cJSON_GetArraySize(fn);
    if (nf != nt + 1)
        return field_fail(&c->f, fa, CF_ERR_SCHEMA, "%d functions for %d thresholds (expected one more function than thresholds)", nf, nt);
    if (nf < 2) return field_fail(&c->f, fa, CF_ERR_SCHEMA, "%d functions (the game takes at least 2)", nf);
    /* as many as the list holds: the game's codec has no limit (--max-file-bytes bounds the list) */
    if (set_inputs(c, n, nf + 1) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "input")) < 0) return -1;
    n->nfa = nt;
    n->fa = arena_alloc(&c->p->arena, sizeof(float) * (size_t)(nt + 1));
    if (!n->fa) return field_nomem(&c->f);
    int i = 0;
    for (const cJSON *t = th->child; t; t = t->next, i++) {
        double d = 0;
        if (field_value_num(&c->f, t, field_index(&c->f, ta, i), -HUGE_VAL, HUGE_VAL, &d) < 0) return -1;
        n->fa[i] = (float)d;
        /* the game refuses thresholds out of order (Float.compare: -0 before 0); so do we, and the CPU
         * then finds the interval by bisection (cf_interval_index), not a scan of them all */
        if (i > 0 && (n->fa[i] < n->fa[i - 1] || (n->fa[i] == 0 && n->fa[i - 1] == 0 && signbit(n->fa[i]) && !signbit(n->fa[i - 1]))))
            return field_fail(&c->f, field_index(&c->f, ta, i), CF_ERR_SCHEMA, "thresholds must be ordered from smallest to largest (%g after %g)",
                              (double)n->fa[i], (double)n->fa[i - 1]);
    }
    i = 0;
    for (const cJSON *f = fn->child; f; f = f->next, i++)
        if ((n->in[1 + i] = parse_df(c, f, field_index(&c->f, fa, i))) < 0) return -1;
    return 0;
}
PARSER(LERP)
{
    if (set_inputs(c, n, 3) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "alpha")) < 0) return -1;
    if ((n->in[1] = df_field(c, o, at, "first")) < 0) return -1;
    return (n->in[2] = df_field(c, o, at, "second")) < 0 ? -1 : 0;
}
PARSER(GRADIENT)
{
    static const char *const tiles[] = {"clamp_to_edge", "repeat", "mirrored_repeat", NULL};
    if (set_inputs(c, n, 0) < 0) return -1;
    if (field_enum(&c->f, NULL, o, at, "axis", NULL, CF_REQUIRED, 0, axis_names, &n->i[0]) < 0) return -1;
    if (field_int(&c->f, NULL, o, at, "from_coordinate", CF_REQUIRED, 0, -2147483647L - 1, 2147483647L, &n->i[1]) < 0) return -1;
    if (field_int(&c->f, NULL, o, at, "to_coordinate", CF_REQUIRED, 0, -2147483647L - 1, 2147483647L, &n->i[2]) < 0) return -1;
    if (field_float(&c->f, NULL, o, at, "from_value", CF_REQUIRED, 0, &n->f[0]) < 0) return -1;
    if (field_float(&c->f, NULL, o, at, "to_value", CF_REQUIRED, 0, &n->f[1]) < 0) return -1;
    if (field_enum(&c->f, NULL, o, at, "tiling", NULL, 0, TILE_CLAMP, tiles, &n->i[3]) < 0) return -1;
    long range = (long)n->i[2] - (long)n->i[1];
    if (range == 0) return field_fail(&c->f, field_key(&c->f, at, "to_coordinate"), CF_ERR_SCHEMA, "to_coordinate equals from_coordinate");
    if (range > 2147483647L || range < -2147483647L - 1)
        return field_fail(&c->f, field_key(&c->f, at, "to_coordinate"), CF_ERR_SCHEMA, "to_coordinate - from_coordinate overflows an int");
    return 0;
}
PARSER(DISTANCE_TO_POINT)
{
    static const char *const metrics[] = {"euclidean", "euclidean_squared", "manhattan", "chebyshev", NULL};
    if (set_inputs(c, n, 0) < 0) return -1;
    const cJSON *pt = field_need(&c->f, NULL, o, at, "point");
    if (!pt) return -1;
    cf_loc pa = field_key(&c->f, at, "point");
    if (!cJSON_IsArray(pt) || cJSON_GetArraySize(pt) != 3)
        return field_fail(&c->f, pa, CF_ERR_SCHEMA, "expected an array of three integers, found %s", json_type(pt));
    int i = 0;
    for (const cJSON *q = pt->child; q; q = q->next, i++)
        if (field_value_int(&c->f, q, field_index(&c->f, pa, i), -2147483647L - 1, 2147483647L, &n->i[i]) < 0) return -1;
    return field_enum(&c->f, NULL, o, at, "metric", NULL, CF_REQUIRED, 0, metrics, &n->i[3]);
}
PARSER(SLICE)
{
    if (unary(c, o, at, n) < 0) return -1;
    if (field_enum(&c->f, NULL, o, at, "axis", NULL, CF_REQUIRED, 0, axis_names, &n->i[0]) < 0) return -1;
    return field_int(&c->f, NULL, o, at, "coordinate", CF_REQUIRED, 0, -2147483647L - 1, 2147483647L, &n->i[1]);
}

/* a spline object {coordinate, points: [{location, value, derivative}]} into n;
 * a point value is a number or a nested spline */
static int parse_spline(pc *c, const cJSON *v, cf_loc at);
static int unknown_in(pc *c, const cJSON *o, cf_loc at, const char *fields, const char *extra);
static int spline_into(pc *c, const cJSON *v, cf_loc at, cf_node *n)
{
    if (!cJSON_IsObject(v)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a spline (an object or a number), found %s", json_type(v));
    const cJSON *pts = field_need(&c->f, NULL, v, at, "points");
    if (!pts) return -1;
    cf_loc pa = field_key(&c->f, at, "points");
    if (!cJSON_IsArray(pts)) return field_fail(&c->f, pa, CF_ERR_SCHEMA, "expected an array of spline points, found %s", json_type(pts));
    int np = cJSON_GetArraySize(pts);
    if (np == 0) return field_fail(&c->f, pa, CF_ERR_SCHEMA, "a spline needs at least one point");
    /* as many points as the list holds: the game's codec has no limit (--max-file-bytes bounds the list) */
    if (set_inputs(c, n, np + 1) < 0) return -1;
    if ((n->in[0] = df_field(c, v, at, "coordinate")) < 0) return -1;
    if (unknown_in(c, v, at, "coordinate points", "") < 0) return -1;
    n->nfa = 2 * np;
    n->fa = arena_alloc(&c->p->arena, sizeof(float) * (size_t)n->nfa);
    if (!n->fa) return field_nomem(&c->f);
    int i = 0;
    for (const cJSON *q = pts->child; q; q = q->next, i++) {
        cf_loc qa = field_index(&c->f, pa, i);
        if (!cJSON_IsObject(q)) return field_fail(&c->f, qa, CF_ERR_SCHEMA, "expected a spline point (an object), found %s", json_type(q));
        if (field_float(&c->f, NULL, q, qa, "location", CF_REQUIRED, 0, &n->fa[2 * i]) < 0) return -1;
        if (field_float(&c->f, NULL, q, qa, "derivative", 0, 0, &n->fa[2 * i + 1]) < 0) return -1;
        const cJSON *val = field_need(&c->f, NULL, q, qa, "value");
        if (!val) return -1;
        if ((n->in[1 + i] = parse_spline(c, val, field_key(&c->f, qa, "value"))) < 0) return -1;
        if (unknown_in(c, q, qa, "location value derivative", "") < 0) return -1;
        if (i > 0 && !(n->fa[2 * i] > n->fa[2 * i - 2])) {
            /* the game accepts them and evaluates with its binary search as it is (Mth.binarySearch,
             * which cf_spline_index is, probe for probe); --strict refuses them */
            if (c->pk->strict)
                return field_fail(&c->f, field_key(&c->f, qa, "location"), CF_ERR_SCHEMA, "spline locations must increase (%g after %g)",
                                  n->fa[2 * i], n->fa[2 * i - 2]);
            pack_warn_at(c->pk, field_key(&c->f, qa, "location"),
                         "spline locations do not increase (%g after %g): evaluated as the game does, with its binary search over the "
                         "points as they are (--strict refuses them)", n->fa[2 * i], n->fa[2 * i - 2]);
        }
    }
    return 0;
}
static int parse_spline(pc *c, const cJSON *v, cf_loc at)
{
    if (cJSON_IsNumber(v)) {
        double d = 0;
        if (field_value_num(&c->f, v, at, -HUGE_VAL, HUGE_VAL, &d) < 0) return -1;
        if (!isfinite((float)d)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "number %g is out of float range", d);
        return literal(c, at, (float)d);
    }
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d (the limit: --max-depth, cf_limits.max_depth)", c->pk->lim.max_depth);
    cf_node n = {0};
    n.kind = NK_SPLINE;
    n.prec = PREC_F32;
    n.noise = -1;
    n.loc = at;
    if (spline_into(c, v, at, &n) < 0) return -1;
    c->depth--;
    return node_add(c, &n);
}
PARSER(SPLINE)
{
    const cJSON *s = field_need(&c->f, NULL, o, at, "spline");
    if (!s) return -1;
    cf_loc sa = field_key(&c->f, at, "spline");
    if (cJSON_IsNumber(s)) { /* a constant spline is a constant */
        double d = 0;
        if (field_value_num(&c->f, s, sa, -HUGE_VAL, HUGE_VAL, &d) < 0) return -1;
        n->kind = NK_CONSTANT;
        n->flags = NF_LITERAL;
        n->f[0] = (float)d;
        return set_inputs(c, n, 0);
    }
    return spline_into(c, s, sa, n);
}
PARSER(NOISE)
{
    const cJSON *nz = field_need(&c->f, NULL, o, at, "noise");
    if (!nz) return -1;
    if ((n->noise = noise_ref(c, nz, field_key(&c->f, at, "noise"))) < 0) return -1;
    if (field_num(&c->f, NULL, o, at, "xz_scale", CF_REQUIRED, 1.0, &n->d[0]) < 0) return -1;
    if (field_num(&c->f, NULL, o, at, "y_scale", CF_REQUIRED, 1.0, &n->d[1]) < 0) return -1;
    if (set_inputs(c, n, 3) < 0) return -1;
    static const char *const shifts[] = {"shift_x", "shift_y", "shift_z"};
    for (int i = 0; i < 3; i++) {
        const cJSON *s = field_get(&c->f, NULL, o, shifts[i]);
        n->in[i] = s ? parse_df(c, s, field_key(&c->f, at, shifts[i])) : literal(c, at, 0.0f);
        if (n->in[i] < 0) return -1;
    }
    return 0;
}
static int shift_noise(pc *c, const cJSON *o, cf_loc at, cf_node *n)
{
    if (set_inputs(c, n, 0) < 0) return -1;
    const char *key = field_get(&c->f, NULL, o, "noise") ? "noise" : field_get(&c->f, NULL, o, "argument") ? "argument" : "noise";
    const cJSON *nz = field_need(&c->f, NULL, o, at, key);
    if (!nz) return -1;
    return (n->noise = noise_ref(c, nz, field_key(&c->f, at, key))) < 0 ? -1 : 0;
}
PARSER(SHIFT_A) { return shift_noise(c, o, at, n); }
PARSER(SHIFT_B) { return shift_noise(c, o, at, n); }
PARSER(SHIFT) { return shift_noise(c, o, at, n); }
PARSER(OLD_BLENDED_NOISE)
{
    static const char *const keys[] = {"xz_scale", "y_scale", "xz_factor", "y_factor", "smear_scale_multiplier"};
    static const double defs[] = {1, 1, 80, 160, 8}, lo[] = {0.001, 0.001, 0.001, 0.001, 1}, hi[] = {1000, 1000, 1000, 1000, 8};
    if (set_inputs(c, n, 0) < 0) return -1;
    for (int i = 0; i < 5; i++) {
        if (field_num(&c->f, NULL, o, at, keys[i], 0, defs[i], &n->d[i]) < 0) return -1;
        if (!(n->d[i] >= lo[i] && n->d[i] <= hi[i]))
            return field_fail(&c->f, field_key(&c->f, at, keys[i]), CF_ERR_SCHEMA, "%s %g out of range [%g, %g]", keys[i], n->d[i], lo[i], hi[i]);
    }
    return 0;
}
PARSER(END_OUTER_ISLANDS) { return nothing(c, o, at, n); }
PARSER(FIND_TOP_SURFACE)
{
    if (set_inputs(c, n, 2) < 0) return -1;
    if ((n->in[0] = df_field(c, o, at, "density")) < 0) return -1;
    if ((n->in[1] = df_field(c, o, at, "upper_bound")) < 0) return -1;
    /* vanilla: lower_bound in [MIN_Y*2, MAX_Y*2] */
    if (field_int(&c->f, NULL, o, at, "lower_bound", CF_REQUIRED, 0, -4064, 4062, &n->i[0]) < 0) return -1;
    if (field_int(&c->f, NULL, o, at, "cell_height", CF_REQUIRED, 1, 1, 4096, &n->i[1]) < 0) return -1;
    float u;
    if (node_is_literal_value(c, n->in[1], &u) && !(u >= -CF_MAX_SURFACE_BOUND && u <= CF_MAX_SURFACE_BOUND))
        return field_fail(&c->f, field_key(&c->f, at, "upper_bound"), CF_ERR_SCHEMA,
                    "upper_bound %g is beyond +-%d (the probes would not end)", u, CF_MAX_SURFACE_BOUND);
    return 0;
}
PARSER(INTERPOLATED)
{
    if (unary(c, o, at, n) < 0) return -1;
    if (field_int(&c->f, NULL, o, at, "cell_size_xz", 0, 4, 1, 256, &n->i[0]) < 0) return -1;
    return field_int(&c->f, NULL, o, at, "cell_size_y", 0, 4, 1, 4096, &n->i[1]);
}
PARSER(BLEND_ALPHA) { n->f[0] = 1.0f; return nothing(c, o, at, n); }
PARSER(BLEND_OFFSET) { n->f[0] = 0.0f; return nothing(c, o, at, n); }
PARSER(BEARDIFIER) { n->f[0] = 0.0f; return nothing(c, o, at, n); }

/* 1 when key is one of the names of a fields text (nodes.def: "input:df min:float ...",
 * names at nesting depth 0 before their ':') or of the extra names (a space-separated list) */
static int names_key(const char *fields, const char *key)
{
    size_t kl = strlen(key);
    int depth = 0, start = 1;
    for (const char *q = fields; *q; q++) {
        if (start && depth == 0 && strncmp(q, key, kl) == 0 && (q[kl] == ':' || q[kl] == ' ' || q[kl] == 0)) return 1;
        start = *q == ' ' && depth == 0;
        if (*q == '{' || *q == '[') depth++;
        else if ((*q == '}' || *q == ']') && depth > 0) depth--;
    }
    return 0;
}

/* keys the game's codec does not read: ignored as the game does, said once per file
 * (refused with --strict). extra: names read beyond the node's fields (aliases). */
static int unknown_in(pc *c, const cJSON *o, cf_loc at, const char *fields, const char *extra)
{
    for (const cJSON *k = o->child; k; k = k->next) {
        if (names_key(fields, k->string) || names_key(extra, k->string)) continue;
        cf_loc ka = field_key(&c->f, at, k->string);
        if (c->pk->strict) return field_fail(&c->f, ka, CF_ERR_SCHEMA, "unknown key \"%s\"", k->string);
        pack_warn_at(c->pk, ka, "unknown key \"%s\" ignored, as the game does (--strict refuses it)", k->string);
    }
    return 0;
}

static int unknown_keys(pc *c, const cJSON *o, cf_loc at, int kind)
{
    const char *fields = "";
    node_kind_info(kind, NULL, &fields, NULL);
    if (kind == NK_SPLINE) return unknown_in(c, o, at, "spline", "type");
    return unknown_in(c, o, at, fields ? fields : "", kind == NK_SHIFT_A || kind == NK_SHIFT_B || kind == NK_SHIFT || kind == NK_CONSTANT ? "type argument" : "type");
}

typedef int (*parse_fn)(pc *, const cJSON *, cf_loc, cf_node *);
static const parse_fn parsers[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary) [NK_##K] = parse_##K,
#define NODE64(K, name, flags, fields, summary, value) /* libnoise.c parses these */
#include "ir/nodes.def"
#undef NODE64
#undef NODE
};

/* a type no 26.3 codec knows: a mod's own (--define gives it a constant), one of the
 * 1.18.2-1.21 format (the packs mix formats), or a mistake */
static int unknown_type(pc *c, cf_loc ta, const char *type, const cJSON *o)
{
    if (mc_mod_type(&c->f, ta, type, o) < 0) return -1; /* a mod's type: the --define that gives it */
    const char *name = strncmp(type, "minecraft:", 10) == 0 ? type + 10 : type;
    char old[96];
    snprintf(old, sizeof old, "mc121:%s", name);
    for (int k = 0; k < NK_COUNT; k++)
        if (strcmp(node_name[k], old) == 0)
            return field_fail(&c->f, ta, CF_ERR_SCHEMA,
                              "unknown density function type \"%s\" in 26.3 data: it is a 1.18.2-1.21 type, so the packs mix formats "
                              "(the noise settings %s are 26.3, this file is 1.18.2-1.21); layer a pack over the vanilla data of its own "
                              "version (1.18.2-1.21 data over vanilla 1.21.11, 26.3 data over vanilla 26.3), or force one format with "
                              "--dialect",
                              type, c->settings_file ? c->settings_file : "");
    return field_fail(&c->f, ta, CF_ERR_SCHEMA, "unknown density function type \"%s\"", type);
}

static int parse_df(pc *c, const cJSON *v, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    if (cJSON_IsNumber(v)) {
        double d = 0;
        if (field_value_num(&c->f, v, at, -HUGE_VAL, HUGE_VAL, &d) < 0) return -1;
        if (!isfinite((float)d)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "number %g is out of float range", d);
        return literal(c, at, (float)d);
    }
    if (cJSON_IsString(v)) return parse_ref(c, v->valuestring, at);
    if (!cJSON_IsObject(v))
        return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a density function (a number, an id or an object), found %s", json_type(v));
    const cJSON *t = field_need(&c->f, NULL, v, at, "type");
    if (!t) return -1;
    cf_loc ta = field_key(&c->f, at, "type");
    if (!cJSON_IsString(t)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected a type name (a string), found %s", json_type(t));
    const char *name = t->valuestring;
    if (strncmp(name, "minecraft:", 10) == 0) name += 10;
    int kind = -1;
    for (int k = 0; k < NK_COUNT; k++)
        if (!(node_flags[k] & NF_F64) && strcmp(node_name[k], name) == 0) kind = k;
    if (kind < 0) {
        double dv = 0;
        if (pack_defined(c->pk, t->valuestring, v, &dv)) { /* cf_pack_define, --define */
            if (!isfinite((float)dv)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "--define %s=%g is out of float range", t->valuestring, dv);
            return literal(c, at, (float)dv);
        }
        return unknown_type(c, ta, t->valuestring, v);
    }
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d (the limit: --max-depth, cf_limits.max_depth)", c->pk->lim.max_depth);
    cf_node n = ir_node_of(kind, PREC_F32, at);
    if (parsers[kind](c, v, at, &n) < 0) return -1;
    if (unknown_keys(c, v, at, kind) < 0) return -1;
    c->depth--;
    return node_add(c, &n);
}

static int parse_df_file(void *ctx, const cJSON *root, cf_loc at) { return parse_df(ctx, root, at); }

static int parse_ref(pc *c, const char *id, cf_loc at) { return mc_reference(&c->m, id, at, parse_df_file, c); }

/* ------------------------------------------------------------------ settings and outputs */


/* a block state of the settings: "minecraft:stone", or {"Name": ..., "Properties": ...}
 * (the 1.18.2-1.21 form); the id only, with "minecraft:" added to a bare name */
static int block_name(pc *c, const cJSON *o, cf_loc at, const char *key, const char *def, const char **out)
{
    const cJSON *v = field_get(&c->f, NULL, o, key);
    cf_loc a = field_key(&c->f, at, key);
    if (!v) return *out = def, 0;
    if (cJSON_IsObject(v)) {
        v = field_need(&c->f, NULL, v, a, "Name");
        if (!v) return -1;
        a = field_key(&c->f, a, "Name");
    }
    if (!cJSON_IsString(v)) return field_fail(&c->f, a, CF_ERR_SCHEMA, "expected a block id (a string), found %s", json_type(v));
    const char *s = v->valuestring;
    size_t n = strlen(s);
    if (n == 0 || n > 200) return field_fail(&c->f, a, CF_ERR_SCHEMA, "expected a block id, found \"%.40s\"", s);
    for (size_t k = 0; k < n; k++)
        if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_-./:", s[k]))
            return field_fail(&c->f, a, CF_ERR_SCHEMA, "invalid character in block id \"%.40s\"", s);
    char buf[224];
    snprintf(buf, sizeof buf, "%s%s", strchr(s, ':') ? "" : "minecraft:", s);
    *out = arena_strdup(&c->p->arena, buf);
    return *out ? 0 : field_nomem(&c->f);
}

static int raw_noise(pc *c, const char *id, cf_loc at)
{
    cJSON *s = cJSON_CreateString(id);
    if (!s) return field_nomem(&c->f);
    cf_node n = {0};
    n.kind = NK_NOISE;
    n.flags = node_flags[NK_NOISE];
    n.prec = PREC_F32;
    n.loc = at;
    n.d[0] = n.d[1] = 1.0;
    n.noise = noise_ref(c, s, at);
    cJSON_Delete(s);
    if (n.noise < 0) return -1;
    if (set_inputs(c, &n, 3) < 0) return -1;
    for (int i = 0; i < 3; i++)
        if ((n.in[i] = literal(c, at, 0.0f)) < 0) return -1;
    return node_add(c, &n);
}

/* ---- the material rule (frontend/rules.c): its noises and functions as extra outputs */
static int extra_output(pc *c, int node, cf_loc at)
{
    (void)at; /* no limit left to locate: as many as the rule reads */
    if (node < 0) return -1;
    for (int k = 0; k < c->nextra; k++)
        if (c->extra[k] == node) return c->out_base + k;
    if (arena_push_int(&c->p->arena, &c->extra, c->nextra, &c->cap_extra, node) < 0) return field_nomem(&c->f);
    return c->out_base + c->nextra++;
}

static int rule_noise(void *ctx, const cJSON *id, cf_loc at, double xz)
{
    pc *c = ctx;
    cf_node n = {0};
    n.kind = NK_NOISE;
    n.flags = node_flags[NK_NOISE];
    n.prec = PREC_F32;
    n.loc = at;
    n.d[0] = xz, n.d[1] = 1.0;
    if ((n.noise = noise_ref(c, id, at)) < 0) return -1;
    for (int k = 0; k < c->nextra; k++) {
        const cf_node *e = &c->p->nodes[c->extra[k]];
        if (e->kind == NK_NOISE && e->noise == n.noise && e->d[0] == xz && e->d[1] == 1.0) return c->out_base + k;
    }
    if (set_inputs(c, &n, 3) < 0) return -1;
    for (int i = 0; i < 3; i++)
        if ((n.in[i] = literal(c, at, 0.0f)) < 0) return -1;
    return extra_output(c, node_add(c, &n), at);
}

static int rule_function(void *ctx, const cJSON *v, cf_loc at)
{
    pc *c = ctx;
    return extra_output(c, parse_df(c, v, at), at);
}

static const cJSON *rule_ref(void *ctx, const char *kind, const char *id, cf_loc *at)
{
    pc *c = ctx;
    char ns[128], path[384];
    cf_loc cli = {"<arguments>", NULL};
    if (mc_split_id(&c->f, cli, id, ns, path) < 0) return NULL;
    mc_file *f = mc_load(&c->m, kind, ns, path);
    if (!f) return NULL;
    *at = (cf_loc){f->display, NULL};
    return f->root;
}

static cf_status parse_program(cf_program *p, cf_pack *pk, const char *settings_id,
                        const char *const *functions, int nfn, cf_error *err)
{
    pc c = {0};
    c.p = p;
    c.pk = pk;
    c.err = err;
    field_init(&c.f, &p->arena, err);
    p->max_fill_bytes = pk->lim.max_fill_bytes;
    if (mc_files_init(&c.m, p, pk, &c.f) < 0) return err->status;
    cf_loc cli = {"<arguments>", NULL};
    const cJSON *router = NULL;
    cf_loc ra = cli; /* NOLINT(clang-analyzer-deadcode.DeadStores): set before every use */
    mc_file *sf = mc_settings(&c.m, settings_id);
    if (!sf) goto done;
    p->settings_id = sf->id;
    c.settings_file = sf->display;
    cf_loc sa = {sf->display, NULL};
    const cJSON *so = sf->root;
    if (!cJSON_IsObject(so)) {
        field_fail(&c.f, sa, CF_ERR_SCHEMA, "expected noise settings (an object), found %s", json_type(so));
        goto done;
    }
    const cJSON *noise = field_need(&c.f, NULL, so, sa, "noise");
    if (!noise) goto done;
    cf_loc na = field_key(&c.f, sa, "noise");
    if (!cJSON_IsObject(noise)) {
        field_fail(&c.f, na, CF_ERR_SCHEMA, "expected an object, found %s", json_type(noise));
        goto done;
    }
    if (field_get(&c.f, NULL, noise, "size_horizontal")) {
        field_fail(&c.f, field_key(&c.f, na, "size_horizontal"), CF_ERR_SCHEMA, "1.18.2-1.21 noise settings (size_horizontal): not the 26.3 format (drop --dialect 26.3: the format is detected from the settings)");
        goto done;
    }
    if (field_int(&c.f, NULL, noise, na, "min_y", CF_REQUIRED, 0, -2032, 2031, &p->min_y) < 0) goto done;
    if (field_int(&c.f, NULL, noise, na, "height", CF_REQUIRED, 0, 0, 4064, &p->height) < 0) goto done;
    if (unknown_in(&c, noise, na, "min_y height", "") < 0) goto done; /* e.g. Tectonic's "sampling" */
    if (p->min_y % 16 != 0 || p->height % 16 != 0) {
        field_fail(&c.f, na, CF_ERR_SCHEMA, "min_y and height must be multiples of 16 (found %d, %d)", p->min_y, p->height);
        goto done;
    }
    if (p->min_y + p->height > 2032) {
        field_fail(&c.f, field_key(&c.f, na, "height"), CF_ERR_SCHEMA, "min_y + height must be at most 2032");
        goto done;
    }
    if (field_int(&c.f, NULL, so, sa, "sea_level", 0, 63, -2147483647L - 1, 2147483647L, &p->sea_level) < 0) goto done;
    const cJSON *lr = field_get(&c.f, NULL, so, "legacy_random_source");
    if (lr && !cJSON_IsBool(lr)) {
        field_fail(&c.f, field_key(&c.f, sa, "legacy_random_source"), CF_ERR_SCHEMA, "expected true or false, found %s", json_type(lr));
        goto done;
    }
    p->legacy_random = lr && cJSON_IsTrue(lr);
    if (block_name(&c, so, sa, "default_block", "minecraft:stone", &p->default_block) < 0) goto done;
    if (block_name(&c, so, sa, "default_fluid", "minecraft:water", &p->default_fluid) < 0) goto done;
    const cJSON *aq = field_get(&c.f, NULL, so, "aquifers");
    cf_loc aqa = field_key(&c.f, sa, "aquifers");
    if (aq && !cJSON_IsObject(aq)) {
        field_fail(&c.f, aqa, CF_ERR_SCHEMA, "expected an object (the aquifer's density functions), found %s", json_type(aq));
        goto done;
    }
    p->has_aquifers = aq != NULL;
    for (int i = 0; i < 6; i++) p->aq_out[i] = -1;
    router = field_need(&c.f, NULL, so, sa, "noise_router");
    if (!router) goto done;
    ra = field_key(&c.f, sa, "noise_router");
    if (!cJSON_IsObject(router)) {
        field_fail(&c.f, ra, CF_ERR_SCHEMA, "expected an object, found %s", json_type(router));
        goto done;
    }
    if (ir_set_outputs(p, functions, nfn, err) < 0) goto done;
    for (int i = 0; i < nfn; i++) {
        const char *f = functions[i];
        int id;
        if (strcmp(f, "rules?:material_rule") == 0) { /* block fills: the material pass, when the settings have one */
            const cJSON *mr = cJSON_GetObjectItemCaseSensitive(so, "material_rule");
            c.out_base = nfn;
            if (mr) {
                fr_host h = {p, pk, err, 1, &c, rule_noise, rule_function, rule_ref};
                if (rules_compile(&h, mr, field_key(&c.f, sa, "material_rule")) != CF_OK) goto done;
            }
            id = literal(&c, cli, 0.0f);
        } else if (strncmp(f, "router?:", 8) == 0) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(router, f + 8);
            id = v ? parse_df(&c, v, field_key(&c.f, ra, f + 8)) : literal(&c, cli, 0.0f);
        } else if (strncmp(f, "router:", 7) == 0) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(router, f + 7);
            if (!v) {
                field_fail(&c.f, ra, CF_ERR_REF, "no noise_router field \"%s\"", f + 7);
                goto done;
            }
            id = parse_df(&c, v, field_key(&c.f, ra, f + 7));
        } else if (strncmp(f, "aquifer?:", 9) == 0 && !aq) {
            id = literal(&c, cli, 0.0f); /* optional (block fills): no aquifers, no function */
        } else if (strncmp(f, "aquifer:", 8) == 0 || strncmp(f, "aquifer?:", 9) == 0) {
            const char *name = strchr(f, ':') + 1;
            int k = 0;
            while (k < 6 && strcmp(name, cf_aquifer_fields[k]) != 0) k++;
            if (k == 6) {
                field_fail(&c.f, cli, CF_ERR_ARG, "%s: no such aquifer function (barrier, fluid_level_floodedness,"
                     " fluid_level_spread, lava, exclusion, surface_level)", f);
                goto done;
            }
            if (!aq) {
                field_fail(&c.f, sa, CF_ERR_REF, "no \"aquifers\" object: these settings have aquifers disabled");
                goto done;
            }
            const cJSON *v = field_need(&c.f, NULL, aq, aqa, name);
            if (!v) goto done;
            id = parse_df(&c, v, field_key(&c.f, aqa, name));
            p->aq_out[k] = i;
        } else if (strncmp(f, "noise:", 6) == 0) {
            id = raw_noise(&c, f + 6, cli);
        } else {
            id = parse_ref(&c, f, cli);
        }
        if (id < 0) goto done;
        p->outputs[i] = id;
    }
    /* the material rule's noises and functions */
    if (c.nextra && ir_add_outputs(p, c.extra, c.nextra, "material_rule input") < 0) field_nomem(&c.f);
done:
    mc_files_free(&c.m);
    if (err_failed(err)) return err->status;
    return CF_OK;
}

static cf_status front_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                             cf_error *err)
{
    p->dialect = DIALECT_MC263;
    p->prec = PREC_F32;
    return parse_program(p, pk, settings_id, functions, n, err);
}

const cf_frontend cf_frontend_mc263 = {
    .name = "mc263", .title = "Minecraft 26.3 data", .prefix = NULL,
    .first_kind = NK_CONSTANT, .last_kind = NK_BEARDIFIER,
    .claims = NULL, .parse = front_parse,
};
