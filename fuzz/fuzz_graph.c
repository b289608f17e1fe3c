/* fuzz_graph.c - libFuzzer harness: the graph compiler on a structured pack.
 *
 * The input is split at 0x00 bytes into up to 12 pieces, the files of an
 * in-memory pack, so that references between files, cycles, shared subgraphs
 * and noises get exercised:
 *   pieces 0..7  density functions t:f0 .. t:f7 (data/t/worldgen/density_function/fK.json;
 *                an empty or missing piece: no such file)
 *   pieces 8, 9  noises t:n0, t:n1 (empty or missing: a fixed noise)
 *   piece 10     the noise_router object of the settings t:s (empty or missing:
 *                {"final_density": "t:f0", "continents": "t:f1"})
 *   piece 11     configuration bytes (missing: 0), the rest of the input:
 *                [0] bit 0 legacy_random_source, bit 1 height 32 (else 16),
 *                    bits 2-3 min_y: 0, -64, -2032 (the lowest), 2032 - height (the highest)
 *                [1] extra outputs: bit 0 t:f1, bit 1 noise:t:n0, bit 2 router:continents;
 *                    bit 3: a block-fill program (the settings get "aquifers" whose six
 *                    functions are t:f2 .. t:f7; one chunk is filled with blocks);
 *                    bits 4-7 which output is filled
 *                [2] seed (one of 8), [3] bits 0-1 the chunk: 0,0 / -1,-1 / near the
 *                    world border / CF_MAX_CHUNK,-CF_MAX_CHUNK (the documented extreme)
 * Limits and checks as fuzz_pack.c: a compiled program is bound to the seed, every
 * output sampled at 4 points, one output filled for one chunk and its surface
 * compared with cf_surface_heights, and its OpenCL program generated (text only).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

enum { NPIECES = 12 };

static const char noise0_json[] = "{\"base_amplitude\": 1.0, \"base_octave\": -4, \"octave_count\": 3}";
static const char noise1_json[] = "{\"base_amplitude\": 0.75, \"base_octave\": -6, \"octave_count\": 3,"
                                  " \"amplitude_modifiers\": [1.0, 0.0, 2.0], \"normalize\": \"legacy\"}";
static const char router_json[] = "{\"final_density\": \"t:f0\", \"continents\": \"t:f1\"}";
static const char *const df_paths[8] = {
    "data/t/worldgen/density_function/f0.json", "data/t/worldgen/density_function/f1.json",
    "data/t/worldgen/density_function/f2.json", "data/t/worldgen/density_function/f3.json",
    "data/t/worldgen/density_function/f4.json", "data/t/worldgen/density_function/f5.json",
    "data/t/worldgen/density_function/f6.json", "data/t/worldgen/density_function/f7.json",
};
static const int64_t seeds[8] = {1, 0, -1, INT64_MIN, INT64_MAX, 0x5DEECE66DLL, 123456789, -987654321};
static const int32_t chunks[4][2] = {{0, 0}, {-1, -1}, {1874999, -1875000}, {CF_MAX_CHUNK, -CF_MAX_CHUNK}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *piece[NPIECES] = {0};
    size_t plen[NPIECES] = {0};
    int np = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size && np < NPIECES; i++) {
        if (i == size || (data[i] == 0 && np < NPIECES - 1)) {
            piece[np] = data + start;
            plen[np] = i - start;
            np++;
            start = i + 1;
        }
    }
    const uint8_t *cfg = np > 11 ? piece[11] : NULL;
    size_t ncfg = np > 11 ? plen[11] : 0;
    uint8_t c0 = ncfg > 0 ? cfg[0] : 0, c1 = ncfg > 1 ? cfg[1] : 0, c2 = ncfg > 2 ? cfg[2] : 0,
            c3 = ncfg > 3 ? cfg[3] : 0;

    int height = (c0 & 2) ? 32 : 16;
    static const int min_ys[4] = {0, -64, -2032, 0};
    int min_y = (c0 >> 2 & 3) == 3 ? 2032 - height : min_ys[c0 >> 2 & 3];

    /* the settings file, with the router text from the input */
    const char *router = np > 10 && plen[10] ? (const char *)piece[10] : router_json;
    size_t rlen = np > 10 && plen[10] ? plen[10] : sizeof router_json - 1;
    size_t slen = 512 + rlen;
    char *settings = malloc(slen);
    FUZZ_CHECK(settings != NULL, "out of memory in the harness");
    int hl = snprintf(settings, slen,
                      "{\"noise\": {\"min_y\": %d, \"height\": %d}, \"sea_level\": %d, \"legacy_random_source\": %s,"
                      "%s \"noise_router\": ",
                      min_y, height, min_y + height / 2, (c0 & 1) ? "true" : "false",
                      (c1 & 8) ? " \"aquifers\": {\"barrier\": \"t:f2\", \"fluid_level_floodedness\": \"t:f3\","
                                 " \"fluid_level_spread\": \"t:f4\", \"lava\": \"t:f5\", \"exclusion\": \"t:f6\","
                                 " \"surface_level\": \"t:f7\"}," : "");
    memcpy(settings + hl, router, rlen);
    memcpy(settings + hl + rlen, "}", 2);

    cf_memfile files[NPIECES];
    size_t nf = 0;
    files[nf++] = (cf_memfile){"data/t/worldgen/noise_settings/s.json", settings, strlen(settings)};
    files[nf++] = np > 8 && plen[8] ? (cf_memfile){"data/t/worldgen/noise/n0.json", piece[8], plen[8]}
                                    : (cf_memfile){"data/t/worldgen/noise/n0.json", noise0_json, sizeof noise0_json - 1};
    files[nf++] = np > 9 && plen[9] ? (cf_memfile){"data/t/worldgen/noise/n1.json", piece[9], plen[9]}
                                    : (cf_memfile){"data/t/worldgen/noise/n1.json", noise1_json, sizeof noise1_json - 1};
    for (int k = 0; k < 8 && k < np; k++)
        if (plen[k]) files[nf++] = (cf_memfile){df_paths[k], piece[k], plen[k]};

    cf_pack *pk = fuzz_open(files, nf);
    free(settings); /* the pack holds a copy */
    if (!pk) return 0;
    cf_error err = {0};
    cf_status st;

    const char *fn[4];
    int nfn = 0;
    fn[nfn++] = "router:final_density";
    if (c1 & 1) fn[nfn++] = "t:f1";
    if (c1 & 2) fn[nfn++] = "noise:t:n0";
    if (c1 & 4) fn[nfn++] = "router:continents";
    cf_program *pg = NULL;
    memset(&err, 0, sizeof err);
    int blocks = (c1 & 8) != 0;
    if (blocks) nfn = 1; /* a block-fill program: final_density and the aquifer */
    st = blocks ? cf_program_compile_blocks(&pg, pk, "t:s", &err) : cf_program_compile(&pg, pk, "t:s", fn, nfn, &err);
    fuzz_check_status("cf_program_compile", st, &err);
    FUZZ_CHECK((st == CF_OK) == (pg != NULL), "cf_program_compile: status %s with program %p", cf_status_str(st),
               (void *)pg);
    cf_pack_free(pk); /* "the program keeps what it needs; the pack may be freed after" */
    if (st != CF_OK) return 0;

    int my = 0, h = 0;
    cf_program_settings(pg, &my, &h, NULL);
    FUZZ_CHECK(my == min_y && h == height, "settings read back as min_y %d, height %d (written %d, %d)", my, h, min_y,
               height);
    int filled = (c1 >> 4) % nfn;
    int32_t cx = chunks[c3 & 3][0], cz = chunks[c3 & 3][1];
    const int32_t pts[4 * 3] = {
        cx * 16 + 5, min_y + 3, cz * 16 + 11, cx * 16, min_y + height - 1, cz * 16 + 15, 0, 0, 0, -30000000, 100,
        29999999,
    };
    cf_world *w = NULL;
    memset(&err, 0, sizeof err);
    st = cf_world_new(&w, pg, seeds[c2 & 7], &err);
    fuzz_check_status("cf_world_new", st, &err);
    if (st == CF_OK)
        for (int k = 0; k < nfn; k++) fuzz_exercise_output(w, pg, k, pts, 4, cx, cz, k == filled);
    if (st == CF_OK && blocks) {
        /* one chunk of blocks: every byte a palette index */
        const char *names[CF_PALETTE_MAX];
        int np = cf_block_palette(pg, names);
        uint8_t *b = malloc((size_t)height * 256);
        FUZZ_CHECK(b != NULL, "out of memory in the harness");
        int32_t c[2] = {cx, cz};
        memset(&err, 0, sizeof err);
        cf_status bs = cf_fill_blocks(w, 1, c, b, 1, &err);
        fuzz_check_status("cf_fill_blocks", bs, &err);
        for (int i = 0; bs == CF_OK && i < height * 256; i++)
            FUZZ_CHECK(b[i] < np, "cf_fill_blocks: block %d is %d, palette of %d", i, b[i], np);
        free(b);
    }
    cf_world_free(w);
    fuzz_exercise_program(pg, filled);
    cf_program_free(pg);
    return 0;
}
