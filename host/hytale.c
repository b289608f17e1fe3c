/* hytale.c - the Hytale front-end (HYTALE.md): World Gen V2 density graphs and
 * legacy noise assets -> NF_F64 IR nodes (host/hytale.def), evaluated by
 * eval64.c and emitted by emit.c with the math of kernels/cf_hytale.h.
 */
#include <stdint.h>

#include "cf.h"

/* HYTALE.md §1 UNK choice (one place): the FNL integer seed of a seed label is
 * Java's String.hashCode of the label plus the world seed's low 32 bits, wrapping. */
int32_t hytale_seed(const char *label, int64_t world)
{
    return (int32_t)((uint32_t)java_string_hash(label) + (uint32_t)(uint64_t)world);
}
