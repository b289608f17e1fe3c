/* opts.c - the one option parser of every chunkfill command: the options all commands
 * share (packs, settings, functions, limits, dialect, --strict, --define, --external), a
 * command's own options as a table of optdef rows (parse_cmd), and the spellings of
 * points and chunk ranges. A usage error: one line and the command's usage on stderr,
 * exit status 2. Allocates only the point list of opts (the command frees it).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int die_usage(const char *msg, const char *usage)
{
    fprintf(stderr, "chunkfill: %s\n%s", msg, usage);
    return 2;
}

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

/* common options; returns 0 when consumed (advancing *i), 1 when not ours, 2 on error */
int common_opt(opts *o, int argc, char **argv, int *i, const char *usage)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    long n;
    int co = strcmp(a, "--function") == 0 ? CO_FUNCTION : strcmp(a, "--external") == 0 ? CO_EXTERNAL
             : strcmp(a, "--define") == 0 ? CO_DEFINE : strcmp(a, "--strict") == 0 ? CO_STRICT
             : strncmp(a, "--max-", 6) == 0 && strcmp(a, "--max-chunks") != 0 ? CO_LIMITS : 0;
    if (co & o->refuse) return 1; /* not an option of this command */
    if (strcmp(a, "--strict") == 0) return o->strict = 1, 0;
    if (strcmp(a, "--pack") == 0 || strcmp(a, "--settings") == 0 || strcmp(a, "--function") == 0
        || strcmp(a, "--max-file-bytes") == 0 || strcmp(a, "--max-nodes") == 0 || strcmp(a, "--max-depth") == 0
        || strcmp(a, "--max-memory") == 0 || strcmp(a, "--external") == 0 || strcmp(a, "--dialect") == 0
        || strcmp(a, "--define") == 0) {
        if (!v) return die_usage("missing value after option", usage), 2;
        (*i)++;
        if (strcmp(a, "--pack") == 0) {
            if (o->npacks == 64) return die_usage("too many --pack options (at most 64)", usage), 2;
            o->packs[o->npacks++] = v;
        } else if (strcmp(a, "--settings") == 0) {
            o->settings = v;
        } else if (strcmp(a, "--external") == 0) {
            const char *eq = strchr(v, '=');
            char *end = NULL;
            double d = eq && eq[1] != '@' ? strtod(eq + 1, &end) : 0;
            if (eq && eq != v && eq[1] == '@' && eq[2]) end = (char *)"";
            else if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(d))
                return die_usage("--external takes NAME=VALUE (a finite number) or NAME=@MAP.npy[,X0,Z0[,STEP]]", usage), 2;
            if (o->next == 64) return die_usage("too many --external options (at most 64)", usage), 2;
            o->ext[o->next++] = v;
        } else if (strcmp(a, "--define") == 0) {
            const char *eq = strrchr(v, '='); /* TYPE[FIELD=TEXT]=VALUE: the last '=' */
            char *end = NULL;
            double d = eq ? strtod(eq + 1, &end) : 0;
            if (!eq || eq == v || !end || end == eq + 1 || *end || !isfinite(d))
                return die_usage("--define takes TYPE=VALUE (a density function type such as tectonic:config, a finite number)", usage), 2;
            if (o->ndefs == 64) return die_usage("too many --define options (at most 64)", usage), 2;
            o->defs[o->ndefs++] = v;
        } else if (strcmp(a, "--dialect") == 0) {
            if (strcmp(v, "1.21") == 0) o->dialect = CF_DIALECT_MC121;
            else if (strcmp(v, "26.3") == 0) o->dialect = CF_DIALECT_MC263;
            else o->irisd = v; /* Iris's branch (sample checks it: master or unification) */
        } else if (strcmp(a, "--function") == 0) {
            if (o->nfunctions == 64) return die_usage("too many --function options (at most 64)", usage), 2;
            o->functions[o->nfunctions++] = v;
        } else {
            if (parse_long(v, 1, LONG_MAX, &n) < 0) return die_usage("limit must be a positive integer", usage), 2;
            if (strcmp(a, "--max-file-bytes") == 0) o->lim.max_file_bytes = (size_t)n;
            else if (strcmp(a, "--max-memory") == 0) o->lim.max_fill_bytes = (size_t)n;
            else if (strcmp(a, "--max-nodes") == 0) o->lim.max_nodes = (size_t)n;
            else o->lim.max_depth = n > 100000 ? 100000 : (int)n;
        }
        return 0;
    }
    return 1;
}

/* parses argv[2..]: --help, the common options, then the command's rows. Returns
 * -1 to go on, or the exit status (0 after --help, 2 for bad usage). */
int parse_cmd(opts *o, int argc, char **argv, optdef *defs, const char *usage)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return fputs(usage, stdout), 0;
        int r = common_opt(o, argc, argv, &i, usage);
        if (r == 2) return 2;
        if (r == 0) continue;
        optdef *d = NULL;
        for (optdef *q = defs; q && q->name; q++)
            if (strcmp(a, q->name) == 0) d = q;
        char msg[300];
        if (!d) {
            snprintf(msg, sizeof msg, strncmp(a, "--", 2) == 0 ? "unknown option '%s'" : "unexpected argument '%s'", a);
            return die_usage(msg, usage);
        }
        if (d->flag) {
            *d->flag = 1;
            d->seen = 1;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            snprintf(msg, sizeof msg, "missing value after '%s'", a);
            return die_usage(msg, usage);
        }
        i++;
        d->seen = 1;
        if (d->fn) {
            int rc = d->fn(o, v);
            if (rc) return rc;
        } else if (d->str) {
            *d->str = v;
        } else if (parse_long(v, d->lo, d->hi, d->num) < 0) {
            snprintf(msg, sizeof msg, "%s takes an integer in [%ld, %ld]", a, d->lo, d->hi);
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

/* --chunks X0,Z0[:X1,Z1]: parsed into r, checked; returns 0, or the exit status
 * (2 usage, 1 bad input) after printing one line */
int chunk_range(const char *chunks, long r[4], const char *usage)
{
    if (parse_chunks(chunks, r) < 0) return die_usage("--chunks takes X0,Z0 or X0,Z0:X1,Z1 (integers)", usage);
    for (int k = 0; k < 4; k++)
        if (r[k] < -CF_MAX_CHUNK || r[k] > CF_MAX_CHUNK) {
            fprintf(stderr, "chunkfill: --chunks %s: chunk coordinate %ld out of range [%d, %d]\n", chunks, r[k],
                    -CF_MAX_CHUNK, CF_MAX_CHUNK);
            return 1;
        }
    if (r[2] < r[0] || r[3] < r[1]) {
        fprintf(stderr, "chunkfill: --chunks %s: the second corner must not be below the first\n", chunks);
        return 1;
    }
    return 0;
}
