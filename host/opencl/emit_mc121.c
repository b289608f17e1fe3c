/* emit_mc121.c - the generated OpenCL of the Minecraft 1.18-1.21 dialect (double): the
 * flat caches' column stage, the corner stage of each interpolated node and the blocks,
 * one function per (node, mode) from the double emit table (emit_f64.c); block fills add
 * the aquifer and surface kernels (emit_blocks.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/emit_gen.h"
#include "kernels/cf_nodes.h"

/* ------------------------------------------------------------------ Minecraft 1.18-1.21
 * Three stages per batch, as 1.21's NoiseChunk: k_columns computes every
 * flat_cache's 5x5 quart values of each chunk (single points at y = 0), each
 * k_corners_<k> the cell corners of one interpolated node, k_blocks the blocks
 * (one work item per column, y upward) reading both. A node gets one function
 * per evaluation mode it is reached in: _p single point (markers transparent),
 * _c a cell corner (flat_cache reads the column stage, interpolated passes its
 * input), _b a block (interpolated lerps the corners: x, y, z for final_density,
 * else y, x, z). Buffers are doubles (the host sizes them in floats, twice). */
enum { M21_P = 1, M21_C = 2, M21_B = 4, M21_V = 8 }; /* _v: a block, interpolated lerps y, x, z (block fills' vein fields) */


