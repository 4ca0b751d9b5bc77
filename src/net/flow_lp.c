/* The time-indexed LP bound of a set of transfers on shared links (hc_flows_bound): the
 * transfers' bytes may flow at any rates the capacities allow, each only after its route's
 * latency. Solved with COIN-OR Clp's dual simplex (its C interface). It sees what the per-link
 * terms cannot: links coupled through the transfers they share. On grid5000-links, a 64 KiB
 * all-to-all: the per-link terms give 0.0189 s (C1's uplink, 12.2 ms away from C2, then its 8.4
 * MB), but before 12.2 ms the uplinks of C1 and C2 can only carry what C3's uplink lets through to
 * and from C3, and the LP gives 0.0221 s; every message posted at once runs 0.0224 s in SMPI. */
#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net_internal.h"

/* At most this many distinct release times (interval boundaries): rounding a release down to a
 * boundary only lets bytes flow earlier, so the LP stays a lower bound. */
#define LP_MAX_BOUNDARIES 12
/* ... and with several size classes, whose releases are the routes' latencies times theirs */
#define LP_MAX_BOUNDARIES_CLASSES 20
/* Above this many matrix entries the LP is skipped (the per-link terms stand). */
#define LP_MAX_ENTRIES 400000
/* Clp's primal and dual tolerances are 1e-7: the bound is lowered by more than that. */
#define LP_SAFETY (1.0 - 1e-6)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The boundaries t[0..nb-1]: the distinct releases, or `max` of them spread over the sorted
 * releases (always the smallest). Returns nb. */
