/* fill.c - `chunkfill sample` (density at points), `chunkfill fill` (chunk volumes of
 * densities or blocks into a .npy, locally or through a server) and `chunkfill slice` (a
 * vertical cross-section as a PNG). Options -> world -> the library's fill -> files
 * written to temporary names and renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunkfill_net.h"
#include "cli.h"

const char usage_sample[] =
    "usage: chunkfill sample [--pack PATH]... [--settings ID] --seed SEED --function ID\n"
    "                        [--dialect master|unification] (--at X,Y,Z | --at X,Z)... | --points FILE\n"
    "Prints one line per point: X Y Z VALUE (VALUE round-trips exactly: %.9g for float, %.17g for\n"
    "double). A libnoise program (--function libnoise:NAME/ID) takes fractional positions and\n"
    "echoes them as given. An Iris style (--function iris:style/NAME, no pack needed) also takes\n"
    "2-D points X,Z (Iris's noise(x, z)) and prints X Z VALUE for them; so does an Iris generator\n"
    "(--function iris:generator/KEY: generators/KEY.json of --pack, getHeight(x, z, superSeed) with\n"
    "superSeed = SeedManager(SEED).getHeight() + 239945).\n"
    "  --pack PATH      a data pack: a folder (data/<ns>/worldgen/...), a .zip (data/ at its root or\n"
    "                   in its single top folder), a mod .jar, the game's client .jar or server .jar;\n"
    "                   repeat to layer packs, later ones override earlier ones; none: the embedded\n"
    "                   default pack\n"
    "  --settings ID    noise settings id (default minecraft:overworld)\n"
    "  --seed SEED      a signed 64-bit decimal; other text is hashed like Minecraft (String.hashCode)\n"
    "  --function ID    a density function id, router:FIELD (a noise_router field) or noise:ID;\n"
    "                   libnoise:NAME/ID (module ID of libnoise/NAME.json) or libnoise:NAME (its terrain);\n"
    "                   hytale:NAME (the density node of hytale/Density/NAME.json; fractional positions);\n"
    "                   hytale:noise/ID (the legacy noise asset hytale/Noise/ID.json);\n"
    "                   iris:style/NAME (an Iris NoiseStyle, host/frontend/iris/README.md), iris:generator/KEY,\n"
    "                   iris:expression/KEY (expressions/KEY.json), iris:image/KEY[?channel=..&..] (images/KEY.png)\n"
    "  --external NAME=VALUE  a Hytale external input (hytale.base_height.NAME, ...; repeatable); a 2-D map:\n"
    "                   NAME=@MAP.npy[,X0,Z0[,STEP]] (float64/float32 .npy of shape (rows z, columns x);\n"
    "                   sample (ix, iz) holds the columns from X0 + ix*STEP, Z0 + iz*STEP; default 0,0,1)\n"
    "  --dialect D      Iris's branch for iris: functions: master (default) or unification\n"
    "  --at X,Y,Z       a block position (repeatable; fractional for libnoise, Hytale and Iris; X,Z: Iris 2-D)\n"
    "  --points FILE    one 'X Y Z' (Iris also 'X Z') per line ('-' reads standard input; # starts a comment)\n"
    "  --max-file-bytes N  refuse larger JSON files, by size, before reading (default 67108864)\n"
    "  --max-nodes N       nodes in one compiled graph (default 1048576)\n"
    "  --max-depth N       nesting of JSON values and of references (default 512)\n"
    "  --max-memory N      working memory of a fill, all threads, in bytes (default 4294967296)\n"
    "  --dialect D      the data format: 1.21 (Minecraft 1.18.2-1.21: argument/argument1 fields,\n"
    "                   noise.size_horizontal, firstOctave noises; double arithmetic) or 26.3;\n"
    "                   default: detected per noise settings (`chunkfill plan` says which)\n"
    "  --strict         refuse what the game accepts and we only warn about (every command\n"
    "                   that reads packs): unknown keys and spline locations that decrease\n"
    "  --define TYPE=V  read a density function type that only a mod's Java code defines\n"
    "                   (e.g. tectonic:config=0.5) as the constant V (repeatable);\n"
    "                   TYPE[FIELD=TEXT]=V only the objects whose FIELD is TEXT\n";

const char usage_fill[] =
    "usage: chunkfill fill [--pack PATH]... [--settings ID] --seed SEED\n"
    "                      --chunks X0,Z0[:X1,Z1] [--threads N] [--device cpu|opencl[:N]|auto]\n"
    "                      [--blocks [--stage noise|surface]] [--quiet] --out FILE.npy\n"
    "Fills the chunks of the inclusive range (z outer, x inner) exactly as vanilla's chunk\n"
    "fill does and writes a NumPy .npy file: little-endian float32 (the 26.3 dialect), shape\n"
    "(nchunks, height, 16, 16), index [chunk][y][z][x], y from the settings' min_y upward.\n"
    "The file appears only when complete (written to a temporary name, then renamed).\n"
    "  --function ID    fill this function instead of router:final_density\n"
    "  --blocks         write the blocks of the noise stage instead of densities: uint8 palette\n"
    "                   indices, shape (nchunks, height, 16, 16), and FILE.palette.json, the block\n"
    "                   ids they index: the default block, air, water, lava (and the default fluid\n"
    "                   when it is none of these). Vanilla 26.3's aquifer decides fluids and\n"
    "                   barriers exactly; carvers and features are later stages of the game\n"
    "                   and are not applied (surface rules: --stage). 1.18.2-1.21 (and\n"
    "                   26.1-26.2) data: that version's\n"
    "                   aquifer in double and, where ore_veins_enabled, the copper and iron ore\n"
    "                   veins (palette adds copper_ore, raw_copper_block, granite,\n"
    "                   deepslate_iron_ore, raw_iron_block, tuff)\n"
    "  --stage S        with --blocks: noise (the above) or surface (default where the settings\n"
    "                   have a surface_rule or a 26.3 material_rule): then the surface rules with\n"
    "                   the biome stage's biomes (grass, sand, terracotta bands, bedrock,\n"
    "                   deepslate, icebergs, 26.3's ore veins, ...); the palette adds every block\n"
    "                   the rules can write. On the device too (the biomes on the CPU); with\n"
    "                   --server, where the server offers it\n"
    "  --threads N      worker threads (default: all cores)\n"
    "  --quiet          no progress line (shown only when standard error is a terminal:\n"
    "                   chunks done of all, chunks/s, time left) and no summary line at the end\n"
    "  --device DEV     cpu (the reference, default), opencl (the first GPU with fp64, else any\n"
    "                   OpenCL device with fp64), opencl:N (see 'chunkfill devices'), or auto:\n"
    "                   opencl when a device passes the exactness probes, else the CPU; a device\n"
    "                   that fails mid-fill hands the rest to the CPU (with one message). An\n"
    "                   explicit opencl device that fails ends the fill with an error, no file.\n"
    "  --batch N        chunks per device launch (default: chosen from the device)\n"
    "  --max-chunks N   refuse larger ranges (default 1048576)\n"
    "  --max-out-bytes N  refuse larger outputs, before writing (default 68719476736, 64 GiB);\n"
    "                   an output larger than the free space of its file system is refused too\n"
    "  --server ADDR    fill through a running 'chunkfill serve' (HOST:PORT, [V6]:PORT or\n"
    "                   unix:PATH) instead of locally: same file; --settings names the\n"
    "                   server's configuration; --pack, --function and --device do not apply\n"
    "  --token-file F   the server's shared secret (first line of F)\n"
    "  plus --pack, --settings, --seed and the limits of 'chunkfill sample --help'\n"
    "  (--max-file-bytes, --max-nodes, --max-depth, --max-memory), --dialect, --strict and --define\n"
    HELP_VERSION;

const char usage_slice[] =
    "usage: chunkfill slice [--pack PATH]... [--settings ID] --seed SEED (--x X | --z Z)\n"
    "                       [--span A:B] [--mode material|density] [--device cpu|opencl[:N]] --out FILE.png\n"
    "Draws the vertical cross-section of the final density at x = X (along z from A to B) or\n"
    "z = Z (along x from A to B; default span -128:127), one pixel per block, the highest y on\n"
    "top: material mode (default) shows solid, air and below sea level the settings' default\n"
    "fluid (water blue, lava orange, none: air); density mode shows the signed density (blue\n"
    "negative, white 0, red positive).\n"
    HELP_VERSION;

static int at_option(opts *o, const char *v)
{
    double xyz[3];
    char tok[3][48];
    if (parse_fields(v, ',', NULL, xyz, tok, 1) < 0)
        return die_usage("--at takes X,Y,Z (integers in int range; numbers for a libnoise program; X,Z for Iris)", usage_sample);
    if (push_point(o, xyz, tok) < 0) return fprintf(stderr, "chunkfill: out of memory\n"), 1;
    return 0;
}

/* points of sample between two progress reports */
enum { SAMPLE_BATCH = 16384 };

