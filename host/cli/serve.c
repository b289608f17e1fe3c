/* serve.c - `chunkfill serve`: the offload server over TCP or a Unix socket
 * (host/net/PROTOCOL.md) and, with --http, the map server (viewer, tiles, /at).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunkfill_net.h"
#include "cli.h"

const char usage_serve[] =
    "usage: chunkfill serve [--pack PATH]... [--settings ID]... [--function ID]\n"
    "                       --listen HOST:PORT|[V6]:PORT|unix:PATH [--listen ...]\n"
    "                       [--device cpu|opencl[:N]|auto] [--token-file F [--allow-remote]] [limits]\n"
    "Answers fill requests (protocol: host/net/PROTOCOL.md) until SIGTERM or SIGINT. Prints one line\n"
    "'listening on ADDR' per address on standard output when ready (port 0: the port the\n"
    "system chose) and one line per event on standard error. Exit 0 after a clean shutdown.\n"
    "  --settings ID      a configuration (named by its noise settings id); repeat for several,\n"
    "                     all over the same --pack layers (default minecraft:overworld)\n"
    "  --function ID      the filled function (default router:final_density)\n"
    "  --listen ADDR      TCP address (loopback only unless --allow-remote) or unix:PATH\n"
    "                     (created with mode 0600, removed at exit; must not exist)\n"
    "  --token-file F     shared secret (first line of F) every client must send in its hello\n"
    "  --allow-remote     permit non-loopback TCP addresses (requires --token-file)\n"
    "  --device DEV       cpu, opencl, opencl:N or auto (default: opencl when a device passes\n"
    "                     the exactness probes, else the CPU reference, said at start)\n"
    "  --threads N        CPU fill threads (default: all cores)\n"
    "  --batch N          chunks per launch (default: the device's batch; CPU: 16 per thread)\n"
    "  --max-chunks N     chunks per request (default 4096)\n"
    "  --max-frame N      bytes of a client frame's payload (default 65536, at most 1048576)\n"
    "  --max-pending N    unfinished chunks per connection before the server stops reading it\n"
    "                     (default 8192)\n"
    "  --queue-chunks N   queued chunks, all connections, before reading stops (default 65536)\n"
    "  --max-connections N  (default 256; more get an error frame 'busy')\n"
    "  --max-output-mb N  unsent responses per connection (MiB) before its requests wait and\n"
    "                     the server stops reading it (default 16)\n"
    "  --world-cache N    seeds kept bound, least recently used dropped (default 8)\n"
    "  --read-timeout-ms N   a started frame (or the hello) must complete within N ms (10000)\n"
    "  --write-timeout-ms N  drop a client that reads nothing for N ms (60000)\n"
    "  --deadline-ms N    per-request deadline when the request sets none (60000)\n"
    "  --drain-ms N       on SIGTERM, time to finish in-flight work before cancelling (10000)\n"
    "  --verbose          log every request\n"
    "  --biomes           also offer BIOMES_U8 (each settings id's vanilla biome source; PROTOCOL.md)\n"
    "  plus the limits of 'chunkfill sample --help', --strict and --define\n"
    HELP_VERSION_AT("        ", "                     ")
    "chunkfill serve --http 127.0.0.1:PORT serves maps over HTTP instead: the viewer, tiles and /at\n"
    "(its options, --cache, --workers, ...: 'chunkfill serve --http --help').\n";

/* repeatable --settings: every configuration the server offers */
static const char **serve_settings;
static int serve_nsettings;
static int settings_option(opts *o, const char *v)
{
    (void)o;
    serve_settings[serve_nsettings++] = v;
    return 0;
}

static const char *serve_listen[8];
static int serve_nlisten;
static int listen_option(opts *o, const char *v)
{
    (void)o;
    if (serve_nlisten == 8) return die_usage("at most 8 --listen addresses", usage_serve);
    serve_listen[serve_nlisten++] = v;
    return 0;
}

