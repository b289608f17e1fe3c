/* pregen.c - cf_pregen_prepare / cf_pregen_run: regions of chunks -> files in a folder.
 *
 * A region (32 x 32 chunks) is the unit of work: its chunks are filled (blocks, and
 * biomes for .mca), its file is built in memory, written to a temporary name, synced
 * and renamed, and only then is its SHA-256 recorded in DIR/manifest.json (rewritten
 * whole, under an flock on DIR/manifest.lock, so ranks on several machines may share
 * a folder on a file system with working locks). A killed process leaves at most a
 * temporary file, which the next cf_pregen_prepare removes. README.md beside this file.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sha2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "biome/biome.h"
#include "image/image.h"
#include "ir/ir.h"
#include "pregen/pregen.h"

static int failf(cf_error *err, cf_status st, const char *fmt, ...)
{
    if (err && err->status == CF_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = st;
    }
    return -1;
}

/* ------------------------------------------------------------------ the area */

/* The chunks of an area: every chunk of a rectangle, or (a circle, as Chunky's) the chunks of
 * its bounding rectangle whose centre (16x + 8, 16z + 8) is closer than r blocks to (cx, cz):
 * Chunky tests Math.hypot(dx, dz) < radius at the chunk's centre; here exactly, in integers. */
typedef struct shape {
    long long x0, z0, x1, z1; /* chunks, inclusive: the rectangle (a circle's bounds) */
    int circle;
    long long cx, cz, r;      /* the circle, blocks */
} shape;

static void shape_of(const cf_pregen_params *p, shape *s)
{
    s->x0 = p->x0, s->z0 = p->z0, s->x1 = p->x1, s->z1 = p->z1;
    s->circle = p->shape == CF_PREGEN_CIRCLE;
    s->cx = p->center_x, s->cz = p->center_z, s->r = p->radius;
}

/* the chunks x0..x1 of the area in chunk row z: 1, or 0 when it has none */
static int shape_row(const shape *s, long long z, long long *x0, long long *x1)
{
    if (z < s->z0 || z > s->z1) return 0;
    *x0 = s->x0, *x1 = s->x1;
    if (s->circle) {
        long long dz = 16 * z + 8 - s->cz, rem = s->r * s->r - dz * dz - 1; /* dx * dx <= rem */
        if (rem < 0) return 0;
        long long m = (long long)sqrt((double)rem);
        while (m > 0 && m * m > rem) m--;
        while ((m + 1) * (m + 1) <= rem) m++;
        /* |16x + 8 - cx| <= m; >> 4 floors (arithmetic shift, as area_of's >> 5) */
        long long lo = (s->cx - 8 - m + 15) >> 4, hi = (s->cx - 8 + m) >> 4;
        if (lo > *x0) *x0 = lo;
        if (hi < *x1) *x1 = hi;
    }
    return *x0 <= *x1;
}

/* 1 when every chunk of a is a chunk of b */
static int shape_holds(const shape *b, const shape *a)
{
    if (!a->circle && !b->circle) return b->x0 <= a->x0 && b->z0 <= a->z0 && b->x1 >= a->x1 && b->z1 >= a->z1;
    for (long long z = a->z0; z <= a->z1; z++) {
        long long u0, u1, v0, v1;
        if (shape_row(a, z, &u0, &u1) && (!shape_row(b, z, &v0, &v1) || v0 > u0 || v1 < u1)) return 0;
    }
    return 1;
}

typedef struct area {
    int32_t rx0, rz0, nrx, nrz;
} area;

static void area_of(const cf_pregen_params *p, area *a)
{
    a->rx0 = p->x0 >> 5, a->rz0 = p->z0 >> 5; /* arithmetic shift: floor */
    a->nrx = (p->x1 >> 5) - a->rx0 + 1, a->nrz = (p->z1 >> 5) - a->rz0 + 1;
}

long cf_pregen_regions(const cf_pregen_params *p)
{
    if (p->x1 < p->x0 || p->z1 < p->z0) return 0;
    area a;
    area_of(p, &a);
    return (long)a.nrx * a.nrz;
}

/* region i -> its coordinates and its chunks in the area (z-major, then x): n chunks
 * into list (x, z pairs, room for 1024); 0 for a region of the rectangle outside a circle */
static size_t region_chunks(const cf_pregen_params *p, const area *a, long i, int32_t *rx, int32_t *rz, int32_t *list)
{
    shape s;
    shape_of(p, &s);
    *rx = a->rx0 + (int32_t)(i % a->nrx), *rz = a->rz0 + (int32_t)(i / a->nrx);
    size_t n = 0;
    for (int32_t z = *rz * 32; z <= *rz * 32 + 31; z++) {
        long long x0, x1;
        if (!shape_row(&s, z, &x0, &x1)) continue;
        for (long long x = x0 > *rx * 32 ? x0 : *rx * 32; x <= x1 && x <= *rx * 32 + 31; x++)
            list[2 * n] = (int32_t)x, list[2 * n + 1] = z, n++;
    }
    return n;
}

/* of the region indices base + lo .. base + hi, those in rank's class (i % nr == rank) */
static long long class_count(long long base, long long lo, long long hi, long rank, long nr)
{
    if (lo > hi) return 0;
    long long b = base + hi, a = base + lo - 1; /* f(n): the class members in 0..n */
    long long fb = b < rank ? 0 : (b - rank) / nr + 1, fa = a < rank ? 0 : (a - rank) / nr + 1;
    return fb - fa;
}

/* the regions i = rank, rank + nr, ... that hold chunks of the area, and their chunks, by
 * arithmetic: one step per chunk row (a loop over the regions took minutes for --radius
 * 30000000 and did not look at the stop flag) */
static void rank_totals(const cf_pregen_params *p, const area *a, long rank, long nr, long *regions, long long *chunks)
{
    shape s;
    shape_of(p, &s);
    *regions = 0, *chunks = 0;
    for (long long r = 0; r < a->nrz; r++) {
        long long base = r * a->nrx, lo = LLONG_MAX, hi = LLONG_MIN; /* the region columns with chunks */
        for (long long z = (a->rz0 + r) * 32; z <= (a->rz0 + r) * 32 + 31; z++) {
            long long x0, x1;
            if (!shape_row(&s, z, &x0, &x1)) continue;
            long long c0 = (x0 >> 5) - a->rx0, c1 = (x1 >> 5) - a->rx0;
            if (c0 < lo) lo = c0;
            if (c1 > hi) hi = c1;
            /* 32 chunks per column of the class, less what the end columns lack */
            long long k = 32 * class_count(base, c0, c1, rank, nr);
            int in0 = class_count(base, c0, c0, rank, nr) > 0, in1 = class_count(base, c1, c1, rank, nr) > 0;
            if (in0) k -= x0 - (a->rx0 + c0) * 32;
            if (in1) k -= (a->rx0 + c1) * 32 + 31 - x1;
            *chunks += k;
        }
        *regions += (long)class_count(base, lo, hi, rank, nr);
    }
}

