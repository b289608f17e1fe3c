/* test_iris_terrain.c - Iris terrains (host/frontend/iris/iris_pack.c): the height that a
 * terrain manifest builds from its generators, as IrisComplex does (IRIS.md
 * §7.6), the density (H + min) - y, OpenCL == CPU, and bad manifests.
 *
 * The generators themselves are checked against Iris's own values in
 * test_iris_objects.c; here each generator's height comes from its own program
 * (iris:generator/KEY) and the composition is recomputed independently from
 * the manifest: links deduplicated by key (last band wins), groups by
 * interpolator in first-seen order, the band sums interpolated (a constant
 * through BILINEAR is itself; through a starcast it is the binary32 sum of n
 * copies times f32(1/n), IRIS.md §8.4), the groups' mean of lerp(lo, hi, g),
 * their sum plus the fluid height, clamped with Java's Math.min/max.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "chunkfill.h"
#include "testutil.h"


#define EXAMPLE CF_SOURCE_DIR "/packs/iris-example"
#define TPACK CF_SOURCE_DIR "/tests/packs/iris-terrain"

static cJSON *read_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *j = cJSON_Parse(buf);
    cr_assert(j, "%s", path);
    return j;
}

static cf_program *compile(const char *pack, const char *settings, const char *const *fns, int n, cf_error *err)
{
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, &pack, 1, NULL, err), CF_OK, "%s", err->message);
    cf_program *pg = NULL;
    cf_program_compile(&pg, pk, settings, fns, n, err);
    cf_pack_free(pk);
    return pg;
}

/* Java Math.min / Math.max */
static double jmin(double a, double b)
{
    if (a != a || b != b) return a != a ? a : b;
    if (a == 0 && b == 0) return signbit(a) ? a : b;
    return a <= b ? a : b;
}
static double jmax(double a, double b)
{
    if (a != a || b != b) return a != a ? a : b;
    if (a == 0 && b == 0) return signbit(a) ? b : a;
    return a >= b ? a : b;
}

/* a constant band through an interpolator */
static double band(const char *method, double c)
{
    if (strcmp(method, "NONE") == 0 || strcmp(method, "BILINEAR") == 0) return c;
    int n = 0;
    if (sscanf(method, "BILINEAR_STARCAST_%d", &n) != 1 && sscanf(method, "STARCAST_%d", &n) != 1)
        cr_assert_fail("the test knows no constant through %s", method);
    static const uint32_t inv[13] = {[3] = 0x3eaaaaab, [6] = 0x3e2aaaab, [9] = 0x3de38e39, [12] = 0x3daaaaab};
    float f, acc = (float)c;
    memcpy(&f, &inv[n], sizeof f);
    cr_assert(inv[n], "no starcast %d", n);
    for (int i = 1; i < n; i++) acc = acc + (float)c;
    return (double)(acc * f);
}

typedef struct tlink {
    char key[64], method[64];
    double scale;
    int min, max;
} tlink;

