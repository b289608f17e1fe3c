/* rowops.c - the block stage's element-wise operations over a run of floats (a row of a
 * fill window: 16 x 16 values for a chunk), in 16 AVX-512 or 8 AVX2 lanes where the CPU
 * has them, else the portable loop the compiler vectorises for the base ISA.
 *
 * Every kind is the float operation of eval.c's volume path, element by element, written
 * without branches so that each lane computes the same IEEE operation as the scalar code:
 * add, sub, mul, div, min / max as selects (b < a ? b : a is vminps's own rule), abs as
 * a sign mask, selects for range_choice, lerp, half_negative, quarter_negative, and a
 * clamp whose upper bound is not 0 (cf_clampf's Math.min differs from a select only when
 * both operands are zeros or the bound is NaN: those clamps take the scalar loop). Both
 * operands of a select are computed in every lane; the unused one is discarded, so the
 * values are bit for bit the scalar ones. No FMA: the targets below do not enable it and
 * the project builds with -ffp-contract=off (`objdump -d rowops.c.o | grep vfmadd` is
 * empty). tests: test_fill's fused::* compare every path with eval.c at every block.
 */
#include <math.h>
#include <stdlib.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define CF_HAVE_ROW_AVX 1
#endif

/* 1 when cf_clampf(v, lo, hi) equals the select form below for every v */
static int clamp_selectable(float lo, float hi)
{
    return hi == hi && hi != 0.0f && lo == lo;
}

/* the row kinds' ops (kernels/cf_nodes_ops.h: ROW and VOL) element by element; div by a
 * literal (lit) is times its reciprocal r */
#define ROW_CALL_1(K) cf_op_##K(a[i])
#define ROW_CALL_2(K) cf_op_##K(a[i], b[i])
#define ROW_CALL_3(K) cf_op_##K(a[i], b[i], c[i])
#define CF_OP_ROW_CASE(K, N)                                                                                    \
    case NK_##K: for (size_t i = 0; i < n; i++) o[i] = ROW_CALL_##N(K); break;
#define BODY                                                                                                   \
    if (kind == NK_DIV && lit) {                                                                              \
        for (size_t i = 0; i < n; i++) o[i] = cf_op_MUL(a[i], r);                                              \
        return;                                                                                                \
    }                                                                                                          \
    switch (kind) {                                                                                            \
        CF_OPS(CF_OP_ROWS)                                                                                     \
    case NK_CLAMP:                                                                                             \
        if (clamp_selectable(lo, hi)) {                                                                        \
            for (size_t i = 0; i < n; i++) {                                                                   \
                float v = a[i], c = v > hi ? hi : v;                                                           \
                o[i] = v < lo ? lo : c;                                                                        \
            }                                                                                                  \
        } else {                                                                                               \
            for (size_t i = 0; i < n; i++) o[i] = cf_op_CLAMP(a[i], lo, hi);                                   \
        }                                                                                                      \
        break;                                                                                                 \
    case NK_RANGE_CHOICE:                                                                                      \
        for (size_t i = 0; i < n; i++) {                                                                       \
            float v = a[i];                                                                                    \
            int in = (v >= lo) & (v < hi);                                                                     \
            o[i] = in ? b[i] : c[i];                                                                           \
        }                                                                                                      \
        break;                                                                                                 \
    default: for (size_t i = 0; i < n; i++) o[i] = a[i]; break; /* cache, blend_density */                    \
    }

#define ARGS                                                                                                   \
    int kind, float *restrict o, const float *restrict a, const float *restrict b, const float *restrict c,   \
        size_t n, float lo, float hi, int lit, float r

/* how many of a[0..n) lie in [lo, hi) (eq 0) or equal lo (eq 1) */
#define COUNT                                                                                                  \
    size_t m = 0;                                                                                              \
    if (eq) {                                                                                                  \
        for (size_t i = 0; i < n; i++) m += a[i] == lo;                                                        \
    } else {                                                                                                   \
        for (size_t i = 0; i < n; i++) m += (a[i] >= lo) & (a[i] < hi);                                        \
    }                                                                                                          \
    return m;
#define CARGS const float *restrict a, size_t n, int eq, float lo, float hi

static void rowop_portable(ARGS) { BODY }
static size_t count_portable(CARGS) { COUNT }

#ifdef CF_HAVE_ROW_AVX
#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
AVX2 static void rowop_avx2(ARGS) { BODY }
AVX512 static void rowop_avx512(ARGS) { BODY }
AVX2 static size_t count_avx2(CARGS) { COUNT }
AVX512 static size_t count_avx512(CARGS) { COUNT }
#undef AVX2
#undef AVX512
#endif
#undef ARGS
#undef BODY
#undef CARGS
#undef COUNT

int rowop_isa(void)
{
    int isa = ROW_ISA_PORTABLE;
#ifdef CF_HAVE_ROW_AVX
    /* the same steps as the corner stage (corners.c): CF_NO_SSE, CF_NO_AVX2 (the portable
     * loop here: it has no SSE2 form of its own), CF_NO_AVX512 */
    unsigned cpu = cpu_isa();
    if ((cpu & CPU_AVX2) && (cpu & CPU_SSE2)) isa = ROW_ISA_AVX2;
    if (isa == ROW_ISA_AVX2 && (cpu & CPU_AVX512)) isa = ROW_ISA_AVX512;
#endif
    return isa;
}

void rowop(int isa, int kind, float *restrict o, const float *a, const float *b, const float *c, size_t n, float lo,
           float hi, int lit, float r)
{
#ifdef CF_HAVE_ROW_AVX
    if (isa == ROW_ISA_AVX512) {
        rowop_avx512(kind, o, a, b, c, n, lo, hi, lit, r);
        return;
    }
    if (isa == ROW_ISA_AVX2) {
        rowop_avx2(kind, o, a, b, c, n, lo, hi, lit, r);
        return;
    }
#endif
    (void)isa;
    rowop_portable(kind, o, a, b, c, n, lo, hi, lit, r);
}

size_t rowop_count(int isa, const float *a, size_t n, int eq, float lo, float hi)
{
#ifdef CF_HAVE_ROW_AVX
    if (isa == ROW_ISA_AVX512) return count_avx512(a, n, eq, lo, hi);
    if (isa == ROW_ISA_AVX2) return count_avx2(a, n, eq, lo, hi);
#endif
    (void)isa;
    return count_portable(a, n, eq, lo, hi);
}
