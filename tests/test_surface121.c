/* test_surface121.c - the 1.18-1.21 surface stage (host/frontend/rules.c, host/cpu/surface.c):
 *  - every block of the real vanilla 26.2 surface-stage dumps (../shared/vanilla-dumps/26.2,
 *    read at test time): bedrock and deepslate gradients, grass, sand, badlands bands and
 *    pillars, frozen-ocean icebergs, nether bedrock and nylium, the end;
 *  - property tests written from MATERIAL-RULES.md §4.3/§6.1 on rules of our own (a pack
 *    layered over the 26.2 data, one settings file with another surface_rule): each
 *    condition against what the test computes itself from the noise-stage blocks;
 *  - bad rules: one located line each; the CLI's --stage and --device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <cjson/cJSON.h>

#include "chunkfill.h"
#include "testutil.h"

/* fluids are written with their level in the dumps: "minecraft:water[level=0]" = "minecraft:water" */
static void norm(const char *s, char *out, size_t n)
{
    snprintf(out, n, "%s", s);
    char *b = strstr(out, "[level=0]");
    if (b && (strncmp(out, "minecraft:water[", 16) == 0 || strncmp(out, "minecraft:lava[", 15) == 0)) *b = 0;
}


/* ---------------------------------------------------------------- real vanilla 26.2 */
/* The differing blocks per dump, all explained (host/frontend/mc121/README.md, the surface stage): every one
 * lies where the biome lookup is a tie at the minimum fitness (vanilla's answer then depends on
 * the worker thread's RTree warm start, BIOMES.md). The nether chunk (7, 4) had 8 until 26.2's
 * nether climate noises (minecraft:nether/temperature, /vegetation) got the legacy nether stacks
 * (ir/seed.c noise121): its crimson forest. */
static const struct {
    const char *file;
    size_t differ;
} dumps[] = {
    {"overworld_seed0_x0_z0_surface", 0},      {"overworld_seed0_x7_z4_surface", 14}, {"overworld_seed0_x-595_z544_surface", 0},
    {"overworld_seed0_x-119_z183_surface", 0}, {"overworld_seed13579_x-6_z11_surface", 56}, {"nether_seed0_x0_z0_surface", 0},
    {"nether_seed0_x7_z4_surface", 0},         {"end_seed0_x0_z0_surface", 0},        {"end_seed0_x7_z4_surface", 0},
};

