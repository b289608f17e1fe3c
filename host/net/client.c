/* client.c - the C client of the offload protocol (chunkfill_net.h, PROTOCOL.md).
 *
 * One blocking connection: connect + HELLO, then one request at a time; CHUNK
 * frames are checked (request id, index in order, coordinates, kind, value
 * count) and copied into the caller's buffer. The client owns one receive
 * buffer that grows to the largest frame seen (at most CFP_SERVER_FRAME_MAX).
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "chunkfill_net.h"
#include "net/proto.h"

int serve_split_addr(const char *addr, char *host, size_t hn, char *port, size_t pn);

typedef struct ccfg {
    char name[CFP_MAX_NAME + 1];
    int min_y, height, precision, kind;
    int blocks, npal;                  /* BLOCKS_U8 offered; palette size */
    int surface;                       /* BLOCKS_U8 at the surface stage offered (version 2, flag bit 2) */
    char pal[CF_PALETTE_MAX][256];     /* the block ids of BLOCKS_U8 values */
    int biomes, nbpal;                 /* BIOMES_U8 offered; its palette (malloc'd ids) */
    char **bpal;
} ccfg;

struct cf_client {
    int fd;
    ccfg *cfg;
    int ncfg;
    uint32_t max_frame, max_chunks, max_pending, next_id, deadline_ms;
    int last_code;
    uint8_t *buf;
    size_t cap;
};

static cf_status send_all(cf_client *c, const cfp_buf *b, cf_error *err)
{
    if (b->oom) return err_set(err, CF_ERR_NOMEM, "out of memory");
    size_t off = 0;
    while (off < b->len) {
        ssize_t k = send(c->fd, b->p + off, b->len - off, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            err_set(err, CF_ERR_IO, "server: send: %s", k < 0 ? strerror(errno) : "connection closed");
            return CF_ERR_IO;
        }
        off += (size_t)k;
    }
    return CF_OK;
}

static cf_status recv_all(cf_client *c, void *p, size_t n, cf_error *err)
{
    size_t off = 0;
    while (off < n) {
        ssize_t k = recv(c->fd, (uint8_t *)p + off, n - off, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            err_set(err, CF_ERR_IO, "server: %s%s", k == 0 ? "connection closed" : "receive: ", k == 0 ? "" : strerror(errno));
            return CF_ERR_IO;
        }
        off += (size_t)k;
    }
    return CF_OK;
}

/* the next frame: *type and its payload (in c->buf, valid until the next call) */
static cf_status recv_frame(cf_client *c, unsigned *type, const uint8_t **p, size_t *len, cf_error *err)
{
    uint8_t h[CFP_HEADER];
    *type = 0, *p = NULL, *len = 0;
    if (recv_all(c, h, sizeof h, err) != CF_OK) return CF_ERR_IO;
    uint32_t n = cfp_le32(h);
    *type = cfp_le16(h + 4);
    if (n > CFP_SERVER_FRAME_MAX || cfp_le16(h + 6) != 0) {
        err_set(err, CF_ERR_IO, "server: bad frame header (type 0x%02x, %u bytes)", *type, n);
        return CF_ERR_IO;
    }
    if (n > c->cap) {
        uint8_t *nb = realloc(c->buf, n);
        if (!nb) {
            err_set(err, CF_ERR_NOMEM, "out of memory for a frame of %u bytes", n);
            return CF_ERR_NOMEM;
        }
        c->buf = nb;
        c->cap = n;
    }
    if (recv_all(c, c->buf, n, err) != CF_OK) return CF_ERR_IO;
    *p = c->buf;
    *len = n;
    return CF_OK;
}

/* an ERROR frame -> err; returns its status */
static cf_status error_frame(cf_client *c, const uint8_t *p, size_t len, cf_error *err)
{
    cfp_rd r = {p, len, 0, 0};
    uint32_t id = cfp_rd_u32(&r);
    unsigned code = cfp_rd_u16(&r), ml = cfp_rd_u16(&r);
    const uint8_t *m = cfp_rd_bytes(&r, ml);
    if (r.bad) return err_set(err, CF_ERR_IO, "server: malformed error frame");
    c->last_code = (int)code;
    cf_status st;
    switch (code) {
    case CFP_E_UNKNOWN_CONFIG: case CFP_E_UNSUPPORTED_KIND: case CFP_E_BAD_CHUNK: case CFP_E_TOO_MANY_CHUNKS:
    case CFP_E_VERSION: case CFP_E_AUTH: case CFP_E_MALFORMED: st = CF_ERR_ARG; break;
    case CFP_E_DEADLINE: case CFP_E_BUSY: case CFP_E_TOO_LARGE: case CFP_E_TIMEOUT: st = CF_ERR_LIMIT; break;
    default: st = CF_ERR_DEVICE; break;
    }
    char msg[CFP_MAX_MESSAGE + 1];
    size_t i = 0;
    for (; i < ml && i < CFP_MAX_MESSAGE; i++) msg[i] = (char)(m[i] >= 32 && m[i] < 127 ? m[i] : '?');
    msg[i] = 0;
    return err_set(err, st, "server: %s%s: %s", cfp_err_name((int)code), id ? "" : " (connection closed)", msg);
}

