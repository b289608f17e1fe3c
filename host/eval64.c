/* eval64.c - the CPU reference evaluator of the double dialects (libnoise).
 *
 * Input: a seeded world of a PREC_F64 program and a double position. Output:
 * the node's double value, computed as libnoise's GetValue does: the module
 * math is kernels/cf_libnoise.h (the same text the OpenCL programs compile);
 * transformer modules (ScalePoint, TranslatePoint, RotatePoint, Displace,
 * Turbulence, terrain) evaluate their sources at other positions. A context
 * memoizes the last position of every shared node and of Cache (values never
 * change: nodes are pure), so a module used twice at a point is computed once.
 * One evaluator per NODE64 kind, named by the node table (eval64_<KIND>).
 */
#include <stdlib.h>
#include <string.h>

#include "../kernels/cf_iris.h"
#include "../kernels/cf_libnoise.h"
#include "cf.h"

#define U __attribute__((unused))
#define EVAL64(K) static double eval64_##K(U ev64_ctx *c, U const cf_node *n, U double x, U double y, U double z)
static double ev64_node(ev64_ctx *c, int id, double x, double y, double z);
#define IN(k) ev64_node(c, n->in[k], x, y, z)

/* a module's seed plus the world's (libnoise's int arithmetic, wrapping) */
static cf_i32 seed_of(const ev64_ctx *c, int s) { return cf_ln_seed(c->w->lseed, s); }

