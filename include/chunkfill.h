/* chunkfill.h - the public C API of chunkfill.
 *
 * Opaque handles, caller-owned buffers, one status enum (append-only). No OpenCL
 * or cJSON types appear here, so a Java (FFM/JNI) or Python (ctypes) binding is
 * a thin layer. Every function that can fail takes a cf_error* (may be NULL) and
 * writes one line there: "path/in/pack.json#/json/pointer: what was wrong".
 *
 * Typical use:
 *   cf_pack *pk; cf_program *pg; cf_world *w;
 *   cf_pack_open(&pk, NULL, 0, &err);                      // embedded default pack
 *   const char *fn[] = {"router:final_density"};
 *   cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, NULL, &err);
 *   cf_world_new(&w, pg, seed, &err);                      // binds the seed's tables
 *   cf_sample(w, 0, n, xyz, out, &err);                    // out[i] at xyz[3i..3i+2]
 */
#ifndef CHUNKFILL_H
#define CHUNKFILL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cf_status {
    CF_OK = 0,
    CF_ERR_IO,        /* a file could not be read */
    CF_ERR_JSON,      /* malformed JSON */
    CF_ERR_SCHEMA,    /* wrong type, missing or bad field, unknown node type */
    CF_ERR_REF,       /* unresolved reference */
    CF_ERR_CYCLE,     /* reference cycle */
    CF_ERR_LIMIT,     /* a configured limit (size, depth, nodes) was exceeded */
    CF_ERR_NOMEM,     /* out of memory */
    CF_ERR_ARG,       /* bad argument to an API call */
    CF_ERR_DEVICE     /* device failure */
} cf_status;

/* A short constant name for a status ("ok", "io", ...). Never NULL. */
const char *cf_status_str(cf_status s);

typedef struct cf_error {
    cf_status status;
    char message[1024];
} cf_error;

/* Limits applied while loading and compiling; cf_limits_default() fills defaults. */
typedef struct cf_limits {
    size_t max_file_bytes;   /* refuse larger JSON files before reading them */
    size_t max_nodes;        /* nodes in one compiled graph (before merging) */
    int max_depth;           /* nesting of JSON values and of references */
    size_t max_fill_bytes;   /* working memory of a fill, all threads together */
} cf_limits;
void cf_limits_default(cf_limits *l);

typedef struct cf_pack cf_pack;       /* layered data packs */
typedef struct cf_program cf_program; /* a compiled graph: settings + requested functions */
typedef struct cf_world cf_world;     /* a program bound to one seed */

/* Opens packs in order (later ones override earlier ones, as Minecraft layers
 * data packs). npaths == 0 opens the embedded default pack. A path is a folder
 * holding data/<ns>/worldgen/... . limits may be NULL (defaults).
 * Returns CF_OK and *out, or an error (and *out == NULL). Free with cf_pack_free. */
cf_status cf_pack_open(cf_pack **out, const char *const *paths, int npaths,
                       const cf_limits *limits, cf_error *err);
void cf_pack_free(cf_pack *pack);

/* The data format of the packs: detected per noise settings (AUTO: settings with
 * noise.size_horizontal are Minecraft 1.18.2-1.21, double arithmetic), or forced. */
enum { CF_DIALECT_AUTO = 0, CF_DIALECT_MC263 = 1, CF_DIALECT_MC121 = 2 };
void cf_pack_set_dialect(cf_pack *pack, int dialect);

/* Minecraft data (both dialects) is read as the game reads it: unknown keys are ignored and
 * spline locations that decrease are evaluated with the game's binary search, each said once
 * per file as a warning line "file#/pointer: ..." (to stderr, or to the handler set here).
 * strict != 0 refuses both instead, with the same located line as the error. */
void cf_pack_set_strict(cf_pack *pack, int strict);
/* The game version of the packs: the "id" (and "world_version", the data version) of a game
 * jar's version.json, else the version that reads a pack.mcmeta's pack_format (the newest of
 * them), else NULL (unknown: biomes and region files then follow the dialect, 26.3 or 1.21.11
 * for 1.18-1.21 data), or the one set by cf_pack_set_game_version. *data_version: the world
 * data version region files carry; *from: the file it came from, or "--version" (both may be NULL). */
const char *cf_pack_game_version(cf_pack *pack, int *data_version, const char **from);
/* Sets the game version ("1.18" ... "1.21.11", "26.1", "26.2", "26.3"); CF_ERR_ARG for another. */
cf_status cf_pack_set_game_version(cf_pack *pack, const char *version, cf_error *err);
/* The world data version of a game version chunkfill knows ("26.2" -> 4903), else 0. */
int cf_game_version_data(const char *version);
/* Where warnings go: fn(ctx, line) for each one-line warning (no newline); fn NULL: stderr. */
void cf_pack_set_warnings(cf_pack *pack, void (*fn)(void *ctx, const char *line), void *ctx);
/* A density function type that only Java code defines (a mod's own, e.g. "tectonic:config"),
 * read as a constant: every object {"type": TYPE, ...} of Minecraft data (both dialects) is
 * `value` (its other fields unread). "TYPE[FIELD=TEXT]" gives only the objects whose string
 * FIELD is TEXT (e.g. "tectonic:config[option=final_multiplier]"), before a plain TYPE. A type
 * without a namespace is minecraft's. Types the front-ends know are not replaced. CF_ERR_ARG
 * for a bad name or a value that is not finite. */
cf_status cf_pack_define(cf_pack *pack, const char *type, double value, cf_error *err);

/* A pack held in memory (servers, tests, fuzzing): files[i].path is relative to the
 * pack root ("data/t/worldgen/density_function/f.json"); the data is copied. */
typedef struct cf_memfile {
    const char *path;
    const void *data;
    size_t len;
} cf_memfile;
cf_status cf_pack_open_memory(cf_pack **out, const cf_memfile *files, size_t n, const cf_limits *limits,
                              cf_error *err);
/* Sets a named external input of the Hytale front-end (a constant read by a context
 * node: "hytale.base_height.<Name>", "hytale.distance_to_biome_edge", "hytale.terrain";
 * host/frontend/hytale/README.md). Programs compiled from the pack afterwards read it; a program that
 * needs an external input that was not set fails to compile with a located error. */
