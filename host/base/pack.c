/* pack.c - data packs: folders on disk, zip archives (archive.c) and the embedded default pack.
 *
 * Input: the pack roots given to pack_open (later ones override earlier ones): folders,
 * or .zip/.jar files (any regular file is opened as a zip archive).
 * Output: the text of data/<ns>/worldgen/<kind>/<path>.json from the last pack
 * that has it. Files are refused by size before they are read, must be regular
 * files, and may not lead out of their pack through symlinks.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/base.h"

cf_status pack_open(cf_pack **out, const char *const *paths, int npaths,
                       const cf_limits *limits, cf_error *err)
{
    *out = NULL;
    if (npaths < 0 || (npaths > 0 && !paths))
        return err_set(err, CF_ERR_ARG, "cf_pack_open: bad path list");
    cf_pack *pk = calloc(1, sizeof *pk);
    if (!pk) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (limits) pk->lim = *limits;
    else limits_default(&pk->lim);
    pk->n = npaths ? npaths : 1;
    pk->roots = arena_alloc(&pk->arena, sizeof(char *) * (size_t)pk->n);
    pk->arcs = arena_alloc(&pk->arena, sizeof(struct cf_archive *) * (size_t)pk->n);
    if (!pk->roots || !pk->arcs) goto nomem;
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0)
            return pack_free(pk), err_set(err, CF_ERR_IO, "%s: cannot open pack: %s", paths[i], strerror(errno));
        if (S_ISREG(st.st_mode)) {
            if (archive_open(&pk->arcs[i], paths[i], err) < 0) return pack_free(pk), err->status;
            pk->roots[i] = arena_strdup(&pk->arena, paths[i]);
            if (!pk->roots[i]) goto nomem;
            continue;
        }
        if (!S_ISDIR(st.st_mode))
            return pack_free(pk),
                   err_set(err, CF_ERR_IO, "%s: a pack must be a folder holding data/<namespace>/worldgen/, or a .zip or .jar", paths[i]);
        char data[PATH_MAX], ln[PATH_MAX], hy[PATH_MAX], ir[PATH_MAX], ie[PATH_MAX], ii[PATH_MAX];
        snprintf(data, sizeof data, "%s/data", paths[i]);
        snprintf(ln, sizeof ln, "%s/libnoise", paths[i]);
        snprintf(hy, sizeof hy, "%s/hytale", paths[i]);
        snprintf(ir, sizeof ir, "%s/generators", paths[i]); /* an Iris pack (host/frontend/iris/iris.c) */
        snprintf(ie, sizeof ie, "%s/expressions", paths[i]); /* Iris expressions and images (frontend/iris) */
        snprintf(ii, sizeof ii, "%s/images", paths[i]);
        struct stat st2, st3, st4, st5, st6;
        if ((stat(data, &st) != 0 || !S_ISDIR(st.st_mode)) && (stat(ln, &st2) != 0 || !S_ISDIR(st2.st_mode))
            && (stat(hy, &st3) != 0 || !S_ISDIR(st3.st_mode)) && (stat(ir, &st4) != 0 || !S_ISDIR(st4.st_mode))
            && (stat(ie, &st5) != 0 || !S_ISDIR(st5.st_mode)) && (stat(ii, &st6) != 0 || !S_ISDIR(st6.st_mode)))
            return pack_free(pk),
                   err_set(err, CF_ERR_IO, "%s: not a data pack (no data/, libnoise/, hytale/, generators/, expressions/ or images/ folder)", paths[i]);
        pk->roots[i] = arena_strdup(&pk->arena, paths[i]);
        if (!pk->roots[i]) goto nomem;
    }
    *out = pk;
    return CF_OK;
nomem:
    pack_free(pk);
    return err_set(err, CF_ERR_NOMEM, "out of memory");
}