static uint32_t boundaries(const double *rel, size_t n, uint32_t max, double *sorted, double *t)
{
    memcpy(sorted, rel, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    uint32_t nd = 0;
    for (size_t i = 0; i < n; i++)
        if (nd == 0 || sorted[i] > sorted[nd - 1])
            sorted[nd++] = sorted[i];
    if (nd <= max) {
        memcpy(t, sorted, nd * sizeof *t);
        return nd;
    }
    for (uint32_t k = 0; k < max; k++)
        t[k] = sorted[(size_t)k * (nd - 1) / (max - 1)];
    return max;
}

/* The LP with the boundaries t[0 .. nb-1] and T >= t[nb-1]: transfer f in class c uses the
 * intervals first[f * nc + c] .. nb-1 (none when that is nb or more). *out = its least T, or 0
 * when too large or unsolved. */
static int lp_solve(const hc_platform_t *p, size_t n, const double *bytes, const size_t *off,
                    const uint32_t *res, size_t nc, const double *cl_bw, const uint32_t *first,
                    const double *t, uint32_t nb, double *out)
{
    *out = 0;
    const size_t n_r = 2 * (size_t)p->n_links;
    size_t n_col = 1, n_nz = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t c = 0; c < nc; c++)
            if (first[f * nc + c] < nb) {
                n_col += nb - first[f * nc + c];
                n_nz += (size_t)(nb - first[f * nc + c]) * (1 + off[f + 1] - off[f]);
            }
    int *row_of = hc__calloc(n_r ? n_r : 1, sizeof *row_of); /* resource -> its first row */
    if (!row_of)
        return hc__error(HC_ERR_NOMEM, "out of memory in the link bound's LP");
    int used = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t q = off[f]; q < off[f + 1]; q++)
            row_of[res[q]] = 1;
    int n_row = (int)n; /* rows 0 .. n-1: the transfers' bytes */
    for (size_t r = 0; r < n_r; r++)
        if (row_of[r]) {
            row_of[r] = n_row; /* rows row_of[r] + k: (r, interval k) */
            n_row += (int)nb;
            used++;
        }
    n_nz += (size_t)used; /* T in the last interval's rows */
    if (n_nz > LP_MAX_ENTRIES || n_col > LP_MAX_ENTRIES) {
        free(row_of);
        return HC_OK;
    }
    /* column-major: column 0 is T (in each resource's last row, -capacity), then each
     * transfer-class's intervals (its row, and each resource's row of that interval) */
    CoinBigIndex *start = hc__malloc(n_col + 1, sizeof *start);
    int *index = hc__malloc(n_nz, sizeof *index);
    double *value = hc__malloc(n_nz, sizeof *value), *collb = hc__malloc(n_col, sizeof *collb);
    double *colub = hc__malloc(n_col, sizeof *colub), *obj = hc__calloc(n_col, sizeof *obj);
    double *rowlb = hc__malloc((size_t)n_row, sizeof *rowlb);
    double *rowub = hc__malloc((size_t)n_row, sizeof *rowub);
    int rc = HC_OK;
    if (!start || !index || !value || !collb || !colub || !obj || !rowlb || !rowub) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the link bound's LP");
        goto done;
    }
    size_t z = 0, col = 0;
    start[0] = 0;
    collb[0] = t[nb - 1];
    colub[0] = DBL_MAX;
    obj[0] = 1.0;
    /* bytes in MB, capacities in MB/s: coefficients near 1 */
    for (size_t r = 0; r < n_r; r++) {
        if (!row_of[r])
            continue;
        const double cap = p->links[r >> 1].bw * 1e-6;
        for (uint32_t k = 0; k + 1 < nb; k++) {
            rowlb[row_of[r] + (int)k] = -DBL_MAX;
            rowub[row_of[r] + (int)k] = cap * (t[k + 1] - t[k]);
        }
        rowlb[row_of[r] + (int)nb - 1] = -DBL_MAX;
        rowub[row_of[r] + (int)nb - 1] = -cap * t[nb - 1];
        index[z] = row_of[r] + (int)nb - 1;
        value[z++] = -cap;
    }
    start[++col] = (CoinBigIndex)z;
    for (size_t f = 0; f < n; f++) {
        rowlb[f] = rowub[f] = bytes[f] * 1e-6;
        for (size_t c = 0; c < nc; c++)
            for (uint32_t k = first[f * nc + c]; k < nb; k++) {
                collb[col] = 0.0;
                colub[col] = DBL_MAX;
                index[z] = (int)f;
                value[z++] = 1.0;
                for (size_t q = off[f]; q < off[f + 1]; q++) {
                    index[z] = row_of[res[q]] + (int)k;
                    value[z++] = 1.0 / cl_bw[c]; /* a class's byte uses 1 / its rate */
                }
                start[++col] = (CoinBigIndex)z;
            }
    }
    Clp_Simplex *lp = Clp_newModel();
    if (!lp) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the link bound's LP");
        goto done;
    }
    Clp_setLogLevel(lp, 0);
    Clp_loadProblem(lp, (int)n_col, n_row, start, index, value, collb, colub, obj, rowlb, rowub);
    Clp_setOptimizationDirection(lp, 1.0);
    if (Clp_dual(lp, 0) == 0 && Clp_isProvenOptimal(lp))
        *out = Clp_objectiveValue(lp) * LP_SAFETY;
    Clp_deleteModel(lp);
done:
    free(row_of);
    free(start);
    free(index);
    free(value);
    free(collb);
    free(colub);
    free(obj);
    free(rowlb);
    free(rowub);
    return rc;
}

