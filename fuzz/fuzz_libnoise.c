/* fuzz_libnoise.c - libFuzzer harness: the libnoise front-end.
 *
 * The input is the text of one libnoise file, libnoise/t.json, alone in an
 * in-memory pack. Compiled with small limits (1 MiB files, 20000 nodes, depth
 * 200) as the default request (a pack of one libnoise file needs no settings:
 * its terrain or density) and, when that fails for want of one, as the module
 * named by "output" (libnoise:t); a program that compiles is bound to seed -7,
 * sampled at integer and at fractional and far (+-3e9) positions, one chunk is
 * filled and its surface compared with cf_surface_heights; then the plan is read
 * and the OpenCL program generated (text only).
 * Every failure must be a clean status with a one-line message (fuzz_common.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

static const int32_t points[4 * 3] = {0, 0, 0, -17, 9, 33, 29999999, 300, -29999999, -30000000, -64, 12345};
static const double fpoints[4 * 3] = {0.5, -0.25, 1e-300, 3e9, -3e9, 12.75, -1073741824.0, 2147483647.5, -0.0,
                                      123.456, 7.0, -8.5};

static cf_program *compile(cf_pack *pk, const char *settings, const char *function)
{
    const char *fn[] = {function};
    cf_program *pg = NULL;
    cf_error err = {0};
    cf_status st = cf_program_compile(&pg, pk, settings, fn, 1, &err);
    fuzz_check_status("cf_program_compile", st, &err);
    FUZZ_CHECK((st == CF_OK) == (pg != NULL), "cf_program_compile: status %s with program %p", cf_status_str(st),
               (void *)pg);
    return pg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_memfile files[] = {{"libnoise/t.json", data, size}};
    cf_limits lim;
    fuzz_limits(&lim);
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_status st = cf_pack_open_memory(&pk, files, 1, &lim, &err);
    fuzz_check_status("cf_pack_open_memory", st, &err);
    if (st != CF_OK) return 0;
    cf_program *pg = compile(pk, "minecraft:overworld", "router:final_density");
    if (!pg) pg = compile(pk, "libnoise:t", "libnoise:t");
    cf_pack_free(pk); /* "the program keeps what it needs; the pack may be freed after" */
    if (!pg) return 0;
    FUZZ_CHECK(cf_program_precision(pg) == 64, "a libnoise program of precision %d", cf_program_precision(pg));

    cf_world *w = NULL;
    memset(&err, 0, sizeof err);
    st = cf_world_new(&w, pg, -7, &err);
    fuzz_check_status("cf_world_new", st, &err);
    if (st == CF_OK) {
        double v[4];
        memset(&err, 0, sizeof err);
        st = cf_sample_f64(w, 0, 4, fpoints, v, &err);
        fuzz_check_status("cf_sample_f64", st, &err);
        fuzz_exercise_output(w, pg, 0, points, 4, -3, 2, 1);
    }
    cf_world_free(w);
    fuzz_exercise_program(pg, 0);
    cf_program_free(pg);
    return 0;
}
