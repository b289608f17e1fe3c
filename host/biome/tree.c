/* tree.c - parameter lists and vanilla's Climate.RTree (../shared/BIOMES.md §3-§5).
 *
 * Input: a built-in preset (presets.c) or a list parsed from a pack (source.c);
 * output: the flat table of kernels/cf_biome.h that the CPU and OpenCL lookups
 * search. Build scratch is malloc'd and freed here; the table is the caller's.
 */
#include <math.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cf_math.h"
#include "kernels/cf_biome.h"
#include "biome/biome.h"
#include "cpu/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* ------------------------------------------------------------------ versions */
/* "1.21.11" -> {1, 21, 11}; "26.3" -> {26, 3, 0}. Returns the part count, or -1. */
static int version_parts(const char *s, int v[3])
{
    int n = 0;
    v[0] = v[1] = v[2] = 0;
    while (*s) {
        if (n == 3 || *s < '0' || *s > '9') return -1;
        long x = 0;
        while (*s >= '0' && *s <= '9') {
            x = x * 10 + (*s++ - '0');
            if (x > 100000) return -1;
        }
        v[n++] = (int)x;
        if (*s == '.') {
            s++;
            if (!*s) return -1;
        } else if (*s) {
            return -1;
        }
    }
    return n >= 2 ? n : -1;
}

static int version_cmp(const int a[3], int b0, int b1, int b2)
{
    int b[3] = {b0, b1, b2};
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

int bm_version_k(const char *version)
{
    int v[3];
    if (!version || version_parts(version, v) < 0 || version_cmp(v, 1, 18, 0) < 0) return -1;
    if (version_cmp(v, 1, 19, 3) < 0) return 10;
    if (version_cmp(v, 26, 3, 0) < 0) return 6;
    return 19;
}

/* the list of a version: the newest bp_lists row whose first version is <= it */
static const bp_list *preset_of(const char *version)
{
    int v[3];
    if (!version || version_parts(version, v) < 0 || version_cmp(v, 1, 18, 0) < 0) return NULL;
    const bp_list *best = NULL;
    for (int i = 0; i < BP_LISTS; i++) {
        int w[3];
        version_parts(bp_lists[i].version, w);
        if (version_cmp(v, w[0], w[1], w[2]) >= 0) best = &bp_lists[i];
    }
    return best;
}

static int list_alloc(bm_list *l, int n)
{
    l->n = n;
    l->lo = malloc((size_t)n * sizeof *l->lo);
    l->hi = malloc((size_t)n * sizeof *l->hi);
    l->pal = malloc((size_t)n * sizeof *l->pal);
    if (l->lo && l->hi && l->pal) return 0;
    bm_list_free(l);
    return -1;
}

void bm_list_free(bm_list *l)
{
    free(l->lo);
    free(l->hi);
    free(l->pal);
    memset(l, 0, sizeof *l);
}

int bm_preset_overworld(const char *version, bm_list *l)
{
    memset(l, 0, sizeof *l);
    const bp_list *p = preset_of(version);
    if (!p) return -1;
    if (list_alloc(l, p->count) < 0) return -1;
    const bp_list *base = &bp_lists[BP_LISTS - 1]; /* 26.3, in full */
    int k = 0, extra = 0;
    int nops = p->nops ? p->nops : 1;
    for (int o = 0; o < nops; o++) {
        int from = p->nops ? p->ops[o][0] : -1, cnt = p->nops ? p->ops[o][1] : p->count;
        for (int j = 0; j < cnt && k < p->count; j++, k++) {
            const uint8_t *r = from >= 0 ? base->rows + 7 * (size_t)(from + j) : p->rows + 7 * (size_t)extra++;
            l->pal[k] = r[0];
            for (int a = 0; a < 6; a++) {
                l->lo[k][a] = bp_intervals[r[1 + a]][0];
                l->hi[k][a] = bp_intervals[r[1 + a]][1];
            }
            l->lo[k][6] = l->hi[k][6] = 0;
        }
    }
    return 0;
}

int bm_preset_nether(bm_list *l, const char **names)
{
    memset(l, 0, sizeof *l);
    if (list_alloc(l, BP_NETHER) < 0) return -1;
    for (int i = 0; i < BP_NETHER; i++) {
        names[i] = bp_nether[i].biome;
        l->pal[i] = i;
        for (int a = 0; a < 6; a++) l->lo[i][a] = l->hi[i][a] = bp_nether[i].v[a];
        l->lo[i][6] = l->hi[i][6] = bp_nether[i].offset;
    }
    return 0;
}

int bm_brute(const bm_list *l, const int64_t *t, int64_t *fit, int *ties)
{
    int best = -1, n = 0;
    int64_t bd = INT64_MAX;
    for (int i = 0; i < l->n; i++) {
        uint64_t s = 0;
        for (int a = 0; a < 7; a++) {
            int64_t d = cf_b_axis(a < 6 ? t[a] : 0, l->lo[i][a], l->hi[i][a]);
            s += (uint64_t)d * (uint64_t)d;
        }
        int64_t f = (int64_t)s;
        if (f < bd) best = i, bd = f, n = 1;
        else if (f == bd) n++;
    }
    *fit = bd;
    if (ties) *ties = n;
    return best;
}

/* ------------------------------------------------------------------ build (§4.2) */
typedef struct tnode {
    int64_t lo[7], hi[7];
    int64_t c[7], ac[7]; /* the box's centre per axis and its absolute value (node_box): the sort keys */
    int entry; /* list index of a leaf, -1 for a subtree */
    int nch, *ch;
} tnode;

typedef struct builder {
    tnode *nodes;
    int n, cap, k, oom;
} builder;

static int64_t labs64(int64_t v) { return v < 0 ? -v : v; }
/* the sort keys of a node whose box is set: centres (Java long division) and their absolutes */
static void node_keys(tnode *t)
{
    for (int a = 0; a < 7; a++) t->c[a] = (t->lo[a] + t->hi[a]) / 2, t->ac[a] = labs64(t->c[a]);
}

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }
static int cmp_abs_sum(const builder *b, int x, int y, int arg)
{
    (void)arg;
    int64_t sx = 0, sy = 0;
    for (int a = 0; a < 7; a++) {
        sx += b->nodes[x].ac[a];
        sy += b->nodes[y].ac[a];
    }
    return cmp_i64(sx, sy);
}
/* the key tuple from axis arg (mod 7); arg >= 7: the same with |centre| */
static int cmp_axes(const builder *b, int x, int y, int arg)
{
    int absolute = arg >= 7, a = arg % 7;
    const int64_t *kx = absolute ? b->nodes[x].ac : b->nodes[x].c, *ky = absolute ? b->nodes[y].ac : b->nodes[y].c;
    for (int j = 0; j < 7; j++, a = a == 6 ? 0 : a + 1)
        if (kx[a] != ky[a]) return kx[a] < ky[a] ? -1 : 1;
    return 0;
}

