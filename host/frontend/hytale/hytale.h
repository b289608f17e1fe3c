/* hytale.h - what the Hytale front-end (hytale.c, v2.c, legacy.c) offers besides its record in
 * frontend/registry.c: the seed rule and the lists of legacy types (tests enumerate them).
 */
#ifndef CF_HYTALE_FRONT_H
#define CF_HYTALE_FRONT_H

#include "ir/ir.h"

/* HYTALE.md §1 choice: the int seed of a seed label under a world seed */
int32_t hytale_seed(const char *label, int64_t world);
/* the legacy noise assets' 14 composite Types and 11 leaf NoiseTypes (HYTALE.md §2.5, §2.6),
 * NULL-terminated */
extern const char *const hytale_legacy_types[];
extern const char *const hytale_legacy_noise_types[];

#endif