cf_status pack_open_memory(cf_pack **out, const cf_memfile *files, size_t n, const cf_limits *limits, cf_error *err)
{
    *out = NULL;
    if (n && !files) return err_set(err, CF_ERR_ARG, "cf_pack_open_memory: no files");
    cf_pack *pk = calloc(1, sizeof *pk);
    if (!pk) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (limits) pk->lim = *limits;
    else limits_default(&pk->lim);
    pk->n = 1;
    pk->roots = arena_alloc(&pk->arena, sizeof(char *));
    cf_embedded_file *m = arena_alloc(&pk->arena, sizeof *m * (n ? n : 1));
    if (!pk->roots || !m) {
        pack_free(pk);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        char *path = arena_strdup(&pk->arena, files[i].path ? files[i].path : "");
        unsigned char *data = arena_alloc(&pk->arena, files[i].len + 1);
        if (!path || !data) {
            pack_free(pk);
            return err_set(err, CF_ERR_NOMEM, "out of memory");
        }
        if (files[i].len) memcpy(data, files[i].data, files[i].len);
        m[i] = (cf_embedded_file){path, data, files[i].len};
    }
    pk->mem = m;
    pk->nmem = n;
    *out = pk;
    return CF_OK;
}

/* the slot of external `name` (a new one when absent), or -1 with err set */
static int ext_slot(cf_pack *pk, const char *name, cf_error *err)
{
    for (int i = 0; i < pk->next; i++)
        if (strcmp(pk->ext_names[i], name) == 0) return i;
    if (pk->next >= 1024) return err_set(err, CF_ERR_LIMIT, "more than 1024 external inputs"), -1;
    const char **names = arena_alloc(&pk->arena, sizeof(char *) * (size_t)(pk->next + 1));
    double *values = arena_alloc(&pk->arena, sizeof(double) * (size_t)(pk->next + 1));
    cf_extmap *maps = arena_alloc(&pk->arena, sizeof(cf_extmap) * (size_t)(pk->next + 1));
    char *copy = arena_strdup(&pk->arena, name);
    if (!names || !values || !maps || !copy) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < pk->next; i++) names[i] = pk->ext_names[i], values[i] = pk->ext_values[i], maps[i] = pk->ext_maps[i];
    names[pk->next] = copy, values[pk->next] = 0, memset(&maps[pk->next], 0, sizeof *maps);
    pk->ext_names = names, pk->ext_values = values, pk->ext_maps = maps;
    return pk->next++;
}

cf_status pack_set_external(cf_pack *pk, const char *name, double value, cf_error *err)
{
    if (!pk || !name || !*name || !isfinite(value)) return err_set(err, CF_ERR_ARG, "cf_pack_set_external: bad arguments");
    int i = ext_slot(pk, name, err);
    if (i < 0) return err->status;
    pk->ext_values[i] = value;
    memset(&pk->ext_maps[i], 0, sizeof pk->ext_maps[i]);
    return CF_OK;
}

#define CF_MAX_MAP_SAMPLES (1 << 24)
cf_status pack_set_external_map(cf_pack *pk, const char *name, int width, int height, double x0, double z0, double step,
                                   const double *data, cf_error *err)
{
    if (!pk || !name || !*name || !data) return err_set(err, CF_ERR_ARG, "cf_pack_set_external_map: bad arguments");
    if (width < 1 || height < 1 || (int64_t)width * height > CF_MAX_MAP_SAMPLES)
        return err_set(err, CF_ERR_ARG, "external map \"%s\": %d x %d samples (each side >= 1, at most %d in all)", name, width, height,
                       CF_MAX_MAP_SAMPLES);
    if (!isfinite(x0) || !isfinite(z0) || !(step > 0) || !isfinite(step))
        return err_set(err, CF_ERR_ARG, "external map \"%s\": origin (%g, %g) and step %g (finite, step > 0)", name, x0, z0, step);
    size_t n = (size_t)width * (size_t)height;
    for (size_t k = 0; k < n; k++)
        if (!isfinite(data[k]))
            return err_set(err, CF_ERR_ARG, "external map \"%s\": sample %zu (x %zu, z %zu) is not finite", name, k, k % (size_t)width,
                           k / (size_t)width);
    double *copy = arena_alloc(&pk->arena, sizeof(double) * n);
    if (!copy) return err_set(err, CF_ERR_NOMEM, "out of memory");
    memcpy(copy, data, sizeof(double) * n);
    int i = ext_slot(pk, name, err);
    if (i < 0) return err->status;
    pk->ext_values[i] = 0;
    pk->ext_maps[i] = (cf_extmap){width, height, x0, z0, step, copy};
    return CF_OK;
}

void pack_free(cf_pack *pk)
{
    if (!pk) return;
    for (int i = 0; pk->arcs && i < pk->n; i++) archive_close(pk->arcs[i]);
    arena_free(&pk->arena);
    free(pk);
}

