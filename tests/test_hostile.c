/* test_hostile.c - hostile packs: inputs built to exhaust the loader (deep
 * nesting, long reference chains, huge arrays and objects, a 2 GB file, a FIFO,
 * ids that try to leave the pack, numbers out of every range). Each case must
 * give a status other than CF_OK and one located line "file.json#/pointer: ...",
 * without a crash or a hang, in bounded time and memory. Exceptions: log(-1)
 * documents a NaN value (not an error), and the disabled cases at the end are
 * known failures, each with what it needs. The packs are written to a temporary
 * folder (large ones streamed, never held in memory). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chunkfill.h"

#include "testutil.h"

/* sanitizers make allocation-heavy parsing several times slower */
#if defined(__SANITIZE_ADDRESS__)
#define SLOW 4.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLOW 4.0
#endif
#endif
#ifndef SLOW
#define SLOW 1.0
#endif

#define DF "data/t/worldgen/density_function/"
#define SETTINGS "data/t/worldgen/noise_settings/s.json"

static char root[256];

static void path_of(char *p, size_t n, const char *rel)
{
    snprintf(p, n, "%s/%s", root, rel);
}

static void mkparents(const char *rel)
{
    char p[1024], cmd[1200];
    path_of(p, sizeof p, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", p);
    cr_assert_eq(system(cmd), 0);
}

/* a file of the pack, opened for writing (large files are streamed) */
static FILE *create(const char *rel)
{
    char p[1024];
    mkparents(rel);
    path_of(p, sizeof p, rel);
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f, "%s", p);
    return f;
}
static void finish(FILE *f)
{
    cr_assert_eq(ferror(f), 0);
    cr_assert_eq(fclose(f), 0);
}
static void put(const char *rel, const char *text)
{
    FILE *f = create(rel);
    fputs(text, f);
    finish(f);
}
static void setup(void)
{
    tmp_dir(root, sizeof root, "hostile");
    put(SETTINGS, "{\"noise\": {\"min_y\": -64, \"height\": 384}, \"sea_level\": 63,\n"
                  " \"noise_router\": {\"final_density\": \"t:f\"}}\n");
}
static void teardown(void) { tmp_rm(root); }

/* the bounds below are this process's CPU seconds, not wall seconds: they tell a
 * linear check from a quadratic one (hours) and stay true on a loaded machine,
 * where wall time is any multiple of the work (CI saw 5 s bounds fail at load 20) */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* peak resident memory of this test process in MiB (Criterion runs each test
 * in its own process) */
static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* compiles `function` against settings t:s of the pack at root; checks the
 * status, the exact "root/file#pointer: " prefix, a message substring, one line;
 * returns the seconds the compile took */
static double expect_lim(const char *function, cf_status st, const char *file, const char *ptr, const char *msg,
                         const cf_limits *lim)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, lim, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {function};
    double t0 = now_s();
    cf_status got = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    double dt = now_s() - t0;
    cf_program_free(pg);
    cf_pack_free(pk);
    cr_assert_neq(got, CF_OK, "compiled");
    char prefix[1400];
    if (file[0] == '<') snprintf(prefix, sizeof prefix, "%s#%s: ", file, ptr);
    else snprintf(prefix, sizeof prefix, "%s/%s#%s: ", root, file, ptr);
    expect_located(&err, got, st, prefix, msg);
    return dt;
}
/* a pointer too long for a one-line message is shortened in the middle:
 * "file#<first steps>/...(K more steps)...<last steps>: message" */
static void expect_long_pointer(const char *function, cf_status st, const char *file, const char *head, const char *msg,
                                const cf_limits *lim)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, lim, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {function};
    cf_status got = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    cf_program_free(pg);
    cf_pack_free(pk);
    cr_assert_eq(got, st, "status %s, expected %s: %s", cf_status_str(got), cf_status_str(st), err.message);
    char prefix[1400];
    snprintf(prefix, sizeof prefix, "%s/%s#%s", root, file, head);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "message '%.300s' does not start with '%.300s'",
              err.message, prefix);
    cr_assert(strstr(err.message, " more steps)..."), "%.400s", err.message);
    cr_assert(strstr(err.message, msg), "message '%.400s' lacks '%s'", err.message, msg);
    cr_assert_lt(strlen(err.message), sizeof err.message - 1, "the message was cut");
    cr_assert_null(strchr(err.message, '\n'));
}
static double expect(const char *function, cf_status st, const char *file, const char *ptr, const char *msg)
{
    return expect_lim(function, st, file, ptr, msg, NULL);
}

/* wall-clock limits only catch a hang; the CPU-time bounds are the checks */
TestSuite(hostile, .init = setup, .fini = teardown, .timeout = 300);

