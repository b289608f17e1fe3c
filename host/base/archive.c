/* archive.c - packs in zip archives: data pack .zip files, mod .jar files, the game's
 * client .jar (data/ at its root) and its server .jar (a bundler: the real server jar
 * lies under META-INF/versions/<id>/ and is read from memory).
 *
 * Input: the path of an archive given to cf_pack_open. Output: behind pack_read_rel and
 * pack_list (pack.c), the files under the archive's pack root: the root of the archive, or
 * its single top folder, when data/ (or pack.mcmeta, or another front-end's folder) is there.
 *
 * Hostile archives are refused when they are opened, each with one line naming the
 * archive and the entry: more than CF_MAX_ARCHIVE_ENTRIES entries, an entry declared larger
 * than CF_MAX_ARCHIVE_ENTRY_BYTES, all entries together larger than
 * CF_MAX_ARCHIVE_TOTAL_BYTES, a compression ratio over CF_MAX_ARCHIVE_RATIO (zip bombs),
 * names with "..", absolute names, duplicate names, encrypted entries, compression methods
 * libzip cannot read, a nested jar that is not a readable archive. Reads never trust the
 * declared sizes: an entry that inflates past its declared size is refused, so memory is
 * bounded by the limits above whatever the archive holds.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "base/base.h"

#define CF_MAX_ARCHIVE_ENTRIES 65536                  /* a client jar holds ~20,000 */
#define CF_MAX_ARCHIVE_ENTRY_BYTES (256u << 20)       /* declared size of one entry */
#define CF_MAX_ARCHIVE_TOTAL_BYTES ((uint64_t)2 << 30) /* declared sizes of all entries */
#define CF_MAX_ARCHIVE_RATIO 200                      /* uncompressed : compressed, past 1 MiB */

typedef struct arc_entry {
    char *name;          /* relative to the pack root */
    zip_uint64_t index;  /* in za */
    uint64_t size;       /* declared uncompressed size */
} arc_entry;

struct cf_archive {
    zip_t *za;           /* the archive that holds the pack (the nested jar of a bundler) */
    char *display;       /* "pack.zip!/" or "server.jar!/META-INF/versions/v/server.jar!/", with the root */
    arc_entry *ents;     /* sorted by name */
    size_t n;
    pthread_mutex_t mu;  /* a zip_t is not thread-safe */
};

/* the folders (and file) that make a pack root: pack.c's cf_pack_open takes the same */
static const char *const root_markers[] = {"data/", "pack.mcmeta", "libnoise/", "hytale/", "generators/", "expressions/", "images/"};

static int has_marker(const char *name, size_t skip)
{
    for (size_t k = 0; k < sizeof root_markers / sizeof *root_markers; k++) {
        size_t l = strlen(root_markers[k]);
        if (strlen(name) >= skip + l && strncmp(name + skip, root_markers[k], l) == 0
            && (root_markers[k][l - 1] == '/' || name[skip + l] == 0))
            return 1;
    }
    return 0;
}

/* a name that could lead out of a folder it was extracted to, or break a message line */
static const char *bad_name(const char *s)
{
    if (!*s) return "an empty name";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return "a name with a control character (shown as '?')";
    if (s[0] == '/' || s[0] == '\\' || (s[0] && s[1] == ':')) return "an absolute name (it could lead out of the pack)";
    for (const char *p = s; *p;) {
        size_t l = strcspn(p, "/\\");
        if (l == 2 && p[0] == '.' && p[1] == '.') return "a name with a '..' component (it could lead out of the pack)";
        p += l;
        if (*p) p++;
    }
    return NULL;
}

/* an entry name for a message: at most 300 bytes, control characters as '?' (one line) */
static const char *shown(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    for (; name[k] && k + 1 < n && k < 300; k++) {
        unsigned char c = (unsigned char)name[k];
        buf[k] = name[k];
        if (c < 0x20 || c == 0x7f) buf[k] = '?';
    }
    buf[k] = 0;
    return buf;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const arc_entry *)a)->name, ((const arc_entry *)b)->name);
}

