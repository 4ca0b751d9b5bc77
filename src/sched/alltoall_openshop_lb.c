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
 * Every order is timed with the replay rule (alltoall_kit.c), so replay == plan.
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
#include "alltoall_kit.h"

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
/* ---- polish: hill climbing on the critical path ---- */

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

/* Improve an order by hill climbing on the critical path: swap two messages that follow each
 * other on a critical path in one node's send or receive sequence (the N1 neighbourhood of shop
 * scheduling; such a swap never creates a cycle... and cycles are rejected anyway), keep the swap
 * when the makespan does not grow (at most 50 sideways moves in a row), stop after max_evals
 * evaluations (O(n) each) or at the lower bound. The order is rewritten in start order and
 * *makespan set to its replay-rule makespan (never above the input's). */
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
