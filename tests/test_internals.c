/* test_internals.c - random sources, seeds, pack layering, the graph passes
 * and the shared log/exp/pow, each against an independent reference. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_math.h"
#include "cpu/cpu.h"

#include "testutil.h"

/* ---------------------------------------------------------------- seeds */
Test(seed, decimal_and_text)
{
    int64_t s;
    cr_assert_eq(cf_seed_parse("0", &s, NULL), CF_OK);
    cr_assert_eq(s, 0);
    cr_assert_eq(cf_seed_parse("-4172144997902289642", &s, NULL), CF_OK);
    cr_assert_eq(s, -4172144997902289642LL);
    cr_assert_eq(cf_seed_parse("9223372036854775807", &s, NULL), CF_OK);
    cr_assert_eq(s, INT64_MAX);
    cr_assert_eq(cf_seed_parse("-9223372036854775808", &s, NULL), CF_OK);
    cr_assert_eq(s, INT64_MIN);
    /* Java: "hello".hashCode() == 99162322; a long that overflows is text */
    cr_assert_eq(cf_seed_parse("hello", &s, NULL), CF_OK);
    cr_assert_eq(s, 99162322);
    cr_assert_eq(cf_seed_parse("9223372036854775808", &s, NULL), CF_OK);
    cr_assert_eq(s, (int64_t)java_string_hash("9223372036854775808"));
    cf_error e = {0};
    cr_assert_eq(cf_seed_parse("", &s, &e), CF_ERR_ARG);
}

Test(seed, java_string_hash_utf16)
{
    /* values of String.hashCode computed independently (UTF-16 code units):
     * "" -> 0, "a" -> 97, "Minecraft" -> -1149094283 (31-polynomial over the
     * code units), "é" (U+00E9) -> 233, "😀" (U+1F600, surrogates D83D DE00) -> 31*0xD83D + 0xDE00 */
    cr_assert_eq(java_string_hash(""), 0);
    cr_assert_eq(java_string_hash("a"), 97);
    int32_t h = 0;
    for (const char *c = "Minecraft"; *c; c++) h = (int32_t)(31u * (uint32_t)h + (uint32_t)*c);
    cr_assert_eq(java_string_hash("Minecraft"), h);
    cr_assert_eq(java_string_hash("\xc3\xa9"), 233);
    cr_assert_eq(java_string_hash("\xf0\x9f\x98\x80"), 31 * 0xD83D + 0xDE00);
}

/* ---------------------------------------------------------------- math */
static uint64_t lcg = 88172645463325252ULL;
static double rnd01(void)
{
    lcg ^= lcg << 13, lcg ^= lcg >> 7, lcg ^= lcg << 17;
    return (double)(lcg >> 11) * 0x1.0p-53;
}

/* glibc's log/exp/pow are correctly rounded in double for these ranges; our
 * versions must give the same float after the cast density functions make */
Test(math, log_matches_libm_after_float_cast)
{
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        float x = (float)ldexp(rnd01() + 0.5, (int)(rnd01() * 200) - 100);
        if ((float)cf_log(x) != (float)log(x)) bad++;
    }
    cr_assert_eq(bad, 0, "%d of 200000 differ", bad);
    cr_assert(isnan(cf_log(-1.0)));
    cr_assert(isinf(cf_log(0.0)) && cf_log(0.0) < 0);
    cr_assert_eq(cf_log(1.0), 0.0);
}
Test(math, pow_matches_libm_after_float_cast)
{
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        float b = (float)(rnd01() * 8), e = (float)((rnd01() - 0.5) * 20);
        if ((float)cf_pow(b, e) != (float)pow(b, e)) bad++;
    }
    cr_assert_eq(bad, 0, "%d of 200000 differ", bad);
    cr_assert(isnan(cf_pow(-2.0, 0.5)));
    cr_assert_eq((float)cf_pow(-2.0, 3.0), -8.0f);
    cr_assert_eq(cf_pow(0.0, -1.0), INFINITY);
    cr_assert_eq(cf_pow(5.0, 0.0), 1.0);
}
Test(math, java_casts)
{
    cr_assert_eq(cf_jfloor(NAN), 0);
    cr_assert_eq(cf_jfloor(1e300), INT32_MAX);
    cr_assert_eq(cf_jfloor(-1e300), INT32_MIN);
    cr_assert_eq(cf_jfloor(-0.5), -1);
    cr_assert_eq(cf_jround_f(-2.5f), -2); /* Math.round rounds half up */
    cr_assert_eq(cf_jround_f(2.5f), 3);
    cr_assert(signbit(cf_jminf(0.0f, -0.0f)));
    cr_assert(!signbit(cf_jmaxf(-0.0f, 0.0f)));
    cr_assert(isnan(cf_jminf(NAN, 1.0f)));
    cr_assert_eq(cf_floormod(-7, 4), 1);
    cr_assert_eq(cf_floordiv(-7, 4), -2);
}

