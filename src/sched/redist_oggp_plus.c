/* OGGP+ (ours, built on 001 §6.3): OGGP followed by the compaction post-pass of
 * below: two steps whose union is still a valid step are merged (one beta saved);
 * pieces of transfers are moved into idle time of other steps (below their longest transfer,
 * or into a free slot of a step with fewer than k transfers whose endpoints are idle); steps
 * that empty are removed (saving beta + their length); a step may also be dissolved by
 * lengthening other steps by less than beta + its length; others shorten. docs/design.md has
 * the measured gain.
 *
 * Complexity: OGGP + O(passes * S^2 * k) for S steps (8 passes at most). Guarantee: cost <=
 * cost of OGGP <= 8/3 eta (the post-pass never increases the cost). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "redist_kit.h"

/* The compaction post-pass (ours, docs/model.md "Redistribution"): merge two steps whose union
 * is still a valid step (saves a beta), and move pieces of transfers into the idle time of other
 * steps (the slack below a step's longest transfer, or a free slot of a step with < k transfers
 * whose two endpoints are idle), dissolving whole steps when possible (also by lengthening other
 * steps by less than the dissolved step costs) and otherwise shortening them. Never increases
 * the cost; keeps every step a matching of at most k transfers and every message covered. */

typedef struct cstep {
    hc__redist_xfer_t *x;
    uint32_t n, cap;
    double W;
    int removed;
} cstep_t;

typedef struct cmove {
    size_t t;    /* target step */
    uint32_t xi; /* index of the transfer in the source step */
    int is_new;
    double amount;
} cmove_t;

typedef struct compact {
    cstep_t *st;
    size_t S;
    uint32_t n1, n2, k;
    int32_t *rm, *cm; /* S x n1, S x n2: index of the transfer of row i / col j in step t */
    uint32_t *added;  /* tentative new transfers per step */
    double *grow;     /* tentative lengthening per step */
    cmove_t *mv;
    size_t n_mv, cap_mv;
} compact_t;

static double cstep_max(const cstep_t *s)
{
    double mx = 0;
    for (uint32_t e = 0; e < s->n; e++)
        if (s->x[e].amount > mx)
            mx = s->x[e].amount;
    return mx;
}

/* Find room for `need` seconds of transfer x (of source step src) in the other steps; record
 * the moves; returns the amount placed. */
static double place(compact_t *c, size_t src, uint32_t xi, double need, double tiny)
{
    const hc__redist_xfer_t *x = &c->st[src].x[xi];
    double placed = 0;
    for (int pass = 0; pass < 2 && need - placed > tiny; pass++) {
        for (size_t t = 0; t < c->S && need - placed > tiny; t++) {
            cstep_t *T = &c->st[t];
            if (t == src || T->removed)
                continue;
            int32_t ri = c->rm[t * c->n1 + x->i], ci = c->cm[t * c->n2 + x->j];
            double slack;
            int is_new;
            if (pass == 0) {
                if (ri < 0 || T->x[ri].j != x->j)
                    continue;
                slack = T->W - T->x[ri].amount;
                is_new = 0;
            } else {
                if (ri >= 0 || ci >= 0 || T->n + c->added[t] >= c->k)
                    continue;
                slack = T->W;
                is_new = 1;
            }
            if (slack <= tiny)
                continue;
            double a = need - placed < slack ? need - placed : slack;
            if (hc__grow((void **)&c->mv, &c->cap_mv, c->n_mv + 1, sizeof *c->mv) != HC_OK)
                return -1;
            c->mv[c->n_mv].t = t;
            c->mv[c->n_mv].xi = xi;
            c->mv[c->n_mv].is_new = is_new;
            c->mv[c->n_mv].amount = a;
            c->n_mv++;
            if (is_new)
                c->added[t]++;
            placed += a;
        }
    }
    return placed;
}

static void rollback(compact_t *c)
{
    for (size_t m = 0; m < c->n_mv; m++) {
        if (c->mv[m].is_new)
            c->added[c->mv[m].t]--;
        c->grow[c->mv[m].t] = 0;
    }
    c->n_mv = 0;
}

