/* test_image.c - preview maps: relief and slice colours, PNG round trips
 * through libpng, atomic writes (failures leave nothing, replacing is whole),
 * argument checks and downsampling. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <md5.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/image.h"

/* ---------------------------------------------------------------- helpers */

static char scratch[64];

/* removes path and, for a folder, everything under it */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        char sub[512];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub);
            }
        closedir(d);
    }
    remove(path);
}

static void scratch_make(void)
{
    strcpy(scratch, "/tmp/cf-image-XXXXXX");
    cr_assert_not_null(mkdtemp(scratch));
}

static void scratch_remove(void)
{
    if (scratch[0]) remove_tree(scratch);
}

TestSuite(image, .init = scratch_make, .fini = scratch_remove);

/* scratch/name in a static buffer (one at a time) */
static const char *in_scratch(const char *name)
{
    static char buf[2][256];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/%s", scratch, name);
    return buf[k];
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Reads a whole PNG back as 8-bit RGB through libpng; malloc'd, NULL on error. */
static uint8_t *read_rgb(const char *path, int *w, int *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    img.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        png_image_free(&img);
        free(px);
        return NULL;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    return px;
}

static void file_md5(const char *path, uint8_t out[16])
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    MD5_CTX c;
    MD5Init(&c);
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) MD5Update(&c, buf, n);
    fclose(f);
    MD5Final(out, &c);
}

static int brightness(const uint8_t *px) { return px[0] + px[1] + px[2]; }

static void assert_one_line_naming(const cf_error *e, const char *path)
{
    cr_assert_not_null(strstr(e->message, path), "message: %s", e->message);
    cr_assert_null(strchr(e->message, '\n'));
}

/* A cone island: peak at (C, C) 8 blocks up per block inward, ocean floor at 40. */
enum { N = 65, C = 32, MIN_Y = -64, HEIGHT = 384, SEA = 63 };

static void make_island(int32_t *hm)
{
    for (int z = 0; z < N; z++)
        for (int x = 0; x < N; x++) {
            double r = sqrt((double)((x - C) * (x - C) + (z - C) * (z - C)));
            hm[z * N + x] = r < 28.0 ? SEA + (int32_t)floor((28.0 - r) * 8.0) : 40;
        }
}

/* ---------------------------------------------------------------- relief */

Test(image, relief_island_png_round_trip)
{
    static int32_t hm[N * N];
    static uint8_t rgb[N * N * 3];
    make_island(hm);
    image_relief(hm, N, N, MIN_Y, HEIGHT, SEA, rgb);
    const char *path = in_scratch("relief.png");
    cf_error e = {0};
    cr_assert_eq(image_write_png(path, rgb, N, N, &e), CF_OK, "%s", e.message);
    int w = 0, h = 0;
    cr_assert_eq(image_read_png_size(path, &w, &h, &e), CF_OK, "%s", e.message);
    cr_assert_eq(w, N);
    cr_assert_eq(h, N);
    uint8_t *back = read_rgb(path, &w, &h);
    cr_assert_not_null(back);
    cr_assert_eq(memcmp(back, rgb, sizeof rgb), 0, "pixels differ after the PNG round trip");
    free(back);
    cr_assert_eq(entries(scratch), 1, "a temporary was left behind");
}

