/* map_device.c - the map layers on an OpenCL device (cf_map_device_*, `render`, `tiles`,
 * `columns`, `serve --http` with --device): what the CPU map path (map.c) would compute per
 * sampled column, filled on the device, then map.c's own scans and colours.
 *
 * Heights: the chunks that hold samples filled on the device (cf_device_fill: the same
 * densities as cf_fill_chunks, bit for bit), each sample's column scanned from the top (or
 * below) down for the first value > 0, as the CPU's surface search; from SAMPLE_STEP blocks
 * between samples a 26.3 program's heights come from the sample kernel instead (device_samples:
 * a work item per sample, the same values), each sample's scan starting below the windows the
 * CPU's column bounds prove <= 0 (proven_top). Blocks (water, blocks,
 * columns): cf_device_fill_blocks, or the surface stage on the device where the settings' rules
 * have an OpenCL form (cf_program_surface_on_device; else the CPU's cf_fill_blocks_surface).
 * Biomes: BiomeManager's zoom picks each sample's quart on the CPU (cf_bz_quart, a few integer
 * operations), the device's climate and tree search gives its biome (cf_biomes_device_quarts).
 * One lock: threads that share a handle take turns on the device.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"
#include "cpu/fill.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"
#include "opencl/device.h"
#include "api/map.h"

struct cf_map_device {
    pthread_mutex_t lock;
    char spec[64];
    const cf_program *prog;
    cf_device *dev;           /* fills of prog: densities, and blocks where prog is a block program */
    cf_biome_device *bdev;    /* biomes of bsrc at the seed it had when opened */
    const cf_biomes *bsrc;
    const cf_world *bworld;   /* bsrc's climate world and zoom seed then: another means reopen */
    int64_t bzseed;
};

cf_status cf_map_device_open(cf_map_device **out, const char *spec, const cf_program *prog, cf_error *err)
{
    if (!out || !spec || !prog) return err_set(err, CF_ERR_ARG, "cf_map_device_open: bad arguments");
    *out = NULL;
    if (strlen(spec) >= sizeof((cf_map_device *)0)->spec) return err_set(err, CF_ERR_ARG, "device '%.60s...': too long", spec);
    cf_map_device *d = calloc(1, sizeof *d);
    if (!d) return err_set(err, CF_ERR_NOMEM, "out of memory");
    snprintf(d->spec, sizeof d->spec, "%s", spec);
    d->prog = prog;
    cf_status st = device_open(&d->dev, spec, prog, 0, 0, err);
    if (st != CF_OK) {
        free(d);
        return st;
    }
    pthread_mutex_init(&d->lock, NULL);
    *out = d;
    return CF_OK;
}