/* the manifest's terrain height at n 2-D points, recomputed from the generators */
static void expected_heights(const char *pack, const char *manifest, int64_t seed, size_t n, const double *xz, double *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/terrains/%s.json", pack, manifest);
    cJSON *m = read_json(path);
    const cJSON *br = cJSON_GetObjectItem(m, "branch"), *dh = cJSON_GetObjectItem(m, "dimensionHeight");
    int fluid = cJSON_GetObjectItem(m, "fluidHeight") ? cJSON_GetObjectItem(m, "fluidHeight")->valueint : 63;
    int lo = dh ? cJSON_GetObjectItem(dh, "min")->valueint : -64, hi = dh ? cJSON_GetObjectItem(dh, "max")->valueint : 320;
    tlink l[16];
    int nl = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(m, "generators"))
    {
        const char *k = cJSON_GetObjectItem(e, "generator")->valuestring;
        int i = 0;
        /* i stays in [0, nl): cppcheck's negativeIndex here is a false positive */
        // cppcheck-suppress negativeIndex
        while (i < nl && strcmp(l[i].key, k) != 0) i++;
        if (i == nl) {
            cr_assert_lt(nl, 16);
            snprintf(l[nl].key, sizeof l[nl].key, "%s", k);
            snprintf(path, sizeof path, "%s/generators/%s.json", pack, k);
            cJSON *g = read_json(path);
            const cJSON *ip = cJSON_GetObjectItem(g, "interpolator");
            snprintf(l[nl].method, sizeof l[nl].method, "%s", cJSON_GetObjectItem(ip, "function")->valuestring);
            l[nl].scale = cJSON_GetObjectItem(ip, "horizontalScale")->valuedouble;
            cJSON_Delete(g);
            nl++;
        }
        l[i].min = cJSON_GetObjectItem(e, "min")->valueint, l[i].max = cJSON_GetObjectItem(e, "max")->valueint;
    }
    /* every generator's height from its own program */
    const char *fns[16];
    char names[16][96];
    for (int i = 0; i < nl; i++) snprintf(names[i], sizeof names[i], "iris:generator/%.63s", l[i].key), fns[i] = names[i];
    cf_error err = {0};
    char settings[32];
    snprintf(settings, sizeof settings, "iris:%s", br ? br->valuestring : "master");
    cf_program *pg = compile(pack, settings, fns, nl, &err);
    cr_assert(pg, "%s", err.message);
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    double *g = malloc(sizeof(double) * n * (size_t)nl), *xyz = malloc(sizeof(double) * 3 * n);
    cr_assert(g && xyz);
    for (size_t i = 0; i < n; i++) xyz[3 * i] = xz[2 * i], xyz[3 * i + 1] = 0, xyz[3 * i + 2] = xz[2 * i + 1];
    for (int k = 0; k < nl; k++) cr_assert_eq(cf_sample_f64(w, k, n, xyz, g + (size_t)k * n, &err), CF_OK, "%s", err.message);
    for (size_t i = 0; i < n; i++) {
        double h = 0;
        char done[16] = {0};
        for (int a = 0; a < nl; a++) {
            if (done[a]) continue;
            double bl = 0, bh = 0;
            int grp[16], ng = 0;
            for (int b = a; b < nl; b++)
                if (!done[b] && strcmp(l[b].method, l[a].method) == 0 && l[b].scale == l[a].scale)
                    done[b] = 1, grp[ng++] = b, bl += l[b].min, bh += l[b].max;
            double blo = band(l[a].method, bl), bhi = band(l[a].method, bh), d = 0;
            for (int k = 0; k < ng; k++) d += blo + g[(size_t)grp[k] * n + i] * (bhi - blo);
            h += d / ng;
        }
        out[i] = jmax(jmin((h + (double)(fluid - lo)) + 0.0, (double)(hi - lo)), 0.0);
    }
    free(g), free(xyz);
    cf_world_free(w);
    cf_program_free(pg);
    cJSON_Delete(m);
}

/* 2-D points: integers, fractions, negative, far out (|x| ~ 3e7) */
static size_t points(double *xz)
{
    size_t n = 0;
    for (int i = 0; i < 24; i++) xz[2 * n] = i * 37 - 400, xz[2 * n + 1] = 300 - i * 29, n++;
    static const double extra[][2] = {{0.5, -0.25}, {-0.0, 0.0}, {7.75, 1234.5}, {-29999999.5, 29999983}, {1e6 + 0.125, -1e6}};
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) xz[2 * n] = extra[i][0], xz[2 * n + 1] = extra[i][1], n++;
    return n;
}

static void heights_match(const char *pack, const char *manifest)
{
    static const int64_t seeds[] = {0, 1, -7, 9000000000LL, -4172144997902289642LL};
    double xz[64], got[32], want[32], xyz[96];
    size_t n = points(xz);
    char settings[128];
    snprintf(settings, sizeof settings, "iris:terrain/%s", manifest);
    const char *fn = "iris:height";
    cf_error err = {0};
    cf_program *pg = compile(pack, settings, &fn, 1, &err);
    cr_assert(pg, "%s", err.message);
    for (size_t i = 0; i < n; i++) xyz[3 * i] = xz[2 * i], xyz[3 * i + 1] = 0, xyz[3 * i + 2] = xz[2 * i + 1];
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seeds[s], &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_sample_f64(w, 0, n, xyz, got, &err), CF_OK, "%s", err.message);
        expected_heights(pack, manifest, seeds[s], n, xz, want);
        for (size_t i = 0; i < n; i++)
            cr_expect_eq(dbits(got[i]), dbits(want[i]), "%s seed %lld at (%.17g, %.17g): %.17g, expected %.17g", manifest,
                         (long long)seeds[s], xz[2 * i], xz[2 * i + 1], got[i], want[i]);
        cf_world_free(w);
    }
    cf_program_free(pg);
}

