/* structures.c - the public structure functions that join the structure stage to the outputs:
 * a start as the JSON line every output writes (`chunkfill structures`, the server's
 * /structures, Python), the spawn line (`chunkfill spawn`, /spawn), and the starts of an area drawn as markers into a map picture
 * (`render --structures`; image/marker.c draws them), and the terrain of the structure checks
 * (the first occupied y of WORLD_SURFACE_WG at a column: cf_map_columns_get's height and the
 * fluid above it). Allocates the starts of one picture. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ir/ir.h"
#include "image/image.h"
#include "structure/structure.h"
#include "api/map.h"

/* s as a JSON string into out at *k (ids and fixed texts; quotes, backslashes and control
 * bytes escaped) */
static void put_str(char *out, size_t cap, size_t *k, const char *s)
{
    char buf[8];
    for (const char *p = "\""; *p; p++) {
        if (*k + 1 < cap) out[*k] = *p;
        (*k)++;
    }
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        const char *e = buf;
        if (*c == '"' || *c == '\\') buf[0] = '\\', buf[1] = (char)*c, buf[2] = 0;
        else if (*c < 32) snprintf(buf, sizeof buf, "\\u%04x", *c);
        else buf[0] = (char)*c, buf[1] = 0;
        for (; *e; e++) {
            if (*k + 1 < cap) out[*k] = *e;
            (*k)++;
        }
    }
    if (*k + 1 < cap) out[*k] = '"';
    (*k)++;
}

static void put_fmt(char *out, size_t cap, size_t *k, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put_fmt(char *out, size_t cap, size_t *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*k < cap ? out + *k : NULL, *k < cap ? cap - *k : 0, fmt, ap);
    va_end(ap);
    *k += (size_t)(n > 0 ? n : 0);
}

int cf_structure_json(const cf_structure_start *st, char *out, size_t cap)
{
    size_t k = 0;
    if (!out) cap = 0;
    put_fmt(out, cap, &k, "{\"structure\": ");
    put_str(out, cap, &k, st->structure);
    put_fmt(out, cap, &k, ", \"set\": ");
    put_str(out, cap, &k, st->set);
    put_fmt(out, cap, &k, ", \"chunk\": [%d, %d]", st->chunk_x, st->chunk_z);
    put_fmt(out, cap, &k, ", \"x\": %d, \"y\": ", st->x);
    if (st->has_y) put_fmt(out, cap, &k, "%d", st->y);
    else put_fmt(out, cap, &k, "null");
    put_fmt(out, cap, &k, ", \"z\": %d, \"checked\": ", st->z);
    put_str(out, cap, &k, st->checked);
    if (st->unverified) {
        put_fmt(out, cap, &k, ", \"unverified\": ");
        put_str(out, cap, &k, st->unverified);
    }
    put_fmt(out, cap, &k, "}\n");
    if (cap) out[k < cap ? k : cap - 1] = 0;
    return (int)k;
}

int cf_spawn_json(const cf_spawn *sp, char *out, size_t cap)
{
    size_t k = 0;
    char why[512];
    if (!out) cap = 0;
    put_fmt(out, cap, &k, "{\"climate\": [%d, %d], \"spawn\": ", sp->climate[0], sp->climate[1]);
    if (sp->found < 0) {
        put_fmt(out, cap, &k, "null, \"unverified\": ");
        put_str(out, cap, &k, "the spawn block needs the settings' surface stage (a surface_rule or material_rule compiled for blocks)");
    } else {
        put_fmt(out, cap, &k, "[%d, %d, %d], \"unverified\": ", sp->block[0], sp->block[1], sp->block[2]);
        snprintf(why, sizeof why, "%sfrom the surface stage's blocks: the carvers and features the game makes first (trees, ice on cold "
                 "water, ...) are not made and can move it%s%s",
                 sp->found ? "" : "no block to stand on in the 11 x 11 chunks: the game's fallback; ",
                 sp->unknown[0] ? "; the shape of this block is taken as a full cube: " : "", sp->unknown);
        put_str(out, cap, &k, why);
    }
    put_fmt(out, cap, &k, "}\n");
    if (cap) out[k < cap ? k : cap - 1] = 0;
    return (int)k;
}

typedef struct spawn_chunks {
    const cf_world *w;
    cf_biomes *b;
    uint8_t *buf;
} spawn_chunks;

static int spawn_chunk(void *ctx, int32_t cx, int32_t cz, const uint8_t **blocks, cf_error *err)
{
    spawn_chunks *c = ctx;
    int32_t ch[2] = {cx, cz};
    if (cf_fill_blocks_surface(c->w, c->b, 1, ch, c->buf, 1, err) != CF_OK) return -1;
    *blocks = c->buf;
    return 0;
}

