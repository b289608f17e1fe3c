/* cli.c - the chunkfill command line. A client of include/chunkfill.h only.
 *
 *   chunkfill sample [--pack PATH]... [--settings ID] --seed SEED --function ID
 *                    (--at X,Y,Z)... | --points FILE
 *   chunkfill nodes            the node table
 *   chunkfill fill [--pack PATH]... [--settings ID] --seed SEED --chunks X0,Z0[:X1,Z1]
 *                  [--threads N] [--device cpu|opencl[:N]|auto] --out FILE.npy
 *   chunkfill serve [--pack PATH]... [--settings ID]... --listen ADDR...   (offload server)
 *   chunkfill check, render, slice, plan, emit, info, devices (see usage_* below)
 * Each command's options are a table of optdef rows (parse_cmd). Errors: one
 * line on stderr; exit 1 for bad input, 2 for bad usage.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chunkfill.h"
#include "chunkfill_net.h"

static const char *const usage_main =
    "usage: chunkfill COMMAND [OPTIONS]\n"
    "commands:\n"
    "  sample   evaluate a density function at block positions (single-point path)\n"
    "  fill     fill chunk volumes (vanilla's chunk fill) into a NumPy .npy file\n"
    "  biome    biome ids at quarts, blocks, a 1:4 grid (fill --biomes: the biomes of chunks)\n"
    "  pregen   fill an area into region files (Anvil .mca or .npy) with a manifest (MPI: chunkfill-mpi)\n"
    "  plan     print the fill plan of a pack (stages, node counts, cache classes)\n"
    "  render   draw a shaded-relief map of the exact terrain surface (PNG)\n"
    "  slice    draw a vertical cross-section of the density (PNG)\n"
    "  tiles    write a pyramid of map tiles and a viewer (DIR/L/Z/X/Y.png, DIR/index.html)\n"
    "  columns  per-column map data at a stride (height, top block, biome, fluid) into a .npy\n"
    "  emit     print the generated OpenCL C program of a pack\n"
    "  check    fill on an OpenCL device and on the CPU and compare every block\n"
    "  devices  list the OpenCL devices\n"
    "  serve    answer fill requests over TCP or a Unix socket (host/net/PROTOCOL.md)\n"
    "  info     compile a pack and print graph statistics\n"
    "  nodes    list the density function node kinds\n"
    "Run 'chunkfill COMMAND --help' for the options of a command.\n";

static const char *const usage_sample =
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

static const char *const usage_fill =
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
    "                   chunks done of all, chunks/s, time left)\n"
    "  --device DEV     cpu (the reference, default), opencl (the first GPU with fp64, else any\n"
    "                   OpenCL device with fp64), opencl:N (see 'chunkfill devices'), or auto:\n"
    "                   opencl when a device passes the exactness probes, else the CPU; a device\n"
    "                   that fails mid-fill hands the rest to the CPU (with one message). An\n"
    "                   explicit opencl device that fails ends the fill with an error, no file.\n"
    "  --batch N        chunks per device launch (default: chosen from the device)\n"
    "  --max-chunks N   refuse larger ranges (default 1048576)\n"
    "  --server ADDR    fill through a running 'chunkfill serve' (HOST:PORT, [V6]:PORT or\n"
    "                   unix:PATH) instead of locally: same file; --settings names the\n"
    "                   server's configuration; --pack, --function and --device do not apply\n"
    "  --token-file F   the server's shared secret (first line of F)\n"
    "  plus --pack, --settings, --seed and the limits of 'chunkfill sample --help'\n"
    "  (--max-file-bytes, --max-nodes, --max-depth, --max-memory), --dialect, --strict and --define\n";

static const char *const usage_plan =
    "usage: chunkfill plan [--pack PATH]... [--settings ID] [--function ID]\n"
    "Prints the fill plan of router:final_density (or --function): node counts by stage\n"
    "(constant, per column, per cell corner, per block, probe), memo and cache classes, and\n"
    "the interpolation cells whose inputs run at cell corners.\n";

static const char *const usage_info =
    "usage: chunkfill info [--pack PATH]... [--settings ID] [--function ID]...\n"
    "Compiles the functions (default router:final_density) and prints node counts,\n"
    "axis classes and value ranges after the graph passes.\n";

typedef struct opts {
    const char *packs[64];
    int npacks;
    const char *ext[64];   /* --external NAME=VALUE (Hytale context inputs) */
    int next;
    const char *defs[64];  /* --define TYPE=VALUE (a mod's density function type as a constant) */
    int ndefs;
    const char *settings, *seed, *points, *irisd; /* irisd: --dialect master|unification (Iris) */
    const char *functions[64];
    int nfunctions;
    double *at;           /* sample positions, 3 per point */
    char (*tok)[3][48];   /* their text, echoed by a double dialect */
    size_t nat, capat;
    cf_limits lim;
    int dialect; /* --dialect: CF_DIALECT_* */
    int strict;  /* --strict: cf_pack_set_strict */
} opts;

static int die_usage(const char *msg, const char *usage)
{
    fprintf(stderr, "chunkfill: %s\n%s", msg, usage);
    return 2;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int push_point(opts *o, const double v[3], char tok[3][48])
{
    if (o->nat == o->capat) {
        size_t cap = o->capat ? o->capat * 2 : 64;
        double *a = realloc(o->at, sizeof(double) * 3 * cap);
        if (!a) return -1;
        o->at = a;
        char(*t)[3][48] = realloc(o->tok, sizeof *t * cap);
        if (!t) return -1;
        o->tok = t;
        o->capat = cap;
    }
    for (int k = 0; k < 3; k++) {
        o->at[3 * o->nat + (size_t)k] = v[k];
        memcpy(o->tok[o->nat][k], tok[k], 48);
    }
    o->nat++;
    return 0;
}

/* a finite decimal number (sample positions: integers for 26.3, any for libnoise) */
static int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    if (!*s || strlen(s) >= 48) return -1;
    for (const char *q = s; *q; q++)
        if (!strchr("0123456789+-.eE", *q)) return -1;
    double d = strtod(s, &end);
    if (end == s || *end || !isfinite(d)) return -1;
    *out = d;
    return 0;
}

/* three fields separated by sep (' ' also takes tabs and runs of blanks); with
 * tok, numbers (and their text), else integers in int range */
static int parse_fields(const char *s, char sep, long v[3], double d[3], char tok[3][48], int two)
{
    char buf[160];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    char *p = buf;
    for (int i = 0; i < 3; i++) {
        while (sep == ' ' && (*p == ' ' || *p == '\t')) p++;
        char *e = p;
        while (*e && *e != sep && !(sep == ' ' && *e == '\t')) e++;
        char c = *e;
        *e = 0;
        if (tok) {
            if (parse_num(p, &d[i]) < 0) return -1;
            strcpy(tok[i], p);
        } else if (parse_long(p, INT32_MIN, INT32_MAX, &v[i]) < 0) {
            return -1;
        }
        if (i == 1 && c == 0 && two && tok) {
            /* two numbers X,Z (an Iris 2-D point): y's text stays empty */
            d[2] = d[1], d[1] = 0.0;
            strcpy(tok[2], tok[1]);
            tok[1][0] = 0;
            return 0;
        }
        if (i < 2 && c == 0) return -1;
        p = e + (c ? 1 : 0);
    }
    while (sep == ' ' && (*p == ' ' || *p == '\t')) p++;
    return *p ? -1 : 0;
}
static int parse_xyz(const char *s, char sep, long v[3]) { return parse_fields(s, sep, v, NULL, NULL, 0); }

static int read_points(opts *o, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "chunkfill: %s: %s\n", path, strerror(errno));
        return 1;
    }
    char line[512];
    int ln = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        size_t l = strlen(line);
        if (l == sizeof line - 1 && line[l - 1] != '\n') {
            fprintf(stderr, "chunkfill: %s:%d: line too long\n", path, ln);
            rc = 1;
            break;
        }
        char *h = strchr(line, '#');
        if (h) *h = 0;
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) continue;
        double v[3];
        char tok[3][48];
        if (parse_fields(s, ' ', NULL, v, tok, 1) < 0) {
            fprintf(stderr, "chunkfill: %s:%d: expected three integers 'X Y Z' in int range (numbers for libnoise; 'X Z' for Iris)\n", path, ln);
            rc = 1;
            break;
        }
        if (push_point(o, v, tok) < 0) {
            fprintf(stderr, "chunkfill: out of memory\n");
            rc = 1;
            break;
        }
    }
    if (f != stdin) fclose(f);
    return rc;
}

/* common options; returns 0 when consumed (advancing *i), 1 when not ours, 2 on error */
static int common_opt(opts *o, int argc, char **argv, int *i, const char *usage)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    long n;
    if (strcmp(a, "--strict") == 0) return o->strict = 1, 0;
    if (strcmp(a, "--pack") == 0 || strcmp(a, "--settings") == 0 || strcmp(a, "--function") == 0
        || strcmp(a, "--max-file-bytes") == 0 || strcmp(a, "--max-nodes") == 0 || strcmp(a, "--max-depth") == 0
        || strcmp(a, "--max-memory") == 0 || strcmp(a, "--external") == 0 || strcmp(a, "--dialect") == 0
        || strcmp(a, "--define") == 0) {
        if (!v) return die_usage("missing value after option", usage), 2;
        (*i)++;
        if (strcmp(a, "--pack") == 0) {
            if (o->npacks == 64) return die_usage("too many --pack options (at most 64)", usage), 2;
            o->packs[o->npacks++] = v;
        } else if (strcmp(a, "--settings") == 0) {
            o->settings = v;
        } else if (strcmp(a, "--external") == 0) {
            const char *eq = strchr(v, '=');
            char *end = NULL;
            double d = eq && eq[1] != '@' ? strtod(eq + 1, &end) : 0;
            if (eq && eq != v && eq[1] == '@' && eq[2]) end = (char *)"";
            else if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(d))
                return die_usage("--external takes NAME=VALUE (a finite number) or NAME=@MAP.npy[,X0,Z0[,STEP]]", usage), 2;
            if (o->next == 64) return die_usage("too many --external options (at most 64)", usage), 2;
            o->ext[o->next++] = v;
        } else if (strcmp(a, "--define") == 0) {
            const char *eq = strrchr(v, '='); /* TYPE[FIELD=TEXT]=VALUE: the last '=' */
            char *end = NULL;
            double d = eq ? strtod(eq + 1, &end) : 0;
            if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(d))
                return die_usage("--define takes TYPE=VALUE (a density function type such as tectonic:config, a finite number)", usage), 2;
            if (o->ndefs == 64) return die_usage("too many --define options (at most 64)", usage), 2;
            o->defs[o->ndefs++] = v;
        } else if (strcmp(a, "--dialect") == 0) {
            if (strcmp(v, "1.21") == 0) o->dialect = CF_DIALECT_MC121;
            else if (strcmp(v, "26.3") == 0) o->dialect = CF_DIALECT_MC263;
            else o->irisd = v; /* Iris's branch (sample checks it: master or unification) */
        } else if (strcmp(a, "--function") == 0) {
            if (o->nfunctions == 64) return die_usage("too many --function options (at most 64)", usage), 2;
            o->functions[o->nfunctions++] = v;
        } else {
            if (parse_long(v, 1, LONG_MAX, &n) < 0) return die_usage("limit must be a positive integer", usage), 2;
            if (strcmp(a, "--max-file-bytes") == 0) o->lim.max_file_bytes = (size_t)n;
            else if (strcmp(a, "--max-memory") == 0) o->lim.max_fill_bytes = (size_t)n;
            else if (strcmp(a, "--max-nodes") == 0) o->lim.max_nodes = (size_t)n;
            else o->lim.max_depth = n > 100000 ? 100000 : (int)n;
        }
        return 0;
    }
    return 1;
}