/* ------------------------------------------------------------------ one value, no NUL */

/* a file holds one JSON value: a second value or a NUL and garbage after it were read as if
 * absent; a raw NUL inside a key cut the key there (cJSON's strings end at NUL) */
static void write_bytes(const char *rel, const char *bytes, size_t n)
{
    FILE *f = create(rel);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    finish(f);
}
Test(hostile, one_value_and_no_nul)
{
    static const struct {
        const char *text;
        size_t n;
        const char *msg;
    } cases[] = {
#define CASE(t, m) {t, sizeof t - 1, m}
        CASE("{\"type\": \"minecraft:constant\", \"argument\": 1} {\"x\": 1}", "text after the JSON value at line 1, column 47"),
        CASE("{\"type\": \"minecraft:constant\", \"argument\": 1}\0garbage", "a NUL byte at line 1, column 46"),
        CASE("{\"type\": \"minecraft:constant\", \"argu\0ment\": 1}", "a NUL byte at line 1, column 37"),
#undef CASE
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_bytes(DF "f.json", cases[i].text, cases[i].n);
        expect("t:f", CF_ERR_JSON, DF "f.json", "", cases[i].msg);
    }
}
Test(hostile, comments_and_space_after_the_value_are_fine)
{
    static const char t[] = "{\"type\": \"minecraft:constant\", \"argument\": 1}\n// done\n/* end */ \n";
    write_bytes(DF "f.json", t, sizeof t - 1);
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"t:f"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ------------------------------------------------------------------ nesting */

Test(hostile, arrays_100000_deep)
{
    FILE *f = create(DF "f.json");
    for (int i = 0; i < 100000; i++) fputc('[', f);
    for (int i = 0; i < 100000; i++) fputc(']', f);
    finish(f);
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "nested deeper than the JSON reader's limit");
}
Test(hostile, objects_100000_deep)
{
    FILE *f = create(DF "f.json");
    for (int i = 0; i < 100000; i++) fputs("{\"a\":", f);
    fputc('1', f);
    for (int i = 0; i < 100000; i++) fputc('}', f);
    finish(f);
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "nested deeper than the JSON reader's limit");
}
Test(hostile, arrays_and_objects_100000_deep_unterminated)
{
    /* never closed: the reader must stop at its limit, not at the end */
    FILE *f = create(DF "f.json");
    for (int i = 0; i < 50000; i++) fputs("[{\"input\":", f);
    finish(f);
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "nested deeper than the JSON reader's limit");
}
static void nested_abs(int n)
{
    FILE *f = create(DF "f.json");
    for (int i = 0; i < n; i++) fputs("{\"type\":\"minecraft:abs\",\"input\":", f);
    fputc('1', f);
    for (int i = 0; i < n; i++) fputc('}', f);
    finish(f);
}
Test(hostile, density_functions_600_deep_over_the_default_limit)
{
    nested_abs(600);
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"t:f"};
    double t0 = now_s();
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_ERR_LIMIT, "%s", err.message);
    double dt = now_s() - t0;
    cf_pack_free(pk);
    cr_assert_lt(dt, 1.0 * SLOW, "%.3f s", dt);
    /* located at the 513th function: the pointer alone is 3072 characters, so
     * only its start fits the 1024-byte message (see ..._message_fits below) */
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s/" DF "f.json#/input/input/input/", root);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "%.300s", err.message);
    cr_assert_null(strchr(err.message, '\n'));
}
/* Disabled: fails today. A pointer longer than the message buffer crowds out
 * the message itself: the line is "f.json#/input/input/..." cut at 1023
 * characters, without "nested deeper than 512". Enable once long pointers are
 * shortened (e.g. the middle elided) so that the message always fits. */
