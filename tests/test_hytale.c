/* test_hytale.c - the Hytale front-end (host/frontend/hytale/, kernels/cf_hytale.h): the
 * FastNoiseLite records, the first V2 kinds, their bad input, OpenCL and the CLI (the V2 kinds
 * added later: test_hytale_v2.c; legacy noise assets: test_hytale_legacy.c).
 *
 * fnl_*: the FastNoiseLite-compatible kernels against the values of the upstream
 * Java file (shared/fastnoiselite/ *.jsonl, HYTALE.md §8.1; the oracle data and
 * its provenance are described in shared/fastnoiselite/README.md), bit for bit,
 * record by record: both the FNL-level settings and coordinates (fnl, fnl_in)
 * and the Hytale mapping of §7 (params + world position -> fnl_in, value, and the
 * warp's child position). The full files are read from ../shared (or $CF_SHARED);
 * tests/golden/fnl-subset.jsonl (made from them by tests/golden/make-fnl-subset.sh)
 * is committed so that a fresh clone still checks every kind of record.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "kernels/cf_hytale.h"
#include "cpu/cpu.h"
#include "frontend/hytale/hytale.h"
#include "testutil.h"

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}
static double num(const cJSON *o, const char *k, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}
static int ret_type(const char *s)
{
    static const char *const n[] = {"CellValue", "Distance", "Distance2", "Distance2Add", "Distance2Sub", "Distance2Mul", "Distance2Div"};
    for (int i = 0; i < 7; i++)
        if (strcmp(s, n[i]) == 0) return i;
    return -1;
}
static int dist_fn(const char *s)
{
    if (strcmp(s, "Euclidean") == 0) return CF_HY_EUCLIDEAN;
    if (strcmp(s, "Manhattan") == 0) return CF_HY_MANHATTAN;
    if (strcmp(s, "EuclideanSq") == 0) return CF_HY_EUCLIDEANSQ;
    if (strcmp(s, "Hybrid") == 0) return CF_HY_HYBRID;
    return -1;
}
static int same_float(float a, uint32_t want)
{
    float w;
    memcpy(&w, &want, 4);
    if (isnan(w)) return isnan(a); /* the x86 default NaN is not a value FNL promises (README) */
    return fbits(a) == want;
}

typedef struct tally {
    int records, bad, nan, cell2, cell3, warp2, warp3;
    char first[512];
} tally;

static void fail(tally *t, const char *file, int line, const char *what)
{
    if (!t->bad++) snprintf(t->first, sizeof t->first, "%s:%d: %s", file, line, what);
}

/* one cell record: FNL level and Hytale mapping level */
static void check_cell(tally *t, const cJSON *r, const char *file, int line)
{
    const cJSON *fnl = cJSON_GetObjectItemCaseSensitive(r, "fnl"), *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(r, "fnl_in"), *pos = cJSON_GetObjectItemCaseSensitive(r, "pos");
    int three = strcmp(str(r, "node"), "CellNoise3D") == 0;
    cf_i32 seed = (cf_i32)num(r, "seed", 0);
    int df = dist_fn(str(fnl, "distance")), rt = ret_type(str(fnl, "return"));
    float jit = hexf(str(fnl, "jitter"));
    int fbm = strcmp(str(fnl, "fractal"), "FBm") == 0;
    int oct = fbm ? (int)num(fnl, "octaves", 1) : 1;
    float lac = fbm ? hexf(str(fnl, "lacunarity")) : 2.0f, gain = fbm ? hexf(str(fnl, "gain")) : 0.5f;
    uint32_t want = (uint32_t)strtoul(str(r, "bits"), NULL, 16);
    if (df < 0 || rt < 0 || hexf(str(fnl, "frequency")) != 1.0f || (fbm && hexf(str(fnl, "weighted_strength")) != 0.0f))
        return fail(t, file, line, "unexpected FNL settings");
    float x = hexf(cJSON_GetArrayItem(in, 0)->valuestring), y = hexf(cJSON_GetArrayItem(in, 1)->valuestring);
    float z = three ? hexf(cJSON_GetArrayItem(in, 2)->valuestring) : 0.0f;
    float v = three ? cf_hy_cell3(seed, x, y, z, jit, df, rt, oct, lac, gain) : cf_hy_cell2(seed, x, y, jit, df, rt, oct, lac, gain);
    char msg[400];
    if (!same_float(v, want)) {
        snprintf(msg, sizeof msg, "cfg %d pt %d: FNL-level value %08x, want %08x", (int)num(r, "cfg", 0), (int)num(r, "pt", 0),
                 fbits(v), want);
        return fail(t, file, line, msg);
    }
    if (isnan(v)) t->nan++;
    /* the Hytale mapping (§7.1): seed from the label, inputs (float)(coord / scale), FBm 2 / 0.5 */
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(r, "seed_from");
    if (sf && hytale_seed(str(sf, "label"), (int64_t)num(sf, "world_seed", 0)) != seed)
        return fail(t, file, line, "hytale_seed(label, world) differs from the record's seed");
    double px = cJSON_GetArrayItem(pos, 0)->valuedouble, py = cJSON_GetArrayItem(pos, 1)->valuedouble,
           pz = cJSON_GetArrayItem(pos, 2)->valuedouble;
    double sx = num(prm, "ScaleX", 1), sy = num(prm, "ScaleY", 1), sz = num(prm, "ScaleZ", 1);
    int hdf = cJSON_GetObjectItemCaseSensitive(prm, "DistanceFunction") ? dist_fn(str(prm, "DistanceFunction")) : CF_HY_EUCLIDEAN;
    int hoct = (int)num(prm, "Octaves", 1);
    float hv = three ? cf_hy_cell3(seed, (float)(px / sx), (float)(py / sy), (float)(pz / sz), (float)num(prm, "Jitter", 1.0), hdf,
                                   ret_type(str(prm, "CellType")), hoct, 2.0f, 0.5f)
                     : cf_hy_cell2(seed, (float)(px / sx), (float)(pz / sz), (float)num(prm, "Jitter", 1.0), hdf,
                                   ret_type(str(prm, "CellType")), hoct, 2.0f, 0.5f);
    if (!same_float(hv, want)) {
        snprintf(msg, sizeof msg, "cfg %d pt %d: Hytale-mapped value %08x, want %08x", (int)num(r, "cfg", 0), (int)num(r, "pt", 0),
                 fbits(hv), want);
        return fail(t, file, line, msg);
    }
    /* the node as the evaluator computes it (double in, double out) */
    double nv = three ? cf_hy_cellnoise3d(seed, px, py, pz, sx, sy, sz, (float)num(prm, "Jitter", 1.0), hdf,
                                          ret_type(str(prm, "CellType")), hoct)
                      : cf_hy_cellnoise2d(seed, px, pz, sx, sz, (float)num(prm, "Jitter", 1.0), hdf, ret_type(str(prm, "CellType")), hoct);
    if (!(isnan(nv) ? isnan(hv) : dbits(nv) == dbits((double)hv))) return fail(t, file, line, "node-level value differs");
    three ? t->cell3++ : t->cell2++;
}

