/* test_biome.c - the biome stage (BIOMES.md) against the oracle's answers in
 * tests/golden/biome/biomes.txt (made by tests/golden/biome/make-biome.py; the
 * command is in its README): tree digests, lookups on box boundaries, climate
 * targets and biomes of overworld / large_biomes / amplified / nether / end in
 * 26.3 and 1.21.11 (three seeds, near and far), the zoom; then the volume path
 * against the point path, the fill order's warm start, sources from pack files,
 * the CLI, and bad input. Tests read the vanilla data of ../shared (CF_SHARED). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chunkfill_net.h"
#include "cpu/cpu.h"
#include "kernels/cf_math.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"
#include "testutil.h"

static FILE *golden(void)
{
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/biome/biomes.txt", "r");
    cr_assert(f, "tests/golden/biome/biomes.txt is missing");
    return f;
}

/* a cf_biomes for a golden line's version, settings and seed (one open at a time, reused) */
static cf_biomes *cur;
static cf_pack *curpk;
static char curkey[256];
static cf_biomes *source_for(const char *ver, const char *settings, const char *seed)
{
    char key[256];
    snprintf(key, sizeof key, "%s %s %s", ver, settings, seed);
    if (cur && strcmp(key, curkey) == 0) return cur;
    cf_biomes_free(cur);
    cf_pack_free(curpk);
    cur = NULL;
    char path[4096], rel[64];
    snprintf(rel, sizeof rel, "vanilla/%s", ver);
    shared_need(rel, path, sizeof path);
    const char *paths[1] = {path};
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&curpk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    int64_t s;
    cr_assert_eq(cf_seed_parse(seed, &s, &err), CF_OK);
    cr_assert_eq(cf_biomes_open(&cur, curpk, NULL, settings, NULL, s, &err), CF_OK, "%s", err.message);
    snprintf(curkey, sizeof curkey, "%s", key);
    return cur;
}
static void source_done(void)
{
    cf_biomes_free(cur);
    cf_pack_free(curpk);
    cur = NULL;
    curpk = NULL;
    curkey[0] = 0;
}

static int pal_of(const cf_biomes *b, const char *name)
{
    const char *names[CF_BIOME_PALETTE_MAX];
    int n = cf_biomes_palette(b, names);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

/* a built-in list by its golden name ("1.19", "nether") and palette names */
static void list_by_name(const char *name, bm_list *l, const char **names)
{
    if (strcmp(name, "nether") == 0) {
        cr_assert_eq(bm_preset_nether(l, names), 0);
        return;
    }
    cr_assert_eq(bm_preset_overworld(name, l), 0, "no preset %s", name);
    for (int i = 0; i < BP_NAMES; i++) names[i] = bp_names[i];
}

Test(biome, tree_digests_equal_oracle_dumps)
{
    FILE *f = golden();
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char list[32], hex[80];
        int k;
        if (sscanf(line, "D %31s %d %79s", list, &k, hex) != 3) continue;
        bm_list l;
        const char *names[BP_NAMES];
        list_by_name(list, &l, names);
        int nn;
        int32_t *tree = bm_tree_build(&l, k, &nn);
        cr_assert(tree);
        char got[65];
        bm_tree_digest(tree, names, got);
        cr_expect_str_eq(got, hex, "list %s with %d children per node: tree digest differs from the oracle's dump", list, k);
        free(tree);
        bm_list_free(&l);
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 9, "9 tree digests expected, found %d", n);
}

/* The game's own trees (tests/golden/biome/game-trees.txt, from cubiomes' and Pumpkin's
 * dumps by scripts/game_tree_digest.py): the tree built from the shipped list of each
 * version, with that version's K (bm_version_k), hashes to the dump's digest. */
Test(biome, tree_digests_equal_game_dumps)
{
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/biome/game-trees.txt", "r");
    cr_assert(f, "tests/golden/biome/game-trees.txt is missing");
    char line[1024];
    int n = 0, nether = 0;
    while (fgets(line, sizeof line, f)) {
        char ver[32], hex[80];
        int k;
        if (line[0] != 'G') continue;
        cr_assert_eq(sscanf(line, "G %31s %d %79s", ver, &k, hex), 3, "bad line %s", line);
        int is_nether = strncmp(ver, "nether@", 7) == 0;
        const char *v = is_nether ? ver + 7 : ver;
        cr_expect_eq(bm_version_k(v), k, "%s: K %d, the game's dump has %d", ver, bm_version_k(v), k);
        bm_list l;
        const char *names[BP_NAMES];
        if (is_nether) {
            cr_assert_eq(bm_preset_nether(&l, names), 0);
            nether++;
        } else {
            cr_assert_eq(bm_preset_overworld(v, &l), 0, "no preset for %s", v);
            for (int i = 0; i < BP_NAMES; i++) names[i] = bp_names[i];
        }
        int nn;
        int32_t *tree = bm_tree_build(&l, bm_version_k(v), &nn);
        cr_assert(tree);
        char got[65];
        bm_tree_digest(tree, names, got);
        cr_expect_str_eq(got, hex, "%s: our tree (K %d) differs from the game's dump", ver, bm_version_k(v));
        free(tree);
        bm_list_free(&l);
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 14, "14 game-tree digests expected, found %d", n);
    cr_assert_eq(nether, 1);
}

Test(biome, tree_shapes_of_biomes_md)
{
    /* BIOMES.md §4.2: node counts and the root's children */
    static const struct {
        const char *v;
        int k, nodes, root;
    } want[] = {{"1.18", 10, 8421, 8}, {"1.19", 10, 8438, 0}, {"1.19", 6, 9112, 0}, {"1.21.5", 6, 9112, 6}, {"26.2", 6, 9113, 0}, {"26.3", 19, 8018, 2}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bm_list l;
        cr_assert_eq(bm_preset_overworld(want[i].v, &l), 0);
        int nn;
        int32_t *t = bm_tree_build(&l, want[i].k, &nn);
        cr_assert(t);
        cr_expect_eq(nn, want[i].nodes, "%s K %d: %d nodes", want[i].v, want[i].k, nn);
        if (want[i].root) cr_expect_eq(t[CF_BN_COUNT], want[i].root, "%s: root children %d", want[i].v, t[CF_BN_COUNT]);
        free(t);
        bm_list_free(&l);
    }
    cr_expect_eq(bm_version_k("1.18.2"), 10);
    cr_expect_eq(bm_version_k("1.19.2"), 10);
    cr_expect_eq(bm_version_k("1.19.3"), 6);
    cr_expect_eq(bm_version_k("1.21.11"), 6);
    cr_expect_eq(bm_version_k("26.2"), 6);
    cr_expect_eq(bm_version_k("26.3"), 19);
    cr_expect_eq(bm_version_k("1.17.1"), -1);
    cr_expect_eq(bm_version_k("x"), -1);
}

