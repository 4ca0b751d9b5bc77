/* `auto` total exchange, the default: every row of algos.def flagged HC_ALGO_AUTO runs
 * (openshop-lb on P <= 512, its restart budget shrinking with P; openshop; maxmatch and
 * minmatch on P <= 128, where an O(P^4) series costs at most ~0.1 s; greedy) and the lowest
 * planned makespan is kept, ties to the earlier row (select.c). Every alltoall schedule is timed
 * with the replay rule, so the prediction is what the simulator replays. The note says which one
 * won and by how much, e.g.
 *   "auto: openshop-lb 1.0012xLB (lowest predicted makespan) beat openshop 1.0301xLB, ...".
 * Complexity: the sum of its candidates'. Guarantee: <= 2 LB (openshop is always a candidate,
 * Theorem 3 of 000). */
#include "select.h"

int hc__algo_alltoall_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__select_best(pb, opts, out);
}
