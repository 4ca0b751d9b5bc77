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

void hc__bcast_set_seg_bound(const hc_problem_t *pb, hc_schedule_t *s)
{
    uint32_t P = pb->P;
    /* Receiver port intervals [end - port, end] are disjoint and the first one starts at least
     * (d - port) after time 0: makespan >= min (d - port) + sum of the ports (whole-duration
     * ports: the sum of the durations). */
    double *need = hc__calloc(P, sizeof *need);
    double *lat = hc__malloc(P, sizeof *lat);
    double *mb = hc__malloc(2 * (size_t)P, sizeof *mb); /* per dst: memo of the last bytes */
    uint64_t *mbytes = hc__malloc(P, sizeof *mbytes);
    if (!need || !lat || !mb || !mbytes) {
        free(need);
        free(lat);
        free(mb);
        free(mbytes);
        s->lower_bound = 0;
        return;
    }
    for (uint32_t v = 0; v < P; v++) {
        lat[v] = INFINITY;
        mbytes[v] = UINT64_MAX;
    }
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        double best = INFINITY, bl = INFINITY;
        int hit = e->dst < P && mbytes[e->dst] == e->bytes;
        if (hit) {
            best = mb[2 * (size_t)e->dst];
            bl = mb[2 * (size_t)e->dst + 1];
        }
        for (uint32_t u = 0; u < P && !hit; u++) {
            if (u == e->dst)
                continue;
            hc_event_t f = *e;
            f.src = u;
            double d = hc_problem_event_cost(pb, &f);
            double port = hc_problem_event_port_time(pb, &f);
            if (port < best)
                best = port;
            if (d - port < bl)
                bl = d - port;
        }
        if (e->dst < P) {
            mbytes[e->dst] = e->bytes;
            mb[2 * (size_t)e->dst] = best;
            mb[2 * (size_t)e->dst + 1] = bl;
        }
        if (isfinite(best) && e->dst < P) {
            need[e->dst] += best;
            if (bl < lat[e->dst])
                lat[e->dst] = bl;
        }
    }
    double lb = 0;
    for (uint32_t v = 0; v < P; v++) {
        double x = need[v] + (isfinite(lat[v]) && lat[v] > 0 ? lat[v] : 0);
        if (x > lb)
            lb = x;
    }
    free(need);
    free(lat);
    free(mb);
    free(mbytes);
    s->lower_bound = lb;
}
