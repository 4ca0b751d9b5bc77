/* `chain` broadcast: chain by rank from the root: node r forwards the whole message to r+1.
 * Source: 004 Barchet-Steffenel & Mounie, Table 1: (P-1)(L+g(m)).
 * Complexity / guarantee: O(P). Time (P-1)(L+g(m)) on a homogeneous cluster under the 1-port model;
 * no guarantee on heterogeneous networks. Events are timed by the 1-port rule of the simulator
 * (bcast_builder.c), so the planned makespan equals hc_simulate's replay. */
#include "bcast_kit.h"

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    (void)segbytes;
    (void)k;
    for (uint32_t r = 0; r + 1 < n; r++) {
        HC__TRY(hc__bb_send(b, nodes[r], nodes[r + 1], 0, m, 0, NULL));
        hc__bc_set_parent(parent, nodes[r + 1], nodes[r]);
    }
    return HC_OK;
}

static double table1(const hc__table1_t *x)
{
    return (x->P - 1) * (x->gm + x->L);
}

const hc__bc_classic_t hc__classic_bcast_chain = {"chain", 0, NULL, run, table1};
