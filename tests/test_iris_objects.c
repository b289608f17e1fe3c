/* test_iris_objects.c - Iris's JSON layers (host/frontend/iris/iris.c, iris_styles.c: IrisGeneratorStyle,
 * IrisNoiseGenerator, IrisGenerator, SeedManager, IrisInterpolator) against
 * values computed by Iris's own Java classes (../shared/iris/, see its README).
 *
 * The bit rule: the project follows StrictMath (fdlibm's sin/cos in
 * kernels/cf_iris.h; pow is cf_pow_c, which agrees with fdlibm's pow on every
 * golden argument), so a record's value must have the bits of `strict_bits`
 * where the record carries one, else of `bits`. No other tolerance.
 *
 * Records: every one of objects_master.jsonl and objects_unification.jsonl
 * (kinds style, layer, generator; generator records with world_seed go through
 * the real function iris:generator/NAME of a pack written to a temporary
 * folder, their super seed from SeedManager). The object JSON comes from
 * definitions.json. Without ../shared (CF_SHARED overrides the folder) those
 * tests skip with a message, and tests/golden/iris-objects.jsonl (a subset
 * with the object definitions inside, made by tests/golden/make-iris-objects.sh)
 * still checks every object. OpenCL (PoCL) equals the CPU on every object and
 * on every interpolation method. Interpolation methods are also checked
 * against an independent evaluation of IRIS.md §8 written here. Bad input:
 * located one-line errors.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kernels/cf_iris.h"
#include "cpu/cpu.h"
#include "chunkfill.h"
#include "frontend/iris/iris.h"
#include "testutil.h"


/* the integer after "key": in a JSON text (exact beyond 2^53, unlike cJSON) */
static int raw_int(const char *text, const char *key, int64_t *v)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(text, pat);
    if (!p) return 0;
    *v = strtoll(p + strlen(pat), NULL, 10);
    return 1;
}

typedef struct orec {
    int unif, dims, has_world;
    char kind[16], name[64];
    int64_t seed, world;
    double x, y, z;
    uint64_t want; /* strict_bits if present, else bits */
} orec;

static orec *load_records(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 1024, k = 0;
    orec *r = malloc(cap * sizeof *r);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        cJSON *j = cJSON_Parse(line);
        if (!j) continue;
        const cJSON *kind = cJSON_GetObjectItem(j, "kind");
        if (!kind || !cJSON_IsString(kind)) { /* definition lines of the committed subset */
            cJSON_Delete(j);
            continue;
        }
        if (k == cap) {
            orec *nr = realloc(r, (cap *= 2) * sizeof *r);
            cr_assert(nr);
            r = nr;
        }
        orec *e = &r[k++];
        memset(e, 0, sizeof *e);
        e->unif = strcmp(cJSON_GetObjectItem(j, "branch")->valuestring, "unification") == 0;
        snprintf(e->kind, sizeof e->kind, "%s", kind->valuestring);
        snprintf(e->name, sizeof e->name, "%s", cJSON_GetObjectItem(j, "name")->valuestring);
        e->dims = cJSON_GetObjectItem(j, "dims")->valueint;
        cr_assert(raw_int(line, "seed", &e->seed));
        e->has_world = raw_int(line, "world_seed", &e->world);
        e->x = cJSON_GetObjectItem(j, "x")->valuedouble;
        const cJSON *y = cJSON_GetObjectItem(j, "y");
        e->y = cJSON_IsNumber(y) ? y->valuedouble : 0.0;
        e->z = cJSON_GetObjectItem(j, "z")->valuedouble;
        const cJSON *sb = cJSON_GetObjectItem(j, "strict_bits");
        e->want = strtoull((sb && cJSON_IsString(sb) ? sb : cJSON_GetObjectItem(j, "bits"))->valuestring, NULL, 16);
        cJSON_Delete(j);
    }
    fclose(f);
    *n = k;
    return r;
}

/* the JSON text of object (kind, name) of a definitions array */
static char *object_json(const cJSON *objects, const char *kind, const char *name)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, objects)
    {
        if (strcmp(cJSON_GetObjectItem(o, "kind")->valuestring, kind) == 0 &&
            strcmp(cJSON_GetObjectItem(o, "name")->valuestring, name) == 0)
            return cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "json"));
    }
    return NULL;
}