/* ---------------------------------------------------------------- packs and passes */
static char root[256];
static void put(const char *rel, const char *text) { tmp_put(root, rel, text); }
static void setup(void)
{
    tmp_dir(root, sizeof root, "internals");
    put("a/data/t/worldgen/noise_settings/s.json", "{\"noise\": {\"min_y\": 0, \"height\": 256}, \"noise_router\": {}}");
    put("a/data/t/worldgen/noise/n.json", "{\"base_octave\": -4, \"octave_count\": 3, \"amplitude_modifiers\": [1, 0, 2]}");
}
static void teardown(void) { tmp_rm(root); }
static cf_program *compile(const char *const *packs, int n, const char *fn)
{
    char p[4][512];
    const char *paths[4];
    for (int i = 0; i < n; i++) snprintf(p[i], sizeof p[i], "%s/%s", root, packs[i]), paths[i] = p[i];
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(cf_pack_open(&pk, paths, n, NULL, &err), CF_OK, "%s", err.message);
    const char *fns[1] = {fn};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fns, 1, &err), CF_OK, "%s", err.message);
    cf_pack_free(pk);
    return pg;
}
static double value_at(cf_program *pg, int x, int y, int z)
{
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, 1, NULL), CF_OK);
    int32_t xyz[3] = {x, y, z};
    double v;
    cr_assert_eq(cf_sample(w, 0, 1, xyz, &v, NULL), CF_OK);
    cf_world_free(w);
    return v;
}

TestSuite(pack, .init = setup, .fini = teardown);
TestSuite(passes, .init = setup, .fini = teardown);

Test(pack, later_packs_override_earlier)
{
    put("a/data/t/worldgen/density_function/f.json", "{\"type\": \"minecraft:add\", \"left\": \"t:g\", \"right\": 1}");
    put("a/data/t/worldgen/density_function/g.json", "10");
    put("b/data/t/worldgen/density_function/g.json", "20");
    const char *ab[2] = {"a", "b"}, *ba[2] = {"b", "a"};
    cf_program *p1 = compile(ab, 2, "t:f"), *p2 = compile(ba, 2, "t:f");
    cr_assert_eq(value_at(p1, 0, 0, 0), 21.0);
    cr_assert_eq(value_at(p2, 0, 0, 0), 11.0);
    cf_program_free(p1);
    cf_program_free(p2);
}
Test(pack, ids_resolve_across_namespaces_and_folders)
{
    put("a/data/t/worldgen/density_function/f.json", "{\"type\": \"minecraft:mul\", \"left\": \"other:deep/er/g\", \"right\": \"h\"}");
    put("a/data/other/worldgen/density_function/deep/er/g.json", "{\"type\": \"constant\", \"value\": 3}");
    put("a/data/minecraft/worldgen/density_function/h.json", "-2.5");
    const char *a[1] = {"a"};
    cf_program *p = compile(a, 1, "t:f");
    cr_assert_eq(value_at(p, 5, 5, 5), -7.5);
    cf_program_free(p);
}

static int count_kind(const cf_program *p, int kind)
{
    int c = 0;
    for (int i = 0; i < p->nnodes; i++) c += p->nodes[i].kind == kind;
    return c;
}

