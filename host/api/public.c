/* public.c - the public functions (include/chunkfill.h) whose work lives in a lower folder:
 * each a thin wrapper of its folder's internal function, so that every public definition is
 * in host/api/ and the folders below call internal functions only (scripts/layers.sh checks
 * the symbols). The documentation is the public header's. */
#include "base/base.h"
#include "ir/ir.h"
#include "cpu/cpu.h"
#include "opencl/device.h"
#include "biome/biome.h"
#include "structure/structure.h"

/* base/pack (host/base/pack.c) */
cf_status cf_pack_open(cf_pack **out, const char *const *paths, int npaths, const cf_limits *limits, cf_error *err)
{
    return pack_open(out, paths, npaths, limits, err);
}
void cf_pack_free(cf_pack *pack) { pack_free(pack); }
cf_status cf_pack_open_memory(cf_pack **out, const cf_memfile *files, size_t n, const cf_limits *limits, cf_error *err)
{
    return pack_open_memory(out, files, n, limits, err);
}
void cf_pack_set_dialect(cf_pack *pack, int dialect) { pack_set_dialect(pack, dialect); }
void cf_pack_set_strict(cf_pack *pack, int strict) { pack_set_strict(pack, strict); }
const char *cf_pack_game_version(cf_pack *pack, int *data_version, const char **from)
{
    return pack_game_version(pack, data_version, from);
}
cf_status cf_pack_set_game_version(cf_pack *pack, const char *version, cf_error *err)
{
    return pack_set_game_version(pack, version, err);
}
int cf_game_version_data(const char *version) { return game_version_data(version); }
void cf_pack_set_warnings(cf_pack *pack, void (*fn)(void *ctx, const char *line), void *ctx) { pack_set_warnings(pack, fn, ctx); }
cf_status cf_pack_define(cf_pack *pack, const char *type, double value, cf_error *err)
{
    return pack_define(pack, type, value, err);
}
cf_status cf_pack_set_external(cf_pack *pk, const char *name, double value, cf_error *err)
{
    return pack_set_external(pk, name, value, err);
}
cf_status cf_pack_set_external_map(cf_pack *pk, const char *name, int width, int height, double x0, double z0,
                                   double step, const double *data, cf_error *err)
{
    return pack_set_external_map(pk, name, width, height, x0, z0, step, data, err);
}

/* base/util (host/base/util.c) */
void cf_limits_default(cf_limits *l) { limits_default(l); }
const char *cf_status_str(cf_status s) { return status_str(s); }

/* ir/ir (host/ir/ir.c) */
int cf_node_kind_info(int i, const char **name, const char **fields, const char **summary)
{
    return node_kind_info(i, name, fields, summary);
}

/* cpu/fill (host/cpu/fill.c) */
int cf_cpu_count(void) { return cpu_count(); }
cf_status cf_fill_blocks(const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err)
{
    uint8_t remap[256];
    return fill_chunks_blocks(w, n, chunks, w ? blocks_out_map(w->prog, remap) : NULL, out, threads, err);
}
size_t cf_fill_bytes_per_thread(const cf_program *prog) { return fill_bytes_per_thread(prog); }
cf_status cf_fill_chunks(const cf_world *w, int fn, size_t n, const int32_t *chunks, void *out, int threads,
                         cf_error *err)
{
    return fill_chunks(w, fn, n, chunks, out, threads, err);
}
const char *cf_program_plan(const cf_program *prog) { return program_plan(prog); }
cf_status cf_surface_heights(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t nx, int32_t nz, int32_t below,
                             int32_t *out, int threads, cf_error *err)
{
    return surface_heights(w, fn, x0, z0, nx, nz, below, out, threads, err);
}
cf_status cf_surface_samples(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                             int32_t below, int32_t *out, int threads, cf_error *err)
{
    return surface_samples(w, fn, x0, z0, step, nx, nz, below, out, threads, err);
}

/* opencl/device (host/opencl/device.c) */
size_t cf_device_batch(const cf_device *d) { return device_batch(d); }
int cf_device_cache_hit(const cf_device *d) { return device_cache_hit(d); }
cf_status cf_device_fill(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, void *out, cf_error *err)
{
    return device_fill(d, w, n, chunks, out, err);
}
cf_status cf_device_fill_blocks(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out,
                                cf_error *err)
{
    cf_status st = device_fill_blocks(d, w, n, chunks, out, err);
    uint8_t remap[256];
    if (st == CF_OK) blocks_remap(out, n * (size_t)w->prog->height * 256, blocks_out_map(w->prog, remap));
    return st;
}
void cf_device_free(cf_device *d) { device_free(d); }
const char *cf_device_name(const cf_device *d) { return device_name(d); }
cf_status cf_device_open(cf_device **out, const char *spec, const cf_program *prog, int fn, size_t batch, cf_error *err)
{
    return device_open(out, spec, prog, fn, batch, err);
}
void cf_device_times(const cf_device *d, double ms[4]) { device_times(d, ms); }
char *cf_devices_list(cf_error *err) { return devices_list(err); }

/* biome/device (host/biome/device.c) */
cf_status cf_biomes_device_fill(cf_biome_device *d, size_t n, const int32_t *chunks, uint8_t *out, cf_error *err)
{
    return biome_device_fill(d, n, chunks, out, err);
}
void cf_biomes_device_free(cf_biome_device *d) { biome_device_free(d); }
const char *cf_biomes_device_name(const cf_biome_device *d) { return biome_device_name(d); }
cf_status cf_biomes_device_open(cf_biome_device **out, const char *spec, cf_biomes *b, cf_error *err)
{
    return biome_device_open(out, spec, b, err);
}
cf_status cf_biomes_device_quarts(cf_biome_device *d, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    return biome_device_quarts(d, n, q, out, err);
}