char *emit_program_mc121(const cf_program *p, int fn, emit_layout *lay, cf_error *err)
{
    int n = p->nnodes, root = p->outputs[fn];
    int final = strcmp(p->output_names[fn], "router:final_density") == 0;
    uint8_t *need = calloc((size_t)n + 1, 1);
    int *fslot = malloc(sizeof(int) * ((size_t)n + 1)), *islot = malloc(sizeof(int) * ((size_t)n + 1));
    sb o = {0};
    if (!need || !fslot || !islot) goto nomem;
    memset(lay, 0, sizeof *lay);
    lay->h = p->height;
    need[root] = M21_B;
    /* a block fill (cf_program_compile_blocks): the aquifer's functions as NoiseChunk reads them at a
     * single point (_c), the barrier and the vein fields at the block (_v); host/cpu/aquifer121.c */
    int blocks = p->blocks && fn == 0 && final && p->noutputs >= CF_B21_COUNT; /* then the surface rule's noises */
    if (blocks && p->rules) /* the surface stage's noises, read at blocks (host/cpu/surface.c's blocks121_output) */
        for (int k = 0; k < p->rules->nrows + SN_COUNT; k++) {
            int out = k < SN_COUNT ? p->rules->fixed[k] : p->rules->rows[k - SN_COUNT].kind == SC_NOISE ? p->rules->rows[k - SN_COUNT].a[0] : -1;
            if (out >= 0 && out < p->noutputs) need[p->outputs[out]] |= M21_V;
        }
    if (blocks) {
        for (int k = CF_B21_FLOODEDNESS; k <= CF_B21_SURFACE; k++) need[p->outputs[k]] |= M21_C;
        need[p->outputs[CF_B21_BARRIER]] |= M21_V;
        for (int k = CF_B21_VEIN_TOGGLE; k <= CF_B21_VEIN_GAP; k++) need[p->outputs[k]] |= M21_V;
    }
    for (int i = n - 1; i >= 0; i--) {
        const cf_node *nd = &p->nodes[i];
        for (int m = M21_P; m <= M21_V; m <<= 1) {
            if (!(need[i] & m)) continue;
            if (nd->kind == NK_M_CACHE_ALL_IN_CELL && m != M21_P) {
                char ptr[320];
                err_set(err, CF_ERR_ARG, "%s#%s: cache_all_in_cell inside a chunk fill is not generated for OpenCL (use the CPU)",
                        nd->loc.file, ptr_text(nd->loc.ptr, ptr, sizeof ptr));
                goto fail;
            }
            for (int k = 0; k < nd->nin; k++) {
                int cm = m;
                if (nd->kind == NK_M_FLAT_CACHE && m != M21_P) cm = M21_P; /* the column stage and the fallback */
                if (nd->kind == NK_M_FIND_TOP_SURFACE && k == 0) cm = M21_P;
                need[nd->in[k]] |= (uint8_t)cm;
                if (nd->kind == NK_M_INTERPOLATED && (m == M21_B || m == M21_V)) need[nd->in[k]] |= M21_C; /* the corner stage */
            }
        }
    }
    int nflat = 0, ninterp = 0;
    int ncxz = 16 / p->cell_xz, ncy = p->height / p->cell_y, nx = ncxz + 1, ncorner = nx * nx * (ncy + 1);
    for (int i = 0; i < n; i++) {
        int k = p->nodes[i].kind;
        if (need[i] && emit_table_limit(&p->nodes[i], err) < 0) goto fail;
        fslot[i] = k == NK_M_FLAT_CACHE && (need[i] & (M21_C | M21_B | M21_V)) ? nflat++ : -1;
        islot[i] = k == NK_M_INTERPOLATED && (need[i] & (M21_B | M21_V)) ? ninterp++ : -1;
        if (islot[i] >= EMIT_MAX_INTERP) {
            err_set(err, CF_ERR_LIMIT, "%s: more than %d interpolated nodes in one fill (OpenCL)", p->settings_id, EMIT_MAX_INTERP);
            goto fail;
        }
        if (islot[i] >= 0) {
            lay->interp[islot[i]] = i, lay->ncx[islot[i]] = nx, lay->ncy[islot[i]] = ncy + 1;
            lay->ncorner[islot[i]] = ncorner;
            lay->corner_off[islot[i]] = (size_t)islot[i] * (size_t)ncorner;
        }
    }
    lay->ninterp = ninterp;
    lay->ncol = 2 * nflat;
    lay->corners = 2 * (size_t)ninterp * (size_t)ncorner;
    sbf(&o, "/* chunkfill: generated OpenCL C for %s, output %s (Minecraft 1.18-1.21, double, seed-independent) */\n",
        p->settings_id, p->output_names[fn]);
    sbf(&o, "%s\n%s\n%s\n", emit_header_math, emit_header_nodes, emit_header_mc121);
    sbf(&o, "#define CF21_ARGS __global const double *col, __global const double *cor, int c, int nch, int cx, int cz\n");
    sbf(&o, "#define CF21_PASS col, cor, c, nch, cx, cz\n");
    sbf(&o, "#define NFLAT %d\n#define NCORNER %d\n#define NX %d\n#define CW %d\n#define CH %d\n#define FCY %lld\n\n", nflat ? nflat : 1,
        ncorner, nx, p->cell_xz, p->cell_y, (long long)cf_floordiv(p->min_y, p->cell_y));
    static const char mc[4] = {'p', 'c', 'b', 'v'};
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        if (!need[i]) continue;
        if (nd->kind == NK_M_SPLINE) dtable(&o, "sp", i, nd->da, nd->nda);
        for (int mi = 0; mi < 4; mi++) {
            int m = 1 << mi;
            if (!(need[i] & m)) continue;
            src_comment(&o, nd, "");
            sbf(&o, "static double n%d_%c(CF_TAB t, CF21_ARGS, double x, double y, double z)\n{\n", i, mc[mi]);
            sbf(&o, "    (void)t, (void)col, (void)cor, (void)c, (void)nch, (void)cx, (void)cz, (void)x, (void)y, (void)z;\n");
            o.m21 = mc[mi];
            int in0 = nd->nin ? nd->in[0] : 0;
            if (nd->kind == NK_M_FLAT_CACHE && m != M21_P) {
                sbf(&o, "    long qx = cf_floordiv((long)x, 4) - (long)cx * 4, qz = cf_floordiv((long)z, 4) - (long)cz * 4;\n");
                sbf(&o, "    if (qx < 0 || qz < 0 || qx > 4 || qz > 4) return n%d_p(t, CF21_PASS, x, y, z);\n", in0);
                sbf(&o, "    return col[((size_t)c * NFLAT + %d) * 289 + (size_t)(qz * 5 + qx)];\n}\n", fslot[i]);
            } else if (nd->kind == NK_M_INTERPOLATED && (m == M21_B || m == M21_V)) {
                sbf(&o, "    long bx = (long)x, by = (long)y, bz = (long)z;\n");
                sbf(&o, "    long gx = cf_floordiv(bx, CW), gy = cf_floordiv(by, CH), gz = cf_floordiv(bz, CW);\n");
                sbf(&o, "    int ix = (int)(gx - cf_floordiv((long)cx * 16, CW)), iy = (int)(gy - FCY), iz = (int)(gz - cf_floordiv((long)cz * 16, CW));\n");
                sbf(&o, "    if (ix < 0 || iz < 0 || iy < 0 || ix >= NX - 1 || iz >= NX - 1 || iy >= %d) return n%d_%c(t, CF21_PASS, x, y, z);\n", ncy, in0,
                    mc[mi]);
                sbf(&o, "    double fx = (double)(bx - gx * CW) / (double)CW, fy = (double)(by - gy * CH) / (double)CH, fz = (double)(bz - gz * CW) / (double)CW;\n");
                sbf(&o, "    __global const double *k = cor + (size_t)%d * (size_t)NCORNER * (size_t)nch + (size_t)c * NCORNER;\n", islot[i]);
                sbf(&o, "#define CI(a, b, d) k[((size_t)(iy + (b)) * NX + (size_t)(iz + (d))) * NX + (size_t)(ix + (a))]\n");
                sbf(&o, "    double n000 = CI(0, 0, 0), n100 = CI(1, 0, 0), n010 = CI(0, 1, 0), n110 = CI(1, 1, 0);\n");
                sbf(&o, "    double n001 = CI(0, 0, 1), n101 = CI(1, 0, 1), n011 = CI(0, 1, 1), n111 = CI(1, 1, 1);\n#undef CI\n");
                if (final && m == M21_B) {
                    sbf(&o, "    double a = cf21_lerp(fy, cf21_lerp(fx, n000, n100), cf21_lerp(fx, n010, n110));\n");
                    sbf(&o, "    double b = cf21_lerp(fy, cf21_lerp(fx, n001, n101), cf21_lerp(fx, n011, n111));\n");
                } else {
                    sbf(&o, "    double a = cf21_lerp(fx, cf21_lerp(fy, n000, n010), cf21_lerp(fy, n100, n110));\n");
                    sbf(&o, "    double b = cf21_lerp(fx, cf21_lerp(fy, n001, n011), cf21_lerp(fy, n101, n111));\n");
                }
                sbf(&o, "    return cf21_lerp(fz, a, b);\n}\n");
            } else {
                emit64_node(&o, nd, i);
                sbf(&o, "}\n");
            }
        }
    }
    /* the column stage: flat caches */
    sbf(&o, "\n__kernel void k_columns(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global float *colf)\n{\n");
    sbf(&o, "    (void)y0;\n    int gid = get_global_id(0), c = gid / 289, q = gid %% 289;\n");
    sbf(&o, "    if (c >= nchunks || q >= 25) return;\n");
    sbf(&o, "    __global double *col = (__global double *)colf;\n    __global const double *cor = col;\n");
    sbf(&o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1], nch = nchunks;\n");
    sbf(&o, "    double x = (double)(((long)cx * 4 + q %% 5) * 4), z = (double)(((long)cz * 4 + q / 5) * 4);\n");
    sbf(&o, "    (void)t, (void)cor, (void)nch, (void)x, (void)z;\n");
    for (int i = 0; i < n; i++)
        if (fslot[i] >= 0)
            sbf(&o, "    col[((size_t)c * NFLAT + %d) * 289 + (size_t)q] = n%d_p(t, CF21_PASS, x, 0.0, z);\n", fslot[i], p->nodes[i].in[0]);
    sbf(&o, "}\n");
    /* the corner stage */
    for (int i = 0; i < n; i++) {
        if (islot[i] < 0) continue;
        sbf(&o, "\n__kernel void k_corners_%d(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *colf,"
                " __global float *corf)\n{\n", islot[i]);
        sbf(&o, "    (void)y0;\n    int gid = get_global_id(0), c = gid / NCORNER, i = gid %% NCORNER;\n    if (c >= nchunks) return;\n");
        sbf(&o, "    __global const double *col = (__global const double *)colf;\n    __global double *corw = (__global double *)corf;\n");
        sbf(&o, "    __global const double *cor = corw;\n    int cx = chunks[2 * c], cz = chunks[2 * c + 1], nch = nchunks;\n");
        sbf(&o, "    int ix = i %% NX, iz = (i / NX) %% NX, iy = i / (NX * NX);\n");
        sbf(&o, "    double x = (double)((cf_floordiv((long)cx * 16, CW) + ix) * CW), y = (double)((FCY + iy) * CH);\n");
        sbf(&o, "    double z = (double)((cf_floordiv((long)cz * 16, CW) + iz) * CW);\n");
        sbf(&o, "    corw[(size_t)%d * (size_t)NCORNER * (size_t)nch + (size_t)c * NCORNER + (size_t)i] = n%d_c(t, CF21_PASS, x, y, z);\n}\n",
            islot[i], p->nodes[i].in[0]);
    }
    /* the block stage */
    sbf(&o, "\n/* one work item per block column, y upward */\n");
    sbf(&o, "__kernel void k_blocks(CF_TAB t, __global const int *chunks, int nchunks, int y0, __global const float *colf,"
            " __global const float *corf, __global double *out)\n{\n");
    sbf(&o, "    int gid = get_global_id(0), c = gid / 256, q = gid %% 256;\n    if (c >= nchunks) return;\n");
    sbf(&o, "    __global const double *col = (__global const double *)colf, *cor = (__global const double *)corf;\n");
    sbf(&o, "    int cx = chunks[2 * c], cz = chunks[2 * c + 1], nch = nchunks;\n");
    sbf(&o, "    double x = (double)((long)cx * 16 + q %% 16), z = (double)((long)cz * 16 + q / 16);\n");
    sbf(&o, "    for (int yi = 0; yi < %d; yi++) {\n", p->height);
    sbf(&o, "        double v = n%d_b(t, CF21_PASS, x, (double)(y0 + yi), z);\n", root);
    sbf(&o, "        out[(((size_t)c * %d + yi) * 16 + q / 16) * 16 + q %% 16] = %s;\n    }\n}\n", p->height, final ? "v + 0.0" : "v");
    if (blocks && aquifer121_kernels(p, &o, lay) < 0) goto nomem;
    if (blocks && p->rules && surface_kernel(p, NULL, &o, lay, err) < 0) goto fail;
    free(need), free(fslot), free(islot);
    if (o.oom) {
        free(o.s);
        err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
        return NULL;
    }
    return o.s;
nomem:
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
fail:
    free(need), free(fslot), free(islot);
    free(o.s);
    return NULL;
}