Test(passes, merge_equal_subgraphs)
{
    /* two identical inline subtrees and a reference to a third copy become one */
    put("a/data/t/worldgen/density_function/f.json",
        "{\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:abs\", \"input\": {\"type\": \"minecraft:noise\","
        " \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 0}},"
        " \"right\": {\"type\": \"minecraft:add\", \"left\": {\"type\": \"minecraft:abs\", \"input\": {\"type\": \"minecraft:noise\","
        " \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 0}}, \"right\": \"t:g\"}}");
    put("a/data/t/worldgen/density_function/g.json",
        "{\"type\": \"minecraft:abs\", \"input\": {\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1, \"y_scale\": 0}}");
    const char *a[1] = {"a"};
    cf_program *p = compile(a, 1, "t:f");
    cr_assert_eq(count_kind(p, NK_NOISE), 1);
    cr_assert_eq(count_kind(p, NK_ABS), 1);
    cr_assert_eq(count_kind(p, NK_ADD), 2);
    cr_assert_eq(count_kind(p, NK_CONSTANT), 1); /* the three shift literals 0 */
    cr_assert_eq(p->nnodes, 5);
    cr_assert_gt(p->parsed_nodes, 10);
    /* the noise reads x and z only (y_scale 0) */
    for (int i = 0; i < p->nnodes; i++)
        if (p->nodes[i].kind == NK_NOISE) cr_assert_eq(p->nodes[i].axes, AX_X | AX_Z);
    cf_program_free(p);
}
Test(passes, fold_constants_keeps_literal_semantics)
{
    put("a/data/t/worldgen/density_function/f.json",
        "{\"type\": \"minecraft:mul\", \"left\": {\"type\": \"minecraft:add\", \"left\": 1, \"right\": 2},"
        " \"right\": {\"type\": \"minecraft:gradient\", \"axis\": \"y\", \"from_coordinate\": 0, \"to_coordinate\": 10,"
        " \"from_value\": 0, \"to_value\": 1}}");
    const char *a[1] = {"a"};
    cf_program *p = compile(a, 1, "t:f");
    cr_assert_eq(p->nnodes, 3);
    cr_assert_eq(count_kind(p, NK_ADD), 0);
    int c = -1;
    for (int i = 0; i < p->nnodes; i++)
        if (p->nodes[i].kind == NK_CONSTANT) c = i;
    cr_assert_eq(p->nodes[c].f[0], 3.0f);
    cr_assert_eq(p->nodes[c].flags & NF_LITERAL, 0u); /* folded, not a JSON literal */
    cr_assert_eq(p->nodes[p->outputs[0]].axes, AX_Y);
    cr_assert_eq(value_at(p, 0, 5, 0), 1.5);
    cf_program_free(p);
}
Test(passes, fold_never_makes_zero_or_nan)
{
    /* 1 - 1 = 0 may differ in sign between the evaluation paths: left unfolded */
    put("a/data/t/worldgen/density_function/f.json", "{\"type\": \"minecraft:sub\", \"left\": 1, \"right\": 1}");
    const char *a[1] = {"a"};
    cf_program *p = compile(a, 1, "t:f");
    cr_assert_eq(count_kind(p, NK_SUB), 1);
    cf_program_free(p);
}
Test(passes, ranges_are_conservative)
{
    put("a/data/t/worldgen/density_function/f.json",
        "{\"type\": \"minecraft:clamp\", \"input\": {\"type\": \"minecraft:mul\", \"left\": {\"type\": \"minecraft:noise\","
        " \"noise\": \"t:n\", \"xz_scale\": 3, \"y_scale\": 1}, \"right\": 4}, \"min\": -1, \"max\": 2}");
    const char *a[1] = {"a"};
    cf_program *p = compile(a, 1, "t:f");
    const cf_node *o = &p->nodes[p->outputs[0]];
    cr_assert(o->lo >= -1.0001 && o->hi <= 2.0001);
    /* the noise range holds every sampled value */
    int nz = -1;
    for (int i = 0; i < p->nnodes; i++)
        if (p->nodes[i].kind == NK_NOISE) nz = i;
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, p, 42, NULL), CF_OK);
    for (int i = 0; i < 20000; i++) {
        float v = eval_point_f32(w, nz, (int)(rnd01() * 2000) - 1000, (int)(rnd01() * 300), (int)(rnd01() * 2000) - 1000);
        cr_assert(v >= p->nodes[nz].lo && v <= p->nodes[nz].hi, "%g outside [%g, %g]", v, p->nodes[nz].lo, p->nodes[nz].hi);
    }
    cf_world_free(w);
    cf_program_free(p);
}

/* old_blended_noise's range (passes.c, §8: below 1.04) holds its values at the parameter
 * bounds and the defaults, and a lerp whose t is not within [0, 1] is bounded */
