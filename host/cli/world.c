/* world.c - a command's packs and world from its options: the packs opened with the
 * --external inputs (numbers, or 2-D .npy maps) and --define types, the program compiled,
 * the world bound to the seed; report() prints an error's one line. The caller frees what
 * was made (the cf_*_free functions take NULL).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

cf_status xerr(cf_error *e, cf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): clang-tidy 14's false report, va_start is above */
    va_end(ap);
    return e->status = st;
}

/* --external NAME=@MAP.npy[,X0,Z0[,STEP]]: a 2-D .npy (little-endian float64 or float32, C
 * order, shape (rows z, columns x)) as the external map NAME; errors name the file */
cf_status external_map(cf_pack *pk, const char *name, const char *spec, cf_error *err)
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

/* after a biome source was opened from packs of no known game version (no version.json, no
 * pack.mcmeta of a known format) and without --version: one line, once, saying what is
 * assumed and how to choose */
static void note_version(const opts *o, cf_pack *pk, const cf_biomes *b)
{
    static int said;
    if (said || o->quiet || o->npacks == 0 || cf_pack_game_version(pk, NULL, NULL) || !strstr(cf_biomes_describe(b), "1.18-1.21"))
        return; /* 26.3 data is 26.3's only */
    said = 1;
    fprintf(stderr, "chunkfill: note: the packs name no game version (no version.json or pack.mcmeta): taken as 26.3 for 26.3 data, "
                    "1.21.11 for 1.18-1.21 data; choose another with --version\n");
}

/* opens the packs and sets the --external inputs on them */
cf_status open_pack(const opts *o, cf_pack **pk, cf_error *err)
{
    cf_status st = cf_pack_open(pk, o->packs, o->npacks, &o->lim, err);
    if (st == CF_OK) cf_pack_set_dialect(*pk, o->dialect), cf_pack_set_strict(*pk, o->strict);
    if (st == CF_OK && o->version) st = cf_pack_set_game_version(*pk, o->version, err);
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
 * caller frees what was made with close_world (cw starts as {0}). */
cf_status open_world(const opts *o, int blocks, int nfn, cli_world *cw, cf_error *err)
{
    if (cf_seed_parse(o->seed, &cw->seed, err) != CF_OK || open_pack(o, &cw->pk, err) != CF_OK) return err->status;
    const char *settings = o->settings;
    char dimset[512];
    if (o->dimension) { /* the dimension's noise settings (its file names them) */
        cf_biomes *b = NULL;
        if (cf_biomes_open(&b, cw->pk, o->dimension, NULL, NULL, cw->seed, err) != CF_OK) return err->status;
        snprintf(dimset, sizeof dimset, "%s", cf_biomes_settings(b));
        cf_biomes_free(b);
        settings = dimset;
    }
    if ((blocks ? cf_program_compile_blocks(&cw->pg, cw->pk, settings, err)
                : cf_program_compile(&cw->pg, cw->pk, settings, o->functions, nfn, err))
        != CF_OK)
        return err->status;
    return cf_world_new(&cw->w, cw->pg, cw->seed, err);
}

void close_world(cli_world *cw)
{
    cf_device_free(cw->dev);
    cf_world_free(cw->w);
    cf_program_free(cw->pg);
    cf_pack_free(cw->pk);
    *cw = (cli_world){0};
}

int settings_or_dimension(opts *o, const char *usage)
{
    if (o->settings && o->dimension) return die_usage("give --settings or --dimension, not both", usage);
    if (!o->settings && !o->dimension) o->settings = "minecraft:overworld";
    return -1;
}

int report(const cf_error *e)
{
    fprintf(stderr, "%s\n", e->message[0] ? e->message : cf_status_str(e->status));
    return 1;
}

/* the biome source of the packs (the dimension's, or of o->settings), in the packs' game
 * version (note_version when it is assumed) */
cf_status open_biomes(const opts *o, cf_pack *pk, const char *dimension, int64_t seed, cf_biomes **b, cf_error *err)
{
    if (cf_biomes_open(b, pk, dimension, o->settings, NULL, seed, err) != CF_OK) return err->status;
    note_version(o, pk, *b);
    return CF_OK;
}
