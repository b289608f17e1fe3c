/* test_pregen.c - `chunkfill pregen`: region files read back by an independent Anvil
 * reader (PrismarineJS, tests/pregen/read_mca.js) and compared with cf_fill_blocks /
 * cf_fill_biomes; MPI ranks equal one process byte for byte; SIGKILL and SIGTERM mid-run
 * then a rerun equal an uninterrupted run; bad folders are refused with one line.
 * Areas are tiny (vanilla 26.3, 2 x 2 regions of a few chunks) so that it takes seconds.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chunkfill.h"

#define TMP CF_TEST_TMP
/* the vanilla data of ../shared (or $CF_SHARED), through a link in TMP so that the
 * command lines below stay string literals */
#define VANILLA TMP "/shared/vanilla/26.3"
__attribute__((constructor)) static void link_shared(void)
{
    const char *s = getenv("CF_SHARED");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p " TMP " && ln -sfn '%s' " TMP "/shared", s ? s : CF_SOURCE_DIR "/../shared");
    if (system(cmd) != 0) fprintf(stderr, "test_pregen: cannot link " TMP "/shared\n");
}

/* the tests below that pregenerate vanilla terrain: skipped where ../shared is missing
 * (a clone alone), failed under CI=true (CI has it: tests/testutil.h shared_have) */
static void need_vanilla(void)
{
    struct stat st;
    if (stat(VANILLA "/data", &st) == 0) return;
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) cr_assert_fail(VANILLA " is missing (CI=true: the shared data must be beside the clone)");
    cr_skip_test("no " VANILLA " (../shared beside the clone, or CF_SHARED; CI has it)");
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    cr_assert_eq(rc, 0, "command failed (%d): %s", rc, cmd);
}

/* runs a command, returns its exit status; its stderr in *msg (one buffer, static) */
static int run(const char **msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(const char **msg, const char *fmt, ...)
{
    static char out[8192];
    char cmd[4096], full[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "%s 2>" TMP "/stderr.txt", cmd);
    int rc = system(full);
    FILE *f = fopen(TMP "/stderr.txt", "r");
    size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    if (f) fclose(f);
    out[n] = 0;
    if (msg) *msg = out;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)len + 1);
    cr_assert_eq(fread(p, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    p[len] = 0;
    *n = (size_t)len;
    return p;
}

/* every file of a (regular files, no temporaries) equals the same file of b, and b has no others */
static void same_folders(const char *a, const char *b)
{
    for (int pass = 0; pass < 2; pass++) {
        const char *x = pass ? b : a, *y = pass ? a : b;
        DIR *d = opendir(x);
        cr_assert(d, "%s", x);
        struct dirent *e;
        int files = 0;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') {
                cr_assert(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0, "%s/%s: a temporary left behind", x,
                          e->d_name);
                continue;
            }
            char p[1024], q[1024];
            snprintf(p, sizeof p, "%s/%s", x, e->d_name);
            snprintf(q, sizeof q, "%s/%s", y, e->d_name);
            size_t n, m;
            uint8_t *u = slurp(p, &n), *v = slurp(q, &m);
            cr_assert(n == m && memcmp(u, v, n) == 0, "%s and %s differ", p, q);
            free(u), free(v);
            files++;
        }
        closedir(d);
        cr_assert_gt(files, 2, "%s: expected region files and the manifest", x);
    }
}

static void fresh(const char *dir) { sh("rm -rf '%s' && mkdir -p " TMP, dir); }

/* 2 x 2 regions around the origin, 2 x 2 chunks in each (blocks -32..31); the noise stage
 * (the surface stage, the default where the settings have one, has its own tests) */
#define AREA "--area -32,-32:31,31"
#define BASE CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " AREA
/* the bad-input and rerun tests: 2 regions of 1 chunk each (chunks -1,0 and 0,0) */
#define SMALL "--area -16,0:15,15"
#define SBASE CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " SMALL

/* ------------------------------------------------------------------ the independent reader */

static const char *npm_dir(void)
{
    static int done;
    const char *dir = TMP "/npm";
    if (!done) {
        sh("mkdir -p %s && cp " CF_SOURCE_DIR "/tests/pregen/package.json %s/", dir, dir);
        struct stat st;
        if (stat(TMP "/npm/node_modules/prismarine-provider-anvil/package.json", &st) != 0) {
            int rc = system("cd " TMP "/npm && npm install --no-audit --no-fund --loglevel=error >npm.log 2>&1");
            cr_assert_eq(rc, 0, "npm install of the Anvil reader failed (" TMP "/npm/npm.log): the test needs npm "
                                "and the registry (scripts/deps.sh)");
        }
        done = 1;
    }
    return dir;
}

/* Reads chunks[0..nc-1] (x, z pairs) of the region files in dir with the independent reader
 * and checks every block state, every biome, both heightmaps and the chunk's tags against
 * blk (palette indices into bn, height*256 per chunk) and bio (into biomes, height/4*16 per
 * chunk). */
