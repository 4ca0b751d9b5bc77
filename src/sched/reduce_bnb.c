/* bnb: optimal reduction schedule by branch and bound over EP send orders (003 §5-6).
 * Source: paper 003 (Liu, Sheng, Yang); proofs of every rule in docs/design.md "Reduction".
 * The makespan of a send order is that of its count-model EP schedule (reduce_kit.c),
 * which depends only on the sequence of send times; every valid schedule is dominated by the
 * EP schedule of its own start order, so the best order is optimal among all valid schedules.
 * Search: depth-first over sequences of speed classes (equal send times form one class, so
 * only multiset permutations are enumerated), children slowest class first (003's priority:
 * the first leaf is SNF). Among the optimal orders take the one whose send-time sequence is
 * lexicographically largest; it satisfies three rules at once, used as pruning:
 *   R1 (exchange lemma, 003 Lemma 1): no job starts exactly when a faster job completes;
 *   R2: jobs starting at the same instant appear slowest first;
 *   R3: the last sender is a fastest one (one fastest job is kept for the last position).
 * Bound: a node is cut when max(LB_relax, LB_assign) >= incumbent: LB_relax is the EP of the
 * prefix followed by every remaining job at the smallest remaining time (EP is monotone in
 * the times); LB_assign pairs the relaxed starts of the remaining positions with the
 * remaining times, largest first (see bound()).
 * R1-R3 assume every t(i) > 0; with a zero send time only the bound prunes.
 * Complexity: exponential in the worst case, O(P) per node. Guarantee: optimal when the search
 * completes (search.optimal = 1); with opts->time_limit_s > 0 it may stop early and return the
 * best order found, search.best_lower_bound being the smallest bound of the open subtrees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "algos.h"
#include "reduce_kit.h"

typedef struct bnb {
    uint32_t n, m, K;
    double *val;   /* class send times, decreasing */
    uint32_t *cnt; /* class sizes (senders) */
    uint32_t *rem; /* remaining per class */
    int rules;
    uint32_t *seq, *best_seq; /* class per position */
    double *start, *dur;      /* per position */
    double *cs, *cd;          /* prefix completions, sorted increasing, and their times */
    double *q;                /* relaxation queue */
    double *sig;              /* relaxed starts of the remaining positions */
    double best;
    int have_best;
    double nodes, leaves; /* search nodes generated; complete orders reached */
    double open_lb;
    int aborted;
    double t0, limit;
} bnb_t;

static double next_start(const bnb_t *b, uint32_t d)
{
    int64_t k = 2 * (int64_t)(d + 1) - (int64_t)b->n;
    double st = d ? b->start[d - 1] : 0;
    if (k > 0 && b->cs[k - 1] > st)
        st = b->cs[k - 1];
    return st;
}

/* EP of the prefix (d jobs) continued with every remaining job at time tau; the starts of
 * positions d+1..m are left in b->sig (lower bounds on those positions' starts in any
 * completion of the prefix, EP being monotone in the times). */
static double relaxed(const bnb_t *b, uint32_t d, double tau)
{
    uint32_t a = 0, qh = 0, qn = 0;
    uint64_t popped = 0;
    double last = 0, prev = d ? b->start[d - 1] : 0;
    double mk = d ? b->cs[d - 1] : 0;
    for (uint32_t i = d + 1; i <= b->m; i++) {
        int64_t k = 2 * (int64_t)i - (int64_t)b->n;
        double st = prev;
        while (k > 0 && popped < (uint64_t)k) {
            if (a < d && (qh >= qn || b->cs[a] <= b->q[qh]))
                last = b->cs[a++];
            else
                last = b->q[qh++];
            popped++;
        }
        if (k > 0 && last > st)
            st = last;
        b->sig[qn] = st;
        b->q[qn++] = st + tau;
        prev = st;
    }
    if (qn && b->q[qn - 1] > mk)
        mk = b->q[qn - 1];
    return mk;
}

/* Lower bound of every completion of the prefix of d jobs:
 *   LB_relax  = relaxed(tau), tau the smallest remaining time;
 *   LB_assign = max_i (sig_i + T_i) + t_last, over the non-last positions d+1..m-1 with their
 *               relaxed starts sig_i (nondecreasing) and T_1 >= T_2 >= ... the remaining
 *               non-last times: whatever job takes position i ends at >= sig_i + its time, the
 *               last job starts after all of them end, and pairing the largest times with the
 *               earliest positions minimises max_i (sig_i + T_pi(i)) (exchange argument). */
