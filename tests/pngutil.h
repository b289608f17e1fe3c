/* pngutil.h - a test's PNG read back as 8-bit RGB through libpng (test_maps, test_structures) */
#ifndef CF_TEST_PNGUTIL_H
#define CF_TEST_PNGUTIL_H

#include <criterion/criterion.h>
#include <png.h>
#include <stdint.h>
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

#endif
