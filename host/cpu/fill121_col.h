/* fill121_col.h - the corner stage of fill121.c: its ops over a column of corners (lanes =
 * corner y) and the column noises. Included twice by fill121.c: plain, and built for AVX-512
 * (F121_TGT; the lane loops, masked by the lanes asked for, then vectorise with masked stores).
 * The same C operations either way (-ffp-contract=off, no FMA): the same bits. F121_SFX names
 * each copy's functions. */
/* w[l] = cf_wrap(v[l] * f), m[l] = v[l] * f: cf_wrap returns its argument inside +-2^24, so when
 * every lane is inside the loop is a copy (vectorised); else cf_wrap lane by lane */
F121_TGT static void F121_SFX(wrap_lanes)(double *w, double *m, const double *v, double f, int L)
{
    int in = 1;
    for (int l = 0; l < L; l++) {
        double c = v[l] * f;
        w[l] = c, in &= (c > -16777216.0) & (c < 16777216.0);
        if (m) m[l] = c;
    }
    if (!in)
        for (int l = 0; l < L; l++) w[l] = cf_wrap(v[l] * f);
}

/* PerlinNoise.getValue (cf21_perlin) of record r at (x, y[l], z) */
F121_TGT static void F121_SFX(col_perlin)(f121 *s, CF_TAB t, cf_i32 r, double x, const double *y, double z, const uint8_t *todo, int L, double *out,
                       double *w)
{
    CF_TAB pr = cf21_rec(t, r);
    int n = cf_ld_i32(pr);
    double inf = cf_ld_f64(pr + 8), vf = cf_ld_f64(pr + 16);
    double *yw = w, *g = w + L; /* w: 2 L doubles */
    for (int l = 0; l < L; l++) out[l] = 0.0;
    CF_TAB lv = pr + CF21_PERLIN_HEAD;
    for (int i = 0; i < n; i++, lv += CF21_LEVEL_BYTES) {
        cf_i32 oct = cf_ld_i32(lv);
        if (oct >= 0) {
            F121_SFX(wrap_lanes)(yw, NULL, y, inf, L);
            col_octave(s, cf21_octave(t, oct), cf_wrap(x * inf), cf_wrap(z * inf), yw, 0.0, NULL, todo, L, g);
            double amp = cf_ld_f64(lv + 8);
            for (int l = 0; l < L; l++) /* out: the caller's scratch (lanes not in todo unread) */
#ifndef F121_WIDE
                if (todo[l])
#endif
                    out[l] += amp * g[l] * vf;
        }
        inf *= 2.0;
        vf /= 2.0;
    }
}

/* NormalNoise.getValue (cf21_normal) of record r at (x, y[l], z) */
F121_TGT static void F121_SFX(col_normal)(f121 *s, CF_TAB t, cf_i32 r, double x, const double *y, double z, const uint8_t *todo, int L, double *out,
                       double *w)
{
    CF_TAB nr = cf21_rec(t, r);
    double *a = w, *b = w + L, *y2 = w + 2 * L; /* w: 5 L doubles */
    F121_SFX(col_perlin)(s, t, cf_ld_i32(nr + 8), x, y, z, todo, L, a, w + 3 * L);
    for (int l = 0; l < L; l++) y2[l] = y[l] * 1.0181268882175227;
    F121_SFX(col_perlin)(s, t, cf_ld_i32(nr + 12), x * 1.0181268882175227, y2, z * 1.0181268882175227, todo, L, b, w + 3 * L);
    double vf = cf_ld_f64(nr);
    for (int l = 0; l < L; l++)
        if (todo[l]) out[l] = (a[l] + b[l]) * vf;
}