/* stable merge sorts of ids by a comparator (the Java sorts of the build are stable), one
 * per comparator so that it inlines: the build's sorts are most of its time */
#define DEFINE_MSORT(NAME, CMP)                                                                   \
    static void NAME(const builder *b, int *v, int *tmp, int n, int arg)                          \
    {                                                                                             \
        if (n < 2) return;                                                                        \
        int h = n / 2;                                                                            \
        NAME(b, v, tmp, h, arg);                                                                  \
        NAME(b, v + h, tmp, n - h, arg);                                                          \
        int i = 0, j = h, k = 0;                                                                  \
        while (i < h && j < n) tmp[k++] = CMP(b, v[j], v[i], arg) < 0 ? v[j++] : v[i++];           \
        while (i < h) tmp[k++] = v[i++];                                                          \
        while (j < n) tmp[k++] = v[j++];                                                          \
        memcpy(v, tmp, (size_t)n * sizeof *v);                                                    \
    }
DEFINE_MSORT(msort_abs_sum, cmp_abs_sum)
DEFINE_MSORT(msort_axes, cmp_axes)

static int node_new(builder *b)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 1024;
        tnode *nn = realloc(b->nodes, (size_t)cap * sizeof *nn);
        if (!nn) return b->oom = 1, -1;
        b->nodes = nn;
        b->cap = cap;
    }
    memset(&b->nodes[b->n], 0, sizeof b->nodes[b->n]);
    b->nodes[b->n].entry = -1;
    return b->n++;
}

/* a subtree over ids[0..n-1] (copied), its box their union */
static int subtree(builder *b, const int *ids, int n)
{
    int s = node_new(b);
    if (s < 0) return -1;
    tnode *t = &b->nodes[s];
    t->ch = malloc((size_t)n * sizeof *t->ch);
    if (!t->ch) return b->oom = 1, -1;
    memcpy(t->ch, ids, (size_t)n * sizeof *ids);
    t->nch = n;
    for (int a = 0; a < 7; a++) {
        t->lo[a] = INT64_MAX;
        t->hi[a] = INT64_MIN;
        for (int i = 0; i < n; i++) {
            const tnode *c = &b->nodes[ids[i]];
            if (c->lo[a] < t->lo[a]) t->lo[a] = c->lo[a];
            if (c->hi[a] > t->hi[a]) t->hi[a] = c->hi[a];
        }
    }
    node_keys(t);
    return s;
}

