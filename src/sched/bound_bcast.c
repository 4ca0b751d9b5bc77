/* Lower bound of a broadcast problem, valid for every schedule, segmented or not (so that one
 * bound per problem can be reported by every schedule and used for every ratio):
 *   - the first byte reaches v along a chain of sends from the root, each lasting at least the
 *     cost of a one-byte message: dist(root, v) over those (Dijkstra, dense, O(P^2));
 *   - with whole-duration ports (Hockney), v's receives are disjoint and together carry the
 *     message: a piece of s bytes from u costs a_u + b_u s with a_u >= 0, and
 *     sum_k (a_k + b_k s_k) >= sum_k (s_k / m) (a_k + b_k m) >= min_u cost(u, v, m): at least the
 *     cheapest whole-message receive. (pLogP problems overlap latencies, whose gap tables make
 *     no such promise: only the first term.)
 * The whole-message shortest path (the bound before) holds only for unsegmented schedules: a
 * pipelined broadcast beat it on gusto (18.03 s against 24.58 s). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"
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
    const int whole_ports = !hc_problem_overlaps_latency(pb);
    for (uint32_t i = 0; i < P; i++)
        dist[i] = INFINITY;
    dist[pb->root] = 0;
    double best = 0;
    hc_event_t e;
    memset(&e, 0, sizeof e);
    for (uint32_t it = 0; it < P; it++) {
        uint32_t u = P;
        for (uint32_t i = 0; i < P; i++)
            if (!done[i] && (u == P || dist[i] < dist[u]))
                u = i;
        done[u] = 1;
        double need = dist[u];
        if (whole_ports && u != pb->root) {
            double cheapest = INFINITY; /* the cheapest whole-message receive of u */
            e.dst = u;
            e.bytes = pb->msg_bytes;
            for (uint32_t w = 0; w < P; w++) {
                if (w == u)
                    continue;
                e.src = w;
                double c = hc_problem_event_cost(pb, &e);
                if (c < cheapest)
                    cheapest = c;
            }
            if (cheapest > need)
                need = cheapest;
        }
        if (need > best)
            best = need;
        e.src = u;
        e.bytes = pb->msg_bytes > 0 ? 1 : 0; /* the latency part: a piece has at least a byte */
        for (uint32_t v = 0; v < P; v++) {
            if (done[v] || v == u)
                continue;
            e.dst = v;
            double d = dist[u] + hc_problem_event_cost(pb, &e);
            if (d < dist[v])
                dist[v] = d;
        }
    }
    free(dist);
    free(done);
    *out = best;
    return HC_OK;
}
