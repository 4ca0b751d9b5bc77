/* hc_platform_parse on arbitrary text; a parsed platform is exported and parsed again, and the
 * two must agree (round trip). */
#include <stdio.h>

#include "fuzz_common.h"
#include "hetcoll/hetcoll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *t = fuzz_text(data, size);
    hc_platform_t *p = NULL, *q = NULL;
    if (t && hc_platform_parse(t, "fuzz", &p) == HC_OK) {
        char *json = NULL;
        if (hc_platform_to_json(p, &json) == HC_OK) {
            if (hc_platform_parse(json, "fuzz-roundtrip", &q) != HC_OK ||
                hc_platform_size(q) != hc_platform_size(p))
                abort(); /* what we write, we read back */
            free(json);
        }
    }
    hc_platform_destroy(q);
    hc_platform_destroy(p);
    free(t);
    return 0;
}
