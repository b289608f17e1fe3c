/* serve_io.c - `chunkfill serve`: the sockets and the I/O thread (accept, read frames, write
 * responses, time out stalled peers, SIGTERM through a self-pipe), configurations at start-up,
 * shutdown (serve.c: requests, frames, the dispatcher). */
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

static int sig_pipe[2] = {-1, -1};
static void on_term(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) { /* nothing to do in a handler */ }
    errno = saved;
}

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
            serve_send_error(s, c, 0, CFP_E_MALFORMED, "frame header with nonzero reserved field");
            break;
        }
        if (len > maxp) {
            serve_send_error(s, c, 0, CFP_E_TOO_LARGE, "frame of %u bytes (at most %zu)", len, maxp);
            break;
        }
        if (c->inlen - off < CFP_HEADER + (size_t)len) break;
        serve_on_frame(s, c, type, h + CFP_HEADER, len);
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
    serve_log("serve: conn %d %s: closed (%s)", c->serial, c->peer, why);
    close(c->fd);
    c->fd = -1;
    c->closed = 1;
    s->nconns--;
    serve_conn_drop_requests(s, c); /* c stays: it is still on the I/O list (reap frees it) */
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
    serve_set_nonblock(fd);
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
            serve_log("serve: accept: %s (not accepting for 250 ms)", strerror(errno));
        }
        return;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    serve_set_nonblock(fd);
    char peer[96];
    addr_text((struct sockaddr *)&ss, peer, sizeof peer);
    if (ss.ss_family != AF_UNIX) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    if (s->nconns >= s->o->max_conns) {
        cfp_buf b = {0};
        serve_put_error(&b, 0, CFP_E_BUSY, "too many connections");
        if (!b.oom && send(fd, b.p, b.len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) { /* best effort */ }
        cfp_buf_free(&b);
        close(fd);
        serve_log("serve: %s: refused (busy: %d connections)", peer, s->nconns);
        return;
    }
    conn *c = calloc(1, sizeof *c);
    uint8_t *in = malloc(CFP_HEADER + (size_t)s->o->max_frame);
    if (!c || !in) {
        free(c), free(in);
        close(fd);
        serve_log("serve: %s: refused (out of memory)", peer);
        return;
    }
    c->fd = fd, c->in = in, c->serial = ++s->serial, c->frame_since = now;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    c->next = s->conns;
    s->conns = c;
    s->nconns++;
    serve_log("serve: conn %d %s: accepted", c->serial, c->peer);
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
    if (o->version && cf_pack_set_game_version(pk, o->version, err) != CF_OK) return cf_pack_free(pk), err->status;
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
            serve_log("serve: configuration %s: no block fills (%s)", ids[i], be.message);
        }
        s->ncfg = i + 1;
        if (o->biomes) {
            cf_error bioe = {0};
            if (cf_biomes_open(&k->bio, pk, NULL, ids[i], NULL, 0, &bioe) == CF_OK)
                k->nbpal = cf_biomes_palette(k->bio, k->bpal);
            else
                serve_log("serve: configuration %s: no biomes (%s)", ids[i], bioe.message);
        }
        if (k->blocks && cf_program_has_surface(k->prog)) {
            cf_error se = {0};
            if (cf_biomes_open(&k->sbio, pk, NULL, ids[i], NULL, 0, &se) != CF_OK) {
                serve_log("serve: configuration %s: no surface stage (%s)", ids[i], se.message);
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
            serve_log("serve: no usable OpenCL device (%s); filling on the CPU reference", e.message);
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
    serve_log("serve: %d configuration%s, fills on %s, batches of up to %zu chunks", s->ncfg, s->ncfg == 1 ? "" : "s", s->devname,
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
            if (c->nreqs == 0) serve_conn_free(c);
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
        double now = serve_now_s();
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
                serve_send_error(s, c, 0, CFP_E_TIMEOUT, c->hello ? "incomplete frame for %d ms" : "no hello within %d ms",
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
                        serve_req_stop(s, r, CFP_E_SHUTDOWN);
                    }
                for (conn *c = s->conns; c; c = c->next)
                    if (!c->closing) serve_send_error(s, c, 0, CFP_E_SHUTDOWN, "the server is shutting down");
                serve_log("serve: shutdown: %s, %d request%s cancelled", busy ? "drain time over" : "all work done", left,
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
                serve_log("serve: out of memory; shutting down");
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
            serve_log("serve: poll: %s", strerror(errno));
            break;
        }
        now = serve_now_s();
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
                serve_log("serve: signal: no new connections or requests; finishing in-flight work (up to %d ms)", o->drain_ms);
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
    serve_set_nonblock(s->wake[0]), serve_set_nonblock(s->wake[1]), serve_set_nonblock(sig_pipe[0]), serve_set_nonblock(sig_pipe[1]);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (load_configs(s, err) != CF_OK) goto done;
    for (int i = 0; i < o->nlisten; i++)
        if (listen_one(s, o->listen[i], err) != CF_OK) goto done;
    s->t_start = serve_now_s();
    if (pthread_create(&s->worker, NULL, serve_dispatch, s) != 0) {
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
                serve_req_stop(s, r, CFP_E_SHUTDOWN);
            }
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->worker, NULL);
    }
    cf_status st = err->status;
    if (st == CF_OK)
        serve_log("serve: stopped: %llu requests, %llu chunks, %llu launches, %llu errors", (unsigned long long)s->st_requests,
              (unsigned long long)s->st_chunks, (unsigned long long)s->st_launches, (unsigned long long)s->st_errors);
    server_free(s);
    if (s->wake[0] >= 0) close(s->wake[0]), close(s->wake[1]);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    return st;
}
