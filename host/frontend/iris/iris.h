/* iris.h - entry points of the Iris front-end (host/frontend/iris/) for builders that
 * link Iris objects into larger graphs (a pack manifest of several generators).
 *
 * Programs: p->dialect must be DIALECT_IRIS_MASTER or DIALECT_IRIS_UNIFICATION
 * (set by iris_parse; a builder of its own sets it, with prec PREC_F64). Nodes
 * are appended to p (children first) and their ids returned; -1 means err is set
 * with one located line "FILE#POINTER: message".
 */
#ifndef CF_IRIS_FRONT_H
#define CF_IRIS_FRONT_H

#include "ir/ir.h"

struct cJSON;

/* the super seed an Iris generator node reads (IRIS.md §7.5):
 *   IRIS_SUPER_ENGINE  SeedManager(world seed).getHeight() + 239945 (what
 *                      IrisComplex passes; `iris:generator/KEY`)
 *   IRIS_SUPER_DIRECT  the world seed itself (`iris:generator/KEY#super`; tests
 *                      of golden records without world_seed) */
enum { IRIS_SUPER_DIRECT = 0, IRIS_SUPER_ENGINE = 1 };

/* Parses an IrisInterpolator object (NULL: the defaults, BILINEAR_STARCAST_6 and
 * horizontalScale 7): *method a CF_IIM_* value (kernels/cf_iris.h), *scale
 * horizontalScale. 0, or -1 (an unknown function or a bad scale, located). */
int iris_interpolator_parse(cf_program *p, const struct cJSON *obj, cf_loc at, int *method, double *scale, cf_error *err);

/* Wraps the 2-D source node src (any node whose value at (x, 0, z) is a
 * function of Iris's (x, z): an IRIS_GEN, a layer, a 2-D CNG, ...) in
 * IrisInterpolator.interpolate: an IRIS_INTERP node whose value at (x, z) is
 * interp(method, l2i(jround(x)), l2i(jround(z)), scale, P) with P(a, b) = src
 * at (a, 0, b) (IRIS.md §8). */
int iris_interp_node(cf_program *p, int src, int method, double scale, cf_loc at, cf_error *err);

/* the InterpolationMethod name of a CF_IIM_* value, or NULL */
const char *iris_interp_method_name(int m);

/* SeedManager(world seed).getHeight() of a branch (CF_IR_*), IRIS.md §7.5 */
int64_t iris_seedmanager_height(int64_t world_seed, int branch);

/* tests: a program with one output built from the JSON text of an Iris
 * object, kind "style" (IrisGeneratorStyle.create(RNG(world seed)), sampled in
 * dims 2 or 3), "layer" (IrisNoiseGenerator.getNoise(world seed, x, z)) or
 * "generator" (IrisGenerator.getHeight(x, z, world seed)); branch unification or
 * master. Also "all": json an array of {kind, name, json} objects, the output
 * IRIS_ROWS over each of them (styles in 3-D and 2-D), and "interpolators": json
 * a generator, the output IRIS_ROWS over it in each InterpolationMethod (CF_IIM_*
 * order) at its horizontalScale. */
cf_status iris_compile_json(cf_program **out, const char *kind, const char *json, int unification, int dims, cf_error *err);

/* Builds IrisGenerator.getHeight(x, z, superSeed) of the generator JSON object
 * `gen` (a parsed generators/KEY.json; `at` its file and JSON pointer, used in
 * errors and node locations): an IRIS_GEN node whose value at a position is
 * the height at Iris's (x, z) = the position's x and z (y is ignored). Each
 * call builds an independent subgraph (identical ones are merged by the passes);
 * the seeds are per world (iris_seeds). The generator's `interpolator` is
 * validated but not applied: wrap the node with iris_interp_node. pk: the pack whose
 * expressions/ and images/ the generator's styles may name (NULL: such a style is a located
 * error). */
