/* serve.c - `chunkfill serve`: the offload server (protocol: PROTOCOL.md).
 *
 * Start-up: packs -> one compiled program per configuration -> an OpenCL device
 * per configuration (or the CPU reference) -> listening sockets. Then two
 * threads: the I/O thread polls the sockets (accept, read frames, validate,
 * queue requests, write responses, time out stalled peers, SIGTERM through a
 * self-pipe) and the dispatcher takes queued chunks of requests with the same
 * (configuration, seed, kind) from every connection, fills them as one batch
 * (one device launch or one cf_fill_chunks call), and appends the encoded
 * CHUNK/DONE frames to the connections' output lists. One mutex guards the
 * queue, the requests, the output lists and the counters. Seeds are bound in a
 * small LRU of worlds (dispatcher only). Everything is freed at shutdown.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "chunkfill_net.h"
#include "net/proto.h"

#define MAX_LISTEN 8
#define MAX_CONFIGS 16

void cf_serve_defaults(cf_serve_opts *o)
{
    memset(o, 0, sizeof *o);
    cf_limits_default(&o->limits);
    o->device = "auto";
    o->max_chunks = 4096;
    o->max_frame = 65536;
    o->max_pending = 8192;
    o->queue_chunks = 65536;
    o->max_conns = 256;
    o->world_cache = 8;
    o->read_timeout_ms = 10000;
    o->write_timeout_ms = 60000;
    o->deadline_ms = 60000;
    o->drain_ms = 10000;
    o->max_output_mb = 16;
}

typedef struct outblk {
    struct outblk *next;
    size_t len, off;
    uint8_t *data;
} outblk;

typedef struct conn conn;

typedef struct request {
    struct request *qnext, *cnext;
    conn *c;
    uint32_t id, n, taken, done;
    int cfg, kind, stage, inflight, queued, stop;
    int stride; /* COLUMNS: blocks between sampled columns; 0 otherwise */
    int64_t seed;
    double deadline, t0;
    int32_t *chunks;
} request;

struct conn {
    conn *next;
    int fd, serial, hello, closed, closing, nreqs;
    int version;         /* the protocol version of its hello */
    int unlinked;        /* off the I/O thread's list: freed with its last request */
    char peer[96];
    uint8_t *in;
    size_t inlen;
    double frame_since;  /* a frame (or the hello) is expected to complete: since when; 0 none */
    double write_since;  /* output waiting and no byte written: since when */
    outblk *ohead, *otail;
    size_t obytes;
    uint32_t pending;    /* chunks of live requests not yet sent to the output list */
    request *reqs;
};

typedef struct config {
    char name[CFP_MAX_NAME + 1];
    cf_program *prog;
    cf_device *dev;
    int min_y, height, precision, kind;
    int blocks;                          /* BLOCKS_U8 too: the program is a block-fill program */
    const char *palette[CF_PALETTE_MAX]; /* its palette (cf_block_palette) */
    int npal;
    cf_biomes *bio;                      /* BIOMES_U8 (opts.biomes): the settings' biome source, */
    int64_t bseed;                       /*   bound to this seed (the dispatcher rebinds it) */
    cf_biomes *sbio;                     /* BLOCKS_U8 stage 1 (the surface stage): its own biome source */
    int64_t sseed;
    const char *bpal[CF_BIOME_PALETTE_MAX];
    int nbpal;
} config;

typedef struct slice {
    request *r;
    uint32_t start, count;
} slice;

typedef struct wslot {
    cf_world *w;
    int cfg;
    int64_t seed;
    uint64_t used;
} wslot;

typedef struct server {
    const cf_serve_opts *o;
    config cfg[MAX_CONFIGS];
    int ncfg;
    int lfd[MAX_LISTEN], nl;
    char lunix[MAX_LISTEN][sizeof(((struct sockaddr_un *)0)->sun_path)];
    char token[CFP_MAX_TOKEN];
    size_t token_len;
    int has_token;
    int wake[2];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t worker;
    int worker_started, quit;
    size_t out_cap; /* unsent output per connection before it gets no more batches */
    double accept_pause; /* out of descriptors: listeners not polled until then */
    request *qhead, *qtail;
    uint32_t qchunks, qreqs;
    conn *conns;
    int nconns, serial;
    uint64_t st_requests, st_chunks, st_launches, st_errors;
    double t_start;
    char devname[256];
    /* dispatcher only */
    wslot *worlds;
    uint64_t wclock;
    size_t batch;
    void *fillbuf;
    int32_t *list;
    struct slice *slices;
} server;

static int sig_pipe[2] = {-1, -1};
static void on_term(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) { /* nothing to do in a handler */ }
    errno = saved;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    /* one write per line, so that lines of concurrent events never interleave */
    if (write(2, line, (size_t)n) < 0) { /* stderr gone: nothing to report to */ }
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void wake_io(server *s)
{
    unsigned char b = 1;
    if (write(s->wake[1], &b, 1) < 0) { /* pipe full: the I/O thread is awake anyway */ }
}

/* ---------------------------------------------------------------- output (mu held) */

static void out_append(conn *c, cfp_buf *b)
{
    /* nothing follows a fatal error frame (closing) */
    if (c->closed || c->closing || b->oom || b->len == 0) {
        cfp_buf_free(b);
        return;
    }
    outblk *o = malloc(sizeof *o);
    if (!o) {
        cfp_buf_free(b);
        c->closing = 1; /* cannot keep the stream consistent any more */
        return;
    }
    o->next = NULL, o->len = b->len, o->off = 0, o->data = b->p;
    memset(b, 0, sizeof *b);
    if (c->otail) c->otail->next = o;
    else c->ohead = o;
    c->otail = o;
    c->obytes += o->len;
}

static void put_error(cfp_buf *b, uint32_t id, int code, const char *msg)
{
    size_t at = cfp_begin(b, CFP_ERROR);
    size_t l = strlen(msg);
    if (l > CFP_MAX_MESSAGE) l = CFP_MAX_MESSAGE;
    cfp_u32(b, id);
    cfp_u16(b, (unsigned)code);
    cfp_u16(b, (unsigned)l);
    cfp_put(b, msg, l);
    cfp_end(b, at);
}

