/* OGGP, Optimized GGP (001 §6.3): GGP whose every step takes the perfect matching of J whose
 * smallest weight is largest (Proposition 4). Found by a threshold search: binary search over
 * the sorted distinct weights of J, each probe a warm-started Hopcroft-Karp on the edges of
 * weight >= threshold (src/sched/matching.c), instead of the paper's incremental Fig. 9.
 *
 * Complexity: at most m(J) steps, each O(m log m + log(m) sqrt(n) m). Guarantee: cost <= 8/3
 * eta (inherited from GGP). */
#include "algos.h"
#include "redist_common.h"

int hc__algo_redist_oggp(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__kpbs_plan(pb, 1, &plan);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
