/* hytale_util.h - what the Hytale V2 suites (test_hytale.c, test_hytale_v2.c) share: memory
 * packs, compiling one V2 node, sampling it, a deterministic position sequence, the bad-input
 * check. Header-only (static inline); include after criterion.h, chunkfill.h and testutil.h. */
#ifndef CF_TEST_HYTALE_UTIL_H
#define CF_TEST_HYTALE_UTIL_H

#define MAXF 8
typedef struct mpack {
    cf_memfile f[MAXF];
    int n;
} mpack;

/* compiles hytale:t from a memory pack whose hytale/Density/t.json is json (plus extra files) */
static inline cf_status compile_files(const mpack *m, const char *fn, const char *ext_name, double ext, cf_program **pg, cf_error *err)
{
    cf_pack *pk;
    cr_assert_eq(cf_pack_open_memory(&pk, m->f, (size_t)m->n, NULL, err), CF_OK, "%s", err->message);
    if (ext_name) cr_assert_eq(cf_pack_set_external(pk, ext_name, ext, err), CF_OK);
    const char *fns[1] = {fn};
    *pg = NULL;
    cf_status st = cf_program_compile(pg, pk, "minecraft:overworld", fns, 1, err);
    cf_pack_free(pk);
    return st;
}
static inline cf_program *compile1(const char *json)
{
    mpack m = {{{"hytale/Density/t.json", json, strlen(json)}}, 1};
    cf_error err = {0};
    cf_program *pg;
    cr_assert_eq(compile_files(&m, "hytale:t", NULL, 0, &pg, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_precision(pg), 64);
    return pg;
}
static inline double one(const char *json, double x, double y, double z)
{
    cf_program *pg = compile1(json);
    double v = sample_at(pg, 0, x, y, z);
    cf_program_free(pg);
    return v;
}
static inline int same(double a, double b) { return dbits(a) == dbits(b); }
#define C(v) "{\"Type\":\"Constant\",\"Value\":" #v "}"
#define NAN_NODE "{\"Type\":\"Normalizer\",\"FromMin\":0,\"FromMax\":0,\"ToMin\":0,\"ToMax\":1,\"Inputs\":[" C(0) "]}"
#define INF_NODE "{\"Type\":\"Normalizer\",\"FromMin\":0,\"FromMax\":0,\"ToMin\":0,\"ToMax\":1,\"Inputs\":[" C(1) "]}"
#define NEGZERO "{\"Type\":\"Inverter\",\"Inputs\":[" C(0) "]}"
#define SIMPLEX "{\"Type\":\"SimplexNoise2D\",\"Scale\":40,\"Octaves\":3,\"Lacunarity\":2,\"Persistence\":0.5,\"Seed\":\"s\"}"

/* a deterministic sequence of positions (splitmix64), some fractional, some large */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static inline double rnd(double lo, double hi)
{
    rng += 0x9e3779b97f4a7c15ULL;
    uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0);
}

/* ------------------------------------------------------------------ bad input */
static inline void bad(const char *json, const char *extra, cf_status st, const char *where, const char *msg)
{
    mpack m = {{{"hytale/Density/t.json", json, strlen(json)}}, 1};
    if (extra) m.f[m.n++] = (cf_memfile){"hytale/Density/u.json", extra, strlen(extra)};
    cf_error err = {0};
    cf_program *pg;
    cf_status got = compile_files(&m, "hytale:t", NULL, 0, &pg, &err);
    cf_program_free(pg);
    cr_assert_eq(got, st, "status %s, expected %s: %s", cf_status_str(got), cf_status_str(st), err.message);
    char prefix[300];
    snprintf(prefix, sizeof prefix, "<memory>/hytale/Density/%s: ", where);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "message '%s', expected prefix '%s'", err.message, prefix);
    cr_assert(strstr(err.message, msg), "message '%s' lacks '%s'", err.message, msg);
    cr_assert(!strchr(err.message, '\n'));
}

#endif
