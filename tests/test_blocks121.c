/* test_blocks121.c - the 1.18-1.21 noise stage (host/cpu/aquifer121.c: the aquifer in
 * double, OreVeinifier; kernels/cf_aquifer.h): every block of the real vanilla 26.2
 * noise-stage dumps (../shared/vanilla-dumps/26.2, read at test time), the veins
 * oracle's ore veins on every block with density > 0 (tests/golden/veins121.txt),
 * 26.2's interval_select, the palette and the device's refusal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include <criterion/criterion.h>
#include <cjson/cJSON.h>

#include "chunkfill.h"
#include "testutil.h"

/* a block state without its properties: "minecraft:water[level=0]" -> "minecraft:water" */
static void strip(const char *s, char *out, size_t n)
{
    snprintf(out, n, "%s", s);
    char *b = strchr(out, '[');
    if (b) *b = 0;
}

static cf_program *compile_blocks(cf_pack *pk, const char *settings)
{
    cf_program *pg = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, settings, &err), CF_OK, "%s: %s", settings, err.message);
    return pg;
}

static cf_pack *open_dir(const char *dir)
{
    cf_pack *pk = NULL;
    cf_error err = {0};
    const char *paths[1] = {dir};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    return pk;
}

/* ---------------------------------------------------------------- real vanilla 26.2 */

/* one dump against chunkfill's fill --blocks; returns the differing blocks, counts vein blocks */
static size_t check_dump(cf_pack *pk, const char *file, size_t *blocks, size_t *veins)
{
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s'", file);
    char *text = slurp_cmd(cmd);
    cr_assert_not_null(text, "cannot read %s", file);
    cJSON *d = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(d, "%s: not JSON", file);
    const cJSON *meta = cJSON_GetObjectItem(d, "meta"), *pal = cJSON_GetObjectItem(d, "palette"), *st = cJSON_GetObjectItem(d, "states");
    const cJSON *chunk = cJSON_GetObjectItem(meta, "chunk");
    const char *settings = cJSON_GetObjectItem(meta, "settings")->valuestring;
    int64_t seed = (int64_t)cJSON_GetObjectItem(meta, "seed")->valuedouble;
    int32_t c[2] = {(int32_t)cJSON_GetObjectItem(chunk, "x")->valueint, (int32_t)cJSON_GetObjectItem(chunk, "z")->valueint};
    cf_program *pg = compile_blocks(pk, settings);
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    cr_assert_eq(min_y, cJSON_GetObjectItem(meta, "min_y")->valueint, "%s", file);
    size_t n = (size_t)height * 256;
    cr_assert_eq((size_t)cJSON_GetArraySize(st), n, "%s: %d states", file, cJSON_GetArraySize(st));
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    uint8_t *out = malloc(n);
    cr_assert_eq(cf_fill_blocks(w, 1, c, out, 1, &err), CF_OK, "%s", err.message);
    const char *names[CF_PALETTE_MAX];
    int np = cf_block_palette(pg, names);
    int ndp = cJSON_GetArraySize(pal);
    char (*dp)[128] = calloc((size_t)ndp, 128);
    for (int i = 0; i < ndp; i++) strip(cJSON_GetArrayItem(pal, i)->valuestring, dp[i], 128);
    size_t bad = 0, i = 0;
    for (const cJSON *e = st->child; e; e = e->next, i++) {
        cr_assert(out[i] < np, "%s: index %u beyond the palette", file, out[i]);
        const char *want = dp[e->valueint], *got = names[out[i]];
        if (strcmp(want, got) != 0) {
            if (bad < 5)
                cr_log_error("%s: block (%zu, %d, %zu) of chunk (%d, %d): chunkfill %s, vanilla %s", file, i % 16,
                             min_y + (int)(i / 256), (i / 16) % 16, c[0], c[1], got, want);
            bad++;
        }
        if (vein_block(names[out[i]])) (*veins)++;
    }
    *blocks += n;
    free(dp), free(out);
    cf_world_free(w);
    cf_program_free(pg);
    cJSON_Delete(d);
    return bad;
}

