/* test_serve.c - the offload server (`chunkfill serve`, host/net/PROTOCOL.md) end to end:
 * the server runs as a child process (the chunkfill binary) on an ephemeral
 * loopback port or a Unix socket; its results are compared bit for bit with
 * local fills (`chunkfill fill` files, cf_fill_chunks buffers). Hostile clients
 * speak raw frames (malformed, oversized, wrong version, half a frame then
 * silence, vanishing mid-response, wrong token, too many connections), and after
 * each a well-behaved client must be served correctly. A load test runs 32
 * clients x 200 requests on the CPU and on PoCL (where launches must be far fewer
 * than requests: batching across clients). The Java client is compiled with
 * javac and run; a missing javac fails the test.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chunkfill.h"
#include "chunkfill_net.h"
#include "net/proto.h"

#define TINY CF_SOURCE_DIR "/tests/packs/tiny"

/* ------------------------------------------------------------ server process */

typedef struct srv {
    pid_t pid;
    char addr[160], log[64];
    int port;
} srv;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* starts `chunkfill serve ARGS...` (NULL-terminated); waits for "listening on" */
static void srv_start_argv(srv *s, const char *const *args)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = CF_BINARY;
    argv[n++] = "serve";
    for (int i = 0; args[i]; i++) argv[n++] = args[i];
    argv[n] = NULL;
    snprintf(s->log, sizeof s->log, "/tmp/cf-serve-log-XXXXXX");
    int lfd = mkstemp(s->log);
    cr_assert_geq(lfd, 0);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    s->pid = fork();
    cr_assert_geq(s->pid, 0);
    if (s->pid == 0) {
        dup2(p[1], 1);
        dup2(lfd, 2);
        close(p[0]);
        execv(CF_BINARY, (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    close(lfd);
    FILE *f = fdopen(p[0], "r");
    char line[256];
    s->addr[0] = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strncmp(line, "listening on ", 13) == 0) {
            snprintf(s->addr, sizeof s->addr, "%.150s", line + 13);
            break;
        }
    }
    fclose(f);
    cr_assert(s->addr[0], "the server did not print 'listening on' (log %s)", s->log);
    const char *colon = strrchr(s->addr, ':');
    s->port = strncmp(s->addr, "unix:", 5) == 0 ? 0 : atoi(colon + 1);
}

#define SRV_START(s, ...) srv_start_argv(s, (const char *const[]){__VA_ARGS__, NULL})
#define SRV_TINY(s, ...) SRV_START(s, "--pack", TINY, "--settings", "t:tiny", "--device", "cpu", __VA_ARGS__)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) b[0] = 0;
    fclose(f);
    return b;
}

/* SIGTERM, wait (at most 30 s), copy the log to stderr (sanitizer reports must reach
 * the test log); returns the log text (free it) and the exit status in *status */
static char *srv_stop(srv *s, int *status)
{
    kill(s->pid, SIGTERM);
    int st = -1;
    double t0 = now_s();
    while (waitpid(s->pid, &st, WNOHANG) == 0) {
        if (now_s() - t0 > 30) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
            cr_log_error("server did not stop within 30 s after SIGTERM");
            st = -1;
            break;
        }
        usleep(10000);
    }
    char *log = slurp(s->log);
    fprintf(stderr, "--- server log (%s)\n%s--- end of server log\n", s->log, log);
    unlink(s->log);
    *status = st;
    return log;
}

/* stops the server and asserts a clean exit (0) */
static char *srv_stop_ok(srv *s)
{
    int st;
    char *log = srv_stop(s, &st);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the server did not exit 0 after SIGTERM (status %d)", st);
    return log;
}

/* ------------------------------------------------------------ references */

typedef struct ref {
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    int height;
} ref;

static void ref_open(ref *r, const char *pack, const char *settings, int64_t seed)
{
    cf_error err = {0};
    const char *paths[1] = {pack};
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_pack_open(&r->pk, paths, pack ? 1 : 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile(&r->pg, r->pk, settings, fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&r->w, r->pg, seed, &err), CF_OK, "%s", err.message);
    cf_program_settings(r->pg, NULL, &r->height, NULL);
}

static float *ref_fill(ref *r, size_t n, const int32_t *xz)
{
    cf_error err = {0};
    float *v = malloc(sizeof(float) * (size_t)r->height * 256 * n);
    cr_assert_not_null(v);
    cr_assert_eq(cf_fill_chunks(r->w, 0, n, xz, v, 1, &err), CF_OK, "%s", err.message);
    return v;
}

static void ref_close(ref *r)
{
    cf_world_free(r->w);
    cf_program_free(r->pg);
    cf_pack_free(r->pk);
}

/* a well-behaved client: three chunks (one far away) equal the local fill */
static void good_client(const srv *s, const char *token)
{
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s->addr, token, &err), CF_OK, "%s", err.message);
    int32_t xz[6] = {0, 0, -3, 5, 133999999, -134000000};
    ref r;
    ref_open(&r, TINY, "t:tiny", 12345);
    float *want = ref_fill(&r, 3, xz), *got = malloc(sizeof(float) * 3 * 16 * 256);
    cr_assert_eq(cf_client_fill(c, "t:tiny", 12345, CF_KIND_DENSITY_F32, 3, xz, got, &err), CF_OK, "%s", err.message);
    cr_assert(memcmp(want, got, sizeof(float) * 3 * 16 * 256) == 0, "served chunks differ from the local fill");
    free(want), free(got);
    ref_close(&r);
    cf_client_close(c);
}

/* ------------------------------------------------------------ raw frames */