static const char *ext_of(const cf_pregen_params *p)
{
    return p->format == CF_PREGEN_NPY ? "npy" : p->format == CF_PREGEN_TILES ? "tiles" : "mca";
}

/* ------------------------------------------------------------------ the world */

/* the game versions a dialect's files are written for (ANVIL.md#data-versions) */
static const struct {
    int dialect;
    anvil_version v;
} versions[] = {
    {DIALECT_MC263, {"26.3", 5023}},
    {DIALECT_MC121, {"1.21.11", 4671}},
};

typedef struct gen {
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_biomes *b;
    cf_device *dev;
    int auto_dev;              /* --device auto: a failing device falls back to the CPU */
    anvil_world aw;
    const char *blocks[CF_PALETTE_MAX];
    uint8_t solid[CF_PALETTE_MAX];
    int64_t seed;
    char settings[512];        /* the noise settings: given, the dimension's, or the overworld */
    int surface;               /* the blocks are the surface stage's */
    int layer;                 /* CF_PREGEN_TILES: the map layer's index */
    const char *layer_name;
} gen;

static void note(const cf_pregen_params *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const cf_pregen_params *p, const char *fmt, ...)
{
    if (!p->note) return;
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    p->note(p->note_ctx, line);
}

static void gen_free(gen *g)
{
    cf_device_free(g->dev);
    cf_biomes_free(g->b);
    cf_world_free(g->w);
    cf_program_free(g->pg);
    cf_pack_free(g->pk);
    memset(g, 0, sizeof *g);
}

/* opens the pack, the block program, the world, the biome source (for .mca, the surface
 * stage, a dimension and the layers that need biomes) and, when full > 1, the device */
