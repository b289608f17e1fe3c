/* serve.h - internal to `chunkfill serve` (the offload server): its connections, requests,
 * configurations and the server, shared by serve.c (requests, frames, the dispatcher that
 * fills batches) and serve_io.c (sockets, the I/O thread, start-up and shutdown). */
#ifndef CF_NET_SERVE_H
#define CF_NET_SERVE_H
#include <pthread.h>
#include <stdint.h>
#include <sys/un.h>

#include "chunkfill_net.h"
#include "net/proto.h"

#define MAX_LISTEN 8
#define MAX_CONFIGS 16


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

/* serve.c */
double serve_now_s(void);
/* one line on standard error, written at once (lines of concurrent events never interleave) */
void serve_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int serve_set_nonblock(int fd);
void serve_put_error(cfp_buf *b, uint32_t id, int code, const char *msg);
/* an error frame to c (fatal codes close it after the frame); mu held */
void serve_send_error(server *s, conn *c, uint32_t id, int code, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void serve_conn_drop_requests(server *s, conn *c);
void serve_conn_free(conn *c);
void serve_req_stop(server *s, request *r, int code);
void *serve_dispatch(void *arg);
void serve_on_frame(server *s, conn *c, unsigned type, const uint8_t *p, size_t len);
#endif
