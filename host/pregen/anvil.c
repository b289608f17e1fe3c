/* anvil.c - proto-chunks at the noise or surface stage -> chunk NBT -> Anvil region files.
 *
 * Input: a chunk's block palette indices (one byte per block, as cf_fill_blocks gives
 * them) and its stored biomes (as cf_fill_biomes gives them); output: the chunk's NBT
 * (sections with paletted block states and biomes, the world-generation heightmaps,
 * the status, the data version) and, per region, the region file bytes.
 * Every fact of the format, with its source: host/pregen/ANVIL.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pregen/pregen.h"

static int fail(cf_error *err, cf_status st, const char *msg)
{
    if (err) {
        err->status = st;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return -1;
}

/* ceil(log2(n)) for n >= 1 */
static int bits_for(int n)
{
    int b = 0;
    while ((1 << b) < n) b++;
    return b;
}

/* packs n values of `bits` bits into longs, 64/bits per long, none spanning two longs
 * (the rule since 1.16, ANVIL.md#packing); returns the number of longs */
static size_t pack(const uint16_t *v, size_t n, int bits, uint64_t *out)
{
    size_t per = (size_t)(64 / bits), nl = (n + per - 1) / per;
    memset(out, 0, nl * sizeof *out);
    for (size_t i = 0; i < n; i++) out[i / per] |= (uint64_t)v[i] << ((i % per) * (size_t)bits);
    return nl;
}

/* a section's palette in first-appearance order: local[i] = index into it */
static int local_palette(const uint8_t *v, size_t n, int nglobal, uint16_t *local, int *order)
{
    int map[256], k = 0;
    for (int i = 0; i < 256; i++) map[i] = -1;
    for (size_t i = 0; i < n; i++) {
        if (v[i] >= nglobal) return -1;
        if (map[v[i]] < 0) map[v[i]] = k, order[k++] = v[i];
        local[i] = (uint16_t)map[v[i]];
    }
    return k;
}

int anvil_blocks_motion(const char *name)
{
    static const char *const open[] = {"minecraft:air", "minecraft:water", "minecraft:lava", "minecraft:powder_snow"};
    size_t n = strcspn(name, "[");
    if (n == 0) return 0; /* an index the settings never produce */
    for (size_t i = 0; i < sizeof open / sizeof *open; i++)
        if (strlen(open[i]) == n && strncmp(name, open[i], n) == 0) return 0;
    return 1;
}

/* Blocks a stage writes by id alone (26.3's rules name states by id: the default state)
 * whose default state has properties, with those properties (ANVIL.md#block-states):
 * written out, as the game would, so that a reader that does not fill in defaults sees
 * the same state (PrismarineJS takes a block's first state). */
static const struct {
    const char *id, *props;
} default_props[] = {
    {"minecraft:water", "level=0"},       {"minecraft:lava", "level=0"},    {"minecraft:grass_block", "snowy=false"},
    {"minecraft:podzol", "snowy=false"},  {"minecraft:mycelium", "snowy=false"}, {"minecraft:deepslate", "axis=y"},
    {"minecraft:basalt", "axis=y"},
};

/* "k=v,k=v" (up to ']' or the end) -> a Properties compound of strings */
static void properties(cf_buf *b, const char *s)
{
    nbt_compound(b, "Properties");
    while (*s && *s != ']') {
        size_t kl = strcspn(s, "=");
        if (s[kl] != '=') break;
        const char *v = s + kl + 1;
        size_t vl = strcspn(v, ",]");
        char k[128], val[128];
        snprintf(k, sizeof k, "%.*s", (int)kl, s);
        snprintf(val, sizeof val, "%.*s", (int)vl, v);
        nbt_string(b, k, val);
        s = v + vl + (v[vl] == ',');
    }
    nbt_end(b);
}

/* a palette entry: Name and Properties: those of "id[k=v,...]" (1.18-1.21 rules' block
 * states), or the default state's for an id alone */
static void block_state(cf_buf *b, const char *name)
{
    const char *br = strchr(name, '[');
    char id[512];
    snprintf(id, sizeof id, "%.*s", br ? (int)(br - name) : (int)strlen(name), name);
    nbt_string(b, "Name", id);
    if (br) {
        properties(b, br + 1);
    } else {
        for (size_t i = 0; i < sizeof default_props / sizeof *default_props; i++)
            if (strcmp(name, default_props[i].id) == 0) properties(b, default_props[i].props);
    }
    nbt_end(b);
}

