/* `ecef-laT` broadcast: ECEF with look-ahead F_j = max_k (c_jk + T_k), favouring slow clusters.
 * Source: 004 §5.2 (ECEF-LAT).
 * Complexity / guarantee: O(C^3) for C clusters. No approximation guarantee.
 * With a hierarchy (opts->hierarchy = 1, or -1 and a platform with >= 2 cluster labels) the
 * heuristic joins the cluster coordinators and each cluster then runs its model-best classic
 * (bcast_common.c, hc__bcast_hier_schedule); otherwise it runs on the nodes themselves. */
#include "bcast_common.h"

int hc__algo_bcast_ecef_lamax(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out);
int hc__algo_bcast_ecef_lamax(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out)
{
    return hc__bcast_hetero(pb, opts, HC__GR_ECEF_LAT, out);
}