/* every block of every noise-stage chunk (overworld seed 0: 4 chunks, seed 13579: an iron vein; nether and end: 2 each): equal */
Test(blocks121, vanilla_26_2_noise_stage_dumps)
{
    char dir[4096], pack[4096];
    if (!shared_have("vanilla-dumps/26.2", dir, sizeof dir) || !shared_have("vanilla/26.2/data", pack, sizeof pack))
        cr_skip_test("no %s/vanilla-dumps/26.2 or vanilla/26.2", shared_dir());
    shared_have("vanilla/26.2", pack, sizeof pack);
    cf_pack *pk = open_dir(pack);
    DIR *dd = opendir(dir);
    cr_assert_not_null(dd);
    size_t files = 0, blocks = 0, veins = 0, bad = 0;
    for (struct dirent *e; (e = readdir(dd));) {
        size_t l = strlen(e->d_name);
        if (l < 14 || strcmp(e->d_name + l - 14, "_noise.json.gz") != 0) continue;
        char f[8300];
        snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
        size_t b = check_dump(pk, f, &blocks, &veins);
        cr_expect_eq(b, 0, "%s: %zu blocks differ", e->d_name, b);
        bad += b, files++;
    }
    closedir(dd);
    cf_pack_free(pk);
    cr_assert_eq(files, 9, "found %zu noise-stage dumps", files);
    cr_assert_eq(bad, 0);
    cr_assert_eq(veins, 271, "vein blocks: %zu (the dumps hold 7 + 264)", veins);
    cr_log_info("vanilla 26.2: %zu chunks, %zu blocks (%zu vein blocks), all equal", files, blocks, veins);
}

/* ---------------------------------------------------------------- the veins oracle */

static const char kinds[] = "gcCtiI";
static const char *const kind_names[6] = {"minecraft:granite",  "minecraft:copper_ore",         "minecraft:raw_copper_block",
                                          "minecraft:tuff",     "minecraft:deepslate_iron_ore", "minecraft:raw_iron_block"};

