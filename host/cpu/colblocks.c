/* colblocks.c - the noise stage's blocks of one sampled column (maps from 2 blocks a pixel on,
 * `columns --stride`, /at): the blocks cf_fill_blocks gives in that column, without the chunk.
 *
 * Input: the column (x, z) and its height (heights.c: the top block with final density > 0 at
 * or below `below`). A block is the aquifer's decision (aquifer.c, kernels/cf_aquifer.h) on
 * the final density of the volume path, asked block by block: the density of a 1 x 1 region
 * (fill.c, a window of rows at a time, the same values as a chunk's: corners and caches are
 * keyed by absolute position), computed only where a block needs it (at or below the height,
 * or above it where the aquifer's barrier test at density 0 gives stone); the aquifer's chunk
 * state (aquifer_column: the cell centres, surface levels, fluid statuses and the skip level
 * only as the column's blocks read them) kept while the columns of one chunk follow each other. 26.3 float programs (colblk_serves); the others
 * fill whole chunks (host/api/map.c). Allocates per thread: a fill context, an aquifer, the
 * column's densities.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"
#include "cpu/cpu.h"
#include "cpu/fill.h"

struct cf_colblk {
    const cf_world *w;
    int node;        /* the final density (the output block fills read) */
    cf_fill *f;      /* 1 x height x 1 */
    cf_hbound *hb;   /* heights_column's skip (colblk_height) */
    cf_aquifer *a;
    int own_aq;      /* a is this context's (a neighbour's context shares its column's) */
    uint8_t *noise;  /* per row: the noise stage's block, NB_NONE where not asked yet */
    uint8_t *ov;     /* per row: what the surface stage wrote, NB_NONE where nothing */
    int32_t flo, fhi; /* the rows of the last span aquifer_span did not answer */
    int32_t top;     /* the noise stage's top block that is not air (colblk_top), INT32_MIN: not yet */
    struct cf_colblk *nbr; /* a neighbour column (the surface stage's `steep`), made on first use */
    int (*quart)(void *u, int32_t qx, int32_t qy, int32_t qz);
    void *qu;
    int32_t wh;      /* rows a window */
    int32_t x, z, h; /* the column and its height */
    int32_t ymax;    /* min(top of the world, below): every block in (h, ymax] has density <= 0 */
    int region;      /* f points at the column */
    float *dens;     /* per row (y - min_y) */
    uint8_t *have;
    int rows;        /* rows of density computed (statistics) */
    int nomem;       /* a neighbour's context could not be made (colblk_surface) */
};

int colblk_serves(const cf_program *p)
{
    return p && p->blocks && p->prec == PREC_F32 && p->dialect == DIALECT_MC263 && p->noutputs > 0;
}

#define NB_NONE 0xff

/* a context; aq: the aquifer to share, or NULL for its own */
static cf_colblk *colblk_make(const cf_world *w, cf_aquifer *aq)
{
    const cf_program *p = w->prog;
    if (!colblk_serves(p)) return NULL;
    cf_colblk *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->w = w, c->node = p->outputs[0], c->wh = fill_window_rows(p);
    c->f = fill_take(w, 1, p->height, 1);
    c->hb = getenv("CF_NO_COLUMN_BOUNDS") ? NULL : hbound_new(p);
    c->own_aq = !aq;
    c->a = aq ? aq : aquifer_new(w);
    c->dens = malloc(sizeof(float) * (size_t)p->height);
    c->have = malloc((size_t)p->height);
    c->noise = malloc((size_t)p->height);
    c->ov = malloc((size_t)p->height);
    if (!c->f || !c->a || !c->dens || !c->have || !c->noise || !c->ov) {
        colblk_free(c);
        return NULL;
    }
    return c;
}

cf_colblk *colblk_new(const cf_world *w) { return colblk_make(w, NULL); }