Test(biome, lookups_on_box_boundaries)
{
    FILE *f = golden();
    char line[1024], cl[32] = "";
    int ck = 0, n = 0, ties = 0, nn_cur = 0;
    int32_t prev = -1; /* the previous target's leaf: a hint from the same tree */
    bm_fast fast = {0};
    bm_list l = {0};
    const char *names[BP_NAMES];
    int32_t *tree = NULL;
    while (fgets(line, sizeof line, f)) {
        char list[32], rtree[96], brute[96], cold[96];
        int k, nt;
        long long t[6], fit;
        if (sscanf(line, "T %31s %d %lld %lld %lld %lld %lld %lld %95s %95s %95s %lld %d", list, &k, &t[0], &t[1], &t[2], &t[3], &t[4],
                   &t[5], rtree, brute, cold, &fit, &nt) != 13)
            continue;
        if (strcmp(list, cl) != 0 || k != ck) {
            free(tree);
            bm_list_free(&l);
            list_by_name(list, &l, names);
            int32_t *eo;
            bm_fast_free(&fast);
            tree = bm_tree_build_ex(&l, k, &nn_cur, &eo);
            cr_assert(tree);
            cr_assert_eq(bm_fast_build(&fast, &l, BM_FAST_K, tree, nn_cur, eo), 0); /* the library's shape */
            free(eo);
            prev = -1;
            snprintf(cl, sizeof cl, "%s", list);
            ck = k;
        }
        int64_t tt[6], got_fit, bfit;
        for (int a = 0; a < 6; a++) tt[a] = t[a];
        int32_t leaf = cf_b_search(tree, tt, -1, &got_fit);
        const char *got = names[cf_b_leaf_value(tree, leaf)];
        int bt;
        int be = bm_brute(&l, tt, &bfit, &bt);
        cr_expect_eq(got_fit, fit, "%s: fitness", line);
        cr_expect_eq(bfit, fit, "%s: brute-force fitness", line);
        cr_expect_eq(bt, nt, "%s: ties", line);
        cr_expect_eq(cf_b_count_at(tree, tt, got_fit), nt, "%s: ties in the tree", line);
        cr_expect_str_eq(names[l.pal[be]], brute, "%s: brute force", line);
        cr_expect_str_eq(got, cold, "%s: cold search", line);
        /* the hinted search gives the cold answer from any hint: the previous leaf, every leaf */
        int64_t hf;
        cr_expect_eq(cf_b_search_hint(tree, tt, prev, &hf), leaf, "%s: hint %d", line, prev);
        cr_expect_eq(hf, fit);
        for (int32_t h = 0; h < nn_cur; h += 97)
            if (tree[(size_t)h * CF_BN_STRIDE + CF_BN_COUNT] == 0)
                cr_expect_eq(cf_b_search_hint(tree, tt, h, &hf), leaf, "%s: hint %d", line, h);
        /* the fast search (grouped trees with ranks): the same answers, cold, hinted, warm */
        cr_expect_eq(bm_fast_search(&fast, tree, tt, -1, -1, &hf), leaf, "%s: fast search", line);
        cr_expect_eq(hf, fit);
        cr_expect_eq(bm_fast_search(&fast, tree, tt, prev, -1, &hf), leaf, "%s: fast search, hint %d", line, prev);
        if (prev >= 0) {
            int64_t wf;
            cr_expect_eq(bm_fast_search(&fast, tree, tt, -1, prev, &hf), cf_b_search(tree, tt, prev, &wf), "%s: fast search, warm %d", line,
                         prev);
        }
        for (int32_t h = 0; h < nn_cur; h += 211)
            if (tree[(size_t)h * CF_BN_STRIDE + CF_BN_COUNT] == 0) {
                int64_t wf;
                cr_expect_eq(bm_fast_search(&fast, tree, tt, h, -1, &hf), leaf, "%s: fast, hint %d", line, h);
                cr_expect_eq(bm_fast_search(&fast, tree, tt, -1, h, &hf), cf_b_search(tree, tt, h, &wf), "%s: fast, warm %d", line, h);
            }
        prev = leaf;
        if (nt == 1) cr_expect_str_eq(got, rtree, "%s: RTree", line);
        ties += nt > 1;
        n++;
    }
    fclose(f);
    free(tree);
    bm_fast_free(&fast);
    bm_list_free(&l);
    cr_assert_geq(n, 400, "only %d target lines", n);
    cr_log_info("%d boundary targets, %d of them ties", n, ties);
}

/* Q lines of one version: climate targets exact, cold answer = the oracle's cold answer,
 * non-ties = the warm RTree and the brute force */
static void check_quarts(const char *want_ver)
{
    FILE *f = golden();
    char line[1024];
    int n = 0, ties = 0, far = 0;
    while (fgets(line, sizeof line, f)) {
        char ver[16], settings[64], seed[32], rtree[96], brute[96], cold[96];
        int q[3], nt;
        long long t[6], fit;
        if (sscanf(line, "Q %15s %63s %31s %d %d %d %lld %lld %lld %lld %lld %lld %95s %95s %95s %lld %d", ver, settings, seed, &q[0],
                   &q[1], &q[2], &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], rtree, brute, cold, &fit, &nt) != 17)
            continue;
        if (strcmp(ver, want_ver) != 0) continue;
        cf_biomes *b = source_for(ver, settings, seed);
        float v[6];
        int32_t qq[3] = {q[0], q[1], q[2]};
        cr_assert_eq(biome_climate(b, BP_POINT, 0, qq, v), 0);
        int64_t tt[6];
        for (int a = 0; a < 6; a++) {
            tt[a] = cf_b_quantize(v[a]);
            cr_expect_eq(tt[a], t[a], "%s: target axis %d: %lld, the oracle %lld", line, a, (long long)tt[a], t[a]);
        }
        int64_t gfit;
        int gt;
        int32_t leaf = biome_lookup(b, tt, -1, &gfit, &gt);
        cr_expect_eq(gfit, fit, "%s: fitness", line);
        cr_expect_eq(gt, nt, "%s: ties", line);
        uint8_t out;
        cr_assert_eq(cf_biomes_quarts(b, 1, qq, &out, NULL), CF_OK);
        cr_expect_eq(out, cf_b_leaf_value(biome_tree(b, NULL, NULL), leaf));
        cr_expect_eq(out, pal_of(b, cold), "%s: cold answer", line);
        if (nt == 1) {
            cr_expect_eq(out, pal_of(b, rtree), "%s: RTree", line);
            cr_expect_eq(out, pal_of(b, brute), "%s: brute force", line);
        }
        ties += nt > 1;
        far += abs(q[0]) > 1000000;
        n++;
    }
    fclose(f);
    source_done();
    cr_assert_geq(n, 500, "only %d quart lines for %s", n, want_ver);
    cr_assert_geq(far, 150);
    cr_log_info("%s: %d quarts (%d far), %d ties", want_ver, n, far, ties);
}

/* stackrow.c's lanes (the grid's climate) against cf_stack_point, bit for bit: every noise
 * stack of the 26.3 overworld at rows of near, far and wrapping points (tails of 37 lanes
 * too), on each lane path this CPU has (portable, AVX2, AVX-512) */
Test(biome, climate_lanes_equal_stack_points)
{
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "-123456789");
    const cf_world *w = b->w;
    int isas[3] = {STACK_ISA_PORTABLE, cpu_isa() & CPU_AVX2 ? STACK_ISA_AVX2 : STACK_ISA_PORTABLE, stack_lanes_isa()};
    uint64_t r = 99;
    long checked = 0;
    for (int ia = 0; ia < 3; ia++)
        for (int s = 0; s < w->nstacks; s++)
            for (int rep = 0; rep < 6; rep++) {
                double x[STACK_LANES_MAX], y[STACK_LANES_MAX], z[STACK_LANES_MAX];
                float out[STACK_LANES_MAX];
                int n = rep & 1 ? 37 : STACK_LANES_MAX;
                double span = rep < 2 ? 5000.0 : rep < 4 ? 7.5e6 : 3e9; /* the last: cf_wrap's far branch */
                for (int l = 0; l < n; l++) {
                    double c[3];
                    for (int a = 0; a < 3; a++) {
                        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
                        c[a] = ((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0) * span;
                    }
                    if (rep == 5 && l == 3) c[0] = 1e6; /* a row of in-range lanes but one */
                    x[l] = c[0], y[l] = rep & 2 ? 0.0 : c[1], z[l] = c[2];
                }
                stack_lanes(w, isas[ia], s, n, x, y, z, NULL, out);
                for (int l = 0; l < n; l++) {
                    float want = cf_stack_point(w->tab, s, x[l], y[l], z[l]);
                    cr_assert(memcmp(&want, &out[l], sizeof want) == 0, "isa %d stack %d lane %d (%.17g, %.17g, %.17g): %a, want %a",
                              isas[ia], s, l, x[l], y[l], z[l], (double)out[l], (double)want);
                    checked++;
                }
            }
    cr_log_info("%ld lane values (%d stacks), lane paths %d %d", checked, w->nstacks, isas[1], isas[2]);
    source_done();
}

/* the grid (climate noises in lanes a row at a time) equals the point queries quart for
 * quart, near and far, under each CF_NO_* switch */
