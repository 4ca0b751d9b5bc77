/* Lower bound for redistribution (001 Proposition 1): eta = eta_d + beta *
 * eta_s with eta_d = max(W(G), P(G) / k)           W = largest weighted degree,
 * P = total weight eta_s = max(Delta(G), ceil(m(G) / k)) Delta = largest
 * degree, m = number of edges over the bipartite graph G of the nonzero entries
 * of the n1 x n2 cost matrix. eta_s bounds the number of steps (each pays
 * beta), eta_d the transmission time (a node takes part in one transfer per
 * step, a step holds at most k transfers). O(n1 n2). */
#include <stdlib.h>

#include "sched_internal.h"

int hc__lower_bound_redistribute(const hc_problem_t *pb, double *out)
{
    const hc_matrix_t *c = pb->costs;
    uint32_t n1 = c->rows, n2 = c->cols;
    double *colw = hc__calloc(n2, sizeof *colw);
    uint32_t *cold = hc__calloc(n2, sizeof *cold);
    if (!colw || !cold) {
        free(colw);
        free(cold);
        return hc__error(HC_ERR_NOMEM, "out of memory computing the redistribution bound");
    }
    double W = 0, total = 0;
    uint64_t Delta = 0, m = 0;
    for (uint32_t i = 0; i < n1; i++) {
        double roww = 0;
        uint64_t rowd = 0;
        for (uint32_t j = 0; j < n2; j++) {
            double w = HC_AT(c, i, j);
            if (w <= 0)
                continue;
            roww += w;
            rowd++;
            colw[j] += w;
            cold[j]++;
            m++;
        }
        total += roww;
        if (roww > W)
            W = roww;
        if (rowd > Delta)
            Delta = rowd;
    }
    for (uint32_t j = 0; j < n2; j++) {
        if (colw[j] > W)
            W = colw[j];
        if (cold[j] > Delta)
            Delta = cold[j];
    }
    free(colw);
    free(cold);
    double eta_d = W > total / pb->k ? W : total / pb->k;
    uint64_t steps = (m + pb->k - 1) / pb->k;
    if (Delta > steps)
        steps = Delta;
    *out = eta_d + pb->beta * (double)steps;
    return HC_OK;
}
