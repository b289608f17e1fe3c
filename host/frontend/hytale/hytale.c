/* hytale.c - the Hytale front-end (HYTALE.md): World Gen V2 density graphs ->
 * graph IR.
 *
 * Input: a pack folder holding hytale/Density/<NAME>.json files, each a V2
 * density node ({"Type": ..., "Inputs": [...], fields}), and the requested
 * functions: hytale:NAME (the node of hytale/Density/NAME.json), or the default
 * request (router:final_density) = hytale:Terrain. `Imported {Name}` reads a node
 * published with `Exported`/`ExportAs` in any file of hytale/Density (one shared
 * subgraph; a duplicate name, a missing name or an import cycle is an error).
 * Output: prog->nodes of the NF_F64 kinds of host/ir/nodes_hytale.def, children first;
 * the program's dialect is DIALECT_HYTALE (double values at double positions).
 * Context nodes that need a game engine (BaseHeight, DistanceToBiomeEdge,
 * Terrain) read named external inputs the caller supplies (cf_pack_set_external,
 * CLI --external NAME=VALUE); a missing one is a located error, never a zero.
 * Every HYTALE.md UNK choice this file applies is a named constant in the
 * "choices" block below (host/frontend/hytale/README.md lists them). Errors are one line,
 * "file.json#/pointer: message". JSON trees are scratch, freed before returning.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/hytale/hytale.h"

/* ------------------------------------------------------------------ choices (HYTALE.md UNK, one place) */
/* §3.1 Skip: 1 = a skipped node passes Inputs[0] through (+0.0 without inputs); 0 = it returns +0.0 */
#define HY_SKIP_PASSTHROUGH 1
/* §7.1: a CellNoise without DistanceFunction uses Euclidean (FNL's own default, EuclideanSq, is not used) */
#define HY_CELL_DEFAULT_DISTANCE CF_HY_EUCLIDEAN
/* §7.1: a CellNoise without Jitter uses 1.0 (FNL's default) */
#define HY_CELL_DEFAULT_JITTER 1.0
/* §4.5: a FastGradientWarp without "2D" is the 3D warp */
#define HY_WARP_DEFAULT_2D 0
/* §4.6: a YSampled without "Interpolate" interpolates linearly between its sample planes */
#define HY_YSAMPLED_DEFAULT_INTERPOLATE 1
/* §6: the SwitchState at the root of every requested function */
#define HY_ROOT_SWITCH_STATE "Default"
/* further V2 choices, each in one function: hy_rotation() (Rotator/Ellipsoid/Cuboid/Cylinder
 * construction), cf_hy_curve_distexp/_dists, cf_hy_angle (degrees, 0 at the zero vector),
 * cf_hy_ramp (Gradient), the GradientWarp/VectorWarp evaluators (eval64.c: + signs, forward
 * differences), switch_node(), HY_ANCHOR (external anchor), external() (maps: NaN outside) */
/* §6 PositionsCellNoise (all in hyparse_HY_PCELL / cf_hy_pcell): 2-D providers place their points at
 * the query's y (distances in x/z); only positions within MaxDistance count, and a missing F1/F2
 * reads MaxDistance; Jitter: FNL hash of the lattice index (2-D providers: hash2 of (i, j), 3-D:
 * hash3), direction = FNL's RandVecs entry of that hash (256 directions, not a continuous angle),
 * distance = Magnitude * (bits 16..31 of the hash) / 65536; TriangularGrid2d: rows along x,
 * row j at z = j*sqrt(3)/2 shifted by j/2 in x; Scaler scales must be > 0; the Density return
 * type, Bound, Anchor, Jitter of a List and other providers are refused (not implemented) */
#define HY_PCELL_MAX_CELLS 4096
#define HY_PCELL_MAX_LIST 256
/* §4.2 Mix with other than 3 inputs: chunkfill refuses it (the spec's choice is a warning and
 * constant +0.0; chunkfill has no warning channel, so it is an error instead) */

/* HYTALE.md's CF_ERR_UNSUPPORTED: reported as a schema error whose message says "not implemented"
 * or "no documented semantics" (the public status list is unchanged) */
#define HY_ERR_UNSUPPORTED CF_ERR_SCHEMA

/* HYTALE.md §1 UNK choice (one place): the FNL integer seed of a seed label is
 * Java's String.hashCode of the label plus the world seed's low 32 bits, wrapping.
 * Nodes keep the label's hash (i[0]); eval64.c/emit.c add the world part. */
int32_t hytale_seed(const char *label, int64_t world)
{
    return (int32_t)((uint32_t)java_string_hash(label) + (uint32_t)(uint64_t)world);
}

#include "kernels/cf_hytale.h"

typedef struct hexp {
    const char *name;
    const cJSON *v;  /* the exported node (an Exported's input or the ExportAs node) */
    cf_loc at;
    int state;       /* 0 not parsed, 1 being parsed, 2 parsed */
    int node;
    const char *sw;  /* the SwitchState node was parsed under (an import under another state parses again) */
} hexp;

typedef struct hc {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    cf_fields f; /* the field reader (base.h): errors into err, locations in the program arena */
    cJSON **roots;
    const char **files; /* display paths */
    int nfiles;
    hexp *exps;
    int nexps, capexps;
    int depth;
    const char *state;   /* V2 SwitchState of the subtree being parsed (HYTALE.md §6), "Default" at the root */
    const char **mapname; /* external maps copied into p->hy_maps: name -> offset */
    size_t *mapoff;
    int nmaps;
} hc;

/* ------------------------------------------------------------------ fields
 * Fields are read with base/fields.c (c->f: "missing \"Key\" (a number)", integers as
 * "expected an integer in [lo, hi], found v"); the keys a node reads are kept in a
 * cf_keys, and any other key (not starting with '$') is an error. */
static int seed(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n)
{
    const cJSON *v = field_get(&c->f, ks, o, "Seed");
    if (!v) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Seed\" (a seed label string)");
    if (!cJSON_IsString(v)) return field_fail(&c->f, field_key(&c->f, at, "Seed"), CF_ERR_SCHEMA, "expected a seed label (a string), found %s", json_type(v));
    n->i[0] = java_string_hash(v->valuestring);
    return 0;
}
/* a string enum (names NULL-terminated), or {"Type": name} where slot is set; def < 0: required */
static int name_of(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const char *alias, const char *const *names,
                   int def, int slot, int *out)
{
    const cJSON *v = NULL;
    const char *used = key;
    *out = def < 0 ? 0 : def;
    if (field_alias(&c->f, ks, o, at, key, alias, &v, &used) < 0) return -1;
    if (!v) return def < 0 ? field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"%s\"", key) : 0;
    cf_loc va = field_key(&c->f, at, used);
    if (slot && cJSON_IsObject(v)) {
        static const cf_keys type = {{"Type"}, 1};
        if (field_unknown(&c->f, &type, v, va, CF_DOLLAR_COMMENTS, NULL) < 0) return -1;
        va = field_key(&c->f, va, "Type");
        v = cJSON_GetObjectItemCaseSensitive(v, "Type");
    }
    return field_value_enum(&c->f, v, va, names, out);
}

/* ------------------------------------------------------------------ nodes */
static int node(hc *c, const cJSON *v, cf_loc at);

static int node_add(hc *c, const cf_node *n) { return ir_node_add(c->p, &c->pk->lim, n, "density graph", c->err); }

static int new_node(__attribute__((unused)) hc *c, int kind, cf_loc at, cf_node *n)
{
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->flags = node_flags[kind];
    n->prec = PREC_F64;
    n->noise = -1;
    n->loc = at;
    return 0;
}

static int constant(hc *c, double v, cf_loc at)
{
    cf_node n;
    new_node(c, NK_HY_CONSTANT, at, &n);
    n.d[0] = v;
    return node_add(c, &n);
}

/* "Inputs": count inputs (count < 0: any number, at least -count - 1) */
static int inputs(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, int count, const char *type)
{
    const cJSON *s = field_get(&c->f, ks, o, "Inputs");
    cf_loc sa = field_key(&c->f, at, "Inputs");
    if (s && !cJSON_IsArray(s)) return field_fail(&c->f, sa, CF_ERR_SCHEMA, "expected an array of nodes, found %s", json_type(s));
    int m = s ? cJSON_GetArraySize(s) : 0;
    if (count >= 0 && m != count)
        return field_fail(&c->f, s ? sa : at, CF_ERR_SCHEMA, "%s takes %d input%s, found %d", type, count, count == 1 ? "" : "s", m);
    if (count < 0 && m < -count - 1) return field_fail(&c->f, s ? sa : at, CF_ERR_SCHEMA, "%s takes at least %d inputs, found %d", type, -count - 1, m);
    n->nin = m;
    n->in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(m ? m : 1));
    if (!n->in) return field_nomem(&c->f);
    int i = 0;
    for (const cJSON *e = s ? s->child : NULL; e; e = e->next, i++)
        if ((n->in[i] = node(c, e, field_index(&c->f, sa, i))) < 0) return -1;
    return 0;
}

/* ---- V2 (hytale-v2): curves, vectors, rotations ---- */
struct cbuf;
static int import_curve(hc *c, const char *name, cf_loc at, struct cbuf *b, int depth);
static int range(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, double *k);
static int external(hc *c, const char *name, cf_loc at);

/* a growing array of doubles (curve programs, matrices) */
typedef struct cbuf {
    double *d;
    int n, cap;
    int sp, maxsp; /* curve value-stack depth while parsing */
} cbuf;
static int cput(hc *c, cbuf *b, double v)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        if (cap > (1 << 22)) return field_fail(&c->f, (cf_loc){"<curves>", NULL}, CF_ERR_LIMIT, "curve programs larger than %d numbers", 1 << 22);
        double *d = realloc(b->d, sizeof(double) * (size_t)cap);
        if (!d) return field_nomem(&c->f);
        b->d = d, b->cap = cap;
    }
    b->d[b->n++] = v;
    return 0;
}
/* the arena copy of a buffer as a node's da */
static int cbuf_to_node(hc *c, cbuf *b, cf_node *n)
{
    double *d = arena_alloc(&c->p->arena, sizeof(double) * (size_t)(b->n ? b->n : 1));
    if (!d) return free(b->d), field_nomem(&c->f);
    if (b->n) memcpy(d, b->d, sizeof(double) * (size_t)b->n);
    n->da = d, n->nda = b->n;
    free(b->d);
    b->d = NULL;
    return 0;
}
static int stack_push(hc *c, cbuf *b, cf_loc at, int k)
{
    b->sp += k;
    if (b->sp > b->maxsp) b->maxsp = b->sp;
    if (b->sp > CF_HY_CURVE_STACK) return field_fail(&c->f, at, CF_ERR_LIMIT, "curve combinators nested deeper than %d operands", CF_HY_CURVE_STACK);
    return 0;
}

static int curve_ops(hc *c, const cJSON *v, cf_loc ca, cbuf *b, int depth);
/* a curve slot `key` of object o (which has its keys checked by the caller) */
static int curve_slot(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, cbuf *b, int depth)
{
    const cJSON *v = field_get(&c->f, ks, o, key);
    if (!v) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"%s\" (a curve)", key);
    return curve_ops(c, v, field_key(&c->f, at, key), b, depth + 1);
}
static int curve_num(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, double def, cbuf *b, double *out)
{
    double d = 0;
    if (field_num(&c->f, ks, o, at, key, isnan(def) ? CF_REQUIRED : 0, def, &d) < 0) return -1;
    if (out) *out = d;
    return b ? cput(c, b, d) : 0;
}
static int curve_range(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cbuf *b)
{
    double k = 0;
    if (range(c, ks, o, at, &k) < 0) return -1;
    return cput(c, b, k);
}

