/* test_maps_http.c - the maps over HTTP (serve --http, host/net/http*.c): served tiles equal
 * the tiles command's and render's bytes, /at equals the heights and the biome command, the
 * legend and dimensions, 1.18-1.21 data, hostile, concurrent, vanished and stalled clients, and
 * loopback-only binding. Its helpers beside test_maps.c's: tests/maputil.h. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chunkfill.h"
#include "maputil.h"

/* ------------------------------------------------------------------ serve --http */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "httputil.h"

static pid_t srv_pid;
static int srv_port;
static char srv_log[128], cache_dir[128];

/* starts `serve --http` on a free loopback port with the tiny pack (or the world options given) */
#define start_server(extra) start_server_of("--pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny", extra)
static void start_server_of(const char *world, const char *extra)
{
    tsetup();
    snprintf(srv_log, sizeof srv_log, "%s/server.log", dir);
    snprintf(cache_dir, sizeof cache_dir, "%s/cache", dir);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "exec '%s' serve --http 127.0.0.1:0 %s --cache %s --read-timeout-ms 1000 %s", CF_BINARY, world,
             cache_dir, extra);
    srv_pid = http_server_start(cmd, srv_log, &srv_port);
}

static void stop_server(void)
{
    if (srv_pid > 0) {
        kill(srv_pid, SIGTERM);
        int st;
        waitpid(srv_pid, &st, 0);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the server did not stop cleanly");
        srv_pid = 0;
    }
    tteardown();
}
TestSuite(http, .init = NULL, .fini = stop_server, .timeout = 300);

static int connect_srv(void) { return http_connect(srv_port); }

/* sends raw bytes, reads the whole answer; returns the status (0: none), the body in
 * *body (malloc'd) */
static int http_raw(const char *req, size_t reqlen, char **body, size_t *blen)
{
    int fd = connect_srv();
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < reqlen) {
        ssize_t k = send(fd, req + off, reqlen - off, MSG_NOSIGNAL);
        if (k <= 0) break;
        off += (size_t)k;
    }
    int code = http_read_answer(fd, body, blen, NULL);
    close(fd);
    return code < 0 ? 0 : code;
}

static int http_get(const char *target, char **body, size_t *blen)
{
    char req[4096];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", target);
    return http_raw(req, (size_t)n, body, blen);
}

/* decodes PNG bytes to RGB */
static uint8_t *decode_png(const char *data, size_t n, int *w, int *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    cr_assert(png_image_begin_read_from_memory(&img, data, n), "%s", img.message);
    img.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
    cr_assert(png_image_finish_read(&img, NULL, px, 0, NULL), "%s", img.message);
    *w = (int)img.width, *h = (int)img.height;
    return px;
}

static size_t count_in_log(const char *needle)
{
    FILE *f = fopen(srv_log, "r");
    char line[1024];
    size_t c = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, needle)) c++;
    if (f) fclose(f);
    return c;
}

