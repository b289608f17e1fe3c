/* device.h - what host/api/ passes to the device back end beyond include/chunkfill.h. */
#ifndef CF_OPENCL_DEVICE_H
#define CF_OPENCL_DEVICE_H

#include "ir/ir.h"

/* the per-seed tables of the device's surface stage (kernels/cf_surface.h), made by the CPU
 * reference's surface_device_tables (host/cpu/surface.c) */
typedef struct cf_surface_tables {
    const int32_t *ints;  /* CF_SF_I_COUNT ints */
    const uint8_t *psn;   /* 5 x 256 bytes: the climate noises' permutations */
    const uint64_t *grad; /* 2 per random name of the rules */
    int ngrad;
    int64_t zseed;        /* BiomeManager's seed */
} cf_surface_tables;

/* 1 when the device's program has the surface stage (a 1.18-1.21 block program with rules) */
int device_has_surface(const cf_device *d);
/* the noise stage then the surface stage of n chunks; grid: per chunk the stored biomes of its
 * area (host/cpu/cpu.h surface_apply's bgrid, 144 * height/4 bytes); out as device_fill_blocks */
cf_status device_fill_blocks_surface(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, const uint8_t *grid,
                                     const cf_surface_tables *tabs, uint8_t *out, cf_error *err);

/* the map's sample columns of a 26.3 float program (emit_samples' k_map_samples, built at the
 * first call): out[i] the top y <= xzy[3i + 2] of column (xzy[3i], xzy[3i + 1]) where the device's
 * output is > 0, else min_y - 1, as a scan of the column in device_fill's densities gives */
cf_status device_samples(cf_device *d, const cf_world *w, size_t n, const int32_t *xzy, int32_t *out, cf_error *err);

/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
size_t device_batch(const cf_device *d);  /* cf_device_batch */
int device_cache_hit(const cf_device *d);  /* cf_device_cache_hit */
/* cf_device_fill: */
cf_status device_fill(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, void *out, cf_error *err);
/* cf_device_fill_blocks: */
cf_status device_fill_blocks(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out,
                             cf_error *err);
void device_free(cf_device *d);  /* cf_device_free */
const char *device_name(const cf_device *d);  /* cf_device_name */
/* cf_device_open: */
cf_status device_open(cf_device **out, const char *spec, const cf_program *prog, int fn, size_t batch, cf_error *err);
void device_times(const cf_device *d, double ms[4]);  /* cf_device_times */
char *devices_list(cf_error *err);  /* cf_devices_list */

#endif