/* i[5]: the SharpNoise dialect (CF_LN_SHARP semantics, kernels/cf_libnoise.h) */
#define SHARP(n) ((n)->i[5] ? CF_LN_SHARP : 0)
EVAL64(LN_PERLIN) { return cf_ln_fbm(SHARP(n), x, y, z, n->d[0], n->d[1], n->d[2], n->i[0], seed_of(c, n->i[1]), n->i[2]); }
EVAL64(LN_BILLOW) { return cf_ln_fbm(1 | SHARP(n), x, y, z, n->d[0], n->d[1], n->d[2], n->i[0], seed_of(c, n->i[1]), n->i[2]); }
EVAL64(LN_RIDGED) { return cf_ln_ridged(x, y, z, n->d[0], n->d[1], n->i[0], seed_of(c, n->i[1]), n->i[2], n->i[5]); }
EVAL64(LN_VORONOI) { return cf_ln_voronoi(x, y, z, n->d[0], n->d[1], n->i[0], seed_of(c, n->i[1]), 0); /* libnoise: cell value noise with seed 0 */ }
EVAL64(LN_CONST) { return n->d[0]; }
EVAL64(LN_CHECKERBOARD) { return cf_ln_checkerboard(x, y, z, n->i[5]); }
EVAL64(LN_CYLINDERS) { return cf_ln_cylinders(x, z, n->d[0]); }
EVAL64(LN_SPHERES) { return cf_ln_spheres(x, y, z, n->d[0]); }
EVAL64(LN_ABS) { return cf_fabs(IN(0)); }
EVAL64(LN_CLAMP)
{
    double v = IN(0);
    return v < n->d[0] ? n->d[0] : v > n->d[1] ? n->d[1] : v;
}
EVAL64(LN_CURVE) { return cf_ln_curve(IN(0), n->da, n->nda / 2); }
EVAL64(LN_EXPONENT) { return cf_ln_exponent(IN(0), n->d[0]); }
EVAL64(LN_INVERT) { return -IN(0); }
EVAL64(LN_SCALEBIAS) { return IN(0) * n->d[0] + n->d[1]; }
EVAL64(LN_TERRACE) { return cf_ln_terrace(IN(0), n->da, n->nda, n->i[0]); }
EVAL64(LN_ADD)
{
    double a = IN(0);
    return a + IN(1);
}
EVAL64(LN_MAX)
{
    double a = IN(0), b = IN(1);
    return a > b ? a : b;
}
EVAL64(LN_MIN)
{
    double a = IN(0), b = IN(1);
    return a < b ? a : b;
}
EVAL64(LN_MULTIPLY)
{
    double a = IN(0);
    return a * IN(1);
}
EVAL64(LN_POWER)
{
    double a = IN(0);
    return cf_ln_pow(a, IN(1));
}
EVAL64(LN_BLEND)
{
    double a = IN(0), b = IN(1);
    return cf_ln_lerp(a, b, (IN(2) + 1.0) / 2.0);
}
EVAL64(LN_SELECT)
{
    double alpha;
    switch (cf_ln_select(IN(2), n->d[0], n->d[1], n->d[2], &alpha)) {
    case 0: return IN(0);
    case 1: return IN(1);
    case 2: {
        double a = IN(0);
        return cf_ln_lerp(a, IN(1), alpha);
    }
    default: {
        double b = IN(1);
        return cf_ln_lerp(b, IN(0), alpha);
    }
    }
}
EVAL64(LN_DISPLACE)
{
    double dx = x + IN(1), dy = y + IN(2), dz = z + IN(3);
    return ev64_node(c, n->in[0], dx, dy, dz);
}
EVAL64(LN_ROTATEPOINT)
{
    const double *m = n->da;
    double nx = (m[0] * x) + (m[1] * y) + (m[2] * z);
    double ny = (m[3] * x) + (m[4] * y) + (m[5] * z);
    double nz = (m[6] * x) + (m[7] * y) + (m[8] * z);
    return ev64_node(c, n->in[0], nx, ny, nz);
}
EVAL64(LN_SCALEPOINT) { return ev64_node(c, n->in[0], x * n->d[0], y * n->d[1], z * n->d[2]); }
EVAL64(LN_TRANSLATEPOINT) { return ev64_node(c, n->in[0], x + n->d[0], y + n->d[1], z + n->d[2]); }
EVAL64(LN_TURBULENCE)
{
    cf_i32 s = seed_of(c, n->i[1]);
    double f = n->d[0], pw = n->d[1];
    int r = n->i[0];
    double dx = x + (cf_ln_fbm(SHARP(n), x + CF_LN_TURB_X0, y + CF_LN_TURB_Y0, z + CF_LN_TURB_Z0, f, 2.0, 0.5, r, s, CF_LN_STD) * pw);
    double dy = y + (cf_ln_fbm(SHARP(n), x + CF_LN_TURB_X1, y + CF_LN_TURB_Y1, z + CF_LN_TURB_Z1, f, 2.0, 0.5, r, cf_ln_seed(s, 1), CF_LN_STD) * pw);
    double dz = z + (cf_ln_fbm(SHARP(n), x + CF_LN_TURB_X2, y + CF_LN_TURB_Y2, z + CF_LN_TURB_Z2, f, 2.0, 0.5, r, cf_ln_seed(s, 2), CF_LN_STD) * pw);
    return ev64_node(c, n->in[0], dx, dy, dz);
}
EVAL64(LN_CACHE) { return IN(0); }
/* Iris CNG (IRIS.md §5.2): fracture displacement of the unscaled position,
 * times the effective scale, the NoiseType's n3, then cf_ir_post. 2-D nodes
 * read Iris's (x, z) from the position's x and z; their 2-D children are
 * evaluated at (a, 0, b). Seeds: per world, w->tab (iris_seeds: 6 x i64 per node). */
