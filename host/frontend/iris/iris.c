/* iris.c - the Iris front-end: NoiseStyles -> graph IR (shared/IRIS.md).
 *
 * Input: the requested functions iris:style/NAME (3-D: Iris's noise(x, y, z))
 * and iris:style/NAME#2d (2-D: Iris's noise(x, z), read from the position's x
 * and z), and the dialect from the settings id (iris:master, the default, or
 * iris:unification). Output: prog->nodes of kind IRIS_CNG (host/ir/nodes_iris.def),
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

#include <cjson/cJSON.h>
#include <md5.h>

#include "kernels/cf_iris.h"
#include "ir/ir.h"
#include "frontend/iris/iris.h"

extern const cf_frontend cf_frontend_iris;

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
#define MAX_SPECS 256
typedef struct cspec {
    int64_t k;      /* seed offset from the style's RNG (k + kcng) */
    int t, oct;
    double scale, power, fm;
    int frac;       /* index of the fracture CNG, or -1 */
    int axial;      /* IrisGeneratorStyle.axialFracturing: trueFrac (master, when this CNG is a fracture) */
    int cell;       /* cellularized (IRIS.md §5.5): */
    double cfr, czs; /* f32(cellularFrequency) * 0.01f, 1 / cellularZoom */
    int64_t ck;     /* the cellularize RNG's offset */
    int gnode;      /* t == CF_IG_SOURCE: the generator sub-graph's node (expression, image map) */
} cspec;
/* a CNG whose generator is a sub-graph (IrisGeneratorStyle expression / imageMap) */
#define CF_IG_SOURCE (-100)

struct iris_ctx {
    cf_program *p;
    cf_error *err;
    cf_fields f;         /* the field reader (base.h), in Gson's words: a null is absent */
    int br;
    const char *fn;      /* the function being built (errors) */
    const char *s;       /* parse position */
    cspec sp[MAX_SPECS];
    int nsp;
    char missing[64];    /* first NoiseType without a kernel */
    cf_loc at;           /* the JSON object being built (nodes' locations), or none */
    /* the JSON layers (IRIS.md §7): the RNG seeds of the nodes being built are
     * base + k, base by smode (SB_*), k = kbase + the style's own offsets */
    int64_t kbase;
    int smode;
    double cgseed, chc;  /* SB_CLIFF: the generator's seed and hc */
    int overflow;        /* more than MAX_SPECS CNGs in one style */
    cf_pack *pk;         /* expressions/ and images/ (NULL: none) */
    int depth;           /* expression variables nested in styles */
};
typedef struct iris_ctx ic;

/* the seed base of a seeded node (i[5]): the super seed (a style function:
 * the world seed; a generator: SeedManager's height + 239945, or the world seed
 * itself with SB_DIRECT), the cliff layer's seed computed from it, or 0 */
enum { SB_SUP = 0, SB_CLIFF = 1, SB_ZERO = 2, SB_MANAGER = 4 };

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

/* the seed fields of a seeded node: RNG seed = base(i[5]) + d[4] (|k| < 2^53) */
static int seed_fields(ic *c, cf_node *n, int64_t k)
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

static int build(ic *c, int i, int dims);
/* the CNG of spec i sampled in dims (2 or 3), children first */
static int build_scng(ic *c, int i, int dims);
static int build_cng(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    if (s->t == CF_IG_SOURCE) return build_scng(c, i, dims);
    cf_node n = {0};
    n.kind = NK_IRIS_CNG;
    n.flags = node_flags[NK_IRIS_CNG];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = c->at.file ? c->at : (cf_loc){"<arguments>", NULL};
    n.i[0] = s->t, n.i[1] = s->oct, n.i[2] = c->br, n.i[3] = dims, n.i[4] = 0;
    /* WHITE is no-scale: CNG ignores its scale and fracture (IRIS.md §4.1) */
    n.d[0] = s->t == CF_IG_WHITE ? 1.0 : s->scale, n.d[1] = s->power, n.d[2] = s->fm, n.d[3] = 1.0;
    if (seed_fields(c, &n, s->k) < 0) return -1;
    int kids[2], nk = 0;
    if (s->frac >= 0 && s->t != CF_IG_WHITE) {
        const cspec *f = &c->sp[s->frac];
        n.i[4] = f->axial && !f->cell; /* the fracture's trueFrac (a cellularized CNG is a new one) */
        if ((kids[nk++] = build(c, s->frac, dims)) < 0) return -1;
        if (dims == 3 && c->br == CF_IR_UNIFICATION && (kids[nk++] = build(c, s->frac, 2)) < 0) return -1;
    }
    n.nin = nk;
    n.in = arena_alloc(&c->p->arena, sizeof(int) * (size_t)(nk ? nk : 1));
    if (!n.in) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return node_add(c, &n);
}

/* a CNG around the generator sub-graph s->gnode (IRIS_SCNG): no seeds, opacity 1 */
static int build_scng(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    cf_node n = {0};
    n.kind = NK_IRIS_SCNG;
    n.flags = node_flags[NK_IRIS_SCNG];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = c->at.file ? c->at : (cf_loc){"<arguments>", NULL};
    n.i[2] = c->br, n.i[3] = dims;
    n.d[0] = s->scale, n.d[1] = s->power, n.d[2] = s->fm, n.d[3] = 1.0;
    int kids[3], nk = 0;
    kids[nk++] = s->gnode;
    if (s->frac >= 0) {
        const cspec *f = &c->sp[s->frac];
        n.i[4] = f->axial && !f->cell;
        if ((kids[nk++] = build(c, s->frac, dims)) < 0) return -1;
        if (dims == 3 && c->br == CF_IR_UNIFICATION && (kids[nk++] = build(c, s->frac, 2)) < 0) return -1;
    }
    if (ir_set_inputs(c->p, &n, nk, c->err) < 0) return -1;
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return node_add(c, &n);
}