static void free_entries(arc_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) free(e[i].name);
    free(e);
}

/* reads entry i (declared size `size`, at most `max` bytes) into a malloc'd buffer with a
 * NUL after it; 0, or -1 with err set (located at `where`) */
static int read_entry(zip_t *za, zip_uint64_t i, uint64_t size, uint64_t max, const char *where, char **out, cf_error *err)
{
    *out = NULL;
    if (size > max)
        return err_set(err, CF_ERR_LIMIT, "%s#: file is %llu bytes, over the limit of %llu bytes", where, (unsigned long long)size,
                       (unsigned long long)max),
               -1;
    zip_file_t *zf = zip_fopen_index(za, i, 0);
    if (!zf) return err_set(err, CF_ERR_IO, "%s#: cannot read: %s", where, zip_strerror(za)), -1;
    char *buf = malloc((size_t)size + 2);
    if (!buf) {
        zip_fclose(zf);
        return err_set(err, CF_ERR_NOMEM, "%s#: out of memory", where), -1;
    }
    uint64_t got = 0;
    for (;;) {
        /* one byte more than declared: an entry that inflates past its size is caught here */
        zip_int64_t r = zip_fread(zf, buf + got, size + 1 - got);
        if (r < 0) {
            err_set(err, CF_ERR_IO, "%s#: corrupt entry: %s", where, zip_file_strerror(zf));
            zip_fclose(zf);
            free(buf);
            return -1;
        }
        if (r == 0) break;
        got += (uint64_t)r;
        if (got > size) {
            err_set(err, CF_ERR_LIMIT, "%s#: inflates past its declared size of %llu bytes", where, (unsigned long long)size);
            zip_fclose(zf);
            free(buf);
            return -1;
        }
    }
    zip_fclose(zf);
    if (got != size) {
        free(buf);
        return err_set(err, CF_ERR_IO, "%s#: truncated (%llu of %llu bytes)", where, (unsigned long long)got, (unsigned long long)size), -1;
    }
    buf[got] = 0;
    *out = buf;
    return 0;
}

/* checks every entry of za (display name `disp`, "x.zip") and indexes the files under its
 * pack root into a. Returns 0; 1 when za has no pack root but a bundler's nested jar
 * (*nested: its index); -1 with err set. */