Test(image, relief_colours_water_peak_and_sun)
{
    static int32_t hm[N * N];
    static uint8_t rgb[N * N * 3];
    make_island(hm);
    image_relief(hm, N, N, MIN_Y, HEIGHT, SEA, rgb);
    /* water in the corner: blue dominant */
    const uint8_t *wp = rgb + 3 * (1 * N + 1);
    cr_assert(wp[2] > wp[0] && wp[2] > wp[1], "water %d,%d,%d", wp[0], wp[1], wp[2]);
    /* the peak (287, above the snow line at 224) is light */
    const uint8_t *pk = rgb + 3 * (C * N + C);
    cr_assert(pk[0] >= 220 && pk[1] >= 220 && pk[2] >= 220, "peak %d,%d,%d", pk[0], pk[1], pk[2]);
    /* the same height on the north-west (-x -z) and south-east faces: the
     * north-west face looks towards the sun */
    int nw = (C - 8) * N + (C - 8), se = (C + 8) * N + (C + 8);
    cr_assert_eq(hm[nw], hm[se]);
    cr_assert_gt(hm[nw], SEA);
    cr_assert_gt(brightness(rgb + 3 * nw), brightness(rgb + 3 * se) + 60, "nw %d se %d",
                 brightness(rgb + 3 * nw), brightness(rgb + 3 * se));
    /* and the north-east / south-west faces, lit from the side, lie between */
    int ne = (C - 8) * N + (C + 8);
    cr_assert_eq(hm[ne], hm[nw]);
    cr_assert_gt(brightness(rgb + 3 * nw), brightness(rgb + 3 * ne));
    cr_assert_gt(brightness(rgb + 3 * ne), brightness(rgb + 3 * se));
}

Test(image, relief_water_darker_with_depth_and_ramp_rises)
{
    /* one row, flat runs so the hillshade is neutral in the middle of each */
    enum { W = 15 };
    int32_t hm[W] = {62, 62, 62, 20, 20, 20, MIN_Y - 1, MIN_Y - 1, MIN_Y - 1, 70, 70, 70, 300, 300, 300};
    uint8_t rgb[W * 3];
    image_relief(hm, W, 1, MIN_Y, HEIGHT, SEA, rgb);
    const uint8_t *shallow = rgb + 3 * 1, *mid = rgb + 3 * 4, *deep = rgb + 3 * 7;
    for (int i = 0; i < 3; i++) {
        const uint8_t *p = rgb + 3 * (1 + 3 * i);
        cr_assert(p[2] > p[0] && p[2] > p[1], "water at %d not blue", 1 + 3 * i);
    }
    cr_assert_gt(brightness(shallow), brightness(mid));
    cr_assert_gt(brightness(mid), brightness(deep));
    /* lowland is green dominant, the high flat is near white */
    const uint8_t *low = rgb + 3 * 10, *high = rgb + 3 * 13;
    cr_assert(low[1] > low[0] && low[1] > low[2], "lowland %d,%d,%d", low[0], low[1], low[2]);
    cr_assert(high[0] >= 240 && high[1] >= 240 && high[2] >= 240, "high %d,%d,%d", high[0], high[1], high[2]);
}

Test(image, relief_edges_and_single_pixel)
{
    /* a slope rising towards +x: every column, edges included, faces the sun alike */
    int32_t hm[4 * 3];
    for (int z = 0; z < 3; z++)
        for (int x = 0; x < 4; x++) hm[z * 4 + x] = 100 + x;
    uint8_t rgb[4 * 3 * 3], flat[3];
    image_relief(hm, 4, 3, MIN_Y, HEIGHT, SEA, rgb);
    int32_t one = 100;
    image_relief(&one, 1, 1, MIN_Y, HEIGHT, SEA, flat);
    for (int i = 0; i < 4 * 3; i++)
        cr_assert_gt(brightness(rgb + 3 * i), brightness(flat), "pixel %d not lit", i);
}

/* ---------------------------------------------------------------- slices */

enum { SN = 4, SH = 8, S_MIN = 60, S_SEA = 64 };