enum { PREGEN_WORLD_CHUNKS = 1875000 }; /* 30,000,000 blocks / 16 */
static int gen_open(gen *g, const cf_pregen_params *p, int full, cf_error *err)
{
    memset(g, 0, sizeof *g);
    if (p->x1 < p->x0 || p->z1 < p->z0 || p->x0 < -CF_MAX_CHUNK || p->x1 > CF_MAX_CHUNK || p->z0 < -CF_MAX_CHUNK
        || p->z1 > CF_MAX_CHUNK)
        return failf(err, CF_ERR_ARG, "pregen: the area must be corners x0 <= x1, z0 <= z1 within +-%d chunks", CF_MAX_CHUNK);
    /* the game's world ends at its border (+-29,999,984 blocks): chunks past it are never
     * played, and an area of them is years of work (--radius 2000000000 ran for ever) */
    if (p->x0 < -PREGEN_WORLD_CHUNKS || p->x1 >= PREGEN_WORLD_CHUNKS || p->z0 < -PREGEN_WORLD_CHUNKS
        || p->z1 >= PREGEN_WORLD_CHUNKS)
        return failf(err, CF_ERR_ARG,
                     "pregen: the area reaches beyond the world (the game's border is at +-29,999,984 blocks, chunks "
                     "-%d..%d)",
                     PREGEN_WORLD_CHUNKS, PREGEN_WORLD_CHUNKS - 1);
    if (!p->dir || !*p->dir) return failf(err, CF_ERR_ARG, "pregen: no output folder");
    if (p->format != CF_PREGEN_MCA && p->format != CF_PREGEN_NPY && p->format != CF_PREGEN_TILES)
        return failf(err, CF_ERR_ARG, "pregen: unknown format");
    if (p->stage < CF_PREGEN_STAGE_DEFAULT || p->stage > CF_PREGEN_STAGE_SURFACE) return failf(err, CF_ERR_ARG, "pregen: unknown stage");
    int tiles = p->format == CF_PREGEN_TILES, needs = 0;
    if (tiles && p->stage == CF_PREGEN_STAGE_SURFACE)
        return failf(err, CF_ERR_ARG, "pregen: --stage surface: the map layers of --format tiles draw the noise stage");
    if (tiles) {
        g->layer_name = p->layer ? p->layer : "relief";
        if ((g->layer = cf_map_layer_find(g->layer_name)) < 0)
            return failf(err, CF_ERR_ARG, "pregen: --layer %s: no such map layer (chunkfill tiles --help lists them)", g->layer_name);
        cf_map_layer(g->layer, &needs, NULL);
    } else if (p->layer) {
        return failf(err, CF_ERR_ARG, "pregen: --layer goes with --format tiles");
    }
    const char *dev = p->device && strcmp(p->device, "cpu") != 0 ? p->device : NULL;
    if (cf_seed_parse(p->seed ? p->seed : "", &g->seed, err) != CF_OK) return -1;
    if (cf_pack_open(&g->pk, p->packs, p->npacks, NULL, err) != CF_OK) return -1;
    cf_pack_set_dialect(g->pk, p->dialect);
    if (p->version && cf_pack_set_game_version(g->pk, p->version, err) != CF_OK) return -1;
    /* a dimension decides the settings (unless given) and the biome source, as cf_biomes_open reads it */
    if (p->dimension) {
        if (cf_biomes_open(&g->b, g->pk, p->dimension, p->settings, NULL, g->seed, err) != CF_OK) return -1;
        snprintf(g->settings, sizeof g->settings, "%s", g->b->prog->settings_id);
    } else {
        snprintf(g->settings, sizeof g->settings, "%s", p->settings ? p->settings : "minecraft:overworld");
    }
    const char *settings = g->settings;
    /* inline settings (chunkfill:inline/...): the blocks are compiled from the same text, put
     * before the packs again as while cf_biomes_open compiled the climate program */
    biome_overlay(g->b, g->pk, 1);
    cf_status cst = cf_program_compile_blocks(&g->pg, g->pk, settings, err);
    biome_overlay(g->b, g->pk, 0);
    if (cst != CF_OK) return biome_overlay_message(g->b, err), -1;
    int k = cf_block_palette(g->pg, g->blocks);
    for (int i = 0; i < k; i++) g->solid[i] = (uint8_t)anvil_blocks_motion(g->blocks[i]);
    g->aw.v.game = NULL;
    for (size_t i = 0; i < sizeof versions / sizeof *versions; i++)
        if (versions[i].dialect == g->pg->dialect) g->aw.v = versions[i].v;
    if (!g->aw.v.game) return failf(err, CF_ERR_ARG, "pregen: settings '%s' are not Minecraft data (26.3 or 1.18-1.21)", settings);
    int dv = 0;
    const char *gv = cf_pack_game_version(g->pk, &dv, NULL); /* the packs' version (version.json, pack.mcmeta, --version) */
    if (gv && dv > 0) g->aw.v.game = gv, g->aw.v.data_version = dv;
    else if (p->npacks > 0 && g->pg->dialect == DIALECT_MC121) /* 26.3 data is 26.3's only */
        note(p, "pregen: the packs name no game version (no version.json or pack.mcmeta): writing %s, data version %d; choose "
                "another with --version", g->aw.v.game, (int)g->aw.v.data_version);
    /* the stage: by default the surface where the settings have one (as fill --blocks) */
    int has = cf_program_has_surface(g->pg);
    if (p->stage == CF_PREGEN_STAGE_SURFACE && !has)
        return failf(err, CF_ERR_ARG, "%s: --stage surface: these settings have no surface stage (noise settings with a surface_rule "
                     "or material_rule)", settings);
    g->surface = !tiles && (p->stage == CF_PREGEN_STAGE_DEFAULT ? has : p->stage == CF_PREGEN_STAGE_SURFACE);
    g->aw.status = g->surface ? "minecraft:surface" : "minecraft:noise";
    int surf_dev = g->surface && cf_program_surface_on_device(g->pg); /* both dialects' rules run on OpenCL */
    if (dev && ((g->surface && !surf_dev) || tiles) && strcmp(dev, "auto") != 0)
        return failf(err, CF_ERR_ARG, "--device %s: %s runs on the CPU only (use --device cpu or auto%s)", dev,
                     tiles ? "drawing map tiles" : "the surface stage of these rules", tiles ? "" : ", or --stage noise");
    cf_program_settings(g->pg, &g->aw.min_y, &g->aw.height, NULL);
    g->aw.blocks = g->blocks, g->aw.nblocks = k, g->aw.solid = g->solid;
    if (cf_world_new(&g->w, g->pg, g->seed, err) != CF_OK) return -1;
    if (!g->b && (p->format == CF_PREGEN_MCA || g->surface || (needs & CF_MAP_BIOMES))
        && cf_biomes_open(&g->b, g->pk, NULL, settings, NULL, g->seed, err) != CF_OK)
        return -1;
    if (g->b) {
        int bmin, bh;
        cf_biomes_range(g->b, &bmin, &bh);
        if (bmin != g->aw.min_y || bh != g->aw.height)
            return failf(err, CF_ERR_ARG, "pregen: the biome source covers y %d..%d, the blocks %d..%d", bmin, bmin + bh - 1,
                         g->aw.min_y, g->aw.min_y + g->aw.height - 1);
        g->aw.nbiomes = cf_biomes_palette(g->b, NULL);
        const char **bn = malloc(sizeof *bn * (size_t)(g->aw.nbiomes ? g->aw.nbiomes : 1));
        if (!bn) return failf(err, CF_ERR_NOMEM, "pregen: out of memory");
        cf_biomes_palette(g->b, bn);
        g->aw.biomes = bn;
    }
    if (full > 1 && dev) {
        if ((g->surface && !surf_dev) || tiles) {
            note(p, "%s runs on the CPU (no OpenCL form yet)", tiles ? "drawing map tiles" : "the surface stage of these rules");
        } else if (strcmp(dev, "auto") == 0) {
            g->auto_dev = 1;
            if (cf_device_open(&g->dev, "opencl", g->pg, 0, 0, err) != CF_OK) {
                note(p, "no usable OpenCL device (%s); filling on the CPU", err->message);
                memset(err, 0, sizeof *err);
            }
        } else if (cf_device_open(&g->dev, dev, g->pg, 0, 0, err) != CF_OK) {
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ files */

/* reads a whole file: 0 and a malloc'd *data, 1 when it does not exist, -1 on error */
static int read_file(const char *path, uint8_t **data, size_t *n, cf_error *err)
{
    *data = NULL, *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 1;
        return failf(err, CF_ERR_IO, "%s: %s", path, strerror(errno));
    }
    cf_buf b = {0};
    uint8_t chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) buf_put(&b, chunk, k);
    int bad = ferror(f);
    fclose(f);
    if (bad || b.oom) {
        buf_free(&b);
        return failf(err, CF_ERR_IO, "%s: read error", path);
    }
    *data = b.p ? b.p : malloc(1), *n = b.n;
    return 0;
}

/* writes data to DIR/NAME atomically (NAME may hold folders, which must exist): the checked
 * temporary beside it, fsync, rename (base/outfile.c: a FIFO, device or folder there is refused) */
static int write_atomic(const char *dir, const char *name, const uint8_t *data, size_t n, cf_error *err)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return failf(err, CF_ERR_IO, "%s/%s: path too long", dir, name);
    return out_write_file(path, data, n, err) == CF_OK ? 0 : -1;
}

/* ------------------------------------------------------------------ the manifest */

#define MANIFEST "manifest.json"

/* the parameters as the manifest records them: everything the bytes depend on */
static cJSON *params_json(const cf_pregen_params *p, const gen *g)
{
    cJSON *o = cJSON_CreateObject(), *packs = cJSON_CreateArray();
    char buf[64];
    snprintf(buf, sizeof buf, "%lld", (long long)g->seed);
    cJSON_AddStringToObject(o, "format", ext_of(p));
    cJSON_AddStringToObject(o, "stage", g->surface ? "surface" : "noise");
    if (g->layer_name) cJSON_AddStringToObject(o, "layer", g->layer_name);
    cJSON_AddStringToObject(o, "seed", buf);
    if (p->dimension) cJSON_AddStringToObject(o, "dimension", p->dimension);
    cJSON_AddStringToObject(o, "settings", g->settings);
    for (int i = 0; i < p->npacks; i++) {
        char real[PATH_MAX];
        cJSON_AddItemToArray(packs, cJSON_CreateString(realpath(p->packs[i], real) ? real : p->packs[i]));
    }
    cJSON_AddItemToObject(o, "packs", packs);
    cJSON_AddNumberToObject(o, "dialect", p->dialect);
    int a[4] = {p->x0, p->z0, p->x1, p->z1};
    cJSON_AddItemToObject(o, "chunks", cJSON_CreateIntArray(a, 4));
    if (p->shape == CF_PREGEN_CIRCLE) { /* a square's manifest stays as it was */
        double c[2] = {(double)p->center_x, (double)p->center_z};
        cJSON_AddStringToObject(o, "shape", "circle");
        cJSON_AddItemToObject(o, "center", cJSON_CreateDoubleArray(c, 2));
        cJSON_AddNumberToObject(o, "radius", (double)p->radius);
    }
    cJSON_AddStringToObject(o, "game", g->aw.v.game);
    cJSON_AddNumberToObject(o, "data_version", g->aw.v.data_version);
    cJSON_AddNumberToObject(o, "min_y", g->aw.min_y);
    cJSON_AddNumberToObject(o, "height", g->aw.height);
    return o;
}

