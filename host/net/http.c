/* http.c - `chunkfill serve --http`: maps over HTTP for the viewer (host/api/viewer.html).
 *
 * Start-up: packs -> one program per settings id (a block program where the
 * settings have an aquifer, so every layer can draw) -> a loopback listening
 * socket. Then the main thread accepts connections into a bounded queue (503
 * beyond it) and a fixed pool of workers answers one GET per connection: the
 * viewer at /, tiles /L/Z/X/Y.png?seed=S[&settings=ID] and /at?x&z&seed. A tile is
 * drawn by cf_map_draw_biomes into a bounded disk cache; an entry being computed
 * makes later requests for it wait for that computation (computed once). Worlds
 * (seeds) are kept in a small table, each with its settings' biome source (biomes
 * tiles, /at). Allocates: the queue, the cache table (entries are freed on
 * eviction), worlds and biome sources; everything is freed at shutdown.
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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "chunkfill_net.h"
#include "ir/ir.h"

#define MAX_SETTINGS 16
#define MAX_WORLDS 8
#define HEAD_MAX 8192
#define TILE 256

int serve_split_addr(const char *addr, char *host, size_t hn, char *port, size_t pn); /* serve.c */

void cf_http_defaults(cf_http_opts *o)
{
    memset(o, 0, sizeof *o);
    cf_limits_default(&o->limits);
    o->cache_mb = 256;
    o->workers = 4;
    o->max_conns = 256;
    o->read_timeout_ms = 5000;
    o->max_zoom = 16;
}

enum { ENT_COMPUTING, ENT_READY, ENT_FAILED };
typedef struct entry {
    char key[192];
    char file[64];   /* name inside the cache folder */
    size_t bytes;
    uint64_t used;   /* last use (the table's clock) */
    int state, waiters;
    char msg[256];   /* ENT_FAILED: why */
    struct entry *next;
} entry;

typedef struct wslot {
    int cfg;
    int64_t seed;
    cf_world *w;
    cf_biomes *b; /* the settings' biome source for the seed (NULL where it could not be opened) */
    int refs;
    uint64_t used;
} wslot;

typedef struct hsrv {
    const cf_http_opts *o;
    cf_pack *pk; /* the packs (biome sources are opened from them, under mu) */
    cf_program *prog[MAX_SETTINGS];
    const char *names[MAX_SETTINGS]; /* each configuration's settings id */
    const char *dims[MAX_SETTINGS];  /* and the dimension it draws (NULL: served by --settings) */
    char idbuf[MAX_SETTINGS][2][256]; /* the discovered dimensions' ids and settings ids */
    int nprog;
    char cache[4096];
    int own_cache;
    int lfd;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    int *q; /* queued connections (ring) */
    int qn, qhead, qcap;
    entry *ents;
    size_t cache_bytes;
    uint64_t clock, serial;
    wslot worlds[MAX_WORLDS];
} hsrv;

static volatile sig_atomic_t stop_flag;
static void on_stop(int sig) { (void)sig, stop_flag = 1; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ responses */

static int send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k, n -= (size_t)k;
    }
    return 0;
}

static const char *reason(int code)
{
    switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

static void respond(int fd, int code, const char *type, const void *body, size_t n)
{
    char head[256];
    int hl = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-cache\r\n"
                      "Connection: close\r\n\r\n",
                      code, reason(code), type, n);
    if (send_all(fd, head, (size_t)hl) == 0 && n) send_all(fd, body, n);
}

static int fail(int fd, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(int fd, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg - 1, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n > sizeof msg - 2) n = (int)sizeof msg - 2;
    msg[n++] = '\n';
    respond(fd, code, "text/plain; charset=utf-8", msg, (size_t)n);
    return code;
}

/* ------------------------------------------------------------------ requests */

/* percent-decodes s[0..n) into out (NUL-terminated); -1 on a bad escape, a NUL or overflow */
static int url_decode(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n) return -1;
            char h[3] = {s[i + 1], s[i + 2], 0};
            char *e;
            long v = strtol(h, &e, 16);
            if (*e || !h[0] || !h[1] || h[0] == '-' || h[0] == '+' || h[0] == ' ') return -1;
            c = (int)v, i += 2;
        } else if (c == '+') {
            c = ' ';
        }
        if (c == 0 || k + 1 >= cap) return -1;
        out[k++] = (char)c;
    }
    out[k] = 0;
    return 0;
}

