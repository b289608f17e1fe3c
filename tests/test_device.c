/* test_device.c - the OpenCL backend on PoCL (present on every machine of this
 * project, so these tests run in CI): device fills equal the CPU reference bit
 * for bit for vanilla 26.3 (every noise settings, three seeds, near and far
 * chunks) and our packs; a deliberately wrong program is caught; switching seeds
 * does not rebuild; the generated source names its nodes' sources; the corner stage's
 * split octave in the GPU form (cf_axis, cf_axis_y, cf_perlin_lattice with the gradients
 * by selects: CF_GPU, which PoCL does not get in a fill) equals cf_perlin and
 * cf_smeared on the CPU; batches over the two sets of buffers (device.c), with and without pinned
 * staging, equal the CPU for every output, and a fault in the second batch fails cleanly. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opencl/clrt.h"
#include "opencl/emit.h"
#include "kernels/cf_math.h"
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
    shared_need("vanilla/26.3", p, sizeof p);
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
/* the GPU form (what device.c builds for a GPU: CF_GPU, k_stacks_<k> with the permutations
 * in local memory, gradients by selects, out-of-line stack calls) run on PoCL: the same
 * values as the CPU (each test runs in its own process: the variable stays here) */
Test(device, gpu_form_vanilla_overworld)
{
    setenv("CHUNKFILL_GPU_FORM", "1", 1);
    vanilla("minecraft:overworld");
}
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

/* the corner stage's octave as a GPU builds it (device.c: CF_GPU), per work-item
 * from one point (x, y, z, ox, oy, oz, q): the split octave, and one gradient dot */
static const char split_src[] =
    "__kernel void oct(__global const uchar *perm, __global const double *in, __global float *out)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    __global const double *a = in + 7 * g;\n"
    "    float u, v, f, w;\n"
    "    int i = cf_axis(a[0], a[3], &u), k = cf_axis(a[2], a[5], &w), j = cf_axis_y(a[1], a[4], a[6], &v, &f);\n"
    "    out[2 * g] = cf_perlin_lattice(perm, i, j, k, u, v, w, f);\n"
    "    out[2 * g + 1] = cf_gdot((uint)g, (float)a[0], (float)a[1], -(float)a[2]);\n"
    "}\n";

