/* image.c - preview maps: colouring height fields and density slices, PNG output.
 *
 * Input: a height field or a density slice from a fill; output: 8-bit RGB
 * pixels in a caller-owned buffer, then a PNG written through libpng's
 * simplified API into a temporary file that is renamed over the target
 * (base/outfile.c). Allocates only libpng's own state per write.
 * Colour maths is plain double arithmetic (no contraction, sqrt only), so the
 * same input gives the same bytes on every run on one machine.
 */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"

/* ------------------------------------------------------------------ PNG output */

/* an 8-bit RGB image of w x h for libpng's simplified write API */
static png_image rgb_image(int w, int h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGB;
    return img;
}

cf_status image_write_png(const char *path, const uint8_t *rgb, int w, int h, cf_error *err)
{
    if (!path || !*path || !rgb)
        return err_set(err, CF_ERR_ARG, "image_write_png: %s", !path || !*path ? "no path" : "no pixels");
    if (w <= 0 || h <= 0 || w > IMAGE_MAX_SIDE || h > IMAGE_MAX_SIDE ||
        (uint64_t)w * (uint64_t)h * 3u > (UINT64_C(1) << 31))
        return err_set(err, CF_ERR_ARG, "%s: bad image size %dx%d (each side 1..%d, at most 2^31 bytes of RGB)",
                       path, w, h, IMAGE_MAX_SIDE);

    cf_output o;
    cf_status st = out_open(&o, path, err); /* refuses a device, FIFO, directory... (base/outfile.c) */
    if (st != CF_OK) return st;
    png_image img = rgb_image(w, h);
    errno = 0;
    if (!png_image_write_to_stdio(&img, o.f, 0, rgb, 0, NULL)) {
        int saved = errno;
        st = err_set(err, CF_ERR_IO, "%s: PNG write failed: %s%s%s", path, img.message,
                     saved ? ": " : "", saved ? strerror(saved) : "");
        png_image_free(&img);
        out_abort(&o);
        return st;
    }
    return out_commit(&o, err); /* durable (fsync) before it becomes visible under its name */
}

cf_status image_png_bytes(const uint8_t *rgb, int w, int h, uint8_t **out, size_t *n, cf_error *err)
{
    *out = NULL, *n = 0;
    if (!rgb || w <= 0 || h <= 0 || w > IMAGE_MAX_SIDE || h > IMAGE_MAX_SIDE || (uint64_t)w * (uint64_t)h * 3u > (UINT64_C(1) << 31))
        return err_set(err, CF_ERR_ARG, "image_png_bytes: bad image size %dx%d", w, h);
    png_image img = rgb_image(w, h);
    png_alloc_size_t size = 0;
    /* the same simplified-API write as image_write_png: first the size, then the bytes */
    if (!png_image_write_to_memory(&img, NULL, &size, 0, rgb, 0, NULL)) {
        png_image_free(&img);
        return err_set(err, CF_ERR_NOMEM, "PNG encoding failed: %s", img.message);
    }
    uint8_t *p = malloc(size ? size : 1);
    if (!p) return err_set(err, CF_ERR_NOMEM, "out of memory");
    if (!png_image_write_to_memory(&img, p, &size, 0, rgb, 0, NULL)) {
        free(p);
        png_image_free(&img);
        return err_set(err, CF_ERR_NOMEM, "PNG encoding failed: %s", img.message);
    }
    *out = p, *n = (size_t)size;
    return CF_OK;
}

cf_status image_read_png_size(const char *path, int *w, int *h, cf_error *err)
{
    if (!path || !w || !h) return err_set(err, CF_ERR_ARG, "image_read_png_size: NULL argument");
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        cf_status st = err_set(err, CF_ERR_IO, "%s: cannot read as PNG: %s", path, img.message);
        png_image_free(&img);
        return st;
    }
    /* libpng's default user limit keeps both sides far below INT_MAX */
    *w = (int)img.width;
    *h = (int)img.height;
    png_image_free(&img);
    return CF_OK;
}

/* ------------------------------------------------------------------ colours */

static uint8_t to_byte(double v)
{
    if (!(v > 0.0)) return 0;
    if (v >= 255.0) return 255;
    return (uint8_t)(v + 0.5);
}

static void put_rgb(uint8_t *px, const double c[3], double k)
{
    for (int i = 0; i < 3; i++) px[i] = to_byte(c[i] * k);
}

static void mix(const uint8_t a[3], const uint8_t b[3], double t, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = a[i] + (b[i] - a[i]) * t;
}

/* Land colour at t in [0, 1] (sea level .. highest y); snow is where white
 * peaks begin, as the same fraction. The stops below the snow line are
 * placed relative to it so that low worlds still show the whole ramp. */