TestSuite(iris_terrain, .timeout = 600);

Test(iris_terrain, example_height_is_the_composition_of_its_generators) { heights_match(EXAMPLE, "example"); }
Test(iris_terrain, unification_groups_and_duplicate_links) { heights_match(TPACK, "inline"); }

/* the biome/dimension indirection and the deduplicated manifest give the same bits as the inline one */
Test(iris_terrain, biome_dimension_and_dedup_equal_inline)
{
    const char *fn = "iris:height";
    double xz[64], xyz[96], v[3][32];
    size_t n = points(xz);
    for (size_t i = 0; i < n; i++) xyz[3 * i] = xz[2 * i], xyz[3 * i + 1] = 0, xyz[3 * i + 2] = xz[2 * i + 1];
    static const char *const m[3] = {"iris:terrain/inline", "iris:terrain/viabiome", "iris:terrain/deduped"};
    for (int k = 0; k < 3; k++) {
        cf_error err = {0};
        cf_program *pg = compile(TPACK, m[k], &fn, 1, &err);
        cr_assert(pg, "%s", err.message);
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, 77, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_sample_f64(w, 0, n, xyz, v[k], &err), CF_OK, "%s", err.message);
        cf_world_free(w);
        cf_program_free(pg);
    }
    cr_expect_eq(memcmp(v[0], v[1], sizeof(double) * n), 0);
    cr_expect_eq(memcmp(v[0], v[2], sizeof(double) * n), 0);
    /* and the heights are not all one value (the test could not tell them apart) */
    int differ = 0;
    for (size_t i = 1; i < n; i++) differ += v[0][i] != v[0][0];
    cr_expect_gt(differ, 10);
}

/* the fill (CPU) is (H + min) - y for every block, the example pack needs no --settings */
Test(iris_terrain, fill_is_height_minus_y)
{
    const char *fns[2] = {"router:final_density", "iris:height"};
    cf_error err = {0};
    cf_program *pg = compile(EXAMPLE, "minecraft:overworld", fns, 2, &err);
    cr_assert(pg, "%s", err.message);
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    cr_assert_eq(min_y, -64);
    cr_assert_eq(height, 384);
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK, "%s", err.message);
    static const int32_t chunks[4] = {3, -2, -1875000, 1874999};
    size_t per = (size_t)height * 256;
    double *d = malloc(sizeof(double) * per * 2), h[256], xyz[768];
    cr_assert(d);
    cr_assert_eq(cf_fill_chunks(w, 0, 2, chunks, d, 0, &err), CF_OK, "%s", err.message);
    int solid = 0, air = 0;
    for (int c = 0; c < 2; c++) {
        for (int q = 0; q < 256; q++)
            xyz[3 * q] = (double)chunks[2 * c] * 16 + q % 16, xyz[3 * q + 1] = 0, xyz[3 * q + 2] = (double)chunks[2 * c + 1] * 16 + q / 16;
        cr_assert_eq(cf_sample_f64(w, 1, 256, xyz, h, &err), CF_OK, "%s", err.message);
        for (int y = 0; y < height; y++)
            for (int q = 0; q < 256; q++) {
                double want = (h[q] + min_y) - (double)(min_y + y), got = d[(size_t)c * per + (size_t)y * 256 + (size_t)q];
                cr_expect_eq(dbits(got), dbits(want), "chunk %d block %d,%d: %.17g, expected %.17g", c, q, y, got, want);
                got >= 0 ? solid++ : air++;
            }
    }
    cr_expect_gt(solid, 1000);
    cr_expect_gt(air, 1000);
    free(d);
    cf_world_free(w);
    cf_program_free(pg);
}

