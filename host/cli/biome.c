/* biome.c - `chunkfill biome` and `chunkfill fill --biomes` (README "Biomes").
 *
 * A client of include/chunkfill.h only: options -> cf_biomes_open -> queries
 * (lines on stdout) or a .npy of palette indices with F.palette.json beside it,
 * both written to temporary names and renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunkfill.h"
#include "chunkfill_net.h"
#include "cli.h"




const char usage_biome[] =
    "usage: chunkfill biome [--pack PATH]... [--settings ID | --dimension ID] [--version V] --seed SEED\n"
    "                       (--quart QX,QY,QZ)... | (--at X,Y,Z)... | --quarts FILE | --points FILE\n"
    "       chunkfill biome ... --seed SEED --grid QX0,QZ0:QX1,QZ1 --qy QY --out F.npy [--threads N] [--quiet]\n"
    "                       [--device cpu|opencl[:N]]\n"
    "Prints one line per position: the coordinates as given, then the biome id. --quart/--quarts take\n"
    "quart coordinates (block >> 2) and query the biome source directly (the point path, as /locate\n"
    "and structure checks do); --at/--points take block coordinates and pick the quart through\n"
    "BiomeManager's zoom (SHA-256 of the seed), as the F3 screen does. --grid writes the 1:4 map of\n"
    "quarts QX0..QX1 x QZ0..QZ1 (inclusive) at quart y QY: uint8 palette indices of shape (nz, nx),\n"
    "index [qz][qx], and F.palette.json (the biome ids) beside it.\n"
    "  --pack PATH      a data pack folder; repeat to layer packs; none: the embedded default pack\n"
    "  --dimension ID   a dimension: data/<ns>/dimension/<path>.json of the packs, or the vanilla\n"
    "                   minecraft:overworld, minecraft:the_nether, minecraft:the_end\n"
    "  --settings ID    noise settings (default minecraft:overworld) with their vanilla biome source\n"
    "                   (nether: the nether preset; end: the_end; others: the overworld preset)\n"
    "  --dialect D      the data format: 1.21 or 26.3 (default: detected)\n"
    "  --quart Q        QX,QY,QZ (repeatable); --at X,Y,Z a block (repeatable)\n"
    "  --quarts FILE    one 'QX QY QZ' per line; --points FILE one 'X Y Z' ('-': standard input; # comments)\n"
    "  --verbose        the source and its statistics (lookups, ties at the minimum fitness) on stderr\n"
    "  --device D       --grid on cpu (default) or an OpenCL device (equal byte for byte)\n"
    HELP_VERSION
    "Ties: where several entries of the list share the minimum fitness vanilla's answer depends on the\n"
    "thread's previous lookup; these queries take the first tied leaf in the RTree's depth-first order\n"
    "(a cold search). --verbose counts them.\n";

const char usage_fill_biomes[] =
    "usage: chunkfill fill --biomes [--pack PATH]... [--settings ID | --dimension ID] [--version V]\n"
    "                      --seed SEED --chunks X0,Z0[:X1,Z1] --out F.npy [--threads N] [--verbose]\n"
    "                      [--device cpu|opencl[:N]]\n"
    "       chunkfill fill --biomes --server ADDR [--token-file F] [--settings ID] --seed SEED --chunks ... --out F.npy\n"
    "Writes the stored biomes of the chunks (x fastest, then z; inclusive) as a chunk fill makes them\n"
    "(26.3: the volume path): uint8 palette indices of shape (nchunks, height/4, 4, 4), index\n"
    "[chunk][qy][qz][qx], qy from min_y/4 up, and F.palette.json (the biome ids) beside F.npy.\n"
    "Each chunk replays vanilla's fill order (sections bottom to top; x, y, z) with the RTree's warm\n"
    "start, cold at the chunk's first quart: equal to vanilla except at ties. --device opencl fills on\n"
    "an OpenCL device, byte for byte the CPU's result. Options as `chunkfill biome`.\n"
    HELP_VERSION;

typedef struct bopts {
    opts c; /* first: the shared options (opts.c); parse_cmd's callbacks get &c */
    const char *dimension, *quarts, *points, *grid, *out, *chunks, *device, *server, *token_file;
    long qy, threads, max_chunks;
    int has_qy, verbose, biomes;
    int32_t *pos; /* positions given on the command line or in a file */
    char **text;  /* their text as given (a line's first three words) */
    size_t npos, cap;
    int blocks;   /* positions are blocks (zoom) */
} bopts;

