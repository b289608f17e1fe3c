/* iris.c - the Iris front-end: NoiseStyles -> graph IR (shared/IRIS.md).
 *
 * Input: the requested functions iris:style/NAME (3-D: Iris's noise(x, y, z))
 * and iris:style/NAME#2d (2-D: Iris's noise(x, z), read from the position's x
 * and z), and the dialect from the settings id (iris:master, the default, or
 * iris:unification). Output: prog->nodes of kind IRIS_CNG (host/iris.def),
 * children first, dialect DIALECT_IRIS_MASTER/UNIFICATION. A style needs no
 * pack. The seeds of every CNG come from Iris's RNG per world (iris_seeds,
 * called by seed_bind); the kernels are kernels/cf_iris.h.
 *
 * The style table is data: one row per NoiseStyle of either branch, in the
 * construction notation of IRIS.md §6 (C(k, T, o), .s(v), .f(F, m), .p(e),
 * SIG/SIGH/SIGT/SIGD/SIGP(T)), read by a small parser. A row whose NoiseType
 * has no kernel yet is refused with a located error naming what is missing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/cf_iris.h"
#include "cf.h"

/* ------------------------------------------------------------------ Java RNG (IRIS.md §2) */
typedef struct jrng {
    uint64_t s;
} jrng;
#define JR_MASK ((1ULL << 48) - 1)
static jrng jr_new(int64_t seed) { return (jrng){((uint64_t)seed ^ 0x5DEECE66DULL) & JR_MASK}; }
static int32_t jr_next(jrng *r, int bits)
{
    r->s = (r->s * 0x5DEECE66DULL + 0xBULL) & JR_MASK;
    return (int32_t)(uint32_t)(r->s >> (48 - bits));
}
static uint64_t jr_k53(jrng *r)
{
    uint64_t a = (uint64_t)(int64_t)jr_next(r, 26);
    return (a << 27) + (uint64_t)(int64_t)jr_next(r, 27);
}
/* RNG.lmax(): (k << 11) - 2^63 with k the 53-bit integer of one nextDouble() */
static int64_t jr_lmax(jrng *r) { return (int64_t)((jr_k53(r) << 11) - 0x8000000000000000ULL); }
/* RNG.imax(): d2i(floor(-2^31 + u * 4294967295.0)) */
static int32_t jr_imax(jrng *r)
{
    double u = (double)jr_k53(r) * 0x1.0p-53;
    return cf_ir_d2i(floor(-2147483648.0 + u * 4294967295.0));
}
/* Random.nextInt(origin, bound), JDK 17's bounded form (n not a power of two here) */
static int32_t jr_next_int(jrng *r, int32_t origin, int32_t bound)
{
    int32_t rv = jr_next(r, 32);
    int32_t n = (int32_t)((uint32_t)bound - (uint32_t)origin);
    if (n <= 0) return rv; /* not reached: Iris asks for (-32768, 32767) */
    if ((n & (n - 1)) == 0) return (int32_t)(((uint32_t)rv & (uint32_t)(n - 1)) + (uint32_t)origin);
    uint32_t u = (uint32_t)rv >> 1;
    for (;;) {
        rv = (int32_t)(u % (uint32_t)n);
        if ((int32_t)(u + (uint32_t)(n - 1) - (uint32_t)rv) < 0) u = (uint32_t)jr_next(r, 32) >> 1;
        else break;
    }
    return (int32_t)((uint32_t)rv + (uint32_t)origin);
}

/* ------------------------------------------------------------------ the style table (IRIS.md §6) */
enum { BR_M = 1, BR_U = 2, BR_B = 3 };
typedef struct style_row {
    const char *name;
    int br;
    const char *cons;
} style_row;

static const style_row styles[] = {
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
#define NSTYLES ((int)(sizeof styles / sizeof styles[0]))

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

/* ------------------------------------------------------------------ construction notation */
#define MAX_SPECS 48
typedef struct cspec {
    int64_t k;      /* seed offset from the style's RNG (k + kcng) */
    int t, oct;
    double scale, power, fm;
    int frac;       /* index of the fracture CNG, or -1 */
} cspec;

typedef struct ic {
    cf_program *p;
    cf_error *err;
    int br;
    const char *fn;      /* the function being built (errors) */
    const char *s;       /* parse position */
    cspec sp[MAX_SPECS];
    int nsp;
    char missing[64];    /* first NoiseType without a kernel */
} ic;

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
    if (c->nsp >= MAX_SPECS) return -1;
    /* kcng(1, o) = (long)(1113334944.0 * 1 + 12922.0 + o) */
    c->sp[c->nsp] = (cspec){(int64_t)((uint64_t)k + 1113347866ULL + (uint64_t)oct), t, oct, 1.0, 1.0, 1.0, -1};
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
static int expr(ic *c)
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
            int f = expr(c);
            eat(c, ",");
            if (fracture(c, node, f, number(c)) < 0) return -1;
        } else break;
        if (!eat(c, ")")) return -1;
    }
    return node;
}

