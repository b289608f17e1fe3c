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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"
#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"
#include "kernels/cf_aquifer.h"

/* per sampled column: what the layers need */
typedef struct map_cols {
    int32_t *ground; /* the top solid block (min_y - 1 where none) */
    int32_t *top;    /* CF_MAP_BLOCKS: the top block that is not air */
    uint8_t *kind;   /* CF_MAP_BLOCKS: IMAGE_LAND, _WATER, _LAVA or _VOID */
    uint8_t *biome;  /* CF_MAP_BIOMES: palette index of the biome at the surface block */
    const char **names; /* CF_MAP_BIOMES: the biome source's palette */
} map_cols;

static void colour_relief(const map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    image_relief(c->ground, nx, nz, p->min_y, p->height, p->sea_level, rgb);
}

static void colour_water(const map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    image_relief_fluids(c->ground, c->top, c->kind, nx, nz, p->min_y, p->height, p->sea_level, rgb);
}

/* the biome colour table's colour per pixel, shaded as the relief (in place: image_shade
 * reads pixel i's base before writing pixel i) */
static void colour_biomes(const map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb)
{
    for (size_t i = 0; i < (size_t)nx * (size_t)nz; i++) image_biome_colour(c->names[c->biome[i]], rgb + 3 * i);
    image_shade(c->ground, rgb, nx, nz, p->sea_level, rgb);
}