static int raw_connect(const srv *s)
{
    int fd;
    if (s->port == 0) {
        struct sockaddr_un su = {0};
        su.sun_family = AF_UNIX;
        snprintf(su.sun_path, sizeof su.sun_path, "%s", s->addr + 5);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        cr_assert_eq(connect(fd, (struct sockaddr *)&su, sizeof su), 0);
    } else {
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_port = htons((uint16_t)s->port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0, "connect: %s", strerror(errno));
    }
    struct timeval tv = {20, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static void raw_send(int fd, const void *p, size_t n)
{
    cr_assert_eq(send(fd, p, n, MSG_NOSIGNAL), (ssize_t)n, "send: %s", strerror(errno));
}

static void raw_buf(int fd, cfp_buf *b)
{
    cr_assert(!b->oom);
    raw_send(fd, b->p, b->len);
    cfp_buf_free(b);
}

static int recv_all(int fd, void *p, size_t n)
{
    size_t off = 0;
    while (off < n) {
        ssize_t k = recv(fd, (uint8_t *)p + off, n - off, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        off += (size_t)k;
    }
    return 0;
}

/* the next frame into *p (malloc'd, free it); returns its payload length, -1 at EOF */
static long raw_frame(int fd, unsigned *type, uint8_t **p)
{
    uint8_t h[CFP_HEADER];
    *p = NULL;
    if (recv_all(fd, h, sizeof h) < 0) return -1;
    uint32_t n = cfp_le32(h);
    *type = cfp_le16(h + 4);
    cr_assert_leq(n, CFP_SERVER_FRAME_MAX);
    *p = malloc(n ? n : 1);
    cr_assert_eq(recv_all(fd, *p, n), 0, "frame cut short");
    return (long)n;
}

static void send_hello(int fd, unsigned version, const char *token)
{
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_HELLO), tl = token ? strlen(token) : 0;
    cfp_u32(&b, CFP_MAGIC);
    cfp_u16(&b, version);
    cfp_u16(&b, (unsigned)tl);
    cfp_put(&b, token, tl);
    cfp_end(&b, at);
    raw_buf(fd, &b);
}

static void hello_ok(int fd)
{
    send_hello(fd, CFP_VERSION, NULL);
    unsigned t;
    uint8_t *p;
    cr_assert_geq(raw_frame(fd, &t, &p), 0);
    cr_assert_eq(t, CFP_HELLO_OK);
    free(p);
}

static void send_fill(int fd, uint32_t id, int kind, const char *config, int64_t seed, uint32_t deadline, uint32_t n,
                      const int32_t *xz)
{
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_FILL), cl = strlen(config);
    cfp_u32(&b, id);
    cfp_u8(&b, (unsigned)kind);
    cfp_u8(&b, (unsigned)cl);
    cfp_u16(&b, 0);
    cfp_u64(&b, (uint64_t)seed);
    cfp_u32(&b, deadline);
    cfp_u32(&b, n);
    cfp_put(&b, config, cl);
    for (uint32_t i = 0; i < 2 * n; i++) cfp_u32(&b, (uint32_t)xz[i % 2]); /* every chunk at xz[0..1] */
    cfp_end(&b, at);
    raw_buf(fd, &b);
}

/* reads frames until an ERROR; checks its request id and code; returns the CHUNK frames seen */
static int expect_error(int fd, uint32_t id, int code)
{
    int chunks = 0;
    for (;;) {
        unsigned t;
        uint8_t *p;
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0, "connection closed before the error frame %s", cfp_err_name(code));
        if (t == CFP_CHUNK) {
            cr_assert_eq(cfp_le32(p), id);
            cr_assert_eq(cfp_le32(p + 4), (uint32_t)chunks, "chunk frames out of order");
            chunks++;
            free(p);
            continue;
        }
        cr_assert_eq(t, CFP_ERROR, "expected an error frame, got type 0x%02x", t);
        cr_assert_geq(n, 8);
        cr_assert_eq(cfp_le32(p), id, "error frame for request %u, expected %u", cfp_le32(p), id);
        cr_assert_eq(cfp_le16(p + 4), code, "error %s, expected %s", cfp_err_name(cfp_le16(p + 4)), cfp_err_name(code));
        cr_assert_eq(n, 8 + (long)cfp_le16(p + 6));
        free(p);
        return chunks;
    }
}

static void expect_eof(int fd)
{
    unsigned t;
    uint8_t *p;
    cr_assert_eq(raw_frame(fd, &t, &p), -1, "the server kept the connection open (frame type 0x%02x)", t);
}

/* a fatal error: the error frame (request id 0), then the end of the stream */
static void expect_fatal(int fd, int code)
{
    expect_error(fd, 0, code);
    expect_eof(fd);
    close(fd);
}

static void assert_log(const char *log, const char *what)
{
    cr_assert(strstr(log, what), "the server log has no line with '%s'", what);
}

/* ------------------------------------------------------------ end to end */

static int run(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int files_equal(const char *a, const char *b)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    return run(cmd) == 0;
}

static void tmpname(char *out, size_t n, const char *tail)
{
    char base[64] = "/tmp/cf-serve-XXXXXX";
    int fd = mkstemp(base);
    cr_assert_geq(fd, 0);
    close(fd);
    unlink(base);
    snprintf(out, n, "%s%s", base, tail);
}

Test(serve, cli_fill_through_server_equals_local_fill, .timeout = 120)
{
    char sock[128], loc[128], rem[128], rem2[128], cmd[2048];
    tmpname(sock, sizeof sock, ".sock");
    tmpname(loc, sizeof loc, "-local.npy");
    tmpname(rem, sizeof rem, "-tcp.npy");
    tmpname(rem2, sizeof rem2, "-unix.npy");
    char lsock[160];
    snprintf(lsock, sizeof lsock, "unix:%s", sock);
    srv s;
    SRV_START(&s, "--settings", "minecraft:overworld", "--device", "cpu", "--listen", "127.0.0.1:0", "--listen", lsock);
    /* the embedded default pack: 6 overworld chunks (384 blocks high) */
    snprintf(cmd, sizeof cmd, "%s fill --seed 8675309 --chunks -2,-1:0,0 --out %s", CF_BINARY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 8675309 --chunks -2,-1:0,0 --out %s", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 8675309 --chunks -2,-1:0,0 --out %s", CF_BINARY, lsock, rem2);
    cr_assert_eq(run(cmd), 0);
    cr_assert(files_equal(loc, rem), "fill --server (TCP) differs from the local fill");
    cr_assert(files_equal(loc, rem2), "fill --server (unix socket) differs from the local fill");
    /* an unknown configuration: one line, exit 1, no file */
    snprintf(cmd, sizeof cmd, "%s fill --server %s --settings t:none --seed 1 --chunks 0,0 --out %s.x 2>/dev/null", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 1);
    char *log = srv_stop_ok(&s);
    free(log);
    struct stat st;
    cr_assert_neq(stat(sock, &st), 0, "the unix socket was not removed at shutdown");
    unlink(loc), unlink(rem), unlink(rem2);
}

