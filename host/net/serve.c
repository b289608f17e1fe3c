/* serve.c - `chunkfill serve`: the offload server (protocol: PROTOCOL.md): requests, frames
 * and the dispatcher (the sockets, the I/O thread, start-up and shutdown: serve_io.c).
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
#include "net/serve.h"

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

double serve_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void serve_log(const char *fmt, ...)
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

int serve_set_nonblock(int fd)
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

void serve_put_error(cfp_buf *b, uint32_t id, int code, const char *msg)
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

void serve_send_error(server *s, conn *c, uint32_t id, int code, const char *fmt, ...)
{
    char msg[CFP_MAX_MESSAGE + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cfp_buf b = {0};
    serve_put_error(&b, id, code, msg);
    out_append(c, &b);
    s->st_errors++;
    if (id == 0) {
        c->closing = 1;
        serve_conn_drop_requests(s, c);
        serve_log("serve: conn %d %s: %s: %s (closing)", c->serial, c->peer, cfp_err_name(code), msg);
    } else if (code != CFP_E_CANCELLED || s->o->verbose) {
        serve_log("serve: conn %d %s: request %u: %s: %s", c->serial, c->peer, id, cfp_err_name(code), msg);
    }
}

/* ---------------------------------------------------------------- requests (mu held) */

static void req_free(server *s, request *r);
static void queue_remove(server *s, request *r);
/* the connection is closing: its requests end without frames (a batch in flight
 * is dropped by the dispatcher, which then frees them) */
void serve_conn_drop_requests(server *s, conn *c)
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

void serve_conn_free(conn *c)
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
    if (c->closed && c->unlinked && c->nreqs == 0) serve_conn_free(c);
}

