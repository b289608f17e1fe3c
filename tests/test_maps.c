/* test_maps.c - maps at a scale and tile pyramids: cf_surface_samples equals the
 * full-resolution heights (cf_surface_heights) at the documented sample columns
 * (x0 + i*step, z0 + k*step) on both of its paths (whole chunks below 10 blocks
 * between samples, single columns from 10 on, one corner column per sample from 8 on
 * where samples lie on cell corners) and on the double dialects; the
 * tiles command writes tiles that equal render of their area (decoded pixels),
 * level Z tiles equal the documented downscale, and bad input is refused. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <png.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chunkfill.h"
#include "chunkfill_net.h"
#include "maputil.h"


TestSuite(maps, .timeout = 300);

/* the program: the final density's own, or (world_blocks) compiled with the noise stage's
 * blocks, as `serve --http` and render of relief and water at once compile it */
static int world_blocks;
static cf_world *world(const char *pack, const char *settings, int64_t seed, cf_program **pg)
{
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, pack ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    if (world_blocks) cr_assert_eq(cf_program_compile_blocks(pg, pk, settings, &err), CF_OK, "%s", err.message);
    else cr_assert_eq(cf_program_compile(pg, pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    cf_pack_free(pk);
    cr_assert_eq(cf_world_new(&w, *pg, seed, &err), CF_OK, "%s", err.message);
    return w;
}

/* the samples of an area at each step equal its full heights at (i*step, k*step) */
static void check_samples(const char *pack, const char *settings, int64_t seed, int32_t x0, int32_t z0, int32_t n,
                          const int *steps)
{
    cf_program *pg;
    cf_world *w = world(pack, settings, seed, &pg);
    cf_error err = {0};
    int32_t *full = malloc(sizeof(int32_t) * (size_t)n * (size_t)n), *s = malloc(sizeof(int32_t) * (size_t)n * (size_t)n);
    cr_assert_eq(cf_surface_heights(w, 0, x0, z0, n, n, INT32_MAX, full, 2, &err), CF_OK, "%s", err.message);
    for (const int *st = steps; *st; st++) {
        int32_t m = (n + *st - 1) / *st;
        memset(s, 0x55, sizeof(int32_t) * (size_t)m * (size_t)m);
        cr_assert_eq(cf_surface_samples(w, 0, x0, z0, *st, m, m, INT32_MAX, s, 2, &err), CF_OK, "%s", err.message);
        for (int32_t k = 0; k < m; k++)
            for (int32_t i = 0; i < m; i++)
                cr_assert_eq(s[k * m + i], full[(size_t)k * (size_t)*st * (size_t)n + (size_t)i * (size_t)*st],
                             "%s step %d: sample (%d, %d) = column (%d, %d)", settings, *st, i, k, x0 + i * *st,
                             z0 + k * *st);
    }
    free(full), free(s);
    cf_world_free(w);
    cf_program_free(pg);
}

Test(maps, samples_equal_full_heights_default_pack)
{
    static const int steps[] = {2, 3, 5, 8, 17, 40, 0};
    check_samples(NULL, "minecraft:overworld", 42, -77, -45, 96, steps); /* chunk borders, negative, unaligned */
    /* on cell corners from step 8 (corner columns: heights.c corner_exact): the embedded pack's
     * offset divides by a literal and reads distance_to_point, whose ranges are finite
     * (passes.c), so its samples take one corner column each */
    static const int corner_steps[] = {8, 16, 40, 0};
    check_samples(NULL, "minecraft:overworld", 42, -160, -96, 160, corner_steps);
}

Test(maps, samples_equal_full_heights_vanilla_overworld)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    static const int steps[] = {4, 16, 23, 0};
    check_samples(pack, "minecraft:overworld", 1, 1000, -300, 64, steps);
}

/* from step 8 on, samples on interpolation-cell corner columns (x, z multiples of 4) take
 * one corner column each (heights.c corner_region) instead of their 2 x 2: equal to the full
 * heights; steps 8, 12 and 20 aligned (the corner path), 9 and an unaligned origin (the
 * 2 x 2 path) beside them, the whole 26.3 overworld and the nether (other cells, 8 wide
 * and its roof) */
Test(maps, corner_samples_equal_full_heights_vanilla)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    static const int steps[] = {8, 12, 20, 9, 0};
    check_samples(pack, "minecraft:overworld", 0, -48, 160, 64, steps);
    check_samples(pack, "minecraft:overworld", 0, -47, 162, 40, steps);
    check_samples(pack, "minecraft:nether", 5, 32, -64, 48, steps);
    /* a program with the noise stage's blocks holds the aquifer's interpolated nodes too (one
     * 16 x 1 cell node whose input is not finite-safe); the final density reads none of them,
     * so its samples take the corner path there too (heights.c corner_exact: the nodes under
     * the output; tests/test_maps.c http.served_tiles_are_the_tiles_command_bytes_at_its_cost
     * checks the cost) and equal the full heights */
    world_blocks = 1;
    check_samples(pack, "minecraft:overworld", 3, 80, -208, 48, steps);
    world_blocks = 0;
}

Test(maps, samples_equal_full_heights_libnoise)
{
    static const int steps[] = {3, 16, 0};
    check_samples(CF_SOURCE_DIR "/packs/libnoise-obsidian", "minecraft:overworld", 3, -40, 8, 48, steps);
}

Test(maps, samples_bad_arguments)
{
    cf_program *pg;
    cf_world *w = world(NULL, "minecraft:overworld", 1, &pg);
    int32_t h[4];
    cf_error err = {0};
    cr_assert_eq(cf_surface_samples(w, 0, 0, 0, 0, 2, 2, INT32_MAX, h, 1, &err), CF_ERR_ARG);
    cr_assert_eq(cf_surface_samples(w, 0, 0, 0, 1, 0, 2, INT32_MAX, h, 1, &err), CF_ERR_ARG);
    cr_assert_eq(cf_surface_samples(w, 0, 2100000000, 0, 100000000, 2, 2, INT32_MAX, h, 1, &err), CF_ERR_ARG);
    cr_assert_eq(cf_surface_samples(w, 0, 0, 0, 1 << 30, 4, 1, INT32_MAX, h, 1, &err), CF_ERR_ARG);
    cf_world_free(w);
    cf_program_free(pg);
}

/* Sampled columns against whole chunks: at the columns of a zoomed-out map (steps 4 and 8 on cell
 * corners, 13 lone columns: the paths that skip the rows their column bounds rule out,
 * host/cpu/bounds.c) the height of cf_map_columns_get is the top block with density > 0 of
 * the chunk cf_fill_chunks fills there (what `fill` writes), and its biome is cf_biomes_blocks
 * at that block (`biome --at`). Several seeds, beyond 1,000,000, the 26.3 and 1.21.11
 * overworlds and a pack with its own biome source (tests/packs/biome-inline). */