/* one curve (HYTALE.md §5) appended to b as postfix ops (kernels/cf_hytale.h CF_HY_C_*) */
static int curve_ops(hc *c, const cJSON *v, cf_loc ca, cbuf *b, int depth)
{
    if (err_failed(c->err)) return -1;
    if (depth > c->pk->lim.max_depth) return field_fail(&c->f, ca, CF_ERR_LIMIT, "curves nested deeper than %d", c->pk->lim.max_depth);
    if (!cJSON_IsObject(v)) return field_fail(&c->f, ca, CF_ERR_SCHEMA, "expected a curve (an object with \"Type\"), found %s", json_type(v));
    cf_keys cs = {{0}, 0};
    const cJSON *t = field_get(&c->f, &cs, v, "Type");
    field_get(&c->f, &cs, v, "ExportAs");
    if (!cJSON_IsString(t)) return field_fail(&c->f, t ? field_key(&c->f, ca, "Type") : ca, CF_ERR_SCHEMA, "expected a curve \"Type\" (a string), found %s", json_type(t));
    const char *ty = t->valuestring;
    int r = 0;
    if (strcmp(ty, "Manual") == 0) {
        const cJSON *pts = field_get(&c->f, &cs, v, "Points");
        cf_loc pa = field_key(&c->f, ca, "Points");
        if (!cJSON_IsArray(pts) || cJSON_GetArraySize(pts) < 1 || cJSON_GetArraySize(pts) > 4096)
            return field_fail(&c->f, pts ? pa : ca, CF_ERR_SCHEMA, "expected \"Points\": an array of 1 to 4096 {In, Out}");
        int m = cJSON_GetArraySize(pts), base = b->n + 2;
        if (cput(c, b, CF_HY_C_MANUAL) < 0 || cput(c, b, m) < 0) return -1;
        int i = 0;
        for (const cJSON *e = pts->child; e; e = e->next, i++) {
            cf_loc ea = field_index(&c->f, pa, i);
            if (!cJSON_IsObject(e)) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "expected {\"In\": x, \"Out\": y}, found %s", json_type(e));
            cf_keys es = {{0}, 0};
            double in = 0, out = 0;
            if (field_num(&c->f, &es, e, ea, "In", CF_REQUIRED, NAN, &in) < 0 || field_num(&c->f, &es, e, ea, "Out", CF_REQUIRED, NAN, &out) < 0) return -1;
            {
                static const cf_keys known = {{"In", "Out"}, 2};
                if (field_unknown(&c->f, &known, e, ea, CF_DOLLAR_COMMENTS, "(In, Out)") < 0) return -1;
            }
            /* sorted by In; a duplicate In is an error (choice) */
            if (cput(c, b, 0) < 0 || cput(c, b, 0) < 0) return -1;
            double *d = b->d + base;
            int pos = 0;
            while (pos < i && d[2 * pos] < in) pos++;
            if (pos < i && d[2 * pos] == in) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "curve point In %.17g appears twice", in);
            memmove(d + 2 * (pos + 1), d + 2 * pos, sizeof(double) * (size_t)(2 * (i - pos)));
            d[2 * pos] = in, d[2 * pos + 1] = out;
        }
        r = stack_push(c, b, ca, 1);
    } else if (strcmp(ty, "DistanceExponential") == 0) {
        double e = 0, rr = 0;
        if (cput(c, b, CF_HY_C_DISTEXP) < 0 || curve_num(c, &cs, v, ca, "Exponent", NAN, b, &e) < 0 || curve_num(c, &cs, v, ca, "Range", NAN, b, &rr) < 0)
            return -1;
        if (!(e > 0) || !(rr > 0)) return field_fail(&c->f, ca, CF_ERR_SCHEMA, "DistanceExponential needs Exponent > 0 and Range > 0");
        r = stack_push(c, b, ca, 1);
    } else if (strcmp(ty, "DistanceS") == 0) {
        double ea = 0, eb = 0, rr = 0, tr = 0, ts = 0;
        if (cput(c, b, CF_HY_C_DISTS) < 0 || curve_num(c, &cs, v, ca, "ExponentA", NAN, b, &ea) < 0
            || curve_num(c, &cs, v, ca, "ExponentB", NAN, b, &eb) < 0 || curve_num(c, &cs, v, ca, "Range", NAN, b, &rr) < 0
            || curve_num(c, &cs, v, ca, "Transition", 1.0, NULL, &tr) < 0 || curve_num(c, &cs, v, ca, "TransitionSmooth", 1.0, NULL, &ts) < 0)
            return -1;
        if (!(ea > 0) || !(eb > 0) || !(rr > 0)) return field_fail(&c->f, ca, CF_ERR_SCHEMA, "DistanceS needs ExponentA, ExponentB and Range > 0");
        if (tr != 1.0 || ts != 1.0)
            return field_fail(&c->f, ca, HY_ERR_UNSUPPORTED, "DistanceS with Transition/TransitionSmooth other than 1 has no documented formula (not implemented)");
        r = stack_push(c, b, ca, 1);
    } else if (strcmp(ty, "Ceiling") == 0 || strcmp(ty, "Floor") == 0) {
        if (curve_slot(c, &cs, v, ca, "Curve", b, depth) < 0 || cput(c, b, ty[0] == 'C' ? CF_HY_C_CEIL : CF_HY_C_FLOOR) < 0
            || curve_num(c, &cs, v, ca, ty, NAN, b, NULL) < 0)
            return -1;
    } else if (strcmp(ty, "SmoothCeiling") == 0 || strcmp(ty, "SmoothFloor") == 0) {
        if (curve_slot(c, &cs, v, ca, "Curve", b, depth) < 0 || cput(c, b, ty[6] == 'C' ? CF_HY_C_SCEIL : CF_HY_C_SFLOOR) < 0
            || curve_num(c, &cs, v, ca, ty + 6, NAN, b, NULL) < 0 || curve_range(c, &cs, v, ca, b) < 0)
            return -1;
    } else if (strcmp(ty, "Clamp") == 0 || strcmp(ty, "SmoothClamp") == 0) {
        double wa = 0, wb = 0;
        if (curve_slot(c, &cs, v, ca, "Curve", b, depth) < 0 || field_num(&c->f, &cs, v, ca, "WallA", CF_REQUIRED, NAN, &wa) < 0 || field_num(&c->f, &cs, v, ca, "WallB", CF_REQUIRED, NAN, &wb) < 0)
            return -1;
        if (cput(c, b, ty[0] == 'C' ? CF_HY_C_CLAMP : CF_HY_C_SCLAMP) < 0 || cput(c, b, cf_hy_jmin(wa, wb)) < 0 || cput(c, b, cf_hy_jmax(wa, wb)) < 0)
            return -1;
        if (ty[0] == 'S' && curve_range(c, &cs, v, ca, b) < 0) return -1;
    } else if (strcmp(ty, "Inverter") == 0 || strcmp(ty, "Not") == 0) {
        if (curve_slot(c, &cs, v, ca, "Curve", b, depth) < 0 || cput(c, b, ty[0] == 'I' ? CF_HY_C_INV : CF_HY_C_NOT) < 0) return -1;
    } else if (strcmp(ty, "SmoothMax") == 0 || strcmp(ty, "SmoothMin") == 0) {
        if (curve_slot(c, &cs, v, ca, "CurveA", b, depth) < 0 || curve_slot(c, &cs, v, ca, "CurveB", b, depth) < 0) return -1;
        if (cput(c, b, ty[7] == 'a' ? CF_HY_C_SMAX : CF_HY_C_SMIN) < 0 || curve_range(c, &cs, v, ca, b) < 0) return -1;
        b->sp--;
    } else if (strcmp(ty, "Max") == 0 || strcmp(ty, "Min") == 0 || strcmp(ty, "Multiplier") == 0 || strcmp(ty, "Sum") == 0) {
        const cJSON *cv = field_get(&c->f, &cs, v, "Curves");
        cf_loc cva = field_key(&c->f, ca, "Curves");
        if (cv && !cJSON_IsArray(cv)) return field_fail(&c->f, cva, CF_ERR_SCHEMA, "expected an array of curves, found %s", json_type(cv));
        int m = cv ? cJSON_GetArraySize(cv) : 0, i = 0;
        if (m > CF_HY_CURVE_STACK) return field_fail(&c->f, cva, CF_ERR_LIMIT, "more than %d curves", CF_HY_CURVE_STACK);
        for (const cJSON *e = cv ? cv->child : NULL; e; e = e->next, i++)
            if (curve_ops(c, e, field_index(&c->f, cva, i), b, depth + 1) < 0) return -1;
        int op = ty[1] == 'a' ? CF_HY_C_MAX : ty[1] == 'i' ? CF_HY_C_MIN : ty[1] == 'u' && ty[2] == 'l' ? CF_HY_C_MUL : CF_HY_C_SUM;
        if (cput(c, b, op) < 0 || cput(c, b, m) < 0) return -1;
        r = m ? (b->sp -= m - 1, 0) : stack_push(c, b, ca, 1);
    } else if (strcmp(ty, "Imported") == 0) {
        const cJSON *nm = field_get(&c->f, &cs, v, "Name");
        if (!cJSON_IsString(nm)) return field_fail(&c->f, nm ? field_key(&c->f, ca, "Name") : ca, CF_ERR_SCHEMA, "Imported needs \"Name\" (a string)");
        r = import_curve(c, nm->valuestring, field_key(&c->f, ca, "Name"), b, depth);
    } else {
        return field_fail(&c->f, field_key(&c->f, ca, "Type"), CF_ERR_SCHEMA, "unknown curve type \"%s\"", ty);
    }
    if (r < 0) return -1;
    if (field_unknown(&c->f, &cs, v, ca, CF_DOLLAR_COMMENTS, "for curve \"%s\"", ty) < 0) return -1;
    return 0;
}

/* a curve program [L, ops...] appended to b */
static int curve_prog(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, cbuf *b)
{
    int head = b->n;
    if (cput(c, b, 0) < 0) return -1;
    b->sp = 0;
    if (curve_slot(c, ks, o, at, key, b, 0) < 0) return -1;
    b->d[head] = b->n - head - 1;
    return 0;
}
/* a node's single curve: da = [L, ops...] */
static int curve(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, cf_node *n)
{
    cbuf b = {0};
    if (curve_prog(c, ks, o, at, key, &b) < 0) return free(b.d), -1;
    return cbuf_to_node(c, &b, n);
}

/* a 3-D vector field: {"X","Y","Z"} (missing components 0), [x, y, z], or a VectorProvider
 * {"Type": "Constant", "Vector": {...}} (HYTALE.md §3.1 choice); def NULL = required */
static int vec3_value(hc *c, const cJSON *v, cf_loc va, double *out)
{
    if (cJSON_IsObject(v) && cJSON_GetObjectItemCaseSensitive(v, "Type")) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "Type"), *vec = cJSON_GetObjectItemCaseSensitive(v, "Vector");
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "Constant") != 0)
            return field_fail(&c->f, field_key(&c->f, va, "Type"), CF_ERR_SCHEMA, "a vector field takes a Constant vector provider (folded when compiling), found %s",
                        cJSON_IsString(t) ? t->valuestring : json_type(t));
        {
            static const cf_keys known = {{"Type", "Vector"}, 2};
            if (field_unknown(&c->f, &known, v, va, CF_DOLLAR_COMMENTS, "(Type, Vector)") < 0) return -1;
        }
        if (!vec) return field_fail(&c->f, va, CF_ERR_SCHEMA, "missing \"Vector\"");
        return vec3_value(c, vec, field_key(&c->f, va, "Vector"), out);
    }
    if (cJSON_IsArray(v)) {
        if (cJSON_GetArraySize(v) != 3) return field_fail(&c->f, va, CF_ERR_SCHEMA, "expected [x, y, z], found %d numbers", cJSON_GetArraySize(v));
        int i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
                return field_fail(&c->f, field_index(&c->f, va, i), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(e));
            out[i] = e->valuedouble;
        }
        return 0;
    }
    if (!cJSON_IsObject(v)) return field_fail(&c->f, va, CF_ERR_SCHEMA, "expected a vector {\"X\", \"Y\", \"Z\"}, found %s", json_type(v));
    cf_keys vs = {{0}, 0};
    if (field_num(&c->f, &vs, v, va, "X", 0, 0, &out[0]) < 0 || field_num(&c->f, &vs, v, va, "Y", 0, 0, &out[1]) < 0 || field_num(&c->f, &vs, v, va, "Z", 0, 0, &out[2]) < 0) return -1;
    {
        static const cf_keys known = {{"X", "Y", "Z"}, 3};
        if (field_unknown(&c->f, &known, v, va, CF_DOLLAR_COMMENTS, "(X, Y, Z)") < 0) return -1;
    }
    return 0;
}
static int vec3(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const double *def, double *out)
{
    const cJSON *v = field_get(&c->f, ks, o, key);
    if (!v) {
        if (!def) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"%s\" (a vector {\"X\", \"Y\", \"Z\"})", key);
        return out[0] = def[0], out[1] = def[1], out[2] = def[2], 0;
    }
    return vec3_value(c, v, field_key(&c->f, at, key), out);
}
/* the unit vector of a vector field; zero length is an error */
static int unit3(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const double *def, double *out)
{
    if (vec3(c, ks, o, at, key, def, out) < 0) return -1;
    double l = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (!(l > 0) || !isfinite(l)) return field_fail(&c->f, field_key(&c->f, at, key), CF_ERR_SCHEMA, "%s has zero (or infinite) length", key);
    out[0] /= l, out[1] /= l, out[2] /= l;
    return 0;
}
static const double vec_y[3] = {0, 1, 0}, vec_one[3] = {1, 1, 1};

