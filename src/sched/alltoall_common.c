/* Shared helpers of the total exchange algorithms (000 §4): message count, lower bound, the
 * one timing routine (the replay rule of hc_simulate) and the schedule builder. */
#include "alltoall_common.h"

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

/* ---- polish: hill climbing on the critical path (see alltoall_common.h) ---- */

typedef struct polish {
    size_t n;
    const hc_matrix_t *c;
    double *p, *r, *q;
    int32_t *sprev, *snext, *rprev, *rnext;
    uint32_t *indeg, *topo;
    hc__a2a_msg_t *ops;
} polish_t;

/* Heads (earliest starts) and tails by Kahn's algorithm; returns the makespan, or INFINITY
 * when the chains have a cycle. */
static double polish_eval(polish_t *w)
{
    size_t n = w->n, head = 0, tail = 0;
    for (size_t k = 0; k < n; k++) {
        w->indeg[k] = (uint32_t)(w->sprev[k] >= 0) + (uint32_t)(w->rprev[k] >= 0);
        if (!w->indeg[k])
            w->topo[tail++] = (uint32_t)k;
    }
    double mk = 0;
    while (head < tail) {
        uint32_t k = w->topo[head++];
        double s = 0;
        if (w->sprev[k] >= 0)
            s = w->r[w->sprev[k]] + w->p[w->sprev[k]];
        if (w->rprev[k] >= 0) {
            double x = w->r[w->rprev[k]] + w->p[w->rprev[k]];
            if (x > s)
                s = x;
        }
        w->r[k] = s;
        if (s + w->p[k] > mk)
            mk = s + w->p[k];
        int32_t nx[2] = {w->snext[k], w->rnext[k]};
        for (int a = 0; a < 2; a++)
            if (nx[a] >= 0 && --w->indeg[nx[a]] == 0)
                w->topo[tail++] = (uint32_t)nx[a];
    }
    if (tail < n)
        return INFINITY;
    for (size_t h = n; h-- > 0;) {
        uint32_t k = w->topo[h];
        double t = 0;
        if (w->snext[k] >= 0)
            t = w->p[w->snext[k]] + w->q[w->snext[k]];
        if (w->rnext[k] >= 0) {
            double x = w->p[w->rnext[k]] + w->q[w->rnext[k]];
            if (x > t)
                t = x;
        }
        w->q[k] = t;
    }
    return mk;
}

typedef struct polish_key {
    double start;
    uint32_t idx;
} polish_key_t;