#define IRIS2(k, a, b) ev64_node(c, n->in[k], (a), 0.0, (b))
EVAL64(IRIS_CNG)
{
    cf_i64 sd[6];
    memcpy(sd, c->w->tab + 16 + 48 * (size_t)(n - c->w->prog->nodes), sizeof sd);
    int t = n->i[0], oct = n->i[1], br = n->i[2];
    double es = n->d[0], fs = n->d[2], v;
#define GEN(a, b, cc) cf_ir_gen3(t, br, oct, sd[0], (cf_i32)sd[1], (double)sd[2], (double)sd[3], sd[4], sd[5], (a), (b), (cc))
    if (n->i[3] == 2) {
        if (n->nin == 0) v = GEN(x * es, z * es, 0.0);
        else if (br == CF_IR_UNIFICATION || n->i[4]) {
            double fx = x + (IRIS2(0, x, z) - 0.5) * fs;
            double fz = z + (IRIS2(0, z, x) - 0.5) * fs;
            v = GEN(fx * es, fz * es, 0.0);
        } else {
            v = cf_ir_frac_m(2, IRIS2(0, x, z) * fs, x, y, z, es, t, br, oct, sd[0], (cf_i32)sd[1], (double)sd[2], (double)sd[3], sd[4], sd[5]);
        }
    } else {
        if (n->nin == 0) v = GEN(x * es, y * es, z * es);
        else if (br == CF_IR_UNIFICATION || n->i[4]) {
            double fx = x + (ev64_node(c, n->in[0], x, y, z) - 0.5) * fs;
            double fy = y + (IRIS2(n->nin - 1, y, x) - 0.5) * fs;
            double fz = z + (ev64_node(c, n->in[0], z, x, y) - 0.5) * fs;
            v = GEN(fx * es, fy * es, fz * es);
        } else {
            v = cf_ir_frac_m(3, IN(0) * fs, x, y, z, es, t, br, oct, sd[0], (cf_i32)sd[1], (double)sd[2], (double)sd[3], sd[4], sd[5]);
        }
    }
#undef GEN
    return cf_ir_post(v, n->d[3], n->d[1]);
}
EVAL64(IRIS_ROWS) { return ev64_node(c, n->in[cf_ir_row(x, y, n->nin)], x, y, z); }
EVAL64(LN_TERRAIN) { return ((ev64_node(c, n->in[0], x, 0.0, z) * n->d[0]) + n->d[1]) - y; }

typedef double (*eval64_fn)(ev64_ctx *, const cf_node *, double, double, double);
static const eval64_fn evals64[NK_COUNT] = {
#define NODE(K, name, flags, fields, summary)
#define NODE64(K, name, flags, fields, summary) [NK_##K] = eval64_##K,
#include "nodes.def"
#undef NODE64
#undef NODE
};

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static double ev64_node(ev64_ctx *c, int id, double x, double y, double z)
{
    const cf_node *n = &c->w->prog->nodes[id];
    ev64_memo *m = c->memo ? &c->memo[id] : NULL;
    if (m && m->stamp == c->stamp && same(m->x, x) && same(m->y, y) && same(m->z, z)) return m->v;
    double v = evals64[n->kind](c, n, x, y, z);
    if (m && m->stamp != 0xffffffffu) m->x = x, m->y = y, m->z = z, m->v = v, m->stamp = c->stamp;
    return v;
}

int eval64_init(ev64_ctx *c, const cf_world *w)
{
    const cf_program *p = w->prog;
    memset(c, 0, sizeof *c);
    c->w = w;
    c->stamp = 1;
    c->memo = calloc((size_t)p->nnodes + 1, sizeof *c->memo);
    if (!c->memo) return -1;
    /* memoize Cache and nodes with several parents; the others never repeat a point */
    int *parents = calloc((size_t)p->nnodes + 1, sizeof(int));
    if (!parents) return free(c->memo), c->memo = NULL, -1;
    for (int i = 0; i < p->nnodes; i++)
        for (int k = 0; k < p->nodes[i].nin; k++) parents[p->nodes[i].in[k]] += p->nodes[i].kind == NK_LN_TERRAIN ? 2 : 1;
    for (int i = 0; i < p->nnodes; i++)
        c->memo[i].stamp = (parents[i] > 1 || p->nodes[i].kind == NK_LN_CACHE) ? 0 : 0xffffffffu;
    free(parents);
    return 0;
}

void eval64_free(ev64_ctx *c)
{
    free(c->memo);
    c->memo = NULL;
}

double eval_f64(ev64_ctx *c, int node, double x, double y, double z) { return ev64_node(c, node, x, y, z); }