/* spec i in dims: its CNG, or the cellularize node around its 2-D CNG (§5.5) */
static int build(ic *c, int i, int dims)
{
    const cspec *s = &c->sp[i];
    if (!s->cell) return build_cng(c, i, dims);
    int src = build_cng(c, i, 2);
    if (src < 0) return -1;
    cf_node n = {0};
    n.kind = NK_IRIS_CELLZ;
    n.flags = node_flags[NK_IRIS_CELLZ];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = c->at.file ? c->at : (cf_loc){"<arguments>", NULL};
    n.i[3] = dims;
    n.d[0] = s->czs, n.d[1] = s->cfr;
    if (seed_fields(c, &n, s->ck) < 0 || ir_set_inputs(c->p, &n, 1, c->err) < 0) return -1;
    n.in[0] = src;
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

/* ------------------------------------------------------------------ the JSON layers (IRIS.md §7)
 * Gson semantics: a missing (or null) field keeps the class default; unknown
 * fields are ignored. Wrong types are located errors (FILE#POINTER: ...). */
static const cf_fields gson = {.got = 1, .null_absent = 1}; /* field_get: a null is absent */
static void ctx_fields(ic *c)
{
    field_init(&c->f, &c->p->arena, c->err);
    c->f.got = 1, c->f.null_absent = 1;
}
/* a long field: an integer of at most 2^53 in magnitude (JSON numbers are read as doubles) */
static int jseed(ic *c, const cJSON *o, cf_loc at, const char *key, int64_t def, int64_t *out)
{
    double d;
    *out = def;
    if (!field_get(&gson, NULL, o, key)) return 0;
    if (field_num(&c->f, NULL, o, at, key, 0, 0, &d) < 0) return -1;
    if (!(d == floor(d) && d >= -9007199254740992.0 && d <= 9007199254740992.0))
        return loc_fail(c->err, loc_key(&c->p->arena, at, key), CF_ERR_SCHEMA, "expected an integer of at most 2^53 in magnitude, got %.17g", d);
    *out = (int64_t)d;
    return 0;
}
static int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

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
        if (strcmp(styles[i].name, name) == 0 && (styles[i].br & (br == CF_IR_MASTER ? BR_M : BR_U))) return i;
    return -1;
}

/* IrisGeneratorStyle (IRIS.md §7.1) at `at`, its RNG at offset kb from the seed
 * base: the spec index of the CNG create() returns, or -1 (err set). o NULL:
 * every field at its default, the NoiseStyle defname. */
static int style_json(ic *c, const cJSON *o, cf_loc at, int64_t kb, int depth, const char *defname)
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
        c->s = styles[row].cons;
        top = expr(c);
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
        int f = style_json(c, fr, fat, wadd(kb, 2934), depth + 1, "FLAT");
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
    int top = style_json(c, o, at, kb, 1, "FLAT"); /* depth 1: keeps the caller's specs (no reset) */
    c->at = at;
    int node = top < 0 ? -1 : build(c, top, dims);
    c->at = keep;
    c->depth--;
    c->nsp = keep_nsp; /* the style's specs are built: free them for the caller's */
    return node;
}
cf_program *iris_ctx_program(iris_ctx *x) { return x->p; }
cf_error *iris_ctx_error(iris_ctx *x) { return x->err; }
cf_pack *iris_ctx_pack(iris_ctx *x) { return x->pk; }
int iris_ctx_branch(iris_ctx *x) { return x->br; }

/* IrisNoiseGenerator (IRIS.md §7.2) at `at` whose super seed is base + kl: its
 * IRIS_LAYER node (2-D), or -1. o NULL: every field at its default. */