/* A command's own options, one row each: a string (str), an integer in
 * [lo, hi] (num), or a callback (fn, for repeatable options). required: the
 * message when the option is missing. */
typedef struct optdef {
    const char *name;
    const char **str;
    long *num;
    long lo, hi;
    int (*fn)(opts *o, const char *value); /* 0, or a usage message's exit status */
    int *flag;                             /* an option without a value: set to 1 */
    const char *required;
    int seen;
} optdef;

/* parses argv[2..]: --help, the common options, then the command's rows. Returns
 * -1 to go on, or the exit status (0 after --help, 2 for bad usage). */
static int parse_cmd(opts *o, int argc, char **argv, optdef *defs, const char *usage)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return fputs(usage, stdout), 0;
        int r = common_opt(o, argc, argv, &i, usage);
        if (r == 2) return 2;
        if (r == 0) continue;
        optdef *d = NULL;
        for (optdef *q = defs; q && q->name; q++)
            if (strcmp(a, q->name) == 0) d = q;
        char msg[300];
        if (!d) {
            snprintf(msg, sizeof msg, strncmp(a, "--", 2) == 0 ? "unknown option '%s'" : "unexpected argument '%s'", a);
            return die_usage(msg, usage);
        }
        if (d->flag) {
            *d->flag = 1;
            d->seen = 1;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            snprintf(msg, sizeof msg, "missing value after '%s'", a);
            return die_usage(msg, usage);
        }
        i++;
        d->seen = 1;
        if (d->fn) {
            int rc = d->fn(o, v);
            if (rc) return rc;
        } else if (d->str) {
            *d->str = v;
        } else if (parse_long(v, d->lo, d->hi, d->num) < 0) {
            snprintf(msg, sizeof msg, "%s takes an integer in [%ld, %ld]", a, d->lo, d->hi);
            return die_usage(msg, usage);
        }
    }
    for (optdef *q = defs; q && q->name; q++)
        if (q->required && !q->seen) return die_usage(q->required, usage);
    if (o->irisd && usage != usage_sample)
        return die_usage("--dialect takes 1.21 or 26.3 (Minecraft data; master or unification: Iris styles in sample)", usage);
    return -1;
}

/* the single function a command fills: router:final_density unless --function */
static int one_function(opts *o, const char *usage)
{
    if (o->nfunctions > 1) return die_usage("at most one --function", usage);
    if (o->nfunctions == 0) o->functions[o->nfunctions++] = "router:final_density";
    return -1;
}

static cf_status xerr(cf_error *e, cf_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cf_status xerr(cf_error *e, cf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): clang-tidy 14's false report, va_start is above */
    va_end(ap);
    return e->status = st;
}

/* --external NAME=@MAP.npy[,X0,Z0[,STEP]]: a 2-D .npy (little-endian float64 or float32, C
 * order, shape (rows z, columns x)) as the external map NAME; errors name the file */
static cf_status external_map(cf_pack *pk, const char *name, const char *spec, cf_error *err)
{
    char path[4096];
    const char *comma = strchr(spec, ',');
    size_t plen = comma ? (size_t)(comma - spec) : strlen(spec);
    if (plen == 0 || plen >= sizeof path) return xerr(err, CF_ERR_ARG, "--external %s: expected =@MAP.npy[,X0,Z0[,STEP]]", name);
    memcpy(path, spec, plen);
    path[plen] = 0;
    double org[3] = {0, 0, 1};
    int norg = 0;
    for (const char *q = comma; q && *q == ','; norg++) {
        char *end = NULL;
        if (norg == 3) return xerr(err, CF_ERR_ARG, "--external %s: at most X0,Z0,STEP after the file", name);
        org[norg] = strtod(q + 1, &end);
        if (end == q + 1 || (*end && *end != ',') || !isfinite(org[norg]))
            return xerr(err, CF_ERR_ARG, "--external %s: expected numbers X0,Z0[,STEP] after the file, found \"%s\"", name, q + 1);
        q = end;
    }
    if (norg == 1) return xerr(err, CF_ERR_ARG, "--external %s: give both X0 and Z0", name);
    FILE *f = fopen(path, "rb");
    if (!f) return xerr(err, CF_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char pre[10];
    char hdr[4096];
    cf_status st = CF_OK;
    double *data = NULL;
    void *raw = NULL;
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0 || pre[6] != 1) {
        st = xerr(err, CF_ERR_ARG, "%s: not a version 1 .npy file", path);
        goto done;
    }
    size_t hl = (size_t)pre[8] | ((size_t)pre[9] << 8);
    if (hl >= sizeof hdr || fread(hdr, 1, hl, f) != hl) {
        st = xerr(err, CF_ERR_ARG, "%s: truncated .npy header", path);
        goto done;
    }
    hdr[hl] = 0;
    int f8 = strstr(hdr, "'descr': '<f8'") != NULL, f4 = strstr(hdr, "'descr': '<f4'") != NULL;
    const char *sh = strstr(hdr, "'shape': (");
    long h = 0, w = 0;
    if ((!f8 && !f4) || !strstr(hdr, "'fortran_order': False") || !sh || sscanf(sh + 10, "%ld, %ld)", &h, &w) != 2 || h < 1 || w < 1
        || h > (1L << 24) || w > (1L << 24) || h * w > (1L << 24)) {
        st = xerr(err, CF_ERR_ARG, "%s: expected a 2-D C-order array of <f8 or <f4 with at most 2^24 samples (rows z, columns x)", path);
        goto done;
    }
    size_t n = (size_t)h * (size_t)w, es = f8 ? 8 : 4;
    data = malloc(sizeof(double) * n);
    raw = malloc(es * n);
    if (!data || !raw) {
        st = xerr(err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (fread(raw, es, n, f) != n) {
        st = xerr(err, CF_ERR_ARG, "%s: truncated data (%zu samples expected)", path, n);
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        if (f8) memcpy(&data[k], (char *)raw + 8 * k, 8);
        else {
            float v;
            memcpy(&v, (char *)raw + 4 * k, 4);
            data[k] = v;
        }
    }
    st = cf_pack_set_external_map(pk, name, (int)w, (int)h, org[0], org[1], org[2], data, err);
    if (st != CF_OK) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        st = xerr(err, st, "%s: %s", path, msg);
    }
done:
    free(data);
    free(raw);
    fclose(f);
    return st;
}

/* opens the packs and sets the --external inputs on them */
static cf_status open_pack(const opts *o, cf_pack **pk, cf_error *err)
{
    cf_status st = cf_pack_open(pk, o->packs, o->npacks, &o->lim, err);
    if (st == CF_OK) cf_pack_set_dialect(*pk, o->dialect), cf_pack_set_strict(*pk, o->strict);
    for (int i = 0; st == CF_OK && i < o->next; i++) {
        const char *eq = strchr(o->ext[i], '=');
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->ext[i]), o->ext[i]);
        st = eq[1] == '@' ? external_map(*pk, name, eq + 2, err) : cf_pack_set_external(*pk, name, strtod(eq + 1, NULL), err);
    }
    for (int i = 0; st == CF_OK && i < o->ndefs; i++) {
        const char *eq = strrchr(o->defs[i], '=');
        char type[256];
        snprintf(type, sizeof type, "%.*s", (int)(eq - o->defs[i]), o->defs[i]);
        st = cf_pack_define(*pk, type, strtod(eq + 1, NULL), err);
    }
    return st;
}

/* A command's world: the seed, the packs, the program (the block program when blocks, else
 * nfn of the --function outputs) and the world at the seed. On an error err says why; the
 * caller frees what was made (cf_world_free, cf_program_free, cf_pack_free take NULL). */
static cf_status open_world(const opts *o, int blocks, int nfn, int64_t *seed, cf_pack **pk, cf_program **pg, cf_world **w,
                            cf_error *err)
{
    if (cf_seed_parse(o->seed, seed, err) != CF_OK || open_pack(o, pk, err) != CF_OK) return err->status;
    if ((blocks ? cf_program_compile_blocks(pg, *pk, o->settings, err) : cf_program_compile(pg, *pk, o->settings, o->functions, nfn, err))
        != CF_OK)
        return err->status;
    return cf_world_new(w, *pg, *seed, err);
}

static int report(const cf_error *e)
{
    fprintf(stderr, "%s\n", e->message[0] ? e->message : cf_status_str(e->status));
    return 1;
}

static int at_option(opts *o, const char *v)
{
    double xyz[3];
    char tok[3][48];
    if (parse_fields(v, ',', NULL, xyz, tok, 1) < 0)
        return die_usage("--at takes X,Y,Z (integers in int range; numbers for a libnoise program; X,Z for Iris)", usage_sample);
    if (push_point(o, xyz, tok) < 0) return fprintf(stderr, "chunkfill: out of memory\n"), 1;
    return 0;
}

