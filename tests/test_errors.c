/* test_errors.c - bad input: every kind gives a status and one located line
 * "path/file.json#/pointer: message", never a crash. Each case builds a small
 * pack in a temporary folder. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunkfill.h"

#include "testutil.h"

static char root[256];

static void put(const char *rel, const char *text, size_t len) { tmp_put_len(root, rel, text, len); }
static void puts_(const char *rel, const char *text) { put(rel, text, strlen(text)); }

static void setup(void)
{
    tmp_dir(root, sizeof root, "errors");
    puts_("data/t/worldgen/noise_settings/s.json",
          "{\"noise\": {\"min_y\": -64, \"height\": 384}, \"sea_level\": 63,\n"
          " \"noise_router\": {\"final_density\": \"t:f\", \"bad\": {\"type\": \"minecraft:abs\"}}}\n");
    puts_("data/t/worldgen/noise/n.json", "{\"base_octave\": -3, \"octave_count\": 2}");
}
static void teardown(void) { tmp_rm(root); }

/* compiles `function` and checks the status and the exact "file#pointer: " prefix
 * plus a message substring */
static int strict; /* cf_pack_set_strict: refuse what the game accepts and we only warn about */
static void expect(const char *function, cf_status st, const char *file, const char *ptr, const char *msg,
                   const cf_limits *lim)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_status got = cf_pack_open(&pk, paths, 1, lim, &err);
    cr_assert_eq(got, CF_OK, "%s", err.message);
    cf_pack_set_strict(pk, strict);
    const char *fn[1] = {function};
    got = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    cf_program_free(pg);
    cf_pack_free(pk);
    char prefix[1200];
    snprintf(prefix, sizeof prefix, "%s/%s#%s: ", root, file, ptr);
    expect_located(&err, got, st, prefix, msg);
}

#define DF "data/t/worldgen/density_function/"
TestSuite(errors, .init = setup, .fini = teardown);

