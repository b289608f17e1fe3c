/* mcfiles.h - the data-pack files as both Minecraft front-ends read them (mc263/parse.c,
 * mc121/mc121.c): resource ids, the table of loaded files, references between density
 * functions (unresolved, cycles, depth), noise and settings files, and the --define hint
 * for a mod's own density function type. The dialects differ in what a file holds, not
 * in how files are found: that part lives here once.
 */
#ifndef CF_FRONTEND_MCFILES_H
#define CF_FRONTEND_MCFILES_H

#include <cjson/cJSON.h>

#include "frontend/frontend.h"

typedef struct mc_file {
    const char *kind;    /* "density_function", "noise", "noise_settings", ... (static) */
    const char *id;      /* "ns:path" (program arena) */
    const char *display; /* the path messages name */
    cJSON *root;         /* scratch: freed by mc_files_free */
    int state;           /* density functions: 0 loaded, 1 being parsed, 2 parsed */
    int node;            /* density functions: the node once parsed */
} mc_file;

typedef struct mc_files {
    cf_program *p;
    cf_pack *pk;
    cf_fields *f; /* errors go through the front-end's field reader */
    mc_file *files;
    int nfiles, capfiles;
    const char **chain; /* ids of the density function files being parsed, outermost first */
    int nchain;
} mc_files;

/* 0, or -1 with the error set (out of memory) */
int mc_files_init(mc_files *m, cf_program *p, cf_pack *pk, cf_fields *f);
void mc_files_free(mc_files *m);

/* "ns:path" or "path" (namespace minecraft): lower-case [a-z0-9_.-], '/' in paths, no empty,
 * "." or ".." segment. 0, or -1 with a located error. */
int mc_split_id(const cf_fields *f, cf_loc at, const char *s, char ns[128], char path[384]);
/* the id s with its namespace, "ns:path", in the program arena; NULL with a located error */
const char *mc_full_id(mc_files *m, cf_loc at, const char *s);

/* data/<ns>/worldgen/<kind>/<path>.json,
 * loaded once. NULL with the error set on a real error, unset when no pack has the file. */
mc_file *mc_load(mc_files *m, const char *kind, const char *ns, const char *path);
/* the noise settings settings_id (given on the command line); NULL with the error set */
mc_file *mc_settings(mc_files *m, const char *settings_id);
/* the noise a field names (v: the id string). 0 with *existing >= 0 when the program has it
 * already, else *file (a new definition, an object, to read); -1 with a located error. */
int mc_noise_file(mc_files *m, const cJSON *v, cf_loc at, int *existing, mc_file **file);

/* A reference to a density function file: its node, parsing the file once with parse(ctx,
 * root, location of the root). Unresolved references, cycles (with the chain) and chains
 * deeper than the depth limit are located errors; returns -1 then. */
typedef int (*mc_parse_fn)(void *ctx, const cJSON *root, cf_loc at);
int mc_reference(mc_files *m, const char *id, cf_loc at, mc_parse_fn parse, void *ctx);

/* type names a mod's own density function type (a namespace other than minecraft): the
 * located error that says which --define gives it a constant (with the object's one string
 * field as a selector when it has one, as tectonic:config's "option"), -1. 0 otherwise. */
int mc_mod_type(const cf_fields *f, cf_loc ta, const char *type, const cJSON *o);

#endif