static int build(builder *b, int *ids, int n)
{
    if (b->oom) return -1;
    if (n == 1) return ids[0];
    int *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp) return b->oom = 1, -1;
    int r = -1;
    if (n <= b->k) {
        msort_abs_sum(b, ids, tmp, n, 0);
        r = subtree(b, ids, n);
        free(tmp);
        return r;
    }
    /* the largest power of K below n: (int) pow(K, floor(log(n - 0.01) / log(K))) */
    int s = (int)pow((double)b->k, floor(log((double)n - 0.01) / log((double)b->k)));
    int nb = (n + s - 1) / s;
    int *best = malloc((size_t)n * sizeof *best), *bk = malloc((size_t)nb * sizeof *bk);
    if (!best || !bk) {
        b->oom = 1;
        goto out;
    }
    int64_t mincost = INT64_MAX;
    int mindim = 0;
    for (int d = 0; d < 7; d++) {
        msort_axes(b, ids, tmp, n, d); /* from the previous axis's order, as vanilla */
        int64_t cost = 0;
        for (int i = 0; i < n; i += s) {
            int m = n - i < s ? n - i : s;
            int64_t lo, hi;
            for (int a = 0; a < 7; a++) {
                lo = INT64_MAX, hi = INT64_MIN;
                for (int j = 0; j < m; j++) {
                    const tnode *c = &b->nodes[ids[i + j]];
                    if (c->lo[a] < lo) lo = c->lo[a];
                    if (c->hi[a] > hi) hi = c->hi[a];
                }
                cost += labs64(hi - lo);
            }
        }
        if (mincost > cost) {
            mincost = cost;
            mindim = d;
            memcpy(best, ids, (size_t)n * sizeof *ids);
        }
    }
    /* the kept buckets as subtrees (for their boxes), sorted by |centre| from the kept axis */
    for (int i = 0, j = 0; i < n; i += s, j++) {
        bk[j] = subtree(b, best + i, n - i < s ? n - i : s);
        if (bk[j] < 0) goto out;
    }
    int *tmpb = malloc((size_t)nb * sizeof *tmpb);
    if (!tmpb) {
        b->oom = 1;
        goto out;
    }
    msort_axes(b, bk, tmpb, nb, 7 + mindim);
    free(tmpb);
    for (int j = 0; j < nb; j++) {
        tnode *t = &b->nodes[bk[j]];
        int m = t->nch, *ch = t->ch; /* the bucket's leaves, in the kept order */
        t->ch = NULL;
        t->nch = 0;
        int c = build(b, ch, m); /* may move b->nodes */
        free(ch);
        if (c < 0) goto out;
        bk[j] = c;
    }
    r = subtree(b, bk, nb);
out:
    free(best);
    free(bk);
    free(tmp);
    return r;
}

int32_t *bm_tree_build(const bm_list *l, int k, int *nnodes) { return bm_tree_build_ex(l, k, nnodes, NULL); }

int32_t *bm_tree_build_ex(const bm_list *l, int k, int *nnodes, int32_t **entry_of)
{
    *nnodes = 0;
    if (entry_of) *entry_of = NULL;
    int32_t *eo = NULL;
    if (l->n < 1 || k < 2) return NULL;
    builder b = {0};
    b.k = k;
    int *ids = malloc((size_t)l->n * sizeof *ids);
    int32_t *out = NULL;
    int *queue = NULL, *depth = NULL;
    if (!ids) return NULL;
    for (int i = 0; i < l->n; i++) {
        int id = node_new(&b);
        if (id < 0) goto done;
        for (int a = 0; a < 7; a++) b.nodes[id].lo[a] = l->lo[i][a], b.nodes[id].hi[a] = l->hi[i][a];
        node_keys(&b.nodes[id]);
        b.nodes[id].entry = i;
        ids[i] = id;
    }
    int root = build(&b, ids, l->n);
    if (root < 0 || b.oom) goto done;
    /* flatten breadth first: every node's children contiguous, the root at 0 */
    queue = malloc((size_t)b.n * sizeof *queue);
    depth = malloc((size_t)b.n * sizeof *depth);
    out = calloc((size_t)b.n, CF_BN_STRIDE * sizeof *out);
    if (entry_of && !(eo = malloc((size_t)b.n * sizeof *eo))) goto fail;
    if (!queue || !depth || !out) goto fail;
    int head = 0, tail = 0;
    queue[tail] = root, depth[tail++] = 0;
    while (head < tail) {
        const tnode *t = &b.nodes[queue[head]];
        int32_t *o = out + (size_t)head * CF_BN_STRIDE;
        if (depth[head] >= CF_B_MAXDEPTH - 1) goto fail;
        for (int a = 0; a < 7; a++) {
            o[CF_BN_LO + a] = (int32_t)t->lo[a];
            o[CF_BN_HI + a] = (int32_t)t->hi[a];
        }
        if (eo) eo[head] = t->entry;
        if (t->entry >= 0) {
            o[CF_BN_FIRST] = l->pal[t->entry];
            o[CF_BN_COUNT] = 0;
        } else {
            o[CF_BN_FIRST] = tail;
            o[CF_BN_COUNT] = t->nch;
            for (int i = 0; i < t->nch; i++) queue[tail] = t->ch[i], depth[tail++] = depth[head] + 1;
        }
        head++;
    }
    *nnodes = tail;
    if (entry_of) *entry_of = eo;
    eo = NULL;
    goto done;
fail:
    free(out);
    out = NULL;
done:
    free(eo);
    for (int i = 0; i < b.n; i++) free(b.nodes[i].ch);
    free(b.nodes);
    free(ids);
    free(queue);
    free(depth);
    return out;
}