static int by_start(const void *x, const void *y)
{
    const polish_key_t *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

/* Swap op a with its successor b in a chain (prev/next arrays of that chain). */
static void chain_swap(int32_t *prev, int32_t *next, int32_t a)
{
    int32_t b = next[a], pa = prev[a], nb = next[b];
    if (pa >= 0)
        next[pa] = b;
    prev[b] = pa;
    next[b] = a;
    prev[a] = b;
    next[a] = nb;
    if (nb >= 0)
        prev[nb] = a;
}

int hc__a2a_polish(const hc_matrix_t *c, hc__a2a_msg_t *list, size_t n, size_t max_evals,
                   hc_rng_t *rng, double *makespan)
{
    uint32_t P = c->rows;
    polish_t w = {0};
    w.n = n;
    w.c = c;
    w.p = hc__malloc(n + 1, sizeof *w.p);
    w.r = hc__malloc(n + 1, sizeof *w.r);
    w.q = hc__malloc(n + 1, sizeof *w.q);
    w.sprev = hc__malloc(n + 1, sizeof *w.sprev);
    w.snext = hc__malloc(n + 1, sizeof *w.snext);
    w.rprev = hc__malloc(n + 1, sizeof *w.rprev);
    w.rnext = hc__malloc(n + 1, sizeof *w.rnext);
    w.indeg = hc__malloc(n + 1, sizeof *w.indeg);
    w.topo = hc__malloc(n + 1, sizeof *w.topo);
    int32_t *lasts = hc__malloc((size_t)2 * P, sizeof *lasts);
    uint32_t *cand = hc__malloc(2 * n + 1, sizeof *cand);
    polish_key_t *order = hc__malloc(n + 1, sizeof *order);
    hc__a2a_msg_t *copy = hc__malloc(n + 1, sizeof *copy);
    double *sf = hc__malloc((size_t)2 * P, sizeof *sf);
    int rc = HC_OK;
    if (!w.p || !w.r || !w.q || !w.sprev || !w.snext || !w.rprev || !w.rnext || !w.indeg ||
        !w.topo || !lasts || !cand || !order || !copy || !sf) {
        rc = hc__error(HC_ERR_NOMEM, "alltoall polish: out of memory (%zu messages)", n);
        goto done;
    }
    for (uint32_t x = 0; x < 2 * P; x++)
        lasts[x] = -1;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = list[k].src, j = list[k].dst;
        w.p[k] = HC_AT(c, i, j);
        w.sprev[k] = lasts[i];
        w.rprev[k] = lasts[P + j];
        w.snext[k] = w.rnext[k] = -1;
        if (lasts[i] >= 0)
            w.snext[lasts[i]] = (int32_t)k;
        if (lasts[P + j] >= 0)
            w.rnext[lasts[P + j]] = (int32_t)k;
        lasts[i] = (int32_t)k;
        lasts[P + j] = (int32_t)k;
    }
    double cur = polish_eval(&w), lb = hc__a2a_lower_bound(c);
    size_t evals = 0, plateau = 0;
    while (evals < max_evals && cur > lb * (1 + 1e-12)) {
        /* adjacent pairs on a critical path: a then b in one chain, b starting when a ends */
        size_t nc = 0;
        double tol = 1e-12 * cur;
        for (size_t a = 0; a < n; a++) {
            if (w.r[a] + w.p[a] + w.q[a] < cur - tol)
                continue;
            int32_t b = w.snext[a];
            if (b >= 0 && fabs(w.r[a] + w.p[a] - w.r[b]) <= tol &&
                w.r[b] + w.p[b] + w.q[b] >= cur - tol)
                cand[nc++] = (uint32_t)(2 * a);
            b = w.rnext[a];
            if (b >= 0 && fabs(w.r[a] + w.p[a] - w.r[b]) <= tol &&
                w.r[b] + w.p[b] + w.q[b] >= cur - tol)
                cand[nc++] = (uint32_t)(2 * a + 1);
        }
        if (!nc)
            break;
        int moved = 0;
        for (size_t t = 0; t < nc && evals < max_evals; t++) {
            size_t u = t + (size_t)hc_rng_below(rng, nc - t); /* random order */
            uint32_t m = cand[u];
            cand[u] = cand[t];
            cand[t] = m;
            int32_t a = (int32_t)(m / 2);
            int32_t *prev = m % 2 ? w.rprev : w.sprev, *next = m % 2 ? w.rnext : w.snext;
            int32_t b = next[a];
            chain_swap(prev, next, a);
            double mk = polish_eval(&w);
            evals++;
            if (mk < cur - tol || (mk <= cur && plateau < 50)) { /* never worse */
                plateau = mk < cur - tol ? 0 : plateau + 1;
                cur = mk;
                moved = 1;
                break;
            }
            chain_swap(prev, next, b); /* undo: b is now first (r, q are recomputed later) */
        }
        if (!moved)
            break;
    }
    /* Write back in start order (consistent with every chain: starts strictly increase). */
    polish_eval(&w);
    for (size_t k = 0; k < n; k++)
        order[k] = (polish_key_t){w.r[k], (uint32_t)k};
    qsort(order, n, sizeof *order, by_start);
    for (size_t k = 0; k < n; k++)
        copy[k] = list[order[k].idx];
    memcpy(list, copy, n * sizeof *list);
    *makespan = hc__a2a_time(c, list, n, sf, sf + P, NULL);
done:
    free(w.p), free(w.r), free(w.q), free(w.sprev), free(w.snext), free(w.rprev), free(w.rnext);
    free(w.indeg), free(w.topo), free(lasts), free(cand), free(order), free(copy), free(sf);
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