static int manifest_path(const cf_pregen_params *p, const char *name, char *out, cf_error *err)
{
    if ((size_t)snprintf(out, PATH_MAX, "%s/%s", p->dir, name) >= PATH_MAX)
        return failf(err, CF_ERR_IO, "%s: path too long", p->dir);
    return 0;
}

/* takes the folder's lock: a file descriptor, or -1 (err set) */
static int lock_dir(const cf_pregen_params *p, cf_error *err)
{
    char path[PATH_MAX];
    if (manifest_path(p, "manifest.lock", path, err) < 0) return -1;
    /* no link followed, no FIFO waited on: the lock is a regular file of the folder */
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) return failf(err, CF_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return failf(err, CF_ERR_IO, "%s: not a regular file: refusing to use it as the folder's lock", path);
    }
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            close(fd);
            return failf(err, CF_ERR_IO, "%s: cannot lock: %s", path, strerror(errno));
        }
    return fd;
}
static void unlock_dir(int fd)
{
    if (fd >= 0) close(fd); /* releases the flock */
}

/* the area keys of the manifest's params: "chunks" (the rectangle), and for a circle "shape",
 * "center" and "radius" */
static int is_area_key(const char *k)
{
    return strcmp(k, "chunks") == 0 || strcmp(k, "shape") == 0 || strcmp(k, "center") == 0 || strcmp(k, "radius") == 0;
}

/* the area of a manifest's params (or of a grown_from entry: the "chunks" array alone, or an
 * object of the area keys); 0 or -1 */
static int shape_of_json(const cJSON *o, shape *s)
{
    const cJSON *c = cJSON_IsArray(o) ? o : cJSON_GetObjectItemCaseSensitive(o, "chunks");
    long long r[4];
    if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != 4) return -1;
    for (int k = 0; k < 4; k++) {
        const cJSON *v = cJSON_GetArrayItem(c, k);
        if (!cJSON_IsNumber(v)) return -1;
        r[k] = (long long)v->valuedouble;
    }
    memset(s, 0, sizeof *s);
    s->x0 = r[0], s->z0 = r[1], s->x1 = r[2], s->z1 = r[3];
    const cJSON *sh = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, "shape") : NULL;
    if (!sh) return 0;
    const cJSON *ce = cJSON_GetObjectItemCaseSensitive(o, "center"), *ra = cJSON_GetObjectItemCaseSensitive(o, "radius");
    if (!cJSON_IsString(sh) || strcmp(sh->valuestring, "circle") != 0 || !cJSON_IsArray(ce) || cJSON_GetArraySize(ce) != 2
        || !cJSON_IsNumber(cJSON_GetArrayItem(ce, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(ce, 1)) || !cJSON_IsNumber(ra)
        || fabs(ra->valuedouble) > 4e9 || fabs(cJSON_GetArrayItem(ce, 0)->valuedouble) > 4e9
        || fabs(cJSON_GetArrayItem(ce, 1)->valuedouble) > 4e9)
        return -1;
    s->circle = 1;
    s->cx = (long long)cJSON_GetArrayItem(ce, 0)->valuedouble, s->cz = (long long)cJSON_GetArrayItem(ce, 1)->valuedouble;
    s->r = (long long)ra->valuedouble;
    return 0;
}

/* the area keys of params as one JSON value: the "chunks" array (a rectangle), or an object */
static cJSON *area_json(const cJSON *params)
{
    if (!cJSON_GetObjectItemCaseSensitive(params, "shape")) return cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(params, "chunks"), 1);
    cJSON *o = cJSON_CreateObject();
    for (const cJSON *it = params->child; it; it = it->next)
        if (is_area_key(it->string)) cJSON_AddItemToObject(o, it->string, cJSON_Duplicate(it, 1));
    return o;
}

/* 1 when region (rx, rz) holds other chunks of area a than of area b */
static int coverage_differs(int32_t rx, int32_t rz, const shape *a, const shape *b)
{
    for (long long z = (long long)rz * 32; z <= (long long)rz * 32 + 31; z++) {
        long long c[4], lo = (long long)rx * 32, hi = lo + 31;
        int ia = shape_row(a, z, &c[0], &c[1]), ib = shape_row(b, z, &c[2], &c[3]);
        ia = ia && c[0] <= hi && c[1] >= lo, ib = ib && c[2] <= hi && c[3] >= lo;
        if (ia != ib) return 1;
        if (ia && ((c[0] > lo ? c[0] : lo) != (c[2] > lo ? c[2] : lo) || (c[1] < hi ? c[1] : hi) != (c[3] < hi ? c[3] : hi))) return 1;
    }
    return 0;
}

/* reads and checks the manifest against params: *out (caller deletes), or NULL when
 * there is none; -1 with a located error when it is unreadable or for other parameters
 * (an area inside this run's is not: the run grows the world, prepare records it) */