#ifdef F121_WIDE
/* NormalNoise.getValue (cf21_normal) at (x[l], y[l], z[l]) (AVX-512: oct3_avx512); w: 6 L doubles */
F121_TGT static void F121_SFX(col_normal3)(CF_TAB t, cf_i32 r, const double *x, const double *y, const double *z, const uint8_t *todo,
                                           int L, double *out, double *w)
{
    CF_TAB nr = cf21_rec(t, r);
    double *xs = w, *ys = w + L, *zs = w + 2 * L, *g = w + 3 * L, *acc[2] = {w + 4 * L, w + 5 * L};
    for (int k = 0; k < 2; k++) {
        CF_TAB pr = cf21_rec(t, cf_ld_i32(nr + 8 + 4 * k));
        int n = cf_ld_i32(pr);
        double inf = cf_ld_f64(pr + 8), vf = cf_ld_f64(pr + 16), f = k ? 1.0181268882175227 : 1.0;
        double *v = acc[k];
        for (int l = 0; l < L; l++) v[l] = 0.0;
        CF_TAB lv = pr + CF21_PERLIN_HEAD;
        for (int i = 0; i < n; i++, lv += CF21_LEVEL_BYTES) {
            cf_i32 oct = cf_ld_i32(lv);
            if (oct >= 0) {
                for (int l = 0; l < L; l++)
                    if (todo[l]) { /* cf21_normal: the second perlin at (x * f, ...); cf21_perlin: wrap(x * inf) */
                        double X = k ? x[l] * f : x[l], Y = k ? y[l] * f : y[l], Z = k ? z[l] * f : z[l];
                        xs[l] = cf_wrap(X * inf), ys[l] = cf_wrap(Y * inf), zs[l] = cf_wrap(Z * inf);
                    }
                oct3_avx512(cf21_octave(t, oct), xs, ys, zs, todo, L, g);
                double amp = cf_ld_f64(lv + 8);
                for (int l = 0; l < L; l++) v[l] += amp * g[l] * vf; /* scratch: lanes not in todo unread */
            }
            inf *= 2.0;
            vf /= 2.0;
        }
    }
    double vf = cf_ld_f64(nr);
    for (int l = 0; l < L; l++)
        if (todo[l]) out[l] = (acc[0][l] + acc[1][l]) * vf;
}
#endif

/* octave i of a blended record's perlin (cf21_blend_octave): its table, or NULL */
F121_TGT static CF_TAB F121_SFX(blend_oct)(CF_TAB t, cf_i32 r, int i)
{
    CF_TAB pr = cf21_rec(t, r);
    int n = cf_ld_i32(pr);
    cf_i32 oct = cf_ld_i32(pr + CF21_PERLIN_HEAD + CF21_LEVEL_BYTES * (n - 1 - i));
    return oct < 0 ? NULL : cf21_octave(t, oct);
}

/* BlendedNoise.compute (cf21_blended) at (x, y[l], z) */
F121_TGT static void F121_SFX(col_blended)(f121 *s, CF_TAB t, cf_i32 r, const double *d, double x, const double *y, double z, const uint8_t *todo,
                        int L, double *out, double *w, uint8_t *m)
{
    CF_TAB br = cf21_rec(t, r);
    cf_i32 rmin = cf_ld_i32(br), rmax = cf_ld_i32(br + 4), rmain = cf_ld_i32(br + 8);
    double xz_scale = d[0], y_scale = d[1], xz_factor = d[2], y_factor = d[3], smear_mul = d[4];
    double xzm = 684.412 * xz_scale, ym = 684.412 * y_scale;
    double sx = x * xzm, sz = z * xzm, fx = sx / xz_factor, fz = sz / xz_factor;
    double smear = ym * smear_mul, fsmear = smear / y_factor;
    /* w: 8 L doubles, m: L bytes */
    double *sy = w, *fy = w + L, *value = w + 2 * L, *mn = w + 3 * L, *mx = w + 4 * L, *yy = w + 5 * L, *ymax = w + 6 * L, *g = w + 7 * L;
    for (int l = 0; l < L; l++) sy[l] = y[l] * ym, fy[l] = sy[l] / y_factor, value[l] = 0.0, mn[l] = 0.0, mx[l] = 0.0;
    double factor = 1.0;
    for (int i = 0; i < 8; i++) {
        CF_TAB o = F121_SFX(blend_oct)(t, rmain, i);
        if (o) {
            F121_SFX(wrap_lanes)(yy, ymax, fy, factor, L);
            col_octave(s, o, cf_wrap(fx * factor), cf_wrap(fz * factor), yy, fsmear * factor, ymax, todo, L, g);
            for (int l = 0; l < L; l++)
                if (todo[l]) value[l] += g[l] / factor;
        }
        factor /= 2.0;
    }
    for (int l = 0; l < L; l++) value[l] = (value[l] / 10.0 + 1.0) / 2.0;
    factor = 1.0;
    for (int i = 0; i < 16; i++) {
        double xx = cf_wrap(sx * factor), zz = cf_wrap(sz * factor), ss = smear * factor;
        CF_TAB olo = F121_SFX(blend_oct)(t, rmin, i);
        CF_TAB ohi = F121_SFX(blend_oct)(t, rmax, i);
        if (olo || ohi)
            F121_SFX(wrap_lanes)(yy, ymax, sy, factor, L);
        if (olo) {
            int any = 0;
            for (int l = 0; l < L; l++) any |= m[l] = todo[l] && value[l] < 1.0;
            if (any) {
                col_octave(s, olo, xx, zz, yy, ss, ymax, m, L, g);
                for (int l = 0; l < L; l++)
                    if (m[l]) mn[l] += g[l] / factor;
            }
        }
        if (ohi) {
            int any = 0;
            for (int l = 0; l < L; l++) any |= m[l] = todo[l] && value[l] > 0.0;
            if (any) {
                col_octave(s, ohi, xx, zz, yy, ss, ymax, m, L, g);
                for (int l = 0; l < L; l++)
                    if (m[l]) mx[l] += g[l] / factor;
            }
        }
        factor /= 2.0;
    }
    for (int l = 0; l < L; l++) {
        if (!todo[l]) continue;
        double a = mn[l] / 512.0, b = mx[l] / 512.0;
        double c = value[l] < 0.0 ? a : value[l] > 1.0 ? b : cf21_lerp(value[l], a, b);
        out[l] = c / 128.0;
    }
}

