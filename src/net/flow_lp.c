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
/* Above this many matrix entries the LP is skipped (the per-link terms stand). */
#define LP_MAX_ENTRIES 400000
/* Clp's primal and dual tolerances are 1e-7: the bound is lowered by more than that. */
#define LP_SAFETY (1.0 - 1e-6)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The boundaries t[0..nb-1]: the distinct releases, or LP_MAX_BOUNDARIES of them spread over
 * the sorted releases (always the smallest). Returns nb. */
static uint32_t boundaries(const double *rel, size_t n, double *sorted, double *t)
{
    memcpy(sorted, rel, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    uint32_t nd = 0;
    for (size_t i = 0; i < n; i++)
        if (nd == 0 || sorted[i] > sorted[nd - 1])
            sorted[nd++] = sorted[i];
    if (nd <= LP_MAX_BOUNDARIES) {
        memcpy(t, sorted, nd * sizeof *t);
        return nd;
    }
    for (uint32_t k = 0; k < LP_MAX_BOUNDARIES; k++)
        t[k] = sorted[(size_t)k * (nd - 1) / (LP_MAX_BOUNDARIES - 1)];
    return LP_MAX_BOUNDARIES;
}

int hc__flows_lp_bound(const hc_platform_t *p, size_t n, const double *rel, const double *bytes,
                       const size_t *off, const uint32_t *res, double *out)
{
    *out = 0;
    if (n == 0)
        return HC_OK;
    const size_t n_r = 2 * (size_t)p->n_links;
    double t[LP_MAX_BOUNDARIES];
    double *sorted = hc__malloc(n, sizeof *sorted);
    uint32_t *first = hc__malloc(n, sizeof *first);          /* each transfer's first interval */
    int *row_of = hc__calloc(n_r ? n_r : 1, sizeof *row_of); /* resource -> its first row */
    if (!sorted || !first || !row_of) {
        free(sorted);
        free(first);
        free(row_of);
        return hc__error(HC_ERR_NOMEM, "out of memory in the link bound's LP");
    }
    const uint32_t nb = boundaries(rel, n, sorted, t);
    free(sorted);
    /* transfer f may use intervals first[f] .. nb-1; interval k is [t[k], t[k+1]), the last
     * [t[nb-1], T] */
    size_t n_col = 1, n_nz = 0;
    for (size_t f = 0; f < n; f++) {
        uint32_t k = nb - 1;
        while (k > 0 && t[k] > rel[f])
            k--;
        first[f] = k;
        n_col += nb - k;
        n_nz += (size_t)(nb - k) * (1 + off[f + 1] - off[f]);
    }
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
        free(first);
        free(row_of);
        return HC_OK;
    }
    /* column-major: column 0 is T (in each resource's last row, -capacity), then each
     * transfer's intervals (its row, and each resource's row of that interval) */
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
        for (uint32_t k = first[f]; k < nb; k++) {
            collb[col] = 0.0;
            colub[col] = DBL_MAX;
            index[z] = (int)f;
            value[z++] = 1.0;
            for (size_t q = off[f]; q < off[f + 1]; q++) {
                index[z] = row_of[res[q]] + (int)k;
                value[z++] = 1.0;
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
    free(first);
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
