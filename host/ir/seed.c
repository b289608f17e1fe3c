/* seed.c - seed binding: Minecraft's random sources and the per-seed tables.
 *
 * Input: a compiled program and a 64-bit seed. Output: cf_world tables:
 * octaves (permutation + offsets [+ smear scale]), layers (octave, frequency,
 * float amplitude) and stacks (runs of layers), one stack per noise the graph
 * reads, three per old_blended_noise node, one simplex octave for the End
 * islands. Sampling never builds tables (MINECRAFT-26.3.md §2-§8, §13).
 * Random sources: Xoroshiro128++ with MD5 "fromHashOf" positional factories,
 * and java.util.Random (the legacy source).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5.h>

#include "ir/ir.h"

/* ------------------------------------------------------------------ random sources */
typedef struct rnd {
    int legacy;
    uint64_t a, b; /* xoroshiro lo/hi, or the 48-bit LCG state in a */
} rnd;
typedef struct posf {
    int legacy;
    uint64_t lo, hi; /* legacy: lo = seed */
} posf;

static const uint64_t SILVER = 0x6a09e667f3bcc909ULL, GOLDEN = 0x9e3779b97f4a7c15ULL;
static const uint64_t LCG_MUL = 0x5deece66dULL, LCG_MASK = (1ULL << 48) - 1;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t mix13(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static rnd rnd_xoro_raw(uint64_t lo, uint64_t hi)
{
    if (lo == 0 && hi == 0) lo = GOLDEN, hi = SILVER;
    return (rnd){0, lo, hi};
}
static rnd rnd_xoro(int64_t seed)
{
    uint64_t lo = (uint64_t)seed ^ SILVER;
    uint64_t hi = lo + GOLDEN;
    return rnd_xoro_raw(mix13(lo), mix13(hi));
}
static rnd rnd_legacy(int64_t seed) { return (rnd){1, ((uint64_t)seed ^ LCG_MUL) & LCG_MASK, 0}; }

static uint64_t xoro_next(rnd *r)
{
    uint64_t lo = r->a, hi = r->b;
    uint64_t n = rotl(lo + hi, 17) + lo;
    hi ^= lo;
    r->a = rotl(lo, 49) ^ hi ^ (hi << 21);
    r->b = rotl(hi, 28);
    return n;
}
static int32_t lcg_next(rnd *r, int bits)
{
    r->a = (r->a * LCG_MUL + 0xbULL) & LCG_MASK;
    return (int32_t)(uint32_t)(r->a >> (48 - bits));
}

static int64_t rnd_long(rnd *r)
{
    if (!r->legacy) return (int64_t)xoro_next(r);
    uint64_t hi = (uint64_t)(int64_t)lcg_next(r, 32);
    uint64_t lo = (uint64_t)(int64_t)lcg_next(r, 32);
    return (int64_t)((hi << 32) + lo);
}

static double rnd_double(rnd *r)
{
    if (!r->legacy) return (double)(xoro_next(r) >> 11) * 1.1102230246251565e-16;
    int64_t hi = lcg_next(r, 26), lo = lcg_next(r, 27);
    return (double)((hi << 27) + lo) * 1.1102230246251565e-16;
}

static int32_t rnd_int(rnd *r, int32_t bound)
{
    if (!r->legacy) {
        uint64_t l = (uint32_t)xoro_next(r);
        uint64_t m = l * (uint64_t)bound;
        uint64_t lo = m & 0xffffffffULL;
        if (lo < (uint64_t)bound) {
            uint32_t t = (uint32_t)(-(uint32_t)bound) % (uint32_t)bound;
            while (lo < t) {
                l = (uint32_t)xoro_next(r);
                m = l * (uint64_t)bound;
                lo = m & 0xffffffffULL;
            }
        }
        return (int32_t)(m >> 32);
    }
    if ((bound & -bound) == bound) return (int32_t)(((int64_t)bound * (int64_t)lcg_next(r, 31)) >> 31);
    int32_t bits, val;
    do {
        bits = lcg_next(r, 31);
        val = bits % bound;
    } while ((int32_t)((uint32_t)bits - (uint32_t)val + (uint32_t)(bound - 1)) < 0);
    return val;
}

static void rnd_consume(rnd *r, int n)
{
    for (int i = 0; i < n; i++) {
        if (r->legacy) lcg_next(r, 32);
        else xoro_next(r);
    }
}

static posf rnd_fork_positional(rnd *r)
{
    posf p = {r->legacy, 0, 0};
    p.lo = (uint64_t)rnd_long(r);
    if (!r->legacy) p.hi = (uint64_t)rnd_long(r);
    return p;
}

int32_t java_string_hash(const char *s)
{
    uint32_t h = 0;
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        uint32_t cp;
        int k;
        if (*u < 0x80) cp = *u, k = 0;
        else if ((*u & 0xe0) == 0xc0) cp = *u & 0x1fu, k = 1;
        else if ((*u & 0xf0) == 0xe0) cp = *u & 0x0fu, k = 2;
        else if ((*u & 0xf8) == 0xf0) cp = *u & 0x07u, k = 3;
        else cp = 0xfffd, k = 0; /* invalid byte: U+FFFD, as Java's decoder does */
        u++;
        for (int i = 0; i < k; i++) {
            if ((*u & 0xc0) != 0x80) {
                cp = 0xfffd;
                break;
            }
            cp = (cp << 6) | (*u++ & 0x3fu);
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            h = 31u * h + (0xd800u + (cp >> 10));
            h = 31u * h + (0xdc00u + (cp & 0x3ffu));
        } else {
            h = 31u * h + cp;
        }
    }
    return (int32_t)h;
}