static int commit(compact_t *c, size_t src)
{
    cstep_t *S = &c->st[src];
    for (size_t m = 0; m < c->n_mv; m++) {
        const cmove_t *mv = &c->mv[m];
        hc__redist_xfer_t *x = &S->x[mv->xi];
        cstep_t *T = &c->st[mv->t];
        if (mv->is_new) {
            c->added[mv->t]--;
            if (T->n == T->cap) {
                size_t cap = T->cap;
                HC__TRY(hc__grow((void **)&T->x, &cap, (size_t)T->n + 1, sizeof *T->x));
                T->cap = (uint32_t)cap;
            }
            T->x[T->n] = *x;
            T->x[T->n].amount = mv->amount;
            c->rm[mv->t * c->n1 + x->i] = (int32_t)T->n;
            c->cm[mv->t * c->n2 + x->j] = (int32_t)T->n;
            T->n++;
            if (mv->amount > T->W)
                T->W = mv->amount;
        } else {
            hc__redist_xfer_t *y = &T->x[c->rm[mv->t * c->n1 + x->i]];
            y->amount += mv->amount;
            if (y->amount > T->W)
                T->W = y->amount;
        }
        c->grow[mv->t] = 0;
        x->amount -= mv->amount;
    }
    c->n_mv = 0;
    /* drop emptied transfers of the source step */
    for (uint32_t e = 0; e < S->n;) {
        if (S->x[e].amount <= 0) {
            c->rm[src * c->n1 + S->x[e].i] = -1;
            c->cm[src * c->n2 + S->x[e].j] = -1;
            S->x[e] = S->x[S->n - 1];
            S->n--;
            if (e < S->n) {
                c->rm[src * c->n1 + S->x[e].i] = (int32_t)e;
                c->cm[src * c->n2 + S->x[e].j] = (int32_t)e;
            }
        } else {
            e++;
        }
    }
    S->W = cstep_max(S);
    if (S->n == 0)
        S->removed = 1;
    return HC_OK;
}

typedef struct wkey {
    double W;
    size_t s;
} wkey_t;

static int cmp_wkey(const void *a, const void *b)
{
    const wkey_t *x = a, *y = b;
    if (x->W != y->W)
        return (x->W > y->W) - (x->W < y->W);
    return (x->s > y->s) - (x->s < y->s);
}

static int cmp_amount_desc(const void *a, const void *b)
{
    double x = ((const hc__redist_xfer_t *)a)->amount, y = ((const hc__redist_xfer_t *)b)->amount;
    return (x < y) - (x > y);
}

/* Dissolve step s by moving each of its transfers, whole, into the step where it lengthens the
 * schedule least (a step holding the same message, or a free slot with both endpoints idle).
 * Done only when the total lengthening is below what removing s saves (beta + W_s). Returns 1
 * when done, 0 when not, < 0 on error. Generalises merging (one target) and dissolving into
 * idle time (no lengthening). */
static int dissolve_grow(compact_t *c, size_t s, double beta, double tiny)
{
    cstep_t *S = &c->st[s];
    double growth = 0;
    for (uint32_t e = 0; e < S->n; e++) {
        const hc__redist_xfer_t *x = &S->x[e];
        size_t best = SIZE_MAX;
        double best_m = HUGE_VAL, best_level = 0;
        int best_new = 0;
        for (size_t t = 0; t < c->S; t++) {
            const cstep_t *T = &c->st[t];
            if (t == s || T->removed)
                continue;
            int32_t ri = c->rm[t * c->n1 + x->i], ci = c->cm[t * c->n2 + x->j];
            double level;
            int is_new;
            if (ri >= 0 && T->x[ri].j == x->j) {
                level = T->x[ri].amount + x->amount;
                is_new = 0;
            } else if (ri < 0 && ci < 0 && T->n + c->added[t] < c->k) {
                level = x->amount;
                is_new = 1;
            } else {
                continue;
            }
            double cur = T->W + c->grow[t];
            double mg = level > cur ? level - cur : 0;
            if (mg < best_m - tiny || (mg <= best_m + tiny && best_new && !is_new)) {
                best = t;
                best_m = mg;
                best_new = is_new;
                best_level = level;
            }
        }
        if (best == SIZE_MAX || growth + best_m >= beta + S->W - tiny) {
            rollback(c);
            return 0;
        }
        if (hc__grow((void **)&c->mv, &c->cap_mv, c->n_mv + 1, sizeof *c->mv) != HC_OK)
            return HC_ERR_NOMEM;
        c->mv[c->n_mv].t = best;
        c->mv[c->n_mv].xi = e;
        c->mv[c->n_mv].is_new = best_new;
        c->mv[c->n_mv].amount = x->amount;
        c->n_mv++;
        if (best_new)
            c->added[best]++;
        if (best_level - c->st[best].W > c->grow[best])
            c->grow[best] = best_level - c->st[best].W;
        growth += best_m;
    }
    HC__TRY(commit(c, s));
    for (uint32_t e = 0; e < S->n; e++) /* whole amounts moved: nothing is left */
        S->x[e].amount = 0;
    HC__TRY(commit(c, s));
    return 1;
}

/* One attempt on step s: dissolve it, else lower its longest transfer. Returns 1 when the
 * plan changed, 0 when not, < 0 on error. */
