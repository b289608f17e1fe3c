/* image.h - preview maps: height fields and density slices -> RGB pixels -> PNG.
 *
 * Sits after the fill: the CLI turns filled columns into a height field or a
 * vertical slice, image_relief()/image_slice() colour it into a caller-owned
 * buffer, image_write_png() saves it. Pixels are 8-bit RGB, row-major, 3 bytes
 * each: rgb[(row*w + col)*3 + c]. Nothing here allocates beyond one PNG write.
 * The colours are a preview, not an exact product, but the same input gives
 * the same bytes on every run on one machine.
 */
#ifndef CF_IMAGE_H
#define CF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* Largest width or height libpng writes by default (its user limit). */
#define IMAGE_MAX_SIDE 1000000

/* image_slice() modes */
enum { IMAGE_SLICE_MATERIAL = 0, IMAGE_SLICE_DENSITY = 1 };

/* Writes an 8-bit RGB PNG (w x h pixels from rgb, h rows of w pixels) to path
 * atomically: the image goes to a temporary file in path's folder, which is
 * renamed over path once complete. Returns CF_OK; CF_ERR_ARG for NULL
 * arguments or bad sizes (w or h <= 0 or > IMAGE_MAX_SIDE, or w*h*3 over 2^31);
 * CF_ERR_IO when the file cannot be created, written or renamed, with a
 * one-line message naming path. On any error nothing new appears at path
 * (an existing file there is left as it was) and the temporary is removed. */
cf_status image_write_png(const char *path, const uint8_t *rgb, int w, int h, cf_error *err);

/* Reads the width and height from the PNG at path (header only). Returns
 * CF_OK; CF_ERR_ARG for NULL arguments; CF_ERR_IO, with a one-line message
 * naming path, when the file cannot be opened or is not a PNG. */
cf_status image_read_png_size(const char *path, int *w, int *h, cf_error *err);

/* Shaded relief of a height field: heights[z*nx + x] is the y of the top
 * solid block, or min_y - 1 where the column has none. Land (height >=
 * sea_level) gets a colour ramp from sea_level up to min_y + height - 1
 * (greens, yellow, brown, grey, white peaks above about min_y + 0.75*height)
 * times a hillshade (sun from the north-west, i.e. from -x -z, 45 degrees up;
 * central differences, one-sided at the edges; water counts as flat at
 * sea_level). Water (height < sea_level) is blue, darker with depth, and not
 * shaded. Writes nx*nz pixels to rgb: row z, column x. */
void image_relief(const int32_t *heights, int nx, int nz, int min_y, int height, int sea_level, uint8_t *rgb);

/* What a column of the fluids map shows on top (image_relief_fluids). */
enum { IMAGE_LAND = 0, IMAGE_WATER = 1, IMAGE_LAVA = 2, IMAGE_VOID = 3 };

/* Shaded relief of what the noise stage's blocks put on top of each column:
 * kind[i] (IMAGE_*), ground[i] the top solid block, top[i] the surface the sun
 * sees (the fluid's top block for WATER and LAVA, else ground[i]). LAND: the
 * ramp of image_relief (clamped to its lowest colour below sea level: a dry
 * cave floor) times the hillshade over top[]; WATER: blue, darker with depth
 * top - ground (at any height: lakes above sea level too), not shaded; LAVA:
 * orange; VOID (no block in the column): near black. Writes nx*nz pixels. */
void image_relief_fluids(const int32_t *ground, const int32_t *top, const uint8_t *kind, int nx, int nz, int min_y,
                         int height, int sea_level, uint8_t *rgb);

/* A vertical cross-section: density[y*n + i], y = 0 at min_y, n columns, h
 * rows. IMAGE_SLICE_MATERIAL: solid (density > 0) grey-brown, air (not solid,
 * y >= sea_level) sky blue, water (not solid, y < sea_level) blue.
 * IMAGE_SLICE_DENSITY (any mode but 0): blue for negative, white at 0, red for
 * positive, saturating at |density| = 1; NaN is black. Writes n*h pixels to
 * rgb, the top row being the highest y (row r shows y = h - 1 - r). */
void image_slice(const float *density, int n, int h, int min_y, int sea_level, int mode, uint8_t *rgb);

/* Size of one side after downsampling by s (s < 1 counts as 1): ceil(w / s),
 * so that every kept index x*s is < w. */
int image_scaled_size(int w, int s);

/* Downsampling for --scale: dst pixel (x, z) is src pixel (x*s, z*s), for
 * x < image_scaled_size(w, s), z < image_scaled_size(h, s). A pixel is elem
 * bytes (3 for RGB, sizeof(int32_t) for a height field). src and dst must not
 * overlap. */
void image_downsample(const void *src, int w, int h, size_t elem, int s, void *dst);

#endif