Test(device, gpu_form_split_octave_equals_cpu)
{
    enum { N = 4096 };
    clrt rt;
    cf_error err = {0};
    int nd = clrt_list(NULL, 0, &err);
    if (nd <= 0) cr_skip_test("no OpenCL device on this machine (PoCL expected)");
    cr_assert_eq(clrt_open(&rt, 0, &err), CF_OK, "%s", err.message);
    size_t len = strlen(emit_header_math) + sizeof split_src + 2;
    char *src = malloc(len);
    snprintf(src, len, "%s\n%s", emit_header_math, split_src);
    cl_program prog = NULL;
    cr_assert_eq(clrt_build(&rt, src, "-cl-fp32-correctly-rounded-divide-sqrt -DCF_GPU", &prog, NULL, &err), CF_OK,
                 "%s", err.message);
    free(src);
    static uint8_t perm[256];
    static double in[7 * N];
    static float out[2 * N], want[2 * N];
    uint64_t r = 0x9E3779B97F4A7C15ULL;
#define RND() (r = r * 6364136223846793005ULL + 1442695040888963407ULL, (double)(r >> 11) / 9007199254740992.0)
    for (int i = 0; i < 256; i++) perm[i] = (uint8_t)i;
    for (int i = 255; i > 0; i--) {
        int k = (int)(RND() * (i + 1));
        uint8_t t = perm[i];
        perm[i] = perm[k], perm[k] = t;
    }
    for (int g = 0; g < N; g++) {
        double *a = in + 7 * g;
        /* coordinates near 0, at block scale and past the wrap (2^25); y sometimes in [0, 1) for the
         * smear's limit; offsets in [0, 256); half the points smeared */
        double span = g % 3 == 0 ? 4.0 : g % 3 == 1 ? 1e5 : 1e9;
        a[0] = (RND() - 0.5) * span, a[1] = g % 5 == 0 ? RND() : (RND() - 0.5) * span, a[2] = (RND() - 0.5) * span;
        a[3] = RND() * 256.0, a[4] = RND() * 256.0, a[5] = RND() * 256.0;
        a[6] = g % 2 ? 0.0 : 0.01 + RND() * 0.5;
        if (g % 7 == 0) a[0] = -0.0, a[2] = 0.0; /* signed zeros into the gradient dot */
        want[2 * g] = a[6] > 0.0 ? cf_smeared(perm, a[3], a[4], a[5], a[6], a[0], a[1], a[2])
                                 : cf_perlin(perm, a[3], a[4], a[5], a[0], a[1], a[2]);
        want[2 * g + 1] = cf_gdot((cf_u32)g, (float)a[0], (float)a[1], -(float)a[2]);
    }
#undef RND
    cl_int e = 0;
    cl_kernel k = clCreateKernel(prog, "oct", &e);
    cr_assert_eq(e, CL_SUCCESS, "%s", clrt_errname(e));
    cl_mem mp = clCreateBuffer(rt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof perm, perm, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_mem mi = clCreateBuffer(rt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_mem mo = clCreateBuffer(rt.ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof mp, &mp), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof mi, &mi), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof mo, &mo), CL_SUCCESS);
    size_t gsz = N;
    cr_assert_eq(clEnqueueNDRangeKernel(rt.queue, k, 1, NULL, &gsz, NULL, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueReadBuffer(rt.queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(mo), clReleaseMemObject(mi), clReleaseMemObject(mp);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clrt_close(&rt);
    int bad = 0, first = -1;
    for (int i = 0; i < 2 * N; i++)
        if (memcmp(&out[i], &want[i], 4) != 0 && bad++ == 0) first = i;
    cr_assert_eq(bad, 0, "%d of %d values differ; first [%d]: device %a, CPU %a", bad, 2 * N, first, (double)out[first],
                 (double)want[first]);
}

/* the vanilla overworld program's launch layout (emit.h): k_columns launches only the 5 x 5
 * corner columns of a chunk, the four small corner kernels are one, and the final density's
 * corners (28 noise stacks) get k_stacks_4 in the GPU form (its body then reads the values:
 * no out-of-line calls); the values are checked by `CHUNKFILL_GPU_FORM=1 test_device` */
Test(device, overworld_launch_layout)
{
    char p[4096];
    struct stat st;
    shared_need("vanilla/26.3", p, sizeof p);
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    const char *paths[1] = {p};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 0, &err), CF_OK, "%s", err.message);
    emit_layout lay;
    char *src = emit_program(pg, w, 0, &lay, &err);
    cr_assert_not_null(src, "%s", err.message);
    cr_expect_eq(lay.colitems, 25);
    cr_assert_eq(lay.ninterp, 5);
    cr_expect(!lay.cmerged[0] && lay.cmerged[1] && lay.cmerged[2] && lay.cmerged[3] && !lay.cmerged[4]);
    cr_expect(strstr(src, "__kernel void k_corners_0(") && !strstr(src, "__kernel void k_corners_1("));
    cr_expect_eq(lay.nsites[4], 28);
    cr_expect_eq(lay.svs, (size_t)28 * 1225);
    cr_expect(strstr(src, "void k_stacks_4(")); /* __kernel __attribute__((reqd_work_group_size(...))) */
    cr_expect(strstr(src, "__local uint lp["));   /* the GPU form: the permutations in local memory */
    free(src);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ------------------------------------------------ double-buffered batches (device.c fill_batches)
 * Batches alternate two sets of buffers: batch i + 1 is uploaded and computed while batch i is
 * read back into its pinned staging buffer and copied out. Batch 3 for 7 chunks: three batches,
 * each set used twice in a call, an odd last batch of 1; two calls, so a call starts on sets the
 * previous one left. Every output the batches serve: densities (f32 26.3, f64 libnoise), blocks
 * (26.3 aquifers) and blocks with the 1.21 surface stage (vanilla 26.2). */
static const int32_t seven[14] = {0, 0, -3, 7, 62500, -3, -70000, 70001, 5, -9, -1874999, 1874999, 12, 13};

/* a device with batches of 3; staging 1: transfers through pinned staging buffers (a GPU's
 * way), 0: straight into the caller's memory (a CPU device's); device.c CHUNKFILL_STAGING */
static cf_device *open_batch3(cf_program *pg, int staging)
{
    cf_error err = {0};
    cf_device *dev;
    setenv("CHUNKFILL_STAGING", staging ? "1" : "0", 1);
    cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 3, &err), CF_OK, "%s", err.message);
    unsetenv("CHUNKFILL_STAGING");
    cr_assert_eq(cf_device_batch(dev), 3u);
    return dev;
}

