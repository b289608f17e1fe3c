/* maps.c - the map commands: `render` (one PNG of the surface, a layer, heights .npy),
 * `tiles` (a pyramid of PNG tiles and a viewer) and `columns` (per-column map data into a
 * structured .npy). Files written to temporary names and renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char usage_render[] =
    "usage: chunkfill render [--pack PATH]... [--settings ID | --dimension ID] --seed SEED --area X0,Z0:X1,Z1\n"
    "                        [--scale N] [--below Y] [--device cpu|opencl[:N]] [--threads N]\n"
    "                        [--layer NAME] [--structures] --out FILE.png [--heights FILE.npy] [--quiet]\n"
    "Draws the exact surface of the noise fill of the area (block coordinates, inclusive): per\n"
    "column the top block whose final density is > 0 (the same block a full fill gives), as a\n"
    "shaded-relief map: land coloured by height, hillshade from the north-west, below the\n"
    "settings' sea level their default fluid (water coloured by depth, lava orange; the End has\n"
    "none: columns without blocks near black). One pixel per block, or --scale N blocks per pixel:\n"
    "pixel (i, k) shows the column (X0 + i*N, Z0 + k*N), the first block of its N x N square,\n"
    "and only those columns are computed (below --scale 10, the chunks that hold them).\n"
    "--below Y searches from Y down (in the nether the top solid block is the roof: --below\n"
    "100 shows the floor of its caverns). --dimension ID draws a dimension (data/<ns>/dimension/\n"
    "<path>.json of the packs, else vanilla's): its noise settings and its biome source, as\n"
    "`serve --http` draws it; --settings ID draws those settings with the preset biome source.\n"
    "--heights writes\n"
    "the int32 height field of the picture (min_y - 1 where no block is solid), shape (nz, nx),\n"
    "index [z][x]. --layer picks the map layer (default relief; `chunkfill tiles --help` lists\n"
    "them). --device opencl[:N] computes on an OpenCL device (`chunkfill devices`) what the CPU\n"
    "would: the chunks that hold the sampled columns (their densities, blocks, and the surface\n"
    "stage where the rules have an OpenCL form; 26.3 material rules stay on the CPU) and the\n"
    "biomes; the picture is byte for byte the CPU's. Files appear only when complete.\n"
    "--structures draws a marker on each structure start whose chunk is in the area (the starts\n"
    "`chunkfill structures` lists for it, from the packs' structure sets): a 9 x 9 square centred on\n"
    "the start's x, z, a black outline around a colour of its set and the first letter of its\n"
    "name (docs/structures.md).\n"
    HELP_VERSION;

const char usage_columns[] =
    "usage: chunkfill columns [--pack PATH]... [--settings ID | --dimension ID] --seed SEED --area X0,Z0:X1,Z1\n"
    "                         [--stride N] [--below Y] [--device cpu|opencl[:N]] [--threads N] [--quiet]\n"
    "                         --out FILE.npy\n"
    "Writes what the map knows per column (for far-terrain / LOD renderers) at the columns\n"
    "(X0 + i*N, Z0 + k*N) of the area (block coordinates, inclusive; --stride N, default 1, as\n"
    "render --scale N): a structured NumPy array of shape (nz, nx), index [k][i], 12-byte\n"
    "little-endian records:\n"
    "  height     <i4  the surface block (render --heights; min_y - 1 where none)\n"
    "  fluid_top  <i4  the top block of the fluid directly above it (min_y - 1 where none;\n"
    "                  depth = fluid_top - height)\n"
    "  block      u1   the block at height after the surface stage (the noise stage's where the\n"
    "                  settings have none): index into FILE.palette.json's \"blocks\"\n"
    "  fluid      u1   that fluid (water, lava; 1, minecraft:air, where none): same palette\n"
    "  biome      u1   the biome at (x, height, z) as the biomes layer: index into \"biomes\"\n"
    "  pad        u1   0\n"
    "and FILE.palette.json beside it: {\"blocks\": [...], \"biomes\": [...], \"x0\", \"z0\", \"stride\"}.\n"
    "--dimension ID: a dimension's settings and biome source (as render).\n"
    "Every column equals what `serve --http`'s /at answers there. --device opencl[:N] computes on an\n"
    "OpenCL device, byte for byte the CPU's (as render --device). Files appear only when complete;\n"
    "then one summary line on standard error (--quiet: none).\n"
    HELP_VERSION;

int cmd_columns(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    const char *area = NULL, *outpath = NULL, *device = NULL;
    long stride = 1, threads = 0, below = INT32_MAX;
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--dimension", .str = &o.dimension},
        {.name = "--area", .str = &area, .required = "--area is required"},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--stride", .num = &stride, .lo = 1, .hi = 65536},
        {.name = "--device", .str = &device},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {.name = "--below", .num = &below, .lo = INT32_MIN, .hi = INT32_MAX},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_columns);
    if (rc0 >= 0) return rc0;
    if ((rc0 = settings_or_dimension(&o, usage_columns)) >= 0) return rc0;
    if (o.nfunctions) return die_usage("columns takes no --function", usage_columns);
    if ((rc0 = parse_map_device(&device)) >= 0) return rc0;
    long r[4];
    if ((rc0 = parse_area(area, r)) >= 0) return rc0;
    int64_t nx = ((int64_t)r[2] - r[0]) / stride + 1, nz = ((int64_t)r[3] - r[1]) / stride + 1;
    if (nx * nz > ((int64_t)1 << 26)) {
        fprintf(stderr, "chunkfill: --area %s --stride %ld: %lld x %lld columns (at most 2^26): use a larger --stride\n", area,
                stride, (long long)nx, (long long)nz);
        return 1;
    }
    size_t n = (size_t)(nx * nz);
    cf_error err = {0};
    cli_world cw = {0};
    cf_biomes *bs = NULL;
    cf_map_device *dev = NULL;
    int32_t *h = calloc(n ? n : 1, sizeof(int32_t)), *ft = calloc(n ? n : 1, sizeof(int32_t));
    uint8_t *bl = calloc(n ? n : 1, 1), *fl = calloc(n ? n : 1, 1), *bi = calloc(n ? n : 1, 1), *rec = malloc(12 * (n ? n : 1));
    int rc = 1;
    char ppath[4096];
    cf_output out = {0}, pout = {0};
    if (!h || !ft || !bl || !fl || !bi || !rec) {
        snprintf(err.message, sizeof err.message, "out of memory for %zu columns", n);
        goto done;
    }
    /* both outputs checked and opened before any work; both written, then both renamed */
    size_t ol = strlen(outpath);
    int stem = ol > 4 && strcmp(outpath + ol - 4, ".npy") == 0 ? (int)(ol - 4) : (int)ol;
    if ((size_t)snprintf(ppath, sizeof ppath, "%.*s.palette.json", stem, outpath) >= sizeof ppath) {
        snprintf(err.message, sizeof err.message, "%.200s: path too long", outpath);
        goto done;
    }
    if (cf_output_open(&out, outpath, &err) != CF_OK || cf_output_open(&pout, ppath, &err) != CF_OK) goto done;
    double t0 = mono_s();
    if (open_world(&o, 1, 0, &cw, &err) != CF_OK) goto done;
    if (open_biomes(&o, cw.pk, o.dimension, cw.seed, &bs, &err) != CF_OK) goto done;
    if (device && cf_map_device_open(&dev, device, cw.pg, &err) != CF_OK) goto done;
    /* on a terminal, strips of rows (cut where a chunk row ends: no chunk is filled twice) with a
     * progress line between them; every column is the same either way */
    progress prog;
    progress_start(&prog, "columns", "rows", nz, o.quiet);
    int64_t step = prog.on ? (nz + 39) / 40 : nz;
    for (int64_t k0 = 0; k0 < nz;) {
        int64_t k1 = k0 + step < nz ? k0 + step : nz;
        while (k1 < nz && floordiv16(r[1] + k1 * stride) == floordiv16(r[1] + (k1 - 1) * stride)) k1++;
        size_t at = (size_t)k0 * (size_t)nx;
        cf_map_columns cols = {h + at, bl + at, bi + at, fl + at, ft + at};
        int32_t z0 = (int32_t)(r[1] + k0 * stride), rows = (int32_t)(k1 - k0);
        if ((dev ? cf_map_columns_device(dev, cw.w, bs, (int32_t)r[0], z0, (int32_t)stride, (int32_t)nx, rows, (int32_t)below, &cols,
                                         (int)threads, &err)
                 : cf_map_columns_get(cw.w, bs, (int32_t)r[0], z0, (int32_t)stride, (int32_t)nx, rows, (int32_t)below, &cols,
                                      (int)threads, &err)) != CF_OK) {
            progress_end(&prog);
            goto done;
        }
        progress_show(&prog, k1);
        k0 = k1;
    }
    progress_end(&prog);
    for (size_t i = 0; i < n; i++) {
        uint8_t *q = rec + 12 * i;
        for (int b = 0; b < 4; b++) q[b] = (uint8_t)((uint32_t)h[i] >> (8 * b)), q[4 + b] = (uint8_t)((uint32_t)ft[i] >> (8 * b));
        q[8] = bl[i], q[9] = fl[i], q[10] = bi[i], q[11] = 0;
    }
    char hdr[256];
    int hl = snprintf(hdr, sizeof hdr,
                      "{'descr': [('height', '<i4'), ('fluid_top', '<i4'), ('block', 'u1'), ('fluid', 'u1'), ('biome', 'u1'), "
                      "('pad', 'u1')], 'fortran_order': False, 'shape': (%lld, %lld), }",
                      (long long)nz, (long long)nx);
    int pad = (64 - (10 + hl + 1) % 64) % 64;
    memset(hdr + hl, ' ', (size_t)pad);
    hdr[hl + pad] = '\n';
    unsigned short hlen = (unsigned short)(hl + pad + 1);
    unsigned char magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 255), (unsigned char)(hlen >> 8)};
    FILE *f = out.f, *p = pout.f;
    int bad = write_all(f, magic, 10) || write_all(f, hdr, hlen) || write_all(f, rec, 12 * n);
    if (!bad) {
        const char *bn[CF_PALETTE_MAX], *bion[CF_BIOME_PALETTE_MAX];
        int nb = cf_block_palette(cw.pg, bn), nbio = cf_biomes_palette(bs, bion);
        bad |= fputs("{\"blocks\": [", p) == EOF;
        for (int i = 0; i < nb; i++) bad |= fprintf(p, "%s\"%s\"", i ? ", " : "", bn[i]) < 0;
        bad |= fputs("], \"biomes\": [", p) == EOF;
        for (int i = 0; i < nbio; i++) bad |= fprintf(p, "%s\"%s\"", i ? ", " : "", bion[i]) < 0;
        bad |= fprintf(p, "], \"x0\": %ld, \"z0\": %ld, \"stride\": %ld}\n", r[0], r[1], stride) < 0;
    }
    if (bad) {
        snprintf(err.message, sizeof err.message, "%.200s: write error: %s", outpath, strerror(errno));
        goto done;
    }
    if (cf_output_close(&out, &err) != CF_OK || cf_output_close(&pout, &err) != CF_OK || cf_output_commit(&out, &err) != CF_OK
        || cf_output_commit(&pout, &err) != CF_OK)
        goto done;
    if (!o.quiet) /* one summary line (stderr) */
        fprintf(stderr, "columns: %lld x %lld columns (stride %ld), %.2f s\n", (long long)nx, (long long)nz, stride, mono_s() - t0);
    rc = 0;
