/* test_structures.c - the structure stage (docs/structures.md) against cubiomes' answers in
 * tests/golden/structures/cubiomes.txt (its README names the program and commands): the
 * candidate chunks of every random_spread set of tests/packs/structures (vanilla's parameters,
 * frequency reductions, the outposts' exclusion zone, the nether complexes' weighted choice),
 * the stronghold rings (1.19.3+ forks and 1.18-1.19.2's one random), the climate spawn point;
 * then the biome checks against chunkfill's own biome answers, the retry of a set's choice, a
 * start where the height-exact check differs from a top-of-world sample, tag filters, the CLI
 * and bad input (one located line each). The stronghold and spawn cases read ../shared. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunkfill.h"
#include "structure/structure.h"
#include "testutil.h"

#define PACK_DIR CF_SOURCE_DIR "/tests/packs/structures"
#define CF_PYR_AREA 6000, -1000, 6911, 191 /* chunks 375..431, -63..11: starts at 394, -48 and 385, -10, a corner below sea level at 423, 5 */
#define CF_IGLOO_AREA 1536, -1024, 2559, 0 /* a start at chunk 130, -22 */
#define CF_HUT_AREA 1024, -1536, 2047, -1024 /* starts at chunks 78, -76 and 96, -80 */

/* ------------------------------------------------------------------ helpers */
typedef struct lines {
    char **v;
    int n, cap;
} lines;

static void push(lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
        cr_assert(l->v);
    }
    l->v[l->n] = strdup(s);
    cr_assert(l->v[l->n]);
    l->n++;
}
static void lines_free(lines *l)
{
    for (int i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    *l = (lines){0};
}
static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int has_line(const lines *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0) return 1;
    return 0;
}

/* the starts of a find, kept whole */
typedef struct starts {
    cf_structure_start *v;
    int n, cap;
} starts;
static int keep(void *ctx, const cf_structure_start *st)
{
    starts *s = ctx;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->v = realloc(s->v, sizeof *s->v * (size_t)s->cap);
        cr_assert(s->v);
    }
    s->v[s->n++] = *st;
    return 0;
}

/* floor division */
static int64_t fdiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/* packs, biome source and structures of one case */
typedef struct world {
    cf_pack *pk;
    cf_biomes *b;
    cf_structures *s;
} world;

static void open_world(world *w, const char *base, const char *dimension, const char *version, int64_t seed)
{
    const char *paths[2] = {base, PACK_DIR};
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&w->pk, paths, 2, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&w->b, w->pk, dimension, NULL, version, seed, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_structures_open(&w->s, w->pk, w->b, seed, version, &err), CF_OK, "%s", err.message);
}
static void close_world(world *w)
{
    cf_structures_free(w->s);
    cf_biomes_free(w->b);
    cf_pack_free(w->pk);
    *w = (world){0};
}
static void find(world *w, int32_t x0, int32_t z0, int32_t x1, int32_t z1, const char *const *only, int nonly, starts *out)
{
    cf_error err = {0};
    cr_assert_eq(cf_structures_find(w->s, x0, z0, x1, z1, only, nonly, keep, out, &err), CF_OK, "%s", err.message);
}

/* the golden blocks: "@ KIND seed=S ..." and their lines, in file order */
typedef struct block {
    char head[512];
    lines body;
} block;
static int golden(block *bl, int max)
{
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/structures/cubiomes.txt", "r");
    cr_assert(f, "tests/golden/structures/cubiomes.txt is missing");
    char line[512];
    int n = -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '#' || !line[0]) continue;
        if (line[0] == '@') {
            cr_assert_lt(n + 1, max);
            n++;
            memset(&bl[n], 0, sizeof bl[n]);
            snprintf(bl[n].head, sizeof bl[n].head, "%s", line);
        } else {
            cr_assert_geq(n, 0);
            push(&bl[n].body, line);
        }
    }
    fclose(f);
    return n + 1;
}
static int64_t head_seed(const block *b)
{
    char v[64];
    cr_assert_eq(line_field(b->head, "seed", v, sizeof v), 0, "%s", b->head);
    return strtoll(v, NULL, 10);
}

/* ------------------------------------------------------------------ against cubiomes */
Test(structures, candidates_equal_cubiomes)
{
    static block bl[64];
    int nb = golden(bl, 64), ran = 0;
    char vanilla[4096];
    int have = shared_have("vanilla/1.21.11", vanilla, sizeof vanilla);
    for (int i = 0; i < nb; i++) {
        if (strncmp(bl[i].head, "@ candidates ", 13) != 0) continue;
        char dim[128];
        cr_assert_eq(line_field(bl[i].head, "dimension", dim, sizeof dim), 0);
        int nether = strcmp(dim, "minecraft:the_nether") == 0;
        if (nether && !have) continue;
        world w = {0};
        open_world(&w, nether ? vanilla : CF_SOURCE_DIR "/packs/default", dim, NULL, head_seed(&bl[i]));
        starts st = {0};
        find(&w, -2048, -2048, 2047, 2047, NULL, 0, &st);
        lines got = {0};
        for (int k = 0; k < st.n; k++) {
            const cf_structure_start *s = &st.v[k];
            if (strncmp(s->set, "minecraft:", 10) != 0 || strcmp(s->set, "minecraft:strongholds") == 0) continue;
            /* the terrain-checked sets the golden has no block of (terrain_checks_from_columns_and_biomes) */
            if (strcmp(s->set, "minecraft:igloos") == 0 || strcmp(s->set, "minecraft:swamp_huts") == 0) continue;
            if (nether && strcmp(s->set, "minecraft:nether_complexes") != 0) continue; /* the golden's nether part */
            char line[256];
            snprintf(line, sizeof line, "C %s %d %d%s%s", s->set + 10, s->chunk_x, s->chunk_z, nether ? " " : "",
                     nether ? s->structure + 10 : "");
            push(&got, line);
            if (nether) {
                /* the fortress passes everywhere in the nether; the bastion (a jigsaw) is not checked */
                int fortress = strcmp(s->structure, "minecraft:fortress") == 0;
                cr_expect_str_eq(s->checked, fortress ? "biome" : "none");
                cr_expect_eq(s->unverified == NULL, fortress, "%s", s->structure);
            }
        }
        qsort(got.v, (size_t)got.n, sizeof *got.v, cmp_line);
        qsort(bl[i].body.v, (size_t)bl[i].body.n, sizeof *bl[i].body.v, cmp_line);
        cr_expect_eq(got.n, bl[i].body.n, "%s: %d starts, cubiomes %d", bl[i].head, got.n, bl[i].body.n);
        for (int k = 0; k < bl[i].body.n; k++)
            cr_expect(has_line(&got, bl[i].body.v[k]), "%s: cubiomes has '%s', chunkfill not", bl[i].head, bl[i].body.v[k]);
        ran++;
        free(st.v);
        lines_free(&got);
        close_world(&w);
    }
    cr_assert_geq(ran, 5);
    for (int i = 0; i < nb; i++) lines_free(&bl[i].body);
}

/* the candidate chunk of every region (placement alone: spacing, separation, salt, spread type) of
 * every random_spread set of tests/packs/structures and tests/packs/structure-sets (vanilla's
 * parameters) but the per-chunk ones (buried treasures, mineshafts: candidates_equal_cubiomes),
 * against cubiomes' 1.21.4, 1.20.6 and 1.18.2 (the sets each version has) in chunks -64..63 */
