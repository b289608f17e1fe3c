/* test_http.c - `serve --http` against hostile and unlucky clients (issue 32 items 1, 4, 5
 * and 8's HTTP parts): NUL bytes in heads, strict numbers, the Host check, an answer that
 * must not be lost to a reset, slow and idle clients that must not delay a cheap request,
 * dear tiles that must not delay it either and stop when their client goes, SIGTERM within
 * the drain time, many seeds at once. Loopback only; every wait is a bounded loop and the
 * time bounds are generous (seconds where the work is milliseconds). The functions of
 * host/net/http_head.c are also checked directly. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "httputil.h"
#include "net/http.h"

static pid_t srv_pid;
static int srv_port;
static char dir[64], srv_log[128];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define TINY "--pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny"

/* starts `serve --http` on a free loopback port with world and extra options */
static void start(const char *world, const char *extra)
{
    strcpy(dir, "/tmp/cf-http-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(srv_log, sizeof srv_log, "%s/server.log", dir);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "exec '%s' serve --http 127.0.0.1:0 %s --cache %s/cache %s", CF_BINARY, world, dir, extra);
    srv_pid = http_server_start(cmd, srv_log, &srv_port);
}

/* waits up to secs for the server to exit; its exit status, or -1 (then it is killed) */
static int wait_exit(double secs)
{
    double t0 = now_s();
    int st;
    while (now_s() - t0 < secs) {
        pid_t r = waitpid(srv_pid, &st, WNOHANG);
        if (r == srv_pid) {
            srv_pid = 0;
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        usleep(20000);
    }
    kill(srv_pid, SIGKILL);
    waitpid(srv_pid, &st, 0);
    srv_pid = 0;
    return -1;
}

static void stop(void)
{
    if (srv_pid > 0) {
        kill(srv_pid, SIGTERM);
        int rc = wait_exit(60);
        cr_assert_eq(rc, 0, "the server did not stop cleanly (%d)", rc);
    }
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        cr_assert_eq(system(cmd), 0);
        dir[0] = 0;
    }
}
TestSuite(http, .fini = stop, .timeout = 300);
TestSuite(head, .timeout = 60);

static int connect_srv(void) { return http_connect(srv_port); }

/* reads the whole answer on fd; last_reset: it ended with a reset rather than the server's FIN */
static int last_reset;
static int read_answer(int fd, char **body) { return http_read_answer(fd, body, NULL, &last_reset); }

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k <= 0) return -1;
        p += k, n -= (size_t)k;
    }
    return 0;
}

static int http_raw(const char *req, size_t len, char **body)
{
    int fd = connect_srv();
    if (fd < 0) return -2;
    send_all(fd, req, len);
    int code = read_answer(fd, body);
    close(fd);
    return code;
}

static int http_get(const char *target, char **body)
{
    char req[4096];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", target, srv_port);
    return http_raw(req, (size_t)n, body);
}

static int in_log(const char *needle)
{
    FILE *f = fopen(srv_log, "r");
    char line[1024];
    int n = 0;
    while (f && fgets(line, sizeof line, f)) n += strstr(line, needle) != NULL;
    if (f) fclose(f);
    return n;
}

/* the answer is one line of text ending in a newline */
static void one_line(const char *what, const char *body)
{
    size_t n = strlen(body);
    cr_assert(n > 0 && body[n - 1] == '\n' && strchr(body, '\n') == body + n - 1, "%s: one line: '%s'", what, body);
}

static void expect(const char *target, int code)
{
    char *body;
    int got = http_get(target, &body);
    cr_assert_eq(got, code, "%s: %d %s", target, got, body);
    if (code != 200) one_line(target, body);
    free(body);
}

/* ------------------------------------------------------------------ item 1: NUL bytes */

Test(http, nul_bytes_in_the_head_are_400_and_the_server_lives)
{
    start(TINY, "");
    static const struct {
        const char *req;
        size_t n;
    } bad[] = {
        {"GET /\0 HTTP/1.1\r\n\r\n", 19},
        {"\0\0\0\0\0\0\0\0\0\0\r\n\r\n", 14},
        {"GET / HTTP/1.1\r\nHost: 127.0.0.1\0\r\n\r\n", 36},
        {"GET / HTTP/1.1\r\nX\0: 1\r\n\r\n", 25},
        {"\0\n\n", 3},
        {"GET /at?x=1&z=1&seed=1\0 HTTP/1.1\r\n\r\n", 37},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *body;
        int code = http_raw(bad[i].req, bad[i].n, &body);
        cr_assert_eq(code, 400, "request %zu: %d %s", i, code, body);
        one_line("NUL", body);
        free(body);
    }
    expect("/at?x=1&z=1&seed=1", 200);
}

