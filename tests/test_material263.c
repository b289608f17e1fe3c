/* test_material263.c - the 26.3 material pass (host/frontend/rules.c, mc263/parse.c,
 * host/cpu/surface.c). 26.3 has no vanilla output: exact by spec, not by oracle.
 *  - every vanilla settings file compiles its material_rule (every rule and condition type,
 *    references into both registries);
 *  - consistency with the real vanilla 26.2 surface dumps: the 26.3 data gives the same blocks
 *    (block ids without properties) except where the biome lookup ties (the same counts as the
 *    1.21 stage: 26.3 keeps the gradients, surfaces and veins of these chunks);
 *  - property tests from MATERIAL-RULES.md §4.3, §5.3 on rules of our own (a pack layered over
 *    the 26.3 data);
 *  - bad input: unknown types, unresolved references, cycles, block ids that are not strings,
 *    unknown biome tags: one located line each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <cjson/cJSON.h>

#include "chunkfill.h"
#include "testutil.h"



static cf_pack *pack263(void)
{
    char dir[4096];
    if (!shared_have("vanilla/26.3", dir, sizeof dir)) return NULL;
    cf_pack *pk = NULL;
    cf_error err = {0};
    const char *paths[1] = {dir};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    return pk;
}

Test(material263, vanilla_settings_compile)
{
    cf_pack *pk = pack263();
    if (!pk) cr_skip_test("no 26.3 data");
    static const char *const s[7] = {"overworld", "large_biomes", "amplified", "caves", "floating_islands", "nether", "end"};
    for (int i = 0; i < 7; i++) {
        char id[64];
        snprintf(id, sizeof id, "minecraft:%s", s[i]);
        cf_program *pg = NULL;
        cf_error err = {0};
        cr_assert_eq(cf_program_compile_blocks(&pg, pk, id, &err), CF_OK, "%s: %s", id, err.message);
        cr_expect(cf_program_has_surface(pg), "%s", id);
        const char *names[CF_PALETTE_MAX];
        int np = cf_block_palette(pg, names);
        int bedrock = 0, copper = 0;
        for (int k = 0; k < np; k++) bedrock |= strcmp(names[k], "minecraft:bedrock") == 0, copper |= strcmp(names[k], "minecraft:copper_ore") == 0;
        cr_expect_eq(copper, i < 5, "%s: copper_ore in the palette: %d", id, copper);
        cr_expect_eq(bedrock, i != 6 && i != 4, "%s: bedrock in the palette: %d", id, bedrock);
        cf_program_free(pg);
    }
    cf_pack_free(pk);
}

static void strip(const char *s, char *out, size_t n)
{
    snprintf(out, n, "%s", s);
    char *b = strchr(out, '[');
    if (b) *b = 0;
}

/* the 26.2 dumps (chunks from real vanilla) with the 26.3 data: same blocks but at biome ties */
Test(material263, consistent_with_vanilla_26_2_dumps)
{
    char dir[4096];
    cf_pack *pk = pack263();
    if (!pk || !shared_have("vanilla-dumps/26.2", dir, sizeof dir)) cr_skip_test("no 26.3 data or 26.2 dumps");
    static const struct {
        const char *file;
        size_t differ;
    } dumps[] = {{"overworld_seed0_x0_z0_surface", 0}, {"overworld_seed0_x7_z4_surface", 14},
                 {"overworld_seed0_x-595_z544_surface", 0}, {"overworld_seed0_x-119_z183_surface", 0},
                 {"overworld_seed13579_x-6_z11_surface", 56}, {"nether_seed0_x7_z4_surface", 0}};
    for (size_t k = 0; k < sizeof dumps / sizeof dumps[0]; k++) {
        char cmd[8400];
        snprintf(cmd, sizeof cmd, "gzip -dc '%s/%s.json.gz'", dir, dumps[k].file);
        char *text = slurp_cmd(cmd);
        cr_assert_not_null(text);
        cJSON *d = cJSON_Parse(text);
        free(text);
        const cJSON *meta = cJSON_GetObjectItem(d, "meta"), *pal = cJSON_GetObjectItem(d, "palette"), *st = cJSON_GetObjectItem(d, "states");
        const cJSON *chunk = cJSON_GetObjectItem(meta, "chunk");
        const char *settings = cJSON_GetObjectItem(meta, "settings")->valuestring;
        int64_t seed = (int64_t)cJSON_GetObjectItem(meta, "seed")->valuedouble;
        const char *names[CF_PALETTE_MAX];
        int np, min_y, height;
        cf_program *pg = NULL;
        uint8_t *out = blocks_fill(pk, settings, seed, cJSON_GetObjectItem(chunk, "x")->valueint, cJSON_GetObjectItem(chunk, "z")->valueint, 1,
                                   &pg, names, &np, &min_y, &height);
        size_t bad = 0, i = 0;
        for (const cJSON *e = st->child; e; e = e->next, i++) {
            char want[160], got[160];
            strip(cJSON_GetArrayItem(pal, e->valueint)->valuestring, want, sizeof want);
            strip(names[out[i]], got, sizeof got);
            bad += strcmp(want, got) != 0;
        }
        cr_expect_eq(bad, dumps[k].differ, "%s: %zu blocks differ", dumps[k].file, bad);
        free(out);
        cf_program_free(pg);
        cJSON_Delete(d);
    }
    cf_pack_free(pk);
}