/* the tile equals render of its area; /at gives render's height there */
static void check_tile_and_at(int tx, int ty)
{
    char t[256], args[1024], err[4096], *body;
    size_t n;
    snprintf(t, sizeof t, "/relief/0/%d/%d.png?seed=5", tx, ty);
    cr_assert_eq(http_get(t, &body, &n), 200, "%s: %s", t, body);
    int w, h, w2, h2;
    uint8_t *a = decode_png(body, n, &w, &h);
    free(body);
    snprintf(args, sizeof args, "render " TINY " --area %d,%d:%d,%d --out %s/r.png --heights %s/r.npy", tx * 256, ty * 256,
             tx * 256 + 255, ty * 256 + 255, dir, dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    char p[256];
    snprintf(p, sizeof p, "%s/r.png", dir);
    uint8_t *b = read_png(p, &w2, &h2);
    cr_assert(w == 256 && h == 256 && w2 == 256 && h2 == 256);
    cr_assert_eq(memcmp(a, b, 256 * 256 * 3), 0, "%s differs from render", t);
    int nz, nx;
    snprintf(p, sizeof p, "%s/r.npy", dir);
    int32_t *hts = read_npy(p, &nz, &nx);
    snprintf(t, sizeof t, "/at?x=%d&z=%d&seed=5", tx * 256 + 17, ty * 256 + 200);
    cr_assert_eq(http_get(t, &body, &n), 200, "%s: %s", t, body);
    char want[64];
    snprintf(want, sizeof want, "\"height\": %d,", hts[200 * 256 + 17]);
    cr_assert(strstr(body, want) && strstr(body, "\"biome\": null"), "%s: %s (want %s)", t, body, want);
    free(body), free(a), free(b), free(hts);
}

Test(http, tiles_equal_render_and_at_equals_heights)
{
    start_server("");
    check_tile_and_at(0, 0);
    check_tile_and_at(-1, -1);
    char *body;
    size_t n;
    cr_assert_eq(http_get("/", &body, &n), 200);
    /* the page asks for the server's first configuration by default (no settings= of its own) */
    cr_assert(strstr(body, "\"mode\": \"server\"") && strstr(body, "\"settings\": \"\""), "%.200s", body);
    free(body);
    cr_assert_eq(http_get("/dimensions", &body, &n), 200);
    cr_assert_str_eq(body, "{\"dimensions\": [{\"dimension\": null, \"settings\": \"t:tiny\", \"min_y\": 0, \"height\": 16}]}\n");
    free(body);
    cr_assert_eq(count_in_log("GET /relief/0/0/0.png?seed=5 200 computed"), 1u);
}

/* Without --settings the server draws the packs' dimensions (tests/packs/dims: an overworld and a
 * nether with a roof at y 15): /dimensions lists them; dimension= and below= reach the tiles and
 * /at (equal to render --settings of the dimension's settings with --below); /legend lists the
 * biome source's biomes with the biomes layer's colours. */
Test(http, dimensions_below_and_legend)
{
    start_server_of("--pack " CF_SOURCE_DIR "/tests/packs/dims", "");
    char *body, t[256], args[1024], err[4096], p[256];
    size_t n;
    cr_assert_eq(http_get("/dimensions", &body, &n), 200);
    cr_assert_str_eq(body, "{\"dimensions\": [{\"dimension\": \"minecraft:overworld\", \"settings\": \"d:land\", \"min_y\": 0, "
                           "\"height\": 16}, {\"dimension\": \"minecraft:the_nether\", \"settings\": \"d:cave\", \"min_y\": 0, "
                           "\"height\": 16}]}\n");
    free(body);
    /* the legend: the colours of cubiomes' table (../shared's colors.json: snowy_plains #ffffff,
     * desert #fa9418, nether_wastes #572526) */
    cr_assert_eq(http_get("/legend?seed=1", &body, &n), 200);
    cr_assert_str_eq(body, "{\"biomes\": [{\"id\": \"minecraft:snowy_plains\", \"rgb\": \"#ffffff\"}, "
                           "{\"id\": \"minecraft:desert\", \"rgb\": \"#fa9418\"}]}\n");
    free(body);
    cr_assert_eq(http_get("/legend?seed=1&dimension=minecraft:the_nether", &body, &n), 200);
    cr_assert_str_eq(body, "{\"biomes\": [{\"id\": \"minecraft:nether_wastes\", \"rgb\": \"#572526\"}]}\n");
    free(body);
    for (int below = 0; below < 2; below++) {
        const char *bq = below ? "&below=11" : "";
        snprintf(t, sizeof t, "/relief/0/0/0.png?seed=1&dimension=minecraft:the_nether%s", bq);
        cr_assert_eq(http_get(t, &body, &n), 200, "%s: %s", t, body);
        int w, h, w2, h2;
        uint8_t *a = decode_png(body, n, &w, &h);
        free(body);
        snprintf(args, sizeof args, "render --pack %s/tests/packs/dims --settings d:cave %s --seed 1 --area 0,0:255,255 --out %s/r.png "
                 "--heights %s/r.npy", CF_SOURCE_DIR, below ? "--below 11" : "", dir, dir);
        cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
        snprintf(p, sizeof p, "%s/r.png", dir);
        uint8_t *b = read_png(p, &w2, &h2);
        cr_assert(w == 256 && h == 256 && w2 == 256 && h2 == 256);
        cr_assert_eq(memcmp(a, b, 256 * 256 * 3), 0, "%s differs from render", t);
        int nz, nx;
        snprintf(p, sizeof p, "%s/r.npy", dir);
        int32_t *hts = read_npy(p, &nz, &nx);
        snprintf(t, sizeof t, "/at?x=17&z=200&seed=1&dimension=minecraft:the_nether%s", bq);
        cr_assert_eq(http_get(t, &body, &n), 200, "%s: %s", t, body);
        char want[64];
        snprintf(want, sizeof want, "\"height\": %d,", hts[200 * 256 + 17]);
        cr_assert(strstr(body, want) && strstr(body, "\"biome\": \"minecraft:nether_wastes\""), "%s: %s (want %s)", t, body, want);
        cr_assert(below ? hts[200 * 256 + 17] <= 11 : hts[200 * 256 + 17] == 15, "%d", hts[200 * 256 + 17]);
        free(body), free(a), free(b), free(hts);
    }
}

/* /at's biome equals `chunkfill biome --at X,H,Z` (H: /at's height) for the same world; a
 * biomes tile equals render --layer biomes of its area */
Test(http, at_biome_equals_the_biome_command)
{
    start_server_of("--settings minecraft:overworld", "");
    static const int pts[][2] = {{0, 0}, {-700, 650}, {1234, -4321}, {-3000, -2900}};
    char seen[4][96];
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        char t[256], *body;
        size_t n;
        snprintf(t, sizeof t, "/at?x=%d&z=%d&seed=11&settings=minecraft:overworld", pts[i][0], pts[i][1]);
        cr_assert_eq(http_get(t, &body, &n), 200, "%s: %s", t, body);
        int hgt;
        const char *hp = strstr(body, "\"height\": "), *bp = strstr(body, "\"biome\": \"");
        cr_assert(hp && bp && sscanf(hp + 10, "%d", &hgt) == 1, "%s: %s", t, body);
        char biome[96] = "";
        cr_assert_eq(sscanf(bp + 10, "%95[^\"]", biome), 1);
        char cmd[1024], out[256] = "";
        snprintf(cmd, sizeof cmd, "'%s' biome --settings minecraft:overworld --seed 11 --at %d,%d,%d", CF_BINARY, pts[i][0],
                 hgt, pts[i][1]);
        FILE *p = popen(cmd, "r");
        cr_assert_not_null(p);
        cr_assert_not_null(fgets(out, sizeof out, p));
        cr_assert_eq(pclose(p), 0);
        char want[256];
        snprintf(want, sizeof want, "%d %d %d %s\n", pts[i][0], hgt, pts[i][1], biome);
        cr_assert_str_eq(out, want, "%s: %s", t, body);
        snprintf(seen[i], sizeof seen[i], "%s", biome);
        free(body);
    }
    cr_assert(strcmp(seen[0], seen[1]) || strcmp(seen[0], seen[2]) || strcmp(seen[0], seen[3]), "one biome everywhere");
    char *body, args[1024], err[4096], p[256];
    size_t n;
    cr_assert_eq(http_get("/biomes/0/-1/0.png?seed=11", &body, &n), 200, "%s", body);
    int w, h, w2, h2;
    uint8_t *a = decode_png(body, n, &w, &h);
    snprintf(args, sizeof args, "render --seed 11 --layer biomes --area -256,0:-1,255 --out %s/r.png", dir);
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    snprintf(p, sizeof p, "%s/r.png", dir);
    uint8_t *r = read_png(p, &w2, &h2);
    cr_assert(w == 256 && h == 256 && w2 == 256 && h2 == 256);
    cr_assert_eq(memcmp(a, r, 256 * 256 * 3), 0, "the biomes tile differs from render");
    free(a), free(r), free(body);
}