/* ------------------------------------------------------------------ item 8: strict input */

Test(http, numbers_are_strict_and_fragments_refused)
{
    start(TINY, "--max-zoom 8");
    expect("/relief/4294967296/0/0.png?seed=1", 404); /* was served as zoom 0 */
    expect("/relief/+1/0/0.png?seed=1", 404);         /* was zoom 1 */
    expect("/relief/01x/0/0.png?seed=1", 404);
    expect("/relief/1/+3/0.png?seed=1", 404);
    expect("/relief/1/0/ 0.png?seed=1", 400);          /* a space in the target */
    expect("/relief/0/0/0.png?seed=1#frag", 400);      /* was part of the seed */
    expect("/at?x=1&z=2&seed=1#frag", 400);
    expect("/at?x=+1&z=2&seed=1", 400);
    expect("/at?x=1%20&z=2&seed=1", 400);
    expect("/at?x=2144000016&z=0&seed=1", 400);        /* beyond the world */
    expect("/at?x=-2144000001&z=0&seed=1", 400);
    expect("/relief/0/8375000/8375000.png?seed=1", 404); /* tiles beyond the world: one line, 4xx */
    expect("/relief/9/0/0.png?seed=1", 404);             /* beyond --max-zoom */
    expect("/at?x=2144000015&z=0&seed=1", 200);          /* the last column of the world */
}

Test(http, another_host_is_refused)
{
    start(TINY, "");
    char req[512], *body;
    static const char *const good[] = {"127.0.0.1", "127.0.0.1:%d", "localhost:%d", "LocalHost", "[::1]:%d"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char host[64];
        snprintf(host, sizeof host, good[i], srv_port);
        int n = snprintf(req, sizeof req, "GET /at?x=0&z=0&seed=1 HTTP/1.1\r\nHost: %s\r\n\r\n", host);
        cr_assert_eq(http_raw(req, (size_t)n, &body), 200, "%s: %s", host, body);
        free(body);
    }
    static const char *const bad[] = {"evil.example:%d", "127.0.0.1.evil.example", "localhost.evil:%d", "10.0.0.1:%d",
                                      "127.0.0.1:x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char host[64];
        snprintf(host, sizeof host, bad[i], srv_port);
        int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", host);
        cr_assert_eq(http_raw(req, (size_t)n, &body), 403, "%s: %s", host, body);
        one_line(host, body);
        free(body);
        body = NULL;
    }
    int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n");
    cr_assert_eq(http_raw(req, (size_t)n, &body), 400, "two Hosts: %s", body);
    free(body);
}

/* a 431 while the client is still sending: the answer arrives whole and the connection ends
 * with the server's FIN, not a reset (a reset can destroy an answer not yet read) */
Test(http, an_oversized_head_gets_its_431)
{
    start(TINY, "");
    enum { BIG = 256 << 10 };
    char *big = malloc(BIG);
    memset(big, 'A', BIG);
    memcpy(big, "GET /", 5);
    for (int round = 0; round < 5; round++) {
        int fd = connect_srv();
        cr_assert(fd >= 0);
        send_all(fd, big, BIG); /* far more than the head bound, all sent before reading */
        char *body;
        int code = read_answer(fd, &body);
        close(fd);
        cr_assert_eq(code, 431, "round %d: %d", round, code);
        cr_assert_eq(last_reset, 0, "round %d: the connection was reset after the 431", round);
        one_line("431", body);
        free(body);
    }
    free(big);
}

/* ------------------------------------------------------------------ item 8: many seeds */

typedef struct getter {
    char target[160];
    int code;
    double secs;
} getter;

static void *get_thread(void *arg)
{
    getter *g = arg;
    double t0 = now_s();
    char *body;
    g->code = http_get(g->target, &body);
    free(body);
    g->secs = now_s() - t0;
    return NULL;
}

Test(http, sixteen_seeds_at_once_are_all_served)
{
    start(TINY, "--workers 16");
    enum { N = 16 };
    getter g[N];
    memset(g, 0, sizeof g);
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        snprintf(g[i].target, sizeof g[i].target, "/relief/0/0/0.png?seed=%d", 1000 + i);
        cr_assert_eq(pthread_create(&th[i], NULL, get_thread, &g[i]), 0);
    }
    for (int i = 0; i < N; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++) cr_assert_eq(g[i].code, 200, "%s: %d", g[i].target, g[i].code);
}

