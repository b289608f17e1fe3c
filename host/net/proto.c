/* proto.c - frame encoding and decoding of the offload protocol (proto.h,
 * PROTOCOL.md): little-endian writers into a growing cfp_buf, bounds-checked
 * readers (a short read sets a sticky flag, never reads past the payload), and
 * the FILL decoder shared by the server and the tests.
 */
#include <stdlib.h>
#include <string.h>

#include "net/proto.h"

int cfp_kind_size(int kind)
{
    switch (kind) {
    case CFP_DENSITY_F32: return 4;
    case CFP_DENSITY_F64: return 8;
    case CFP_BLOCKS_U8:
    case CFP_BIOMES_U8: return 1;
    case CFP_COLUMNS: return 12;
    default: return 0;
    }
}

size_t cfp_chunk_values(int kind, int height)
{
    return kind == CFP_BIOMES_U8 ? (size_t)(height / 4) * 16 : kind == CFP_COLUMNS ? 256 : (size_t)height * 256;
}

const char *cfp_err_name(int code)
{
    switch (code) {
    case CFP_E_MALFORMED: return "malformed";
    case CFP_E_TOO_LARGE: return "too_large";
    case CFP_E_VERSION: return "version";
    case CFP_E_AUTH: return "auth";
    case CFP_E_TIMEOUT: return "timeout";
    case CFP_E_BUSY: return "busy";
    case CFP_E_SHUTDOWN: return "shutdown";
    case CFP_E_UNKNOWN_CONFIG: return "unknown_config";
    case CFP_E_UNSUPPORTED_KIND: return "unsupported_kind";
    case CFP_E_BAD_CHUNK: return "bad_chunk";
    case CFP_E_TOO_MANY_CHUNKS: return "too_many_chunks";
    case CFP_E_DEADLINE: return "deadline";
    case CFP_E_CANCELLED: return "cancelled";
    case CFP_E_FILL_FAILED: return "fill_failed";
    default: return "unknown";
    }
}

void cfp_put(cfp_buf *b, const void *data, size_t n)
{
    if (b->oom) return;
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n) {
            if (cap > ((size_t)1 << 40)) {
                b->oom = 1;
                return;
            }
            cap *= 2;
        }
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, data, n);
    b->len += n;
}

void cfp_u8(cfp_buf *b, unsigned v)
{
    uint8_t c = (uint8_t)v;
    cfp_put(b, &c, 1);
}

void cfp_u16(cfp_buf *b, unsigned v)
{
    uint8_t c[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    cfp_put(b, c, 2);
}

void cfp_u32(cfp_buf *b, uint32_t v)
{
    uint8_t c[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    cfp_put(b, c, 4);
}

void cfp_u64(cfp_buf *b, uint64_t v)
{
    cfp_u32(b, (uint32_t)v);
    cfp_u32(b, (uint32_t)(v >> 32));
}

void cfp_f64(cfp_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    cfp_u64(b, u);
}

size_t cfp_begin(cfp_buf *b, int type)
{
    size_t at = b->len;
    cfp_u32(b, 0);
    cfp_u16(b, (unsigned)type);
    cfp_u16(b, 0);
    return at;
}

void cfp_end(cfp_buf *b, size_t at)
{
    if (b->oom) return;
    uint32_t n = (uint32_t)(b->len - at - CFP_HEADER);
    b->p[at] = (uint8_t)n, b->p[at + 1] = (uint8_t)(n >> 8), b->p[at + 2] = (uint8_t)(n >> 16), b->p[at + 3] = (uint8_t)(n >> 24);
}

void cfp_buf_free(cfp_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

uint16_t cfp_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
uint32_t cfp_le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
int32_t cfp_le32s(const uint8_t *p)
{
    uint32_t u = cfp_le32(p);
    int32_t s;
    memcpy(&s, &u, 4);
    return s;
}

const uint8_t *cfp_rd_bytes(cfp_rd *r, size_t n)
{
    if (r->bad || r->len - r->off < n) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->p + r->off;
    r->off += n;
    return p;
}

unsigned cfp_rd_u8(cfp_rd *r)
{
    const uint8_t *p = cfp_rd_bytes(r, 1);
    return p ? p[0] : 0;
}

unsigned cfp_rd_u16(cfp_rd *r)
{
    const uint8_t *p = cfp_rd_bytes(r, 2);
    return p ? cfp_le16(p) : 0;
}

uint32_t cfp_rd_u32(cfp_rd *r)
{
    const uint8_t *p = cfp_rd_bytes(r, 4);
    return p ? cfp_le32(p) : 0;
}

uint64_t cfp_rd_u64(cfp_rd *r)
{
    uint64_t lo = cfp_rd_u32(r);
    return lo | (uint64_t)cfp_rd_u32(r) << 32;
}

double cfp_rd_f64(cfp_rd *r)
{
    uint64_t u = cfp_rd_u64(r);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

int cfp_fill_parse(const uint8_t *p, size_t len, cfp_fill *f)
{
    cfp_rd r = {p, len, 0, 0};
    memset(f, 0, sizeof *f);
    f->id = cfp_rd_u32(&r);
    f->kind = (int)cfp_rd_u8(&r);
    f->config_len = cfp_rd_u8(&r);
    unsigned param = cfp_rd_u16(&r); /* offset 6: COLUMNS the stride; other kinds the stage (byte 6), byte 7 zero */
    f->seed = (int64_t)cfp_rd_u64(&r);
    f->deadline_ms = cfp_rd_u32(&r);
    f->n = cfp_rd_u32(&r);
    unsigned zero;
    if (f->kind == CFP_COLUMNS) f->stride = param ? param : 1, zero = f->stride > CFP_MAX_STRIDE;
    else f->stage = (int)(param & 0xff), zero = param >> 8;
    if (r.bad || zero != 0 || f->config_len == 0) return -1;
    f->config = (const char *)cfp_rd_bytes(&r, f->config_len);
    if (!f->config) return -1;
    /* exact length: the chunk list fills the rest */
    if ((uint64_t)(len - r.off) != (uint64_t)f->n * 8) return -1;
    f->chunks = p + r.off;
    return 0;
}