done:
    cf_output_abort(&out);
    cf_output_abort(&pout);
    if (rc) report(&err);
    free(h), free(ft), free(bl), free(fl), free(bi), free(rec);
    cf_map_device_free(dev);
    cf_biomes_free(bs);
    close_world(&cw);
    return rc;
}

static int write_npy_i32(const char *path, const int32_t *v, int nz, int nx, char *msg, size_t msglen)
{
    cf_output o;
    cf_error e = {0};
    if (cf_output_open(&o, path, &e) != CF_OK) return snprintf(msg, msglen, "%s", e.message), -1;
    char hdr[256];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '<i4', 'fortran_order': False, 'shape': (%d, %d), }", nz, nx);
    int pad = (64 - (10 + hl + 1) % 64) % 64;
    memset(hdr + hl, ' ', (size_t)pad);
    hdr[hl + pad] = '\n';
    unsigned short hlen = (unsigned short)(hl + pad + 1);
    unsigned char magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 255), (unsigned char)(hlen >> 8)};
    if (write_all(o.f, magic, 10) || write_all(o.f, hdr, hlen) || write_all(o.f, v, sizeof(int32_t) * (size_t)nx * (size_t)nz)) {
        snprintf(msg, msglen, "%s: write error: %s", path, strerror(errno));
        cf_output_abort(&o);
        return -1;
    }
    if (cf_output_commit(&o, &e) != CF_OK) return snprintf(msg, msglen, "%s", e.message), -1;
    return 0;
}

