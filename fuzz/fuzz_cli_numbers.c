/* The CLI's number, size and list parsers (tools/hetcoll/cli.c): whatever they accept is in
 * range (sizes below 2^53, lists within CLI_LIST_MAX values, finite doubles). */
#include <math.h>

#include "cli.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *t = fuzz_text(data, size);
    if (!t)
        return 0;
    uint64_t u;
    double d;
    if (cli_parse_size(t, &u) == 0 && u >= 9007199254740992ull)
        abort();
    if (cli_parse_double(t, &d) == 0 && !isfinite(d))
        abort();
    (void)cli_parse_u64(t, &u);
    uint64_t *ul = NULL;
    double *dl = NULL;
    size_t n = 0;
    if (cli_parse_u64_list(t, &ul, &n) == 0 && (n == 0 || n > CLI_LIST_MAX))
        abort();
    free(ul);
    if (cli_parse_double_list(t, &dl, &n) == 0 && (n == 0 || n > CLI_LIST_MAX))
        abort();
    free(dl);
    free(t);
    return 0;
}
