/* `segmented-flat` broadcast: flat's tree (the root sends to every node, cheapest first), the
 * message cut into k segments of s bytes sent segment by segment. Source: 004 Table 1:
 * L + (P-1) g(s) k. s = --segment or the best predicted s = m/2^i.
 * Complexity O(P k). Events are timed by the 1-port rule of the simulator (bcast_builder.c), so
 * the planned makespan equals hc_simulate's replay. */
#include "bcast_kit.h"

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    return hc__classic_bcast_flat.run(b, nodes, n, m, segbytes, k, parent);
}

static double table1(const hc__table1_t *x)
{
    return x->L + (x->P - 1) * (x->gs * x->k);
}

const hc__bc_classic_t hc__classic_bcast_seg_flat = {"segmented-flat", 1, NULL, run, table1};
