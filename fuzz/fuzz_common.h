/* Shared by the libFuzzer harnesses: the input as a NUL-terminated string (the parsers take
 * text; a NUL inside ends it, as it would for a C caller). */
#ifndef HC_FUZZ_COMMON_H
#define HC_FUZZ_COMMON_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (t) {
        memcpy(t, data, size);
        t[size] = '\0';
    }
    return t;
}
#endif