typedef struct query {
    char seed[256], settings[256], dimension[256], x[32], z[32], below[32];
    int has_seed, has_settings, has_dimension, has_x, has_z, has_below;
} query;

/* the query string's known parameters; -1 (with why) when malformed */
static int parse_query(const char *q, query *out, const char **why)
{
    memset(out, 0, sizeof *out);
    while (q && *q) {
        const char *amp = strchr(q, '&'), *end = amp ? amp : q + strlen(q);
        const char *eq = memchr(q, '=', (size_t)(end - q));
        if (!eq) return *why = "a query parameter without '='", -1;
        size_t kl = (size_t)(eq - q);
        char *dst = NULL;
        size_t cap = 0;
        int *has = NULL;
#define KEY(NAME, FIELD)                                                     \
        if (kl == strlen(NAME) && memcmp(q, NAME, kl) == 0) dst = out->FIELD, cap = sizeof out->FIELD, has = &out->has_##FIELD;
        KEY("seed", seed) else KEY("settings", settings) else KEY("dimension", dimension) else KEY("x", x) else KEY("z", z)
        else KEY("below", below)
#undef KEY
        if (has) {
            if (*has) return *why = "a repeated query parameter", -1;
            if (url_decode(eq + 1, (size_t)(end - eq - 1), dst, cap) < 0) return *why = "a malformed or too long query value", -1;
            *has = 1;
        }
        q = amp ? amp + 1 : NULL;
    }
    return 0;
}

/* a decimal integer in [lo, hi] made of at most 12 characters */
static int parse_int(const char *s, long long lo, long long hi, long long *v)
{
    if (!*s || strlen(s) > 12) return -1;
    const char *p = s + (*s == '-');
    if (!*p) return -1;
    for (; *p; p++)
        if (*p < '0' || *p > '9') return -1;
    *v = strtoll(s, NULL, 10);
    return *v >= lo && *v <= hi ? 0 : -1;
}

/* the configuration that dimension= and settings= name (the first without either); -1 when
 * none has both */
static int find_settings(const hsrv *s, const query *q)
{
    int by_dim = q->has_dimension && q->dimension[0], by_set = q->has_settings && q->settings[0];
    for (int i = 0; i < s->nprog; i++)
        if ((!by_dim || (s->dims[i] && strcmp(s->dims[i], q->dimension) == 0)) && (!by_set || strcmp(s->names[i], q->settings) == 0))
            return i;
    return -1;
}

/* a bound world for (cfg, seed) and its biome source (*bio, may be NULL), referenced until world_put */
static cf_world *world_get(hsrv *s, int cfg, int64_t seed, cf_biomes **bio, cf_error *err)
{
    pthread_mutex_lock(&s->mu);
    wslot *free_slot = NULL, *lru = NULL;
    for (int i = 0; i < MAX_WORLDS; i++) {
        wslot *w = &s->worlds[i];
        if (w->w && w->cfg == cfg && w->seed == seed) {
            w->refs++, w->used = ++s->clock;
            *bio = w->b;
            pthread_mutex_unlock(&s->mu);
            return w->w;
        }
        if (!w->w && !free_slot) free_slot = w;
        if (w->w && w->refs == 0 && (!lru || w->used < lru->used)) lru = w;
    }
    wslot *slot = free_slot ? free_slot : lru;
    cf_world *nw = NULL;
    if (!slot) {
        err_set(err, CF_ERR_LIMIT, "every world slot is busy");
    } else {
        if (slot->w) cf_world_free(slot->w), slot->w = NULL;
        cf_biomes_free(slot->b), slot->b = NULL;
        if (cf_world_new(&nw, s->prog[cfg], seed, err) == CF_OK) {
            slot->w = nw, slot->cfg = cfg, slot->seed = seed, slot->refs = 1, slot->used = ++s->clock;
            cf_error e2 = {0};
            if (cf_biomes_open(&slot->b, s->pk, s->dims[cfg], s->dims[cfg] ? NULL : s->names[cfg], NULL, seed, &e2) != CF_OK) {
                slot->b = NULL;
                fprintf(stderr, "http: %s: no biomes: %s\n", s->names[cfg], e2.message);
            }
            *bio = slot->b;
        }
    }
    pthread_mutex_unlock(&s->mu);
    return nw;
}

