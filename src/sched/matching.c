/* Hopcroft-Karp maximum bipartite matching (Hopcroft & Karp 1973), written for hetcoll, and
 * the bottleneck (max-min) perfect matching by threshold search used by OGGP (001 §6.3).
 *
 * Complexity: hc__hk_run is O(E sqrt V) from scratch and usually a few O(E) phases from a warm
 * start; hc__hk_bottleneck is O(E log E + log(E) * HK). */
#include "matching.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"

#define HK_INF UINT32_MAX

int hc__hk_init(hc__hk_t *h, uint32_t n1, uint32_t n2, const size_t *off, const uint32_t *col)
{
    memset(h, 0, sizeof *h);
    h->n1 = n1;
    h->n2 = n2;
    h->off = off;
    h->col = col;
    h->mate1 = hc__malloc(n1, sizeof *h->mate1);
    h->mate2 = hc__malloc(n2, sizeof *h->mate2);
    h->save1 = hc__malloc(n1, sizeof *h->save1);
    h->save2 = hc__malloc(n2, sizeof *h->save2);
    h->dist = hc__malloc(n1, sizeof *h->dist);
    h->queue = hc__malloc(n1, sizeof *h->queue);
    h->stack = hc__malloc(n1, sizeof *h->stack);
    h->it = hc__malloc(n1, sizeof *h->it);
    h->vmax = hc__malloc(n2, sizeof *h->vmax);
    if (!h->mate1 || !h->mate2 || !h->save1 || !h->save2 || !h->dist || !h->queue || !h->stack ||
        !h->it || !h->vmax) {
        hc__hk_free(h);
        return hc__error(HC_ERR_NOMEM, "out of memory for a %u x %u matching", n1, n2);
    }
    hc__hk_clear(h);
    return HC_OK;
}

void hc__hk_free(hc__hk_t *h)
{
    if (!h)
        return;
    free(h->mate1);
    free(h->mate2);
    free(h->save1);
    free(h->save2);
    free(h->dist);
    free(h->queue);
    free(h->stack);
    free(h->it);
    free(h->cand);
    free(h->vmax);
    memset(h, 0, sizeof *h);
}

void hc__hk_clear(hc__hk_t *h)
{
    for (uint32_t u = 0; u < h->n1; u++)
        h->mate1[u] = -1;
    for (uint32_t v = 0; v < h->n2; v++)
        h->mate2[v] = -1;
    h->size = 0;
}

int hc__hk_active(const hc__hk_t *h, size_t s)
{
    return !h->w || (h->w[s] > 0 && h->w[s] >= h->thr);
}

/* The threshold as one comparison: active <=> w[s] >= hk_thr(h) (w[s] > 0 included). */
static double hk_thr(const hc__hk_t *h)
{
    return h->thr > 0 ? h->thr : 4.9406564584124654e-324; /* smallest positive double */
}

void hc__hk_drop_inactive(hc__hk_t *h)
{
    for (uint32_t u = 0; u < h->n1; u++) {
        if (h->mate1[u] >= 0 && !hc__hk_active(h, (size_t)h->mate1[u])) {
            h->mate2[h->col[h->mate1[u]]] = -1;
            h->mate1[u] = -1;
            h->size--;
        }
    }
}

/* BFS layering from the free left vertices; returns the layer (distance + 1) at which a free
 * right vertex is first reached, or HK_INF when there is no augmenting path. */
static uint32_t hk_bfs(hc__hk_t *h)
{
    size_t qh = 0, qt = 0;
    uint32_t limit = HK_INF;
    const double *w = h->w, thr = hk_thr(h);
    const uint32_t *col = h->col;
    const int64_t *mate2 = h->mate2;
    for (uint32_t u = 0; u < h->n1; u++) {
        if (h->mate1[u] < 0) {
            h->dist[u] = 0;
            h->queue[qt++] = u;
        } else {
            h->dist[u] = HK_INF;
        }
    }
    while (qh < qt) {
        uint32_t u = h->queue[qh++];
        if (h->dist[u] + 1 >= limit)
            continue;
        for (size_t s = h->off[u], e = h->off[u + 1]; s < e; s++) {
            if (w && w[s] < thr)
                continue;
            int64_t u2 = mate2[col[s]];
            if (u2 < 0) {
                if (limit == HK_INF)
                    limit = h->dist[u] + 1;
            } else if (h->dist[u2] == HK_INF) {
                h->dist[u2] = h->dist[u] + 1;
                h->queue[qt++] = (uint32_t)u2;
            }
        }
    }
    return limit;
}

