/* http_work.c - `serve --http`'s answers: a request's route (from the event loop, http.c),
 * the cheap workers (the viewer, /at, cached tiles) and the dear workers (tiles to draw),
 * the tile cache and the worlds.
 *
 * A complete head is routed on the event loop: errors are answered there at once; the
 * viewer, /at and a tile already in the cache become a job on the cheap queue; a tile not
 * in the cache becomes a cache entry on the dear queue with the job as its first waiter
 * (later requests for it join its waiters), so a tile is drawn once and the cheap work
 * never waits behind the dear. A dear worker draws with a cancel hook (api/map.h) that
 * stops when every waiter's connection has closed, when the work bound
 * (--tile-timeout-ms) has passed, or at SIGTERM once the drain time is over. The worlds
 * (seeds) are an LRU of one slot per worker and four more, so a slot is always there for
 * a worker. Allocates: jobs and entries (freed when answered / evicted), worlds, biome
 * sources and a tile's pixels.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/map.h"
#include "ir/ir.h"
#include "net/http.h"

#define TILE 256

double http_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ answers */

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
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Internal Server Error";
    }
}

void http_respond(int fd, int code, const char *type, const void *body, size_t n)
{
    char head[320];
    int hl = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-cache\r\n%s"
                      "Connection: close\r\n\r\n",
                      code, reason(code), type, n, code == 503 ? "Retry-After: 1\r\n" : "");
    if (send_all(fd, head, (size_t)hl) == 0 && n) send_all(fd, body, n);
}

int http_fail(int fd, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg - 1, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n > sizeof msg - 2) n = (int)sizeof msg - 2;
    for (int i = 0; i < n; i++)
        if (msg[i] == '\n' || msg[i] == '\r') msg[i] = ' '; /* one line */
    msg[n++] = '\n';
    http_respond(fd, code, "text/plain; charset=utf-8", msg, (size_t)n);
    return code;
}

void http_done(hsrv *s, http_job *j, int code)
{
    /* logged before the close: a client that has read the whole answer finds its line */
    if (code) fprintf(stderr, "http: GET %s %d%s%s %.3f s\n", j->log, code, *j->how ? " " : "", j->how, http_now() - j->t0);
    else fprintf(stderr, "http: GET %s cancelled: the client went away (%.3f s)\n", j->log, http_now() - j->t0);
    if (j->file >= 0) close(j->file);
    shutdown(j->fd, SHUT_WR); /* the answer ends here; the event loop reads what the client still sends, then closes */
    pthread_mutex_lock(&s->mu);
    s->njobs--;
    if (s->nclosing < s->closing_cap) {
        s->closing[s->nclosing++] = j->fd;
        j->fd = -1;
    }
    pthread_mutex_unlock(&s->mu);
    if (j->fd >= 0) close(j->fd);
    else if (write(s->wake[1], "c", 1) < 0) { /* the loop wakes within its poll period anyway */ }
    free(j);
}

/* the status for a failed call: the caller's input (400), out of memory or busy (503), else 500 */
static int status_code(cf_status st)
{
    return st == CF_ERR_ARG || st == CF_ERR_LIMIT ? 400 : st == CF_ERR_NOMEM ? 503 : 500;
}

/* 1 when the client of fd has closed its side or the connection is gone */
static int client_gone(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) return 0;
    if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return 1;
    char c;
    ssize_t k = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* ------------------------------------------------------------------ worlds */