int hc__flows_lp_bound(const hc_platform_t *p, size_t n, const double *rel, const double *bytes,
                       const size_t *off, const uint32_t *res, size_t nc, const double *cl_lat,
                       const double *cl_bw, double *out)
{
    *out = 0;
    if (n == 0 || nc == 0)
        return HC_OK;
    const size_t n_fc = n * nc;
    double t[LP_MAX_BOUNDARIES_CLASSES];
    double *frel = hc__malloc(n_fc, sizeof *frel); /* transfer f in class c: f * nc + c */
    double *sorted = hc__malloc(n_fc, sizeof *sorted);
    uint32_t *first = hc__malloc(n_fc, sizeof *first); /* each one's first interval */
    if (!frel || !sorted || !first) {
        free(frel);
        free(sorted);
        free(first);
        return hc__error(HC_ERR_NOMEM, "out of memory in the link bound's LP");
    }
    /* no schedule ends before every transfer can start in its earliest class */
    double ready = 0;
    for (size_t f = 0; f < n; f++) {
        double e = INFINITY;
        for (size_t c = 0; c < nc; c++) {
            frel[f * nc + c] = rel[f] * cl_lat[c];
            e = frel[f * nc + c] < e ? frel[f * nc + c] : e;
        }
        ready = e > ready ? e : ready;
    }
    const uint32_t nb =
        boundaries(frel, n_fc, nc > 1 ? LP_MAX_BOUNDARIES_CLASSES : LP_MAX_BOUNDARIES, sorted, t);
    free(sorted);
    /* transfer f in class c may use the intervals from first[f * nc + c]; interval k is
     * [t[k], t[k+1]) */
    uint32_t j = nb - 1;
    for (size_t f = 0; f < n_fc; f++) {
        uint32_t k = nb - 1;
        while (k > 0 && t[k] > frel[f])
            k--;
        first[f] = k;
    }
    while (j > 0 && t[j] > ready)
        j--;
    free(frel);
    /* A schedule ending at T, t[j] <= T < t[j+1], uses no class released after T: the LP with
     * the boundaries up to t[j] (T >= t[j]) is at most T. The bound is the least over j of
     * those LPs, from the smallest j every transfer can use; once one ends before t[j+1], the
     * later ones (each at least its own t[j]) cannot be less. With one class: one LP. */
    int rc = HC_OK;
    double best = INFINITY;
    for (; j < nb && rc == HC_OK; j++) {
        double v = 0;
        rc = lp_solve(p, n, bytes, off, res, nc, cl_bw, first, t, j + 1, &v);
        if (rc != HC_OK || !(v > 0)) {
            best = INFINITY; /* too large or unsolved: no bound */
            break;
        }
        best = v < best ? v : best;
        if (j + 1 < nb && v <= t[j + 1])
            break;
    }
    free(first);
    *out = rc == HC_OK && isfinite(best) ? best : 0;
    return rc;
}

/* ---- the sites LP (hc_flows_bcast_bound_model, hc_flows_reduce_bound_model) ---- */

/* At most this many interval boundaries below T (rounding a release down to one keeps a lower
 * bound); above SITES_LP_MAX_ENTRIES matrix entries the LP is skipped. */
#define SITES_LP_MAX_BOUNDARIES 64
#define SITES_LP_MAX_ENTRIES 400000
/* The search stops (at the largest T found short) once its LPs held this many entries in all:
 * the bound's time stays within seconds on any platform. */
#define SITES_LP_BUDGET 4000000

/* The largest k with t[k] <= x (-1 when x < t[0]). */
static int interval_at(const double *t, uint32_t nb, double x)
{
    int k = -1;
    while (k + 1 < (int)nb && t[k + 1] <= x)
        k++;
    return k;
}

/* Whether m bytes can reach every other site by T: the LP's largest common delivery
 * (maximised) against m. -1 on an unsolved LP or out of memory, -2 above
 * SITES_LP_MAX_ENTRIES. */