Test(passes, old_blended_noise_and_lerp_ranges_hold)
{
    static const char *const params[] = {
        "", ", \"xz_scale\": 1000, \"y_scale\": 1000, \"xz_factor\": 0.001, \"y_factor\": 0.001",
        ", \"xz_scale\": 0.001, \"y_scale\": 0.001, \"xz_factor\": 1000, \"y_factor\": 1000, \"smear_scale_multiplier\": 1"};
    for (int k = 0; k < 3; k++) {
        char j[512];
        snprintf(j, sizeof j,
                 "{\"type\": \"minecraft:lerp\", \"alpha\": {\"type\": \"minecraft:old_blended_noise\"%s}, \"first\": 3,"
                 " \"second\": {\"type\": \"minecraft:old_blended_noise\"%s}}", params[k], params[k]);
        put("a/data/t/worldgen/density_function/f.json", j);
        const char *a[1] = {"a"};
        cf_program *p = compile(a, 1, "t:f");
        int ob = -1;
        for (int i = 0; i < p->nnodes; i++)
            if (p->nodes[i].kind == NK_OLD_BLENDED_NOISE) ob = i;
        cr_assert(ob >= 0);
        const cf_node *o = &p->nodes[p->outputs[0]];
        cr_assert(o->lo > -1e3 && o->hi < 1e3, "lerp range [%g, %g]", o->lo, o->hi);
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, p, 42, NULL), CF_OK);
        for (int i = 0; i < 5000; i++) {
            int32_t x = (int32_t)(rnd01() * 6e7) - 30000000, y = (int)(rnd01() * 800) - 400, z = (int32_t)(rnd01() * 6e7) - 30000000;
            float v = eval_point_f32(w, ob, x, y, z), r = eval_point_f32(w, p->outputs[0], x, y, z);
            cr_assert(v >= p->nodes[ob].lo && v <= p->nodes[ob].hi, "%g outside [%g, %g]", v, p->nodes[ob].lo, p->nodes[ob].hi);
            cr_assert(r >= o->lo && r <= o->hi, "%g outside [%g, %g]", r, o->lo, o->hi);
        }
        cf_world_free(w);
        cf_program_free(p);
    }
}

/* distance_to_point's range (every metric; the int32 differences wrap) and a division by a
 * range that excludes 0 are finite and hold their values at the coordinate limits; a divisor
 * that may be 0 leaves the quotient unbounded (heights.c's corner columns and bounds.c's
 * proofs rest on these ranges: ir_finite_node) */
Test(passes, distance_and_division_ranges_hold)
{
    static const char *const metrics[] = {"euclidean", "euclidean_squared", "manhattan", "chebyshev"};
    static const int32_t ext[] = {-2147483647 - 1, -30000000, -1, 0, 1, 30000000, 2147483647};
    for (int m = 0; m < 4; m++) {
        char j[512];
        snprintf(j, sizeof j,
                 "{\"type\": \"minecraft:reciprocal\", \"input\": {\"type\": \"minecraft:div\", \"left\": {\"type\": "
                 "\"minecraft:add\", \"left\": 1, \"right\": {\"type\": \"minecraft:distance_to_point\", \"point\": "
                 "[2147483647, -2147483648, 5], \"metric\": \"%s\"}}, \"right\": -3.5}}", metrics[m]);
        put("a/data/t/worldgen/density_function/f.json", j);
        const char *a[1] = {"a"};
        cf_program *p = compile(a, 1, "t:f");
        int d = -1, q = -1;
        for (int i = 0; i < p->nnodes; i++) {
            if (p->nodes[i].kind == NK_DISTANCE_TO_POINT) d = i;
            if (p->nodes[i].kind == NK_DIV) q = i;
        }
        cr_assert(d >= 0 && q >= 0);
        const cf_node *o = &p->nodes[p->outputs[0]];
        cr_assert(p->nodes[d].hi < 2e19 && p->nodes[q].lo > -1e20 && o->lo > -4 && o->hi < 0, "%s: [%g, %g] [%g, %g] [%g, %g]",
                  metrics[m], p->nodes[d].lo, p->nodes[d].hi, p->nodes[q].lo, p->nodes[q].hi, o->lo, o->hi);
        cf_world *w;
        cr_assert_eq(cf_world_new(&w, p, 42, NULL), CF_OK);
        for (int i = 0; i < 7 * 7 * 7 + 3000; i++) {
            int32_t x, y, z;
            if (i < 343) x = ext[i % 7], y = ext[i / 7 % 7], z = ext[i / 49];
            else x = (int32_t)(uint32_t)(rnd01() * 4294967295.0), y = (int)(rnd01() * 800) - 400, z = (int32_t)(uint32_t)(rnd01() * 4294967295.0);
            float v = eval_point_f32(w, d, x, y, z), r = eval_point_f32(w, q, x, y, z), t = eval_point_f32(w, p->outputs[0], x, y, z);
            cr_assert(v >= p->nodes[d].lo && v <= p->nodes[d].hi, "%s (%d, %d, %d): %g outside [%g, %g]", metrics[m], x, y, z, v,
                      p->nodes[d].lo, p->nodes[d].hi);
            cr_assert(r >= p->nodes[q].lo && r <= p->nodes[q].hi, "div %g outside [%g, %g]", r, p->nodes[q].lo, p->nodes[q].hi);
            cr_assert(t >= o->lo && t <= o->hi, "reciprocal %g outside [%g, %g]", t, o->lo, o->hi);
        }
        cf_world_free(w);
        cf_program_free(p);
    }
    /* a divisor whose range holds 0: no bound */
    put("a/data/t/worldgen/density_function/f.json",
        "{\"type\": \"minecraft:div\", \"left\": 1, \"right\": {\"type\": \"minecraft:gradient\", \"axis\": \"y\", "
        "\"from_coordinate\": 0, \"to_coordinate\": 10, \"from_value\": -1, \"to_value\": 1}}");
    const char *a[1] = {"a"};
    cf_program *p = compile(a, 1, "t:f");
    cr_assert(isinf(p->nodes[p->outputs[0]].hi), "[%g, %g]", p->nodes[p->outputs[0]].lo, p->nodes[p->outputs[0]].hi);
    cf_program_free(p);
}

