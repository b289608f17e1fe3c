/* base.h - what every stage of host/ shares: arenas, one-line located errors,
 * JSON pointers (util.c), JSON files (json.c), the typed JSON field reader (fields.c),
 * packs (pack.c) and biome tags (tags.c).
 *
 * host/ is laid out by pipeline stage; a folder includes only folders before it:
 *   base/      arenas, errors, JSON reading, packs on disk or embedded
 *   ir/        node kinds, the program (graph IR), passes, the fill plan, seed tables,
 *              the front-end record (cf_frontend)
 *   frontend/  one folder per input format (parser + format notes) and registry.c,
 *              the one table of front-ends
 *   cpu/       the CPU reference: evaluators, chunk fills, aquifer
 *   opencl/    generated OpenCL C, the runtime, device fills
 *   image/     pictures (PNG, relief and slice colours)
 *   biome/     the biome stage: climate -> biome ids (parameter lists, the RTree)
 *   structure/ the structure stage: structure sets -> candidate chunks -> starts
 *   api/       include/chunkfill.h: the pipeline as one library
 *   net/       the fill server, its protocol, the C and Java clients
 *   cli/       the command line (a client of the public headers only)
 * Front-ends and back ends meet only in ir/; no folder uses a symbol of a folder above it
 * (scripts/layers.sh checks the includes and, with nm, the build's objects). The public
 * functions are all defined in api/ (public.c: wrappers of the lower folders' internal ones).
 * Memory: a program owns one arena (graph, tables); compile-time scratch
 * (JSON trees, file cache) lives in the compile context and dies with it.
 */
#ifndef CF_BASE_H
#define CF_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "chunkfill.h"

/* ------------------------------------------------------------------ arena */
typedef struct cf_arena {
    struct arena_block *head;
} cf_arena;

