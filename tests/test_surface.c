/* test_surface.c - exact surface heights: cf_surface_heights equals the heights
 * read off full chunk fills (cf_fill_chunks, itself equal to the oracle) on
 * areas of vanilla overworld, amplified and nether and of our default pack,
 * including areas that do not start on a chunk boundary; and it computes fewer
 * rows than a full fill. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/cf_math.h"
#include "cpu/cpu.h"
#include "testutil.h"


/* heights from full fills of the chunks covering the area */
static void reference(cf_world *w, int32_t x0, int32_t z0, int32_t nx, int32_t nz, int32_t below, int32_t *ref)
{
    int min_y, height;
    cf_program_settings(w->prog, &min_y, &height, NULL);
    int32_t cx0 = (int32_t)cf_floordiv(x0, 16), cz0 = (int32_t)cf_floordiv(z0, 16);
    int32_t cx1 = (int32_t)cf_floordiv((int64_t)x0 + nx - 1, 16), cz1 = (int32_t)cf_floordiv((int64_t)z0 + nz - 1, 16);
    float *v = malloc(sizeof(float) * (size_t)height * 256);
    for (int32_t cz = cz0; cz <= cz1; cz++)
        for (int32_t cx = cx0; cx <= cx1; cx++) {
            int32_t c[2] = {cx, cz};
            cr_assert_eq(cf_fill_chunks(w, 0, 1, c, v, 1, NULL), CF_OK);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int64_t gx = (int64_t)cx * 16 + x - x0, gz = (int64_t)cz * 16 + z - z0;
                    if (gx < 0 || gz < 0 || gx >= nx || gz >= nz) continue;
                    int32_t top = min_y - 1;
                    for (int y = height - 1; y >= 0; y--)
                        if (min_y + y <= below && v[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] > 0.0f) {
                            top = min_y + y;
                            break;
                        }
                    ref[gz * nx + gx] = top;
                }
        }
    free(v);
}

static void check(const char *pack, const char *settings, int64_t seed, int32_t x0, int32_t z0, int32_t nx, int32_t nz,
                  int32_t below)
{
    cf_pack *pk;
    cf_program *pg;
    cf_error err = {0};
    cf_world *w = world_open(pack, settings, "router:final_density", seed, &pk, &pg);
    int32_t *h = malloc(sizeof(int32_t) * (size_t)nx * (size_t)nz), *ref = malloc(sizeof(int32_t) * (size_t)nx * (size_t)nz);
    cr_assert_eq(cf_surface_heights(w, 0, x0, z0, nx, nz, below, h, 0, &err), CF_OK, "%s", err.message);
    reference(w, x0, z0, nx, nz, below, ref);
    int bad = 0, solid = 0;
    for (int i = 0; i < nx * nz; i++) {
        if (h[i] != ref[i] && bad++ < 5)
            cr_log_error("%s seed %lld at x %d z %d: surface %d, full fill %d", settings, (long long)seed, x0 + i % nx,
                         z0 + i / nx, h[i], ref[i]);
        solid += ref[i] >= 0;
    }
    cr_assert_eq(bad, 0, "%d columns differ", bad);
    cr_assert_gt(solid, 0, "no solid column at all: the comparison is empty");
    free(h), free(ref);
    world_close(w, pg, pk);
}

static char vanilla[4096];
static int have_vanilla(void)
{
    struct stat st;
    shared_need("vanilla/26.3", vanilla, sizeof vanilla);
    return stat(vanilla, &st) == 0;
}

