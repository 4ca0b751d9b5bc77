/* `flat` broadcast: the root sends the whole message to every other node, one after the other
 * (1-port), in increasing order of transfer time, ties by node id: the cheapest first minimises
 * the sum of completion times (shortest processing time first), while the makespan, the sum of
 * the root's send times, is the same for every order. Under pLogP port semantics the root's
 * next send starts after the gap of the previous one, the latencies overlapping.
 * Source: 004 Table 1: L + (P-1) g(m).
 * The same order is flat's inter-cluster rule in the hierarchical broadcasts (only the root
 * sends, cheapest edge first) and, segment by segment, the tree of `segmented-flat`.
 * Complexity O(P log P). Guarantee: makespan = sum over v of C[root][v] (whole-duration ports),
 * max over v of (root's earlier port times + C[root][v]) with pLogP ports. */
#include <stdlib.h>

#include "bcast_kit.h"

typedef struct {
    double d;
    uint32_t v;
} item_t;

static int by_time(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return x->v < y->v ? -1 : (x->v > y->v);
}

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    item_t *it = hc__malloc(n, sizeof *it);
    if (!it)
        return hc__error(HC_ERR_NOMEM, "flat: out of memory");
    for (uint32_t r = 1; r < n; r++) {
        it[r - 1].d = hc__bb_duration(b, nodes[0], nodes[r], m);
        it[r - 1].v = nodes[r];
    }
    qsort(it, n - 1, sizeof *it, by_time);
    int rc = HC_OK;
    for (uint32_t s = 0; s < k && rc == HC_OK; s++)
        for (uint32_t r = 0; r + 1 < n && rc == HC_OK; r++)
            rc = hc__bb_send(b, nodes[0], it[r].v, s, hc__bc_seg_bytes(m, segbytes, k, s), 0, NULL);
    for (uint32_t r = 1; r < n; r++)
        hc__bc_set_parent(parent, nodes[r], nodes[0]);
    free(it);
    return rc;
}

static double table1(const hc__table1_t *x)
{
    return x->L + (x->P - 1) * x->gm;
}

const hc__bc_classic_t hc__classic_bcast_flat = {"flat", 0, NULL, run, table1};
const hc__edge_rule_t hc__edge_bcast_flat = {"flat", 1, 0, NULL};