static void world_put(hsrv *s, const cf_world *w)
{
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < MAX_WORLDS; i++)
        if (s->worlds[i].w == w) s->worlds[i].refs--;
    pthread_mutex_unlock(&s->mu);
}

/* drops ready entries, least recently used first, until the cache fits (lock held) */
static void evict(hsrv *s)
{
    size_t cap = (size_t)s->o->cache_mb << 20;
    while (s->cache_bytes > cap) {
        entry **victim = NULL;
        for (entry **e = &s->ents; *e; e = &(*e)->next)
            if ((*e)->state == ENT_READY && (!victim || (*e)->used < (*victim)->used)) victim = e;
        if (!victim) return;
        entry *v = *victim;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->cache, v->file);
        unlink(path);
        s->cache_bytes -= v->bytes;
        *victim = v->next;
        free(v);
    }
}

/* the tile's PNG from the cache, drawn first when missing; sends it or an error */
static int serve_tile(hsrv *s, int fd, int layer, int z, long long tx, long long ty, int cfg, int64_t seed, int32_t below,
                      const char **how)
{
    char key[192];
    snprintf(key, sizeof key, "%d/%d/%lld/%lld|%d|%lld|%ld", layer, z, tx, ty, cfg, (long long)seed, (long)below);
    pthread_mutex_lock(&s->mu);
    entry *e = s->ents;
    while (e && strcmp(e->key, key) != 0) e = e->next;
    int mine = 0;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e) {
            pthread_mutex_unlock(&s->mu);
            return fail(fd, 500, "out of memory");
        }
        snprintf(e->key, sizeof e->key, "%s", key);
        snprintf(e->file, sizeof e->file, "t%llu.png", (unsigned long long)++s->serial);
        e->state = ENT_COMPUTING;
        e->next = s->ents, s->ents = e;
        mine = 1;
        *how = "computed";
    } else if (e->state == ENT_COMPUTING) {
        *how = "joined";
    } else {
        *how = "cache";
    }
    e->waiters++;
    if (mine) {
        pthread_mutex_unlock(&s->mu);
        cf_error err = {0};
        cf_status st = CF_OK;
        uint8_t *rgb = malloc(TILE * TILE * 3);
        cf_biomes *bio = NULL;
        cf_world *w = rgb ? world_get(s, cfg, seed, &bio, &err) : NULL;
        if (!rgb) st = err_set(&err, CF_ERR_NOMEM, "out of memory");
        else if (!w) st = err.status ? err.status : CF_ERR_NOMEM;
        else {
            long long span = (long long)TILE << z;
            st = cf_map_draw_biomes(w, bio, layer, (int32_t)(tx * span), (int32_t)(ty * span), (int32_t)1 << z, TILE, TILE, below, rgb,
                             NULL, s->o->threads, &err);
            world_put(s, w);
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->cache, e->file);
        if (st == CF_OK) st = cf_png_write(path, rgb, TILE, TILE, &err);
        free(rgb);
        struct stat sb;
        pthread_mutex_lock(&s->mu);
        if (st == CF_OK && stat(path, &sb) == 0) {
            e->state = ENT_READY, e->bytes = (size_t)sb.st_size, s->cache_bytes += e->bytes;
        } else {
            e->state = ENT_FAILED;
            snprintf(e->msg, sizeof e->msg, "%.250s", err.message[0] ? err.message : "the tile could not be written");
        }
        pthread_cond_broadcast(&s->done);
    }
    while (e->state == ENT_COMPUTING) pthread_cond_wait(&s->done, &s->mu);
    int fdr = -1;
    char msg[256] = "";
    if (e->state == ENT_READY) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->cache, e->file);
        e->used = ++s->clock;
        fdr = open(path, O_RDONLY | O_CLOEXEC);
    } else {
        snprintf(msg, sizeof msg, "%s", e->msg);
    }
    if (--e->waiters == 0 && e->state == ENT_FAILED) { /* failures are not cached */
        for (entry **p = &s->ents; *p; p = &(*p)->next)
            if (*p == e) {
                *p = e->next;
                free(e);
                break;
            }
    }
    evict(s);
    pthread_mutex_unlock(&s->mu);
    if (fdr < 0) return msg[0] ? fail(fd, 500, "%s", msg) : fail(fd, 500, "the cached tile vanished");
    struct stat sb;
    char *buf = NULL;
    int code = 500;
    if (fstat(fdr, &sb) == 0 && sb.st_size > 0 && sb.st_size < (64 << 20) && (buf = malloc((size_t)sb.st_size)) &&
        read(fdr, buf, (size_t)sb.st_size) == sb.st_size) {
        respond(fd, 200, "image/png", buf, (size_t)sb.st_size);
        code = 200;
    } else {
        fail(fd, 500, "the cached tile could not be read");
    }
    free(buf);
    close(fdr);
    return code;
}

