/* `scatter-collect` broadcast: scatter of P pieces by the root, then a ring allgather; each piece
 * is a segment. Source: 004 Table 1 (van de Geijn). Complexity / guarantee: O(P^2) events. About
 * 2(P-1)(L+g(m/P)) on a homogeneous cluster (1-port); see docs/design.md for the difference with
 * Table 1's (log2 P + P - 1)L + 2(P-1)/P g(m). Events are timed by the 1-port rule of the simulator
 * (bcast_common.c), so the planned makespan equals hc_simulate's replay. */
#include "bcast_common.h"

int hc__algo_bcast_scatter_collect(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                   hc_schedule_t **out);
int hc__algo_bcast_scatter_collect(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                   hc_schedule_t **out)
{
    return hc__bcast_classic_schedule(pb, opts, HC__BC_SCATTER_COLLECT, out);
}