static void land_colour(double t, double snow, double out[3])
{
    static const struct {
        double at;          /* fraction of the snow line; the last is 1 of the range */
        uint8_t c[3];
    } stop[] = {
        {0.00, {68, 130, 60}},   /* lowland green */
        {0.30, {118, 164, 80}},  /* light green */
        {0.55, {200, 190, 112}}, /* hills yellow */
        {0.75, {152, 114, 74}},  /* brown */
        {0.92, {132, 128, 124}}, /* mountain grey */
        {1.00, {236, 236, 236}}, /* snow line */
    };
    static const uint8_t peak[3] = {255, 255, 255};
    enum { NSTOP = sizeof stop / sizeof stop[0] };
    for (int i = 1; i < NSTOP; i++) {
        double hi = stop[i].at * snow;
        if (t <= hi) {
            double lo = stop[i - 1].at * snow;
            mix(stop[i - 1].c, stop[i].c, hi > lo ? (t - lo) / (hi - lo) : 1.0, out);
            return;
        }
    }
    mix(stop[NSTOP - 1].c, peak, snow < 1.0 ? (t - snow) / (1.0 - snow) : 1.0, out);
}

/* The surface the sun sees: water is flat at sea level. */
static double surface_at(const int32_t *heights, size_t i, int sea_level)
{
    int32_t v = heights[i];
    return v < sea_level ? (double)sea_level : (double)v;
}

/* the ramp's parameters: span of land heights above sea level and the snow line */
static void ramp(int min_y, int height, int sea_level, double *span, double *snow)
{
    double top = (double)min_y + (double)height - 1.0;
    *span = top - (double)sea_level;
    *snow = *span > 0 ? ((double)min_y + 0.75 * (double)height - (double)sea_level) / *span : 1.0;
    if (*snow < 0.05) *snow = 0.05;
    if (*snow > 1.0) *snow = 1.0;
}

/* hillshade factor at (x, z) of a surface given by surf(i) */
#define SLOPE(SURF)                                                                                      \
    do {                                                                                                 \
        int xw = x > 0 ? x - 1 : x, xe = x < nx - 1 ? x + 1 : x;                                         \
        int zn = z > 0 ? z - 1 : z, zs = z < nz - 1 ? z + 1 : z;                                         \
        size_t row = (size_t)z * (size_t)nx;                                                             \
        fx = xe > xw ? (SURF(row + (size_t)xe) - SURF(row + (size_t)xw)) / (double)(xe - xw) : 0.0;      \
        fz = zs > zn ? (SURF((size_t)zs * (size_t)nx + (size_t)x) - SURF((size_t)zn * (size_t)nx + (size_t)x)) / \
                           (double)(zs - zn)                                                             \
                     : 0.0;                                                                              \
    } while (0)

/* normal (-fx, 1, -fz) against the sun (-0.5, sin45, -0.5): slopes rising towards
 * +x +z face the north-west sun; flat ground keeps the ramp colour */
static double hillshade(double fx, double fz)
{
    const double sin45 = 0.70710678118654752440; /* sun 45 degrees up; also its x and z weights are 0.5 */
    double shade = (0.5 * fx + 0.5 * fz + sin45) / sqrt(1.0 + fx * fx + fz * fz);
    if (shade < 0.0) shade = 0.0;
    return 0.3 + 0.7 * (shade / sin45);
}

static const uint8_t shallow[3] = {64, 128, 200}, deep[3] = {12, 36, 100};
static const double depth_full = 64.0; /* water is darkest from this depth down */

const uint8_t image_void_rgb[3] = {16, 14, 22};
static const uint8_t lava_rgb[3] = {214, 96, 18};

int image_sea_of(const char *fluid)
{
    if (!fluid || strcmp(fluid, "minecraft:water") == 0) return IMAGE_WATER;
    if (strcmp(fluid, "minecraft:lava") == 0) return IMAGE_LAVA;
    return IMAGE_VOID;
}

void image_relief(const int32_t *heights, int nx, int nz, int min_y, int height, int sea_level, uint8_t *rgb)
{
    image_relief_sea(heights, nx, nz, min_y, height, sea_level, IMAGE_WATER, rgb);
}

void image_relief_sea(const int32_t *heights, int nx, int nz, int min_y, int height, int sea_level, int sea,
                      uint8_t *rgb)
{
    if (nx <= 0 || nz <= 0) return;
    double span, snow;
    ramp(min_y, height, sea_level, &span, &snow);
#define SURF(i) surface_at(heights, (i), sea_level)
    for (int z = 0; z < nz; z++) {
        for (int x = 0; x < nx; x++) {
            size_t i = (size_t)z * (size_t)nx + (size_t)x;
            uint8_t *px = rgb + 3 * i;
            double c[3];
            int32_t hv = heights[i];
            if (sea == IMAGE_VOID && hv < min_y) {
                memcpy(px, image_void_rgb, 3);
                continue;
            }
            if (sea == IMAGE_LAVA && hv < sea_level) {
                memcpy(px, lava_rgb, 3);
                continue;
            }
            if (sea == IMAGE_WATER && hv < sea_level) {
                double d = (double)sea_level - (double)hv;
                mix(shallow, deep, d >= depth_full ? 1.0 : d / depth_full, c);
                put_rgb(px, c, 1.0);
                continue;
            }
            double fx, fz;
            SLOPE(SURF);
            double t = span > 0 ? ((double)hv - (double)sea_level) / span : 1.0;
            if (t > 1.0) t = 1.0;
            if (t < 0.0) t = 0.0; /* IMAGE_VOID: below sea level is land */
            land_colour(t, snow, c);
            put_rgb(px, c, hillshade(fx, fz));
        }
    }
#undef SURF
}

