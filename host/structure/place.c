/* place.c - where structures start: structure sets (sets.c) -> candidate chunks -> the set's
 * weighted choice -> each structure's check at its start position -> starts (cf_structure_start).
 *  - the game's legacy random (LegacyRandomSource: java.util.Random's 48-bit LCG) and
 *    WorldgenRandom's seedings (large feature seed, large feature with salt);
 *  - random_spread: one candidate per region of spacing x spacing chunks, the frequency
 *    reductions, exclusion zones (another set's candidate within chunk_count chunks);
 *  - concentric_rings: the ring positions and the biome search (findBiomeHorizontal at y 0,
 *    radius 112 blocks) that moves each one, searched only where the area needs it;
 *  - the climate spawn point (Climate.findSpawnPosition).
 * Facts learnt from the game's code as the public decompilations and cubiomes (finders.c) show
 * it (docs/structures.md); no code of theirs is copied. Allocates ring tables in s's arena. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_math.h"
#include "kernels/cf_biome.h"
#include "structure/structure.h"

/* ------------------------------------------------------------------ the legacy random */
typedef struct jrand {
    uint64_t s;
} jrand;
#define JR_MUL 0x5DEECE66DULL
#define JR_MASK ((1ULL << 48) - 1)

static void jr_seed(jrand *r, int64_t seed) { r->s = ((uint64_t)seed ^ JR_MUL) & JR_MASK; }
static int32_t jr_next(jrand *r, int bits)
{
    r->s = (r->s * JR_MUL + 0xBu) & JR_MASK;
    return (int32_t)(uint32_t)(r->s >> (48 - bits)); /* the top bits, as Java's (int) of a long */
}
static int32_t jr_int(jrand *r) { return jr_next(r, 32); }
/* nextInt(bound), bound > 0 */
static int32_t jr_int_n(jrand *r, int32_t n)
{
    if ((n & -n) == n) return (int32_t)(((int64_t)n * (int64_t)jr_next(r, 31)) >> 31);
    for (;;) {
        int32_t b = jr_next(r, 31), v = b % n;
        if ((int64_t)b - v + (n - 1) <= INT32_MAX) return v; /* Java: b - v + (n-1) does not overflow */
    }
}
static int64_t jr_long(jrand *r)
{
    int64_t hi = jr_next(r, 32);
    int64_t lo = jr_next(r, 32);
    return (int64_t)((uint64_t)hi << 32) + lo;
}
static float jr_float(jrand *r) { return (float)jr_next(r, 24) * 0x1.0p-24f; }
static double jr_double(jrand *r)
{
    int64_t a = jr_next(r, 26), b = jr_next(r, 27);
    return (double)((a << 27) + b) * 0x1.0p-53;
}
/* WorldgenRandom.setLargeFeatureSeed */
static void jr_large_feature(jrand *r, int64_t seed, int32_t x, int32_t z)
{
    jr_seed(r, seed);
    uint64_t a = (uint64_t)jr_long(r), b = (uint64_t)jr_long(r);
    jr_seed(r, (int64_t)(((uint64_t)(int64_t)x * a) ^ ((uint64_t)(int64_t)z * b) ^ (uint64_t)seed));
}
/* WorldgenRandom.setLargeFeatureWithSalt */
static void jr_large_salt(jrand *r, int64_t seed, int32_t x, int32_t z, int32_t salt)
{
    uint64_t v = (uint64_t)(int64_t)x * 341873128712ULL + (uint64_t)(int64_t)z * 132897987541ULL + (uint64_t)seed + (uint64_t)(int64_t)salt;
    jr_seed(r, (int64_t)v);
}

#define JAVA_PI 3.141592653589793 /* Math.PI */

