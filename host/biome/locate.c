/* locate.c - the game's /locate biome (cf_biomes_locate): BiomeSource.findClosestBiome3d as
 * LocateCommand calls it (radius 6400 blocks, horizontal step 32, vertical step 64).
 *
 * What the game does, as facts (no code of it here):
 *  - the biomes wanted are those of the id or tag that the source can give at all (its possible
 *    biomes); none: not found, without a search;
 *  - columns: the origin plus (dx, dz) * hstep for (dx, dz) on a square spiral around (0, 0) out
 *    to radius / hstep (floor): (0, 0), then legs east, south, west, north, ..., leg k of
 *    k / 2 + 1 steps, the last leg (k = 4 r) cut to 2 r steps so that the square is complete;
 *  - per column the ys from the origin's y outwards, y, y + v, y - v, y + 2v, y - 2v, ..., one
 *    side going on alone once the other has left min_y + 1 .. min_y + height (the bounds the
 *    game gives, inclusive; the origin's y clamped into them first);
 *  - the biome there: the source's noise biome at quart (x >> 2, y >> 2, z >> 2), no zoom; the
 *    RTree's warm start carried from one lookup to the next on the command's thread;
 *  - the first column and y in this order whose biome is wanted is the answer.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "biome/biome.h"

/* the ys of one column in the game's order: count returned (into ys, room for cap) */
static int column_ys(int32_t y, int32_t lo, int32_t hi, int32_t step, int32_t *ys, int cap)
{
    int n = 0;
    int64_t o = y < lo ? lo : y > hi ? hi : y;
    ys[n++] = (int32_t)o;
    for (int64_t d = step; n < cap && (o - d >= lo || o + d <= hi); d += step) {
        if (o + d <= hi) ys[n++] = (int32_t)(o + d);
        if (o - d >= lo && n < cap) ys[n++] = (int32_t)(o - d);
    }
    return n;
}

/* the spiral's next offset: state {x, z, leg, step of leg}, legs of r = radius */
typedef struct spiral {
    int64_t x, z;
    int64_t leg, done, r;
    int started;
} spiral;

static int spiral_next(spiral *s)
{
    static const int dx[4] = {1, 0, -1, 0}, dz[4] = {0, 1, 0, -1}; /* east, south, west, north */
    if (!s->started) return s->started = 1;
    for (;;) {
        if (s->leg > 4 * s->r) return 0;
        int64_t len = s->leg < 4 * s->r ? s->leg / 2 + 1 : 2 * s->r;
        if (s->done < len) {
            s->x += dx[s->leg % 4], s->z += dz[s->leg % 4], s->done++;
            return 1;
        }
        s->leg++, s->done = 0;
    }
}

static int wanted_ids(cf_biomes *b, cf_pack *pk, const char *what, uint8_t *want, cf_arena *a, cf_error *err)
{
    const char *names[CF_BIOME_PALETTE_MAX];
    int np = biome_palette(b, names), n = 1, any = 0;
    const char **ids = NULL;
    char full[600];
    if (what[0] == '#') {
        cf_loc at = {what, NULL};
        if ((n = tag_biomes(a, pk, what + 1, at, NULL, NULL, &ids, err)) < 0) {
            size_t k = strlen(what) + 3; /* "#TAG#: ": the location is the argument itself */
            if (strncmp(err->message, what, k - 3) == 0 && strncmp(err->message + k - 3, "#: ", 3) == 0)
                memmove(err->message, err->message + k, strlen(err->message + k) + 1);
            return -1;
        }
    } else {
        char ns[128], path[384];
        if (res_split(what, ns, path) < 0) return err_set(err, CF_ERR_ARG, "\"%s\" is not a biome id (ns:path)", what), -1;
        snprintf(full, sizeof full, "%s:%s", ns, path);
        const char *one = full;
        ids = &one;
        for (int i = 0; i < np; i++) want[i] = strcmp(names[i], full) == 0, any |= want[i];
        return any;
    }
    for (int i = 0; i < np; i++) {
        want[i] = 0;
        for (int k = 0; k < n; k++) want[i] |= strcmp(names[i], ids[k]) == 0;
        any |= want[i];
    }
    return any;
}

cf_status biome_locate(cf_biomes *b, cf_pack *pk, const char *what, int32_t x, int32_t y, int32_t z, int32_t radius,
                       int32_t hstep, int32_t vstep, int32_t pos[3], int *biome, int *found, cf_map_progress_fn progress,
                       void *ctx, cf_error *err)
{
    if (!b || !what || !pos || !biome || !found || radius < 0 || hstep < 1 || vstep < 1)
        return err_set(err, CF_ERR_ARG, "cf_biomes_locate: bad arguments");
    if (what[0] == '#' && !pk) return err_set(err, CF_ERR_ARG, "cf_biomes_locate: a tag needs the packs");
    *found = 0;
    uint8_t want[CF_BIOME_PALETTE_MAX] = {0};
    cf_arena a = {0};
    int any = wanted_ids(b, pk, what, want, &a, err);
    arena_free(&a);
    if (any < 0) return err->status;
    if (!any) {
        *found = -1; /* no biome of it can occur in this source */
        return CF_OK;
    }
    enum { YS = 1024, BATCH = 4096 };
    int32_t ys[YS];
    int ny = column_ys(y, b->min_y + 1, b->min_y + b->height, vstep, ys, YS);
    int32_t *q = malloc(sizeof(int32_t) * 3 * (size_t)BATCH * (size_t)ny);
    int64_t *cols = malloc(sizeof(int64_t) * 2 * BATCH);
    uint8_t *out = malloc((size_t)BATCH * (size_t)ny);
    cf_status st = CF_OK;
    if (!q || !cols || !out) {
        free(q), free(cols), free(out);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    spiral s = {0, 0, 0, 0, radius / hstep, 0};
    int32_t warm = -1;
    size_t batch = 16; /* doubling up to BATCH: a near answer costs few lookups past it */
    int64_t total = (2 * (int64_t)s.r + 1) * (2 * (int64_t)s.r + 1), done = 0; /* the spiral's columns */
    for (int more = 1; st == CF_OK && more && !*found; batch = batch * 2 < BATCH ? batch * 2 : BATCH) {
        size_t nc = 0;
        while (nc < batch && (more = spiral_next(&s))) {
            int64_t bx = (int64_t)x + s.x * hstep, bz = (int64_t)z + s.z * hstep;
            cols[2 * nc] = bx, cols[2 * nc + 1] = bz;
            for (int k = 0; k < ny; k++) {
                int32_t *p = q + 3 * (nc * (size_t)ny + (size_t)k);
                p[0] = (int32_t)(bx >> 2), p[1] = ys[k] >> 2, p[2] = (int32_t)(bz >> 2);
            }
            nc++;
        }
        if (nc == 0) break;
        st = biome_quarts_warm_from(b, nc * (size_t)ny, q, out, &warm, err);
        for (size_t i = 0; st == CF_OK && i < nc * (size_t)ny; i++)
            if (want[out[i]]) {
                pos[0] = (int32_t)cols[2 * (i / (size_t)ny)], pos[1] = ys[i % (size_t)ny], pos[2] = (int32_t)cols[2 * (i / (size_t)ny) + 1];
                *biome = out[i], *found = 1;
                break;
            }
        done += (int64_t)nc;
        if (progress && st == CF_OK) progress(ctx, "columns", *found || !more ? total : done, total);
    }
    free(q), free(cols), free(out);
    return st;
}
