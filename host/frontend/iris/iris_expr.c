/* iris_expr.c - Iris expressions (expressions/<key>.json, the Paralithic
 * language) and image maps (IrisImageMap over images/<key>.png) -> graph IR of
 * the double dialect (host/ir/nodes_iris.def: IRIS_XOP, IRIS_XCALL, IRIS_IMAGE; the CNG
 * around them is iris.c's IRIS_SCNG). The facts relied on are in
 * host/frontend/iris/expressions.md (Iris and Paralithic classes, commits).
 *
 * Expressions: the text is tokenized and parsed as Paralithic 0.8.1 does
 * (right-recursive descent whose operators are re-ordered to the left, so
 * `a - b - c` and `a ^ b ^ c` group to the left; a '-' directly before a digit
 * is part of the number), then simplified as Paralithic does before compiling
 * (constant folding, the re-association of constants in + and *, x^const
 * rewrites), then lowered to IRIS_XOP nodes whose kernel (cf_ir_xop) has the
 * semantics of the compiled bytecode. Variables are style CNGs sampled at the
 * point or constants; functions are style CNGs sampled at their arguments.
 * Engine-bound values and functions without a StrictMath implementation here
 * are refused with a located error. A malformed expression gives
 * "FILE#/expression: column N: message".
 *
 * Image maps: the PNG is decoded with libpng (8-bit RGB, RGBA or palette, as
 * Java's getRGB sees them), each pixel's channel value computed once on the
 * host (java.awt.Color.RGBtoHSB in binary32 for the HSB channels) and stored
 * in the node; iris_seeds copies the values into the world table, which both
 * the CPU evaluator and OpenCL read (cf_ir_img_raw).
 */
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "kernels/cf_iris.h"
#include "ir/ir.h"
#include "frontend/iris/iris.h"

#define MAX_IMAGE_PIXELS (4 << 20)

/* ------------------------------------------------------------------ nodes */
static int add_node(cf_program *p, cf_node *n, cf_loc at, const int *in, int nin, cf_error *err)
{
    n->flags = node_flags[n->kind];
    n->prec = PREC_F64;
    n->noise = -1;
    n->loc = at;
    if (ir_set_inputs(p, n, nin, err) < 0) return -1;
    for (int k = 0; k < nin; k++) n->in[k] = in[k];
    return ir_node_add(p, NULL, n, "graph", err);
}
static int xop(cf_program *p, int op, const int *in, int nin, double k, cf_loc at, cf_error *err)
{
    cf_node n = {0};
    n.kind = NK_IRIS_XOP;
    n.i[0] = op;
    n.d[0] = k;
    return add_node(p, &n, at, in, nin, err);
}

/* ------------------------------------------------------------------ tokens (Paralithic's Tokenizer) */
enum { TK_EOI, TK_NUM, TK_ID, TK_KEY, TK_SYM, TK_STR };
typedef struct tok {
    int type, col; /* col: 1-based offset of the first character in the expression */
    char text[64];
} tok;

/* expression AST (Paralithic's nodes) */
enum { XK_CONST, XK_INV, XK_LOCAL, XK_LET, XK_BIN, XK_NEG, XK_ABS, XK_NAT, XK_IF, XK_DYN };
enum { B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_POW, B_LT, B_LE, B_EQ, B_GE, B_GT, B_NE, B_AND, B_OR };
static const int bprio[] = {3, 3, 4, 4, 4, 5, 2, 2, 2, 2, 2, 2, 1, 1};
typedef struct xn {
    int kind, op, sealed;
    int a, b, c; /* operands; XK_LET: a bound, b body; XK_LOCAL: a the XK_LET */
    int nargs;
    double v;    /* XK_CONST */
    int lowered; /* lowering memo (node id + 1) */
} xn;

#define MAX_TOKS 4096
#define MAX_XN 8192
#define MAX_VARS 64
#define MAX_LOCALS 64
#define MAX_NEST 200

/* built-in functions: name, arguments, CF_IX_* (-1: no StrictMath implementation here) */
static const struct {
    const char *name;
    int args, op;
} natives[] = {
    {"sin", 1, CF_IX_SIN},   {"cos", 1, CF_IX_COS},   {"tan", 1, -1},          {"floor", 1, CF_IX_FLOOR}, {"ceil", 1, CF_IX_CEIL},
    {"round", 1, CF_IX_ROUND}, {"pow", 2, CF_IX_POW}, {"min", 2, CF_IX_MIN},   {"max", 2, CF_IX_MAX},     {"sqrt", 1, CF_IX_SQRT},
    {"sinh", 1, -1},         {"cosh", 1, -1},         {"tanh", 1, -1},         {"asin", 1, -1},           {"acos", 1, -1},
    {"atan", 1, -1},         {"atan2", 2, -1},        {"rad", 1, CF_IX_RAD},   {"deg", 1, CF_IX_DEG},     {"abs", 1, CF_IX_ABS},
    {"log", 1, -1},          {"ln", 1, -1},           {"exp", 1, -1},          {"sign", 1, CF_IX_SIGN},   {"sigmoid", 2, -1},
};
#define NNATIVES ((int)(sizeof natives / sizeof natives[0]))

typedef struct xfun { /* an IrisExpressionFunction backed by a style */
    char name[64];
    int args;          /* max(args, 2) */
    const cJSON *style;
    cf_loc at;
    int node[2];       /* the style's CNG per dims (2, 3), built on first use (+1) */
} xfun;

typedef struct xp {
    /* input */
    const char *src;
    tok *t;
    int nt, pos;
    xn *n;
    int nn;
    /* scope: invocation variables (the declared ones, then x, y, z), let locals */
    const char *vars[MAX_VARS + 3];
    int nvars;
    struct {
        const char *name;
        int let;
        int depth;
    } loc[MAX_LOCALS];
    int nloc, letdepth;
    int depth; /* expression() nesting */
    xfun *fn;
    int nfn;
    /* first error */
    int ecol;
    char emsg[200];
} xp;

