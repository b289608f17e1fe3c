/* test_blocks.c - the blocks of the noise stage (final density + the 26.3
 * aquifer): every block of the golden chunks against the oracle's blocks mode
 * (tests/golden/blocks.txt, made by tests/golden/make-blocks.sh), the device
 * (PoCL) against the CPU, `fill --blocks`, and bad input. */
#include <criterion/criterion.h>
#include <md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"
#include "cpu/cpu.h"
#include "testutil.h"


/* the packs a golden line names: vanilla, or packs/default + tests/packs/aquifer */
static int open_pack(const char *tag, cf_pack **pk)
{
    static char a[4096], b[4096];
    const char *paths[2] = {a, b};
    int n;
    if (strcmp(tag, "vanilla-26.3") == 0) {
        shared_need("vanilla/26.3", a, sizeof a);
        n = 1;
    } else {
        cr_assert_str_eq(tag, "aquifer");
        snprintf(a, sizeof a, "%s/packs/default", CF_SOURCE_DIR);
        snprintf(b, sizeof b, "%s/tests/packs/aquifer", CF_SOURCE_DIR);
        n = 2;
    }
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(pk, paths, n, NULL, &err), CF_OK, "%s", err.message);
    return 0;
}

typedef struct gline {
    char pack[64], settings[128], palette[256], md5[40], counts[512];
    long long seed;
    int cx, cz, height;
} gline;

static int read_line(FILE *f, gline *g)
{
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '@') continue;
        char seed[64], chunk[64], height[16];
        cr_assert(line_field(line, "pack", g->pack, sizeof g->pack) == 0 && line_field(line, "settings", g->settings, sizeof g->settings) == 0
                      && line_field(line, "seed", seed, sizeof seed) == 0 && line_field(line, "chunk", chunk, sizeof chunk) == 0
                      && line_field(line, "height", height, sizeof height) == 0
                      && line_field(line, "palette", g->palette, sizeof g->palette) == 0
                      && line_field(line, "md5", g->md5, sizeof g->md5) == 0
                      && line_field(line, "counts", g->counts, sizeof g->counts) == 0,
                  "bad line %s", line);
        g->seed = strtoll(seed, NULL, 10);
        cr_assert_eq(sscanf(chunk, "%d,%d", &g->cx, &g->cz), 2);
        g->height = atoi(height);
        return 1;
    }
    return 0;
}

/* our indices -> the oracle's palette order; md5 and counts as the golden line writes them */
static int compare(const gline *g, const cf_program *pg, const uint8_t *v)
{
    const char *names[CF_PALETTE_MAX];
    int np = cf_block_palette(pg, names);
    char opal[256];
    snprintf(opal, sizeof opal, "%s", g->palette);
    const char *onames[8];
    int no = 0;
    char *save = NULL;
    for (char *s = strtok_r(opal, ",", &save); s && no < 8; s = strtok_r(NULL, ",", &save)) onames[no++] = s;
    int map[CF_PALETTE_MAX];
    for (int i = 0; i < np; i++) {
        map[i] = -1;
        for (int k = 0; k < no; k++)
            if (strcmp(names[i], onames[k]) == 0) map[i] = k;
    }
    size_t nv = (size_t)g->height * 256;
    uint8_t *o = malloc(nv);
    size_t cnt[8] = {0};
    int ok = 1;
    for (size_t i = 0; i < nv; i++) {
        cr_assert_lt(v[i], np);
        if (map[v[i]] < 0) {
            if (ok) cr_log_error("%s seed %lld chunk %d,%d: block %s at index %zu is not in the oracle's palette %s",
                                 g->settings, g->seed, g->cx, g->cz, names[v[i]], i, g->palette);
            ok = 0;
            o[i] = 255;
            continue;
        }
        o[i] = (uint8_t)map[v[i]];
        cnt[o[i]]++;
    }
    MD5_CTX m;
    uint8_t d[16];
    char hex[33];
    MD5Init(&m);
    MD5Update(&m, o, nv);
    MD5Final(d, &m);
    for (int i = 0; i < 16; i++) sprintf(hex + 2 * i, "%02x", d[i]);
    char counts[512] = "";
    for (int k = 0; k < no; k++)
        snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%s:%zu", k ? "," : "", onames[k], cnt[k]);
    if (ok && strcmp(hex, g->md5) != 0) {
        cr_log_error("%s seed %lld chunk %d,%d: md5 %s, oracle %s; counts %s, oracle %s", g->settings, g->seed, g->cx,
                     g->cz, hex, g->md5, counts, g->counts);
        ok = 0;
    }
    free(o);
    return ok;
}

