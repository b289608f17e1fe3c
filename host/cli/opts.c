/* opts.c - the one option parser of every chunkfill command: the options all commands
 * share (packs, settings, functions, limits, dialect, --strict, --define, --external), a
 * command's own options as a table of optdef rows (parse_cmd), and the spellings of
 * points, areas, stages and layers. A usage error: one line on stderr naming the value and
 * "see chunkfill CMD --help", exit status 2. Allocates only the point list of opts.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int push_point(opts *o, const double v[3], char tok[3][48])
{
    if (o->nat == o->capat) {
        size_t cap = o->capat ? o->capat * 2 : 64;
        double *a = realloc(o->at, sizeof(double) * 3 * cap);
        if (!a) return -1;
        o->at = a;
        char(*t)[3][48] = realloc(o->tok, sizeof *t * cap);
        if (!t) return -1;
        o->tok = t;
        o->capat = cap;
    }
    for (int k = 0; k < 3; k++) {
        o->at[3 * o->nat + (size_t)k] = v[k];
        memcpy(o->tok[o->nat][k], tok[k], 48);
    }
    o->nat++;
    return 0;
}

/* a finite decimal number (sample positions: integers for 26.3, any for libnoise) */
int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    if (!*s || strlen(s) >= 48) return -1;
    for (const char *q = s; *q; q++)
        if (!strchr("0123456789+-.eE", *q)) return -1;
    double d = strtod(s, &end);
    if (end == s || *end || !isfinite(d)) return -1;
    *out = d;
    return 0;
}

/* three fields separated by sep (' ' also takes tabs and runs of blanks); with
 * tok, numbers (and their text), else integers in int range */
int parse_fields(const char *s, char sep, long v[3], double d[3], char tok[3][48], int two)
{
    char buf[160];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    char *p = buf;
    for (int i = 0; i < 3; i++) {
        while (sep == ' ' && (*p == ' ' || *p == '\t')) p++;
        char *e = p;
        while (*e && *e != sep && !(sep == ' ' && *e == '\t')) e++;
        char c = *e;
        *e = 0;
        if (tok) {
            if (parse_num(p, &d[i]) < 0) return -1;
            strcpy(tok[i], p);
        } else if (parse_long(p, INT32_MIN, INT32_MAX, &v[i]) < 0) {
            return -1;
        }
        if (i == 1 && c == 0 && two && tok) {
            /* two numbers X,Z (an Iris 2-D point): y's text stays empty */
            d[2] = d[1], d[1] = 0.0;
            strcpy(tok[2], tok[1]);
            tok[1][0] = 0;
            return 0;
        }
        if (i < 2 && c == 0) return -1;
        p = e + (c ? 1 : 0);
    }
    while (sep == ' ' && (*p == ' ' || *p == '\t')) p++;
    return *p ? -1 : 0;
}
int parse_xyz(const char *s, char sep, long v[3]) { return parse_fields(s, sep, v, NULL, NULL, 0); }

int read_points(opts *o, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "chunkfill: %s: %s\n", path, strerror(errno));
        return 1;
    }
    char line[512];
    int ln = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        size_t l = strlen(line);
        if (l == sizeof line - 1 && line[l - 1] != '\n') {
            fprintf(stderr, "chunkfill: %s:%d: line too long\n", path, ln);
            rc = 1;
            break;
        }
        char *h = strchr(line, '#');
        if (h) *h = 0;
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) continue;
        double v[3];
        char tok[3][48];
        if (parse_fields(s, ' ', NULL, v, tok, 1) < 0) {
            fprintf(stderr, "chunkfill: %s:%d: expected three integers 'X Y Z' in int range (numbers for libnoise; 'X Z' for Iris)\n", path, ln);
            rc = 1;
            break;
        }
        if (push_point(o, v, tok) < 0) {
            fprintf(stderr, "chunkfill: out of memory\n");
            rc = 1;
            break;
        }
    }
    if (f != stdin) fclose(f);
    return rc;
}