/* ------------------------------------------------------------------ digest */
static void digest_node(SHA2_CTX *c, const int32_t *tree, int node, const char *const *names)
{
    const int32_t *n = tree + (size_t)node * CF_BN_STRIDE;
    char line[512];
    int len = 0;
    for (int a = 0; a < 7; a++) len += snprintf(line + len, sizeof line - (size_t)len, "%d,%d ", n[CF_BN_LO + a], n[CF_BN_HI + a]);
    if (n[CF_BN_COUNT] == 0) len += snprintf(line + len, sizeof line - (size_t)len, "b %s\n", names[n[CF_BN_FIRST]]);
    else len += snprintf(line + len, sizeof line - (size_t)len, "c %d\n", n[CF_BN_COUNT]);
    SHA256Update(c, (const uint8_t *)line, (size_t)len);
    for (int i = 0; i < n[CF_BN_COUNT]; i++) digest_node(c, tree, n[CF_BN_FIRST] + i, names);
}

void bm_tree_digest(const int32_t *tree, const char *const *names, char hex[65])
{
    SHA2_CTX c;
    uint8_t d[32];
    SHA256Init(&c);
    digest_node(&c, tree, 0, names);
    SHA256Final(d, &c);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* ------------------------------------------------------------------ fast exact search
 * The answer of vanilla's cold search is the first leaf of minimum fitness in the
 * tree's depth-first order (cf_b_search_hint's comment). Any structure that finds the
 * minimum fitness and, among the leaves at it, the smallest depth-first rank gives the
 * same answer. Vanilla's boxes mix the surface entries' depth 0 and depth 1 (and the
 * underground ones), so at a surface target every upper box is near and the search
 * walks much of the tree; here the entries are grouped by their depth interval, each
 * group gets its own tree, and boxes carry the smallest rank below them. */
void bm_fast_free(bm_fast *f)
{
    for (int g = 0; g < f->ngroups; g++) free(f->node[g]);
    free(f->rank);
    free(f->grp);
    free(f->ovl_first);
    free(f->ovl);
    memset(f, 0, sizeof *f);
}

/* group g's lanes from its flat tree t (nn nodes, built with at most BM_FAST_K children,
 * children after their parent): a wide node per subtree of t (a lone leaf: a root of one lane) */
static int wide_nodes(bm_fast *f, int g, const int32_t *t, int nn, const int32_t *sub_entry, const bm_list *sub, const int32_t *node_of)
{
    int32_t *mr = malloc((size_t)nn * sizeof *mr), *wid = malloc((size_t)nn * sizeof *wid);
    int nw = 0, rc = -1;
    if (!mr || !wid) goto out;
    for (int i = nn - 1; i >= 0; i--) { /* the smallest rank below each node, children first */
        const int32_t *n = t + (size_t)i * CF_BN_STRIDE;
        if (n[CF_BN_COUNT] == 0) {
            mr[i] = f->rank[node_of[sub->pal[sub_entry[i]]]];
            continue;
        }
        mr[i] = INT32_MAX;
        for (int c = 0; c < n[CF_BN_COUNT]; c++)
            if (mr[n[CF_BN_FIRST] + c] < mr[i]) mr[i] = mr[n[CF_BN_FIRST] + c];
    }
    for (int i = 0; i < nn; i++) wid[i] = t[(size_t)i * CF_BN_STRIDE + CF_BN_COUNT] > 0 || i == 0 ? nw++ : -1;
    if (nw < 1 || !(f->node[g] = calloc((size_t)nw, sizeof *f->node[g]))) goto out; /* node 0 is one */
    f->nnodes[g] = nw;
    for (int i = 0; i < nn; i++) {
        const int32_t *n = t + (size_t)i * CF_BN_STRIDE;
        if (wid[i] < 0) continue;
        bm_wnode *w = &f->node[g][wid[i]];
        int first = n[CF_BN_COUNT] ? n[CF_BN_FIRST] : i, cnt = n[CF_BN_COUNT] ? n[CF_BN_COUNT] : 1; /* a lone leaf: itself */
        if (cnt > BM_FAST_K) goto out;
        w->n = cnt;
        for (int l = 0; l < cnt; l++) {
            int c = first + l;
            const int32_t *cn = t + (size_t)c * CF_BN_STRIDE;
            for (int a = 0; a < 6; a++) w->lo[a][l] = cn[CF_BN_LO + a], w->hi[a][l] = cn[CF_BN_HI + a];
            uint64_t a6 = (uint64_t)cf_b_axis(0, cn[CF_BN_LO + 6], cn[CF_BN_HI + 6]);
            w->off2[l] = a6 * a6;
            w->child[l] = cn[CF_BN_COUNT] ? wid[c] : ~node_of[sub->pal[sub_entry[c]]];
            w->minrank[l] = mr[c];
        }
    }
    rc = 0;
out:
    free(mr);
    free(wid);
    return rc;
}

