/* test_lenient.c - Minecraft data read as the game reads it (issue 23): unknown keys ignored
 * with one warning per file (refused with --strict / cf_pack_set_strict), spline locations
 * that decrease evaluated with the game's binary search, JSON with comments (Gson's lenient
 * reader), constants for a mod's own density function types (--define), and the messages a
 * user meets.
 *
 * Golden values: tests/golden/lenient.txt, made by tests/golden/make-lenient.sh from the
 * oracles (26.3: deepslate-oracle.mjs --mc 26.3, float32 bits; 1.21: deepslate-oracle-legacy.mjs,
 * float64 bits) on tests/packs/lenient and tests/packs/lenient121. Both oracles search spline
 * points as Mth.binarySearch does (deepslate's Util.binarySearch; the oracles' float CubicSpline
 * patch runs the same probes), so unsorted locations give the game's values.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "chunkfill.h"
#include "testutil.h"

#define PACK263 CF_SOURCE_DIR "/tests/packs/lenient"
#define PACK121 CF_SOURCE_DIR "/tests/packs/lenient121"

typedef struct lines {
    char text[8192];
    int n;
} lines;
static void collect(void *ctx, const char *line)
{
    lines *l = ctx;
    l->n++;
    strncat(l->text, line, sizeof l->text - strlen(l->text) - 2);
    strcat(l->text, "\n");
}

/* compiles t:unsorted of dir (strict or not); the warnings into *l (may be NULL) */
static cf_status compile(const char *dir, int strict, lines *l, cf_pack **pk, cf_program **pg, cf_error *err)
{
    const char *paths[1] = {dir}, *fn[1] = {"t:unsorted"};
    cr_assert_eq(cf_pack_open(pk, paths, 1, NULL, err), CF_OK, "%s", err->message);
    cf_pack_set_strict(*pk, strict);
    if (l) cf_pack_set_warnings(*pk, collect, l);
    return cf_program_compile(pg, *pk, "t:s", fn, 1, err);
}

/* every value of the golden blocks of pack name, compiled from dir, has the oracle's bits */
static size_t check_golden(const char *name, const char *dir, size_t *nvalues)
{
    char *text = slurp(CF_SOURCE_DIR "/tests/golden/lenient.txt");
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(compile(dir, 0, NULL, &pk, &pg, &err), CF_OK, "%s", err.message);
    size_t bad = 0, n = 0;
    int in = 0;
    cf_world *w = NULL;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        if (line[0] == '@') {
            char pack[64], seed[64];
            cr_assert(line_field(line, "pack", pack, sizeof pack) == 0 && line_field(line, "seed", seed, sizeof seed) == 0);
            in = strcmp(pack, name) == 0;
            cf_world_free(w);
            w = NULL;
            if (in) cr_assert_eq(cf_world_new(&w, pg, strtoll(seed, NULL, 10), &err), CF_OK, "%s", err.message);
            continue;
        }
        if (!in) continue;
        int32_t xyz[3];
        char hex[40];
        cr_assert_eq(sscanf(line, "%d %d %d 0x%39s", &xyz[0], &xyz[1], &xyz[2], hex), 4, "bad line %s", line);
        double v;
        cr_assert_eq(cf_sample(w, 0, 1, xyz, &v, &err), CF_OK, "%s", err.message);
        int same;
        if (strlen(hex) == 8) {
            float want = hexf(hex);
            same = fbits((float)v) == fbits(want) || (isnan(v) && isnan(want));
        } else {
            uint64_t want = strtoull(hex, NULL, 16);
            same = dbits(v) == want || (isnan(v) && isnan(bitsd(want)));
        }
        if (!same && bad++ < 5) cr_log_error("%s at %d %d %d: got %.17g, oracle 0x%s", name, xyz[0], xyz[1], xyz[2], v, hex);
        n++;
    }
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    free(text);
    *nvalues = n;
    return bad;
}

Test(lenient, unsorted_spline_26_3_equals_oracle)
{
    size_t n, bad = check_golden("lenient", PACK263, &n);
    cr_assert_eq(n, 600, "%zu values", n);
    cr_assert_eq(bad, 0, "%zu of %zu values differ from the oracle", bad, n);
}