/* "A<sep>B<sep>C" of int32 values (sep ',' or whitespace) */
static int parse3(const char *s, int32_t v[3], int ws)
{
    const char *p = s;
    for (int k = 0; k < 3; k++) {
        while (ws && (*p == ' ' || *p == '\t')) p++;
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (errno || end == p || x < INT32_MIN || x > INT32_MAX) return -1;
        v[k] = (int32_t)x;
        p = end;
        if (k < 2) {
            if (ws) {
                if (*p != ' ' && *p != '\t') return -1;
            } else if (*p++ != ',') {
                return -1;
            }
        }
    }
    while (ws && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return *p ? -1 : 0;
}

static int push(bopts *o, const int32_t v[3], const char *text)
{
    if (o->npos == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        int32_t *p = realloc(o->pos, cap * 3 * sizeof *p);
        if (!p) return -1;
        o->pos = p;
        char **t = realloc(o->text, cap * sizeof *t);
        if (!t) return -1;
        o->text = t;
        o->cap = cap;
    }
    memcpy(o->pos + 3 * o->npos, v, 3 * sizeof *v);
    o->text[o->npos] = strdup(text);
    if (!o->text[o->npos]) return -1;
    o->npos++;
    return 0;
}

/* one position per line, 'A B C' ('#' starts a comment); 0, or 1 after a located message */
static int read_file(bopts *o, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "chunkfill: %s: %s\n", path, strerror(errno));
        return 1;
    }
    char line[512];
    long ln = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *h = strchr(line, '#');
        if (h) *h = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) continue;
        int32_t v[3];
        if (parse3(p, v, 1) < 0) {
            fprintf(stderr, "chunkfill: %s:%ld: expected three integers 'A B C'\n", path, ln);
            rc = 1;
            break;
        }
        char t[128];
        snprintf(t, sizeof t, "%d %d %d", v[0], v[1], v[2]);
        if (push(o, v, t) < 0) {
            fprintf(stderr, "chunkfill: out of memory\n");
            rc = 1;
            break;
        }
    }
    if (f != stdin) fclose(f);
    return rc;
}

/* --quart QX,QY,QZ and --at X,Y,Z (repeatable; not both) */
static int position_option(bopts *o, const char *v, int blocks)
{
    int32_t q[3];
    if (parse3(v, q, 0) < 0) return die_usage(blocks ? "--at takes X,Y,Z (integers)" : "--quart takes QX,QY,QZ (integers)", usage_biome);
    if (o->npos && o->blocks != blocks) return die_usage("give --quart or --at, not both", usage_biome);
    o->blocks = blocks;
    char t[128];
    snprintf(t, sizeof t, "%d %d %d", q[0], q[1], q[2]);
    if (push(o, q, t) < 0) return fprintf(stderr, "chunkfill: out of memory\n"), 1;
    return 0;
}
static int quart_option(opts *c, const char *v) { return position_option((bopts *)c, v, 0); }
static int at_block_option(opts *c, const char *v) { return position_option((bopts *)c, v, 1); }

