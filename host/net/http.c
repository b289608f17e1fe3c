/* http.c - `chunkfill serve --http`: maps over HTTP for the viewer (host/api/viewer.html):
 * start-up and the event loop.
 *
 * Start-up: packs -> one program per settings id (a block program where the settings
 * have an aquifer, so every layer can draw) -> a loopback listening socket -> the worker
 * pools (http_work.c). The event loop (this thread) polls the listening socket, every
 * connection whose head is still arriving and every answered connection being closed: a
 * head is read without a worker, however slowly it comes (--read-timeout-ms bounds it:
 * 408), so slow or idle clients hold no worker; a complete head is routed (http_route:
 * answered at once, or a job for the cheap or the dear pool). An answered connection comes
 * back shut down for writing and is read until the client closes (at most 2 s and 1 MiB),
 * so no reset can destroy an answer the client has not read. --max-conns bounds the
 * connections the loop holds and the requests in the pools; a new connection beyond it
 * closes the one whose head has waited longest (408). SIGTERM or SIGINT: the listening
 * socket and unfinished heads are closed, the queued tiles answered 503, tiles being drawn
 * get --drain-ms to finish (then their drawing is cancelled), cheap jobs are answered; exit
 * when every worker has ended. Allocates: the connection table and head buffers, the
 * closing list; everything is freed at shutdown.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "ir/ir.h"
#include "net/http.h"

#define LINGER_S 2.0
#define LINGER_BYTES (1 << 20)

int serve_split_addr(const char *addr, char *host, size_t hn, char *port, size_t pn); /* serve.c */

void cf_http_defaults(cf_http_opts *o)
{
    memset(o, 0, sizeof *o);
    cf_limits_default(&o->limits);
    o->cache_mb = 256;
    o->workers = 4;
    o->dear_workers = 2;
    o->max_conns = 1024;
    o->read_timeout_ms = 5000;
    o->tile_timeout_ms = 120000;
    o->drain_ms = 10000;
    o->max_zoom = 16;
}

static int sig_pipe = -1;
static void on_stop(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    if (sig_pipe >= 0 && write(sig_pipe, &b, 1) < 0) { /* nothing to do in a handler */ }
    errno = saved;
}

/* ------------------------------------------------------------------ the event loop */

enum { C_HEAD, C_LINGER };
typedef struct hconn {
    int fd, state;
    double since; /* accepted (C_HEAD) or answered (C_LINGER) */
    size_t n;     /* C_HEAD: bytes in buf; C_LINGER: bytes read and dropped */
    char *buf;    /* C_HEAD: HTTP_HEAD_MAX + 1 bytes */
} hconn;

typedef struct loop {
    hconn *c;
    int n, cap;
    struct pollfd *p;
} loop;

static void conn_drop(loop *l, int i)
{
    close(l->c[i].fd);
    free(l->c[i].buf);
    l->c[i] = l->c[--l->n];
}

/* connection i answered (its answer sent or refused): read until the client closes */
static void conn_linger(loop *l, int i, double now)
{
    shutdown(l->c[i].fd, SHUT_WR);
    free(l->c[i].buf);
    l->c[i].buf = NULL, l->c[i].state = C_LINGER, l->c[i].since = now, l->c[i].n = 0;
}

/* a one-line answer from the loop itself: small, sent without waiting */
static void loop_answer(int fd, int code, const char *msg)
{
    char b[512];
    int n = snprintf(b, sizeof b, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %zu\r\n%s"
                                  "Connection: close\r\n\r\n%s\n",
                     code, code == 408 ? "Request Timeout" : "Service Unavailable", strlen(msg) + 1,
                     code == 503 ? "Retry-After: 1\r\n" : "", msg);
    if (send(fd, b, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) { /* the client is gone or not reading: nothing to do */ }
}

/* room for one more connection: the oldest unfinished head is answered 408 (or the oldest
 * closing connection is closed); 0 when there is room */
static int make_room(loop *l)
{
    if (l->n < l->cap) return 0;
    int old = -1, lin = -1;
    for (int i = 0; i < l->n; i++) {
        if (l->c[i].state == C_HEAD && (old < 0 || l->c[i].since < l->c[old].since)) old = i;
        if (l->c[i].state == C_LINGER && (lin < 0 || l->c[i].since < l->c[lin].since)) lin = i;
    }
    if (lin >= 0) {
        conn_drop(l, lin);
        return 0;
    }
    if (old < 0) return -1;
    loop_answer(l->c[old].fd, 408, "request head too slow: the server is full");
    fprintf(stderr, "http: %d connections: the oldest unfinished head closed\n", l->cap);
    conn_drop(l, old);
    return 0;
}

static void accept_all(hsrv *s, loop *l, double now, double *pause)
{
    for (int k = 0; k < 64; k++) {
        if (make_room(l) < 0) { /* every connection is closing or answered: wait */
            *pause = now + 0.05;
            return;
        }
        int fd = accept(s->lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                fprintf(stderr, "http: accept: %s\n", strerror(errno));
                *pause = now + 0.1;
            }
            return;
        }
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        char *buf = malloc(HTTP_HEAD_MAX + 1);
        if (!buf) {
            loop_answer(fd, 503, "out of memory");
            close(fd);
            return;
        }
        l->c[l->n++] = (hconn){fd, C_HEAD, now, 0, buf};
    }
}