static int cmd_sample(int argc, char **argv)
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
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    double *out = NULL;
    int rc = 1;
    if (open_world(&o, 0, iris ? 2 : 1, &seed, &pk, &pg, &w, &err) != CF_OK) goto done;
    out = malloc(sizeof(double) * (o.nat ? o.nat : 1));
    if (!out) {
        snprintf(err.message, sizeof err.message, "out of memory");
        goto done;
    }
    int prec = cf_program_precision(pg);
    for (size_t i = 0; prec == 32 && i < 3 * o.nat; i++)
        if (!(o.at[i] >= INT32_MIN && o.at[i] <= INT32_MAX && o.at[i] == (double)(int32_t)o.at[i])) {
            snprintf(err.message, sizeof err.message, "point %zu: %s is not an integer in int range (%s takes block positions)",
                     i / 3 + 1, o.tok[i / 3][i % 3], o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
    if (iris) {
        /* output 0: the style in 3-D, output 1: in 2-D (x and z of the position) */
        for (size_t i = 0; i < o.nat; i++)
            if (cf_sample_f64(w, o.tok[i][1][0] ? 0 : 1, 1, o.at + 3 * i, out + i, &err) != CF_OK) goto done;
    } else if (cf_sample_f64(w, 0, o.nat, o.at, out, &err) != CF_OK) {
        goto done;
    }
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
done:
    if (rc && err.status != CF_OK) report(&err);
    free(out);
    free(o.at);
    free(o.tok);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}



/* X0,Z0[:X1,Z1] */
static int parse_chunks(const char *s, long r[4])
{
    char a[256];
    if (strlen(s) >= sizeof a) return -1;
    strcpy(a, s);
    char *colon = strchr(a, ':');
    if (colon) *colon = 0;
    long v[3];
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s,0", a);
    if (parse_xyz(tmp, ',', v) < 0) return -1;
    r[0] = v[0], r[1] = v[1];
    if (colon) {
        snprintf(tmp, sizeof tmp, "%s,0", colon + 1);
        if (parse_xyz(tmp, ',', v) < 0) return -1;
        r[2] = v[0], r[3] = v[1];
    } else {
        r[2] = r[0], r[3] = r[1];
    }
    return 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .npy writer assumes a little-endian host"
#endif
/* --chunks X0,Z0[:X1,Z1]: parsed into r, checked; returns 0, or the exit status
 * (2 usage, 1 bad input) after printing one line */
static int chunk_range(const char *chunks, long r[4], const char *usage)
{
    if (parse_chunks(chunks, r) < 0) return die_usage("--chunks takes X0,Z0 or X0,Z0:X1,Z1 (integers)", usage);
    for (int k = 0; k < 4; k++)
        if (r[k] < -CF_MAX_CHUNK || r[k] > CF_MAX_CHUNK) {
            fprintf(stderr, "chunkfill: --chunks %s: chunk coordinate %ld out of range [%d, %d]\n", chunks, r[k],
                    -CF_MAX_CHUNK, CF_MAX_CHUNK);
            return 1;
        }
    if (r[2] < r[0] || r[3] < r[1]) {
        fprintf(stderr, "chunkfill: --chunks %s: the second corner must not be below the first\n", chunks);
        return 1;
    }
    return 0;
}

static int write_all(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n ? 0 : -1; }

/* A batch written on its own thread while the next batch fills (`fill`): one write in
 * flight at a time; writer_wait returns its result (0, or -1 on a write error). Without a
 * thread (pthread_create failed) the write happens in writer_start. */
typedef struct writer {
    pthread_t th;
    FILE *f;
    const void *p;
    size_t n;
    int rc, running, err; /* err: the writing thread's errno, given back to the caller's */
} writer;
static void *writer_main(void *arg)
{
    writer *wr = arg;
    wr->rc = write_all(wr->f, wr->p, wr->n);
    wr->err = errno;
    return NULL;
}
static int writer_wait(writer *wr)
{
    if (wr->running) pthread_join(wr->th, NULL), wr->running = 0;
    if (wr->rc) errno = wr->err;
    return wr->rc;
}
static int writer_start(writer *wr, FILE *f, const void *p, size_t n)
{
    if (writer_wait(wr) != 0) return -1;
    wr->f = f, wr->p = p, wr->n = n;
    if (pthread_create(&wr->th, NULL, writer_main, wr) == 0) wr->running = 1;
    else wr->rc = write_all(f, p, n), wr->err = errno;
    return 0;
}

/* Progress of long work on a terminal (stderr), one line redrawn at most 5 times a second:
 * "fill: 120/400 chunks (30%), 35.2 chunks/s, ETA 0:08". Silent when stderr is not a
 * terminal or with --quiet. */
typedef struct progress {
    const char *what, *unit;
    int64_t total;
    double t0, last;
    int on, shown;
} progress;
static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
static void progress_start(progress *p, const char *what, const char *unit, int64_t total, int quiet)
{
    *p = (progress){.what = what, .unit = unit, .total = total, .t0 = mono_s(), .on = !quiet && isatty(2)};
}
static void progress_show(progress *p, int64_t done)
{
    if (!p->on) return;
    double t = mono_s();
    if (done < p->total && t - p->last < 0.2) return;
    p->last = t;
    double el = t - p->t0, rate = el > 0 ? (double)done / el : 0;
    char eta[32] = "?";
    if (rate > 0) {
        long s = (long)((double)(p->total - done) / rate + 0.5);
        if (s >= 3600) snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
        else snprintf(eta, sizeof eta, "%ld:%02ld", s / 60, s % 60);
    }
    fprintf(stderr, "\r%s: %lld/%lld %s (%d%%), %.1f %s/s, ETA %s   ", p->what, (long long)done, (long long)p->total, p->unit,
            p->total ? (int)(100 * done / p->total) : 100, rate, p->unit, eta);
    p->shown = 1;
}
static void progress_end(progress *p)
{
    if (p->on && p->shown) fputc('\n', stderr);
    p->shown = 0;
}

/* the temporary file being written: removed if the process is interrupted, so
 * that no partial file is ever left (a SIGKILL leaves the temporary, never the
 * target) */
static char pending_tmp[4096];
static void on_signal(int sig)
{
    if (pending_tmp[0]) unlink(pending_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}
static void guard_tmp(const char *path)
{
    snprintf(pending_tmp, sizeof pending_tmp, "%s", path);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* past a file-size limit (ulimit -f) a write fails with EFBIG and is reported as a
     * write error, the temporary removed, instead of the default SIGXFSZ core dump */
    signal(SIGXFSZ, SIG_IGN);
}
static void unguard_tmp(void) { pending_tmp[0] = 0; }

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

/* FILE.npy -> FILE.palette.json (the block ids of a --blocks fill), written to a
 * temporary name *tmp that the caller renames to *path once the .npy is in place */
static int write_palette(const char *const *names, int k, const char *outpath, char *path, size_t pathlen, char *tmp,
                         size_t tmplen, cf_error *err)
{
    size_t n = strlen(outpath);
    int stem = n > 4 && strcmp(outpath + n - 4, ".npy") == 0 ? (int)(n - 4) : (int)n;
    if ((size_t)snprintf(path, pathlen, "%.*s.palette.json", stem, outpath) >= pathlen
        || (size_t)snprintf(tmp, tmplen, "%s.tmp-%ld", path, (long)getpid()) >= tmplen) {
        tmp[0] = 0;
        snprintf(err->message, sizeof err->message, "%s: path too long", outpath);
        err->status = CF_ERR_IO;
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err->message, sizeof err->message, "%s: cannot create: %s", path, strerror(errno));
        err->status = CF_ERR_IO;
        tmp[0] = 0;
        return -1;
    }
    int bad = fputc('[', f) == EOF;
    for (int i = 0; i < k; i++) bad |= fprintf(f, "%s\"%s\"", i ? ", " : "", names[i]) < 0;
    bad |= fputs("]\n", f) == EOF;
    bad |= fclose(f) != 0;
    if (bad) {
        snprintf(err->message, sizeof err->message, "%s: write error: %s", path, strerror(errno));
        err->status = CF_ERR_IO;
        return -1;
    }
    return 0;
}

/* a shared secret: the first line of path, 1 to CF_TOKEN_MAX bytes (trailing
 * spaces and line ends dropped); 0, or -1 with err set */
#define CF_TOKEN_MAX 256
static int read_token(const char *path, char *token, cf_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err->message, sizeof err->message, "%s: %s", path, strerror(errno));
        err->status = CF_ERR_IO;
        return -1;
    }
    char line[CF_TOKEN_MAX + 3];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    size_t l = ok ? strlen(line) : 0;
    int full = l > 0 && line[l - 1] == '\n';
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ' || line[l - 1] == '\t')) line[--l] = 0;
    if (l == 0 || l > CF_TOKEN_MAX || (!full && strlen(line) > CF_TOKEN_MAX)) {
        snprintf(err->message, sizeof err->message, "%s: the token (first line) must have 1 to %d bytes", path, CF_TOKEN_MAX);
        err->status = CF_ERR_ARG;
        return -1;
    }
    memcpy(token, line, l + 1);
    return 0;
}

static int cmd_fill(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *chunks = NULL, *outpath = NULL, *device = "cpu", *server = NULL, *token_file = NULL;
    long threads = 0, max_chunks = 1048576, batchopt = 0;
    int blocks = 0, quiet = 0;
    const char *stage = NULL;
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--chunks", .str = &chunks, .required = "--chunks is required"},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--blocks", .flag = &blocks},
        {.name = "--stage", .str = &stage},
        {.name = "--quiet", .flag = &quiet},
        {.name = "--device", .str = &device},
        {.name = "--server", .str = &server},
        {.name = "--token-file", .str = &token_file},
        {.name = "--threads", .num = &threads, .lo = 1, .hi = 1024},
        {.name = "--batch", .num = &batchopt, .lo = 1, .hi = 1L << 20},
        {.name = "--max-chunks", .num = &max_chunks, .lo = 1, .hi = 1L << 40},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_fill);
    if (rc0 >= 0) return rc0;
    if (blocks && o.nfunctions) return die_usage("--blocks fills the blocks of router:final_density: no --function", usage_fill);
    if (stage && (!blocks || (strcmp(stage, "noise") != 0 && strcmp(stage, "surface") != 0)))
        return die_usage("--stage noise|surface goes with --blocks", usage_fill);
    if (server && (o.npacks || o.nfunctions || strcmp(device, "cpu") != 0))
        return die_usage("--server fills with the server's packs and device: no --pack, --function or --device", usage_fill);
    if (token_file && !server) return die_usage("--token-file goes with --server", usage_fill);
    if ((rc0 = one_function(&o, usage_fill)) >= 0) return rc0;
    long r[4];
    int bad_range = chunk_range(chunks, r, usage_fill);
    if (bad_range) return bad_range;
    int64_t nx = (int64_t)r[2] - r[0] + 1, nz = (int64_t)r[3] - r[1] + 1, n = nx * nz;
    if (n > max_chunks) {
        fprintf(stderr, "chunkfill: --chunks %s: %lld chunks, more than --max-chunks %ld\n", chunks, (long long)n, max_chunks);
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
    cf_device *dev = NULL;
    cf_client *cl = NULL;
    cf_biomes *bio = NULL;
    int surface = 0;
    char tmp[4096] = "", ptmp[4096] = "", ppath[4096] = "", token[CF_TOKEN_MAX + 1];
    int rc = 1, min_y = 0, height = 0;
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
        if (prec != 32 && !blocks) { /* block fills are bytes whatever the dialect */
            snprintf(err.message, sizeof err.message, "server %s: configuration '%s' is not a float32 dialect", server, o.settings);
            err.status = CF_ERR_ARG;
            goto done;
        }
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
        if (surface && cf_biomes_open(&bio, pk, NULL, o.settings, NULL, seed, &err) != CF_OK) goto done;
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
    int f64 = pg && cf_program_precision(pg) == 64;
    size_t esz = f64 ? sizeof(double) : sizeof(float);
    /* a device fills two of its batches a call where they take at most 256 MiB: it reads the
     * first back while it computes the second (host/opencl/device.c) */
    if (use_dev && 2 * batch * per * (blocks ? 1 : esz) <= ((size_t)256 << 20)) batch *= 2;
    if ((int64_t)batch > n) batch = (size_t)n;
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
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-%ld", outpath, (long)getpid()) >= sizeof tmp) {
        snprintf(err.message, sizeof err.message, "%s: path too long", outpath);
        err.status = CF_ERR_IO;
        tmp[0] = 0;
        goto done;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err.message, sizeof err.message, "%s: cannot create: %s", outpath, strerror(errno));
        err.status = CF_ERR_IO;
        tmp[0] = 0;
        goto done;
    }
    guard_tmp(tmp);
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
    progress_start(&prog, "fill", "chunks", n, quiet);
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
            if (cl && cf_client_fill(cl, o.settings, seed, CF_KIND_DENSITY_F32, k, list, buf, &err) != CF_OK) goto done;
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
    if (fclose(f) != 0) {
        f = NULL;
        snprintf(err.message, sizeof err.message, "%s: write error: %s", outpath, strerror(errno));
        err.status = CF_ERR_IO;
        goto done;
    }
    f = NULL;
    const char *names[CF_PALETTE_MAX];
    int npal = !blocks ? 0 : cl ? cf_client_palette(cl, o.settings, names) : cf_block_palette(pg, names);
    if (blocks && write_palette(names, npal, outpath, ppath, sizeof ppath, ptmp, sizeof ptmp, &err) < 0) goto done;
    if (rename(tmp, outpath) != 0) {
        snprintf(err.message, sizeof err.message, "%s: cannot rename the finished file into place: %s", outpath, strerror(errno));
        err.status = CF_ERR_IO;
        goto done;
    }
    tmp[0] = 0;
    if (blocks && rename(ptmp, ppath) != 0) {
        snprintf(err.message, sizeof err.message, "%.900s: cannot rename the finished file into place: %s", ppath, strerror(errno));
        err.status = CF_ERR_IO;
        goto done;
    }
    ptmp[0] = 0;
    unguard_tmp();
    rc = 0;
