/* parse.h - the Hytale front-end's parser context, shared by its three files: hytale.c (the
 * request, the files, the nodes every input format makes), v2.c (World Gen V2 density graphs)
 * and legacy.c (legacy noise assets). Not a public header: only host/frontend/hytale/ includes it.
 * The HYTALE.md UNK choices of the V2 parser are the "choices" block below (one place); the legacy
 * choices are the block at the head of legacy.c.
 */
#ifndef CF_HYTALE_PARSE_H
#define CF_HYTALE_PARSE_H

#include <cjson/cJSON.h>

#include "frontend/hytale/hytale.h"

/* ------------------------------------------------------------------ choices (HYTALE.md UNK, one place) */
/* §3.1 Skip: 1 = a skipped node passes Inputs[0] through (+0.0 without inputs); 0 = it returns +0.0 */
#define HY_SKIP_PASSTHROUGH 1
/* §7.1: a CellNoise without DistanceFunction uses Euclidean (FNL's own default, EuclideanSq, is not used) */
#define HY_CELL_DEFAULT_DISTANCE CF_HY_EUCLIDEAN
/* §7.1: a CellNoise without Jitter uses 1.0 (FNL's default) */
#define HY_CELL_DEFAULT_JITTER 1.0
/* §4.5: a FastGradientWarp without "2D" is the 3D warp */
#define HY_WARP_DEFAULT_2D 0
/* §4.6: a YSampled without "Interpolate" interpolates linearly between its sample planes */
#define HY_YSAMPLED_DEFAULT_INTERPOLATE 1
/* §6: the SwitchState at the root of every requested function */
#define HY_ROOT_SWITCH_STATE "Default"
/* further V2 choices, each in one function: hy_rotation() (Rotator/Ellipsoid/Cuboid/Cylinder
 * construction), cf_hy_curve_distexp/_dists, cf_hy_angle (degrees, 0 at the zero vector),
 * cf_hy_ramp (Gradient), the GradientWarp/VectorWarp evaluators (eval64.c: + signs, forward
 * differences), switch_node(), HY_ANCHOR (external anchor), external() (maps: NaN outside) */
/* §6 PositionsCellNoise (all in hyparse_HY_PCELL / cf_hy_pcell): 2-D providers place their points at
 * the query's y (distances in x/z); only positions within MaxDistance count, and a missing F1/F2
 * reads MaxDistance; Jitter: FNL hash of the lattice index (2-D providers: hash2 of (i, j), 3-D:
 * hash3), direction = FNL's RandVecs entry of that hash (256 directions, not a continuous angle),
 * distance = Magnitude * (bits 16..31 of the hash) / 65536; TriangularGrid2d: rows along x,
 * row j at z = j*sqrt(3)/2 shifted by j/2 in x; Scaler scales must be > 0; the Density return
 * type, Bound, Anchor, Jitter of a List and other providers are refused (not implemented) */
#define HY_PCELL_MAX_CELLS 4096
#define HY_PCELL_MAX_LIST 256
/* §4.2 Mix with other than 3 inputs: chunkfill refuses it (the spec's choice is a warning and
 * constant +0.0; chunkfill has no warning channel, so it is an error instead) */

/* HYTALE.md's CF_ERR_UNSUPPORTED: reported as a schema error whose message says "not implemented"
 * or "no documented semantics" (the public status list is unchanged) */
#define HY_ERR_UNSUPPORTED CF_ERR_SCHEMA

#include "kernels/cf_hytale.h"

typedef struct hexp {
    const char *name;
    const cJSON *v;  /* the exported node (an Exported's input or the ExportAs node) */
    cf_loc at;
    int state;       /* 0 not parsed, 1 being parsed, 2 parsed */
    int node;
    const char *sw;  /* the SwitchState node was parsed under (an import under another state parses again) */
} hexp;

typedef struct hc {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    cf_fields f; /* the field reader (base.h): errors into err, locations in the program arena */
    cJSON **roots;
    const char **files; /* display paths */
    int nfiles;
    hexp *exps;
    int nexps, capexps;
    int depth;
    const char *state;   /* V2 SwitchState of the subtree being parsed (HYTALE.md §6), "Default" at the root */
    const char **mapname; /* external maps copied into p->hy_maps: name -> offset */
    size_t *mapoff;
    int nmaps;
} hc;

/* hytale.c: the nodes every format makes (children first into c->p; the index, or -1 after a
 * located error) */
int hy_new_node(hc *c, int kind, cf_loc at, cf_node *n);
int hy_node_add(hc *c, const cf_node *n);
int hy_constant(hc *c, double v, cf_loc at);
/* 1 when s is a file name chunkfill accepts in a function id (letters, digits, _ - .) */
int hy_valid_name(const char *s);
/* v2.c: a V2 density node (object or bare number) -> its node index, or -1 */
int hy_node(hc *c, const cJSON *v, cf_loc at);
/* v2.c: registers the Exported nodes and ExportAs keys of a file (0, or -1) */
int hy_scan(hc *c, const cJSON *v, cf_loc at, int depth);
/* legacy.c: the node of hytale/Noise/<id>.json (its Parent chain resolved), or -1 */
int hy_legacy_function(hc *c, const char *id, cf_loc cli);
/* legacy.c: 1 when hytale/Noise/<id>.json is in the packs */
int hy_legacy_has(hc *c, const char *id);

#endif
