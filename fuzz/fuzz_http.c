/* fuzz_http.c - libFuzzer harness: the request heads of `serve --http` (host/net/http_head.c).
 *
 * The input is the bytes a client sends, NULs and all. As the event loop does (host/net/http.c),
 * the harness finds where the head ends (http_head_end; a head without an end is taken whole
 * when it is at the 8192-byte bound), parses it (http_head_parse), and for a head that parses
 * runs the Host check, the query parser and the tile path parser on its parts, with the
 * numbers of the query through http_int as the routes take them.
 * Checks (abort, "fuzz check failed"): the head's end is within the input and ends with a
 * line feed; a refusal is one of 400 405 414 431 505 with a reason; a parsed head has a
 * NUL-terminated path that starts with '/' and holds no byte outside visible ASCII, no '?'
 * and no '#'; a parsed tile path has a layer of [a-z0-9_], a zoom of 0-99 and coordinates
 * within 32 bits; a number http_int takes is within its bounds. The sanitizers do the rest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/http.h"

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz check failed: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > HTTP_HEAD_MAX + 64) return -1;
    /* a copy of exactly size bytes: reads past the input are found */
    char *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    size_t end = http_head_end(buf, size);
    check(end <= size, "the head ends within the input");
    if (end) check(buf[end - 1] == '\n', "the head ends with a line feed");
    size_t n = end ? end : size;
    http_head h;
    const char *why = NULL;
    int code = http_head_parse(buf, n, &h, &why);
    if (code) {
        check(code == 400 || code == 405 || code == 414 || code == 431 || code == 505, "a known refusal");
        check(why && *why, "a refusal says why");
    } else {
        check(end != 0, "a parsed head has ended");
        check(h.path[0] == '/', "the path starts with '/'");
        for (const char *c = h.path; *c; c++) check(*c > 32 && *c < 127 && *c != '?' && *c != '#', "visible path bytes");
        check(strlen(h.query) <= HTTP_TARGET_MAX && strlen(h.host) < sizeof h.host, "bounded parts");
        (void)http_host_ok(h.host, "127.0.0.1");
        (void)http_host_ok(h.host, "[::1]");
        http_query q;
        if (http_query_parse(h.query, &q, &why) == 0) {
            long long v;
            if (q.has_x && http_int(q.x, -2144000000LL, 2144000015LL, &v) == 0)
                check(v >= -2144000000LL && v <= 2144000015LL, "x within its bounds");
            if (q.has_z && http_int(q.z, 0, 99, &v) == 0) check(v >= 0 && v <= 99, "z within its bounds");
        } else {
            check(why && *why, "a query refusal says why");
        }
        char layer[64];
        int z;
        long long x, y;
        if (http_tile_path(h.path, layer, sizeof layer, &z, &x, &y) == 0) {
            check(layer[0] != 0 && strspn(layer, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(layer), "a layer name");
            check(z >= 0 && z <= 99, "a zoom of two digits");
            check(x >= -2147483648LL && x <= 2147483647LL && y >= -2147483648LL && y <= 2147483647LL, "32-bit tiles");
        }
    }
    free(buf);
    return 0;
}
