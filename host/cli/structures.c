/* structures.c - `chunkfill structures`, `chunkfill locate structure` and `chunkfill spawn` (docs/structures.md).
 *
 * A client of include/chunkfill.h only: options -> cf_biomes_open -> cf_structures_open ->
 * cf_structures_find (JSON lines on stdout or --out, written to a temporary name and renamed)
 * or cf_spawn_find (one JSON line).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunkfill.h"
#include "cli.h"

const char usage_structures[] =
    "usage: chunkfill structures [--pack PATH]... --seed SEED [--dimension ID] [--version V]\n"
    "                            --area X0,Z0:X1,Z1 [--structure ID|#TAG]... [--out FILE]\n"
    "Prints one JSON line per structure start whose chunk is in the area (blocks, inclusive), from the\n"
    "structure sets of the packs (data/<ns>/worldgen/structure_set; a vanilla server jar as --pack\n"
    "carries vanilla's): {\"structure\": ID, \"set\": ID, \"chunk\": [CX, CZ], \"x\": X, \"y\": Y, \"z\": Z,\n"
    "\"checked\": \"biome\"|\"terrain+biome\"|\"none\"[, \"unverified\": WHAT]}. x, y, z: the start position the\n"
    "checks used\n"
    "(y null where no check used one: then x, z are the chunk's corner plus the set's locate_offset).\n"
    "\"checked\": \"biome\" when the structure's biome check passed there (or passes everywhere in the\n"
    "dimension; igloos and swamp huts: at the chunk centre's surface, water included, from the exact\n"
    "terrain); \"terrain+biome\": also the game's terrain check (desert pyramids, jungle temples: the\n"
    "lowest corner at or above sea level); \"none\" with \"unverified\" naming what the game checks that\n"
    "chunkfill does not model\n"
    "(a jigsaw start piece's layout, the terrain): the game may drop such a start.\n"
    "Sets in the packs' order (namespaces, then files, sorted), chunks of a set in region order.\n"
    "  --pack PATH        a data pack folder, .zip or .jar; repeat to layer packs\n"
    "  --dimension ID     the dimension (default minecraft:overworld): its biome source decides which\n"
    "                     sets it has (those with a structure whose biomes the source can give)\n"
    "  --version V        the game version: 1.18 ... 26.3 (default: the jar's version.json or pack.mcmeta,\n"
    "                     else 26.3, or 1.21.11 for 1.18-1.21 data);\n"
    "                     1.18-1.19.2 search the stronghold rings with one random, later versions fork it\n"
    "  --structure S      only structure S, or the structures of tag #S (tags/worldgen/structure); repeatable\n"
    "  --out FILE         write the lines to FILE (atomically) instead of standard output\n";

const char usage_spawn[] =
    "usage: chunkfill spawn [--pack PATH]... --seed SEED [--version V] [--dimension ID]\n"
    "Prints {\"climate\": [X, Z], \"spawn\": [X, Y, Z], \"unverified\": WHAT}: the 1.18+ climate search's point\n"
    "(Climate.findSpawnPosition on the overworld's biome source, point path at y 0), then the world spawn:\n"
    "on the game's square spiral of the 11 x 11 chunks around that point's chunk, the first column (x, then\n"
    "z) with a block to stand on (from one above the MOTION_BLOCKING height down, the first block with a full\n"
    "top face; not through a fluid), X, Y, Z the block above it; none: the chunk's centre at y 64, as the\n"
    "game (where the world's floor is above 64: that column's WORLD_SURFACE height). The blocks are the\n"
    "surface stage's: the game makes carvers and features (trees, ice on cold water, ...) first, which\n"
    "chunkfill does not, so WHAT says so (and names a block whose shape chunkfill does not know). spawn is\n"
    "null where the settings' blocks do not compile (one line on stderr).\n"
    "  --version V        1.18 ... 26.3 (default as `chunkfill biome`: the jar's or pack's, else the\n"
    "                     dialect's): 1.21.2 changed the distance weight\n";

const char usage_locate[] =
    "usage: chunkfill locate structure ID|#TAG [--pack PATH]... --seed SEED --from X,Z|X,Y,Z [--dimension ID]\n"
    "                        [--version V] [--radius N]\n"
    "       chunkfill locate biome ID|#TAG [--pack PATH]... --seed SEED --from X,Z|X,Y,Z [--dimension ID]\n"
    "                        [--version V] [--radius BLOCKS]\n"
    "biome: prints the biome nearest to the point as the game's /locate biome finds it:\n"
    "{\"biome\": ID, \"x\": X, \"y\": Y, \"z\": Z, \"distance\": D}: columns 32 blocks apart on the game's\n"
    "square spiral out to the radius (default 6400), at each the ys from the point's y outwards 64 apart\n"
    "(the world's y range: the noise settings'; y clamped into it), the source's biome at that quart;\n"
    "D: the 3D distance, rounded down, as the game prints it. A tag: data/<ns>/tags/worldgen/biome.\n"
    "structure:\n"
    "Prints the start of structure ID (or of a structure of #TAG) nearest to the point as the game's\n"
    "/locate structure finds it: {\"structure\": ID, \"set\": ID, \"chunk\": [CX, CZ], \"x\": X, \"z\": Z,\n"
    "\"distance\": D, \"checked\": ...[, \"unverified\": WHAT]} (x, z: the chunk's corner plus the set's\n"
    "locate_offset; D: the horizontal distance, rounded down). Strongholds: the nearest ring position;\n"
    "other sets: rings of regions around the point, the nearest start of the first ring that has one.\n"
    "A start whose checks chunkfill does not make counts (unverified says so); the game may pass over it.\n"
    "Exit 1 with one line when there is none within the radius.\n"
    "  --from X,Z         the point (y 0), or X,Y,Z\n"
    "  --radius N         regions to search outwards (default 100, as the game)\n"
    "Other options as `chunkfill structures`.\n";

typedef struct sopts {
    opts c; /* first: parse_cmd's callbacks get &c */
    const char *dimension, *area, *out, *from;
    long radius;
    const char *only[64];
    int nonly;
} sopts;

