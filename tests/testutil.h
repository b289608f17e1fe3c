/* testutil.h - what the test files share: files, bits, temporary packs, the
 * command line, the shared data folder and the OpenCL-equals-CPU loop.
 *
 * Header-only (static inline): each test includes it after chunkfill.h and
 * Criterion. Helpers assert (cr_assert) where a test could not go on; those
 * that a test may expect to fail return NULL or a status instead.
 */
#ifndef CF_TESTUTIL_H
#define CF_TESTUTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "chunkfill.h"

/* ------------------------------------------------------------------ files */
/* the whole file, NUL-terminated (malloc'd; *len its size when len is set), or NULL when it cannot be opened */
static inline char *slurp_if(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    cr_assert(s, "%s: cannot read", path);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n, "%s: short read", path);
    s[n] = 0;
    fclose(f);
    if (len) *len = (size_t)n;
    return s;
}
/* the whole file (malloc'd, NUL-terminated); a file that cannot be opened fails the test */
static inline char *slurp(const char *path)
{
    char *s = slurp_if(path, NULL);
    cr_assert_not_null(s, "cannot open %s", path);
    return s;
}

/* the folder of the shared specifications and data (../shared beside the checkout, or $CF_SHARED) */
static inline const char *shared_dir(void)
{
    const char *s = getenv("CF_SHARED");
    return s ? s : CF_SOURCE_DIR "/../shared";
}

/* 1 and the full path of ../shared/REL in path when it exists. Where it is missing the callers
 * skip their test, loudly; under CI=true (.ci/run sets it: CI has ../shared beside the clone) a
 * missing file fails the test instead, so a skip never counts as a pass there. */
static inline int shared_have(const char *rel, char *path, size_t n)
{
    struct stat st;
    snprintf(path, n, "%s/%s", shared_dir(), rel);
    if (stat(path, &st) == 0) return 1;
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) cr_assert_fail("%s is missing (CI=true: the shared data must be beside the clone)", path);
    fprintf(stderr, "SKIPPED: %s is missing (CF_SHARED names another place)\n", path);
    return 0;
}

/* the full path of ../shared/REL in path; where it is missing the test is skipped (Criterion's
 * cr_skip_test: the suite still passes in a clone without ../shared), and fails under CI=true
 * (shared_have). For the tests (and the helpers they call) that need the shared data. */
static inline void shared_need(const char *rel, char *path, size_t n)
{
    if (!shared_have(rel, path, n)) cr_skip_test("no %s (../shared beside the clone, or CF_SHARED; CI has it)", path);
}

/* the whole output of a command (e.g. gzip -dc FILE), NUL-terminated (malloc'd); NULL when
 * it cannot run or exits non-zero */
static inline char *slurp_cmd(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    if (!f) return NULL;
    size_t n = 0, cap = 1 << 20;
    char *b = malloc(cap);
    for (size_t k; b && (k = fread(b + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (cap - n < 2) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) free(b);
            b = nb;
        }
    }
    if (pclose(f) != 0 || !b) return free(b), NULL;
    b[n] = 0;
    return b;
}

