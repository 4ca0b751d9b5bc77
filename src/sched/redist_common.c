/* Shared pieces of the redistribution (KPBS) algorithms of 001 (Cohen, Jeannot, Padoy, Wagner):
 * step plans and their emission, the GGP graphs H, I (Fig. 5) and J (Fig. 6), the peeling
 * loop of GGP/OGGP (§6.1, §6.3) and the compaction post-pass (our improvement).
 *
 * Complexity: building J is O(n1 n2); peeling does at most m(J) perfect matchings (each step
 * removes an edge), each a warm-started Hopcroft-Karp (GGP) or a threshold search (OGGP). */
#include "redist_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"

/* ---------------------------------------------------------------- plan */

void hc__redist_plan_free(hc__redist_plan_t *p)
{
    if (!p)
        return;
    free(p->x);
    free(p->end);
    memset(p, 0, sizeof *p);
}

int hc__redist_plan_add(hc__redist_plan_t *p, uint32_t i, uint32_t j, double amount)
{
    HC__TRY(hc__grow((void **)&p->x, &p->cap, p->n + 1, sizeof *p->x));
    p->x[p->n].i = i;
    p->x[p->n].j = j;
    p->x[p->n].amount = amount;
    p->n++;
    return HC_OK;
}

int hc__redist_plan_close(hc__redist_plan_t *p)
{
    size_t first = p->n_steps ? p->end[p->n_steps - 1] : 0;
    if (p->n == first)
        return HC_OK;
    HC__TRY(hc__grow((void **)&p->end, &p->cap_steps, p->n_steps + 1, sizeof *p->end));
    p->end[p->n_steps++] = p->n;
    return HC_OK;
}

double hc__redist_plan_cost(const hc__redist_plan_t *p, double beta)
{
    double c = 0;
    size_t first = 0;
    for (size_t s = 0; s < p->n_steps; s++) {
        double mx = 0;
        for (size_t e = first; e < p->end[s]; e++)
            if (p->x[e].amount > mx)
                mx = p->x[e].amount;
        c += beta + mx;
        first = p->end[s];
    }
    return c;
}

int hc__redist_check(const hc_problem_t *pb)
{
    if (pb->coll != HC_COLL_REDISTRIBUTE)
        return hc__error(HC_ERR_INVAL, "problem: field 'coll': expected redistribute");
    if (!pb->costs || pb->costs->rows != pb->n1 || pb->costs->cols != pb->n2)
        return hc__error(HC_ERR_SHAPE, "problem: field 'costs': must be n1 x n2 (%u x %u)", pb->n1,
                         pb->n2);
    if (pb->k < 1)
        return hc__error(HC_ERR_VALUE, "problem: field 'k': must be >= 1");
    if (!(pb->beta >= 0) || !isfinite(pb->beta))
        return hc__error(HC_ERR_VALUE, "problem: field 'beta': must be finite and >= 0");
    for (size_t e = 0; e < (size_t)pb->n1 * pb->n2; e++)
        if (!(pb->costs->v[e] >= 0) || !isfinite(pb->costs->v[e]))
            return hc__error(HC_ERR_VALUE,
                             "problem: field 'costs[%zu][%zu]': must be finite and >= 0",
                             e / pb->n2, e % pb->n2);
    return HC_OK;
}

