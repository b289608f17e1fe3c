/* block_colors.c - the blocks map layer's colour per block id: chunkfill's own table
 * (written for this project, not taken from the game or another map: an eyeballed average
 * of each block's top face), one row per block that vanilla's noise stage (default blocks,
 * fluids, aquifer barriers), ore veins (1.18-1.21), surface rules (overworld, badlands
 * terracotta bands, nether, end) and the frozen-ocean extension can leave on top of a
 * column, plus a few common mod-pack defaults. Sorted by id (binary search); a test checks
 * the order. A state ("[snowy=false]") is ignored. Unknown ids: magenta (image_block_colour returns 0 and the map counts them). */
#include <string.h>

#include "image/image.h"

static const struct {
    const char *id;
    uint8_t rgb[3];
} colours[] = {
    {"minecraft:andesite", {136, 137, 136}},
    {"minecraft:basalt", {81, 81, 87}},
    {"minecraft:bedrock", {84, 84, 84}},
    {"minecraft:black_terracotta", {37, 23, 17}},
    {"minecraft:blackstone", {42, 36, 41}},
    {"minecraft:blue_ice", {116, 168, 252}},
    {"minecraft:blue_terracotta", {74, 60, 91}},
    {"minecraft:brown_terracotta", {77, 51, 36}},
    {"minecraft:calcite", {223, 224, 221}},
    {"minecraft:cinnabar", {158, 52, 44}},
    {"minecraft:clay", {160, 166, 178}},
    {"minecraft:coarse_dirt", {119, 86, 60}},
    {"minecraft:copper_ore", {124, 126, 114}},
    {"minecraft:crimson_nylium", {131, 31, 32}},
    {"minecraft:cyan_terracotta", {87, 91, 91}},
    {"minecraft:deepslate", {80, 80, 83}},
    {"minecraft:deepslate_iron_ore", {106, 100, 96}},
    {"minecraft:diorite", {189, 188, 189}},
    {"minecraft:dirt", {134, 96, 67}},
    {"minecraft:dripstone_block", {134, 107, 92}},
    {"minecraft:end_stone", {219, 222, 158}},
    {"minecraft:granite", {149, 103, 86}},
    {"minecraft:grass_block", {95, 151, 62}},
    {"minecraft:gravel", {132, 127, 126}},
    {"minecraft:gray_terracotta", {58, 42, 36}},
    {"minecraft:green_terracotta", {76, 83, 42}},
    {"minecraft:ice", {146, 184, 253}},
    {"minecraft:lava", {208, 92, 20}},
    {"minecraft:light_blue_terracotta", {113, 109, 138}},
    {"minecraft:light_gray_terracotta", {135, 107, 98}},
    {"minecraft:lime_terracotta", {104, 118, 53}},
    {"minecraft:magenta_terracotta", {150, 88, 109}},
    {"minecraft:magma_block", {142, 63, 31}},
    {"minecraft:moss_block", {89, 110, 45}},
    {"minecraft:mud", {60, 57, 61}},
    {"minecraft:mycelium", {112, 99, 106}},
    {"minecraft:nether_wart_block", {115, 3, 2}},
    {"minecraft:netherrack", {98, 38, 38}},
    {"minecraft:obsidian", {16, 11, 26}},
    {"minecraft:orange_terracotta", {162, 84, 38}},
    {"minecraft:packed_ice", {128, 166, 236}},
    {"minecraft:pink_terracotta", {162, 78, 79}},
    {"minecraft:podzol", {91, 63, 29}},
    {"minecraft:powder_snow", {240, 246, 250}},
    {"minecraft:purple_terracotta", {118, 70, 86}},
    {"minecraft:raw_copper_block", {154, 106, 79}},
    {"minecraft:raw_iron_block", {166, 136, 107}},
    {"minecraft:red_sand", {191, 103, 33}},
    {"minecraft:red_sandstone", {182, 98, 31}},
    {"minecraft:red_terracotta", {143, 61, 47}},
    {"minecraft:sand", {219, 207, 163}},
    {"minecraft:sandstone", {216, 203, 156}},
    {"minecraft:smooth_basalt", {72, 72, 78}},
    {"minecraft:snow_block", {249, 254, 254}},
    {"minecraft:soul_sand", {81, 62, 51}},
    {"minecraft:soul_soil", {76, 58, 47}},
    {"minecraft:stone", {125, 125, 125}},
    {"minecraft:sulfur", {196, 186, 72}},
    {"minecraft:terracotta", {152, 94, 68}},
    {"minecraft:tuff", {108, 109, 103}},
    {"minecraft:warped_nylium", {43, 114, 101}},
    {"minecraft:warped_wart_block", {23, 120, 121}},
    {"minecraft:water", {56, 98, 210}},
    {"minecraft:white_terracotta", {210, 178, 161}},
    {"minecraft:yellow_terracotta", {186, 133, 36}},
};

int image_block_colour(const char *id, uint8_t rgb[3])
{
    size_t lo = 0, hi = sizeof colours / sizeof colours[0], len = id ? strcspn(id, "[") : 0; /* the id without its state */
    while (id && lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(id, colours[mid].id, len);
        if (c == 0 && colours[mid].id[len]) c = -1; /* id is a prefix of the row's */
        if (c == 0) return memcpy(rgb, colours[mid].rgb, 3), 1;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    rgb[0] = 255, rgb[1] = 0, rgb[2] = 255; /* unknown: magenta */
    return 0;
}

const char *image_block_colour_id(size_t i) { return i < sizeof colours / sizeof colours[0] ? colours[i].id : NULL; }