cf_status cf_pack_set_external(cf_pack *pk, const char *name, double value, cf_error *err);
/* Sets a named external input to a 2-D map over the x/z plane instead: width x height
 * samples, data[iz * width + ix] (copied; every sample finite), sample (ix, iz) holding the
 * columns x0 + ix*step <= x < x0 + (ix+1)*step, z0 + iz*step <= z < z0 + (iz+1)*step
 * (step > 0). A node reading it takes the sample of its column at any y; outside the map
 * the value is NaN. Replaces an earlier constant or map of that name; on the OpenCL
 * device the samples travel in the world's table buffer. */
cf_status cf_pack_set_external_map(cf_pack *pk, const char *name, int width, int height, double x0, double z0, double step,
                                   const double *data, cf_error *err);

/* Compiles functions[0..n-1] in the context of noise settings settings_id
 * ("minecraft:overworld"). A function is a density function id
 * ("minecraft:overworld/continents"), "router:FIELD" (a field of the settings'
 * noise_router) or "noise:ID" (the raw seeded noise ID, no scale, no shift). The program keeps what it needs; the pack may be freed after.
 * Free with cf_program_free. */
cf_status cf_program_compile(cf_program **out, cf_pack *pack, const char *settings_id,
                             const char *const *functions, int nfunctions, cf_error *err);
void cf_program_free(cf_program *prog);

/* 32 for a float dialect (Minecraft 26.3), 64 for a double one (libnoise). */
int cf_program_precision(const cf_program *prog);
/* Number of graph nodes after the passes, and the text of `chunkfill plan`-style
 * statistics (NUL-terminated, owned by the program). */
size_t cf_program_node_count(const cf_program *prog);
const char *cf_program_describe(const cf_program *prog);
/* min_y, height and sea_level of the program's noise settings. */
void cf_program_settings(const cf_program *prog, int *min_y, int *height, int *sea_level);

/* Parses a seed as Minecraft does: the text trimmed (String.trim: every char <= U+0020
 * at both ends), then a signed 64-bit decimal, or else the Java String.hashCode of the
 * trimmed (UTF-8) text: " 42" is 42. Empty (or blank) text is an error. */
cf_status cf_seed_parse(const char *text, int64_t *seed, cf_error *err);

/* Binds a program to a seed: builds permutation tables, octave offsets and
 * amplitudes. The world keeps a reference to prog (free the world first). */
cf_status cf_world_new(cf_world **out, const cf_program *prog, int64_t seed, cf_error *err);
void cf_world_free(cf_world *w);

/* Single-point path: out[i] = function `fn` at block (xyz[3i], xyz[3i+1], xyz[3i+2]),
 * with `interpolated` passing its input through (as outside a chunk). Values are
 * the dialect's precision, widened exactly to double. */
cf_status cf_sample(const cf_world *w, int fn, size_t n, const int32_t *xyz, double *out,
                    cf_error *err);

/* Like cf_sample at double positions xyz[3i..3i+2]. A double dialect (libnoise)
 * samples there exactly; a float dialect (Minecraft 26.3) takes integer
 * positions only (CF_ERR_ARG otherwise). */
cf_status cf_sample_f64(const cf_world *w, int fn, size_t n, const double *xyz, double *out, cf_error *err);

/* Chunk coordinates are limited so that every block coordinate a fill reads,
 * interpolation corners beyond the chunk included, fits an int. */
#define CF_MAX_CHUNK 134000000

/* Fills chunks on the CPU reference, exactly as vanilla's chunk fill (the volume
 * path: cell-corner interpolation, volume noise forms). chunks holds n (x, z)
 * pairs. out receives, per chunk, height*16*16 values of the program's
 * precision (float for 32, double for 64), index [chunk][y][z][x], y from the
 * settings' min_y upward: out[((c*height + y)*16 + z)*16 + x].
 * threads <= 0: one per CPU. Thread-safe: fills may run concurrently on one world. */
cf_status cf_fill_chunks(const cf_world *w, int fn, size_t n, const int32_t *chunks, void *out, int threads,
                         cf_error *err);
int cf_cpu_count(void);

/* ------------------------------------------------------------------ blocks
 * The blocks of the noise stage, as vanilla 26.3 decides them from the final
 * density and the aquifer (MINECRAFT-26.3.md §14): the settings' default block
 * where the density is > 0 (and where an aquifer barrier stands), air, the
 * default fluid or lava elsewhere. Surface rules, ore veins and carvers are
 * later stages: not part of this output.
 * A program for block fills: router:final_density (output 0) and, when the
 * settings have "aquifers", their six functions.
 * 1.18.2-1.21 (and 26.1-26.2) data: vanilla's fillFromNoise in that version's
 * double arithmetic, the aquifer and then, where the settings have
 * ore_veins_enabled, the copper and iron ore veins (OreVeinifier). */
cf_status cf_program_compile_blocks(cf_program **out, cf_pack *pack, const char *settings_id, cf_error *err);

/* The palette of a block fill: names[i] is the block id of index i, every name a block
 * (none empty, none twice); returns the count (at most CF_PALETTE_MAX). Index 0 is the
 * settings' default block, 1 air, 2 water, 3 lava; then the default fluid when it is none
 * of these; then, for 1.18.2-1.21 settings with ore veins, copper_ore, raw_copper_block,
 * granite, deepslate_iron_ore, raw_iron_block, tuff. */
#define CF_PALETTE_MAX 256
/* Programs with a surface stage (1.18-1.21 settings with a surface_rule) append every block
 * their rules can write (and snow_block, packed_ice of the frozen-ocean extension). */
int cf_block_palette(const cf_program *prog, const char **names);

/* Fills chunks with palette indices, one byte per block, index [chunk][y][z][x]
 * (as cf_fill_chunks): out[((c*height + y)*16 + z)*16 + x]. The world must bind a
 * program from cf_program_compile_blocks. threads <= 0: one per CPU. */
cf_status cf_fill_blocks(const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out, int threads,
                         cf_error *err);

/* Working memory one fill thread needs for this program (buffers of the plan),
 * in bytes. cf_fill_chunks and cf_surface_heights refuse (CF_ERR_LIMIT, with the
 * figure) a fill whose threads together would need more than the pack's
 * limits.max_fill_bytes. */
size_t cf_fill_bytes_per_thread(const cf_program *prog);