Test(structures, placement_equals_cubiomes)
{
    static block bl[64];
    int nb = golden(bl, 64), ran = 0;
    for (int i = 0; i < nb; i++) {
        if (strncmp(bl[i].head, "@ placement ", 12) != 0) continue;
        const char *paths[3] = {CF_SOURCE_DIR "/packs/default", PACK_DIR, CF_SOURCE_DIR "/tests/packs/structure-sets"};
        world w = {0};
        cf_error err = {0};
        cr_assert_eq(cf_pack_open(&w.pk, paths, 3, NULL, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_biomes_open(&w.b, w.pk, NULL, NULL, NULL, head_seed(&bl[i]), &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_structures_open(&w.s, w.pk, w.b, head_seed(&bl[i]), NULL, &err), CF_OK, "%s", err.message);
        lines got = {0};
        int nsets = 0;
        for (int k = 0; k < w.s->nsets; k++) {
            const st_set *t = &w.s->sets[k];
            if (t->kind != SP_RANDOM_SPREAD || strncmp(t->id, "minecraft:", 10) != 0 || t->spacing == 1) continue;
            char pre[128];
            snprintf(pre, sizeof pre, "P %s ", t->id + 10);
            int in = 0; /* the version has the set: cubiomes lists it */
            for (int m = 0; m < bl[i].body.n && !in; m++) in = strncmp(bl[i].body.v[m], pre, strlen(pre)) == 0;
            if (!in) {
                cr_expect(!strstr(bl[i].head, "version=1.21.4"), "%s: set %s not in cubiomes' answer", bl[i].head, t->id);
                continue;
            }
            nsets++;
            for (int32_t rz = fdiv(-64, t->spacing); rz <= fdiv(63, t->spacing); rz++)
                for (int32_t rx = fdiv(-64, t->spacing); rx <= fdiv(63, t->spacing); rx++) {
                    int32_t c[2];
                    structures_candidate(w.s, k, rx * t->spacing, rz * t->spacing, c);
                    if (c[0] < -64 || c[0] > 63 || c[1] < -64 || c[1] > 63) continue;
                    char line[256];
                    snprintf(line, sizeof line, "%s%d %d", pre, c[0], c[1]);
                    push(&got, line);
                }
        }
        qsort(got.v, (size_t)got.n, sizeof *got.v, cmp_line);
        cr_expect_eq(got.n, bl[i].body.n, "%s: %d candidates, cubiomes %d", bl[i].head, got.n, bl[i].body.n);
        for (int k = 0; k < bl[i].body.n; k++)
            cr_expect(has_line(&got, bl[i].body.v[k]), "%s: cubiomes has '%s', chunkfill not", bl[i].head, bl[i].body.v[k]);
        cr_expect_geq(nsets, 13, "%s: %d sets", bl[i].head, nsets);
        lines_free(&got);
        close_world(&w);
        ran++;
    }
    cr_assert_eq(ran, 11);
    for (int i = 0; i < nb; i++) lines_free(&bl[i].body);
}

/* the first two rings (9 positions) of 1.19.3+ (forked searches) and 1.18.2 (one random); every
 * position (the 128 of the eight circles: "@ rings") of 1.21.4, 1.20.6 and 1.18.2, seed -1, and
 * 1.18.2, seed 0: then the starts of the whole ring area are cubiomes' chunks (as a set: two
 * searches landing on one chunk make one start) */
Test(structures, strongholds_equal_cubiomes)
{
    static block bl[64];
    int nb = golden(bl, 64), ran = 0;
    char vanilla[4096];
    shared_need("vanilla/1.21.11", vanilla, sizeof vanilla);
    for (int i = 0; i < nb; i++) {
        int all = strncmp(bl[i].head, "@ rings ", 8) == 0, far = all ? 26000 : 6000;
        if (strncmp(bl[i].head, "@ strongholds ", 14) != 0 && !all) continue;
        char ver[32];
        cr_assert_eq(line_field(bl[i].head, "version", ver, sizeof ver), 0);
        cr_assert_eq(bl[i].body.n, all ? 128 : 9, "%s", bl[i].head);
        world w = {0};
        open_world(&w, vanilla, NULL, ver, head_seed(&bl[i]));
        starts st = {0};
        const char *only[1] = {"minecraft:stronghold"};
        find(&w, -far, -far, far, far, only, 1, &st);
        lines got = {0}, want = {0};
        for (int k = 0; k < st.n; k++) {
            char line[128];
            snprintf(line, sizeof line, "%d %d", st.v[k].chunk_x, st.v[k].chunk_z);
            push(&got, line);
            cr_expect_str_eq(st.v[k].checked, "biome"); /* every overworld biome: passes anywhere */
        }
        for (int k = 0; k < bl[i].body.n; k++) {
            int idx, x, z;
            cr_assert_eq(sscanf(bl[i].body.v[k], "S %d %d %d", &idx, &x, &z), 3);
            char line[128];
            snprintf(line, sizeof line, "%d %d", x, z);
            cr_expect(has_line(&got, line), "%s: stronghold %d at chunk %s missing", bl[i].head, idx, line);
            if (!has_line(&want, line)) push(&want, line);
        }
        cr_expect(!all || got.n == want.n, "%s: %d strongholds, cubiomes %d chunks", bl[i].head, got.n, want.n);
        /* anything else found in the square belongs to the third ring (at least 464 chunks out) */
        for (int k = 0; k < st.n; k++)
            if (hypot(st.v[k].chunk_x, st.v[k].chunk_z) < 440) {
                int known = 0;
                for (int m = 0; m < bl[i].body.n; m++) {
                    int idx, x, z;
                    sscanf(bl[i].body.v[m], "S %d %d %d", &idx, &x, &z);
                    known |= x == st.v[k].chunk_x && z == st.v[k].chunk_z;
                }
                cr_expect(known, "%s: a stronghold at chunk %d, %d that cubiomes does not have", bl[i].head, st.v[k].chunk_x,
                          st.v[k].chunk_z);
            }
        ran++;
        free(st.v);
        lines_free(&got);
        lines_free(&want);
        close_world(&w);
    }
    cr_assert_eq(ran, 10);
    for (int i = 0; i < nb; i++) lines_free(&bl[i].body);
}

Test(structures, climate_spawn_equals_cubiomes)
{
    static block bl[64];
    int nb = golden(bl, 64), ran = 0;
    char vanilla[4096], v263[4096];
    shared_need("vanilla/1.21.11", vanilla, sizeof vanilla);
    shared_need("vanilla/26.3", v263, sizeof v263);
    const char *paths[2] = {vanilla, v263};
    cf_pack *pk = NULL, *pk263 = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_pack_open(&pk263, paths + 1, 1, NULL, &err), CF_OK, "%s", err.message);
    /* 1.21.11's data at 1.21.4 and 1.18.2 (the lists cubiomes has), then 26.3's own data against
     * the 1.21.4 answers (the same noises and weight; cubiomes has no 26.x) */
    for (int j = 0; j < 2 * nb; j++) {
        int i = j % nb, d263 = j >= nb;
        if (strncmp(bl[i].head, "@ spawn ", 8) != 0 || (d263 && !strstr(bl[i].head, "version=1.21.4"))) continue;
        char ver[32];
        cr_assert_eq(line_field(bl[i].head, "version", ver, sizeof ver), 0);
        if (d263) snprintf(ver, sizeof ver, "26.3");
        cf_biomes *b = NULL;
        cr_assert_eq(cf_biomes_open(&b, d263 ? pk263 : pk, NULL, NULL, ver, head_seed(&bl[i]), &err), CF_OK, "%s", err.message);
        int32_t xz[2];
        cr_assert_eq(cf_spawn_climate(b, ver, xz, &err), CF_OK, "%s", err.message);
        int cx, cz;
        cr_assert_eq(bl[i].body.n, 1);
        cr_assert_eq(sscanf(bl[i].body.v[0], "P %d %d", &cx, &cz), 2);
        /* cubiomes gives the chunk's centre: the chunk is what the game's spawn spiral starts from */
        cr_expect(xz[0] >> 4 == cx && xz[1] >> 4 == cz, "%s (%s data): climate point %d, %d (chunk %d, %d), cubiomes chunk %d, %d",
                  bl[i].head, d263 ? "26.3" : "1.21.11", xz[0], xz[1], xz[0] >> 4, xz[1] >> 4, cx, cz);
        cf_biomes_free(b);
        ran++;
    }
    cr_assert_eq(ran, 18);
    cf_pack_free(pk);
    cf_pack_free(pk263);
    for (int i = 0; i < nb; i++) lines_free(&bl[i].body);
}

/* the embedded default pack is not vanilla: its own climate noises (packs/default/README.md), so its
 * climate spawn point differs from vanilla 26.3's for the same seed. Seed 0: (25, -31) against
 * vanilla's (-31, 6) (vanilla's is cubiomes' chunk -2, 0). Shown from each source's own climate (the
 * five parameters at y 0, quantized as Climate.quantizeCoord: (long)(v * 10000)): they differ at
 * both points, and by 1.21.2's weight (the distance from the two spawn parameter points x 2048^2
 * + r^2, written out here apart from place.c) each point is the better of the two in its own source */
static int64_t sp_fit(cf_biomes *b, int32_t x, int32_t z, int64_t t[5])
{
    float v[6];
    int32_t q[3] = {x >> 2, 0, z >> 2};
    cr_assert_eq(biome_climate(b, BP_POINT, 0, q, v), 0);
    const int k[5] = {0, 1, 2, 3, 5}; /* temperature, humidity, continentalness, erosion, weirdness */
    for (int i = 0; i < 5; i++) t[i] = (int64_t)(v[k[i]] * 10000.0f);
    int64_t d = 0;
    for (int i = 0; i < 4; i++) { /* full ranges, but continentalness from -0.11 */
        int64_t lo = i == 2 ? -1100 : -10000, e = t[i] > 10000 ? t[i] - 10000 : t[i] < lo ? lo - t[i] : 0;
        d += e * e;
    }
    int64_t w = t[4] < 0 ? (t[4] > -1600 ? t[4] + 1600 : t[4] < -10000 ? -10000 - t[4] : 0)
                         : (t[4] < 1600 ? 1600 - t[4] : t[4] > 10000 ? t[4] - 10000 : 0); /* |weirdness| 0.16 .. 1 */
    return (d + w * w) * 2048 * 2048 + (int64_t)x * x + (int64_t)z * z;
}

Test(structures, climate_spawn_of_the_embedded_pack)
{
    char vanilla[4096];
    shared_need("vanilla/26.3", vanilla, sizeof vanilla);
    const char *paths[2] = {vanilla, CF_SOURCE_DIR "/packs/default"};
    const int32_t want[2][2] = {{-31, 6}, {25, -31}};
    cf_biomes *b[2] = {NULL, NULL};
    cf_pack *pk[2] = {NULL, NULL};
    int64_t t[2][2][5], fit[2][2];
    for (int s = 0; s < 2; s++) {
        cf_error err = {0};
        int32_t xz[2];
        cr_assert_eq(cf_pack_open(&pk[s], &paths[s], 1, NULL, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_biomes_open(&b[s], pk[s], NULL, NULL, "26.3", 0, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_spawn_climate(b[s], "26.3", xz, &err), CF_OK, "%s", err.message);
        cr_expect(xz[0] == want[s][0] && xz[1] == want[s][1], "%s: %d, %d", paths[s], xz[0], xz[1]);
    }
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 2; p++) fit[s][p] = sp_fit(b[s], want[p][0], want[p][1], t[s][p]);
    for (int p = 0; p < 2; p++) cr_expect(memcmp(t[0][p], t[1][p], sizeof t[0][p]) != 0, "point %d: the same climate in both", p);
    cr_expect_lt(fit[0][0], fit[0][1], "vanilla: its point is not the better");
    cr_expect_lt(fit[1][1], fit[1][0], "the embedded pack: its point is not the better");
    for (int s = 0; s < 2; s++) cf_biomes_free(b[s]), cf_pack_free(pk[s]);
}

/* docs/structures.md's table of checks names every structure type chunkfill reads, and every type
 * whose checks are not modelled gives the output's `unverified` its reason */
Test(structures, every_type_documented)
{
    FILE *f = fopen(CF_SOURCE_DIR "/docs/structures.md", "rb");
    cr_assert(f);
    static char doc[1 << 17];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = 0;
    int k = 0;
    for (; st_types[k].id; k++) {
        char id[160];
        snprintf(id, sizeof id, "`%s`", st_types[k].id);
        cr_expect(strstr(doc, id), "docs/structures.md does not name the type %s", id);
        if (st_types[k].start == START_UNMODELLED)
            cr_expect(st_types[k].unverified && st_types[k].unverified[0], "%s: no reason for unverified", st_types[k].id);
    }
    cr_assert_geq(k, 20);
}

/* ------------------------------------------------------------------ the spawn block */
/* synthetic terrain for place.c spawn_block: 16 blocks high; every chunk an ocean (stone 0..4,
 * water 5..9) but for the columns a case lists, each made of one of the kinds below; the game's
 * rules (MinecraftServer.setInitialSpawn, PlayerRespawnLogic) as derived by hand: the spiral's
 * first chunks relative to the climate chunk, columns x then z, the heightmap test and the walk */
enum { SP_OCEAN, SP_LAVA, SP_ICE, SP_SNOW, SP_MUD, SP_ODD, SP_VOID, SP_LAND };
static const char *const sp_names[] = {"minecraft:air", "minecraft:stone", "minecraft:water", "minecraft:powder_snow", "minecraft:mud",
                                       "minecraft:lava", "minecraft:ice", "chunkfill_test:odd", "minecraft:grass_block[snowy=false]"};
typedef struct sp_col {
    int32_t rx, rz; /* the chunk relative to the climate chunk */
    int lx, lz, kind;
} sp_col;
typedef struct sp_case {
    const sp_col *cols;
    int ncols;
    int32_t base[2]; /* the climate chunk */
    uint8_t buf[16 * 256];
    int asked;
} sp_case;

static void sp_column(uint8_t *b, int lx, int lz, int kind)
{
    for (int y = 0; y < 16; y++) {
        int v = 0;
        switch (kind) {
        case SP_OCEAN: v = y < 5 ? 1 : y < 10 ? 2 : 0; break;
        case SP_LAVA: v = y < 5 ? 1 : y < 10 ? 5 : 0; break;
        case SP_ICE: v = y < 5 ? 1 : y < 9 ? 2 : y == 9 ? 6 : 0; break;     /* stands on the ice: 10 */
        case SP_SNOW: v = y < 8 ? 1 : y < 10 ? 3 : 0; break;                /* through the powder snow: 8 */
        case SP_MUD: v = y < 5 ? 1 : y < 7 ? 4 : 0; break;                  /* through the mud: 5 */
        case SP_ODD: v = y < 6 ? 1 : y == 6 ? 7 : 0; break;                 /* an unknown block taken as full: 7 */
        case SP_VOID: v = 0; break;                                         /* nothing to stand on */
        case SP_LAND: v = y < 11 ? 1 : y == 11 ? 8 : 0; break;              /* 12; 15 is the world's top */
        }
        b[((size_t)y * 16 + (size_t)lz) * 16 + (size_t)lx] = (uint8_t)v;
    }
}

static int sp_chunk(void *ctx, int32_t cx, int32_t cz, const uint8_t **blocks, cf_error *err)
{
    (void)err;
    sp_case *c = ctx;
    c->asked++;
    for (int lx = 0; lx < 16; lx++)
        for (int lz = 0; lz < 16; lz++) sp_column(c->buf, lx, lz, SP_OCEAN);
    for (int i = 0; i < c->ncols; i++)
        if (c->base[0] + c->cols[i].rx == cx && c->base[1] + c->cols[i].rz == cz) sp_column(c->buf, c->cols[i].lx, c->cols[i].lz, c->cols[i].kind);
    *blocks = c->buf;
    return 0;
}

Test(structures, spawn_block_spiral_and_columns)
{
    /* the spiral's first chunks: (0,0) (1,0) (1,1) (0,1) (-1,1) (-1,0) (-1,-1) (0,-1) (1,-1) (2,-1) (2,0) ... */
    static const sp_col later_first[] = {{1, -1, 3, 3, SP_LAND}, {-1, 1, 9, 2, SP_LAND}};        /* index 8 and 4: 4 wins */
    static const sp_col far[] = {{5, 5, 0, 0, SP_LAND}, {2, -1, 15, 15, SP_LAND}, {-5, -5, 0, 0, SP_LAND}}; /* index 9 first */
    static const sp_col kinds[] = {{0, 0, 0, 0, SP_LAVA}, {0, 0, 0, 1, SP_VOID}, {0, 0, 1, 0, SP_LAND}, {0, 0, 0, 2, SP_ICE}};
    static const sp_col snow[] = {{0, 0, 0, 0, SP_SNOW}};
    static const sp_col mud[] = {{0, 0, 0, 0, SP_MUD}};
    static const sp_col odd[] = {{0, 0, 0, 0, SP_ODD}};
    static const struct {
        const sp_col *cols;
        int ncols;
        int32_t climate[2];
        int found;
        int32_t at[3];
        int asked;
        const char *unknown;
        int32_t min_y;
    } cases[] = {
        {later_first, 2, {-40, 100}, 1, {-64 + 9, 12, 112 + 2}, 5, NULL, 0},
        {far, 3, {0, 0}, 1, {32 + 15, 12, -16 + 15}, 10, NULL, 0},
        {NULL, 0, {-1, -1}, 0, {-8, 64, -8}, 121, NULL, 0},          /* all ocean: the fallback */
        {kinds, 4, {17, 33}, 1, {16 + 0, 10, 32 + 2}, 1, NULL, 0}, /* lava, void: none; ice (x 0, z 2) before land (x 1, z 0) */
        {snow, 1, {0, 0}, 1, {0, 8, 0}, 1, NULL, 0},
        {mud, 1, {0, 0}, 1, {0, 5, 0}, 1, NULL, 0},
        {odd, 1, {0, 0}, 1, {0, 7, 0}, 1, "chunkfill_test:odd", 0},
        /* a world whose floor is above 64: the fallback's y is the centre column's WORLD_SURFACE
         * height (setInitialSpawn: getSpawnHeight's 64 < getMinY), one more chunk asked */
        {NULL, 0, {-1, -1}, 0, {-8, 110, -8}, 122, NULL, 100},
        {snow, 1, {0, 0}, 1, {0, 108, 0}, 1, NULL, 100},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sp_case c = {cases[i].cols, cases[i].ncols, {cases[i].climate[0] >> 4, cases[i].climate[1] >> 4}, {0}, 0};
        spawn_terrain t = {sp_chunk, &c, sp_names, 9, cases[i].min_y, 16};
        int32_t at[3];
        const char *unknown = NULL;
        cf_error err = {0};
        int got = spawn_block(&t, cases[i].climate, at, &unknown, &err);
        cr_expect_eq(got, cases[i].found, "case %zu", i);
        cr_expect(at[0] == cases[i].at[0] && at[1] == cases[i].at[1] && at[2] == cases[i].at[2], "case %zu: %d, %d, %d; expected %d, %d, %d", i,
                  at[0], at[1], at[2], cases[i].at[0], cases[i].at[1], cases[i].at[2]);
        cr_expect_eq(c.asked, cases[i].asked, "case %zu: %d chunks asked", i, c.asked);
        cr_expect((unknown == NULL) == (cases[i].unknown == NULL) && (!unknown || strcmp(unknown, cases[i].unknown) == 0), "case %zu: %s", i,
                  unknown ? unknown : "(none)");
    }
}

/* `chunkfill spawn` on vanilla data: the spawn is in the 11 x 11 chunks around the climate
 * point's, and in the surface stage's blocks of its chunk (cf_fill_blocks_surface, read here) the
 * columns before it (x, then z) have a fluid as their top block, its own has a solid block at
 * y - 1 under nothing but air (seed 80 of 26.3: the climate point 0, 0; four rows of water first) */
Test(structures, cli_spawn_block)
{
    char args[8192], out[4096], vanilla[4096];
    shared_need("vanilla/26.3", vanilla, sizeof vanilla);
    snprintf(args, sizeof args, "spawn --pack '%s' --seed 80", vanilla);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    int cx, cz, x, y, z;
    cr_assert_eq(sscanf(out, "{\"climate\": [%d, %d], \"spawn\": [%d, %d, %d], \"unverified\": \"", &cx, &cz, &x, &y, &z), 5, "%s", out);
    cr_expect(abs((x >> 4) - (cx >> 4)) <= 5 && abs((z >> 4) - (cz >> 4)) <= 5, "%s", out);
    const char *paths[1] = {vanilla};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, NULL, NULL, 80, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_program_compile_blocks(&pg, pk, cf_biomes_settings(b), &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 80, &err), CF_OK, "%s", err.message);
    int min_y, height;
    cf_biomes_range(b, &min_y, &height);
    const char *names[CF_PALETTE_MAX];
    int nn = cf_block_palette(pg, names);
    uint8_t *blk = malloc((size_t)height * 256);
    int32_t ch[2] = {x >> 4, z >> 4};
    cr_assert_eq(cf_fill_blocks_surface(w, b, 1, ch, blk, 1, &err), CF_OK, "%s", err.message);
    cr_expect(x >> 4 == cx >> 4 && z >> 4 == cz >> 4 && (x & 15) == 4 && (z & 15) == 0, "%s", out); /* the golden column */
    for (int lx = 0; lx <= (x & 15); lx++)
        for (int lz = 0; lz < 16 && (lx < (x & 15) || lz <= (z & 15)); lz++) {
            int top = min_y + height - 1;
            while (top >= min_y && strcmp(names[blk[((size_t)(top - min_y) * 16 + (size_t)lz) * 16 + (size_t)lx]], "minecraft:air") == 0) top--;
            cr_assert(top >= min_y);
            const char *id = names[blk[((size_t)(top - min_y) * 16 + (size_t)lz) * 16 + (size_t)lx]];
            int fluid = strcmp(id, "minecraft:water") == 0 || strcmp(id, "minecraft:lava") == 0;
            if (lx < (x & 15) || lz < (z & 15)) cr_expect(fluid, "column %d, %d: top %s at %d", lx, lz, id, top);
            else cr_expect(!fluid && top == y - 1, "spawn column: top %s at %d, spawn y %d", id, top, y);
        }
    (void)nn;
    free(blk);
    cf_world_free(w), cf_program_free(pg), cf_biomes_free(b), cf_pack_free(pk);
}

/* ------------------------------------------------------------------ checks */
static int tower_biome(const char *id)
{
    return strcmp(id, "minecraft:plains") == 0 || strcmp(id, "minecraft:forest") == 0 || strcmp(id, "minecraft:meadow") == 0 ||
           strcmp(id, "minecraft:savanna") == 0;
}

/* chunkfill_test:tower (type fortress: its start at the chunk's corner, y 64) is checked there:
 * it starts exactly at the candidates (chunkfill_test:towers_anywhere, the same placement) whose
 * point-path biome at that quart is in #chunkfill_test:tower_biomes; a set of two structures
 * (chunkfill_test:pairs) tries the other one where the drawn one fails */
Test(structures, biome_check_at_the_start_and_retry)
{
    const int64_t seeds[] = {0, -1};
    for (int si = 0; si < 2; si++) {
        world w = {0};
        open_world(&w, CF_SOURCE_DIR "/packs/default", NULL, NULL, seeds[si]);
        const char *names[CF_BIOME_PALETTE_MAX];
        cf_biomes_palette(w.b, names);
        starts st = {0};
        const char *only[1] = {"#chunkfill_test:towers"};
        find(&w, -1024, -1024, 1023, 1023, only, 1, &st);
        int cand = 0, towers = 0, pairs = 0, retried = 0;
        for (int k = 0; k < st.n; k++) {
            const cf_structure_start *a = &st.v[k];
            cr_assert(strncmp(a->structure, "chunkfill_test:", 15) == 0, "%s", a->structure);
            cr_expect_str_eq(a->checked, "biome");
            cr_expect(a->has_y && a->y == 64 && a->x == a->chunk_x * 16 && a->z == a->chunk_z * 16);
            int32_t q[3] = {a->x >> 2, 16, a->z >> 2};
            uint8_t bio;
            cr_assert_eq(cf_biomes_quarts(w.b, 1, q, &bio, NULL), CF_OK);
            int ok = tower_biome(names[bio]);
            const char *twin = NULL;
            if (strcmp(a->set, "chunkfill_test:towers_anywhere") == 0) twin = "chunkfill_test:towers", cand++;
            if (strcmp(a->set, "chunkfill_test:pairs_anywhere") == 0) twin = "chunkfill_test:pairs";
            if (strcmp(a->set, "chunkfill_test:towers") == 0) {
                cr_expect(ok, "tower at %d, %d in %s", a->x, a->z, names[bio]);
                towers++;
            }
            if (!twin) continue;
            int found = 0;
            for (int m = 0; m < st.n; m++)
                if (strcmp(st.v[m].set, twin) == 0 && st.v[m].chunk_x == a->chunk_x && st.v[m].chunk_z == a->chunk_z) {
                    found = 1;
                    if (!ok) cr_expect_str_eq(st.v[m].structure, "chunkfill_test:tower_anywhere");
                    if (!ok && strcmp(twin, "chunkfill_test:pairs") == 0) retried++;
                }
            if (strcmp(twin, "chunkfill_test:towers") == 0) cr_expect_eq(found, ok, "candidate %d, %d (%s)", a->chunk_x, a->chunk_z, names[bio]);
            else {
                cr_expect(found, "pairs: no start at candidate %d, %d", a->chunk_x, a->chunk_z);
                pairs++;
            }
        }
        cr_expect_gt(cand, 400);
        cr_expect(towers > 10 && towers < cand - 100, "%d towers of %d candidates", towers, cand);
        cr_expect_gt(pairs, 400);
        cr_expect_gt(retried, 50); /* the draw's first pick (weight 3 of 4: tower) failed, the other taken */
        free(st.v);
        close_world(&w);
    }
}

/* a start the top-of-world sample (quart y 79, what cubiomes samples for 1.18+) would accept:
 * seed 0, chunk -11, -40 is a candidate of chunkfill_test:towers; at quart (-44, 79, -160) the
 * biome is savanna (in the tag), at the start's quart y 16 dripstone caves: no tower. Found with
 * `chunkfill biome --seed 0 --quart -44,16,-160 --quart -44,79,-160` and kept as a golden. */
Test(structures, height_exact_differs_from_top_of_world)
{
    world w = {0};
    open_world(&w, CF_SOURCE_DIR "/packs/default", NULL, NULL, 0);
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(w.b, names);
    int32_t q[6] = {-44, 16, -160, -44, 79, -160};
    uint8_t bio[2];
    cr_assert_eq(cf_biomes_quarts(w.b, 2, q, bio, NULL), CF_OK);
    cr_assert_str_eq(names[bio[0]], "minecraft:dripstone_caves");
    cr_assert_str_eq(names[bio[1]], "minecraft:savanna");
    starts st = {0};
    const char *only[1] = {"#chunkfill_test:towers"};
    find(&w, -176, -640, -161, -625, only, 1, &st);
    int cand = 0, tower = 0;
    for (int k = 0; k < st.n; k++) {
        cand += strcmp(st.v[k].set, "chunkfill_test:towers_anywhere") == 0;
        tower += strcmp(st.v[k].set, "chunkfill_test:towers") == 0;
    }
    cr_expect_eq(cand, 1);
    cr_expect_eq(tower, 0);
    free(st.v);
    close_world(&w);
}

/* --structure filters: ids and #tags (tags/worldgen/structure) */
Test(structures, filter_by_id_and_tag)
{
    world w = {0};
    open_world(&w, CF_SOURCE_DIR "/packs/default", NULL, NULL, 123456789);
    starts all = {0}, one = {0}, tag = {0};
    find(&w, -1024, -1024, 1023, 1023, NULL, 0, &all);
    const char *o1[1] = {"minecraft:monument"}, *o2[1] = {"#chunkfill_test:towers"};
    find(&w, -1024, -1024, 1023, 1023, o1, 1, &one);
    find(&w, -1024, -1024, 1023, 1023, o2, 1, &tag);
    int n1 = 0, n2 = 0;
    for (int k = 0; k < all.n; k++) {
        n1 += strcmp(all.v[k].structure, "minecraft:monument") == 0;
        n2 += strncmp(all.v[k].structure, "chunkfill_test:", 15) == 0;
    }
    cr_expect_gt(n1, 0);
    cr_expect_eq(one.n, n1);
    cr_expect_eq(tag.n, n2);
    for (int k = 0; k < one.n; k++) cr_expect_str_eq(one.v[k].structure, "minecraft:monument");
    const char *bad[1] = {"#chunkfill_test:nope"};
    cf_error err = {0};
    starts none = {0};
    cr_expect_eq(cf_structures_find(w.s, 0, 0, 15, 15, bad, 1, keep, &none, &err), CF_ERR_REF);
    cr_expect(strstr(err.message, "unknown structure tag \"#chunkfill_test:nope\""), "%s", err.message);
    free(all.v), free(one.v), free(tag.v), free(none.v);
    close_world(&w);
}

/* ------------------------------------------------------------------ bad input */
/* a pack in memory: the set s.json and the structure t.json (texts given), a biome tag */
static cf_status open_bad(const char *set, const char *st, cf_error *err, cf_structures **out, cf_pack **pk, cf_biomes *b)
{
    static const char tag[] = "{\"values\": [\"minecraft:plains\"]}";
    static const char other[] = "{\"structures\": [{\"structure\": \"minecraft:t\", \"weight\": 1}], \"placement\": {\"type\": "
                                "\"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2}}";
    cf_memfile files[] = {
        {"data/minecraft/worldgen/structure_set/s.json", (const unsigned char *)set, strlen(set)},
        {"data/minecraft/worldgen/structure_set/v.json", (const unsigned char *)other, strlen(other)},
        {"data/minecraft/worldgen/structure/t.json", (const unsigned char *)st, strlen(st)},
        {"data/minecraft/tags/worldgen/biome/t_biomes.json", (const unsigned char *)tag, strlen(tag)},
    };
    cr_assert_eq(cf_pack_open_memory(pk, files, 4, NULL, err), CF_OK, "%s", err->message);
    return cf_structures_open(out, *pk, b, 0, NULL, err);
}

Test(structures, bad_input_one_located_line_each)
{
    static const char good_st[] = "{\"type\": \"minecraft:jigsaw\", \"biomes\": \"#minecraft:t_biomes\"}";
#define SET(PL) "{\"structures\": [{\"structure\": \"minecraft:t\", \"weight\": 1}], \"placement\": " PL "}"
    static const struct {
        const char *set, *st;
        cf_status status;
        const char *where, *msg;
    } cases[] = {
        {SET("{\"type\": \"minecraft:random_scatter\", \"salt\": 1, \"spacing\": 9, \"separation\": 2}"), good_st, CF_ERR_SCHEMA,
         "s.json#/placement/type: ", "unknown placement type \"minecraft:random_scatter\""},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 8, \"separation\": 8}"), good_st, CF_ERR_SCHEMA,
         "s.json#/placement: ", "spacing 8 <= separation 8"},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 4, \"separation\": 6}"), good_st, CF_ERR_SCHEMA,
         "s.json#/placement: ", "spacing 4 <= separation 6"},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2}"),
         "{\"type\": \"minecraft:jigsaw\", \"biomes\": \"#minecraft:has_structure/nope\"}", CF_ERR_REF, "t.json#/biomes: ",
         "unknown biome tag \"#minecraft:has_structure/nope\""},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2}"),
         "{\"type\": \"minecraft:castle\", \"biomes\": \"#minecraft:t_biomes\"}", CF_ERR_SCHEMA, "t.json#/type: ",
         "unknown structure type \"minecraft:castle\""},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2, \"exclusion_zone\": "
             "{\"other_set\": \"minecraft:nope\", \"chunk_count\": 4}}"),
         good_st, CF_ERR_REF, "s.json#/placement/exclusion_zone/other_set: ", "unknown structure set \"minecraft:nope\""},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2, \"exclusion_zone\": "
             "{\"other_set\": \"minecraft:v\", \"chunk_count\": 17}}"),
         good_st, CF_ERR_SCHEMA, "s.json#/placement/exclusion_zone/chunk_count: ", "17"},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2, \"frequency_reduction_method\": "
             "\"legacy_type_4\"}"),
         good_st, CF_ERR_SCHEMA, "s.json#/placement/frequency_reduction_method: ", "legacy_type_4"},
        {SET("{\"type\": \"minecraft:random_spread\", \"salt\": 1, \"spacing\": 9, \"separation\": 2, \"frequency\": 1.5}"), good_st,
         CF_ERR_SCHEMA, "s.json#/placement/frequency: ", "1.5"},
        {SET("{\"type\": \"minecraft:concentric_rings\", \"distance\": 32, \"spread\": 3, \"count\": 0, \"preferred_biomes\": []}"),
         good_st, CF_ERR_SCHEMA, "s.json#/placement/count: ", "0"},
        {"{\"structures\": [{\"structure\": \"minecraft:u\", \"weight\": 1}], \"placement\": {\"type\": \"minecraft:random_spread\", "
         "\"salt\": 1, \"spacing\": 9, \"separation\": 2}}",
         good_st, CF_ERR_REF, "s.json#/structures/0/structure: ", "unknown structure \"minecraft:u\""},
        {"{\"structures\": [{\"structure\": \"minecraft:t\", \"weight\": 0}], \"placement\": {\"type\": \"minecraft:random_spread\", "
         "\"salt\": 1, \"spacing\": 9, \"separation\": 2}}",
         good_st, CF_ERR_SCHEMA, "s.json#/structures/0/weight: ", "0"},
    };
