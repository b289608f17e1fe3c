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
    int (*stop)(void *ctx); /* nonzero: stop the drawing */
    void *ctx;
} cf_map_cancel;

/* cf_map_draw_stats with a cancel hook (NULL: none, as cf_map_draw_stats) */
cf_status map_draw_cancel(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                          int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats, int threads,
                          const cf_map_cancel *cancel, cf_error *err);
/* cf_fill_blocks_surface with the output indices of remap (blocks_out_map; NULL: the internal
 * CF_BK_* and surface_palette indices, which the map layers read) */
cf_status api_fill_blocks_surface(const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks, const uint8_t *remap,
                                  uint8_t *out, int threads, cf_error *err);
/* 1 (with err "cancelled") when the hook says stop; 0 without a hook */
int map_cancelled(const cf_map_cancel *c, cf_error *err);
#endif
