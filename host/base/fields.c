/* fields.c - the typed JSON field reader every front-end reads its objects with.
 *
 * A front-end describes its wording once (cf_fields: how "missing" and integer
 * ranges are said, "found" or "got") and reads each object's fields through
 * field_*: each read records its key in the object's cf_keys, so that
 * field_unknown can then refuse (or, in CF_UNKNOWN_WARN mode, report and skip)
 * every key the object's kind does not read. Errors are located one-liners,
 * "file.json#/pointer: message", the first one kept (err_set).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/base.h"

cf_loc field_key(const cf_fields *r, cf_loc at, const char *key) { return loc_key(r->a, at, key); }

cf_loc field_index(const cf_fields *r, cf_loc at, int i) { return loc_index(r->a, at, i); }

static const char *found(const cf_fields *r) { return r->got ? "got" : "found"; }

const cJSON *field_get(const cf_fields *r, cf_keys *ks, const cJSON *o, const char *key)
{
    if (ks && ks->n < CF_MAX_KEYS) ks->k[ks->n++] = key;
    const cJSON *v = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return v && r->null_absent && cJSON_IsNull(v) ? NULL : v;
}

int field_alias(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const char *alias,
                const cJSON **out, const char **used)
{
    const cJSON *a = field_get(r, ks, o, key), *b = alias ? field_get(r, ks, o, alias) : NULL;
    *out = NULL;
    if (a && b) return field_fail(r, field_key(r, at, alias), CF_ERR_SCHEMA, "both \"%s\" and its alias \"%s\": give one", key, alias);
    *out = a ? a : b;
    if (used) *used = a ? key : alias;
    return 0;
}

/* the located "missing" error of a required field (what: " (a number)" or "") */
static int missing(const cf_fields *r, cf_loc at, const char *key, const char *what)
{
    if (r->missing == CF_MISSING_NAME) return field_fail(r, at, CF_ERR_SCHEMA, "missing \"%s\"%s", key, what);
    return field_fail(r, at, CF_ERR_SCHEMA, "missing field \"%s\"", key);
}

const cJSON *field_need(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key)
{
    const cJSON *v = field_get(r, ks, o, key);
    if (!v) missing(r, at, key, "");
    return v;
}

int field_value_num(const cf_fields *r, const cJSON *v, cf_loc at, double lo, double hi, double *out)
{
    if (!cJSON_IsNumber(v)) return field_fail(r, at, CF_ERR_SCHEMA, "expected a number, %s %s", found(r), json_type(v));
    double d = v->valuedouble;
    int ranged = lo > -HUGE_VAL || hi < HUGE_VAL;
    if (ranged && !(d >= lo && d <= hi))
        return field_fail(r, at, CF_ERR_SCHEMA, "number %.17g out of range [%g, %g]", d, lo, hi);
    if (!isfinite(d)) return field_fail(r, at, CF_ERR_SCHEMA, "number out of range (not finite)");
    *out = d;
    return 0;
}

int field_num_in(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const char *alias, unsigned flags,
                 double def, double lo, double hi, double *out)
{
    const cJSON *v = NULL;
    const char *used = key;
    *out = def;
    if (field_alias(r, ks, o, at, key, alias, &v, &used) < 0) return -1;
    if (!v) return flags & CF_REQUIRED ? missing(r, at, key, " (a number)") : 0;
    return field_value_num(r, v, field_key(r, at, used), lo, hi, out);
}

int field_num(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, double def, double *out)
{
    return field_num_in(r, ks, o, at, key, NULL, flags, def, -HUGE_VAL, HUGE_VAL, out);
}

int field_float(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, float def, float *out)
{
    double d = def;
    if (field_num(r, ks, o, at, key, flags, def, &d) < 0) return -1;
    if (!isfinite((float)d)) return field_fail(r, field_key(r, at, key), CF_ERR_SCHEMA, "number %g is out of float range", d);
    *out = (float)d;
    return 0;
}

int field_value_int(const cf_fields *r, const cJSON *v, cf_loc at, long lo, long hi, int *out)
{
    double d = 0;
    if (field_value_num(r, v, at, r->ints == CF_INTS_NUMBER ? (double)lo : -HUGE_VAL, r->ints == CF_INTS_NUMBER ? (double)hi : HUGE_VAL, &d) < 0)
        return -1;
    int integral = d == floor(d), inside = d >= (double)lo && d <= (double)hi;
    if (r->ints == CF_INTS_IN && !(integral && inside))
        return field_fail(r, at, CF_ERR_SCHEMA, "expected an integer in [%ld, %ld], %s %.17g", lo, hi, found(r), d);
    if (!integral) return field_fail(r, at, CF_ERR_SCHEMA, "expected an integer, %s %.17g", found(r), d);
    if (!inside) return field_fail(r, at, CF_ERR_SCHEMA, "integer %.17g out of range [%ld, %ld]", d, lo, hi);
    *out = (int)d;
    return 0;
}