void colblk_free(cf_colblk *c)
{
    if (!c) return;
    colblk_free(c->nbr);
    if (c->f) fill_give(c->f);
    hbound_free(c->hb);
    if (c->own_aq) aquifer_free(c->a);
    free(c->dens), free(c->have), free(c->noise), free(c->ov);
    free(c);
}

void colblk_column(cf_colblk *c, int32_t x, int32_t z, int32_t h, int32_t below)
{
    const cf_program *p = c->w->prog;
    c->x = x, c->z = z, c->h = h, c->region = 0, c->top = INT32_MIN, c->flo = 1, c->fhi = 0;
    c->ymax = (int64_t)p->min_y + p->height - 1 < below ? p->min_y + p->height - 1 : below;
    memset(c->have, 0, (size_t)p->height);
    memset(c->noise, NB_NONE, (size_t)p->height);
    memset(c->ov, NB_NONE, (size_t)p->height);
    aquifer_column(c->a, x, z);
}

/* the final density at row y of the column (the window of rows holding it, computed once) */
static float col_density(cf_colblk *c, int32_t y)
{
    const cf_program *p = c->w->prog;
    int32_t r = y - p->min_y;
    if (c->have[r]) return c->dens[r];
    if (!c->region) fill_region(c->f, c->x, p->min_y, c->z), c->region = 1;
    int64_t wb = cf_floordiv(y, c->wh) * c->wh; /* the windows of heights.c's search */
    int32_t a = (int32_t)(wb < p->min_y ? p->min_y : wb) - p->min_y;
    int32_t b = (int32_t)(wb + c->wh > (int64_t)p->min_y + p->height ? (int64_t)p->min_y + p->height : wb + c->wh) - p->min_y;
    int dx, dy, dz;
    fill_vdims(c->f, &p->nodes[c->node], &dx, &dy, &dz);
    c->f->wy0 = a, c->f->wy1 = b;
    fill_next_window(c->f);
    const float *v = fill_vec_get(c->f, c->node);
    for (int32_t k = a; k < b; k++) c->dens[k] = v[dy > 1 ? k - a : 0], c->have[k] = 1;
    c->rows += b - a;
    return c->dens[r];
}

/* the noise stage's block at row y (in the world's rows), once */
static int noise_block(cf_colblk *c, int32_t y)
{
    int32_t r = y - c->w->prog->min_y;
    if (c->noise[r] != NB_NONE) return c->noise[r];
    int b;
    if (y == c->h) b = CF_BK_SOLID;
    else {
        aquifer_column(c->a, c->x, c->z); /* a neighbour's column (sc_hmap) may have moved the shared aquifer */
        /* above the height and at or below ymax the density d is <= 0. The aquifer reads it
         * only in its barrier tests (d + pressure term > 0 gives stone), each monotone in d:
         * a decision at d = 0 that is not stone is the decision at every d <= 0, so the density
         * is computed only where the decision at 0 is stone (cf_aq_decide) */
        int nonpos = y > c->h && y <= c->ymax;
        int32_t lo, hi, level;
        int kind, span = 0;
        if (nonpos && (y < c->flo || y > c->fhi) &&
            !(span = aquifer_span(c->a, c->x, y, c->z, c->h + 1, c->ymax, &lo, &hi, &level, &kind)))
            c->flo = lo, c->fhi = hi; /* asked once a span */
        if (span) { /* the rows of y's span above the height: the global fluid at any density <= 0 */
            for (int32_t k = lo; k <= hi; k++) c->noise[k - c->w->prog->min_y] = (uint8_t)(k < level ? kind : CF_BK_AIR);
            return c->noise[r];
        }
        if (nonpos) {
            b = aquifer_block(c->a, c->x, y, c->z, 0.0f);
            if (b == CF_BK_SOLID) b = aquifer_block(c->a, c->x, y, c->z, col_density(c, y));
        } else {
            b = aquifer_block(c->a, c->x, y, c->z, col_density(c, y));
        }
    }
    c->noise[r] = (uint8_t)b;
    return b;
}

