/* fuzz_pack.c - libFuzzer harness: the JSON/pack loader and the graph compiler.
 *
 * The input is the text of one density function file, t:f, in an in-memory pack
 * (cf_pack_open_memory) that also holds fixed files: noise settings t:s (height
 * 16, min_y 0, final_density -> t:f), two noises (t:n and minecraft:m, so that a
 * bare id resolves) and a helper density function t:g (a noise; the seed corpus
 * points references there). router:final_density is compiled with small limits
 * (1 MiB files, 20000 nodes, depth 200); a program that compiles is bound to seed
 * 1, sampled at 4 points, one chunk is filled and its surface compared with
 * cf_surface_heights; then the plan is read and the OpenCL program generated
 * (text only).
 * Every failure must be a clean status with a one-line message (fuzz_common.h).
 * Build: fuzz/build.sh. Run: fuzz/out/fuzz_pack CORPUS_DIR (see fuzz/run.sh).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

static const char settings_json[] =
    "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"sea_level\": 8, \"legacy_random_source\": false,\n"
    " \"noise_router\": {\"final_density\": \"t:f\"}}\n";
static const char noise_n_json[] = "{\"base_amplitude\": 1.0, \"base_octave\": -4, \"octave_count\": 3}\n";
static const char noise_m_json[] =
    "{\"base_amplitude\": 0.75, \"base_octave\": -6, \"octave_count\": 3, \"amplitude_modifiers\": [1.0, 0.0, 2.0],"
    " \"normalize\": \"legacy\"}\n";
static const char helper_g_json[] =
    "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1.0, \"y_scale\": 0.5}\n";

/* inside the vanilla world border (+-30,000,000), below, inside and above the 16 rows */
static const int32_t points[4 * 3] = {0, 0, 0, -17, 9, 33, 29999999, 300, -29999999, -30000000, -64, 12345};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_memfile files[] = {
        {"data/t/worldgen/noise_settings/s.json", settings_json, sizeof settings_json - 1},
        {"data/t/worldgen/noise/n.json", noise_n_json, sizeof noise_n_json - 1},
        {"data/minecraft/worldgen/noise/m.json", noise_m_json, sizeof noise_m_json - 1},
        {"data/t/worldgen/density_function/g.json", helper_g_json, sizeof helper_g_json - 1},
        {"data/t/worldgen/density_function/f.json", data, size},
    };
    cf_pack *pk = fuzz_open(files, sizeof files / sizeof files[0]);
    if (!pk) return 0;
    cf_error err = {0};
    cf_status st;

    const char *fn[] = {"router:final_density"};
    cf_program *pg = NULL;
    memset(&err, 0, sizeof err);
    st = cf_program_compile(&pg, pk, "t:s", fn, 1, &err);
    fuzz_check_status("cf_program_compile", st, &err);
    FUZZ_CHECK((st == CF_OK) == (pg != NULL), "cf_program_compile: status %s with program %p", cf_status_str(st),
               (void *)pg);
    cf_pack_free(pk); /* "the program keeps what it needs; the pack may be freed after" */
    if (st != CF_OK) return 0;

    int min_y = -1, height = -1;
    cf_program_settings(pg, &min_y, &height, NULL);
    FUZZ_CHECK(min_y == 0 && height == 16, "settings read back as min_y %d, height %d", min_y, height);

    cf_world *w = NULL;
    memset(&err, 0, sizeof err);
    st = cf_world_new(&w, pg, 1, &err);
    fuzz_check_status("cf_world_new", st, &err);
    if (st == CF_OK) fuzz_exercise_output(w, pg, 0, points, 4, -3, 2, 1);
    cf_world_free(w);
    fuzz_exercise_program(pg, 0);
    cf_program_free(pg);
    return 0;
}