static int scan(struct cf_archive *a, zip_t *za, const char *disp, zip_uint64_t *nested, cf_error *err)
{
    zip_int64_t n = zip_get_num_entries(za, 0);
    if (n < 0) return err_set(err, CF_ERR_IO, "%s: cannot read the archive's directory", disp), -1;
    if (n > CF_MAX_ARCHIVE_ENTRIES)
        return err_set(err, CF_ERR_LIMIT, "%s: %lld entries, over the limit of %d", disp, (long long)n, CF_MAX_ARCHIVE_ENTRIES), -1;
    arc_entry *e = calloc((size_t)n + 1, sizeof *e);
    if (!e) return err_set(err, CF_ERR_NOMEM, "%s: out of memory", disp), -1;
    uint64_t total = 0;
    size_t ne = 0;
    int root_here = 0, njars = 0;
    zip_uint64_t jar = 0;
    const char *top = NULL;
    size_t toplen = 0;
    int one_top = 1;
    for (zip_int64_t i = 0; i < n; i++) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME)) {
            err_set(err, CF_ERR_IO, "%s: entry %lld: cannot read its header: %s", disp, (long long)i, zip_strerror(za));
            goto fail;
        }
        const char *name = st.name, *why = bad_name(name);
        char nb[304];
        const char *sn = shown(name, nb, sizeof nb);
        if (why) {
            err_set(err, CF_ERR_IO, "%s!/%s#: %s (refused)", disp, sn, why);
            goto fail;
        }
        if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE) {
            err_set(err, CF_ERR_IO, "%s!/%s#: an encrypted entry (encrypted archives are not supported)", disp, sn);
            goto fail;
        }
        if ((st.valid & ZIP_STAT_COMP_METHOD) && !zip_compression_method_supported((zip_int32_t)st.comp_method, 0)) {
            err_set(err, CF_ERR_IO, "%s!/%s#: compression method %u is not supported (this libzip cannot read it)", disp, sn,
                    (unsigned)st.comp_method);
            goto fail;
        }
        uint64_t size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0, csize = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
        if (size > CF_MAX_ARCHIVE_ENTRY_BYTES) {
            err_set(err, CF_ERR_LIMIT, "%s!/%s#: declares %llu bytes uncompressed, over the limit of %u bytes for one entry", disp,
                    sn, (unsigned long long)size, CF_MAX_ARCHIVE_ENTRY_BYTES);
            goto fail;
        }
        if (size > (1u << 20) && size / (csize ? csize : 1) > CF_MAX_ARCHIVE_RATIO) {
            err_set(err, CF_ERR_LIMIT, "%s!/%s#: compression ratio %llu:1 (%llu bytes from %llu), over the limit of %d:1 (a zip bomb?)",
                    disp, sn, (unsigned long long)(size / (csize ? csize : 1)), (unsigned long long)size,
                    (unsigned long long)csize, CF_MAX_ARCHIVE_RATIO);
            goto fail;
        }
        total += size;
        if (total > CF_MAX_ARCHIVE_TOTAL_BYTES) {
            err_set(err, CF_ERR_LIMIT, "%s!/%s#: the entries up to this one declare %llu bytes uncompressed, over the limit of %llu",
                    disp, sn, (unsigned long long)total, (unsigned long long)CF_MAX_ARCHIVE_TOTAL_BYTES);
            goto fail;
        }
        if (has_marker(name, 0)) root_here = 1;
        size_t tl = strcspn(name, "/");
        if (strncmp(name, "__MACOSX/", 9) == 0) {
            /* macOS's resource forks beside the pack folder: not a second top folder */
        } else if (name[tl] && !top) top = name, toplen = tl;
        else if (!name[tl] || tl != toplen || strncmp(name, top, tl) != 0) one_top = 0; /* a file at the top, or another folder */
        size_t l = strlen(name);
        if (strncmp(name, "META-INF/versions/", 18) == 0 && l > 4 && strcmp(name + l - 4, ".jar") == 0) njars++, jar = (zip_uint64_t)i;
        e[ne].name = malloc(l + 1);
        if (!e[ne].name) {
            err_set(err, CF_ERR_NOMEM, "%s: out of memory", disp);
            goto fail;
        }
        memcpy(e[ne].name, name, l + 1);
        e[ne].index = (zip_uint64_t)i;
        e[ne].size = size;
        ne++;
    }
    qsort(e, ne, sizeof *e, cmp_name);
    char nb2[304];
    for (size_t i = 1; i < ne; i++)
        if (strcmp(e[i].name, e[i - 1].name) == 0) {
            err_set(err, CF_ERR_IO, "%s!/%s#: a duplicate name (two entries; which one is meant is ambiguous)", disp,
                    shown(e[i].name, nb2, sizeof nb2));
            goto fail;
        }
    /* the pack root: the archive's root, or its single top folder */
    size_t skip = 0;
    if (!root_here) {
        int found = 0;
        if (one_top && top)
            for (size_t i = 0; i < ne && !found; i++) found = has_marker(e[i].name, toplen + 1);
        if (found) {
            skip = toplen + 1;
        } else if (njars == 1 && nested) {
            free_entries(e, ne);
            *nested = jar;
            return 1;
        } else {
            err_set(err, CF_ERR_IO, "%s: not a data pack (no data/, pack.mcmeta, libnoise/, hytale/, generators/, expressions/ or "
                    "images/ at its root or in its single top folder%s)", disp,
                    njars > 1 ? "; several jars under META-INF/versions/" : "");
            goto fail;
        }
    }
    /* keep the files under the root, named relative to it */
    size_t k = 0;
    for (size_t i = 0; i < ne; i++) {
        size_t l = strlen(e[i].name);
        /* folders, and entries outside the top folder (__MACOSX/): dropped; stripping the
         * common prefix keeps the others sorted */
        if (l <= skip || e[i].name[l - 1] == '/' || (skip && strncmp(e[i].name, top, skip) != 0)) {
            free(e[i].name);
            continue;
        }
        if (skip) memmove(e[i].name, e[i].name + skip, l - skip + 1);
        e[k++] = e[i];
    }
    a->ents = e;
    a->n = k;
    a->display = malloc(strlen(disp) + skip + 4);
    if (!a->display) return err_set(err, CF_ERR_NOMEM, "%s: out of memory", disp), -1;
    sprintf(a->display, "%s!/%.*s", disp, (int)skip, top ? top : "");
    return 0;
