/* mcfiles.c - the data-pack files of the Minecraft front-ends (see mcfiles.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/mcfiles.h"

int mc_files_init(mc_files *m, cf_program *p, cf_pack *pk, cf_fields *f)
{
    memset(m, 0, sizeof *m);
    m->p = p, m->pk = pk, m->f = f;
    m->chain = calloc((size_t)pk->lim.max_depth + 1, sizeof(char *));
    return m->chain ? 0 : field_nomem(f);
}

void mc_files_free(mc_files *m)
{
    for (int i = 0; i < m->nfiles; i++) cJSON_Delete(m->files[i].root);
    free(m->files);
    free(m->chain);
    m->files = NULL, m->chain = NULL, m->nfiles = m->capfiles = 0;
}

int mc_split_id(const cf_fields *f, cf_loc at, const char *s, char ns[128], char path[384])
{
    const char *colon = strchr(s, ':');
    const char *p = colon ? colon + 1 : s;
    size_t nl = colon ? (size_t)(colon - s) : strlen("minecraft");
    const char *n = colon ? s : "minecraft";
    if (nl == 0 || nl >= 128 || strlen(p) == 0 || strlen(p) >= 384) return field_fail(f, at, CF_ERR_SCHEMA, "invalid id \"%.80s\"", s);
    for (size_t i = 0; i < nl; i++)
        if (!(islower((unsigned char)n[i]) || isdigit((unsigned char)n[i]) || strchr("_.-", n[i])))
            return field_fail(f, at, CF_ERR_SCHEMA, "invalid id \"%.80s\": bad character in namespace", s);
    for (const char *q = p; *q; q++)
        if (!(islower((unsigned char)*q) || isdigit((unsigned char)*q) || strchr("_.-/", *q)))
            return field_fail(f, at, CF_ERR_SCHEMA, "invalid id \"%.80s\": bad character in path", s);
    for (const char *seg = p;;) { /* segments: not empty, not "." or ".." */
        const char *e = strchr(seg, '/');
        size_t l = e ? (size_t)(e - seg) : strlen(seg);
        if (l == 0 || (l == 1 && seg[0] == '.') || (l == 2 && seg[0] == '.' && seg[1] == '.'))
            return field_fail(f, at, CF_ERR_SCHEMA, "invalid id \"%.80s\": empty, \".\" or \"..\" path segment", s);
        if (!e) break;
        seg = e + 1;
    }
    memcpy(ns, n, nl);
    ns[nl] = 0;
    strcpy(path, p);
    return 0;
}

const char *mc_full_id(mc_files *m, cf_loc at, const char *s)
{
    char ns[128], path[384], id[520];
    if (mc_split_id(m->f, at, s, ns, path) < 0) return NULL;
    snprintf(id, sizeof id, "%s:%s", ns, path);
    const char *out = arena_strdup(&m->p->arena, id);
    if (!out) field_nomem(m->f);
    return out;
}