Test(hostile, density_functions_600_deep_message_fits)
{
    nested_abs(600);
    cf_error err = {0};
    const char *paths[1] = {root};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"t:f"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_ERR_LIMIT);
    cf_pack_free(pk);
    cr_assert(strstr(err.message, DF "f.json#/input/input/"), "%.300s", err.message);
    cr_assert(strstr(err.message, ": nested deeper than 512"), "%.300s", err.message);
}
Test(hostile, density_functions_150_deep_over_a_limit_of_100)
{
    nested_abs(150);
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_depth = 100;
    expect_long_pointer("t:f", CF_ERR_LIMIT, DF "f.json", "/input/input/input/input/input/input/input/input",
                        ": nested deeper than 100", &lim);
}
Test(hostile, splines_60_deep_over_a_limit_of_40)
{
    /* nested splines count as nesting too (each is 3 JSON levels deep, so the
     * JSON reader's limit of 1000 comes before a depth limit of 512) */
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:spline\",\"spline\":", f);
    for (int i = 0; i < 60; i++) fputs("{\"coordinate\":0,\"points\":[{\"location\":0,\"derivative\":0,\"value\":", f);
    fputc('1', f);
    for (int i = 0; i < 60; i++) fputs("}]}", f);
    fputc('}', f);
    finish(f);
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_depth = 40;
    /* the function is depth 1, its spline too; each nested spline one more */
    expect_long_pointer("t:f", CF_ERR_LIMIT, DF "f.json", "/spline/points/0/value/points/0/value/points/0/value",
                        ": nested deeper than 40", &lim);
}
Test(hostile, splines_400_deep_beyond_the_json_reader)
{
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:spline\",\"spline\":", f);
    for (int i = 0; i < 400; i++) fputs("{\"coordinate\":0,\"points\":[{\"location\":0,\"derivative\":0,\"value\":", f);
    fputc('1', f);
    for (int i = 0; i < 400; i++) fputs("}]}", f);
    fputc('}', f);
    finish(f);
    expect("t:f", CF_ERR_JSON, DF "f.json", "", "nested deeper than the JSON reader's limit");
}
Test(hostile, reference_chain_through_2000_files)
{
    char rel[256];
    for (int i = 0; i < 2000; i++) {
        snprintf(rel, sizeof rel, DF "f%d.json", i);
        if (i == 0) mkparents(rel);
        char p[1024];
        path_of(p, sizeof p, rel);
        FILE *f = fopen(p, "wb");
        cr_assert_not_null(f);
        fprintf(f, "{\"type\":\"minecraft:abs\",\"input\":\"t:f%d\"}", i + 1);
        finish(f);
    }
    /* f0 .. f511 are being parsed when f511 refers to f512 */
    double dt = expect("t:f0", CF_ERR_LIMIT, DF "f511.json", "/input", "references nested deeper than 512");
    cr_assert_lt(dt, 2.0 * SLOW, "%.3f s", dt);
}
Test(hostile, reference_chain_through_2000_files_with_a_higher_limit)
{
    /* a limit above the chain: the chain ends in a missing file, reported there,
     * and the recursion through 2000 files does not exhaust the stack */
    char rel[256];
    for (int i = 0; i < 2000; i++) {
        snprintf(rel, sizeof rel, DF "f%d.json", i);
        if (i == 0) mkparents(rel);
        char p[1024];
        path_of(p, sizeof p, rel);
        FILE *f = fopen(p, "wb");
        cr_assert_not_null(f);
        fprintf(f, "{\"type\":\"minecraft:abs\",\"input\":\"t:f%d\"}", i + 1);
        finish(f);
    }
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_depth = 5000;
    double dt = expect_lim("t:f0", CF_ERR_REF, DF "f1999.json", "/input",
                           "unresolved reference to density function \"t:f2000\"", &lim);
    cr_assert_lt(dt, 5.0 * SLOW, "%.3f s", dt);
}

/* ------------------------------------------------------------------ huge arrays and objects */

/* compiles `function` of the pack at root and samples it at (0, y, 0) for each y of ys; returns
 * the seconds (CPU) the compile and the samples took */
static double sample_ys(const char *function, const int32_t *ys, int n, double *out)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    double t0 = now_s();
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {function};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 0, &err), CF_OK, "%s", err.message);
    int32_t xyz[3 * 8];
    cr_assert_leq(n, 8);
    for (int i = 0; i < n; i++) xyz[3 * i] = 0, xyz[3 * i + 1] = ys[i], xyz[3 * i + 2] = 0;
    cr_assert_eq(cf_sample(w, 0, (size_t)n, xyz, out, &err), CF_OK, "%s", err.message);
    double dt = now_s() - t0;
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return dt;
}

/* issue 32 item 7: spline points and interval_select thresholds were fixed tables (65,536 and
 * 4,096), limits the game's codecs do not have. Now as many as the file holds: a million points
 * are more JSON values than one file may hold (4 each); 65,537 points and a million thresholds
 * compile and take the interval the game takes (the coordinate runs 0 .. N over y -64 .. 320) */