static int manifest_read(const cf_pregen_params *p, const cJSON *params, cJSON **out, cf_error *err)
{
    char path[PATH_MAX];
    uint8_t *data;
    size_t n;
    *out = NULL;
    if (manifest_path(p, MANIFEST, path, err) < 0) return -1;
    int r = read_file(path, &data, &n, err);
    if (r) return r > 0 ? 0 : -1;
    cJSON *m = cJSON_ParseWithLength((const char *)data, n);
    free(data);
    if (!m || !cJSON_IsObject(m))
        return cJSON_Delete(m), failf(err, CF_ERR_JSON, "%s: not a complete JSON object (truncated or damaged; remove the folder or the file to start over)", path);
    /* the format of the folder: a manifest of another version is someone else's layout */
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(m, "chunkfill_pregen");
    if (!cJSON_IsNumber(ver) || ver->valuedouble != 1)
        return cJSON_Delete(m), failf(err, CF_ERR_SCHEMA,
                                      "%s#/chunkfill_pregen: %s, this chunkfill reads version 1 (another version of "
                                      "chunkfill wrote the folder: use another --out)",
                                      path, ver ? "not 1" : "missing");
    const cJSON *have = cJSON_GetObjectItemCaseSensitive(m, "params"), *regions = cJSON_GetObjectItemCaseSensitive(m, "regions");
    if (!cJSON_IsObject(have)) return cJSON_Delete(m), failf(err, CF_ERR_SCHEMA, "%s#/params: missing or not an object", path);
    if (!cJSON_IsObject(regions)) return cJSON_Delete(m), failf(err, CF_ERR_SCHEMA, "%s#/regions: missing or not an object", path);
    int nkeys = 0;
    for (const cJSON *it = params->child; it; it = it->next) {
        if (is_area_key(it->string)) continue; /* below */
        nkeys++;
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, it->string);
        if (!h || !cJSON_Compare(h, it, 1)) {
            char *a = h ? cJSON_PrintUnformatted(h) : NULL, *b = cJSON_PrintUnformatted(it);
            failf(err, CF_ERR_ARG, "%s#/params/%s: this folder was made with %s, this run has %s: use another --out", path,
                  it->string, a ? a : "nothing", b ? b : "?");
            free(a), free(b);
            cJSON_Delete(m);
            return -1;
        }
    }
    for (const cJSON *it = have->child; it; it = it->next) nkeys -= !is_area_key(it->string);
    if (nkeys != 0)
        return cJSON_Delete(m), failf(err, CF_ERR_ARG, "%s#/params: other parameters than this run's: use another --out", path);
    /* the area: the same, or one that holds the folder's (the run grows the world) */
    shape had, now;
    cJSON *ha = area_json(have), *na = area_json(params);
    int same = cJSON_Compare(ha, na, 1), ok = same || (shape_of_json(have, &had) == 0 && shape_of_json(params, &now) == 0 && shape_holds(&now, &had));
    if (!ok) {
        char *a = cJSON_PrintUnformatted(ha), *b = cJSON_PrintUnformatted(na);
        failf(err, CF_ERR_ARG, "%s#/params/chunks: this folder was made with %s, this run has %s, which does not hold it: use another "
              "--out (an area that holds the folder's grows it)", path, a ? a : "nothing", b ? b : "?");
        free(a), free(b);
    }
    cJSON_Delete(ha), cJSON_Delete(na);
    if (!ok) return cJSON_Delete(m), -1;
    for (const cJSON *it = regions->child; it; it = it->next)
        if (!cJSON_IsString(it) || strlen(it->valuestring) != 64)
            return cJSON_Delete(m), failf(err, CF_ERR_SCHEMA, "%s#/regions/%s: not a SHA-256 digest", path, it->string);
    *out = m;
    return 0;
}

static int rec_cmp(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

/* writes the manifest: params, palettes, the regions in index order */
static int manifest_write(const cf_pregen_params *p, const gen *g, const cJSON *params, const cJSON *regions, const cJSON *grown,
                          cf_error *err)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddNumberToObject(m, "chunkfill_pregen", 1);
    cJSON_AddItemToObject(m, "params", cJSON_Duplicate(params, 1));
    /* grown (the old manifest, or NULL): grown_from, the areas (chunks) the folder held before
     * runs that grew it, oldest first; outgrown, the regions made for one of them whose chunks
     * the larger area changes, with their digests, until they are made again */
    static const char *const keep[2] = {"grown_from", "outgrown"};
    for (int k = 0; grown && k < 2; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(grown, keep[k]);
        if (v && cJSON_GetArraySize(v) > 0) cJSON_AddItemToObject(m, keep[k], cJSON_Duplicate(v, 1));
    }
    cJSON_AddItemToObject(m, "blocks", cJSON_CreateStringArray(g->aw.blocks, g->aw.nblocks));
    if (g->aw.nbiomes) cJSON_AddItemToObject(m, "biomes", cJSON_CreateStringArray(g->aw.biomes, g->aw.nbiomes));
    cJSON *rs = cJSON_AddObjectToObject(m, "regions");
    /* the recorded regions of the area in index order (sorted, not found by a walk over
     * every region of the area: 10^10 of them for --radius 30000000) */
    area a;
    area_of(p, &a);
    int nrec = regions ? cJSON_GetArraySize((cJSON *)regions) : 0;
    struct rec {
        long long i;
        const cJSON *d;
    } *recs = malloc(sizeof *recs * (size_t)(nrec ? nrec : 1));
    if (!recs) return cJSON_Delete(m), failf(err, CF_ERR_NOMEM, "pregen: out of memory");
    int k = 0;
    for (const cJSON *d = regions ? regions->child : NULL; d; d = d->next) {
        int rx, rz, end = 0;
        char ext[8];
        if (!cJSON_IsString(d) || sscanf(d->string, "r.%d.%d.%7[a-z]%n", &rx, &rz, ext, &end) != 3
            || d->string[end] != 0 || strcmp(ext, ext_of(p)) != 0)
            continue;
        char canon[64];
        snprintf(canon, sizeof canon, "r.%d.%d.%s", rx, rz, ext_of(p));
        if (strcmp(canon, d->string) != 0) continue;
        long long cx = (long long)rx - a.rx0, cz = (long long)rz - a.rz0;
        if (cx < 0 || cx >= a.nrx || cz < 0 || cz >= a.nrz) continue;
        recs[k].i = cz * a.nrx + cx, recs[k].d = d, k++;
    }
    qsort(recs, (size_t)k, sizeof *recs, rec_cmp);
    for (int j = 0; j < k; j++)
        if (j == 0 || recs[j].i != recs[j - 1].i) cJSON_AddStringToObject(rs, recs[j].d->string, recs[j].d->valuestring);
    free(recs);
    char *text = cJSON_Print(m);
    cJSON_Delete(m);
    if (!text) return failf(err, CF_ERR_NOMEM, "pregen: out of memory");
    size_t n = strlen(text);
    text[n] = '\n';
    int r = write_atomic(p->dir, MANIFEST, (const uint8_t *)text, n + 1, err);
    free(text);
    return r;
}

/* removes the temporaries (.NAME.tmp-PID) that killed runs left in folder */
static void remove_temps(const char *folder)
{
    DIR *d = opendir(folder);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] == '.' && strstr(e->d_name, ".tmp-")) {
            char path[PATH_MAX];
            if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, e->d_name) < sizeof path) unlink(path);
        }
    closedir(d);
}

static int is_region_name(const char *s)
{
    int x, z, k = 0;
    char ext[4];
    return sscanf(s, "r.%d.%d.%3[a-z]%n", &x, &z, ext, &k) == 3 && s[k] == 0
           && (strcmp(ext, "mca") == 0 || strcmp(ext, "npy") == 0);
}