/* a pack over the 26.3 data: settings t:s = the 26.3 overworld with material_rule `rule`, and
 * extra registry files (path, text pairs, NULL-terminated) */
static cf_pack *rule_pack263(const char *rule, const char *const *files, char *tmpdir, size_t n, cf_error *err, cf_status *st)
{
    char base[4096], path[8400];
    *st = CF_OK;
    if (!shared_have("vanilla/26.3/data/minecraft/worldgen/noise_settings/overworld.json", base, sizeof base)) return NULL;
    snprintf(path, sizeof path, "cat '%s'", base);
    char *text = slurp_cmd(path);
    cr_assert_not_null(text);
    cJSON *s = cJSON_Parse(text);
    free(text);
    cJSON *r = cJSON_Parse(rule);
    cr_assert_not_null(r, "rule not JSON: %s", rule);
    cJSON_ReplaceItemInObject(s, "material_rule", r);
    char *out = cJSON_Print(s);
    cJSON_Delete(s);
    snprintf(tmpdir, n, "/tmp/cf-material-test-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    const char *settings_file[3] = {"data/t/worldgen/noise_settings/s.json", out, NULL};
    for (int pass = 0; pass < 2; pass++) {
        const char *const *list = pass == 0 ? settings_file : files;
        for (int k = 0; list && list[k]; k += 2) {
            snprintf(path, sizeof path, "mkdir -p \"$(dirname '%s/%s')\"", tmpdir, list[k]);
            cr_assert_eq(system(path), 0);
            snprintf(path, sizeof path, "%s/%s", tmpdir, list[k]);
            FILE *f = fopen(path, "w");
            cr_assert_not_null(f);
            fputs(list[k + 1], f);
            fclose(f);
        }
    }
    free(out);
    shared_need("vanilla/26.3", base, sizeof base);
    const char *paths[2] = {base, tmpdir};
    cf_pack *pk = NULL;
    *st = cf_pack_open(&pk, paths, 2, NULL, err);
    return pk;
}

/* the blocks of chunk (cx, cz) of t:s, seed 0; *names from a live program (*pg: free it) */
static uint8_t *fill263(cf_pack *pk, int32_t cx, int32_t cz, cf_program **pg, const char **names, int *np, int *min_y)
{
    int height;
    return blocks_fill(pk, "t:s", 0, cx, cz, 1, pg, names, np, min_y, &height);
}

static int idx(const char **names, int np, const char *id)
{
    for (int k = 0; k < np; k++)
        if (strcmp(names[k], id) == 0) return k;
    return -1;
}

/* vertical_gradient: true at and below T, false at and above F, a positional draw between that
 * depends on the name and the position (not on the order); applied to every solid block */
Test(material263, vertical_gradient_property)
{
    char tmp[256];
    cf_error err = {0};
    cf_status st;
    const char *rule = "{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:vertical_gradient\", "
                       "\"random_name\": \"t:g\", \"true_at_and_below\": {\"absolute\": 0}, \"false_at_and_above\": {\"absolute\": 10}}, "
                       "\"then_run\": {\"type\": \"minecraft:block\", \"result_state\": \"minecraft:diamond_block\"}}";
    cf_pack *pk = rule_pack263(rule, NULL, tmp, sizeof tmp, &err, &st);
    if (!pk && st == CF_OK) cr_skip_test("no 26.3 data");
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    const char *names[CF_PALETTE_MAX];
    int np, min_y;
    uint8_t *a = fill263(pk, 0, 0, &pg, names, &np, &min_y);
    int dia = idx(names, np, "minecraft:diamond_block"), stone = idx(names, np, "minecraft:stone");
    cr_assert_geq(dia, 0);
    int per[10] = {0}, solid[10] = {0};
    for (size_t i = 0; i < (size_t)384 * 256; i++) {
        int y = min_y + (int)(i / 256);
        if (a[i] != dia && a[i] != stone) continue;
        if (y <= 0) cr_assert_eq(a[i], dia, "y %d: not diamond", y);
        if (y >= 10) cr_assert_neq(a[i], dia, "y %d: diamond", y);
        if (y > 0 && y < 10) solid[y]++, per[y] += a[i] == dia;
    }
    /* probability 1 - y/10: a lower row holds more than a higher one, and both are in between */
    cr_expect_gt(per[1], per[9], "y 1: %d, y 9: %d", per[1], per[9]);
    cr_expect(per[5] > solid[5] / 4 && per[5] < 3 * solid[5] / 4, "y 5: %d of %d", per[5], solid[5]);
    /* the same rule in the neighbouring chunk differs (positional) */
    cf_program *pg2 = NULL;
    const char *n2[CF_PALETTE_MAX];
    int np2, my2;
    uint8_t *b = fill263(pk, 1, 0, &pg2, n2, &np2, &my2);
    cr_expect_neq(memcmp(a + (size_t)(64 + 5) * 256, b + (size_t)(64 + 5) * 256, 256), 0);
    free(a), free(b);
    cf_program_free(pg), cf_program_free(pg2);
    cf_pack_free(pk);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_assert_eq(system(cmd), 0);
}

/* ore_vein (vanilla copper and iron through references): vein blocks only in their y ranges
 * (copper 0..49, iron -60..-9, §5.1), the raw blocks rare, and bedrock first (§5.4 row 9) */
Test(material263, ore_vein_property)
{
    cf_pack *pk = pack263();
    if (!pk) cr_skip_test("no 26.3 data");
    size_t copper = 0, iron = 0, raw = 0, filler = 0;
    for (int32_t c = 0; c < 4; c++) {
        const char *names[CF_PALETTE_MAX];
        int np, min_y, height;
        cf_program *pg = NULL;
        uint8_t *a = blocks_fill(pk, "minecraft:overworld", 13579, -6 - c, 11, 1, &pg, names, &np, &min_y, &height);
        for (size_t i = 0; i < (size_t)height * 256; i++) {
            int y = min_y + (int)(i / 256);
            const char *n = names[a[i]];
            int cu = !strcmp(n, "minecraft:copper_ore") || !strcmp(n, "minecraft:raw_copper_block") || !strcmp(n, "minecraft:granite");
            int fe = !strcmp(n, "minecraft:deepslate_iron_ore") || !strcmp(n, "minecraft:raw_iron_block") || !strcmp(n, "minecraft:tuff");
            if (cu) {
                cr_assert(y >= 0 && y < 50, "copper vein block at y %d", y);
                copper++;
            }
            if (fe) {
                cr_assert(y >= -60 && y < -8, "iron vein block at y %d", y);
                iron++;
            }
            raw += strstr(n, "raw_") != NULL;
            filler += !strcmp(n, "minecraft:tuff") || !strcmp(n, "minecraft:granite");
        }
        free(a);
        cf_program_free(pg);
    }
    cr_expect_gt(iron, 200, "iron vein blocks: %zu", iron);
    cr_expect_gt(filler, (copper + iron) / 2, "filler %zu of %zu", filler, copper + iron);
    cr_expect_lt(raw * 20, copper + iron + 20, "raw %zu of %zu", raw, copper + iron);
    cf_pack_free(pk);
}

static void expect_error263(const char *rule, const char *const *files, const char *fragment, const char *where)
{
    char tmp[256];
    cf_error err = {0};
    cf_status st;
    cf_pack *pk = rule_pack263(rule, files, tmp, sizeof tmp, &err, &st);
    if (!pk && st == CF_OK) cr_skip_test("no 26.3 data");
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    cr_expect_neq(cf_program_compile_blocks(&pg, pk, "t:s", &err), CF_OK, "accepted: %s", rule);
    cr_expect(strstr(err.message, fragment) != NULL, "error \"%s\" lacks \"%s\"", err.message, fragment);
    cr_expect(strstr(err.message, where) != NULL, "error \"%s\" not at \"%s\"", err.message, where);
    cr_expect(strchr(err.message, '\n') == NULL);
    cf_program_free(pg);
    cf_pack_free(pk);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_assert_eq(system(cmd), 0);
}

Test(material263, bad_rules_one_located_line)
{
    expect_error263("{\"type\": \"minecraft:nope\"}", NULL, "unknown rule type \"minecraft:nope\"", "s.json#/material_rule/type");
    expect_error263("\"t:missing\"", NULL, "unresolved reference to material_rule \"t:missing\"", "s.json#/material_rule");
    expect_error263("{\"type\": \"minecraft:condition\", \"if_true\": \"t:nocond\", \"then_run\": \"minecraft:bedrock_floor\"}", NULL,
                    "unresolved reference to material_condition \"t:nocond\"", "#/material_rule/if_true");
    static const char *const cycle[] = {"data/t/worldgen/material_rule/a.json", "{\"type\": \"minecraft:sequence\", \"sequence\": [\"t:b\"]}",
                                        "data/t/worldgen/material_rule/b.json", "\"t:a\"", NULL};
    expect_error263("\"t:a\"", cycle, "reference cycle through material_rule \"t:a\"", "b.json");
    expect_error263("{\"type\": \"minecraft:block\", \"result_state\": {\"Name\": \"minecraft:stone\"}}", NULL,
                    "expected a block id (a string)", "#/material_rule/result_state");
    expect_error263("{\"type\": \"minecraft:block\", \"result_state\": 5}", NULL, "expected a block id", "#/material_rule/result_state");
    expect_error263("{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:biome\", \"biome_is\": \"#minecraft:nope\"}, "
                    "\"then_run\": \"minecraft:bedrock_floor\"}", NULL, "unknown biome tag \"#minecraft:nope\"", "#/material_rule/if_true/biome_is");
    expect_error263("{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:sky\"}, \"then_run\": \"minecraft:bedrock_floor\"}",
                    NULL, "unknown condition type \"minecraft:sky\"", "#/material_rule/if_true/type");
    static const char *const badcond[] = {"data/t/worldgen/material_condition/c.json", "{\"type\": \"minecraft:stone_depth\", \"offset\": \"x\", "
                                          "\"surface_type\": \"floor\"}", NULL};
    expect_error263("{\"type\": \"minecraft:condition\", \"if_true\": \"t:c\", \"then_run\": \"minecraft:bedrock_floor\"}", badcond,
                    "expected an integer", "c.json#/offset");
}

/* biome_is with #tags (data/<ns>/tags/worldgen/biome/): a tag (with a nested tag and an
 * optional missing one) selects what the same biomes as a list select; a tag of other biomes
 * selects nothing here; a bad tag file is one line located in that file. (Vanilla 26.3's
 * material rules name biomes by id only: these tags are our own.) */
#define BIOMES_A "\"minecraft:plains\", \"minecraft:forest\", \"minecraft:ocean\", \"minecraft:deep_ocean\", \"minecraft:river\", " \
                 "\"minecraft:beach\", \"minecraft:taiga\", \"minecraft:birch_forest\", \"minecraft:savanna\", \"minecraft:desert\""
#define BIOMES_B "\"minecraft:jungle\", \"minecraft:swamp\", \"minecraft:dark_forest\", \"minecraft:meadow\", \"minecraft:cold_ocean\", " \
                 "\"minecraft:lukewarm_ocean\", \"minecraft:warm_ocean\", \"minecraft:deep_cold_ocean\", \"minecraft:deep_lukewarm_ocean\", " \
                 "\"minecraft:dripstone_caves\", \"minecraft:lush_caves\", \"minecraft:deep_dark\", \"minecraft:windswept_hills\""
#define GLASS_IF(B) "{\"type\": \"minecraft:sequence\", \"sequence\": [{\"type\": \"minecraft:condition\", \"if_true\": " \
                    "{\"type\": \"minecraft:biome\", \"biome_is\": " B "}, \"then_run\": {\"type\": \"minecraft:block\", " \
                    "\"result_state\": \"minecraft:glass\"}}, \"minecraft:overworld\"]}"

static size_t glass_of(const char *rule, const char *const *files, uint8_t **blocks, size_t *n)
{
    char tmp[256], cmd[300];
    cf_error err = {0};
    cf_status st;
    cf_pack *pk = rule_pack263(rule, files, tmp, sizeof tmp, &err, &st);
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cf_program *pg = NULL;
    const char *names[CF_PALETTE_MAX];
    int np, min_y;
    uint8_t *a = fill263(pk, 0, 0, &pg, names, &np, &min_y);
    int g = idx(names, np, "minecraft:glass");
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    *n = (size_t)height * 256;
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) k += g >= 0 && a[i] == g;
    *blocks = a;
    cf_program_free(pg);
    cf_pack_free(pk);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_assert_eq(system(cmd), 0);
    return k;
}

