/* `binomial` broadcast: the binomial tree of MPICH and Open MPI (their default for small
 * messages). Source: 004 Table 1: floor(log2 P)(L + g(m)).
 *
 * Ranks are relative to the root: rank(v) = (v - root) mod P. Rank r > 0 receives from
 * r - lowbit(r) and sends to r + 2^j for every 2^j < lowbit(r) with r + 2^j < P, the largest
 * first; the root sends to every 2^j < P, the largest first. Each subtree is a contiguous range
 * of ranks, so on a blocked layout (a site's nodes consecutive) a subtree crosses into a site
 * once. The tree ignores the costs; the times follow them by the simulator's earliest-start rule
 * (bcast_builder.c): a node sends its children in that order once it holds the message and its
 * port is free (the port time is the gap g for a pLogP broadcast), so the replay gives the same
 * times.
 *
 * Complexity O(P log P). Guarantee: ceil(log2 P) rounds; on a homogeneous network the makespan
 * is ceil(log2 P) message times, which is optimal for whole-message broadcast. */
#include <math.h>

#include "bcast_kit.h"

/* Also the tree of `segmented-binomial` (k segments, each down the same tree). Ranks in
 * increasing order: a rank's parent is smaller, so every send follows the one that feeds it. */
static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    uint64_t top = 1; /* the smallest power of two >= n: the root's "lowest bit" */
    while (top < n)
        top <<= 1;
    for (uint32_t s = 0; s < k; s++)
        for (uint32_t r = 0; r < n; r++) {
            uint64_t low = r ? (uint64_t)(r & (~r + 1)) : top;
            for (uint64_t mask = low >> 1; mask >= 1; mask >>= 1) {
                if (r + mask >= n)
                    continue;
                uint32_t c = (uint32_t)(r + mask);
                HC__TRY(hc__bb_send(b, nodes[r], nodes[c], s, hc__bc_seg_bytes(m, segbytes, k, s),
                                    0, NULL));
                if (s == 0)
                    hc__bc_set_parent(parent, nodes[c], nodes[r]);
            }
        }
    return HC_OK;
}

static double table1(const hc__table1_t *x)
{
    return floor(x->lg) * x->L + floor(x->lg) * x->gm;
}

const hc__bc_classic_t hc__classic_bcast_binomial = {"binomial", 0, NULL, run, table1};
