/* http.h - internal to `serve --http`: the request head and its parts (http_head.c, pure
 * functions of the bytes received, which fuzz/fuzz_http.c runs), shared with the server
 * (http.c: connections and the event loop; http_work.c: the answers, the tile cache and
 * the worker pools). */
#ifndef CF_NET_HTTP_H
#define CF_NET_HTTP_H
#include <stddef.h>

#define HTTP_HEAD_MAX 8192   /* a request head's bytes, the empty line included (431 beyond) */
#define HTTP_TARGET_MAX 2048 /* a request target's bytes (414 beyond) */

typedef struct http_head {
    char method[16];
    char path[HTTP_TARGET_MAX + 1];  /* the target up to '?', as sent (no decoding) */
    char query[HTTP_TARGET_MAX + 1]; /* after '?' ("" without) */
    char host[256];                  /* the Host header's value ("" without one) */
    int has_host;
    char log[256]; /* the target in printable ASCII, for the log */
} http_head;

/* the length of the head in h[0..n): up to and with the empty line that ends it; 0 while
 * it has not ended. */
size_t http_head_end(const char *h, size_t n);

/* parses a complete head h[0..n) (n from http_head_end); returns 0, or the status to answer
 * (400, 405, 414, 431, 505) with *why one line saying what was wrong. A NUL or a control
 * byte anywhere, a bare CR, a folded or nameless header line, a second Host, a target not
 * in origin form or with bytes outside visible ASCII ('#' included) are 400. */
int http_head_parse(const char *h, size_t n, http_head *out, const char **why);

/* 1 when a Host value names this server: "localhost", a 127.x.x.x address, [::1] or
 * listen_host (the literal it listens on), each with or without a port; 0 otherwise
 * (another name reaching a loopback port is DNS rebinding). An empty value is allowed
 * (HTTP/1.0 clients send none). */
int http_host_ok(const char *host, const char *listen_host);

typedef struct http_query {
    char seed[256], settings[256], dimension[256], x[32], z[32], below[32];
    int has_seed, has_settings, has_dimension, has_x, has_z, has_below;
    char area[80], structure[1024]; /* /structures */
    int has_area, has_structure;
} http_query;

/* the query's known parameters (percent-decoded; others are ignored); -1 with *why when a
 * parameter has no '=', repeats, has a bad escape, a NUL or is too long */
int http_query_parse(const char *q, http_query *out, const char **why);

/* a decimal integer in [lo, hi]: an optional '-' (only where lo < 0), then 1-11 digits;
 * no '+', spaces or leading text; -1 otherwise */
int http_int(const char *s, long long lo, long long hi, long long *v);

/* a tile path "/LAYER/Z/X/Y.png": LAYER of [a-z0-9_] (1-63), Z of 1-2 digits, X and Y
 * integers as http_int takes them (in [-2^31, 2^31)); -1 when the path is not one */
int http_tile_path(const char *path, char *layer, size_t lcap, int *z, long long *x, long long *y);

/* ------------------------------------------------------------------ the server (http.c, http_work.c) */
#include <pthread.h>
#include <stdint.h>

#include "chunkfill_net.h"

#define HTTP_MAX_SETTINGS 16

typedef struct http_job http_job;

/* a tile of the cache: queued for a dear worker, being drawn, ready (a file in the cache
 * folder) or failed (removed once its waiters have their answer) */
enum { ENT_QUEUED, ENT_COMPUTING, ENT_READY };
typedef struct http_entry {
    char key[192];
    char file[64]; /* name inside the cache folder */
    size_t bytes;
    uint64_t used; /* last use (the server's clock) */
    int state;
    int layer, z, cfg;
    int32_t below; /* the map's y to search down from (below=) */
    long long tx, ty;
    int64_t seed;
    double deadline;    /* ENT_COMPUTING: the work bound (--tile-timeout-ms) ends then */
    http_job *waiters;  /* ENT_QUEUED, ENT_COMPUTING: the requests that want it */
    struct http_entry *next, *qnext; /* the cache list; the dear queue */
} http_entry;

