/* map.c - map layers (`render --layer`, `tiles`, `serve --http`): per sampled column
 * what a layer needs (surface heights, the noise stage's blocks), then its colours.
 *
 * One table, a row per layer: its name, what it needs per column and how it
 * colours. A map with first column (x0, z0) and step s has pixel (i, k) at column
 * (x0 + i*s, z0 + k*s). Heights come from cf_surface_samples (only the sampled
 * columns are computed); blocks from cf_fill_blocks of the chunks holding samples,
 * a bounded batch at a time; biomes (the biomes layer) from cf_biomes_blocks at each
 * column's surface block, rows shared among threads. Allocates per call: the per-column
 * arrays and one batch.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"
#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"
#include "biome/biome.h"
#include "kernels/cf_aquifer.h"
#include "api/map.h"

/* what a layer gathers per column (internal: the public CF_MAP_* say what it needs) */
enum { G_HEIGHTS = 1, G_BLOCKS = 2, G_SURFACE = 4, G_BIOMES = 8 };

/* per sampled column: what the layers need */
typedef struct map_cols {
    int32_t *ground; /* the top solid block (min_y - 1 where none) */
    int32_t *top;    /* G_BLOCKS: the top block that is not air */
    uint8_t *kind;   /* G_BLOCKS: IMAGE_LAND, _WATER, _LAVA or _VOID */
    uint8_t *blk;    /* G_BLOCKS: the top block's palette index (air where none) */
    uint8_t *biome;  /* G_BIOMES: palette index of the biome at the surface block */
    const char **names;  /* G_BIOMES: the biome source's palette */
    const char **bnames; /* G_BLOCKS: the block palette (cf_block_palette) */
    cf_map_stats *stats; /* may be NULL */
} map_cols;

static void colour_relief(map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    image_relief_sea(c->ground, nx, nz, p->min_y, p->height, p->sea_level, image_sea_of(p->default_fluid), rgb);
}

static void colour_water(map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    image_relief_fluids(c->ground, c->top, c->kind, nx, nz, p->min_y, p->height, p->sea_level, rgb);
}

/* the biome colour table's colour per pixel, shaded as the relief (in place: image_shade
 * reads pixel i's base before writing pixel i) */
static void colour_biomes(map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    size_t n = (size_t)nx * (size_t)nz;
    for (size_t i = 0; i < n; i++) image_biome_colour(c->names[c->biome[i]], rgb + 3 * i);
    image_shade(c->ground, rgb, nx, nz, p->sea_level, rgb);
    for (size_t i = 0; i < n; i++) /* a column without blocks (the End's void) has its biome, but shows the void */
        if (c->ground[i] < p->min_y) memcpy(rgb + 3 * i, image_void_rgb, 3);
}

/* the block colour table's colour of the top block, shaded by the heights of the top blocks
 * (fluids included: water is flat); columns without blocks are the void's colour, unshaded */
static void colour_blocks(map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    size_t n = (size_t)nx * (size_t)nz;
    for (size_t i = 0; i < n; i++) {
        if (c->kind[i] == IMAGE_VOID) continue;
        if (!image_block_colour(c->bnames[c->blk[i]], rgb + 3 * i) && c->stats) {
            if (!c->stats->unknown_blocks)
                snprintf(c->stats->first_unknown, sizeof c->stats->first_unknown, "%s", c->bnames[c->blk[i]]);
            c->stats->unknown_blocks++;
        }
    }
    image_shade(c->top, rgb, nx, nz, p->sea_level, rgb);
    for (size_t i = 0; i < n; i++)
        if (c->kind[i] == IMAGE_VOID) memcpy(rgb + 3 * i, image_void_rgb, 3);
}

static const struct map_layer {
    const char *name;
    int needs;  /* CF_MAP_* */
    int gather; /* G_* */
    const char *summary;
    void (*colour)(map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb);
} layers[] = {
    {"relief", CF_MAP_HEIGHTS, G_HEIGHTS,
     "shaded relief of the exact surface (the top block whose final density is > 0); below sea level the "
     "settings' default fluid: blue water, orange lava (the nether), none (the End: columns without blocks near black)",
     colour_relief},
    {"water", CF_MAP_BLOCKS, G_BLOCKS,
     "shaded relief of the noise stage's blocks: water where the aquifer puts it (lakes above sea level, dry "
     "caves below), lava orange, columns without blocks (the End's void) near black",
     colour_water},
    {"biomes", CF_MAP_HEIGHTS | CF_MAP_BIOMES, G_HEIGHTS | G_BIOMES,
     "biome colours (cubiomes' scheme) of the biome at the surface block (x, height, z) through the game's zoom, "
     "shaded as the relief; columns without blocks (the End's void) near black",
     colour_biomes},
    {"blocks", CF_MAP_BLOCKS | CF_MAP_BIOMES | CF_MAP_SURFACE, G_BLOCKS | G_SURFACE,
     "the colour of the top block that is not air after the surface stage (grass, sand, terracotta, snow, "
     "water, lava...; the noise stage's where the settings have no surface rule), chunkfill's own colour "
     "per block id (unknown ids magenta), shaded by the top blocks' heights; void near black",
     colour_blocks},
};
enum { NLAYERS = sizeof layers / sizeof layers[0] };

const char *cf_map_layer(int i, int *needs, const char **summary)
{
    if (i < 0 || i >= NLAYERS) return NULL;
    if (needs) *needs = layers[i].needs;
    if (summary) *summary = layers[i].summary;
    return layers[i].name;
}

int cf_map_layer_find(const char *name)
{
    for (int i = 0; name && i < NLAYERS; i++)
        if (strcmp(layers[i].name, name) == 0) return i;
    return -1;
}

static int is_fluid(int v) { return v == CF_BK_WATER || v == CF_BK_LAVA || v == CF_BK_FLUID; }

/* the block at (lx, y, lz) of a chunk's blocks */
#define BLOCK_AT(p, b, lx, y, lz) ((b)[((size_t)((y) - (p)->min_y) * 16 + (size_t)(lz)) * 16 + (size_t)(lx)])

/* one column's blocks: the block (palette index) at y, min_y <= y < min_y + height; from a
 * filled chunk (chunk_get) or one column alone (cpu/colblocks.c) */
