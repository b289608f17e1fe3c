/* emit_blocks.c - the block fills' kernels of the generated OpenCL: the aquifer
 * (kernels/cf_aquifer.h; 26.3 floats and 1.18-1.21 doubles with the ore veins) and the
 * surface stage (kernels/cf_surface.h, both dialects), after the noise stage's kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/emit_gen.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"

/* Block fills (kernels/cf_aquifer.h): k_aq_surface (the surface-level grid of
 * each chunk: the box on the volume path, the rest on the point path), k_aq_cells
 * (cell centres and fluid statuses), k_aq_blocks (per block column, from the
 * densities k_blocks wrote). Everything a CPU fill computes lazily is computed
 * here for every cell and column: the values are the same, only more are made. */
int aquifer_kernels(gen *g, sb *o, emit_layout *lay)
{
    const cf_program *p = g->p;
    static const char *const fluid_names[] = {"minecraft:air", "minecraft:water", "minecraft:lava"};
    int fluid = CF_BK_FLUID;
    for (int k = 0; k < 3; k++)
        if (p->default_fluid && strcmp(p->default_fluid, fluid_names[k]) == 0) fluid = CF_BK_AIR + k;
    int aq = p->has_aquifers;
    for (int k = 0; k < 6; k++) aq &= p->aq_out[k] >= 0;
    lay->blocks = 1;
    lay->aquifers = aq;
    lay->ncell = 9 * cf_aq_ny(p->min_y, p->height);
    int fnode[6] = {0};
    sbf(o, "\n/* ---- blocks of the noise stage: the aquifer (kernels/cf_aquifer.h) */\n");
    sbf(o, "#define CF_AQ_CTX CF_TAB t, __global const int *sgrid, __global const cf_aq_fluid *st, int cx, int cz\n");
    sbf(o, "#define CF_AQ_ARG t, sgrid, st, cx, cz\n");
    sbf(o, "#define CF_AQ_SEA (%d)\n#define CF_AQ_FLUID (%d)\n", p->sea_level, fluid);
    sbf(o, "#define CF_AQ_SURFACE(x, z) sgrid[((int)cf_floordiv((z), 4) - (4 * cz - 8)) * CF_AQ_SQX"
           " + ((int)cf_floordiv((x), 4) - (4 * cx - 16))]\n");
    sbf(o, "#define CF_AQ_STATUS(i) st[(i)]\n#define CF_AQ_CENTRES __global const int *\n");
    if (aq) {
        for (int k = 0; k < 6; k++) {
            fnode[k] = p->outputs[p->aq_out[k]];
            gen_want(g, MODE_POINT, fnode[k]);
        }
        gen_want(g, MODE_VOLUME, fnode[CF_AQF_SURFACE]);
        sbf(o, "#define CF_AQ_FN(k, x, y, z) cf_aq_fn(t, (k), (x), (y), (z))\n");
        sbf(o, "static float cf_aq_fn(CF_TAB t, int k, int x, int y, int z)\n{\n");
        for (int k = 0; k < 6; k++)
            sbf(o, "    if (k == %d) return fP_%d(t, x, y, z, 0, 0); /* aquifers/%s */\n", k, fnode[k], cf_aquifer_fields[k]);
        sbf(o, "    return 0.0f;\n}\n");
    } else {
        sbf(o, "#define CF_AQ_FN(k, x, y, z) 0.0f\n");
    }
    sbf(o, "%s\n", emit_header_aquifer);
    if (aq) {
        sbf(o, "\n__kernel void k_aq_surface(CF_TAB t, __global const int *chunks, int nchunks, __global int *surf)\n{\n");
        sbf(o, "    int gid = get_global_id(0), c = gid / CF_AQ_SQ, q = gid %% CF_AQ_SQ;\n");
        sbf(o, "    if (c >= nchunks) return;\n");
        sbf(o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1];\n");
        sbf(o, "    int qx = 4 * cx - 16 + q %% CF_AQ_SQX, qz = 4 * cz - 8 + q / CF_AQ_SQX;\n");
        sbf(o, "    int box = qx >= 4 * cx - 4 && qx <= 4 * cx + 6 && qz >= 4 * cz - 4 && qz <= 4 * cz + 6;\n");
        sbf(o, "    float v = box ? fV_%d(t, qx * 4, 0, qz * 4, 1, 0) : fP_%d(t, qx * 4, 0, qz * 4, 0, 0);\n",
            fnode[CF_AQF_SURFACE], fnode[CF_AQF_SURFACE]);
        sbf(o, "    surf[(size_t)c * CF_AQ_SQ + q] = cf_jfloor((double)v);\n}\n");
        sbf(o, "\n__kernel void k_aq_cells(CF_TAB t, __global const int *chunks, int nchunks, ulong lo, ulong hi,"
               " __global const int *surf, __global int *cen, __global cf_aq_fluid *status, __global int *skip)\n{\n");
        sbf(o, "    int gid = get_global_id(0), c = gid / %d, q = gid %% %d;\n", lay->ncell, lay->ncell);
        sbf(o, "    if (c >= nchunks) return;\n");
        sbf(o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1];\n");
        sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ;\n");
        sbf(o, "    __global const cf_aq_fluid *st = status; (void)st;\n");
        sbf(o, "    int gx = cx - 1 + q %% 3, gz = cz - 1 + q / 3 %% 3, gy = %d + q / 9;\n", cf_aq_gy0(p->min_y));
        sbf(o, "    int cc[3];\n");
        sbf(o, "    cf_aq_centre(lo, hi, %d, gx, gy, gz, cc);\n", p->legacy_random);
        sbf(o, "    __global int *ce = cen + ((size_t)c * %d + q) * 3;\n", lay->ncell);
        sbf(o, "    ce[0] = cc[0], ce[1] = cc[1], ce[2] = cc[2];\n");
        sbf(o, "    status[(size_t)c * %d + q] = cf_aq_compute_fluid(CF_AQ_ARG, cc[0], cc[1], cc[2]);\n", lay->ncell);
        sbf(o, "    if (q == 0) {\n");
        sbf(o, "        int mx = -2147483647 - 1;\n");
        sbf(o, "        for (int i = 0; i < CF_AQ_BOX * CF_AQ_BOX; i++) {\n");
        sbf(o, "            int v = sgrid[(4 + i / CF_AQ_BOX) * CF_AQ_SQX + 12 + i %% CF_AQ_BOX];\n");
        sbf(o, "            mx = v > mx ? v : mx;\n        }\n");
        sbf(o, "        skip[c] = cf_aq_skip(mx);\n    }\n}\n");
    }
    sbf(o, "\n__kernel void k_aq_blocks(CF_TAB t, __global const int *chunks, int nchunks, __global const float *dens,"
           " __global const int *surf, __global const int *cen, __global const cf_aq_fluid *status,"
           " __global const int *skip, __global uchar *out)\n{\n");
    sbf(o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(o, "    if (c >= nchunks) return;\n");
    sbf(o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1], x = cx * 16 + q %% 16, z = cz * 16 + q / 16;\n");
    sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ; (void)sgrid;\n");
    sbf(o, "    __global const cf_aq_fluid *st = status + (size_t)c * %d;\n", lay->ncell);
    sbf(o, "    __global const int *ce = cen + (size_t)c * %d * 3;\n", lay->ncell);
    sbf(o, "    int sk = %s;\n", aq ? "skip[c]" : "0");
    sbf(o, "    for (int yi = %d; yi >= 0; yi--) {\n", p->height - 1);
    sbf(o, "        size_t i = (((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16;\n", p->height);
    sbf(o, "        out[i] = (uchar)cf_aq_block(CF_AQ_ARG, ce, cx, cz, %d, sk, %d, x, %d + yi, z, dens[i]);\n",
        cf_aq_gy0(p->min_y), aq, p->min_y);
    sbf(o, "    }\n}\n");
    return o->oom ? -1 : 0;
}

/* Block fills of the 1.18-1.21 dialect (host/cpu/aquifer121.c on the device): the same three
 * kernels as aquifer_kernels with double values, the chunk's column and corner buffers (the
 * aquifer's functions read flat caches, the vein fields corners), then the ore veins in
 * k_aq_blocks. Extra arguments after the 26.3 ones: colf, corf (and ore lo, hi for k_aq_blocks). */
int aquifer121_kernels(const cf_program *p, sb *o, emit_layout *lay)
{
    static const char *const fluid_names[] = {"minecraft:air", "minecraft:water", "minecraft:lava"};
    int fluid = CF_BK_FLUID;
    for (int k = 0; k < 3; k++)
        if (p->default_fluid && strcmp(p->default_fluid, fluid_names[k]) == 0) fluid = CF_BK_AIR + k;
    const int *f = p->outputs;
    int aq = p->has_aquifers;
    lay->blocks = 1;
    lay->aquifers = aq;
    lay->ncell = 9 * cf_aq_ny(p->min_y, p->height);
    sbf(o, "\n/* ---- blocks of the 1.18-1.21 noise stage: the aquifer in double, the ore veins (kernels/cf_aquifer.h) */\n");
    sbf(o, "#define CF_AQ_CTX CF_TAB t, __global const double *col, __global const double *cor, int c, int nch, int acx, int acz,"
           " __global const int *sgrid, __global const cf_aq_fluid *st\n");
    sbf(o, "#define CF_AQ_ARG t, col, cor, c, nch, acx, acz, sgrid, st\n#define A21 col, cor, c, nch, acx, acz\n");
    sbf(o, "#define CF_AQ_REAL double\n#define CF_AQ_SEA (%d)\n#define CF_AQ_FLUID (%d)\n", p->sea_level, fluid);
    sbf(o, "#define CF_AQ_SURFACE(x, z) sgrid[((int)cf_floordiv((z), 4) - (4 * acz - 8)) * CF_AQ_SQX"
           " + ((int)cf_floordiv((x), 4) - (4 * acx - 16))]\n");
    sbf(o, "#define CF_AQ_STATUS(i) st[(i)]\n#define CF_AQ_CENTRES __global const int *\n");
    sbf(o, "#define CF_AQ_FN(k, x, y, z) cf_aq_fn(t, A21, (k), (x), (y), (z))\n");
    sbf(o, "#define CF_AQ_EXCLUDED(x, y, z) (n%d_c(t, A21, (double)(x), (double)(y), (double)(z)) < (double)-0.225f"
           " && n%d_c(t, A21, (double)(x), (double)(y), (double)(z)) > (double)0.9f)\n", f[CF_B21_EROSION], f[CF_B21_DEPTH]);
    sbf(o, "static double cf_aq_fn(CF_TAB t, __global const double *col, __global const double *cor, int c, int nch, int acx,"
           " int acz, int k, int x, int y, int z)\n{\n");
    sbf(o, "    double bx = (double)x, by = (double)y, bz = (double)z;\n");
    sbf(o, "    if (k == %d) return n%d_v(t, A21, bx, by, bz);\n", CF_AQF_BARRIER, f[CF_B21_BARRIER]);
    sbf(o, "    if (k == %d) return n%d_c(t, A21, bx, by, bz);\n", CF_AQF_FLOODEDNESS, f[CF_B21_FLOODEDNESS]);
    sbf(o, "    if (k == %d) return n%d_c(t, A21, bx, by, bz);\n", CF_AQF_SPREAD, f[CF_B21_SPREAD]);
    sbf(o, "    if (k == %d) return n%d_c(t, A21, bx, by, bz);\n", CF_AQF_LAVA, f[CF_B21_LAVA]);
    sbf(o, "    return 0.0;\n}\n");
    sbf(o, "%s\n", emit_header_aquifer);
    const char *args = "__global const float *colf, __global const float *corf";
    const char *bufs = "    __global const double *col = (__global const double *)colf, *cor = (__global const double *)corf;\n";
    if (aq) {
        sbf(o, "\n__kernel void k_aq_surface(CF_TAB t, __global const int *chunks, int nchunks, __global int *surf, %s)\n{\n", args);
        sbf(o, "    int gid = get_global_id(0), c = gid / CF_AQ_SQ, q = gid %% CF_AQ_SQ;\n");
        sbf(o, "    if (c >= nchunks) return;\n%s", bufs);
        sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks;\n");
        sbf(o, "    int qx = 4 * acx - 16 + q %% CF_AQ_SQX, qz = 4 * acz - 8 + q / CF_AQ_SQX;\n");
        sbf(o, "    surf[(size_t)c * CF_AQ_SQ + q] = cf_jfloor(n%d_c(t, A21, (double)(qx * 4), 0.0, (double)(qz * 4)));\n}\n",
            f[CF_B21_SURFACE]);
        sbf(o, "\n__kernel void k_aq_cells(CF_TAB t, __global const int *chunks, int nchunks, ulong lo, ulong hi,"
               " __global const int *surf, __global int *cen, __global cf_aq_fluid *status, __global int *skip, %s)\n{\n", args);
        sbf(o, "    int gid = get_global_id(0), c = gid / %d, q = gid %% %d;\n", lay->ncell, lay->ncell);
        sbf(o, "    if (c >= nchunks) return;\n%s", bufs);
        sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks;\n");
        sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ;\n");
        sbf(o, "    __global const cf_aq_fluid *st = status; (void)st;\n");
        sbf(o, "    int gx = acx - 1 + q %% 3, gz = acz - 1 + q / 3 %% 3, gy = %d + q / 9;\n", cf_aq_gy0(p->min_y));
        sbf(o, "    int cc[3];\n    cf_aq_centre(lo, hi, %d, gx, gy, gz, cc);\n", p->legacy_random);
        sbf(o, "    __global int *ce = cen + ((size_t)c * %d + q) * 3;\n", lay->ncell);
        sbf(o, "    ce[0] = cc[0], ce[1] = cc[1], ce[2] = cc[2];\n");
        sbf(o, "    status[(size_t)c * %d + q] = cf_aq_compute_fluid(CF_AQ_ARG, cc[0], cc[1], cc[2]);\n", lay->ncell);
        sbf(o, "    if (q == 0) {\n        int mx = -2147483647 - 1;\n");
        sbf(o, "        for (int i = 0; i < CF_AQ_BOX * CF_AQ_BOX; i++) {\n");
        sbf(o, "            int v = sgrid[(4 + i / CF_AQ_BOX) * CF_AQ_SQX + 12 + i %% CF_AQ_BOX];\n");
        sbf(o, "            mx = v > mx ? v : mx;\n        }\n        skip[c] = cf_aq_skip(mx);\n    }\n}\n");
    }
    sbf(o, "\n__kernel void k_aq_blocks(CF_TAB t, __global const int *chunks, int nchunks, __global const float *densf,"
           " __global const int *surf, __global const int *cen, __global const cf_aq_fluid *status,"
           " __global const int *skip, __global uchar *out, %s, ulong olo, ulong ohi)\n{\n", args);
    sbf(o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n");
    sbf(o, "    if (c >= nchunks) return;\n%s", bufs);
    sbf(o, "    __global const double *dens = (__global const double *)densf;\n");
    sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks, x = acx * 16 + q %% 16, z = acz * 16 + q / 16;\n");
    sbf(o, "    __global const int *sgrid = surf + (size_t)c * CF_AQ_SQ; (void)sgrid;\n");
    sbf(o, "    __global const cf_aq_fluid *st = status + (size_t)c * %d;\n", lay->ncell);
    sbf(o, "    __global const int *ce = cen + (size_t)c * %d * 3;\n", lay->ncell);
    sbf(o, "    int sk = %s;\n    (void)olo, (void)ohi;\n", aq ? "skip[c]" : "0");
    sbf(o, "    for (int yi = %d; yi >= 0; yi--) {\n", p->height - 1);
    sbf(o, "        size_t i = (((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16;\n", p->height);
    sbf(o, "        int y = %d + yi;\n", p->min_y);
    sbf(o, "        int k = cf_aq_block(CF_AQ_ARG, ce, acx, acz, %d, sk, %d, x, y, z, dens[i]);\n", cf_aq_gy0(p->min_y), aq);
    if (p->ore_veins) { /* OreVeinifier where the aquifer returned null (aquifer121.c b21_vein) */
        sbf(o, "        if (k == CF_BK_SOLID && y >= -60 && y <= 50) {\n");
        sbf(o, "            double bx = (double)x, by = (double)y, bz = (double)z;\n");
        sbf(o, "            double tog = n%d_v(t, A21, bx, by, bz);\n", f[CF_B21_VEIN_TOGGLE]);
        sbf(o, "            cf_aq_rnd r;\n            int fl = cf_aq_vein_start(olo, ohi, %d, x, y, z, tog, &r);\n", p->legacy_random);
        sbf(o, "            if (fl >= 0 && !(n%d_v(t, A21, bx, by, bz) >= 0.0))\n", f[CF_B21_VEIN_RIDGED]);
        sbf(o, "                k = cf_aq_vein_draw(tog, &r, %d) && n%d_v(t, A21, bx, by, bz) > (double)-0.3f ? cf_aq_vein_ore(fl, &r, %d) : fl;\n",
            p->legacy_random, f[CF_B21_VEIN_GAP], p->legacy_random);
        sbf(o, "        }\n");
    }
    sbf(o, "        out[i] = (uchar)k;\n    }\n}\n");
    return o->oom ? -1 : 0;
}

/* the nesting of sequences below rule row i (the walk's stack depth); memo: -1 unknown */
static int rule_depth(const cf_rules *r, int i, int *memo)
{
    if (i < 0 || i >= r->nrows) return 0;
    if (memo[i] >= 0) return memo[i];
    const cf_rrow *w = &r->rows[i];
    int d = 0;
    if (w->kind == SR_CONDITION) d = rule_depth(r, w->a[1], memo);
    if (w->kind == SR_SEQUENCE)
        for (int k = 0; k < w->n; k++) {
            int e = 1 + rule_depth(r, w->kids[k], memo);
            d = e > d ? e : d;
        }
    return memo[i] = d;
}

/* the program outputs the rules read as noises (fixed noises, noise_threshold), each once: *n of them */
static int *rule_outputs(const cf_program *p, int *n)
{
    const cf_rules *r = p->rules;
    int *out = malloc(sizeof(int) * ((size_t)r->nrows + SN_COUNT + 1));
    uint8_t *seen = calloc((size_t)p->noutputs + 1, 1);
    *n = 0;
    if (!out || !seen) {
        free(out), free(seen);
        return NULL;
    }
    for (int k = 0; k < r->nrows + SN_COUNT; k++) {
        int o = k < SN_COUNT ? r->fixed[k] : r->rows[k - SN_COUNT].kind == SC_NOISE ? r->rows[k - SN_COUNT].a[0] : -1;
        if (o < 0 || o >= p->noutputs || seen[o]) continue;
        seen[o] = 1;
        out[(*n)++] = o;
    }
    free(seen);
    return out;
}

/* The surface stage of a block fill (kernels/cf_surface.h), both dialects: the rule table as
 * __constant arrays (seed-independent) and k_surface, one work item per chunk, which rewrites
 * the noise stage's blocks in place. 1.21 reads its noises through the chunk's NoiseChunk
 * functions (_v: the block context, as aquifer121.c's blocks121_output) and the preliminary
 * surface level through the aquifer's corner functions; 26.3 (g given) reads f32 point values
 * (fS_), chunk_surface_level and the ore veins' density and richness on the volume path (fV_,
 * vmin of the volume: 0 for chunk_surface_level's 16 x 1 x 16 volume, min_y for the chunk). */
int surface_kernel(const cf_program *p, gen *g, sb *o, emit_layout *lay, cf_error *err)
{
    const cf_rules *r = p->rules;
    if (r->nblocks + 2 > 257 || (g != NULL) != (r->f32 != 0)) {
        err_set(err, CF_ERR_ARG, "%s: this surface stage is not generated for OpenCL", p->settings_id);
        return -1;
    }
    int *memo = malloc(sizeof(int) * ((size_t)r->nrows + 1)), depth = 0, nout = 0;
    int *outs = rule_outputs(p, &nout);
    if (!memo || !outs) {
        free(memo), free(outs);
        err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
        return -1;
    }
    for (int i = 0; i < r->nrows; i++) memo[i] = -1;
    for (int i = 0; i < r->nrows; i++) {
        int d = rule_depth(r, i, memo);
        depth = d > depth ? d : depth;
    }
    free(memo);
    lay->surface = 1;
    sbf(o, "\n/* ---- the surface stage (kernels/cf_surface.h): %d rule rows */\n", r->nrows);
    sbf(o, "#define CF_SF_F32 %d\n#define CF_SF_MINY (%d)\n#define CF_SF_HEIGHT %d\n#define CF_SF_SEA (%d)\n#define CF_SF_LEGACY %d\n",
        r->f32 != 0, p->min_y, p->height, p->sea_level, p->legacy_random);
    sbf(o, "#define CF_SF_ROOT %d\n#define CF_SF_NOUT %d\n#define CF_SF_STACK %d\n#define CF_SF_NBLOCKS %d\n", r->root, p->noutputs,
        depth + 1, r->nblocks);
    size_t nk = 0;
    sbf(o, "__constant int sf_rows[%d] = {", r->nrows * 9);
    for (int i = 0; i < r->nrows; i++) {
        const cf_rrow *w = &r->rows[i];
        sbf(o, "%s\n    %d, %d, %d, %d, %d, %d, %d, %d, %zu", i ? "," : "", w->kind, w->a[0], w->a[1], w->a[2], w->a[3], w->a[4], w->a[5],
            w->kind == SR_SEQUENCE || w->kind == SC_BIOME ? w->n : 0, nk);
        if (w->kind == SR_SEQUENCE || w->kind == SC_BIOME) nk += (size_t)w->n;
    }
    sbf(o, "};\n__constant double sf_d[%d] = {", 2 * r->nrows);
    for (int i = 0; i < r->nrows; i++) sbf(o, "%s", i ? ", " : ""), dlit(o, r->rows[i].d[0]), sbf(o, ", "), dlit(o, r->rows[i].d[1]);
    sbf(o, "};\n__constant float sf_f[%d] = {", r->nrows);
    for (int i = 0; i < r->nrows; i++) sbf(o, "%s", i ? ", " : ""), flit(o, r->rows[i].f);
    sbf(o, "};\n__constant int sf_kids[%zu] = {", nk ? nk : 1);
    int first = 1;
    for (int i = 0; i < r->nrows; i++) {
        const cf_rrow *w = &r->rows[i];
        if (w->kind != SR_SEQUENCE && w->kind != SC_BIOME) continue;
        for (int k = 0; k < w->n; k++) sbf(o, "%s%d", first ? "" : ", ", w->kids[k]), first = 0;
    }
    if (first) sbf(o, "0");
    sbf(o, "};\n__constant int sf_band[7] = {");
    for (int i = 0; i < 7; i++) sbf(o, "%s%d", i ? ", " : "", r->band_block[i] < 0 ? 0 : r->band_block[i]);
    sbf(o, "};\n__constant int sf_fixed[%d] = {", SN_COUNT);
    for (int i = 0; i < SN_COUNT; i++) sbf(o, "%s%d", i ? ", " : "", r->fixed[i]);
    sbf(o, "};\n");
    if (!g) {
        sbf(o, "#define CF_SF_DCTX CF_TAB t, __global const double *col, __global const double *cor, int c, int nch, int acx, int acz\n");
        sbf(o, "#define CF_SF_DARG t, col, cor, c, nch, acx, acz\n");
        sbf(o, "static double cf_sf_out(CF_SF_DCTX, int out, double x, double y, double z)\n{\n    switch (out) {\n");
        for (int k = 0; k < nout; k++) sbf(o, "    case %d: return n%d_v(t, A21, x, y, z);\n", outs[k], p->outputs[outs[k]]);
        sbf(o, "    default: return 0.0;\n    }\n}\n");
        sbf(o, "#define CF_SF_LEVEL(x, z) cf_jfloor(n%d_c(t, A21, (double)(cf_floordiv((x), 4) * 4), 0.0, (double)(cf_floordiv((z), 4) * 4)))\n",
            p->outputs[CF_B21_SURFACE]);
        sbf(o, "#define CF_SF_CSL(x, z) 0.0f\n#define CF_SF_VOL(out, x, y, z) 0.0f\n");
    } else {
        /* point values of the rule noises (the CPU's eval_point_f32), volume values of the veins' inputs */
        sbf(o, "#define CF_SF_DCTX CF_TAB t\n#define CF_SF_DARG t\n");
        sbf(o, "static double cf_sf_out(CF_SF_DCTX, int out, double x, double y, double z)\n{\n    int ix = (int)x, iy = (int)y, iz = (int)z;\n    switch (out) {\n");
        for (int k = 0; k < nout; k++) {
            gen_want(g, MODE_SAMPLE, p->outputs[outs[k]]);
            sbf(o, "    case %d: return (double)fS_%d(t, ix, iy, iz, 0, 0);\n", outs[k], p->outputs[outs[k]]);
        }
        /* ore veins' filler_gap on the point path too */
        for (int i = 0; i < r->nrows; i++)
            if (r->rows[i].kind == SR_ORE_VEIN) {
                int gap = r->rows[i].a[5], dup = 0;
                for (int k = 0; k < nout; k++) dup |= outs[k] == gap;
                for (int j = 0; j < i; j++) dup |= r->rows[j].kind == SR_ORE_VEIN && r->rows[j].a[5] == gap;
                if (dup) continue;
                gen_want(g, MODE_SAMPLE, p->outputs[gap]);
                sbf(o, "    case %d: return (double)fS_%d(t, ix, iy, iz, 0, 0);\n", gap, p->outputs[gap]);
            }
        sbf(o, "    default: return 0.0;\n    }\n}\n");
        sbf(o, "static float cf_sf_vol(CF_SF_DCTX, int out, int x, int y, int z)\n{\n    switch (out) {\n");
        uint8_t *seen = calloc((size_t)p->noutputs + 1, 1);
        if (!seen) {
            free(outs);
            err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
            return -1;
        }
        for (int i = 0; i < r->nrows; i++)
            for (int k = 3; k <= 4 && r->rows[i].kind == SR_ORE_VEIN; k++) {
                int v = r->rows[i].a[k];
                if (v < 0 || v >= p->noutputs || seen[v]) continue;
                seen[v] = 1;
                gen_want(g, MODE_VOLUME, p->outputs[v]);
                sbf(o, "    case %d: return fV_%d(t, x, y, z, 1, %d);\n", v, p->outputs[v], p->min_y);
            }
        free(seen);
        sbf(o, "    default: return 0.0f;\n    }\n}\n");
        gen_want(g, MODE_VOLUME, p->outputs[CF_B263_SURFACE]);
        sbf(o, "#define CF_SF_LEVEL(x, z) ((void)(x), (void)(z), 0)\n");
        sbf(o, "#define CF_SF_CSL(x, z) fV_%d(t, (x), 0, (z), 1, 0)\n", p->outputs[CF_B263_SURFACE]);
        sbf(o, "#define CF_SF_VOL(out, x, y, z) cf_sf_vol(t, (out), (x), (y), (z))\n");
    }
    free(outs);
    sbf(o, "#define CF_SF_OUT(out, x, y, z) cf_sf_out(CF_SF_DARG, (out), (x), (y), (z))\n");
    sbf(o, "#define CF_SF_CTX CF_SF_DCTX, cf_sf *s\n#define CF_SF_ARG CF_SF_DARG, s\n");
    sbf(o, "%s\n%s\n%s\n", emit_header_biome, emit_header_rules, emit_header_surface);
    sbf(o, "\n__kernel void k_surface(CF_TAB t, __global const int *chunks, int nchunks, __global const float *colf,"
           " __global const float *corf, __global uchar *bout, __global const uchar *sgrid, __global const int *sints,"
           " __global const ulong *sgrad, __global const uchar *spsn, ulong rlo, ulong rhi, long zseed, ulong olo, ulong ohi)\n{\n");
    sbf(o, "    int c = get_global_id(0);\n    if (c >= nchunks) return;\n");
    if (!g) {
        sbf(o, "    __global const double *col = (__global const double *)colf, *cor = (__global const double *)corf;\n");
        sbf(o, "    int acx = chunks[2 * c], acz = chunks[2 * c + 1], nch = nchunks;\n");
    } else {
        sbf(o, "    (void)colf, (void)corf;\n    int acx = chunks[2 * c], acz = chunks[2 * c + 1];\n");
    }
    sbf(o, "    cf_sf s_, *s = &s_;\n    s->cx = acx, s->cz = acz, s->zseed = zseed, s->rlo = rlo, s->rhi = rhi, s->olo = olo, s->ohi = ohi;\n");
    sbf(o, "    s->blk = bout + (size_t)c * %zu;\n", (size_t)p->height * 256);
    sbf(o, "    s->bgrid = sgrid + (size_t)c * %zu;\n", (size_t)144 * (size_t)(p->height / 4));
    sbf(o, "    s->ints = sints, s->grad = sgrad, s->psn = spsn;\n");
    sbf(o, "    cf_sf_chunk(CF_SF_ARG);\n}\n");
    return o->oom ? (err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source"), -1) : 0;
}