/* snf: slowest-node-first reduction (003 §4).
 * Source: paper 003 (Liu, Sheng, Yang). The non-root nodes sorted by
 * non-increasing send time t(i) (ties by id) are given to EP (reduce_ep.c):
 * slow senders overlap each other at the start instead of waiting for each
 * other at the end. Complexity: O(P log P) + O(P^2) pairing. Guarantee: none;
 * 003 Figure 6 (4 nodes of time x, 8 of time 1, 1 < x < 2) shows it suboptimal
 * (x + 3 against 2x + 1 or 4); tests/algo/ test_reduce.c measures the gap
 * against bnb. */
#include "algos.h"
#include "reduce_common.h"

int hc__algo_reduce_snf(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__reduce_ep_schedule(pb, "snf", opts, 1, out);
}
