/* emit_text.c - the OpenCL generator's text builder: a growing string written printf-style
 * (sbf; out of memory is remembered in the builder and reported once by the program's
 * generator), exact float and double literals, and the comments naming a node's source. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/emit_gen.h"

void sbf(sb *b, const char *fmt, ...)
{
    if (b->oom) return;
    if (!b->s) { /* a first buffer, so that s + len is never arithmetic on NULL */
        if (!(b->s = malloc(b->cap = 4096))) {
            b->oom = 1;
            return;
        }
        b->s[0] = 0;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

/* an exact float literal */
void flit(sb *b, float f)
{
    if (isinf(f)) sbf(b, f > 0 ? "INFINITY" : "(-INFINITY)");
    else if (f != f) sbf(b, "NAN");
    else sbf(b, "(%af)", (double)f);
}
void dlit(sb *b, double d) { sbf(b, "(%a)", d); }

void dtable(sb *b, const char *name, int id, const double *v, int n)
{
    sbf(b, "__constant double %s%d[%d] = {", name, id, n);
    for (int k = 0; k < n; k++) sbf(b, "%s", k ? ", " : ""), dlit(b, v[k]);
    sbf(b, "};\n");
}

/* a comment naming the node's source; the pointer may hold any text: keep it out of the comment syntax */
static void src_text(sb *b, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_.-/:~<>", c);
        if (c == '*' || !ok) c = '?';
        sbf(b, "%c", c);
    }
}
void src_comment(sb *b, const cf_node *n, const char *indent)
{
    sbf(b, "%s/* ", indent);
    src_text(b, n->loc.file);
    sbf(b, "#");
    char ptr[400];
    src_text(b, ptr_text(n->loc.ptr, ptr, sizeof ptr));
    sbf(b, " */\n");
}
int emit_table_limit(const cf_node *n, cf_error *err)
{
    int count = 0;
    const char *what = NULL;
    if (n->kind == NK_INTERVAL_SELECT) count = n->nfa, what = "thresholds";
    else if (n->kind == NK_M_INTERVAL_SELECT) count = n->nda, what = "thresholds";
    else if (n->kind == NK_SPLINE) count = n->nfa / 2, what = "spline points";
    else if (n->kind == NK_M_SPLINE) count = n->nda / 2, what = "spline points";
    if (count <= EMIT_MAX_TABLE) return 0;
    char ptr[256];
    err_set(err, CF_ERR_LIMIT, "%s#%s: %d %s: the device backend handles at most %d in one node (a CPU fill has no limit: --device cpu, or auto)",
            n->loc.file, ptr_text(n->loc.ptr, ptr, sizeof ptr), count, what, EMIT_MAX_TABLE);
    return -1;
}