/* HYTALE.md §4.3 choice, one place: M = Spin(n, spin) * Align(+Y -> n), Align the minimal
 * (Rodrigues) rotation, n = -Y as 180 degrees about +X, spin right-handed about n, in
 * degrees. Folded on the host in double; the matrix bits travel to CPU and GPU. */
static void hy_rotation(const double n[3], double spin_deg, double m[9])
{
    double a[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, s[9];
    if (n[0] == 0 && n[2] == 0) {
        if (n[1] < 0) a[4] = -1, a[8] = -1;
    } else {
        double k[3] = {n[2], 0.0, -n[0]}, f = 1.0 / (1.0 + n[1]); /* +Y x n, 1 / (1 + cos) */
        double K[9] = {0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0}, K2[9];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) K2[3 * i + j] = K[3 * i] * K[j] + K[3 * i + 1] * K[3 + j] + K[3 * i + 2] * K[6 + j];
        for (int i = 0; i < 9; i++) a[i] = a[i] + K[i] + K2[i] * f;
    }
    double th = spin_deg * (3.14159265358979323846 / 180.0), cs = cos(th), sn = sin(th);
    if (spin_deg == 0) cs = 1, sn = 0;
    double N[9] = {0, -n[2], n[1], n[2], 0, -n[0], -n[1], n[0], 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) s[3 * i + j] = (i == j ? cs : 0.0) + sn * N[3 * i + j] + (1.0 - cs) * n[i] * n[j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[3 * i + j] = s[3 * i] * a[j] + s[3 * i + 1] * a[3 + j] + s[3 * i + 2] * a[6 + j];
}
/* Q = S^-1 M^T (a shape's inverse deformation, HYTALE.md §4.6), row-major into b */
static int shape_matrix(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, const char *spin_key, int scaled, cbuf *b)
{
    double n[3], sc[3] = {1, 1, 1}, spin = 0, m[9];
    if (unit3(c, ks, o, at, "NewYAxis", vec_y, n) < 0 || field_num(&c->f, ks, o, at, spin_key, 0, 0, &spin) < 0) return -1;
    if (scaled) {
        if (vec3(c, ks, o, at, "Scale", vec_one, sc) < 0) return -1;
        if (sc[0] == 0 || sc[1] == 0 || sc[2] == 0) return field_fail(&c->f, field_key(&c->f, at, "Scale"), CF_ERR_SCHEMA, "a Scale component is 0");
    }
    hy_rotation(n, spin, m);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (cput(c, b, m[3 * j + i] / sc[i]) < 0) return -1;
    return 0;
}

/* ---- one parser per kind: hyparse_<KIND>(c, ks, o, at, n, type) */
#define U __attribute__((unused))
#define HYPARSE(K) static int hyparse_##K(U hc *c, U cf_keys *ks, U const cJSON *o, U cf_loc at, U cf_node *n, U const char *type)

HYPARSE(HY_CONSTANT) { return inputs(c, ks, o, at, n, 0, type) < 0 ? -1 : field_num(&c->f, ks, o, at, "Value", CF_REQUIRED, NAN, &n->d[0]); }
HYPARSE(HY_XVALUE) { return inputs(c, ks, o, at, n, 0, type); }
HYPARSE(HY_YVALUE) { return inputs(c, ks, o, at, n, 0, type); }
HYPARSE(HY_ZVALUE) { return inputs(c, ks, o, at, n, 0, type); }
static int override(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, const char *type)
{
    return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_num(&c->f, ks, o, at, "Value", CF_REQUIRED, NAN, &n->d[0]);
}
HYPARSE(HY_XOVERRIDE) { return override(c, ks, o, at, n, type); }
HYPARSE(HY_YOVERRIDE) { return override(c, ks, o, at, n, type); }
HYPARSE(HY_ZOVERRIDE) { return override(c, ks, o, at, n, type); }
HYPARSE(HY_SUM) { return inputs(c, ks, o, at, n, -1, type); }
HYPARSE(HY_MULTIPLIER) { return inputs(c, ks, o, at, n, -1, type); }
HYPARSE(HY_MAX) { return inputs(c, ks, o, at, n, -1, type); }
HYPARSE(HY_MIN) { return inputs(c, ks, o, at, n, -1, type); }
HYPARSE(HY_ABS) { return inputs(c, ks, o, at, n, 1, type); }
HYPARSE(HY_INVERTER) { return inputs(c, ks, o, at, n, 1, type); }
HYPARSE(HY_SQRT) { return inputs(c, ks, o, at, n, 1, type); }
HYPARSE(HY_POW) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_num(&c->f, ks, o, at, "Exponent", CF_REQUIRED, NAN, &n->d[0]); }
HYPARSE(HY_OFFSETC) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_num_in(&c->f, ks, o, at, "Value", "Offset", CF_REQUIRED, NAN, -HUGE_VAL, HUGE_VAL, &n->d[0]); }
HYPARSE(HY_AMPC) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_num_in(&c->f, ks, o, at, "Value", "Amplitude", CF_REQUIRED, NAN, -HUGE_VAL, HUGE_VAL, &n->d[0]); }
HYPARSE(HY_OFFSET) { return inputs(c, ks, o, at, n, 2, type); }
HYPARSE(HY_AMPLITUDE) { return inputs(c, ks, o, at, n, 2, type); }
HYPARSE(HY_NORMALIZER)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0) return -1;
    return field_num(&c->f, ks, o, at, "FromMin", CF_REQUIRED, NAN, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "FromMax", CF_REQUIRED, NAN, &n->d[1]) < 0
                   || field_num(&c->f, ks, o, at, "ToMin", CF_REQUIRED, NAN, &n->d[2]) < 0 || field_num(&c->f, ks, o, at, "ToMax", CF_REQUIRED, NAN, &n->d[3]) < 0
               ? -1
               : 0;
}
static int walls(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n)
{
    double a = 0, b = 0;
    if (field_num(&c->f, ks, o, at, "WallA", CF_REQUIRED, NAN, &a) < 0 || field_num(&c->f, ks, o, at, "WallB", CF_REQUIRED, NAN, &b) < 0) return -1;
    n->d[0] = cf_hy_jmin(a, b), n->d[1] = cf_hy_jmax(a, b);
    return 0;
}
static int range(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, double *k)
{
    if (field_num(&c->f, ks, o, at, "Range", CF_REQUIRED, NAN, k) < 0) return -1;
    if (*k < 0) return field_fail(&c->f, field_key(&c->f, at, "Range"), CF_ERR_SCHEMA, "expected Range >= 0, found %.17g", *k);
    return 0;
}
HYPARSE(HY_CLAMP) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : walls(c, ks, o, at, n); }
HYPARSE(HY_FLOOR) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_num_in(&c->f, ks, o, at, "Limit", "Floor", CF_REQUIRED, NAN, -HUGE_VAL, HUGE_VAL, &n->d[0]); }
HYPARSE(HY_CEILING) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_num_in(&c->f, ks, o, at, "Limit", "Ceiling", CF_REQUIRED, NAN, -HUGE_VAL, HUGE_VAL, &n->d[0]); }
HYPARSE(HY_SMAX) { return inputs(c, ks, o, at, n, 2, type) < 0 ? -1 : range(c, ks, o, at, &n->d[0]); }
HYPARSE(HY_SMIN) { return inputs(c, ks, o, at, n, 2, type) < 0 ? -1 : range(c, ks, o, at, &n->d[0]); }
HYPARSE(HY_SCLAMP) { return inputs(c, ks, o, at, n, 1, type) < 0 || walls(c, ks, o, at, n) < 0 ? -1 : range(c, ks, o, at, &n->d[2]); }
HYPARSE(HY_SFLOOR)
{
    return inputs(c, ks, o, at, n, 1, type) < 0 || field_num_in(&c->f, ks, o, at, "Limit", "Floor", CF_REQUIRED, NAN, -HUGE_VAL, HUGE_VAL, &n->d[0]) < 0 ? -1 : range(c, ks, o, at, &n->d[1]);
}
HYPARSE(HY_SCEILING)
{
    return inputs(c, ks, o, at, n, 1, type) < 0 || field_num_in(&c->f, ks, o, at, "Limit", "Ceiling", CF_REQUIRED, NAN, -HUGE_VAL, HUGE_VAL, &n->d[0]) < 0 ? -1
                                                                                                             : range(c, ks, o, at, &n->d[1]);
}
HYPARSE(HY_MIX) { return inputs(c, ks, o, at, n, 3, type); }
HYPARSE(HY_MULTIMIX)
{
    if (inputs(c, ks, o, at, n, -3, type) < 0) return -1;
    const cJSON *k = field_get(&c->f, ks, o, "Keys");
    cf_loc ka = field_key(&c->f, at, "Keys");
    if (!k) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Keys\" (%d numbers, one per density input)", n->nin - 1);
    if (!cJSON_IsArray(k) || cJSON_GetArraySize(k) != n->nin - 1)
        return field_fail(&c->f, ka, CF_ERR_SCHEMA, "expected %d keys (one per density input; the last input is the gauge), found %s%s", n->nin - 1,
                    cJSON_IsArray(k) ? "a different count" : json_type(k), "");
    double *d = arena_alloc(&c->p->arena, sizeof(double) * (size_t)n->nin);
    if (!d) return field_nomem(&c->f);
    int i = 0;
    for (const cJSON *e = k->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return field_fail(&c->f, field_index(&c->f, ka, i), CF_ERR_SCHEMA, "expected a finite number, found %s", json_type(e));
        d[i] = e->valuedouble;
        if (i && !(d[i] > d[i - 1])) return field_fail(&c->f, field_index(&c->f, ka, i), CF_ERR_SCHEMA, "keys must increase strictly (%.17g after %.17g)", d[i], d[i - 1]);
    }
    n->da = d, n->nda = n->nin - 1;
    return 0;
}
HYPARSE(HY_CURVEMAPPER) { return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : curve(c, ks, o, at, "Curve", n); }
HYPARSE(HY_SCALE)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0) return -1;
    static const char *const k[3][2] = {{"ScaleX", "X"}, {"ScaleY", "Y"}, {"ScaleZ", "Z"}};
    for (int a = 0; a < 3; a++) {
        if (field_num_in(&c->f, ks, o, at, k[a][0], k[a][1], 0, 1.0, -HUGE_VAL, HUGE_VAL, &n->d[a]) < 0) return -1;
        if (n->d[a] == 0) return field_fail(&c->f, at, CF_ERR_SCHEMA, "%s is 0 (a scale must not be zero)", k[a][0]);
    }
    return 0;
}
HYPARSE(HY_SLIDER)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0) return -1;
    return field_num(&c->f, ks, o, at, "SlideX", 0, 0, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "SlideY", 0, 0, &n->d[1]) < 0
                   || field_num(&c->f, ks, o, at, "SlideZ", 0, 0, &n->d[2]) < 0
               ? -1
               : 0;
}
HYPARSE(HY_DISTANCE) { return inputs(c, ks, o, at, n, 0, type) < 0 ? -1 : curve(c, ks, o, at, "Curve", n); }
HYPARSE(HY_CUBE) { return inputs(c, ks, o, at, n, 0, type) < 0 ? -1 : curve(c, ks, o, at, "Curve", n); }

