/* inspect.c - the commands that look at a pack or the machine rather than fill an area:
 * `check` (device against CPU, block for block), `devices`, `info`, `plan`, `emit` and
 * `nodes`.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char usage_plan[] =
    "usage: chunkfill plan [--pack PATH]... [--settings ID] [--function ID]\n"
    "Prints the fill plan of router:final_density (or --function): node counts by stage\n"
    "(constant, per column, per cell corner, per block, probe), memo and cache classes, and\n"
    "the interpolation cells whose inputs run at cell corners.\n";

const char usage_info[] =
    "usage: chunkfill info [--pack PATH]... [--settings ID] [--function ID]...\n"
    "Compiles the functions (default router:final_density) and prints node counts,\n"
    "axis classes and value ranges after the graph passes.\n";

const char usage_check[] =
    "usage: chunkfill check [--pack PATH]... [--settings ID] --seed SEED --chunks X0,Z0[:X1,Z1]\n"
    "                       [--device opencl[:N]] [--batch N] [--function ID | --blocks [--stage noise|surface]]\n"
    "                       [--quiet]\n"
    "Fills the chunks on the device and on the CPU reference and compares every block bit for\n"
    "bit. Prints the number of differing blocks and the first few (position, both values);\n"
    "exits 0 only when every block is identical. --blocks compares block fills (the palette\n"
    "indices of 'chunkfill fill --blocks') instead of densities; --stage as for fill (default:\n"
    "surface where the settings have a surface stage). On a terminal a progress line\n"
    "shows chunks done of all, chunks/s and the time left; --quiet turns it off.\n";

int cmd_check(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    const char *chunks = NULL, *device = "opencl";
    long batchopt = 0;
    int blocks = 0;
    const char *stage = NULL;
    optdef defs[] = {
        {.name = "--blocks", .flag = &blocks},
        {.name = "--stage", .str = &stage},
        {.name = "--seed", .str = &o.seed, .required = "--seed is required"},
        {.name = "--chunks", .str = &chunks, .required = "--chunks is required"},
        {.name = "--device", .str = &device},
        {.name = "--batch", .num = &batchopt, .lo = 1, .hi = 1L << 20},
        {0},
    };
    int rc0 = parse_cmd(&o, argc, argv, defs, usage_check);
    if (rc0 >= 0) return rc0;
    if (blocks && o.nfunctions) return die_usage("--blocks checks the blocks of router:final_density: no --function", usage_check);
    int stage_surface = 0;
    if (stage && (rc0 = parse_stage(stage, &stage_surface)) >= 0) return rc0;
    if (stage && !blocks) return die_usage("--stage goes with --blocks (the stages of a block fill)", usage_check);
    if ((rc0 = one_function(&o, usage_check)) >= 0) return rc0;
    long r[4];
    int bad_range = chunk_range(chunks, r, usage_check);
    if (bad_range) return bad_range;
    int64_t nx = (int64_t)r[2] - r[0] + 1, n = nx * ((int64_t)r[3] - r[1] + 1);
    if (n > 65536) {
        fprintf(stderr, "chunkfill: --chunks %s: %lld chunks, at most 65536 for a check\n", chunks, (long long)n);
        return 1;
    }
    cf_error err = {0};
    cli_world cw = {0};
    cf_biomes *bio = NULL;
    int32_t *list = NULL;
    unsigned char *a = NULL, *b = NULL;
    int rc = 1, surface = 0;
    if (open_world(&o, blocks, 1, &cw, &err) != CF_OK) goto done;
    surface = blocks && (stage ? strcmp(stage, "surface") == 0 : cf_program_has_surface(cw.pg));
    if (surface && !cf_program_has_surface(cw.pg)) {
        snprintf(err.message, sizeof err.message, "%s: --stage surface: these settings have no surface stage", o.settings);
        err.status = CF_ERR_ARG;
        goto done;
    }
    if (surface && open_biomes(&o, cw.pk, NULL, cw.seed, &bio, &err) != CF_OK) goto done;
    if (surface && !cf_program_surface_on_device(cw.pg)) {
        snprintf(err.message, sizeof err.message, "%s: the surface stage of these settings has no OpenCL form (26.3 material rules "
                 "run on the CPU; --stage noise checks the noise stage)", o.settings);
        err.status = CF_ERR_ARG;
        goto done;
    }
    if (cf_device_open(&cw.dev, device, cw.pg, 0, (size_t)batchopt, &err) != CF_OK) goto done;
    int min_y, height;
    cf_program_settings(cw.pg, &min_y, &height, NULL);
    size_t per = (size_t)height * 256;
    size_t esz = cf_program_precision(cw.pg) == 64 ? sizeof(double) : sizeof(float);
    list = malloc(sizeof(int32_t) * 2 * (size_t)n);
    a = malloc(esz * per * (size_t)n);
    b = malloc(esz * per * (size_t)n);
    if (!list || !a || !b) {
        snprintf(err.message, sizeof err.message, "chunkfill: out of memory");
        err.status = CF_ERR_NOMEM;
        goto done;
    }
    for (int64_t i = 0; i < n; i++) list[2 * i] = (int32_t)(r[0] + i % nx), list[2 * i + 1] = (int32_t)(r[1] + i / nx);
    /* the device and the CPU fill a slice at a time (a device batch, at least 16 chunks), for
     * the progress line */
    {
        size_t step = cf_device_batch(cw.dev) > 16 ? cf_device_batch(cw.dev) : 16;
        cli_progress prog;
        progress_start(&prog, "check", "chunks", n, o.quiet);
        for (size_t at = 0; at < (size_t)n; at += step) {
            size_t k = (size_t)n - at < step ? (size_t)n - at : step;
            cf_status st = surface ? cf_device_fill_blocks_surface(cw.dev, cw.w, bio, k, list + 2 * at, (uint8_t *)a + per * at, &err)
                           : blocks ? cf_device_fill_blocks(cw.dev, cw.w, k, list + 2 * at, (uint8_t *)a + per * at, &err)
                                    : cf_device_fill(cw.dev, cw.w, k, list + 2 * at, a + esz * per * at, &err);
            if (st == CF_OK)
                st = surface ? cf_fill_blocks_surface(cw.w, bio, k, list + 2 * at, (uint8_t *)b + per * at, 0, &err)
                     : blocks ? cf_fill_blocks(cw.w, k, list + 2 * at, (uint8_t *)b + per * at, 0, &err)
                              : cf_fill_chunks(cw.w, 0, k, list + 2 * at, b + esz * per * at, 0, &err);
            if (st != CF_OK) {
                progress_end(&prog);
                goto done;
            }
            progress_show(&prog, (int64_t)(at + k));
        }
        progress_end(&prog);
    }
    size_t diff = 0;
    if (blocks) {
        /* the byte buffers fit in the float ones */
        uint8_t *ba = (uint8_t *)a, *bb = (uint8_t *)b;
        const char *names[CF_PALETTE_MAX];
        int np = cf_block_palette(cw.pg, names);
        for (size_t i = 0; i < per * (size_t)n; i++) {
            if (ba[i] == bb[i]) continue;
            if (diff++ < 10) {
                int64_t c = (int64_t)(i / per);
                size_t k = i % per;
                long bx = (r[0] + (long)(c % nx)) * 16 + (long)(k % 16), bz = (r[1] + (long)(c / nx)) * 16 + (long)(k / 16 % 16);
                printf("differs at x %ld y %d z %ld: device %s, cpu %s\n", bx, min_y + (int)(k / 256), bz,
                       ba[i] < np ? names[ba[i]] : "(not in the palette)", bb[i] < np ? names[bb[i]] : "(not in the palette)");
            }
        }
    }
    for (size_t i = 0; !blocks && i < per * (size_t)n; i++) {
        if (memcmp(a + i * esz, b + i * esz, esz) == 0) continue;
        if (diff++ < 10) {
            size_t c = i / per, k = i % per;
            int bx = list[2 * c] * 16 + (int)(k % 16), by = min_y + (int)(k / 256), bz = list[2 * c + 1] * 16 + (int)(k / 16 % 16);
            if (esz == 4) {
                uint32_t ua, ub; /* the bits, read without breaking aliasing rules */
                float fa, fb;
                memcpy(&ua, a + i * 4, 4), memcpy(&fa, a + i * 4, 4);
                memcpy(&ub, b + i * 4, 4), memcpy(&fb, b + i * 4, 4);
                printf("differs at x %d y %d z %d: device %.9g (0x%08x), cpu %.9g (0x%08x)\n", bx, by, bz, fa, ua, fb, ub);
            } else {
                uint64_t ua, ub;
                double da, db;
                memcpy(&ua, a + i * 8, 8), memcpy(&da, a + i * 8, 8);
                memcpy(&ub, b + i * 8, 8), memcpy(&db, b + i * 8, 8);
                printf("differs at x %d y %d z %d: device %.17g (0x%016llx), cpu %.17g (0x%016llx)\n", bx, by, bz, da,
                       (unsigned long long)ua, db, (unsigned long long)ub);
            }
        }
    }
    double ms[4];
    cf_device_times(cw.dev, ms);
    printf("%s: %lld chunks, %zu blocks, %zu differ (compile %.0f ms%s, kernels %.0f ms, read-back %.0f ms)\n",
           cf_device_name(cw.dev), (long long)n, per * (size_t)n, diff, ms[0], cf_device_cache_hit(cw.dev) ? " from the cache" : "",
           ms[2], ms[3]);
    rc = diff == 0 ? 0 : 1;