Test(serve, c_client_equals_library_fill, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-chunks", "100");
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    int min_y, height, prec;
    cr_assert_str_eq(cf_client_config(c, 0, &min_y, &height, &prec), "t:tiny");
    cr_assert_null(cf_client_config(c, 1, NULL, NULL, NULL));
    cr_assert_eq(min_y, 0);
    cr_assert_eq(height, 16);
    cr_assert_eq(prec, 32);
    cr_assert_eq(cf_client_max_chunks(c), 100);
    /* 250 chunks: three requests of at most 100 */
    int32_t xz[500];
    for (int i = 0; i < 250; i++) xz[2 * i] = i * 7919 % 2001 - 1000, xz[2 * i + 1] = i * 104729 % 3001 - 1500;
    xz[0] = CF_MAX_CHUNK, xz[1] = -CF_MAX_CHUNK;
    ref r;
    ref_open(&r, TINY, "t:tiny", -4242);
    float *want = ref_fill(&r, 250, xz), *got = malloc(sizeof(float) * 250 * 4096);
    cr_assert_eq(cf_client_fill(c, "t:tiny", -4242, CF_KIND_DENSITY_F32, 250, xz, got, &err), CF_OK, "%s", err.message);
    cr_assert(memcmp(want, got, sizeof(float) * 250 * 4096) == 0, "served chunks differ from cf_fill_chunks");
    double ms;
    cr_assert_eq(cf_client_ping(c, &ms, &err), CF_OK, "%s", err.message);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK, "%s", err.message);
    cr_assert_eq(st.chunks, 250);
    cr_assert_eq(st.requests, 3);
    cr_assert_eq(st.errors, 0);
    cr_assert_eq(st.connections, 1);
    cr_assert_str_eq(st.device, "cpu");
    /* a request error keeps the connection usable */
    cr_assert_eq(cf_client_fill(c, "t:tiny", 1, CF_KIND_DENSITY_F64, 1, xz, got, &err), CF_ERR_ARG);
    cr_assert_eq(cf_client_error_code(c), CFP_E_UNSUPPORTED_KIND);
    cr_assert(strstr(err.message, "unsupported_kind"), "%s", err.message);
    cr_assert_eq(cf_client_fill(c, "t:tiny", -4242, CF_KIND_DENSITY_F32, 2, xz, got, &err), CF_OK, "%s", err.message);
    cr_assert(memcmp(want, got, sizeof(float) * 2 * 4096) == 0);
    cf_client_close(c);
    free(want), free(got);
    ref_close(&r);
    free(srv_stop_ok(&s));
}

Test(serve, java_client_equals_cli_fill, .timeout = 180)
{
    /* compiled here, in the test run; no javac is a failure (scripts/deps.sh installs it) */
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0,
                 "javac/java not found: install openjdk-17-jdk-headless (scripts/deps.sh)");
    char dir[128], cmd[2048], loc[160], rem[160];
    tmpname(dir, sizeof dir, "-java");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java", dir, dir,
             CF_SOURCE_DIR);
    cr_assert_eq(run(cmd), 0, "javac failed");
    snprintf(loc, sizeof loc, "%s/local.npy", dir);
    snprintf(rem, sizeof rem, "%s/java.npy", dir);
    char sock[160];
    snprintf(sock, sizeof sock, "unix:%s/s.sock", dir);
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--listen", sock, "--max-chunks", "64");
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --settings t:tiny --seed -77 --chunks -5,-3:6,4 --out %s", CF_BINARY, TINY, loc);
    cr_assert_eq(run(cmd), 0);
    /* 96 chunks: two requests */
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny -77 -5,-3:6,4 %s", dir, s.addr, rem);
    cr_assert_eq(run(cmd), 0, "the Java example failed");
    cr_assert(files_equal(loc, rem), "the Java client's file differs from the local fill");
    unlink(rem);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny -77 -5,-3:6,4 %s", dir, sock, rem);
    cr_assert_eq(run(cmd), 0, "the Java example failed on a unix socket");
    cr_assert(files_equal(loc, rem), "the Java client's file (unix socket) differs from the local fill");
    /* a text seed is hashed as Minecraft does, on both sides */
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --settings t:tiny --seed 'hello world' --chunks 0,0:1,1 --out %s", CF_BINARY, TINY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny 'hello world' 0,0:1,1 %s", dir, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    cr_assert(files_equal(loc, rem), "text seed: the Java client's file differs from the local fill");
    /* the seed text trimmed as the game trims it (" -77 " is -77), as `chunkfill fill` does */
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --settings t:tiny --seed -77 --chunks 0,0:1,1 --out %s", CF_BINARY, TINY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny ' -77 ' 0,0:1,1 %s", dir, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    cr_assert(files_equal(loc, rem), "seed ' -77 ': the Java client's file differs from seed -77's");
    free(srv_stop_ok(&s));
    /* the server down: one line naming the address, exit 1, no stack trace (issue 31) */
    char errf[200], line[1024] = "";
    snprintf(errf, sizeof errf, "%s/err.txt", dir);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main 127.0.0.1:1 t:tiny 1 0,0:0,0 %s 2>%s", dir, rem, errf);
    cr_assert_eq(run(cmd), 1, "the Java example against no server");
    FILE *f = fopen(errf, "r");
    cr_assert_not_null(f);
    size_t n = fread(line, 1, sizeof line - 1, f);
    line[n] = 0;
    fclose(f);
    cr_assert(strncmp(line, "chunkfill: 127.0.0.1:1: ", 24) == 0 && strchr(line, '\n') == line + n - 1, "not one line: '%s'", line);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

/* 1.18-1.21 data (a double dialect): the server gives DENSITY_F64; `fill --server` and the
 * Java client write the same float64 .npy as a local fill (both refused it as "not a float32
 * dialect" while the server started and offered it) */
Test(serve, double_dialect_through_server_equals_local_fill, .timeout = 180)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/1.21.11", getenv("CF_SHARED") ? getenv("CF_SHARED") : CF_SOURCE_DIR "/../shared");
    if (access(pack, R_OK) != 0) { /* skipped in a clone alone; CI (CI=true) has ../shared */
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) cr_assert_fail("%s is missing (CI=true: the shared data must be beside the clone)", pack);
        cr_skip_test("no %s (../shared beside the clone, or CF_SHARED; CI has it)", pack);
    }
    char loc[128], rem[128], jrem[160], dir[128], cmd[4096];
    tmpname(loc, sizeof loc, "-local.npy");
    tmpname(rem, sizeof rem, "-server.npy");
    tmpname(dir, sizeof dir, "-java");
    snprintf(jrem, sizeof jrem, "%s/java.npy", dir);
    srv s;
    SRV_START(&s, "--pack", pack, "--settings", "minecraft:overworld", "--device", "cpu", "--listen", "127.0.0.1:0");
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    int prec = 0;
    cr_assert_str_eq(cf_client_config(c, 0, NULL, NULL, &prec), "minecraft:overworld");
    cr_assert_eq(prec, 64);
    cf_client_close(c);
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --seed 12 --chunks -1,3:0,4 --out %s", CF_BINARY, pack, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 12 --chunks -1,3:0,4 --out %s", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 0, "fill --server of a float64 configuration failed");
    cr_assert(files_equal(loc, rem), "fill --server (float64) differs from the local fill");
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0,
                 "javac/java not found: install openjdk-17-jdk-headless (scripts/deps.sh)");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java && "
             "java -cp %s chunkfill.Main %s minecraft:overworld 12 -1,3:0,4 %s", dir, dir, CF_SOURCE_DIR, dir, s.addr, jrem);
    cr_assert_eq(run(cmd), 0, "the Java example failed on a float64 configuration");
    cr_assert(files_equal(loc, jrem), "the Java client's float64 file differs from the local fill");
    free(srv_stop_ok(&s));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
    unlink(loc), unlink(rem);
}