/* ---- the options every command shares, as rows; a command's own rows come first (so it
 * may take one over), and opts.refuse drops those it cannot use */
static int opt_pack(opts *o, const char *v)
{
    if (o->npacks == 64) return die_usage("too many --pack options (at most 64)", NULL);
    o->packs[o->npacks++] = v;
    return 0;
}
static int opt_settings(opts *o, const char *v) { return o->settings = v, 0; }
static int opt_function(opts *o, const char *v)
{
    if (o->nfunctions == 64) return die_usage("too many --function options (at most 64)", NULL);
    o->functions[o->nfunctions++] = v;
    return 0;
}
static int opt_external(opts *o, const char *v)
{
    const char *eq = strchr(v, '=');
    char *end = NULL;
    double d = eq && eq[1] != '@' ? strtod(eq + 1, &end) : 0;
    if (eq && eq != v && eq[1] == '@' && eq[2]) end = (char *)"";
    else if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(d))
        return die_usage("--external takes NAME=VALUE (a finite number) or NAME=@MAP.npy[,X0,Z0[,STEP]]", NULL);
    if (o->next == 64) return die_usage("too many --external options (at most 64)", NULL);
    o->ext[o->next++] = v;
    return 0;
}
static int opt_define(opts *o, const char *v)
{
    const char *eq = strrchr(v, '='); /* TYPE[FIELD=TEXT]=VALUE: the last '=' */
    char *end = NULL;
    double d = eq ? strtod(eq + 1, &end) : 0;
    if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(d))
        return die_usage("--define takes TYPE=VALUE (a density function type such as tectonic:config, a finite number)", NULL);
    if (o->ndefs == 64) return die_usage("too many --define options (at most 64)", NULL);
    o->defs[o->ndefs++] = v;
    return 0;
}
static int opt_dialect(opts *o, const char *v)
{
    if (strcmp(v, "1.21") == 0) o->dialect = CF_DIALECT_MC121;
    else if (strcmp(v, "26.3") == 0) o->dialect = CF_DIALECT_MC263;
    else o->irisd = v; /* Iris's branch (sample checks it: master or unification) */
    return 0;
}
static int opt_version(opts *o, const char *v)
{
    if (!cf_game_version_data(v)) {
        char msg[300];
        snprintf(msg, sizeof msg, "--version %.60s: not a game version chunkfill knows (1.18 ... 1.21.11, 26.1, 26.2, 26.3)", v);
        return die_usage(msg, NULL);
    }
    o->version = v;
    return 0;
}
static int opt_limit(const char *name, const char *v, long *n)
{
    if (parse_long(v, 1, LONG_MAX, n) == 0) return 0;
    char msg[200];
    snprintf(msg, sizeof msg, "%s takes a positive integer, not '%.60s'", name, v);
    return die_usage(msg, NULL);
}
static int opt_max_file_bytes(opts *o, const char *v)
{
    long n;
    int rc = opt_limit("--max-file-bytes", v, &n);
    if (!rc) o->lim.max_file_bytes = (size_t)n;
    return rc;
}
static int opt_max_memory(opts *o, const char *v)
{
    long n;
    int rc = opt_limit("--max-memory", v, &n);
    if (!rc) o->lim.max_fill_bytes = (size_t)n;
    return rc;
}
static int opt_max_nodes(opts *o, const char *v)
{
    long n;
    int rc = opt_limit("--max-nodes", v, &n);
    if (!rc) o->lim.max_nodes = (size_t)n;
    return rc;
}
static int opt_max_depth(opts *o, const char *v)
{
    long n;
    int rc = opt_limit("--max-depth", v, &n);
    if (!rc) o->lim.max_depth = n > 100000 ? 100000 : (int)n;
    return rc;
}