/* reads what connection i has sent; 1 when it left the table */
static int conn_read(hsrv *s, loop *l, int i, double now)
{
    hconn *c = &l->c[i];
    if (c->state == C_LINGER) {
        char sink[4096];
        ssize_t k = recv(c->fd, sink, sizeof sink, 0);
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
        if (k <= 0 || (c->n += (size_t)k) > LINGER_BYTES) return conn_drop(l, i), 1;
        return 0;
    }
    ssize_t k = recv(c->fd, c->buf + c->n, HTTP_HEAD_MAX - c->n, 0);
    if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    if (k <= 0) return conn_drop(l, i), 1; /* closed before its head ended: nothing to answer */
    c->n += (size_t)k;
    size_t end = http_head_end(c->buf, c->n);
    if (!end && c->n < HTTP_HEAD_MAX) return 0;
    if (!end) {
        http_fail(c->fd, 431, "request head over %d bytes", HTTP_HEAD_MAX);
        fprintf(stderr, "http: GET - 431\n");
        conn_linger(l, i, now);
        return 0;
    }
    if (http_route(s, c->fd, c->buf, end)) { /* the connection is a job's now */
        free(c->buf);
        l->c[i] = l->c[--l->n];
        return 1;
    }
    conn_linger(l, i, now);
    return 0;
}

/* the connections the workers answered, into the table to be closed */
static void take_closing(hsrv *s, loop *l, double now)
{
    pthread_mutex_lock(&s->mu);
    for (int k = 0; k < s->nclosing; k++) {
        int fd = s->closing[k];
        if (l->n < l->cap) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
            l->c[l->n++] = (hconn){fd, C_LINGER, now, 0, NULL};
        } else {
            close(fd);
        }
    }
    s->nclosing = 0;
    pthread_mutex_unlock(&s->mu);
}

/* SIGTERM: no more connections or heads; the queues are told (the workers end) */
static void begin_stop(hsrv *s, loop *l, double now)
{
    fprintf(stderr, "http: stopping\n");
    close(s->lfd), s->lfd = -1;
    for (int i = l->n - 1; i >= 0; i--)
        if (l->c[i].state == C_HEAD) conn_drop(l, i);
    pthread_mutex_lock(&s->mu);
    s->drain_end = now + s->o->drain_ms / 1000.0;
    __atomic_store_n(&s->stopping, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&s->cheap_cv);
    pthread_cond_broadcast(&s->dear_cv);
    pthread_mutex_unlock(&s->mu);
}