/* the options of both commands (parse_cmd, opts.c); -1 to go on, else the exit status */
static int parse_opts(bopts *o, int argc, char **argv, const char *usage)
{
    cf_limits_default(&o->c.lim);
    o->qy = LONG_MIN;
    o->c.refuse = CO_FUNCTION | CO_EXTERNAL;
    optdef both[] = {
        {.name = "--seed", .str = &o->c.seed, .required = "--seed is required"},
        {.name = "--dimension", .str = &o->dimension},
        {.name = "--device", .str = &o->device},
        {.name = "--out", .str = &o->out},
        {.name = "--threads", .num = &o->threads, .lo = 0, .hi = 1024},
        {.name = "--verbose", .flag = &o->verbose},
    };
    optdef biome[] = {
        {.name = "--quarts", .str = &o->quarts},
        {.name = "--points", .str = &o->points},
        {.name = "--grid", .str = &o->grid},
        {.name = "--qy", .num = &o->qy, .lo = -(1L << 29), .hi = 1L << 29},
        {.name = "--quart", .fn = quart_option},
        {.name = "--at", .fn = at_block_option},
    };
    optdef fill[] = {
        {.name = "--biomes", .flag = &o->biomes},
        {.name = "--server", .str = &o->server},
        {.name = "--token-file", .str = &o->token_file},
        {.name = "--chunks", .str = &o->chunks},
        {.name = "--max-chunks", .num = &o->max_chunks, .lo = 1, .hi = 1L << 40},
    };
    optdef defs[sizeof both / sizeof *both + sizeof biome / sizeof *biome + sizeof fill / sizeof *fill + 1];
    size_t n = 0;
    for (size_t i = 0; i < sizeof both / sizeof *both; i++) defs[n++] = both[i];
    if (usage == usage_biome)
        for (size_t i = 0; i < sizeof biome / sizeof *biome; i++) defs[n++] = biome[i];
    else
        for (size_t i = 0; i < sizeof fill / sizeof *fill; i++) defs[n++] = fill[i];
    defs[n] = (optdef){0};
    int rc = parse_cmd(&o->c, argc, argv, defs, usage);
    if (rc >= 0) return rc;
    o->has_qy = o->qy != LONG_MIN;
    if (o->c.settings && o->dimension) return die_usage("give --settings or --dimension, not both", usage);
    if (o->device && strcmp(o->device, "cpu") != 0 && strncmp(o->device, "opencl", 6) != 0)
        return die_usage("--device takes cpu, opencl or opencl:N", usage);
    if (o->device && strcmp(o->device, "cpu") == 0) o->device = NULL;
    return -1; /* parsed: go on */
}

static void free_opts(bopts *o)
{
    for (size_t i = 0; i < o->npos; i++) free(o->text[i]);
    free(o->text);
    free(o->pos);
    free(o->c.at);
    free(o->c.tok);
}

/* opens packs and the biome source */
static cf_status open_source(const bopts *o, cf_pack **pk, cf_biomes **b, cf_error *err)
{
    int64_t seed;
    if (cf_seed_parse(o->c.seed, &seed, err) != CF_OK) return err->status;
    if (open_pack(&o->c, pk, err) != CF_OK) return err->status;
    if (open_biomes(&o->c, *pk, o->dimension, seed, b, err) != CF_OK) return err->status;
    if (o->verbose) cf_biomes_count_ties(*b, 1);
    return CF_OK;
}

static void stats(const bopts *o, const cf_biomes *b)
{
    if (!o->verbose) return;
    uint64_t n, t;
    cf_biomes_stats(b, &n, &t);
    fprintf(stderr, "chunkfill: %s\nchunkfill: %llu multi-noise lookups, %llu ties at the minimum fitness\n", cf_biomes_describe(b),
            (unsigned long long)n, (unsigned long long)t);
}

/* writes a uint8 .npy of the given shape and F.palette.json: both opened (checked), both
 * written and made durable, then both renamed; a failure leaves neither */
static int write_npy_u8(const char *out, const uint8_t *v, const long long *shape, int nd, const char *const *names, int k,
                        cf_error *err)
{
    char ppath[4096];
    size_t n = strlen(out);
    int stem = n > 4 && strcmp(out + n - 4, ".npy") == 0 ? (int)(n - 4) : (int)n;
    if ((size_t)snprintf(ppath, sizeof ppath, "%.*s.palette.json", stem, out) >= sizeof ppath) {
        snprintf(err->message, sizeof err->message, "%s: path too long", out);
        return -1;
    }
    char shp[200];
    int sl = 0;
    size_t total = 1;
    for (int i = 0; i < nd; i++) {
        sl += snprintf(shp + sl, sizeof shp - (size_t)sl, "%lld, ", shape[i]);
        total *= (size_t)shape[i];
    }
    if (nd > 1) shp[sl - 2] = 0; /* "(a, b)" rather than "(a, b, )" */
    char hdr[320];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '|u1', 'fortran_order': False, 'shape': (%s), }", shp);
    int pad = (64 - (10 + hl + 1) % 64) % 64;
    memset(hdr + hl, ' ', (size_t)pad);
    hdr[hl + pad] = '\n';
    unsigned short hlen = (unsigned short)(hl + pad + 1);
    unsigned char magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 255), (unsigned char)(hlen >> 8)};
    cf_output o = {0}, p = {0};
    if (cf_output_open(&o, out, err) != CF_OK || cf_output_open(&p, ppath, err) != CF_OK) goto fail;
    int bad = fwrite(magic, 1, 10, o.f) != 10 || fwrite(hdr, 1, hlen, o.f) != hlen || fwrite(v, 1, total, o.f) != total;
    bad |= fputc('[', p.f) == EOF;
    for (int i = 0; i < k; i++) bad |= fprintf(p.f, "%s\"%s\"", i ? ", " : "", names[i]) < 0;
    bad |= fputs("]\n", p.f) == EOF;
    if (bad) {
        snprintf(err->message, sizeof err->message, "%s: write error: %s", out, strerror(errno));
        err->status = CF_ERR_IO;
        goto fail;
    }
    if (cf_output_close(&o, err) != CF_OK || cf_output_close(&p, err) != CF_OK || cf_output_commit(&o, err) != CF_OK
        || cf_output_commit(&p, err) != CF_OK)
        goto fail;
    return 0;