Test(hostile, spline_of_a_million_points)
{
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:spline\",\"spline\":{\"coordinate\":0,\"points\":[", f);
    for (int i = 0; i < 1000000; i++) fprintf(f, "%s{\"location\":%d,\"value\":0,\"derivative\":0}", i ? "," : "", i);
    fputs("]}}", f);
    finish(f);
    double dt = expect("t:f", CF_ERR_LIMIT, DF "f.json", "", "more than 4000000 JSON values in one file");
    cr_assert_lt(dt, 10.0 * SLOW, "%.3f s", dt);
    cr_assert_lt(peak_mib(), 2048.0 * SLOW, "peak %.0f MiB", peak_mib());
}
static const char *GRADIENT = "{\"type\":\"minecraft:gradient\",\"axis\":\"y\",\"from_coordinate\":-64,\"to_coordinate\":320,\"from_value\":0,\"to_value\":%d}";
Test(hostile, spline_of_65537_points)
{
    const int n = 65537;
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:spline\",\"spline\":{\"coordinate\":", f);
    fprintf(f, GRADIENT, n);
    fputs(",\"points\":[", f);
    for (int i = 0; i < n; i++) fprintf(f, "%s{\"location\":%d,\"value\":%d,\"derivative\":0}", i ? "," : "", i, i % 7);
    fputs("]}}", f);
    finish(f);
    /* at y = 320 the coordinate is 65537: past the last point (65536, value 65536 % 7 = 2), extended flat;
     * at y = 0, 65537 * 64 / 384 = 10922.83: between points 10922 (value 2) and 10923 (value 3) */
    const int32_t ys[3] = {320, -64, 0};
    double v[3];
    double dt = sample_ys("t:f", ys, 3, v);
    cr_expect_eq(v[0], 2.0, "%g", v[0]);
    cr_expect_eq(v[1], 0.0, "%g", v[1]);
    cr_expect(v[2] > 2.0 && v[2] < 3.0, "%g", v[2]);
    cr_assert_lt(dt, 10.0 * SLOW, "%.3f s", dt);
}
Test(hostile, interval_select_of_a_million_thresholds)
{
    const int n = 1000000;
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:interval_select\",\"input\":", f);
    fprintf(f, GRADIENT, n);
    fputs(",\"thresholds\":[", f);
    for (int i = 0; i < n; i++) fprintf(f, i ? ",%d" : "%d", i);
    fputs("],\"functions\":[", f);
    for (int i = 0; i < n + 1; i++) fprintf(f, i ? ",%d" : "%d", i % 7);
    fputs("]}", f);
    finish(f);
    /* y = 0: 1e6 * 64 / 384 = 166666.67 (as a float), first threshold above it 166667: 166667 % 7 = 4;
     * y = 100: 427083.34, 427084 % 7 = 0; y = 320: 1e6, above every threshold: the last, 1000000 % 7 = 1 */
    const int32_t ys[3] = {0, 100, 320};
    double v[3];
    double dt = sample_ys("t:f", ys, 3, v);
    cr_expect_eq(v[0], 4.0, "%g", v[0]);
    cr_expect_eq(v[1], 0.0, "%g", v[1]);
    cr_expect_eq(v[2], 1.0, "%g", v[2]);
    cr_assert_lt(dt, 10.0 * SLOW, "%.3f s", dt);
}
/* the device's code holds thresholds as a chain (EMIT_MAX_TABLE, the old limit, 4,096; PoCL takes
 * 30 CPU seconds to build a chain that long): one more is refused there with one line, and
 * --device auto fills it on the CPU, the CPU's bytes */