static int32_t floor_div(int32_t a, int32_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/* ------------------------------------------------------------------ random_spread */
static void candidate(const cf_structures *s, const st_set *t, int32_t rx, int32_t rz, int32_t out[2])
{
    jrand r;
    jr_large_salt(&r, s->seed, rx, rz, t->salt);
    int32_t k = t->spacing - t->separation, o[2];
    for (int i = 0; i < 2; i++)
        o[i] = t->spread == SPREAD_TRIANGULAR ? (jr_int_n(&r, k) + jr_int_n(&r, k)) / 2 : jr_int_n(&r, k);
    out[0] = (int32_t)((int64_t)rx * t->spacing + o[0]);
    out[1] = (int32_t)((int64_t)rz * t->spacing + o[1]);
}

void structures_candidate(const cf_structures *s, int i, int32_t cx, int32_t cz, int32_t out[2])
{
    const st_set *t = &s->sets[i];
    candidate(s, t, floor_div(cx, t->spacing), floor_div(cz, t->spacing), out);
}

/* the frequency reduction of t at chunk (x, z): 1 keeps the candidate (one table, FR_*) */
static int reduce_default(const cf_structures *s, const st_set *t, int32_t x, int32_t z)
{
    jrand r;
    jr_large_salt(&r, s->seed, t->salt, x, z); /* the game passes (salt, x, z) where (x, z, salt) goes */
    return jr_float(&r) < t->frequency;
}
static int reduce_legacy_1(const cf_structures *s, const st_set *t, int32_t x, int32_t z)
{
    jrand r;
    int32_t i = x >> 4, j = z >> 4;
    jr_seed(&r, (int64_t)(i ^ (int32_t)((uint32_t)j << 4)) ^ s->seed);
    jr_int(&r);
    return jr_int_n(&r, (int32_t)(1.0f / t->frequency)) == 0;
}
static int reduce_legacy_2(const cf_structures *s, const st_set *t, int32_t x, int32_t z)
{
    jrand r;
    jr_large_salt(&r, s->seed, x, z, 10387320);
    return jr_float(&r) < t->frequency;
}
static int reduce_legacy_3(const cf_structures *s, const st_set *t, int32_t x, int32_t z)
{
    jrand r;
    jr_large_feature(&r, s->seed, x, z);
    return jr_double(&r) < (double)t->frequency;
}
static int (*const reducers[FR_KINDS])(const cf_structures *, const st_set *, int32_t, int32_t) = {
    [FR_DEFAULT] = reduce_default,
    [FR_LEGACY_TYPE_1] = reduce_legacy_1,
    [FR_LEGACY_TYPE_2] = reduce_legacy_2,
    [FR_LEGACY_TYPE_3] = reduce_legacy_3,
};

static int ring_chunk(cf_structures *s, st_set *t, int32_t x, int32_t z, cf_error *err);

/* StructurePlacement.isStructureChunk: the placement's chunk, its frequency, its exclusion zone;
 * 1, 0, or -1 on error (a ring search) */
static int structure_chunk(cf_structures *s, int i, int32_t x, int32_t z, int depth, cf_error *err)
{
    st_set *t = &s->sets[i];
    if (t->kind == SP_RANDOM_SPREAD) {
        int32_t c[2];
        candidate(s, t, floor_div(x, t->spacing), floor_div(z, t->spacing), c);
        if (c[0] != x || c[1] != z) return 0;
    } else {
        int got = ring_chunk(s, t, x, z, err);
        if (got <= 0) return got;
    }
    if (t->frequency < 1.0f && !reducers[t->reduce](s, t, x, z)) return 0;
    if (t->excl_set >= 0) {
        if (depth > 8) return err_set(err, CF_ERR_SCHEMA, "%s: exclusion zones nested deeper than 8 sets", t->file), -1;
        for (int32_t a = x - t->excl_chunks; a <= x + t->excl_chunks; a++)
            for (int32_t b = z - t->excl_chunks; b <= z + t->excl_chunks; b++) {
                int got = structure_chunk(s, t->excl_set, a, b, depth + 1, err);
                if (got) return got < 0 ? -1 : 0;
            }
    }
    return 1;
}

/* ------------------------------------------------------------------ concentric_rings */
/* The ring positions (ChunkGeneratorStructureState.generateRingPositions): one legacy random
 * seeded with the world seed draws an angle, then per position a distance; 1.19.3+ fork a random
 * for each position's biome search (random.fork(): seeded by nextLong), 1.18-1.19.2 search with
 * the ring random itself, so every search must run, in order, before the next position is known.
 * t->rs and the fields beside it are the generator's state before position t->next. */
static int ring_search(cf_structures *s, st_set *t, int32_t cx, int32_t cz, jrand *r, int32_t out[2], cf_error *err);

static int ring_next(cf_structures *s, st_set *t, cf_error *err)
{
    int32_t i = t->next;
    jrand r = {t->rs};
    double dist = (double)(4 * t->distance + t->distance * t->circle * 6) + (jr_double(&r) - 0.5) * (double)t->distance * 2.5;
    t->approx[2 * i] = (int32_t)floor(cos(t->angle) * dist + 0.5); /* Math.round */
    t->approx[2 * i + 1] = (int32_t)floor(sin(t->angle) * dist + 0.5);
    if (s->legacy_rings) {
        if (ring_search(s, t, t->approx[2 * i], t->approx[2 * i + 1], &r, &t->ring[2 * i], err) < 0) return -1;
        t->done[i] = 1;
    } else {
        t->fork[i] = jr_long(&r);
    }
    t->angle += JAVA_PI * 2.0 / (double)t->spread_now;
    if (++t->in_circle == t->spread_now) {
        t->circle++;
        t->in_circle = 0;
        t->spread_now += 2 * t->spread_now / (t->circle + 1);
        if (t->spread_now > t->count - i) t->spread_now = t->count - i;
        t->angle += jr_double(&r) * JAVA_PI * 2.0;
    }
    t->rs = r.s;
    t->next++;
    return 0;
}

/* the tables and the first draw; 1.19.3+: every approximate position and its fork (no search) */
static int rings_init(cf_structures *s, st_set *t, cf_error *err)
{
    if (t->approx) return 0;
    size_t n = (size_t)t->count;
    if (!(t->approx = arena_alloc(&s->arena, sizeof *t->approx * 2 * n)) || !(t->ring = arena_alloc(&s->arena, sizeof *t->ring * 2 * n)) ||
        !(t->fork = arena_alloc(&s->arena, sizeof *t->fork * n)) || !(t->done = arena_alloc(&s->arena, n)))
        return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    jrand r;
    jr_seed(&r, s->seed);
    t->angle = jr_double(&r) * JAVA_PI * 2.0;
    t->rs = r.s, t->next = 0, t->in_circle = 0, t->circle = 0, t->spread_now = t->ring_spread;
    if (!s->legacy_rings)
        while (t->next < t->count)
            if (ring_next(s, t, err) < 0) return -1;
    return 0;
}

/* BiomeSource.findBiomeHorizontal(x, 0, z, 112, 1, preferred, random, false): every quart of the
 * square of radius 28 quarts at quart y 0, rows of z, then x; a reservoir pick among matches */
static int ring_search(cf_structures *s, st_set *t, int32_t cx, int32_t cz, jrand *r, int32_t out[2], cf_error *err)
{
    enum { R = 28, W = 2 * R + 1 };
    int32_t bx = (int32_t)((uint32_t)cx * 16u + 8u), bz = (int32_t)((uint32_t)cz * 16u + 8u);
    int32_t qx = bx >> 2, qz = bz >> 2;
    uint8_t grid[W * W];
    int32_t q[3 * W * W];
    for (int j = 0; j < W; j++)
        for (int i = 0; i < W; i++) {
            int32_t *e = q + 3 * (j * W + i);
            e[0] = qx - R + i, e[1] = 0, e[2] = qz - R + j;
        }
    /* one thread's lookups in the scan's order: the warm start decides ties as the game's does
     * (cold at the scan's first quart: the game's thread carries whatever it did before) */
    if (biome_quarts_warm(s->b, (size_t)W * W, q, grid, err) != CF_OK) return -1;
    int found = 0;
    out[0] = cx, out[1] = cz;
    for (int j = 0; j < W; j++)
        for (int i = 0; i < W; i++) {
            if (!t->preferred[grid[j * W + i]]) continue;
            if (found == 0 || jr_int_n(r, found + 1) == 0) out[0] = ((qx - R + i) * 4) >> 4, out[1] = ((qz - R + j) * 4) >> 4;
            found++;
        }
    return 0;
}

/* ring position i, searched (and, 1.18-1.19.2, everything before it) on first need */
static int ring_at(cf_structures *s, st_set *t, int32_t i, cf_error *err)
{
    if (t->done[i]) return 0;
    if (s->legacy_rings) {
        while (t->next <= i)
            if (ring_next(s, t, err) < 0) return -1;
        return 0;
    }
    jrand r;
    jr_seed(&r, t->fork[i]);
    if (ring_search(s, t, t->approx[2 * i], t->approx[2 * i + 1], &r, &t->ring[2 * i], err) < 0) return -1;
    t->done[i] = 1;
    return 0;
}

/* the least chunk distance from 0, 0 of a ring position of circle c: the distance drawn is at least
 * (4 + 6c - 1.25) * distance chunks; Math.round moves each axis at most 0.5 and the search at most 7
 * chunks (quarts +-28 of the centre's quart: blocks min - 104 .. min + 120), 7.5 * sqrt 2 < 11 */
static double ring_circle_min(const st_set *t, int32_t circle) { return (4.0 + 6.0 * circle - 1.25) * t->distance - 11.0; }

/* the ring positions' circles in order (ChunkGeneratorStructureState's spread growth): call with
 * *circle = *in_circle = 0, *spread = the set's spread before position 0; steps past position i */
static void ring_circle_step(const st_set *t, int32_t i, int32_t *circle, int32_t *in_circle, int32_t *spread)
{
    if (++*in_circle == *spread) {
        ++*circle;
        *in_circle = 0;
        *spread += 2 * *spread / (*circle + 1);
        if (*spread > t->count - i) *spread = t->count - i;
    }
}

/* the last ring position that can land within chunk distance `reach` of 0, 0 */
static int32_t ring_last_within(const st_set *t, double reach)
{
    int32_t circle = 0, in_circle = 0, spread = t->ring_spread, last = -1;
    for (int32_t i = 0; i < t->count; i++) {
        if (ring_circle_min(t, circle) > reach) break;
        last = i;
        ring_circle_step(t, i, &circle, &in_circle, &spread);
    }
    return last;
}

/* 1 when chunk (x, z) is one of t's ring positions */
static int ring_chunk(cf_structures *s, st_set *t, int32_t x, int32_t z, cf_error *err)
{
    if (rings_init(s, t, err) < 0) return -1;
    int32_t last = ring_last_within(t, hypot((double)x, (double)z));
    for (int32_t i = 0; i <= last; i++) {
        if (ring_at(s, t, i, err) < 0) return -1;
        if (t->ring[2 * i] == x && t->ring[2 * i + 1] == z) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the terrain's columns */
static size_t col_slot(const cf_structures *s, int32_t x, int32_t z)
{
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)z * 0x85EBCA77u;
    h ^= h >> 15;
    size_t k = h & (s->cols_cap - 1);
    while (s->cols[k].used && (s->cols[k].x != x || s->cols[k].z != z)) k = (k + 1) & (s->cols_cap - 1);
    return k;
}

/* the surface of block column (x, z): asked before (cols_ask) or now; 0, or -1 with err */
static int surface_at(cf_structures *s, int32_t x, int32_t z, int32_t *y, cf_error *err)
{
    if (s->cols) {
        size_t k = col_slot(s, x, z);
        if (s->cols[k].used) return *y = s->cols[k].y, 0;
    }
    int32_t xz[2] = {x, z};
    return s->surface(s->surface_ctx, 1, xz, y, err);
}

/* the surfaces of n columns (x, z pairs) in one call of the terrain, kept for surface_at */
static int cols_ask(cf_structures *s, size_t n, const int32_t *xz, cf_error *err)
{
    if (n == 0) return 0;
    size_t cap = s->cols_cap ? s->cols_cap : 64;
    while (cap < 2 * (s->ncols + n)) cap *= 2;
    if (cap != s->cols_cap) { /* grow: every kept column again */
        struct st_col *g = calloc(cap, sizeof *g), *old = s->cols;
        if (!g) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
        size_t oc = s->cols_cap;
        s->cols = g, s->cols_cap = cap;
        for (size_t k = 0; k < oc; k++)
            if (old[k].used) s->cols[col_slot(s, old[k].x, old[k].z)] = old[k];
        free(old);
    }
    int32_t *y = malloc(sizeof *y * n);
    if (!y) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    if (s->surface(s->surface_ctx, n, xz, y, err) < 0) return free(y), -1;
    for (size_t i = 0; i < n; i++) {
        size_t k = col_slot(s, xz[2 * i], xz[2 * i + 1]);
        if (!s->cols[k].used) s->ncols++;
        s->cols[k] = (struct st_col){xz[2 * i], xz[2 * i + 1], y[i], 1};
    }
    free(y);
    return 0;
}

static void cols_drop(cf_structures *s)
{
    free(s->cols);
    s->cols = NULL, s->ncols = 0, s->cols_cap = 0;
}

/* ------------------------------------------------------------------ the checks */
/* the structure k's check at chunk (cx, cz): 1 passes (st filled), 0 fails, -1 error */
static int check(cf_structures *s, const st_set *t, int k, int32_t cx, int32_t cz, cf_structure_start *st, cf_error *err)
{
    const st_structure *u = &s->st[k];
    *st = (cf_structure_start){.structure = u->id, .set = t->id, .chunk_x = cx, .chunk_z = cz};
    st->x = (int32_t)((uint32_t)cx * 16u) + t->locate[0];
    st->z = (int32_t)((uint32_t)cz * 16u) + t->locate[2];
    if (u->none) return 0;
    if (u->type->start == START_FIXED_Y) {
        int32_t q[3] = {(int32_t)((uint32_t)cx * 16u) >> 2, u->type->y >> 2, (int32_t)((uint32_t)cz * 16u) >> 2};
        uint8_t bio;
        if (biome_quarts(s->b, 1, q, &bio, err) != CF_OK) return -1;
        st->x = (int32_t)((uint32_t)cx * 16u), st->z = (int32_t)((uint32_t)cz * 16u), st->y = u->type->y, st->has_y = 1;
        st->checked = "biome";
        return u->in[bio];
    }
    if ((u->type->start == START_CENTRE || u->type->start == START_SINGLE_PIECE) && s->surface) {
        /* Structure.onTopOfChunkCenter: the chunk's middle block (min + 8) on the first occupied
         * y of WORLD_SURFACE_WG; its quart's biome is the check (the biome first here: the game
         * makes both checks, and the biome's column is one of the five) */
        int32_t x = (int32_t)((uint32_t)cx * 16u) + 8, z = (int32_t)((uint32_t)cz * 16u) + 8, y;
        if (surface_at(s, x, z, &y, err) < 0) return -1;
        int32_t q[3] = {x >> 2, y >> 2, z >> 2};
        uint8_t bio;
        if (biome_quarts(s->b, 1, q, &bio, err) != CF_OK) return -1;
        st->x = x, st->y = y, st->z = z, st->has_y = 1;
        st->checked = "biome";
        if (!u->in[bio]) return 0;
        if (u->type->start == START_SINGLE_PIECE) {
            /* SinglePieceStructure: no start where the lowest of the four corners (min x, min z) + (0 or
             * width, 0 or depth) is below sea level */
            int32_t x0 = x - 8, z0 = z - 8;
            for (int c = 0; c < 4; c++) {
                int32_t h;
                if (surface_at(s, x0 + (c & 1 ? u->type->y >> 6 : 0), z0 + (c & 2 ? u->type->y & 63 : 0), &h, err) < 0) return -1;
                if (h < s->sea_level) return 0;
            }
            st->checked = "terrain+biome";
        }
        return 1;
    }
    if (u->all) {
        st->checked = "biome"; /* every biome of the dimension is in its list: passes anywhere */
        return 1;
    }
    st->checked = "none";
    st->unverified = u->type->unverified;
    return 1;
}

/* the set's choice at a candidate chunk (ChunkGenerator.createStructures): one structure is
 * tried; a set of several draws by weight (a large feature random of the chunk), and a structure
 * whose check fails is removed and the draw repeated. 1 and *st, 0 none, -1 error. */
static int choose(cf_structures *s, const st_set *t, int32_t cx, int32_t cz, cf_structure_start *st, cf_error *err)
{
    if (t->n == 1) return check(s, t, t->st[0], cx, cz, st, err);
    int idx[64], w[64], n = t->n, total = 0;
    for (int i = 0; i < n; i++) idx[i] = t->st[i], w[i] = t->weight[i], total += w[i];
    jrand r;
    jr_large_feature(&r, s->seed, cx, cz);
    while (n > 0) {
        int32_t j = jr_int_n(&r, total);
        int k = 0;
        while (k < n - 1 && (j -= w[k]) >= 0) k++;
        int got = check(s, t, idx[k], cx, cz, st, err);
        if (got) return got;
        total -= w[k];
        memmove(idx + k, idx + k + 1, sizeof *idx * (size_t)(n - k - 1));
        memmove(w + k, w + k + 1, sizeof *w * (size_t)(n - k - 1));
        n--;
    }
    return 0;
}

static int wanted(const char *id, const char *const *only, int nonly)
{
    if (nonly == 0) return 1;
    for (int i = 0; i < nonly; i++)
        if (strcmp(only[i], id) == 0) return 1;
    return 0;
}

/* only: ids and #tags -> *ids (malloc'd; strings in a), *nids; CF_OK or an error */
static cf_status resolve_only(cf_structures *s, cf_arena *a, const char *const *only, int nonly, const char ***ids_out, int *nids_out,
                              cf_error *err)
{
    const char **ids = NULL;
    int nids = 0;
    cf_status rc = CF_OK;
    if (nonly > 0) {
        int cap = 0;
        for (int i = 0; i < nonly; i++) {
            const char **add = NULL, *one[1];
            int n = 1;
            char ns[128], path[384];
            cf_loc at = {"--structure", NULL};
            if (only[i][0] == '#') {
                if ((n = tag_structures(a, s->pk, only[i] + 1, at, &add, err)) < 0) {
                    rc = err->status;
                    goto out;
                }
            } else {
                if (res_split(only[i], ns, path) < 0) {
                    rc = err_set(err, CF_ERR_ARG, "structure \"%s\": not a structure id (namespace:path) or #tag", only[i]);
                    goto out;
                }
                one[0] = arena_printf(a, "%s:%s", ns, path);
                add = one;
            }
            if (nids + n > cap) {
                cap = (nids + n) * 2;
                const char **g = realloc(ids, sizeof *ids * (size_t)cap);
                if (!g) {
                    rc = err_set(err, CF_ERR_NOMEM, "out of memory");
                    goto out;
                }
                ids = g;
            }
            for (int k = 0; k < n; k++) ids[nids++] = add[k];
        }
    }
out:
    if (rc != CF_OK) free(ids), ids = NULL, nids = 0;
    *ids_out = ids, *nids_out = nids;
    return rc;
}

/* 1 when set t holds a wanted structure */
static int set_wanted(const cf_structures *s, const st_set *t, const char *const *ids, int nonly, int nids)
{
    if (!t->active || (nonly > 0 && nids == 0)) return 0;
    for (int k = 0; k < t->n; k++)
        if (wanted(s->st[t->st[k]].id, ids, nonly > 0 ? nids : 0)) return 1;
    return 0;
}

/* StructurePlacement.isStructureChunk's frequency and exclusion zone at candidate chunk (x, z) of
 * set i: 1 placed, 0 not, -1 error */
static int placed(cf_structures *s, int i, int32_t x, int32_t z, cf_error *err)
{
    st_set *t = &s->sets[i];
    if (t->frequency < 1.0f && !reducers[t->reduce](s, t, x, z)) return 0;
    if (t->excl_set >= 0)
        for (int32_t a = x - t->excl_chunks; a <= x + t->excl_chunks; a++)
            for (int32_t b = z - t->excl_chunks; b <= z + t->excl_chunks; b++) {
                int e = structure_chunk(s, t->excl_set, a, b, 1, err);
                if (e) return e < 0 ? -1 : 0;
            }
    return 1;
}

/* the start at candidate chunk (x, z) of set i: placed, then the set's choice; 1 and *st, 0 none,
 * -1 error */
static int start_at(cf_structures *s, int i, int32_t x, int32_t z, cf_structure_start *st, cf_error *err)
{
    int got = placed(s, i, x, z, err);
    return got <= 0 ? got : choose(s, &s->sets[i], x, z, st, err);
}

/* which of its structures' checks read the terrain: 1 the centre column, 2 also corners */
static int set_terrain(const cf_structures *s, const st_set *t)
{
    int need = 0;
    for (int k = 0; k < t->n; k++) {
        const st_structure *u = &s->st[t->st[k]];
        if (u->none) continue;
        if (u->type->start == START_SINGLE_PIECE) need = 2;
        else if (u->type->start == START_CENTRE && !need) need = 1;
    }
    return need;
}

/* a placed candidate of structures_find */
typedef struct st_cand {
    int set;
    int32_t x, z;
} st_cand;

/* the terrain the checks of the candidates c[0..n) read, asked in two calls: every centre column,
 * then the corners of single-piece structures whose biome passes at the centre (the checks then
 * find them all in s->cols); 0, or -1 with err */
static int ask_terrain(cf_structures *s, const st_cand *c, size_t n, cf_error *err)
{
    size_t n1 = n ? n : 1;
    int32_t *xz = malloc(sizeof *xz * 2 * n1), *q = malloc(sizeof *q * 3 * n1), *corner = NULL;
    uint8_t *bio = calloc(n1, 1);
    size_t m = 0, nq = 0, nc = 0;
    int rc = -1;
    if (!xz || !q || !bio) goto nomem;
    for (size_t i = 0; i < n; i++)
        if (set_terrain(s, &s->sets[c[i].set])) {
            xz[2 * m] = (int32_t)((uint32_t)c[i].x * 16u) + 8, xz[2 * m + 1] = (int32_t)((uint32_t)c[i].z * 16u) + 8;
            m++;
        }
    if (cols_ask(s, m, xz, err) < 0) goto out;
    for (size_t i = 0; i < n; i++) {
        if (set_terrain(s, &s->sets[c[i].set]) != 2) continue;
        int32_t x = (int32_t)((uint32_t)c[i].x * 16u) + 8, z = (int32_t)((uint32_t)c[i].z * 16u) + 8, y;
        if (surface_at(s, x, z, &y, err) < 0) goto out;
        q[3 * nq] = x >> 2, q[3 * nq + 1] = y >> 2, q[3 * nq + 2] = z >> 2, nq++;
    }
    if (nq && biome_quarts(s->b, nq, q, bio, err) != CF_OK) goto out;
    size_t most = 0; /* four corners for each structure of each candidate's set, at most */
    for (size_t i = 0; i < n; i++) most += set_terrain(s, &s->sets[c[i].set]) == 2 ? 4 * (size_t)s->sets[c[i].set].n : 0;
    if (!(corner = malloc(sizeof *corner * 2 * (most ? most : 1)))) goto nomem;
    nq = 0;
    for (size_t i = 0; i < n; i++) {
        const st_set *t = &s->sets[c[i].set];
        if (set_terrain(s, t) != 2) continue;
        uint8_t b = bio[nq++];
        int32_t x0 = (int32_t)((uint32_t)c[i].x * 16u), z0 = (int32_t)((uint32_t)c[i].z * 16u);
        for (int k = 0; k < t->n; k++) {
            const st_structure *u = &s->st[t->st[k]];
            if (u->none || u->type->start != START_SINGLE_PIECE || !u->in[b]) continue;
            for (int e = 0; e < 4; e++)
                corner[2 * nc] = x0 + (e & 1 ? u->type->y >> 6 : 0), corner[2 * nc + 1] = z0 + (e & 2 ? u->type->y & 63 : 0), nc++;
        }
    }
    rc = cols_ask(s, nc, corner, err);
    goto out;
nomem:
    err_set(err, CF_ERR_NOMEM, "out of memory");
out:
    free(xz), free(q), free(bio), free(corner);
    return rc;
}

cf_status structures_find(cf_structures *s, int32_t x0, int32_t z0, int32_t x1, int32_t z1, const char *const *only, int nonly,
                          int (*emit)(void *ctx, const cf_structure_start *st), void *ctx, cf_error *err)
{
    if (x1 < x0 || z1 < z0) return err_set(err, CF_ERR_ARG, "area %d,%d:%d,%d: the second corner is less than the first", x0, z0, x1, z1);
    cf_arena a = {0};
    const char **ids = NULL;
    int nids = 0;
    st_cand *all = NULL; /* the placed candidates of every wanted set, in the order of the output */
    size_t nall = 0, call = 0;
    int32_t *cand = NULL;
    cf_status rc = resolve_only(s, &a, only, nonly, &ids, &nids, err);
    if (rc != CF_OK) goto out;
    int32_t cx0 = x0 >> 4, cz0 = z0 >> 4, cx1 = x1 >> 4, cz1 = z1 >> 4;
    for (int i = 0; i < s->nsets; i++) {
        st_set *t = &s->sets[i];
        if (!set_wanted(s, t, ids, nonly, nids)) continue;
        /* the chunks to try: random_spread's one per region, the ring positions */
        size_t nc = 0, cc = 0;
        if (t->kind == SP_RANDOM_SPREAD) {
            for (int32_t rz = floor_div(cz0, t->spacing); rz <= floor_div(cz1, t->spacing); rz++)
                for (int32_t rx = floor_div(cx0, t->spacing); rx <= floor_div(cx1, t->spacing); rx++) {
                    int32_t c[2];
                    candidate(s, t, rx, rz, c);
                    if (c[0] < cx0 || c[0] > cx1 || c[1] < cz0 || c[1] > cz1) continue;
                    if (nc == cc) {
                        cc = cc ? cc * 2 : 64;
                        int32_t *g = realloc(cand, sizeof *cand * 2 * cc);
                        if (!g) {
                            rc = err_set(err, CF_ERR_NOMEM, "out of memory");
                            goto out;
                        }
                        cand = g;
                    }
                    cand[2 * nc] = c[0], cand[2 * nc + 1] = c[1], nc++;
                }
        } else {
            if (rings_init(s, t, err) < 0 || !(cand = malloc(sizeof *cand * 2 * (size_t)t->count))) {
                rc = err_failed(err) ? err->status : err_set(err, CF_ERR_NOMEM, "out of memory");
                goto out;
            }
            double far = 0; /* the area's farthest chunk from 0, 0 */
            for (int c = 0; c < 4; c++) far = fmax(far, hypot((double)(c & 1 ? cx1 : cx0), (double)(c & 2 ? cz1 : cz0)));
            int32_t last = ring_last_within(t, far);
            for (int32_t k = 0; k <= last; k++) {
                if (!s->legacy_rings && (t->approx[2 * k] < cx0 - 8 || t->approx[2 * k] > cx1 + 8 || t->approx[2 * k + 1] < cz0 - 8 ||
                                         t->approx[2 * k + 1] > cz1 + 8))
                    continue;
                if (ring_at(s, t, k, err) < 0) {
                    rc = err->status;
                    goto out;
                }
                int32_t x = t->ring[2 * k], z = t->ring[2 * k + 1];
                if (x < cx0 || x > cx1 || z < cz0 || z > cz1) continue;
                int dup = 0; /* two searches may land on one chunk: the game has one start there */
                for (size_t m = 0; m < nc; m++) dup |= cand[2 * m] == x && cand[2 * m + 1] == z;
                if (!dup) cand[2 * nc] = x, cand[2 * nc + 1] = z, nc++;
            }
        }
        for (size_t c = 0; c < nc; c++) {
            int got = placed(s, i, cand[2 * c], cand[2 * c + 1], err);
            if (got < 0) {
                rc = err->status;
                goto out;
            }
            if (!got) continue;
            if (nall == call) {
                call = call ? 2 * call : 256;
                st_cand *g = realloc(all, sizeof *g * call);
                if (!g) {
                    rc = err_set(err, CF_ERR_NOMEM, "out of memory");
                    goto out;
                }
                all = g;
            }
            all[nall++] = (st_cand){i, cand[2 * c], cand[2 * c + 1]};
        }
        free(cand), cand = NULL;
    }
    if (s->surface && ask_terrain(s, all, nall, err) < 0) {
        rc = err->status ? err->status : CF_ERR_NOMEM;
        goto out;
    }
    for (size_t c = 0; c < nall; c++) {
        cf_structure_start st;
        int got = choose(s, &s->sets[all[c].set], all[c].x, all[c].z, &st, err);
        if (got < 0) {
            rc = err->status;
            goto out;
        }
        if (got > 0 && wanted(st.structure, ids, nonly > 0 ? nids : 0) && emit(ctx, &st)) goto out;
    }
out:
    cols_drop(s);
    free(cand), free(all);
    free(ids);
    arena_free(&a);
    return rc;
}

/* ChunkGenerator.findNearestMapStructure: ring placements: the ring position nearest to the point
 * (measured to the chunk's centre at y 32) that has a start; random_spread placements: rings of
 * regions around the point's chunk, radius 0, 1, ... radius, each placement's first start in the
 * scan's order (x, then z), the nearest of those found at the first radius that finds any, also
 * against the rings' answer. Distances to a start are to its locate position (the chunk's corner
 * plus locate_offset). */
static double dist2(int64_t ax, int64_t ay, int64_t az, int64_t bx, int64_t by, int64_t bz)
{
    double dx = (double)(ax - bx), dy = (double)(ay - by), dz = (double)(az - bz);
    return dx * dx + dy * dy + dz * dz;
}

cf_status structures_locate(cf_structures *s, const char *const *only, int nonly, int32_t x, int32_t y, int32_t z, int radius,
                            cf_structure_start *out, int *found, cf_error *err)
{
    *found = 0;
    if (radius < 0 || radius > 1000) return err_set(err, CF_ERR_ARG, "locate radius %d: expected 0 to 1000 regions", radius);
    cf_arena a = {0};
    const char **ids = NULL;
    int nids = 0;
    double best = HUGE_VAL;
    cf_status rc = resolve_only(s, &a, only, nonly, &ids, &nids, err);
    if (rc != CF_OK) goto out;
    for (int i = 0; i < s->nsets; i++) {
        st_set *t = &s->sets[i];
        if (t->kind != SP_CONCENTRIC_RINGS || !set_wanted(s, t, ids, nonly, nids)) continue;
        if (rings_init(s, t, err) < 0) goto fail;
        double closest = HUGE_VAL;
        cf_structure_start near;
        int have = 0;
        int32_t circle = 0, in_circle = 0, spread = t->ring_spread;
        for (int32_t k = 0; k < t->count; ring_circle_step(t, k, &circle, &in_circle, &spread), k++) {
            if (have) {
                /* this circle and every later one is farther from 0, 0 than ring_circle_min: stop
                 * where none can come strictly nearer (1.18-1.19.2: before their searches, which
                 * each need every search before them) */
                double lb = 16.0 * ring_circle_min(t, circle) - 12.0 - hypot((double)x, (double)z);
                if (lb > 0 && lb * lb > closest) break;
            }
            if (have && !s->legacy_rings) {
                /* a search moves a position at most 112 blocks on each axis, its chunk's centre 128:
                 * skip positions that cannot come strictly nearer (the game's `<` keeps the first) */
                double lb = sqrt(dist2((int64_t)t->approx[2 * k] * 16 + 8, 32, (int64_t)t->approx[2 * k + 1] * 16 + 8, x, y, z)) - 128.0 * 1.5;
                if (lb > 0 && lb * lb > closest) continue;
            }
            if (ring_at(s, t, k, err) < 0) goto fail;
            int32_t cx = t->ring[2 * k], cz = t->ring[2 * k + 1];
            double d = dist2((int64_t)cx * 16 + 8, 32, (int64_t)cz * 16 + 8, x, y, z);
            if (have && !(d < closest)) continue;
            cf_structure_start st;
            int got = start_at(s, i, cx, cz, &st, err);
            if (got < 0) goto fail;
            if (got > 0 && wanted(st.structure, ids, nonly > 0 ? nids : 0)) near = st, closest = d, have = 1;
        }
        if (have) {
            double d = dist2((int64_t)near.chunk_x * 16 + t->locate[0], t->locate[1], (int64_t)near.chunk_z * 16 + t->locate[2], x, y, z);
            if (d < best) best = d, *out = near, *found = 1;
        }
    }
    int32_t ox = x >> 4, oz = z >> 4;
    for (int r = 0; r <= radius; r++) {
        int any = 0;
        for (int i = 0; i < s->nsets; i++) {
            st_set *t = &s->sets[i];
            if (t->kind != SP_RANDOM_SPREAD || !set_wanted(s, t, ids, nonly, nids)) continue;
            int done = 0;
            for (int m = -r; m <= r && !done; m++)
                for (int n = -r; n <= r && !done; n++) {
                    if (m != -r && m != r && n != -r && n != r) continue;
                    int32_t c[2];
                    int64_t sx = (int64_t)ox + (int64_t)t->spacing * m, sz = (int64_t)oz + (int64_t)t->spacing * n;
                    if (sx < -CF_MAX_CHUNK || sx > CF_MAX_CHUNK || sz < -CF_MAX_CHUNK || sz > CF_MAX_CHUNK) continue;
                    candidate(s, t, floor_div((int32_t)sx, t->spacing), floor_div((int32_t)sz, t->spacing), c);
                    cf_structure_start st;
                    int got = start_at(s, i, c[0], c[1], &st, err);
                    if (got < 0) goto fail;
                    if (got == 0 || !wanted(st.structure, ids, nonly > 0 ? nids : 0)) continue;
                    done = any = 1;
                    double d = dist2((int64_t)c[0] * 16 + t->locate[0], t->locate[1], (int64_t)c[1] * 16 + t->locate[2], x, y, z);
                    if (d < best) best = d, *out = st, *found = 1;
                }
        }
        if (any) break;
    }
    if (*found) { /* the answer is the locate position (the game prints x, ~, z) */
        const st_set *t = NULL;
        for (int i = 0; i < s->nsets && !t; i++)
            if (strcmp(s->sets[i].id, out->set) == 0) t = &s->sets[i];
        if (!t) goto fail; /* cannot happen: out is a start of one of the sets */
        out->x = (int32_t)((uint32_t)out->chunk_x * 16u) + t->locate[0];
        out->z = (int32_t)((uint32_t)out->chunk_z * 16u) + t->locate[2];
        out->y = 0, out->has_y = 0;
    }
    goto out;
fail:
    rc = err->status ? err->status : CF_ERR_NOMEM;
    *found = 0;
out:
    free(ids);
    arena_free(&a);
    return rc;
}

int structures_sets(const cf_structures *s, const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < s->nsets; i++)
        if (s->sets[i].active) {
            if (names && n < max) names[n] = s->sets[i].id;
            n++;
        }
    return n;
}

cf_status structures_open(cf_structures **out, cf_pack *pack, cf_biomes *b, int64_t seed, const char *version, cf_error *err)
{
    *out = NULL;
    if (!pack || !b) return err_set(err, CF_ERR_ARG, "cf_structures_open: a pack and a biome source are needed");
    if (!version) version = b->f64 ? "1.21.11" : "26.3";
    int k = bm_version_k(version);
    if (k < 0) return err_set(err, CF_ERR_ARG, "version \"%s\": expected a Minecraft version from 1.18 to 26.3 (1.21.11, 26.3, ...)", version);
    cf_structures *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, CF_ERR_NOMEM, "out of memory");
    s->pk = pack, s->b = b, s->seed = seed;
    s->legacy_rings = k == 10; /* 1.18 .. 1.19.2: the versions whose RTree had 10 children */
    if (structures_load(s, err) < 0) {
        structures_free(s);
        return err->status ? err->status : CF_ERR_SCHEMA;
    }
    *out = s;
    return CF_OK;
}