/* the tables a rule fills are sized from it (issue 32 item 7): a material rule reading 65 noises (the
 * limit was 64 "noises and functions"; Terralith over 1.21.11 reads 65) gives the glass of its deciding
 * noise alone (64 always-true noise_thresholds around it, thresholds +-100), and a biome condition
 * naming 513 biomes (the limit was 512; 503 repeats of the_void and BIOMES_A) the glass of BIOMES_A */
Test(material263, a_rule_of_65_noises_and_513_biomes)
{
    if (!shared_have("vanilla/26.3", (char[4096]){0}, 4096)) cr_skip_test("no 26.3 data");
    const char *decide = "{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:noise_threshold\", \"noise\": "
                         "\"t:n64\", \"min_threshold\": 0.0, \"max_threshold\": 100.0}, \"then_run\": {\"type\": \"minecraft:block\", "
                         "\"result_state\": \"minecraft:glass\"}}";
    size_t cap = 65 * 256 + 256;
    char *big = malloc(cap), *one = malloc(cap);
    cr_assert(big && one);
    size_t k = (size_t)snprintf(big, cap, "{\"type\": \"minecraft:sequence\", \"sequence\": [");
    for (int i = 0; i < 64; i++)
        k += (size_t)snprintf(big + k, cap - k, "{\"type\": \"minecraft:condition\", \"if_true\": {\"type\": \"minecraft:noise_threshold\", "
                                                "\"noise\": \"t:n%d\", \"min_threshold\": -100.0, \"max_threshold\": 100.0}, \"then_run\": ", i);
    k += (size_t)snprintf(big + k, cap - k, "%s", decide);
    for (int i = 0; i < 64; i++) big[k++] = '}';
    snprintf(big + k, cap - k, ", \"minecraft:overworld\"]}");
    snprintf(one, cap, "{\"type\": \"minecraft:sequence\", \"sequence\": [%s, \"minecraft:overworld\"]}", decide);
    static char paths[65][64], texts[65][96];
    const char *files[2 * 65 + 1];
    for (int i = 0; i < 65; i++) {
        snprintf(paths[i], sizeof paths[i], "data/t/worldgen/noise/n%d.json", i);
        snprintf(texts[i], sizeof texts[i], "{\"base_amplitude\": 1.0, \"base_octave\": -%d, \"octave_count\": 2}", 4 + i % 5);
        files[2 * i] = paths[i], files[2 * i + 1] = texts[i];
    }
    files[130] = NULL;
    uint8_t *a, *b;
    size_t n;
    size_t ga = glass_of(big, files, &a, &n), gb = glass_of(one, files, &b, &n);
    cr_expect_gt(gb, 1000, "the deciding noise decides nothing: %zu glass", gb);
    cr_expect_eq(ga, gb);
    cr_expect_eq(memcmp(a, b, n), 0, "65 noises: not the blocks of the deciding noise alone");
    free(a), free(b), free(big), free(one);
    /* 513 biomes in one condition */
    size_t bcap = 513 * 32 + 1024;
    char *list = malloc(bcap), *rule = malloc(bcap + 512);
    cr_assert(list && rule);
    size_t l = 0;
    for (int i = 0; i < 503; i++) l += (size_t)snprintf(list + l, bcap - l, "\"minecraft:the_void\", ");
    snprintf(list + l, bcap - l, BIOMES_A);
    snprintf(rule, bcap + 512, GLASS_IF("[%s]"), list);
    ga = glass_of(rule, NULL, &a, &n), gb = glass_of(GLASS_IF("[" BIOMES_A "]"), NULL, &b, &n);
    cr_expect_gt(gb, 1000, "glass of BIOMES_A: %zu", gb);
    cr_expect_eq(ga, gb);
    cr_expect_eq(memcmp(a, b, n), 0, "513 biomes: not the blocks of the 10 distinct ones");
    free(a), free(b), free(list), free(rule);
}

