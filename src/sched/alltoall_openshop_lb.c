/* openshop-lb: hetcoll's own total exchange heuristic, aimed at the lower bound of 000 §4.1.
 *
 * A dense (non-delay) list schedule driven by the bottleneck: time advances from one message
 * completion to the next; whenever a sender and a receiver with a message between them are both
 * free, a message starts. Among the nodes freed at that time, the one with the most remaining
 * work goes first (at a common time t its slack LB - t - remaining is the smallest), and it takes
 * the free partner with the most remaining work (most-work-remaining, the classic open shop
 * dispatching rule, applied to senders and receivers alike; rule 1 adds the message's own time).
 *
 * Reservations (the ingredient that reaches the bound): a node whose slack is below crit * LB
 * when it starts a message reserves its NEXT partner, one that will be free when the message
 * ends; until then the reserved partner only takes messages that end in time. Without them the
 * critical node collects many small idle gaps (all its remaining partners busy when it frees);
 * with them it runs back to back. A reservation lapses once its time has passed.
 *
 * Best-of search (hc__a2a_lb_search), stopping as soon as a schedule meets the lower bound:
 *   1. 16 deterministic runs: rule 0/1, forward or on the transpose (a schedule of C^T run
 *      backwards in time is a schedule of C, which treats the end of the schedule as a start),
 *      crit in {0.005, 0.01, 0.002, 0}; the second run (transpose, rule 0) never reserves;
 *   2. randomised restarts: node priorities multiplied by 1 + noise * U(-1, 1) (hc_rng seeded by
 *      opts->seed), every other pair of runs with at most 2 reservations at a time.
 * Every order is timed with the replay rule (alltoall_common.c), so replay == plan.
 *
 * Complexity: one run is O(P^3) worst case (an O(P) scan of the partners of each node freed at
 * each completion) and about O(P^2 log P + P^2 * free partners) typically; the search makes at
 * most 64 (64/P)^3 runs, clamped to [2, 1024] (134 at P = 50, 1024 at P <= 25).
 * Guarantee: <= 2 LB. A run without reservations is dense (a sender idles only while every
 * receiver it still has to serve is busy), so the proof of 000 Theorem 3 applies to it, on C^T
 * too (same LB); the second run is always such a run, re-timing never delays a message, the
 * search keeps the best and the polish never makes it worse. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "alltoall_common.h"

struct hc__a2a_dense {
    uint32_t P;
    size_t n;
    const hc_matrix_t *c;
    hc_matrix_t *ct; /* transpose */
    /* per run */
    uint32_t *slist, *slen, *spos; /* sender i: remaining dsts slist[i*P..], spos[i*P+j] */
    uint32_t *rlist, *rlen, *rpos; /* receiver j: remaining srcs */
    double *srem, *rrem, *sfac, *rfac, *sfree, *rfree;
    unsigned char *sbusy, *rbusy;
    double *rres_at, *sres_at; /* reservation: the node must be free at this time (inf: none) */
    uint32_t *rres_by, *sres_by, *s_res, *r_res;
    uint32_t nres; /* active reservations */
    uint32_t *dirty;
    double *dkey;
    struct ev {
        double t;
        uint32_t node; /* i (sender) or P + j (receiver) */
    } * heap;
    uint32_t nheap;
};

