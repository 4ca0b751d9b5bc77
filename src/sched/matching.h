/* Bipartite matching for the redistribution algorithms (001): a Hopcroft-Karp maximum-
 * cardinality matcher written for this project, with warm starts and edge filtering by weight,
 * and the bottleneck (max-min) threshold search built on it. Internal, not installed. */
#ifndef HETCOLL_SCHED_MATCHING_H
#define HETCOLL_SCHED_MATCHING_H

#include <stddef.h>
#include <stdint.h>

/* A bipartite graph in CSR form (left vertices 0..n1-1, right 0..n2-1): the edges of left
 * vertex u are the slots off[u] .. off[u+1]-1, slot s goes to right vertex col[s]. Slot ids
 * are the edge ids. A slot is active when w is NULL, or when w[s] > 0 and w[s] >= thr.
 * All arrays are borrowed; w may change between runs (the caller then calls
 * hc__hk_drop_inactive before hc__hk_run). */
typedef struct hc__hk {
    uint32_t n1, n2;
    const size_t *off;
    const uint32_t *col;
    const double *w;
    double thr;
    /* the matching: mate1[u] = matched slot of left u or -1; mate2[v] = left vertex or -1 */
    int64_t *mate1;
    int64_t *mate2;
    size_t size;
    /* workspace */
    uint32_t *dist, *queue, *stack;
    size_t *it;
    int64_t *save1, *save2;
    double *cand, *vmax;
    size_t cap_cand;
} hc__hk_t;

/* Allocate the workspace for the CSR graph (matching empty, thr 0, w NULL). */
int hc__hk_init(hc__hk_t *h, uint32_t n1, uint32_t n2, const size_t *off, const uint32_t *col);
/* NULL-safe on a zeroed struct. */
void hc__hk_free(hc__hk_t *h);
/* Empty the matching. */
void hc__hk_clear(hc__hk_t *h);
/* Unmatch every matched slot that is no longer active. */
void hc__hk_drop_inactive(hc__hk_t *h);
/* Grow the current matching (warm start) into a maximum one over the active slots, with
 * Hopcroft-Karp phases (O(E sqrt V)); returns its size. */
size_t hc__hk_run(hc__hk_t *h);
/* Is slot s active? */
int hc__hk_active(const hc__hk_t *h, size_t s);

/* Bottleneck search: the largest threshold t such that the slots with w >= t (and w > 0)
 * hold a perfect matching (every left and right vertex matched; requires n1 == n2 and w set).
 * A search over the distinct weights, each probe a warm-started Hopcroft-Karp on the slots of
 * weight >= probe: first `hint` (when > 0; e.g. the previous answer), then galloping away from
 * it, then halving. On success h holds such a matching, *thr = t (= its smallest weight) and
 * returns 1; returns 0 when even all positive slots hold no perfect matching, or -1 on
 * allocation failure. Leaves h->thr = 0. */
int hc__hk_bottleneck(hc__hk_t *h, double hint, double *thr);

#endif
