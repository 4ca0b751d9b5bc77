/* bnb-pq: optimal reduction for sender-receiver costs C[i][j] on small P, by
 * branch and bound (003's future work; our extension of 003 §6). Search space:
 * sequences of events (s -> r) with non-decreasing starts, each starting at
 * max(end of s's receives, end of r's previous receive) (the replay rule); s
 * never receives again. Every valid schedule replays to one no later whose
 * events, sorted by start, form such a sequence, so the best sequence is
 * optimal. Canonical order: events with the same start involve disjoint nodes
 * (positive costs) and commute, so they are taken by increasing sender.
 * Children: senders by snf-pq order, receivers by increasing cost. Incumbent:
 * snf-pq. Bound: max(current end, max over unsent v of max(ready(v), last
 * start) + min over live u of C[v][u]). With a zero cost the canonical rule is
 * off. search: nodes_visited, naive_space = ((P-1)!)^2 (sender and receiver
 * choices), efficiency. Complexity: exponential; O(P^2) per node. Without a
 * time limit P <= 10 (HC_ERR_UNSUPPORTED beyond); with opts->time_limit_s > 0
 * any P, returning the best found (optimal = 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "reduce_kit.h"

#define PQ_MAX_EXACT 10

typedef struct pq {
    uint32_t P, root, m;
    const hc_matrix_t *C;
    double *ready;
    unsigned char *alive; /* not sent yet (the root stays) */
    uint32_t *rorder;     /* per sender: the other nodes by increasing cost */
    uint32_t *sorder;     /* senders, snf-pq order */
    uint32_t *es, *er;    /* current sequence */
    uint32_t *bs, *br;    /* best sequence */
    double best;
    double nodes, open_lb;
    int aborted, canon;
    double t0, limit;
} pq_t;

static double pq_bound(const pq_t *q, double T0, double curmax)
{
    double lb = curmax;
    for (uint32_t v = 0; v < q->P; v++) {
        if (!q->alive[v] || v == q->root)
            continue;
        double mn = INFINITY;
        for (uint32_t u = 0; u < q->P; u++)
            if (u != v && q->alive[u] && HC_AT(q->C, v, u) < mn)
                mn = HC_AT(q->C, v, u);
        double e = (q->ready[v] > T0 ? q->ready[v] : T0) + mn;
        if (e > lb)
            lb = e;
    }
    return lb;
}

static void pq_dfs(pq_t *q, uint32_t d, double T0, uint32_t last_s, double curmax, double lb_self)
{
    if (d == q->m) {
        if (curmax < q->best) {
            q->best = curmax;
            memcpy(q->bs, q->es, d * sizeof *q->es);
            memcpy(q->br, q->er, d * sizeof *q->er);
        }
        return;
    }
    for (uint32_t k = 0; k < q->m; k++) {
        uint32_t s = q->sorder[k];
        if (!q->alive[s])
            continue;
        for (uint32_t j = 0; j + 1 < q->P; j++) {
            uint32_t r = q->rorder[(size_t)s * q->P + j];
            if (!q->alive[r])
                continue;
            double st = q->ready[s] > q->ready[r] ? q->ready[s] : q->ready[r];
            if (st < T0 || (q->canon && d > 0 && st == T0 && s < last_s))
                continue;
            double en = st + HC_AT(q->C, s, r);
            q->nodes += 1;
            if (q->limit > 0 && fmod(q->nodes, 1024.0) == 0 && hc__reduce_now() - q->t0 > q->limit)
                q->aborted = 1;
            if (q->aborted) {
                if (lb_self < q->open_lb)
                    q->open_lb = lb_self;
                return;
            }
            double old = q->ready[r];
            q->alive[s] = 0;
            q->ready[r] = en;
            q->es[d] = s;
            q->er[d] = r;
            double nm = en > curmax ? en : curmax;
            double lb = pq_bound(q, st, nm);
            if (lb < q->best * (1 - 1e-12))
                pq_dfs(q, d + 1, st, s, nm, lb);
            q->ready[r] = old;
            q->alive[s] = 1;
            if (q->aborted) {
                if (lb_self < q->open_lb)
                    q->open_lb = lb_self;
                return;
            }
        }
    }
}

/* Sort row[0..n) by increasing C[i][row[k]], ties by id (insertion sort,
 * O(n^2)). */
static void sort_by_cost(const hc_matrix_t *C, uint32_t i, uint32_t *row, uint32_t n)
{
    for (uint32_t k = 1; k < n; k++) {
        uint32_t x = row[k], p = k;
        double cx = HC_AT(C, i, x);
        while (p > 0 && (HC_AT(C, i, row[p - 1]) > cx ||
                         (HC_AT(C, i, row[p - 1]) == cx && row[p - 1] > x))) {
            row[p] = row[p - 1];
            p--;
        }
        row[p] = x;
    }
}

/* Timed schedule of a sequence of (sender, receiver) pairs by the replay rule.
 */
