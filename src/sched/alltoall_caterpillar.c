/* Caterpillar total exchange (000 §4.2), the homogeneous baseline.
 *
 * In step j = 1..P-1 node i sends to (i + j) mod P. Each node sends in that order, as early as
 * the 1-port rule allows: an event starts when its sender's previous send and its receiver's
 * previous receive have ended (the simulator's earliest-start rule, so replaying the schedule
 * gives back the same times). Events are built step by step, node by node; zero-cost messages
 * are not sent. On a homogeneous network every step takes one message time; on a heterogeneous
 * one a slow link delays its sender's and receiver's later steps.
 *
 * Complexity O(P^2). No guarantee beyond validity (000 shows it can be far from the lower
 * bound on heterogeneous networks). */
#include <stdlib.h>

#include "algos.h"
#include "../core/internal.h"

int hc__algo_alltoall_caterpillar(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                  hc_schedule_t **out)
{
    (void)opts;
    uint32_t P = pb->P;
    double *send_free = hc__calloc(P, sizeof *send_free);
    double *recv_free = hc__calloc(P, sizeof *recv_free);
    hc_schedule_t *s = NULL;
    int rc = HC_OK;
    if (!send_free || !recv_free) {
        rc = hc__error(HC_ERR_NOMEM, "caterpillar: out of memory");
        goto done;
    }
    rc = hc_schedule_create(HC_COLL_ALLTOALL, P, &s);
    if (rc != HC_OK)
        goto done;
    for (uint32_t j = 1; j < P && rc == HC_OK; j++) {
        for (uint32_t i = 0; i < P && rc == HC_OK; i++) {
            uint32_t d = (i + j) % P;
            double c = HC_AT(pb->costs, i, d);
            if (c <= 0)
                continue;
            hc_event_t e = {0};
            e.src = i;
            e.dst = d;
            e.start = send_free[i] > recv_free[d] ? send_free[i] : recv_free[d];
            e.end = e.start + c;
            e.bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, i, d) : pb->msg_bytes;
            send_free[i] = recv_free[d] = e.end;
            rc = hc_schedule_add_event(s, &e);
        }
    }
done:
    free(send_free);
    free(recv_free);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}
