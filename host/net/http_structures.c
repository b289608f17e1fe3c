/* http_structures.c - `serve --http`'s structure answers (cheap workers, http_work.c routes them):
 *   /structures?seed=S&area=X0,Z0:X1,Z1[&structure=ID|#TAG[,...]][&dimension=ID][&settings=ID]
 *       the lines `chunkfill structures` writes for the same packs, seed, dimension and area
 *       (cf_structure_json), as application/x-ndjson; at most HTTP_ST_MAX_CHUNKS chunks an area;
 *   /spawn?seed=S[&dimension=ID]: the line of `chunkfill spawn` (cf_spawn_find, cf_spawn_json).
 * Structure handles (their ring positions are searched once and kept) live in a small LRU of
 * HTTP_ST_SLOTS per (configuration, seed), each with its own biome source and terrain; a request holds its
 * handle alone (the handle is not shared between threads); pack reads (opening, #tags) happen
 * under the worlds' lock, as world_get's. Allocates the slots, the handles and an answer's body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "net/http.h"

#define HTTP_ST_SLOTS 4
#define HTTP_ST_MAX_CHUNKS (1L << 20) /* 1024 x 1024 chunks: a viewer screen at level 4 fits */

typedef struct st_slot {
    int cfg, busy;
    int64_t seed;
    uint64_t used;
    cf_biomes *b;
    cf_structures *st;
    cf_program *pg; /* the terrain of the checks (cf_structures_terrain): the settings with blocks */
    cf_world *w;
    const char *version; /* the packs' game version */
} st_slot;

struct http_stcache {
    pthread_mutex_t mu;
    uint64_t clock;
    st_slot slot[HTTP_ST_SLOTS];
};

static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;

static int status_of(cf_status st) { return st == CF_ERR_ARG || st == CF_ERR_LIMIT || st == CF_ERR_SCHEMA ? 400 : st == CF_ERR_NOMEM ? 503
                                                                                                                                     : 500; }

static void slot_close(st_slot *sl)
{
    cf_structures_free(sl->st), cf_world_free(sl->w), cf_program_free(sl->pg), cf_biomes_free(sl->b);
    sl->st = NULL, sl->w = NULL, sl->pg = NULL, sl->b = NULL;
}

/* opens the biome source and structures of (cfg, seed) into sl (under the worlds' lock: the pack) */
static cf_status slot_open(hsrv *s, st_slot *sl, int cfg, int64_t seed, cf_error *err)
{
    pthread_mutex_lock(&s->wmu);
    sl->version = cf_pack_game_version(s->pk, NULL, NULL);
    cf_status st = cf_biomes_open(&sl->b, s->pk, s->dims[cfg], s->dims[cfg] ? NULL : s->names[cfg], NULL, seed, err);
    if (st == CF_OK) st = cf_structures_open(&sl->st, s->pk, sl->b, seed, sl->version, err);
    /* the terrain as `chunkfill structures` has it; settings without blocks: those checks stay unverified */
    cf_error e2 = {0};
    const char *set = st == CF_OK ? cf_biomes_settings(sl->b) : NULL;
    if (set && (cf_program_compile_blocks(&sl->pg, s->pk, set, &e2) != CF_OK || cf_world_new(&sl->w, sl->pg, seed, &e2) != CF_OK ||
                cf_structures_terrain(sl->st, sl->w, &e2) != CF_OK))
        fprintf(stderr, "http: %s: no terrain checks for structures: %s\n", s->names[cfg], e2.message);
    pthread_mutex_unlock(&s->wmu);
    if (st != CF_OK) slot_close(sl);
    sl->cfg = cfg, sl->seed = seed;
    return st;
}



/* the handle of (cfg, seed), held until slot_put; a slot of the cache, or *tmp (every slot busy) */
static st_slot *slot_get(hsrv *s, int cfg, int64_t seed, st_slot *tmp, cf_error *err)
{
    pthread_mutex_lock(&init_mu);
    if (!s->stc && (s->stc = calloc(1, sizeof *s->stc))) pthread_mutex_init(&s->stc->mu, NULL);
    pthread_mutex_unlock(&init_mu);
    struct http_stcache *c = s->stc;
    if (!c) return err_set(err, CF_ERR_NOMEM, "out of memory"), NULL;
    pthread_mutex_lock(&c->mu);
    st_slot *pick = NULL;
    for (int i = 0; i < HTTP_ST_SLOTS; i++) {
        st_slot *sl = &c->slot[i];
        if (sl->st && !sl->busy && sl->cfg == cfg && sl->seed == seed) {
            sl->busy = 1, sl->used = ++c->clock;
            pthread_mutex_unlock(&c->mu);
            return sl;
        }
        if (!sl->busy && (!pick || (pick->st && (!sl->st || sl->used < pick->used)))) pick = sl;
    }
    if (pick) pick->busy = 1, pick->used = ++c->clock;
    pthread_mutex_unlock(&c->mu);
    st_slot *sl = pick ? pick : tmp;
    slot_close(sl);
    if (slot_open(s, sl, cfg, seed, err) != CF_OK) {
        if (pick) {
            pthread_mutex_lock(&c->mu);
            pick->busy = 0;
            pthread_mutex_unlock(&c->mu);
        }
        return NULL;
    }
    return sl;
}