static int sites_feasible(const hc__sites_lp_t *s, const double *bnd, uint32_t n_bnd, double T,
                          size_t *work)
{
    const size_t nc = s->nc, na = s->n_arcs;
    uint32_t nb = 0; /* the boundaries below T; interval k = [t[k], t[k + 1]), t[nb] = T */
    while (nb < n_bnd && bnd[nb] < T)
        nb++;
    if (nb == 0)
        return 0;       /* nothing can flow before T */
    double *own = NULL; /* the mirror's: the deadlines T - lat(c) x lat[a] too */
    if (s->mirror) {
        own = hc__malloc(nb + na * nc, sizeof *own);
        if (!own) {
            hc__error(HC_ERR_NOMEM, "out of memory in the sites LP");
            return -1;
        }
        uint32_t n = 0;
        for (uint32_t k = 0; k < nb; k++)
            own[n++] = bnd[k];
        for (size_t x = 0; x < na * nc; x++) {
            double d = T - s->cl_lat[x % nc] * s->lat[x / nc];
            if (d > bnd[0])
                own[n++] = d;
        }
        qsort(own, n, sizeof *own, cmp_double);
        nb = 0;
        for (uint32_t k = 0; k < n; k++)
            if (nb == 0 || own[k] > own[nb - 1])
                own[nb++] = own[k];
        if (nb > 2 * SITES_LP_MAX_BOUNDARIES) { /* every other one: fewer only loosen it */
            uint32_t h = 0;
            for (uint32_t k = 0; k < nb; k += 2)
                own[h++] = own[k];
            nb = h;
        }
    }
    const double *t = own ? own : bnd;
    /* columns: s, then x[a][c][k] for the arc-class's intervals first .. last - 1 (after its
     * release; the mirror's before its deadline) */
    int *first = hc__malloc(na * nc, sizeof *first), *last = hc__malloc(na * nc, sizeof *last);
    size_t *col0 = hc__malloc(na * nc + 1, sizeof *col0);
    int *cap_row = hc__malloc(s->n_res, sizeof *cap_row),
        *cau_row = hc__malloc(na, sizeof *cau_row);
    CoinBigIndex *start = NULL;
    int *index = NULL;
    double *value = NULL, *collb = NULL, *colub = NULL, *obj = NULL, *rowlb = NULL, *rowub = NULL;
    int ok = -1;
    if (!first || !last || !col0 || !cap_row || !cau_row) {
        hc__error(HC_ERR_NOMEM, "out of memory in the sites LP");
        goto done;
    }
    size_t n_col = 1;
    for (size_t a = 0; a < na; a++)
        for (size_t c = 0; c < nc; c++) {
            const double lat = s->cl_lat[c] * s->lat[a];
            double rel = (s->src[a] == s->root ? 0 : s->first[s->src[a]]) + (s->mirror ? 0 : lat);
            double dl = s->mirror ? T - lat : T;
            int k = rel < dl ? interval_at(t, nb, rel) : (int)nb; /* nb: no column */
            first[a * nc + c] = k < 0 ? 0 : k;                    /* t[0] is the least release */
            int e = (int)nb;
            while (e > first[a * nc + c] && t[e - 1] >= dl)
                e--;
            last[a * nc + c] = e > first[a * nc + c] ? e : first[a * nc + c];
            col0[a * nc + c] = n_col;
            n_col += (size_t)(last[a * nc + c] - first[a * nc + c]);
        }
    col0[na * nc] = n_col;
    /* rows: capacities (resource x interval), demands (site), causality (relay arc x interval) */
    int n_row = 0;
    for (size_t q = 0; q < s->n_res; q++) {
        cap_row[q] = n_row;
        n_row += (int)nb;
    }
    const int dem_row = n_row;
    n_row += (int)s->K;
    for (size_t a = 0; a < na; a++) {
        cau_row[a] = s->src[a] == s->root ? -1 : n_row;
        if (cau_row[a] >= 0)
            n_row += (int)nb;
    }
    /* entries of each x column: its capacity rows, its demand row, the causality rows of its
     * own arc (k' >= k) and of the arcs out of its destination that may forward it */
    size_t n_nz = s->K; /* the delivery column: a demand row per site but the root's */
    for (size_t a = 0; a < na; a++) {
        size_t fwd = 0;
        for (size_t b = 0; b < na; b++)
            if (s->src[b] == s->dst[a] && s->dst[b] != s->src[a])
                fwd++;
        for (size_t c = 0; c < nc; c++) {
            size_t cols = col0[a * nc + c + 1] - col0[a * nc + c];
            n_nz += cols * ((s->res_off[a + 1] - s->res_off[a]) + 1 + (cau_row[a] >= 0 ? nb : 0) +
                            fwd * nb);
        }
    }
    if (n_nz > SITES_LP_MAX_ENTRIES) {
        ok = -2;
        goto done;
    }
    *work += n_nz; /* what is solved */
    start = hc__malloc(n_col + 1, sizeof *start);
    index = hc__malloc(n_nz, sizeof *index);
    value = hc__malloc(n_nz, sizeof *value);
    collb = hc__calloc(n_col, sizeof *collb);
    colub = hc__malloc(n_col, sizeof *colub);
    obj = hc__calloc(n_col, sizeof *obj);
    rowlb = hc__malloc((size_t)n_row, sizeof *rowlb);
    rowub = hc__malloc((size_t)n_row, sizeof *rowub);
    if (!start || !index || !value || !collb || !colub || !obj || !rowlb || !rowub) {
        hc__error(HC_ERR_NOMEM, "out of memory in the sites LP");
        goto done;
    }
    /* bytes in MB, capacities in MB/s */
    for (size_t q = 0; q < s->n_res; q++)
        for (uint32_t k = 0; k < nb; k++) {
            rowlb[cap_row[q] + (int)k] = -DBL_MAX;
            rowub[cap_row[q] + (int)k] = s->cap[q] * 1e-6 * ((k + 1 < nb ? t[k + 1] : T) - t[k]);
        }
    for (uint32_t j = 0; j < s->K; j++) {
        rowlb[dem_row + (int)j] = j == s->root ? -DBL_MAX : 0;
        rowub[dem_row + (int)j] = DBL_MAX;
    }
    for (size_t a = 0; a < na; a++)
        for (uint32_t k = 0; cau_row[a] >= 0 && k < nb; k++) {
            rowlb[cau_row[a] + (int)k] = -DBL_MAX;
            rowub[cau_row[a] + (int)k] = 0;
        }
    size_t z = 0, col = 0;
    start[0] = 0;
    colub[0] = s->m * 1e-6;
    obj[0] = -1.0; /* maximise the common delivery s */
    for (uint32_t j = 0; j < s->K; j++)
        if (j != s->root) {
            index[z] = dem_row + (int)j;
            value[z++] = -1.0;
        }
    start[++col] = (CoinBigIndex)z;
    for (size_t a = 0; a < na; a++)
        for (size_t c = 0; c < nc; c++)
            for (int k = first[a * nc + c]; k < last[a * nc + c]; k++) {
                colub[col] = DBL_MAX;
                for (size_t r = s->res_off[a]; r < s->res_off[a + 1]; r++) {
                    index[z] = cap_row[s->res[r]] + (int)k;
                    value[z++] = 1.0 / s->cl_bw[c];
                }
                index[z] = dem_row + (int)s->dst[a];
                value[z++] = 1.0;
                /* sent on a through interval k' >= k: counts against a's causality rows */
                for (uint32_t k2 = (uint32_t)k; cau_row[a] >= 0 && k2 < nb; k2++) {
                    index[z] = cau_row[a] + (int)k2;
                    value[z++] = 1.0;
                }
                /* received at dst[a] in interval k (at t[k] at the earliest): an arc b out of
                 * it may forward it in interval k2 if t[k] < (k2's end) - lat[b], b's smallest
                 * latency (bytes flow a latency after their message starts, which needs them
                 * there; the mirror: a's, whose message ends a latency before b's starts); not
                 * back to where it came from */
                const double delay_in = s->mirror ? s->lat[a] : -1;
                for (size_t b = 0; b < na; b++) {
                    if (s->src[b] != s->dst[a] || s->dst[b] == s->src[a])
                        continue;
                    const double delay = delay_in >= 0 ? delay_in : s->lat[b];
                    for (uint32_t k2 = 0; k2 < nb; k2++) {
                        double end = k2 + 1 < nb ? t[k2 + 1] : T;
                        if (t[k] < end - delay) {
                            index[z] = cau_row[b] + (int)k2;
                            value[z++] = -1.0;
                        }
                    }
                }
                start[++col] = (CoinBigIndex)z;
            }
    Clp_Simplex *lp = Clp_newModel();
    if (!lp) {
        hc__error(HC_ERR_NOMEM, "out of memory in the sites LP");
        goto done;
    }
    Clp_setLogLevel(lp, 0);
    Clp_loadProblem(lp, (int)n_col, n_row, start, index, value, collb, colub, obj, rowlb, rowub);
    Clp_setOptimizationDirection(lp, 1.0);
    if (Clp_dual(lp, 0) == 0 && Clp_isProvenOptimal(lp))
        ok = -Clp_objectiveValue(lp) >= s->m * 1e-6 * (1 - 1e-6);
    Clp_deleteModel(lp);
done:
    free(own);
    free(first);
    free(last);
    free(col0);
    free(cap_row);
    free(cau_row);
    free(start);
    free(index);
    free(value);
    free(collb);
    free(colub);
    free(obj);
    free(rowlb);
    free(rowub);
    return ok;
}

