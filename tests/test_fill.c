/* test_fill.c - chunk fills: every block against the oracle's chunk mode (MD5
 * of the volume plus exact sample values, tests/golden/chunks-*.txt made by
 * tests/golden/make-chunks.sh), the fill plan, and the fill's bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/* temporary names are unique per call: tests run in parallel (and the plain and
 * sanitizer suites may run at once), so no two may share a file */
#include "cpu/cpu.h"
#include "kernels/cf_nodes.h"

static int pack_path(const char *pack, char *out, size_t n)
{
    if (strcmp(pack, "nodes") == 0) snprintf(out, n, "%s/tests/packs/nodes", CF_SOURCE_DIR);
    else if (strcmp(pack, "vanilla-26.3") == 0) snprintf(out, n, "%s/vanilla/26.3", shared_dir());
    else if (strcmp(pack, "default") == 0) out[0] = 0;
    else cr_assert_fail("unknown pack %s", pack);
    return out[0] ? 1 : 0;
}

typedef struct gchunk {
    char pack[64], settings[128], md5[40];
    long long seed;
    int cx, cz, min_y, height;
    int n;
    int xyz[256][3];
    uint32_t bits[256];
} gchunk;

/* fills one golden chunk; returns 1 when it is identical */
static int check_chunk(const gchunk *g)
{
    char path[4096];
    int np = pack_path(g->pack, path, sizeof path);
    const char *paths[1] = {path};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, np, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, g->settings, fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, (int64_t)g->seed, &err), CF_OK, "%s", err.message);
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    cr_assert_eq(min_y, g->min_y);
    cr_assert_eq(height, g->height);
    size_t nv = (size_t)height * 256;
    float *v = malloc(sizeof(float) * nv);
    int32_t c[2] = {g->cx, g->cz};
    cr_assert_eq(cf_fill_chunks(w, 0, 1, c, v, 1, &err), CF_OK, "%s", err.message);
    for (size_t i = 0; i < nv; i++)
        if (isnan(v[i])) v[i] = NAN; /* the oracle writes every NaN as 0x7fc00000 */
    MD5_CTX m;
    uint8_t d[16];
    char hex[33];
    MD5Init(&m);
    MD5Update(&m, (const uint8_t *)v, sizeof(float) * nv);
    MD5Final(d, &m);
    for (int i = 0; i < 16; i++) sprintf(hex + 2 * i, "%02x", d[i]);
    int ok = strcmp(hex, g->md5) == 0;
    for (int i = 0; i < g->n; i++) {
        int x = g->xyz[i][0] - 16 * g->cx, y = g->xyz[i][1] - min_y, z = g->xyz[i][2] - 16 * g->cz;
        float got = v[((size_t)y * 16 + (size_t)z) * 16 + (size_t)x];
        uint32_t b;
        memcpy(&b, &got, 4);
        if (b != g->bits[i] && !(isnan(got) && g->bits[i] == 0x7fc00000u)) {
            ok = 0;
            cr_log_error("%s seed %lld chunk %d,%d at %d %d %d: got 0x%08x, oracle 0x%08x", g->settings, g->seed, g->cx,
                         g->cz, g->xyz[i][0], g->xyz[i][1], g->xyz[i][2], b, g->bits[i]);
            break;
        }
    }
    if (!ok) cr_log_error("%s seed %lld chunk %d,%d: md5 %s, oracle %s", g->settings, g->seed, g->cx, g->cz, hex, g->md5);
    free(v);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return ok;
}

