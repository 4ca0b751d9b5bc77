/* `post-all` total exchange: every message posted at once (the schedule's window is
 * HC_WINDOW_ALL), in the caterpillar's order, leaving the links to max-min fair sharing — what
 * MPI libraries' linear all-to-all does (Open MPI's basic linear). Where links are shared
 * (site uplinks, a backbone, a server's NIC contended by its receivers), a 1-port order with
 * a few messages in flight leaves a bottleneck idle while a node waits on a busy receiver;
 * with everything in flight, sharing keeps every bottleneck busy until its last byte (the
 * flow model gives the link bound on the 3-site grid, the fat tree and the backbone
 * platform). The planned times are the caterpillar's 1-port times (the per-pair model has no
 * sharing to show); the runtime ranks it by the flow model like every candidate.
 * Complexity O(P^2). */
#include "algos.h"
#include "../core/internal.h"

int hc__algo_alltoall_post_all(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out)
{
    int rc = hc__algo_alltoall_caterpillar(pb, opts, out);
    if (rc != HC_OK)
        return rc;
    (*out)->window = HC_WINDOW_ALL;
    return hc_schedule_set_note(*out, "post-all: every message posted at once, the links "
                                      "shared by max-min fairness");
}