#undef SET
    cf_pack *def = NULL;
    cf_biomes *b = NULL;
    cf_error e0 = {0};
    cr_assert_eq(cf_pack_open(&def, NULL, 0, NULL, &e0), CF_OK, "%s", e0.message);
    cr_assert_eq(cf_biomes_open(&b, def, NULL, NULL, NULL, 0, &e0), CF_OK, "%s", e0.message);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cf_error err = {0};
        cf_structures *s = NULL;
        cf_pack *pk = NULL;
        cf_status got = open_bad(cases[i].set, cases[i].st, &err, &s, &pk, b);
        cr_expect_eq(got, cases[i].status, "case %zu: %s: %s", i, cf_status_str(got), err.message);
        cr_expect_null(s);
        const char *at = strstr(err.message, cases[i].where);
        cr_expect(at && strstr(err.message, cases[i].msg), "case %zu: '%s' lacks '%s' ... '%s'", i, err.message, cases[i].where,
                  cases[i].msg);
        cr_expect_null(strchr(err.message, '\n'));
        cf_structures_free(s);
        cf_pack_free(pk);
    }
    cf_biomes_free(b);
    cf_pack_free(def);
}

/* ------------------------------------------------------------------ the command line */
Test(structures, cli_lines_out_file_and_errors)
{
    char args[4096], out[1 << 16], err[4096];
    const char *f = tmp_name("starts.jsonl");
    snprintf(args, sizeof args,
             "structures --pack '%s/packs/default' --pack '%s' --seed 0 --area -1024,-1024:1023,1023 --structure minecraft:monument "
             "--structure '#chunkfill_test:towers' --out '%s'",
             CF_SOURCE_DIR, PACK_DIR, f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s%s", out, err);
    cr_expect_str_eq(out, "");
    char *text = slurp(f);
    /* the same lines as the library's starts */
    world w = {0};
    open_world(&w, CF_SOURCE_DIR "/packs/default", NULL, NULL, 0);
    starts st = {0};
    const char *only[2] = {"minecraft:monument", "#chunkfill_test:towers"};
    find(&w, -1024, -1024, 1023, 1023, only, 2, &st);
    cr_assert_gt(st.n, 10);
    char *p = text;
    for (int k = 0; k < st.n; k++) {
        char line[1024];
        const cf_structure_start *s = &st.v[k];
        char y[16] = "null";
        if (s->has_y) snprintf(y, sizeof y, "%d", s->y);
        int n = snprintf(line, sizeof line, "{\"structure\": \"%s\", \"set\": \"%s\", \"chunk\": [%d, %d], \"x\": %d, \"y\": %s, \"z\": %d, "
                                            "\"checked\": \"%s\"%s%s%s}\n",
                         s->structure, s->set, s->chunk_x, s->chunk_z, s->x, y, s->z, s->checked, s->unverified ? ", \"unverified\": \"" : "",
                         s->unverified ? s->unverified : "", s->unverified ? "\"" : "");
        cr_assert(strncmp(p, line, (size_t)n) == 0, "line %d: '%.*s' expected '%s'", k, (int)strcspn(p, "\n"), p, line);
        p += n;
    }
    cr_expect_eq(*p, 0);
    free(text);
    free(st.v);
    close_world(&w);
    unlink(f);
    /* a bad set: exit 1, one line naming the file and pointer, no output file left */
    char root[128];
    tmp_dir(root, sizeof root, "structures");
    tmp_put(root, "data/minecraft/worldgen/structure_set/s.json",
            "{\"structures\": [{\"structure\": \"minecraft:t\", \"weight\": 1}], \"placement\": {\"type\": \"minecraft:triangle\"}}");
    tmp_put(root, "data/minecraft/worldgen/structure/t.json", "{\"type\": \"minecraft:fortress\", \"biomes\": [\"minecraft:plains\"]}");
    const char *f2 = tmp_name("never.jsonl");
    unlink(f2);
    snprintf(args, sizeof args, "structures --pack '%s/packs/default' --pack '%s' --seed 0 --area 0,0:15,15 --out '%s'", CF_SOURCE_DIR, root,
             f2);
    cr_expect_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1);
    cr_expect(strstr(err, "s.json#/placement/type: unknown placement type \"minecraft:triangle\""), "%s", err);
    cr_expect_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
    cr_expect_neq(access(f2, F_OK), 0);
    tmp_rm(root);
    /* usage */
    cr_expect_eq(run("structures --seed 0", out, sizeof out), 2);
    cr_expect(strstr(out, "--area"), "%s", out);
}