static int structure_option(opts *c, const char *v)
{
    sopts *o = (sopts *)c;
    if (o->nonly == 64) return die_usage("at most 64 --structure options", usage_structures);
    o->only[o->nonly++] = v;
    return 0;
}

static cf_status open_source(const sopts *o, cf_pack **pk, cf_biomes **b, int64_t *seed, cf_error *err)
{
    if (cf_seed_parse(o->c.seed, seed, err) != CF_OK) return err->status;
    if (open_pack(&o->c, pk, err) != CF_OK) return err->status;
    /* the game version: the shared --version (open_pack sets it on the packs), else the jar's or pack.mcmeta's */
    return cf_biomes_open(b, *pk, o->dimension, NULL, NULL, *seed, err);
}

/* the terrain of the structure checks (cf_structures_terrain): the biome source's settings with
 * their blocks, bound to the seed; where they do not compile, one line on stderr and no terrain
 * (those starts stay unverified) */
void structures_terrain_open(cf_structures *s, cf_pack *pk, cf_biomes *b, int64_t seed, cf_program **pg, cf_world **w)
{
    cf_error e = {0};
    const char *settings = cf_biomes_settings(b);
    if (!settings || cf_program_compile_blocks(pg, pk, settings, &e) != CF_OK || cf_world_new(w, *pg, seed, &e) != CF_OK ||
        cf_structures_terrain(s, *w, &e) != CF_OK)
        fprintf(stderr, "structures: no terrain checks (%s)\n", e.message[0] ? e.message : "the biome source names no settings");
}

/* frees what open_source opened and the options' lists; returns rc */
static int close_source(sopts *o, cf_pack *pk, cf_biomes *b, int rc)
{
    cf_biomes_free(b);
    cf_pack_free(pk);
    free(o->c.at);
    free(o->c.tok);
    return rc;
}

/* a JSON string (ids and fixed texts: no control characters; quotes and backslashes escaped) */
static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

