/* Shared helpers of the reduction algorithms (003): send times t(i),
 * count-model EP times (003 Figure 3 in closed form) and the explicit pairing
 * (who receives each message).
 *
 * Pairing (docs/design.md "Reduction"): jobs are half-open windows [s, c). A
 * non-root node r can receive job p iff r sends at or after p ends (s(r) >=
 * c(p)); the root always can; a node receives one message at a time. Taking the
 * jobs by decreasing end, any idle candidate works: in reversed time candidates
 * only ever join, so this is greedy interval colouring, which fails only if,
 * just before some c(p), the jobs in progress outnumber the candidates: A > (n
 * - 1 - A - C) + 1, i.e. 2A + C > n. So 003's count condition 2A + C <= n is
 * exactly what a pairing needs, and EP times always admit one. Complexity
 * O(P^2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reduce_kit.h"
#include "sched_internal.h"

int hc__reduce_send_times(const hc_problem_t *pb, const char *algo, double *t)
{
    uint32_t P = pb->P;
    for (uint32_t i = 0; i < P; i++) {
        t[i] = 0;
        if (i == pb->root)
            continue;
        uint32_t j0 = i == 0 ? 1 : 0;
        double ref = HC_AT(pb->costs, i, j0);
        for (uint32_t j = 0; j < P; j++) {
            if (j == i)
                continue;
            double v = HC_AT(pb->costs, i, j);
            if (fabs(v - ref) > 1e-12 * fmax(fabs(v), fabs(ref)))
                return hc__error(HC_ERR_UNSUPPORTED,
                                 "%s: reduce cost row %u is not constant (C[%u][%u] = %g s, "
                                 "C[%u][%u] = %g s); 003's model needs t(i) = C[i][j] for every "
                                 "j; use ep-pq, snf-pq or bnb-pq for sender-receiver costs",
                                 algo, i, i, j0, ref, i, j, v);
        }
        t[i] = ref;
    }
    return HC_OK;
}

static void heap_push(double *h, uint32_t *n, double v)
{
    uint32_t i = (*n)++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (h[p] <= v)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}

static double heap_pop(double *h, uint32_t *n)
{
    double top = h[0];
    double v = h[--*n];
    uint32_t i = 0;
    if (*n == 0)
        return top;
    for (;;) {
        uint32_t l = 2 * i + 1;
        if (l >= *n)
            break;
        uint32_t c = (l + 1 < *n && h[l + 1] < h[l]) ? l + 1 : l;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
    return top;
}

void hc__reduce_ep_times(uint32_t n, const double *dur, uint32_t m, double *start, double *work)
{
    /* New completions are >= the current start >= every popped completion, so the
     * popped values stay the smallest ones: after k pops the last popped is the
     * k-th smallest. */
    uint32_t hn = 0, popped = 0;
    double prev = 0, last = 0;
    for (uint32_t i = 1; i <= m; i++) {
        int64_t k = 2 * (int64_t)i - (int64_t)n;
        double st = prev;
        if (k > 0) {
            while (popped < (uint64_t)k && hn > 0) {
                last = heap_pop(work, &hn);
                popped++;
            }
            if (last > st)
                st = last;
        }
        start[i - 1] = st;
        heap_push(work, &hn, st + dur[i - 1]);
        prev = st;
    }
}

int hc__reduce_check_order(const hc_problem_t *pb, const uint32_t *order, uint32_t len)
{
    uint32_t P = pb->P;
    if (len != P - 1)
        return hc__error(HC_ERR_VALUE,
                         "reduce order: %u node(s) given, expected the %u non-root nodes", len,
                         P - 1);
    unsigned char *seen = hc__calloc(P, 1);
    if (!seen)
        return hc__error(HC_ERR_NOMEM, "reduce order: out of memory");
    int rc = HC_OK;
    for (uint32_t k = 0; k < len; k++) {
        uint32_t v = order[k];
        if (v >= P) {
            rc = hc__error(HC_ERR_VALUE, "reduce order: entry %u: node %u out of range (P = %u)",
                           k + 1, v, P);
            break;
        }
        if (v == pb->root) {
            rc = hc__error(HC_ERR_VALUE,
                           "reduce order: entry %u: node %u is the root, which never "
                           "sends",
                           k + 1, v);
            break;
        }
        if (seen[v]) {
            rc = hc__error(HC_ERR_VALUE, "reduce order: entry %u: node %u listed twice", k + 1, v);
            break;
        }
        seen[v] = 1;
    }
    free(seen);
    return rc;
}

typedef struct job {
    double s, c;
    uint32_t k;
} job_t;

static int by_end_desc(const void *a, const void *b)
{
    const job_t *x = a, *y = b;
    if (x->c != y->c)
        return x->c > y->c ? -1 : 1;
    if (x->s != y->s)
        return x->s > y->s ? -1 : 1;
    return x->k < y->k ? -1 : (x->k > y->k);
}

