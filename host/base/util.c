/* util.c - arenas and the error record shared by every stage.
 *
 * An arena hands out zeroed blocks that live until arena_free(); a program's
 * graph and tables live in its arena. Errors: the first one recorded wins
 * (later stages return early once err_failed()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/base.h"

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

void *arena_alloc(cf_arena *a, size_t n)
{
    const size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    if (n == 0) n = align;
    struct arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strdup(cf_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = arena_alloc(a, n);
    if (d) memcpy(d, s, n);
    return d;
}

int arena_push_int(cf_arena *a, int **list, int n, int *cap, int v)
{
    if (n >= *cap) {
        int c = *cap ? *cap * 2 : 64;
        int *t = c > 0 ? arena_alloc(a, sizeof(int) * (size_t)c) : NULL;
        if (!t) return -1;
        if (n) memcpy(t, *list, sizeof(int) * (size_t)n);
        *list = t, *cap = c;
    }
    (*list)[n] = v;
    return 0;
}

char *arena_printf(cf_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *d = arena_alloc(a, (size_t)n + 1);
    if (!d) return NULL;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

void arena_free(cf_arena *a)
{
    struct arena_block *b = a->head;
    while (b) {
        struct arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
}

cf_status err_set(cf_error *e, cf_status st, const char *fmt, ...)
{
    if (!e) return st;
    if (e->status != CF_OK) return e->status;
    e->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    /* one line, always */
    for (char *c = e->message; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    return st;
}

int err_failed(const cf_error *e)
{
    return e && e->status != CF_OK;
}

const char *status_str(cf_status s)
{
    switch (s) {
    case CF_OK: return "ok";
    case CF_ERR_IO: return "io";
    case CF_ERR_JSON: return "json";
    case CF_ERR_SCHEMA: return "schema";
    case CF_ERR_REF: return "reference";
    case CF_ERR_CYCLE: return "cycle";
    case CF_ERR_LIMIT: return "limit";
    case CF_ERR_NOMEM: return "out of memory";
    case CF_ERR_ARG: return "argument";
    case CF_ERR_DEVICE: return "device";
    }
    return "unknown";
}

void limits_default(cf_limits *l)
{
    l->max_file_bytes = 64u << 20;
    l->max_nodes = 1u << 20;
    l->max_depth = 512;
    l->max_fill_bytes = (size_t)4 << 30;
}

/* one step of a pointer, escaped (~ as ~0, / as ~1) */
static size_t step_text(const cf_ptr *p, char *out, size_t n)
{
    char tmp[512];
    size_t l = 0;
    if (!p->key) {
        l = (size_t)snprintf(tmp, sizeof tmp, "/%d", p->index);
    } else {
        tmp[l++] = '/';
        for (const char *k = p->key; *k && l < sizeof tmp - 3; k++) {
            if (*k == '~') tmp[l++] = '~', tmp[l++] = '0';
            else if (*k == '/') tmp[l++] = '~', tmp[l++] = '1';
            else tmp[l++] = *k;
        }
    }
    if (l > n) l = n;
    memcpy(out, tmp, l);
    return l;
}

const char *ptr_text(const cf_ptr *ptr, char *buf, size_t n)
{
    /* the steps, root first */
    size_t depth = 0;
    for (const cf_ptr *p = ptr; p; p = p->parent) depth++;
    size_t len = 0;
    char step[600];
    for (const cf_ptr *p = ptr; p; p = p->parent) len += step_text(p, step, sizeof step);
    if (len < n) {
        size_t at = len;
        buf[at] = 0;
        for (const cf_ptr *p = ptr; p; p = p->parent) {
            size_t l = step_text(p, step, sizeof step);
            at -= l;
            memcpy(buf + at, step, l);
        }
        return buf;
    }
    /* too long: the first steps, "/...(K steps)...", the last steps */
    size_t half = (n - 48) / 2, tail = 0, tailsteps = 0;
    char *end = buf + n - 1;
    *end = 0;
    const cf_ptr *p = ptr;
    for (; p; p = p->parent) {
        size_t l = step_text(p, step, sizeof step);
        if (tail + l > half) break;
        tail += l;
        tailsteps++;
        memcpy(end - tail, step, l);
    }
    /* the head: the first steps from the root */
    const cf_ptr **chain = malloc(sizeof(cf_ptr *) * (depth ? depth : 1));
    size_t head = 0, headsteps = 0;
    if (chain) {
        size_t i = depth;
        for (const cf_ptr *q = ptr; q; q = q->parent) chain[--i] = q;
        for (i = 0; i < depth - tailsteps; i++) {
            size_t l = step_text(chain[i], step, sizeof step);
            if (head + l > half) break;
            memcpy(buf + head, step, l);
            head += l;
            headsteps++;
        }
        free(chain);
    }
    int m = snprintf(buf + head, 48, "/...(%zu more steps)...", depth - headsteps - tailsteps);
    memmove(buf + head + (size_t)m, end - tail, tail + 1);
    return buf;
}

/* ------------------------------------------------------------------ located JSON errors
 * Shared by every front-end (parse.c, libnoise.c, hytale.c, mc121.c): one line
 * "FILE#POINTER: message", pointers built on the program's arena. */
int loc_vfail(cf_error *err, cf_loc at, cf_status st, const char *fmt, va_list ap)
{
    char msg[512], ptr[320];
    vsnprintf(msg, sizeof msg, fmt, ap);
    err_set(err, st, "%s#%s: %s", at.file, ptr_text(at.ptr, ptr, sizeof ptr), msg);
    return -1;
}

cf_loc loc_key(cf_arena *a, cf_loc at, const char *key)
{
    cf_ptr *p = arena_alloc(a, sizeof *p);
    char *k = p ? arena_strdup(a, key) : NULL;
    if (!p || !k) return at;
    p->parent = at.ptr;
    p->key = k;
    return (cf_loc){at.file, p};
}

cf_loc loc_index(cf_arena *a, cf_loc at, int i)
{
    cf_ptr *p = arena_alloc(a, sizeof *p);
    if (!p) return at;
    p->parent = at.ptr;
    p->index = i;
    return (cf_loc){at.file, p};
}

const char *json_type(const cJSON *v)
{
    if (!v) return "nothing";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsObject(v)) return "an object";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    return "an invalid value";
}

int loc_fail(cf_error *err, cf_loc at, cf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    loc_vfail(err, at, st, fmt, ap);
    va_end(ap);
    return -1;
}

/* ------------------------------------------------------------------ reference cycles
 * (building the IR, shared by every front-end, is in host/ir/ir.c) */
/* "A -> B -> ... -> id": the part of a reference chain from the first id on (a cycle's
 * text in errors), cut to fit n bytes */
const char *cycle_text(char *buf, size_t n, const char *const *chain, int nchain, const char *id)
{
    int from = 0;
    buf[0] = 0;
    for (int i = 0; i < nchain; i++)
        if (strcmp(chain[i], id) == 0) from = i;
    for (int i = from; i < nchain; i++) {
        strncat(buf, chain[i], n - strlen(buf) - 1);
        strncat(buf, " -> ", n - strlen(buf) - 1);
    }
    strncat(buf, id, n - strlen(buf) - 1);
    return buf;
}
