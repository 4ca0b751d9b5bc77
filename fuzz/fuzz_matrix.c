/* hc_matrix_parse (text and JSON forms) for both kinds; the first byte picks the kind. */
#include "fuzz_common.h"
#include "hetcoll/hetcoll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    hc_matrix_kind_t kind = data[0] & 1 ? HC_MATRIX_SIZES : HC_MATRIX_COSTS;
    char *t = fuzz_text(data + 1, size - 1);
    hc_matrix_t *m = NULL;
    if (t && hc_matrix_parse(t, "fuzz", kind, 0, 0, &m) == HC_OK) {
        for (uint32_t i = 0; i < m->rows; i++)
            for (uint32_t j = 0; j < m->cols; j++)
                if (!(HC_AT(m, i, j) >= 0))
                    abort(); /* a loaded matrix holds finite values >= 0 */
    }
    hc_matrix_destroy(m);
    free(t);
    return 0;
}
