/* `chain` broadcast: chain by rank from the root: node r forwards the whole message to r+1.
 * Source: 004 Barchet-Steffenel & Mounie, Table 1.
 * Complexity / guarantee: O(P). Time (P-1)(L+g(m)) on a homogeneous cluster under the 1-port model;
 * no guarantee on heterogeneous networks. Events are timed by the 1-port rule of the simulator
 * (bcast_common.c), so the planned makespan equals hc_simulate's replay. */
#include "bcast_common.h"

int hc__algo_bcast_chain(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);
int hc__algo_bcast_chain(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__bcast_classic_schedule(pb, opts, HC__BC_CHAIN, out);
}