cf_status cf_pregen_prepare(const cf_pregen_params *p, cf_error *err)
{
    gen g;
    cJSON *params = NULL, *m = NULL;
    int lock = -1;
    cf_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    if (gen_open(&g, p, 1, err) < 0) goto done;
    params = params_json(p, &g);
    if (out_check_dir(p->dir, err) != CF_OK) goto done; /* a file, FIFO or device there: one line */
    if (mkdir(p->dir, 0777) != 0 && errno != EEXIST) {
        failf(err, CF_ERR_IO, "%s: cannot create the folder: %s", p->dir, strerror(errno));
        goto done;
    }
    struct stat st;
    if (stat(p->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        failf(err, CF_ERR_IO, "%s: not a folder", p->dir);
        goto done;
    }
    if (access(p->dir, W_OK) != 0) {
        failf(err, CF_ERR_IO, "%s: not writable: %s", p->dir, strerror(errno));
        goto done;
    }
    if ((lock = lock_dir(p, err)) < 0) goto done;
    if (manifest_read(p, params, &m, err) < 0) goto done;
    DIR *d = opendir(p->dir);
    if (!d) {
        failf(err, CF_ERR_IO, "%s: %s", p->dir, strerror(errno));
        goto done;
    }
    struct dirent *e;
    int foreign = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && strstr(e->d_name, ".tmp-")) {
            /* left by a killed run; shards started independently (nranks > 1) may be
             * writing theirs right now, so only a single preparer removes them */
            if (p->nranks > 1) continue;
            char path[PATH_MAX];
            if ((size_t)snprintf(path, sizeof path, "%s/%s", p->dir, e->d_name) < sizeof path) unlink(path);
        } else if (!m && (is_region_name(e->d_name) || cf_map_layer_find(e->d_name) >= 0)) {
            foreign = 1; /* region files, or a folder of map tiles */
        }
    }
    closedir(d);
    if (g.layer_name && p->nranks <= 1) { /* the tiles' folders LAYER/0/X */
        char lv[PATH_MAX];
        if ((size_t)snprintf(lv, sizeof lv, "%s/%s/0", p->dir, g.layer_name) < sizeof lv && (d = opendir(lv))) {
            while ((e = readdir(d))) {
                char sub[PATH_MAX];
                if (e->d_name[0] != '.' && (size_t)snprintf(sub, sizeof sub, "%s/%s", lv, e->d_name) < sizeof sub)
                    remove_temps(sub);
            }
            closedir(d);
        }
    }
    if (foreign) {
        failf(err, CF_ERR_ARG, "%s: holds region files or map tiles but no %s: not a chunkfill pregen folder (use an empty folder)",
              p->dir, MANIFEST);
        goto done;
    }
    if (!m) manifest_write(p, &g, params, NULL, NULL, err);
    else { /* a larger area than the folder's: record the old one (its regions stay) and take this run's */
        const cJSON *hp = cJSON_GetObjectItemCaseSensitive(m, "params");
        cJSON *had = area_json(hp), *want = area_json(params);
        shape was, now;
        int differ = !cJSON_Compare(had, want, 1) && shape_of_json(hp, &was) == 0 && shape_of_json(params, &now) == 0;
        cJSON_Delete(want);
        if (differ) {
            cJSON *grown = cJSON_GetObjectItemCaseSensitive(m, "grown_from"), *out = cJSON_GetObjectItemCaseSensitive(m, "outgrown");
            if (!cJSON_IsArray(grown)) cJSON_DeleteItemFromObjectCaseSensitive(m, "grown_from"), grown = cJSON_AddArrayToObject(m, "grown_from");
            if (!cJSON_IsObject(out)) cJSON_DeleteItemFromObjectCaseSensitive(m, "outgrown"), out = cJSON_AddObjectToObject(m, "outgrown");
            cJSON_AddItemToArray(grown, had), had = NULL;
            cJSON *rs = cJSON_GetObjectItemCaseSensitive(m, "regions");
            for (cJSON *r = rs ? rs->child : NULL, *nx; r; r = nx) {
                nx = r->next;
                int rx, rz;
                if (sscanf(r->string, "r.%d.%d.", &rx, &rz) == 2 && coverage_differs(rx, rz, &was, &now))
                    cJSON_AddItemToObject(out, r->string, cJSON_DetachItemViaPointer(rs, r));
            }
            manifest_write(p, &g, params, rs, m, err);
        }
        cJSON_Delete(had);
    }
done:
    unlock_dir(lock);
    cJSON_Delete(m);
    cJSON_Delete(params);
    free((void *)g.aw.biomes);
    gen_free(&g);
    return err->status;
}

/* ------------------------------------------------------------------ one region */

/* The files of region (rx, rz), names relative to DIR: r.X.Z.mca or r.X.Z.npy, or the
 * level-0 tiles LAYER/0/X/Y.png of the region (2 x 2 tiles of 256 x 256 blocks) that meet
 * the area, by y then x. Returns their count (1..4). */
#define MAX_FILES 4
static int region_files(const gen *g, const cf_pregen_params *p, int32_t rx, int32_t rz, char names[MAX_FILES][96])
{
    if (p->format != CF_PREGEN_TILES) {
        snprintf(names[0], 96, "r.%d.%d.%s", rx, rz, ext_of(p));
        return 1;
    }
    shape s;
    shape_of(p, &s);
    int nf = 0;
    for (int32_t ty = 2 * rz; ty <= 2 * rz + 1; ty++)
        for (int32_t tx = 2 * rx; tx <= 2 * rx + 1; tx++) { /* tile t holds chunks 16t .. 16t+15 */
            int meets = 0;
            for (long long z = ty * 16LL, x0, x1; z <= ty * 16LL + 15 && !meets; z++)
                meets = shape_row(&s, z, &x0, &x1) && x0 <= tx * 16LL + 15 && x1 >= tx * 16LL;
            if (meets) snprintf(names[nf++], 96, "%s/0/%d/%d.png", g->layer_name, tx, ty);
        }
    return nf;
}

/* block fills of k chunks at the stage: the device (falling back to the CPU under --device
 * auto), or the CPU */