static int improve_step(compact_t *c, size_t s, double beta)
{
    cstep_t *S = &c->st[s];
    double tiny = 1e-9 * (S->W > 0 ? S->W : 1);
    /* sort the transfers by amount, longest first (fix the row/col indexes) */
    qsort(S->x, S->n, sizeof *S->x, cmp_amount_desc);
    for (uint32_t e = 0; e < S->n; e++) {
        c->rm[s * c->n1 + S->x[e].i] = (int32_t)e;
        c->cm[s * c->n2 + S->x[e].j] = (int32_t)e;
    }
    /* 1. dissolve */
    int ok = 1;
    for (uint32_t e = 0; e < S->n && ok; e++) {
        double need = S->x[e].amount;
        size_t before_mv = c->n_mv;
        double got = place(c, s, e, need, tiny);
        if (got < 0)
            return HC_ERR_NOMEM;
        if (got < need - tiny || c->n_mv == before_mv)
            ok = 0;
        else
            c->mv[c->n_mv - 1].amount += need - got; /* exact coverage */
    }
    if (ok) {
        HC__TRY(commit(c, s));
        /* amounts that were off by rounding: force the step empty */
        for (uint32_t e = 0; e < S->n; e++)
            S->x[e].amount = 0;
        HC__TRY(commit(c, s));
        return 1;
    }
    rollback(c);
    /* 1b. dissolve, lengthening other steps by less than the step costs */
    int dg = dissolve_grow(c, s, beta, tiny);
    if (dg != 0)
        return dg;
    /* 2. trim: capacities in descending order, then the new longest W' */
    double Wn = 0;
    for (uint32_t e = 0; e < S->n; e++) {
        double got = place(c, s, e, S->x[e].amount, tiny);
        if (got < 0)
            return HC_ERR_NOMEM;
        double r = S->x[e].amount - got;
        if (r > Wn)
            Wn = r;
    }
    rollback(c);
    if (Wn >= S->W - tiny)
        return 0;
    for (uint32_t e = 0; e < S->n; e++) {
        double need = S->x[e].amount - Wn;
        if (need <= 0)
            break; /* sorted: the rest are shorter */
        double got = place(c, s, e, need, tiny);
        if (got < 0)
            return HC_ERR_NOMEM;
    }
    double before = S->W;
    HC__TRY(commit(c, s));
    return S->W < before ? 1 : 0;
}

/* Merge step s into another step t when their union is still a valid step (a matching of at
 * most k transfers; a shared endpoint must belong to the same message, whose two pieces then
 * add up): the merged step lasts max(longest of t, pieces summed) <= W_s + W_t and one start-up
 * beta is saved. Takes the t of largest gain. Returns 1 when merged, 0 when not, < 0 on error. */
static int merge_step(compact_t *c, size_t s, double beta, size_t window)
{
    cstep_t *S = &c->st[s];
    size_t best = SIZE_MAX, lo = s > window ? s - window : 0;
    size_t hi = c->S - s > window ? s + window : c->S;
    double best_gain = 1e-9 * (S->W > 0 ? S->W : 1);
    uint32_t best_new = 0;
    for (size_t t = lo; t < hi; t++) {
        cstep_t *T = &c->st[t];
        if (t == s || T->removed)
            continue;
        double Wm = T->W;
        uint32_t fresh = 0;
        int ok = 1;
        for (uint32_t e = 0; e < S->n && ok; e++) {
            const hc__redist_xfer_t *x = &S->x[e];
            int32_t ri = c->rm[t * c->n1 + x->i], ci = c->cm[t * c->n2 + x->j];
            if (ri >= 0 || ci >= 0) {
                if (ri < 0 || ri != ci) {
                    ok = 0; /* an endpoint busy with another message */
                } else if (T->x[ri].amount + x->amount > Wm) {
                    Wm = T->x[ri].amount + x->amount;
                }
            } else {
                fresh++;
                if (x->amount > Wm)
                    Wm = x->amount;
            }
        }
        if (!ok || T->n + fresh > c->k)
            continue;
        double gain = beta + S->W + T->W - Wm;
        if (gain > best_gain) {
            best_gain = gain;
            best = t;
            best_new = fresh;
        }
    }
    if (best == SIZE_MAX)
        return 0;
    cstep_t *T = &c->st[best];
    if (T->cap < T->n + best_new) {
        size_t cap = T->cap;
        HC__TRY(hc__grow((void **)&T->x, &cap, (size_t)T->n + best_new, sizeof *T->x));
        T->cap = (uint32_t)cap;
    }
    for (uint32_t e = 0; e < S->n; e++) {
        const hc__redist_xfer_t *x = &S->x[e];
        int32_t ri = c->rm[best * c->n1 + x->i];
        if (ri >= 0) {
            T->x[ri].amount += x->amount;
        } else {
            T->x[T->n] = *x;
            c->rm[best * c->n1 + x->i] = (int32_t)T->n;
            c->cm[best * c->n2 + x->j] = (int32_t)T->n;
            T->n++;
        }
        c->rm[s * c->n1 + x->i] = -1;
        c->cm[s * c->n2 + x->j] = -1;
    }
    T->W = cstep_max(T);
    S->n = 0;
    S->W = 0;
    S->removed = 1;
    return 1;
}