const char usage_serve_http[] =
    "usage: chunkfill serve --http 127.0.0.1:PORT [--pack PATH]... [--settings ID]...\n"
    "                       [--cache DIR] [--cache-mb N] [--workers N] [--threads N] [--max-zoom Z]\n"
    "                       [--dear-workers N] [--max-connections N] [--read-timeout-ms N]\n"
    "                       [--tile-timeout-ms N] [--drain-ms N] [--device cpu|opencl[:N]]\n"
    "Serves maps over HTTP (loopback only): the viewer at /, tiles /LAYER/Z/X/Y.png?seed=S\n"
    "[&dimension=ID][&settings=ID][&below=Y] exactly as `chunkfill tiles` writes them, drawn on\n"
    "demand into a disk cache of at most --cache-mb MiB (default 256; default folder: a fresh one\n"
    "under TMPDIR, removed at exit), and /at?x=X&z=Z&seed=S[&dimension=ID][&below=Y] ->\n"
    "{\"height\", \"block\", \"biome\", \"fluid\"} (height as render --heights [--below Y]; block:\n"
    "the block there after the surface stage, the noise stage's where the settings have none, as\n"
    "`chunkfill columns`; fluid: the aquifer's fluid above it; biome: the biome at the surface\n"
    "block, as `chunkfill biome --at X,HEIGHT,Z`; null where the settings have no biome source).\n"
    "Without --settings it draws the packs' dimensions (the game's overworld, nether and end where\n"
    "the packs hold them, and data/minecraft/dimension files), listed at /dimensions; /legend?seed=S\n"
    "[&dimension=ID] gives the biomes layer's colours; /structures?seed=S&area=X0,Z0:X1,Z1\n"
    "[&structure=ID|#TAG,...][&dimension=ID] the lines of `chunkfill structures` (at most 2^20\n"
    "chunks an answer) and /spawn?seed=S the line of `chunkfill spawn` (the viewer's structures\n"
    "box draws them). Request heads are read by an event loop\n"
    "(--read-timeout-ms each, default 5000: 408); --workers answer the viewer, /at and cached\n"
    "tiles (default 4), --dear-workers draw tiles (default 2; a tile stops when every client\n"
    "that wants it has gone, or after --tile-timeout-ms, default 120000: 503);\n"
    "--max-connections connections and requests at once (default 1024; beyond, the slowest\n"
    "unfinished head is closed, and requests get 503 with Retry-After). A Host header other\n"
    "than localhost or a loopback address is refused (403). SIGINT or SIGTERM: tiles being\n"
    "drawn get --drain-ms (default 10000), then stop. One log line per request on stderr\n"
    "(docs/robustness.md lists every limit). --device opencl[:N] draws the tiles on an OpenCL\n"
    "device (one per settings, opened before the server listens), byte for byte the CPU's tiles\n"
    "(as `chunkfill tiles --device`); /at stays on the CPU.\n"
    HELP_VERSION;

static int cmd_serve_http(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    cf_http_opts ho;
    cf_http_defaults(&ho);
    const char **settings = calloc((size_t)argc + 1, sizeof *settings);
    if (!settings) return fprintf(stderr, "chunkfill: out of memory\n"), 1;
    serve_settings = settings, serve_nsettings = 0;
    const char *addr = NULL, *cache = NULL, *device = NULL;
    long cache_mb = ho.cache_mb, workers = ho.workers, threads = 0, max_zoom = ho.max_zoom, conns = ho.max_conns,
         rto = ho.read_timeout_ms, dear = ho.dear_workers, tto = ho.tile_timeout_ms, drain = ho.drain_ms;
    optdef defs[] = {
        {.name = "--http", .str = &addr, .required = "--http is required"},
        {.name = "--settings", .fn = settings_option},
        {.name = "--cache", .str = &cache},
        {.name = "--cache-mb", .num = &cache_mb, .lo = 1, .hi = 1L << 20},
        {.name = "--workers", .num = &workers, .lo = 1, .hi = 256},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {.name = "--max-zoom", .num = &max_zoom, .lo = 0, .hi = 20},
        {.name = "--max-connections", .num = &conns, .lo = 1, .hi = 65536},
        {.name = "--read-timeout-ms", .num = &rto, .lo = 1, .hi = 86400000},
        {.name = "--dear-workers", .num = &dear, .lo = 1, .hi = 256},
        {.name = "--tile-timeout-ms", .num = &tto, .lo = 1, .hi = 86400000},
        {.name = "--drain-ms", .num = &drain, .lo = 0, .hi = 86400000},
        {.name = "--device", .str = &device},
        {0},
    };
    int rc = parse_cmd(&o, argc, argv, defs, usage_serve_http);
    int ns = serve_nsettings;
    cf_error err = {0};
    if (rc < 0) rc = parse_map_device(&device);
    if (rc < 0) {
        ho.device = device;
        ho.packs = o.packs, ho.npacks = o.npacks, ho.limits = o.lim, ho.version = o.version;
        ho.settings = settings, ho.nsettings = ns;
        ho.listen = addr, ho.cache_dir = cache, ho.cache_mb = cache_mb, ho.workers = (int)workers;
        ho.threads = (int)threads, ho.max_zoom = (int)max_zoom, ho.max_conns = (int)conns, ho.read_timeout_ms = (int)rto;
        ho.dear_workers = (int)dear, ho.tile_timeout_ms = (int)tto, ho.drain_ms = (int)drain;
        rc = cf_http_serve(&ho, &err) == CF_OK ? 0 : report(&err);
    }
    free(settings);
    return rc;
}