int hc__a2a_dense_create(const hc_matrix_t *c, hc__a2a_dense_t **out)
{
    *out = NULL;
    uint32_t P = c->rows;
    size_t PP = (size_t)P * P;
    hc__a2a_dense_t *d = hc__calloc(1, sizeof *d);
    if (!d)
        return hc__error(HC_ERR_NOMEM, "openshop-lb: out of memory (P=%u)", P);
    d->P = P;
    d->c = c;
    d->n = hc__a2a_count(c);
    int rc = hc_matrix_create(P, P, 0, &d->ct);
    if (rc == HC_OK) {
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                HC_AT(d->ct, j, i) = HC_AT(c, i, j);
    }
    d->slist = hc__malloc(PP, sizeof *d->slist);
    d->spos = hc__malloc(PP, sizeof *d->spos);
    d->rlist = hc__malloc(PP, sizeof *d->rlist);
    d->rpos = hc__malloc(PP, sizeof *d->rpos);
    d->slen = hc__malloc(P, sizeof *d->slen);
    d->rlen = hc__malloc(P, sizeof *d->rlen);
    d->srem = hc__malloc(P, sizeof *d->srem);
    d->rrem = hc__malloc(P, sizeof *d->rrem);
    d->sfac = hc__malloc(P, sizeof *d->sfac);
    d->rfac = hc__malloc(P, sizeof *d->rfac);
    d->sfree = hc__malloc(P, sizeof *d->sfree);
    d->rfree = hc__malloc(P, sizeof *d->rfree);
    d->sbusy = hc__malloc(P, 1);
    d->rbusy = hc__malloc(P, 1);
    d->rres_at = hc__malloc(P, sizeof *d->rres_at);
    d->sres_at = hc__malloc(P, sizeof *d->sres_at);
    d->rres_by = hc__malloc(P, sizeof *d->rres_by);
    d->sres_by = hc__malloc(P, sizeof *d->sres_by);
    d->s_res = hc__malloc(P, sizeof *d->s_res);
    d->r_res = hc__malloc(P, sizeof *d->r_res);
    d->dirty = hc__malloc((size_t)2 * P, sizeof *d->dirty);
    d->dkey = hc__malloc((size_t)2 * P, sizeof *d->dkey);
    d->heap = hc__malloc((size_t)2 * P + 1, sizeof *d->heap);
    if (rc != HC_OK || !d->slist || !d->spos || !d->rlist || !d->rpos || !d->slen || !d->rlen ||
        !d->srem || !d->rrem || !d->sfac || !d->rfac || !d->sfree || !d->rfree || !d->sbusy ||
        !d->rbusy || !d->rres_at || !d->sres_at || !d->rres_by || !d->sres_by || !d->s_res ||
        !d->r_res || !d->dirty || !d->dkey || !d->heap) {
        hc__a2a_dense_destroy(d);
        return hc__error(HC_ERR_NOMEM, "openshop-lb: out of memory (P=%u)", P);
    }
    *out = d;
    return HC_OK;
}

void hc__a2a_dense_destroy(hc__a2a_dense_t *d)
{
    if (!d)
        return;
    hc_matrix_destroy(d->ct);
    free(d->slist), free(d->spos), free(d->rlist), free(d->rpos), free(d->slen), free(d->rlen);
    free(d->srem), free(d->rrem), free(d->sfac), free(d->rfac), free(d->sfree), free(d->rfree);
    free(d->rres_at), free(d->sres_at), free(d->rres_by), free(d->sres_by), free(d->s_res);
    free(d->r_res);
    free(d->sbusy), free(d->rbusy), free(d->dirty), free(d->dkey), free(d->heap);
    free(d);
}

static int ev_less(const struct ev *a, const struct ev *b)
{
    return a->t < b->t || (a->t == b->t && a->node < b->node);
}

static void heap_push(hc__a2a_dense_t *d, double t, uint32_t node)
{
    uint32_t k = d->nheap++;
    d->heap[k] = (struct ev){t, node};
    while (k > 0 && ev_less(&d->heap[k], &d->heap[(k - 1) / 2])) {
        uint32_t p = (k - 1) / 2;
        struct ev tmp = d->heap[k];
        d->heap[k] = d->heap[p];
        d->heap[p] = tmp;
        k = p;
    }
}

static struct ev heap_pop(hc__a2a_dense_t *d)
{
    struct ev top = d->heap[0];
    d->heap[0] = d->heap[--d->nheap];
    for (uint32_t k = 0;;) {
        uint32_t l = 2 * k + 1, r = l + 1, m = k;
        if (l < d->nheap && ev_less(&d->heap[l], &d->heap[m]))
            m = l;
        if (r < d->nheap && ev_less(&d->heap[r], &d->heap[m]))
            m = r;
        if (m == k)
            break;
        struct ev tmp = d->heap[k];
        d->heap[k] = d->heap[m];
        d->heap[m] = tmp;
        k = m;
    }
    return top;
}

