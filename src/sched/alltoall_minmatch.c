/* minmatch: a series of P-1 minimum-weight complete matchings (000 §4.3).
 * The bipartite graph has senders on the left, receivers on the right and weight C[i][j]; each
 * step is a minimum-weight perfect matching found by the LAP solver (lap.c), whose edges are then
 * removed (the diagonal is never used). Steps are not synchronised: the step-ordered list is
 * timed with the replay rule (each message starts when its sender and receiver are free), so
 * the simulator's replay equals the plan. Zero-cost messages are not sent.
 * Complexity: O(P^4) worst case (P-1 solves of O(P^3)); the solver keeps its dual potentials
 * between solves, which makes later solves much cheaper in practice.
 * Guarantee: none better than the P/2 of Theorem 2(i) (000 §4.3). */
#include "algos.h"
#include "alltoall_kit.h"

int hc__algo_alltoall_minmatch(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out)
{
    (void)opts;
    return hc__a2a_matching_schedule(pb, 0, "minmatch", out);
}
