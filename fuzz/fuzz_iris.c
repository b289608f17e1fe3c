/* fuzz_iris.c - libFuzzer harness: the Iris generator front-end (host/frontend/iris/iris.c).
 *
 * The input is the text of one generator file, generators/g.json, alone in an
 * in-memory pack. Compiled with small limits as iris:generator/g (master, the
 * super seed from SeedManager) and as iris:generator/g#super#interpolated
 * (unification); a program that compiles is bound to seed -7, sampled at
 * fractional and far positions, one chunk is filled and its surface compared,
 * then the plan is read and the OpenCL program generated (text only). Not in
 * run.sh's default list (CI time): FUZZ_HARNESSES=iris fuzz/run.sh 180.
 * Every failure must be a clean status with a one-line message (fuzz_common.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

static const int32_t points[4 * 3] = {0, 0, 0, -17, 9, 33, 29999999, 300, -29999999, -30000000, -64, 12345};
static const double fpoints[4 * 3] = {0.5, -0.25, 1e-300, 3e9, -3e9, 12.75, -1073741824.0, 2147483647.5, -0.0,
                                      123.456, 7.0, -8.5};

static void one(const cf_memfile *files, const char *settings, const char *function)
{
    cf_limits lim;
    fuzz_limits(&lim);
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_status st = cf_pack_open_memory(&pk, files, 1, &lim, &err);
    fuzz_check_status("cf_pack_open_memory", st, &err);
    if (st != CF_OK) return;
    const char *fn[] = {function};
    cf_program *pg = NULL;
    memset(&err, 0, sizeof err);
    st = cf_program_compile(&pg, pk, settings, fn, 1, &err);
    fuzz_check_status("cf_program_compile", st, &err);
    FUZZ_CHECK((st == CF_OK) == (pg != NULL), "cf_program_compile: status %s with program %p", cf_status_str(st), (void *)pg);
    cf_pack_free(pk);
    if (!pg) return;
    FUZZ_CHECK(cf_program_precision(pg) == 64, "an Iris program of precision %d", cf_program_precision(pg));
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
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_memfile g[] = {{"generators/g.json", data, size}};
    one(g, "iris:master", "iris:generator/g");
    one(g, "iris:unification", "iris:generator/g#super#interpolated");
    return 0;
}
