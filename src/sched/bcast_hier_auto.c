/* `hier-auto` broadcast: the grid broadcast of 004 §5.2 with every inter-cluster heuristic
 * (flat, fef, ecef, ecef-la, ecef-lat, ecef-lamax) tried and the schedule with the smallest
 * makespan kept (ties: the first in that order). Without a hierarchy (opts->hierarchy = 0, no
 * platform, or fewer than 2 clusters in auto mode) the same heuristics run on the nodes.
 * With a hierarchy, the cluster pipeline (chain_schedule below: the clusters chained
 * by coordinator cost, one segmented pipeline through them) is a seventh candidate; under pLogP
 * ports (latency overlapped with the next send) it is often the best on grids, since a chain
 * pays each inter-cluster latency once and the gap g(m) once.
 * Complexity: 7 x the cost of one heuristic. Never worse than any of them on the planned costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

/* Cluster order of the cluster pipeline: the root's cluster first, then the order of the other
 * clusters minimising the sum of the coordinator-to-coordinator costs along the path
 * (exhaustive for <= 8 clusters, nearest neighbour beyond). */
static void chain_order_rec(const hc__hier_t *h, uint32_t *cur, unsigned char *used, uint32_t depth,
                            double acc, uint32_t *best, double *bv)
{
    uint32_t nc = h->nc;
    if (acc >= *bv)
        return;
    if (depth == nc) {
        *bv = acc;
        memcpy(best, cur, nc * sizeof *cur);
        return;
    }
    for (uint32_t k = 1; k < nc; k++) {
        if (used[k])
            continue;
        used[k] = 1;
        cur[depth] = k;
        chain_order_rec(h, cur, used, depth + 1, acc + h->c[(size_t)cur[depth - 1] * nc + k], best,
                        bv);
        used[k] = 0;
    }
}

static int chain_order(const hc__hier_t *h, uint32_t *order)
{
    uint32_t nc = h->nc;
    uint32_t *cur = hc__malloc(nc, sizeof *cur);
    unsigned char *used = hc__calloc(nc, 1);
    if (!cur || !used) {
        free(cur);
        free(used);
        return hc__error(HC_ERR_NOMEM, "out of memory in the cluster pipeline");
    }
    order[0] = cur[0] = 0;
    used[0] = 1;
    if (nc <= 8) {
        double bv = INFINITY;
        chain_order_rec(h, cur, used, 1, 0, order, &bv);
    } else {
        for (uint32_t d = 1; d < nc; d++) {
            uint32_t bk = 0;
            double b = INFINITY;
            for (uint32_t k = 1; k < nc; k++)
                if (!used[k] && h->c[(size_t)order[d - 1] * nc + k] < b) {
                    b = h->c[(size_t)order[d - 1] * nc + k];
                    bk = k;
                }
            if (bk == 0) /* unreachable only with INFINITY costs: take any */
                for (uint32_t k = 1; k < nc && !bk; k++)
                    if (!used[k])
                        bk = k;
            used[bk] = 1;
            order[d] = bk;
        }
    }
    free(cur);
    free(used);
    return HC_OK;
}