/* Remove j from sender i's list and i from receiver j's list. */
static void unlink_msg(hc__a2a_dense_t *d, uint32_t i, uint32_t j)
{
    size_t P = d->P;
    uint32_t *sl = d->slist + i * P, k = d->spos[i * P + j], last = sl[--d->slen[i]];
    sl[k] = last;
    d->spos[i * P + last] = k;
    uint32_t *rl = d->rlist + j * P, q = d->rpos[j * P + i], lastr = rl[--d->rlen[j]];
    rl[q] = lastr;
    d->rpos[j * P + lastr] = q;
}

static void sort_dirty(hc__a2a_dense_t *d, uint32_t nd)
{
    /* insertion sort by decreasing key: nd is small except at t = 0 */
    for (uint32_t a = 1; a < nd; a++) {
        uint32_t x = d->dirty[a];
        double kx = d->dkey[a];
        uint32_t b = a;
        while (b > 0 && (d->dkey[b - 1] < kx || (d->dkey[b - 1] == kx && d->dirty[b - 1] > x))) {
            d->dirty[b] = d->dirty[b - 1];
            d->dkey[b] = d->dkey[b - 1];
            b--;
        }
        d->dirty[b] = x;
        d->dkey[b] = kx;
    }
}

/* May sender i and receiver j start a message of cost x at time t? Not when it would keep a
 * node that is reserved by another (critical) node busy past the reserved time. A reservation
 * lapses once its time has passed (its owner could not use it). */
static int allowed(const hc__a2a_dense_t *d, uint32_t i, uint32_t j, double t, double x)
{
    if (d->rres_by[j] != UINT32_MAX && d->rres_by[j] != i && t + x > d->rres_at[j] &&
        t <= d->rres_at[j])
        return 0;
    if (d->sres_by[i] != UINT32_MAX && d->sres_by[i] != j && t + x > d->sres_at[i] &&
        t <= d->sres_at[i])
        return 0;
    return 1;
}

static void release(hc__a2a_dense_t *d, uint32_t i, uint32_t j)
{
    if (d->s_res[i] != UINT32_MAX) {
        d->rres_by[d->s_res[i]] = UINT32_MAX;
        d->s_res[i] = UINT32_MAX;
        d->nres--;
    }
    if (d->r_res[j] != UINT32_MAX) {
        d->sres_by[d->r_res[j]] = UINT32_MAX;
        d->r_res[j] = UINT32_MAX;
        d->nres--;
    }
}

/* Sender i (critical) is busy until `end`: reserve its next receiver, one that is free by then. */
static void reserve_for_sender(hc__a2a_dense_t *d, uint32_t i, double end)
{
    size_t P = d->P;
    const uint32_t *sl = d->slist + i * P;
    uint32_t best = UINT32_MAX;
    double bk = -1;
    for (uint32_t k = 0; k < d->slen[i]; k++) {
        uint32_t z = sl[k];
        if (d->rres_by[z] != UINT32_MAX || (d->rbusy[z] && d->rfree[z] > end))
            continue;
        double key = d->rrem[z] * d->rfac[z];
        if (key > bk) {
            bk = key;
            best = z;
        }
    }
    if (best != UINT32_MAX) {
        d->rres_by[best] = i;
        d->rres_at[best] = end;
        d->s_res[i] = best;
        d->nres++;
    }
}

