/* cf_biome.h - the biome lookup of vanilla's multi-noise biome source and the
 * BiomeManager zoom (../shared/BIOMES.md §3, §4, §8), shared by the CPU
 * reference (host/biome/) and the generated OpenCL programs.
 *
 * Input: six float climate values (or a quantized target) and a flat RTree
 * built by host/biome/tree.c; output: the leaf that vanilla's Climate.RTree
 * search returns (a palette index). No allocation; include after cf_math.h.
 *
 * The flat tree: CF_BN_STRIDE ints per node, node 0 the root. A node holds its
 * 7-D box (lo[7], hi[7]: temperature, humidity, continentalness, erosion, depth,
 * weirdness, offset) and either its children (contiguous, in build order: first
 * index, count) or, for a leaf (count 0), the entry's palette index.
 */
#ifndef CF_BIOME_H
#define CF_BIOME_H

#define CF_BN_STRIDE 16
#define CF_BN_LO 0
#define CF_BN_HI 7
#define CF_BN_FIRST 14 /* first child, or the palette index of a leaf */
#define CF_BN_COUNT 15 /* children; 0 for a leaf */
#define CF_B_MAXDEPTH 32 /* deeper trees are refused when built */

/* Climate.quantizeCoord: (long)(v * 10000.0f), the product in float, then
 * Java's float-to-long cast (truncation, NaN -> 0, saturating). */
CF_INLINE cf_i64 cf_b_quantize(float v)
{
    float p = v * 10000.0f;
    if (cf_isnan(p)) return 0;
    if (p >= 9223372036854775807.0f) return (cf_i64)0x7fffffffffffffffL;
    if (p <= -9223372036854775808.0f) return (cf_i64)(-0x7fffffffffffffffL - 1);
    return (cf_i64)p;
}

/* the distance of one axis: 0 inside [lo, hi] (inclusive), else to the nearer end; Java's
 * `t - max > 0 ? t - max : Math.max(min - t, 0)` in wrapping long arithmetic, written so
 * that compilers choose conditional moves (the search's time is mostly here) */
CF_INLINE cf_i64 cf_b_axis(cf_i64 t, cf_i64 lo, cf_i64 hi)
{
    cf_i64 a = (cf_i64)((cf_u64)t - (cf_u64)hi);
    cf_i64 b = (cf_i64)((cf_u64)lo - (cf_u64)t);
    cf_i64 r = b > 0 ? b : 0;
    return a > 0 ? a : r;
}

/* RTree node distance (= an entry's fitness for a leaf): the sum of the squared
 * axis distances, the offset axis against 0. Targets are quantized values of
 * floats (|t| <= 2^63 in theory: saturating casts of huge climate values); the
 * squares wrap like Java's long arithmetic (done in unsigned). */
CF_INLINE cf_i64 cf_b_dist(CF_GLOBAL const cf_i32 *tree, cf_i32 node, const cf_i64 *t)
{
    CF_GLOBAL const cf_i32 *n = tree + (long)node * CF_BN_STRIDE;
    cf_u64 d0 = (cf_u64)cf_b_axis(t[0], n[0], n[7]), d1 = (cf_u64)cf_b_axis(t[1], n[1], n[8]);
    cf_u64 d2 = (cf_u64)cf_b_axis(t[2], n[2], n[9]), d3 = (cf_u64)cf_b_axis(t[3], n[3], n[10]);
    cf_u64 d4 = (cf_u64)cf_b_axis(t[4], n[4], n[11]), d5 = (cf_u64)cf_b_axis(t[5], n[5], n[12]);
    cf_u64 d6 = (cf_u64)cf_b_axis(0, n[6], n[13]);
    return (cf_i64)(d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3 + d4 * d4 + d5 * d5 + d6 * d6);
}

/* Climate.RTree.search: depth-first in build order, children whose box is not
 * strictly nearer than the best so far skipped, a leaf taken only when strictly
 * nearer. warm: the leaf that starts as the best (vanilla's thread-local last
 * result), or -1 (cold). Returns the leaf's node index; *fit its fitness. */