static int layer_json(ic *c, const cJSON *o, cf_loc at, int64_t kl, int depth)
{
    if (o && !cJSON_IsObject(o))
        return loc_fail(c->err, at, CF_ERR_SCHEMA, "expected an IrisNoiseGenerator object, got %s", json_type(o));
    if (depth > 16) return loc_fail(c->err, at, CF_ERR_LIMIT, "layer fractures are nested deeper than 16");
    double d[5], exponent, oct;
    int64_t seed;
    int en, fl[4];
    static const char *const flags[4] = {"negative", "parametric", "bezier", "sinCentered"};
    if (field_num(&c->f, NULL, o, at, "zoom", 0, 1, &d[0]) < 0 || field_num(&c->f, NULL, o, at, "opacity", 0, 1, &d[1]) < 0 || field_num(&c->f, NULL, o, at, "offsetX", 0, 0, &d[2]) < 0 ||
        field_num(&c->f, NULL, o, at, "offsetY", 0, 0, &d[3]) < 0 || field_num(&c->f, NULL, o, at, "offsetZ", 0, 0, &d[4]) < 0 ||
        field_num(&c->f, NULL, o, at, "exponent", 0, 1, &exponent) < 0 || field_num(&c->f, NULL, o, at, "octaves", 0, 1, &oct) < 0 ||
        jseed(c, o, at, "seed", 0, &seed) < 0 || field_bool(&c->f, NULL, o, at, "enabled", 0, 1, &en) < 0)
        return -1;
    int fmask = 0;
    for (int i = 0; i < 4; i++) {
        if (field_bool(&c->f, NULL, o, at, flags[i], 0, 0, &fl[i]) < 0) return -1;
        fmask |= fl[i] ? 1 << i : 0;
    }
    const cJSON *fr = field_get(&gson, NULL, o, "fracture"), *st = field_get(&gson, NULL, o, "style");
    cf_loc fat = loc_key(&c->p->arena, at, "fracture");
    if (fr && !cJSON_IsArray(fr)) return loc_fail(c->err, fat, CF_ERR_SCHEMA, "expected an array of layers, got %s", json_type(fr));
    int nf = fr ? cJSON_GetArraySize(fr) : 0;
    if (nf > 64) return loc_fail(c->err, fat, CF_ERR_LIMIT, "more than 64 fracture layers");
    int kids[65], nk = 1;
    double cop[65];
    if (en) {
        int64_t g = 33;
        for (int i = 0; i < nf; i++, g += 819) {
            const cJSON *ch = cJSON_GetArrayItem(fr, i);
            cf_loc cat = loc_index(&c->p->arena, fat, i);
            int cen;
            if (!cJSON_IsObject(ch)) return loc_fail(c->err, cat, CF_ERR_SCHEMA, "expected an IrisNoiseGenerator object, got %s", json_type(ch));
            if (field_bool(&c->f, NULL, ch, cat, "enabled", 0, 1, &cen) < 0 || field_num(&c->f, NULL, ch, cat, "opacity", 0, 1, &cop[nk]) < 0) return -1;
            if (!cen) continue;
            if ((kids[nk] = layer_json(c, ch, cat, wadd(wadd(kl, seed), g), depth + 1)) < 0) return -1;
            nk++;
        }
        cf_loc sat = st ? loc_key(&c->p->arena, at, "style") : at;
        int top = style_json(c, st, sat, wadd(wadd(kl, 33955677), -seed), 0, st ? "FLAT" : "IRIS");
        if (top < 0) return -1;
        cf_loc keep = c->at;
        c->at = sat;
        kids[0] = build(c, top, 2);
        c->at = keep;
        if (kids[0] < 0) return -1;
    }
    cf_node n = {0};
    n.kind = NK_IRIS_LAYER;
    n.flags = node_flags[NK_IRIS_LAYER];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = at;
    for (int i = 0; i < 5; i++) n.d[i] = d[i];
    n.i[0] = fmask, n.i[1] = en, n.i[2] = c->br;
    n.nda = nk;
    n.da = arena_alloc(&c->p->arena, sizeof(double) * (size_t)nk);
    if (!n.da || ir_set_inputs(c->p, &n, en ? nk : 0, c->err) < 0) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    n.da[0] = exponent;
    for (int k = 1; k < nk; k++) n.da[k] = cop[k];
    for (int k = 0; en && k < nk; k++) n.in[k] = kids[k];
    return node_add(c, &n);
}

static int check_cost(cf_program *p, int id, cf_loc at, cf_error *err);

/* InterpolationMethod names, in CF_IIM_* order */
static const char *const imethods[CF_IIM_COUNT] = {
    "NONE", "BILINEAR", "BICUBIC", "BILINEAR_BEZIER", "BILINEAR_PARAMETRIC_2", "BILINEAR_PARAMETRIC_4", "BILINEAR_PARAMETRIC_1_5",
    "HERMITE", "HERMITE_TENSE", "CATMULL_ROM_SPLINE", "HERMITE_LOOSE", "HERMITE_LOOSE_HALF_POSITIVE_BIAS",
    "HERMITE_LOOSE_HALF_NEGATIVE_BIAS", "HERMITE_LOOSE_FULL_POSITIVE_BIAS", "HERMITE_LOOSE_FULL_NEGATIVE_BIAS", "STARCAST_3",
    "STARCAST_6", "STARCAST_9", "STARCAST_12", "BILINEAR_STARCAST_3", "BILINEAR_STARCAST_6", "BILINEAR_STARCAST_9",
    "BILINEAR_STARCAST_12", "HERMITE_STARCAST_3", "HERMITE_STARCAST_6", "HERMITE_STARCAST_9", "HERMITE_STARCAST_12"};

const char *iris_interp_method_name(int m) { return m >= 0 && m < CF_IIM_COUNT ? imethods[m] : NULL; }

int iris_interpolator_parse(cf_program *p, const cJSON *obj, cf_loc at, int *method, double *scale, cf_error *err)
{
    ic c = {0};
    c.p = p, c.err = err;
    ctx_fields(&c);
    *method = CF_IIM_BILINEAR_STARCAST + 1, *scale = 7;
    if (!obj) return 0;
    if (!cJSON_IsObject(obj)) return loc_fail(err, at, CF_ERR_SCHEMA, "expected an IrisInterpolator object, got %s", json_type(obj));
    const cJSON *f = field_get(&gson, NULL, obj, "function");
    cf_loc fat = loc_key(&p->arena, at, "function");
    if (f && !cJSON_IsString(f)) return loc_fail(err, fat, CF_ERR_SCHEMA, "expected an InterpolationMethod name, got %s", json_type(f));
    if (f) {
        int m = -1;
        for (int i = 0; i < CF_IIM_COUNT; i++)
            if (strcmp(imethods[i], f->valuestring) == 0) m = i;
        if (m < 0) return loc_fail(err, fat, CF_ERR_REF, "unknown interpolation function \"%s\" (InterpolationMethod: BILINEAR, HERMITE, STARCAST_6, ...)", f->valuestring);
        *method = m;
    }
    if (field_num(&c.f, NULL, obj, at, "horizontalScale", 0, 7, scale) < 0) return -1;
    if (!(*scale > 0 && *scale <= 1e9))
        return loc_fail(err, loc_key(&p->arena, at, "horizontalScale"), CF_ERR_SCHEMA, "expected a number in (0, 1e9], got %.17g", *scale);
    return 0;
}