done:
    writer_wait(&wr); /* a write in flight ends before its file closes */
    if (f) fclose(f);
    if (tmp[0]) remove(tmp);
    if (prog_on) progress_end(prog_on);
    if (ptmp[0]) remove(ptmp);
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

static const char *const usage_check =
    "usage: chunkfill check [--pack PATH]... [--settings ID] --seed SEED --chunks X0,Z0[:X1,Z1]\n"
    "                       [--device opencl[:N]] [--batch N] [--function ID | --blocks [--stage noise|surface]]\n"
    "                       [--quiet]\n"
    "Fills the chunks on the device and on the CPU reference and compares every block bit for\n"
    "bit. Prints the number of differing blocks and the first few (position, both values);\n"
    "exits 0 only when every block is identical. --blocks compares block fills (the palette\n"
    "indices of 'chunkfill fill --blocks') instead of densities; --stage as for fill (default:\n"
    "surface where the settings have a surface stage). On a terminal a progress line\n"
    "shows chunks done of all, chunks/s and the time left; --quiet turns it off.\n";

static int cmd_check(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *chunks = NULL, *device = "opencl";
    long batchopt = 0;
    int blocks = 0, quiet = 0;
    const char *stage = NULL;
    optdef defs[] = {
        {.name = "--blocks", .flag = &blocks},
        {.name = "--stage", .str = &stage},
        {.name = "--quiet", .flag = &quiet},
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--chunks", .str = &chunks, .required = "--chunks is required"},
        {.name = "--device", .str = &device},
        {.name = "--batch", .num = &batchopt, .lo = 1, .hi = 1L << 20},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_check);
    if (rc0 >= 0) return rc0;
    if (blocks && o.nfunctions) return die_usage("--blocks checks the blocks of router:final_density: no --function", usage_check);
    if (stage && (!blocks || (strcmp(stage, "noise") != 0 && strcmp(stage, "surface") != 0)))
        return die_usage("--stage noise|surface goes with --blocks", usage_check);
    if ((rc0 = one_function(&o, usage_check)) >= 0) return rc0;
    long r[4];
    int bad_range = chunk_range(chunks, r, usage_check);
    if (bad_range) return bad_range;
    int64_t nx = (int64_t)r[2] - r[0] + 1, n = nx * ((int64_t)r[3] - r[1] + 1);
    if (n > 65536) {
        fprintf(stderr, "chunkfill: --chunks %s: %lld chunks, at most 65536 for a check\n", chunks, (long long)n);
        return 1;
    }
    cf_error err = {0};
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_device *dev = NULL;
    cf_biomes *bio = NULL;
    int32_t *list = NULL;
    unsigned char *a = NULL, *b = NULL;
    int rc = 1, surface = 0;
    if (open_world(&o, blocks, 1, &seed, &pk, &pg, &w, &err) != CF_OK) goto done;
    surface = blocks && (stage ? strcmp(stage, "surface") == 0 : cf_program_has_surface(pg));
    if (surface && !cf_program_has_surface(pg)) {
        snprintf(err.message, sizeof err.message, "%s: --stage surface: these settings have no surface stage", o.settings);
        err.status = CF_ERR_ARG;
        goto done;
    }
    if (surface && cf_biomes_open(&bio, pk, NULL, o.settings, NULL, seed, &err) != CF_OK) goto done;
    if (surface && !cf_program_surface_on_device(pg)) {
        snprintf(err.message, sizeof err.message, "%s: the surface stage of these settings has no OpenCL form (26.3 material rules "
                 "run on the CPU; --stage noise checks the noise stage)", o.settings);
        err.status = CF_ERR_ARG;
        goto done;
    }
    if (cf_device_open(&dev, device, pg, 0, (size_t)batchopt, &err) != CF_OK) goto done;
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    size_t per = (size_t)height * 256;
    size_t esz = cf_program_precision(pg) == 64 ? sizeof(double) : sizeof(float);
    list = malloc(sizeof(int32_t) * 2 * (size_t)n);
    a = malloc(esz * per * (size_t)n);
    b = malloc(esz * per * (size_t)n);
    if (!list || !a || !b) {
        snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
        err.status = CF_ERR_NOMEM;
        goto done;
    }
    for (int64_t i = 0; i < n; i++) list[2 * i] = (int32_t)(r[0] + i % nx), list[2 * i + 1] = (int32_t)(r[1] + i / nx);
    /* the device and the CPU fill a slice at a time (a device batch, at least 16 chunks), for
     * the progress line */
    {
        size_t step = cf_device_batch(dev) > 16 ? cf_device_batch(dev) : 16;
        progress prog;
        progress_start(&prog, "check", "chunks", n, quiet);
        for (size_t at = 0; at < (size_t)n; at += step) {
            size_t k = (size_t)n - at < step ? (size_t)n - at : step;
            cf_status st = surface ? cf_device_fill_blocks_surface(dev, w, bio, k, list + 2 * at, (uint8_t *)a + per * at, &err)
                           : blocks ? cf_device_fill_blocks(dev, w, k, list + 2 * at, (uint8_t *)a + per * at, &err)
                                    : cf_device_fill(dev, w, k, list + 2 * at, a + esz * per * at, &err);
            if (st == CF_OK)
                st = surface ? cf_fill_blocks_surface(w, bio, k, list + 2 * at, (uint8_t *)b + per * at, 0, &err)
                     : blocks ? cf_fill_blocks(w, k, list + 2 * at, (uint8_t *)b + per * at, 0, &err)
                              : cf_fill_chunks(w, 0, k, list + 2 * at, b + esz * per * at, 0, &err);
            if (st != CF_OK) {
                progress_end(&prog);
                goto done;
            }
            progress_show(&prog, (int64_t)(at + k));
        }
        progress_end(&prog);
    }
    size_t diff = 0;
    if (blocks) {
        /* the byte buffers fit in the float ones */
        uint8_t *ba = (uint8_t *)a, *bb = (uint8_t *)b;
        const char *names[CF_PALETTE_MAX];
        int np = cf_block_palette(pg, names);
        for (size_t i = 0; i < per * (size_t)n; i++) {
            if (ba[i] == bb[i]) continue;
            if (diff++ < 10) {
                int64_t c = (int64_t)(i / per);
                size_t k = i % per;
                long bx = (r[0] + (long)(c % nx)) * 16 + (long)(k % 16), bz = (r[1] + (long)(c / nx)) * 16 + (long)(k / 16 % 16);
                printf("differs at x %ld y %d z %ld: device %s, cpu %s\n", bx, min_y + (int)(k / 256), bz,
                       ba[i] < np ? names[ba[i]] : "(not in the palette)", bb[i] < np ? names[bb[i]] : "(not in the palette)");
            }
        }
    }
    for (size_t i = 0; !blocks && i < per * (size_t)n; i++) {
        if (memcmp(a + i * esz, b + i * esz, esz) == 0) continue;
        if (diff++ < 10) {
            size_t c = i / per, k = i % per;
            int bx = list[2 * c] * 16 + (int)(k % 16), by = min_y + (int)(k / 256), bz = list[2 * c + 1] * 16 + (int)(k / 16 % 16);
            if (esz == 4) {
                uint32_t ua, ub; /* the bits, read without breaking aliasing rules */
                float fa, fb;
                memcpy(&ua, a + i * 4, 4), memcpy(&fa, a + i * 4, 4);
                memcpy(&ub, b + i * 4, 4), memcpy(&fb, b + i * 4, 4);
                printf("differs at x %d y %d z %d: device %.9g (0x%08x), cpu %.9g (0x%08x)\n", bx, by, bz, fa, ua, fb, ub);
            } else {
                uint64_t ua, ub;
                double da, db;
                memcpy(&ua, a + i * 8, 8), memcpy(&da, a + i * 8, 8);
                memcpy(&ub, b + i * 8, 8), memcpy(&db, b + i * 8, 8);
                printf("differs at x %d y %d z %d: device %.17g (0x%016llx), cpu %.17g (0x%016llx)\n", bx, by, bz, da,
                       (unsigned long long)ua, db, (unsigned long long)ub);
            }
        }
    }
    double ms[4];
    cf_device_times(dev, ms);
    printf("%s: %lld chunks, %zu blocks, %zu differ (compile %.0f ms%s, kernels %.0f ms, read-back %.0f ms)\n",
           cf_device_name(dev), (long long)n, per * (size_t)n, diff, ms[0], cf_device_cache_hit(dev) ? " from the cache" : "",
           ms[2], ms[3]);
    rc = diff == 0 ? 0 : 1;
done:
    if (err.status != CF_OK) report(&err);
    free(list), free(a), free(b);
    cf_device_free(dev);
    cf_biomes_free(bio);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static int cmd_devices(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return fputs("usage: chunkfill devices\nLists the OpenCL devices: opencl:N, name, platform, fp64 support.\n", stdout), 0;
        return die_usage("devices takes no options", "usage: chunkfill devices\n");
    }
    cf_error err = {0};
    char *s = cf_devices_list(&err);
    if (!s) return report(&err);
    fputs(s, stdout);
    free(s);
    return 0;
}