Test(structures, cli_spawn)
{
    char args[8192], out[4096], vanilla[4096];
    shared_need("vanilla/1.21.11", vanilla, sizeof vanilla);
    snprintf(args, sizeof args, "spawn --pack '%s' --version 1.21.4 --seed -4172144997902289642", vanilla);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    int x, z;
    int sx, sy, sz;
    cr_assert_eq(sscanf(out, "{\"climate\": [%d, %d], \"spawn\": [%d, %d, %d], \"unverified\": ", &x, &z, &sx, &sy, &sz), 5, "%s", out);
    cr_expect(abs((sx >> 4) - (x >> 4)) <= 5 && abs((sz >> 4) - (z >> 4)) <= 5, "%s", out);
    cr_expect(x >> 4 == -28 && z >> 4 == -27, "%s", out); /* the golden's chunk (cubiomes.txt) */
}

/* ------------------------------------------------------------------ locate */
/* the nearest stronghold to a point is the nearest of cubiomes' first ring positions (measured as
 * the game does, to the chunk's centre at y 32), 1.19.3+ and 1.18-1.19.2; for the latter (each
 * position needs every search before it) no more than the first two circles (9 positions) are
 * searched: the circles beyond cannot come nearer. From a start's own locate position, a
 * random_spread structure is found there, at distance 0, and it is a start `structures` lists */
