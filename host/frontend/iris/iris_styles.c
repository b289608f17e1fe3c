/* iris_styles.c - the Iris front-end's NoiseStyles (shared/IRIS.md §6, §7.1) -> graph IR.
 *
 * The style table is data: one row per NoiseStyle of either branch, in the
 * construction notation of IRIS.md §6 (C(k, T, o), .s(v), .f(F, m), .p(e),
 * SIG/SIGH/SIGT/SIGD/SIGP(T)), read by a small parser into specs (c->sp) that
 * iris_style_build turns into IRIS_CNG / IRIS_SCNG nodes, children first. A row whose
 * NoiseType has no kernel yet is refused with a located error naming what is missing.
 * IrisGeneratorStyle objects of the JSON layers (iris_style_json) become specs too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend/iris/iris_ctx.h"


const style_row iris_styles[] = {
    {"STATIC", BR_B, "C(0, WHITE)"},
    {"STATIC_BILINEAR", BR_B, "C(0, WHITE_BILINEAR)"},
    {"STATIC_BICUBIC", BR_B, "C(0, WHITE_BICUBIC)"},
    {"STATIC_HERMITE", BR_B, "C(0, WHITE_HERMITE)"},
    {"IRIS", BR_B, "SIG(SIMPLEX)"},
    {"CLOVER", BR_B, "C(0, CLOVER).s(0.06)"},
    {"CLOVER_STARCAST_3", BR_B, "C(0, CLOVER_STARCAST_3)"},
    {"CLOVER_STARCAST_6", BR_B, "C(0, CLOVER_STARCAST_6)"},
    {"CLOVER_STARCAST_9", BR_B, "C(0, CLOVER_STARCAST_9)"},
    {"CLOVER_STARCAST_12", BR_B, "C(0, CLOVER_STARCAST_12)"},
    {"CLOVER_BILINEAR_STARCAST_3", BR_B, "C(0, CLOVER_BILINEAR_STARCAST_3)"},
    {"CLOVER_BILINEAR_STARCAST_6", BR_B, "C(0, CLOVER_BILINEAR_STARCAST_6)"},
    {"CLOVER_BILINEAR_STARCAST_9", BR_B, "C(0, CLOVER_BILINEAR_STARCAST_9)"},
    {"CLOVER_BILINEAR_STARCAST_12", BR_B, "C(0, CLOVER_BILINEAR_STARCAST_12)"},
    {"CLOVER_HERMITE_STARCAST_3", BR_B, "C(0, CLOVER_HERMITE_STARCAST_3)"},
    {"CLOVER_HERMITE_STARCAST_6", BR_B, "C(0, CLOVER_HERMITE_STARCAST_6)"},
    {"CLOVER_HERMITE_STARCAST_9", BR_B, "C(0, CLOVER_HERMITE_STARCAST_9)"},
    {"CLOVER_HERMITE_STARCAST_12", BR_B, "C(0, CLOVER_HERMITE_STARCAST_12)"},
    {"CLOVER_BILINEAR", BR_B, "C(0, CLOVER_BILINEAR)"},
    {"CLOVER_BICUBIC", BR_B, "C(0, CLOVER_BICUBIC)"},
    {"CLOVER_HERMITE", BR_B, "C(0, CLOVER_HERMITE)"},
    {"VASCULAR", BR_B, "C(0, VASCULAR)"},
    {"FLAT", BR_B, "C(0, FLAT)"},
    {"CELLULAR", BR_B, "C(0, CELLULAR)"},
    {"CELLULAR_STARCAST_3", BR_B, "C(0, CELLULAR_STARCAST_3)"},
    {"CELLULAR_STARCAST_6", BR_B, "C(0, CELLULAR_STARCAST_6)"},
    {"CELLULAR_STARCAST_9", BR_B, "C(0, CELLULAR_STARCAST_9)"},
    {"CELLULAR_STARCAST_12", BR_B, "C(0, CELLULAR_STARCAST_12)"},
    {"CELLULAR_BILINEAR_STARCAST_3", BR_B, "C(0, CELLULAR_BILINEAR_STARCAST_3)"},
    {"CELLULAR_BILINEAR_STARCAST_6", BR_B, "C(0, CELLULAR_BILINEAR_STARCAST_6)"},
    {"CELLULAR_BILINEAR_STARCAST_9", BR_B, "C(0, CELLULAR_BILINEAR_STARCAST_9)"},
    {"CELLULAR_BILINEAR_STARCAST_12", BR_B, "C(0, CELLULAR_BILINEAR_STARCAST_12)"},
    {"CELLULAR_HERMITE_STARCAST_3", BR_B, "C(0, CELLULAR_HERMITE_STARCAST_3)"},
    {"CELLULAR_HERMITE_STARCAST_6", BR_B, "C(0, CELLULAR_HERMITE_STARCAST_6)"},
    {"CELLULAR_HERMITE_STARCAST_9", BR_B, "C(0, CELLULAR_HERMITE_STARCAST_9)"},
    {"CELLULAR_HERMITE_STARCAST_12", BR_B, "C(0, CELLULAR_HERMITE_STARCAST_12)"},
    {"CELLULAR_BILINEAR", BR_B, "C(0, CELLULAR_BILINEAR)"},
    {"CELLULAR_BICUBIC", BR_B, "C(0, CELLULAR_BICUBIC)"},
    {"CELLULAR_HERMITE", BR_B, "C(0, CELLULAR_HERMITE)"},
    {"HEXAGON", BR_U, "C(0, HEXAGON)"},
    {"HEX_JAMES", BR_U, "C(0, HEX_JAMES)"},
    {"HEX_SIMPLEX", BR_U, "C(0, HEX_SIMPLEX)"},
    {"HEX_RANDOM_SIZE", BR_U, "C(0, HEX_RANDOM_SIZE)"},
    {"SIERPINSKI_TRIANGLE", BR_U, "C(0, SIERPINSKI_TRIANGLE)"},
    {"NOWHERE", BR_B, "SIGP(PERLIN).s(0.776)"},
    {"NOWHERE_CELLULAR", BR_B, "SIGP(CELLULAR)"},
    {"NOWHERE_CLOVER", BR_B, "SIGP(CLOVER)"},
    {"NOWHERE_HEXAGON", BR_U, "SIGP(HEXAGON)"},
    {"NOWHERE_HEX_JAMES", BR_U, "SIGP(HEX_JAMES)"},
    {"NOWHERE_HEX_SIMPLEX", BR_U, "SIGP(HEX_SIMPLEX)"},
    {"NOWHERE_HEX_RANDOM_SIZE", BR_U, "SIGP(HEX_RANDOM_SIZE)"},
    {"NOWHERE_SIERPINSKI_TRIANGLE", BR_U, "SIGP(SIERPINSKI_TRIANGLE)"},
    {"NOWHERE_SIMPLEX", BR_B, "SIGP(SIMPLEX)"},
    {"NOWHERE_GLOB", BR_B, "SIGP(GLOB)"},
    {"NOWHERE_VASCULAR", BR_B, "SIGP(VASCULAR)"},
    {"NOWHERE_CUBIC", BR_B, "SIGP(CUBIC)"},
    {"NOWHERE_SUPERFRACTAL", BR_B, "SIGP(FRACTAL_RIGID_MULTI_SIMPLEX)"},
    {"NOWHERE_FRACTAL", BR_B, "SIGP(FRACTAL_BILLOW_PERLIN)"},
    {"IRIS_DOUBLE", BR_B, "SIGD(SIMPLEX)"},
    {"IRIS_THICK", BR_B, "SIGT(SIMPLEX)"},
    {"IRIS_HALF", BR_B, "SIGH(SIMPLEX)"},
    {"SIMPLEX", BR_B, "C(0, SIMPLEX)"},
    {"FRACTAL_SMOKE", BR_B, "C(0, SIMPLEX).f(C(1, FRACTAL_BILLOW_SIMPLEX, 8).s(0.2), 1000).s(0.34)"},
    {"VASCULAR_THIN", BR_B, "C(1, VASCULAR).p(0.65)"},
    {"SIMPLEX_CELLS", BR_B, "C(1, SIMPLEX).f(C(8, CELLULAR), 200)"},
    {"SIMPLEX_VASCULAR", BR_B, "C(1, SIMPLEX).f(C(8, VASCULAR), 200)"},
    {"FRACTAL_WATER", BR_B, "C(0, SIMPLEX).f(C(1, FRACTAL_FBM_SIMPLEX, 9).s(0.03), 9900).s(1.14)"},
    {"PERLIN", BR_B, "C(0, PERLIN).s(1.15)"},
    {"PERLIN_IRIS", BR_B, "SIG(PERLIN).s(1.47)"},
    {"PERLIN_IRIS_HALF", BR_B, "SIGH(PERLIN).s(1.47)"},
    {"PERLIN_IRIS_DOUBLE", BR_B, "SIGD(PERLIN).s(1.47)"},
    {"PERLIN_IRIS_THICK", BR_B, "SIGT(PERLIN).s(1.47)"},
    {"FRACTAL_BILLOW_PERLIN", BR_B, "C(0, FRACTAL_BILLOW_PERLIN).s(1.47)"},
    {"BIOCTAVE_FRACTAL_BILLOW_PERLIN", BR_B, "C(0, FRACTAL_BILLOW_PERLIN, 2).s(1.17)"},
    {"FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX)"},
    {"FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX)"},
    {"FRACTAL_BILLOW_IRIS", BR_B, "SIG(FRACTAL_BILLOW_SIMPLEX)"},
    {"FRACTAL_FBM_IRIS", BR_B, "SIG(FRACTAL_FBM_SIMPLEX)"},
    {"FRACTAL_BILLOW_IRIS_HALF", BR_B, "SIGH(FRACTAL_BILLOW_SIMPLEX)"},
    {"FRACTAL_FBM_IRIS_HALF", BR_B, "SIGH(FRACTAL_FBM_SIMPLEX)"},
    {"FRACTAL_BILLOW_IRIS_THICK", BR_B, "SIGT(FRACTAL_BILLOW_SIMPLEX)"},
    {"FRACTAL_FBM_IRIS_THICK", BR_B, "SIGT(FRACTAL_FBM_SIMPLEX)"},
    {"FRACTAL_HEXAGON", BR_U, "C(0, HEXAGON, 4)"},
    {"FRACTAL_HEX_JAMES", BR_U, "C(0, HEX_JAMES, 4)"},
    {"FRACTAL_HEX_SIMPLEX", BR_U, "C(0, HEX_SIMPLEX, 4)"},
    {"FRACTAL_HEX_RANDOM_SIZE", BR_U, "C(0, HEX_RANDOM_SIZE, 4)"},
    {"FRACTAL_SIERPINSKI_TRIANGLE", BR_U, "C(0, SIERPINSKI_TRIANGLE, 4)"},
    {"FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX)"},
    {"BIOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 2)"},
    {"BIOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 2)"},
    {"BIOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 2)"},
    {"TRIOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 3)"},
    {"TRIOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 3)"},
    {"TRIOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 3)"},
    {"QUADOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 4)"},
    {"QUADOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 4)"},
    {"QUADOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 4)"},
    {"QUINTOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 5)"},
    {"QUINTOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 5)"},
    {"QUINTOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 5)"},
    {"SEXOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 6)"},
    {"SEXOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 6)"},
    {"SEXOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 6)"},
    {"SEPTOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 7)"},
    {"SEPTOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 7)"},
    {"SEPTOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 7)"},
    {"OCTOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 8)"},
    {"OCTOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 8)"},
    {"OCTOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 8)"},
    {"NONOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 9)"},
    {"NONOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 9)"},
    {"NONOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 9)"},
    {"VIGOCTAVE_FRACTAL_RM_SIMPLEX", BR_B, "C(0, FRACTAL_RIGID_MULTI_SIMPLEX, 10)"},
    {"VIGOCTAVE_FRACTAL_BILLOW_SIMPLEX", BR_B, "C(0, FRACTAL_BILLOW_SIMPLEX, 10)"},
    {"VIGOCTAVE_FRACTAL_FBM_SIMPLEX", BR_B, "C(0, FRACTAL_FBM_SIMPLEX, 10)"},
    {"BIOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 2).s(1/2)"},
    {"TRIOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 3).s(1/3)"},
    {"QUADOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 4).s(1/4)"},
    {"QUINTOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 5).s(1/5)"},
    {"SEXOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 6).s(1/6)"},
    {"SEPTOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 7).s(1/12)"},
    {"OCTOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 8).s(1/25)"},
    {"NONOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 9).s(1/50)"},
    {"VIGOCTAVE_SIMPLEX", BR_B, "C(0, SIMPLEX, 10).s(1/100)"},
    {"GLOB", BR_B, "C(0, GLOB)"},
    {"GLOB_IRIS", BR_B, "SIG(GLOB)"},
    {"GLOB_IRIS_HALF", BR_B, "SIGH(GLOB)"},
    {"GLOB_IRIS_DOUBLE", BR_B, "SIGD(GLOB)"},
    {"GLOB_IRIS_THICK", BR_B, "SIGT(GLOB)"},
    {"CUBIC", BR_B, "C(0, CUBIC).s(256)"},
    {"FRACTAL_CUBIC", BR_B, "C(0, FRACTAL_CUBIC).s(2)"},
    {"FRACTAL_CUBIC_IRIS", BR_B, "SIG(FRACTAL_CUBIC).s(2)"},
    {"FRACTAL_CUBIC_IRIS_THICK", BR_B, "SIGT(FRACTAL_CUBIC).s(2)"},
    {"FRACTAL_CUBIC_IRIS_HALF", BR_B, "SIGH(FRACTAL_CUBIC).s(2)"},
    {"FRACTAL_CUBIC_IRIS_DOUBLE", BR_B, "SIGD(FRACTAL_CUBIC).s(2)"},
    {"BIOCTAVE_FRACTAL_CUBIC", BR_B, "C(0, FRACTAL_CUBIC, 2).s(2)"},
    {"TRIOCTAVE_FRACTAL_CUBIC", BR_B, "C(0, FRACTAL_CUBIC, 3).s(1.5)"},
    {"QUADOCTAVE_FRACTAL_CUBIC", BR_B, "C(0, FRACTAL_CUBIC, 4)"},
    {"CUBIC_IRIS", BR_B, "SIG(CUBIC).s(256)"},
    {"CUBIC_IRIS_HALF", BR_B, "SIGH(CUBIC).s(256)"},
    {"CUBIC_IRIS_DOUBLE", BR_B, "SIGD(CUBIC).s(256)"},
    {"CUBIC_IRIS_THICK", BR_B, "SIGT(CUBIC).s(256)"},
    {"HEXAGON_IRIS", BR_U, "SIG(HEXAGON)"},
    {"HEXAGON_IRIS_DOUBLE", BR_U, "SIGD(HEXAGON)"},
    {"HEXAGON_IRIS_THICK", BR_U, "SIGT(HEXAGON)"},
    {"HEXAGON_IRIS_HALF", BR_U, "SIGH(HEXAGON)"},
    {"HEX_JAMES_IRIS", BR_U, "SIG(HEX_JAMES)"},
    {"HEX_JAMES_IRIS_DOUBLE", BR_U, "SIGD(HEX_JAMES)"},
    {"HEX_JAMES_IRIS_THICK", BR_U, "SIGT(HEX_JAMES)"},
    {"HEX_JAMES_IRIS_HALF", BR_U, "SIGH(HEX_JAMES)"},
    {"HEX_SIMPLEX_IRIS", BR_U, "SIG(HEX_SIMPLEX)"},
    {"HEX_SIMPLEX_IRIS_DOUBLE", BR_U, "SIGD(HEX_SIMPLEX)"},
    {"HEX_SIMPLEX_IRIS_THICK", BR_U, "SIGT(HEX_SIMPLEX)"},
    {"HEX_SIMPLEX_IRIS_HALF", BR_U, "SIGH(HEX_SIMPLEX)"},
    {"HEX_RANDOM_SIZE_IRIS", BR_U, "SIG(HEX_RANDOM_SIZE)"},
    {"HEX_RANDOM_SIZE_IRIS_DOUBLE", BR_U, "SIGD(HEX_RANDOM_SIZE)"},
    {"HEX_RANDOM_SIZE_IRIS_THICK", BR_U, "SIGT(HEX_RANDOM_SIZE)"},
    {"HEX_RANDOM_SIZE_IRIS_HALF", BR_U, "SIGH(HEX_RANDOM_SIZE)"},
    {"CELLULAR_IRIS", BR_B, "SIG(CELLULAR)"},
    {"CELLULAR_IRIS_THICK", BR_B, "SIGT(CELLULAR)"},
    {"CELLULAR_IRIS_DOUBLE", BR_B, "SIGD(CELLULAR)"},
    {"CELLULAR_IRIS_HALF", BR_B, "SIGH(CELLULAR)"},
    {"CELLULAR_HEIGHT", BR_B, "C(0, CELLULAR_HEIGHT)"},
    {"CELLULAR_HEIGHT_IRIS", BR_B, "SIG(CELLULAR_HEIGHT)"},
    {"CELLULAR_HEIGHT_IRIS_DOUBLE", BR_B, "SIGD(CELLULAR_HEIGHT)"},
    {"CELLULAR_HEIGHT_IRIS_THICK", BR_B, "SIGT(CELLULAR_HEIGHT)"},
    {"CELLULAR_HEIGHT_IRIS_HALF", BR_B, "SIGH(CELLULAR_HEIGHT)"},
    {"VASCULAR_IRIS", BR_B, "SIG(VASCULAR)"},
    {"VASCULAR_IRIS_DOUBLE", BR_B, "SIGD(VASCULAR)"},
    {"VASCULAR_IRIS_THICK", BR_B, "SIGT(VASCULAR)"},
    {"VASCULAR_IRIS_HALF", BR_B, "SIGH(VASCULAR)"},
};
#define NSTYLES ((int)(sizeof iris_styles / sizeof iris_styles[0]))

/* NoiseType names -> kernels (CF_IG_*); -1: a NoiseType without a kernel yet */
static const struct {
    const char *name;
    int t;
} types[] = {
    {"FLAT", CF_IG_FLAT},
    {"SIMPLEX", CF_IG_SIMPLEX},
    {"PERLIN", CF_IG_PERLIN},
    {"FRACTAL_FBM_SIMPLEX", CF_IG_FBM_SIMPLEX},
    {"FRACTAL_BILLOW_SIMPLEX", CF_IG_BILLOW_SIMPLEX},
    {"FRACTAL_RIGID_MULTI_SIMPLEX", CF_IG_RM_SIMPLEX},
    {"FRACTAL_BILLOW_PERLIN", CF_IG_BILLOW_PERLIN},
    {"CUBIC", CF_IG_CUBIC},
    {"FRACTAL_CUBIC", CF_IG_FRACTAL_CUBIC},
    {"VASCULAR", CF_IG_VASCULAR},
    {"CELLULAR_HEIGHT", CF_IG_CELLULAR_HEIGHT},
    {"GLOB", CF_IG_GLOB},
    {"CELLULAR", CF_IG_CELLULAR},
    {"WHITE", CF_IG_WHITE},
    {"HEXAGON", CF_IG_HEXAGON},
    {"HEX_SIMPLEX", CF_IG_HEX_SIMPLEX},
    {"HEX_JAMES", CF_IG_HEX_JAMES},
    {"HEX_RANDOM_SIZE", CF_IG_HEX_RANDOM},
    {"SIERPINSKI_TRIANGLE", CF_IG_SIERPINSKI},
    {"CLOVER", CF_IG_CLOVER},
};