TestSuite(surface, .timeout = 600);
/* 5 x 4 chunks each, not chunk-aligned */
Test(surface, vanilla_overworld_equals_full_fills)
{
    if (!have_vanilla()) cr_skip_test("no vanilla data");
    check(vanilla, "minecraft:overworld", 0, -37, 21, 80, 64, INT32_MAX);
    check(vanilla, "minecraft:overworld", -4172144997902289642LL, 1000003, -500017, 80, 64, INT32_MAX);
}
Test(surface, vanilla_amplified_equals_full_fills)
{
    if (!have_vanilla()) cr_skip_test("no vanilla data");
    check(vanilla, "minecraft:amplified", 123456789, 200, -300, 80, 64, INT32_MAX);
}
Test(surface, vanilla_nether_roof_and_floor)
{
    if (!have_vanilla()) cr_skip_test("no vanilla data");
    check(vanilla, "minecraft:nether", 7, -100, 50, 80, 64, INT32_MAX); /* the roof */
    check(vanilla, "minecraft:nether", 7, -100, 50, 80, 64, 100);       /* the floor under y 100 */
}
Test(surface, default_pack_equals_full_fills)
{
    check(NULL, "minecraft:overworld", 42, -8, -8, 96, 80, INT32_MAX);
}
Test(surface, computes_fewer_rows_than_a_fill)
{
    cf_pack *pk;
    cf_program *pg;
    cf_world *w = world_open(NULL, "minecraft:overworld", "router:final_density", 42, &pk, &pg);
    int32_t h[256];
    int rows = 0, total = 0;
    for (int c = 0; c < 8; c++) {
        int r;
        cr_assert_eq(fill_surface_chunk(w, 0, c * 3, -c, h, &r), 0);
        rows += r;
        total += 384;
    }
    cr_assert_lt(rows, total * 3 / 4, "%d of %d rows computed", rows, total);
    world_close(w, pg, pk);
}
Test(surface, bad_areas)
{
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, NULL), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, NULL), CF_OK);
    cr_assert_eq(cf_world_new(&w, pg, 1, NULL), CF_OK);
    int32_t h[4];
    cf_error err = {0};
    cr_assert_eq(cf_surface_heights(w, 0, 0, 0, 0, 2, INT32_MAX, h, 1, &err), CF_ERR_ARG);
    memset(&err, 0, sizeof err);
    cr_assert_eq(cf_surface_heights(w, 0, 2147483600, 0, 100, 1, INT32_MAX, h, 1, &err), CF_ERR_ARG);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* found by fuzzing: a node without y above an interpolated node (whose buffer has
 * rows) read a row outside the window being computed */
Test(surface, y_independent_interpolated_input)
{
    const char *s = "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": {\"final_density\": \"t:f\"}}";
    const char *nz = "{\"base_amplitude\": 1.0, \"base_octave\": -3, \"octave_count\": 2}";
    const char *f =
        "{\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:interpolated\", \"cell_size_xz\": 8,"
        " \"input\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1.0, \"y_scale\": 0.0}},"
        " \"right\": {\"type\": \"minecraft:range_choice\", \"input\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\","
        " \"xz_scale\": 1.5, \"y_scale\": 0.0}, \"min_inclusive\": 0.0, \"max_exclusive\": 1.0, \"when_in_range\":"
        " {\"type\": \"minecraft:gradient\", \"axis\": \"x\", \"from_coordinate\": 0, \"to_coordinate\": 16, \"from_value\": 1.0,"
        " \"to_value\": -1.0}, \"when_out_of_range\": -0.25}}";
    cf_memfile files[3] = {{"data/t/worldgen/noise_settings/s.json", s, strlen(s)},
                           {"data/t/worldgen/noise/n.json", nz, strlen(nz)},
                           {"data/t/worldgen/density_function/f.json", f, strlen(f)}};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(cf_pack_open_memory(&pk, files, 3, NULL, NULL), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, NULL), CF_OK);
    cr_assert_eq(cf_world_new(&w, pg, 1, NULL), CF_OK);
    int32_t h[48 * 48], ref[48 * 48];
    cr_assert_eq(cf_surface_heights(w, 0, -16, -16, 48, 48, INT32_MAX, h, 1, NULL), CF_OK);
    reference(w, -16, -16, 48, 48, INT32_MAX, ref);
    int solid = 0;
    for (int i = 0; i < 48 * 48; i++) {
        cr_assert_eq(h[i], ref[i], "column %d: surface %d, fill %d", i, h[i], ref[i]);
        solid += ref[i] >= 0;
    }
    cr_assert_gt(solid, 0);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* the surface stage's chunk_surface_level through the corner memo (eval_volume_memo: one
 * entry per column for a find_top_surface input, 4 ways, round-robin eviction) equals the
 * plain volume-path evaluation, bit for bit, over columns visited in a scattered order
 * (cells revisited after their entries may have been evicted) */
Test(surface, chunk_surface_level_memo_equals_plain)
{
    if (!have_vanilla()) cr_skip_test("no vanilla data");
    cf_pack *pk;
    cf_program *pg;
    cf_world *w = world_open(vanilla, "minecraft:overworld", "minecraft:overworld/chunk_surface_level", 5, &pk, &pg);
    int node = w->prog->outputs[0];
    cf_cmemo *m = calloc(1, sizeof *m);
    cr_assert(m);
    uint32_t r = 12345u;
    for (int i = 0; i < 160; i++) {
        r = r * 1103515245u + 12345u;
        int32_t x = (int32_t)((r >> 8) % 160u) - 80, z = (int32_t)((r >> 20) % 160u) - 80;
        if (i % 4 == 0) x += 2000000, z -= 1000000; /* far cells in between */
        float a = eval_volume_memo(w, m, node, x, 0, z, 0), b = eval_volume_f32(w, node, x, 0, z, 0);
        cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "(%d, %d): memo %.9g, plain %.9g", x, z, a, b);
    }
    free(m);
    world_close(w, pg, pk);
}