Test(lenient, unsorted_spline_1_21_equals_oracle)
{
    size_t n, bad = check_golden("lenient121", PACK121, &n);
    cr_assert_eq(n, 600, "%zu values", n);
    cr_assert_eq(bad, 0, "%zu of %zu values differ from the oracle", bad, n);
}

Test(lenient, unknown_keys_and_unsorted_splines_warn_once_per_file)
{
    const char *dirs[2] = {PACK263, PACK121};
    for (int d = 0; d < 2; d++) {
        lines l = {"", 0};
        cf_error err = {0};
        cf_pack *pk;
        cf_program *pg;
        cr_assert_eq(compile(dirs[d], 0, &l, &pk, &pg, &err), CF_OK, "%s", err.message);
        cr_assert_not_null(strstr(l.text, "coord.json#/"), "%s", l.text);
        cr_assert_not_null(strstr(l.text, "/comment: unknown key \"comment\" ignored"), "%s", l.text);
        cr_assert_not_null(strstr(l.text, "unsorted.json#/spline/points/"), "%s", l.text);
        cr_assert_not_null(strstr(l.text, "binary search"), "%s", l.text);
        /* once per file and kind: one unknown key line per file though unsorted.json has two
         * objects with unknown keys ("note" in a point, and coord.json one) */
        int unknown_unsorted = 0;
        for (const char *q = l.text; (q = strstr(q, "unsorted.json#")) != NULL; q++)
            if (strncmp(strchr(q, ':'), ": unknown key", 13) == 0) unknown_unsorted++;
        cr_assert_leq(unknown_unsorted, 1, "%s", l.text);
        /* compiling again from the same pack says nothing more */
        int before = l.n;
        cf_program *pg2;
        const char *fn[1] = {"t:unsorted"};
        cr_assert_eq(cf_program_compile(&pg2, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
        cr_assert_eq(l.n, before, "%s", l.text);
        cf_program_free(pg2);
        cf_program_free(pg);
        cf_pack_free(pk);
    }
}

Test(lenient, tectonic_sampling_and_router_keys_warn)
{
    lines l = {"", 0};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(compile(PACK263, 0, &l, &pk, &pg, &err), CF_OK, "%s", err.message);
    cr_assert_not_null(strstr(l.text, "s.json#/noise/sampling: unknown key \"sampling\" ignored, as the game does (--strict refuses it)\n"),
                       "%s", l.text);
    cf_program_free(pg);
    cf_pack_free(pk);
    l = (lines){"", 0};
    cr_assert_eq(compile(PACK121, 0, &l, &pk, &pg, &err), CF_OK, "%s", err.message);
    cr_assert_not_null(strstr(l.text, "s.json#/noise/sampling: unknown key \"sampling\" ignored, as the game does (--strict refuses it)\n"),
                       "%s", l.text);
    cr_assert_not_null(strstr(l.text, "s.json#/noise_router/tectonic_extra: unknown noise_router field \"tectonic_extra\" ignored"), "%s",
                       l.text);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* --strict refuses what used to be refused, with the same located lines */
Test(lenient, strict_refuses)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg = NULL;
    lines l = {"", 0};
    cf_status st = compile(PACK121, 1, &l, &pk, &pg, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "", "s.json#/noise/sampling: unknown key \"sampling\"");
    cr_assert_eq(l.n, 0, "%s", l.text);
    cf_pack_free(pk);
    err = (cf_error){0};
    st = compile(PACK263, 1, &l, &pk, &pg, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "", "s.json#/noise/sampling: unknown key \"sampling\"");
    cf_pack_free(pk);
}

Test(lenient, strict_refuses_unsorted_locations)
{
    static const char *const df263 = "{\"type\": \"spline\", \"spline\": {\"coordinate\": 0, \"points\": [{\"location\": 1, \"value\": 0},"
                                     " {\"location\": 0, \"value\": 1}]}}";
    static const char *const settings263 = "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": {}}";
    cf_memfile files[2] = {{"data/t/worldgen/noise_settings/s.json", settings263, strlen(settings263)},
                           {"data/t/worldgen/density_function/unsorted.json", df263, strlen(df263)}};
    for (int strict = 0; strict < 2; strict++) {
        cf_pack *pk;
        cf_program *pg = NULL;
        cf_error err = {0};
        lines l = {"", 0};
        const char *fn[1] = {"t:unsorted"};
        cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, &err), CF_OK, "%s", err.message);
        cf_pack_set_strict(pk, strict);
        cf_pack_set_warnings(pk, collect, &l);
        cf_status st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
        if (strict) {
            expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/density_function/unsorted.json#/spline/points/1/location: ",
                           "spline locations must increase (0 after 1)");
        } else {
            cr_assert_eq(st, CF_OK, "%s", err.message);
            cr_assert_str_eq(l.text, "<memory>/data/t/worldgen/density_function/unsorted.json#/spline/points/1/location: spline locations "
                                     "do not increase (0 after 1): evaluated as the game does, with its binary search over the points as "
                                     "they are (--strict refuses them)\n");
            /* c = 0 over locations [1, 0]: the game's search probes index 1 (0 < 0: no), ends at 2, so
             * i = 1, the last point: its value 1. A scan for the first location above c would find
             * index 0 (i = -1) and give the first point's value, 0. */
            cr_assert_eq(sample_at(pg, 0, 0, 0, 0), 1.0);
            cf_program_free(pg);
        }
        cf_pack_free(pk);
    }
}

