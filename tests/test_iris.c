/* test_iris.c - the Iris front-end (host/frontend/iris/, kernels/cf_iris.h) against
 * values computed by Iris's own Java code (../shared/iris/, see its README):
 * every record of styles_master.jsonl and styles_unification.jsonl whose style
 * is implemented must have the bits of `strict_bits` where the record carries
 * one (Math vs StrictMath: the project follows StrictMath, fdlibm's pow, sin
 * and cos in kernels/cf_iris.h), else of `bits`. Styles not implemented yet are listed by name, never
 * counted. tests/golden/iris-styles.jsonl is a committed subset (made by
 * tests/golden/make-iris-subset.sh) so that a clone without ../shared still
 * checks every implemented style. OpenCL (PoCL) equals the CPU on fills of
 * every implemented style. Bad input: unknown style, unknown dialect.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cpu/cpu.h"
#include "frontend/iris/iris.h"
#include "chunkfill.h"
#include "testutil.h"


typedef struct rec {
    char style[64];
    int unif, dims, has_strict;
    int64_t seed;
    double x, y, z;
    uint64_t bits, strict;
} rec;

static int load(const char *path, rec **out, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t cap = 1024, k = 0;
    rec *r = malloc(cap * sizeof *r);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        cJSON *j = cJSON_Parse(line);
        if (!j) continue;
        if (k == cap) {
            rec *nr = realloc(r, (cap *= 2) * sizeof *r);
            cr_assert(nr);
            r = nr;
        }
        rec *e = &r[k];
        memset(e, 0, sizeof *e);
        const cJSON *v;
        snprintf(e->style, sizeof e->style, "%s", cJSON_GetObjectItem(j, "style")->valuestring);
        e->unif = strcmp(cJSON_GetObjectItem(j, "branch")->valuestring, "unification") == 0;
        e->dims = cJSON_GetObjectItem(j, "dims")->valueint;
        /* seeds beyond 2^53 (9000000000 is not): read the decimal text exactly */
        v = cJSON_GetObjectItem(j, "seed");
        e->seed = (int64_t)v->valuedouble;
        e->x = cJSON_GetObjectItem(j, "x")->valuedouble;
        v = cJSON_GetObjectItem(j, "y");
        e->y = cJSON_IsNumber(v) ? v->valuedouble : 0.0;
        e->z = cJSON_GetObjectItem(j, "z")->valuedouble;
        e->bits = strtoull(cJSON_GetObjectItem(j, "bits")->valuestring, NULL, 16);
        v = cJSON_GetObjectItem(j, "strict_bits");
        if (v && cJSON_IsString(v)) e->has_strict = 1, e->strict = strtoull(v->valuestring, NULL, 16);
        cJSON_Delete(j);
        k++;
    }
    fclose(f);
    *out = r;
    *n = k;
    return 0;
}

typedef struct tally {
    int styles, implemented, missing;
    size_t records, exact, strict, bad;
    char notyet[8192];
} tally;

/* checks every record of recs[0..n) (grouped by style as the files are) */
static void check(const char *label, rec *recs, size_t n, tally *t)
{
    memset(t, 0, sizeof *t);
    cf_pack *pk = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && strcmp(recs[j].style, recs[i].style) == 0 && recs[j].unif == recs[i].unif) j++;
        t->styles++;
        char missing[64];
        int st = iris_style_status(recs[i].style, recs[i].unif, missing, sizeof missing);
        cr_assert_geq(st, 0, "%s: style %s is not in the style table", label, recs[i].style);
        if (st == 0) {
            t->missing++;
            size_t l = strlen(t->notyet);
            snprintf(t->notyet + l, sizeof t->notyet - l, "%s%s", l ? " " : "", recs[i].style);
            i = j;
            continue;
        }
        t->implemented++;
        char f3[128], f2[128];
        snprintf(f3, sizeof f3, "iris:style/%s", recs[i].style);
        snprintf(f2, sizeof f2, "iris:style/%s#2d", recs[i].style);
        const char *fns[2] = {f3, f2};
        cf_program *pg = NULL;
        cr_assert_eq(cf_program_compile(&pg, pk, recs[i].unif ? "iris:unification" : "iris:master", fns, 2, &err), CF_OK,
                     "%s: %s", recs[i].style, err.message);
        cf_world *w = NULL;
        int64_t wseed = 0;
        for (size_t k = i; k < j; k++) {
            rec *e = &recs[k];
            if (!w || wseed != e->seed) {
                cf_world_free(w);
                cr_assert_eq(cf_world_new(&w, pg, e->seed, &err), CF_OK, "%s", err.message);
                wseed = e->seed;
            }
            double xyz[3] = {e->x, e->dims == 3 ? e->y : 0.0, e->z}, v;
            cr_assert_eq(cf_sample_f64(w, e->dims == 3 ? 0 : 1, 1, xyz, &v, &err), CF_OK, "%s", err.message);
            uint64_t b = dbits(v);
            t->records++;
            /* the project follows StrictMath: strict_bits where the record has it, else bits */
            if (!e->has_strict && b == e->bits) t->exact++;
            else if (e->has_strict && b == e->strict) t->strict++;
            else {
                if (t->bad < 20)
                    cr_log_error("%s: %s seed %" PRId64 " (%.17g, %.17g, %.17g) dims %d: got %016" PRIx64 " (%.17g), Iris %016" PRIx64,
                                 label, e->style, e->seed, e->x, e->y, e->z, e->dims, b, v, e->has_strict ? e->strict : e->bits);
                t->bad++;
            }
        }
        cf_world_free(w);
        cf_program_free(pg);
        i = j;
    }
    cf_pack_free(pk);
    printf("%s: %d styles, %d implemented (%zu records: %zu equal to bits, %zu equal to strict_bits, %zu wrong), "
           "%d not yet: %s\n",
           label, t->styles, t->implemented, t->records, t->exact, t->strict, t->bad, t->missing, t->notyet[0] ? t->notyet : "-");
    fflush(stdout);
}

