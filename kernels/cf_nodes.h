/* cf_nodes.h - the seed tables and the math of every non-trivial node kind,
 * shared by the CPU reference (host/cpu/eval.c) and the generated OpenCL programs.
 *
 * The seed tables are one little-endian byte blob (built by host/ir/seed.c,
 * uploaded as is to a device):
 *   header   [0] int32 layer offset, [4] int32 stack offset, [8] int32 octaves, [12] int32 layers
 *   octave k at 16 + 288k: double ox, oy, oz, q (smear scale, 0 = plain), then 256 permutation bytes
 *   layer l  at layer offset + 16l: int32 octave, float amplitude, double frequency
 *   stack s  at stack offset + 8s: int32 first layer, int32 layer count
 * Sampling only reads the blob (MINECRAFT-26.3.md §3-§8, §10, §13).
 */
#ifndef CF_NODES_H
#define CF_NODES_H

#include "cf_math.h"

#ifdef __OPENCL_VERSION__
#define CF_TAB __global const uchar *
#define CF_CONSTP __constant
CF_INLINE double cf_ld_f64(CF_TAB p) { return *(__global const double *)p; }
CF_INLINE float cf_ld_f32(CF_TAB p) { return *(__global const float *)p; }
CF_INLINE int cf_ld_i32(CF_TAB p) { return *(__global const int *)p; }
#else
#include <string.h>
#define CF_TAB const uint8_t *
#define CF_CONSTP
CF_INLINE double cf_ld_f64(CF_TAB p) { double v; memcpy(&v, p, 8); return v; }
CF_INLINE float cf_ld_f32(CF_TAB p) { float v; memcpy(&v, p, 4); return v; }
CF_INLINE cf_i32 cf_ld_i32(CF_TAB p) { cf_i32 v; memcpy(&v, p, 4); return v; }
#endif

#define CF_TAB_HEADER 16
#define CF_OCT_BYTES 288
#define CF_LAYER_BYTES 16

/* GPU builds (CF_GPU): a function inlined even where the compiler would call it (a call costs
 * scratch for its frame and the registers of the calling convention) */
#if defined(__OPENCL_VERSION__) && defined(CF_GPU)
#define CF_INLINE_GPU __attribute__((always_inline)) CF_INLINE
#else
#define CF_INLINE_GPU CF_INLINE
#endif

/* NoiseStack.get, point path: layer at (x*f, y*f, z*f) (§5) */
CF_INLINE_GPU float cf_stack_point(CF_TAB t, int s, double x, double y, double z)
{
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    float v = 0.0f;
    for (int i = 0; i < count; i++, ly += CF_LAYER_BYTES) {
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly);
        float amp = cf_ld_f32(ly + 4);
        double f = cf_ld_f64(ly + 8), q = cf_ld_f64(o + 24);
        float nv = q > 0.0 ? cf_smeared(o + 32, cf_ld_f64(o), cf_ld_f64(o + 8), cf_ld_f64(o + 16), q, x * f, y * f, z * f)
                           : cf_perlin(o + 32, cf_ld_f64(o), cf_ld_f64(o + 8), cf_ld_f64(o + 16), x * f, y * f, z * f);
        v = v + amp * nv;
    }
    return v;
}

/* the volume form of an unshifted noise node: layer at x*(scale*f) (§5) */
CF_INLINE float cf_stack_volume(CF_TAB t, int s, cf_i32 x, cf_i32 y, cf_i32 z, double sxz, double sy)
{
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    float v = 0.0f;
    for (int i = 0; i < count; i++, ly += CF_LAYER_BYTES) {
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly);
        float amp = cf_ld_f32(ly + 4);
        double f = cf_ld_f64(ly + 8);
        double fxz = sxz * f, fy = sy * f;
        v = v + amp * cf_perlin(o + 32, cf_ld_f64(o), cf_ld_f64(o + 8), cf_ld_f64(o + 16), (double)x * fxz,
                                (double)y * fy, (double)z * fxz);
    }
    return v;
}