Test(biome, grid_rows_equal_point_queries)
{
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "42");
    enum { NX = 150, NZ = 3 };
    static const int32_t at[2][2] = {{-75, -1}, {7499000, -7499900}};
    static const char *env[3] = {NULL, "CF_NO_AVX512", "CF_NO_SSE"};
    uint8_t g[NX * NZ], p[NX * NZ];
    int32_t q[NX * NZ * 3];
    for (int a = 0; a < 2; a++) {
        for (int i = 0; i < NX * NZ; i++)
            q[3 * i] = at[a][0] + i % NX, q[3 * i + 1] = -3, q[3 * i + 2] = at[a][1] + i / NX;
        cr_assert_eq(cf_biomes_quarts(b, NX * NZ, q, p, NULL), CF_OK);
        for (int e = 0; e < 3; e++) {
            if (env[e]) setenv(env[e], "1", 1);
            cr_assert_eq(cf_biomes_grid(b, at[a][0], at[a][1], NX, NZ, -3, g, 1, NULL), CF_OK);
            if (env[e]) unsetenv(env[e]);
            for (int i = 0; i < NX * NZ; i++) cr_assert_eq(g[i], p[i], "area %d, switch %s, quart %d", a, env[e] ? env[e] : "none", i);
        }
    }
    source_done();
}

/* cf_biomes_blocks (batches of distinct quarts, noises in lanes) equals the zoomed quarts'
 * point queries, block rows at steps 1 and 16 with a varying y, near and far */
Test(biome, block_rows_equal_point_queries)
{
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "7");
    enum { N = 700 };
    static const char *env[2] = {NULL, "CF_NO_AVX512"};
    static int32_t xyz[3 * N], q[3 * N];
    static uint8_t g[N], p[N];
    for (int a = 0; a < 4; a++) {
        int32_t step = a & 1 ? 16 : 1, x0 = a < 2 ? -350 : 29990000 - N * step;
        for (int i = 0; i < N; i++) {
            xyz[3 * i] = x0 + i * step, xyz[3 * i + 1] = 40 + (i * 7919) % 60 - (i / 100) * 3, xyz[3 * i + 2] = a < 2 ? 123 + i / 200 : -29990001;
            int32_t qq[3];
            cf_bz_quart(b->zseed, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], qq);
            q[3 * i] = qq[0], q[3 * i + 1] = qq[1], q[3 * i + 2] = qq[2];
        }
        cr_assert_eq(cf_biomes_quarts(b, 1, q, p, NULL), CF_OK); /* one at a time: no batch */
        for (int i = 1; i < N; i++) cr_assert_eq(cf_biomes_quarts(b, 1, q + 3 * i, p + i, NULL), CF_OK);
        for (int e = 0; e < 2; e++) {
            if (env[e]) setenv(env[e], "1", 1);
            cr_assert_eq(cf_biomes_blocks(b, N, xyz, g, NULL), CF_OK);
            if (env[e]) unsetenv(env[e]);
            for (int i = 0; i < N; i++) cr_assert_eq(g[i], p[i], "row %d, switch %s, block %d", a, env[e] ? env[e] : "none", i);
        }
    }
    source_done();
}

Test(biome, quarts_26_3) { check_quarts("26.3"); }
Test(biome, quarts_1_21_11) { check_quarts("1.21.11"); }

Test(biome, the_end)
{
    FILE *f = golden();
    char line[1024];
    int n = 0, outer = 0;
    while (fgets(line, sizeof line, f)) {
        char ver[16], seed[32], ero[48], biome[96];
        int q[3];
        if (sscanf(line, "E %15s %31s %d %d %d %47s %95s", ver, seed, &q[0], &q[1], &q[2], ero, biome) != 7) continue;
        cf_biomes *b = source_for(ver, "minecraft:end", seed);
        int32_t qq[3] = {q[0], q[1], q[2]};
        uint8_t out;
        cr_assert_eq(cf_biomes_quarts(b, 1, qq, &out, NULL), CF_OK);
        cr_expect_eq(out, pal_of(b, biome), "%s", line);
        outer += strcmp(ero, "-") != 0;
        n++;
    }
    fclose(f);
    source_done();
    cr_assert_geq(n, 200);
    cr_assert_geq(outer, 150);
}

Test(biome, zoom)
{
    cr_expect_eq(biome_zoom_seed(0), 8794265229978523055LL);
    cr_expect_eq(biome_zoom_seed(1), -6467378160175308932LL);
    cr_expect_eq(biome_zoom_seed(-4172144997902289642LL), 2159143436479834350LL);
    cr_expect_eq(biome_zoom_seed(123456789), -5458710421630621949LL);
    FILE *f = golden();
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char ver[16], settings[64], seed[32], rtree[96], brute[96], cold[96];
        int x[3], q[3], nt;
        if (sscanf(line, "B %15s %63s %31s %d %d %d %d %d %d %95s %95s %95s %d", ver, settings, seed, &x[0], &x[1], &x[2], &q[0], &q[1],
                   &q[2], rtree, brute, cold, &nt) != 13)
            continue;
        int64_t s;
        cr_assert_eq(cf_seed_parse(seed, &s, NULL), CF_OK);
        int32_t got[3];
        cf_bz_quart(biome_zoom_seed(s), x[0], x[1], x[2], got);
        cr_expect(got[0] == q[0] && got[1] == q[1] && got[2] == q[2], "%s: quart %d %d %d", line, got[0], got[1], got[2]);
        cf_biomes *b = source_for(ver, settings, seed);
        int32_t xx[3] = {x[0], x[1], x[2]};
        uint8_t out;
        cr_assert_eq(cf_biomes_blocks(b, 1, xx, &out, NULL), CF_OK);
        cr_expect_eq(out, pal_of(b, cold), "%s", line);
        if (nt == 1) cr_expect_eq(out, pal_of(b, rtree), "%s", line);
        n++;
    }
    fclose(f);
    source_done();
    cr_assert_geq(n, 100);
}

Test(biome, quantize_is_javas)
{
    cr_expect_eq(cf_b_quantize(-0.78f), -7799);
    cr_expect_eq(cf_b_quantize(0.93333334f), 9333);
    cr_expect_eq(cf_b_quantize(0.26666668f), 2666);
    cr_expect_eq(cf_b_quantize(0.4f), 4000);
    cr_expect_eq(cf_b_quantize(0.175f), 1750);
    cr_expect_eq(cf_b_quantize(NAN), 0);
    cr_expect_eq(cf_b_quantize(INFINITY), INT64_MAX);
    cr_expect_eq(cf_b_quantize(-INFINITY), INT64_MIN);
}

/* ------------------------------------------------------------------ chunk fills */
/* 26.3 chunk biomes come from the volume path (BIOMES.md §2.3): equal to the point path
 * except where the two paths' climate values quantize differently, or at a tie (the fill's
 * warm start); over 64 chunks every difference must be one of those. The count is reported. */