static int fill_blocks(gen *g, const cf_pregen_params *p, size_t k, const int32_t *l, uint8_t *blk, cf_error *err)
{
    if (g->dev) {
        if ((g->surface ? cf_device_fill_blocks_surface(g->dev, g->w, g->b, k, l, blk, err) : cf_device_fill_blocks(g->dev, g->w, k, l, blk, err))
            == CF_OK)
            return 0;
        if (!g->auto_dev) return -1;
        note(p, "the device failed (%s); the remaining chunks are filled on the CPU", err->message);
        memset(err, 0, sizeof *err);
        cf_device_free(g->dev);
        g->dev = NULL;
    }
    return (g->surface ? cf_fill_blocks_surface(g->w, g->b, k, l, blk, p->threads, err) : cf_fill_blocks(g->w, k, l, blk, p->threads, err))
                   == CF_OK
               ? 0
               : -1;
}

/* the region's map tiles (names as region_files gives them) into out[] */
static int build_tiles(gen *g, const cf_pregen_params *p, char names[MAX_FILES][96], int nf, cf_buf *out, cf_error *err)
{
    uint8_t *rgb = malloc(256 * 256 * 3);
    if (!rgb) return failf(err, CF_ERR_NOMEM, "pregen: out of memory");
    for (int f = 0; f < nf; f++) {
        int tx, ty;
        const char *s = names[f] + strlen(g->layer_name) + 3; /* past "LAYER/0/" */
        uint8_t *png;
        size_t n;
        if (sscanf(s, "%d/%d", &tx, &ty) != 2
            || cf_map_draw_biomes(g->w, g->b, g->layer, tx * 256, ty * 256, 1, 256, 256, INT32_MAX, rgb, NULL, p->threads, err)
                   != CF_OK
            || image_png_bytes(rgb, 256, 256, &png, &n, err) != CF_OK) {
            free(rgb);
            return failf(err, CF_ERR_ARG, "pregen: %s: cannot draw", names[f]);
        }
        buf_put(&out[f], png, n);
        free(png);
    }
    free(rgb);
    return 0;
}

/* fills the region's chunks and builds its file in out[0] (tiles: its files in out[]) */
static int build_region(gen *g, const cf_pregen_params *p, const int32_t *list, size_t n, char names[MAX_FILES][96], int nf,
                        cf_buf *outs, cf_error *err)
{
    for (int f = 0; f < nf; f++) outs[f].n = 0, outs[f].oom = 0;
    if (p->format == CF_PREGEN_TILES) {
        if (build_tiles(g, p, names, nf, outs, err) < 0) return -1;
        for (int f = 0; f < nf; f++)
            if (outs[f].oom) return failf(err, CF_ERR_NOMEM, "pregen: out of memory");
        return 0;
    }
    cf_buf *out = &outs[0];
    size_t per = (size_t)g->aw.height * 256, bper = (size_t)g->aw.height / 4 * 16, batch = 64;
    /* a device fills two of its batches a call (up to a region, 1,024 chunks): a GPU's launches
     * are not cut to 64 chunks, and the device reads one batch back while it computes the next */
    if (g->dev) {
        size_t db = 2 * cf_device_batch(g->dev);
        batch = db < batch ? batch : db > 1024 ? 1024 : db;
    }
    /* height > 0 (the settings are checked at compile): never a 0-byte allocation */
    uint8_t *blk = malloc(per * batch + 1), *bio = malloc(bper * batch + 1);
    anvil_region *reg = p->format == CF_PREGEN_MCA ? calloc(1, sizeof *reg) : NULL;
    cf_buf nbt = {0};
    int rc = -1;
    if (!blk || !bio || (p->format == CF_PREGEN_MCA && !reg)) {
        failf(err, CF_ERR_NOMEM, "pregen: out of memory");
        goto done;
    }
    if (p->format == CF_PREGEN_NPY) {
        char hdr[256];
        int hl = snprintf(hdr, sizeof hdr, "{'descr': '|u1', 'fortran_order': False, 'shape': (%zu, %d, 16, 16), }", n,
                          g->aw.height);
        int total = 10 + hl + 1, pad = (64 - total % 64) % 64;
        memset(hdr + hl, ' ', (size_t)pad);
        hdr[hl + pad] = '\n';
        unsigned hlen = (unsigned)(hl + pad + 1);
        uint8_t magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)(hlen & 255), (uint8_t)(hlen >> 8)};
        buf_put(out, magic, 10);
        buf_put(out, hdr, hlen);
    }
    for (size_t b0 = 0; b0 < n; b0 += batch) {
        size_t k = n - b0 < batch ? n - b0 : batch;
        const int32_t *l = list + 2 * b0;
        if (fill_blocks(g, p, k, l, blk, err) < 0) goto done;
        if (p->format == CF_PREGEN_NPY) {
            buf_put(out, blk, per * k);
            continue;
        }
        if (cf_fill_biomes(g->b, k, l, bio, p->threads, err) != CF_OK) goto done;
        for (size_t c = 0; c < k; c++) {
            nbt.n = 0;
            if (anvil_chunk_nbt(&nbt, &g->aw, l[2 * c], l[2 * c + 1], blk + per * c, bio + bper * c, err) < 0) goto done;
            if (anvil_region_put(reg, l[2 * c] & 31, l[2 * c + 1] & 31, &nbt, err) < 0) goto done;
        }
    }
    if (reg && anvil_region_bytes(reg, out, err) < 0) goto done;
    if (out->oom) {
        failf(err, CF_ERR_NOMEM, "pregen: out of memory");
        goto done;
    }
    rc = 0;
done:
    if (reg) anvil_region_free(reg);
    free(reg);
    buf_free(&nbt);
    free(blk);
    free(bio);
    return rc;
}

/* the SHA-256 of a region: of its files' bytes one after the other */
static void files_digest(const cf_buf *f, int nf, char hex[65])
{
    SHA2_CTX c;
    uint8_t d[SHA256_DIGEST_LENGTH];
    SHA256Init(&c);
    for (int i = 0; i < nf; i++) SHA256Update(&c, f[i].p ? f[i].p : (const uint8_t *)"", f[i].n);
    SHA256Final(d, &c);
    for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", d[i]);
}

/* mkdir of NAME's folders under DIR (tiles: LAYER/0/X) */
static int make_folders(const char *dir, const char *name, cf_error *err)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) return failf(err, CF_ERR_IO, "%s/%s: path too long", dir, name);
    for (char *c = path + strlen(dir) + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        int r = mkdir(path, 0777);
        *c = '/';
        if (r != 0 && errno != EEXIST) return failf(err, CF_ERR_IO, "%s: cannot create its folder: %s", path, strerror(errno));
    }
    return 0;
}

/* the digest the manifest lists for name (copied into hex), under the lock; 1 if listed.
 * *regrow: 1 where it is listed as outgrown (made for a smaller area than this run's): its
 * files are made again and replace the ones of that digest */