done:
    if (err.status != CF_OK) report(&err);
    free(list), free(a), free(b);
    cf_biomes_free(bio);
    close_world(&cw);
    return rc;
}

const char usage_devices[] = "usage: chunkfill devices\nLists the OpenCL devices: opencl:N, name, platform, fp64 support.\n";

int cmd_devices(int argc, char **argv)
{
    opts o = {.refuse = CO_ALL};
    int rc0 = parse_cmd(&o, argc, argv, NULL, usage_devices);
    if (rc0 >= 0) return rc0;
    cf_error err = {0};
    char *s = cf_devices_list(&err);
    if (!s) return report(&err);
    fputs(s, stdout);
    free(s);
    return 0;
}

const char usage_emit[] =
    "usage: chunkfill emit [--pack PATH]... [--settings ID] [--function ID]\n"
    "Writes the OpenCL C program generated for router:final_density (or --function) to\n"
    "standard output. The program does not depend on the seed.\n";

/* info, plan and emit: compile the functions and print what the program says */
enum { PRINT_INFO, PRINT_PLAN, PRINT_EMIT };
static int cmd_print(int argc, char **argv, const char *usage, int what)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    int rc0 = parse_cmd(&o, argc, argv, NULL, usage);
    if (rc0 >= 0) return rc0;
    if (what != PRINT_INFO && o.nfunctions > 1) return die_usage("at most one --function", usage);
    if (o.nfunctions == 0) o.functions[o.nfunctions++] = "router:final_density";
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    char *src = NULL;
    int rc = 1;
    if (open_pack(&o, &pk, &err) != CF_OK) goto done;
    if (cf_program_compile(&pg, pk, o.settings, o.functions, o.nfunctions, &err) != CF_OK) goto done;
    if (what == PRINT_EMIT && !(src = cf_emit_opencl(pg, 0, &err))) goto done;
    fputs(what == PRINT_INFO ? cf_program_describe(pg) : what == PRINT_PLAN ? cf_program_plan(pg) : src, stdout);
    rc = fflush(stdout) == 0 ? 0 : 1;
done:
    if (rc && err.status) report(&err);
    free(src);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

const char usage_nodes[] = "usage: chunkfill nodes\nLists every density function node kind: name, fields, value.\n";

int cmd_nodes(int argc, char **argv)
{
    opts o = {.refuse = CO_ALL};
    int rc0 = parse_cmd(&o, argc, argv, NULL, usage_nodes);
    if (rc0 >= 0) return rc0;
    const char *name, *fields, *summary;
    for (int i = 0; cf_node_kind_info(i, &name, &fields, &summary); i++)
        printf("%-18s %s\n%-18s   %s\n", name, fields[0] ? fields : "(no fields)", "", summary);
    return 0;
}

int cmd_info(int argc, char **argv) { return cmd_print(argc, argv, usage_info, PRINT_INFO); }
int cmd_plan(int argc, char **argv) { return cmd_print(argc, argv, usage_plan, PRINT_PLAN); }
int cmd_emit(int argc, char **argv) { return cmd_print(argc, argv, usage_emit, PRINT_EMIT); }