/* biome/source (host/biome/source.c opens, query.c answers); the climate program is compiled here (the front-ends are
 * above biome/) and handed to the source */
cf_status cf_biomes_open(cf_biomes **out, cf_pack *pack, const char *dimension, const char *settings, const char *version,
                         int64_t seed, cf_error *err)
{
    if (out) *out = NULL;
    if (!out || !pack) return err_set(err, CF_ERR_ARG, "cf_biomes_open: bad arguments");
    cf_error local = {0};
    cf_error *e = err ? err : &local;
    cf_biomes *b;
    biome_compile c;
    cf_status st = biome_open_begin(&b, pack, dimension, settings, version, seed, &c, e);
    if (st != CF_OK) return st;
    cf_program *prog = NULL;
    if (cf_program_compile(&prog, pack, c.settings, c.functions, c.nfunctions, e) != CF_OK) prog = NULL;
    return biome_open_end(b, prog, out, e);
}
cf_status cf_biomes_blocks(cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err)
{
    return biome_blocks(b, n, xyz, out, err);
}
void cf_biomes_count_ties(cf_biomes *b, int on) { biome_count_ties(b, on); }
const char *cf_biomes_describe(const cf_biomes *b) { return biome_describe(b); }
const char *cf_biomes_settings(const cf_biomes *b) { return biome_settings(b); }
void cf_biomes_free(cf_biomes *b) { biome_free(b); }
cf_status cf_biomes_grid(cf_biomes *b, int32_t qx0, int32_t qz0, int32_t nx, int32_t nz, int32_t qy, uint8_t *out,
                         int threads, cf_error *err)
{
    return biome_grid(b, qx0, qz0, nx, nz, qy, out, threads, err);
}
int cf_biomes_palette(const cf_biomes *b, const char **names) { return biome_palette(b, names); }
cf_status cf_biomes_locate(cf_biomes *b, cf_pack *pk, const char *what, int32_t x, int32_t y, int32_t z, int32_t radius,
                           int32_t hstep, int32_t vstep, int32_t pos[3], int *biome, int *found, cf_error *err)
{
    return biome_locate(b, pk, what, x, y, z, radius, hstep, vstep, pos, biome, found, NULL, NULL, err);
}
cf_status cf_biomes_locate_progress(cf_biomes *b, cf_pack *pk, const char *what, int32_t x, int32_t y, int32_t z, int32_t radius,
                                    int32_t hstep, int32_t vstep, int32_t pos[3], int *biome, int *found,
                                    cf_map_progress_fn progress, void *ctx, cf_error *err)
{
    return biome_locate(b, pk, what, x, y, z, radius, hstep, vstep, pos, biome, found, progress, ctx, err);
}
cf_status cf_biomes_quarts(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err)
{
    return biome_quarts(b, n, q, out, err);
}
void cf_biomes_range(const cf_biomes *b, int *min_y, int *height) { biome_range(b, min_y, height); }
cf_status cf_biomes_set_seed(cf_biomes *b, int64_t seed, cf_error *err) { return biome_set_seed(b, seed, err); }
void cf_biomes_stats(const cf_biomes *b, uint64_t *lookups, uint64_t *ties) { biome_stats(b, lookups, ties); }
cf_status cf_fill_biomes(cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err)
{
    return biome_fill(b, n, chunks, out, threads, err);
}

/* base/outfile.c */
cf_status cf_output_open(cf_output *o, const char *path, cf_error *err) { return out_open(o, path, err); }
cf_status cf_output_close(cf_output *o, cf_error *err) { return out_close(o, err); }
cf_status cf_output_commit(cf_output *o, cf_error *err) { return out_commit(o, err); }
void cf_output_abort(cf_output *o) { out_abort(o); }
cf_status cf_output_write_file(const char *path, const void *data, size_t n, cf_error *err) { return out_write_file(path, data, n, err); }
cf_status cf_output_check_dir(const char *path, cf_error *err) { return out_check_dir(path, err); }

/* structure (host/structure/) */
cf_status cf_structures_open(cf_structures **out, cf_pack *pack, cf_biomes *biomes, int64_t seed, const char *version,
                             cf_error *err)
{
    return structures_open(out, pack, biomes, seed, version, err);
}
void cf_structures_free(cf_structures *s) { structures_free(s); }
int cf_structures_sets(const cf_structures *s, const char **names, int max) { return structures_sets(s, names, max); }
cf_status cf_structures_find(cf_structures *s, int32_t x0, int32_t z0, int32_t x1, int32_t z1, const char *const *only,
                             int nonly, int (*emit)(void *ctx, const cf_structure_start *st), void *ctx, cf_error *err)
{
    return structures_find(s, x0, z0, x1, z1, only, nonly, emit, ctx, err);
}
cf_status cf_structures_locate(cf_structures *s, const char *const *only, int nonly, int32_t x, int32_t y, int32_t z,
                               int radius, cf_structure_start *out, int *found, cf_error *err)
{
    return structures_locate(s, only, nonly, x, y, z, radius, out, found, err);
}
cf_status cf_spawn_climate(cf_biomes *biomes, const char *version, int32_t xz[2], cf_error *err)
{
    return spawn_climate(biomes, version, xz, err);
}