/* material-rule references were followed at most 64 deep (a fixed table; issue 32 item 7): the game has
 * no limit but its stack. A chain t:r0 -> t:r1 -> ... -> t:r64 (65 references) gives the glass of the rule
 * at its end; --max-depth (512) bounds the chain: one of 513 is one located line */
static const char *const *ref_chain(int n, const char *last)
{
    static char paths[600][64], texts[600][64];
    static const char *files[2 * 600 + 3];
    cr_assert_lt(n, 600);
    for (int i = 0; i < n; i++) {
        snprintf(paths[i], sizeof paths[i], "data/t/worldgen/material_rule/r%d.json", i);
        snprintf(texts[i], sizeof texts[i], "\"t:r%d\"", i + 1);
        files[2 * i] = paths[i], files[2 * i + 1] = texts[i];
    }
    snprintf(paths[n], sizeof paths[n], "data/t/worldgen/material_rule/r%d.json", n);
    files[2 * n] = paths[n], files[2 * n + 1] = last, files[2 * n + 2] = NULL;
    return files;
}
Test(material263, references_nested_65_deep)
{
    if (!shared_have("vanilla/26.3", (char[4096]){0}, 4096)) cr_skip_test("no 26.3 data");
    const char *glass = GLASS_IF("[" BIOMES_A "]");
    uint8_t *a, *b;
    size_t n;
    size_t ga = glass_of("\"t:r0\"", ref_chain(65, glass), &a, &n), gb = glass_of(glass, NULL, &b, &n);
    cr_expect_gt(gb, 1000, "glass of BIOMES_A: %zu", gb);
    cr_expect_eq(ga, gb);
    cr_expect_eq(memcmp(a, b, n), 0, "65 references: not the blocks of the rule at their end");
    free(a), free(b);
    expect_error263("\"t:r0\"", ref_chain(513, glass), "the surface rule is nested deeper than 512", "r511.json");
}