/* ends r with an error frame (when its connection is open) */
static void req_fail(server *s, request *r, int code, const char *msg)
{
    if (!r->c->closed) serve_send_error(s, r->c, r->id, code, "%s", msg);
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
void serve_req_stop(server *s, request *r, int code)
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
        serve_log("serve: device failed (%s); configuration %s fills on the CPU from now on", err->message, k->name);
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

void *serve_dispatch(void *arg)
{
    server *s = arg;
    slice *sl = s->slices;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->qhead && !s->quit) pthread_cond_wait(&s->cv, &s->mu);
        if (!s->qhead) break;
        /* requests past their deadline end before any of their chunks is filled */
        double now = serve_now_s();
        for (request *r = s->qhead, *nx; r; r = nx) {
            nx = r->qnext;
            if (now > r->deadline) serve_req_stop(s, r, CFP_E_DEADLINE);
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
                    serve_log("serve: conn %d: request %u: %u chunks in %.1f ms", r->c->serial, r->id, r->n, (serve_now_s() - r->t0) * 1e3);
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
        serve_send_error(s, c, 0, CFP_E_MALFORMED, "malformed hello (expected magic CFIL, version, token)");
        return;
    }
    if (version < CFP_VERSION_MIN || version > CFP_VERSION) {
        serve_send_error(s, c, 0, CFP_E_VERSION, "unsupported protocol version %u (this server speaks versions %d to %d)", version,
                   CFP_VERSION_MIN, CFP_VERSION);
        return;
    }
    c->version = (int)version;
    if (s->has_token && !token_equal(s, tok, tlen)) {
        serve_send_error(s, c, 0, CFP_E_AUTH, "bad token");
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
    serve_log("serve: conn %d %s: hello", c->serial, c->peer);
}

static void on_fill(server *s, conn *c, const uint8_t *p, size_t len)
{
    cfp_fill f;
    if (cfp_fill_parse(p, len, &f) < 0 || f.id == 0) {
        serve_send_error(s, c, 0, CFP_E_MALFORMED, "malformed fill frame (%zu bytes)", len);
        return;
    }
    for (request *r = c->reqs; r; r = r->cnext)
        if (r->id == f.id && !r->stop) {
            serve_send_error(s, c, 0, CFP_E_MALFORMED, "request id %u is already in flight", f.id);
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
        serve_send_error(s, c, f.id, CFP_E_UNKNOWN_CONFIG, "unknown configuration '%s'", name);
        return;
    }
    if (f.kind != s->cfg[cfg].kind && !(f.kind == CFP_BLOCKS_U8 && s->cfg[cfg].blocks) && !(f.kind == CFP_BIOMES_U8 && s->cfg[cfg].bio) &&
        !(f.kind == CFP_COLUMNS && s->cfg[cfg].blocks && s->cfg[cfg].bio)) {
        serve_send_error(s, c, f.id, CFP_E_UNSUPPORTED_KIND, "unsupported output kind %d for configuration %s (it gives kind %d, %s)",
                   f.kind, s->cfg[cfg].name, s->cfg[cfg].kind, s->cfg[cfg].kind == CFP_DENSITY_F32 ? "density_f32" : "density_f64");
        return;
    }
    if (f.stage != 0 && (f.kind != CFP_BLOCKS_U8 || f.stage != 1 || !s->cfg[cfg].sbio || c->version < 2)) {
        serve_send_error(s, c, f.id, CFP_E_UNSUPPORTED_KIND, "unsupported stage %d of output kind %d for configuration %s (%s)", f.stage, f.kind,
                   s->cfg[cfg].name, f.kind != CFP_BLOCKS_U8 ? "stages are for blocks_u8" : !s->cfg[cfg].sbio ? "it has no surface stage"
                   : f.stage != 1 ? "0 noise, 1 surface" : "a version 2 hello offers it");
        return;
    }
    if (f.n == 0 || f.n > (uint32_t)s->o->max_chunks) {
        serve_send_error(s, c, f.id, CFP_E_TOO_MANY_CHUNKS, "%u chunks in one request (1 to %d)", f.n, s->o->max_chunks);
        return;
    }
    /* COLUMNS: every sampled column within the block range of chunks; the surface stage: a chunk inside the ring */
    int32_t lim = f.kind == CFP_COLUMNS ? (int32_t)(((int64_t)CF_MAX_CHUNK * 16 - 15 * (int64_t)f.stride) / (16 * (int64_t)f.stride))
                                         : CF_MAX_CHUNK - (f.stage != 0); /* the surface stage reads the neighbours' biomes */
    for (uint32_t i = 0; i < 2 * f.n; i++) {
        int32_t v = cfp_le32s(f.chunks + 4 * (size_t)i);
        if (v < -lim || v > lim) {
            serve_send_error(s, c, f.id, CFP_E_BAD_CHUNK, "chunk %u: coordinate %d out of range [%d, %d]", i / 2, v, -lim, lim);
            return;
        }
    }
    request *r = calloc(1, sizeof *r);
    int32_t *xz = malloc(sizeof(int32_t) * 2 * f.n);
    if (!r || !xz) {
        free(r), free(xz);
        serve_send_error(s, c, f.id, CFP_E_FILL_FAILED, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < 2 * f.n; i++) xz[i] = cfp_le32s(f.chunks + 4 * (size_t)i);
    r->c = c, r->id = f.id, r->n = f.n, r->cfg = cfg, r->kind = f.kind, r->stage = f.stage, r->seed = f.seed, r->chunks = xz;
    r->stride = f.kind == CFP_COLUMNS ? (int)f.stride : 0;
    r->t0 = serve_now_s();
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
    double up = serve_now_s() - s->t_start;
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
void serve_on_frame(server *s, conn *c, unsigned type, const uint8_t *p, size_t len)
{
    if (!c->hello) {
        if (type == CFP_HELLO) on_hello(s, c, p, len);
        else serve_send_error(s, c, 0, CFP_E_MALFORMED, "expected a hello frame first, got type 0x%02x", type);
        return;
    }
    switch (type) {
    case CFP_FILL: on_fill(s, c, p, len); return;
    case CFP_CANCEL:
        if (len != 4) break;
        for (request *r = c->reqs; r; r = r->cnext)
            if (r->id == cfp_le32(p)) {
                serve_req_stop(s, r, CFP_E_CANCELLED);
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
        serve_send_error(s, c, 0, CFP_E_MALFORMED, "unknown frame type 0x%02x", type);
        return;
    }
    serve_send_error(s, c, 0, CFP_E_MALFORMED, "frame type 0x%02x with a bad length %zu", type, len);
}

/* whether the connection may take another frame now (back-pressure) */
