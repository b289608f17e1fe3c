/* test_render.c - chunkfill render and slice: the height field equals the
 * oracle's (tests/golden/heights-default.txt, made by tests/golden/make-heights.sh
 * from the oracle's chunk mode), --scale samples it, the OpenCL device gives the
 * same heights, the PNG decodes to the expected size, and bad input is refused
 * with one line and no file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "image/image.h"

#include "pngutil.h"
#include "testutil.h"

static char dir[64];
static void setup(void)
{
    tmp_dir(dir, sizeof dir, "render");
}
static void teardown(void) { tmp_rm(dir); }
TestSuite(render, .init = setup, .fini = teardown, .timeout = 300);

static void golden(int32_t g[64][64])
{
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/heights-default.txt", "r");
    cr_assert_not_null(f);
    char line[4096];
    int row = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '@') continue;
        char *p = line;
        for (int x = 0; x < 64; x++) g[row][x] = (int32_t)strtol(p, &p, 10);
        row++;
    }
    fclose(f);
    cr_assert_eq(row, 64);
}

Test(render, heights_equal_the_oracle)
{
    char args[1024], err[4096], png[128], npy[128];
    snprintf(png, sizeof png, "%s/m.png", dir);
    snprintf(npy, sizeof npy, "%s/h.npy", dir);
    snprintf(args, sizeof args, "render --seed 42 --area 0,0:63,63 --out %s --heights %s", png, npy);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    int32_t g[64][64];
    golden(g);
    int nz, nx;
    int32_t *h = read_npy(npy, &nz, &nx);
    cr_assert(nz == 64 && nx == 64);
    int bad = 0, land = 0;
    for (int z = 0; z < 64; z++)
        for (int x = 0; x < 64; x++) {
            bad += h[z * 64 + x] != g[z][x];
            land += g[z][x] >= 63;
        }
    cr_assert_eq(bad, 0, "%d columns differ from the oracle", bad);
    cr_assert_gt(land, 0);
    int w, hh;
    cf_error e = {0};
    cr_assert_eq(image_read_png_size(png, &w, &hh, &e), CF_OK, "%s", e.message);
    cr_assert(w == 64 && hh == 64);
    free(h);
}

Test(render, scale_samples_every_nth_block)
{
    char args[1024], err[4096], png[128], npy[128];
    snprintf(png, sizeof png, "%s/m.png", dir);
    snprintf(npy, sizeof npy, "%s/h.npy", dir);
    snprintf(args, sizeof args, "render --seed 42 --area 0,0:63,63 --scale 5 --out %s --heights %s", png, npy);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    int32_t g[64][64];
    golden(g);
    int nz, nx;
    int32_t *h = read_npy(npy, &nz, &nx);
    cr_assert(nz == 13 && nx == 13, "%d x %d", nx, nz);
    for (int z = 0; z < 13; z++)
        for (int x = 0; x < 13; x++) cr_assert_eq(h[z * 13 + x], g[z * 5][x * 5]);
    int w, hh;
    cr_assert_eq(image_read_png_size(png, &w, &hh, NULL), CF_OK);
    cr_assert(w == 13 && hh == 13);
    free(h);
}

Test(render, opencl_gives_the_same_heights)
{
    char args[1024], err[4096], a[128], b[128], png[128];
    snprintf(png, sizeof png, "%s/m.png", dir);
    snprintf(a, sizeof a, "%s/a.npy", dir);
    snprintf(b, sizeof b, "%s/b.npy", dir);
    snprintf(args, sizeof args, "render --seed 9 --area -40,-17:30,20 --out %s --heights %s", png, a);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "render --seed 9 --area -40,-17:30,20 --device opencl --out %s --heights %s", png, b);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    int z1, x1, z2, x2;
    int32_t *h1 = read_npy(a, &z1, &x1), *h2 = read_npy(b, &z2, &x2);
    cr_assert(z1 == z2 && x1 == x2 && x1 == 71 && z1 == 38);
    cr_assert_eq(memcmp(h1, h2, sizeof(int32_t) * 71 * 38), 0);
    free(h1), free(h2);
}

Test(render, slice_png)
{
    char args[1024], err[4096], png[128];
    snprintf(png, sizeof png, "%s/s.png", dir);
    snprintf(args, sizeof args, "slice --seed 42 --z 10 --span -20:99 --mode density --out %s", png);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    int w, h;
    cr_assert_eq(image_read_png_size(png, &w, &h, NULL), CF_OK);
    cr_assert(w == 120 && h == 384, "%d x %d", w, h);
    cr_assert(strstr(err, "slice: 120 x 384 pixels, 9 chunks, ") && strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    /* a span of 2 batches of chunks (69 chunks: the fill goes 64 at a time, with a progress line
     * between on a terminal) equals, column for column, a span within the second batch */
    char png2[128];
    snprintf(png2, sizeof png2, "%s/s2.png", dir);
    snprintf(args, sizeof args, "slice --seed 42 --x 5 --span 0:1100 --mode density --quiet --out %s", png);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(err[0], 0, "--quiet printed '%s'", err);
    snprintf(args, sizeof args, "slice --seed 42 --x 5 --span 1020:1100 --mode density --out %s", png2);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s", err);
    int w2, h2;
    uint8_t *a = read_png(png, &w, &h), *b = read_png(png2, &w2, &h2);
    cr_assert(w == 1101 && w2 == 81 && h == h2, "%d %d", w, w2);
    for (int y = 0; y < h; y++)
        cr_assert(memcmp(a + 3 * ((size_t)y * (size_t)w + 1020), b + 3 * (size_t)y * (size_t)w2, 3 * (size_t)w2) == 0,
                  "row %d: the two spans differ", y);
    free(a), free(b);
}

Test(render, bad_input)
{
    char args[1024], err[4096], png[128];
    snprintf(png, sizeof png, "%s/x.png", dir);
    snprintf(args, sizeof args, "render --seed 1 --area 10,10:0,20 --out %s", png);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 2); /* a usage error, as in every command */
    cr_assert(strstr(err, "reversed corners"), "%s", err);
    snprintf(args, sizeof args, "render --seed 1 --area -2000000000,0:2000000000,10 --out %s", png);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "pixels"), "%s", err);
    snprintf(args, sizeof args, "render --seed 1 --area 0,0:10 --out %s", png);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 2);
    cr_assert_eq(cli_run(NULL, "render --seed 1 --area 0,0:15,15 --out /nonexistent-dir/m.png", NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "/nonexistent-dir/m.png"), "%s", err);
    int lines = 0;
    for (char *c = err; *c; c++) lines += *c == '\n';
    cr_assert_eq(lines, 1, "%s", err);
    struct stat st;
    cr_assert_neq(stat(png, &st), 0, "a file was written for bad input");
    snprintf(args, sizeof args, "slice --seed 1 --x 0 --span 5:1 --out %s", png);
    cr_assert_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 2);
    cr_assert(strstr(err, "--span 5:1: reversed: the second end must not be below the first"), "%s", err);
}