/* the CPU seconds (user + system) process pid has used so far (/proc/PID/stat) */
static double proc_cpu_s(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *c = strrchr(buf, ')'); /* the name may hold spaces: fields 14 and 15 after it */
    unsigned long long ut = 0, st = 0;
    cr_assert(c && sscanf(c + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2, "%s", buf);
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double children_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

/* a served tile is the tiles command's file byte for byte at levels 0 and 4 (26.3's overworld:
 * the server compiles the noise stage's blocks, tiles of relief the final density alone), and
 * costs what tiles costs: the level-4 tile took 7x the tiles command's CPU while the aquifer's
 * interpolated nodes kept the server's samples off the corner path (heights.c corner_exact) */
/* tile layer/z/tx/ty of seed served by the running server equals the tiles command's file of
 * world byte for byte; *served and *tiles: the CPU seconds of each (the server's from /proc,
 * the command's from RUSAGE_CHILDREN) */
static void served_equals_tiles(const char *world, const char *layer, int seed, int z, int tx, int ty, double *served,
                                double *tiles)
{
    char t[256], args[2048], err[4096], path[2048], *body;
    size_t n;
    snprintf(t, sizeof t, "/%s/%d/%d/%d.png?seed=%d", layer, z, tx, ty, seed);
    double s0 = proc_cpu_s(srv_pid);
    cr_assert_eq(http_get(t, &body, &n), 200, "%s: %s", t, body);
    *served = proc_cpu_s(srv_pid) - s0;
    long span = 256L << z;
    snprintf(args, sizeof args, "tiles %s --seed %d --threads 1 --quiet --layer %s --zoom %d..%d --area %ld,%ld:%ld,%ld --out %s/t",
             world, seed, layer, z, z, tx * span, ty * span, tx * span + span - 1, ty * span + span - 1, dir);
    double c0 = children_cpu_s();
    cr_assert_eq(run(args, err, sizeof err), 0, "%s", err);
    *tiles = children_cpu_s() - c0;
    snprintf(path, sizeof path, "%s/t/%s/%d/%d/%d.png", dir, layer, z, tx, ty);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *want = malloc(n + 1);
    size_t m = fread(want, 1, n + 1, f);
    fclose(f);
    cr_assert(m == n && memcmp(want, body, n) == 0, "%s: %zu bytes served, %s has %zu (or other bytes)", t, n, path, m);
    free(want), free(body);
}

/* a server of ../shared's vanilla data of version v (its overworld), one thread; world: its
 * --pack and --settings for the CLI */
static void start_vanilla_server(const char *v, char *world, size_t n)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/%s", shared_dir(), v);
    struct stat sb;
    if (stat(pack, &sb) != 0) shared_missing(pack);
    snprintf(world, n, "--pack '%s' --settings minecraft:overworld", pack);
    start_server_of(world, "--threads 1 --tile-timeout-ms 600000");
}

Test(http, served_tiles_are_the_tiles_command_bytes_at_its_cost)
{
    char world[1100];
    start_vanilla_server("26.3", world, sizeof world);
    static const struct { int z, tx, ty; } tl[] = {{0, -1, 0}, {4, 0, -1}};
    for (size_t i = 0; i < sizeof tl / sizeof tl[0]; i++) {
        double served, tiles;
        served_equals_tiles(world, "relief", 7, tl[i].z, tl[i].tx, tl[i].ty, &served, &tiles);
        /* tiles' CPU holds its pack's compile too: the served tile at most twice it (it was 7x) */
        if (tl[i].z == 4)
            cr_assert_leq(served, 2.0 * tiles, "level 4: the server spent %.2f CPU s, the tiles command %.2f", served, tiles);
        cr_log_info("level %d: server %.2f CPU s, tiles %.2f CPU s", tl[i].z, served, tiles);
    }
}

/* 1.18-1.21 data over HTTP (the double dialect: its heights, its aquifer and surface rules in
 * f64): a level-0 tile of each layer served equals the tiles command's file byte for byte */
Test(http, served_tiles_of_121_data_are_the_tiles_command_bytes)
{
    char world[1100];
    start_vanilla_server("1.21.11", world, sizeof world);
    static const char *layers[] = {"relief", "water", "biomes", "blocks"};
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++) {
        double served, tiles;
        served_equals_tiles(world, layers[i], 5, 0, -1, 0, &served, &tiles);
    }
}