/* the CLI: warnings on stderr, values on stdout; --strict on every command that compiles */
Test(lenient, cli_warns_and_strict_refuses)
{
    char out[8192], err[8192];
    int st = cli_run(NULL, "sample --pack " PACK121 " --settings t:s --function t:unsorted --seed 1 --at 0,0,0", out, sizeof out, err,
                     sizeof err);
    cr_assert_eq(st, 0, "%s%s", out, err);
    cr_assert_not_null(strstr(err, "warning: "), "%s", err);
    cr_assert_not_null(strstr(err, "s.json#/noise/sampling: unknown key \"sampling\" ignored"), "%s", err);
    cr_assert_not_null(strstr(out, "0 0 0 "), "%s", out);
    st = cli_run(NULL, "sample --strict --pack " PACK121 " --settings t:s --function t:unsorted --seed 1 --at 0,0,0", out, sizeof out, err,
                 sizeof err);
    cr_assert_eq(st, 1, "%s%s", out, err);
    cr_assert_not_null(strstr(err, "s.json#/noise/sampling: unknown key \"sampling\""), "%s", err);
    cr_assert_null(strstr(err, "warning"), "%s", err);
    st = cli_run(NULL, "plan --strict --pack " PACK263 " --settings t:s --function t:unsorted", out, sizeof out, err, sizeof err);
    cr_assert_eq(st, 1, "%s%s", out, err);
    cr_assert_not_null(strstr(err, "s.json#/noise/sampling: unknown key \"sampling\""), "%s", err);
}

/* ------------------------------------------------------------------ JSON with comments (Gson lenient) */
static const char *const settings263 = "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": {}}";

/* the value of t:f at (3, 5, 7), or the error message in msg (then NAN) */
static double value_of(const char *df, char *msg, size_t n)
{
    char root[256];
    tmp_dir(root, sizeof root, "lenient");
    tmp_put(root, "data/t/worldgen/noise_settings/s.json", settings263);
    tmp_put(root, "data/t/worldgen/density_function/f.json", df);
    tmp_put(root, "data/t/worldgen/density_function/g.json", "// Tectonic-style\n{\"type\": \"minecraft:constant\", \"argument\": 0.25}\n");
    const char *paths[1] = {root}, *fn[1] = {"t:f"};
    cf_pack *pk;
    cf_program *pg = NULL;
    cf_error err = {0};
    double v = NAN;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    if (cf_program_compile(&pg, pk, "t:s", fn, 1, &err) == CF_OK) v = sample_at(pg, 0, 3, 5, 7);
    else {
        const char *hash = strchr(err.message, '#');
        snprintf(msg, n, "%s", hash ? hash : err.message); /* without the temporary folder */
    }
    cf_program_free(pg);
    cf_pack_free(pk);
    tmp_rm(root);
    return v;
}