static void slot_put(hsrv *s, st_slot *sl, st_slot *tmp)
{
    if (sl == tmp) {
        slot_close(tmp);
        return;
    }
    pthread_mutex_lock(&s->stc->mu);
    sl->busy = 0;
    pthread_mutex_unlock(&s->stc->mu);
}

void http_free_structures(hsrv *s)
{
    if (!s->stc) return;
    for (int i = 0; i < HTTP_ST_SLOTS; i++) slot_close(&s->stc->slot[i]);
    pthread_mutex_destroy(&s->stc->mu);
    free(s->stc);
    s->stc = NULL;
}

/* "X0,Z0:X1,Z1" -> r (blocks, X0 <= X1, Z0 <= Z1, within the world); -1 otherwise */
static int parse_area(const char *a, long long r[4])
{
    char buf[80];
    long long lim = (long long)CF_MAX_CHUNK * 16;
    if (strlen(a) >= sizeof buf) return -1;
    strcpy(buf, a);
    char *colon = strchr(buf, ':');
    if (!colon) return -1;
    *colon = 0;
    char *parts[2] = {buf, colon + 1};
    for (int i = 0; i < 2; i++) {
        char *comma = strchr(parts[i], ',');
        if (!comma) return -1;
        *comma = 0;
        if (http_int(parts[i], -lim, lim + 15, &r[2 * i]) < 0 || http_int(comma + 1, -lim, lim + 15, &r[2 * i + 1]) < 0) return -1;
    }
    return r[0] <= r[2] && r[1] <= r[3] ? 0 : -1;
}

typedef struct body {
    char *p;
    size_t n, cap;
    int nomem;
} body;

static int add_line(void *ctx, const cf_structure_start *st)
{
    body *b = ctx;
    for (;;) {
        size_t room = b->cap - b->n;
        int n = cf_structure_json(st, b->p ? b->p + b->n : NULL, room);
        if ((size_t)n < room) {
            b->n += (size_t)n;
            return 0;
        }
        size_t cap = b->cap ? 2 * b->cap : 65536;
        while (cap - b->n <= (size_t)n) cap *= 2;
        char *g = realloc(b->p, cap);
        if (!g) return b->nomem = 1;
        b->p = g, b->cap = cap;
    }
}

int http_serve_structures(hsrv *s, const http_job *j)
{
    long long r[4];
    if (parse_area(j->area, r) < 0)
        return http_fail(j->fd, 400, "/structures needs area=X0,Z0:X1,Z1: integers within the world, X0 <= X1 and Z0 <= Z1");
    long long chunks = ((r[2] >> 4) - (r[0] >> 4) + 1) * ((r[3] >> 4) - (r[1] >> 4) + 1);
    if (chunks > HTTP_ST_MAX_CHUNKS)
        return http_fail(j->fd, 400, "area %s: %lld chunks (at most %ld an answer: ask in parts)", j->area, chunks, HTTP_ST_MAX_CHUNKS);
    /* structure=ID|#TAG[,ID...] */
    char list[sizeof j->only];
    const char *only[64];
    int nonly = 0, tags = 0;
    snprintf(list, sizeof list, "%s", j->only);
    for (char *p = list, *e; *p && nonly < 64; p = e) {
        e = p + strcspn(p, ",");
        if (*e) *e++ = 0;
        if (*p) only[nonly++] = p, tags |= *p == '#';
    }
    if (j->only[0] && nonly == 0) return http_fail(j->fd, 400, "structure= names no structure (IDs or #TAGs, comma-separated)");
    cf_error err = {0};
    st_slot tmp = {0}, *sl = slot_get(s, j->cfg, j->seed, &tmp, &err);
    if (!sl) return http_fail(j->fd, status_of(err.status), "%s", err.message);
    body b = {0};
    if (tags) pthread_mutex_lock(&s->wmu); /* the tags are read from the pack */
    cf_status st = cf_structures_find(sl->st, (int32_t)r[0], (int32_t)r[1], (int32_t)r[2], (int32_t)r[3], only, nonly, add_line, &b, &err);
    if (tags) pthread_mutex_unlock(&s->wmu);
    slot_put(s, sl, &tmp);
    int code = 200;
    if (st != CF_OK) code = http_fail(j->fd, st == CF_ERR_NOMEM ? 503 : 400, "%s", err.message); /* the ids and tags asked for */
    else if (b.nomem) code = http_fail(j->fd, 503, "out of memory");
    else http_respond(j->fd, 200, "application/x-ndjson", b.p ? b.p : "", b.n);
    free(b.p);
    return code;
}

int http_serve_spawn(hsrv *s, const http_job *j)
{
    cf_error err = {0};
    st_slot tmp = {0}, *sl = slot_get(s, j->cfg, j->seed, &tmp, &err);
    if (!sl) return http_fail(j->fd, status_of(err.status), "%s", err.message);
    cf_spawn sp;
    cf_status st = cf_spawn_find(sl->w, sl->b, sl->version, &sp, &err);
    slot_put(s, sl, &tmp);
    if (st != CF_OK) return http_fail(j->fd, status_of(st), "%s", err.message);
    char line[1024];
    int n = cf_spawn_json(&sp, line, sizeof line);
    http_respond(j->fd, 200, "application/json", line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
    return 200;
}