/* render --structures: the markers of the starts in the picture's area (cf_structures_draw) */
static cf_status draw_structures(const opts *o, cf_pack *pk, int64_t seed, cf_biomes **bs, const long r[4], long scale, int64_t px,
                                 int64_t pz, uint8_t *rgb, cf_error *err)
{
    cf_structures *s = NULL;
    cf_program *tpg = NULL;
    cf_world *tw = NULL;
    long n = 0;
    if (!*bs && open_biomes(o, pk, o->dimension, seed, bs, err) != CF_OK) return err->status;
    if (cf_structures_open(&s, pk, *bs, seed, cf_pack_game_version(pk, NULL, NULL), err) == CF_OK) {
        structures_terrain_open(s, pk, *bs, seed, &tpg, &tw);
        cf_structures_draw(s, (int32_t)r[0], (int32_t)r[1], (int32_t)scale, (int32_t)px, (int32_t)pz, NULL, 0, rgb, &n, err);
    }
    cf_structures_free(s);
    cf_world_free(tw);
    cf_program_free(tpg);
    if (err->status == CF_OK && !o->quiet) fprintf(stderr, "render: %ld structure starts drawn\n", n);
    return err->status;
}

int cmd_render(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    const char *area = NULL, *outpath = NULL, *heights_path = NULL, *device = NULL, *layer_name = "relief";
    long scale = 1, threads = 0, below = INT32_MAX;
    int structures = 0;

    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--dimension", .str = &o.dimension},
        {.name = "--area", .str = &area, .required = "--area is required"},
        {.name = "--layer", .str = &layer_name},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--heights", .str = &heights_path},
        {.name = "--device", .str = &device},
        {.name = "--scale", .num = &scale, .lo = 1, .hi = 4096},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {.name = "--below", .num = &below, .lo = INT32_MIN, .hi = INT32_MAX},
        {.name = "--structures", .flag = &structures},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_render);
    if (rc0 >= 0) return rc0;
    if ((rc0 = settings_or_dimension(&o, usage_render)) >= 0) return rc0;
    if ((rc0 = one_function(&o, usage_render)) >= 0) return rc0;
    int layer = parse_layer(layer_name), needs = 0;
    if (layer < 0) return 2;
    cf_map_layer(layer, &needs, NULL);
    if ((rc0 = parse_map_device(&device)) >= 0) return rc0;
    long r[4];
    if ((rc0 = parse_area(area, r)) >= 0) return rc0;
    int64_t nx = (int64_t)r[2] - r[0] + 1, nz = (int64_t)r[3] - r[1] + 1;
    int64_t px = (nx + scale - 1) / scale, pz = (nz + scale - 1) / scale;
    if (px * pz > ((int64_t)1 << 28) || px > 1000000 || pz > 1000000) {
        fprintf(stderr, "chunkfill: --area %s: %lld x %lld pixels (at most 2^28 pixels, 1,000,000 on a side): use --scale\n",
                area, (long long)px, (long long)pz);
        return 1;
    }

    cf_error err = {0};
    cli_world cw = {0};
    cf_map_device *dev = NULL;
    cf_biomes *bs = NULL;
    int32_t *pic = NULL;
    uint8_t *rgb = NULL;
    int rc = 1;
    char msg[1024] = "";
    double t0 = mono_s();
    if (open_world(&o, (needs & CF_MAP_BLOCKS) != 0, 1, &cw, &err) != CF_OK) goto done;
    /* a biome source where the layer needs one (the blocks layer: where the settings have a surface stage) */
    if ((needs & CF_MAP_BIOMES) && (!(needs & CF_MAP_SURFACE) || cf_program_has_surface(cw.pg)) &&
        open_biomes(&o, cw.pk, o.dimension, cw.seed, &bs, &err) != CF_OK)
        goto done;
    if (device && cf_map_device_open(&dev, device, cw.pg, &err) != CF_OK) goto done;
    pic = malloc(sizeof(int32_t) * (size_t)(px * pz));
    rgb = malloc((size_t)(px * pz) * 3);
    if (!pic || !rgb) {
        snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
        err.status = CF_ERR_NOMEM;
        goto done;
    }
    /* only the sampled columns are computed (cf_map_draw; on a device the chunks that hold them) */
    cf_map_stats ms;
    progress prog; /* on a terminal: the drawing's stage and its share done */
    progress_start(&prog, "render", "", 0, o.quiet);
    cf_status dst = dev ? cf_map_draw_device_progress(dev, cw.w, bs, layer, (int32_t)r[0], (int32_t)r[1], (int32_t)scale,
                                                      (int32_t)px, (int32_t)pz, (int32_t)below, rgb, pic, &ms, (int)threads,
                                                      progress_stage, &prog, &err)
                        : cf_map_draw_progress(cw.w, bs, layer, (int32_t)r[0], (int32_t)r[1], (int32_t)scale, (int32_t)px,
                                               (int32_t)pz, (int32_t)below, rgb, pic, &ms, (int)threads, progress_stage, &prog, &err);
    progress_end(&prog);
    if (dst != CF_OK) goto done;
    if (ms.unknown_blocks)
        fprintf(stderr, "render: %llu pixels show blocks without a colour (magenta), the first %s\n",
                (unsigned long long)ms.unknown_blocks, ms.first_unknown);
    if (structures && draw_structures(&o, cw.pk, cw.seed, &bs, r, scale, px, pz, rgb, &err) != CF_OK) goto done;
    if (heights_path && write_npy_i32(heights_path, pic, (int)pz, (int)px, msg, sizeof msg) < 0) goto done;
    if (cf_png_write(outpath, rgb, (int)px, (int)pz, &err) != CF_OK) goto done;
    if (!o.quiet) { /* the summary line; --quiet: none */
        double t = mono_s() - t0;
        fprintf(stderr, "render: %lld x %lld blocks, %lld x %lld pixels, %.2f s, %.0f blocks/s (%s)\n", (long long)nx,
                (long long)nz, (long long)px, (long long)pz, t, (double)nx * (double)nz / t, dev ? cf_map_device_name(dev) : "cpu");
    }
    rc = 0;