static const char *const cell_types[] = {"CellValue", "Distance", "Distance2", "Distance2Add", "Distance2Sub", "Distance2Mul", "Distance2Div", NULL};
static const char *const dist_names[] = {"Euclidean", "EuclideanSq", "Manhattan", "Hybrid", NULL};
/* d[0..2] scales (x, y, z), f[0] jitter, i[0] seed hash, i[1] distance, i[2] return type, i[3] octaves */
static int cell(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, const char *type, int three)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0) return -1;
    double s = NAN, j = 1;
    const cJSON *sv = field_get(&c->f, ks, o, "Scale");
    if (sv && field_num(&c->f, ks, o, at, "Scale", CF_REQUIRED, NAN, &s) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "ScaleX", isnan(s) ? CF_REQUIRED : 0, s, &n->d[0]) < 0 || (three && field_num(&c->f, ks, o, at, "ScaleY", isnan(s) ? CF_REQUIRED : 0, s, &n->d[1]) < 0)
        || field_num(&c->f, ks, o, at, "ScaleZ", isnan(s) ? CF_REQUIRED : 0, s, &n->d[2]) < 0)
        return -1;
    if (sv && (cJSON_GetObjectItemCaseSensitive(o, "ScaleX") || cJSON_GetObjectItemCaseSensitive(o, "ScaleZ")))
        return field_fail(&c->f, field_key(&c->f, at, "Scale"), CF_ERR_SCHEMA, "both \"Scale\" and ScaleX/ScaleZ: give one");
    if (!three) n->d[1] = 1.0;
    for (int a = 0; a < 3; a++)
        if (n->d[a] == 0) return field_fail(&c->f, at, CF_ERR_SCHEMA, "a cell scale is 0");
    if (field_num(&c->f, ks, o, at, "Jitter", 0, HY_CELL_DEFAULT_JITTER, &j) < 0) return -1;
    n->f[0] = (float)j;
    if (name_of(c, ks, o, at, "CellType", "ReturnType", cell_types, -1, 0, &n->i[2]) < 0) return -1;
    if (name_of(c, ks, o, at, "DistanceFunction", NULL, dist_names, HY_CELL_DEFAULT_DISTANCE, 1, &n->i[1]) < 0) return -1;
    if (field_int(&c->f, ks, o, at, "Octaves", 0, 1, 1, 32, &n->i[3]) < 0) return -1;
    return seed(c, ks, o, at, n);
}
HYPARSE(HY_CELL2D) { return cell(c, ks, o, at, n, type, 0); }
HYPARSE(HY_CELL3D) { return cell(c, ks, o, at, n, type, 1); }
/* d[0] WarpScale, d[1] WarpFactor, d[2] lacunarity, d[3] persistence; i[0] seed, i[1] octaves, i[2] 2D */
HYPARSE(HY_FASTWARP)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "WarpScale", CF_REQUIRED, NAN, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "WarpFactor", CF_REQUIRED, NAN, &n->d[1]) < 0
        || field_num(&c->f, ks, o, at, "WarpLacunarity", 0, 2.0, &n->d[2]) < 0 || field_num(&c->f, ks, o, at, "WarpPersistence", 0, 0.5, &n->d[3]) < 0
        || field_int(&c->f, ks, o, at, "WarpOctaves", 0, 1, 1, 32, &n->i[1]) < 0 || field_bool(&c->f, ks, o, at, "2D", 0, HY_WARP_DEFAULT_2D, &n->i[2]) < 0)
        return -1;
    if (n->d[0] == 0) return field_fail(&c->f, field_key(&c->f, at, "WarpScale"), CF_ERR_SCHEMA, "WarpScale is 0");
    return seed(c, ks, o, at, n);
}
HYPARSE(HY_WHITENOISE) { return inputs(c, ks, o, at, n, 0, type) < 0 ? -1 : seed(c, ks, o, at, n); }
/* d[0] Scale, d[1] lacunarity, d[2] persistence; i[0] seed, i[1] octaves */
HYPARSE(HY_SIMPLEX2D)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "Scale", CF_REQUIRED, NAN, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "Lacunarity", CF_REQUIRED, NAN, &n->d[1]) < 0
        || field_num(&c->f, ks, o, at, "Persistence", CF_REQUIRED, NAN, &n->d[2]) < 0 || field_int(&c->f, ks, o, at, "Octaves", CF_REQUIRED, 0, 1, 32, &n->i[1]) < 0)
        return -1;
    if (n->d[0] == 0) return field_fail(&c->f, field_key(&c->f, at, "Scale"), CF_ERR_SCHEMA, "Scale is 0");
    return seed(c, ks, o, at, n);
}
HYPARSE(HY_CACHE)
{
    int cap = 0;
    return inputs(c, ks, o, at, n, 1, type) < 0 ? -1 : field_int(&c->f, ks, o, at, "Capacity", 0, 3, 0, 1 << 20, &cap);
}
HYPARSE(HY_LSCALE) { return field_fail(&c->f, at, CF_ERR_SCHEMA, "internal: legacy wrappers are not written in JSON"); }
/* ---- legacy (hytale-legacy): lowered legacy forms, never written in V2 JSON ---- */
#define HY_LEGACY_KIND(K) \
    HYPARSE(K) { return field_fail(&c->f, at, CF_ERR_SCHEMA, "internal: legacy forms are not written in JSON"); }
HY_LEGACY_KIND(HY_LNOISE)
HY_LEGACY_KIND(HY_LPOINT)
HY_LEGACY_KIND(HY_LFORMULA)
HY_LEGACY_KIND(HY_LROTATE)
HY_LEGACY_KIND(HY_LDISTORT)
HY_LEGACY_KIND(HY_LGRADIENT)
HY_LEGACY_KIND(HY_LCURVE)
/* ---- end legacy ---- */
HYPARSE(HY_EXTERNAL) { return field_fail(&c->f, at, CF_ERR_SCHEMA, "internal: external nodes are not written in JSON"); }

/* ---- V2 (hytale-v2): node parsers ---- */
/* shapes: da = [Q (9, row-major), curve program(s)] */
static int shape(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, const char *type, const char *spin_key, int scaled,
                 const char *c1, const char *c2)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0) return -1;
    cbuf b = {0};
    if (shape_matrix(c, ks, o, at, spin_key, scaled, &b) < 0 || curve_prog(c, ks, o, at, c1, &b) < 0
        || (c2 && curve_prog(c, ks, o, at, c2, &b) < 0))
        return free(b.d), -1;
    return cbuf_to_node(c, &b, n);
}
HYPARSE(HY_ROTATOR)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0) return -1;
    cbuf b = {0};
    if (shape_matrix(c, ks, o, at, "SpinAngle", 0, &b) < 0) return free(b.d), -1;
    return cbuf_to_node(c, &b, n);
}
HYPARSE(HY_ELLIPSOID) { return shape(c, ks, o, at, n, type, "Spin", 1, "Curve", NULL); }
HYPARSE(HY_CUBOID) { return shape(c, ks, o, at, n, type, "Spin", 1, "Curve", NULL); }
HYPARSE(HY_CYLINDER) { return shape(c, ks, o, at, n, type, "Spin", 0, "AxialCurve", "RadialCurve"); }
/* Axis / Plane: d[0..2] the unit vector, i[0] IsAnchored (measured in the local frame, which an
 * enclosing Anchor already moved to the anchor: choice), da the curve */
static int axis_like(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, const char *type, const char *key)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0 || unit3(c, ks, o, at, key, NULL, n->d) < 0 || field_bool(&c->f, ks, o, at, "IsAnchored", 0, 0, &n->i[0]) < 0)
        return -1;
    return curve(c, ks, o, at, "Curve", n);
}
HYPARSE(HY_AXIS) { return axis_like(c, ks, o, at, n, type, "Axis"); }
HYPARSE(HY_PLANE) { return axis_like(c, ks, o, at, n, type, "PlaneNormal"); }
HYPARSE(HY_SHELL)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0 || unit3(c, ks, o, at, "Axis", NULL, n->d) < 0 || field_bool(&c->f, ks, o, at, "Mirror", 0, 0, &n->i[0]) < 0)
        return -1;
    cbuf b = {0};
    if (curve_prog(c, ks, o, at, "AngleCurve", &b) < 0 || curve_prog(c, ks, o, at, "DistanceCurve", &b) < 0) return free(b.d), -1;
    return cbuf_to_node(c, &b, n);
}
/* Angle with a DensityGradient provider (a Constant provider folds to a Constant in node_obj):
 * d[0..2] Vector, d[3] SampleDistance, in[0] the provider's Density */
HYPARSE(HY_ANGLE)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0 || vec3(c, ks, o, at, "Vector", NULL, n->d) < 0) return -1;
    const cJSON *vp = field_get(&c->f, ks, o, "VectorProvider");
    cf_loc va = field_key(&c->f, at, "VectorProvider");
    if (!vp) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"VectorProvider\"");
    const cJSON *t = cJSON_IsObject(vp) ? cJSON_GetObjectItemCaseSensitive(vp, "Type") : NULL;
    if (!t || !cJSON_IsString(t)) return field_fail(&c->f, va, CF_ERR_SCHEMA, "expected a vector provider (an object with \"Type\"), found %s", json_type(vp));
    if (strcmp(t->valuestring, "DensityGradient") != 0)
        return field_fail(&c->f, field_key(&c->f, va, "Type"), HY_ERR_UNSUPPORTED, "Angle: vector provider \"%s\" is not implemented yet (Constant, DensityGradient)",
                    t->valuestring);
    cf_keys vs = {{0}, 0};
    field_get(&c->f, &vs, vp, "Type");
    if (field_num(&c->f, &vs, vp, va, "SampleDistance", 0, 1.0, &n->d[3]) < 0) return -1;
    if (!(n->d[3] > 0)) return field_fail(&c->f, field_key(&c->f, va, "SampleDistance"), CF_ERR_SCHEMA, "SampleDistance must be > 0");
    const cJSON *dn = field_get(&c->f, &vs, vp, "Density");
    if (!dn) return field_fail(&c->f, va, CF_ERR_SCHEMA, "missing \"Density\" (the density whose gradient is the vector)");
    if (field_unknown(&c->f, &vs, vp, va, CF_DOLLAR_COMMENTS, "for vector provider \"DensityGradient\"") < 0) return -1;
    n->nin = 1;
    n->in = arena_alloc(&c->p->arena, sizeof(int));
    if (!n->in) return field_nomem(&c->f);
    return (n->in[0] = node(c, dn, field_key(&c->f, va, "Density"))) < 0 ? -1 : 0;
}
HYPARSE(HY_GRADIENT)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0 || field_num(&c->f, ks, o, at, "From", CF_REQUIRED, NAN, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "To", CF_REQUIRED, NAN, &n->d[1]) < 0
        || field_num(&c->f, ks, o, at, "FromY", CF_REQUIRED, NAN, &n->d[2]) < 0 || field_num(&c->f, ks, o, at, "ToY", CF_REQUIRED, NAN, &n->d[3]) < 0)
        return -1;
    if (!(n->d[2] < n->d[3])) return field_fail(&c->f, field_key(&c->f, at, "ToY"), CF_ERR_SCHEMA, "Gradient needs FromY < ToY");
    return 0;
}
HYPARSE(HY_YSAMPLED)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0 || field_num(&c->f, ks, o, at, "SampleDistance", CF_REQUIRED, NAN, &n->d[0]) < 0
        || field_num(&c->f, ks, o, at, "SampleOffset", 0, 0, &n->d[1]) < 0 || field_bool(&c->f, ks, o, at, "Interpolate", 0, HY_YSAMPLED_DEFAULT_INTERPOLATE, &n->i[0]) < 0)
        return -1;
    if (!(n->d[0] > 0)) return field_fail(&c->f, field_key(&c->f, at, "SampleDistance"), CF_ERR_SCHEMA, "SampleDistance must be > 0");
    return 0;
}
/* d[0] WarpFactor, d[1] SampleRange, d[2] YFor2D; i[0] 2D */
HYPARSE(HY_GRADWARP)
{
    if (inputs(c, ks, o, at, n, 2, type) < 0 || field_num(&c->f, ks, o, at, "WarpFactor", CF_REQUIRED, NAN, &n->d[0]) < 0
        || field_num(&c->f, ks, o, at, "SampleRange", 0, 1.0, &n->d[1]) < 0 || field_bool(&c->f, ks, o, at, "2D", 0, 0, &n->i[0]) < 0
        || field_num(&c->f, ks, o, at, "YFor2D", 0, 0, &n->d[2]) < 0)
        return -1;
    if (!(n->d[1] > 0)) return field_fail(&c->f, field_key(&c->f, at, "SampleRange"), CF_ERR_SCHEMA, "SampleRange must be > 0");
    return 0;
}
/* d[0] WarpFactor, d[1..3] the unit WarpVector */
HYPARSE(HY_VECWARP)
{
    return inputs(c, ks, o, at, n, 2, type) < 0 || field_num(&c->f, ks, o, at, "WarpFactor", CF_REQUIRED, NAN, &n->d[0]) < 0 ? -1
                                                                                                       : unit3(c, ks, o, at, "WarpVector", NULL, n->d + 1);
}
/* d[0] ScaleXZ, d[1] ScaleY, d[2] lacunarity, d[3] persistence; i[0] seed, i[1] octaves */
HYPARSE(HY_SIMPLEX3D)
{
    if (inputs(c, ks, o, at, n, 0, type) < 0) return -1;
    if (field_num(&c->f, ks, o, at, "ScaleXZ", CF_REQUIRED, NAN, &n->d[0]) < 0 || field_num(&c->f, ks, o, at, "ScaleY", CF_REQUIRED, NAN, &n->d[1]) < 0
        || field_num(&c->f, ks, o, at, "Lacunarity", CF_REQUIRED, NAN, &n->d[2]) < 0 || field_num(&c->f, ks, o, at, "Persistence", CF_REQUIRED, NAN, &n->d[3]) < 0
        || field_int(&c->f, ks, o, at, "Octaves", CF_REQUIRED, 0, 1, 32, &n->i[1]) < 0)
        return -1;
    if (n->d[0] == 0 || n->d[1] == 0) return field_fail(&c->f, at, CF_ERR_SCHEMA, "ScaleXZ and ScaleY must not be 0");
    return seed(c, ks, o, at, n);
}
/* Anchor (HYTALE.md §6): no positions node supplies an anchor, so the anchor is the external
 * input hytale.anchor.x/y/z (a constant or a map): in = {child, ax, ay, az}; i[0] Reverse */
