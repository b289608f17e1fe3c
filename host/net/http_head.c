/* http_head.c - `serve --http`'s request heads: where a head ends, its request line and
 * headers, the Host check, the query and the tile path (http.h). Pure functions of the
 * bytes: no allocation, no state; every length is checked against its bound before a copy
 * and no search result is used before it is checked (fuzz/fuzz_http.c runs them). */
#include <stdlib.h>
#include <string.h>

#include "net/http.h"

size_t http_head_end(const char *h, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (h[i] != '\n') continue;
        if (h[i + 1] == '\n') return i + 2;
        if (h[i + 1] == '\r' && i + 2 < n && h[i + 2] == '\n') return i + 3;
    }
    return 0;
}

/* a line of h[*p..n) without its end (CRLF or LF): [*s, *s + *len); *p after it. -1 at a
 * bare CR or when no line end follows */
static int next_line(const char *h, size_t n, size_t *p, size_t *s, size_t *len)
{
    size_t i = *p;
    while (i < n && h[i] != '\n') {
        if (h[i] == '\r' && !(i + 1 < n && h[i + 1] == '\n')) return -1;
        i++;
    }
    if (i >= n) return -1;
    *s = *p;
    *len = i - *p - (i > *p && h[i - 1] == '\r');
    *p = i + 1;
    return 0;
}

static int is_tchar(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int http_head_parse(const char *h, size_t n, http_head *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (n > HTTP_HEAD_MAX) return *why = "request head over 8192 bytes", 431;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)h[i];
        if ((c < 32 && c != '\r' && c != '\n' && c != '\t') || c == 127) return *why = "a control byte in the request head", 400;
    }
    size_t p = 0, s, len;
    if (next_line(h, n, &p, &s, &len) < 0 || len == 0) return *why = "malformed request line", 400;
    /* METHOD SP TARGET SP HTTP/1.x: exactly two spaces */
    const char *line = h + s;
    const char *sp1 = memchr(line, ' ', len);
    if (!sp1) return *why = "malformed request line", 400;
    size_t ml = (size_t)(sp1 - line), rest = len - ml - 1;
    const char *sp2 = memchr(sp1 + 1, ' ', rest);
    if (!sp2) return *why = "malformed request line", 400;
    size_t tl = (size_t)(sp2 - sp1 - 1), vl = len - ml - 1 - tl - 1;
    const char *ver = sp2 + 1;
    if (ml == 0 || tl == 0 || vl != 8 || memcmp(ver, "HTTP/", 5) != 0) return *why = "malformed request line", 400;
    if (memcmp(ver, "HTTP/1.", 7) != 0 || ver[7] < '0' || ver[7] > '9') return *why = "only HTTP/1.x", 505;
    for (size_t i = 0; i < ml; i++)
        if (!is_tchar((unsigned char)line[i])) return *why = "malformed request line", 400;
    if (ml >= sizeof out->method) return *why = "only GET", 405;
    memcpy(out->method, line, ml);
    const char *t = sp1 + 1;
    if (tl > HTTP_TARGET_MAX) return *why = "request target over 2048 bytes", 414;
    if (t[0] != '/') return *why = "bad target (origin form: /PATH?QUERY)", 400;
    for (size_t i = 0; i < tl; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c <= 32 || c >= 127 || c == '#') return *why = "bad target (a byte outside visible ASCII, or a fragment)", 400;
    }
    const char *qm = memchr(t, '?', tl);
    size_t pl = qm ? (size_t)(qm - t) : tl;
    memcpy(out->path, t, pl);
    if (qm) memcpy(out->query, qm + 1, tl - pl - 1);
    size_t k = 0;
    for (size_t i = 0; i < tl && k + 1 < sizeof out->log; i++) out->log[k++] = t[i];
    /* header lines up to the empty one */
    for (;;) {
        if (next_line(h, n, &p, &s, &len) < 0) return *why = "malformed header line", 400;
        if (len == 0) break;
        const char *l = h + s;
        if (l[0] == ' ' || l[0] == '\t') return *why = "a folded header line", 400;
        const char *colon = memchr(l, ':', len);
        if (!colon || colon == l) return *why = "a header line without a name", 400;
        size_t nl = (size_t)(colon - l);
        for (size_t i = 0; i < nl; i++)
            if (!is_tchar((unsigned char)l[i])) return *why = "a header name with a bad byte", 400;
        if (nl == 4 && lower(l[0]) == 'h' && lower(l[1]) == 'o' && lower(l[2]) == 's' && lower(l[3]) == 't') {
            if (out->has_host) return *why = "a second Host header", 400;
            const char *v = colon + 1, *e = l + len;
            while (v < e && (*v == ' ' || *v == '\t')) v++;
            while (e > v && (e[-1] == ' ' || e[-1] == '\t')) e--;
            if ((size_t)(e - v) >= sizeof out->host) return *why = "Host too long", 400;
            memcpy(out->host, v, (size_t)(e - v));
            out->has_host = 1;
        }
    }
    if (strcmp(out->method, "GET") != 0) return *why = "only GET", 405;
    return 0;
}

/* 1 when h[0..n) is a dotted IPv4 address 127.a.b.c */
static int loopback4(const char *h, size_t n)
{
    if (n < 9 || memcmp(h, "127.", 4) != 0) return 0;
    int parts = 1, digits = 0, v = 0;
    for (size_t i = 4; i < n; i++) {
        if (h[i] == '.') {
            if (!digits) return 0;
            parts++, digits = 0, v = 0;
        } else if (h[i] >= '0' && h[i] <= '9') {
            v = v * 10 + (h[i] - '0');
            if (++digits > 3 || v > 255) return 0;
        } else {
            return 0;
        }
    }
    return digits && parts == 3;
}