Test(surface121, vanilla_26_2_surface_stage_dumps)
{
    char dir[4096], packdir[4096];
    if (!shared_have("vanilla-dumps/26.2", dir, sizeof dir) || !shared_have("vanilla/26.2", packdir, sizeof packdir))
        cr_skip_test("no %s/vanilla-dumps/26.2 or vanilla/26.2", shared_dir());
    cf_pack *pk = NULL;
    cf_error err = {0};
    const char *paths[1] = {packdir};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    size_t total = 0, bedrock = 0, deepslate = 0, other = 0;
    for (size_t k = 0; k < sizeof dumps / sizeof dumps[0]; k++) {
        char cmd[8400];
        snprintf(cmd, sizeof cmd, "gzip -dc '%s/%s.json.gz'", dir, dumps[k].file);
        char *text = slurp_cmd(cmd);
        cr_assert_not_null(text, "cannot read %s", dumps[k].file);
        cJSON *d = cJSON_Parse(text);
        free(text);
        cr_assert_not_null(d);
        const cJSON *meta = cJSON_GetObjectItem(d, "meta"), *pal = cJSON_GetObjectItem(d, "palette"), *st = cJSON_GetObjectItem(d, "states");
        const cJSON *chunk = cJSON_GetObjectItem(meta, "chunk");
        const char *settings = cJSON_GetObjectItem(meta, "settings")->valuestring;
        int64_t seed = (int64_t)cJSON_GetObjectItem(meta, "seed")->valuedouble;
        int32_t cx = cJSON_GetObjectItem(chunk, "x")->valueint, cz = cJSON_GetObjectItem(chunk, "z")->valueint;
        const char *names[CF_PALETTE_MAX];
        int np, min_y, height;
        cf_program *pg = NULL;
        uint8_t *out = blocks_fill(pk, settings, seed, cx, cz, 1, &pg, names, &np, &min_y, &height);
        cr_assert_eq((size_t)cJSON_GetArraySize(st), (size_t)height * 256, "%s", dumps[k].file);
        size_t bad = 0, i = 0;
        for (const cJSON *e = st->child; e; e = e->next, i++) {
            cr_assert(out[i] < np);
            char want[160], got[160];
            norm(cJSON_GetArrayItem(pal, e->valueint)->valuestring, want, sizeof want);
            norm(names[out[i]], got, sizeof got);
            if (strcmp(want, got) != 0) {
                if (bad < 3 && dumps[k].differ == 0)
                    cr_log_error("%s: block (%zu, %d, %zu): chunkfill %s, vanilla %s", dumps[k].file, i % 16, min_y + (int)(i / 256),
                                 (i / 16) % 16, got, want);
                bad++;
            } else if (strcmp(got, "minecraft:bedrock") == 0) {
                bedrock++;
            } else if (strcmp(got, "minecraft:deepslate[axis=y]") == 0) {
                deepslate++;
            } else if (out[i] >= first_rule_block(names, np)) {
                other++;
            }
        }
        cr_expect_eq(bad, dumps[k].differ, "%s: %zu blocks differ (expected %zu)", dumps[k].file, bad, dumps[k].differ);
        total += (size_t)height * 256;
        free(out);
        cf_program_free(pg);
        cJSON_Delete(d);
    }
    /* the gradients and the biome surfaces were all reached (the README's table) */
    cr_expect_geq(bedrock, 5 * 750 + 2 * 1500, "bedrock blocks equal: %zu", bedrock);
    cr_expect_geq(deepslate, 5 * 16000, "deepslate blocks equal: %zu", deepslate);
    cr_expect_geq(other, 20000, "other surface blocks equal: %zu", other);
    cr_expect_eq(total, 5 * 98304 + 4 * 32768);
    cf_pack_free(pk);
}

/* ---------------------------------------------------------------- property tests */
/* a pack of one noise settings file "t:s": the 26.2 overworld with rule `rule` (JSON text),
 * layered over the 26.2 data, and nnoise noises t:n0, t:n1, ...; returns the pack */
