/* test_mc121.c - the Minecraft 1.18.2-1.21 dialect (host/frontend/mc121/mc121.c, kernels/cf_mc121.h).
 *
 * Golden values: tests/golden/legacy-df.txt, made by tests/golden/make-legacy.sh
 * from the legacy oracle (deepslate-oracle-legacy.mjs, deepslate 0.26.2) on
 * vanilla 1.21.11 ($CF_SHARED/vanilla/1.21.11):
 *   @ settings=ID seed=N function=ID
 *   X Y Z 0x<double bits>
 * Every value must have the same double bits (NaN matches any NaN). Bad old-format
 * input gives one located error line.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <md5.h>

#include "cpu/cpu.h"
#include "testutil.h"


static int have_121(char *pack, size_t n)
{
    char p[8192];
    snprintf(pack, n, "%s/vanilla/1.21.11", shared_dir());
    return shared_have("vanilla/1.21.11/data", p, sizeof p); /* CI=true: missing fails */
}

typedef struct block {
    char settings[128], function[256];
    long long seed;
    size_t n, cap;
    int32_t *xyz;
    uint64_t *bits;
} block;

static size_t run_block(cf_pack *pk, const block *b)
{
    cf_error err = {0};
    cf_program *pg = NULL;
    cf_world *w = NULL;
    const char *fn[1] = {b->function};
    cr_assert_eq(cf_program_compile(&pg, pk, b->settings, fn, 1, &err), CF_OK, "%s %s: %s", b->settings, b->function, err.message);
    cr_assert_eq(cf_program_precision(pg), 64);
    cr_assert_eq(cf_world_new(&w, pg, (int64_t)b->seed, &err), CF_OK, "%s", err.message);
    double *out = malloc(sizeof(double) * (b->n + 1));
    cr_assert_eq(cf_sample(w, 0, b->n, b->xyz, out, &err), CF_OK, "%s", err.message);
    size_t bad = 0;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t gb;
        double want;
        memcpy(&gb, &out[i], 8);
        memcpy(&want, &b->bits[i], 8);
        int same = (isnan(out[i]) && isnan(want)) || gb == b->bits[i];
        if (!same && bad++ < 5)
            cr_log_error("%s %s seed %lld at %d %d %d: got %.17g (0x%016llx), oracle %.17g (0x%016llx)", b->settings, b->function,
                         b->seed, b->xyz[3 * i], b->xyz[3 * i + 1], b->xyz[3 * i + 2], out[i], (unsigned long long)gb, want,
                         (unsigned long long)b->bits[i]);
    }
    free(out);
    cf_world_free(w);
    cf_program_free(pg);
    return bad;
}