/* Exact surface heights: for every column of the area x in [x0, x0+nx), z in
 * [z0, z0+nz), the highest y <= below whose value of output fn on the chunk-fill
 * path is > 0 (the top solid block of the noise fill; min_y - 1 where there is
 * none): out[z*nx + x]. Equal to what cf_fill_chunks gives, but it computes rows
 * from the top down and stops once every column of a chunk has its block.
 * below = INT32_MAX searches from the top (in the nether that finds the roof:
 * below 100 finds the floor of the open caverns). threads <= 0: one per CPU. */
cf_status cf_surface_heights(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t nx, int32_t nz,
                             int32_t below, int32_t *out, int threads, cf_error *err);

/* Surface heights at a grid of sample columns (maps drawn at a scale): out[k*nx + i]
 * is the height cf_surface_heights gives for column (x0 + i*step, z0 + k*step),
 * i < nx, k < nz (step >= 1; step 1 is cf_surface_heights). Only the sampled columns
 * are computed: from 10 blocks between samples on, each on its own (its interpolation
 * cells' corners only), below that whole chunks holding samples (which share
 * corners). Errors as cf_surface_heights. */
cf_status cf_surface_samples(const cf_world *w, int fn, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                             int32_t below, int32_t *out, int threads, cf_error *err);

/* Preview pictures (PNG, written atomically). A shaded-relief map of a height
 * field heights[z*nx + x] (as cf_surface_heights gives) with the program's
 * min_y, height and sea level; a vertical slice density[y*n + i] (n columns,
 * the program's height in rows; mode 0 solid/air/water, 1 signed density). */
cf_status cf_png_relief(const char *path, const int32_t *heights, int nx, int nz, const cf_program *prog,
                        cf_error *err);
cf_status cf_png_slice(const char *path, const float *density, int n, const cf_program *prog, int mode,
                       cf_error *err);

/* ------------------------------------------------------------------ maps
 * Map layers (`render --layer`, `tiles`, `serve --http`), one table with a row per
 * layer. A map with first column (x0, z0) and step s (blocks per pixel) has pixel
 * (i, k) at column (x0 + i*s, z0 + k*s): the first block of its s x s square. */
/* what a layer needs per column: heights, a block program (cf_program_compile_blocks), a biome
 * source; CF_MAP_SURFACE: the surface stage's blocks where the program has one (cf_program_has_surface;
 * only then is the biome source of CF_MAP_BIOMES needed), else the noise stage's */
enum { CF_MAP_HEIGHTS = 1, CF_MAP_BLOCKS = 2, CF_MAP_BIOMES = 4, CF_MAP_SURFACE = 8 };
typedef struct cf_biomes cf_biomes; /* the biome stage, below */
/* Layer i's name, what it needs (CF_MAP_*) and a one-line summary (may be NULL);
 * NULL past the last layer. */
const char *cf_map_layer(int i, int *needs, const char **summary);
/* The index of the layer called name, or -1. */
int cf_map_layer_find(const char *name);
/* Draws nx x nz pixels of layer into rgb[(k*nx + i)*3 + c] (8-bit RGB). heights (may
 * be NULL) receives per pixel the top solid block the layer used (relief: as
 * cf_surface_samples; water: the top block of the noise stage's blocks that is the
 * default block, aquifer barriers included; min_y - 1 where none). below as
 * cf_surface_heights. A layer that needs CF_MAP_BLOCKS needs a world of a program
 * from cf_program_compile_blocks (CF_ERR_ARG otherwise); every layer needs output 0
 * to be router:final_density. At most 2^28 pixels, 1,000,000 on a side. */
cf_status cf_map_draw(const cf_world *w, int layer, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                      int32_t below, uint8_t *rgb, int32_t *heights, int threads, cf_error *err);
/* cf_map_draw with the world's biome source (cf_biomes_open of the same pack, settings
 * and seed; may be NULL for the layers that do not need CF_MAP_BIOMES). The biomes
 * layer: per pixel the relief's height h (cf_surface_samples) and the biome at the
 * surface block, cf_biomes_blocks of (x, h, z) (BiomeManager's zoom, what the game's F3
 * screen shows standing there; h clamped into the biome source's y range), coloured by
 * the biome colour table and shaded as the relief. biomes is not changed (several
 * threads may draw with one). */
cf_status cf_map_draw_biomes(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step,
                             int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, int threads,
                             cf_error *err);
/* cf_map_draw_biomes, and counts (stats may be NULL): pixels whose block has no row in the
 * blocks layer's colour table (drawn magenta) and the first such id; the block layers' samples
 * whose blocks came from a fill of their whole chunk (every sample below 8 blocks a sample; from
 * there on the columns that one column alone cannot answer exactly, such as a biome tie). */
typedef struct cf_map_stats {
    uint64_t unknown_blocks;
    char first_unknown[128];
    uint64_t chunk_columns;
} cf_map_stats;
cf_status cf_map_draw_stats(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step,
                            int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats,
                            int threads, cf_error *err);
/* cf_map_draw_stats with a progress hook: progress(ctx, stage, done, total) after each unit of
 * work, stage "heights" (rows of samples, in bands), "blocks" (chunks, or rows of samples where
 * the columns are computed one at a time) or "biomes" (rows of samples); done counts up to total
 * within a stage. It is called from one thread at a time, the caller's, and changes no byte of
 * the output (tested against cf_map_draw_stats). progress NULL: cf_map_draw_stats. */
typedef void (*cf_map_progress_fn)(void *ctx, const char *stage, int64_t done, int64_t total);
cf_status cf_map_draw_progress(const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0, int32_t step,
                               int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights, cf_map_stats *stats,
                               int threads, cf_map_progress_fn progress, void *ctx, cf_error *err);
/* The blocks layer (CF_MAP_BLOCKS | CF_MAP_BIOMES | CF_MAP_SURFACE): per pixel the top block that is
 * not air (searching from below down) of cf_fill_blocks_surface (cf_fill_blocks where the settings
 * have no surface stage), coloured by chunkfill's table per block id (magenta: unknown, counted in
 * cf_map_stats) and shaded (image_shade) by the y of those top blocks (a fluid's top counts: water is
 * flat); a column without blocks (the End's void) is near black. heights receives the top block that
 * is neither air nor fluid. */