int anvil_chunk_nbt(cf_buf *out, const anvil_world *w, int32_t cx, int32_t cz, const uint8_t *blocks,
                    const uint8_t *biomes, cf_error *err)
{
    int nsec = w->height / 16, air = -1;
    for (int i = 0; i < w->nblocks; i++)
        if (strcmp(w->blocks[i], "minecraft:air") == 0) air = i;
    uint16_t local[4096];
    int order[256];
    uint64_t longs[4096 / 4];

    nbt_begin_root(out);
    nbt_int(out, "DataVersion", w->v.data_version);
    nbt_int(out, "xPos", cx);
    nbt_int(out, "yPos", w->min_y >> 4);
    nbt_int(out, "zPos", cz);
    nbt_string(out, "Status", w->status);
    nbt_long(out, "LastUpdate", 0);
    nbt_long(out, "InhabitedTime", 0);
    nbt_byte(out, "isLightOn", 0);
    nbt_list(out, "sections", NBT_COMPOUND, nsec);
    for (int s = 0; s < nsec; s++) {
        nbt_byte(out, "Y", (w->min_y >> 4) + s);
        /* block states: palette + data (at least 4 bits, none when one entry) */
        int k = local_palette(blocks + (size_t)s * 4096, 4096, w->nblocks, local, order);
        if (k < 0) return fail(err, CF_ERR_ARG, "pregen: a block palette index is out of range");
        nbt_compound(out, "block_states");
        nbt_list(out, "palette", NBT_COMPOUND, k);
        for (int i = 0; i < k; i++) block_state(out, w->blocks[order[i]]);
        if (k > 1) {
            int bits = bits_for(k) < 4 ? 4 : bits_for(k);
            nbt_long_array(out, "data", longs, pack(local, 4096, bits, longs));
        }
        nbt_end(out);
        /* biomes: palette + data (ceil(log2 n) bits, none when one entry) */
        k = local_palette(biomes + (size_t)s * 64, 64, w->nbiomes, local, order);
        if (k < 0) return fail(err, CF_ERR_ARG, "pregen: a biome palette index is out of range");
        nbt_compound(out, "biomes");
        nbt_list(out, "palette", NBT_STRING, k);
        for (int i = 0; i < k; i++) nbt_string_payload(out, w->biomes[order[i]]);
        if (k > 1) nbt_long_array(out, "data", longs, pack(local, 64, bits_for(k), longs));
        nbt_end(out);
        nbt_end(out); /* the section */
    }
    /* the world-generation heightmaps of the noise and surface stages (ANVIL.md#heightmaps):
     * per column (index z*16 + x) the highest block + 1 - min_y, 0 where there is none */
    uint16_t surf[256], floor[256];
    for (int c = 0; c < 256; c++) {
        surf[c] = floor[c] = 0;
        for (int y = w->height - 1; y >= 0; y--) {
            uint8_t v = blocks[(size_t)y * 256 + (size_t)c];
            if (!surf[c] && v != air) surf[c] = (uint16_t)(y + 1);
            if (v < w->nblocks && w->solid[v]) {
                floor[c] = (uint16_t)(y + 1);
                break;
            }
        }
    }
    int hb = bits_for(w->height + 1);
    nbt_compound(out, "Heightmaps");
    nbt_long_array(out, "OCEAN_FLOOR_WG", longs, pack(floor, 256, hb, longs));
    nbt_long_array(out, "WORLD_SURFACE_WG", longs, pack(surf, 256, hb, longs));
    nbt_end(out);
    nbt_list(out, "block_entities", NBT_COMPOUND, 0);
    nbt_list(out, "block_ticks", NBT_COMPOUND, 0);
    nbt_list(out, "fluid_ticks", NBT_COMPOUND, 0);
    nbt_end(out); /* the root */
    if (out->oom) return fail(err, CF_ERR_NOMEM, "pregen: out of memory");
    return 0;
}

int anvil_region_put(anvil_region *r, int lx, int lz, const cf_buf *nbt, cf_error *err)
{
    cf_buf *c = &r->chunk[lz * 32 + lx];
    uLongf n = compressBound((uLong)nbt->n);
    c->n = 0;
    buf_put(c, NULL, 0);
    if (c->cap < n) {
        uint8_t *p = realloc(c->p, n);
        if (!p) return fail(err, CF_ERR_NOMEM, "pregen: out of memory");
        c->p = p, c->cap = n;
    }
    if (compress2(c->p, &n, nbt->p, (uLong)nbt->n, Z_DEFAULT_COMPRESSION) != Z_OK)
        return fail(err, CF_ERR_NOMEM, "pregen: zlib compress2 failed");
    c->n = n;
    if ((n + 5 + 4095) / 4096 > 255) return fail(err, CF_ERR_LIMIT, "pregen: a chunk needs more than 255 sectors (1 MiB)");
    return 0;
}

int anvil_region_bytes(const anvil_region *r, cf_buf *out, cf_error *err)
{
    static const uint8_t zero[4096];
    uint32_t loc[1024], sector = 2;
    for (int i = 0; i < 1024; i++) {
        uint32_t len = r->chunk[i].n ? (uint32_t)((r->chunk[i].n + 5 + 4095) / 4096) : 0;
        loc[i] = len ? sector << 8 | len : 0;
        sector += len;
    }
    for (int i = 0; i < 1024; i++) buf_be32(out, loc[i]);
    buf_put(out, zero, 4096); /* timestamps: 0, so that every run writes the same bytes */
    for (int i = 0; i < 1024; i++) {
        const cf_buf *c = &r->chunk[i];
        if (!c->n) continue;
        buf_be32(out, (uint32_t)c->n + 1); /* the length counts the compression byte */
        buf_u8(out, 2);                    /* zlib */
        buf_put(out, c->p, c->n);
        buf_put(out, zero, (4096 - (c->n + 5) % 4096) % 4096);
    }
    if (out->oom) return fail(err, CF_ERR_NOMEM, "pregen: out of memory");
    return 0;
}

void anvil_region_free(anvil_region *r)
{
    for (int i = 0; i < 1024; i++) buf_free(&r->chunk[i]);
}