int hc__redist_emit(const hc_problem_t *pb, const hc__redist_plan_t *plan, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t n1 = pb->n1, n2 = pb->n2;
    size_t nn = (size_t)n1 * n2;
    hc_schedule_t *s = NULL;
    size_t *cnt = hc__calloc(nn, sizeof *cnt);
    uint64_t *left = hc__calloc(nn, sizeof *left);
    if (!cnt || !left) {
        free(cnt);
        free(left);
        return hc__error(HC_ERR_NOMEM, "out of memory emitting a redistribution schedule");
    }
    int rc = hc_schedule_create(HC_COLL_REDISTRIBUTE, n1 + n2, &s);
    if (rc != HC_OK)
        goto done;
    s->n1 = n1;
    s->n2 = n2;
    s->k = pb->k;
    s->beta = pb->beta;
    for (size_t e = 0; e < plan->n; e++)
        cnt[(size_t)plan->x[e].i * n2 + plan->x[e].j]++;
    if (pb->sizes)
        for (size_t e = 0; e < nn; e++)
            left[e] = (uint64_t)llround(pb->sizes->v[e]);
    double t = 0;
    size_t first = 0;
    for (size_t st = 0; st < plan->n_steps; st++) {
        double mx = 0;
        for (size_t e = first; e < plan->end[st]; e++) {
            const hc__redist_xfer_t *x = &plan->x[e];
            size_t c = (size_t)x->i * n2 + x->j;
            hc_event_t ev;
            memset(&ev, 0, sizeof ev);
            ev.src = x->i;
            ev.dst = n1 + x->j;
            ev.start = t + pb->beta;
            ev.end = ev.start + x->amount;
            ev.step = (uint32_t)st;
            if (pb->sizes) {
                if (--cnt[c] == 0) {
                    ev.bytes = left[c];
                } else {
                    double cost = HC_AT(pb->costs, x->i, x->j);
                    double b = cost > 0 ? pb->sizes->v[c] * (x->amount / cost) : 0;
                    uint64_t bb = (uint64_t)llround(b);
                    ev.bytes = bb < left[c] ? bb : left[c];
                }
                left[c] -= ev.bytes;
            }
            if (x->amount > mx)
                mx = x->amount;
            rc = hc_schedule_add_event(s, &ev);
            if (rc != HC_OK)
                goto done;
        }
        rc = hc_schedule_close_step(s);
        if (rc != HC_OK)
            goto done;
        t += pb->beta + mx;
        first = plan->end[st];
    }
    *out = s;
    s = NULL;
done:
    hc_schedule_destroy(s);
    free(cnt);
    free(left);
    return rc;
}

/* ---------------------------------------------------------------- compaction */

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

int hc__redist_compact(hc__redist_plan_t *plan, uint32_t k, double beta)
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

/* ---------------------------------------------------------------- GGP graphs */

void hc__kpbs_free(hc__kpbs_t *J)
{
    if (!J)
        return;
    free(J->rows);
    free(J->cols);
    free(J->off);
    free(J->col);
    free(J->row);
    free(J->w0);
    free(J->w);
    free(J->kind);
    memset(J, 0, sizeof *J);
}

typedef struct edge_list {
    uint32_t *u, *v;
    double *w;
    uint8_t *kind;
    size_t n, cap;
} edge_list_t;

static int el_add(edge_list_t *L, uint32_t u, uint32_t v, double w, uint8_t kind)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        uint32_t *nu = hc__realloc(L->u, cap, sizeof *nu);
        if (!nu)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->u = nu;
        uint32_t *nv = hc__realloc(L->v, cap, sizeof *nv);
        if (!nv)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->v = nv;
        double *nw = hc__realloc(L->w, cap, sizeof *nw);
        if (!nw)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->w = nw;
        uint8_t *nk = hc__realloc(L->kind, cap, sizeof *nk);
        if (!nk)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->kind = nk;
        L->cap = cap;
    }
    L->u[L->n] = u;
    L->v[L->n] = v;
    L->w[L->n] = w;
    L->kind[L->n] = kind;
    L->n++;
    return HC_OK;
}

/* Fig. 6 on one side: the vertices of weight vw[0..cnt-1] get extension edges to new vertices
 * (numbered base, base+1, ...) of the other side, filled up to phi in order. */
static int extend_side(edge_list_t *L, const double *vw, uint32_t cnt, double phi, uint32_t base,
                       int left, uint32_t expect)
{
    uint32_t bins = 0;
    double room = 0;
    for (uint32_t s = 0; s < cnt; s++) {
        double r = phi - vw[s];
        while (r > 0) {
            if (room <= 0) {
                bins++;
                room = phi;
            }
            double t = r < room ? r : room;
            uint32_t nb = base + bins - 1;
            HC__TRY(left ? el_add(L, s, nb, t, HC__KPBS_EXT) : el_add(L, nb, s, t, HC__KPBS_EXT));
            r -= t;
            room -= t;
        }
    }
    if (bins != expect || room != 0)
        return hc__error(HC_ERR_INTERNAL,
                         "GGP extension: %u new vertices (expected %u), %g weight left", bins,
                         expect, room);
    return HC_OK;
}

