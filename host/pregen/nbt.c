/* nbt.c - a small writer of the game's NBT format into a growable buffer.
 *
 * Big-endian numbers, tags named by a u16 length + modified UTF-8 (our names and ids
 * are ASCII, where it equals UTF-8). Input: calls in document order; output: bytes in
 * a cf_buf the caller owns (buf_free). Format: host/pregen/ANVIL.md#nbt.
 */
#include <stdlib.h>
#include <string.h>

#include "pregen/pregen.h"

void buf_put(cf_buf *b, const void *p, size_t n)
{
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q, b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}
void buf_u8(cf_buf *b, unsigned v)
{
    uint8_t c = (uint8_t)v;
    buf_put(b, &c, 1);
}
static void buf_be16(cf_buf *b, unsigned v)
{
    uint8_t c[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    buf_put(b, c, 2);
}
void buf_be32(cf_buf *b, uint32_t v)
{
    uint8_t c[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    buf_put(b, c, 4);
}
static void buf_be64(cf_buf *b, uint64_t v)
{
    buf_be32(b, (uint32_t)(v >> 32));
    buf_be32(b, (uint32_t)v);
}
void buf_free(cf_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static void put_name(cf_buf *b, int type, const char *name)
{
    size_t n = strlen(name);
    buf_u8(b, (unsigned)type);
    buf_be16(b, (unsigned)n);
    buf_put(b, name, n);
}

void nbt_begin_root(cf_buf *b) { put_name(b, NBT_COMPOUND, ""); }
void nbt_compound(cf_buf *b, const char *name) { put_name(b, NBT_COMPOUND, name); }
void nbt_end(cf_buf *b) { buf_u8(b, NBT_END); }
void nbt_byte(cf_buf *b, const char *name, int v)
{
    put_name(b, NBT_BYTE, name);
    buf_u8(b, (unsigned)v);
}
void nbt_int(cf_buf *b, const char *name, int32_t v)
{
    put_name(b, NBT_INT, name);
    buf_be32(b, (uint32_t)v);
}
void nbt_long(cf_buf *b, const char *name, int64_t v)
{
    put_name(b, NBT_LONG, name);
    buf_be64(b, (uint64_t)v);
}
void nbt_string_payload(cf_buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_be16(b, (unsigned)n);
    buf_put(b, s, n);
}
void nbt_string(cf_buf *b, const char *name, const char *s)
{
    put_name(b, NBT_STRING, name);
    nbt_string_payload(b, s);
}
void nbt_long_array(cf_buf *b, const char *name, const uint64_t *v, size_t n)
{
    put_name(b, NBT_LONG_ARRAY, name);
    buf_be32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) buf_be64(b, v[i]);
}
void nbt_list(cf_buf *b, const char *name, int type, int32_t n)
{
    put_name(b, NBT_LIST, name);
    buf_u8(b, n ? (unsigned)type : NBT_END); /* an empty list has element type End, as the game writes it */
    buf_be32(b, (uint32_t)n);
}