static void run_golden(const char *want_pack, int *chunks, int *bad)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/golden/blocks.txt", CF_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no %s", path);
    gline g;
    *chunks = *bad = 0;
    while (read_line(f, &g)) {
        if (strcmp(g.pack, want_pack) != 0) continue;
        cf_pack *pk;
        cf_program *pg;
        cf_world *w;
        cf_error err = {0};
        open_pack(g.pack, &pk);
        cr_assert_eq(cf_program_compile_blocks(&pg, pk, g.settings, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&w, pg, (int64_t)g.seed, &err), CF_OK, "%s", err.message);
        int height;
        cf_program_settings(pg, NULL, &height, NULL);
        cr_assert_eq(height, g.height);
        uint8_t *v = malloc((size_t)height * 256);
        int32_t c[2] = {g.cx, g.cz};
        cr_assert_eq(cf_fill_blocks(w, 1, c, v, 1, &err), CF_OK, "%s", err.message);
        (*chunks)++;
        if (!compare(&g, pg, v)) (*bad)++;
        free(v);
        cf_world_free(w);
        cf_program_free(pg);
        cf_pack_free(pk);
    }
    fclose(f);
}

Test(blocks, our_packs_equal_oracle, .timeout = 600)
{
    int chunks, bad;
    run_golden("aquifer", &chunks, &bad);
    cr_assert_geq(chunks, 24, "only %d chunks", chunks);
    cr_assert_eq(bad, 0, "%d of %d chunks differ from the oracle", bad, chunks);
}

Test(blocks, vanilla_equals_oracle, .timeout = 1200)
{
    char p[4096];
    struct stat st;
    shared_need("vanilla/26.3/data", p, sizeof p);
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    int chunks, bad;
    run_golden("vanilla-26.3", &chunks, &bad);
    cr_assert_geq(chunks, 105, "only %d vanilla chunks", chunks);
    cr_assert_eq(bad, 0, "%d of %d chunks differ from the oracle", bad, chunks);
}

/* ---------------------------------------------------------------- the device */
/* PoCL against the CPU, block for block: settings with aquifers (the overworld,
 * our legacy-random and lava settings), without (the nether: lava as the default
 * fluid; our dry settings), chunks near and far, several seeds */
