/* serve_load.c - load generator for `chunkfill serve` (bench/serve.sh): C clients
 * threads, each sending R requests of 1..M chunks (random chunks of a 64 x 64 area,
 * one seed) one after another through the C client; prints requests, chunks,
 * wall time, chunks/s, p50/p99 request latency and the server's launch count.
 *
 *   bench_serve ADDR CONFIG CLIENTS REQUESTS MAXCHUNKS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chunkfill_net.h"

typedef struct job {
    const char *addr, *config;
    int index, requests, maxc, height, errors;
    long long chunks;
    double *lat;
} job;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *run(void *arg)
{
    job *j = arg;
    cf_error err = {0};
    cf_client *c;
    if (cf_client_connect(&c, j->addr, NULL, &err) != CF_OK) {
        fprintf(stderr, "bench_serve: %s\n", err.message);
        j->errors = j->requests;
        return NULL;
    }
    float *buf = malloc(sizeof(float) * (size_t)j->height * 256 * (size_t)j->maxc);
    int32_t *xz = malloc(sizeof(int32_t) * 2 * (size_t)j->maxc);
    unsigned rng = 12345u + 7919u * (unsigned)j->index;
    for (int q = 0; q < j->requests && buf && xz; q++) {
        rng = rng * 1664525u + 1013904223u;
        int n = 1 + (int)((rng >> 8) % (unsigned)j->maxc);
        for (int i = 0; i < 2 * n; i++) {
            rng = rng * 1664525u + 1013904223u;
            xz[i] = (int32_t)((rng >> 10) % 64) - 32;
        }
        double t0 = now_s();
        if (cf_client_fill(c, j->config, 42, CF_KIND_DENSITY_F32, (size_t)n, xz, buf, &err) != CF_OK) {
            fprintf(stderr, "bench_serve: %s\n", err.message);
            j->errors++;
            continue;
        }
        j->lat[q] = (now_s() - t0) * 1e3;
        j->chunks += n;
    }
    free(buf);
    free(xz);
    cf_client_close(c);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench_serve ADDR CONFIG CLIENTS REQUESTS MAXCHUNKS\n");
        return 2;
    }
    int nc = atoi(argv[3]), nr = atoi(argv[4]), maxc = atoi(argv[5]);
    if (nc < 1 || nc > 1024 || nr < 1 || maxc < 1) return fprintf(stderr, "bench_serve: bad numbers\n"), 2;
    cf_error err = {0};
    cf_client *c;
    if (cf_client_connect(&c, argv[1], NULL, &err) != CF_OK) return fprintf(stderr, "bench_serve: %s\n", err.message), 1;
    int height = 0;
    for (int i = 0; cf_client_config(c, i, NULL, NULL, NULL); i++)
        if (strcmp(cf_client_config(c, i, NULL, &height, NULL), argv[2]) == 0) break;
    if (height <= 0) return fprintf(stderr, "bench_serve: no configuration %s\n", argv[2]), 1;
    cf_client_stats s0, s1;
    cf_client_stats_get(c, &s0, &err);
    job *jobs = calloc((size_t)nc, sizeof *jobs);
    pthread_t *th = calloc((size_t)nc, sizeof *th);
    double *lat = calloc((size_t)nc * (size_t)nr, sizeof(double));
    if (!jobs || !th || !lat) return 1;
    double t0 = now_s();
    for (int i = 0; i < nc; i++) {
        jobs[i] = (job){.addr = argv[1], .config = argv[2], .index = i, .requests = nr, .maxc = maxc, .height = height,
                        .lat = lat + (size_t)i * (size_t)nr};
        pthread_create(&th[i], NULL, run, &jobs[i]);
    }
    long long chunks = 0;
    int errors = 0;
    for (int i = 0; i < nc; i++) {
        pthread_join(th[i], NULL);
        chunks += jobs[i].chunks;
        errors += jobs[i].errors;
    }
    double t = now_s() - t0;
    cf_client_stats_get(c, &s1, &err);
    cf_client_close(c);
    size_t n = (size_t)nc * (size_t)nr;
    qsort(lat, n, sizeof(double), cmp);
    printf("%s: %d clients x %d requests (1-%d chunks): %lld chunks in %.2f s = %.0f chunks/s, %.0f requests/s, "
           "latency p50 %.2f ms p99 %.2f ms, %llu launches (%.1f requests per launch), %d errors\n",
           s1.device, nc, nr, maxc, chunks, t, (double)chunks / t, (double)n / t, lat[n / 2], lat[n * 99 / 100],
           (unsigned long long)(s1.launches - s0.launches), (double)n / (double)(s1.launches - s0.launches), errors);
    free(jobs), free(th), free(lat);
    return errors ? 1 : 0;
}