done:
    if (rc) {
        if (msg[0]) fprintf(stderr, "chunkfill: %s\n", msg);
        else report(&err);
    }
    free(pic), free(rgb);
    cf_biomes_free(bs);
    cf_map_device_free(dev);
    close_world(&cw);
    return rc;
}

const char usage_tiles[] =
    "usage: chunkfill tiles [--pack PATH]... [--settings ID | --dimension ID] --seed SEED [--layer NAME]...\n"
    "                       --area X0,Z0:X1,Z1 [--zoom A..B] [--below Y] [--device cpu|opencl[:N]]\n"
    "                       [--threads N] [--quiet] --out DIR\n"
    "Writes a pyramid of 256 x 256-pixel map tiles DIR/L/Z/X/Y.png and a viewer DIR/index.html\n"
    "that opens without a server. Level Z shows 2^Z blocks per pixel: tile (X, Y) covers blocks\n"
    "x in [X*256*2^Z, (X+1)*256*2^Z), z likewise from Y (negative indices for negative\n"
    "coordinates), its pixel (i, k) the column (X*256*2^Z + i*2^Z, Y*256*2^Z + k*2^Z), so\n"
    "L/Z/X/Y.png has exactly the pixels of `render --layer L --scale 2^Z --area` of its blocks\n"
    "(Z = 0: X*256,Y*256:X*256+255,Y*256+255). Written: every tile of levels A..B (default\n"
    "0..0, at most 0..20) that meets the area. Each file appears only when complete.\n"
    "--dimension ID draws a dimension's settings and biome source (as render). The viewer shows\n"
    "the biomes layer's legend and --below. --device opencl[:N] computes the tiles on an OpenCL\n"
    "device, byte for byte the CPU's (as render --device).\n"
    HELP_VERSION
    "Layers (--layer, repeatable, default relief):\n";