Test(structures, locate_nearest)
{
    static block bl[64];
    int nb = golden(bl, 64);
    char vanilla[4096];
    shared_need("vanilla/1.21.11", vanilla, sizeof vanilla);
    int ran = 0;
    for (int i = 0; i < nb; i++) {
        char ver[32];
        if (strncmp(bl[i].head, "@ strongholds ", 14) != 0) continue;
        cr_assert_eq(line_field(bl[i].head, "version", ver, sizeof ver), 0);
        world w = {0};
        open_world(&w, vanilla, NULL, ver, head_seed(&bl[i]));
        const int32_t from[3][3] = {{0, 0, 0}, {1500, 70, -900}, {-3000, 64, 2500}};
        for (int f = 0; f < 3; f++) {
            double best = HUGE_VAL;
            int bx = 0, bz = 0;
            for (int k = 0; k < bl[i].body.n; k++) {
                int idx, x, z;
                cr_assert_eq(sscanf(bl[i].body.v[k], "S %d %d %d", &idx, &x, &z), 3);
                double dx = x * 16.0 + 8 - from[f][0], dy = 32.0 - from[f][1], dz = z * 16.0 + 8 - from[f][2];
                double d = dx * dx + dy * dy + dz * dz;
                if (d < best) best = d, bx = x, bz = z;
            }
            const char *only[1] = {"minecraft:stronghold"};
            cf_structure_start st;
            int found = 0;
            cf_error err = {0};
            cr_assert_eq(cf_structures_locate(w.s, only, 1, from[f][0], from[f][1], from[f][2], 100, &st, &found, &err), CF_OK, "%s",
                         err.message);
            cr_assert(found);
            cr_expect(st.chunk_x == bx && st.chunk_z == bz, "%s from %d, %d: chunk %d, %d, cubiomes' nearest %d, %d", bl[i].head, from[f][0],
                      from[f][2], st.chunk_x, st.chunk_z, bx, bz);
        }
        if (w.s->legacy_rings) /* searched: positions 0 .. next - 1 of the ring set */
            for (int k = 0; k < w.s->nsets; k++)
                if (w.s->sets[k].kind == SP_CONCENTRIC_RINGS)
                    cr_expect_leq(w.s->sets[k].next, 9, "%s: %d ring positions searched", bl[i].head, w.s->sets[k].next);
        close_world(&w);
        ran++;
    }
    cr_assert_eq(ran, 6);
    for (int i = 0; i < nb; i++) lines_free(&bl[i].body);
    /* random_spread: every monument start of an area is found from its own corner */
    world w = {0};
    open_world(&w, CF_SOURCE_DIR "/packs/default", NULL, NULL, -1);
    starts st = {0};
    const char *only[1] = {"minecraft:monument"};
    find(&w, -3000, -3000, 2999, 2999, only, 1, &st);
    cr_assert_gt(st.n, 5);
    for (int k = 0; k < st.n; k++) {
        cf_structure_start got;
        int found = 0;
        cf_error err = {0};
        int32_t x = st.v[k].chunk_x * 16, z = st.v[k].chunk_z * 16;
        cr_assert_eq(cf_structures_locate(w.s, only, 1, x, 0, z, 100, &got, &found, &err), CF_OK, "%s", err.message);
        cr_assert(found);
        cr_expect(got.chunk_x == st.v[k].chunk_x && got.chunk_z == st.v[k].chunk_z && got.x == x && got.z == z, "from %d, %d: %d, %d", x, z,
                  got.chunk_x, got.chunk_z);
    }
    /* nothing within radius 0 of a point whose region has no start of it: none found, no error */
    free(st.v);
    close_world(&w);
}

