/* clrt.c - the OpenCL runtime layer (see clrt.h): device listing, context and
 * queue, program builds with a disk cache of binaries, exactness probes.
 *
 * Input: generated OpenCL C source; output: a built cl_program (caller
 * releases it). Allocates only short-lived scratch (device strings, cache
 * file contents, build logs) freed before returning; the clrt holds the
 * context and queue until clrt_close.
 */
#include "opencl/clrt.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CLRT_PATH 4096
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001 /* cl_khr_icd (cl_ext.h) */
#endif
#define CLRT_MAX_BINARY ((uint64_t)1 << 30) /* refuse larger cache entries */

/* ------------------------------------------------------------------ errors */

const char *clrt_errname(cl_int code)
{
    switch (code) {
#define E(name, value) case value: return #name;
    E(CL_SUCCESS, 0)
    E(CL_DEVICE_NOT_FOUND, -1)
    E(CL_DEVICE_NOT_AVAILABLE, -2)
    E(CL_COMPILER_NOT_AVAILABLE, -3)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE, -4)
    E(CL_OUT_OF_RESOURCES, -5)
    E(CL_OUT_OF_HOST_MEMORY, -6)
    E(CL_PROFILING_INFO_NOT_AVAILABLE, -7)
    E(CL_MEM_COPY_OVERLAP, -8)
    E(CL_IMAGE_FORMAT_MISMATCH, -9)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED, -10)
    E(CL_BUILD_PROGRAM_FAILURE, -11)
    E(CL_MAP_FAILURE, -12)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET, -13)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, -14)
    E(CL_COMPILE_PROGRAM_FAILURE, -15)
    E(CL_LINKER_NOT_AVAILABLE, -16)
    E(CL_LINK_PROGRAM_FAILURE, -17)
    E(CL_DEVICE_PARTITION_FAILED, -18)
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, -19)
    E(CL_INVALID_VALUE, -30)
    E(CL_INVALID_DEVICE_TYPE, -31)
    E(CL_INVALID_PLATFORM, -32)
    E(CL_INVALID_DEVICE, -33)
    E(CL_INVALID_CONTEXT, -34)
    E(CL_INVALID_QUEUE_PROPERTIES, -35)
    E(CL_INVALID_COMMAND_QUEUE, -36)
    E(CL_INVALID_HOST_PTR, -37)
    E(CL_INVALID_MEM_OBJECT, -38)
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, -39)
    E(CL_INVALID_IMAGE_SIZE, -40)
    E(CL_INVALID_SAMPLER, -41)
    E(CL_INVALID_BINARY, -42)
    E(CL_INVALID_BUILD_OPTIONS, -43)
    E(CL_INVALID_PROGRAM, -44)
    E(CL_INVALID_PROGRAM_EXECUTABLE, -45)
    E(CL_INVALID_KERNEL_NAME, -46)
    E(CL_INVALID_KERNEL_DEFINITION, -47)
    E(CL_INVALID_KERNEL, -48)
    E(CL_INVALID_ARG_INDEX, -49)
    E(CL_INVALID_ARG_VALUE, -50)
    E(CL_INVALID_ARG_SIZE, -51)
    E(CL_INVALID_KERNEL_ARGS, -52)
    E(CL_INVALID_WORK_DIMENSION, -53)
    E(CL_INVALID_WORK_GROUP_SIZE, -54)
    E(CL_INVALID_WORK_ITEM_SIZE, -55)
    E(CL_INVALID_GLOBAL_OFFSET, -56)
    E(CL_INVALID_EVENT_WAIT_LIST, -57)
    E(CL_INVALID_EVENT, -58)
    E(CL_INVALID_OPERATION, -59)
    E(CL_INVALID_GL_OBJECT, -60)
    E(CL_INVALID_BUFFER_SIZE, -61)
    E(CL_INVALID_MIP_LEVEL, -62)
    E(CL_INVALID_GLOBAL_WORK_SIZE, -63)
    E(CL_INVALID_PROPERTY, -64)
    E(CL_INVALID_IMAGE_DESCRIPTOR, -65)
    E(CL_INVALID_COMPILER_OPTIONS, -66)
    E(CL_INVALID_LINKER_OPTIONS, -67)
    E(CL_INVALID_DEVICE_PARTITION_COUNT, -68)
    /* OpenCL 2.x and 3.0, which a 1.2 host may still receive */
    E(CL_INVALID_PIPE_SIZE, -69)
    E(CL_INVALID_DEVICE_QUEUE, -70)
    E(CL_INVALID_SPEC_ID, -71)
    E(CL_MAX_SIZE_RESTRICTION_EXCEEDED, -72)
    /* the ICD loader: no platform installed */
    E(CL_PLATFORM_NOT_FOUND_KHR, -1001)
