/* Linear assignment problem: shortest augmenting path with dual potentials (Kuhn-Munkres in
 * the form of Jonker & Volgenant / Lawler), O(n^3) per solve. Rows are added one at a time; a
 * Dijkstra search on reduced costs c[i][j] - u[i] - v[j] >= 0 finds the cheapest augmenting
 * path and the potentials are updated so that matched cells stay tight. Forbidden cells are
 * skipped (they behave as +inf). Source: 000 §4.3 (which used Jonker's LAP routine); the
 * algorithm follows Lawler, "Combinatorial Optimization" (000 ref. [17]). */
#include "lap.h"

#include <math.h>
#include <stdlib.h>

#include "../core/internal.h"

struct hc__lap {
    uint32_t n;
    int have_duals, dual_max;
    double *u, *v, *minv; /* n + 1 each (index 0 is the virtual column/row) */
    uint32_t *p, *way;    /* p[col] = row matched to col (0 = none), 1-based */
    unsigned char *used;
};

int hc__lap_create(uint32_t n, hc__lap_t **out)
{
    *out = NULL;
    hc__lap_t *w = hc__calloc(1, sizeof *w);
    if (!w)
        return hc__error(HC_ERR_NOMEM, "lap: out of memory (n=%u)", n);
    w->n = n;
    size_t m = (size_t)n + 1;
    w->u = hc__calloc(m, sizeof *w->u);
    w->v = hc__calloc(m, sizeof *w->v);
    w->minv = hc__calloc(m, sizeof *w->minv);
    w->p = hc__calloc(m, sizeof *w->p);
    w->way = hc__calloc(m, sizeof *w->way);
    w->used = hc__calloc(m, 1);
    if (!w->u || !w->v || !w->minv || !w->p || !w->way || !w->used) {
        hc__lap_destroy(w);
        return hc__error(HC_ERR_NOMEM, "lap: out of memory (n=%u)", n);
    }
    *out = w;
    return HC_OK;
}

void hc__lap_destroy(hc__lap_t *w)
{
    if (!w)
        return;
    free(w->u);
    free(w->v);
    free(w->minv);
    free(w->p);
    free(w->way);
    free(w->used);
    free(w);
}

int hc__lap_solve_ws(hc__lap_t *w, const double *cost, const unsigned char *forbid, int maximize,
                     int warm, uint32_t *row_to_col, double *total)
{
    uint32_t n = w->n;
    double sign = maximize ? -1.0 : 1.0;
    if (!warm || !w->have_duals || w->dual_max != maximize) {
        for (uint32_t k = 0; k <= n; k++)
            w->u[k] = w->v[k] = 0;
        /* Start from feasible duals for negative costs: v[j] = min over allowed cells. */
        for (uint32_t j = 1; j <= n; j++) {
            double mn = INFINITY;
            for (uint32_t i = 1; i <= n; i++) {
                size_t at = (size_t)(i - 1) * n + (j - 1);
                double c = cost[at];
                if ((forbid && forbid[at]) || !isfinite(c))
                    continue;
                if (sign * c < mn)
                    mn = sign * c;
            }
            w->v[j] = isfinite(mn) ? mn : 0;
        }
    }
    w->have_duals = 0;
    double *u = w->u, *v = w->v, *minv = w->minv;
    uint32_t *p = w->p, *way = w->way;
    unsigned char *used = w->used;
    for (uint32_t k = 0; k <= n; k++)
        p[k] = 0;
    for (uint32_t i = 1; i <= n; i++) {
        p[0] = i;
        uint32_t j0 = 0;
        for (uint32_t k = 0; k <= n; k++) {
            minv[k] = INFINITY;
            used[k] = 0;
        }
        do {
            used[j0] = 1;
            uint32_t i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            const double *row = cost + (size_t)(i0 - 1) * n;
            const unsigned char *frow = forbid ? forbid + (size_t)(i0 - 1) * n : NULL;
            for (uint32_t j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                double c = row[j - 1];
                if (!(frow && frow[j - 1]) && isfinite(c)) {
                    double cur = sign * c - u[i0] - v[j];
                    if (cur < minv[j]) {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            if (j1 == 0 || !isfinite(delta))
                return hc__error(HC_ERR_VALUE,
                                 "lap: no perfect matching avoids the forbidden cells (row %u)",
                                 i - 1);
            for (uint32_t j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            uint32_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    double sum = 0;
    for (uint32_t j = 1; j <= n; j++) {
        row_to_col[p[j] - 1] = j - 1;
        sum += cost[(size_t)(p[j] - 1) * n + (j - 1)];
    }
    if (total)
        *total = sum;
    w->have_duals = 1;
    w->dual_max = maximize;
    return HC_OK;
}

int hc__lap_solve(uint32_t n, const double *cost, const unsigned char *forbid, int maximize,
                  uint32_t *row_to_col, double *total)
{
    hc__lap_t *w;
    HC__TRY(hc__lap_create(n, &w));
    int rc = hc__lap_solve_ws(w, cost, forbid, maximize, 0, row_to_col, total);
    hc__lap_destroy(w);
    return rc;
}