static void conn_drop_requests(server *s, conn *c);
static void send_error(server *s, conn *c, uint32_t id, int code, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void send_error(server *s, conn *c, uint32_t id, int code, const char *fmt, ...)
{
    char msg[CFP_MAX_MESSAGE + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cfp_buf b = {0};
    put_error(&b, id, code, msg);
    out_append(c, &b);
    s->st_errors++;
    if (id == 0) {
        c->closing = 1;
        conn_drop_requests(s, c);
        logf_("serve: conn %d %s: %s: %s (closing)", c->serial, c->peer, cfp_err_name(code), msg);
    } else if (code != CFP_E_CANCELLED || s->o->verbose) {
        logf_("serve: conn %d %s: request %u: %s: %s", c->serial, c->peer, id, cfp_err_name(code), msg);
    }
}

/* ---------------------------------------------------------------- requests (mu held) */

static void req_free(server *s, request *r);
static void queue_remove(server *s, request *r);
/* the connection is closing: its requests end without frames (a batch in flight
 * is dropped by the dispatcher, which then frees them) */
static void conn_drop_requests(server *s, conn *c)
{
    for (request *r = c->reqs, *nx; r; r = nx) {
        nx = r->cnext;
        queue_remove(s, r);
        if (!r->stop) r->stop = CFP_E_CANCELLED;
        if (r->inflight == 0) req_free(s, r);
    }
}

static void queue_remove(server *s, request *r)
{
    if (!r->queued) return;
    request **pp = &s->qhead, *prev = NULL;
    while (*pp && *pp != r) prev = *pp, pp = &(*pp)->qnext;
    if (*pp) {
        *pp = r->qnext;
        if (s->qtail == r) s->qtail = prev;
    }
    r->qnext = NULL;
    r->queued = 0;
    s->qchunks -= r->n - r->taken;
    s->qreqs--;
}

static void conn_free(conn *c)
{
    for (outblk *o = c->ohead, *nx; o; o = nx) {
        nx = o->next;
        free(o->data);
        free(o);
    }
    free(c->in);
    free(c);
}

/* unlinks and frees r; frees its connection when that is closed and now empty */
static void req_free(server *s, request *r)
{
    conn *c = r->c;
    queue_remove(s, r);
    for (request **pp = &c->reqs; *pp; pp = &(*pp)->cnext)
        if (*pp == r) {
            *pp = r->cnext;
            break;
        }
    c->pending -= r->n - r->done;
    c->nreqs--;
    free(r->chunks);
    free(r);
    if (c->closed && c->unlinked && c->nreqs == 0) conn_free(c);
}

/* ends r with an error frame (when its connection is open) */
static void req_fail(server *s, request *r, int code, const char *msg)
{
    if (!r->c->closed) send_error(s, r->c, r->id, code, "%s", msg);
    req_free(s, r);
}

static const char *stop_msg(int code)
{
    switch (code) {
    case CFP_E_CANCELLED: return "cancelled by the client";
    case CFP_E_DEADLINE: return "the request's deadline passed before its chunks were filled";
    case CFP_E_SHUTDOWN: return "the server is shutting down";
    default: return "stopped";
    }
}

/* stops r (cancel, deadline, shutdown): ends it now, or after the batch in flight */
static void req_stop(server *s, request *r, int code)
{
    if (r->stop) return;
    r->stop = code;
    queue_remove(s, r);
    if (r->inflight == 0) req_fail(s, r, code, stop_msg(code));
}

/* ---------------------------------------------------------------- dispatcher */

static cf_world *world_get(server *s, int cfg, int64_t seed, cf_error *err)
{
    int n = s->o->world_cache > 0 ? s->o->world_cache : 1, lru = 0;
    for (int i = 0; i < n; i++) {
        wslot *w = &s->worlds[i];
        if (w->w && w->cfg == cfg && w->seed == seed) {
            w->used = ++s->wclock;
            return w->w;
        }
        if (!w->w || (s->worlds[lru].w && w->used < s->worlds[lru].used)) lru = i;
    }
    wslot *w = &s->worlds[lru];
    cf_world_free(w->w);
    w->w = NULL;
    if (cf_world_new(&w->w, s->cfg[cfg].prog, seed, err) != CF_OK) return NULL;
    w->cfg = cfg, w->seed = seed, w->used = ++s->wclock;
    return w->w;
}


/* fills n chunks of s->list into s->fillbuf on the configuration's device, or on
 * the CPU (also after a device failure, which turns the device off with one line) */
static cf_status fill_batch(server *s, int cfg, const cf_world *w, int kind, int stage, size_t n, cf_error *err)
{
    config *k = &s->cfg[cfg];
    int blocks = kind == CFP_BLOCKS_U8, surface = blocks && stage == 1;
    if (surface && k->sseed != w->seed) { /* the dispatcher's thread alone uses sbio */
        if (cf_biomes_set_seed(k->sbio, w->seed, err) != CF_OK) return err->status;
        k->sseed = w->seed;
    }
    if (surface && k->dev && !cf_program_surface_on_device(k->prog)) /* 26.3 material rules: the CPU */
        return cf_fill_blocks_surface(w, k->sbio, n, s->list, (uint8_t *)s->fillbuf, s->o->threads, err);
    if (k->dev) {
        /* launch sizes from a small set (powers of two, padded with copies of the last
         * chunk): an OpenCL implementation may compile work-group code per size (PoCL does) */
        size_t m = 16;
        while (m < n) m *= 2;
        if (m > s->batch) m = s->batch;
        for (size_t i = n; i < m; i++) s->list[2 * i] = s->list[2 * (n - 1)], s->list[2 * i + 1] = s->list[2 * (n - 1) + 1];
        if ((surface ? cf_device_fill_blocks_surface(k->dev, w, k->sbio, m, s->list, (uint8_t *)s->fillbuf, err)
             : blocks ? cf_device_fill_blocks(k->dev, w, m, s->list, (uint8_t *)s->fillbuf, err)
                      : cf_device_fill(k->dev, w, m, s->list, s->fillbuf, err)) == CF_OK)
            return CF_OK;
        logf_("serve: device failed (%s); configuration %s fills on the CPU from now on", err->message, k->name);
        cf_device_free(k->dev);
        k->dev = NULL;
        pthread_mutex_lock(&s->mu);
        snprintf(s->devname, sizeof s->devname, "cpu (the device failed)");
        pthread_mutex_unlock(&s->mu);
        memset(err, 0, sizeof *err);
    }
    if (surface) return cf_fill_blocks_surface(w, k->sbio, n, s->list, (uint8_t *)s->fillbuf, s->o->threads, err);
    if (blocks) return cf_fill_blocks(w, n, s->list, (uint8_t *)s->fillbuf, s->o->threads, err);
    return cf_fill_chunks(w, 0, n, s->list, s->fillbuf, s->o->threads, err);
}

/* COLUMNS: per listed (X, Z) the 16 x 16 columns (X*16*stride + i*stride, Z*16*stride + k*stride)
 * of cf_map_columns_get as 12-byte records (PROTOCOL.md) into s->fillbuf */
static cf_status fill_columns(server *s, config *k, const cf_world *w, int stride, size_t n, cf_error *err)
{
    int32_t h[256], ft[256];
    uint8_t bl[256], fl[256], bi[256];
    cf_map_columns cols = {h, bl, bi, fl, ft};
    for (size_t c = 0; c < n; c++) {
        int64_t span = (int64_t)16 * stride;
        cf_status st = cf_map_columns_get(w, k->bio, (int32_t)(s->list[2 * c] * span), (int32_t)(s->list[2 * c + 1] * span), stride,
                                          16, 16, INT32_MAX, &cols, s->o->threads, err);
        if (st != CF_OK) return st;
        uint8_t *q = (uint8_t *)s->fillbuf + c * 256 * 12;
        for (int i = 0; i < 256; i++, q += 12) {
            for (int b = 0; b < 4; b++) q[b] = (uint8_t)((uint32_t)h[i] >> (8 * b)), q[4 + b] = (uint8_t)((uint32_t)ft[i] >> (8 * b));
            q[8] = bl[i], q[9] = fl[i], q[10] = bi[i], q[11] = 0;
        }
    }
    return CF_OK;
}

static void *dispatch(void *arg)
{
    server *s = arg;
    slice *sl = s->slices;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->qhead && !s->quit) pthread_cond_wait(&s->cv, &s->mu);
        if (!s->qhead) break;
        /* requests past their deadline end before any of their chunks is filled */
        double now = now_s();
        for (request *r = s->qhead, *nx; r; r = nx) {
            nx = r->qnext;
            if (now > r->deadline) req_stop(s, r, CFP_E_DEADLINE);
        }
        if (!s->qhead) {
            wake_io(s);
            continue;
        }
        /* one batch: the oldest eligible request's key, chunks of every eligible queued
         * request with that key; a connection with too much unsent output waits (its
         * client reads slowly or not at all: filling more would only grow memory) */
        request *head = s->qhead;
        while (head && head->c->obytes >= s->out_cap) head = head->qnext;
        if (!head) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 100000000;
            if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
            pthread_cond_timedwait(&s->cv, &s->mu, &ts);
            continue;
        }
        int cfg = head->cfg, kind = head->kind, stage = head->stage, stride = head->stride;
        int64_t seed = head->seed;
        size_t n = 0, ns = 0;
        for (request *r = head, *nx; r && n < s->batch; r = nx) {
            nx = r->qnext;
            if (r->cfg != cfg || r->seed != seed || r->kind != kind || r->stage != stage || r->stride != stride || r->c->obytes >= s->out_cap)
                continue;
            uint32_t take = r->n - r->taken;
            if (take > s->batch - n) take = (uint32_t)(s->batch - n);
            memcpy(s->list + 2 * n, r->chunks + 2 * (size_t)r->taken, sizeof(int32_t) * 2 * take);
            sl[ns++] = (slice){r, r->taken, take};
            r->taken += take;
            r->inflight++;
            s->qchunks -= take;
            n += take;
            if (r->taken == r->n) queue_remove(s, r); /* n - taken == 0: qchunks stays */
        }
        /* a request the batch could not take whole goes to the end of the queue: big
         * requests share the batches round-robin with everyone else's */
        request *last = ns ? sl[ns - 1].r : NULL;
        if (last && last->queued && last != s->qtail) {
            queue_remove(s, last);
            last->queued = 1;
            s->qchunks += last->n - last->taken;
            s->qreqs++;
            s->qtail->qnext = last;
            s->qtail = last;
        }
        pthread_mutex_unlock(&s->mu);

        cf_error err = {0};
        config *k = &s->cfg[cfg];
        cf_status st;
        if (kind == CFP_BIOMES_U8 || kind == CFP_COLUMNS) { /* the CPU reference; the source rebound when the seed changes */
            st = k->bseed == seed ? CF_OK : cf_biomes_set_seed(k->bio, seed, &err);
            if (st == CF_OK) k->bseed = seed;
            if (st == CF_OK && kind == CFP_BIOMES_U8) st = cf_fill_biomes(k->bio, n, s->list, (uint8_t *)s->fillbuf, s->o->threads, &err);
            const cf_world *w = st == CF_OK && kind == CFP_COLUMNS ? world_get(s, cfg, seed, &err) : NULL;
            if (st == CF_OK && kind == CFP_COLUMNS) st = w ? fill_columns(s, k, w, stride, n, &err) : err.status;
        } else {
            const cf_world *w = world_get(s, cfg, seed, &err);
            st = w ? fill_batch(s, cfg, w, kind, stage, n, &err) : err.status;
        }
        size_t vsize = (size_t)cfp_kind_size(kind), per = cfp_chunk_values(kind, k->height), bytes = per * vsize;
        /* encode outside the lock: frames per slice */
        cfp_buf *bufs = calloc(ns ? ns : 1, sizeof *bufs);
        size_t off = 0;
        for (size_t i = 0; st == CF_OK && bufs && i < ns; i++) {
            for (uint32_t j = 0; j < sl[i].count; j++, off++) {
                size_t at = cfp_begin(&bufs[i], CFP_CHUNK);
                cfp_u32(&bufs[i], sl[i].r->id);
                cfp_u32(&bufs[i], sl[i].start + j);
                cfp_u32(&bufs[i], (uint32_t)s->list[2 * off]);
                cfp_u32(&bufs[i], (uint32_t)s->list[2 * off + 1]);
                cfp_u8(&bufs[i], (unsigned)kind);
                cfp_u8(&bufs[i], (unsigned)stage), cfp_u16(&bufs[i], 0);
                cfp_u32(&bufs[i], (uint32_t)per);
                cfp_put(&bufs[i], (const uint8_t *)s->fillbuf + off * bytes, bytes);
                cfp_end(&bufs[i], at);
            }
        }

        pthread_mutex_lock(&s->mu);
        s->st_launches++;
        for (size_t i = 0; i < ns; i++) {
            request *r = sl[i].r;
            r->inflight--;
            if (r->stop) {
                if (bufs) cfp_buf_free(&bufs[i]);
                if (r->inflight == 0) {
                    if (r->c->closed) req_free(s, r);
                    else req_fail(s, r, r->stop, stop_msg(r->stop));
                }
                continue;
            }
            if (st != CF_OK || !bufs || bufs[i].oom) {
                if (bufs) cfp_buf_free(&bufs[i]);
                char msg[CFP_MAX_MESSAGE + 1];
                snprintf(msg, sizeof msg, "fill failed: %.480s", st != CF_OK ? err.message : "out of memory");
                r->stop = CFP_E_FILL_FAILED;
                queue_remove(s, r);
                if (r->inflight == 0) req_fail(s, r, CFP_E_FILL_FAILED, msg);
                continue;
            }
            r->done += sl[i].count;
            r->c->pending -= sl[i].count;
            s->st_chunks += sl[i].count;
            if (r->done == r->n) {
                size_t at = cfp_begin(&bufs[i], CFP_DONE);
                cfp_u32(&bufs[i], r->id);
                cfp_u32(&bufs[i], r->n);
                cfp_end(&bufs[i], at);
            }
            out_append(r->c, &bufs[i]);
            if (r->done == r->n) {
                s->st_requests++;
                if (s->o->verbose)
                    logf_("serve: conn %d: request %u: %u chunks in %.1f ms", r->c->serial, r->id, r->n, (now_s() - r->t0) * 1e3);
                req_free(s, r);
            }
        }
        free(bufs);
        wake_io(s);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---------------------------------------------------------------- frames (I/O thread, mu held) */

static int token_equal(const server *s, const uint8_t *t, size_t len)
{
    /* constant time in the secret: every byte position is compared */
    unsigned diff = (unsigned)(len != s->token_len);
    for (size_t i = 0; i < CFP_MAX_TOKEN; i++) {
        unsigned a = i < len ? t[i] : 0, b = i < s->token_len ? (unsigned char)s->token[i] : 0;
        diff |= a ^ b;
    }
    return diff == 0;
}

static void on_hello(server *s, conn *c, const uint8_t *p, size_t len)
{
    cfp_rd r = {p, len, 0, 0};
    uint32_t magic = cfp_rd_u32(&r);
    unsigned version = cfp_rd_u16(&r), tlen = cfp_rd_u16(&r);
    const uint8_t *tok = tlen <= CFP_MAX_TOKEN ? cfp_rd_bytes(&r, tlen) : NULL;
    if (r.bad || magic != CFP_MAGIC || !tok || r.off != len) {
        send_error(s, c, 0, CFP_E_MALFORMED, "malformed hello (expected magic CFIL, version, token)");
        return;
    }
    if (version < CFP_VERSION_MIN || version > CFP_VERSION) {
        send_error(s, c, 0, CFP_E_VERSION, "unsupported protocol version %u (this server speaks versions %d to %d)", version,
                   CFP_VERSION_MIN, CFP_VERSION);
        return;
    }
    c->version = (int)version;
    if (s->has_token && !token_equal(s, tok, tlen)) {
        send_error(s, c, 0, CFP_E_AUTH, "bad token");
        return;
    }
    c->hello = 1;
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_HELLO_OK);
    cfp_u32(&b, CFP_MAGIC);
    cfp_u16(&b, (unsigned)c->version); /* the client's: every version up to ours is spoken */
    cfp_u16(&b, (unsigned)s->ncfg);
    cfp_u32(&b, (uint32_t)s->o->max_frame);
    cfp_u32(&b, (uint32_t)s->o->max_chunks);
    cfp_u32(&b, (uint32_t)s->o->max_pending);
    for (int i = 0; i < s->ncfg; i++) {
        size_t l = strlen(s->cfg[i].name);
        cfp_u8(&b, (unsigned)l);
        cfp_put(&b, s->cfg[i].name, l);
        cfp_u8(&b, (unsigned)s->cfg[i].precision);
        cfp_u8(&b, (unsigned)s->cfg[i].kind);
        /* flags: bit 0 = BLOCKS_U8 available, bit 1 = BIOMES_U8 (its palette after the block palette),
         * bit 2 (version 2) = BLOCKS_U8's surface stage */
        cfp_u8(&b, (s->cfg[i].blocks ? 1u : 0u) | (s->cfg[i].bio ? 2u : 0u) | (s->cfg[i].sbio && c->version >= 2 ? 4u : 0u));
        cfp_u8(&b, (unsigned)s->cfg[i].npal);
        cfp_u32(&b, (uint32_t)s->cfg[i].min_y);
        cfp_u32(&b, (uint32_t)s->cfg[i].height);
        for (int k = 0; k < s->cfg[i].npal; k++) {
            size_t pl = strlen(s->cfg[i].palette[k]);
            cfp_u8(&b, (unsigned)pl);
            cfp_put(&b, s->cfg[i].palette[k], pl);
        }
        if (s->cfg[i].bio) {
            cfp_u16(&b, (unsigned)s->cfg[i].nbpal);
            for (int k = 0; k < s->cfg[i].nbpal; k++) {
                size_t pl = strlen(s->cfg[i].bpal[k]);
                cfp_u8(&b, (unsigned)(pl > 255 ? 255 : pl));
                cfp_put(&b, s->cfg[i].bpal[k], pl > 255 ? 255 : pl);
            }
        }
    }
    cfp_end(&b, at);
    out_append(c, &b);
    logf_("serve: conn %d %s: hello", c->serial, c->peer);
}