Test(hostile, interval_select_of_4097_thresholds_on_the_device)
{
    const int n = 4097;
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:interval_select\",\"input\":", f);
    fprintf(f, GRADIENT, n);
    fputs(",\"thresholds\":[", f);
    for (int i = 0; i < n; i++) fprintf(f, i ? ",%d" : "%d", i);
    fputs("],\"functions\":[", f);
    for (int i = 0; i < n + 1; i++) fprintf(f, i ? ",%d" : "%d", i % 7);
    fputs("]}", f);
    finish(f);
    char args[2048], out[4096], err[4096];
    snprintf(args, sizeof args, "fill --pack '%s' --settings t:s --seed 0 --chunks 0,0 --quiet --device opencl --out '%s/d.npy'", root, root);
    cr_assert_neq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "the device took it: %s", out);
    if (strstr(err, "no usable OpenCL device") && !strstr(err, "4097 thresholds")) cr_skip_test("no OpenCL device: %s", err);
    cr_expect(strstr(err, "f.json#: 4097 thresholds: the device backend handles at most 4096") && strchr(err, '\n') == strrchr(err, '\n'),
              "%s", err);
    snprintf(args, sizeof args,
             "fill --pack '%s' --settings t:s --seed 0 --chunks 0,0 --quiet --device auto --out '%s/a.npy' 2>/dev/null && "
             "'%s' fill --pack '%s' --settings t:s --seed 0 --chunks 0,0 --quiet --device cpu --out '%s/c.npy' && cmp '%s/a.npy' '%s/c.npy' && echo same",
             root, root, CF_BINARY, root, root, root, root);
    cr_expect_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s %s", out, err);
    cr_expect(strstr(out, "same"), "auto: %s %s", out, err);
}
Test(hostile, interval_select_thresholds_out_of_order)
{
    put(DF "f.json", "{\"type\":\"minecraft:interval_select\",\"input\":0,\"thresholds\":[0,2,1],\"functions\":[0,1,2,3]}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/thresholds/2", "thresholds must be ordered from smallest to largest (1 after 2)");
    put(DF "f.json", "{\"type\":\"minecraft:interval_select\",\"input\":0,\"thresholds\":[],\"functions\":[0]}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/functions", "1 functions (the game takes at least 2)");
}
Test(hostile, interval_select_of_a_million_thresholds_and_one_function)
{
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:interval_select\",\"input\":0,\"thresholds\":[", f);
    for (int i = 0; i < 1000000; i++) fputs(i ? ",0" : "0", f);
    fputs("],\"functions\":[1]}", f);
    finish(f);
    /* either complaint is fine; the count mismatch is found first */
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/functions", "1 functions for 1000000 thresholds");
}
Test(hostile, object_of_a_million_keys_with_one_duplicate)
{
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:abs\",\"input\":1", f);
    for (int i = 0; i < 1000000; i++) fprintf(f, ",\"k%d\":0", i);
    fputs(",\"k500000\":1}", f);
    finish(f);
    double dt = expect("t:f", CF_ERR_JSON, DF "f.json", "/k500000", "duplicate key \"k500000\"");
    cr_assert_lt(dt, 5.0 * SLOW, "%.3f s", dt);
}
Test(hostile, object_of_a_million_distinct_keys)
{
    /* no duplicate: the check must still be quick; the object has no type */
    FILE *f = create(DF "f.json");
    fputc('{', f);
    for (int i = 0; i < 1000000; i++) fprintf(f, "%s\"k%d\":[%d]", i ? "," : "", i, i);
    fputc('}', f);
    finish(f);
    double dt = expect("t:f", CF_ERR_SCHEMA, DF "f.json", "", "missing field \"type\"");
    cr_assert_lt(dt, 5.0 * SLOW, "%.3f s", dt);
}

/* ------------------------------------------------------------------ files that are not small regular files */

Test(hostile, sparse_2gb_file_refused_by_size)
{
    char p[1024];
    mkparents(DF "f.json");
    path_of(p, sizeof p, DF "f.json");
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(ftruncate(fileno(f), (off_t)2 << 30), 0); /* a hole: no disk space */
    fclose(f);
    double dt = expect("t:f", CF_ERR_LIMIT, DF "f.json", "",
                       "file is 2147483648 bytes, over the limit of 67108864 bytes");
    cr_assert_lt(dt, 1.0, "%.3f s", dt);
    cr_assert_lt(peak_mib(), 512.0 * SLOW, "peak %.0f MiB", peak_mib());
}
Test(hostile, sparse_file_over_a_raised_limit)
{
    /* a limit of 4 GiB: a 5 GiB hole is still refused before reading */
    char p[1024];
    mkparents(DF "f.json");
    path_of(p, sizeof p, DF "f.json");
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(ftruncate(fileno(f), (off_t)5 << 30), 0);
    fclose(f);
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_file_bytes = (size_t)4 << 30;
    expect_lim("t:f", CF_ERR_LIMIT, DF "f.json", "", "file is 5368709120 bytes, over the limit of 4294967296 bytes",
               &lim);
}
Test(hostile, a_directory_named_like_a_function)
{
    mkparents(DF "f.json");
    char p[1024];
    path_of(p, sizeof p, DF "f.json");
    cr_assert_eq(mkdir(p, 0755), 0);
    expect("t:f", CF_ERR_IO, DF "f.json", "", "not a regular file");
}
Test(hostile, a_fifo_named_like_a_function)
{
    /* nobody writes to it: opening it for reading would block forever */
    mkparents(DF "f.json");
    char p[1024];
    path_of(p, sizeof p, DF "f.json");
    cr_assert_eq(mkfifo(p, 0644), 0);
    double dt = expect("t:f", CF_ERR_IO, DF "f.json", "", "not a regular file");
    cr_assert_lt(dt, 1.0, "%.3f s", dt);
}
Test(hostile, a_symlink_to_a_fifo_in_the_pack)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:pipe\"}");
    char p[1024], q[1024];
    path_of(p, sizeof p, DF "pipe-target");
    path_of(q, sizeof q, DF "pipe.json");
    cr_assert_eq(mkfifo(p, 0644), 0);
    cr_assert_eq(symlink(p, q), 0);
    expect("t:f", CF_ERR_IO, DF "pipe.json", "", "not a regular file");
}
Test(hostile, a_symlink_to_dev_zero)
{
    /* endless, and outside the pack: refused before anything is read */
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:zero\"}");
    char q[1024];
    path_of(q, sizeof q, DF "zero.json");
    cr_assert_eq(symlink("/dev/zero", q), 0);
    expect("t:f", CF_ERR_IO, DF "zero.json", "", "not a regular file");
}
/* a link that cannot be followed is there but unreadable: reported as such, not as a
 * missing file (an unresolved reference that sent the user looking for a file) */