Test(image, slice_material)
{
    /* column 0 solid, 1 empty (density exactly 0 is not solid), 2 empty (negative),
     * 3 solid only at y 0 (world 60) */
    float d[SH * SN];
    for (int y = 0; y < SH; y++) {
        d[y * SN + 0] = 0.25f;
        d[y * SN + 1] = 0.0f;
        d[y * SN + 2] = -1.0f;
        d[y * SN + 3] = y == 0 ? 1.0f : -0.5f;
    }
    uint8_t rgb[SN * SH * 3];
    image_slice(d, SN, SH, S_MIN, S_SEA, IMAGE_SLICE_MATERIAL, rgb);
    const uint8_t *solid = rgb + 3 * (0 * SN + 0);
    const uint8_t *sky = rgb + 3 * (0 * SN + 1);             /* row 0 = y 7 = world 67 */
    const uint8_t *water = rgb + 3 * ((SH - 1) * SN + 1);    /* row 7 = y 0 = world 60 */
    cr_assert(sky[2] > sky[0] && water[2] > water[0], "sky and water are blue");
    cr_assert_neq(memcmp(sky, water, 3), 0);
    cr_assert_neq(memcmp(solid, sky, 3), 0);
    cr_assert(solid[0] >= solid[2] && solid[1] >= solid[2], "solid %d,%d,%d", solid[0], solid[1], solid[2]);
    for (int r = 0; r < SH; r++) {
        int world = S_MIN + (SH - 1 - r);
        const uint8_t *want = world >= S_SEA ? sky : water;
        cr_assert_eq(memcmp(rgb + 3 * (r * SN + 0), solid, 3), 0, "row %d col 0", r);
        cr_assert_eq(memcmp(rgb + 3 * (r * SN + 1), want, 3), 0, "row %d col 1", r);
        cr_assert_eq(memcmp(rgb + 3 * (r * SN + 2), want, 3), 0, "row %d col 2", r);
        cr_assert_eq(memcmp(rgb + 3 * (r * SN + 3), r == SH - 1 ? solid : want, 3), 0, "row %d col 3", r);
    }
}

Test(image, slice_density_map)
{
    float d[SH * SN];
    for (int i = 0; i < SH * SN; i++) d[i] = 0.0f;
    /* column 0 from the bottom: -1, -0.5, 0, 0.5, 1, 2, -3, NaN */
    const float col[SH] = {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 2.0f, -3.0f, NAN};
    for (int y = 0; y < SH; y++) d[y * SN] = col[y];
    uint8_t rgb[SN * SH * 3];
    image_slice(d, SN, SH, S_MIN, S_SEA, IMAGE_SLICE_DENSITY, rgb);
#define PX(y) (rgb + 3 * ((SH - 1 - (y)) * SN))
    static const uint8_t white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
    cr_assert_eq(memcmp(PX(2), white, 3), 0, "zero is white");
    cr_assert_eq(memcmp(rgb + 3 * 1, white, 3), 0, "zero is white elsewhere");
    cr_assert(PX(0)[2] > PX(0)[0] && PX(0)[2] > PX(0)[1], "negative is blue");
    cr_assert(PX(4)[0] > PX(4)[1] && PX(4)[0] > PX(4)[2], "positive is red");
    cr_assert_eq(memcmp(PX(5), PX(4), 3), 0, "saturates at +1");
    cr_assert_eq(memcmp(PX(6), PX(0), 3), 0, "saturates at -1");
    cr_assert_eq(memcmp(PX(7), black, 3), 0, "NaN is black");
    /* halfway lies between white and full colour in every channel */
    for (int c = 0; c < 3; c++) {
        cr_assert(PX(1)[c] <= 255 && PX(1)[c] >= PX(0)[c], "-0.5 channel %d", c);
        cr_assert(PX(3)[c] <= 255 && PX(3)[c] >= PX(4)[c], "0.5 channel %d", c);
    }
    cr_assert_neq(memcmp(PX(1), PX(0), 3), 0);
    cr_assert_neq(memcmp(PX(3), PX(4), 3), 0);
#undef PX
}

