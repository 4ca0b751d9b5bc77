/* snf-pq: slowest-node-first for sender-receiver costs C[i][j] (003's future
 * work). Source: paper 003 §4 (SNF) and §7 (open problem); our extension.
 * Senders by non-increasing mean send cost (mean of C[i][j] over j != i; t(i)
 * itself on constant rows), each sending as soon as its receives are done to
 * the receiver (the root or a later sender) that ends the send earliest (list
 * schedule of reduce_kit.c; the replay rule gives the times). Complexity:
 * O(P^2). Guarantee: none (heuristic); bnb-pq gives the optimum on small P. */
#include <stdlib.h>

#include "algos.h"
#include <stdlib.h>

#include "reduce_kit.h"

typedef struct tnode {
    double t;
    uint32_t id;
} tnode_t;

static int by_slowest(const void *a, const void *b)
{
    const tnode_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t > y->t ? -1 : 1;
    return x->id < y->id ? -1 : (x->id > y->id);
}

int hc__reduce_pq_snf_order(const hc_problem_t *pb, uint32_t *order)
{
    uint32_t P = pb->P, m = 0;
    tnode_t *tmp = hc__malloc(P, sizeof *tmp);
    if (!tmp)
        return hc__error(HC_ERR_NOMEM, "reduce: out of memory (P = %u)", P);
    for (uint32_t i = 0; i < P; i++) {
        if (i == pb->root)
            continue;
        double sum = 0;
        for (uint32_t j = 0; j < P; j++)
            if (j != i)
                sum += HC_AT(pb->costs, i, j);
        tmp[m++] = (tnode_t){sum / (P - 1), i};
    }
    qsort(tmp, m, sizeof *tmp, by_slowest);
    for (uint32_t q = 0; q < m; q++)
        order[q] = tmp[q].id;
    free(tmp);
    return HC_OK;
}

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
