/* bench_biome.c - speed of the biome stage: the 1:4 biome map of BIOMES.md / issue 18.
 *
 * usage: bench_biome [--pack PATH]... [--settings ID] [--seed N] [--size BLOCKS] [--qy QY]
 *                    [--threads N] [--runs N] [--device opencl[:N]] [--chunks N]
 * Makes the point-path biome map of the square of --size blocks (default 4096, from block
 * 0,0) at one sample per quart, quart y --qy (default 16): (size/4)^2 samples. Runs it
 * --runs times (default 3) on one thread and reports the median microseconds per sample
 * (what cubiomes' genBiomes at scale 4 is compared with), then once on --threads threads
 * (default: all cores). With --device, the same map on the device (after a warm-up run)
 * and a check that it equals the CPU's byte for byte. --chunks N also fills the stored
 * biomes of N chunks (the volume path, vanilla's warm start) and reports chunks/s.
 * Prints one JSON line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chunkfill.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *packs[16], *settings = "minecraft:overworld", *seedtext = "0", *device = NULL;
    int npacks = 0, size = 4096, qy = 16, threads = 0, runs = 3, nchunks = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return fprintf(stderr, "bench_biome: %s needs a value\n", a), 2;
        i++;
        if (strcmp(a, "--pack") == 0 && npacks < 16) packs[npacks++] = v;
        else if (strcmp(a, "--settings") == 0) settings = v;
        else if (strcmp(a, "--seed") == 0) seedtext = v;
        else if (strcmp(a, "--size") == 0) size = atoi(v);
        else if (strcmp(a, "--qy") == 0) qy = atoi(v);
        else if (strcmp(a, "--threads") == 0) threads = atoi(v);
        else if (strcmp(a, "--runs") == 0) runs = atoi(v);
        else if (strcmp(a, "--device") == 0) device = v;
        else if (strcmp(a, "--chunks") == 0) nchunks = atoi(v);
        else return fprintf(stderr, "bench_biome: unknown option %s\n", a), 2;
    }
    if (size < 4 || size > 65536 || runs < 1 || runs > 100) return fprintf(stderr, "bench_biome: bad --size or --runs\n"), 2;
    if (threads <= 0) threads = cf_cpu_count();
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    int64_t seed;
    int n = size / 4;
    size_t cells = (size_t)n * (size_t)n;
    uint8_t *map = malloc(cells), *map2 = malloc(cells);
    double t[100];
    if (!map || !map2) return fprintf(stderr, "bench_biome: out of memory\n"), 1;
    if (cf_seed_parse(seedtext, &seed, &err) != CF_OK || cf_pack_open(&pk, packs, npacks, NULL, &err) != CF_OK ||
        cf_biomes_open(&b, pk, NULL, settings, NULL, seed, &err) != CF_OK)
        return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
    for (int r = 0; r < runs; r++) {
        double t0 = now_s();
        if (cf_biomes_grid(b, 0, 0, n, n, qy, map, 1, &err) != CF_OK) return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
        t[r] = now_s() - t0;
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp);
    double one = t[runs / 2];
    double t0 = now_s();
    if (cf_biomes_grid(b, 0, 0, n, n, qy, map2, threads, &err) != CF_OK) return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
    double all = now_s() - t0;
    int same_threads = memcmp(map, map2, cells) == 0;
    printf("{\"settings\": \"%s\", \"seed\": \"%s\", \"samples\": %zu, \"qy\": %d, \"cpu_1thread_s\": %.3f, \"us_per_sample_1core\": %.3f,"
           " \"cpu_threads\": %d, \"cpu_threads_s\": %.3f, \"threads_equal\": %s",
           settings, seedtext, cells, qy, one, one * 1e6 / (double)cells, threads, all, same_threads ? "true" : "false");
    if (device) {
        cf_biome_device *d;
        int32_t *q = malloc(cells * 3 * sizeof *q);
        if (!q) return fprintf(stderr, "bench_biome: out of memory\n"), 1;
        for (size_t i = 0; i < cells; i++) q[3 * i] = (int32_t)(i % (size_t)n), q[3 * i + 1] = qy, q[3 * i + 2] = (int32_t)(i / (size_t)n);
        double c0 = now_s();
        if (cf_biomes_device_open(&d, device, b, &err) != CF_OK) return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
        double c1 = now_s();
        if (cf_biomes_device_quarts(d, cells, q, map2, &err) != CF_OK) return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
        double c2 = now_s();
        if (cf_biomes_device_quarts(d, cells, q, map2, &err) != CF_OK) return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
        double c3 = now_s();
        printf(", \"device\": \"%s\", \"device_open_s\": %.3f, \"device_first_s\": %.3f, \"device_s\": %.3f, \"device_equal\": %s",
               cf_biomes_device_name(d), c1 - c0, c2 - c1, c3 - c2, memcmp(map, map2, cells) == 0 ? "true" : "false");
        cf_biomes_device_free(d);
        free(q);
    }
    if (nchunks > 0) {
        int miny, height;
        cf_biomes_range(b, &miny, &height);
        int32_t *ch = malloc((size_t)nchunks * 2 * sizeof *ch);
        uint8_t *out = malloc((size_t)nchunks * (size_t)(height / 4) * 16);
        if (!ch || !out) return fprintf(stderr, "bench_biome: out of memory\n"), 1;
        for (int i = 0; i < nchunks; i++) ch[2 * i] = 1000 + 7 * i, ch[2 * i + 1] = -500 + 5 * i;
        double f0 = now_s();
        if (cf_fill_biomes(b, (size_t)nchunks, ch, out, threads, &err) != CF_OK) return fprintf(stderr, "bench_biome: %s\n", err.message), 1;
        double f1 = now_s();
        printf(", \"chunks\": %d, \"chunk_fill_s\": %.3f, \"chunks_per_s\": %.1f", nchunks, f1 - f0, (double)nchunks / (f1 - f0));
        free(ch);
        free(out);
    }
    printf("}\n");
    cf_biomes_free(b);
    cf_pack_free(pk);
    free(map);
    free(map2);
    return 0;
}
