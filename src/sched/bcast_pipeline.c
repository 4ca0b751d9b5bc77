/* `pipeline` broadcast: segmented chain: k = m/s segments flow down the chain by rank.
 * Source: 004 Table 1 (segmented chain): (P-1)(g(s)+L) + g(s)(k-1).
 * Complexity / guarantee: O(P k). Time (P+k-2)(L+g(s)) on a homogeneous cluster (1-port); s =
 * --segment or the best predicted s = m/2^i. Events are timed by the 1-port rule of the simulator
 * (bcast_builder.c), so the planned makespan equals hc_simulate's replay. */
#include "bcast_kit.h"

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    for (uint32_t s = 0; s < k; s++)
        for (uint32_t r = 0; r + 1 < n; r++)
            HC__TRY(hc__bb_send(b, nodes[r], nodes[r + 1], s, hc__bc_seg_bytes(m, segbytes, k, s),
                                0, NULL));
    for (uint32_t r = 1; r < n; r++)
        hc__bc_set_parent(parent, nodes[r], nodes[r - 1]);
    return HC_OK;
}

static double table1(const hc__table1_t *x)
{
    return (x->P - 1) * (x->gs + x->L) + x->gs * (x->k - 1);
}

const hc__bc_classic_t hc__classic_bcast_pipeline = {"pipeline", 1, NULL, run, table1};