static rnd pos_from_hash(const posf *p, const char *name)
{
    if (p->legacy) return rnd_legacy((int64_t)java_string_hash(name) ^ (int64_t)p->lo);
    MD5_CTX ctx;
    uint8_t d[16];
    MD5Init(&ctx);
    MD5Update(&ctx, (const uint8_t *)name, strlen(name));
    MD5Final(d, &ctx);
    uint64_t lo = 0, hi = 0;
    for (int i = 0; i < 8; i++) lo = (lo << 8) | d[i], hi = (hi << 8) | d[8 + i];
    return rnd_xoro_raw(lo ^ p->lo, hi ^ p->hi);
}

void seed_factory(const cf_world *w, const char *name, uint64_t *lo, uint64_t *hi)
{
    posf root = {w->prog->legacy_random, w->root_lo, w->root_hi};
    rnd r = pos_from_hash(&root, name);
    posf f = rnd_fork_positional(&r);
    *lo = f.lo, *hi = f.hi;
}

static int32_t rnd_between(rnd *r, int32_t a, int32_t b) { return rnd_int(r, b - a + 1) + a; }
static int rnd_bool(rnd *r) { return r->legacy ? lcg_next(r, 1) != 0 : (int)(xoro_next(r) & 1u); }

/* SurfaceSystem.generateBands (MATERIAL-RULES.md §6.3): 0 terracotta, 1 orange, 2 yellow,
 * 3 brown, 4 red, 5 white, 6 light gray */
static void make_bands(rnd *r, uint8_t *band)
{
    memset(band, 0, 192);
    for (int i = 0; i < 192; i++) {
        i += rnd_int(r, 5) + 1;
        if (i < 192) band[i] = 1;
    }
    static const int colour[3] = {2, 3, 4}, base[3] = {1, 2, 1};
    for (int k = 0; k < 3; k++) {
        int n = rnd_between(r, 6, 15);
        for (int j = 0; j < n; j++) {
            int wdt = base[k] + rnd_int(r, 3), s = rnd_int(r, 192);
            for (int m = 0; s + m < 192 && m < wdt; m++) band[s + m] = (uint8_t)colour[k];
        }
    }
    int n = rnd_between(r, 9, 15);
    for (int k = 0, s = 0; k < n && s < 192; k++, s += rnd_int(r, 16) + 4) {
        band[s] = 5;
        if (s - 1 > 0 && rnd_bool(r)) band[s - 1] = 6;
        if (s + 1 < 192 && rnd_bool(r)) band[s + 1] = 6;
    }
}

/* ------------------------------------------------------------------ tables */
typedef struct bind {
    cf_world *w;
    cf_error *err;
    int capoct, caplayers, capstacks;
} bind;

static int add_octave(bind *b, rnd *r, double offset_scale, double q)
{
    cf_world *w = b->w;
    /* the octaves are as many as the noises name (the game has no limit in 1.18-1.21): bounded by
     * --max-memory, with the table blob's copy of each (288 bytes) */
    size_t max = w->prog->max_fill_bytes, each = sizeof(cf_octave) + 288;
    if (max && (size_t)w->noct + 1 > max / each) {
        err_set(b->err, CF_ERR_LIMIT, "the noises of this program need more than %d octaves (%zu bytes of seed tables): over the memory limit (--max-memory %zu)",
                w->noct, (size_t)w->noct * each, max);
        return -1;
    }
    if (w->noct == b->capoct) {
        int cap = b->capoct ? b->capoct * 2 : 64;
        cf_octave *o = realloc(w->oct, sizeof *o * (size_t)cap);
        if (!o) return -1;
        w->oct = o;
        b->capoct = cap;
    }
    cf_octave *o = &w->oct[w->noct];
    o->ox = rnd_double(r) * offset_scale;
    o->oy = rnd_double(r) * offset_scale;
    o->oz = rnd_double(r) * offset_scale;
    o->q = q;
    for (int i = 0; i < 256; i++) o->p[i] = (uint8_t)i;
    for (int i = 0; i < 256; i++) {
        int j = i + rnd_int(r, 256 - i);
        uint8_t t = o->p[i];
        o->p[i] = o->p[j];
        o->p[j] = t;
    }
    return w->noct++;
}