static void on_fill(server *s, conn *c, const uint8_t *p, size_t len)
{
    cfp_fill f;
    if (cfp_fill_parse(p, len, &f) < 0 || f.id == 0) {
        send_error(s, c, 0, CFP_E_MALFORMED, "malformed fill frame (%zu bytes)", len);
        return;
    }
    for (request *r = c->reqs; r; r = r->cnext)
        if (r->id == f.id && !r->stop) {
            send_error(s, c, 0, CFP_E_MALFORMED, "request id %u is already in flight", f.id);
            return;
        }
    int cfg = -1;
    for (int i = 0; i < s->ncfg; i++)
        if (strlen(s->cfg[i].name) == f.config_len && memcmp(s->cfg[i].name, f.config, f.config_len) == 0) cfg = i;
    if (cfg < 0) {
        char name[CFP_MAX_NAME + 1];
        size_t l = 0;
        for (; l < f.config_len && l < 64; l++) name[l] = (char)(f.config[l] >= 32 && f.config[l] < 127 ? f.config[l] : '?');
        name[l] = 0;
        send_error(s, c, f.id, CFP_E_UNKNOWN_CONFIG, "unknown configuration '%s'", name);
        return;
    }
    if (f.kind != s->cfg[cfg].kind && !(f.kind == CFP_BLOCKS_U8 && s->cfg[cfg].blocks) && !(f.kind == CFP_BIOMES_U8 && s->cfg[cfg].bio) &&
        !(f.kind == CFP_COLUMNS && s->cfg[cfg].blocks && s->cfg[cfg].bio)) {
        send_error(s, c, f.id, CFP_E_UNSUPPORTED_KIND, "unsupported output kind %d for configuration %s (it gives kind %d, %s)",
                   f.kind, s->cfg[cfg].name, s->cfg[cfg].kind, s->cfg[cfg].kind == CFP_DENSITY_F32 ? "density_f32" : "density_f64");
        return;
    }
    if (f.stage != 0 && (f.kind != CFP_BLOCKS_U8 || f.stage != 1 || !s->cfg[cfg].sbio || c->version < 2)) {
        send_error(s, c, f.id, CFP_E_UNSUPPORTED_KIND, "unsupported stage %d of output kind %d for configuration %s (%s)", f.stage, f.kind,
                   s->cfg[cfg].name, f.kind != CFP_BLOCKS_U8 ? "stages are for blocks_u8" : !s->cfg[cfg].sbio ? "it has no surface stage"
                   : f.stage != 1 ? "0 noise, 1 surface" : "a version 2 hello offers it");
        return;
    }
    if (f.n == 0 || f.n > (uint32_t)s->o->max_chunks) {
        send_error(s, c, f.id, CFP_E_TOO_MANY_CHUNKS, "%u chunks in one request (1 to %d)", f.n, s->o->max_chunks);
        return;
    }
    /* COLUMNS: every sampled column within the block range of chunks; the surface stage: a chunk inside the ring */
    int32_t lim = f.kind == CFP_COLUMNS ? (int32_t)(((int64_t)CF_MAX_CHUNK * 16 - 15 * (int64_t)f.stride) / (16 * (int64_t)f.stride))
                                         : CF_MAX_CHUNK - (f.stage != 0); /* the surface stage reads the neighbours' biomes */
    for (uint32_t i = 0; i < 2 * f.n; i++) {
        int32_t v = cfp_le32s(f.chunks + 4 * (size_t)i);
        if (v < -lim || v > lim) {
            send_error(s, c, f.id, CFP_E_BAD_CHUNK, "chunk %u: coordinate %d out of range [%d, %d]", i / 2, v, -lim, lim);
            return;
        }
    }
    request *r = calloc(1, sizeof *r);
    int32_t *xz = malloc(sizeof(int32_t) * 2 * f.n);
    if (!r || !xz) {
        free(r), free(xz);
        send_error(s, c, f.id, CFP_E_FILL_FAILED, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < 2 * f.n; i++) xz[i] = cfp_le32s(f.chunks + 4 * (size_t)i);
    r->c = c, r->id = f.id, r->n = f.n, r->cfg = cfg, r->kind = f.kind, r->stage = f.stage, r->seed = f.seed, r->chunks = xz;
    r->stride = f.kind == CFP_COLUMNS ? (int)f.stride : 0;
    r->t0 = now_s();
    r->deadline = r->t0 + (f.deadline_ms ? f.deadline_ms : (uint32_t)s->o->deadline_ms) / 1e3;
    r->cnext = c->reqs;
    c->reqs = r;
    c->nreqs++;
    c->pending += r->n;
    r->queued = 1;
    if (s->qtail) s->qtail->qnext = r;
    else s->qhead = r;
    s->qtail = r;
    s->qchunks += r->n;
    s->qreqs++;
    pthread_cond_signal(&s->cv);
}

static void on_stats(server *s, conn *c)
{
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_STATS_OK);
    double up = now_s() - s->t_start;
    cfp_u32(&b, s->qchunks);
    cfp_u32(&b, s->qreqs);
    cfp_u32(&b, (uint32_t)s->nconns);
    cfp_u32(&b, 0);
    cfp_u64(&b, s->st_requests);
    cfp_u64(&b, s->st_chunks);
    cfp_u64(&b, s->st_launches);
    cfp_u64(&b, s->st_errors);
    cfp_f64(&b, up);
    cfp_f64(&b, up > 0 ? (double)s->st_chunks / up : 0);
    size_t l = strlen(s->devname);
    cfp_u16(&b, (unsigned)l);
    cfp_put(&b, s->devname, l);
    cfp_end(&b, at);
    out_append(c, &b);
}

