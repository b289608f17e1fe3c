/* test_libnoise.c - the libnoise front-end against the real libnoise.
 *
 * Oracle: tests/oracle/libnoise_oracle.cpp, linked against Debian's libnoise-dev,
 * builds the same module graphs from the same JSON packs (tests/packs/libnoise)
 * and prints raw bits. Every module of libnoise/modules.json (every libnoise
 * class, every quality mode), several seeds (negative ones too), positions up to
 * +-3e9: chunkfill's CPU values must equal libnoise's bit for bit, except
 * Exponent and Power, whose pow may depart from glibc's by at most 1 ulp (the
 * departures are listed in the log and bounded here). The oracle is required:
 * without libnoise-dev at configure time these tests fail (scripts/deps.sh
 * installs it). Also: bad input (one located line each), the sample CLI
 * contract, and OpenCL (PoCL) == CPU on every test pack.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kernels/cf_math.h"
#include "chunkfill.h"
#include "testutil.h"


#define PACK CF_SOURCE_DIR "/tests/packs/libnoise"
#define MODULES PACK "/libnoise/modules.json"

/* the test positions: small, fractional, lattice points, signed zeros, the
 * MakeInt32Range boundaries and far positions up to +-3e9 */
static size_t make_points(double *p, size_t max)
{
    static const double special[] = {3e9, -3e9, 1073741824.0, -1073741824.0, 2147483647.5, -2147483648.5,
                                     0.0, -0.0, 1e-300, 0.5, -2.0, 1073741823.75};
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    size_t n = 0;
    for (; n < max; n++) {
        for (int k = 0; k < 3; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            double u = (double)(s >> 11) / 9007199254740992.0;
            double v;
            switch (n % 5) {
            case 0: v = (u - 0.5) * 200.0; break;
            case 1: v = (u - 0.5) * 6e9; break;
            case 2: v = floor((u - 0.5) * 100.0); break;
            case 3: v = (u - 0.5) * 2e6; break;
            default: v = special[(s >> 3) % (sizeof special / sizeof special[0])]; break;
            }
            p[3 * n + (size_t)k] = v;
        }
    }
    return n;
}