static int add_layer(bind *b, int octave, double freq, float amp)
{
    cf_world *w = b->w;
    if (w->nlayers == b->caplayers) {
        int cap = b->caplayers ? b->caplayers * 2 : 64;
        cf_layer *l = realloc(w->layers, sizeof *l * (size_t)cap);
        if (!l) return -1;
        w->layers = l;
        b->caplayers = cap;
    }
    w->layers[w->nlayers] = (cf_layer){octave, amp, freq};
    return w->nlayers++;
}

static int add_stack(bind *b, int first)
{
    cf_world *w = b->w;
    if (w->nstacks == b->capstacks) {
        int cap = b->capstacks ? b->capstacks * 2 : 32;
        cf_stack *s = realloc(w->stacks, sizeof *s * (size_t)cap);
        if (!s) return -1;
        w->stacks = s;
        b->capstacks = cap;
    }
    w->stacks[w->nstacks] = (cf_stack){first, w->nlayers - first};
    return w->nstacks++;
}

/* the normalization factor nf of §6 */
static double norm_factor(const cf_noisedef *d, int n, const double *amps)
{
    double sum = 0, comp = 0; /* DoubleStream.sum: Kahan-compensated */
    for (int i = 0; i < n; i++) {
        double t = fabs(amps[i]) - comp;
        double s = sum + t;
        comp = (s - sum) - t;
        sum = s;
    }
    double target = sum - comp;
    double var = 0;
    for (int i = 0; i < n; i++) {
        double a = 0.2702247831245211 * fabs(amps[i]);
        var += a * a;
    }
    double dev = sqrt(var);
    double nf = dev == 0 ? 0 : (target * 0.3333333333333333) / (dev * 1.4142135623730951);
    if (d->normalize == 2 && nf != 0) {
        int lo = 1 << 30, hi = -(1 << 30);
        for (int i = 0; i < d->octave_count; i++) {
            double m = i < d->nmods ? d->mods[i] : 1.0;
            if (m != 0) lo = i < lo ? i : lo, hi = i > hi ? i : hi;
        }
        double dev_p = 0.1 * (1.0 + 1.0 / (double)(hi - lo + 1));
        nf = d->base_amplitude * 0.5 * 0.3333333333333333 / dev_p;
    }
    return nf;
}

/* the kept octaves of a 26.3 noise (§6): amplitude (and frequency and index where asked) of
 * every octave whose modifier is not 0; the arrays hold d->octave_count; returns the count */
static int kept_octaves(const cf_noisedef *d, double *amps, double *freqs, int *index)
{
    int n = d->octave_count, kept = 0;
    double freq = ldexp(1.0, d->base_octave), amp = d->base_amplitude;
    if (d->normalize != 0) amp = amp * (ldexp(1.0, n - 1) / (ldexp(1.0, n) - 1.0));
    for (int i = 0; i < n; i++) {
        double m = i < d->nmods ? d->mods[i] : 1.0;
        if (m != 0) {
            if (index) index[kept] = d->base_octave + i;
            if (freqs) freqs[kept] = freq;
            amps[kept++] = amp * m;
        }
        freq *= 2;
        amp *= 0.5;
    }
    return kept;
}

/* a NormalNoise in 26.3's layout (§6): interleaved first/second layers */
static int bind_normal(bind *b, const cf_noisedef *d, const posf *root)
{
    size_t n = (size_t)d->octave_count;
    double *amps = malloc(2 * n * sizeof(double)); /* as many octaves as the noise has */
    int *index = malloc(n * sizeof(int)), st = -1;
    if (!amps || !index) goto out;
    double *freqs = amps + n;
    int kept = kept_octaves(d, amps, freqs, index);
    double nf = norm_factor(d, kept, amps);
    rnd r = pos_from_hash(root, d->id);
    posf first = rnd_fork_positional(&r), second = rnd_fork_positional(&r);
    int start = b->w->nlayers;
    for (int k = 0; k < kept; k++) {
        char name[32];
        snprintf(name, sizeof name, "octave_%d", index[k]);
        float a = (float)(nf * amps[k]);
        rnd r1 = pos_from_hash(&first, name), r2 = pos_from_hash(&second, name);
        int o1 = add_octave(b, &r1, 256.0, 0), o2 = add_octave(b, &r2, 256.0, 0);
        if (o1 < 0 || o2 < 0) goto out;
        if (add_layer(b, o1, freqs[k], a) < 0 || add_layer(b, o2, freqs[k] * 1.0181268882175227, a) < 0) goto out;
    }
    st = add_stack(b, start);
out:
    free(amps), free(index);
    return st;
}