Test(blocks121, veins_oracle_on_every_positive_block)
{
    char pack[4096];
    if (!shared_have("vanilla/1.21.11/data", pack, sizeof pack)) cr_skip_test("no %s/vanilla/1.21.11", shared_dir());
    shared_have("vanilla/1.21.11", pack, sizeof pack);
    cf_pack *pk = open_dir(pack);
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/veins121.txt", "r");
    cr_assert_not_null(f);
    char line[8192];
    int chunks = 0;
    size_t compared = 0, vein_total = 0, kinds_seen[6] = {0};
    char *want = NULL;
    size_t n = 0;
    char settings[128] = "";
    long long seed = 0;
    int32_t c[2] = {0, 0};
    size_t positive = 0, nveins = 0, got_veins = 0;
    for (int more = 1; more;) {
        more = fgets(line, sizeof line, f) != NULL;
        if (line[0] == '#') continue;
        if (!more || line[0] == '@') {
            if (want) { /* the chunk just read: fill and compare */
                cf_program *pg = compile_blocks(pk, settings);
                cf_world *w;
                cf_error err = {0};
                cr_assert_eq(cf_world_new(&w, pg, (int64_t)seed, &err), CF_OK, "%s", err.message);
                uint8_t *out = malloc(n);
                double *dens = malloc(n * sizeof(double));
                cr_assert_eq(cf_fill_blocks(w, 1, c, out, 1, &err), CF_OK, "%s", err.message);
                cr_assert_eq(cf_fill_chunks(w, 0, 1, c, dens, 1, &err), CF_OK, "%s", err.message);
                const char *names[CF_PALETTE_MAX];
                cr_assert_geq(cf_block_palette(pg, names), 10); /* the noise stage: 4 kinds and 6 veins; then the surface rule's blocks */
                size_t pos = 0, bad = 0;
                for (size_t i = 0; i < n; i++) {
                    if (!(dens[i] > 0.0)) continue;
                    pos++;
                    const char *exp = want[i] ? kind_names[strchr(kinds, want[i]) - kinds] : "minecraft:stone";
                    if (strcmp(names[out[i]], exp) != 0) {
                        if (bad < 5) cr_log_error("%s seed %lld chunk (%d, %d) index %zu: chunkfill %s, oracle %s", settings, seed, c[0], c[1], i, names[out[i]], exp);
                        bad++;
                    }
                    if (want[i]) kinds_seen[strchr(kinds, want[i]) - kinds]++;
                }
                cr_expect_eq(pos, positive, "%s seed %lld chunk (%d, %d): %zu blocks with density > 0, the oracle %zu", settings,
                             seed, c[0], c[1], pos, positive);
                cr_expect_eq(bad, 0, "%s seed %lld chunk (%d, %d): %zu blocks differ from the veins oracle", settings, seed, c[0],
                             c[1], bad);
                cr_assert_eq(got_veins, nveins, "golden file: %zu of %zu vein entries", got_veins, nveins);
                compared += pos, vein_total += nveins, chunks++;
                free(out), free(dens), free(want);
                want = NULL;
                cf_world_free(w);
                cf_program_free(pg);
            }
            if (!more) break;
            int cx, cz;
            cr_assert_eq(sscanf(line, "@ settings=%127s seed=%lld chunk=%d,%d positive=%zu veins=%zu", settings, &seed, &cx, &cz,
                                &positive, &nveins),
                         6, "bad line %s", line);
            c[0] = cx, c[1] = cz;
            n = 384 * 256;
            want = calloc(n, 1);
            got_veins = 0;
            continue;
        }
        char *save = NULL;
        for (char *t = strtok_r(line, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
            size_t idx;
            char k;
            cr_assert_eq(sscanf(t, "%zu:%c", &idx, &k), 2, "bad entry %s", t);
            cr_assert(idx < n && strchr(kinds, k), "bad entry %s", t);
            want[idx] = k;
            got_veins++;
        }
    }
    fclose(f);
    cf_pack_free(pk);
    cr_assert_eq(chunks, 11, "found %d chunks", chunks);
    for (int k = 0; k < 6; k++) cr_assert_gt(kinds_seen[k], 0, "no %s in the golden chunks", kind_names[k]);
    cr_log_info("veins oracle: %d chunks, %zu blocks with density > 0, %zu vein blocks, all equal", chunks, compared, vein_total);
}

/* ---------------------------------------------------------------- 26.2's interval_select, settings */

static cf_status compile_mem(const char *settings, const char *df, cf_program **out, cf_error *err, int blocks)
{
    const char *noise = "{\"firstOctave\": -3, \"amplitudes\": [1.0, 0.5]}";
    cf_pack *pk = NULL;
    cf_status st = mem_pack_sfn(&pk, settings, df, noise, err);
    if (st != CF_OK) return st;
    const char *fn[1] = {"t:f"};
    *out = NULL;
    st = blocks ? cf_program_compile_blocks(out, pk, "t:s", err) : cf_program_compile(out, pk, "t:s", fn, 1, err);
    cf_pack_free(pk);
    return st;
}

static const char *SETTINGS = "{\"sea_level\": 10, \"noise\": {\"min_y\": 0, \"height\": 64, \"size_horizontal\": 1, \"size_vertical\": 2},"
                              " \"noise_router\": {\"final_density\": \"t:f\"}}";

/* functions[first i with x < thresholds[i]], else (NaN too) the last; thresholds are doubles */
Test(blocks121, interval_select_picks_by_thresholds)
{
    cf_program *pg;
    cf_error err = {0};
    const char *df = "{\"type\": \"minecraft:interval_select\", \"input\": {\"type\": \"minecraft:y_clamped_gradient\","
                     " \"from_y\": 0, \"to_y\": 100, \"from_value\": 0, \"to_value\": 1},"
                     " \"thresholds\": [0.1, 0.30000000000000004, 0.5], \"functions\": [1, 2, 3, 4]}";
    cr_assert_eq(compile_mem(SETTINGS, df, &pg, &err, 0), CF_OK, "%s", err.message);
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, 1, &err), CF_OK, "%s", err.message);
    /* y = 10 -> 0.1: not < 0.1 -> 2; y = 30 -> 0.3 < 0.30000000000000004 -> 2; y = 31 -> 3; y = 50 -> 4; y = 9 -> 1 */
    int32_t xyz[15] = {0, 9, 0, 0, 10, 0, 0, 30, 0, 0, 31, 0, 0, 50, 0};
    double out[5], want[5] = {1, 2, 2, 3, 4};
    cr_assert_eq(cf_sample(w, 0, 5, xyz, out, &err), CF_OK, "%s", err.message);
    for (int i = 0; i < 5; i++) cr_expect_eq(out[i], want[i], "y %d: %g, want %g", xyz[3 * i + 1], out[i], want[i]);
    cf_world_free(w);
    cf_program_free(pg);
    /* NaN input (0 * inf would do; here the invert of 0 is inf and inf - inf NaN): the last function */
    df = "{\"type\": \"minecraft:interval_select\", \"input\": {\"type\": \"minecraft:add\", \"argument1\": {\"type\": \"minecraft:invert\","
         " \"argument\": 0}, \"argument2\": {\"type\": \"minecraft:mul\", \"argument1\": -1, \"argument2\": {\"type\": \"minecraft:invert\","
         " \"argument\": 0}}}, \"thresholds\": [0.5], \"functions\": [1, 2]}";
    cr_assert_eq(compile_mem(SETTINGS, df, &pg, &err, 0), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_sample(w, 0, 1, xyz, out, &err), CF_OK, "%s", err.message);
    cr_expect_eq(out[0], 2.0, "NaN input: %g", out[0]);
    cf_world_free(w);
    cf_program_free(pg);
}