static void run_file(const char *name, int *chunks, int *bad)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/golden/%s", CF_SOURCE_DIR, name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no %s", path);
    char line[1024];
    gchunk *g = calloc(1, sizeof *g);
    int open = 0;
    *chunks = *bad = 0;
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (!got || line[0] == '@') {
            if (open) {
                (*chunks)++;
                if (!check_chunk(g)) (*bad)++;
            }
            if (!got) break;
            memset(g, 0, sizeof *g);
            char seed[64], chunk[64], miny[16], height[16];
            cr_assert(line_field(line, "pack", g->pack, sizeof g->pack) == 0 && line_field(line, "settings", g->settings, sizeof g->settings) == 0
                          && line_field(line, "seed", seed, sizeof seed) == 0 && line_field(line, "chunk", chunk, sizeof chunk) == 0
                          && line_field(line, "min_y", miny, sizeof miny) == 0 && line_field(line, "height", height, sizeof height) == 0
                          && line_field(line, "md5", g->md5, sizeof g->md5) == 0,
                      "bad header %s", line);
            g->seed = strtoll(seed, NULL, 10);
            cr_assert_eq(sscanf(chunk, "%d,%d", &g->cx, &g->cz), 2);
            g->min_y = atoi(miny), g->height = atoi(height);
            open = 1;
            continue;
        }
        if (line[0] == '#' || line[0] == '\n') continue;
        cr_assert_lt(g->n, 256);
        cr_assert_eq(sscanf(line, "%d %d %d 0x%x", &g->xyz[g->n][0], &g->xyz[g->n][1], &g->xyz[g->n][2], &g->bits[g->n]), 4);
        g->n++;
    }
    free(g);
    fclose(f);
}

Test(fill, our_packs_equal_oracle_chunks, .timeout = 600)
{
    int chunks, bad;
    run_file("chunks-packs.txt", &chunks, &bad);
    cr_assert_gt(chunks, 0);
    cr_assert_eq(bad, 0, "%d of %d chunks differ from the oracle", bad, chunks);
}

Test(fill, vanilla_equals_oracle_chunks, .timeout = 1200)
{
    char p[4096];
    struct stat st;
    shared_need("vanilla/26.3/data", p, sizeof p);
    if (stat(p, &st) != 0) cr_skip_test("no %s (CI has it)", p);
    int chunks, bad;
    run_file("chunks-vanilla.txt", &chunks, &bad);
    cr_assert_geq(chunks, 42, "only %d vanilla chunks", chunks);
    cr_assert_eq(bad, 0, "%d of %d chunks differ from the oracle", bad, chunks);
}

/* ---------------------------------------------------------------- the plan */
static char root[256];
static void put(const char *rel, const char *text) { tmp_put(root, rel, text); }
static void setup(void)
{
    tmp_dir(root, sizeof root, "fill");
    put("data/t/worldgen/noise/n.json", "{\"base_octave\": -4, \"octave_count\": 3}");
    put("data/t/worldgen/noise/m.json", "{\"base_octave\": -2, \"octave_count\": 2}");
    put("data/t/worldgen/noise_settings/s.json",
        "{\"noise\": {\"min_y\": -64, \"height\": 128}, \"noise_router\": {\"final_density\": \"t:f\"}}");
    /* a 2-D noise, a shared 3-D noise used twice, and an interpolated input */
    put("data/t/worldgen/density_function/flat.json",
        "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 0}");
    put("data/t/worldgen/density_function/solid.json",
        "{\"type\": \"minecraft:noise\", \"noise\": \"t:m\", \"xz_scale\": 0.5, \"y_scale\": 0.5}");
    put("data/t/worldgen/density_function/f.json",
        "{\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:interpolated\", \"cell_size_xz\": 4, \"cell_size_y\": 8,"
        " \"input\": {\"type\": \"minecraft:mul\", \"left\": \"t:solid\", \"right\": {\"type\": \"minecraft:add\", \"left\": \"t:solid\", \"right\": \"t:flat\"}}},"
        " \"right\": \"t:flat\"}");
    /* cells 7 wide: a chunk spans 2 or 3 cells, the corner counts change from chunk to chunk */
    put("data/t/worldgen/density_function/g.json",
        "{\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:interpolated\", \"cell_size_xz\": 7, \"cell_size_y\": 8,"
        " \"input\": {\"type\": \"minecraft:mul\", \"left\": \"t:solid\", \"right\": {\"type\": \"minecraft:add\", \"left\": \"t:solid\", \"right\": \"t:flat\"}}},"
        " \"right\": \"t:flat\"}");
    /* a chain of interpolated nodes: cN = interpolated(add(c(N-1), 0.1)), c0 the 3-D noise */
    put("data/t/worldgen/density_function/c0.json", "{\"type\": \"minecraft:cache\", \"input\": \"t:solid\"}");
    for (int i = 1; i <= CF_MAX_INTERP_NEST + 1; i++) {
        char rel[64], text[256];
        snprintf(rel, sizeof rel, "data/t/worldgen/density_function/c%d.json", i);
        snprintf(text, sizeof text,
                 "{\"type\": \"minecraft:interpolated\", \"input\": {\"type\": \"minecraft:add\", \"left\": \"t:c%d\","
                 " \"right\": 0.1}}", i - 1);
        put(rel, text);
    }
}
static void teardown(void) { tmp_rm(root); }
TestSuite(plan, .init = setup, .fini = teardown);

