/* iris.h - entry points of the Iris front-end (host/iris.c) for builders that
 * link Iris objects into larger graphs (a pack manifest of several generators).
 *
 * Programs: p->dialect must be DIALECT_IRIS_MASTER or DIALECT_IRIS_UNIFICATION
 * (set by iris_parse; a builder of its own sets it, with prec PREC_F64). Nodes
 * are appended to p (children first) and their ids returned; -1 means err is set
 * with one located line "FILE#POINTER: message".
 */
#ifndef CF_IRIS_FRONT_H
#define CF_IRIS_FRONT_H

#include "cf.h"

struct cJSON;

/* the super seed an Iris generator node reads (IRIS.md §7.5):
 *   IRIS_SUPER_ENGINE  SeedManager(world seed).getHeight() + 239945 (what
 *                      IrisComplex passes; `iris:generator/KEY`)
 *   IRIS_SUPER_DIRECT  the world seed itself (`iris:generator/KEY#super`; tests
 *                      of golden records without world_seed) */
enum { IRIS_SUPER_DIRECT = 0, IRIS_SUPER_ENGINE = 1 };

/* Builds IrisGenerator.getHeight(x, z, superSeed) of the generator JSON object
 * `gen` (a parsed generators/KEY.json; `at` its file and JSON pointer, used in
 * errors and node locations): an IRIS_GEN node whose value at a position is
 * the height at Iris's (x, z) = the position's x and z (y is ignored). Each
 * call builds an independent subgraph (identical ones are merged by the passes);
 * the seeds are per world (iris_seeds). The generator's `interpolator` is
 * validated but not applied: wrap the node with iris_interp_node. */
int iris_generator_node(cf_program *p, const struct cJSON *gen, cf_loc at, int super_rule, cf_error *err);

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

#endif