void structures_free(cf_structures *s)
{
    if (!s) return;
    arena_free(&s->arena);
    free(s);
}

/* ------------------------------------------------------------------ the climate spawn point */
/* the two spawn parameter points (Climate.SpawnFinder): full ranges but continentalness
 * [-0.11, 1], depth 0, weirdness [-1, -0.16] or [0.16, 1]; quantized */
static int64_t interval_dist(int64_t v, int64_t lo, int64_t hi) { return v > hi ? v - hi : v < lo ? lo - v : 0; }

/* fitness of the target t (T, H, C, E, W; depth 0) */
static int64_t spawn_climate_fit(const int64_t t[5])
{
    int64_t d = 0;
    static const int64_t lo[4] = {-10000, -10000, -1100, -10000}, hi[4] = {10000, 10000, 10000, 10000};
    for (int i = 0; i < 4; i++) {
        int64_t e = interval_dist(t[i], lo[i], hi[i]);
        d += e * e;
    }
    int64_t a = interval_dist(t[4], -10000, -1600), b = interval_dist(t[4], 1600, 10000);
    return d + (a < b ? a * a : b * b);
}

typedef struct spawn_ctx {
    cf_biomes *b;
    int new_weight; /* 1.21.2+ */
    cf_error *err;
    int failed;
} spawn_ctx;