/* runs until SIGTERM and every worker has ended (*running: the workers not yet ended) */
static void event_loop(hsrv *s, int sigfd, const int *running)
{
    loop l = {calloc((size_t)s->o->max_conns, sizeof(hconn)), 0, s->o->max_conns,
              calloc((size_t)s->o->max_conns + 3, sizeof(struct pollfd))};
    if (!l.c || !l.p) {
        fprintf(stderr, "http: out of memory for the connection table\n");
        free(l.c), free(l.p);
        return;
    }
    double pause = 0;
    int stopped = 0;
    for (;;) {
        double now = http_now();
        if (stopped && __atomic_load_n(running, __ATOMIC_ACQUIRE) == 0) break;
        int np = 0;
        l.p[np++] = (struct pollfd){sigfd, POLLIN, 0};
        l.p[np++] = (struct pollfd){s->wake[0], POLLIN, 0};
        int lpoll = !stopped && now >= pause;
        if (lpoll) l.p[np++] = (struct pollfd){s->lfd, POLLIN, 0};
        int base = np;
        for (int i = 0; i < l.n; i++) l.p[np++] = (struct pollfd){l.c[i].fd, POLLIN, 0};
        int r = poll(l.p, (nfds_t)np, 100);
        now = http_now();
        if (r < 0 && errno != EINTR) break;
        if (r > 0) {
            /* the connections first (their indices are the table's as polled) */
            for (int i = l.n - 1; i >= 0; i--)
                if (l.p[base + i].revents) conn_read(s, &l, i, now);
            if (l.p[1].revents & POLLIN) {
                char b[64];
                while (read(s->wake[0], b, sizeof b) == (ssize_t)sizeof b) {
                }
            }
            if (lpoll && (l.p[2].revents & POLLIN)) accept_all(s, &l, now, &pause);
            if ((l.p[0].revents & POLLIN) && !stopped) {
                char b[16];
                if (read(sigfd, b, sizeof b) < 0) { /* the signal is the event */ }
                begin_stop(s, &l, now);
                stopped = 1;
            }
        }
        take_closing(s, &l, now);
        /* time-outs: slow heads (408), closing connections the client keeps open */
        for (int i = l.n - 1; i >= 0; i--) {
            hconn *c = &l.c[i];
            if (c->state == C_HEAD && now - c->since > s->o->read_timeout_ms / 1000.0) {
                loop_answer(c->fd, 408, "request head not complete in time (--read-timeout-ms)");
                fprintf(stderr, "http: GET - 408\n");
                conn_linger(&l, i, now);
            } else if (c->state == C_LINGER && now - c->since > LINGER_S) {
                conn_drop(&l, i);
            }
        }
    }
    while (l.n) conn_drop(&l, l.n - 1);
    free(l.c), free(l.p);
}

/* ------------------------------------------------------------------ start-up */

static int is_loopback(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET) return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    if (a->sa_family == AF_INET6) return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)a)->sin6_addr);
    return 0;
}

static cf_status listen_on(hsrv *s, const char *addr, cf_error *err)
{
    char host[256], port[16];
    if (serve_split_addr(addr, host, sizeof host, port, sizeof port) < 0)
        return err_set(err, CF_ERR_ARG, "--http %s: takes HOST:PORT (127.0.0.1:8080)", addr);
    snprintf(s->lhost, sizeof s->lhost, strchr(host, ':') ? "[%.250s]" : "%.250s", host);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0) return err_set(err, CF_ERR_ARG, "--http %s: %s", addr, gai_strerror(gai));
    cf_status st = CF_OK;
    if (!is_loopback(res->ai_addr)) {
        st = err_set(err, CF_ERR_ARG, "--http %s: only loopback addresses (127.0.0.1, ::1)", addr);
    } else if ((s->lfd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
        st = err_set(err, CF_ERR_IO, "--http %s: socket: %s", addr, strerror(errno));
    } else {
        int one = 1;
        setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(s->lfd, res->ai_addr, res->ai_addrlen) != 0 || listen(s->lfd, 512) != 0)
            st = err_set(err, CF_ERR_IO, "--http %s: %s", addr, strerror(errno));
    }
    freeaddrinfo(res);
    return st;
}

/* Without --settings: the packs' dimensions, each with its settings and biome source: the
 * game's overworld, nether and end (where the packs hold their dimension file or noise settings),
 * then the other data/minecraft/dimension files. One that cannot be drawn (no noise generator,
 * settings that do not compile) is left out with one line on stderr. */
static void find_dimensions(hsrv *s, cf_pack *pk)
{
    static const char *const game[3][2] = {{"overworld", "overworld"}, {"the_nether", "nether"}, {"the_end", "end"}};
    const char *files[HTTP_MAX_SETTINGS], *sets[256], *ids[HTTP_MAX_SETTINGS + 3];
    int nf = pack_list(pk, "data/minecraft/dimension", files, HTTP_MAX_SETTINGS), ns = pack_list(pk, "data/minecraft/worldgen/noise_settings", sets, 256);
    int n = 0;
    if (nf > HTTP_MAX_SETTINGS) nf = HTTP_MAX_SETTINGS;
    if (ns > 256) ns = 256;
    for (int g = 0; g < 3; g++) {
        int have = 0;
        for (int i = 0; i < nf; i++) have |= strcmp(files[i], game[g][0]) == 0;
        for (int i = 0; i < ns; i++) have |= strcmp(sets[i], game[g][1]) == 0;
        if (have) ids[n++] = game[g][0];
    }
    for (int i = 0; i < nf; i++)
        if (strcmp(files[i], "overworld") && strcmp(files[i], "the_nether") && strcmp(files[i], "the_end")) ids[n++] = files[i];
    for (int i = 0; i < n && s->nprog < HTTP_MAX_SETTINGS; i++) {
        int k = s->nprog;
        char *id = s->idbuf[k][0], *set = s->idbuf[k][1];
        snprintf(id, sizeof s->idbuf[k][0], "minecraft:%s", ids[i]);
        cf_biomes *b = NULL;
        cf_error e = {0};
        if (cf_biomes_open(&b, pk, id, NULL, NULL, 0, &e) == CF_OK) snprintf(set, sizeof s->idbuf[k][1], "%s", cf_biomes_settings(b));
        cf_biomes_free(b);
        if (e.status == CF_OK && cf_program_compile_blocks(&s->prog[k], pk, set, &e) != CF_OK) {
            const char *fn[1] = {"router:final_density"};
            e = (cf_error){0};
            cf_program_compile(&s->prog[k], pk, set, fn, 1, &e);
        }
        if (e.status != CF_OK) {
            fprintf(stderr, "http: dimension %s is not served: %s\n", id, e.message);
            continue;
        }
        s->dims[k] = id, s->names[k] = set, s->nprog = k + 1;
    }
}