static void check_sampled_columns(const char *pack, const char *dimension, const char *settings, int64_t seed,
                                  int32_t x0, int32_t z0, int32_t step, int32_t n)
{
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_biomes *b;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, dimension, dimension ? NULL : settings, NULL, seed, &err), CF_OK, "%s", err.message);
    int min_y, height, bmin, bh, f64 = cf_program_precision(pg) == 64;
    cf_program_settings(pg, &min_y, &height, NULL);
    cf_biomes_range(b, &bmin, &bh);
    size_t np = (size_t)n * (size_t)n;
    int32_t *h = malloc(sizeof(int32_t) * np);
    uint8_t *bio = malloc(np);
    void *chunk = malloc((size_t)height * 256 * 8);
    cf_map_columns cols = {h, NULL, bio, NULL, NULL};
    cr_assert_eq(cf_map_columns_get(w, b, x0, z0, step, n, n, INT32_MAX, &cols, 2, &err), CF_OK, "%s", err.message);
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(b, names);
    int land = 0;
    for (int32_t k = 0; k < n; k++)
        for (int32_t i = 0; i < n; i++) {
            int32_t x = x0 + i * step, z = z0 + k * step, c[2] = {x >> 4, z >> 4}, want = min_y - 1;
            cr_assert_eq(cf_fill_chunks(w, 0, 1, c, chunk, 1, &err), CF_OK, "%s", err.message);
            for (int32_t y = height - 1; y >= 0 && want < min_y; y--) {
                size_t o = ((size_t)y * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15);
                if (f64 ? ((double *)chunk)[o] > 0.0 : ((float *)chunk)[o] > 0.0f) want = min_y + y;
            }
            size_t o = (size_t)k * (size_t)n + (size_t)i;
            cr_assert_eq(h[o], want, "%s seed %lld step %d: column (%d, %d) height %d, the chunk's top block %d",
                         settings, (long long)seed, step, x, z, h[o], want);
            land += want > min_y + height / 4;
            int32_t xyz[3] = {x, want < bmin ? bmin : want > bmin + bh - 1 ? bmin + bh - 1 : want, z};
            uint8_t v;
            cr_assert_eq(cf_biomes_blocks(b, 1, xyz, &v, &err), CF_OK, "%s", err.message);
            cr_assert_str_eq(names[bio[o]], names[v], "%s column (%d, %d): biome", settings, x, z);
        }
    cr_assert_gt(land, 0, "%s: some columns have terrain", settings);
    free(h), free(bio), free(chunk);
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(maps, sampled_columns_equal_whole_chunks)
{
    char v263[1024], v121[1024];
    snprintf(v263, sizeof v263, "%s/vanilla/26.3", shared_dir());
    snprintf(v121, sizeof v121, "%s/vanilla/1.21.11", shared_dir());
    struct stat sb;
    if (stat(v263, &sb) != 0) shared_missing(v263);
    if (stat(v121, &sb) != 0) shared_missing(v121);
    check_sampled_columns(v263, NULL, "minecraft:overworld", 0, -256, 512, 8, 10);           /* corner columns */
    check_sampled_columns(v263, NULL, "minecraft:overworld", 0, -228, 540, 4, 12);           /* corner columns, step 4 */
    check_sampled_columns(v263, NULL, "minecraft:overworld", 12345, 1000003, -1200001, 13, 8); /* lone columns, far */
    check_sampled_columns(v263, NULL, "minecraft:overworld", -987654321, -2000000, 3000000, 64, 6);
    /* hills beside plains 64 blocks apart: a sample's spans proven lower than its neighbour's
     * surface (the span hint of heights.c must be proven, not trusted) */
    check_sampled_columns(v263, NULL, "minecraft:overworld", 0, 0, 768, 64, 6);
    /* a column whose spans old_blended_noise's bound over the rows (bounds.c blended_bound) proves
     * down to just above its surface: a bound that leaves out part of the noise's values fails here */
    check_sampled_columns(v263, NULL, "minecraft:overworld", 0, 2240, 2816, 64, 5);
    check_sampled_columns(v121, NULL, "minecraft:overworld", 7, 1500000, 40, 16, 5);
    /* several cells of a chunk, unaligned (heights.c sampled121: the sampled cells alone) */
    check_sampled_columns(v121, NULL, "minecraft:overworld", -3, -61, 203, 6, 6);
    /* every cell's corner column (fill121.c: the corner column alone where the bounds allow), far; and
     * cells of 4 samples (whole cells) */
    check_sampled_columns(v121, NULL, "minecraft:overworld", -5, -1000000, 2000004, 4, 8);
    check_sampled_columns(v121, NULL, "minecraft:overworld", 11, 1200002, -3000, 2, 6);
    check_sampled_columns(CF_SOURCE_DIR "/tests/packs/biome-inline", "t:by_id", "t:same", 3, -100, 60, 11, 12);
}

/* ------------------------------------------------------------------ the biomes layer */
#include "image/image.h"

/* Blocks and water of sampled columns against whole chunks (the noise stage): at the columns
 * of a zoomed-out map, cf_map_columns_get's block at the height, the fluid directly above it
 * and the fluid's top, and the water layer's pixels, equal what the chunk cf_fill_blocks fills
 * there gives (what `fill --blocks --stage noise` writes). 26.3 takes one column at a time
 * (host/cpu/colblocks.c: the aquifer and the density of the rows it reads), 1.21.11 whole
 * chunks. want_fluid: the area has columns under a fluid (the aquifer's decisions are met). */
/* a fluid of a block palette (cf_block_palette's names: its indices move with the settings) */
static int fluid_name(const char *const *names, int v)
{
    return strcmp(names[v], "minecraft:water") == 0 || strcmp(names[v], "minecraft:lava") == 0;
}