static int listed_digest(const cf_pregen_params *p, const cJSON *params, const char *name, int *regrow, char hex[65],
                         cf_error *err)
{
    *regrow = 0;
    cJSON *m;
    int lock = lock_dir(p, err), r = -1;
    if (lock < 0) return -1;
    if (manifest_read(p, params, &m, err) == 0) {
        if (!m) {
            failf(err, CF_ERR_IO, "%s/%s: missing (was the folder prepared?)", p->dir, MANIFEST);
        } else {
            const cJSON *d = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "regions"), name);
            if (!cJSON_IsString(d)) {
                d = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "outgrown"), name);
                *regrow = cJSON_IsString(d);
            }
            r = cJSON_IsString(d);
            if (r) snprintf(hex, 65, "%s", d->valuestring);
        }
        cJSON_Delete(m);
    }
    unlock_dir(lock);
    return r;
}

static int record_digest(const cf_pregen_params *p, const gen *g, const cJSON *params, const char *name, const char *hex,
                         cf_error *err)
{
    cJSON *m;
    int lock = lock_dir(p, err), r = -1;
    if (lock < 0) return -1;
    if (manifest_read(p, params, &m, err) == 0 && m) {
        cJSON *rs = cJSON_GetObjectItemCaseSensitive(m, "regions");
        cJSON_DeleteItemFromObjectCaseSensitive(rs, name);
        cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "outgrown"), name);
        cJSON_AddStringToObject(rs, name, hex);
        r = manifest_write(p, g, params, rs, m, err);
    } else if (!m) {
        failf(err, CF_ERR_IO, "%s/%s: disappeared during the run", p->dir, MANIFEST);
    }
    cJSON_Delete(m);
    unlock_dir(lock);
    return r;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

cf_status cf_pregen_run(const cf_pregen_params *p, int *stopped, cf_error *err)
{
    gen g;
    cJSON *params = NULL;
    cf_buf out[MAX_FILES] = {{0}}, old[MAX_FILES] = {{0}};
    cf_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    if (stopped) *stopped = 0;
    if (gen_open(&g, p, 2, err) < 0) goto done;
    params = params_json(p, &g);
    area a;
    area_of(p, &a);
    long nreg = cf_pregen_regions(p), nr = p->nranks > 0 ? p->nranks : 1;
    cf_pregen_progress pr = {0};
    int32_t *list = malloc(sizeof(int32_t) * 2048);
    if (!list) {
        failf(err, CF_ERR_NOMEM, "pregen: out of memory");
        goto done;
    }
    int32_t rx, rz;
    if (!p->next_region) {
        long regions;
        long long chunks;
        rank_totals(p, &a, p->rank, nr, &regions, &chunks);
        pr.regions_total += regions, pr.chunks_total += chunks;
    }
    double t0 = now_s();
    for (long i = p->next_region ? p->next_region(p->next_ctx) : p->rank; i >= 0 && i < nreg;
         i = p->next_region ? p->next_region(p->next_ctx) : i + nr) {
        if (p->stop && *p->stop) {
            if (stopped) *stopped = 1;
            break;
        }
        size_t n = region_chunks(p, &a, i, &rx, &rz, list);
        if (n == 0) continue; /* a corner of a circle's rectangle: no file */
        if (p->next_region) pr.regions_total++, pr.chunks_total += (long long)n;
        char key[64], names[MAX_FILES][96], path[PATH_MAX], want[65] = "", have[65];
        snprintf(key, sizeof key, "r.%d.%d.%s", rx, rz, ext_of(p));
        int nf = region_files(&g, p, rx, rz, names);
        int regrow = 0, intact = 0;
        int listed = listed_digest(p, params, key, &regrow, want, err);
        if (listed < 0) break;
        /* the files there now: all present and listed with their digest, or made again */
        int present = 0, bad = 0;
        for (int f = 0; f < nf && !bad; f++) {
            if ((size_t)snprintf(path, sizeof path, "%s/%s", p->dir, names[f]) >= sizeof path) {
                failf(err, CF_ERR_IO, "%s: path too long", p->dir);
                bad = 1;
                break;
            }
            free(old[f].p);
            old[f].p = NULL, old[f].n = 0;
            int missing = read_file(path, &old[f].p, &old[f].n, err);
            if (missing < 0) bad = 1;
            present += !missing;
        }
        if (bad) break;
        if (present == nf && listed) {
            files_digest(old, nf, have);
            intact = strcmp(have, want) == 0;
            if (intact && !regrow) {
                pr.chunks_skipped += (long long)n;
                goto next;
            }
        }
        if (build_region(&g, p, list, n, names, nf, out, err) < 0) break;
        files_digest(out, nf, have);
        for (int f = 0; f < nf && !bad; f++) {
            if (!old[f].p || (old[f].n == out[f].n && (!out[f].n || memcmp(old[f].p, out[f].p, out[f].n) == 0))) continue;
            if (intact && regrow) { /* made for a smaller area: replaced */
                free(old[f].p);
                old[f].p = NULL, old[f].n = 0;
                continue;
            }
            if (listed)
                failf(err, CF_ERR_ARG, "%s/%s: differs from its digest in %s (damaged, or not written by chunkfill): remove it to "
                      "regenerate", p->dir, names[f], MANIFEST);
            else
                failf(err, CF_ERR_ARG, "%s/%s: not listed in %s and not what this run makes: not ours (remove it to regenerate)",
                      p->dir, names[f], MANIFEST);
            bad = 1;
        }
        for (int f = 0; f < nf && !bad; f++)
            if (!old[f].p && (make_folders(p->dir, names[f], err) < 0 || write_atomic(p->dir, names[f], out[f].p, out[f].n, err) < 0))
                bad = 1;
        if (bad) break;
        if (present == nf && listed && !intact) {
            /* every file equals what this run makes, yet the digest differs: the manifest was edited */
            failf(err, CF_ERR_ARG, "%s/%s#/regions/%s: not the digest of the region's files: remove the entry to regenerate", p->dir,
                  MANIFEST, key);
            break;
        }
        if (record_digest(p, &g, params, key, have, err) < 0) break;
    next:
        pr.regions_done++;
        pr.chunks_done += (long long)n;
        pr.seconds = now_s() - t0;
        if (p->progress) p->progress(p->progress_ctx, &pr);
    }
    free(list);
done:
    for (int f = 0; f < MAX_FILES; f++) buf_free(&out[f]), free(old[f].p);
    cJSON_Delete(params);
    free((void *)g.aw.biomes);
    gen_free(&g);
    return err->status;
}