static void skip(ic *c)
{
    while (*c->s == ' ') c->s++;
}
static int eat(ic *c, const char *tok)
{
    skip(c);
    size_t l = strlen(tok);
    if (strncmp(c->s, tok, l) != 0) return 0;
    c->s += l;
    return 1;
}
static double number(ic *c)
{
    skip(c);
    char *e;
    double a = strtod(c->s, &e);
    c->s = e;
    if (*c->s == '/') {
        c->s++;
        double b = strtod(c->s, &e);
        c->s = e;
        a = a / b;
    }
    return a;
}
static int type_of(ic *c)
{
    skip(c);
    size_t l = 0;
    while ((c->s[l] >= 'A' && c->s[l] <= 'Z') || (c->s[l] >= '0' && c->s[l] <= '9') || c->s[l] == '_') l++;
    int t = -1;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == l && strncmp(types[i].name, c->s, l) == 0) t = types[i].t;
    /* interpolated types BASE_METHOD (IRIS.md §4.3) */
    static const char *const bases[] = {"CELLULAR_", "WHITE_", "CLOVER_"};
    static const char *const methods[] = {"BILINEAR", "BICUBIC", "HERMITE", "STARCAST_3", "STARCAST_6", "STARCAST_9", "STARCAST_12",
                                          "BILINEAR_STARCAST_3", "BILINEAR_STARCAST_6", "BILINEAR_STARCAST_9", "BILINEAR_STARCAST_12",
                                          "HERMITE_STARCAST_3", "HERMITE_STARCAST_6", "HERMITE_STARCAST_9", "HERMITE_STARCAST_12"};
    for (int b = 0; b < 3 && t < 0; b++) {
        size_t bl = strlen(bases[b]);
        if (l <= bl || strncmp(c->s, bases[b], bl) != 0) continue;
        for (int m = 0; m < 15; m++)
            if (strlen(methods[m]) == l - bl && strncmp(c->s + bl, methods[m], l - bl) == 0) t = CF_IG_INTERP + 16 * b + m;
    }
    if (t < 0 && !c->missing[0]) snprintf(c->missing, sizeof c->missing, "%.*s", (int)(l < 60 ? l : 60), c->s);
    c->s += l;
    return t < 0 ? CF_IG_FLAT : t;
}
static int spec(ic *c, int64_t k, int t, int oct)
{
    if (c->nsp >= MAX_SPECS) return c->overflow = 1, -1;
    /* kcng(1, o) = (long)(1113334944.0 * 1 + 12922.0 + o) */
    c->sp[c->nsp] = (cspec){(int64_t)((uint64_t)c->kbase + (uint64_t)k + 1113347866ULL + (uint64_t)oct), t, oct, 1.0, 1.0, 1.0, -1,
                            0, 0, 0.0, 0.0, 0, 0};
    return c->nsp++;
}
static int fracture(ic *c, int base, int f, double m)
{
    if (base < 0 || f < 0) return -1;
    c->sp[base].frac = f, c->sp[base].fm = m;
    return base;
}
/* SIG(T) and its variants (IRIS.md §5.4), seeds relative to rng + b */
static int signature(ic *c, const char *form, int64_t b, int t)
{
    if (strcmp(form, "SIGP") == 0) {
        int l1 = spec(c, b + 18, CF_IG_PERLIN, 1);
        if (l1 < 0) return -1;
        c->sp[l1].scale = 1.25;
        return fracture(c, spec(c, b + 124996, t, 1), l1, 250);
    }
    if (strcmp(form, "SIGD") == 0) return fracture(c, spec(c, b + 133, t, 1), signature(c, "SIG", b + 4956, CF_IG_SIMPLEX), 93);
    int half = strcmp(form, "SIGH") == 0, thick = strcmp(form, "SIGT") == 0;
    int l3 = spec(c, b + 20, CF_IG_SIMPLEX, 1);
    int l2 = spec(c, b + 20, CF_IG_SIMPLEX, 1);
    int l1 = spec(c, b + 18, CF_IG_SIMPLEX, 1);
    int b0 = spec(c, b + (half ? 127 : thick ? 133 : 17), t, 1);
    if (b0 < 0) return -1;
    c->sp[l3].scale = thick ? 0.4 : 0.9;
    c->sp[l2].scale = thick ? 0.11 : 0.21;
    c->sp[l1].scale = thick ? 0.5 : 0.9;
    fracture(c, l2, l3, half ? 420 : 620);
    fracture(c, l1, l2, half ? 99 : 145);
    return fracture(c, b0, l1, half ? 22 : 44);
}
/* expr := prim ('.s(' num ')' | '.p(' num ')' | '.f(' expr ',' num ')')* */
int iris_style_expr(ic *c)
{
    int node = -1;
    skip(c);
    if (eat(c, "C(")) {
        int64_t k = (int64_t)number(c);
        eat(c, ",");
        int t = type_of(c);
        int oct = 1;
        if (eat(c, ",")) oct = (int)number(c);
        eat(c, ")");
        node = spec(c, k, t, oct);
    } else {
        const char *forms[] = {"SIGP", "SIGD", "SIGH", "SIGT", "SIG"};
        for (int i = 0; i < 5 && node < 0; i++)
            if (eat(c, forms[i])) {
                eat(c, "(");
                int t = type_of(c);
                eat(c, ")");
                node = signature(c, forms[i], 0, t);
            }
    }
    if (node < 0) return -1;
    for (;;) {
        if (eat(c, ".s(")) c->sp[node].scale = number(c);
        else if (eat(c, ".p(")) c->sp[node].power = number(c);
        else if (eat(c, ".f(")) {
            int f = iris_style_expr(c);
            eat(c, ",");
            if (fracture(c, node, f, number(c)) < 0) return -1;
        } else break;
        if (!eat(c, ")")) return -1;
    }
    return node;
}

