/* test_golden.c - the CPU reference against the oracle, bit for bit.
 *
 * Golden files (tests/golden/NAME.txt, made by tests/golden/make-golden.sh with the
 * deepslate oracle of ../shared/oracle) hold blocks:
 *   @ pack=<nodes|vanilla-26.3> settings=ID seed=N seedtext=TEXT|- function=ID
 *   X Y Z 0xF32BITS
 * Each block is compiled and sampled through the public API; every value must
 * have the same float bits (NaN matches any NaN).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"
#include "testutil.h"


typedef struct block {
    char pack[64], settings[128], seedtext[128], function[256];
    long long seed;
    size_t n, cap;
    int32_t *xyz;
    double *dxyz; /* the same points as written (raw noises take fractions) */
    uint32_t *bits;
} block;

static int have_vanilla(void)
{
    char p[4096];
    struct stat st;
    shared_need("vanilla/26.3/data", p, sizeof p);
    return stat(p, &st) == 0;
}

static void pack_path(const char *pack, char *out, size_t n)
{
    if (strcmp(pack, "nodes") == 0) snprintf(out, n, "%s/tests/packs/nodes", CF_SOURCE_DIR);
    else if (strcmp(pack, "vanilla-26.3") == 0) snprintf(out, n, "%s/vanilla/26.3", shared_dir());
    else if (strcmp(pack, "default") == 0) out[0] = 0;
    else cr_assert_fail("unknown pack %s in golden data", pack);
}

static float f_of_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* runs one block; returns the number of mismatches */
static size_t run_block(const block *b, const char *file)
{
    char path[4096];
    pack_path(b->pack, path, sizeof path);
    const char *paths[1] = {path};
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cr_assert_eq(cf_pack_open(&pk, paths, path[0] ? 1 : 0, NULL, &err), CF_OK, "%s: %s", file, err.message);
    const char *fn[1] = {b->function};
    cr_assert_eq(cf_program_compile(&pg, pk, b->settings, fn, 1, &err), CF_OK, "%s: %s: %s", file, b->function, err.message);
    int64_t seed = (int64_t)b->seed;
    if (strcmp(b->seedtext, "-") != 0) {
        /* the text seed must hash to the oracle's number */
        int64_t s2;
        cr_assert_eq(cf_seed_parse(b->seedtext, &s2, &err), CF_OK);
        cr_assert_eq(s2, seed, "text seed %s hashed to %lld, oracle says %lld", b->seedtext, (long long)s2, b->seed);
    }
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    double *out = malloc(sizeof(double) * (b->n + 1));
    if (strncmp(b->function, "noise:", 6) == 0) {
        /* the raw NoiseStack at real coordinates (internal API) */
        const cf_node *nz = &pg->nodes[pg->outputs[0]];
        cr_assert_eq(nz->kind, NK_NOISE);
        for (size_t i = 0; i < b->n; i++)
            out[i] = cf_stack_point(w->tab, w->noise_stack[nz->noise], b->dxyz[3 * i], b->dxyz[3 * i + 1], b->dxyz[3 * i + 2]);
    } else {
        cr_assert_eq(cf_sample(w, 0, b->n, b->xyz, out, &err), CF_OK, "%s", err.message);
    }
    size_t bad = 0;
    for (size_t i = 0; i < b->n; i++) {
        float got = (float)out[i], want = f_of_bits(b->bits[i]);
        uint32_t gb;
        memcpy(&gb, &got, 4);
        int same = (isnan(got) && isnan(want)) || gb == b->bits[i];
        if (!same && bad++ < 5)
            cr_log_error("%s: %s %s seed %lld at %d %d %d: got %.9g (0x%08x), oracle %.9g (0x%08x)", file, b->settings,
                         b->function, b->seed, b->xyz[3 * i], b->xyz[3 * i + 1], b->xyz[3 * i + 2], got, gb, want,
                         b->bits[i]);
    }
    free(out);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return bad;
}