/* the axes besides depth and offset: a target strictly inside a box on these */
static const int ovl_axes[5] = {0, 1, 2, 3, 5};

/* f->ovl's list of vanilla leaf v (group g, box n) appended to *o (*no used, *cap held):
 * the leaves of the group's tree of smaller rank whose box meets n's strictly on the five
 * axes (a subtree's box holds its leaves', so a box that does not meet it prunes them) and
 * whose offset interval holds 0 */
static int ovl_of(bm_fast *f, int g, const int32_t *vtree, int32_t v, int32_t **o, int *no, int *cap)
{
    const int32_t *n = vtree + (size_t)v * CF_BN_STRIDE;
    int32_t st[CF_B_MAXDEPTH * BM_FAST_K];
    int sp = 0;
    st[sp++] = 0;
    while (sp > 0) {
        const bm_wnode *w = f->node[g] + st[--sp];
        for (int l = 0; l < w->n; l++) {
            if (w->minrank[l] >= f->rank[v]) continue;
            int meet = 1;
            for (int i = 0; i < 5; i++) {
                int a = ovl_axes[i];
                meet &= w->lo[a][l] < n[CF_BN_HI + a] && n[CF_BN_LO + a] < w->hi[a][l];
            }
            if (!meet) continue;
            if (w->child[l] >= 0) {
                st[sp++] = w->child[l];
                continue;
            }
            int32_t m = ~w->child[l];
            const int32_t *mn = vtree + (size_t)m * CF_BN_STRIDE;
            if (mn[CF_BN_LO + 6] > 0 || mn[CF_BN_HI + 6] < 0) continue;
            if (*no == *cap) {
                int nc = *cap ? *cap * 2 : 1024;
                int32_t *r = realloc(*o, (size_t)nc * sizeof *r);
                if (!r) return -1;
                *o = r, *cap = nc;
            }
            (*o)[(*no)++] = m;
        }
    }
    return 0;
}