static uint64_t spawn_fitness(spawn_ctx *c, int32_t x, int32_t z)
{
    float v[6];
    int32_t q[3] = {x >> 2, 0, z >> 2};
    if (biome_climate(c->b, BP_POINT, 0, q, v) < 0) {
        c->failed = 1;
        return UINT64_MAX;
    }
    int64_t t[5] = {cf_b_quantize(v[0]), cf_b_quantize(v[1]), cf_b_quantize(v[2]), cf_b_quantize(v[3]), cf_b_quantize(v[5])};
    int64_t fit = spawn_climate_fit(t), r2 = (int64_t)x * x + (int64_t)z * z;
    if (c->new_weight) return (uint64_t)(fit * (2048LL * 2048LL) + r2);
    double s = (double)r2 / (2500.0 * 2500.0);
    return (uint64_t)(int64_t)(1.0e8 * (s * s)) + (uint64_t)fit;
}

/* SpawnFinder.radialSearch: float angle and radius, as the game keeps them */
static void radial(spawn_ctx *c, int32_t *bx, int32_t *bz, uint64_t *best, float max_r, float step)
{
    float ang = 0.0f, rad = step;
    int32_t x0 = *bx, z0 = *bz;
    while (rad <= max_r && !c->failed) {
        int32_t x = x0 + (int32_t)(sin((double)ang) * (double)rad), z = z0 + (int32_t)(cos((double)ang) * (double)rad);
        uint64_t f = spawn_fitness(c, x, z);
        if (f < *best) *bx = x, *bz = z, *best = f;
        ang += step / rad;
        if ((double)ang > JAVA_PI * 2.0) ang = 0.0f, rad += step;
    }
}

