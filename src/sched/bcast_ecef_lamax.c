/* `ecef-lamax` broadcast: ECEF with look-ahead F_j = max_k (c_jk + T_k), favouring slow clusters.
 * Formerly `ecef-laT` (which differed from `ecef-lat` by case only); the registry still accepts
 * the old name as an alias.
 * Source: 004 §5.2 (ECEF-LAT).
 * Complexity / guarantee: O(C^3) for C clusters. No approximation guarantee.
 * With a hierarchy (opts->hierarchy = 1, or -1 and a platform with >= 2 cluster labels) the
 * heuristic joins the cluster coordinators and each cluster then runs its model-best classic
 * (bcast_hier.c, hc__bcast_hier_schedule); otherwise it runs on the nodes themselves. */
#include <math.h>

#include "bcast_kit.h"

/* key = RT_i + c_ij + F_j, F_j = max over k of (c_jk + T_k) over the nodes k still without the
 * message (0 when j has no usable edge to them) */
static double lookahead(const double *c, const double *T, const unsigned char *inA, uint32_t n,
                        uint32_t j)
{
    double f = -INFINITY;
    int any = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (inA[k] || k == j)
            continue;
        double v = c[(size_t)j * n + k];
        if (!isfinite(v))
            continue;
        if (T)
            v += T[k];
        if (v > f)
            f = v;
        any = 1;
    }
    return any ? f : 0;
}

const hc__edge_rule_t hc__edge_bcast_ecef_lamax = {"ecef-lamax", 0, 1, lookahead};