void cf_map_device_free(cf_map_device *d)
{
    if (!d) return;
    device_free(d->dev);
    biome_device_free(d->bdev);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

const char *cf_map_device_name(const cf_map_device *d) { return d ? device_name(d->dev) : ""; }

static cf_status check_world(const cf_map_device *d, const cf_world *w, cf_error *err)
{
    if (w->prog != d->prog)
        return err_set(err, CF_ERR_ARG, "%s: the map device was opened for another program (cf_map_device_open)",
                       w->prog->settings_id ? w->prog->settings_id : "program");
    return CF_OK;
}

/* mapdev_heights' fills and scans: a chunk's densities ([y][z][x], float or double) on the
 * device; a sample's height the first value > 0 from ymax down (min_y - 1 where none), as the
 * CPU's surface search: kernels/cf_colscan.h over the column (rows of one, read from the chunk) */
typedef struct heights_fns {
    cf_map_device *d;
    const cf_world *w;
    int f64;
    int64_t ymax;
    int32_t *out;
} heights_fns;
typedef struct chunk_col {
    const uint8_t *chunk;
    int f64, miny, lx, lz;
} chunk_col;
static double chunk_value(const chunk_col *c, int32_t y)
{
    size_t at = ((size_t)(y - c->miny) * 16 + (size_t)c->lz) * 16 + (size_t)c->lx;
    return c->f64 ? ((const double *)(const void *)c->chunk)[at] : (double)((const float *)(const void *)c->chunk)[at];
}
#define CF_CS_CTX const chunk_col *cc
#define CF_CS_ARG cc
#define CF_CS_T double
#define CF_CS_ROW(y, first) ((void)(first), chunk_value(cc, (y)))
#include "kernels/cf_colscan.h"

static cf_status heights_fill(void *ctx, size_t n, const int32_t *list, uint8_t *buf, cf_error *err)
{
    const heights_fns *c = ctx;
    pthread_mutex_lock(&c->d->lock);
    cf_status st = device_fill(c->d->dev, c->w, n, list, buf, err);
    pthread_mutex_unlock(&c->d->lock);
    return st;
}
static void heights_each(void *ctx, const uint8_t *chunk, size_t o, int lx, int lz)
{
    const heights_fns *c = ctx;
    const cf_program *p = c->w->prog;
    chunk_col cc = {chunk, c->f64, p->min_y, lx, lz};
    c->out[o] = cf_colscan(&cc, p->min_y, p->min_y + p->height - 1, (int32_t)(c->ymax < p->min_y - 1 ? p->min_y - 1 : c->ymax), 1);
}

/* samples a device call takes (between two looks at cancel) */
enum { SAMPLE_BATCH = 4096 };

/* the sample kernel (k_map_samples, a work item per sample): 26.3 float programs, from this step on
 * (below it neighbouring samples share a chunk's cell corners) */
enum { SAMPLE_STEP = 8 };

/* the highest row <= ymax of column (x, z) that the CPU's column bounds (host/cpu/bounds.c) do
 * not prove <= 0: the windows above it need not be computed (proven: no value there is > 0, so
 * the scan from it finds the same top). Spans of 8 windows from the top, then 2, then none, as
 * the CPU's surface search (heights.c surface_scan) tries them; min_y - 1 where all are proven */
static int32_t proven_top(cf_fill *f, cf_hbound *hb, int node, int32_t wh, int32_t x, int32_t z, int32_t ymax)
{
    const cf_program *p = f->w->prog;
    if (!hb || ymax < p->min_y) return ymax;
    fill_region(f, x, p->min_y, z);
    hbound_region(hb);
    int64_t top = ymax;
    for (int span = 8; top >= p->min_y;) {
        int64_t lo = cf_floordiv(top, wh) * wh - (int64_t)(span - 1) * wh;
        if (lo < p->min_y) lo = p->min_y;
        if (hbound_nonpos(hb, f, node, x, z, (int32_t)lo, (int32_t)top)) {
            top = lo - 1;
            continue;
        }
        if (span <= 2) break;
        span /= 4;
    }
    return (int32_t)top;
}

static cf_status heights_samples(cf_map_device *d, const cf_world *w, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                                 int32_t ymax, int32_t *out, const cf_map_cancel *cancel, cf_error *err)
{
    const cf_program *p = w->prog;
    size_t n = (size_t)nx * (size_t)nz;
    int32_t *xzy = malloc(sizeof(int32_t) * 3 * (n < SAMPLE_BATCH ? n : SAMPLE_BATCH));
    cf_fill *f = fill_take(w, 1, p->height, 1);
    cf_hbound *hb = getenv("CF_NO_COLUMN_BOUNDS") ? NULL : hbound_new(p);
    int32_t wh = fill_window_rows(p);
    cf_status st = CF_OK;
    if (!xzy || !f) {
        hbound_free(hb);
        if (f) fill_give(f);
        free(xzy);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    for (size_t at = 0; at < n && st == CF_OK; at += SAMPLE_BATCH) {
        size_t m = n - at < SAMPLE_BATCH ? n - at : SAMPLE_BATCH;
        if (map_cancelled(cancel, err)) {
            st = CF_ERR_LIMIT;
            break;
        }
        for (size_t i = 0; i < m; i++) {
            size_t k = at + i;
            int32_t x = (int32_t)((int64_t)x0 + (int64_t)(k % (size_t)nx) * step);
            int32_t z = (int32_t)((int64_t)z0 + (int64_t)(k / (size_t)nx) * step);
            xzy[3 * i] = x, xzy[3 * i + 1] = z, xzy[3 * i + 2] = proven_top(f, hb, p->outputs[0], wh, x, z, ymax);
        }
        pthread_mutex_lock(&d->lock);
        st = device_samples(d->dev, w, m, xzy, out + at, err);
        pthread_mutex_unlock(&d->lock);
        if (st == CF_OK) map_progress(cancel, "heights", (int64_t)(at + m), (int64_t)n);
    }
    hbound_free(hb);
    if (f) fill_give(f);
    free(xzy);
    return st;
}

cf_status mapdev_heights(cf_map_device *d, const cf_world *w, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                         int32_t below, int32_t *out, const cf_map_cancel *cancel, cf_error *err)
{
    cf_status st = check_world(d, w, err);
    if (st != CF_OK) return st;
    const cf_program *p = w->prog;
    int64_t ymax = (int64_t)p->min_y + p->height - 1 < below ? (int64_t)p->min_y + p->height - 1 : below;
    if (p->prec != PREC_F64 && step >= SAMPLE_STEP)
        return heights_samples(d, w, x0, z0, step, nx, nz, (int32_t)(ymax < p->min_y - 1 ? p->min_y - 1 : ymax), out, cancel, err);
    heights_fns c = {d, w, p->prec == PREC_F64, ymax, out};
    map_batch_fns fns = {heights_fill, heights_each, &c};
    return map_chunk_batches(x0, z0, step, nx, nz, 64, (size_t)p->height * 256 * (c.f64 ? sizeof(double) : sizeof(float)), &fns,
                             cancel, err);
}

cf_status mapdev_blocks(cf_map_device *d, const cf_world *w, cf_biomes *biomes, size_t n, const int32_t *chunks, uint8_t *out,
                        int threads, cf_error *err)
{
    cf_status st = check_world(d, w, err);
    if (st != CF_OK) return st;
    /* the internal block indices (CF_BK_*, surface_palette), as map.c's CPU fills */
    if (biomes && !cf_program_surface_on_device(w->prog)) /* 26.3 material rules: no OpenCL form, the CPU */
        return api_fill_blocks_surface(w, biomes, n, chunks, NULL, out, threads, err);
    pthread_mutex_lock(&d->lock);
    st = biomes ? api_device_fill_blocks_surface(d->dev, w, biomes, n, chunks, NULL, out, err)
                : device_fill_blocks(d->dev, w, n, chunks, out, err);
    pthread_mutex_unlock(&d->lock);
    return st;
}

cf_status mapdev_biomes(cf_map_device *d, cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err)
{
    int32_t *q = malloc(sizeof(int32_t) * 3 * (n ? n : 1));
    if (!q) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) cf_bz_quart(b->zseed, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], q + 3 * i);
    cf_status st = CF_OK;
    pthread_mutex_lock(&d->lock);
    if (!d->bdev || d->bsrc != b || d->bworld != b->w || d->bzseed != b->zseed) { /* another source or seed: reopen */
        biome_device_free(d->bdev);
        d->bdev = NULL, d->bsrc = NULL;
        if ((st = biome_device_open(&d->bdev, d->spec, b, err)) == CF_OK) d->bsrc = b, d->bworld = b->w, d->bzseed = b->zseed;
    }
    if (st == CF_OK) st = biome_device_quarts(d->bdev, n, q, out, err);
    pthread_mutex_unlock(&d->lock);
    free(q);
    return st;
}