int iris_interp_node(cf_program *p, int src, int method, double scale, cf_loc at, cf_error *err)
{
    if (method < 0 || method >= CF_IIM_COUNT || src < 0 || src >= p->nnodes)
        return err_set(err, CF_ERR_ARG, "iris_interp_node: bad arguments"), -1;
    cf_node n = {0};
    n.kind = NK_IRIS_INTERP;
    n.flags = node_flags[NK_IRIS_INTERP];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = at;
    n.i[0] = method;
    n.d[0] = scale;
    if (ir_set_inputs(p, &n, 1, err) < 0) return -1;
    n.in[0] = src;
    return check_cost(p, ir_node_add(p, NULL, &n, "graph", err), at, err);
}

/* Evaluation cost: source samples per sample of node id (nested fractures
 * multiply: a CNG samples its fracture up to 3 times, a layer each child twice,
 * an interpolator its source at up to 192 points). Iris's own cost, but a
 * hostile file could nest it into years per sample: builders refuse more than
 * IRIS_MAX_COST (a located error). */
#define IRIS_MAX_COST 1e6
static double node_cost(const cf_program *p, int id, double *memo)
{
    if (memo[id] >= 0) return memo[id];
    const cf_node *n = &p->nodes[id];
    double c = 1;
    for (int k = 0; k < n->nin; k++) {
        double m = 1;
        if (n->kind == NK_IRIS_CNG || (n->kind == NK_IRIS_SCNG && k > 0)) m = 3;
        else if ((n->kind == NK_IRIS_LAYER && k > 0) || n->kind == NK_IRIS_CELLGEN) m = 2;
        else if (n->kind == NK_IRIS_INTERP) m = cf_ir_inpts(n->i[0]);
        c += m * node_cost(p, n->in[k], memo);
        if (c > 1e30) c = 1e30;
    }
    return memo[id] = c;
}
static int check_cost(cf_program *p, int id, cf_loc at, cf_error *err)
{
    if (id < 0) return id;
    double *memo = malloc(sizeof(double) * (size_t)p->nnodes);
    if (!memo) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < p->nnodes; i++) memo[i] = -1;
    double c = node_cost(p, id, memo);
    free(memo);
    if (c > IRIS_MAX_COST)
        return loc_fail(err, at, CF_ERR_LIMIT, "about %.3g noise samples per height (nested fractures multiply), more than %.0g", c,
                        IRIS_MAX_COST);
    return id;
}

/* IrisGenerator (IRIS.md §7.3) */
static int gen_json(ic *c, const cJSON *o, cf_loc at)
{
    if (!cJSON_IsObject(o)) return loc_fail(c->err, at, CF_ERR_SCHEMA, "expected an IrisGenerator object, got %s", json_type(o));
    double d[5], da[6], cmin, cmax;
    int mult, im;
    int64_t seed;
    double isc;
    if (field_num(&c->f, NULL, o, at, "zoom", 0, 1, &d[0]) < 0 || field_num(&c->f, NULL, o, at, "opacity", 0, 1, &d[1]) < 0 || field_num(&c->f, NULL, o, at, "offsetX", 0, 0, &d[2]) < 0 ||
        field_num(&c->f, NULL, o, at, "offsetZ", 0, 0, &d[3]) < 0 || field_bool(&c->f, NULL, o, at, "multiplicitive", 0, 0, &mult) < 0 ||
        jseed(c, o, at, "seed", 1, &seed) < 0 || field_num(&c->f, NULL, o, at, "cliffHeightMin", 0, 0, &cmin) < 0 ||
        field_num(&c->f, NULL, o, at, "cliffHeightMax", 0, 0, &cmax) < 0 || field_num(&c->f, NULL, o, at, "cellFractureZoom", 0, 1, &da[2]) < 0 ||
        field_num(&c->f, NULL, o, at, "cellFractureShuffle", 0, 12, &da[5]) < 0 || field_num(&c->f, NULL, o, at, "cellFractureHeight", 0, 0, &da[3]) < 0 ||
        field_num(&c->f, NULL, o, at, "cellPercentSize", 0, 0.75, &da[4]) < 0)
        return -1;
    if (iris_interpolator_parse(c->p, field_get(&gson, NULL, o, "interpolator"), loc_key(&c->p->arena, at, "interpolator"), &im, &isc, c->err) < 0) return -1;
    da[0] = cmin, da[1] = cmax;
    const cJSON *comp = field_get(&gson, NULL, o, "composite"), *chg = field_get(&gson, NULL, o, "cliffHeightGenerator");
    cf_loc cat = loc_key(&c->p->arena, at, "composite");
    if (comp && !cJSON_IsArray(comp)) return loc_fail(c->err, cat, CF_ERR_SCHEMA, "expected an array of layers, got %s", json_type(comp));
    int nl = comp ? cJSON_GetArraySize(comp) : 0;
    if (nl > 256) return loc_fail(c->err, cat, CF_ERR_LIMIT, "more than 256 composite layers");
    /* hc = d2i(cliffHeightMin * 10 + 10 + cliffHeightMax * seed + offsetX + offsetZ) */
    int32_t hc = cf_ir_d2i(cmin * 10 + 10 + cmax * (double)seed + d[2] + d[3]);
    int kids[260], nk = 0;
    double tp = 0;
    for (int i = 0; i < nl; i++) {
        const cJSON *l = cJSON_GetArrayItem(comp, i);
        cf_loc lat = loc_index(&c->p->arena, cat, i);
        double op = 1;
        if (cJSON_IsObject(l) && field_num(&c->f, NULL, l, lat, "opacity", 0, 1, &op) < 0) return -1;
        if ((kids[nk++] = layer_json(c, l, lat, wadd(seed, hc), 0)) < 0) return -1;
        tp += op;
    }
    d[4] = tp;
    int cliff = cmax > 0 && nl > 0, cells = da[3] != 0 && nl > 0;
    if (cliff) {
        int keep = c->smode;
        c->smode = (c->smode & SB_MANAGER) | SB_CLIFF;
        c->cgseed = (double)seed, c->chc = hc;
        kids[nk] = layer_json(c, chg, chg ? loc_key(&c->p->arena, at, "cliffHeightGenerator") : at, 0, 0);
        c->smode = keep;
        if (kids[nk++] < 0) return -1;
    }
    if (cells) {
        /* CellGenerator(RNG(seed + 46222 + 239466)): SIG(SIMPLEX) from + 3204, kernel seed from + 8735652 */
        int keep = c->smode;
        int64_t r = wadd(wadd(seed, 46222), 239466);
        c->smode = SB_ZERO;
        c->nsp = 0;
        c->kbase = wadd(r, 3204);
        c->s = "SIG(SIMPLEX)";
        c->at = at;
        int top = expr(c), sig = top < 0 ? -1 : build(c, top, 2);
        c->at = (cf_loc){0};
        cf_node n = {0};
        n.kind = NK_IRIS_CELLGEN;
        n.flags = node_flags[NK_IRIS_CELLGEN];
        n.prec = PREC_F64;
        n.noise = -1;
        n.loc = at;
        n.d[0] = da[5];
        int bad = sig < 0 || seed_fields(c, &n, wadd(r, 8735652)) < 0 || ir_set_inputs(c->p, &n, 1, c->err) < 0;
        c->smode = keep;
        if (bad) return c->overflow ? loc_fail(c->err, at, CF_ERR_LIMIT, "too many CNGs") : -1;
        n.in[0] = sig;
        if ((kids[nk++] = node_add(c, &n)) < 0) return -1;
    }
    cf_node n = {0};
    n.kind = NK_IRIS_GEN;
    n.flags = node_flags[NK_IRIS_GEN];
    n.prec = PREC_F64;
    n.noise = -1;
    n.loc = at;
    for (int i = 0; i < 5; i++) n.d[i] = d[i];
    n.i[0] = mult, n.i[1] = nl, n.i[2] = cliff, n.i[3] = cells;
    n.nda = 5;
    n.da = arena_alloc(&c->p->arena, sizeof(double) * 5);
    if (!n.da || ir_set_inputs(c->p, &n, nk, c->err) < 0) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    memcpy(n.da, da, sizeof(double) * 5);
    for (int k = 0; k < nk; k++) n.in[k] = kids[k];
    return node_add(c, &n);
}

