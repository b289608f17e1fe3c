/* jobs.c - the job runner of the CPU fills: threads (fill_run_threads), chunks handed out in
 * runs (job_take), the workers of density fills (float: fill.c's fill_chunk; double: fill121.c's
 * staged fill or eval64.c per block), block fills (the aquifer) and the surface stage
 * (surface.c); fill_chunks, fill_chunks_blocks, fill_blocks_surface, cpu_count.
 * Output layout: per chunk [y][z][x], y from min_y upward.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/fill.h"

/* ------------------------------------------------------------------ threads */

/* runs fn(arg) on `threads` threads (the caller's thread alone when 1, or when none
 * can be started) and waits for them; -1 when out of memory */
int fill_run_threads(void *(*fn)(void *), void *arg, int threads)
{
    if (threads <= 1) {
        fn(arg);
        return 0;
    }
    pthread_t *t = malloc(sizeof(pthread_t) * (size_t)threads);
    if (!t) return -1;
    int started = 0;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&t[i], NULL, fn, arg) != 0) break;
        started++;
    }
    if (started == 0) fn(arg);
    for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
    free(t);
    return 0;
}

typedef struct job {
    const cf_world *w;
    int node;
    size_t n;
    const int32_t *chunks;
    float *out;
    size_t per_chunk;
    atomic_size_t next;
    atomic_int failed;
    uint8_t *bytes; /* block fills: the palette indices */
    /* the surface stage (surface.c): the biomes of each chunk's area, their names, the zoom seed */
    const uint8_t *bgrid;
    size_t bgrid_len;
    const char *const *bnames;
    int nb;
    int64_t zseed;
    int threads; /* job_take's runs */
    const uint8_t *remap; /* block fills: internal index -> output index (block_palette_out), NULL: none */
} job;

/* the next run of chunks [*i, *end) of j, 0 when none is left. Consecutive chunks of the list
 * (neighbours along x in an area, z outer) on one context share their corner faces
 * (share_corners), so a thread takes a run of them: a quarter of its share of what is left,
 * at most 16, down to single chunks at the end (no thread waits long for another's run) */
static int job_take(job *j, size_t *i, size_t *end)
{
    size_t cur = atomic_load(&j->next), left = cur < j->n ? j->n - cur : 0;
    size_t run = left / ((size_t)(j->threads > 0 ? j->threads : 1) * 4);
    run = run < 1 ? 1 : run > 16 ? 16 : run;
    *i = atomic_fetch_add(&j->next, run);
    if (*i >= j->n || atomic_load(&j->failed)) return 0;
    *end = *i + run < j->n ? *i + run : j->n;
    return 1;
}

static void *worker(void *arg)
{
    job *j = arg;
    cf_fill *f = fill_take(j->w, 16, j->w->prog->height, 16);
    if (!f) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    size_t i, end;
    while (job_take(j, &i, &end))
        for (; i < end; i++) fill_chunk(f, j->node, j->chunks[2 * i], j->chunks[2 * i + 1], j->out + i * j->per_chunk);
    fill_give(f);
    return NULL;
}

/* block fills: the density of a chunk into a scratch buffer, then the aquifer */
static void *block_worker(void *arg)
{
    job *j = arg;
    const cf_program *p = j->w->prog;
    cf_fill *f = fill_take(j->w, 16, p->height, 16);
    cf_aquifer *a = aquifer_new(j->w);
    float *dens = malloc(sizeof(float) * j->per_chunk);
    if (!f || !a || !dens) {
        atomic_store(&j->failed, 1);
    } else {
        size_t i, end;
        while (job_take(j, &i, &end))
            for (; i < end; i++) {
                int32_t cx = j->chunks[2 * i], cz = j->chunks[2 * i + 1];
                fill_chunk(f, j->node, cx, cz, dens);
                aquifer_chunk(a, cx, cz, dens, j->bytes + i * j->per_chunk);
                blocks_remap(j->bytes + i * j->per_chunk, j->per_chunk, j->remap);
            }
    }
    free(dens);
    aquifer_free(a);
    fill_give(f);
    return NULL;
}

/* block fills of the 1.18-1.21 dialect: aquifer121.c, a chunk at a time */
static void *block121_worker(void *arg)
{
    job *j = arg;
    cf_blocks121 *a = blocks121_take(j->w); /* the thread's context, from the world's pool */
    if (!a) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        blocks121_chunk(a, j->chunks[2 * i], j->chunks[2 * i + 1], j->bytes + i * j->per_chunk);
        blocks_remap(j->bytes + i * j->per_chunk, j->per_chunk, j->remap);
    }
    blocks121_give(a);
    return NULL;
}