cf_status spawn_climate(cf_biomes *b, const char *version, int32_t xz[2], cf_error *err)
{
    if (!b || b->kind != BS_MULTI) return err_set(err, CF_ERR_ARG, "the climate spawn search needs a multi_noise biome source (the overworld)");
    if (!version) version = b->f64 ? "1.21.11" : "26.3";
    int k = bm_version_k(version);
    if (k < 0) return err_set(err, CF_ERR_ARG, "version \"%s\": expected a Minecraft version from 1.18 to 26.3 (1.21.11, 26.3, ...)", version);
    int maj = 0, min = 0, pat = 0;
    sscanf(version, "%d.%d.%d", &maj, &min, &pat);
    spawn_ctx c = {.b = b, .new_weight = maj > 1 || min > 21 || (min == 21 && pat >= 2), .err = err};
    int32_t x = 0, z = 0;
    uint64_t best = spawn_fitness(&c, 0, 0);
    radial(&c, &x, &z, &best, 2048.0f, 512.0f);
    radial(&c, &x, &z, &best, 512.0f, 32.0f);
    if (c.failed) return err_set(err, CF_ERR_NOMEM, "out of memory");
    xz[0] = x, xz[1] = z;
    return CF_OK;
}

/* ------------------------------------------------------------------ the spawn block */
/* what the game's spawn rule asks of a block (PlayerRespawnLogic / PlayerSpawnFinder): air; a
 * fluid; whether it blocks motion (the MOTION_BLOCKING and OCEAN_FLOOR heightmaps); whether its
 * collision shape's top face is full. Blocks the surface rules and the noise stage give: full cubes
 * but for these (mud, soul sand: 14/16 high; dirt path, farmland: 15/16; powder snow: no collision
 * shape without an entity, so it neither blocks motion nor has a face). Any other id is taken as a
 * full cube, and *unknown names it where it decides. */