Test(errors, unknown_type)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": {\"type\": \"minecraft:frobnicate\"}}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input/type", "unknown density function type \"minecraft:frobnicate\"", NULL);
}
Test(errors, missing_field)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:clamp\", \"input\": 1, \"min\": 0}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "", "missing field \"max\"", NULL);
}
Test(errors, missing_field_in_router)
{
    expect("router:bad", CF_ERR_SCHEMA, "data/t/worldgen/noise_settings/s.json", "/noise_router/bad", "missing field \"input\"", NULL);
}
Test(errors, wrong_json_type)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:add\", \"left\": 1, \"right\": [true]}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/right", "found an array", NULL);
}
Test(errors, wrong_field_type)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:clamp\", \"input\": 1, \"min\": \"zero\", \"max\": 1}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/min", "expected a number, found a string", NULL);
}
Test(errors, unresolved_reference)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": \"t:nowhere/x\"}");
    expect("t:f", CF_ERR_REF, DF "f.json", "/input", "unresolved reference to density function \"t:nowhere/x\"", NULL);
}
Test(errors, unresolved_noise)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:noise\", \"noise\": \"t:nope\", \"xz_scale\": 1, \"y_scale\": 1}");
    expect("t:f", CF_ERR_REF, DF "f.json", "/noise", "unresolved reference to noise \"t:nope\"", NULL);
}
Test(errors, reference_cycle_through_files)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": \"t:a\"}");
    puts_(DF "a.json", "{\"type\": \"minecraft:add\", \"left\": 1, \"right\": \"t:b\"}");
    puts_(DF "b.json", "{\"type\": \"minecraft:negate\", \"input\": \"t:a\"}");
    expect("t:f", CF_ERR_CYCLE, DF "b.json", "/input", "reference cycle: t:a -> t:b -> t:a", NULL);
}
Test(errors, reference_cycle_direct)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": \"t:f\"}");
    expect("t:f", CF_ERR_CYCLE, DF "f.json", "/input", "reference cycle: t:f -> t:f", NULL);
}
Test(errors, malformed_json)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\",\n \"input\": }");
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "malformed JSON at line 2", NULL);
}
Test(errors, nan_literal)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": NaN}");
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "NaN and Infinity are not JSON numbers", NULL);
}
Test(errors, infinity_literal)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": -Infinity}");
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "NaN and Infinity are not JSON numbers", NULL);
}
Test(errors, number_too_large)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": 1e400}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "number out of range", NULL);
}
Test(errors, number_beyond_float)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": 1e300}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "out of float range", NULL);
}
Test(errors, integer_out_of_range)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:gradient\", \"axis\": \"y\", \"from_coordinate\": 1e10,"
                       " \"to_coordinate\": 0, \"from_value\": 0, \"to_value\": 1}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/from_coordinate", "out of range", NULL);
}
Test(errors, integer_not_integral)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:slice\", \"axis\": \"y\", \"coordinate\": 2.5, \"input\": 0}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/coordinate", "expected an integer", NULL);
}
Test(errors, bad_enum)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:slice\", \"axis\": \"w\", \"coordinate\": 2, \"input\": 0}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/axis", "unknown value \"w\"", NULL);
}
Test(errors, empty_file)
{
    puts_(DF "f.json", "  \n");
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "empty file", NULL);
}
Test(errors, duplicate_keys)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": {\"type\": \"minecraft:negate\", \"input\": 1, \"input\": 2}}");
    expect("t:f", CF_ERR_JSON, DF "f.json", "/input/input", "duplicate key \"input\"", NULL);
}
Test(errors, not_utf8)
{
    const char *t = "{\"type\": \"minecraft:abs\",\n \"input\": \"t:\xff\"}";
    put(DF "f.json", t, strlen(t));
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "not UTF-8 (byte 0xff at line 2, column 14)", NULL);
}
Test(errors, id_with_dotdot)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": \"t:../../noise/n\"}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id", NULL);
}
Test(errors, interval_select_counts)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:interval_select\", \"input\": 0, \"thresholds\": [0, 1], \"functions\": [1, 2]}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/functions", "2 functions for 2 thresholds", NULL);
}
/* the game accepts them (issue 23; tests/test_lenient.c): refused with --strict only */
Test(errors, spline_locations_must_increase_when_strict)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:spline\", \"spline\": {\"coordinate\": 0, \"points\": ["
                       "{\"location\": 1, \"value\": 0, \"derivative\": 0}, {\"location\": 0, \"value\": 1, \"derivative\": 0}]}}");
    strict = 1;
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/spline/points/1/location", "must increase", NULL);
}
Test(errors, gradient_empty_range)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:gradient\", \"axis\": \"y\", \"from_coordinate\": 5,"
                       " \"to_coordinate\": 5, \"from_value\": 0, \"to_value\": 1}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/to_coordinate", "equals from_coordinate", NULL);
}
Test(errors, nesting_too_deep)
{
    /* 600 nested abs, over a depth limit of 40 */
    size_t cap = 600 * 40 + 64, len = 0;
    char *s = malloc(cap);
    for (int i = 0; i < 600; i++) len += (size_t)sprintf(s + len, "{\"type\":\"minecraft:abs\",\"input\":");
    len += (size_t)sprintf(s + len, "1");
    for (int i = 0; i < 600; i++) s[len++] = '}';
    s[len] = 0;
    puts_(DF "f.json", s);
    free(s);
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_depth = 40;
    char ptr[40 * 6 + 8] = "";
    for (int i = 0; i < 40; i++) strcat(ptr, "/input");
    expect("t:f", CF_ERR_LIMIT, DF "f.json", ptr, "nested deeper than 40", &lim);
}
Test(errors, nesting_beyond_the_json_reader)
{
    size_t len = 0;
    char *s = malloc(100000 * 2 + 8);
    for (int i = 0; i < 100000; i++) s[len++] = '[';
    for (int i = 0; i < 100000; i++) s[len++] = ']';
    s[len] = 0;
    puts_(DF "f.json", s);
    free(s);
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "nested deeper than the JSON reader's limit", NULL);
}
Test(errors, file_over_size_limit)
{
    char big[400];
    snprintf(big, sizeof big, "{\"type\": \"minecraft:abs\", \"input\": 1.%0300d}", 0);
    puts_(DF "f.json", big);
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_file_bytes = 200; /* the settings file is smaller */
    expect("t:f", CF_ERR_LIMIT, DF "f.json", "", "over the limit of 200 bytes", &lim);
}
Test(errors, symlink_out_of_pack)
{
    char outside[512], link[1024], cmd[2048];
    snprintf(outside, sizeof outside, "%s-outside.json", root);
    FILE *f = fopen(outside, "w");
    fputs("1.0", f);
    fclose(f);
    puts_(DF "f.json", "{\"type\": \"minecraft:abs\", \"input\": \"t:evil\"}");
    snprintf(link, sizeof link, "%s/" DF "evil.json", root);
    cr_assert_eq(symlink(outside, link), 0);
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"t:f"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_ERR_IO);
    cr_assert(strstr(err.message, "evil.json#: leads out of its pack"), "%s", err.message);
    cf_pack_free(pk);
    snprintf(cmd, sizeof cmd, "rm -f '%s'", outside);
    cr_assert_eq(system(cmd), 0);
}
Test(errors, too_many_nodes)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:abs\", \"input\": 1},"
                       " \"right\": {\"type\": \"minecraft:abs\", \"input\": 2}}");
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_nodes = 3;
    expect("t:f", CF_ERR_LIMIT, DF "f.json", "/right", "more than 3 nodes", &lim);
}
Test(errors, old_format_noise)
{
    puts_("data/t/worldgen/noise/old.json", "{\"firstOctave\": -3, \"amplitudes\": [1, 1]}");
    puts_(DF "f.json", "{\"type\": \"minecraft:shift_a\", \"noise\": \"t:old\"}");
    expect("t:f", CF_ERR_SCHEMA, "data/t/worldgen/noise/old.json", "", "1.18.2-1.21 format", NULL);
}
Test(errors, inline_noise)
{
    puts_(DF "f.json", "{\"type\": \"minecraft:shift\", \"noise\": {\"base_octave\": 0}}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/noise", "inline noise definitions are not supported", NULL);
}
Test(errors, missing_settings)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:none", fn, 1, &err), CF_ERR_REF);
    cr_assert(strstr(err.message, "t:none: no such noise settings"), "%s", err.message);
    cf_pack_free(pk);
}
Test(errors, not_a_pack)
{
    const char *paths[1] = {"/nonexistent/pack"};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_ERR_IO);
    cr_assert(strstr(err.message, "/nonexistent/pack: cannot open pack"), "%s", err.message);
    cr_assert_null(pk);
}