static void batches_density(const char *pack, const char *settings, const char *function, size_t esz)
{
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev = NULL;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, pack ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(&pg, pk, settings, &function, 1, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t bytes = (size_t)height * 256 * esz * 7;
    char *a = malloc(bytes), *b = malloc(bytes);
    for (int call = 0; call < 4; call++) {
        if (call % 2 == 0) dev = open_batch3(pg, call / 2);
        cr_assert_eq(cf_world_new(&w, pg, call % 2 ? -5 : 77, &err), CF_OK, "%s", err.message);
        memset(a, 0xee, bytes);
        cr_assert_eq(cf_device_fill(dev, w, 7, seven, a, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_chunks(w, 0, 7, seven, b, 1, &err), CF_OK, "%s", err.message);
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < bytes; i += esz)
            if (memcmp(a + i, b + i, esz) != 0 && diff++ == 0) first = i / esz;
        cr_assert_eq(diff, 0u, "%s staging %d call %d: %zu values differ; the first in chunk %zu", settings, call / 2, call % 2,
                     diff, first / ((size_t)height * 256));
        cf_world_free(w);
        if (call % 2) cf_device_free(dev);
    }
    free(a), free(b);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(device, batches_densities_f32) { batches_density(NULL, "minecraft:overworld", "router:final_density", sizeof(float)); }
Test(device, batches_densities_f64)
{
    batches_density(CF_SOURCE_DIR "/packs/libnoise-obsidian", "minecraft:overworld", "router:final_density", sizeof(double));
}

Test(device, batches_blocks)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev = NULL;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t per = (size_t)height * 256;
    uint8_t *a = malloc(per * 7), *b = malloc(per * 7);
    for (int call = 0; call < 4; call++) {
        if (call % 2 == 0) dev = open_batch3(pg, call / 2);
        cr_assert_eq(cf_world_new(&w, pg, call % 2 ? 3 : -11, &err), CF_OK, "%s", err.message);
        memset(a, 0xee, per * 7);
        cr_assert_eq(cf_device_fill_blocks(dev, w, 7, seven, a, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_blocks(w, 7, seven, b, 1, &err), CF_OK, "%s", err.message);
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < per * 7; i++)
            if (a[i] != b[i] && diff++ == 0) first = i;
        cr_assert_eq(diff, 0u, "staging %d call %d: %zu blocks differ; the first in chunk %zu", call / 2, call % 2, diff, first / per);
        cf_world_free(w);
        if (call % 2) cf_device_free(dev);
    }
    free(a), free(b);
    cf_program_free(pg);
    cf_pack_free(pk);
}

Test(device, batches_blocks_surface_121)
{
    char pack[4096];
    if (!shared_have("vanilla/26.2", pack, sizeof pack)) cr_skip_test("no %s/vanilla/26.2", shared_dir());
    const char *paths[1] = {pack};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev = NULL;
    cf_world *w;
    cf_biomes *bio;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert(cf_program_surface_on_device(pg));
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t per = (size_t)height * 256;
    uint8_t *a = malloc(per * 7), *b = malloc(per * 7);
    cr_assert_eq(cf_world_new(&w, pg, 5, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&bio, pk, NULL, "minecraft:overworld", NULL, 5, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_fill_blocks_surface(w, bio, 7, seven, b, 1, &err), CF_OK, "%s", err.message);
    for (int staging = 0; staging < 2; staging++) {
        dev = open_batch3(pg, staging);
        memset(a, 0xee, per * 7);
        cr_assert_eq(cf_device_fill_blocks_surface(dev, w, bio, 7, seven, a, &err), CF_OK, "%s", err.message);
        size_t diff = 0, first = 0, surf = 0;
        const char *names[CF_PALETTE_MAX];
        int rules = first_rule_block(names, cf_block_palette(pg, names));
        for (size_t i = 0; i < per * 7; i++) {
            if (a[i] != b[i] && diff++ == 0) first = i;
            surf += b[i] >= rules;
        }
        cr_assert_eq(diff, 0u, "staging %d: %zu blocks differ; the first in chunk %zu", staging, diff, first / per);
        cr_expect_gt(surf, 7000u, "surface blocks: %zu", surf);
        cf_device_free(dev);
    }
    cf_biomes_free(bio);
    cf_world_free(w);
    free(a), free(b);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* a launch failing in the second batch (batch 1 of 3, the first still in flight) fails the
 * fill with one message; the device drained its queues and fills correctly afterwards */
Test(device, batches_fault_in_second_batch)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev = NULL;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 9, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t per = (size_t)height * 256;
    uint8_t *a = malloc(per * 7), *b = malloc(per * 7);
    cr_assert_eq(cf_fill_blocks(w, 7, seven, b, 1, &err), CF_OK, "%s", err.message);
    for (int staging = 0; staging < 2; staging++) {
        dev = open_batch3(pg, staging);
        setenv("CHUNKFILL_FAULT", "launch:1", 1);
        cr_assert_eq(cf_device_fill_blocks(dev, w, 7, seven, a, &err), CF_ERR_DEVICE);
        unsetenv("CHUNKFILL_FAULT");
        cr_assert(strstr(err.message, "CL_OUT_OF_RESOURCES") && strstr(err.message, "injected") && !strchr(err.message, '\n'),
                  "%s", err.message);
        memset(&err, 0, sizeof err);
        memset(a, 0xee, per * 7);
        cr_assert_eq(cf_device_fill_blocks(dev, w, 7, seven, a, &err), CF_OK, "%s", err.message);
        cr_assert_eq(memcmp(a, b, per * 7), 0, "staging %d: the fill after the failed one differs from the CPU", staging);
        cf_device_free(dev);
    }
    free(a), free(b);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* the automatic batch counts both sets: with pinned staging their staging (2 x 393,224 bytes a
 * chunk of the f32 overworld) stays within the fill's working memory (max_fill_bytes, the CLI's
 * --max-memory): 10 MB gives 8 chunks (64 would stage 50 MB); without staging the cap is 64 */
Test(device, batch_counts_both_staging_sets)
{
    cf_error err = {0};
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_fill_bytes = 10000000;
    cf_pack *pk;
    cf_program *pg;
    cf_device *dev;
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, &lim, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    static const size_t want[2] = {64, 8};
    for (int staging = 0; staging < 2; staging++) {
        setenv("CHUNKFILL_STAGING", staging ? "1" : "0", 1);
        cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 0, &err), CF_OK, "%s", err.message);
        unsetenv("CHUNKFILL_STAGING");
        cr_expect_eq(cf_device_batch(dev), want[staging], "staging %d: batch %zu", staging, cf_device_batch(dev));
        cf_device_free(dev);
    }
    cf_program_free(pg);
    cf_pack_free(pk);
}
