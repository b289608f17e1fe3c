/* cf_nodes_ops.h - the element-wise operations of the 26.3 float node kinds, written once (a part of
 * cf_nodes.h: its text is inlined there, so the CPU and every generated OpenCL program read it).
 *
 * CF_OPS(X) lists X(NAME, arity, use, expression): the value of cf_op_NAME over its float
 * operands a, b, c (as many as the arity), in 26.3's float arithmetic (MINECRAFT-26.3.md §10).
 * `use` says who calls it for node kind NK_NAME:
 *   ROW  the node's value on every path (host/cpu/eval.c), in the row loops (host/cpu/fill.c's
 *        vector loop, host/cpu/rowops.c) and in the generated OpenCL (host/opencl/emit_f32.c);
 *        the operands are the node's inputs in order
 *   ONE  the same, but not a row kind (the block stage evaluates it per element)
 *   VOL  the volume path's value (the row loops, OpenCL's volume mode); the point path has its
 *        own rule around it (mul/div by zero, Java's min/max, lerp's lazy branches)
 *   OWN  called by the kind's own code (its operands are not all inputs: clamp's bounds are the
 *        node's constants)
 * The consumers expand the list (CF_OPS(X) with their own X), so a kind added here appears in
 * every evaluator at once (docs/layout.md, "Add a node kind").
 *
 * A choice between two computed values goes through cf_self (a function: both operands are
 * computed, as IEEE operations without side effects; the unused one is discarded), so that the
 * row loops stay branch-free and vectorise (rowops.c) and every path computes the same
 * operations in the same order. Compile C with -ffp-contract=off; OpenCL programs set
 * FP_CONTRACT OFF: an inlined call rounds each step as the expression does.
 */

/* c ? t : f with both operands computed */
CF_INLINE float cf_self(int c, float t, float f) { return c ? t : f; }

#define CF_OPS(X)                                                                       \
    X(ADD, 2, ROW, a + b)                                                               \
    X(SUB, 2, ROW, a - b)                                                               \
    X(MUL, 2, VOL, a * b)                                                               \
    X(DIV, 2, VOL, a / b)                                                               \
    X(MIN, 2, VOL, b < a ? b : a)                                                       \
    X(MAX, 2, VOL, b > a ? b : a)                                                       \
    X(ABS, 1, ROW, cf_fabsf(a))                                                         \
    X(NEGATE, 1, ROW, -a)                                                               \
    X(SQUARE, 1, ROW, a * a)                                                            \
    X(CUBE, 1, ROW, (a * a) * a)                                                        \
    X(SQRT, 1, ONE, (float)cf_sqrt((double)a))                                          \
    X(RECIPROCAL, 1, ONE, 1.0f / a)                                                     \
    X(LOG, 1, ONE, (float)cf_log((double)a))                                            \
    X(SIGN, 1, ONE, cf_signumf(a))                                                      \
    X(HALF_NEGATIVE, 1, ROW, cf_self(a > 0.0f, a, a * 0.5f))                            \
    X(QUARTER_NEGATIVE, 1, ROW, cf_self(a > 0.0f, a, a * 0.25f))                        \
    X(SQUEEZE, 1, ROW, cf_squeeze(a))                                                   \
    X(CLAMP, 3, OWN, cf_clampf(a, b, c))                                                \
    X(LERP, 3, VOL, cf_self(a == 0.0f, b, cf_self(a == 1.0f, c, cf_lerpf(a, b, c))))

#define CF_OP_PARAMS_1 float a
#define CF_OP_PARAMS_2 float a, float b
#define CF_OP_PARAMS_3 float a, float b, float c
#define CF_OP_DEFINE(K, N, USE, E) \
    CF_INLINE float cf_op_##K(CF_OP_PARAMS_##N) { return E; }
CF_OPS(CF_OP_DEFINE)
#undef CF_OP_DEFINE

/* Selections: CF_OPS(CF_OP_ROWS) expands CF_OP_ROW_CASE(K, arity), which the consumer defines,
 * for the row kinds' ops (ROW, VOL: the volume path's values); CF_OPS(CF_OP_NODES) expands
 * CF_OP_NODE_CASE(K, arity) for the kinds whose value is their op on every path (ROW, ONE). */
#define CF_OP_ROWS(K, N, USE, E) CF_OP_ROWS_##USE(K, N)
#define CF_OP_ROWS_ROW(K, N) CF_OP_ROW_CASE(K, N)
#define CF_OP_ROWS_VOL(K, N) CF_OP_ROW_CASE(K, N)
#define CF_OP_ROWS_ONE(K, N)
#define CF_OP_ROWS_OWN(K, N)
#define CF_OP_NODES(K, N, USE, E) CF_OP_NODES_##USE(K, N)
#define CF_OP_NODES_ROW(K, N) CF_OP_NODE_CASE(K, N)
#define CF_OP_NODES_ONE(K, N) CF_OP_NODE_CASE(K, N)
#define CF_OP_NODES_VOL(K, N)
#define CF_OP_NODES_OWN(K, N)

/* the call of an op on operands named a, b, c (the row loops' element values) */
#define CF_OP_CALL_1(K) cf_op_##K(a)
#define CF_OP_CALL_2(K) cf_op_##K(a, b)
#define CF_OP_CALL_3(K) cf_op_##K(a, b, c)