static const char *const usage_render =
    "usage: chunkfill render [--pack PATH]... [--settings ID] --seed SEED --area X0,Z0:X1,Z1\n"
    "                        [--scale N] [--below Y] [--device cpu|opencl[:N]] [--threads N]\n"
    "                        [--layer NAME] --out FILE.png [--heights FILE.npy] [--quiet]\n"
    "Draws the exact surface of the noise fill of the area (block coordinates, inclusive): per\n"
    "column the top block whose final density is > 0 (the same block a full fill gives), as a\n"
    "shaded-relief map: land coloured by height, hillshade from the north-west, below the\n"
    "settings' sea level their default fluid (water coloured by depth, lava orange; the End has\n"
    "none: columns without blocks near black). One pixel per block, or --scale N blocks per pixel:\n"
    "pixel (i, k) shows the column (X0 + i*N, Z0 + k*N), the first block of its N x N square,\n"
    "and only those columns are computed (below --scale 10, the chunks that hold them).\n"
    "--below Y searches from Y down (in the nether the top solid block is the roof: --below\n"
    "100 shows the floor of its caverns). --heights writes\n"
    "the int32 height field of the picture (min_y - 1 where no block is solid), shape (nz, nx),\n"
    "index [z][x]. --layer picks the map layer (default relief; `chunkfill tiles --help` lists\n"
    "them; --device draws relief only). Files appear only when complete. With --device, on a\n"
    "terminal a progress line counts the chunk rows; --quiet turns it off.\n";

static const char *const usage_columns =
    "usage: chunkfill columns [--pack PATH]... [--settings ID] --seed SEED --area X0,Z0:X1,Z1\n"
    "                         [--stride N] [--below Y] [--threads N] --out FILE.npy\n"
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
    "Every column equals what `serve --http`'s /at answers there. Files appear only when complete.\n";

