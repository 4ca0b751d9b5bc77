/* ep-pq: list reduction schedule of a send order for sender-receiver costs
 * C[i][j] (003's future work: "the communication time may be determined by both
 * the sender and the receiver"). Source: paper 003 §7 (open problem), our
 * extension of EP (003 §3). The senders are taken in opts->order (default: node
 * ids); each sends as soon as all its receives are done, to the receiver (the
 * root or a node later in the order) that ends the send earliest; times follow
 * the replay rule, so rows need not be constant. On constant rows it is a list
 * variant of EP, not identical to it (EP also keeps start times non-decreasing
 * along the order). Complexity: O(P^2). Guarantee: none (heuristic); bnb-pq
 * gives the optimum on small P. */
#include <stdlib.h>

#include "algos.h"
#include "reduce_kit.h"

int hc__algo_reduce_ep_pq(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P;
    uint32_t *order = hc__malloc(P, sizeof *order);
    if (!order)
        return hc__error(HC_ERR_NOMEM, "ep-pq: out of memory (P = %u)", P);
    int rc = hc__reduce_given_order(pb, opts, order);
    if (rc == HC_OK)
        rc = hc__reduce_pq_list(pb, order, out);
    free(order);
    return rc;
}
