/* map.h - internal to the library: the map drawing with a cancel hook (map.c), for the
 * map server (host/net/http.c), which stops a tile whose clients have all gone.
 * The hook is asked between batches of chunks, between rows of biomes and between bands
 * of sampled rows (every few hundred milliseconds of work at most on 2 cores); from any of
 * the drawing's threads at once, so it must be thread-safe. A drawing it stops returns
 * CF_ERR_LIMIT "cancelled" and writes nothing of value into rgb. */
#ifndef CF_API_MAP_H
#define CF_API_MAP_H
#include "chunkfill.h"

typedef struct cf_map_cancel {
    int (*stop)(void *ctx); /* nonzero: stop the drawing (may be NULL) */
    void *ctx;
    /* may be NULL: the work done, from the caller's thread only (cf_map_draw_progress) */
    cf_map_progress_fn progress;
    void *progress_ctx;
} cf_map_cancel;

/* cf_map_draw_stats with a cancel hook (NULL: none, as cf_map_draw_stats) */
cf_status map_draw_cancel(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                          int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                          const cf_map_cancel *cancel, cf_error *err);
/* map_draw_cancel on a device (dev NULL: the CPU; cf_map_draw_device) */
cf_status map_draw_on(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step,
                      int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                      const cf_map_cancel *cancel, cf_error *err);
/* map_device.c, what map.c asks a device for: the heights of the samples (as cf_surface_samples,
 * from the chunks that hold them), the blocks of n chunks (as cf_fill_blocks, or with biomes
 * cf_fill_blocks_surface), the biomes of n blocks (as cf_biomes_blocks) */
cf_status mapdev_heights(cf_map_device *d, const cf_world *w, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                         int32_t below, int32_t *out, const cf_map_cancel *cancel, cf_error *err);
cf_status mapdev_blocks(cf_map_device *d, const cf_world *w, cf_biomes *biomes, size_t n, const int32_t *chunks, uint8_t *out,
                        int threads, cf_error *err);
cf_status mapdev_biomes(cf_map_device *d, cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err);
/* the chunks that hold the samples (x0 + i*step, z0 + k*step), batch at a time (the cancel hook
 * asked before each): fill(ctx, n, list, buf) fills n chunks (x, z pairs) into buf, per bytes each,
 * then each(ctx, chunk, o, lx, lz) for every sample o = k*nx + i in them, (lx, lz) its column there */
typedef struct map_batch_fns {
    cf_status (*fill)(void *ctx, size_t n, const int32_t *list, uint8_t *buf, cf_error *err);
    void (*each)(void *ctx, const uint8_t *chunk, size_t o, int lx, int lz);
    void *ctx;
} map_batch_fns;
cf_status map_chunk_batches(int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz, size_t batch, size_t per,
                            const map_batch_fns *fns, const cf_map_cancel *cancel, cf_error *err);
/* cf_fill_blocks_surface with the output indices of remap (blocks_out_map; NULL: the internal
 * CF_BK_* and surface_palette indices, which the map layers read) */
cf_status api_fill_blocks_surface(const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks, const uint8_t *remap,
                                  uint8_t *out, int threads, cf_error *err);
/* cf_device_fill_blocks_surface with the output indices of remap (NULL: the internal ones) */
cf_status api_device_fill_blocks_surface(cf_device *d, const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks,
                                         const uint8_t *remap, uint8_t *out, cf_error *err);
/* cf_map_columns_get's outputs (height, block, fluid, fluid_top; no biomes) at n columns
 * (x, z pairs in xz) rather than a grid: one column context per thread for all of them (the
 * columns of a chunk one after another), each column's values as cf_map_columns_get gives them */
cf_status map_columns_points(const cf_world *w, size_t n, const int32_t *xz, int32_t below, const cf_map_columns *out, int threads,
                             cf_error *err);
/* 1 (with err "cancelled") when the hook says stop; 0 without a hook */
int map_cancelled(const cf_map_cancel *c, cf_error *err);
/* the progress hook's report, where c has one */
void map_progress(const cf_map_cancel *c, const char *stage, int64_t done, int64_t total);
#endif