/* ------------------------------------------------------------------ nodes */
int iris_node_add(ic *c, const cf_node *n) { return ir_node_add(c->p, NULL, n, "graph", c->err); }

/* the seed fields of a seeded node: RNG seed = base(i[5]) + d[4] (|k| < 2^53) */
int iris_seed_fields(ic *c, cf_node *n, int64_t k)
{
    if (k > (1LL << 53) || k < -(1LL << 53))
        return loc_fail(c->err, n->loc, CF_ERR_LIMIT, "seed offsets beyond 2^53 are not supported (%lld)", (long long)k);
    n->d[4] = (double)k;
    n->i[5] = c->smode;
    if ((c->smode & 3) == SB_CLIFF) {
        n->nda = 2;
        n->da = arena_alloc(&c->p->arena, 2 * sizeof(double));
        if (!n->da) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
        n->da[0] = c->cgseed, n->da[1] = c->chc;
    }
    return 0;
}

int iris_style_build(ic *c, int i, int dims);
/* the CNG of spec i sampled in dims (2 or 3), children first */
static int build_scng(ic *c, int i, int dims);
static int build_cng(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    if (s->t == CF_IG_SOURCE) return build_scng(c, i, dims);
    cf_node n = ir_node_of(NK_IRIS_CNG, PREC_F64, c->at.file ? c->at : (cf_loc){"<arguments>", NULL});
    n.i[0] = s->t, n.i[1] = s->oct, n.i[2] = c->br, n.i[3] = dims, n.i[4] = 0;
    /* WHITE is no-scale: CNG ignores its scale and fracture (IRIS.md §4.1) */
    n.d[0] = s->t == CF_IG_WHITE ? 1.0 : s->scale, n.d[1] = s->power, n.d[2] = s->fm, n.d[3] = 1.0;
    if (iris_seed_fields(c, &n, s->k) < 0) return -1;
    int kids[2], nk = 0;
    if (s->frac >= 0 && s->t != CF_IG_WHITE) {
        const cspec *f = &c->sp[s->frac];
        n.i[4] = f->axial && !f->cell; /* the fracture's trueFrac (a cellularized CNG is a new one) */
        if ((kids[nk++] = iris_style_build(c, s->frac, dims)) < 0) return -1;
        if (dims == 3 && c->br == CF_IR_UNIFICATION && (kids[nk++] = iris_style_build(c, s->frac, 2)) < 0) return -1;
    }
    n.nin = nk;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nk ? nk : 1));
    if (!n.in) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return iris_node_add(c, &n);
}