static void device_equals_cpu_seeds(const char *tag, const char *settings, const int32_t *chunks, size_t n, int nseeds);
static void device_equals_cpu(const char *tag, const char *settings, const int32_t *chunks, size_t n)
{
    device_equals_cpu_seeds(tag, settings, chunks, n, 3);
}
static void device_equals_cpu_seeds(const char *tag, const char *settings, const int32_t *chunks, size_t n, int nseeds)
{
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_device *d;
    cf_error err = {0};
    open_pack(tag, &pk);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, settings, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_device_open(&d, "opencl", pg, 0, 2, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t per = (size_t)height * 256;
    uint8_t *a = malloc(per * n), *b = malloc(per * n);
    static const int64_t seeds[3] = {0, -4172144997902289642LL, 12345};
    for (int s = 0; s < nseeds; s++) {
        cr_assert_eq(cf_world_new(&w, pg, seeds[s], &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_blocks(w, n, chunks, a, 2, &err), CF_OK, "%s", err.message);
        memset(b, 0xee, per * n);
        cr_assert_eq(cf_device_fill_blocks(d, w, n, chunks, b, &err), CF_OK, "%s", err.message);
        for (size_t i = 0; i < per * n; i++)
            cr_assert_eq(a[i], b[i], "%s seed %lld: chunk %d,%d index %zu: device %d, CPU %d", settings, (long long)seeds[s],
                         chunks[2 * (i / per)], chunks[2 * (i / per) + 1], i % per, b[i], a[i]);
        cf_world_free(w);
    }
    free(a), free(b);
    cf_device_free(d);
    cf_program_free(pg);
    cf_pack_free(pk);
}

static const int32_t some_chunks[10] = {0, 0, -3, 7, -20, -33, 62500, -3, -1874999, 1874999};

Test(blocks_device, vanilla_overworld_and_nether, .timeout = 1200)
{
    char p[4096];
    struct stat st;
    shared_need("vanilla/26.3/data", p, sizeof p);
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    device_equals_cpu("vanilla-26.3", "minecraft:overworld", some_chunks, 5);
    device_equals_cpu("vanilla-26.3", "minecraft:nether", some_chunks, 3);
}

/* the other five vanilla settings: 3 chunks (near, far, the world border), 2 seeds */
Test(blocks_device, vanilla_other_settings, .timeout = 1800)
{
    char p[4096];
    struct stat st;
    shared_need("vanilla/26.3/data", p, sizeof p);
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    static const int32_t three[6] = {-3, 7, 62500, -3, -1874999, 1874999};
    static const char *const other[5] = {"minecraft:large_biomes", "minecraft:amplified", "minecraft:end", "minecraft:caves",
                                         "minecraft:floating_islands"};
    for (int k = 0; k < 5; k++) device_equals_cpu_seeds("vanilla-26.3", other[k], three, 3, 2);
}

Test(blocks_device, our_packs, .timeout = 1200)
{
    device_equals_cpu("aquifer", "aq:legacy", some_chunks, 5);
    device_equals_cpu("aquifer", "aq:lava", some_chunks, 3);
}

/* The per-column aquifer (aquifer_column: centres, levels and the skip level only as a block
 * reads them; cpu/colblocks.c) against the chunk's (aquifer_begin: every centre, the box's 121
 * levels): the same block at every y of columns of vanilla 26.3 (oceans, plains, mountains) for
 * densities 0 and -0.05, each y asked first in its chunk: the skip level then bounded by the
 * column's own level (as the maps ask) or, at density 0, by nothing (aquifer_column_unbounded),
 * so that every block goes through the comparison with the global fluid and, where they differ
 * (caves below sea level), the whole box (aquifer_boxes); a shortcut that takes the global
 * fluid there fails */
Test(blocks, aquifer_per_column_equals_the_chunks)
{
    char a[4096];
    shared_need("vanilla/26.3", a, sizeof a);
    const char *paths[1] = {a};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 0, &err), CF_OK, "%s", err.message);
    int min_y, height, sea;
    cf_program_settings(pg, &min_y, &height, &sea);
    cf_aquifer *chunk = aquifer_new(w), *col = aquifer_new(w);
    cr_assert(chunk && col);
    static const int32_t xz[][2] = {{-2500, 1300}, {3040, -2784}, {700, 3100}, {-1800, -2900}, {5, 9}, {1000003, -1200001}};
    int decided = 0;
    for (size_t c = 0; c < sizeof xz / sizeof xz[0]; c++) {
        int32_t x = xz[c][0], z = xz[c][1];
        aquifer_begin(chunk, (int32_t)cf_floordiv(x, 16), (int32_t)cf_floordiv(z, 16));
        for (int32_t y = min_y; y < min_y + height; y++)
            for (int k = 0; k < 2; k++) {
                float d = k ? -0.05f : 0.0f;
                aquifer_column(col, x + 16, z); /* another chunk: the next call starts afresh */
                if (k) aquifer_column(col, x, z);
                else aquifer_column_unbounded(col, x, z);
                int want = aquifer_block(chunk, x, y, z, d), got = aquifer_block(col, x, y, z, d);
                cr_assert_eq(got, want, "(%d, %d, %d) density %g: the column's block %d, the chunk's %d", x, y, z, (double)d, got, want);
                decided += want == CF_BK_AIR && y < sea && y >= -54; /* not the global fluid: a dry cave */
            }
    }
    cr_assert_gt(aquifer_boxes(col), 0, "no block needed the whole box: the test does not reach that path");
    cr_assert_gt(decided, 0);
    aquifer_free(chunk), aquifer_free(col);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ---------------------------------------------------------------- the API */
Test(blocks, api_refuses_a_program_without_blocks)
{
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 1, &err), CF_OK, "%s", err.message);
    uint8_t out[16];
    int32_t c[2] = {0, 0};
    cr_assert_eq(cf_fill_blocks(w, 1, c, out, 1, &err), CF_ERR_ARG);
    cr_assert(strstr(err.message, "cf_program_compile_blocks"), "%s", err.message);
    const char *names[CF_PALETTE_MAX];
    cr_assert_eq(cf_block_palette(pg, names), 4);
    cr_assert_str_eq(names[0], "minecraft:stone");
    cr_assert_str_eq(names[3], "minecraft:lava");
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* every palette of block fills names a block at every index, each once (1.21.11 held "" where
 * the default fluid is water, 26.3 seven of them: the unused fluid and ore-vein slots), and the
 * fills index within it: the embedded pack and the vanilla data of three versions, every
 * dimension's palette, the overworld's noise and surface stages of one chunk, and the palette
 * file of `fill --blocks` (the blocks by name: the dump and oracle tests) */
