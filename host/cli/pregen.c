/* pregen.c - `chunkfill pregen`: options -> cf_pregen_prepare -> cf_pregen_run, with
 * progress on a terminal and SIGTERM/SIGINT finishing the regions in flight.
 *
 * A client of include/chunkfill.h only. Built twice: into `chunkfill` (one process, or
 * one shard of --shard I/N) and, where CMake finds MPI, with CF_MPI into `chunkfill-mpi`
 * (mpirun/srun: rank 0 prepares the folder, then the ranks share the regions, statically
 * or handed out by rank 0). host/pregen/README.md.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef CF_MPI
#include <mpi.h>
#endif

#include "chunkfill.h"
#include "cli.h"



const char usage_pregen[] =
    "usage: chunkfill pregen [--pack PATH]... --seed SEED [--settings ID | --dimension ID] [--dialect 26.3|1.21]\n"
    "                        (--radius R [--center X,Z] [--shape square|circle] | --area X0,Z0:X1,Z1)\n"
    "                        --out DIR\n"
    "                        [--format mca|npy|tiles] [--stage noise|surface] [--layer NAME]\n"
    "                        [--device cpu|opencl[:N]|auto] [--threads N] [--shard I/N]\n"
    "                        [--schedule static|dynamic] [--quiet]\n"
    "Fills every chunk of the area into one output per region of 32 x 32 chunks in DIR: r.X.Z.mca (Anvil\n"
    "region files of proto-chunks at the noise or surface stage, status minecraft:noise or\n"
    "minecraft:surface: blocks, biomes and the world-generation heightmaps, which the game continues\n"
    "generating), r.X.Z.npy (uint8 block palette indices of the region's chunks in the area, shape\n"
    "(n, height, 16, 16), chunks by z then x) or map tiles (LAYER/0/X/Y.png: the region's 256 x 256-block\n"
    "tiles that meet the area, as `chunkfill tiles` draws level 0), and DIR/manifest.json (the\n"
    "parameters, the palettes, the SHA-256 of every finished region). Each file is\n"
    "written to a temporary name and renamed. Rerunning skips the regions whose files match the manifest\n"
    "and makes the rest; a folder made with other parameters is refused, except a smaller area: then the\n"
    "run grows the world (the regions whose chunks stay are kept, the ones on the old edge are made\n"
    "again, the manifest lists the old areas in grown_from). SIGTERM or ^C ends the run once\n"
    "the regions in flight are written (under mpirun, signal the ranks: mpirun itself ends them).\n"
    "To use .mca files in a server: stop it, copy DIR/r.*.mca into its world's region folder, start it:\n"
    "the game generates the rest of each chunk (carvers, features, light) from the stage the files\n"
    "hold. The folder: 26.1 and later, dimensions/minecraft/overworld/region (the_nether, the_end\n"
    "beside it); 1.18-1.21, region/ (DIM-1/region for the nether, DIM1/region for the end).\n"
    "  --area X0,Z0:X1,Z1  block coordinates, inclusive: every chunk the rectangle touches\n"
    "  --radius R          the square of blocks within R of --center X,Z (default 0,0)\n"
    "  --shape S           square (default) or circle: as Chunky's circle, the chunks whose centre\n"
    "                      (16x+8, 16z+8) is closer than R to the centre (regions, counts, the manifest\n"
    "                      and growing follow it)\n"
    "  --settings ID       noise settings (default minecraft:overworld)\n"
    "  --dimension ID      a dimension (data/<ns>/dimension/<path>.json of the packs, or vanilla's\n"
    "                      minecraft:overworld, the_nether, the_end): its settings and biome source\n"
    "  --format F          mca (default), npy or tiles\n"
    "  --stage S           noise or surface (default, as fill --blocks: surface where the settings have\n"
    "                      a surface_rule or material_rule; else noise). Tiles draw the noise stage\n"
    "  --layer NAME        --format tiles: the map layer (default relief; chunkfill tiles --help)\n"
    "  --device D          cpu (default), opencl[:N] (block fills on an OpenCL device, the surface\n"
    "                      stage too, equal to the CPU's byte for byte) or auto (opencl when a device\n"
    "                      passes its probes, else the CPU). Tiles are drawn on the CPU: auto uses the\n"
    "                      CPU there, opencl is refused\n"
    "  --threads N         CPU threads (default: one per CPU)\n"
    "  --shard I/N         do only the regions i with i % N == I (several machines without MPI, e.g. a\n"
    "                      Kubernetes indexed job: --shard $JOB_COMPLETION_INDEX/N)\n"
    "  --schedule S        chunkfill-mpi: static (default: region i to rank i % ranks) or dynamic (rank 0\n"
    "                      hands out regions one at a time and fills none itself)\n"
    "  --quiet             no progress line and no summary line (regions made and already complete)\n"
    HELP_VERSION_AT("         ", "                      ");

static volatile int stop_flag;
static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static int die(const char *msg) { return die_usage(msg, usage_pregen); }

/* "A,B" -> two longs within +-limit; 0 or -1 */
static int parse_pair(const char *s, char sep, long limit, long *a, long *b)
{
    char tmp[128];
    const char *c = strchr(s, sep);
    if (!c || (size_t)(c - s) >= sizeof tmp) return -1;
    memcpy(tmp, s, (size_t)(c - s));
    tmp[c - s] = 0;
    return parse_long(tmp, -limit, limit, a) || parse_long(c + 1, -limit, limit, b) ? -1 : 0;
}