/* mkdir -p of path's folders (not its last component) */
static int make_parents(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int r = mkdir(path, 0777);
        *p = '/';
        if (r != 0 && errno != EEXIST) return -1;
    }
    return 0;
}

/* writes text to path atomically (temporary beside it, then rename) */
static int write_text_atomic(const char *path, const char *a, size_t alen, const char *b, size_t blen, const char *c,
                             char *msg, size_t msglen)
{
    cf_output o;
    cf_error e = {0};
    if (cf_output_open(&o, path, &e) != CF_OK) return snprintf(msg, msglen, "%s", e.message), -1;
    if (write_all(o.f, a, alen) || write_all(o.f, b, blen) || write_all(o.f, c, strlen(c))) {
        snprintf(msg, msglen, "%.900s: write error: %s", path, strerror(errno));
        cf_output_abort(&o);
        return -1;
    }
    if (cf_output_commit(&o, &e) != CF_OK) return snprintf(msg, msglen, "%s", e.message), -1;
    return 0;
}

/* text as a JSON string inside a <script>: quotes, backslashes, controls and '<' escaped */
static void json_script_str(char *out, size_t cap, const char *v)
{
    size_t k = 0;
    if (cap < 8) return;
    out[k++] = '"';
    for (const unsigned char *c = (const unsigned char *)v; *c && k + 8 < cap; c++) {
        if (*c == '"' || *c == '\\') out[k++] = '\\', out[k++] = (char)*c;
        else if (*c < 32 || *c == '<' || *c == '>' || *c == '&') k += (size_t)snprintf(out + k, cap - k, "\\u%04x", *c);
        else out[k++] = (char)*c;
    }
    out[k++] = '"';
    out[k] = 0;
}