void pack_set_dialect(cf_pack *pk, int dialect)
{
    if (pk) pk->dialect = dialect == CF_DIALECT_MC263 || dialect == CF_DIALECT_MC121 ? dialect : CF_DIALECT_AUTO;
}

void pack_set_strict(cf_pack *pk, int strict)
{
    if (pk) pk->strict = strict != 0;
}

void pack_set_warnings(cf_pack *pk, void (*fn)(void *ctx, const char *line), void *ctx)
{
    if (pk) pk->warn = fn, pk->warn_ctx = ctx;
}

/* "ns:path" of a type name into buf ("minecraft:" when it has no namespace) */
static const char *type_id(const char *type, size_t n, char *buf, size_t size)
{
    snprintf(buf, size, "%s%.*s", memchr(type, ':', n) ? "" : "minecraft:", (int)n, type);
    return buf;
}

/* TYPE or TYPE[KEY=VALUE]: [a-z0-9_.-/] with one ':' in TYPE; KEY and VALUE of [A-Za-z0-9_.-/:] */
static int define_ok(const char *s, size_t *tlen, const char **key, size_t *klen, const char **val, size_t *vlen)
{
    const char *br = strchr(s, '[');
    size_t n = br ? (size_t)(br - s) : strlen(s);
    *tlen = n, *key = *val = NULL, *klen = *vlen = 0;
    if (n == 0 || n > 200 || s[0] == ':' || s[n - 1] == ':') return 0;
    int colons = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ':') colons++;
        else if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || strchr("_.-/", s[i]))) return 0;
    }
    if (colons > 1) return 0;
    if (!br) return 1;
    const char *eq = strchr(br, '='), *end = strchr(br, ']');
    if (!eq || !end || eq > end || end[1] || eq == br + 1 || end == eq + 1) return 0;
    for (const char *q = br + 1; q < end; q++)
        if (q != eq && !((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || strchr("_.-/:", *q)))
            return 0;
    *key = br + 1, *klen = (size_t)(eq - br - 1), *val = eq + 1, *vlen = (size_t)(end - eq - 1);
    return 1;
}

cf_status pack_define(cf_pack *pk, const char *type, double value, cf_error *err)
{
    if (!pk || !type) return err_set(err, CF_ERR_ARG, "cf_pack_define: bad arguments");
    size_t tlen, klen, vlen;
    const char *key, *val;
    if (!define_ok(type, &tlen, &key, &klen, &val, &vlen))
        return err_set(err, CF_ERR_ARG, "--define %s: expected a density function type, namespace:path in [a-z0-9_.-/], optionally "
                       "followed by [FIELD=TEXT] to give only the objects whose FIELD is TEXT", type);
    if (!isfinite(value)) return err_set(err, CF_ERR_ARG, "--define %s: the value is not a finite number", type);
    char id[512];
    type_id(type, tlen, id, sizeof id);
    if (key) snprintf(id + strlen(id), sizeof id - strlen(id), "[%.*s=%.*s]", (int)klen, key, (int)vlen, val);
    for (int i = 0; i < pk->ndefs; i++)
        if (strcmp(pk->def_types[i], id) == 0) return pk->def_values[i] = value, CF_OK;
    if (pk->ndefs >= 1024) return err_set(err, CF_ERR_LIMIT, "more than 1024 defined density function types");
    const char **t = arena_alloc(&pk->arena, sizeof(char *) * (size_t)(pk->ndefs + 1));
    double *v = arena_alloc(&pk->arena, sizeof(double) * (size_t)(pk->ndefs + 1));
    char *copy = arena_strdup(&pk->arena, id);
    if (!t || !v || !copy) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (int i = 0; i < pk->ndefs; i++) t[i] = pk->def_types[i], v[i] = pk->def_values[i];
    t[pk->ndefs] = copy, v[pk->ndefs] = value;
    pk->def_types = t, pk->def_values = v, pk->ndefs++;
    return CF_OK;
}

