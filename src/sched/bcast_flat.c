/* Flat-tree broadcast (004 Table 1: L + (P-1) g(m) on a homogeneous network).
 *
 * The root sends the whole message to every other node, one after the other (1-port), in
 * increasing order of cost C[root][v], ties by node id: sending the cheapest first minimises
 * the sum of completion times (shortest processing time first), while the makespan, the sum
 * of all the root's send costs, is the same for every order. Under pLogP port semantics
 * (hc_problem_event_port_time: a pLogP broadcast) the root's next send starts after the gap
 * of the previous one, the latencies overlapping: L + (P-1) g(m) on a homogeneous network.
 *
 * Complexity O(P log P). Guarantee: makespan = sum over v of C[root][v] (whole-duration
 * ports), max over v of (root's earlier port times + C[root][v]) with pLogP ports. */
#include <stdlib.h>

#include "../core/internal.h"

int hc__algo_bcast_flat(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);

typedef struct {
    double c;
    uint32_t v;
} item_t;

static int cmp_item(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return x->v < y->v ? -1 : (x->v > y->v);
}

int hc__algo_bcast_flat(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    uint32_t P = pb->P, r = pb->root;
    item_t *items = hc__malloc(P, sizeof *items);
    if (!items)
        return hc__error(HC_ERR_NOMEM, "flat: out of memory");
    uint32_t n = 0;
    for (uint32_t v = 0; v < P; v++)
        if (v != r) {
            items[n].c = HC_AT(pb->costs, r, v);
            items[n].v = v;
            n++;
        }
    qsort(items, n, sizeof *items, cmp_item);
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK) {
        s->root = r;
        rc = hc_schedule_alloc_trees(s, 0);
    }
    double t = 0;
    for (uint32_t q = 0; q < n && rc == HC_OK; q++) {
        hc_event_t e = {0};
        e.src = r;
        e.dst = items[q].v;
        e.start = t;
        e.end = t + items[q].c;
        e.bytes = pb->msg_bytes;
        /* the root's port is free again after the port time (pLogP broadcasts: g, the latency
         * overlapping the next send; else the whole transfer) */
        double port = hc_problem_event_port_time(pb, &e);
        t = port < items[q].c ? t + port : e.end;
        s->parent[e.dst] = (int32_t)r;
        rc = hc_schedule_add_event(s, &e);
    }
    free(items);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}