Test(structures, cli_locate)
{
    char args[8192], out[4096];
    snprintf(args, sizeof args, "locate structure '#chunkfill_test:towers' --pack '%s/packs/default' --pack '%s' --seed 0 --from 100,100",
             CF_SOURCE_DIR, PACK_DIR);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_expect(strncmp(out, "{\"structure\": \"chunkfill_test:", 30) == 0 && strstr(out, "\"distance\": "), "%s", out);
    snprintf(args, sizeof args, "locate structure minecraft:fortress --pack '%s/packs/default' --pack '%s' --seed 0 --from 0,0", CF_SOURCE_DIR,
             PACK_DIR);
    cr_expect_eq(run(args, out, sizeof out), 1, "%s", out); /* no nether set in the overworld */
    cr_expect(strstr(out, "no start of minecraft:fortress within 100 regions"), "%s", out);
    cr_expect_eq(run("locate structure --seed 0 --from 0,0", out, sizeof out), 2, "%s", out);
    cr_expect_eq(run("locate village --seed 0 --from 0,0", out, sizeof out), 2, "%s", out);
    snprintf(args, sizeof args, "locate structure minecraft:monument --pack '%s/packs/default' --pack '%s' --seed 0 --from 1,2,3,4", CF_SOURCE_DIR,
             PACK_DIR);
    cr_expect_eq(run(args, out, sizeof out), 2, "%s", out);
}