fail:
    cf_output_abort(&o);
    cf_output_abort(&p);
    return -1;
}

int cmd_biome(int argc, char **argv)
{
    bopts o = {0};
    int rc = parse_opts(&o, argc, argv, usage_biome);
    if (rc >= 0) return free_opts(&o), rc;
    int nsrc = (o.npos > 0) + (o.quarts != NULL) + (o.points != NULL) + (o.grid != NULL);
    if (nsrc != 1) return free_opts(&o), die_usage("give one of --quart/--at (repeatable), --quarts, --points or --grid", usage_biome);
    if (o.grid && (!o.has_qy || !o.out)) return free_opts(&o), die_usage("--grid needs --qy and --out", usage_biome);
    if (!o.grid && (o.out || o.has_qy)) return free_opts(&o), die_usage("--out and --qy go with --grid", usage_biome);
    long g[4] = {0};
    if (o.grid) {
        if ((rc = parse_rect("--grid", o.grid, 0, INT32_MIN, INT32_MAX, "quart coordinates", g)) >= 0) return free_opts(&o), rc;
        long long gw = g[2] - g[0] + 1, gh = g[3] - g[1] + 1, cells = gw * gh;
        if (cells > (1LL << 30)) {
            char msg[300];
            snprintf(msg, sizeof msg, "--grid %.60s: %lld x %lld quarts is too large (at most 2^30 = 1073741824 quarts)", o.grid,
                     gw, gh);
            return free_opts(&o), die_usage(msg, usage_biome);
        }
    }
    if (o.quarts && (rc = read_file(&o, o.quarts))) return free_opts(&o), rc;
    if (o.points) {
        o.blocks = 1;
        if ((rc = read_file(&o, o.points))) return free_opts(&o), rc;
    }
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    uint8_t *v = NULL;
    rc = 1;
    double t0 = mono_s();
    if (open_source(&o, &pk, &b, &err) != CF_OK) goto done;
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(b, names);
    if (o.grid) {
        int32_t nx = (int32_t)(g[2] - g[0] + 1), nz = (int32_t)(g[3] - g[1] + 1);
        v = malloc((size_t)nx * (size_t)nz);
        if (!v) {
            snprintf(err.message, sizeof err.message, "out of memory");
            goto done;
        }
        if (o.device) {
            size_t cells = (size_t)nx * (size_t)nz;
            int32_t *q = malloc(cells * 3 * sizeof *q);
            cf_biome_device *d = NULL;
            if (!q) {
                snprintf(err.message, sizeof err.message, "out of memory");
                goto done;
            }
            for (size_t i = 0; i < cells; i++)
                q[3 * i] = (int32_t)(g[0] + (long)(i % (size_t)nx)), q[3 * i + 1] = (int32_t)o.qy, q[3 * i + 2] = (int32_t)(g[1] + (long)(i / (size_t)nx));
            cf_status st = cf_biomes_device_open(&d, o.device, b, &err);
            if (st == CF_OK) st = cf_biomes_device_quarts(d, cells, q, v, &err);
            cf_biomes_device_free(d);
            free(q);
            if (st != CF_OK) goto done;
        } else {
            /* on a terminal, strips of rows with a progress line between them */
            progress prog;
            progress_start(&prog, "biome", "rows", nz, o.c.quiet);
            int32_t step = prog.on ? (nz + 39) / 40 : nz;
            for (int32_t k0 = 0; k0 < nz; k0 += step) {
                int32_t k = nz - k0 < step ? nz - k0 : step;
                if (cf_biomes_grid(b, (int32_t)g[0], (int32_t)g[1] + k0, nx, k, (int32_t)o.qy, v + (size_t)k0 * (size_t)nx, (int)o.threads,
                                   &err) != CF_OK) {
                    progress_end(&prog);
                    goto done;
                }
                progress_show(&prog, k0 + k);
            }
            progress_end(&prog);
        }
        long long shape[2] = {nz, nx};
        if (write_npy_u8(o.out, v, shape, 2, names, cf_biomes_palette(b, NULL), &err) < 0) goto done;
        if (!o.c.quiet) /* one summary line (stderr) */
            fprintf(stderr, "biome: %d x %d quarts at qy %ld, %.2f s (%s)\n", nx, nz, o.qy, mono_s() - t0, o.device ? o.device : "cpu");
    } else {
        v = malloc(o.npos ? o.npos : 1);
        if (!v) {
            snprintf(err.message, sizeof err.message, "out of memory");
            goto done;
        }
        /* batches of points with a progress line between them on a terminal (a point query is a
         * cold search: the batches change no answer), and a summary line where it took a while */
        progress prog;
        progress_start(&prog, "biome", "points", (int64_t)o.npos, o.c.quiet);
        double t0 = mono_s();
        for (size_t at = 0; at < o.npos; at += 65536) {
            size_t m = o.npos - at < 65536 ? o.npos - at : 65536;
            if ((o.blocks ? cf_biomes_blocks(b, m, o.pos + 3 * at, v + at, &err) : cf_biomes_quarts(b, m, o.pos + 3 * at, v + at, &err)) !=
                CF_OK) {
                progress_end(&prog);
                goto done;
            }
            progress_show(&prog, (int64_t)(at + m));
        }
        progress_end(&prog);
        for (size_t i = 0; i < o.npos; i++) printf("%s %s\n", o.text[i], names[v[i]]);
        if (fflush(stdout) != 0) {
            snprintf(err.message, sizeof err.message, "standard output: %s", strerror(errno));
            goto done;
        }
        double t = mono_s() - t0;
        if (!o.c.quiet && t > 2) fprintf(stderr, "biome: %zu points, %.2f s, %.0f points/s\n", o.npos, t, (double)o.npos / t);
    }
    stats(&o, b);
    rc = 0;
done:
    if (rc) fprintf(stderr, "chunkfill: %s\n", err.message);
    free(v);
    cf_biomes_free(b);
    cf_pack_free(pk);
    free_opts(&o);
    return rc;
}