static int pq_build(const hc_problem_t *pb, const uint32_t *es, const uint32_t *er, uint32_t m,
                    double *ready, hc_schedule_t **out)
{
    hc_schedule_t *s = NULL;
    HC__TRY(hc_schedule_create(HC_COLL_REDUCE, pb->P, &s));
    s->root = pb->root;
    for (uint32_t i = 0; i < pb->P; i++)
        ready[i] = 0;
    for (uint32_t k = 0; k < m; k++) {
        hc_event_t e;
        memset(&e, 0, sizeof e);
        e.src = es[k];
        e.dst = er[k];
        e.start = ready[e.src] > ready[e.dst] ? ready[e.src] : ready[e.dst];
        e.end = e.start + HC_AT(pb->costs, e.src, e.dst);
        e.bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, e.src, e.dst) : pb->msg_bytes;
        ready[e.dst] = e.end;
        int rc = hc_schedule_add_event(s, &e);
        if (rc != HC_OK) {
            hc_schedule_destroy(s);
            return rc;
        }
    }
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}

int hc__algo_reduce_bnb_pq(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    double limit = opts ? opts->time_limit_s : 0;
    if (limit <= 0 && P > PQ_MAX_EXACT)
        return hc__error(HC_ERR_UNSUPPORTED,
                         "bnb-pq: P = %u is too large for an exhaustive search (at most %d "
                         "nodes without a time limit; give --time-limit S, or use snf-pq)",
                         P, PQ_MAX_EXACT);
    pq_t q;
    memset(&q, 0, sizeof q);
    q.P = P;
    q.root = pb->root;
    q.m = m;
    q.C = pb->costs;
    q.ready = hc__calloc(P, sizeof *q.ready);
    q.alive = hc__malloc(P, 1);
    q.rorder = hc__malloc((size_t)P * P, sizeof *q.rorder);
    q.sorder = hc__malloc(P, sizeof *q.sorder);
    q.es = hc__malloc(P, sizeof *q.es);
    q.er = hc__malloc(P, sizeof *q.er);
    q.bs = hc__malloc(P, sizeof *q.bs);
    q.br = hc__malloc(P, sizeof *q.br);
    hc_schedule_t *heur = NULL, *s = NULL;
    int rc = HC_OK;
    if (!q.ready || !q.alive || !q.rorder || !q.sorder || !q.es || !q.er || !q.bs || !q.br) {
        rc = hc__error(HC_ERR_NOMEM, "bnb-pq: out of memory (P = %u)", P);
        goto done;
    }
    rc = hc__reduce_pq_snf_order(pb, q.sorder);
    if (rc != HC_OK)
        goto done;
    rc = hc__reduce_pq_list(pb, q.sorder, &heur);
    if (rc != HC_OK)
        goto done;
    q.best = heur->makespan;
    for (uint32_t k = 0; k < m; k++) {
        q.bs[k] = heur->events[k].src;
        q.br[k] = heur->events[k].dst;
    }
    q.canon = 1;
    for (uint32_t i = 0; i < P; i++) {
        uint32_t *row = q.rorder + (size_t)i * P, n = 0;
        for (uint32_t j = 0; j < P; j++) {
            if (j == i)
                continue;
            row[n++] = j;
            if (i != pb->root && !(HC_AT(pb->costs, i, j) > 0))
                q.canon = 0;
        }
        sort_by_cost(pb->costs, i, row, n);
        q.alive[i] = 1;
    }
    q.limit = limit;
    q.t0 = hc__reduce_now();
    q.open_lb = INFINITY;
    double root_lb = pq_bound(&q, 0, 0);
    pq_dfs(&q, 0, 0, 0, 0, root_lb);
    rc = pq_build(pb, q.bs, q.br, m, q.ready, &s);
    if (rc != HC_OK)
        goto done;
    double naive = 1;
    for (uint32_t k = 2; k <= m; k++)
        naive *= (double)k * k;
    s->has_search = 1;
    s->search.nodes_visited = q.nodes;
    s->search.naive_space = naive;
    s->search.efficiency = 1 - q.nodes / naive;
    s->search.optimal = !q.aborted;
    if (!q.aborted) {
        s->search.best_lower_bound = s->makespan;
        rc = hc_schedule_set_note(s,
                                  "bnb-pq: optimal; %.0f nodes visited of %.4g event sequences, "
                                  "efficiency %.4f %% (snf-pq gave %.9g s)",
                                  q.nodes, naive, 100 * s->search.efficiency, heur->makespan);
    } else {
        double lb = q.open_lb < s->makespan ? q.open_lb : s->makespan;
        double plb;
        if (hc_lower_bound(pb, &plb) == HC_OK && plb > lb && plb <= s->makespan)
            lb = plb;
        s->search.best_lower_bound = lb;
        rc = hc_schedule_set_note(s,
                                  "bnb-pq: time limit %g s reached after %.0f nodes; best %.9g s, "
                                  "lower bound %.9g s, gap %.3f %% (not proven optimal)",
                                  limit, q.nodes, s->makespan, lb,
                                  lb > 0 ? 100 * (s->makespan - lb) / lb : 0.0);
    }
    if (rc != HC_OK)
        goto done;
    *out = s;
    s = NULL;
done:
    hc_schedule_destroy(s);
    hc_schedule_destroy(heur);
    free(q.ready);
    free(q.alive);
    free(q.rorder);
    free(q.sorder);
    free(q.es);
    free(q.er);
    free(q.bs);
    free(q.br);
    return rc;
}