static void remove_cache(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    char p[4400];
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* a worker thread: one of the pools; the event loop is woken when it ends */
static void *run_worker(hsrv *s, void *(*fn)(void *))
{
    fn(s);
    __atomic_fetch_sub(&s->running, 1, __ATOMIC_ACQ_REL);
    if (write(s->wake[1], "e", 1) < 0) { /* the loop polls again within 100 ms anyway */ }
    return NULL;
}
static void *run_cheap(void *a) { return run_worker(a, http_cheap_worker); }
static void *run_dear(void *a) { return run_worker(a, http_dear_worker); }

/* the open-file limit raised to what --max-conns needs (a connection and a job each, and
 * a cached tile open per job), or --max-conns lowered to what the limit allows */
static int fit_files(int want)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return want;
    rlim_t need = (rlim_t)want * 3 + 64;
    if (rl.rlim_cur < need) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
        int fit = rl.rlim_cur > 64 + 3 * 16 ? (int)((rl.rlim_cur - 64) / 3) : 16;
        fprintf(stderr, "http: --max-conns %d lowered to %d (the open-file limit is %llu)\n", want, fit,
                (unsigned long long)rl.rlim_cur);
        return fit;
    }
    return want;
}

cf_status cf_http_serve(const cf_http_opts *o, cf_error *err)
{
    int ns = o->nsettings > 0 ? o->nsettings : 1;
    if (ns > HTTP_MAX_SETTINGS) return err_set(err, CF_ERR_ARG, "at most %d --settings", HTTP_MAX_SETTINGS);
    if (o->workers < 1 || o->dear_workers < 1 || o->max_conns < 1 || o->cache_mb < 1 || o->max_zoom < 0 || o->max_zoom > 20 ||
        o->read_timeout_ms < 1 || o->tile_timeout_ms < 1 || o->drain_ms < 0 || !o->listen)
        return err_set(err, CF_ERR_ARG, "cf_http_serve: bad options");
    hsrv *s = calloc(1, sizeof *s);
    cf_http_opts *oc = malloc(sizeof *oc);
    if (!s || !oc) return free(s), free(oc), err_set(err, CF_ERR_NOMEM, "out of memory");
    *oc = *o;
    oc->max_conns = fit_files(o->max_conns);
    s->o = oc;
    s->lfd = -1;
    s->wake[0] = s->wake[1] = -1;
    cf_status st = CF_OK;
    cf_pack *pk = NULL;
    pthread_t *th = NULL;
    int nth = 0, sp[2] = {-1, -1};
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->wmu, NULL);
    pthread_cond_init(&s->cheap_cv, NULL);
    pthread_cond_init(&s->dear_cv, NULL);
    if ((st = cf_pack_open(&pk, o->packs, o->npacks, &o->limits, err)) != CF_OK) goto out;
    if (o->version && (st = cf_pack_set_game_version(pk, o->version, err)) != CF_OK) goto out;
    s->pk = pk;
    if (o->nsettings == 0) find_dimensions(s, pk);
    for (int i = 0; i < ns && (o->nsettings > 0 || !s->dims[0]); i++) { /* --settings, or no dimension found */
        s->names[i] = o->nsettings > 0 ? o->settings[i] : "minecraft:overworld";
        cf_error e2 = {0};
        if (cf_program_compile_blocks(&s->prog[i], pk, s->names[i], &e2) != CF_OK) {
            const char *fn[1] = {"router:final_density"};
            if ((st = cf_program_compile(&s->prog[i], pk, s->names[i], fn, 1, err)) != CF_OK) goto out;
        }
        s->nprog = i + 1;
    }
    for (int i = 0; o->device && i < s->nprog; i++) /* before listening: no request waits for a device */
        if ((st = cf_map_device_open(&s->mdev[i], o->device, s->prog[i], err)) != CF_OK) goto out;
    if (o->cache_dir) {
        snprintf(s->cache, sizeof s->cache, "%s", o->cache_dir);
        if (mkdir(s->cache, 0777) != 0 && errno != EEXIST) {
            st = err_set(err, CF_ERR_IO, "--cache %s: %s", o->cache_dir, strerror(errno));
            goto out;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(s->cache, sizeof s->cache, "%s/chunkfill-tiles-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(s->cache)) {
            st = err_set(err, CF_ERR_IO, "%s: cannot create the tile cache: %s", s->cache, strerror(errno));
            goto out;
        }
        s->own_cache = 1;
    }
    if ((st = listen_on(s, o->listen, err)) != CF_OK) goto out;
    fcntl(s->lfd, F_SETFL, fcntl(s->lfd, F_GETFL) | O_NONBLOCK);
    int nworkers = o->workers + o->dear_workers;
    s->nworlds = nworkers + 4;
    s->worlds = calloc((size_t)s->nworlds, sizeof *s->worlds);
    s->closing_cap = oc->max_conns;
    s->closing = malloc(sizeof(int) * (size_t)s->closing_cap);
    th = calloc((size_t)nworkers, sizeof *th);
    if (!s->worlds || !s->closing || !th) {
        st = err_set(err, CF_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (pipe(s->wake) != 0 || pipe(sp) != 0) {
        st = err_set(err, CF_ERR_IO, "pipe: %s", strerror(errno));
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(s->wake[i], F_SETFL, O_NONBLOCK), fcntl(s->wake[i], F_SETFD, FD_CLOEXEC);
        fcntl(sp[i], F_SETFL, O_NONBLOCK), fcntl(sp[i], F_SETFD, FD_CLOEXEC);
    }
    sig_pipe = sp[1];
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    for (; nth < nworkers; nth++) {
        __atomic_fetch_add(&s->running, 1, __ATOMIC_ACQ_REL);
        if (pthread_create(&th[nth], NULL, nth < o->workers ? run_cheap : run_dear, s) != 0) {
            __atomic_fetch_sub(&s->running, 1, __ATOMIC_ACQ_REL);
            st = err_set(err, CF_ERR_NOMEM, "cannot start a worker thread");
            goto out;
        }
    }
    {
        struct sockaddr_storage a;
        socklen_t al = sizeof a;
        char host[128] = "?";
        int port = 0;
        if (getsockname(s->lfd, (struct sockaddr *)&a, &al) == 0) {
            if (a.ss_family == AF_INET) {
                inet_ntop(AF_INET, &((struct sockaddr_in *)&a)->sin_addr, host, sizeof host);
                port = ntohs(((struct sockaddr_in *)&a)->sin_port);
            } else {
                inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&a)->sin6_addr, host + 1, sizeof host - 2);
                host[0] = '[', strcat(host, "]");
                port = ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
            }
        }
        FILE *r = o->ready ? o->ready : stdout;
        fprintf(r, "listening on http://%s:%d/\n", host, port), fflush(r);
    }
    event_loop(s, sp[0], &s->running);
out:
    pthread_mutex_lock(&s->mu);
    s->stopping = 1;
    pthread_cond_broadcast(&s->cheap_cv);
    pthread_cond_broadcast(&s->dear_cv);
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < nth; i++) pthread_join(th[i], NULL);
    sig_pipe = -1;
    for (int i = 0; i < 2; i++) {
        if (sp[i] >= 0) close(sp[i]);
        if (s->wake[i] >= 0) close(s->wake[i]);
    }
    for (int i = 0; i < s->nclosing; i++) close(s->closing[i]);
    if (s->lfd >= 0) close(s->lfd);
    http_free_worlds(s);
    http_free_structures(s);
    for (int i = 0; i < s->nprog; i++) cf_map_device_free(s->mdev[i]), cf_program_free(s->prog[i]);
    while (s->ents) {
        http_entry *e = s->ents;
        s->ents = e->next;
        free(e);
    }
    if (s->own_cache) remove_cache(s->cache);
    cf_pack_free(pk);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->wmu);
    pthread_cond_destroy(&s->cheap_cv);
    pthread_cond_destroy(&s->dear_cv);
    free(s->closing), free(th), free(oc), free(s);
    return st;
}
