/* test_hytale.c - the Hytale front-end (host/hytale.c, kernels/cf_hytale.h).
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

#include "../kernels/cf_hytale.h"
#include "cf.h"

static const char *shared_dir(void)
{
    const char *s = getenv("CF_SHARED");
    return s ? s : CF_SOURCE_DIR "/../shared";
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bitsf(const char *hex)
{
    uint32_t u = (uint32_t)strtoul(hex, NULL, 16);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
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
    float jit = bitsf(str(fnl, "jitter"));
    int fbm = strcmp(str(fnl, "fractal"), "FBm") == 0;
    int oct = fbm ? (int)num(fnl, "octaves", 1) : 1;
    float lac = fbm ? bitsf(str(fnl, "lacunarity")) : 2.0f, gain = fbm ? bitsf(str(fnl, "gain")) : 0.5f;
    uint32_t want = (uint32_t)strtoul(str(r, "bits"), NULL, 16);
    if (df < 0 || rt < 0 || bitsf(str(fnl, "frequency")) != 1.0f || (fbm && bitsf(str(fnl, "weighted_strength")) != 0.0f))
        return fail(t, file, line, "unexpected FNL settings");
    float x = bitsf(cJSON_GetArrayItem(in, 0)->valuestring), y = bitsf(cJSON_GetArrayItem(in, 1)->valuestring);
    float z = three ? bitsf(cJSON_GetArrayItem(in, 2)->valuestring) : 0.0f;
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
    float freq = bitsf(str(fnl, "frequency")), amp = bitsf(str(fnl, "amplitude"));
    float lac = bitsf(str(fnl, "lacunarity")), gain = bitsf(str(fnl, "gain"));
    float c[3] = {0, 0, 0};
    for (int k = 0; k < (two ? 2 : 3); k++) c[k] = bitsf(cJSON_GetArrayItem(in, k)->valuestring);
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
