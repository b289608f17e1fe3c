/* v2.c - the Hytale front-end's World Gen V2 density graphs (HYTALE.md §3-§7) -> graph IR:
 * one parser per node kind (hyparse_<KIND>, the table hyparsers built from
 * host/ir/nodes_hytale.def), curves, vectors and rotations, Switch states, externals, and the
 * Exported / ExportAs / Imported links between the files of hytale/Density.
 * Input: the JSON trees hytale.c loaded; output: nodes appended to c->p, children first.
 * The V2 UNK choices are parse.h's "choices" block. Errors are one line, "file.json#/pointer: message".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/hytale/parse.h"


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
        if ((n->in[i] = hy_node(c, e, field_index(&c->f, sa, i))) < 0) return -1;
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
    return (n->in[0] = hy_node(c, dn, field_key(&c->f, va, "Density"))) < 0 ? -1 : 0;
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
        if ((n->in[0] = hy_node(c, dn, field_key(&c->f, ra, "Density"))) < 0) return -1;
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
    if (d) return hy_node(c, d, field_key(&c->f, pa, "Density"));
    d = cJSON_GetObjectItemCaseSensitive(pick, "Inputs");
    cf_loc ia = field_key(&c->f, pa, "Inputs");
    if (!cJSON_IsArray(d) || cJSON_GetArraySize(d) != 1) return field_fail(&c->f, ia, CF_ERR_SCHEMA, "a case takes 1 input");
    return hy_node(c, d->child, field_index(&c->f, ia, 0));
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
    int r = hy_node(c, in->child, field_index(&c->f, field_key(&c->f, at, "Inputs"), 0));
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
    return (*out = hy_constant(c, cf_hy_angle(a[0], a[1], a[2], b[0], b[1], b[2]), at)) < 0 ? -1 : 1;
}

typedef int (*hyparse_fn)(hc *, cf_keys *, const cJSON *, cf_loc, cf_node *, const char *);
static const hyparse_fn hyparsers[NK_COUNT] = {
#define NODE64(K, name, flags, fields, summary, value) [NK_##K] = hyparse_##K,
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
                hy_new_node(c, NK_HY_EXTERNAL, at, &n);
                n.d[0] = c->pk->ext_values[i];
                n.i[0] = java_string_hash(name);
                return hy_node_add(c, &n);
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
            hy_new_node(c, NK_HY_EXTMAP, at, &n);
            n.i[0] = java_string_hash(name), n.i[1] = (int)off, n.i[2] = m->w, n.i[3] = m->h;
            n.d[0] = m->x0, n.d[1] = m->z0, n.d[2] = m->step;
            return hy_node_add(c, &n);
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
            return in && cJSON_GetArraySize(in) > 0 ? hy_node(c, in->child, field_index(&c->f, ia, 0)) : hy_constant(c, 0.0, at);
        }
        if (!cJSON_IsArray(in) || cJSON_GetArraySize(in) != 1)
            return field_fail(&c->f, in ? ia : at, CF_ERR_SCHEMA, "%s takes 1 input, found %d", type, cJSON_IsArray(in) ? cJSON_GetArraySize(in) : 0);
        field_get(&c->f, &ks, o, "Inputs");
        if (strcmp(type, "Exported") == 0) field_get(&c->f, &ks, o, "ExportAs");
        if (field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for Type \"%s\"", type) < 0) return -1;
        result = hy_node(c, in->child, field_index(&c->f, ia, 0));
        c->depth--;
        return result;
    }
    if (skip) {
        c->depth--;
        return hy_constant(c, 0.0, at);
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
        hy_new_node(c, NK_HY_YVALUE, at, &y);
        int yi = hy_node_add(c, &y);
        if (yi < 0) return -1;
        hy_new_node(c, NK_HY_INVERTER, at, &neg);
        neg.nin = 1, neg.in = arena_alloc(&c->p->arena, sizeof(int));
        if (!neg.in) return field_nomem(&c->f);
        neg.in[0] = b;
        int ni = hy_node_add(c, &neg);
        if (ni < 0) return -1;
        hy_new_node(c, NK_HY_SUM, at, &s);
        s.nin = 2, s.in = arena_alloc(&c->p->arena, 2 * sizeof(int));
        if (!s.in) return field_nomem(&c->f);
        s.in[0] = yi, s.in[1] = ni;
        return hy_node_add(c, &s);
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
    hy_new_node(c, kind, at, &n);
    if (hyparsers[kind](c, &ks, o, at, &n, type) < 0) return -1;
    if (field_unknown(&c->f, &ks, o, at, CF_DOLLAR_COMMENTS, "for Type \"%s\"", type) < 0) return -1;
    c->depth--;
    return hy_node_add(c, &n);
}

int hy_node(hc *c, const cJSON *v, cf_loc at)
{
    if (err_failed(c->err)) return -1;
    if (cJSON_IsObject(v)) return node_obj(c, v, at);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) return hy_constant(c, v->valuedouble, at); /* a bare number: Constant (choice) */
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
int hy_scan(hc *c, const cJSON *v, cf_loc at, int depth)
{
    if (depth > c->pk->lim.max_depth) return field_fail(&c->f, at, CF_ERR_LIMIT, "nested deeper than %d", c->pk->lim.max_depth);
    if (cJSON_IsObject(v)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "Type"), *ex = cJSON_GetObjectItemCaseSensitive(v, "ExportAs");
        if (cJSON_IsString(ex)) {
            if (add_export(c, ex->valuestring, v, at, field_key(&c->f, at, "ExportAs")) < 0) return -1;
        }
        (void)t;
        for (const cJSON *k = v->child; k; k = k->next)
            if (k->string[0] != '$' && (cJSON_IsObject(k) || cJSON_IsArray(k)) && hy_scan(c, k, field_key(&c->f, at, k->string), depth + 1) < 0) return -1;
    } else if (cJSON_IsArray(v)) {
        int i = 0;
        for (const cJSON *k = v->child; k; k = k->next, i++)
            if ((cJSON_IsObject(k) || cJSON_IsArray(k)) && hy_scan(c, k, field_index(&c->f, at, i), depth + 1) < 0) return -1;
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
    int n = hy_node(c, e->v, e->at);
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