/* a CNG around the generator sub-graph s->gnode (IRIS_SCNG): no seeds, opacity 1 */
static int build_scng(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    cf_node n = ir_node_of(NK_IRIS_SCNG, PREC_F64, c->at.file ? c->at : (cf_loc){"<arguments>", NULL});
    n.i[2] = c->br, n.i[3] = dims;
    n.d[0] = s->scale, n.d[1] = s->power, n.d[2] = s->fm, n.d[3] = 1.0;
    int kids[3], nk = 0;
    kids[nk++] = s->gnode;
    if (s->frac >= 0) {
        const cspec *f = &c->sp[s->frac];
        n.i[4] = f->axial && !f->cell;
        if ((kids[nk++] = iris_style_build(c, s->frac, dims)) < 0) return -1;
        if (dims == 3 && c->br == CF_IR_UNIFICATION && (kids[nk++] = iris_style_build(c, s->frac, 2)) < 0) return -1;
    }
    if (ir_set_inputs(c->p, &n, nk, c->err) < 0) return -1;
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return iris_node_add(c, &n);
}

/* spec i in dims: its CNG, or the cellularize node around its 2-D CNG (§5.5) */
int iris_style_build(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    if (!s->cell) return build_cng(c, i, dims);
    int src = build_cng(c, i, 2);
    if (src < 0) return -1;
    cf_node n = ir_node_of(NK_IRIS_CELLZ, PREC_F64, c->at.file ? c->at : (cf_loc){"<arguments>", NULL});
    n.i[3] = dims;
    n.d[0] = s->czs, n.d[1] = s->cfr;
    if (iris_seed_fields(c, &n, s->ck) < 0 || ir_set_inputs(c->p, &n, 1, c->err) < 0) return -1;
    n.in[0] = src;
    return iris_node_add(c, &n);
}

