/* cli.c - the chunkfill command line. A client of include/chunkfill.h only.
 *
 *   chunkfill sample [--pack PATH]... [--settings ID] --seed SEED --function ID
 *                    (--at X,Y,Z)... | --points FILE
 *   chunkfill nodes            the node table
 *   chunkfill info [--pack PATH]... [--settings ID] [--function ID]...
 * Errors: one line on stderr; exit 1 for bad input, 2 for bad usage.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunkfill.h"

static const char *const usage_main =
    "usage: chunkfill COMMAND [OPTIONS]\n"
    "commands:\n"
    "  sample   evaluate a density function at block positions (single-point path)\n"
    "  info     compile a pack and print graph statistics\n"
    "  nodes    list the density function node kinds\n"
    "Run 'chunkfill COMMAND --help' for the options of a command.\n";

static const char *const usage_sample =
    "usage: chunkfill sample [--pack PATH]... [--settings ID] --seed SEED --function ID\n"
    "                        (--at X,Y,Z)... | --points FILE\n"
    "Prints one line per point: X Y Z VALUE (VALUE round-trips exactly: %.9g for float).\n"
    "  --pack PATH      a data pack folder (data/<ns>/worldgen/...); repeat to layer packs,\n"
    "                   later ones override earlier ones; none: the embedded default pack\n"
    "  --settings ID    noise settings id (default minecraft:overworld)\n"
    "  --seed SEED      a signed 64-bit decimal; other text is hashed like Minecraft (String.hashCode)\n"
    "  --function ID    a density function id, router:FIELD (a noise_router field) or noise:ID\n"
    "  --at X,Y,Z       a block position (repeatable)\n"
    "  --points FILE    one 'X Y Z' per line ('-' reads standard input; # starts a comment)\n"
    "  --max-file-bytes N, --max-nodes N, --max-depth N   loading limits\n";

static const char *const usage_info =
    "usage: chunkfill info [--pack PATH]... [--settings ID] [--function ID]...\n"
    "Compiles the functions (default router:final_density) and prints node counts,\n"
    "axis classes and value ranges after the graph passes.\n";

typedef struct opts {
    const char *packs[64];
    int npacks;
    const char *settings, *seed, *points;
    const char *functions[64];
    int nfunctions;
    int32_t *at;
    size_t nat, capat;
    cf_limits lim;
} opts;

static int die_usage(const char *msg, const char *usage)
{
    fprintf(stderr, "chunkfill: %s\n%s", msg, usage);
    return 2;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int push_point(opts *o, long x, long y, long z)
{
    if (o->nat == o->capat) {
        size_t cap = o->capat ? o->capat * 2 : 64;
        int32_t *a = realloc(o->at, sizeof(int32_t) * 3 * cap);
        if (!a) return -1;
        o->at = a;
        o->capat = cap;
    }
    o->at[3 * o->nat] = (int32_t)x;
    o->at[3 * o->nat + 1] = (int32_t)y;
    o->at[3 * o->nat + 2] = (int32_t)z;
    o->nat++;
    return 0;
}

static int parse_xyz(const char *s, char sep, long v[3])
{
    char buf[128];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    char *p = buf;
    for (int i = 0; i < 3; i++) {
        while (sep == ' ' && (*p == ' ' || *p == '\t')) p++;
        char *e = p;
        while (*e && *e != sep && !(sep == ' ' && *e == '\t')) e++;
        char c = *e;
        *e = 0;
        if (parse_long(p, INT32_MIN, INT32_MAX, &v[i]) < 0) return -1;
        if (i < 2 && c == 0) return -1;
        p = e + (c ? 1 : 0);
    }
    while (sep == ' ' && (*p == ' ' || *p == '\t')) p++;
    return *p ? -1 : 0;
}

static int read_points(opts *o, const char *path)
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
        long v[3];
        if (parse_xyz(s, ' ', v) < 0) {
            fprintf(stderr, "chunkfill: %s:%d: expected three integers 'X Y Z' in int range\n", path, ln);
            rc = 1;
            break;
        }
        if (push_point(o, v[0], v[1], v[2]) < 0) {
            fprintf(stderr, "chunkfill: out of memory\n");
            rc = 1;
            break;
        }
    }
    if (f != stdin) fclose(f);
    return rc;
}

/* common options; returns 0 when consumed (advancing *i), 1 when not ours, 2 on error */
static int common_opt(opts *o, int argc, char **argv, int *i, const char *usage)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    long n;
    if (strcmp(a, "--pack") == 0 || strcmp(a, "--settings") == 0 || strcmp(a, "--function") == 0
        || strcmp(a, "--max-file-bytes") == 0 || strcmp(a, "--max-nodes") == 0 || strcmp(a, "--max-depth") == 0) {
        if (!v) return die_usage("missing value after option", usage), 2;
        (*i)++;
        if (strcmp(a, "--pack") == 0) {
            if (o->npacks == 64) return die_usage("too many --pack options (at most 64)", usage), 2;
            o->packs[o->npacks++] = v;
        } else if (strcmp(a, "--settings") == 0) {
            o->settings = v;
        } else if (strcmp(a, "--function") == 0) {
            if (o->nfunctions == 64) return die_usage("too many --function options (at most 64)", usage), 2;
            o->functions[o->nfunctions++] = v;
        } else {
            if (parse_long(v, 1, LONG_MAX, &n) < 0) return die_usage("limit must be a positive integer", usage), 2;
            if (strcmp(a, "--max-file-bytes") == 0) o->lim.max_file_bytes = (size_t)n;
            else if (strcmp(a, "--max-nodes") == 0) o->lim.max_nodes = (size_t)n;
            else o->lim.max_depth = n > 100000 ? 100000 : (int)n;
        }
        return 0;
    }
    return 1;
}