/* runs every block of every golden file whose name starts with prefix */
static void run_files(const char *prefix, size_t *blocks, size_t *values)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/golden", CF_SOURCE_DIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no %s", dir);
    struct dirent *e;
    size_t bad = 0;
    *blocks = *values = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || l < 4 || strcmp(e->d_name + l - 4, ".txt") != 0) continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        cr_assert_not_null(f);
        char line[1024];
        block b;
        memset(&b, 0, sizeof b);
        int open = 0;
        while (1) {
            char *got = fgets(line, sizeof line, f);
            if (!got || line[0] == '@') {
                if (open) {
                    bad += run_block(&b, e->d_name);
                    (*blocks)++;
                    *values += b.n;
                }
                if (!got) break;
                char seed[64];
                free(b.xyz), free(b.bits), free(b.dxyz);
                memset(&b, 0, sizeof b);
                cr_assert(line_field(line, "pack", b.pack, sizeof b.pack) == 0 && line_field(line, "settings", b.settings, sizeof b.settings) == 0
                              && line_field(line, "seed", seed, sizeof seed) == 0 && line_field(line, "seedtext", b.seedtext, sizeof b.seedtext) == 0
                              && line_field(line, "function", b.function, sizeof b.function) == 0,
                          "%s: bad header %s", e->d_name, line);
                b.seed = strtoll(seed, NULL, 10);
                open = 1;
                continue;
            }
            if (line[0] == '#' || line[0] == '\n') continue;
            double x, y, z;
            unsigned bits;
            cr_assert_eq(sscanf(line, "%lf %lf %lf 0x%x", &x, &y, &z, &bits), 4, "%s: bad line %s", e->d_name, line);
            if (b.n == b.cap) {
                b.cap = b.cap ? b.cap * 2 : 256;
                b.xyz = realloc(b.xyz, sizeof(int32_t) * 3 * b.cap);
                b.dxyz = realloc(b.dxyz, sizeof(double) * 3 * b.cap);
                b.bits = realloc(b.bits, sizeof(uint32_t) * b.cap);
            }
            int whole = x == (int32_t)x && y == (int32_t)y && z == (int32_t)z;
            cr_assert(whole || strncmp(b.function, "noise:", 6) == 0, "%s: density functions take block positions: %s", e->d_name, line);
            b.xyz[3 * b.n] = (int32_t)x, b.xyz[3 * b.n + 1] = (int32_t)y, b.xyz[3 * b.n + 2] = (int32_t)z;
            b.dxyz[3 * b.n] = x, b.dxyz[3 * b.n + 1] = y, b.dxyz[3 * b.n + 2] = z;
            b.bits[b.n++] = bits;
        }
        free(b.xyz), free(b.bits), free(b.dxyz);
        fclose(f);
    }
    closedir(d);
    cr_assert_eq(bad, 0, "%zu values differ from the oracle", bad);
}

Test(golden, node_pack_equals_oracle)
{
    size_t blocks, values;
    run_files("nodes", &blocks, &values);
    cr_assert_gt(blocks, 44, "expected a block per node kind and variant, found %zu", blocks);
    cr_log_info("node pack: %zu functions, %zu values, all bit-identical", blocks, values);
}

Test(golden, raw_noises_equal_oracle)
{
    /* the raw noises are vanilla's (noise.txt reads $SHARED/vanilla/26.3) */
    if (!have_vanilla()) cr_skip_test("no %s/vanilla/26.3 (CI has it)", shared_dir());
    size_t blocks, values;
    run_files("noise", &blocks, &values);
    cr_assert_gt(blocks, 0);
}

Test(golden, vanilla_equals_oracle, .timeout = 600)
{
    if (!have_vanilla()) cr_skip_test("no %s/vanilla/26.3 (CI has it)", shared_dir());
    size_t blocks, values;
    run_files("vanilla", &blocks, &values);
    cr_assert_gt(blocks, 100, "found %zu vanilla blocks", blocks);
    cr_log_info("vanilla: %zu function/seed blocks, %zu values, all bit-identical", blocks, values);
}

/* every node kind of the table appears in the node test pack */
Test(golden, node_pack_covers_every_kind)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cat %s/tests/packs/nodes/data/*/worldgen/density_function/*.json", CF_SOURCE_DIR);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 20, len = 0;
    char *all = malloc(cap);
    size_t r;
    while ((r = fread(all + len, 1, cap - len - 1, p)) > 0) {
        len += r;
        if (len + 1 == cap) all = realloc(all, cap *= 2);
    }
    all[len] = 0;
    pclose(p);
    const char *name;
    for (int i = 0; cf_node_kind_info(i, &name, NULL, NULL); i++) {
        char pat[128];
        snprintf(pat, sizeof pat, "\"minecraft:%s\"", name);
        int bare = strcmp(name, "constant") == 0; /* bare numbers are constants too */
        if (strncmp(name, "libnoise:", 9) == 0) continue; /* test_libnoise covers the libnoise kinds */
        if (strncmp(name, "hytale:", 7) == 0) continue;   /* test_hytale covers the Hytale kinds */
        if (strncmp(name, "mc121:", 6) == 0) continue;    /* test_mc121 covers the 1.21 kinds (tests/packs/mc121) */
        if (strncmp(name, "iris:", 5) == 0) continue;     /* test_iris covers the Iris kinds */
        cr_expect(bare || strstr(all, pat), "node kind %s is not in the node test pack", name);
    }
    free(all);
}
