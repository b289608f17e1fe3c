/* cf_rules.h - the kinds of the surface stage's rule table (../shared/MATERIAL-RULES.md §4, §6),
 * once for the host and the device: the rows a front-end compiles a 1.18-1.21 `surface_rule`
 * or a 26.3 `material_rule` into (host/ir/rules.h), which kernels/cf_surface.h walks on the CPU
 * (host/cpu/surface.c) and in the generated OpenCL (host/opencl/emit.c).
 */
#ifndef CF_RULES_KINDS_H
#define CF_RULES_KINDS_H

/* row kinds: rules (result: a block or nothing) and conditions (true/false) */
enum {
    SR_BLOCK = 0,   /* a[0] block (blocks[])                                         */
    SR_SEQUENCE,    /* kids[0..n): the first non-null result                          */
    SR_CONDITION,   /* a[0] condition row, a[1] rule row                              */
    SR_BANDLANDS,   /* the clay band at (x, y, z) (§6.3)                               */
    SR_ORE_VEIN,    /* 26.3 (§5.3): a[0..2] ore, raw, filler blocks; a[3..5] density,
                       richness, filler_gap outputs; f raw_ore_chance                 */
    SC_STONE_DEPTH, /* a[0] offset, a[1] add_surface_depth, a[2] secondary range, a[3] ceiling */
    SC_Y_ABOVE,     /* a[0] anchor y, a[1] surface_depth_multiplier, a[2] add_stone_depth */
    SC_WATER,       /* a[0] offset, a[1] surface_depth_multiplier, a[2] add_stone_depth */
    SC_GRADIENT,    /* a[0] true_at_and_below y, a[1] false_at_and_above y, a[2] random name (names[]) */
    SC_NOISE,       /* a[0] noise output, a[1] is_3d; d[0] min, d[1] max               */
    SC_BIOME,       /* kids[0..n): biomes (biomes[])                                   */
    SC_NOT,         /* a[0] condition row                                              */
    SC_HOLE,
    SC_STEEP,
    SC_ABOVE_PRELIMINARY,
    SC_TEMPERATURE,
    SR_KINDS
};

/* the noises every surface stage reads (program outputs cf_rules.fixed[]): 1.21 SurfaceSystem */
enum { SN_SURFACE = 0, SN_SECONDARY, SN_BANDS_OFFSET, SN_BADLANDS_SURFACE, SN_BADLANDS_PILLAR, SN_BADLANDS_ROOF,
       SN_ICEBERG_SURFACE, SN_ICEBERG_PILLAR, SN_ICEBERG_ROOF, SN_COUNT };

/* the kinds of biome the surface stage's extensions run in */
enum { SF_BIO_OTHER = 0, SF_BIO_ERODED_BADLANDS = 1, SF_BIO_FROZEN_OCEAN = 2 };

#endif /* CF_RULES_KINDS_H */