/* LegacyFbmInitializer (§7): returns the number of levels written to lv/lf/la */
static int legacy_fbm(bind *b, rnd *r, int first_octave, int n, const double *amps,
                      int *lv, double *lf, float *la)
{
    int zero = -first_octave, *levels = lv; /* lv[i] is written only after levels[i] is read */
    for (int i = 0; i < n; i++) levels[i] = -1;
    int z = add_octave(b, r, 256.0, 0);
    if (z < 0) return -1;
    if (zero >= 0 && zero < n && amps[zero] != 0) levels[zero] = z;
    for (int i = zero - 1; i >= 0; i--) {
        if (i < n && amps[i] != 0) {
            if ((levels[i] = add_octave(b, r, 256.0, 0)) < 0) return -1;
        } else {
            rnd_consume(r, 262);
        }
    }
    double factor = ldexp(1.0, -zero), vf = ldexp(1.0, n - 1) / (ldexp(1.0, n) - 1.0);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (levels[i] >= 0) {
            lv[k] = levels[i];
            lf[k] = factor;
            la[k] = (float)(vf * amps[i]);
            k++;
        }
        factor *= 2;
        vf /= 2;
    }
    return k;
}

static int bind_nether_legacy(bind *b, const cf_noisedef *d, int64_t seed)
{
    int n = d->nmods ? d->nmods : d->octave_count, on = d->octave_count, st = -1;
    if (-d->base_octave < n - 1) {
        err_set(b->err, CF_ERR_SCHEMA, "%s#: the legacy nether climate layout has no positive octaves (base_octave %d, %d octaves)",
                d->loc.file, d->base_octave, n);
        return -1;
    }
    size_t m = (size_t)(n > on ? n : on);
    double *amps = malloc(4 * m * sizeof(double)); /* amps, kamps, lf1, lf2: as many octaves as the noise has */
    float *la1 = malloc(2 * m * sizeof(float));
    int *lv1 = malloc(2 * m * sizeof(int));
    if (!amps || !la1 || !lv1) goto out;
    double *kamps = amps + m, *lf1 = kamps + m, *lf2 = lf1 + m;
    float *la2 = la1 + m;
    int *lv2 = lv1 + m;
    for (int i = 0; i < n; i++) amps[i] = d->nmods ? d->mods[i] : 1.0;
    /* nf from the octaves of the 26.3 layout (§6) */
    float vf = (float)(norm_factor(d, kept_octaves(d, kamps, NULL, NULL), kamps) * d->base_amplitude);
    rnd r = rnd_legacy((int64_t)((uint64_t)seed + (strcmp(d->id, "minecraft:nether/vegetation") == 0 ? 1u : 0u)));
    int n1 = legacy_fbm(b, &r, d->base_octave, n, amps, lv1, lf1, la1);
    int n2 = n1 < 0 ? -1 : legacy_fbm(b, &r, d->base_octave, n, amps, lv2, lf2, la2);
    if (n2 < 0) goto out;
    int start = b->w->nlayers;
    for (int i = 0; i < n1; i++)
        if (add_layer(b, lv1[i], lf1[i] * 1.0, la1[i] * vf) < 0) goto out;
    for (int i = 0; i < n2; i++)
        if (add_layer(b, lv2[i], lf2[i] * 1.0181268882175227, la2[i] * vf) < 0) goto out;
    st = add_stack(b, start);
out:
    free(amps), free(la1), free(lv1);
    return st;
}

/* old_blended_noise (§8): stacks min limit, max limit, main */
static int bind_blended(bind *b, const cf_node *n, const posf *root, int64_t seed, int legacy)
{
    rnd r = legacy ? rnd_legacy(seed) : pos_from_hash(root, "minecraft:terrain");
    double ym = 684.412 * n->d[1];
    double limit_smear = ym * n->d[4];
    double main_smear = limit_smear / n->d[3];
    int first = -1;
    for (int s = 0; s < 3; s++) {
        int fo = s < 2 ? -15 : -7;
        double smear = s < 2 ? limit_smear : main_smear;
        double value = s < 2 ? 0.9999847412109375 : 12.75;
        int octs = 1 - fo;
        double factor = 1.0, vf = value / (ldexp(1.0, octs) - 1.0);
        int start = b->w->nlayers;
        for (int i = 0; i < octs; i++) {
            int o = add_octave(b, &r, 256.0, smear * factor);
            if (o < 0 || add_layer(b, o, factor, (float)vf) < 0) return -1;
            factor /= 2;
            vf *= 2;
        }
        int st = add_stack(b, start);
        if (st < 0) return -1;
        if (s == 0) first = st;
    }
    return first;
}