int iris_generator_node(cf_program *p, const cJSON *gen, cf_loc at, int super_rule, cf_error *err)
{
    return iris_generator_node_pk(p, NULL, gen, at, super_rule, err);
}
int iris_generator_node_pk(cf_program *p, cf_pack *pk, const cJSON *gen, cf_loc at, int super_rule, cf_error *err)
{
    ic c = {0};
    c.p = p, c.err = err, c.pk = pk;
    ctx_fields(&c);
    if (p->dialect != DIALECT_IRIS_MASTER && p->dialect != DIALECT_IRIS_UNIFICATION)
        return err_set(err, CF_ERR_ARG, "iris_generator_node: the program is not an Iris one"), -1;
    c.br = p->dialect == DIALECT_IRIS_MASTER ? CF_IR_MASTER : CF_IR_UNIFICATION;
    c.smode = super_rule == IRIS_SUPER_ENGINE ? SB_MANAGER : 0;
    return check_cost(p, gen_json(&c, gen, at), at, err);
}

/* iris:generator/KEY[#2d][#super][#interpolated] (KEY: generators/KEY.json in the pack) */
static int generator_function(cf_program *p, cf_pack *pk, const char *fn, cf_error *err)
{
    const char *key = fn + 15, *hash = strchr(key, '#');
    size_t kl = hash ? (size_t)(hash - key) : strlen(key);
    int direct = 0, interp = 0;
    for (const char *h = hash; h; h = strchr(h + 1, '#')) {
        const char *e = strchr(h + 1, '#');
        size_t l = e ? (size_t)(e - h - 1) : strlen(h + 1);
        if (l == 2 && strncmp(h + 1, "2d", 2) == 0) continue;
        if (l == 5 && strncmp(h + 1, "super", 5) == 0) direct = 1;
        else if (l == 12 && strncmp(h + 1, "interpolated", 12) == 0) interp = 1;
        else
            return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": unknown suffix \"#%.*s\" (#2d, #super, #interpolated)", fn,
                           (int)l, h + 1),
                   -1;
    }
    int ok = kl > 0 && kl < 200 && key[0] != '/' && key[kl - 1] != '/';
    for (size_t i = 0; ok && i < kl; i++)
        ok = (key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z') || (key[i] >= '0' && key[i] <= '9') ||
             strchr("_-./", key[i]);
    if (ok && (strstr(key, "..") != NULL && (size_t)(strstr(key, "..") - key) < kl)) ok = 0;
    if (!ok)
        return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": expected iris:generator/KEY (letters, digits, _ - . /)", fn), -1;
    char rel[256];
    snprintf(rel, sizeof rel, "generators/%.*s.json", (int)kl, key);
    if (!pk) return err_set(err, CF_ERR_ARG, "<arguments>: function \"%s\": a generator needs a pack (--pack)", fn), -1;
    cJSON *root = NULL;
    const char *display = NULL;
    int r = json_load_rel(&p->arena, pk, rel, &root, &display, err);
    if (r < 0) return -1;
    if (r == 0) return err_set(err, CF_ERR_REF, "<arguments>: function \"%s\": no %s in the pack", fn, rel), -1;
    cf_loc at = {display, NULL};
    int node = iris_generator_node_pk(p, pk, root, at, direct ? IRIS_SUPER_DIRECT : IRIS_SUPER_ENGINE, err);
    if (node >= 0 && interp) {
        int m;
        double sc;
        if (iris_interpolator_parse(p, field_get(&gson, NULL, root, "interpolator"), loc_key(&p->arena, at, "interpolator"), &m, &sc, err) < 0) node = -1;
        else node = iris_interp_node(p, node, m, sc, at, err);
    }
    cJSON_Delete(root);
    return node;
}

