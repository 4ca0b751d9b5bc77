/* Heuristic on weights (001 §7, Fig. 10): a maximum matching of the remaining messages
 * (Hopcroft-Karp), keep its k heaviest edges, cut them to the lightest kept one, subtract,
 * repeat until nothing is left.
 *
 * Complexity: O(m^2 sqrt(n)) (each step removes an edge). Guarantee: none (not an
 * approximation algorithm; 001 §8.1 reports cost/eta max < 2.4, mean < 1.8 on small weights). */
#include "algos.h"
#include "redist_kit.h"

/* the edge key: the remaining time of the message */
static double key(double rem, uint32_t deg1, uint32_t deg2)
{
    (void)deg1;
    (void)deg2;
    return rem;
}

int hc__algo_redist_hweight(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
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