/* a bound world for (cfg, seed) and its biome source (*bio, may be NULL), referenced until world_put */
static cf_world *world_get(hsrv *s, int cfg, int64_t seed, cf_biomes **bio, cf_error *err)
{
    pthread_mutex_lock(&s->wmu);
    http_world *free_slot = NULL, *lru = NULL;
    for (int i = 0; i < s->nworlds; i++) {
        http_world *w = &s->worlds[i];
        if (w->w && w->cfg == cfg && w->seed == seed) {
            w->refs++, w->used = ++s->clock;
            *bio = w->b;
            pthread_mutex_unlock(&s->wmu);
            return w->w;
        }
        if (!w->w && !free_slot) free_slot = w;
        if (w->w && w->refs == 0 && (!lru || w->used < lru->used)) lru = w;
    }
    http_world *slot = free_slot ? free_slot : lru;
    cf_world *nw = NULL;
    if (!slot) {
        err_set(err, CF_ERR_NOMEM, "every world slot is busy"); /* not reached: a slot per worker */
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
    pthread_mutex_unlock(&s->wmu);
    return nw;
}

static void world_put(hsrv *s, const cf_world *w)
{
    pthread_mutex_lock(&s->wmu);
    for (int i = 0; i < s->nworlds; i++)
        if (s->worlds[i].w == w) s->worlds[i].refs--;
    pthread_mutex_unlock(&s->wmu);
}

void http_free_worlds(hsrv *s)
{
    for (int i = 0; s->worlds && i < s->nworlds; i++) cf_world_free(s->worlds[i].w), cf_biomes_free(s->worlds[i].b);
    free(s->worlds);
}

/* ------------------------------------------------------------------ the cheap work */

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

static int serve_at(hsrv *s, const http_job *j)
{
    cf_error err = {0};
    cf_biomes *bio = NULL;
    cf_world *w = world_get(s, j->cfg, j->seed, &bio, &err);
    if (!w) return http_fail(j->fd, status_code(err.status), "%s", err.message);
    cf_map_column_info c;
    cf_status st = cf_map_column_below(w, bio, (int32_t)j->x, (int32_t)j->z, j->below, &c, &err);
    char body[1024];
    int n = st == CF_OK ? cf_map_column_json(&c, j->x, j->z, body, sizeof body) : 0; /* names owned by the world: before world_put */
    if (n >= (int)sizeof body) n = (int)sizeof body - 1;
    world_put(s, w);
    if (st != CF_OK) return http_fail(j->fd, status_code(st), "%s", err.message);
    http_respond(j->fd, 200, "application/json", body, (size_t)n);
    return 200;
}

/* /dimensions: what the server draws, the default first: {"dimensions": [{"dimension": ID or null (a
 * --settings configuration), "settings": ID, "min_y": Y, "height": H}, ...]} */
static int serve_dimensions(hsrv *s, int fd)
{
    char body[HTTP_MAX_SETTINGS * 640 + 64], d[300], st[300];
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
    http_respond(fd, 200, "application/json", body, (size_t)n);
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
    if (!w) return http_fail(fd, status_code(err.status), "%s", err.message);
    size_t cap = 16 + cf_map_legend_json(bio, NULL, 0) + 4;
    char *body = malloc(cap);
    int n = 0;
    if (body) {
        n = snprintf(body, cap, "{\"biomes\": ");
        n += (int)cf_map_legend_json(bio, body + n, cap - (size_t)n);
        n += snprintf(body + n, cap - (size_t)n, "}\n");
    }
    world_put(s, w); /* the names belong to the biome source */
    if (!body) return http_fail(fd, 503, "out of memory");
    http_respond(fd, 200, "application/json", body, (size_t)n);
    free(body);
    return 200;
}

static int serve_viewer(hsrv *s, int fd)
{
    const char *html = cf_map_viewer_html(), *mark = strstr(html, "/*CF_CONFIG*/");
    const char *end = mark ? strstr(mark, ";\n") : NULL;
    if (!end) return http_fail(fd, 500, "the embedded viewer has no configuration mark");
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
    if (!page) return http_fail(fd, 503, "out of memory");
    memcpy(page, html, a);
    memcpy(page + a, cfgtext, c + 1);
    memcpy(page + a + c, end, b + 1);
    http_respond(fd, 200, "text/html; charset=utf-8", page, a + b + c);
    free(page);
    return 200;
}

/* the bytes of an open cached tile into buf (malloc'd); -1 when it cannot be read */
static long read_file(int f, char **buf)
{
    struct stat sb;
    *buf = NULL;
    if (fstat(f, &sb) != 0 || sb.st_size <= 0 || sb.st_size >= (64 << 20) || !(*buf = malloc((size_t)sb.st_size))) return -1;
    if (pread(f, *buf, (size_t)sb.st_size, 0) != sb.st_size) {
        free(*buf), *buf = NULL;
        return -1;
    }
    return (long)sb.st_size;
}

static int serve_file(const http_job *j)
{
    char *buf;
    long n = read_file(j->file, &buf);
    if (n < 0) return http_fail(j->fd, 500, "the cached tile could not be read");
    http_respond(j->fd, 200, "image/png", buf, (size_t)n);
    free(buf);
    return 200;
}

static void socket_timeouts(hsrv *s, int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    struct timeval tv = {s->o->read_timeout_ms / 1000, (s->o->read_timeout_ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void *http_cheap_worker(void *arg)
{
    hsrv *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (!s->cheap_head && !s->stopping) pthread_cond_wait(&s->cheap_cv, &s->mu);
        http_job *j = s->cheap_head;
        if (!j) {
            pthread_mutex_unlock(&s->mu);
            return NULL;
        }
        s->cheap_head = j->next;
        if (!s->cheap_head) s->cheap_tail = NULL;
        pthread_mutex_unlock(&s->mu);
        socket_timeouts(s, j->fd);
        int code = j->kind == JOB_VIEWER ? serve_viewer(s, j->fd)
                   : j->kind == JOB_AT ? serve_at(s, j)
                   : j->kind == JOB_DIMENSIONS ? serve_dimensions(s, j->fd)
                   : j->kind == JOB_LEGEND ? serve_legend(s, j->fd, j->cfg, j->seed)
                   : j->kind == JOB_STRUCTURES ? http_serve_structures(s, j)
                   : j->kind == JOB_SPAWN ? http_serve_spawn(s, j)
                   : serve_file(j);
        http_done(s, j, code);
    }
}

/* ------------------------------------------------------------------ the dear work */

/* drops ready entries, least recently used first, until the cache fits (mu held) */
static void evict(hsrv *s)
{
    size_t cap = (size_t)s->o->cache_mb << 20;
    while (s->cache_bytes > cap) {
        http_entry **victim = NULL;
        for (http_entry **e = &s->ents; *e; e = &(*e)->next)
            if ((*e)->state == ENT_READY && (!victim || (*e)->used < (*victim)->used)) victim = e;
        if (!victim) return;
        http_entry *v = *victim;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->cache, v->file);
        unlink(path);
        s->cache_bytes -= v->bytes;
        *victim = v->next;
        free(v);
    }
}

static void unlink_entry(hsrv *s, http_entry *e)
{
    for (http_entry **p = &s->ents; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    free(e);
}

/* the waiters whose clients are still there; the others are answered as gone (mu held) */
static http_job *live_waiters(http_entry *e, http_job **gone)
{
    http_job *live = NULL, **lt = &live;
    for (http_job *j = e->waiters, *nx; j; j = nx) {
        nx = j->next;
        if (client_gone(j->fd)) j->next = *gone, *gone = j;
        else *lt = j, lt = &j->next;
    }
    *lt = NULL;
    return e->waiters = live;
}

enum { STOP_NONE, STOP_GONE, STOP_TIMEOUT, STOP_DRAIN };
typedef struct tile_ctx {
    hsrv *s;
    http_entry *e;
    int why; /* STOP_*: why the hook stopped the drawing */
} tile_ctx;

static int tile_stop(void *arg)
{
    tile_ctx *t = arg;
    hsrv *s = t->s;
    double now = http_now();
    if (__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE) && now > s->drain_end) return t->why = STOP_DRAIN, 1;
    if (now > t->e->deadline) return t->why = STOP_TIMEOUT, 1;
    pthread_mutex_lock(&s->mu);
    int alive = 0;
    for (http_job *j = t->e->waiters; j && !alive; j = j->next) alive = !client_gone(j->fd);
    pthread_mutex_unlock(&s->mu);
    if (!alive) t->why = STOP_GONE;
    return !alive;
}

/* draws e's tile into its cache file; CF_OK, or why not (err) */
static cf_status draw_tile(hsrv *s, http_entry *e, tile_ctx *t, cf_error *err)
{
    uint8_t *rgb = malloc(TILE * TILE * 3);
    if (!rgb) return err_set(err, CF_ERR_NOMEM, "out of memory");
    cf_biomes *bio = NULL;
    cf_world *w = world_get(s, e->cfg, e->seed, &bio, err);
    cf_status st = w ? CF_OK : err->status ? err->status : CF_ERR_NOMEM;
    if (w) {
        long long span = (long long)TILE << e->z;
        cf_map_cancel hook = {.stop = tile_stop, .ctx = t};
        st = map_draw_on(s->mdev[e->cfg], w, bio, e->layer, (int32_t)(e->tx * span), (int32_t)(e->ty * span), (int32_t)1 << e->z, TILE, TILE,
                             e->below, rgb, NULL, NULL, s->o->threads, &hook, err);
        world_put(s, w);
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", s->cache, e->file);
    if (st == CF_OK) st = cf_png_write(path, rgb, TILE, TILE, err);
    free(rgb);
    return st;
}

/* answers every job of list with the tile bytes (buf) or the error; then closes them */
static void answer_all(hsrv *s, http_job *list, const char *buf, long n, int code, const char *msg)
{
    for (http_job *j = list, *nx; j; j = nx) {
        nx = j->next;
        socket_timeouts(s, j->fd);
        int c = code;
        if (code == 200 && buf) http_respond(j->fd, 200, "image/png", buf, (size_t)n);
        else if (code) c = http_fail(j->fd, code == 200 ? 500 : code, "%s", code == 200 ? "the tile could not be read" : msg);
        http_done(s, j, c);
    }
}

void *http_dear_worker(void *arg)
{
    hsrv *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->dear_head && !s->stopping) pthread_cond_wait(&s->dear_cv, &s->mu);
        http_entry *e = s->dear_head;
        if (!e) break;
        s->dear_head = e->qnext;
        if (!s->dear_head) s->dear_tail = NULL;
        http_job *gone = NULL;
        if (s->stopping) { /* not started: the server is stopping */
            http_job *w = e->waiters;
            unlink_entry(s, e);
            pthread_mutex_unlock(&s->mu);
            answer_all(s, w, NULL, 0, 503, "the server is stopping");
            pthread_mutex_lock(&s->mu);
            continue;
        }
        if (!live_waiters(e, &gone)) { /* every client left before it started */
            unlink_entry(s, e);
            pthread_mutex_unlock(&s->mu);
            answer_all(s, gone, NULL, 0, 0, NULL);
            pthread_mutex_lock(&s->mu);
            continue;
        }
        e->state = ENT_COMPUTING;
        e->deadline = http_now() + s->o->tile_timeout_ms / 1000.0;
        pthread_mutex_unlock(&s->mu);
        answer_all(s, gone, NULL, 0, 0, NULL);
        cf_error err = {0};
        tile_ctx t = {s, e, STOP_NONE};
        cf_status st = draw_tile(s, e, &t, &err);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->cache, e->file);
        struct stat sb;
        int ok = st == CF_OK && stat(path, &sb) == 0;
        pthread_mutex_lock(&s->mu);
        gone = NULL;
        if (!ok && t.why == STOP_GONE && live_waiters(e, &gone)) { /* a request came as it stopped: again */
            e->state = ENT_QUEUED, e->qnext = NULL;
            if (s->dear_tail) s->dear_tail->qnext = e;
            else s->dear_head = e;
            s->dear_tail = e;
            pthread_mutex_unlock(&s->mu);
            answer_all(s, gone, NULL, 0, 0, NULL);
            pthread_mutex_lock(&s->mu);
            continue;
        }
        http_job *w = e->waiters;
        e->waiters = NULL;
        char *buf = NULL;
        long n = -1;
        int code = 200;
        char msg[300] = "";
        if (ok) {
            e->state = ENT_READY, e->bytes = (size_t)sb.st_size, s->cache_bytes += e->bytes, e->used = ++s->clock;
            int f = open(path, O_RDONLY | O_CLOEXEC);
            if (f >= 0) n = read_file(f, &buf), close(f);
            evict(s);
        } else {
            unlink(path);
            unlink_entry(s, e); /* failures are not cached */
            if (t.why == STOP_GONE) code = 0;
            else if (t.why == STOP_DRAIN) code = 503, snprintf(msg, sizeof msg, "the server is stopping");
            else if (t.why == STOP_TIMEOUT)
                code = 503, snprintf(msg, sizeof msg, "the tile needs more than %d ms of work (--tile-timeout-ms)", s->o->tile_timeout_ms);
            else code = status_code(st), snprintf(msg, sizeof msg, "%.250s", err.message[0] ? err.message : "the tile could not be written");
        }
        pthread_mutex_unlock(&s->mu);
        answer_all(s, gone, NULL, 0, 0, NULL); /* the clients that went (STOP_GONE) */
        answer_all(s, w, buf, n, code, msg);
        free(buf);
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ------------------------------------------------------------------ routes */

/* the configuration that dimension= and settings= name (the first without either); -1 when
 * none has both */
static int find_settings(const hsrv *s, const http_query *q)
{
    int by_dim = q->has_dimension && q->dimension[0], by_set = q->has_settings && q->settings[0];
    for (int i = 0; i < s->nprog; i++)
        if ((!by_dim || (s->dims[i] && strcmp(s->dims[i], q->dimension) == 0)) && (!by_set || strcmp(s->names[i], q->settings) == 0))
            return i;
    return -1;
}

/* the job on the cheap queue (mu held) */
static void cheap_push(hsrv *s, http_job *j)
{
    j->next = NULL;
    if (s->cheap_tail) s->cheap_tail->next = j;
    else s->cheap_head = j;
    s->cheap_tail = j;
    pthread_cond_signal(&s->cheap_cv);
}

/* a tile: from the cache (cheap), joined to its entry, or a new entry on the dear queue (mu held) */
static void tile_job(hsrv *s, http_job *j, int layer, int z, long long tx, long long ty)
{
    char key[192];
    snprintf(key, sizeof key, "%d/%d/%lld/%lld|%d|%lld|%ld", layer, z, tx, ty, j->cfg, (long long)j->seed, (long)j->below);
    http_entry *e = s->ents;
    while (e && strcmp(e->key, key) != 0) e = e->next;
    if (e && e->state == ENT_READY) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->cache, e->file);
        e->used = ++s->clock;
        if ((j->file = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
            j->kind = JOB_FILE, j->how = "cache";
            cheap_push(s, j);
            return;
        }
        s->cache_bytes -= e->bytes; /* vanished from the folder: drawn again */
        unlink_entry(s, e);
        e = NULL;
    }
    j->kind = JOB_TILE;
    if (e) {
        j->how = "joined";
        j->next = e->waiters, e->waiters = j;
        return;
    }
    e = calloc(1, sizeof *e);
    if (!e) { /* answered by the caller's check of j->kind */
        j->kind = -1;
        return;
    }
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->file, sizeof e->file, "t%llu.png", (unsigned long long)++s->serial);
    e->layer = layer, e->z = z, e->tx = tx, e->ty = ty, e->cfg = j->cfg, e->seed = j->seed, e->below = j->below;
    e->state = ENT_QUEUED;
    j->how = "computed", j->next = NULL, e->waiters = j;
    e->next = s->ents, s->ents = e;
    if (s->dear_tail) s->dear_tail->qnext = e;
    else s->dear_head = e;
    s->dear_tail = e;
    pthread_cond_signal(&s->dear_cv);
}