void image_shade(const int32_t *heights, const uint8_t *base, int nx, int nz, int sea_level, uint8_t *rgb)
{
    if (nx <= 0 || nz <= 0) return;
#define SURF(i) surface_at(heights, (i), sea_level)
    for (int z = 0; z < nz; z++)
        for (int x = 0; x < nx; x++) {
            size_t i = (size_t)z * (size_t)nx + (size_t)x;
            double fx, fz, c[3] = {base[3 * i], base[3 * i + 1], base[3 * i + 2]};
            SLOPE(SURF);
            put_rgb(rgb + 3 * i, c, hillshade(fx, fz));
        }
#undef SURF
}

void image_relief_fluids(const int32_t *ground, const int32_t *top, const uint8_t *kind, int nx, int nz, int min_y,
                         int height, int sea_level, uint8_t *rgb)
{
    if (nx <= 0 || nz <= 0) return;
    double span, snow;
    ramp(min_y, height, sea_level, &span, &snow);
#define SURF(i) (double)top[i]
    for (int z = 0; z < nz; z++) {
        for (int x = 0; x < nx; x++) {
            size_t i = (size_t)z * (size_t)nx + (size_t)x;
            uint8_t *px = rgb + 3 * i;
            double c[3];
            if (kind[i] == IMAGE_VOID || kind[i] == IMAGE_LAVA) {
                memcpy(px, kind[i] == IMAGE_VOID ? image_void_rgb : lava_rgb, 3);
                continue;
            }
            if (kind[i] == IMAGE_WATER) {
                double d = (double)top[i] - (double)ground[i];
                mix(shallow, deep, d >= depth_full ? 1.0 : d / depth_full, c);
                put_rgb(px, c, 1.0);
                continue;
            }
            double fx, fz;
            SLOPE(SURF);
            double t = span > 0 ? ((double)ground[i] - (double)sea_level) / span : 1.0;
            if (t > 1.0) t = 1.0;
            if (t < 0.0) t = 0.0;
            land_colour(t, snow, c);
            put_rgb(px, c, hillshade(fx, fz));
        }
    }
#undef SURF
}

void image_slice(const float *density, int n, int h, int min_y, int sea_level, int mode, uint8_t *rgb)
{
    image_slice_sea(density, n, h, min_y, sea_level, IMAGE_WATER, mode, rgb);
}

void image_slice_sea(const float *density, int n, int h, int min_y, int sea_level, int sea, int mode, uint8_t *rgb)
{
    static const uint8_t solid[3] = {128, 112, 92}, sky[3] = {150, 200, 240}, blue[3] = {40, 90, 190};
    const uint8_t *water = sea == IMAGE_LAVA ? lava_rgb : sea == IMAGE_VOID ? sky : blue;
    static const uint8_t white[3] = {255, 255, 255}, neg[3] = {24, 64, 216}, pos[3] = {216, 32, 24};
    if (n <= 0 || h <= 0) return;
    for (int r = 0; r < h; r++) {
        int y = h - 1 - r;
        for (int i = 0; i < n; i++) {
            float d = density[(size_t)y * (size_t)n + (size_t)i];
            uint8_t *px = rgb + 3 * ((size_t)r * (size_t)n + (size_t)i);
            if (mode == IMAGE_SLICE_MATERIAL) {
                memcpy(px, d > 0.0f ? solid : (long)min_y + y >= (long)sea_level ? sky : water, 3);
            } else if (d != d) {
                memset(px, 0, 3); /* NaN */
            } else {
                double a = d < 0.0f ? -(double)d : (double)d, c[3];
                mix(white, d < 0.0f ? neg : pos, a >= 1.0 ? 1.0 : a, c);
                put_rgb(px, c, 1.0);
            }
        }
    }
}

/* ------------------------------------------------------------------ scaling */

int image_scaled_size(int w, int s)
{
    if (s < 1) s = 1;
    if (w <= 0) return 0;
    return w / s + (w % s != 0);
}

void image_downsample(const void *src, int w, int h, size_t elem, int s, void *dst)
{
    if (s < 1) s = 1;
    int ow = image_scaled_size(w, s), oh = image_scaled_size(h, s);
    const unsigned char *in = src;
    unsigned char *out = dst;
    for (int z = 0; z < oh; z++)
        for (int x = 0; x < ow; x++)
            memcpy(out + ((size_t)z * (size_t)ow + (size_t)x) * elem,
                   in + ((size_t)z * (size_t)s * (size_t)w + (size_t)x * (size_t)s) * elem, elem);
}