/* ------------------------------------------------------------ frame decoding */

/* BLOCKS_U8: the blocks of the noise stage (final density + the aquifer) through the
 * server, by the CLI and by the Java client, equal a local `fill --blocks` (file and
 * palette); the HELLO_OK record carries the palette */
Test(serve, blocks_through_server_equal_local_fill, .timeout = 240)
{
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0,
                 "javac/java not found: install openjdk-17-jdk-headless (scripts/deps.sh)");
    char dir[128], cmd[2048], loc[160], rem[160], jav[160], a[200], b[200];
    tmpname(dir, sizeof dir, "-blocks");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java", dir, dir,
             CF_SOURCE_DIR);
    cr_assert_eq(run(cmd), 0, "javac failed");
    snprintf(loc, sizeof loc, "%s/local.npy", dir);
    snprintf(rem, sizeof rem, "%s/server.npy", dir);
    snprintf(jav, sizeof jav, "%s/java.npy", dir);
    srv s;
    SRV_START(&s, "--settings", "minecraft:overworld", "--device", "cpu", "--listen", "127.0.0.1:0");
    /* the embedded default pack has aquifers: water and barriers below its sea level */
    snprintf(cmd, sizeof cmd, "%s fill --seed 31 --chunks 3,-2:5,-1 --blocks --out %s", CF_BINARY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 31 --chunks 3,-2:5,-1 --blocks --out %s", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main --blocks %s minecraft:overworld 31 3,-2:5,-1 %s", dir, s.addr, jav);
    cr_assert_eq(run(cmd), 0, "the Java example failed");
    cr_assert(files_equal(loc, rem), "fill --server --blocks differs from the local block fill");
    cr_assert(files_equal(loc, jav), "the Java client's block file differs from the local block fill");
    snprintf(a, sizeof a, "%s/local.palette.json", dir);
    snprintf(b, sizeof b, "%s/server.palette.json", dir);
    cr_assert(files_equal(a, b), "the palettes differ");
    snprintf(b, sizeof b, "%s/java.palette.json", dir);
    cr_assert(files_equal(a, b), "the Java palette differs");
    /* the C client sees the palette */
    cf_client *c;
    cf_error err = {0};
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    const char *names[CF_PALETTE_MAX];
    cr_assert_eq(cf_client_palette(c, "minecraft:overworld", names), 4);
    cr_assert_str_eq(names[0], "minecraft:stone");
    cr_assert_str_eq(names[2], "minecraft:water");
    cf_client_close(c);
    free(srv_stop_ok(&s));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

/* the surface stage through the server (protocol version 2: BLOCKS_U8 with stage 1): the CLI
 * and the Java client write the local --stage surface file by default and the --stage noise file
 * when asked, and the two differ (a server that ignored the stage would fail); a version 1
 * hello is not offered the stage */
Test(serve, surface_stage_through_server, .timeout = 240)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.2", getenv("CF_SHARED") ? getenv("CF_SHARED") : CF_SOURCE_DIR "/../shared");
    if (access(pack, R_OK) != 0) { /* skipped in a clone alone; CI (CI=true) has ../shared */
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) cr_assert_fail("%s is missing (CI=true: the shared data must be beside the clone)", pack);
        cr_skip_test("no %s (../shared beside the clone, or CF_SHARED; CI has it)", pack);
    }
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0, "javac/java not found");
    char dir[128], cmd[20000], f[6][200];
    tmpname(dir, sizeof dir, "-surface");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java", dir, dir,
             CF_SOURCE_DIR);
    cr_assert_eq(run(cmd), 0, "javac failed");
    static const char *const names[6] = {"ls", "ln", "rs", "rn", "js", "jn"};
    for (int i = 0; i < 6; i++) snprintf(f[i], sizeof f[i], "%s/%s.npy", dir, names[i]);
    srv s;
    SRV_START(&s, "--pack", pack, "--settings", "minecraft:nether", "--device", "cpu", "--listen", "127.0.0.1:0");
    const char *q = "--settings minecraft:nether --seed 3 --chunks 0,0:1,0 --blocks --quiet";
    snprintf(cmd, sizeof cmd, "%s fill --pack %s %s --stage surface --out %s && %s fill --pack %s %s --stage noise --out %s && "
             "%s fill --server %s %s --out %s && %s fill --server %s %s --stage noise --out %s && "
             "java -cp %s chunkfill.Main --blocks %s minecraft:nether 3 0,0:1,0 %s && "
             "java -cp %s chunkfill.Main --blocks --stage noise %s minecraft:nether 3 0,0:1,0 %s",
             CF_BINARY, pack, q, f[0], CF_BINARY, pack, q, f[1], CF_BINARY, s.addr, q, f[2], CF_BINARY, s.addr, q, f[3], dir, s.addr,
             f[4], dir, s.addr, f[5]);
    cr_assert_eq(run(cmd), 0, "a fill failed: %s", cmd);
    cr_assert(!files_equal(f[0], f[1]), "the surface stage changed nothing");
    cr_assert(files_equal(f[0], f[2]), "fill --server --blocks (surface) differs from the local surface stage");
    cr_assert(files_equal(f[1], f[3]), "fill --server --stage noise differs from the local noise stage");
    cr_assert(files_equal(f[0], f[4]), "the Java client's surface stage differs");
    cr_assert(files_equal(f[1], f[5]), "the Java client's noise stage differs");
    cf_client *c;
    cf_error err = {0};
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    cr_assert(cf_client_has_surface(c, "minecraft:nether"));
    cf_client_close(c);
    /* version 1: flags without bit 2, and stage 1 refused */
    int fd = raw_connect(&s);
    send_hello(fd, 1, NULL);
    unsigned t;
    uint8_t *p;
    long n = raw_frame(fd, &t, &p);
    cr_assert_eq(t, CFP_HELLO_OK);
    cr_assert_gt(n, 20 + 1 + 16 + 3);
    cr_assert_eq(cfp_le16(p + 4), 1, "the answer speaks the client's version");
    cr_assert_eq(p[20], 16); /* "minecraft:nether" */
    cr_assert_eq(p[20 + 1 + 16 + 2] & 4, 0, "a version 1 client is offered the surface stage");
    cr_assert_eq(p[20 + 1 + 16 + 2] & 1, 1);
    free(p);
    close(fd);
    free(srv_stop_ok(&s));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

static size_t fill_payload(uint8_t *out, uint32_t id, unsigned clen, unsigned zero, uint32_t n, size_t nchunks)
{
    cfp_buf b = {0};
    cfp_u32(&b, id), cfp_u8(&b, 1), cfp_u8(&b, clen), cfp_u16(&b, zero), cfp_u64(&b, (uint64_t)-5), cfp_u32(&b, 250);
    cfp_u32(&b, n);
    cfp_put(&b, "abcdefgh", clen);
    for (size_t i = 0; i < nchunks; i++) cfp_u32(&b, (uint32_t)-1 - (uint32_t)i), cfp_u32(&b, (uint32_t)i);
    cr_assert(!b.oom);
    memcpy(out, b.p, b.len);
    size_t len = b.len;
    cfp_buf_free(&b);
    return len;
}

