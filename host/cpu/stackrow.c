/* stackrow.c - one noise stack at a row of points, octave outer and points inner (the
 * 1:4 biome map's climate: host/biome/query.c evaluates a grid row's noises this way).
 *
 * stack_lanes(w, isa, s, n, x, y, z, lat, out) sets out[l] to the point path's stack value
 * at (x[l], y[l], z[l]), what eval.c's stack_point (cf_stack_point with the lattice cell
 * cache) returns there, bit for bit: per octave the same double steps (scale, wrap, offset,
 * floor, fraction), the same eight gradient hashes and the same float products, sums and
 * lerps in the same order (no contraction: -ffp-contract=off, and the vector path below
 * writes every multiply and add itself), summed over the octaves left to right. Per octave,
 * three passes over the row: (a) the double steps into cells (i, j, k) and fractions
 * (u, v, w), (b) the hashes, scalar, each lane reusing the octave's last cell (lat: one
 * cell per octave, eval.c's cache, shared with it), (c) the float part. Passes (a) and (c)
 * run in 16 AVX-512 lanes where the CPU has AVX-512, in AVX2's 4 (a) and 8 (c) lanes where it
 * has AVX2 only (cpu_isa(), so CF_NO_AVX512 steps down to AVX2, CF_NO_AVX2 and CF_NO_SSE to the
 * portable loops), else in the portable loops. (a)'s vector form covers
 * |coordinate * frequency| < 2^24, where wrap is the identity (cf_wrap's own first test);
 * an octave with another lane takes the scalar steps for the row. Smeared octaves (not in
 * climate noises) take cf_smeared per lane. tests/test_biome.c compares the maps with the
 * point queries (cf_biomes_quarts) under every CF_NO_* switch.
 */
#include <math.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "cpu/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CF_HAVE_ROW512 1
#endif

/* one octave's row: cells, fractions, hashes */
typedef struct srow {
    int32_t i[STACK_LANES_MAX], j[STACK_LANES_MAX], k[STACK_LANES_MAX];
    float u[STACK_LANES_MAX], v[STACK_LANES_MAX], w[STACK_LANES_MAX];
    uint64_t hp[STACK_LANES_MAX]; /* the eight hashes, hash q in byte q */
} srow;

/* (a), scalar: cf_perlin's double steps */
static void axes_scalar(srow *r, int l0, int n, const double *x, const double *y, const double *z, double f, CF_TAB o)
{
    double ox = cf_ld_f64(o), oy = cf_ld_f64(o + 8), oz = cf_ld_f64(o + 16);
    for (int l = l0; l < n; l++) {
        double X = cf_wrap(x[l] * f) + ox, Y = cf_wrap(y[l] * f) + oy, Z = cf_wrap(z[l] * f) + oz;
        int32_t i = cf_jfloor(X), j = cf_jfloor(Y), k = cf_jfloor(Z);
        r->i[l] = i, r->j[l] = j, r->k[l] = k;
        r->u[l] = (float)(X - (double)i), r->v[l] = (float)(Y - (double)j), r->w[l] = (float)(Z - (double)k);
    }
}

/* the eight gradient hashes of cell (i, j, k) of the permutation p, cf_perlin_lattice's
 * order, into c (eval.c's stack_point and the lanes below) */
void lat_cell_set(cf_latcell *c, const uint8_t *p, int32_t i, int32_t j, int32_t k)
{
    uint32_t ui = (uint32_t)i, uj = (uint32_t)j, uk = (uint32_t)k;
    uint32_t a = cf_perm(p, ui), b = cf_perm(p, ui + 1u);
    uint32_t aa = cf_perm(p, a + uj), ab = cf_perm(p, a + uj + 1u);
    uint32_t ba = cf_perm(p, b + uj), bb = cf_perm(p, b + uj + 1u);
    c->h[0] = (uint8_t)cf_perm(p, aa + uk), c->h[1] = (uint8_t)cf_perm(p, ba + uk);
    c->h[2] = (uint8_t)cf_perm(p, ab + uk), c->h[3] = (uint8_t)cf_perm(p, bb + uk);
    c->h[4] = (uint8_t)cf_perm(p, aa + uk + 1u), c->h[5] = (uint8_t)cf_perm(p, ba + uk + 1u);
    c->h[6] = (uint8_t)cf_perm(p, ab + uk + 1u), c->h[7] = (uint8_t)cf_perm(p, bb + uk + 1u);
    c->i = i, c->j = j, c->k = k, c->ok = 1;
}