/* the 1.18-1.21 noise stage, then the surface stage, a chunk at a time */
static void *surface121_worker(void *arg)
{
    job *j = arg;
    cf_blocks121 *a = blocks121_take(j->w); /* the thread's context, from the world's pool */
    cf_surface *s = a ? surface_new(j->w, a, j->bnames, j->nb, j->zseed) : NULL;
    if (!s) {
        blocks121_give(a);
        atomic_store(&j->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        int32_t cx = j->chunks[2 * i], cz = j->chunks[2 * i + 1];
        blocks121_chunk(a, cx, cz, j->bytes + i * j->per_chunk);
        surface_apply(s, cx, cz, j->bgrid + i * j->bgrid_len, j->bytes + i * j->per_chunk, NULL, NULL);
        blocks_remap(j->bytes + i * j->per_chunk, j->per_chunk, j->remap);
    }
    surface_free(s);
    blocks121_give(a);
    return NULL;
}

/* 26.3: the volume-path values of a rule input over the current chunk, filled on first use */
typedef struct vols {
    cf_fill *f;
    int32_t cx, cz;
    size_t per;
    int n;          /* the program's outputs: one buffer each, made on first use */
    float **buf;
    uint8_t *have;
} vols;
static const float *vol_of(void *u, int out)
{
    vols *v = u;
    int k = out;
    if (k < 0 || k >= v->n) abort(); /* NOLINT: the rules name outputs of their own program only */
    if (!v->buf[k]) v->buf[k] = malloc(sizeof(float) * v->per);
    if (!v->buf[k]) abort(); /* NOLINT: out of memory mid-chunk */
    if (!v->have[k]) fill_chunk(v->f, v->f->w->prog->outputs[out], v->cx, v->cz, v->buf[k]), v->have[k] = 1;
    return v->buf[k];
}

/* 26.3: the noise stage (density, aquifer), then the material pass */
static void *surface263_worker(void *arg)
{
    job *j = arg;
    const cf_program *p = j->w->prog;
    cf_fill *f = fill_take(j->w, 16, p->height, 16);
    cf_aquifer *a = aquifer_new(j->w);
    float *dens = malloc(sizeof(float) * j->per_chunk);
    cf_surface *s = surface_new(j->w, NULL, j->bnames, j->nb, j->zseed);
    vols v = {f, 0, 0, j->per_chunk, p->noutputs, calloc((size_t)p->noutputs + 1, sizeof(float *)),
              calloc((size_t)p->noutputs + 1, 1)};
    if (!f || !a || !dens || !s || !v.buf || !v.have) {
        atomic_store(&j->failed, 1);
    } else {
        for (;;) {
            size_t i = atomic_fetch_add(&j->next, 1);
            if (i >= j->n || atomic_load(&j->failed)) break;
            int32_t cx = j->chunks[2 * i], cz = j->chunks[2 * i + 1];
            fill_chunk(f, j->node, cx, cz, dens);
            aquifer_chunk(a, cx, cz, dens, j->bytes + i * j->per_chunk);
            v.cx = cx, v.cz = cz;
            memset(v.have, 0, (size_t)v.n);
            surface_apply(s, cx, cz, j->bgrid + i * j->bgrid_len, j->bytes + i * j->per_chunk, vol_of, &v);
            blocks_remap(j->bytes + i * j->per_chunk, j->per_chunk, j->remap);
        }
    }
    for (int k = 0; v.buf && k < v.n; k++) free(v.buf[k]);
    free(v.buf), free(v.have);
    surface_free(s);
    free(dens);
    aquifer_free(a);
    fill_give(f);
    return NULL;
}

cf_status fill_blocks_surface(const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *bgrid,
                              const char *const *bnames, int nb, int64_t zseed, const uint8_t *remap, uint8_t *out, int threads,
                              cf_error *err)
{
    const cf_program *p = w->prog;
    if (!p->blocks || !p->rules || (p->dialect != DIALECT_MC121 && p->dialect != DIALECT_MC263))
        return err_set(err, CF_ERR_ARG, "%s: the surface stage needs noise settings with a surface_rule or material_rule",
                       p->settings_id ? p->settings_id : "program");
    if (n == 0) return CF_OK;
    if (threads <= 0) threads = cpu_count();
    if ((size_t)threads > n) threads = (int)n;
    if (fill_check_memory(p, threads, err) != CF_OK) return err->status;
    job j = {w, p->outputs[0], n, chunks, NULL, (size_t)p->height * 256, 0, 0, out,
             bgrid, (size_t)144 * (size_t)(p->height / 4), bnames, nb, zseed, 0, remap};
    if (fill_run_threads(p->dialect == DIALECT_MC121 ? surface121_worker : surface263_worker, &j, threads) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context (or a palette over 256 blocks)");
    return CF_OK;
}

/* the chunk list's coordinates, the thread count (<= 0: one per CPU; at most n) and the
 * memory of that many fills: CF_OK, or the error */
static cf_status chunk_args(const cf_world *w, size_t n, const int32_t *chunks, int *threads, cf_error *err)
{
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK || chunks[i] > CF_MAX_CHUNK)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK,
                           CF_MAX_CHUNK);
    if (*threads <= 0) *threads = cpu_count();
    if ((size_t)*threads > n) *threads = (int)n;
    if (fill_check_memory(w->prog, *threads, err) != CF_OK) return err->status;
    return CF_OK;
}