int hc__kpbs_build(const hc_problem_t *pb, hc__kpbs_t *J)
{
    memset(J, 0, sizeof *J);
    HC__TRY(hc__redist_check(pb));
    uint32_t n1 = pb->n1, n2 = pb->n2;
    edge_list_t L;
    memset(&L, 0, sizeof L);
    double *vw1 = NULL, *vw2 = NULL;
    int32_t *cidx = NULL;
    int rc = HC_OK;
    J->rows = hc__malloc(n1, sizeof *J->rows);
    J->cols = hc__malloc(n2, sizeof *J->cols);
    cidx = hc__malloc(n2, sizeof *cidx);
    if (!J->rows || !J->cols || !cidx) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
        goto fail;
    }
    double PG = 0;
    for (uint32_t j = 0; j < n2; j++)
        cidx[j] = -1;
    for (uint32_t i = 0; i < n1; i++) {
        int any = 0;
        for (uint32_t j = 0; j < n2; j++) {
            double c = HC_AT(pb->costs, i, j);
            if (c > 0) {
                any = 1;
                PG += c;
                if (cidx[j] < 0)
                    cidx[j] = 0;
            }
        }
        if (any)
            J->rows[J->n1r++] = i;
    }
    for (uint32_t j = 0; j < n2; j++)
        if (cidx[j] == 0) {
            cidx[j] = (int32_t)J->n2r;
            J->cols[J->n2r++] = j;
        }
    if (J->n1r == 0) {
        J->off = hc__calloc(1, sizeof *J->off);
        if (!J->off)
            rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
        goto out;
    }
    J->k = pb->k;
    if (J->k > J->n1r)
        J->k = J->n1r;
    if (J->k > J->n2r)
        J->k = J->n2r;
    /* H: whole numbers of `unit` (beta; coarser if that would exceed 2^40 units in all) */
    J->unit = pb->beta;
    if (!(J->unit > 0) || PG / J->unit > 1099511627776.0)
        J->unit = PG / 1099511627776.0;
    vw1 = hc__calloc((size_t)J->n1r + J->k + 1, sizeof *vw1); /* grown below for delta */
    vw2 = hc__calloc(J->n2r, sizeof *vw2);
    if (!vw1 || !vw2) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
        goto fail;
    }
    for (uint32_t a = 0; a < J->n1r; a++) {
        for (uint32_t j = 0; j < n2; j++) {
            double c = HC_AT(pb->costs, J->rows[a], j);
            if (c <= 0)
                continue;
            double h = ceil(c / J->unit - 1e-9);
            if (h < 1)
                h = 1;
            rc = el_add(&L, a, (uint32_t)cidx[j], h, HC__KPBS_REAL);
            if (rc != HC_OK)
                goto fail;
            vw1[a] += h;
            vw2[cidx[j]] += h;
            J->PH += h;
        }
    }
    for (uint32_t a = 0; a < J->n1r; a++)
        if (vw1[a] > J->WH)
            J->WH = vw1[a];
    for (uint32_t b = 0; b < J->n2r; b++)
        if (vw2[b] > J->WH)
            J->WH = vw2[b];
    /* I (Fig. 5 step 2) */
    J->phi = fmax(J->WH, ceil(J->PH / J->k));
    double rem = J->phi * J->k - J->PH;
    J->delta = (uint32_t)ceil(rem / J->WH);
    J->n1i = J->n1r + J->delta;
    J->n2i = J->n2r + J->delta;
    {
        double *g1 = hc__realloc(vw1, J->n1i, sizeof *g1);
        double *g2 = hc__realloc(vw2, J->n2i, sizeof *g2);
        if (g1)
            vw1 = g1;
        if (g2)
            vw2 = g2;
        if (!g1 || !g2) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
            goto fail;
        }
    }
    for (uint32_t d = 0; d < J->delta; d++) {
        double w = J->WH;
        if (d + 1 == J->delta && fmod(rem, J->WH) != 0)
            w = fmod(rem, J->WH);
        rc = el_add(&L, J->n1r + d, J->n2r + d, w, HC__KPBS_DUMMY);
        if (rc != HC_OK)
            goto fail;
        vw1[J->n1r + d] = w;
        vw2[J->n2r + d] = w;
    }
    /* J (Fig. 6): V1_I gets n1i - k new right vertices, V2_I gets n2i - k new left ones */
    J->n = J->n1i + J->n2i - J->k;
    rc = extend_side(&L, vw1, J->n1i, J->phi, J->n2i, 1, J->n1i - J->k);
    if (rc == HC_OK)
        rc = extend_side(&L, vw2, J->n2i, J->phi, J->n1i, 0, J->n2i - J->k);
    if (rc != HC_OK)
        goto fail;
    /* CSR by left vertex */
    J->m = L.n;
    J->off = hc__calloc((size_t)J->n + 1, sizeof *J->off);
    J->col = hc__malloc(J->m, sizeof *J->col);
    J->row = hc__malloc(J->m, sizeof *J->row);
    J->w0 = hc__malloc(J->m, sizeof *J->w0);
    J->w = hc__malloc(J->m, sizeof *J->w);
    J->kind = hc__malloc(J->m, sizeof *J->kind);
    if (!J->off || !J->col || !J->row || !J->w0 || !J->w || !J->kind) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        goto fail;
    }
    for (size_t e = 0; e < L.n; e++)
        J->off[L.u[e] + 1]++;
    for (uint32_t u = 0; u < J->n; u++)
        J->off[u + 1] += J->off[u];
    for (size_t e = 0; e < L.n; e++) {
        size_t s = J->off[L.u[e]]++;
        J->col[s] = L.v[e];
        J->row[s] = L.u[e];
        J->w0[s] = L.w[e];
        J->kind[s] = L.kind[e];
    }
    for (uint32_t u = J->n; u > 0; u--)
        J->off[u] = J->off[u - 1];
    J->off[0] = 0;
    memcpy(J->w, J->w0, J->m * sizeof *J->w);
    goto out;
