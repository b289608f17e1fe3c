/* iris_ctx.h - the Iris front-end's build context, shared by its files: iris_styles.c (the style
 * table, the construction notation, IrisGeneratorStyle objects -> CNG nodes), iris.c (the JSON
 * layers and generators, the requests, the front-end record) and iris_rng.c (Java's RNG, the
 * SeedManager, the per-world seeds). Not a public header: only host/frontend/iris/ includes it
 * (iris_expr.c sees iris_ctx through iris.h's accessors).
 */
#ifndef CF_IRIS_CTX_H
#define CF_IRIS_CTX_H

#include "kernels/cf_iris.h"
#include "ir/ir.h"
#include "frontend/iris/iris.h"

/* ------------------------------------------------------------------ the style table (IRIS.md §6) */
enum { BR_M = 1, BR_U = 2, BR_B = 3 };
typedef struct style_row {
    const char *name;
    int br;
    const char *cons;
} style_row;
/* the rows, one per NoiseStyle of either branch (iris_styles.c) */
extern const style_row iris_styles[];

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

/* ------------------------------------------------------------------ the JSON layers (IRIS.md §7)
 * Gson semantics: a missing (or null) field keeps the class default; unknown
 * fields are ignored. Wrong types are located errors (FILE#POINTER: ...). */
static const cf_fields gson = {.got = 1, .null_absent = 1}; /* field_get: a null is absent */
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

/* iris_styles.c: the construction notation at c->s -> the index of its top spec in c->sp, or -1 */
int iris_style_expr(ic *c);
/* iris_styles.c: spec i sampled in dims (2 or 3) -> node id (children first), or -1 */
int iris_style_build(ic *c, int i, int dims);
/* iris_styles.c: iris:all, IRIS_ROWS over every style of the branch (3-D and 2-D) */
int iris_build_all(ic *c);
/* iris_styles.c: an IrisGeneratorStyle object -> its top spec, or -1 (located error) */
int iris_style_json(ic *c, const cJSON *o, cf_loc at, int64_t kb, int depth, const char *defname);
/* iris_styles.c: appends a node to c->p: its id, or -1 */
int iris_node_add(ic *c, const cf_node *n);
/* iris_styles.c: the seed fields of a seeded node (base i[5] + d[4]); 0, or -1 */
int iris_seed_fields(ic *c, cf_node *n, int64_t k);

#endif