Test(http, hostile_requests_get_errors_and_the_server_stays_correct)
{
    start_server("--max-zoom 8");
    static const struct {
        const char *target;
        int code;
    } bad[] = {
        {"/../../../etc/passwd", 404},
        {"/relief/0/../../../etc/passwd.png?seed=1", 404},
        {"/%2e%2e/%2e%2e/etc/passwd", 404},
        {"/relief/0/0/0.png/..?seed=1", 404},
        {"/relief/999999999999999999999/0/0.png?seed=1", 404},
        {"/relief/9/0/0.png?seed=1", 404},
        {"/relief/0/99999999999999999999/0.png?seed=1", 404},
        {"/relief/0/8400000/0.png?seed=1", 404},
        {"/relief/0/-8400000/0.png?seed=1", 404},
        {"/relief/0/1e3/0.png?seed=1", 404},
        {"/nosuch/0/0/0.png?seed=1", 404},
        {"/relief/0/0/0.png", 400},
        {"/relief/0/0/0.png?seed", 400},
        {"/relief/0/0/0.png?seed=1&seed=2", 400},
        {"/relief/0/0/0.png?seed=%", 400},
        {"/relief/0/0/0.png?seed=%4", 400},
        {"/relief/0/0/0.png?seed=%00", 400},
        {"/relief/0/0/0.png?seed=", 400},
        {"/relief/0/0/0.png?seed=1&settings=nope", 404},
        {"/at?x=abc&z=1&seed=1", 400},
        {"/at?x=1&seed=1", 400},
        {"/at?x=99999999999&z=1&seed=1", 400},
        {"/at?x=--1&z=1&seed=1", 400},
        {"relief/0/0/0.png?seed=1", 400},
        {"/relief/0/0/0.png?seed=1&below=x", 400},
        {"/relief/0/0/0.png?seed=1&below=", 400},
        {"/relief/0/0/0.png?seed=1&below=99999999999", 400},
        {"/relief/0/0/0.png?seed=1&below=1.5", 400},
        {"/relief/0/0/0.png?seed=1&below=1&below=2", 400},
        {"/at?x=1&z=1&seed=1&below=%2B3", 400},
        {"/at?x=1&z=1&seed=1&dimension=minecraft:the_nether", 404},
        {"/relief/0/0/0.png?seed=1&dimension=%0a", 404},
        {"/legend", 400},
        {"/legend?seed=1&dimension=nope", 404},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *body;
        size_t n;
        int code = http_get(bad[i].target, &body, &n);
        cr_assert_eq(code, bad[i].code, "%s: %d %s", bad[i].target, code, body);
        cr_assert(n > 0 && body[n - 1] == '\n' && strchr(body, '\n') == body + n - 1, "%s: one line: %s", bad[i].target, body);
        free(body);
    }
    static const char *const raw[] = {
        "POST / HTTP/1.1\r\n\r\n", "GET /\r\n\r\n", "GET / SMTP/1.0\r\n\r\n", "\r\n\r\n", "GET  HTTP/1.1\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
        int code = http_raw(raw[i], strlen(raw[i]), NULL, NULL);
        cr_assert(code == 400 || code == 405, "%s: %d", raw[i], code);
    }
    /* an endless head, and a binary one */
    char *big = malloc(20000);
    memset(big, 'A', 20000);
    memcpy(big, "GET /", 5);
    cr_assert_eq(http_raw(big, 20000, NULL, NULL), 431);
    for (int i = 0; i < 20000; i++) big[i] = (char)(i * 7919 % 256);
    int code = http_raw(big, 20000, NULL, NULL);
    cr_assert(code == 400 || code == 431 || code == 0, "%d", code);
    free(big);
    check_tile_and_at(0, 0);
}