int bm_fast_build(bm_fast *f, const bm_list *l, int k, const int32_t *vtree, int vn, const int32_t *ventry)
{
    memset(f, 0, sizeof *f);
    if (k < 2 || k > BM_FAST_K) return -1;
    int32_t *node_of = malloc((size_t)l->n * sizeof *node_of), *stk = malloc((size_t)vn * sizeof *stk);
    int *grp = malloc((size_t)l->n * sizeof *grp);
    f->rank = malloc((size_t)vn * sizeof *f->rank);
    bm_list sub = {0};
    int32_t *sub_entry = NULL, *st = NULL;
    int rc = -1;
    if (!node_of || !stk || !grp || !f->rank) goto out;
    for (int i = 0; i < vn; i++) {
        f->rank[i] = -1;
        if (ventry[i] >= 0) node_of[ventry[i]] = i;
    }
    /* depth-first ranks of vanilla's leaves (children in order) */
    int sp = 0, r = 0;
    stk[sp++] = 0;
    while (sp > 0) {
        int32_t nd = stk[--sp];
        const int32_t *n = vtree + (size_t)nd * CF_BN_STRIDE;
        if (n[CF_BN_COUNT] == 0) {
            f->rank[nd] = r++;
            continue;
        }
        for (int i = n[CF_BN_COUNT] - 1; i >= 0; i--) stk[sp++] = n[CF_BN_FIRST] + i;
    }
    /* groups: the distinct depth intervals (one group when there are too many) */
    int32_t glo[BM_FAST_GROUPS], ghi[BM_FAST_GROUPS];
    int ng = 0;
    for (int i = 0; i < l->n && ng <= BM_FAST_GROUPS; i++) {
        int g = 0;
        while (g < ng && !(glo[g] == l->lo[i][4] && ghi[g] == l->hi[i][4])) g++;
        if (g == ng) {
            if (ng == BM_FAST_GROUPS) {
                ng = BM_FAST_GROUPS + 1;
                break;
            }
            glo[ng] = l->lo[i][4], ghi[ng] = l->hi[i][4], ng++;
        }
        grp[i] = g;
    }
    f->bydepth = ng <= BM_FAST_GROUPS;
    if (ng > BM_FAST_GROUPS) {
        ng = 1;
        for (int i = 0; i < l->n; i++) grp[i] = 0;
    }
    f->ngroups = ng;
    for (int g = 0; g < ng; g++) {
        int m = 0;
        for (int i = 0; i < l->n; i++) m += grp[i] == g;
        sub.n = m;
        sub.lo = malloc((size_t)m * sizeof *sub.lo);
        sub.hi = malloc((size_t)m * sizeof *sub.hi);
        sub.pal = malloc((size_t)m * sizeof *sub.pal);
        if (!sub.lo || !sub.hi || !sub.pal) goto out;
        int j = 0;
        for (int i = 0; i < l->n; i++)
            if (grp[i] == g) {
                memcpy(sub.lo[j], l->lo[i], sizeof sub.lo[j]);
                memcpy(sub.hi[j], l->hi[i], sizeof sub.hi[j]);
                sub.pal[j++] = i; /* the entry, mapped below */
            }
        int nn;
        if (!(st = bm_tree_build_ex(&sub, k, &nn, &sub_entry))) goto out;
        if (wide_nodes(f, g, st, nn, sub_entry, &sub, node_of) < 0) goto out;
        free(st);
        free(sub_entry);
        st = sub_entry = NULL;
        bm_list_free(&sub);
    }
    f->narrow = 1;
    for (int i = 0; i < l->n; i++)
        for (int a = 0; a < 7; a++)
            if (l->lo[i][a] < -(1 << 20) || l->lo[i][a] > (1 << 20) || l->hi[i][a] < -(1 << 20) || l->hi[i][a] > (1 << 20)) f->narrow = 0;
    /* the shortcut's lists, only where the groups are the depth intervals */
    if (!(f->grp = malloc((size_t)vn * sizeof *f->grp)) || !(f->ovl_first = calloc((size_t)vn + 1, sizeof *f->ovl_first))) goto out;
    int no = 0, cap = 0;
    for (int v = 0; v < vn; v++) {
        f->grp[v] = ventry[v] >= 0 ? grp[ventry[v]] : -1;
        f->ovl_first[v] = no;
        if (f->bydepth && ventry[v] >= 0 && ovl_of(f, f->grp[v], vtree, v, &f->ovl, &no, &cap) < 0) goto out;
    }
    f->ovl_first[vn] = no;
    unsigned isa = cpu_isa();
    f->isa = (isa & CPU_SSE2) && (isa & CPU_AVX2) && (isa & CPU_AVX512) ? BM_ISA_AVX512 : (isa & CPU_SSE2) && (isa & CPU_AVX2) ? BM_ISA_AVX2 : BM_ISA_PORTABLE;
    rc = 0;
out:
    free(st);
    free(sub_entry);
    bm_list_free(&sub);
    free(node_of);
    free(stk);
    free(grp);
    if (rc < 0) bm_fast_free(f);
    return rc;
}

/* A node's lanes: the distance of each child box to target t, and the mask of the lanes that
 * may beat the best (d, rank) so far (d < bestd, or d == bestd and a smaller rank below).
 * Narrow (the list's boxes within 2^20, the target's axes within 2^28): an axis distance is
 * below 2^29 in 32 bits, its square and the sum of seven below 2^61 in 64, so nothing wraps
 * and the sum is cf_b_dist's. Otherwise (wide) cf_b_dist's own wrapping 64-bit sums. */
#define FAST_LIM ((int64_t)1 << 28)
static unsigned lanes_narrow(const bm_wnode *w, const int32_t *t, int64_t bestd, int32_t bestr, int64_t *d)
{
    uint64_t s[BM_FAST_K];
    memcpy(s, w->off2, sizeof s);
    for (int a = 0; a < 6; a++)
        for (int l = 0; l < BM_FAST_K; l++) {
            int32_t p = t[a] - w->hi[a][l], q = w->lo[a][l] - t[a];
            int32_t m = p > q ? p : q;
            m = m > 0 ? m : 0;
            s[l] += (uint64_t)((int64_t)m * m);
        }
    unsigned keep = 0;
    for (int l = 0; l < w->n; l++) {
        d[l] = (int64_t)s[l];
        keep |= (unsigned)(d[l] < bestd || (d[l] == bestd && w->minrank[l] < bestr)) << l;
    }
    return keep;
}

