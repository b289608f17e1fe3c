/* test_fields.c - the typed JSON field reader of every front-end (host/base/fields.c):
 * each kind of field, its located one-line errors in each front-end's wording, aliases,
 * array bounds, and the unknown-key check in its refuse and warn modes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/base.h"

#include "testutil.h"

typedef struct reader {
    cf_arena arena;
    cf_error err;
    cf_fields f;
    cJSON *root;
    cf_loc at;
} reader;

/* a reader over one JSON object (file "f.json", pointer /o) */
static void open_reader(reader *r, const char *json)
{
    memset(r, 0, sizeof *r);
    field_init(&r->f, &r->arena, &r->err);
    r->root = cJSON_Parse(json);
    cr_assert_not_null(r->root, "%s", json);
    r->at = loc_key(&r->arena, (cf_loc){"f.json", NULL}, "o");
}
static void close_reader(reader *r)
{
    cJSON_Delete(r->root);
    arena_free(&r->arena);
}
/* the call failed with exactly this message */
#define FAILS(r, call, msg)                                                                                                  \
    do {                                                                                                                    \
        (r)->err = (cf_error){0};                                                                                           \
        cr_assert_eq((call), -1, "%s: no error", #call);                                                                    \
        cr_assert_str_eq((r)->err.message, (msg));                                                                          \
        cr_assert_eq((r)->err.status, CF_ERR_SCHEMA);                                                                       \
    } while (0)

Test(fields, numbers_floats_and_defaults)
{
    reader r;
    open_reader(&r, "{\"a\": 1.5, \"s\": \"x\", \"big\": 1e39, \"inf\": 1e999, \"n\": null}");
    double d = 0;
    float f = 0;
    cr_assert_eq(field_num(&r.f, NULL, r.root, r.at, "a", 0, 7, &d), 0);
    cr_assert_eq(d, 1.5);
    cr_assert_eq(field_num(&r.f, NULL, r.root, r.at, "absent", 0, 7, &d), 0);
    cr_assert_eq(d, 7);
    FAILS(&r, field_num(&r.f, NULL, r.root, r.at, "absent", CF_REQUIRED, 0, &d), "f.json#/o: missing field \"absent\"");
    FAILS(&r, field_num(&r.f, NULL, r.root, r.at, "s", 0, 0, &d), "f.json#/o/s: expected a number, found a string");
    FAILS(&r, field_num(&r.f, NULL, r.root, r.at, "inf", 0, 0, &d), "f.json#/o/inf: number out of range (not finite)");
    FAILS(&r, field_num_in(&r.f, NULL, r.root, r.at, "a", NULL, 0, 0, -1, 1, &d), "f.json#/o/a: number 1.5 out of range [-1, 1]");
    cr_assert_eq(field_float(&r.f, NULL, r.root, r.at, "a", 0, 0, &f), 0);
    cr_assert_eq(f, 1.5f);
    FAILS(&r, field_float(&r.f, NULL, r.root, r.at, "big", 0, 0, &f), "f.json#/o/big: number 1e+39 is out of float range");
    /* a null is a value (a wrong type) unless null_absent (Gson), where it keeps the default */
    FAILS(&r, field_num(&r.f, NULL, r.root, r.at, "n", 0, 0, &d), "f.json#/o/n: expected a number, found null");
    r.f.null_absent = 1, r.f.got = 1;
    cr_assert_eq(field_num(&r.f, NULL, r.root, r.at, "n", 0, 3, &d), 0);
    cr_assert_eq(d, 3);
    FAILS(&r, field_num(&r.f, NULL, r.root, r.at, "s", 0, 0, &d), "f.json#/o/s: expected a number, got a string");
    close_reader(&r);
}

Test(fields, integers_in_each_wording)
{
    reader r;
    open_reader(&r, "{\"half\": 2.5, \"big\": 9, \"ok\": -3}");
    int i = 0;
    cr_assert_eq(field_int(&r.f, NULL, r.root, r.at, "ok", 0, 0, -4, 4, &i), 0);
    cr_assert_eq(i, -3);
    /* Minecraft 26.3: integrality, then the range */
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "half", 0, 0, 0, 4, &i), "f.json#/o/half: expected an integer, found 2.5");
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "big", 0, 0, 0, 4, &i), "f.json#/o/big: integer 9 out of range [0, 4]");
    /* libnoise, Hytale, Iris packs: one message for both */
    r.f.ints = CF_INTS_IN;
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "half", 0, 0, 0, 4, &i), "f.json#/o/half: expected an integer in [0, 4], found 2.5");
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "big", 0, 0, 0, 4, &i), "f.json#/o/big: expected an integer in [0, 4], found 9");
    /* Minecraft 1.18.2-1.21: the range as a number first */
    r.f.ints = CF_INTS_NUMBER;
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "big", 0, 0, 0, 4, &i), "f.json#/o/big: number 9 out of range [0, 4]");
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "half", 0, 0, 0, 4, &i), "f.json#/o/half: expected an integer, found 2.5");
    r.f.missing = CF_MISSING_NAME;
    FAILS(&r, field_int(&r.f, NULL, r.root, r.at, "none", CF_REQUIRED, 0, 0, 4, &i), "f.json#/o: missing \"none\" (an integer)");
    close_reader(&r);
}