typedef struct emit_ctx {
    FILE *f;
    long n;
    int nomem;
} emit_ctx;

static int emit_line(void *ctx, const cf_structure_start *st)
{
    emit_ctx *e = ctx;
    char line[1024];
    int n = cf_structure_json(st, line, sizeof line);
    if (n >= (int)sizeof line) { /* ids longer than the line: once more, in full */
        char *big = malloc((size_t)n + 1);
        if (!big) return e->nomem = 1;
        cf_structure_json(st, big, (size_t)n + 1);
        fputs(big, e->f);
        free(big);
    } else {
        fputs(line, e->f);
    }
    e->n++;
    return 0;
}

static int parse(sopts *o, int argc, char **argv, const char *usage, int structures)
{
    if (usage == usage_locate) {
        o->radius = 100;
        cf_limits_default(&o->c.lim);
        o->c.refuse = CO_FUNCTION | CO_EXTERNAL | CO_DEFINE;
        optdef defs[] = {
            {.name = "--seed", .str = &o->c.seed, .required = "--seed is required"},
            {.name = "--dimension", .str = &o->dimension},
            {.name = "--from", .str = &o->from, .required = "--from is required"},
            {.name = "--radius", .num = &o->radius, .lo = 0, .hi = 1000},
            {0},
        };
        return parse_cmd(&o->c, argc, argv, defs, usage);
    }
    cf_limits_default(&o->c.lim);
    o->c.refuse = CO_FUNCTION | CO_EXTERNAL | CO_DEFINE;
    optdef defs[] = {
        {.name = "--seed", .str = &o->c.seed, .required = "--seed is required"},
        {.name = "--dimension", .str = &o->dimension},
        {.name = structures ? "--area" : NULL, .str = &o->area, .required = "--area is required"},
        {.name = "--structure", .fn = structure_option},
        {.name = "--out", .str = &o->out},
        {0},
    };
    if (!structures) defs[2] = defs[3] = defs[4] = (optdef){0};
    return parse_cmd(&o->c, argc, argv, defs, usage);
}