int http_host_ok(const char *host, const char *listen_host)
{
    size_t n = strlen(host);
    if (n == 0) return 1;
    /* the port, where one is given: digits after the last ':' outside brackets */
    const char *end = host + n;
    const char *colon = strrchr(host, ':');
    const char *rb = strrchr(host, ']');
    if (colon && (!rb || colon > rb)) {
        if (colon[1] == 0) return 0;
        for (const char *c = colon + 1; *c; c++)
            if (*c < '0' || *c > '9') return 0;
        if (strlen(colon + 1) > 5) return 0;
        end = colon;
    }
    size_t hl = (size_t)(end - host);
    static const char localhost[] = "localhost";
    if (hl == sizeof localhost - 1) {
        size_t i = 0;
        while (i < hl && lower((unsigned char)host[i]) == localhost[i]) i++;
        if (i == hl) return 1;
    }
    if (loopback4(host, hl)) return 1;
    if (hl == 5 && memcmp(host, "[::1]", 5) == 0) return 1;
    return listen_host && *listen_host && strlen(listen_host) == hl && memcmp(host, listen_host, hl) == 0;
}

/* percent-decodes s[0..n) into out (NUL-terminated); -1 on a bad escape, a NUL or overflow */
static int url_decode(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n) return -1;
            int v = 0;
            for (int d = 1; d <= 2; d++) {
                int x = (unsigned char)s[i + (size_t)d];
                v = v * 16 + (x >= '0' && x <= '9' ? x - '0' : x >= 'a' && x <= 'f' ? x - 'a' + 10 : x >= 'A' && x <= 'F' ? x - 'A' + 10 : -999);
            }
            if (v < 0) return -1;
            c = v, i += 2;
        } else if (c == '+') {
            c = ' ';
        }
        if (c == 0 || k + 1 >= cap) return -1;
        out[k++] = (char)c;
    }
    out[k] = 0;
    return 0;
}

int http_query_parse(const char *q, http_query *out, const char **why)
{
    memset(out, 0, sizeof *out);
    while (q && *q) {
        const char *amp = strchr(q, '&'), *end = amp ? amp : q + strlen(q);
        const char *eq = memchr(q, '=', (size_t)(end - q));
        if (!eq) return *why = "a query parameter without '='", -1;
        size_t kl = (size_t)(eq - q);
        char *dst = NULL;
        size_t cap = 0;
        int *has = NULL;
#define KEY(NAME, FIELD)                                                                                                       \
    if (kl == strlen(NAME) && memcmp(q, NAME, kl) == 0) dst = out->FIELD, cap = sizeof out->FIELD, has = &out->has_##FIELD;
        KEY("seed", seed) else KEY("settings", settings) else KEY("dimension", dimension) else KEY("x", x) else KEY("z", z)
        else KEY("below", below) else KEY("area", area) else KEY("structure", structure)
#undef KEY
        if (has) {
            if (*has) return *why = "a repeated query parameter", -1;
            if (url_decode(eq + 1, (size_t)(end - eq - 1), dst, cap) < 0) return *why = "a malformed or too long query value", -1;
            *has = 1;
        }
        q = amp ? amp + 1 : NULL;
    }
    return 0;
}

int http_int(const char *s, long long lo, long long hi, long long *v)
{
    const char *p = s;
    int neg = *p == '-';
    if (neg) {
        if (lo >= 0) return -1;
        p++;
    }
    size_t nd = 0;
    long long m = 0;
    for (; *p; p++, nd++) {
        if (*p < '0' || *p > '9' || nd >= 11) return -1;
        m = m * 10 + (*p - '0');
    }
    if (nd == 0) return -1;
    *v = neg ? -m : m;
    return *v >= lo && *v <= hi ? 0 : -1;
}

/* the next path segment of *p up to '/' (or the end): copied into out (cap bytes) */
static int segment(const char **p, char *out, size_t cap)
{
    const char *e = strchr(*p, '/');
    size_t n = e ? (size_t)(e - *p) : strlen(*p);
    if (n == 0 || n >= cap) return -1;
    memcpy(out, *p, n);
    out[n] = 0;
    *p += n + (e != NULL);
    return e != NULL;
}

int http_tile_path(const char *path, char *layer, size_t lcap, int *z, long long *x, long long *y)
{
    if (path[0] != '/') return -1;
    const char *p = path + 1;
    char zs[8], xs[16], ys[24];
    if (segment(&p, layer, lcap < 64 ? lcap : 64) != 1 || segment(&p, zs, sizeof zs) != 1 || segment(&p, xs, sizeof xs) != 1 ||
        segment(&p, ys, sizeof ys) != 0)
        return -1;
    for (const char *c = layer; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) return -1;
    size_t yl = strlen(ys);
    if (yl < 5 || strcmp(ys + yl - 4, ".png") != 0) return -1;
    ys[yl - 4] = 0;
    long long zv;
    if (strlen(zs) > 2 || http_int(zs, 0, 99, &zv) < 0) return -1;
    if (http_int(xs, -2147483648LL, 2147483647LL, x) < 0 || http_int(ys, -2147483648LL, 2147483647LL, y) < 0) return -1;
    *z = (int)zv;
    return 0;
}