Test(image, slice_png_both_modes)
{
    enum { W = 33, H = 20 };
    static float d[W * H];
    for (int y = 0; y < H; y++)
        for (int i = 0; i < W; i++) d[y * W + i] = (float)(10 - y) / 8.0f + (float)(i % 5) * 0.1f;
    static uint8_t rgb[2][W * H * 3];
    for (int mode = 0; mode < 2; mode++) {
        image_slice(d, W, H, S_MIN, S_SEA, mode, rgb[mode]);
        const char *path = in_scratch(mode ? "density.png" : "material.png");
        cf_error e = {0};
        cr_assert_eq(image_write_png(path, rgb[mode], W, H, &e), CF_OK, "%s", e.message);
        int w, h;
        uint8_t *back = read_rgb(path, &w, &h);
        cr_assert_not_null(back);
        cr_assert_eq(w, W);
        cr_assert_eq(h, H);
        cr_assert_eq(memcmp(back, rgb[mode], sizeof rgb[mode]), 0);
        free(back);
    }
    cr_assert_neq(memcmp(rgb[0], rgb[1], sizeof rgb[0]), 0);
    cr_assert_eq(entries(scratch), 2);
}

/* ---------------------------------------------------------------- atomic writes */

Test(image, missing_folder_is_io_and_leaves_nothing)
{
    uint8_t rgb[2 * 2 * 3] = {0};
    const char *path = in_scratch("missing/out.png");
    cf_error e = {0};
    cr_assert_eq(image_write_png(path, rgb, 2, 2, &e), CF_ERR_IO);
    cr_assert_eq(e.status, CF_ERR_IO);
    assert_one_line_naming(&e, path);
    cr_assert(!exists(path));
    cr_assert(!exists(in_scratch("missing")));
    cr_assert_eq(entries(scratch), 0);
}

Test(image, failed_rename_removes_the_temporary)
{
    /* the target is a folder: the PNG is written, the rename fails */
    const char *path = in_scratch("sub");
    cr_assert_eq(mkdir(path, 0777), 0);
    uint8_t rgb[3 * 3 * 3] = {0};
    cf_error e = {0};
    cr_assert_eq(image_write_png(path, rgb, 3, 3, &e), CF_ERR_IO);
    assert_one_line_naming(&e, path);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    cr_assert_eq(entries(scratch), 1, "the temporary was left behind");
    cr_assert_eq(entries(path), 0);
}

Test(image, replaces_an_existing_file_whole)
{
    const char *path = in_scratch("map.png");
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    for (int i = 0; i < 200000; i++) fputc('x', f);
    cr_assert_eq(fclose(f), 0);

    enum { W = 16, H = 8 };
    uint8_t rgb[W * H * 3];
    for (int i = 0; i < W * H * 3; i++) rgb[i] = (uint8_t)(i * 7);
    cf_error e = {0};
    cr_assert_eq(image_write_png(path, rgb, W, H, &e), CF_OK, "%s", e.message);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_lt(st.st_size, 200000, "old bytes remain");
    int w, h;
    uint8_t *back = read_rgb(path, &w, &h);
    cr_assert_not_null(back);
    cr_assert_eq(w, W);
    cr_assert_eq(h, H);
    cr_assert_eq(memcmp(back, rgb, sizeof rgb), 0);
    free(back);
    cr_assert_eq(entries(scratch), 1);
}

Test(image, same_pixels_same_file_bytes)
{
    static int32_t hm[N * N];
    static uint8_t a[N * N * 3], b[N * N * 3];
    make_island(hm);
    image_relief(hm, N, N, MIN_Y, HEIGHT, SEA, a);
    image_relief(hm, N, N, MIN_Y, HEIGHT, SEA, b);
    cr_assert_eq(memcmp(a, b, sizeof a), 0);
    cf_error e = {0};
    cr_assert_eq(image_write_png(in_scratch("a.png"), a, N, N, &e), CF_OK);
    cr_assert_eq(image_write_png(in_scratch("b.png"), b, N, N, &e), CF_OK);
    uint8_t ha[16], hb[16];
    file_md5(in_scratch("a.png"), ha);
    file_md5(in_scratch("b.png"), hb);
    cr_assert_eq(memcmp(ha, hb, 16), 0, "PNG bytes depend on more than the pixels");
}