/* handles one complete frame */
static void on_frame(server *s, conn *c, unsigned type, const uint8_t *p, size_t len)
{
    if (!c->hello) {
        if (type == CFP_HELLO) on_hello(s, c, p, len);
        else send_error(s, c, 0, CFP_E_MALFORMED, "expected a hello frame first, got type 0x%02x", type);
        return;
    }
    switch (type) {
    case CFP_FILL: on_fill(s, c, p, len); return;
    case CFP_CANCEL:
        if (len != 4) break;
        for (request *r = c->reqs; r; r = r->cnext)
            if (r->id == cfp_le32(p)) {
                req_stop(s, r, CFP_E_CANCELLED);
                break;
            }
        return;
    case CFP_PING: {
        if (len != 8) break;
        cfp_buf b = {0};
        size_t at = cfp_begin(&b, CFP_PONG);
        cfp_put(&b, p, 8);
        cfp_end(&b, at);
        out_append(c, &b);
        return;
    }
    case CFP_STATS:
        if (len != 0) break;
        on_stats(s, c);
        return;
    default:
        send_error(s, c, 0, CFP_E_MALFORMED, "unknown frame type 0x%02x", type);
        return;
    }
    send_error(s, c, 0, CFP_E_MALFORMED, "frame type 0x%02x with a bad length %zu", type, len);
}

