/* emit_gen.h - the OpenCL generator's parts, shared by its files and the biome programs:
 *   emit_text.c    the text builder (sb) and exact literals
 *   emit_f32.c     the 26.3 float expressions: one node's value as an expression, straight-line
 *                  and lazy bodies, the f<mode>_<node> functions (the generator context gen)
 *   emit_f64.c     the double emit table of the four double formats (libnoise, Iris, Hytale,
 *                  1.18-1.21) and the double dialects' program
 *   emit_mc121.c   the 1.18-1.21 program (flat caches, corners, blocks)
 *   emit_blocks.c  the block fills' aquifer kernels (both dialects) and the surface kernel
 *   emit.c         emit_program: the 26.3 program, step by step
 *   host/biome/program.c  the biome programs (biome_program)
 * Nothing here is public: host/opencl/emit.h is what the rest of host/ calls. */
#ifndef CF_EMIT_GEN_H
#define CF_EMIT_GEN_H

#include <stdint.h>

#include "ir/ir.h"
#include "opencl/emit.h"

/* ---- text (emit_text.c) */
typedef struct sb {
    char *s;
    size_t len, cap;
    int oom;
    char m21; /* the 1.21 generator: the mode suffix of source calls (p, c, b) */
} sb;

/* appends printf-style text; on a failed allocation b->oom is set and later calls do nothing */
void sbf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* an exact float (double) literal */
void flit(sb *b, float f);
void dlit(sb *b, double d);
/* a __constant double array <name><id>[n] of v's values, on one line */
void dtable(sb *b, const char *name, int id, const double *v, int n);
/* a comment naming the node's source (file#pointer), on its own line after indent */
void src_comment(sb *b, const cf_node *n, const char *indent);
/* -1 with err set when node n holds more thresholds or spline points than the device's code
 * takes (EMIT_MAX_TABLE), else 0 */
int emit_table_limit(const cf_node *n, cf_error *err);

/* ---- the 26.3 float expressions (emit_f32.c) */
enum { FN_NONE = 0, FN_WANTED = 1, FN_DONE = 2 };

typedef struct gen {
    const cf_program *p;
    const cf_world *w;
    sb out;   /* functions and kernels */
    sb protos;
    uint8_t *fn[3]; /* [mode] per node: a function f<mode>_<node> is wanted/emitted */
    int *work, nwork;
    uint8_t *mark;  /* scratch: nodes of the body being emitted */
    /* the corner stage's axis tables (k_axes): per node, the first table layer of each of
     * its stacks (a noise: 1, old_blended_noise: 3), or -1 */
    int (*axl0)[3];
    int axon;                /* emitting a corner kernel body that reads the tables (axc, i, j, kk); */
    int *site;               /* with axon == 2: node -> its first stack value in sv (CF_SV), -1: none */
                             /* 2: one with many noise sites (cf_stack_axes_call) */
    int axR, axzoff, axRY;   /* ints per table layer of a chunk (x, z records), offset of the z records in
                              * one; ints per layer of the batch's y records */
    int naxy;                /* ints of the batch's y records, at the front of ax */
} gen;


/* the kinds with their own function (interpolated, find_top_surface, slice) */
int gen_is_special(const cf_node *n);
/* asks for the function f<mode>_<id> (and its prototype) */
void gen_want(gen *g, int mode, int id);
/* 1: the spline is written as a chain of comparisons (no table) */
int gen_spline_chain(const cf_node *n);
/* the value expression of node id in mode, children as v<child> */
void gen_expr(gen *g, sb *b, int mode, int id);
/* marks (g->mark) the nodes a straight-line body of root needs, stopping at ext nodes and special nodes */
void gen_mark_body(gen *g, int root, const uint8_t *ext);
/* the body computing v<root>: depth 1 straight-line in a function, 2 inside k_blocks' y loop */
void gen_body(gen *g, sb *b, int mode, int root, const uint8_t *ext, int depth);
/* ends a program: the kernels written so far into g->out go after the functions they asked
 * for; appends the prototypes, the functions and the kernels to ker. 0, or -1 out of memory */
int gen_finish(gen *g, sb *ker);
/* allocates g's tables for p (fn, work, mark); 0, or -1 out of memory (gen_close frees what was made) */
int gen_open(gen *g, const cf_program *p, const cf_world *w);
void gen_close(gen *g); /* frees g's tables and text (also axl0, site) */
/* the embedded kernels/ headers, and the __constant tables of the splines that are not chains */
void gen_headers(sb *b);
void gen_static_tables(gen *g, sb *b);

/* ---- the double formats (emit_f64.c, emit_mc121.c) */
/* the node's entry of the double emit table: an expression (libnoise, Iris) or a whole
 * body (1.18-1.21, with b->m21 the mode suffix of source calls) */
void emit64_node(sb *b, const cf_node *n, int id);
char *emit_program_f64(const cf_program *p, int fn, emit_layout *lay, cf_error *err);
char *emit_program_mc121(const cf_program *p, int fn, emit_layout *lay, cf_error *err);

/* ---- the block stages (emit_blocks.c); 0, or -1 (out of memory, or err set) */
int aquifer_kernels(gen *g, sb *o, emit_layout *lay);
int aquifer121_kernels(const cf_program *p, sb *o, emit_layout *lay);
int surface_kernel(const cf_program *p, gen *g, sb *o, emit_layout *lay, cf_error *err);

#endif
