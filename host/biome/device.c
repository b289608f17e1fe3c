/* device.c - biomes on an OpenCL device (include/chunkfill.h cf_biomes_device_*).
 *
 * Input: an open cf_biomes (26.3 dialect); output: the same palette indices as
 * query.c, computed by the program biome_program (program.c) generates (climate on the
 * point or volume path, kernels/cf_biome.h's search over the tree buffer).
 * Owns a clrt (context, queue), the program, its kernels and buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/clrt.h"
#include "opencl/emit.h"
#include "kernels/cf_math.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"

#define EXACT_OPTIONS "-cl-fp32-correctly-rounded-divide-sqrt"

struct cf_biome_device {
    cf_biomes *b;
    clrt rt;
    cl_program prog;
    cl_kernel kq, kc;
    cl_mem tab, tree;
    char name[160];
};

void biome_device_free(cf_biome_device *d)
{
    if (!d) return;
    if (d->tree) clReleaseMemObject(d->tree);
    if (d->tab) clReleaseMemObject(d->tab);
    if (d->kc) clReleaseKernel(d->kc);
    if (d->kq) clReleaseKernel(d->kq);
    if (d->prog) clReleaseProgram(d->prog);
    clrt_close(&d->rt);
    free(d);
}

const char *biome_device_name(const cf_biome_device *d) { return d->name; }

static cl_mem upload(cf_biome_device *d, const void *p, size_t n, cf_error *err)
{
    cl_int e;
    cl_mem m = clCreateBuffer(d->rt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n ? n : 4, (void *)p, &e);
    if (CLRT_CHECK(err, e, "clCreateBuffer(biome tables)")) return NULL;
    return m;
}

cf_status biome_device_open(cf_biome_device **out, const char *spec, cf_biomes *b, cf_error *err)
{
    *out = NULL;
    int index = -1;
    if (!b || !spec) return err_set(err, CF_ERR_ARG, "cf_biomes_device_open: bad arguments");
    if (strcmp(spec, "opencl") != 0) {
        char *end;
        long v = strncmp(spec, "opencl:", 7) == 0 ? strtol(spec + 7, &end, 10) : -1;
        if (v < 0 || v > 1000 || *end) return err_set(err, CF_ERR_ARG, "device '%s': expected opencl or opencl:N", spec);
        index = (int)v;
    }
    cf_biome_device *d = calloc(1, sizeof *d);
    if (!d) return err_set(err, CF_ERR_NOMEM, "out of memory");
    d->b = b;
    char *src = NULL;
    if (clrt_open(&d->rt, index, err) != CF_OK) goto fail;
    snprintf(d->name, sizeof d->name, "%s", d->rt.info.name);
    if (b->kind == BS_MULTI || b->kind == BS_END) {
        if (clrt_probe_exact(&d->rt, EXACT_OPTIONS, err) != CF_OK) goto fail;
        if (!(src = biome_program(b->prog, b->w, b->kind == BS_END, err))) goto fail;
        int hit;
        if (clrt_build(&d->rt, src, EXACT_OPTIONS, &d->prog, &hit, err) != CF_OK) goto fail;
        cl_int e;
        d->kq = clCreateKernel(d->prog, "k_biome_quarts", &e);
        if (CLRT_CHECK(err, e, "clCreateKernel(k_biome_quarts)")) goto fail;
        d->kc = clCreateKernel(d->prog, "k_biome_chunks", &e);
        if (CLRT_CHECK(err, e, "clCreateKernel(k_biome_chunks)")) goto fail;
        static const int32_t none[CF_BN_STRIDE] = {0};
        if (!(d->tab = upload(d, b->w->tab, b->w->tablen, err))) goto fail;
        if (!(d->tree = upload(d, b->tree ? (const void *)b->tree : none,
                               b->tree ? (size_t)b->nnodes * CF_BN_STRIDE * sizeof(int32_t) : sizeof none, err)))
            goto fail;
    }
    free(src);
    *out = d;
    return CF_OK;
fail:
    free(src);
    biome_device_free(d);
    return err && err->status ? err->status : CF_ERR_DEVICE;
}

/* runs kernel k over `items` work items with args (a list of sizes and pointers), reads out back */
static cf_status launch(cf_biome_device *d, cl_kernel k, size_t items, const void *in, size_t inlen, int32_t a3, int32_t a4,
                        int32_t a5, int nargs, uint8_t *out, size_t outlen, cf_error *err)
{
    cl_int e;
    cf_status st = CF_ERR_DEVICE;
    cl_mem bin = clCreateBuffer(d->rt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, inlen, (void *)in, &e);
    if (CLRT_CHECK(err, e, "clCreateBuffer(positions)")) return CF_ERR_DEVICE;
    cl_mem bout = clCreateBuffer(d->rt.ctx, CL_MEM_WRITE_ONLY, outlen, NULL, &e);
    if (CLRT_CHECK(err, e, "clCreateBuffer(biomes)")) goto done;
    cl_int n = (cl_int)items;
    int i = 0;
    if (CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_mem), &d->tab), "clSetKernelArg") ||
        CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_mem), &d->tree), "clSetKernelArg") ||
        CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_mem), &bin), "clSetKernelArg") ||
        CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_int), &n), "clSetKernelArg"))
        goto done;
    if (nargs > 4 && (CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_int), &a4), "clSetKernelArg") ||
                      CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_int), &a5), "clSetKernelArg")))
        goto done;
    (void)a3;
    if (CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i++, sizeof(cl_mem), &bout), "clSetKernelArg")) goto done;
    size_t local = 64, global = (items + local - 1) / local * local;
    if (CLRT_CHECK(err, clEnqueueNDRangeKernel(d->rt.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel(biomes)"))
        goto done;
    if (CLRT_CHECK(err, clEnqueueReadBuffer(d->rt.queue, bout, CL_TRUE, 0, outlen, out, 0, NULL, NULL), "clEnqueueReadBuffer(biomes)"))
        goto done;
    st = CF_OK;
done:
    if (bout) clReleaseMemObject(bout);
    clReleaseMemObject(bin);
    return st;
}

cf_status biome_device_quarts(cf_biome_device *d, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    if (!d || (n && (!q || !out))) return err_set(err, CF_ERR_ARG, "cf_biomes_device_quarts: bad arguments");
    if (!d->prog) return biome_quarts(d->b, n, q, out, err);
    for (size_t i = 0; i < n; i += 1u << 20) {
        size_t m = n - i < (1u << 20) ? n - i : (1u << 20);
        cf_status st = launch(d, d->kq, m, q + 3 * i, m * 3 * sizeof(int32_t), 0, 0, 0, 4, out + i, m, err);
        if (st != CF_OK) return st;
    }
    return CF_OK;
}

cf_status biome_device_fill(cf_biome_device *d, size_t n, const int32_t *chunks, uint8_t *out, cf_error *err)
{
    if (!d || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_biomes_device_fill: bad arguments");
    if (!d->prog) return biome_fill(d->b, n, chunks, out, 1, err);
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK, CF_MAX_CHUNK);
    int32_t ny = d->b->height >> 2, qy0 = d->b->min_y >> 2;
    size_t per = (size_t)ny * 16;
    for (size_t i = 0; i < n; i += 4096) {
        size_t m = n - i < 4096 ? n - i : 4096;
        cf_status st = launch(d, d->kc, m, chunks + 2 * i, m * 2 * sizeof(int32_t), 0, qy0, ny, 6, out + i * per, m * per, err);
        if (st != CF_OK) return st;
    }
    return CF_OK;
}
