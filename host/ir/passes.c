/* passes.c - graph passes, in order (passes_run):
 *   fold_constants   a pure node whose inputs are all constants becomes a constant
 *                    (only where both evaluation paths agree: never 0 or NaN)
 *   merge_equal      structurally equal nodes become one (hash-consing)
 *   compact          drop nodes no output reaches; keep children before parents
 *   infer_axes       which block coordinates each node's value depends on
 *   infer_ranges     a conservative interval for each node's value
 * Input and output: prog->nodes. Allocates scratch arrays, freed before return.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/ranges.h"


/* ------------------------------------------------------------------ fold */
static void fold_constants(cf_program *p, cf_fold_eval eval)
{
    for (int i = 0; i < p->nnodes; i++) {
        cf_node *n = &p->nodes[i];
        if (n->nin == 0 || (node_flags[n->kind] & NF_SEEDED)) continue;
        if (n->kind == NK_GRADIENT || n->kind == NK_DISTANCE_TO_POINT) continue;
        /* never evaluated here: its probes are bounded only after the range check */
        if (n->kind == NK_FIND_TOP_SURFACE) continue;
        int all = 1;
        for (int k = 0; k < n->nin; k++)
            if (p->nodes[n->in[k]].kind != NK_CONSTANT) all = 0;
        if (!all) continue;
        float v = eval(p, i);
        if (v != v || v == 0.0f) continue; /* the paths may differ in NaN or the sign of zero */
        n->kind = NK_CONSTANT;
        n->flags = 0; /* a folded value is not a JSON literal (mul/div shortcuts) */
        n->f[0] = v;
        n->nin = 0;
        n->nfa = 0;
        n->noise = -1;
        memset(n->d, 0, sizeof n->d);
        memset(n->i, 0, sizeof n->i);
        memset(n->f + 1, 0, sizeof n->f - sizeof n->f[0]);
    }
}

/* ------------------------------------------------------------------ merge */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}
static uint64_t bytes_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = mix(h, c[i]);
    return h;
}
static uint64_t node_hash(const cf_node *n)
{
    uint64_t h = mix((uint64_t)n->kind, n->flags);
    h = mix(h, (uint64_t)(int64_t)n->noise);
    h = bytes_hash(h, n->d, sizeof n->d);
    h = bytes_hash(h, n->f, sizeof n->f);
    h = bytes_hash(h, n->i, sizeof n->i);
    h = mix(h, (uint64_t)n->nfa);
    if (n->nfa) h = bytes_hash(h, n->fa, sizeof(float) * (size_t)n->nfa);
    h = mix(h, (uint64_t)n->nda);
    if (n->nda) h = bytes_hash(h, n->da, sizeof(double) * (size_t)n->nda);
    h = mix(h, (uint64_t)n->nin);
    for (int k = 0; k < n->nin; k++) h = mix(h, (uint64_t)n->in[k]);
    return h;
}
static int node_equal(const cf_node *a, const cf_node *b)
{
    if (a->kind != b->kind || a->flags != b->flags || a->noise != b->noise || a->nin != b->nin || a->nfa != b->nfa)
        return 0;
    if (memcmp(a->d, b->d, sizeof a->d) || memcmp(a->f, b->f, sizeof a->f) || memcmp(a->i, b->i, sizeof a->i)) return 0;
    if (a->nfa && memcmp(a->fa, b->fa, sizeof(float) * (size_t)a->nfa)) return 0;
    if (a->nda != b->nda || (a->nda && memcmp(a->da, b->da, sizeof(double) * (size_t)a->nda))) return 0;
    for (int k = 0; k < a->nin; k++)
        if (a->in[k] != b->in[k]) return 0;
    return 1;
}

static int merge_equal(cf_program *p, cf_error *err)
{
    int n = p->nnodes;
    size_t cap = 16;
    while (cap < (size_t)n * 2) cap *= 2;
    int *table = malloc(sizeof(int) * cap), *canon = malloc(sizeof(int) * (size_t)(n + 1));
    if (!table || !canon) {
        free(table), free(canon);
        return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    }
    for (size_t i = 0; i < cap; i++) table[i] = -1;
    for (int i = 0; i < n; i++) {
        cf_node *nd = &p->nodes[i];
        for (int k = 0; k < nd->nin; k++) nd->in[k] = canon[nd->in[k]];
        size_t h = (size_t)node_hash(nd) & (cap - 1);
        canon[i] = i;
        while (table[h] >= 0) {
            if (node_equal(&p->nodes[table[h]], nd)) {
                canon[i] = table[h];
                break;
            }
            h = (h + 1) & (cap - 1);
        }
        if (canon[i] == i) table[h] = i;
    }
    for (int o = 0; o < p->noutputs; o++) p->outputs[o] = canon[p->outputs[o]];
    free(table);
    free(canon);
    return 0;
}