typedef int (*block_get)(void *src, int32_t y);
typedef struct chunk_col {
    const cf_program *p;
    const uint8_t *b;
    int lx, lz;
} chunk_col;
static int chunk_get(void *src, int32_t y)
{
    const chunk_col *c = src;
    return BLOCK_AT(c->p, c->b, c->lx, y, c->lz);
}
static int colblk_get_fn(void *src, int32_t y) { return colblk_get(src, y); }

/* one column: from the top (or below), the first block that is not air decides top, blk and
 * kind; ground is the top block that is neither air nor fluid under it (the fluid's floor
 * minus one where air is under the fluid) */
static void scan_column(const cf_program *p, block_get get, void *src, int32_t below, map_cols *c, size_t o)
{
    int64_t ymax = (int64_t)p->min_y + p->height - 1 < below ? (int64_t)p->min_y + p->height - 1 : below;
    c->ground[o] = p->min_y - 1, c->top[o] = p->min_y - 1, c->kind[o] = IMAGE_VOID;
    if (c->blk) c->blk[o] = CF_BK_AIR;
    int fluid = -1;
    for (int64_t y = ymax; y >= p->min_y; y--) {
        int v = get(src, (int32_t)y);
        if (v == CF_BK_AIR) {
            if (fluid >= 0) break; /* air under a fluid: the fluid's floor is open */
            continue;
        }
        if (!is_fluid(v)) {
            c->ground[o] = (int32_t)y;
            if (fluid < 0) {
                c->top[o] = (int32_t)y, c->kind[o] = IMAGE_LAND;
                if (c->blk) c->blk[o] = (uint8_t)v;
            }
            return;
        }
        if (fluid < 0) {
            fluid = v;
            c->top[o] = (int32_t)y;
            c->kind[o] = v == CF_BK_LAVA ? IMAGE_LAVA : IMAGE_WATER;
            if (c->blk) c->blk[o] = (uint8_t)v;
        }
        c->ground[o] = (int32_t)y - 1;
    }
}

/* the chunks along one axis that hold samples first + k*step, increasing */
static size_t axis_chunks(int32_t first, int32_t step, int32_t n, int32_t *out)
{
    size_t m = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t c = (int32_t)cf_floordiv((int64_t)first + (int64_t)k * step, 16);
        if (m == 0 || out[m - 1] != c) out[m++] = c;
    }
    return m;
}

/* what a block gather does with one sampled column: sample o, its blocks through get(src, y) */
typedef void (*column_fn)(void *ctx, const cf_program *p, block_get get, void *src, size_t o);