Test(pack, memory_pack)
{
    const char *s = "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": {\"final_density\": \"t:f\"}}";
    const char *f = "{\"type\": \"minecraft:mul\", \"left\": 2.5, \"right\": {\"type\": \"minecraft:gradient\", \"axis\": \"x\","
                    " \"from_coordinate\": 0, \"to_coordinate\": 4, \"from_value\": 0, \"to_value\": 1}}";
    cf_memfile files[2] = {{"data/t/worldgen/noise_settings/s.json", s, strlen(s)},
                           {"data/t/worldgen/density_function/f.json", f, strlen(f)}};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, &err), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 0, &err), CF_OK);
    int32_t xyz[3] = {2, 0, 0};
    double v;
    cr_assert_eq(cf_sample(w, 0, 1, xyz, &v, &err), CF_OK);
    cr_assert_eq(v, 1.25);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    /* the size limit holds for memory files too, with the located message */
    cf_limits lim;
    cf_limits_default(&lim);
    lim.max_file_bytes = 40;
    memset(&err, 0, sizeof err);
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, &lim, &err), CF_OK);
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, &err), CF_ERR_LIMIT);
    cr_assert(strstr(err.message, "<memory>/data/t/worldgen/noise_settings/s.json#: file is"), "%s", err.message);
    cf_pack_free(pk);
}

/* found by fuzzing: a program outlives its pack (locations name the files) */
Test(pack, program_outlives_its_pack)
{
    const char *s = "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": {\"final_density\": \"t:f\"}}";
    const char *f = "7.25";
    cf_memfile files[2] = {{"data/t/worldgen/noise_settings/s.json", s, strlen(s)},
                           {"data/t/worldgen/density_function/f.json", f, strlen(f)}};
    cf_pack *pk;
    cf_program *pg;
    cr_assert_eq(cf_pack_open_memory(&pk, files, 2, NULL, NULL), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:s", fn, 1, NULL), CF_OK);
    cf_pack_free(pk);
    char *src = cf_emit_opencl(pg, 0, NULL);
    cr_assert_not_null(src);
    cr_assert(strstr(src, "<memory>/data/t/worldgen/density_function/f.json#"));
    free(src);
    cr_assert(strlen(cf_program_plan(pg)) > 0);
    cf_program_free(pg);
}

/* found by fuzzing: the last chunk of the coordinate range, with interpolation
 * corners beyond it, stays inside int arithmetic (UBSan checks it) */
Test(pack, fill_at_the_coordinate_limit)
{
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    const char *paths[1] = {CF_SOURCE_DIR "/tests/packs/tiny"};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, NULL), CF_OK);
    const char *fn[1] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "t:tiny", fn, 1, NULL), CF_OK);
    cr_assert_eq(cf_world_new(&w, pg, 3, NULL), CF_OK);
    float v[16 * 256];
    int32_t c[4] = {CF_MAX_CHUNK, CF_MAX_CHUNK, -CF_MAX_CHUNK, -CF_MAX_CHUNK};
    for (int k = 0; k < 2; k++) cr_assert_eq(cf_fill_chunks(w, 0, 1, c + 2 * k, v, 1, NULL), CF_OK);
    int32_t over[2] = {CF_MAX_CHUNK + 1, 0};
    cf_error err = {0};
    cr_assert_eq(cf_fill_chunks(w, 0, 1, over, v, 1, &err), CF_ERR_ARG);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ---------------------------------------------------------------- front-end table */