/* ------------------------------------------------------------------ on the map */
#include <png.h>
#include <signal.h>
#include <sys/wait.h>

#include "httputil.h"

#include "pngutil.h"


/* render --structures changes exactly the marker pixels: outside the 9 x 9 squares of the starts
 * (the library's list for the picture's area, centred on (x - X0) / scale) every pixel is the plain
 * render's; inside, the square drawn last over a pixel decides it: black on its outline, its
 * set's colour or the letter's ink (black or white) inside; every start's square shows. */
Test(structures, render_draws_exactly_the_markers)
{
    const char *plain = tmp_name("plain.png"), *marked = tmp_name("marked.png");
    char args[4096], out[4096];
    const int X0 = -256, Z0 = -256, S = 4;
    snprintf(args, sizeof args, "render --pack '%s/packs/default' --pack '%s' --seed 3 --area %d,%d:255,255 --scale %d --quiet --out '%s'",
             CF_SOURCE_DIR, PACK_DIR, X0, Z0, S, plain);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    snprintf(args, sizeof args,
             "render --pack '%s/packs/default' --pack '%s' --seed 3 --area %d,%d:255,255 --scale %d --quiet --structures --out '%s'",
             CF_SOURCE_DIR, PACK_DIR, X0, Z0, S, marked);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    int w, h, w2, h2;
    uint8_t *a = read_png(plain, &w, &h), *b = read_png(marked, &w2, &h2);
    cr_assert(w == 128 && h == 128 && w2 == w && h2 == h);
    world wd = {0};
    open_world(&wd, CF_SOURCE_DIR "/packs/default", NULL, NULL, 3);
    cf_program *pg = NULL; /* the terrain, as render has it */
    cf_world *tw = NULL;
    cf_error e = {0};
    cr_assert_eq(cf_program_compile_blocks(&pg, wd.pk, "minecraft:overworld", &e), CF_OK, "%s", e.message);
    cr_assert_eq(cf_world_new(&tw, pg, 3, &e), CF_OK, "%s", e.message);
    cr_assert_eq(cf_structures_terrain(wd.s, tw, &e), CF_OK, "%s", e.message);
    starts st = {0};
    find(&wd, X0, Z0, X0 + w * S - 1, Z0 + h * S - 1, NULL, 0, &st);
    cr_assert_gt(st.n, 5);
    int *owner = malloc(sizeof *owner * (size_t)(w * h)), *edge = malloc(sizeof *edge * (size_t)(w * h));
    for (int i = 0; i < w * h; i++) owner[i] = -1;
    for (int k = 0; k < st.n; k++) {
        int cx = (int)fdiv(st.v[k].x - X0, S), cy = (int)fdiv(st.v[k].z - Z0, S);
        for (int dy = -4; dy <= 4; dy++)
            for (int dx = -4; dx <= 4; dx++) {
                int x = cx + dx, y = cy + dy;
                if (x < 0 || y < 0 || x >= w || y >= h) continue;
                owner[y * w + x] = k, edge[y * w + x] = dx == -4 || dx == 4 || dy == -4 || dy == 4;
            }
    }
    int changed = 0, covered = 0;
    for (int i = 0; i < w * h; i++) {
        const uint8_t *p = b + 3 * i, *q = a + 3 * i;
        if (owner[i] < 0) {
            cr_assert(memcmp(p, q, 3) == 0, "pixel %d, %d changed outside every marker", i % w, i / w);
            continue;
        }
        covered++, changed += memcmp(p, q, 3) != 0;
        char letter;
        uint8_t c[3];
        cf_structure_marker(st.v[owner[i]].structure, st.v[owner[i]].set, &letter, c);
        int black = !p[0] && !p[1] && !p[2], white = p[0] == 255 && p[1] == 255 && p[2] == 255;
        if (edge[i]) cr_assert(black, "pixel %d, %d: the outline of %s is not black", i % w, i / w, st.v[owner[i]].structure);
        else cr_assert(black || white || memcmp(p, c, 3) == 0, "pixel %d, %d: not %s's colour or ink", i % w, i / w, st.v[owner[i]].structure);
    }
    cr_expect_gt(changed, covered / 2);
    free(owner), free(edge), free(a), free(b), free(st.v);
    close_world(&wd);
    cf_world_free(tw);
    cf_program_free(pg);
    unlink(plain), unlink(marked);
    /* on a device (PoCL) the same picture: the markers over the device's map (one chunk) */
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "render --pack '%s/packs/default' --pack '%s' --seed 3 --area 0,0:15,15 --structures%s --quiet --out '%s'",
                 CF_SOURCE_DIR, PACK_DIR, k ? " --device opencl" : "", k ? marked : plain);
        cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    }
    a = read_png(plain, &w, &h), b = read_png(marked, &w2, &h2);
    cr_expect(w == w2 && h == h2 && memcmp(a, b, (size_t)(w * h) * 3) == 0, "render --structures --device differs from the CPU's");
    free(a), free(b);
    unlink(plain), unlink(marked);
}

/* the server's /structures answers the bytes `chunkfill structures --out` writes for the same
 * packs, seed and area (and filters); /spawn the line of `chunkfill spawn`; bad areas: 400, one line */
static int get(int port, const char *target, char **body)
{
    int fd = http_connect(port);
    cr_assert(fd >= 0);
    char req[4096];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", target, port);
    cr_assert_eq(send(fd, req, (size_t)n, 0), n);
    int code = http_read_answer(fd, body, NULL, NULL);
    close(fd);
    return code;
}

Test(structures, http_answers_as_the_command_line)
{
    char dir[64] = "/tmp/cf-sthttp-XXXXXX", cmd[4096], log[128], args[4096], out[4096];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/server.log", dir);
    snprintf(cmd, sizeof cmd, "exec '%s' serve --http 127.0.0.1:0 --pack '%s/packs/default' --pack '%s' --cache %s/cache", CF_BINARY,
             CF_SOURCE_DIR, PACK_DIR, dir);
    int port;
    pid_t pid = http_server_start(cmd, log, &port);
    static const struct {
        const char *query, *opts;
    } cases[] = {
        {"seed=-1&area=-3000,-2000:2999,1999", "--seed -1 --area -3000,-2000:2999,1999"},
        {"seed=0&area=-1024,-1024:1023,1023&structure=minecraft:monument,%23chunkfill_test:towers",
         "--seed 0 --area -1024,-1024:1023,1023 --structure minecraft:monument --structure '#chunkfill_test:towers'"},
        {"seed=5&area=100,100:100,100", "--seed 5 --area 100,100:100,100"},
    };
    const char *f = tmp_name("cli.jsonl");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char target[512], *body = NULL;
        snprintf(target, sizeof target, "/structures?%s", cases[i].query);
        cr_assert_eq(get(port, target, &body), 200, "%s: %s", target, body);
        snprintf(args, sizeof args, "structures --pack '%s/packs/default' --pack '%s' %s --out '%s'", CF_SOURCE_DIR, PACK_DIR, cases[i].opts, f);
        cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
        char *text = slurp(f);
        cr_expect(i == 2 || strlen(text) > 1000, "case %zu: %zu bytes", i, strlen(text));
        cr_expect_str_eq(body, text, "case %zu", i);
        free(text), free(body);
    }
    unlink(f);
    char *body = NULL;
    cr_assert_eq(get(port, "/spawn?seed=-4172144997902289642", &body), 200, "%s", body);
    snprintf(args, sizeof args, "spawn --pack '%s/packs/default' --pack '%s' --seed -4172144997902289642", CF_SOURCE_DIR, PACK_DIR);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(body, out);
    free(body);
    static const char *bad[] = {
        "/structures?seed=0",                                                 /* no area */
        "/structures?seed=0&area=10,0:0,10",                                  /* reversed */
        "/structures?seed=0&area=0,0:10",                                     /* malformed */
        "/structures?seed=0&area=0,0:20000,20000",                            /* 1251 x 1251 chunks: too many */
        "/structures?seed=0&area=0,0:10,10&structure=%23chunkfill_test:nope", /* no such tag */
        "/structures?area=0,0:10,10",                                         /* no seed */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_eq(get(port, bad[i], &body), 400, "%s: %s", bad[i], body);
        size_t n = strlen(body);
        cr_expect(n > 0 && strchr(body, '\n') == body + n - 1, "%s: one line: %s", bad[i], body);
        free(body);
    }
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* ------------------------------------------------------------------ the terrain checks */
/* igloos and swamp huts (biome at the chunk centre's first occupied WORLD_SURFACE_WG y) and desert
 * pyramids (and first the lowest of the 21 x 21 corners at or above sea level), rebuilt from
 * chunkfill's own answers: every candidate of the set (the starts without terrain) is a start with
 * terrain exactly when the column (cf_map_column_below: its height, or the top of the fluid
 * above it) and the biome of that quart (cf_biomes_quarts) pass, at that y; seed 0, an area with
 * starts, biome failures and a pyramid whose corner is below sea level */