/* ------------------------------------------------------------------ compact */
static int compact(cf_program *p, cf_error *err)
{
    int n = p->nnodes;
    int *keep = calloc((size_t)n + 1, sizeof(int));
    if (!keep) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    for (int o = 0; o < p->noutputs; o++) keep[p->outputs[o]] = 1;
    for (int i = n - 1; i >= 0; i--)
        if (keep[i])
            for (int k = 0; k < p->nodes[i].nin; k++) keep[p->nodes[i].in[k]] = 1;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!keep[i]) continue;
        keep[i] = m + 1; /* new index + 1 */
        cf_node nd = p->nodes[i];
        for (int k = 0; k < nd.nin; k++) nd.in[k] = keep[nd.in[k]] - 1;
        p->nodes[m++] = nd;
    }
    for (int o = 0; o < p->noutputs; o++) p->outputs[o] = keep[p->outputs[o]] - 1;
    p->nnodes = m;
    free(keep);
    return 0;
}

/* ------------------------------------------------------------------ axes */
static void infer_axes(cf_program *p)
{
    for (int i = 0; i < p->nnodes; i++) {
        cf_node *n = &p->nodes[i];
        unsigned a = 0;
        for (int k = 0; k < n->nin; k++) a |= p->nodes[n->in[k]].axes;
        switch (n->kind) {
        case NK_GRADIENT: a = 1u << n->i[0]; break;
        case NK_DISTANCE_TO_POINT: case NK_SHIFT: case NK_OLD_BLENDED_NOISE: a = AX_X | AX_Y | AX_Z; break;
        case NK_SHIFT_A: case NK_SHIFT_B: case NK_END_OUTER_ISLANDS: a = AX_X | AX_Z; break;
        case NK_NOISE:
            if (n->d[0] != 0) a |= AX_X | AX_Z;
            if (n->d[1] != 0) a |= AX_Y;
            break;
        case NK_SLICE: a &= ~(1u << n->i[0]); break;
        case NK_FIND_TOP_SURFACE: a &= ~(unsigned)AX_Y; break;
        default: break;
        }
        n->axes = a;
    }
}

/* ------------------------------------------------------------------ ranges */
static double noise_bound(const cf_noisedef *d)
{
    /* |sum of layers| <= sum of |layer amplitudes| x the bound of one octave (< 1.04) */
    return noise_amplitude_sum(d) * 1.1 + 1e-6;
}

