/* structure.h - the structure stage: a pack's structure sets and structures -> candidate chunks
 * -> each set's weighted choice -> each structure's checks at its start position, with the biome
 * source of host/biome (docs/structures.md says what is checked and what is not).
 *   sets.c   reads data/<ns>/worldgen/structure_set/NAME.json and the structures they name
 *            (worldgen/structure, 1.18.2's worldgen/configured_structure_feature), their biome
 *            lists and tags: one table per kind (placements, frequency reductions, structure types)
 *   place.c  the game's legacy random (java.util.Random's LCG), random_spread candidates,
 *            frequency reductions, exclusion zones, concentric rings with the biome search that
 *            moves each ring position, the weighted choice and the checks; the climate spawn point
 * A cf_structures owns its arena (ids, tables) and its ring positions (computed on demand). */
#ifndef CF_STRUCTURE_H
#define CF_STRUCTURE_H

#include <stdint.h>

#include "biome/biome.h"

enum { SP_RANDOM_SPREAD, SP_CONCENTRIC_RINGS, SP_KINDS };                   /* placement kinds */
enum { FR_DEFAULT, FR_LEGACY_TYPE_1, FR_LEGACY_TYPE_2, FR_LEGACY_TYPE_3, FR_KINDS }; /* frequency reductions */
enum { SPREAD_LINEAR, SPREAD_TRIANGULAR };
/* where a structure type's start position (and so its biome check) is */
enum {
    START_FIXED_Y,     /* (chunk's min x, y, min z): the nether fortress, y 64 */
    START_CENTRE,      /* on top of the chunk's centre (min + 8): the first occupied y of WORLD_SURFACE_WG
                        * (water included) there places the biome check: igloo, swamp hut */
    START_SINGLE_PIECE,/* START_CENTRE, and first the lowest of the corners (min, min + w, min + d) must be
                        * at or above sea level: desert pyramid 21 x 21, jungle temple 12 x 15 */
    START_UNMODELLED,  /* needs more of the game than chunkfill has: the reason is in the type table */
};

typedef struct st_type {
    const char *id;        /* "minecraft:fortress" */
    int start;             /* START_* */
    int y;                 /* START_FIXED_Y; START_SINGLE_PIECE: width (x) * 64 + depth (z) */
    const char *unverified; /* START_UNMODELLED, and START_CENTRE / SINGLE_PIECE without terrain: what the check would need */
} st_type;
extern const st_type st_types[];

typedef struct st_structure {
    const char *id;
    const char *file;      /* display path */
    const st_type *type;
    uint8_t in[CF_BIOME_PALETTE_MAX]; /* 1: palette biome i is in the structure's biomes */
    int all, none;         /* every biome of the source is in them / none is */
} st_structure;

typedef struct st_set {
    const char *id, *file;
    int kind;              /* SP_* */
    int32_t salt;
    float frequency;
    int reduce;            /* FR_* */
    int excl_set, excl_chunks; /* exclusion zone: index of the other set (-1: none), chunk count */
    int32_t locate[3];     /* locate_offset */
    int32_t spacing, separation, spread; /* random_spread (spread: SPREAD_*) */
    int32_t distance, count, ring_spread; /* concentric_rings */
    uint8_t preferred[CF_BIOME_PALETTE_MAX];
    int n;                 /* structures of the set */
    int *st, *weight;      /* index into cf_structures.st, weight */
    int active;            /* a structure of it can be in the source's biomes (the game's possible sets) */
    /* concentric_rings: approximate chunks (2 per position), the random each search starts from
     * (1.19.3+: a fork per position), found chunks and whether each was searched yet, and the
     * generator's state (place.c ring_next) */
    int32_t *approx, *ring;
    int64_t *fork;
    uint8_t *done;
    uint64_t rs;           /* the ring random's state before position `next` */
    double angle;
    int32_t next, in_circle, circle, spread_now;
} st_set;

struct cf_structures {
    cf_arena arena;
    cf_pack *pk;
    cf_biomes *b;
    int64_t seed;
    int legacy_rings;      /* 1.18-1.19.2: one random through every ring search (no forks) */
    int nsets, nst;
    st_set *sets;
    st_structure *st;
    /* the terrain (api/structures.c's cf_structures_terrain): y[i] = the first occupied y of
     * WORLD_SURFACE_WG at block (xz[2i], xz[2i + 1]), i < n (the top block that is not air after
     * the noise stage and its aquifer: water counts; min_y - 1 where none); 0, or -1 with err.
     * NULL: no terrain checks. */
    int (*surface)(void *ctx, size_t n, const int32_t *xz, int32_t *y, cf_error *err);
    void *surface_ctx;
    int32_t sea_level;
    /* the columns structures_find asked in one call before its checks (place.c surface_at reads
     * them; others are asked one at a time): open addressing, cap a power of two, NULL: none */
    struct st_col {
        int32_t x, z, y, used;
    } *cols;
    size_t ncols, cols_cap;
};

/* sets.c: reads every structure set of the packs (sorted by id) and their structures against the
 * biome source b; 0, or -1 after one located line in err */
int structures_load(cf_structures *s, cf_error *err);

/* the work of public functions (include/chunkfill.h documents them; host/api/public.c wraps each) */
cf_status structures_open(cf_structures **out, cf_pack *pack, cf_biomes *b, int64_t seed, const char *version, cf_error *err);
void structures_free(cf_structures *s);
cf_status structures_find(cf_structures *s, int32_t x0, int32_t z0, int32_t x1, int32_t z1, const char *const *only, int nonly,
                          int (*emit)(void *ctx, const cf_structure_start *st), void *ctx, cf_error *err);
int structures_sets(const cf_structures *s, const char **names, int max);
cf_status structures_locate(cf_structures *s, const char *const *only, int nonly, int32_t x, int32_t y, int32_t z, int radius,
                            cf_structure_start *out, int *found, cf_error *err);
cf_status spawn_climate(cf_biomes *b, const char *version, int32_t xz[2], cf_error *err);

/* place.c: the game's spawn block (MinecraftServer.setInitialSpawn): chunks on a square spiral
 * out to 5 around the climate point's chunk, in each the columns x, then z, the first column with
 * a block to stand on (PlayerRespawnLogic.getOverworldRespawnPos) on the blocks t->chunk gives:
 * *blocks = chunk (cx, cz)'s (cf_fill_blocks' order, palette t->names). 1 and out (x, y, z: the
 * block above the one stood on), 0 and the game's fallback in out (the chunk's centre at y 64, or
 * where 64 is below min_y at that column's WORLD_SURFACE height), -1 error. *unknown: a block id that decided it whose shape chunkfill takes as a full cube. */
typedef struct spawn_terrain {
    int (*chunk)(void *ctx, int32_t cx, int32_t cz, const uint8_t **blocks, cf_error *err);
    void *ctx;
    const char *const *names;
    int nnames;
    int32_t min_y, height;
} spawn_terrain;
int spawn_block(const spawn_terrain *t, const int32_t climate[2], int32_t out[3], const char **unknown, cf_error *err);

/* place.c, for tests: the candidate chunk of set i in the region holding chunk (cx, cz) */
void structures_candidate(const cf_structures *s, int i, int32_t cx, int32_t cz, int32_t out[2]);

#endif /* CF_STRUCTURE_H */
