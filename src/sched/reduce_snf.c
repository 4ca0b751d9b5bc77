/* snf: slowest-node-first reduction (003 §4).
 * Source: paper 003 (Liu, Sheng, Yang). The non-root nodes sorted by
 * non-increasing send time t(i) (ties by id) are given to EP (reduce_ep.c):
 * slow senders overlap each other at the start instead of waiting for each
 * other at the end. Complexity: O(P log P) + O(P^2) pairing. Guarantee: none;
 * 003 Figure 6 (4 nodes of time x, 8 of time 1, 1 < x < 2) shows it suboptimal
 * (x + 3 against 2x + 1 or 4); tests/algo/ test_reduce.c measures the gap
 * against bnb. */
#include <stdlib.h>

#include "reduce_common.h"

int hc__algo_reduce_snf(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);
int hc__algo_reduce_snf(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    int rc;
    double *t = hc__malloc(P, sizeof *t);
    double *dur = hc__malloc(P, sizeof *dur);
    double *start = hc__malloc(P, sizeof *start);
    double *work = hc__malloc(P, sizeof *work);
    uint32_t *order = hc__malloc(P, sizeof *order);
    if (!t || !dur || !start || !work || !order) {
        rc = hc__error(HC_ERR_NOMEM, "snf: out of memory (P = %u)", P);
        goto done;
    }
    rc = hc__reduce_send_times(pb, "snf", t);
    if (rc != HC_OK)
        goto done;
    hc__reduce_snf_order(pb, t, order);
    for (uint32_t k = 0; k < m; k++)
        dur[k] = t[order[k]];
    hc__reduce_ep_times(P, dur, m, start, work);
    rc = hc__reduce_build(pb, order, start, t, out);
done:
    free(t);
    free(dur);
    free(start);
    free(work);
    free(order);
    return rc;
}
