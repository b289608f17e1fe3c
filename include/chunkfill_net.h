/* chunkfill_net.h - the offload server and its C client (host/net/PROTOCOL.md).
 *
 * Server: cf_serve() loads packs, compiles one program per configuration,
 * listens on TCP and/or Unix sockets and answers fill requests until SIGTERM or
 * SIGINT. Client: cf_client_* speaks the protocol over one connection, one
 * request at a time (blocking). Errors as everywhere: one line in cf_error.
 *
 *   cf_client *c;
 *   cf_client_connect(&c, "127.0.0.1:7878", NULL, &err);
 *   cf_client_fill(c, "minecraft:overworld", seed, CF_KIND_DENSITY_F32, n, xz, out, &err);
 *   cf_client_close(c);
 */
#ifndef CHUNKFILL_NET_H
#define CHUNKFILL_NET_H

#include <stdio.h>

#include "chunkfill.h"

#ifdef __cplusplus
extern "C" {
#endif

/* output kinds (the protocol's codes): a value per block of each chunk */
enum {
    CF_KIND_DENSITY_F32 = 1, /* float32 density (26.3 dialect) */
    CF_KIND_DENSITY_F64 = 2, /* float64 density (the 1.18-1.21 dialects) */
    CF_KIND_BLOCKS_U8 = 3,   /* uint8 palette indices of the noise stage's blocks (cf_fill_blocks) */
    CF_KIND_BIOMES_U8 = 4,   /* uint8 biome palette indices per quart cell, [chunk][qy][qz][qx] (cf_fill_biomes) */
    CF_KIND_COLUMNS = 5,     /* column records at a stride (cf_map_columns_get): cf_client_columns */
    /* the client's name for BLOCKS_U8 at the surface stage (on the wire: kind 3, stage 1; protocol
     * version 2): the blocks after the surface stage (cf_fill_blocks_surface), the same palette;
     * cf_client_has_surface tells whether a configuration offers it */
    CF_KIND_BLOCKS_SURFACE_U8 = 0x103
};

typedef struct cf_serve_opts {
    const char *const *packs; /* pack folders (none: the embedded default pack) */
    int npacks;
    cf_limits limits;
    const char *const *settings; /* one configuration per noise settings id, named by it */
    int nsettings;               /* 0: minecraft:overworld */
    const char *function;        /* NULL: router:final_density */
    const char *const *listen;   /* "HOST:PORT", "[V6]:PORT" or "unix:PATH" */
    int nlisten;
    int allow_remote;            /* permit non-loopback TCP addresses (needs token) */
    const char *token;           /* shared secret checked in the handshake, or NULL */
    const char *device;          /* cpu, opencl, opencl:N or auto (default) */
    int threads;                 /* CPU fill threads, <= 0: one per core */
    int batch;                   /* chunks per launch, 0: from the device (CPU: 16 per thread) */
    int max_chunks;              /* chunks per request */
    int max_frame;               /* bytes of a client frame's payload */
    int max_pending;             /* unfinished chunks per connection before reading stops */
    int queue_chunks;            /* queued chunks, all connections, before reading stops */
    int max_conns;
    int max_output_mb;           /* unsent responses per connection before it gets no more batches (16) */
    int world_cache;             /* seeds kept bound (LRU) per server */
    int read_timeout_ms;         /* a started frame (or the hello) must complete within this */
    int write_timeout_ms;        /* a client that reads nothing for this long is dropped */
    int deadline_ms;             /* per-request deadline when the request gives 0 */
    int drain_ms;                /* on SIGTERM: time to finish in-flight work */
    int verbose;                 /* log every request */
    int biomes;                  /* offer BIOMES_U8 (each settings id's vanilla biome source; host/net/PROTOCOL.md) */
    FILE *ready;                 /* "listening on ADDR" lines (stdout when NULL) */
    int strict;                  /* cf_pack_set_strict of the packs (--strict) */
    const char *const *defines;  /* "TYPE=VALUE" or "TYPE[FIELD=TEXT]=VALUE" each: cf_pack_define (--define) */
    int ndefines;
    const char *version;         /* NULL, or the game version (cf_pack_set_game_version) */
} cf_serve_opts;
void cf_serve_defaults(cf_serve_opts *o);

/* Runs the server until SIGTERM or SIGINT (it installs handlers for those and
 * ignores SIGPIPE). Logs one line per event on stderr. Returns CF_OK after a
 * clean shutdown, or an error (start-up failure) with err set. */
cf_status cf_serve(const cf_serve_opts *o, cf_error *err);

/* ------------------------------------------------------------------ maps over HTTP
 * `chunkfill serve --http`: the map viewer at /, tiles /L/Z/X/Y.png?seed=S[&settings=ID]
 * (as `chunkfill tiles` writes them) rendered on demand into a bounded disk cache (a
 * tile that several requests want is computed once), and /at?x=X&z=Z&seed=S[&settings=ID]
 * -> {"height": H, "block": B, "biome": M, "fluid": F} (cf_map_column_biomes; biome null
 * where the settings have no biome source). Loopback addresses only; a Host header other than
 * localhost or a loopback address is refused (DNS rebinding). HTTP/1.0-style: one request per
 * connection, GET only. Heads are read by an event loop, so slow clients hold no worker; the
 * viewer, /at and cached tiles are answered by `workers`, tiles are drawn by `dear_workers`
 * and stop when every client that wants them has gone (docs/robustness.md: every limit). */
typedef struct cf_http_opts {
    const char *const *packs; /* pack folders (none: the embedded default pack) */
    int npacks;
    cf_limits limits;
    const char *const *settings; /* the settings ids served (the first is the default) */
    int nsettings;               /* 0: minecraft:overworld */
    const char *listen;          /* "127.0.0.1:PORT" (port 0: any free port) */
    const char *cache_dir;       /* tiles cache folder (NULL: a fresh folder under TMPDIR, removed at exit) */
    long cache_mb;               /* cache bound in MiB (default 256) */
    int workers;                 /* viewer, /at and cached tiles answered at once (default 4) */
    int max_conns;               /* connections, and requests, at once (default 1024) */
    int threads;                 /* fill threads per tile (default 0: one per core) */
    int read_timeout_ms;         /* a request's head must arrive within this (default 5000) */
    int dear_workers;            /* tiles drawn at once (default 2) */
    int tile_timeout_ms;         /* the work of one tile, at most (default 120000; 503 beyond) */
    int drain_ms;                /* SIGTERM: time for the tiles being drawn (default 10000) */
    int max_zoom;                /* highest level served (default 16) */
    FILE *ready;                 /* "listening on http://ADDR/" line (stdout when NULL) */
    const char *version;         /* NULL, or the game version (cf_pack_set_game_version) */
    const char *device;          /* NULL: tiles on the CPU; "opencl[:N]": on that device (cf_map_device_open, one per
                                  * settings, opened before the server listens), byte for byte the CPU's tiles */
} cf_http_opts;
void cf_http_defaults(cf_http_opts *o);
/* Serves until SIGTERM or SIGINT. Logs one line per request on stderr. Returns CF_OK
 * after a clean shutdown, or a start-up error with err set. */
cf_status cf_http_serve(const cf_http_opts *o, cf_error *err);

/* ------------------------------------------------------------------ client */
typedef struct cf_client cf_client;

/* Connects to addr ("HOST:PORT", "[V6]:PORT", "unix:PATH") and shakes hands
 * (token may be NULL). CF_ERR_IO for network and protocol failures, CF_ERR_ARG
 * for a refused handshake (version, token). Free with cf_client_close. */
cf_status cf_client_connect(cf_client **out, const char *addr, const char *token, cf_error *err);
void cf_client_close(cf_client *c);

/* The server's configurations: name i (NULL past the last), with min_y, height
 * and precision (32 or 64). */
const char *cf_client_config(const cf_client *c, int i, int *min_y, int *height, int *precision);
/* The palette of configuration `config`'s BLOCKS_U8 values: names[0..n) (at most
 * CF_PALETTE_MAX, valid while the client is open); 0 when it offers no block fills. */
int cf_client_palette(const cf_client *c, const char *config, const char **names);
/* The biome palette of configuration `config`'s BIOMES_U8 values: names[0..n) (at most
 * CF_BIOME_PALETTE_MAX, valid while the client is open); 0 when it offers no biomes. */
int cf_client_biome_palette(const cf_client *c, const char *config, const char **names);
/* limits announced by the server */
int cf_client_max_chunks(const cf_client *c);
/* 1 when configuration `config` offers CF_KIND_BLOCKS_SURFACE_U8 (flag bit 2 of its record) */
int cf_client_has_surface(const cf_client *c, const char *config);

/* Fills n chunks (xz pairs) of configuration config at seed into out, laid out
 * as cf_fill_chunks does ([chunk][y][z][x], values of the kind's size; BIOMES_U8 as
 * cf_fill_biomes: height/4 * 16 bytes a chunk). Splits
 * requests larger than the server's max_chunks. A server error frame gives
 * CF_ERR_ARG (bad request), CF_ERR_LIMIT (deadline, busy, too large) or
 * CF_ERR_DEVICE (the fill failed, shutdown); cf_client_error_code tells the
 * protocol code. deadline_ms 0: the server's default. */
cf_status cf_client_fill(cf_client *c, const char *config, int64_t seed, int kind, size_t n, const int32_t *chunks,
                         void *out, cf_error *err);
/* Columns for far-terrain (LOD) renderers (kind COLUMNS, offered by a configuration that offers
 * both BLOCKS_U8 and BIOMES_U8: `serve --biomes`): per cell (X, Z) of cells (n pairs) the 16 x 16
 * columns (X*16*stride + i*stride, Z*16*stride + k*stride), out[c*256 + k*16 + i], each what
 * cf_map_columns_get gives (block and fluid: cf_client_palette indices, biome:
 * cf_client_biome_palette's). stride 1..4096 (1: the columns of chunk (X, Z)). */
typedef struct cf_client_column {
    int32_t height, fluid_top;
    uint8_t block, fluid, biome;
} cf_client_column;
cf_status cf_client_columns(cf_client *c, const char *config, int64_t seed, int stride, size_t n, const int32_t *cells,
                            cf_client_column *out, cf_error *err);
void cf_client_set_deadline(cf_client *c, uint32_t deadline_ms);
int cf_client_error_code(const cf_client *c);

typedef struct cf_client_stats {
    uint32_t queue_chunks, queue_requests, connections;
    uint64_t requests, chunks, launches, errors;
    double uptime_s, chunks_per_s;
    char device[256];
} cf_client_stats;
cf_status cf_client_stats_get(cf_client *c, cf_client_stats *st, cf_error *err);
/* round trip of a PING; returns its time in milliseconds in *ms */
cf_status cf_client_ping(cf_client *c, double *ms, cf_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CHUNKFILL_NET_H */
