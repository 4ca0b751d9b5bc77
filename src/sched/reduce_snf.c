/* snf: slowest-node-first reduction (003 §4).
 * Source: paper 003 (Liu, Sheng, Yang). The non-root nodes sorted by
 * non-increasing send time t(i) (ties by id) are given to EP (reduce_ep.c):
 * slow senders overlap each other at the start instead of waiting for each
 * other at the end. Complexity: O(P log P) + O(P^2) pairing. Guarantee: none;
 * 003 Figure 6 (4 nodes of time x, 8 of time 1, 1 < x < 2) shows it suboptimal
 * (x + 3 against 2x + 1 or 4); tests/algo/ test_reduce.c measures the gap
 * against bnb. */
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

/* Slowest node first: the senders by non-increasing send time t(i), ties by node id. */
static int snf_order(const hc_problem_t *pb, const hc_algo_opts_t *opts, const double *t,
                     uint32_t *order)
{
    (void)opts;
    uint32_t P = pb->P, m = 0;
    tnode_t *tmp = hc__malloc(P, sizeof *tmp);
    if (!tmp) {
        /* fall back to an insertion sort in place (no memory needed) */
        for (uint32_t i = 0; i < P; i++) {
            if (i == pb->root)
                continue;
            uint32_t q = m++;
            while (q > 0 && (t[order[q - 1]] < t[i])) {
                order[q] = order[q - 1];
                q--;
            }
            order[q] = i;
        }
        return HC_OK;
    }
    for (uint32_t i = 0; i < P; i++)
        if (i != pb->root)
            tmp[m++] = (tnode_t){t[i], i};
    qsort(tmp, m, sizeof *tmp, by_slowest);
    for (uint32_t q = 0; q < m; q++)
        order[q] = tmp[q].id;
    free(tmp);
    return HC_OK;
}

int hc__algo_reduce_snf(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    return hc__reduce_ep_schedule(pb, "snf", opts, snf_order, out);
}
