/* program.c - the biome stage's OpenCL program (host/biome/device.c runs it): the climate
 * outputs of p on the point path and (26.3) the volume path, quantized and looked up in the
 * RTree table (kernels/cf_biome.h) like host/biome/query.c does. end: p's output 0 is the
 * End's erosion and the TheEndBiomeSource rule replaces the tree.
 *   k_biome_quarts(t, tree, q, n, out): out[i] = biome of quart (q[3i], q[3i+1], q[3i+2]),
 *     the point path, a cold search;
 *   k_biome_chunks(t, tree, chunks, n, qy0, ny, out): one work item per chunk, vanilla's
 *     fill order with the warm start (26.3: the volume path), out[((c*ny + y)*4 + z)*4 + x].
 * The dialect's part defines cf_bfield(t, k, path, x, y, z, vmin) (field k as the float the
 * source quantizes) and cf_bend(t, x, y, z) (the End's erosion as a double): 1.18-1.21 with
 * the double emit table, 26.3 with the float expressions (host/opencl/emit_gen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "biome/biome.h"
#include "opencl/emit_gen.h"

static void biome_kernels(sb *o, int end, int volume)
{
    sbf(o, "\n/* ---- biomes (kernels/cf_biome.h) */\n%s\n", emit_header_biome);
    sbf(o, "static int cf_bquart(CF_TAB t, __global const int *tree, int path, int qx, int qy, int qz, int vmin, int *warm)\n{\n");
    sbf(o, "    int x = (int)((uint)qx << 2), y = (int)((uint)qy << 2), z = (int)((uint)qz << 2);\n");
    if (end) {
        sbf(o, "    (void)tree; (void)path; (void)vmin; (void)warm;\n");
        sbf(o, "    int cx = x >> 4, cz = z >> 4;\n");
        sbf(o, "    if ((long)cx * cx + (long)cz * cz <= 4096) return CF_BE_THE_END;\n");
        sbf(o, "    return cf_b_end(cx, cz, cf_bend(t, (int)((uint)cx * 16u + 8u), y, (int)((uint)cz * 16u + 8u)));\n}\n");
    } else {
        sbf(o, "    long q[6];\n");
        sbf(o, "    for (int k = 0; k < 6; k++) q[k] = cf_b_quantize(cf_bfield(t, k, path, x, y, z, vmin));\n");
        sbf(o, "    long fit;\n    int leaf = cf_b_search(tree, q, *warm, &fit);\n    *warm = leaf;\n");
        sbf(o, "    return cf_b_leaf_value(tree, leaf);\n}\n");
    }
    sbf(o, "\n__kernel void k_biome_quarts(CF_TAB t, __global const int *tree, __global const int *q, int n, __global uchar *out)\n{\n");
    sbf(o, "    int i = get_global_id(0), warm = -1;\n    if (i >= n) return;\n");
    sbf(o, "    out[i] = (uchar)cf_bquart(t, tree, 0, q[3 * i], q[3 * i + 1], q[3 * i + 2], 0, &warm);\n}\n");
    sbf(o, "\n__kernel void k_biome_chunks(CF_TAB t, __global const int *tree, __global const int *chunks, int n, int qy0, int ny,"
           " __global uchar *out)\n{\n");
    sbf(o, "    int c = get_global_id(0), warm = -1, vmin = (int)((uint)qy0 << 2);\n    if (c >= n) return;\n");
    sbf(o, "    int qx0 = chunks[2 * c] * 4, qz0 = chunks[2 * c + 1] * 4;\n");
    sbf(o, "    for (int s = 0; s < ny; s += 4)\n        for (int x = 0; x < 4; x++)\n");
    sbf(o, "            for (int y = s; y < s + 4 && y < ny; y++)\n                for (int z = 0; z < 4; z++)\n");
    sbf(o, "                    out[(((size_t)c * ny + y) * 4 + z) * 4 + x] = (uchar)cf_bquart(t, tree, %d, qx0 + x, qy0 + y, qz0 + z, vmin, &warm);\n}\n",
        volume && !end);
}