static int report(const cf_error *e)
{
    fprintf(stderr, "%s\n", e->message[0] ? e->message : cf_status_str(e->status));
    return 1;
}

static int cmd_sample(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return fputs(usage_sample, stdout), 0;
        int r = common_opt(&o, argc, argv, &i, usage_sample);
        if (r == 2) return 2;
        if (r == 0) continue;
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--seed") == 0 || strcmp(a, "--at") == 0 || strcmp(a, "--points") == 0) {
            if (!v) return die_usage("missing value after option", usage_sample);
            i++;
            if (strcmp(a, "--seed") == 0) o.seed = v;
            else if (strcmp(a, "--points") == 0) o.points = v;
            else {
                long xyz[3];
                if (parse_xyz(v, ',', xyz) < 0) return die_usage("--at takes X,Y,Z (integers in int range)", usage_sample);
                if (push_point(&o, xyz[0], xyz[1], xyz[2]) < 0) return fprintf(stderr, "chunkfill: out of memory\n"), 1;
            }
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option '%s'", a);
            return die_usage(msg, usage_sample);
        }
    }
    if (!o.seed) return die_usage("--seed is required", usage_sample);
    if (o.nfunctions != 1) return die_usage("exactly one --function is required", usage_sample);
    if (o.points && read_points(&o, o.points)) return free(o.at), 1;
    if (o.nat == 0 && !o.points) return die_usage("give --at X,Y,Z or --points FILE", usage_sample);

    cf_error err = {0};
    int64_t seed;
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    double *out = NULL;
    int rc = 1;
    if (cf_seed_parse(o.seed, &seed, &err) != CF_OK) goto done;
    if (cf_pack_open(&pk, o.packs, o.npacks, &o.lim, &err) != CF_OK) goto done;
    if (cf_program_compile(&pg, pk, o.settings, o.functions, 1, &err) != CF_OK) goto done;
    if (cf_world_new(&w, pg, seed, &err) != CF_OK) goto done;
    out = malloc(sizeof(double) * (o.nat ? o.nat : 1));
    if (!out) {
        snprintf(err.message, sizeof err.message, "out of memory");
        goto done;
    }
    if (cf_sample(w, 0, o.nat, o.at, out, &err) != CF_OK) goto done;
    int prec = cf_program_precision(pg);
    for (size_t i = 0; i < o.nat; i++)
        printf(prec == 32 ? "%d %d %d %.9g\n" : "%d %d %d %.17g\n", o.at[3 * i], o.at[3 * i + 1], o.at[3 * i + 2],
               out[i]);
    rc = fflush(stdout) == 0 ? 0 : 1;
    if (rc) fprintf(stderr, "chunkfill: write error on standard output\n");
done:
    if (rc && err.status != CF_OK) report(&err);
    free(out);
    free(o.at);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static int cmd_info(int argc, char **argv)
{
    opts o = {0};
    cf_limits_default(&o.lim);
    o.settings = "minecraft:overworld";
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage_info, stdout), 0;
        int r = common_opt(&o, argc, argv, &i, usage_info);
        if (r == 2) return 2;
        if (r == 1) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[i]);
            return die_usage(msg, usage_info);
        }
    }
    if (o.nfunctions == 0) o.functions[o.nfunctions++] = "router:final_density";
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    int rc = 1;
    if (cf_pack_open(&pk, o.packs, o.npacks, &o.lim, &err) != CF_OK) goto done;
    if (cf_program_compile(&pg, pk, o.settings, o.functions, o.nfunctions, &err) != CF_OK) goto done;
    fputs(cf_program_describe(pg), stdout);
    rc = 0;
done:
    if (rc) report(&err);
    cf_program_free(pg);
    cf_pack_free(pk);
    return rc;
}

static int cmd_nodes(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return fputs("usage: chunkfill nodes\nLists every density function node kind: name, fields, value.\n", stdout), 0;
        return die_usage("nodes takes no options", "usage: chunkfill nodes\n");
    }
    const char *name, *fields, *summary;
    for (int i = 0; cf_node_kind_info(i, &name, &fields, &summary); i++)
        printf("%-18s %s\n%-18s   %s\n", name, fields[0] ? fields : "(no fields)", "", summary);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return fputs(usage_main, stderr), 2;
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) return fputs(usage_main, stdout), 0;
    if (strcmp(c, "sample") == 0) return cmd_sample(argc, argv);
    if (strcmp(c, "info") == 0) return cmd_info(argc, argv);
    if (strcmp(c, "nodes") == 0) return cmd_nodes(argc, argv);
    fprintf(stderr, "chunkfill: unknown command '%s'\n%s", c, usage_main);
    return 2;
}