HYPARSE(HY_ANCHOR)
{
    if (inputs(c, ks, o, at, n, 1, type) < 0 || field_bool(&c->f, ks, o, at, "Reverse", 0, 0, &n->i[0]) < 0) return -1;
    int *in = arena_alloc(&c->p->arena, 4 * sizeof(int));
    if (!in) return field_nomem(&c->f);
    in[0] = n->in[0];
    static const char *const axis[3] = {"hytale.anchor.x", "hytale.anchor.y", "hytale.anchor.z"};
    for (int k = 0; k < 3; k++)
        if ((in[k + 1] = external(c, axis[k], at)) < 0) return -1;
    n->in = in, n->nin = 4;
    return 0;
}
/* PositionsCellNoise (HYTALE.md §6): da = the cf_hy_pcell program (kernels/cf_hytale.h), then the
 * Curve's program; in[0] the CellValue Density; d[0] DefaultValue */
typedef struct pinfo {
    int base, nops, nl;
    double s[3], dmax; /* the product of the scales, the bound on the jitter displacement */
    cbuf ops, pts;
} pinfo;
/* an object of Type what that reads key (NULL: none) */
static int keys_only(hc *c, const cJSON *o, cf_loc at, const char *what, const char *key)
{
    const cf_keys ks = {{"Type", key}, key ? 2 : 1};
    return field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for %s", what);
}
static int provider(hc *c, const cJSON *v, cf_loc at, pinfo *pi, int depth)
{
    const cJSON *t = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "Type") : NULL;
    if (!t || !cJSON_IsString(t)) return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a positions provider (an object with \"Type\"), found %s", json_type(v));
    if (depth > 32) return field_fail(&c->f, at, CF_ERR_LIMIT, "positions providers nested deeper than 32");
    const char *ty = t->valuestring;
    cf_keys ks = {{0}, 0};
    if (!strcmp(ty, "SquareGrid2d") || !strcmp(ty, "SquareGrid3d") || !strcmp(ty, "TriangularGrid2d")) {
        pi->base = ty[0] == 'T' ? CF_HY_PB_TRI2 : ty[10] == '3' ? CF_HY_PB_SQ3 : CF_HY_PB_SQ2;
        pi->s[0] = pi->s[1] = pi->s[2] = 1.0, pi->dmax = 0;
        return keys_only(c, v, at, ty, NULL);
    }
    if (!strcmp(ty, "List")) {
        if (keys_only(c, v, at, "List", "Positions") < 0) return -1;
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(v, "Positions");
        cf_loc pa = field_key(&c->f, at, "Positions");
        if (!cJSON_IsArray(ps)) return field_fail(&c->f, ps ? pa : at, CF_ERR_SCHEMA, "List needs \"Positions\" (an array of {\"X\", \"Y\", \"Z\"})");
        int m = cJSON_GetArraySize(ps), i = 0;
        if (m < 1 || m > HY_PCELL_MAX_LIST) return field_fail(&c->f, pa, CF_ERR_LIMIT, "List holds %d positions (1 to %d)", m, HY_PCELL_MAX_LIST);
        for (const cJSON *e = ps->child; e; e = e->next, i++) {
            double q[3] = {0, 0, 0};
            if (vec3_value(c, e, field_index(&c->f, pa, i), q) < 0) return -1;
            for (int a = 0; a < 3; a++)
                if (cput(c, &pi->pts, q[a]) < 0) return -1;
        }
        pi->base = CF_HY_PB_LIST, pi->nl = m, pi->s[0] = pi->s[1] = pi->s[2] = 1.0, pi->dmax = 0;
        return 0;
    }
    int sc = !strcmp(ty, "Scaler"), j2 = !strcmp(ty, "Jitter2d"), j3 = !strcmp(ty, "Jitter3d");
    if (!sc && !j2 && !j3)
        return field_fail(&c->f, field_key(&c->f, at, "Type"), HY_ERR_UNSUPPORTED,
                    "positions provider \"%s\" is not implemented (SquareGrid2d, SquareGrid3d, TriangularGrid2d, Scaler, Jitter2d, Jitter3d, List)", ty);
    const cJSON *inner = field_get(&c->f, &ks, v, "Positions");
    if (!inner) return field_fail(&c->f, at, CF_ERR_SCHEMA, "%s needs \"Positions\" (the provider it changes)", ty);
    if (provider(c, inner, field_key(&c->f, at, "Positions"), pi, depth + 1) < 0) return -1;
    double op[4] = {0, 0, 0, 0};
    if (sc) {
        if (vec3(c, &ks, v, at, "Scale", NULL, op + 1) < 0) return -1;
        for (int a = 0; a < 3; a++)
            if (!(op[a + 1] > 0)) return field_fail(&c->f, field_key(&c->f, at, "Scale"), CF_ERR_SCHEMA, "Scaler scales must be > 0");
        for (int a = 0; a < 3; a++) pi->s[a] *= op[a + 1];
        pi->dmax *= cf_hy_jmax(cf_hy_jmax(op[1], op[2]), op[3]);
    } else {
        if (pi->base == CF_HY_PB_LIST) return field_fail(&c->f, field_key(&c->f, at, "Type"), HY_ERR_UNSUPPORTED, "%s of a List is not implemented", ty);
        if (j3 && pi->base != CF_HY_PB_SQ3) return field_fail(&c->f, field_key(&c->f, at, "Type"), CF_ERR_SCHEMA, "Jitter3d needs a 3-D provider (SquareGrid3d)");
        cf_node tmp;
        memset(&tmp, 0, sizeof tmp);
        if (field_num(&c->f, &ks, v, at, "Magnitude", CF_REQUIRED, NAN, &op[1]) < 0 || seed(c, &ks, v, at, &tmp) < 0) return -1;
        if (!(op[1] >= 0)) return field_fail(&c->f, field_key(&c->f, at, "Magnitude"), CF_ERR_SCHEMA, "Magnitude must be >= 0");
        op[0] = j2 ? 1 : 2, op[2] = (double)tmp.i[0];
        pi->dmax += op[1];
    }
    field_get(&c->f, &ks, v, "Type");
    if (field_unknown(&c->f, &ks, v, at, CF_DOLLAR_COMMENTS, "for %s", ty) < 0) return -1;
    for (int a = 0; a < 4; a++)
        if (cput(c, &pi->ops, op[a]) < 0) return -1;
    pi->nops++;
    return 0;
}
static const char *const pcell_types[] = {"CellValue", "Curve", "Distance", "Distance2", "Distance2Add", "Distance2Sub", "Distance2Mul", "Distance2Div", "Density"};
static int pcell(hc *c, cf_keys *ks, const cJSON *o, cf_loc at, cf_node *n, pinfo *pi, cbuf *b)
{
    double R = 0;
    int df = 0, rt = 0;
    static const char *const dfn[] = {"Euclidean", "Manhattan", NULL};
    if (field_num(&c->f, ks, o, at, "MaxDistance", CF_REQUIRED, NAN, &R) < 0 || name_of(c, ks, o, at, "DistanceFunction", NULL, dfn, 0, 1, &df) < 0) return -1;
    if (!(R > 0)) return field_fail(&c->f, field_key(&c->f, at, "MaxDistance"), CF_ERR_SCHEMA, "MaxDistance must be > 0");
    const cJSON *pv = field_get(&c->f, ks, o, "Positions");
    if (!pv) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Positions\" (a positions provider)");
    if (provider(c, pv, field_key(&c->f, at, "Positions"), pi, 0) < 0) return -1;
    const cJSON *rv = field_get(&c->f, ks, o, "ReturnType");
    cf_loc ra = field_key(&c->f, at, "ReturnType");
    if (!rv) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"ReturnType\"");
    const cJSON *rtn = cJSON_IsObject(rv) ? cJSON_GetObjectItemCaseSensitive(rv, "Type") : rv;
    cf_loc ta = cJSON_IsObject(rv) ? field_key(&c->f, ra, "Type") : ra;
    if (!cJSON_IsString(rtn)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected a return type name, found %s", json_type(rtn));
    rt = -1;
    for (int i = 0; i < 9; i++)
        if (strcmp(rtn->valuestring, pcell_types[i]) == 0) rt = i;
    if (rt < 0)
        return field_fail(&c->f, ta, CF_ERR_SCHEMA, "unknown return type \"%s\" (CellValue, Curve, Distance, Distance2, Distance2Add, Distance2Sub, Distance2Mul, Distance2Div, Density)",
                    rtn->valuestring);
    if (rt == 8) return field_fail(&c->f, ta, HY_ERR_UNSUPPORTED, "return type Density is not implemented (the cell centre cannot be pushed as the Anchor)");
    cf_keys rs = {{0}, 0};
    n->nin = 0;
    if (rt == CF_HY_PR_CELLVALUE) {
        const cJSON *dn = field_get(&c->f, &rs, rv, "Density");
        if (!dn) return field_fail(&c->f, ra, CF_ERR_SCHEMA, "CellValue needs \"Density\"");
        if (field_num(&c->f, &rs, rv, ra, "DefaultValue", 0, 0.0, &n->d[0]) < 0) return -1;
        n->in = arena_alloc(&c->p->arena, sizeof(int));
        if (!n->in) return field_nomem(&c->f);
        n->nin = 1;
        if ((n->in[0] = node(c, dn, field_key(&c->f, ra, "Density"))) < 0) return -1;
    }
    int cnt[3] = {1, 1, 1};
    double rd = R + pi->dmax;
    if (pi->base == CF_HY_PB_LIST) {
        cnt[0] = pi->nl;
    } else {
        double sz = pi->base == CF_HY_PB_TRI2 ? pi->s[2] * CF_HY_TRI_H : pi->s[2];
        double w[3] = {pi->s[0], pi->base == CF_HY_PB_SQ3 ? pi->s[1] : 0, sz}, cells = 1;
        for (int a = 0; a < 3; a++) {
            if (w[a] == 0) continue;
            double k = ceil((2 * rd) / w[a]) + 3;
            cells *= k;
            if (!(cells <= HY_PCELL_MAX_CELLS))
                return field_fail(&c->f, field_key(&c->f, at, "MaxDistance"), CF_ERR_LIMIT,
                            "the nearest-position search would visit more than %d lattice cells (lower MaxDistance or Jitter, or scale the grid up)",
                            HY_PCELL_MAX_CELLS);
            cnt[a] = (int)k;
        }
    }
    double h[CF_HY_PC_HEAD] = {0};
    h[CF_HY_PC_R] = R, h[CF_HY_PC_BASE] = pi->base, h[CF_HY_PC_DF] = df, h[CF_HY_PC_SX] = pi->s[0], h[CF_HY_PC_SY] = pi->s[1];
    h[CF_HY_PC_SZ] = pi->s[2], h[CF_HY_PC_D] = pi->dmax, h[CF_HY_PC_NOPS] = pi->nops, h[CF_HY_PC_NL] = pi->nl;
    h[CF_HY_PC_NX] = cnt[0], h[CF_HY_PC_NY] = cnt[1], h[CF_HY_PC_NZ] = cnt[2], h[CF_HY_PC_RT] = rt;
    for (int k = 0; k < CF_HY_PC_HEAD; k++)
        if (cput(c, b, h[k]) < 0) return -1;
    for (int k = 0; k < pi->ops.n; k++)
        if (cput(c, b, pi->ops.d[k]) < 0) return -1;
    for (int k = 0; k < pi->pts.n; k++)
        if (cput(c, b, pi->pts.d[k]) < 0) return -1;
    if (rt == CF_HY_PR_CURVE) {
        b->d[CF_HY_PC_CURVE] = b->n;
        if (curve_prog(c, &rs, rv, ra, "Curve", b) < 0) return -1;
    }
    n->i[0] = rt;
    if (cJSON_IsObject(rv)) {
        field_get(&c->f, &rs, rv, "Type");
        if (field_unknown(&c->f, &rs, rv, ra, CF_DOLLAR_COMMENTS, "for return type %s", rtn->valuestring) < 0) return -1;
    }
    return 0;
}
HYPARSE(HY_PCELL)
{
    (void)type;
    pinfo pi;
    memset(&pi, 0, sizeof pi);
    cbuf b = {0};
    int r = pcell(c, ks, o, at, n, &pi, &b);
    free(pi.ops.d), free(pi.pts.d);
    if (r < 0) return free(b.d), -1;
    return cbuf_to_node(c, &b, n);
}
HYPARSE(HY_EXTMAP) { return field_fail(&c->f, at, CF_ERR_SCHEMA, "internal: external nodes are not written in JSON"); }