enum { SB_AIR, SB_FLUID, SB_FULL, SB_PARTIAL, SB_PASS };
static int spawn_kind(const char *state, int *known)
{
    char id[256]; /* the block's id without its properties ("[snowy=false]") */
    snprintf(id, sizeof id, "%.*s", (int)strcspn(state, "["), state);
    static const char *const air[] = {"minecraft:air", "minecraft:cave_air", "minecraft:void_air", ""};
    static const char *const fluid[] = {"minecraft:water", "minecraft:lava"};
    static const char *const partial[] = {"minecraft:mud", "minecraft:soul_sand", "minecraft:dirt_path", "minecraft:farmland"};
    static const char *const full[] = {
        "minecraft:stone", "minecraft:deepslate", "minecraft:dirt", "minecraft:grass_block", "minecraft:podzol", "minecraft:mycelium",
        "minecraft:coarse_dirt", "minecraft:rooted_dirt", "minecraft:sand", "minecraft:red_sand", "minecraft:sandstone",
        "minecraft:red_sandstone", "minecraft:gravel", "minecraft:clay", "minecraft:calcite", "minecraft:tuff", "minecraft:granite",
        "minecraft:diorite", "minecraft:andesite", "minecraft:snow_block", "minecraft:ice", "minecraft:packed_ice", "minecraft:blue_ice",
        "minecraft:terracotta", "minecraft:white_terracotta", "minecraft:orange_terracotta", "minecraft:yellow_terracotta",
        "minecraft:brown_terracotta", "minecraft:red_terracotta", "minecraft:light_gray_terracotta", "minecraft:bedrock",
        "minecraft:copper_ore", "minecraft:raw_copper_block", "minecraft:deepslate_iron_ore", "minecraft:raw_iron_block",
        "minecraft:moss_block", "minecraft:netherrack", "minecraft:end_stone", "minecraft:obsidian"};
    *known = 1;
    for (size_t i = 0; i < sizeof air / sizeof *air; i++)
        if (strcmp(id, air[i]) == 0) return SB_AIR;
    for (size_t i = 0; i < sizeof fluid / sizeof *fluid; i++)
        if (strcmp(id, fluid[i]) == 0) return SB_FLUID;
    for (size_t i = 0; i < sizeof partial / sizeof *partial; i++)
        if (strcmp(id, partial[i]) == 0) return SB_PARTIAL;
    if (strcmp(id, "minecraft:powder_snow") == 0) return SB_PASS;
    for (size_t i = 0; i < sizeof full / sizeof *full; i++)
        if (strcmp(id, full[i]) == 0) return SB_FULL;
    *known = 0;
    return SB_FULL;
}