Test(biome, volume_path_against_point_path_26_3, .timeout = 600)
{
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "0");
    int min_y, height;
    cf_biomes_range(b, &min_y, &height);
    int ny = height / 4, qy0 = min_y >> 2;
    enum { N = 64 };
    int32_t chunks[2 * N];
    for (int i = 0; i < N; i++) chunks[2 * i] = -40 + (i % 8) * 11, chunks[2 * i + 1] = 25 - (i / 8) * 13;
    uint8_t *vol = malloc((size_t)N * (size_t)ny * 16);
    cr_assert(vol);
    cf_biomes_count_ties(b, 1);
    cf_error err = {0};
    cr_assert_eq(cf_fill_biomes(b, N, chunks, vol, 2, &err), CF_OK, "%s", err.message);
    long diff = 0, tdiff = 0, tie = 0, total = 0;
    for (int c = 0; c < N; c++)
        for (int y = 0; y < ny; y++)
            for (int z = 0; z < 4; z++)
                for (int x = 0; x < 4; x++) {
                    int32_t q[3] = {chunks[2 * c] * 4 + x, qy0 + y, chunks[2 * c + 1] * 4 + z};
                    uint8_t pt;
                    cr_assert_eq(cf_biomes_quarts(b, 1, q, &pt, NULL), CF_OK);
                    uint8_t v = vol[(((size_t)c * (size_t)ny + (size_t)y) * 4 + (size_t)z) * 4 + (size_t)x];
                    total++;
                    float pv[6], vv[6];
                    cr_assert_eq(biome_climate(b, BP_POINT, qy0, q, pv), 0);
                    cr_assert_eq(biome_climate(b, BP_VOLUME, qy0, q, vv), 0);
                    int64_t tp[6], tv[6];
                    int same = 1;
                    for (int a = 0; a < 6; a++) {
                        tp[a] = cf_b_quantize(pv[a]);
                        tv[a] = cf_b_quantize(vv[a]);
                        same &= tp[a] == tv[a];
                    }
                    tdiff += !same;
                    if (v == pt) continue;
                    diff++;
                    if (same) {
                        int64_t fit;
                        int nt;
                        biome_lookup(b, tv, -1, &fit, &nt);
                        cr_expect_gt(nt, 1, "quart %d %d %d: volume %d, point %d, same target and no tie", q[0], q[1], q[2], v, pt);
                        tie++;
                    }
                }
    uint64_t lookups, ties;
    cf_biomes_stats(b, &lookups, &ties);
    cr_log_info("26.3 seed 0, %d chunks, %ld quarts: targets differ (volume vs point) in %ld, biomes differ in %ld (%ld at ties); "
                "fill ties %llu of %llu lookups",
                N, total, tdiff, diff, tie, (unsigned long long)ties, (unsigned long long)lookups);
    fprintf(stderr, "volume vs point, 26.3 seed 0, %d chunks, %ld quarts: targets differ in %ld, biomes differ in %ld (%ld at ties)\n", N,
            total, tdiff, diff, tie);
    free(vol);
    source_done();
}

/* a chunk fill is vanilla's warm-start replay exactly: the reference search (cf_b_search, the
 * tree as vanilla walks it) over the volume-path targets in fill order gives the same bytes */
Test(biome, fill_replays_vanilla_warm_start)
{
    static const char *const set[3] = {"minecraft:overworld", "minecraft:amplified", "minecraft:nether"};
    for (int s = 0; s < 3; s++) {
        cf_biomes *b = source_for("26.3", set[s], "-4172144997902289642");
        int min_y, height;
        cf_biomes_range(b, &min_y, &height);
        int ny = height / 4, qy0 = min_y >> 2;
        int32_t ch[6] = {0, 0, -77, 1234, 250000, -9};
        uint8_t *got = malloc((size_t)3 * (size_t)ny * 16);
        cr_assert(got);
        cr_assert_eq(cf_fill_biomes(b, 3, ch, got, 1, NULL), CF_OK);
        const int32_t *tree = biome_tree(b, NULL, NULL);
        for (int c = 0; c < 3; c++) {
            int32_t warm = -1;
            for (int sec = 0; sec < ny; sec += 4)
                for (int x = 0; x < 4; x++)
                    for (int y = sec; y < sec + 4 && y < ny; y++)
                        for (int z = 0; z < 4; z++) {
                            int32_t q[3] = {ch[2 * c] * 4 + x, qy0 + y, ch[2 * c + 1] * 4 + z};
                            float v[6];
                            int64_t t[6], fit;
                            cr_assert_eq(biome_climate(b, BP_VOLUME, qy0, q, v), 0);
                            for (int a = 0; a < 6; a++) t[a] = cf_b_quantize(v[a]);
                            warm = cf_b_search(tree, t, warm, &fit);
                            cr_expect_eq(got[(((size_t)c * (size_t)ny + (size_t)y) * 4 + (size_t)z) * 4 + (size_t)x],
                                         cf_b_leaf_value(tree, warm), "%s chunk %d quart %d %d %d", set[s], c, q[0], q[1], q[2]);
                        }
        }
        free(got);
    }
    source_done();
}

/* the fill replays vanilla's order with the warm start: equal to a cold search except at ties */
Test(biome, fill_1_21_equals_points_except_ties)
{
    cf_biomes *b = source_for("1.21.11", "minecraft:overworld", "1");
    int min_y, height;
    cf_biomes_range(b, &min_y, &height);
    int ny = height / 4;
    int32_t chunks[4] = {3, -7, -100000, 250000};
    uint8_t *vol = malloc((size_t)2 * (size_t)ny * 16);
    cr_assert(vol);
    cr_assert_eq(cf_fill_biomes(b, 2, chunks, vol, 1, NULL), CF_OK);
    for (int c = 0; c < 2; c++)
        for (int y = 0; y < ny; y++)
            for (int z = 0; z < 4; z++)
                for (int x = 0; x < 4; x++) {
                    int32_t q[3] = {chunks[2 * c] * 4 + x, (min_y >> 2) + y, chunks[2 * c + 1] * 4 + z};
                    uint8_t pt;
                    cr_assert_eq(cf_biomes_quarts(b, 1, q, &pt, NULL), CF_OK);
                    uint8_t v = vol[(((size_t)c * (size_t)ny + (size_t)y) * 4 + (size_t)z) * 4 + (size_t)x];
                    if (v != pt) {
                        float cv[6];
                        int64_t t[6], fit;
                        int nt;
                        biome_climate(b, BP_POINT, 0, q, cv);
                        for (int a = 0; a < 6; a++) t[a] = cf_b_quantize(cv[a]);
                        biome_lookup(b, t, -1, &fit, &nt);
                        cr_expect_gt(nt, 1, "quart %d %d %d differs without a tie", q[0], q[1], q[2]);
                    }
                }
    free(vol);
    source_done();
}

/* ------------------------------------------------------------------ pack sources */
static char tdir[256];
static void put(const char *rel, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tdir, rel);
    for (char *p = path + strlen(tdir) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}
static void setup_dir(void)
{
    snprintf(tdir, sizeof tdir, "/tmp/cf-biome-%ld", (long)getpid());
    mkdir(tdir, 0755);
}
static void rm_dir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tdir);
    cr_assert_eq(system(cmd), 0);
}
/* opens dimension `dim` with vanilla 26.3 below the test pack: the status, err filled */
static cf_status open_dim(const char *dim, const char *version, cf_biomes **b, cf_pack **pk, cf_error *err)
{
    char v[4096];
    shared_need("vanilla/26.3", v, sizeof v);
    const char *paths[2] = {v, tdir};
    cr_assert_eq(cf_pack_open(pk, paths, 2, NULL, err), CF_OK, "%s", err->message);
    return cf_biomes_open(b, *pk, dim, NULL, version, 0, err);
}

#define DIM(src) "{\"type\": \"minecraft:overworld\", \"generator\": {\"type\": \"minecraft:noise\", \"settings\": \"minecraft:overworld\", " \
                 "\"biome_source\": " src "}}"