static void full_file(const char *name, int nstyles, int min_impl)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/iris/%s", shared_dir(), name);
    struct stat st;
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    rec *r;
    size_t n;
    cr_assert_eq(load(p, &r, &n), 0);
    tally t;
    check(name, r, n, &t);
    free(r);
    cr_assert_eq(t.styles, nstyles, "%s: %d styles", name, t.styles);
    cr_assert_geq(t.implemented, min_impl, "%s: only %d styles implemented", name, t.implemented);
    cr_assert_eq(t.bad, 0, "%s: %zu of %zu records differ from Iris", name, t.bad, t.records);
}

/* pow (VASCULAR_THIN's 0.65) and sin/cos (Clover) are fdlibm's (StrictMath):
 * each record equals strict_bits where it has one, else bits */
Test(iris, styles_master) { full_file("styles_master.jsonl", 140, 140); }
Test(iris, styles_unification) { full_file("styles_unification.jsonl", 171, 171); }

Test(iris, committed_subset)
{
    rec *r;
    size_t n;
    cr_assert_eq(load(CF_SOURCE_DIR "/tests/golden/iris-styles.jsonl", &r, &n), 0);
    cr_assert_geq(n, 500);
    tally t;
    check("iris-styles.jsonl", r, n, &t);
    free(r);
    cr_assert_eq(t.styles, 140 + 171, "the subset has every style of both branches");
    cr_assert_eq(t.implemented, 140 + 171, "only %d styles implemented", t.implemented);
    cr_assert_eq(t.bad, 0, "%zu of %zu records differ from Iris", t.bad, t.records);
}

/* the worked example of IRIS.md §2.3 (independent of the golden files) */
Test(iris, worked_example_simplex)
{
    cf_pack *pk = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    const char *fns[2] = {"iris:style/SIMPLEX", "iris:style/SIMPLEX#2d"};
    const char *dl[2] = {"iris:master", "iris:unification"};
    const uint64_t want[2][2] = {{0x3fae2b70b0df8a98ULL, 0x3fe1f8de437107faULL}, {0x3fe84efc8d441d1aULL, 0x3fdf1a4cd9651326ULL}};
    for (int b = 0; b < 2; b++) {
        cf_program *pg = NULL;
        cf_world *w = NULL;
        cr_assert_eq(cf_program_compile(&pg, pk, dl[b], fns, 2, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&w, pg, 1337, &err), CF_OK);
        double p2[3] = {123.456, 0, 789.012}, p3[3] = {1, 2, 3}, v2, v3;
        cr_assert_eq(cf_sample_f64(w, 1, 1, p2, &v2, &err), CF_OK);
        cr_assert_eq(cf_sample_f64(w, 0, 1, p3, &v3, &err), CF_OK);
        cr_expect_eq(dbits(v2), want[b][0], "%s 2-D: %016" PRIx64, dl[b], dbits(v2));
        cr_expect_eq(dbits(v3), want[b][1], "%s 3-D: %016" PRIx64, dl[b], dbits(v3));
        cf_world_free(w);
        cf_program_free(pg);
    }
    cf_pack_free(pk);
}

/* ------------------------------------------------------------------ OpenCL (PoCL) == CPU */
/* iris:all: block (x, y) takes implemented style floorMod(y + 256 * floor(x / 16), n)
 * in 3-D / 2-D, so one program per branch covers every implemented style in
 * chunks (0, 0) and (-1, -1) (2 * 171 < 512); also chunks at |block| ~ 3e7
 * (FastNoise's f32 rounding, i64 hashing); two seeds */
static size_t device_vs_cpu(const char *dialect, const int32_t *chunks, size_t n)
{
    static const int64_t seeds[2] = {1337, -7};
    const char *fn[1] = {"iris:all"};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(&pg, pk, dialect, fn, 1, &err), CF_OK, "%s", err.message);
    size_t diff = device_diff(pg, seeds, 2, chunks, n, NULL, NULL);
    cf_program_free(pg);
    cf_pack_free(pk);
    return diff;
}

