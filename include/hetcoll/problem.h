/* The problem builder: platform + collective + sizes (root, k, beta) + cost model -> problem.
 * One data path: the CLI, the demo, the MPI runtime and the benchmarks all build their problems
 * here, so the same inputs give the same problem everywhere.
 *
 * Rules, per collective (costs given directly always win over the platform):
 *   alltoall      costs; else the platform with sizes (bytes per pair) or msg_bytes for every
 *                 pair (hc_cost_sizes, hc_cost_uniform).
 *   bcast         costs (msg_bytes labels the events; 0 = 1 MiB); else the platform with
 *                 msg_bytes > 0 (hc_cost_uniform).
 *   reduce        send_times t(i) (003's model: C[i][j] = t(i)); else costs; else the platform
 *                 with msg_bytes > 0: a node with a measured send time (hc_platform_send_time)
 *                 keeps it on its whole row; otherwise pair_costs = 1 gives the sender-receiver
 *                 costs p2p(i, j) (003 §7) and pair_costs = 0 the constant row p2p(i, root).
 *   redistribute  costs (n1 x n2 seconds); else sizes (n1 x n2 traffic bytes) / rate_Bps; else
 *                 the platform with sizes (P x P bytes): cluster 1 = the nodes that send, cluster
 *                 2 = the nodes that receive (hc_problem_nodes maps them back), each transfer
 *                 bytes / bandwidth(i, j). k = 0 (or more) means min(n1, n2), or on a
 *                 platform with links the narrowest link every route with traffic crosses
 *                 over the median pair bandwidth (the backbone's k, Cohen et al.), if less;
 *                 beta < 0 means the largest latency among the pairs with traffic (0 without a
 *                 platform).
 * Errors name the missing or inconsistent field. */
#ifndef HETCOLL_PROBLEM_H
#define HETCOLL_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to build a problem from. Start from hc_problem_spec_init; pointers are borrowed. */
typedef struct hc_problem_spec {
    uint32_t struct_size; /* sizeof(hc_problem_spec_t), set by hc_problem_spec_init: a newer
                             library reads only the fields an older caller knew */
    hc_coll_t coll;
    const hc_platform_t *platform; /* costs derived from it with `model` */
    hc_model_t model;
    const hc_matrix_t *costs; /* planned durations in seconds, instead of the platform */
    const hc_matrix_t *sizes; /* bytes per pair (alltoall P x P; redistribution, see above) */
    uint64_t msg_bytes;
    uint32_t root;
    const double *send_times; /* reduce: t(i), n_send_times of them */
    uint32_t n_send_times;
    int pair_costs;  /* reduce on a platform: 1 = C[i][j] = p2p(i, j), 0 = 003's rows */
    uint32_t k;      /* redistribute: transfers per step, 0 = min(n1, n2) */
    double beta;     /* redistribute: step start-up (s), < 0 = from the platform */
    double rate_Bps; /* redistribute: bytes per second of a transfer given as traffic bytes */
} hc_problem_spec_t;

/* Defaults: struct_size set, model HOCKNEY, beta -1 (from the platform), everything else 0. */
void hc_problem_spec_init(hc_problem_spec_t *spec, hc_coll_t coll);

/* Build the problem of `spec`. The problem owns the matrices it derived (and copies of the
 * given ones it had to reshape); the platform stays borrowed and must outlive it. Free with
 * hc_problem_destroy (only problems made here). */
int hc_problem_create(const hc_problem_spec_t *spec, hc_problem_t **out);
/* NULL-safe. */
void hc_problem_destroy(hc_problem_t *pb);

/* Redistribution built on a platform: the platform node of each of the P = n1 + n2 problem
 * nodes (cluster 1 first). NULL for other problems. Owned by the problem. */
const uint32_t *hc_problem_nodes(const hc_problem_t *pb);

#ifdef __cplusplus
}
#endif
#endif