/* old_blended_noise (§8): stacks s (min limit), s+1 (max limit), s+2 (main) */
CF_INLINE float cf_blended(CF_TAB t, int s, double xz_scale, double y_scale, double xz_factor, double y_factor,
                           cf_i32 x, cf_i32 y, cf_i32 z)
{
    double xzm = 684.412 * xz_scale, ym = 684.412 * y_scale;
    double mxz = xzm / xz_factor, my = ym / y_factor;
    float main = cf_stack_point(t, s + 2, (double)x * mxz, (double)y * my, (double)z * mxz);
    float a = cf_clampf(main + 0.5f, 0.0f, 1.0f);
    double bx = (double)x * xzm, by = (double)y * ym, bz = (double)z * xzm;
    if (a == 0.0f) return cf_stack_point(t, s, bx, by, bz);
    if (a == 1.0f) return cf_stack_point(t, s + 1, bx, by, bz);
    float lo = cf_stack_point(t, s, bx, by, bz);
    return cf_lerpf(a, lo, cf_stack_point(t, s + 1, bx, by, bz));
}

#ifdef __OPENCL_VERSION__
/* The device corner stage (emit.c): stack s at corner (i, j, k) of a chunk's corner lattice,
 * its per-axis halves (cf_axis, cf_axis_y) read from the axis tables (k_axes): the chunk's a,
 * per layer R ints, x records (i, u) at 0, z records (k, w) at zoff; the batch's y records
 * (j, v, fade) ay, per layer RY ints (every chunk of a batch has the same y values). The same
 * float operations in the same order as cf_stack_volume / cf_stack_point. */
CF_INLINE float cf_stack_axes(CF_TAB t, int s, __global const int *a, int R, int zoff, __global const int *ay, int RY, int i,
                              int j, int k)
{
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    float v = 0.0f;
    for (int l = 0; l < count; l++, ly += CF_LAYER_BYTES, a += R, ay += RY) {
        CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly);
        float amp = cf_ld_f32(ly + 4);
        __global const int *ax = a + 2 * i, *ayj = ay + 3 * j, *az = a + zoff + 2 * k;
        v = v + amp * cf_perlin_lattice(o + 32, ax[0], ayj[0], az[0], as_float(ax[1]), as_float(ayj[1]), as_float(az[1]),
                                        as_float(ayj[2]));
    }
    return v;
}
#ifdef CF_GPU
/* cf_stack_axes with the stack's permutations in local memory: lp holds layer l's 256 bytes at
 * 256 * l (cf_stack_lp_load); the same operations on the same values */
CF_INLINE float cf_stack_axes_l(CF_TAB t, int s, __global const int *a, int R, int zoff, __global const int *ay, int RY, int i,
                                int j, int k, __local const uchar *lp)
{
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    float v = 0.0f;
    for (int l = 0; l < count; l++, ly += CF_LAYER_BYTES, a += R, ay += RY, lp += 256) {
        float amp = cf_ld_f32(ly + 4);
        __global const int *ax = a + 2 * i, *ayj = ay + 3 * j, *az = a + zoff + 2 * k;
        v = v + amp * cf_perlin_lattice_l(lp, ax[0], ayj[0], az[0], as_float(ax[1]), as_float(ayj[1]), as_float(az[1]),
                                          as_float(ayj[2]));
    }
    return v;
}
/* copies stack s's permutations into lp (256 bytes a layer, at most max layers; the work group
 * shares the copy: call it from every work item, then barrier); 0 when the stack has more
 * layers than fit (the caller then reads them from global memory) */
CF_INLINE int cf_stack_lp_load(CF_TAB t, int s, __local uint *lp, int max)
{
    CF_TAB st = t + cf_ld_i32(t + 4) + 8 * s;
    int first = cf_ld_i32(st), count = cf_ld_i32(st + 4);
    if (count > max) return 0;
    CF_TAB ly = t + cf_ld_i32(t) + CF_LAYER_BYTES * first;
    for (int w = (int)get_local_id(0); w < 64 * count; w += (int)get_local_size(0)) {
        /* the permutation starts 32 bytes into the 288-byte octave record at 16: 4-byte aligned */
        __global const uint *o = (__global const uint *)(t + CF_TAB_HEADER + CF_OCT_BYTES * cf_ld_i32(ly + CF_LAYER_BYTES * (w / 64)) + 32);
        lp[w] = o[w % 64];
    }
    return 1;
}
#endif
/* the same as a call, for bodies with many noise sites (emit.c): on a GPU one out-of-line copy
 * instead of an inlined loop per site (code size; the kernel's registers stay near the
 * callee's) */
