/* ep: earliest-possible reduction schedule for a given send order (003 §3,
 * Figure 3). Source: Liu, Sheng, Yang, "Heuristic Search of Optimal Reduction
 * Schedule in Heterogeneous Cluster Environments" (paper 003). Model: node i
 * sends its partial result once, for t(i) seconds (constant cost rows), after
 * all its receives; one communication per node at a time; the root never sends.
 * Order: opts->order (the P - 1 non-root nodes), default the non-root nodes by
 * increasing id. Times: job k starts at max(start of job k-1, (2k-n)-th
 * smallest earlier completion), the earliest time 003's count condition 2A + C
 * <= n allows; the pairing of reduce_common.c then names every receiver (it
 * always exists, see there), and each start coincides with the end of a receive
 * of its sender or of its receiver, so the simulator's replay reproduces the
 * times. Complexity: O(P log P) times + O(P^2) pairing. Guarantee: no schedule
 * sending in this order finishes earlier (003 §3). */
#include <stdlib.h>

#include "reduce_common.h"

int hc__algo_reduce_ep(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);
int hc__algo_reduce_ep(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    int rc;
    double *t = hc__malloc(P, sizeof *t);
    double *dur = hc__malloc(P, sizeof *dur);
    double *start = hc__malloc(P, sizeof *start);
    double *work = hc__malloc(P, sizeof *work);
    uint32_t *order = hc__malloc(P, sizeof *order);
    if (!t || !dur || !start || !work || !order) {
        rc = hc__error(HC_ERR_NOMEM, "ep: out of memory (P = %u)", P);
        goto done;
    }
    rc = hc__reduce_send_times(pb, "ep", t);
    if (rc != HC_OK)
        goto done;
    if (opts && opts->order) {
        rc = hc__reduce_check_order(pb, opts->order, opts->order_len);
        if (rc != HC_OK)
            goto done;
        for (uint32_t k = 0; k < m; k++)
            order[k] = opts->order[k];
    } else {
        uint32_t q = 0;
        for (uint32_t i = 0; i < P; i++)
            if (i != pb->root)
                order[q++] = i;
    }
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
