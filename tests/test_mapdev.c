/* test_mapdev.c - the map layers on OpenCL (PoCL, on every machine of this project):
 * cf_map_draw_device equals cf_map_draw_stats byte for byte (pixels and heights) for every
 * layer at tile levels 0, 2 and 4 (the first rows and columns of real tiles, negative
 * coordinates included), cf_map_columns_device equals cf_map_columns_get, and the CLI's
 * `tiles --device` writes the CPU's tiles; bad devices are refused with one line. The
 * embedded default pack and small grids keep it to seconds (its program is small to build). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chunkfill.h"
#include "httputil.h"

TestSuite(mapdev, .timeout = 300);

typedef struct bworld {
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_biomes *b;
    cf_map_device *dev;
} bworld;

/* the default pack's overworld as a block program, its biome source and a map device */
static void open_all(bworld *o, int64_t seed)
{
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&o->pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&o->pg, o->pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&o->w, o->pg, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&o->b, o->pk, NULL, "minecraft:overworld", NULL, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_map_device_open(&o->dev, "opencl", o->pg, &err), CF_OK, "%s", err.message);
}

static void close_all(bworld *o)
{
    cf_map_device_free(o->dev);
    cf_biomes_free(o->b);
    cf_world_free(o->w);
    cf_program_free(o->pg);
    cf_pack_free(o->pk);
}

Test(mapdev, layers_equal_the_cpu_at_levels_0_2_4)
{
    bworld o;
    open_all(&o, 5);
    /* level, samples a side (the tile's first n x n pixels), tile x, tile y */
    static const int cases[][4] = {{0, 48, -1, 0}, {2, 32, 0, -1}, {4, 8, -1, -1}};
    cf_error err = {0};
    for (int li = 0; cf_map_layer(li, NULL, NULL); li++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            int32_t step = 1 << cases[c][0], n = cases[c][1];
            int32_t x0 = cases[c][2] * 256 * step, z0 = cases[c][3] * 256 * step;
            size_t np = (size_t)n * (size_t)n;
            uint8_t *a = malloc(np * 3), *b = malloc(np * 3);
            int32_t *ha = malloc(sizeof(int32_t) * np), *hb = malloc(sizeof(int32_t) * np);
            cf_map_stats sa, sb;
            cr_assert_eq(cf_map_draw_stats(o.w, o.b, li, x0, z0, step, n, n, INT32_MAX, a, ha, &sa, 2, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_map_draw_device(o.dev, o.w, o.b, li, x0, z0, step, n, n, INT32_MAX, b, hb, &sb, 2, &err), CF_OK, "%s",
                         err.message);
            size_t diff = 0, hd = 0;
            for (size_t i = 0; i < np * 3; i++) diff += a[i] != b[i];
            for (size_t i = 0; i < np; i++) hd += ha[i] != hb[i];
            cr_expect_eq(diff, 0, "layer %s level %d: %zu bytes of %zu differ from the CPU", cf_map_layer(li, NULL, NULL), cases[c][0],
                         diff, np * 3);
            cr_expect_eq(hd, 0, "layer %s level %d: %zu heights differ", cf_map_layer(li, NULL, NULL), cases[c][0], hd);
            cr_expect_eq(sa.unknown_blocks, sb.unknown_blocks);
            free(a), free(b), free(ha), free(hb);
        }
    close_all(&o);
}

/* steps from 8 on: the sample kernel (k_map_samples, a work item per sample) gives the heights;
 * steps off the cell lattice (9, 13), far coordinates and --below cut the column */
Test(mapdev, sample_kernel_heights_equal_the_cpu)
{
    bworld o;
    open_all(&o, 11);
    /* x0, z0, step, below */
    static const int32_t cases[][4] = {{-4096, 512, 8, INT32_MAX}, {-1003, 77, 9, INT32_MAX}, {1000001, -1000013, 13, INT32_MAX},
                                       {-1003, 77, 9, 70}, {40, -40, 11, -70}};
    cf_error err = {0};
    enum { N = 6 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int32_t h[2][N * N];
        uint8_t rgb[2][N * N * 3];
        for (int k = 0; k < 2; k++)
            cr_assert_eq(k ? cf_map_draw_device(o.dev, o.w, o.b, 0, cases[c][0], cases[c][1], cases[c][2], N, N, cases[c][3], rgb[k], h[k],
                                                NULL, 2, &err)
                           : cf_map_draw_stats(o.w, o.b, 0, cases[c][0], cases[c][1], cases[c][2], N, N, cases[c][3], rgb[k], h[k], NULL,
                                               2, &err),
                         CF_OK, "%s", err.message);
        size_t hd = 0;
        for (int i = 0; i < N * N; i++) hd += h[0][i] != h[1][i];
        cr_expect_eq(hd, 0, "case %zu (%d, %d step %d below %d): %zu of %d heights differ", c, cases[c][0], cases[c][1], cases[c][2],
                     cases[c][3], hd, N * N);
        cr_expect_eq(memcmp(rgb[0], rgb[1], sizeof rgb[0]), 0, "case %zu: pixels differ", c);
    }
    close_all(&o);
}

Test(mapdev, columns_equal_the_cpu_and_another_seed_reopens_the_biomes)
{
    bworld o;
    open_all(&o, 5);
    cf_error err = {0};
    enum { N = 12 };
    for (int pass = 0; pass < 2; pass++) {
        if (pass) { /* the same source rebound: the device's biome program is reopened for the seed */
            cr_assert_eq(cf_biomes_set_seed(o.b, 77, &err), CF_OK, "%s", err.message);
            cf_world_free(o.w);
            cr_assert_eq(cf_world_new(&o.w, o.pg, 77, &err), CF_OK, "%s", err.message);
        }
        int32_t h[2][N * N] = {{0}}, ft[2][N * N] = {{0}};
        uint8_t bl[2][N * N] = {{0}}, bi[2][N * N] = {{0}}, fl[2][N * N] = {{0}};
        for (int k = 0; k < 2; k++) {
            cf_map_columns c = {h[k], bl[k], bi[k], fl[k], ft[k]};
            cr_assert_eq(k ? cf_map_columns_device(o.dev, o.w, o.b, -300, 1000, 7, N, N, 90, &c, 2, &err)
                           : cf_map_columns_get(o.w, o.b, -300, 1000, 7, N, N, 90, &c, 2, &err),
                         CF_OK, "%s", err.message);
        }
        cr_expect_eq(memcmp(h[0], h[1], sizeof h[0]), 0, "seed %d: heights differ", pass ? 77 : 5);
        cr_expect_eq(memcmp(ft[0], ft[1], sizeof ft[0]), 0, "fluid tops differ");
        cr_expect_eq(memcmp(bl[0], bl[1], sizeof bl[0]), 0, "blocks differ");
        cr_expect_eq(memcmp(bi[0], bi[1], sizeof bi[0]), 0, "seed %d: biomes differ", pass ? 77 : 5);
        cr_expect_eq(memcmp(fl[0], fl[1], sizeof fl[0]), 0, "fluids differ");
    }
    /* a world of another program is refused, not drawn with the wrong kernels */
    cf_program *other;
    cf_world *w2;
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&other, o.pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w2, other, 5, &err), CF_OK, "%s", err.message);
    uint8_t rgb[3 * 4];
    cr_expect_eq(cf_map_draw_device(o.dev, w2, NULL, 0, 0, 0, 1, 2, 2, INT32_MAX, rgb, NULL, NULL, 1, &err), CF_ERR_ARG);
    cr_expect(strstr(err.message, "another program") != NULL, "%s", err.message);
    cf_world_free(w2);
    cf_program_free(other);
    close_all(&o);
}