/* ------------------------------------------------------------------ public */
int iris_node_2d(const cf_program *p, const cf_node *n)
{
    (void)p;
    switch (n->kind) {
    case NK_IRIS_LAYER:
    case NK_IRIS_GEN:
    case NK_IRIS_CELLGEN:
    case NK_IRIS_INTERP:
    case NK_IRIS_CONST:
    case NK_IRIS_GROUP:
    case NK_IRIS_HEIGHT: return 1;
    case NK_IRIS_CNG:
    case NK_IRIS_SCNG:
    case NK_IRIS_IMAGE:
    case NK_IRIS_CELLZ: return n->i[3] == 2;
    default: return 0;
    }
}

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

cf_status iris_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int nfn, cf_error *err)
{
    cf_loc cli = {"<arguments>", NULL};
    ic c = {0};
    c.p = p;
    c.err = err;
    ctx_fields(&c);
    c.pk = pk;
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
        if (strncmp(fn, "iris:generator/", 15) == 0) {
            if ((p->outputs[f] = generator_function(p, pk, fn, err)) < 0) return err->status;
            continue;
        }
        if (strncmp(fn, "iris:expression/", 16) == 0 || strncmp(fn, "iris:image/", 11) == 0) {
            if ((p->outputs[f] = iris_expr_function(&c, fn)) < 0) return err->status;
            continue;
        }
        if (strncmp(fn, "iris:style/", 11) != 0)
            return err_set(err, CF_ERR_ARG, "%s: function \"%s\": an Iris program takes iris:style/NAME, iris:generator/KEY, iris:expression/KEY or iris:image/KEY", cli.file, fn);
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

/* ------------------------------------------------------------------ SeedManager (IRIS.md §7.5) */
/* RNG(String): UUID.nameUUIDFromBytes's MD5 recipe, lsb + msb + len * 32564 */
static jrng jr_string(const char *str)
{
    uint8_t md[16];
    MD5_CTX m;
    MD5Init(&m);
    MD5Update(&m, (const uint8_t *)str, strlen(str));
    MD5Final(md, &m);
    md[6] = (uint8_t)((md[6] & 0x0f) | 0x30);
    md[8] = (uint8_t)((md[8] & 0x3f) | 0x80);
    uint64_t msb = 0, lsb = 0;
    for (int i = 0; i < 8; i++) msb = (msb << 8) | md[i], lsb = (lsb << 8) | md[8 + i];
    return jr_new((int64_t)(lsb + msb + (uint64_t)strlen(str) * 32564u));
}
static double jr_double(jrng *r) { return (double)jr_k53(r) * 0x1.0p-53; }
static double jr_d(jrng *r, double lo, double hi)
{
    if (lo > hi) {
        double t = lo;
        lo = hi, hi = t;
    }
    return cf_ir_lerp(lo, hi, jr_double(r));
}
static int32_t jr_i(jrng *r, double lo, double hi) { return cf_ir_d2i(floor(jr_d(r, lo, hi))); }
static int64_t dbits(double d)
{
    if (d != d) return 0x7ff8000000000000LL; /* Double.doubleToLongBits: NaN canonical */
    int64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}
/* the STATIC NoiseStyle made from RNG(seed): noise3(a, b, c) (IRIS.md §6: C(0, WHITE)) */
typedef struct staticn {
    int br;
    int64_t s;
    int32_t s32;
    double ox, oz;
} staticn;
static staticn static_new(int64_t seed, int br)
{
    jrng r = jr_new(wadd(seed, 1113347867));
    int64_t g = jr_lmax(&r);
    staticn n = {br, 0, 0, 0, 0};
    r = jr_new(g);
    n.s = jr_lmax(&r);
    r = jr_new(g);
    n.s32 = jr_imax(&r);
    r = jr_new(g);
    n.ox = jr_next_int(&r, -32768, 32767);
    n.oz = jr_next_int(&r, -32768, 32767);
    return n;
}
static double static_fit(const staticn *n, double a, double b, double c)
{
    double v = cf_ir_post(cf_ir_gen3(CF_IG_WHITE, n->br, 1, n->s, n->s32, n->ox, n->oz, 0, 0, a, b, c), 1.0, 1.0);
    return 4.9e-324 + v * (1.7976931348623157e308 - 4.9e-324);
}

int64_t iris_seedmanager_height(int64_t seed, int br)
{
    const double PI = 3.141592653589793, E = 2.718281828459045;
    jrng A = jr_new((int64_t)((uint64_t)wadd(seed, -2043905) * 4385677888ULL));
    jrng B = jr_new(wadd((int64_t)((uint64_t)seed * (uint64_t)-305LL), 45858458555LL));
    int64_t a1 = jr_lmax(&A), b1 = jr_lmax(&B);
    jrng Cr = jr_new(wadd((int64_t)((uint64_t)seed * (uint64_t)wadd(a1, -b1)), java_string_hash("Iris World Generator")));
    int64_t cl = jr_lmax(&Cr);
    jrng Dr = jr_new(wadd(wadd(seed, (int64_t)((uint64_t)cl * 1ULL)), 1)); /* seed - cl * -1 + 1 */
    jrng Er = jr_string("42Iris World Generator");
    int32_t gk = jr_i(&A, 1000, 10000);
    jrng *all[5] = {&A, &B, &Cr, &Dr, &Er};
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 4; i++) jr_i(all[k], 0, 95);
    double g = 0.0;
    for (int i = 0; i < 20; i++) {
        double bd = jr_d(&B, 3, PI), cd = jr_d(&Cr, 10, 18 * E);
        g += (((double)gk * bd) / cd) + 6549;
        g *= jr_d(&Dr, 90.5, 1234567);
        g += jr_d(&Er, 39.95, 99.25);
    }
    double ai = jr_imax(&A), bi = jr_imax(&B), cl2 = (double)jr_lmax(&Cr), dl = (double)jr_lmax(&Dr), el = (double)jr_lmax(&Er);
    double t = ((((g * ai) + bi) + cl2) + dl) * el;
    staticn P = static_new((int64_t)((uint64_t)4966866 * (uint64_t)dbits(t)), br);
    jrng lock = jr_new(dbits(static_fit(&P, (double)wadd(seed, 1337), (double)(int64_t)((uint64_t)seed * 69u), (double)seed)));
    static const char *const names[4] = {"complex", "complex_streams", "basic", "height"};
    int64_t f = 0;
    for (int k = 0; k < 4; k++) {
        int32_t li = jr_imax(&lock);
        int64_t ll = jr_lmax(&lock);
        char str[160];
        snprintf(str, sizeof str, "%sIris World Generator::1%lld", names[k], (long long)(int64_t)((uint64_t)wadd(seed, li) * (uint64_t)ll));
        jrng R = jr_string(str);
        int32_t i0 = jr_imax(&lock);
        int64_t sgn = jr_double(&lock) <= 0.5 ? 1 : -1; /* chance(0.5): 0.5 >= nextDouble() */
        double r1 = jr_imax(&R), r2 = jr_imax(&R), r3 = jr_imax(&R);
        int64_t inner = wadd(java_string_hash(names[k]), dbits(static_fit(&P, r1, r2, r3)));
        f = (int64_t)((uint64_t)(int64_t)i0 * ((uint64_t)sgn * (uint64_t)inner));
        jr_imax(&lock);
    }
    return f;
}