static cf_pack *rule_pack_noises(const char *rule, int nnoise, char *tmpdir, size_t n, cf_error *err, cf_status *st)
{
    char base[4096], path[8192];
    *st = CF_OK;
    shared_need("vanilla/26.2/data/minecraft/worldgen/noise_settings/overworld.json", base, sizeof base);
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "cat '%s'", base);
    char *text = slurp_cmd(cmd);
    cr_assert_not_null(text);
    cJSON *s = cJSON_Parse(text);
    free(text);
    cJSON *r = cJSON_Parse(rule);
    cr_assert_not_null(r, "rule not JSON: %s", rule);
    cJSON_ReplaceItemInObject(s, "surface_rule", r);
    char *out = cJSON_Print(s);
    cJSON_Delete(s);
    snprintf(tmpdir, n, "/tmp/cf-surface-test-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    snprintf(path, sizeof path, "mkdir -p '%s/data/t/worldgen/noise_settings'", tmpdir);
    cr_assert_eq(system(path), 0);
    snprintf(path, sizeof path, "%s/data/t/worldgen/noise_settings/s.json", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(out, f);
    fclose(f);
    free(out);
    if (nnoise) {
        snprintf(path, sizeof path, "mkdir -p '%s/data/t/worldgen/noise'", tmpdir);
        cr_assert_eq(system(path), 0);
    }
    for (int k = 0; k < nnoise; k++) {
        snprintf(path, sizeof path, "%s/data/t/worldgen/noise/n%d.json", tmpdir, k);
        f = fopen(path, "w");
        cr_assert_not_null(f);
        fprintf(f, "{\"firstOctave\": -%d, \"amplitudes\": [1.0, 1.0]}\n", 4 + k % 5);
        fclose(f);
    }
    shared_need("vanilla/26.2", base, sizeof base);
    const char *paths[2] = {base, tmpdir};
    cf_pack *pk = NULL;
    *st = cf_pack_open(&pk, paths, 2, NULL, err);
    return pk;
}

static cf_pack *rule_pack(const char *rule, char *tmpdir, size_t n, cf_error *err, cf_status *st)
{
    return rule_pack_noises(rule, 0, tmpdir, n, err, st);
}

static void rm_tmp(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static int is_air(const char *n) { return strcmp(n, "minecraft:air") == 0; }
static int is_fluid(const char *n) { return strcmp(n, "minecraft:water") == 0 || strcmp(n, "minecraft:lava") == 0; }

typedef struct ctx {
    int min_y, height;
    const uint8_t *noise;
    const char **names;
} ctx;
static const char *at(const ctx *c, int x, int y, int z)
{
    if (y < c->min_y || y >= c->min_y + c->height) return "minecraft:air";
    return c->names[c->noise[((size_t)(y - c->min_y) * 16 + (size_t)z) * 16 + (size_t)x]];
}

/* the rule "condition(C, block diamond_block)" over the noise-stage chunk: the test's own
 * walk (§6.1) decides, per default block, whether C holds (want); returns how many blocks
 * the stage made diamond where want said otherwise, plus the reverse */
typedef int (*want_fn)(const ctx *c, int x, int y, int z, int stone_above, int stone_below, int water);
static size_t check_rule(const char *cond, want_fn want, size_t *hits)
{
    char rule[2048], tmp[256];
    snprintf(rule, sizeof rule,
             "{\"type\": \"minecraft:condition\", \"if_true\": %s, \"then_run\": {\"type\": \"minecraft:block\", "
             "\"result_state\": {\"Name\": \"minecraft:diamond_block\"}}}",
             cond);
    cf_error err = {0};
    cf_status st;
    cf_pack *pk = rule_pack(rule, tmp, sizeof tmp, &err, &st);
    if (!pk && st == CF_OK) cr_skip_test("no 26.2 data");
    cr_assert_eq(st, CF_OK, "%s", err.message);
    const char *nn[CF_PALETTE_MAX], *names[CF_PALETTE_MAX];
    int nnp, np, min_y, height;
    cf_program *pg0 = NULL, *pg = NULL;
    /* seed 0 chunk (7, 4): land, beach and sea; the two programs' palettes are the same */
    uint8_t *noise = blocks_fill(pk, "t:s", 0, 7, 4, 0, &pg0, nn, &nnp, &min_y, &height);
    uint8_t *surf = blocks_fill(pk, "t:s", 0, 7, 4, 1, &pg, names, &np, &min_y, &height);
    cr_assert_eq(nnp, np);
    cf_program_free(pg0);
    ctx c = {min_y, height, noise, names};
    size_t bad = 0;
    *hits = 0;
    for (int x = 0; x < 16; x++)
        for (int z = 0; z < 16; z++) {
            int top = min_y + height - 1;
            while (top >= min_y && is_air(at(&c, x, top, z))) top--;
            int stone_above = 0, water = INT32_MIN;
            for (int y = top + 1; y >= min_y; y--) {
                const char *b = at(&c, x, y, z);
                if (is_air(b)) {
                    stone_above = 0, water = INT32_MIN;
                    continue;
                }
                if (is_fluid(b)) {
                    if (water == INT32_MIN) water = y + 1;
                    continue;
                }
                stone_above++;
                int below = 0;
                while (!is_air(at(&c, x, y - below - 1, z)) && !is_fluid(at(&c, x, y - below - 1, z))) below++;
                size_t i = ((size_t)(y - min_y) * 16 + (size_t)z) * 16 + (size_t)x;
                if (strcmp(b, "minecraft:stone") != 0) continue;
                int w = want(&c, x, y, z, stone_above, below + 1, water);
                int got = surf[i] < np && strcmp(names[surf[i]], "minecraft:diamond_block") == 0;
                if (!got && strcmp(names[surf[i]], "minecraft:stone") != 0) bad++; /* nothing else may appear */
                if (w != got) bad++;
                *hits += (size_t)got;
            }
        }
    free(noise), free(surf);
    cf_program_free(pg);
    cf_pack_free(pk);
    rm_tmp(tmp);
    return bad;
}

static int w_floor0(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    (void)c, (void)x, (void)y, (void)z, (void)sb, (void)water;
    return sa <= 1;
}
static int w_floor3(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    (void)c, (void)x, (void)y, (void)z, (void)sb, (void)water;
    return sa <= 4;
}
static int w_ceiling(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    (void)c, (void)x, (void)y, (void)z, (void)sa, (void)water;
    return sb <= 1;
}
static int w_y40(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    (void)c, (void)x, (void)z, (void)sa, (void)sb, (void)water;
    return y >= 40;
}
static int w_y40s(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    (void)c, (void)x, (void)z, (void)sb, (void)water;
    return y + sa >= 40;
}
static int w_water(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    (void)c, (void)x, (void)z, (void)sa, (void)sb;
    return water == INT32_MIN || y >= water - 3;
}
static int w_not_water(const ctx *c, int x, int y, int z, int sa, int sb, int water)
{
    return !w_water(c, x, y, z, sa, sb, water);
}

Test(surface121, stone_depth_floor_and_ceiling)
{
    size_t hits;
    cr_expect_eq(check_rule("{\"type\": \"minecraft:stone_depth\", \"offset\": 0, \"surface_type\": \"floor\", "
                            "\"add_surface_depth\": false, \"secondary_depth_range\": 0}", w_floor0, &hits), 0);
    cr_expect_gt(hits, 200, "floor depth 1: %zu blocks", hits);
    cr_expect_eq(check_rule("{\"type\": \"minecraft:stone_depth\", \"offset\": 3, \"surface_type\": \"floor\", "
                            "\"add_surface_depth\": false, \"secondary_depth_range\": 0}", w_floor3, &hits), 0);
    cr_expect_gt(hits, 800);
    cr_expect_eq(check_rule("{\"type\": \"minecraft:stone_depth\", \"offset\": 0, \"surface_type\": \"ceiling\", "
                            "\"add_surface_depth\": false, \"secondary_depth_range\": 0}", w_ceiling, &hits), 0);
    cr_expect_gt(hits, 10);
}

Test(surface121, y_above_and_water)
{
    size_t hits;
    cr_expect_eq(check_rule("{\"type\": \"minecraft:y_above\", \"anchor\": {\"absolute\": 40}, \"surface_depth_multiplier\": 0, "
                            "\"add_stone_depth\": false}", w_y40, &hits), 0);
    cr_expect_gt(hits, 1000);
    cr_expect_eq(check_rule("{\"type\": \"minecraft:y_above\", \"anchor\": {\"absolute\": 40}, \"surface_depth_multiplier\": 0, "
                            "\"add_stone_depth\": true}", w_y40s, &hits), 0);
    cr_expect_eq(check_rule("{\"type\": \"minecraft:water\", \"offset\": -3, \"surface_depth_multiplier\": 0, "
                            "\"add_stone_depth\": false}", w_water, &hits), 0);
    cr_expect_eq(check_rule("{\"type\": \"minecraft:not\", \"invert\": {\"type\": \"minecraft:water\", \"offset\": -3, "
                            "\"surface_depth_multiplier\": 0, \"add_stone_depth\": false}}", w_not_water, &hits), 0);
    cr_expect_gt(hits, 10, "stone under water: %zu", hits);
}

/* ---------------------------------------------------------------- bad input */
static void expect_error(const char *rule, const char *fragment)
{
    char tmp[256];
    cf_error err = {0};
    cf_status st;
    cf_pack *pk = rule_pack(rule, tmp, sizeof tmp, &err, &st);
    if (!pk && st == CF_OK) cr_skip_test("no 26.2 data");
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    cr_expect_neq(cf_program_compile_blocks(&pg, pk, "t:s", &err), CF_OK, "accepted: %s", rule);
    cr_expect(strstr(err.message, fragment) != NULL, "error \"%s\" lacks \"%s\"", err.message, fragment);
    cr_expect(strchr(err.message, '\n') == NULL);
    cr_expect(strstr(err.message, "s.json#/surface_rule") != NULL, "not located: %s", err.message);
    cf_program_free(pg);
    cf_pack_free(pk);
    rm_tmp(tmp);
}

Test(surface121, bad_rules_one_located_line)
{
    expect_error("{\"type\": \"minecraft:nope\"}", "unknown rule type \"minecraft:nope\"");
    expect_error("{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:block\"}, \"then_run\": "
                 "{\"type\": \"minecraft:bandlands\"}}", "#/surface_rule/if_true/type: unknown condition type");
    expect_error("{\"type\": \"minecraft:block\", \"result_state\": {\"Name\": 7}}", "/result_state/Name: expected a block id");
    expect_error("{\"type\": \"minecraft:sequence\", \"sequence\": [{\"type\": \"minecraft:block\", \"result_state\": 3}]}",
                 "/sequence/0/result_state: expected a block id");
    expect_error("{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:biome\", \"biome_is\": [\"#minecraft:is_ocean\"]}, "
                 "\"then_run\": {\"type\": \"minecraft:bandlands\"}}", "biome tags are not allowed");
    expect_error("{\"type\": \"minecraft:condition\", \"if_true\": \"minecraft:on_floor\", \"then_run\": {\"type\": \"minecraft:bandlands\"}}",
                 "expected a condition (an object)");
    expect_error("{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:noise_threshold\", \"noise\": \"t:none\", "
                 "\"min_threshold\": 0, \"max_threshold\": 1}, \"then_run\": {\"type\": \"minecraft:bandlands\"}}", "noise \"t:none\"");
    expect_error("{\"type\": \"minecraft:sequence\", \"sequence\": []}", "non-empty list");
}

/* block outputs hold one byte per block (issue 32 item 7: the palette is the outputs' format, not a
 * table to grow): a rule naming 254 distinct block states is one located line at compile time (it was
 * "out of memory for a fill context" at fill time), and its blocks' list grows by doubling (it was
 * copied whole for each new block: quadratic memory) */
/* a sequence of nb block rules, each a new block t:bI (malloc'd) */
static char *blocks_rule(int nb)
{
    size_t cap = (size_t)nb * 96 + 64, k = 0;
    char *rule = malloc(cap);
    cr_assert_not_null(rule);
    k += (size_t)snprintf(rule + k, cap - k, "{\"type\": \"minecraft:sequence\", \"sequence\": [");
    for (int i = 0; i < nb; i++)
        k += (size_t)snprintf(rule + k, cap - k, "%s{\"type\": \"minecraft:block\", \"result_state\": {\"Name\": \"t:b%d\"}}", i ? ", " : "", i);
    snprintf(rule + k, cap - k, "]}");
    return rule;
}
Test(surface121, a_rule_of_254_blocks_is_one_located_line)
{
    char *rule = blocks_rule(254);
    expect_error(rule, "#/surface_rule/sequence/253/result_state: the rule names 254 distinct block states, more than the 253 it may");
    free(rule);
}

/* the block palette at its limit (255 slots: the protocol's count is one byte) and one past it:
 * 1.21's overworld with ore veins has 11 slots of its own (10 states and the default fluid's slot,
 * reserved where that fluid is water), snow_block and packed_ice come with a surface rule, so a
 * rule of 242 new blocks makes 255 slots (compiles; cf_block_palette lists its 254 states) and 243
 * make 256: one line naming the settings, the count and the limit (issue 32 item 7; the count was
 * missing) */
Test(surface121, a_block_palette_of_255_fits_and_256_is_one_line_with_the_count)
{
    for (int nb = 242; nb <= 243; nb++) {
        char *rule = blocks_rule(nb), tmp[256];
        cf_error err = {0};
        cf_status st;
        cf_pack *pk = rule_pack(rule, tmp, sizeof tmp, &err, &st);
        free(rule);
        if (!pk && st == CF_OK) cr_skip_test("no 26.2 data");
        cr_assert_eq(st, CF_OK, "%s", err.message);
        cf_program *pg = NULL;
        st = cf_program_compile_blocks(&pg, pk, "t:s", &err);
        if (nb == 242) {
            cr_assert_eq(st, CF_OK, "%s", err.message);
            const char *names[CF_PALETTE_MAX];
            int np = cf_block_palette(pg, names);
            cr_expect_eq(np, 254, "%d: %s %s %s %s %s %s", np, names[0], names[1], names[2], names[3], names[4], names[5]);
        } else {
            cr_expect_eq(st, CF_ERR_LIMIT, "%s", err.message);
            cr_expect(strstr(err.message, "t:s: the surface rule and the noise stage make 255 block states (256 palette slots with the "
                                          "noise stage's reserved ones), more than the 255 slots of a block palette") != NULL, "%s", err.message);
            cr_expect(strchr(err.message, '\n') == NULL);
        }
        cf_program_free(pg);
        cf_pack_free(pk);
        rm_tmp(tmp);
    }
}

/* a biome condition naming 100,000 distinct ids: rules.c found each in a linear search of those before
 * (17 CPU s; a million, half an hour); a hash now. Bounded in this process's CPU seconds */
Test(surface121, a_condition_of_100000_distinct_biomes_compiles_in_linear_time)
{
    size_t cap = 100000 * 16 + 1024, k = 0;
    char *rule = malloc(cap);
    cr_assert_not_null(rule);
    k += (size_t)snprintf(rule + k, cap - k, "{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:biome\", \"biome_is\": [");
    for (int i = 0; i < 100000; i++) k += (size_t)snprintf(rule + k, cap - k, "%s\"t:b%d\"", i ? ", " : "", i);
    snprintf(rule + k, cap - k, "]}, \"then_run\": {\"type\": \"minecraft:block\", \"result_state\": {\"Name\": \"minecraft:glass\"}}}");
    char tmp[256];
    cf_error err = {0};
    cf_status st;
    cf_pack *pk = rule_pack(rule, tmp, sizeof tmp, &err, &st);
    free(rule);
    if (!pk && st == CF_OK) cr_skip_test("no 26.2 data");
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    clock_t t0 = clock();
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "t:s", &err), CF_OK, "%s", err.message);
    double dt = (double)(clock() - t0) / CLOCKS_PER_SEC;
    cr_expect_lt(dt, 4.0, "%.2f CPU s", dt);
    cf_program_free(pg);
    cf_pack_free(pk);
    rm_tmp(tmp);
}

