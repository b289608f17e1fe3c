/* proto.h - the chunkfill offload protocol (host/net/PROTOCOL.md): frame layout,
 * message types, output kinds, error codes, and bounds-checked little-endian
 * readers and writers shared by the server (serve.c) and the C client
 * (client.c). Nothing here allocates except cfp_buf, which grows with realloc
 * and records failure in a sticky flag (the caller checks it once).
 */
#ifndef CF_PROTO_H
#define CF_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define CFP_MAGIC 0x4C494643u /* "CFIL" as little-endian bytes */
#define CFP_VERSION 2     /* the newest version spoken (2: the FILL stage byte, flag bit 2) */
#define CFP_VERSION_MIN 1 /* the oldest a server accepts */
#define CFP_HEADER 8          /* u32 payload length, u16 type, u16 zero */

/* limits (PROTOCOL.md "Limits") */
#define CFP_MAX_TOKEN 256
#define CFP_MAX_NAME 255
#define CFP_MAX_MESSAGE 512
#define CFP_CLIENT_FRAME_MAX (1u << 20)  /* the largest client frame a server may announce */
#define CFP_SERVER_FRAME_MAX (64u << 20) /* the largest frame a server ever sends */

typedef enum cfp_type {
    CFP_HELLO = 0x01,
    CFP_FILL = 0x02,
    CFP_CANCEL = 0x03,
    CFP_PING = 0x04,
    CFP_STATS = 0x05,
    CFP_HELLO_OK = 0x81,
    CFP_CHUNK = 0x82,
    CFP_DONE = 0x83,
    CFP_ERROR = 0x84,
    CFP_PONG = 0x85,
    CFP_STATS_OK = 0x86
} cfp_type;

/* output kinds: what one value of a CHUNK frame is */
typedef enum cfp_kind {
    CFP_DENSITY_F32 = 1, /* float32 density, the 26.3 dialect */
    CFP_DENSITY_F64 = 2, /* float64 density (the 1.18-1.21 dialects) */
    CFP_BLOCKS_U8 = 3,   /* uint8 block ids (palette; reserved) */
    CFP_BIOMES_U8 = 4,   /* uint8 biome ids (palette), one per quart cell (cf_fill_biomes) */
    CFP_COLUMNS = 5      /* 12-byte column records, 16 x 16 sampled columns at a stride (cf_map_columns_get) */
} cfp_kind;
#define CFP_MAX_STRIDE 4096 /* COLUMNS: the largest stride */
int cfp_kind_size(int kind); /* bytes per value, 0 for an unknown kind */
/* values of one chunk: a block each (height * 256), BIOMES_U8 a quart cell each (height * 4),
 * COLUMNS a sampled column each (256) */
size_t cfp_chunk_values(int kind, int height);

typedef enum cfp_err {
    CFP_E_MALFORMED = 1,
    CFP_E_TOO_LARGE = 2,
    CFP_E_VERSION = 3,
    CFP_E_AUTH = 4,
    CFP_E_TIMEOUT = 5,
    CFP_E_BUSY = 6,
    CFP_E_SHUTDOWN = 7,
    CFP_E_UNKNOWN_CONFIG = 16,
    CFP_E_UNSUPPORTED_KIND = 17,
    CFP_E_BAD_CHUNK = 18,
    CFP_E_TOO_MANY_CHUNKS = 19,
    CFP_E_DEADLINE = 20,
    CFP_E_CANCELLED = 21,
    CFP_E_FILL_FAILED = 22
} cfp_err;
const char *cfp_err_name(int code); /* "malformed", ...; "unknown" for others */

/* a growing output buffer; oom is sticky */
typedef struct cfp_buf {
    uint8_t *p;
    size_t len, cap;
    int oom;
} cfp_buf;
void cfp_put(cfp_buf *b, const void *data, size_t n);
void cfp_u8(cfp_buf *b, unsigned v);
void cfp_u16(cfp_buf *b, unsigned v);
void cfp_u32(cfp_buf *b, uint32_t v);
void cfp_u64(cfp_buf *b, uint64_t v);
void cfp_f64(cfp_buf *b, double v);
/* starts a frame of type t; returns its offset for cfp_end */
size_t cfp_begin(cfp_buf *b, int type);
void cfp_end(cfp_buf *b, size_t at); /* writes the payload length */
void cfp_buf_free(cfp_buf *b);

/* a bounds-checked reader over one payload: reads past the end set bad and give 0 */
typedef struct cfp_rd {
    const uint8_t *p;
    size_t len, off;
    int bad;
} cfp_rd;
unsigned cfp_rd_u8(cfp_rd *r);
unsigned cfp_rd_u16(cfp_rd *r);
uint32_t cfp_rd_u32(cfp_rd *r);
uint64_t cfp_rd_u64(cfp_rd *r);
double cfp_rd_f64(cfp_rd *r);
const uint8_t *cfp_rd_bytes(cfp_rd *r, size_t n); /* NULL (and bad) when short */
int32_t cfp_le32s(const uint8_t *p);
uint32_t cfp_le32(const uint8_t *p);
uint16_t cfp_le16(const uint8_t *p);

/* a decoded FILL payload (pointers into the frame) */
typedef struct cfp_fill {
    uint32_t id;
    int kind;
    int stage;       /* other kinds: byte 6 (BLOCKS_U8: 0 the noise stage, 1 the surface stage, version 2); byte 7 must be 0 */
    unsigned stride; /* COLUMNS: the u16 at offset 6 (0 read as 1) */
    int64_t seed;
    uint32_t deadline_ms;
    uint32_t n;
    const char *config; /* not NUL-terminated */
    size_t config_len;
    const uint8_t *chunks; /* n x (i32 x, i32 z), little-endian */
} cfp_fill;
/* 0 when the payload is a well-formed FILL (lengths exact), -1 otherwise */
int cfp_fill_parse(const uint8_t *p, size_t len, cfp_fill *f);

#endif
