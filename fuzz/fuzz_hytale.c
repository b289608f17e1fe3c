/* fuzz_hytale.c - libFuzzer harness: the Hytale front-end (host/frontend/hytale/).
 *
 * The input is the text of one V2 density file, hytale/Density/Terrain.json, alone
 * in an in-memory pack (with the external inputs hytale.base_height.Base, hytale.anchor.x/y/z
 * and a 2-D map hytale.distance_to_biome_edge set), and
 * the same text as a legacy noise asset hytale/Noise/t.json. Compiled with small
 * limits as the default request (Terrain) and as hytale:noise/t; a program that
 * compiles is bound to seed -7, sampled at integer, fractional and far positions,
 * one chunk is filled and its surface compared, then the plan is read and the
 * OpenCL program generated (text only). In run.sh's default list; alone:
 * FUZZ_HARNESSES=hytale fuzz/run.sh 180.
 * Every failure must be a clean status with a one-line message (fuzz_common.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

static void one(const cf_memfile *files, const char *function)
{
    cf_pack *pk = fuzz_open(files, 1);
    if (!pk) return;
    cf_error err = {0};
    cf_status st = cf_pack_set_external(pk, "hytale.base_height.Base", 100, &err);
    fuzz_check_status("cf_pack_set_external", st, &err);
    static const char *const anchor[3] = {"hytale.anchor.x", "hytale.anchor.y", "hytale.anchor.z"};
    for (int k = 0; k < 3; k++) {
        st = cf_pack_set_external(pk, anchor[k], 3.5 * k - 2, &err);
        fuzz_check_status("cf_pack_set_external", st, &err);
    }
    static const double map[3 * 2] = {0, 1.5, -2, 40, 7, -0.25};
    st = cf_pack_set_external_map(pk, "hytale.distance_to_biome_edge", 3, 2, -20, -8, 16, map, &err);
    fuzz_check_status("cf_pack_set_external_map", st, &err);
    cf_program *pg = fuzz_compile(pk, "minecraft:overworld", function);
    cf_pack_free(pk);
    if (!pg) return;
    fuzz_exercise_f64(pg, "a Hytale program");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_memfile v2[] = {{"hytale/Density/Terrain.json", data, size}};
    one(v2, "router:final_density");
    cf_memfile v1[] = {{"hytale/Noise/t.json", data, size}};
    one(v1, "hytale:noise/t");
    return 0;
}
