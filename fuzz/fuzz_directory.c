/* hc_directory_load reads a file: the input is written to a private temporary file first. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "hetcoll/directory.h"
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

static char path[64];

/* the temporary file goes with the fuzzer (it used to stay in /tmp after every run) */
static void remove_path(void)
{
    if (path[0])
        unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/hc-fuzz-dir-%ld.json", (long)getpid());
        atexit(remove_path);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    hc_platform_t *p = NULL;
    hc_directory_info_t info;
    hc_directory_info_init(&info);
    if (hc_directory_load(path, size % 2 ? 60.0 : 0.0, &p, &info) == HC_OK && !p)
        abort();
    hc_directory_info_clear(&info);
    hc_platform_destroy(p);
    return 0;
}