int cmd_structures(int argc, char **argv)
{
    sopts o = {0};
    int rc = parse(&o, argc, argv, usage_structures, 1);
    if (rc >= 0) return rc;
    long r[4];
    if ((rc = parse_area(o.area, r)) >= 0) return rc;
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    cf_structures *s = NULL;
    cf_program *tpg = NULL;
    cf_world *tw = NULL;
    int64_t seed;
    cf_output out = {0}; /* --out: the checked writer (a FIFO or device there is refused) */
    emit_ctx e = {stdout, 0, 0};
    rc = 1;
    if (open_source(&o, &pk, &b, &seed, &err) != CF_OK) goto done;
    if (cf_structures_open(&s, pk, b, seed, cf_pack_game_version(pk, NULL, NULL), &err) != CF_OK) goto done;
    structures_terrain_open(s, pk, b, seed, &tpg, &tw);
    if (o.out) {
        if (cf_output_open(&out, o.out, &err) != CF_OK) goto done;
        guard_tmp(out.temp);
        e.f = out.f;
    }
    if (cf_structures_find(s, (int32_t)r[0], (int32_t)r[1], (int32_t)r[2], (int32_t)r[3], o.only, o.nonly, emit_line, &e, &err) != CF_OK)
        goto done;
    if (e.nomem) {
        xerr(&err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (fflush(e.f) != 0 || ferror(e.f)) {
        xerr(&err, CF_ERR_IO, "%s: write error: %s", o.out ? o.out : "standard output", strerror(errno));
        goto done;
    }
    if (o.out) {
        e.f = NULL;
        if (cf_output_commit(&out, &err) != CF_OK) goto done;
        unguard_tmp();
    }
    rc = 0;
    if (cf_structures_sets(s, NULL, 0) == 0 && !o.c.quiet) /* an empty answer, not a silent one (after the output) */
        fprintf(stderr, "structures: the packs have no structure set for %s (data/<ns>/worldgen/structure_set; a vanilla "
                        "server jar as --pack carries vanilla's)\n",
                o.dimension ? o.dimension : "minecraft:overworld");
done:
    cf_output_abort(&out);
    unguard_tmp();
    if (rc) report(&err);
    cf_structures_free(s);
    cf_world_free(tw);
    cf_program_free(tpg);
    return close_source(&o, pk, b, rc);
}

int cmd_spawn(int argc, char **argv)
{
    sopts o = {0};
    int rc = parse(&o, argc, argv, usage_spawn, 0);
    if (rc >= 0) return rc;
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    int64_t seed;
    cf_spawn sp;
    rc = 1;
    if (open_source(&o, &pk, &b, &seed, &err) != CF_OK) {
        report(&err);
        return close_source(&o, pk, b, rc);
    }
    /* the blocks of the spawn spiral: the biome source's settings; where they do not compile, one
     * line on stderr and the climate point alone */
    cf_error e = {0};
    const char *settings = cf_biomes_settings(b);
    if (!settings || cf_program_compile_blocks(&pg, pk, settings, &e) != CF_OK || cf_world_new(&w, pg, seed, &e) != CF_OK) {
        fprintf(stderr, "spawn: no spawn block (%s)\n", e.message[0] ? e.message : "the biome source names no settings");
        cf_world_free(w), w = NULL;
    }
    if (cf_spawn_find(w, b, cf_pack_game_version(pk, NULL, NULL), &sp, &err) != CF_OK) {
        report(&err);
    } else {
        char line[1024];
        cf_spawn_json(&sp, line, sizeof line);
        fputs(line, stdout);
        rc = fflush(stdout) != 0;
    }
    cf_world_free(w);
    cf_program_free(pg);
    return close_source(&o, pk, b, rc);
}

/* one int32 at *e (decimal), *e moved past it; -1 when there is none */
static int parse_long_prefix(char **e, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(*e, &end, 10);
    if (end == *e || errno || x < INT32_MIN || x > INT32_MAX) return -1;
    *out = x, *e = end;
    return 0;
}

/* --from X,Z (y 0) or X,Y,Z into p; -1 when it is neither */
static int parse_from(const char *from, int32_t p[3])
{
    long v[3] = {0, 0, 0};
    char *e = (char *)from;
    int n = 0;
    while (n < 3) {
        char *q = e;
        if (!*q || parse_long_prefix(&e, &v[n]) < 0) break;
        n++;
        if (*e == ',') e++;
        else break;
    }
    if (*e || (n != 2 && n != 3)) return -1;
    if (n == 2) p[0] = (int32_t)v[0], p[1] = 0, p[2] = (int32_t)v[1];
    else p[0] = (int32_t)v[0], p[1] = (int32_t)v[1], p[2] = (int32_t)v[2];
    return 0;
}

/* `locate biome ID|#TAG` (cf_biomes_locate with the game's radius and steps) */
static int locate_biome(int argc, char **argv, const char *what)
{
    sopts o = {0};
    o.radius = 6400;
    cf_limits_default(&o.c.lim);
    o.c.refuse = CO_FUNCTION | CO_EXTERNAL | CO_DEFINE;
    optdef defs[] = {
        {.name = "--seed", .str = &o.c.seed, .required = "--seed is required"},
        {.name = "--dimension", .str = &o.dimension},
        {.name = "--from", .str = &o.from, .required = "--from is required"},
        {.name = "--radius", .num = &o.radius, .lo = 0, .hi = 30000000},
        {0},
    };
    int rc = parse_cmd(&o.c, argc, argv, defs, usage_locate);
    if (rc >= 0) return rc;
    int32_t p[3], pos[3];
    if (parse_from(o.from, p) < 0) return die_usage("--from takes X,Z or X,Y,Z (integers)", usage_locate);
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    int64_t seed;
    int found = 0, bi = 0;
    rc = 1;
    cli_progress prog; /* on a terminal: the share of the search's columns done */
    progress_start(&prog, "locate", "", 0, o.c.quiet);
    cf_status st = open_source(&o, &pk, &b, &seed, &err);
    if (st == CF_OK)
        st = cf_biomes_locate_progress(b, pk, what, p[0], p[1], p[2], (int32_t)o.radius, 32, 64, pos, &bi, &found, progress_stage, &prog,
                                       &err);
    progress_end(&prog);
    if (st != CF_OK) {
        report(&err);
    } else if (found < 0) {
        fprintf(stderr, "chunkfill: the biome source of %s gives no biome %s (see chunkfill biome --help)\n",
                o.dimension ? o.dimension : "minecraft:overworld", what);
    } else if (!found) {
        fprintf(stderr, "chunkfill: no biome %s within %ld blocks of %d, %d, %d\n", what, o.radius, p[0], p[1], p[2]);
    } else {
        const char *names[CF_BIOME_PALETTE_MAX];
        cf_biomes_palette(b, names);
        double dx = (double)pos[0] - p[0], dy = (double)pos[1] - p[1], dz = (double)pos[2] - p[2];
        float d2 = (float)(dx * dx + dy * dy + dz * dz); /* the game: floor of a float square root */
        fputs("{\"biome\": ", stdout);
        put_str(stdout, names[bi]);
        printf(", \"x\": %d, \"y\": %d, \"z\": %d, \"distance\": %.0f}\n", pos[0], pos[1], pos[2], floor((double)(float)sqrt((double)d2)));
        rc = fflush(stdout) != 0;
    }
    return close_source(&o, pk, b, rc);
}

int cmd_locate(int argc, char **argv)
{
    sopts o = {0};
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage_locate, stdout), 0;
    if (argc >= 4 && strcmp(argv[2], "biome") == 0 && argv[3][0] != '-') return locate_biome(argc - 2, argv + 2, argv[3]);
    if (argc < 4 || strcmp(argv[2], "structure") != 0 || argv[3][0] == '-')
        return die_usage("expected `locate structure ID|#TAG` or `locate biome ID|#TAG` and options", usage_locate);
    const char *what = argv[3];
    int rc = parse(&o, argc - 2, argv + 2, usage_locate, 0);
    if (rc >= 0) return rc;
    int32_t p[3];
    if (parse_from(o.from, p) < 0) return die_usage("--from takes X,Z or X,Y,Z (integers)", usage_locate);
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    cf_structures *s = NULL;
    int64_t seed;
    cf_structure_start st;
    cf_program *tpg = NULL;
    cf_world *tw = NULL;
    int found = 0;
    rc = 1;
    if (open_source(&o, &pk, &b, &seed, &err) != CF_OK || cf_structures_open(&s, pk, b, seed, cf_pack_game_version(pk, NULL, NULL), &err) != CF_OK ||
        (structures_terrain_open(s, pk, b, seed, &tpg, &tw), 0) ||
        cf_structures_locate(s, &what, 1, p[0], p[1], p[2], (int)o.radius, &st, &found, &err) != CF_OK) {
        report(&err);
    } else if (!found) {
        fprintf(stderr, "chunkfill: no start of %s within %ld regions of %d, %d\n", what, o.radius, p[0], p[2]);
    } else {
        double dx = (double)st.x - p[0], dz = (double)st.z - p[2];
        fputs("{\"structure\": ", stdout);
        put_str(stdout, st.structure);
        fputs(", \"set\": ", stdout);
        put_str(stdout, st.set);
        printf(", \"chunk\": [%d, %d], \"x\": %d, \"z\": %d, \"distance\": %.0f, \"checked\": ", st.chunk_x, st.chunk_z, st.x, st.z,
               floor(sqrt(dx * dx + dz * dz)));
        put_str(stdout, st.checked);
        if (st.unverified) {
            fputs(", \"unverified\": ", stdout);
            put_str(stdout, st.unverified);
        }
        fputs("}\n", stdout);
        rc = fflush(stdout) != 0;
    }
    cf_structures_free(s);
    cf_world_free(tw);
    cf_program_free(tpg);
    return close_source(&o, pk, b, rc);
}
