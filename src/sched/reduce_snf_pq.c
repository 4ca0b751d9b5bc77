/* snf-pq: slowest-node-first for sender-receiver costs C[i][j] (003's future
 * work). Source: paper 003 §4 (SNF) and §7 (open problem); our extension.
 * Senders by non-increasing mean send cost (mean of C[i][j] over j != i; t(i)
 * itself on constant rows), each sending as soon as its receives are done to
 * the receiver (the root or a later sender) that ends the send earliest (list
 * schedule of reduce_common.c; the replay rule gives the times). Complexity:
 * O(P^2). Guarantee: none (heuristic); bnb-pq gives the optimum on small P. */
#include <stdlib.h>

#include "algos.h"
#include "reduce_common.h"

int hc__algo_reduce_snf_pq(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    uint32_t P = pb->P;
    uint32_t *order = hc__malloc(P, sizeof *order);
    if (!order)
        return hc__error(HC_ERR_NOMEM, "snf-pq: out of memory (P = %u)", P);
    int rc = hc__reduce_pq_snf_order(pb, order);
    if (rc == HC_OK)
        rc = hc__reduce_pq_list(pb, order, out);
    free(order);
    return rc;
}