static void infer_ranges(cf_program *p)
{
    const double INF = INFINITY;
    for (int i = 0; i < p->nnodes; i++) {
        cf_node *n = &p->nodes[i];
        double lo = -INF, hi = INF;
#define R(k) p->nodes[n->in[k]]
        switch (n->kind) {
        case NK_CONSTANT: case NK_BLEND_ALPHA: case NK_BLEND_OFFSET: case NK_BEARDIFIER: lo = hi = n->f[0]; break;
        case NK_CACHE: case NK_INTERPOLATED: case NK_BLEND_DENSITY: case NK_SLICE: lo = R(0).lo, hi = R(0).hi; break;
        case NK_RANGE_CHOICE: lo = fmin(R(1).lo, R(2).lo), hi = fmax(R(1).hi, R(2).hi); break;
        case NK_INTERVAL_SELECT:
            lo = INF, hi = -INF;
            for (int k = 1; k < n->nin; k++) lo = fmin(lo, R(k).lo), hi = fmax(hi, R(k).hi);
            break;
        case NK_GRADIENT: lo = fmin(n->f[0], n->f[1]), hi = fmax(n->f[0], n->f[1]); break;
        case NK_DISTANCE_TO_POINT: {
            /* cf_distance: each difference is an int32 (it wraps), so |d| <= 2^31 on every axis;
             * euclidean <= sqrt(3) 2^31, squared <= 3 2^62, manhattan <= 3 2^31, chebyshev <= 2^31
             * (1.001: the float roundings of the sums and the square root) */
            static const double top[4] = {3.7195e9, 1.3836e19, 6.4425e9, 2.1475e9};
            lo = 0, hi = top[n->i[3] & 3] * 1.001;
            break;
        }
        case NK_NOISE: hi = noise_bound(&p->noises[n->noise]), lo = -hi; break;
        case NK_SHIFT_A: case NK_SHIFT_B: case NK_SHIFT: hi = 4 * noise_bound(&p->noises[n->noise]), lo = -hi; break;
        case NK_END_OUTER_ISLANDS: lo = -0.84375, hi = 0.5625; break;
        /* §8: the limit stacks' weights 2^(i-16) * 65535/65536 sum below 1 (an octave is
         * below 1.04, coordinates are finite: the scales are within [0.001, 1000]) and
         * the lerp's alpha is clamped into [0, 1]: |value| < 1.04; 2 leaves room */
        case NK_OLD_BLENDED_NOISE: lo = -2, hi = 2; break;
        case NK_FIND_TOP_SURFACE: lo = n->i[0], hi = fmax((double)n->i[0], ceil(R(1).hi)); break;
        case NK_SPLINE: {
            /* values and linear extensions: bounded when the coordinate is bounded */
            lo = INF, hi = -INF;
            for (int k = 1; k < n->nin; k++) lo = fmin(lo, R(k).lo), hi = fmax(hi, R(k).hi);
            int np = n->nfa / 2;
            double span = (R(0).hi - R(0).lo), maxd = 0;
            for (int k = 0; k < np; k++) maxd = fmax(maxd, fabs(n->fa[2 * k + 1]));
            double pad = maxd * (isfinite(span) ? span + fabs(R(0).lo) + fabs(R(0).hi) : INF);
            if (pad != pad) pad = INF;
            /* the cubic between points overshoots by at most (|a|+|b|)/4 */
            double dy = hi - lo, dx = 0;
            for (int k = 1; k < np; k++) dx = fmax(dx, n->fa[2 * k] - n->fa[2 * k - 2]);
            pad += (2 * maxd * dx + 2 * dy) / 4;
            lo -= pad, hi += pad;
            break;
        }
        default: {
            /* the element-wise ops (ir/ranges.h); a quotient past float's own range is unbounded */
            cf_rng in[3] = {{0, 0}, {0, 0}, {0, 0}}, r;
            for (int k = 0; k < n->nin && k < 3; k++) in[k] = rng_of(R(k).lo, R(k).hi);
            if (rng_op(n->kind, in, n->f, &r)) lo = r.lo, hi = r.hi;
            if ((n->kind == NK_DIV || n->kind == NK_RECIPROCAL) && !(lo >= -1e38 && hi <= 1e38)) lo = -INF, hi = INF;
            break;
        }
        }
#undef R
        if (lo != lo) lo = -INF;
        if (hi != hi) hi = INF;
        /* widen by float rounding */
        n->lo = lo - fabs(lo) * 1e-6 - 1e-30;
        n->hi = hi + fabs(hi) * 1e-6 + 1e-30;
        if (n->kind == NK_CONSTANT || (n->flags & NF_LITERAL)) n->lo = n->hi = n->f[0];
    }
}

int ir_finite_node(const cf_program *p, int id)
{
    const cf_node *n = &p->nodes[id];
    if (!(n->lo >= -1e37 && n->hi <= 1e37)) return 0; /* false for NaN bounds */
    switch (n->kind) {
    case NK_LOG: case NK_POW: return 0;
    case NK_DIV: return p->nodes[n->in[1]].lo > 0 || p->nodes[n->in[1]].hi < 0;
    case NK_RECIPROCAL: return p->nodes[n->in[0]].lo > 0 || p->nodes[n->in[0]].hi < 0;
    case NK_SQRT: return p->nodes[n->in[0]].lo >= 0;
    default: return 1;
    }
}

int ir_finite_below(const cf_program *p, int id, uint8_t *seen)
{
    if (seen[id]) return seen[id] == 1;
    const cf_node *n = &p->nodes[id];
    int ok = ir_finite_node(p, id);
    for (int k = 0; ok && k < n->nin; k++) ok = ir_finite_below(p, n->in[k], seen);
    seen[id] = ok ? 1 : 2;
    return ok;
}

