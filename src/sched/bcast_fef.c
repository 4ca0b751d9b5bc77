/* `fef` broadcast: fastest edge first: repeatedly pick the cheapest edge from a node holding the
 * message to one that does not. Source: 002 §2 (Bhat et al.), 004 §5.2. Complexity / guarantee:
 * O(P^3) as written (P steps over P^2 edges). No approximation guarantee. With a hierarchy
 * (opts->hierarchy = 1, or -1 and a platform with >= 2 cluster labels) the heuristic joins the
 * cluster coordinators and each cluster then runs its model-best classic (bcast_hier.c,
 * hc__bcast_hier_schedule); otherwise it runs on the nodes themselves. */
#include "bcast_kit.h"

/* key = c_ij: the cheapest edge from any holder, whatever its sender's ready time */
const hc__edge_rule_t hc__edge_bcast_fef = {"fef", 0, 0, NULL};