cf_status fill_chunks_blocks(const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *remap, uint8_t *out, int threads,
                             cf_error *err)
{
    if (!w || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_fill_blocks: bad arguments");
    if (!w->prog->blocks)
        return err_set(err, CF_ERR_ARG, "cf_fill_blocks: the program was not compiled for block fills"
                       " (cf_program_compile_blocks)");
    if (n == 0) return CF_OK;
    cf_status st = chunk_args(w, n, chunks, &threads, err);
    if (st != CF_OK) return st;
    job j = {w, w->prog->outputs[0], n, chunks, NULL, (size_t)w->prog->height * 256, 0, 0, out, NULL, 0, NULL, 0, 0, 0, remap};
    j.threads = threads;
    if (fill_run_threads(w->prog->dialect == DIALECT_MC121 ? block121_worker : block_worker, &j, threads) < 0)
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    return CF_OK;
}

int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

/* ------------------------------------------------------------------ double dialects
 * Every block on its own through eval64.c; column by column, y innermost, so a
 * terrain's height (x, 0, z) is computed once per column (the memo). */
typedef struct job64 {
    const cf_world *w;
    int node;
    size_t n;
    const int32_t *chunks;  /* (x, z) chunk pairs */
    double *out;
    atomic_size_t next;
    atomic_int failed;
    int final; /* DIALECT_MC121: the output is router:final_density (cell-cache order, + beardifier 0.0) */
} job64;

/* a 1.21 chunk: NoiseChunk's markers; block densities go through the cell cache
 * (lerp x, y, z) and get the beardifier's 0.0 added, other outputs interpolate y, x, z
 * (as the oracle's chunk mode). The staged fill (fill121.c) where the program has one,
 * else every block through eval64.c */
void fill121_chunk(ev64_ctx *c, cf_fill121 *s, int node, int final, int32_t cx, int32_t cz, double *out)
{
    if (!s) {
        fill121_points(c, node, final, cx, cz, out);
        return;
    }
    fill121_run(s, cx, cz, out);
    eval64_chunk(c, 0, 0, EV64_POINT);
}

static void fill64_chunk(ev64_ctx *c, int node, int32_t cx, int32_t cz, double *out)
{
    const cf_program *p = c->w->prog;
    const cf_node *r = &p->nodes[node];
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            double bx = (double)((int64_t)cx * 16 + x), bz = (double)((int64_t)cz * 16 + z);
            if (node_is_2d(p, r)) {
                /* a 2-D Iris node does not read y: once per column */
                double v = eval_f64(c, node, bx, 0.0, bz);
                for (int y = 0; y < p->height; y++) out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = v;
                continue;
            }
            if (r->kind == NK_LN_TERRAIN) {
                /* eval64's terrain, its height once per column */
                double h = eval_f64(c, r->in[0], bx, 0.0, bz);
                for (int y = 0; y < p->height; y++)
                    out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = ((h * r->d[0]) + r->d[1]) - (double)(p->min_y + y);
                continue;
            }
            for (int y = 0; y < p->height; y++)
                out[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x] = eval_f64(c, node, bx, (double)(p->min_y + y), bz);
        }
}

static void *worker64(void *arg)
{
    job64 *j = arg;
    cf_ctx64 *e = ctx64_take(j->w, j->node, j->final); /* the thread's context, from the world's pool */
    if (!e) {
        atomic_store(&j->failed, 1);
        return NULL;
    }
    size_t per = (size_t)j->w->prog->height * 256;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || atomic_load(&j->failed)) break;
        if (j->w->prog->dialect == DIALECT_MC121) fill121_chunk(&e->c, e->s, j->node, j->final, j->chunks[2 * i], j->chunks[2 * i + 1], j->out + i * per);
        else fill64_chunk(&e->c, j->node, j->chunks[2 * i], j->chunks[2 * i + 1], j->out + i * per);
    }
    ctx64_give(e);
    return NULL;
}

cf_status fill_chunks(const cf_world *w, int fn, size_t n, const int32_t *chunks, void *out, int threads,
                         cf_error *err)
{
    if (!w || fn < 0 || fn >= w->prog->noutputs || (n && (!chunks || !out)))
        return err_set(err, CF_ERR_ARG, "cf_fill_chunks: bad arguments");
    if (n == 0) return CF_OK;
    cf_status st = chunk_args(w, n, chunks, &threads, err);
    if (st != CF_OK) return st;
    if (w->prog->prec == PREC_F64) {
        job64 j;
        memset(&j, 0, sizeof j);
        j.w = w, j.node = w->prog->outputs[fn], j.n = n, j.chunks = chunks, j.out = out;
        j.final = strcmp(w->prog->output_names[fn], "router:final_density") == 0;
        if (fill_run_threads(worker64, &j, threads) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
        if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
        return CF_OK;
    }
    job j = {w, w->prog->outputs[fn], n, chunks, out, (size_t)w->prog->height * 256, 0, 0, NULL, NULL, 0, NULL, 0, 0, 0, NULL};
    j.threads = threads;
    if (fill_run_threads(worker, &j, threads) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (atomic_load(&j.failed)) return err_set(err, CF_ERR_NOMEM, "out of memory for a fill context");
    return CF_OK;
}