CF_INLINE cf_i32 cf_b_search(CF_GLOBAL const cf_i32 *tree, const cf_i64 *t, cf_i32 warm, cf_i64 *fit)
{
    cf_i32 best = warm;
    cf_i64 bestd = warm >= 0 ? cf_b_dist(tree, warm, t) : (cf_i64)0x7fffffffffffffffL;
    if (tree[CF_BN_COUNT] == 0) { /* a list of one entry: the root is the leaf */
        *fit = cf_b_dist(tree, 0, t);
        return 0;
    }
    cf_i32 sn[CF_B_MAXDEPTH], si[CF_B_MAXDEPTH];
    int sp = 0;
    sn[0] = 0;
    si[0] = 0;
    while (sp >= 0) {
        CF_GLOBAL const cf_i32 *n = tree + (long)sn[sp] * CF_BN_STRIDE;
        cf_i32 i = si[sp];
        if (i >= n[CF_BN_COUNT]) {
            sp--;
            continue;
        }
        si[sp] = i + 1;
        cf_i32 c = n[CF_BN_FIRST] + i;
        cf_i64 d = cf_b_dist(tree, c, t);
        if (bestd <= d) continue;
        if (tree[(long)c * CF_BN_STRIDE + CF_BN_COUNT] == 0) {
            best = c;
            bestd = d;
        } else if (sp + 1 < CF_B_MAXDEPTH) {
            sp++;
            sn[sp] = c;
            si[sp] = 0;
        }
    }
    *fit = bestd;
    return best;
}

/* The cold search's answer (the first leaf of minimum fitness in depth-first order, what
 * cf_b_search gives with warm -1), found faster from a hint (a neighbour's answer: a leaf
 * of this tree, never a subtree, or -1) whose fitness bounds the search from the start:
 * until a leaf is taken, boxes are skipped only when strictly farther than the bound and a
 * leaf at the bound is taken; afterwards the search is cf_b_search's. */
CF_INLINE cf_i32 cf_b_search_hint(CF_GLOBAL const cf_i32 *tree, const cf_i64 *t, cf_i32 hint, cf_i64 *fit)
{
    if (hint < 0) return cf_b_search(tree, t, -1, fit);
    cf_i32 best = hint;
    cf_i64 bestd = cf_b_dist(tree, hint, t);
    int found = 0;
    if (tree[CF_BN_COUNT] == 0) {
        *fit = cf_b_dist(tree, 0, t);
        return 0;
    }
    cf_i32 sn[CF_B_MAXDEPTH], si[CF_B_MAXDEPTH];
    int sp = 0;
    sn[0] = 0;
    si[0] = 0;
    while (sp >= 0) {
        CF_GLOBAL const cf_i32 *n = tree + (long)sn[sp] * CF_BN_STRIDE;
        cf_i32 i = si[sp];
        if (i >= n[CF_BN_COUNT]) {
            sp--;
            continue;
        }
        si[sp] = i + 1;
        cf_i32 c = n[CF_BN_FIRST] + i;
        cf_i64 d = cf_b_dist(tree, c, t);
        if (found ? bestd <= d : bestd < d) continue;
        if (tree[(long)c * CF_BN_STRIDE + CF_BN_COUNT] == 0) {
            best = c;
            bestd = d;
            found = 1;
        } else if (sp + 1 < CF_B_MAXDEPTH) {
            sp++;
            sn[sp] = c;
            si[sp] = 0;
        }
    }
    *fit = bestd;
    return best;
}

/* How many leaves reach fitness `fit` (the minimum): > 1 is a tie, where the
 * answer depends on the warm start. */
CF_INLINE int cf_b_count_at(CF_GLOBAL const cf_i32 *tree, const cf_i64 *t, cf_i64 fit)
{
    if (tree[CF_BN_COUNT] == 0) return 1;
    cf_i32 sn[CF_B_MAXDEPTH], si[CF_B_MAXDEPTH];
    int sp = 0, k = 0;
    sn[0] = 0;
    si[0] = 0;
    while (sp >= 0) {
        CF_GLOBAL const cf_i32 *n = tree + (long)sn[sp] * CF_BN_STRIDE;
        cf_i32 i = si[sp];
        if (i >= n[CF_BN_COUNT]) {
            sp--;
            continue;
        }
        si[sp] = i + 1;
        cf_i32 c = n[CF_BN_FIRST] + i;
        if (cf_b_dist(tree, c, t) > fit) continue;
        if (tree[(long)c * CF_BN_STRIDE + CF_BN_COUNT] == 0) k++;
        else if (sp + 1 < CF_B_MAXDEPTH) {
            sp++;
            sn[sp] = c;
            si[sp] = 0;
        }
    }
    return k;
}

