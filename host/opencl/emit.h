/* emit.h - the OpenCL code generator (emit.c and its parts, emit_gen.h) and its batch layout. */
#ifndef CF_EMIT_H
#define CF_EMIT_H

#include "ir/ir.h"

#define EMIT_MAX_INTERP 32
#define EMIT_MAX_TABLE 4096 /* thresholds of one interval_select, points of one spline: the device's code holds them
                             * as chains and constant tables (a CPU fill has no limit; --device auto uses the CPU) */
#define EMIT_STACK_WG 64  /* the GPU form's k_stacks work groups (corners of one stack) */
#define EMIT_LP_LAYERS 16 /* ... and the layers whose permutations they copy into local memory */

/* what the host needs to size buffers and launch the kernels of one program */
typedef struct emit_layout {
    int h;                              /* blocks per column */
    int ncol;                           /* column-buffer slots per chunk (x 289 columns) */
    int colitems;                       /* k_columns work-items per chunk (0: 289, the 17 x 17 grid) */
    int ninterp;                        /* interpolated nodes read by the block stage */
    int interp[EMIT_MAX_INTERP];        /* their node ids; kernel k_corners_<k> */
    int ncx[EMIT_MAX_INTERP], ncy[EMIT_MAX_INTERP];
    int ncorner[EMIT_MAX_INTERP];       /* corners per chunk */
    size_t corner_off[EMIT_MAX_INTERP]; /* prefix sums: node k's corners start at nchunks * off */
    size_t corners;                     /* corners per chunk, all nodes */
    int cmerged[EMIT_MAX_INTERP];       /* 1: node k's corners are written by an earlier k_corners kernel */
    int nsites[EMIT_MAX_INTERP];        /* > 0: k_corners_<k> reads its noise stacks' corner values from the
                                         * buffer sv (argument 7) that k_stacks_<k> writes first, when the
                                         * program is built with CF_GPU (else pass NULL: it calls them);
                                         * k_stacks_<k> is 3-D: (ncorner rounded up to EMIT_STACK_WG, nsites,
                                         * chunks), work groups (EMIT_STACK_WG, 1, 1) */
    size_t sv_off[EMIT_MAX_INTERP];     /* prefix sums of nsites * ncorner: node k's values start at nchunks * off */
    size_t svs;                         /* stack values per chunk, all nodes */
    int naxes;                          /* ints per chunk of the corner stage's axis tables (k_axes), 0: none */
    int naxy;                           /* ints per batch before them: the y records every chunk shares */
    int axitems;                        /* k_axes work-items per chunk */
    int axyitems;                       /* ... and per batch (the y records) */
    int blocks;                         /* block fills: the k_aq_* kernels exist */
    int aquifers;                       /* ... with the aquifer (k_aq_surface, k_aq_cells) */
    int ncell;                          /* aquifer cells per chunk */
    int surface;                        /* the k_surface kernel exists (kernels/cf_surface.h) */
} emit_layout;

/* Generates the OpenCL C program that fills output fn of p. w supplies the table
 * indices (stack and octave numbers, the same for every seed). Returns malloc'd
 * source, or NULL with err set. */
char *emit_program(const cf_program *p, const cf_world *w, int fn, emit_layout *lay, cf_error *err);

/* The map's sampled columns (26.3 float programs): k_map_samples(CF_TAB t, __global const int *xz,
 * int n, int y0, int ymax, __global int *out), a work item per sample column (x, z) giving the top
 * y <= ymax where output fn is > 0 (y0 - 1 where none), equal to a scan of k_blocks' column.
 * Returns malloc'd source, or NULL with err set (a double program, out of memory). */
char *emit_samples(const cf_program *p, const cf_world *w, int fn, cf_error *err);

/* test builds only (CF_FAULT_INJECTION, defined where CF_TESTS is on; elsewhere the
 * symbol does not exist and emit_f32.c reads 0): when set, the generated program fuses the
 * lerps (fma), a deliberately wrong kernel that `check` must catch */
extern int emit_test_break;

/* kernels/cf_math.h and kernels/cf_nodes.h as text (generated at build time) */
extern const char emit_header_math[];
extern const char emit_header_nodes[];
extern const char emit_header_aquifer[];
extern const char emit_header_libnoise[];
extern const char emit_header_hytale[];
extern const char emit_header_mc121[];
extern const char emit_header_iris[];
extern const char emit_header_biome[];
extern const char emit_header_rules[];
extern const char emit_header_surface[];
extern const char emit_header_colscan[];

#endif