/* golden file name (in tests/golden) opened, and the pack at dir into *pk */
static FILE *golden_open(const char *name, const char *dir, cf_pack **pk)
{
    const char *paths[1] = {dir};
    cf_error err = {0};
    char file[4096];
    snprintf(file, sizeof file, "%s/tests/golden/%s", CF_SOURCE_DIR, name);
    cr_assert_eq(cf_pack_open(pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    FILE *f = fopen(file, "r");
    cr_assert_not_null(f, "no %s", file);
    return f;
}

/* every block of golden file name (in tests/golden) against the pack at dir */
static void run_df(const char *name, const char *dir, size_t *nblocks, size_t *nvalues)
{
    cf_pack *pk = NULL;
    FILE *f = golden_open(name, dir, &pk);
    char line[1024];
    block b = {0};
    int open = 0;
    size_t bad = 0, blocks = 0, values = 0;
    while (1) {
        char *got = fgets(line, sizeof line, f);
        if (!got || line[0] == '@') {
            if (open) {
                bad += run_block(pk, &b);
                blocks++;
                values += b.n;
            }
            if (!got) break;
            char seed[64];
            free(b.xyz), free(b.bits);
            memset(&b, 0, sizeof b);
            cr_assert(line_field(line, "settings", b.settings, sizeof b.settings) == 0 && line_field(line, "seed", seed, sizeof seed) == 0
                          && line_field(line, "function", b.function, sizeof b.function) == 0,
                      "bad header %s", line);
            b.seed = strtoll(seed, NULL, 10);
            open = 1;
            continue;
        }
        if (line[0] == '#' || line[0] == '\n') continue;
        int x, y, z;
        unsigned long long bits;
        cr_assert_eq(sscanf(line, "%d %d %d 0x%llx", &x, &y, &z, &bits), 4, "bad line %s", line);
        if (b.n == b.cap) {
            b.cap = b.cap ? b.cap * 2 : 256;
            b.xyz = realloc(b.xyz, sizeof(int32_t) * 3 * b.cap);
            b.bits = realloc(b.bits, sizeof(uint64_t) * b.cap);
        }
        b.xyz[3 * b.n] = x, b.xyz[3 * b.n + 1] = y, b.xyz[3 * b.n + 2] = z;
        b.bits[b.n++] = bits;
    }
    free(b.xyz), free(b.bits);
    fclose(f);
    cf_pack_free(pk);
    cr_assert_eq(bad, 0, "%s: %zu of %zu values differ from the legacy oracle", name, bad, values);
    *nblocks = blocks, *nvalues = values;
}

Test(mc121, vanilla_points_equal_legacy_oracle, .timeout = 600)
{
    char pack[4096];
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    size_t blocks, values;
    run_df("legacy-df.txt", pack, &blocks, &values);
    cr_assert_gt(blocks, 200, "found %zu blocks", blocks);
    cr_log_info("1.21.11: %zu function/seed blocks, %zu values, all bit-identical", blocks, values);
}

/* our own old-format pack: every 1.21 node kind, other cell sizes, legacy random wiring */
Test(mc121, test_pack_points_equal_legacy_oracle)
{
    size_t blocks, values;
    run_df("legacy-pack-df.txt", CF_SOURCE_DIR "/tests/packs/mc121", &blocks, &values);
    cr_assert_gt(blocks, 80, "found %zu blocks", blocks);
}

/* every node kind of nodes_mc121.def appears in the test pack */
Test(mc121, test_pack_covers_every_kind)
{
    FILE *p = popen("cat " CF_SOURCE_DIR "/tests/packs/mc121/data/t/worldgen/density_function/*.json", "r");
    cr_assert_not_null(p);
    static char all[1 << 20];
    size_t len = fread(all, 1, sizeof all - 1, p);
    all[len] = 0;
    pclose(p);
    const char *name;
    for (int i = 0; cf_node_kind_info(i, &name, NULL, NULL); i++) {
        char pat[128];
        if (strncmp(name, "mc121:", 6) != 0 || strcmp(name, "mc121:constant") == 0) continue; /* bare numbers are constants */
        /* 26.2's interval_select is unknown to the legacy oracle (deepslate 0.26.2) whose goldens this pack
         * feeds: test_blocks121.c tests it (its unit test and vanilla 26.2's caves against the game's dumps) */
        if (strcmp(name, "mc121:interval_select") == 0) continue;
        snprintf(pat, sizeof pat, "\"minecraft:%s\"", name + 6);
        cr_expect(strstr(all, pat) != NULL, "node kind %s is not in tests/packs/mc121", name);
    }
}

/* ------------------------------------------------------------------ dialect detection and errors */

static const char *SETTINGS =
    "{\"sea_level\": 63, \"legacy_random_source\": false, \"noise\": {\"min_y\": -64, \"height\": 384, \"size_horizontal\": 1,"
    " \"size_vertical\": 2}, \"noise_router\": {\"final_density\": \"t:f\"}}";

/* compiles t:f of a memory pack with SETTINGS (or settings) and f.json = df; returns the status, err filled */
static int strict; /* cf_pack_set_strict for compile_df: what the game ignores is refused (issue 23) */
static void quiet(void *ctx, const char *line) { (void)ctx, (void)line; }
static cf_status compile_df(const char *settings, const char *df, const char *noise, cf_error *err, cf_program **out)
{
    cf_pack *pk = NULL;
    cf_status st = mem_pack_sfn(&pk, settings, df, noise, err);
    if (st != CF_OK) return st;
    cf_pack_set_strict(pk, strict);
    cf_pack_set_warnings(pk, quiet, NULL);
    const char *fn[1] = {"t:f"};
    cf_program *pg = NULL;
    st = cf_program_compile(&pg, pk, "t:s", fn, 1, err);
    if (out) *out = pg;
    else cf_program_free(pg);
    cf_pack_free(pk);
    return st;
}

static const char *NOISE = "{\"firstOctave\": -3, \"amplitudes\": [1.0, 0.0, 2.0]}";

Test(mc121, detected_from_settings)
{
    cf_error err = {0};
    cf_program *pg = NULL;
    cr_assert_eq(compile_df(SETTINGS, "{\"type\": \"minecraft:add\", \"argument1\": 1.5, \"argument2\": {\"type\": \"minecraft:noise\","
                                      " \"noise\": \"t:n\", \"xz_scale\": 0.5, \"y_scale\": 1.0}}",
                            NOISE, &err, &pg),
                 CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_precision(pg), 64);
    cr_assert_not_null(strstr(cf_program_describe(pg), "Minecraft 1.18.2-1.21"), "%s", cf_program_describe(pg));
    cf_program_free(pg);
}

static void expect_error(const char *settings, const char *df, const char *noise, const char *want)
{
    cf_error err = {0};
    cr_assert_neq(compile_df(settings, df, noise, &err, NULL), CF_OK, "no error for %s", df);
    cr_assert_null(strchr(err.message, '\n'), "one line: %s", err.message);
    cr_assert_not_null(strstr(err.message, want), "expected \"%s\" in: %s", want, err.message);
}

/* what the game accepts compiles without --strict */
static void expect_lenient(const char *settings, const char *df, const char *noise)
{
    cf_error err = {0};
    cr_assert_eq(compile_df(settings, df, noise, &err, NULL), CF_OK, "%s: %s", df, err.message);
}

Test(mc121, bad_input_is_one_located_error)
{
    expect_error(SETTINGS, "{\"type\": \"minecraft:add\", \"argument1\": 1}", NOISE, "f.json#: missing field \"argument2\"");
    expect_error(SETTINGS, "{\"type\": \"minecraft:gradient\"}", NOISE, "f.json#/type: unknown density function type");
    expect_error(SETTINGS, "{\"type\": \"minecraft:abs\", \"argument\": {\"type\": \"minecraft:square\", \"input\": 1}}", NOISE,
                 "f.json#/argument: missing field \"argument\"");
    strict = 1; /* the game ignores it: refused only with --strict */
    expect_error(SETTINGS, "{\"type\": \"minecraft:abs\", \"argument\": 1, \"argumnet\": 2}", NOISE, "f.json#/argumnet: unknown key");
    strict = 0;
    expect_lenient(SETTINGS, "{\"type\": \"minecraft:abs\", \"argument\": 1, \"argumnet\": 2}", NOISE);
    expect_error(SETTINGS, "{\"type\": \"minecraft:clamp\", \"input\": 1, \"min\": 2, \"max\": 1}", NOISE, "f.json#/max: max 1 is below min 2");
    expect_error(SETTINGS, "{\"type\": \"minecraft:noise\", \"noise\": \"t:missing\", \"xz_scale\": 1, \"y_scale\": 1}", NOISE,
                 "f.json#/noise: unresolved reference to noise \"t:missing\"");
    expect_error(SETTINGS, "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1}",
                 "{\"firstOctave\": -3, \"amplitudes\": []}", "n.json#/amplitudes: 0 amplitudes");
    strict = 1; /* the game ignores it: refused only with --strict */
    expect_error(SETTINGS, "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1}",
                 "{\"firstOctave\": -3, \"amplitudes\": [1], \"x\": 1}", "n.json#/x: unknown key");
    strict = 0;
    expect_lenient(SETTINGS, "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1}",
                   "{\"firstOctave\": -3, \"amplitudes\": [1], \"x\": 1}");
    expect_error(SETTINGS, "{\"type\": \"minecraft:weird_scaled_sampler\", \"input\": 0, \"rarity_value_mapper\": \"type_3\", \"noise\": \"t:n\"}",
                 NOISE, "f.json#/rarity_value_mapper: expected \"type_1\" or \"type_2\"");
    expect_error(SETTINGS, "{\"type\": \"minecraft:spline\", \"spline\": {\"coordinate\": 0, \"points\": []}}", NOISE,
                 "f.json#/spline/points: a spline needs at least one point");
    strict = 1; /* the game ignores it: refused only with --strict */
    expect_error(SETTINGS,
                 "{\"type\": \"minecraft:spline\", \"spline\": {\"coordinate\": 0, \"points\": [{\"location\": 1, \"value\": 0,"
                 " \"derivative\": 0}, {\"location\": 0, \"value\": 0, \"derivative\": 0}]}}",
                 NOISE, "f.json#/spline/points/1/location: locations must not decrease");
    strict = 0;
    expect_lenient(SETTINGS,
                   "{\"type\": \"minecraft:spline\", \"spline\": {\"coordinate\": 0, \"points\": [{\"location\": 1, \"value\": 0,"
                   " \"derivative\": 0}, {\"location\": 0, \"value\": 0, \"derivative\": 0}]}}",
                   NOISE);
    expect_error(SETTINGS, "\"t:f\"", NOISE, "reference cycle: t:f -> t:f");
    expect_error(SETTINGS, "1e9", NOISE, "f.json#: constant 1000000000 out of range");
    expect_error("{\"noise\": {\"min_y\": -64, \"height\": 384, \"size_horizontal\": 5, \"size_vertical\": 2}, \"noise_router\": {}}",
                 "0", NOISE, "s.json#/noise/size_horizontal: number 5 out of range");
    strict = 1; /* the game ignores it: refused only with --strict */
    expect_error("{\"noise\": {\"min_y\": -64, \"height\": 384, \"size_horizontal\": 1, \"size_vertical\": 2}, \"noise_router\": {\"bogus\": 0}}",
                 "0", NOISE, "s.json#/noise_router/bogus: unknown noise_router field");
    strict = 0;
    expect_lenient("{\"noise\": {\"min_y\": -64, \"height\": 384, \"size_horizontal\": 1, \"size_vertical\": 2}, \"noise_router\": {\"bogus\": 0}}",
                   "0", NOISE);
}

/* the old format under --dialect 26.3 is refused by the 26.3 parser with a located error */
Test(mc121, forced_dialect)
{
    cf_memfile files[2] = {
        {"data/t/worldgen/noise_settings/s.json", SETTINGS, strlen(SETTINGS)},
        {"data/t/worldgen/density_function/f.json", "1.0", 3},
    };
    cf_pack *pk = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, &err), CF_OK);
    cf_pack_set_dialect(pk, CF_DIALECT_MC263);
    const char *fn[1] = {"t:f"};
    cf_program *pg = NULL;
    cr_assert_neq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK);
    cr_assert_not_null(strstr(err.message, "size_horizontal"), "%s", err.message);
    cf_pack_set_dialect(pk, CF_DIALECT_MC121);
    memset(&err, 0, sizeof err);
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_precision(pg), 64);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ------------------------------------------------------------------ whole chunks (fills) */