static const int32_t chunks[6] = {0, 0, -1, -1, 1874999, -1875000};

TestSuite(iris_device, .timeout = 1200);
Test(iris_device, opencl_equals_cpu_on_every_implemented_style_master) { cr_expect_eq(device_vs_cpu("iris:master", chunks, 3), 0u); }
Test(iris_device, opencl_equals_cpu_on_every_implemented_style_unification)
{
    cr_expect_eq(device_vs_cpu("iris:unification", chunks, 3), 0u);
}

/* iris:all's rows are the styles (the CPU fill equals single samples) */
Test(iris, all_rows_are_the_styles)
{
    cr_assert_leq(2 * iris_style_count(), 512, "chunks (0, 0) and (-1, -1) of iris:all reach every style");
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    const char *fns[3] = {"iris:all", "iris:style/IRIS", "iris:style/IRIS#2d"};
    cf_program *pg;
    cr_assert_eq(cf_program_compile(&pg, pk, "iris:master", fns, 3, &err), CF_OK, "%s", err.message);
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK);
    /* IRIS's rows: 2k (3-D) and 2k + 1 (2-D), k its rank among the implemented master styles */
    int k = 0;
    for (int i = 0; strcmp(iris_style_name(i, NULL), "IRIS") != 0; i++) k += iris_style_status(iris_style_name(i, NULL), 0, NULL, 0) == 1;
    double p[3] = {10, 2 * k, -3}, q[3] = {10, 2 * k + 1, -3}, a, b, c, d;
    cr_assert_eq(cf_sample_f64(w, 0, 1, p, &a, &err), CF_OK);
    cr_assert_eq(cf_sample_f64(w, 1, 1, p, &b, &err), CF_OK);
    cr_assert_eq(cf_sample_f64(w, 0, 1, q, &c, &err), CF_OK);
    cr_assert_eq(cf_sample_f64(w, 2, 1, q, &d, &err), CF_OK);
    cr_expect_eq(dbits(a), dbits(b));
    cr_expect_eq(dbits(c), dbits(d));
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ------------------------------------------------------------------ command line */
/* the CLI contract: 2-D and 3-D points, coordinates echoed as given, %.17g;
 * expected values: the worked example of IRIS.md §2.3 (golden records) */
Test(iris_cli, sample_styles_both_dialects)
{
    char out[4096];
    cr_assert_eq(run("sample --function iris:style/SIMPLEX --seed 1337 --at 123.456,789.012 --at 1,2,3", out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "123.456 789.012 0.058925172415702665\n1 2 3 0.56162942096875601\n");
    cr_assert_eq(run("sample --function iris:style/SIMPLEX --dialect unification --seed 1337 --at 123.456,789.012 --at 1.0,2,3e0",
                     out, sizeof out), 0, "%s", out);
    /* 3fe84efc8d441d1a, 3fdf1a4cd9651326 */
    cr_expect_str_eq(out, "123.456 789.012 0.75964191046742546\n1.0 2 3e0 0.48598023633921839\n");
    char path[] = "/tmp/cf_iris_points_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# x z\n123.456 789.012\n1 2 3\n");
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, "sample --function iris:style/SIMPLEX --seed 1337 --points %s", path);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "123.456 789.012 0.058925172415702665\n1 2 3 0.56162942096875601\n");
    unlink(path);
}

Test(iris_cli, bad_input_is_one_line)
{
    char out[4096];
    cr_expect_eq(run("sample --function iris:style/NOPE --seed 1 --at 1,2", out, sizeof out), 1);
    cr_expect_str_eq(out, "<arguments>: function \"iris:style/NOPE\": unknown NoiseStyle \"NOPE\" on Iris's master branch\n");
    cr_expect_eq(run("sample --function iris:style/SIMPLEX --dialect foo --seed 1 --at 1,2", out, sizeof out), 1);
    cr_expect_str_eq(out, "chunkfill: --dialect foo: unknown Iris dialect (master or unification)\n");
    /* a unification-only style on master */
    cr_expect_eq(run("sample --function iris:style/HEXAGON --seed 1 --at 1,2", out, sizeof out), 1);
    cr_expect_str_eq(out, "<arguments>: function \"iris:style/HEXAGON\": unknown NoiseStyle \"HEXAGON\" on Iris's master branch\n");
    /* the settings route names the dialect too */
    cr_expect_eq(run("sample --settings iris:bogus --function iris:style/SIMPLEX --seed 1 --at 1,2,3", out, sizeof out), 1);
    cr_expect_str_eq(out, "<arguments>: unknown Iris dialect \"bogus\" (master or unification)\n");
    /* 2-D points are for Iris */
    cr_expect_eq(run("sample --function router:final_density --seed 1 --at 1,2", out, sizeof out), 2);
    cr_expect_str_eq(out, "chunkfill: point 1: two numbers (X,Z) are an Iris 2-D point: give X,Y,Z (see chunkfill sample --help)\n");
}