fail:
    hc__kpbs_free(J);
out:
    free(L.u);
    free(L.v);
    free(L.w);
    free(L.kind);
    free(vw1);
    free(vw2);
    free(cidx);
    return rc;
}

double hc__kpbs_vertex_weight(const hc__kpbs_t *J, int side, uint32_t v)
{
    double s = 0;
    for (size_t e = 0; e < J->m; e++)
        if ((side == 0 ? J->row[e] : J->col[e]) == v)
            s += J->w0[e];
    return s;
}

/* Working copy of J's edges for peeling, in "position" space: the CSR is compacted (dead edges
 * dropped) whenever enough of it is dead, so that matchings only scan live edges. */
typedef struct peel_ws {
    size_t *off;
    uint32_t *col;
    double *w;
    size_t *slot; /* position -> edge of J */
    size_t *map;  /* old position -> new position, during a compaction */
    size_t m, live;
} peel_ws_t;

static void peel_ws_free(peel_ws_t *P)
{
    free(P->off);
    free(P->col);
    free(P->w);
    free(P->slot);
    free(P->map);
}

/* Drop the dead positions and renumber the matching held by h. */
static void peel_ws_compact(peel_ws_t *P, hc__hk_t *h, uint32_t n)
{
    size_t q = 0, start = 0;
    h->thr = 0;
    hc__hk_drop_inactive(h); /* matched edges are now all live */
    for (uint32_t u = 0; u < n; u++) {
        size_t end = P->off[u + 1];
        P->off[u] = q;
        for (size_t p = start; p < end; p++) {
            if (P->w[p] > 0) {
                P->map[p] = q;
                P->col[q] = P->col[p];
                P->w[q] = P->w[p];
                P->slot[q] = P->slot[p];
                q++;
            } else {
                P->map[p] = SIZE_MAX;
            }
        }
        start = end;
    }
    P->off[n] = q;
    P->m = q;
    for (uint32_t u = 0; u < n; u++)
        if (h->mate1[u] >= 0)
            h->mate1[u] = (int64_t)P->map[h->mate1[u]];
}