/* 1.18-1.21 (double): the fields' point functions of the 1.21 generator, cast to float */
static char *program_mc121(const cf_program *p, int end, cf_error *err)
{
    int n = p->nnodes, nf = end ? 1 : 6;
    uint8_t *need = calloc((size_t)n + 1, 1);
    sb o = {0};
    if (!need || p->noutputs < nf) goto nomem;
    for (int k = 0; k < nf; k++) need[p->outputs[k]] = 1;
    for (int i = n - 1; i >= 0; i--)
        if (need[i])
            for (int k = 0; k < p->nodes[i].nin; k++) need[p->nodes[i].in[k]] = 1;
    sbf(&o, "/* chunkfill: generated OpenCL C for the biomes of %s (Minecraft 1.18-1.21, double, seed-independent) */\n",
        p->settings_id);
    sbf(&o, "%s\n%s\n%s\n", emit_header_math, emit_header_nodes, emit_header_mc121);
    /* the point functions take the chunk-fill arguments of the 1.21 generator; unused here */
    sbf(&o, "#define CF21_ARGS __global const double *col, __global const double *cor, int c, int nch, int cx, int cz\n");
    sbf(&o, "#define CF21_PASS col, cor, c, nch, cx, cz\n\n");
    for (int i = 0; i < n; i++) {
        const cf_node *nd = &p->nodes[i];
        if (!need[i]) continue;
        if (nd->kind == NK_M_SPLINE) dtable(&o, "sp", i, nd->da, nd->nda);
        src_comment(&o, nd, "");
        sbf(&o, "static double n%d_p(CF_TAB t, CF21_ARGS, double x, double y, double z)\n{\n", i);
        sbf(&o, "    (void)t, (void)col, (void)cor, (void)c, (void)nch, (void)cx, (void)cz, (void)x, (void)y, (void)z;\n");
        o.m21 = 'p'; /* markers (flat_cache, interpolated, ...) pass their input through on this path */
        emit64_node(&o, nd, i);
        sbf(&o, "}\n");
    }
    sbf(&o, "\n#define CF21_NONE 0, 0, 0, 0, 0, 0\n");
    sbf(&o, "static float cf_bfield(CF_TAB t, int k, int path, int x, int y, int z, int vmin)\n{\n    (void)path; (void)vmin;\n");
    for (int k = 0; k < nf; k++)
        sbf(&o, "    if (k == %d) return (float)n%d_p(t, CF21_NONE, (double)x, (double)y, (double)z);\n", k, p->outputs[k]);
    sbf(&o, "    return 0.0f;\n}\n");
    sbf(&o, "static double cf_bend(CF_TAB t, int x, int y, int z) { return n%d_p(t, CF21_NONE, (double)x, (double)y, (double)z); }\n",
        p->outputs[0]);
    biome_kernels(&o, end, 0);
    if (o.oom) goto nomem;
    free(need);
    return o.s;
nomem:
    free(o.s);
    free(need);
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
    return NULL;
}

char *biome_program(const cf_program *p, const cf_world *w, int end, cf_error *err)
{
    if (p->dialect == DIALECT_MC121) return program_mc121(p, end, err);
    gen g;
    int nf = end ? 1 : 6;
    sb ker = {0};
    if (gen_open(&g, p, w) < 0 || p->noutputs < nf) goto nomem;
    sbf(&ker, "/* chunkfill: generated OpenCL C for the biomes of %s (seed-independent) */\n", p->settings_id);
    gen_headers(&ker);
    gen_static_tables(&g, &ker);
    sb *o = &g.out;
    sbf(o, "\nstatic float cf_bfield(CF_TAB t, int k, int path, int x, int y, int z, int vmin)\n{\n");
    for (int k = 0; k < nf; k++) {
        gen_want(&g, MODE_POINT, p->outputs[k]);
        if (!end) gen_want(&g, MODE_VOLUME, p->outputs[k]);
        if (end)
            sbf(o, "    if (k == %d) return fP_%d(t, x, y, z, 0, 0);\n", k, p->outputs[k]);
        else
            sbf(o, "    if (k == %d) return path ? fV_%d(t, x, y, z, 1, vmin) : fP_%d(t, x, y, z, 0, 0);\n", k, p->outputs[k],
                p->outputs[k]);
    }
    sbf(o, "    (void)path; (void)vmin;\n    return 0.0f;\n}\n");
    sbf(o, "static double cf_bend(CF_TAB t, int x, int y, int z) { return (double)fP_%d(t, x, y, z, 0, 0); }\n", p->outputs[0]);
    biome_kernels(o, end, 1);
    if (gen_finish(&g, &ker) < 0) goto nomem;
    gen_close(&g);
    return ker.s;
nomem:
    free(ker.s);
    gen_close(&g);
    err_set(err, CF_ERR_NOMEM, "out of memory while generating OpenCL source");
    return NULL;
}