/* the progress line (a terminal only) and what the summary line needs */
typedef struct progress_ctx {
    int on, rank;
    int shown;                 /* a progress line is on the terminal, not yet ended */
    cf_pregen_progress last;   /* the latest report */
    int reported;
    char version_note[400];    /* the game version assumed (pregen.c's note): said after the summary */
} progress_ctx;
/* ends a progress line so that the next message starts on its own line */
static void break_line(progress_ctx *c)
{
    if (c->shown) fputc('\n', stderr), c->shown = 0;
}
static void show_progress(void *ctx, const cf_pregen_progress *p)
{
    progress_ctx *c = ctx;
    c->last = *p, c->reported = 1;
    if (!c->on) return;
    /* the rate of the chunks made here: regions already complete are skipped in no time */
    long long made = p->chunks_done - p->chunks_skipped;
    double rate = p->seconds > 0 && made > 0 ? (double)made / p->seconds : 0;
    double eta = rate > 0 && p->chunks_total > p->chunks_done ? (double)(p->chunks_total - p->chunks_done) / rate : 0;
    char r[64] = "";
    if (rate > 0) snprintf(r, sizeof r, "  %.1f chunks/s  ETA %.0f s", rate, eta);
    fprintf(stderr, "\rpregen%s: regions %ld/%ld  chunks %lld/%lld%s   ", c->rank >= 0 ? " rank 0" : "", p->regions_done,
            p->regions_total, p->chunks_done, p->chunks_total, r);
    c->shown = 1;
    if (p->regions_done == p->regions_total) break_line(c);
}
static void show_note(void *ctx, const char *line)
{
    progress_ctx *c = ctx;
    if (strncmp(line, "pregen: the packs name no game version", 38) == 0) {
        snprintf(c->version_note, sizeof c->version_note, "%s", line);
        return;
    }
    break_line(ctx);
    fprintf(stderr, "chunkfill: %s\n", line);
}
/* the summary line at the end: regions made and already complete, time, rate */
static void summary(const progress_ctx *c, double seconds, int stopped)
{
    const cf_pregen_progress *p = &c->last;
    long long made = p->chunks_done - p->chunks_skipped;
    char rate[64] = "";
    if (made > 0 && seconds > 0) snprintf(rate, sizeof rate, ", %.1f chunks/s", (double)made / seconds);
    fprintf(stderr, "pregen%s: %ld of %ld regions %s (%lld chunks made, %lld already complete), %.2f s%s\n",
            c->rank >= 0 ? " rank 0" : "", p->regions_done,
            p->regions_total, stopped ? "done before the stop" : "done", made, p->chunks_skipped, seconds, rate);
}

#ifdef CF_MPI
enum { TAG_ASK = 1, TAG_DONE = 2, TAG_GIVE = 3 };
static long mpi_next(void *ctx)
{
    (void)ctx;
    long i = 0;
    MPI_Send(&i, 1, MPI_LONG, 0, TAG_ASK, MPI_COMM_WORLD);
    MPI_Recv(&i, 1, MPI_LONG, 0, TAG_GIVE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return i;
}
/* rank 0 of --schedule dynamic: hands out regions 0..n-1 in order, then -1, until every
 * worker has said it is done */
static void mpi_dispatch(long n, int size)
{
    long next = 0;
    int done = 0;
    while (done < size - 1) {
        long v;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_DONE) {
            done++;
            continue;
        }
        long give = next < n && !stop_flag ? next++ : -1;
        MPI_Send(&give, 1, MPI_LONG, st.MPI_SOURCE, TAG_GIVE, MPI_COMM_WORLD);
    }
}
#endif