static void reserve_for_receiver(hc__a2a_dense_t *d, uint32_t j, double end)
{
    size_t P = d->P;
    const uint32_t *rl = d->rlist + j * P;
    uint32_t best = UINT32_MAX;
    double bk = -1;
    for (uint32_t k = 0; k < d->rlen[j]; k++) {
        uint32_t y = rl[k];
        if (d->sres_by[y] != UINT32_MAX || (d->sbusy[y] && d->sfree[y] > end))
            continue;
        double key = d->srem[y] * d->sfac[y];
        if (key > bk) {
            bk = key;
            best = y;
        }
    }
    if (best != UINT32_MAX) {
        d->sres_by[best] = j;
        d->sres_at[best] = end;
        d->r_res[j] = best;
        d->nres++;
    }
}

double hc__a2a_dense_run(hc__a2a_dense_t *d, const hc__a2a_dense_opts_t *o, hc__a2a_msg_t *list)
{
    uint32_t P = d->P;
    const hc_matrix_t *c = o->reverse ? d->ct : d->c;
    for (uint32_t i = 0; i < P; i++) {
        d->slen[i] = d->rlen[i] = 0;
        d->srem[i] = d->rrem[i] = 0;
        d->sfree[i] = d->rfree[i] = 0;
        d->sbusy[i] = d->rbusy[i] = 0;
        d->rres_by[i] = d->sres_by[i] = d->s_res[i] = d->r_res[i] = UINT32_MAX;
        d->rres_at[i] = d->sres_at[i] = INFINITY;
        double us = 1, ur = 1;
        if (o->noise > 0 && o->rng) {
            us = 1 + o->noise * hc_rng_range(o->rng, -1, 1);
            ur = 1 + o->noise * hc_rng_range(o->rng, -1, 1);
        }
        d->sfac[i] = us;
        d->rfac[i] = ur;
    }
    for (uint32_t i = 0; i < P; i++) {
        for (uint32_t j = 0; j < P; j++) {
            if (!hc__a2a_sent(c, i, j))
                continue;
            double x = HC_AT(c, i, j);
            d->spos[(size_t)i * P + j] = d->slen[i];
            d->slist[(size_t)i * P + d->slen[i]++] = j;
            d->rpos[(size_t)j * P + i] = d->rlen[j];
            d->rlist[(size_t)j * P + d->rlen[j]++] = i;
            d->srem[i] += x;
            d->rrem[j] += x;
        }
    }
    double lb = 0;
    for (uint32_t i = 0; i < P; i++) {
        if (d->srem[i] > lb)
            lb = d->srem[i];
        if (d->rrem[i] > lb)
            lb = d->rrem[i];
    }
    double crit = o->crit * lb;
    d->nheap = 0;
    d->nres = 0;
    uint32_t max_res = o->max_res ? o->max_res : UINT32_MAX;
    size_t done = 0;
    double t = 0, mk = 0;
    uint32_t nd = 0;
    for (uint32_t i = 0; i < P; i++)
        if (d->slen[i])
            d->dirty[nd++] = i;
    for (uint32_t j = 0; j < P; j++)
        if (d->rlen[j])
            d->dirty[nd++] = P + j;
    for (;;) {
        for (uint32_t a = 0; a < nd; a++) {
            uint32_t x = d->dirty[a];
            d->dkey[a] = x < P ? d->srem[x] * d->sfac[x] : d->rrem[x - P] * d->rfac[x - P];
        }
        sort_dirty(d, nd);
        for (uint32_t a = 0; a < nd; a++) {
            uint32_t x = d->dirty[a], i = UINT32_MAX, j = UINT32_MAX;
            double best = -1;
            if (x < P) {
                if (d->sbusy[x])
                    continue;
                i = x;
                const uint32_t *sl = d->slist + (size_t)x * P;
                for (uint32_t k = 0; k < d->slen[x]; k++) {
                    uint32_t y = sl[k];
                    if (d->rbusy[y] || !allowed(d, x, y, t, HC_AT(c, x, y)))
                        continue;
                    double key = d->rrem[y] * d->rfac[y];
                    if (o->rule == 1)
                        key += HC_AT(c, x, y);
                    if (y == d->s_res[x])
                        key = INFINITY;
                    if (key > best || (key == best && y < j)) {
                        best = key;
                        j = y;
                    }
                }
            } else {
                x -= P;
                if (d->rbusy[x])
                    continue;
                j = x;
                const uint32_t *rl = d->rlist + (size_t)x * P;
                for (uint32_t k = 0; k < d->rlen[x]; k++) {
                    uint32_t y = rl[k];
                    if (d->sbusy[y] || !allowed(d, y, x, t, HC_AT(c, y, x)))
                        continue;
                    double key = d->srem[y] * d->sfac[y];
                    if (o->rule == 1)
                        key += HC_AT(c, y, x);
                    if (y == d->r_res[x])
                        key = INFINITY;
                    if (key > best || (key == best && y < i)) {
                        best = key;
                        i = y;
                    }
                }
            }
            if (i == UINT32_MAX || j == UINT32_MAX)
                continue;
            double x_c = HC_AT(c, i, j), end = t + x_c;
            int crit_s = crit > 0 && lb - t - d->srem[i] <= crit;
            int crit_r = crit > 0 && lb - t - d->rrem[j] <= crit;
            release(d, i, j);
            unlink_msg(d, i, j);
            d->srem[i] -= x_c;
            d->rrem[j] -= x_c;
            d->sbusy[i] = d->rbusy[j] = 1;
            d->sfree[i] = d->rfree[j] = end;
            heap_push(d, end, i);
            heap_push(d, end, P + j);
            list[done++] = (hc__a2a_msg_t){i, j};
            if (end > mk)
                mk = end;
            if (crit_s && d->slen[i] && d->nres < max_res)
                reserve_for_sender(d, i, end);
            if (crit_r && d->rlen[j] && d->nres < max_res)
                reserve_for_receiver(d, j, end);
        }
        if (done == d->n)
            break;
        nd = 0;
        if (!d->nheap) {
            /* Everybody is free yet nothing may start: reservations block each other (ties).
             * Drop them all and let every node with work left choose again at this time. */
            for (uint32_t k = 0; k < P; k++) {
                d->rres_by[k] = d->sres_by[k] = d->s_res[k] = d->r_res[k] = UINT32_MAX;
                if (d->slen[k])
                    d->dirty[nd++] = k;
                if (d->rlen[k])
                    d->dirty[nd++] = P + k;
            }
            d->nres = 0;
            crit = 0; /* and make no new ones: the run finishes as a plain dense schedule */
            continue;
        }
        t = d->heap[0].t;
        while (d->nheap && d->heap[0].t <= t) {
            struct ev e = heap_pop(d);
            if (e.node < P) {
                d->sbusy[e.node] = 0;
                if (d->slen[e.node])
                    d->dirty[nd++] = e.node;
            } else {
                d->rbusy[e.node - P] = 0;
                if (d->rlen[e.node - P])
                    d->dirty[nd++] = e.node;
            }
        }
    }
    if (o->reverse) {
        /* list holds a schedule of C^T (src/dst swapped); reverse it in time */
        for (size_t a = 0, b = done ? done - 1 : 0; a < b; a++, b--) {
            hc__a2a_msg_t tmp = list[a];
            list[a] = list[b];
            list[b] = tmp;
        }
        for (size_t a = 0; a < done; a++) {
            uint32_t s = list[a].src;
            list[a].src = list[a].dst;
            list[a].dst = s;
        }
    }
    /* Re-time with the replay rule: equal to the dense times, or earlier where a reservation
     * held a message back (the replay never waits for reservations). */
    (void)mk;
    return hc__a2a_time(d->c, list, done, d->sfree, d->rfree, NULL);
}