/* ------------------------------------------------------------------ describe */
static void describe(cf_program *p)
{
    int count[NK_COUNT] = {0}, ax[8] = {0};
    for (int i = 0; i < p->nnodes; i++) count[p->nodes[i].kind]++, ax[p->nodes[i].axes & 7]++;
    size_t cap = 4096, len = 0;
    char *s = arena_alloc(&p->arena, cap);
    if (!s) return;
#define OUT(...) len += (size_t)snprintf(s + len, len < cap ? cap - len : 0, __VA_ARGS__)
    if (p->prec == PREC_F64 && p->dialect != DIALECT_MC121)
        OUT("settings %s: min_y %d, height %d, sea_level %d, double values at double positions (%s dialect)\n",
            p->settings_id, p->min_y, p->height, p->sea_level, p->dialect == DIALECT_SHARPNOISE         ? "sharpnoise"
            : p->dialect == DIALECT_IRIS_MASTER      ? "iris master"
            : p->dialect == DIALECT_IRIS_UNIFICATION ? "iris unification"
                                                     : "libnoise");
    else
        OUT("settings %s: min_y %d, height %d, sea_level %d, %s random\n", p->settings_id, p->min_y, p->height,
            p->sea_level, p->legacy_random ? "legacy" : "xoroshiro");
    if (p->dialect == DIALECT_MC121)
        OUT("dialect: Minecraft 1.18.2-1.21 (old format, double arithmetic), cells %dx%dx%d\n", p->cell_xz, p->cell_y, p->cell_xz);
    OUT("nodes: %zu parsed, %d after folding, merging and compaction; %d noises\n", p->parsed_nodes, p->nnodes,
        p->nnoises);
    OUT("by axes: constant %d, x/z column %d, y only %d, 3-D %d, other %d\n", ax[0], ax[AX_X | AX_Z] + ax[AX_X] + ax[AX_Z],
        ax[AX_Y], ax[7], ax[AX_X | AX_Y] + ax[AX_Y | AX_Z]);
    OUT("by kind:");
    for (int k = 0; k < NK_COUNT; k++)
        if (count[k]) OUT(" %s %d", node_name[k], count[k]);
    OUT("\n");
    for (int o = 0; o < p->noutputs; o++) {
        const cf_node *n = &p->nodes[p->outputs[o]];
        OUT("output %s: node %d (%s), axes %s%s%s, range [%g, %g]\n", p->output_names[o], p->outputs[o],
            node_name[n->kind], n->axes & AX_X ? "x" : "", n->axes & AX_Y ? "y" : "", n->axes & AX_Z ? "z" : "",
            n->lo, n->hi);
    }
#undef OUT
    if (len >= cap) s[cap - 1] = 0;
    p->describe = s;
}

/* find_top_surface probes from floor(upper_bound) down: an upper bound whose value
 * range is not bounded could probe forever */
static cf_status check_surfaces(const cf_program *p, cf_error *err)
{
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->kind != NK_FIND_TOP_SURFACE) continue;
        const cf_node *u = &p->nodes[n->in[1]];
        if (!(u->lo >= -CF_MAX_SURFACE_BOUND && u->hi <= CF_MAX_SURFACE_BOUND)) {
            char ptr[320];
            return err_set(err, CF_ERR_SCHEMA,
                           "%s#%s: upper_bound can reach [%g, %g], beyond +-%d: clamp it (the probes would not end)",
                           n->loc.file, ptr_text(n->loc.ptr, ptr, sizeof ptr), u->lo, u->hi, CF_MAX_SURFACE_BOUND);
        }
    }
    return CF_OK;
}

cf_status passes_run(cf_program *p, cf_fold_eval fold, cf_error *err)
{
    if (p->prec == PREC_F64) {
        /* double dialects: hash-consing and compaction; the fold, axis and range
         * rules are 26.3's float ones */
        if (merge_equal(p, err) < 0) return err->status;
        if (compact(p, err) < 0) return err->status;
        for (int i = 0; i < p->nnodes; i++) {
            p->nodes[i].axes = AX_X | AX_Y | AX_Z;
            p->nodes[i].lo = -INFINITY, p->nodes[i].hi = INFINITY;
        }
        describe(p);
        return CF_OK;
    }
    if (fold) fold_constants(p, fold);
    if (merge_equal(p, err) < 0) return err->status;
    if (compact(p, err) < 0) return err->status;
    infer_axes(p);
    infer_ranges(p);
    if (check_surfaces(p, err) != CF_OK) return err->status;
    describe(p);
    return CF_OK;
}