static int compact_plan(hc__redist_plan_t *plan, uint32_t k, double beta)
{
    compact_t c;
    memset(&c, 0, sizeof c);
    int rc = HC_OK;
    wkey_t *order = NULL;
    c.S = plan->n_steps;
    c.k = k;
    for (size_t e = 0; e < plan->n; e++) {
        if (plan->x[e].i + 1 > c.n1)
            c.n1 = plan->x[e].i + 1;
        if (plan->x[e].j + 1 > c.n2)
            c.n2 = plan->x[e].j + 1;
    }
    if (c.S < 2)
        return HC_OK;
    c.st = hc__calloc(c.S, sizeof *c.st);
    c.rm = hc__malloc(c.S * c.n1, sizeof *c.rm);
    c.cm = hc__malloc(c.S * c.n2, sizeof *c.cm);
    c.added = hc__calloc(c.S, sizeof *c.added);
    c.grow = hc__calloc(c.S, sizeof *c.grow);
    order = hc__malloc(c.S, sizeof *order);
    if (!c.st || !c.rm || !c.cm || !c.added || !c.grow || !order) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory compacting %zu steps", c.S);
        goto done;
    }
    for (size_t e = 0; e < c.S * c.n1; e++)
        c.rm[e] = -1;
    for (size_t e = 0; e < c.S * c.n2; e++)
        c.cm[e] = -1;
    size_t first = 0;
    for (size_t s = 0; s < c.S; s++) {
        cstep_t *S = &c.st[s];
        S->n = (uint32_t)(plan->end[s] - first);
        S->cap = S->n + 1;
        S->x = hc__malloc(S->cap, sizeof *S->x);
        if (!S->x) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory compacting %zu steps", c.S);
            goto done;
        }
        memcpy(S->x, plan->x + first, S->n * sizeof *S->x);
        for (uint32_t e = 0; e < S->n; e++) {
            c.rm[s * c.n1 + S->x[e].i] = (int32_t)e;
            c.cm[s * c.n2 + S->x[e].j] = (int32_t)e;
        }
        S->W = cstep_max(S);
        first = plan->end[s];
    }
    /* pairs of steps looked at for merging: all of them unless that is too many */
    size_t window = c.S;
    if ((double)c.S * (double)c.S * k > 4e7)
        window = (size_t)(4e7 / ((double)c.S * k)) + 1;
    for (int pass = 0; pass < 8; pass++) {
        int changed = 0;
        for (size_t s = 0; s < c.S; s++) {
            if (c.st[s].removed)
                continue;
            int r = merge_step(&c, s, beta, window);
            if (r < 0) {
                rc = r;
                goto done;
            }
            changed |= r;
        }
        for (size_t s = 0; s < c.S; s++) {
            order[s].W = c.st[s].W;
            order[s].s = s;
        }
        qsort(order, c.S, sizeof *order, cmp_wkey);
        for (size_t o = 0; o < c.S; o++) {
            if (c.st[order[o].s].removed)
                continue;
            int r = improve_step(&c, order[o].s, beta);
            if (r < 0) {
                rc = r;
                goto done;
            }
            changed |= r;
        }
        if (!changed)
            break;
    }
    /* write back, keeping the step order */
    plan->n = 0;
    plan->n_steps = 0;
    for (size_t s = 0; s < c.S; s++) {
        if (c.st[s].removed)
            continue;
        for (uint32_t e = 0; e < c.st[s].n; e++) {
            rc = hc__redist_plan_add(plan, c.st[s].x[e].i, c.st[s].x[e].j, c.st[s].x[e].amount);
            if (rc != HC_OK)
                goto done;
        }
        rc = hc__redist_plan_close(plan);
        if (rc != HC_OK)
            goto done;
    }
done:
    if (c.st)
        for (size_t s = 0; s < c.S; s++)
            free(c.st[s].x);
    free(c.st);
    free(c.rm);
    free(c.cm);
    free(c.added);
    free(c.grow);
    free(c.mv);
    free(order);
    return rc;
}

int hc__algo_redist_oggp_plus(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    hc__redist_plan_t plan = {0};
    int rc = hc__kpbs_plan(pb, &hc__kpbs_oggp, &plan);
    if (rc == HC_OK)
        rc = compact_plan(&plan, pb->k, pb->beta);
    if (rc == HC_OK)
        rc = hc__redist_emit(pb, &plan, out);
    hc__redist_plan_free(&plan);
    return rc;
}