#undef E
    default: {
        static _Thread_local char buf[32];
        snprintf(buf, sizeof buf, "CL error %d", (int)code);
        return buf;
    }
    }
}

cf_status clrt_check(cf_error *err, cl_int code, const char *what)
{
    if (code == CL_SUCCESS) return CF_OK;
    err_set(err, CF_ERR_DEVICE, "%s: %s", what, clrt_errname(code));
    return CF_ERR_DEVICE;
}

/* ------------------------------------------------------------------ devices */

/* malloc'd NUL-terminated device string, or NULL */
static char *dev_str(cl_device_id d, cl_device_info param)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, param, 0, NULL, &n) != CL_SUCCESS) return NULL;
    char *s = malloc(n + 1);
    if (!s) return NULL;
    if (clGetDeviceInfo(d, param, n, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    s[n] = 0;
    return s;
}

static char *plat_str(cl_platform_id p, cl_platform_info param)
{
    size_t n = 0;
    if (clGetPlatformInfo(p, param, 0, NULL, &n) != CL_SUCCESS) return NULL;
    char *s = malloc(n + 1);
    if (!s) return NULL;
    if (clGetPlatformInfo(p, param, n, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    s[n] = 0;
    return s;
}

/* copies s (may be NULL: "?") into a fixed field, truncating; frees s */
static void set_field(char *dst, size_t n, char *s)
{
    snprintf(dst, n, "%s", s ? s : "?");
    free(s);
}

static void fill_info(cl_platform_id p, cl_device_id d, int index, clrt_devinfo *o)
{
    memset(o, 0, sizeof *o);
    o->index = index;
    set_field(o->platform, sizeof o->platform, plat_str(p, CL_PLATFORM_NAME));
    set_field(o->name, sizeof o->name, dev_str(d, CL_DEVICE_NAME));
    set_field(o->vendor, sizeof o->vendor, dev_str(d, CL_DEVICE_VENDOR));
    set_field(o->version, sizeof o->version, dev_str(d, CL_DEVICE_VERSION));
    set_field(o->driver, sizeof o->driver, dev_str(d, CL_DRIVER_VERSION));

    cl_device_type type = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS)
        o->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    char *ext = dev_str(d, CL_DEVICE_EXTENSIONS);
    cl_device_fp_config dfp = 0;
    /* some drivers answer CL_INVALID_VALUE without fp64: that means none */
    if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dfp, &dfp, NULL) != CL_SUCCESS) dfp = 0;
    o->fp64 = (ext && strstr(ext, "cl_khr_fp64")) || dfp != 0;
    free(ext);

    cl_uint cu = 0;
    cl_ulong gm = 0, ma = 0;
    size_t wg = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL) == CL_SUCCESS)
        o->compute_units = cu;
    if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL) == CL_SUCCESS)
        o->global_mem = gm;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ma, &ma, NULL) == CL_SUCCESS)
        o->max_alloc = ma;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) == CL_SUCCESS)
        o->max_wg = wg;
}

/* Walks every device in index order. With out != NULL, fills out[0..max-1];
 * with want >= 0, stores device `want`'s ids in *wp / *wd. Returns the
 * device count, or -1 (err set). */
