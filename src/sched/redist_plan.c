/* The redistribution toolkit (redist_kit.h): step plans, their emission as schedules, the problem
 * check, and the loop of 001 §7's heuristics (the edge key is each heuristic's own:
 * redist_hweight.c, redist_hdegree.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"
#include "redist_kit.h"

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

/* ---------------------------------------------------------------- the §7 heuristics' loop */

int hc__redist_heuristic(const hc_problem_t *pb, hc__redist_key_fn key_of, hc__redist_plan_t *plan)
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
            key[c] = key_of(rem[c], deg1[c / n2], deg2[c % n2]);
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