/* ------------------------------------------------------------------ items 4, 5: slow and dear */

/* the time of one cheap request (/at, then /) */
static double cheap_time(void)
{
    double t0 = now_s();
    expect("/at?x=5&z=7&seed=1", 200);
    expect("/", 200);
    return now_s() - t0;
}

typedef struct trickle {
    int fd[16];
    volatile int stop;
} trickle;

/* 16 connections sending their heads a byte every 200 ms */
static void *trickle_thread(void *arg)
{
    trickle *t = arg;
    static const char head[] = "GET /at?x=1&z=1&seed=1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    for (size_t k = 0; k < sizeof head - 3 && !t->stop; k++) {
        for (int i = 0; i < 16; i++) send(t->fd[i], head + k, 1, MSG_NOSIGNAL);
        usleep(200000);
    }
    return NULL;
}

Test(http, slow_and_idle_clients_do_not_delay_a_cheap_request)
{
    start(TINY, "--read-timeout-ms 60000 --workers 2");
    expect("/at?x=0&z=0&seed=1", 200); /* the world is bound before the clock starts */
    trickle t = {.stop = 0};
    for (int i = 0; i < 16; i++) cr_assert((t.fd[i] = connect_srv()) >= 0);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, trickle_thread, &t), 0);
    enum { IDLE = 300 };
    int idle[IDLE];
    for (int i = 0; i < IDLE; i++) cr_assert((idle[i] = connect_srv()) >= 0, "connection %d", i);
    usleep(500000);
    for (int r = 0; r < 3; r++) {
        double s = cheap_time();
        cr_assert_lt(s, 2.0, "a cheap request took %.2f s beside 16 slow and 300 idle connections", s);
    }
    t.stop = 1;
    pthread_join(th, NULL);
    for (int i = 0; i < 16; i++) close(t.fd[i]);
    for (int i = 0; i < IDLE; i++) close(idle[i]);
    cr_assert_eq(in_log(" 503"), 0, "a 503 was answered");
}

/* a tile of the blocks layer at level 12 of the default pack: minutes of work */
#define DEAR "/blocks/12/%d/3.png?seed=7"

Test(http, dear_tiles_do_not_delay_cheap_requests_and_stop_when_their_client_goes)
{
    start("", "--workers 2 --threads 1"); /* two dear workers: the default */
    expect("/at?x=0&z=0&seed=7", 200);
    int fd[4];
    for (int i = 0; i < 4; i++) {
        char req[256];
        int n = snprintf(req, sizeof req, "GET " DEAR " HTTP/1.1\r\n\r\n", i);
        cr_assert((fd[i] = connect_srv()) >= 0);
        cr_assert_eq(send_all(fd[i], req, (size_t)n), 0);
    }
    usleep(500000);
    for (int r = 0; r < 3; r++) {
        double s = cheap_time();
        cr_assert_lt(s, 2.0, "a cheap request took %.2f s beside 4 dear tiles", s);
    }
    /* the clients give up: every tile stops (two were being drawn, two queued) */
    for (int i = 0; i < 4; i++) close(fd[i]);
    double t0 = now_s();
    while (in_log("cancelled") < 4 && now_s() - t0 < 60) usleep(50000);
    if (in_log("cancelled") != 4) system("cat >&2 /tmp/cf-http-*/server.log");
    cr_assert_eq(in_log("cancelled"), 4, "the tiles of clients that left were not all stopped in 60 s");
    double s = cheap_time();
    cr_assert_lt(s, 2.0, "%.2f s", s);
}

Test(http, sigterm_ends_the_server_within_its_drain_time)
{
    start("", "--dear-workers 2 --threads 1 --drain-ms 500");
    int fd[3];
    for (int i = 0; i < 3; i++) {
        char req[256];
        int n = snprintf(req, sizeof req, "GET " DEAR " HTTP/1.1\r\n\r\n", 10 + i);
        cr_assert((fd[i] = connect_srv()) >= 0);
        cr_assert_eq(send_all(fd[i], req, (size_t)n), 0);
    }
    sleep(1); /* two tiles being drawn, one queued; their clients wait */
    double t0 = now_s();
    kill(srv_pid, SIGTERM);
    int rc = wait_exit(30);
    double s = now_s() - t0;
    cr_assert_eq(rc, 0, "exit %d after %.1f s (--drain-ms 500)", rc, s);
    cr_assert_lt(s, 15.0, "%.1f s", s);
    for (int i = 0; i < 3; i++) { /* each waiting client got an answer: 503, the server is stopping */
        char *body;
        int code = read_answer(fd[i], &body);
        close(fd[i]);
        cr_assert_eq(code, 503, "client %d: %d %s", i, code, body);
        free(body);
    }
}