#ifdef CF_GPU
__attribute__((noinline))
#endif
float cf_stack_axes_call(CF_TAB t, int s, __global const int *a, int R, int zoff, __global const int *ay, int RY, int i, int j,
                         int k)
{
    return cf_stack_axes(t, s, a, R, zoff, ay, RY, i, j, k);
}
/* cf_blended over the axis tables of its three stacks (min limit, max limit, main) */
CF_INLINE float cf_blended_axes(CF_TAB t, int s, __global const int *amin, __global const int *amax,
                                __global const int *amain, int R, int zoff, __global const int *ymin,
                                __global const int *ymax, __global const int *ymain, int RY, int i, int j, int k)
{
    float main = cf_stack_axes_call(t, s + 2, amain, R, zoff, ymain, RY, i, j, k);
    float a = cf_clampf(main + 0.5f, 0.0f, 1.0f);
    if (a == 0.0f) return cf_stack_axes_call(t, s, amin, R, zoff, ymin, RY, i, j, k);
    if (a == 1.0f) return cf_stack_axes_call(t, s + 1, amax, R, zoff, ymax, RY, i, j, k);
    float lo = cf_stack_axes_call(t, s, amin, R, zoff, ymin, RY, i, j, k);
    return cf_lerpf(a, lo, cf_stack_axes_call(t, s + 1, amax, R, zoff, ymax, RY, i, j, k));
}
#endif

#ifdef __OPENCL_VERSION__
/* cf_blended_axes from its three stacks' values (main, min limit, max limit) computed
 * beforehand (the GPU form's k_stacks_<k>, emit.c): the same operations on the same values */
CF_INLINE float cf_blended_vals(float main, float lo, float hi)
{
    float a = cf_clampf(main + 0.5f, 0.0f, 1.0f);
    if (a == 0.0f) return lo;
    if (a == 1.0f) return hi;
    return cf_lerpf(a, lo, hi);
}
#endif

/* end_outer_islands (§13); oct = the simplex octave (offsets 0) */
CF_INLINE float cf_end_islands(CF_TAB t, int oct, cf_i32 x, cf_i32 z)
{
    CF_TAB o = t + CF_TAB_HEADER + CF_OCT_BYTES * oct;
    cf_i32 sx = x / 8, sz = z / 8; /* Java int division: truncation */
    cf_i32 cx = sx / 2, cz = sz / 2, ex = sx % 2, ez = sz % 2;
    float h = -100.0f;
    for (int ox = -12; ox <= 12; ox++) {
        for (int oz = -12; oz <= 12; oz++) {
            cf_i64 tx = (cf_i64)cx + ox, tz = (cf_i64)cz + oz;
            if (tx * tx + tz * tz <= 4096) continue;
            if (!((float)cf_simplex2(o + 32, cf_ld_f64(o), cf_ld_f64(o + 8), (double)tx, (double)tz) < -0.9f)) continue;
            float size = cf_fmodf((float)(tx < 0 ? -tx : tx) * 3439.0f + (float)(tz < 0 ? -tz : tz) * 147.0f, 13.0f) + 9.0f;
            float xd = (float)(ex - 2 * ox), zd = (float)(ez - 2 * oz);
            float v = cf_clampf(100.0f - (float)cf_sqrt((double)(xd * xd + zd * zd)) * size, -100.0f, 80.0f);
            h = cf_jmaxf(h, v);
        }
    }
    return (h - 8.0f) / 128.0f;
}

/* squeeze: c = clamp(x,-1,1); c/2 - c*c*c/24. The clamp as two selects: equal to cf_clampf's
 * for every x (its bounds are neither 0 nor NaN), and branch-free in the row loops (rowops.c) */
CF_INLINE float cf_squeeze(float x)
{
    float c = x > 1.0f ? 1.0f : x;
    c = x < -1.0f ? -1.0f : c;
    return c / 2.0f - ((c * c) * c) / 24.0f;
}