double noise_amplitude_sum(const cf_noisedef *d)
{
    double *amps = malloc(sizeof(double) * (size_t)d->octave_count);
    if (!amps) return INFINITY; /* no bound */
    int kept = kept_octaves(d, amps, NULL, NULL);
    double nf = norm_factor(d, kept, amps), sum = 0;
    for (int k = 0; k < kept; k++) sum += 2.0 * fabs(nf * amps[k]);
    free(amps);
    if (strncmp(d->id, "minecraft:nether/", 17) == 0) sum *= fabs(d->base_amplitude) > 1 ? fabs(d->base_amplitude) : 1;
    return sum;
}


/* ------------------------------------------------------------------ 1.18-1.21 tables
 * (kernels/cf_mc121.h): PerlinNoise records with double amplitudes and value
 * factors, NormalNoise records, blended-noise and end-island records, and a
 * directory from node index to record. Same random streams as above. */
typedef struct blob {
    uint8_t *b;
    size_t n, cap;
    int oom;
} blob;

static int32_t blob_put(blob *o, const void *p, size_t n)
{
    if (o->oom || o->n + n > 0x7fffffff) return o->oom = 1, -1;
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        while (cap < o->n + n) cap *= 2;
        uint8_t *b = realloc(o->b, cap);
        if (!b) return o->oom = 1, -1;
        o->b = b, o->cap = cap;
    }
    int32_t at = (int32_t)o->n;
    memcpy(o->b + o->n, p, n);
    o->n += n;
    return at;
}
static int32_t blob_i32(blob *o, int32_t v) { return blob_put(o, &v, 4); }
static int32_t blob_f64(blob *o, double v) { return blob_put(o, &v, 8); }

/* a PerlinNoise record: levels[i] = octave index or -1 */
static int32_t perlin_record(blob *o, int first_octave, int n, const int *levels, const double *amps)
{
    int32_t at = blob_i32(o, n);
    blob_i32(o, 0);
    blob_f64(o, ldexp(1.0, first_octave));
    blob_f64(o, ldexp(1.0, n - 1) / (ldexp(1.0, n) - 1.0));
    for (int i = 0; i < n; i++) {
        blob_i32(o, levels[i]);
        blob_i32(o, 0);
        blob_f64(o, amps[i]);
    }
    return at;
}

/* PerlinNoise.create (positional: octave_N from a forked factory); levels holds n */
static int32_t perlin_modern(bind *b, blob *o, rnd *r, int first_octave, int n, const double *amps, int *levels)
{
    posf f = rnd_fork_positional(r);
    for (int i = 0; i < n; i++) {
        levels[i] = -1;
        if (amps[i] != 0) {
            char name[32];
            snprintf(name, sizeof name, "octave_%d", first_octave + i);
            rnd ro = pos_from_hash(&f, name);
            if ((levels[i] = add_octave(b, &ro, 256.0, 0)) < 0) return -1;
        }
    }
    return perlin_record(o, first_octave, n, levels, amps);
}

/* the legacy octave chain (old_blended_noise, legacy nether climate): octave
 * -first_octave first, then down to 0, skipping 262 draws per absent level; levels holds n */
static int32_t perlin_chain(bind *b, blob *o, rnd *r, int first_octave, int n, const double *amps, int *levels)
{
    int j = -first_octave;
    for (int i = 0; i < n; i++) levels[i] = -1;
    int z = add_octave(b, r, 256.0, 0);
    if (z < 0) return -1;
    if (j >= 0 && j < n && amps[j] != 0) levels[j] = z;
    for (int k = j - 1; k >= 0; k--) {
        if (k < n && amps[k] != 0) {
            if ((levels[k] = add_octave(b, r, 256.0, 0)) < 0) return -1;
        } else {
            rnd_consume(r, 262);
        }
    }
    return perlin_record(o, first_octave, n, levels, amps);
}