/* the shared rows with the CO_ group each belongs to (0: every command takes it) */
static const struct {
    optdef row;
    int group;
} common_rows[] = {
    {{.name = "--pack", .fn = opt_pack}, CO_PACK},
    {{.name = "--settings", .fn = opt_settings}, CO_PACK},
    {{.name = "--dialect", .fn = opt_dialect}, CO_PACK},
    {{.name = "--version", .fn = opt_version}, CO_PACK},
    {{.name = "--quiet"}, 0}, /* a flag: opts.quiet */
    {{.name = "--function", .fn = opt_function}, CO_FUNCTION},
    {{.name = "--external", .fn = opt_external}, CO_EXTERNAL},
    {{.name = "--define", .fn = opt_define}, CO_DEFINE},
    {{.name = "--strict"}, CO_STRICT}, /* a flag: opts.strict */
    {{.name = "--max-file-bytes", .fn = opt_max_file_bytes}, CO_LIMITS},
    {{.name = "--max-nodes", .fn = opt_max_nodes}, CO_LIMITS},
    {{.name = "--max-depth", .fn = opt_max_depth}, CO_LIMITS},
    {{.name = "--max-memory", .fn = opt_max_memory}, CO_LIMITS},
};
enum { NCOMMON = sizeof common_rows / sizeof common_rows[0] };

/* the edit distance of a and b (adjacent transpositions count 1), at most 3 (3: farther) */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40 || (la > lb ? la - lb : lb - la) > 2) return 3;
    int d[41][41];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = a[i - 1] != b[j - 1];
            int m = d[i - 1][j - 1] + c;
            if (d[i - 1][j] + 1 < m) m = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < m) m = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < m) m = d[i - 2][j - 2] + 1;
            d[i][j] = m;
        }
    return d[la][lb] < 3 ? d[la][lb] : 3;
}

const char *cli_near(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    int bd = 3;
    size_t lw = strlen(word);
    for (size_t i = 0; i < n; i++) {
        int d = distance(word, names[i]);
        /* a near miss: one edit, or two in a word of more than 6 characters */
        if (d < bd && (d == 1 || (d == 2 && lw > 6))) bd = d, best = names[i];
    }
    return best;
}

const char *cli_command_name = "COMMAND";

int die_usage(const char *msg, const char *usage)
{
    (void)usage; /* the help stays behind --help: a usage error is one line */
    fprintf(stderr, "chunkfill: %s (see chunkfill %s --help)\n", msg, cli_command_name);
    return 2;
}

static int refused(const opts *o, int k) { return (common_rows[k].group & o->refuse) != 0; }

/* parses argv[2..]: --help; --NAME VALUE or --NAME=VALUE of the command's rows, then of
 * the shared ones. Returns -1 to go on, or the exit status (0 after --help, 2 after one
 * line for bad usage). */