Test(proto, fill_decoder_checks_every_length)
{
    uint8_t p[256];
    cfp_fill f;
    size_t len = fill_payload(p, 77, 3, 0, 2, 2);
    cr_assert_eq(len, 24 + 3 + 16);
    cr_assert_eq(cfp_fill_parse(p, len, &f), 0);
    cr_assert_eq(f.id, 77);
    cr_assert_eq(f.kind, 1);
    cr_assert_eq(f.seed, -5);
    cr_assert_eq(f.deadline_ms, 250);
    cr_assert_eq(f.n, 2);
    cr_assert_eq(f.config_len, 3);
    cr_assert(memcmp(f.config, "abc", 3) == 0);
    cr_assert_eq(cfp_le32s(f.chunks), -1);
    cr_assert_eq(cfp_le32s(f.chunks + 12), 1);
    /* every truncation and one byte too many */
    for (size_t l = 0; l < len; l++) cr_assert_eq(cfp_fill_parse(p, l, &f), -1, "accepted %zu of %zu bytes", l, len);
    cr_assert_eq(cfp_fill_parse(p, len + 1, &f), -1);
    /* n that does not match the chunk bytes, also where 8n overflows 32 bits */
    len = fill_payload(p, 1, 3, 0, 3, 2);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 0, 0x20000000u, 0);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 0, 0x20000001u, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    /* empty configuration name, nonzero reserved byte; the stage byte (version 2) is read */
    len = fill_payload(p, 1, 0, 0, 1, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 0x100, 1, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 1, 1, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), 0);
    cr_assert_eq(f.stage, 1);
}

Test(proto, reader_never_reads_past_the_payload)
{
    const uint8_t p[5] = {1, 2, 3, 4, 5};
    cfp_rd r = {p, 5, 0, 0};
    cr_assert_eq(cfp_rd_u32(&r), 0x04030201u);
    cr_assert_eq(cfp_rd_u16(&r), 0);
    cr_assert(r.bad);
    cr_assert_null(cfp_rd_bytes(&r, 1)); /* sticky */
    cfp_rd q = {p, 5, 0, 0};
    cr_assert_null(cfp_rd_bytes(&q, 6));
    cr_assert_eq(cfp_rd_u64(&q), 0);
}

/* ------------------------------------------------------------ hostile clients */

Test(serve_hostile, malformed_frames, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    /* nonzero reserved header field */
    int fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t bad[8] = {0, 0, 0, 0, CFP_PING, 0, 1, 0};
    raw_send(fd, bad, 8);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* an unknown frame type */
    fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t unk[8] = {0, 0, 0, 0, 0x7f, 0, 0, 0};
    raw_send(fd, unk, 8);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* a FILL whose chunk list is one byte short */
    fd = raw_connect(&s);
    hello_ok(fd);
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_FILL);
    cfp_u32(&b, 1), cfp_u8(&b, 1), cfp_u8(&b, 6), cfp_u16(&b, 0), cfp_u64(&b, 1), cfp_u32(&b, 0), cfp_u32(&b, 1);
    cfp_put(&b, "t:tiny", 6);
    cfp_u32(&b, 0), cfp_u16(&b, 0), cfp_u8(&b, 0);
    cfp_end(&b, at);
    raw_buf(fd, &b);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* a first frame that is not HELLO */
    fd = raw_connect(&s);
    uint8_t stats[8] = {0, 0, 0, 0, CFP_STATS, 0, 0, 0};
    raw_send(fd, stats, 8);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* a fatal error with a request in flight: no frame after the error frame */
    fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {1, 1};
    send_fill(fd, 3, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz);
    {
        unsigned t;
        uint8_t *p;
        cr_assert_geq(raw_frame(fd, &t, &p), 0);
        cr_assert_eq(t, CFP_CHUNK);
        free(p);
    }
    raw_send(fd, unk, 8); /* while the response streams */
    for (;;) {
        unsigned t;
        uint8_t *p;
        cr_assert_geq(raw_frame(fd, &t, &p), 0, "closed without the error frame");
        int fin = t == CFP_ERROR;
        if (fin) cr_assert(cfp_le32(p) == 0 && cfp_le16(p + 4) == CFP_E_MALFORMED);
        else cr_assert_eq(t, CFP_CHUNK);
        free(p);
        if (fin) break;
    }
    expect_eof(fd);
    close(fd);
    /* random bytes */
    fd = raw_connect(&s);
    raw_send(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
    expect_fatal(fd, CFP_E_MALFORMED); /* "HT" read as the reserved field */
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "malformed: frame header with nonzero reserved field (closing)");
    assert_log(log, "malformed: unknown frame type 0x7f (closing)");
    assert_log(log, "malformed: expected a hello frame first");
    free(log);
}

Test(serve_hostile, oversized_frame, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-frame", "4096", "--max-chunks", "100");
    int fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t big[8] = {0, 0, 0, 0x40, CFP_FILL, 0, 0, 0}; /* 1 GiB announced */
    raw_send(fd, big, 8);
    expect_fatal(fd, CFP_E_TOO_LARGE);
    /* just above the limit, before the handshake too */
    fd = raw_connect(&s);
    uint8_t h[8] = {0x09, 0x01, 0, 0, CFP_HELLO, 0, 0, 0}; /* 265 > 8 + 256 */
    raw_send(fd, h, 8);
    expect_fatal(fd, CFP_E_TOO_LARGE);
    /* too many chunks is a request error, not fatal */
    fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {1, 2};
    send_fill(fd, 9, CFP_DENSITY_F32, "t:tiny", 1, 0, 101, xz);
    expect_error(fd, 9, CFP_E_TOO_MANY_CHUNKS);
    send_fill(fd, 10, CFP_DENSITY_F32, "t:none", 1, 0, 1, xz);
    expect_error(fd, 10, CFP_E_UNKNOWN_CONFIG);
    int32_t far[2] = {CF_MAX_CHUNK + 1, 0};
    send_fill(fd, 11, CFP_DENSITY_F32, "t:tiny", 1, 0, 1, far);
    expect_error(fd, 11, CFP_E_BAD_CHUNK);
    send_fill(fd, 12, CFP_DENSITY_F64, "t:tiny", 1, 0, 1, xz);
    expect_error(fd, 12, CFP_E_UNSUPPORTED_KIND);
    send_fill(fd, 13, 7, "t:tiny", 1, 0, 1, xz); /* no such kind */
    expect_error(fd, 13, CFP_E_UNSUPPORTED_KIND);
    close(fd);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "too_large: frame of 1073741824 bytes (at most 4096) (closing)");
    assert_log(log, "request 9: too_many_chunks");
    free(log);
}