Test(lenient, json_comments_read_as_gson_lenient_does)
{
    char msg[1024] = "";
    const double want = 0.75; /* add(0.5, t:g = 0.25) */
    static const char *const forms[] = {
        "{\"type\": \"add\", \"left\": 0.5, \"right\": \"t:g\"}",
        "// a line comment\n{\"type\": \"add\", \"left\": 0.5, // after a value\n \"right\": \"t:g\"}\n// at the end",
        "# a hash comment\n{\"type\": \"add\", # here too\n \"left\": 0.5, \"right\": \"t:g\"} # end",
        "/* a C comment\n over lines */ {\"type\": /* inside */ \"add\", \"left\": 0.5, \"right\": \"t:g\"/**/}",
        ")]}'\n{\"type\": \"add\", \"left\": 0.5, \"right\": \"t:g\"}",           /* Gson's non-execute prefix */
        "{\"type\": \"add\", \"left\": 0.5, \"right\": \"t:g\"} /* * / ** */",
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        double v = value_of(forms[i], msg, sizeof msg);
        cr_assert_eq(v, want, "form %zu: %g %s", i, v, msg);
    }
    /* comment marks inside strings are text */
    value_of("{\"type\": \"add\", \"left\": 0.5, \"right\": \"t:g // not a comment\"}", msg, sizeof msg);
    cr_assert_not_null(strstr(msg, "#/right: invalid id \"t:g // not a comment\""), "%s", msg);
}

/* errors after comments point at the original line and column: the same message as the
 * file with its comments blanked by hand */
Test(lenient, json_errors_keep_their_line_and_column)
{
    char a[1024] = "", b[1024] = "";
    value_of("{\"type\": \"add\", /* a\n   long comment */ \"left\": 0.5,\n  // x\n  \"right\": [1, }", a, sizeof a);
    value_of("{\"type\": \"add\",     \n                   \"left\": 0.5,\n      \n  \"right\": [1, }", b, sizeof b);
    cr_assert_str_eq(a, b);
    cr_assert_not_null(strstr(a, "#: malformed JSON at line 4, column "), "%s", a);
    value_of("{\"type\": \"add\",\n /* never closed", a, sizeof a);
    cr_assert_str_eq(a, "#: a /* comment at line 2, column 2 is not closed (*/)");
    value_of("// nothing\n/* but comments */\n", a, sizeof a);
    cr_assert_str_eq(a, "#: empty file (only comments)");
    value_of("{'type': 'add'}", a, sizeof a);
    cr_assert_not_null(strstr(a, "single-quoted"), "%s", a);
    value_of("{type: \"add\"}", a, sizeof a);
    cr_assert_not_null(strstr(a, "unquoted word"), "%s", a);
}

/* ------------------------------------------------------------------ a mod's own types; mixed formats */
static const char *const settings121 = "{\"noise\": {\"min_y\": 0, \"height\": 16, \"size_horizontal\": 1, \"size_vertical\": 1},"
                                       " \"noise_router\": {}}";

/* compiles t:f (df) under settings with the defines applied; returns the status, value of t:f at 0,0,0 in *v */
static cf_status compile_with(const char *settings, const char *df, const char *define, double dv, double *v, cf_error *err)
{
    cf_memfile files[2] = {{"data/t/worldgen/noise_settings/s.json", settings, strlen(settings)},
                           {"data/t/worldgen/density_function/f.json", df, strlen(df)}};
    cf_pack *pk;
    cf_program *pg = NULL;
    const char *fn[1] = {"t:f"};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, err), CF_OK, "%s", err->message);
    if (define) cr_assert_eq(cf_pack_define(pk, define, dv, err), CF_OK, "%s", err->message);
    cf_status st = cf_program_compile(&pg, pk, "t:s", fn, 1, err);
    if (st == CF_OK) *v = sample_at(pg, 0, 0, 0, 0);
    cf_program_free(pg);
    cf_pack_free(pk);
    return st;
}