/* the oracle's bits for module id at the points */
static void oracle(const char *id, int seed, const double *p, size_t n, uint64_t *bits)
{
    if (!CF_LIBNOISE_ORACLE[0])
        cr_assert_fail("the libnoise oracle was not built: libnoise-dev (and g++) were missing at configure time "
                 "(scripts/deps.sh installs them)");
    char pf[64], cmd[1024];
    snprintf(pf, sizeof pf, "/tmp/cf-libnoise-pts-%d.txt", (int)getpid());
    FILE *f = fopen(pf, "w");
    cr_assert_not_null(f);
    for (size_t i = 0; i < n; i++) fprintf(f, "%.17g %.17g %.17g\n", p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' %d < '%s'", CF_LIBNOISE_ORACLE, MODULES, id, seed, pf);
    FILE *o = popen(cmd, "r");
    cr_assert_not_null(o);
    for (size_t i = 0; i < n; i++) {
        unsigned long long b;
        char v[64];
        cr_assert_eq(fscanf(o, "%llx %63s", &b, v), 2, "oracle output for %s", id);
        bits[i] = b;
    }
    cr_assert_eq(pclose(o), 0, "oracle failed: %s", cmd);
    unlink(pf);
}

static double ulp(double x)
{
    x = fabs(x);
    return nextafter(x, INFINITY) - x;
}

Test(libnoise, every_module_matches_debian_libnoise)
{
    char *text = slurp(MODULES);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root);
    const cJSON *mods = cJSON_GetObjectItemCaseSensitive(root, "modules");
    int nm = cJSON_GetArraySize(mods);
    const char **fn = calloc((size_t)nm, sizeof *fn);
    char (*names)[128] = calloc((size_t)nm, sizeof *names);
    /* every libnoise class appears */
    static const char *const classes[] = {"Perlin", "Billow", "RidgedMulti", "Voronoi", "Const", "Checkerboard",
                                          "Cylinders", "Spheres", "Abs", "Clamp", "Curve", "Exponent", "Invert",
                                          "ScaleBias", "Terrace", "Add", "Max", "Min", "Multiply", "Power", "Blend",
                                          "Select", "Displace", "RotatePoint", "ScalePoint", "TranslatePoint",
                                          "Turbulence", "Cache"};
    for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
        cr_assert(strstr(text, classes[c]), "the test pack has no %s module", classes[c]);
    int i = 0;
    for (const cJSON *k = mods->child; k; k = k->next, i++) {
        snprintf(names[i], sizeof names[i], "libnoise:modules/%s", k->string);
        fn[i] = names[i];
    }
    cf_error err = {0};
    cf_pack *pk;
    const char *paths[1] = {PACK};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cf_program *pg;
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, nm, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_precision(pg), 64);
    enum { NPTS = 250 };
    double *pts = malloc(sizeof(double) * 3 * NPTS), *got = malloc(sizeof(double) * NPTS);
    uint64_t *want = malloc(sizeof(uint64_t) * NPTS);
    size_t n = make_points(pts, NPTS);
    static const int seeds[] = {0, -1, 1000003, -2147483647 - 1, 2147483647};
    long compared = 0, departures = 0;
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seeds[s], &err), CF_OK, "%s", err.message);
        i = 0;
        for (const cJSON *k = mods->child; k; k = k->next, i++) {
            cr_assert_eq(cf_sample_f64(w, i, n, pts, got, &err), CF_OK, "%s", err.message);
            oracle(k->string, seeds[s], pts, n, want);
            const char *cls = cJSON_GetObjectItemCaseSensitive(k, "module")->valuestring;
            int is_pow = strcmp(cls, "Exponent") == 0 || strcmp(cls, "Power") == 0;
            for (size_t j = 0; j < n; j++, compared++) {
                if (dbits(got[j]) == want[j]) continue;
                double o = bitsd(want[j]);
                /* a pow departure: 1 ulp of pow's result (Exponent: *2 - 1 after it) */
                double bound = strcmp(cls, "Exponent") == 0 ? 2.0 * ulp(fmax(fabs((o + 1.0) / 2.0), fabs((got[j] + 1.0) / 2.0))) + ulp(o)
                                                            : ulp(fmax(fabs(o), fabs(got[j])));
                cr_assert(is_pow && fabs(got[j] - o) <= bound,
                          "%s (seed %d) at (%.17g, %.17g, %.17g): chunkfill %.17g (%016llx), libnoise %.17g (%016llx)",
                          k->string, seeds[s], pts[3 * j], pts[3 * j + 1], pts[3 * j + 2], got[j],
                          (unsigned long long)dbits(got[j]), o, (unsigned long long)want[j]);
                departures++;
                cr_log_info("pow departure (within 1 ulp): %s seed %d at (%.17g, %.17g, %.17g): %.17g vs libnoise %.17g",
                            k->string, seeds[s], pts[3 * j], pts[3 * j + 1], pts[3 * j + 2], got[j], o);
            }
        }
        cf_world_free(w);
    }
    cr_log_info("libnoise: %ld values compared, %ld pow departures of 1 ulp", compared, departures);
    cr_assert(departures * 200 < compared, "too many pow departures: %ld of %ld", departures, compared);
    free(pts), free(got), free(want), free(fn), free(names);
    cf_program_free(pg);
    cf_pack_free(pk);
    cJSON_Delete(root);
    free(text);
}

/* the project's pow against glibc's on Exponent's and Power's inputs */
Test(libnoise, pow_departs_from_glibc_by_at_most_one_ulp)
{
    uint64_t s = 12345;
    long n = 200000, dep = 0;
    for (long i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double b = (double)(s >> 11) / 9007199254740992.0 * (i % 2 ? 2.0 : 1.0);
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double e = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * (i % 3 ? 8.0 : 60.0);
        if (i % 7 == 0) e = floor(e);
        double a = cf_pow_c(b, e), g = pow(b, e);
        if (dbits(a) == dbits(g)) continue;
        dep++;
        cr_assert(fabs(a - g) <= ulp(fmax(fabs(a), fabs(g))), "pow(%a, %a): %a, glibc %a", b, e, a, g);
    }
    cr_log_info("cf_pow_c vs glibc pow: %ld of %ld differ (each by 1 ulp)", dep, n);
    cr_assert(dep * 500 < n, "%ld of %ld differ", dep, n);
    /* C's special cases */
    cr_assert_eq(cf_pow_c(1.0, NAN), 1.0);
    cr_assert_eq(cf_pow_c(-1.0, INFINITY), 1.0);
    cr_assert(isnan(cf_pow_c(-2.0, 0.5)));
    cr_assert_eq(cf_pow_c(-2.0, 3.0), -8.0);
    cr_assert_eq(cf_pow_c(0.0, -1.0), INFINITY);
}