/* Columns for far-terrain (LOD) renderers: what the map knows per column, at a grid of
 * samples (x0 + i*step, z0 + k*step) as cf_map_draw, each array [k*nx + i], caller-owned,
 * any may be NULL (not computed):
 *   height     the surface block as cf_surface_samples gives it (render --heights, /at);
 *   block      the block at height (palette index of cf_block_palette; 1, air, where height < min_y):
 *              after the surface stage where the program has one and biomes is given, else the
 *              noise stage's;
 *   biome      the biome at (x, height, z) as the biomes layer takes it (cf_biomes_palette index);
 *   fluid      the fluid directly above height (water, lava, the default fluid; 1, air, where none);
 *   fluid_top  the y of that fluid's top block (min_y - 1 where none): its depth is fluid_top - height.
 * block, fluid and fluid_top need a world of a program from cf_program_compile_blocks, biome a biome
 * source (CF_ERR_ARG otherwise). Each column equals what cf_map_column_biomes (`/at`) answers there. */
typedef struct cf_map_columns {
    int32_t *height;
    uint8_t *block;
    uint8_t *biome;
    uint8_t *fluid;
    int32_t *fluid_top;
} cf_map_columns;
cf_status cf_map_columns_get(const cf_world *w, cf_biomes *biomes, int32_t x0, int32_t z0, int32_t step, int32_t nx,
                             int32_t nz, int32_t below, const cf_map_columns *out, int threads, cf_error *err);

/* The map layers on an OpenCL device (spec as cf_device_open: "opencl" or "opencl:N"), byte
 * for byte what the CPU calls give: cf_map_draw_device as cf_map_draw_stats, cf_map_columns_device
 * as cf_map_columns_get. The device fills the chunks that hold samples (densities for the
 * heights, the noise stage's blocks, and the surface stage where cf_program_surface_on_device;
 * 26.3 material rules run on the CPU) and looks up the biomes (the zoom's quart picked on the
 * CPU); the scans and colours are the CPU's. The world must bind prog, the program the device
 * was opened for (cf_program_compile_blocks for the water and blocks layers). Thread-safe:
 * calls from several threads take turns on the device. */
typedef struct cf_map_device cf_map_device;
cf_status cf_map_device_open(cf_map_device **out, const char *spec, const cf_program *prog, cf_error *err);
const char *cf_map_device_name(const cf_map_device *d);
void cf_map_device_free(cf_map_device *d);
cf_status cf_map_draw_device(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int layer, int32_t x0, int32_t z0,
                             int32_t step, int32_t nx, int32_t nz, int32_t below, uint8_t *rgb, int32_t *heights,
                             cf_map_stats *stats, int threads, cf_error *err);
/* cf_map_draw_device with a progress hook, as cf_map_draw_progress (progress NULL: none) */
cf_status cf_map_draw_device_progress(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int layer, int32_t x0,
                                      int32_t z0, int32_t step, int32_t nx, int32_t nz, int32_t below, uint8_t *rgb,
                                      int32_t *heights, cf_map_stats *stats, int threads, cf_map_progress_fn progress,
                                      void *ctx, cf_error *err);
cf_status cf_map_columns_device(cf_map_device *dev, const cf_world *w, cf_biomes *biomes, int32_t x0, int32_t z0, int32_t step,
                                int32_t nx, int32_t nz, int32_t below, const cf_map_columns *out, int threads, cf_error *err);

/* What the map shows at one column (`/at`): cf_map_columns_get of that one column (below
 * INT32_MAX) with names: height as cf_surface_heights; block the block there (NULL where
 * none, or without a block program; the surface stage's with cf_map_column_biomes where the
 * program has one, else the noise stage's); fluid the fluid directly above it (NULL where
 * none) and its top block's y (fluid_top, min_y - 1 without fluid). Names are the program's
 * palette (owned by it). */
typedef struct cf_map_column_info {
    int32_t height;
    const char *block;
    const char *fluid;
    int32_t fluid_top;
    const char *biome; /* cf_map_column_biomes: the biome at the surface block (as the biomes layer) */
} cf_map_column_info;
cf_status cf_map_column(const cf_world *w, int32_t x, int32_t z, cf_map_column_info *out, cf_error *err);
/* cf_map_column and, with biomes (may be NULL), biome: cf_biomes_blocks of (x, height, z),
 * height clamped as the biomes layer does (a name of biomes' palette, owned by it), and the
 * block after the surface stage where the program has one. */
cf_status cf_map_column_biomes(const cf_world *w, cf_biomes *biomes, int32_t x, int32_t z, cf_map_column_info *out,
                               cf_error *err);
/* cf_map_column_biomes with the height searched from y = below down (as cf_map_columns_get's
 * below: in the nether below the roof); cf_map_column_biomes is below = INT32_MAX. */
cf_status cf_map_column_below(const cf_world *w, cf_biomes *biomes, int32_t x, int32_t z, int32_t below,
                              cf_map_column_info *out, cf_error *err);
/* The answer of `/at` and `chunkfill at --json` for column (x, z): one line of JSON,
 * {"x": X, "z": Z, "height": H, "block": B, "biome": BIO, "fluid": F} and a newline, names as
 * JSON strings or null. Returns its length (snprintf's: >= cap when cut). */
int cf_map_column_json(const cf_map_column_info *c, int64_t x, int64_t z, char *out, size_t cap);
/* The colour the biomes layer gives biome id before shading (the legend of that layer): 1 and
 * rgb; 0 and magenta for an id without a colour (drawn magenta too). */
int cf_map_biome_colour(const char *id, uint8_t rgb[3]);
/* The biomes layer's legend: a JSON array [{"id": ID, "rgb": "#rrggbb"}, ...], one entry per
 * biome b can give (cf_biomes_palette order), with '<', '>' and '&' escaped so the text can
 * sit inside an HTML script. Written as snprintf does: at most cap bytes with its NUL; the
 * return is the length the whole text needs (call again with a larger buf when >= cap). */
size_t cf_map_legend_json(const cf_biomes *b, char *buf, size_t cap);
/* Writes an 8-bit RGB PNG (rgb as cf_map_draw) atomically: a temporary beside path,
 * renamed over it once complete; nothing new appears at path on error. */
