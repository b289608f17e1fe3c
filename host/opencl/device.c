/* device.c - chunk fills on an OpenCL device (the device backend's back half).
 *
 * device_open: picks the device (clrt), runs the exactness probes, generates
 * the program (emit.c), builds it through the binary cache, creates the kernels
 * and two sets of per-batch buffers (devset). device_fill: uploads the seed
 * tables when the world changed (switching seeds never rebuilds the program),
 * then per batch of chunks, alternating the two sets: chunk coordinates ->
 * k_columns -> k_axes (the corner stage's per-axis tables, when the program has
 * them) -> k_corners_<k> -> k_blocks on the compute queue, the read-back on a
 * second queue waiting for the batch's kernels, then, while the device runs
 * that batch, the previous batch is copied out of its pinned staging buffer
 * into the caller's ([chunk][y][z][x], like the CPU). Times are kept per phase.
 * Every OpenCL call is checked (clrt_check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opencl/clrt.h"
#include "opencl/emit.h"
#include "opencl/device.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"
#include "kernels/cf_surface.h"

#define EXACT_OPTIONS "-cl-fp32-correctly-rounded-divide-sqrt"

/* Fault injection (test builds only: CF_FAULT_INJECTION): CHUNKFILL_FAULT=build,
 * alloc or launch:N makes the build fail, a buffer allocation fail, or the N-th
 * batch's kernel launch fail, as a broken or exhausted device would. */
#ifdef CF_FAULT_INJECTION
static int fault(const char *what, int batch)
{
    const char *f = getenv("CHUNKFILL_FAULT");
    if (!f) return 0;
    size_t n = strlen(what);
    if (strncmp(f, what, n) != 0) return 0;
    if (f[n] == ':') return atoi(f + n + 1) == batch;
    return f[n] == 0;
}
#else
static int fault(const char *what, int batch)
{
    (void)what, (void)batch;
    return 0;
}
#endif

/* The buffers of one batch. fill_batches alternates two sets (NSET): batch i + 1 is uploaded
 * and computed in one while batch i is read back from the other and copied out. The staging
 * buffers are pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped once for the device's life and
 * never used by a kernel): a GPU driver DMAs straight from and into them, where a read into the
 * caller's pageable memory is staged by the driver and blocks. */
#define NSET 2
typedef struct devset {
    cl_mem chunks, col, corner, out, ax, sv;
    cl_mem surf, cen, status, skip, bout; /* block fills */
    cl_mem sgrid;                         /* the surface stage's biome grids */
    cl_mem hchunks, hout, hgrid;          /* staging: chunk list, output (densities or blocks), biome grids */
    void *pchunks, *pout, *pgrid;         /* their mapped pointers */
} devset;

