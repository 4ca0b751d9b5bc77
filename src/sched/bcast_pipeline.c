/* `pipeline` broadcast: segmented chain: k = m/s segments flow down the chain by rank.
 * Source: 004 Table 1 (segmented chain).
 * Complexity / guarantee: O(P k). Time (P+k-2)(L+g(s)) on a homogeneous cluster (1-port); s =
 * --segment or the best predicted s = m/2^i. Events are timed by the 1-port rule of the simulator
 * (bcast_common.c), so the planned makespan equals hc_simulate's replay. */
#include "bcast_common.h"

int hc__algo_bcast_pipeline(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                            hc_schedule_t **out);
int hc__algo_bcast_pipeline(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__bcast_classic_schedule(pb, opts, HC__BC_PIPELINE, out);
}