static double bound(const bnb_t *b, uint32_t d)
{
    if (d == b->m)
        return b->cs[d - 1];
    uint32_t lastc = 0;
    for (uint32_t c = 0; c < b->K; c++)
        if (b->rem[c])
            lastc = c;
    double tau = b->val[lastc];
    double lb = relaxed(b, d, tau);
    /* remaining non-last jobs, largest first: one job of class lastc is the last one */
    uint32_t i = 0, npos = b->m - d - 1;
    double s = 0;
    for (uint32_t c = 0; c < b->K && i < npos; c++) {
        uint32_t take = b->rem[c] - (c == lastc ? 1 : 0);
        for (uint32_t j = 0; j < take && i < npos; j++, i++) {
            double e = b->sig[i] + b->val[c];
            if (e > s)
                s = e;
        }
    }
    if (npos && s + tau > lb)
        lb = s + tau;
    return lb;
}

static void insert_completion(bnb_t *b, uint32_t d, double c, double t)
{
    uint32_t i = d; /* d entries now */
    while (i > 0 && b->cs[i - 1] > c) {
        b->cs[i] = b->cs[i - 1];
        b->cd[i] = b->cd[i - 1];
        i--;
    }
    b->cs[i] = c;
    b->cd[i] = t;
}

static void remove_completion(bnb_t *b, uint32_t d, double c, double t)
{
    /* d entries now; remove one entry equal to (c, t) */
    uint32_t i = 0;
    while (i < d && !(b->cs[i] == c && b->cd[i] == t))
        i++;
    for (; i + 1 < d; i++) {
        b->cs[i] = b->cs[i + 1];
        b->cd[i] = b->cd[i + 1];
    }
}

static int better(const bnb_t *b, double lb)
{
    return !b->have_best || lb < b->best * (1 - 1e-12);
}

static void dfs(bnb_t *b, uint32_t d, double lb_self)
{
    if (d == b->m) {
        double mk = b->cs[d - 1];
        b->leaves += 1;
        if (!b->have_best || mk < b->best) {
            b->best = mk;
            b->have_best = 1;
            for (uint32_t i = 0; i < d; i++)
                b->best_seq[i] = b->seq[i];
        }
        return;
    }
    double st = next_start(b, d);
    double cap = INFINITY;
    if (b->rules && d > 0) {
        if (st == b->start[d - 1])
            cap = b->dur[d - 1];         /* R2 */
        for (uint32_t i = 0; i < d; i++) /* R1 */
            if (b->cs[i] == st && b->cd[i] < cap)
                cap = b->cd[i];
    }
    for (uint32_t c = 0; c < b->K; c++) {
        if (!b->rem[c])
            continue;
        if (b->rules && c == b->K - 1 && b->rem[c] == 1 && d + 1 < b->m)
            continue; /* R3: the last fastest job is kept for the end */
        double v = b->val[c];
        if (v > cap)
            continue;
        b->nodes += 1;
        if (b->limit > 0 && fmod(b->nodes, 1024.0) == 0 && hc__reduce_now() - b->t0 > b->limit)
            b->aborted = 1;
        if (b->aborted && b->have_best) {
            if (lb_self < b->open_lb)
                b->open_lb = lb_self;
            return;
        }
        b->seq[d] = c;
        b->start[d] = st;
        b->dur[d] = v;
        b->rem[c]--;
        insert_completion(b, d, st + v, v);
        double lb = bound(b, d + 1);
        if (better(b, lb))
            dfs(b, d + 1, lb > lb_self ? lb : lb_self); /* ancestors bound it too */
        remove_completion(b, d + 1, st + v, v);
        b->rem[c]++;
        if (b->aborted && b->have_best) {
            if (lb_self < b->open_lb)
                b->open_lb = lb_self;
            return;
        }
    }
}

typedef struct sortnode {
    double t;
    uint32_t id;
} sortnode_t;

static int by_time_desc(const void *x, const void *y)
{
    const sortnode_t *a = x, *b = y;
    if (a->t != b->t)
        return a->t > b->t ? -1 : 1;
    return a->id < b->id ? -1 : (a->id > b->id);
}