fail:
    free_entries(e, ne);
    return -1;
}

/* the entry count the end of the central directory declares (zip64 included) in the last
 * n bytes tail of an archive, or -1 when not found: read before libzip parses the whole
 * directory, so that an archive of too many entries is refused at once */
static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; k--) v = v << 8 | p[k];
    return v;
}
static int64_t declared_entries(const unsigned char *tail, size_t n, uint64_t start)
{
    for (size_t i = n >= 22 ? n - 22 + 1 : 0; i-- > 0;) {
        const unsigned char *e = tail + i;
        if (memcmp(e, "PK\x05\x06", 4) != 0) continue;
        int64_t count = (int64_t)le(e + 10, 2);
        /* zip64: the locator just before the record gives the zip64 record's offset */
        if (count != 0xffff || i < 20 || memcmp(e - 20, "PK\x06\x07", 4) != 0) return count;
        uint64_t off = le(e - 20 + 8, 8);
        if (off < start || off - start + 40 > n || memcmp(tail + (off - start), "PK\x06\x06", 4) != 0) return count;
        uint64_t c64 = le(tail + (off - start) + 32, 8);
        return c64 > INT64_MAX ? INT64_MAX : (int64_t)c64;
    }
    return -1;
}
/* the same for the file at path */
static int64_t file_entries(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char tail[65536 + 22 + 20 + 56];
    long n = -1, size = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        size = ftell(f);
        long k = size < (long)sizeof tail ? size : (long)sizeof tail;
        if (size >= 0 && fseek(f, size - k, SEEK_SET) == 0 && fread(tail, 1, (size_t)k, f) == (size_t)k) n = k;
    }
    fclose(f);
    return n < 0 ? -1 : declared_entries(tail, (size_t)n, (uint64_t)(size - n));
}

void archive_close(struct cf_archive *a)
{
    if (!a) return;
    if (a->za) zip_discard(a->za);
    free_entries(a->ents, a->n);
    free(a->display);
    pthread_mutex_destroy(&a->mu);
    free(a);
}

static void open_failed(int code, const char *disp, cf_error *err)
{
    zip_error_t ze;
    zip_error_init_with_code(&ze, code);
    err_set(err, CF_ERR_IO, "%s: not a readable zip archive (%s)", disp, zip_error_strerror(&ze));
    zip_error_fini(&ze);
}