int http_route(hsrv *s, int fd, const char *head, size_t n)
{
    http_head h;
    const char *why = "";
    int code = http_head_parse(head, n, &h, &why);
    const char *lg = h.log[0] ? h.log : "-";
    if (code) goto refuse;
    if (!http_host_ok(h.host, s->lhost)) {
        code = 403, why = "Host names another server (this one answers to localhost and its loopback address)";
        goto refuse;
    }
    http_query q;
    if (http_query_parse(h.query, &q, &why) < 0) {
        code = 400;
        goto refuse;
    }
    int is_view = strcmp(h.path, "/") == 0 || strcmp(h.path, "/index.html") == 0, is_at = strcmp(h.path, "/at") == 0;
    int is_dims = strcmp(h.path, "/dimensions") == 0, is_legend = strcmp(h.path, "/legend") == 0;
    int is_st = strcmp(h.path, "/structures") == 0, is_spawn = strcmp(h.path, "/spawn") == 0; /* http_structures.c */
    char lname[64];
    int z = -1, layer = -1;
    long long tx = 0, ty = 0, x = 0, zz = 0;
    int64_t seed = 0;
    int cfg = 0;
    long long below = INT32_MAX;
    if (!is_view && !is_dims) {
        if (!is_at && !is_legend && !is_st && !is_spawn && http_tile_path(h.path, lname, sizeof lname, &z, &tx, &ty) < 0) {
            code = 404, why = "no such path (tiles are /LAYER/Z/X/Y.png; the cursor query /at, /legend, /dimensions, /structures, /spawn)";
            goto refuse;
        }
        if ((cfg = find_settings(s, &q)) < 0 && q.has_dimension) {
            code = 404, why = "no such dimension here (/dimensions lists them)";
            goto refuse;
        }
        if (cfg < 0) {
            code = http_fail(fd, 404, "no settings '%s' here", q.settings);
            goto logged;
        }
        if (!q.has_seed) {
            code = 400, why = "seed= is required";
            goto refuse;
        }
        cf_error err = {0};
        if (cf_seed_parse(q.seed, &seed, &err) != CF_OK) {
            code = http_fail(fd, 400, "seed: %s", err.message);
            goto logged;
        }
        if (q.has_below && http_int(q.below, INT32_MIN, INT32_MAX, &below) < 0) {
            code = http_fail(fd, 400, "below= takes a y, an integer from %d to %d (the map searches from it down)", INT32_MIN, INT32_MAX);
            goto logged;
        }
        long long lim = (long long)CF_MAX_CHUNK * 16;
        if (is_at) {
            if (!q.has_x || !q.has_z || http_int(q.x, -lim, lim + 15, &x) < 0 || http_int(q.z, -lim, lim + 15, &zz) < 0) {
                code = http_fail(fd, 400, "/at needs x and z: integers within the world (|v| <= %lld)", lim);
                goto logged;
            }
        } else if (is_st && !q.has_area) {
            code = http_fail(fd, 400, "/structures needs area=X0,Z0:X1,Z1 (blocks, inclusive)");
            goto logged;
        } else if (!is_legend && !is_st && !is_spawn) {
            if ((layer = cf_map_layer_find(lname)) < 0) {
                code = http_fail(fd, 404, "no layer '%s'", lname);
                goto logged;
            }
            int needs;
            cf_map_layer(layer, &needs, NULL);
            if ((needs & CF_MAP_BLOCKS) && !s->prog[cfg]->blocks) {
                code = http_fail(fd, 404, "%s: no %s layer (no aquifer)", s->names[cfg], lname);
                goto logged;
            }
            if (z > s->o->max_zoom) {
                code = http_fail(fd, 404, "zoom %d outside 0..%d (--max-zoom)", z, s->o->max_zoom);
                goto logged;
            }
            long long span = (long long)TILE << z;
            if (tx * span < -lim || ty * span < -lim || tx * span + span - 1 > lim + 15 || ty * span + span - 1 > lim + 15) {
                code = http_fail(fd, 404, "tile outside the world (blocks within +-%lld)", lim);
                goto logged;
            }
        }
    }
    http_job *j = calloc(1, sizeof *j);
    if (!j) {
        code = 503, why = "out of memory";
        goto refuse;
    }
    j->fd = fd, j->file = -1, j->cfg = cfg, j->seed = seed, j->x = x, j->z = zz, j->below = (int32_t)below, j->how = "", j->t0 = http_now();
    snprintf(j->log, sizeof j->log, "%s", lg);
    if (is_st) snprintf(j->area, sizeof j->area, "%s", q.area), snprintf(j->only, sizeof j->only, "%s", q.structure);
    pthread_mutex_lock(&s->mu);
    if (s->njobs >= s->o->max_conns) {
        pthread_mutex_unlock(&s->mu);
        free(j);
        code = 503, why = "busy: too many requests at once (--max-conns)";
        goto refuse;
    }
    s->njobs++;
    if (is_view || is_at || is_dims || is_legend || is_st || is_spawn) {
        j->kind = is_view ? JOB_VIEWER : is_at ? JOB_AT : is_dims ? JOB_DIMENSIONS : is_legend ? JOB_LEGEND : is_st ? JOB_STRUCTURES : JOB_SPAWN;
        cheap_push(s, j);
    } else {
        tile_job(s, j, layer, z, tx, ty);
    }
    int lost = j->kind < 0;
    if (lost) s->njobs--;
    pthread_mutex_unlock(&s->mu);
    if (lost) {
        free(j);
        code = 503, why = "out of memory";
        goto refuse;
    }
    return 1;
refuse:
    http_fail(fd, code, "%s", why);
logged:
    fprintf(stderr, "http: GET %s %d\n", lg, code);
    return 0;
}