/* Terralith over 1.21.11 reads 65 noises in its surface rule, and chunkfill refused more than 64 (issue
 * 32 item 7; the tables are now sized from the rule). A rule that reads 65 noises: 64 always-true
 * noise_threshold conditions (t:n0..t:n63, thresholds +-100 around values within +-2), nested, around
 * the one that decides, t:n64 > 0 -> diamond_block. It must give the blocks of that last condition
 * alone (a rule of one noise), on the CPU and on the device. */
Test(surface121, a_rule_of_65_noises_equals_its_deciding_noise_alone)
{
    const char *decide = "{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:noise_threshold\", \"noise\": "
                         "\"t:n64\", \"min_threshold\": 0.0, \"max_threshold\": 100.0}, \"then_run\": {\"type\": \"minecraft:block\", "
                         "\"result_state\": {\"Name\": \"minecraft:diamond_block\"}}}";
    size_t cap = 64 * 256 + strlen(decide) + 64;
    char *big = malloc(cap);
    cr_assert_not_null(big);
    size_t k = 0;
    for (int i = 0; i < 64; i++)
        k += (size_t)snprintf(big + k, cap - k, "{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:noise_threshold\", "
                                                "\"noise\": \"t:n%d\", \"min_threshold\": -100.0, \"max_threshold\": 100.0}, \"then_run\": ", i);
    k += (size_t)snprintf(big + k, cap - k, "%s", decide);
    for (int i = 0; i < 64; i++) big[k++] = '}';
    big[k] = 0;
    const char *rules[2] = {big, decide};
    uint8_t *out[2];
    const char *names[2][CF_PALETTE_MAX];
    int np[2], min_y, height;
    char tmp[2][256];
    cf_pack *pk[2];
    cf_program *pg[2] = {NULL, NULL}; /* the palettes' names live in them */
    for (int r = 0; r < 2; r++) {
        cf_error err = {0};
        cf_status st;
        pk[r] = rule_pack_noises(rules[r], 65, tmp[r], sizeof tmp[r], &err, &st);
        if (!pk[r] && st == CF_OK) cr_skip_test("no 26.2 data");
        cr_assert_eq(st, CF_OK, "%s", err.message);
        out[r] = blocks_fill(pk[r], "t:s", 0, 7, 4, 1, &pg[r], names[r], &np[r], &min_y, &height);
    }
    free(big);
    cr_assert_eq(np[0], np[1]);
    size_t n = (size_t)height * 256, diamonds = 0;
    for (int i = 0; i < np[0]; i++) cr_assert_str_eq(names[0][i], names[1][i]);
    for (size_t i = 0; i < n; i++) diamonds += strcmp(names[0][out[0][i]], "minecraft:diamond_block") == 0;
    cr_expect_eq(memcmp(out[0], out[1], n), 0, "65 noises: not the blocks of the deciding noise alone");
    cr_expect(diamonds > 1000 && diamonds < n / 2, "the deciding noise decides nothing: %zu diamonds", diamonds);
    free(out[0]), free(out[1]);
    for (int r = 0; r < 2; r++) cf_program_free(pg[r]), cf_pack_free(pk[r]);
    /* the device (PoCL here): the same file as the CPU */
    char base[4096], cmd[20000];
    shared_need("vanilla/26.2", base, sizeof base);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' fill --pack '%s' --pack . --settings t:s --seed 0 --chunks 7,4 --blocks --stage surface --device opencl "
             "--quiet --out d.npy 2>&1 && '%s' fill --pack '%s' --pack . --settings t:s --seed 0 --chunks 7,4 --blocks --stage surface "
             "--device cpu --quiet --out c.npy 2>&1 && cmp d.npy c.npy && echo same",
             tmp[0], CF_BINARY, base, CF_BINARY, base);
    char *o = slurp_cmd(cmd);
    if (o && strstr(o, "no usable OpenCL device")) cr_skip_test("no OpenCL device: %s", o);
    cr_expect(o && strstr(o, "same"), "65 noises on the device: %s", o ? o : "(nothing)");
    free(o);
    rm_tmp(tmp[0]), rm_tmp(tmp[1]);
}