/* (b): the eight hashes of each lane's cell, cf_perlin_lattice's order */
static void hashes(srow *r, int n, CF_TAB o, cf_latcell *c)
{
    CF_TAB p = o + 32;
    cf_latcell tmp = {0, 0, 0, 0, {0}};
    if (!c) c = &tmp;
    uint64_t pk = 0;
    int have = 0;
    for (int l = 0; l < n; l++) {
        int32_t i = r->i[l], j = r->j[l], k = r->k[l];
        if (!c->ok || c->i != i || c->j != j || c->k != k) lat_cell_set(c, p, i, j, k), have = 0;
        if (!have) {
            pk = 0;
            for (int q = 0; q < 8; q++) pk |= (uint64_t)c->h[q] << (8 * q);
            have = 1;
        }
        r->hp[l] = pk;
    }
}

/* (c), scalar: eval.c's stack_point float part, out[l] + amp * the octave's value */
static void lerps_scalar(const srow *r, int l0, int n, float amp, float *out)
{
    for (int l = l0; l < n; l++) {
        float u = r->u[l], vv = r->v[l], w = r->w[l];
        float u1 = u - 1.0f, v1 = vv - 1.0f, w1 = w - 1.0f;
        uint64_t h = r->hp[l];
        float nv = cf_lerp3f(cf_smoothf(u), cf_smoothf(vv), cf_smoothf(w), cf_gdot((uint32_t)h, u, vv, w),
                             cf_gdot((uint32_t)(h >> 8), u1, vv, w), cf_gdot((uint32_t)(h >> 16), u, v1, w),
                             cf_gdot((uint32_t)(h >> 24), u1, v1, w), cf_gdot((uint32_t)(h >> 32), u, vv, w1),
                             cf_gdot((uint32_t)(h >> 40), u1, vv, w1), cf_gdot((uint32_t)(h >> 48), u, v1, w1),
                             cf_gdot((uint32_t)(h >> 56), u1, v1, w1));
        out[l] = out[l] + amp * nv;
    }
}

#ifdef CF_HAVE_ROW512
#define T512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))

/* (a) for lanes [0, n8) (n8 a multiple of 8): one axis; 0 where a lane's |c * f| is not
 * below 2^24 (or NaN): the caller then takes the scalar steps */
T512 static int axis512(const double *c, int n8, double f, double o, int32_t *ci, float *cu)
{
    __m512d vf = _mm512_set1_pd(f), vo = _mm512_set1_pd(o), hi = _mm512_set1_pd(16777216.0), lo = _mm512_set1_pd(-16777216.0);
    __m256i one = _mm256_set1_epi32(1);
    for (int l = 0; l < n8; l += 8) {
        __m512d s = _mm512_mul_pd(_mm512_loadu_pd(c + l), vf);
        __mmask8 in = _mm512_cmp_pd_mask(s, hi, _CMP_LT_OQ) & _mm512_cmp_pd_mask(s, lo, _CMP_GT_OQ);
        if (in != 0xff) return 0;
        __m512d X = _mm512_add_pd(s, vo); /* cf_wrap(s) == s here */
        __m256i t = _mm512_cvttpd_epi32(X);
        __mmask8 below = _mm512_cmp_pd_mask(X, _mm512_cvtepi32_pd(t), _CMP_LT_OQ);
        t = _mm256_mask_sub_epi32(t, below, t, one); /* cf_jfloor: |X| < 2^24 + 2^8 */
        _mm256_storeu_si256((__m256i *)(ci + l), t);
        _mm256_storeu_ps(cu + l, _mm512_cvtpd_ps(_mm512_sub_pd(X, _mm512_cvtepi32_pd(t))));
    }
    return 1;
}

/* the float part of lanes of any width (GCC's vector operators, a scalar operand taken in
 * every lane): cf_smoothf and cf_lerp3f's steps, in their order */
#define SMOOTHV(t) ((t) * (t) * (t) * ((t) * ((t) * 6.0f - 15.0f) + 10.0f))
#define LERPV(t, a, b) ((a) + (t) * ((b) - (a)))
#define LERP3V(u, v, w, d)                                                                                                          \
    LERPV(SMOOTHV(w), LERPV(SMOOTHV(v), LERPV(SMOOTHV(u), d[0], d[1]), LERPV(SMOOTHV(u), d[2], d[3])),                              \
          LERPV(SMOOTHV(v), LERPV(SMOOTHV(u), d[4], d[5]), LERPV(SMOOTHV(u), d[6], d[7])))

/* (c) for lanes [0, n16) (n16 a multiple of 16): cf_gdot's table rows by vpermps (it reads
 * an index's low 4 bits: cf_gdot's h & 15), out[l] + amp * the octave's value */
