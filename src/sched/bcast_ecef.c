/* `ecef` broadcast: earliest completing edge first: minimise ready time of the sender + edge cost.
 * Source: 002 §2, 004 §5.2.
 * Complexity / guarantee: O(P^3). No approximation guarantee; exact-optimality gap measured against
 * an exhaustive oracle in tests/algo/test_bcast.c. With a hierarchy (opts->hierarchy = 1, or -1 and
 * a platform with >= 2 cluster labels) the heuristic joins the cluster coordinators and each
 * cluster then runs its model-best classic (bcast_hier.c, hc__bcast_hier_schedule); otherwise it
 * runs on the nodes themselves. */
#include "bcast_kit.h"

/* key = RT_i + c_ij: the edge whose transfer would complete first */
const hc__edge_rule_t hc__edge_bcast_ecef = {"ecef", 0, 1, NULL};
