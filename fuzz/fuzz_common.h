/* fuzz_common.h - checks shared by the libFuzzer harnesses of fuzz/.
 *
 * Every library call of a harness goes through these: a failed call must leave a
 * clean status in its cf_error (the same status it returns) and a non-empty
 * one-line message; a successful call must leave no error behind. A broken
 * promise abort()s, so libFuzzer reports the input as a crash.
 * Header-only (static functions): each harness is one translation unit.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunkfill.h"

#define FUZZ_CHECK(cond, ...)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz check failed (%s:%d): %s: ", __FILE__, __LINE__, #cond);                             \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* FUZZ_VERBOSE=1 in the environment: print every call's status (to read a corpus) */
static int fuzz_verbose(void)
{
    static int v = -1;
    if (v < 0) v = getenv("FUZZ_VERBOSE") && atoi(getenv("FUZZ_VERBOSE")) > 0;
    return v;
}

/* the status a call returned against what it recorded in err */
static void fuzz_check_status(const char *what, cf_status st, const cf_error *err)
{
    if (fuzz_verbose()) fprintf(stderr, "%s: %s%s%s\n", what, cf_status_str(st), st ? ": " : "", st ? err->message : "");
    FUZZ_CHECK(st >= CF_OK && st <= CF_ERR_DEVICE, "%s returned status %d, not a cf_status", what, (int)st);
    FUZZ_CHECK(err->status == st, "%s returned %s but recorded %s (\"%.200s\")", what, cf_status_str(st),
               cf_status_str(err->status), err->message);
    if (st == CF_OK) return;
    size_t len = strnlen(err->message, sizeof err->message);
    FUZZ_CHECK(len < sizeof err->message, "%s: message not NUL-terminated", what);
    FUZZ_CHECK(len > 0, "%s failed (%s) with an empty message", what, cf_status_str(st));
    FUZZ_CHECK(!memchr(err->message, '\n', len) && !memchr(err->message, '\r', len),
               "%s: message is more than one line: \"%s\"", what, err->message);
}

/* the limits of the brief: small files, small graphs, shallow nesting */
static void fuzz_limits(cf_limits *lim)
{
    cf_limits_default(lim);
    lim->max_file_bytes = 1u << 20;
    lim->max_nodes = 20000;
    lim->max_depth = 200;
    lim->max_fill_bytes = 256u << 20;
}

/* the in-memory pack of files[0..n-1] under the fuzz limits; NULL when it is refused (the
 * error checked to be one located line) */
static inline cf_pack *fuzz_open(const cf_memfile *files, size_t n)
{
    cf_limits lim;
    fuzz_limits(&lim);
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_status st = cf_pack_open_memory(&pk, files, n, &lim, &err);
    fuzz_check_status("cf_pack_open_memory", st, &err);
    return st == CF_OK ? pk : NULL;
}

/* The top solid block of every column of one filled chunk (out[z*16 + x]), as
 * cf_surface_heights promises to find it: the highest y whose value is > 0, else
 * min_y - 1. vol holds floats, or doubles when f64 (a double dialect). */
static void fuzz_heights_of_fill(const void *vol, int f64, int min_y, int height, int32_t *out)
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int32_t top = min_y - 1;
            for (int y = height - 1; y >= 0; y--) {
                size_t k = ((size_t)y * 16 + (size_t)z) * 16 + (size_t)x;
                if (f64 ? ((const double *)vol)[k] > 0.0 : ((const float *)vol)[k] > 0.0f) {
                    top = min_y + y;
                    break;
                }
            }
            out[z * 16 + x] = top;
        }
}

/* Runs a compiled output the ways a client does: sample `np` points, fill one
 * chunk, find its surface and check the surface equals the fill (documented:
 * "equal to what cf_fill_chunks gives"). Returns 0; aborts on a broken promise. */