typedef struct gchunk {
    char settings[128], md5[40], function[128];
    long long seed;
    int cx, cz, min_y, height, n;
    int xyz[64][3];
    uint64_t bits[64];
} gchunk;

/* the MD5 of n doubles as hex */
static void md5_hex(const double *v, size_t n, char *hex)
{
    MD5_CTX m;
    uint8_t d[16];
    MD5Init(&m);
    MD5Update(&m, (const uint8_t *)v, sizeof(double) * n);
    MD5Final(d, &m);
    for (int i = 0; i < 16; i++) sprintf(hex + 2 * i, "%02x", d[i]);
}

/* programs (and devices) per settings, compiled once per run */
typedef struct pcache {
    int n, use_dev;
    char function[128]; /* of the programs in the cache */
    char settings[8][128];
    cf_program *pg[8];
    cf_device *dev[8];
} pcache;

static int cached(cf_pack *pk, pcache *pc, const char *settings, const char *function)
{
    if (strcmp(pc->function, function) != 0) { /* another output: start over */
        for (int i = 0; i < pc->n; i++) cf_device_free(pc->dev[i]), cf_program_free(pc->pg[i]);
        pc->n = 0;
    }
    snprintf(pc->function, sizeof pc->function, "%s", function);
    for (int i = 0; i < pc->n; i++)
        if (strcmp(pc->settings[i], settings) == 0) return i;
    cr_assert_lt(pc->n, 8);
    int i = pc->n++;
    cf_error err = {0};
    const char *fn[1] = {pc->function};
    snprintf(pc->settings[i], sizeof pc->settings[i], "%s", settings);
    cr_assert_eq(cf_program_compile(&pc->pg[i], pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    pc->dev[i] = NULL;
    if (pc->use_dev) cr_assert_eq(cf_device_open(&pc->dev[i], "opencl", pc->pg[i], 0, 4, &err), CF_OK, "%s: %s", settings, err.message);
    return i;
}

/* fills one golden chunk on the CPU (or on the device: the same values); returns
 * 1 when identical to the oracle */
static int check_chunk(cf_pack *pk, pcache *pc, const gchunk *g)
{
    cf_error err = {0};
    int k = cached(pk, pc, g->settings, g->function);
    cf_program *pg = pc->pg[k];
    cf_world *w;
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    cr_assert_eq(min_y, g->min_y);
    cr_assert_eq(height, g->height);
    size_t nv = (size_t)height * 256;
    double *v = malloc(sizeof(double) * nv);
    int32_t c[2] = {g->cx, g->cz};
    char hex[33];
    cr_assert_eq(cf_world_new(&w, pg, (int64_t)g->seed, &err), CF_OK, "%s", err.message);
    if (pc->dev[k]) cr_assert_eq(cf_device_fill(pc->dev[k], w, 1, c, v, &err), CF_OK, "%s", err.message);
    else cr_assert_eq(cf_fill_chunks(w, 0, 1, c, v, 1, &err), CF_OK, "%s", err.message);
    for (size_t i = 0; i < nv; i++)
        if (isnan(v[i])) v[i] = NAN; /* node writes every NaN as 0x7ff8000000000000 (far End: the island sqrt of a wrapped int) */
    md5_hex(v, nv, hex);
    int ok = strcmp(hex, g->md5) == 0;
    for (int i = 0; i < g->n; i++) {
        int x = g->xyz[i][0] - 16 * g->cx, y = g->xyz[i][1] - min_y, z = g->xyz[i][2] - 16 * g->cz;
        double got = v[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x];
        uint64_t b;
        memcpy(&b, &got, 8);
        if (b != g->bits[i]) {
            ok = 0;
            cr_log_error("%s%s seed %lld chunk %d,%d at %d %d %d: got 0x%016llx, oracle 0x%016llx", pc->use_dev ? "device: " : "",
                         g->settings, g->seed, g->cx, g->cz, g->xyz[i][0], g->xyz[i][1], g->xyz[i][2], (unsigned long long)b,
                         (unsigned long long)g->bits[i]);
            break;
        }
    }
    if (!ok) cr_log_error("%s seed %lld chunk %d,%d: md5 %s, oracle %s", g->settings, g->seed, g->cx, g->cz, hex, g->md5);
    free(v);
    cf_world_free(w);
    return ok;
}

static void run_chunks(const char *name, const char *dir, int use_dev, int *chunks, int *bad)
{
    cf_pack *pk = NULL;
    FILE *f = golden_open(name, dir, &pk);
    char line[1024];
    gchunk g = {0};
    int open = 0;
    pcache pc = {0};
    pc.use_dev = use_dev;
    *chunks = *bad = 0;
    while (1) {
        char *got = fgets(line, sizeof line, f);
        if (!got || line[0] == '@') {
            if (open) {
                *bad += !check_chunk(pk, &pc, &g);
                (*chunks)++;
            }
            if (!got) break;
            char seed[64], ch[64], my[16], h[16];
            memset(&g, 0, sizeof g);
            cr_assert(line_field(line, "settings", g.settings, sizeof g.settings) == 0 && line_field(line, "seed", seed, sizeof seed) == 0
                          && line_field(line, "chunk", ch, sizeof ch) == 0 && line_field(line, "min_y", my, sizeof my) == 0
                          && line_field(line, "height", h, sizeof h) == 0 && line_field(line, "md5", g.md5, sizeof g.md5) == 0,
                      "bad header %s", line);
            g.seed = strtoll(seed, NULL, 10);
            if (line_field(line, "function", g.function, sizeof g.function) != 0) strcpy(g.function, "router:final_density");
            cr_assert_eq(sscanf(ch, "%d,%d", &g.cx, &g.cz), 2);
            g.min_y = atoi(my), g.height = atoi(h);
            open = 1;
            continue;
        }
        if (line[0] == '#' || line[0] == '\n') continue;
        unsigned long long bits;
        cr_assert_lt(g.n, 64);
        cr_assert_eq(sscanf(line, "%d %d %d 0x%llx", &g.xyz[g.n][0], &g.xyz[g.n][1], &g.xyz[g.n][2], &bits), 4, "bad line %s", line);
        g.bits[g.n++] = bits;
    }
    fclose(f);
    for (int i = 0; i < pc.n; i++) cf_device_free(pc.dev[i]), cf_program_free(pc.pg[i]);
    cf_pack_free(pk);
}

Test(mc121, vanilla_chunks_equal_legacy_oracle, .timeout = 900)
{
    char pack[4096];
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    int chunks, bad;
    run_chunks("legacy-chunks.txt", pack, 0, &chunks, &bad);
    cr_assert_gt(chunks, 60, "found %d chunks", chunks);
    cr_assert_eq(bad, 0, "%d of %d chunks differ from the legacy oracle", bad, chunks);
    cr_log_info("1.21.11: %d chunks, all bit-identical", chunks);
}

/* the generated OpenCL (PoCL here) against the same golden chunks: OpenCL == oracle == CPU */
Test(mc121, test_pack_chunks_equal_legacy_oracle)
{
    int chunks, bad;
    run_chunks("legacy-pack-chunks.txt", CF_SOURCE_DIR "/tests/packs/mc121", 0, &chunks, &bad);
    cr_assert_eq(chunks, 18, "found %d chunks", chunks);
    cr_assert_eq(bad, 0, "%d of %d chunks differ from the legacy oracle", bad, chunks);
}

Test(mc121, vanilla_chunks_opencl_equal_legacy_oracle, .timeout = 1200)
{
    cf_error err = {0};
    char *list = cf_devices_list(&err);
    if (!list || !strstr(list, "fp64 yes")) {
        free(list);
        cr_skip_test("no OpenCL device with fp64");
    }
    free(list);
    char pack[4096];
    int chunks, bad;
    run_chunks("legacy-pack-chunks.txt", CF_SOURCE_DIR "/tests/packs/mc121", 1, &chunks, &bad);
    cr_assert_eq(bad, 0, "test pack: %d of %d chunks differ on the device", bad, chunks);
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    run_chunks("legacy-chunks.txt", pack, 1, &chunks, &bad);
    cr_assert_gt(chunks, 60, "found %d chunks", chunks);
    cr_assert_eq(bad, 0, "%d of %d chunks differ on the device", bad, chunks);
    cr_log_info("1.21.11 on OpenCL: %d chunks, all bit-identical", chunks);
}

/* surfaces (render) scan the same values a fill gives: an area across chunk borders */
Test(mc121, surfaces_equal_fills)
{
    char pack[4096];
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 42, &err), CF_OK, "%s", err.message);
    int32_t x0 = -21, z0 = 9, nx = 40, nz = 25, h[40 * 25];
    cr_assert_eq(cf_surface_heights(w, 0, x0, z0, nx, nz, 100, h, 2, &err), CF_OK, "%s", err.message);
    int32_t chunks[2 * 12];
    int nc = 0;
    for (int cz = 0; cz <= 2; cz++)
        for (int cx = -2; cx <= 1; cx++) chunks[2 * nc] = cx, chunks[2 * nc + 1] = cz, nc++;
    double *v = malloc(sizeof(double) * 384 * 256 * (size_t)nc);
    cr_assert_eq(cf_fill_chunks(w, 0, (size_t)nc, chunks, v, 2, &err), CF_OK, "%s", err.message);
    int bad = 0;
    for (int z = 0; z < nz; z++)
        for (int x = 0; x < nx; x++) {
            int bx = x0 + x, bz = z0 + z, cx = (bx >> 4) + 2, cz = bz >> 4, lx = bx & 15, lz = bz & 15;
            const double *c = v + (size_t)(cz * 4 + cx) * 384 * 256;
            int top = -65;
            for (int y = 100 + 64; y >= 0; y--)
                if (c[((size_t)y * 16 + (size_t)lz) * 16 + (size_t)lx] > 0.0) {
                    top = y - 64;
                    break;
                }
            bad += top != h[z * nx + x];
        }
    cr_assert_eq(bad, 0, "%d columns differ", bad);
    free(v);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* runs cmd, its output in out; returns the exit status */
static int run_cmd(const char *cmd, char *out, size_t n)
{
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t k = fread(out, 1, n - 1, f);
    out[k] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* the CLI: `plan` names the dialect; --dialect forces one */
Test(mc121, cli_plan_and_dialect_option)
{
    char pack[4096], cmd[8192], out[4096];
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    snprintf(cmd, sizeof cmd, "%s plan --pack %s --settings minecraft:nether 2>&1", CF_BINARY, pack);
    cr_assert_eq(run_cmd(cmd, out, sizeof out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "dialect Minecraft 1.18.2-1.21 (old format, double arithmetic)"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s plan --pack %s --settings minecraft:nether --dialect 26.3 2>&1", CF_BINARY, pack);
    cr_assert_neq(run_cmd(cmd, out, sizeof out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "nether.json#/noise/size_horizontal: 1.18.2-1.21 noise settings"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s plan --dialect 1.19 2>&1", CF_BINARY);
    cr_assert_eq(run_cmd(cmd, out, sizeof out), 2, "%s", out);
    cr_assert_not_null(strstr(out, "--dialect takes 1.21 or 26.3"), "%s", out);
}

/* ------------------------------------------------------------------ the staged fill (fill121.c) */
/* fill121.c against the per-block path it replaced (fill121_points, kept as the reference):
 * every value bit-identical, for final_density (the cell cache's order) and outputs interpolated
 * y, x, z, every vanilla 1.21.11 and 26.2 dimension, our pack (other cell sizes, every kind), near
 * and far chunks, two seeds */
static void staged_equal(const char *dir, const char *settings, const char *function, int nseeds, long *values)
{
    static const int32_t chunks[] = {0, 0, -1, -1, 1007, -495, CF_MAX_CHUNK - 1, -(CF_MAX_CHUNK - 1), -CF_MAX_CHUNK, 9000001};
    static const int64_t seeds[] = {0, -4172144997902289642LL};
    for (int s = 0; s < nseeds; s++) {
        cf_pack *pk;
        cf_program *pg;
        cf_world *w = world_open(dir, settings, function, seeds[s], &pk, &pg);
        cr_assert(fill121_staged(pg), "%s %s: not staged", dir, settings);
        long n = 0, bad = fill121_check(w, pg->outputs[0], strcmp(function, "router:final_density") == 0, 5, chunks, &n);
        cr_assert_eq(bad, 0, "%s %s %s seed %lld: %ld of %ld values differ", dir, settings, function, (long long)seeds[s], bad, n);
        *values += n;
        world_close(w, pg, pk);
    }
}

/* fill121_run_rows (the ore veins' toggle of a block fill over y -60..50): the cell rows holding a
 * block of the range are the whole fill's bits, the others of the buffer are not written */
static void rows_equal(const char *dir, const char *settings, const char *function, int32_t ylo, int32_t yhi)
{
    static const int32_t chunks[] = {0, 0, 1007, -495, -CF_MAX_CHUNK, 9000001};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w = world_open(dir, settings, function, 0, &pk, &pg);
    ev64_ctx c;
    cr_assert_eq(eval64_init(&c, w), 0);
    cf_fill121 *f = fill121_new(&c, pg->outputs[0], 0);
    cr_assert(f, "%s %s: not staged", dir, settings);
    size_t per = (size_t)pg->height * 256;
    double *whole = malloc(sizeof(double) * per), *part = malloc(sizeof(double) * per);
    cr_assert(whole && part);
    long written = 0;
    for (int k = 0; k < 3; k++) {
        fill121_run(f, chunks[2 * k], chunks[2 * k + 1], whole);
        memset(part, 0xa5, sizeof(double) * per);
        fill121_run_rows(f, chunks[2 * k], chunks[2 * k + 1], ylo, yhi, part);
        for (int32_t y = 0; y < pg->height; y++) {
            int32_t c0 = pg->min_y + y / pg->cell_y * pg->cell_y, c1 = c0 + pg->cell_y - 1; /* the row's cell */
            int in = c1 >= ylo && c0 <= yhi;
            for (int i = 0; i < 256; i++) {
                const double *v = part + (size_t)y * 256 + (size_t)i;
                uint64_t b;
                memcpy(&b, v, sizeof b);
                if (in)
                    cr_assert_eq(memcmp(v, whole + (size_t)y * 256 + (size_t)i, sizeof(double)), 0,
                                 "%s %s chunk %d: y %d differs from the whole fill", dir, settings, k, pg->min_y + y);
                else
                    cr_assert_eq(b, 0xa5a5a5a5a5a5a5a5ull, "%s %s chunk %d: y %d written", dir, settings, k, pg->min_y + y);
            }
            written += in;
        }
    }
    cr_assert_gt(written, 0);
    free(whole), free(part);
    fill121_free(f);
    eval64_free(&c);
    world_close(w, pg, pk);
}

Test(mc121, staged_rows_equal_whole_fill)
{
    char pack[4096];
    rows_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "router:vein_toggle", -60, 50);
    rows_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "router:final_density", 3, 3);
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    rows_equal(pack, "minecraft:overworld", "router:vein_toggle", -60, 50);
    rows_equal(pack, "minecraft:overworld", "router:final_density", -1000, -64);
}

/* bound121 (fill121.c's corner columns take a cell's corner column alone where an interpolated input is
 * bounded): every node's value at points of several seeds, far ones too, is within its bound; vanilla's
 * interpolated inputs are bounded (else the corner columns would never apply) */
static long bounds_hold(const char *dir, const char *settings, int64_t seed, int want_interp)
{
    cf_pack *pk;
    cf_program *pg;
    cf_world *w = world_open(dir, settings, "router:final_density", seed, &pk, &pg);
    double *b = malloc(sizeof(double) * (size_t)pg->nnodes);
    cr_assert(b);
    bound121(w->tab, pg, b);
    ev64_ctx c;
    cr_assert_eq(eval64_init(&c, w), 0);
    long checked = 0;
    uint64_t r = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
    for (int k = 0; k < 60; k++) {
        double p[3];
        for (int a = 0; a < 3; a++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int32_t v = (int32_t)(r >> 33);
            p[a] = a == 1 ? (double)(pg->min_y + (int32_t)((r >> 40) % (uint64_t)pg->height)) : k < 20 ? (double)(v % 4096)
                                                                                                       : (double)(v % 30000000);
        }
        for (int i = 0; i < pg->nnodes; i++) {
            if (!(b[i] < INFINITY) || pg->nodes[i].kind == NK_M_FIND_TOP_SURFACE) continue;
            double v = eval_f64(&c, i, p[0], p[1], p[2]);
            cr_assert(fabs(v) <= b[i], "%s %s seed %lld node %d (kind %d) at %g %g %g: %.17g beyond its bound %g", dir, settings,
                      (long long)seed, i, pg->nodes[i].kind, p[0], p[1], p[2], v, b[i]);
            checked++;
        }
    }
    int bounded = 0;
    for (int i = 0; i < pg->nnodes; i++)
        if (pg->nodes[i].kind == NK_M_INTERPOLATED) bounded += b[pg->nodes[i].in[0]] < 1e300;
    if (want_interp) cr_assert_gt(bounded, 0, "%s %s: no interpolated input bounded", dir, settings);
    free(b);
    eval64_free(&c);
    world_close(w, pg, pk);
    return checked;
}

Test(mc121, node_bounds_hold, .timeout = 600)
{
    char pack[4096];
    long n = bounds_hold(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", 3, 0);
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    n += bounds_hold(pack, "minecraft:overworld", 0, 1);
    n += bounds_hold(pack, "minecraft:overworld", -4172144997902289642LL, 1);
    n += bounds_hold(pack, "minecraft:end", 7, 0); /* end_islands: NaN far out, no bound */
    n += bounds_hold(pack, "minecraft:nether", -7, 1);
    cr_log_info("node bounds: %ld values within their bounds", n);
}

/* the staged fill's branch-free min and max choose what cf21_min / cf21_max choose (NaN, signed zeros) */
Test(mc121, staged_min_max_equal_kernel)
{
    cr_assert_eq(fill121_check_minmax(), 0);
}

Test(mc121, staged_fill_equals_block_path, .timeout = 600)
{
    char pack[4096], p262[4096];
    long n = 0;
    staged_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "router:final_density", 2, &n);
    staged_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "router:vein_toggle", 1, &n);
    staged_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "router:temperature", 1, &n);
    staged_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:legacy", "router:final_density", 1, &n);
    if (!have_121(pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    static const char *dims[] = {"minecraft:overworld", "minecraft:amplified", "minecraft:large_biomes", "minecraft:caves",
                                 "minecraft:floating_islands", "minecraft:nether", "minecraft:end"};
    for (int i = 0; i < 7; i++) staged_equal(pack, dims[i], "router:final_density", i == 0 ? 2 : 1, &n);
    staged_equal(pack, "minecraft:overworld", "router:vein_toggle", 1, &n);
    staged_equal(pack, "minecraft:overworld", "router:depth", 1, &n);
    staged_equal(pack, "minecraft:overworld", "router:vein_ridged", 1, &n);
    shared_need("vanilla/26.2", p262, sizeof p262);
    staged_equal(p262, "minecraft:overworld", "router:final_density", 1, &n);
    staged_equal(p262, "minecraft:end", "router:final_density", 1, &n);
    /* the portable corner octaves (the AVX-512 ones above where the CPU has them) */
    setenv("CF_NO_AVX512", "1", 1);
    staged_equal(pack, "minecraft:overworld", "router:final_density", 1, &n);
    staged_equal(pack, "minecraft:end", "router:final_density", 1, &n);
    staged_equal(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "router:final_density", 1, &n);
    unsetenv("CF_NO_AVX512");
    cr_log_info("staged fill: %ld values, all bit-identical to the block path", n);
}

/* issue 32 item 7: a 1.18-1.21 noise took at most 64 amplitudes, a limit the game's codec
 * (NormalNoise.NoiseParameters: Codec.DOUBLE.listOf()) does not have. t:wide of the test pack has 65
 * (firstOctave -60, the first 50 zero): its values are checked against the legacy oracle with every other function of
 * tests/golden/legacy-pack-df.txt (test_pack_points_equal_legacy_oracle); here its chunk fills on the
 * device equal the CPU's, and its octaves are bounded by --max-memory, not by a table. */
Test(mc121, a_noise_of_65_amplitudes)
{
    char *text = slurp(CF_SOURCE_DIR "/tests/packs/mc121/data/t/worldgen/noise/wide.json");
    cJSON *j = cJSON_Parse(text);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "amplitudes")), 65);
    cJSON_Delete(j);
    free(text);
    cf_pack *pk;
    cf_program *pg;
    cf_world *w = world_open(CF_SOURCE_DIR "/tests/packs/mc121", "t:s", "t:wide", 0, &pk, &pg);
    cf_world_free(w);
    /* 65 amplitudes, the first 50 of them 0 (so that the 65th counts in the sum's bits), 12 others
     * not 0: 24 octaves; a memory limit of 17 octaves (576 bytes each) refuses it with one line */
    char out[4096] = "", err[4096] = "";
    char args[1024];
    snprintf(args, sizeof args, "sample --pack '%s' --settings t:s --seed 0 --function t:wide --at 0,0,0 --max-memory 10000",
             CF_SOURCE_DIR "/tests/packs/mc121");
    cr_expect_neq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "accepted: %s", out);
    cr_expect(strstr(err, "more than 17 octaves") && strstr(err, "--max-memory") && strchr(err, '\n') == strrchr(err, '\n'), "%s", err);
    cf_error e = {0};
    char *list = cf_devices_list(&e);
    int fp64 = list && strstr(list, "fp64 yes");
    free(list);
    if (!fp64) {
        cf_program_free(pg), cf_pack_free(pk);
        cr_skip_test("no OpenCL device with fp64");
    }
    const int64_t seeds[2] = {0, -4172144997902289642LL};
    const int32_t chunks[4] = {0, 0, -5, 3};
    cr_expect_eq(device_diff(pg, seeds, 2, chunks, 2, NULL, NULL), 0, "65 amplitudes: the device differs from the CPU");
    cf_program_free(pg);
    cf_pack_free(pk);
}