static void perr(xp *x, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(xp *x, int col, const char *fmt, ...)
{
    if (x->emsg[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->emsg, sizeof x->emsg, fmt, ap);
    va_end(ap);
    x->ecol = col;
}

static int is_ws(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || (c >= 0x1c && c <= 0x1f); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static int is_bracket(const char *s) { return strchr("([{}])", *s) && *s; }

static void tok_add(xp *x, int type, int col, const char *s, size_t l)
{
    if (x->nt >= MAX_TOKS - 1) {
        perr(x, col, "the expression has more than %d tokens", MAX_TOKS - 2);
        return;
    }
    tok *k = &x->t[x->nt++];
    k->type = type, k->col = col;
    if (l >= sizeof k->text) l = sizeof k->text - 1;
    memcpy(k->text, s, l);
    k->text[l] = 0;
}

static int number_start(const char *s)
{
    return is_digit(s[0]) || (s[0] == '-' && is_digit(s[1])) || (s[0] == '-' && s[1] == '.' && is_digit(s[2])) ||
           (s[0] == '.' && is_digit(s[1]));
}

static void tokenize(xp *x)
{
    const char *s = x->src;
    while (*s && !x->emsg[0]) {
        unsigned char c = (unsigned char)*s;
        int col = (int)(s - x->src) + 1;
        if (is_ws(c)) {
            s++;
            continue;
        }
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n' && *s != '\r') s++;
            continue;
        }
        if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            if (!e) {
                perr(x, (int)strlen(x->src) + 1, "premature end of block comment");
                break;
            }
            s = e + 2;
            continue;
        }
        if (number_start(s)) {
            /* Paralithic's number: digits, one '.', '_' between digits, one exponent */
            char buf[64];
            size_t k = 0;
            int dec = 0, sci = 0;
            buf[k++] = *s++;
            if (buf[0] == '.') dec = 1;
            for (;;) {
                if (is_digit(*s)) {
                    if (k < sizeof buf - 2) buf[k++] = *s;
                    s++;
                } else if (*s == '.') {
                    if (dec || sci) perr(x, (int)(s - x->src) + 1, "unexpected decimal separator");
                    dec = 1;
                    if (k < sizeof buf - 2) buf[k++] = '.';
                    s++;
                } else if (*s == '_' && is_digit(s[1])) {
                    s++;
                } else if ((*s == 'e' || *s == 'E') && (is_digit(s[1]) || s[1] == '+' || s[1] == '-')) {
                    if (sci) {
                        perr(x, (int)(s - x->src) + 1, "unexpected scientific notation separator");
                        s++;
                        continue;
                    }
                    sci = 1;
                    if (k < sizeof buf - 3) buf[k++] = 'e';
                    s++;
                    if (*s == '+' || *s == '-') {
                        if (k < sizeof buf - 2) buf[k++] = *s;
                        s++;
                    }
                } else break;
            }
            buf[k] = 0;
            tok_add(x, TK_NUM, col, buf, k);
            continue;
        }
        if (is_letter(c)) {
            const char *b = s;
            while (is_letter((unsigned char)*s) || is_digit(*s) || *s == '_') s++;
            size_t l = (size_t)(s - b);
            int kw = (l == 3 && strncasecmp(b, "let", 3) == 0) || (l == 2 && strncasecmp(b, "in", 2) == 0);
            tok_add(x, kw ? TK_KEY : TK_ID, col, b, l);
            continue;
        }
        if (c == '"' || c == '\'') {
            const char *b = s++;
            while (*s && *s != (char)c && *s != '\n' && *s != '\r') s += (*s == '\\' && c == '"' && s[1]) ? 2 : 1;
            if (*s == (char)c) s++;
            tok_add(x, TK_STR, col, b, (size_t)(s - b));
            continue;
        }
        if (is_bracket(s) || (c == '|' && s[1] != '|')) {
            tok_add(x, TK_SYM, col, s, 1);
            s++;
            continue;
        }
        if (c < 0x20 || c == 0x7f) {
            perr(x, col, "invalid character in input (code %d)", c);
            s++;
            continue;
        }
        /* a symbol: one character, two for ** && || and any symbol followed by '=' */
        size_t l = 1;
        if ((c == '*' && s[1] == '*') || (c == '&' && s[1] == '&') || (c == '|' && s[1] == '|') || s[1] == '=') l = 2;
        tok_add(x, TK_SYM, col, s, l);
        s += l;
    }
    tok_add(x, TK_EOI, (int)strlen(x->src) + 1, "", 0);
}

static const tok *cur(xp *x) { return &x->t[x->pos]; }
static const tok *nxt(xp *x) { return &x->t[x->pos + 1 < x->nt ? x->pos + 1 : x->nt - 1]; }
static const tok *consume(xp *x)
{
    const tok *k = cur(x);
    if (x->pos < x->nt - 1) x->pos++;
    return k;
}
static int is_sym(const tok *k, const char *s) { return k->type == TK_SYM && strcmp(k->text, s) == 0; }
static int is_kw(const tok *k, const char *s) { return k->type == TK_KEY && strcasecmp(k->text, s) == 0; }
static const char *shown(const tok *k) { return k->type == TK_EOI ? "end of expression" : k->text; }

static int node(xp *x, int kind, int op, int a, int b, int c, double v)
{
    if (x->nn >= MAX_XN) {
        perr(x, cur(x)->col, "the expression is too large (%d nodes)", MAX_XN);
        return 0; /* node 0 is a constant NaN, made first */
    }
    x->n[x->nn] = (xn){kind, op, 0, a, b, c, 0, v, 0};
    return x->nn++;
}

/* Paralithic's reOrder: a left-handed tree for operators of one priority */
static void replace_left(xp *x, int target, int nl, int op)
{
    int l = x->n[target].a;
    if (x->n[l].kind == XK_BIN && !x->n[l].sealed && bprio[x->n[l].op] == bprio[op]) {
        replace_left(x, l, nl, op);
        return;
    }
    x->n[target].a = node(x, XK_BIN, op, nl, l, 0, 0);
}
static int reorder(xp *x, int left, int right, int op)
{
    if (x->n[right].kind == XK_BIN && !x->n[right].sealed && bprio[x->n[right].op] == bprio[op]) {
        replace_left(x, right, left, op);
        return right;
    }
    return node(x, XK_BIN, op, left, right, 0, 0);
}

static int expression(xp *x);
static int expression_in(xp *x);
static void expect(xp *x, const char *s)
{
    if (is_sym(cur(x), s)) consume(x);
    else perr(x, cur(x)->col, "unexpected '%s', expected '%s'", shown(cur(x)), s);
}

static int literal(xp *x)
{
    if (is_sym(cur(x), "+") && nxt(x)->type == TK_NUM) consume(x);
    if (cur(x)->type == TK_NUM) {
        const tok *k = consume(x);
        char *e;
        double v = strtod(k->text, &e);
        if (*e) perr(x, k->col, "malformed number '%s'", k->text);
        if (cur(x)->type == TK_ID) {
            const tok *q = consume(x);
            if (strcmp(q->text, "n") == 0) v /= 1000000000.0;
            else if (strcmp(q->text, "u") == 0) v /= 1000000.0;
            else if (strcmp(q->text, "m") == 0) v /= 1000.0;
            else if (strcmp(q->text, "k") == 0 || strcmp(q->text, "K") == 0) v *= 1000.0;
            else if (strcmp(q->text, "M") == 0) v *= 1000000.0;
            else if (strcmp(q->text, "G") == 0) v *= 1000000000.0;
            else perr(x, q->col, "unexpected '%s' after a number, expected a quantifier (n u m k K M G) or an operator", q->text);
        }
        return node(x, XK_CONST, 0, 0, 0, 0, v);
    }
    const tok *k = consume(x);
    perr(x, k->col, "unexpected '%s', expected an expression", shown(k));
    return 0;
}

static int variable(xp *x)
{
    const tok *k = consume(x);
    for (int i = x->nloc - 1; i >= 0; i--)
        if (strcmp(x->loc[i].name, k->text) == 0) return node(x, XK_LOCAL, 0, x->loc[i].let, 0, 0, 0);
    for (int i = 0; i < x->nvars; i++)
        if (strcmp(x->vars[i], k->text) == 0) return node(x, XK_INV, i, 0, 0, 0, 0);
    if (strcmp(k->text, "pi") == 0) return node(x, XK_CONST, 0, 0, 0, 0, 3.141592653589793);
    if (strcmp(k->text, "euler") == 0) return node(x, XK_CONST, 0, 0, 0, 0, 2.718281828459045);
    perr(x, k->col, "unknown variable '%s'", k->text);
    return 0;
}

static int function_call(xp *x)
{
    const tok *f = consume(x);
    consume(x); /* ( */
    int args[8] = {0}, na = 0;
    while (!is_sym(cur(x), ")") && cur(x)->type != TK_EOI) {
        if (na) expect(x, ",");
        int pos = x->pos;
        int e = expression(x);
        if (na < 8) args[na] = e;
        na++;
        if (x->pos == pos) break; /* no progress (after an error) */
    }
    expect(x, ")");
    int dyn = -1, nat = -1;
    for (int i = 0; i < x->nfn; i++)
        if (strcmp(x->fn[i].name, f->text) == 0) dyn = i; /* registered functions replace built-ins */
    for (int i = 0; i < NNATIVES && dyn < 0; i++)
        if (strcmp(natives[i].name, f->text) == 0) nat = i;
    int want = dyn >= 0 ? x->fn[dyn].args : nat >= 0 ? natives[nat].args : strcmp(f->text, "if") == 0 ? 3 : -1;
    if (want < 0) {
        perr(x, f->col, "unknown function '%s'", f->text);
        return 0;
    }
    if (na != want) {
        perr(x, f->col, "function '%s' takes %d arguments, found %d", f->text, want, na);
        return 0;
    }
    if (dyn >= 0) {
        int n = node(x, XK_DYN, dyn, args[0], args[1], na > 2 ? args[2] : 0, 0);
        x->n[n].nargs = na;
        return n;
    }
    if (nat < 0) return node(x, XK_IF, 0, args[0], args[1], args[2], 0);
    if (natives[nat].op < 0) {
        perr(x, f->col, "function '%s' is not supported (Iris uses Java's Math.%s; chunkfill has no StrictMath %s yet)", f->text,
             f->text, f->text);
        return 0;
    }
    int n = node(x, XK_NAT, natives[nat].op, args[0], na > 1 ? args[1] : 0, 0, 0);
    x->n[n].nargs = na;
    return n;
}

static int let_expression(xp *x)
{
    int base = x->nloc, depth = ++x->letdepth, lets[MAX_LOCALS], nl = 0;
    while (cur(x)->type != TK_EOI) {
        if (is_kw(cur(x), "in")) {
            consume(x);
            break;
        }
        if (cur(x)->type == TK_ID) {
            const tok *name = consume(x);
            int bound;
            if (!is_sym(cur(x), ":=")) {
                perr(x, cur(x)->col, "unexpected '%s', expected ':=' after the binding name", shown(cur(x)));
                bound = 0;
            } else {
                consume(x);
                bound = expression(x);
            }
            int dup = 0;
            for (int i = base; i < x->nloc; i++) dup |= strcmp(x->loc[i].name, name->text) == 0;
            if (dup) perr(x, name->col, "cannot bind '%s' twice in one let expression", name->text);
            else if (x->nloc >= MAX_LOCALS) perr(x, name->col, "more than %d let bindings", MAX_LOCALS);
            else {
                int let = node(x, XK_LET, 0, bound, 0, 0, 0);
                x->loc[x->nloc].name = name->text;
                x->loc[x->nloc].let = let;
                x->loc[x->nloc].depth = depth;
                x->nloc++;
                lets[nl++] = let;
            }
        }
        if (is_sym(cur(x), ",")) consume(x);
        else if (!is_kw(cur(x), "in")) {
            perr(x, cur(x)->col, "unexpected '%s', expected ',' or 'in'", shown(cur(x)));
            break;
        }
    }
    int body = expression(x);
    for (int i = nl - 1; i >= 0; i--) x->n[lets[i]].b = body, body = lets[i];
    x->nloc = base;
    x->letdepth--;
    return body;
}

static int atom(xp *x)
{
    if (is_sym(cur(x), "-")) {
        consume(x);
        if (x->depth >= 4 * MAX_NEST) {
            perr(x, cur(x)->col, "more than %d signs in a row", 4 * MAX_NEST);
            x->pos = x->nt - 1;
            return 0;
        }
        x->depth++;
        int a = atom(x);
        x->depth--;
        return node(x, XK_NEG, 0, a, 0, 0, 0);
    }
    if (is_sym(cur(x), "+") && is_sym(nxt(x), "(")) consume(x);
    if (is_sym(cur(x), "(")) {
        consume(x);
        int r = expression(x);
        if (x->n[r].kind == XK_BIN) x->n[r].sealed = 1;
        expect(x, ")");
        return r;
    }
    if (is_sym(cur(x), "|")) {
        consume(x);
        int e = expression(x);
        expect(x, "|");
        return node(x, XK_ABS, 0, e, 0, 0, 0);
    }
    if (is_kw(cur(x), "let")) {
        consume(x);
        return let_expression(x);
    }
    if (cur(x)->type == TK_ID) return is_sym(nxt(x), "(") ? function_call(x) : variable(x);
    return literal(x);
}
static int power(xp *x)
{
    int left = atom(x);
    if (is_sym(cur(x), "^") || is_sym(cur(x), "**")) {
        consume(x);
        return reorder(x, left, power(x), B_POW);
    }
    return left;
}
static int product(xp *x)
{
    int left = power(x);
    static const char *const ops[3] = {"*", "/", "%"};
    for (int i = 0; i < 3; i++)
        if (is_sym(cur(x), ops[i])) {
            consume(x);
            return reorder(x, left, product(x), B_MUL + i);
        }
    return left;
}
static int term(xp *x)
{
    int left = product(x);
    if (is_sym(cur(x), "+")) {
        consume(x);
        return reorder(x, left, term(x), B_ADD);
    }
    if (is_sym(cur(x), "-")) {
        consume(x);
        return reorder(x, left, term(x), B_SUB);
    }
    if (cur(x)->type == TK_NUM && cur(x)->text[0] == '-') return reorder(x, left, term(x), B_ADD);
    return left;
}
static int relational(xp *x)
{
    int left = term(x);
    static const char *const ops[6] = {"<", "<=", "=", ">=", ">", "!="};
    static const int bop[6] = {B_LT, B_LE, B_EQ, B_GE, B_GT, B_NE};
    for (int i = 0; i < 6; i++)
        if (is_sym(cur(x), ops[i])) {
            consume(x);
            return reorder(x, left, relational(x), bop[i]);
        }
    return left;
}
static int expression(xp *x)
{
    if (x->depth >= MAX_NEST) { /* hostile nesting: stop before the stack does */
        perr(x, cur(x)->col, "the expression is nested deeper than %d", MAX_NEST);
        x->pos = x->nt - 1;
        return 0;
    }
    x->depth++;
    int r = expression_in(x);
    x->depth--;
    return r;
}
static int expression_in(xp *x)
{
    int left = relational(x);
    if (is_sym(cur(x), "&&")) {
        consume(x);
        return reorder(x, left, expression(x), B_AND);
    }
    if (is_sym(cur(x), "||")) {
        consume(x);
        return reorder(x, left, expression(x), B_OR);
    }
    return left;
}

/* ------------------------------------------------------------------ Paralithic's simplification */
static int is_const(const xp *x, int i) { return x->n[i].kind == XK_CONST; }
static double cval(const xp *x, int i) { return x->n[i].v; }
static int mkconst(xp *x, double v) { return node(x, XK_CONST, 0, 0, 0, 0, v); }

/* Java semantics of constantSimplify (Math.* as the project computes them) */
static double fold_bin(int op, double l, double r)
{
    switch (op) {
    case B_ADD: return l + r;
    case B_SUB: return l - r;
    case B_MUL: return l * r;
    case B_DIV: return l / r;
    case B_MOD: return fmod(l, r);
    case B_POW: return cf_ir_pow(l, r);
    case B_LT: return l < r ? 1 : 0;
    case B_LE: return l <= r ? 1 : 0;
    case B_EQ: return l == r ? 1 : 0;
    case B_GE: return l >= r ? 1 : 0;
    case B_GT: return l > r ? 1 : 0;
    case B_NE: return l != r ? 1 : 0;
    case B_AND: return (l != 0 && r != 0) ? 1 : 0;
    default: return (l != 0 || r != 0) ? 1 : 0;
    }
}

static int simplify(xp *x, int i);
static int bin_new(xp *x, int op, int l, int r) { return node(x, XK_BIN, op, l, r, 0, 0); }
static int simplify(xp *x, int i)
{
    xn *n = &x->n[i];
    switch (n->kind) {
    case XK_BIN: {
        int l = simplify(x, x->n[i].a), r = simplify(x, x->n[i].b), op = x->n[i].op;
        x->n[i].a = l, x->n[i].b = r;
        if (is_const(x, l) && is_const(x, r)) return mkconst(x, fold_bin(op, cval(x, l), cval(x, r)));
        if (op == B_ADD || op == B_MUL) { /* CommutativeBinaryNode.finalSimplify */
            if (is_const(x, l) && x->n[r].kind == XK_BIN && x->n[r].op == op && (is_const(x, x->n[r].a) || is_const(x, x->n[r].b))) {
                int cside = is_const(x, x->n[r].a);
                int s = simplify(x, bin_new(x, op, l, cside ? x->n[r].a : x->n[r].b));
                return simplify(x, bin_new(x, op, s, cside ? x->n[r].b : x->n[r].a));
            }
            if (x->n[l].kind == XK_BIN && x->n[l].op == op && is_const(x, r) && (is_const(x, x->n[l].a) || is_const(x, x->n[l].b))) {
                int cside = is_const(x, x->n[l].a);
                int s = simplify(x, bin_new(x, op, cside ? x->n[l].a : x->n[l].b, r));
                return simplify(x, bin_new(x, op, cside ? x->n[l].b : x->n[l].a, s));
            }
        }
        if (op == B_POW && is_const(x, r)) { /* PowerNode.finalSimplify */
            double p = cval(x, r);
            int m;
            if (p == 0) return mkconst(x, 1);
            if (p == 1) return l;
            if (p == 2) m = node(x, XK_NAT, CF_IX_POW2, l, 0, 0, 0), x->n[m].nargs = 1;
            else if (p == 0.5) m = node(x, XK_NAT, CF_IX_SQRT, l, 0, 0, 0), x->n[m].nargs = 1;
            else if (p > 0 && floor(p) == p) m = node(x, XK_NAT, CF_IX_INTPOW, l, r, 0, 0), x->n[m].nargs = 2;
            else return i;
            return m;
        }
        return i;
    }
    case XK_NEG:
        if (is_const(x, n->a)) return mkconst(x, -cval(x, n->a));
        x->n[i].a = simplify(x, n->a);
        return i;
    case XK_ABS:
        if (is_const(x, n->a)) return mkconst(x, fabs(cval(x, n->a)));
        x->n[i].a = simplify(x, n->a);
        return i;
    case XK_NAT: {
        int all = 1;
        int a = simplify(x, x->n[i].a);
        x->n[i].a = a;
        all = is_const(x, a);
        if (x->n[i].nargs > 1) {
            int b = simplify(x, x->n[i].b);
            x->n[i].b = b;
            all = all && is_const(x, b);
        }
        if (all) return mkconst(x, cf_ir_xop(x->n[i].op, cval(x, x->n[i].a), x->n[i].nargs > 1 ? cval(x, x->n[i].b) : 0.0, 0.0));
        return i;
    }
    case XK_IF: {
        int p = simplify(x, x->n[i].a), l = simplify(x, x->n[i].b), r = simplify(x, x->n[i].c);
        x->n[i].a = p, x->n[i].b = l, x->n[i].c = r;
        if (is_const(x, p)) return cval(x, p) != 0 ? l : r;
        return i;
    }
    case XK_DYN: {
        int a = simplify(x, x->n[i].a), b = simplify(x, x->n[i].b);
        x->n[i].a = a, x->n[i].b = b;
        if (x->n[i].nargs > 2) x->n[i].c = simplify(x, x->n[i].c);
        return i; /* stateful: never folded */
    }
    case XK_LET: {
        int a = simplify(x, x->n[i].a);
        x->n[i].a = a;
        int b = simplify(x, x->n[i].b);
        x->n[i].b = b;
        return is_const(x, b) ? b : i;
    }
    default: return i;
    }
}

/* ------------------------------------------------------------------ lowering to IR */
typedef struct lw {
    iris_ctx *c;
    xp *x;
    int dims;
    int var[MAX_VARS + 3]; /* node per invocation variable */
    int64_t kb;
    cf_loc at;
} lw;

static int lower(lw *L, int i);
static int lower_fn(lw *L, xfun *f, int dims)
{
    if (!f->node[dims - 2]) {
        int n = iris_ctx_style(L->c, f->style, f->at, L->kb, dims);
        if (n < 0) return -1;
        f->node[dims - 2] = n + 1;
    }
    return f->node[dims - 2] - 1;
}
static int lower(lw *L, int i)
{
    xp *x = L->x;
    xn *n = &x->n[i];
    if (n->lowered) return n->lowered - 1;
    cf_program *p = iris_ctx_program(L->c);
    cf_error *err = iris_ctx_error(L->c);
    int in[4] = {0}, r = -1;
    switch (n->kind) {
    case XK_CONST: r = xop(p, CF_IX_CONST, NULL, 0, n->v, L->at, err); break;
    case XK_INV: r = L->var[n->op]; break;
    case XK_LOCAL: r = lower(L, x->n[n->a].a); break;
    case XK_LET: r = lower(L, n->b); break;
    case XK_BIN: {
        static const int ops[] = {CF_IX_ADD, CF_IX_SUB, CF_IX_MUL, CF_IX_DIV, CF_IX_MOD, CF_IX_POW, CF_IX_LT,
                                  CF_IX_LE,  CF_IX_EQ,  CF_IX_GE,  CF_IX_GT,  CF_IX_NE,  CF_IX_AND, CF_IX_OR};
        if ((in[0] = lower(L, n->a)) < 0 || (in[1] = lower(L, x->n[i].b)) < 0) return -1;
        r = xop(p, ops[x->n[i].op], in, 2, 0, L->at, err);
        break;
    }
    case XK_NEG:
    case XK_ABS:
        if ((in[0] = lower(L, n->a)) < 0) return -1;
        r = xop(p, x->n[i].kind == XK_NEG ? CF_IX_NEG : CF_IX_ABSOP, in, 1, 0, L->at, err);
        break;
    case XK_NAT:
        if ((in[0] = lower(L, n->a)) < 0 || (x->n[i].nargs > 1 && (in[1] = lower(L, x->n[i].b)) < 0)) return -1;
        r = xop(p, x->n[i].op, in, x->n[i].nargs, 0, L->at, err);
        break;
    case XK_IF:
        if ((in[0] = lower(L, n->a)) < 0 || (in[1] = lower(L, x->n[i].b)) < 0 || (in[2] = lower(L, x->n[i].c)) < 0) return -1;
        r = xop(p, CF_IX_IF, in, 3, 0, L->at, err);
        break;
    case XK_DYN: {
        int na = n->nargs, args[3] = {n->a, n->b, n->c};
        if (na > 3) return loc_fail(err, L->at, CF_ERR_SCHEMA, "a function call with %d arguments (at most 3)", na); /* the parser's bound */
        xfun *f = &x->fn[n->op];
        if ((in[0] = lower_fn(L, f, na)) < 0) return -1;
        for (int k = 0; k < na; k++)
            if ((in[1 + k] = lower(L, args[k])) < 0) return -1;
        cf_node c = {0};
        c.kind = NK_IRIS_XCALL;
        c.i[0] = na;
        r = add_node(p, &c, L->at, in, 1 + na, err);
        break;
    }
    default: break;
    }
    if (r >= 0) x->n[i].lowered = r + 1;
    return r;
}

/* ------------------------------------------------------------------ expressions/<key>.json */
static int key_ok(const char *key)
{
    size_t l = strlen(key);
    if (l == 0 || l > 200 || key[0] == '/' || key[l - 1] == '/' || strstr(key, "..")) return 0;
    for (size_t i = 0; i < l; i++)
        if (!((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z') || (key[i] >= '0' && key[i] <= '9') || strchr("_-./", key[i])))
            return 0;
    return 1;
}

static const cf_fields gson = {.null_absent = 1}; /* field_get: a null is absent (Gson) */

/* refuses the engine-bound fields of a variable or function object */
static int engine_bound(iris_ctx *c, const cJSON *o, cf_loc at)
{
    static const char *const f[2] = {"engineValue", "engineStreamValue"};
    cf_program *p = iris_ctx_program(c);
    for (int i = 0; i < 2; i++) {
        const cJSON *v = field_get(&gson, NULL, o, f[i]);
        if (v)
            return loc_fail(iris_ctx_error(c), loc_key(&p->arena, at, f[i]), CF_ERR_SCHEMA,
                            "%s %s: a value of the running Iris engine, not available to chunkfill (use styleValue or staticValue)", f[i],
                            cJSON_IsString(v) ? v->valuestring : "");
    }
    return 0;
}

/* the "name" of a variable or function object, or NULL (err set) */
static const char *name_of(iris_ctx *c, const cJSON *o, cf_loc at)
{
    cf_program *p = iris_ctx_program(c);
    const cJSON *nm = field_get(&gson, NULL, o, "name");
    if (cJSON_IsString(nm) && nm->valuestring[0] && strlen(nm->valuestring) < 60) return nm->valuestring;
    loc_fail(iris_ctx_error(c), loc_key(&p->arena, at, "name"), CF_ERR_SCHEMA, "expected a name (a string of 1 to 59 characters), got %s",
             nm ? json_type(nm) : "nothing");
    return NULL;
}

int iris_expr_generator(iris_ctx *c, const char *key, cf_loc at, int64_t kb, int dims)
{
    cf_program *p = iris_ctx_program(c);
    cf_error *err = iris_ctx_error(c);
    cf_pack *pk = iris_ctx_pack(c);
    if (!key_ok(key)) return loc_fail(err, at, CF_ERR_SCHEMA, "expected an expression key (letters, digits, _ - . /), got \"%s\"", key);
    char rel[256];
    snprintf(rel, sizeof rel, "expressions/%s.json", key);
    if (!pk) return loc_fail(err, at, CF_ERR_REF, "expression \"%s\": no pack to read %s from (--pack)", key, rel);
    cJSON *root = NULL;
    const char *display = NULL;
    int r = json_load_rel(&p->arena, pk, rel, &root, &display, err);
    if (r < 0) return -1;
    if (r == 0) return loc_fail(err, at, CF_ERR_REF, "expression \"%s\": no %s in the pack", key, rel);
    cf_loc fat = {display, NULL};
    int result = -1;
    xp *x = calloc(1, sizeof *x);
    lw *L = calloc(1, sizeof *L);
    if (x) x->t = calloc(MAX_TOKS, sizeof *x->t), x->n = calloc(MAX_XN, sizeof *x->n), x->fn = calloc(MAX_VARS, sizeof *x->fn);
    if (!x || !L || !x->t || !x->n || !x->fn) {
        err_set(err, CF_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        loc_fail(err, fat, CF_ERR_SCHEMA, "expected an IrisExpression object, got %s", json_type(root));
        goto done;
    }
    const cJSON *ex = field_get(&gson, NULL, root, "expression"), *vars = field_get(&gson, NULL, root, "variables"), *fns = field_get(&gson, NULL, root, "functions");
    cf_loc eat = loc_key(&p->arena, fat, "expression"), vat = loc_key(&p->arena, fat, "variables"), fnat = loc_key(&p->arena, fat, "functions");
    if (!cJSON_IsString(ex)) {
        loc_fail(err, ex ? eat : fat, CF_ERR_SCHEMA, "expected an expression (a string), got %s", ex ? json_type(ex) : "none");
        goto done;
    }
    if ((vars && !cJSON_IsArray(vars)) || (fns && !cJSON_IsArray(fns))) {
        loc_fail(err, vars && !cJSON_IsArray(vars) ? vat : fnat, CF_ERR_SCHEMA, "expected an array");
        goto done;
    }
    if (cJSON_GetArraySize(vars) > MAX_VARS || cJSON_GetArraySize(fns) > MAX_VARS) {
        loc_fail(err, cJSON_GetArraySize(vars) > MAX_VARS ? vat : fnat, CF_ERR_LIMIT, "more than %d entries", MAX_VARS);
        goto done;
    }
    L->c = c, L->x = x, L->dims = dims, L->kb = kb, L->at = eat;
    /* variables (IrisExpressionLoad), in order, then x, y, z */
    int nv = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, vars)
    {
        cf_loc at1 = loc_index(&p->arena, vat, nv);
        const char *nm = NULL;
        if (!cJSON_IsObject(v)) {
            loc_fail(err, at1, CF_ERR_SCHEMA, "expected an IrisExpressionLoad object, got %s", json_type(v));
            goto done;
        }
        if (!(nm = name_of(c, v, at1)) || engine_bound(c, v, at1) < 0) goto done;
        for (int k = 0; k < nv; k++)
            if (strcmp(x->vars[k], nm) == 0) {
                loc_fail(err, loc_key(&p->arena, at1, "name"), CF_ERR_SCHEMA, "variable \"%s\" is declared twice", nm);
                goto done;
            }
        if (!strcmp(nm, "x") || !strcmp(nm, "y") || !strcmp(nm, "z")) {
            loc_fail(err, loc_key(&p->arena, at1, "name"), CF_ERR_SCHEMA, "variable \"%s\": x, y and z are Iris's coordinates", nm);
            goto done;
        }
        const cJSON *sv = field_get(&gson, NULL, v, "styleValue"), *st = field_get(&gson, NULL, v, "staticValue");
        int node;
        if (sv) node = iris_ctx_style(c, sv, loc_key(&p->arena, at1, "styleValue"), kb, dims);
        else {
            if (st && !cJSON_IsNumber(st)) {
                loc_fail(err, loc_key(&p->arena, at1, "staticValue"), CF_ERR_SCHEMA, "expected a number, got %s", json_type(st));
                goto done;
            }
            node = xop(p, CF_IX_CONST, NULL, 0, st ? st->valuedouble : -1.0, at1, err);
        }
        if (node < 0) goto done;
        x->vars[nv] = nm, L->var[nv] = node;
        nv++;
    }
    static const char *const xyz[3] = {"x", "y", "z"};
    for (int k = 0; k < 3; k++) {
        x->vars[nv + k] = xyz[k];
        /* 3-D: x, y, z; 2-D (evaluate(rng, x, z)): x, then z in "y", then -1 in "z" */
        int op = dims == 3 ? CF_IX_X + k : k == 0 ? CF_IX_X : k == 1 ? CF_IX_Z : CF_IX_CONST;
        if ((L->var[nv + k] = xop(p, op, NULL, 0, -1.0, eat, err)) < 0) goto done;
    }
    x->nvars = nv + 3;
    /* functions (IrisExpressionFunction): only those with a styleValue (engine ones refused) */
    int nf = 0;
    cJSON_ArrayForEach(v, fns)
    {
        cf_loc at1 = loc_index(&p->arena, fnat, nf++);
        const char *nm = NULL;
        double args = 2;
        if (!cJSON_IsObject(v)) {
            loc_fail(err, at1, CF_ERR_SCHEMA, "expected an IrisExpressionFunction object, got %s", json_type(v));
            goto done;
        }
        if (engine_bound(c, v, at1) < 0) goto done;
        const cJSON *sv = field_get(&gson, NULL, v, "styleValue"), *ar = field_get(&gson, NULL, v, "args");
        if (!sv) continue; /* Iris skips functions without a value (isValid) */
        if (!(nm = name_of(c, v, at1))) goto done;
        if (ar && !cJSON_IsNumber(ar)) {
            loc_fail(err, loc_key(&p->arena, at1, "args"), CF_ERR_SCHEMA, "expected a number, got %s", json_type(ar));
            goto done;
        }
        if (ar) args = ar->valuedouble;
        if (args < 2) args = 2;
        if (args > 3 || args != floor(args)) {
            loc_fail(err, loc_key(&p->arena, at1, "args"), CF_ERR_SCHEMA, "args %.17g: a style function takes 2 (noise(x, z)) or 3 (noise(x, y, z)) arguments",
                     args);
            goto done;
        }
        xfun *f = NULL;
        for (int k = 0; k < x->nfn; k++)
            if (strcmp(x->fn[k].name, nm) == 0) f = &x->fn[k]; /* TreeMap.put: the last one wins */
        if (!f) f = &x->fn[x->nfn++];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "%s", nm);
        f->args = (int)args, f->style = sv, f->at = loc_key(&p->arena, at1, "styleValue");
    }
    /* parse, simplify, lower */
    x->src = ex->valuestring;
    node(x, XK_CONST, 0, 0, 0, 0, NAN);
    tokenize(x);
    int top = 0;
    if (!x->emsg[0]) {
        top = expression(x);
        if (cur(x)->type != TK_EOI) perr(x, cur(x)->col, "unexpected '%s', expected an operator or the end", shown(cur(x)));
    }
    if (x->emsg[0]) {
        loc_fail(err, eat, CF_ERR_SCHEMA, "column %d: %s", x->ecol, x->emsg);
        goto done;
    }
    top = simplify(x, top);
    if (x->emsg[0]) {
        loc_fail(err, eat, CF_ERR_LIMIT, "%s", x->emsg);
        goto done;
    }
    result = lower(L, top);
done:
    if (x) free(x->t), free(x->n), free(x->fn);
    free(x);
    free(L);
    cJSON_Delete(root);
    return result;
}

/* ------------------------------------------------------------------ images */
static const char *const channels[] = {"RED", "GREEN", "BLUE", "SATURATION", "HUE", "BRIGHTNESS", "COMPOSITE_ADD_RGB",
                                       "COMPOSITE_MUL_RGB", "COMPOSITE_MAX_RGB", "COMPOSITE_ADD_HSB", "COMPOSITE_MUL_HSB",
                                       "COMPOSITE_MAX_HSB", "RAW"};
#define NCHANNELS 13

/* java.awt.Color.RGBtoHSB, binary32 */
static void rgb_to_hsb(int r, int g, int b, float hsb[3])
{
    int cmax = r > g ? r : g, cmin = r < g ? r : g;
    if (b > cmax) cmax = b;
    if (b < cmin) cmin = b;
    float hue, sat, bri = (float)cmax / 255.0f;
    sat = cmax != 0 ? (float)(cmax - cmin) / (float)cmax : 0.0f;
    if (sat == 0) hue = 0;
    else {
        float rc = (float)(cmax - r) / (float)(cmax - cmin), gc = (float)(cmax - g) / (float)(cmax - cmin),
              bc = (float)(cmax - b) / (float)(cmax - cmin);
        if (r == cmax) hue = bc - gc;
        else if (g == cmax) hue = 2.0f + rc - bc;
        else hue = 4.0f + gc - rc;
        hue = hue / 6.0f;
        if (hue < 0) hue = hue + 1.0f;
    }
    hsb[0] = hue, hsb[1] = sat, hsb[2] = bri;
}

/* IrisImage.getValue(channel) of the ARGB int color */
static double iris_image_channel(int ch, int32_t color)
{
    int r = (color >> 16) & 0xff, g = (color >> 8) & 0xff, b = color & 0xff;
    float h[3];
    rgb_to_hsb(r, g, b, h);
    switch (ch) {
    case 0: return r / 255.0;
    case 1: return g / 255.0;
    case 2: return b / 255.0;
    case 3: return h[1];
    case 4: return h[0];
    case 5: return h[2];
    case 6: return ((r / 255.0) + (g / 255.0) + (b / 255.0)) / 3.0;
    case 7: return (r / 255.0) * (g / 255.0) * (b / 255.0);
    case 8: {
        double a = r / 255.0, c = g / 255.0, m = a >= c ? a : c, d = b / 255.0;
        return m >= d ? m : d;
    }
    case 9: return (double)(h[0] + h[1] + h[2]) / 3.0;
    case 10: return (double)(h[0] * h[1] * h[2]);
    case 11: {
        float m = h[1] >= h[2] ? h[1] : h[2];
        return (double)(h[0] >= m ? h[0] : m);
    }
    default: return (double)color;
    }
}

typedef struct pngsrc {
    const unsigned char *d;
    size_t n, at;
} pngsrc;
static void png_mem_read(png_structp png, png_bytep out, png_size_t len)
{
    pngsrc *s = png_get_io_ptr(png);
    if (len > s->n - s->at) png_error(png, "truncated");
    memcpy(out, s->d + s->at, len);
    s->at += len;
}
static void png_quiet(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg;
}
typedef struct pngjmp {
    char msg[120];
} pngjmp;
static void png_fail(png_structp png, png_const_charp msg)
{
    pngjmp *j = png_get_error_ptr(png);
    snprintf(j->msg, sizeof j->msg, "%s", msg);
    png_longjmp(png, 1);
}

/* decodes the PNG bytes to ARGB ints as Java's getRGB returns them: 8-bit RGB,
 * RGBA and palette images (tRNS as alpha); 0, or -1 with why set */
static int decode_png(const unsigned char *data, size_t len, int32_t **argb, int *w, int *h, char *why, size_t wsz)
{
    if (len < 8 || png_sig_cmp(data, 0, 8) != 0) return snprintf(why, wsz, "not a PNG file"), -1;
    pngjmp j = {{0}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &j, png_fail, png_quiet);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    volatile png_bytep buf = NULL;
    volatile int32_t *out = NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        return snprintf(why, wsz, "out of memory"), -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free((void *)buf), free((void *)out);
        return snprintf(why, wsz, "bad PNG data (%s)", j.msg), -1;
    }
    pngsrc src = {data, len, 0};
    png_set_read_fn(png, &src, png_mem_read);
    png_set_user_limits(png, 16384, 16384);
    png_read_info(png, info);
    png_uint_32 pw = png_get_image_width(png, info), ph = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_destroy_read_struct(&png, &info, NULL);
        return snprintf(why, wsz, "a grayscale PNG (Java reads gray through a linear color space); save it as RGB"), -1;
    }
    if (depth == 16) {
        png_destroy_read_struct(&png, &info, NULL);
        return snprintf(why, wsz, "a 16-bit PNG; save it with 8 bits per channel"), -1;
    }
    if ((uint64_t)pw * ph > MAX_IMAGE_PIXELS) {
        png_destroy_read_struct(&png, &info, NULL);
        return snprintf(why, wsz, "%ux%u pixels, more than %d", (unsigned)pw, (unsigned)ph, MAX_IMAGE_PIXELS), -1;
    }
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rb = png_get_rowbytes(png, info);
    if (rb != 4 * (size_t)pw) png_error(png, "unexpected row size");
    buf = malloc(rb * ph);
    out = malloc(sizeof(int32_t) * (size_t)pw * ph);
    png_bytep *rows = malloc(sizeof(png_bytep) * ph);
    if (!buf || !out || !rows) {
        free(rows);
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < ph; y++) rows[y] = buf + rb * y;
    png_read_image(png, rows);
    free(rows);
    for (size_t i = 0; i < (size_t)pw * ph; i++) {
        const png_byte *q = buf + 4 * i;
        out[i] = (int32_t)(((uint32_t)q[3] << 24) | ((uint32_t)q[0] << 16) | ((uint32_t)q[1] << 8) | q[2]);
    }
    png_destroy_read_struct(&png, &info, NULL);
    free((void *)buf);
    *argb = (int32_t *)out, *w = (int)pw, *h = (int)ph;
    return 0;
}

int iris_image_generator(iris_ctx *c, const cJSON *map, cf_loc at, int dims)
{
    cf_program *p = iris_ctx_program(c);
    cf_error *err = iris_ctx_error(c);
    cf_pack *pk = iris_ctx_pack(c);
    if (!cJSON_IsObject(map)) return loc_fail(err, at, CF_ERR_SCHEMA, "expected an IrisImageMap object, got %s", json_type(map));
    const cJSON *im = field_get(&gson, NULL, map, "image"), *cs = field_get(&gson, NULL, map, "coordinateScale"), *me = field_get(&gson, NULL, map, "interpolationMethod"),
                *ch = field_get(&gson, NULL, map, "channel");
    cf_loc iat = loc_key(&p->arena, at, "image");
    if (!cJSON_IsString(im) || !im->valuestring[0])
        return loc_fail(err, im ? iat : at, CF_ERR_SCHEMA, "expected an image key (images/<key>.png), got %s", im ? json_type(im) : "none");
    if (!key_ok(im->valuestring)) return loc_fail(err, iat, CF_ERR_SCHEMA, "expected an image key (letters, digits, _ - . /), got \"%s\"", im->valuestring);
    double scale = 32;
    if (cs && !cJSON_IsNumber(cs)) return loc_fail(err, loc_key(&p->arena, at, "coordinateScale"), CF_ERR_SCHEMA, "expected a number, got %s", json_type(cs));
    if (cs) scale = cs->valuedouble;
    if (!(scale > 0 && scale <= 1e9))
        return loc_fail(err, loc_key(&p->arena, at, "coordinateScale"), CF_ERR_SCHEMA, "expected a number in (0, 1e9], got %.17g", scale);
    int method = CF_IIM_BILINEAR_STARCAST + 1, chan = 9, flags = CF_IR_IMG_CENTERED;
    if (me) {
        cf_loc mat = loc_key(&p->arena, at, "interpolationMethod");
        if (!cJSON_IsString(me)) return loc_fail(err, mat, CF_ERR_SCHEMA, "expected an InterpolationMethod name, got %s", json_type(me));
        method = -1;
        for (int m = 0; m < CF_IIM_COUNT; m++)
            if (strcmp(iris_interp_method_name(m), me->valuestring) == 0) method = m;
        if (method < 0) return loc_fail(err, mat, CF_ERR_REF, "unknown interpolation method \"%s\" (NONE, BILINEAR, HERMITE, STARCAST_6, ...)", me->valuestring);
    }
    if (ch) {
        cf_loc cat = loc_key(&p->arena, at, "channel");
        if (!cJSON_IsString(ch)) return loc_fail(err, cat, CF_ERR_SCHEMA, "expected an IrisImageChannel name, got %s", json_type(ch));
        chan = -1;
        for (int k = 0; k < NCHANNELS; k++)
            if (strcmp(channels[k], ch->valuestring) == 0) chan = k;
        if (chan < 0) return loc_fail(err, cat, CF_ERR_REF, "unknown image channel \"%s\" (RED, GREEN, BLUE, HUE, SATURATION, BRIGHTNESS, COMPOSITE_*_RGB, COMPOSITE_*_HSB, RAW)", ch->valuestring);
    }
    static const char *const fl[3] = {"tiled", "centered", "inverted"};
    for (int k = 0; k < 3; k++) {
        const cJSON *b = field_get(&gson, NULL, map, fl[k]);
        if (!b) continue;
        if (!cJSON_IsBool(b)) return loc_fail(err, loc_key(&p->arena, at, fl[k]), CF_ERR_SCHEMA, "expected true or false, got %s", json_type(b));
        flags = cJSON_IsTrue(b) ? flags | (1 << k) : flags & ~(1 << k);
    }
    char rel[256];
    snprintf(rel, sizeof rel, "images/%s.png", im->valuestring);
    if (!pk) return loc_fail(err, iat, CF_ERR_REF, "image \"%s\": no pack to read %s from (--pack)", im->valuestring, rel);
    char *data = NULL;
    size_t len = 0;
    const char *display = NULL;
    int r = pack_read_rel(pk, rel, &data, &len, &display, err);
    if (r < 0) return -1;
    if (r == 0) return loc_fail(err, iat, CF_ERR_REF, "image \"%s\": no %s in the pack", im->valuestring, rel);
    int32_t *argb = NULL;
    int w = 0, h = 0;
    char why[160];
    int bad = decode_png((const unsigned char *)data, len, &argb, &w, &h, why, sizeof why);
    free(data);
    if (bad) return loc_fail(err, iat, CF_ERR_SCHEMA, "%s: %s", display ? display : rel, why);
    cf_node n = {0};
    n.kind = NK_IRIS_IMAGE;
    n.i[0] = w, n.i[1] = h, n.i[2] = method, n.i[3] = dims, n.i[4] = flags;
    n.d[0] = scale;
    n.nda = w * h + 1;
    n.da = arena_alloc(&p->arena, sizeof(double) * (size_t)n.nda);
    if (!n.da) {
        free(argb);
        return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    }
    for (int i = 0; i < w * h; i++) n.da[i] = iris_image_channel(chan, argb[i]);
    n.da[w * h] = iris_image_channel(chan, 0); /* outside the image: getRGB is 0 */
    free(argb);
    return add_node(p, &n, at, NULL, 0, err);
}

/* ------------------------------------------------------------------ functions and the world table */
int iris_expr_function(iris_ctx *c, const char *fn)
{
    cf_program *p = iris_ctx_program(c);
    cf_error *err = iris_ctx_error(c);
    cf_loc cli = {"<arguments>", NULL};
    int image = strncmp(fn, "iris:image/", 11) == 0;
    const char *key = fn + (image ? 11 : 16);
    char k[256], opts[512] = "";
    int dims = 3;
    const char *hash = strchr(key, '#'), *q = strchr(key, '?');
    if (hash && strcmp(hash, "#2d") != 0)
        return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": unknown suffix \"%s\" (#2d)", fn, hash);
    if (hash) dims = 2;
    size_t end = hash ? (size_t)(hash - key) : strlen(key);
    if (q && !image) return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": an expression takes no options", fn);
    size_t kl = q && (size_t)(q - key) < end ? (size_t)(q - key) : end;
    if (kl >= sizeof k || (q && end - kl - 1 >= sizeof opts)) return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": too long", fn);
    memcpy(k, key, kl);
    k[kl] = 0;
    if (q && (size_t)(q - key) < end) memcpy(opts, q + 1, end - kl - 1), opts[end - kl - 1] = 0;
    if (!key_ok(k))
        return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": expected iris:%s/KEY (letters, digits, _ - . /)", fn, image ? "image" : "expression");
    if (!image) return iris_expr_generator(c, k, cli, 0, dims);
    /* iris:image/KEY?field=value&...: an IrisImageMap object */
    cJSON *o = cJSON_CreateObject();
    if (!o) return err_set(err, CF_ERR_NOMEM, "out of memory"), -1;
    cJSON_AddStringToObject(o, "image", k);
    for (char *save = NULL, *f = strtok_r(opts, "&", &save); f; f = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(f, '=');
        if (!eq) {
            cJSON_Delete(o);
            return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": option \"%s\": expected field=value", fn, f);
        }
        *eq = 0;
        const char *val = eq + 1;
        if (!strcmp(f, "coordinateScale")) {
            char *e;
            double d = strtod(val, &e);
            if (*e || e == val) {
                cJSON_Delete(o);
                return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": coordinateScale \"%s\": expected a number", fn, val);
            }
            cJSON_AddNumberToObject(o, f, d);
        } else if (!strcmp(f, "tiled") || !strcmp(f, "centered") || !strcmp(f, "inverted")) {
            if (strcmp(val, "true") && strcmp(val, "false")) {
                cJSON_Delete(o);
                return loc_fail(err, cli, CF_ERR_ARG, "function \"%s\": %s \"%s\": expected true or false", fn, f, val);
            }
            cJSON_AddBoolToObject(o, f, !strcmp(val, "true"));
        } else if (!strcmp(f, "channel") || !strcmp(f, "interpolationMethod")) {
            cJSON_AddStringToObject(o, f, val);
        } else {
            cJSON_Delete(o);
            return loc_fail(err, cli, CF_ERR_ARG,
                            "function \"%s\": unknown option \"%s\" (channel, coordinateScale, interpolationMethod, tiled, centered, inverted)", fn, f);
        }
    }
    cf_loc at = {arena_printf(&p->arena, "<arguments: %s>", fn), NULL};
    int node = iris_image_generator(c, o, at, dims);
    cJSON_Delete(o);
    return node;
}

size_t iris_table_offset(const cf_program *p, int id)
{
    size_t off = 16 + 48 * ((size_t)p->nnodes + 1);
    for (int i = 0; i < id && i < p->nnodes; i++)
        if (p->nodes[i].kind == NK_IRIS_IMAGE) off += sizeof(double) * (size_t)p->nodes[i].nda;
    return off;
}
size_t iris_table_len(const cf_program *p) { return iris_table_offset(p, p->nnodes); }