/* a pack folder holding generators/NAME.json for every generator object */
static void write_pack(const char *dir, const cJSON *objects)
{
    char p[512];
    snprintf(p, sizeof p, "%s/generators", dir);
    mkdir(dir, 0755);
    mkdir(p, 0755);
    const cJSON *o;
    cJSON_ArrayForEach(o, objects)
    {
        if (strcmp(cJSON_GetObjectItem(o, "kind")->valuestring, "generator") != 0) continue;
        snprintf(p, sizeof p, "%s/generators/%s.json", dir, cJSON_GetObjectItem(o, "name")->valuestring);
        FILE *f = fopen(p, "w");
        cr_assert(f);
        char *t = cJSON_Print(cJSON_GetObjectItem(o, "json"));
        fputs(t, f);
        free(t);
        fclose(f);
    }
}

static void rm_pack(const char *dir) /* only what write_pack made */
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

typedef struct otally {
    size_t records, good, bad;
    int objects;
} otally;

/* checks recs[0..n) (grouped as the files are: by branch, kind, name, seed) */
static void check_records(const char *label, const orec *recs, size_t n, const cJSON *objects, otally *t)
{
    memset(t, 0, sizeof *t);
    char dir[] = "/tmp/cf_iris_pack_XXXXXX";
    cr_assert(mkdtemp(dir));
    write_pack(dir, objects);
    cf_error err = {0};
    cf_pack *pk = NULL;
    const char *roots[1] = {dir};
    cr_assert_eq(cf_pack_open(&pk, roots, 1, NULL, &err), CF_OK, "%s", err.message);
    size_t i = 0;
    while (i < n) {
        const orec *a = &recs[i];
        size_t j = i;
        while (j < n && recs[j].unif == a->unif && strcmp(recs[j].kind, a->kind) == 0 && strcmp(recs[j].name, a->name) == 0 &&
               recs[j].seed == a->seed)
            j++;
        t->objects++;
        char *json = object_json(objects, a->kind, a->name);
        cr_assert(json, "%s: no definition of %s %s", label, a->kind, a->name);
        cf_program *pg[2] = {NULL, NULL};
        int64_t wseed = a->seed;
        if (a->has_world) {
            char fn[128];
            snprintf(fn, sizeof fn, "iris:generator/%s", a->name);
            const char *fns[1] = {fn};
            cr_assert_eq(cf_program_compile(&pg[0], pk, a->unif ? "iris:unification" : "iris:master", fns, 1, &err), CF_OK, "%s",
                         err.message);
            wseed = a->world;
            /* the super seed of the record: SeedManager's height + 239945 */
            cr_expect_eq(iris_seedmanager_height(a->world, a->unif) + 239945, a->seed, "%s: SeedManager(%" PRId64 ")", label,
                         a->world);
        } else {
            for (int d = 0; d < (strcmp(a->kind, "style") == 0 ? 2 : 1); d++)
                cr_assert_eq(iris_compile_json(&pg[d], a->kind, json, a->unif, d ? 3 : 2, &err), CF_OK, "%s %s: %s", a->kind,
                             a->name, err.message);
        }
        cf_world *w[2] = {NULL, NULL};
        for (int d = 0; d < 2; d++)
            if (pg[d]) cr_assert_eq(cf_world_new(&w[d], pg[d], wseed, &err), CF_OK, "%s", err.message);
        for (size_t k = i; k < j; k++) {
            const orec *e = &recs[k];
            double xyz[3] = {e->x, e->dims == 3 ? e->y : 0.0, e->z}, v;
            cr_assert_eq(cf_sample_f64(w[e->dims == 3 ? 1 : 0], 0, 1, xyz, &v, &err), CF_OK, "%s", err.message);
            t->records++;
            if (dbits(v) == e->want) t->good++;
            else {
                if (t->bad < 12)
                    cr_log_error("%s: %s %s %s seed %" PRId64 " (%.17g, %.17g, %.17g) dims %d: got %016" PRIx64 " (%.17g), Iris %016" PRIx64,
                                 label, a->unif ? "unification" : "master", e->kind, e->name, e->seed, e->x, e->y, e->z, e->dims,
                                 dbits(v), v, e->want);
                t->bad++;
            }
        }
        for (int d = 0; d < 2; d++) cf_world_free(w[d]), cf_program_free(pg[d]);
        free(json);
        i = j;
    }
    cf_pack_free(pk);
    rm_pack(dir);
    printf("%s: %d (object, seed) groups, %zu records: %zu exact, %zu wrong\n", label, t->objects, t->records, t->good, t->bad);
    fflush(stdout);
}

