/* The greedy edge engine of 002 §2 / 004 §5.2 (bcast_kit.h): repeatedly select an edge from a
 * node holding the message to one that does not, keyed by a rule (the rules live in their
 * algorithm files: bcast_flat.c, bcast_fef.c, bcast_ecef*.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

#define HC_ALGO(coll, ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_CLASSIC(ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_EDGE(ident, name, flags, max_nodes, desc, paper) &hc__edge_##ident,
const hc__edge_rule_t *const hc__edge_rules[HC__EDGE_COUNT] = {
    &hc__edge_bcast_flat,
#include "algos.def"
};
#undef HC_BCAST_EDGE

/* the registry's entry points of the edge rules: hierarchical when the platform has clusters */
#define HC_BCAST_EDGE(ident, name, flags, max_nodes, desc, paper)                                  \
    int hc__algo_##ident(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)  \
    {                                                                                              \
        return hc__bcast_hetero(pb, opts, &hc__edge_##ident, out);                                 \
    }
#include "algos.def"
#undef HC_BCAST_EDGE
#undef HC_BCAST_CLASSIC
#undef HC_ALGO

int hc__bcast_port_matrix(const hc_problem_t *pb, const uint32_t *nodes, uint32_t n, double **out)
{
    *out = NULL;
    if (!hc_problem_overlaps_latency(pb))
        return HC_OK;
    double *p = hc__malloc((size_t)n * n + 1, sizeof *p);
    if (!p)
        return hc__error(HC_ERR_NOMEM, "out of memory in the broadcast heuristic");
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t d = 0; d < n; d++) {
            hc_event_t e;
            memset(&e, 0, sizeof e);
            e.src = nodes ? nodes[a] : a;
            e.dst = nodes ? nodes[d] : d;
            e.bytes = pb->msg_bytes;
            p[(size_t)a * n + d] = a == d ? INFINITY : hc_problem_event_port_time(pb, &e);
        }
    *out = p;
    return HC_OK;
}

int hc__edge_select(const hc__edge_rule_t *rule, uint32_t n, const double *c, const double *port,
                    const double *T, uint32_t root, uint32_t *from, uint32_t *to)
{
    unsigned char *inA = hc__calloc(n, 1);
    double *rt = hc__calloc(n, sizeof *rt);
    double *F = hc__calloc(n, sizeof *F);
    if (!inA || !rt || !F) {
        free(inA);
        free(rt);
        free(F);
        return hc__error(HC_ERR_NOMEM, "out of memory in the broadcast heuristic");
    }
    inA[root] = 1;
    int rc = HC_OK;
    for (uint32_t step = 0; step + 1 < n; step++) {
        if (rule->lookahead)
            for (uint32_t j = 0; j < n; j++)
                if (!inA[j])
                    F[j] = rule->lookahead(c, T, inA, n, j);
        double best = INFINITY;
        uint32_t bi = n, bj = n;
        for (uint32_t i = 0; i < n; i++) {
            if (!inA[i] || (rule->root_only && i != root))
                continue;
            for (uint32_t j = 0; j < n; j++) {
                if (inA[j])
                    continue;
                double cij = c[(size_t)i * n + j];
                if (!isfinite(cij))
                    continue;
                double key = cij;
                if (rule->lookahead)
                    key = rt[i] + cij + F[j];
                else if (rule->ready)
                    key = rt[i] + cij;
                if (key < best) {
                    best = key;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (bi == n) {
            rc = hc__error(HC_ERR_VALUE,
                           "broadcast heuristic %s: no usable edge reaches the "
                           "remaining nodes",
                           rule->name);
            break;
        }
        double end = rt[bi] + c[(size_t)bi * n + bj];
        /* the sender's port is free again after the port time (pLogP: g; else the whole
         * transfer), the receiver holds the message at the end */
        rt[bi] = port ? rt[bi] + port[(size_t)bi * n + bj] : end;
        rt[bj] = end;
        inA[bj] = 1;
        from[step] = bi;
        to[step] = bj;
    }
    free(inA);
    free(rt);
    free(F);
    return rc;
}

int hc__edge_schedule(const hc_problem_t *pb, const hc__edge_rule_t *rule, hc_schedule_t **out)
{
    uint32_t P = pb->P;
    *out = NULL;
    double *c = hc__malloc((size_t)P * P, sizeof *c), *port = NULL;
    uint32_t *from = hc__malloc(P, sizeof *from), *to = hc__malloc(P, sizeof *to);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    int rc = HC_OK;
    if (!c || !from || !to) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the broadcast heuristic");
        goto done;
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            c[(size_t)i * P + j] = i == j ? INFINITY : HC_AT(pb->costs, i, j);
    rc = hc__bcast_port_matrix(pb, NULL, P, &port);
    if (rc == HC_OK)
        rc = hc__edge_select(rule, P, c, port, NULL, pb->root, from, to);
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, 1);
    for (uint32_t i = 0; rc == HC_OK && i + 1 < P; i++) {
        rc = hc__bb_send(&b, from[i], to[i], 0, pb->msg_bytes, 0, NULL);
        s->parent[to[i]] = (int32_t)from[i];
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        *out = s;
        s = NULL;
    }
done:
    hc__bb_free(&b);
    hc_schedule_destroy(s);
    free(c);
    free(port);
    free(from);
    free(to);
    return rc;
}

size_t hc_bcast_edge_rule_count(void)
{
    return HC__EDGE_COUNT;
}

const char *hc_bcast_edge_rule_name(size_t i)
{
    return i < HC__EDGE_COUNT ? hc__edge_rules[i]->name : NULL;
}

int hc_bcast_edge_order(const char *rule, uint32_t n, const double *costs, const double *extra,
                        uint32_t root, uint32_t *from, uint32_t *to)
{
    if (!rule || !costs || !from || !to || n == 0 || root >= n)
        return hc__error(HC_ERR_VALUE, "hc_bcast_edge_order: NULL argument, no nodes or root "
                                       "out of range");
    if (strcmp(rule, "ecef-laT") == 0) /* the former name (hc_algo_find's alias) */
        rule = "ecef-lamax";
    for (size_t i = 0; i < HC__EDGE_COUNT; i++)
        if (strcmp(hc__edge_rules[i]->name, rule) == 0)
            return hc__edge_select(hc__edge_rules[i], n, costs, NULL, extra, root, from, to);
    return hc__error(
        HC_ERR_UNKNOWN,
        "unknown edge rule '%s' (valid: flat, fef, ecef, ecef-la, ecef-lat, ecef-lamax)", rule);
}
