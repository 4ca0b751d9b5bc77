/* Heuristic on degrees (001 §7): as the heuristic on weights, but the k kept edges of the
 * maximum matching are those of highest degree, deg(i) + deg(j) counted in the graph of the
 * remaining messages (001 does not define an edge's degree; ties keep the matcher's order).
 *
 * Complexity: O(m^2 sqrt(n)). Guarantee: none (001 §8.1, Figs. 13-14). */
#include "algos.h"
#include "redist_kit.h"

/* the edge key: deg(i) + deg(j), the endpoints' numbers of remaining messages */
static double key(double rem, uint32_t deg1, uint32_t deg2)
{
    (void)rem;
    return (double)(deg1 + deg2);
}

int hc__algo_redist_hdegree(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__redist_heuristic(pb, key, &plan);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
