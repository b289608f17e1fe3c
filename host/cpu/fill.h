/* fill.h - inside host/cpu: what the chunk fill (fill.c) gives the job runner (jobs.c) and the
 * surface heights (heights.c). Not for other folders: they call cpu.h.
 */
#ifndef CF_CPU_FILL_H
#define CF_CPU_FILL_H

#include "cpu/cpu.h"

/* fill.c: a context for regions of sx x sy x sz blocks (fill_new: fresh, NULL when out of memory;
 * fill_take: an idle one of the world's pool, or fresh), given back by fill_give (kept idle) or
 * fill_free */
cf_fill *fill_new(const cf_world *w, int32_t sx, int32_t sy, int32_t sz);
void fill_free(cf_fill *f);
cf_fill *fill_take(const cf_world *w, int32_t sx, int32_t sy, int32_t sz);
void fill_give(cf_fill *f);
/* points f at the region whose first block is (x0, y0, z0): every memo becomes stale */
void fill_region(cf_fill *f, int32_t x0, int32_t y0, int32_t z0);
/* the rows [f->wy0, f->wy1) are the next window: the block stage's buffers become stale */
void fill_next_window(cf_fill *f);
/* node id's buffer over the current window, computed on first use: [(y - wy0)*dz + z]*dx + x
 * with fill_vdims' sizes (1 along axes the node does not read) */
const float *fill_vec_get(cf_fill *f, int id);
void fill_vdims(const cf_fill *f, const cf_node *n, int *dx, int *dy, int *dz);
/* the window height of top-down searches: a multiple of every interpolation cell height */
int32_t fill_window_rows(const cf_program *p);
/* one chunk of node into out[(y*16 + z)*16 + x] (f: a 16 x height x 16 context) */
void fill_chunk(cf_fill *f, int node, int32_t cx, int32_t cz, float *out);
/* refuses a fill over the program's memory limit (--max-memory), with the figures */
cf_status fill_check_memory(const cf_program *p, int threads, cf_error *err);

/* jobs.c: runs fn(arg) on `threads` threads (the caller's alone when 1, or when none can be
 * started) and waits for them; -1 when out of memory */
int fill_run_threads(void *(*fn)(void *), void *arg, int threads);
/* jobs.c: a 1.21 chunk of node (the staged fill s, or every block through eval64 when s is NULL) */
void fill121_chunk(ev64_ctx *c, cf_fill121 *s, int node, int final, int32_t cx, int32_t cz, double *out);

/* bounds.c: column bounds (an interval for a node over one column and a range of rows, from
 * the range analysis and the column's exact 2-D values) for the top-down surface search. One
 * per thread; NULL from hbound_new for the double dialects (no bounds: every row computed). */
typedef struct cf_hbound cf_hbound;
/* 1 when node id's value is finite whenever its inputs are (and its range, passes.c, is within
 * +-1e37): not log or pow, a divisor or reciprocal whose range excludes 0, a square root of a
 * range >= 0. Both the bounds here and heights.c's corner columns rest on it. */
cf_hbound *hbound_new(const cf_program *p);
void hbound_free(cf_hbound *b);
/* the fill context f was pointed at a new region (fill_region): exact values kept are stale */
void hbound_region(cf_hbound *b);
/* 1 when node's value (volume path, f's region) at every block of column (x, z) with
 * ylo <= y <= yhi is provably not > 0; 0 when not proven (or b is NULL) */
int hbound_nonpos(cf_hbound *b, cf_fill *f, int node, int32_t x, int32_t z, int32_t ylo, int32_t yhi);
/* the same with each interpolated node bounded by the hull of its corner values at the column
 * over the cells holding the rows (computed here where stale, as f's block stage would compute
 * them and kept for it: fill_interp_hull) instead of its input's interval: near the surface,
 * where the input's interval holds both signs, the rows of a cell whose corners are all below the
 * surface's level are proven without their block stage */
int hbound_nonpos_cells(cf_hbound *b, cf_fill *f, int node, int32_t x, int32_t z, int32_t ylo, int32_t yhi);

/* heights.c: the top block with node > 0 of column (x, z) at or below `below` (min_y - 1 where
 * none), searched from the top down in windows of rows, the windows hb proves not > 0 skipped
 * (hb may be NULL: every window from the top); f: a 1 x height x 1 context of the thread
 * (fill_take(w, 1, height, 1)), hb: the thread's hbound_new(program). *rows: the rows computed.
 * The same height as a whole chunk's fill gives there (tests/test_maps.c). */
int32_t heights_column(cf_fill *f, cf_hbound *hb, int node, int32_t x, int32_t z, int32_t below, int *rows);

#endif
