/* test_device.c - the OpenCL backend on PoCL (present on every machine of this
 * project, so these tests run in CI): device fills equal the CPU reference bit
 * for bit for vanilla 26.3 (every noise settings, three seeds, near and far
 * chunks) and our packs; a deliberately wrong program is caught; switching seeds
 * does not rebuild; the generated source names its nodes' sources. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opencl/emit.h"
#include "testutil.h"


/* fills chunks on the device and the CPU; returns the number of differing values */
static size_t compare(cf_device *dev, cf_world *w, const int32_t *chunks, size_t n, int height)
{
    size_t per = (size_t)height * 256;
    float *a = malloc(sizeof(float) * per * n), *b = malloc(sizeof(float) * per * n);
    cf_error err = {0};
    cr_assert_eq(cf_device_fill(dev, w, n, chunks, a, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_fill_chunks(w, 0, n, chunks, b, 0, &err), CF_OK, "%s", err.message);
    size_t diff = 0;
    for (size_t i = 0; i < per * n; i++) diff += memcmp(&a[i], &b[i], 4) != 0;
    free(a), free(b);
    return diff;
}

static void check_settings(const char *pack, const char *settings, const int64_t *seeds, int nseeds,
                           const int32_t *chunks, size_t n)
{
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev;
    cr_assert_eq(cf_pack_open(&pk, paths, pack ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 0, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    for (int s = 0; s < nseeds; s++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seeds[s], &err), CF_OK);
        size_t d = compare(dev, w, chunks, n, height);
        cr_expect_eq(d, 0u, "%s seed %lld: %zu values differ between %s and the CPU", settings, (long long)seeds[s], d,
                     cf_device_name(dev));
        cf_world_free(w);
    }
    cf_device_free(dev);
    cf_program_free(pg);
    cf_pack_free(pk);
}

static const int64_t seeds[3] = {0, -4172144997902289642LL, 123456789};
/* near the origin, mid-range, and far (|block x| >= 1,000,000) */
static const int32_t chunks[8] = {0, 0, -3, 7, 62500, -3, -70000, 70001};

static void vanilla(const char *settings)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/vanilla/26.3", shared_dir());
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    check_settings(p, settings, seeds, 3, chunks, 4);
}

TestSuite(device, .timeout = 900);
Test(device, vanilla_overworld) { vanilla("minecraft:overworld"); }
Test(device, vanilla_large_biomes) { vanilla("minecraft:large_biomes"); }
Test(device, vanilla_amplified) { vanilla("minecraft:amplified"); }
Test(device, vanilla_nether) { vanilla("minecraft:nether"); }
Test(device, vanilla_end) { vanilla("minecraft:end"); }
Test(device, vanilla_caves) { vanilla("minecraft:caves"); }
Test(device, vanilla_floating_islands) { vanilla("minecraft:floating_islands"); }
Test(device, default_pack) { check_settings(NULL, "minecraft:overworld", seeds, 3, chunks, 4); }
Test(device, node_test_pack)
{
    check_settings(CF_SOURCE_DIR "/tests/packs/nodes", "test:nodes", seeds, 2, chunks, 3);
    check_settings(CF_SOURCE_DIR "/tests/packs/nodes", "test:nodes_legacy", seeds, 2, chunks, 3);
}

/* a program whose lerps are fused (fma) must differ from the CPU somewhere */
Test(device, check_catches_a_wrong_kernel)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK);
    emit_test_break = 1;
    cf_status st = cf_device_open(&dev, "opencl", pg, 0, 0, &err);
    emit_test_break = 0;
    cr_assert_eq(st, CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t d = compare(dev, w, chunks, 2, height);
    cr_assert_gt(d, 0u, "a fused-lerp program gave the same values: the comparison cannot fail");
    cf_world_free(w);
    cf_device_free(dev);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* a second seed uploads new tables into the same program */
Test(device, switching_seeds_keeps_the_program)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK);
    cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 0, &err), CF_OK, "%s", err.message);
    double t0[4], t1[4];
    cf_device_times(dev, t0);
    for (int s = 0; s < 3; s++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seeds[s] + 11, &err), CF_OK);
        cr_assert_eq(compare(dev, w, chunks, 1, 384), 0u);
        cf_world_free(w);
    }
    cf_device_times(dev, t1);
    cr_assert_eq(t0[0], t1[0], "the compile time changed: the program was rebuilt");
    cf_device_free(dev);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(device, emitted_source_names_node_sources)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK);
    char *src = cf_emit_opencl(pg, 0, &err);
    cr_assert_not_null(src, "%s", err.message);
    cr_assert(strstr(src, "#pragma OPENCL FP_CONTRACT OFF"));
    cr_assert(strstr(src, "__kernel void k_blocks"));
    cr_assert(strstr(src, "/* <default>/data/"), "no source comment");
    /* the program does not depend on the seed: no seed value, the same text every time */
    char *again = cf_emit_opencl(pg, 0, &err);
    cr_assert_str_eq(src, again);
    free(src), free(again);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(device, bad_device_spec)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK);
    cr_assert_eq(cf_device_open(&dev, "gpu", pg, 0, 0, &err), CF_ERR_ARG);
    cr_assert(strstr(err.message, "expected cpu, opencl or opencl:N"), "%s", err.message);
    memset(&err, 0, sizeof err);
    cr_assert_eq(cf_device_open(&dev, "opencl:999", pg, 0, 0, &err), CF_ERR_DEVICE);
    cr_assert_null(dev);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* `chunkfill fill --device opencl` writes the same file as `--device cpu` */
Test(device, fill_files_identical)
{
    char dir[] = "/tmp/cf-devfill-XXXXXX", cmd[2048];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "'%s' fill --seed -7 --chunks -2,3:1,4 --device cpu --out %s/a.npy && "
             "'%s' fill --seed -7 --chunks -2,3:1,4 --device opencl --batch 3 --out %s/b.npy && cmp %s/a.npy %s/b.npy",
             CF_BINARY, dir, CF_BINARY, dir, dir, dir);
    int rc = system(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(rc, 0, "the files differ (or a fill failed)");
}
