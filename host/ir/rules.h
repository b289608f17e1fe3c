/* rules.h - the surface stage's rule table (../shared/MATERIAL-RULES.md §4, §6): what a
 * front-end compiles a 1.18-1.21 `surface_rule` or a 26.3 `material_rule` into, and what the
 * back ends walk. One row per rule or condition; children are row indices; blocks, biomes and
 * random names are indices into the table's lists; noises are program outputs.
 */
#ifndef CF_RULES_H
#define CF_RULES_H

/* distinct block states one surface or material rule may name: block outputs hold one byte per block
 * (255 states, cpu/surface.c CF_BLOCK_PALETTE, with snow_block and packed_ice) */
#define CF_RULE_MAX_BLOCKS 253

/* the row kinds SR_, SC_ and the fixed noises SN_ */
#include "kernels/cf_rules.h"

typedef struct cf_rrow {
    int kind;
    int a[6];
    double d[2];
    float f;
    int n;
    int *kids;
} cf_rrow;

typedef struct cf_rules {
    int nrows;
    cf_rrow *rows;
    int root;               /* the rule the stage applies */
    int nblocks;            /* block ids (result states), "minecraft:name[prop=value,...]" */
    const char **blocks;
    int nbiomes;            /* biome ids the conditions name */
    const char **biomes;
    int nnames;             /* random names of vertical gradients */
    const char **names;
    int fixed[SN_COUNT];    /* program output of each fixed noise */
    int band_block[7];      /* blocks[] of terracotta, orange, yellow, brown, red, white, light_gray */
    int f32;                /* 26.3: material rules on every non-air non-fluid block, f32 noises */
} cf_rules;

#endif /* CF_RULES_H */