/* interpolated under interpolated: each corner of each node is computed once per chunk
 * (eval.c's corner map), not once for every corner of the node above that asked (8^depth:
 * a chain of 8 took seconds a chunk, 12 never ended); the values equal single-point
 * volume-path evaluation; the device refuses such a graph (its corner functions would
 * recompute); one more level than CF_MAX_INTERP_NEST is refused */
Test(plan, nested_interpolated_is_polynomial)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *p;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    char fn8[16];
    snprintf(fn8, sizeof fn8, "t:c%d", CF_MAX_INTERP_NEST);
    const char *fn[1] = {fn8};
    cr_assert_eq(cf_program_compile(&p, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, p, 5, &err), CF_OK);
    int solid = -1;
    for (int i = 0; i < p->nnodes; i++)
        if (p->nodes[i].kind == NK_NOISE) solid = i;
    cr_assert(solid >= 0);
    uint32_t *count = calloc((size_t)p->nnodes, sizeof(uint32_t));
    float *out = malloc(sizeof(float) * 128 * 256);
    cr_assert_eq(fill_one_counted(w, 0, 2, -3, out, count), 0);
    /* the noise runs at the corners of each level and its ring: 8 levels of at most
     * 13 x 25 x 13 corners (~35,000); one per asking corner would be ~8^8 */
    cr_assert_leq(count[solid], 100000u, "the chain's leaf ran %u times", count[solid]);
    for (int y = 0; y < 128; y += 5)
        for (int z = 0; z < 16; z += 3)
            for (int x = 0; x < 16; x += 3) {
                float v = eval_f32(w, NULL, MODE_VOLUME, p->outputs[0], 32 + x, -64 + y, -48 + z);
                float u = out[(y * 16 + z) * 16 + x];
                cr_assert(memcmp(&u, &v, 4) == 0, "at %d %d %d: fill %.9g, point %.9g", x, y, z, u, v);
            }
    free(out), free(count);
    /* the device's corner functions would recompute them: refused, one located line */
    cf_device *dev = NULL;
    cr_assert_neq(cf_device_open(&dev, "opencl", p, 0, 0, &err), CF_OK);
    cr_assert(strstr(err.message, "c2.json") && strstr(err.message, "interpolated under interpolated runs on the CPU only"),
              "%s", err.message);
    cf_world_free(w);
    cf_program_free(p);
    err = (cf_error){0};
    char fn9[16];
    snprintf(fn9, sizeof fn9, "t:c%d", CF_MAX_INTERP_NEST + 1);
    fn[0] = fn9;
    cr_assert_eq(cf_program_compile(&p, pk, "t:s", fn, 1, &err), CF_ERR_LIMIT);
    cr_assert(strstr(err.message, "c9.json") && strstr(err.message, "nested 9 deep"), "%s", err.message);
    cf_pack_free(pk);
}