/* iris:all: IRIS_ROWS over every implemented style of the branch (3-D, 2-D) */
int iris_build_all(ic *c)
{
    int kids[2 * NSTYLES], nk = 0;
    for (int i = 0; i < NSTYLES; i++) {
        if (!(iris_styles[i].br & (c->br == CF_IR_MASTER ? BR_M : BR_U))) continue;
        c->nsp = 0;
        c->missing[0] = 0;
        c->s = iris_styles[i].cons;
        int top = iris_style_expr(c);
        if (top < 0 || c->missing[0]) continue;
        if ((kids[nk++] = iris_style_build(c, top, 3)) < 0 || (kids[nk++] = iris_style_build(c, top, 2)) < 0) return -1;
    }
    cf_node n = ir_node_of(NK_IRIS_ROWS, PREC_F64, (cf_loc){"<arguments>", NULL});
    n.nin = nk;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nk ? nk : 1));
    if (!n.in) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    memcpy(n.in, kids, sizeof(int) * (size_t)nk);
    return iris_node_add(c, &n);
}



/* IrisGeneratorStyle's other value sources (IRIS.md §7.1): a style whose
 * `expression` (expressions/<key>.json) or `imageMap` (an IrisImageMap object,
 * images/<key>.png) is set: the generator sub-graph comes from iris_expr.c
 * (iris_expr_generator, iris_image_generator), wrapped in a spec of kind
 * CF_IG_SOURCE (new CNG(rng, generator, 1, 1): no seed offset, scale 1) that
 * style_json then zooms, powers, fractures and cellularizes like a NoiseStyle.
 * `script` (master) is refused. Returns the spec index, or -1 (located error). */