/* ------------------------------------------------------------------ bits */
static inline uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static inline double bitsd(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
/* a float from the hex text of its bits ("3f800000") */
static inline float hexf(const char *hex)
{
    uint32_t u = (uint32_t)strtoul(hex, NULL, 16);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* a memory pack of three files: noise_settings t:s (settings), density_function t:f (df) and
 * noise t:n (noise); cf_pack_open_memory's status, the pack in *pk (test_mc121, test_blocks121) */
static inline cf_status mem_pack_sfn(cf_pack **pk, const char *settings, const char *df, const char *noise, cf_error *err)
{
    cf_memfile files[3] = {
        {"data/t/worldgen/noise_settings/s.json", settings, strlen(settings)},
        {"data/t/worldgen/density_function/f.json", df, strlen(df)},
        {"data/t/worldgen/noise/n.json", noise, strlen(noise)},
    };
    return cf_pack_open_memory(pk, files, 3, NULL, err);
}

/* the value of " KEY=" in a golden-file line (up to a space or newline) into out[n]; -1 when absent or too long */
static inline int line_field(const char *line, const char *key, char *out, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    if (!p) return -1;
    p += strlen(pat);
    size_t l = strcspn(p, " \n");
    if (l >= n) return -1;
    memcpy(out, p, l);
    out[l] = 0;
    return 0;
}

/* the data of a .npy file (version 1) whose header says descr ("<f8") and shape
 * ("(1, 320, 16, 16)"): exactly size bytes, copied into out */
static inline void npy_read(const char *path, const char *descr, const char *shape, void *out, size_t size)
{
    size_t n = 0;
    char *b = slurp_if(path, &n);
    cr_assert_not_null(b, "cannot open %s", path);
    cr_assert(n >= 10 && memcmp(b, "\x93NUMPY\x01", 7) == 0, "%s: not a version 1 .npy file", path);
    size_t hl = 10 + (size_t)((unsigned char)b[8] | (unsigned char)b[9] << 8);
    cr_assert_leq(hl, n, "%s: header longer than the file", path);
    char hdr[512] = "", want[64];
    memcpy(hdr, b + 10, hl - 10 < sizeof hdr - 1 ? hl - 10 : sizeof hdr - 1);
    snprintf(want, sizeof want, "'descr': '%s'", descr);
    cr_assert(strstr(hdr, want) && strstr(hdr, shape), "%s: header %s, expected %s and %s", path, hdr, want, shape);
    cr_assert_eq(n - hl, size, "%s: %zu bytes of data, expected %zu", path, n - hl, size);
    memcpy(out, b + hl, size);
    free(b);
}

/* ------------------------------------------------------------------ temporary files and packs */
/* a unique path /tmp/cf-test-XXXXXX-NAME, NAME the last part of fmt ("%d" in it gets 0): the
 * base name is reserved (created empty), the path itself is not created. The text lives in one
 * of 8 buffers that are reused in turn. */
static inline const char *tmp_name(const char *fmt)
{
    static char buf[8][512];
    static int next;
    char base[64] = "/tmp/cf-test-XXXXXX", tail[256];
    int fd = mkstemp(base);
    cr_assert_geq(fd, 0);
    close(fd);
    char *b = buf[next++ % 8];
    snprintf(tail, sizeof tail, fmt, 0);
    const char *slash = strrchr(tail, '/');
    snprintf(b, 512, "%s-%s", base, slash ? slash + 1 : tail);
    return b;
}

/* a new empty folder /tmp/cf-TAG-XXXXXX, its path in root (at least 64 bytes) */
static inline void tmp_dir(char *root, size_t n, const char *tag)
{
    snprintf(root, n, "/tmp/cf-%s-XXXXXX", tag);
    cr_assert_not_null(mkdtemp(root), "mkdtemp %s: %s", root, strerror(errno));
}
/* writes root/rel (len bytes of text; (size_t)-1: strlen), making its folders */
static inline void tmp_put_len(const char *root, const char *rel, const char *text, size_t len)
{
    char p[1024];
    cr_assert_lt((size_t)snprintf(p, sizeof p, "%s/%s", root, rel), sizeof p);
    for (char *q = p + strlen(root) + 1; (q = strchr(q, '/')); q++) {
        *q = 0;
        cr_assert(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", p, strerror(errno));
        *q = '/';
    }
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f, "%s: %s", p, strerror(errno));
    if (len == (size_t)-1) len = strlen(text);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
}
static inline void tmp_put(const char *root, const char *rel, const char *text) { tmp_put_len(root, rel, text, (size_t)-1); }
/* removes root and all below it */
static inline void tmp_rm(const char *root)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

/* ------------------------------------------------------------------ the command line */
/* Runs `ENV chunkfill ARGS` (env may be NULL). stdout into out[n] (NULL: discarded); stderr
 * into err[m], or, when err is NULL, into out after stdout's text as the shell interleaves
 * them (2>&1). Returns the exit status (-1 when it did not exit). */
static inline int cli_run(const char *env, const char *args, char *out, size_t n, char *err, size_t m)
{
    char cmd[8192], ef[64] = "";
    if (err) {
        snprintf(ef, sizeof ef, "/tmp/cf-stderr-XXXXXX");
        int fd = mkstemp(ef);
        cr_assert(fd >= 0, "mkstemp: %s", strerror(errno));
        close(fd);
    }
    cr_assert_lt((size_t)snprintf(cmd, sizeof cmd, "%s '%s' %s %s%s%s", env ? env : "", CF_BINARY, args, err ? "2>'" : "2>&1",
                                  err ? ef : "", err ? "'" : ""),
                 sizeof cmd);
    int st;
    if (out) {
        FILE *p = popen(cmd, "r");
        cr_assert_not_null(p);
        size_t len = fread(out, 1, n - 1, p);
        out[len] = 0;
        while (fgetc(p) != EOF) {} /* the rest, so that the command is not cut off by a closed pipe */
        st = pclose(p);
    } else {
        cr_assert_lt(strlen(cmd) + 12, sizeof cmd);
        strcat(cmd, " >/dev/null");
        st = system(cmd);
    }
    if (err) {
        FILE *e = fopen(ef, "r");
        size_t len = e ? fread(err, 1, m - 1, e) : 0;
        err[len] = 0;
        if (e) fclose(e);
        unlink(ef);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
/* chunkfill ARGS, stdout and stderr together into out */
static inline int run(const char *args, char *out, size_t n) { return cli_run(NULL, args, out, n, NULL, 0); }

/* ------------------------------------------------------------------ errors */
/* a failed call's error: status st (got is what the call returned), one line that starts
 * with prefix ("file.json#/pointer: ") and holds msg */
static inline void expect_located(const cf_error *err, cf_status got, cf_status st, const char *prefix, const char *msg)
{
    cr_assert_eq(got, st, "status %s, expected %s: %s", cf_status_str(got), cf_status_str(st), err->message);
    cr_assert_eq(err->status, got);
    cr_assert(strncmp(err->message, prefix, strlen(prefix)) == 0, "message '%.300s' does not start with '%.300s'", err->message,
              prefix);
    cr_assert(strstr(err->message, msg), "message '%.300s' lacks '%s'", err->message, msg);
    cr_assert_null(strchr(err->message, '\n'));
    cr_assert_null(strchr(err->message, '\r'));
}

/* ------------------------------------------------------------------ worlds */
/* a world of function (e.g. "router:final_density") of the pack at dir (NULL: the embedded
 * default pack) under settings, for a seed; world_close frees all three */
static inline cf_world *world_open(const char *dir, const char *settings, const char *function, int64_t seed, cf_pack **pk,
                                   cf_program **pg)
{
    const char *paths[1] = {dir}, *fn[1] = {function};
    cf_error err = {0};
    cf_world *w;
    cr_assert_eq(cf_pack_open(pk, dir ? paths : NULL, dir ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(pg, *pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, *pg, seed, &err), CF_OK, "%s", err.message);
    return w;
}
static inline void world_close(cf_world *w, cf_program *pg, cf_pack *pk)
{
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ------------------------------------------------------------------ values */
/* the value of pg's first function at (x, y, z) for a seed */
static inline double sample_at(const cf_program *pg, int64_t seed, double x, double y, double z)
{
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    double p[3] = {x, y, z}, v;
    cr_assert_eq(cf_sample_f64(w, 0, 1, p, &v, &err), CF_OK, "%s", err.message);
    cf_world_free(w);
    return v;
}

/* ------------------------------------------------------------------ OpenCL equals the CPU */
/* called with each world's CPU fill (n chunks of height * 256 doubles) */
typedef void world_check_fn(cf_world *w, const double *cpu, size_t n, int height, void *ctx);

/* Fills n chunks (chunks[2n]: x, z) of float64 program pg on the OpenCL device and on the
 * CPU for each seed; returns the number of values whose bits differ. */
static inline size_t device_diff(cf_program *pg, const int64_t *seeds, int nseeds, const int32_t *chunks, size_t n,
                                 world_check_fn *each, void *ctx)
{
    cf_error err = {0};
    cf_device *dev;
    cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 0, &err), CF_OK, "%s", err.message);
    int height;
    cf_program_settings(pg, NULL, &height, NULL);
    size_t per = (size_t)height * 256, diff = 0;
    double *a = malloc(sizeof(double) * per * n), *b = malloc(sizeof(double) * per * n);
    cr_assert(a && b);
    for (int s = 0; s < nseeds; s++) {
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, pg, seeds[s], &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_device_fill(dev, w, n, chunks, a, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_chunks(w, 0, n, chunks, b, 0, &err), CF_OK, "%s", err.message);
        for (size_t i = 0; i < per * n; i++) diff += memcmp(&a[i], &b[i], sizeof(double)) != 0;
        if (each) each(w, b, n, height, ctx);
        cf_world_free(w);
    }
    free(a), free(b);
    cf_device_free(dev);
    return diff;
}

/* cf_block_palette: the 1.18-1.21 ore veins' blocks of the noise stage */
static inline int vein_block(const char *name)
{
    static const char *const v[6] = {"minecraft:copper_ore", "minecraft:raw_copper_block", "minecraft:granite",
                                     "minecraft:deepslate_iron_ore", "minecraft:raw_iron_block", "minecraft:tuff"};
    for (int k = 0; k < 6; k++)
        if (strcmp(name, v[k]) == 0) return 1;
    return 0;
}

/* the first index of cf_block_palette's names that the surface stage alone writes: the noise
 * stage's come first (the default block, air, water, lava, then the veins where the settings
 * have them; no test here sets a default fluid that is none of these) */
static inline int first_rule_block(const char *const *names, int np)
{
    int k = np < 4 ? np : 4;
    while (k < np && k < 10 && vein_block(names[k])) k++;
    return k;
}

/* The blocks of chunk (cx, cz) through the library at the noise (stage 0) or the surface stage
 * (1), [y][z][x] (malloc'd). *pg is the block program (names[] point into it: cf_program_free it
 * after use); *np its palette size; min_y and height the settings'. */
static inline uint8_t *blocks_fill(cf_pack *pk, const char *settings, int64_t seed, int32_t cx, int32_t cz, int stage, cf_program **pg,
                                   const char **names, int *np, int *min_y, int *height)
{
    cf_world *w = NULL;
    cf_biomes *b = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_program_compile_blocks(pg, pk, settings, &err), CF_OK, "%s: %s", settings, err.message);
    cr_assert_eq(cf_world_new(&w, *pg, seed, &err), CF_OK, "%s", err.message);
    cf_program_settings(*pg, min_y, height, NULL);
    uint8_t *out = malloc((size_t)*height * 256);
    cr_assert_not_null(out);
    int32_t c[2] = {cx, cz};
    if (stage) {
        cr_assert(cf_program_has_surface(*pg), "%s has no surface stage", settings);
        cr_assert_eq(cf_biomes_open(&b, pk, NULL, settings, NULL, seed, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_fill_blocks_surface(w, b, 1, c, out, 1, &err), CF_OK, "%s", err.message);
    } else {
        cr_assert_eq(cf_fill_blocks(w, 1, c, out, 1, &err), CF_OK, "%s", err.message);
    }
    *np = cf_block_palette(*pg, names);
    cr_assert_gt(*np, 0);
    cf_biomes_free(b);
    cf_world_free(w);
    return out;
}

#endif /* CF_TESTUTIL_H */