static unsigned lanes_wide(const bm_wnode *w, const int64_t *t, int64_t bestd, int32_t bestr, int64_t *d)
{
    unsigned keep = 0;
    for (int l = 0; l < w->n; l++) {
        uint64_t s = w->off2[l];
        for (int a = 0; a < 6; a++) {
            uint64_t x = (uint64_t)cf_b_axis(t[a], w->lo[a][l], w->hi[a][l]);
            s += x * x;
        }
        d[l] = (int64_t)s;
        keep |= (unsigned)(d[l] < bestd || (d[l] == bestd && w->minrank[l] < bestr)) << l;
    }
    return keep;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define BM_T512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
#define BM_T256 __attribute__((target("avx2")))
/* lanes_narrow in 16 AVX-512 lanes: the axes in 32 bits, the squares and sums in two halves
 * of eight 64-bit lanes */
BM_T512 static unsigned lanes_narrow512(const bm_wnode *w, const int32_t *t, int64_t bestd, int32_t bestr, int64_t *d)
{
    __m512i s0 = _mm512_loadu_si512(w->off2), s1 = _mm512_loadu_si512(w->off2 + 8), z = _mm512_setzero_si512();
    for (int a = 0; a < 6; a++) {
        __m512i x = _mm512_set1_epi32(t[a]);
        __m512i p = _mm512_sub_epi32(x, _mm512_loadu_si512(w->hi[a])), q = _mm512_sub_epi32(_mm512_loadu_si512(w->lo[a]), x);
        __m512i m = _mm512_max_epi32(_mm512_max_epi32(p, q), z);
        __m512i m0 = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(m)), m1 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(m, 1));
        s0 = _mm512_add_epi64(s0, _mm512_mul_epu32(m0, m0));
        s1 = _mm512_add_epi64(s1, _mm512_mul_epu32(m1, m1));
    }
    _mm512_storeu_si512(d, s0);
    _mm512_storeu_si512(d + 8, s1);
    __m512i b = _mm512_set1_epi64(bestd);
    unsigned lt = (unsigned)_mm512_cmplt_epi64_mask(s0, b) | (unsigned)_mm512_cmplt_epi64_mask(s1, b) << 8;
    unsigned eq = (unsigned)_mm512_cmpeq_epi64_mask(s0, b) | (unsigned)_mm512_cmpeq_epi64_mask(s1, b) << 8;
    unsigned rk = (unsigned)_mm512_cmplt_epi32_mask(_mm512_loadu_si512(w->minrank), _mm512_set1_epi32(bestr));
    return (lt | (eq & rk)) & ((1u << w->n) - 1u);
}

/* lanes_narrow in AVX2: two halves of 8 lanes, each squared and summed in two of four 64-bit lanes */
BM_T256 static unsigned lanes_narrow256(const bm_wnode *w, const int32_t *t, int64_t bestd, int32_t bestr, int64_t *d)
{
    __m256i b = _mm256_set1_epi64x(bestd), z = _mm256_setzero_si256();
    unsigned lt = 0, eq = 0;
    for (int h = 0; h < BM_FAST_K; h += 8) {
        __m256i s0 = _mm256_loadu_si256((const __m256i *)(w->off2 + h)), s1 = _mm256_loadu_si256((const __m256i *)(w->off2 + h + 4));
        for (int a = 0; a < 6; a++) {
            __m256i x = _mm256_set1_epi32(t[a]);
            __m256i p = _mm256_sub_epi32(x, _mm256_loadu_si256((const __m256i *)(w->hi[a] + h)));
            __m256i q = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(w->lo[a] + h)), x);
            __m256i m = _mm256_max_epi32(_mm256_max_epi32(p, q), z);
            __m256i m0 = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(m)), m1 = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(m, 1));
            s0 = _mm256_add_epi64(s0, _mm256_mul_epu32(m0, m0));
            s1 = _mm256_add_epi64(s1, _mm256_mul_epu32(m1, m1));
        }
        _mm256_storeu_si256((__m256i *)(d + h), s0);
        _mm256_storeu_si256((__m256i *)(d + h + 4), s1);
        /* d < bestd: bestd > d; equality separately */
        lt |= (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(b, s0))) << h;
        lt |= (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(b, s1))) << (h + 4);
        eq |= (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(b, s0))) << h;
        eq |= (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(b, s1))) << (h + 4);
    }
    unsigned rk = 0;
    for (int l = 0; l < BM_FAST_K; l++) rk |= (unsigned)(w->minrank[l] < bestr) << l;
    return (lt | (eq & rk)) & ((1u << w->n) - 1u);
}
#endif

/* the search over the grouped trees: a node's lanes measured together, the kept children
 * taken from the last lane down (leaves at once, subtrees pushed: the first lane's on top,
 * measured again against the best when popped). The answer is the leaf of least (distance,
 * rank), whatever the order. mode: BM_ISA_* for narrow targets, -1 for any target */