static void check_warp(tally *t, const cJSON *r, const char *file, int line)
{
    const cJSON *fnl = cJSON_GetObjectItemCaseSensitive(r, "fnl"), *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(r, "fnl_in"), *pos = cJSON_GetObjectItemCaseSensitive(r, "pos");
    const cJSON *wb = cJSON_GetObjectItemCaseSensitive(r, "warped_bits"), *db = cJSON_GetObjectItemCaseSensitive(r, "delta_bits");
    const cJSON *cp = cJSON_GetObjectItemCaseSensitive(r, "child_pos");
    int two = cJSON_GetArraySize(in) == 2;
    cf_i32 seed = (cf_i32)num(r, "seed", 0);
    int reduced = strcmp(str(fnl, "warp"), "OpenSimplex2Reduced") == 0;
    if (!reduced && strcmp(str(fnl, "warp"), "OpenSimplex2") != 0) return fail(t, file, line, "unexpected warp type");
    const char *fr = str(fnl, "fractal");
    int ft = strcmp(fr, "DomainWarpProgressive") == 0   ? CF_HY_WARP_PROGRESSIVE
             : strcmp(fr, "DomainWarpIndependent") == 0 ? CF_HY_WARP_INDEPENDENT
                                                        : CF_HY_WARP_SINGLE;
    int oct = (int)num(fnl, "octaves", 1);
    float freq = hexf(str(fnl, "frequency")), amp = hexf(str(fnl, "amplitude"));
    float lac = hexf(str(fnl, "lacunarity")), gain = hexf(str(fnl, "gain"));
    float c[3] = {0, 0, 0};
    for (int k = 0; k < (two ? 2 : 3); k++) c[k] = hexf(cJSON_GetArrayItem(in, k)->valuestring);
    float in0[3] = {c[0], c[1], c[2]};
    if (two) cf_hy_warp2(seed, freq, amp, ft, oct, lac, gain, reduced, &c[0], &c[1]);
    else cf_hy_warp3(seed, freq, amp, ft, oct, lac, gain, reduced, &c[0], &c[1], &c[2]);
    char msg[400];
    for (int k = 0; k < (two ? 2 : 3); k++) {
        uint32_t w = (uint32_t)strtoul(cJSON_GetArrayItem(wb, k)->valuestring, NULL, 16);
        uint32_t d = (uint32_t)strtoul(cJSON_GetArrayItem(db, k)->valuestring, NULL, 16);
        if (fbits(c[k]) != w || fbits(c[k] - in0[k]) != d) {
            snprintf(msg, sizeof msg, "cfg %d pt %d axis %d: warped %08x, want %08x", (int)num(r, "cfg", 0), (int)num(r, "pt", 0), k,
                     fbits(c[k]), w);
            return fail(t, file, line, msg);
        }
    }
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(r, "seed_from");
    if (sf && hytale_seed(str(sf, "label"), (int64_t)num(sf, "world_seed", 0)) != seed)
        return fail(t, file, line, "hytale_seed(label, world) differs from the record's seed");
    /* the Hytale node (§7.2 mapping, chosen for "spec" records): child position */
    if (strcmp(str(r, "mapping"), "spec") == 0) {
        double p[3], want[3];
        for (int k = 0; k < 3; k++) p[k] = cJSON_GetArrayItem(pos, k)->valuedouble, want[k] = cJSON_GetArrayItem(cp, k)->valuedouble;
        int ho = (int)num(prm, "WarpOctaves", 1);
        if (two) cf_hy_fastwarp2(seed, num(prm, "WarpScale", 1), num(prm, "WarpFactor", 0), ho, num(prm, "WarpLacunarity", 2),
                                 num(prm, "WarpPersistence", 0.5), &p[0], &p[2]);
        else cf_hy_fastwarp3(seed, num(prm, "WarpScale", 1), num(prm, "WarpFactor", 0), ho, num(prm, "WarpLacunarity", 2),
                             num(prm, "WarpPersistence", 0.5), &p[0], &p[1], &p[2]);
        for (int k = 0; k < 3; k++)
            if (dbits(p[k]) != dbits(want[k])) {
                snprintf(msg, sizeof msg, "cfg %d pt %d axis %d: child position %.17g, want %.17g", (int)num(r, "cfg", 0),
                         (int)num(r, "pt", 0), k, p[k], want[k]);
                return fail(t, file, line, msg);
            }
    }
    two ? t->warp2++ : t->warp3++;
}

static int run_file(tally *t, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    static char buf[1 << 16];
    int line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        cJSON *r = cJSON_Parse(buf);
        if (!r) {
            fail(t, path, line, "not JSON");
            continue;
        }
        t->records++;
        const char *node = str(r, "node");
        if (strncmp(node, "CellNoise", 9) == 0) check_cell(t, r, path, line);
        else if (strcmp(node, "FastGradientWarp") == 0) check_warp(t, r, path, line);
        else fail(t, path, line, "unknown node");
        cJSON_Delete(r);
    }
    fclose(f);
    return 0;
}

Test(fnl, committed_subset_bit_identical)
{
    tally t = {0};
    cr_assert_eq(run_file(&t, CF_SOURCE_DIR "/tests/golden/fnl-subset.jsonl"), 0);
    cr_assert_eq(t.bad, 0, "%d bad records; first: %s", t.bad, t.first);
    cr_assert(t.records >= 300 && t.cell2 > 50 && t.cell3 > 50 && t.warp2 > 50 && t.warp3 > 20 && t.nan == 2, "%d records (%d %d %d %d, %d NaN)",
              t.records, t.cell2, t.cell3, t.warp2, t.warp3, t.nan);
}

static void full(const char *name, int want)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/fastnoiselite/%s", shared_dir(), name);
    if (stat(p, &st) != 0) cr_skip_test("no %s (the committed subset still ran)", p);
    tally t = {0};
    cr_assert_eq(run_file(&t, p), 0);
    cr_assert_eq(t.bad, 0, "%d bad records; first: %s", t.bad, t.first);
    cr_assert_eq(t.records, want, "%d records", t.records);
}
Test(fnl, cellnoise2d_all_records) { full("cellnoise2d.jsonl", 5696); }
Test(fnl, cellnoise3d_all_records) { full("cellnoise3d.jsonl", 5376); }
Test(fnl, fastgradientwarp_all_records) { full("fastgradientwarp.jsonl", 3712); }

/* ================================================================== the V2 front-end */
#include <stdarg.h>
#include <sys/wait.h>

#include "chunkfill.h"
#include "hytale_util.h"


Test(v2, sum_keeps_json_order_and_empty_is_plus_zero)
{
    cr_assert(same(one("{\"Type\":\"Sum\",\"Inputs\":[" C(1e16) "," C(1) "," C(-1e16) "]}", 0, 0, 0), 0.0));
    cr_assert(same(one("{\"Type\":\"Sum\",\"Inputs\":[" C(1e16) "," C(-1e16) "," C(1) "]}", 0, 0, 0), 1.0));
    cr_assert(same(one("{\"Type\":\"Sum\"}", 0, 0, 0), 0.0));
    cr_assert(same(one("{\"Type\":\"Sum\",\"Inputs\":[]}", 0, 0, 0), 0.0));
    /* one input: the input bitwise (-0 stays -0) for Sum, Max, Min, Multiplier */
    static const char *const t[] = {"Sum", "Max", "Min", "Multiplier"};
    for (int i = 0; i < 4; i++) {
        char j[300];
        snprintf(j, sizeof j, "{\"Type\":\"%s\",\"Inputs\":[" NEGZERO "]}", t[i]);
        double v = one(j, 0, 0, 0);
        cr_assert(i == 3 ? same(v, 0.0) : same(v, -0.0), "%s of -0 gave %a", t[i], v); /* Multiplier: an input == 0 returns +0 */
        snprintf(j, sizeof j, "{\"Type\":\"%s\",\"Inputs\":[" SIMPLEX "]}", t[i]);
        cr_assert(same(one(j, 13, 5, -7.5), one(SIMPLEX, 13, 5, -7.5)), "%s of one input", t[i]);
    }
}

Test(v2, multiplier_stops_at_zero_even_before_nan_and_infinity)
{
    cr_assert(isnan(one(NAN_NODE, 0, 0, 0)));
    cr_assert(isinf(one(INF_NODE, 0, 0, 0)));
    cr_assert(same(one("{\"Type\":\"Multiplier\",\"Inputs\":[" C(0) "," NAN_NODE "]}", 0, 0, 0), 0.0));
    cr_assert(same(one("{\"Type\":\"Multiplier\",\"Inputs\":[" NEGZERO "," INF_NODE "]}", 0, 0, 0), 0.0));
    cr_assert(same(one("{\"Type\":\"Multiplier\",\"Inputs\":[" C(-2) "," C(0.5) "," C(3) "]}", 0, 0, 0), -3.0));
    /* without the short-circuit the product would be NaN */
    cr_assert(isnan(one("{\"Type\":\"Multiplier\",\"Inputs\":[" INF_NODE "," C(0) "]}", 0, 0, 0)) == 0);
}

