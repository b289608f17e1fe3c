/* serveutil.h - what test_serve.c and test_serve_hostile.c share: the server as a child process
 * (srv_start_argv, SRV_TINY, srv_stop), local reference fills, raw protocol frames (raw_connect,
 * send_hello, send_fill, expect_error...), the CLI run and file comparison. Each suite includes it
 * once; a helper one of them does not use is marked unused, not copied. */
#ifndef CF_TESTS_SERVEUTIL_H
#define CF_TESTS_SERVEUTIL_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

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

#pragma GCC diagnostic pop
#endif