Test(plan, stages_and_counts)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *p;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&p, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, p, 7, &err), CF_OK);
    int flat = -1, solid = -1, interp = -1, mul = -1;
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->kind == NK_NOISE && p->noises[n->noise].id[2] == 'n') flat = i;
        if (n->kind == NK_NOISE && p->noises[n->noise].id[2] == 'm') solid = i;
        if (n->kind == NK_INTERPOLATED) interp = i, mul = n->in[0];
    }
    cr_assert(flat >= 0 && solid >= 0 && interp >= 0);
    /* the 2-D noise is a column node with a column memo; the 3-D one runs at corners */
    cr_assert_eq(p->stage[flat], STAGE_COLUMN);
    cr_assert_eq(p->memo[flat], MEMO_COLUMN);
    cr_assert_eq(p->stage[solid], STAGE_CORNER);
    cr_assert_eq(p->stage[mul], STAGE_CORNER);
    cr_assert_eq(p->memo[solid], MEMO_LAST); /* read twice per corner */
    cr_assert_eq(p->stage[p->outputs[0]], STAGE_BLOCK);
    cr_assert(strstr(cf_program_plan(p), "runs at cell corners"));

    uint32_t *count = calloc((size_t)p->nnodes, sizeof(uint32_t));
    float *out = malloc(sizeof(float) * 128 * 256);
    cr_assert_eq(fill_one_counted(w, 0, 3, -2, out, count), 0);
    /* corners: 5 x 17 x 5; the interpolated input runs once per corner */
    cr_assert_eq(count[mul], 5u * 17u * 5u, "the interpolated input ran %u times", count[mul]);
    cr_assert_eq(count[solid], 5u * 17u * 5u, "the shared 3-D noise ran %u times", count[solid]);
    /* the 2-D noise: once per column it is read at: the 256 block columns and the 9 corner
     * columns on the far edges (x or z = 16); the other 16 corner columns are block columns */
    cr_assert_eq(count[flat], 16u * 16u + 9u, "the 2-D noise ran %u times", count[flat]);
    /* and the values still equal a fill without counting */
    float *ref = malloc(sizeof(float) * 128 * 256);
    int32_t c[2] = {3, -2};
    cr_assert_eq(cf_fill_chunks(w, 0, 1, c, ref, 1, &err), CF_OK);
    cr_assert_eq(memcmp(out, ref, sizeof(float) * 128 * 256), 0);
    free(ref), free(out), free(count);
    cf_world_free(w);
    cf_program_free(p);
    cf_pack_free(pk);
}

/* an area fill (shared corner faces, fill.c share_corners) equals lone chunks from fresh
 * contexts where the cell width does not divide 16 (7: 4 or 5 corners a chunk along x) */
Test(plan, area_fill_equals_lone_chunks_with_cells_7_wide)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *p;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"t:g"};
    cr_assert_eq(cf_program_compile(&p, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, p, 7, &err), CF_OK, "%s", err.message);
    enum { N = 8 };
    int32_t c[2 * N];
    for (int i = 0; i < N; i++) c[2 * i] = 1 + i % 4, c[2 * i + 1] = 2 + i / 4; /* x0 48: 5 corners, the others 4 */
    float *area = malloc(sizeof(float) * 128 * 256 * N), *one = malloc(sizeof(float) * 128 * 256);
    cr_assert(area && one);
    cr_assert_eq(cf_fill_chunks(w, 0, N, c, area, 1, &err), CF_OK, "%s", err.message);
    for (int i = 0; i < N; i++) {
        cr_assert_eq(fill_one_counted(w, 0, c[2 * i], c[2 * i + 1], one, NULL), 0);
        cr_assert_eq(memcmp(one, area + (size_t)i * 128 * 256, sizeof(float) * 128 * 256), 0, "chunk %d %d differs",
                     c[2 * i], c[2 * i + 1]);
    }
    free(area), free(one);
    cf_world_free(w);
    cf_program_free(p);
    cf_pack_free(pk);
}

/* the fill equals single-point volume-path evaluation at every block: the
 * per-node buffers and memos change nothing */