/* getOverworldRespawnPos on a column: the heightmaps (one above the top block of each kind, min_y
 * where none), then from MOTION_BLOCKING + 1 down the first block with a full top face (above it:
 * the spawn), none at a fluid or where the column's top is a fluid over its floor. 1 and *y, 0 */
static int spawn_column(const spawn_terrain *t, const uint8_t *blocks, int lx, int lz, const uint8_t *kind, const uint8_t *known,
                        int32_t *y, const char **unknown)
{
#define SB_AT(yy) blocks[((size_t)((yy) - t->min_y) * 16 + (size_t)lz) * 16 + (size_t)lx]
    int32_t top = t->min_y + t->height - 1, ws = t->min_y, mb = t->min_y, of = t->min_y;
    for (int32_t k = top; k >= t->min_y && of == t->min_y; k--) {
        int c = kind[SB_AT(k)];
        if (c != SB_AIR && ws == t->min_y) ws = k + 1;
        if ((c == SB_FLUID || c == SB_FULL || c == SB_PARTIAL) && mb == t->min_y) mb = k + 1;
        if (c == SB_FULL || c == SB_PARTIAL) of = k + 1;
    }
    if (ws <= mb && ws > of) return 0;
    for (int32_t k = mb + 1; k >= t->min_y; k--) {
        if (k > top) continue; /* above the world: air */
        uint8_t b = SB_AT(k);
        if (kind[b] == SB_FLUID) return 0;
        if (kind[b] == SB_FULL) {
            if (!known[b]) *unknown = t->names[b];
            *y = k + 1;
            return 1;
        }
    }
    return 0;
#undef SB_AT
}