static void expect_error(const char *settings, const char *df, int blocks, const char *want)
{
    cf_program *pg = NULL;
    cf_error err = {0};
    cr_assert_neq(compile_mem(settings, df, &pg, &err, blocks), CF_OK, "no error for %s", df);
    cr_assert_null(strchr(err.message, '\n'), "one line: %s", err.message);
    cr_assert_not_null(strstr(err.message, want), "expected \"%s\" in: %s", want, err.message);
}

Test(blocks121, bad_input_is_one_located_line)
{
    expect_error(SETTINGS, "{\"type\": \"minecraft:interval_select\", \"input\": 0, \"thresholds\": [0.5], \"functions\": [1]}", 0,
                 "f.json#/functions: 1 functions for 1 thresholds");
    expect_error(SETTINGS, "{\"type\": \"minecraft:interval_select\", \"input\": 0, \"thresholds\": [\"a\"], \"functions\": [1, 2]}", 0,
                 "f.json#/thresholds/0: expected a number");
    expect_error(SETTINGS, "{\"type\": \"minecraft:interval_select\", \"input\": 0, \"functions\": [1]}", 0,
                 "f.json#: missing field \"thresholds\"");
    expect_error(SETTINGS, "{\"type\": \"minecraft:interval_select\", \"input\": 0, \"thresholds\": 1, \"functions\": [1, 2]}", 0,
                 "f.json#/thresholds: expected an array");
    const char *s1 = "{\"ore_veins_enabled\": 1, \"noise\": {\"min_y\": 0, \"height\": 64, \"size_horizontal\": 1, \"size_vertical\": 2},"
                     " \"noise_router\": {\"final_density\": 0}}";
    expect_error(s1, "0", 1, "s.json#/ore_veins_enabled: expected true or false");
    const char *s2 = "{\"default_block\": {\"Properties\": {}}, \"noise\": {\"min_y\": 0, \"height\": 64, \"size_horizontal\": 1,"
                     " \"size_vertical\": 2}, \"noise_router\": {\"final_density\": 0}}";
    expect_error(s2, "0", 1, "s.json#/default_block: missing field \"Name\"");
    const char *s3 = "{\"default_fluid\": {\"Name\": 5}, \"noise\": {\"min_y\": 0, \"height\": 64, \"size_horizontal\": 1,"
                     " \"size_vertical\": 2}, \"noise_router\": {\"final_density\": 0}}";
    expect_error(s3, "0", 1, "s.json#/default_fluid/Name: expected a block id");
}

/* settings without aquifers or veins and a router without the optional fields: the
 * blocks are the default block where the density is > 0, else the global fluid */
