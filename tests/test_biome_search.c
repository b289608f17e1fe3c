/* test_biome_search.c - the fast exact search of host/biome/tree.c (bm_fast_search: the
 * grouped trees, a node's children in lanes, the hint's shortcut) against vanilla's search
 * (cf_b_search), on every CPU path: each CF_NO_* switch picks the lanes the search is built
 * with (AVX-512, AVX2, portable), and each test runs them all. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "kernels/cf_math.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"

static uint64_t rnd(uint64_t *r)
{
    *r = *r * 6364136223846793005ULL + 1442695040888963407ULL;
    return *r >> 33;
}

/* the switches, and the lanes each leaves on this CPU */
static const char *const sw[4] = {NULL, "CF_NO_AVX512", "CF_NO_AVX2", "CF_NO_SSE"};
static int isa_of(int s)
{
    unsigned c = cpu_isa();
    int top = (c & CPU_AVX512) && (c & CPU_AVX2) ? BM_ISA_AVX512 : (c & CPU_AVX2) ? BM_ISA_AVX2
                                                                                  : BM_ISA_PORTABLE;
    return s == 0 ? top : s == 1 ? (top < BM_ISA_AVX2 ? top : BM_ISA_AVX2)
                                 : BM_ISA_PORTABLE;
}

/* the fast search of list l under switch s; tree: vanilla's tree of l (k children), *eo its entry_of */
static void build(bm_fast *f, const bm_list *l, int k, int32_t **tree, int *nn, int s)
{
    int32_t *eo;
    cr_assert(*tree = bm_tree_build_ex(l, k, nn, &eo));
    if (sw[s]) setenv(sw[s], "1", 1);
    cr_assert_eq(bm_fast_build(f, l, BM_FAST_K, *tree, *nn, eo), 0);
    if (sw[s]) unsetenv(sw[s]);
    cr_assert_eq(f->isa, isa_of(s), "switch %s: lanes %d", sw[s] ? sw[s] : "none", f->isa);
    free(eo);
}

/* target t against vanilla's: cold, from hint h, warm from h */
static void check(const bm_fast *f, const int32_t *tree, const int64_t *t, int32_t h, const char *what, int i)
{
    int64_t f1, f2;
    int32_t want = cf_b_search(tree, t, -1, &f1);
    cr_assert_eq(bm_fast_search(f, tree, t, -1, -1, &f2), want, "%s %d: cold", what, i);
    cr_assert_eq(f2, f1, "%s %d: fitness", what, i);
    if (h < 0) return;
    cr_assert_eq(bm_fast_search(f, tree, t, h, -1, &f2), want, "%s %d: hint %d", what, i, h);
    cr_assert_eq(f2, f1, "%s %d: fitness, hint %d", what, i, h);
    cr_assert_eq(bm_fast_search(f, tree, t, h, h, &f2), cf_b_search(tree, t, h, &f1), "%s %d: warm %d", what, i, h);
}

/* 26.3's list: random targets near the boxes and far out (the 32-bit lanes within 2^28,
 * full wrapping sums beyond), each from the previous answer */
Test(biome_search, near_and_far_targets)
{
    bm_list l = {0};
    cr_assert_eq(bm_preset_overworld("26.3", &l), 0);
    for (int s = 0; s < 4; s++) {
        bm_fast fast;
        int32_t *tree, prev = -1;
        int nn;
        build(&fast, &l, 19, &tree, &nn, s);
        cr_expect(fast.narrow);
        uint64_t r = 12345;
        for (int i = 0; i < 8000; i++) {
            int64_t t[6];
            for (int a = 0; a < 6; a++) {
                int64_t v = (int64_t)rnd(&r) % 30001 - 15000;
                int far = (int)((r >> 20) & 15);
                if (far == 0) v = ((int64_t)1 << 28) + (int64_t)((r >> 24) & 3) - 1; /* 2^28 - 1 .. 2^28 + 2 */
                if (far == 1) v = -((int64_t)1 << 28) - (int64_t)((r >> 24) & 3) + 1;
                if (far == 2 && (i & 7) == 0) v = (int64_t)1 << 40;
                t[a] = v;
            }
            check(&fast, tree, t, prev, sw[s] ? sw[s] : "none", i);
            int64_t fit;
            prev = cf_b_search(tree, t, -1, &fit);
        }
        bm_fast_free(&fast);
        free(tree);
    }
    bm_list_free(&l);
}

