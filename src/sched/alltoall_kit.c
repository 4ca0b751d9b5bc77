/* Shared helpers of the total exchange algorithms (000 §4): message count, lower bound, the
 * one timing routine (the replay rule of hc_simulate) and the schedule builder. */
#include "alltoall_kit.h"

#include "lap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t hc__a2a_count(const hc_matrix_t *c)
{
    size_t n = 0;
    for (uint32_t i = 0; i < c->rows; i++)
        for (uint32_t j = 0; j < c->cols; j++)
            n += (size_t)hc__a2a_sent(c, i, j);
    return n;
}

double hc__a2a_lower_bound(const hc_matrix_t *c)
{
    double best = 0;
    for (uint32_t i = 0; i < c->rows; i++) {
        double send = 0, recv = 0;
        for (uint32_t j = 0; j < c->cols; j++) {
            if (hc__a2a_sent(c, i, j))
                send += HC_AT(c, i, j);
            if (hc__a2a_sent(c, j, i))
                recv += HC_AT(c, j, i);
        }
        if (send > best)
            best = send;
        if (recv > best)
            best = recv;
    }
    return best;
}

double hc__a2a_time(const hc_matrix_t *c, const hc__a2a_msg_t *list, size_t n, double *sfree,
                    double *rfree, double *start)
{
    for (uint32_t i = 0; i < c->rows; i++)
        sfree[i] = rfree[i] = 0;
    double mk = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = list[k].src, j = list[k].dst;
        double t = sfree[i] > rfree[j] ? sfree[i] : rfree[j];
        double e = t + HC_AT(c, i, j);
        sfree[i] = rfree[j] = e;
        if (start)
            start[k] = t;
        if (e > mk)
            mk = e;
    }
    return mk;
}

int hc__a2a_build(const hc_problem_t *pb, const hc__a2a_msg_t *list, size_t n, hc_schedule_t **out)
{
    *out = NULL;
    const hc_matrix_t *c = pb->costs;
    uint32_t P = pb->P;
    double *work = hc__malloc((size_t)2 * P + n + 1, sizeof *work);
    if (!work)
        return hc__error(HC_ERR_NOMEM, "alltoall: out of memory for %zu messages", n);
    double *start = work + 2 * (size_t)P;
    hc__a2a_time(c, list, n, work, work + P, start);
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_create(HC_COLL_ALLTOALL, P, &s);
    if (rc == HC_OK) /* one allocation instead of ~log2(n) growing copies */
        rc = hc__grow((void **)&s->events, &s->cap_events, n, sizeof *s->events);
    for (size_t k = 0; rc == HC_OK && k < n; k++) {
        hc_event_t e = {0};
        e.src = list[k].src;
        e.dst = list[k].dst;
        e.start = start[k];
        e.end = start[k] + HC_AT(c, e.src, e.dst);
        e.bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, e.src, e.dst) : pb->msg_bytes;
        rc = hc_schedule_add_event(s, &e);
    }
    free(work);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    s->lower_bound = hc__a2a_lower_bound(c);
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}

int hc__a2a_matching_series(const hc_matrix_t *c, int maximize, hc__a2a_msg_t *list, size_t *n)
{
    uint32_t P = c->rows;
    size_t cells = (size_t)P * P;
    *n = 0;
    hc__lap_t *w = NULL;
    unsigned char *forbid = hc__calloc(cells, 1);
    uint32_t *match = hc__malloc(P, sizeof *match);
    int rc = forbid && match ? hc__lap_create(P, &w)
                             : hc__error(HC_ERR_NOMEM, "alltoall: out of memory (P=%u)", P);
    for (uint32_t i = 0; i < P; i++)
        if (forbid)
            forbid[(size_t)i * P + i] = 1;
    /* K_{P,P} minus the diagonal is (P-1)-regular, and so is what is left after removing k
     * perfect matchings ((P-1-k)-regular): by Hall's theorem P-1 matchings always exist. */
    for (uint32_t step = 0; rc == HC_OK && step + 1 < P; step++) {
        rc = hc__lap_solve_ws(w, c->v, forbid, maximize, 1, match, NULL);
        for (uint32_t i = 0; rc == HC_OK && i < P; i++) {
            uint32_t j = match[i];
            forbid[(size_t)i * P + j] = 1;
            if (hc__a2a_sent(c, i, j))
                list[(*n)++] = (hc__a2a_msg_t){i, j};
        }
    }
    hc__lap_destroy(w);
    free(forbid);
    free(match);
    return rc;
}

int hc__a2a_matching_schedule(const hc_problem_t *pb, int maximize, const char *algo,
                              hc_schedule_t **out)
{
    *out = NULL;
    size_t cap = hc__a2a_count(pb->costs), n = 0;
    hc__a2a_msg_t *list = hc__malloc(cap + 1, sizeof *list);
    if (!list)
        return hc__error(HC_ERR_NOMEM, "%s: out of memory (P=%u)", algo, pb->P);
    int rc = hc__a2a_matching_series(pb->costs, maximize, list, &n);
    if (rc == HC_OK)
        rc = hc__a2a_build(pb, list, n, out);
    free(list);
    return rc;
}