int pack_defined(const cf_pack *pk, const char *type, const cJSON *o, double *value)
{
    char id[512];
    type_id(type, strlen(type), id, sizeof id);
    size_t n = strlen(id);
    int found = 0;
    for (int i = 0; i < pk->ndefs; i++) {
        const char *d = pk->def_types[i];
        if (strncmp(d, id, n) != 0) continue;
        if (d[n] == 0) {
            if (!found) *value = pk->def_values[i], found = 1; /* a selector's match wins */
        } else if (d[n] == '[' && cJSON_IsObject(o)) {
            const char *eq = strchr(d + n, '=');
            char key[256];
            snprintf(key, sizeof key, "%.*s", (int)(eq - d - n - 1), d + n + 1);
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, key);
            size_t vl = strlen(eq + 1) - 1;
            if (cJSON_IsString(f) && strlen(f->valuestring) == vl && memcmp(f->valuestring, eq + 1, vl) == 0)
                return *value = pk->def_values[i], 1;
        }
    }
    return found;
}

/* A warning: the line goes to the pack's handler (or stderr) the first time key (the file's
 * display path, with the kind of warning) is warned about, and is dropped after. */
static void pack_warn(cf_pack *pk, const char *file, const char *line)
{
    for (int i = 0; i < pk->nwarned; i++)
        if (strcmp(pk->warned[i], file) == 0) return;
    if (pk->nwarned == pk->capwarned) {
        int cap = pk->capwarned ? 2 * pk->capwarned : 16;
        const char **w = arena_alloc(&pk->arena, sizeof(char *) * (size_t)cap);
        if (w) {
            if (pk->nwarned) memcpy(w, pk->warned, sizeof(char *) * (size_t)pk->nwarned);
            pk->warned = w, pk->capwarned = cap;
        }
    }
    const char *copy = pk->nwarned < pk->capwarned ? arena_strdup(&pk->arena, file) : NULL;
    if (copy) pk->warned[pk->nwarned++] = copy;
    if (pk->warn) pk->warn(pk->warn_ctx, line);
    else fprintf(stderr, "warning: %s\n", line);
}

static int read_embedded(cf_pack *pk, const char *rel, char **text, size_t *len,
                         const char **display, cf_error *err)
{
    const cf_embedded_file *files = pk->mem ? pk->mem : cf_default_pack;
    size_t n = pk->mem ? pk->nmem : cf_default_pack_count;
    for (size_t i = 0; i < n; i++) {
        if (!files[i].path || strcmp(files[i].path, rel) != 0) continue;
        if (files[i].len > pk->lim.max_file_bytes) {
            err_set(err, CF_ERR_LIMIT, "<%s>/%s#: file is %zu bytes, over the limit of %zu bytes (--max-file-bytes, cf_limits.max_file_bytes)", pk->mem ? "memory" : "default",
                    rel, files[i].len, pk->lim.max_file_bytes);
            return -1;
        }
        char *t = malloc(files[i].len + 1);
        *display = arena_printf(&pk->arena, "<%s>/%s", pk->mem ? "memory" : "default", rel);
        if (!t || !*display) {
            free(t);
            err_set(err, CF_ERR_NOMEM, "out of memory");
            return -1;
        }
        memcpy(t, files[i].data, files[i].len);
        t[files[i].len] = 0;
        *text = t;
        *len = files[i].len;
        return 1;
    }
    return 0;
}