/* whether the connection may take another frame now (back-pressure) */
static int may_read(const server *s, const conn *c)
{
    return !c->closing && c->pending < (uint32_t)s->o->max_pending && s->qchunks < (uint32_t)s->o->queue_chunks
           && c->obytes < s->out_cap;
}

/* processes the complete frames in c->in while back-pressure allows */
static void parse_frames(server *s, conn *c, double now)
{
    size_t off = 0, maxp = c->hello ? (size_t)s->o->max_frame : CFP_HEADER + CFP_MAX_TOKEN;
    while (may_read(s, c) && c->inlen - off >= CFP_HEADER) {
        const uint8_t *h = c->in + off;
        uint32_t len = cfp_le32(h);
        unsigned type = cfp_le16(h + 4), zero = cfp_le16(h + 6);
        if (zero != 0) {
            send_error(s, c, 0, CFP_E_MALFORMED, "frame header with nonzero reserved field");
            break;
        }
        if (len > maxp) {
            send_error(s, c, 0, CFP_E_TOO_LARGE, "frame of %u bytes (at most %zu)", len, maxp);
            break;
        }
        if (c->inlen - off < CFP_HEADER + (size_t)len) break;
        on_frame(s, c, type, h + CFP_HEADER, len);
        off += CFP_HEADER + (size_t)len;
        maxp = (size_t)s->o->max_frame;
    }
    if (off) {
        memmove(c->in, c->in + off, c->inlen - off);
        c->inlen -= off;
        if (c->hello) c->frame_since = c->inlen ? now : 0;
    }
}

static void conn_close(server *s, conn *c, const char *why)
{
    logf_("serve: conn %d %s: closed (%s)", c->serial, c->peer, why);
    close(c->fd);
    c->fd = -1;
    c->closed = 1;
    s->nconns--;
    conn_drop_requests(s, c); /* c stays: it is still on the I/O list (reap frees it) */
}

/* writes what is pending; returns -1 when the peer is gone */
static int flush_out(conn *c, double now)
{
    while (c->ohead) {
        outblk *o = c->ohead;
        ssize_t k = send(c->fd, o->data + o->off, o->len - o->off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                if (!c->write_since) c->write_since = now;
                return 0;
            }
            return -1;
        }
        c->write_since = 0;
        o->off += (size_t)k;
        c->obytes -= (size_t)k;
        if (o->off == o->len) {
            c->ohead = o->next;
            if (!c->ohead) c->otail = NULL;
            free(o->data);
            free(o);
        }
    }
    c->write_since = 0;
    return 0;
}

/* ---------------------------------------------------------------- sockets */

static int is_loopback(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET) return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    if (a->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)a)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(v6) ||
               (IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127);
    }
    return 0;
}

static void addr_text(const struct sockaddr *a, char *out, size_t n)
{
    char h[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (a->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)a)->sin_addr, h, sizeof h);
        port = ntohs(((const struct sockaddr_in *)a)->sin_port);
        snprintf(out, n, "%s:%d", h, port);
    } else if (a->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)a)->sin6_addr, h, sizeof h);
        port = ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
        snprintf(out, n, "[%s]:%d", h, port);
    } else {
        snprintf(out, n, "unix");
    }
}

/* splits "HOST:PORT" or "[V6]:PORT" into host and port (in place copies) */
int serve_split_addr(const char *addr, char *host, size_t hn, char *port, size_t pn);
int serve_split_addr(const char *addr, char *host, size_t hn, char *port, size_t pn)
{
    const char *colon;
    if (addr[0] == '[') {
        const char *rb = strchr(addr, ']');
        if (!rb || rb[1] != ':') return -1;
        if ((size_t)(rb - addr - 1) >= hn) return -1;
        memcpy(host, addr + 1, (size_t)(rb - addr - 1));
        host[rb - addr - 1] = 0;
        colon = rb + 1;
    } else {
        colon = strrchr(addr, ':');
        if (!colon || (size_t)(colon - addr) >= hn || colon == addr) return -1;
        memcpy(host, addr, (size_t)(colon - addr));
        host[colon - addr] = 0;
    }
    if (strlen(colon + 1) >= pn || !colon[1]) return -1;
    strcpy(port, colon + 1);
    for (const char *q = port; *q; q++)
        if (*q < '0' || *q > '9') return -1;
    return atol(port) <= 65535 ? 0 : -1;
}

