/* test_clrt.c - the OpenCL runtime layer (host/opencl/clrt.c) on the machine's
 * OpenCL devices (PoCL's CPU device at least): listing, opening, the disk cache
 * of program binaries (hits, corrupt and truncated entries, key), failed builds
 * (source and log saved), and the exactness probes, including a kernel that
 * really fuses a*b+c. Each test that builds points CHUNKFILL_CACHE at a fresh
 * temporary directory and removes it afterwards.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opencl/clrt.h"

#include "testutil.h"

#define OPTS "-cl-fp32-correctly-rounded-divide-sqrt"

/* ------------------------------------------------------------------ helpers */

static char tmpdir[256];

static void rm_flat_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_flat_dir(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* a fresh temporary cache directory in $CHUNKFILL_CACHE */
static void fresh_cache(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cf-clrt-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    cr_assert_eq(setenv("CHUNKFILL_CACHE", tmpdir, 1), 0);
}

static void cleanup_cache(void)
{
    if (tmpdir[0]) rm_flat_dir(tmpdir);
}

static void open_dev0(clrt *rt)
{
    cf_error err = {0};
    int n = clrt_list(NULL, 0, &err);
    cr_assert_geq(n, 0, "%s", err.message);
    if (n == 0) cr_skip_test("no OpenCL device on this machine (PoCL expected)");
    cr_assert_eq(clrt_open(rt, 0, &err), CF_OK, "%s", err.message);
}

/* number of *.bin entries in dir; the first one's path in path */
static int find_bins(const char *dir, char *path, size_t n)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".bin") && e->d_name[0] != '.') {
            if (count++ == 0 && path) snprintf(path, n, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    return count;
}

static void write_all_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(p, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

/* mixes double and float arithmetic that contraction or flushing would change */
static const char kernel_src[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void work(__global const double *a, __global const float *b, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float t = (float)(a[i] * 3.0 + 0.25);\n"
    "    out[i] = t * b[i] - b[i] / 7.0f + sqrt(fabs(b[i]));\n"
    "}\n";

#define NWORK 1000

static float host_work(double a, float b)
{
    float t = (float)(a * 3.0 + 0.25);
    return t * b - b / 7.0f + sqrtf(fabsf(b));
}

/* runs kernel `work` of prog and compares with the host bit for bit */
static void check_work(clrt *rt, cl_program prog)
{
    static double a[NWORK];
    static float b[NWORK], out[NWORK], want[NWORK];
    for (int i = 0; i < NWORK; i++) {
        a[i] = (i - 500) * 0.3711 + 1e-9 * i;
        b[i] = (float)(i * 1.2345) - 600.0f + 0x1p-20f * (float)i;
        want[i] = host_work(a[i], b[i]);
    }
    cl_int e = 0;
    cl_kernel k = clCreateKernel(prog, "work", &e);
    cr_assert_eq(e, CL_SUCCESS, "%s", clrt_errname(e));
    cl_mem ma = clCreateBuffer(rt->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_mem mb = clCreateBuffer(rt->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_mem mo = clCreateBuffer(rt->ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof ma, &ma), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof mb, &mb), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof mo, &mo), CL_SUCCESS);
    size_t g = NWORK;
    cr_assert_eq(clEnqueueNDRangeKernel(rt->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    memset(out, 0xff, sizeof out);
    cr_assert_eq(clEnqueueReadBuffer(rt->queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(mo);
    clReleaseMemObject(mb);
    clReleaseMemObject(ma);
    clReleaseKernel(k);
    cr_assert_eq(memcmp(out, want, sizeof out), 0, "device result differs from the host");
}

/* builds kernel_src, expects cache_hit == hit, runs it */
static void build_and_check(clrt *rt, int hit)
{
    cf_error err = {0};
    cl_program prog = NULL;
    int h = -1;
    cr_assert_eq(clrt_build(rt, kernel_src, OPTS, &prog, &h, &err), CF_OK, "%s", err.message);
    cr_assert_eq(h, hit, "cache_hit %d, expected %d", h, hit);
    check_work(rt, prog);
    clReleaseProgram(prog);
}

/* checks a cache entry's header against its name and its binary (PoCL's
 * binaries are not byte-for-byte reproducible, so only the structure can be
 * compared between builds) */
static void check_entry(const char *path)
{
    size_t n = 0;
    unsigned char *b = (unsigned char *)slurp_if(path, &n);
    cr_assert_not_null(b, "cache entry %s missing", path);
    cr_assert_gt(n, (size_t)CLRT_CACHE_HEADER);
    cr_assert_eq(memcmp(b, CLRT_CACHE_MAGIC, 8), 0, "bad magic");
    uint64_t len = 0;
    for (int i = 0; i < 8; i++) len |= (uint64_t)b[24 + i] << (8 * i);
    cr_assert_eq(len, n - CLRT_CACHE_HEADER);
    char hex[33];
    for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", b[8 + i]);
    cr_assert(strstr(path, hex), "file %s is not named by its key %s", path, hex);
    uint8_t sum[16];
    MD5_CTX c;
    MD5Init(&c);
    MD5Update(&c, b + CLRT_CACHE_HEADER, (size_t)len);
    MD5Final(sum, &c);
    cr_assert_eq(memcmp(sum, b + 32, 16), 0, "binary MD5 does not match the header");
    free(b);
}

/* the entry must be rebuilt (miss), still work, and be rewritten valid */
static void expect_rebuilt(clrt *rt, const char *path)
{
    build_and_check(rt, 0);
    check_entry(path);
    cr_assert_eq(find_bins(tmpdir, NULL, 0), 1);
    build_and_check(rt, 1);
}

/* ------------------------------------------------------------------ devices */

Test(clrt, lists_devices_with_fp64)
{
    cf_error err = {0};
    clrt_devinfo info[16];
    int n = clrt_list(info, 16, &err);
    cr_assert_geq(n, 0, "%s", err.message);
    if (n == 0) cr_skip_test("no OpenCL device on this machine (PoCL expected)");
    int fp64 = 0;
    for (int i = 0; i < n && i < 16; i++) {
        cr_assert_eq(info[i].index, i);
        cr_assert_neq(info[i].name[0], 0);
        cr_assert_neq(info[i].platform[0], 0);
        cr_assert_gt(info[i].compute_units, 0u);
        cr_assert_gt(info[i].global_mem, 0u);
        cr_assert_gt(info[i].max_wg, 0u);
        fp64 += info[i].fp64;
    }
    cr_assert_geq(fp64, 1, "no device with fp64");
    /* counting only */
    cr_assert_eq(clrt_list(NULL, 0, &err), n);
}

Test(clrt, names_errors)
{
    cr_assert_str_eq(clrt_errname(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
    cr_assert_str_eq(clrt_errname(CL_INVALID_KERNEL_NAME), "CL_INVALID_KERNEL_NAME");
    cr_assert_str_eq(clrt_errname(CL_INVALID_DEVICE_PARTITION_COUNT), "CL_INVALID_DEVICE_PARTITION_COUNT");
    cr_assert_str_eq(clrt_errname(-9999), "CL error -9999");
    cf_error err = {0};
    int failed = 0;
    if (CLRT_CHECK(&err, clGetPlatformIDs(0, NULL, NULL), "clGetPlatformIDs")) failed = 1;
    cr_assert_eq(failed, 1);
    cr_assert_eq(err.status, CF_ERR_DEVICE);
    cr_assert_str_eq(err.message, "clGetPlatformIDs: CL_INVALID_VALUE");
    cr_assert_eq(CLRT_CHECK(&err, CL_SUCCESS, "nothing"), CF_OK);
}

Test(clrt, opens_device_zero_and_default)
{
    clrt rt;
    open_dev0(&rt);
    cr_assert_eq(rt.info.index, 0);
    cr_assert_not_null(rt.ctx);
    cr_assert_not_null(rt.queue);
    clrt_close(&rt);
    cr_assert_null(rt.ctx);
    clrt_close(&rt); /* twice is fine */

    cf_error err = {0};
    cr_assert_eq(clrt_open(&rt, -1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(rt.info.fp64, 1);
    clrt_close(&rt);
}

Test(clrt, refuses_missing_device_index)
{
    clrt rt;
    open_dev0(&rt);
    clrt_close(&rt);
    cf_error err = {0};
    cr_assert_eq(clrt_open(&rt, 999, &err), CF_ERR_DEVICE);
    cr_assert(strstr(err.message, "no OpenCL device 999"), "%s", err.message);
    cr_assert_null(rt.ctx);
    clrt_close(&rt);
    clrt zero = {0};
    clrt_close(&zero);
}

/* ------------------------------------------------------------------ probes */

Test(clrt, probes_pass_on_device_zero, .fini = cleanup_cache)
{
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    cf_error err = {0};
    cr_assert_eq(clrt_probe_exact(&rt, OPTS, &err), CF_OK, "%s", err.message);
    /* and again, from the cache */
    cr_assert_eq(clrt_probe_exact(&rt, OPTS, &err), CF_OK, "%s", err.message);
    clrt_close(&rt);
}

Test(clrt, fma_probe_detects_fused_kernel, .fini = cleanup_cache)
{
    static const char fused[] =
        "#pragma OPENCL FP_CONTRACT ON\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void probe_fma(__global const float *fin, __global float *fout,\n"
        "                        __global const double *din, __global double *dout)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    fout[i] = fma(fin[3 * i], fin[3 * i + 1], fin[3 * i + 2]);\n"
        "    dout[i] = fma(din[3 * i], din[3 * i + 1], din[3 * i + 2]);\n"
        "}\n";
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    cf_error err = {0};
    cr_assert_eq(clrt_probe_fma_kernel(&rt, fused, OPTS, &err), CF_ERR_DEVICE);
    cr_assert(strstr(err.message, "device 0 ("), "%s", err.message);
    cr_assert(strstr(err.message, "probe 'fma-contraction' failed: float a*b+c was fused"), "%s", err.message);
    cr_assert(strstr(err.message, "exact fills refused"), "%s", err.message);

    /* the double half alone */
    static const char fused_double[] =
        "#pragma OPENCL FP_CONTRACT OFF\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void probe_fma(__global const float *fin, __global float *fout,\n"
        "                        __global const double *din, __global double *dout)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    fout[i] = fin[3 * i] * fin[3 * i + 1] + fin[3 * i + 2];\n"
        "    dout[i] = fma(din[3 * i], din[3 * i + 1], din[3 * i + 2]);\n"
        "}\n";
    cf_error err2 = {0};
    cr_assert_eq(clrt_probe_fma_kernel(&rt, fused_double, OPTS, &err2), CF_ERR_DEVICE);
    cr_assert(strstr(err2.message, "probe 'fma-contraction' failed: double a*b+c was fused"), "%s", err2.message);

    /* the real probe source passes */
    cf_error err3 = {0};
    cr_assert_eq(clrt_probe_fma_kernel(&rt, clrt_fma_probe_source, OPTS, &err3), CF_OK, "%s", err3.message);
    cr_assert(!strncmp(clrt_fma_probe_source, "#pragma OPENCL FP_CONTRACT OFF\n", 31));
    clrt_close(&rt);
}

Test(clrt, probe_refuses_device_without_fp64)
{
    clrt rt;
    open_dev0(&rt);
    rt.info.fp64 = 0; /* as a device without cl_khr_fp64 would report */
    cf_error err = {0};
    cr_assert_eq(clrt_probe_exact(&rt, OPTS, &err), CF_ERR_DEVICE);
    cr_assert(strstr(err.message, "device 0 (") && strstr(err.message, "probe 'fp64' failed"), "%s", err.message);
    clrt_close(&rt);
}

/* Options the project never passes, to see the other probes fail. The spec
 * lets a compiler ignore them, so only PoCL (which honours them) must fail;
 * elsewhere a failure must still name the right probe. */
Test(clrt, probes_catch_relaxed_options, .fini = cleanup_cache)
{
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    int pocl = strstr(rt.info.platform, "Portable Computing Language") != NULL;
    static const struct {
        const char *options, *probe;
    } cases[] = {
        {"-cl-denorms-are-zero", "probe 'float-denormals' failed: float 1e-38f*1e-3f was flushed to zero"},
        {"-cl-fast-relaxed-math", "probe 'div-sqrt' failed: float division is not correctly rounded"},
    };
    for (int i = 0; i < 2; i++) {
        cf_error err = {0};
        cf_status st = clrt_probe_exact(&rt, cases[i].options, &err);
        if (st == CF_OK) {
            cr_assert(!pocl, "PoCL passed the probes with %s", cases[i].options);
            continue;
        }
        cr_assert_eq(st, CF_ERR_DEVICE);
        cr_assert(strstr(err.message, cases[i].probe), "%s: %s", cases[i].options, err.message);
    }

    /* without FP_CONTRACT OFF, PoCL (clang) contracts a plain a*b+c */
    static const char contract_on[] =
        "#pragma OPENCL FP_CONTRACT ON\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void probe_fma(__global const float *fin, __global float *fout,\n"
        "                        __global const double *din, __global double *dout)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    fout[i] = fin[3 * i] * fin[3 * i + 1] + fin[3 * i + 2];\n"
        "    dout[i] = din[3 * i] * din[3 * i + 1] + din[3 * i + 2];\n"
        "}\n";
    cf_error err = {0};
    cf_status st = clrt_probe_fma_kernel(&rt, contract_on, OPTS, &err);
    if (pocl) cr_assert_eq(st, CF_ERR_DEVICE, "PoCL did not contract under FP_CONTRACT ON");
    if (st) cr_assert(strstr(err.message, "probe 'fma-contraction' failed: float a*b+c was fused"), "%s", err.message);
    clrt_close(&rt);
}

/* ------------------------------------------------------------------ cache */

Test(clrt, build_hits_cache_second_time, .fini = cleanup_cache)
{
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    build_and_check(&rt, 0);
    char path[512];
    cr_assert_eq(find_bins(tmpdir, path, sizeof path), 1);
    build_and_check(&rt, 1);
    cr_assert_eq(find_bins(tmpdir, NULL, 0), 1);

    check_entry(path); /* the header as documented */
    clrt_close(&rt);
}

Test(clrt, key_includes_options, .fini = cleanup_cache)
{
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    build_and_check(&rt, 0);
    cf_error err = {0};
    cl_program prog = NULL;
    int hit = -1;
    cr_assert_eq(clrt_build(&rt, kernel_src, "", &prog, &hit, &err), CF_OK, "%s", err.message);
    cr_assert_eq(hit, 0);
    clReleaseProgram(prog);
    cr_assert_eq(find_bins(tmpdir, NULL, 0), 2);
    clrt_close(&rt);
}

Test(clrt, corrupt_cache_entry_is_rebuilt, .fini = cleanup_cache)
{
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    build_and_check(&rt, 0);
    char path[512];
    cr_assert_eq(find_bins(tmpdir, path, sizeof path), 1);
    size_t n = 0;
    unsigned char *good = (unsigned char *)slurp_if(path, &n);

    /* bytes flipped in the middle of the binary */
    unsigned char *bad = malloc(n);
    memcpy(bad, good, n);
    for (size_t i = n / 2; i < n / 2 + 16 && i < n; i++) bad[i] ^= 0x5a;
    write_all_file(path, bad, n);
    expect_rebuilt(&rt, path);

    /* a flipped byte in the header's magic, key and MD5 fields */
    size_t spots[3] = {2, 8 + 5, 32 + 7};
    for (int s = 0; s < 3; s++) {
        memcpy(bad, good, n);
        bad[spots[s]] ^= 1;
        write_all_file(path, bad, n);
        expect_rebuilt(&rt, path);
    }

    /* a header that matches a binary the driver cannot load */
    memcpy(bad, good, n);
    size_t glen = n - CLRT_CACHE_HEADER;
    for (size_t i = CLRT_CACHE_HEADER; i < n; i++) bad[i] = (unsigned char)(i * 131u + 7u);
    MD5_CTX c;
    MD5Init(&c);
    MD5Update(&c, bad + CLRT_CACHE_HEADER, glen);
    MD5Final(bad + 32, &c);
    write_all_file(path, bad, n);
    expect_rebuilt(&rt, path);

    free(bad);
    free(good);
    clrt_close(&rt);
}

Test(clrt, truncated_cache_entry_is_rebuilt, .fini = cleanup_cache)
{
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    build_and_check(&rt, 0);
    char path[512];
    cr_assert_eq(find_bins(tmpdir, path, sizeof path), 1);
    for (int i = 0; i < 5; i++) {
        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        size_t n = (size_t)st.st_size; /* may change: PoCL binaries vary */
        size_t cuts[5] = {0, 10, CLRT_CACHE_HEADER, n / 2, n - 1};
        cr_assert_eq(truncate(path, (off_t)cuts[i]), 0);
        expect_rebuilt(&rt, path);
    }
    clrt_close(&rt);
}

Test(clrt, unusable_cache_dir_builds_without_cache, .fini = cleanup_cache)
{
    fresh_cache();
    char file[300], sub[320];
    snprintf(file, sizeof file, "%s/plain-file", tmpdir);
    write_all_file(file, "x", 1);
    snprintf(sub, sizeof sub, "%s/cache", file);
    cr_assert_eq(setenv("CHUNKFILL_CACHE", sub, 1), 0);
    clrt rt;
    open_dev0(&rt);
    build_and_check(&rt, 0);
    build_and_check(&rt, 0);
    clrt_close(&rt);
}

Test(clrt, cache_dir_from_environment, .fini = cleanup_cache)
{
    char buf[512];
    unsetenv("CHUNKFILL_CACHE");
    setenv("XDG_CACHE_HOME", "relative/ignored", 1);
    setenv("HOME", "/home/someone", 1);
    cr_assert_str_eq(clrt_cache_dir(buf, sizeof buf), "/home/someone/.cache/chunkfill");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    cr_assert_str_eq(clrt_cache_dir(buf, sizeof buf), "/xdg/chunkfill");
    setenv("CHUNKFILL_CACHE", "/explicit", 1);
    cr_assert_str_eq(clrt_cache_dir(buf, sizeof buf), "/explicit");
    cr_assert_null(clrt_cache_dir(buf, 5));

    /* XDG_CACHE_HOME/chunkfill is created on first use */
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cf-clrt-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    unsetenv("CHUNKFILL_CACHE");
    setenv("XDG_CACHE_HOME", tmpdir, 1);
    clrt rt;
    open_dev0(&rt);
    build_and_check(&rt, 0);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/chunkfill", tmpdir);
    cr_assert_eq(find_bins(sub, NULL, 0), 1);
    build_and_check(&rt, 1);
    clrt_close(&rt);
}

/* ------------------------------------------------------------------ failed builds */

/* copies the path that follows `tag` in msg up to `end` */
static void path_after(const char *msg, const char *tag, char end, char *out, size_t n)
{
    const char *p = strstr(msg, tag);
    cr_assert_not_null(p, "no '%s' in: %s", tag, msg);
    p += strlen(tag);
    size_t k = strcspn(p, (char[]){end, 0});
    cr_assert_lt(k, n);
    memcpy(out, p, k);
    out[k] = 0;
}

Test(clrt, failed_build_saves_source_and_log, .fini = cleanup_cache)
{
    static const char broken[] =
        "#pragma OPENCL FP_CONTRACT OFF\n"
        "__kernel void broken(__global float *o)\n"
        "{\n"
        "    o[0] = 1.0f + ;\n"
        "}\n";
    fresh_cache();
    clrt rt;
    open_dev0(&rt);
    cf_error err = {0};
    cl_program prog = (cl_program)1;
    int hit = -1;
    cr_assert_eq(clrt_build(&rt, broken, OPTS, &prog, &hit, &err), CF_ERR_DEVICE);
    cr_assert_null(prog);
    cr_assert_eq(hit, 0);
    cr_assert_null(strchr(err.message, '\n'));
    cr_assert(strstr(err.message, "OpenCL build failed on device 0"), "%s", err.message);

    char cl[512], lg[512];
    path_after(err.message, "source ", ',', cl, sizeof cl);
    path_after(err.message, ", log ", ':', lg, sizeof lg);
    cr_assert(strncmp(cl, tmpdir, strlen(tmpdir)) == 0, "%s not in the cache dir", cl);
    cr_assert(strstr(cl, "/chunkfill-build-") && !strcmp(cl + strlen(cl) - 3, ".cl"), "%s", cl);
    cr_assert(!strcmp(lg + strlen(lg) - 4, ".log"), "%s", lg);

    size_t n = 0;
    unsigned char *src = (unsigned char *)slurp_if(cl, &n);
    cr_assert_not_null(src, "%s missing", cl);
    cr_assert_eq(n, strlen(broken));
    cr_assert_eq(memcmp(src, broken, n), 0);
    free(src);
    unsigned char *log = (unsigned char *)slurp_if(lg, &n);
    cr_assert_not_null(log, "%s missing", lg);
    cr_assert_gt(n, 0u);
    /* the message quotes the log's first non-blank line */
    const char *l = (const char *)log;
    while (*l == '\n' || *l == ' ') l++;
    char first[120];
    size_t k = strcspn(l, "\n");
    if (k >= sizeof first) k = sizeof first - 1;
    memcpy(first, l, k);
    first[k] = 0;
    cr_assert(strstr(err.message, first), "message lacks log line '%s': %s", first, err.message);
    free(log);
    clrt_close(&rt);
}
