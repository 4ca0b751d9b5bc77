/* `auto` reduction, the default: every row of algos.def flagged HC_ALGO_AUTO runs and the lowest
 * makespan is kept, ties to the earlier row (select.c). The branch-and-bound searches run only
 * with a time limit (opts->time_limit_s, at most 2 s each beyond their size) or on few nodes
 * (bnb <= 12, bnb-pq <= 10); 003's
 * algorithms (ep, snf, bnb) answer "not applicable" when the cost rows are not constant, and the
 * sender-receiver ones (*-pq) take over.
 * Complexity: the sum of its candidates'. Guarantee: optimal whenever a branch and bound
 * completes (its search statistics say so). */
#include "select.h"

int hc__algo_reduce_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__select_best(pb, opts, out);
}
