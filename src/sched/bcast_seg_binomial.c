/* `segmented-binomial` broadcast: each node forwards segment by segment to its binomial
 * children. Source: 004 Table 1: floor(log2 P) L + floor(log2 P) g(s) k.
 * Complexity / guarantee: O(P k). Root busy ceil(log2 P) k (L+g(s)) on a homogeneous cluster;
 * s = --segment or the best predicted s = m/2^i. Events are timed by the 1-port rule of the
 * simulator (bcast_builder.c), so the planned makespan equals hc_simulate's replay. */
#include <math.h>

#include "bcast_kit.h"

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    /* the binomial tree, segment by segment */
    return hc__classic_bcast_binomial.run(b, nodes, n, m, segbytes, k, parent);
}

static double table1(const hc__table1_t *x)
{
    return floor(x->lg) * x->L + floor(x->lg) * x->gs * x->k;
}

const hc__bc_classic_t hc__classic_bcast_seg_binomial = {"segmented-binomial", 1, NULL, run,
                                                         table1};
