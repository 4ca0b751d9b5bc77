/* Internal entry of the directory service for hc_platform_load (src/net/directory.c). */
#ifndef HETCOLL_DIRECTORY_INTERNAL_H
#define HETCOLL_DIRECTORY_INTERNAL_H

#include "../core/internal.h"

/* Load the platform of a "dir:" spec; `spec` is the text after "dir:", either FILE or
 * "max-age=SECONDS:FILE" (HC_ERR_STALE when the file is older than SECONDS). */
int hc__directory_load_spec(const char *spec, hc_platform_t **out);

#endif