/* Switch (HYTALE.md §6 choice): SwitchCases [{"Case": state, "Density": node}] ("State"/"Name"
 * for the key, "Inputs": [node] for the node); folded while compiling: the case of the
 * current SwitchState, else the "Default" case; neither is an error (no silent zero) */
static int switch_node(hc *c, const cJSON *o, cf_loc at)
{
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(o, "SwitchCases");
    cf_loc ca = field_key(&c->f, at, "SwitchCases");
    {
        static const cf_keys known = {{"Type", "SwitchCases", "Skip", "ExportAs"}, 4};
        if (field_unknown(&c->f, &known, o, at, CF_DOLLAR_COMMENTS, "for Type \"Switch\"") < 0) return -1;
    }
    if (!cJSON_IsArray(cs)) return field_fail(&c->f, cs ? ca : at, CF_ERR_SCHEMA, "Switch needs \"SwitchCases\" (an array of {\"Case\", \"Density\"})");
    const cJSON *pick = NULL, *dflt = NULL;
    int i = 0, pi = -1, di = -1;
    for (const cJSON *e = cs->child; e; e = e->next, i++) {
        cf_loc ea = field_index(&c->f, ca, i);
        if (!cJSON_IsObject(e)) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "expected a case {\"Case\": state, \"Density\": node}, found %s", json_type(e));
        const cJSON *key = NULL;
        int nk = 0, nd = 0;
        for (const cJSON *k = e->child; k; k = k->next) {
            if (k->string[0] == '$') continue;
            if (!strcmp(k->string, "Case") || !strcmp(k->string, "State") || !strcmp(k->string, "Name")) key = k, nk++;
            else if (!strcmp(k->string, "Density") || !strcmp(k->string, "Inputs")) nd++;
            else return field_fail(&c->f, field_key(&c->f, ea, k->string), CF_ERR_SCHEMA, "unknown key \"%s\" (Case, Density)", k->string);
        }
        if (nk != 1 || !cJSON_IsString(key)) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "a case needs one \"Case\" (a state name string)");
        if (nd != 1) return field_fail(&c->f, ea, CF_ERR_SCHEMA, "a case needs one \"Density\" (or \"Inputs\": [node])");
        if (!pick && strcmp(key->valuestring, c->state) == 0) pick = e, pi = i;
        if (!dflt && strcmp(key->valuestring, "Default") == 0) dflt = e, di = i;
    }
    if (!pick) pick = dflt, pi = di;
    if (!pick) return field_fail(&c->f, ca, CF_ERR_SCHEMA, "no case for SwitchState \"%s\" and no \"Default\" case", c->state);
    cf_loc pa = field_index(&c->f, ca, pi);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(pick, "Density");
    if (d) return node(c, d, field_key(&c->f, pa, "Density"));
    d = cJSON_GetObjectItemCaseSensitive(pick, "Inputs");
    cf_loc ia = field_key(&c->f, pa, "Inputs");
    if (!cJSON_IsArray(d) || cJSON_GetArraySize(d) != 1) return field_fail(&c->f, ia, CF_ERR_SCHEMA, "a case takes 1 input");
    return node(c, d->child, field_index(&c->f, ia, 0));
}
/* SwitchState {SwitchState, Inputs[1]}: the input compiled under that state */
static int switch_state(hc *c, const cJSON *o, cf_loc at)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "SwitchState"), *in = cJSON_GetObjectItemCaseSensitive(o, "Inputs");
    {
        static const cf_keys known = {{"Type", "SwitchState", "Inputs", "Skip", "ExportAs"}, 5};
        if (field_unknown(&c->f, &known, o, at, CF_DOLLAR_COMMENTS, "for Type \"SwitchState\"") < 0) return -1;
    }
    if (!cJSON_IsString(st)) return field_fail(&c->f, st ? field_key(&c->f, at, "SwitchState") : at, CF_ERR_SCHEMA, "SwitchState needs \"SwitchState\" (a state name string)");
    if (!cJSON_IsArray(in) || cJSON_GetArraySize(in) != 1)
        return field_fail(&c->f, in ? field_key(&c->f, at, "Inputs") : at, CF_ERR_SCHEMA, "SwitchState takes 1 input, found %d", cJSON_IsArray(in) ? cJSON_GetArraySize(in) : 0);
    const char *old = c->state;
    c->state = st->valuestring;
    int r = node(c, in->child, field_index(&c->f, field_key(&c->f, at, "Inputs"), 0));
    c->state = old;
    return r;
}
/* Angle with a Constant provider: a constant (the same cf_hy_angle as the kernels) */
static int angle_const(hc *c, const cJSON *o, cf_loc at, int *out)
{
    const cJSON *vp = cJSON_GetObjectItemCaseSensitive(o, "VectorProvider");
    const cJSON *t = cJSON_IsObject(vp) ? cJSON_GetObjectItemCaseSensitive(vp, "Type") : NULL;
    if (!t || !cJSON_IsString(t) || strcmp(t->valuestring, "Constant") != 0) return 0;
    cf_keys ks = {{0}, 0};
    double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    field_get(&c->f, &ks, o, "Type");
    if (vec3(c, &ks, o, at, "Vector", NULL, a) < 0 || vec3(c, &ks, o, at, "VectorProvider", NULL, b) < 0) return -1;
    if (field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for Type \"Angle\"") < 0) return -1;
    return (*out = constant(c, cf_hy_angle(a[0], a[1], a[2], b[0], b[1], b[2]), at)) < 0 ? -1 : 1;
}

typedef int (*hyparse_fn)(hc *, cf_keys *, const cJSON *, cf_loc, cf_node *, const char *);
static const hyparse_fn hyparsers[NK_COUNT] = {
#define NODE64(K, name, flags, fields, summary) [NK_##K] = hyparse_##K,
#include "ir/nodes_hytale.def"
#undef NODE64
};

/* named types with no documented semantics (HYTALE.md §4.6) or not implemented yet */
static const char *const undocumented[] = {"Pipeline", "Selector", "Comparator", "Equal", "GreaterThan", "GreaterOrEqual", "LessThan",
                                           "LessOrEqual", "And", "Or", "Not", "Nor", "Xor", "Trig", "Positions3D", "CellWallDistance",
                                           "Graph", "DistanceToGraphEdge"};
/* HYTALE.md §6: displacement maths UNK, CF_ERR_UNSUPPORTED in v1 */
static const char *const no_maths[] = {"PositionsPinch", "PositionsTwist"};

/* an external input: a constant or a 2-D map from the pack's externals (cf_pack_set_external,
 * cf_pack_set_external_map); a map's samples are copied once into p->hy_maps */
static int external(hc *c, const char *name, cf_loc at)
{
    for (int i = 0; i < c->pk->next; i++)
        if (strcmp(c->pk->ext_names[i], name) == 0) {
            cf_node n;
            const cf_extmap *m = c->pk->ext_maps ? &c->pk->ext_maps[i] : NULL;
            if (!m || m->w == 0) {
                new_node(c, NK_HY_EXTERNAL, at, &n);
                n.d[0] = c->pk->ext_values[i];
                n.i[0] = java_string_hash(name);
                return node_add(c, &n);
            }
            size_t off = 0, cnt = (size_t)m->w * (size_t)m->h;
            int k = 0;
            while (k < c->nmaps && strcmp(c->mapname[k], name) != 0) k++;
            if (k < c->nmaps) {
                off = c->mapoff[k];
            } else {
                if (c->p->hy_nmaps + cnt > ((size_t)1 << 27))
                    return field_fail(&c->f, at, CF_ERR_LIMIT, "external maps larger than %d samples in all", 1 << 27);
                double *all = arena_alloc(&c->p->arena, sizeof(double) * (c->p->hy_nmaps + cnt));
                const char **nm = realloc(c->mapname, sizeof(char *) * (size_t)(c->nmaps + 1));
                if (nm) c->mapname = nm;
                size_t *mo = nm ? realloc(c->mapoff, sizeof(size_t) * (size_t)(c->nmaps + 1)) : NULL;
                if (mo) c->mapoff = mo;
                if (!all || !nm || !mo) return field_nomem(&c->f);
                if (c->p->hy_nmaps) memcpy(all, c->p->hy_maps, sizeof(double) * c->p->hy_nmaps);
                memcpy(all + c->p->hy_nmaps, m->data, sizeof(double) * cnt);
                off = c->p->hy_nmaps;
                c->p->hy_maps = all, c->p->hy_nmaps += cnt;
                c->mapname[c->nmaps] = c->pk->ext_names[i], c->mapoff[c->nmaps++] = off;
            }
            new_node(c, NK_HY_EXTMAP, at, &n);
            n.i[0] = java_string_hash(name), n.i[1] = (int)off, n.i[2] = m->w, n.i[3] = m->h;
            n.d[0] = m->x0, n.d[1] = m->z0, n.d[2] = m->step;
            return node_add(c, &n);
        }
    return field_fail(&c->f, at, CF_ERR_REF, "needs external input \"%s\" (supply it: --external %s=VALUE or =@MAP.npy)", name, name);
}

