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

#endif