Test(material263, biome_tags)
{
    if (!shared_have("vanilla/26.3", (char[4096]){0}, 4096)) cr_skip_test("no 26.3 data");
    static const char *const tags[] = {
        "data/t/tags/worldgen/biome/all.json", "{\"values\": [" BIOMES_A ", \"#t:inner\", {\"id\": \"#t:absent\", \"required\": false}]}",
        "data/t/tags/worldgen/biome/inner.json", "{\"values\": [" BIOMES_B "]}",
        "data/t/tags/worldgen/biome/other.json", "{\"values\": [\"minecraft:nether_wastes\", \"minecraft:the_end\"]}", NULL};
    uint8_t *a, *b, *c;
    size_t n;
    size_t ga = glass_of(GLASS_IF("\"#t:all\""), tags, &a, &n);
    size_t gb = glass_of(GLASS_IF("[" BIOMES_A ", " BIOMES_B "]"), tags, &b, &n);
    size_t gc = glass_of(GLASS_IF("\"#t:other\""), tags, &c, &n);
    cr_expect_gt(ga, 1000, "glass through the tag: %zu", ga);
    cr_expect_eq(ga, gb);
    cr_expect_eq(memcmp(a, b, n), 0, "the tag and the list select the same blocks");
    cr_expect_eq(gc, 0);
    /* an empty tag is a valid tag, as the game reads it: the rule selects nothing */
    static const char *const empty[] = {"data/t/tags/worldgen/biome/none.json", "{\"values\": []}", NULL};
    uint8_t *e;
    cr_expect_eq(glass_of(GLASS_IF("\"#t:none\""), empty, &e, &n), 0);
    free(e);
    free(a), free(b), free(c);
    static const char *const nested[] = {"data/t/tags/worldgen/biome/all.json", "{\"values\": [\"minecraft:plains\", \"#t:gone\"]}", NULL};
    expect_error263(GLASS_IF("\"#t:all\""), nested, "unknown biome tag \"#t:gone\"", "all.json#/values/1");
    static const char *const badval[] = {"data/t/tags/worldgen/biome/all.json", "{\"values\": [\"minecraft:plains\", 7]}", NULL};
    expect_error263(GLASS_IF("\"#t:all\""), badval, "expected a biome id or a #tag", "all.json#/values/1");
    static const char *const notag[] = {"data/t/tags/worldgen/biome/all.json", "[\"minecraft:plains\"]", NULL};
    expect_error263(GLASS_IF("\"#t:all\""), notag, "expected a tag", "all.json");
    static const char *const cyc[] = {"data/t/tags/worldgen/biome/all.json", "{\"values\": [\"#t:all\"]}", NULL};
    expect_error263(GLASS_IF("\"#t:all\""), cyc, "biome tag cycle: #t:all -> #t:all", "all.json#/values/0");
}