/* Iterative DFS along the layers from free left vertex r; augments and returns 1 on success. */
static int hk_dfs(hc__hk_t *h, uint32_t r, uint32_t limit)
{
    size_t sp = 0;
    const double *w = h->w, thr = hk_thr(h);
    h->stack[sp++] = r;
    while (sp > 0) {
        uint32_t u = h->stack[sp - 1];
        if (h->it[u] >= h->off[u + 1]) {
            h->dist[u] = HK_INF; /* dead end for this phase */
            sp--;
            continue;
        }
        size_t s = h->it[u];
        if (w && w[s] < thr) {
            h->it[u]++;
            continue;
        }
        int64_t u2 = h->mate2[h->col[s]];
        if (u2 < 0) {
            if (h->dist[u] + 1 == limit) {
                /* flip the path held by the stack */
                for (size_t i = sp; i-- > 0;) {
                    uint32_t uu = h->stack[i];
                    size_t ss = h->it[uu];
                    h->mate1[uu] = (int64_t)ss;
                    h->mate2[h->col[ss]] = uu;
                }
                return 1;
            }
            h->it[u]++;
        } else if (h->dist[u2] != HK_INF && h->dist[u2] == h->dist[u] + 1) {
            h->stack[sp++] = (uint32_t)u2;
        } else {
            h->it[u]++;
        }
    }
    return 0;
}

size_t hc__hk_run(hc__hk_t *h)
{
    /* greedy warm-up for the free vertices */
    const double *w = h->w, thr = hk_thr(h);
    for (uint32_t u = 0; u < h->n1; u++) {
        if (h->mate1[u] >= 0)
            continue;
        for (size_t s = h->off[u]; s < h->off[u + 1]; s++) {
            if ((!w || w[s] >= thr) && h->mate2[h->col[s]] < 0) {
                h->mate1[u] = (int64_t)s;
                h->mate2[h->col[s]] = u;
                h->size++;
                break;
            }
        }
    }
    for (;;) {
        uint32_t limit = hk_bfs(h);
        if (limit == HK_INF)
            break;
        for (uint32_t u = 0; u < h->n1; u++)
            h->it[u] = h->off[u];
        size_t found = 0;
        for (uint32_t u = 0; u < h->n1; u++) {
            if (h->mate1[u] < 0 && h->dist[u] == 0 && hk_dfs(h, u, limit))
                found++;
        }
        if (!found)
            break;
        h->size += found;
    }
    return h->size;
}

static double hk_min_weight(const hc__hk_t *h)
{
    double mn = 0;
    int first = 1;
    for (uint32_t u = 0; u < h->n1; u++) {
        if (h->mate1[u] < 0)
            continue;
        double x = h->w[h->mate1[u]];
        if (first || x < mn)
            mn = x;
        first = 0;
    }
    return mn;
}

static void hk_save(hc__hk_t *h, size_t *saved_size)
{
    memcpy(h->save1, h->mate1, h->n1 * sizeof *h->mate1);
    memcpy(h->save2, h->mate2, h->n2 * sizeof *h->mate2);
    *saved_size = h->size;
}

static void hk_restore(hc__hk_t *h, size_t saved_size)
{
    memcpy(h->mate1, h->save1, h->n1 * sizeof *h->mate1);
    memcpy(h->mate2, h->save2, h->n2 * sizeof *h->mate2);
    h->size = saved_size;
}

/* An approximate median of a[0..n-1] (n > 0): the median of up to 15 evenly spaced
 * elements. Good enough to halve the candidates in expectation, at O(1) cost. */
static double approx_median(const double *a, size_t n)
{
    double smp[15];
    size_t ns = n < 15 ? n : 15;
    for (size_t i = 0; i < ns; i++) {
        double x = a[(i * n) / ns + (n / ns) / 2];
        size_t p = i;
        while (p > 0 && smp[p - 1] > x) {
            smp[p] = smp[p - 1];
            p--;
        }
        smp[p] = x;
    }
    return smp[ns / 2];
}

/* Rearrange a[0..n-1] (n > 0) so that a[q] holds the value of rank q: quickselect with a
 * median-of-three pivot and a three-way partition (robust to repeated values). */
