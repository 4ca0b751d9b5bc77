/* GGP, Generic Graph Peeling (001 §6.1, Fig. 5 and 6): round the message times up to whole
 * multiples of beta (graph H), add dummy edges so that P(I)/k >= W(I) and is whole (graph I),
 * extend I into the P(I)/k-weight-regular graph J whose perfect matchings hold exactly k edges
 * of I (Proposition 2, Lemma 1), then peel J: a perfect matching (Hopcroft-Karp, warm-started
 * from the previous step's matching) cut to its smallest weight, per step. The real edges of
 * each matching form a step; the last piece of every message is trimmed to its exact time.
 *
 * Complexity: O(sqrt(n) (m + n)^2) (Proposition 3). Guarantee: cost <= 8/3 eta (Theorem 2). */
#include <math.h>

#include "algos.h"
#include "redist_kit.h"

/* GGP's rule: any perfect matching of the positive edges (Hopcroft-Karp). */
static int choose(hc__hk_t *h, uint32_t n, const double *w, size_t live, double *prev, double *amt)
{
    (void)prev;
    h->thr = 0;
    hc__hk_drop_inactive(h);
    if (hc__hk_run(h) < n)
        return hc__error(HC_ERR_INTERNAL, "GGP: J has no perfect matching (%zu edges left)", live);
    *amt = HUGE_VAL;
    for (uint32_t u = 0; u < n; u++)
        if (w[h->mate1[u]] < *amt)
            *amt = w[h->mate1[u]];
    return HC_OK;
}

const hc__kpbs_rule_t hc__kpbs_ggp = {"ggp", choose};

int hc__algo_redist_ggp(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__kpbs_plan(pb, &hc__kpbs_ggp, &plan);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