static int style_source_hook(ic *c, const cJSON *o, cf_loc at, const char *field, int64_t kb)
{
    cf_loc fat = loc_key(&c->p->arena, at, field);
    const cJSON *v = field_get(&gson, NULL, o, field);
    int g;
    if (strcmp(field, "expression") == 0) {
        if (!cJSON_IsString(v)) return loc_fail(c->err, fat, CF_ERR_SCHEMA, "expected an expression key (a string), got %s", json_type(v));
        g = iris_expr_generator(c, v->valuestring, fat, kb, 3);
    } else if (strcmp(field, "imageMap") == 0) {
        g = iris_image_generator(c, v, fat, 3);
    } else {
        return loc_fail(c->err, fat, CF_ERR_SCHEMA, "%s: not supported (JavaScript noise)", field);
    }
    if (g < 0) return -1;
    if (c->nsp >= MAX_SPECS) return loc_fail(c->err, at, CF_ERR_LIMIT, "the style and its fractures make more than %d CNGs", MAX_SPECS);
    c->sp[c->nsp] = (cspec){0, CF_IG_SOURCE, 1, 1.0, 1.0, 1.0, -1, 0, 0, 0.0, 0.0, 0, g};
    return c->nsp++;
}

static int style_index(int br, const char *name)
{
    for (int i = 0; i < NSTYLES; i++)
        if (strcmp(iris_styles[i].name, name) == 0 && (iris_styles[i].br & (br == CF_IR_MASTER ? BR_M : BR_U))) return i;
    return -1;
}