static int walk_devices(clrt_devinfo *out, int max, int want, cl_platform_id *wp,
                        cl_device_id *wd, cf_error *err)
{
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &np);
    if (e == CL_PLATFORM_NOT_FOUND_KHR || (e == CL_SUCCESS && np == 0)) return 0;
    if (CLRT_CHECK(err, e, "clGetPlatformIDs")) return -1;
    cl_platform_id *plats = calloc(np, sizeof *plats);
    if (!plats) {
        err_set(err, CF_ERR_NOMEM, "out of memory listing OpenCL platforms");
        return -1;
    }
    int count = -1;
    if (CLRT_CHECK(err, clGetPlatformIDs(np, plats, NULL), "clGetPlatformIDs")) goto done;
    count = 0;
    for (cl_uint i = 0; i < np; i++) {
        cl_uint nd = 0;
        e = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (e == CL_DEVICE_NOT_FOUND || (e == CL_SUCCESS && nd == 0)) continue;
        if (CLRT_CHECK(err, e, "clGetDeviceIDs")) {
            count = -1;
            goto done;
        }
        cl_device_id *devs = calloc(nd, sizeof *devs);
        if (!devs) {
            err_set(err, CF_ERR_NOMEM, "out of memory listing OpenCL devices");
            count = -1;
            goto done;
        }
        if (CLRT_CHECK(err, clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, devs, NULL),
                       "clGetDeviceIDs")) {
            free(devs);
            count = -1;
            goto done;
        }
        for (cl_uint j = 0; j < nd; j++, count++) {
            if (out && count < max) fill_info(plats[i], devs[j], count, &out[count]);
            if (count == want) {
                *wp = plats[i];
                *wd = devs[j];
            }
        }
        free(devs);
    }
done:
    free(plats);
    return count;
}

int clrt_list(clrt_devinfo *out, int max, cf_error *err)
{
    if (max < 0 || (max > 0 && !out)) {
        err_set(err, CF_ERR_ARG, "clrt_list: bad output buffer");
        return -1;
    }
    return walk_devices(out, max, -1, NULL, NULL, err);
}

cf_status clrt_open(clrt *rt, int index, cf_error *err)
{
    memset(rt, 0, sizeof *rt);
    int n = clrt_list(NULL, 0, err);
    if (n < 0) return CF_ERR_DEVICE;
    if (n == 0) return err_set(err, CF_ERR_DEVICE, "no OpenCL device (no platform or no device installed)");
    clrt_devinfo *all = calloc((size_t)n, sizeof *all);
    if (!all) return err_set(err, CF_ERR_NOMEM, "out of memory listing OpenCL devices");
    cf_status st = CF_OK;
    int m = clrt_list(all, n, err);
    if (m < 0) {
        st = CF_ERR_DEVICE;
        goto done;
    }
    if (m < n) n = m; /* a device went away between the two walks */
    int pick = -1;
    if (index == -1) {
        for (int pass = 0; pass < 2 && pick < 0; pass++)
            for (int i = 0; i < n && pick < 0; i++)
                if (all[i].fp64 && (pass == 1 || all[i].is_gpu)) pick = i;
        if (pick < 0) {
            st = err_set(err, CF_ERR_DEVICE, "no OpenCL device with fp64 (double precision) among %d device%s",
                         n, n == 1 ? "" : "s");
            goto done;
        }
    } else if (index < 0 || index >= n) {
        st = err_set(err, CF_ERR_DEVICE, "no OpenCL device %d (there %s %d: 0..%d)", index,
                     n == 1 ? "is" : "are", n, n - 1);
        goto done;
    } else {
        pick = index;
    }
    if (walk_devices(NULL, 0, pick, &rt->platform, &rt->device, err) < 0 || !rt->device) {
        st = err_set(err, CF_ERR_DEVICE, "OpenCL device %d disappeared", pick);
        goto done;
    }
    rt->info = all[pick];

    cl_int e = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)rt->platform, 0};
    rt->ctx = clCreateContext(props, 1, &rt->device, NULL, NULL, &e);
    if (CLRT_CHECK(err, e, "clCreateContext")) {
        rt->ctx = NULL;
        st = CF_ERR_DEVICE;
        goto done;
    }
    rt->queue = clCreateCommandQueue(rt->ctx, rt->device, 0, &e);
    if (CLRT_CHECK(err, e, "clCreateCommandQueue")) {
        rt->queue = NULL;
        st = CF_ERR_DEVICE;
        goto done;
    }