Test(v2, mix_evaluates_only_the_side_it_returns)
{
    const char *a = SIMPLEX, *b = "{\"Type\":\"CellNoise2D\",\"Scale\":20,\"CellType\":\"Distance\",\"Seed\":\"q\"}";
    for (int i = 0; i < 50; i++) {
        double x = rnd(-1e4, 1e4), z = rnd(-1e4, 1e4);
        double va = one(a, x, 0, z), vb = one(b, x, 0, z);
        char j[1000];
        snprintf(j, sizeof j, "{\"Type\":\"Mix\",\"Inputs\":[%s," NAN_NODE "," C(0) "]}", a);
        cr_assert(same(one(j, x, 0, z), va));
        snprintf(j, sizeof j, "{\"Type\":\"Mix\",\"Inputs\":[" NAN_NODE ",%s," C(1) "]}", b);
        cr_assert(same(one(j, x, 0, z), vb));
        snprintf(j, sizeof j, "{\"Type\":\"Mix\",\"Inputs\":[%s,%s," C(0.25) "]}", a, b);
        cr_assert(same(one(j, x, 0, z), (va * 0.75) + (vb * 0.25)));
        /* MultiMix at its keys is that input bitwise; between them the formula; NaN inputs elsewhere unread */
        snprintf(j, sizeof j, "{\"Type\":\"MultiMix\",\"Keys\":[0,0.5,1],\"Inputs\":[" NAN_NODE ",%s,%s," C(0.5) "]}", a, b);
        cr_assert(same(one(j, x, 0, z), va));
        snprintf(j, sizeof j, "{\"Type\":\"MultiMix\",\"Keys\":[0,0.5,1],\"Inputs\":[" NAN_NODE ",%s,%s," C(0.625) "]}", a, b);
        cr_assert(same(one(j, x, 0, z), (va * 0.75) + (vb * 0.25)));
    }
}

Test(v2, normalizer_clamp_and_inverter_algebra)
{
    for (int i = 0; i < 40; i++) {
        double fmin = rnd(-100, 100), fmax = fmin + rnd(0.5, 50), tmin = rnd(-10, 10);
        char j[600];
        /* FromMin -> ToMin bitwise; FromMax -> ToMax bitwise when ToMin + (ToMax - ToMin) is exact */
        snprintf(j, sizeof j, "{\"Type\":\"Normalizer\",\"FromMin\":%.17g,\"FromMax\":%.17g,\"ToMin\":%.17g,\"ToMax\":1,\"Inputs\":[" C(%.17g) "]}",
                 fmin, fmax, tmin, fmin);
        cr_assert(same(one(j, 0, 0, 0), tmin), "%s", j);
        snprintf(j, sizeof j, "{\"Type\":\"Normalizer\",\"FromMin\":%.17g,\"FromMax\":%.17g,\"ToMin\":-1,\"ToMax\":1,\"Inputs\":[" C(%.17g) "]}",
                 fmin, fmax, fmax);
        cr_assert(same(one(j, 0, 0, 0), 1.0), "%s", j);
    }
    /* the degenerate step (FromMin = FromMax) clamped to 0..1: a 0/1 step; NaN exactly at the step */
    const char *step = "{\"Type\":\"Clamp\",\"WallA\":1,\"WallB\":0,\"Inputs\":[{\"Type\":\"Normalizer\",\"FromMin\":0.62,\"FromMax\":0.62,"
                       "\"ToMin\":0,\"ToMax\":1,\"Inputs\":[{\"Type\":\"XValue\"}]}]}";
    cr_assert(same(one(step, 0.6199999, 0, 0), 0.0));
    cr_assert(same(one(step, 0.6200001, 0, 0), 1.0));
    cr_assert(isnan(one(step, 0.62, 0, 0)));
    /* Clamp: idempotent, the walls in either order */
    for (int i = 0; i < 60; i++) {
        double x = rnd(-3, 3);
        double v1 = one("{\"Type\":\"Clamp\",\"WallA\":-1,\"WallB\":0.5,\"Inputs\":[{\"Type\":\"XValue\"}]}", x, 0, 0);
        double v2 = one("{\"Type\":\"Clamp\",\"WallA\":0.5,\"WallB\":-1,\"Inputs\":[{\"Type\":\"XValue\"}]}", x, 0, 0);
        double v3 = one("{\"Type\":\"Clamp\",\"WallA\":0.5,\"WallB\":-1,\"Inputs\":[{\"Type\":\"Clamp\",\"WallA\":-1,\"WallB\":0.5,"
                        "\"Inputs\":[{\"Type\":\"XValue\"}]}]}", x, 0, 0);
        cr_assert(same(v1, v2) && same(v1, v3) && v1 >= -1 && v1 <= 0.5 && (x < -1 || x > 0.5 || same(v1, x)));
        /* Inverter twice is the identity, -0 included; Abs(-0) = +0 */
        cr_assert(same(one("{\"Type\":\"Inverter\",\"Inputs\":[{\"Type\":\"Inverter\",\"Inputs\":[{\"Type\":\"XValue\"}]}]}", x, 0, 0), x));
    }
    cr_assert(same(one("{\"Type\":\"Inverter\",\"Inputs\":[" NEGZERO "]}", 0, 0, 0), 0.0));
    cr_assert(same(one("{\"Type\":\"Abs\",\"Inputs\":[" NEGZERO "]}", 0, 0, 0), 0.0));
    /* Sqrt and Pow: odd symmetry (the choice); Pow 2 = x*x */
    for (int i = 0; i < 40; i++) {
        double x = rnd(0.01, 50);
        const char *sq = "{\"Type\":\"Sqrt\",\"Inputs\":[{\"Type\":\"XValue\"}]}";
        cr_assert(same(one(sq, -x, 0, 0), -one(sq, x, 0, 0)) && same(one(sq, x, 0, 0), sqrt(x)));
        const char *pw = "{\"Type\":\"Pow\",\"Exponent\":2.5,\"Inputs\":[{\"Type\":\"XValue\"}]}";
        cr_assert(same(one(pw, -x, 0, 0), -one(pw, x, 0, 0)));
        cr_assert(same(one("{\"Type\":\"Pow\",\"Exponent\":2,\"Inputs\":[{\"Type\":\"XValue\"}]}", x, 0, 0), x * x));
        cr_assert(fabs(one(pw, x, 0, 0) - pow(x, 2.5)) <= 4e-16 * pow(x, 2.5));
    }
}

Test(v2, smooth_operators_equal_the_hard_ones_away_from_the_crossing)
{
    for (int i = 0; i < 200; i++) {
        double a = rnd(-2, 2), b = rnd(-2, 2), k = 0.5;
        char j[600];
        snprintf(j, sizeof j, "{\"Type\":\"SmoothMin\",\"Range\":%.17g,\"Inputs\":[" C(%.17g) "," C(%.17g) "]}", k, a, b);
        double smin = one(j, 0, 0, 0);
        snprintf(j, sizeof j, "{\"Type\":\"SmoothMin\",\"Range\":%.17g,\"Inputs\":[" C(%.17g) "," C(%.17g) "]}", k, b, a);
        cr_assert(same(smin, one(j, 0, 0, 0)), "symmetric");
        snprintf(j, sizeof j, "{\"Type\":\"SmoothMax\",\"Range\":%.17g,\"Inputs\":[" C(%.17g) "," C(%.17g) "]}", k, a, b);
        double smax = one(j, 0, 0, 0);
        cr_assert(smin <= fmin(a, b) && smax >= fmax(a, b));
        if (fabs(a - b) >= k) cr_assert(same(smin, fmin(a, b)) && same(smax, fmax(a, b)));
        else cr_assert(smin < fmin(a, b) && smax > fmax(a, b));
    }
}

