/* clrt.h - the OpenCL runtime layer: devices, contexts, cached program builds,
 * exactness probes. Internal to host/ (include/chunkfill.h never sees OpenCL).
 *
 * Pipeline: generated OpenCL C source (the code generator) -> clrt_build ->
 * cl_program (from the disk cache of program binaries, or built from source).
 * A clrt owns one context and one in-order queue on one device; clrt_close
 * releases them. Every failing OpenCL call is reported as CF_ERR_DEVICE with
 * the call and the error's name (CLRT_CHECK).
 */
#ifndef CLRT_H
#define CLRT_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct clrt_devinfo {
    int index;                 /* stable index over all platforms then devices, 0-based */
    char platform[128], name[128], vendor[128], version[128], driver[128];
    int is_gpu, fp64;          /* fp64: cl_khr_fp64 in extensions or double fp config != 0 */
    unsigned compute_units;
    uint64_t global_mem, max_alloc, max_wg;
} clrt_devinfo;

/* Lists every device of every platform (platform order, then device order).
 * Fills out[0 .. min(count, max) - 1] (out may be NULL when max is 0) and
 * returns the number of devices (it may exceed max); 0 when there is no
 * platform or no device (not an error); -1 on an OpenCL failure (err set). */
int clrt_list(clrt_devinfo *out, int max, cf_error *err);

/* "CL_OUT_OF_RESOURCES", ... for every OpenCL 1.2 code (and the later ones
 * up to -72, and the ICD loader's CL_PLATFORM_NOT_FOUND_KHR), else
 * "CL error -N" (in a thread-local buffer). Never NULL. */
const char *clrt_errname(cl_int code);

/* Returns CF_OK when code is CL_SUCCESS; otherwise records
 * "<what>: <error name>" in err (first error wins) and returns CF_ERR_DEVICE. */
cf_status clrt_check(cf_error *err, cl_int code, const char *what);
/* Evaluates call (a cl_int) once; CF_OK or CF_ERR_DEVICE, so that
 * `if (CLRT_CHECK(err, clFinish(q), "clFinish")) goto fail;` works. */
#define CLRT_CHECK(err, call, what) clrt_check((err), (call), (what))

typedef struct clrt {
    clrt_devinfo info;
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
} clrt;

/* Opens device `index` (clrt_list's index), or with index -1 the first GPU with
 * fp64, else the first device with fp64. Creates a context and an in-order
 * queue. Returns CF_OK, or CF_ERR_DEVICE (no such device, no fp64 device for
 * -1, an OpenCL failure) with rt left safe to clrt_close. A device chosen by
 * index may lack fp64: clrt_probe_exact then refuses it. */
cf_status clrt_open(clrt *rt, int index, cf_error *err);
/* Releases the queue and the context (reverse order) and zeroes rt; safe on a
 * zeroed or failed rt, and twice. */
void clrt_close(clrt *rt);

/* Disk cache entry <dir>/<32 hex digits of key>.bin: a 48-byte header then the
 * binary. Header: magic "CFBIN1\0\0" (8 bytes), key (16 bytes, MD5), binary
 * length (8 bytes, little-endian), MD5 of the binary (16 bytes). */
#define CLRT_CACHE_MAGIC "CFBIN1\0\0"
#define CLRT_CACHE_HEADER 48

/* The cache directory: $CHUNKFILL_CACHE, else $XDG_CACHE_HOME/chunkfill
 * (absolute XDG only), else $HOME/.cache/chunkfill. Writes it to buf (size n)
 * and returns buf, or NULL when none is configured or it does not fit. Does not
 * create it. */
char *clrt_cache_dir(char *buf, size_t n);

/* Builds `source` with `options` (may be NULL) for rt's device. Key = MD5 of
 * source, options, platform name and version, device name and version, driver
 * version. A valid cache entry is loaded (*cache_hit = 1); a missing or corrupt
 * one (bad magic, key, length or MD5, or a binary the driver refuses) is
 * rebuilt from source and (re)written through a temporary file and a rename
 * (*cache_hit = 0). The directory is created if missing; when it cannot be,
 * the build goes on without caching. cache_hit may be NULL.
 * Returns CF_OK and *out (caller releases it with clReleaseProgram), or
 * CF_ERR_DEVICE. A failed build from source writes the source and the build log
 * to <cache dir or /tmp>/chunkfill-build-<key>.cl and .log and names both
 * files and the log's first line in the message. */
cf_status clrt_build(clrt *rt, const char *source, const char *options, cl_program *out,
                     int *cache_hit, cf_error *err);

/* Exactness probes, in order: 'fp64' (device has fp64), 'fma-contraction'
 * (a*b+c in float and double under FP_CONTRACT OFF is not fused),
 * 'float-denormals' (denormal float results and inputs are not flushed),
 * 'div-sqrt' (float x/y and sqrt(x) are correctly rounded, 512 cases each).
 * The probe kernels are built with `options` (through clrt_build, so they are
 * cached too). Returns CF_OK or CF_ERR_DEVICE with
 * "device N (name): probe 'P' failed: what; exact fills refused (try --device cpu)". */
cf_status clrt_probe_exact(clrt *rt, const char *options, cf_error *err);

/* The 'fma-contraction' probe on a given kernel source, for tests (a kernel
 * that really fuses must be reported). kernel_source defines
 *   __kernel void probe_fma(__global const float *fin, __global float *fout,
 *                           __global const double *din, __global double *dout)
 * computing fout[i] = fin[3i]*fin[3i+1]+fin[3i+2] and the same in double.
 * Returns as clrt_probe_exact. */
cf_status clrt_probe_fma_kernel(clrt *rt, const char *kernel_source, const char *options,
                                cf_error *err);
/* The source clrt_probe_exact uses for that probe. */
extern const char clrt_fma_probe_source[];

#endif /* CLRT_H */