int field_int(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, int def, long lo, long hi,
              int *out)
{
    const cJSON *v = field_get(r, ks, o, key);
    *out = def;
    if (!v) return flags & CF_REQUIRED ? missing(r, at, key, " (an integer)") : 0;
    return field_value_int(r, v, field_key(r, at, key), lo, hi, out);
}

int field_bool(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, int def, int *out)
{
    const cJSON *v = field_get(r, ks, o, key);
    *out = def;
    if (!v) return flags & CF_REQUIRED ? missing(r, at, key, " (true or false)") : 0;
    if (!cJSON_IsBool(v))
        return field_fail(r, field_key(r, at, key), CF_ERR_SCHEMA, "expected true or false, %s %s", found(r), json_type(v));
    *out = cJSON_IsTrue(v);
    return 0;
}

int field_str(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, const char **out)
{
    const cJSON *v = field_get(r, ks, o, key);
    *out = NULL;
    if (!v) return flags & CF_REQUIRED ? missing(r, at, key, " (a string)") : 0;
    if (!cJSON_IsString(v)) return field_fail(r, field_key(r, at, key), CF_ERR_SCHEMA, "expected a string, %s %s", found(r), json_type(v));
    *out = v->valuestring;
    return 0;
}

int field_value_enum(const cf_fields *r, const cJSON *v, cf_loc at, const char *const *names, int *out)
{
    char list[400] = "";
    for (int i = 0; names[i]; i++) {
        if (cJSON_IsString(v) && strcmp(v->valuestring, names[i]) == 0) return *out = i, 0;
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    if (!cJSON_IsString(v)) return field_fail(r, at, CF_ERR_SCHEMA, "expected a string, %s %s", found(r), json_type(v));
    return field_fail(r, at, CF_ERR_SCHEMA, "unknown value \"%s\" (expected one of %s)", v->valuestring, list);
}

int field_enum(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, const char *alias, unsigned flags, int def,
               const char *const *names, int *out)
{
    const cJSON *v = NULL;
    const char *used = key;
    *out = def;
    if (field_alias(r, ks, o, at, key, alias, &v, &used) < 0) return -1;
    if (!v) return flags & CF_REQUIRED ? missing(r, at, key, "") : 0;
    return field_value_enum(r, v, field_key(r, at, used), names, out);
}

int field_array(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, int min, int max,
                const cJSON **out, int *n)
{
    const cJSON *v = field_get(r, ks, o, key);
    *out = NULL, *n = 0;
    if (!v) return flags & CF_REQUIRED ? missing(r, at, key, " (an array)") : 0;
    cf_loc va = field_key(r, at, key);
    if (!cJSON_IsArray(v)) return field_fail(r, va, CF_ERR_SCHEMA, "expected an array, %s %s", found(r), json_type(v));
    int m = cJSON_GetArraySize(v);
    if (m < min || m > max) {
        if (min == max) return field_fail(r, va, CF_ERR_SCHEMA, "expected %d value%s, %s %d", min, min == 1 ? "" : "s", found(r), m);
        return field_fail(r, va, CF_ERR_SCHEMA, "expected %d to %d values, %s %d", min, max, found(r), m);
    }
    *out = v, *n = m;
    return 0;
}

int field_nums(const cf_fields *r, cf_keys *ks, const cJSON *o, cf_loc at, const char *key, unsigned flags, int min, int max,
               double *out, int *n)
{
    const cJSON *a = NULL;
    if (field_array(r, ks, o, at, key, flags, min, max, &a, n) < 0) return -1;
    cf_loc va = field_key(r, at, key);
    int i = 0;
    for (const cJSON *e = a ? a->child : NULL; e; e = e->next, i++)
        if (field_value_num(r, e, field_index(r, va, i), -HUGE_VAL, HUGE_VAL, &out[i]) < 0) return -1;
    return 0;
}

int field_unknown(const cf_fields *r, const cf_keys *ks, const cJSON *o, cf_loc at, unsigned flags, const char *fmt, ...)
{
    for (const cJSON *k = cJSON_IsObject(o) ? o->child : NULL; k; k = k->next) {
        int known = (flags & CF_DOLLAR_COMMENTS) && k->string[0] == '$';
        for (int i = 0; !known && ks && i < ks->n; i++) known = strcmp(ks->k[i], k->string) == 0;
        if (known) continue;
        char what[300] = "";
        if (fmt) {
            va_list ap;
            va_start(ap, fmt);
            what[0] = ' ';
            vsnprintf(what + 1, sizeof what - 1, fmt, ap);
            va_end(ap);
        }
        cf_loc ka = field_key(r, at, k->string);
        if (r->unknown == CF_UNKNOWN_WARN) {
            /* issue 23: the same line, reported, and the key skipped */
            if (r->warn) {
                char line[800], ptr[320];
                snprintf(line, sizeof line, "%s#%s: unknown key \"%s\"%s", ka.file, ptr_text(ka.ptr, ptr, sizeof ptr), k->string, what);
                r->warn(r->warn_ctx, line);
            }
            continue;
        }
        return field_fail(r, ka, CF_ERR_SCHEMA, "unknown key \"%s\"%s", k->string, what);
    }
    return 0;
}
