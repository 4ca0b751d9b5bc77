/* `binomial` broadcast: binomial tree by rank, the MPI default. Source: 004 Table 1:
 * floor(log2 P)(L + g(m)).
 *
 * Ranks are relative to the root: rank(v) = (v - root) mod P. In round k = 0, 1, ... every rank
 * h < 2^k that holds the message sends it to rank h + 2^k (when < P). The tree ignores the
 * costs; the times follow them by the simulator's earliest-start rule (bcast_builder.c): a node
 * sends its children in round order once it holds the message and its port is free (the port
 * time is the gap g for a pLogP broadcast), so the replay gives the same times.
 *
 * Complexity O(P log P). Guarantee: ceil(log2 P) rounds; on a homogeneous network the makespan
 * is ceil(log2 P) message times, which is optimal for whole-message broadcast. */
#include <math.h>

#include "bcast_kit.h"

/* Also the tree of `segmented-binomial` (k segments, each down the same tree). */
static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    for (uint32_t s = 0; s < k; s++)
        for (uint64_t mask = 1; mask < n; mask <<= 1)
            for (uint32_t r = 0; r < mask && r + mask < n; r++) {
                uint32_t c = (uint32_t)(r + mask);
                HC__TRY(hc__bb_send(b, nodes[r], nodes[c], s, hc__bc_seg_bytes(m, segbytes, k, s),
                                    0, NULL));
                if (s == 0)
                    hc__bc_set_parent(parent, nodes[c], nodes[r]);
            }
    return HC_OK;
}

static double table1(const hc__table1_t *x)
{
    return floor(x->lg) * x->L + floor(x->lg) * x->gm;
}

const hc__bc_classic_t hc__classic_bcast_binomial = {"binomial", 0, NULL, run, table1};