static const struct map_layer {
    const char *name;
    int needs; /* CF_MAP_HEIGHTS, CF_MAP_BLOCKS */
    const char *summary;
    void (*colour)(const map_cols *c, int nx, int nz, const cf_program *p, uint8_t *rgb);
} layers[] = {
    {"relief", CF_MAP_HEIGHTS,
     "shaded relief of the exact surface (the top block whose final density is > 0); blue below sea level",
     colour_relief},
    {"water", CF_MAP_BLOCKS,
     "shaded relief of the noise stage's blocks: water where the aquifer puts it (lakes above sea level, dry "
     "caves below), lava orange, columns without blocks (the End's void) near black",
     colour_water},
    {"biomes", CF_MAP_HEIGHTS | CF_MAP_BIOMES,
     "biome colours (cubiomes' scheme) of the biome at the surface block (x, height, z) through the game's zoom, "
     "shaded as the relief",
     colour_biomes},
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

/* the column of block kinds (CF_BK_*) at local (lx, lz) of a chunk's blocks: from the
 * top (or below), the first block that is not air decides */
static void scan_column(const cf_program *p, const uint8_t *b, int lx, int lz, int32_t below, int32_t *ground,
                        int32_t *top, uint8_t *kind)
{
    int64_t ymax = (int64_t)p->min_y + p->height - 1 < below ? (int64_t)p->min_y + p->height - 1 : below;
    *ground = p->min_y - 1, *top = p->min_y - 1, *kind = IMAGE_VOID;
    int fluid = -1;
    for (int64_t y = ymax; y >= p->min_y; y--) {
        int v = b[((size_t)(y - p->min_y) * 16 + (size_t)lz) * 16 + (size_t)lx];
        if (v == CF_BK_AIR) {
            if (fluid >= 0) break; /* air under a fluid: the fluid's floor is open */
            continue;
        }
        if (v == CF_BK_SOLID) {
            *ground = (int32_t)y;
            if (fluid < 0) *top = (int32_t)y, *kind = IMAGE_LAND;
            return;
        }
        if (fluid < 0) {
            fluid = v;
            *top = (int32_t)y;
            *kind = v == CF_BK_LAVA ? IMAGE_LAVA : IMAGE_WATER;
        }
        *ground = (int32_t)y - 1;
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

/* CF_MAP_BLOCKS: every sampled column from cf_fill_blocks of the chunks holding
 * samples, at most BATCH chunks per call */
static cf_status gather_blocks(const cf_world *w, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                               int32_t below, map_cols *c, int threads, cf_error *err)
{
    enum { BATCH = 32 };
    const cf_program *p = w->prog;
    size_t per = (size_t)p->height * 256;
    int32_t *cxs = malloc(sizeof(int32_t) * (size_t)nx), *czs = malloc(sizeof(int32_t) * (size_t)nz);
    int32_t *list = malloc(sizeof(int32_t) * 2 * BATCH);
    uint8_t *b = malloc(per * BATCH);
    cf_status st = CF_OK;
    if (!cxs || !czs || !list || !b) {
        st = err_set(err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    size_t ncx = axis_chunks(x0, step, nx, cxs), ncz = axis_chunks(z0, step, nz, czs);
    for (size_t q = 0; q < ncx * ncz && st == CF_OK; q += BATCH) {
        size_t n = ncx * ncz - q < BATCH ? ncx * ncz - q : BATCH;
        for (size_t i = 0; i < n; i++) list[2 * i] = cxs[(q + i) % ncx], list[2 * i + 1] = czs[(q + i) / ncx];
        if ((st = cf_fill_blocks(w, n, list, b, threads, err)) != CF_OK) break;
        for (size_t i = 0; i < n; i++) {
            int64_t cx = list[2 * i], cz = list[2 * i + 1];
            /* the samples in this chunk: the first index at or after its first block */
            int64_t kz0 = cz * 16 - z0 <= 0 ? 0 : (cz * 16 - z0 + step - 1) / step;
            int64_t ix0 = cx * 16 - x0 <= 0 ? 0 : (cx * 16 - x0 + step - 1) / step;
            for (int64_t k = kz0; k < nz && z0 + k * step < cz * 16 + 16; k++)
                for (int64_t ii = ix0; ii < nx && x0 + ii * step < cx * 16 + 16; ii++) {
                    size_t o = (size_t)k * (size_t)nx + (size_t)ii;
                    scan_column(p, b + i * per, (int)(x0 + ii * step - cx * 16), (int)(z0 + k * step - cz * 16), below,
                                &c->ground[o], &c->top[o], &c->kind[o]);
                }
        }
    }
done:
    free(cxs), free(czs), free(list), free(b);
    return st;
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

/* CF_MAP_BIOMES: the biome at each sampled column's surface block, rows split among threads */
typedef struct biome_job {
    cf_biomes *b;
    const int32_t *ground;
    uint8_t *out;
    int32_t x0, z0, step, nx, nz;
    int32_t next; /* the next row to take (atomic) */
    int failed;   /* set once by the first thread that fails (atomic) */
    cf_status st;
    cf_error err;
} biome_job;

static void *biome_rows(void *arg)
{
    biome_job *j = arg;
    int32_t *xyz = malloc(sizeof(int32_t) * 3 * (size_t)j->nx);
    cf_error err = {0};
    cf_status st = CF_OK;
    if (!xyz) st = err_set(&err, CF_ERR_NOMEM, "out of memory");
    for (int32_t k; xyz && st == CF_OK && (k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->nz;) {
        size_t row = (size_t)k * (size_t)j->nx;
        for (int32_t i = 0; i < j->nx; i++) {
            xyz[3 * i] = (int32_t)((int64_t)j->x0 + (int64_t)i * j->step);
            xyz[3 * i + 1] = biome_y(j->b, j->ground[row + (size_t)i]);
            xyz[3 * i + 2] = (int32_t)((int64_t)j->z0 + (int64_t)k * j->step);
        }
        st = cf_biomes_blocks(j->b, (size_t)j->nx, xyz, j->out + row, &err);
    }
    free(xyz);
    if (st != CF_OK) {
        __atomic_store_n(&j->next, j->nz, __ATOMIC_RELAXED);
        int expect = 0; /* the first failure is reported */
        if (__atomic_compare_exchange_n(&j->failed, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            j->st = st, j->err = err;
    }
    return NULL;
}

static cf_status gather_biomes(cf_biomes *b, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz, map_cols *c,
                               int threads, cf_error *err)
{
    enum { MAXT = 64 };
    biome_job j = {b, c->ground, c->biome, x0, z0, step, nx, nz, 0, 0, CF_OK, {0}};
    if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads > MAXT) threads = MAXT;
    if (threads > nz) threads = nz;
    if (threads < 1) threads = 1;
    pthread_t th[MAXT];
    int started = 0;
    for (; started < threads - 1; started++)
        if (pthread_create(&th[started], NULL, biome_rows, &j) != 0) break;
    biome_rows(&j);
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    if (j.st != CF_OK) return *err = j.err, j.st;
    return CF_OK;
}

cf_status cf_map_draw(const cf_world *w, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                      int32_t below, uint8_t *rgb, int32_t *heights, int threads, cf_error *err)
{
    return cf_map_draw_biomes(w, NULL, layer, x0, z0, step, nx, nz, below, rgb, heights, threads, err);
}

cf_status cf_map_draw_biomes(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                      int32_t below, uint8_t *rgb, int32_t *heights, int threads, cf_error *err)
{
    if (!w || layer < 0 || layer >= NLAYERS || step <= 0 || nx <= 0 || nz <= 0 || nx > IMAGE_MAX_SIDE ||
        nz > IMAGE_MAX_SIDE || (uint64_t)nx * (uint64_t)nz > (UINT64_C(1) << 28) || !rgb)
        return err_set(err, CF_ERR_ARG, "cf_map_draw: bad arguments");
    const struct map_layer *L = &layers[layer];
    if ((L->needs & CF_MAP_BLOCKS) && !w->prog->blocks)
        return err_set(err, CF_ERR_ARG, "%s: the %s layer needs the noise stage's blocks (aquifer), which this graph has not",
                       w->prog->settings_id, L->name);
    if ((L->needs & CF_MAP_BIOMES) && !biomes)
        return err_set(err, CF_ERR_ARG, "%s: the %s layer needs a biome source (cf_biomes_open), which was not given",
                       w->prog->settings_id, L->name);
    int64_t lim = (int64_t)CF_MAX_CHUNK * 16;
    if (x0 < -lim || z0 < -lim || (int64_t)x0 + (int64_t)(nx - 1) * step > lim + 15 ||
        (int64_t)z0 + (int64_t)(nz - 1) * step > lim + 15)
        return err_set(err, CF_ERR_ARG, "area outside the block coordinate range");
    size_t n = (size_t)nx * (size_t)nz;
    const char *names[CF_BIOME_PALETTE_MAX];
    map_cols c = {heights ? heights : malloc(sizeof(int32_t) * n), NULL, NULL, NULL, names};
    cf_status st = CF_OK;
    if (!c.ground) return err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
    if (L->needs & CF_MAP_BLOCKS) {
        c.top = malloc(sizeof(int32_t) * n);
        c.kind = malloc(n);
        if (!c.top || !c.kind) st = err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
        else st = gather_blocks(w, x0, z0, step, nx, nz, below, &c, threads, err);
    } else {
        st = cf_surface_samples(w, 0, x0, z0, step, nx, nz, below, c.ground, threads, err);
    }
    if (st == CF_OK && (L->needs & CF_MAP_BIOMES)) {
        cf_biomes_palette(biomes, names);
        if (!(c.biome = malloc(n))) st = err_set(err, CF_ERR_NOMEM, "out of memory for %d x %d columns", nx, nz);
        else st = gather_biomes(biomes, x0, z0, step, nx, nz, &c, threads, err);
    }
    if (st == CF_OK) L->colour(&c, nx, nz, w->prog, rgb);
    if (!heights) free(c.ground);
    free(c.top), free(c.kind), free(c.biome);
    return st;
}

cf_status cf_map_column_biomes(const cf_world *w, cf_biomes *biomes, int32_t x, int32_t z, cf_map_column_info *out,
                               cf_error *err)
{
    cf_status st = cf_map_column(w, x, z, out, err);
    if (st != CF_OK || !biomes) return st;
    const char *names[CF_BIOME_PALETTE_MAX];
    int npal = cf_biomes_palette(biomes, names);
    int32_t xyz[3] = {x, biome_y(biomes, out->height), z};
    uint8_t v = 0;
    if ((st = cf_biomes_blocks(biomes, 1, xyz, &v, err)) != CF_OK) return st;
    out->biome = v < npal ? names[v] : NULL;
    return CF_OK;
}

cf_status cf_map_column(const cf_world *w, int32_t x, int32_t z, cf_map_column_info *out, cf_error *err)
{
    if (!w || !out) return err_set(err, CF_ERR_ARG, "cf_map_column: bad arguments");
    memset(out, 0, sizeof *out);
    cf_status st = cf_surface_samples(w, 0, x, z, 1, 1, 1, INT32_MAX, &out->height, 1, err);
    if (st != CF_OK) return st;
    const cf_program *p = w->prog;
    out->fluid_top = p->min_y - 1;
    if (!p->blocks) return CF_OK;
    const char *names[CF_PALETTE_MAX];
    cf_block_palette(p, names);
    uint8_t *b = malloc((size_t)p->height * 256);
    if (!b) return err_set(err, CF_ERR_NOMEM, "out of memory");
    int32_t chunk[2] = {(int32_t)cf_floordiv(x, 16), (int32_t)cf_floordiv(z, 16)};
    st = cf_fill_blocks(w, 1, chunk, b, 1, err);
    if (st == CF_OK) {
        int lx = (int)cf_floormod(x, 16), lz = (int)cf_floormod(z, 16);
        if (out->height >= p->min_y)
            out->block = names[b[((size_t)(out->height - p->min_y) * 16 + (size_t)lz) * 16 + (size_t)lx]];
        /* the fluid directly above the surface block, up to its top */
        for (int64_t y = (int64_t)out->height + 1; y < (int64_t)p->min_y + p->height; y++) {
            int v = b[((size_t)(y - p->min_y) * 16 + (size_t)lz) * 16 + (size_t)lx];
            if (v == CF_BK_AIR || v == CF_BK_SOLID) break;
            if (!out->fluid) out->fluid = names[v];
            out->fluid_top = (int32_t)y;
        }
        if (out->block && !*out->block) out->block = NULL;
        if (out->fluid && !*out->fluid) out->fluid = NULL;
    }
    free(b);
    return st;
}

cf_status cf_png_write(const char *path, const uint8_t *rgb, int w, int h, cf_error *err)
{
    return image_write_png(path, rgb, w, h, err);
}

extern const char map_viewer_html[]; /* host/api/viewer.html, embedded by cmake/embed_text.cmake */
const char *cf_map_viewer_html(void) { return map_viewer_html; }