static cf_status listen_one(server *s, const char *addr, cf_error *err)
{
    FILE *ready = s->o->ready ? s->o->ready : stdout;
    if (s->nl == MAX_LISTEN) return err_set(err, CF_ERR_ARG, "--listen: at most %d addresses", MAX_LISTEN);
    int fd = -1;
    s->lunix[s->nl][0] = 0;
    if (strncmp(addr, "unix:", 5) == 0) {
        struct sockaddr_un su = {0};
        su.sun_family = AF_UNIX;
        const char *path = addr + 5;
        if (!*path || strlen(path) >= sizeof su.sun_path)
            return err_set(err, CF_ERR_ARG, "--listen %s: the socket path is empty or longer than %zu bytes", addr, sizeof su.sun_path - 1);
        struct stat stt;
        if (lstat(path, &stt) == 0) return err_set(err, CF_ERR_ARG, "--listen %s: %s already exists (remove it first)", addr, path);
        strcpy(su.sun_path, path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&su, sizeof su) < 0 || chmod(path, 0600) < 0 || listen(fd, 128) < 0) {
            int e = errno;
            if (fd >= 0) close(fd);
            return err_set(err, CF_ERR_IO, "--listen %s: %s", addr, strerror(e));
        }
        strcpy(s->lunix[s->nl], path);
        fprintf(ready, "listening on unix:%s\n", path);
    } else {
        char host[256], port[16];
        if (serve_split_addr(addr, host, sizeof host, port, sizeof port) < 0)
            return err_set(err, CF_ERR_ARG, "--listen %s: expected HOST:PORT, [V6]:PORT or unix:PATH", addr);
        struct addrinfo hints = {0}, *ai = NULL;
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_PASSIVE;
        int g = getaddrinfo(host, port, &hints, &ai);
        if (g != 0 || !ai) return err_set(err, CF_ERR_ARG, "--listen %s: %s", addr, gai_strerror(g));
        if (!is_loopback(ai->ai_addr) && !s->o->allow_remote) {
            freeaddrinfo(ai);
            return err_set(err, CF_ERR_ARG, "--listen %s: not a loopback address; pass --allow-remote and --token-file to serve other machines", addr);
        }
        fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int one = 1;
        if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 128) < 0) {
            int e = errno;
            if (fd >= 0) close(fd);
            freeaddrinfo(ai);
            return err_set(err, CF_ERR_IO, "--listen %s: %s", addr, strerror(e));
        }
        freeaddrinfo(ai);
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        char text[128] = "?";
        if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) addr_text((struct sockaddr *)&ss, text, sizeof text);
        fprintf(ready, "listening on %s\n", text);
    }
    fflush(ready);
    set_nonblock(fd);
    s->lfd[s->nl++] = fd;
    return CF_OK;
}

static void accept_one(server *s, int lfd, double now)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = accept(lfd, (struct sockaddr *)&ss, &sl);
    if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            /* the pending connection stays; stop polling the listeners for a moment */
            s->accept_pause = now + 0.25;
            logf_("serve: accept: %s (not accepting for 250 ms)", strerror(errno));
        }
        return;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    set_nonblock(fd);
    char peer[96];
    addr_text((struct sockaddr *)&ss, peer, sizeof peer);
    if (ss.ss_family != AF_UNIX) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    if (s->nconns >= s->o->max_conns) {
        cfp_buf b = {0};
        put_error(&b, 0, CFP_E_BUSY, "too many connections");
        if (!b.oom && send(fd, b.p, b.len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) { /* best effort */ }
        cfp_buf_free(&b);
        close(fd);
        logf_("serve: %s: refused (busy: %d connections)", peer, s->nconns);
        return;
    }
    conn *c = calloc(1, sizeof *c);
    uint8_t *in = malloc(CFP_HEADER + (size_t)s->o->max_frame);
    if (!c || !in) {
        free(c), free(in);
        close(fd);
        logf_("serve: %s: refused (out of memory)", peer);
        return;
    }
    c->fd = fd, c->in = in, c->serial = ++s->serial, c->frame_since = now;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    c->next = s->conns;
    s->conns = c;
    s->nconns++;
    logf_("serve: conn %d %s: accepted", c->serial, c->peer);
}