/* whether v[l] has the same bits at every lane of todo */
F121_TGT static int F121_SFX(uniform)(const double *v, const uint8_t *todo, int L)
{
    int f = -1;
    for (int l = 0; l < L; l++)
        if (todo[l]) {
            if (f < 0) f = l;
            else if (memcmp(&v[l], &v[f], sizeof(double)) != 0) return 0;
        }
    return 1;
}

/* ------------------------------------------------------------------ a column of corners
 * The corner ops (eval64's corner mode) over the corners of one column, lanes = corner y:
 * an op computes the lanes asked for that it has not computed for this column (need[l]),
 * so a choice computes each branch only at the corners that take it, as eval64 does. */
F121_TGT static const double *F121_SFX(cval)(f121 *s, int id, const uint8_t *need, int all);

#define TAB (s->c->w->tab)
F121_TGT static void F121_SFX(ccompute)(f121 *s, op121 *o, const uint8_t *todo, int all)
{
    const cf_node *n = &s->p->nodes[o->node];
    double *r = o->buf, x = s->colx, z = s->colz;
    const double *Y = s->coly;
    int L = s->clp;
    uint8_t m[F121_MAX_COLUMN];
    /* EACH: the lanes of todo only (noises, whose lanes cost, and ops that would change a value
     * computed before); ALL: every lane, the loops the vectoriser takes whole. ALL is for the
     * pure per-lane ops: a lane computed before for this column gets the same value again (its
     * inputs' lanes were computed for this column too, and are not changed within it), a lane
     * not asked for gets a value no one reads (a lane counts as computed only through have/full). */
#define EACH for (int l = 0; l < L; l++) if (todo[l])
#ifdef F121_WIDE
#define ALL for (int l = 0; l < L; l++)
#else /* scalar code: the lanes asked for only */
#define ALL EACH
#endif
    switch (o->kind) {
    case NK_M_FLAT_CACHE: {
        double v = flat_at(s, o->slot, o->node, (int)(((int64_t)(x) - (int64_t)s->cx * 16) >> 2), (int)(((int64_t)(z) - (int64_t)s->cz * 16) >> 2));
        ALL r[l] = v;
        return;
    }
    case NK_M_Y_CLAMPED_GRADIENT: ALL r[l] = cf21_ygrad(Y[l], n->d[0], n->d[1], n->d[2], n->d[3]); return;
    case NK_M_NOISE: {
        double *yy = s->work;
        for (int l = 0; l < L; l++) yy[l] = Y[l] * n->d[1];
        F121_SFX(col_normal)(s, TAB, o->rec, x * n->d[0], yy, z * n->d[0], todo, L, r, s->work + L);
        return;
    }
    case NK_M_SHIFTED_NOISE: {
        const double *sx = F121_SFX(cval)(s, o->in[0], todo, all), *sy = F121_SFX(cval)(s, o->in[1], todo, all), *sz = F121_SFX(cval)(s, o->in[2], todo, all);
        if (F121_SFX(uniform)(sx, todo, L) && F121_SFX(uniform)(sz, todo, L)) { /* the shifts are flat caches: one x and z a column */
            double *yy = s->work, xs = 0.0, zs = 0.0;
            for (int l = 0; l < L; l++) {
                if (todo[l]) xs = sx[l], zs = sz[l];
                yy[l] = Y[l] * n->d[1] + sy[l];
            }
            F121_SFX(col_normal)(s, TAB, o->rec, x * n->d[0] + xs, yy, z * n->d[0] + zs, todo, L, r, s->work + L);
            return;
        }
        EACH r[l] = cf21_normal(TAB, o->rec, x * n->d[0] + sx[l], Y[l] * n->d[1] + sy[l], z * n->d[0] + sz[l]);
        return;
    }
    case NK_M_SHIFT_A: {
        double v = cf21_normal(TAB, o->rec, x * 0.25, 0.0, z * 0.25) * 4.0;
        ALL r[l] = v;
        return;
    }
    case NK_M_SHIFT_B: {
        double v = cf21_normal(TAB, o->rec, z * 0.25, x * 0.25, 0.0) * 4.0;
        ALL r[l] = v;
        return;
    }
    case NK_M_SHIFT: {
        double *yy = s->work;
        for (int l = 0; l < L; l++) yy[l] = Y[l] * 0.25;
        F121_SFX(col_normal)(s, TAB, o->rec, x * 0.25, yy, z * 0.25, todo, L, r, s->work + L);
        EACH r[l] = r[l] * 4.0;
        return;
    }
    case NK_M_OLD_BLENDED_NOISE: F121_SFX(col_blended)(s, TAB, o->rec, n->d, x, Y, z, todo, L, r, s->work, s->wm); return;
    case NK_M_WEIRD_SCALED_SAMPLER: {
        const double *a = F121_SFX(cval)(s, o->in[0], todo, all);
#ifdef F121_WIDE /* the lanes' points, then the noise 8 lanes at a time */
        double *q = s->work, *xq = q + L, *yq = q + 2 * L, *zq = q + 3 * L, *nv = q + 4 * L;
        ALL {
            q[l] = cf21_rarity(n->i[0], a[l]);
            xq[l] = x / q[l], yq[l] = Y[l] / q[l], zq[l] = z / q[l];
        }
        F121_SFX(col_normal3)(TAB, o->rec, xq, yq, zq, todo, L, nv, q + 5 * L);
        EACH r[l] = q[l] * cf_fabs(nv[l]);
#else
        EACH {
            double q = cf21_rarity(n->i[0], a[l]);
            r[l] = q * cf_fabs(cf21_normal(TAB, o->rec, x / q, Y[l] / q, z / q));
        }
#endif
        return;
    }
    case NK_M_END_ISLANDS: { /* x and z only: once a column */
        double v = cf21_end_islands(TAB, o->rec, x, z);
        ALL r[l] = v;
        return;
    }
    case OP_POINT: EACH r[l] = eval_f64_mode(s->c, EV64_CORNER, o->node, x, Y[l], z); return;
    case NK_M_ADD: {
        const double *a = F121_SFX(cval)(s, o->in[0], todo, all), *b = F121_SFX(cval)(s, o->in[1], todo, all);
        ALL r[l] = a[l] + b[l];
        return;
    }
    case NK_M_MUL: {
        const double *a = F121_SFX(cval)(s, o->in[0], todo, all), *b = a; /* b: read only where a is not 0 */
        if (n->i[0]) { /* MulOrAdd: a literal side */
            b = F121_SFX(cval)(s, o->in[1], todo, all);
            ALL r[l] = a[l] * b[l];
            return;
        }
        int any = 0;
        for (int l = 0; l < L; l++) any |= m[l] = todo[l] && a[l] != 0.0;
        if (any) b = F121_SFX(cval)(s, o->in[1], m, 0);
        ALL r[l] = a[l] == 0.0 ? 0.0 : a[l] * b[l];
        return;
    }
    case NK_M_MIN: {
        const double *a = F121_SFX(cval)(s, o->in[0], todo, all), *b = F121_SFX(cval)(s, o->in[1], todo, all);
        ALL r[l] = lane_min(a[l], b[l]);
        return;
    }
    case NK_M_MAX: {
        const double *a = F121_SFX(cval)(s, o->in[0], todo, all), *b = F121_SFX(cval)(s, o->in[1], todo, all);
        ALL r[l] = lane_max(a[l], b[l]);
        return;
    }
    case NK_M_RANGE_CHOICE: {
        const double *v = F121_SFX(cval)(s, o->in[0], todo, all), *a = v, *b = v; /* a, b: read only where chosen */
        int na = 0, nb = 0;
        for (int l = 0; l < L; l++) na += m[l] = todo[l] && n->d[0] <= v[l] && v[l] < n->d[1];
        if (na) a = F121_SFX(cval)(s, o->in[1], m, na == s->clanes);
        for (int l = 0; l < L; l++) nb += m[l] = todo[l] && !(n->d[0] <= v[l] && v[l] < n->d[1]);
        if (nb) b = F121_SFX(cval)(s, o->in[2], m, nb == s->clanes);
        ALL r[l] = (n->d[0] <= v[l] && v[l] < n->d[1]) ? a[l] : b[l];
        return;
    }
    default:
        break;
    }
    const double *a = F121_SFX(cval)(s, o->in[0], todo, all);
    switch (o->kind) {
    case NK_M_ABS: ALL r[l] = cf_fabs(a[l]); break;
    case NK_M_SQUARE: ALL r[l] = a[l] * a[l]; break;
    case NK_M_CUBE: ALL r[l] = a[l] * a[l] * a[l]; break;
    case NK_M_HALF_NEGATIVE: ALL r[l] = a[l] > 0.0 ? a[l] : a[l] * 0.5; break;
    case NK_M_QUARTER_NEGATIVE: ALL r[l] = a[l] > 0.0 ? a[l] : a[l] * 0.25; break;
    case NK_M_INVERT: ALL r[l] = 1.0 / a[l]; break;
    case NK_M_SQUEEZE: ALL r[l] = lane_squeeze(a[l]); break;
    case NK_M_CLAMP: ALL r[l] = lane_clamp(a[l], n->d[0], n->d[1]); break;
    default: break;
    }
#undef EACH
#undef ALL
}
#undef TAB