struct cf_device {
    clrt rt;
    cl_command_queue rq;        /* the read-back queue (rt.queue runs uploads and kernels) */
    const cf_program *prog;
    int fn;
    emit_layout lay;
    char *src;
    cl_program program;
    cl_kernel kcol, kblocks, kcorner[EMIT_MAX_INTERP], kaxes;
    cl_kernel kstacks[EMIT_MAX_INTERP]; /* the GPU form: k_stacks_<k> where lay.nsites[k] > 0 */
    int gpu_form;                       /* built with -DCF_GPU */
    int staged;                         /* transfers through the sets' pinned staging buffers */
    cl_kernel kaqs, kaqc, kaqb; /* block fills: k_aq_surface, k_aq_cells, k_aq_blocks */
    cl_kernel ksurf;            /* the surface stage: k_surface */
    cl_program sprog;           /* the map's sample columns (emit_samples), built at their first use */
    cl_kernel ksamp;            /* k_map_samples */
    cl_mem sxz, sout;           /* its sample list and heights */
    size_t scap;                /* samples they hold */
    cl_mem sints, sgrad, spsn; /* its int tables, gradient factories, climate permutations */
    size_t batch;
    cl_mem tab;
    devset set[NSET];
    size_t tablen;
    const cf_world *bound;
    int64_t bound_seed;
    int noct, nlayers, nstacks; /* the table shape the program was generated for */
    int cache_hit;
    int nbatches;               /* batches launched so far */
    double ms[4];               /* compile, upload, kernels, read-back */
    char name[300];
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void set_free(cf_device *d, devset *s)
{
    cl_mem h[3] = {s->hchunks, s->hout, s->hgrid};
    void *p[3] = {s->pchunks, s->pout, s->pgrid};
    int unmapped = 0;
    for (int k = 0; k < 3; k++)
        if (h[k] && p[k]) unmapped += clEnqueueUnmapMemObject(d->rt.queue, h[k], p[k], 0, NULL, NULL) == CL_SUCCESS;
    if (unmapped) clFinish(d->rt.queue);
    cl_mem m[15] = {s->chunks, s->col, s->corner, s->out, s->ax, s->sv, s->surf, s->cen, s->status, s->skip, s->bout, s->sgrid,
                    s->hchunks, s->hout, s->hgrid};
    for (int k = 0; k < 15; k++)
        if (m[k]) clReleaseMemObject(m[k]);
    memset(s, 0, sizeof *s);
}

void device_free(cf_device *d)
{
    if (!d) return;
    if (d->rq) {
        clFinish(d->rq);
        clReleaseCommandQueue(d->rq);
    }
    for (int k = 0; k < NSET; k++) set_free(d, &d->set[k]);
    cl_mem sf[3] = {d->sints, d->sgrad, d->spsn};
    for (int k = 0; k < 3; k++)
        if (sf[k]) clReleaseMemObject(sf[k]);
    if (d->ksurf) clReleaseKernel(d->ksurf);
    if (d->sxz) clReleaseMemObject(d->sxz);
    if (d->sout) clReleaseMemObject(d->sout);
    if (d->ksamp) clReleaseKernel(d->ksamp);
    if (d->sprog) clReleaseProgram(d->sprog);
    if (d->kaqs) clReleaseKernel(d->kaqs);
    if (d->kaqc) clReleaseKernel(d->kaqc);
    if (d->kaqb) clReleaseKernel(d->kaqb);
    for (int k = 0; k < EMIT_MAX_INTERP; k++)
        if (d->kstacks[k]) clReleaseKernel(d->kstacks[k]);
    if (d->kaxes) clReleaseKernel(d->kaxes);
    if (d->tab) clReleaseMemObject(d->tab);
    if (d->kblocks) clReleaseKernel(d->kblocks);
    for (int k = 0; k < EMIT_MAX_INTERP; k++)
        if (d->kcorner[k]) clReleaseKernel(d->kcorner[k]);
    if (d->kcol) clReleaseKernel(d->kcol);
    if (d->program) clReleaseProgram(d->program);
    clrt_close(&d->rt);
    free(d->src);
    free(d);
}

/* "opencl" (-1: the first GPU with fp64, else any device with fp64) or "opencl:N" */
static int parse_spec(const char *spec, int *index)
{
    if (strcmp(spec, "opencl") == 0) return *index = -1, 0;
    if (strncmp(spec, "opencl:", 7) != 0) return -1;
    char *end;
    long v = strtol(spec + 7, &end, 10);
    if (end == spec + 7 || *end || v < 0 || v > 1000) return -1;
    *index = (int)v;
    return 0;
}

static cl_mem buffer(cf_device *d, cl_mem_flags fl, size_t bytes, const char *what, cf_error *err)
{
    cl_int e;
    if (fault("alloc", 0)) {
        clrt_check(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, what);
        return NULL;
    }
    cl_mem m = clCreateBuffer(d->rt.ctx, fl, bytes ? bytes : 4, NULL, &e);
    if (clrt_check(err, e, what)) return NULL;
    return m;
}

/* pinned host memory: a buffer the driver allocates host-side (CL_MEM_ALLOC_HOST_PTR), mapped
 * for good (*ptr); only ever the host side of a transfer, never a kernel argument */
static cl_mem pinned(cf_device *d, size_t bytes, void **ptr, const char *what, cf_error *err)
{
    cl_mem m = buffer(d, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, what, err);
    if (!m) return NULL;
    cl_int e;
    *ptr = clEnqueueMapBuffer(d->rt.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes ? bytes : 4, 0, NULL, NULL, &e);
    if (clrt_check(err, e, "clEnqueueMapBuffer(staging)")) {
        *ptr = NULL;
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* bytes per chunk of each per-batch buffer; dev: all of a set's device buffers, host: its staging */
typedef struct devsizes {
    size_t chunks, col, corner, ax, sv, out, grid, dev, host;
} devsizes;

static void sizes(const cf_device *d, devsizes *z)
{
    const cf_program *p = d->prog;
    z->chunks = 2 * sizeof(int32_t);
    z->out = (size_t)p->height * 256 * (p->prec == PREC_F64 ? sizeof(double) : sizeof(float));
    z->ax = (size_t)d->lay.naxes * sizeof(cl_int);
    z->sv = d->gpu_form ? d->lay.svs * sizeof(float) : 0;
    z->corner = d->lay.corners * sizeof(float);
    z->col = (size_t)(d->lay.ncol ? d->lay.ncol : 1) * 289 * sizeof(float);
    z->grid = d->lay.surface ? 144 * (size_t)(p->height / 4) : 0;
    size_t blk = d->lay.blocks ? (CF_AQ_SQ + (size_t)d->lay.ncell * 5 + 1) * sizeof(cl_int) + z->out / sizeof(float) : 0;
    z->dev = z->chunks + z->col + z->corner + z->ax + z->sv + z->out + blk + z->grid;
    z->host = z->chunks + z->out + z->grid;
}

static cf_status set_alloc(cf_device *d, devset *s, const devsizes *z, cf_error *err)
{
    size_t batch = d->batch;
    if (!(s->chunks = buffer(d, CL_MEM_READ_ONLY, batch * z->chunks, "clCreateBuffer(chunks)", err)) ||
        !(s->col = buffer(d, CL_MEM_READ_WRITE, batch * z->col, "clCreateBuffer(columns)", err)) ||
        !(s->corner = buffer(d, CL_MEM_READ_WRITE, batch * z->corner, "clCreateBuffer(corners)", err)) ||
        !(s->ax = buffer(d, CL_MEM_READ_WRITE, batch * z->ax + (size_t)d->lay.naxy * sizeof(cl_int), "clCreateBuffer(axis tables)",
                         err)) ||
        (z->sv && !(s->sv = buffer(d, CL_MEM_READ_WRITE, batch * z->sv, "clCreateBuffer(stack values)", err))) ||
        !(s->out = buffer(d, d->lay.blocks ? CL_MEM_READ_WRITE : CL_MEM_WRITE_ONLY, batch * z->out, "clCreateBuffer(out)", err)))
        return CF_ERR_DEVICE;
    if (d->lay.blocks) {
        size_t nc = (size_t)d->lay.ncell;
        if (!(s->surf = buffer(d, CL_MEM_READ_WRITE, batch * CF_AQ_SQ * sizeof(cl_int), "clCreateBuffer(surface)", err)) ||
            !(s->cen = buffer(d, CL_MEM_READ_WRITE, batch * nc * 3 * sizeof(cl_int), "clCreateBuffer(centres)", err)) ||
            !(s->status = buffer(d, CL_MEM_READ_WRITE, batch * nc * 2 * sizeof(cl_int), "clCreateBuffer(status)", err)) ||
            !(s->skip = buffer(d, CL_MEM_READ_WRITE, batch * sizeof(cl_int), "clCreateBuffer(skip)", err)) ||
            !(s->bout = buffer(d, CL_MEM_WRITE_ONLY, batch * z->out / sizeof(float), "clCreateBuffer(blocks)", err)))
            return CF_ERR_DEVICE;
    }
    if (z->grid && !(s->sgrid = buffer(d, CL_MEM_READ_ONLY, batch * z->grid, "clCreateBuffer(biome grids)", err)))
        return CF_ERR_DEVICE;
    if (!d->staged) return CF_OK;
    /* one output staging buffer serves both outputs: densities are the larger */
    if (!(s->hchunks = pinned(d, batch * z->chunks, &s->pchunks, "clCreateBuffer(staging chunks)", err)) ||
        !(s->hout = pinned(d, batch * z->out, &s->pout, "clCreateBuffer(staging out)", err)) ||
        (z->grid && !(s->hgrid = pinned(d, batch * z->grid, &s->pgrid, "clCreateBuffer(staging biome grids)", err))))
        return CF_ERR_DEVICE;
    return CF_OK;
}

cf_status device_open(cf_device **out, const char *spec, const cf_program *p, int fn, size_t batch, cf_error *err)
{
    *out = NULL;
    int index;
    if (!spec || parse_spec(spec, &index) < 0)
        return err_set(err, CF_ERR_ARG, "device '%s': expected cpu, opencl or opencl:N", spec ? spec : "");
    if (!p || fn < 0 || fn >= p->noutputs) return err_set(err, CF_ERR_ARG, "cf_device_open: bad program or output");
    cf_device *d = calloc(1, sizeof *d);
    if (!d) return err_set(err, CF_ERR_NOMEM, "out of memory");
    d->prog = p;
    d->fn = fn;
    double t0 = now_ms();
    cf_world *w0 = NULL;
    if (clrt_open(&d->rt, index, err) != CF_OK) goto fail;
    snprintf(d->name, sizeof d->name, "opencl:%d (%s, %s)", d->rt.info.index, d->rt.info.name, d->rt.info.platform);
    if (clrt_probe_exact(&d->rt, EXACT_OPTIONS, err) != CF_OK) goto fail;
    /* the program: seed-independent; table indices from a seed-0 binding */
    if (world_new(&w0, p, 0, err) != CF_OK) goto fail;
    d->noct = w0->noct, d->nlayers = w0->nlayers, d->nstacks = w0->nstacks;
    d->src = emit_program(p, w0, fn, &d->lay, err);
    world_free(w0); /* never filled: no fill contexts */
    if (!d->src) goto fail;
    if (fault("build", 0)) {
        err_set(err, CF_ERR_DEVICE, "%s: program build failed: CL_BUILD_PROGRAM_FAILURE (injected fault)", d->name);
        goto fail;
    }
    /* a GPU: the gradient factors by selects (kernels/cf_math.h cf_gdot; the same values) */
    d->gpu_form = d->rt.info.is_gpu || getenv("CHUNKFILL_GPU_FORM");
    /* transfers through pinned staging except on a CPU device (PoCL), whose buffers are host
     * memory already: there staging is a second copy and the read straight into the caller's
     * memory is one (measured: bench/RESULTS.md); CHUNKFILL_STAGING=1 or 0 forces either */
    cl_device_type type = 0;
    if (CLRT_CHECK(err, clGetDeviceInfo(d->rt.device, CL_DEVICE_TYPE, sizeof type, &type, NULL), "clGetDeviceInfo(CL_DEVICE_TYPE)"))
        goto fail;
    const char *stg = getenv("CHUNKFILL_STAGING");
    d->staged = stg ? strcmp(stg, "0") != 0 : !(type & CL_DEVICE_TYPE_CPU);
    const char *opts = d->gpu_form ? EXACT_OPTIONS " -DCF_GPU" : EXACT_OPTIONS;
    if (clrt_build(&d->rt, d->src, opts, &d->program, &d->cache_hit, err) != CF_OK) goto fail;
    cl_int e;
    d->kcol = clCreateKernel(d->program, "k_columns", &e);
    if (clrt_check(err, e, "clCreateKernel(k_columns)")) goto fail;
    d->kblocks = clCreateKernel(d->program, "k_blocks", &e);
    if (clrt_check(err, e, "clCreateKernel(k_blocks)")) goto fail;
    if (d->lay.naxes > 0) {
        d->kaxes = clCreateKernel(d->program, "k_axes", &e);
        if (clrt_check(err, e, "clCreateKernel(k_axes)")) goto fail;
    }
    for (int k = 0; k < d->lay.ninterp; k++) {
        if (d->lay.cmerged[k]) continue; /* its corners come from an earlier kernel */
        char name[32];
        snprintf(name, sizeof name, "k_corners_%d", k);
        d->kcorner[k] = clCreateKernel(d->program, name, &e);
        if (clrt_check(err, e, "clCreateKernel(k_corners)")) goto fail;
        if (d->gpu_form && d->lay.nsites[k] > 0) {
            snprintf(name, sizeof name, "k_stacks_%d", k);
            d->kstacks[k] = clCreateKernel(d->program, name, &e);
            if (clrt_check(err, e, "clCreateKernel(k_stacks)")) goto fail;
        }
    }
    if (d->lay.blocks) {
        d->kaqb = clCreateKernel(d->program, "k_aq_blocks", &e);
        if (clrt_check(err, e, "clCreateKernel(k_aq_blocks)")) goto fail;
        if (d->lay.aquifers) {
            d->kaqs = clCreateKernel(d->program, "k_aq_surface", &e);
            if (clrt_check(err, e, "clCreateKernel(k_aq_surface)")) goto fail;
            d->kaqc = clCreateKernel(d->program, "k_aq_cells", &e);
            if (clrt_check(err, e, "clCreateKernel(k_aq_cells)")) goto fail;
        }
        if (d->lay.surface) {
            d->ksurf = clCreateKernel(d->program, "k_surface", &e);
            if (clrt_check(err, e, "clCreateKernel(k_surface)")) goto fail;
        }
    }
    d->rq = clCreateCommandQueue(d->rt.ctx, d->rt.device, 0, &e);
    if (clrt_check(err, e, "clCreateCommandQueue(read-back)")) {
        d->rq = NULL;
        goto fail;
    }
    /* the batch: what fits the device's largest allocation, at most 4096 chunks on a GPU and
     * 64 elsewhere; both sets within half the device's memory, and their pinned staging (when
     * staged) within the fill's working memory (--max-memory, the pack's limit) */
    devsizes z;
    sizes(d, &z);
    size_t cap = d->rt.info.is_gpu ? 4096 : 64;
    if (batch == 0) {
        batch = cap;
        uint64_t ma = d->rt.info.max_alloc ? d->rt.info.max_alloc : ((uint64_t)128 << 20);
        uint64_t gm = d->rt.info.global_mem ? d->rt.info.global_mem / 2 : ((uint64_t)1 << 30);
        uint64_t hm = p->max_fill_bytes ? p->max_fill_bytes : UINT64_MAX;
        while (batch > 1 && ((uint64_t)batch * z.out > ma || (uint64_t)batch * z.corner > ma || (uint64_t)batch * z.col > ma ||
                              (uint64_t)batch * z.ax > ma || (uint64_t)batch * z.sv > ma || NSET * (uint64_t)batch * z.dev > gm ||
                              (d->staged && NSET * (uint64_t)batch * z.host > hm)))
            batch /= 2;
    }
    d->batch = batch;
    for (int k = 0; k < NSET; k++)
        if (set_alloc(d, &d->set[k], &z, err) != CF_OK) goto fail;
    d->ms[0] = now_ms() - t0;
    *out = d;
    return CF_OK;
fail:
    device_free(d);
    return err->status ? err->status : CF_ERR_DEVICE;
}

static cf_status upload_tables(cf_device *d, const cf_world *w, cf_error *err)
{
    if (w->noct != d->noct || w->nlayers != d->nlayers || w->nstacks != d->nstacks)
        return err_set(err, CF_ERR_ARG, "seed tables do not have the program's shape (a world of another program?)");
    if (d->tab && d->tablen != w->tablen) {
        clReleaseMemObject(d->tab);
        d->tab = NULL;
    }
    if (!d->tab) {
        if (!(d->tab = buffer(d, CL_MEM_READ_ONLY, w->tablen, "clCreateBuffer(tables)", err))) return CF_ERR_DEVICE;
        d->tablen = w->tablen;
    }
    if (CLRT_CHECK(err, clEnqueueWriteBuffer(d->rt.queue, d->tab, CL_TRUE, 0, w->tablen, w->tab, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(tables)"))
        return CF_ERR_DEVICE;
    d->bound = w;
    d->bound_seed = w->seed;
    return CF_OK;
}

static size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

static int setargs(cf_error *err, cl_kernel k, int n, const size_t *size, const void *const *val)
{
    for (int i = 0; i < n; i++)
        if (CLRT_CHECK(err, clSetKernelArg(k, (cl_uint)i, size[i], val[i]), "clSetKernelArg")) return -1;
    return 0;
}

static int launch(cf_error *err, cl_command_queue q, cl_kernel k, size_t items, const char *what)
{
    size_t g = round_up(items, 64);
    return CLRT_CHECK(err, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), what) ? -1 : 0;
}

/* after the densities of a batch of b chunks are in s->out: their blocks into s->bout */
static cf_status aquifer_batch(cf_device *d, devset *s, const cf_world *w, cl_int b, cf_error *err)
{
    cl_command_queue q = d->rt.queue;
    cl_ulong lo = w->aq_lo, hi = w->aq_hi, olo = w->ore_lo, ohi = w->ore_hi;
    /* 1.18-1.21 (emit_blocks.c aquifer121_kernels): the column and corner buffers follow, and the ore factory */
    int m21 = d->prog->dialect == DIALECT_MC121;
    if (d->lay.aquifers) {
        const size_t sz[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_int), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
        const void *v[] = {&d->tab, &s->chunks, &b, &s->surf, &s->col, &s->corner};
        if (setargs(err, d->kaqs, m21 ? 6 : 4, sz, v) < 0 || launch(err, q, d->kaqs, (size_t)b * CF_AQ_SQ, "clEnqueueNDRangeKernel(k_aq_surface)") < 0)
            return CF_ERR_DEVICE;
        const size_t sz2[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_int), sizeof(cl_ulong), sizeof(cl_ulong),
                              sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
        const void *v2[] = {&d->tab, &s->chunks, &b, &lo, &hi, &s->surf, &s->cen, &s->status, &s->skip, &s->col, &s->corner};
        if (setargs(err, d->kaqc, m21 ? 11 : 9, sz2, v2) < 0 ||
            launch(err, q, d->kaqc, (size_t)b * (size_t)d->lay.ncell, "clEnqueueNDRangeKernel(k_aq_cells)") < 0)
            return CF_ERR_DEVICE;
    }
    const size_t sz3[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_int), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
                          sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_ulong),
                          sizeof(cl_ulong)};
    const void *v3[] = {&d->tab, &s->chunks, &b, &s->out, &s->surf, &s->cen, &s->status, &s->skip, &s->bout, &s->col,
                        &s->corner, &olo, &ohi};
    if (setargs(err, d->kaqb, m21 ? 13 : 9, sz3, v3) < 0 || launch(err, q, d->kaqb, (size_t)b * 256, "clEnqueueNDRangeKernel(k_aq_blocks)") < 0)
        return CF_ERR_DEVICE;
    return CF_OK;
}

static cf_status fill_batches(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, void *outp, int blocks,
                              const uint8_t *grid, const cf_surface_tables *sf, cf_error *err);

int device_has_surface(const cf_device *d) { return d && d->lay.surface; }

/* k_surface over a batch of b chunks whose blocks are in s->bout and biome grids in s->sgrid */
static cf_status surface_batch(cf_device *d, devset *s, const cf_world *w, cl_int b, const cf_surface_tables *sf, cf_error *err)
{
    cl_command_queue q = d->rt.queue;
    cl_ulong rlo = w->root_lo, rhi = w->root_hi, olo = w->ore_lo, ohi = w->ore_hi;
    cl_long zs = sf->zseed;
    const size_t sz[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_int), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
                         sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_ulong), sizeof(cl_ulong), sizeof(cl_long),
                         sizeof(cl_ulong), sizeof(cl_ulong)};
    const void *v[] = {&d->tab, &s->chunks, &b, &s->col, &s->corner, &s->bout, &s->sgrid, &d->sints, &d->sgrad, &d->spsn, &rlo, &rhi, &zs,
                       &olo, &ohi};
    if (setargs(err, d->ksurf, 15, sz, v) < 0 || launch(err, q, d->ksurf, (size_t)b, "clEnqueueNDRangeKernel(k_surface)") < 0)
        return CF_ERR_DEVICE;
    return CF_OK;
}

cf_status device_fill_blocks_surface(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *grid,
                                     const cf_surface_tables *sf, uint8_t *out, cf_error *err)
{
    if (!d || !sf || (n && !grid)) return err_set(err, CF_ERR_ARG, "device_fill_blocks_surface: bad arguments");
    if (!d->lay.surface)
        return err_set(err, CF_ERR_ARG, "%s: the surface stage of these settings is not generated for OpenCL (use the CPU)",
                       d->prog->settings_id ? d->prog->settings_id : "program");
    cl_command_queue q = d->rt.queue;
    size_t ng = (size_t)(sf->ngrad > 0 ? sf->ngrad : 1);
    if (!d->sints && !(d->sints = buffer(d, CL_MEM_READ_ONLY, CF_SF_I_COUNT * sizeof(cl_int), "clCreateBuffer(surface ints)", err)))
        return CF_ERR_DEVICE;
    if (!d->spsn && !(d->spsn = buffer(d, CL_MEM_READ_ONLY, 5 * 256, "clCreateBuffer(climate)", err))) return CF_ERR_DEVICE;
    if (d->sgrad) clReleaseMemObject(d->sgrad);
    if (!(d->sgrad = buffer(d, CL_MEM_READ_ONLY, ng * 2 * sizeof(cl_ulong), "clCreateBuffer(gradients)", err))) return CF_ERR_DEVICE;
    if (CLRT_CHECK(err, clEnqueueWriteBuffer(q, d->sints, CL_TRUE, 0, CF_SF_I_COUNT * sizeof(cl_int), sf->ints, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(surface ints)") ||
        CLRT_CHECK(err, clEnqueueWriteBuffer(q, d->spsn, CL_TRUE, 0, 5 * 256, sf->psn, 0, NULL, NULL), "clEnqueueWriteBuffer(climate)") ||
        (sf->ngrad > 0 && CLRT_CHECK(err, clEnqueueWriteBuffer(q, d->sgrad, CL_TRUE, 0, (size_t)sf->ngrad * 2 * sizeof(cl_ulong), sf->grad,
                                                               0, NULL, NULL), "clEnqueueWriteBuffer(gradients)")))
        return CF_ERR_DEVICE;
    return fill_batches(d, w, n, chunks, out, 1, grid, sf, err);
}

cf_status device_fill_blocks(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out,
                                cf_error *err)
{
    if (d && !d->lay.blocks)
        return err_set(err, CF_ERR_ARG, "cf_device_fill_blocks: the device was opened for a program without block fills"
                       " (cf_program_compile_blocks)");
    return fill_batches(d, w, n, chunks, out, 1, NULL, NULL, err);
}

/* the sample program, at its first use (a fill never builds it): seed-independent as the fill's */
static cf_status samples_open(cf_device *d, cf_error *err)
{
    cf_world *w0 = NULL;
    if (world_new(&w0, d->prog, 0, err) != CF_OK) return err->status;
    char *src = emit_samples(d->prog, w0, d->fn, err);
    world_free(w0);
    if (!src) return err->status;
    cf_status st = clrt_build(&d->rt, src, d->gpu_form ? EXACT_OPTIONS " -DCF_GPU" : EXACT_OPTIONS, &d->sprog, NULL, err);
    free(src);
    if (st != CF_OK) return st;
    cl_int e;
    d->ksamp = clCreateKernel(d->sprog, "k_map_samples", &e);
    if (clrt_check(err, e, "clCreateKernel(k_map_samples)")) {
        clReleaseProgram(d->sprog);
        d->ksamp = NULL, d->sprog = NULL;
        return CF_ERR_DEVICE;
    }
    return CF_OK;
}

cf_status device_samples(cf_device *d, const cf_world *w, size_t n, const int32_t *xzy, int32_t *out, cf_error *err)
{
    if (!d || !w || w->prog != d->prog || (n && (!xzy || !out)))
        return err_set(err, CF_ERR_ARG, "device_samples: bad arguments (the world must bind the device's program)");
    if (n == 0) return CF_OK;
    if (n > INT32_MAX / 3) return err_set(err, CF_ERR_LIMIT, "device_samples: %zu samples in one call", n);
    if (!d->ksamp && samples_open(d, err) != CF_OK) return err->status;
    double t0 = now_ms();
    if ((d->bound != w || d->bound_seed != w->seed) && upload_tables(d, w, err) != CF_OK) return err->status;
    if (d->scap < n) {
        if (d->sxz) clReleaseMemObject(d->sxz);
        if (d->sout) clReleaseMemObject(d->sout);
        d->sout = NULL, d->scap = 0;
        if (!(d->sxz = buffer(d, CL_MEM_READ_ONLY, n * 3 * sizeof(cl_int), "clCreateBuffer(samples)", err))) return CF_ERR_DEVICE;
        if (!(d->sout = buffer(d, CL_MEM_WRITE_ONLY, n * sizeof(cl_int), "clCreateBuffer(sample heights)", err))) return CF_ERR_DEVICE;
        d->scap = n;
    }
    cl_command_queue q = d->rt.queue;
    if (CLRT_CHECK(err, clEnqueueWriteBuffer(q, d->sxz, CL_FALSE, 0, n * 3 * sizeof(cl_int), xzy, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(samples)"))
        return CF_ERR_DEVICE;
    d->ms[1] += now_ms() - t0;
    t0 = now_ms();
    cl_int ni = (cl_int)n, y0 = d->prog->min_y;
    const size_t sz[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_int), sizeof(cl_int), sizeof(cl_mem)};
    const void *v[] = {&d->tab, &d->sxz, &ni, &y0, &d->sout};
    if (setargs(err, d->ksamp, 5, sz, v) < 0 || launch(err, q, d->ksamp, n, "clEnqueueNDRangeKernel(k_map_samples)") < 0 ||
        CLRT_CHECK(err, clEnqueueReadBuffer(q, d->sout, CL_TRUE, 0, n * sizeof(cl_int), out, 0, NULL, NULL),
                   "clEnqueueReadBuffer(sample heights)")) {
        clFinish(q);
        return CF_ERR_DEVICE;
    }
    d->ms[2] += now_ms() - t0;
    return CF_OK;
}

cf_status device_fill(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, void *outp, cf_error *err)
{
    return fill_batches(d, w, n, chunks, outp, 0, NULL, NULL, err);
}

/* the pending batch of set k: wait for its read-back, then (staged) copy it from the pinned
 * staging buffer to its place in the caller's memory */
typedef struct pending {
    cl_event read; /* NULL: nothing pending */
    size_t at, n;  /* first chunk and chunk count */
} pending;

static cf_status copy_out(cf_device *d, int k, pending *pd, char *out, size_t bytes, cf_error *err)
{
    double a = now_ms();
    cl_int e = clWaitForEvents(1, &pd[k].read);
    clReleaseEvent(pd[k].read);
    pd[k].read = NULL;
    double t = now_ms();
    d->ms[2] += t - a;
    if (CLRT_CHECK(err, e, "clWaitForEvents(read-back)")) return CF_ERR_DEVICE;
    if (d->staged) memcpy(out + pd[k].at * bytes, d->set[k].pout, pd[k].n * bytes);
    d->ms[3] += now_ms() - t;
    return CF_OK;
}

/* Batches alternate the two sets. Batch i: its chunk list (and biome grids) are staged and
 * written, its kernels enqueued on the compute queue (rt.queue, in order), a marker after them,
 * and its read-back on the read-back queue waiting for the marker; both queues are flushed, and
 * only then does the host wait for batch i - 1's read-back and copy it out: the device computes
 * batch i meanwhile (and on a GPU, batch i - 1's transfer runs beside batch i's kernels). Set
 * i % 2 is free when batch i starts: batch i - 2 was copied out during iteration i - 1. On an
 * error nothing may still run on the caller's memory or the sets: both queues are finished. */
static cf_status fill_batches(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, void *outp, int blocks,
                              const uint8_t *grid, const cf_surface_tables *sf, cf_error *err)
{
    if (!d || !w || w->prog != d->prog || (n && (!chunks || !outp)))
        return err_set(err, CF_ERR_ARG, "cf_device_fill: bad arguments (the world must bind the device's program)");
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK, CF_MAX_CHUNK);
    double t0 = now_ms();
    if (d->bound != w || d->bound_seed != w->seed)
        if (upload_tables(d, w, err) != CF_OK) return err->status;
    d->ms[1] += now_ms() - t0;
    char *out = outp;
    size_t esz = d->prog->prec == PREC_F64 ? sizeof(double) : sizeof(float);
    size_t per = (size_t)d->prog->height * 256, bytes = blocks ? per : per * esz; /* bytes a chunk of the output */
    size_t gper = 144 * (size_t)(d->prog->height / 4);                          /* bytes a chunk of biome grids */
    cl_int y0 = d->prog->min_y;
    cl_command_queue q = d->rt.queue;
    pending pd[NSET] = {{0}};
    int cur = 0;
    for (size_t done = 0; done < n; d->nbatches++, cur ^= 1) {
        devset *s = &d->set[cur];
        cl_int b = (cl_int)(n - done < d->batch ? n - done : d->batch);
        double a = now_ms();
        const void *src = chunks + 2 * done;
        if (d->staged) src = memcpy(s->pchunks, src, (size_t)b * 2 * sizeof(int32_t));
        if (CLRT_CHECK(err, clEnqueueWriteBuffer(q, s->chunks, CL_FALSE, 0, (size_t)b * 2 * sizeof(int32_t), src, 0, NULL, NULL),
                       "clEnqueueWriteBuffer(chunks)"))
            goto fail;
        if (sf) {
            src = grid + done * gper;
            if (d->staged) src = memcpy(s->pgrid, src, (size_t)b * gper);
            if (CLRT_CHECK(err, clEnqueueWriteBuffer(q, s->sgrid, CL_FALSE, 0, (size_t)b * gper, src, 0, NULL, NULL),
                           "clEnqueueWriteBuffer(biome grids)"))
                goto fail;
        }
        double t1 = now_ms();
        d->ms[1] += t1 - a;
        size_t g;
        cl_kernel k = d->kcol;
        if (CLRT_CHECK(err, clSetKernelArg(k, 0, sizeof(cl_mem), &d->tab), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 1, sizeof(cl_mem), &s->chunks), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 2, sizeof(cl_int), &b), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 3, sizeof(cl_int), &y0), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 4, sizeof(cl_mem), &s->col), "clSetKernelArg"))
            goto fail;
        g = round_up((size_t)b * (size_t)(d->lay.colitems > 0 ? d->lay.colitems : 289), 64);
        if (CLRT_CHECK(err, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(k_columns)"))
            goto fail;
        if (d->kaxes) {
            k = d->kaxes;
            if (CLRT_CHECK(err, clSetKernelArg(k, 0, sizeof(cl_mem), &d->tab), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 1, sizeof(cl_mem), &s->chunks), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 2, sizeof(cl_int), &b), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 3, sizeof(cl_int), &y0), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 4, sizeof(cl_mem), &s->ax), "clSetKernelArg"))
                goto fail;
            g = round_up((size_t)b * (size_t)d->lay.axitems + (size_t)d->lay.axyitems, 64);
            if (CLRT_CHECK(err, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(k_axes)"))
                goto fail;
        }
        for (int c = 0; c < d->lay.ninterp; c++) {
            if (d->lay.cmerged[c]) continue;
            if (d->kstacks[c]) { /* the GPU form: the body's noise stacks first (emit.h nsites) */
                k = d->kstacks[c];
                if (CLRT_CHECK(err, clSetKernelArg(k, 0, sizeof(cl_mem), &d->tab), "clSetKernelArg") ||
                    CLRT_CHECK(err, clSetKernelArg(k, 1, sizeof(cl_int), &b), "clSetKernelArg") ||
                    CLRT_CHECK(err, clSetKernelArg(k, 2, sizeof(cl_mem), &s->ax), "clSetKernelArg") ||
                    CLRT_CHECK(err, clSetKernelArg(k, 3, sizeof(cl_mem), &s->sv), "clSetKernelArg"))
                    goto fail;
                size_t g3[3] = {round_up((size_t)d->lay.ncorner[c], EMIT_STACK_WG), (size_t)d->lay.nsites[c], (size_t)b};
                size_t l3[3] = {EMIT_STACK_WG, 1, 1}; /* corners of one stack: emit.h */
                if (CLRT_CHECK(err, clEnqueueNDRangeKernel(q, k, 3, NULL, g3, l3, 0, NULL, NULL),
                               "clEnqueueNDRangeKernel(k_stacks)"))
                    goto fail;
            }
            k = d->kcorner[c];
            if (CLRT_CHECK(err, clSetKernelArg(k, 0, sizeof(cl_mem), &d->tab), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 1, sizeof(cl_mem), &s->chunks), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 2, sizeof(cl_int), &b), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 3, sizeof(cl_int), &y0), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 4, sizeof(cl_mem), &s->col), "clSetKernelArg") ||
                CLRT_CHECK(err, clSetKernelArg(k, 5, sizeof(cl_mem), &s->corner), "clSetKernelArg") ||
                (d->kaxes && CLRT_CHECK(err, clSetKernelArg(k, 6, sizeof(cl_mem), &s->ax), "clSetKernelArg")) ||
                (d->lay.nsites[c] > 0 && CLRT_CHECK(err, clSetKernelArg(k, 7, sizeof(cl_mem), s->sv ? &s->sv : NULL), "clSetKernelArg")))
                goto fail;
            g = round_up((size_t)b * (size_t)d->lay.ncorner[c], 64);
            if (CLRT_CHECK(err, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                           "clEnqueueNDRangeKernel(k_corners)"))
                goto fail;
        }
        k = d->kblocks;
        if (CLRT_CHECK(err, clSetKernelArg(k, 0, sizeof(cl_mem), &d->tab), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 1, sizeof(cl_mem), &s->chunks), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 2, sizeof(cl_int), &b), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 3, sizeof(cl_int), &y0), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 4, sizeof(cl_mem), &s->col), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 5, sizeof(cl_mem), &s->corner), "clSetKernelArg") ||
            CLRT_CHECK(err, clSetKernelArg(k, 6, sizeof(cl_mem), &s->out), "clSetKernelArg"))
            goto fail;
        g = round_up((size_t)b * 256, 64);
        if (CLRT_CHECK(err, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel(k_blocks)"))
            goto fail;
        if (blocks && aquifer_batch(d, s, w, b, err) != CF_OK) goto fail;
        if (sf && surface_batch(d, s, w, b, sf, err) != CF_OK) goto fail;
        /* after this batch's kernels are queued (and the previous batch is still in flight) */
        if (fault("launch", d->nbatches)) {
            clrt_check(err, CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel(k_blocks) (injected fault)");
            goto fail;
        }
        cl_event kdone;
        if (CLRT_CHECK(err, clEnqueueMarkerWithWaitList(q, 0, NULL, &kdone), "clEnqueueMarkerWithWaitList")) goto fail;
        void *dst = d->staged ? s->pout : out + done * bytes;
        cl_int e = clEnqueueReadBuffer(d->rq, blocks ? s->bout : s->out, CL_FALSE, 0, (size_t)b * bytes, dst, 1, &kdone,
                                       &pd[cur].read);
        clReleaseEvent(kdone);
        if (CLRT_CHECK(err, e, blocks ? "clEnqueueReadBuffer(blocks)" : "clEnqueueReadBuffer(out)")) {
            pd[cur].read = NULL;
            goto fail;
        }
        pd[cur].at = done, pd[cur].n = (size_t)b;
        if (CLRT_CHECK(err, clFlush(q), "clFlush") || CLRT_CHECK(err, clFlush(d->rq), "clFlush(read-back)")) goto fail;
        d->ms[2] += now_ms() - t1;
        /* while the device runs this batch: the previous one out */
        if (pd[cur ^ 1].read && copy_out(d, cur ^ 1, pd, out, bytes, err) != CF_OK) goto fail;
        done += (size_t)b;
    }
    for (int k = 0; k < NSET; k++)
        if (pd[k].read && copy_out(d, k, pd, out, bytes, err) != CF_OK) goto fail;
    return CF_OK;
fail:
    clFinish(q);
    clFinish(d->rq);
    for (int k = 0; k < NSET; k++)
        if (pd[k].read) clReleaseEvent(pd[k].read);
    return err->status ? err->status : CF_ERR_DEVICE;
}

const char *device_name(const cf_device *d) { return d ? d->name : ""; }
size_t device_batch(const cf_device *d) { return d ? d->batch : 0; }
int device_cache_hit(const cf_device *d) { return d ? d->cache_hit : 0; }

void device_times(const cf_device *d, double ms[4])
{
    for (int i = 0; i < 4; i++) ms[i] = d ? d->ms[i] : 0;
}

char *devices_list(cf_error *err)
{
    clrt_devinfo info[64];
    int n = clrt_list(info, 64, err);
    if (n < 0) return NULL;
    size_t cap = 512 + (size_t)(n < 64 ? n : 64) * 600;
    char *s = malloc(cap);
    if (!s) {
        err_set(err, CF_ERR_NOMEM, "out of memory");
        return NULL;
    }
    size_t len = 0;
    if (n == 0) len += (size_t)snprintf(s + len, cap - len, "no OpenCL device (install pocl-opencl-icd for a CPU device)\n");
    for (int i = 0; i < n && i < 64; i++)
        len += (size_t)snprintf(s + len, cap - len, "opencl:%d  %s  [%s, %s]  %s, fp64 %s, %u compute units, %llu MiB\n",
                                info[i].index, info[i].name, info[i].platform, info[i].version,
                                info[i].is_gpu ? "GPU" : "not a GPU", info[i].fp64 ? "yes" : "no", info[i].compute_units,
                                (unsigned long long)(info[i].global_mem >> 20));
    return s;
}