Test(biome, fixed_and_checkerboard, .init = setup_dir, .fini = rm_dir)
{
    put("data/t/dimension/fixed.json", DIM("{\"type\": \"minecraft:fixed\", \"biome\": \"minecraft:desert\"}"));
    put("data/t/dimension/chk.json",
        DIM("{\"type\": \"checkerboard\", \"biomes\": [\"minecraft:plains\", \"t:odd\", \"minecraft:plains\"], \"scale\": 0}"));
    cf_biomes *b;
    cf_pack *pk;
    cf_error err = {0};
    cr_assert_eq(open_dim("t:fixed", NULL, &b, &pk, &err), CF_OK, "%s", err.message);
    int32_t q[6] = {5, 0, -9, 100000, 60, 3};
    uint8_t o[4];
    cr_assert_eq(cf_biomes_quarts(b, 2, q, o, NULL), CF_OK);
    const char *names[CF_BIOME_PALETTE_MAX];
    cr_assert_eq(cf_biomes_palette(b, names), 1);
    cr_expect_str_eq(names[o[0]], "minecraft:desert");
    cr_expect_str_eq(names[o[1]], "minecraft:desert");
    cf_biomes_free(b);
    cf_pack_free(pk);
    cr_assert_eq(open_dim("t:chk", NULL, &b, &pk, &err), CF_OK, "%s", err.message);
    /* scale 0: cells of 4 quarts; floorMod((qx >> 2) + (qz >> 2), 3) */
    int32_t p[12] = {0, 0, 0, 4, 0, 0, 8, 0, 0, -1, 0, 0};
    cr_assert_eq(cf_biomes_quarts(b, 4, p, o, NULL), CF_OK);
    cr_assert_eq(cf_biomes_palette(b, names), 2);
    cr_expect_str_eq(names[o[0]], "minecraft:plains");
    cr_expect_str_eq(names[o[1]], "t:odd");
    cr_expect_str_eq(names[o[2]], "minecraft:plains");
    cr_expect_str_eq(names[o[3]], "minecraft:plains"); /* floorMod(-1, 3) = 2 */
    cf_biomes_free(b);
    cf_pack_free(pk);
}

Test(biome, inline_list_and_parameter_list_files, .init = setup_dir, .fini = rm_dir)
{
    put("data/t/dimension/two.json",
        DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": ["
            "{\"biome\": \"minecraft:plains\", \"parameters\": {\"temperature\": [-1, 0], \"humidity\": 0, \"continentalness\": 0, "
            "\"erosion\": 0, \"depth\": 0, \"weirdness\": 0, \"offset\": 0}},"
            "{\"biome\": \"minecraft:desert\", \"parameters\": {\"temperature\": {\"min\": 0.0001, \"max\": 1}, \"humidity\": 0, "
            "\"continentalness\": 0, \"erosion\": 0, \"depth\": 0, \"weirdness\": 0, \"offset\": 0}}]}"));
    put("data/t/worldgen/multi_noise_biome_source_parameter_list/hot.json", "{\"preset\": \"minecraft:nether\"}");
    put("data/t/dimension/hot.json", DIM("{\"type\": \"minecraft:multi_noise\", \"preset\": \"t:hot\"}"));
    cf_biomes *b;
    cf_pack *pk;
    cf_error err = {0};
    cr_assert_eq(open_dim("t:two", NULL, &b, &pk, &err), CF_OK, "%s", err.message);
    const bm_list *l = biome_list(b);
    cr_assert_eq(l->n, 2);
    cr_expect_eq(l->lo[1][0], 1); /* (long)(0.0001f * 10000.0f) */
    cr_expect_eq(l->hi[0][0], 0);
    int64_t t[6] = {5000, 0, 0, 0, 0, 0}, fit;
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(b, names);
    cr_expect_str_eq(names[cf_b_leaf_value(biome_tree(b, NULL, NULL), biome_lookup(b, t, -1, &fit, NULL))], "minecraft:desert");
    t[0] = -5000;
    cr_expect_str_eq(names[cf_b_leaf_value(biome_tree(b, NULL, NULL), biome_lookup(b, t, -1, &fit, NULL))], "minecraft:plains");
    cf_biomes_free(b);
    cf_pack_free(pk);
    cr_assert_eq(open_dim("t:hot", NULL, &b, &pk, &err), CF_OK, "%s", err.message);
    cr_expect_eq(cf_biomes_palette(b, names), 5);
    cr_expect_str_eq(names[0], "minecraft:nether_wastes");
    cf_biomes_free(b);
    cf_pack_free(pk);
}

/* opens dimension `dim` of packs vanilla 26.3, tdir and tdir/p2 (a third pack) */
static cf_status open_dim3(const char *dim, cf_biomes **b, cf_pack **pk, cf_error *err)
{
    char v[4096], p2[400], p2data[420];
    shared_need("vanilla/26.3", v, sizeof v);
    snprintf(p2, sizeof p2, "%s/p2", tdir);
    snprintf(p2data, sizeof p2data, "%s/data", p2);
    mkdir(p2, 0755); /* a pack needs its data/ folder */
    mkdir(p2data, 0755);
    const char *paths[3] = {v, tdir, p2};
    cr_assert_eq(cf_pack_open(pk, paths, 3, NULL, err), CF_OK, "%s", err->message);
    return cf_biomes_open(b, *pk, dim, NULL, NULL, 0, err);
}
/* the checkerboard's biomes in list order (scale 0: list slot i at quart x 4i) */
static void expect_checker(const char *dim, const char *const *want, int n)
{
    cf_biomes *b = NULL;
    cf_pack *pk = NULL;
    cf_error err = {0};
    cr_assert_eq(open_dim3(dim, &b, &pk, &err), CF_OK, "%s", err.message);
    int32_t q[3 * 16];
    uint8_t o[16];
    for (int i = 0; i < n + 1; i++) q[3 * i] = 4 * i, q[3 * i + 1] = 0, q[3 * i + 2] = 0;
    cr_assert_eq(cf_biomes_quarts(b, (size_t)n + 1, q, o, NULL), CF_OK);
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(b, names);
    for (int i = 0; i < n; i++) cr_expect_str_eq(names[o[i]], want[i], "%s slot %d", dim, i);
    cr_expect_str_eq(names[o[n]], want[0], "%s: the list wraps after %d", dim, n);
    cf_biomes_free(b);
    cf_pack_free(pk);
}
static void expect_tag_error(const char *dim, cf_status st, const char *where, const char *what)
{
    cf_biomes *b = NULL;
    cf_pack *pk = NULL;
    cf_error err = {0};
    cf_status got = open_dim3(dim, &b, &pk, &err);
    cr_expect_eq(got, st, "%s: status %s, message %s", dim, cf_status_str(got), err.message);
    cr_expect_null(b);
    cr_expect(strstr(err.message, where) != NULL, "message \"%s\" lacks \"%s\"", err.message, where);
    cr_expect(strstr(err.message, what) != NULL, "message \"%s\" lacks \"%s\"", err.message, what);
    cr_expect(strchr(err.message, '\n') == NULL);
    cf_pack_free(pk);
}