int hc__a2a_lb_search(const hc_matrix_t *c, uint64_t seed, size_t budget, hc__a2a_msg_t *list,
                      double *makespan, size_t *runs_out, char *why, size_t why_len)
{
    hc__a2a_dense_t *d = NULL;
    HC__TRY(hc__a2a_dense_create(c, &d));
    size_t n = d->n;
    hc__a2a_msg_t *cur = hc__malloc(n + 1, sizeof *cur);
    if (!cur) {
        hc__a2a_dense_destroy(d);
        return hc__error(HC_ERR_NOMEM, "openshop-lb: out of memory (P=%u)", c->rows);
    }
    double lb = hc__a2a_lower_bound(c), best = INFINITY;
    hc_rng_t rng;
    hc_rng_seed(&rng, seed);
    static const double noises[] = {0.05, 0.1, 0.2, 0.02, 0.3};
    static const double crits[] = {0.005, 0.01, 0.002, 0};
    size_t runs = 0, best_run = 0;
    if (budget < 1)
        budget = 1;
    for (; runs < budget; runs++) {
        hc__a2a_dense_opts_t o = {0};
        o.reverse = (int)(runs % 2);
        o.rule = (int)(runs / 2 % 2);
        o.crit = crits[runs / 4 % (sizeof crits / sizeof crits[0])];
        if (runs == 1)
            o.crit = 0; /* a plain dense run is always made: it carries the 2 LB guarantee */
        o.max_res = runs >= 16 && runs % 4 >= 2 ? 2 : 0;
        if (runs >= 16) {
            o.noise = noises[(runs / 16) % (sizeof noises / sizeof noises[0])];
            o.rng = &rng;
        }
        double mk = hc__a2a_dense_run(d, &o, cur);
        if (mk < best) {
            best = mk;
            best_run = runs;
            memcpy(list, cur, n * sizeof *list);
        }
        if (best <= lb * (1 + 1e-12)) {
            runs++;
            break;
        }
    }
    int rc = HC_OK;
    size_t evals = 0;
    double before = best;
    if (best > lb * (1 + 1e-12) && n > 1) {
        /* polish the best order on its critical path; evaluations cost O(n) each */
        double e = 4000.0 * 2500.0 / (double)n;
        evals = e < 20 ? 20 : e > 4000 ? 4000 : (size_t)e;
        rc = hc__a2a_polish(c, list, n, evals, &rng, &best);
    }
    if (why && why_len && before > best)
        snprintf(why, why_len,
                 "best of %zu runs found at run %zu (%s, %s), polished from %.4fxLB to %.4fxLB",
                 runs, best_run + 1, best_run < 16 ? "deterministic" : "randomised",
                 best_run % 2 ? "reversed" : "forward", before / lb, best / lb);
    else if (why && why_len)
        snprintf(why, why_len, "best of %zu runs found at run %zu (%s, %s)", runs, best_run + 1,
                 best_run < 16 ? "deterministic" : "randomised",
                 best_run % 2 ? "reversed" : "forward");
    *makespan = best;
    if (runs_out)
        *runs_out = runs;
    free(cur);
    hc__a2a_dense_destroy(d);
    return rc;
}