static cJSON *load_definitions(void)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/iris/definitions.json", shared_dir());
    char *s = slurp_if(p, NULL);
    if (!s) return NULL;
    cJSON *d = cJSON_Parse(s);
    free(s);
    return d;
}

static void full_file(const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/iris/%s", shared_dir(), name);
    struct stat st;
    cJSON *defs = load_definitions();
    if (stat(p, &st) != 0 || !defs) cr_skip_test("no %s or definitions.json (../shared; CF_SHARED overrides; CI has it)", p);
    size_t n;
    orec *r = load_records(p, &n);
    cr_assert_eq(n, 5312u, "%s: %zu records", name, n);
    otally t;
    check_records(name, r, n, cJSON_GetObjectItem(defs, "objects"), &t);
    free(r);
    cJSON_Delete(defs);
    cr_assert_eq(t.bad, 0, "%s: %zu of %zu records differ from Iris", name, t.bad, t.records);
}

TestSuite(iris_objects, .timeout = 1200);
Test(iris_objects, every_record_master) { full_file("objects_master.jsonl"); }
Test(iris_objects, every_record_unification) { full_file("objects_unification.jsonl"); }

/* ------------------------------------------------------------------ OpenCL (PoCL) == CPU */
/* fills of chunks of prog on PoCL and on the CPU, two seeds: the differing values */
static size_t device_vs_cpu(cf_program *pg, const int32_t *chunks, size_t n)
{
    static const int64_t seeds[2] = {1337, -7};
    return device_diff(pg, seeds, 2, chunks, n, NULL, NULL);
}

/* the objects of definitions.json, or of the committed subset's definition lines */
static cJSON *objects_or_subset(void)
{
    cJSON *defs = load_definitions();
    if (defs) {
        cJSON *o = cJSON_DetachItemFromObject(defs, "objects");
        cJSON_Delete(defs);
        return o;
    }
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/iris-objects.jsonl", "r");
    cr_assert(f);
    cJSON *arr = cJSON_CreateArray();
    static char line[65536];
    while (fgets(line, sizeof line, f)) {
        cJSON *j = cJSON_Parse(line);
        const cJSON *def = j ? cJSON_GetObjectItem(j, "definition") : NULL;
        if (def) cJSON_AddItemToArray(arr, cJSON_Duplicate(def, 1));
        cJSON_Delete(j);
    }
    fclose(f);
    return arr;
}

/* every object (styles in 3-D and 2-D, layers, generators) of one branch in one
 * program: rows of iris:rows; chunks (0, 0), (-1, -1) reach all 2 * 18 + 64 + 5 + 1
 * rows; a chunk at |block| ~ 3e7 */
static void objects_on_device(int unif)
{
    cJSON *objs = objects_or_subset();
    /* and what no golden object has: multiplicitive composites, cell cracks */
    cJSON_AddItemToArray(objs, cJSON_Parse("{\"kind\": \"generator\", \"name\": \"mult-cells\", \"json\": {\"seed\": 4,"
                                           " \"multiplicitive\": true, \"cellFractureHeight\": 0.3, \"cellFractureZoom\": 0.5,"
                                           " \"composite\": [{\"style\": {\"style\": \"SIMPLEX\"}}, {\"seed\": 8}]}}"));
    char *text = cJSON_PrintUnformatted(objs);
    cJSON_Delete(objs);
    cf_error err = {0};
    cf_program *pg;
    cr_assert_eq(iris_compile_json(&pg, "all", text, unif, 0, &err), CF_OK, "%s", err.message);
    free(text);
    static const int32_t chunks[6] = {0, 0, -1, -1, 1874999, -1875000};
    cr_expect_eq(device_vs_cpu(pg, chunks, 3), 0u);
    cf_program_free(pg);
}
TestSuite(iris_objects_device, .timeout = 1200);
Test(iris_objects_device, opencl_equals_cpu_on_every_object_master) { objects_on_device(0); }
Test(iris_objects_device, opencl_equals_cpu_on_every_object_unification) { objects_on_device(1); }