int cmd_sample(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--points", .str = &o.points},
        {.name = "--at", .fn = at_option},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_sample);
    if (rc0 >= 0) return free(o.at), free(o.tok), rc0;
    if (o.nfunctions != 1) return free(o.at), free(o.tok), die_usage("exactly one --function is required", usage_sample);
    if (o.points && read_points(&o, o.points)) return free(o.at), free(o.tok), 1;
    if (o.nat == 0 && !o.points) return free(o.at), free(o.tok), die_usage("give --at X,Y,Z or --points FILE", usage_sample);
    /* Iris: --dialect selects the branch (settings iris:BRANCH); 2-D points X,Z */
    int iris = strncmp(o.functions[0], "iris:", 5) == 0;
    if (o.irisd && !iris)
        return free(o.at), free(o.tok),
               die_usage("--dialect takes 1.21 or 26.3 (Minecraft data; master or unification: Iris functions iris:style/NAME)",
                         usage_sample);
    if (o.irisd && strcmp(o.irisd, "master") != 0 && strcmp(o.irisd, "unification") != 0) {
        fprintf(stderr, "chunkfill: --dialect %s: unknown Iris dialect (master or unification)\n", o.irisd);
        return free(o.at), free(o.tok), 1;
    }
    char style_settings[64], style_2d[512];
    if (iris) {
        if (o.irisd || strncmp(o.settings, "iris:", 5) != 0) {
            snprintf(style_settings, sizeof style_settings, "iris:%s", o.irisd ? o.irisd : "master");
            o.settings = style_settings;
        }
        snprintf(style_2d, sizeof style_2d, "%s#2d", o.functions[0]);
        o.functions[1] = style_2d;
    }
    for (size_t i = 0; !iris && i < o.nat; i++)
        if (!o.tok[i][1][0]) {
            char msg[200];
            snprintf(msg, sizeof msg, "point %zu: two numbers (X,Z) are an Iris 2-D point: give X,Y,Z", i + 1);
            return free(o.at), free(o.tok), die_usage(msg, usage_sample);
        }
    /* fractional positions (and beyond int) are for the double dialects: libnoise, Hytale, Iris */
    int lnoise = iris || strncmp(o.functions[0], "libnoise:", 9) == 0 || strncmp(o.settings, "libnoise:", 9) == 0
                 || strncmp(o.functions[0], "hytale:", 7) == 0;
    for (size_t i = 0; !lnoise && i < 3 * o.nat; i++)
        if (!(o.at[i] >= INT32_MIN && o.at[i] <= INT32_MAX && o.at[i] == (double)(int32_t)o.at[i])) {
            char msg[200];
            snprintf(msg, sizeof msg, "point %zu: %s is not an integer in int range (fractional positions need --function libnoise:...)",
                     i / 3 + 1, o.tok[i / 3][i % 3]);
            return free(o.at), free(o.tok), die_usage(msg, usage_sample);
        }

    cf_error err = {0};
    cli_world cw = {0};
    double *out = NULL;
    int rc = 1;
    if (open_world(&o, 0, iris ? 2 : 1, &cw, &err) != CF_OK) goto done;
    out = malloc(sizeof(double) * (o.nat ? o.nat : 1));
    if (!out) {
        snprintf(err.message, sizeof err.message, "out of memory");
        goto done;
    }
    int prec = cf_program_precision(cw.pg);
    for (size_t i = 0; prec == 32 && i < 3 * o.nat; i++)
        if (!(o.at[i] >= INT32_MIN && o.at[i] <= INT32_MAX && o.at[i] == (double)(int32_t)o.at[i])) {
            snprintf(err.message, sizeof err.message, "point %zu: %s is not an integer in int range (%s takes block positions)",
                     i / 3 + 1, o.tok[i / 3][i % 3], o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
    /* batches of points with a progress line between them on a terminal (each point is
     * computed alone: the batches change no value), and a summary line where it took a while */
    progress prog;
    progress_start(&prog, "sample", "points", (int64_t)o.nat, o.quiet);
    double t0 = mono_s();
    for (size_t at = 0; at < o.nat; at += SAMPLE_BATCH) {
        size_t m = o.nat - at < SAMPLE_BATCH ? o.nat - at : SAMPLE_BATCH;
        cf_status st = CF_OK;
        if (iris) /* output 0: the style in 3-D, output 1: in 2-D (x and z of the position) */
            for (size_t i = at; i < at + m && st == CF_OK; i++) st = cf_sample_f64(cw.w, o.tok[i][1][0] ? 0 : 1, 1, o.at + 3 * i, out + i, &err);
        else st = cf_sample_f64(cw.w, 0, m, o.at + 3 * at, out + at, &err);
        if (st != CF_OK) {
            progress_end(&prog);
            goto done;
        }
        progress_show(&prog, (int64_t)(at + m));
    }
    progress_end(&prog);
    for (size_t i = 0; i < o.nat; i++) {
        if (iris && !o.tok[i][1][0])
            printf("%s %s %.17g\n", o.tok[i][0], o.tok[i][2], out[i]);
        else if (prec == 32)
            printf("%d %d %d %.9g\n", (int32_t)o.at[3 * i], (int32_t)o.at[3 * i + 1], (int32_t)o.at[3 * i + 2], out[i]);
        else
            printf("%s %s %s %.17g\n", o.tok[i][0], o.tok[i][1], o.tok[i][2], out[i]);
    }
    rc = fflush(stdout) == 0 ? 0 : 1;
    if (rc) fprintf(stderr, "chunkfill: write error on standard output\n");
    double t = mono_s() - t0;
    if (!rc && !o.quiet && t > 2) fprintf(stderr, "sample: %zu points, %.2f s, %.0f points/s\n", o.nat, t, (double)o.nat / t);
done:
    if (rc && err.status != CF_OK) report(&err);
    free(out);
    free(o.at);
    free(o.tok);
    close_world(&cw);
    return rc;
}

/* one warning line for the first NaN of a filled batch (a pack's log, sqrt or
 * division can make one; vanilla data never does) */
static int nan_reported;
static void report_nan(const float *v, const int32_t *chunks, size_t n, int min_y, int height)
{
    if (nan_reported) return;
    size_t per = (size_t)height * 256;
    for (size_t i = 0; i < n * per; i++)
        if (isnan(v[i])) {
            size_t c = i / per, k = i % per, count = 0;
            for (size_t j = i; j < n * per; j++) count += isnan(v[j]) != 0;
            fprintf(stderr, "chunkfill: warning: the density is NaN at x %d y %d z %d (%zu NaN values in this batch)\n",
                    chunks[2 * c] * 16 + (int)(k % 16), min_y + (int)(k / 256), chunks[2 * c + 1] * 16 + (int)(k / 16 % 16),
                    count);
            nan_reported = 1;
            return;
        }
}

/* the palette beside a blocks .npy: OUT.palette.json (OUT without .npy) into path */
static int palette_path(const char *outpath, char *path, size_t pathlen, cf_error *err)
{
    size_t n = strlen(outpath);
    int stem = n > 4 && strcmp(outpath + n - 4, ".npy") == 0 ? (int)(n - 4) : (int)n;
    if ((size_t)snprintf(path, pathlen, "%.*s.palette.json", stem, outpath) < pathlen) return 0;
    snprintf(err->message, sizeof err->message, "%.900s: path too long", outpath);
    err->status = CF_ERR_IO;
    return -1;
}

/* the palette's JSON, ["id", ...], into f; 0 or -1 (errno) */
static int write_palette(FILE *f, const char *const *names, int k)
{
    int bad = fputc('[', f) == EOF;
    for (int i = 0; i < k; i++) bad |= fprintf(f, "%s\"%s\"", i ? ", " : "", names[i]) < 0;
    bad |= fputs("]\n", f) == EOF;
    return bad ? -1 : 0;
}

static int fill_densities_blocks(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *chunks = NULL, *outpath = NULL, *device = "cpu", *server = NULL, *token_file = NULL;
    long threads = 0, max_chunks = 1048576, batchopt = 0, max_out = 64L << 30;
    int blocks = 0;
    const char *stage = NULL;
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--chunks", .str = &chunks, .required = "--chunks is required"},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--blocks", .flag = &blocks},
        {.name = "--stage", .str = &stage},
        {.name = "--device", .str = &device},
        {.name = "--server", .str = &server},
        {.name = "--token-file", .str = &token_file},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {.name = "--batch", .num = &batchopt, .lo = 1, .hi = 1L << 20},
        {.name = "--max-chunks", .num = &max_chunks, .lo = 1, .hi = 1L << 40},
        {.name = "--max-out-bytes", .num = &max_out, .lo = 1, .hi = LONG_MAX},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_fill);
    if (rc0 >= 0) return rc0;
    if (blocks && o.nfunctions) return die_usage("--blocks fills the blocks of router:final_density: no --function", usage_fill);
    int stage_surface = 0;
    if (stage && (rc0 = parse_stage(stage, &stage_surface)) >= 0) return rc0;
    if (stage && !blocks) return die_usage("--stage goes with --blocks (the stages of a block fill)", usage_fill);
    if (server && (o.npacks || o.nfunctions || strcmp(device, "cpu") != 0))
        return die_usage("--server fills with the server's packs and device: no --pack, --function or --device", usage_fill);
    if (token_file && !server) return die_usage("--token-file goes with --server", usage_fill);
    if ((rc0 = one_function(&o, usage_fill)) >= 0) return rc0;
    long r[4];
    int bad_range = chunk_range(chunks, r, usage_fill);
    if (bad_range) return bad_range;
    int64_t nx = (int64_t)r[2] - r[0] + 1, nz = (int64_t)r[3] - r[1] + 1, n = nx * nz;
    if (n > max_chunks) {
        fprintf(stderr, "chunkfill: --chunks %s: %lld chunks, more than --max-chunks %ld (a larger --max-chunks allows it)\n", chunks,
                (long long)n, max_chunks);
        return 1;
    }

    cf_error err = {0};
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    int32_t *list = NULL;
    void *bufs[2] = {NULL, NULL};
    uint8_t *bbufs[2] = {NULL, NULL};
    writer wr = {0};
    FILE *f = NULL;
    cf_output out = {0}, pout = {0};
    cf_device *dev = NULL;
    cf_client *cl = NULL;
    cf_biomes *bio = NULL;
    int surface = 0;
    char ppath[4096] = "", token[CF_TOKEN_MAX + 1];
    int rc = 1, min_y = 0, height = 0, server_f64 = 0;
    progress *prog_on = NULL; /* the progress line to end before an error */
    if (cf_seed_parse(o.seed, &seed, &err) != CF_OK) goto done;
    if (server) {
        if (token_file && read_token(token_file, token, &err) != 0) goto done;
        if (cf_client_connect(&cl, server, token_file ? token : NULL, &err) != CF_OK) goto done;
        int found = 0, prec = 0;
        for (int i = 0; cf_client_config(cl, i, NULL, NULL, NULL); i++) {
            int my, h, pr;
            if (strcmp(cf_client_config(cl, i, &my, &h, &pr), o.settings) == 0) found = 1, min_y = my, height = h, prec = pr;
        }
        if (!found) {
            snprintf(err.message, sizeof err.message, "server %s: no configuration '%s' (see its --settings)", server, o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
        if (prec != 32 && prec != 64 && !blocks) { /* block fills are bytes whatever the dialect */
            snprintf(err.message, sizeof err.message, "server %s: configuration '%s' gives %d-bit densities (32 or 64 known)", server,
                     o.settings, prec);
            err.status = CF_ERR_ARG;
            goto done;
        }
        server_f64 = prec == 64; /* 1.18-1.21: the server's DENSITY_F64, the values of a local fill */
        const char *pal[CF_PALETTE_MAX];
        if (blocks && cf_client_palette(cl, o.settings, pal) == 0) {
            snprintf(err.message, sizeof err.message, "server %s: configuration '%s' offers no block fills", server, o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
        /* the surface stage: by default where the server offers it */
        surface = blocks && (stage ? strcmp(stage, "surface") == 0 : cf_client_has_surface(cl, o.settings));
        if (surface && !cf_client_has_surface(cl, o.settings)) {
            snprintf(err.message, sizeof err.message, "server %s: configuration '%s' offers no surface stage (--stage noise)", server,
                     o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
    } else {
        if (open_pack(&o, &pk, &err) != CF_OK) goto done;
        if (blocks ? cf_program_compile_blocks(&pg, pk, o.settings, &err) != CF_OK
                   : cf_program_compile(&pg, pk, o.settings, o.functions, 1, &err) != CF_OK)
            goto done;
        if (cf_world_new(&w, pg, seed, &err) != CF_OK) goto done;
        cf_program_settings(pg, &min_y, &height, NULL);
        /* the surface stage: by default where the settings have one */
        surface = blocks && (stage ? strcmp(stage, "surface") == 0 : cf_program_has_surface(pg));
        if (surface && !cf_program_has_surface(pg)) {
            snprintf(err.message, sizeof err.message, "%s: --stage surface: these settings have no surface stage (1.18-1.21 "
                     "noise settings with a surface_rule)", o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
        if (surface && open_biomes(&o, pk, NULL, seed, &bio, &err) != CF_OK) goto done;
    }
    int use_dev = !server && strcmp(device, "cpu") != 0, fallback = strcmp(device, "auto") == 0;
    if (use_dev && surface && !cf_program_surface_on_device(pg)) {
        if (!fallback) {
            snprintf(err.message, sizeof err.message, "--device %s: the surface stage of '%s' has no OpenCL form (26.3 material "
                     "rules run on the CPU: use --device cpu or auto, or --stage noise)", device, o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
        fprintf(stderr, "chunkfill: the surface stage of these settings runs on the CPU (no OpenCL form)\n");
        use_dev = 0;
    }
    if (use_dev && cf_device_open(&dev, fallback ? "opencl" : device, pg, 0, (size_t)batchopt, &err) != CF_OK) {
        if (!fallback) goto done;
        fprintf(stderr, "chunkfill: no usable OpenCL device (%s); filling on the CPU\n", err.message);
        memset(&err, 0, sizeof err);
        use_dev = 0;
    }
    int nthreads = threads > 0 ? (int)threads : cf_cpu_count();
    size_t batch = use_dev ? cf_device_batch(dev) : cl ? (size_t)cf_client_max_chunks(cl) : (size_t)nthreads * 32;
    size_t per = (size_t)height * 256;
    int f64 = pg ? cf_program_precision(pg) == 64 : server_f64;
    size_t esz = f64 ? sizeof(double) : sizeof(float);
    /* a device fills two of its batches a call where they take at most 256 MiB: it reads the
     * first back while it computes the second (host/opencl/device.c) */
    if (use_dev && 2 * batch * per * (blocks ? 1 : esz) <= ((size_t)256 << 20)) batch *= 2;
    if ((int64_t)batch > n) batch = (size_t)n;
    /* the output's size, refused before a byte is written when it is over --max-out-bytes or
     * the free space of the output's file system */
    double out_bytes = (double)n * (double)per * (double)(blocks ? 1 : esz) + 128, avail = 0;
    char sz[32], fr[32];
    if (out_bytes > (double)max_out) {
        snprintf(err.message, sizeof err.message, "--chunks %s: the output would be %s (%lld chunks), more than --max-out-bytes %ld "
                 "(a larger --max-out-bytes allows it)", chunks, fmt_bytes(sz, sizeof sz, out_bytes), (long long)n, max_out);
        err.status = CF_ERR_LIMIT;
        goto done;
    }
    if (free_space(outpath, &avail) == 0 && out_bytes > avail) {
        snprintf(err.message, sizeof err.message, "%s: the output would be %s (%lld chunks), more than the %s free on its file system",
                 outpath, fmt_bytes(sz, sizeof sz, out_bytes), (long long)n, fmt_bytes(fr, sizeof fr, avail));
        err.status = CF_ERR_IO;
        goto done;
    }
    list = malloc(sizeof(int32_t) * 2 * batch);
    /* two output buffers: a batch fills into one while the other is written */
    for (int b = 0; b < 2; b++) {
        if (blocks) bbufs[b] = malloc(per * batch);
        else bufs[b] = malloc(esz * per * batch);
    }
    if (!list || (blocks ? !bbufs[0] || !bbufs[1] : !bufs[0] || !bufs[1])) {
        snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
        err.status = CF_ERR_NOMEM;
        goto done;
    }
    /* both outputs are checked and opened before any work: a palette that cannot be
     * written (a folder, a device there) leaves nothing new, not a new .npy beside an old palette */
    if (cf_output_open(&out, outpath, &err) != CF_OK) goto done;
    if (blocks && (palette_path(outpath, ppath, sizeof ppath, &err) < 0 || cf_output_open(&pout, ppath, &err) != CF_OK)) goto done;
    f = out.f;
    guard_tmp(out.temp);
    if (blocks) guard_tmp(pout.temp);
    /* .npy version 1.0 header, padded so the data starts on a 64-byte boundary */
    char hdr[256];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld, %d, 16, 16), }",
                      blocks ? "|u1" : f64 ? "<f8" : "<f4", (long long)n, height);
    int total = 10 + hl + 1, pad = (64 - total % 64) % 64;
    memset(hdr + hl, ' ', (size_t)pad);
    hdr[hl + pad] = '\n';
    unsigned short hlen = (unsigned short)(hl + pad + 1);
    unsigned char magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 255), (unsigned char)(hlen >> 8)};
    int bad = write_all(f, magic, 10) || write_all(f, hdr, hlen);
    int64_t done_n = 0;
    progress prog;
    progress_start(&prog, "fill", "chunks", n, o.quiet);
    prog_on = &prog;
    for (int cur = 0; !bad && done_n < n; cur ^= 1) {
        void *buf = bufs[cur];
        uint8_t *bbuf = bbufs[cur];
        size_t k = 0;
        for (; k < batch && done_n + (int64_t)k < n; k++) {
            int64_t i = done_n + (int64_t)k;
            list[2 * k] = (int32_t)(r[0] + i % nx);
            list[2 * k + 1] = (int32_t)(r[1] + i / nx);
        }
        if (use_dev && (blocks ? (surface ? cf_device_fill_blocks_surface(dev, w, bio, k, list, bbuf, &err)
                                          : cf_device_fill_blocks(dev, w, k, list, bbuf, &err))
                               : cf_device_fill(dev, w, k, list, buf, &err)) != CF_OK) {
            if (!fallback) goto done;
            progress_end(&prog);
            fprintf(stderr, "chunkfill: the device failed mid-fill (%s); the remaining chunks are filled on the CPU\n",
                    err.message);
            memset(&err, 0, sizeof err);
            use_dev = 0;
        }
        if (blocks) {
            if (cl && cf_client_fill(cl, o.settings, seed, surface ? CF_KIND_BLOCKS_SURFACE_U8 : CF_KIND_BLOCKS_U8, k, list, bbuf, &err)
                          != CF_OK)
                goto done;
            if (!cl && !use_dev && (surface ? cf_fill_blocks_surface(w, bio, k, list, bbuf, nthreads, &err)
                                            : cf_fill_blocks(w, k, list, bbuf, nthreads, &err)) != CF_OK)
                goto done;
            bad = writer_start(&wr, f, bbuf, per * k);
        } else {
            if (cl && cf_client_fill(cl, o.settings, seed, f64 ? CF_KIND_DENSITY_F64 : CF_KIND_DENSITY_F32, k, list, buf, &err) != CF_OK) goto done;
            if (!cl && !use_dev && cf_fill_chunks(w, 0, k, list, buf, nthreads, &err) != CF_OK) goto done;
            if (!f64) report_nan(buf, list, k, min_y, height);
            /* little-endian float32 or float64 (this host is little-endian: checked at build time) */
            bad = writer_start(&wr, f, buf, esz * per * k);
        }
        done_n += (int64_t)k;
        progress_show(&prog, done_n);
    }
    bad |= writer_wait(&wr);
    progress_end(&prog);
    if (bad || fflush(f) != 0 || ferror(f)) {
        snprintf(err.message, sizeof err.message, "%s: write error: %s", outpath, strerror(errno));
        err.status = CF_ERR_IO;
        goto done;
    }
    f = NULL;
    const char *names[CF_PALETTE_MAX];
    int npal = !blocks ? 0 : cl ? cf_client_palette(cl, o.settings, names) : cf_block_palette(pg, names);
    if (blocks && write_palette(pout.f, names, npal) < 0) {
        snprintf(err.message, sizeof err.message, "%.900s: write error: %s", ppath, strerror(errno));
        err.status = CF_ERR_IO;
        goto done;
    }
    /* both durable under their temporary names, then both renamed */
    if (cf_output_close(&out, &err) != CF_OK || (blocks && cf_output_close(&pout, &err) != CF_OK)) goto done;
    if (cf_output_commit(&out, &err) != CF_OK || (blocks && cf_output_commit(&pout, &err) != CF_OK)) goto done;
    unguard_tmp();
    if (!o.quiet) /* one summary line (stderr), also where no progress line was shown */
        fprintf(stderr, "fill: %lld chunks, %s, %.2f s, %.1f chunks/s (%s)\n", (long long)n, fmt_bytes(sz, sizeof sz, out_bytes),
                mono_s() - prog.t0, (double)n / (mono_s() - prog.t0 > 0 ? mono_s() - prog.t0 : 1e-9),
                cl ? "server" : use_dev ? cf_device_name(dev) : "cpu");
    rc = 0;
done:
    writer_wait(&wr); /* a write in flight ends before its file closes */
    cf_output_abort(&out);
    cf_output_abort(&pout);
    if (prog_on) progress_end(prog_on);
    unguard_tmp();
    if (rc) report(&err);
    free(list);
    for (int b = 0; b < 2; b++) free(bufs[b]), free(bbufs[b]);
    cf_biomes_free(bio);
    cf_client_close(cl);
    cf_device_free(dev);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

/* fill: densities or blocks here, --biomes in biome.c */
int cmd_fill(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--biomes") == 0) return cli_command_name = "fill --biomes", cmd_fill_biomes(argc, argv);
    return fill_densities_blocks(argc, argv);
}

int cmd_slice(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *outpath = NULL, *span = "-128:127", *mode = "material", *device = "cpu";
    long fx = LONG_MIN, fz = LONG_MIN, lim16 = (long)CF_MAX_CHUNK * 16;
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--span", .str = &span},
        {.name = "--mode", .str = &mode},
        {.name = "--device", .str = &device},
        {.name = "--x", .num = &fx, .lo = -lim16, .hi = lim16 + 15},
        {.name = "--z", .num = &fz, .lo = -lim16, .hi = lim16 + 15},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_slice);
    if (rc0 >= 0) return rc0;
    if ((fx == LONG_MIN) == (fz == LONG_MIN)) return die_usage("give one of --x X and --z Z", usage_slice);
    int axis = fx != LONG_MIN ? 0 : 2;
    long fixed = axis == 0 ? fx : fz;
    int m = strcmp(mode, "material") == 0 ? 0 : strcmp(mode, "density") == 0 ? 1 : -1;
    if (m < 0) return die_usage("--mode takes material or density", usage_slice);
    if ((rc0 = one_function(&o, usage_slice)) >= 0) return rc0;
    long a0, a1;
    char sb[64];
    if (strlen(span) >= sizeof sb) return die_usage("--span takes A:B", usage_slice);
    strcpy(sb, span);
    char *colon = strchr(sb, ':');
    if (!colon) return die_usage("--span takes A:B", usage_slice);
    *colon = 0;
    long lim = (long)CF_MAX_CHUNK * 16;
    if (parse_long(sb, -lim, lim + 15, &a0) < 0 || parse_long(colon + 1, -lim, lim + 15, &a1) < 0)
        return die_usage("--span takes A:B (block coordinates)", usage_slice);
    if (a1 < a0) {
        char msg[200];
        snprintf(msg, sizeof msg, "--span %.60s: reversed: the second end must not be below the first", span);
        return die_usage(msg, usage_slice);
    }
    if (a1 - a0 + 1 > 65536) {
        fprintf(stderr, "chunkfill: --span %s: %ld blocks (at most 65536)\n", span, a1 - a0 + 1);
        return 1;
    }
    cf_error err = {0};
    cli_world cw = {0};
    void *vol = NULL;
    float *img = NULL;
    int32_t *list = NULL;
    int rc = 1;
    if (open_world(&o, 0, 1, &cw, &err) != CF_OK) goto done;
    if (strcmp(device, "cpu") != 0 && cf_device_open(&cw.dev, device, cw.pg, 0, 0, &err) != CF_OK) goto done;
    int min_y, height;
    cf_program_settings(cw.pg, &min_y, &height, NULL);
    int n = (int)(a1 - a0 + 1);
    int64_t c0 = floordiv16(a0), c1 = floordiv16(a1), cf = floordiv16(fixed), nc = c1 - c0 + 1;
    list = malloc(sizeof(int32_t) * 2 * (size_t)nc);
    int f64 = cf_program_precision(cw.pg) == 64;
    vol = malloc((f64 ? sizeof(double) : sizeof(float)) * (size_t)height * 256 * (size_t)nc);
    img = malloc(sizeof(float) * (size_t)height * (size_t)n);
    if (!list || !vol || !img) {
        snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
        err.status = CF_ERR_NOMEM;
        goto done;
    }
    for (int64_t i = 0; i < nc; i++) {
        list[2 * i] = (int32_t)(axis == 0 ? cf : c0 + i);
        list[2 * i + 1] = (int32_t)(axis == 0 ? c0 + i : cf);
    }
    /* batches of 64 chunks with a progress line between them on a terminal (a span of 65536
     * blocks is 4,096 chunks); each chunk is filled alone either way */
    progress prog;
    progress_start(&prog, "slice", "chunks", nc, o.quiet);
    size_t per = (f64 ? sizeof(double) : sizeof(float)) * (size_t)height * 256;
    for (int64_t i0 = 0; i0 < nc; i0 += 64) {
        size_t k = (size_t)(nc - i0 < 64 ? nc - i0 : 64);
        void *at = (char *)vol + per * (size_t)i0;
        if (cw.dev ? cf_device_fill(cw.dev, cw.w, k, list + 2 * i0, at, &err) != CF_OK
                   : cf_fill_chunks(cw.w, 0, k, list + 2 * i0, at, 0, &err) != CF_OK) {
            progress_end(&prog);
            goto done;
        }
        progress_show(&prog, i0 + (int64_t)k);
    }
    progress_end(&prog);
    int lf = (int)(fixed - cf * 16);
    for (int i = 0; i < n; i++) {
        int64_t b = a0 + i, c = floordiv16(b) - c0;
        int l = (int)(b - floordiv16(b) * 16);
        int lx = axis == 0 ? lf : l, lz = axis == 0 ? l : lf;
        for (int y = 0; y < height; y++) {
            size_t k = (size_t)c * (size_t)height * 256 + ((size_t)y * 16 + (size_t)lz) * 16 + (size_t)lx;
            /* the picture only needs the sign and a shade: a double density narrows to float */
            img[(size_t)y * (size_t)n + (size_t)i] = f64 ? (float)((const double *)vol)[k] : ((const float *)vol)[k];
        }
    }
    if (cf_png_slice(outpath, img, n, cw.pg, m, &err) != CF_OK) goto done;
    if (!o.quiet) /* the summary line; --quiet: none */
        fprintf(stderr, "slice: %d x %d pixels, %lld chunks, %.2f s (%s)\n", n, height, (long long)nc, mono_s() - prog.t0,
                cw.dev ? cf_device_name(cw.dev) : "cpu");
    rc = 0;
done:
    if (rc) report(&err);
    free(list), free(vol), free(img);
    close_world(&cw);
    return rc;
}