cf_status cf_png_write(const char *path, const uint8_t *rgb, int w, int h, cf_error *err);
/* Output files (host/base/outfile.c; every file chunkfill writes goes through these): a
 * temporary beside the target is written, flushed, fsync'd, then renamed over it, so nothing
 * half-written ever appears under the name. What is at path decides first: nothing or a
 * regular file is replaced; a symlink to a regular file is written through (that file is
 * replaced, as editors do); a device, FIFO, socket, directory, or a symlink to one or to
 * nothing is refused (CF_ERR_IO, one line naming path and what it is) before anything is
 * written. Usage: cf_output_open, write to o.f, cf_output_commit; cf_output_abort on any
 * error (removes the temporary). Two outputs that belong together: open both, write both,
 * cf_output_close both (each durable under its temporary name), then commit both. */
typedef struct cf_output {
    FILE *f;           /* the temporary file: write here */
    char *temp;        /* its name (malloc'd; a signal handler may unlink it) */
    char *path;        /* the file it replaces: path, or the regular file a symlink resolves to */
    const char *shown; /* path as given (not copied), for messages */
} cf_output;
cf_status cf_output_open(cf_output *o, const char *path, cf_error *err);
/* flush, fsync, close o.f; the temporary stays (CF_OK), or is removed on a write error */
cf_status cf_output_close(cf_output *o, cf_error *err);
/* cf_output_close if still open, then the rename; on error the temporary is removed */
cf_status cf_output_commit(cf_output *o, cf_error *err);
void cf_output_abort(cf_output *o); /* closes and removes the temporary; NULL or done: nothing */
/* n bytes of data as the whole file at path (cf_output_open ... commit) */
cf_status cf_output_write_file(const char *path, const void *data, size_t n, cf_error *err);
/* a folder that outputs will be written into: a directory (or a symlink to one) or nothing
 * yet; anything else is refused with one line */
cf_status cf_output_check_dir(const char *path, cf_error *err);
/* The map viewer (one self-contained HTML page, no network fetches but its tiles and
 * /at queries), NUL-terminated, static. */
const char *cf_map_viewer_html(void);

/* The fill plan of a program (`chunkfill plan`): stages, node counts, memo and
 * cache classes, interpolation cells. Owned by the program. */
const char *cf_program_plan(const cf_program *prog);

/* The generated OpenCL C program that fills output fn (what `chunkfill emit`
 * prints): seed-independent. Returns a malloc'd NUL-terminated string (release
 * it with free()), or NULL with err set. */
char *cf_emit_opencl(const cf_program *prog, int fn, cf_error *err);

/* ------------------------------------------------------------------ devices
 * An OpenCL device that fills chunks exactly like cf_fill_chunks (bit for bit).
 * spec: "opencl" (the first GPU with fp64, else any device with fp64) or
 * "opencl:N" (N as `chunkfill devices` lists). Opening probes the device for
 * exact float arithmetic (no contraction, denormals kept, correctly rounded
 * division and sqrt, fp64) and refuses a device that fails, builds the program
 * for output fn (cached on disk), and sizes batches (batch 0: chosen from the
 * device). Not thread-safe: one thread per device handle. */
typedef struct cf_device cf_device;
cf_status cf_device_open(cf_device **out, const char *spec, const cf_program *prog, int fn, size_t batch,
                         cf_error *err);
/* Fills like cf_fill_chunks; the world must bind the device's program. Switching
 * worlds (seeds) uploads new tables, never rebuilds the program. */
cf_status cf_device_fill(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, void *out,
                         cf_error *err);
/* Fills like cf_fill_blocks (the world must bind a program from
 * cf_program_compile_blocks, the one the device was opened with). */
cf_status cf_device_fill_blocks(cf_device *d, const cf_world *w, size_t n, const int32_t *chunks, uint8_t *out,
                                cf_error *err);
const char *cf_device_name(const cf_device *d);
size_t cf_device_batch(const cf_device *d);
int cf_device_cache_hit(const cf_device *d);
/* milliseconds spent so far: [0] compile (probes, generation, build), [1] uploads,
 * [2] kernels, [3] read-back */
void cf_device_times(const cf_device *d, double ms[4]);
void cf_device_free(cf_device *d);
/* `chunkfill devices`: one line per OpenCL device (malloc'd; free()), or NULL. */
char *cf_devices_list(cf_error *err);

/* The node table, for listings: returns 0 past the last kind. */
int cf_node_kind_info(int i, const char **name, const char **fields, const char **summary);


/* ------------------------------------------------------------------ biomes
 * The biome stage (../shared/BIOMES.md): the biome of each quart cell (4x4x4
 * blocks, quart q = block >> 2) as the dimension's biome source gives it:
 * minecraft:multi_noise (the overworld and nether presets built in, or a pack's
 * list), minecraft:the_end, minecraft:fixed, minecraft:checkerboard. Biomes are
 * palette indices (uint8); cf_biomes_palette names them.
 * Ties: where several entries share the minimum fitness vanilla's answer depends
 * on a per-thread warm start. chunkfill answers a point query with a cold search
 * (the first tied leaf in the tree's depth-first order) and a chunk fill by
 * replaying vanilla's fill order with the warm start, cold at the chunk's first
 * quart; both equal vanilla wherever there is no tie (cf_biomes_stats counts ties). */
typedef struct cf_biomes cf_biomes;
#define CF_BIOME_PALETTE_MAX 256
/* Opens the biome source of a dimension for one seed. dimension: a dimension id
 * (data/<ns>/dimension/<path>.json in the packs, or the vanilla default of
 * minecraft:overworld, minecraft:the_nether, minecraft:the_end); settings: a noise
 * settings id instead (its vanilla biome source: nether -> the nether preset,
 * end -> the_end, others -> the overworld preset), or with a dimension, the settings
 * that replace the dimension's. version: the game version whose presets and RTree
 * (children per node 10, 6 or 19) are used, "1.18" ... "26.3"; NULL follows the
 * pack's dialect (26.3, or 1.21.11 for 1.18-1.21 data). */
cf_status cf_biomes_open(cf_biomes **out, cf_pack *pack, const char *dimension, const char *settings,
                         const char *version, int64_t seed, cf_error *err);
void cf_biomes_free(cf_biomes *b);
/* Rebinds b to another seed (the climate tables and the zoom seed; the lists, trees and
 * program stay). Not while another call uses b. */