cf_status map_chunk_batches(int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz, size_t batch, size_t per,
                            const map_batch_fns *fns, const cf_map_cancel *cancel, cf_error *err)
{
    int32_t *cxs = malloc(sizeof(int32_t) * (size_t)nx), *czs = malloc(sizeof(int32_t) * (size_t)nz);
    int32_t *list = malloc(sizeof(int32_t) * 2 * batch);
    uint8_t *b = malloc(per * batch);
    cf_status st = CF_OK;
    if (!cxs || !czs || !list || !b) {
        st = err_set(err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    size_t ncx = axis_chunks(x0, step, nx, cxs), ncz = axis_chunks(z0, step, nz, czs);
    for (size_t q = 0; q < ncx * ncz && st == CF_OK; q += batch) {
        size_t n = ncx * ncz - q < batch ? ncx * ncz - q : batch;
        if (map_cancelled(cancel, err)) {
            st = CF_ERR_LIMIT;
            break;
        }
        for (size_t i = 0; i < n; i++) list[2 * i] = cxs[(q + i) % ncx], list[2 * i + 1] = czs[(q + i) / ncx];
        if ((st = fns->fill(fns->ctx, n, list, b, err)) != CF_OK) break;
        for (size_t i = 0; i < n; i++) {
            int64_t cx = list[2 * i], cz = list[2 * i + 1];
            /* the samples in this chunk: the first index at or after its first block */
            int64_t kz0 = cz * 16 - z0 <= 0 ? 0 : (cz * 16 - z0 + step - 1) / step;
            int64_t ix0 = cx * 16 - x0 <= 0 ? 0 : (cx * 16 - x0 + step - 1) / step;
            for (int64_t k = kz0; k < nz && z0 + k * step < cz * 16 + 16; k++)
                for (int64_t ii = ix0; ii < nx && x0 + ii * step < cx * 16 + 16; ii++)
                    fns->each(fns->ctx, b + i * per, (size_t)k * (size_t)nx + (size_t)ii, (int)(x0 + ii * step - cx * 16),
                              (int)(z0 + k * step - cz * 16));
        }
        map_progress(cancel, "blocks", (int64_t)(q + n), (int64_t)(ncx * ncz));
    }
done:
    free(cxs), free(czs), free(list), free(b);
    return st;
}

/* gather_blocks' fills and columns */
typedef struct blocks_fns {
    const cf_world *w;
    cf_biomes *biomes;
    int threads;
    cf_map_device *dev;
    column_fn fn;
    void *ctx;
} blocks_fns;
static cf_status blocks_fill(void *ctx, size_t n, const int32_t *list, uint8_t *b, cf_error *err)
{
    const blocks_fns *c = ctx;
    return c->dev      ? mapdev_blocks(c->dev, c->w, c->biomes, n, list, b, c->threads, err)
           : c->biomes ? api_fill_blocks_surface(c->w, c->biomes, n, list, NULL, b, c->threads, err)
                       : fill_chunks_blocks(c->w, n, list, NULL, b, c->threads, err);
}
static void blocks_each(void *ctx, const uint8_t *chunk, size_t o, int lx, int lz)
{
    const blocks_fns *c = ctx;
    chunk_col cc = {c->w->prog, chunk, lx, lz};
    c->fn(c->ctx, c->w->prog, chunk_get, &cc, o);
}

/* every sampled column of the blocks of the chunks holding samples (the surface stage's
 * where biomes is given, else the noise stage's), at most BATCH chunks per call */
static cf_status gather_blocks(const cf_world *w, cf_biomes *biomes, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                               int32_t nz, column_fn fn, void *ctx, int threads, cf_map_device *dev, const cf_map_cancel *cancel,
                               cf_error *err)
{
    blocks_fns c = {w, biomes, threads, dev, fn, ctx};
    map_batch_fns fns = {blocks_fill, blocks_each, &c};
    return map_chunk_batches(x0, z0, step, nx, nz, 32, (size_t)w->prog->height * 256, &fns, cancel, err);
}

typedef struct scan_ctx {
    map_cols *c;
    int32_t below;
} scan_ctx;

static void scan_fn(void *ctx, const cf_program *p, block_get get, void *src, size_t o)
{
    scan_ctx *s = ctx;
    scan_column(p, get, src, s->below, s->c, o);
}

/* the y the biome of a column is taken at: its surface block, clamped into the source's range */
static int32_t biome_y(const cf_biomes *b, int32_t h)
{
    int min_y, height;
    cf_biomes_range(b, &min_y, &height);
    if (h < min_y) return min_y;
    if ((int64_t)h > (int64_t)min_y + height - 1) return (int32_t)((int64_t)min_y + height - 1);
    return h;
}

/* rows of samples shared among threads: row(ctx, tls, k, err) for each row k < nz, tls a
 * thread's scratch from tls_new(ctx) (NULL: out of memory), freed by tls_free; the cancel
 * hook asked before each row; the first failure is reported */
typedef struct row_job {
    cf_status (*row)(void *ctx, void *tls, int32_t k, cf_error *err);
    void *(*tls_new)(void *ctx);
    void (*tls_free)(void *tls);
    void *ctx;
    int32_t nz;
    int32_t next; /* the next row to take (atomic) */
    const cf_map_cancel *cancel;
    const char *stage;  /* for the progress hook */
    int32_t done;       /* rows done (atomic) */
    pthread_t caller;   /* the thread that reports them */
    int failed;   /* set once by the first thread that fails (atomic) */
    cf_status st;
    cf_error err;
} row_job;

static void *row_thread(void *arg)
{
    row_job *j = arg;
    void *tls = j->tls_new(j->ctx);
    cf_error err = {0};
    cf_status st = CF_OK;
    if (!tls) st = err_set(&err, CF_ERR_NOMEM, "out of memory");
    for (int32_t k; tls && st == CF_OK && (k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->nz;) {
        if (map_cancelled(j->cancel, &err)) {
            st = CF_ERR_LIMIT;
            break;
        }
        st = j->row(j->ctx, tls, k, &err);
        int32_t d = __atomic_add_fetch(&j->done, 1, __ATOMIC_RELAXED);
        if (st == CF_OK && pthread_equal(pthread_self(), j->caller)) map_progress(j->cancel, j->stage, d, j->nz);
    }
    if (tls) j->tls_free(tls);
    if (st != CF_OK) {
        __atomic_store_n(&j->next, j->nz, __ATOMIC_RELAXED);
        int expect = 0; /* the first failure is reported */
        if (__atomic_compare_exchange_n(&j->failed, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            j->st = st, j->err = err;
    }
    return NULL;
}

static cf_status rows_run(row_job *j, int threads, cf_error *err)
{
    enum { MAXT = 64 };
    if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads > MAXT) threads = MAXT;
    if (threads > j->nz) threads = j->nz;
    if (threads < 1) threads = 1;
    pthread_t th[MAXT];
    int started = 0;
    j->caller = pthread_self();
    for (; started < threads - 1; started++)
        if (pthread_create(&th[started], NULL, row_thread, j) != 0) break;
    row_thread(j);
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    if (j->st != CF_OK) return *err = j->err, j->st;
    return CF_OK;
}

/* CF_MAP_BIOMES: the biome at each sampled column's surface block, a row at a time */
typedef struct biome_ctx {
    cf_biomes *b;
    const int32_t *ground;
    uint8_t *out;
    int32_t x0, z0, step, nx;
} biome_ctx;

static void *biome_tls(void *ctx) { return malloc(sizeof(int32_t) * 3 * (size_t)((biome_ctx *)ctx)->nx); }

static cf_status biome_row(void *ctx, void *tls, int32_t k, cf_error *err)
{
    const biome_ctx *j = ctx;
    int32_t *xyz = tls;
    size_t row = (size_t)k * (size_t)j->nx;
    for (int32_t i = 0; i < j->nx; i++) {
        xyz[3 * i] = (int32_t)((int64_t)j->x0 + (int64_t)i * j->step);
        xyz[3 * i + 1] = biome_y(j->b, j->ground[row + (size_t)i]);
        xyz[3 * i + 2] = (int32_t)((int64_t)j->z0 + (int64_t)k * j->step);
    }
    return cf_biomes_blocks(j->b, (size_t)j->nx, xyz, j->out + row, err);
}

static cf_status gather_biomes(cf_biomes *b, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                               const int32_t *ground, uint8_t *out, int threads, cf_map_device *dev, const cf_map_cancel *cancel,
                               cf_error *err)
{
    if (dev) { /* every sample in one call: the device's lookups */
        size_t n = (size_t)nx * (size_t)nz;
        int32_t *xyz = malloc(sizeof(int32_t) * 3 * n);
        if (!xyz) return err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
        for (size_t o = 0; o < n; o++) {
            xyz[3 * o] = (int32_t)((int64_t)x0 + (int64_t)(o % (size_t)nx) * step);
            xyz[3 * o + 1] = biome_y(b, ground[o]);
            xyz[3 * o + 2] = (int32_t)((int64_t)z0 + (int64_t)(o / (size_t)nx) * step);
        }
        cf_status st = map_cancelled(cancel, err) ? CF_ERR_LIMIT : mapdev_biomes(dev, b, n, xyz, out, err);
        free(xyz);
        return st;
    }
    biome_ctx c = {b, ground, out, x0, z0, step, nx};
    row_job j = {.row = biome_row, .tls_new = biome_tls, .tls_free = free, .ctx = &c, .nz = nz, .cancel = cancel, .stage = "biomes"};
    return rows_run(&j, threads, err);
}

/* the blocks of sampled columns one column at a time (cpu/colblocks.c, where colblk_serves:
 * no chunk is filled), each column's height given: the noise stage's, or with a biome source
 * the surface stage's after it (surface.c surface_column, the stored biomes of the quarts its
 * zoom reads from biome_quart_stored); a column the path cannot answer exactly (colblk_surface,
 * a biome tie) takes its chunk's cf_fill_blocks_surface. fn per sample */
typedef struct colblk_ctx {
    const cf_world *w;
    cf_biomes *biomes; /* the surface stage's, or NULL */
    const int32_t *height;
    int32_t x0, z0, step, nx, below;
    column_fn fn;
    void *fctx;
    cf_map_stats *stats; /* chunk_columns counts the columns that took their chunk (may be NULL) */
} colblk_ctx;

enum { TIE_CHUNKS = 4, QC_BITS = 12, QC_SLOTS = 1 << QC_BITS }; /* qc: the quarts of the last rows of samples */
typedef struct colblk_tls {
    cf_colblk *c;
    cf_surface *s;  /* with biomes */
    cf_biomes *b;   /* with biomes */
    cf_bquart *bq;  /* with biomes */
    uint8_t *chunk; /* a chunk's blocks where the column alone is not exact, made on first use */
    int tie;        /* a quart's leaves tied and its chunk's biomes could not be made (quart_of) */
    struct { int32_t q[3]; int v; } qc[QC_SLOTS]; /* the quarts asked, direct-mapped (v -2: empty) */
    /* the stored biomes of chunks that hold a tied quart (cf_fill_biomes), round robin */
    struct { int32_t cx, cz; uint8_t *bio; } tc[TIE_CHUNKS];
    int nexttc;
} colblk_tls;

static void colblk_tls_free(void *tls)
{
    colblk_tls *t = tls;
    colblk_free(t->c);
    surface_free(t->s);
    biome_quart_free(t->bq);
    free(t->chunk);
    for (int k = 0; k < TIE_CHUNKS; k++) free(t->tc[k].bio);
    free(t);
}

static void *colblk_tls_new(void *ctx)
{
    const colblk_ctx *j = ctx;
    colblk_tls *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    for (int k = 0; k < QC_SLOTS; k++) t->qc[k].v = -2;
    t->c = colblk_new(j->w);
    if (j->biomes) {
        t->s = surface_new(j->w, NULL, (const char *const *)j->biomes->pal, j->biomes->npal, j->biomes->zseed);
        t->bq = biome_quart_new(j->biomes);
        t->b = j->biomes;
    }
    if (!t->c || (j->biomes && (!t->s || !t->bq))) {
        colblk_tls_free(t);
        return NULL;
    }
    return t;
}

/* the stored biome of a quart whose leaves tie: its chunk's biomes as a chunk fill makes them
 * (cf_fill_biomes: the search's order within the chunk decides a tie), kept for the next
 * columns; -1 where they could not be made */
static int tied_quart(colblk_tls *t, int32_t qx, int32_t qy, int32_t qz)
{
    int32_t c[2] = {qx >> 2, qz >> 2}, ry = qy - (t->b->min_y >> 2);
    if (ry < 0 || ry >= t->b->height / 4) return -1;
    int k = 0;
    while (k < TIE_CHUNKS && !(t->tc[k].bio && t->tc[k].cx == c[0] && t->tc[k].cz == c[1])) k++;
    if (k == TIE_CHUNKS) {
        k = t->nexttc++ % TIE_CHUNKS;
        if (!t->tc[k].bio && !(t->tc[k].bio = malloc((size_t)t->b->height / 4 * 16))) return -1;
        cf_error err = {0};
        if (cf_fill_biomes(t->b, 1, c, t->tc[k].bio, 1, &err) != CF_OK) {
            free(t->tc[k].bio), t->tc[k].bio = NULL;
            return -1;
        }
        t->tc[k].cx = c[0], t->tc[k].cz = c[1];
    }
    return t->tc[k].bio[((size_t)ry * 4 + (size_t)(qz & 3)) * 4 + (size_t)(qx & 3)];
}

/* colblk_surface's quart hook: the stored biome of a quart (remembered: a column's zoom reads
 * the same few quarts again and again); a tie takes the quart's chunk's biomes (tied_quart),
 * and where those fail marks the column */
static int quart_of(void *u, int32_t qx, int32_t qy, int32_t qz)
{
    colblk_tls *t = u;
    uint32_t h = ((uint32_t)qx * 0x9E3779B1u ^ (uint32_t)qy * 0x85EBCA6Bu ^ (uint32_t)qz * 0xC2B2AE35u) >> (32 - QC_BITS);
    int v;
    if (t->qc[h].v != -2 && t->qc[h].q[0] == qx && t->qc[h].q[1] == qy && t->qc[h].q[2] == qz) {
        v = t->qc[h].v;
    } else {
        int32_t q[3] = {qx, qy, qz};
        v = biome_quart_stored(t->bq, q);
        if (v < 0) v = tied_quart(t, qx, qy, qz);
        t->qc[h].q[0] = qx, t->qc[h].q[1] = qy, t->qc[h].q[2] = qz, t->qc[h].v = v;
    }
    if (v < 0) t->tie = 1, v = 0; /* a remembered failure marks this column too */
    return v;
}

static cf_status colblk_row(void *ctx, void *tls, int32_t k, cf_error *err)
{
    const colblk_ctx *j = ctx;
    colblk_tls *t = tls;
    const cf_program *p = j->w->prog;
    for (int32_t i = 0; i < j->nx; i++) {
        size_t o = (size_t)k * (size_t)j->nx + (size_t)i;
        int32_t x = (int32_t)((int64_t)j->x0 + (int64_t)i * j->step), z = (int32_t)((int64_t)j->z0 + (int64_t)k * j->step);
        colblk_column(t->c, x, z, j->height[o], j->below);
        if (!j->biomes) {
            j->fn(j->fctx, p, colblk_get_fn, t->c, o);
            continue;
        }
        t->tie = 0;
        if (!colblk_surface(t->c, t->s, quart_of, t) && !t->tie) {
            j->fn(j->fctx, p, colblk_get_fn, t->c, o);
            continue;
        }
        /* the chunk's fill */
        if (j->stats) __atomic_fetch_add(&j->stats->chunk_columns, 1, __ATOMIC_RELAXED);
        if (!t->chunk && !(t->chunk = malloc((size_t)p->height * 256))) return err_set(err, CF_ERR_NOMEM, "out of memory");
        int32_t c[2] = {(int32_t)cf_floordiv(x, 16), (int32_t)cf_floordiv(z, 16)};
        cf_status st = api_fill_blocks_surface(j->w, j->biomes, 1, c, NULL, t->chunk, 1, err);
        if (st != CF_OK) return st;
        chunk_col cc = {p, t->chunk, x & 15, z & 15};
        j->fn(j->fctx, p, chunk_get, &cc, o);
    }
    return CF_OK;
}

static cf_status gather_columns(const cf_world *w, cf_biomes *biomes, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                                int32_t below, const int32_t *height, column_fn fn, void *fctx, cf_map_stats *stats, int threads,
                                const cf_map_cancel *cancel, cf_error *err)
{
    colblk_ctx c = {w, biomes, height, x0, z0, step, nx, below, fn, fctx, stats};
    row_job j = {.row = colblk_row, .tls_new = colblk_tls_new, .tls_free = colblk_tls_free, .ctx = &c, .nz = nz, .cancel = cancel,
                 .stage = "blocks"};
    return rows_run(&j, threads, err);
}

/* samples this many blocks apart or more take the per-column path where it serves the program
 * (at 1 block a sample a chunk holds every column and filling it whole is cheaper: 128 x 128
 * samples of blocks took 0.39 CPU s per column against 0.30 in chunks; at 2 blocks 0.64 against
 * 1.12, at 4 0.83 against 5.40, bench/RESULTS.md "Blocks and water per column from level 1") */
enum { COLUMN_STEP = 2 };
static int per_column(const cf_program *p, int32_t step, int32_t nx, int32_t nz)
{
    return (step >= COLUMN_STEP || (nx == 1 && nz == 1)) && colblk_serves(p);
}

cf_status cf_map_draw(const cf_world *w, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                      int32_t below, uint8_t *rgb, int32_t *heights, int threads, cf_error *err)
{
    return cf_map_draw_stats(w, NULL, layer, x0, z0, step, nx, nz, below, rgb, heights, NULL, threads, err);
}

cf_status cf_map_draw_biomes(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                             int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, int threads, cf_error *err)
{
    return cf_map_draw_stats(w, biomes, layer, x0, z0, step, nx, nz, below, rgb, heights, NULL, threads, err);
}

/* the arguments every map call checks: the world, the grid of samples and its coordinates */
static cf_status check_grid(const cf_world *w, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz, const char *what,
                            cf_error *err)
{
    if (!w || step <= 0 || nx <= 0 || nz <= 0 || nx > IMAGE_MAX_SIDE || nz > IMAGE_MAX_SIDE ||
        (uint64_t)nx * (uint64_t)nz > (UINT64_C(1) << 28))
        return err_set(err, CF_ERR_ARG, "%s: bad arguments", what);
    int64_t lim = (int64_t)CF_MAX_CHUNK * 16;
    if (x0 < -lim || z0 < -lim || (int64_t)x0 + (int64_t)(nx - 1) * step > lim + 15 ||
        (int64_t)z0 + (int64_t)(nz - 1) * step > lim + 15)
        return err_set(err, CF_ERR_ARG, "area outside the block coordinate range");
    return CF_OK;
}

void map_progress(const cf_map_cancel *c, const char *stage, int64_t done, int64_t total)
{
    if (c && c->progress) c->progress(c->progress_ctx, stage, done, total);
}

int map_cancelled(const cf_map_cancel *c, cf_error *err)
{
    if (!c || !c->stop || !c->stop(c->ctx)) return 0;
    err_set(err, CF_ERR_LIMIT, "cancelled");
    return 1;
}

/* the heights of the samples, a band of rows at a time where a cancel hook is given (the
 * hook is asked between bands; every column is computed alone, so the bands change nothing) */
static cf_status surface_bands(const cf_world *w, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz, int32_t below,
                               int32_t *out, int threads, const cf_map_cancel *cancel, cf_error *err)
{
    if (!cancel) return cf_surface_samples(w, 0, x0, z0, step, nx, nz, below, out, threads, err);
    int32_t band = step >= 64 ? 4 : 256 / step; /* whole chunk rows: 256 blocks at most, 4 rows at least */
    for (int32_t k = 0; k < nz; k += band) {
        if (map_cancelled(cancel, err)) return CF_ERR_LIMIT;
        int32_t m = nz - k < band ? nz - k : band;
        cf_status st = cf_surface_samples(w, 0, x0, (int32_t)((int64_t)z0 + (int64_t)k * step), step, nx, m, below,
                                          out + (size_t)k * (size_t)nx, threads, err);
        if (st != CF_OK) return st;
        map_progress(cancel, "heights", k + m, nz);
    }
    return CF_OK;
}

cf_status cf_map_draw_stats(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                            int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                            cf_error *err)
{
    return map_draw_cancel(w, biomes, layer, x0, z0, step, nx, nz, below, rgb, heights, stats, threads, NULL, err);
}

cf_status cf_map_draw_progress(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                               int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                               cf_map_progress_fn progress, void *ctx, cf_error *err)
{
    cf_map_cancel hook = {.progress = progress, .progress_ctx = ctx};
    return map_draw_cancel(w, biomes, layer, x0, z0, step, nx, nz, below, rgb, heights, stats, threads, progress ? &hook : NULL, err);
}

cf_status map_draw_cancel(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                          int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                          const cf_map_cancel *cancel, cf_error *err)
{
    return map_draw_on(NULL, w, biomes, layer, x0, z0, step, nx, nz, below, rgb, heights, stats, threads, cancel, err);
}

cf_status cf_map_draw_device(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0,
                             int32_t step, int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights,
                             cf_map_stats *stats, int threads, cf_error *err)
{
    if (!dev) return err_set(err, CF_ERR_ARG, "cf_map_draw_device: bad arguments");
    return map_draw_on(dev, w, biomes, layer, x0, z0, step, nx, nz, below, rgb, heights, stats, threads, NULL, err);
}

cf_status cf_map_draw_device_progress(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int layer, int32_t x0,
                                      int32_t z0, int32_t step, int32_t nx, int32_t nz, int32_t below, uint8_t *rgb,
                                      int32_t *heights, cf_map_stats *stats, int threads, cf_map_progress_fn progress,
                                      void *ctx, cf_error *err)
{
    if (!dev) return err_set(err, CF_ERR_ARG, "cf_map_draw_device: bad arguments");
    cf_map_cancel hook = {.progress = progress, .progress_ctx = ctx};
    return map_draw_on(dev, w, biomes, layer, x0, z0, step, nx, nz, below, rgb, heights, stats, threads, progress ? &hook : NULL, err);
}

cf_status map_draw_on(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step,
                      int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                      const cf_map_cancel *cancel, cf_error *err)
{
    if (layer < 0 || layer >= NLAYERS || !rgb) return err_set(err, CF_ERR_ARG, "cf_map_draw: bad arguments");
    cf_status st = check_grid(w, x0, z0, step, nx, nz, "cf_map_draw", err);
    if (st != CF_OK) return st;
    const struct map_layer *L = &layers[layer];
    const cf_program *p = w->prog;
    if ((L->needs & CF_MAP_BLOCKS) && !p->blocks)
        return err_set(err, CF_ERR_ARG, "%s: the %s layer needs the noise stage's blocks (aquifer), which this graph has not",
                       p->settings_id, L->name);
    int surface = (L->gather & G_SURFACE) && cf_program_has_surface(p);
    if (((L->gather & G_BIOMES) || surface) && !biomes)
        return err_set(err, CF_ERR_ARG, "%s: the %s layer needs a biome source (cf_biomes_open), which was not given",
                       p->settings_id, L->name);
    if (stats) memset(stats, 0, sizeof *stats);
    size_t n = (size_t)nx * (size_t)nz;
    const char *names[CF_BIOME_PALETTE_MAX], *bnames[CF_PALETTE_MAX];
    map_cols c = {heights ? heights : malloc(sizeof(int32_t) * n), NULL, NULL, NULL, NULL, names, bnames, stats};
    if (!c.ground) return err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
    if (L->gather & G_BLOCKS) {
        c.top = malloc(sizeof(int32_t) * n);
        c.kind = malloc(n);
        if (surface || (L->gather & G_SURFACE)) c.blk = malloc(n);
        surface_palette(p, bnames, NULL); /* the internal indices of gather_blocks and colblk */
        scan_ctx sc = {&c, below};
        if (!c.top || !c.kind || ((L->gather & G_SURFACE) && !c.blk))
            st = err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
        else if (!dev && per_column(p, step, nx, nz)) {
            /* each column's height, then its blocks alone (scan_column overwrites ground[o]
             * after colblk_column read it as the height) */
            st = surface_bands(w, x0, z0, step, nx, nz, below, c.ground, threads, cancel, err);
            if (st == CF_OK)
                st = gather_columns(w, surface ? biomes : NULL, x0, z0, step, nx, nz, below, c.ground, scan_fn, &sc, stats,
                                    threads, cancel, err);
        } else {
            st = gather_blocks(w, surface ? biomes : NULL, x0, z0, step, nx, nz, scan_fn, &sc, threads, dev, cancel, err);
            if (stats) stats->chunk_columns = n;
        }
    } else {
        st = dev ? mapdev_heights(dev, w, x0, z0, step, nx, nz, below, c.ground, cancel, err)
                 : surface_bands(w, x0, z0, step, nx, nz, below, c.ground, threads, cancel, err);
    }
    if (st == CF_OK && (L->gather & G_BIOMES)) {
        cf_biomes_palette(biomes, names);
        if (!(c.biome = malloc(n))) st = err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
        else st = gather_biomes(biomes, x0, z0, step, nx, nz, c.ground, c.biome, threads, dev, cancel, err);
    }
    if (st == CF_OK) L->colour(&c, nx, nz, p, rgb);
    if (!heights) free(c.ground);
    free(c.top), free(c.kind), free(c.blk), free(c.biome);
    return st;
}

/* ------------------------------------------------------------------ columns */

typedef struct col_ctx {
    const cf_map_columns *out;
    const int32_t *height;
} col_ctx;

/* the block at the column's surface height and the fluid directly above it, up to its top */
static void column_fn_at(void *ctx, const cf_program *p, block_get get, void *src, size_t o)
{
    const col_ctx *c = ctx;
    int32_t h = c->height[o], top = p->min_y - 1;
    uint8_t blk = CF_BK_AIR, fl = CF_BK_AIR;
    if (h >= p->min_y && (int64_t)h < (int64_t)p->min_y + p->height) blk = (uint8_t)get(src, h);
    for (int64_t y = (int64_t)h + 1 < p->min_y ? p->min_y : (int64_t)h + 1; y < (int64_t)p->min_y + p->height; y++) {
        int v = get(src, (int32_t)y);
        if (!is_fluid(v)) break;
        if (fl == CF_BK_AIR) fl = (uint8_t)v;
        top = (int32_t)y;
    }
    if (c->out->block) c->out->block[o] = blk;
    if (c->out->fluid) c->out->fluid[o] = fl;
    if (c->out->fluid_top) c->out->fluid_top[o] = top;
}

cf_status cf_map_columns_get(const cf_world *w, cf_biomes *biomes, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                             int32_t nz, int32_t below, const cf_map_columns *out, int threads, cf_error *err)
{
    return cf_map_columns_device(NULL, w, biomes, x0, z0, step, nx, nz, below, out, threads, err);
}

cf_status cf_map_columns_device(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int32_t x0, int32_t z0, int32_t step,
                                int32_t nx, int32_t nz, int32_t below, const cf_map_columns *out, int threads, cf_error *err)
{
    cf_status st = check_grid(w, x0, z0, step, nx, nz, "cf_map_columns_get", err);
    if (st != CF_OK) return st;
    if (!out) return err_set(err, CF_ERR_ARG, "cf_map_columns_get: bad arguments");
    const cf_program *p = w->prog;
    int want_blocks = out->block || out->fluid || out->fluid_top;
    if (want_blocks && !p->blocks)
        return err_set(err, CF_ERR_ARG, "%s: blocks and fluids of columns need a program from cf_program_compile_blocks",
                       p->settings_id);
    if (out->biome && !biomes)
        return err_set(err, CF_ERR_ARG, "%s: the biomes of columns need a biome source (cf_biomes_open)", p->settings_id);
    size_t n = (size_t)nx * (size_t)nz;
    int own = !out->height; /* heights are needed even when not asked for */
    int32_t *h = own ? malloc(sizeof(int32_t) * n) : out->height;
    if (!h) return err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
    st = dev ? mapdev_heights(dev, w, x0, z0, step, nx, nz, below, h, NULL, err)
             : cf_surface_samples(w, 0, x0, z0, step, nx, nz, below, h, threads, err);
    if (st == CF_OK && want_blocks) {
        col_ctx cc = {out, h};
        int surface = biomes && cf_program_has_surface(p);
        if (!dev && per_column(p, step, nx, nz))
            st = gather_columns(w, surface ? biomes : NULL, x0, z0, step, nx, nz, below, h, column_fn_at, &cc, NULL, threads, NULL, err);
        else st = gather_blocks(w, surface ? biomes : NULL, x0, z0, step, nx, nz, column_fn_at, &cc, threads, dev, NULL, err);
    }
    if (st == CF_OK && out->biome) st = gather_biomes(biomes, x0, z0, step, nx, nz, h, out->biome, threads, dev, NULL, err);
    uint8_t remap[256];
    const uint8_t *r = want_blocks ? blocks_out_map(p, remap) : NULL; /* cf_block_palette's indices */
    if (st == CF_OK && out->block) blocks_remap(out->block, n, r);
    if (st == CF_OK && out->fluid) blocks_remap(out->fluid, n, r);
    if (own) free(h);
    return st;
}

/* map_columns_points: the points in the order of their chunks (z, then x), PTS_RUN a work item,
 * so that the columns of one chunk share its aquifer's set-up (cpu/colblocks.c) */
enum { PTS_RUN = 8 };
typedef struct pts_ctx {
    const cf_world *w;
    const int32_t *xz;
    const size_t *ord;
    size_t n;
    int32_t below;
    int32_t *h;
    col_ctx cc;
} pts_ctx;

static void *pts_tls(void *ctx) { return colblk_new(((const pts_ctx *)ctx)->w); }
static void pts_tls_free(void *tls) { colblk_free(tls); }

static cf_status pts_row(void *ctx, void *tls, int32_t k, cf_error *err)
{
    (void)err;
    const pts_ctx *j = ctx;
    for (size_t m = (size_t)k * PTS_RUN; m < j->n && m < ((size_t)k + 1) * PTS_RUN; m++) {
        size_t o = j->ord[m];
        j->h[o] = colblk_height(tls, j->xz[2 * o], j->xz[2 * o + 1], j->below);
        column_fn_at((void *)&j->cc, j->w->prog, colblk_get_fn, tls, o);
    }
    return CF_OK;
}

typedef struct pts_key {
    int32_t cz, cx;
    size_t o;
} pts_key;

static int pts_cmp(const void *a, const void *b)
{
    const pts_key *i = a, *k = b;
    if (i->cz != k->cz) return i->cz < k->cz ? -1 : 1;
    if (i->cx != k->cx) return i->cx < k->cx ? -1 : 1;
    return i->o < k->o ? -1 : i->o > k->o;
}

cf_status map_columns_points(const cf_world *w, size_t n, const int32_t *xz, int32_t below, const cf_map_columns *out, int threads,
                             cf_error *err)
{
    if (!w || !out || (n && !xz) || out->biome) return err_set(err, CF_ERR_ARG, "map_columns_points: bad arguments");
    const cf_program *p = w->prog;
    int64_t lim = (int64_t)CF_MAX_CHUNK * 16;
    for (size_t o = 0; o < n; o++)
        if (xz[2 * o] < -lim || xz[2 * o + 1] < -lim || xz[2 * o] > lim + 15 || xz[2 * o + 1] > lim + 15)
            return err_set(err, CF_ERR_ARG, "column %d, %d: outside the block coordinate range", xz[2 * o], xz[2 * o + 1]);
    if ((out->block || out->fluid || out->fluid_top) && !p->blocks)
        return err_set(err, CF_ERR_ARG, "%s: blocks and fluids of columns need a program from cf_program_compile_blocks",
                       p->settings_id);
    if (n == 0) return CF_OK;
    if (!colblk_serves(p)) { /* each column as cf_map_columns_get gives it (its chunk filled) */
        for (size_t o = 0; o < n; o++) {
            cf_map_columns c = {out->height ? out->height + o : NULL, out->block ? out->block + o : NULL, NULL,
                                out->fluid ? out->fluid + o : NULL, out->fluid_top ? out->fluid_top + o : NULL};
            cf_status st = cf_map_columns_get(w, NULL, xz[2 * o], xz[2 * o + 1], 1, 1, 1, below, &c, 1, err);
            if (st != CF_OK) return st;
        }
        return CF_OK;
    }
    size_t *ord = malloc(sizeof *ord * n);
    int32_t *h = out->height ? out->height : malloc(sizeof(int32_t) * n);
    if (!ord || !h) {
        free(ord);
        if (!out->height) free(h);
        return err_set(err, CF_ERR_NOMEM, "out of memory for %zu columns", n);
    }
    pts_key *key = malloc(sizeof *key * n);
    if (!key) {
        free(ord);
        if (!out->height) free(h);
        return err_set(err, CF_ERR_NOMEM, "out of memory for %zu columns", n);
    }
    for (size_t o = 0; o < n; o++)
        key[o] = (pts_key){(int32_t)cf_floordiv(xz[2 * o + 1], 16), (int32_t)cf_floordiv(xz[2 * o], 16), o};
    qsort(key, n, sizeof *key, pts_cmp);
    for (size_t o = 0; o < n; o++) ord[o] = key[o].o;
    free(key);
    pts_ctx c = {w, xz, ord, n, below, h, {out, h}};
    size_t runs = (n + PTS_RUN - 1) / PTS_RUN;
    row_job j = {.row = pts_row, .tls_new = pts_tls, .tls_free = pts_tls_free, .ctx = &c, .nz = (int32_t)(runs > INT32_MAX ? INT32_MAX : runs),
                 .stage = "columns"};
    cf_status st = runs > INT32_MAX ? err_set(err, CF_ERR_ARG, "map_columns_points: too many columns") : rows_run(&j, threads, err);
    uint8_t remap[256];
    const uint8_t *r = blocks_out_map(p, remap);
    if (st == CF_OK && out->block) blocks_remap(out->block, n, r);
    if (st == CF_OK && out->fluid) blocks_remap(out->fluid, n, r);
    free(ord);
    if (!out->height) free(h);
    return st;
}

cf_status cf_map_column_biomes(const cf_world *w, cf_biomes *biomes, int32_t x, int32_t z, cf_map_column_info *out,
                               cf_error *err)
{
    return cf_map_column_below(w, biomes, x, z, INT32_MAX, out, err);
}

int cf_map_biome_colour(const char *id, uint8_t rgb[3]) { return image_biome_colour(id, rgb); }

/* v as a JSON string (null for NULL): a pack's names may hold anything */
static void json_name(char *out, size_t cap, const char *v)
{
    size_t k = 0;
    if (!v) {
        snprintf(out, cap, "null");
        return;
    }
    out[k++] = '"';
    for (const unsigned char *c = (const unsigned char *)v; *c && k + 8 < cap; c++) {
        if (*c == '"' || *c == '\\') out[k++] = '\\', out[k++] = (char)*c;
        else if (*c < 32) k += (size_t)snprintf(out + k, cap - k, "\\u%04x", *c);
        else out[k++] = (char)*c;
    }
    out[k++] = '"';
    out[k] = 0;
}

int cf_map_column_json(const cf_map_column_info *c, int64_t x, int64_t z, char *out, size_t cap)
{
    char b[300], bm[300], f[300];
    json_name(b, sizeof b, c->block);
    json_name(bm, sizeof bm, c->biome);
    json_name(f, sizeof f, c->fluid);
    return snprintf(out, cap, "{\"x\": %lld, \"z\": %lld, \"height\": %d, \"block\": %s, \"biome\": %s, \"fluid\": %s}\n", (long long)x,
                    (long long)z, (int)c->height, b, bm, f);
}

/* appends c to buf (cap bytes) at *n, counting past the end as snprintf does */
static void legend_put(char *buf, size_t cap, size_t *n, const char *c, size_t len)
{
    if (*n < cap) memcpy(buf + *n, c, *n + len < cap ? len : cap - *n);
    *n += len;
}

size_t cf_map_legend_json(const cf_biomes *b, char *buf, size_t cap)
{
    const char *names[CF_BIOME_PALETTE_MAX];
    int nb = b ? cf_biomes_palette(b, names) : 0;
    size_t n = 0;
    char tmp[32];
    legend_put(buf, cap, &n, "[", 1);
    for (int i = 0; i < nb; i++) {
        legend_put(buf, cap, &n, i ? ", {\"id\": \"" : "{\"id\": \"", i ? 10 : 8);
        for (const unsigned char *c = (const unsigned char *)names[i]; *c; c++) {
            int k = *c == '"' || *c == '\\' ? snprintf(tmp, sizeof tmp, "\\%c", *c)
                    : *c < 32 || *c == '<' || *c == '>' || *c == '&' ? snprintf(tmp, sizeof tmp, "\\u%04x", *c)
                                                                     : snprintf(tmp, sizeof tmp, "%c", *c);
            legend_put(buf, cap, &n, tmp, (size_t)k);
        }
        uint8_t rgb[3];
        cf_map_biome_colour(names[i], rgb);
        int k = snprintf(tmp, sizeof tmp, "\", \"rgb\": \"#%02x%02x%02x\"}", rgb[0], rgb[1], rgb[2]);
        legend_put(buf, cap, &n, tmp, (size_t)k);
    }
    legend_put(buf, cap, &n, "]", 1);
    if (cap) buf[n < cap ? n : cap - 1] = 0;
    return n;
}

cf_status cf_map_column_below(const cf_world *w, cf_biomes *biomes, int32_t x, int32_t z, int32_t below,
                              cf_map_column_info *out, cf_error *err)
{
    if (!w || !out) return err_set(err, CF_ERR_ARG, "cf_map_column: bad arguments");
    memset(out, 0, sizeof *out);
    const cf_program *p = w->prog;
    uint8_t blk = CF_BK_AIR, fl = CF_BK_AIR, bio = 0;
    int32_t top = p->min_y - 1;
    cf_map_columns c = {&out->height, p->blocks ? &blk : NULL, biomes ? &bio : NULL, p->blocks ? &fl : NULL,
                        p->blocks ? &top : NULL};
    cf_status st = cf_map_columns_get(w, biomes, x, z, 1, 1, 1, below, &c, 1, err);
    if (st != CF_OK) return st;
    out->fluid_top = top;
    if (p->blocks) {
        const char *names[CF_PALETTE_MAX];
        int nb = cf_block_palette(p, names);
        if (out->height >= p->min_y && blk < nb && *names[blk]) out->block = names[blk];
        if (fl != CF_BK_AIR && fl < nb && *names[fl]) out->fluid = names[fl];
    }
    if (biomes) {
        const char *names[CF_BIOME_PALETTE_MAX];
        int npal = cf_biomes_palette(biomes, names);
        out->biome = bio < npal ? names[bio] : NULL;
    }
    return CF_OK;
}

cf_status cf_map_column(const cf_world *w, int32_t x, int32_t z, cf_map_column_info *out, cf_error *err)
{
    return cf_map_column_biomes(w, NULL, x, z, out, err);
}

cf_status cf_png_write(const char *path, const uint8_t *rgb, int w, int h, cf_error *err)
{
    return image_write_png(path, rgb, w, h, err);
}

extern const char map_viewer_html[]; /* host/api/viewer.html, embedded by cmake/embed_text.cmake */
const char *cf_map_viewer_html(void) { return map_viewer_html; }