/* a NormalNoise record from r (two PerlinNoises, valueFactor from the int span) */
static int32_t normal121(bind *b, blob *o, rnd *r, int first_octave, int n, const double *amps, int chain)
{
    int *levels = malloc(sizeof(int) * (size_t)n); /* as many as the noise has amplitudes */
    if (!levels) return -1;
    int32_t p1 = chain ? perlin_chain(b, o, r, first_octave, n, amps, levels) : perlin_modern(b, o, r, first_octave, n, amps, levels);
    int32_t p2 = p1 < 0 ? -1
               : chain ? perlin_chain(b, o, r, first_octave, n, amps, levels)
                       : perlin_modern(b, o, r, first_octave, n, amps, levels);
    free(levels);
    if (p2 < 0) return -1;
    int32_t lo = 2147483647, hi = -2147483647 - 1;
    for (int i = 0; i < n; i++)
        if (amps[i] != 0) lo = i < lo ? i : lo, hi = i > hi ? i : hi;
    int32_t span = (int32_t)((uint32_t)hi - (uint32_t)lo);
    int32_t span1 = (int32_t)((uint32_t)span + 1u);
    double dev = 0.1 * (1.0 + 1.0 / (double)span1);
    int32_t at = blob_f64(o, 0.16666666666666666 / dev);
    blob_i32(o, p1);
    blob_i32(o, p2);
    return at;
}

static int32_t noise121(bind *b, blob *o, const cf_noisedef *d, const posf *root, int64_t seed, int legacy)
{
    /* 26.1-26.2 data (the old format read by 26.x code): the nether's climate noises are named
     * minecraft:nether/temperature and minecraft:nether/vegetation and built as the legacy nether
     * stacks whatever the random source, as 26.3 builds them (bind_nether_legacy); checked against
     * the real vanilla 26.2 nether chunk of ../shared/vanilla-dumps (its crimson forest) */
    int ntemp = strcmp(d->id, "minecraft:nether/temperature") == 0, nveg = strcmp(d->id, "minecraft:nether/vegetation") == 0;
    if (ntemp || nveg) {
        rnd r = rnd_legacy((int64_t)((uint64_t)seed + (nveg ? 1u : 0u)));
        return normal121(b, o, &r, d->base_octave, d->nmods, d->mods, 1);
    }
    if (legacy) { /* RandomState's legacy wiring (the oracle's L10) */
        static const double ones[2] = {1.0, 1.0}, zero[1] = {0.0};
        int temp = strcmp(d->id, "minecraft:temperature") == 0, veg = strcmp(d->id, "minecraft:vegetation") == 0;
        if (temp || veg) {
            rnd r = rnd_legacy((int64_t)((uint64_t)seed + (veg ? 1u : 0u)));
            return normal121(b, o, &r, -7, 2, ones, 1);
        }
        if (strcmp(d->id, "minecraft:offset") == 0) {
            rnd r = pos_from_hash(root, "minecraft:offset");
            return normal121(b, o, &r, 0, 1, zero, 0);
        }
    }
    rnd r = pos_from_hash(root, d->id);
    return normal121(b, o, &r, d->base_octave, d->nmods, d->mods, 0);
}

