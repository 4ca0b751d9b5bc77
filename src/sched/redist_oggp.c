/* OGGP, Optimized GGP (001 §6.3): GGP whose every step takes the perfect matching of J whose
 * smallest weight is largest (Proposition 4). Found by a threshold search: binary search over
 * the sorted distinct weights of J, each probe a warm-started Hopcroft-Karp on the edges of
 * weight >= threshold (src/sched/matching.c), instead of the paper's incremental Fig. 9.
 *
 * Complexity: at most m(J) steps, each O(m log m + log(m) sqrt(n) m). Guarantee: cost <= 8/3
 * eta (inherited from GGP). */
#include "algos.h"
#include "redist_kit.h"

/* OGGP's rule: the perfect matching whose smallest weight is largest (threshold search, the
 * previous step's value as the first probe). */
static int choose(hc__hk_t *h, uint32_t n, const double *w, size_t live, double *prev, double *amt)
{
    (void)n;
    (void)w;
    int r = hc__hk_bottleneck(h, *prev, amt);
    *prev = *amt;
    if (r < 0)
        return hc__error(HC_ERR_NOMEM, "out of memory in the OGGP threshold search");
    if (r == 0)
        return hc__error(HC_ERR_INTERNAL, "OGGP: J has no perfect matching (%zu edges left)", live);
    return HC_OK;
}

const hc__kpbs_rule_t hc__kpbs_oggp = {"oggp", choose};

int hc__algo_redist_oggp(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__kpbs_plan(pb, &hc__kpbs_oggp, &plan);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