/* v as a JSON string (null for NULL); a pack's block names may hold anything */
static void json_str(char *out, size_t cap, const char *v)
{
    if (!v) {
        snprintf(out, cap, "null");
        return;
    }
    size_t k = 0;
    out[k++] = '"';
    for (const unsigned char *c = (const unsigned char *)v; *c && k + 8 < cap; c++) {
        if (*c == '"' || *c == '\\') out[k++] = '\\', out[k++] = (char)*c;
        else if (*c < 32) k += (size_t)snprintf(out + k, cap - k, "\\u%04x", *c);
        else out[k++] = (char)*c;
    }
    out[k++] = '"';
    out[k] = 0;
}

static int serve_at(hsrv *s, int fd, const query *q, int cfg, int64_t seed, int32_t below)
{
    long long x, z, lim = (long long)CF_MAX_CHUNK * 16;
    if (!q->has_x || !q->has_z || parse_int(q->x, -lim, lim + 15, &x) < 0 || parse_int(q->z, -lim, lim + 15, &z) < 0)
        return fail(fd, 400, "/at needs x and z: integers within the world (|v| <= %lld)", lim);
    cf_error err = {0};
    cf_biomes *bio = NULL;
    cf_world *w = world_get(s, cfg, seed, &bio, &err);
    if (!w) return fail(fd, 500, "%s", err.message);
    cf_map_column_info c;
    cf_status st = cf_map_column_below(w, bio, (int32_t)x, (int32_t)z, below, &c, &err);
    char body[768], b[128], f[128], bm[128];
    if (st == CF_OK) {
        json_str(b, sizeof b, c.block);
        json_str(f, sizeof f, c.fluid);
        json_str(bm, sizeof bm, c.biome); /* names owned by the world and its biomes: copied before world_put */
    }
    world_put(s, w);
    if (st != CF_OK) return fail(fd, 500, "%s", err.message);
    int n = snprintf(body, sizeof body, "{\"x\": %lld, \"z\": %lld, \"height\": %d, \"block\": %s, \"biome\": %s, \"fluid\": %s}\n",
                     x, z, c.height, b, bm, f);
    respond(fd, 200, "application/json", body, (size_t)n);
    return 200;
}

/* /dimensions: what the server draws, the default first: {"dimensions": [{"dimension": ID or null (a
 * --settings configuration), "settings": ID, "min_y": Y, "height": H}, ...]} */
static int serve_dimensions(hsrv *s, int fd)
{
    char body[MAX_SETTINGS * 640 + 64], d[300], st[300];
    int n = snprintf(body, sizeof body, "{\"dimensions\": [");
    for (int i = 0; i < s->nprog; i++) {
        int min_y = 0, height = 0;
        cf_program_settings(s->prog[i], &min_y, &height, NULL);
        json_str(d, sizeof d, s->dims[i]);
        json_str(st, sizeof st, s->names[i]);
        n += snprintf(body + n, sizeof body - (size_t)n, "%s{\"dimension\": %s, \"settings\": %s, \"min_y\": %d, \"height\": %d}",
                      i ? ", " : "", d, st, min_y, height);
    }
    n += snprintf(body + n, sizeof body - (size_t)n, "]}\n");
    respond(fd, 200, "application/json", body, (size_t)n);
    return 200;
}

/* /legend: the biomes layer's colour of every biome the configuration's biome source can give
 * (its palette, in order; cf_map_biome_colour, the colour the layer shades): {"biomes": [{"id":
 * ID, "rgb": "#rrggbb"}, ...]}, empty where the settings have no biome source */