Test(v2, coordinate_transforms)
{
    const char *n = "{\"Type\":\"CellNoise3D\",\"Scale\":13,\"Jitter\":0.8,\"CellType\":\"Distance2Add\",\"Seed\":\"c\"}";
    char s2[400], id[400], sl[400];
    snprintf(s2, sizeof s2, "{\"Type\":\"Scale\",\"ScaleX\":2,\"ScaleY\":2,\"ScaleZ\":2,\"Inputs\":[%s]}", n);
    snprintf(id, sizeof id, "{\"Type\":\"Slider\",\"Inputs\":[{\"Type\":\"Scale\",\"Inputs\":[%s]}]}", n);
    snprintf(sl, sizeof sl, "{\"Type\":\"Slider\",\"SlideX\":5,\"SlideY\":-3,\"SlideZ\":11,\"Inputs\":[%s]}", n);
    cf_program *pn = compile1(n), *p2 = compile1(s2), *pid = compile1(id), *psl = compile1(sl);
    for (int i = 0; i < 100; i++) {
        double x = rnd(-500, 500), y = rnd(-64, 300), z = rnd(-500, 500), v = sample_at(pn, 1, x, y, z);
        cr_assert(same(sample_at(p2, 1, 2 * x, 2 * y, 2 * z), v), "Scale 2 at 2p");
        cr_assert(same(sample_at(pid, 1, x, y, z), v), "Scale 1 and Slide 0 are the identity");
        cr_assert(same(sample_at(psl, 1, x + 5, y - 3, z + 11), v), "a slide moves the field by +S");
    }
    cf_program_free(pn), cf_program_free(p2), cf_program_free(pid), cf_program_free(psl);
    /* overrides make the output independent of that axis */
    const char *xo = "{\"Type\":\"XOverride\",\"Value\":3,\"Inputs\":[{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"XValue\"},{\"Type\":\"ZValue\"}]}]}";
    cr_assert(same(one(xo, 100, 0, 2), 5.0) && same(one(xo, -7, 9, 2), 5.0));
    cr_assert(same(one("{\"Type\":\"YOverride\",\"Value\":-4,\"Inputs\":[{\"Type\":\"YValue\"}]}", 1, 77, 2), -4.0));
    cr_assert(same(one("{\"Type\":\"ZOverride\",\"Value\":0.5,\"Inputs\":[{\"Type\":\"ZValue\"}]}", 1, 77, 2), 0.5));
}

Test(v2, shapes_and_curves)
{
    const char *dist = "{\"Type\":\"Distance\",\"Curve\":{\"Type\":\"DistanceExponential\",\"Exponent\":2,\"Range\":50}}";
    const char *cube = "{\"Type\":\"Cube\",\"Curve\":{\"Type\":\"Manual\",\"Points\":[{\"In\":40,\"Out\":-1},{\"In\":0,\"Out\":1},{\"In\":10,\"Out\":0.5}]}}";
    cr_assert(same(one(dist, 0, 0, 0), 1.0) && same(one(dist, 50, 0, 0), 0.0) && same(one(dist, 0, 30, 40), 0.0));
    for (int i = 0; i < 60; i++) {
        double x = rnd(-60, 60), y = rnd(-60, 60), z = rnd(-60, 60);
        double d = one(dist, x, y, z), c = one(cube, x, y, z);
        cr_assert(same(one(dist, -x, y, -z), d) && same(one(dist, x, -y, z), d), "Distance is symmetric");
        cr_assert(same(one(cube, -x, -y, z), c) && same(one(cube, z, x, y), c), "Cube is symmetric and permutable");
        cr_assert(d >= 0 && d <= 1 && c >= -1 && c <= 1);
    }
    /* Manual passes through its points and is constant outside them */
    cr_assert(same(one(cube, 0, 0, 0), 1.0) && same(one(cube, 10, 0, 0), 0.5) && same(one(cube, 0, -40, 0), -1.0));
    cr_assert(same(one(cube, 0, 0, 1e9), -1.0) && same(one(cube, 5, 0, 0), 0.75));
}

Test(v2, cell_noise_properties)
{
    cf_program *cv = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":60,\"CellType\":\"CellValue\",\"Seed\":\"t\"}");
    cf_program *d1 = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":60,\"CellType\":\"Distance\",\"Seed\":\"t\"}");
    cf_program *d2 = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":60,\"CellType\":\"Distance2\",\"Seed\":\"t\"}");
    cf_program *dv = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":60,\"CellType\":\"Distance2Div\",\"Seed\":\"t\"}");
    cf_program *lat = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":60,\"Jitter\":0,\"CellType\":\"Distance\",\"Seed\":\"t\"}");
    int differ = 0;
    for (int i = 0; i < 300; i++) {
        double x = rnd(-1e5, 1e5), z = rnd(-1e5, 1e5), y = rnd(-100, 300);
        double v = sample_at(cv, 5, x, y, z);
        cr_assert(v >= -1 && v <= 1);
        cr_assert(same(v, sample_at(cv, 5, x, 0, z)), "CellNoise2D does not depend on y");
        cr_assert(sample_at(d2, 5, x, y, z) >= sample_at(d1, 5, x, y, z));
        double q = sample_at(dv, 5, x, y, z);
        cr_assert(q >= -1 && q <= 0);
        differ += !same(v, sample_at(cv, 6, x, y, z));
    }
    cr_assert(differ > 250, "the world seed changes the tiles (%d of 300 differ)", differ);
    /* jitter 0, Euclidean: exactly -1 at lattice points */
    for (int i = -5; i <= 5; i++) cr_assert(same(sample_at(lat, 5, 60.0 * i, 0, -60.0 * (2 * i)), -1.0));
    cf_program_free(cv), cf_program_free(d1), cf_program_free(d2), cf_program_free(dv), cf_program_free(lat);
}

Test(v2, seeds_are_labels_plus_the_world_seed)
{
    cf_program *a = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":30,\"CellType\":\"CellValue\",\"Seed\":\"lab004-tiles\"}");
    cf_program *b = compile1("{\"Type\":\"CellNoise2D\",\"Scale\":30,\"CellType\":\"CellValue\",\"Seed\":\"lab004-tilez\"}");
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        double x = rnd(-1e4, 1e4), z = rnd(-1e4, 1e4);
        differ += !same(sample_at(a, 0, x, 0, z), sample_at(b, 0, x, 0, z));
        /* hytale_seed(label, world) = hash(label) + world: a label whose hash is 1 more under world w - 1 gives the same field */
        cr_assert(same(sample_at(a, 7, x, 0, z), sample_at(a, 7 + 4294967296LL, x, 0, z)), "only the world seed's low 32 bits count");
    }
    cr_assert(differ > 90, "%d of 100", differ);
    cr_assert_eq(hytale_seed("lab004-tiles", 0), -2031736897);
    cr_assert_eq(hytale_seed("lab004-warp", 0), -481100018);
    cr_assert_eq(hytale_seed("", 5), 5);
    cf_program_free(a), cf_program_free(b);
}