/* targets inside a leaf's box (strictly, or on its faces), from that leaf as the hint: the
 * shortcut's case (1.21.11's and 26.3's lists) */
Test(biome_search, targets_inside_the_hint)
{
    static const char *const ver[2] = {"1.21.11", "26.3"};
    for (int v = 0; v < 2; v++) {
        bm_list l = {0};
        cr_assert_eq(bm_preset_overworld(ver[v], &l), 0);
        for (int s = 0; s < 4; s++) {
            bm_fast fast;
            int32_t *tree;
            int nn;
            build(&fast, &l, bm_version_k(ver[v]), &tree, &nn, s);
            uint64_t r = 777;
            for (int i = 0; i < 6000; i++) {
                int32_t h = (int32_t)(rnd(&r) % (uint64_t)nn);
                while (tree[(size_t)h * CF_BN_STRIDE + CF_BN_COUNT]) h = (h + 1) % nn;
                const int32_t *n = tree + (size_t)h * CF_BN_STRIDE;
                int64_t t[6];
                for (int a = 0; a < 6; a++) {
                    int64_t lo = n[CF_BN_LO + a], hi = n[CF_BN_HI + a];
                    t[a] = lo + (int64_t)(rnd(&r) % (uint64_t)(hi - lo + 1));
                    if (a == 4) t[a] = (int64_t)(rnd(&r) % 25001) - 12500;
                }
                check(&fast, tree, t, h, ver[v], i);
            }
            bm_fast_free(&fast);
            free(tree);
        }
        bm_list_free(&l);
    }
}

/* made-up lists of boxes that overlap and tie a great deal (coarse coordinates), offsets 0
 * and not, 3 depth intervals (a tree per interval, the shortcut) and 12 (one tree, no
 * shortcut); targets on the same coarse grid, hints from every leaf and the last answer */
Test(biome_search, overlapping_made_up_lists)
{
    for (int m = 0; m < 2; m++) {
        bm_list l = {0};
        uint64_t r = 99 + (uint64_t)m;
        int n = 400;
        l.n = n;
        l.lo = malloc((size_t)n * sizeof *l.lo), l.hi = malloc((size_t)n * sizeof *l.hi), l.pal = malloc((size_t)n * sizeof *l.pal);
        cr_assert(l.lo && l.hi && l.pal);
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 7; a++) {
                int32_t x = ((int32_t)(rnd(&r) % 5) - 2) * 1000, y = ((int32_t)(rnd(&r) % 5) - 2) * 1000;
                l.lo[i][a] = x < y ? x : y, l.hi[i][a] = x < y ? y : x;
            }
            int32_t d = (int32_t)(rnd(&r) % (m ? 12u : 3u)) * 700;
            l.lo[i][4] = l.hi[i][4] = d;
            l.lo[i][6] = l.hi[i][6] = rnd(&r) % 4 ? 0 : 500;
            l.pal[i] = i % 50;
        }
        for (int s = 0; s < 4; s++) {
            bm_fast fast;
            int32_t *tree, prev = -1;
            int nn;
            build(&fast, &l, 6, &tree, &nn, s);
            cr_assert_eq(fast.bydepth, !m);
            for (int i = 0; i < 3000; i++) {
                int64_t t[6];
                for (int a = 0; a < 6; a++) t[a] = ((int64_t)(rnd(&r) % 11) - 5) * 500 + (rnd(&r) % 3 ? 0 : (int64_t)(rnd(&r) % 999));
                check(&fast, tree, t, prev, "made up", i);
                for (int32_t h = (int32_t)(i % 7); h < nn; h += 7)
                    if (!tree[(size_t)h * CF_BN_STRIDE + CF_BN_COUNT]) check(&fast, tree, t, h, "made up, every leaf", i);
                int64_t fit;
                prev = cf_b_search(tree, t, -1, &fit);
            }
            bm_fast_free(&fast);
            free(tree);
        }
        bm_list_free(&l);
    }
}