/* one reader of biome tags (host/base/tags.c): a material rule's #tag, merged over two packs
 * (appended, then with "replace": true), selects the biomes a checkerboard biome source of the
 * same tag lists, in the same packs. Chunk (0, 0) of seed 0 holds minecraft:forest and
 * minecraft:river: the lower pack gives forest (lost when the upper file replaces), the upper
 * pack river, so reading one pack's file only selects other blocks. */
static void put_file(const char *dir, const char *rel, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "mkdir -p \"$(dirname '%s/%s')\"", dir, rel);
    cr_assert_eq(system(path), 0);
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* the blocks of chunk (0, 0) with rule GLASS_IF(biomes) over packs vanilla, lower (the rule's
 * settings t:s, a checkerboard dimension t:chk of #t:mix, tag files) and upper (tag files);
 * with chk, the checkerboard's biomes in slot order into chk (their count into *nchk) */
static uint8_t *tag_blocks(const char *biomes, const char *const *lower, const char *const *upper, char chk[][64], int *nchk,
                           size_t *n, int *glass)
{
    char tmp[256], up[300], v[4096], cmd[700];
    cf_error err = {0};
    cf_status st;
    static const char dim[] = "{\"type\": \"minecraft:overworld\", \"generator\": {\"type\": \"minecraft:noise\", \"settings\": \"t:s\", "
                              "\"biome_source\": {\"type\": \"minecraft:checkerboard\", \"biomes\": \"#t:mix\", \"scale\": 0}}}";
    char rule[2048];
    snprintf(rule, sizeof rule, GLASS_IF("%s"), biomes);
    cf_pack *pk = rule_pack263(rule, lower, tmp, sizeof tmp, &err, &st);
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cf_pack_free(pk);
    put_file(tmp, "data/t/dimension/chk.json", dim);
    snprintf(up, sizeof up, "%s-up", tmp);
    for (int k = 0; upper[k]; k += 2) put_file(up, upper[k], upper[k + 1]);
    shared_need("vanilla/26.3", v, sizeof v);
    const char *paths[3] = {v, tmp, up};
    cr_assert_eq(cf_pack_open(&pk, paths, 3, NULL, &err), CF_OK, "%s", err.message);
    if (chk) {
        cf_biomes *b = NULL;
        cr_assert_eq(cf_biomes_open(&b, pk, "t:chk", NULL, NULL, 0, &err), CF_OK, "%s", err.message);
        const char *names[CF_BIOME_PALETTE_MAX];
        int np = cf_biomes_palette(b, names);
        cr_assert(np > 0 && np < 16);
        int32_t q[3 * 16] = {0};
        uint8_t o[16];
        for (int i = 0; i < np; i++) q[3 * i] = 4 * i;
        cr_assert_eq(cf_biomes_quarts(b, (size_t)np, q, o, &err), CF_OK, "%s", err.message);
        for (int i = 0; i < np; i++) snprintf(chk[i], 64, "%s", names[o[i]]);
        *nchk = np;
        cf_biomes_free(b);
    }
    cf_program *pg = NULL;
    const char *names[CF_PALETTE_MAX];
    int np, min_y, height;
    uint8_t *a = fill263(pk, 0, 0, &pg, names, &np, &min_y);
    int g = idx(names, np, "minecraft:glass");
    cf_program_settings(pg, NULL, &height, NULL);
    *n = (size_t)height * 256;
    *glass = 0;
    for (size_t i = 0; i < *n; i++) *glass += g >= 0 && a[i] == g;
    cf_program_free(pg);
    cf_pack_free(pk);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", tmp, up);
    cr_assert_eq(system(cmd), 0);
    return a;
}

Test(material263, biome_tag_merged_as_checkerboard)
{
    if (!shared_have("vanilla/26.3", (char[4096]){0}, 4096)) cr_skip_test("no 26.3 data");
    static const char *const lower[] = {
        "data/t/tags/worldgen/biome/mix.json", "{\"values\": [\"minecraft:forest\", \"#t:inner\", {\"id\": \"#t:absent\", \"required\": false}]}",
        "data/t/tags/worldgen/biome/inner.json", "{\"values\": [\"minecraft:plains\", \"minecraft:forest\"]}", NULL};
    static const char *const append[] = {"data/t/tags/worldgen/biome/mix.json", "{\"values\": [\"minecraft:river\", \"minecraft:plains\"]}", NULL};
    static const char *const replace[] = {"data/t/tags/worldgen/biome/mix.json", "{\"replace\": true, \"values\": [\"minecraft:river\"]}", NULL};
    static const char *const want_append[] = {"minecraft:forest", "minecraft:plains", "minecraft:river"};
    for (int pass = 0; pass < 2; pass++) {
        const char *const *upper = pass == 0 ? append : replace;
        int want_n = pass == 0 ? 3 : 1;
        char chk[16][64];
        int nchk = 0, gt, gl;
        size_t n;
        uint8_t *bt = tag_blocks("\"#t:mix\"", lower, upper, chk, &nchk, &n, &gt);
        /* the checkerboard's list: the game's merge */
        cr_expect_eq(nchk, want_n, "pass %d: %d checkerboard biomes", pass, nchk);
        for (int i = 0; i < nchk && i < want_n; i++)
            cr_expect_str_eq(chk[i], pass == 0 ? want_append[i] : "minecraft:river", "pass %d slot %d", pass, i);
        /* the rule with that list as ids selects the same blocks as the rule with the tag */
        char list[1200] = "[";
        for (int i = 0; i < nchk; i++) {
            size_t o = strlen(list);
            snprintf(list + o, sizeof list - o, "%s\"%s\"", i ? ", " : "", chk[i]);
        }
        strcat(list, "]");
        uint8_t *bl = tag_blocks(list, lower, upper, NULL, NULL, &n, &gl);
        cr_expect_gt(gt, 100, "pass %d: glass through the tag: %d", pass, gt);
        cr_expect_eq(gt, gl, "pass %d: tag %d, list %d", pass, gt, gl);
        cr_expect_eq(memcmp(bt, bl, n), 0, "pass %d: the tag and the checkerboard's list select the same blocks", pass);
        free(bt), free(bl);
        /* one pack's file only would differ: the upper file alone (river) */
        if (pass == 0) {
            uint8_t *br = tag_blocks("[\"minecraft:river\"]", lower, upper, NULL, NULL, &n, &gl);
            cr_expect_neq(gl, gt, "forest and river both hold glass here (glass %d vs river alone %d)", gt, gl);
            free(br);
        }
    }
}

/* the surface stage on the device (kernels/cf_surface.h with CF_SF_F32) equals the CPU's: two
 * overworld chunks with copper and iron veins, one nether and one end chunk (one program per
 * settings; PoCL here) */
Test(material263, opencl_equals_cpu, .timeout = 1200)
{
    cf_pack *pk = pack263();
    if (!pk) cr_skip_test("no 26.3 data");
    static const struct {
        const char *settings;
        int n;
        int32_t c[4];
        int64_t seed;
    } runs[3] = {{"minecraft:overworld", 2, {-6, 11, -8, 11}, 13579}, {"minecraft:nether", 1, {7, 4}, 0}, {"minecraft:end", 1, {7, 4}, 0}};
    size_t veins = 0;
    for (int k = 0; k < 3; k++) {
        cf_program *pg = NULL;
        cf_world *w = NULL;
        cf_biomes *b = NULL;
        cf_device *d = NULL;
        cf_error err = {0};
        cr_assert_eq(cf_program_compile_blocks(&pg, pk, runs[k].settings, &err), CF_OK, "%s", err.message);
        cr_assert(cf_program_surface_on_device(pg));
        if (cf_device_open(&d, "opencl", pg, 0, 0, &err) != CF_OK) {
            cf_program_free(pg);
            cf_pack_free(pk);
            cr_skip_test("no OpenCL device: %s", err.message);
        }
        cr_assert_eq(cf_world_new(&w, pg, runs[k].seed, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_biomes_open(&b, pk, NULL, runs[k].settings, NULL, runs[k].seed, &err), CF_OK, "%s", err.message);
        int height;
        cf_program_settings(pg, NULL, &height, NULL);
        const char *names[CF_PALETTE_MAX];
        int np = cf_block_palette(pg, names);
        size_t n = (size_t)height * 256 * (size_t)runs[k].n, diff = 0;
        uint8_t *x = malloc(n), *y = malloc(n);
        cr_assert_eq(cf_device_fill_blocks_surface(d, w, b, (size_t)runs[k].n, runs[k].c, x, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_blocks_surface(w, b, (size_t)runs[k].n, runs[k].c, y, 1, &err), CF_OK, "%s", err.message);
        for (size_t i = 0; i < n; i++) {
            if (x[i] != y[i] && diff++ < 3)
                cr_log_error("%s: index %zu: device %s, CPU %s", runs[k].settings, i, x[i] < np ? names[x[i]] : "?", names[y[i]]);
            veins += !strcmp(names[y[i]], "minecraft:copper_ore") || !strcmp(names[y[i]], "minecraft:deepslate_iron_ore")
                     || !strcmp(names[y[i]], "minecraft:tuff") || !strcmp(names[y[i]], "minecraft:granite");
        }
        cr_expect_eq(diff, 0, "%s: %zu blocks differ between the device and the CPU", runs[k].settings, diff);
        free(x), free(y);
        cf_biomes_free(b);
        cf_world_free(w);
        cf_device_free(d);
        cf_program_free(pg);
    }
    cr_expect_gt(veins, 50, "vein blocks in the chunks: %zu", veins);
    cf_pack_free(pk);
}