/* ------------------------------------------------------------------ http_head.c directly */

Test(head, parse_and_bounds)
{
    http_head h;
    const char *why;
    static const char ok[] = "GET /a?b=c HTTP/1.1\r\nHost: localhost:8\r\nAccept: */*\r\n\r\n";
    cr_assert_eq(http_head_end(ok, sizeof ok - 1), sizeof ok - 1);
    cr_assert_eq(http_head_end(ok, sizeof ok - 3), 0u);
    cr_assert_eq(http_head_parse(ok, sizeof ok - 1, &h, &why), 0, "%s", why);
    cr_assert_str_eq(h.path, "/a");
    cr_assert_str_eq(h.query, "b=c");
    cr_assert_str_eq(h.host, "localhost:8");
    static const struct {
        const char *head;
        int code;
    } bad[] = {
        {"POST / HTTP/1.1\r\n\r\n", 405},  {"GET / HTTP/2.0\r\n\r\n", 505},   {"GET /\r\n\r\n", 400},
        {"GET  / HTTP/1.1\r\n\r\n", 400}, {"GET / HTTP/1.1 \r\n\r\n", 400}, {"GET x HTTP/1.1\r\n\r\n", 400},
        {"GET / HTTP/1.1\rX\r\n\r\n", 400}, {"GET / HTTP/1.1\r\n folded\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\n: v\r\n\r\n", 400}, {"GET / HTTP/1.1\r\nNoColon\r\n\r\n", 400},
        {"GET /\x7f HTTP/1.1\r\n\r\n", 400}, {"GET /\xc3\xa9 HTTP/1.1\r\n\r\n", 400},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(http_head_parse(bad[i].head, strlen(bad[i].head), &h, &why), bad[i].code, "%s", bad[i].head);
    long long v;
    cr_assert_eq(http_int("-12", -100, 100, &v), 0);
    cr_assert_eq(v, -12);
    static const char *const nums[] = {"", "-", "+1", " 1", "1 ", "1e3", "0x1", "--1", "123456789012", "101"};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) cr_assert_eq(http_int(nums[i], -100, 101 - (i == 9), &v), -1, "%s", nums[i]);
    cr_assert_eq(http_int("-1", 0, 5, &v), -1);
    char layer[64];
    int z;
    long long x, y;
    cr_assert_eq(http_tile_path("/relief/3/-2/5.png", layer, sizeof layer, &z, &x, &y), 0);
    cr_assert(z == 3 && x == -2 && y == 5 && strcmp(layer, "relief") == 0);
    static const char *const paths[] = {"/relief/3/-2/5.png/", "/relief/3/-2.png", "/Relief/3/0/0.png", "/relief/100/0/0.png",
                                        "/relief/3/0/.png", "/relief//0/0.png", "relief/3/0/0.png", "/relief/3/0/0.PNG",
                                        "/relief/3/2147483648/0.png"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        cr_assert_eq(http_tile_path(paths[i], layer, sizeof layer, &z, &x, &y), -1, "%s", paths[i]);
    http_query q;
    cr_assert_eq(http_query_parse("seed=a%20b&x=1&other=2", &q, &why), 0);
    cr_assert_str_eq(q.seed, "a b");
    cr_assert_eq(http_query_parse("seed=%0", &q, &why), -1);
    cr_assert_eq(http_query_parse("seed=%zz", &q, &why), -1);
    cr_assert_eq(http_query_parse("seed=%00", &q, &why), -1);
    cr_assert_eq(http_query_parse("x=1&x=2", &q, &why), -1);
    cr_assert(http_host_ok("127.0.0.5:80", NULL) && http_host_ok("", NULL) && http_host_ok("[::1]", NULL));
    cr_assert(!http_host_ok("127.0.0.256", NULL) && !http_host_ok("127.0.0", NULL) && !http_host_ok("[::1]:", NULL));
    cr_assert(http_host_ok("[::2]:9", "[::2]") && !http_host_ok("[::3]:9", "[::2]"));
}
