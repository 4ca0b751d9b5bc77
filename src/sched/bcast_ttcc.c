/* `ttcc` broadcast: Two-Tree Collective Communication (002, Cha, Han, Yu & Byeon, §3).
 * T0 (the original tree) is built by ECEF; T1 (the redundant tree) by ECEF again from the root
 * on the edge set without T0's edges and their reverse edges (Figure 2), so no node sends back
 * to its sender. When that leaves some node unreachable (e.g. T0 is a flat tree, which the
 * paper excludes) only the reverse edges are removed.
 * Schedule: parent = T0, parent2 = T1; tree-0 events timed as ECEF plans them, then tree-1
 * events timed after every node's tree-0 sends and receive (nominal times, 1-port on the whole
 * schedule). The planned makespan is the TTCC replay of those events with alpha = 0
 * (src/sim/sim_ttcc.c): first complete copy wins, a node sends on T0 edges first, then T1.
 * Complexity: two ECEF runs, O(P^3). Guarantee: with exact costs and alpha = 0 never later
 * than ECEF (sends only move earlier in the replay). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

int hc__algo_bcast_ttcc(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    (void)opts;
    uint32_t P = pb->P;
    *out = NULL;
    double *c = hc__malloc((size_t)P * P, sizeof *c);
    double *c1 = hc__malloc((size_t)P * P, sizeof *c1);
    uint32_t *f0 = hc__malloc(P, sizeof *f0), *t0 = hc__malloc(P, sizeof *t0);
    uint32_t *f1 = hc__malloc(P, sizeof *f1), *t1 = hc__malloc(P, sizeof *t1);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    int rc = HC_OK, relaxed = 0;
    if (!c || !c1 || !f0 || !t0 || !f1 || !t1) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in ttcc");
        goto done;
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            c[(size_t)i * P + j] = i == j ? INFINITY : HC_AT(pb->costs, i, j);
    rc = hc__edge_select(&hc__edge_bcast_ecef, P, c, NULL, NULL, pb->root, f0, t0);
    if (rc != HC_OK)
        goto done;
    memcpy(c1, c, (size_t)P * P * sizeof *c1);
    for (uint32_t i = 0; i + 1 < P; i++) {
        c1[(size_t)f0[i] * P + t0[i]] = INFINITY;
        c1[(size_t)t0[i] * P + f0[i]] = INFINITY;
    }
    rc = hc__edge_select(&hc__edge_bcast_ecef, P, c1, NULL, NULL, pb->root, f1, t1);
    if (rc != HC_OK) {
        relaxed = 1;
        memcpy(c1, c, (size_t)P * P * sizeof *c1);
        for (uint32_t i = 0; i + 1 < P; i++)
            c1[(size_t)t0[i] * P + f0[i]] = INFINITY;
        rc = hc__edge_select(&hc__edge_bcast_ecef, P, c1, NULL, NULL, pb->root, f1, t1);
        if (rc != HC_OK)
            goto done;
    }
    rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 1);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, 1);
    /* TTCC keeps 002's whole-duration ports under every model: its replay (sim_ttcc.c) does */
    b.whole_port = 1;
    for (uint32_t i = 0; rc == HC_OK && i + 1 < P; i++) {
        rc = hc__bb_send(&b, f0[i], t0[i], 0, pb->msg_bytes, 0, NULL);
        s->parent[t0[i]] = (int32_t)f0[i];
    }
    for (uint32_t i = 0; rc == HC_OK && i + 1 < P; i++) {
        rc = hc__bb_send(&b, f1[i], t1[i], 0, pb->msg_bytes, 1, NULL);
        s->parent2[t1[i]] = (int32_t)f1[i];
    }
    if (rc != HC_OK)
        goto done;
    s->root = pb->root;
    rc = hc_schedule_set_note(s,
                              "ttcc: T0 by ECEF, T1 by ECEF without T0's edges%s; planned makespan "
                              "= TTCC replay with alpha 0",
                              relaxed ? " (relaxed: only reverse edges removed)" : " and reverses");
    if (rc == HC_OK) {
        *out = s;
        s = NULL;
    }
done:
    hc__bb_free(&b);
    hc_schedule_destroy(s);
    free(c);
    free(c1);
    free(f0);
    free(t0);
    free(f1);
    free(t1);
    return rc;
}
