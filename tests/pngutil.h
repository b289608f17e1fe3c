/* pngutil.h - a test's PNG read back as 8-bit RGB through libpng (test_maps, test_structures), and an
 * int32 .npy (the heights of columns --out, render --heights: test_maps, test_render) */
#ifndef CF_TEST_PNGUTIL_H
#define CF_TEST_PNGUTIL_H

#include <criterion/criterion.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* decoded RGB pixels of a PNG (malloc'd), its size in *w, *h; a failed read fails the test */
static inline uint8_t *read_png(const char *path, int *w, int *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    cr_assert(png_image_begin_read_from_file(&img, path), "%s: %s", path, img.message);
    img.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
    cr_assert(px && png_image_finish_read(&img, NULL, px, 0, NULL), "%s: %s", path, img.message);
    *w = (int)img.width, *h = (int)img.height;
    return px;
}

/* an int32 .npy of shape (nz, nx) (malloc'd); anything else fails the test */
static inline int32_t *read_npy(const char *path, int *nz, int *nx)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "no %s", path);
    unsigned char h[10];
    cr_assert_eq(fread(h, 1, 10, f), 10u);
    unsigned hl = h[8] | h[9] << 8;
    char dict[512] = {0};
    cr_assert_eq(fread(dict, 1, hl, f), hl);
    cr_assert(strstr(dict, "'<i4'"), "%s", dict);
    cr_assert_eq(sscanf(strstr(dict, "'shape': (") + 10, "%d, %d", nz, nx), 2);
    int32_t *v = malloc(sizeof(int32_t) * (size_t)*nz * (size_t)*nx);
    cr_assert_eq(fread(v, sizeof(int32_t), (size_t)*nz * (size_t)*nx, f), (size_t)*nz * (size_t)*nx);
    fclose(f);
    return v;
}

#endif