static inline __attribute__((always_inline)) int32_t fast_search(const bm_fast *f, const int32_t *vtree, const int64_t *t, int32_t hint,
                                                                int32_t warm, int64_t *fit, int mode)
{
    int32_t best = -1, bestr = INT32_MAX;
    int64_t bestd = INT64_MAX;
    if (hint >= 0) best = hint, bestd = cf_b_dist(vtree, hint, t), bestr = f->rank[hint];
    int32_t t32[6];
    for (int a = 0; a < 6; a++) t32[a] = (int32_t)t[a]; /* narrow: within 2^28 */
    /* the shortcut: a narrow target strictly inside the hint's box on the five axes besides depth
     * and offset, and the hint's offset holding 0. In its group (one depth interval) every leaf's
     * distance is the same depth term plus squares, so the hint's distance is the group's least,
     * and the leaves at it hold the target in those axes too: ovl's list of the hint (smaller
     * ranks only) holds them all. The group's answer is the hint or the list's first-ranked at
     * the same distance; the other groups are searched below against it. */
    int skip = -1;
    if (mode >= 0 && hint >= 0 && f->bydepth) {
        const int32_t *h = vtree + (size_t)hint * CF_BN_STRIDE;
        int in = h[CF_BN_LO + 6] <= 0 && h[CF_BN_HI + 6] >= 0;
        for (int i = 0; i < 5; i++) in &= h[CF_BN_LO + ovl_axes[i]] < t[ovl_axes[i]] && t[ovl_axes[i]] < h[CF_BN_HI + ovl_axes[i]];
        if (in) {
            for (int32_t j = f->ovl_first[hint]; j < f->ovl_first[hint + 1]; j++) {
                int32_t m = f->ovl[j];
                if (f->rank[m] < bestr && cf_b_dist(vtree, m, t) == bestd) best = m, bestr = f->rank[m];
            }
            skip = f->grp[hint];
        }
    }
    struct {
        int32_t node, mr;
        int64_t d;
    } st[CF_B_MAXDEPTH * BM_FAST_K];
    int64_t d[BM_FAST_K];
    for (int g = 0; g < f->ngroups; g++) {
        if (g == skip) continue;
        const bm_wnode *nodes = f->node[g];
        int sp = 0;
        st[0].node = 0, st[0].mr = INT32_MIN, st[0].d = INT64_MIN, sp = 1;
        while (sp > 0) {
            sp--;
            if (st[sp].d > bestd || (st[sp].d == bestd && st[sp].mr >= bestr)) continue;
            const bm_wnode *w = nodes + st[sp].node;
            unsigned keep;
#if defined(__x86_64__) && defined(__GNUC__)
            if (mode == BM_ISA_AVX512) keep = lanes_narrow512(w, t32, bestd, bestr, d);
            else if (mode == BM_ISA_AVX2) keep = lanes_narrow256(w, t32, bestd, bestr, d);
            else
#endif
                keep = mode == BM_ISA_PORTABLE ? lanes_narrow(w, t32, bestd, bestr, d) : lanes_wide(w, t, bestd, bestr, d);
            while (keep) {
                int l = 31 - __builtin_clz(keep);
                keep &= ~(1u << l);
                if (d[l] > bestd || (d[l] == bestd && w->minrank[l] >= bestr)) continue;
                int32_t c = w->child[l];
                if (c < 0) best = ~c, bestd = d[l], bestr = w->minrank[l];
                else st[sp].node = c, st[sp].mr = w->minrank[l], st[sp].d = d[l], sp++;
            }
        }
    }
    *fit = bestd;
    /* vanilla's warm start: the warm leaf wins whenever it is at the minimum */
    if (warm >= 0 && cf_b_dist(vtree, warm, t) == bestd) return warm;
    return best;
}

int32_t bm_fast_search(const bm_fast *f, const int32_t *vtree, const int64_t *t, int32_t hint, int32_t warm, int64_t *fit)
{
    if (!f->narrow) return fast_search(f, vtree, t, hint, warm, fit, -1);
    for (int a = 0; a < 6; a++)
        if (t[a] > FAST_LIM || t[a] < -FAST_LIM) return fast_search(f, vtree, t, hint, warm, fit, -1);
    if (f->isa == BM_ISA_AVX512) return fast_search(f, vtree, t, hint, warm, fit, BM_ISA_AVX512);
    if (f->isa == BM_ISA_AVX2) return fast_search(f, vtree, t, hint, warm, fit, BM_ISA_AVX2);
    return fast_search(f, vtree, t, hint, warm, fit, BM_ISA_PORTABLE);
}