Test(hostile, a_symlink_loop)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:loop\"}");
    char p[1024], q[1024];
    path_of(p, sizeof p, DF "loop.json");
    path_of(q, sizeof q, DF "back.json");
    cr_assert_eq(symlink("back.json", p), 0);
    cr_assert_eq(symlink("loop.json", q), 0);
    expect("t:f", CF_ERR_IO, DF "loop.json", "", "cannot read: Too many levels of symbolic links");
}
Test(hostile, a_symlink_to_nothing)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:gone\"}");
    char p[1024];
    path_of(p, sizeof p, DF "gone.json");
    cr_assert_eq(symlink("nowhere.json", p), 0);
    expect("t:f", CF_ERR_IO, DF "gone.json", "", "a symbolic link to a file that does not exist");
}

/* ------------------------------------------------------------------ ids */

Test(hostile, id_with_dotdot)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:a/../../../noise/n\"}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id \"t:a/../../../noise/n\": empty, \".\" or \"..\" path segment");
}
Test(hostile, id_with_uppercase_in_path)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:Caves\"}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id \"t:Caves\": bad character in path");
}
Test(hostile, id_with_uppercase_in_namespace)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"T:caves\"}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id \"T:caves\": bad character in namespace");
}
Test(hostile, id_with_backslash)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:..\\\\..\\\\x\"}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id \"t:..\\..\\x\": bad character in path");
}
Test(hostile, absolute_looking_id)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:/etc/passwd\"}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id \"t:/etc/passwd\": empty, \".\" or \"..\" path segment");
}
/* Disabled: fails today. cJSON ends a string at an escaped NUL, so the id
 * "t:g\u0000/../f" is read as "t:g" and compiles (nothing outside the pack can
 * be named that way, but an id Minecraft refuses is accepted, and a key
 * "input\u0000x" counts as "input"). Enable once strings holding U+0000 are
 * refused. */
Test(hostile, id_with_nul_escape)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":\"t:g\\u0000/../f\"}");
    put(DF "g.json", "1");
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"t:f"};
    cf_status st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    cf_program_free(pg);
    cf_pack_free(pk);
    cr_assert_neq(st, CF_OK, "an id with U+0000 compiled");
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s/" DF "f.json#", root);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "%s", err.message);
}
Test(hostile, id_too_long)
{
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:abs\",\"input\":\"t:", f);
    for (int i = 0; i < 100000; i++) fputc('a', f);
    fputs("\"}", f);
    finish(f);
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "invalid id \"t:aaaa");
}
Test(hostile, requested_function_with_dotdot)
{
    expect("t:../noise_settings/s", CF_ERR_SCHEMA, "<arguments>", "", "invalid id");
}

/* ------------------------------------------------------------------ numbers */