/* a cheap 2-D source for the interpolators: one SIMPLEX layer */
static const char *interp_gen = "{\"seed\": 5, \"interpolator\": {\"horizontalScale\": %s},"
                                " \"composite\": [{\"seed\": 3, \"style\": {\"style\": \"SIMPLEX\", \"zoom\": 0.3}}]}";

Test(iris_objects_device, opencl_equals_cpu_on_every_interpolation_method)
{
    static const char *const scales[2] = {"7", "5.5"};
    for (int s = 0; s < 2; s++) {
        char json[512];
        snprintf(json, sizeof json, interp_gen, scales[s]);
        cf_error err = {0};
        cf_program *pg;
        cr_assert_eq(iris_compile_json(&pg, "interpolators", json, s, 0, &err), CF_OK, "%s", err.message);
        static const int32_t chunks[4] = {0, 0, -1, 1874999};
        cr_expect_eq(device_vs_cpu(pg, chunks, 2), 0u, "horizontalScale %s", scales[s]);
        cf_program_free(pg);
    }
}

/* ------------------------------------------------------------------ IrisInterpolator, independently (IRIS.md §8) */
/* The source P and its interpolation in every method come from the library;
 * the expected value is computed here from P's samples by the formulas of
 * §8.1-8.4, written again without the library's kernels. Exact for every method
 * but the parametric ones (C's pow instead of fdlibm's: 1e-12) and the
 * starcasts (directions from C's cos/sin rounded to float: 1e-6). */