cf_status cf_biomes_set_seed(cf_biomes *b, int64_t seed, cf_error *err);
/* names[i] = biome id of palette index i (owned by b; names may be NULL); returns the count */
int cf_biomes_palette(const cf_biomes *b, const char **names);
/* the noise settings id whose terrain goes with b (the dimension's, or the settings it was opened with) */
const char *cf_biomes_settings(const cf_biomes *b);
/* min_y and height (blocks) of the dimension's noise settings: what a chunk fill covers */
void cf_biomes_range(const cf_biomes *b, int *min_y, int *height);
/* one line: the source, its list, version, tree and the settings */
const char *cf_biomes_describe(const cf_biomes *b);
/* Quart queries, the point path (locate, structure checks): out[i] = biome at quart
 * (q[3i], q[3i+1], q[3i+2]). */
cf_status cf_biomes_quarts(cf_biomes *b, size_t n, const int32_t *q, uint8_t *out, cf_error *err);
/* The game's /locate biome (BiomeSource.findClosestBiome3d as LocateCommand calls it, radius 6400,
 * hstep 32, vstep 64): columns (x + i*hstep, z + k*hstep) for (i, k) on the game's square spiral
 * (east, south, west, north; out to radius / hstep), at each the ys y, y + vstep, y - vstep,
 * y + 2 vstep, ... within min_y + 1 .. min_y + height (y clamped into them; the noise settings'
 * range, which the game takes from the dimension type: they differ in the nether and the end),
 * the quart biome (cf_biomes_quarts, the warm start carried along as on the game's thread) of
 * the first that is `what` (a biome id, or "#tag" of the packs pk: data/<ns>/tags/worldgen/biome)
 * wins: pos receives its block (x, y, z), *biome its palette index, *found 1; *found 0 where no
 * column matches, -1 where the source can give none of the biomes (then without a search). */
cf_status cf_biomes_locate(cf_biomes *b, cf_pack *pk, const char *what, int32_t x, int32_t y, int32_t z, int32_t radius,
                           int32_t hstep, int32_t vstep, int32_t pos[3], int *biome, int *found, cf_error *err);
/* cf_biomes_locate with a progress hook (cf_map_progress_fn; NULL: none): stage "columns", done of
 * the spiral's (2 * (radius / hstep) + 1)^2 columns searched, after each batch of them, from the
 * caller's thread. The answer is the same. */
cf_status cf_biomes_locate_progress(cf_biomes *b, cf_pack *pk, const char *what, int32_t x, int32_t y, int32_t z, int32_t radius,
                                    int32_t hstep, int32_t vstep, int32_t pos[3], int *biome, int *found,
                                    cf_map_progress_fn progress, void *ctx, cf_error *err);
/* Block queries: BiomeManager's zoom (SHA-256 of the seed) picks the quart, whose
 * point-path biome out[i] receives. */
cf_status cf_biomes_blocks(cf_biomes *b, size_t n, const int32_t *xyz, uint8_t *out, cf_error *err);
/* A 1:4 map: out[iz*nx + ix] = point-path biome of quart (qx0 + ix, qy, qz0 + iz).
 * threads <= 0: one per CPU. */
cf_status cf_biomes_grid(cf_biomes *b, int32_t qx0, int32_t qz0, int32_t nx, int32_t nz, int32_t qy, uint8_t *out,
                         int threads, cf_error *err);
/* The stored biomes of chunks (x, z pairs in chunks), as a chunk fill makes them
 * (26.3: the volume path): out[((c*(height/4) + qy)*4 + qz)*4 + qx], qy from min_y/4 up. */
cf_status cf_fill_biomes(cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out, int threads, cf_error *err);
/* counts since open: multi-noise lookups and, when counting is on, ties among them */
void cf_biomes_count_ties(cf_biomes *b, int on);
void cf_biomes_stats(const cf_biomes *b, uint64_t *lookups, uint64_t *ties);
/* Biomes on an OpenCL device (spec as cf_device_open: "opencl" or "opencl:N"), bit for
 * bit equal to the CPU calls above: the climate comes from a program generated from the
 * same graph (26.3: point and volume paths; 1.18-1.21: the double fields cast to float),
 * the RTree travels as a table buffer; fixed and checkerboard sources need no device and
 * run on the CPU. */
typedef struct cf_biome_device cf_biome_device;
cf_status cf_biomes_device_open(cf_biome_device **out, const char *spec, cf_biomes *b, cf_error *err);
cf_status cf_biomes_device_quarts(cf_biome_device *d, size_t n, const int32_t *q, uint8_t *out, cf_error *err);
cf_status cf_biomes_device_fill(cf_biome_device *d, size_t n, const int32_t *chunks, uint8_t *out, cf_error *err);
const char *cf_biomes_device_name(const cf_biome_device *d);
void cf_biomes_device_free(cf_biome_device *d);


/* ------------------------------------------------------------------ structures
 * Structure placement (docs/structures.md): the structure sets of the packs
 * (data/<ns>/worldgen/structure_set, 1.18-26.x: random_spread with its frequency
 * reductions and exclusion zones, concentric_rings with the biome search that moves
 * each position), each set's weighted choice among its structures, and each
 * structure's biome check where chunkfill can make it exactly; where a check needs
 * more of the game (a jigsaw start piece's layout, terrain checks) the start says
 * so (unverified) instead of guessing. The biome source (cf_biomes_open, the same
 * seed) decides which sets the dimension has; the pack must outlive the handle. */
typedef struct cf_structures cf_structures;
typedef struct cf_structure_start {
    const char *structure, *set;  /* ids, owned by the handle */
    int32_t chunk_x, chunk_z;
    int32_t x, y, z;              /* the start position the checks used (has_y 0: y is unknown) */
    int has_y;
    const char *checked;          /* "biome": the structure's biome check passed at (x, y, z) (or it
                                   * passes everywhere in the dimension); "none": not checked */
    const char *unverified;       /* NULL, or what the game checks that chunkfill did not */
} cf_structure_start;
/* Opens the structure sets of pack for the dimension of biomes, bound to seed. version:
 * as cf_biomes_open ("1.18" ... "26.3"; NULL: the pack's dialect). Errors: one located
 * line (file#/pointer: what was wrong) for a bad set or structure: an unknown placement
 * type, spacing <= separation, a biome tag that does not exist, ... */