Test(blocks121, minimal_router_and_palette)
{
    const char *s = "{\"sea_level\": 40, \"default_block\": {\"Name\": \"minecraft:deepslate\", \"Properties\": {\"axis\": \"y\"}},"
                    " \"noise\": {\"min_y\": 0, \"height\": 64, \"size_horizontal\": 1, \"size_vertical\": 2},"
                    " \"noise_router\": {\"final_density\": {\"type\": \"minecraft:y_clamped_gradient\", \"from_y\": 0, \"to_y\": 64,"
                    " \"from_value\": 1, \"to_value\": -1}}}";
    cf_program *pg;
    cf_error err = {0};
    cr_assert_eq(compile_mem(s, "0", &pg, &err, 1), CF_OK, "%s", err.message);
    const char *names[CF_PALETTE_MAX];
    cr_assert_eq(cf_block_palette(pg, names), 4);
    cr_assert_str_eq(names[0], "minecraft:deepslate");
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, 3, &err), CF_OK, "%s", err.message);
    uint8_t out[64 * 256];
    int32_t c[2] = {-2, 5};
    cr_assert_eq(cf_fill_blocks(w, 1, c, out, 1, &err), CF_OK, "%s", err.message);
    /* density 1 - y/32 (> 0 below y = 32); water below the sea level 40, air above */
    for (int y = 0; y < 64; y++)
        for (int i = 0; i < 256; i++) {
            int want = y < 32 ? 0 : y < 40 ? 2 : 1;
            cr_assert_eq(out[y * 256 + i], want, "y %d: %d, want %d", y, out[y * 256 + i], want);
        }
    cf_world_free(w);
    cf_program_free(pg);
}

/* ---------------------------------------------------------------- OpenCL equals the CPU */

/* a small 1.21 pack with every part of the noise stage: aquifers (water, lava below -54,
 * barriers, the deep dark exclusion through a flat-cached erosion), ore veins of both kinds
 * (toggle and ridged interpolated, gap per block), find_top_surface as the surface level */
static const char *DEV_SETTINGS =
    "{\"sea_level\": 20, \"aquifers_enabled\": true, \"ore_veins_enabled\": true,"
    " \"default_block\": {\"Name\": \"minecraft:stone\"}, \"default_fluid\": {\"Name\": \"minecraft:water\", \"Properties\": {\"level\": \"0\"}},"
    " \"noise\": {\"min_y\": -64, \"height\": 128, \"size_horizontal\": 1, \"size_vertical\": 2}, \"noise_router\": {"
    " \"final_density\": {\"type\": \"minecraft:interpolated\", \"argument\": \"t:f\"},"
    " \"barrier\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 0.5},"
    " \"fluid_level_floodedness\": {\"type\": \"minecraft:noise\", \"noise\": \"t:m\", \"xz_scale\": 1, \"y_scale\": 0.67},"
    " \"fluid_level_spread\": {\"type\": \"minecraft:noise\", \"noise\": \"t:m\", \"xz_scale\": 1, \"y_scale\": 0.7142857142857143},"
    " \"lava\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1},"
    " \"erosion\": {\"type\": \"minecraft:flat_cache\", \"argument\": {\"type\": \"minecraft:noise\", \"noise\": \"t:m\", \"xz_scale\": 0.5, \"y_scale\": 0}},"
    " \"depth\": {\"type\": \"minecraft:y_clamped_gradient\", \"from_y\": -64, \"to_y\": 64, \"from_value\": 1.5, \"to_value\": -1.5},"
    " \"preliminary_surface_level\": {\"type\": \"minecraft:find_top_surface\", \"density\": \"t:f\", \"upper_bound\": 64,"
    " \"lower_bound\": -64, \"cell_height\": 8},"
    " \"vein_toggle\": {\"type\": \"minecraft:interpolated\", \"argument\": {\"type\": \"minecraft:range_choice\", \"input\":"
    " {\"type\": \"minecraft:y_clamped_gradient\", \"from_y\": -4064, \"to_y\": 4064, \"from_value\": -4064, \"to_value\": 4064},"
    " \"min_inclusive\": -60, \"max_exclusive\": 51, \"when_in_range\": {\"type\": \"minecraft:mul\", \"argument1\": 2.5,"
    " \"argument2\": {\"type\": \"minecraft:noise\", \"noise\": \"t:m\", \"xz_scale\": 1.5, \"y_scale\": 1.5}}, \"when_out_of_range\": 0}},"
    " \"vein_ridged\": {\"type\": \"minecraft:add\", \"argument1\": -0.07999999821186066, \"argument2\": {\"type\": \"minecraft:abs\","
    " \"argument\": {\"type\": \"minecraft:interpolated\", \"argument\": {\"type\": \"minecraft:mul\", \"argument1\": 0.2,"
    " \"argument2\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 4, \"y_scale\": 4}}}}},"
    " \"vein_gap\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1}}}";