static cf_world *isrc_w, *iall_w;
static double P(double a, double b)
{
    double p[3] = {a, 0, b}, v;
    cf_error err = {0};
    cr_assert_eq(cf_sample_f64(isrc_w, 0, 1, p, &v, &err), CF_OK);
    return v;
}
static int32_t gridk(int32_t c, double r, int k)
{
    int32_t f = (int32_t)floor((double)c / r);
    return (int32_t)(int64_t)floor((double)(f + k) * r + 0.5);
}
static double lerp(double a, double b, double t) { return a + t * (b - a); }
static double herm(double p0, double p1, double p2, double p3, double mu, double tn, double bs)
{
    double mu2 = mu * mu, mu3 = mu2 * mu;
    double m0 = (p1 - p0) * (1 + bs) * (1 - tn) / 2 + (p2 - p1) * (1 - bs) * (1 - tn) / 2;
    double m1 = (p2 - p1) * (1 + bs) * (1 - tn) / 2 + (p3 - p2) * (1 - bs) * (1 - tn) / 2;
    return (2 * mu3 - 3 * mu2 + 1) * p1 + (mu3 - 2 * mu2 + mu) * m0 + (mu3 - mu2) * m1 + (-2 * mu3 + 3 * mu2) * p2;
}
/* form: 0 bilinear lerp, 1 bezier, 2..4 parametric 2, 4, 1.5 */
static double tmap(int form, double t)
{
    static const double al[5] = {0, 0, 2, 4, 1.5};
    if (form == 0) return t;
    if (form == 1) return t * t * (3 - 2 * t);
    return pow(t, al[form]) / (al[form] * (pow(t, al[form]) - pow(t, al[form] - 1)) + 1);
}
static double bil(int form, int32_t x, int32_t z, double r)
{
    int32_t x0 = gridk(x, r, 0), x1 = gridk(x, r, 1), z0 = gridk(z, r, 0), z1 = gridk(z, r, 1);
    double tx = tmap(form, (x - (double)x0) / ((double)x1 - x0)), tz = tmap(form, (z - (double)z0) / ((double)z1 - z0));
    return lerp(lerp(P(x0, z0), P(x1, z0), tx), lerp(P(x0, z1), P(x1, z1), tx), tz);
}
static double bih(int32_t x, int32_t z, double r, double tn, double bs)
{
    double col[4];
    double tx = (x - (double)gridk(x, r, 0)) / ((double)gridk(x, r, 1) - gridk(x, r, 0));
    double tz = (z - (double)gridk(z, r, 0)) / ((double)gridk(z, r, 1) - gridk(z, r, 0));
    for (int i = 0; i < 4; i++) {
        double gx = gridk(x, r, i - 1);
        col[i] = herm(P(gx, gridk(z, r, -1)), P(gx, gridk(z, r, 0)), P(gx, gridk(z, r, 1)), P(gx, gridk(z, r, 2)), tz, tn, bs);
    }
    return herm(col[0], col[1], col[2], col[3], tx, tn, bs);
}
static double star(int n, int inner, int32_t x, int32_t z, double r)
{
    float acc = 0, R = (float)r;
    for (int i = 0; i < n; i++) {
        double rad = (double)i * (360.0 / n) / 180.0 * M_PI;
        float c = (float)cos(rad), s = (float)sin(rad);
        float cx = (float)x + ((R * c) - (R * s)), cz = (float)z + ((R * s) + (R * c));
        double v = inner == 0 ? P(cx, cz) : inner == 1 ? bil(0, (int32_t)cx, (int32_t)cz, r) : bih((int32_t)cx, (int32_t)cz, r, 0, 0);
        acc = i == 0 ? (float)v : acc + (float)v;
    }
    return (double)(acc * (float)(1.0 / n));
}
static double expected(int m, double xd, double zd, double r)
{
    int32_t x = (int32_t)(int64_t)floor(xd + 0.5), z = (int32_t)(int64_t)floor(zd + 0.5);
    static const double tn[8] = {0.5, 0.8, 1, 0, 0, 0, 0, 0}, bs[8] = {0, 0, 0, 0, 0.5, -0.5, 1, -1};
    if (m == 0) return P(x, z);
    if (m <= 2) return bil(0, x, z, r); /* BICUBIC is bilinear in Iris */
    if (m <= 6) return bil(m - 2, x, z, r);
    if (m <= 14) return bih(x, z, r, tn[m - 7], bs[m - 7]);
    return star(3 * ((m - 15) % 4 + 1), (m - 15) / 4, x, z, r);
}

Test(iris_objects, every_interpolation_method_against_the_spec)
{
    static const char *const scales[3] = {"7", "5.5", "32"};
    static const double pts[6][2] = {{0, 0}, {3.4, -2.6}, {-17.5, 40.49}, {1000.2, -333.7}, {123456.7, 89.1}, {14, 21}};
    cf_error err = {0};
    for (int s = 0; s < 3; s++) {
        char json[512];
        snprintf(json, sizeof json, interp_gen, scales[s]);
        cf_program *src, *all;
        cr_assert_eq(iris_compile_json(&src, "generator", json, s & 1, 0, &err), CF_OK, "%s", err.message);
        cr_assert_eq(iris_compile_json(&all, "interpolators", json, s & 1, 0, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&isrc_w, src, 99, &err), CF_OK);
        cr_assert_eq(cf_world_new(&iall_w, all, 99, &err), CF_OK);
        double r = atof(scales[s]);
        for (int m = 0; m < CF_IIM_COUNT; m++)
            for (int k = 0; k < 6; k++) {
                double x = pts[k][0], z = pts[k][1];
                /* iris:rows picks row floorMod(floor(y) + 256 * floor(x / 16), 27) */
                long y = ((m - 256L * (long)floor(x / 16)) % 27 + 27) % 27;
                double p[3] = {x, (double)y, z}, got;
                cr_assert_eq(cf_sample_f64(iall_w, 0, 1, p, &got, &err), CF_OK);
                double want = expected(m, x, z, r);
                double tol = (m >= 4 && m <= 6) ? 1e-12 : m >= 15 ? 1e-6 : 0;
                cr_expect(fabs(got - want) <= tol, "%s r %s at (%g, %g): got %.17g, the spec %.17g", iris_interp_method_name(m),
                          scales[s], x, z, got, want);
            }
        /* a property independent of the formulas: on grid points the bilinear forms are P itself */
        int32_t gx = gridk(41, r, 0), gz = gridk(-9, r, 1);
        for (int m = 1; m <= 6; m++) {
            long y = ((m - 256L * (long)floor(gx / 16.0)) % 27 + 27) % 27;
            double p[3] = {gx, (double)y, gz}, got;
            cr_assert_eq(cf_sample_f64(iall_w, 0, 1, p, &got, &err), CF_OK);
            cr_expect_eq(dbits(got), dbits(P(gx, gz)), "%s on the grid point (%d, %d)", iris_interp_method_name(m), gx, gz);
        }
        cf_world_free(isrc_w), cf_world_free(iall_w);
        cf_program_free(src), cf_program_free(all);
    }
}