Test(lenient, a_mods_type_is_a_located_error_until_defined)
{
    static const char *const df263 = "{\"type\": \"add\", \"left\": {\"type\": \"tectonic:config\", \"key\": \"x\"}, \"right\": 1}";
    static const char *const df121 = "{\"type\": \"add\", \"argument1\": {\"type\": \"tectonic:config\", \"key\": \"x\"}, \"argument2\": 1}";
    const char *settings[2] = {settings263, settings121}, *dfs[2] = {df263, df121};
    for (int d = 0; d < 2; d++) {
        cf_error err = {0};
        double v = 0;
        cf_status st = compile_with(settings[d], dfs[d], NULL, 0, &v, &err);
        expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/density_function/f.json#/",
                       "/type: unknown density function type \"tectonic:config\": a mod's own type (its Java code defines it, no data file "
                       "does); give it a constant with --define tectonic:config[key=x]=VALUE");
        err = (cf_error){0};
        cr_assert_eq(compile_with(settings[d], dfs[d], "tectonic:config", 0.5, &v, &err), CF_OK, "%s", err.message);
        cr_assert_eq(v, 1.5);
        /* a define does not replace a type the game knows */
        err = (cf_error){0};
        cr_assert_eq(compile_with(settings[d], dfs[d], "minecraft:add", 7, &v, &err), CF_ERR_SCHEMA);
    }
    /* a selector: only the objects whose field has that text, before the plain type */
    static const char *const two = "{\"type\": \"add\", \"left\": {\"type\": \"tectonic:config\", \"option\": \"a\"},"
                                   " \"right\": {\"type\": \"tectonic:config\", \"option\": \"b\"}}";
    cf_memfile files[2] = {{"data/t/worldgen/noise_settings/s.json", settings263, strlen(settings263)},
                           {"data/t/worldgen/density_function/f.json", two, strlen(two)}};
    cf_pack *pk;
    cf_program *pg;
    cf_error err = {0};
    const char *fn[1] = {"t:f"};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, &err), CF_OK);
    cr_assert_eq(cf_pack_define(pk, "tectonic:config[option=a]", 0.25, &err), CF_OK, "%s", err.message);
    expect_located(&err, cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_ERR_SCHEMA,
                   "<memory>/data/t/worldgen/density_function/f.json#/right/type: ", "--define tectonic:config[option=b]=VALUE");
    err = (cf_error){0};
    cr_assert_eq(cf_pack_define(pk, "tectonic:config", 4, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(sample_at(pg, 0, 0, 0, 0), 4.25);
    cf_program_free(pg);
    cr_assert_eq(cf_pack_define(pk, "tectonic:config[option=]", 1, &err), CF_ERR_ARG);
    cr_assert_eq(cf_pack_define(pk, "tectonic:config[option=a", 1, &err), CF_ERR_ARG);
    cf_pack_free(pk);
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    cr_assert_eq(cf_pack_define(pk, "Tectonic:Config", 1, &err), CF_ERR_ARG);
    cr_assert_eq(cf_pack_define(pk, "tectonic:config", NAN, &err), CF_ERR_ARG);
    cf_pack_free(pk);
}

Test(lenient, cli_define)
{
    char root[256], out[4096], err[4096], args[1024];
    tmp_dir(root, sizeof root, "define");
    tmp_put(root, "data/t/worldgen/noise_settings/s.json", settings121);
    tmp_put(root, "data/t/worldgen/density_function/f.json",
            "{\"type\": \"minecraft:mul\", \"argument1\": {\"type\": \"tectonic:config\"}, \"argument2\": 2}");
    snprintf(args, sizeof args, "sample --pack %s --settings t:s --function t:f --seed 0 --at 0,0,0", root);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1);
    cr_assert_not_null(strstr(err, "--define tectonic:config=VALUE"), "%s", err);
    snprintf(args, sizeof args, "sample --pack %s --settings t:s --function t:f --seed 0 --at 0,0,0 --define tectonic:config=0.25", root);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(out, "0 0 0 0.5\n");
    snprintf(args, sizeof args, "sample --pack %s --settings t:s --function t:f --seed 0 --at 0,0,0 --define 'tectonic:config[a=b]=0.125'",
             root);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1, "%s", err);
    snprintf(args, sizeof args, "sample --pack %s --settings t:s --function t:f --seed 0 --at 0,0,0 --define tectonic:config", root);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2);
    cr_assert_not_null(strstr(err, "--define takes TYPE=VALUE"), "%s", err);
    tmp_rm(root);
}

