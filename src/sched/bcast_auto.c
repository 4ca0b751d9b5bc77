/* `auto` broadcast, the default: every row of algos.def flagged HC_ALGO_AUTO runs (the classics,
 * model-best, the edge heuristics, hier-auto; not ttcc, which hedges against errors the plan
 * does not see) and the lowest planned makespan is kept, ties to the earlier row (select.c).
 * Planned broadcast times follow the simulator's replay rule (bcast_builder.c).
 * Complexity: the sum of its candidates', O(P^3) for the edge heuristics. Guarantee: never worse
 * than any candidate on the planned costs. */
#include "select.h"

int hc__algo_bcast_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__select_best(pb, opts, out);
}