cf_status cf_structures_open(cf_structures **out, cf_pack *pack, cf_biomes *biomes, int64_t seed, const char *version,
                             cf_error *err);
void cf_structures_free(cf_structures *s);
/* names[i] = the id of structure set i (sorted; owned by s); returns the count of sets of
 * the dimension (those with a structure whose biomes the source has) */
int cf_structures_sets(const cf_structures *s, const char **names, int max);
/* Calls emit for every structure start whose chunk is in the block area x0..x1, z0..z1
 * (inclusive), sets in id order, chunks of a set in region order (z, then x); only: ids or
 * #tags (data/<ns>/tags/worldgen/structure) of the structures wanted (nonly 0: all).
 * emit returning nonzero stops the search (CF_OK). */
cf_status cf_structures_find(cf_structures *s, int32_t x0, int32_t z0, int32_t x1, int32_t z1, const char *const *only,
                             int nonly, int (*emit)(void *ctx, const cf_structure_start *st), void *ctx, cf_error *err);
/* The game's /locate structure: the start of a wanted structure (only, nonly as
 * cf_structures_find) nearest to block (x, y, z) as ChunkGenerator.findNearestMapStructure
 * finds it: the ring positions (strongholds; distance to the chunk's centre at y 32), then
 * rings of random_spread regions around the point, radius 0 .. radius (the game: 100), the
 * nearest of the first radius that finds one (each placement's first start in the scan's
 * order). *found 0: none within the radius. Starts whose checks are not made count as found
 * (out->unverified says so): the game may pass over them. */
cf_status cf_structures_locate(cf_structures *s, const char *const *only, int nonly, int32_t x, int32_t y, int32_t z,
                               int radius, cf_structure_start *out, int *found, cf_error *err);
/* The terrain of the checks that need it (docs/structures.md): with a world of the dimension's
 * settings and the same seed, from cf_program_compile_blocks (w must outlive its use; NULL:
 * none), igloos and swamp huts check their biome at the chunk's centre (min + 8) on the first
 * occupied y of WORLD_SURFACE_WG (the top block that is not air after the noise stage: water
 * counts), desert pyramids and jungle temples first need the lowest of their four corners at or
 * above sea level ("checked": "terrain+biome"). Without a world those starts are "none" and
 * unverified. CF_ERR_ARG for a world without a block program. */
cf_status cf_structures_terrain(cf_structures *s, const cf_world *w, cf_error *err);
/* A start as one line of JSON and a newline, the line `chunkfill structures` and the server's
 * /structures write: {"structure": ID, "set": ID, "chunk": [CX, CZ], "x": X, "y": Y|null, "z": Z,
 * "checked": C[, "unverified": WHAT]}. Written as snprintf does (at most cap bytes with its NUL);
 * returns the length the whole line needs. */
int cf_structure_json(const cf_structure_start *st, char *out, size_t cap);
/* A start's marker on a map (render --structures, the viewer): the first letter of the
 * structure id's path ('?' when not a letter) and a colour chosen by the set id (one of 12, by
 * its FNV-1a hash). */
void cf_structure_marker(const char *structure, const char *set, char *letter, uint8_t rgb[3]);
/* Draws the starts (only, nonly as cf_structures_find) whose chunk is in the area of a map
 * picture, rgb as cf_map_draw's (nx x nz pixels, pixel (i, k) the column (x0 + i*step,
 * z0 + k*step), so the area x0 .. x0 + nx*step - 1, z likewise): per start, in
 * cf_structures_find's order, a 9 x 9 square centred on the pixel of its (x, z) (floor
 * division by step), a black outline around its cf_structure_marker colour and its letter (3 x 5
 * pixels, black on light colours, white on dark), clipped at the picture's edges. *count
 * (may be NULL): the starts drawn. */
cf_status cf_structures_draw(cf_structures *s, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz,
                             const char *const *only, int nonly, uint8_t *rgb, long *count, cf_error *err);
/* The 1.18+ climate spawn search (Climate.findSpawnPosition: the point of the two spawn
 * parameter points closest in climate, weighted by distance from 0, 0, on the overworld's
 * point path at y 0): xz[0], xz[1] blocks. version as cf_biomes_open: 1.21.2 changed the
 * distance weight. biomes: a multi_noise source (CF_ERR_ARG otherwise). */
cf_status cf_spawn_climate(cf_biomes *biomes, const char *version, int32_t xz[2], cf_error *err);
/* The world spawn (MinecraftServer.setInitialSpawn): the climate point, then on a square spiral
 * of the 11 x 11 chunks around its chunk the first chunk, and in it the first column (x, then z),
 * where PlayerRespawnLogic finds a block to stand on: from one above the MOTION_BLOCKING height
 * down, the first block whose top face is full (the spawn is the block above it); no column whose
 * top is a fluid over its floor, none through a fluid. None in the 121 chunks: the game's
 * fallback, the climate chunk's centre at y 64 (where the world's floor is above 64: that column's
 * WORLD_SURFACE height). The blocks are the surface stage's of w (a program
 * from cf_program_compile_blocks of the biome source's settings and seed; NULL, or settings
 * without a surface stage: the climate point only, found -1): the game places carvers and features (trees, ice on cold water, ...) before it
 * asks, which chunkfill does not make, so the block can differ where they are. */
typedef struct cf_spawn {
    int32_t climate[2]; /* the climate point (cf_spawn_climate) */
    int found;          /* 1: block is the spiral's; 0: none there, block is the fallback; -1: no blocks */
    int32_t block[3];   /* x, y, z: where the player stands */
    char unknown[128];  /* a block that decided it whose shape chunkfill takes as a full cube, or "" */
} cf_spawn;
cf_status cf_spawn_find(const cf_world *w, cf_biomes *biomes, const char *version, cf_spawn *out, cf_error *err);
/* The line `chunkfill spawn` and the server's /spawn write: {"climate": [X, Z], "spawn": [X, Y,
 * Z]|null, "unverified": WHY} and a newline (WHY: what the spawn block rests on that chunkfill does
 * not make). Written as snprintf does; returns the length it needs. */
int cf_spawn_json(const cf_spawn *sp, char *out, size_t cap);