/* op id at the lanes of need (all: every lane) that it has not computed for this column */
F121_TGT static const double *F121_SFX(cval)(f121 *s, int id, const uint8_t *need, int all)
{
    op121 *o = &s->ops[id];
    switch (o->kind) {
    case NK_M_CONSTANT: case NK_M_BLEND_ALPHA: case NK_M_BLEND_OFFSET: case NK_M_BEARDIFIER: return o->buf;
    default: break;
    }
    if (o->full == s->cols) return o->buf;
    if (o->part != s->cols) { /* nothing computed yet */
        F121_SFX(ccompute)(s, o, need, all);
        if (all) o->full = s->cols;
        else {
            o->part = s->cols;
            memcpy(o->have, need, (size_t)s->clp); /* the masks are 0 or 1 */
        }
        return o->buf;
    }
    uint8_t todo[F121_MAX_COLUMN];
    int any = 0, L = s->clp;
    for (int l = 0; l < L; l++) any |= todo[l] = need[l] & (o->have[l] ^ 1);
    if (any) {
        F121_SFX(ccompute)(s, o, todo, 0);
        for (int l = 0; l < L; l++)
            o->have[l] |= todo[l];
    }
    if (all) o->full = s->cols;
    return o->buf;
}

/* interpolated slot k's corners of the current column (ix, iz) */
F121_TGT static void F121_SFX(column_slot)(f121 *s, int k, int ix, int iz)
{
    int nx = s->ncxz + 1, ny = s->clanes;
    const double *v = F121_SFX(cval)(s, s->slot_op[k], s->ones, 1);
    size_t base = (size_t)k * (size_t)nx * (size_t)nx * (size_t)ny;
    for (int iy = 0; iy < ny; iy++) {
        size_t q = base + ((size_t)iy * (size_t)nx + (size_t)iz) * (size_t)nx + (size_t)ix;
        s->corner[q] = v[iy];
        s->cornst[q] = s->cst;
    }
}

