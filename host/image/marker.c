/* marker.c - map markers (structure starts on `render --structures` and in the viewer): a
 * 9 x 9 square centred on a pixel, a black outline around a colour, a 3 x 5 letter inside.
 * The colour comes from a hash of a name (FNV-1a, 32 bits) into a palette of 12; the viewer
 * (host/api/viewer.html) computes the same colour and letter for its markers. Nothing allocates. */
#include <ctype.h>

#include "image/image.h"

/* 3 x 5 capitals, a row a byte (bit 2 the left pixel); index 26: anything else ('?') */
static const uint8_t glyphs[27][5] = {
    {2, 5, 7, 5, 5},
    {6, 5, 6, 5, 6},
    {3, 4, 4, 4, 3},
    {6, 5, 5, 5, 6},
    {7, 4, 6, 4, 7},
    {7, 4, 6, 4, 4},
    {3, 4, 5, 5, 3},
    {5, 5, 7, 5, 5},
    {7, 2, 2, 2, 7},
    {1, 1, 1, 5, 2},
    {5, 5, 6, 5, 5},
    {4, 4, 4, 4, 7},
    {5, 7, 7, 5, 5},
    {6, 5, 5, 5, 5},
    {2, 5, 5, 5, 2},
    {6, 5, 6, 4, 4},
    {2, 5, 5, 6, 3},
    {6, 5, 6, 5, 5},
    {3, 4, 2, 1, 6},
    {7, 2, 2, 2, 2},
    {5, 5, 5, 5, 7},
    {5, 5, 5, 5, 2},
    {5, 5, 7, 7, 5},
    {5, 5, 2, 5, 5},
    {5, 5, 2, 2, 2},
    {7, 1, 2, 4, 7},
    {6, 1, 2, 0, 2},
};

static const uint8_t palette[IMAGE_MARKER_COLOURS][3] = {
    {230, 25, 75},
    {60, 180, 75},
    {255, 225, 25},
    {0, 130, 200},
    {245, 130, 48},
    {145, 30, 180},
    {70, 240, 240},
    {240, 50, 230},
    {210, 245, 60},
    {250, 190, 212},
    {0, 128, 128},
    {170, 110, 40},
};

void image_marker_style(const char *name, const char *colour_key, char *letter, uint8_t rgb[3])
{
    const char *p = name;
    for (const char *c = name; *c; c++)
        if (*c == ':') p = c + 1;
    int l = toupper((unsigned char)*p);
    *letter = (char)(l >= 'A' && l <= 'Z' ? l : '?');
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)colour_key; *c; c++) h = (h ^ *c) * 16777619u;
    const uint8_t *k = palette[h % IMAGE_MARKER_COLOURS];
    rgb[0] = k[0], rgb[1] = k[1], rgb[2] = k[2];
}

static void put(uint8_t *rgb, int w, int h, int x, int y, const uint8_t c[3])
{
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    uint8_t *p = rgb + ((size_t)y * (size_t)w + (size_t)x) * 3;
    p[0] = c[0], p[1] = c[1], p[2] = c[2];
}

void image_marker(uint8_t *rgb, int w, int h, int cx, int cy, char letter, const uint8_t fill[3])
{
    static const uint8_t black[3] = {0, 0, 0}, white[3] = {255, 255, 255};
    int r = IMAGE_MARKER_SIZE / 2;
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) put(rgb, w, h, cx + dx, cy + dy, dx == -r || dx == r || dy == -r || dy == r ? black : fill);
    int g = letter >= 'A' && letter <= 'Z' ? letter - 'A' : 26;
    /* the letter in black on light colours, white on dark (luma in 1/1000ths) */
    const uint8_t *ink = 299 * fill[0] + 587 * fill[1] + 114 * fill[2] > 140000 ? black : white;
    for (int row = 0; row < 5; row++)
        for (int col = 0; col < 3; col++)
            if (glyphs[g][row] & (4 >> col)) put(rgb, w, h, cx - 1 + col, cy - 2 + row, ink);
}