mc_file *mc_load(mc_files *m, const char *kind, const char *ns, const char *path)
{
    char id[520], rel[1024];
    snprintf(id, sizeof id, "%s:%s", ns, path);
    for (int i = 0; i < m->nfiles; i++)
        if (strcmp(m->files[i].kind, kind) == 0 && strcmp(m->files[i].id, id) == 0) return &m->files[i];
    if ((size_t)snprintf(rel, sizeof rel, "data/%s/worldgen/%s/%s.json", ns, kind, path) >= sizeof rel) return NULL;
    cJSON *root = NULL;
    const char *display = NULL;
    if (json_load_rel(&m->p->arena, m->pk, rel, &root, &display, m->f->err) <= 0) return NULL;
    if (m->nfiles == m->capfiles) {
        int cap = m->capfiles ? m->capfiles * 2 : 32;
        mc_file *nf = realloc(m->files, sizeof *nf * (size_t)cap);
        if (!nf) {
            cJSON_Delete(root);
            field_nomem(m->f);
            return NULL;
        }
        m->files = nf, m->capfiles = cap;
    }
    mc_file *f = &m->files[m->nfiles++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->id = arena_strdup(&m->p->arena, id);
    f->display = display;
    f->root = root;
    f->node = -1;
    if (!f->id) {
        field_nomem(m->f);
        return NULL;
    }
    return f;
}

mc_file *mc_settings(mc_files *m, const char *settings_id)
{
    cf_loc cli = {"<arguments>", NULL};
    char ns[128], path[384];
    if (mc_split_id(m->f, cli, settings_id ? settings_id : "", ns, path) < 0) return NULL;
    mc_file *sf = mc_load(m, "noise_settings", ns, path);
    if (!sf && !err_failed(m->f->err))
        err_set(m->f->err, CF_ERR_REF, "%s:%s: no such noise settings (no data/%s/worldgen/noise_settings/%s.json in any pack)", ns, path,
                ns, path);
    return sf;
}

int mc_noise_file(mc_files *m, const cJSON *v, cf_loc at, int *existing, mc_file **file)
{
    *existing = -1, *file = NULL;
    if (cJSON_IsObject(v)) return field_fail(m->f, at, CF_ERR_SCHEMA, "inline noise definitions are not supported: reference a noise by id");
    if (!cJSON_IsString(v)) return field_fail(m->f, at, CF_ERR_SCHEMA, "expected a noise id (a string), found %s", json_type(v));
    char ns[128], path[384], id[520];
    if (mc_split_id(m->f, at, v->valuestring, ns, path) < 0) return -1;
    snprintf(id, sizeof id, "%s:%s", ns, path);
    for (int i = 0; i < m->p->nnoises; i++)
        if (strcmp(m->p->noises[i].id, id) == 0) return *existing = i, 0;
    mc_file *f = mc_load(m, "noise", ns, path);
    if (!f) {
        if (err_failed(m->f->err)) return -1;
        return field_fail(m->f, at, CF_ERR_REF, "unresolved reference to noise \"%s\" (no data/%s/worldgen/noise/%s.json in any pack)", id, ns,
                          path);
    }
    if (!cJSON_IsObject(f->root))
        return field_fail(m->f, (cf_loc){f->display, NULL}, CF_ERR_SCHEMA, "expected a noise definition (an object), found %s",
                          json_type(f->root));
    *file = f;
    return 0;
}

int mc_reference(mc_files *m, const char *id, cf_loc at, mc_parse_fn parse, void *ctx)
{
    char ns[128], path[384];
    if (mc_split_id(m->f, at, id, ns, path) < 0) return -1;
    mc_file *f = mc_load(m, "density_function", ns, path);
    if (!f) {
        if (err_failed(m->f->err)) return -1;
        return field_fail(m->f, at, CF_ERR_REF,
                          "unresolved reference to density function \"%s:%s\" (no data/%s/worldgen/density_function/%s.json in any pack)%s", ns,
                          path, ns, path,
                          strcmp(ns, "minecraft") == 0 ? ": a pack that builds on vanilla needs the vanilla data of its version under it "
                                                         "(--pack VANILLA --pack PACK)"
                                                       : ": is a pack missing from --pack?");
    }
    if (f->state == 2) return f->node;
    if (f->state == 1) {
        char chain[512];
        cycle_text(chain, sizeof chain, (const char *const *)m->chain, m->nchain, f->id);
        return field_fail(m->f, at, CF_ERR_CYCLE, "reference cycle: %s", chain);
    }
    if (m->nchain >= m->pk->lim.max_depth)
        return field_fail(m->f, at, CF_ERR_LIMIT, "references nested deeper than %d (the limit: --max-depth, cf_limits.max_depth)",
                          m->pk->lim.max_depth);
    f->state = 1;
    const char *fid = f->id;
    const cJSON *root = f->root;
    m->chain[m->nchain++] = fid;
    int node = parse(ctx, root, (cf_loc){f->display, NULL});
    m->nchain--;
    for (int i = 0; i < m->nfiles; i++) /* m->files may have moved while parsing */
        if (m->files[i].id == fid) {
            m->files[i].state = node < 0 ? 1 : 2;
            m->files[i].node = node;
        }
    return node;
}

int mc_mod_type(const cf_fields *f, cf_loc ta, const char *type, const cJSON *o)
{
    const char *name = strncmp(type, "minecraft:", 10) == 0 ? type + 10 : type;
    if (!strchr(name, ':')) return 0;
    char sel[160] = "";
    const cJSON *only = NULL;
    int others = 0;
    for (const cJSON *k = o->child; k; k = k->next)
        if (strcmp(k->string, "type") != 0) others++, only = k;
    if (others == 1 && cJSON_IsString(only) && strlen(only->string) + strlen(only->valuestring) < 120)
        snprintf(sel, sizeof sel, "[%.70s=%.80s]", only->string, only->valuestring);
    return field_fail(f, ta, CF_ERR_SCHEMA,
                      "unknown density function type \"%s\": a mod's own type (its Java code defines it, no data file does); "
                      "give it a constant with --define %s%s=VALUE",
                      type, type, sel);
}