int colblk_get(cf_colblk *c, int32_t y)
{
    const cf_program *p = c->w->prog;
    if (y < p->min_y || (int64_t)y >= (int64_t)p->min_y + p->height) return CF_BK_AIR;
    uint8_t o = c->ov[y - p->min_y];
    return o != NB_NONE ? o : noise_block(c, y);
}

int32_t colblk_height(cf_colblk *c, int32_t x, int32_t z, int32_t below)
{
    int rows;
    int32_t h = heights_column(c->f, c->hb, c->node, x, z, below, &rows);
    colblk_column(c, x, z, h, below);
    c->region = 1; /* heights_column pointed f at the column: its corners are kept */
    c->rows += rows;
    return h;
}

/* the noise stage's top block that is not air (the surface stage's heightmap), min_y - 1 where none */
static int32_t colblk_top(cf_colblk *c)
{
    const cf_program *p = c->w->prog;
    if (c->top == INT32_MIN) {
        int32_t y = p->min_y + p->height - 1;
        while (y >= p->min_y && noise_block(c, y) == CF_BK_AIR) y--;
        c->top = y;
    }
    return c->top;
}

/* output `out` on the volume path at row y of the column (the window holding it) */
static float col_output(cf_colblk *c, int out, int32_t y)
{
    const cf_program *p = c->w->prog;
    int node = p->outputs[out];
    if (!c->region) fill_region(c->f, c->x, p->min_y, c->z), c->region = 1;
    int64_t wb = cf_floordiv(y, c->wh) * c->wh;
    int32_t a = (int32_t)(wb < p->min_y ? p->min_y : wb) - p->min_y;
    int32_t b = (int32_t)(wb + c->wh > (int64_t)p->min_y + p->height ? (int64_t)p->min_y + p->height : wb + c->wh) - p->min_y;
    int dx, dy, dz;
    fill_vdims(c->f, &p->nodes[node], &dx, &dy, &dz);
    c->f->wy0 = a, c->f->wy1 = b;
    fill_next_window(c->f);
    return fill_vec_get(c->f, node)[dy > 1 ? y - p->min_y - a : 0];
}

/* the hooks of surface_column (cpu.h cf_sfcol) on a context */
static int sc_get(void *u, int32_t y) { return colblk_get(u, y); }
static void sc_set(void *u, int32_t y, int b)
{
    cf_colblk *c = u;
    c->ov[y - c->w->prog->min_y] = (uint8_t)b;
}
static int32_t sc_hmap(void *u, int dx, int dz)
{
    cf_colblk *c = u;
    if (!dx && !dz) return colblk_top(c);
    if (!c->nbr && !(c->nbr = colblk_make(c->w, c->a))) {
        c->nomem = 1; /* the caller fills the chunk */
        return colblk_top(c);
    }
    colblk_height(c->nbr, c->x + dx, c->z + dz, INT32_MAX);
    return colblk_top(c->nbr);
}
static int sc_quart(void *u, int32_t qx, int32_t qy, int32_t qz)
{
    cf_colblk *c = u;
    return c->quart(c->qu, qx, qy, qz);
}
static float sc_vol(void *u, int out, int32_t y) { return col_output(u, out, y); }

int colblk_surface(cf_colblk *c, cf_surface *s, int (*quart)(void *u, int32_t qx, int32_t qy, int32_t qz), void *qu)
{
    c->quart = quart, c->qu = qu;
    cf_sfcol col = {sc_get, sc_set, sc_hmap, sc_quart, sc_vol, c, 0};
    /* the walk down to the height: the block there and every block above it get their rule */
    c->nomem = 0;
    int inexact = surface_column(s, c->x, c->z, c->h, &col);
    return inexact || c->nomem;
}

int colblk_rows(const cf_colblk *c) { return c->rows; }