typedef struct expect {
    const uint8_t *blk, *bio;
    const char *const *bn, *const *biomes;
    int min_y, height, data_version;
    const char *status;
} expect;
static int is_open(const char *nm) /* what does not block motion (host/pregen/ANVIL.md#heightmaps) */
{
    return strcmp(nm, "minecraft:air") == 0 || strcmp(nm, "minecraft:water") == 0 || strcmp(nm, "minecraft:lava") == 0
           || strcmp(nm, "minecraft:powder_snow") == 0;
}
static void reader_agrees(const char *dir, int nc, const int32_t *chunks, const expect *x)
{
    char coords[512] = "";
    for (int c = 0; c < nc; c++) snprintf(coords + strlen(coords), sizeof coords - strlen(coords), " %d,%d", chunks[2 * c], chunks[2 * c + 1]);
    sh("rm -rf %s/copy && mkdir %s/copy && cp %s/r.*.mca %s/copy/", dir, dir, dir, dir); /* the reader opens files r+ */
    const char *npm = npm_dir();
    sh("NODE_PATH=%s/node_modules node " CF_SOURCE_DIR "/tests/pregen/read_mca.js %s/copy %s/read%s", npm, dir, dir, coords);
    size_t per = (size_t)x->height * 256, bper = (size_t)x->height / 4 * 16, hper = 2 * 256 * 2;
    char path[512];
    size_t n, jn;
    snprintf(path, sizeof path, "%s/read.bin", dir);
    uint8_t *got = slurp(path, &n);
    snprintf(path, sizeof path, "%s/read.json", dir);
    char *json = (char *)slurp(path, &jn);
    cr_assert_eq(n, (size_t)nc * (per + bper + hper));
    /* the reader's name tables, from its JSON: {"blocks":[...],"biomes":[...],"chunks":[...]} */
    static char names[2][64][64];
    int count[2] = {0, 0};
    for (int t = 0; t < 2; t++) {
        const char *s = strstr(json, t ? "\"biomes\":[" : "\"blocks\":[");
        cr_assert(s);
        s = strchr(s, '[') + 1;
        while (*s == '"') {
            const char *e = strchr(s + 1, '"');
            cr_assert_lt(count[t], 64);
            snprintf(names[t][count[t]++], 64, "%.*s", (int)(e - s - 1), s + 1);
            s = e + 1;
            if (*s == ',') s++;
        }
    }
    /* per reader block name: its block's default state (minecraft-data); an id alone (the
     * default state: the noise stage's blocks, 26.3's rules) must read as that */
    int isdef[64] = {0};
    const char *d = strstr(json, "\"defaults\":[");
    cr_assert(d);
    d += 12;
    for (int i = 0; i < count[0]; i++) {
        isdef[i] = strncmp(d, "true", 4) == 0;
        d = strchr(d, i + 1 < count[0] ? ',' : ']') + 1;
    }
    for (int c = 0; c < nc; c++) {
        const uint8_t *g = got + (size_t)c * (per + bper + hper), *blk = x->blk + (size_t)c * per;
        size_t bad = 0;
        for (size_t i = 0; i < per; i++) {
            const char *nm = x->bn[blk[i]], *rd = names[0][g[i]];
            size_t l = strlen(nm);
            int ok = strcmp(rd, nm) == 0 || (!strchr(nm, '[') && strncmp(rd, nm, l) == 0 && rd[l] == '[' && isdef[g[i]]);
            if (!ok && !bad) cr_log_error("%s: chunk %d,%d block %zu: %s, read %s", dir, chunks[2 * c], chunks[2 * c + 1], i, nm, rd);
            bad += !ok;
        }
        cr_assert_eq(bad, 0, "%s: chunk %d,%d: %zu blocks differ", dir, chunks[2 * c], chunks[2 * c + 1], bad);
        for (size_t i = 0; i < bper; i++)
            cr_assert_str_eq(names[1][g[per + i]], x->biomes[x->bio[(size_t)c * bper + i]], "%s: chunk %d,%d quart %zu", dir,
                             chunks[2 * c], chunks[2 * c + 1], i);
        /* heightmaps (decoded by the reader script from the format rule): the highest
         * non-air block + 1 - min_y, and the highest block that blocks motion + 1 - min_y */
        for (int col = 0; col < 256; col++) {
            int surf = 0, floor = 0;
            for (int y = x->height - 1; y >= 0 && !floor; y--) {
                const char *nm = x->bn[blk[(size_t)y * 256 + (size_t)col]];
                if (!surf && strcmp(nm, "minecraft:air") != 0) surf = y + 1;
                if (!is_open(nm)) floor = y + 1;
            }
            const uint8_t *h = g + per + bper;
            cr_assert_eq(h[2 * col] | h[2 * col + 1] << 8, surf, "WORLD_SURFACE_WG of column %d", col);
            cr_assert_eq(h[512 + 2 * col] | h[512 + 2 * col + 1] << 8, floor, "OCEAN_FLOOR_WG of column %d", col);
        }
        char want[200];
        snprintf(want, sizeof want, "\"x\":%d,\"z\":%d,\"Status\":\"%s\",\"DataVersion\":%d,\"xPos\":%d,\"yPos\":%d,\"zPos\":%d",
                 chunks[2 * c], chunks[2 * c + 1], x->status, x->data_version, chunks[2 * c], x->min_y >> 4, chunks[2 * c + 1]);
        cr_assert(strstr(json, want), "%s not in %s", want, json);
    }
    free(got), free(json);
}

