/* Logical clusters (topology discovery): Lowekamp's greedy grouping of nodes whose mutual
 * distances (latency, or inverse bandwidth) agree within a relative tolerance rho (004 §4.1).
 *
 * The distance between i and j is symmetrised: w(i,j) = (d(i,j) + d(j,i)) / 2, with d = latency
 * (seconds) for HC_CLUSTER_LATENCY and d = 1 / bandwidth (seconds per byte) for
 * HC_CLUSTER_BANDWIDTH (a faster link is a shorter edge). Two distances u <= v "agree" when
 * v - u <= rho * u.
 *
 * Both variants sort the undirected edges by (w, i, j) and scan them once:
 *  - edge (x, y), both unlabelled: x and y start a new group with w_min = w(x, y) if this edge
 *    agrees with the shortest edge of x and with the shortest edge of y (they are each other's
 *    near-nearest neighbours); otherwise the edge is skipped;
 *  - edge (a, x), a unlabelled, x in group S: a joins S when
 *      HC_CLUSTER_GREEDY     w(a, x) agrees with w_min(S)              (Lowekamp, eq. 3, O(1))
 *      HC_CLUSTER_ALL_PAIRS  w(a, x') agrees with w(x', y) for every x' in S and every
 *                            y in S \ {x'}              (eq. 2; O(|S|) per test using each
 *                            member's smallest and largest in-group edge);
 *    otherwise the edge is skipped (a may still join another group through a longer edge);
 *  - edge (x, y) between two groups S1 != S2 (they were seeded separately, e.g. from noisy
 *    measurements inside one switch): merged when
 *      greedy     w(x, y) agrees with w_min(S1) and with w_min(S2)
 *      all-pairs  every edge between S1 and S2 agrees with every in-group edge of its ends.
 * Nodes left unlabelled at the end become single-node clusters. Labels are numbered in order
 * of each group's first member (lowest node id first), so results are deterministic.
 *
 * The variants differ only when distances are not "ultrametric": greedy admits a node on its
 * shortest edge into S alone, so a node close to one member but far from the others (noisy or
 * asymmetric measurements, a node cabled to two switches) joins; all-pairs rejects it. On
 * switch hierarchies with clean measurements both give the same groups. */
#ifndef HETCOLL_TOPO_H
#define HETCOLL_TOPO_H

#include <stdint.h>

#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    HC_CLUSTER_LATENCY = 0,  /* distance = latency (s) */
    HC_CLUSTER_BANDWIDTH = 1 /* distance = 1 / bandwidth (s/B) */
} hc_cluster_metric_t;

typedef enum {
    HC_CLUSTER_GREEDY = 0,   /* Lowekamp: compare with the group's smallest edge */
    HC_CLUSTER_ALL_PAIRS = 1 /* compare with every edge inside the group */
} hc_cluster_variant_t;

typedef struct hc_cluster_opts {
    uint32_t struct_size; /* sizeof(hc_cluster_opts_t), set by hc_cluster_opts_init */
    double rho;           /* relative tolerance, finite, >= 0 (0.3 = 30%) */
    hc_cluster_metric_t metric;
    hc_cluster_variant_t variant;
} hc_cluster_opts_t;

/* Defaults: rho 0.3, latency, greedy. */
void hc_cluster_opts_init(hc_cluster_opts_t *opts);

/* Group the P nodes of `p`. labels_out (caller-allocated, P entries) receives dense labels
 * 0..C-1; *n_clusters receives C. opts NULL = defaults. A zero distance (two ranks on one
 * host) agrees only with another zero. */
int hc_cluster_compute(const hc_platform_t *p, const hc_cluster_opts_t *opts, int32_t *labels_out,
                       uint32_t *n_clusters);

/* Same on a bare symmetric-or-not P x P distance matrix (row-major, diagonal ignored, entries
 * finite and >= 0; the metric field of opts is ignored). */
int hc_cluster_compute_matrix(uint32_t P, const double *dist, const hc_cluster_opts_t *opts,
                              int32_t *labels_out, uint32_t *n_clusters);

/* Label node i of `p` with cluster "<prefix><labels[i]>" (prefix NULL = "c"), replacing the
 * existing labels; labels[i] < 0 removes node i's label. */
int hc_platform_apply_clusters(hc_platform_t *p, const int32_t *labels, const char *prefix);

#ifdef __cplusplus
}
#endif
#endif