static cf_status seed_bind_mc121(cf_world *w, cf_error *err)
{
    const cf_program *p = w->prog;
    bind b = {w, err, 0, 0, 0};
    blob o = {0};
    int32_t *dir = malloc(sizeof(int32_t) * ((size_t)p->nnodes + 1));
    int32_t *nrec = malloc(sizeof(int32_t) * ((size_t)p->nnoises + 1));
    if (!dir || !nrec) {
        free(dir), free(nrec);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < p->nnoises; i++) nrec[i] = -1;
    rnd base = p->legacy_random ? rnd_legacy(w->seed) : rnd_xoro(w->seed);
    posf root = rnd_fork_positional(&base);
    {
        /* the noise stage's positional factories: RandomState.aquiferRandom and oreRandom */
        rnd a = pos_from_hash(&root, "minecraft:aquifer"), o = pos_from_hash(&root, "minecraft:ore");
        posf ap = rnd_fork_positional(&a), op = rnd_fork_positional(&o);
        w->aq_lo = ap.lo, w->aq_hi = ap.hi;
        w->ore_lo = op.lo, w->ore_hi = op.hi;
        w->root_lo = root.lo, w->root_hi = root.hi;
        rnd cb = pos_from_hash(&root, "minecraft:clay_bands");
        make_bands(&cb, w->bands);
    }
    int32_t blended = -1, islands = -1;
    for (int i = 0; i < p->nnodes && !o.oom; i++) {
        const cf_node *n = &p->nodes[i];
        dir[i] = -1;
        if (n->noise >= 0) {
            if (nrec[n->noise] < 0 && (nrec[n->noise] = noise121(&b, &o, &p->noises[n->noise], &root, w->seed, p->legacy_random)) < 0)
                o.oom = 1;
            dir[i] = nrec[n->noise];
        } else if (n->kind == NK_M_OLD_BLENDED_NOISE) {
            if (blended < 0) {
                static const double ones[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
                rnd r = p->legacy_random ? rnd_legacy(w->seed) : pos_from_hash(&root, "minecraft:terrain");
                int levels[16];
                int32_t a = perlin_chain(&b, &o, &r, -15, 16, ones, levels);
                int32_t c = a < 0 ? -1 : perlin_chain(&b, &o, &r, -15, 16, ones, levels);
                int32_t m = c < 0 ? -1 : perlin_chain(&b, &o, &r, -7, 8, ones, levels);
                if (m < 0) o.oom = 1;
                blended = blob_i32(&o, a);
                blob_i32(&o, c);
                blob_i32(&o, m);
                blob_i32(&o, 0);
            }
            dir[i] = blended;
        } else if (n->kind == NK_M_END_ISLANDS) {
            if (islands < 0) {
                rnd r = rnd_legacy(w->seed);
                rnd_consume(&r, 17292);
                int oct = add_octave(&b, &r, 0.0, 0);
                if (oct < 0) o.oom = 1;
                islands = blob_i32(&o, oct);
                blob_i32(&o, 0);
            }
            dir[i] = islands;
        }
    }
    free(nrec);
    /* the blob: header, octaves, directory, records (record offsets shift by the prefix) */
    size_t pre = 16 + (size_t)w->noct * 288, dlen = 4 * (size_t)(p->nnodes + 1);
    size_t len = pre + dlen + o.n;
    if (o.oom || len > 0x7fffffff) {
        free(dir), free(o.b);
        return err_failed(err) ? err->status : err_set(err, CF_ERR_LIMIT, "seed tables too large");
    }
    uint8_t *t = calloc(len + 8, 1);
    if (!t) {
        free(dir), free(o.b);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    int32_t hdr[4] = {(int32_t)pre, p->nnodes, w->noct, (int32_t)(pre + dlen)};
    memcpy(t, hdr, sizeof hdr);
    for (int i = 0; i < w->noct; i++) {
        uint8_t *oc = t + 16 + (size_t)i * 288;
        double d[4] = {w->oct[i].ox, w->oct[i].oy, w->oct[i].oz, w->oct[i].q};
        memcpy(oc, d, sizeof d);
        memcpy(oc + 32, w->oct[i].p, 256);
    }
    for (int i = 0; i < p->nnodes; i++) memcpy(t + pre + 4 * (size_t)i, &dir[i], 4);
    if (o.n) memcpy(t + pre + dlen, o.b, o.n);
    free(o.b);
    free(dir);
    w->tab = t;
    w->tablen = len;
    return CF_OK;
}

static int pack_tables(cf_world *w);

static cf_status seed_bind(cf_world *w, cf_error *err)
{
    const cf_program *p = w->prog;
    if (p->dialect == DIALECT_MC121) return seed_bind_mc121(w, err);
    if (p->prec == PREC_F64) {
        /* libnoise hashes positions with the seed: no tables, only the seed's low
         * 32 bits (added to every module's seed), as the device's table buffer */
        w->lseed = (int32_t)(uint32_t)(uint64_t)w->seed;
        if (p->fe && p->fe->bind_seed) return p->fe->bind_seed(w, err); /* Iris: per-node seeds, images */
        /* Hytale: the external maps' samples follow the 16-byte header (host/frontend/hytale/v2.c external()) */
        size_t extra = p->dialect == DIALECT_HYTALE ? 8 * p->hy_nmaps : 0;
        w->tab = calloc(1, 16 + extra);
        if (!w->tab) return err_set(err, CF_ERR_NOMEM, "out of memory");
        memcpy(w->tab, &w->lseed, sizeof w->lseed);
        if (extra) memcpy(w->tab + 16, p->hy_maps, extra);
        w->tablen = 16 + extra;
        return CF_OK;
    }
    bind b = {w, err, 0, 0, 0};
    w->noise_stack = malloc(sizeof(int) * (size_t)(p->nnoises + 1));
    w->node_stack = malloc(sizeof(int) * (size_t)(p->nnodes + 1));
    if (!w->noise_stack || !w->node_stack) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (int i = 0; i < p->nnoises; i++) w->noise_stack[i] = -1;
    for (int i = 0; i < p->nnodes; i++) w->node_stack[i] = -1;
    w->islands = -1;
    rnd base = p->legacy_random ? rnd_legacy(w->seed) : rnd_xoro(w->seed);
    posf root = rnd_fork_positional(&base);
    {
        /* RandomState.getOrCreateRandom("aquifer"): fromHashOf, then forkPositional */
        rnd a = pos_from_hash(&root, "minecraft:aquifer");
        posf ap = rnd_fork_positional(&a);
        w->aq_lo = ap.lo, w->aq_hi = ap.hi;
        /* the material rules' factories (MATERIAL-RULES.md §2, §5.3, §6.3) */
        rnd o = pos_from_hash(&root, "minecraft:ore");
        posf op = rnd_fork_positional(&o);
        w->ore_lo = op.lo, w->ore_hi = op.hi;
        w->root_lo = root.lo, w->root_hi = root.hi;
        rnd cb = pos_from_hash(&root, "minecraft:clay_bands");
        make_bands(&cb, w->bands);
    }
    for (int i = 0; i < p->nnodes; i++) {
        const cf_node *n = &p->nodes[i];
        if (n->noise >= 0 && w->noise_stack[n->noise] < 0) {
            const cf_noisedef *d = &p->noises[n->noise];
            int legacy_nether = strcmp(d->id, "minecraft:nether/temperature") == 0
                                || strcmp(d->id, "minecraft:nether/vegetation") == 0;
            int s = legacy_nether ? bind_nether_legacy(&b, d, w->seed) : bind_normal(&b, d, &root);
            if (s < 0) return err_failed(err) ? err->status : err_set(err, CF_ERR_NOMEM, "out of memory");
            w->noise_stack[n->noise] = s;
        }
        if (n->kind == NK_OLD_BLENDED_NOISE) {
            int s = bind_blended(&b, n, &root, w->seed, p->legacy_random);
            if (s < 0) return err_failed(err) ? err->status : err_set(err, CF_ERR_NOMEM, "out of memory");
            w->node_stack[i] = s;
        }
        if (n->kind == NK_END_OUTER_ISLANDS && w->islands < 0) {
            rnd r = rnd_legacy(w->seed);
            rnd_consume(&r, 17292);
            if ((w->islands = add_octave(&b, &r, 0.0, 0)) < 0) return err_failed(err) ? err->status : err_set(err, CF_ERR_NOMEM, "out of memory");
        }
    }
    if (pack_tables(w) < 0) return err_set(err, CF_ERR_LIMIT, "seed tables too large");
    return CF_OK;
}

/* the tables as one blob in the layout of kernels/cf_nodes.h */
static int pack_tables(cf_world *w)
{
    size_t oct = 16, lay = oct + (size_t)w->noct * 288, stk = lay + (size_t)w->nlayers * 16;
    size_t len = stk + (size_t)w->nstacks * 8;
    if (stk > 0x7fffffff || len > 0x7fffffff) return -1;
    uint8_t *t = calloc(len + 8, 1);
    if (!t) return -1;
    int32_t hdr[4] = {(int32_t)lay, (int32_t)stk, w->noct, w->nlayers};
    memcpy(t, hdr, sizeof hdr);
    for (int i = 0; i < w->noct; i++) {
        uint8_t *o = t + oct + (size_t)i * 288;
        double d[4] = {w->oct[i].ox, w->oct[i].oy, w->oct[i].oz, w->oct[i].q};
        memcpy(o, d, sizeof d);
        memcpy(o + 32, w->oct[i].p, 256);
    }
    for (int i = 0; i < w->nlayers; i++) {
        uint8_t *l = t + lay + (size_t)i * 16;
        memcpy(l, &w->layers[i].octave, 4);
        memcpy(l + 4, &w->layers[i].amp, 4);
        memcpy(l + 8, &w->layers[i].freq, 8);
    }
    for (int i = 0; i < w->nstacks; i++) {
        uint8_t *s = t + stk + (size_t)i * 8;
        memcpy(s, &w->stacks[i].first, 4);
        memcpy(s + 4, &w->stacks[i].count, 4);
    }
    w->tab = t;
    w->tablen = len;
    return 0;
}

static void seed_free(cf_world *w)
{
    free(w->tab);
    free(w->oct);
    free(w->layers);
    free(w->stacks);
    free(w->noise_stack);
    free(w->node_stack);
}

cf_status world_new(cf_world **out, const cf_program *prog, int64_t seed, cf_error *err)
{
    *out = NULL;
    if (!prog) return err_set(err, CF_ERR_ARG, "cf_world_new: no program");
    cf_world *w = calloc(1, sizeof *w);
    if (!w) return err_set(err, CF_ERR_NOMEM, "out of memory");
    w->prog = prog;
    w->seed = seed;
    cf_error local = {0};
    cf_status st = seed_bind(w, err ? err : &local);
    if (st != CF_OK) {
        world_free(w);
        return st;
    }
    *out = w;
    return CF_OK;
}

void world_free(cf_world *w)
{
    if (!w) return;
    seed_free(w);
    free(w);
}