static int import(hc *c, const char *name, cf_loc at);

static int node_obj(hc *c, const cJSON *o, cf_loc at)
{
    cf_keys ks = {{0}, 0};
    const cJSON *t = field_get(&c->f, &ks, o, "Type");
    if (!t) return field_fail(&c->f, at, CF_ERR_SCHEMA, "missing \"Type\" (a density node type such as \"Sum\")");
    cf_loc ta = field_key(&c->f, at, "Type");
    if (!cJSON_IsString(t)) return field_fail(&c->f, ta, CF_ERR_SCHEMA, "expected a node type (a string), found %s", json_type(t));
    const char *type = t->valuestring;
    int skip = 0, result;
    if (field_bool(&c->f, &ks, o, at, "Skip", 0, 0, &skip) < 0) return -1;
    const cJSON *ex = field_get(&c->f, &ks, o, "ExportAs");
    if (ex && !cJSON_IsString(ex)) return field_fail(&c->f, field_key(&c->f, at, "ExportAs"), CF_ERR_SCHEMA, "expected a name (a string), found %s", json_type(ex));
    if (++c->depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d", c->pk->lim.max_depth);
    if (strcmp(type, "Exported") == 0 || strcmp(type, "Cache2D") == 0 || (skip && HY_SKIP_PASSTHROUGH)) {
        /* value-transparent: the node is its input (Exported's name was registered by the scan) */
        int single = 0;
        if (strcmp(type, "Exported") == 0 && field_bool(&c->f, &ks, o, at, "SingleInstance", 0, 0, &single) < 0) return -1;
        if (strcmp(type, "Cache2D") == 0) {
            int cap = 0;
            if (field_int(&c->f, &ks, o, at, "Capacity", 0, 3, 0, 1 << 20, &cap) < 0) return -1;
        }
        const cJSON *in = field_get(&c->f, &ks, o, "Inputs");
        cf_loc ia = field_key(&c->f, at, "Inputs");
        if (skip) {
            if (in && !cJSON_IsArray(in)) return field_fail(&c->f, ia, CF_ERR_SCHEMA, "expected an array of nodes, found %s", json_type(in));
            c->depth--;
            return in && cJSON_GetArraySize(in) > 0 ? node(c, in->child, field_index(&c->f, ia, 0)) : constant(c, 0.0, at);
        }
        if (!cJSON_IsArray(in) || cJSON_GetArraySize(in) != 1)
            return field_fail(&c->f, in ? ia : at, CF_ERR_SCHEMA, "%s takes 1 input, found %d", type, cJSON_IsArray(in) ? cJSON_GetArraySize(in) : 0);
        field_get(&c->f, &ks, o, "Inputs");
        if (strcmp(type, "Exported") == 0) field_get(&c->f, &ks, o, "ExportAs");
        if (field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for Type \"%s\"", type) < 0) return -1;
        result = node(c, in->child, field_index(&c->f, ia, 0));
        c->depth--;
        return result;
    }
    if (skip) {
        c->depth--;
        return constant(c, 0.0, at);
    }
    if (strcmp(type, "Imported") == 0) {
        const cJSON *nm = field_get(&c->f, &ks, o, "Name");
        if (!cJSON_IsString(nm)) return field_fail(&c->f, nm ? field_key(&c->f, at, "Name") : at, CF_ERR_SCHEMA, "Imported needs \"Name\" (a string)");
        {
            static const cf_keys known = {{"Type", "Name"}, 2};
            if (field_unknown(&c->f, &known, o, at, CF_DOLLAR_COMMENTS, "for Type \"Imported\"") < 0) return -1;
        }
        c->depth--;
        return import(c, nm->valuestring, field_key(&c->f, at, "Name"));
    }
    if (strcmp(type, "BaseHeight") == 0) {
        /* an external scalar (no WorldStructure): hytale.base_height.<Name>; Distance: y - B */
        const cJSON *nm = field_get(&c->f, &ks, o, "BaseHeightName");
        int dist = 0;
        if (!cJSON_IsString(nm)) return field_fail(&c->f, nm ? field_key(&c->f, at, "BaseHeightName") : at, CF_ERR_SCHEMA, "BaseHeight needs \"BaseHeightName\" (a string)");
        if (field_bool(&c->f, &ks, o, at, "Distance", 0, 0, &dist) < 0) return -1;
        if (field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for Type \"BaseHeight\"") < 0) return -1;
        char name[300];
        snprintf(name, sizeof name, "hytale.base_height.%s", nm->valuestring);
        int b = external(c, name, at);
        c->depth--;
        if (b < 0 || !dist) return b;
        /* y - B */
        cf_node y, s, neg;
        new_node(c, NK_HY_YVALUE, at, &y);
        int yi = node_add(c, &y);
        if (yi < 0) return -1;
        new_node(c, NK_HY_INVERTER, at, &neg);
        neg.nin = 1, neg.in = arena_alloc(&c->p->arena, sizeof(int));
        if (!neg.in) return field_nomem(&c->f);
        neg.in[0] = b;
        int ni = node_add(c, &neg);
        if (ni < 0) return -1;
        new_node(c, NK_HY_SUM, at, &s);
        s.nin = 2, s.in = arena_alloc(&c->p->arena, 2 * sizeof(int));
        if (!s.in) return field_nomem(&c->f);
        s.in[0] = yi, s.in[1] = ni;
        return node_add(c, &s);
    }
    if (strcmp(type, "DistanceToBiomeEdge") == 0 || strcmp(type, "Terrain") == 0) {
        {
            static const cf_keys known = {{"Type"}, 1};
            if (field_unknown(&c->f, &known, o, at, CF_DOLLAR_COMMENTS, "for Type \"%s\"", type) < 0) return -1;
        }
        c->depth--;
        return external(c, strcmp(type, "Terrain") == 0 ? "hytale.terrain" : "hytale.distance_to_biome_edge", at);
    }
    if (strcmp(type, "Switch") == 0 || strcmp(type, "SwitchState") == 0) {
        c->depth--;
        return type[6] == 0 ? switch_node(c, o, at) : switch_state(c, o, at);
    }
    if (strcmp(type, "Angle") == 0) {
        int folded = -1, r = angle_const(c, o, at, &folded);
        if (r != 0) return c->depth--, r < 0 ? -1 : folded;
    }
    int kind = -1;
    for (int k = 0; k < NK_COUNT; k++)
        if (hyparsers[k] && k != NK_HY_EXTERNAL && k != NK_HY_EXTMAP && strncmp(node_name[k] + 7, "legacy-", 7) != 0 && strcmp(node_name[k] + 7, type) == 0) kind = k;
    if (kind < 0) {
        for (size_t i = 0; i < sizeof undocumented / sizeof *undocumented; i++)
            if (strcmp(type, undocumented[i]) == 0)
                return field_fail(&c->f, ta, HY_ERR_UNSUPPORTED, "hytale: node type %s has no documented semantics", type);
        for (size_t i = 0; i < sizeof no_maths / sizeof *no_maths; i++)
            if (strcmp(type, no_maths[i]) == 0)
                return field_fail(&c->f, ta, HY_ERR_UNSUPPORTED, "hytale: node type %s has no documented displacement maths (not implemented)", type);
        return field_fail(&c->f, ta, CF_ERR_SCHEMA, "unknown Type \"%s\"", type);
    }
    cf_node n;
    new_node(c, kind, at, &n);
    if (hyparsers[kind](c, &ks, o, at, &n, type) < 0) return -1;
    if (field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for Type \"%s\"", type) < 0) return -1;
    c->depth--;
    return node_add(c, &n);
}

static int node(hc *c, const cJSON *v, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    if (cJSON_IsObject(v)) return node_obj(c, v, at);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) return constant(c, v->valuedouble, at); /* a bare number: Constant (choice) */
    return field_fail(&c->f, at, CF_ERR_SCHEMA, "expected a density node (an object with \"Type\"), found %s", json_type(v));
}

/* ------------------------------------------------------------------ exports */
static int add_export(hc *c, const char *name, const cJSON *v, cf_loc at, cf_loc name_at)
{
    for (int i = 0; i < c->nexps; i++)
        if (strcmp(c->exps[i].name, name) == 0) {
            char ptr[320];
            return field_fail(&c->f, name_at, CF_ERR_SCHEMA, "duplicate export \"%s\" (also at %s#%s)", name, c->exps[i].at.file,
                        ptr_text(c->exps[i].at.ptr, ptr, sizeof ptr));
        }
    if (c->nexps == c->capexps) {
        int cap = c->capexps ? 2 * c->capexps : 16;
        hexp *e = realloc(c->exps, sizeof *e * (size_t)cap);
        if (!e) return field_nomem(&c->f);
        c->exps = e, c->capexps = cap;
    }
    c->exps[c->nexps++] = (hexp){name, v, at, 0, -1, NULL};
    return 0;
}

/* finds Exported nodes and ExportAs keys anywhere in a file */
static int scan(hc *c, const cJSON *v, cf_loc at, int depth)
{
    if (depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d", c->pk->lim.max_depth);
    if (cJSON_IsObject(v)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "Type"), *ex = cJSON_GetObjectItemCaseSensitive(v, "ExportAs");
        if (cJSON_IsString(ex)) {
            if (add_export(c, ex->valuestring, v, at, field_key(&c->f, at, "ExportAs")) < 0) return -1;
        }
        (void)t;
        for (const cJSON *k = v->child; k; k = k->next)
            if (k->string[0] != '$' && (cJSON_IsObject(k) || cJSON_IsArray(k)) && scan(c, k, field_key(&c->f, at, k->string), depth + 1) < 0) return -1;
    } else if (cJSON_IsArray(v)) {
        int i = 0;
        for (const cJSON *k = v->child; k; k = k->next, i++)
            if ((cJSON_IsObject(k) || cJSON_IsArray(k)) && scan(c, k, field_index(&c->f, at, i), depth + 1) < 0) return -1;
    }
    return 0;
}

static int import(hc *c, const char *name, cf_loc at)
{
    hexp *e = NULL;
    for (int i = 0; i < c->nexps; i++)
        if (strcmp(c->exps[i].name, name) == 0) e = &c->exps[i];
    if (!e) return field_fail(&c->f, at, CF_ERR_REF, "no export named \"%s\" in hytale/Density", name);
    if (e->state == 1) return field_fail(&c->f, at, CF_ERR_CYCLE, "import cycle through \"%s\"", name);
    if (e->state == 2 && strcmp(e->sw, c->state) == 0) return e->node;
    /* the exported node itself, parsed without re-registering its ExportAs; an import
     * under another SwitchState is specialized (parsed again under that state) */
    int keep = e->state, keep_node = e->node;
    const char *keep_sw = e->sw;
    e->state = 1;
    int n = node(c, e->v, e->at);
    if (keep == 2 && n >= 0) {
        e->state = 2, e->node = keep_node, e->sw = keep_sw;
    } else {
        e->state = 2, e->node = n, e->sw = c->state;
    }
    return n;
}

/* Imported curves (HYTALE.md §5): a curve object carrying ExportAs, or an Exported node whose
 * input is a curve */
static int import_curve(hc *c, const char *name, cf_loc at, cbuf *b, int depth)
{
    hexp *e = NULL;
    for (int i = 0; i < c->nexps; i++)
        if (strcmp(c->exps[i].name, name) == 0) e = &c->exps[i];
    if (!e) return field_fail(&c->f, at, CF_ERR_REF, "no export named \"%s\" in hytale/Density", name);
    if (e->state == 1) return field_fail(&c->f, at, CF_ERR_CYCLE, "import cycle through \"%s\"", name);
    const cJSON *v = e->v;
    cf_loc va = e->at;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "Type");
    if (cJSON_IsString(t) && strcmp(t->valuestring, "Exported") == 0) {
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(v, "Inputs");
        if (!cJSON_IsArray(in) || cJSON_GetArraySize(in) != 1) return field_fail(&c->f, va, CF_ERR_SCHEMA, "Exported takes 1 input");
        v = in->child, va = field_index(&c->f, field_key(&c->f, va, "Inputs"), 0);
    }
    int keep = e->state;
    e->state = 1;
    int r = curve_ops(c, v, va, b, depth + 1);
    e->state = keep;
    return r;
}