Test(hostile, number_1e400)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":1e400}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "number out of range (not finite)");
}
Test(hostile, number_minus_1e400)
{
    put(DF "f.json", "{\"type\":\"minecraft:clamp\",\"input\":0,\"min\":-1e400,\"max\":1}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/min", "number out of range (not finite)");
}
Test(hostile, number_1e39_in_a_float_field)
{
    put(DF "f.json", "{\"type\":\"minecraft:clamp\",\"input\":0,\"min\":0,\"max\":1e39}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/max", "number 1e+39 is out of float range");
}
Test(hostile, number_1e39_as_a_constant)
{
    put(DF "f.json", "{\"type\":\"minecraft:abs\",\"input\":-1e39}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "number -1e+39 is out of float range");
}
Test(hostile, number_1e39_as_a_spline_location)
{
    put(DF "f.json", "{\"type\":\"minecraft:spline\",\"spline\":{\"coordinate\":0,\"points\":["
                     "{\"location\":1e39,\"value\":0}]}}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/spline/points/0/location", "out of float range");
}
Test(hostile, int64_max_in_an_int_field)
{
    put(DF "f.json", "{\"type\":\"minecraft:slice\",\"axis\":\"y\",\"coordinate\":9223372036854775807,\"input\":0}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/coordinate", "out of range [-2147483648, 2147483647]");
}
Test(hostile, int_max_plus_one_in_an_int_field)
{
    put(DF "f.json", "{\"type\":\"minecraft:slice\",\"axis\":\"y\",\"coordinate\":2147483648,\"input\":0}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/coordinate", "integer 2147483648 out of range");
}
Test(hostile, fraction_in_an_int_field)
{
    put(DF "f.json", "{\"type\":\"minecraft:slice\",\"axis\":\"y\",\"coordinate\":2.5,\"input\":0}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/coordinate", "expected an integer, found 2.5");
}
Test(hostile, number_with_a_million_digits)
{
    FILE *f = create(DF "f.json");
    fputs("{\"type\":\"minecraft:abs\",\"input\":1", f);
    for (int i = 0; i < 1000000; i++) fputc('0', f);
    fputs("}", f);
    finish(f);
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/input", "number out of range (not finite)");
}

/* ------------------------------------------------------------------ noise settings and noises */

Test(hostile, settings_height_4096000)
{
    put(SETTINGS, "{\"noise\": {\"min_y\": -64, \"height\": 4096000}, \"noise_router\": {\"final_density\": 0}}");
    expect("router:final_density", CF_ERR_SCHEMA, SETTINGS, "/noise/height", "integer 4096000 out of range [0, 4064]");
}
Test(hostile, settings_min_y_not_a_multiple_of_16)
{
    put(SETTINGS, "{\"noise\": {\"min_y\": -60, \"height\": 384}, \"noise_router\": {\"final_density\": 0}}");
    expect("router:final_density", CF_ERR_SCHEMA, SETTINGS, "/noise", "min_y and height must be multiples of 16 (found -60, 384)");
}
Test(hostile, settings_above_the_world)
{
    put(SETTINGS, "{\"noise\": {\"min_y\": 2016, \"height\": 32}, \"noise_router\": {\"final_density\": 0}}");
    expect("router:final_density", CF_ERR_SCHEMA, SETTINGS, "/noise/height", "min_y + height must be at most 2032");
}
static void noise_function(void)
{
    put(DF "f.json", "{\"type\":\"minecraft:noise\",\"noise\":\"t:big\",\"xz_scale\":1,\"y_scale\":1}");
}
Test(hostile, noise_octave_count_a_million)
{
    noise_function();
    put("data/t/worldgen/noise/big.json", "{\"base_octave\": -7, \"octave_count\": 1000000}");
    expect("t:f", CF_ERR_SCHEMA, "data/t/worldgen/noise/big.json", "/octave_count", "integer 1000000 out of range [1, 32]");
}
Test(hostile, noise_base_octave_far_out)
{
    noise_function();
    put("data/t/worldgen/noise/big.json", "{\"base_octave\": -100000, \"octave_count\": 2}");
    expect("t:f", CF_ERR_SCHEMA, "data/t/worldgen/noise/big.json", "/base_octave", "out of range [-32, 32]");
}
Test(hostile, noise_a_million_amplitude_modifiers)
{
    noise_function();
    FILE *f = create("data/t/worldgen/noise/big.json");
    fputs("{\"base_octave\": -7, \"octave_count\": 2, \"amplitude_modifiers\": [", f);
    for (int i = 0; i < 1000000; i++) fputs(i ? ",1" : "1", f);
    fputs("]}", f);
    finish(f);
    double dt = expect("t:f", CF_ERR_LIMIT, "data/t/worldgen/noise/big.json", "/amplitude_modifiers",
                       "1000000 amplitude modifiers (the game's limit: at most 32)");
    cr_assert_lt(dt, 5.0 * SLOW, "%.3f s", dt);
}

/* ------------------------------------------------------------------ values */

Test(hostile, log_of_a_negative_number_is_nan)
{
    /* not an error: vanilla computes Math.log(-1) = NaN, and so do we. The
     * sample path returns the NaN; `chunkfill sample` prints it as "nan". */
    put(DF "f.json", "{\"type\":\"minecraft:log\",\"input\":-1}");
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"t:f"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 1, &err), CF_OK, "%s", err.message);
    int32_t xyz[6] = {0, 0, 0, 1000, -64, -1000};
    double out[2] = {0, 0};
    cr_assert_eq(cf_sample(w, 0, 2, xyz, out, &err), CF_OK, "%s", err.message);
    cr_assert(isnan(out[0]) && isnan(out[1]), "%g %g", out[0], out[1]);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);

    char cmd[1400], line[256] = "";
    snprintf(cmd, sizeof cmd, "'%s' sample --pack '%s' --settings t:s --seed 1 --function t:f --at 0,0,0 2>&1", CF_BINARY,
             root);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    if (!fgets(line, sizeof line, p)) line[0] = 0;
    int st = pclose(p);
    cr_assert_eq(st, 0, "%s", line);
    cr_assert_str_eq(line, "0 0 0 nan\n");
}