#define CHK(tag) DIM("{\"type\": \"minecraft:checkerboard\", \"biomes\": \"" tag "\", \"scale\": 0}")
Test(biome, checkerboard_biome_tags, .init = setup_dir, .fini = rm_dir)
{
    /* nested tags, optional entries (a missing biome, a missing tag), duplicates kept once at
     * their first place, a pack's own biome */
    put("data/t/tags/worldgen/biome/mix.json",
        "{\"values\": [\"minecraft:plains\", \"#t:inner\", {\"id\": \"t:missing\", \"required\": false},"
        " {\"id\": \"#t:absent\", \"required\": false}, \"minecraft:plains\", {\"id\": \"minecraft:ice_spikes\", \"required\": false}]}");
    put("data/t/tags/worldgen/biome/inner.json", "{\"values\": [\"minecraft:desert\", \"t:custom\", \"minecraft:plains\"]}");
    put("data/t/worldgen/biome/custom.json", "{}");
    put("data/t/dimension/mix.json", CHK("#t:mix"));
    const char *mix[4] = {"minecraft:plains", "minecraft:desert", "t:custom", "minecraft:ice_spikes"};
    expect_checker("t:mix", mix, 4);
    /* a higher pack's file appends to the tag; with "replace": true it replaces it */
    put("p2/data/t/tags/worldgen/biome/mix.json", "{\"values\": [\"minecraft:badlands\", \"minecraft:desert\"]}");
    const char *more[5] = {"minecraft:plains", "minecraft:desert", "t:custom", "minecraft:ice_spikes", "minecraft:badlands"};
    expect_checker("t:mix", more, 5);
    put("p2/data/t/tags/worldgen/biome/mix.json", "{\"replace\": true, \"values\": [\"minecraft:badlands\", \"#t:inner\"]}");
    const char *repl[4] = {"minecraft:badlands", "minecraft:desert", "t:custom", "minecraft:plains"};
    expect_checker("t:mix", repl, 4);
    /* bad tags: one located line */
    put("data/t/tags/worldgen/biome/a.json", "{\"values\": [\"#t:b\"]}");
    put("data/t/tags/worldgen/biome/b.json", "{\"values\": [\"minecraft:plains\", \"#t:a\"]}");
    put("data/t/dimension/cyc.json", CHK("#t:a"));
    expect_tag_error("t:cyc", CF_ERR_SCHEMA, "b.json#/values/1", "biome tag cycle: #t:a -> #t:b -> #t:a");
    put("data/t/tags/worldgen/biome/c.json", "{\"values\": [\"minecraft:plains\", \"#t:gone\"]}");
    put("data/t/dimension/gone.json", CHK("#t:c"));
    expect_tag_error("t:gone", CF_ERR_REF, "c.json#/values/1", "unknown biome tag \"#t:gone\"");
    put("data/t/tags/worldgen/biome/d.json", "{\"values\": [{\"id\": \"t:nothing\"}]}");
    put("data/t/dimension/nob.json", CHK("#t:d"));
    expect_tag_error("t:nob", CF_ERR_REF, "d.json#/values/0/id", "unknown biome \"t:nothing\"");
    put("data/t/tags/worldgen/biome/e.json", "{\"values\": [{\"id\": \"t:nothing\", \"required\": false}]}");
    put("data/t/dimension/empty.json", CHK("#t:e"));
    expect_tag_error("t:empty", CF_ERR_SCHEMA, "empty.json#/generator/biome_source/biomes", "holds no biomes");
    put("data/t/tags/worldgen/biome/f.json", "{\"values\": \"minecraft:plains\"}");
    put("data/t/dimension/notarr.json", CHK("#t:f"));
    expect_tag_error("t:notarr", CF_ERR_SCHEMA, "f.json#/values", "expected an array");
    put("data/t/tags/worldgen/biome/g.json", "{\"values\": [{\"id\": \"minecraft:plains\", \"required\": 1}]}");
    put("data/t/dimension/req.json", CHK("#t:g"));
    expect_tag_error("t:req", CF_ERR_SCHEMA, "g.json#/values/0/required", "expected true or false");
}

/* a dimension whose generator.settings is an object equals the same settings read by id */
Test(biome, inline_noise_settings)
{
    const char *paths[1] = {CF_SOURCE_DIR "/tests/packs/biome-inline"};
    cf_pack *pk = NULL;
    cf_biomes *a = NULL, *b = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&a, pk, "t:inline", NULL, NULL, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, "t:by_id", NULL, NULL, 1, &err), CF_OK, "%s", err.message);
    cr_expect(strstr(cf_biomes_describe(a), "settings inline (") != NULL, "%s", cf_biomes_describe(a));
    enum { N = 64 };
    uint8_t ga[N * N], gb[N * N];
    cr_assert_eq(cf_biomes_grid(a, -N / 2, -N / 2, N, N, 2, ga, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_grid(b, -N / 2, -N / 2, N, N, 2, gb, 1, &err), CF_OK, "%s", err.message);
    const char *na[CF_BIOME_PALETTE_MAX], *nb[CF_BIOME_PALETTE_MAX];
    cr_assert_eq(cf_biomes_palette(a, na), 2);
    cr_assert_eq(cf_biomes_palette(b, nb), 2);
    int seen[2] = {0, 0};
    for (int i = 0; i < N * N; i++) {
        cr_assert_str_eq(na[ga[i]], nb[gb[i]], "quart %d", i);
        seen[ga[i]] = 1;
    }
    cr_expect(seen[0] && seen[1], "the temperature noise gives both biomes");
    cf_biomes_free(a);
    cf_biomes_free(b);
    cf_pack_free(pk);
}

Test(biome, inline_noise_settings_errors_are_located, .init = setup_dir, .fini = rm_dir)
{
    put("data/t/dimension/bad.json",
        "{\"type\": \"minecraft:overworld\", \"generator\": {\"type\": \"minecraft:noise\", \"settings\": "
        "{\"noise\": {\"min_y\": 3, \"height\": 64}, \"noise_router\": {}}, \"biome_source\": {\"type\": \"minecraft:fixed\", \"biome\": \"minecraft:plains\"}}}");
    expect_tag_error("t:bad", CF_ERR_SCHEMA, "bad.json#/generator/settings/noise", "multiples of 16");
    put("data/t/dimension/bad.json",
        "{\"type\": \"minecraft:overworld\", \"generator\": {\"type\": \"minecraft:noise\", \"settings\": "
        "{\"noise\": {\"min_y\": 0, \"height\": 64}, \"noise_router\": {\"temperature\": \"t:nope\"}}, \"biome_source\": {\"type\": \"minecraft:fixed\", \"biome\": \"minecraft:plains\"}}}");
    expect_tag_error("t:bad", CF_ERR_REF, "bad.json#/generator/settings/noise_router/temperature", "t:nope");
}

/* bad input: one located line each */
static void expect_error(const char *dim, const char *src, const char *version, cf_status st, const char *where, const char *what)
{
    if (src) put("data/t/dimension/bad.json", src);
    cf_biomes *b = NULL;
    cf_pack *pk = NULL;
    cf_error err = {0};
    cf_status got = open_dim(dim, version, &b, &pk, &err);
    cr_expect_eq(got, st, "%s: status %s, message %s", src ? src : dim, cf_status_str(got), err.message);
    cr_expect_null(b);
    cr_expect(strstr(err.message, where) != NULL, "message \"%s\" lacks \"%s\"", err.message, where);
    cr_expect(strstr(err.message, what) != NULL, "message \"%s\" lacks \"%s\"", err.message, what);
    cr_expect(strchr(err.message, '\n') == NULL);
    cf_pack_free(pk);
}

