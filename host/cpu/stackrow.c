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
 * run in 16 AVX-512 lanes where the CPU has AVX-512 (cpu_isa(), so CF_NO_AVX512 and the
 * switches below it step down), else in the portable loops. (a)'s vector form covers
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

T512 static inline __m512 smooth512(__m512 t)
{
    __m512 a = _mm512_mul_ps(_mm512_mul_ps(t, t), t);
    __m512 b = _mm512_sub_ps(_mm512_mul_ps(t, _mm512_set1_ps(6.0f)), _mm512_set1_ps(15.0f));
    return _mm512_mul_ps(a, _mm512_add_ps(_mm512_mul_ps(t, b), _mm512_set1_ps(10.0f)));
}
T512 static inline __m512 lerp512(__m512 t, __m512 a, __m512 b) { return _mm512_add_ps(a, _mm512_mul_ps(t, _mm512_sub_ps(b, a))); }

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
            __m512 s = _mm512_add_ps(_mm512_mul_ps(_mm512_permutexvar_ps(h, gx), a), _mm512_mul_ps(_mm512_permutexvar_ps(h, gy), b));
            d[q] = _mm512_add_ps(s, _mm512_mul_ps(_mm512_permutexvar_ps(h, gz), c));
        }
        __m512 t1 = smooth512(u), t2 = smooth512(v), t3 = smooth512(w);
        __m512 b0 = lerp512(t2, lerp512(t1, d[0], d[1]), lerp512(t1, d[2], d[3]));
        __m512 b1 = lerp512(t2, lerp512(t1, d[4], d[5]), lerp512(t1, d[6], d[7]));
        __m512 nv = lerp512(t3, b0, b1);
        _mm512_storeu_ps(out + l, _mm512_add_ps(_mm512_loadu_ps(out + l), _mm512_mul_ps(_mm512_set1_ps(amp), nv)));
    }
}
#undef T512
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
#endif
        if (!done) axes_scalar(&r, 0, n, x, y, z, f, o);
        hashes(&r, n, o, lat ? &lat[oi] : NULL);
        int n16 = 0;
#ifdef CF_HAVE_ROW512
        if (isa == STACK_ISA_AVX512) {
            n16 = n & ~15;
            lerps512(&r, n16, amp, out);
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
#endif
    return STACK_ISA_PORTABLE;
}