/* Default number of runs: the work of 64 runs at P = 64 (~64 * 64^3), so more runs for small P
 * (where they are cheap and the bound is harder to reach), at most 1024, at least 2. */
static size_t default_budget(uint32_t P)
{
    double b = 64.0 * 64.0 * 64.0 * 64.0 / ((double)P * P * P);
    if (b > 1024)
        b = 1024;
    if (b < 2)
        b = 2;
    return (size_t)b;
}

int hc__algo_alltoall_openshop_lb(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                  hc_schedule_t **out)
{
    *out = NULL;
    size_t n = hc__a2a_count(pb->costs), runs = 0;
    hc__a2a_msg_t *list = hc__malloc(n + 1, sizeof *list);
    if (!list)
        return hc__error(HC_ERR_NOMEM, "openshop-lb: out of memory (P=%u)", pb->P);
    double mk;
    char why[160];
    int rc = hc__a2a_lb_search(pb->costs, opts ? opts->seed : 1, default_budget(pb->P), list, &mk,
                               &runs, why, sizeof why);
    if (rc == HC_OK)
        rc = hc__a2a_build(pb, list, n, out);
    if (rc == HC_OK && opts && opts->verbose)
        rc = hc_schedule_set_note(*out, "openshop-lb: %s", why);
    free(list);
    return rc;
}