int spawn_block(const spawn_terrain *t, const int32_t climate[2], int32_t out[3], const char **unknown, cf_error *err)
{
    uint8_t kind[256], known[256];
    *unknown = NULL;
    for (int i = 0; i < 256; i++) {
        int k = 1;
        kind[i] = (uint8_t)(i < t->nnames && t->names[i] ? spawn_kind(t->names[i], &k) : SB_FULL);
        known[i] = (uint8_t)(i < t->nnames && t->names[i] && k);
    }
    int32_t cx = climate[0] >> 4, cz = climate[1] >> 4;
    int32_t x = 0, z = 0, dx = 0, dz = -1;
    for (int n = 0; n < 11 * 11; n++) { /* the square spiral of MinecraftServer.setInitialSpawn */
        if (x >= -5 && x <= 5 && z >= -5 && z <= 5) {
            const uint8_t *blocks;
            if (t->chunk(t->ctx, cx + x, cz + z, &blocks, err) < 0) return -1;
            for (int lx = 0; lx < 16; lx++) /* getSpawnPosInChunk: x, then z */
                for (int lz = 0; lz < 16; lz++) {
                    int32_t y;
                    if (!spawn_column(t, blocks, lx, lz, kind, known, &y, unknown)) continue;
                    out[0] = (int32_t)((uint32_t)(cx + x) * 16u) + lx, out[1] = y, out[2] = (int32_t)((uint32_t)(cz + z) * 16u) + lz;
                    return 1;
                }
        }
        if (x == z || (x < 0 && x == -z) || (x > 0 && x == 1 - z)) {
            int32_t d = dx;
            dx = -dz, dz = d;
        }
        x += dx, z += dz;
    }
    /* none: the climate chunk's centre at the generator's spawn height (ChunkGenerator's 64, which
     * NoiseBasedChunkGenerator keeps); below the world's floor, the centre column's WORLD_SURFACE
     * height (one above its top block that is not air; the floor where none) */
    out[0] = (int32_t)((uint32_t)cx * 16u) + 8, out[1] = 64, out[2] = (int32_t)((uint32_t)cz * 16u) + 8;
    if (out[1] < t->min_y) {
        const uint8_t *blocks;
        if (t->chunk(t->ctx, cx, cz, &blocks, err) < 0) return -1;
        out[1] = t->min_y;
        for (int32_t k = t->height - 1; k >= 0 && out[1] == t->min_y; k--)
            if (kind[blocks[((size_t)k * 16 + 8) * 16 + 8]] != SB_AIR) out[1] = t->min_y + k + 1;
    }
    return 0;
}