/* the palette index of a leaf */
CF_INLINE int cf_b_leaf_value(CF_GLOBAL const cf_i32 *tree, cf_i32 leaf)
{
    return tree[(long)leaf * CF_BN_STRIDE + CF_BN_FIRST];
}

/* ------------------------------------------------------------------ the End (§7) */
#define CF_BE_THE_END 0
#define CF_BE_HIGHLANDS 1
#define CF_BE_MIDLANDS 2
#define CF_BE_SMALL_ISLANDS 3
#define CF_BE_BARRENS 4
/* TheEndBiomeSource's choice from the erosion at the chunk's centre block */
CF_INLINE int cf_b_end(cf_i32 cx, cf_i32 cz, double e)
{
    if ((cf_i64)cx * cx + (cf_i64)cz * cz <= 4096) return CF_BE_THE_END;
    if (e > 0.25) return CF_BE_HIGHLANDS;
    if (e >= -0.0625) return CF_BE_MIDLANDS;
    if (e < -0.21875) return CF_BE_SMALL_ISLANDS;
    return CF_BE_BARRENS;
}

/* ------------------------------------------------------------------ BiomeManager (§8) */
/* LinearCongruentialGenerator.next: r * (r * 6364136223846793005 + 1442695040888963407) + k, wrapping */
CF_INLINE cf_i64 cf_bz_next(cf_i64 r, cf_i64 k)
{
    cf_u64 u = (cf_u64)r;
    return (cf_i64)(u * (u * 6364136223846793005UL + 1442695040888963407UL) + (cf_u64)k);
}
/* (floorMod(r >> 24, 1024) / 1024.0 - 0.5) * 0.9 */
CF_INLINE double cf_bz_fiddle(cf_i64 r)
{
    return ((double)(cf_i32)(((cf_u64)r >> 24) & 1023u) / 1024.0 - 0.5) * 0.9;
}
CF_INLINE double cf_bz_dist(cf_i64 seed, cf_i32 cx, cf_i32 cy, cf_i32 cz, double dx, double dy, double dz)
{
    cf_i64 r = cf_bz_next(seed, cx);
    r = cf_bz_next(r, cy);
    r = cf_bz_next(r, cz);
    r = cf_bz_next(r, cx);
    r = cf_bz_next(r, cy);
    r = cf_bz_next(r, cz);
    double gx = cf_bz_fiddle(r);
    r = cf_bz_next(r, seed);
    double gy = cf_bz_fiddle(r);
    r = cf_bz_next(r, seed);
    double gz = cf_bz_fiddle(r);
    double a = dz + gz, b = dy + gy, c = dx + gx;
    return a * a + b * b + c * c;
}
/* BiomeManager.getBiome: the quart whose stored biome block (x, y, z) shows;
 * zseed = the SHA-256-obfuscated world seed. q receives (qx, qy, qz). */
CF_INLINE void cf_bz_quart(cf_i64 zseed, cf_i32 x, cf_i32 y, cf_i32 z, cf_i32 *q)
{
    cf_i32 ax = (cf_i32)((cf_u32)x - 2u), ay = (cf_i32)((cf_u32)y - 2u), az = (cf_i32)((cf_u32)z - 2u);
    cf_i32 px = ax >> 2, py = ay >> 2, pz = az >> 2;
    double fx = (double)(ax & 3) / 4.0, fy = (double)(ay & 3) / 4.0, fz = (double)(az & 3) / 4.0;
    int bi = 0;
    double bd = 1.0 / 0.0;
    for (int i = 0; i < 8; i++) {
        int ox = (i & 4) != 0, oy = (i & 2) != 0, oz = (i & 1) != 0;
        double d = cf_bz_dist(zseed, (cf_i32)((cf_u32)px + (cf_u32)ox), (cf_i32)((cf_u32)py + (cf_u32)oy),
                              (cf_i32)((cf_u32)pz + (cf_u32)oz), ox ? fx - 1.0 : fx, oy ? fy - 1.0 : fy,
                              oz ? fz - 1.0 : fz);
        if (bd > d) {
            bi = i;
            bd = d;
        }
    }
    q[0] = (cf_i32)((cf_u32)px + (cf_u32)((bi & 4) != 0));
    q[1] = (cf_i32)((cf_u32)py + (cf_u32)((bi & 2) != 0));
    q[2] = (cf_i32)((cf_u32)pz + (cf_u32)((bi & 1) != 0));
}

#endif /* CF_BIOME_H */
