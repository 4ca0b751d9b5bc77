/* `auto` redistribution, the default: every row of algos.def flagged HC_ALGO_AUTO runs (ggp,
 * oggp, oggp+, hweight, hdegree) and the cheapest schedule (sum of beta + longest transfer over
 * the steps) is kept, ties to the earlier row (select.c).
 * Complexity: the sum of its candidates'. Guarantee: 8/3-approximation (GGP and OGGP are
 * candidates, 001 Theorem 2). */
#include "select.h"

int hc__algo_redist_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__select_best(pb, opts, out);
}