/* ---------------------------------------------------------------- arguments */

Test(image, bad_sizes_are_arg_errors)
{
    static const int bad[][2] = {
        {0, 1}, {1, 0}, {-3, 5}, {5, -3},
        {65536, 16384},    /* 3 * 2^30 bytes > 2^31 */
        {1000000, 716},    /* just over 2^31 bytes */
        {1000001, 1},      /* over libpng's side limit */
        {1, 1000001},
    };
    uint8_t px[3] = {1, 2, 3};
    const char *path = in_scratch("bad.png");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_error e = {0};
        cr_assert_eq(image_write_png(path, px, bad[i][0], bad[i][1], &e), CF_ERR_ARG, "%dx%d", bad[i][0],
                     bad[i][1]);
        assert_one_line_naming(&e, path);
    }
    cf_error e = {0};
    cr_assert_eq(image_write_png(NULL, px, 1, 1, &e), CF_ERR_ARG);
    e = (cf_error){0};
    cr_assert_eq(image_write_png("", px, 1, 1, &e), CF_ERR_ARG);
    e = (cf_error){0};
    cr_assert_eq(image_write_png(path, NULL, 1, 1, &e), CF_ERR_ARG);
    cr_assert_eq(image_write_png(path, NULL, 1, 1, NULL), CF_ERR_ARG, "err may be NULL");
    cr_assert_eq(entries(scratch), 0);
}

Test(image, widest_side_libpng_writes)
{
    enum { W = IMAGE_MAX_SIDE };
    uint8_t *rgb = calloc((size_t)W * 3, 1);
    cr_assert_not_null(rgb);
    rgb[3 * (W - 1) + 1] = 200;
    const char *path = in_scratch("wide.png");
    cf_error e = {0};
    cr_assert_eq(image_write_png(path, rgb, W, 1, &e), CF_OK, "%s", e.message);
    int w = 0, h = 0;
    cr_assert_eq(image_read_png_size(path, &w, &h, &e), CF_OK, "%s", e.message);
    cr_assert_eq(w, W);
    cr_assert_eq(h, 1);
    free(rgb);
}

Test(image, read_size_errors)
{
    int w, h;
    cf_error e = {0};
    const char *path = in_scratch("none.png");
    cr_assert_eq(image_read_png_size(path, &w, &h, &e), CF_ERR_IO);
    assert_one_line_naming(&e, path);
    const char *text = in_scratch("text.png");
    FILE *f = fopen(text, "wb");
    cr_assert_not_null(f);
    fputs("not a png at all\n", f);
    fclose(f);
    e = (cf_error){0};
    cr_assert_eq(image_read_png_size(text, &w, &h, &e), CF_ERR_IO);
    assert_one_line_naming(&e, text);
    e = (cf_error){0};
    cr_assert_eq(image_read_png_size(text, NULL, &h, &e), CF_ERR_ARG);
}

/* ---------------------------------------------------------------- scaling */