Test(plan, buffers_equal_pointwise_volume_path)
{
    const char *paths[1] = {root};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *p;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&p, pk, "t:s", fn, 1, &err), CF_OK);
    cr_assert_eq(cf_world_new(&w, p, -99, &err), CF_OK);
    float *out = malloc(sizeof(float) * 128 * 256);
    int32_t c[2] = {-1, 5};
    cr_assert_eq(cf_fill_chunks(w, 0, 1, c, out, 1, &err), CF_OK);
    for (int y = 0; y < 128; y += 3)
        for (int z = 0; z < 16; z++)
            for (int x = 0; x < 16; x++) {
                float v = eval_f32(w, NULL, MODE_VOLUME, p->outputs[0], -16 + x, -64 + y, 80 + z);
                float u = out[(y * 16 + z) * 16 + x];
                cr_assert(memcmp(&u, &v, 4) == 0, "at %d %d %d: fill %.9g, point %.9g", x, y, z, u, v);
            }
    free(out);
    cf_world_free(w);
    cf_program_free(p);
    cf_pack_free(pk);
}

/* the corner stage (host/cpu/corners.c: noises over the corner lattice, per-axis math
 * once, vector lanes) equals cf_stack_volume / cf_blended bit for bit at every corner of every
 * noise and old_blended_noise of the vanilla overworld, amplified, nether and end, on every
 * lattice path this CPU has (AVX-512, AVX2, portable), for chunks near the
 * origin, on both sides of the 2^25-block wrap and at the coordinate limit */
/* the block stage's row operations (rowops.c) on every lane path this CPU has equal the
 * volume path's scalar expressions (eval.c) bit for bit, on values that tell the
 * orderings apart: NaNs, signed zeros, infinities, the bounds themselves, denormals */
static float ref_op(int kind, float a, float b, float c, float lo, float hi, int lit, float r)
{
    switch (kind) {
    case NK_ADD: return a + b;
    case NK_SUB: return a - b;
    case NK_MUL: return a * b;
    case NK_DIV: return lit ? a * r : a / b;
    case NK_MIN: return b < a ? b : a;
    case NK_MAX: return b > a ? b : a;
    case NK_ABS: return fabsf(a);
    case NK_NEGATE: return -a;
    case NK_SQUARE: return a * a;
    case NK_CUBE: return (a * a) * a;
    case NK_HALF_NEGATIVE: return a > 0.0f ? a : a * 0.5f;
    case NK_QUARTER_NEGATIVE: return a > 0.0f ? a : a * 0.25f;
    case NK_SQUEEZE: return cf_squeeze(a);
    case NK_CLAMP: return cf_clampf(a, lo, hi);
    case NK_RANGE_CHOICE: return (a >= lo && a < hi) ? b : c;
    case NK_LERP: return a == 0.0f ? b : a == 1.0f ? c : cf_lerpf(a, b, c);
    default: return a;
    }
}