static void select_rank(double *a, size_t n, size_t q)
{
    size_t lo = 0, hi = n; /* the answer is in a[lo..hi-1] */
    while (hi - lo > 1) {
        double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];
        double piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t lt = lo, i = lo, gt = hi; /* [lo,lt) < piv, [lt,i) == piv, [gt,hi) > piv */
        while (i < gt) {
            double t = a[i];
            if (t < piv) {
                a[i++] = a[lt];
                a[lt++] = t;
            } else if (t > piv) {
                a[i] = a[--gt];
                a[gt] = t;
            } else {
                i++;
            }
        }
        if (q < lt)
            hi = lt;
        else if (q >= gt)
            lo = gt;
        else
            return;
    }
}

/* The r-th largest (up = 0) or r-th smallest (up = 1) of a[0..n-1], 1 <= r <= n: one pass with
 * a small sorted buffer when r is small (branch-friendly), quickselect otherwise. */
static double kth_extreme(double *a, size_t n, size_t r, int up)
{
    if (r > 32) {
        select_rank(a, n, up ? r - 1 : n - r);
        return a[up ? r - 1 : n - r];
    }
    double buf[32];
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        double x = up ? -a[i] : a[i]; /* keep the r largest of x */
        if (nb == r && x <= buf[nb - 1])
            continue;
        size_t p = nb < r ? nb++ : nb - 1;
        while (p > 0 && buf[p - 1] < x) {
            buf[p] = buf[p - 1];
            p--;
        }
        buf[p] = x;
    }
    return up ? -buf[r - 1] : buf[r - 1];
}

int hc__hk_bottleneck(hc__hk_t *h, double hint, double *thr)
{
    size_t n = h->n1, saved = 0;
    if (h->n1 != h->n2 || !h->w)
        return 0;
    h->thr = 0;
    hc__hk_drop_inactive(h);
    if (hc__hk_run(h) < n)
        return 0;
    double lo = hk_min_weight(h);
    hk_save(h, &saved);
    /* upper bound: every vertex needs an incident edge of weight >= t */
    double ub = HUGE_VAL;
    for (uint32_t v = 0; v < h->n2; v++)
        h->vmax[v] = 0;
    for (uint32_t u = 0; u < h->n1; u++) {
        double mx = 0;
        for (size_t s = h->off[u]; s < h->off[u + 1]; s++) {
            double x = h->w[s];
            if (x <= 0)
                continue;
            if (x > mx)
                mx = x;
            if (x > h->vmax[h->col[s]])
                h->vmax[h->col[s]] = x;
        }
        if (mx < ub)
            ub = mx;
    }
    for (uint32_t v = 0; v < h->n2; v++)
        if (h->vmax[v] < ub)
            ub = h->vmax[v];
    /* Candidate thresholds: the weights in (lo, ub]. Invariant: lo is feasible (the saved
     * matching), every value above the remaining candidates is infeasible or not a weight.
     * Each probe keeps the candidates that can still be the answer (O(len), no sort).
     * Phase 1 probes the hint (the previous step's answer, often the answer again); phase 2
     * gallops away from it (1st, 2nd, 4th... candidate nearest to it) until the direction
     * flips; phase 3 halves the rest at approximate medians. */
    size_t nc = 0, m = h->off[h->n1];
    if (hc__grow((void **)&h->cand, &h->cap_cand, m + 1, sizeof *h->cand) != HC_OK)
        return -1;
    for (size_t s = 0; s < m; s++)
        if (h->w[s] > lo && h->w[s] <= ub)
            h->cand[nc++] = h->w[s];
    int phase = hint > lo && hint <= ub ? 1 : 3, up = 0;
    size_t g = 1;
    while (nc > 0) {
        double piv;
        if (phase == 1) {
            piv = hint;
        } else if (phase == 2) {
            piv = kth_extreme(h->cand, nc, g < nc ? g : nc, up); /* nearest to the hint */
            g *= 2;
        } else {
            piv = approx_median(h->cand, nc);
        }
        hk_restore(h, saved);
        h->thr = piv;
        hc__hk_drop_inactive(h);
        size_t keep = 0;
        int ok = hc__hk_run(h) == n;
        if (ok) {
            lo = hk_min_weight(h); /* >= piv */
            hk_save(h, &saved);
            for (size_t i = 0; i < nc; i++)
                if (h->cand[i] > lo)
                    h->cand[keep++] = h->cand[i];
        } else {
            for (size_t i = 0; i < nc; i++)
                if (h->cand[i] < piv)
                    h->cand[keep++] = h->cand[i];
        }
        nc = keep;
        if (phase == 1) {
            phase = 2;
            up = ok;
        } else if (phase == 2 && ok != up) {
            phase = 3;
        }
    }
    hk_restore(h, saved);
    h->thr = 0;
    *thr = lo;
    return 1;
}