Test(serve_hostile, unknown_version, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    int fd = raw_connect(&s);
    send_hello(fd, 3, NULL);
    expect_fatal(fd, CFP_E_VERSION);
    fd = raw_connect(&s);
    send_hello(fd, 0, NULL);
    expect_fatal(fd, CFP_E_VERSION);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "version: unsupported protocol version 3 (this server speaks versions 1 to 2) (closing)");
    free(log);
}

Test(serve_hostile, half_frame_then_stall, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--read-timeout-ms", "400");
    int fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t half[12] = {30, 0, 0, 0, CFP_FILL, 0, 0, 0, 1, 0, 0, 0};
    raw_send(fd, half, sizeof half);
    double t0 = now_s();
    /* meanwhile another client is served */
    good_client(&s, NULL);
    expect_fatal(fd, CFP_E_TIMEOUT);
    double t = now_s() - t0;
    cr_assert(t > 0.3 && t < 10, "timed out after %.2f s (read timeout 0.4 s)", t);
    /* silence before the hello */
    fd = raw_connect(&s);
    expect_fatal(fd, CFP_E_TIMEOUT);
    /* an idle connection between frames is kept */
    fd = raw_connect(&s);
    hello_ok(fd);
    usleep(800000);
    int32_t xz[2] = {0, 0};
    send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 5, 0, 1, xz);
    unsigned t1;
    uint8_t *p;
    cr_assert_geq(raw_frame(fd, &t1, &p), 0);
    cr_assert_eq(t1, CFP_CHUNK);
    free(p);
    close(fd);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "timeout: incomplete frame for 400 ms (closing)");
    assert_log(log, "timeout: no hello within 400 ms (closing)");
    free(log);
}

Test(serve_hostile, disconnect_mid_response, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    for (int k = 0; k < 3; k++) {
        int fd = raw_connect(&s);
        hello_ok(fd);
        int32_t xz[2] = {3, 4};
        send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz); /* 64 MiB of answers */
        send_fill(fd, 2, CFP_DENSITY_F32, "t:tiny", 6, 0, 4096, xz);
        uint8_t some[20000];
        cr_assert_eq(recv_all(fd, some, sizeof some), 0);
        close(fd); /* with most of the response unread */
    }
    good_client(&s, NULL);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    /* the abandoned requests are dropped: the queue empties */
    double t0 = now_s();
    do {
        cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK, "%s", err.message);
        usleep(20000);
    } while ((st.queue_chunks || st.connections > 1) && now_s() - t0 < 20);
    cr_assert_eq(st.queue_chunks, 0);
    cr_assert_eq(st.connections, 1);
    cf_client_close(c);
    char *log = srv_stop_ok(&s);
    cr_assert(strstr(log, "closed (peer gone while writing)") || strstr(log, "closed (peer closed)"), "no close logged");
    free(log);
}

Test(serve_hostile, bad_token_and_remote_addresses, .timeout = 60)
{
    char tok[128], cmd[1024];
    tmpname(tok, sizeof tok, ".token");
    FILE *f = fopen(tok, "w");
    fputs("s3cret-token\n", f);
    fclose(f);
    /* a non-loopback address needs --allow-remote, and that needs a token */
    snprintf(cmd, sizeof cmd, "%s serve --pack %s --settings t:tiny --device cpu --listen 0.0.0.0:0 2>/dev/null", CF_BINARY, TINY);
    cr_assert_eq(run(cmd), 1);
    snprintf(cmd, sizeof cmd, "%s serve --pack %s --settings t:tiny --device cpu --listen 0.0.0.0:0 --allow-remote 2>/dev/null",
             CF_BINARY, TINY);
    cr_assert_eq(run(cmd), 2);
    srv s;
    SRV_TINY(&s, "--listen", "0.0.0.0:0", "--allow-remote", "--token-file", tok);
    cr_assert(strncmp(s.addr, "0.0.0.0:", 8) == 0, "%s", s.addr);
    snprintf(s.addr, sizeof s.addr, "127.0.0.1:%d", s.port);
    int fd = raw_connect(&s);
    send_hello(fd, 1, "s3cret-tokeN");
    expect_fatal(fd, CFP_E_AUTH);
    fd = raw_connect(&s);
    send_hello(fd, 1, NULL);
    expect_fatal(fd, CFP_E_AUTH);
    fd = raw_connect(&s);
    send_hello(fd, 1, "s3cret-token-and-more");
    expect_fatal(fd, CFP_E_AUTH);
    cf_error err = {0};
    cf_client *c = NULL;
    cr_assert_eq(cf_client_connect(&c, s.addr, "wrong", &err), CF_ERR_ARG);
    cr_assert(strstr(err.message, "auth"), "%s", err.message);
    good_client(&s, "s3cret-token");
    /* fill --server --token-file */
    char out[160];
    snprintf(out, sizeof out, "%s.npy", tok);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --token-file %s --settings t:tiny --seed 3 --chunks 0,0 --out %s", CF_BINARY,
             s.addr, tok, out);
    cr_assert_eq(run(cmd), 0);
    char *log = srv_stop_ok(&s);
    assert_log(log, "auth: bad token (closing)");
    cr_assert_null(strstr(log, "s3cret"), "the token appears in the log");
    free(log);
    unlink(tok), unlink(out);
}

Test(serve_hostile, client_that_reads_nothing, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-output-mb", "1", "--batch", "32");
    int fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {7, -7};
    send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 9, 0, 4096, xz); /* 64 MiB of answers, never read (yet) */
    usleep(300000);
    /* the server fills no more for it than its output bound (1 MiB = 64 chunks) plus one batch
     * plus what the sockets hold; and others are served meanwhile */
    good_client(&s, NULL);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    fprintf(stderr, "client that reads nothing: %llu chunks filled\n", (unsigned long long)st.chunks);
    cr_assert_lt(st.chunks, 3 + 1000, "%llu chunks filled for a client that reads nothing", (unsigned long long)st.chunks);
    cr_assert_gt(st.queue_chunks, 2000, "the unread request's chunks should still be queued");
    /* when it reads, everything arrives, in order */
    float *want = NULL;
    {
        ref r;
        ref_open(&r, TINY, "t:tiny", 9);
        want = ref_fill(&r, 1, xz);
        ref_close(&r);
    }
    for (uint32_t i = 0; i <= 4096; i++) {
        unsigned t;
        uint8_t *p;
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0);
        if (i == 4096) {
            cr_assert_eq(t, CFP_DONE);
        } else {
            cr_assert_eq(t, CFP_CHUNK);
            cr_assert_eq(cfp_le32(p + 4), i);
            cr_assert_eq(n, 24 + 4096 * 4);
            cr_assert(memcmp(p + 24, want, 4096 * 4) == 0, "chunk %u differs", i);
        }
        free(p);
    }
    free(want);
    close(fd);
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cr_assert_eq(st.queue_chunks, 0);
    cf_client_close(c);
    free(srv_stop_ok(&s));
}

