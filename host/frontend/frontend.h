/* frontend.h - the one table of front-ends (registry.c). Each front-end defines one
 * cf_frontend record (ir/ir.h) in its own folder; nothing outside frontend/ names a
 * front-end's functions: the library asks frontend_find once per request and calls
 * the record's parse, the back ends reach a program's front-end through p->fe.
 */
#ifndef CF_FRONTEND_H
#define CF_FRONTEND_H

#include "ir/ir.h"

/* every front-end, in the order requests are offered to them; the last one
 * (Minecraft 26.3) takes whatever no other claims */
extern const cf_frontend *const cf_frontends[];
extern const int cf_nfrontends;

/* the front-end of a request: the first whose prefix names the settings or a
 * function, or whose claims says yes */
const cf_frontend *frontend_find(cf_pack *pk, const char *settings_id, const char *const *functions, int n);

/* rules.c: a surface rule (1.18-1.21 surface_rule, 26.3 material_rule) into p->rules (ir/rules.h).
 * The front-end supplies what the rule table needs from its own format. */
struct cJSON;
typedef struct fr_host {
    cf_program *p;
    cf_pack *pk;
    cf_error *err;
    int f32; /* 26.3 material rules (references, id-string block states, tags, ore_vein) */
    void *ctx;
    /* a program output index reading noise `id` (a JSON string) at (x*xz, y, z*xz); -1 with err set */
    int (*noise)(void *ctx, const struct cJSON *id, cf_loc at, double xz);
    /* a program output index of a density function (26.3 ore_vein); -1 with err set */
    int (*function)(void *ctx, const struct cJSON *v, cf_loc at);
    /* 26.3: the registry entry `id` of kind "material_rule"/"material_condition" (*at: its
     * location), or NULL (err set when the file was bad, else unresolved) */
    const struct cJSON *(*ref)(void *ctx, const char *kind, const char *id, cf_loc *at);
} fr_host;
cf_status rules_compile(const fr_host *h, const struct cJSON *rule, cf_loc at);

#endif
