/* GGP, Generic Graph Peeling (001 §6.1, Fig. 5 and 6): round the message times up to whole
 * multiples of beta (graph H), add dummy edges so that P(I)/k >= W(I) and is whole (graph I),
 * extend I into the P(I)/k-weight-regular graph J whose perfect matchings hold exactly k edges
 * of I (Proposition 2, Lemma 1), then peel J: a perfect matching (Hopcroft-Karp, warm-started
 * from the previous step's matching) cut to its smallest weight, per step. The real edges of
 * each matching form a step; the last piece of every message is trimmed to its exact time.
 *
 * Complexity: O(sqrt(n) (m + n)^2) (Proposition 3). Guarantee: cost <= 8/3 eta (Theorem 2). */
#include "algos.h"
#include "redist_common.h"

int hc__algo_redist_ggp(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__kpbs_plan(pb, 0, &plan);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