/* the RNG seed base of seeded node n (i[5], SB_*) under world seed ws */
static int64_t seed_base(const cf_node *n, int64_t ws, int64_t sm)
{
    int64_t sup = (n->i[5] & SB_MANAGER) ? sm : ws;
    switch (n->i[5] & 3) {
    case SB_CLIFF: {
        /* cs = (f64)(sup + 294596 + hc); lsc = d2l(seed + (cs - 34857) + hc), in f64 */
        int64_t hc = (int64_t)n->da[1];
        double cs = (double)wadd(wadd(sup, 294596), hc), cs2 = cs - 34857;
        return cf_ir_d2l(n->da[0] + cs2 + (double)hc);
    }
    case SB_ZERO: return 0;
    default: return sup;
    }
}

/* Per world: the seeds of every seeded node (IRIS.md §2.3), 6 x i64 per node
 * after the 16-byte header of the double dialects. IRIS_CNG: kernel seed S, the
 * FastNoise seed S32, the unification offsets ox, oz, and the hexagon family's
 * heat (and structure) simplex seeds, from gseed = RNG(rs + kcng).lmax();
 * IRIS_CELLZ: S32 = RNG(rs).imax() in slot 1; IRIS_CELLGEN: RNG(rs).lmax() in
 * slot 0; rs = the node's base (seed_base) + d[4]. */
cf_status iris_seeds(cf_world *w, cf_error *err)
{
    const cf_program *p = w->prog;
    size_t len = iris_table_len(p);
    w->tab = calloc(1, len);
    if (!w->tab) return err_set(err, CF_ERR_NOMEM, "out of memory");
    w->tablen = len;
    memcpy(w->tab, &w->lseed, sizeof w->lseed);
    int64_t sm = 0;
    int have_sm = 0;
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->kind != NK_IRIS_CNG && n->kind != NK_IRIS_CELLZ && n->kind != NK_IRIS_CELLGEN) continue;
        if ((n->i[5] & SB_MANAGER) && !have_sm) {
            sm = wadd(iris_seedmanager_height(w->seed, p->dialect == DIALECT_IRIS_UNIFICATION ? CF_IR_UNIFICATION : CF_IR_MASTER), 239945);
            have_sm = 1;
        }
        int64_t v[6] = {0}, rs = wadd(seed_base(n, w->seed, sm), (int64_t)n->d[4]);
        jrng r = jr_new(rs);
        if (n->kind == NK_IRIS_CELLZ) {
            v[1] = jr_imax(&r);
        } else if (n->kind == NK_IRIS_CELLGEN) {
            v[0] = jr_lmax(&r);
        } else {
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
        }
        memcpy(w->tab + 16 + 48 * (size_t)i, v, sizeof v);
    }
    for (int i = 0; i < p->nnodes; i++) /* image maps: their pixel values (iris_expr.c) */
        if (p->nodes[i].kind == NK_IRIS_IMAGE) memcpy(w->tab + iris_table_offset(p, i), p->nodes[i].da, sizeof(double) * (size_t)p->nodes[i].nda);
    return CF_OK;
}

/* IRIS_ROWS over kids[0..n) */
static int rows_node(ic *c, const int *kids, int n)
{
    cf_node r = {0};
    r.kind = NK_IRIS_ROWS;
    r.flags = node_flags[NK_IRIS_ROWS];
    r.prec = PREC_F64;
    r.noise = -1;
    r.loc = (cf_loc){"<json>", NULL};
    if (ir_set_inputs(c->p, &r, n, c->err) < 0) return -1;
    memcpy(r.in, kids, sizeof(int) * (size_t)n);
    return node_add(c, &r);
}
/* tests: an array of {kind, name, json} objects (../shared/iris/definitions.json)
 * as IRIS_ROWS over each object (styles in 3-D and 2-D) */