Test(image, downsample_keeps_every_sth_pixel)
{
    cr_assert_eq(image_scaled_size(5, 2), 3);
    cr_assert_eq(image_scaled_size(4, 2), 2);
    cr_assert_eq(image_scaled_size(7, 1), 7);
    cr_assert_eq(image_scaled_size(7, 0), 7);
    cr_assert_eq(image_scaled_size(1, 16), 1);
    cr_assert_eq(image_scaled_size(0, 2), 0);

    /* 5 x 3 RGB, pixel (x, z) = (x, z, 9) -> 3 x 2 */
    uint8_t src[5 * 3 * 3], dst[3 * 2 * 3];
    for (int z = 0; z < 3; z++)
        for (int x = 0; x < 5; x++) {
            uint8_t *p = src + 3 * (z * 5 + x);
            p[0] = (uint8_t)x, p[1] = (uint8_t)z, p[2] = 9;
        }
    memset(dst, 0xEE, sizeof dst);
    image_downsample(src, 5, 3, 3, 2, dst);
    static const uint8_t want[] = {0, 0, 9, 2, 0, 9, 4, 0, 9, 0, 2, 9, 2, 2, 9, 4, 2, 9};
    cr_assert_eq(memcmp(dst, want, sizeof want), 0);

    /* a height field, s = 3: 7 x 4 -> 3 x 2 */
    int32_t hm[7 * 4], out[3 * 2];
    for (int i = 0; i < 7 * 4; i++) hm[i] = -1000 + i;
    image_downsample(hm, 7, 4, sizeof(int32_t), 3, out);
    static const int32_t hwant[] = {-1000, -997, -994, -979, -976, -973};
    cr_assert_eq(memcmp(out, hwant, sizeof hwant), 0);
}

/* ---------------------------------------------------------------- the settings' sea */

/* colours follow the blocks: below sea level the nether's sea is lava, the End has none (its
 * void, a column without solid blocks, near black); the overworld's water is unchanged */
Test(image, relief_and_slice_follow_the_default_fluid)
{
    int32_t hm[4] = {SEA - 10, MIN_Y - 1, SEA + 5, SEA - 1};
    uint8_t w[12], l[12], v[12];
    image_relief(hm, 4, 1, MIN_Y, HEIGHT, SEA, w);
    image_relief_sea(hm, 4, 1, MIN_Y, HEIGHT, SEA, IMAGE_WATER, l);
    cr_assert_eq(memcmp(w, l, 12), 0, "IMAGE_WATER is image_relief");
    cr_assert_eq(image_sea_of("minecraft:water"), IMAGE_WATER);
    cr_assert_eq(image_sea_of("minecraft:lava"), IMAGE_LAVA);
    cr_assert_eq(image_sea_of("minecraft:air"), IMAGE_VOID);
    image_relief_sea(hm, 4, 1, MIN_Y, HEIGHT, SEA, IMAGE_LAVA, l);
    image_relief_sea(hm, 4, 1, MIN_Y, HEIGHT, SEA, IMAGE_VOID, v);
    for (int i = 0; i < 4; i += 3) {
        cr_assert(w[3 * i + 2] > w[3 * i] + 40, "water pixel %d is blue", i);
        cr_assert(l[3 * i] > 150 && l[3 * i + 2] < 60, "lava pixel %d: %d,%d,%d", i, l[3 * i], l[3 * i + 1], l[3 * i + 2]);
        cr_assert_not(v[3 * i + 2] > v[3 * i] + 40, "no sea: pixel %d is not blue (%d,%d,%d)", i, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    }
    cr_assert_eq(memcmp(v + 3, image_void_rgb, 3), 0, "the void is near black");
    cr_assert_eq(memcmp(l + 6, w + 6, 3), 0, "land is land");
    float d[2] = {-1.0f, -1.0f}; /* one column, y 0 (below sea 1) and y 1 */
    uint8_t sw[6], sl[6], sv[6];
    image_slice_sea(d, 1, 2, 0, 1, IMAGE_WATER, IMAGE_SLICE_MATERIAL, sw);
    image_slice_sea(d, 1, 2, 0, 1, IMAGE_LAVA, IMAGE_SLICE_MATERIAL, sl);
    image_slice_sea(d, 1, 2, 0, 1, IMAGE_VOID, IMAGE_SLICE_MATERIAL, sv);
    cr_assert(sw[5] > sw[3] + 40 && sl[3] > 150 && sl[5] < 60, "the bottom row: water blue, lava orange");
    cr_assert_eq(memcmp(sv + 3, sv, 3), 0, "no sea: the bottom row is air like the top");
}