/* data of the other format under these settings: the message says the formats are mixed */
Test(lenient, mixed_formats_are_named)
{
    cf_error err = {0};
    double v;
    /* a 1.18.2-1.21 pack's settings over 26.3 density functions (the issue: minecraft:cache) */
    cf_status st = compile_with(settings121, "{\"type\": \"minecraft:cache\", \"argument\": 1}", NULL, 0, &v, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/density_function/f.json#/type: ",
                   "unknown density function type \"minecraft:cache\" in 1.18.2-1.21 data: it is a 26.3 type, so the packs mix formats (the "
                   "noise settings <memory>/data/t/worldgen/noise_settings/s.json are 1.18.2-1.21, this file is 26.3)");
    err = (cf_error){0};
    st = compile_with(settings263, "{\"type\": \"minecraft:flat_cache\", \"argument\": 1}", NULL, 0, &v, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/density_function/f.json#/type: ",
                   "unknown density function type \"minecraft:flat_cache\" in 26.3 data: it is a 1.18.2-1.21 type, so the packs mix formats");
    err = (cf_error){0};
    st = compile_with(settings263, "{\"type\": \"minecraft:frobnicate\"}", NULL, 0, &v, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/density_function/f.json#/type: ",
                   "unknown density function type \"minecraft:frobnicate\"");
}

/* ------------------------------------------------------------------ messages a user understands */
/* 1.21 block fills are implemented (main); what they compile is not named to the user as an internal
 * id any more, and the 26.3-only function names say what the 1.18.2-1.21 format has instead */
Test(lenient, block_fill_of_1_21_data_says_what_to_do)
{
    static const char *const s121 = "{\"noise\": {\"min_y\": 0, \"height\": 16, \"size_horizontal\": 1, \"size_vertical\": 1},"
                                    " \"noise_router\": {\"final_density\": \"t:f\"}}";
    cf_memfile files[2] = {{"data/t/worldgen/noise_settings/s.json", s121, strlen(s121)}, {"data/t/worldgen/density_function/f.json", "1", 1}};
    cf_pack *pk;
    cf_program *pg = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "t:s", &err), CF_OK, "%s", err.message);
    cf_program_free(pg);
    const char *fn[2] = {"noise:t:n", "aquifer:barrier"};
    for (int i = 0; i < 2; i++) {
        err = (cf_error){0};
        cf_status st = cf_program_compile(&pg, pk, "t:s", &fn[i], 1, &err);
        expect_located(&err, st, CF_ERR_ARG, "<arguments>#: ",
                       ": not available for 1.18.2-1.21 data, which has density function ids (NAMESPACE:PATH) and router:FIELD (the "
                       "aquifer's inputs are router fields: router:barrier, router:fluid_level_floodedness, ...)");
        cr_assert_null(strstr(err.message, "aquifer?"), "an internal id: %s", err.message);
    }
    cf_pack_free(pk);
}