static int read_folder(cf_pack *pk, const char *root, const char *rel, char **text, size_t *len,
                       const char **display, cf_error *err)
{
    char full[PATH_MAX];
    if ((size_t)snprintf(full, sizeof full, "%s/%s", root, rel) >= sizeof full) return 0;
    struct stat st;
    if (stat(full, &st) != 0) {
        /* missing: not in this pack. A name that is there but cannot be followed (a
         * symlink loop, a link to nothing, no permission) is an error, not a missing file */
        int e = errno;
        struct stat lst;
        if ((e == ENOENT || e == ENOTDIR) && lstat(full, &lst) != 0) return 0;
        const char *d = arena_strdup(&pk->arena, full);
        if (!d) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
        if (e == ENOENT) err_set(err, CF_ERR_IO, "%s#: a symbolic link to a file that does not exist", d);
        else err_set(err, CF_ERR_IO, "%s#: cannot read: %s", d, strerror(e));
        return -1;
    }
    const char *disp = arena_strdup(&pk->arena, full);
    if (!disp) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    if (!S_ISREG(st.st_mode)) {
        err_set(err, CF_ERR_IO, "%s#: not a regular file", disp);
        return -1;
    }
    /* a symlink may not lead out of its pack */
    char rroot[PATH_MAX], rfile[PATH_MAX];
    if (!realpath(root, rroot) || !realpath(full, rfile)) {
        err_set(err, CF_ERR_IO, "%s#: cannot resolve path: %s", disp, strerror(errno));
        return -1;
    }
    size_t rl = strlen(rroot);
    if (strncmp(rroot, rfile, rl) != 0 || (rfile[rl] != '/' && rfile[rl] != 0)) {
        err_set(err, CF_ERR_IO, "%s#: leads out of its pack (to %s)", disp, rfile);
        return -1;
    }
    /* open without blocking (a FIFO swapped in after the stat above must not hang
     * us) and check the file we hold, not the name */
    int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        err_set(err, CF_ERR_IO, "%s#: cannot read: %s", disp, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        err_set(err, CF_ERR_IO, "%s#: not a regular file", disp);
        return -1;
    }
    if ((uint64_t)st.st_size > (uint64_t)pk->lim.max_file_bytes) {
        close(fd);
        err_set(err, CF_ERR_LIMIT, "%s#: file is %lld bytes, over the limit of %zu bytes (--max-file-bytes, cf_limits.max_file_bytes)", disp,
                (long long)st.st_size, pk->lim.max_file_bytes);
        return -1;
    }
    size_t n = (size_t)st.st_size;
    char *t = malloc(n + 1);
    if (!t) {
        close(fd);
        err_set(err, CF_ERR_NOMEM, "%s#: out of memory", disp);
        return -1;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, t + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (got != n) {
        free(t);
        err_set(err, CF_ERR_IO, "%s#: read error (the file changed while it was read?)", disp);
        return -1;
    }
    t[n] = 0;
    *text = t;
    *len = n;
    *display = disp;
    return 1;
}

int pack_read(cf_pack *pk, const char *kind, const char *ns, const char *path,
              char **text, size_t *len, const char **display, cf_error *err)
{
    char rel[PATH_MAX];
    if ((size_t)snprintf(rel, sizeof rel, "data/%s/worldgen/%s/%s.json", ns, kind, path) >= sizeof rel)
        return 0;
    return pack_read_rel(pk, rel, text, len, display, err);
}

int pack_read_rel_in(cf_pack *pk, int i, const char *rel, char **text, size_t *len, const char **display, cf_error *err)
{
    if (i < 0 || i >= pk->n) return 0;
    return pk->arcs && pk->arcs[i] ? archive_read(pk->arcs[i], &pk->arena, rel, pk->lim.max_file_bytes, text, len, display, err)
           : pk->roots[i]          ? read_folder(pk, pk->roots[i], rel, text, len, display, err)
                                   : read_embedded(pk, rel, text, len, display, err);
}

void pack_overlay(cf_pack *pk, const char *rel, const char *text, const char *display)
{
    pk->ov_rel = rel, pk->ov_text = text, pk->ov_display = display;
}

int pack_read_rel(cf_pack *pk, const char *rel, char **text, size_t *len, const char **display, cf_error *err)
{
    if (pk->ov_rel && strcmp(rel, pk->ov_rel) == 0) {
        size_t n = strlen(pk->ov_text);
        char *t = malloc(n + 1);
        if (!t) return err_set(err, CF_ERR_NOMEM, "%s#: out of memory", pk->ov_display), -1;
        memcpy(t, pk->ov_text, n + 1);
        *text = t, *len = n, *display = pk->ov_display;
        return 1;
    }
    for (int i = pk->n - 1; i >= 0; i--) {
        int r = pack_read_rel_in(pk, i, rel, text, len, display, err);
        if (r != 0) return r;
    }
    return 0;
}

/* a name of <dir>/NAME.json, NAME without '/', once */
static int list_add(cf_pack *pk, const char *name, size_t nlen, const char **names, int n, int max)
{
    if (nlen == 0 || memchr(name, '/', nlen)) return n;
    for (int i = 0; i < n && i < max; i++) /* past max, names[] holds no more (the count may exceed max) */
        if (strlen(names[i]) == nlen && memcmp(names[i], name, nlen) == 0) return n;
    if (n >= max) return n + 1;
    char *c = arena_alloc(&pk->arena, nlen + 1);
    if (!c) return n;
    memcpy(c, name, nlen);
    names[n] = c;
    return n + 1;
}

typedef struct list_ctx {
    cf_pack *pk;
    const char **names;
    int n, max;
} list_ctx;
static void list_add_ctx(void *ctx, const char *name, size_t len)
{
    list_ctx *c = ctx;
    c->n = list_add(c->pk, name, len, c->names, c->n, c->max);
}

/* the names under dir in every pack: the .json files (without ".json"), or with dirs the
 * folders; the later packs' new names after the earlier ones' */
static int pack_walk(cf_pack *pk, const char *dir, int dirs, const char **names, int max)
{
    int n = 0;
    size_t dl = strlen(dir);
    for (int i = 0; i < pk->n; i++) {
        if (pk->arcs && pk->arcs[i]) {
            list_ctx c = {pk, names, n, max};
            (dirs ? archive_dirs : archive_list)(pk->arcs[i], dir, list_add_ctx, &c);
            n = c.n;
            continue;
        }
        if (!pk->roots[i]) {
            const cf_embedded_file *files = pk->mem ? pk->mem : cf_default_pack;
            size_t nf = pk->mem ? pk->nmem : cf_default_pack_count;
            for (size_t k = 0; k < nf; k++) {
                const char *p = files[k].path, *slash;
                if (!p || strncmp(p, dir, dl) != 0 || p[dl] != '/') continue;
                size_t l = strlen(p + dl + 1);
                if (dirs && (slash = strchr(p + dl + 1, '/')))
                    n = list_add(pk, p + dl + 1, (size_t)(slash - (p + dl + 1)), names, n, max);
                else if (!dirs && l > 5 && strcmp(p + dl + 1 + l - 5, ".json") == 0)
                    n = list_add(pk, p + dl + 1, l - 5, names, n, max);
            }
            continue;
        }
        char full[PATH_MAX];
        if ((size_t)snprintf(full, sizeof full, "%s/%s", pk->roots[i], dir) >= sizeof full) continue;
        DIR *d = opendir(full);
        if (!d) continue;
        for (struct dirent *e; (e = readdir(d));) {
            size_t l = strlen(e->d_name);
            if (e->d_name[0] == '.') continue;
            if (dirs) {
                char sub[PATH_MAX];
                struct stat st;
                if ((size_t)snprintf(sub, sizeof sub, "%s/%s", full, e->d_name) < sizeof sub && stat(sub, &st) == 0
                    && S_ISDIR(st.st_mode))
                    n = list_add(pk, e->d_name, l, names, n, max);
            } else if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0) {
                n = list_add(pk, e->d_name, l - 5, names, n, max);
            }
        }
        closedir(d);
    }
    return n;
}