static int chain_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    if (!pb->platform)
        return hc__error(HC_ERR_UNSUPPORTED,
                         "cluster pipeline: the problem has no platform (clusters come from its "
                         "labels)");
    HC__TRY(hc__bcast_check_segment(pb, opts));
    hc__hier_t h;
    HC__TRY(hc__hier_init(&h, pb));
    uint32_t P = pb->P, nc = h.nc;
    uint64_t m = pb->msg_bytes;
    uint32_t *order = hc__malloc(nc, sizeof *order);
    uint32_t *nodes = hc__malloc(P, sizeof *nodes);
    hc_schedule_t *s = NULL;
    int rc = HC_OK;
    if (!order || !nodes)
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the cluster pipeline");
    if (rc == HC_OK)
        rc = chain_order(&h, order);
    uint32_t n = 0;
    for (uint32_t d = 0; rc == HC_OK && d < nc; d++)
        for (uint32_t a = 0; a < h.cl[order[d]].n; a++)
            nodes[n++] = h.cl[order[d]].nodes[a];
    /* segment size: the forced one, else the best replayed s = m / 2^i */
    uint64_t best_seg = m;
    if (rc == HC_OK && opts && opts->segment_bytes) {
        best_seg = opts->segment_bytes < m ? opts->segment_bytes : m;
    } else if (rc == HC_OK) {
        double bt = INFINITY;
        for (uint64_t i = 0; i < 63 && rc == HC_OK; i++) {
            uint64_t sz = (m + (1ull << i) - 1) >> i;
            if (sz == 0 || (i > 0 && sz == ((m + (1ull << (i - 1)) - 1) >> (i - 1))))
                break;
            if (hc__bc_seg_count(m, sz) > HC__MAX_SEG)
                break;
            hc__bb_t b;
            rc = hc__bb_init(&b, pb, NULL, P, hc__bc_nseg(&hc__classic_bcast_pipeline, n, m, sz));
            if (rc == HC_OK)
                rc = hc__bc_run(&b, &hc__classic_bcast_pipeline, nodes, n, sz, NULL);
            if (rc == HC_OK && b.max_end < bt) {
                bt = b.max_end;
                best_seg = sz;
            }
            hc__bb_free(&b);
            if (sz == 1)
                break;
        }
    }
    uint32_t k = hc__bc_nseg(&hc__classic_bcast_pipeline, n, m, best_seg);
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK) {
        hc__bb_t b;
        rc = hc__bb_init(&b, pb, s, P, k);
        if (rc == HC_OK)
            rc = hc__bc_run(&b, &hc__classic_bcast_pipeline, nodes, n, best_seg, s->parent);
        hc__bb_free(&b);
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = k;
        size_t cap = 160 + (size_t)nc * 64, len = 0;
        char *note = hc__malloc(cap, 1);
        if (!note) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the cluster pipeline");
        } else {
            len += (size_t)snprintf(note, cap,
                                    "cluster pipeline: %u clusters chained by coordinator cost, "
                                    "%u segment(s) of %llu bytes; cluster order (coordinators):",
                                    nc, k, (unsigned long long)best_seg);
            for (uint32_t d = 0; d < nc && len < cap; d++)
                len += (size_t)snprintf(note + len, cap - len, " %u", h.cl[order[d]].nodes[0]);
            free(s->note);
            s->note = note;
        }
    }
    free(order);
    free(nodes);
    hc__hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}

int hc__algo_bcast_hier_auto(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out)
{
    *out = NULL;
    hc_schedule_t *best = NULL;
    double times[HC__EDGE_COUNT];
    int bi = -1;
    for (int r = 0; r < HC__EDGE_COUNT; r++) {
        hc_schedule_t *s = NULL;
        times[r] = NAN;
        int rc = hc__bcast_hetero(pb, opts, hc__edge_rules[r], &s);
        if (rc != HC_OK) {
            hc_schedule_destroy(best);
            return rc;
        }
        hc_schedule_finish(s);
        times[r] = s->makespan;
        if (!best || s->makespan < best->makespan) {
            hc_schedule_destroy(best);
            best = s;
            bi = r;
        } else {
            hc_schedule_destroy(s);
        }
    }
    int hier = hc__bcast_use_hier(pb, opts);
    double tchain = NAN;
    if (hier) {
        hc_schedule_t *s = NULL;
        int rc = chain_schedule(pb, opts, &s);
        if (rc != HC_OK) {
            hc_schedule_destroy(best);
            return rc;
        }
        hc_schedule_finish(s);
        tchain = s->makespan;
        if (s->makespan < best->makespan) {
            hc_schedule_destroy(best);
            best = s;
            bi = HC__EDGE_COUNT;
        } else {
            hc_schedule_destroy(s);
        }
    }
    char buf[512];
    size_t len = 0;
    len += (size_t)snprintf(buf + len, sizeof buf - len, "hier-auto (%s): kept %s;",
                            hier ? "hierarchical" : "node level",
                            bi == HC__EDGE_COUNT ? "cluster-pipeline" : hc__edge_rules[bi]->name);
    for (int r = 0; r < HC__EDGE_COUNT && len < sizeof buf; r++)
        len +=
            (size_t)snprintf(buf + len, sizeof buf - len, " %s %.6g s%s", hc__edge_rules[r]->name,
                             times[r], r + 1 < HC__EDGE_COUNT || hier ? "," : "");
    if (hier && len < sizeof buf)
        len += (size_t)snprintf(buf + len, sizeof buf - len, " cluster-pipeline %.6g s", tchain);
    /* keep the winner's note (the cluster table) below the comparison */
    const char *old = best->note ? best->note : "";
    char *note = hc__malloc(strlen(buf) + strlen(old) + 2, 1);
    if (!note) {
        hc_schedule_destroy(best);
        return hc__error(HC_ERR_NOMEM, "out of memory in hier-auto");
    }
    sprintf(note, "%s\n%s", buf, old);
    free(best->note);
    best->note = note;
    *out = best;
    return HC_OK;
}
