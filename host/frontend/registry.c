/* registry.c - the one table of front-ends, and how a request finds its own.
 *
 * A request is (packs, settings id, functions). Front-ends are asked in table
 * order; each answers by data (its id prefix) and, where that is not enough (the
 * default request on a pack of its files, a settings file's format), by its claims
 * callback. Minecraft 26.3 comes last and takes the rest.
 */
#include <string.h>

#include "frontend/frontend.h"

extern const cf_frontend cf_frontend_iris, cf_frontend_hytale, cf_frontend_libnoise, cf_frontend_mc121,
    cf_frontend_mc263;

const cf_frontend *const cf_frontends[] = {&cf_frontend_iris, &cf_frontend_hytale, &cf_frontend_libnoise,
                                           &cf_frontend_mc121, &cf_frontend_mc263};
const int cf_nfrontends = (int)(sizeof cf_frontends / sizeof cf_frontends[0]);

static int has_prefix(const char *s, const char *prefix) { return s && strncmp(s, prefix, strlen(prefix)) == 0; }

static int claimed(const cf_frontend *fe, cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    if (fe->prefix) {
        if (has_prefix(settings_id, fe->prefix)) return 1;
        for (int i = 0; i < n; i++)
            if (has_prefix(functions[i], fe->prefix)) return 1;
    }
    return fe->claims && fe->claims(pk, settings_id, functions, n);
}

const cf_frontend *frontend_find(cf_pack *pk, const char *settings_id, const char *const *functions, int n)
{
    for (int i = 0; i < cf_nfrontends - 1; i++)
        if (claimed(cf_frontends[i], pk, settings_id, functions, n)) return cf_frontends[i];
    return cf_frontends[cf_nfrontends - 1];
}
