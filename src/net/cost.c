/* Cost model (include/hetcoll/cost.h): Hockney L + m/B (000 §3.2) and pLogP L + g(m) (004 §3).
 */
#include <math.h>
#include <string.h>

#include "net_internal.h"

int hc_model_parse(const char *name, hc_model_t *out)
{
    if (!name || !out)
        return hc__error(HC_ERR_INVAL, "hc_model_parse: NULL argument");
    if (strcmp(name, "hockney") == 0)
        *out = HC_MODEL_HOCKNEY;
    else if (strcmp(name, "plogp") == 0)
        *out = HC_MODEL_PLOGP;
    else
        return hc__error(HC_ERR_UNKNOWN, "unknown cost model '%s' (valid: hockney, plogp)", name);
    return HC_OK;
}

const char *hc_model_name(hc_model_t m)
{
    switch (m) {
    case HC_MODEL_HOCKNEY:
        return "hockney";
    case HC_MODEL_PLOGP:
        return "plogp";
    }
    return "unknown";
}

double hc_cost_p2p(const hc_platform_t *p, hc_model_t model, uint32_t i, uint32_t j, uint64_t m)
{
    if (!p || i >= p->P || j >= p->P)
        return NAN;
    if (i == j || m == 0)
        return 0.0;
    double L = p->lat[(size_t)i * p->P + j];
    if (model == HC_MODEL_PLOGP)
        return L + hc_platform_gap(p, i, j, m);
    return L + (double)m / p->bw[(size_t)i * p->P + j];
}

static int check_model(hc_model_t model)
{
    if (model != HC_MODEL_HOCKNEY && model != HC_MODEL_PLOGP)
        return hc__error(HC_ERR_INVAL, "unknown cost model %d", (int)model);
    return HC_OK;
}

int hc_cost_uniform(const hc_platform_t *p, hc_model_t model, uint64_t m, hc_matrix_t **out)
{
    if (!p || !out)
        return hc__error(HC_ERR_INVAL, "hc_cost_uniform: NULL argument");
    *out = NULL;
    HC__TRY(check_model(model));
    HC__TRY(hc_matrix_create(p->P, p->P, 0.0, out));
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t j = 0; j < p->P; j++)
            HC_AT(*out, i, j) = hc_cost_p2p(p, model, i, j, m);
    return HC_OK;
}

int hc_cost_sizes(const hc_platform_t *p, hc_model_t model, const hc_matrix_t *sizes,
                  hc_matrix_t **out)
{
    if (!p || !sizes || !out)
        return hc__error(HC_ERR_INVAL, "hc_cost_sizes: NULL argument");
    *out = NULL;
    HC__TRY(check_model(model));
    if (sizes->rows != p->P || sizes->cols != p->P)
        return hc__error(HC_ERR_SHAPE,
                         "size matrix is %ux%u but the platform has %u nodes (expected %ux%u)",
                         sizes->rows, sizes->cols, p->P, p->P, p->P);
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t j = 0; j < p->P; j++) {
            double x = HC_AT(sizes, i, j);
            if (i != j && (!isfinite(x) || x < 0 || x != floor(x) || x > 9007199254740992.0))
                return hc__error(HC_ERR_VALUE,
                                 "size matrix [%u][%u]: must be a whole number of bytes >= 0 "
                                 "(got %g)",
                                 i, j, x);
        }
    HC__TRY(hc_matrix_create(p->P, p->P, 0.0, out));
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t j = 0; j < p->P; j++)
            if (i != j)
                HC_AT(*out, i, j) = hc_cost_p2p(p, model, i, j, (uint64_t)HC_AT(sizes, i, j));
    return HC_OK;
}
