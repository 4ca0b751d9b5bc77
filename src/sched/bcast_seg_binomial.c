/* `segmented-binomial` broadcast: segmented binomial tree: each node forwards segment by segment to
 * its binomial children. Source: 004 Table 1. Complexity / guarantee: O(P k). Root busy ceil(log2
 * P) k (L+g(s)) on a homogeneous cluster; s = --segment or the best predicted s = m/2^i. Events are
 * timed by the 1-port rule of the simulator (bcast_common.c), so the planned makespan equals
 * hc_simulate's replay. */
#include "bcast_common.h"

int hc__algo_bcast_seg_binomial(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                hc_schedule_t **out);
int hc__algo_bcast_seg_binomial(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                hc_schedule_t **out)
{
    return hc__bcast_classic_schedule(pb, opts, HC__BC_SEG_BINOMIAL, out);
}