#include "frontend/frontend.h"

/* compiles the default request (or settings/function) on pack and checks which
 * front-end took it and that every node is of that front-end's rows */
static void expect_frontend(const char *pack, const char *settings, const char *fn, const char *want)
{
    cf_pack *pk = NULL;
    cf_error e = {0};
    const char *paths[1] = {pack};
    cr_assert_eq(cf_pack_open(&pk, paths, pack ? 1 : 0, NULL, &e), CF_OK, "%s", e.message);
    const char *fns[1] = {fn};
    const cf_frontend *fe = frontend_find(pk, settings, fns, 1);
    cr_assert_str_eq(fe->name, want, "%s %s %s: %s, not %s", pack ? pack : "(embedded)", settings, fn, fe->name, want);
    cf_program *p = NULL;
    cr_assert_eq(cf_program_compile(&p, pk, settings, fns, 1, &e), CF_OK, "%s", e.message);
    cr_assert_eq(p->fe, fe);
    for (int i = 0; i < p->nnodes; i++) {
        int k = p->nodes[i].kind, borrowed = 0;
        for (const int *b = fe->borrows; b && *b >= 0; b++) borrowed |= *b == k;
        cr_expect((k >= fe->first_kind && k <= fe->last_kind) || borrowed,
                  "%s: node %d is %s, outside the front-end's rows", want, i, node_name[k]);
    }
    cf_program_free(p);
    cf_pack_free(pk);
}

Test(frontends, one_table_finds_the_front_end_of_a_request)
{
    cr_assert_eq(cf_nfrontends, 5);
    for (int i = 0; i < cf_nfrontends; i++) {
        const cf_frontend *fe = cf_frontends[i];
        cr_assert(fe->name && fe->title && fe->parse, "front-end %d is incomplete", i);
        cr_assert(fe->first_kind >= 0 && fe->first_kind <= fe->last_kind && fe->last_kind < NK_COUNT, "%s rows", fe->name);
        for (int j = 0; j < i; j++) /* the rows of two front-ends never overlap */
            cr_assert(fe->last_kind < cf_frontends[j]->first_kind || fe->first_kind > cf_frontends[j]->last_kind,
                      "%s and %s share node rows", fe->name, cf_frontends[j]->name);
    }
    cr_assert_str_eq(cf_frontends[cf_nfrontends - 1]->name, "mc263", "Minecraft 26.3 takes what no other claims");
    expect_frontend(NULL, "minecraft:overworld", "router:final_density", "mc263");
    char v121[4096];
    shared_need("vanilla/1.21.11", v121, sizeof v121);
    expect_frontend(v121, "minecraft:overworld", "router:final_density", "mc121");
    expect_frontend(CF_SOURCE_DIR "/packs/libnoise-obsidian", "minecraft:overworld", "router:final_density", "libnoise");
    expect_frontend(CF_SOURCE_DIR "/packs/hytale-legacy-islands", "minecraft:overworld", "router:final_density", "hytale");
    expect_frontend(CF_SOURCE_DIR "/packs/iris-example", "minecraft:overworld", "router:final_density", "iris");
    expect_frontend(NULL, "iris:master", "iris:style/SIMPLEX", "iris");
}

