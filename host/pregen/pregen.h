/* pregen.h - the pregeneration stage (host/pregen/): regions of chunks -> files.
 *
 *   nbt.c     a small NBT writer into a growable byte buffer (big-endian, named tags)
 *   anvil.c   one proto-chunk (noise or surface stage) -> chunk NBT; chunks -> an Anvil region
 *             file (r.X.Z.mca) in memory; ANVIL.md holds the format facts and their sources
 *   pregen.c  cf_pregen_prepare / cf_pregen_run: the manifest, the region loop, atomic files
 * Everything is built in memory per region and written once (temporary name + rename).
 */
#ifndef CF_PREGEN_H
#define CF_PREGEN_H

#include <stddef.h>
#include <stdint.h>

#include "chunkfill.h"

/* a growable byte buffer; on allocation failure it sets oom and stops growing */
typedef struct cf_buf {
    uint8_t *p;
    size_t n, cap;
    int oom;
} cf_buf;
void buf_put(cf_buf *b, const void *p, size_t n);
void buf_u8(cf_buf *b, unsigned v);
void buf_be32(cf_buf *b, uint32_t v);
void buf_free(cf_buf *b);

/* NBT (tags as the game numbers them) */
enum { NBT_END = 0, NBT_BYTE = 1, NBT_INT = 3, NBT_LONG = 4, NBT_STRING = 8, NBT_LIST = 9, NBT_COMPOUND = 10,
       NBT_LONG_ARRAY = 12 };
void nbt_begin_root(cf_buf *b);                     /* the unnamed root compound */
void nbt_compound(cf_buf *b, const char *name);     /* a named compound; close with nbt_end */
void nbt_end(cf_buf *b);
void nbt_byte(cf_buf *b, const char *name, int v);
void nbt_int(cf_buf *b, const char *name, int32_t v);
void nbt_long(cf_buf *b, const char *name, int64_t v);
void nbt_string(cf_buf *b, const char *name, const char *s);
void nbt_long_array(cf_buf *b, const char *name, const uint64_t *v, size_t n);
void nbt_list(cf_buf *b, const char *name, int type, int32_t n); /* then n unnamed payloads */
void nbt_string_payload(cf_buf *b, const char *s);

/* The facts of one game version (ANVIL.md): its name and data version. */
typedef struct anvil_version {
    const char *game;
    int32_t data_version;
} anvil_version;

/* What a chunk writer needs besides the chunk's arrays. */
typedef struct anvil_world {
    anvil_version v;
    const char *status;        /* "minecraft:noise" or "minecraft:surface" */
    int min_y, height;
    const char *const *blocks; /* block palette (cf_block_palette) */
    int nblocks;
    const uint8_t *solid;      /* per block palette entry: 1 if it blocks motion (OCEAN_FLOOR_WG) */
    const char *const *biomes; /* biome palette (cf_biomes_palette) */
    int nbiomes;
} anvil_world;

/* 1 if block state name ("minecraft:id" or "minecraft:id[k=v,...]") blocks motion (the
 * OCEAN_FLOOR_WG heightmap, ANVIL.md#heightmaps): every block a noise or surface stage
 * writes but air, the fluids and powder snow */
int anvil_blocks_motion(const char *name);
/* Appends the NBT of chunk (cx, cz) at w->status: blocks[((y*16 + z)*16 + x)]
 * (palette indices, height*256 of them), biomes[((qy*4 + qz)*4 + qx)] (height/4*16).
 * Returns 0, or -1 when a palette index is out of range (err set). */
int anvil_chunk_nbt(cf_buf *out, const anvil_world *w, int32_t cx, int32_t cz, const uint8_t *blocks,
                    const uint8_t *biomes, cf_error *err);

/* A region file under construction: per local chunk (x + 32*z) its compressed NBT. */
typedef struct anvil_region {
    cf_buf chunk[1024];
} anvil_region;
/* Compresses chunk NBT (zlib, type 2) into slot (lx, lz); 0 or -1 (err set). */
int anvil_region_put(anvil_region *r, int lx, int lz, const cf_buf *nbt, cf_error *err);
/* The whole region file: the 8 KiB header (locations, timestamps 0), the chunks in slot
 * order, each padded to 4 KiB sectors. 0 or -1 (err set). */
int anvil_region_bytes(const anvil_region *r, cf_buf *out, cf_error *err);
void anvil_region_free(anvil_region *r);

#endif