/* the committed subset: every object of both branches, with its definition inside */
Test(iris_objects, committed_subset)
{
    size_t n;
    orec *r = load_records(CF_SOURCE_DIR "/tests/golden/iris-objects.jsonl", &n);
    cr_assert(r);
    cr_assert_geq(n, 500u);
    cJSON *objs = cJSON_CreateArray();
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/iris-objects.jsonl", "r");
    static char line[65536];
    while (fgets(line, sizeof line, f)) {
        cJSON *j = cJSON_Parse(line);
        const cJSON *def = j ? cJSON_GetObjectItem(j, "definition") : NULL;
        if (def) cJSON_AddItemToArray(objs, cJSON_Duplicate(def, 1));
        cJSON_Delete(j);
    }
    fclose(f);
    cr_assert_eq(cJSON_GetArraySize(objs), 87);
    otally t;
    check_records("iris-objects.jsonl", r, n, objs, &t);
    cr_assert_eq(t.objects, 2 * 122, "every (object, seed) group of both branches: %d", t.objects);
    cr_assert_eq(t.bad, 0, "%zu of %zu records differ from Iris", t.bad, t.records);
    free(r);
    cJSON_Delete(objs);
}

/* SeedManager.getHeight() against definitions.json's generator_seeds (both
 * branches, 4 world seeds); read as text (the values exceed 2^53) */
Test(iris_objects, seedmanager_heights)
{
    char p[1024];
    shared_need("iris/definitions.json", p, sizeof p);
    char *s = slurp_if(p, NULL);
    if (!s) cr_skip_test("no %s (../shared; CF_SHARED overrides)", p);
    int n = 0;
    for (int b = 0; b < 2; b++) {
        const char *at = strstr(s, b ? "\"unification\"" : "\"master\"");
        at = strstr(at, "\"engine\"");
        for (int k = 0; k < 4; k++) {
            int64_t ws, h;
            at = strstr(at, "\"world_seed\"");
            cr_assert(at && raw_int(at, "world_seed", &ws) && raw_int(at, "seedmanager_height", &h));
            cr_expect_eq(iris_seedmanager_height(ws, b), h, "%s world seed %" PRId64, b ? "unification" : "master", ws);
            at++;
            n++;
        }
    }
    cr_assert_eq(n, 8);
    free(s);
}