static int serve_legend(hsrv *s, int fd, int cfg, int64_t seed)
{
    cf_error err = {0};
    cf_biomes *bio = NULL;
    cf_world *w = world_get(s, cfg, seed, &bio, &err);
    if (!w) return fail(fd, 500, "%s", err.message);
    const char *names[CF_BIOME_PALETTE_MAX];
    int nb = bio ? cf_biomes_palette(bio, names) : 0;
    size_t cap = 64 + (size_t)nb * 320;
    char *body = malloc(cap), id[280];
    int n = 0;
    if (body) {
        n = snprintf(body, cap, "{\"biomes\": [");
        for (int i = 0; i < nb; i++) {
            uint8_t c[3];
            cf_map_biome_colour(names[i], c);
            json_str(id, sizeof id, names[i]);
            n += snprintf(body + n, cap - (size_t)n, "%s{\"id\": %s, \"rgb\": \"#%02x%02x%02x\"}", i ? ", " : "", id, c[0], c[1], c[2]);
        }
        n += snprintf(body + n, cap - (size_t)n, "]}\n");
    }
    world_put(s, w); /* the names belong to the biome source */
    if (!body) return fail(fd, 500, "out of memory");
    respond(fd, 200, "application/json", body, (size_t)n);
    free(body);
    return 200;
}

static int serve_viewer(hsrv *s, int fd)
{
    const char *html = cf_map_viewer_html(), *mark = strstr(html, "/*CF_CONFIG*/");
    const char *end = mark ? strstr(mark, ";\n") : NULL;
    if (!end) return fail(fd, 500, "the embedded viewer has no configuration mark");
    char cfgtext[2048];
    int n = snprintf(cfgtext, sizeof cfgtext, "{\"mode\": \"server\", \"layers\": [");
    int first = 1;
    for (int i = 0; cf_map_layer(i, NULL, NULL); i++) {
        int needs;
        cf_map_layer(i, &needs, NULL);
        if ((needs & CF_MAP_BLOCKS) && !s->prog[0]->blocks) continue;
        n += snprintf(cfgtext + n, sizeof cfgtext - (size_t)n, "%s\"%s\"", first ? "" : ", ", cf_map_layer(i, NULL, NULL));
        first = 0;
    }
    snprintf(cfgtext + n, sizeof cfgtext - (size_t)n, "], \"zmin\": 0, \"zmax\": %d, \"seed\": \"0\", \"settings\": \"\", \"workers\": %d}",
             s->o->max_zoom, s->o->workers);
    size_t a = (size_t)(mark - html), c = strlen(cfgtext), b = strlen(end);
    char *page = malloc(a + b + c + 1);
    if (!page) return fail(fd, 500, "out of memory");
    memcpy(page, html, a);
    memcpy(page + a, cfgtext, c + 1);
    memcpy(page + a + c, end, b + 1);
    respond(fd, 200, "text/html; charset=utf-8", page, a + b + c);
    free(page);
    return 200;
}

/* the head ends with an empty line */
static int head_done(const char *h, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (h[i] == '\n' && (h[i + 1] == '\n' || (h[i + 1] == '\r' && i + 2 < n && h[i + 2] == '\n'))) return 1;
    return 0;
}