/* floor/round/ceil/truncate of a float (kind 0..3) */
CF_INLINE float cf_round_to(int kind, float v)
{
    switch (kind) {
    case 0: return (float)cf_floor((double)v); /* exact: |v| >= 2^24 is already whole */
    case 2: return (float)-cf_floor(-(double)v);
    case 3: return v > 0.0f ? (float)cf_floor((double)v) : (float)-cf_floor(-(double)v);
    default: return (float)cf_jround_f(v);
    }
}
/* the multiple form: m == 0 -> x; literal 1 -> R(x); else R(x/m)*m */
CF_INLINE float cf_rounding(int kind, float a, float m, int m_is_literal_one)
{
    if (m_is_literal_one) return cf_round_to(kind, a);
    if (m == 0.0f) return a;
    return cf_round_to(kind, a / m) * m;
}

/* pow with a literal exponent (|e| 0.5, 1, 2, 3 special, §9), or Math.pow */
CF_INLINE float cf_pow_node(float b, float e, int e_literal)
{
    if (e_literal) {
        float ae = cf_fabsf(e), r;
        if (ae == 0.5f) r = (float)cf_sqrt((double)b);
        else if (ae == 1.0f) r = b;
        else if (ae == 2.0f) r = b * b;
        else if (ae == 3.0f) r = (b * b) * b;
        else return (float)cf_pow((double)b, (double)e);
        return e >= 0.0f ? r : 1.0f / r;
    }
    return (float)cf_pow((double)b, (double)e);
}

/* gradient (§10): c = the block coordinate of the axis; tiling 0 clamp, 1 repeat, 2 mirror */
CF_INLINE float cf_gradient(cf_i64 c, cf_i64 from, cf_i64 to, float fv, float tv, int tiling)
{
    cf_i64 range = to - from;
    float k = (tv - fv) / (float)range;
    cf_i64 rel;
    if (tiling == 1) {
        rel = cf_floormod(c - from, range);
    } else if (tiling == 2) {
        cf_i64 r = c - from, tl = cf_floordiv(r, range), l = r - tl * range;
        return (tl & 1) == 0 ? fv + (float)l * k : fv + (float)(range - l) * k;
    } else {
        cf_i64 lo = from < to ? from : to, hi = from < to ? to : from;
        rel = (c < lo ? lo : c > hi ? hi : c) - from;
    }
    return fv + (float)rel * k;
}

/* distance_to_point (§10): metric 0 euclidean, 1 squared, 2 manhattan, 3 chebyshev */
CF_INLINE float cf_distance(cf_i32 px, cf_i32 py, cf_i32 pz, cf_i32 x, cf_i32 y, cf_i32 z, int metric)
{
    float dx = (float)(cf_i32)((cf_u32)px - (cf_u32)x);
    float dy = (float)(cf_i32)((cf_u32)py - (cf_u32)y);
    float dz = (float)(cf_i32)((cf_u32)pz - (cf_u32)z);
    switch (metric) {
    case 0: return (float)cf_sqrt((double)((dx * dx + dy * dy) + dz * dz));
    case 1: return (dx * dx + dy * dy) + dz * dz;
    case 2: return (cf_fabsf(dx) + cf_fabsf(dy)) + cf_fabsf(dz);
    default: return cf_jmaxf(cf_jmaxf(cf_fabsf(dx), cf_fabsf(dy)), cf_fabsf(dz));
    }
}

/* interval_select: the first i with v < t[i], n when none (NaN too), by bisection: the parser keeps only
 * thresholds in order (the game's validation), where that is the game's linear scan's answer */
CF_INLINE int cf_interval_index(CF_CONSTP const float *t, int n, float v)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (v < t[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}
/* the spline segment index for coordinate c over np points (loc, der pairs in p):
 * first index with c < loc, minus 1 (-1 .. np-1) */
CF_INLINE int cf_spline_index(CF_CONSTP const float *p, int np, float c)
{
    int lo = 0, hi = np;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (c < p[2 * mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo - 1;
}
/* the value given the segment index i and the point values y1 = value[i or 0], y2 = value[i+1] */
CF_INLINE float cf_spline_value(CF_CONSTP const float *p, int np, float c, int i, float y1, float y2)
{
    if (i < 0) return cf_spline_extend(c, p[0], y1, p[1]);
    if (i == np - 1) return cf_spline_extend(c, p[2 * i], y1, p[2 * i + 1]);
    return cf_spline_segment(c, p[2 * i], p[2 * i + 2], y1, y2, p[2 * i + 1], p[2 * i + 3]);
}

#include "cf_nodes_ops.h" /* the element-wise operations of the float node kinds (CF_OPS) */

#endif /* CF_NODES_H */
