/* api.c - the public API (include/chunkfill.h): the pipeline as one function.
 *
 * cf_program_compile = parse_program -> passes_run; cf_world_new = seed_bind;
 * cf_sample = the CPU reference's point path. The program owns its arena and
 * node array; a world owns its seed tables.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "frontend/frontend.h"
#include "opencl/emit.h"
#include "opencl/device.h"
#include "kernels/cf_nodes.h"
#include "kernels/cf_aquifer.h"
#include "kernels/cf_surface.h"
#include "image/image.h"
#include "biome/biome.h"
#include "api/map.h"

/* constant folding evaluates with the CPU reference's point path (no seed: folded
 * nodes read no tables) */
static float fold_eval(const cf_program *p, int id)
{
    cf_world w;
    memset(&w, 0, sizeof w);
    w.prog = p;
    return eval_point_f32(&w, id, 0, 0, 0);
}

cf_status cf_program_compile(cf_program **out, cf_pack *pack, const char *settings_id,
                             const char *const *functions, int nfunctions, cf_error *err)
{
    *out = NULL;
    if (!pack || !settings_id || nfunctions < 0 || (nfunctions > 0 && !functions))
        return err_set(err, CF_ERR_ARG, "cf_program_compile: bad arguments");
    cf_program *p = calloc(1, sizeof *p);
    if (!p) return err_set(err, CF_ERR_NOMEM, "out of memory");
    cf_error local = {0};
    cf_error *e = err ? err : &local;
    p->fe = frontend_find(pack, settings_id, functions, nfunctions);
    cf_status st = p->fe->parse(p, pack, settings_id, functions, nfunctions, e);
    if (st == CF_OK) st = passes_run(p, fold_eval, e);
    if (st == CF_OK) st = plan_build(p, e);
    if (st != CF_OK) {
        cf_program_free(p);
        return st;
    }
    *out = p;
    return CF_OK;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* the slots surface_palette would fill without its cap (the noise stage's, its reserved ones
 * that no fill writes, then each distinct block of the rule and snow_block, packed_ice not among
 * them) and in *states the block states among them: what a refusal names (issue 32 item 7) */
static int palette_count(const cf_program *p, int *states)
{
    const cf_rules *r = p->rules;
    size_t cap = CF_BLOCK_PALETTE + (size_t)r->nblocks + 2;
    const char **ids = malloc(sizeof(char *) * cap);
    *states = -1;
    if (!ids) return -1;
    int base = aquifer_palette(p, ids), n = base, extra = 0, own = 0;
    for (int k = 0; k < base; k++) own += ids[k][0] != 0;
    static const char *const ext[2] = {"minecraft:snow_block", "minecraft:packed_ice"};
    for (int i = 0; i < r->nblocks + 2; i++) {
        const char *id = i < r->nblocks ? r->blocks[i] : ext[i - r->nblocks];
        if (strcmp(id, "minecraft:water[level=0]") == 0) id = "minecraft:water";
        if (strcmp(id, "minecraft:lava[level=0]") == 0) id = "minecraft:lava";
        ids[n++] = id;
    }
    qsort(ids + base, (size_t)(n - base), sizeof *ids, cmp_str);
    for (int i = base; i < n; i++) {
        if (i > base && strcmp(ids[i], ids[i - 1]) == 0) continue;
        int known = 0;
        for (int k = 0; k < base && !known; k++) known = strcmp(ids[k], ids[i]) == 0;
        extra += !known;
    }
    free(ids);
    *states = own + extra;
    return (base < CF_BK_VEIN_COUNT ? CF_BK_VEIN_COUNT : base) + extra;
}

cf_status cf_program_compile_blocks(cf_program **out, cf_pack *pack, const char *settings_id, cf_error *err)
{
    static const char *const fns[9] = {"router:final_density", "aquifer?:barrier", "aquifer?:fluid_level_floodedness",
                                       "aquifer?:fluid_level_spread", "aquifer?:lava", "aquifer?:exclusion",
                                       "aquifer?:surface_level", "router?:chunk_surface_level", "rules?:material_rule"};
    /* a front-end with its own noise stage names the functions it needs */
    const cf_frontend *fe = pack && settings_id ? frontend_find(pack, settings_id, fns, 7) : NULL;
    const char *const *list = fe && fe->block_functions ? fe->block_functions : fns;
    int nlist = fe && fe->block_functions ? fe->nblock_functions : 9;
    cf_status st = cf_program_compile(out, pack, settings_id, list, nlist, err);
    if (st == CF_OK && *out && (*out)->prec != PREC_F32 && (*out)->dialect != DIALECT_MC121) {
        cf_program_free(*out);
        *out = NULL;
        return err_set(err, CF_ERR_ARG, "%s: block fills need Minecraft noise settings (this graph has no aquifer or blocks)",
                       settings_id);
    }
    if (st == CF_OK && *out) {
        (*out)->blocks = 1;
        const char *names[CF_BLOCK_PALETTE];
        if ((*out)->rules && surface_palette(*out, names, NULL) < 0) { /* the rule's and the noise stage's together */
            int states, slots = palette_count(*out, &states);
            cf_program_free(*out);
            *out = NULL;
            return err_set(err, CF_ERR_LIMIT,
                           "%s: the surface rule and the noise stage make %d block states (%d palette slots with the noise stage's "
                           "reserved ones), more than the %d slots of a block palette (block outputs hold one byte per block)",
                           settings_id, states, slots, CF_BLOCK_PALETTE);
        }
    }
    return st;
}

int cf_block_palette(const cf_program *p, const char **names) { return block_palette_out(p, names, NULL); }

int cf_program_has_surface(const cf_program *p)
{
    return p && p->blocks && p->rules && (p->dialect == DIALECT_MC121 || p->dialect == DIALECT_MC263);
}

static int chunk_cmp(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    return x[1] != y[1] ? (x[1] < y[1] ? -1 : 1) : x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : 0;
}

/* the stored biomes around each chunk (3 x 3 chunks, the zoom reaches one quart beyond):
 * *gridp receives per chunk the quart grid of surface_apply (malloc'd) */
static cf_status surface_grids(const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks, int threads, uint8_t **gridp,
                               cf_error *err)
{
    *gridp = NULL;
    const cf_program *p = w->prog;
    if (!cf_program_has_surface(p))
        return err_set(err, CF_ERR_ARG, "%s: no surface stage (noise settings with a surface_rule or material_rule, compiled for blocks)",
                       p->settings_id ? p->settings_id : "program");
    for (size_t i = 0; i < 2 * n; i++)
        if (chunks[i] < -CF_MAX_CHUNK + 1 || chunks[i] > CF_MAX_CHUNK - 1)
            return err_set(err, CF_ERR_ARG, "chunk coordinate %d out of range [%d, %d]", chunks[i], -CF_MAX_CHUNK + 1, CF_MAX_CHUNK - 1);
    if (b->min_y != p->min_y || b->height != p->height)
        return err_set(err, CF_ERR_ARG, "cf_fill_blocks_surface: the biome source covers y %d..%d, the settings %d..%d", b->min_y,
                       b->min_y + b->height, p->min_y, p->min_y + p->height);
    size_t ny = (size_t)p->height / 4, per = 144 * ny, one = 16 * ny;
    /* the distinct chunks of the 3 x 3 neighbourhoods, filled once (with the threads) */
    int32_t *nb = malloc(sizeof(int32_t) * 18 * (n ? n : 1));
    uint8_t *grid = malloc(per * (n ? n : 1)), *bio = NULL;
    size_t m = 0;
    if (!nb || !grid) {
        free(nb), free(grid);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    cf_status st = CF_OK;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 9; k++) nb[2 * m] = chunks[2 * i] - 1 + k % 3, nb[2 * m + 1] = chunks[2 * i + 1] - 1 + k / 3, m++;
    qsort(nb, m, 2 * sizeof(int32_t), chunk_cmp);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (u == 0 || chunk_cmp(&nb[2 * i], &nb[2 * (u - 1)]) != 0) nb[2 * u] = nb[2 * i], nb[2 * u + 1] = nb[2 * i + 1], u++;
    if (st == CF_OK && !(bio = malloc(one * (u ? u : 1)))) st = err_set(err, CF_ERR_NOMEM, "out of memory");
    if (st == CF_OK) st = cf_fill_biomes(b, u, nb, bio, threads, err);
    for (size_t i = 0; i < n && st == CF_OK; i++)
        for (int k = 0; k < 9; k++) {
            int32_t key[2] = {chunks[2 * i] - 1 + k % 3, chunks[2 * i + 1] - 1 + k / 3};
            const int32_t *hit = bsearch(key, nb, u, 2 * sizeof(int32_t), chunk_cmp);
            const uint8_t *src = bio + (size_t)(hit - nb) / 2 * one;
            for (size_t qy = 0; qy < ny; qy++)
                for (size_t qz = 0; qz < 4; qz++)
                    for (size_t qx = 0; qx < 4; qx++)
                        grid[i * per + (qy * 12 + (size_t)(k / 3) * 4 + qz) * 12 + (size_t)(k % 3) * 4 + qx] = src[(qy * 4 + qz) * 4 + qx];
        }
    free(nb);
    free(bio);
    if (st != CF_OK) free(grid);
    else *gridp = grid;
    return st;
}

/* the noise and surface stages (cpu/jobs.c) */
cf_status api_fill_blocks_surface(const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks, const uint8_t *remap,
                                  uint8_t *out, int threads, cf_error *err)
{
    if (!w || !b || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_fill_blocks_surface: bad arguments");
    uint8_t *grid;
    cf_status st = surface_grids(w, b, n, chunks, threads, &grid, err);
    if (st == CF_OK)
        st = fill_blocks_surface(w, n, chunks, grid, (const char *const *)b->pal, b->npal, b->zseed, remap, out, threads, err);
    free(grid);
    return st;
}

cf_status cf_fill_blocks_surface(const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks, uint8_t *out, int threads,
                                 cf_error *err)
{
    uint8_t remap[256];
    return api_fill_blocks_surface(w, b, n, chunks, w ? blocks_out_map(w->prog, remap) : NULL, out, threads, err);
}

/* what opencl/emit_blocks.c generates k_surface for (surface_kernel) */
int cf_program_surface_on_device(const cf_program *p)
{
    return cf_program_has_surface(p) && (p->dialect == DIALECT_MC121 ? !p->rules->f32 : p->rules->f32 && p->noutputs > CF_B263_SURFACE);
}

/* the same on a device: the biome grids on the CPU (cf_fill_biomes), both stages on the device */
cf_status cf_device_fill_blocks_surface(cf_device *d, const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks,
                                        uint8_t *out, cf_error *err)
{
    uint8_t remap[256];
    return api_device_fill_blocks_surface(d, w, b, n, chunks, w ? blocks_out_map(w->prog, remap) : NULL, out, err);
}

cf_status api_device_fill_blocks_surface(cf_device *d, const cf_world *w, cf_biomes *b, size_t n, const int32_t *chunks,
                                         const uint8_t *remap, uint8_t *out, cf_error *err)
{
    if (!d || !w || !b || (n && (!chunks || !out))) return err_set(err, CF_ERR_ARG, "cf_device_fill_blocks_surface: bad arguments");
    if (!device_has_surface(d))
        return err_set(err, CF_ERR_ARG, "%s: the surface stage of these settings has no OpenCL form (use the CPU)",
                       w->prog->settings_id ? w->prog->settings_id : "program");
    int32_t ints[CF_SF_I_COUNT];
    uint8_t psn[5 * 256];
    const cf_rules *r = w->prog->rules;
    uint64_t *grad = malloc(sizeof(uint64_t) * 2 * (size_t)(r->nnames + 1));
    if (!grad) return err_set(err, CF_ERR_NOMEM, "out of memory");
    int ng = surface_device_tables(w, (const char *const *)b->pal, b->npal, ints, psn, grad, r->nnames);
    if (ng < 0) {
        free(grad);
        return err_set(err, CF_ERR_NOMEM, "out of memory");
    }
    cf_surface_tables t = {.ints = ints, .psn = psn, .grad = grad, .ngrad = ng, .zseed = b->zseed};
    uint8_t *grid;
    cf_status st = surface_grids(w, b, n, chunks, 0, &grid, err);
    if (st == CF_OK) st = device_fill_blocks_surface(d, w, n, chunks, grid, &t, out, err);
    if (st == CF_OK) blocks_remap(out, n * (size_t)w->prog->height * 256, remap);
    free(grid);
    free(grad);
    return st;
}

void cf_program_free(cf_program *p) { program_free(p); }

int cf_program_precision(const cf_program *p) { return p && p->prec == PREC_F64 ? PREC_F64 : PREC_F32; }
size_t cf_program_node_count(const cf_program *p) { return (size_t)p->nnodes; }
const char *cf_program_describe(const cf_program *p) { return p->describe ? p->describe : ""; }

void cf_program_settings(const cf_program *p, int *min_y, int *height, int *sea_level)
{
    if (min_y) *min_y = p->min_y;
    if (height) *height = p->height;
    if (sea_level) *sea_level = p->sea_level;
}

cf_status cf_seed_parse(const char *text, int64_t *seed, cf_error *err)
{
    /* Minecraft (WorldOptions.parseSeed): the text trimmed as String.trim() does (every
     * char <= U+0020 at both ends), then Long.parseLong if it is a decimal long, else the
     * trimmed text's String.hashCode */
    if (!text) return err_set(err, CF_ERR_ARG, "seed: empty text");
    size_t a = 0, b = strlen(text);
    while (a < b && (unsigned char)text[a] <= 0x20) a++;
    while (b > a && (unsigned char)text[b - 1] <= 0x20) b--;
    if (a == b) return err_set(err, CF_ERR_ARG, "seed: empty text (the game picks a random seed; give one)");
    char *s0 = malloc(b - a + 1);
    if (!s0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    memcpy(s0, text + a, b - a);
    s0[b - a] = 0;
    const char *s = s0;
    int neg = 0;
    if (*s == '-' || *s == '+') neg = *s == '-', s++;
    int digits = *s != 0;
    for (const char *q = s; *q; q++)
        if (!isdigit((unsigned char)*q)) digits = 0;
    int ok = digits;
    uint64_t v = 0, lim = neg ? (1ULL << 63) : (1ULL << 63) - 1;
    for (const char *q = s; digits && *q && ok; q++) {
        unsigned d = (unsigned)(*q - '0');
        if (v > (lim - d) / 10) ok = 0;
        else v = v * 10 + d;
    }
    *seed = ok ? (neg ? (int64_t)(0 - v) : (int64_t)v) : (int64_t)java_string_hash(s0);
    free(s0);
    return CF_OK;
}

cf_status cf_world_new(cf_world **out, const cf_program *prog, int64_t seed, cf_error *err)
{
    return world_new(out, prog, seed, err);
}

void cf_world_free(cf_world *w) { world_release(w); }

cf_status cf_sample(const cf_world *w, int fn, size_t n, const int32_t *xyz, double *out, cf_error *err)
{
    if (!w || fn < 0 || fn >= w->prog->noutputs || (n && (!xyz || !out)))
        return err_set(err, CF_ERR_ARG, "cf_sample: bad arguments");
    int node = w->prog->outputs[fn];
    if (w->prog->prec == PREC_F64) {
        ev64_ctx c;
        if (eval64_init(&c, w) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < n; i++)
            out[i] = eval_f64(&c, node, (double)xyz[3 * i], (double)xyz[3 * i + 1], (double)xyz[3 * i + 2]);
        eval64_free(&c);
        return CF_OK;
    }
    for (size_t i = 0; i < n; i++) out[i] = (double)eval_point_f32(w, node, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    return CF_OK;
}

cf_status cf_sample_f64(const cf_world *w, int fn, size_t n, const double *xyz, double *out, cf_error *err)
{
    if (!w || fn < 0 || fn >= w->prog->noutputs || (n && (!xyz || !out)))
        return err_set(err, CF_ERR_ARG, "cf_sample_f64: bad arguments");
    int node = w->prog->outputs[fn];
    if (w->prog->prec != PREC_F64) {
        for (size_t i = 0; i < 3 * n; i++)
            if (!(xyz[i] == (double)(int32_t)xyz[i] && xyz[i] >= -2147483648.0 && xyz[i] <= 2147483647.0))
                return err_set(err, CF_ERR_ARG, "position %.17g: this program (%s) takes integer block positions", xyz[i],
                               w->prog->settings_id ? w->prog->settings_id : "Minecraft 26.3");
        for (size_t i = 0; i < n; i++)
            out[i] = (double)eval_point_f32(w, node, (int32_t)xyz[3 * i], (int32_t)xyz[3 * i + 1], (int32_t)xyz[3 * i + 2]);
        return CF_OK;
    }
    ev64_ctx c;
    if (eval64_init(&c, w) < 0) return err_set(err, CF_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) out[i] = eval_f64(&c, node, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    eval64_free(&c);
    return CF_OK;
}

char *cf_emit_opencl(const cf_program *p, int fn, cf_error *err)
{
    if (!p || fn < 0 || fn >= p->noutputs) {
        err_set(err, CF_ERR_ARG, "cf_emit_opencl: bad arguments");
        return NULL;
    }
    /* table indices do not depend on the seed: bind seed 0 to learn them */
    cf_world *w;
    if (cf_world_new(&w, p, 0, err) != CF_OK) return NULL;
    emit_layout lay;
    char *src = emit_program(p, w, fn, &lay, err);
    cf_world_free(w);
    return src;
}

cf_status cf_png_relief(const char *path, const int32_t *heights, int nx, int nz, const cf_program *p, cf_error *err)
{
    if (!path || !heights || !p || nx <= 0 || nz <= 0 || (uint64_t)nx * (uint64_t)nz > ((uint64_t)1 << 29))
        return err_set(err, CF_ERR_ARG, "cf_png_relief: bad arguments");
    uint8_t *rgb = malloc((size_t)nx * (size_t)nz * 3);
    if (!rgb) return err_set(err, CF_ERR_NOMEM, "out of memory for a %d x %d picture", nx, nz);
    image_relief_sea(heights, nx, nz, p->min_y, p->height, p->sea_level, image_sea_of(p->default_fluid), rgb);
    cf_status st = image_write_png(path, rgb, nx, nz, err);
    free(rgb);
    return st;
}

cf_status cf_png_slice(const char *path, const float *density, int n, const cf_program *p, int mode, cf_error *err)
{
    if (!path || !density || !p || n <= 0 || n > (1 << 20)) return err_set(err, CF_ERR_ARG, "cf_png_slice: bad arguments");
    uint8_t *rgb = malloc((size_t)n * (size_t)p->height * 3);
    if (!rgb) return err_set(err, CF_ERR_NOMEM, "out of memory");
    image_slice_sea(density, n, p->height, p->min_y, p->sea_level, image_sea_of(p->default_fluid), mode, rgb);
    cf_status st = image_write_png(path, rgb, n, p->height, err);
    free(rgb);
    return st;
}