typedef struct getter {
    char target[128];
    int code;
    char *body;
    size_t n;
} getter;

static void *get_thread(void *arg)
{
    getter *g = arg;
    g->code = http_get(g->target, &g->body, &g->n);
    return NULL;
}

/* 200 concurrent requests for one tile: all answered with the same bytes, computed
 * once; then 30 concurrent requests for other tiles keep the cache under its bound */
static void get_all(getter *g, int n)
{
    pthread_t *th = malloc(sizeof *th * (size_t)n);
    for (int i = 0; i < n; i++) cr_assert_eq(pthread_create(&th[i], NULL, get_thread, &g[i]), 0);
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
    free(th);
}

Test(http, concurrent_requests_compute_a_tile_once_and_the_cache_stays_bounded)
{
    start_server("--cache-mb 1 --workers 4");
    enum { SAME = 200, OTHER = 30 };
    static getter g[SAME + OTHER];
    for (int i = 0; i < SAME + OTHER; i++) {
        if (i < SAME) snprintf(g[i].target, sizeof g[i].target, "/relief/0/3/-2.png?seed=5");
        else snprintf(g[i].target, sizeof g[i].target, "/relief/0/%d/%d.png?seed=5", i % 6 - 3, i / 6 - 40);
    }
    get_all(g, SAME);
    cr_assert_eq(count_in_log("GET /relief/0/3/-2.png?seed=5 200 computed"), 1u);
    cr_assert_eq(count_in_log("/relief/0/3/-2.png?seed=5 200"), (size_t)SAME);
    get_all(g + SAME, OTHER);
    for (int i = 0; i < SAME + OTHER; i++) {
        cr_assert_eq(g[i].code, 200, "%s: %d", g[i].target, g[i].code);
        if (i > 0 && i < SAME) cr_assert(g[i].n == g[0].n && memcmp(g[i].body, g[0].body, g[0].n) == 0);
    }
    for (int i = 0; i < SAME + OTHER; i++) free(g[i].body);
    /* the cache folder holds at most 1 MiB (and the tile being written) */
    DIR *d = opendir(cache_dir);
    cr_assert_not_null(d);
    struct dirent *de;
    long long bytes = 0;
    while ((de = readdir(d))) {
        char p[512];
        struct stat sb;
        snprintf(p, sizeof p, "%s/%s", cache_dir, de->d_name);
        if (de->d_name[0] != '.' && stat(p, &sb) == 0) bytes += sb.st_size;
    }
    closedir(d);
    cr_assert(bytes <= (1 << 20), "cache holds %lld bytes", bytes);
    check_tile_and_at(0, 0);
}