Test(biome, bad_input_is_one_located_line, .init = setup_dir, .fini = rm_dir)
{
    expect_error("t:bad", DIM("{\"type\": \"minecraft:voronoi\"}"), NULL, CF_ERR_SCHEMA, "bad.json#/generator/biome_source/type",
                 "unknown biome source type \"minecraft:voronoi\"");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": []}"), NULL, CF_ERR_SCHEMA,
                 "bad.json#/generator/biome_source/biomes", "no entries");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:multi_noise\", \"preset\": \"t:nope\"}"), NULL, CF_ERR_REF,
                 "bad.json#/generator/biome_source/preset", "no parameter list \"t:nope\"");
    put("data/t/worldgen/multi_noise_biome_source_parameter_list/odd.json", "{\"preset\": \"minecraft:caves\"}");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:multi_noise\", \"preset\": \"t:odd\"}"), NULL, CF_ERR_SCHEMA,
                 "odd.json#/preset", "unknown preset \"minecraft:caves\"");
    expect_error("t:bad",
                 DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": [{\"biome\": \"minecraft:plains\", \"parameters\": "
                     "{\"temperature\": 2.5, \"humidity\": 0, \"continentalness\": 0, \"erosion\": 0, \"depth\": 0, \"weirdness\": 0, "
                     "\"offset\": 0}}]}"),
                 NULL, CF_ERR_SCHEMA, "bad.json#/generator/biome_source/biomes/0/parameters/temperature", "out of range [-2, 2]");
    expect_error("t:bad",
                 DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": [{\"biome\": \"minecraft:plains\", \"parameters\": "
                     "{\"temperature\": [0.5, -0.5], \"humidity\": 0, \"continentalness\": 0, \"erosion\": 0, \"depth\": 0, "
                     "\"weirdness\": 0, \"offset\": 1.5}}]}"),
                 NULL, CF_ERR_SCHEMA, "bad.json#/generator/biome_source/biomes/0/parameters/temperature", "greater than max");
    expect_error("t:bad",
                 DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": [{\"biome\": \"minecraft:plains\", \"parameters\": "
                     "{\"temperature\": 0, \"humidity\": 0, \"continentalness\": 0, \"erosion\": 0, \"depth\": 0, "
                     "\"weirdness\": 0, \"offset\": 1.5}}]}"),
                 NULL, CF_ERR_SCHEMA, "parameters/offset", "out of range [0, 1]");
    expect_error("t:bad",
                 DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": [{\"biome\": \"minecraft:plains\", \"parameters\": "
                     "{\"temperature\": 0, \"humidity\": 0, \"continentalness\": 0, \"erosion\": 0, \"depth\": 0, \"offset\": 0}}]}"),
                 NULL, CF_ERR_SCHEMA, "bad.json#/generator/biome_source/biomes/0/parameters", "missing field \"weirdness\"");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:checkerboard\", \"biomes\": [\"#minecraft:is_forest\"]}"), NULL, CF_ERR_SCHEMA,
                 "bad.json#/generator/biome_source/biomes/0", "a tag is allowed only as a checkerboard's whole");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:checkerboard\", \"biomes\": []}"), NULL, CF_ERR_SCHEMA,
                 "bad.json#/generator/biome_source/biomes", "no entries");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:checkerboard\", \"biomes\": \"#t:nope\"}"), NULL, CF_ERR_REF,
                 "bad.json#/generator/biome_source/biomes", "unknown biome tag \"#t:nope\"");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:checkerboard\", \"biomes\": \"minecraft:plains\", \"scale\": 63}"), NULL,
                 CF_ERR_SCHEMA, "bad.json#/generator/biome_source/scale", "[0, 62]");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:multi_noise\", \"preset\": \"minecraft:caves\"}"), NULL, CF_ERR_REF,
                 "bad.json#/generator/biome_source/preset", "no parameter list \"minecraft:caves\"");
    /* NaN is not JSON (a located parse error); 1e999 parses as infinity: out of range */
    expect_error("t:bad",
                 DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": [{\"biome\": \"minecraft:plains\", \"parameters\": "
                     "{\"temperature\": NaN, \"humidity\": 0, \"continentalness\": 0, \"erosion\": 0, \"depth\": 0, \"weirdness\": 0, "
                     "\"offset\": 0}}]}"),
                 NULL, CF_ERR_JSON, "bad.json#", "line 1");
    expect_error("t:bad",
                 DIM("{\"type\": \"minecraft:multi_noise\", \"biomes\": [{\"biome\": \"minecraft:plains\", \"parameters\": "
                     "{\"temperature\": 0, \"humidity\": [-1e999, 0], \"continentalness\": 0, \"erosion\": 0, \"depth\": 0, "
                     "\"weirdness\": 0, \"offset\": 0}}]}"),
                 NULL, CF_ERR_SCHEMA, "bad.json#/generator/biome_source/biomes/0/parameters/humidity/0", "out of range [-2, 2]");
    expect_error("t:bad",
                 "{\"type\": \"minecraft:overworld\", \"generator\": {\"type\": \"minecraft:noise\", \"settings\": 7, "
                 "\"biome_source\": {\"type\": \"minecraft:the_end\"}}}",
                 NULL, CF_ERR_SCHEMA, "bad.json#/generator/settings", "expected a noise settings id or object");
    expect_error("t:bad", DIM("{\"type\": \"minecraft:fixed\", \"biome\": 3}"), NULL, CF_ERR_SCHEMA, "bad.json#/generator/biome_source/biome",
                 "expected a biome id");
    expect_error("t:bad", "[1, 2", NULL, CF_ERR_JSON, "bad.json", "");
    expect_error("t:none", NULL, NULL, CF_ERR_REF, "t:none", "no dimension file");
    expect_error("minecraft:overworld", NULL, "1.17", CF_ERR_ARG, "version \"1.17\"", "1.18 to 26.3");
}

/* ------------------------------------------------------------------ CLI */
static int has(const unsigned char *b, size_t n, const char *s)
{
    size_t l = strlen(s);
    for (size_t i = 0; i + l <= n; i++)
        if (memcmp(b + i, s, l) == 0) return 1;
    return 0;
}

Test(biome, cli_lines_grid_and_fill, .init = setup_dir, .fini = rm_dir)
{
    char args[2048], out[8192];
    shared_need("vanilla/26.3", args, sizeof args);
    snprintf(args, sizeof args, "biome --pack %s/vanilla/26.3 --seed 0 --quart 0,16,0 --quart 100,16,-50 --at 100,70,-37", shared_dir());
    cr_expect_eq(run(args, out, sizeof out), 2, "%s", out); /* --quart and --at together */
    snprintf(args, sizeof args, "biome --pack %s/vanilla/26.3 --seed 0 --quart 0,16,0 --quart 100,16,-50", shared_dir());
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "0 16 0 minecraft:river\n100 16 -50 minecraft:forest\n");
    snprintf(args, sizeof args, "biome --pack %s/vanilla/26.3 --seed 0 --settings minecraft:nether --at 0,64,0 --at -1200,80,308",
             shared_dir());
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_expect(strncmp(out, "0 64 0 minecraft:", 17) == 0, "%s", out);
    /* the grid equals the quart queries */
    snprintf(args, sizeof args, "biome --pack %s/vanilla/26.3 --seed 0 --grid -3,5:4,7 --qy 16 --out %s/g.npy", shared_dir(), tdir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    char path[512];
    snprintf(path, sizeof path, "%s/g.npy", tdir);
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    unsigned char buf[200];
    size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    size_t off = 10 + (size_t)(buf[8] | buf[9] << 8);
    cr_assert_eq(off % 64, 0);
    cr_assert_eq(got, off + 24);
    cr_expect(has(buf, off, "'shape': (3, 8)"));
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "0");
    for (int iz = 0; iz < 3; iz++)
        for (int ix = 0; ix < 8; ix++) {
            int32_t q[3] = {-3 + ix, 16, 5 + iz};
            uint8_t v;
            cr_assert_eq(cf_biomes_quarts(b, 1, q, &v, NULL), CF_OK);
            cr_expect_eq(buf[off + (size_t)(iz * 8 + ix)], v);
        }
    snprintf(path, sizeof path, "%s/g.palette.json", tdir);
    cr_expect_eq(access(path, R_OK), 0);
    /* fill --biomes equals the library's fill */
    snprintf(args, sizeof args, "fill --biomes --pack %s/vanilla/26.3 --seed 0 --chunks -1,2:0,2 --out %s/f.npy", shared_dir(), tdir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/f.npy", tdir);
    f = fopen(path, "rb");
    cr_assert(f);
    static unsigned char fb[128 + 2 * 96 * 16 + 1];
    got = fread(fb, 1, sizeof fb, f);
    fclose(f);
    off = 10 + (size_t)(fb[8] | fb[9] << 8);
    cr_assert_eq(got, off + 2 * 96 * 16);
    cr_expect(has(fb, off, "'shape': (2, 96, 4, 4)"));
    int32_t ch[4] = {-1, 2, 0, 2};
    uint8_t lib[2 * 96 * 16];
    cr_assert_eq(cf_fill_biomes(b, 2, ch, lib, 1, NULL), CF_OK);
    cr_expect_eq(memcmp(fb + off, lib, sizeof lib), 0);
    source_done();
    snprintf(args, sizeof args, "biome --pack %s/vanilla/26.3 --seed 0 --dimension t:nope --quart 0,0,0", shared_dir());
    cr_expect_eq(run(args, out, sizeof out), 1);
    cr_expect(strstr(out, "no dimension file") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
}

/* ------------------------------------------------------------------ OpenCL */
/* the device (PoCL on these machines) equals the CPU bit for bit: quarts on the point path
 * (near, far, every golden quart of the version) and chunk fills on the volume path */
static void device_equals_cpu(const char *ver, const char *settings, const char *seed)
{
    cf_biomes *b = source_for(ver, settings, seed);
    cf_biome_device *d = NULL;
    cf_error err = {0};
    cf_status st = cf_biomes_device_open(&d, "opencl", b, &err);
    if (st != CF_OK && strstr(err.message, "no ") && strstr(err.message, "device")) cr_skip_test("no OpenCL device: %s", err.message);
    cr_assert_eq(st, CF_OK, "%s", err.message);
    enum { NQ = 3000, NC = 12 };
    static int32_t q[3 * NQ];
    static uint8_t a[NQ], c[NQ];
    unsigned r = 12345;
    for (int i = 0; i < NQ; i++) {
        int far = i % 3 == 0;
        r = r * 1103515245u + 12345u;
        q[3 * i] = (int32_t)(r >> 8) % (far ? 7000000 : 3000);
        r = r * 1103515245u + 12345u;
        q[3 * i + 1] = (int32_t)((r >> 8) % 96) - 16;
        r = r * 1103515245u + 12345u;
        q[3 * i + 2] = (int32_t)(r >> 8) % (far ? 7000000 : 3000) * (i & 1 ? -1 : 1);
    }
    cr_assert_eq(cf_biomes_quarts(b, NQ, q, a, NULL), CF_OK);
    cr_assert_eq(cf_biomes_device_quarts(d, NQ, q, c, &err), CF_OK, "%s", err.message);
    cr_expect_eq(memcmp(a, c, NQ), 0, "%s %s: device quarts differ from the CPU", settings, seed);
    int32_t ch[2 * NC];
    for (int i = 0; i < NC; i++) ch[2 * i] = i * 37 - 200, ch[2 * i + 1] = (i % 4) * 1000003 - 1500000;
    int min_y, height;
    cf_biomes_range(b, &min_y, &height);
    size_t per = (size_t)(height / 4) * 16;
    uint8_t *fa = malloc(NC * per), *fc = malloc(NC * per);
    cr_assert(fa && fc);
    cr_assert_eq(cf_fill_biomes(b, NC, ch, fa, 2, NULL), CF_OK);
    cr_assert_eq(cf_biomes_device_fill(d, NC, ch, fc, &err), CF_OK, "%s", err.message);
    cr_expect_eq(memcmp(fa, fc, NC * per), 0, "%s %s: device chunk fill differs from the CPU", settings, seed);
    free(fa);
    free(fc);
    cf_biomes_device_free(d);
    source_done();
}

Test(biome_device, overworld_equals_cpu, .timeout = 900) { device_equals_cpu("26.3", "minecraft:overworld", "1"); }
Test(biome_device, large_biomes_equals_cpu, .timeout = 900) { device_equals_cpu("26.3", "minecraft:large_biomes", "0"); }
Test(biome_device, nether_equals_cpu, .timeout = 900) { device_equals_cpu("26.3", "minecraft:nether", "-4172144997902289642"); }
Test(biome_device, end_equals_cpu, .timeout = 900) { device_equals_cpu("26.3", "minecraft:end", "0"); }
Test(biome_device, overworld_1_21_equals_cpu, .timeout = 900) { device_equals_cpu("1.21.11", "minecraft:overworld", "0"); }
Test(biome_device, amplified_1_21_equals_cpu, .timeout = 900) { device_equals_cpu("1.21.11", "minecraft:amplified", "1"); }
Test(biome_device, nether_1_21_equals_cpu, .timeout = 900) { device_equals_cpu("1.21.11", "minecraft:nether", "1"); }
Test(biome_device, end_1_21_equals_cpu, .timeout = 900) { device_equals_cpu("1.21.11", "minecraft:end", "-4172144997902289642"); }

Test(biome_device, bad_spec)
{
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "0");
    cf_biome_device *d = NULL;
    cf_error err = {0};
    cr_expect_eq(cf_biomes_device_open(&d, "gpu", b, &err), CF_ERR_ARG);
    cr_expect(strstr(err.message, "expected opencl or opencl:N") != NULL, "%s", err.message);
    cr_expect_null(d);
    source_done();
}