Test(fields, booleans_strings_enums_and_aliases)
{
    reader r;
    open_reader(&r, "{\"b\": true, \"one\": 1, \"s\": \"std\", \"bad\": \"good\", \"value\": 2, \"constValue\": 3}");
    static const char *const q[] = {"fast", "std", "best", NULL};
    int b = 0, e = -1;
    const char *s = NULL;
    double d = 0;
    cr_assert_eq(field_bool(&r.f, NULL, r.root, r.at, "b", 0, 0, &b), 0);
    cr_assert_eq(b, 1);
    FAILS(&r, field_bool(&r.f, NULL, r.root, r.at, "one", 0, 0, &b), "f.json#/o/one: expected true or false, found a number");
    cr_assert_eq(field_str(&r.f, NULL, r.root, r.at, "s", 0, &s), 0);
    cr_assert_str_eq(s, "std");
    FAILS(&r, field_str(&r.f, NULL, r.root, r.at, "one", 0, &s), "f.json#/o/one: expected a string, found a number");
    cr_assert_eq(field_enum(&r.f, NULL, r.root, r.at, "s", NULL, 0, 0, q, &e), 0);
    cr_assert_eq(e, 1);
    FAILS(&r, field_enum(&r.f, NULL, r.root, r.at, "bad", NULL, 0, 0, q, &e),
          "f.json#/o/bad: unknown value \"good\" (expected one of fast, std, best)");
    FAILS(&r, field_num_in(&r.f, NULL, r.root, r.at, "constValue", "value", 0, 0, -HUGE_VAL, HUGE_VAL, &d),
          "f.json#/o/value: both \"constValue\" and its alias \"value\": give one");
    cr_assert_eq(field_num_in(&r.f, NULL, r.root, r.at, "other", "value", 0, 0, -HUGE_VAL, HUGE_VAL, &d), 0);
    cr_assert_eq(d, 2);
    close_reader(&r);
}

Test(fields, arrays_with_bounds)
{
    reader r;
    open_reader(&r, "{\"a\": [1, 2, 3], \"m\": [1, \"x\"], \"o\": {}}");
    double v[4];
    int n = 0;
    const cJSON *a = NULL;
    cr_assert_eq(field_nums(&r.f, NULL, r.root, r.at, "a", 0, 1, 4, v, &n), 0);
    cr_assert(n == 3 && v[0] == 1 && v[2] == 3);
    cr_assert_eq(field_nums(&r.f, NULL, r.root, r.at, "absent", 0, 1, 4, v, &n), 0);
    cr_assert_eq(n, 0);
    FAILS(&r, field_nums(&r.f, NULL, r.root, r.at, "a", 0, 1, 2, v, &n), "f.json#/o/a: expected 1 to 2 values, found 3");
    FAILS(&r, field_array(&r.f, NULL, r.root, r.at, "a", 0, 2, 2, &a, &n), "f.json#/o/a: expected 2 values, found 3");
    FAILS(&r, field_nums(&r.f, NULL, r.root, r.at, "m", 0, 0, 4, v, &n), "f.json#/o/m/1: expected a number, found a string");
    FAILS(&r, field_array(&r.f, NULL, r.root, r.at, "o", 0, 0, 4, &a, &n), "f.json#/o/o: expected an array, found an object");
    FAILS(&r, field_array(&r.f, NULL, r.root, r.at, "absent", CF_REQUIRED, 0, 4, &a, &n), "f.json#/o: missing field \"absent\"");
    close_reader(&r);
}

static void collect(void *ctx, const char *line)
{
    char *buf = ctx;
    strncat(buf, line, 1023 - strlen(buf));
    strncat(buf, "\n", 1023 - strlen(buf));
}

Test(fields, unknown_keys_refused_or_warned)
{
    reader r;
    open_reader(&r, "{\"a\": 1, \"$comment\": 2, \"frequncy\": 3, \"zz\": 4}");
    cf_keys ks = {{0}, 0};
    double d;
    cr_assert_eq(field_num(&r.f, &ks, r.root, r.at, "a", 0, 0, &d), 0);
    FAILS(&r, field_unknown(&r.f, &ks, r.root, r.at, CF_DOLLAR_COMMENTS, "for %s", "Perlin"),
          "f.json#/o/frequncy: unknown key \"frequncy\" for Perlin");
    FAILS(&r, field_unknown(&r.f, &ks, r.root, r.at, 0, NULL), "f.json#/o/$comment: unknown key \"$comment\"");
    /* the warn mode (issue 23): every unknown key reported as the same line, none refused */
    char lines[1024] = "";
    r.f.unknown = CF_UNKNOWN_WARN, r.f.warn = collect, r.f.warn_ctx = lines;
    r.err = (cf_error){0};
    cr_assert_eq(field_unknown(&r.f, &ks, r.root, r.at, CF_DOLLAR_COMMENTS, "for %s", "Perlin"), 0);
    cr_assert_eq(r.err.status, CF_OK);
    cr_assert_str_eq(lines, "f.json#/o/frequncy: unknown key \"frequncy\" for Perlin\nf.json#/o/zz: unknown key \"zz\" for Perlin\n");
    close_reader(&r);
}