Test(fused, row_operations_equal_the_scalar_path)
{
    enum { N = 301 }; /* not a multiple of any lane count: the loops' tails too */
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 1e-40f, -1e-40f,
                                    3.4e38f, -3.4e38f, INFINITY, -INFINITY, NAN, -NAN, 64.0f, -1e6f, 0.99999994f, 1.0000001f};
    size_t ns = sizeof special / sizeof special[0];
    float a[N], b[N], c[N], o[N];
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        float v[3];
        for (int k = 0; k < 3; k++) {
            seed = seed * 1664525u + 1013904223u;
            v[k] = (seed >> 28) < 9 ? special[(seed >> 8) % ns] : ((float)(int32_t)(seed >> 9) - 4194304.0f) / 1048576.0f;
        }
        a[i] = v[0], b[i] = v[1], c[i] = v[2];
    }
    static const int kinds[] = {NK_ADD, NK_SUB, NK_MUL, NK_DIV, NK_MIN, NK_MAX, NK_ABS, NK_NEGATE, NK_SQUARE, NK_CUBE,
                                NK_HALF_NEGATIVE, NK_QUARTER_NEGATIVE, NK_SQUEEZE, NK_CLAMP, NK_RANGE_CHOICE, NK_LERP, NK_CACHE};
    /* bounds: ordinary, a zero upper bound (cf_clampf's Math.min on zeros), the noodle's */
    static const float bounds[][2] = {{-1.0f, 1.0f}, {-0.5f, 0.0f}, {0.0f, -0.0f}, {-1e6f, 0.0f}, {-2.0f, 64.0f}};
    int top = rowop_isa(), checked = 0;
    for (int isa = ROW_ISA_PORTABLE; isa <= top; isa++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            for (size_t bd = 0; bd < sizeof bounds / sizeof bounds[0]; bd++)
                for (int lit = 0; lit < 2; lit++) {
                    float lo = bounds[bd][0], hi = bounds[bd][1], r = 1.0f / 3.0f;
                    rowop(isa, kinds[k], o, a, b, c, N, lo, hi, lit, r);
                    for (int i = 0; i < N; i++) {
                        float e = ref_op(kinds[k], a[i], b[i], c[i], lo, hi, lit, r);
                        cr_assert_eq(memcmp(&o[i], &e, sizeof e), 0, "isa %d kind %d bounds %zu: %g op (%g, %g, %g) gave %g, not %g",
                                     isa, kinds[k], bd, (double)a[i], (double)a[i], (double)b[i], (double)c[i], (double)o[i], (double)e);
                        checked++;
                    }
                    for (int eq = 0; eq < 2; eq++) {
                        size_t m = 0;
                        for (int i = 0; i < N; i++) m += eq ? a[i] == lo : (a[i] >= lo && a[i] < hi);
                        cr_assert_eq(rowop_count(isa, a, N, eq, lo, hi), m, "isa %d count", isa);
                    }
                }
    cr_assert_gt(checked, 10000);
}

/* an area fill, whose chunks take their -x / -z corner faces from the chunk before them
 * (fill.c share_corners), equals chunks filled alone by fresh contexts, on one and two
 * threads: 4 x 3 chunks, across the origin */
Test(fused, shared_corner_faces_equal_lone_chunks, .timeout = 120)
{
    char path[4096];
    shared_need("vanilla/26.3", path, sizeof path);
    const char *paths[1] = {path};
    cf_error err = {0};
    cf_pack *pk;
    cf_program *p;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&p, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, p, 0, &err), CF_OK, "%s", err.message);
    enum { NX = 4, NZ = 3, N = NX * NZ };
    int32_t c[2 * N];
    for (int i = 0; i < N; i++) c[2 * i] = -2 + i % NX, c[2 * i + 1] = -1 + i / NX; /* z outer, x inner */
    size_t per = (size_t)p->height * 256;
    float *area = malloc(sizeof(float) * per * N), *one = malloc(sizeof(float) * per);
    cr_assert(area && one);
    for (int threads = 1; threads <= 2; threads++) {
        cr_assert_eq(cf_fill_chunks(w, 0, N, c, area, threads, &err), CF_OK, "%s", err.message);
        for (int i = 0; i < N; i++) {
            cr_assert_eq(fill_one_counted(w, 0, c[2 * i], c[2 * i + 1], one, NULL), 0);
            cr_assert_eq(memcmp(one, area + (size_t)i * per, sizeof(float) * per), 0, "%d threads: chunk %d %d differs",
                         threads, c[2 * i], c[2 * i + 1]);
        }
    }
    free(area), free(one);
    cf_world_free(w);
    cf_program_free(p);
    cf_pack_free(pk);
}