Test(serve_hostile, too_many_connections, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-connections", "2");
    int a = raw_connect(&s), b = raw_connect(&s);
    hello_ok(a);
    hello_ok(b);
    int c = raw_connect(&s);
    expect_fatal(c, CFP_E_BUSY);
    close(a);
    /* the server notices the close on its next poll */
    usleep(300000);
    good_client(&s, NULL);
    close(b);
    char *log = srv_stop_ok(&s);
    assert_log(log, "refused (busy: 2 connections)");
    free(log);
}

Test(serve_hostile, cancel_and_deadline, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--batch", "16");
    int fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {1, 1};
    send_fill(fd, 5, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz);
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_CANCEL);
    cfp_u32(&b, 5);
    cfp_end(&b, at);
    raw_buf(fd, &b);
    int got = expect_error(fd, 5, CFP_E_CANCELLED);
    cr_assert_lt(got, 4096);
    /* a 1 ms deadline on 4096 chunks passes before the last batch */
    send_fill(fd, 6, CFP_DENSITY_F32, "t:tiny", 5, 1, 4096, xz);
    got = expect_error(fd, 6, CFP_E_DEADLINE);
    cr_assert_lt(got, 4096);
    /* the connection still serves; the id of a finished request may be reused */
    send_fill(fd, 5, CFP_DENSITY_F32, "t:tiny", 5, 0, 2, xz);
    for (int i = 0; i < 3; i++) {
        unsigned t;
        uint8_t *p;
        cr_assert_geq(raw_frame(fd, &t, &p), 0);
        cr_assert_eq(t, i < 2 ? CFP_CHUNK : CFP_DONE);
        free(p);
    }
    /* a duplicate id of a request in flight is fatal */
    send_fill(fd, 7, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz);
    send_fill(fd, 7, CFP_DENSITY_F32, "t:tiny", 5, 0, 1, xz);
    for (;;) {
        unsigned t;
        uint8_t *p;
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0);
        int fin = t == CFP_ERROR;
        if (fin) cr_assert_eq(cfp_le16(p + 4), CFP_E_MALFORMED);
        free(p);
        if (fin) break;
    }
    close(fd);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "request 6: deadline");
    assert_log(log, "request id 7 is already in flight");
    free(log);
}

typedef struct big_ctx {
    const char *addr;
    int rc;
} big_ctx;

static void *big_request(void *arg)
{
    big_ctx *b = arg;
    cf_error err = {0};
    cf_client *c;
    b->rc = -1;
    if (cf_client_connect(&c, b->addr, NULL, &err) != CF_OK) return NULL;
    int32_t xz[2 * 96];
    for (int i = 0; i < 96; i++) xz[2 * i] = i, xz[2 * i + 1] = -i;
    float *out = malloc(sizeof(float) * 96 * 384 * 256);
    b->rc = out ? (int)cf_client_fill(c, "minecraft:overworld", 5, CF_KIND_DENSITY_F32, 96, xz, out, &err) : -1;
    free(out);
    cf_client_close(c);
    return NULL;
}

Test(serve, small_request_is_not_stuck_behind_a_big_one, .timeout = 120)
{
    /* 96 overworld chunks in batches of 4 from one client; a 1-chunk request of another
     * client must get a batch before the big request's chunks are all taken */
    srv s;
    SRV_START(&s, "--settings", "minecraft:overworld", "--device", "cpu", "--batch", "4", "--threads", "1", "--listen",
              "127.0.0.1:0");
    big_ctx b = {s.addr, 0};
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, big_request, &b), 0);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    double t0 = now_s();
    do {
        cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
        usleep(2000);
    } while (st.queue_chunks == 0 && now_s() - t0 < 30);
    cr_assert_gt(st.queue_chunks, 0, "the big request never showed in the queue");
    int32_t one[2] = {1000, 1000};
    float *v = malloc(sizeof(float) * 384 * 256);
    cr_assert_eq(cf_client_fill(c, "minecraft:overworld", 5, CF_KIND_DENSITY_F32, 1, one, v, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cr_assert_gt(st.queue_chunks, 40, "the small request waited for the big one (%u chunks left)", st.queue_chunks);
    free(v);
    cf_client_close(c);
    pthread_join(th, NULL);
    cr_assert_eq(b.rc, CF_OK);
    free(srv_stop_ok(&s));
}

static int have_opencl(void)
{
    char *list = cf_devices_list(NULL);
    int have = list && strstr(list, "opencl:0");
    free(list);
    return have;
}

Test(serve, falls_back_to_the_cpu_when_the_device_fails, .timeout = 180)
{
    if (!have_opencl()) cr_skip_test("no OpenCL device");
    /* fault injection (test builds, host/opencl/device.c): the program build fails */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "CHUNKFILL_FAULT=build %s serve --pack %s --settings t:tiny --device opencl --listen 127.0.0.1:0 >/dev/null 2>&1",
             CF_BINARY, TINY);
    cr_assert_eq(run(cmd), 1, "an explicit device that fails must stop the start");
    srv s;
    setenv("CHUNKFILL_FAULT", "build", 1);
    SRV_START(&s, "--pack", TINY, "--settings", "t:tiny", "--device", "auto", "--listen", "127.0.0.1:0");
    unsetenv("CHUNKFILL_FAULT");
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "no usable OpenCL device");
    assert_log(log, "fills on cpu");
    free(log);
    /* the third launch fails: the server goes on on the CPU, results unchanged */
    setenv("CHUNKFILL_FAULT", "launch:2", 1);
    SRV_START(&s, "--pack", TINY, "--settings", "t:tiny", "--device", "opencl", "--listen", "127.0.0.1:0");
    unsetenv("CHUNKFILL_FAULT");
    for (int i = 0; i < 4; i++) good_client(&s, NULL);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cr_assert_str_eq(st.device, "cpu (the device failed)");
    cr_assert_eq(st.errors, 0);
    cf_client_close(c);
    log = srv_stop_ok(&s);
    assert_log(log, "fills on opencl:");
    assert_log(log, "device failed (");
    free(log);
}