/* ------------------------------------------------------------------ nodes */
static int node_add(ic *c, const cf_node *n) { return ir_node_add(c->p, NULL, n, "graph", c->err); }

/* the CNG of spec i sampled in dims (2 or 3), children first */
static int build(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    cf_node n = {0};
    n.kind = NK_IRIS_CNG;
    n.flags = node_flags[NK_IRIS_CNG];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = (cf_loc){"<arguments>", NULL};
    n.i[0] = s->t, n.i[1] = s->oct, n.i[2] = c->br, n.i[3] = dims, n.i[4] = 0;
    n.d[0] = s->scale, n.d[1] = s->power, n.d[2] = s->fm, n.d[3] = 1.0, n.d[4] = (double)s->k;
    int kids[2], nk = 0;
    if (s->frac >= 0 && s->t != CF_IG_WHITE) { /* WHITE is no-scale: CNG ignores scale and fracture */
        if ((kids[nk++] = build(c, s->frac, dims)) < 0) return -1;
        if (dims == 3 && c->br == CF_IR_UNIFICATION && (kids[nk++] = build(c, s->frac, 2)) < 0) return -1;
    }
    n.nin = nk;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nk ? nk : 1));
    if (!n.in) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return node_add(c, &n);
}

/* iris:all: IRIS_ROWS over every implemented style of the branch (3-D, 2-D) */
static int build_all(ic *c)
{
    int kids[2 * NSTYLES], nk = 0;
    for (int i = 0; i < NSTYLES; i++) {
        if (!(styles[i].br & (c->br == CF_IR_MASTER ? BR_M : BR_U))) continue;
        c->nsp = 0;
        c->missing[0] = 0;
        c->s = styles[i].cons;
        int top = expr(c);
        if (top < 0 || c->missing[0]) continue;
        if ((kids[nk++] = build(c, top, 3)) < 0 || (kids[nk++] = build(c, top, 2)) < 0) return -1;
    }
    cf_node n = {0};
    n.kind = NK_IRIS_ROWS;
    n.flags = node_flags[NK_IRIS_ROWS];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = (cf_loc){"<arguments>", NULL};
    n.nin = nk;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nk ? nk : 1));
    if (!n.in) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    memcpy(n.in, kids, sizeof(int) * (size_t)nk);
    return node_add(c, &n);
}

/* ------------------------------------------------------------------ public */
int iris_wanted(const char *settings_id, const char *const *functions, int n)
{
    if (settings_id && strncmp(settings_id, "iris:", 5) == 0) return 1;
    for (int i = 0; i < n; i++)
        if (functions[i] && strncmp(functions[i], "iris:", 5) == 0) return 1;
    return 0;
}

int iris_style_count(void) { return NSTYLES; }
const char *iris_style_name(int i, int *branches)
{
    if (i < 0 || i >= NSTYLES) return NULL;
    if (branches) *branches = styles[i].br;
    return styles[i].name;
}

/* 1 when the style exists on the branch and every NoiseType it uses has a
 * kernel; 0 when a NoiseType is missing (named in missing); -1 when no such style */
int iris_style_status(const char *name, int unification, char *missing, size_t msz)
{
    for (int i = 0; i < NSTYLES; i++) {
        if (strcmp(styles[i].name, name) != 0) continue;
        if (!(styles[i].br & (unification ? BR_U : BR_M))) return -1;
        ic c = {0};
        c.s = styles[i].cons;
        expr(&c);
        if (missing) snprintf(missing, msz, "%s", c.missing);
        return c.missing[0] ? 0 : 1;
    }
    return -1;
}