int iris_generator_node_pk(cf_program *p, cf_pack *pk, const struct cJSON *gen, cf_loc at, int super_rule, cf_error *err);
/* iris_compile_json with a pack for expressions/ and images/ */
cf_status iris_compile_json_pk(cf_program **out, cf_pack *pk, const char *kind, const char *json, int unification, int dims, cf_error *err);

/* ------------------------------------------------------------------ expressions and image maps (iris_expr.c, expressions.md)
 * iris_ctx is the build context of iris_ctx.h (the program, the error, the pack, the
 * branch and the seed rule of the object being built). */
typedef struct iris_ctx iris_ctx;

/* IrisGeneratorStyle's `"expression": "KEY"`: the generator sub-graph of
 * ExpressionNoise(rng, expressions/KEY.json) where rng = RNG(seed base + kb):
 * a node whose value at the position (a, b, c) is the generator's noise(a, b, c)
 * (dims 3; dims 2: noise(x, z) at (x, 0, z), i.e. IrisExpression.evaluate(rng,
 * x, z)). `at` locates the key (errors). Node id, or -1 (err set, located). */
int iris_expr_generator(iris_ctx *c, const char *key, cf_loc at, int64_t kb, int dims);

/* IrisGeneratorStyle's `"imageMap": {...}` (an IrisImageMap object at `at`):
 * the ImageNoise generator sub-graph, value at (a, b, c) = noise(a, b, c) =
 * IrisImageMap.getNoise((int) a, (int) (c + b)) (dims 3), or at (x, 0, z)
 * getNoise((int) x, (int) z) (dims 2). Node id, or -1 (located error). */
int iris_image_generator(iris_ctx *c, const struct cJSON *map, cf_loc at, int dims);

/* the functions iris:expression/KEY[#2d] and iris:image/KEY[?field=value&...][#2d]
 * of iris_parse: node id, or -1 */
int iris_expr_function(iris_ctx *c, const char *fn);

/* iris_styles.c for iris_expr.c: IrisGeneratorStyle.createNoCache(RNG(base + kb)) of
 * the style object o (NULL: all defaults, FLAT) sampled in dims: node id or -1 */
int iris_ctx_style(iris_ctx *c, const struct cJSON *o, cf_loc at, int64_t kb, int dims);
cf_program *iris_ctx_program(iris_ctx *c);
cf_error *iris_ctx_error(iris_ctx *c);
cf_pack *iris_ctx_pack(iris_ctx *c);


/* ------------------------------------------------------------------ the front-end
 * (frontend/registry.c reaches it through cf_frontend_iris) */
/* builds prog->nodes (IRIS_* kinds) for iris:style/NAME[#2d] and
 * iris:generator/KEY[#2d][#super][#interpolated] functions; the dialect from settings
 * "iris:master" (default) or "iris:unification" */
/* iris_pack.c: 1 for an Iris terrain (settings iris:terrain/KEY, or the default request on a
 * pack with terrains/ and no Minecraft overworld settings) */
int iris_pack_wanted(cf_pack *pk, const char *settings_id, const char *const *functions, int n);
/* iris_pack.c: a terrain's program: router:final_density (= iris:terrain) and iris:height */
cf_status iris_pack_parse(cf_program *p, cf_pack *pk, const char *settings_id, const char *const *functions, int n, cf_error *err);
/* the style table: count, name and branches (1 master, 2 unification, 3 both) */
int iris_style_count(void);
const char *iris_style_name(int i, int *branches);
/* 1 implemented, 0 a NoiseType missing (its name in missing), -1 no such style on the branch */
int iris_style_status(const char *name, int unification, char *missing, size_t msz);
/* iris_expr.c: the byte offset in the world table of image node id's pixel values (after
 * the per-node seeds of iris_seeds, image nodes in node order) */
size_t iris_table_offset(const cf_program *p, int id);
/* iris_expr.c: the world table's length for p (seeds and image pixels) */
size_t iris_table_len(const cf_program *p);
/* the per-world seeds of the seeded Iris nodes (w->tab: 16-byte header, then 6 x i64 per node) */
cf_status iris_seeds(cf_world *w, cf_error *err);

#endif
