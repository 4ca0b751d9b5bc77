/* ep: earliest-possible reduction schedule for a given send order (003 §3,
 * Figure 3). Source: Liu, Sheng, Yang, "Heuristic Search of Optimal Reduction
 * Schedule in Heterogeneous Cluster Environments" (paper 003). Model: node i
 * sends its partial result once, for t(i) seconds (constant cost rows), after
 * all its receives; one communication per node at a time; the root never sends.
 * Order: opts->order (the P - 1 non-root nodes), default the non-root nodes by
 * increasing id. Times: job k starts at max(start of job k-1, (2k-n)-th
 * smallest earlier completion), the earliest time 003's count condition 2A + C
 * <= n allows; the pairing of reduce_kit.c then names every receiver (it
 * always exists, see there), and each start coincides with the end of a receive
 * of its sender or of its receiver, so the simulator's replay reproduces the
 * times. Complexity: O(P log P) times + O(P^2) pairing. Guarantee: no schedule
 * sending in this order finishes earlier (003 §3). */
#include "algos.h"
#include "reduce_kit.h"

/* The send order: --order, else the node ids. */
static int given_order(const hc_problem_t *pb, const hc_algo_opts_t *opts, const double *t,
                       uint32_t *order)
{
    (void)t;
    return hc__reduce_given_order(pb, opts, order);
}

int hc__algo_reduce_ep(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__reduce_ep_schedule(pb, "ep", opts, given_order, out);
}