Test(corners, equal_stack_volume_at_every_corner)
{
    static const int32_t chunks[][2] = {{0, 0}, {-1, -1}, {1000, -500}, {-7, 3}, {123457, -654321},
                                        {2097151, -2097152}, {2097152, 2097153}, {-30000000, 29999999},
                                        {CF_MAX_CHUNK, -CF_MAX_CHUNK}, {-CF_MAX_CHUNK, CF_MAX_CHUNK}};
    const char *settings[4] = {"minecraft:overworld", "minecraft:amplified", "minecraft:nether", "minecraft:end"};
    char path[4096];
    shared_need("vanilla/26.3", path, sizeof path);
    const char *paths[1] = {path};
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    long total = 0;
    for (int s = 0; s < 4; s++) {
        cf_program *p;
        cf_world *w;
        const char *fn[1] = {"router:final_density"};
        cr_assert_eq(cf_program_compile(&p, pk, settings[s], fn, 1, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&w, p, s ? 42 : 0, &err), CF_OK, "%s", err.message);
        for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
            long n = 0, bad = corners_check(w, chunks[i][0], chunks[i][1], &n);
            cr_assert_eq(bad, 0, "%s chunk %d %d: %ld of %ld corners differ", settings[s], chunks[i][0], chunks[i][1], bad, n);
            total += n;
        }
        cf_world_free(w);
        cf_program_free(p);
    }
    /* every lattice path the CPU has (scalar alone: 791,220; with AVX2 or AVX-512 too: more) */
    cr_assert_gt(total, 700000, "only %ld corners compared", total);
    cf_pack_free(pk);
}

Test(fill_cli, writes_npy_atomically)
{
    char err[4096];
    const char *np = tmp_name("/tmp/cf-fill-test-%d.npy");
    char args[1024];
    remove(np);
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:1,1 --threads 2 --out %s", np);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    FILE *f = fopen(np, "rb");
    cr_assert_not_null(f);
    unsigned char h[10];
    cr_assert_eq(fread(h, 1, 10, f), 10u);
    cr_assert_eq(memcmp(h, "\x93NUMPY\x01\x00", 8), 0);
    unsigned hl = h[8] | h[9] << 8;
    char dict[512] = {0};
    cr_assert_eq(fread(dict, 1, hl, f), hl);
    cr_assert_eq((10 + hl) % 64, 0u);
    cr_assert(strstr(dict, "'descr': '<f4'") && strstr(dict, "'shape': (4, 384, 16, 16)"), "%s", dict);
    fseek(f, 0, SEEK_END);
    cr_assert_eq(ftell(f), (long)(10 + hl + 4 * 384 * 256 * 4));
    fclose(f);
    /* the same volume through the library, chunk order z outer, x inner */
    cf_pack *pk;
    cf_program *pg;
    cf_world *w = world_open(NULL, "minecraft:overworld", "router:final_density", 3, &pk, &pg);
    int32_t c[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    float *v = malloc(sizeof(float) * 4 * 384 * 256), *u = malloc(sizeof(float) * 4 * 384 * 256);
    cr_assert_eq(cf_fill_chunks(w, 0, 4, c, v, 0, NULL), CF_OK);
    f = fopen(np, "rb");
    fseek(f, 10 + hl, SEEK_SET);
    cr_assert_eq(fread(u, sizeof(float), 4 * 384 * 256, f), 4u * 384 * 256);
    fclose(f);
    cr_assert_eq(memcmp(u, v, sizeof(float) * 4 * 384 * 256), 0);
    free(u), free(v);
    world_close(w, pg, pk);
    remove(np);
}
Test(fill_cli, bad_ranges)
{
    char err[4096];
    /* bad values of --chunks are usage errors (exit 2, one line) as in every command */
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 0,0:200000000,0 --out /tmp/cf-x-never-written.npy", NULL, 0, err, sizeof err), 2);
    cr_assert(strstr(err, "out of range"), "%s", err);
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 5,5:4,5 --out /tmp/cf-x-never-written.npy", NULL, 0, err, sizeof err), 2);
    cr_assert(strstr(err, "reversed corners: the second corner must not be below the first"), "%s", err);
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks -134000000,-134000000:134000000,134000000 --out /tmp/cf-x-never-written.npy", NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "more than --max-chunks"), "%s", err);
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 0,0:x --out /tmp/cf-x-never-written.npy", NULL, 0, err, sizeof err), 2);
    struct stat st;
    cr_assert_neq(stat("/tmp/cf-x-never-written.npy", &st), 0);
}
Test(fill_cli, missing_settings)
{
    char err[4096];
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --settings minecraft:nowhere --chunks 0,0 --out /tmp/cf-x-never-written.npy", NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "minecraft:nowhere: no such noise settings"), "%s", err);
}
Test(fill_cli, unwritable_output_leaves_nothing)
{
    char err[4096];
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 0,0 --out /nonexistent-dir/x.npy", NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "/nonexistent-dir/x.npy: cannot create"), "%s", err);
    int lines = 0;
    for (char *c = err; *c; c++) lines += *c == '\n';
    cr_assert_eq(lines, 1);
    /* a failure after the file was opened removes the temporary file */
    const char *dir = tmp_name("/tmp/cf-fill-dir-%d");
    char cmd[1200], args[1024];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(args, sizeof args, "fill --seed 1 --function minecraft:none --chunks 0,0 --out %s/x.npy", dir);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 1);
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s)\" && rmdir %s", dir, dir);
    cr_assert_eq(system(cmd), 0, "a file was left behind");
}