/* reads what is there; returns -1 on EOF or error */
static int read_in(server *s, conn *c, double now)
{
    size_t cap = CFP_HEADER + (size_t)s->o->max_frame;
    if (c->inlen == cap) return 0; /* a full buffer holds a complete frame, parse first */
    ssize_t k = recv(c->fd, c->in + c->inlen, cap - c->inlen, MSG_DONTWAIT);
    if (k == 0) return -1;
    if (k < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
    if (c->inlen == 0 && c->hello) c->frame_since = now;
    c->inlen += (size_t)k;
    return 0;
}

/* ---------------------------------------------------------------- start-up and loop */

static cf_status load_configs(server *s, cf_error *err)
{
    const cf_serve_opts *o = s->o;
    cf_pack *pk = NULL;
    const char *fn[1] = {o->function ? o->function : "router:final_density"};
    static const char *const def[1] = {"minecraft:overworld"};
    const char *const *ids = o->nsettings ? o->settings : def;
    int nids = o->nsettings ? o->nsettings : 1;
    if (nids > MAX_CONFIGS) return err_set(err, CF_ERR_ARG, "at most %d configurations", MAX_CONFIGS);
    if (cf_pack_open(&pk, o->packs, o->npacks, &o->limits, err) != CF_OK) return err->status;
    cf_pack_set_strict(pk, o->strict);
    for (int i = 0; i < o->ndefines; i++) {
        const char *eq = strrchr(o->defines[i], '=');
        char type[256];
        char *end = NULL;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || !end || end == eq + 1 || *end || (size_t)(eq - o->defines[i]) >= sizeof type) {
            cf_pack_free(pk);
            return err_set(err, CF_ERR_ARG, "define \"%s\": expected TYPE=VALUE", o->defines[i]);
        }
        snprintf(type, sizeof type, "%.*s", (int)(eq - o->defines[i]), o->defines[i]);
        if (cf_pack_define(pk, type, v, err) != CF_OK) {
            cf_pack_free(pk);
            return err->status;
        }
    }
    for (int i = 0; i < nids; i++) {
        config *k = &s->cfg[i];
        if (strlen(ids[i]) > CFP_MAX_NAME) {
            cf_pack_free(pk);
            return err_set(err, CF_ERR_ARG, "settings id longer than %d bytes", CFP_MAX_NAME);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(s->cfg[j].name, ids[i]) == 0) {
                cf_pack_free(pk);
                return err_set(err, CF_ERR_ARG, "configuration %s given twice", ids[i]);
            }
        strcpy(k->name, ids[i]);
        /* a block-fill program where the settings allow it (output 0 is still
         * final_density, so density requests fill the same program) */
        cf_error be = {0};
        if (cf_program_compile_blocks(&k->prog, pk, ids[i], &be) == CF_OK) {
            k->blocks = 1;
            k->npal = cf_block_palette(k->prog, k->palette);
        } else if (cf_program_compile(&k->prog, pk, ids[i], fn, 1, err) != CF_OK) {
            cf_pack_free(pk);
            return err->status;
        } else if (cf_program_precision(k->prog) == 32) {
            logf_("serve: configuration %s: no block fills (%s)", ids[i], be.message);
        }
        s->ncfg = i + 1;
        if (o->biomes) {
            cf_error bioe = {0};
            if (cf_biomes_open(&k->bio, pk, NULL, ids[i], NULL, 0, &bioe) == CF_OK)
                k->nbpal = cf_biomes_palette(k->bio, k->bpal);
            else
                logf_("serve: configuration %s: no biomes (%s)", ids[i], bioe.message);
        }
        if (k->blocks && cf_program_has_surface(k->prog)) {
            cf_error se = {0};
            if (cf_biomes_open(&k->sbio, pk, NULL, ids[i], NULL, 0, &se) != CF_OK) {
                logf_("serve: configuration %s: no surface stage (%s)", ids[i], se.message);
                k->sbio = NULL;
            }
        }
        cf_program_settings(k->prog, &k->min_y, &k->height, NULL);
        k->precision = cf_program_precision(k->prog);
        k->kind = k->precision == 64 ? CFP_DENSITY_F64 : CFP_DENSITY_F32;
    }
    cf_pack_free(pk);
    /* devices */
    int want = strcmp(o->device, "cpu") != 0, fallback = strcmp(o->device, "auto") == 0;
    snprintf(s->devname, sizeof s->devname, "cpu");
    for (int i = 0; want && i < s->ncfg; i++) {
        cf_error e = {0};
        if (cf_device_open(&s->cfg[i].dev, fallback ? "opencl" : o->device, s->cfg[i].prog, 0, (size_t)(o->batch > 0 ? o->batch : 0), &e)
            != CF_OK) {
            if (!fallback) {
                *err = e;
                return e.status;
            }
            logf_("serve: no usable OpenCL device (%s); filling on the CPU reference", e.message);
            want = 0;
            break;
        }
        snprintf(s->devname, sizeof s->devname, "%s", cf_device_name(s->cfg[i].dev));
    }
    if (!want)
        for (int i = 0; i < s->ncfg; i++) cf_device_free(s->cfg[i].dev), s->cfg[i].dev = NULL;
    size_t batch = o->batch > 0 ? (size_t)o->batch : 0, maxh = 0;
    if (!batch) batch = s->cfg[0].dev ? cf_device_batch(s->cfg[0].dev) : (size_t)(o->threads > 0 ? o->threads : cf_cpu_count()) * 16;
    for (int i = 0; i < s->ncfg; i++) {
        if (s->cfg[i].dev && cf_device_batch(s->cfg[i].dev) < batch) batch = cf_device_batch(s->cfg[i].dev);
        if ((size_t)s->cfg[i].height > maxh) maxh = (size_t)s->cfg[i].height;
    }
    if (!batch) batch = 1;
    if (!maxh) maxh = 1;
    s->batch = batch;
    s->fillbuf = malloc(batch * maxh * 256 * 8);
    s->list = malloc(batch * 2 * sizeof(int32_t));
    s->slices = malloc(batch * sizeof(slice));
    s->worlds = calloc((size_t)(o->world_cache > 0 ? o->world_cache : 1), sizeof *s->worlds);
    if (!s->fillbuf || !s->list || !s->worlds || !s->slices) return err_set(err, CF_ERR_NOMEM, "out of memory for a batch of %zu chunks", batch);
    logf_("serve: %d configuration%s, fills on %s, batches of up to %zu chunks", s->ncfg, s->ncfg == 1 ? "" : "s", s->devname,
          batch);
    return CF_OK;
}

static void reap(server *s);
static void server_free(server *s)
{
    for (conn *c = s->conns; c; c = c->next)
        if (!c->closed) conn_close(s, c, "shutdown");
    reap(s);
    for (int i = 0; i < s->nl; i++) {
        close(s->lfd[i]);
        if (s->lunix[i][0]) unlink(s->lunix[i]);
    }
    if (s->worlds)
        for (int i = 0; i < (s->o->world_cache > 0 ? s->o->world_cache : 1); i++) cf_world_free(s->worlds[i].w);
    for (int i = 0; i < s->ncfg; i++) {
        cf_device_free(s->cfg[i].dev);
        cf_biomes_free(s->cfg[i].bio);
        cf_biomes_free(s->cfg[i].sbio);
        cf_program_free(s->cfg[i].prog);
    }
    free(s->worlds);
    free(s->fillbuf);
    free(s->list);
    free(s->slices);
}

/* drops closed connections from the I/O list (their memory goes with their last request) */
static void reap(server *s)
{
    for (conn **pp = &s->conns; *pp;) {
        conn *c = *pp;
        if (c->closed) {
            *pp = c->next;
            c->unlinked = 1;
            if (c->nreqs == 0) conn_free(c);
            /* else: the dispatcher frees it with its last request */
        } else {
            pp = &c->next;
        }
    }
}