int cmd_pregen(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.refuse = CO_FUNCTION | CO_EXTERNAL | CO_DEFINE | CO_STRICT | CO_LIMITS;
    const char *area = NULL, *center = "0,0", *out = NULL;
    const char *format = "mca", *stage = NULL, *device = "cpu", *shard = NULL, *schedule = "static";
    const char *dimension = NULL, *layer = NULL, *shape = NULL;
    long radius = -1, threads = 0;

    optdef defs[] = {
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--out", .str = &out, .required = "--out is required"},
        {.name = "--dimension", .str = &dimension},
        {.name = "--layer", .str = &layer},
        {.name = "--area", .str = &area},
        {.name = "--center", .str = &center},
        {.name = "--shape", .str = &shape},
        {.name = "--format", .str = &format},
        {.name = "--stage", .str = &stage},
        {.name = "--device", .str = &device},
        {.name = "--shard", .str = &shard},
        {.name = "--schedule", .str = &schedule},
        {.name = "--radius", .num = &radius, .lo = 0, .hi = 16L * CF_MAX_CHUNK},
        {.name = "--threads", .num = &threads, .lo = 0, .hi = 1024},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_pregen);
    if (rc0 >= 0) return rc0;
    const char *settings = o.settings;
    if (!area == (radius < 0)) return die("give either --area or --radius");
    int stage_surface = 0;
    if (stage && (rc0 = parse_stage(stage, &stage_surface)) >= 0) return rc0;
    if (layer && parse_layer(layer) < 0) return 2;
    if (strcmp(format, "mca") != 0 && strcmp(format, "npy") != 0 && strcmp(format, "tiles") != 0)
        return die("--format takes mca, npy or tiles");
    if (layer && strcmp(format, "tiles") != 0) return die("--layer goes with --format tiles");
    if (settings && dimension) return die("give --settings or --dimension, not both");
    if (strcmp(schedule, "static") != 0 && strcmp(schedule, "dynamic") != 0) return die("--schedule takes static or dynamic");
    int circle = shape && strcmp(shape, "circle") == 0;
    if (shape && !circle && strcmp(shape, "square") != 0) return die("--shape takes square or circle");
    if (circle && area) return die("--shape circle goes with --radius (and --center), not --area");
    long bx0, bz0, bx1, bz1, cx = 0, cz = 0, lim = 16L * CF_MAX_CHUNK;
    if (area) {
        long r[4];
        if ((rc0 = parse_area(area, r)) >= 0) return rc0;
        bx0 = r[0], bz0 = r[1], bx1 = r[2], bz1 = r[3];
    } else {
        if (parse_pair(center, ',', lim, &cx, &cz)) return die("--center takes X,Z (blocks)");
        bx0 = cx - radius, bx1 = cx + radius, bz0 = cz - radius, bz1 = cz + radius;
    }
    long si = 0, sn = 1;
    if (shard) {
        char tmp[64];
        const char *sl = strchr(shard, '/');
        if (!sl || (size_t)(sl - shard) >= sizeof tmp) return die("--shard takes I/N");
        memcpy(tmp, shard, (size_t)(sl - shard));
        tmp[sl - shard] = 0;
        if (parse_long(sl + 1, 1, 1L << 20, &sn) || parse_long(tmp, 0, sn - 1, &si)) return die("--shard takes I/N with 0 <= I < N");
    }

    cf_pregen_params p = {
        .packs = o.packs, .npacks = o.npacks, .version = o.version, .dialect = o.dialect, .seed = o.seed, .settings = settings, .dimension = dimension,
        .x0 = (int32_t)(bx0 >> 4), .z0 = (int32_t)(bz0 >> 4), .x1 = (int32_t)(bx1 >> 4), .z1 = (int32_t)(bz1 >> 4),
        .dir = out, .format = strcmp(format, "npy") == 0 ? CF_PREGEN_NPY : strcmp(format, "tiles") == 0 ? CF_PREGEN_TILES : CF_PREGEN_MCA,
        .stage = !stage ? CF_PREGEN_STAGE_DEFAULT : strcmp(stage, "surface") == 0 ? CF_PREGEN_STAGE_SURFACE : CF_PREGEN_STAGE_NOISE,
        .layer = layer, .device = device, .note = show_note,
        .threads = (int)threads, .rank = (int)si, .nranks = (int)sn, .stop = &stop_flag,
        .shape = circle ? CF_PREGEN_CIRCLE : CF_PREGEN_SQUARE, .center_x = cx, .center_z = cz, .radius = circle ? radius : 0,
    };
    if (p.x0 < -CF_MAX_CHUNK || p.x1 > CF_MAX_CHUNK || p.z0 < -CF_MAX_CHUNK || p.z1 > CF_MAX_CHUNK)
        return die("the area reaches beyond the chunks chunkfill fills (CF_MAX_CHUNK)");
    progress_ctx pc = {.on = !o.quiet && isatty(2), .rank = -1};
    p.progress = show_progress, p.progress_ctx = &pc, p.note_ctx = &pc;
    double t0 = mono_s();
    signal(SIGTERM, on_stop);
    signal(SIGINT, on_stop);

    cf_error err = {0};
    int stopped = 0, rc;
#ifdef CF_MPI
    int rank = 0, size = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    signal(SIGTERM, on_stop); /* again, in case MPI_Init installed its own */
    signal(SIGINT, on_stop);
    if (shard && size > 1) {
        if (rank == 0) fprintf(stderr, "chunkfill: --shard and MPI ranks do not mix: use one or the other\n");
        MPI_Finalize();
        return 2;
    }
    /* rank 0 prepares the folder (creates or checks the manifest, removes temporaries)
     * before any rank starts a region */
    int st = CF_OK;
    if (rank == 0) st = cf_pregen_prepare(&p, &err);
    MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (st != CF_OK) {
        if (rank == 0) fprintf(stderr, "chunkfill: %s\n", err.message);
        MPI_Finalize();
        return 1;
    }
    int dynamic = strcmp(schedule, "dynamic") == 0 && size > 1;
    pc.rank = size > 1 ? 0 : -1;
    pc.on = pc.on && rank == (dynamic ? 1 : 0);
    if (!shard) p.rank = rank, p.nranks = size;
    if (dynamic && rank == 0) {
        mpi_dispatch(cf_pregen_regions(&p), size);
        st = CF_OK;
    } else {
        if (dynamic) p.next_region = mpi_next;
        st = cf_pregen_run(&p, &stopped, &err);
        if (dynamic) {
            long z = 0;
            MPI_Send(&z, 1, MPI_LONG, 0, TAG_DONE, MPI_COMM_WORLD);
        }
    }
    break_line(&pc);
    if (st != CF_OK) fprintf(stderr, "chunkfill: rank %d: %s\n", rank, err.message);
    int bad = st != CF_OK, anybad = 0, anystop = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&stopped, &anystop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    if (anystop && rank == 0) fprintf(stderr, "chunkfill: stopped; the finished regions are in place: rerun to complete\n");
    if (!o.quiet && pc.reported && rank == (dynamic ? 1 : 0)) summary(&pc, mono_s() - t0, anystop);
    rc = anybad || anystop ? 1 : 0;
    return rc;
#else
    if (!shard) {
        const char *n = getenv("OMPI_COMM_WORLD_SIZE");
        if (!n) n = getenv("PMI_SIZE");
        if (n && atoi(n) > 1) {
            fprintf(stderr, "chunkfill: started as one of %s MPI ranks, but this chunkfill is built without MPI: run "
                            "chunkfill-mpi (or give each process --shard I/N)\n", n);
            return 2;
        }
    }
    if (cf_pregen_prepare(&p, &err) != CF_OK || cf_pregen_run(&p, &stopped, &err) != CF_OK) {
        break_line(&pc);
        fprintf(stderr, "chunkfill: %s\n", err.message);
        return 1;
    }
    break_line(&pc);
    if (stopped) fprintf(stderr, "chunkfill: stopped; the finished regions are in place: rerun to complete\n");
    if (!o.quiet) summary(&pc, mono_s() - t0, stopped);
    if (!o.quiet && pc.version_note[0]) fprintf(stderr, "chunkfill: %s\n", pc.version_note);
    rc = stopped ? 1 : 0;
    return rc;
#endif
}