static const char *DEV_F =
    "{\"type\": \"minecraft:add\", \"argument1\": {\"type\": \"minecraft:y_clamped_gradient\", \"from_y\": -64, \"to_y\": 64,"
    " \"from_value\": 0.4, \"to_value\": -1.2}, \"argument2\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 2,"
    " \"y_scale\": 3}}";

static cf_program *dev_program(void)
{
    const char *n = "{\"firstOctave\": -5, \"amplitudes\": [1.0, 1.0, 0.5]}", *m = "{\"firstOctave\": -4, \"amplitudes\": [1.0, 0.5]}";
    cf_memfile files[4] = {
        {"data/t/worldgen/noise_settings/s.json", DEV_SETTINGS, strlen(DEV_SETTINGS)},
        {"data/t/worldgen/density_function/f.json", DEV_F, strlen(DEV_F)},
        {"data/t/worldgen/noise/n.json", n, strlen(n)},
        {"data/t/worldgen/noise/m.json", m, strlen(m)},
    };
    cf_pack *pk = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 4, NULL, &err), CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "t:s", &err), CF_OK, "%s", err.message);
    cf_pack_free(pk);
    return pg;
}

/* the generated OpenCL (PoCL here) fills the same blocks as the CPU, every kind of the palette met */
Test(blocks121, opencl_equals_cpu)
{
    cf_program *pg = dev_program();
    cf_error err = {0};
    cf_device *d = NULL;
    if (cf_device_open(&d, "opencl", pg, 0, 8, &err) != CF_OK) {
        cf_program_free(pg);
        cr_skip_test("no OpenCL device: %s", err.message);
    }
    const int32_t c[16] = {0, 0, 1, 0, -3, 2, 5, -7, 40000, -70000, -1874999, 1874999, 123, 456, -9, -9};
    enum { N = 8, PER = 128 * 256 };
    size_t counts[CF_PALETTE_MAX] = {0}, bad = 0;
    const char *names[CF_PALETTE_MAX];
    cr_assert_geq(cf_block_palette(pg, names), 10); /* the noise stage: 4 kinds and 6 veins; then the surface rule's blocks */
    uint8_t *a = malloc((size_t)N * PER), *b = malloc((size_t)N * PER);
    for (int64_t seed = 1; seed <= 2; seed++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_device_fill_blocks(d, w, N, c, a, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_blocks(w, N, c, b, 1, &err), CF_OK, "%s", err.message);
        for (size_t i = 0; i < (size_t)N * PER; i++) {
            if (a[i] != b[i] && bad++ < 5)
                cr_log_error("seed %lld chunk (%d, %d) index %zu: device %u, CPU %u", (long long)seed, c[2 * (i / PER)],
                             c[2 * (i / PER) + 1], i % PER, a[i], b[i]);
            counts[b[i]]++;
        }
        cf_world_free(w);
    }
    free(a), free(b);
    cf_device_free(d);
    cf_program_free(pg);
    cr_assert_eq(bad, 0, "%zu blocks differ", bad);
    for (int k = 0; k < 10; k++) /* no empty name between them: the default fluid is water */
        cr_expect_gt(counts[k], 0, "no %s in the chunks", names[k]);
    cr_expect(vein_block(names[4]) && vein_block(names[9]), "%s, %s", names[4], names[9]);
    cr_log_info("OpenCL == CPU: 16 chunks; stone %zu air %zu water %zu lava %zu copper %zu/%zu/%zu iron %zu/%zu/%zu", counts[0],
                counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7], counts[8], counts[9]);
}