/* ---------------------------------------------------------------- ranges.h */
/* Every op of CF_OPS (kernels/cf_nodes_ops.h) against its interval rule (ir/ranges.h): operands
 * sampled within input intervals of many shapes (spanning 0, one-signed, [0, 1], degenerate,
 * large), each value of cf_op_K within the rule's interval widened as the callers widen it
 * (passes.c, bounds.c: 1e-6 relative). A NaN value (sqrt or log of a negative, 0 / 0) has no
 * interval to lie in and is skipped. The list is expanded from CF_OPS, so a new op is sampled. */
#include "ir/ranges.h"

static const double rng_shapes[][2] = {
    {-1, 1},  {0, 1},     {-2, 3},        {0.25, 0.75}, {1, 1},     {0, 0},     {-3, -0.5}, {0.5, 4},
    {-1e6, 2e6}, {1e-3, 1e-2}, {-5, 0}, {0, 5},      {-0.5, 1.5}, {2, 2.5},  {-1e-7, 1e-7}, {-40, -40},
};
#define RNG_NSHAPES (int)(sizeof rng_shapes / sizeof rng_shapes[0])

/* a float within [lo, hi]: its ends, 0, 1 and -1 where inside, else uniform */
static float rng_sample(cf_rng r, int k)
{
    double v;
    switch (k) {
    case 0: v = r.lo; break;
    case 1: v = r.hi; break;
    case 2: v = 0; break;
    case 3: v = 1; break;
    case 4: v = -1; break;
    default: v = r.lo + (r.hi - r.lo) * rnd01(); break;
    }
    if (v < r.lo || v > r.hi) v = r.lo;
    return (float)v;
}

static int rng_holds(double v, cf_rng r)
{
    return v != v || (v >= r.lo - fabs(r.lo) * 1e-6 - 1e-30 && v <= r.hi + fabs(r.hi) * 1e-6 + 1e-30);
}

Test(ranges, every_op_holds_its_samples)
{
    int ops = 0;
#define RNG_TEST_OP(K, N, USE, E)                                                                                      \
    do {                                                                                                               \
        ops++;                                                                                                         \
        long checked = 0;                                                                                              \
        for (int s0 = 0; s0 < RNG_NSHAPES; s0++)                                                                       \
            for (int s1 = 0; s1 < (N > 1 ? RNG_NSHAPES : 1); s1++)                                                     \
                for (int s2 = 0; s2 < (N > 2 ? RNG_NSHAPES : 1); s2++) {                                               \
                    cf_rng in[3];                                                                                      \
                    const int sh[3] = {s0, s1, s2};                                                                    \
                    for (int q = 0; q < 3; q++) in[q] = rng_of(rng_shapes[sh[q]][0], rng_shapes[sh[q]][1]);            \
                    /* clamp's bounds are the node's constants: the second and third shapes' ends */                  \
                    const float f[2] = {(float)fmin(in[1].lo, in[2].lo), (float)fmax(in[1].hi, in[2].hi)};             \
                    cr_assert(rng_has(NK_##K));                                                                        \
                    cf_rng r;                                                                                          \
                    cr_assert(rng_op(NK_##K, in, f, &r));                                                              \
                    for (int t = 0; t < (N > 2 ? 40 : N > 1 ? 100 : 400); t++) {                                       \
                        float a = rng_sample(in[0], t % 7 < 5 ? t % 7 : 9);                                           \
                        float b = N == 3 && NK_##K == NK_CLAMP ? f[0] : rng_sample(in[1], (t / 7) % 7 < 5 ? (t / 7) % 7 : 9); \
                        float c = N == 3 && NK_##K == NK_CLAMP ? f[1] : rng_sample(in[2], (t / 49) % 7 < 5 ? (t / 49) % 7 : 9); \
                        (void)b, (void)c;                                                                              \
                        double v = (double)CF_OP_CALL_##N(K);                                                          \
                        cr_assert(rng_holds(v, r), #K "(%.9g, %.9g, %.9g) = %.9g outside [%.9g, %.9g] (inputs [%g, %g] [%g, %g] [%g, %g])", \
                                  (double)a, (double)b, (double)c, v, r.lo, r.hi, in[0].lo, in[0].hi, in[1].lo, in[1].hi, in[2].lo, in[2].hi); \
                        checked++;                                                                                     \
                    }                                                                                                  \
                }                                                                                                      \
        cr_assert(checked > 1000, #K ": %ld samples", checked);                                                        \
    } while (0);
    CF_OPS(RNG_TEST_OP)
#undef RNG_TEST_OP
    cr_assert(ops >= 19, "%d ops", ops);
}