done:
    free(all);
    if (st != CF_OK) clrt_close(rt);
    return st;
}

void clrt_close(clrt *rt)
{
    if (!rt) return;
    if (rt->queue) clReleaseCommandQueue(rt->queue);
    if (rt->ctx) clReleaseContext(rt->ctx);
    memset(rt, 0, sizeof *rt);
}

/* ------------------------------------------------------------------ disk cache */

char *clrt_cache_dir(char *buf, size_t n)
{
    const char *v = getenv("CHUNKFILL_CACHE");
    int w;
    if (v && *v) {
        w = snprintf(buf, n, "%s", v);
    } else if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/') {
        w = snprintf(buf, n, "%s/chunkfill", v);
    } else if ((v = getenv("HOME")) && *v) {
        w = snprintf(buf, n, "%s/.cache/chunkfill", v);
    } else {
        return NULL;
    }
    if (w < 0 || (size_t)w >= n) return NULL;
    return buf;
}

/* mkdir -p; 0 when path is (now) a directory */
static int make_dirs(const char *path)
{
    char tmp[CLRT_PATH];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) return -1;
    for (char *c = tmp + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
        *c = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
    struct stat st;
    return stat(tmp, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

static void md5_add(MD5_CTX *c, const char *s)
{
    /* NUL included, so that ("ab","c") and ("a","bc") differ */
    MD5Update(c, (const uint8_t *)s, strlen(s) + 1);
}

static void to_hex(const uint8_t key[16], char hex[33])
{
    for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
}

static void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Loads and builds a cache entry; NULL when absent or corrupt in any way. */
static cl_program cache_load(clrt *rt, const char *path, const uint8_t key[16], const char *options)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    cl_program prog = NULL;
    uint8_t *bin = NULL;
    uint8_t h[CLRT_CACHE_HEADER];
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size < CLRT_CACHE_HEADER) goto done;
    if (fread(h, 1, sizeof h, f) != sizeof h) goto done;
    if (memcmp(h, CLRT_CACHE_MAGIC, 8) != 0 || memcmp(h + 8, key, 16) != 0) goto done;
    uint64_t len = get_le64(h + 24);
    if (len == 0 || len > CLRT_MAX_BINARY || len != (uint64_t)st.st_size - CLRT_CACHE_HEADER) goto done;
    bin = malloc((size_t)len);
    if (!bin || fread(bin, 1, (size_t)len, f) != (size_t)len) goto done;
    uint8_t sum[16];
    MD5_CTX c;
    MD5Init(&c);
    MD5Update(&c, bin, (size_t)len);
    MD5Final(sum, &c);
    if (memcmp(sum, h + 32, 16) != 0) goto done;

    size_t blen = (size_t)len;
    const unsigned char *bp = bin;
    cl_int bst = CL_SUCCESS, e = CL_SUCCESS;
    prog = clCreateProgramWithBinary(rt->ctx, 1, &rt->device, &blen, &bp, &bst, &e);
    if (e != CL_SUCCESS || bst != CL_SUCCESS) {
        if (prog) clReleaseProgram(prog);
        prog = NULL;
        goto done;
    }
    if (clBuildProgram(prog, 1, &rt->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(prog);
        prog = NULL;
    }
done:
    free(bin);
    fclose(f);
    return prog;
}

/* Writes prog's binary to path through a temporary file in dir. Failures
 * only lose the caching, so they are silent. */
static void cache_store(clrt *rt, cl_program prog, const char *dir, const char *hex,
                        const char *path, const uint8_t key[16])
{
    size_t len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS) return;
    if (len == 0 || len > CLRT_MAX_BINARY) return;
    unsigned char *bin = malloc(len);
    if (!bin) return;
    unsigned char *bins[1] = {bin};
    (void)rt, (void)dir, (void)hex;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) goto done;
    uint8_t h[CLRT_CACHE_HEADER];
    memcpy(h, CLRT_CACHE_MAGIC, 8); /* NOLINT(bugprone-not-null-terminated-result): 8 bytes of a binary header */
    memcpy(h + 8, key, 16);
    put_le64(h + 24, len);
    MD5_CTX c;
    MD5Init(&c);
    MD5Update(&c, bin, len);
    MD5Final(h + 32, &c);
    /* the checked writer (base/outfile.c): a temporary beside path, renamed; never onto a FIFO or device */
    cf_output o;
    if (out_open(&o, path, NULL) != CF_OK) goto done;
    if (fwrite(h, 1, sizeof h, o.f) != sizeof h || fwrite(bin, 1, len, o.f) != len) out_abort(&o);
    else out_commit(&o, NULL);