/* one surface-stage dump's chunk: the device's surface stage against the CPU's */
static void surface_device_cpu(cf_pack *pk, cf_program *pg, cf_device *d, const char *id, const char *dir, const char *file,
                               size_t *bad, size_t *surf)
{
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s/%s'", dir, file);
    char *text = slurp_cmd(cmd);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(j, "%s", file);
    const cJSON *meta = cJSON_GetObjectItem(j, "meta"), *ch = cJSON_GetObjectItem(meta, "chunk");
    int32_t c[2] = {(int32_t)cJSON_GetObjectItem(ch, "x")->valueint, (int32_t)cJSON_GetObjectItem(ch, "z")->valueint};
    int64_t seed = (int64_t)cJSON_GetObjectItem(meta, "seed")->valuedouble;
    cJSON_Delete(j);
    cf_error err = {0};
    cf_world *w;
    cf_biomes *b = NULL;
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, id, NULL, seed, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t n = (size_t)height * 256, diff = 0;
    uint8_t *x = malloc(n), *y = malloc(n);
    cr_assert_eq(cf_device_fill_blocks_surface(d, w, b, 1, c, x, &err), CF_OK, "%s: %s", file, err.message);
    cr_assert_eq(cf_fill_blocks_surface(w, b, 1, c, y, 1, &err), CF_OK, "%s: %s", file, err.message);
    const char *names[CF_PALETTE_MAX];
    int first = first_rule_block(names, cf_block_palette(pg, names));
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i] && diff++ < 3)
            cr_log_error("%s: index %zu: device %u, CPU %u", file, i, x[i], y[i]);
        *surf += y[i] >= first;
    }
    cr_expect_eq(diff, 0, "%s: %zu blocks differ between the device and the CPU", file, diff);
    *bad += diff;
    free(x), free(y);
    cf_biomes_free(b);
    cf_world_free(w);
}

/* the device on real vanilla output: every noise-stage dump of the 26.2 data (one program
 * per settings), block for block; and the surface stage on the device equals the CPU's on the
 * chunk of every surface-stage dump (the CPU against vanilla: tests/test_surface121.c) */
Test(blocks121, opencl_vanilla_26_2_dumps)
{
    char dir[4096], pack[4096];
    if (!shared_have("vanilla-dumps/26.2", dir, sizeof dir) || !shared_have("vanilla/26.2/data", pack, sizeof pack))
        cr_skip_test("no %s/vanilla-dumps/26.2 or vanilla/26.2", shared_dir());
    shared_have("vanilla/26.2", pack, sizeof pack);
    cf_pack *pk = open_dir(pack);
    static const char *const settings[3] = {"overworld", "nether", "end"};
    size_t files = 0, bad = 0, veins = 0, sfiles = 0, sbad = 0, surf = 0;
    for (int s = 0; s < 3; s++) {
        char id[64];
        snprintf(id, sizeof id, "minecraft:%s", settings[s]);
        cf_program *pg = compile_blocks(pk, id);
        cf_error err = {0};
        cf_device *d = NULL;
        if (cf_device_open(&d, "opencl", pg, 0, 1, &err) != CF_OK) {
            cf_program_free(pg);
            cf_pack_free(pk);
            cr_skip_test("no OpenCL device: %s", err.message);
        }
        const char *names[CF_PALETTE_MAX];
        cf_block_palette(pg, names);
        DIR *dd = opendir(dir);
        cr_assert_not_null(dd);
        for (struct dirent *e; (e = readdir(dd));) {
            size_t l = strlen(e->d_name), sl = strlen(settings[s]);
            if (strncmp(e->d_name, settings[s], sl) != 0 || e->d_name[sl] != '_') continue;
            if (l > 16 && strcmp(e->d_name + l - 16, "_surface.json.gz") == 0) {
                sfiles++;
                surface_device_cpu(pk, pg, d, id, dir, e->d_name, &sbad, &surf);
                continue;
            }
            if (l < 14 || strcmp(e->d_name + l - 14, "_noise.json.gz") != 0) continue;
            char cmd[8400];
            snprintf(cmd, sizeof cmd, "gzip -dc '%s/%s'", dir, e->d_name);
            char *text = slurp_cmd(cmd);
            cJSON *j = cJSON_Parse(text);
            free(text);
            cr_assert_not_null(j, "%s", e->d_name);
            const cJSON *meta = cJSON_GetObjectItem(j, "meta"), *pal = cJSON_GetObjectItem(j, "palette"), *st = cJSON_GetObjectItem(j, "states");
            const cJSON *ch = cJSON_GetObjectItem(meta, "chunk");
            int32_t c[2] = {(int32_t)cJSON_GetObjectItem(ch, "x")->valueint, (int32_t)cJSON_GetObjectItem(ch, "z")->valueint};
            cf_world *w;
            cr_assert_eq(cf_world_new(&w, pg, (int64_t)cJSON_GetObjectItem(meta, "seed")->valuedouble, &err), CF_OK, "%s", err.message);
            size_t n = (size_t)cJSON_GetArraySize(st), i = 0, b = 0;
            uint8_t *a = malloc(n);
            cr_assert_eq(cf_device_fill_blocks(d, w, 1, c, a, &err), CF_OK, "%s", err.message);
            for (const cJSON *v = st->child; v; v = v->next, i++) {
                char want[128];
                strip(cJSON_GetArrayItem(pal, v->valueint)->valuestring, want, sizeof want);
                b += strcmp(want, names[a[i]]) != 0;
                veins += a[i] >= 5;
            }
            cr_expect_eq(b, 0, "%s: %zu blocks differ from vanilla on the device", e->d_name, b);
            bad += b, files++;
            free(a);
            cf_world_free(w);
            cJSON_Delete(j);
        }
        closedir(dd);
        cf_device_free(d);
        cf_program_free(pg);
    }
    cf_pack_free(pk);
    cr_assert_eq(files, 9);
    cr_assert_eq(bad, 0);
    cr_assert_eq(veins, 271);
    cr_assert_eq(sfiles, 9);
    cr_assert_eq(sbad, 0, "%zu surface-stage blocks differ between the device and the CPU", sbad);
    cr_assert_gt(surf, 9 * 3000, "surface blocks (palette index >= first_rule_block): %zu", surf);
}