/* runs the CLI with args (NULL-terminated), stderr into errbuf; returns the exit status */
static int run(const char *const *args, char *errbuf, size_t cap)
{
    char path[] = "/tmp/cf_mapdev_errXXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        execv(CF_BINARY, (char *const *)args);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ssize_t n = pread(fd, errbuf, cap - 1, 0);
    errbuf[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int file_equal(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int eq = fa && fb;
    while (eq) {
        int x = fgetc(fa), y = fgetc(fb);
        if (x != y) eq = 0;
        if (x == EOF || y == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return eq;
}

Test(mapdev, tiles_command_on_the_device_writes_the_cpu_tiles)
{
    char dir[] = "/tmp/cf_mapdevXXXXXX", cpu[300], dev[300], a[400], b[400], e[2048];
    cr_assert(mkdtemp(dir));
    snprintf(cpu, sizeof cpu, "%s/cpu", dir);
    snprintf(dev, sizeof dev, "%s/dev", dir);
    /* level 0: one tile (16 x 16 chunks), relief and biomes (from level 4 on every sample of a
     * tile is in its own chunk: 65536 chunk fills, minutes on PoCL) */
    const char *base[] = {CF_BINARY, "tiles", "--seed", "3", "--layer", "relief", "--layer", "biomes", "--area", "-10,-10:-5,-5",
                          "--zoom", "0..0", "--quiet", "--out", cpu, NULL, NULL, NULL};
    cr_assert_eq(run(base, e, sizeof e), 0, "%s", e);
    base[14] = dev, base[15] = "--device", base[16] = "opencl:0";
    cr_assert_eq(run(base, e, sizeof e), 0, "%s", e);
    const char *files[] = {"relief/0/-1/-1.png", "biomes/0/-1/-1.png"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(a, sizeof a, "%s/%s", cpu, files[i]);
        snprintf(b, sizeof b, "%s/%s", dev, files[i]);
        cr_expect(file_equal(a, b), "%s: the device's tile differs from the CPU's", files[i]);
    }
    /* serve --http --device: the device opened before it listens; the first request gets the
     * CPU's tile */
    char cmd[1200], log[400], *body = NULL;
    snprintf(log, sizeof log, "%s/serve.log", dir);
    snprintf(cmd, sizeof cmd, "exec '%s' serve --http 127.0.0.1:0 --device opencl:0 --workers 1 --dear-workers 1 --cache '%s/hc'",
             CF_BINARY, dir);
    int port = 0;
    pid_t srv = http_server_start(cmd, log, &port);
    int fd = http_connect(port);
    cr_assert(fd >= 0);
    char req[300];
    int rl = snprintf(req, sizeof req, "GET /relief/0/-1/-1.png?seed=3 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", port);
    cr_assert_eq(send(fd, req, (size_t)rl, 0), rl);
    size_t blen = 0;
    int code = http_read_answer(fd, &body, &blen, NULL);
    close(fd);
    kill(srv, SIGTERM);
    waitpid(srv, NULL, 0);
    cr_expect_eq(code, 200, "serve --http --device: %d", code);
    snprintf(a, sizeof a, "%s/relief/0/-1/-1.png", cpu);
    FILE *f = fopen(a, "rb");
    cr_assert_not_null(f);
    char *want = malloc(1 << 20);
    size_t wl = fread(want, 1, 1 << 20, f);
    fclose(f);
    cr_expect(wl == blen && memcmp(want, body, wl) == 0, "serve --http --device: the tile differs from `tiles`' (%zu against %zu bytes)",
              blen, wl);
    free(want), free(body);
    /* a device that is not there: one line, exit 1; a malformed one: exit 2 */
    const char *bad[] = {CF_BINARY, "render", "--seed", "1", "--area", "0,0:15,15", "--device", "opencl:99", "--out", a, NULL};
    cr_expect_eq(run(bad, e, sizeof e), 1, "%s", e);
    cr_expect(strchr(e, '\n') == strrchr(e, '\n') && strstr(e, "99"), "not one line naming the device: %s", e);
    bad[7] = "gpu";
    cr_expect_eq(run(bad, e, sizeof e), 2, "%s", e);
    const char *bad2[] = {CF_BINARY, "columns", "--seed", "1", "--area", "0,0:15,15", "--device", "opencl:x", "--out", a, NULL};
    cr_expect_eq(run(bad2, e, sizeof e), 2, "%s", e);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* render --device and tiles --device show the drawing's progress on a terminal (script(1) makes
 * a pseudo-terminal), as the CPU does, and the picture is the same as without the terminal
 * (issue 31: render --device printed nothing until the end) */
Test(mapdev, render_and_tiles_on_the_device_show_progress_on_a_terminal)
{
    char dir[] = "/tmp/cf_mapdevpXXXXXX", cmd[2000], out[8192], a[400], b[400];
    cr_assert(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/tty.png", dir);
    snprintf(b, sizeof b, "%s/plain.png", dir);
    snprintf(cmd, sizeof cmd, "script -qec \"'%s' render --seed 3 --area 0,0:31,31 --device opencl:0 --out %s\" /dev/null", CF_BINARY, a);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    cr_assert_eq(pclose(p), 0, "%s", out);
    cr_expect(strstr(out, "\rrender: blocks ") || strstr(out, "\rrender: heights "), "no progress line: '%s'", out);
    cr_expect(strstr(out, "render: 32 x 32 blocks, 32 x 32 pixels, "), "no summary line: '%s'", out);
    const char *plain[] = {CF_BINARY, "render", "--seed", "3", "--area", "0,0:31,31", "--device", "opencl:0", "--quiet", "--out", b, NULL};
    cr_assert_eq(run(plain, out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "", "--quiet printed '%s'", out);
    cr_expect(file_equal(a, b), "the picture drawn with a progress line differs");
    snprintf(cmd, sizeof cmd, "script -qec \"'%s' tiles --seed 3 --area 0,0:15,15 --device opencl:0 --out %s/t\" /dev/null", CF_BINARY, dir);
    cr_assert_not_null(p = popen(cmd, "r"));
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    cr_assert_eq(pclose(p), 0, "%s", out);
    cr_expect(strstr(out, "\rtiles: 0/1 tiles, tile 1: "), "no progress inside the tile: '%s'", out);
    cr_expect(strstr(out, "\rtiles: 1/1 tiles (100%), "), "no progress line: '%s'", out);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