int cmd_serve(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--http") == 0 || strncmp(argv[i], "--http=", 7) == 0) {
            cli_command_name = "serve --http";
            return cmd_serve_http(argc, argv);
        }
    opts o = {0};
    cf_limits_default(&o.lim);
    cf_serve_opts so;
    cf_serve_defaults(&so);
    const char **settings = calloc((size_t)argc + 1, sizeof *settings);
    if (!settings) return fprintf(stderr, "chunkfill: out of memory\n"), 1;
    serve_settings = settings, serve_nsettings = 0;
    int allow_remote = 0, verbose = 0, biomes = 0;
    const char *token_file = NULL, *device = "auto";
    long threads = 0, batch = 0, max_chunks = so.max_chunks, max_frame = so.max_frame, max_pending = so.max_pending,
         queue = so.queue_chunks, conns = so.max_conns, outmb = so.max_output_mb, wcache = so.world_cache, rto = so.read_timeout_ms,
         wto = so.write_timeout_ms, dl = so.deadline_ms, drain = so.drain_ms;
    optdef defs[] = {
        {.name = "--listen", .fn = listen_option, .required = "--listen is required"},
        {.name = "--settings", .fn = settings_option},
        {.name = "--allow-remote", .flag = &allow_remote},
        {.name = "--verbose", .flag = &verbose},
        {.name = "--biomes", .flag = &biomes},
        {.name = "--token-file", .str = &token_file},
        {.name = "--device", .str = &device},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {.name = "--batch", .num = &batch, .lo = 1, .hi = 1L << 16},
        {.name = "--max-chunks", .num = &max_chunks, .lo = 1, .hi = 100000},
        {.name = "--max-frame", .num = &max_frame, .lo = 64, .hi = 1L << 20},
        {.name = "--max-pending", .num = &max_pending, .lo = 1, .hi = 1L << 24},
        {.name = "--queue-chunks", .num = &queue, .lo = 1, .hi = 1L << 24},
        {.name = "--max-connections", .num = &conns, .lo = 1, .hi = 65536},
        {.name = "--max-output-mb", .num = &outmb, .lo = 1, .hi = 65536},
        {.name = "--world-cache", .num = &wcache, .lo = 1, .hi = 1024},
        {.name = "--read-timeout-ms", .num = &rto, .lo = 1, .hi = 86400000},
        {.name = "--write-timeout-ms", .num = &wto, .lo = 1, .hi = 86400000},
        {.name = "--deadline-ms", .num = &dl, .lo = 1, .hi = 86400000},
        {.name = "--drain-ms", .num = &drain, .lo = 0, .hi = 86400000},
        {0},
    };
    int rc = parse_cmd(&o, argc, argv, defs, usage_serve);
    so.allow_remote = allow_remote, so.verbose = verbose, so.biomes = biomes;
    int ns = serve_nsettings;
    if (rc < 0 && o.nfunctions > 1) rc = die_usage("at most one --function", usage_serve);
    if (rc < 0 && so.allow_remote && !token_file) rc = die_usage("--allow-remote requires --token-file", usage_serve);
    char token[CF_TOKEN_MAX + 1];
    cf_error err = {0};
    if (rc < 0 && token_file && read_token(token_file, token, &err) != 0) rc = report(&err);
    if (rc < 0) {
        so.packs = o.packs, so.npacks = o.npacks, so.limits = o.lim, so.version = o.version;
        so.settings = settings, so.nsettings = ns;
        so.function = o.nfunctions ? o.functions[0] : NULL;
        so.listen = serve_listen, so.nlisten = serve_nlisten;
        so.token = token_file ? token : NULL;
        so.device = device;
        so.threads = (int)threads, so.batch = (int)batch, so.max_chunks = (int)max_chunks, so.max_frame = (int)max_frame;
        so.max_pending = (int)max_pending, so.queue_chunks = (int)queue, so.max_conns = (int)conns, so.max_output_mb = (int)outmb;
        so.world_cache = (int)wcache, so.read_timeout_ms = (int)rto, so.write_timeout_ms = (int)wto;
        so.deadline_ms = (int)dl, so.drain_ms = (int)drain;
        so.ready = stdout;
        so.strict = o.strict, so.defines = o.defs, so.ndefines = o.ndefs;
        rc = cf_serve(&so, &err) == CF_OK ? 0 : report(&err);
    }
    memset(token, 0, sizeof token);
    free(settings);
    return rc;
}