static int64_t floordiv64(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* the progress line of tiles: the tiles written and, inside a tile that takes a while (a high
 * level's tile of the blocks layer fills thousands of chunks), its drawing's stage */
typedef struct tiles_progress {
    progress p;      /* unit "tiles", total every tile of every layer */
    int64_t done;    /* tiles written */
} tiles_progress;
static void tiles_stage(void *ctx, const char *stage, int64_t done, int64_t total)
{
    tiles_progress *tp = ctx;
    if (!tp->p.on) return;
    double t = mono_s();
    if (t - tp->p.last < 0.2) return;
    tp->p.last = t;
    fprintf(stderr, "\rtiles: %lld/%lld tiles, tile %lld: %s %d%%, %.1f s   ", (long long)tp->done, (long long)tp->p.total,
            (long long)tp->done + 1, stage, total > 0 ? (int)(100 * done / total) : 100, t - tp->p.t0);
    tp->p.shown = 1;
}

/* --layer NAME of tiles, repeatable (up to 8) */
static const char *tiles_layers[8];
static int ntiles_layers;
static int layer_option(opts *o, const char *v)
{
    (void)o;
    if (ntiles_layers == 8) return die_usage("at most 8 --layer", NULL);
    tiles_layers[ntiles_layers++] = v;
    return 0;
}

int cmd_tiles(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    const char *area = NULL, *outdir = NULL, *zoom = "0..0", *device = NULL;
    const char **layer_names = tiles_layers;
    long threads = 0, below = INT32_MAX;
    optdef defs[] = {
        {.name = "--layer", .fn = layer_option}, /* repeatable */
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--dimension", .str = &o.dimension},
        {.name = "--area", .str = &area, .required = "--area is required"},
        {.name = "--out", .str = &outdir, .required = "--out is required"},
        {.name = "--zoom", .str = &zoom},
        {.name = "--device", .str = &device},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {.name = "--below", .num = &below, .lo = INT32_MIN, .hi = INT32_MAX},
        {0},
    };
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_tiles, stdout);
            const char *sum;
            for (int k = 0; cf_map_layer(k, NULL, &sum); k++) printf("  %-8s %s\n", cf_map_layer(k, NULL, NULL), sum);
            return 0;
        }
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_tiles);
    if (rc0 >= 0) return rc0;
    if (ntiles_layers == 0) tiles_layers[ntiles_layers++] = "relief";
    int nlayers = ntiles_layers;
    if ((rc0 = settings_or_dimension(&o, usage_tiles)) >= 0) return rc0;
    if ((rc0 = one_function(&o, usage_tiles)) >= 0) return rc0;
    if ((rc0 = parse_map_device(&device)) >= 0) return rc0;
    int layers[8], need_blocks = 0, need_biomes = 0;
    for (int i = 0; i < nlayers; i++) {
        int needs = 0;
        if ((layers[i] = parse_layer(layer_names[i])) < 0) return 2;
        cf_map_layer(layers[i], &needs, NULL);
        if (needs & CF_MAP_BLOCKS) need_blocks = 1;
        if ((needs & CF_MAP_BIOMES) && !(needs & CF_MAP_SURFACE)) need_biomes = 1;
        if (needs & CF_MAP_SURFACE) need_biomes |= 2; /* where the settings have a surface stage */
    }
    long r[4];
    if ((rc0 = parse_area(area, r)) >= 0) return rc0;
    int za, zb, used = 0;
    if (sscanf(zoom, "%d..%d%n", &za, &zb, &used) != 2 || zoom[used] || za < 0 || zb < za || zb > 20) {
        fprintf(stderr, "chunkfill: --zoom %s: takes A..B with 0 <= A <= B <= 20\n", zoom);
        return 1;
    }
    if (strlen(outdir) > 3000 || !*outdir) return die_usage("--out: bad folder name", usage_tiles);
    /* tiles to write, refused above a million */
    int64_t total = 0;
    for (int z = za; z <= zb; z++) {
        int64_t span = (int64_t)256 << z;
        total += (floordiv64(r[2], span) - floordiv64(r[0], span) + 1) * (floordiv64(r[3], span) - floordiv64(r[1], span) + 1);
    }
    if (total > 1000000) {
        fprintf(stderr, "chunkfill: --area %s --zoom %s: %lld tiles (at most 1,000,000)\n", area, zoom, (long long)total);
        return 1;
    }

    cf_error err = {0};
    if (cf_output_check_dir(outdir, &err) != CF_OK) return report(&err), 1; /* a file or FIFO there: one line */
    cli_world cw = {0};
    cf_biomes *bs = NULL;
    cf_map_device *dev = NULL;
    uint8_t *rgb = malloc(256 * 256 * 3);
    int rc = 1;
    char msg[1024] = "", path[4200];
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    if (!rgb) {
        snprintf(msg, sizeof msg, "out of memory");
        goto done;
    }
    if (open_world(&o, need_blocks, 1, &cw, &err) != CF_OK) goto done;
    if (((need_biomes & 1) || ((need_biomes & 2) && cf_program_has_surface(cw.pg))) && open_biomes(&o, cw.pk, o.dimension, cw.seed, &bs, &err) != CF_OK)
        goto done;
    if (device && cf_map_device_open(&dev, device, cw.pg, &err) != CF_OK) goto done;
    tiles_progress tp;
    progress_start(&tp.p, "tiles", "tiles", total * nlayers, o.quiet);
    tp.done = 0;
    int unknown = 0;
    unsigned long long unknown_px = 0;
    char first_unknown[128] = "";
    for (int li = 0; li < nlayers; li++)
        for (int z = za; z <= zb; z++) {
            int64_t span = (int64_t)256 << z;
            for (int64_t ty = floordiv64(r[1], span); ty <= floordiv64(r[3], span); ty++)
                for (int64_t tx = floordiv64(r[0], span); tx <= floordiv64(r[2], span); tx++) {
                    cf_map_stats ms;
                    int32_t x0 = (int32_t)(tx * span), z0 = (int32_t)(ty * span), step = (int32_t)1 << z;
                    cf_map_progress_fn hook = tp.p.on ? tiles_stage : NULL;
                    if ((dev ? cf_map_draw_device_progress(dev, cw.w, bs, layers[li], x0, z0, step, 256, 256, (int32_t)below, rgb,
                                                           NULL, &ms, (int)threads, hook, &tp, &err)
                             : cf_map_draw_progress(cw.w, bs, layers[li], x0, z0, step, 256, 256, (int32_t)below, rgb, NULL, &ms,
                                                    (int)threads, hook, &tp, &err)) != CF_OK) {
                        progress_end(&tp.p);
                        goto done;
                    }
                    if (ms.unknown_blocks && !unknown++) snprintf(first_unknown, sizeof first_unknown, "%s", ms.first_unknown);
                    unknown_px += ms.unknown_blocks;
                    snprintf(path, sizeof path, "%s/%s/%d/%lld/%lld.png", outdir, layer_names[li], z, (long long)tx,
                             (long long)ty);
                    if (make_parents(path) < 0) {
                        progress_end(&tp.p);
                        snprintf(msg, sizeof msg, "%.900s: cannot create its folder: %s", path, strerror(errno));
                        goto done;
                    }
                    if (cf_png_write(path, rgb, 256, 256, &err) != CF_OK) {
                        progress_end(&tp.p);
                        goto done;
                    }
                    progress_show(&tp.p, ++tp.done);
                }
        }
    progress_end(&tp.p);
    if (unknown_px)
        fprintf(stderr, "tiles: %llu pixels show blocks without a colour (magenta), the first %s\n", unknown_px, first_unknown);
    {
        /* the viewer, its configuration in place of the page's default */
        const char *html = cf_map_viewer_html(), *mark = strstr(html, "/*CF_CONFIG*/");
        const char *end = mark ? strstr(mark, ";\n") : NULL;
        if (!end) {
            snprintf(msg, sizeof msg, "the embedded viewer has no configuration mark (a chunkfill bug)");
            goto done;
        }
        /* the biomes layer's legend (the page shows it as the server's /legend) and --below */
        size_t cap = 2048 + (bs ? cf_map_legend_json(bs, NULL, 0) : 0);
        char *cfgtext = malloc(cap);
        if (!cfgtext) {
            snprintf(msg, sizeof msg, "out of memory for the viewer's configuration");
            goto done;
        }
        int n = snprintf(cfgtext, cap, "{\"mode\": \"static\", \"layers\": [");
        for (int li = 0; li < nlayers; li++) n += snprintf(cfgtext + n, cap - (size_t)n, "%s\"%s\"", li ? ", " : "", layer_names[li]);
        char js[2][600];
        json_script_str(js[0], sizeof js[0], o.seed);
        json_script_str(js[1], sizeof js[1], o.dimension ? o.dimension : o.settings);
        n += snprintf(cfgtext + n, cap - (size_t)n,
                      "], \"zmin\": %d, \"zmax\": %d, \"center\": [%ld, %ld], \"seed\": %s, \"settings\": %s", za, zb,
                      r[0] + (r[2] - r[0]) / 2, r[1] + (r[3] - r[1]) / 2, js[0], js[1]);
        if (below != INT32_MAX) n += snprintf(cfgtext + n, cap - (size_t)n, ", \"below\": \"%ld\"", below);
        if (need_biomes && bs) {
            n += snprintf(cfgtext + n, cap - (size_t)n, ", \"legend\": ");
            n += (int)cf_map_legend_json(bs, cfgtext + n, cap - (size_t)n);
        }
        snprintf(cfgtext + n, cap - (size_t)n, "}");
        snprintf(path, sizeof path, "%s/index.html", outdir);
        if (make_parents(path) < 0) {
            snprintf(msg, sizeof msg, "%.900s: cannot create its folder: %s", path, strerror(errno));
            free(cfgtext);
            goto done;
        }
        int wr = write_text_atomic(path, html, (size_t)(mark - html), cfgtext, strlen(cfgtext), end, msg, sizeof msg);
        free(cfgtext);
        if (wr < 0) goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - t0;
    if (!o.quiet) fprintf(stderr, "tiles: %lld tiles, %.2f s, %.2f tiles/s\n", (long long)total * nlayers, t, (double)total * nlayers / t);
    rc = 0;
done:
    if (rc) {
        if (msg[0]) fprintf(stderr, "chunkfill: %s\n", msg);
        else report(&err);
    }
    free(rgb);
    cf_map_device_free(dev);
    cf_biomes_free(bs);
    close_world(&cw);
    return rc;
}