int parse_cmd(opts *o, int argc, char **argv, optdef *defs, const char *usage)
{
    for (int i = 2; i < argc; i++) /* --help anywhere, also where a value was due (serve --http --help) */
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage, stdout), 0;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *inline_value = NULL;
        char name[64];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        if (eq && (size_t)(eq - arg) < sizeof name) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = 0;
            inline_value = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }
        optdef *d = NULL;
        int k = -1;
        for (optdef *q = defs; q && q->name && !d; q++)
            if (strcmp(name, q->name) == 0) d = q;
        for (int c = 0; !d && c < NCOMMON; c++)
            if (!refused(o, c) && strcmp(name, common_rows[c].row.name) == 0) k = c;
        char msg[400];
        if (!d && k < 0) {
            if (strncmp(arg, "-", 1) != 0) {
                snprintf(msg, sizeof msg, "unexpected argument '%.200s'", arg);
                return die_usage(msg, usage);
            }
            const char *names[128];
            size_t n = 0;
            for (optdef *q = defs; q && q->name && n < 100; q++) names[n++] = q->name;
            for (int c = 0; c < NCOMMON; c++)
                if (!refused(o, c)) names[n++] = common_rows[c].row.name;
            names[n++] = "--help";
            const char *near = cli_near(name, names, n);
            if (near) snprintf(msg, sizeof msg, "unknown option %.100s; did you mean %s?", name, near);
            else snprintf(msg, sizeof msg, "unknown option %.100s", name);
            return die_usage(msg, usage);
        }
        int *flag = d ? d->flag : strcmp(name, "--quiet") == 0 ? &o->quiet : strcmp(name, "--strict") == 0 ? &o->strict : NULL;
        if (flag) {
            if (inline_value) {
                snprintf(msg, sizeof msg, "%s takes no value", name);
                return die_usage(msg, usage);
            }
            *flag = 1;
            if (d) d->seen = 1;
            continue;
        }
        const char *v = inline_value ? inline_value : i + 1 < argc ? argv[i + 1] : NULL;
        if (!v || (strcmp(name, "--version") == 0 && !inline_value && v[0] == '-' && v[1] == '-')) {
            /* `chunkfill CMD --version` asks for chunkfill's own: say where it is */
            if (strcmp(name, "--version") == 0)
                snprintf(msg, sizeof msg, "--version takes the game version (1.18 ... 1.21.11, 26.1, 26.2, 26.3); chunkfill's own "
                                          "version: chunkfill --version");
            else snprintf(msg, sizeof msg, "%s needs a value", name);
            return die_usage(msg, usage);
        }
        if (!inline_value && v[0] == '-' && v[1] == '-' && v[2]) {
            /* `--out --chunks 0,0`: the value is missing, not "--chunks" (a value that starts with
             * "--" goes after '=': --seed=--x) */
            snprintf(msg, sizeof msg, "%s needs a value, not the option %.100s (a value starting with --: %s=VALUE)", name, v, name);
            return die_usage(msg, usage);
        }
        if (!inline_value) i++;
        if (!d) {
            int rc = common_rows[k].row.fn(o, v);
            if (rc) return rc;
            continue;
        }
        if (d->seen && !d->fn) { /* a row without a function takes one value: a second is a mistake, not an override */
            snprintf(msg, sizeof msg, "%s given twice", name);
            return die_usage(msg, usage);
        }
        d->seen = 1;
        if (d->fn) {
            int rc = d->fn(o, v);
            if (rc) return rc;
        } else if (d->str) {
            *d->str = v;
        } else if (parse_long(v, d->lo, d->hi, d->num) < 0) {
            snprintf(msg, sizeof msg, "%s takes an integer in [%ld, %ld], not '%.60s'", name, d->lo, d->hi, v);
            return die_usage(msg, usage);
        }
    }
    for (optdef *q = defs; q && q->name; q++)
        if (q->required && !q->seen) return die_usage(q->required, usage);
    if (o->irisd && usage != usage_sample)
        return die_usage("--dialect takes 1.21 or 26.3 (Minecraft data; master or unification: Iris styles in sample)", usage);
    return -1;
}

/* the single function a command fills: router:final_density unless --function */
int one_function(opts *o, const char *usage)
{
    if (o->nfunctions > 1) return die_usage("at most one --function", usage);
    if (o->nfunctions == 0) o->functions[o->nfunctions++] = "router:final_density";
    return -1;
}

/* X0,Z0[:X1,Z1] */
int parse_chunks(const char *s, long r[4])
{
    char a[256];
    if (strlen(s) >= sizeof a) return -1;
    strcpy(a, s);
    char *colon = strchr(a, ':');
    if (colon) *colon = 0;
    long v[3];
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s,0", a);
    if (parse_xyz(tmp, ',', v) < 0) return -1;
    r[0] = v[0], r[1] = v[1];
    if (colon) {
        snprintf(tmp, sizeof tmp, "%s,0", colon + 1);
        if (parse_xyz(tmp, ',', v) < 0) return -1;
        r[2] = v[0], r[3] = v[1];
    } else {
        r[2] = r[0], r[3] = r[1];
    }
    return 0;
}

/* X0,Z0:X1,Z1 (single: also X,Z alone, one cell) of integers in [lo, hi] into r; the
 * same words in every command. Returns -1, or 2 after one line: malformed, out of range,
 * or reversed corners. */