static void fuzz_exercise_output(const cf_world *w, const cf_program *pg, int fn, const int32_t *pts, size_t np,
                                 int32_t cx, int32_t cz, int fill)
{
    cf_error err = {0};
    double val[16];
    if (np > 16) np = 16;
    cf_status st = cf_sample(w, fn, np, pts, val, &err);
    fuzz_check_status("cf_sample", st, &err);
    if (!fill) return;
    int min_y = 0, height = 0, sea = 0;
    cf_program_settings(pg, &min_y, &height, &sea);
    FUZZ_CHECK(height >= 0 && height <= 4064 && height % 16 == 0, "height %d", height);
    if (height == 0) return;
    int f64 = cf_program_precision(pg) == 64;
    void *vol = malloc((f64 ? sizeof(double) : sizeof(float)) * (size_t)height * 256);
    int32_t *a = malloc(sizeof(int32_t) * 256), *b = malloc(sizeof(int32_t) * 256);
    FUZZ_CHECK(vol && a && b, "out of memory in the harness");
    int32_t chunk[2] = {cx, cz};
    memset(&err, 0, sizeof err);
    st = cf_fill_chunks(w, fn, 1, chunk, vol, 1, &err);
    fuzz_check_status("cf_fill_chunks", st, &err);
    if (st == CF_OK) {
        memset(&err, 0, sizeof err);
        st = cf_surface_heights(w, fn, cx * 16, cz * 16, 16, 16, INT32_MAX, b, 1, &err);
        fuzz_check_status("cf_surface_heights", st, &err);
        if (st == CF_OK) {
            fuzz_heights_of_fill(vol, f64, min_y, height, a);
            for (int i = 0; i < 256; i++)
                FUZZ_CHECK(a[i] == b[i], "chunk %d,%d column x %d z %d: cf_surface_heights gives %d, the fill %d", cx, cz,
                           i % 16, i / 16, b[i], a[i]);
        }
    }
    free(vol);
    free(a);
    free(b);
}

/* The fixed parts of every harness run: plan, describe, emit (text only, no device). */
static void fuzz_exercise_program(const cf_program *pg, int fn)
{
    FUZZ_CHECK(cf_program_describe(pg) != NULL, "cf_program_describe gave NULL");
    FUZZ_CHECK(cf_program_plan(pg) != NULL, "cf_program_plan gave NULL");
    FUZZ_CHECK(cf_program_precision(pg) == 32 || cf_program_precision(pg) == 64, "precision %d",
               cf_program_precision(pg));
    (void)cf_program_node_count(pg);
    cf_error err = {0};
    char *src = cf_emit_opencl(pg, fn, &err);
    fuzz_check_status("cf_emit_opencl", src ? CF_OK : err.status, &err);
    if (!src) FUZZ_CHECK(err.status != CF_OK, "cf_emit_opencl gave NULL without an error");
    free(src);
}

/* The points every double-dialect harness samples: integer, fractional and far (+-3e9). */
static const int32_t fuzz_points[4 * 3] = {0, 0, 0, -17, 9, 33, 29999999, 300, -29999999, -30000000, -64, 12345};
static const double fuzz_fpoints[4 * 3] = {0.5, -0.25, 1e-300, 3e9, -3e9, 12.75, -1073741824.0, 2147483647.5, -0.0,
                                           123.456, 7.0, -8.5};

/* function of settings compiled from pk: the program, or NULL with a clean status */
static inline cf_program *fuzz_compile(cf_pack *pk, const char *settings, const char *function)
{
    const char *fn[] = {function};
    cf_program *pg = NULL;
    cf_error err = {0};
    cf_status st = cf_program_compile(&pg, pk, settings, fn, 1, &err);
    fuzz_check_status("cf_program_compile", st, &err);
    FUZZ_CHECK((st == CF_OK) == (pg != NULL), "cf_program_compile: status %s with program %p", cf_status_str(st),
               (void *)pg);
    return pg;
}

/* A double-dialect program (what: "a Hytale program", ...): precision 64, bound to seed -7,
 * sampled at fuzz_fpoints, its output 0 through fuzz_exercise_output and fuzz_exercise_program;
 * pg is freed. */
static inline void fuzz_exercise_f64(cf_program *pg, const char *what)
{
    FUZZ_CHECK(cf_program_precision(pg) == 64, "%s of precision %d", what, cf_program_precision(pg));
    cf_world *w = NULL;
    cf_error err = {0};
    cf_status st = cf_world_new(&w, pg, -7, &err);
    fuzz_check_status("cf_world_new", st, &err);
    if (st == CF_OK) {
        double v[4];
        memset(&err, 0, sizeof err);
        st = cf_sample_f64(w, 0, 4, fuzz_fpoints, v, &err);
        fuzz_check_status("cf_sample_f64", st, &err);
        fuzz_exercise_output(w, pg, 0, fuzz_points, 4, -3, 2, 1);
    }
    cf_world_free(w);
    fuzz_exercise_program(pg, 0);
    cf_program_free(pg);
}

#endif /* FUZZ_COMMON_H */