int archive_open(struct cf_archive **out, const char *path, cf_error *err)
{
    *out = NULL;
    struct cf_archive *a = calloc(1, sizeof *a);
    if (!a) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    pthread_mutex_init(&a->mu, NULL);
    int64_t declared = file_entries(path);
    if (declared > CF_MAX_ARCHIVE_ENTRIES) {
        err_set(err, CF_ERR_LIMIT, "%s: %lld entries, over the limit of %d", path, (long long)declared, CF_MAX_ARCHIVE_ENTRIES);
        archive_close(a);
        return -1;
    }
    int code = 0;
    zip_t *za = zip_open(path, ZIP_RDONLY, &code);
    if (!za) {
        open_failed(code, path, err);
        archive_close(a);
        return -1;
    }
    zip_uint64_t jar = 0;
    int r = scan(a, za, path, &jar, err);
    if (r < 0) {
        zip_discard(za);
        archive_close(a);
        return -1;
    }
    if (r == 0) {
        a->za = za;
        *out = a;
        return 0;
    }
    /* a bundler: the nested jar, read into memory (bounded by the entry limit) */
    const char *jname = zip_get_name(za, jar, 0);
    size_t dl = strlen(path) + strlen(jname ? jname : "?") + 4;
    char *disp = malloc(dl);
    char *buf = NULL;
    zip_stat_t st;
    if (!disp) {
        err_set(err, CF_ERR_NOMEM, "out of memory");
        goto fail;
    }
    snprintf(disp, dl, "%s!/%s", path, jname ? jname : "?");
    zip_stat_init(&st);
    if (zip_stat_index(za, jar, 0, &st) != 0) {
        err_set(err, CF_ERR_IO, "%s: cannot read its header", disp);
        goto fail;
    }
    if (read_entry(za, jar, st.size, CF_MAX_ARCHIVE_ENTRY_BYTES, disp, &buf, err) < 0) goto fail;
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(buf, st.size, 1, &ze);
    if (!src) {
        zip_error_fini(&ze);
        free(buf);
        err_set(err, CF_ERR_NOMEM, "%s: out of memory", disp);
        goto fail;
    }
    buf = NULL; /* the source owns it */
    zip_t *inner_za = zip_open_from_source(src, ZIP_RDONLY, &ze);
    if (!inner_za) {
        err_set(err, CF_ERR_IO, "%s: a corrupt nested jar: not a readable zip archive (%s)", disp, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        zip_source_free(src);
        goto fail;
    }
    zip_error_fini(&ze);
    if (scan(a, inner_za, disp, NULL, err) < 0) {
        zip_discard(inner_za);
        goto fail;
    }
    zip_discard(za);
    free(disp);
    a->za = inner_za;
    *out = a;
    return 0;
fail:
    free(buf);
    free(disp);
    zip_discard(za);
    archive_close(a);
    return -1;
}

int archive_read(struct cf_archive *a, cf_arena *ar, const char *rel, size_t max, char **text, size_t *len, const char **display,
                 cf_error *err)
{
    arc_entry key = {.name = (char *)rel};
    const arc_entry *e = bsearch(&key, a->ents, a->n, sizeof *a->ents, cmp_name);
    if (!e) return 0;
    const char *disp = arena_printf(ar, "%s%s", a->display, rel);
    if (!disp) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    pthread_mutex_lock(&a->mu);
    char *buf;
    int r = read_entry(a->za, e->index, e->size, max, disp, &buf, err);
    pthread_mutex_unlock(&a->mu);
    if (r < 0) return -1;
    *text = buf;
    *len = (size_t)e->size;
    *display = disp;
    return 1;
}

int archive_list(struct cf_archive *a, const char *dir, void (*add)(void *ctx, const char *name, size_t len), void *ctx)
{
    size_t dl = strlen(dir);
    int n = 0;
    for (size_t i = 0; i < a->n; i++) {
        const char *p = a->ents[i].name;
        if (strncmp(p, dir, dl) != 0 || p[dl] != '/') continue;
        const char *f = p + dl + 1;
        size_t l = strlen(f);
        if (l > 5 && f[0] != '.' && !strchr(f, '/') && strcmp(f + l - 5, ".json") == 0) add(ctx, f, l - 5), n++;
    }
    return n;
}

int archive_dirs(struct cf_archive *a, const char *dir, void (*add)(void *ctx, const char *name, size_t len), void *ctx)
{
    size_t dl = strlen(dir);
    int n = 0;
    for (size_t i = 0; i < a->n; i++) {
        const char *p = a->ents[i].name;
        if (strncmp(p, dir, dl) != 0 || p[dl] != '/') continue;
        const char *f = p + dl + 1, *slash = strchr(f, '/');
        if (slash && slash > f && f[0] != '.') add(ctx, f, (size_t)(slash - f)), n++;
    }
    return n;
}
