/* ranges.h - the interval rules of the element-wise node kinds, one per op of kernels/cf_nodes_ops.h's
 * CF_OPS, written once for the program's range analysis (ir/passes.c infer_ranges) and the column
 * bounds of the surface search (cpu/bounds.c).
 *
 * rng_op(kind, in, f, &r): 1 when kind is an op of CF_OPS, and r the interval of its value from
 * in[k], the intervals of its inputs (as many as the node has; clamp's bounds are its f[0], f[1]).
 * r is not widened for the float roundings (each caller widens) and may be NaN where the inputs
 * are unbounded (inf - inf): passes.c then takes the side as unbounded, bounds.c gives no bound.
 * A kind with no useful rule gives (-inf, inf) (log), which each caller reads as its default.
 *
 * The NaN policy is the includer's: min and max ignore a NaN operand as C's fmin and fmax do
 * (a < b ? a : b otherwise, the value glibc's fmin gives) and a NaN corner of a product makes it
 * unbounded (passes.c: a constant may be NaN, a sum of infinities is). An includer whose
 * intervals are never NaN (bounds.c: finite within +-1e37, every kind that makes NaN excluded)
 * defines CF_RNG_NEVER_NAN first and gets a < b ? a : b without the checks: the same values on
 * its intervals, inline, fewer instructions in the surface search's inner loop.
 */
#ifndef CF_IR_RANGES_H
#define CF_IR_RANGES_H

#include <math.h>

#include "ir/ir.h"
#include "kernels/cf_nodes.h"

typedef struct {
    double lo, hi;
} cf_rng;

#ifdef CF_RNG_NEVER_NAN
#define CF_RNG_NAN(x) 0
#else
#define CF_RNG_NAN(x) ((x) != (x))
#endif
static inline double rng_min(double a, double b) { return a < b || CF_RNG_NAN(b) ? a : b; }
static inline double rng_max(double a, double b) { return a > b || CF_RNG_NAN(b) ? a : b; }
static inline cf_rng rng_of(double lo, double hi)
{
    cf_rng r = {lo, hi};
    return r;
}
/* the hull of the four corners, unbounded where one is NaN */
static inline cf_rng rng_corners(double c0, double c1, double c2, double c3)
{
    if (CF_RNG_NAN(c0) || CF_RNG_NAN(c1) || CF_RNG_NAN(c2) || CF_RNG_NAN(c3)) return rng_of(-INFINITY, INFINITY);
    return rng_of(rng_min(rng_min(c0, c1), rng_min(c2, c3)), rng_max(rng_max(c0, c1), rng_max(c2, c3)));
}
/* a / d: between the corner quotients where d excludes 0 and every bound is finite */
static inline cf_rng rng_quotient(cf_rng a, cf_rng d)
{
    if (!((d.lo > 0 || d.hi < 0) && isfinite(a.lo) && isfinite(a.hi) && isfinite(d.lo) && isfinite(d.hi)))
        return rng_of(-INFINITY, INFINITY);
    return rng_corners(a.lo / d.lo, a.lo / d.hi, a.hi / d.lo, a.hi / d.hi);
}

#define RNG_U __attribute__((unused))
#define RNG(K) static inline cf_rng rng_##K(RNG_U const cf_rng *in, RNG_U const float *f)
#define A in[0]
#define B in[1]
RNG(ADD) { return rng_of(A.lo + B.lo, A.hi + B.hi); }
RNG(SUB) { return rng_of(A.lo - B.hi, A.hi - B.lo); }
RNG(MUL) { return (void)f, rng_corners(A.lo * B.lo, A.lo * B.hi, A.hi * B.lo, A.hi * B.hi); }
RNG(DIV) { return (void)f, rng_quotient(A, B); }
RNG(RECIPROCAL) { return (void)f, rng_quotient(rng_of(1, 1), A); }
RNG(MIN) { return rng_of(rng_min(A.lo, B.lo), rng_min(A.hi, B.hi)); }
RNG(MAX) { return rng_of(rng_max(A.lo, B.lo), rng_max(A.hi, B.hi)); }
RNG(ABS)
{
    double u = rng_min(fabs(A.lo), fabs(A.hi)), v = rng_max(fabs(A.lo), fabs(A.hi));
    return rng_of((A.lo <= 0 && A.hi >= 0) ? 0 : u, v);
}
RNG(NEGATE) { return rng_of(-A.hi, -A.lo); }
RNG(SQUARE)
{
    double u = rng_min(fabs(A.lo), fabs(A.hi)), v = rng_max(fabs(A.lo), fabs(A.hi));
    return rng_of((A.lo <= 0 && A.hi >= 0) ? 0 : u * u, v * v);
}
RNG(CUBE) { return rng_of(A.lo * A.lo * A.lo, A.hi * A.hi * A.hi); }
RNG(SQRT) { return rng_of(sqrt(rng_max(A.lo, 0)), sqrt(rng_max(A.hi, 0))); }
RNG(LOG) { return rng_of(-INFINITY, INFINITY); }
RNG(SIGN) { return rng_of(-1, 1); }
RNG(HALF_NEGATIVE) { return rng_of(A.lo < 0 ? A.lo * 0.5 : A.lo, A.hi < 0 ? A.hi * 0.5 : A.hi); }
RNG(QUARTER_NEGATIVE) { return rng_of(A.lo < 0 ? A.lo * 0.25 : A.lo, A.hi < 0 ? A.hi * 0.25 : A.hi); }
RNG(SQUEEZE)
{
    double u = rng_max(-1, rng_min(1, A.lo)), v = rng_max(-1, rng_min(1, A.hi));
    return rng_of(u / 2 - u * u * u / 24, v / 2 - v * v * v / 24);
}
RNG(CLAMP) { return rng_of(rng_max(f[0], rng_min(A.lo, f[1])), rng_min(f[1], rng_max(A.hi, f[0]))); }
/* a + t * (b - a): the hull of a and b for t in [0, 1]; else |v| <= A + T * (A + B), every
 * input bounded (1.01: the float roundings) */
RNG(LERP)
{
    cf_rng t = in[0], a = in[1], b = in[2];
    if (t.lo >= 0 && t.hi <= 1) return rng_of(rng_min(a.lo, b.lo), rng_max(a.hi, b.hi));
    double tm = rng_max(fabs(t.lo), fabs(t.hi)), am = rng_max(fabs(a.lo), fabs(a.hi)), bm = rng_max(fabs(b.lo), fabs(b.hi));
    double m = (am + tm * (am + bm)) * 1.01;
    return m == m && m < INFINITY ? rng_of(-m, m) : rng_of(-INFINITY, INFINITY);
}
#undef A
#undef B
#undef RNG
#undef RNG_U

/* 1 when kind is an op of CF_OPS (rng_op has its rule) */
static inline int rng_has(int kind)
{
    switch (kind) {
#define CF_RNG_HAS(K, N, USE, E) case NK_##K:
        CF_OPS(CF_RNG_HAS)
#undef CF_RNG_HAS
        return 1;
    default: return 0;
    }
}

static inline int rng_op(int kind, const cf_rng *in, const float *f, cf_rng *r)
{
    switch (kind) {
#define CF_RNG_CASE(K, N, USE, E)                                                                                      \
    case NK_##K: *r = rng_##K(in, f); return 1;
        CF_OPS(CF_RNG_CASE)
#undef CF_RNG_CASE
    default: return 0;
    }
}

#endif