/* ------------------------------------------------------------------ the sharpnoise dialect */
static size_t device_vs_cpu(const char *pack, const char *function, const int64_t *seeds, int nseeds, const int32_t *chunks,
                            size_t n);
static const int32_t far_chunks[6];
static const int64_t two_seeds[2];
#define SHARP PACK "/libnoise/sharp.json"

static cf_world *sharp_world(cf_pack **pk, cf_program **pg, const char *id, int64_t seed)
{
    char fn[128];
    snprintf(fn, sizeof fn, "libnoise:sharp/%s", id);
    const char *fns[1] = {fn}, *paths[1] = {PACK};
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(pg, *pk, "libnoise:sharp", fns, 1, &err), CF_OK, "%s", err.message);
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, *pg, seed, &err), CF_OK, "%s", err.message);
    return w;
}

/* Where MakeInt32Range changes nothing (|position * frequency * lacunarity^octave| < 2^30)
 * and the octave seeds are not negative, SharpNoise computes what libnoise does:
 * there the real library is the oracle. */
Test(libnoise_sharp, equals_libnoise_where_the_dialects_agree)
{
    static const char *const ids[] = {"perlin_pos", "billow_pos", "ridged_pos", "checker", "turb", "const", "mix"};
    double *pts = malloc(sizeof(double) * 3 * 200), got[200];
    uint64_t want[200];
    size_t n = make_points(pts, 200);
    for (size_t i = 0; i < 3 * n; i++) pts[i] = fmod(pts[i], 65536.0); /* near: 2^16 * 0.9 * 2^3 < 2^30 */
    for (int seed = 0; seed < 2; seed++)
        for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
            cf_pack *pk;
            cf_program *pg;
            cf_world *w = sharp_world(&pk, &pg, ids[k], seed);
            cf_error err = {0};
            cr_assert_eq(cf_sample_f64(w, 0, n, pts, got, &err), CF_OK, "%s", err.message);
            char cmd[1024], pf[64];
            snprintf(pf, sizeof pf, "/tmp/cf-sharp-%d.txt", (int)getpid());
            FILE *f = fopen(pf, "w");
            for (size_t i = 0; i < n; i++) fprintf(f, "%.17g %.17g %.17g\n", pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]);
            fclose(f);
            snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' %d < '%s'", CF_LIBNOISE_ORACLE, SHARP, ids[k], seed, pf);
            FILE *o = popen(cmd, "r");
            for (size_t i = 0; i < n; i++) {
                unsigned long long b;
                char v[64];
                cr_assert_eq(fscanf(o, "%llx %63s", &b, v), 2);
                want[i] = b;
            }
            cr_assert_eq(pclose(o), 0);
            unlink(pf);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(dbits(got[i]), want[i], "%s seed %d at (%.17g, %.17g, %.17g): %.17g, libnoise %.17g", ids[k], seed,
                             pts[3 * i], pts[3 * i + 1], pts[3 * i + 2], got[i], bitsd(want[i]));
            cf_world_free(w);
            cf_program_free(pg);
            cf_pack_free(pk);
        }
    free(pts);
}

/* Far away and with negative or wrapping octave seeds the dialects differ: SharpNoise's
 * octave sum of libnoise's own GradientCoherentNoise3D at unreduced positions with
 * seeds (seed + octave) & 0x7fffffff (the oracle's --gradient gives each term). */