void *arena_alloc(cf_arena *a, size_t n);                     /* zeroed; NULL on OOM */
char *arena_strdup(cf_arena *a, const char *s);
char *arena_printf(cf_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* sets (*list)[n] = v, growing the list (*cap entries) in the arena by doubling (the old block
 * stays in the arena until it is freed): tables sized by the input; 0, or -1 out of memory */
int arena_push_int(cf_arena *a, int **list, int n, int *cap, int v);
void arena_free(cf_arena *a);

/* ------------------------------------------------------------------ errors */
/* Records the first error only; returns the status it recorded (or the one
 * already there). e may be NULL. */
cf_status err_set(cf_error *e, cf_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int err_failed(const cf_error *e);



/* ------------------------------------------------------------------ outputs (outfile.c)
 * The checked temporary-then-rename writer behind cf_output_* (include/chunkfill.h). */
cf_status out_open(cf_output *o, const char *path, cf_error *err);
cf_status out_close(cf_output *o, cf_error *err);
cf_status out_commit(cf_output *o, cf_error *err);
void out_abort(cf_output *o);
cf_status out_write_file(const char *path, const void *data, size_t n, cf_error *err);
cf_status out_check_dir(const char *path, cf_error *err);

/* A JSON pointer as a chain of steps (shared by all the pointers below it, so a
 * deep graph costs a step per node, not a string per node). NULL is the root. */
typedef struct cf_ptr {
    const struct cf_ptr *parent;
    const char *key; /* an object key, or NULL for an array index */
    int index;
} cf_ptr;

typedef struct cf_loc {
    const char *file;   /* display path of the JSON file */
    const cf_ptr *ptr;  /* JSON pointer inside it (NULL for the root) */
} cf_loc;

/* Renders ptr as RFC 6901 text ("" for the root) into buf (size n >= 64); a
 * pointer longer than the buffer keeps its start and end around "/...". Returns buf. */
const char *ptr_text(const cf_ptr *ptr, char *buf, size_t n);
/* util.c: what every JSON front-end reports errors with (one line, FILE#POINTER: message) */
int loc_vfail(cf_error *err, cf_loc at, cf_status st, const char *fmt, va_list ap); /* returns -1 */
cf_loc loc_key(cf_arena *a, cf_loc at, const char *key); /* at plus one key (arena-allocated) */
cf_loc loc_index(cf_arena *a, cf_loc at, int i);         /* at plus one array index */
struct cJSON;
const char *json_type(const struct cJSON *v);             /* "a number", "an object", ... */
int loc_fail(cf_error *err, cf_loc at, cf_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* util.c: the text of a reference cycle, "A -> B -> ... -> id", from the first id in chain */
const char *cycle_text(char *buf, size_t n, const char *const *chain, int nchain, const char *id);

/* ------------------------------------------------------------------ fields (fields.c)
 * The typed JSON field reader of every front-end. A front-end fills one cf_fields
 * with its wording; each object read keeps the keys it read in a cf_keys, and
 * field_unknown then refuses (CF_UNKNOWN_REFUSE) or reports through warn and skips
 * (CF_UNKNOWN_WARN, issue 23) every other key. A read of an absent field leaves def
 * in *out and returns 0, or fails "missing ..." at the object with CF_REQUIRED.
 * Every field_* returns 0, or -1 after a located one-line error. */
enum { CF_UNKNOWN_REFUSE, CF_UNKNOWN_WARN };
enum { CF_MISSING_FIELD, CF_MISSING_NAME };             /* missing field "k" | missing "k" (a number) */
enum { CF_INTS_SPLIT, CF_INTS_IN, CF_INTS_NUMBER };      /* how an integer's range is said, see field_value_int */
#define CF_REQUIRED 1u        /* field_*: an absent field is an error */
#define CF_DOLLAR_COMMENTS 2u /* field_unknown: keys starting with '$' are comments */
#define CF_MAX_KEYS 32
typedef struct cf_fields {
    cf_arena *a;       /* where locations are allocated */
    cf_error *err;
    int unknown;       /* CF_UNKNOWN_REFUSE or CF_UNKNOWN_WARN */
    void (*warn)(void *ctx, const char *line); /* CF_UNKNOWN_WARN: one "file#/ptr: unknown key ..." line */
    void *warn_ctx;
    int missing;       /* CF_MISSING_FIELD or CF_MISSING_NAME */
    int ints;          /* CF_INTS_SPLIT: "expected an integer, found 1.5" / "integer 9 out of range [0, 4]";
                        * CF_INTS_IN: "expected an integer in [0, 4], found 9";
                        * CF_INTS_NUMBER: "number 9 out of range [0, 4]" (before integrality) */
    int got;           /* 1: "expected a number, got a string" (Gson's words), else "found" */
    int null_absent;   /* 1: a JSON null is an absent field (Gson) */
} cf_fields;
typedef struct cf_keys {
    const char *k[CF_MAX_KEYS];
    int n;
} cf_keys;
/* a located error (the first one is kept); returns -1. Defined here, so that every caller
 * (and the static analyzer) sees the -1. */
static inline int field_fail(const cf_fields *r, cf_loc at, cf_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline int field_fail(const cf_fields *r, cf_loc at, cf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    loc_vfail(r->err, at, st, fmt, ap);
    va_end(ap);
    return -1;
}
static inline int field_nomem(const cf_fields *r) { return err_set(r->err, CF_ERR_NOMEM, "out of memory"), -1; }
cf_loc field_key(const cf_fields *r, cf_loc at, const char *key);
cf_loc field_index(const cf_fields *r, cf_loc at, int i);
/* the value of key in o (NULL when absent or o is not an object); records key in ks (may be NULL) */
const struct cJSON *field_get(const cf_fields *r, cf_keys *ks, const struct cJSON *o, const char *key);
/* field_get of a required field: NULL after a "missing" error at `at` */
const struct cJSON *field_need(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key);
/* key or its alias (NULL: none): both present is an error; *used = the one found */
int field_alias(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, const char *alias,
                const struct cJSON **out, const char **used);
/* values already in hand, v located at `at`: a finite number in [lo, hi] (+-HUGE_VAL: no bound),
 * an integer in [lo, hi], one of names[] (NULL-terminated; *out = its index) */
int field_value_num(const cf_fields *r, const struct cJSON *v, cf_loc at, double lo, double hi, double *out);
int field_value_int(const cf_fields *r, const struct cJSON *v, cf_loc at, long lo, long hi, int *out);
int field_value_enum(const cf_fields *r, const struct cJSON *v, cf_loc at, const char *const *names, int *out);
/* fields of o, located at at/key */
int field_num(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, double def, double *out);
int field_num_in(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, const char *alias, unsigned flags,
                 double def, double lo, double hi, double *out);
int field_float(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, float def, float *out);
int field_int(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, int def, long lo,
              long hi, int *out);
int field_bool(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, int def, int *out);
int field_str(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, const char **out);
int field_enum(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, const char *alias, unsigned flags,
               int def, const char *const *names, int *out);
/* an array of min..max values (*out NULL and *n 0 when absent); field_nums: of finite numbers into out[max] */
int field_array(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, int min, int max,
                const struct cJSON **out, int *n);
int field_nums(const cf_fields *r, cf_keys *ks, const struct cJSON *o, cf_loc at, const char *key, unsigned flags, int min, int max,
               double *out, int *n);
/* every key of o not in ks (nor a '$' comment with CF_DOLLAR_COMMENTS): unknown key "k" + " " + fmt
 * (fmt NULL: nothing after the key) */
int field_unknown(const cf_fields *r, const cf_keys *ks, const struct cJSON *o, cf_loc at, unsigned flags, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* *r zeroed: refuse unknown keys, "missing field", CF_INTS_SPLIT, "found" (inline: the
 * static analyzer then sees that only *r changes, not the context around it) */
static inline void field_init(cf_fields *r, cf_arena *a, cf_error *err)
{
    *r = (cf_fields){0};
    r->a = a;
    r->err = err;
}

/* ------------------------------------------------------------------ fixed limits */
#define CF_MAX_JSON_VALUES 4000000   /* per file: bounds the JSON tree's memory (~64 bytes a value) */
#define CF_MAX_SURFACE_BOUND 65536   /* |find_top_surface.upper_bound|: bounds the probes per column */
#define CF_MAX_INTERP_NEST 8         /* interpolated under interpolated: each level widens the ring of
                                      * corners the next one needs (time ~ depth^3 or more a chunk) */

/* ------------------------------------------------------------------ packs */
/* a caller's 2-D external map: w x h samples data[iz * w + ix], sample (ix, iz) covering the
 * columns [x0 + ix*step, x0 + (ix+1)*step) x [z0 + iz*step, ...) */
typedef struct cf_extmap {
    int w, h;
    double x0, z0, step;
    const double *data;
} cf_extmap;
struct cf_pack {
    cf_arena arena;
    cf_limits lim;
    int n;
    const char **roots;  /* NULL root = the embedded default pack (or mem, when set) */
    struct cf_archive **arcs; /* per root: the open archive when it is a .zip/.jar, else NULL */
    const struct cf_embedded_file *mem; /* a pack in memory (pack_open_memory) */
    size_t nmem;
    int next;            /* named external inputs (Hytale context nodes): pack_set_external */
    const char **ext_names;
    double *ext_values;
    struct cf_extmap *ext_maps; /* per external: a 2-D map (pack_set_external_map), w == 0 for a constant */
    int dialect;         /* CF_DIALECT_*: forced by pack_set_dialect, else detected per settings */
    int strict;          /* pack_set_strict: refuse what the game ignores (unknown keys, unsorted splines) */
    void (*warn)(void *ctx, const char *line); /* pack_set_warnings (NULL: stderr) */
    void *warn_ctx;
    int ndefs;           /* pack_define: density function types read as constants */
    const char **def_types;
    double *def_values;
    const char **warned; /* files already warned about (pack_warn: once per file) */
    int nwarned, capwarned;
    /* pack_overlay: one file read before every pack (rel, its text and display path), or NULL */
    const char *ov_rel, *ov_text, *ov_display;
    /* the game version (version.c): found once (gv_done), or set; gv_id NULL when unknown */
    int gv_done, gv_data;
    const char *gv_id, *gv_from;
};

/* Finds data/<ns>/worldgen/<kind>/<path>.json in the packs, last pack first.
 * Returns 1 and a malloc'd NUL-terminated *text (caller frees) and its display
 * path (arena of the pack); 0 when absent; -1 on error (err set). */
/* pack_read by a path relative to the pack root ("libnoise/terrain.json"). */
int pack_read_rel(cf_pack *pk, const char *rel, char **text, size_t *len, const char **display, cf_error *err);
/* the same in pack i only (0 = the first, lowest priority; i < pk->n), without the overlay */
int pack_read_rel_in(cf_pack *pk, int i, const char *rel, char **text, size_t *len, const char **display, cf_error *err);
/* a file that pack_read_rel finds before every pack's (rel, NUL-terminated text, its display
 * path; the caller keeps the strings alive), until pack_overlay(pk, NULL, NULL, NULL): the inline
 * noise settings of a dimension file, compiled as a settings file */
void pack_overlay(cf_pack *pk, const char *rel, const char *text, const char *display);
/* Names (without ".json") of the files <dir>/NAME.json in any pack, each once;
 * fills names[0..max-1] (strings in the pack's arena) and returns the count (may exceed max). */
int pack_list(cf_pack *pk, const char *dir, const char **names, int max);
/* the same for the folders <dir>/NAME/ (namespaces: pack_dirs(pk, "data", ...)) */
int pack_dirs(cf_pack *pk, const char *dir, const char **names, int max);
/* 1 when the packs hold Minecraft noise settings minecraft:overworld (a front-end that
 * answers the default request on its own files leaves such packs to Minecraft) */
int pack_has_overworld(cf_pack *pk);
/* A warning "file#/pointer: message" at `at`: to the pack's handler (or stderr) the first
 * time, once per file and fmt */
void pack_warn_at(cf_pack *pk, cf_loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1 and *value when type ("ns:path", or "path" for minecraft) of object o was given a constant
 * by pack_define (TYPE[FIELD=TEXT] when o's FIELD is TEXT, else TYPE), else 0 */
int pack_defined(const cf_pack *pk, const char *type, const struct cJSON *o, double *value);
/* cf_fields.warn for unknown keys in CF_UNKNOWN_WARN mode (ctx: the cf_pack) */
void pack_unknown_key(void *ctx, const char *line);
/* 1 for the default request: settings minecraft:overworld, every function router:final_density */
int request_is_default(const char *settings_id, const char *const *functions, int n);
int pack_read(cf_pack *pk, const char *kind, const char *ns, const char *path,
              char **text, size_t *len, const char **display, cf_error *err);

/* archive.c: a pack in a zip archive (.zip, .jar; a server jar's nested jar). archive_open
 * checks the whole archive against the limits of hostile archives (archive.c) and finds
 * the pack root: 0, or -1 with err set. archive_read is pack_read_rel's step for one
 * archive (display path in arena ar; files over max bytes refused): 1, 0 when absent, -1.
 * archive_list calls add(ctx, NAME, len) for every <dir>/NAME.json. */
struct cf_archive;
int archive_open(struct cf_archive **out, const char *path, cf_error *err);
int archive_read(struct cf_archive *a, cf_arena *ar, const char *rel, size_t max, char **text, size_t *len, const char **display,
                 cf_error *err);
int archive_list(struct cf_archive *a, const char *dir, void (*add)(void *ctx, const char *name, size_t len), void *ctx);
int archive_dirs(struct cf_archive *a, const char *dir, void (*add)(void *ctx, const char *name, size_t len), void *ctx); /* <dir>/NAME/ */
void archive_close(struct cf_archive *a);

/* the embedded default pack (generated at build time from packs/default) */
struct cf_embedded_file;
typedef struct cf_embedded_file {
    const char *path; /* "data/minecraft/worldgen/noise_settings/overworld.json" */
    const unsigned char *data;
    size_t len;
} cf_embedded_file;
extern const cf_embedded_file cf_default_pack[];
extern const size_t cf_default_pack_count;

/* json.c: reads and parses the pack file at rel with the JSON checks of every
 * front-end (size, UTF-8, NUL, value count, duplicate keys). Returns 1 with *root
 * (the caller deletes it) and *display (in arena a); 0 when absent; -1 on error. */
int json_load_rel(cf_arena *a, cf_pack *pk, const char *rel, struct cJSON **root, const char **display, cf_error *err);
/* the same from pack i only (pack_read_rel_in) */
int json_load_rel_in(cf_arena *a, cf_pack *pk, int i, const char *rel, struct cJSON **root, const char **display, cf_error *err);

/* tags.c: the biomes of biome tag `tag` ("ns:path" or "path", without '#'; referenced at `at`)
 * as the game merges it over the packs (tags.c), distinct ids in order of first appearance,
 * *out and the ids in arena a (locations too). exists(ctx, "ns:path") says whether a biome
 * exists (1, 0, or -1 with err set); NULL: every biome does (a rule's id of no biome selects
 * nothing). Returns the count (0 for an empty tag: the game accepts one), or -1 after one
 * located error line. */
/* "ns:path" or "path" (namespace minecraft) -> ns, path; -1 when it is not a resource location
 * ([a-z0-9_.-] namespace, [a-z0-9_.-/] path, no "..") (tags.c) */
int res_split(const char *id, char ns[128], char path[384]);
int tag_biomes(cf_arena *a, cf_pack *pk, const char *tag, cf_loc at, int (*exists)(void *ctx, const char *id), void *ctx,
               const char ***out, cf_error *err);
/* the same for a structure tag (data/<ns>/tags/worldgen/structure/<path>.json; ids are not checked) */
int tag_structures(cf_arena *a, cf_pack *pk, const char *tag, cf_loc at, const char ***out, cf_error *err);


/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
/* cf_pack_open: */
cf_status pack_open(cf_pack **out, const char *const *paths, int npaths, const cf_limits *limits, cf_error *err);
void pack_free(cf_pack *pack);  /* cf_pack_free */
/* cf_pack_open_memory: */
cf_status pack_open_memory(cf_pack **out, const cf_memfile *files, size_t n, const cf_limits *limits, cf_error *err);
void pack_set_dialect(cf_pack *pack, int dialect);  /* cf_pack_set_dialect */
void pack_set_strict(cf_pack *pack, int strict);  /* cf_pack_set_strict */
void pack_set_warnings(cf_pack *pack, void (*fn)(void *ctx, const char *line), void *ctx);  /* cf_pack_set_warnings */
cf_status pack_define(cf_pack *pack, const char *type, double value, cf_error *err);  /* cf_pack_define */
cf_status pack_set_external(cf_pack *pk, const char *name, double value, cf_error *err);  /* cf_pack_set_external */
/* cf_pack_set_external_map: */
cf_status pack_set_external_map(cf_pack *pk, const char *name, int width, int height, double x0, double z0,
                                double step, const double *data, cf_error *err);


/* version.c: the data version of a game version chunkfill knows ("1.21.11" -> 4671), else 0 */
int game_version_data(const char *id);
/* cf_pack_game_version: */
const char *pack_game_version(cf_pack *pk, int *data_version, const char **from);
cf_status pack_set_game_version(cf_pack *pk, const char *version, cf_error *err);  /* cf_pack_set_game_version */

/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
void limits_default(cf_limits *l);  /* cf_limits_default */
const char *status_str(cf_status s);  /* cf_status_str */

#endif /* CF_BASE_H */