int hc__kpbs_peel(const hc_problem_t *pb, hc__kpbs_t *J, int optimal, hc__kpbs_match_cb cb,
                  void *ctx, hc__redist_plan_t *plan)
{
    if (J->m == 0)
        return HC_OK;
    memcpy(J->w, J->w0, J->m * sizeof *J->w);
    peel_ws_t P;
    memset(&P, 0, sizeof P);
    hc__hk_t h;
    memset(&h, 0, sizeof h);
    int rc = HC_OK;
    double *rem = hc__malloc(J->m, sizeof *rem);
    int64_t *mslot = hc__malloc(J->n, sizeof *mslot);
    P.off = hc__malloc((size_t)J->n + 1, sizeof *P.off);
    P.col = hc__malloc(J->m, sizeof *P.col);
    P.w = hc__malloc(J->m, sizeof *P.w);
    P.slot = hc__malloc(J->m, sizeof *P.slot);
    P.map = hc__malloc(J->m, sizeof *P.map);
    if (!rem || !mslot || !P.off || !P.col || !P.w || !P.slot || !P.map) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory peeling GGP graph J");
        goto done;
    }
    memcpy(P.off, J->off, ((size_t)J->n + 1) * sizeof *P.off);
    memcpy(P.col, J->col, J->m * sizeof *P.col);
    memcpy(P.w, J->w0, J->m * sizeof *P.w);
    for (size_t s = 0; s < J->m; s++) {
        P.slot[s] = s;
        rem[s] = J->kind[s] == HC__KPBS_REAL
                     ? HC_AT(pb->costs, J->rows[J->row[s]], J->cols[J->col[s]])
                     : 0;
    }
    P.m = P.live = J->m;
    rc = hc__hk_init(&h, J->n, J->n, P.off, P.col);
    if (rc != HC_OK)
        goto done;
    h.w = P.w;
    double prev = 0; /* OGGP: the previous step's max-min value, the first probe */
    while (P.live > 0) {
        double amt = 0;
        if (4 * P.live < 3 * P.m)
            peel_ws_compact(&P, &h, J->n);
        if (optimal) {
            int r = hc__hk_bottleneck(&h, prev, &amt);
            prev = amt;
            if (r < 0) {
                rc = hc__error(HC_ERR_NOMEM, "out of memory in the OGGP threshold search");
                break;
            }
            if (r == 0) {
                rc = hc__error(HC_ERR_INTERNAL, "OGGP: J has no perfect matching (%zu edges left)",
                               P.live);
                break;
            }
        } else {
            h.thr = 0;
            hc__hk_drop_inactive(&h);
            if (hc__hk_run(&h) < J->n) {
                rc = hc__error(HC_ERR_INTERNAL, "GGP: J has no perfect matching (%zu edges left)",
                               P.live);
                break;
            }
            amt = HUGE_VAL;
            for (uint32_t u = 0; u < J->n; u++)
                if (P.w[h.mate1[u]] < amt)
                    amt = P.w[h.mate1[u]];
        }
        if (cb) {
            for (uint32_t u = 0; u < J->n; u++)
                mslot[u] = (int64_t)P.slot[h.mate1[u]];
            cb(ctx, J, mslot, amt);
        }
        for (uint32_t u = 0; u < J->n && rc == HC_OK; u++) {
            size_t p = (size_t)h.mate1[u], s = P.slot[p];
            P.w[p] -= amt;
            if (P.w[p] <= 0) {
                P.w[p] = 0;
                P.live--;
            }
            J->w[s] = P.w[p];
            if (J->kind[s] != HC__KPBS_REAL)
                continue;
            double sec = J->w[s] == 0 ? rem[s] : fmin(amt * J->unit, rem[s]);
            rem[s] -= sec;
            if (sec > 0)
                rc = hc__redist_plan_add(plan, J->rows[u], J->cols[J->col[s]], sec);
        }
        if (rc == HC_OK)
            rc = hc__redist_plan_close(plan);
        if (rc != HC_OK)
            break;
    }
done:
    hc__hk_free(&h);
    peel_ws_free(&P);
    free(rem);
    free(mslot);
    return rc;
}

int hc__kpbs_plan(const hc_problem_t *pb, int optimal, hc__redist_plan_t *plan)
{
    hc__kpbs_t J;
    HC__TRY(hc__kpbs_build(pb, &J));
    int rc = hc__kpbs_peel(pb, &J, optimal, NULL, NULL, plan);
    hc__kpbs_free(&J);
    return rc;
}

/* ---------------------------------------------------------------- heuristics (§7) */