static int connect_addr(const char *addr, cf_error *err)
{
    int fd = -1;
    if (strncmp(addr, "unix:", 5) == 0) {
        struct sockaddr_un su = {0};
        su.sun_family = AF_UNIX;
        if (!addr[5] || strlen(addr + 5) >= sizeof su.sun_path) {
            err_set(err, CF_ERR_ARG, "server address %s: bad socket path", addr);
            return -1;
        }
        strcpy(su.sun_path, addr + 5);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&su, sizeof su) < 0) {
            err_set(err, CF_ERR_IO, "server %s: %s", addr, strerror(errno));
            if (fd >= 0) close(fd);
            return -1;
        }
        return fd;
    }
    char host[256], port[16];
    if (serve_split_addr(addr, host, sizeof host, port, sizeof port) < 0) {
        err_set(err, CF_ERR_ARG, "server address %s: expected HOST:PORT, [V6]:PORT or unix:PATH", addr);
        return -1;
    }
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int g = getaddrinfo(host, port, &hints, &ai);
    if (g != 0 || !ai) {
        err_set(err, CF_ERR_IO, "server %s: %s", addr, gai_strerror(g));
        return -1;
    }
    int e = 0;
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
            e = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0) {
        err_set(err, CF_ERR_IO, "server %s: %s", addr, strerror(e ? e : errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

cf_status cf_client_connect(cf_client **out, const char *addr, const char *token, cf_error *err)
{
    cf_error local = {0};
    if (!err) err = &local;
    *out = NULL;
    if (!addr) return err_set(err, CF_ERR_ARG, "cf_client_connect: no address");
    size_t tl = token ? strlen(token) : 0;
    if (tl > CFP_MAX_TOKEN) return err_set(err, CF_ERR_ARG, "token longer than %d bytes", CFP_MAX_TOKEN);
    cf_client *c = calloc(1, sizeof *c);
    if (!c) return err_set(err, CF_ERR_NOMEM, "out of memory");
    c->next_id = 1;
    c->fd = connect_addr(addr, err);
    if (c->fd < 0) {
        free(c);
        return err->status;
    }
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_HELLO);
    cfp_u32(&b, CFP_MAGIC);
    cfp_u16(&b, CFP_VERSION);
    cfp_u16(&b, (unsigned)tl);
    cfp_put(&b, token, tl);
    cfp_end(&b, at);
    cf_status st = send_all(c, &b, err);
    cfp_buf_free(&b);
    unsigned type = 0;
    const uint8_t *p = NULL;
    size_t len = 0;
    if (st == CF_OK) st = recv_frame(c, &type, &p, &len, err);
    if (st == CF_OK && type == CFP_ERROR) st = error_frame(c, p, len, err);
    else if (st == CF_OK && type != CFP_HELLO_OK) st = err_set(err, CF_ERR_IO, "server: expected hello_ok, got frame type 0x%02x", type);
    if (st == CF_OK) {
        cfp_rd r = {p, len, 0, 0};
        uint32_t magic = cfp_rd_u32(&r);
        unsigned version = cfp_rd_u16(&r), n = cfp_rd_u16(&r);
        c->max_frame = cfp_rd_u32(&r);
        c->max_chunks = cfp_rd_u32(&r);
        c->max_pending = cfp_rd_u32(&r);
        c->cfg = calloc(n ? n : 1, sizeof *c->cfg);
        if (!c->cfg) {
            err_set(err, CF_ERR_NOMEM, "out of memory");
            st = CF_ERR_NOMEM;
        }
        for (unsigned i = 0; st == CF_OK && i < n; i++) {
            unsigned nl = cfp_rd_u8(&r);
            const uint8_t *name = cfp_rd_bytes(&r, nl);
            c->cfg[i].precision = (int)cfp_rd_u8(&r);
            c->cfg[i].kind = (int)cfp_rd_u8(&r);
            unsigned flags = cfp_rd_u8(&r), np = cfp_rd_u8(&r);
            c->cfg[i].min_y = (int32_t)cfp_rd_u32(&r);
            c->cfg[i].height = (int)cfp_rd_u32(&r);
            if (flags > 7 || np > CF_PALETTE_MAX || ((flags & 1) && np == 0) || ((flags & 4) && !(flags & 1))) r.bad = 1;
            c->cfg[i].blocks = (int)(flags & 1);
            c->cfg[i].surface = (flags & 4) != 0;
            c->cfg[i].biomes = (flags & 2) != 0;
            for (unsigned k = 0; !r.bad && k < np; k++) {
                unsigned pl = cfp_rd_u8(&r);
                const uint8_t *pn = cfp_rd_bytes(&r, pl);
                if (pn) memcpy(c->cfg[i].pal[k], pn, pl), c->cfg[i].pal[k][pl] = 0;
                c->cfg[i].npal = (int)k + 1;
            }
            if (c->cfg[i].biomes && !r.bad) {
                unsigned nb = cfp_rd_u16(&r);
                if (nb == 0 || nb > CF_BIOME_PALETTE_MAX || !(c->cfg[i].bpal = calloc(nb, sizeof(char *)))) r.bad = 1;
                for (unsigned k = 0; !r.bad && k < nb; k++) {
                    unsigned pl = cfp_rd_u8(&r);
                    const uint8_t *pn = cfp_rd_bytes(&r, pl);
                    if (!pn || !(c->cfg[i].bpal[k] = malloc(pl + 1))) {
                        r.bad = 1;
                        break;
                    }
                    memcpy(c->cfg[i].bpal[k], pn, pl), c->cfg[i].bpal[k][pl] = 0;
                    c->cfg[i].nbpal = (int)k + 1;
                }
            }
            if (name) memcpy(c->cfg[i].name, name, nl);
            c->ncfg = (int)i + 1;
            if (c->cfg[i].height <= 0 || c->cfg[i].height > 4096 || !cfp_kind_size(c->cfg[i].kind)) r.bad = 1;
        }
        if (r.bad || magic != CFP_MAGIC || version != CFP_VERSION || r.off != len || c->max_chunks == 0)
            st = err_set(err, CF_ERR_IO, "server: malformed hello_ok");
    }
    if (st != CF_OK) {
        cf_client_close(c);
        return st;
    }
    *out = c;
    return CF_OK;
}

void cf_client_close(cf_client *c)
{
    if (!c) return;
    if (c->fd >= 0) close(c->fd);
    for (int i = 0; c->cfg && i < c->ncfg; i++) {
        for (int k = 0; k < c->cfg[i].nbpal; k++) free(c->cfg[i].bpal[k]);
        free(c->cfg[i].bpal);
    }
    free(c->cfg);
    free(c->buf);
    free(c);
}

const char *cf_client_config(const cf_client *c, int i, int *min_y, int *height, int *precision)
{
    if (!c || i < 0 || i >= c->ncfg) return NULL;
    if (min_y) *min_y = c->cfg[i].min_y;
    if (height) *height = c->cfg[i].height;
    if (precision) *precision = c->cfg[i].precision;
    return c->cfg[i].name;
}

int cf_client_palette(const cf_client *c, const char *config, const char **names)
{
    for (int i = 0; c && i < c->ncfg; i++)
        if (strcmp(c->cfg[i].name, config) == 0 && c->cfg[i].blocks) {
            for (int k = 0; k < c->cfg[i].npal; k++) names[k] = c->cfg[i].pal[k];
            return c->cfg[i].npal;
        }
    return 0;
}

int cf_client_biome_palette(const cf_client *c, const char *config, const char **names)
{
    for (int i = 0; c && i < c->ncfg; i++)
        if (strcmp(c->cfg[i].name, config) == 0 && c->cfg[i].biomes) {
            for (int k = 0; k < c->cfg[i].nbpal; k++) names[k] = c->cfg[i].bpal[k];
            return c->cfg[i].nbpal;
        }
    return 0;
}

int cf_client_max_chunks(const cf_client *c) { return c ? (int)c->max_chunks : 0; }

int cf_client_has_surface(const cf_client *c, const char *config)
{
    for (int i = 0; c && config && i < c->ncfg; i++)
        if (strcmp(c->cfg[i].name, config) == 0) return c->cfg[i].surface;
    return 0;
}
void cf_client_set_deadline(cf_client *c, uint32_t ms) { c->deadline_ms = ms; }
int cf_client_error_code(const cf_client *c) { return c ? c->last_code : 0; }

/* one request of n <= max_chunks chunks */
static cf_status fill_one(cf_client *c, const ccfg *k, const char *config, int64_t seed, int kind, int stage, unsigned stride, size_t n,
                          const int32_t *chunks, uint8_t *out, cf_error *err)
{
    uint32_t id = c->next_id++;
    if (c->next_id == 0) c->next_id = 1;
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_FILL), cl = strlen(config);
    cfp_u32(&b, id);
    cfp_u8(&b, (unsigned)kind);
    cfp_u8(&b, (unsigned)cl);
    cfp_u16(&b, kind == CFP_COLUMNS ? stride : (unsigned)stage); /* offset 6: the stride of COLUMNS, else the stage (byte 7: 0) */
    cfp_u64(&b, (uint64_t)seed);
    cfp_u32(&b, c->deadline_ms);
    cfp_u32(&b, (uint32_t)n);
    cfp_put(&b, config, cl);
    for (size_t i = 0; i < 2 * n; i++) cfp_u32(&b, (uint32_t)chunks[i]);
    cfp_end(&b, at);
    cf_status st = send_all(c, &b, err);
    cfp_buf_free(&b);
    if (st != CF_OK) return st;
    size_t per = cfp_chunk_values(kind, k->height), vs = (size_t)cfp_kind_size(kind);
    uint32_t got = 0;
    for (;;) {
        unsigned type;
        const uint8_t *p;
        size_t len;
        if ((st = recv_frame(c, &type, &p, &len, err)) != CF_OK) return st;
        cfp_rd r = {p, len, 0, 0};
        if (type == CFP_ERROR) return error_frame(c, p, len, err);
        if (type == CFP_DONE) {
            uint32_t rid = cfp_rd_u32(&r), rn = cfp_rd_u32(&r);
            if (r.bad || rid != id || rn != n || got != n) return err_set(err, CF_ERR_IO, "server: unexpected done frame");
            return CF_OK;
        }
        if (type != CFP_CHUNK) return err_set(err, CF_ERR_IO, "server: unexpected frame type 0x%02x", type);
        uint32_t rid = cfp_rd_u32(&r), idx = cfp_rd_u32(&r);
        int32_t x = (int32_t)cfp_rd_u32(&r), z = (int32_t)cfp_rd_u32(&r);
        unsigned kd = cfp_rd_u8(&r), sg = cfp_rd_u8(&r);
        cfp_rd_u16(&r);
        uint32_t count = cfp_rd_u32(&r);
        const uint8_t *v = cfp_rd_bytes(&r, (size_t)count * vs);
        if (r.bad || r.off != len || rid != id || idx != got || idx >= n || x != chunks[2 * idx] || z != chunks[2 * idx + 1]
            || kd != (unsigned)kind || sg != (unsigned)stage || count != per)
            return err_set(err, CF_ERR_IO, "server: chunk frame does not match the request (index %u)", idx);
        memcpy(out + (size_t)idx * per * vs, v, per * vs);
        got++;
    }
}

static cf_status fill_split(cf_client *c, const char *config, int64_t seed, int kind, unsigned stride, size_t n,
                            const int32_t *chunks, void *out, cf_error *err)
{
    if (!c || !config || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_client_fill: bad arguments");
    c->last_code = 0;
    const ccfg *k = NULL;
    for (int i = 0; i < c->ncfg; i++)
        if (strcmp(c->cfg[i].name, config) == 0) k = &c->cfg[i];
    if (!k) return err_set(err, CF_ERR_ARG, "server: no configuration '%s'", config);
    int stage = 0;
    if (kind == CF_KIND_BLOCKS_SURFACE_U8) {
        if (!k->surface) return err_set(err, CF_ERR_ARG, "server: configuration '%s' offers no surface stage", config);
        kind = CF_KIND_BLOCKS_U8, stage = 1;
    }
    if (!cfp_kind_size(kind)) return err_set(err, CF_ERR_ARG, "unknown output kind %d", kind);
    size_t per = cfp_chunk_values(kind, k->height) * (size_t)cfp_kind_size(kind);
    for (size_t done = 0; done < n;) {
        size_t m = n - done < c->max_chunks ? n - done : c->max_chunks;
        cf_status st = fill_one(c, k, config, seed, kind, stage, stride, m, chunks + 2 * done, (uint8_t *)out + done * per, err);
        if (st != CF_OK) return st;
        done += m;
    }
    return CF_OK;
}

cf_status cf_client_fill(cf_client *c, const char *config, int64_t seed, int kind, size_t n, const int32_t *chunks, void *out,
                         cf_error *err)
{
    cf_error local = {0};
    if (!err) err = &local;
    if (kind == CFP_COLUMNS) return err_set(err, CF_ERR_ARG, "columns: use cf_client_columns (it takes the stride)");
    return fill_split(c, config, seed, kind, 0, n, chunks, out, err);
}

cf_status cf_client_columns(cf_client *c, const char *config, int64_t seed, int stride, size_t n, const int32_t *cells,
                            cf_client_column *out, cf_error *err)
{
    cf_error local = {0};
    if (!err) err = &local;
    if (stride < 1 || stride > CFP_MAX_STRIDE) return err_set(err, CF_ERR_ARG, "cf_client_columns: stride %d (1 to %d)", stride, CFP_MAX_STRIDE);
    uint8_t *raw = calloc(n ? n : 1, 12 * 256);
    if (!raw) return err_set(err, CF_ERR_NOMEM, "out of memory");
    cf_status st = fill_split(c, config, seed, CFP_COLUMNS, (unsigned)stride, n, cells, raw, err);
    for (size_t i = 0; st == CF_OK && i < 256 * n; i++) {
        const uint8_t *q = raw + 12 * i;
        out[i].height = cfp_le32s(q), out[i].fluid_top = cfp_le32s(q + 4);
        out[i].block = q[8], out[i].fluid = q[9], out[i].biome = q[10];
    }
    free(raw);
    return st;
}

cf_status cf_client_stats_get(cf_client *c, cf_client_stats *st, cf_error *err)
{
    cf_error local = {0};
    if (!err) err = &local;
    memset(st, 0, sizeof *st);
    cfp_buf b = {0};
    cfp_end(&b, cfp_begin(&b, CFP_STATS));
    cf_status s = send_all(c, &b, err);
    cfp_buf_free(&b);
    unsigned type;
    const uint8_t *p;
    size_t len;
    if (s == CF_OK) s = recv_frame(c, &type, &p, &len, err);
    if (s != CF_OK) return s;
    if (type == CFP_ERROR) return error_frame(c, p, len, err);
    cfp_rd r = {p, len, 0, 0};
    st->queue_chunks = cfp_rd_u32(&r);
    st->queue_requests = cfp_rd_u32(&r);
    st->connections = cfp_rd_u32(&r);
    cfp_rd_u32(&r);
    st->requests = cfp_rd_u64(&r);
    st->chunks = cfp_rd_u64(&r);
    st->launches = cfp_rd_u64(&r);
    st->errors = cfp_rd_u64(&r);
    st->uptime_s = cfp_rd_f64(&r);
    st->chunks_per_s = cfp_rd_f64(&r);
    unsigned dl = cfp_rd_u16(&r);
    const uint8_t *d = cfp_rd_bytes(&r, dl);
    if (type != CFP_STATS_OK || r.bad || r.off != len) return err_set(err, CF_ERR_IO, "server: malformed stats_ok");
    size_t l = dl < sizeof st->device - 1 ? dl : sizeof st->device - 1;
    memcpy(st->device, d, l);
    st->device[l] = 0;
    return CF_OK;
}

cf_status cf_client_ping(cf_client *c, double *ms, cf_error *err)
{
    cf_error local = {0};
    if (!err) err = &local;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t nonce = (uint64_t)t0.tv_nsec * 2654435761u;
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_PING);
    cfp_u64(&b, nonce);
    cfp_end(&b, at);
    cf_status s = send_all(c, &b, err);
    cfp_buf_free(&b);
    unsigned type;
    const uint8_t *p;
    size_t len;
    if (s == CF_OK) s = recv_frame(c, &type, &p, &len, err);
    if (s != CF_OK) return s;
    if (type == CFP_ERROR) return error_frame(c, p, len, err);
    cfp_rd r = {p, len, 0, 0};
    if (type != CFP_PONG || cfp_rd_u64(&r) != nonce || r.bad || r.off != len) return err_set(err, CF_ERR_IO, "server: bad pong");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (ms) *ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    return CF_OK;
}