static void palette_has_names(cf_pack *pk, const char *settings, const char *what)
{
    cf_program *pg;
    cf_error err = {0};
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, settings, &err), CF_OK, "%s %s: %s", what, settings, err.message);
    const char *names[CF_PALETTE_MAX];
    int np = cf_block_palette(pg, names);
    cr_assert_geq(np, 4, "%s %s", what, settings);
    for (int i = 0; i < np; i++) {
        cr_assert(names[i] && names[i][0], "%s %s: palette index %d of %d has an empty name", what, settings, i, np);
        for (int k = 0; k < i; k++) cr_assert_str_neq(names[i], names[k], "%s %s: %s twice", what, settings, names[i]);
    }
    if (strcmp(settings, "minecraft:overworld") == 0) {
        cf_world *w;
        cf_biomes *b = NULL;
        int height;
        cf_program_settings(pg, NULL, &height, NULL);
        cr_assert_eq(cf_world_new(&w, pg, 13579, &err), CF_OK, "%s", err.message);
        uint8_t *v = malloc((size_t)height * 256 * 2);
        int32_t c[4] = {-6, 11, 0, 0}; /* an iron vein in 1.18-1.21 (the 26.2 dumps) */
        cr_assert_eq(cf_fill_blocks(w, 2, c, v, 2, &err), CF_OK, "%s", err.message);
        if (cf_program_has_surface(pg)) {
            cr_assert_eq(cf_biomes_open(&b, pk, NULL, settings, NULL, 13579, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_fill_blocks_surface(w, b, 1, c, v + (size_t)height * 256, 1, &err), CF_OK, "%s", err.message);
        }
        int used[CF_PALETTE_MAX] = {0}, veins = 0;
        for (size_t i = 0; i < (size_t)height * 256 * 2; i++) {
            cr_assert_lt(v[i], np, "%s: index %u of a palette of %d", what, v[i], np);
            used[v[i]]++;
        }
        for (int i = 0; i < np; i++) veins += used[i] && vein_block(names[i]);
        if (strstr(what, "1.21") || strstr(what, "26.2")) cr_assert_gt(veins, 0, "%s: no vein block met", what);
        cr_log_info("%s: %d names, %d vein blocks met", what, np, veins);
        free(v);
        cf_biomes_free(b);
        cf_world_free(w);
    }
    cf_program_free(pg);
}

/* the palette follows the settings: the default block (object form too), a default
 * fluid that is none of air, water, lava gets index 4 */
Test(blocks, palette_of_settings)
{
    cf_pack *pk;
    cf_program *pg;
    cf_error err = {0};
    open_pack("aquifer", &pk);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "aq:lava", &err), CF_OK, "%s", err.message);
    const char *names[CF_PALETTE_MAX];
    cr_assert_eq(cf_block_palette(pg, names), 4);
    cr_assert_str_eq(names[0], "minecraft:deepslate");
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ---------------------------------------------------------------- the CLI and bad input */
static char root[256];
static void put(const char *rel, const char *text) { tmp_put(root, rel, text); }
static void setup(void)
{
    tmp_dir(root, sizeof root, "blocks");
    put("data/t/worldgen/noise/n.json", "{\"base_octave\": -4, \"octave_count\": 3}");
    put("data/t/worldgen/density_function/f.json",
        "{\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:y_clamped_gradient\"}, \"right\": 0}");
}
static void teardown(void) { tmp_rm(root); }