int hc__flows_sites_lp_bound(const hc__sites_lp_t *s, double lo, double *out)
{
    *out = lo;
    if (s->n_arcs == 0 || s->nc == 0 || !(s->m > 0))
        return HC_OK;
    /* boundaries: every arc-class release, and each shifted by each relay arc's latency (when
     * a relay may forward what arrived then) */
    size_t n_rel = s->n_arcs * s->nc;
    size_t n_all = n_rel * (1 + s->n_arcs);
    double *all = hc__malloc(n_all, sizeof *all), *bnd = hc__malloc(n_all, sizeof *bnd);
    if (!all || !bnd) {
        free(all);
        free(bnd);
        return hc__error(HC_ERR_NOMEM, "out of memory in the sites LP");
    }
    size_t n = 0;
    for (size_t a = 0; a < s->n_arcs; a++)
        for (size_t c = 0; c < s->nc; c++)
            all[n++] = (s->src[a] == s->root ? 0 : s->first[s->src[a]]) +
                       (s->mirror ? 0 : s->cl_lat[c] * s->lat[a]);
    for (size_t b = 0; b < s->n_arcs; b++)
        for (size_t q = 0; (s->mirror || s->src[b] != s->root) && q < n_rel; q++)
            all[n++] = all[q] + s->lat[b];
    qsort(all, n, sizeof *all, cmp_double);
    uint32_t nd = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(all[i]) && (nd == 0 || all[i] > all[nd - 1]))
            all[nd++] = all[i];
    /* the least T the LP lets m reach every site by: the largest T found short (a bound),
     * between lo (the cut bound) and a T the LP reaches; fewer boundaries when too large */
    const double lo0 = lo;
    double hi = 0;
    uint32_t n_bnd = 0;
    size_t work = 0;
    int f = -2;
    for (uint32_t cap = SITES_LP_MAX_BOUNDARIES; f == -2 && cap >= 8; cap /= 2) {
        n_bnd = nd < cap ? nd : cap;
        for (uint32_t k = 0; k < n_bnd; k++)
            bnd[k] = n_bnd == nd ? all[k] : all[(size_t)k * (nd - 1) / (n_bnd - 1)];
        /* the cut bound, then steps of 2 % of it growing 4-fold: the LP rarely adds more than a
         * few per cent, and bisection then starts from a narrow bracket */
        double step = (lo > 0 ? lo : (n_bnd ? bnd[0] : 0) + 1e-9) / 50;
        hi = lo;
        for (int it = 0; it < 40 && work < SITES_LP_BUDGET &&
                         (f = sites_feasible(s, bnd, n_bnd, hi, &work)) == 0;
             it++) {
            lo = hi; /* short at hi: a bound */
            hi = lo + step;
            step *= 4;
        }
    }
    free(all);
    for (int it = 0; f == 1 && it < 50 && work < SITES_LP_BUDGET && hi - lo > 1e-7 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        int g = sites_feasible(s, bnd, n_bnd, mid, &work);
        if (g < 0)
            break;
        if (g)
            hi = mid;
        else
            lo = mid;
    }
    free(bnd);
    hc_error_clear();
    /* unsolved or too large from the start: the cut bound stands */
    *out = fmax(lo0, lo * LP_SAFETY); /* Clp's tolerances */
    return HC_OK;
}