typedef struct evsort {
    double s, c;
    uint32_t k;
} evsort_t;

static int by_start(const void *a, const void *b)
{
    const evsort_t *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return x->k < y->k ? -1 : (x->k > y->k);
}

/* r idle for job [s, c)? Jobs already on r end at or after c and are disjoint,
 * so only the earliest one (mins, mine) can overlap. A zero-length job is the
 * point s. */
static int idle_for(double mins, double mine, double s, double c)
{
    if (c > s)
        return !(mins < c);
    return !(mins < s && mine > s);
}

int hc__reduce_build(const hc_problem_t *pb, const uint32_t *order, const double *start,
                     const double *t, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    int rc = HC_OK;
    job_t *jobs = hc__malloc(m + 1, sizeof *jobs);
    evsort_t *evs = hc__malloc(m + 1, sizeof *evs);
    uint32_t *recv = hc__malloc(m + 1, sizeof *recv);
    double *sstart = hc__malloc(P, sizeof *sstart);
    double *mins = hc__malloc(P, sizeof *mins);
    double *mine = hc__malloc(P, sizeof *mine);
    uint32_t *spos = hc__malloc(P, sizeof *spos);
    hc_schedule_t *s = NULL;
    if (!jobs || !evs || !recv || !sstart || !mins || !mine || !spos) {
        rc = hc__error(HC_ERR_NOMEM, "reduce: out of memory (P = %u)", P);
        goto done;
    }
    for (uint32_t i = 0; i < P; i++) {
        sstart[i] = INFINITY;
        mins[i] = INFINITY;
        mine[i] = INFINITY;
    }
    for (uint32_t k = 0; k < m; k++) {
        sstart[order[k]] = start[k];
        spos[order[k]] = k;
        jobs[k] = (job_t){start[k], start[k] + t[order[k]], k};
    }
    qsort(jobs, m, sizeof *jobs, by_end_desc);
    for (uint32_t q = 0; q < m; q++) {
        const job_t *jb = &jobs[q];
        uint32_t p = order[jb->k], best = UINT32_MAX;
        for (uint32_t r = 0; r < P; r++) {
            if (r == p || r == pb->root || sstart[r] < jb->c || spos[r] <= jb->k)
                continue; /* spos: with zero-length jobs, s(r) >= c(p) allows ties */
            if (!idle_for(mins[r], mine[r], jb->s, jb->c))
                continue;
            if (best == UINT32_MAX || sstart[r] < sstart[best])
                best = r;
        }
        if (best == UINT32_MAX && idle_for(mins[pb->root], mine[pb->root], jb->s, jb->c))
            best = pb->root;
        if (best == UINT32_MAX) {
            rc = hc__error(HC_ERR_INTERNAL,
                           "reduce: no receiver for node %u's send at %g s (the times break "
                           "2A + C <= n)",
                           p, jb->s);
            goto done;
        }
        recv[jb->k] = best;
        if (jb->s < mins[best]) {
            mins[best] = jb->s;
            mine[best] = jb->c;
        }
    }
    rc = hc_schedule_create(HC_COLL_REDUCE, P, &s);
    if (rc != HC_OK)
        goto done;
    s->root = pb->root;
    for (uint32_t k = 0; k < m; k++)
        evs[k] = (evsort_t){start[k], start[k] + t[order[k]], k};
    qsort(evs, m, sizeof *evs, by_start);
    for (uint32_t q = 0; q < m && rc == HC_OK; q++) {
        uint32_t k = evs[q].k, src = order[k], dst = recv[k];
        hc_event_t e;
        memset(&e, 0, sizeof e);
        e.src = src;
        e.dst = dst;
        e.start = evs[q].s;
        e.end = evs[q].c;
        e.bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, src, dst) : pb->msg_bytes;
        rc = hc_schedule_add_event(s, &e);
    }
    if (rc != HC_OK)
        goto done;
    hc_schedule_finish(s);
    *out = s;
    s = NULL;
done:
    hc_schedule_destroy(s);
    free(jobs);
    free(evs);
    free(recv);
    free(sstart);
    free(mins);
    free(mine);
    free(spos);
    return rc;
}

