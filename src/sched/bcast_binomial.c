/* Binomial-tree broadcast by rank, the MPI default (004 Table 1: floor(log2 P) (L + g(m)) on a
 * homogeneous network).
 *
 * Ranks are relative to the root: rank(v) = (v - root) mod P. In round k = 0, 1, ... every rank
 * h < 2^k that holds the message sends it to rank h + 2^k (when < P). The tree ignores the
 * costs; the times follow them: a node sends its children in round order, each send starting
 * when the node has received the message and its previous send has freed its port (1-port;
 * every node receives once; the port time is hc_problem_event_port_time, the gap g for a pLogP
 * broadcast). This is the simulator's earliest-start rule, so the replay gives the same
 * times.
 *
 * Complexity O(P log P). Guarantee: ceil(log2 P) rounds; on a homogeneous network the makespan
 * is ceil(log2 P) message times, which is optimal for whole-message broadcast. */
#include <stdlib.h>

#include "../core/internal.h"

int hc__algo_bcast_binomial(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                            hc_schedule_t **out);
int hc__algo_bcast_binomial(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    uint32_t P = pb->P, r = pb->root;
    double *ready = hc__calloc(P, sizeof *ready); /* by rank: when it holds and is free */
    if (!ready)
        return hc__error(HC_ERR_NOMEM, "binomial: out of memory");
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK) {
        s->root = r;
        rc = hc_schedule_alloc_trees(s, 0);
    }
    for (uint64_t step = 1; step < P && rc == HC_OK; step <<= 1) {
        for (uint64_t h = 0; h < step && h + step < P && rc == HC_OK; h++) {
            uint32_t src = (uint32_t)((h + r) % P), dst = (uint32_t)((h + step + r) % P);
            hc_event_t e = {0};
            e.src = src;
            e.dst = dst;
            e.start = ready[h];
            e.end = e.start + HC_AT(pb->costs, src, dst);
            e.bytes = pb->msg_bytes;
            /* the sender's port is free after the port time (pLogP broadcasts: g; else the
             * whole transfer); the receiver holds the message at the end */
            double port = hc_problem_event_port_time(pb, &e);
            ready[h] = port < e.end - e.start ? e.start + port : e.end;
            ready[h + step] = e.end;
            s->parent[dst] = (int32_t)src;
            rc = hc_schedule_add_event(s, &e);
        }
    }
    free(ready);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}