Test(libnoise_sharp, octaves_without_makeint32range_and_with_masked_seeds)
{
    double *pts = malloc(sizeof(double) * 3 * 100), got[2][100];
    size_t n = make_points(pts, 100);
    const char *ids[2] = {"perlin_neg", "billow_neg"};
    for (int m = 0; m < 2; m++) {
        cf_pack *pk;
        cf_program *pg;
        cf_world *w = sharp_world(&pk, &pg, ids[m], 0);
        cf_error err = {0};
        cr_assert_eq(cf_sample_f64(w, 0, n, pts, got[m], &err), CF_OK, "%s", err.message);
        cf_world_free(w);
        cf_program_free(pg);
        cf_pack_free(pk);
    }
    /* the terms: perlin_neg (lacunarity 2.5, seeds -5, -4, std), billow_neg (lacunarity 2,
     * seeds 2147483647, 2147483648 -> 0, fast) */
    char pf[64], cmd[512];
    snprintf(pf, sizeof pf, "/tmp/cf-sharp-g-%d.txt", (int)getpid());
    FILE *f = fopen(pf, "w");
    for (size_t i = 0; i < n; i++) {
        double x = pts[3 * i], y = pts[3 * i + 1], z = pts[3 * i + 2];
        fprintf(f, "%.17g %.17g %.17g %d 1\n", x, y, z, -5 & 0x7fffffff);
        fprintf(f, "%.17g %.17g %.17g %d 1\n", x * 2.5, y * 2.5, z * 2.5, -4 & 0x7fffffff);
        fprintf(f, "%.17g %.17g %.17g %d 0\n", x, y, z, 2147483647);
        fprintf(f, "%.17g %.17g %.17g %d 0\n", x * 2.0, y * 2.0, z * 2.0, 0);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' --gradient < '%s'", CF_LIBNOISE_ORACLE, pf);
    FILE *o = popen(cmd, "r");
    cr_assert_not_null(o);
    for (size_t i = 0; i < n; i++) {
        double g[4];
        for (int k = 0; k < 4; k++) {
            unsigned long long b;
            char v[64];
            cr_assert_eq(fscanf(o, "%llx %63s", &b, v), 2);
            g[k] = bitsd(b);
        }
        double perlin = 0.0;
        perlin += g[0] * 1.0;
        perlin += g[1] * 0.3;
        double billow = 0.0;
        billow += (2.0 * fabs(g[2]) - 1.0) * 1.0;
        billow += (2.0 * fabs(g[3]) - 1.0) * 0.5;
        billow += 0.5;
        cr_assert_eq(dbits(got[0][i]), dbits(perlin), "perlin_neg at (%.17g, %.17g, %.17g): %.17g, expected %.17g", pts[3 * i],
                     pts[3 * i + 1], pts[3 * i + 2], got[0][i], perlin);
        cr_assert_eq(dbits(got[1][i]), dbits(billow), "billow_neg at (%.17g, %.17g, %.17g): %.17g, expected %.17g", pts[3 * i],
                     pts[3 * i + 1], pts[3 * i + 2], got[1][i], billow);
    }
    cr_assert_eq(pclose(o), 0);
    unlink(pf);
    free(pts);
}

Test(libnoise_sharp, opencl_equals_cpu)
{
    size_t d = device_vs_cpu(PACK, "libnoise:sharp", two_seeds, 2, far_chunks, 3);
    cr_assert_eq(d, 0u, "%zu values differ", d);
    d = device_vs_cpu(PACK, "libnoise:sharp/perlin_neg", two_seeds, 2, far_chunks, 3);
    cr_assert_eq(d, 0u, "%zu values differ", d);
}

/* ------------------------------------------------------------------ bad input */
static void expect_bad(const char *json, const char *function, cf_status st, const char *where, const char *msg)
{
    cf_memfile f = {"libnoise/t.json", json, strlen(json)};
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open_memory(&pk, &f, 1, NULL, &err), CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    const char *fn[1] = {function};
    cf_status got = cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err);
    cf_program_free(pg);
    cf_pack_free(pk);
    cr_assert_eq(got, st, "status %s, expected %s: %s", cf_status_str(got), cf_status_str(st), err.message);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "<memory>/libnoise/t.json#%s: ", where);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "message '%s', expected prefix '%s'", err.message, prefix);
    cr_assert(strstr(err.message, msg), "message '%s' lacks '%s'", err.message, msg);
    cr_assert(!strchr(err.message, '\n'));
}