double hc__reduce_now(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int hc__reduce_pq_list(const hc_problem_t *pb, const uint32_t *order, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    double *ready = hc__calloc(P, sizeof *ready);
    uint32_t *pos = hc__malloc(P, sizeof *pos);
    hc_schedule_t *s = NULL;
    int rc = HC_OK;
    if (!ready || !pos) {
        rc = hc__error(HC_ERR_NOMEM, "reduce: out of memory (P = %u)", P);
        goto done;
    }
    for (uint32_t k = 0; k < m; k++)
        pos[order[k]] = k;
    pos[pb->root] = UINT32_MAX;
    rc = hc_schedule_create(HC_COLL_REDUCE, P, &s);
    if (rc != HC_OK)
        goto done;
    s->root = pb->root;
    for (uint32_t k = 0; k < m && rc == HC_OK; k++) {
        uint32_t src = order[k], best = UINT32_MAX;
        double best_end = INFINITY;
        for (uint32_t r = 0; r < P; r++) {
            if (r == src || (r != pb->root && pos[r] <= k))
                continue;
            double st = ready[src] > ready[r] ? ready[src] : ready[r];
            double en = st + HC_AT(pb->costs, src, r);
            if (best == UINT32_MAX || en < best_end || (en == best_end && pos[r] > pos[best])) {
                best = r;
                best_end = en;
            }
        }
        hc_event_t e;
        memset(&e, 0, sizeof e);
        e.src = src;
        e.dst = best;
        e.start = ready[src] > ready[best] ? ready[src] : ready[best];
        e.end = e.start + HC_AT(pb->costs, src, best);
        e.bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, src, best) : pb->msg_bytes;
        ready[best] = e.end;
        rc = hc_schedule_add_event(s, &e);
    }
    if (rc != HC_OK)
        goto done;
    hc_schedule_finish(s);
    *out = s;
    s = NULL;
done:
    hc_schedule_destroy(s);
    free(ready);
    free(pos);
    return rc;
}

int hc__reduce_given_order(const hc_problem_t *pb, const hc_algo_opts_t *opts, uint32_t *order)
{
    if (opts && opts->order) {
        int rc = hc__reduce_check_order(pb, opts->order, opts->order_len);
        if (rc != HC_OK)
            return rc;
        for (uint32_t k = 0; k + 1 < pb->P; k++)
            order[k] = opts->order[k];
        return HC_OK;
    }
    uint32_t q = 0;
    for (uint32_t i = 0; i < pb->P; i++)
        if (i != pb->root)
            order[q++] = i;
    return HC_OK;
}

int hc__reduce_ep_schedule(const hc_problem_t *pb, const char *algo, const hc_algo_opts_t *opts,
                           hc__reduce_order_fn order_of, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    int rc;
    double *t = hc__malloc(P, sizeof *t);
    double *dur = hc__malloc(P, sizeof *dur);
    double *start = hc__malloc(P, sizeof *start);
    double *work = hc__malloc(P, sizeof *work);
    uint32_t *order = hc__malloc(P, sizeof *order);
    if (!t || !dur || !start || !work || !order) {
        rc = hc__error(HC_ERR_NOMEM, "%s: out of memory (P = %u)", algo, P);
        goto done;
    }
    rc = hc__reduce_send_times(pb, algo, t);
    if (rc != HC_OK)
        goto done;
    if ((rc = order_of(pb, opts, t, order)) != HC_OK)
        goto done;
    for (uint32_t k = 0; k < m; k++)
        dur[k] = t[order[k]];
    hc__reduce_ep_times(P, dur, m, start, work);
    rc = hc__reduce_build(pb, order, start, t, out);
done:
    free(t);
    free(dur);
    free(start);
    free(work);
    free(order);
    return rc;
}

int hc__reduce_add_tree_event(hc_schedule_t *s, const hc_problem_t *pb, uint32_t v, uint32_t p,
                              uint64_t bytes, uint8_t tree, double *free_at, double *ready)
{
    hc_event_t e;
    memset(&e, 0, sizeof e);
    e.src = v;
    e.dst = p;
    e.bytes = bytes;
    e.tree = tree;
    e.start = fmax(fmax(free_at[v], free_at[p]), ready[v]);
    e.end = e.start + hc_problem_event_cost(pb, &e);
    free_at[v] = free_at[p] = e.end;
    ready[p] = fmax(ready[p], e.end);
    return hc_schedule_add_event(s, &e);
}

int hc__reduce_add_tree(hc_schedule_t *s, const hc_problem_t *pb, const uint32_t *parent,
                        uint32_t *ord, uint64_t bytes, uint8_t tree, double *free_at, double *ready,
                        const char *what)
{
    const uint32_t P = pb->P;
    uint32_t n = 0;
    ord[n++] = pb->root;
    for (uint32_t q = 0; q < n; q++)
        for (uint32_t v = 0; v < P; v++)
            if (parent[v] == ord[q])
                ord[n++] = v;
    if (n != P)
        return hc__error(HC_ERR_INTERNAL, "%s: tree %u misses %u nodes", what, tree, P - n);
    for (uint32_t v = 0; v < P; v++)
        ready[v] = 0;
    int rc = HC_OK;
    for (uint32_t q = n; rc == HC_OK && q-- > 1;)
        rc = hc__reduce_add_tree_event(s, pb, ord[q], parent[ord[q]], bytes, tree, free_at, ready);
    return rc;
}