Test(v2, warps_and_simplex)
{
    cf_program *w0 = compile1("{\"Type\":\"FastGradientWarp\",\"WarpScale\":50,\"WarpFactor\":0,\"WarpOctaves\":3,\"Seed\":\"w\",\"2D\":true,"
                              "\"Inputs\":[{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"XValue\"},{\"Type\":\"AmplitudeConstant\",\"Value\":1e-3,"
                              "\"Inputs\":[{\"Type\":\"ZValue\"}]}]}]}");
    cf_program *wy = compile1("{\"Type\":\"FastGradientWarp\",\"WarpScale\":50,\"WarpFactor\":40,\"WarpOctaves\":3,\"Seed\":\"w\",\"2D\":true,"
                              "\"Inputs\":[{\"Type\":\"YValue\"}]}");
    cf_program *wx = compile1("{\"Type\":\"FastGradientWarp\",\"WarpScale\":50,\"WarpFactor\":40,\"WarpOctaves\":1,\"Seed\":\"w\","
                              "\"Inputs\":[{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"XValue\"},{\"Type\":\"Inverter\",\"Inputs\":[{\"Type\":\"XValue\"}]}]}]}");
    cf_program *x3 = compile1("{\"Type\":\"FastGradientWarp\",\"WarpScale\":50,\"WarpFactor\":40,\"WarpOctaves\":2,\"Seed\":\"w\","
                              "\"Inputs\":[{\"Type\":\"XValue\"}]}");
    cf_program *sx = compile1(SIMPLEX);
    double mean = 0, maxd = 0;
    for (int i = 0; i < 400; i++) {
        double x = rnd(-2e4, 2e4), y = rnd(-64, 320), z = rnd(-2e4, 2e4);
        cr_assert(same(sample_at(w0, 3, x, y, z), x + 1e-3 * z), "WarpFactor 0 is the identity");
        cr_assert(same(sample_at(wy, 3, x, y, z), y), "a 2D warp leaves y unchanged");
        double d = fabs(sample_at(x3, 3, x, y, z) - x);
        maxd = d > maxd ? d : maxd;
        cr_assert(d <= 1.001 * 40, "statistical bound: |delta| <= WarpFactor (got %g)", d);
        double s = sample_at(sx, 3, x, y, z);
        cr_assert(s >= -1 && s <= 1 && same(s, sample_at(sx, 3, x, 0, z)), "SimplexNoise2D in [-1, 1], independent of y");
        mean += s;
    }
    cr_assert(maxd > 1, "the 3D warp moves points (max %g)", maxd);
    cr_assert(fabs(mean / 400) < 0.15, "statistical: mean %g", mean / 400);
    (void)wx;
    cf_program_free(w0), cf_program_free(wy), cf_program_free(wx), cf_program_free(x3), cf_program_free(sx);
}

Test(v2, exports_imports_skip_and_externals)
{
    const char *t = "{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"Imported\",\"Name\":\"E\"},{\"Type\":\"Imported\",\"Name\":\"F\"},"
                    "{\"Type\":\"Abs\",\"Skip\":true,\"Inputs\":[" C(-2) "]},{\"Type\":\"WhiteNoise\",\"Seed\":\"x\",\"Skip\":true}]}";
    const char *e = "{\"Type\":\"Exported\",\"ExportAs\":\"E\",\"SingleInstance\":true,\"Inputs\":[" C(0.25) "]}";
    const char *f = "{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"AmplitudeConstant\",\"ExportAs\":\"F\",\"Value\":3,\"Inputs\":[" C(5) "]}]}";
    mpack m = {{{"hytale/Density/t.json", t, strlen(t)}, {"hytale/Density/e.json", e, strlen(e)}, {"hytale/Density/f.json", f, strlen(f)}}, 3};
    cf_error err = {0};
    cf_program *pg;
    cr_assert_eq(compile_files(&m, "hytale:t", NULL, 0, &pg, &err), CF_OK, "%s", err.message);
    /* 0.25 + 15 + (-2: a skipped node passes its input through) + (+0: a skipped node without inputs) */
    cr_assert(same(sample_at(pg, 0, 1, 2, 3), 13.25));
    cf_program_free(pg);
    /* BaseHeight reads the external input hytale.base_height.<Name>; Distance: y - B */
    const char *bh = "{\"Type\":\"BaseHeight\",\"BaseHeightName\":\"Base\",\"Distance\":true}";
    mpack b = {{{"hytale/Density/t.json", bh, strlen(bh)}}, 1};
    cr_assert_eq(compile_files(&b, "hytale:t", "hytale.base_height.Base", 100, &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 1, 130, 3), 30.0) && same(sample_at(pg, 0, 1, 70, 3), -30.0));
    cf_program_free(pg);
    cr_assert_eq(compile_files(&b, "hytale:t", NULL, 0, &pg, &err), CF_ERR_REF);
    cr_assert_str_eq(err.message, "<memory>/hytale/Density/t.json#: needs external input \"hytale.base_height.Base\" (supply it: "
                                  "--external hytale.base_height.Base=VALUE or =@MAP.npy)");
}


Test(v2_errors, unknown_types_and_values)
{
    bad("{\"Type\":\"Summ\"}", NULL, CF_ERR_SCHEMA, "t.json#/Type", "unknown Type \"Summ\"");
    bad("{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"Abs\",\"Inputs\":[{\"Inputs\":[]}]}]}", NULL, CF_ERR_SCHEMA, "t.json#/Inputs/0/Inputs/0",
        "missing \"Type\"");
    bad("{\"Type\":\"Comparator\"}", NULL, CF_ERR_SCHEMA, "t.json#/Type", "node type Comparator has no documented semantics");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4}", NULL, CF_ERR_SCHEMA, "t.json#", "missing \"Positions\"");
    bad("{\"Type\":\"CellNoise2D\",\"Scale\":4,\"CellType\":\"Distance3\",\"Seed\":\"a\"}", NULL, CF_ERR_SCHEMA, "t.json#/CellType",
        "unknown value \"Distance3\"");
    bad("{\"Type\":\"CellNoise2D\",\"Scale\":4,\"CellType\":\"Distance\",\"Seed\":\"a\",\"DistanceFunction\":{\"Type\":\"Chebyshev\"}}", NULL,
        CF_ERR_SCHEMA, "t.json#/DistanceFunction/Type", "unknown value \"Chebyshev\"");
    bad("{\"Type\":\"Constant\",\"Value\":1,\"Valeu\":2}", NULL, CF_ERR_SCHEMA, "t.json#/Valeu", "unknown key \"Valeu\" for Type \"Constant\"");
    bad("{\"Type\":\"OffsetConstant\",\"Value\":1,\"Offset\":2,\"Inputs\":[" C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Offset",
        "both \"Value\" and its alias \"Offset\"");
    bad("{\"Type\":\"Constant\",\"Value\":\"1\"}", NULL, CF_ERR_SCHEMA, "t.json#/Value", "expected a number, found a string");
    bad("{\"Type\":\"CellNoise2D\",\"Scale\":4,\"CellType\":\"Distance\"}", NULL, CF_ERR_SCHEMA, "t.json#", "missing \"Seed\"");
    bad("{\"Type\":\"CurveMapper\",\"Curve\":{\"Type\":\"DistanceS\",\"ExponentA\":1,\"ExponentB\":1,\"Range\":2,\"Transition\":2},"
        "\"Inputs\":[" C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Curve", "DistanceS with Transition/TransitionSmooth other than 1");
}

