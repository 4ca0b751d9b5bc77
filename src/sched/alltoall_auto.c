/* auto: the CLI default for total exchange. Runs the fast algorithms, predicts each makespan
 * (exact: every alltoall schedule is timed with the replay rule, so the prediction is what the
 * simulator replays) and keeps the smallest; ties go to the earlier candidate.
 * Candidates, in order: openshop-lb (P <= 512; its restart budget shrinks with P), openshop,
 * maxmatch and minmatch (P <= 128, where an O(P^4) series costs at most ~0.1 s), greedy.
 * The note says which one won and by how much, e.g.
 *   "auto: openshop-lb 1.0012xLB beat openshop 1.0301xLB, maxmatch 1.0700xLB, ...".
 * Complexity: the sum of its candidates'. Guarantee: <= 2 LB (openshop is always a candidate,
 * Theorem 3 of 000). */
#include <stdio.h>
#include <string.h>

#include "alltoall_common.h"

typedef struct cand {
    const char *name;
    int (*fn)(const hc_problem_t *, const hc_algo_opts_t *, hc_schedule_t **);
    uint32_t max_p;
} cand_t;

static const cand_t cands[] = {
    {"openshop-lb", hc__algo_alltoall_openshop_lb, 512},
    {"openshop", hc__algo_alltoall_openshop, UINT32_MAX},
    {"maxmatch", hc__algo_alltoall_maxmatch, 128},
    {"minmatch", hc__algo_alltoall_minmatch, 128},
    {"greedy", hc__algo_alltoall_greedy, UINT32_MAX},
};
#define N_CANDS (sizeof cands / sizeof cands[0])

int hc__algo_alltoall_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);
int hc__algo_alltoall_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    hc_schedule_t *best = NULL;
    size_t best_k = 0;
    double mk[N_CANDS];
    int ran[N_CANDS] = {0};
    double lb = hc__a2a_lower_bound(pb->costs);
    for (size_t k = 0; k < N_CANDS; k++) {
        if (pb->P > cands[k].max_p)
            continue;
        hc_schedule_t *s = NULL;
        int rc = cands[k].fn(pb, opts, &s);
        if (rc != HC_OK) {
            hc_schedule_destroy(best);
            return rc;
        }
        ran[k] = 1;
        mk[k] = s->makespan;
        if (!best || s->makespan < best->makespan) {
            hc_schedule_destroy(best);
            best = s;
            best_k = k;
        } else {
            hc_schedule_destroy(s);
        }
    }
    char note[512];
    size_t used = 0;
    double den = lb > 0 ? lb : 1;
    int w = snprintf(note, sizeof note, "auto: %s %.4fxLB (lowest predicted makespan) beat",
                     cands[best_k].name, best->makespan / den);
    used = w > 0 ? (size_t)w : 0;
    int first = 1;
    for (size_t k = 0; k < N_CANDS && used < sizeof note; k++) {
        if (!ran[k] || k == best_k)
            continue;
        w = snprintf(note + used, sizeof note - used, "%s %s %.4fxLB", first ? "" : ",",
                     cands[k].name, mk[k] / den);
        first = 0;
        if (w > 0)
            used += (size_t)w;
    }
    if (used < sizeof note) {
        size_t skipped = 0;
        for (size_t k = 0; k < N_CANDS; k++)
            skipped += !ran[k];
        if (skipped)
            snprintf(note + used, sizeof note - used, " (%zu skipped as too slow at P=%u)", skipped,
                     pb->P);
    }
    int rc = hc_schedule_set_note(best, "%s", note);
    if (rc != HC_OK) {
        hc_schedule_destroy(best);
        return rc;
    }
    snprintf(best->algorithm, sizeof best->algorithm, "auto");
    *out = best;
    return HC_OK;
}
