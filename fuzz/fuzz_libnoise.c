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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_memfile files[] = {{"libnoise/t.json", data, size}};
    cf_pack *pk = fuzz_open(files, 1);
    if (!pk) return 0;
    cf_program *pg = fuzz_compile(pk, "minecraft:overworld", "router:final_density");
    if (!pg) pg = fuzz_compile(pk, "libnoise:t", "libnoise:t");
    cf_pack_free(pk); /* "the program keeps what it needs; the pack may be freed after" */
    if (!pg) return 0;
    fuzz_exercise_f64(pg, "a libnoise program");
    return 0;
}