const char usage_at[] =
    "usage: chunkfill at X,Z [--pack PATH]... [--settings ID] --seed SEED [--below Y] [--json]\n"
    "What the map shows at block column X,Z: the surface height, the block there (after the\n"
    "surface stage where the settings have one), the biome at it and the fluid above it, as one\n"
    "line 'X Z height H block B biome BIO fluid F' (none where there is none), or with --json the\n"
    "line `serve --http`'s /at answers. Equal to `columns` at that column.\n"
    "  --below Y        search the surface from y = Y down (the nether below its roof)\n"
    HELP_VERSION;

/* X,Z: block coordinates within the world; 0, or -1 */
static int parse_column(const char *s, long v[2])
{
    long r[4], lim = (long)CF_MAX_CHUNK * 16;
    if (parse_chunks(s, r) < 0 || strchr(s, ':') || r[0] < -lim || r[0] > lim + 15 || r[1] < -lim || r[1] > lim + 15) return -1;
    v[0] = r[0], v[1] = r[1];
    return 0;
}

int cmd_at(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    long below = INT32_MAX, xz[2] = {0, 0};
    int json = 0;
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--below", .num = &below, .lo = INT32_MIN, .hi = INT32_MAX},
        {.name = "--json", .flag = &json},
        {0},
    };
    /* X,Z: the first argument that is neither an option nor an option's value (it may start
     * with one '-': -5,3), before or after the options */
    int pos = 0;
    for (int i = 2; i < argc && !pos; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 && strcmp(a, "-h") != 0) pos = i;
        else if (!strchr(a, '=') && strcmp(a, "--json") != 0 && strcmp(a, "--quiet") != 0 && strcmp(a, "--strict") != 0 &&
                 strcmp(a, "--help") != 0 && strcmp(a, "-h") != 0)
            i++; /* its value */
    }
    if (pos && parse_column(argv[pos], xz) < 0) {
        char msg[300];
        snprintf(msg, sizeof msg, "at takes X,Z (block coordinates within the world), not '%.60s'", argv[pos]);
        return die_usage(msg, usage_at);
    }
    char *args[256];
    int n = 0;
    for (int i = 0; i < argc && n < 256; i++)
        if (i != pos || !pos) args[n++] = argv[i];
    int rc = parse_cmd(&o, n, args, defs, usage_at);
    if (rc >= 0) return rc;
    if (!pos) return die_usage("at needs the column X,Z (chunkfill at X,Z --seed SEED)", usage_at);
    if (o.nfunctions) return die_usage("at takes no --function", usage_at);
    cf_error err = {0};
    cli_world cw = {0};
    cf_biomes *bs = NULL;
    cf_map_column_info c;
    if (open_world(&o, 1, 0, &cw, &err) != CF_OK || open_biomes(&o, cw.pk, NULL, cw.seed, &bs, &err) != CF_OK ||
        cf_map_column_below(cw.w, bs, (int32_t)xz[0], (int32_t)xz[1], (int32_t)below, &c, &err) != CF_OK) {
        rc = report(&err);
    } else {
        char line[1024];
        if (json) cf_map_column_json(&c, xz[0], xz[1], line, sizeof line);
        else
            snprintf(line, sizeof line, "%ld %ld height %d block %s biome %s fluid %s\n", xz[0], xz[1], (int)c.height,
                     c.block ? c.block : "none", c.biome ? c.biome : "none", c.fluid ? c.fluid : "none");
        rc = fputs(line, stdout) < 0 || fflush(stdout) != 0;
    }
    cf_biomes_free(bs);
    close_world(&cw);
    return rc;
}