static int32_t occupied(const cf_world *w, int32_t x, int32_t z)
{
    cf_map_column_info c;
    cf_error err = {0};
    cr_assert_eq(cf_map_column_below(w, NULL, x, z, INT32_MAX, &c, &err), CF_OK, "%s", err.message);
    return c.fluid_top > c.height ? c.fluid_top : c.height;
}

static int in_list(const char *id, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(id, *list) == 0) return 1;
    return 0;
}

Test(structures, terrain_checks_from_columns_and_biomes)
{
    static const char *desert[] = {"minecraft:desert", NULL}, *snowy[] = {"minecraft:snowy_taiga", "minecraft:snowy_plains", "minecraft:snowy_slopes", NULL},
                      *swamp[] = {"minecraft:swamp", NULL};
    static const struct {
        const char *id, *const *biomes;
        int w, d; /* the corners (0: the centre only) */
        int32_t x0, z0, x1, z1;
    } kinds[] = {
        {"minecraft:desert_pyramid", desert, 21, 21, CF_PYR_AREA},
        {"minecraft:igloo", snowy, 0, 0, CF_IGLOO_AREA},
        {"minecraft:swamp_hut", swamp, 0, 0, CF_HUT_AREA},
    };
    world w = {0};
    open_world(&w, CF_SOURCE_DIR "/packs/default", NULL, NULL, 0);
    cf_error err = {0};
    cf_program *pg = NULL;
    cf_world *tw = NULL;
    cr_assert_eq(cf_program_compile_blocks(&pg, w.pk, "minecraft:overworld", &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&tw, pg, 0, &err), CF_OK, "%s", err.message);
    cf_structures *t = NULL; /* the same sets with the terrain */
    cr_assert_eq(cf_structures_open(&t, w.pk, w.b, 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_structures_terrain(t, tw, &err), CF_OK, "%s", err.message);
    const char *names[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(w.b, names);
    int sea;
    cf_program_settings(pg, NULL, NULL, &sea);
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        const char *only[1] = {kinds[k].id};
        starts cand = {0}, got = {0};
        find(&w, kinds[k].x0, kinds[k].z0, kinds[k].x1, kinds[k].z1, only, 1, &cand);
        cr_assert_eq(cf_structures_find(t, kinds[k].x0, kinds[k].z0, kinds[k].x1, kinds[k].z1, only, 1, keep, &got, &err), CF_OK, "%s", err.message);
        int pass = 0, biome_fail = 0, corner_fail = 0, g = 0;
        for (int i = 0; i < cand.n; i++) {
            const cf_structure_start *c = &cand.v[i];
            cr_assert_str_eq(c->checked, "none");
            int32_t x = c->chunk_x * 16 + 8, z = c->chunk_z * 16 + 8, y = occupied(tw, x, z), q[3] = {x >> 2, y >> 2, z >> 2};
            uint8_t bio;
            cr_assert_eq(cf_biomes_quarts(w.b, 1, q, &bio, &err), CF_OK, "%s", err.message);
            int ok = in_list(names[bio], kinds[k].biomes), corners = 1;
            for (int n = 0; ok && kinds[k].w && n < 4; n++)
                corners &= occupied(tw, x - 8 + (n & 1 ? kinds[k].w : 0), z - 8 + (n & 2 ? kinds[k].d : 0)) >= sea;
            pass += ok && corners, biome_fail += !ok, corner_fail += ok && !corners;
            if (!(ok && corners)) continue;
            cr_assert_lt(g, got.n, "%s at chunk %d, %d: missing", kinds[k].id, c->chunk_x, c->chunk_z);
            const cf_structure_start *s = &got.v[g++];
            cr_expect(s->chunk_x == c->chunk_x && s->chunk_z == c->chunk_z && s->x == x && s->z == z && s->has_y && s->y == y,
                      "%s: chunk %d, %d at %d, %d, %d; expected chunk %d, %d at %d, %d, %d", kinds[k].id, s->chunk_x, s->chunk_z, s->x, s->y, s->z,
                      c->chunk_x, c->chunk_z, x, y, z);
            cr_expect_str_eq(s->checked, kinds[k].w ? "terrain+biome" : "biome");
        }
        cr_expect_eq(g, got.n, "%s: %d starts more than expected", kinds[k].id, got.n - g);
        printf("%s: %d candidates, %d starts, %d biome failures, %d corner failures\n", kinds[k].id, cand.n, pass, biome_fail, corner_fail);
        cr_expect(pass > 0 && biome_fail > 0 && (!kinds[k].w || corner_fail > 0), "%s: %d starts, %d biome failures, %d corner failures",
                  kinds[k].id, pass, biome_fail, corner_fail);
        free(cand.v), free(got.v);
    }
    cf_structures_free(t);
    cf_world_free(tw);
    cf_program_free(pg);
    close_world(&w);
}

/* a set in a sub-folder of structure_set/ (tests/packs/structures-sub: chunkfill_sub:deep/far/towers),
 * its structure in a sub-folder of structure/ and its biome tag in one of tags/worldgen/biome: the set
 * is listed under its path's id, and its starts are exactly its candidates whose biome at the chunk's
 * corner, y 64, is in the tag */
Test(structures, sets_in_sub_folders)
{
    const char *paths[2] = {CF_SOURCE_DIR "/packs/default", CF_SOURCE_DIR "/tests/packs/structures-sub"};
    cf_pack *pk = NULL;
    cf_biomes *b = NULL;
    cf_structures *s = NULL;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, paths, 2, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, NULL, NULL, 0, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_structures_open(&s, pk, b, 0, NULL, &err), CF_OK, "%s", err.message);
    const char *names[8];
    cr_assert_eq(cf_structures_sets(s, names, 8), 1);
    cr_assert_str_eq(names[0], "chunkfill_sub:deep/far/towers");
    starts got = {0};
    cr_assert_eq(cf_structures_find(s, 0, 0, 1023, 1023, NULL, 0, keep, &got, &err), CF_OK, "%s", err.message);
    const char *pal[CF_BIOME_PALETTE_MAX];
    cf_biomes_palette(b, pal);
    int k = 0, fails = 0;
    for (int32_t rz = 0; rz < 8; rz++)
        for (int32_t rx = 0; rx < 8; rx++) {
            int32_t c[2], q[3];
            uint8_t bio;
            structures_candidate(s, 0, rx * 8, rz * 8, c);
            q[0] = c[0] * 4, q[1] = 16, q[2] = c[1] * 4;
            cr_assert_eq(cf_biomes_quarts(b, 1, q, &bio, &err), CF_OK, "%s", err.message);
            const char *id = pal[bio];
            int in = !strcmp(id, "minecraft:plains") || !strcmp(id, "minecraft:forest") || !strcmp(id, "minecraft:ocean") || !strcmp(id, "minecraft:deep_ocean");
            if (!in) {
                fails++;
                continue;
            }
            cr_assert(k < got.n, "candidate %d, %d (%s): no start", c[0], c[1], id);
            cr_expect(got.v[k].chunk_x == c[0] && got.v[k].chunk_z == c[1] && !strcmp(got.v[k].structure, "chunkfill_sub:deep/tower"),
                      "start %d: chunk %d, %d; expected %d, %d", k, got.v[k].chunk_x, got.v[k].chunk_z, c[0], c[1]);
            k++;
        }
    cr_expect_eq(k, got.n);
    cr_expect(k > 0 && fails > 0, "%d starts, %d biome failures", k, fails);
    free(got.v);
    cf_structures_free(s), cf_biomes_free(b), cf_pack_free(pk);
}