/* ---------------------------------------------------------------- the CLI */
/* the surface stage on the device (explicit and auto) writes what the CPU writes: 1.18-1.21
 * data and 26.3 material rules; --stage outside --blocks is one line */
Test(surface121, cli_stage_and_device)
{
    char pack[4096], pack263[4096];
    if (!shared_have("vanilla/26.2", pack, sizeof pack) || !shared_have("vanilla/26.3", pack263, sizeof pack263))
        cr_skip_test("no 26.2 or 26.3 data");
    char cmd[20000];
    int pid = (int)getpid();
    snprintf(cmd, sizeof cmd,
             "'%s' fill --pack '%s' --seed 0 --chunks 0,0 --blocks --stage surface --device opencl --quiet --out /tmp/cf-sd-%d.npy 2>&1 && "
             "'%s' fill --pack '%s' --seed 0 --chunks 0,0 --blocks --device auto --quiet --out /tmp/cf-sa-%d.npy 2>&1 && "
             "'%s' fill --pack '%s' --seed 0 --chunks 0,0 --blocks --stage surface --device cpu --quiet --out /tmp/cf-sc-%d.npy 2>&1 && "
             "cmp /tmp/cf-sd-%d.npy /tmp/cf-sc-%d.npy && cmp /tmp/cf-sa-%d.npy /tmp/cf-sc-%d.npy && grep -c snow_block /tmp/cf-sd-%d.palette.json",
             CF_BINARY, pack, pid, CF_BINARY, pack, pid, CF_BINARY, pack, pid, pid, pid, pid, pid, pid);
    char *o = slurp_cmd(cmd);
    if (o && strstr(o, "no usable OpenCL device")) cr_skip_test("no OpenCL device: %s", o);
    cr_assert_not_null(o, "the device's surface stage must write the CPU's file");
    cr_expect(strstr(o, "runs on the CPU") == NULL, "%s", o);
    free(o);
    snprintf(cmd, sizeof cmd, "rm -f /tmp/cf-s[dac]-%d.npy /tmp/cf-s[dac]-%d.palette.json", pid, pid);
    cr_expect_eq(system(cmd), 0);
    /* 26.3 material rules on the device: the CPU's file too (the end: a small program) */
    snprintf(cmd, sizeof cmd,
             "'%s' fill --pack '%s' --settings minecraft:end --seed 0 --chunks 7,4 --blocks --device opencl --quiet --out /tmp/cf-sd-%d.npy 2>&1 && "
             "'%s' fill --pack '%s' --settings minecraft:end --seed 0 --chunks 7,4 --blocks --device cpu --quiet --out /tmp/cf-sc-%d.npy 2>&1 && "
             "cmp /tmp/cf-sd-%d.npy /tmp/cf-sc-%d.npy && grep -c end_stone /tmp/cf-sd-%d.palette.json",
             CF_BINARY, pack263, pid, CF_BINARY, pack263, pid, pid, pid, pid);
    o = slurp_cmd(cmd);
    cr_assert_not_null(o, "26.3's surface stage on the device must write the CPU's file");
    free(o);
    snprintf(cmd, sizeof cmd, "rm -f /tmp/cf-s[dc]-%d.npy /tmp/cf-s[dc]-%d.palette.json", pid, pid);
    cr_expect_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' fill --pack '%s' --settings minecraft:end --seed 0 --chunks 0,0 --blocks --stage mantle --out /tmp/cf-s.npy 2>&1; true",
             CF_BINARY, pack);
    o = slurp_cmd(cmd);
    cr_expect(o && strstr(o, "--stage mantle: no such stage (the stages are noise and surface)") != NULL, "%s", o ? o : "");
    free(o);
    snprintf(cmd, sizeof cmd, "'%s' check --pack '%s' --seed 0 --chunks 0,0 --stage surface 2>&1; true", CF_BINARY, pack);
    o = slurp_cmd(cmd);
    cr_expect(o && strstr(o, "--stage goes with --blocks") != NULL, "%s", o ? o : "");
    free(o);
}

