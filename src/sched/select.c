/* Selection as data: the `auto` of every collective runs the registry rows flagged
 * HC_ALGO_AUTO (algos.def) and keeps the lowest planned makespan. Every schedule is timed by the
 * replay rule, so the planned makespan is what the simulator replays. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

int hc__select_applies(const hc_algo_info_t *a, const hc_problem_t *pb, const hc_algo_opts_t *opts)
{
    if (a->coll != pb->coll || !(a->flags & HC_ALGO_AUTO))
        return 0;
    if (a->flags & HC_ALGO_EXACT) /* exhaustive: only bounded in time or size */
        return (opts && opts->time_limit_s > 0) || pb->P <= a->auto_max_nodes;
    return a->auto_max_nodes == 0 || pb->P <= a->auto_max_nodes;
}

int hc__select_best(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    size_t n = hc_algo_count();
    double *mk = hc__malloc(n, sizeof *mk);
    if (!mk)
        return hc__error(HC_ERR_NOMEM, "out of memory in auto");
    hc_schedule_t *best = NULL;
    size_t best_i = 0, skipped = 0, unsupported = 0;
    double lb = NAN;
    if (hc_lower_bound(pb, &lb) != HC_OK || !(lb > 0))
        lb = NAN;
    for (size_t i = 0; i < n; i++) {
        const hc_algo_info_t *a = hc_algo_get(i);
        mk[i] = NAN;
        if (a->coll != pb->coll || !(a->flags & HC_ALGO_AUTO))
            continue;
        if (!hc__select_applies(a, pb, opts)) {
            skipped++;
            continue;
        }
        /* an exhaustive search beyond its size gets at most HC__AUTO_EXACT_S of the limit: it
         * will not complete, and its best-so-far is what counts */
        hc_algo_opts_t o;
        if (opts)
            o = *opts;
        else
            hc_algo_opts_init(&o);
        if ((a->flags & HC_ALGO_EXACT) && pb->P > a->auto_max_nodes &&
            !(o.time_limit_s <= HC__AUTO_EXACT_S))
            o.time_limit_s = HC__AUTO_EXACT_S;
        hc_schedule_t *s = NULL;
        int rc = a->fn(pb, &o, &s);
        if (rc == HC_ERR_UNSUPPORTED) { /* not this problem's model (e.g. pair costs) */
            unsupported++;
            continue;
        }
        if (rc != HC_OK) {
            free(mk);
            hc_schedule_destroy(best);
            return rc;
        }
        hc_schedule_finish(s);
        mk[i] = s->makespan;
        /* a later row must win by more than rounding (ties keep the earlier row) */
        if (!best || s->makespan < best->makespan * (1 - 1e-12)) {
            hc_schedule_destroy(best);
            best = s;
            best_i = i;
        } else {
            hc_schedule_destroy(s);
        }
    }
    if (!best) {
        free(mk);
        return hc__error(HC_ERR_UNSUPPORTED, "auto: no %s algorithm applies to this problem",
                         hc_coll_name(pb->coll));
    }
    /* "auto: openshop-lb 1.0012xLB (lowest predicted makespan) beat openshop 1.0301xLB, ..." */
    char note[1024];
    size_t used = 0;
    double den = isnan(lb) ? 1 : lb;
    const char *unit = isnan(lb) ? " s" : "xLB";
    int w = snprintf(note, sizeof note, "auto: %s %.4f%s (lowest predicted makespan) beat",
                     hc_algo_get(best_i)->name, best->makespan / den, unit);
    used = w > 0 ? (size_t)w : 0;
    int first = 1;
    for (size_t i = 0; i < n && used < sizeof note; i++) {
        if (isnan(mk[i]) || i == best_i)
            continue;
        w = snprintf(note + used, sizeof note - used, "%s %s %.4f%s", first ? "" : ",",
                     hc_algo_get(i)->name, mk[i] / den, unit);
        first = 0;
        if (w > 0)
            used += (size_t)w;
    }
    if (first && used < sizeof note)
        used += (size_t)snprintf(note + used, sizeof note - used, " no other candidate");
    if (skipped && used < sizeof note)
        used += (size_t)snprintf(note + used, sizeof note - used,
                                 " (%zu skipped as too slow at P=%u)", skipped, pb->P);
    if (unsupported && used < sizeof note)
        snprintf(note + used, sizeof note - used, " (%zu not applicable)", unsupported);
    free(mk);
    /* keep the winner's own note (e.g. a cluster table) below the comparison */
    int rc = best->note ? hc_schedule_set_note(best, "%s\n%s", note, best->note)
                        : hc_schedule_set_note(best, "%s", note);
    if (rc != HC_OK) {
        hc_schedule_destroy(best);
        return rc;
    }
    snprintf(best->algorithm, sizeof best->algorithm, "auto");
    *out = best;
    return HC_OK;
}