int hc__redist_heuristic(const hc_problem_t *pb, int by_degree, hc__redist_plan_t *plan)
{
    HC__TRY(hc__redist_check(pb));
    uint32_t n1 = pb->n1, n2 = pb->n2, k = pb->k;
    size_t nn = (size_t)n1 * n2, alive = 0;
    double *rem = hc__malloc(nn, sizeof *rem);
    double *key = hc__malloc(nn, sizeof *key);
    uint32_t *deg1 = hc__calloc(n1, sizeof *deg1), *deg2 = hc__calloc(n2, sizeof *deg2);
    size_t *off = hc__malloc((size_t)n1 + 1, sizeof *off);
    uint32_t *col = hc__malloc(nn, sizeof *col);
    uint32_t *cell = hc__malloc(nn, sizeof *cell);
    hc__redist_xfer_t *pick = hc__malloc(n1 < n2 ? n1 : n2, sizeof *pick);
    double *pkey = hc__malloc(n1 < n2 ? n1 : n2, sizeof *pkey);
    hc__hk_t h;
    memset(&h, 0, sizeof h);
    int rc = HC_OK;
    if (!rem || !key || !deg1 || !deg2 || !off || !col || !cell || !pick || !pkey) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in a redistribution heuristic");
        goto done;
    }
    memcpy(rem, pb->costs->v, nn * sizeof *rem);
    for (size_t c = 0; c < nn; c++)
        if (rem[c] > 0) {
            alive++;
            deg1[c / n2]++;
            deg2[c % n2]++;
        }
    while (alive > 0) {
        /* graph of the remaining messages, each row's edges by decreasing key, so that the
         * matcher's greedy start prefers heavy (or high-degree) edges */
        for (size_t c = 0; c < nn; c++)
            key[c] = by_degree ? (double)(deg1[c / n2] + deg2[c % n2]) : rem[c];
        off[0] = 0;
        for (uint32_t i = 0; i < n1; i++) {
            size_t s = off[i];
            for (uint32_t j = 0; j < n2; j++) {
                size_t c = (size_t)i * n2 + j;
                if (rem[c] <= 0)
                    continue;
                size_t p = s++;
                while (p > off[i] && key[cell[p - 1]] < key[c]) { /* insertion, stable */
                    cell[p] = cell[p - 1];
                    col[p] = col[p - 1];
                    p--;
                }
                cell[p] = (uint32_t)c;
                col[p] = j;
            }
            off[i + 1] = s;
        }
        hc__hk_free(&h);
        rc = hc__hk_init(&h, n1, n2, off, col);
        if (rc != HC_OK)
            goto done;
        hc__hk_run(&h);
        /* keep the k matched edges of largest key */
        uint32_t np = 0;
        for (uint32_t i = 0; i < n1; i++) {
            if (h.mate1[i] < 0)
                continue;
            size_t c = cell[h.mate1[i]];
            uint32_t p = np++;
            while (p > 0 && pkey[p - 1] < key[c]) {
                pkey[p] = pkey[p - 1];
                pick[p] = pick[p - 1];
                p--;
            }
            pkey[p] = key[c];
            pick[p].i = i;
            pick[p].j = (uint32_t)(c % n2);
            pick[p].amount = rem[c];
        }
        if (np > k)
            np = k;
        double amt = HUGE_VAL;
        for (uint32_t p = 0; p < np; p++)
            if (pick[p].amount < amt)
                amt = pick[p].amount;
        for (uint32_t p = 0; p < np && rc == HC_OK; p++) {
            size_t c = (size_t)pick[p].i * n2 + pick[p].j;
            double a = amt;
            if (rem[c] - a <= 1e-12 * HC_AT(pb->costs, pick[p].i, pick[p].j))
                a = rem[c];
            rem[c] -= a;
            if (rem[c] <= 0) {
                rem[c] = 0;
                alive--;
                deg1[pick[p].i]--;
                deg2[pick[p].j]--;
            }
            rc = hc__redist_plan_add(plan, pick[p].i, pick[p].j, a);
        }
        if (rc == HC_OK)
            rc = hc__redist_plan_close(plan);
        if (rc != HC_OK)
            goto done;
    }
done:
    hc__hk_free(&h);
    free(rem);
    free(key);
    free(deg1);
    free(deg2);
    free(off);
    free(col);
    free(cell);
    free(pick);
    free(pkey);
    return rc;
}
