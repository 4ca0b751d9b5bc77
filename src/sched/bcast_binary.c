/* `binary` broadcast: binary tree in heap order by rank: node r sends to 2r+1 then 2r+2.
 * Source: 004 Table 1.
 * Complexity / guarantee: O(P). Depth floor(log2 P), at most 2 sends per level on a homogeneous
 * cluster. Events are timed by the 1-port rule of the simulator (bcast_common.c), so the planned
 * makespan equals hc_simulate's replay. */
#include "bcast_common.h"

int hc__algo_bcast_binary(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);
int hc__algo_bcast_binary(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__bcast_classic_schedule(pb, opts, HC__BC_BINARY, out);
}
