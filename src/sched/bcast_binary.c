/* `binary` broadcast: binary tree in heap order by rank: node r sends to 2r+1 then 2r+2.
 * Source: 004 Table 1: ceil(log2 P)(2 g(m) + L).
 * Complexity / guarantee: O(P). Depth floor(log2 P), at most 2 sends per level on a homogeneous
 * cluster. Events are timed by the 1-port rule of the simulator (bcast_builder.c), so the planned
 * makespan equals hc_simulate's replay. */
#include <math.h>

#include "bcast_kit.h"

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    (void)segbytes;
    (void)k;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t c = 2 * r + 1; c <= 2 * r + 2 && c < n; c++) {
            HC__TRY(hc__bb_send(b, nodes[r], nodes[c], 0, m, 0, NULL));
            hc__bc_set_parent(parent, nodes[c], nodes[r]);
        }
    return HC_OK;
}

static double table1(const hc__table1_t *x)
{
    return ceil(x->lg) * (2 * x->gm + x->L);
}

const hc__bc_classic_t hc__classic_bcast_binary = {"binary", 0, NULL, run, table1};
