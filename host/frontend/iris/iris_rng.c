/* iris_rng.c - the Iris front-end's seeds (shared/IRIS.md §2, §7.5): Java's RNG (java.util.Random
 * and Iris's RNG), the SeedManager, and the per-world seeds of every seeded Iris node
 * (iris_seeds, called by seed_bind through the front-end record): w->tab, a 16-byte header
 * then 6 x i64 per node.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <md5.h>

#include "frontend/iris/iris_ctx.h"


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
    return cf_jtoint(floor(-2147483648.0 + u * 4294967295.0));
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
static int32_t jr_i(jrng *r, double lo, double hi) { return cf_jtoint(floor(jr_d(r, lo, hi))); }
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
        return cf_jtolong(n->da[0] + cs2 + (double)hc);
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