Test(libnoise_errors, unknown_module)
{
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Perlinn\"}}}", "libnoise:t/a", CF_ERR_SCHEMA, "/modules/a/module",
               "unknown module \"Perlinn\"");
}
Test(libnoise_errors, missing_source)
{
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Add\", \"sources\": [{\"module\": \"Const\"}]}}}", "libnoise:t/a",
               CF_ERR_SCHEMA, "/modules/a/sources", "Add takes 2 sources, found 1 (missing source)");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Abs\"}}}", "libnoise:t/a", CF_ERR_SCHEMA, "/modules/a",
               "missing source");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Select\", \"sources\": [\"b\", \"b\"]}, \"b\": {\"module\": \"Const\"}}}",
               "libnoise:t/a", CF_ERR_SCHEMA, "/modules/a", "missing source \"control\"");
}
Test(libnoise_errors, wrong_parameter_type)
{
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Perlin\", \"frequency\": \"high\"}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/frequency", "expected a number, found a string");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Perlin\", \"octaveCount\": 2.5}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/octaveCount", "expected an integer in [1, 30]");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Perlin\", \"noiseQuality\": \"good\"}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/noiseQuality", "expected \"fast\", \"std\" or \"best\"");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Voronoi\", \"enableDistance\": 1}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/enableDistance", "expected true or false");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Perlin\", \"frequncy\": 2}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/frequncy", "unknown key \"frequncy\" for Perlin");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Abs\", \"sources\": [7]}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/sources/0", "expected a module (an ID or an object), found a number");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Curve\", \"sources\": [{\"module\": \"Const\"}], \"controlPoints\": "
               "[[0, 1], [1, 2], [0, 3], [2, 2]]}}}",
               "libnoise:t/a", CF_ERR_SCHEMA, "/modules/a/controlPoints/2", "appears twice");
}
/* Const's field is constValue (libnoise's SetConstValue), value its alias: either gives the
 * constant, both are refused (the module pack's "const" uses constValue against the oracle) */
Test(libnoise_errors, const_value_and_its_alias)
{
    static const char *const json[2] = {"{\"modules\": {\"a\": {\"module\": \"Const\", \"constValue\": -0.625}}}",
                                        "{\"modules\": {\"a\": {\"module\": \"Const\", \"value\": -0.625}}}"};
    for (int i = 0; i < 2; i++) {
        cf_memfile f = {"libnoise/t.json", json[i], strlen(json[i])};
        cf_error err = {0};
        cf_pack *pk;
        cf_program *pg;
        cf_world *w;
        const char *fn[1] = {"libnoise:t/a"};
        double pos[3] = {1.5, -2.25, 3.0}, got = 0;
        cr_assert_eq(cf_pack_open_memory(&pk, &f, 1, NULL, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&w, pg, 0, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_sample_f64(w, 0, 1, pos, &got, &err), CF_OK, "%s", err.message);
        cr_assert_eq(got, -0.625, "%s: %.17g", json[i], got);
        cf_world_free(w);
        cf_program_free(pg);
        cf_pack_free(pk);
    }
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Const\", \"constValue\": 1, \"value\": 1}}}", "libnoise:t/a",
               CF_ERR_SCHEMA, "/modules/a/value", "both \"constValue\" and its alias \"value\": give one");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Const\", \"constValue\": \"1\"}}}", "libnoise:t/a", CF_ERR_SCHEMA,
               "/modules/a/constValue", "expected a number, found a string");
}
Test(libnoise_errors, cycles_and_unknown_ids)
{
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Abs\", \"sources\": [\"b\"]}, \"b\": {\"module\": \"Invert\", "
               "\"sources\": [\"a\"]}}}",
               "libnoise:t/a", CF_ERR_CYCLE, "/modules/b/sources/0", "module cycle: a -> b -> a");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Abs\", \"sources\": [\"zz\"]}}}", "libnoise:t/a", CF_ERR_REF,
               "/modules/a/sources/0", "unknown module ID \"zz\"");
    expect_bad("{\"modules\": {\"v\": {\"module\": \"Voronoi\"}}, \"dialect\": \"sharpnoise\"}", "libnoise:t/v", CF_ERR_SCHEMA,
               "/modules/v/module", "not implemented in the sharpnoise dialect");
    expect_bad("{\"modules\": {\"v\": {\"module\": \"Cell\"}}, \"dialect\": \"sharpnoise\"}", "libnoise:t/v", CF_ERR_SCHEMA,
               "/modules/v/module", "not implemented in the sharpnoise dialect");
    expect_bad("{\"modules\": {}, \"dialect\": \"sharp\"}", "libnoise:t", CF_ERR_SCHEMA, "/dialect",
               "expected \"libnoise\" or \"sharpnoise\", found a string \"sharp\"");
    expect_bad("{\"modules\": {\"a\": {\"module\": \"Const\"}}}", "libnoise:t", CF_ERR_SCHEMA, "",
               "no \"terrain\" or \"density\"");
}
/* each level uses the one below twice at different positions: 2^40 evaluations per
 * position for libnoise and the device; refused at compile time */