/* IrisGeneratorStyle (IRIS.md §7.1) at `at`, its RNG at offset kb from the seed
 * base: the spec index of the CNG create() returns, or -1 (err set). o NULL:
 * every field at its default, the NoiseStyle defname. */
int iris_style_json(ic *c, const cJSON *o, cf_loc at, int64_t kb, int depth, const char *defname)
{
    if (o && !cJSON_IsObject(o))
        return loc_fail(c->err, at, CF_ERR_SCHEMA, "expected an IrisGeneratorStyle object, got %s", json_type(o));
    if (depth > 16) return loc_fail(c->err, at, CF_ERR_LIMIT, "fractures are nested deeper than 16");
    static const char *const others[3] = {"expression", "imageMap", "script"};
    const char *other = NULL;
    for (int i = 0; i < 3 && !other; i++) {
        const cJSON *v = field_get(&gson, NULL, o, others[i]);
        if (v && !(cJSON_IsString(v) && !v->valuestring[0])) other = others[i];
    }
    const char *name = defname;
    const cJSON *sv = field_get(&gson, NULL, o, "style");
    if (sv && !cJSON_IsString(sv))
        return loc_fail(c->err, loc_key(&c->p->arena, at, "style"), CF_ERR_SCHEMA, "expected a NoiseStyle name, got %s", json_type(sv));
    if (sv) name = sv->valuestring;
    double zoom, exponent, cfreq, czoom, cache;
    int axial;
    if (field_num(&c->f, NULL, o, at, "zoom", 0, 1, &zoom) < 0 || field_num(&c->f, NULL, o, at, "exponent", 0, 1, &exponent) < 0 ||
        field_bool(&c->f, NULL, o, at, "axialFracturing", 0, 0, &axial) < 0 || field_num(&c->f, NULL, o, at, "cellularFrequency", 0, 0, &cfreq) < 0 ||
        field_num(&c->f, NULL, o, at, "cellularZoom", 0, 1, &czoom) < 0 || field_num(&c->f, NULL, o, at, "cacheSize", 0, 0, &cache) < 0)
        return -1;
    if (cache > 0)
        return loc_fail(c->err, loc_key(&c->p->arena, at, "cacheSize"), CF_ERR_SCHEMA,
                        "cacheSize: not supported (Iris's FloatCache of f32 values); remove it");
    if (depth == 0) c->nsp = 0; /* the specs of the styles built before are nodes already */
    c->kbase = kb;
    c->missing[0] = 0;
    int top;
    if (other) {
        /* an expression or image map replaces the NoiseStyle: the hook builds it */
        if ((top = style_source_hook(c, o, at, other, kb)) < 0) return -1;
    } else {
        int row = style_index(c->br, name);
        if (row < 0)
            return loc_fail(c->err, sv ? loc_key(&c->p->arena, at, "style") : at, CF_ERR_REF,
                            "unknown NoiseStyle \"%s\" on Iris's %s branch", name, c->br == CF_IR_MASTER ? "master" : "unification");
        c->s = iris_styles[row].cons;
        top = iris_style_expr(c);
    }
    if (c->overflow) return loc_fail(c->err, at, CF_ERR_LIMIT, "the style and its fractures make more than %d CNGs", MAX_SPECS);
    if (top < 0 || c->missing[0])
        return loc_fail(c->err, at, CF_ERR_SCHEMA, "NoiseStyle %s cannot be built (%s)", name, c->missing[0] ? c->missing : "construction");
    c->sp[top].scale = c->sp[top].scale * (1.0 / zoom);
    c->sp[top].power = exponent;
    c->sp[top].axial = axial;
    const cJSON *fr = field_get(&gson, NULL, o, "fracture");
    if (fr) {
        cf_loc fat = loc_key(&c->p->arena, at, "fracture");
        double m;
        m = 1;
        if (cJSON_IsObject(fr) && field_num(&c->f, NULL, fr, fat, "multiplier", 0, 1, &m) < 0) return -1;
        int f = iris_style_json(c, fr, fat, wadd(kb, 2934), depth + 1, "FLAT");
        if (f < 0) return -1;
        c->sp[top].frac = f, c->sp[top].fm = m;
    }
    if (cfreq > 0) {
        c->sp[top].cell = 1;
        c->sp[top].cfr = (double)((float)cfreq * 0.01f);
        c->sp[top].czs = 1.0 / czoom;
        c->sp[top].ck = wadd(kb, 884466);
    }
    return top;
}