cf_status cf_spawn_find(const cf_world *w, cf_biomes *biomes, const char *version, cf_spawn *out, cf_error *err)
{
    if (!out) return err_set(err, CF_ERR_ARG, "cf_spawn_find: no output");
    memset(out, 0, sizeof *out);
    out->found = -1;
    cf_status st = spawn_climate(biomes, version, out->climate, err);
    if (st != CF_OK || !w) return st;
    if (!w->prog->blocks)
        return err_set(err, CF_ERR_ARG, "%s: the spawn block needs a program from cf_program_compile_blocks", w->prog->settings_id);
    if (!cf_program_has_surface(w->prog)) return CF_OK; /* no surface stage: no blocks the game would have */
    const char *names[CF_PALETTE_MAX];
    spawn_chunks c = {w, biomes, malloc((size_t)w->prog->height * 256)};
    if (!c.buf) return err_set(err, CF_ERR_NOMEM, "out of memory");
    spawn_terrain t = {spawn_chunk, &c, names, cf_block_palette(w->prog, names), w->prog->min_y, w->prog->height};
    const char *unknown = NULL;
    int got = spawn_block(&t, out->climate, out->block, &unknown, err);
    free(c.buf);
    if (got < 0) return err->status ? err->status : CF_ERR_NOMEM;
    out->found = got;
    if (unknown) snprintf(out->unknown, sizeof out->unknown, "%s", unknown);
    return CF_OK;
}

void cf_structure_marker(const char *structure, const char *set, char *letter, uint8_t rgb[3])
{
    image_marker_style(structure, set, letter, rgb);
}

typedef struct draw_list {
    cf_structure_start *v;
    size_t n, cap;
    int failed;
} draw_list;

static int keep(void *ctx, const cf_structure_start *st)
{
    draw_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        cf_structure_start *g = realloc(l->v, sizeof *g * cap);
        if (!g) return l->failed = 1;
        l->v = g, l->cap = cap;
    }
    l->v[l->n++] = *st;
    return 0;
}

static int64_t floor_div64(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

cf_status cf_structures_draw(cf_structures *s, int32_t x0, int32_t z0, int32_t step, int32_t nx, int32_t nz, const char *const *only,
                             int nonly, uint8_t *rgb, long *count, cf_error *err)
{
    if (count) *count = 0;
    if (!s || !rgb || step < 1 || nx < 1 || nz < 1) return err_set(err, CF_ERR_ARG, "cf_structures_draw: a handle, pixels and a positive size are needed");
    int64_t x1 = (int64_t)x0 + (int64_t)nx * step - 1, z1 = (int64_t)z0 + (int64_t)nz * step - 1;
    if (x1 > INT32_MAX || z1 > INT32_MAX) return err_set(err, CF_ERR_ARG, "cf_structures_draw: the picture reaches beyond 2^31 blocks");
    draw_list l = {0};
    cf_status st = structures_find(s, x0, z0, (int32_t)x1, (int32_t)z1, only, nonly, keep, &l, err);
    if (st == CF_OK && l.failed) st = err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; st == CF_OK && i < l.n; i++) {
        char letter;
        uint8_t c[3];
        image_marker_style(l.v[i].structure, l.v[i].set, &letter, c);
        image_marker(rgb, nx, nz, (int)floor_div64((int64_t)l.v[i].x - x0, step), (int)floor_div64((int64_t)l.v[i].z - z0, step), letter, c);
    }
    if (count && st == CF_OK) *count = (long)l.n;
    free(l.v);
    return st;
}

/* the structure stage's surface callback: per column the top block that is not air after the
 * noise stage (the surface height, or the top of the fluid directly above it), all n in one call */
static int world_surface(void *ctx, size_t n, const int32_t *xz, int32_t *y, cf_error *err)
{
    const cf_world *w = ctx;
    int32_t *top = malloc(sizeof *top * (n ? n : 1));
    if (!top) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    cf_map_columns c = {y, NULL, NULL, NULL, top};
    if (map_columns_points(w, n, xz, INT32_MAX, &c, 0, err) != CF_OK) return free(top), -1;
    for (size_t i = 0; i < n; i++)
        if (top[i] > y[i]) y[i] = top[i];
    free(top);
    return 0;
}

cf_status cf_structures_terrain(cf_structures *s, const cf_world *w, cf_error *err)
{
    if (!s) return err_set(err, CF_ERR_ARG, "cf_structures_terrain: no handle");
    if (!w) {
        s->surface = NULL, s->surface_ctx = NULL;
        return CF_OK;
    }
    if (!w->prog->blocks)
        return err_set(err, CF_ERR_ARG, "%s: the structures' terrain needs a program from cf_program_compile_blocks (the surface counts water)",
                       w->prog->settings_id);
    s->surface = world_surface, s->surface_ctx = (void *)w, s->sea_level = w->prog->sea_level;
    return CF_OK;
}