/* ------------------------------------------------------------------ pregeneration
 * Regions of 32 x 32 chunks filled into files in a folder (`chunkfill pregen`,
 * host/pregen/README.md): one output per region, r.X.Z.mca (an Anvil region of
 * proto-chunks at the noise or surface stage: blocks, biomes, world-generation
 * heightmaps; host/pregen/ANVIL.md), r.X.Z.npy (uint8 block palette indices of the
 * region's chunks that are in the area, shape (n, height, 16, 16), chunks z-major
 * then x) or the region's map tiles LAYER/0/X/Y.png (the `tiles` pyramid's level 0,
 * the 256 x 256-block tiles of the region that meet the area), each file written to a
 * temporary name and renamed, and DIR/manifest.json: the parameters and the SHA-256
 * of every finished region. The files depend only on the parameters, never on the
 * threads, device, ranks or order of work. */
enum { CF_PREGEN_MCA = 0, CF_PREGEN_NPY = 1, CF_PREGEN_TILES = 2 };
enum { CF_PREGEN_SQUARE = 0, CF_PREGEN_CIRCLE = 1 }; /* cf_pregen_params.shape */
/* the stage of the blocks: DEFAULT is the surface stage where the settings have one
 * (cf_program_has_surface), as `fill --blocks`, else the noise stage */
enum { CF_PREGEN_STAGE_DEFAULT = 0, CF_PREGEN_STAGE_NOISE = 1, CF_PREGEN_STAGE_SURFACE = 2 };
typedef struct cf_pregen_progress {
    long regions_done, regions_total; /* this process's share; skipped regions count as done */
    long long chunks_done, chunks_total;
    double seconds;                   /* since cf_pregen_run started */
    long long chunks_skipped;         /* of chunks_done: in regions already complete, not made again */
} cf_pregen_progress;
typedef struct cf_pregen_params {
    const char *const *packs; /* npacks == 0: the embedded default pack */
    int npacks;
    int dialect;              /* CF_DIALECT_* */
    const char *seed;         /* as cf_seed_parse reads it */
    const char *settings;     /* noise settings id; NULL: minecraft:overworld (or the dimension's) */
    const char *dimension;    /* NULL, or a dimension id: its settings and biome source (cf_biomes_open) */
    int32_t x0, z0, x1, z1;   /* chunks, inclusive */
    const char *dir;          /* the output folder (created if missing) */
    int format;               /* CF_PREGEN_MCA, CF_PREGEN_NPY or CF_PREGEN_TILES */
    int stage;                /* CF_PREGEN_STAGE_* (tiles: the map layers draw the noise stage) */
    const char *layer;        /* CF_PREGEN_TILES: the map layer (cf_map_layer); NULL: relief */
    const char *device;       /* NULL or "cpu": the CPU; "opencl[:N]": block fills on a device;
                               * "auto": opencl when a device passes its probes, else the CPU
                               * (the surface stage and tiles: the CPU) */
    int threads;              /* <= 0: one per CPU */
    int rank, nranks;         /* this process does the regions i with i % nranks == rank (nranks >= 1) */
    /* or, when set, the regions next_region returns (indices, -1: no more) */
    long (*next_region)(void *ctx);
    void *next_ctx;
    void (*progress)(void *ctx, const cf_pregen_progress *p); /* after each region; may be NULL */
    void *progress_ctx;
    void (*note)(void *ctx, const char *line); /* one-line notices (device fallback); may be NULL */
    void *note_ctx;
    volatile int *stop;       /* when it becomes nonzero the run ends after the region in flight */
    const char *version;      /* NULL, or the game version (cf_pack_set_game_version) */
    /* CF_PREGEN_SQUARE (0): every chunk of x0..x1, z0..z1; CF_PREGEN_CIRCLE: the chunks of that
     * rectangle whose centre (16x + 8, 16z + 8) is closer than radius blocks to (center_x,
     * center_z), as Chunky's circle; regions without such chunks get no file */
    int shape;
    int64_t center_x, center_z, radius;
} cf_pregen_params;
/* The number of regions the area's rectangle touches (region indices 0..n-1, rows of z,
 * then x; with a circle, the indices of regions without its chunks are skipped). */
long cf_pregen_regions(const cf_pregen_params *p);
/* Creates DIR and its manifest, or checks that the manifest there holds the same
 * parameters (CF_ERR_ARG: "DIR/manifest.json: ..." otherwise, nothing touched); removes
 * temporaries left by killed runs. Run it once (one process) before cf_pregen_run. */
cf_status cf_pregen_prepare(const cf_pregen_params *p, cf_error *err);
/* Fills this process's regions: a region whose file matches the manifest's digest is
 * skipped; a file the manifest does not list is kept only if it equals what this run
 * makes (else CF_ERR_ARG: not ours); a listed file whose digest differs is refused.
 * Each region is written atomically and then recorded in the manifest (under a lock,
 * so that processes may share DIR). Returns CF_OK, or the first error; *stopped = 1
 * when p->stop ended the run early (may be NULL). */
cf_status cf_pregen_run(const cf_pregen_params *p, int *stopped, cf_error *err);

/* ------------------------------------------------------------------ surface stage
 * The blocks after the surface stage (../shared/MATERIAL-RULES.md §6): the noise stage of
 * cf_fill_blocks, then the settings' surface rule with biomes from b (opened for the same
 * seed and settings), the eroded-badlands and frozen-ocean extensions: a 1.18-1.21
 * `surface_rule` or a 26.3 `material_rule` (CF_ERR_ARG otherwise: cf_program_has_surface); out
 * as cf_fill_blocks, palette cf_block_palette. */
int cf_program_has_surface(const cf_program *prog);
cf_status cf_fill_blocks_surface(const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out,
                                 int threads, cf_error *err);
/* The same on a device opened for a block program (cf_device_open of cf_program_compile_blocks,
 * output 0): both stages on the device, the biome grids from cf_fill_biomes on the CPU; equal to
 * cf_fill_blocks_surface block for block. Programs for which cf_program_surface_on_device is 1
 * (both dialects' rules; CF_ERR_ARG otherwise). */
int cf_program_surface_on_device(const cf_program *prog);
cf_status cf_device_fill_blocks_surface(cf_device *d, const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks,
                                        uint8_t *out, cf_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CHUNKFILL_H */