/* ------------------------------------------------------------------ command line and bad input */
static void put(const char *dir, const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/generators/%s.json", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

static void deep_layer(char *t, size_t cap, size_t *l, int d)
{
    if (d == 0) {
        *l += (size_t)snprintf(t + *l, cap - *l, "{}");
        return;
    }
    *l += (size_t)snprintf(t + *l, cap - *l, "{\"fracture\": [");
    deep_layer(t, cap, l, d - 1);
    *l += (size_t)snprintf(t + *l, cap - *l, ", ");
    deep_layer(t, cap, l, d - 1);
    *l += (size_t)snprintf(t + *l, cap - *l, "]}");
}

/* the CLI contract: iris:generator/KEY from --pack, --seed the world seed
 * (super seed = SeedManager height + 239945), 2-D points echoed; expected
 * values: golden records (objects_*.jsonl, generator cracked-cliffs and plain
 * at world seed 1337 and point (123.456, 789.012)) */
Test(iris_objects_cli, sample_generators)
{
    char dir[] = "/tmp/cf_iris_cli_XXXXXX", p[600], out[4096], args[1024];
    cr_assert(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/generators", dir);
    mkdir(p, 0755);
    put(dir, "cracked-cliffs",
        "{\"interpolator\": {\"function\": \"BILINEAR_STARCAST_9\", \"horizontalScale\": 12}, \"seed\": 7246661,"
        " \"composite\": [{\"style\": {\"style\": \"GLOB\", \"zoom\": 0.4, \"exponent\": 0.7, \"fracture\": {\"style\": \"NOWHERE\","
        " \"zoom\": 0.1, \"multiplier\": 5}}, \"negative\": true, \"seed\": 10056}], \"cliffHeightMax\": 80, \"cliffHeightMin\": 35,"
        " \"cliffHeightGenerator\": {\"seed\": 2348, \"style\": {\"style\": \"CELLULAR_HEIGHT\"}, \"zoom\": 0.4}}");
    snprintf(args, sizeof args, "sample --pack %s --function iris:generator/cracked-cliffs --seed 1337 --dialect unification --at 123.456,789.012", dir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "123.456 789.012 0.2606970676006482\n"); /* 3fd0af42c0e08131 */
    /* bad input: one located line each, exit 1 */
    put(dir, "style", "{\"composite\": [{\"style\": {\"style\": \"NOPE\"}}]}");
    put(dir, "interp", "{\"interpolator\": {\"function\": \"BICUBE\"}, \"composite\": [{}]}");
    put(dir, "types", "{\"composite\": [{\"zoom\": \"2\"}]}");
    put(dir, "array", "{\"composite\": {\"seed\": 1}}");
    put(dir, "seed", "{\"seed\": 1.5, \"composite\": [{}]}");
    put(dir, "expr", "{\"composite\": [{\"style\": {\"expression\": \"mountains\"}}]}");
    put(dir, "image", "{\"composite\": [{\"fracture\": [{\"style\": {\"imageMap\": {\"image\": \"a\"}}}]}]}");
    put(dir, "notjson", "{\"composite\": [");
    static const char *const cases[][2] = {
        {"style", "generators/style.json#/composite/0/style/style: unknown NoiseStyle \"NOPE\" on Iris's master branch"},
        {"interp", "generators/interp.json#/interpolator/function: unknown interpolation function \"BICUBE\" (InterpolationMethod: BILINEAR, HERMITE, STARCAST_6, ...)"},
        {"types", "generators/types.json#/composite/0/zoom: expected a number, got a string"},
        {"array", "generators/array.json#/composite: expected an array of layers, got an object"},
        {"seed", "generators/seed.json#/seed: expected an integer of at most 2^53 in magnitude, got 1.5"},
        {"expr", "generators/expr.json#/composite/0/style/expression: expression \"mountains\": no expressions/mountains.json in the pack"},
        {"image", "generators/image.json#/composite/0/fracture/0/style/imageMap/image: image \"a\": no images/a.png in the pack"},
        {"none", "<arguments>: function \"iris:generator/none\": no generators/none.json in the pack"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "sample --pack %s --function iris:generator/%s --seed 1 --at 1,2", dir, cases[i][0]);
        cr_expect_eq(run(args, out, sizeof out), 1, "%s: %s", cases[i][0], out);
        char want[600];
        snprintf(want, sizeof want, "%s/%s\n", dir, cases[i][1]);
        if (cases[i][1][0] == '<') snprintf(want, sizeof want, "%s\n", cases[i][1]);
        cr_expect_str_eq(out, want);
    }
    /* nested fractures multiply the cost (here 12 levels of 2 children, each sampled
     * twice): refused before any sampling */
    {
        size_t cap = 1 << 20, l = 0;
        char *text = malloc(cap);
        cr_assert(text);
        l += (size_t)snprintf(text, cap, "{\"composite\": [");
        deep_layer(text, cap, &l, 12);
        snprintf(text + l, cap - l, "]}");
        put(dir, "deep", text);
        free(text);
        snprintf(args, sizeof args, "sample --pack %s --function iris:generator/deep --seed 1 --at 1,2", dir);
        cr_expect_eq(run(args, out, sizeof out), 1);
        char want[600];
        snprintf(want, sizeof want, "%s/generators/deep.json#: about 9.17e+08 noise samples per height (nested fractures multiply), more than 1e+06\n", dir);
        cr_expect_str_eq(out, want);
    }
    /* not JSON: located by the shared JSON loader, one line */
    snprintf(args, sizeof args, "sample --pack %s --function iris:generator/notjson --seed 1 --at 1,2", dir);
    cr_expect_eq(run(args, out, sizeof out), 1);
    cr_expect(strstr(out, "generators/notjson.json") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    /* a bad key and a bad suffix */
    snprintf(args, sizeof args, "sample --pack %s --function iris:generator/../x --seed 1 --at 1,2", dir);
    cr_expect_eq(run(args, out, sizeof out), 1);
    cr_expect_str_eq(out, "<arguments>: function \"iris:generator/../x\": expected iris:generator/KEY (letters, digits, _ - . /)\n");
    rm_pack(dir);
}

/* properties of IRIS.md §7.3 that no golden record covers (Iris's own values
 * for multiplicitive generators and cell cracks are not in ../shared):
 * - multiplicitive: h = 1 * A * B, so getHeight of [A, B] is getHeight of [A]
 *   times getHeight of [B] exactly (same generator seed, no cliffs);
 * - cell cracks: cellPercentSize above every distance leaves the height as
 *   without cracks; below every distance (distance >= 0) multiplies it by
 *   cellFractureHeight; in between, both values occur */
static double gen_at(const char *json, double x, double z)
{
    cf_error err = {0};
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(iris_compile_json(&pg, "generator", json, 0, 0, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 4242, &err), CF_OK);
    double p[3] = {x, 0, z}, v;
    cr_assert_eq(cf_sample_f64(w, 0, 1, p, &v, &err), CF_OK);
    cf_world_free(w);
    cf_program_free(pg);
    return v;
}
Test(iris_objects, multiplicitive_and_cell_crack_properties)
{
    const char *A = "{\"seed\": 2, \"style\": {\"style\": \"SIMPLEX\"}}", *B = "{\"seed\": 9, \"opacity\": 0.7, \"style\": {\"style\": \"GLOB\"}}";
    char ab[512], a[512], b[512], plain[512], never[512], always[512], some[512];
    snprintf(ab, sizeof ab, "{\"seed\": 77, \"multiplicitive\": true, \"composite\": [%s, %s]}", A, B);
    snprintf(a, sizeof a, "{\"seed\": 77, \"multiplicitive\": true, \"composite\": [%s]}", A);
    snprintf(b, sizeof b, "{\"seed\": 77, \"multiplicitive\": true, \"composite\": [%s]}", B);
    snprintf(plain, sizeof plain, "{\"seed\": 77, \"composite\": [%s]}", A);
    snprintf(never, sizeof never, "{\"seed\": 77, \"composite\": [%s], \"cellFractureHeight\": 0.25, \"cellPercentSize\": 1e9}", A);
    snprintf(always, sizeof always, "{\"seed\": 77, \"composite\": [%s], \"cellFractureHeight\": 0.25, \"cellPercentSize\": -1}", A);
    snprintf(some, sizeof some, "{\"seed\": 77, \"composite\": [%s], \"cellFractureHeight\": 0.25, \"cellFractureZoom\": 0.5}", A);
    int cracked = 0, whole = 0;
    for (int i = 0; i < 40; i++) {
        double x = i * 37.25 - 700, z = i * -11.5 + 90;
        cr_expect_eq(dbits(gen_at(ab, x, z)), dbits(gen_at(a, x, z) * gen_at(b, x, z)), "multiplicitive at (%g, %g)", x, z);
        double h = gen_at(plain, x, z);
        cr_expect_eq(dbits(gen_at(never, x, z)), dbits(h));
        cr_expect_eq(dbits(gen_at(always, x, z)), dbits(h * 0.25));
        double s = gen_at(some, x, z);
        cracked += dbits(s) == dbits(h * 0.25) && h != 0;
        whole += dbits(s) == dbits(h);
        cr_expect(dbits(s) == dbits(h) || dbits(s) == dbits(h * 0.25));
    }
    cr_expect(cracked > 0 && whole > 0, "cracks at %d of 40 points, none at %d", cracked, whole);
}