static int cmd_columns(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *area = NULL, *outpath = NULL;
    long stride = 1, threads = 0, below = INT32_MAX;
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--area", .str = &area, .required = "--area is required"},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--stride", .num = &stride, .lo = 1, .hi = 65536},
        {.name = "--threads", .num = &threads, .lo = 1, .hi = 1024},
        {.name = "--below", .num = &below, .lo = INT32_MIN, .hi = INT32_MAX},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_columns);
    if (rc0 >= 0) return rc0;
    if (o.nfunctions) return die_usage("columns takes no --function", usage_columns);
    long r[4];
    if (parse_chunks(area, r) < 0 || !strchr(area, ':')) return die_usage("--area takes X0,Z0:X1,Z1 (block coordinates)", usage_columns);
    int64_t lim = (int64_t)CF_MAX_CHUNK * 16;
    for (int k = 0; k < 4; k++)
        if (r[k] < -lim || r[k] > lim + 15) {
            fprintf(stderr, "chunkfill: --area %s: coordinate %ld out of range\n", area, r[k]);
            return 1;
        }
    if (r[2] < r[0] || r[3] < r[1]) {
        fprintf(stderr, "chunkfill: --area %s: empty or inverted area (the second corner must not be below the first)\n", area);
        return 1;
    }
    int64_t nx = ((int64_t)r[2] - r[0]) / stride + 1, nz = ((int64_t)r[3] - r[1]) / stride + 1;
    if (nx * nz > ((int64_t)1 << 26)) {
        fprintf(stderr, "chunkfill: --area %s --stride %ld: %lld x %lld columns (at most 2^26): use a larger --stride\n", area,
                stride, (long long)nx, (long long)nz);
        return 1;
    }
    size_t n = (size_t)(nx * nz);
    cf_error err = {0};
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_biomes *bs = NULL;
    int32_t *h = malloc(sizeof(int32_t) * n), *ft = malloc(sizeof(int32_t) * n);
    uint8_t *bl = malloc(n), *fl = malloc(n), *bi = malloc(n), *rec = malloc(12 * n);
    int rc = 1;
    char tmp[4096] = "", ptmp[4096] = "", ppath[4096];
    FILE *f = NULL;
    if (!h || !ft || !bl || !fl || !bi || !rec) {
        snprintf(err.message, sizeof err.message, "out of memory for %zu columns", n);
        goto done;
    }
    if (open_world(&o, 1, 0, &seed, &pk, &pg, &w, &err) != CF_OK) goto done;
    if (cf_biomes_open(&bs, pk, NULL, o.settings, NULL, seed, &err) != CF_OK) goto done;
    cf_map_columns cols = {h, bl, bi, fl, ft};
    if (cf_map_columns_get(w, bs, (int32_t)r[0], (int32_t)r[1], (int32_t)stride, (int32_t)nx, (int32_t)nz, (int32_t)below, &cols,
                           (int)threads, &err) != CF_OK)
        goto done;
    for (size_t i = 0; i < n; i++) {
        uint8_t *q = rec + 12 * i;
        for (int b = 0; b < 4; b++) q[b] = (uint8_t)((uint32_t)h[i] >> (8 * b)), q[4 + b] = (uint8_t)((uint32_t)ft[i] >> (8 * b));
        q[8] = bl[i], q[9] = fl[i], q[10] = bi[i], q[11] = 0;
    }
    size_t ol = strlen(outpath);
    int stem = ol > 4 && strcmp(outpath + ol - 4, ".npy") == 0 ? (int)(ol - 4) : (int)ol;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-%ld", outpath, (long)getpid()) >= sizeof tmp
        || (size_t)snprintf(ppath, sizeof ppath, "%.*s.palette.json", stem, outpath) >= sizeof ppath
        || (size_t)snprintf(ptmp, sizeof ptmp, "%s.tmp-%ld", ppath, (long)getpid()) >= sizeof ptmp) {
        snprintf(err.message, sizeof err.message, "%.200s: path too long", outpath);
        tmp[0] = ptmp[0] = 0;
        goto done;
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
    int bad = !(f = fopen(tmp, "wb")) || write_all(f, magic, 10) || write_all(f, hdr, hlen) || write_all(f, rec, 12 * n);
    if (f && fclose(f) != 0) bad = 1;
    f = NULL;
    if (!bad) {
        const char *bn[CF_PALETTE_MAX], *bion[CF_BIOME_PALETTE_MAX];
        int nb = cf_block_palette(pg, bn), nbio = cf_biomes_palette(bs, bion);
        FILE *p = fopen(ptmp, "wb");
        bad = !p;
        if (p) {
            bad |= fputs("{\"blocks\": [", p) == EOF;
            for (int i = 0; i < nb; i++) bad |= fprintf(p, "%s\"%s\"", i ? ", " : "", bn[i]) < 0;
            bad |= fputs("], \"biomes\": [", p) == EOF;
            for (int i = 0; i < nbio; i++) bad |= fprintf(p, "%s\"%s\"", i ? ", " : "", bion[i]) < 0;
            bad |= fprintf(p, "], \"x0\": %ld, \"z0\": %ld, \"stride\": %ld}\n", r[0], r[1], stride) < 0;
            bad |= fclose(p) != 0;
        }
    }
    if (bad || rename(tmp, outpath) != 0 || rename(ptmp, ppath) != 0) {
        snprintf(err.message, sizeof err.message, "%.200s: write error: %s", outpath, strerror(errno));
        goto done;
    }
    tmp[0] = ptmp[0] = 0;
    rc = 0;
done:
    if (tmp[0]) remove(tmp);
    if (ptmp[0]) remove(ptmp);
    if (rc) report(&err);
    free(h), free(ft), free(bl), free(fl), free(bi), free(rec);
    cf_biomes_free(bs);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static const char *const usage_slice =
    "usage: chunkfill slice [--pack PATH]... [--settings ID] --seed SEED (--x X | --z Z)\n"
    "                       [--span A:B] [--mode material|density] [--device cpu|opencl[:N]] --out FILE.png\n"
    "Draws the vertical cross-section of the final density at x = X (along z from A to B) or\n"
    "z = Z (along x from A to B; default span -128:127), one pixel per block, the highest y on\n"
    "top: material mode (default) shows solid, air and below sea level the settings' default\n"
    "fluid (water blue, lava orange, none: air); density mode shows the signed density (blue\n"
    "negative, white 0, red positive).\n";

static int64_t floordiv16(int64_t v) { return v >= 0 ? v / 16 : -((-v + 15) / 16); }

static int write_npy_i32(const char *path, const int32_t *v, int nz, int nx, char *msg, size_t msglen)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid()) >= sizeof tmp)
        return snprintf(msg, msglen, "%s: path too long", path), -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) return snprintf(msg, msglen, "%s: cannot create: %s", path, strerror(errno)), -1;
    char hdr[256];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '<i4', 'fortran_order': False, 'shape': (%d, %d), }", nz, nx);
    int pad = (64 - (10 + hl + 1) % 64) % 64;
    memset(hdr + hl, ' ', (size_t)pad);
    hdr[hl + pad] = '\n';
    unsigned short hlen = (unsigned short)(hl + pad + 1);
    unsigned char magic[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 255), (unsigned char)(hlen >> 8)};
    int bad = write_all(f, magic, 10) || write_all(f, hdr, hlen) || write_all(f, v, sizeof(int32_t) * (size_t)nx * (size_t)nz);
    if (fflush(f) != 0) bad = 1;
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        snprintf(msg, msglen, "%s: write error: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

static int cmd_render(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *area = NULL, *outpath = NULL, *heights_path = NULL, *device = "cpu", *layer_name = "relief";
    long scale = 1, threads = 0, below = INT32_MAX;
    int quiet = 0;
    optdef defs[] = {
        {.name = "--quiet", .flag = &quiet},
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--area", .str = &area, .required = "--area is required"},
        {.name = "--layer", .str = &layer_name},
        {.name = "--out", .str = &outpath, .required = "--out is required"},
        {.name = "--heights", .str = &heights_path},
        {.name = "--device", .str = &device},
        {.name = "--scale", .num = &scale, .lo = 1, .hi = 4096},
        {.name = "--threads", .num = &threads, .lo = 1, .hi = 1024},
        {.name = "--below", .num = &below, .lo = INT32_MIN, .hi = INT32_MAX},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_render);
    if (rc0 >= 0) return rc0;
    if ((rc0 = one_function(&o, usage_render)) >= 0) return rc0;
    int layer = cf_map_layer_find(layer_name), needs = 0;
    if (layer < 0) return die_usage("--layer: no such layer (see chunkfill tiles --help)", usage_render);
    cf_map_layer(layer, &needs, NULL);
    if (strcmp(device, "cpu") != 0 && layer != 0) return die_usage("--device draws the relief layer only", usage_render);
    long r[4];
    if (parse_chunks(area, r) < 0 || !strchr(area, ':')) return die_usage("--area takes X0,Z0:X1,Z1 (block coordinates)", usage_render);
    int64_t lim = (int64_t)CF_MAX_CHUNK * 16;
    for (int k = 0; k < 4; k++)
        if (r[k] < -lim || r[k] > lim + 15) {
            fprintf(stderr, "chunkfill: --area %s: coordinate %ld out of range\n", area, r[k]);
            return 1;
        }
    if (r[2] < r[0] || r[3] < r[1]) {
        fprintf(stderr, "chunkfill: --area %s: empty or inverted area (the second corner must not be below the first)\n", area);
        return 1;
    }
    int64_t nx = (int64_t)r[2] - r[0] + 1, nz = (int64_t)r[3] - r[1] + 1;
    int64_t px = (nx + scale - 1) / scale, pz = (nz + scale - 1) / scale;
    if (px * pz > ((int64_t)1 << 28) || px > 1000000 || pz > 1000000) {
        fprintf(stderr, "chunkfill: --area %s: %lld x %lld pixels (at most 2^28 pixels, 1,000,000 on a side): use --scale\n",
                area, (long long)px, (long long)pz);
        return 1;
    }

    cf_error err = {0};
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_device *dev = NULL;
    cf_biomes *bs = NULL;
    int32_t *pic = NULL, *strip = NULL, *list = NULL;
    uint8_t *rgb = NULL;
    void *vol = NULL;
    int rc = 1;
    char msg[1024] = "";
    double t0;
    {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    }
    if (open_world(&o, (needs & CF_MAP_BLOCKS) != 0, 1, &seed, &pk, &pg, &w, &err) != CF_OK) goto done;
    /* a biome source where the layer needs one (the blocks layer: where the settings have a surface stage) */
    if ((needs & CF_MAP_BIOMES) && (!(needs & CF_MAP_SURFACE) || cf_program_has_surface(pg)) &&
        cf_biomes_open(&bs, pk, NULL, o.settings, NULL, seed, &err) != CF_OK)
        goto done;
    int use_dev = strcmp(device, "cpu") != 0;
    if (use_dev && cf_device_open(&dev, device, pg, 0, 0, &err) != CF_OK) goto done;
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    /* one chunk row (16 block rows) at a time; keep only the picture's rows */
    int64_t cz0 = floordiv16(r[1]), cz1 = floordiv16(r[3]), cx0 = floordiv16(r[0]), cx1 = floordiv16(r[2]);
    int64_t ncx = cx1 - cx0 + 1;
    pic = malloc(sizeof(int32_t) * (size_t)(px * pz));
    if (use_dev) {
        strip = malloc(sizeof(int32_t) * (size_t)nx * 16);
        list = malloc(sizeof(int32_t) * 2 * (size_t)ncx);
        vol = malloc((cf_program_precision(pg) == 64 ? sizeof(double) : sizeof(float)) * (size_t)height * 256 * (size_t)ncx);
    }
    if (!pic || (use_dev && (!strip || !list || !vol))) {
        snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
        err.status = CF_ERR_NOMEM;
        goto done;
    }
    int tty = !quiet && isatty(2);
    /* the CPU computes the sampled columns only (cf_map_draw) */
    if (!use_dev) {
        if (!(rgb = malloc((size_t)(px * pz) * 3))) {
            snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
            goto done;
        }
        cf_map_stats ms;
        if (cf_map_draw_stats(w, bs, layer, (int32_t)r[0], (int32_t)r[1], (int32_t)scale, (int32_t)px, (int32_t)pz,
                              (int32_t)below, rgb, pic, &ms, (int)threads, &err) != CF_OK)
            goto done;
        if (ms.unknown_blocks)
            fprintf(stderr, "render: %llu pixels show blocks without a colour (magenta), the first %s\n",
                    (unsigned long long)ms.unknown_blocks, ms.first_unknown);
    }
    for (int64_t cz = cz0; use_dev && cz <= cz1; cz++) {
        int64_t zlo = cz * 16 < r[1] ? r[1] : cz * 16, zhi = cz * 16 + 15 > r[3] ? r[3] : cz * 16 + 15;
        int32_t rows = (int32_t)(zhi - zlo + 1);
        {
            for (int64_t i = 0; i < ncx; i++) list[2 * i] = (int32_t)(cx0 + i), list[2 * i + 1] = (int32_t)cz;
            if (cf_device_fill(dev, w, (size_t)ncx, list, vol, &err) != CF_OK) goto done;
            for (int32_t zz = 0; zz < rows; zz++)
                for (int64_t xx = 0; xx < nx; xx++) {
                    int64_t bx = r[0] + xx, bz = zlo + zz, c = floordiv16(bx) - cx0;
                    int lx = (int)(bx - floordiv16(bx) * 16), lz = (int)(bz - cz * 16);
                    size_t base = (size_t)c * (size_t)height * 256;
                    int f64 = cf_program_precision(pg) == 64;
                    int32_t top = min_y - 1;
                    for (int y = height - 1; y >= 0; y--) {
                        size_t k = base + ((size_t)y * 16 + (size_t)lz) * 16 + (size_t)lx;
                        int solid = f64 ? ((const double *)vol)[k] > 0.0 : ((const float *)vol)[k] > 0.0f;
                        if ((int64_t)min_y + y <= below && solid) {
                            top = min_y + y;
                            break;
                        }
                    }
                    strip[(size_t)zz * (size_t)nx + (size_t)xx] = top;
                }
        }
        for (int32_t zz = 0; zz < rows; zz++) {
            int64_t z = zlo + zz - r[1];
            if (z % scale) continue;
            for (int64_t x = 0; x < nx; x += scale) pic[(size_t)(z / scale) * (size_t)px + (size_t)(x / scale)] = strip[(size_t)zz * (size_t)nx + (size_t)x];
        }
        if (tty) fprintf(stderr, "\rrender: %lld/%lld chunk rows", (long long)(cz - cz0 + 1), (long long)(cz1 - cz0 + 1)); /* NOLINT(bugprone-misplaced-widening-cast): int64_t for %lld */
    }
    if (tty && use_dev) fputc('\n', stderr);
    if (heights_path && write_npy_i32(heights_path, pic, (int)pz, (int)px, msg, sizeof msg) < 0) goto done;
    if (use_dev ? cf_png_relief(outpath, pic, (int)px, (int)pz, pg, &err) != CF_OK
                : cf_png_write(outpath, rgb, (int)px, (int)pz, &err) != CF_OK)
        goto done;
    {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - t0;
        fprintf(stderr, "render: %lld x %lld blocks, %lld x %lld pixels, %.2f s, %.0f blocks/s (%s)\n", (long long)nx,
                (long long)nz, (long long)px, (long long)pz, t, (double)nx * (double)nz / t, use_dev ? cf_device_name(dev) : "cpu");
    }
    rc = 0;
done:
    if (rc) {
        if (msg[0]) fprintf(stderr, "chunkfill: %s\n", msg);
        else report(&err);
    }
    free(pic), free(strip), free(list), free(vol), free(rgb);
    cf_biomes_free(bs);
    cf_device_free(dev);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static const char *const usage_tiles =
    "usage: chunkfill tiles [--pack PATH]... [--settings ID] --seed SEED [--layer NAME]...\n"
    "                       --area X0,Z0:X1,Z1 [--zoom A..B] [--below Y] [--threads N] --out DIR\n"
    "Writes a pyramid of 256 x 256-pixel map tiles DIR/L/Z/X/Y.png and a viewer DIR/index.html\n"
    "that opens without a server. Level Z shows 2^Z blocks per pixel: tile (X, Y) covers blocks\n"
    "x in [X*256*2^Z, (X+1)*256*2^Z), z likewise from Y (negative indices for negative\n"
    "coordinates), its pixel (i, k) the column (X*256*2^Z + i*2^Z, Y*256*2^Z + k*2^Z), so\n"
    "L/Z/X/Y.png has exactly the pixels of `render --layer L --scale 2^Z --area` of its blocks\n"
    "(Z = 0: X*256,Y*256:X*256+255,Y*256+255). Written: every tile of levels A..B (default\n"
    "0..0, at most 0..20) that meets the area. Each file appears only when complete.\n"
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
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid()) >= sizeof tmp)
        return snprintf(msg, msglen, "%.900s: path too long", path), -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) return snprintf(msg, msglen, "%.900s: cannot create: %s", path, strerror(errno)), -1;
    int bad = write_all(f, a, alen) || write_all(f, b, blen) || write_all(f, c, strlen(c));
    if (fflush(f) != 0) bad = 1;
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        snprintf(msg, msglen, "%.900s: write error: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
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

static int cmd_tiles(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *area = NULL, *outdir = NULL, *zoom = "0..0";
    const char *layer_names[8];
    int nlayers = 0;
    long threads = 0, below = INT32_MAX;
    for (int i = 2; i < argc; i++) /* --layer is repeatable: taken out before the common parser */
        if (strcmp(argv[i], "--layer") == 0 && i + 1 < argc) {
            if (nlayers == 8) return die_usage("at most 8 --layer", usage_tiles);
            layer_names[nlayers++] = argv[i + 1];
            for (int k = i; k + 2 < argc; k++) argv[k] = argv[k + 2];
            argc -= 2, i--;
        }
    if (nlayers == 0) layer_names[nlayers++] = "relief";
    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--area", .str = &area, .required = "--area is required"},
        {.name = "--out", .str = &outdir, .required = "--out is required"},
        {.name = "--zoom", .str = &zoom},
        {.name = "--threads", .num = &threads, .lo = 1, .hi = 1024},
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
    if ((rc0 = one_function(&o, usage_tiles)) >= 0) return rc0;
    int layers[8], need_blocks = 0, need_biomes = 0;
    for (int i = 0; i < nlayers; i++) {
        int needs = 0;
        if ((layers[i] = cf_map_layer_find(layer_names[i])) < 0) {
            fprintf(stderr, "chunkfill: --layer %s: no such layer (chunkfill tiles --help lists them)\n", layer_names[i]);
            return 1;
        }
        cf_map_layer(layers[i], &needs, NULL);
        if (needs & CF_MAP_BLOCKS) need_blocks = 1;
        if ((needs & CF_MAP_BIOMES) && !(needs & CF_MAP_SURFACE)) need_biomes = 1;
        if (needs & CF_MAP_SURFACE) need_biomes |= 2; /* where the settings have a surface stage */
    }
    long r[4];
    if (parse_chunks(area, r) < 0 || !strchr(area, ':')) return die_usage("--area takes X0,Z0:X1,Z1 (block coordinates)", usage_tiles);
    if (r[2] < r[0] || r[3] < r[1]) {
        fprintf(stderr, "chunkfill: --area %s: empty or inverted area (the second corner must not be below the first)\n", area);
        return 1;
    }
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
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_biomes *bs = NULL;
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
    if (open_world(&o, need_blocks, 1, &seed, &pk, &pg, &w, &err) != CF_OK) goto done;
    if (((need_biomes & 1) || ((need_biomes & 2) && cf_program_has_surface(pg))) && cf_biomes_open(&bs, pk, NULL, o.settings, NULL, seed, &err) != CF_OK)
        goto done;
    int64_t done_tiles = 0;
    int tty = isatty(2), unknown = 0;
    unsigned long long unknown_px = 0;
    char first_unknown[128] = "";
    for (int li = 0; li < nlayers; li++)
        for (int z = za; z <= zb; z++) {
            int64_t span = (int64_t)256 << z;
            for (int64_t ty = floordiv64(r[1], span); ty <= floordiv64(r[3], span); ty++)
                for (int64_t tx = floordiv64(r[0], span); tx <= floordiv64(r[2], span); tx++) {
                    cf_map_stats ms;
                    if (cf_map_draw_stats(w, bs, layers[li], (int32_t)(tx * span), (int32_t)(ty * span), (int32_t)1 << z,
                                          256, 256, (int32_t)below, rgb, NULL, &ms, (int)threads, &err) != CF_OK)
                        goto done;
                    if (ms.unknown_blocks && !unknown++) snprintf(first_unknown, sizeof first_unknown, "%s", ms.first_unknown);
                    unknown_px += ms.unknown_blocks;
                    snprintf(path, sizeof path, "%s/%s/%d/%lld/%lld.png", outdir, layer_names[li], z, (long long)tx,
                             (long long)ty);
                    if (make_parents(path) < 0) {
                        snprintf(msg, sizeof msg, "%.900s: cannot create its folder: %s", path, strerror(errno));
                        goto done;
                    }
                    if (cf_png_write(path, rgb, 256, 256, &err) != CF_OK) goto done;
                    if (tty) fprintf(stderr, "\rtiles: %lld/%lld", (long long)++done_tiles, (long long)total * nlayers);
                }
        }
    if (tty) fputc('\n', stderr);
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
        char cfgtext[2048];
        int n = snprintf(cfgtext, sizeof cfgtext, "{\"mode\": \"static\", \"layers\": [");
        for (int li = 0; li < nlayers; li++) n += snprintf(cfgtext + n, sizeof cfgtext - (size_t)n, "%s\"%s\"", li ? ", " : "", layer_names[li]);
        char js[2][600];
        json_script_str(js[0], sizeof js[0], o.seed);
        json_script_str(js[1], sizeof js[1], o.settings);
        snprintf(cfgtext + n, sizeof cfgtext - (size_t)n,
                 "], \"zmin\": %d, \"zmax\": %d, \"center\": [%ld, %ld], \"seed\": %s, \"settings\": %s}", za, zb,
                 r[0] + (r[2] - r[0]) / 2, r[1] + (r[3] - r[1]) / 2, js[0], js[1]);
        snprintf(path, sizeof path, "%s/index.html", outdir);
        if (make_parents(path) < 0) {
            snprintf(msg, sizeof msg, "%.900s: cannot create its folder: %s", path, strerror(errno));
            goto done;
        }
        if (write_text_atomic(path, html, (size_t)(mark - html), cfgtext, strlen(cfgtext), end, msg, sizeof msg) < 0) goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - t0;
    fprintf(stderr, "tiles: %lld tiles, %.2f s, %.2f tiles/s\n", (long long)total * nlayers, t, (double)total * nlayers / t);
    rc = 0;
done:
    if (rc) {
        if (msg[0]) fprintf(stderr, "chunkfill: %s\n", msg);
        else report(&err);
    }
    free(rgb);
    cf_biomes_free(bs);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static int cmd_slice(int argc, char **argv)
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
        fprintf(stderr, "chunkfill: --span %s: empty or inverted span\n", span);
        return 1;
    }
    if (a1 - a0 + 1 > 65536) {
        fprintf(stderr, "chunkfill: --span %s: %ld blocks (at most 65536)\n", span, a1 - a0 + 1);
        return 1;
    }
    cf_error err = {0};
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_device *dev = NULL;
    void *vol = NULL;
    float *img = NULL;
    int32_t *list = NULL;
    int rc = 1;
    if (open_world(&o, 0, 1, &seed, &pk, &pg, &w, &err) != CF_OK) goto done;
    if (strcmp(device, "cpu") != 0 && cf_device_open(&dev, device, pg, 0, 0, &err) != CF_OK) goto done;
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    int n = (int)(a1 - a0 + 1);
    int64_t c0 = floordiv16(a0), c1 = floordiv16(a1), cf = floordiv16(fixed), nc = c1 - c0 + 1;
    list = malloc(sizeof(int32_t) * 2 * (size_t)nc);
    int f64 = cf_program_precision(pg) == 64;
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
    if (dev ? cf_device_fill(dev, w, (size_t)nc, list, vol, &err) != CF_OK : cf_fill_chunks(w, 0, (size_t)nc, list, vol, 0, &err) != CF_OK)
        goto done;
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
    if (cf_png_slice(outpath, img, n, pg, m, &err) != CF_OK) goto done;
    rc = 0;
done:
    if (rc) report(&err);
    free(list), free(vol), free(img);
    cf_device_free(dev);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static const char *const usage_emit =
    "usage: chunkfill emit [--pack PATH]... [--settings ID] [--function ID]\n"
    "Writes the OpenCL C program generated for router:final_density (or --function) to\n"
    "standard output. The program does not depend on the seed.\n";


/* info, plan and emit: compile the functions and print what the program says */
enum { PRINT_INFO, PRINT_PLAN, PRINT_EMIT };
static int cmd_print(int argc, char **argv, const char *usage, int what)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage, stdout), 0;
        int r = common_opt(&o, argc, argv, &i, usage);
        if (r == 2) return 2;
        if (r == 1) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[i]);
            return die_usage(msg, usage);
        }
    }
    if (o.irisd) return die_usage("--dialect takes 1.21 or 26.3 (Minecraft data; master or unification: Iris styles in sample)", usage);
    if (what != PRINT_INFO && o.nfunctions > 1) return die_usage("at most one --function", usage);
    if (o.nfunctions == 0) o.functions[o.nfunctions++] = "router:final_density";
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    char *src = NULL;
    int rc = 1;
    if (open_pack(&o, &pk, &err) != CF_OK) goto done;
    if (cf_program_compile(&pg, pk, o.settings, o.functions, o.nfunctions, &err) != CF_OK) goto done;
    if (what == PRINT_EMIT && !(src = cf_emit_opencl(pg, 0, &err))) goto done;
    fputs(what == PRINT_INFO ? cf_program_describe(pg) : what == PRINT_PLAN ? cf_program_plan(pg) : src, stdout);
    rc = fflush(stdout) == 0 ? 0 : 1;
