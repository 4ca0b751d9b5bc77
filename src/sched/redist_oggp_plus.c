/* OGGP+ (ours, built on 001 §6.3): OGGP followed by the compaction post-pass of
 * redist_common.c: two steps whose union is still a valid step are merged (one beta saved);
 * pieces of transfers are moved into idle time of other steps (below their longest transfer,
 * or into a free slot of a step with fewer than k transfers whose endpoints are idle); steps
 * that empty are removed (saving beta + their length); a step may also be dissolved by
 * lengthening other steps by less than beta + its length; others shorten. docs/design.md has
 * the measured gain.
 *
 * Complexity: OGGP + O(passes * S^2 * k) for S steps (8 passes at most). Guarantee: cost <=
 * cost of OGGP <= 8/3 eta (the post-pass never increases the cost). */
#include "algos.h"
#include "redist_common.h"

int hc__algo_redist_oggp_plus(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__kpbs_plan(pb, 1, &plan);
    if (rc == HC_OK)
        rc = hc__redist_compact(&plan, pb->k, pb->beta);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
