/* cli.h - what the files of the chunkfill command line share (host/cli/, a client of
 * include/chunkfill.h only): the command table (main.c), the one option parser
 * (opts.c), a command's world (world.c), the output helpers (output.c) and the
 * commands of each family (fill.c, maps.c, inspect.c, serve.c, biome.c, pregen.c, structures.c).
 * Errors: one line on stderr; exit 1 for bad input, 2 for bad usage.
 */
#ifndef CF_CLI_H
#define CF_CLI_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chunkfill.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .npy writers assume a little-endian host"
#endif

/* ---- the command table (main.c): one row per command; `chunkfill --help` lists the
 * rows in this order, `chunkfill NAME --help` prints help. A new command: its cmd_
 * function in the file of its family, its help text beside it, one row in main.c. */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[1] is the name; returns the exit status */
    const char *summary;               /* one line in `chunkfill --help` */
    const char *help;                  /* `chunkfill NAME --help` */
} cli_command;
extern const cli_command cli_commands[];

/* ---- opts.c: the options every command shares, and a command's own as optdef rows */
typedef struct opts {
    const char *packs[64];
    int npacks;
    const char *ext[64];   /* --external NAME=VALUE (Hytale context inputs) */
    int next;
    const char *defs[64];  /* --define TYPE=VALUE (a mod's density function type as a constant) */
    int ndefs;
    const char *version; /* --version: the game version (cf_pack_set_game_version) */
    const char *settings, *seed, *points, *irisd; /* irisd: --dialect master|unification (Iris) */
    const char *dimension; /* --dimension (the map commands): its settings and biome source; open_world follows it */
    const char *functions[64];
    int nfunctions;
    double *at;           /* sample positions, 3 per point */
    char (*tok)[3][48];   /* their text, echoed by a double dialect */
    size_t nat, capat;
    cf_limits lim;
    int dialect; /* --dialect: CF_DIALECT_* */
    int strict;  /* --strict: cf_pack_set_strict */
    int quiet;   /* --quiet: no progress line, no summary line */
    int refuse;  /* CO_*: shared options this command does not take (set before parse_cmd) */
} opts;
/* groups of the shared options (opts.c common_rows); --quiet belongs to every command */
enum { CO_FUNCTION = 1, CO_EXTERNAL = 2, CO_DEFINE = 4, CO_STRICT = 8, CO_LIMITS = 16, CO_PACK = 32, CO_ALL = 63 };

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

/* the command being run, as `chunkfill NAME --help` takes it (main.c sets it: "fill",
 * "fill --biomes", "serve --http") */
extern const char *cli_command_name;
/* a usage error: "chunkfill: MSG (see chunkfill NAME --help)", one line; returns 2 */
int die_usage(const char *msg, const char *usage);
/* --settings or --dimension, not both (exit 2); neither: minecraft:overworld. -1 when fine. */
int settings_or_dimension(opts *o, const char *usage);
/* the name of names nearest to word when it is a near miss (one edit, two in a long word), else NULL */
const char *cli_near(const char *word, const char *const *names, size_t n);
int parse_long(const char *s, long lo, long hi, long *out);
int push_point(opts *o, const double v[3], char tok[3][48]);
int parse_num(const char *s, double *out);
int parse_fields(const char *s, char sep, long v[3], double d[3], char tok[3][48], int two);
int parse_xyz(const char *s, char sep, long v[3]);
int read_points(opts *o, const char *path);
int parse_cmd(opts *o, int argc, char **argv, optdef *defs, const char *usage);
int one_function(opts *o, const char *usage);
int parse_chunks(const char *s, long r[4]);
int chunk_range(const char *chunks, long r[4], const char *usage);
int parse_rect(const char *opt, const char *v, int single, long lo, long hi, const char *unit, long r[4]);
int parse_area(const char *area, long r[4]);
int parse_stage(const char *v, int *surface);
int parse_layer(const char *name);
/* --device of the map commands: cpu (*device becomes NULL) or opencl[:N]; -1, or 2 after one line */
int parse_map_device(const char **device);

