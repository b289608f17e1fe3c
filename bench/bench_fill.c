/* bench_fill.c - chunk fill speed of the CPU reference.
 *
 * usage: bench_fill [--pack PATH]... [--settings ID] [--seed N] [--chunks N] [--warmup N] [--threads N]
 *                   [--device opencl[:N]] [--batch N] [--output density|blocks]
 * Fills the same chunks as the oracle's `bench` mode (chunk i at (1000+7i, -500+5i),
 * the first --warmup not counted) one at a time on one thread and reports the
 * median, min and max ms per chunk (and the median CPU time of the thread); then fills them all at once on --threads
 * threads (default: all cores) and reports chunks/s. With --device, fills the
 * chunks (after one warm-up batch of the same size) on the device and reports
 * chunks/s with the time split into compile, upload, kernels and read-back, and
 * the CPU's all-threads figure from the same run for the ratio. Prints one JSON line.
 * --output blocks: the program is compiled for block fills and every figure is
 * given twice, density fills and block fills (final density + the aquifer) of the
 * same chunks in the same run, with the bytes each moves to the host per chunk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chunkfill.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
/* this thread's CPU time (user + system): steadier than the wall clock on a shared machine */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *packs[16];
    int npacks = 0, nchunks = 20, warm = 3, threads = 0;
    const char *settings = "minecraft:overworld", *seedtext = "0", *device = NULL;
    long batch = 0;
    int blocks = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--pack") && npacks < 16) packs[npacks++] = argv[i + 1];
        else if (!strcmp(argv[i], "--settings")) settings = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) seedtext = argv[i + 1];
        else if (!strcmp(argv[i], "--chunks")) nchunks = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--warmup")) warm = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--device")) device = argv[i + 1];
        else if (!strcmp(argv[i], "--batch")) batch = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--output")) blocks = !strcmp(argv[i + 1], "blocks");
        else return fprintf(stderr, "bench_fill: unknown option %s\n", argv[i]), 2;
    }
    if (nchunks < 1 || warm < 0) return fprintf(stderr, "bench_fill: bad counts\n"), 2;
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    int64_t seed;
    double t0 = now_ms();
    if (cf_seed_parse(seedtext, &seed, &err) || cf_pack_open(&pk, packs, npacks, NULL, &err)) goto fail;
    const char *fn[1] = {"router:final_density"};
    if (blocks ? cf_program_compile_blocks(&pg, pk, settings, &err) : cf_program_compile(&pg, pk, settings, fn, 1, &err))
        goto fail;
    double t1 = now_ms();
    if (cf_world_new(&w, pg, seed, &err)) goto fail;
    double t2 = now_ms();
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    if (device) {
        cf_device *dev;
        double a0 = now_ms();
        if (cf_device_open(&dev, device, pg, 0, (size_t)batch, &err)) goto fail;
        double a1 = now_ms();
        int32_t *c = malloc(sizeof(int32_t) * 4 * (size_t)nchunks);
        for (int i = 0; i < 2 * nchunks; i++) c[2 * i] = 1000 + 7 * i, c[2 * i + 1] = -500 + 5 * i;
        double *out = malloc(sizeof(double) * (size_t)height * 256 * (size_t)nchunks); /* room for a double dialect */
        /* warm-up: the first launch of each kernel pays for driver-side compilation */
        if (cf_device_fill(dev, w, (size_t)nchunks, c + 2 * nchunks, out, &err)) goto fail;
        double t[4], u[4];
        cf_device_times(dev, t);
        double b0 = now_ms();
        if (cf_device_fill(dev, w, (size_t)nchunks, c, out, &err)) goto fail;
        double b1 = now_ms();
        cf_device_times(dev, u);
        int nt = threads > 0 ? threads : cf_cpu_count();
        double c0 = now_ms();
        if (cf_fill_chunks(w, 0, (size_t)nchunks, c, out, nt, &err)) goto fail;
        double c1 = now_ms();
        double gps = nchunks / ((b1 - b0) / 1e3), cps = nchunks / ((c1 - c0) / 1e3);
        printf("{\"settings\": \"%s\", \"device\": \"%s\", \"chunks\": %d, \"batch\": %zu, \"open_ms\": %.0f,"
               " \"program_from_cache\": %d, \"device_chunks_per_s\": %.1f, \"upload_ms\": %.2f, \"kernels_ms\": %.1f,"
               " \"read_ms\": %.1f, \"cpu_threads\": %d, \"cpu_chunks_per_s\": %.1f, \"device_over_cpu\": %.3f}\n",
               settings, cf_device_name(dev), nchunks, cf_device_batch(dev), a1 - a0, cf_device_cache_hit(dev), gps,
               u[1] - t[1], u[2] - t[2], u[3] - t[3], nt, cps, gps / cps);
        if (blocks) {
            uint8_t *bo = malloc((size_t)height * 256 * (size_t)nchunks);
            if (cf_device_fill_blocks(dev, w, (size_t)nchunks, c + 2 * nchunks, bo, &err)) goto fail;
            cf_device_times(dev, t);
            double d0 = now_ms();
            if (cf_device_fill_blocks(dev, w, (size_t)nchunks, c, bo, &err)) goto fail;
            double d1 = now_ms();
            cf_device_times(dev, u);
            double e0 = now_ms();
            if (cf_fill_blocks(w, (size_t)nchunks, c, bo, nt, &err)) goto fail;
            double e1 = now_ms();
            double bgps = nchunks / ((d1 - d0) / 1e3), bcps = nchunks / ((e1 - e0) / 1e3);
            printf("{\"settings\": \"%s\", \"output\": \"blocks\", \"device_chunks_per_s\": %.1f, \"kernels_ms\": %.1f,"
                   " \"read_ms\": %.1f, \"bytes_to_host_per_chunk\": %d, \"cpu_chunks_per_s\": %.1f, \"device_over_cpu\": %.3f,"
                   " \"density_bytes_to_host_per_chunk\": %d}\n",
                   settings, bgps, u[2] - t[2], u[3] - t[3], height * 256, bcps, bgps / bcps, height * 256 * 4);
            free(bo);
        }
        cf_device_free(dev);
        return 0;
    }
    int total = warm + nchunks;
    int32_t *c = malloc(sizeof(int32_t) * 2 * (size_t)total);
    for (int i = 0; i < total; i++) c[2 * i] = 1000 + 7 * i, c[2 * i + 1] = -500 + 5 * i;
    void *out = malloc(sizeof(double) * (size_t)height * 256 * (size_t)total); /* room for a double dialect */
    int f64 = cf_program_precision(pg) == 64;
    double *ms = malloc(sizeof(double) * (size_t)nchunks), *cms = malloc(sizeof(double) * (size_t)nchunks);
    double sum = 0;
    for (int i = 0; i < total; i++) {
        double a = now_ms(), ca = cpu_ms();
        if (cf_fill_chunks(w, 0, 1, c + 2 * i, out, 1, &err)) goto fail;
        double b = now_ms(), cb = cpu_ms();
        if (i >= warm) ms[i - warm] = b - a, cms[i - warm] = cb - ca;
        sum += f64 ? ((const double *)out)[1000] : (double)((const float *)out)[1000];
    }
    qsort(ms, (size_t)nchunks, sizeof *ms, cmp);
    qsort(cms, (size_t)nchunks, sizeof *cms, cmp);
    double med = nchunks % 2 ? ms[nchunks / 2] : (ms[nchunks / 2 - 1] + ms[nchunks / 2]) / 2;
    double cmed = nchunks % 2 ? cms[nchunks / 2] : (cms[nchunks / 2 - 1] + cms[nchunks / 2]) / 2;
    int nt = threads > 0 ? threads : cf_cpu_count();
    double a = now_ms();
    if (cf_fill_chunks(w, 0, (size_t)total, c, out, nt, &err)) goto fail;
    double b = now_ms();
    if (blocks) {
        /* the same chunks as block fills: one at a time on one thread, then all threads */
        uint8_t *bo = malloc((size_t)height * 256 * (size_t)total);
        double *bms = malloc(sizeof(double) * (size_t)nchunks);
        for (int i = 0; i < total; i++) {
            double x0 = now_ms();
            if (cf_fill_blocks(w, 1, c + 2 * i, bo, 1, &err)) goto fail;
            double x1 = now_ms();
            if (i >= warm) bms[i - warm] = x1 - x0;
        }
        qsort(bms, (size_t)nchunks, sizeof *bms, cmp);
        double bmed = nchunks % 2 ? bms[nchunks / 2] : (bms[nchunks / 2 - 1] + bms[nchunks / 2]) / 2;
        double x0 = now_ms();
        if (cf_fill_blocks(w, (size_t)total, c, bo, nt, &err)) goto fail;
        double x1 = now_ms();
        printf("{\"settings\": \"%s\", \"output\": \"blocks\", \"chunks\": %d, \"blocks_ms_per_chunk_1_thread\": {\"median\": %.3f,"
               " \"min\": %.3f, \"max\": %.3f}, \"density_ms_per_chunk_1_thread_median\": %.3f, \"blocks_over_density\": %.3f,"
               " \"threads\": %d, \"blocks_chunks_per_s_all_threads\": %.1f}\n",
               settings, nchunks, bmed, bms[0], bms[nchunks - 1], med, bmed / med, nt, total / ((x1 - x0) / 1e3));
        free(bo), free(bms);
    }
    printf("{\"settings\": \"%s\", \"seed\": \"%s\", \"chunks\": %d, \"compile_ms\": %.1f, \"bind_seed_ms\": %.2f,"
           " \"ms_per_chunk_1_thread\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, \"cpu_ms_per_chunk_1_thread\": %.3f,"
           " \"threads\": %d, \"chunks_per_s_all_threads\": %.1f, \"checksum\": %.6g}\n",
           settings, seedtext, nchunks, t1 - t0, t2 - t1, med, ms[0], ms[nchunks - 1], cmed, nt, total / ((b - a) / 1e3), sum);
    return 0;
fail:
    fprintf(stderr, "bench_fill: %s\n", err.message);
    return 1;
}