int hc__algo_reduce_bnb(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = pb->P, m = P - 1;
    int rc = HC_OK;
    bnb_t b = {0};
    double *t = hc__malloc(P, sizeof *t);
    double *times = hc__malloc(P, sizeof *times);
    double *work = hc__malloc(P, sizeof *work);
    uint32_t *order = hc__malloc(P, sizeof *order);
    uint32_t *cls_first = hc__malloc(P + 1, sizeof *cls_first);
    sortnode_t *sn = hc__malloc(P, sizeof *sn);
    b.val = hc__malloc(P, sizeof *b.val);
    b.cnt = hc__calloc(P, sizeof *b.cnt);
    b.rem = hc__calloc(P, sizeof *b.rem);
    b.seq = hc__malloc(P, sizeof *b.seq);
    b.best_seq = hc__malloc(P, sizeof *b.best_seq);
    b.start = hc__malloc(P, sizeof *b.start);
    b.dur = hc__malloc(P, sizeof *b.dur);
    b.cs = hc__malloc(P, sizeof *b.cs);
    b.cd = hc__malloc(P, sizeof *b.cd);
    b.q = hc__malloc(P, sizeof *b.q);
    b.sig = hc__malloc(P, sizeof *b.sig);
    if (!t || !times || !work || !order || !cls_first || !sn || !b.val || !b.cnt || !b.rem ||
        !b.seq || !b.best_seq || !b.start || !b.dur || !b.cs || !b.cd || !b.q || !b.sig) {
        rc = hc__error(HC_ERR_NOMEM, "bnb: out of memory (P = %u)", P);
        goto done;
    }
    rc = hc__reduce_send_times(pb, "bnb", t);
    if (rc != HC_OK)
        goto done;
    /* classes: senders sorted by decreasing time (ties by id) */
    uint32_t q = 0;
    for (uint32_t i = 0; i < P; i++)
        if (i != pb->root)
            sn[q++] = (sortnode_t){t[i], i};
    qsort(sn, m, sizeof *sn, by_time_desc);
    b.K = 0;
    for (uint32_t k = 0; k < m; k++) {
        if (k == 0 || sn[k].t != sn[k - 1].t) {
            cls_first[b.K] = k;
            b.val[b.K++] = sn[k].t;
        }
        b.cnt[b.K - 1]++;
    }
    cls_first[b.K] = m;
    for (uint32_t c = 0; c < b.K; c++)
        b.rem[c] = b.cnt[c];
    b.n = P;
    b.m = m;
    b.rules = b.val[b.K - 1] > 0;
    b.limit = opts ? opts->time_limit_s : 0;
    b.t0 = hc__reduce_now();
    b.open_lb = INFINITY;
    double root_lb = bound(&b, 0);
    dfs(&b, 0, root_lb);
    if (!b.have_best) { /* time limit before the first leaf (cannot happen in
                           practice): SNF */
        for (uint32_t k = 0, c = 0; k < m; k++) {
            while (k >= cls_first[c + 1])
                c++;
            b.best_seq[k] = c;
        }
    }
    /* classes -> node ids, in id order within a class */
    {
        uint32_t *next = b.rem; /* reuse: next member of each class */
        for (uint32_t c = 0; c < b.K; c++)
            next[c] = cls_first[c];
        for (uint32_t k = 0; k < m; k++)
            order[k] = sn[next[b.best_seq[k]]++].id;
    }
    for (uint32_t k = 0; k < m; k++)
        times[k] = t[order[k]];
    hc__reduce_ep_times(P, times, m, b.start, work);
    rc = hc__reduce_build(pb, order, b.start, t, out);
    if (rc != HC_OK)
        goto done;
    hc_schedule_t *s = *out;
    double naive = 1, tot = 0;
    for (uint32_t c = 0; c < b.K; c++)
        for (uint32_t j = 1; j <= b.cnt[c]; j++) {
            tot += 1;
            naive = naive * tot / j;
        }
    s->has_search = 1;
    s->search.nodes_visited = b.nodes;
    s->search.naive_space = naive;
    s->search.efficiency = 1 - b.nodes / naive;
    s->search.optimal = !b.aborted;
    double mk = s->makespan;
    {
        char js[96];
        snprintf(js, sizeof js, "{\"search_leaves\": %.0f}", b.leaves);
        s->extra_json = hc__strdup(js);
        if (!s->extra_json) {
            rc = hc__error(HC_ERR_NOMEM, "bnb: out of memory");
            goto done;
        }
    }
    if (!b.aborted) {
        s->search.best_lower_bound = mk;
        rc = hc_schedule_set_note(s,
                                  "bnb: optimal; %.0f nodes visited (%.0f complete orders) of "
                                  "%.0f orders (%u speed classes), efficiency %.4f %%",
                                  b.nodes, b.leaves, naive, b.K, 100 * s->search.efficiency);
    } else {
        double lb = b.open_lb < mk ? b.open_lb : mk;
        double plb;
        if (hc_lower_bound(pb, &plb) == HC_OK && plb > lb && plb <= mk)
            lb = plb;
        s->search.best_lower_bound = lb;
        rc = hc_schedule_set_note(s,
                                  "bnb: time limit %g s reached after %.0f nodes; best %.9g s, "
                                  "lower bound %.9g s, gap %.3f %% (not proven optimal)",
                                  b.limit, b.nodes, mk, lb, lb > 0 ? 100 * (mk - lb) / lb : 0.0);
    }
done:
    if (rc != HC_OK && *out) {
        hc_schedule_destroy(*out);
        *out = NULL;
    }
    free(t);
    free(times);
    free(work);
    free(order);
    free(cls_first);
    free(sn);
    free(b.val);
    free(b.cnt);
    free(b.rem);
    free(b.seq);
    free(b.best_seq);
    free(b.start);
    free(b.dur);
    free(b.cs);
    free(b.cd);
    free(b.q);
    free(b.sig);
    return rc;
}