T512 static void lerps512(const srow *r, int n16, float amp, float *out)
{
    __m512 gx = _mm512_loadu_ps(cf_grad_x), gy = _mm512_loadu_ps(cf_grad_y), gz = _mm512_loadu_ps(cf_grad_z);
    __m512 one = _mm512_set1_ps(1.0f);
    for (int l = 0; l < n16; l += 16) {
        __m512 u = _mm512_loadu_ps(r->u + l), v = _mm512_loadu_ps(r->v + l), w = _mm512_loadu_ps(r->w + l);
        __m512 u1 = _mm512_sub_ps(u, one), v1 = _mm512_sub_ps(v, one), w1 = _mm512_sub_ps(w, one);
        __m512 d[8];
        __m512i ha = _mm512_loadu_si512((const void *)(r->hp + l)), hb = _mm512_loadu_si512((const void *)(r->hp + l + 8));
        for (int q = 0; q < 8; q++) {
            __m256i h0 = _mm512_cvtepi64_epi32(_mm512_srli_epi64(ha, (unsigned)(8 * q)));
            __m256i h1 = _mm512_cvtepi64_epi32(_mm512_srli_epi64(hb, (unsigned)(8 * q)));
            __m512i h = _mm512_inserti64x4(_mm512_castsi256_si512(h0), h1, 1);
            __m512 a = (q & 1) ? u1 : u, b = (q & 2) ? v1 : v, c = (q & 4) ? w1 : w;
            d[q] = _mm512_permutexvar_ps(h, gx) * a + _mm512_permutexvar_ps(h, gy) * b + _mm512_permutexvar_ps(h, gz) * c;
        }
        _mm512_storeu_ps(out + l, _mm512_loadu_ps(out + l) + amp * LERP3V(u, v, w, d));
    }
}
#undef T512

#define T256 __attribute__((target("avx2")))
/* axis512's steps in 4 AVX2 lanes, for lanes [0, n4) (n4 a multiple of 4) */
T256 static int axis256(const double *c, int n4, double f, double o, int32_t *ci, float *cu)
{
    __m256d vf = _mm256_set1_pd(f), vo = _mm256_set1_pd(o), hi = _mm256_set1_pd(16777216.0), lo = _mm256_set1_pd(-16777216.0);
    __m256d one = _mm256_set1_pd(1.0);
    for (int l = 0; l < n4; l += 4) {
        __m256d s = _mm256_mul_pd(_mm256_loadu_pd(c + l), vf);
        __m256d in = _mm256_and_pd(_mm256_cmp_pd(s, hi, _CMP_LT_OQ), _mm256_cmp_pd(s, lo, _CMP_GT_OQ));
        if (_mm256_movemask_pd(in) != 0xf) return 0;
        __m256d X = _mm256_add_pd(s, vo); /* cf_wrap(s) == s here */
        __m256d tf = _mm256_cvtepi32_pd(_mm256_cvttpd_epi32(X));
        tf = _mm256_sub_pd(tf, _mm256_and_pd(_mm256_cmp_pd(X, tf, _CMP_LT_OQ), one)); /* cf_jfloor, as a double */
        _mm_storeu_si128((__m128i *)(ci + l), _mm256_cvttpd_epi32(tf));
        _mm_storeu_ps(cu + l, _mm256_cvtpd_ps(_mm256_sub_pd(X, tf)));
    }
    return 1;
}

/* cf_gdot's table row h & 15 of a 16-entry table (lo: rows 0-7, hi: 8-15): two vpermps, bit 3 picks */
T256 static inline __m256 row256(__m256 lo, __m256 hi, __m256i h)
{
    return _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, h), _mm256_permutevar8x32_ps(hi, h), _mm256_castsi256_ps(_mm256_slli_epi32(h, 28)));
}