/* ---- world.c: packs, program and world from the options */
cf_status xerr(cf_error *e, cf_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
cf_status external_map(cf_pack *pk, const char *name, const char *spec, cf_error *err);
cf_status open_pack(const opts *o, cf_pack **pk, cf_error *err);
/* a command's world: the seed, the packs, the program, the world at the seed, and the device
 * when the command opens one (cf_device_open(&cw.dev, ...)); close_world frees what was made */
typedef struct cli_world {
    int64_t seed;
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_device *dev;
} cli_world;
cf_status open_world(const opts *o, int blocks, int nfn, cli_world *cw, cf_error *err);
void close_world(cli_world *cw);
cf_status open_biomes(const opts *o, cf_pack *pk, const char *dimension, int64_t seed, cf_biomes **b, cf_error *err);
int report(const cf_error *e);
/* structures.c: the terrain of the structure checks for s (render --structures too) */
void structures_terrain_open(cf_structures *s, cf_pack *pk, cf_biomes *b, int64_t seed, cf_program **pg, cf_world **w);

/* ---- output.c: the writer thread, progress, the guarded temporary, tokens */
int write_all(FILE *f, const void *p, size_t n);
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
int writer_wait(writer *wr);
int writer_start(writer *wr, FILE *f, const void *p, size_t n);
/* Progress of long work on a terminal (stderr), one line redrawn at most 5 times a second:
 * "fill: 120/400 chunks (30%), 35.2 chunks/s, ETA 0:08". Silent when stderr is not a
 * terminal or with --quiet. */
typedef struct progress {
    const char *what, *unit;
    int64_t total;
    double t0, last;
    int on, shown;
} progress;
double mono_s(void);
void progress_start(progress *p, const char *what, const char *unit, int64_t total, int quiet);
void progress_show(progress *p, int64_t done);
/* the line for work in stages (a library's progress hook, cf_map_progress_fn's arguments):
 * "WHAT: STAGE N%, T s"; p from progress_start (unit and total unused) */
void progress_stage(void *p, const char *stage, int64_t done, int64_t total);
void progress_end(progress *p);
void guard_tmp(const char *path);
void unguard_tmp(void);
const char *fmt_bytes(char *buf, size_t cap, double b);
int free_space(const char *path, double *avail);
#define CF_TOKEN_MAX 256
int read_token(const char *path, char *token, cf_error *err);

static inline int64_t floordiv16(int64_t v) { return v >= 0 ? v / 16 : -((-v + 15) / 16); }

/* the --version line of the help of every command that builds a world, its text at the column of
 * the help's other options: GAP the spaces after "  --version V", INDENT those of its next lines */
#define HELP_VERSION_AT(GAP, INDENT)                                                                      \
    "  --version V" GAP "the game version: 1.18 ... 1.21.11, 26.1, 26.2, 26.3 (its biomes, data version);\n" \
    INDENT "default: the packs' version.json or pack.mcmeta, else 26.3 (1.21.11 for\n"                     \
    INDENT "1.18-1.21 data, said once on stderr)\n"
#define HELP_VERSION HELP_VERSION_AT("      ", "                   ") /* options at column 19 */

/* ---- the commands and their help texts, by family */
extern const char usage_sample[], usage_fill[], usage_slice[];         /* fill.c */
extern const char usage_render[], usage_tiles[], usage_columns[], usage_at[];      /* maps.c */
extern const char usage_check[], usage_plan[], usage_info[], usage_emit[], usage_devices[], usage_nodes[]; /* inspect.c */
extern const char usage_serve[];                                       /* serve.c */
extern const char usage_biome[], usage_fill_biomes[];                  /* biome.c */
extern const char usage_pregen[];                                      /* pregen.c */
extern const char usage_structures[], usage_spawn[], usage_locate[];   /* structures.c */
int cmd_structures(int argc, char **argv);
int cmd_locate(int argc, char **argv);
int cmd_spawn(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_fill(int argc, char **argv); /* fill --biomes: cmd_fill_biomes */
int cmd_slice(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_tiles(int argc, char **argv);
int cmd_columns(int argc, char **argv);
int cmd_at(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_nodes(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_biome(int argc, char **argv);
int cmd_fill_biomes(int argc, char **argv);
int cmd_pregen(int argc, char **argv);

#endif
