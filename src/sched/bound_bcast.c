/* Lower bound for broadcast: every node v gets the message along a chain of
 * sends from the root, each lasting at least its whole-message cost, so the
 * makespan is at least the largest shortest-path time from the root over the
 * cost matrix (Dijkstra, dense, O(P^2)).
 *
 * Caveat: this bounds schedules that send the whole message. A pipelined
 * (segmented) schedule can beat it, because a node may forward the first
 * segment before the last one arrives; such algorithms set
 * schedule->lower_bound themselves (the registry keeps a value that is not
 * NAN). */
#include <math.h>
#include <stdlib.h>

#include "sched_internal.h"

int hc__lower_bound_bcast(const hc_problem_t *pb, double *out)
{
    uint32_t P = pb->P;
    double *dist = hc__malloc(P, sizeof *dist);
    unsigned char *done = hc__calloc(P, 1);
    if (!dist || !done) {
        free(dist);
        free(done);
        return hc__error(HC_ERR_NOMEM, "out of memory computing the broadcast bound");
    }
    for (uint32_t i = 0; i < P; i++)
        dist[i] = INFINITY;
    dist[pb->root] = 0;
    double best = 0;
    for (uint32_t it = 0; it < P; it++) {
        uint32_t u = P;
        for (uint32_t i = 0; i < P; i++)
            if (!done[i] && (u == P || dist[i] < dist[u]))
                u = i;
        done[u] = 1;
        if (dist[u] > best)
            best = dist[u];
        for (uint32_t v = 0; v < P; v++) {
            if (done[v] || v == u)
                continue;
            double d = dist[u] + HC_AT(pb->costs, u, v);
            if (d < dist[v])
                dist[v] = d;
        }
    }
    free(dist);
    free(done);
    *out = best;
    return HC_OK;
}
