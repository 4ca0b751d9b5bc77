/* hc_platform_parse on arbitrary text; a parsed platform is exported and parsed again, and the
 * two must agree (round trip). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>

#include "fuzz_common.h"
#include "hetcoll/hetcoll.h"

/* Platforms of at most 64 nodes: the library's default cap (16384) is for real use, and a
 * few-byte cluster form may legitimately ask for it; what is fuzzed is the parsing. (At 256
 * nodes a cluster form with links has 65280 routes, whose round trip took 1.3 s under ASan and
 * hit the 5 s timeout on a loaded machine.) */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("HETCOLL_MAX_NODES", "64", 1);
    return 0;
}

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
