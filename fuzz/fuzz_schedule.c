/* hc_schedule_parse; a parsed schedule is validated for its structure and must survive a JSON
 * round trip with the same events. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "fuzz_common.h"
#include "hetcoll/hetcoll.h"

/* Platforms of at most 256 nodes: the library's default cap (16384) is for real use, and a
 * few-byte cluster form may legitimately ask for it; what is fuzzed is the parsing. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("HETCOLL_MAX_NODES", "256", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *t = fuzz_text(data, size);
    hc_schedule_t *s = NULL, *r = NULL;
    if (t && hc_schedule_parse(t, "fuzz", &s) == HC_OK) {
        (void)hc_schedule_validate(s, NULL);
        char *json = NULL;
        if (hc_schedule_to_json(s, &json) == HC_OK) {
            if (hc_schedule_parse(json, "fuzz-roundtrip", &r) != HC_OK ||
                r->n_events != s->n_events || r->P != s->P)
                abort();
            free(json);
        }
    }
    hc_schedule_destroy(r);
    hc_schedule_destroy(s);
    free(t);
    return 0;
}
