/* `hier-auto` broadcast: the grid broadcast of 004 §5.2 with every inter-cluster heuristic
 * (flat, fef, ecef, ecef-la, ecef-lat, ecef-laT) tried and the schedule with the smallest
 * makespan kept (ties: the first in that order). Without a hierarchy (opts->hierarchy = 0, no
 * platform, or fewer than 2 clusters in auto mode) the same heuristics run on the nodes.
 * With a hierarchy, the cluster pipeline (hc__bcast_hier_chain_schedule: the clusters chained
 * by coordinator cost, one segmented pipeline through them) is a seventh candidate; under pLogP
 * ports (latency overlapped with the next send) it is often the best on grids, since a chain
 * pays each inter-cluster latency once and the gap g(m) once.
 * Complexity: 7 x the cost of one heuristic. Never worse than any of them on the planned costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_common.h"

int hc__algo_bcast_hier_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out);
int hc__algo_bcast_hier_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out)
{
    *out = NULL;
    hc_schedule_t *best = NULL;
    double times[HC__GR_COUNT];
    int bi = -1;
    for (int r = 0; r < HC__GR_COUNT; r++) {
        hc_schedule_t *s = NULL;
        times[r] = NAN;
        int rc = hc__bcast_hetero(pb, opts, (hc__gr_rule_t)r, &s);
        if (rc != HC_OK) {
            hc_schedule_destroy(best);
            return rc;
        }
        hc_schedule_finish(s);
        times[r] = s->makespan;
        if (!best || s->makespan < best->makespan) {
            hc_schedule_destroy(best);
            best = s;
            bi = r;
        } else {
            hc_schedule_destroy(s);
        }
    }
    int hier = hc__bcast_use_hier(pb, opts);
    double tchain = NAN;
    if (hier) {
        hc_schedule_t *s = NULL;
        int rc = hc__bcast_hier_chain_schedule(pb, opts, &s);
        if (rc != HC_OK) {
            hc_schedule_destroy(best);
            return rc;
        }
        hc_schedule_finish(s);
        tchain = s->makespan;
        if (s->makespan < best->makespan) {
            hc_schedule_destroy(best);
            best = s;
            bi = HC__GR_COUNT;
        } else {
            hc_schedule_destroy(s);
        }
    }
    char buf[512];
    size_t len = 0;
    len +=
        (size_t)snprintf(buf + len, sizeof buf - len, "hier-auto (%s): kept %s;",
                         hier ? "hierarchical" : "node level",
                         bi == HC__GR_COUNT ? "cluster-pipeline" : hc__gr_name((hc__gr_rule_t)bi));
    for (int r = 0; r < HC__GR_COUNT && len < sizeof buf; r++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, " %s %.6g s%s",
                                hc__gr_name((hc__gr_rule_t)r), times[r],
                                r + 1 < HC__GR_COUNT || hier ? "," : "");
    if (hier && len < sizeof buf)
        len += (size_t)snprintf(buf + len, sizeof buf - len, " cluster-pipeline %.6g s", tchain);
    /* keep the winner's note (the cluster table) below the comparison */
    const char *old = best->note ? best->note : "";
    char *note = hc__malloc(strlen(buf) + strlen(old) + 2, 1);
    if (!note) {
        hc_schedule_destroy(best);
        return hc__error(HC_ERR_NOMEM, "out of memory in hier-auto");
    }
    sprintf(note, "%s\n%s", buf, old);
    free(best->note);
    best->note = note;
    *out = best;
    return HC_OK;
}
