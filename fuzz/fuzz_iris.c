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

static void one(const cf_memfile *files, const char *settings, const char *function)
{
    cf_pack *pk = fuzz_open(files, 1);
    if (!pk) return;
    cf_program *pg = fuzz_compile(pk, settings, function);
    cf_pack_free(pk);
    if (!pg) return;
    fuzz_exercise_f64(pg, "an Iris program");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_memfile g[] = {{"generators/g.json", data, size}};
    one(g, "iris:master", "iris:generator/g");
    one(g, "iris:unification", "iris:generator/g#super#interpolated");
    return 0;
}