/* an interpolated node under another one's input, with other cells, the same noise read by
 * both: the outer corner row's buffers must survive the inner node's corners (eval.c
 * corner_row; fuzz finding, fuzz/regressions/pack-corner-row-nested-interpolated.json):
 * cf_surface_heights equals the fill's top solid blocks, and the fill equals the one
 * without corner rows (the corner-by-corner path) */
Test(fused, nested_interpolated_corner_rows)
{
    static const char s_json[] = "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"sea_level\": 8, \"legacy_random_source\": false,"
                                 " \"noise_router\": {\"final_density\": \"t:f\"}}";
    static const char n_json[] = "{\"base_amplitude\": 1.0, \"base_octave\": -4, \"octave_count\": 3}";
    static const char g_json[] = "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1.0, \"y_scale\": 0.5}";
    static const char f_json[] = "{\"type\": \"minecraft:interpolated\", \"cell_size_xz\": 4, \"cell_size_y\": 4, \"input\":"
                                 " {\"type\": \"minecraft:mul\", \"left\": {\"type\": \"minecraft:interpolated\", \"cell_size_xz\": 8,"
                                 " \"cell_size_y\": 4, \"input\": \"t:g\"}, \"right\": \"t:g\"}}";
    cf_memfile files[] = {
        {"data/t/worldgen/noise_settings/s.json", s_json, sizeof s_json - 1},
        {"data/t/worldgen/noise/n.json", n_json, sizeof n_json - 1},
        {"data/t/worldgen/density_function/g.json", g_json, sizeof g_json - 1},
        {"data/t/worldgen/density_function/f.json", f_json, sizeof f_json - 1},
    };
    cf_error err = {0};
    cf_pack *pk;
    cf_program *p;
    cf_world *w;
    cr_assert_eq(cf_pack_open_memory(&pk, files, 4, NULL, &err), CF_OK, "%s", err.message);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&p, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, p, 1, &err), CF_OK, "%s", err.message);
    static float vol[16 * 256];
    int32_t hs[256];
    for (int cx = -3; cx <= 2; cx++)
        for (int cz = -2; cz <= 2; cz++) {
            int32_t c[2] = {cx, cz};
            cr_assert_eq(cf_fill_chunks(w, 0, 1, c, vol, 1, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_surface_heights(w, 0, cx * 16, cz * 16, 16, 16, INT32_MAX, hs, 1, &err), CF_OK, "%s", err.message);
            for (int i = 0; i < 256; i++) {
                int32_t top = INT32_MIN;
                for (int y = 15; y >= 0 && top == INT32_MIN; y--)
                    if (vol[y * 256 + i] > 0.0f) top = y;
                if (top == INT32_MIN) continue; /* no solid block: the search's own convention */
                cr_assert_eq(hs[i], top, "chunk %d,%d column x %d z %d: heights %d, the fill's top %d", cx, cz, i % 16, i / 16,
                             hs[i], top);
            }
        }
    cf_world_free(w);
    cf_program_free(p);
    cf_pack_free(pk);
}