/* ------------------------------------------------------------------ for iris_expr.c (iris.h) */
int iris_ctx_style(iris_ctx *x, const cJSON *o, cf_loc at, int64_t kb, int dims)
{
    ic *c = x;
    if (c->depth >= 8) return loc_fail(c->err, at, CF_ERR_LIMIT, "expressions and their styles are nested deeper than 8");
    int keep_nsp = c->nsp;
    cf_loc keep = c->at;
    c->depth++;
    int top = iris_style_json(c, o, at, kb, 1, "FLAT"); /* depth 1: keeps the caller's specs (no reset) */
    c->at = at;
    int node = top < 0 ? -1 : iris_style_build(c, top, dims);
    c->at = keep;
    c->depth--;
    c->nsp = keep_nsp; /* the style's specs are built: free them for the caller's */
    return node;
}
cf_program *iris_ctx_program(iris_ctx *x) { return x->p; }
cf_error *iris_ctx_error(iris_ctx *x) { return x->err; }
cf_pack *iris_ctx_pack(iris_ctx *x) { return x->pk; }


int iris_style_count(void) { return NSTYLES; }
const char *iris_style_name(int i, int *branches)
{
    if (i < 0 || i >= NSTYLES) return NULL;
    if (branches) *branches = iris_styles[i].br;
    return iris_styles[i].name;
}

/* 1 when the style exists on the branch and every NoiseType it uses has a
 * kernel; 0 when a NoiseType is missing (named in missing); -1 when no such style */
int iris_style_status(const char *name, int unification, char *missing, size_t msz)
{
    for (int i = 0; i < NSTYLES; i++) {
        if (strcmp(iris_styles[i].name, name) != 0) continue;
        if (!(iris_styles[i].br & (unification ? BR_U : BR_M))) return -1;
        ic c = {0};
        c.s = iris_styles[i].cons;
        iris_style_expr(&c);
        if (missing) snprintf(missing, msz, "%s", c.missing);
        return c.missing[0] ? 0 : 1;
    }
    return -1;
}