/* ------------------------------------------------------------------ known failures (disabled; see each) */

/* Disabled: crashes today (stack overflow in the recursive evaluator). The
 * nesting limit bounds the depth of each parse, not the depth of the graph:
 * interval_select lists l1..l1500 in order, each l<i> is 500 nested abs ending
 * in a reference to l<i-1>, which is already parsed, so the reference costs no
 * depth. The graph is 750,000 nodes deep (under max_nodes); cf_sample of the
 * deepest branch overflows the stack (100,000 deep is enough under ASan).
 * Enable once graph depth is limited (a located CF_ERR_LIMIT) or evaluation
 * no longer recurses. */
Test(hostile, graph_750000_deep_through_reused_files, .timeout = 300)
{
    enum { K = 1500, D = 500 };
    char rel[256];
    put(DF "l0.json", "{\"type\":\"minecraft:gradient\",\"axis\":\"y\",\"from_coordinate\":-64,\"to_coordinate\":320,"
                      "\"from_value\":1,\"to_value\":-1}");
    for (int i = 1; i <= K; i++) {
        snprintf(rel, sizeof rel, DF "l%d.json", i);
        FILE *f = create(rel);
        for (int k = 0; k < D; k++) fputs("{\"type\":\"minecraft:abs\",\"input\":", f);
        fprintf(f, "\"t:l%d\"", i - 1);
        for (int k = 0; k < D; k++) fputc('}', f);
        finish(f);
    }
    FILE *f = create(DF "f.json");
    fprintf(f, "{\"type\":\"minecraft:interval_select\",\"input\":%d.5,\"thresholds\":[", K - 1);
    for (int i = 0; i < K; i++) fprintf(f, "%s%d", i ? "," : "", i);
    fputs("],\"functions\":[\"t:l0\"", f);
    for (int i = 1; i <= K; i++) fprintf(f, ",\"t:l%d\"", i);
    fputs("]}", f);
    finish(f);
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"t:f"};
    cf_status st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    cf_pack_free(pk);
    if (st != CF_OK) { /* refused: must be located */
        cr_assert_eq(st, CF_ERR_LIMIT, "%s", err.message);
        cr_assert(strstr(err.message, ".json#/"), "%s", err.message);
        return;
    }
    cr_assert_eq(cf_world_new(&w, pg, 1, &err), CF_OK, "%s", err.message);
    int32_t xyz[3] = {0, 0, 0};
    double out = 0;
    cr_assert_eq(cf_sample(w, 0, 1, xyz, &out, &err), CF_OK, "%s", err.message);
    cr_assert_eq(out, (double)(2.0f / 3.0f));
    cf_world_free(w);
    cf_program_free(pg);
}

/* Disabled: fails today. The file size limit does not bound memory: a 64 MiB
 * array of zeros (within the default limit) is 33 million cJSON nodes, about
 * 2.7 GB resident and 7 s before the schema error. Enable once the reader
 * bounds values per file (or the default file limit is lowered to match). */
Test(hostile, array_of_33_million_zeros_in_bounded_memory)
{
    FILE *f = create(DF "f.json");
    size_t n = ((size_t)64 << 20) / 2 - 64;
    fputc('[', f);
    for (size_t i = 0; i < n; i++) fputs(i ? ",0" : "0", f);
    fputc(']', f);
    finish(f);
    /* refused before a tree is built: the count of values is bounded */
    expect("t:f", CF_ERR_LIMIT, DF "f.json", "", "more than 4000000 JSON values in one file");
    cr_assert_lt(peak_mib(), 1024.0 * SLOW, "peak %.0f MiB", peak_mib());
}

/* Disabled: fails today. Vanilla 26.3 reads find_top_surface.lower_bound with
 * Codec.intRange(MIN_Y * 2, MAX_Y * 2) = [-4064, 4062]; chunkfill takes any int,
 * so lower_bound -2147483648 costs up to 2^32 probes per column (about 10 s per
 * point even for a constant density). Enable once the range is vanilla's. */
Test(hostile, find_top_surface_lower_bound_out_of_vanilla_range)
{
    put(DF "f.json", "{\"type\":\"minecraft:find_top_surface\",\"density\":-1,\"upper_bound\":2000000000,"
                     "\"lower_bound\":-2147483648,\"cell_height\":1}");
    expect("t:f", CF_ERR_SCHEMA, DF "f.json", "/lower_bound", "out of range [-4064, 4062]");
}