/* a batch of chunks (shared neighbour biomes, threads) equals the chunks filled one by one */
Test(surface121, batch_equals_single_chunks)
{
    char packdir[4096];
    if (!shared_have("vanilla/26.2", packdir, sizeof packdir)) cr_skip_test("no 26.2 data");
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_biomes *b = NULL;
    cf_error err = {0};
    const char *paths[1] = {packdir};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 0, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, "minecraft:overworld", NULL, 0, &err), CF_OK, "%s", err.message);
    const int32_t c[8] = {7, 4, 6, 4, 7, 3, 40, -2};
    size_t per = (size_t)384 * 256;
    uint8_t *all = malloc(4 * per), *one = malloc(per);
    cr_assert_eq(cf_fill_blocks_surface(w, b, 4, c, all, 2, &err), CF_OK, "%s", err.message);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(cf_fill_blocks_surface(w, b, 1, c + 2 * i, one, 1, &err), CF_OK, "%s", err.message);
        cr_expect_eq(memcmp(all + (size_t)i * per, one, per), 0, "chunk (%d, %d)", c[2 * i], c[2 * i + 1]);
    }
    /* the noise stage of the same program leaves the default block where the rules write */
    cr_assert_eq(cf_fill_blocks(w, 1, c, one, 1, &err), CF_OK, "%s", err.message);
    cr_expect_neq(memcmp(all, one, per), 0);
    free(all), free(one);
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}