/* one request whose head was read: answered by a worker, then handed back to the event
 * loop to be closed (http_done) */
enum { JOB_VIEWER, JOB_AT, JOB_FILE, JOB_TILE, JOB_DIMENSIONS, JOB_LEGEND, JOB_STRUCTURES, JOB_SPAWN };
struct http_job {
    http_job *next;
    int fd;
    int kind;
    int file;   /* JOB_FILE: the cached tile, open */
    int cfg;
    int64_t seed;
    long long x, z; /* JOB_AT */
    int32_t below;  /* JOB_AT, JOB_TILE: below= (INT32_MAX without) */
    char area[80], only[1024]; /* JOB_STRUCTURES: area= and structure= */
    const char *how; /* the log's word: cache, computed, joined */
    double t0;
    char log[256];
};

typedef struct http_world {
    int cfg;
    int64_t seed;
    cf_world *w;
    cf_biomes *b; /* the settings' biome source for the seed (NULL where it could not be opened) */
    int refs;
    uint64_t used;
} http_world;

typedef struct hsrv {
    const cf_http_opts *o;
    cf_pack *pk; /* the packs (biome sources are opened from them, under wmu) */
    cf_program *prog[HTTP_MAX_SETTINGS];
    cf_map_device *mdev[HTTP_MAX_SETTINGS]; /* --device: each configuration's map device (NULL: the CPU) */
    const char *names[HTTP_MAX_SETTINGS]; /* each configuration's settings id */
    const char *dims[HTTP_MAX_SETTINGS];  /* and the dimension it draws (NULL: served by --settings) */
    char idbuf[HTTP_MAX_SETTINGS][2][256]; /* the discovered dimensions' ids and settings ids */
    int nprog;
    char cache[4096];
    int own_cache;
    int lfd;
    char lhost[256]; /* the listening address as a Host header names it */
    int wake[2];     /* a byte: a connection to close came back, or stop */
    pthread_mutex_t mu; /* the queues, the cache, the jobs, the closing list */
    pthread_cond_t cheap_cv, dear_cv;
    http_job *cheap_head, *cheap_tail; /* the cheap queue: the viewer, /at, cached tiles */
    http_entry *dear_head, *dear_tail; /* the dear queue: tiles to draw */
    int njobs;     /* requests read and not yet answered */
    int *closing;  /* answered connections for the event loop to close (shut down for writing) */
    int nclosing, closing_cap;
    int stopping;  /* SIGTERM: set by the event loop (atomic reads elsewhere) */
    int running;   /* workers not yet ended (atomic) */
    double drain_end;
    http_entry *ents;
    size_t cache_bytes;
    uint64_t clock, serial;
    pthread_mutex_t wmu; /* the worlds */
    http_world *worlds;
    int nworlds;
    struct http_stcache *stc; /* http_structures.c: structure handles per (configuration, seed) */
} hsrv;

double http_now(void);
/* the answer: the status line, Content-Type, Content-Length, Connection: close (and
 * Retry-After: 1 for 503), then the body; blocking (the socket's send timeout bounds it) */
void http_respond(int fd, int code, const char *type, const void *body, size_t n);
/* a one-line text answer; returns code */
int http_fail(int fd, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a job answered: logged, its connection handed to the event loop to close; freed */
void http_done(hsrv *s, http_job *j, int code);
/* the request of a complete head on fd (the event loop's): answered at once (errors), or
 * queued as a job; returns 1 when fd now belongs to a job */
int http_route(hsrv *s, int fd, const char *head, size_t n);
void *http_cheap_worker(void *arg);
void *http_dear_worker(void *arg);
void http_free_worlds(hsrv *s);
/* http_structures.c: /structures and /spawn (cheap workers); the handles freed at the end */
int http_serve_structures(hsrv *s, const http_job *j);
int http_serve_spawn(hsrv *s, const http_job *j);
void http_free_structures(hsrv *s);
#endif