/* runs the CLI; returns the exit status, stderr's first line in *line */
static int cli(const char *args, char *line, size_t n)
{
    char cmd[4096], errf[300];
    snprintf(errf, sizeof errf, "%s/stderr.txt", root);
    snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>'%s'", CF_BINARY, args, errf);
    int st = system(cmd);
    FILE *f = fopen(errf, "r");
    line[0] = 0;
    if (f) {
        if (!fgets(line, (int)n, f)) line[0] = 0;
        fclose(f);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TestSuite(blocks_input, .init = setup, .fini = teardown);

Test(blocks_input, palettes_hold_no_empty_names)
{
    static const char *const dims[3] = {"minecraft:overworld", "minecraft:nether", "minecraft:end"};
    static const char *const versions[3] = {"1.21.11", "26.2", "26.3"};
    cf_pack *pk;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    palette_has_names(pk, "minecraft:overworld", "the embedded pack");
    cf_pack_free(pk);
    char dir[4096], args[8400], line[1024], out[512];
    for (int v = 0; v < 3; v++) {
        char rel[64];
        snprintf(rel, sizeof rel, "vanilla/%s", versions[v]);
        shared_need(rel, dir, sizeof dir);
        const char *paths[1] = {dir};
        cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
        for (int d = 0; d < 3; d++) palette_has_names(pk, dims[d], rel);
        cf_pack_free(pk);
    }
    /* the file `fill --blocks` writes beside its .npy (1.21.11: veins and the surface rule) */
    shared_need("vanilla/1.21.11", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/pal.npy", root);
    snprintf(args, sizeof args, "fill --pack '%s' --version 1.21.11 --seed 1 --chunks 0,0 --blocks --quiet --out '%s'", dir, out);
    cr_assert_eq(cli(args, line, sizeof line), 0, "%s", line);
    snprintf(out, sizeof out, "%s/pal.palette.json", root);
    FILE *f = fopen(out, "r");
    cr_assert_not_null(f, "no %s", out);
    char text[8192] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cr_assert(strstr(text, "minecraft:copper_ore") && strstr(text, "minecraft:grass_block"), "%s", text);
    cr_assert_null(strstr(text, "\"\""), "an empty name in %s", text);
}

static void settings(const char *aquifers, const char *extra)
{
    char s[2048];
    snprintf(s, sizeof s,
             "{\"noise\": {\"min_y\": 0, \"height\": 64}, %s \"noise_router\": {\"final_density\":"
             " {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 1}}%s%s}",
             extra, aquifers ? ", \"aquifers\": " : "", aquifers ? aquifers : "");
    put("data/t/worldgen/noise_settings/s.json", s);
}

static const char *const good_aquifers =
    "{\"barrier\": 0.5, \"fluid_level_floodedness\": 0.2, \"fluid_level_spread\": -0.3, \"lava\": 0.1,"
    " \"exclusion\": 0, \"surface_level\": 40}";

/* the file: the .npy header says uint8 and the shape; the palette beside it; the
 * bytes equal the library's */
Test(blocks_input, fill_writes_npy_and_palette)
{
    settings(good_aquifers, "\"default_block\": \"minecraft:dirt\", \"sea_level\": 20,");
    char args[2048], line[1024], out[512];
    snprintf(out, sizeof out, "%s/b.npy", root);
    snprintf(args, sizeof args, "fill --pack '%s' --settings t:s --seed 5 --chunks 0,0:1,0 --blocks --out '%s'", root, out);
    cr_assert_eq(cli(args, line, sizeof line), 0, "%s", line);
    FILE *f = fopen(out, "rb");
    cr_assert_not_null(f);
    char hdr[128];
    cr_assert_eq(fread(hdr, 1, 128, f), 128u);
    hdr[127] = 0;
    cr_assert(strstr(hdr + 10, "'descr': '|u1'") && strstr(hdr + 10, "(2, 64, 16, 16)"), "%s", hdr + 10);
    uint8_t *v = malloc(2 * 64 * 256);
    cr_assert_eq(fread(v, 1, 2 * 64 * 256, f), 2u * 64 * 256);
    cr_assert_eq(fgetc(f), EOF);
    fclose(f);
    char pal[512];
    snprintf(pal, sizeof pal, "%s/b.palette.json", root);
    f = fopen(pal, "r");
    cr_assert_not_null(f, "no %s", pal);
    char text[256] = "";
    cr_assert_not_null(fgets(text, sizeof text, f));
    fclose(f);
    cr_assert_str_eq(text, "[\"minecraft:dirt\", \"minecraft:air\", \"minecraft:water\", \"minecraft:lava\"]\n");
    /* the library's fill of the same chunks */
    const char *paths[1] = {root};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "t:s", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK, "%s", err.message);
    uint8_t *u = malloc(2 * 64 * 256);
    int32_t c[4] = {0, 0, 1, 0};
    cr_assert_eq(cf_fill_blocks(w, 2, c, u, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(memcmp(u, v, 2 * 64 * 256), 0);
    /* with constant aquifer functions: barrier 0.5 etc.; some blocks are water below sea level 20 */
    int kinds[5] = {0};
    for (int i = 0; i < 2 * 64 * 256; i++) kinds[v[i]]++;
    cr_assert(kinds[0] > 0 && kinds[1] > 0, "stone %d air %d", kinds[0], kinds[1]);
    free(u), free(v);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(blocks_input, blocks_with_function_is_a_usage_error)
{
    settings(NULL, "");
    char args[2048], line[1024];
    snprintf(args, sizeof args, "fill --pack '%s' --settings t:s --seed 5 --chunks 0,0 --blocks --function t:f --out '%s/x.npy'",
             root, root);
    cr_assert_eq(cli(args, line, sizeof line), 2, "%s", line);
    cr_assert(strstr(line, "--blocks"), "%s", line);
}

/* each bad field: one line naming the file, the JSON pointer and what was wrong; no file */
static void bad(const char *aquifers, const char *extra, const char *want)
{
    settings(aquifers, extra);
    char args[2048], line[1024], out[512];
    snprintf(out, sizeof out, "%s/x.npy", root);
    snprintf(args, sizeof args, "fill --pack '%s' --settings t:s --seed 5 --chunks 0,0 --blocks --out '%s'", root, out);
    cr_assert_eq(cli(args, line, sizeof line), 1, "%s", line);
    cr_assert(strstr(line, "noise_settings/s.json#") && strstr(line, want), "got: %s (want %s)", line, want);
    cr_assert_eq(access(out, F_OK), -1, "a file was left");
}

Test(blocks_input, aquifers_not_an_object) { bad("[1, 2]", "", "#/aquifers: expected an object"); }
Test(blocks_input, aquifer_field_missing)
{
    bad("{\"barrier\": 0, \"fluid_level_floodedness\": 0, \"fluid_level_spread\": 0, \"lava\": 0, \"exclusion\": 0}", "",
        "#/aquifers: missing field \"surface_level\"");
}
Test(blocks_input, aquifer_function_bad)
{
    bad("{\"barrier\": {\"type\": \"minecraft:nope\"}, \"fluid_level_floodedness\": 0, \"fluid_level_spread\": 0, \"lava\": 0,"
        " \"exclusion\": 0, \"surface_level\": 0}", "", "#/aquifers/barrier");
}
Test(blocks_input, default_block_not_a_string) { bad(NULL, "\"default_block\": 7,", "#/default_block: expected a block id"); }
Test(blocks_input, default_fluid_bad_id) { bad(NULL, "\"default_fluid\": \"Minecraft:Water\",", "#/default_fluid: invalid character"); }
Test(blocks_input, default_block_object_without_name)
{
    bad(NULL, "\"default_block\": {\"Properties\": {}},", "#/default_block: missing field \"Name\"");
}
