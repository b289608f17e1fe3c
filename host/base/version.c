/* version.c - the game version of the packs: the versions chunkfill knows (the world data
 * version each writes, the data pack format each reads), found in a jar's version.json
 * ("id", "world_version"), else in a pack's pack.mcmeta (pack_format, or max_format), else
 * unknown (the callers then follow the dialect: 26.3, or 1.21.11 for 1.18-1.21 data); or set
 * by the caller (pack_set_game_version, `--version`).
 * Data versions: minecraft-data's protocolVersions.json (host/pregen/ANVIL.md#data-versions);
 * pack formats: the Minecraft Wiki's "Pack format" table; 26.x, the data_major of the game's own
 * version.json ("pack_version": {"data_major", "data_minor"}), as public copies of it quote it:
 * 26.1 101.1 (its changelog: "The Data Pack version is now 101.1"), 26.2 107.1 (26.2's version.json,
 * world_version 4903), 26.3 121.0 (26.3's version.json, protocol 777). A pack names the major
 * (pack_format, or max_format [major, minor] since 1.21.9), so the table holds majors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/base.h"

static const struct {
    const char *id;
    int data_version, pack_format;
} known[] = {
    {"1.18", 2860, 8},      {"1.18.1", 2865, 8},    {"1.18.2", 2975, 9},    {"1.19", 3105, 10},     {"1.19.1", 3117, 10},
    {"1.19.2", 3120, 10},   {"1.19.3", 3218, 10},   {"1.19.4", 3337, 12},   {"1.20", 3463, 15},     {"1.20.1", 3465, 15},
    {"1.20.2", 3578, 18},   {"1.20.3", 3698, 26},   {"1.20.4", 3700, 26},   {"1.20.5", 3837, 41},   {"1.20.6", 3839, 41},
    {"1.21", 3953, 48},     {"1.21.1", 3955, 48},   {"1.21.2", 4080, 57},   {"1.21.3", 4082, 57},   {"1.21.4", 4189, 61},
    {"1.21.5", 4325, 71},   {"1.21.6", 4435, 80},   {"1.21.7", 4438, 81},   {"1.21.8", 4440, 81},   {"1.21.9", 4554, 88},
    {"1.21.10", 4556, 88},  {"1.21.11", 4671, 94},  {"26.1", 4786, 101},    {"26.2", 4903, 107},    {"26.3", 5023, 121},
};
enum { NKNOWN = sizeof known / sizeof known[0] };

int game_version_data(const char *id)
{
    for (int i = 0; id && i < NKNOWN; i++)
        if (strcmp(known[i].id, id) == 0) return known[i].data_version;
    return 0;
}

/* the known versions, for messages */
static const char *game_version_list(void) { return "1.18 ... 1.21.11, 26.1, 26.2, 26.3"; }

/* the newest known version that reads data pack format f, or NULL */
static const char *of_pack_format(int f)
{
    const char *v = NULL;
    for (int i = 0; i < NKNOWN; i++)
        if (known[i].pack_format == f) v = known[i].id;
    return v;
}

/* version.json of pack i: 1 (found: *id, *dv), 0 (absent or without an id), -1 (err) */
static int from_version_json(cf_pack *pk, int i, const char **id, int *dv, const char **from, cf_error *err)
{
    cJSON *root = NULL;
    const char *display = NULL;
    int r = json_load_rel_in(&pk->arena, pk, i, "version.json", &root, &display, err);
    if (r <= 0) return r;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(root, "id");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(root, "world_version");
    r = 0;
    if (cJSON_IsString(j) && j->valuestring[0] && strlen(j->valuestring) < 64) {
        *id = arena_strdup(&pk->arena, j->valuestring);
        *dv = cJSON_IsNumber(w) && w->valuedouble >= 1 && w->valuedouble < 1e9 ? (int)w->valuedouble : game_version_data(*id);
        *from = display;
        r = *id ? 1 : (err_set(err, CF_ERR_NOMEM, "out of memory"), -1);
    }
    cJSON_Delete(root);
    return r;
}

/* pack.mcmeta of pack i: its pack.pack_format (or the major of pack.max_format) when a known
 * version reads it */
static int from_pack_mcmeta(cf_pack *pk, int i, const char **id, int *dv, const char **from, cf_error *err)
{
    cJSON *root = NULL;
    const char *display = NULL;
    int r = json_load_rel_in(&pk->arena, pk, i, "pack.mcmeta", &root, &display, err);
    if (r <= 0) return r;
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, "pack");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(p, "max_format");
    if (!f) f = cJSON_GetObjectItemCaseSensitive(p, "pack_format");
    if (cJSON_IsArray(f)) f = cJSON_GetArrayItem(f, 0);
    r = 0;
    if (cJSON_IsNumber(f) && (*id = of_pack_format((int)f->valuedouble))) {
        *dv = game_version_data(*id);
        *from = display;
        r = 1;
    }
    cJSON_Delete(root);
    return r;
}

const char *pack_game_version(cf_pack *pk, int *data_version, const char **from)
{
    if (!pk->gv_done) {
        pk->gv_done = 1;
        cf_error e = {0};
        int r = 0;
        /* version.json first (the game jar), last pack first; then pack.mcmeta */
        for (int i = pk->n - 1; i >= 0 && r == 0; i--) r = from_version_json(pk, i, &pk->gv_id, &pk->gv_data, &pk->gv_from, &e);
        for (int i = pk->n - 1; i >= 0 && r == 0; i--) r = from_pack_mcmeta(pk, i, &pk->gv_id, &pk->gv_data, &pk->gv_from, &e);
        if (r != 1) pk->gv_id = NULL, pk->gv_data = 0, pk->gv_from = NULL;
    }
    if (data_version) *data_version = pk->gv_data;
    if (from) *from = pk->gv_from;
    return pk->gv_id;
}

cf_status pack_set_game_version(cf_pack *pk, const char *version, cf_error *err)
{
    int dv = game_version_data(version);
    if (!dv)
        return err_set(err, CF_ERR_ARG, "--version %.60s: not a game version chunkfill knows (%s)", version ? version : "(null)",
                       game_version_list());
    pk->gv_done = 1;
    pk->gv_id = arena_strdup(&pk->arena, version);
    pk->gv_data = dv;
    pk->gv_from = "--version";
    return pk->gv_id ? CF_OK : err_set(err, CF_ERR_NOMEM, "out of memory");
}