/* OpenCL (PoCL) == CPU on the example (master) and on the unification test terrain */
static void device_equals_cpu(const char *pack, const char *settings)
{
    const char *fn = "router:final_density";
    cf_error err = {0};
    cf_program *pg = compile(pack, settings, &fn, 1, &err);
    cr_assert(pg, "%s", err.message);
    cf_device *dev;
    cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 0, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    static const int32_t chunks[6] = {0, 0, -1, -1, 1874999, -1875000};
    size_t per = (size_t)height * 256, diff = 0;
    double *a = malloc(sizeof(double) * per * 3), *b = malloc(sizeof(double) * per * 3);
    cr_assert(a && b);
    static const int64_t seeds[2] = {1337, -4172144997902289642LL};
    for (int s = 0; s < 2; s++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seeds[s], &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_device_fill(dev, w, 3, chunks, a, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_chunks(w, 0, 3, chunks, b, 0, &err), CF_OK, "%s", err.message);
        for (size_t i = 0; i < per * 3; i++) diff += memcmp(&a[i], &b[i], sizeof(double)) != 0;
        cf_world_free(w);
    }
    cr_expect_eq(diff, 0u, "%zu values differ", diff);
    free(a), free(b);
    cf_device_free(dev);
    cf_program_free(pg);
}
Test(iris_terrain, opencl_equals_cpu_example) { device_equals_cpu(EXAMPLE, "minecraft:overworld"); }
Test(iris_terrain, opencl_equals_cpu_unification) { device_equals_cpu(TPACK, "iris:terrain/inline"); }

/* bad manifests: one line naming the file, the JSON pointer and what was wrong */
static void bad(const char *settings, const char *want1, const char *want2)
{
    const char *fn = "router:final_density";
    cf_error err = {0};
    cf_program *pg = compile(TPACK, settings, &fn, 1, &err);
    cr_expect_null(pg, "%s compiled", settings);
    cf_program_free(pg);
    cr_expect_null(strchr(err.message, '\n'), "%s: more than one line: %s", settings, err.message);
    cr_expect(strstr(err.message, want1) != NULL, "%s: \"%s\" lacks \"%s\"", settings, err.message, want1);
    cr_expect(strstr(err.message, want2) != NULL, "%s: \"%s\" lacks \"%s\"", settings, err.message, want2);
}
Test(iris_terrain, bad_manifests)
{
    bad("iris:terrain/bad-key", "terrains/bad-key.json#/colour", "unknown key \"colour\"");
    bad("iris:terrain/bad-missing-generator", "terrains/bad-missing-generator.json#/generators/1/generator",
        "no generators/nope.json in the pack");
    bad("iris:terrain/bad-band", "terrains/bad-band.json#/generators/0/min", "expected an integer");
    bad("iris:terrain/bad-both", "terrains/bad-both.json", "both \"generators\" and \"biome\"");
    bad("iris:terrain/bad-none", "terrains/bad-none.json", "no \"generators\"");
    bad("iris:terrain/bad-branch", "terrains/bad-branch.json#/branch", "expected \"master\" or \"unification\"");
    bad("iris:terrain/bad-dimension", "dimensions/bad.json#/dimensionHeight", "multiples of 16");
    bad("iris:terrain/bad-missing-biome", "terrains/bad-missing-biome.json#/biome", "no biomes/missing.json");
    bad("iris:terrain/bad-interpolator", "generators/bad-interp.json#/interpolator", "CUBIC_SPLINE");
    bad("iris:terrain/bad-not-object", "terrains/bad-not-object.json", "expected a terrain object, found an array");
    bad("iris:terrain/bad-fluid", "terrains/bad-fluid.json#/fluidHeight", "400");
    bad("iris:terrain/bad-generator-key", "terrains/bad-generator-key.json#/generators/0/generator", "bad key \"../g1\"");
    bad("iris:terrain/bad-generators-type", "terrains/bad-generators-type.json#/generators", "expected an array");
    bad("iris:terrain/bad-json", "terrains/bad-json.json", "");
    bad("iris:terrain/absent", "no terrains/absent.json", "");
    bad("iris:terrain/../x", "bad terrain key", "");
    /* several terrains and no --settings */
    bad("minecraft:overworld", "terrains", "--settings iris:terrain/KEY");
}