cf_status iris_parse(cf_program *p, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    cf_loc cli = {"<arguments>", NULL};
    ic c = {0};
    c.p = p;
    c.err = err;
    p->prec = PREC_F64;
    p->min_y = 0, p->height = 256, p->sea_level = 64;
    const char *dl = settings_id && strncmp(settings_id, "iris:", 5) == 0 ? settings_id + 5 : "master";
    if (strcmp(dl, "master") == 0) c.br = CF_IR_MASTER;
    else if (strcmp(dl, "unification") == 0) c.br = CF_IR_UNIFICATION;
    else return err_set(err, CF_ERR_ARG, "%s: unknown Iris dialect \"%s\" (master or unification)", cli.file, dl);
    p->dialect = c.br == CF_IR_MASTER ? DIALECT_IRIS_MASTER : DIALECT_IRIS_UNIFICATION;
    p->settings_id = arena_printf(&p->arena, "iris:%s", dl);
    p->noutputs = nfn;
    p->outputs = arena_alloc(&p->arena, sizeof(int) * (size_t)(nfn + 1));
    p->output_names = arena_alloc(&p->arena, sizeof(char *) * (size_t)(nfn + 1));
    if (!p->outputs || !p->output_names || !p->settings_id) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (int f = 0; f < nfn; f++) {
        const char *fn = functions[f];
        p->output_names[f] = arena_strdup(&p->arena, fn);
        if (strcmp(fn, "iris:all") == 0) {
            if ((p->outputs[f] = build_all(&c)) < 0) return err->status;
            continue;
        }
        if (strncmp(fn, "iris:style/", 11) != 0)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": an Iris program takes iris:style/NAME", cli.file, fn);
        char name[128];
        const char *nm = fn + 11, *hash = strchr(nm, '#');
        int dims = 3;
        size_t l = hash ? (size_t)(hash - nm) : strlen(nm);
        if (hash && strcmp(hash, "#2d") == 0) dims = 2;
        else if (hash)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": unknown suffix \"%s\" (#2d)", cli.file, fn, hash);
        if (l == 0 || l >= sizeof name)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": expected iris:style/NAME", cli.file, fn);
        memcpy(name, nm, l);
        name[l] = 0;
        int row = -1;
        for (int i = 0; i < NSTYLES; i++)
            if (strcmp(styles[i].name, name) == 0 && (styles[i].br & (c.br == CF_IR_MASTER ? BR_M : BR_U))) row = i;
        if (row < 0)
            return err_set(err, CF_ERR_REF, "%s: function \"%s\": unknown NoiseStyle \"%s\" on Iris's %s branch", cli.file,
                           fn, name, dl);
        c.nsp = 0;
        c.missing[0] = 0;
        c.s = styles[row].cons;
        int top = expr(&c);
        if (top < 0) return err_set(err, CF_ERR_ARG, "iris.c: style %s: bad construction \"%s\"", name, styles[row].cons);
        if (c.missing[0])
            return err_set(err, CF_ERR_SCHEMA, "%s: function \"%s\": NoiseStyle %s needs NoiseType %s, not implemented yet",
                           cli.file, fn, name, c.missing);
        int node = build(&c, top, dims);
        if (node < 0) return err->status;
        p->outputs[f] = node;
    }
    return CF_OK;
}

/* a SIMPLEX generator built from RNG(gseed) + k: its kernel seed */
static int64_t heat_seed(int64_t g, int64_t k)
{
    jrng r = jr_new((int64_t)((uint64_t)g + (uint64_t)k));
    r = jr_new(jr_lmax(&r));
    return jr_lmax(&r);
}

/* Per world: the seeds of every CNG node (IRIS.md §2.3), 6 x i64 per node after
 * the 16-byte header of the double dialects: kernel seed S, the FastNoise seed
 * S32, the unification offsets ox, oz, and the hexagon family's heat (and
 * structure) simplex seeds. gseed = RNG(seed + k + kcng).lmax(). */
cf_status iris_seeds(cf_world *w, cf_error *err)
{
    const cf_program *p = w->prog;
    size_t len = 16 + 48 * ((size_t)p->nnodes + 1);
    w->tab = calloc(1, len);
    if (!w->tab) return err_set(err, CF_ERR_NOMEM, "out of memory");
    w->tablen = len;
    memcpy(w->tab, &w->lseed, sizeof w->lseed);
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->kind != NK_IRIS_CNG) continue;
        int64_t v[6] = {0};
        jrng r = jr_new((int64_t)((uint64_t)w->seed + (uint64_t)(int64_t)n->d[4]));
        int64_t g = jr_lmax(&r);
        r = jr_new(g);
        v[0] = jr_lmax(&r);
        r = jr_new(g);
        v[1] = jr_imax(&r);
        r = jr_new(g);
        v[2] = jr_next_int(&r, -32768, 32767);
        v[3] = jr_next_int(&r, -32768, 32767);
        switch (n->i[0]) {
        case CF_IG_HEX_SIMPLEX: v[4] = heat_seed(g, 811); break;
        case CF_IG_HEX_JAMES: v[4] = heat_seed(g, 877); break;
        case CF_IG_HEX_RANDOM: v[4] = heat_seed(g, 221), v[5] = heat_seed(g, 442); break;
        case CF_IG_SIERPINSKI: v[4] = heat_seed(g, 177); break;
        case CF_IG_CLOVER: v[4] = g; break;
        default:
            if (n->i[0] >= CF_IG_INTERP + 16 * CF_IR_BASE_CLOVER) v[4] = g; /* interpolated CLOVER: its base's K */
            break;
        }
        memcpy(w->tab + 16 + 48 * (size_t)i, v, sizeof v);
    }
    return CF_OK;
}