Test(v2_errors, wrong_input_counts)
{
    bad("{\"Type\":\"Abs\",\"Inputs\":[" C(1) "," C(2) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Inputs", "Abs takes 1 input, found 2");
    bad("{\"Type\":\"Abs\"}", NULL, CF_ERR_SCHEMA, "t.json#", "Abs takes 1 input, found 0");
    bad("{\"Type\":\"Mix\",\"Inputs\":[" C(1) "," C(2) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Inputs", "Mix takes 3 inputs, found 2");
    bad("{\"Type\":\"Constant\",\"Value\":1,\"Inputs\":[" C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Inputs", "Constant takes 0 inputs, found 1");
    bad("{\"Type\":\"MultiMix\",\"Keys\":[0,1,2],\"Inputs\":[" C(1) "," C(2) "," C(3) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Keys", "expected 2 keys");
    bad("{\"Type\":\"MultiMix\",\"Keys\":[1,0],\"Inputs\":[" C(1) "," C(2) "," C(3) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Keys/1",
        "keys must increase strictly");
    bad("{\"Type\":\"Exported\",\"ExportAs\":\"A\",\"Inputs\":[]}", NULL, CF_ERR_SCHEMA, "t.json#/Inputs", "Exported takes 1 input, found 0");
}

Test(v2_errors, references_and_cycles)
{
    bad("{\"Type\":\"Imported\",\"Name\":\"Nope\"}", NULL, CF_ERR_REF, "t.json#/Name", "no export named \"Nope\"");
    bad("{\"Type\":\"Exported\",\"ExportAs\":\"A\",\"Inputs\":[{\"Type\":\"Imported\",\"Name\":\"B\"}]}",
        "{\"Type\":\"Exported\",\"ExportAs\":\"B\",\"Inputs\":[{\"Type\":\"Abs\",\"Inputs\":[{\"Type\":\"Imported\",\"Name\":\"A\"}]}]}", CF_ERR_CYCLE,
        "t.json#/Inputs/0/Name", "import cycle through \"B\"");
    bad("{\"Type\":\"Exported\",\"ExportAs\":\"A\",\"Inputs\":[" C(1) "]}", "{\"Type\":\"Exported\",\"ExportAs\":\"A\",\"Inputs\":[" C(2) "]}",
        CF_ERR_SCHEMA, "u.json#/ExportAs", "duplicate export \"A\" (also at <memory>/hytale/Density/t.json#)");
    bad("{\"Type\":\"DistanceToBiomeEdge\"}", NULL, CF_ERR_REF, "t.json#", "needs external input \"hytale.distance_to_biome_edge\"");
}

/* the CPU fill equals the single-point path at 16 points of each chunk (ctx: the chunks) */
static void fill_equals_sample(cf_world *w, const double *cpu, size_t n, int height, void *ctx)
{
    const int32_t *chunks = ctx;
    cf_error err = {0};
    for (size_t c = 0; c < n; c++)
        for (int k = 0; k < 16; k++) {
            int y = (k * 37) % height, x = (k * 5) % 16, z = (k * 11) % 16;
            double p[3] = {chunks[2 * c] * 16.0 + x, y, chunks[2 * c + 1] * 16.0 + z}, v;
            cr_assert_eq(cf_sample_f64(w, 0, 1, p, &v, &err), CF_OK);
            cr_assert(same(v, cpu[((c * (size_t)height + (size_t)y) * 16 + (size_t)z) * 16 + (size_t)x]), "fill = sample");
        }
}

static size_t device_vs_cpu(cf_pack *pk, const char *function, const int64_t *seeds, int nseeds, const int32_t *chunks, size_t n,
                            cf_program **keep)
{
    const char *fn[1] = {function};
    cf_error err = {0};
    cf_program *pg;
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    size_t diff = device_diff(pg, seeds, nseeds, chunks, n, fill_equals_sample, (void *)chunks);
    if (keep) *keep = pg;
    else cf_program_free(pg);
    return diff;
}

static const int64_t seeds2[2] = {0, -2147483649LL};
static const int32_t chunks3[6] = {0, 0, -3, 7, 40000, -40000};

TestSuite(v2_device, .timeout = 1200);
Test(v2_device, every_node_type_opencl_equals_cpu)
{
    /* case k occupies y = 3k .. 3k+2: Mix(inner, case_k, Clamp(y - 3k + 1, 0, 1)) selects exactly */
    char *text = slurp(CF_SOURCE_DIR "/tests/packs/hytale-nodes/cases.json");
    cJSON *cases = cJSON_Parse(text);
    cr_assert(cJSON_IsArray(cases));
    int k = 0;
    cJSON *chain = NULL;
    for (cJSON *c = cases->child; c; c = c->next, k++) {
        if (!chain) {
            chain = cJSON_Duplicate(c, 1);
            continue;
        }
        char gauge[300];
        snprintf(gauge, sizeof gauge, "{\"Type\":\"Clamp\",\"WallA\":0,\"WallB\":1,\"Inputs\":[{\"Type\":\"OffsetConstant\",\"Value\":%d,"
                 "\"Inputs\":[{\"Type\":\"YValue\"}]}]}", 1 - 3 * k);
        cJSON *mix = cJSON_CreateObject(), *in = cJSON_CreateArray();
        cJSON_AddStringToObject(mix, "Type", "Mix");
        cJSON_AddItemToArray(in, chain);
        cJSON_AddItemToArray(in, cJSON_Duplicate(c, 1));
        cJSON_AddItemToArray(in, cJSON_Parse(gauge));
        cJSON_AddItemToObject(mix, "Inputs", in);
        chain = mix;
    }
    cr_assert(3 * k <= 320, "%d cases do not fit the height", k);
    char *json = cJSON_PrintUnformatted(chain);
    /* and a legacy asset (its wrappers lower to their own kinds) */
    static const char legacy_json[] = "{\"Type\":\"SUM\",\"Factors\":[0.5],\"Offset\":3.25,\"Scale\":0.03,\"Noise\":["
                                      "{\"NoiseType\":\"SIMPLEX\",\"Seed\":\"l\",\"Octaves\":2},{\"Type\":\"INVERT\",\"Noise\":"
                                      "{\"NoiseType\":\"SIMPLEX\",\"Scale\":3}}]}";
    cf_memfile f[2] = {{"hytale/Density/t.json", json, strlen(json)}, {"hytale/Noise/l.json", legacy_json, sizeof legacy_json - 1}};
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open_memory(&pk, f, 2, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_pack_set_external(pk, "hytale.base_height.Base", 100.5, &err), CF_OK);
    /* external maps (table data on the device): partly covering the chunks (NaN outside) */
    static double map[60 * 50];
    for (int i = 0; i < 60 * 50; i++) map[i] = (double)((i * 7919) % 1000) / 37.0 - 11.0;
    cr_assert_eq(cf_pack_set_external_map(pk, "hytale.distance_to_biome_edge", 60, 50, -64.5, -40, 3, map, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_pack_set_external_map(pk, "hytale.anchor.x", 50, 60, -70, -70, 2.5, map, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_pack_set_external(pk, "hytale.anchor.y", -3.25, &err), CF_OK);
    cr_assert_eq(cf_pack_set_external(pk, "hytale.anchor.z", 17, &err), CF_OK);
    cf_program *pg;
    size_t d = device_vs_cpu(pk, "hytale:t", seeds2, 2, chunks3, 3, &pg);
    cr_assert_eq(d, 0u, "%zu values differ between OpenCL and the CPU", d);
    /* every Hytale node kind is in the programs */
    int seen[NK_COUNT] = {0};
    for (int i = 0; i < pg->nnodes; i++) seen[pg->nodes[i].kind] = 1;
    cf_program_free(pg);
    d = device_vs_cpu(pk, "hytale:noise/l", seeds2, 2, chunks3, 3, &pg);
    cr_assert_eq(d, 0u, "legacy: %zu values differ between OpenCL and the CPU", d);
    for (int i = 0; i < pg->nnodes; i++) seen[pg->nodes[i].kind] = 1;
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary, value)                                                                          \
    cr_expect(strncmp(name, "hytale:", 7) != 0 || strncmp(name, "hytale:legacy-", 14) == 0 || seen[NK_##K], "no case uses %s", name);
#include "ir/nodes.def"

#undef NODE64
#undef NODE
    cf_program_free(pg);
    cf_pack_free(pk);
    free(json);
    cJSON_Delete(chain);
    cJSON_Delete(cases);
    free(text);
}

Test(v2_device, opencl_equals_cpu_on_the_example_pack)
{
    static const char *const paths[1] = {CF_SOURCE_DIR "/packs/hytale-biome-tiles"};
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    static const int32_t chunks[8] = {0, 0, -5, 3, 40, -41, 100000, -100000};
    size_t d = device_vs_cpu(pk, "router:final_density", seeds2, 2, chunks, 4, NULL);
    cr_assert_eq(d, 0u, "%zu values differ", d);
    cf_pack_free(pk);
}

/* ------------------------------------------------------------------ CLI */
#define TILES CF_SOURCE_DIR "/packs/hytale-biome-tiles"
Test(v2_cli, sample_takes_fractional_positions_and_matches_the_fnl_oracle)
{
    char out[4096];
    /* the §9.2 T1 tile map at the origin: record cfg 172 pt 0 of cellnoise2d.jsonl (bits 3a6a8c98) */
    int rc = run("sample --pack " CF_SOURCE_DIR "/tests/packs/hytale --function hytale:Cell --seed 0 --at 0,0,0 --at 0.5,-3,1e6", out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    char want[200];
    snprintf(want, sizeof want, "0 0 0 %.17g\n", (double)hexf("3a6a8c98"));
    cr_assert(strncmp(out, want, strlen(want)) == 0, "%s", out);
    cr_assert(strstr(out, "\n0.5 -3 1e6 "), "%s", out);
}

Test(v2_cli, a_single_terrain_pack_needs_no_settings_and_checks_on_opencl)
{
    char out[8192];
    int rc = run("sample --pack " TILES " --function router:final_density --seed 3 --at 100,70,-20", out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strncmp(out, "100 70 -20 ", 11) == 0, "%s", out);
    rc = run("check --pack " TILES " --seed 3 --chunks -1,-1:0,0", out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "0 differ"), "%s", out);
    rc = run("sample --pack " TILES " --function hytale:Nope --seed 3 --at 1,2,3", out, sizeof out);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, "no hytale/Density/Nope.json"), "%s", out);
    rc = run("sample --pack " CF_SOURCE_DIR "/tests/packs/hytale --function hytale:Cell --seed 3 --external nonsense --at 1,2,3", out, sizeof out);
    cr_assert_eq(rc, 2, "%s", out);
}

Test(v2_cli, the_example_pack_fills_and_renders_on_cpu_and_opencl)
{
    char out[8192], dir[] = "/tmp/cf-hytale-XXXXXX";
    cr_assert(mkdtemp(dir));
    char args[2048];
    /* fill: float64 .npy equal to the sampled terrain */
    snprintf(args, sizeof args, "fill --pack " TILES " --seed 11 --chunks 2,-1 --out %s/f.npy", dir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    char path[512];
    snprintf(path, sizeof path, "%s/f.npy", dir);
    static double v[320 * 256];
    npy_read(path, "<f8", "(1, 320, 16, 16)", v, sizeof v);
    snprintf(args, sizeof args, "sample --pack " TILES " --seed 11 --function router:final_density --at 37,101,-5 --at 32,0,-16");
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    char want[300];
    snprintf(want, sizeof want, "37 101 -5 %.17g\n32 0 -16 %.17g\n", v[(101 * 16 + 11) * 16 + 5], v[0]);
    cr_assert_str_eq(out, want);
    /* render: a PNG on the CPU and the same picture on OpenCL */
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/cpu.png", dir);
    snprintf(b, sizeof b, "%s/cl.png", dir);
    snprintf(args, sizeof args, "render --pack " TILES " --seed 11 --area -48,-48:47,47 --scale 2 --out %s --heights %s/h1.npy", a, dir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    snprintf(args, sizeof args, "render --pack " TILES " --seed 11 --area -48,-48:47,47 --scale 2 --device opencl --out %s --heights %s/h2.npy", b,
             dir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    snprintf(args, sizeof args, "cmp -s %s %s && cmp -s %s/h1.npy %s/h2.npy", a, b, dir, dir);
    cr_assert_eq(system(args), 0, "the CPU and OpenCL renders differ");
    struct stat st;
    cr_assert(stat(a, &st) == 0 && st.st_size > 1000);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
}

/* ================================================================== legacy noise assets (Part A) */
static cf_status legacy(const mpack *m, const char *id, cf_program **pg, cf_error *err)
{
    char fn[200];
    snprintf(fn, sizeof fn, "hytale:noise/%s", id);
    return compile_files(m, fn, NULL, 0, pg, err);
}
#define F(name, json) {"hytale/Noise/" name ".json", json, sizeof json - 1}

Test(legacy, parent_inheritance_overrides_exactly_the_fields_the_child_sets)
{
    mpack m = {{F("P", "{\"Type\":\"SUM\",\"Noise\":[{\"NoiseType\":\"CONSTANT\",\"Value\":0.25},\"Half\"],\"Factors\":[2,3],\"Offset\":1}"),
                F("Half", "{\"NoiseType\":\"CONSTANT\"}"),
                F("Child", "{\"Parent\":\"P\",\"Factors\":[10]}"),
                F("N", "{\"Type\":\"NORMALIZE\",\"Noise\":{\"NoiseType\":\"CONSTANT\",\"Value\":2},\"Range\":{\"Min\":-1,\"Max\":1}}"),
                F("NChild", "{\"Parent\":\"N\",\"Range\":{\"Max\":3}}"),
                F("S", "{\"NoiseType\":\"SIMPLEX\",\"Seed\":\"hills\",\"Scale\":0.01,\"Octaves\":3}"),
                F("SChild", "{\"Parent\":\"S\",\"Scale\":0.02}"),
                F("SPlain", "{\"NoiseType\":\"SIMPLEX\",\"Seed\":\"hills\",\"Octaves\":3}")},
               8};
    cf_error err = {0};
    cf_program *pg;
    /* the parent: 2*0.25 + 3*0.5 (CONSTANT's default 0.5) */
    cr_assert_eq(legacy(&m, "P", &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 1, 2, 3), 2.0));
    cf_program_free(pg);
    /* the child replaces Factors whole (a missing factor is 1), keeps Noise: 10*0.25 + 0.5 */
    cr_assert_eq(legacy(&m, "Child", &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 1, 2, 3), 3.0));
    cf_program_free(pg);
    /* a map merges field by field: Range {Min -1 (parent), Max 3 (child)}: (2 - -1)/4 */
    cr_assert_eq(legacy(&m, "N", &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 0, 0, 0), 1.5));
    cf_program_free(pg);
    cr_assert_eq(legacy(&m, "NChild", &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 0, 0, 0), 0.75));
    cf_program_free(pg);
    /* Scale overridden, Seed and Octaves inherited: SChild(p) = SPlain(0.02 p) = S(2p) */
    cf_program *s, *sc, *sp;
    cr_assert_eq(legacy(&m, "S", &s, &err), CF_OK, "%s", err.message);
    cr_assert_eq(legacy(&m, "SChild", &sc, &err), CF_OK, "%s", err.message);
    cr_assert_eq(legacy(&m, "SPlain", &sp, &err), CF_OK, "%s", err.message);
    for (int i = 0; i < 50; i++) {
        double x = rnd(-3000, 3000), y = rnd(0, 200), z = rnd(-3000, 3000), v = sample_at(sc, 9, x, y, z);
        cr_assert(v >= 0 && v <= 1, "legacy values lie in [0, 1]");
        cr_assert(same(v, sample_at(sp, 9, x * 0.02, y * 0.02, z * 0.02)));
        cr_assert(same(sample_at(s, 9, x * 2, y * 2, z * 2), sample_at(sp, 9, (x * 2) * 0.01, (y * 2) * 0.01, (z * 2) * 0.01)));
    }
    cf_program_free(s), cf_program_free(sc), cf_program_free(sp);
}

Test(legacy, composites_and_wrappers)
{
    mpack m = {{F("Inv", "{\"Type\":\"INVERT\",\"Noise\":{\"Type\":\"INVERT\",\"Noise\":\"X\"}}"),
                F("X", "{\"NoiseType\":\"SIMPLEX\",\"Seed\":\"x\",\"Scale\":0.05}"),
                F("Mul", "{\"Type\":\"MULTIPLY\",\"Noise\":[\"X\",{\"NoiseType\":\"CONSTANT\",\"Value\":0}]}"),
                F("Max", "{\"Type\":\"MAX\",\"Noise\":[\"X\",{\"NoiseType\":\"CONSTANT\",\"Value\":0.5}]}"),
                F("Off", "{\"Type\":\"SCALE\",\"Scale\":2,\"Offset\":1,\"Noise\":[\"X\"]}")},
               5};
    cf_error err = {0};
    cf_program *x, *inv, *mul, *mx, *off;
    cr_assert_eq(legacy(&m, "X", &x, &err), CF_OK, "%s", err.message);
    cr_assert_eq(legacy(&m, "Inv", &inv, &err), CF_OK, "%s", err.message);
    cr_assert_eq(legacy(&m, "Mul", &mul, &err), CF_OK, "%s", err.message);
    cr_assert_eq(legacy(&m, "Max", &mx, &err), CF_OK, "%s", err.message);
    cr_assert_eq(legacy(&m, "Off", &off, &err), CF_OK, "%s", err.message);
    for (int i = 0; i < 50; i++) {
        double p[3] = {rnd(-500, 500), rnd(0, 100), rnd(-500, 500)}, v = sample_at(x, 2, p[0], p[1], p[2]);
        cr_assert(fabs(sample_at(inv, 2, p[0], p[1], p[2]) - v) <= 1.2e-16, "INVERT twice is the identity up to rounding of 1 - (1 - v)");
        cr_assert(same(sample_at(mul, 2, p[0], p[1], p[2]), v * 0.0));
        cr_assert(same(sample_at(mx, 2, p[0], p[1], p[2]), v > 0.5 ? v : 0.5));
        /* §2.9 order: Scale closest to the base, then Offset: f(2 (p + 1)), not f(2p + 1) */
        cr_assert(same(sample_at(off, 2, p[0], p[1], p[2]), sample_at(x, 2, 2 * (p[0] + 1), 2 * (p[1] + 1), 2 * (p[2] + 1))));
    }
    cf_program_free(x), cf_program_free(inv), cf_program_free(mul), cf_program_free(mx), cf_program_free(off);
}

static void legacy_bad(const mpack *m, const char *id, cf_status st, const char *where, const char *msg)
{
    cf_error err = {0};
    cf_program *pg;
    cf_status got = legacy(m, id, &pg, &err);
    cf_program_free(pg);
    cr_assert_eq(got, st, "status %s, expected %s: %s", cf_status_str(got), cf_status_str(st), err.message);
    char prefix[300];
    snprintf(prefix, sizeof prefix, "<memory>/hytale/Noise/%s: ", where);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "message '%s', expected prefix '%s'", err.message, prefix);
    cr_assert(strstr(err.message, msg), "message '%s' lacks '%s'", err.message, msg);
    cr_assert(!strchr(err.message, '\n'));
}

Test(legacy_errors, cycles_missing_parents_and_unknown_types)
{
    mpack m = {{F("A", "{\"Parent\":\"B\",\"Value\":1}"), F("B", "{\"Parent\":\"C\"}"), F("C", "{\"Parent\":\"A\",\"NoiseType\":\"CONSTANT\"}"),
                F("D", "{\"Parent\":\"Nope\"}"), F("E", "{\"Parent\":\"F\",\"Type\":\"SUM\",\"Noise\":[]}"), F("F", "{\"Type\":\"MAX\",\"Noise\":[\"G\"]}"),
                F("G", "{\"NoiseType\":\"WHATEVER\"}"), F("H", "{\"Type\":\"SUM\",\"Noise\":[\"G\"]}")},
               8};
    legacy_bad(&m, "A", CF_ERR_CYCLE, "C.json#/Parent", "Parent cycle: A -> B -> C -> A");
    legacy_bad(&m, "D", CF_ERR_REF, "D.json#/Parent", "no noise asset \"Nope\"");
    legacy_bad(&m, "E", CF_ERR_SCHEMA, "E.json#/Parent", "parent \"F\" is a Type MAX, this asset a Type SUM");
    legacy_bad(&m, "G", CF_ERR_SCHEMA, "G.json#/NoiseType", "unknown NoiseType \"WHATEVER\"");
    legacy_bad(&m, "H", CF_ERR_SCHEMA, "G.json#/NoiseType", "unknown NoiseType \"WHATEVER\"");
    mpack m2 = {{F("T", "{\"Type\":\"SUMM\",\"Noise\":[]}"), F("U", "{\"NoiseType\":\"MESH\"}"), F("V", "{\"NoiseType\":\"CONSTANT\",\"Formula\":\"SQRTT\"}"),
                 F("W", "{\"NoiseType\":\"CONSTANT\",\"Valu\":1}"), F("X", "{\"Type\":\"SUM\",\"Noise\":[\"X\"]}"),
                 F("Y", "{\"Type\":\"SUM\",\"Noise\":[{\"NoiseType\":\"CONSTANT\"}],\"Factors\":[1,2]}")},
                6};
    legacy_bad(&m2, "T", CF_ERR_SCHEMA, "T.json#/Type", "unknown Type \"SUMM\"");
    legacy_bad(&m2, "U", CF_ERR_SCHEMA, "U.json#/NoiseType", "NoiseType \"MESH\" is not supported (HYTALE.md §2.10 tier 3");
    legacy_bad(&m2, "V", CF_ERR_SCHEMA, "V.json#/Formula", "unknown Formula \"SQRTT\"");
    legacy_bad(&m2, "W", CF_ERR_SCHEMA, "W.json#/Valu", "unknown key \"Valu\"");
    legacy_bad(&m2, "X", CF_ERR_CYCLE, "X.json#/Noise/0", "noise reference cycle through \"X\"");
    legacy_bad(&m2, "Y", CF_ERR_SCHEMA, "Y.json#/Factors", "expected at most 1 factors");
}

/* HYTALE.md §9.3 acceptance 1: with WarpFactor 0 and Jitter 0 the tile borders lie on the 120-block
 * lattice of FNL's round-half-away-from-zero cells, edges at (n + 0.5) * 120 */
Test(v2, unwarped_unjittered_tiles_are_the_120_block_lattice)
{
    cf_program *t = compile1("{\"Type\":\"FastGradientWarp\",\"WarpScale\":130,\"WarpFactor\":0,\"WarpOctaves\":3,\"Seed\":\"lab004-warp\","
                             "\"2D\":true,\"Inputs\":[{\"Type\":\"CellNoise2D\",\"ScaleX\":120,\"ScaleZ\":120,\"Jitter\":0,"
                             "\"CellType\":\"CellValue\",\"Octaves\":1,\"Seed\":\"lab004-tiles\"}]}");
    int borders = 0;
    for (int k = 0; k < 40; k++) {
        int i = (int)rnd(-50, 50), j = (int)rnd(-50, 50);
        double cx = 120.0 * i, cz = 120.0 * j, v = sample_at(t, 0, cx, 64, cz);
        for (int q = 0; q < 20; q++) {
            double dx = rnd(-59.9, 59.9), dz = rnd(-59.9, 59.9);
            cr_assert(same(sample_at(t, 0, cx + dx, rnd(-64, 320), cz + dz), v), "one value per 120-block square");
        }
        /* at an edge both cells are 0.5 away: the tie keeps the first cell visited (the lower index) */
        cr_assert(same(sample_at(t, 0, (i + 0.5) * 120.0, 0, cz), v), "the upper edge belongs to this cell");
        borders += !same(sample_at(t, 0, (i + 0.5) * 120.0 + 0.01, 0, cz), v);
        borders += !same(sample_at(t, 0, (i - 0.5) * 120.0, 0, cz), v);
    }
    cr_assert(borders >= 76, "the neighbouring cells start at the edges (%d of 80 differ)", borders);
    cf_program_free(t);
}