/* one request on fd; returns the status sent, *how says how a tile was found */
static int handle(hsrv *s, int fd, char *target_out, size_t tcap, const char **how)
{
    char head[HEAD_MAX + 1];
    size_t n = 0;
    double t0 = now_s();
    *how = "";
    snprintf(target_out, tcap, "-");
    while (!head_done(head, n)) {
        if (n == HEAD_MAX) return fail(fd, 431, "request head over %d bytes", HEAD_MAX);
        if (now_s() - t0 > s->o->read_timeout_ms / 1000.0) return 408;
        ssize_t k = recv(fd, head + n, HEAD_MAX - n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0; /* closed or timed out: nothing to answer */
        n += (size_t)k;
    }
    head[n] = 0;
    char *eol = strpbrk(head, "\r\n");
    *eol = 0;
    char *sp1 = strchr(head, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
    if (!sp1 || !sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) return fail(fd, 400, "malformed request line");
    *sp1 = 0, *sp2 = 0;
    const char *target = sp1 + 1;
    size_t k = 0;
    for (const char *c = target; *c && k + 1 < tcap; c++) target_out[k++] = (char)(*c >= 32 && *c < 127 ? *c : '?');
    target_out[k] = 0;
    if (strcmp(head, "GET") != 0) return fail(fd, 405, "only GET");
    if (target[0] != '/' || strlen(target) > 2048) return fail(fd, 400, "bad target");
    char path[2100];
    const char *qm = strchr(target, '?');
    size_t pl = qm ? (size_t)(qm - target) : strlen(target);
    memcpy(path, target, pl);
    path[pl] = 0;
    query q;
    const char *why = NULL;
    if (parse_query(qm ? qm + 1 : NULL, &q, &why) < 0) return fail(fd, 400, "%s", why);
    if (strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0) return serve_viewer(s, fd);
    if (strcmp(path, "/dimensions") == 0) return serve_dimensions(s, fd);
    int cfg = find_settings(s, &q);
    if (cfg < 0 && q.has_dimension) return fail(fd, 404, "no such dimension here (/dimensions lists them)");
    if (cfg < 0) return fail(fd, 404, "no settings '%s' here", q.settings);
    int64_t seed = 0;
    int is_at = strcmp(path, "/at") == 0, is_legend = strcmp(path, "/legend") == 0;
    /* /L/Z/X/Y.png */
    char lname[64];
    int z = -1, used = 0;
    char xs[16], ys[16];
    if (!is_at && !is_legend) {
        if (sscanf(path, "/%63[a-z0-9_]/%d/%15[-0-9]/%15[-0-9].png%n", lname, &z, xs, ys, &used) != 4 || path[used] ||
            strstr(path, ".."))
            return fail(fd, 404, "no such path (tiles are /LAYER/Z/X/Y.png; the cursor query /at, /legend, /dimensions)");
    }
    if (!q.has_seed) return fail(fd, 400, "seed= is required");
    cf_error err = {0};
    if (cf_seed_parse(q.seed, &seed, &err) != CF_OK) return fail(fd, 400, "seed: %s", err.message);
    long long below = INT32_MAX;
    if (q.has_below && parse_int(q.below, INT32_MIN, INT32_MAX, &below) < 0)
        return fail(fd, 400, "below= takes a y, an integer from %d to %d (the map searches from it down)", INT32_MIN, INT32_MAX);
    if (is_at) return serve_at(s, fd, &q, cfg, seed, (int32_t)below);
    if (is_legend) return serve_legend(s, fd, cfg, seed);
    int layer = cf_map_layer_find(lname);
    if (layer < 0) return fail(fd, 404, "no layer '%s'", lname);
    int needs;
    cf_map_layer(layer, &needs, NULL);
    if ((needs & CF_MAP_BLOCKS) && !s->prog[cfg]->blocks) return fail(fd, 404, "%s: no %s layer (no aquifer)", s->names[cfg], lname);
    if (z < 0 || z > s->o->max_zoom) return fail(fd, 404, "zoom %d outside 0..%d", z, s->o->max_zoom);
    long long tx, ty, lim = (long long)CF_MAX_CHUNK * 16, span = (long long)TILE << z;
    if (parse_int(xs, -(lim / span) - 1, lim / span + 1, &tx) < 0 || parse_int(ys, -(lim / span) - 1, lim / span + 1, &ty) < 0 ||
        tx * span < -lim || ty * span < -lim || tx * span + span - 1 > lim + 15 || ty * span + span - 1 > lim + 15)
        return fail(fd, 404, "tile outside the world");
    return serve_tile(s, fd, layer, z, tx, ty, cfg, seed, (int32_t)below, how);
}

static void *worker(void *arg)
{
    hsrv *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (s->qn == 0 && !stop_flag) pthread_cond_wait(&s->work, &s->mu);
        if (s->qn == 0) {
            pthread_mutex_unlock(&s->mu);
            return NULL;
        }
        int fd = s->q[s->qhead];
        s->qhead = (s->qhead + 1) % s->qcap, s->qn--;
        pthread_mutex_unlock(&s->mu);
        struct timeval tv = {s->o->read_timeout_ms / 1000, (s->o->read_timeout_ms % 1000) * 1000};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        char target[256];
        const char *how;
        double t0 = now_s();
        int code = handle(s, fd, target, sizeof target, &how);
        /* logged before the close: a client that has read the whole answer finds its line */
        if (code) fprintf(stderr, "http: GET %s %d%s%s %.3f s\n", target, code, *how ? " " : "", how, now_s() - t0);
        close(fd);
    }
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
    const char *files[MAX_SETTINGS], *sets[256], *ids[MAX_SETTINGS + 3];
    int nf = pack_list(pk, "data/minecraft/dimension", files, MAX_SETTINGS), ns = pack_list(pk, "data/minecraft/worldgen/noise_settings", sets, 256);
    int n = 0;
    if (nf > MAX_SETTINGS) nf = MAX_SETTINGS;
    if (ns > 256) ns = 256;
    for (int g = 0; g < 3; g++) {
        int have = 0;
        for (int i = 0; i < nf; i++) have |= strcmp(files[i], game[g][0]) == 0;
        for (int i = 0; i < ns; i++) have |= strcmp(sets[i], game[g][1]) == 0;
        if (have) ids[n++] = game[g][0];
    }
    for (int i = 0; i < nf; i++)
        if (strcmp(files[i], "overworld") && strcmp(files[i], "the_nether") && strcmp(files[i], "the_end")) ids[n++] = files[i];
    for (int i = 0; i < n && s->nprog < MAX_SETTINGS; i++) {
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

cf_status cf_http_serve(const cf_http_opts *o, cf_error *err)
{
    hsrv *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, CF_ERR_NOMEM, "out of memory");
    s->o = o;
    s->lfd = -1;
    cf_status st = CF_OK;
    cf_pack *pk = NULL;
    pthread_t *th = NULL;
    int nth = 0;
    int ns = o->nsettings > 0 ? o->nsettings : 1;
    if (ns > MAX_SETTINGS) return free(s), err_set(err, CF_ERR_ARG, "at most %d --settings", MAX_SETTINGS);
    if (o->workers < 1 || o->max_conns < 1 || o->cache_mb < 1 || o->max_zoom < 0 || o->max_zoom > 20 || !o->listen)
        return free(s), err_set(err, CF_ERR_ARG, "cf_http_serve: bad options");
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->done, NULL);
    if ((st = cf_pack_open(&pk, o->packs, o->npacks, &o->limits, err)) != CF_OK) goto out;
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
    s->qcap = o->max_conns;
    s->q = malloc(sizeof(int) * (size_t)s->qcap);
    th = calloc((size_t)o->workers, sizeof *th);
    if (!s->q || !th) {
        st = err_set(err, CF_ERR_NOMEM, "out of memory");
        goto out;
    }
    stop_flag = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    for (; nth < o->workers; nth++)
        if (pthread_create(&th[nth], NULL, worker, s) != 0) {
            st = err_set(err, CF_ERR_NOMEM, "cannot start a worker thread");
            stop_flag = 1;
            break;
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
        if (!stop_flag) fprintf(r, "listening on http://%s:%d/\n", host, port), fflush(r);
    }
    while (!stop_flag) {
        struct pollfd p = {s->lfd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0) continue;
        int fd = accept(s->lfd, NULL, NULL);
        if (fd < 0) continue;
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        pthread_mutex_lock(&s->mu);
        int full = s->qn == s->qcap;
        if (!full) {
            s->q[(s->qhead + s->qn) % s->qcap] = fd;
            s->qn++;
            pthread_cond_signal(&s->work);
        }
        pthread_mutex_unlock(&s->mu);
        if (full) {
            static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\nRetry-After: 1\r\n"
                                       "Connection: close\r\n\r\nbusy\n";
            send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            close(fd);
            fprintf(stderr, "http: 503 (%d connections waiting)\n", s->qcap);
        }
    }
    fprintf(stderr, "http: stopping\n");
out:
    pthread_mutex_lock(&s->mu);
    stop_flag = 1;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < nth; i++) pthread_join(th[i], NULL);
    for (int i = 0; s->q && i < s->qn; i++) close(s->q[(s->qhead + i) % s->qcap]);
    if (s->lfd >= 0) close(s->lfd);
    for (int i = 0; i < MAX_WORLDS; i++) cf_world_free(s->worlds[i].w), cf_biomes_free(s->worlds[i].b);
    for (int i = 0; i < s->nprog; i++) cf_program_free(s->prog[i]);
    while (s->ents) {
        entry *e = s->ents;
        s->ents = e->next;
        free(e);
    }
    if (s->own_cache) remove_cache(s->cache);
    cf_pack_free(pk);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->done);
    free(s->q), free(th), free(s);
    return st;
}