/* ------------------------------------------------------------------ Part A: legacy noise assets
 * hytale/Noise/<ID>.json, function hytale:noise/ID. `Parent` inheritance is resolved
 * first (HYTALE.md §2.2: the child's fields replace the parent's; objects merge field by
 * field; arrays are replaced whole; a parent of another Type/NoiseType, a missing parent
 * and a cycle are errors), then the asset is lowered to V2 kinds and the legacy kinds of
 * nodes_hytale.def (legacy-noise, -point, -formula, -curve, -rotate, -distort, -gradient, -scale). Every
 * Type and NoiseType of HYTALE.md §2.5/§2.6 and every wrapper (§2.9 order) of tiers 1 and 2
 * is lowered; the tier-3 types and values (§2.10) are located "not supported" errors, as the
 * spec prescribes. The UNK choices are the "legacy choices" block below. */
static int valid_name(const char *s);
#define HY_LEGACY_MAX_CHAIN 64
#define HY_L_LIST 4096

typedef struct lchain {
    const char *ids[HY_LEGACY_MAX_CHAIN];
    int n;
} lchain;

static int legacy_load(hc *c, const char *id, cf_loc at, cJSON **root, const char **display)
{
    if (!valid_name(id)) return field_fail(&c->f, at, CF_ERR_REF, "bad noise asset id \"%s\"", id);
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
    new_node(c, kind, at, &n);
    n.nin = nin;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nin ? nin : 1));
    if (!n.in) return field_nomem(&c->f);
    for (int k = 0; k < nin; k++) n.in[k] = in[k];
    n.d[0] = d0;
    return node_add(c, &n);
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
 *  - label -> int: hytale_seed() above (shared with V2)
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
    new_node(c, NK_HY_LROTATE, at, &n);
    n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
    if (!n.in) return field_nomem(&c->f);
    n.in[0] = base, n.da = m, n.nda = 12;
    return node_add(c, &n);
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
    new_node(c, NK_HY_LGRADIENT, at, &n);
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
    return node_add(c, &n);
}

/* the power curve of base: A (2), B (-2) */
static int legacy_curve(hc *c, const cJSON *obj, cf_loc at, int base)
{
    cf_keys ks = {{0}, 0};
    cf_node n;
    new_node(c, NK_HY_LCURVE, at, &n);
    if (field_num(&c->f, &ks, obj, at, "A", 0, 2.0, &n.d[0]) < 0 || field_num(&c->f, &ks, obj, at, "B", 0, -2.0, &n.d[1]) < 0) return -1;
    n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
    if (!n.in) return field_nomem(&c->f);
    n.in[0] = base;
    return node_add(c, &n);
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
    new_node(c, NK_HY_LNOISE, at, &n);
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
    return node_add(c, &n);
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
    new_node(c, NK_HY_LDISTORT, at, &n);
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
    return node_add(c, &n);
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
            base = constant(c, val, at);
        } else if (strcmp(leaf, "POINT") == 0) {
            cf_node n;
            new_node(c, NK_HY_LPOINT, at, &n);
            if (field_num(&c->f, &ks, a, at, "X", 0, 0, &n.d[0]) < 0 || field_num(&c->f, &ks, a, at, "Y", 0, 0, &n.d[1]) < 0 || field_num(&c->f, &ks, a, at, "Z", 0, 0, &n.d[2]) < 0
                || field_num(&c->f, &ks, a, at, "InnerRadius", 0, 0, &n.d[3]) < 0 || field_num(&c->f, &ks, a, at, "OuterRadius", 0, 0, &n.d[4]) < 0)
                goto done;
            base = node_add(c, &n);
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
            int neg = add_node(c, NK_HY_INVERTER, at, in, 1, 0), two[2] = {constant(c, 1.0, at), neg};
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
            new_node(c, NK_HY_NORMALIZER, at, &n);
            n.nin = 1, n.in = in, n.d[0] = lo, n.d[1] = hi, n.d[2] = 0, n.d[3] = 1;
            base = node_add(c, &n);
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
            new_node(c, NK_HY_MULTIMIX, at, &n);
            n.nin = m + 1, n.in = in, n.da = k, n.nda = m;
            base = node_add(c, &n);
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
            new_node(c, NK_HY_LFORMULA, at, &n);
            n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
            if (!n.in) {
                field_nomem(&c->f);
                goto done;
            }
            n.in[0] = base, n.i[0] = f;
            if ((base = node_add(c, &n)) < 0) goto done;
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
        new_node(c, NK_HY_NORMALIZER, at, &n);
        n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
        if (!n.in) {
            field_nomem(&c->f);
            goto done;
        }
        n.in[0] = base, n.d[0] = 0, n.d[1] = 1, n.d[2] = lo, n.d[3] = hi; /* [0, 1] -> [lo, hi] */
        if ((base = node_add(c, &n)) < 0) goto done;
    }
    {
        double o = 0, ox = 0, oy = 0, oz = 0;
        if (field_num(&c->f, &ks, a, at, "Offset", 0, 0, &o) < 0 || field_num(&c->f, &ks, a, at, "OffsetX", 0, o, &ox) < 0 || field_num(&c->f, &ks, a, at, "OffsetY", 0, o, &oy) < 0
            || field_num(&c->f, &ks, a, at, "OffsetZ", 0, o, &oz) < 0)
            goto done;
        if (ox != 0 || oy != 0 || oz != 0) {
            /* child(p + o) as a Slider by -o (p - (-o) == p + o exactly) */
            cf_node n;
            new_node(c, NK_HY_SLIDER, at, &n);
            n.nin = 1, n.in = arena_alloc(&c->p->arena, sizeof(int));
            if (!n.in) {
                field_nomem(&c->f);
                goto done;
            }
            n.in[0] = base, n.d[0] = -ox, n.d[1] = -oy, n.d[2] = -oz;
            if ((base = node_add(c, &n)) < 0) goto done;
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
static int legacy_has(hc *c, const char *id)
{
    const char *names[HY_L_LIST];
    int n = pack_list(c->pk, "hytale/Noise", names, HY_L_LIST);
    for (int i = 0; i < n && i < HY_L_LIST; i++)
        if (strcmp(names[i], id) == 0) return 1;
    return 0;
}
static int has_file(const char *const *names, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], id) == 0) return 1;
    return 0;
}

static int legacy_function(hc *c, const char *id, cf_loc cli)
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

/* ------------------------------------------------------------------ files */

static int hytale_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    if (settings_id && strncmp(settings_id, "hytale:", 7) == 0) return 1;
    for (int i = 0; i < n; i++)
        if (functions[i] && strncmp(functions[i], "hytale:", 7) == 0) return 1;
    if (!request_is_default(settings_id, functions, n)) return 0;
    const char *names[2];
    if (pack_list(pk, "hytale/Density", names, 2) < 1 && pack_list(pk, "hytale/Noise", names, 2) < 1) return 0;
    return !pack_has_overworld(pk);
}

static int valid_name(const char *s)
{
    if (!*s || *s == '.') return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

#define HY_MAX_FILES 4096

static cf_status hytale_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    hc c = {0};
    c.p = p;
    c.pk = pk;
    c.err = err;
    field_init(&c.f, &p->arena, err);
    c.f.missing = CF_MISSING_NAME;
    c.f.ints = CF_INTS_IN;
    c.state = HY_ROOT_SWITCH_STATE;
    p->dialect = DIALECT_HYTALE;
    p->prec = PREC_F64;
    p->max_fill_bytes = pk->lim.max_fill_bytes;
    p->min_y = 0, p->height = 320, p->sea_level = 100;
    cf_loc cli = {"<arguments>", NULL};
    if (settings_id && strncmp(settings_id, "hytale:", 7) == 0 && strcmp(settings_id, "hytale:default") != 0)
        return field_fail(&c.f, cli, CF_ERR_ARG, "settings \"%s\": a Hytale pack takes --settings hytale:default (or none)", settings_id), err->status;
    p->settings_id = "hytale:default";
    const char **names = calloc(HY_MAX_FILES, sizeof *names);
    if (!names) return field_nomem(&c.f), err->status;
    int nf = pack_list(pk, "hytale/Density", names, HY_MAX_FILES);
    if (nf > HY_MAX_FILES) {
        free(names);
        return field_fail(&c.f, cli, CF_ERR_LIMIT, "more than %d files in hytale/Density", HY_MAX_FILES), err->status;
    }
    c.roots = calloc((size_t)nf + 1, sizeof *c.roots);
    c.files = calloc((size_t)nf + 1, sizeof *c.files);
    if (!c.roots || !c.files) {
        field_nomem(&c.f);
        goto done;
    }
    for (int i = 0; i < nf; i++) {
        char rel[600];
        snprintf(rel, sizeof rel, "hytale/Density/%s.json", names[i]);
        int r = json_load_rel(&p->arena, pk, rel, &c.roots[i], &c.files[i], err);
        if (r < 0) goto done;
        c.nfiles = i + 1;
        if (scan(&c, c.roots[i], (cf_loc){c.files[i], NULL}, 0) < 0) goto done;
    }
    p->noutputs = nfn;
    p->outputs = arena_alloc(&p->arena, sizeof(int) * (size_t)(nfn + 1));
    p->output_names = arena_alloc(&p->arena, sizeof(char *) * (size_t)(nfn + 1));
    if (!p->outputs || !p->output_names) {
        field_nomem(&c.f);
        goto done;
    }
    for (int i = 0; i < nfn; i++) {
        const char *f = functions[i], *file = NULL;
        if (strncmp(f, "hytale:noise/", 13) == 0) {
            p->output_names[i] = arena_strdup(&p->arena, f);
            int nd = legacy_function(&c, f + 13, cli);
            if (nd < 0) goto done;
            p->outputs[i] = nd;
            continue;
        }
        if (strcmp(f, "router:final_density") == 0 && !has_file(names, c.nfiles, "Terrain") && legacy_has(&c, "Terrain")) {
            /* a legacy-only pack: the default request is the noise asset hytale/Noise/Terrain.json */
            p->output_names[i] = arena_strdup(&p->arena, f);
            int nd = legacy_function(&c, "Terrain", cli);
            if (nd < 0) goto done;
            p->outputs[i] = nd;
            continue;
        }
        if (strcmp(f, "router:final_density") == 0) file = "Terrain";
        else if (strncmp(f, "hytale:", 7) == 0 && valid_name(f + 7)) file = f + 7;
        else {
            field_fail(&c.f, cli, CF_ERR_ARG, "function \"%s\": a Hytale program takes hytale:NAME (the node of hytale/Density/NAME.json)", f);
            goto done;
        }
        int k = -1;
        for (int j = 0; j < c.nfiles; j++)
            if (strcmp(names[j], file) == 0) k = j;
        if (k < 0) {
            field_fail(&c.f, cli, CF_ERR_REF, "function \"%s\": no hytale/Density/%s.json in the packs", f, file);
            goto done;
        }
        p->output_names[i] = arena_strdup(&p->arena, f);
        int nd = node(&c, c.roots[k], (cf_loc){c.files[k], NULL});
        if (nd < 0) goto done;
        p->outputs[i] = nd;
    }
done:
    for (int i = 0; i < c.nfiles; i++) cJSON_Delete(c.roots[i]);
    free(c.roots);
    free(c.files);
    free(c.exps);
    free(c.mapname);
    free(c.mapoff);
    free(names);
    return err_failed(err) ? err->status : CF_OK;
}

const cf_frontend cf_frontend_hytale = {
    .name = "hytale", .title = "Hytale (V2 density graphs, legacy noise assets)", .prefix = "hytale:",
    .first_kind = NK_HY_CONSTANT, .last_kind = NK_HY_PCELL,
    .claims = hytale_wanted, .parse = hytale_parse,
};