Test(pregen, independent_reader_agrees_with_fill_blocks_and_biomes)
{
    need_vanilla();
    const char *dir = TMP "/reader";
    fresh(dir);
    sh(BASE " --out %s", dir);
    static const int32_t chunks[] = {0, 0, -1, -1, 1, -2, -2, 1};

    /* what the library fills, through the public API */
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_biomes *b;
    const char *paths[] = {VANILLA};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, "minecraft:overworld", NULL, 5, &err), CF_OK, "%s", err.message);
    size_t per = 384 * 256, bper = 96 * 16;
    uint8_t *blk = malloc(per * 4), *bio = malloc(bper * 4);
    cr_assert_eq(cf_fill_blocks(w, 4, chunks, blk, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_fill_biomes(b, 4, chunks, bio, 1, &err), CF_OK, "%s", err.message);
    const char *bn[CF_PALETTE_MAX], *biomes[CF_BIOME_PALETTE_MAX];
    int nb = cf_block_palette(pg, bn);
    cf_biomes_palette(b, biomes);
    expect x = {blk, bio, bn, biomes, -64, 384, 5023, "minecraft:noise"};
    reader_agrees(dir, 4, chunks, &x);
    cr_assert_geq(nb, 4); /* the noise stage's blocks first; the settings' surface rules add the blocks they can write */
    free(blk), free(bio);
    cf_biomes_free(b);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* a .npy's data (past its header) and its F.palette.json names (a JSON array of strings) */
static uint8_t *npy_data(const char *path, size_t *n, uint8_t **whole)
{
    uint8_t *p = slurp(path, n);
    size_t h = 10 + (size_t)(p[8] | p[9] << 8);
    *whole = p, *n -= h;
    return p + h;
}
static int palette_names(const char *npy, char (*names)[64], const char **ptr, int max)
{
    char path[512];
    size_t n;
    snprintf(path, sizeof path, "%.*s.palette.json", (int)(strlen(npy) - 4), npy);
    char *j = (char *)slurp(path, &n), *s = strchr(j, '[');
    int k = 0;
    cr_assert(s, "%s", path);
    for (s++; (s = strchr(s, '"'));) {
        char *e = strchr(s + 1, '"');
        cr_assert(e && k < max);
        snprintf(names[k], 64, "%.*s", (int)(e - s - 1), s + 1);
        ptr[k] = names[k];
        k++;
        s = e + 1;
    }
    free(j);
    return k;
}

/* pregen's region read by the independent reader equals `fill --blocks [--stage S]` and
 * `fill --biomes` (the CLI's files) for chunks X0..X1, Z0..Z1 (x fastest) */
static void region_equals_fill(const char *dir, const char *pregen_opts, const char *fill_opts, const char *biome_opts,
                               int x0, int z0, int x1, int z1, int min_y, int height, int dv, const char *status)
{
    fresh(dir);
    sh(CF_BINARY " pregen --seed 5 --quiet --threads 1 --area %d,%d:%d,%d %s --out %s", x0 * 16, z0 * 16, x1 * 16 + 15, z1 * 16 + 15,
       pregen_opts, dir);
    sh(CF_BINARY " fill --blocks --seed 5 --threads 1 --quiet --chunks %d,%d:%d,%d %s --out %s/blocks.npy", x0, z0, x1, z1, fill_opts, dir);
    sh(CF_BINARY " fill --biomes --seed 5 --threads 1 --chunks %d,%d:%d,%d %s --out %s/biomes.npy >/dev/null", x0, z0, x1, z1,
       biome_opts, dir);
    static char bnames[CF_PALETTE_MAX][64], inames[CF_BIOME_PALETTE_MAX][64];
    const char *bn[CF_PALETTE_MAX], *in[CF_BIOME_PALETTE_MAX];
    char path[512];
    snprintf(path, sizeof path, "%s/blocks.npy", dir);
    palette_names(path, bnames, bn, CF_PALETTE_MAX);
    size_t n, m;
    uint8_t *wa, *wb, *blk = npy_data(path, &n, &wa);
    snprintf(path, sizeof path, "%s/biomes.npy", dir);
    palette_names(path, inames, in, CF_BIOME_PALETTE_MAX);
    uint8_t *bio = npy_data(path, &m, &wb);
    int nc = (x1 - x0 + 1) * (z1 - z0 + 1);
    int32_t chunks[64];
    for (int c = 0; c < nc; c++) chunks[2 * c] = x0 + c % (x1 - x0 + 1), chunks[2 * c + 1] = z0 + c / (x1 - x0 + 1);
    cr_assert_eq(n, (size_t)nc * (size_t)height * 256);
    cr_assert_eq(m, (size_t)nc * (size_t)height / 4 * 16);
    expect x = {blk, bio, bn, in, min_y, height, dv, status};
    reader_agrees(dir, nc, chunks, &x);
    free(wa), free(wb);
}

/* the surface stage (the default where the settings have one): 26.3 (chunks -1,0 and 0,0, two
 * regions) and 1.21.11 data (chunk 0,0); few chunks, as the surface stage costs ~60 ms a chunk */
Test(pregen, surface_stage_regions_equal_fill_blocks_surface)
{
    need_vanilla();
    region_equals_fill(TMP "/surface", "--pack " VANILLA, "--stage surface --pack " VANILLA, "--pack " VANILLA, -1, 0, 0, 0, -64,
                       384, 5023, "minecraft:surface");
    region_equals_fill(TMP "/surface121", "--stage surface --pack " TMP "/shared/vanilla/1.21.11",
                       "--pack " TMP "/shared/vanilla/1.21.11", "--pack " TMP "/shared/vanilla/1.21.11", 0, 0, 0, 0, -64, 384, 4671,
                       "minecraft:surface");
    size_t n, m;
    char *man = (char *)slurp(TMP "/surface/manifest.json", &n);
    cr_assert(strstr(man, "\"stage\":\t\"surface\""), "%s", man);
    free(man);
    /* the npy output of the surface stage is fill --blocks' (blocks.npy: chunks -1,0 and 0,0) */
    sh(CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --area -16,0:-1,15 --format npy --out " TMP "/surface/npy");
    uint8_t *wa, *wb, *b = npy_data(TMP "/surface/blocks.npy", &m, &wb), *a = npy_data(TMP "/surface/npy/r.-1.0.npy", &n, &wa);
    size_t per = 384 * 256;
    cr_assert_eq(m, 2 * per);
    cr_assert(n == per && memcmp(a, b, per) == 0, "r.-1.0.npy: not fill --blocks --stage surface's chunk -1,0");
    free(wa), free(wb);
}

/* --dimension: the dimension's settings and biome source (vanilla's nether and end) */
Test(pregen, dimensions_nether_and_end)
{
    need_vanilla();
    region_equals_fill(TMP "/nether", "--pack " VANILLA " --dimension minecraft:the_nether", "--pack " VANILLA " --settings minecraft:nether",
                       "--pack " VANILLA " --dimension minecraft:the_nether", 0, 0, 1, 1, 0, 128, 5023, "minecraft:surface");
    region_equals_fill(TMP "/end", "--pack " VANILLA " --dimension minecraft:the_end", "--pack " VANILLA " --settings minecraft:end",
                       "--pack " VANILLA " --dimension minecraft:the_end", 0, 0, 1, 0, 0, 128, 5023, "minecraft:surface");
    size_t n;
    char *man = (char *)slurp(TMP "/nether/manifest.json", &n);
    cr_assert(strstr(man, "\"dimension\":\t\"minecraft:the_nether\""), "%s", man);
    cr_assert(strstr(man, "\"settings\":\t\"minecraft:nether\""), "%s", man);
    free(man);
    /* a pack's dimension file decides: the nether's settings with one fixed biome */
    sh("mkdir -p " TMP "/dimpack/data/t/dimension && printf '%%s' '{\"type\": \"minecraft:the_nether\", \"generator\": {\"type\": "
       "\"minecraft:noise\", \"settings\": \"minecraft:nether\", \"biome_source\": {\"type\": \"minecraft:fixed\", \"biome\": "
       "\"minecraft:basalt_deltas\"}}}' > " TMP "/dimpack/data/t/dimension/deltas.json");
    /* (the noise stage: fill --blocks takes no dimension, and the surface rules read the biomes) */
    region_equals_fill(TMP "/deltas", "--stage noise --pack " VANILLA " --pack " TMP "/dimpack --dimension t:deltas",
                       "--stage noise --pack " VANILLA " --settings minecraft:nether",
                       "--pack " VANILLA " --pack " TMP "/dimpack --dimension t:deltas", 0, 0, 0, 0, 0, 128, 5023, "minecraft:noise");
    /* inline noise settings in a dimension file (tests/packs/biome-inline): the blocks and the
     * biomes of the same settings by id (t:by_id names t:same, a copy of t:inline's object) */
    sh("rm -rf " TMP "/inline " TMP "/by_id");
    sh(CF_BINARY " pregen --pack " CF_SOURCE_DIR "/tests/packs/biome-inline --dimension t:inline --seed 1 --quiet --threads 1 "
       "--area 0,0:31,15 --out " TMP "/inline");
    sh(CF_BINARY " pregen --pack " CF_SOURCE_DIR "/tests/packs/biome-inline --dimension t:by_id --seed 1 --quiet --threads 1 "
       "--area 0,0:31,15 --out " TMP "/by_id");
    size_t ni, nb;
    uint8_t *ri = slurp(TMP "/inline/r.0.0.mca", &ni), *rb = slurp(TMP "/by_id/r.0.0.mca", &nb);
    cr_assert(ni > 8192 && ni == nb && memcmp(ri, rb, ni) == 0, "r.0.0.mca: inline settings %zu bytes, by id %zu bytes, not equal", ni, nb);
    free(ri), free(rb);
    man = (char *)slurp(TMP "/inline/manifest.json", &n);
    cr_assert(strstr(man, "\"settings\":\t\"chunkfill:inline/t/inline\""), "%s", man);
    free(man);
}

/* the .npy regions hold exactly what `fill --blocks` gives for the region's chunks */
Test(pregen, npy_regions_equal_fill_blocks)
{
    need_vanilla();
    const char *dir = TMP "/npy";
    fresh(dir);
    sh(BASE " --format npy --out %s", dir);
    sh(CF_BINARY " fill --blocks --stage noise --pack " VANILLA " --seed 5 --threads 1 --chunks 0,-2:1,-1 --out %s/fill.npy", dir);
    size_t n, m;
    uint8_t *a = slurp(TMP "/npy/r.0.-1.npy", &n), *b = slurp(TMP "/npy/fill.npy", &m);
    cr_assert_eq(n, m);
    cr_assert_eq(n, 128 + 4 * 384 * 256);
    cr_assert(memcmp(a + 128, b + 128, n - 128) == 0);
    free(a), free(b);
}

/* --format tiles: per region its level-0 tiles, the files `chunkfill tiles` writes (the
 * nether: its relief, the roof, is cheap to draw); a removed tile is made again, a damaged
 * one refused */
#define TILES_AREA "--area -32,-32:300,300" /* 4 regions: 1, 2, 2 and 4 tiles */
#define TILES CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --dimension minecraft:the_nether " TILES_AREA \
                        " --format tiles"
Test(pregen, tiles_equal_the_tiles_command)
{
    need_vanilla();
    fresh(TMP "/tiles");
    sh("mkdir " TMP "/tiles");
    sh(TILES " --out " TMP "/tiles/p");
    sh(CF_BINARY " tiles --pack " VANILLA " --seed 5 --threads 1 --settings minecraft:nether " TILES_AREA " --out " TMP
       "/tiles/t 2>/dev/null");
    sh("cd " TMP "/tiles/t && test $(find relief -name '*.png' | wc -l) = 9 && for f in $(find relief -name '*.png'); do cmp $f ../p/$f; done");
    sh("test $(find " TMP "/tiles/p -name '*.png' | wc -l) = 9");
    size_t n;
    char *man = (char *)slurp(TMP "/tiles/p/manifest.json", &n);
    cr_assert(strstr(man, "\"r.0.0.tiles\":") && strstr(man, "\"r.-1.-1.tiles\":") && strstr(man, "\"layer\":\t\"relief\""), "%s", man);
    free(man);
    /* resume: a removed tile is made again, the same bytes */
    sh("cp -r " TMP "/tiles/p " TMP "/tiles/ref && rm " TMP "/tiles/p/relief/0/1/1.png");
    sh(TILES " --out " TMP "/tiles/p");
    sh("diff -r " TMP "/tiles/p " TMP "/tiles/ref");
    /* a damaged tile: one line naming it */
    sh("printf 'x' | dd of=" TMP "/tiles/p/relief/0/0/1.png bs=1 seek=100 conv=notrunc 2>/dev/null");
    const char *msg;
    cr_assert_eq(run(&msg, TILES " --out " TMP "/tiles/p"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "p/relief/0/0/1.png: differs from its digest in manifest.json"), "%s", msg);
    /* a folder of tiles without a manifest is not ours */
    sh("rm " TMP "/tiles/ref/manifest.json");
    cr_assert_eq(run(&msg, TILES " --out " TMP "/tiles/ref"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "holds region files or map tiles but no manifest.json"), "%s", msg);
}

/* ------------------------------------------------------------------ MPI */

Test(pregen, mpi_ranks_equal_one_process_byte_for_byte)
{
    need_vanilla();
    cr_assert(strlen(CF_MPI_BINARY) > 0, "chunkfill-mpi was not built: MPI not found (scripts/deps.sh: libopenmpi-dev)");
    /* the ranks' leak check is off (-x ASAN_OPTIONS, sanitizer builds): OpenMPI's dlopen'ed
     * plugins keep allocations to exit in frames LeakSanitizer cannot name, so no suppression
     * by library matches them; our code's leaks are checked by the single-process runs */
    for (int fmt = 0; fmt < 2; fmt++) {
        const char *f = fmt ? "npy" : "mca";
        fresh(TMP "/one");
        sh("rm -rf " TMP "/two " TMP "/three");
        sh(BASE " --format %s --out " TMP "/one", f);
        sh("mpirun -np 2 --oversubscribe --allow-run-as-root -x ASAN_OPTIONS=detect_leaks=0 " CF_MPI_BINARY
           " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " AREA " --format %s --out " TMP "/two >/dev/null", f);
        same_folders(TMP "/one", TMP "/two");
        if (fmt) continue;
        sh("mpirun -np 3 --oversubscribe --allow-run-as-root -x ASAN_OPTIONS=detect_leaks=0 " CF_MPI_BINARY
           " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " AREA " --format %s --schedule dynamic --out " TMP
           "/three >/dev/null", f);
        same_folders(TMP "/one", TMP "/three");
    }
}

/* tiles: 2 ranks equal one process (the nether's cheap relief) */
Test(pregen, mpi_tiles_equal_one_process)
{
    need_vanilla();
    cr_assert(strlen(CF_MPI_BINARY) > 0, "chunkfill-mpi was not built: MPI not found (scripts/deps.sh: libopenmpi-dev)");
    fresh(TMP "/tiles1");
    sh("rm -rf " TMP "/tiles2");
    sh(TILES " --out " TMP "/tiles1");
    sh("mpirun -np 2 --oversubscribe --allow-run-as-root -x ASAN_OPTIONS=detect_leaks=0 " CF_MPI_BINARY " pregen --pack " VANILLA
       " --seed 5 --quiet --threads 1 --dimension minecraft:the_nether " TILES_AREA " --format tiles --out " TMP "/tiles2 >/dev/null");
    sh("diff -r " TMP "/tiles1 " TMP "/tiles2 && test -z \"$(find " TMP "/tiles2 -name '.*')\"");
}

Test(pregen, plain_binary_refuses_to_run_as_mpi_ranks)
{
    fresh(TMP "/plain");
    const char *msg;
    cr_assert_eq(run(&msg, "OMPI_COMM_WORLD_SIZE=2 " BASE " --out " TMP "/plain"), 2);
    cr_assert(strstr(msg, "chunkfill-mpi"), "%s", msg);
}

/* ------------------------------------------------------------------ faults */

/* starts pregen on a bigger area (4 regions of 25 chunks), waits until the manifest
 * lists its first region, sends sig; returns the exit status (128 + signal if killed) */
#define SLOW_AREA "--area -80,-80:79,79"
static int interrupt_run(const char *dir, int sig, int *listed_at_signal)
{
    char log[512];
    snprintf(log, sizeof log, "%s.stderr", dir);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        if (!freopen(log, "w", stderr)) _exit(126);
        execl(CF_BINARY, CF_BINARY, "pregen", "--pack", VANILLA, "--seed", "5", "--quiet", "--threads", "1", "--stage", "noise", "--area",
              "-80,-80:79,79", "--out", dir, (char *)NULL);
        _exit(127);
    }
    char man[512];
    snprintf(man, sizeof man, "%s/manifest.json", dir);
    int listed = 0;
    for (int t = 0; t < 20000 && !listed; t++) {
        FILE *f = fopen(man, "r");
        if (f) {
            char buf[8192];
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            buf[n] = 0;
            fclose(f);
            for (char *s = buf; (s = strstr(s, "\"r.")); s++) listed++;
        }
        if (!listed) usleep(1000);
    }
    kill(pid, sig);
    *listed_at_signal = listed;
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* the uninterrupted run, made once per build folder (the name carries the area: a change of
 * SLOW_AREA or of the options needs a new name) */
static void reference(void)
{
    struct stat st;
    if (stat(TMP "/ref-80/manifest.json", &st) == 0) return;
    fresh(TMP "/ref-80");
    sh(CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " SLOW_AREA " --out " TMP "/ref-80");
}

Test(pregen, sigkill_mid_run_then_rerun_equals_an_uninterrupted_run)
{
    need_vanilla();
    reference();
    fresh(TMP "/killed");
    int listed, rc = interrupt_run(TMP "/killed", SIGKILL, &listed);
    cr_assert_eq(rc, 128 + SIGKILL, "the run ended before the kill (status %d)", rc);
    cr_assert(listed >= 1 && listed < 4, "the kill came at %d of 4 regions", listed);
    /* no partial region: every region file present is the reference's */
    for (int rz = -1; rz <= 0; rz++)
        for (int rx = -1; rx <= 0; rx++) {
            char p[256], q[256];
            snprintf(p, sizeof p, TMP "/killed/r.%d.%d.mca", rx, rz);
            snprintf(q, sizeof q, TMP "/ref-80/r.%d.%d.mca", rx, rz);
            struct stat st;
            if (stat(p, &st) != 0) continue;
            size_t n, m;
            uint8_t *a = slurp(p, &n), *b = slurp(q, &m);
            cr_assert(n == m && memcmp(a, b, n) == 0, "%s is partial", p);
            free(a), free(b);
        }
    sh(CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " SLOW_AREA " --out " TMP "/killed");
    same_folders(TMP "/ref-80", TMP "/killed");
}

Test(pregen, sigterm_finishes_the_region_in_flight_then_rerun_completes)
{
    need_vanilla();
    reference();
    fresh(TMP "/term");
    int listed, rc = interrupt_run(TMP "/term", SIGTERM, &listed);
    cr_assert_eq(rc, 1, "status %d", rc);
    size_t n;
    char *log = (char *)slurp(TMP "/term.stderr", &n);
    cr_assert(strstr(log, "stopped"), "%s", log);
    free(log);
    /* the region in flight was finished and recorded: the manifest lists every file there */
    char *man = (char *)slurp(TMP "/term/manifest.json", &n);
    int files = 0, in_manifest = 0;
    DIR *d = opendir(TMP "/term");
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "r.", 2) == 0) files++, in_manifest += strstr(man, e->d_name) != NULL;
    closedir(d);
    free(man);
    cr_assert_eq(files, in_manifest);
    cr_assert(files >= 1 && files < 4, "%d regions at the stop", files);
    sh(CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --stage noise " SLOW_AREA " --out " TMP "/term");
    same_folders(TMP "/ref-80", TMP "/term");
}

Test(pregen, rerun_skips_complete_regions)
{
    need_vanilla();
    fresh(TMP "/skip");
    sh(SBASE " --out " TMP "/skip");
    struct stat a, b;
    cr_assert_eq(stat(TMP "/skip/r.0.0.mca", &a), 0);
    sh("rm " TMP "/skip/r.-1.0.mca");
    sleep(1);
    sh(SBASE " --out " TMP "/skip");
    cr_assert_eq(stat(TMP "/skip/r.0.0.mca", &b), 0);
    cr_assert_eq(a.st_mtime, b.st_mtime, "a complete region was rewritten");
    cr_assert_eq(a.st_ino, b.st_ino, "a complete region was rewritten");
    cr_assert_eq(stat(TMP "/skip/r.-1.0.mca", &b), 0, "the missing region was not made again");
}

/* ------------------------------------------------------------------ bad input */

Test(pregen, refuses_other_parameters_in_the_same_folder)
{
    need_vanilla();
    fresh(TMP "/params");
    sh(SBASE " --out " TMP "/params");
    const char *msg;
    cr_assert_eq(run(&msg, CF_BINARY " pregen --pack " VANILLA " --seed 6 --quiet --stage noise " SMALL " --out " TMP "/params"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "manifest.json#/params/seed: this folder was made with \"5\", this run has \"6\""), "%s", msg);
    /* an overlapping area that does not hold the folder's (one that does grows it: cli::pregen_grows_a_world) */
    cr_assert_eq(run(&msg, CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --stage noise --area 0,0:31,15 --out " TMP "/params"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "params/manifest.json#/params/chunks: this folder was made with [-1,0,0,0], this run has [0,0,1,0]"), "%s", msg);
    cr_assert_eq(run(&msg, SBASE " --format npy --out " TMP "/params"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "manifest.json#/params/format"), "%s", msg);
    /* the other stage */
    cr_assert_eq(run(&msg, CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet " SMALL " --out " TMP "/params"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "manifest.json#/params/stage: this folder was made with \"noise\", this run has \"surface\""), "%s", msg);
}

Test(pregen, refuses_a_truncated_manifest)
{
    need_vanilla();
    fresh(TMP "/trunc");
    sh(SBASE " --out " TMP "/trunc");
    sh("head -c 300 " TMP "/trunc/manifest.json > " TMP "/m && mv " TMP "/m " TMP "/trunc/manifest.json");
    const char *msg;
    cr_assert_eq(run(&msg, SBASE " --out " TMP "/trunc"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "trunc/manifest.json: not a complete JSON object"), "%s", msg);
}

/* a manifest of another format version is refused, not read as ours */
Test(pregen, refuses_a_manifest_of_another_version)
{
    need_vanilla();
    fresh(TMP "/ver");
    sh(SBASE " --out " TMP "/ver");
    sh("sed -E 's/\"chunkfill_pregen\":[[:space:]]*1,/\"chunkfill_pregen\": 99,/' " TMP "/ver/manifest.json > " TMP "/mv && mv " TMP
       "/mv " TMP "/ver/manifest.json");
    const char *msg;
    cr_assert_eq(run(&msg, SBASE " --out " TMP "/ver"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "ver/manifest.json#/chunkfill_pregen: not 1, this chunkfill reads version 1"), "%s", msg);
}

Test(pregen, refuses_region_files_that_are_not_ours)
{
    need_vanilla();
    const char *msg;
    /* a folder with a region file and no manifest */
    fresh(TMP "/foreign");
    sh("mkdir -p " TMP "/foreign && echo hello > " TMP "/foreign/r.0.0.mca");
    cr_assert_eq(run(&msg, SBASE " --out " TMP "/foreign"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "holds region files or map tiles but no manifest.json"), "%s", msg);
    /* a region file whose bytes differ from the manifest's digest */
    fresh(TMP "/damaged");
    sh(SBASE " --out " TMP "/damaged");
    sh("printf 'x' | dd of=" TMP "/damaged/r.0.0.mca bs=1 seek=9000 conv=notrunc 2>/dev/null");
    cr_assert_eq(run(&msg, SBASE " --out " TMP "/damaged"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "r.0.0.mca: differs from its digest in manifest.json"), "%s", msg);
    /* a file the manifest does not list, which is not what this run makes */
    fresh(TMP "/unlisted");
    sh(SBASE " --out " TMP "/unlisted");
    sh("sed -i '/\"r.-1.0.mca\"/d' " TMP "/unlisted/manifest.json"); /* the first of the regions: valid JSON after */
    sh("cp " TMP "/unlisted/r.0.0.mca " TMP "/unlisted/r.-1.0.mca");
    cr_assert_eq(run(&msg, SBASE " --out " TMP "/unlisted"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "r.-1.0.mca: not listed in manifest.json and not what this run makes"), "%s", msg);
}

Test(pregen, an_unwritable_folder_is_one_clear_error)
{
    need_vanilla();
    const char *msg;
    fresh(TMP "/file");
    sh("touch " TMP "/file");
    cr_assert_eq(run(&msg, SBASE " --out " TMP "/file/sub"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "file/sub: cannot create the folder: Not a directory"), "%s", msg);
    cr_assert_eq(run(&msg, SBASE " --out /proc/chunkfill-pregen"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "/proc/chunkfill-pregen: cannot create the folder"), "%s", msg);
}

/* the surface stage on the device (both dialects' rules run on OpenCL): --device opencl and
 * auto write the CPU's bytes; settings without surface rules refuse --stage surface */
Test(pregen, surface_stage_devices)
{
    need_vanilla();
    const char *msg;
    fresh(TMP "/dev");
    sh("rm -rf " TMP "/dev2 " TMP "/dev3 " TMP "/dev4 " TMP "/devcpu " TMP "/devauto");
#define NETHER CF_BINARY " pregen --pack " VANILLA " --seed 5 --quiet --threads 1 --dimension minecraft:the_nether --area 0,0:15,15 --format npy"
    cr_assert_eq(run(&msg, NETHER " --device opencl --out " TMP "/dev"), 0, "%s", msg);
    cr_assert_eq(run(&msg, NETHER " --device auto --out " TMP "/devauto"), 0, "%s", msg);
    cr_assert_eq(run(&msg, NETHER " --out " TMP "/devcpu"), 0, "%s", msg);
    sh("cmp " TMP "/dev/r.0.0.npy " TMP "/devcpu/r.0.0.npy && cmp " TMP "/devauto/r.0.0.npy " TMP "/devcpu/r.0.0.npy");
#undef NETHER
    /* the noise stage with auto and no OpenCL platform (the ICD loader pointed at nothing):
     * one line, then the CPU's bytes */
    cr_assert_eq(run(&msg, "OCL_ICD_VENDORS=/nonexistent " SBASE " --format npy --device auto --out " TMP "/dev3"), 0);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "chunkfill: no usable OpenCL device ("), "%s", msg);
    cr_assert(strstr(msg, "); filling on the CPU"), "%s", msg);
    sh(SBASE " --format npy --out " TMP "/dev4 && cmp " TMP "/dev3/r.0.0.npy " TMP "/dev4/r.0.0.npy");
    sh("mkdir -p " TMP "/flat/data/t/worldgen/noise_settings && printf '%%s' '{\"sea_level\": 0, \"default_block\": \"minecraft:stone\", "
       "\"default_fluid\": \"minecraft:water\", \"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": "
       "{\"final_density\": -1}}' > " TMP "/flat/data/t/worldgen/noise_settings/flat.json");
    cr_assert_eq(run(&msg, CF_BINARY " pregen --pack " TMP "/flat --settings t:flat --seed 5 --quiet --area 0,0:15,15 --stage surface "
                     "--format npy --out " TMP "/dev2"), 1);
    cr_assert_eq(lines(msg), 1, "%s", msg);
    cr_assert(strstr(msg, "t:flat: --stage surface: these settings have no surface stage"), "%s", msg);
}

/* ------------------------------------------------------------------ the whole world */

/* the totals of an area as large as the world come by arithmetic: the run reports them
 * after its first region (a walk over its 1.4e10 regions took minutes, deaf to the stop
 * flag); one chunk past the world border is refused before anything is written */
typedef struct world_watch {
    cf_pregen_progress first;
    int calls;
    volatile int stop;
} world_watch;
static void world_progress(void *ctx, const cf_pregen_progress *p)
{
    world_watch *w = ctx;
    if (w->calls++ == 0) w->first = *p;
    w->stop = 1;
}
Test(pregen, the_whole_world_is_counted_at_once, .timeout = 120)
{
    const char *packs[1] = {CF_SOURCE_DIR "/tests/packs/tiny"};
    world_watch w = {0};
    cf_pregen_params p = {.packs = packs, .npacks = 1, .seed = "1", .settings = "t:tiny", .x0 = -1875000, .z0 = -1875000,
                          .x1 = 1874999, .z1 = 1874999, .dir = TMP "/world", .format = CF_PREGEN_NPY,
                          .stage = CF_PREGEN_STAGE_NOISE, .threads = 1, .rank = 0, .nranks = 1,
                          .progress = world_progress, .progress_ctx = &w, .stop = &w.stop};
    fresh(TMP "/world");
    cf_error err = {0};
    cr_assert_eq(cf_pregen_prepare(&p, &err), CF_OK, "%s", err.message);
    int stopped = 0;
    cr_assert_eq(cf_pregen_run(&p, &stopped, &err), CF_OK, "%s", err.message);
    cr_assert_eq(stopped, 1);
    cr_assert_eq(w.calls, 1);
    cr_assert_eq(w.first.regions_total, 117188L * 117188L);
    cr_assert_eq(w.first.chunks_total, 3750000LL * 3750000LL);
    cr_assert_eq(w.first.chunks_done, 24 * 24); /* region -58594: chunks -1875008..-1874977, 24 of them in the area */
    /* one region row and column more: beyond the border */
    p.x1 = 1875000, p.dir = TMP "/world2";
    fresh(TMP "/world2");
    cr_assert_neq(cf_pregen_prepare(&p, &err), CF_OK);
    cr_assert(strstr(err.message, "reaches beyond the world"), "%s", err.message);
    struct stat st;
    cr_assert_neq(stat(TMP "/world2/manifest.json", &st), 0, "a folder was made for an area beyond the world");
}

/* --shape circle (cf_pregen_params.shape): each rank's regions and chunks, counted by arithmetic
 * before the run, equal a count of the chunks whose centre is closer than the radius (Chunky's
 * Math.hypot, in doubles here) in the regions of its class; regions without such chunks are
 * neither counted nor made. The whole world's circle is counted at once too. */
Test(pregen, circle_totals_per_rank, .timeout = 120)
{
    const char *packs[1] = {CF_SOURCE_DIR "/tests/packs/tiny"};
    const long cx = -300, cz = 450, r = 700;
    for (int nr = 1; nr <= 3; nr++)
        for (int rank = 0; rank < nr; rank++) {
            world_watch w = {0};
            cf_pregen_params p = {.packs = packs, .npacks = 1, .seed = "1", .settings = "t:tiny", .x0 = -63, .z0 = -16, .x1 = 25,
                                  .z1 = 71, /* the chunks of blocks cx - r .. cx + r, cz - r .. cz + r */
                                  .dir = TMP "/circle", .format = CF_PREGEN_NPY, .stage = CF_PREGEN_STAGE_NOISE, .threads = 1,
                                  .rank = rank, .nranks = nr, .progress = world_progress, .progress_ctx = &w, .stop = &w.stop,
                                  .shape = CF_PREGEN_CIRCLE, .center_x = cx, .center_z = cz, .radius = r};
            long rx0 = p.x0 >> 5, rz0 = p.z0 >> 5, nrx = (p.x1 >> 5) - rx0 + 1, nrz = (p.z1 >> 5) - rz0 + 1, regions = 0;
            long long chunks = 0;
            for (long i = rank; i < nrx * nrz; i += nr) {
                long rx = rx0 + i % nrx, rz = rz0 + i / nrx, n = 0;
                for (long z = rz * 32; z < rz * 32 + 32; z++)
                    for (long x = rx * 32; x < rx * 32 + 32; x++) n += hypot((double)cx - (double)(x * 16 + 8), (double)cz - (double)(z * 16 + 8)) < (double)r;
                regions += n > 0, chunks += n;
            }
            fresh(TMP "/circle");
            cf_error err = {0};
            cr_assert_eq(cf_pregen_prepare(&p, &err), CF_OK, "%s", err.message);
            int stopped = 0;
            cr_assert_eq(cf_pregen_run(&p, &stopped, &err), CF_OK, "%s", err.message);
            cr_assert_eq(w.first.regions_total, regions, "rank %d of %d", rank, nr);
            cr_assert_eq(w.first.chunks_total, chunks, "rank %d of %d", rank, nr);
        }
    world_watch w = {0};
    cf_pregen_params p = {.packs = packs, .npacks = 1, .seed = "1", .settings = "t:tiny", .x0 = -1875000, .z0 = -1875000,
                          .x1 = 1874999, .z1 = 1874999, .dir = TMP "/world", .format = CF_PREGEN_NPY,
                          .stage = CF_PREGEN_STAGE_NOISE, .threads = 1, .rank = 0, .nranks = 1, .progress = world_progress,
                          .progress_ctx = &w, .stop = &w.stop, .shape = CF_PREGEN_CIRCLE, .radius = 29999984};
    fresh(TMP "/world");
    cf_error err = {0};
    cr_assert_eq(cf_pregen_prepare(&p, &err), CF_OK, "%s", err.message);
    int stopped = 0;
    cr_assert_eq(cf_pregen_run(&p, &stopped, &err), CF_OK, "%s", err.message);
    /* pi r^2 / 256 chunks, within the rim's few chunks per row */
    double want = 3.14159265358979 * 29999984.0 * 29999984.0 / 256;
    cr_assert(fabs((double)w.first.chunks_total - want) < 4 * 3750000.0, "%lld chunks, about %.0f expected", w.first.chunks_total, want);
    cr_assert_lt(w.first.regions_total, 117188L * 117188L);
}

/* --format tiles --shape circle: the level-0 tiles that meet the circle's chunks, no others (a
 * corner tile of the bounding square is left out) */
Test(pregen, circle_tiles_meet_the_circle, .timeout = 120)
{
    const char *packs[1] = {CF_SOURCE_DIR "/tests/packs/tiny"};
    /* centre 0,0, R 300: blocks -300..300, tiles -2..1 on each axis, all four regions hold chunks of
     * the circle; corner tile (1,1)'s nearest chunk centre (264,264) is 373 blocks away, tile (1,0)'s
     * (264,-8) 264 */
    cf_pregen_params p = {.packs = packs, .npacks = 1, .seed = "1", .settings = "t:tiny", .x0 = -19, .z0 = -19, .x1 = 18, .z1 = 18,
                          .dir = TMP "/ctiles", .format = CF_PREGEN_TILES, .stage = CF_PREGEN_STAGE_NOISE, .threads = 1, .rank = 0,
                          .nranks = 1, .shape = CF_PREGEN_CIRCLE, .center_x = 0, .center_z = 0, .radius = 300};
    fresh(TMP "/ctiles");
    cf_error err = {0};
    cr_assert_eq(cf_pregen_prepare(&p, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_pregen_run(&p, NULL, &err), CF_OK, "%s", err.message);
    for (int ty = -2; ty <= 1; ty++)
        for (int tx = -2; tx <= 1; tx++) {
            char path[256];
            snprintf(path, sizeof path, TMP "/ctiles/relief/0/%d/%d.png", tx, ty);
            struct stat st;
            int corner = (tx == -2 || tx == 1) && (ty == -2 || ty == 1);
            cr_assert_eq(stat(path, &st) == 0, !corner, "%s: %s", path, corner ? "a tile outside the circle" : "missing");
        }
}