Test(serve, sigterm_finishes_in_flight_work, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--batch", "8");
    int fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {2, 2};
    send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 5, 0, 2000, xz);
    unsigned t;
    uint8_t *p;
    cr_assert_geq(raw_frame(fd, &t, &p), 0);
    cr_assert_eq(t, CFP_CHUNK);
    free(p);
    kill(s.pid, SIGTERM);
    /* the request in flight completes, then the connection is closed with 'shutdown' */
    int chunks = 1, done = 0;
    for (;;) {
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0, "closed before the shutdown error frame");
        if (t == CFP_CHUNK) chunks++;
        if (t == CFP_DONE) done = 1;
        int err = t == CFP_ERROR;
        if (err) {
            cr_assert_eq(cfp_le32(p), 0);
            cr_assert_eq(cfp_le16(p + 4), CFP_E_SHUTDOWN);
        }
        free(p);
        if (err) break;
    }
    expect_eof(fd);
    close(fd);
    cr_assert_eq(chunks, 2000);
    cr_assert(done);
    char *log = srv_stop_ok(&s);
    assert_log(log, "shutdown: all work done, 0 requests cancelled");
    free(log);
}

/* ------------------------------------------------------------ load */

#define LOAD_CLIENTS 32
#define LOAD_REQUESTS 200
#define LOAD_AREA 16 /* chunks -8..7 on each axis */

typedef struct load_ctx {
    const srv *s;
    const float *ref[2]; /* per seed: [ (z+8)*16 + (x+8) ] chunk volumes */
    int index, errors, mismatches;
    uint64_t chunks;
    double *lat; /* per request, ms */
} load_ctx;

static const int64_t load_seed[2] = {1234567, -98765};

static void *load_client(void *arg)
{
    load_ctx *l = arg;
    cf_error err = {0};
    cf_client *c;
    if (cf_client_connect(&c, l->s->addr, NULL, &err) != CF_OK) {
        l->errors = LOAD_REQUESTS;
        return NULL;
    }
    uint32_t rng = 2166136261u ^ (uint32_t)l->index * 16777619u;
    float *buf = malloc(sizeof(float) * 16 * 4096);
    int32_t xz[32];
    for (int q = 0; q < LOAD_REQUESTS && buf; q++) {
        rng = rng * 1664525u + 1013904223u;
        int n = 1 + (int)(rng >> 28), si = (l->index + q) & 1;
        for (int i = 0; i < n; i++) {
            rng = rng * 1664525u + 1013904223u;
            xz[2 * i] = (int32_t)(rng >> 16 & 15) - 8;
            xz[2 * i + 1] = (int32_t)(rng >> 24 & 15) - 8;
        }
        double t0 = now_s();
        if (cf_client_fill(c, "t:tiny", load_seed[si], CF_KIND_DENSITY_F32, (size_t)n, xz, buf, &err) != CF_OK) {
            l->errors++;
            continue;
        }
        l->lat[q] = (now_s() - t0) * 1e3;
        l->chunks += (uint64_t)n;
        for (int i = 0; i < n; i++) {
            const float *want = l->ref[si] + (size_t)((xz[2 * i + 1] + 8) * LOAD_AREA + xz[2 * i] + 8) * 4096;
            if (memcmp(want, buf + (size_t)i * 4096, sizeof(float) * 4096) != 0) l->mismatches++;
        }
    }
    free(buf);
    cf_client_close(c);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* 32 clients x 200 requests of 1..16 chunks; returns launches and requests from the stats */
static void load(const srv *s, uint64_t *launches, uint64_t *requests)
{
    int32_t area[2 * LOAD_AREA * LOAD_AREA];
    for (int i = 0; i < LOAD_AREA * LOAD_AREA; i++) area[2 * i] = i % LOAD_AREA - 8, area[2 * i + 1] = i / LOAD_AREA - 8;
    ref r[2];
    float *refv[2];
    for (int k = 0; k < 2; k++) {
        ref_open(&r[k], TINY, "t:tiny", load_seed[k]);
        refv[k] = ref_fill(&r[k], LOAD_AREA * LOAD_AREA, area);
    }
    load_ctx ctx[LOAD_CLIENTS];
    pthread_t th[LOAD_CLIENTS];
    double *lat = calloc(LOAD_CLIENTS * LOAD_REQUESTS, sizeof(double));
    double t0 = now_s();
    for (int i = 0; i < LOAD_CLIENTS; i++) {
        ctx[i] = (load_ctx){.s = s, .ref = {refv[0], refv[1]}, .index = i, .lat = lat + i * LOAD_REQUESTS};
        cr_assert_eq(pthread_create(&th[i], NULL, load_client, &ctx[i]), 0);
    }
    uint64_t chunks = 0;
    int errors = 0, mism = 0;
    for (int i = 0; i < LOAD_CLIENTS; i++) {
        pthread_join(th[i], NULL);
        chunks += ctx[i].chunks;
        errors += ctx[i].errors;
        mism += ctx[i].mismatches;
    }
    double t = now_s() - t0;
    cr_assert_eq(errors, 0, "%d requests failed", errors);
    cr_assert_eq(mism, 0, "%d chunks differ from the local fill", mism);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s->addr, NULL, &err), CF_OK);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cf_client_close(c);
    /* every chunk asked for was served once: none lost, none duplicated */
    cr_assert_eq(st.chunks, chunks, "server served %llu chunks, clients received %llu", (unsigned long long)st.chunks,
                 (unsigned long long)chunks);
    cr_assert_eq(st.requests, LOAD_CLIENTS * LOAD_REQUESTS);
    cr_assert_eq(st.errors, 0);
    cr_assert_eq(st.queue_chunks, 0);
    qsort(lat, LOAD_CLIENTS * LOAD_REQUESTS, sizeof(double), cmp_double);
    /* for information only (figures go to bench/RESULTS.md, from bench/serve.sh) */
    fprintf(stderr, "load: %s: %d requests, %llu chunks in %.2f s, %llu launches, p50 %.2f ms, p99 %.2f ms\n", st.device,
            LOAD_CLIENTS * LOAD_REQUESTS, (unsigned long long)chunks, t, (unsigned long long)st.launches,
            lat[LOAD_CLIENTS * LOAD_REQUESTS / 2], lat[LOAD_CLIENTS * LOAD_REQUESTS * 99 / 100]);
    *launches = st.launches;
    *requests = st.requests;
    free(lat);
    for (int k = 0; k < 2; k++) {
        free(refv[k]);
        ref_close(&r[k]);
    }
}

Test(serve_load, cpu_32_clients, .timeout = 300)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    uint64_t launches, requests;
    load(&s, &launches, &requests);
    free(srv_stop_ok(&s));
}

Test(serve_load, pocl_batches_across_clients, .timeout = 300)
{
    if (!have_opencl()) cr_skip_test("no OpenCL device");
    srv s;
    SRV_START(&s, "--pack", TINY, "--settings", "t:tiny", "--device", "opencl", "--batch", "512", "--listen", "127.0.0.1:0");
    uint64_t launches, requests;
    load(&s, &launches, &requests);
    cr_assert_lt(launches * 4, requests, "%llu launches for %llu requests: no batching across clients",
                 (unsigned long long)launches, (unsigned long long)requests);
    char *log = srv_stop_ok(&s);
    assert_log(log, "fills on opencl:");
    free(log);
}
