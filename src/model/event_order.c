/* Sorting events by planned start, and the tolerance (shared by the validator and the
 * simulator). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

static void merge_sort(size_t *a, size_t *tmp, size_t n, const hc_event_t *ev)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort(a, tmp, h, ev);
    merge_sort(a + h, tmp, n - h, ev);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        const hc_event_t *x = &ev[a[i]], *y = &ev[a[j]];
        int left = x->start < y->start || (x->start == y->start && a[i] < a[j]);
        tmp[k++] = left ? a[i++] : a[j++];
    }
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

int hc__event_order(const hc_event_t *ev, size_t n, size_t **out)
{
    *out = NULL;
    size_t *a = hc__malloc(n, sizeof *a), *tmp = hc__malloc(n, sizeof *tmp);
    if (!a || !tmp) {
        free(a);
        free(tmp);
        return hc__error(HC_ERR_NOMEM, "out of memory sorting %zu events", n);
    }
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    merge_sort(a, tmp, n, ev);
    free(tmp);
    *out = a;
    return HC_OK;
}

int hc__close(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= hc__tol(m);
}