static void io_loop(server *s)
{
    const cf_serve_opts *o = s->o;
    size_t cap = 16;
    struct pollfd *pf = malloc(sizeof *pf * cap);
    conn **pc = malloc(sizeof *pc * cap);
    int shutting = 0, flushing = 0;
    double drain_until = 0;
    while (pf && pc) {
        pthread_mutex_lock(&s->mu);
        double now = now_s();
        /* timeouts and flushes */
        for (conn *c = s->conns; c; c = c->next) {
            if (c->closed) continue;
            size_t before = c->obytes;
            if (c->ohead && flush_out(c, now) < 0) {
                conn_close(s, c, "peer gone while writing");
                continue;
            }
            if (before >= s->out_cap && c->obytes < s->out_cap && s->qhead) pthread_cond_signal(&s->cv); /* it may get batches again */
            if (c->closing && !c->ohead) {
                conn_close(s, c, "after an error frame");
                continue;
            }
            if (c->write_since && now - c->write_since > o->write_timeout_ms / 1e3) {
                conn_close(s, c, "write timeout: the client reads nothing");
                continue;
            }
            if (!may_read(s, c) && c->hello && c->frame_since) c->frame_since = now; /* no stall clock under back-pressure */
            if (!c->closing && c->frame_since && may_read(s, c) && now - c->frame_since > o->read_timeout_ms / 1e3) {
                send_error(s, c, 0, CFP_E_TIMEOUT, c->hello ? "incomplete frame for %d ms" : "no hello within %d ms",
                           o->read_timeout_ms);
                if (flush_out(c, now) < 0 || !c->ohead) conn_close(s, c, "read timeout");
            }
        }
        reap(s);
        if (shutting && !flushing) {
            int busy = 0;
            for (conn *c = s->conns; c; c = c->next) busy |= c->reqs != NULL || c->ohead != NULL;
            if (!busy || now > drain_until) {
                int left = 0;
                for (conn *c = s->conns; c; c = c->next)
                    for (request *r = c->reqs, *nx; r; r = nx) {
                        nx = r->cnext;
                        left++;
                        req_stop(s, r, CFP_E_SHUTDOWN);
                    }
                for (conn *c = s->conns; c; c = c->next)
                    if (!c->closing) send_error(s, c, 0, CFP_E_SHUTDOWN, "the server is shutting down");
                logf_("serve: shutdown: %s, %d request%s cancelled", busy ? "drain time over" : "all work done", left,
                      left == 1 ? "" : "s");
                flushing = 1;
                drain_until = now + 1.0;
            }
        }
        if (flushing) {
            int out = 0;
            for (conn *c = s->conns; c; c = c->next) out |= c->ohead != NULL || c->reqs != NULL;
            if (!out || now > drain_until) {
                pthread_mutex_unlock(&s->mu);
                break;
            }
        }
        /* the poll set */
        size_t n = 0, need = 2 + (size_t)s->nl + (size_t)s->nconns;
        if (need > cap) {
            while (cap < need) cap *= 2;
            struct pollfd *npf = realloc(pf, sizeof *pf * cap);
            if (npf) pf = npf;
            conn **npc = realloc(pc, sizeof *pc * cap);
            if (npc) pc = npc;
            if (!npf || !npc) {
                pthread_mutex_unlock(&s->mu);
                logf_("serve: out of memory; shutting down");
                break;
            }
        }
        pf[n++] = (struct pollfd){.fd = sig_pipe[0], .events = POLLIN};
        pf[n++] = (struct pollfd){.fd = s->wake[0], .events = POLLIN};
        size_t nlis = 0;
        if (!shutting && now >= s->accept_pause)
            for (int i = 0; i < s->nl; i++) pc[n] = NULL, pf[n++] = (struct pollfd){.fd = s->lfd[i], .events = POLLIN}, nlis++;
        size_t first = n;
        for (conn *c = s->conns; c; c = c->next) {
            short ev = 0;
            if (!shutting && may_read(s, c)) ev |= POLLIN;
            if (c->ohead) ev |= POLLOUT;
            pc[n] = c;
            pf[n++] = (struct pollfd){.fd = c->fd, .events = ev};
        }
        pthread_mutex_unlock(&s->mu);

        int pr = poll(pf, (nfds_t)n, 100);
        if (pr < 0 && errno != EINTR) {
            logf_("serve: poll: %s", strerror(errno));
            break;
        }
        now = now_s();
        unsigned char junk[64];
        if (pf[0].revents & POLLIN) {
            if (read(sig_pipe[0], junk, sizeof junk) < 0) { /* drained */ }
            if (!shutting) {
                shutting = 1;
                drain_until = now + o->drain_ms / 1e3;
                for (int i = 0; i < s->nl; i++) {
                    close(s->lfd[i]);
                    if (s->lunix[i][0]) unlink(s->lunix[i]);
                }
                s->nl = 0;
                logf_("serve: signal: no new connections or requests; finishing in-flight work (up to %d ms)", o->drain_ms);
            }
        }
        if (pf[1].revents & POLLIN)
            if (read(s->wake[0], junk, sizeof junk) < 0) { /* drained */ }
        pthread_mutex_lock(&s->mu);
        for (size_t i = 2; i < first; i++)
            if (pf[i].revents & POLLIN) accept_one(s, pf[i].fd, now);
        for (size_t i = first; i < n; i++) {
            conn *c = pc[i];
            if (c->closed) continue;
            if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                if ((pf[i].revents & POLLIN) && read_in(s, c, now) < 0) {
                    conn_close(s, c, c->inlen ? "peer closed mid-frame" : "peer closed");
                    continue;
                }
                if (!(pf[i].revents & POLLIN) && (pf[i].revents & (POLLHUP | POLLERR))) {
                    conn_close(s, c, "peer hung up");
                    continue;
                }
            }
            if (!shutting) parse_frames(s, c, now);
        }
        pthread_mutex_unlock(&s->mu);
        (void)nlis;
    }
    free(pf);
    free(pc);
}

cf_status cf_serve(const cf_serve_opts *o, cf_error *err)
{
    cf_error local = {0};
    if (!err) err = &local;
    if (!o || o->nlisten <= 0) return err_set(err, CF_ERR_ARG, "serve: give at least one --listen address");
    if (o->max_frame < 64 || (unsigned)o->max_frame > CFP_CLIENT_FRAME_MAX || o->max_chunks < 1
        || (uint64_t)o->max_chunks * 8 + 24 + CFP_MAX_NAME > (uint64_t)o->max_frame || o->max_pending < 1 || o->queue_chunks < 1
        || o->max_conns < 1)
        return err_set(err, CF_ERR_ARG, "serve: --max-chunks %d needs --max-frame >= %lld (given %d, at most %u)", o->max_chunks,
                       (long long)o->max_chunks * 8 + 24 + CFP_MAX_NAME, o->max_frame, CFP_CLIENT_FRAME_MAX);
    if (o->allow_remote && !o->token) return err_set(err, CF_ERR_ARG, "serve: --allow-remote needs --token-file");
    server *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, CF_ERR_NOMEM, "out of memory");
    s->o = o;
    s->out_cap = (size_t)(o->max_output_mb > 0 ? o->max_output_mb : 16) << 20;
    s->wake[0] = s->wake[1] = -1;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    if (o->token) {
        size_t l = strlen(o->token);
        if (l == 0 || l > CFP_MAX_TOKEN) {
            err_set(err, CF_ERR_ARG, "serve: the token must have 1 to %d bytes", CFP_MAX_TOKEN);
            goto done;
        }
        memcpy(s->token, o->token, l);
        s->token_len = l;
        s->has_token = 1;
    }
    if (pipe(s->wake) < 0 || (sig_pipe[0] < 0 && pipe(sig_pipe) < 0)) {
        err_set(err, CF_ERR_IO, "serve: pipe: %s", strerror(errno));
        goto done;
    }
    set_nonblock(s->wake[0]), set_nonblock(s->wake[1]), set_nonblock(sig_pipe[0]), set_nonblock(sig_pipe[1]);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (load_configs(s, err) != CF_OK) goto done;
    for (int i = 0; i < o->nlisten; i++)
        if (listen_one(s, o->listen[i], err) != CF_OK) goto done;
    s->t_start = now_s();
    if (pthread_create(&s->worker, NULL, dispatch, s) != 0) {
        err_set(err, CF_ERR_NOMEM, "serve: cannot start the dispatcher thread");
        goto done;
    }
    s->worker_started = 1;
    io_loop(s);
    err->status = CF_OK;
done:
    if (s->worker_started) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        /* what is still queued will not be filled */
        for (conn *c = s->conns; c; c = c->next)
            for (request *r = c->reqs, *nx; r; r = nx) {
                nx = r->cnext;
                req_stop(s, r, CFP_E_SHUTDOWN);
            }
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->worker, NULL);
    }
    cf_status st = err->status;
    if (st == CF_OK)
        logf_("serve: stopped: %llu requests, %llu chunks, %llu launches, %llu errors", (unsigned long long)s->st_requests,
              (unsigned long long)s->st_chunks, (unsigned long long)s->st_launches, (unsigned long long)s->st_errors);
    server_free(s);
    if (s->wake[0] >= 0) close(s->wake[0]), close(s->wake[1]);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    return st;
}