/* ------------------------------------------------------------------ server */
/* `chunkfill serve --biomes`: the handshake's biome palette and BIOMES_U8 fills through the C
 * client equal the library's (two configurations, two seeds: the source is rebound), density
 * fills still work beside them, and the Java client's fillBiomes gives the same biomes */
Test(biome_serve, server_c_and_java_clients, .init = setup_dir, .fini = rm_dir, .timeout = 600)
{
    char pack[4096], sock[300];
    shared_need("vanilla/26.3", pack, sizeof pack);
    snprintf(sock, sizeof sock, "unix:%s/s.sock", tdir);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        execl(CF_BINARY, CF_BINARY, "serve", "--pack", pack, "--settings", "minecraft:overworld", "--settings", "minecraft:nether",
              "--listen", sock, "--device", "cpu", "--biomes", (char *)NULL);
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
    static const char *const cfg[2] = {"minecraft:overworld", "minecraft:nether"};
    static const char *const seed[3] = {"7", "-4172144997902289642", "7"};
    int32_t ch[6] = {-2, 3, 100, -100, 0, 0};
    for (int k = 0; k < 3; k++) {
        const char *c = cfg[k % 2];
        cf_biomes *b = source_for("26.3", c, seed[k]);
        const char *names[CF_BIOME_PALETTE_MAX], *mine[CF_BIOME_PALETTE_MAX];
        int n = cf_client_biome_palette(cl, c, names);
        cr_assert_eq(n, cf_biomes_palette(b, mine));
        for (int i = 0; i < n; i++) cr_expect_str_eq(names[i], mine[i]);
        int min_y, height;
        cf_biomes_range(b, &min_y, &height);
        size_t per = (size_t)(height / 4) * 16;
        uint8_t *got = malloc(3 * per), *want = malloc(3 * per);
        cr_assert(got && want);
        int64_t s;
        cr_assert_eq(cf_seed_parse(seed[k], &s, NULL), CF_OK);
        cr_assert_eq(cf_client_fill(cl, c, s, CF_KIND_BIOMES_U8, 3, ch, got, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_biomes(b, 3, ch, want, 1, NULL), CF_OK);
        cr_expect_eq(memcmp(got, want, 3 * per), 0, "%s seed %s: server biomes differ", c, seed[k]);
        free(got);
        free(want);
    }
    static float dens[384 * 256];
    cr_expect_eq(cf_client_fill(cl, "minecraft:overworld", 1, CF_KIND_DENSITY_F32, 1, ch, dens, &err), CF_OK, "%s", err.message);
    cf_client_close(cl);
    /* the Java client (compiled here; javac is part of the dependencies, as for test_serve) */
    char cmd[4096], out[8192];
    snprintf(cmd, sizeof cmd, "javac -Xlint:all -Werror -d %s/j %s/host/net/clients/java/chunkfill/*.java 2>&1 && "
                              "java -cp %s/j chunkfill.Main --biomes %s minecraft:overworld 7 -2,3:-1,3 2>&1",
             tdir, CF_SOURCE_DIR, tdir, sock);
    FILE *j = popen(cmd, "r");
    cr_assert(j);
    size_t m = fread(out, 1, sizeof out - 1, j);
    out[m] = 0;
    cr_expect_eq(pclose(j), 0, "%s", out);
    cf_biomes *b = source_for("26.3", "minecraft:overworld", "7");
    int32_t two[4] = {-2, 3, -1, 3};
    uint8_t v[2 * 96 * 16];
    cr_assert_eq(cf_fill_biomes(b, 2, two, v, 1, NULL), CF_OK);
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(b, names);
    char want[2048];
    size_t wl = 0;
    for (int c = 0; c < 2; c++) {
        int count[CF_BIOME_PALETTE_MAX] = {0};
        for (int i = 0; i < 96 * 16; i++) count[v[c * 96 * 16 + i]]++;
        wl += (size_t)snprintf(want + wl, sizeof want - wl, "chunk %d,%d:", two[2 * c], two[2 * c + 1]);
        for (int i = 0; i < CF_BIOME_PALETTE_MAX; i++)
            if (count[i]) wl += (size_t)snprintf(want + wl, sizeof want - wl, " %s %d", names[i], count[i]);
        wl += (size_t)snprintf(want + wl, sizeof want - wl, "\n");
    }
    cr_expect_str_eq(out, want);
    source_done();
    kill(pid, SIGTERM);
    int st;
    waitpid(pid, &st, 0);
}