/* clients that go away mid-tile or stall in the head: no crash, bounded memory,
 * correct answers after */
Test(http, clients_that_disconnect_or_stall)
{
    start_server("--workers 2");
    for (int i = 0; i < 30; i++) {
        int fd = connect_srv();
        cr_assert(fd >= 0);
        char req[256];
        int n = snprintf(req, sizeof req, "GET /relief/0/%d/7.png?seed=5 HTTP/1.1\r\n\r\n", i % 6);
        cr_assert_eq(send(fd, req, (size_t)n, MSG_NOSIGNAL), n);
        close(fd); /* before the tile is drawn */
    }
    int stall[3];
    for (int i = 0; i < 3; i++) {
        stall[i] = connect_srv();
        cr_assert_eq(send(stall[i], "GET /relief/0/0/", 16, MSG_NOSIGNAL), 16);
    }
    check_tile_and_at(1, 1);
    for (int i = 0; i < 3; i++) close(stall[i]);
    char status[128];
    snprintf(status, sizeof status, "/proc/%d/status", (int)srv_pid);
    FILE *f = fopen(status, "r");
    char line[256];
    long rss = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &rss) == 1) break;
    if (f) fclose(f);
    cr_assert(rss > 0 && rss < 300 * 1024, "server RSS %ld kB", rss);
    cr_assert_eq(kill(srv_pid, 0), 0, "the server is gone");
}

Test(http, only_loopback_addresses)
{
    char err[4096];
    tsetup();
    cr_assert_neq(run("serve --http 0.0.0.0:0 --pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny", err, sizeof err), 0);
    cr_assert(strstr(err, "only loopback"), "%s", err);
    cr_assert_neq(run("serve --http nonsense", err, sizeof err), 0);
    tteardown();
}