static void check_sampled_blocks(const char *pack, const char *settings, int64_t seed, int32_t x0, int32_t z0, int32_t step,
                                 int32_t n, int32_t below, int want_fluid)
{
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, settings, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    int min_y, height, sea;
    cf_program_settings(pg, &min_y, &height, &sea);
    const char *names[CF_PALETTE_MAX];
    cf_block_palette(pg, names);
    size_t np = (size_t)n * (size_t)n;
    int32_t *h = malloc(sizeof(int32_t) * np), *ft = malloc(sizeof(int32_t) * np), *hd = malloc(sizeof(int32_t) * np);
    int32_t *ground = malloc(sizeof(int32_t) * np), *top = malloc(sizeof(int32_t) * np);
    uint8_t *blk = malloc(np), *fl = malloc(np), *kind = malloc(np), *rgb = malloc(3 * np), *want = malloc(3 * np);
    uint8_t *chunk = malloc((size_t)height * 256);
    cf_map_columns cols = {h, blk, NULL, fl, ft};
    cr_assert_eq(cf_map_columns_get(w, NULL, x0, z0, step, n, n, below, &cols, 2, &err), CF_OK, "%s", err.message);
    int layer = cf_map_layer_find("water");
    cr_assert_eq(cf_map_draw(w, layer, x0, z0, step, n, n, below, rgb, hd, 2, &err), CF_OK, "%s", err.message);
    int fluids = 0;
    for (int32_t k = 0; k < n; k++)
        for (int32_t i = 0; i < n; i++) {
            int32_t x = x0 + i * step, z = z0 + k * step, c[2] = {x >> 4, z >> 4};
            size_t o = (size_t)k * (size_t)n + (size_t)i;
            cr_assert_eq(cf_fill_blocks(w, 1, c, chunk, 1, &err), CF_OK, "%s", err.message);
#define AT(y) chunk[((size_t)((y) - min_y) * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15)]
            /* the block at the height, the fluid above it and its top */
            int wb = h[o] >= min_y ? AT(h[o]) : 1, wf = 1;
            int32_t wt = min_y - 1;
            for (int32_t y = h[o] + 1 < min_y ? min_y : h[o] + 1; y < min_y + height; y++) {
                int v = AT(y);
                if (!fluid_name(names, v)) break;
                if (wf == 1) wf = v;
                wt = y;
            }
            cr_assert_eq(blk[o], wb, "%s seed %lld step %d: column (%d, %d): block at %d is %d, the chunk's %d", settings,
                         (long long)seed, step, x, z, h[o], blk[o], wb);
            cr_assert_eq(fl[o], wf, "%s column (%d, %d): fluid %d, the chunk's %d", settings, x, z, fl[o], wf);
            cr_assert_eq(ft[o], wt, "%s column (%d, %d): fluid top %d, the chunk's %d", settings, x, z, ft[o], wt);
            /* the water layer's column: the first block that is not air from `below` down */
            int32_t ymax = min_y + height - 1 < below ? min_y + height - 1 : below, fluid = -1;
            ground[o] = top[o] = min_y - 1, kind[o] = IMAGE_VOID;
            for (int32_t y = ymax; y >= min_y; y--) {
                int v = AT(y);
                if (v == 1) {
                    if (fluid >= 0) break;
                    continue;
                }
                if (!fluid_name(names, v)) {
                    ground[o] = y;
                    if (fluid < 0) top[o] = y, kind[o] = IMAGE_LAND;
                    break;
                }
                if (fluid < 0) fluid = v, top[o] = y, kind[o] = v == 3 ? IMAGE_LAVA : IMAGE_WATER;
                ground[o] = y - 1;
            }
#undef AT
            fluids += fl[o] != 1 || kind[o] != IMAGE_LAND;
        }
    image_relief_fluids(ground, top, kind, n, n, min_y, height, sea, want);
    for (size_t o = 0; o < np; o++)
        cr_assert_eq(memcmp(rgb + 3 * o, want + 3 * o, 3), 0, "%s water layer pixel (%zu, %zu): top %d ground %d kind %d",
                     settings, o % (size_t)n, o / (size_t)n, top[o], ground[o], kind[o]);
    if (want_fluid) cr_assert_gt(fluids, 0, "%s seed %lld at (%d, %d): the area has fluids", settings, (long long)seed, x0, z0);
    /* /at of one column (the per-column path at any step) */
    cf_map_column_info info;
    cr_assert_eq(cf_map_column(w, x0 + step, z0 + 2 * step, &info, &err), CF_OK, "%s", err.message);
    size_t o = 2 * (size_t)n + 1;
    if (below == INT32_MAX) {
        cr_assert_eq(info.height, h[o]);
        cr_assert_str_eq(info.block ? info.block : "", h[o] >= min_y ? names[blk[o]] : "");
        cr_assert_str_eq(info.fluid ? info.fluid : "", fl[o] != 1 ? names[fl[o]] : "");
        cr_assert_eq(info.fluid_top, ft[o]);
    }
    free(h), free(ft), free(hd), free(ground), free(top), free(blk), free(fl), free(kind), free(rgb), free(want), free(chunk);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(maps, sampled_blocks_equal_whole_chunks)
{
    char v263[1024], v121[1024];
    snprintf(v263, sizeof v263, "%s/vanilla/26.3", shared_dir());
    snprintf(v121, sizeof v121, "%s/vanilla/1.21.11", shared_dir());
    struct stat sb;
    if (stat(v263, &sb) != 0) shared_missing(v263);
    if (stat(v121, &sb) != 0) shared_missing(v121);
    check_sampled_blocks(v263, "minecraft:overworld", 0, -256, 512, 8, 10, INT32_MAX, 1);
    check_sampled_blocks(v263, "minecraft:overworld", 12345, 1000003, -1200001, 13, 8, INT32_MAX, 1);
    check_sampled_blocks(v263, "minecraft:overworld", -987654321, -2000000, 3000000, 64, 6, INT32_MAX, 1);
    check_sampled_blocks(v263, "minecraft:overworld", 0, -213, 555, 4, 8, INT32_MAX, 1); /* a shore, 4 blocks apart */
    /* the middle columns have a block above their height where the aquifer's barrier test at
     * density 0 gives stone and the real density air (1136, 54, 688) or water (2768, 62, 1792):
     * colblocks.c computes the density there */
    check_sampled_blocks(v263, "minecraft:overworld", 0, 1136 - 16, 688 - 16, 16, 3, INT32_MAX, 0);
    check_sampled_blocks(v263, "minecraft:overworld", 0, 2768 - 16, 1792 - 16, 16, 3, INT32_MAX, 0);
    /* under the surface (render --below): caves, where the aquifer's levels, barriers and lava decide */
    check_sampled_blocks(v263, "minecraft:overworld", 0, -256, 512, 8, 10, 10, 0); /* dry caves below sea level */
    check_sampled_blocks(v263, "minecraft:overworld", 12345, 1000003, -1200001, 5, 12, -20, 1);
    check_sampled_blocks(v263, "minecraft:nether", 5, 32, -64, 16, 6, 100, 0);
    check_sampled_blocks(v121, "minecraft:overworld", 7, 1500000, 40, 16, 5, INT32_MAX, 0);
}

/* the colour of a biome id in ../shared/vanilla/biomes/colors.json (dappled_forest, which
 * has none there: chunkfill's #5a8a3c, docs/maps.md) */
static void json_colour(const char *json, const char *id, uint8_t rgb[3])
{
    unsigned r, g, b;
    if (strcmp(id, "minecraft:dappled_forest") == 0) {
        rgb[0] = 0x5a, rgb[1] = 0x8a, rgb[2] = 0x3c;
        return;
    }
    char key[200];
    snprintf(key, sizeof key, "\"%s\": \"#", id);
    const char *p = strstr(json, key);
    cr_assert_not_null(p, "%s has no colour in colors.json", id);
    cr_assert_eq(sscanf(p + strlen(key), "%2x%2x%2x", &r, &g, &b), 3);
    rgb[0] = (uint8_t)r, rgb[1] = (uint8_t)g, rgb[2] = (uint8_t)b;
}

/* the biomes layer's pixels = colors.json's colour of the biome cf_biomes_blocks gives,
 * one query per pixel at (x, surface height clamped into the source's y range, z), shaded
 * by the heights (image_shade: the shading aside); heights = cf_surface_samples */
static void check_biomes_layer(const char *pack, const char *settings, int64_t seed, int32_t x0, int32_t z0,
                               int32_t step, int32_t n, int32_t below, int min_distinct)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/vanilla/biomes/colors.json", shared_dir());
    FILE *f = fopen(path, "r");
    if (!f) shared_missing(path);
    static char json[1 << 16];
    size_t jl = fread(json, 1, sizeof json - 1, f);
    json[jl] = 0;
    fclose(f);
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_biomes *b;
    cr_assert_eq(cf_pack_open(&pk, paths, pack ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, settings, NULL, seed, &err), CF_OK, "%s", err.message);
    int layer = cf_map_layer_find("biomes"), needs = 0, sea, min_y, bmin, bh;
    cr_assert(layer >= 0);
    cf_map_layer(layer, &needs, NULL);
    cr_assert(needs & CF_MAP_BIOMES);
    cf_program_settings(pg, &min_y, NULL, &sea);
    cf_biomes_range(b, &bmin, &bh);
    size_t np = (size_t)n * (size_t)n;
    uint8_t *rgb = malloc(np * 3), *base = malloc(np * 3), *want = malloc(np * 3);
    int32_t *h = malloc(sizeof(int32_t) * np), *h2 = malloc(sizeof(int32_t) * np);
    cr_assert_eq(cf_map_draw(w, layer, x0, z0, step, n, n, below, rgb, h, 2, &err), CF_ERR_ARG, "without a biome source");
    cr_assert_eq(cf_map_draw_biomes(w, b, layer, x0, z0, step, n, n, below, rgb, h, 2, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_surface_samples(w, 0, x0, z0, step, n, n, below, h2, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(memcmp(h, h2, sizeof(int32_t) * np), 0, "the layer's heights are cf_surface_samples'");
    const char *names[CF_BIOME_PALETTE_MAX];
    int npal = cf_biomes_palette(b, names), seen[CF_BIOME_PALETTE_MAX] = {0}, distinct = 0;
    for (int32_t k = 0; k < n; k++)
        for (int32_t i = 0; i < n; i++) {
            size_t o = (size_t)k * (size_t)n + (size_t)i;
            int32_t y = h[o] < bmin ? bmin : h[o] > bmin + bh - 1 ? bmin + bh - 1 : h[o];
            int32_t xyz[3] = {x0 + i * step, y, z0 + k * step};
            uint8_t v;
            cr_assert_eq(cf_biomes_blocks(b, 1, xyz, &v, &err), CF_OK, "%s", err.message);
            cr_assert(v < npal);
            if (!seen[v]++) distinct++;
            json_colour(json, names[v], base + 3 * o);
        }
    image_shade(h, base, n, n, sea, want);
    for (size_t o = 0; o < np; o++)
        if (h[o] < min_y) memcpy(want + 3 * o, image_void_rgb, 3); /* the End's void: no blocks, not the biome's colour */
    for (size_t o = 0; o < np; o++)
        cr_assert_eq(memcmp(rgb + 3 * o, want + 3 * o, 3), 0, "%s pixel (%zu, %zu): %d,%d,%d, want %d,%d,%d", settings,
                     o % (size_t)n, o / (size_t)n, rgb[3 * o], rgb[3 * o + 1], rgb[3 * o + 2], want[3 * o],
                     want[3 * o + 1], want[3 * o + 2]);
    cr_assert_geq(distinct, min_distinct, "%s: %d biomes in the area (the test needs a border)", settings, distinct);
    /* cf_map_column_biomes (/at) answers the pixel's biome */
    cf_map_column_info c;
    cr_assert_eq(cf_map_column_biomes(w, b, x0 + 3 * step, z0 + 5 * step, &c, &err), CF_OK, "%s", err.message);
    int32_t y = c.height < bmin ? bmin : c.height > bmin + bh - 1 ? bmin + bh - 1 : c.height, xyz[3] = {x0 + 3 * step, y, z0 + 5 * step};
    uint8_t v;
    cr_assert_eq(cf_biomes_blocks(b, 1, xyz, &v, &err), CF_OK);
    cr_assert_str_eq(c.biome, names[v]);
    free(rgb), free(base), free(want), free(h), free(h2);
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(maps, biomes_layer_is_the_colour_of_the_surface_biome)
{
    check_biomes_layer(NULL, "minecraft:overworld", 0, -700, -650, 4, 40, INT32_MAX, 3);
    check_biomes_layer(NULL, "minecraft:overworld", 7, 1001, -33, 1, 24, INT32_MAX, 1); /* 1:1, unaligned */
}

Test(maps, biomes_layer_nether_and_end)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    check_biomes_layer(pack, "minecraft:nether", 3, -200, -200, 8, 48, 100, 2);
    check_biomes_layer(pack, "minecraft:end", 3, -1100, -1100, 8, 40, INT32_MAX, 2); /* islands and void */
}

/* ------------------------------------------------------------------ the blocks layer, columns */

/* a block world (cf_program_compile_blocks) and its biome source */
/* a block world of pack (and `extra` over it, may be NULL) and its biome source: the settings'
 * (dimension NULL) or the dimension file's */
static cf_world *block_world_dim(const char *pack, const char *extra, const char *dimension, const char *settings, int64_t seed,
                                 cf_program **pg, cf_biomes **b)
{
    const char *paths[2] = {pack, extra};
    cf_error err = {0};
    cf_pack *pk;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, !pack ? 0 : extra ? 2 : 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(pg, pk, settings, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, *pg, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(b, pk, dimension, dimension ? NULL : settings, NULL, seed, &err), CF_OK, "%s", err.message);
    cf_pack_free(pk);
    return w;
}
static cf_world *block_world(const char *pack, const char *settings, int64_t seed, cf_program **pg, cf_biomes **b)
{
    return block_world_dim(pack, NULL, NULL, settings, seed, pg, b);
}

/* the surface stage's blocks of the chunk holding column (x, z): a cache of 128 chunks */
typedef struct chunk_cache {
    int n;
    int32_t key[128][2];
    uint8_t *b[128];
} chunk_cache;
static const uint8_t *chunk_of(const cf_world *w, cf_biomes *b, int height, int32_t x, int32_t z, chunk_cache *cc)
{
    int32_t c[2] = {x >> 4, z >> 4};
    for (int i = 0; i < cc->n; i++)
        if (cc->key[i][0] == c[0] && cc->key[i][1] == c[1]) return cc->b[i];
    cr_assert_lt(cc->n, 128, "the test's area holds more than 128 chunks");
    cf_error err = {0};
    uint8_t *buf = malloc((size_t)height * 256);
    cr_assert_eq(cf_fill_blocks_surface(w, b, 1, c, buf, 1, &err), CF_OK, "%s", err.message);
    cc->key[cc->n][0] = c[0], cc->key[cc->n][1] = c[1];
    return cc->b[cc->n++] = buf;
}
static void chunk_cache_free(chunk_cache *cc)
{
    for (int i = 0; i < cc->n; i++) free(cc->b[i]);
}

/* the blocks layer's pixels = the colour table's colour of the top block that is not air of
 * cf_fill_blocks_surface (what `fill --blocks --stage surface` writes) at the pixel's column,
 * shaded by those top blocks' y (image_shade); the shading aside, a noise-stage map (stone) or
 * a wrong column fails */
static void check_blocks_layer_dim(const char *pack, const char *extra, const char *dimension, const char *settings, int64_t seed,
                                   int32_t x0, int32_t z0, int32_t step, int32_t n, int min_distinct, int per_column)
{
    cf_program *pg;
    cf_biomes *b;
    cf_world *w = block_world_dim(pack, extra, dimension, settings, seed, &pg, &b);
    cf_error err = {0};
    cr_assert(cf_program_has_surface(pg), "%s has a surface stage", settings);
    int layer = cf_map_layer_find("blocks"), needs = 0, min_y, height, sea;
    cr_assert(layer >= 0);
    cf_map_layer(layer, &needs, NULL);
    cr_assert_eq(needs, CF_MAP_BLOCKS | CF_MAP_BIOMES | CF_MAP_SURFACE);
    cf_program_settings(pg, &min_y, &height, &sea);
    const char *names[CF_PALETTE_MAX];
    int nb = cf_block_palette(pg, names);
    size_t np = (size_t)n * (size_t)n;
    uint8_t *rgb = malloc(np * 3), *base = malloc(np * 3), *want = malloc(np * 3);
    int32_t *h = malloc(sizeof(int32_t) * np), *top = malloc(sizeof(int32_t) * np);
    chunk_cache cc = {0};
    cr_assert_eq(cf_map_draw(w, layer, x0, z0, step, n, n, INT32_MAX, rgb, h, 2, &err), CF_ERR_ARG, "without a biome source");
    cf_map_stats ms;
    cr_assert_eq(cf_map_draw_stats(w, b, layer, x0, z0, step, n, n, INT32_MAX, rgb, h, &ms, 2, &err), CF_OK, "%s", err.message);
    cr_assert_eq(ms.unknown_blocks, 0, "%s: a block without a colour: %s", settings, ms.first_unknown);
    if (per_column) /* one column at a time, none through its chunk (a column the path gave up on would hide a bug) */
        cr_assert_eq(ms.chunk_columns, 0, "%s step %d: %llu of %zu columns took their chunk", settings, step,
                     (unsigned long long)ms.chunk_columns, np);
    int seen[CF_PALETTE_MAX] = {0}, distinct = 0;
    for (int32_t k = 0; k < n; k++)
        for (int32_t i = 0; i < n; i++) {
            size_t o = (size_t)k * (size_t)n + (size_t)i;
            int32_t x = x0 + i * step, z = z0 + k * step;
            const uint8_t *c = chunk_of(w, b, height, x, z, &cc);
            int y = height - 1, v = 1;
            for (; y >= 0; y--)
                if ((v = c[((size_t)y * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15)]) != 1) break;
            cr_assert(y >= 0 && v < nb, "a column without blocks");
            top[o] = min_y + y;
            if (!seen[v]++) distinct++;
            cr_assert(image_block_colour(names[v], base + 3 * o), "%s has a colour", names[v]);
        }
    image_shade(top, base, n, n, sea, want);
    for (size_t o = 0; o < np; o++)
        cr_assert_eq(memcmp(rgb + 3 * o, want + 3 * o, 3), 0, "%s pixel (%zu, %zu): %d,%d,%d, want %d,%d,%d", settings,
                     o % (size_t)n, o / (size_t)n, rgb[3 * o], rgb[3 * o + 1], rgb[3 * o + 2], want[3 * o],
                     want[3 * o + 1], want[3 * o + 2]);
    cr_assert_geq(distinct, min_distinct, "%s seed %lld at (%d, %d): %d distinct top blocks (the test needs variety)", settings, (long long)seed, x0, z0, distinct);
    /* /at (cf_map_column_biomes): the surface stage's block at its height */
    for (int t = 0; t < 2; t++) {
        int32_t x = x0 + (t * 7 % n) * step, z = z0 + (t * 11 % n) * step;
        cf_map_column_info ci;
        cr_assert_eq(cf_map_column_biomes(w, b, x, z, &ci, &err), CF_OK, "%s", err.message);
        const uint8_t *c = chunk_of(w, b, height, x, z, &cc);
        int v = c[((size_t)(ci.height - min_y) * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15)];
        cr_assert_str_eq(ci.block, names[v], "/at (%d, %d): %s, the surface stage has %s", x, z, ci.block, names[v]);
    }
    /* cf_map_columns_get (`columns --stride`): the block at the height after the surface stage,
     * the fluid directly above it and its top */
    {
        uint8_t *cb = malloc(np), *cf = malloc(np);
        int32_t *ch = malloc(sizeof(int32_t) * np), *ct = malloc(sizeof(int32_t) * np);
        cf_map_columns cols = {ch, cb, NULL, cf, ct};
        cr_assert_eq(cf_map_columns_get(w, b, x0, z0, step, n, n, INT32_MAX, &cols, 2, &err), CF_OK, "%s", err.message);
        for (int32_t k = 0; k < n; k++)
            for (int32_t i = 0; i < n; i++) {
                size_t o = (size_t)k * (size_t)n + (size_t)i;
                int32_t x = x0 + i * step, z = z0 + k * step, wt = min_y - 1;
                const uint8_t *c = chunk_of(w, b, height, x, z, &cc);
#define AT(y) c[((size_t)((y) - min_y) * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15)]
                int wb = ch[o] >= min_y ? AT(ch[o]) : 1, wf = 1;
                for (int32_t y = ch[o] + 1 < min_y ? min_y : ch[o] + 1; y < min_y + height; y++) {
                    int v = AT(y);
                    if (!fluid_name(names, v)) break;
                    if (wf == 1) wf = v;
                    wt = y;
                }
#undef AT
                cr_assert_eq(cb[o], wb, "%s seed %lld step %d: column (%d, %d): block at %d is %s, the surface stage's %s", settings,
                             (long long)seed, step, x, z, ch[o], names[cb[o]], names[wb]);
                cr_assert_eq(cf[o], wf, "%s column (%d, %d): fluid %d, the chunk's %d", settings, x, z, cf[o], wf);
                cr_assert_eq(ct[o], wt, "%s column (%d, %d): fluid top %d, the chunk's %d", settings, x, z, ct[o], wt);
            }
        free(cb), free(cf), free(ch), free(ct);
    }
    chunk_cache_free(&cc);
    free(rgb), free(base), free(want), free(h), free(top);
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
}

static void check_blocks_layer(const char *pack, const char *settings, int64_t seed, int32_t x0, int32_t z0, int32_t step,
                               int32_t n, int min_distinct, int per_column)
{
    check_blocks_layer_dim(pack, NULL, NULL, settings, seed, x0, z0, step, n, min_distinct, per_column);
}

/* vanilla 26.3 (the embedded default pack has no surface rule) */
static const char *vanilla263(void)
{
    static char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    return pack;
}

Test(maps, blocks_layer_is_the_colour_of_the_surface_stage_top_block)
{
    const char *pack = vanilla263();
    check_blocks_layer(pack, "minecraft:overworld", 0, -8, -30, 1, 24, 2, 0);  /* 1:1, across chunk borders: river and grass */
    check_blocks_layer(pack, "minecraft:overworld", 0, -300, 200, 37, 3, 1, 1); /* a sample per chunk */
}

/* cf_map_draw_progress (render's progress line): the same bytes as cf_map_draw_stats with 2
 * threads, and each stage's reports count up to its total, from the caller's thread only: the
 * heights in bands (relief, biomes), biome rows, the blocks of chunk batches (1:1) and of one
 * column at a time (8 blocks a sample) */
typedef struct seen_progress {
    pthread_t caller;
    int calls, bad, ended;
    char stages[64];
    const char *stage;
    int64_t done;
} seen_progress;
static void seen(void *ctx, const char *stage, int64_t done, int64_t total)
{
    seen_progress *s = ctx;
    s->calls++;
    if (!pthread_equal(pthread_self(), s->caller)) s->bad |= 1;
    if (s->stage && strcmp(s->stage, stage) == 0 && done < s->done) s->bad |= 2; /* went back */
    if (!s->stage || strcmp(s->stage, stage) != 0) snprintf(s->stages + strlen(s->stages), 64 - strlen(s->stages), "%s ", stage);
    if (done > total || total <= 0) s->bad |= 4;
    s->ended += done == total;
    s->stage = stage, s->done = done;
}
Test(maps, progress_hook_changes_no_byte)
{
    const char *pack = vanilla263();
    cf_program *pg;
    cf_biomes *b;
    cf_world *w = block_world(pack, "minecraft:overworld", 3, &pg, &b);
    static const struct {
        const char *layer, *stages;
        int32_t x0, z0, step, nx, nz;
    } cases[] = {{"relief", "heights ", -70, 20, 4, 40, 30},
                 {"biomes", "heights biomes ", 100, -50, 2, 30, 20},
                 {"blocks", "blocks ", -20, -10, 1, 24, 20},
                 {"blocks", "heights blocks ", 500, 300, 8, 12, 10}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = (size_t)cases[i].nx * (size_t)cases[i].nz;
        uint8_t *a = malloc(3 * n), *c = malloc(3 * n);
        int32_t *ha = malloc(4 * n), *hc = malloc(4 * n);
        cf_map_stats sa, sc;
        cf_error err = {0};
        int layer = cf_map_layer_find(cases[i].layer);
        cr_assert_eq(cf_map_draw_stats(w, b, layer, cases[i].x0, cases[i].z0, cases[i].step, cases[i].nx, cases[i].nz, INT32_MAX, a,
                                       ha, &sa, 2, &err), CF_OK, "%s", err.message);
        seen_progress s = {.caller = pthread_self()};
        cr_assert_eq(cf_map_draw_progress(w, b, layer, cases[i].x0, cases[i].z0, cases[i].step, cases[i].nx, cases[i].nz, INT32_MAX,
                                          c, hc, &sc, 2, seen, &s, &err), CF_OK, "%s", err.message);
        cr_assert(memcmp(a, c, 3 * n) == 0 && memcmp(ha, hc, 4 * n) == 0, "%s 1:%d: the pixels differ with a progress hook",
                  cases[i].layer, cases[i].step);
        cr_assert_eq(sa.unknown_blocks, sc.unknown_blocks);
        cr_assert_eq(s.bad, 0, "%s 1:%d: bad reports (%d)", cases[i].layer, cases[i].step, s.bad);
        cr_assert_str_eq(s.stages, cases[i].stages, "%s 1:%d", cases[i].layer, cases[i].step);
        cr_assert_geq(s.ended, 1, "%s 1:%d: no stage reported its end", cases[i].layer, cases[i].step);
        free(a), free(c), free(ha), free(hc);
    }
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
}

/* Sampled columns after the surface stage against whole chunks: the blocks layer, columns and
 * /at of zoomed-out maps, which take one column at a time on 26.3 (host/cpu/colblocks.c and
 * surface.c surface_column: the aquifer, the rules down to the height, the neighbours' heights
 * `steep` reads, the stored biomes of the quarts the zoom reads), equal cf_fill_blocks_surface
 * (`fill --blocks --stage surface`) there: several seeds, beyond 1,000,000, 1.21.11 (whole
 * chunks), our own biome source over vanilla's rules (tests/packs/own-biomes: icebergs,
 * pillars, sand over sandstone, steep peaks, swamp water) and our own surface rule that makes
 * the top block air (tests/packs/air-floor); none of the sampled 26.3 columns from 8 blocks a
 * sample on takes its chunk (cf_map_stats' chunk_columns) */
Test(maps, sampled_surface_blocks_equal_whole_chunks)
{
    const char *pack = vanilla263();
    char v121[1024];
    snprintf(v121, sizeof v121, "%s/vanilla/1.21.11", shared_dir());
    struct stat sb;
    if (stat(v121, &sb) != 0) shared_missing(v121);
    check_blocks_layer(pack, "minecraft:overworld", 0, -213, 555, 4, 8, 2, 0);           /* a shore, 4 blocks apart */
    check_blocks_layer(pack, "minecraft:overworld", 12345, 1000003, -1200001, 13, 8, 1, 1);
    check_blocks_layer(pack, "minecraft:overworld", -987654321, -2000000, 3000000, 64, 6, 2, 1); /* a beach's sand */
    check_blocks_layer(pack, "minecraft:overworld", 7, 4096, -8192, 256, 6, 3, 1);       /* a sample per 16 chunks */
    /* `steep` decides the top block of (3040, -2784) (the middle sample; with the column's own
     * height for its neighbours' it differs; a search of 65,536 samples of seed 0 found two) */
    check_blocks_layer(pack, "minecraft:overworld", 0, 3031, -2793, 9, 3, 1, 1);
    /* quarts whose leaves tie ((75, 15, 3), (75, 11, 7), seed 0): their chunk's stored biomes
     * decide (map.c tied_quart), the columns stay per column */
    check_blocks_layer(pack, "minecraft:overworld", 0, 288, 0, 16, 3, 1, 1);
    check_blocks_layer_dim(pack, CF_SOURCE_DIR "/tests/packs/own-biomes", "minecraft:overworld", "minecraft:overworld", 1, -600,
                           -600, 48, 9, 3, 1);
    check_blocks_layer_dim(pack, CF_SOURCE_DIR "/tests/packs/own-biomes", "minecraft:overworld", "minecraft:overworld", 1, 1500017,
                           -300, 7, 8, 2, 0);
    /* a rule's air over the top block uncovers the block below the height (tests/packs/air-floor) */
    check_blocks_layer_dim(pack, CF_SOURCE_DIR "/tests/packs/air-floor", NULL, "minecraft:overworld", 3, -700, 300, 11, 6, 2, 1);
    check_blocks_layer(v121, "minecraft:overworld", 7, 1500000, 40, 16, 5, 1, 0);
}

Test(maps, blocks_table_is_sorted_and_knows_the_vanilla_surface_blocks)
{
    for (size_t i = 1; image_block_colour_id(i); i++)
        cr_assert_lt(strcmp(image_block_colour_id(i - 1), image_block_colour_id(i)), 0, "row %zu out of order", i);
    static const char *const must[] = {"minecraft:grass_block[snowy=false]", "minecraft:podzol", "minecraft:sand",
                                       "minecraft:red_sand", "minecraft:white_terracotta", "minecraft:netherrack",
                                       "minecraft:warped_nylium", "minecraft:end_stone", "minecraft:water", "minecraft:lava"};
    uint8_t rgb[3];
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) cr_assert(image_block_colour(must[i], rgb), "%s", must[i]);
    cr_assert_not(image_block_colour("minecraft:stone_bricks", rgb));
    cr_assert_not(image_block_colour("minecraft:ston", rgb));
    cr_assert(rgb[0] == 255 && rgb[1] == 0 && rgb[2] == 255, "unknown: magenta");
}

/* columns (cf_map_columns_get) equal /at (cf_map_column_biomes) at every sampled column, and
 * their heights render --heights' (cf_surface_samples); depth follows the fluid */
Test(maps, columns_equal_at_and_the_fill)
{
    cf_program *pg;
    cf_biomes *b;
    cf_world *w = block_world(vanilla263(), "minecraft:overworld", 0, &pg, &b);
    cf_error err = {0};
    enum { N = 3 };
    const int32_t x0 = -40, z0 = -30, step = 19; /* across the river of seed 0 */
    int32_t height[N * N], ftop[N * N], h2[N * N];
    uint8_t block[N * N], biome[N * N], fluid[N * N];
    cf_map_columns c = {height, block, biome, fluid, ftop};
    cr_assert_eq(cf_map_columns_get(w, b, x0, z0, step, N, N, INT32_MAX, &c, 2, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_surface_samples(w, 0, x0, z0, step, N, N, INT32_MAX, h2, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(memcmp(height, h2, sizeof height), 0);
    const char *bn[CF_PALETTE_MAX], *bion[CF_BIOME_PALETTE_MAX];
    cf_block_palette(pg, bn);
    cf_biomes_palette(b, bion);
    int wet = 0;
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++) {
            int o = k * N + i;
            cf_map_column_info ci;
            cr_assert_eq(cf_map_column_biomes(w, b, x0 + i * step, z0 + k * step, &ci, &err), CF_OK, "%s", err.message);
            cr_assert_eq(ci.height, height[o]);
            cr_assert_str_eq(ci.block, bn[block[o]]);
            cr_assert_str_eq(ci.biome, bion[biome[o]]);
            cr_assert_eq(ci.fluid_top, ftop[o]);
            if (ci.fluid) {
                cr_assert_str_eq(ci.fluid, bn[fluid[o]]);
                wet++;
            }
            else cr_assert_eq(fluid[o], 1, "no fluid: air");
        }
    cr_assert(wet > 0 && wet < N * N, "%d of %d columns under water (the test needs both)", wet, N * N);
    /* a column without a block program: CF_ERR_ARG for blocks, heights alone work */
    cf_map_columns hc = {h2, NULL, NULL, NULL, NULL};
    cr_assert_eq(cf_map_columns_get(w, NULL, x0, z0, step, N, N, INT32_MAX, &hc, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_map_columns_get(w, NULL, x0, z0, step, N, N, INT32_MAX, &c, 1, &err), CF_ERR_ARG, "biomes without a source");
    cr_assert_eq(cf_map_columns_get(w, b, x0, z0, 0, N, N, INT32_MAX, &c, 1, &err), CF_ERR_ARG, "step 0");
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
}

/* the server's COLUMNS kind (`serve --biomes`, cf_client_columns) equals cf_map_columns_get: a
 * chunk's columns (stride 1) and a cell of 16 x 16 columns 3 blocks apart; a second seed (stride 1) */
Test(maps, columns_server_kind_equals_the_library)
{
    const char *pack = vanilla263();
    char sock[128];
    snprintf(sock, sizeof sock, "unix:/tmp/cf-maps-cols-%ld.sock", (long)getpid());
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 2);
        execl(CF_BINARY, CF_BINARY, "serve", "--pack", pack, "--settings", "minecraft:overworld", "--listen", sock, "--device", "cpu",
              "--biomes", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    char line[256] = "";
    int up = 0;
    while (!up && fgets(line, sizeof line, f)) up = strncmp(line, "listening on ", 13) == 0;
    fclose(f);
    cr_assert(up, "the server did not start");
    cf_client *cl = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_client_connect(&cl, sock, NULL, &err), CF_OK, "%s", err.message);
    static cf_client_column got[2 * 256];
    static int32_t h[256], ft[256];
    static uint8_t bl[256], fl[256], bi[256];
    for (int k = 0; k < 2; k++) {
        int64_t seed = k ? -5 : 0;
        cf_program *pg;
        cf_biomes *b;
        cf_world *w = block_world(pack, "minecraft:overworld", seed, &pg, &b);
        const char *names[CF_PALETTE_MAX], *mine[CF_PALETTE_MAX];
        int n = cf_client_palette(cl, "minecraft:overworld", names);
        cr_assert_eq(n, cf_block_palette(pg, mine));
        int32_t cells[4] = {-2, -1, -1, 0};
        cr_assert_eq(cf_client_columns(cl, "minecraft:overworld", seed, 1, 1, cells, got, &err), CF_OK, "%s", err.message);
        if (k == 0)
            cr_assert_eq(cf_client_columns(cl, "minecraft:overworld", seed, 3, 1, cells + 2, got + 256, &err), CF_OK, "%s", err.message);
        for (int c = 0; c < 2 - k; c++) {
            int step = c ? 3 : 1;
            cf_map_columns cols = {h, bl, bi, fl, ft};
            cr_assert_eq(cf_map_columns_get(w, b, cells[2 * c] * 16 * step, cells[2 * c + 1] * 16 * step, step, 16, 16, INT32_MAX, &cols,
                                            2, &err),
                         CF_OK, "%s", err.message);
            for (int i = 0; i < 256; i++) {
                const cf_client_column *g = &got[c * 256 + i];
                cr_assert(g->height == h[i] && g->fluid_top == ft[i] && g->block == bl[i] && g->fluid == fl[i] && g->biome == bi[i],
                          "seed %lld cell %d column %d: server %d %d %d %d %d, library %d %d %d %d %d", (long long)seed, c, i,
                          g->height, g->fluid_top, g->block, g->fluid, g->biome, h[i], ft[i], bl[i], fl[i], bi[i]);
            }
        }
        if (k == 1) { /* the Java client's fillColumns (javac is a dependency, as for test_serve): the same columns */
            char cmd[2048];
            snprintf(cmd, sizeof cmd, "d=$(mktemp -d) && javac -Xlint:all -Werror -d $d %s/host/net/clients/java/chunkfill/*.java 2>&1 && "
                                      "java -cp $d chunkfill.Main --columns 1 %s minecraft:overworld -5 -2,-1:-2,-1 2>&1; rm -rf $d",
                     CF_SOURCE_DIR, sock);
            FILE *j = popen(cmd, "r");
            cr_assert(j);
            const char *bion[CF_BIOME_PALETTE_MAX];
            cf_biomes_palette(b, bion);
            int lines = 0;
            char ln[512], want[512];
            while (fgets(ln, sizeof ln, j)) {
                cr_assert_lt(lines, 256, "%s", ln);
                int i = lines++;
                snprintf(want, sizeof want, "%d %d %d %d %s %s %s\n", -32 + i % 16, -16 + i / 16, h[i], ft[i], mine[bl[i]], mine[fl[i]],
                         bion[bi[i]]);
                cr_assert_str_eq(ln, want);
            }
            cr_assert_eq(pclose(j), 0);
            cr_assert_eq(lines, 256);
        }
        cf_biomes_free(b);
        cf_world_free(w);
        cf_program_free(pg);
    }
    int32_t one[2] = {0, 0};
    cr_assert_eq(cf_client_columns(cl, "minecraft:overworld", 0, 0, 1, one, got, &err), CF_ERR_ARG, "stride 0");
    cf_client_close(cl);
    kill(pid, SIGTERM);
    int st;
    waitpid(pid, &st, 0);
}

/* colours follow the blocks: the End's void is not water on any layer, the nether's sea is lava */
Test(maps, end_void_and_nether_lava_are_not_water)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    enum { N = 40 };
    static uint8_t rgb[N * N * 3];
    static int32_t h[N * N];
    cf_error err = {0};
    const uint8_t water_min_blue = 100;
    for (int dim = 0; dim < 2; dim++) {
        cf_program *pg;
        cf_biomes *b;
        const char *settings = dim ? "minecraft:nether" : "minecraft:end";
        cf_world *w = block_world(pack, settings, 3, &pg, &b);
        int min_y, sea, special = 0;
        cf_program_settings(pg, &min_y, NULL, &sea);
        int32_t x0 = dim ? -200 : -1100, below = dim ? 100 : INT32_MAX;
        for (int li = 0; cf_map_layer(li, NULL, NULL) && (dim == 0 || li == 0); li++) { /* the nether: relief */
            int needs, n = N, step = 8;
            cf_map_layer(li, &needs, NULL);
            if (needs & CF_MAP_BLOCKS) n = 5, step = 64; /* whole chunks: a few */
            cr_assert_eq(cf_map_draw_biomes(w, b, li, x0, x0, step, n, n, below, rgb, h, 2, &err), CF_OK, "%s", err.message);
            for (int o = 0; o < n * n; o++) {
                const uint8_t *px = rgb + 3 * o;
                int bluish = px[2] >= water_min_blue && px[2] > px[0] + 40 && px[2] > px[1];
                if (dim == 0 && h[o] < min_y) { /* void */
                    cr_assert(px[0] < 40 && px[1] < 40 && px[2] < 40, "end %s pixel %d: void drawn %d,%d,%d",
                              cf_map_layer(li, NULL, NULL), o, px[0], px[1], px[2]);
                    special++;
                }
                if (dim == 1 && li == 0 && h[o] < sea) { /* under the lava sea */
                    cr_assert(px[0] > 150 && px[2] < 60, "nether relief pixel %d: the lava sea drawn %d,%d,%d", o, px[0], px[1], px[2]);
                    special++;
                }
                cr_assert_not(bluish && dim == 0 && h[o] < min_y, "void as water");
            }
        }
        cr_assert_gt(special, 0, "%s: the area has no void or lava sea", settings);
        cf_biomes_free(b);
        cf_world_free(w);
        cf_program_free(pg);
    }
}

/* ------------------------------------------------------------------ tiles (the CLI) */
TestSuite(tiles, .init = tsetup, .fini = tteardown, .timeout = 300);



/* the data of a .npy (malloc'd), its header dictionary in dict */
static uint8_t *read_npy_raw(const char *path, char *dict, size_t cap, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "no %s", path);
    unsigned char h[10];
    cr_assert_eq(fread(h, 1, 10, f), 10u);
    unsigned hl = h[8] | h[9] << 8;
    cr_assert_lt(hl, cap);
    cr_assert_eq(fread(dict, 1, hl, f), hl);
    dict[hl] = 0;
    long at = ftell(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)(ftell(f) - at);
    fseek(f, at, SEEK_SET);
    uint8_t *v = malloc(*len ? *len : 1);
    cr_assert_eq(fread(v, 1, *len, f), *len);
    fclose(f);
    return v;
}

/* the i-th string of a JSON array of strings starting at p ("[" ...) */
static void json_nth(const char *p, int i, char *out, size_t cap)
{
    for (int k = 0; k <= i; k++) {
        p = strchr(p + 1, '"');
        cr_assert_not_null(p);
        const char *e = strchr(p + 1, '"');
        if (k == i) snprintf(out, cap, "%.*s", (int)(e - p - 1), p + 1);
        p = e;
    }
}

/* `chunkfill columns` equals render --heights at its columns and the block of `fill --blocks
 * --stage surface` at that height; its fluid is the fill's block above */
Test(tiles, columns_command_equals_render_and_fill)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    char args[2048], err[4096], dict[512], pal[65536];
    const char *area = "-40,-30:-1,9"; /* stride 13: columns x -40..-1, z -30..9: chunks x -3..-1, z -2..0 */
    snprintf(args, sizeof args, "columns --pack %s --seed 0 --area %s --stride 13 --out %s/c.npy", pack, area, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "render --pack %s --seed 0 --area %s --scale 13 --heights %s/h.npy --out %s/r.png", pack, area, dir, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "fill --pack %s --seed 0 --blocks --stage surface --chunks -3,-2:-1,0 --out %s/f.npy", pack, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    size_t clen, flen;
    uint8_t *c = read_npy_raw(strcat(strcpy(args, dir), "/c.npy"), dict, sizeof dict, &clen);
    cr_assert(strstr(dict, "('height', '<i4'), ('fluid_top', '<i4'), ('block', 'u1'), ('fluid', 'u1'), ('biome', 'u1')"), "%s", dict);
    cr_assert(strstr(dict, "'shape': (4, 4)"), "%s", dict);
    int nz, nx;
    int32_t *h = read_npy(strcat(strcpy(args, dir), "/h.npy"), &nz, &nx);
    cr_assert(nz == 4 && nx == 4 && clen == 16 * 12);
    uint8_t *fb = read_npy_raw(strcat(strcpy(args, dir), "/f.npy"), dict, sizeof dict, &flen);
    int height = 384, min_y = -64;
    cr_assert_eq(flen, (size_t)9 * height * 256);
    FILE *f = fopen(strcat(strcpy(args, dir), "/f.palette.json"), "r");
    size_t pl = fread(pal, 1, sizeof pal - 1, f);
    pal[pl] = 0;
    fclose(f);
    static char cpal[65536];
    f = fopen(strcat(strcpy(args, dir), "/c.palette.json"), "r");
    pl = fread(cpal, 1, sizeof cpal - 1, f);
    cpal[pl] = 0;
    fclose(f);
    const char *cblocks = strstr(cpal, "\"blocks\": [");
    cr_assert_not_null(cblocks);
    int wet = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++) {
            const uint8_t *q = c + 12 * (k * 4 + i);
            int32_t hh, ft;
            memcpy(&hh, q, 4), memcpy(&ft, q + 4, 4);
            cr_assert_eq(hh, h[k * 4 + i], "column (%d, %d): height %d, render --heights %d", i, k, hh, h[k * 4 + i]);
            int x = -40 + 13 * i, z = -30 + 13 * k, ci = ((z >> 4) + 2) * 3 + (x >> 4) + 3;
            const uint8_t *ch = fb + (size_t)ci * height * 256;
            char want[128], got[128];
            json_nth(pal, ch[((size_t)(hh - min_y) * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15)], want, sizeof want);
            json_nth(cblocks + 10, q[8], got, sizeof got);
            cr_assert_str_eq(got, want, "column (%d, %d) at y %d", x, z, hh);
            json_nth(pal, ch[((size_t)(hh + 1 - min_y) * 16 + (size_t)(z & 15)) * 16 + (size_t)(x & 15)], want, sizeof want);
            json_nth(cblocks + 10, q[9], got, sizeof got);
            cr_assert_str_eq(got, want, "column (%d, %d): the fluid above y %d", x, z, hh);
            if (strcmp(got, "minecraft:air") != 0) {
                wet++;
                cr_assert_geq(ft, hh + 1);
            } else {
                cr_assert_eq(ft, min_y - 1);
            }
        }
    cr_assert(wet > 0 && wet < 16, "%d wet columns (the test needs both)", wet);
    free(c), free(h), free(fb);
}

/* tile L/z/x/y.png equals `render --scale 2^z` of its blocks (world: the pack, settings and
 * seed options of both), decoded pixel for pixel */
#define tile_equals_render(layer, z, x, y) tile_equals_render_of(TINY, layer, z, x, y)
static void tile_equals_render_of(const char *world, const char *layer, int z, int x, int y)
{
    char args[1024], err[4096], tile[256], png[256];
    long span = 256L << z;
    snprintf(tile, sizeof tile, "%s/t/%s/%d/%d/%d.png", dir, layer, z, x, y);
    snprintf(png, sizeof png, "%s/r.png", dir);
    snprintf(args, sizeof args, "render %s --layer %s --scale %ld --area %ld,%ld:%ld,%ld --out %s", world, layer, 1L << z,
             x * span, y * span, x * span + span - 1, y * span + span - 1, png);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    int w1, h1, w2, h2;
    uint8_t *a = read_png(tile, &w1, &h1), *b = read_png(png, &w2, &h2);
    cr_assert(w1 == 256 && h1 == 256 && w2 == 256 && h2 == 256, "%dx%d %dx%d", w1, h1, w2, h2);
    cr_assert_eq(memcmp(a, b, 256 * 256 * 3), 0, "%s differs from render of its area", tile);
    free(a), free(b);
}

Test(tiles, level0_tiles_equal_render_of_their_area)
{
    char args[1024], err[4096];
    snprintf(args, sizeof args, "tiles " TINY " --area -300,-10:20,100 --out %s/t", dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    /* every tile that meets the area, none more: x tiles -2..0, z tiles -1..0 */
    struct stat sb;
    for (int x = -3; x <= 1; x++)
        for (int y = -2; y <= 1; y++) {
            char p[256];
            snprintf(p, sizeof p, "%s/t/relief/0/%d/%d.png", dir, x, y);
            int want = x >= -2 && x <= 0 && y >= -1 && y <= 0;
            cr_assert_eq(stat(p, &sb) == 0, want, "%s", p);
        }
    tile_equals_render("relief", 0, -2, -1);
    tile_equals_render("relief", 0, 0, 0);
    /* the viewer, configured for the static folder */
    char p[256];
    snprintf(p, sizeof p, "%s/t/index.html", dir);
    FILE *f = fopen(p, "r");
    cr_assert_not_null(f);
    static char html[1 << 16];
    size_t n = fread(html, 1, sizeof html - 1, f);
    html[n] = 0;
    fclose(f);
    cr_assert(strstr(html, "CF_CONFIG = {\"mode\": \"static\", \"layers\": [\"relief\"], \"zmin\": 0, \"zmax\": 0"), "%.300s",
              strstr(html, "CF_CONFIG"));
    cr_assert(!strstr(html, "http://") && !strstr(html, "https://") && !strstr(html, "src=\"//"),
              "the page fetches nothing from the network");
}

/* a tile equals the same blocks inside a larger render made in one piece: the same
 * heights everywhere, the same pixels but on its outermost ring (the hillshade takes
 * one-sided slopes at a picture's edge) */
Test(tiles, tile_on_chunk_borders_equals_one_piece)
{
    char args[1024], err[4096];
    snprintf(args, sizeof args, "tiles " TINY " --area -1,-1:0,0 --out %s/t", dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "render " TINY " --area -300,-280:40,20 --out %s/big.png --heights %s/big.npy", dir, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "render " TINY " --area -256,-256:-1,-1 --out %s/one.png --heights %s/one.npy", dir, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    char p[256];
    int bw, bh, tw, th, nz, nx, mz, mx;
    snprintf(p, sizeof p, "%s/big.png", dir);
    uint8_t *big = read_png(p, &bw, &bh);
    snprintf(p, sizeof p, "%s/t/relief/0/-1/-1.png", dir);
    uint8_t *t = read_png(p, &tw, &th);
    snprintf(p, sizeof p, "%s/big.npy", dir);
    int32_t *bhts = read_npy(p, &nz, &nx);
    snprintf(p, sizeof p, "%s/one.npy", dir);
    int32_t *ohts = read_npy(p, &mz, &mx);
    cr_assert(mz == 256 && mx == 256 && nx == bw && nz == bh);
    /* tile (-1, -1) is blocks -256..-1: at (44, 24) in the big picture (-300, -280) */
    for (int z = 0; z < 256; z++)
        for (int x = 0; x < 256; x++) {
            size_t bi = (size_t)(z + 24) * (size_t)bw + (size_t)(x + 44), ti = (size_t)z * 256 + (size_t)x;
            cr_assert_eq(ohts[ti], bhts[bi], "height at block (%d, %d)", x - 256, z - 256);
            if (x == 0 || z == 0 || x == 255 || z == 255) continue;
            cr_assert_eq(memcmp(t + 3 * ti, big + 3 * bi, 3), 0, "pixel at block (%d, %d)", x - 256, z - 256);
        }
    tile_equals_render("relief", 0, -1, -1);
    free(big), free(t), free(bhts), free(ohts);
}

/* level z tile (x, y): pixel (i, k) shows column (x*256*2^z + i*2^z, y*256*2^z + k*2^z):
 * its heights are the full-resolution heights there, and it equals render --scale 2^z */
Test(tiles, level_z_tiles_are_the_documented_downscale)
{
    char args[1024], err[4096];
    snprintf(args, sizeof args, "tiles " TINY " --area -1,-1:0,0 --zoom 1..3 --out %s/t", dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "render " TINY " --area -1024,-1024:1023,1023 --out %s/full.png --heights %s/full.npy", dir, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    char p[256];
    int nz, nx;
    snprintf(p, sizeof p, "%s/full.npy", dir);
    int32_t *full = read_npy(p, &nz, &nx);
    cr_assert(nz == 2048 && nx == 2048);
    for (int z = 1; z <= 2; z++)
        for (int ty = -1; ty <= 0; ty++)
            for (int tx = ty; tx <= ty; tx++) {
                long span = 256L << z, s = 1L << z;
                snprintf(args, sizeof args, "render " TINY " --scale %ld --area %ld,%ld:%ld,%ld --out %s/s.png --heights %s/s.npy",
                         s, tx * span, ty * span, tx * span + span - 1, ty * span + span - 1, dir, dir);
                cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
                int mz, mx;
                snprintf(p, sizeof p, "%s/s.npy", dir);
                int32_t *h = read_npy(p, &mz, &mx);
                cr_assert(mz == 256 && mx == 256);
                for (int k = 0; k < 256; k++)
                    for (int i = 0; i < 256; i++) {
                        long bx = tx * span + i * s, bz = ty * span + k * s;
                        cr_assert_eq(h[k * 256 + i], full[(bz + 1024) * 2048 + (bx + 1024)], "level %d pixel (%d, %d)", z, i, k);
                    }
                free(h);
                tile_equals_render("relief", z, tx, ty);
            }
    tile_equals_render("relief", 3, -1, 0);
    free(full);
}

/* biomes tiles (the default pack: the tiny pack has no climate) equal render of their area */
Test(tiles, biomes_tiles_equal_render_of_their_area)
{
    char args[1024], err[4096];
    snprintf(args, sizeof args, "tiles --seed 3 --layer biomes --area -1,0:0,0 --zoom 0..0 --out %s/t", dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    tile_equals_render_of("--seed 3", "biomes", 0, -1, 0);
    tile_equals_render_of("--seed 3", "biomes", 0, 0, 0);
}

Test(tiles, bad_input_is_refused_with_one_line)
{
    static const char *const bad[] = {
        "--area 0,0:10,10 --zoom 3..1", "--area 0,0:10,10 --zoom 0..21", "--area 0,0:10,10 --zoom x",
        "--area 0,0:10,10 --layer nosuch", "--area 10,0:0,10", "--area 0,0", "--area -2000000000,0:2000000000,0 --zoom 0..0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[1024], err[4096];
        snprintf(args, sizeof args, "tiles " TINY " %s --out %s/t", bad[i], dir);
        cr_assert_neq(run(args, err, sizeof err), 0, "%s", bad[i]);
        cr_assert(strchr(err, '\n') == strrchr(err, '\n') || strstr(err, "usage:"), "%s: %s", bad[i], err);
        char p[256];
        struct stat sb;
        snprintf(p, sizeof p, "%s/t/index.html", dir);
        cr_assert_neq(stat(p, &sb), 0, "%s wrote a viewer", bad[i]);
    }
}