int cmd_fill_biomes(int argc, char **argv)
{
    bopts o = {0};
    o.max_chunks = 1L << 20;
    int rc = parse_opts(&o, argc, argv, usage_fill_biomes);
    if (rc >= 0) return free_opts(&o), rc;
    if (!o.chunks || !o.out) return free_opts(&o), die_usage("--chunks and --out are required", usage_fill_biomes);
    long cr[4];
    if ((rc = chunk_range(o.chunks, cr, usage_fill_biomes)) != 0) return free_opts(&o), rc;
    int32_t a[2] = {(int32_t)cr[0], (int32_t)cr[1]}, c[2] = {(int32_t)cr[2], (int32_t)cr[3]};
    long long nx = (long long)c[0] - a[0] + 1, nz = (long long)c[1] - a[1] + 1, n = nx * nz;
    if (n > o.max_chunks) {
        fprintf(stderr, "chunkfill: --chunks %s: %lld chunks, more than --max-chunks %ld\n", o.chunks, n, o.max_chunks);
        return free_opts(&o), 1;
    }
    cf_error err = {0};
    double t0 = mono_s();
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    cf_client *cl = NULL;
    uint8_t *v = NULL;
    int32_t *list = NULL;
    const char *names[CF_BIOME_PALETTE_MAX];
    int npal = 0, min_y = 0, height = 0;
    char token[300];
    rc = 1;
    if (o.server) { /* a chunkfill server started with --biomes (host/net/PROTOCOL.md) */
        const char *cfg = o.c.settings ? o.c.settings : "minecraft:overworld";
        int64_t seed;
        if (o.c.npacks || o.dimension || o.device || o.c.version || o.c.dialect) {
            free_opts(&o);
            return die_usage("--server fills with the server's packs and sources: no --pack, --dimension, --device, --version or --dialect",
                              usage_fill_biomes);
        }
        if (o.token_file) {
            FILE *tf = fopen(o.token_file, "r");
            if (!tf || !fgets(token, sizeof token, tf)) {
                snprintf(err.message, sizeof err.message, "%s: cannot read the token", o.token_file);
                if (tf) fclose(tf);
                goto done;
            }
            fclose(tf);
            token[strcspn(token, "\r\n")] = 0;
        }
        if (cf_seed_parse(o.c.seed, &seed, &err) != CF_OK || cf_client_connect(&cl, o.server, o.token_file ? token : NULL, &err) != CF_OK)
            goto done;
        int found = 0;
        for (int i = 0; cf_client_config(cl, i, NULL, NULL, NULL); i++)
            if (strcmp(cf_client_config(cl, i, NULL, NULL, NULL), cfg) == 0) found = 1, cf_client_config(cl, i, &min_y, &height, NULL);
        if (!found || (npal = cf_client_biome_palette(cl, cfg, names)) == 0) {
            snprintf(err.message, sizeof err.message, "server %s: configuration '%s' %s", o.server, cfg,
                     found ? "offers no biomes (start the server with --biomes)" : "does not exist");
            goto done;
        }
        list = malloc((size_t)n * 2 * sizeof *list);
        v = malloc((size_t)n * (size_t)(height / 4) * 16);
        if (!list || !v) {
            snprintf(err.message, sizeof err.message, "out of memory");
            goto done;
        }
        for (long long i = 0; i < n; i++) list[2 * i] = (int32_t)(a[0] + i % nx), list[2 * i + 1] = (int32_t)(a[1] + i / nx);
        if (cf_client_fill(cl, cfg, seed, CF_KIND_BIOMES_U8, (size_t)n, list, v, &err) != CF_OK) goto done;
        long long shape[4] = {n, height / 4, 4, 4};
        if (write_npy_u8(o.out, v, shape, 4, names, npal, &err) < 0) goto done;
        if (!o.c.quiet) fprintf(stderr, "fill: %lld chunks of biomes, %.2f s (server)\n", n, mono_s() - t0);
        rc = 0;
        goto done;
    }
    if (open_source(&o, &pk, &b, &err) != CF_OK) goto done;
    npal = cf_biomes_palette(b, names);
    cf_biomes_range(b, &min_y, &height);
    list = malloc((size_t)n * 2 * sizeof *list);
    v = malloc((size_t)n * (size_t)(height / 4) * 16);
    if (!list || !v) {
        snprintf(err.message, sizeof err.message, "out of memory");
        goto done;
    }
    for (long long i = 0; i < n; i++) list[2 * i] = (int32_t)(a[0] + i % nx), list[2 * i + 1] = (int32_t)(a[1] + i / nx);
    if (o.device) {
        cf_biome_device *d = NULL;
        cf_status st = cf_biomes_device_open(&d, o.device, b, &err);
        if (st == CF_OK) st = cf_biomes_device_fill(d, (size_t)n, list, v, &err);
        cf_biomes_device_free(d);
        if (st != CF_OK) goto done;
    } else {
        /* on a terminal, batches of chunks with a progress line between them */
        progress prog;
        progress_start(&prog, "fill", "chunks", n, o.c.quiet);
        long long step = prog.on ? (n + 39) / 40 : n;
        size_t per = (size_t)(height / 4) * 16;
        for (long long i0 = 0; i0 < n; i0 += step) {
            long long k = n - i0 < step ? n - i0 : step;
            if (cf_fill_biomes(b, (size_t)k, list + 2 * i0, v + (size_t)i0 * per, (int)o.threads, &err) != CF_OK) {
                progress_end(&prog);
                goto done;
            }
            progress_show(&prog, i0 + k);
        }
        progress_end(&prog);
    }
    long long shape[4] = {n, height / 4, 4, 4};
    if (write_npy_u8(o.out, v, shape, 4, names, npal, &err) < 0) goto done;
    if (!o.c.quiet) fprintf(stderr, "fill: %lld chunks of biomes, %.2f s (%s)\n", n, mono_s() - t0, o.device ? o.device : "cpu");
    stats(&o, b);
    rc = 0;
done:
    if (rc) fprintf(stderr, "chunkfill: %s\n", err.message);
    free(v);
    free(list);
    cf_client_close(cl);
    cf_biomes_free(b);
    cf_pack_free(pk);
    free_opts(&o);
    return rc;
}