/* lerps512's steps in 8 AVX2 lanes, for lanes [0, n8) (n8 a multiple of 8) */
T256 static void lerps256(const srow *r, int n8, float amp, float *out)
{
    __m256 gx0 = _mm256_loadu_ps(cf_grad_x), gx1 = _mm256_loadu_ps(cf_grad_x + 8), gy0 = _mm256_loadu_ps(cf_grad_y);
    __m256 gy1 = _mm256_loadu_ps(cf_grad_y + 8), gz0 = _mm256_loadu_ps(cf_grad_z), gz1 = _mm256_loadu_ps(cf_grad_z + 8);
    __m256 one = _mm256_set1_ps(1.0f);
    __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    for (int l = 0; l < n8; l += 8) {
        __m256 u = _mm256_loadu_ps(r->u + l), v = _mm256_loadu_ps(r->v + l), w = _mm256_loadu_ps(r->w + l);
        __m256 u1 = _mm256_sub_ps(u, one), v1 = _mm256_sub_ps(v, one), w1 = _mm256_sub_ps(w, one);
        __m256 d[8];
        __m256i ha = _mm256_loadu_si256((const __m256i *)(r->hp + l)), hb = _mm256_loadu_si256((const __m256i *)(r->hp + l + 4));
        for (int q = 0; q < 8; q++) {
            __m256i pa = _mm256_permutevar8x32_epi32(_mm256_srli_epi64(ha, 8 * q), even);
            __m256i pb = _mm256_permutevar8x32_epi32(_mm256_srli_epi64(hb, 8 * q), even);
            __m256i h = _mm256_permute2x128_si256(pa, pb, 0x20); /* the low words of the 8 lanes */
            __m256 a = (q & 1) ? u1 : u, b = (q & 2) ? v1 : v, c = (q & 4) ? w1 : w;
            d[q] = row256(gx0, gx1, h) * a + row256(gy0, gy1, h) * b + row256(gz0, gz1, h) * c;
        }
        _mm256_storeu_ps(out + l, _mm256_loadu_ps(out + l) + amp * LERP3V(u, v, w, d));
    }
}
#undef T256
#undef LERP3V
#undef LERPV
#undef SMOOTHV
#endif

void stack_lanes(const cf_world *wd, int isa, int s, int n, const double *x, const double *y, const double *z, cf_latcell *lat,
               float *out)
{
    srow r;
    CF_TAB t = wd->tab;
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    if (n > STACK_LANES_MAX) n = STACK_LANES_MAX;
    for (int l = 0; l < n; l++) out[l] = 0.0f;
    (void)isa;
    for (int oc = 0; oc < count; oc++, ly += CF_LAYER_BYTES) {
        int oi = cf_ld_i32(ly);
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * oi;
        float amp = cf_ld_f32(ly + 4);
        double f = cf_ld_f64(ly + 8), q = cf_ld_f64(o + 24);
        if (q > 0.0) { /* smeared: cf_smeared per lane */
            for (int l = 0; l < n; l++)
                out[l] = out[l] + amp * cf_smeared(o + 32, cf_ld_f64(o), cf_ld_f64(o + 8), cf_ld_f64(o + 16), q, x[l] * f, y[l] * f, z[l] * f);
            continue;
        }
        int done = 0;
#ifdef CF_HAVE_ROW512
        int n8 = n & ~7;
        if (isa == STACK_ISA_AVX512 && n8 > 0) {
            done = axis512(x, n8, f, cf_ld_f64(o), r.i, r.u) && axis512(y, n8, f, cf_ld_f64(o + 8), r.j, r.v) &&
                   axis512(z, n8, f, cf_ld_f64(o + 16), r.k, r.w);
            if (done) axes_scalar(&r, n8, n, x, y, z, f, o); /* the tail */
        }
        int n4 = n & ~3;
        if (isa == STACK_ISA_AVX2 && n4 > 0) {
            done = axis256(x, n4, f, cf_ld_f64(o), r.i, r.u) && axis256(y, n4, f, cf_ld_f64(o + 8), r.j, r.v) &&
                   axis256(z, n4, f, cf_ld_f64(o + 16), r.k, r.w);
            if (done) axes_scalar(&r, n4, n, x, y, z, f, o); /* the tail */
        }
#endif
        if (!done) axes_scalar(&r, 0, n, x, y, z, f, o);
        hashes(&r, n, o, lat ? &lat[oi] : NULL);
        int n16 = 0;
#ifdef CF_HAVE_ROW512
        if (isa == STACK_ISA_AVX512) {
            n16 = n & ~15;
            lerps512(&r, n16, amp, out);
        } else if (isa == STACK_ISA_AVX2) {
            n16 = n & ~7;
            lerps256(&r, n16, amp, out);
        }
#endif
        lerps_scalar(&r, n16, n, amp, out); /* the tail (or every lane) */
    }
}

int stack_lanes_isa(void)
{
#ifdef CF_HAVE_ROW512
    unsigned cpu = cpu_isa();
    if ((cpu & CPU_SSE2) && (cpu & CPU_AVX2) && (cpu & CPU_AVX512)) return STACK_ISA_AVX512;
    if ((cpu & CPU_SSE2) && (cpu & CPU_AVX2)) return STACK_ISA_AVX2;
#endif
    return STACK_ISA_PORTABLE;
}