int pack_list(cf_pack *pk, const char *dir, const char **names, int max) { return pack_walk(pk, dir, 0, names, max); }

int pack_dirs(cf_pack *pk, const char *dir, const char **names, int max) { return pack_walk(pk, dir, 1, names, max); }

int pack_has_overworld(cf_pack *pk)
{
    char *text = NULL;
    size_t len;
    const char *disp;
    cf_error e = {0};
    int r = pack_read(pk, "noise_settings", "minecraft", "overworld", &text, &len, &disp, &e);
    free(text);
    return r != 0;
}

int request_is_default(const char *settings_id, const char *const *functions, int n)
{
    if (!settings_id || strcmp(settings_id, "minecraft:overworld") != 0) return 0;
    for (int i = 0; i < n; i++)
        if (!functions[i] || strcmp(functions[i], "router:final_density") != 0) return 0;
    return 1;
}

void pack_warn_at(cf_pack *pk, cf_loc at, const char *fmt, ...)
{
    char line[1024], ptr[320];
    int n = snprintf(line, sizeof line, "%s#%s: ", at.file, ptr_text(at.ptr, ptr, sizeof ptr));
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof line) vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    char key[1024]; /* once per file and kind of warning */
    snprintf(key, sizeof key, "%s#%s", at.file, fmt);
    pack_warn(pk, key, line);
}

void pack_unknown_key(void *ctx, const char *line)
{
    /* fields.c's line, "file#/ptr: unknown key "k" for ...", as "file#/ptr: unknown key "k" ignored" */
    char out[1024], file[512];
    const char *hash = strchr(line, '#'), *k = strstr(line, ": unknown key \"");
    const char *q = k ? strchr(k + 15, '"') : NULL;
    if (!hash || !q) return pack_warn(ctx, line, line);
    snprintf(file, sizeof file, "%.*s", (int)(hash - line), line);
    snprintf(out, sizeof out, "%.*s ignored, as the game does (--strict refuses it)", (int)(q + 1 - line), line);
    pack_warn(ctx, file, out);
}