static int all_json(ic *c, const cJSON *arr, cf_loc at)
{
    int n = cJSON_GetArraySize(arr), k = 0;
    int *kids = malloc(sizeof(int) * (size_t)(2 * n + 1));
    if (!kids) return err_set(c->err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int i = 0; i < n; i++) {
        const cJSON *o = cJSON_GetArrayItem(arr, i), *kd = field_get(&gson, NULL, o, "kind"), *js = field_get(&gson, NULL, o, "json");
        cf_loc oat = loc_index(&c->p->arena, at, i);
        if (!cJSON_IsString(kd) || !js) {
            free(kids);
            return loc_fail(c->err, oat, CF_ERR_SCHEMA, "expected {kind, name, json}");
        }
        int node = -1;
        c->smode = 0;
        if (strcmp(kd->valuestring, "style") == 0) {
            c->at = oat;
            int top = style_json(c, js, oat, 0, 0, "FLAT");
            node = top < 0 ? -1 : build(c, top, 3);
            kids[k++] = node;
            node = node < 0 ? -1 : build(c, top, 2);
        } else if (strcmp(kd->valuestring, "layer") == 0) node = layer_json(c, js, oat, 0, 0);
        else node = gen_json(c, js, oat);
        if (node < 0) {
            free(kids);
            return -1;
        }
        kids[k++] = node;
    }
    int r = rows_node(c, kids, k);
    free(kids);
    return r;
}

/* tests: one program of one output from the JSON text of an Iris object, its
 * RNG (style) or super seed (layer, generator) the world seed itself */
cf_status iris_compile_json(cf_program **out, const char *kind, const char *json, int unification, int dims, cf_error *err)
{
    return iris_compile_json_pk(out, NULL, kind, json, unification, dims, err);
}
cf_status iris_compile_json_pk(cf_program **out, cf_pack *pk, const char *kind, const char *json, int unification, int dims, cf_error *err)
{
    *out = NULL;
    cf_program *p = calloc(1, sizeof *p);
    if (!p) return err_set(err, CF_ERR_NOMEM, "out of memory");
    cJSON *root = cJSON_Parse(json);
    ic c = {0};
    c.p = p, c.err = err, c.pk = pk;
    ctx_fields(&c);
    c.br = unification ? CF_IR_UNIFICATION : CF_IR_MASTER;
    p->prec = PREC_F64;
    p->min_y = 0, p->height = 256, p->sea_level = 64;
    p->dialect = unification ? DIALECT_IRIS_UNIFICATION : DIALECT_IRIS_MASTER;
    p->fe = &cf_frontend_iris;
    p->settings_id = arena_printf(&p->arena, "iris:%s", unification ? "unification" : "master");
    p->noutputs = 1;
    p->outputs = arena_alloc(&p->arena, sizeof(int));
    p->output_names = arena_alloc(&p->arena, sizeof(char *));
    p->max_fill_bytes = (size_t)1 << 30;
    cf_loc at = {"<json>", NULL};
    int node = -1;
    if (!root) err_set(err, CF_ERR_JSON, "<json>: not JSON");
    else if (!p->outputs || !p->output_names || !p->settings_id) err_set(err, CF_ERR_NOMEM, "out of memory");
    else if (strcmp(kind, "style") == 0) {
        c.at = at;
        int top = style_json(&c, root, at, 0, 0, "FLAT");
        node = top < 0 ? -1 : build(&c, top, dims);
    } else if (strcmp(kind, "layer") == 0) node = layer_json(&c, root, at, 0, 0);
    else if (strcmp(kind, "generator") == 0) node = gen_json(&c, root, at);
    else if (strcmp(kind, "all") == 0 && cJSON_IsArray(root)) node = all_json(&c, root, at);
    else if (strcmp(kind, "interpolators") == 0) {
        /* every InterpolationMethod over the generator, its horizontalScale */
        int src = gen_json(&c, root, at), m;
        double sc;
        int kids[CF_IIM_COUNT];
        if (src >= 0 && iris_interpolator_parse(p, field_get(&gson, NULL, root, "interpolator"), at, &m, &sc, err) == 0) {
            for (m = 0; m < CF_IIM_COUNT && src >= 0; m++) src = (kids[m] = iris_interp_node(p, src, m, sc, at, err)) < 0 ? -1 : src;
            if (src >= 0) node = rows_node(&c, kids, CF_IIM_COUNT);
        }
    } else err_set(err, CF_ERR_ARG, "iris_compile_json: unknown kind %s", kind);
    cJSON_Delete(root);
    if (node >= 0) {
        p->outputs[0] = node;
        p->output_names[0] = kind;
        if (passes_run(p, NULL, err) == CF_OK && plan_build(p, err) == CF_OK) {
            *out = p;
            return CF_OK;
        }
    }
    program_free(p);
    return err->status;
}

/* ------------------------------------------------------------------ the front-end record */
static cf_status front_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n,
                             cf_error *err)
{
    if (iris_pack_wanted(pk, settings_id, functions, n)) return iris_pack_parse(p, pk, settings_id, functions, n, err);
    cf_status st = iris_parse(p, pk, settings_id, functions, n, err);
    if (st == CF_OK) p->max_fill_bytes = pk->lim.max_fill_bytes;
    return st;
}

const cf_frontend cf_frontend_iris = {
    .name = "iris", .title = "Iris (generators, terrains, NoiseStyles)", .prefix = "iris:",
    .first_kind = NK_IRIS_CNG, .last_kind = NK_IRIS_HEIGHT,
    .borrows = (const int[]){NK_LN_TERRAIN, -1}, /* a terrain's density from its height (iris_pack.c) */
    .claims = iris_pack_wanted, .parse = front_parse,
    .node_2d = iris_node_2d, .bind_seed = iris_seeds, .table_offset = iris_table_offset,
};
