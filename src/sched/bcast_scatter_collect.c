/* `scatter-collect` broadcast: scatter of P pieces by the root, then a ring allgather; each piece
 * is a segment. Source: 004 Table 1 (van de Geijn): (log2 P + P - 1) L + 2 (P-1)/P g(m).
 * Complexity / guarantee: O(P^2) events. About 2(P-1)(L+g(m/P)) on a homogeneous cluster
 * (1-port); see docs/model.md for the difference with Table 1's formula. With fewer bytes than
 * nodes there is nothing to scatter: a binomial tree. Events are timed by the 1-port rule of the
 * simulator (bcast_builder.c), so the planned makespan equals hc_simulate's replay. */
#include "bcast_kit.h"

static uint32_t nseg(uint32_t n, uint64_t msg, uint64_t segbytes)
{
    (void)segbytes;
    return n >= 2 && msg >= n ? n : 1;
}

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    if (m < n)
        return hc__classic_bcast_binomial.run(b, nodes, n, m, segbytes, k, parent);
    /* the root scatters piece p to rank p (linear), then a ring allgather in which rank r sends
     * piece (r - t) mod n to rank r + 1 at step t, skipping the pieces the receiver already
     * holds (the root holds all). Piece p = segment p. */
    uint64_t piece = m / n, rem = m % n;
#define PIECE_BYTES(p) (piece + ((p) < rem ? 1 : 0))
    for (uint32_t r = 1; r < n; r++)
        HC__TRY(hc__bb_send(b, nodes[0], nodes[r], r, PIECE_BYTES(r), 0, NULL));
    for (uint32_t t = 0; t + 1 < n; t++)
        for (uint32_t r = 0; r < n; r++) {
            uint32_t dst = (r + 1) % n;
            uint32_t p = (uint32_t)((r + n - t % n) % n);
            if (dst == 0 || p == dst)
                continue;
            HC__TRY(hc__bb_send(b, nodes[r], nodes[dst], p, PIECE_BYTES(p), 0, NULL));
        }
#undef PIECE_BYTES
    for (uint32_t r = 1; r < n; r++)
        hc__bc_set_parent(parent, nodes[r], nodes[r - 1]);
    return HC_OK;
}

static double table1(const hc__table1_t *x)
{
    return (x->lg + x->P - 1) * x->L + 2 * ((x->P - 1) / x->P) * x->gm;
}

const hc__bc_classic_t hc__classic_bcast_scatter_collect = {"scatter-collect", 0, nseg, run,
                                                            table1};