int parse_rect(const char *opt, const char *v, int single, long lo, long hi, const char *unit, long r[4])
{
    char msg[400];
    if (parse_chunks(v, r) < 0 || (!single && !strchr(v, ':'))) {
        snprintf(msg, sizeof msg, "%s takes %s (%s), not '%.60s'", opt, single ? "X0,Z0 or X0,Z0:X1,Z1" : "X0,Z0:X1,Z1", unit, v);
        return die_usage(msg, NULL);
    }
    for (int k = 0; k < 4; k++)
        if (r[k] < lo || r[k] > hi) {
            snprintf(msg, sizeof msg, "%s %.60s: %ld is out of range [%ld, %ld]", opt, v, r[k], lo, hi);
            return die_usage(msg, NULL);
        }
    if (r[2] < r[0] || r[3] < r[1]) {
        snprintf(msg, sizeof msg, "%s %.60s: reversed corners: the second corner must not be below the first (X1 >= X0, Z1 >= Z0)",
                 opt, v);
        return die_usage(msg, NULL);
    }
    return -1;
}

/* --chunks X0,Z0[:X1,Z1] (parse_rect); returns 0, or the exit status after one line */
int chunk_range(const char *chunks, long r[4], const char *usage)
{
    (void)usage;
    int rc = parse_rect("--chunks", chunks, 1, -CF_MAX_CHUNK, CF_MAX_CHUNK, "chunk coordinates", r);
    return rc < 0 ? 0 : rc;
}

/* --area X0,Z0:X1,Z1 in blocks (every chunk chunkfill fills): parse_rect */
int parse_area(const char *area, long r[4])
{
    long lim = (long)CF_MAX_CHUNK * 16;
    return parse_rect("--area", area, 0, -lim, lim + 15, "block coordinates", r);
}

/* --stage noise|surface into *surface (0 or 1); -1, or 2 after one line naming the value */
int parse_stage(const char *v, int *surface)
{
    static const char *const stages[] = {"noise", "surface"};
    if (strcmp(v, "noise") == 0 || strcmp(v, "surface") == 0) return *surface = v[0] == 's', -1;
    const char *near = cli_near(v, stages, 2);
    char msg[300];
    snprintf(msg, sizeof msg, "--stage %.60s: no such stage (the stages are noise and surface)%s%s%s", v, near ? "; did you mean " : "",
             near ? near : "", near ? "?" : "");
    return die_usage(msg, NULL);
}

/* --layer NAME: the layer's index (cf_map_layer_find), or -2 after one line that lists the layers */
int parse_layer(const char *name)
{
    int k = cf_map_layer_find(name);
    if (k >= 0) return k;
    const char *names[64];
    int n = 0;
    while (n < 64 && (names[n] = cf_map_layer(n, NULL, NULL))) n++;
    const char *near = cli_near(name, names, (size_t)n);
    char msg[1200];
    int len = snprintf(msg, sizeof msg, "--layer %.60s: no such layer (the layers are", name);
    for (int i = 0; i < n && len > 0 && (size_t)len < sizeof msg; i++)
        len += snprintf(msg + len, sizeof msg - (size_t)len, "%s %s", i ? "," : "", names[i]);
    if (len > 0 && (size_t)len < sizeof msg)
        snprintf(msg + len, sizeof msg - (size_t)len, ")%s%s%s", near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
    die_usage(msg, NULL);
    return -2;
}

/* --device of the map commands: cpu (the default: *device NULL) or opencl[:N]; -1, or 2 after one line */
int parse_map_device(const char **device)
{
    if (!*device || strcmp(*device, "cpu") == 0) return *device = NULL, -1;
    const char *s = *device;
    if (strcmp(s, "opencl") == 0) return -1;
    if (strncmp(s, "opencl:", 7) == 0 && s[7] >= '0' && s[7] <= '9' && strspn(s + 7, "0123456789") == strlen(s + 7) && strlen(s + 7) <= 4)
        return -1;
    char msg[200];
    snprintf(msg, sizeof msg, "--device %.60s: takes cpu, opencl or opencl:N (N as `chunkfill devices` lists)", s);
    return die_usage(msg, NULL);
}