done:
    free(bin);
}

/* writes n bytes of text to path; 0 on success */
static int save_file(const char *path, const char *text, size_t n) { return out_write_file(path, text, n, NULL) == CF_OK ? 0 : -1; }

/* Records a failed build from source: saves source and log, one-line message. */
static cf_status build_failed(clrt *rt, cl_program prog, cl_int code, const char *source,
                              const char *dir, const char *hex, cf_error *err)
{
    size_t n = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(prog, rt->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS &&
        (log = malloc(n + 1)) != NULL) {
        if (clGetProgramBuildInfo(prog, rt->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS) n = 0;
        log[n] = 0;
    }
    const char *text = log ? log : "";

    /* the first non-blank line of the log, shortened */
    char first[300] = "";
    const char *s = text;
    while (*s == '\n' || *s == '\r' || *s == ' ' || *s == '\t') s++;
    size_t k = strcspn(s, "\r\n");
    if (k >= sizeof first) k = sizeof first - 1;
    memcpy(first, s, k);
    first[k] = 0;

    char cl[CLRT_PATH], lg[CLRT_PATH];
    const char *dirs[2] = {dir, "/tmp"};
    int saved = 0;
    for (int i = 0; i < 2 && !saved; i++) {
        if (!dirs[i]) continue;
        if (snprintf(cl, sizeof cl, "%s/chunkfill-build-%s.cl", dirs[i], hex) >= (int)sizeof cl ||
            snprintf(lg, sizeof lg, "%s/chunkfill-build-%s.log", dirs[i], hex) >= (int)sizeof lg)
            continue;
        saved = save_file(cl, source, strlen(source)) == 0 && save_file(lg, text, strlen(text)) == 0;
    }
    if (saved)
        err_set(err, CF_ERR_DEVICE, "OpenCL build failed on device %d (%s): %s; source %s, log %s: %s",
                rt->info.index, rt->info.name, clrt_errname(code), cl, lg, first[0] ? first : "(empty log)");
    else
        err_set(err, CF_ERR_DEVICE, "OpenCL build failed on device %d (%s): %s (source and log not saved): %s",
                rt->info.index, rt->info.name, clrt_errname(code), first[0] ? first : "(empty log)");
    free(log);
    return CF_ERR_DEVICE;
}

cf_status clrt_build(clrt *rt, const char *source, const char *options, cl_program *out,
                     int *cache_hit, cf_error *err)
{
    if (out) *out = NULL;
    if (cache_hit) *cache_hit = 0;
    if (!rt || !rt->ctx || !source || !out) return err_set(err, CF_ERR_ARG, "clrt_build: bad arguments");
    if (!options) options = "";

    /* key: everything that changes the binary */
    char *pver = plat_str(rt->platform, CL_PLATFORM_VERSION);
    char *dver = dev_str(rt->device, CL_DEVICE_VERSION);
    MD5_CTX c;
    MD5Init(&c);
    md5_add(&c, source);
    md5_add(&c, options);
    md5_add(&c, rt->info.platform);
    md5_add(&c, pver ? pver : "");
    md5_add(&c, rt->info.name);
    md5_add(&c, dver ? dver : "");
    md5_add(&c, rt->info.driver);
    free(pver);
    free(dver);
    uint8_t key[16];
    MD5Final(key, &c);
    char hex[33];
    to_hex(key, hex);

    char dirbuf[CLRT_PATH], path[CLRT_PATH];
    const char *dir = clrt_cache_dir(dirbuf, sizeof dirbuf);
    if (dir && (make_dirs(dir) != 0 || snprintf(path, sizeof path, "%s/%s.bin", dir, hex) >= (int)sizeof path))
        dir = NULL; /* no cache: build every time */

    if (dir) {
        cl_program p = cache_load(rt, path, key, options);
        if (p) {
            if (cache_hit) *cache_hit = 1;
            *out = p;
            return CF_OK;
        }
    }

    cl_int e = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(rt->ctx, 1, &source, NULL, &e);
    if (CLRT_CHECK(err, e, "clCreateProgramWithSource")) return CF_ERR_DEVICE;
    e = clBuildProgram(prog, 1, &rt->device, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        build_failed(rt, prog, e, source, dir, hex, err);
        clReleaseProgram(prog);
        return CF_ERR_DEVICE;
    }
    if (dir) cache_store(rt, prog, dir, hex, path, key);
    *out = prog;
    return CF_OK;
}

/* ------------------------------------------------------------------ exactness probes */

typedef struct probe_arg {
    void *host;
    size_t size;
    int out;  /* 1: read back after the run */
} probe_arg;

static cf_status probe_check(cf_error *err, cl_int e, const char *call, const char *kname)
{
    if (e == CL_SUCCESS) return CF_OK;
    char what[128];
    snprintf(what, sizeof what, "%s(%s)", call, kname);
    return clrt_check(err, e, what);
}

/* Runs kernel kname of prog over `global` work items with buffer arguments. */
static cf_status probe_run(clrt *rt, cl_program prog, const char *kname, probe_arg *args, int nargs,
                           size_t global, cf_error *err)
{
    cl_int e = CL_SUCCESS;
    cl_mem mem[8] = {0};
    cf_status st = CF_ERR_DEVICE;
    cl_kernel k = clCreateKernel(prog, kname, &e);
    if (probe_check(err, e, "clCreateKernel", kname)) return CF_ERR_DEVICE;
    for (int i = 0; i < nargs && i < 8; i++) {
        cl_mem_flags fl = args[i].out ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
        mem[i] = clCreateBuffer(rt->ctx, fl, args[i].size, args[i].out ? NULL : args[i].host, &e);
        if (probe_check(err, e, "clCreateBuffer", kname)) {
            mem[i] = NULL;
            goto fail;
        }
        if (probe_check(err, clSetKernelArg(k, (cl_uint)i, sizeof mem[i], &mem[i]), "clSetKernelArg", kname))
            goto fail;
    }
    if (probe_check(err, clEnqueueNDRangeKernel(rt->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                    "clEnqueueNDRangeKernel", kname))
        goto fail;
    for (int i = 0; i < nargs && i < 8; i++)
        if (args[i].out &&
            probe_check(err, clEnqueueReadBuffer(rt->queue, mem[i], CL_TRUE, 0, args[i].size, args[i].host, 0,
                                                 NULL, NULL),
                        "clEnqueueReadBuffer", kname))
            goto fail;
    st = CF_OK;
fail:
    for (int i = 7; i >= 0; i--)
        if (mem[i]) clReleaseMemObject(mem[i]);
    clReleaseKernel(k);
    return st;
}

static cf_status probe_failed(clrt *rt, const char *probe, const char *what, cf_error *err)
{
    return err_set(err, CF_ERR_DEVICE, "device %d (%s): probe '%s' failed: %s; exact fills refused (try --device cpu)",
                   rt->info.index, rt->info.name, probe, what);
}

static int same_bits_f(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }
static int same_bits_d(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

const char clrt_fma_probe_source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void probe_fma(__global const float *fin, __global float *fout,\n"
    "                        __global const double *din, __global double *dout)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    fout[i] = fin[3 * i] * fin[3 * i + 1] + fin[3 * i + 2];\n"
    "    dout[i] = din[3 * i] * din[3 * i + 1] + din[3 * i + 2];\n"
    "}\n";

/* float: a = b = 1+2^-12, a*b = 1+2^-11+2^-24 rounds (tie to even) to
 * 1+2^-11, so a*b+c is 0 unfused and 2^-24 fused. double: a = b = 1+2^-27,
 * a*b = 1+2^-26+2^-54 rounds to 1+2^-26: 0 unfused, 2^-54 fused. Two work
 * items; the second one with c negated the other way round. */
cf_status clrt_probe_fma_kernel(clrt *rt, const char *kernel_source, const char *options, cf_error *err)
{
    static const char *probe = "fma-contraction";
    const float fa = 1.0f + 0x1p-12f, fc = -(1.0f + 0x1p-11f);
    const double da = 1.0 + 0x1p-27, dc = -(1.0 + 0x1p-26);
    float fin[6] = {fa, fa, fc, -fa, fa, -fc}, fout[2] = {-1, -1};
    double din[6] = {da, da, dc, -da, da, -dc}, dout[2] = {-1, -1};
    /* the host, compiled with -ffp-contract=off, gives the unfused values */
    const float fwant[2] = {fin[0] * fin[1] + fin[2], fin[3] * fin[4] + fin[5]};
    const double dwant[2] = {din[0] * din[1] + din[2], din[3] * din[4] + din[5]};
    cl_program prog = NULL;
    cf_status st = clrt_build(rt, kernel_source, options, &prog, NULL, err);
    if (st) return st;
    probe_arg args[4] = {{fin, sizeof fin, 0}, {fout, sizeof fout, 1}, {din, sizeof din, 0}, {dout, sizeof dout, 1}};
    st = probe_run(rt, prog, "probe_fma", args, 4, 2, err);
    clReleaseProgram(prog);
    if (st) return st;
    char what[200];
    for (int i = 0; i < 2; i++) {
        if (!same_bits_f(fout[i], fwant[i])) {
            if (fout[i] == (i ? -0x1p-24f : 0x1p-24f))
                snprintf(what, sizeof what, "float a*b+c was fused");
            else
                snprintf(what, sizeof what, "float a*b+c gave %a, expected %a", (double)fout[i], (double)fwant[i]);
            return probe_failed(rt, probe, what, err);
        }
        if (!same_bits_d(dout[i], dwant[i])) {
            if (dout[i] == (i ? -0x1p-54 : 0x1p-54))
                snprintf(what, sizeof what, "double a*b+c was fused");
            else
                snprintf(what, sizeof what, "double a*b+c gave %a, expected %a", dout[i], dwant[i]);
            return probe_failed(rt, probe, what, err);
        }
    }
    return CF_OK;
}

static const char probe_float_source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void probe_denorm(__global const float *in, __global float *out)\n"
    "{\n"
    "    out[0] = in[0] * in[1];\n"   /* 1e-38f * 1e-3f: a denormal result */
    "    out[1] = in[2] + in[3];\n"   /* denormal inputs through an add */
    "    out[2] = in[2] * in[4];\n"   /* denormal input times 1 */
    "    out[3] = in[5] - in[6];\n"   /* two normals whose difference is denormal */
    "}\n"
    "__kernel void probe_divsqrt(__global const float *x, __global const float *y,\n"
    "                            __global float *q, __global float *r)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    q[i] = x[i] / y[i];\n"
    "    r[i] = sqrt(fabs(x[i]));\n"
    "}\n";

static cf_status probe_denormals(clrt *rt, cl_program prog, cf_error *err)
{
    static const char *probe = "float-denormals";
    float in[7] = {1e-38f, 1e-3f, 0x1p-140f, 0x1p-149f, 1.0f, 0x1.000002p-126f, 0x1p-126f};
    float out[4] = {0};
    probe_arg args[2] = {{in, sizeof in, 0}, {out, sizeof out, 1}};
    cf_status st = probe_run(rt, prog, "probe_denorm", args, 2, 1, err);
    if (st) return st;
    const float want[4] = {in[0] * in[1], in[2] + in[3], in[2] * in[4], in[5] - in[6]};
    static const char *const expr[4] = {"1e-38f*1e-3f", "denormal+denormal", "denormal*1", "normal-normal"};
    for (int i = 0; i < 4; i++) {
        if (same_bits_f(out[i], want[i])) continue;
        char what[200];
        if (out[i] == 0.0f)
            snprintf(what, sizeof what, "float %s was flushed to zero", expr[i]);
        else
            snprintf(what, sizeof what, "float %s gave %a, expected %a", expr[i], (double)out[i], (double)want[i]);
        return probe_failed(rt, probe, what, err);
    }
    return CF_OK;
}

/* normal floats with random significands, exponents in [-40, 40], random sign */
static float rand_float(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    uint32_t mant = (uint32_t)(*s >> 11) & 0x7fffffu;
    uint32_t ex = (uint32_t)(127 - 40 + (int)((*s >> 40) % 81));
    uint32_t sign = (uint32_t)(*s >> 63) << 31;
    uint32_t bits = sign | ex << 23 | mant;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

#define PROBE_N 512

static cf_status probe_divsqrt(clrt *rt, cl_program prog, cf_error *err)
{
    static const char *probe = "div-sqrt";
    float *buf = malloc(4 * PROBE_N * sizeof *buf);
    if (!buf) return err_set(err, CF_ERR_NOMEM, "out of memory in probe '%s'", probe);
    float *x = buf, *y = buf + PROBE_N, *q = buf + 2 * PROBE_N, *r = buf + 3 * PROBE_N;
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < PROBE_N; i++) {
        x[i] = rand_float(&s);
        y[i] = rand_float(&s);
    }
    /* a few classic cases */
    x[0] = 1.0f, y[0] = 3.0f;
    x[1] = 2.0f, y[1] = 3.0f;
    x[2] = 2.0f, y[2] = 10.0f;
    x[3] = 3.0f, y[3] = 0.1f;
    probe_arg args[4] = {{x, PROBE_N * sizeof *x, 0}, {y, PROBE_N * sizeof *y, 0},
                         {q, PROBE_N * sizeof *q, 1}, {r, PROBE_N * sizeof *r, 1}};
    cf_status st = probe_run(rt, prog, "probe_divsqrt", args, 4, PROBE_N, err);
    if (st) goto done;
    int bad_q = 0, bad_r = 0, first_q = -1, first_r = -1;
    for (int i = 0; i < PROBE_N; i++) {
        float wq = x[i] / y[i], wr = sqrtf(fabsf(x[i]));
        if (!same_bits_f(q[i], wq) && bad_q++ == 0) first_q = i;
        if (!same_bits_f(r[i], wr) && bad_r++ == 0) first_r = i;
    }
    char what[256];
    if (bad_q) {
        int i = first_q;
        snprintf(what, sizeof what, "float division is not correctly rounded (%d of %d differ, e.g. %a/%a gave %a, expected %a)",
                 bad_q, PROBE_N, (double)x[i], (double)y[i], (double)q[i], (double)(x[i] / y[i]));
        st = probe_failed(rt, probe, what, err);
    } else if (bad_r) {
        int i = first_r;
        snprintf(what, sizeof what, "float sqrt is not correctly rounded (%d of %d differ, e.g. sqrt(%a) gave %a, expected %a)",
                 bad_r, PROBE_N, (double)fabsf(x[i]), (double)r[i], (double)sqrtf(fabsf(x[i])));
        st = probe_failed(rt, probe, what, err);
    }
done:
    free(buf);
    return st;
}

cf_status clrt_probe_exact(clrt *rt, const char *options, cf_error *err)
{
    if (!rt || !rt->ctx) return err_set(err, CF_ERR_ARG, "clrt_probe_exact: device not open");
    if (!rt->info.fp64)
        return probe_failed(rt, "fp64", "the device has no cl_khr_fp64 (double precision)", err);
    cf_status st = clrt_probe_fma_kernel(rt, clrt_fma_probe_source, options, err);
    if (st) return st;
    cl_program prog = NULL;
    st = clrt_build(rt, probe_float_source, options, &prog, NULL, err);
    if (st) return st;
    st = probe_denormals(rt, prog, err);
    if (!st) st = probe_divsqrt(rt, prog, err);
    clReleaseProgram(prog);
    return st;
}