done:
    if (rc && err.status) report(&err);
    free(src);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}


static const char *const usage_serve =
    "usage: chunkfill serve [--pack PATH]... [--settings ID]... [--function ID]\n"
    "                       --listen HOST:PORT|[V6]:PORT|unix:PATH [--listen ...]\n"
    "                       [--device cpu|opencl[:N]|auto] [--token-file F [--allow-remote]] [limits]\n"
    "Answers fill requests (protocol: host/net/PROTOCOL.md) until SIGTERM or SIGINT. Prints one line\n"
    "'listening on ADDR' per address on standard output when ready (port 0: the port the\n"
    "system chose) and one line per event on standard error. Exit 0 after a clean shutdown.\n"
    "  --settings ID      a configuration (named by its noise settings id); repeat for several,\n"
    "                     all over the same --pack layers (default minecraft:overworld)\n"
    "  --function ID      the filled function (default router:final_density)\n"
    "  --listen ADDR      TCP address (loopback only unless --allow-remote) or unix:PATH\n"
    "                     (created with mode 0600, removed at exit; must not exist)\n"
    "  --token-file F     shared secret (first line of F) every client must send in its hello\n"
    "  --allow-remote     permit non-loopback TCP addresses (requires --token-file)\n"
    "  --device DEV       cpu, opencl, opencl:N or auto (default: opencl when a device passes\n"
    "                     the exactness probes, else the CPU reference, said at start)\n"
    "  --threads N        CPU fill threads (default: all cores)\n"
    "  --batch N          chunks per launch (default: the device's batch; CPU: 16 per thread)\n"
    "  --max-chunks N     chunks per request (default 4096)\n"
    "  --max-frame N      bytes of a client frame's payload (default 65536, at most 1048576)\n"
    "  --max-pending N    unfinished chunks per connection before the server stops reading it\n"
    "                     (default 8192)\n"
    "  --queue-chunks N   queued chunks, all connections, before reading stops (default 65536)\n"
    "  --max-connections N  (default 256; more get an error frame 'busy')\n"
    "  --max-output-mb N  unsent responses per connection (MiB) before its requests wait and\n"
    "                     the server stops reading it (default 16)\n"
    "  --world-cache N    seeds kept bound, least recently used dropped (default 8)\n"
    "  --read-timeout-ms N   a started frame (or the hello) must complete within N ms (10000)\n"
    "  --write-timeout-ms N  drop a client that reads nothing for N ms (60000)\n"
    "  --deadline-ms N    per-request deadline when the request sets none (60000)\n"
    "  --drain-ms N       on SIGTERM, time to finish in-flight work before cancelling (10000)\n"
    "  --verbose          log every request\n"
    "  --biomes           also offer BIOMES_U8 (each settings id's vanilla biome source; PROTOCOL.md)\n"
    "  plus the limits of 'chunkfill sample --help', --strict and --define\n";

static const char *serve_listen[8];
static int serve_nlisten;
static int listen_option(opts *o, const char *v)
{
    (void)o;
    if (serve_nlisten == 8) return die_usage("at most 8 --listen addresses", usage_serve);
    serve_listen[serve_nlisten++] = v;
    return 0;
}