Test(libnoise_errors, exponential_graphs_are_refused)
{
    char *j = malloc(1 << 16);
    size_t len = (size_t)sprintf(j, "{\"modules\": {\"m0\": {\"module\": \"Perlin\"}");
    for (int i = 1; i <= 40; i++)
        len += (size_t)sprintf(j + len, ", \"m%d\": {\"module\": \"Add\", \"sources\": [\"m%d\", {\"module\": \"TranslatePoint\", "
                                        "\"xTranslation\": 0.5, \"sources\": [\"m%d\"]}]}", i, i - 1, i - 1);
    sprintf(j + len, "}}");
    expect_bad(j, "libnoise:t/m40", CF_ERR_LIMIT, "/modules/m40", "module evaluations per position");
    free(j);
}

/* ------------------------------------------------------------------ CLI */
Test(libnoise_cli, sample_echoes_fractional_positions_and_prints_libnoise_values)
{
    char out[4096];
    int rc = run("sample --pack " PACK " --function libnoise:modules/turbulence --seed -1 --at 0.5,1.25,-3.75 --at 3e9,-0,12", out,
                 sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    double p[6] = {0.5, 1.25, -3.75, 3e9, -0.0, 12};
    uint64_t want[2];
    oracle("turbulence", -1, p, 2, want);
    char expect[512];
    snprintf(expect, sizeof expect, "0.5 1.25 -3.75 %.17g\n3e9 -0 12 %.17g\n", bitsd(want[0]), bitsd(want[1]));
    cr_assert_str_eq(out, expect);
}

Test(libnoise_cli, a_single_libnoise_file_needs_no_settings)
{
    char out[4096];
    /* the example pack: libnoise/overworld.json alone; the default function is its terrain */
    int rc = run("sample --pack " CF_SOURCE_DIR "/packs/libnoise-obsidian --function router:final_density --seed 3 --at 100,70,-20",
                 out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strncmp(out, "100 70 -20 ", 11) == 0, "%s", out);
}

/* ------------------------------------------------------------------ OpenCL (PoCL) == CPU */
static size_t device_vs_cpu(const char *pack, const char *function, const int64_t *seeds, int nseeds, const int32_t *chunks,
                            size_t n)
{
    const char *paths[1] = {pack}, *fn[1] = {function};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    size_t diff = device_diff(pg, seeds, nseeds, chunks, n, NULL, NULL);
    cf_program_free(pg);
    cf_pack_free(pk);
    return diff;
}

/* near the origin and far (|block x| ~ 2.1e9: MakeInt32Range, Voronoi beyond int) */
static const int32_t far_chunks[6] = {0, 0, -3, 7, -134000000, 133999999};
static const int64_t two_seeds[2] = {0, -2147483649LL};

TestSuite(libnoise_device, .timeout = 1200);
Test(libnoise_device, opencl_equals_cpu_on_every_module)
{
    char *text = slurp(MODULES);
    cJSON *root = cJSON_Parse(text);
    const cJSON *mods = cJSON_GetObjectItemCaseSensitive(root, "modules");
    for (const cJSON *k = mods->child; k; k = k->next) {
        char fn[160];
        snprintf(fn, sizeof fn, "libnoise:modules/%s", k->string);
        size_t d = device_vs_cpu(PACK, fn, two_seeds, 2, far_chunks, 3);
        cr_expect_eq(d, 0u, "%s: %zu values differ between OpenCL and the CPU", k->string, d);
    }
    /* the file's terrain (height(x, 0, z)*scale + offset - y) */
    cr_expect_eq(device_vs_cpu(PACK, "libnoise:modules", two_seeds, 2, far_chunks, 3), 0u);
    cJSON_Delete(root);
    free(text);
}
Test(libnoise_device, opencl_equals_cpu_on_the_example_pack)
{
    static const int32_t chunks[8] = {0, 0, -5, 3, 40, -41, 100000, -100000};
    size_t d = device_vs_cpu(CF_SOURCE_DIR "/packs/libnoise-obsidian", "router:final_density", two_seeds, 2, chunks, 4);
    cr_assert_eq(d, 0u, "%zu values differ", d);
}

/* ------------------------------------------------------------------ fill and render */
Test(libnoise_cli, fill_writes_float64_equal_to_sampled_terrain)
{
    char out[4096], args[1024], npy[128];
    snprintf(npy, sizeof npy, "/tmp/cf-libnoise-fill-%d.npy", (int)getpid());
    snprintf(args, sizeof args, "fill --pack " PACK " --function libnoise:modules --seed 5 --chunks 1,-2 --out %s", npy);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    char *data = slurp(npy);
    cr_assert(strstr(data + 10, "'descr': '<f8'") && strstr(data + 10, "(1, 256, 16, 16)"), "%s", data + 10);
    unsigned hl = (unsigned char)data[8] | (unsigned)(unsigned char)data[9] << 8;
    const double *v = (const double *)(const void *)(data + 10 + hl);
    /* block (x, y, z) = (16 + 3, 70, -32 + 9) against the oracle's height: perlin(x, 0, z)*20 + 64 - y */
    double p[3] = {19, 0, -23};
    uint64_t h;
    oracle("perlin", 5, p, 1, &h);
    double want = ((bitsd(h) * 20.0) + 64.0) - 70.0, got;
    memcpy(&got, &v[(70 * 16 + 9) * 16 + 3], sizeof got);
    cr_assert_eq(dbits(got), dbits(want), "fill %.17g, expected %.17g", got, want);
    free(data);
    unlink(npy);
}

Test(libnoise_cli, the_example_pack_renders_a_map_on_cpu_and_opencl)
{
    char out[4096], args[1024], a[128], b[128], png[128];
    snprintf(png, sizeof png, "/tmp/cf-libnoise-map-%d.png", (int)getpid());
    snprintf(a, sizeof a, "/tmp/cf-libnoise-h1-%d.npy", (int)getpid());
    snprintf(b, sizeof b, "/tmp/cf-libnoise-h2-%d.npy", (int)getpid());
    snprintf(args, sizeof args, "render --pack " CF_SOURCE_DIR "/packs/libnoise-obsidian --seed 3 --area -256,-256:255,255 --scale 4 --out %s --heights %s",
             png, a);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    snprintf(args, sizeof args, "render --pack " CF_SOURCE_DIR "/packs/libnoise-obsidian --seed 3 --area -256,-256:255,255 --scale 4 --device opencl --out %s --heights %s",
             png, b);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    char *ha = slurp(a), *hb = slurp(b);
    unsigned hl = (unsigned char)ha[8] | (unsigned)(unsigned char)ha[9] << 8;
    cr_assert(memcmp(ha, hb, 10 + hl + 128 * 128 * 4) == 0, "CPU and OpenCL heights differ");
    /* land and water both appear: the selector works */
    const int32_t *h = (const int32_t *)(const void *)(ha + 10 + hl);
    int land = 0, water = 0;
    for (int i = 0; i < 128 * 128; i++) land += h[i] >= 62, water += h[i] < 62;
    cr_assert(land > 1000 && water > 1000, "land %d, water %d", land, water);
    free(ha), free(hb);
    unlink(a), unlink(b), unlink(png);
}