/* refusals say what to do: the limit's option, the missing vanilla data, the mixed format */
Test(lenient, refusals_say_what_to_do)
{
    cf_error err = {0};
    double v;
    cf_status st = compile_with(settings263, "{\"type\": \"add\", \"left\": \"minecraft:overworld/continents\", \"right\": 1}", NULL, 0, &v, &err);
    expect_located(&err, st, CF_ERR_REF, "<memory>/data/t/worldgen/density_function/f.json#/left: ",
                   "in any pack): a pack that builds on vanilla needs the vanilla data of its version under it (--pack VANILLA --pack PACK)");
    err = (cf_error){0};
    st = compile_with(settings121, "{\"type\": \"abs\", \"argument\": \"other:x\"}", NULL, 0, &v, &err);
    expect_located(&err, st, CF_ERR_REF, "<memory>/data/t/worldgen/density_function/f.json#/argument: ", ": is a pack missing from --pack?");
    /* a 1.21 noise under 26.3 settings */
    static const char *const noise121 = "{\"firstOctave\": -3, \"amplitudes\": [1]}";
    static const char *const df = "{\"type\": \"noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1}";
    cf_memfile files[3] = {{"data/t/worldgen/noise_settings/s.json", settings263, strlen(settings263)},
                           {"data/t/worldgen/density_function/f.json", df, strlen(df)},
                           {"data/t/worldgen/noise/n.json", noise121, strlen(noise121)}};
    cf_pack *pk;
    cf_program *pg = NULL;
    const char *fn[1] = {"t:f"};
    err = (cf_error){0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 3, NULL, &err), CF_OK, "%s", err.message);
    st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/noise/n.json#: ", "the packs mix formats");
    cf_pack_free(pk);
    /* 1.21 settings forced into 26.3 */
    files[0] = (cf_memfile){"data/t/worldgen/noise_settings/s.json", settings121, strlen(settings121)};
    err = (cf_error){0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, &err), CF_OK, "%s", err.message);
    cf_pack_set_dialect(pk, CF_DIALECT_MC263);
    st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    expect_located(&err, st, CF_ERR_SCHEMA, "<memory>/data/t/worldgen/noise_settings/s.json#/noise/size_horizontal: ",
                   "(drop --dialect 26.3: the format is detected from the settings)");
    cf_pack_free(pk);
    /* limits name their option */
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_depth = 3;
    files[0] = (cf_memfile){"data/t/worldgen/noise_settings/s.json", settings263, strlen(settings263)};
    files[1] = (cf_memfile){"data/t/worldgen/density_function/f.json", "{\"type\": \"abs\", \"input\": {\"type\": \"abs\", \"input\": "
                                                                      "{\"type\": \"abs\", \"input\": {\"type\": \"abs\", \"input\": 1}}}}",
                            0};
    files[1].len = strlen((const char *)files[1].data);
    err = (cf_error){0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, &lim, &err), CF_OK, "%s", err.message);
    st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    expect_located(&err, st, CF_ERR_LIMIT, "<memory>/data/t/worldgen/density_function/f.json#/input/input/input: ",
                   "nested deeper than 3 (the limit: --max-depth, cf_limits.max_depth)");
    cf_pack_free(pk);
    lim.max_depth = 512;
    lim.max_file_bytes = 10;
    err = (cf_error){0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, &lim, &err), CF_OK, "%s", err.message);
    st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    expect_located(&err, st, CF_ERR_LIMIT, "<memory>/data/t/worldgen/noise_settings/s.json#: ", "(--max-file-bytes, cf_limits.max_file_bytes)");
    cf_pack_free(pk);
}

/* the generated OpenCL searches unsorted spline points as the CPU does (kernels/ share it):
 * two whole chunks of each test pack, every block bit for bit (PoCL here) */
Test(lenient, opencl_equals_cpu_on_unsorted_splines, .timeout = 300)
{
    const char *dirs[2] = {PACK263, PACK121};
    for (int d = 0; d < 2; d++) {
        char args[1024], out[8192], err[8192];
        snprintf(args, sizeof args, "check --pack %s --settings t:s --function t:unsorted --seed 1 --chunks 0,0:1,0 --device opencl", dirs[d]);
        int st = cli_run(NULL, args, out, sizeof out, err, sizeof err);
        cr_assert_eq(st, 0, "%s: %s%s", dirs[d], out, err);
        cr_assert_not_null(strstr(out, "196608 blocks, 0 differ"), "%s%s", out, err);
    }
}

/* serve compiles its configurations with --strict and --define too */
Test(lenient, serve_strict_refuses_at_start)
{
    char out[8192], err[8192];
    int st = cli_run(NULL, "serve --pack " PACK121 " --settings t:s --function t:unsorted --strict --listen unix:/tmp/cf-lenient-never.sock",
                     out, sizeof out, err, sizeof err);
    cr_assert_eq(st, 1, "%s%s", out, err);
    cr_assert_not_null(strstr(err, "s.json#/noise/sampling: unknown key \"sampling\""), "%s", err);
}