static const char *const usage_serve_http =
    "usage: chunkfill serve --http 127.0.0.1:PORT [--pack PATH]... [--settings ID]...\n"
    "                       [--cache DIR] [--cache-mb N] [--workers N] [--threads N] [--max-zoom Z]\n"
    "                       [--dear-workers N] [--max-connections N] [--read-timeout-ms N]\n"
    "                       [--tile-timeout-ms N] [--drain-ms N]\n"
    "Serves maps over HTTP (loopback only): the viewer at /, tiles /LAYER/Z/X/Y.png?seed=S\n"
    "[&settings=ID] exactly as `chunkfill tiles` writes them, drawn on demand into a disk cache\n"
    "of at most --cache-mb MiB (default 256; default folder: a fresh one under TMPDIR, removed\n"
    "at exit), and /at?x=X&z=Z&seed=S[&settings=ID] -> {\"height\", \"block\", \"biome\", \"fluid\"}\n"
    "(height as render --heights; block: the noise stage's block there; fluid: the aquifer's\n"
    "fluid above it; biome: the biome at the surface block, as `chunkfill biome --at X,HEIGHT,Z`;\n"
    "null where the settings have no biome source). Request heads are read by an event loop\n"
    "(--read-timeout-ms each, default 5000: 408); --workers answer the viewer, /at and cached\n"
    "tiles (default 4), --dear-workers draw tiles (default 2; a tile stops when every client\n"
    "that wants it has gone, or after --tile-timeout-ms, default 120000: 503);\n"
    "--max-connections connections and requests at once (default 1024; beyond, the slowest\n"
    "unfinished head is closed, and requests get 503 with Retry-After). A Host header other\n"
    "than localhost or a loopback address is refused (403). SIGINT or SIGTERM: tiles being\n"
    "drawn get --drain-ms (default 10000), then stop. One log line per request on stderr\n"
    "(docs/robustness.md lists every limit).\n";

static int cmd_serve_http(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    cf_http_opts ho;
    cf_http_defaults(&ho);
    char **av = calloc((size_t)argc + 1, sizeof *av);
    const char **settings = calloc((size_t)argc + 1, sizeof *settings);
    if (!av || !settings) return free(av), free(settings), fprintf(stderr, "chunkfill: out of memory\n"), 1;
    int ac = 0, ns = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 2 && strcmp(argv[i], "--settings") == 0 && i + 1 < argc) settings[ns++] = argv[++i];
        else av[ac++] = argv[i];
    }
    const char *addr = NULL, *cache = NULL;
    long cache_mb = ho.cache_mb, workers = ho.workers, threads = 0, max_zoom = ho.max_zoom, conns = ho.max_conns,
         rto = ho.read_timeout_ms, dear = ho.dear_workers, tto = ho.tile_timeout_ms, drain = ho.drain_ms;
    optdef defs[] = {
        {.name = "--http", .str = &addr, .required = "--http is required"},
        {.name = "--cache", .str = &cache},
        {.name = "--cache-mb", .num = &cache_mb, .lo = 1, .hi = 1L << 20},
        {.name = "--workers", .num = &workers, .lo = 1, .hi = 256},
        {.name = "--threads", .num = &threads, .lo = 1, .hi = 1024},
        {.name = "--max-zoom", .num = &max_zoom, .lo = 0, .hi = 20},
        {.name = "--max-connections", .num = &conns, .lo = 1, .hi = 65536},
        {.name = "--read-timeout-ms", .num = &rto, .lo = 1, .hi = 86400000},
        {.name = "--dear-workers", .num = &dear, .lo = 1, .hi = 256},
        {.name = "--tile-timeout-ms", .num = &tto, .lo = 1, .hi = 86400000},
        {.name = "--drain-ms", .num = &drain, .lo = 0, .hi = 86400000},
        {0},
    };
    int rc = parse_cmd(&o, ac, av, defs, usage_serve_http);
    cf_error err = {0};
    if (rc < 0) {
        ho.packs = o.packs, ho.npacks = o.npacks, ho.limits = o.lim;
        ho.settings = settings, ho.nsettings = ns;
        ho.listen = addr, ho.cache_dir = cache, ho.cache_mb = cache_mb, ho.workers = (int)workers;
        ho.threads = (int)threads, ho.max_zoom = (int)max_zoom, ho.max_conns = (int)conns, ho.read_timeout_ms = (int)rto;
        ho.dear_workers = (int)dear, ho.tile_timeout_ms = (int)tto, ho.drain_ms = (int)drain;
        rc = cf_http_serve(&ho, &err) == CF_OK ? 0 : report(&err);
    }
    free(av), free(settings);
    return rc;
}

static int cmd_serve(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--http") == 0) return cmd_serve_http(argc, argv);
    opts o = {0};
    cf_limits_default(&o.lim);
    cf_serve_opts so;
    cf_serve_defaults(&so);
    /* flags without a value and the repeatable --settings are taken out first */
    char **av = calloc((size_t)argc + 1, sizeof *av);
    const char **settings = calloc((size_t)argc + 1, sizeof *settings);
    if (!av || !settings) return free(av), free(settings), fprintf(stderr, "chunkfill: out of memory\n"), 1;
    int ac = 0, ns = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 2 && strcmp(argv[i], "--allow-remote") == 0) so.allow_remote = 1;
        else if (i >= 2 && strcmp(argv[i], "--verbose") == 0) so.verbose = 1;
        else if (i >= 2 && strcmp(argv[i], "--biomes") == 0) so.biomes = 1;
        else if (i >= 2 && strcmp(argv[i], "--settings") == 0 && i + 1 < argc) settings[ns++] = argv[++i];
        else av[ac++] = argv[i];
    }
    const char *token_file = NULL, *device = "auto";
    long threads = 0, batch = 0, max_chunks = so.max_chunks, max_frame = so.max_frame, max_pending = so.max_pending,
         queue = so.queue_chunks, conns = so.max_conns, outmb = so.max_output_mb, wcache = so.world_cache, rto = so.read_timeout_ms,
         wto = so.write_timeout_ms, dl = so.deadline_ms, drain = so.drain_ms;
    optdef defs[] = {
        {.name = "--listen", .fn = listen_option, .required = "--listen is required"},
        {.name = "--token-file", .str = &token_file},
        {.name = "--device", .str = &device},
        {.name = "--threads", .num = &threads, .lo = 1, .hi = 1024},
        {.name = "--batch", .num = &batch, .lo = 1, .hi = 1L << 16},
        {.name = "--max-chunks", .num = &max_chunks, .lo = 1, .hi = 100000},
        {.name = "--max-frame", .num = &max_frame, .lo = 64, .hi = 1L << 20},
        {.name = "--max-pending", .num = &max_pending, .lo = 1, .hi = 1L << 24},
        {.name = "--queue-chunks", .num = &queue, .lo = 1, .hi = 1L << 24},
        {.name = "--max-connections", .num = &conns, .lo = 1, .hi = 65536},
        {.name = "--max-output-mb", .num = &outmb, .lo = 1, .hi = 65536},
        {.name = "--world-cache", .num = &wcache, .lo = 1, .hi = 1024},
        {.name = "--read-timeout-ms", .num = &rto, .lo = 1, .hi = 86400000},
        {.name = "--write-timeout-ms", .num = &wto, .lo = 1, .hi = 86400000},
        {.name = "--deadline-ms", .num = &dl, .lo = 1, .hi = 86400000},
        {.name = "--drain-ms", .num = &drain, .lo = 0, .hi = 86400000},
        {0},
    };
    int rc = parse_cmd(&o, ac, av, defs, usage_serve);
    if (rc < 0 && o.nfunctions > 1) rc = die_usage("at most one --function", usage_serve);
    if (rc < 0 && so.allow_remote && !token_file) rc = die_usage("--allow-remote requires --token-file", usage_serve);
    char token[CF_TOKEN_MAX + 1];
    cf_error err = {0};
    if (rc < 0 && token_file && read_token(token_file, token, &err) != 0) rc = report(&err);
    if (rc < 0) {
        so.packs = o.packs, so.npacks = o.npacks, so.limits = o.lim;
        so.settings = settings, so.nsettings = ns;
        so.function = o.nfunctions ? o.functions[0] : NULL;
        so.listen = serve_listen, so.nlisten = serve_nlisten;
        so.token = token_file ? token : NULL;
        so.device = device;
        so.threads = (int)threads, so.batch = (int)batch, so.max_chunks = (int)max_chunks, so.max_frame = (int)max_frame;
        so.max_pending = (int)max_pending, so.queue_chunks = (int)queue, so.max_conns = (int)conns, so.max_output_mb = (int)outmb;
        so.world_cache = (int)wcache, so.read_timeout_ms = (int)rto, so.write_timeout_ms = (int)wto;
        so.deadline_ms = (int)dl, so.drain_ms = (int)drain;
        so.ready = stdout;
        so.strict = o.strict, so.defines = o.defs, so.ndefines = o.ndefs;
        rc = cf_serve(&so, &err) == CF_OK ? 0 : report(&err);
    }
    memset(token, 0, sizeof token);
    free(av);
    free(settings);
    return rc;
}

static int cmd_nodes(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return fputs("usage: chunkfill nodes\nLists every density function node kind: name, fields, value.\n", stdout), 0;
        return die_usage("nodes takes no options", "usage: chunkfill nodes\n");
    }
    const char *name, *fields, *summary;
    for (int i = 0; cf_node_kind_info(i, &name, &fields, &summary); i++)
        printf("%-18s %s\n%-18s   %s\n", name, fields[0] ? fields : "(no fields)", "", summary);
    return 0;
}

int cmd_biome(int argc, char **argv);       /* cli_biome.c */
int cmd_fill_biomes(int argc, char **argv); /* cli_biome.c: fill --biomes */
int cmd_pregen(int argc, char **argv);      /* pregen.c */

int main(int argc, char **argv)
{
    if (argc < 2) return fputs(usage_main, stderr), 2;
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) return fputs(usage_main, stdout), 0;
    if (strcmp(c, "sample") == 0) return cmd_sample(argc, argv);
    if (strcmp(c, "info") == 0) return cmd_print(argc, argv, usage_info, PRINT_INFO);
    if (strcmp(c, "fill") == 0) {
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--biomes") == 0) return cmd_fill_biomes(argc, argv);
        return cmd_fill(argc, argv);
    }
    if (strcmp(c, "biome") == 0) return cmd_biome(argc, argv);
    if (strcmp(c, "pregen") == 0) return cmd_pregen(argc, argv);
    if (strcmp(c, "plan") == 0) return cmd_print(argc, argv, usage_plan, PRINT_PLAN);
    if (strcmp(c, "emit") == 0) return cmd_print(argc, argv, usage_emit, PRINT_EMIT);
    if (strcmp(c, "check") == 0) return cmd_check(argc, argv);
    if (strcmp(c, "render") == 0) return cmd_render(argc, argv);
    if (strcmp(c, "tiles") == 0) return cmd_tiles(argc, argv);
    if (strcmp(c, "columns") == 0) return cmd_columns(argc, argv);
    if (strcmp(c, "slice") == 0) return cmd_slice(argc, argv);
    if (strcmp(c, "devices") == 0) return cmd_devices(argc, argv);
    if (strcmp(c, "nodes") == 0) return cmd_nodes(argc, argv);
    if (strcmp(c, "serve") == 0) return cmd_serve(argc, argv);
    fprintf(stderr, "chunkfill: unknown command '%s'\n%s", c, usage_main);
    return 2;
}