/* amplified and large_biomes: the surface stage on the device equals the CPU's, a chunk each */
Test(blocks121, opencl_surface_amplified_large_biomes)
{
    char pack[4096];
    if (!shared_have("vanilla/26.2/data", pack, sizeof pack)) cr_skip_test("no %s/vanilla/26.2", shared_dir());
    shared_have("vanilla/26.2", pack, sizeof pack);
    cf_pack *pk = open_dir(pack);
    static const char *const settings[2] = {"minecraft:amplified", "minecraft:large_biomes"};
    static const int32_t c[2][2] = {{3, -2}, {-40, 17}};
    for (int s = 0; s < 2; s++) {
        cf_program *pg = compile_blocks(pk, settings[s]);
        cf_error err = {0};
        cf_device *d = NULL;
        cf_biomes *b = NULL;
        cr_assert(cf_program_surface_on_device(pg));
        if (cf_device_open(&d, "opencl", pg, 0, 1, &err) != CF_OK) {
            cf_program_free(pg);
            cf_pack_free(pk);
            cr_skip_test("no OpenCL device: %s", err.message);
        }
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_biomes_open(&b, pk, NULL, settings[s], NULL, 5, &err), CF_OK, "%s", err.message);
        int height;
        cf_program_settings(pg, NULL, &height, NULL);
        size_t n = (size_t)height * 256, diff = 0, surf = 0;
        uint8_t *x = malloc(n), *y = malloc(n);
        cr_assert_eq(cf_device_fill_blocks_surface(d, w, b, 1, c[s], x, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_blocks_surface(w, b, 1, c[s], y, 1, &err), CF_OK, "%s", err.message);
        const char *names[CF_PALETTE_MAX];
        int first = first_rule_block(names, cf_block_palette(pg, names));
        for (size_t i = 0; i < n; i++) diff += x[i] != y[i], surf += y[i] >= first;
        cr_expect_eq(diff, 0, "%s: %zu blocks differ between the device and the CPU", settings[s], diff);
        cr_expect_gt(surf, 3000, "%s: surface blocks %zu", settings[s], surf);
        free(x), free(y);
        cf_biomes_free(b);
        cf_world_free(w);
        cf_device_free(d);
        cf_program_free(pg);
    }
    cf_pack_free(pk);
}
