/* The algorithm registry: one row per algorithm in src/sched/algos.def. */
#ifndef HETCOLL_ALGO_H
#define HETCOLL_ALGO_H

#include <stddef.h>
#include <stdint.h>

#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options every algorithm receives; each reads what concerns it. Start from
 * hc_algo_opts_init. Pointers are borrowed. */
typedef struct hc_algo_opts {
    uint32_t struct_size; /* sizeof(hc_algo_opts_t), set by hc_algo_opts_init (docs/architecture.md,
                             "ABI") */
    uint64_t seed;        /* randomised algorithms (default 1) */
    double time_limit_s;  /* search algorithms; 0 = no limit (default) */
    const uint32_t *order; /* reduce `ep`: send order (node ids), NULL = algorithm's own */
    uint32_t order_len;
    int hierarchy;          /* bcast: -1 auto (labels when the platform has clusters),
                               0 none, 1 cluster labels (default -1) */
    uint64_t segment_bytes; /* bcast pipelined algorithms, reduce multitree/two-tree, alltoall
                             * pieces: 0 = algorithm chooses (default) */
    double alpha;           /* TTCC switch cost, fraction of the mean edge time (default 0) */
    int verbose;            /* algorithms may fill schedule->note with more detail */
    /* bcast `multitree`: the first and the last ramp_pieces pieces grow and shrink linearly
     * (piece j of K weighs min(j + 1, ramp_pieces, K - j)), so that the pieces a sender keeps
     * in flight over a shared link, which share it, complete one after another instead of
     * together; 0 = equal pieces (default). (API 8) */
    uint32_t ramp_pieces;
    /* bcast `multitree`: how the pieces go inside each site: HC_SITE_TREES_AUTO (default) the
     * algorithm's rule (a d-ary tree by the cluster's pLogP parameters, the two trees where
     * clearly shallower than a chain); HC_SITE_TREES_TWO the site's two trees wherever the
     * rule picks a chain or a d-ary tree (sites of three nodes or more). The runtime tries both
     * on platforms with links and keeps the flow model's faster. (API 11) */
    int site_trees;
    /* bcast `multitree`, when its mix uses the direct tree (the root's site sends to every
     * other site) beside relay trees: the last tail_direct_pieces pieces go on the direct tree,
     * so that no piece has a relay site's second hop left to make once the root's site has
     * sent its last, and the direct tree carries a quarter of them more than the packing gives
     * it (taken from the relay trees in proportion). 0 = the packing's deal (default); the
     * runtime tries it under SimGrid's default network model. (API 19) */
    uint32_t tail_direct_pieces;
    /* bcast `multitree`: when between 1 and the segment, pieces alternate between the segment
     * and alternate_bytes (odd pieces the smaller; with a ramp, each piece its ramp weight times
     * its size), as many as their mean size makes. In SimGrid's fair sharing pieces that a
     * sender posts together end together and, refilled together, stay in lock step, each
     * window paying its latency once more (docs/design.md, "Windows in lock step"); pieces of
     * two sizes never stay together. 0 = equal pieces (default); the runtime tries 9360 B
     * pieces alternating with 5850 B ones under SimGrid's default network model. (API 25) */
    uint64_t alternate_bytes;
} hc_algo_opts_t;

#define HC_SITE_TREES_AUTO 0
#define HC_SITE_TREES_TWO 1

void hc_algo_opts_init(hc_algo_opts_t *o);
/* The name before API 2. */
#define hc_algo_opts_default hc_algo_opts_init

typedef int (*hc_algo_fn)(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);

/* Flags of a registry row (hc_algo_info_t.flags). */
#define HC_ALGO_AUTO 0x1u        /* a candidate of its collective's `auto` */
#define HC_ALGO_SELECTOR 0x2u    /* picks among other algorithms (auto, model-best, hier-auto) */
#define HC_ALGO_PAIR_COSTS 0x4u  /* reduce: plans with sender-receiver costs C[i][j] */
#define HC_ALGO_MPI_DEFAULT 0x8u /* what MPI libraries do by default (the baseline to compare) */
#define HC_ALGO_EXACT                                                                              \
    0x10u /* exhaustive search: `auto` runs it only with a time limit or                           \
             on at most auto_max_nodes nodes */

typedef struct hc_algo_info {
    hc_coll_t coll;
    const char *name;        /* CLI name, e.g. "ecef-la" */
    const char *description; /* one line */
    const char *paper;       /* source, e.g. "000 §4.2" */
    hc_algo_fn fn;
    unsigned flags;          /* HC_ALGO_* */
    uint32_t auto_max_nodes; /* `auto` skips it on more nodes (0 = no limit) */
} hc_algo_info_t;

/* Number of registered algorithms and the i-th one (static storage). */
size_t hc_algo_count(void);
const hc_algo_info_t *hc_algo_get(size_t i);

/* Find by collective and name. HC_ERR_UNKNOWN lists the valid names in the detail. The former
 * name of a renamed algorithm is still found ("ecef-laT" gives the "ecef-lamax" row); then
 * (*out)->name differs from name, and callers may note that the old name is deprecated. */
int hc_algo_find(hc_coll_t coll, const char *name, const hc_algo_info_t **out);

/* Comma-separated names of the algorithms of one collective, into buf. */
void hc_algo_names(hc_coll_t coll, char *buf, size_t len);

/* Check the problem, run the named algorithm, stamp the schedule with its name and fill
 * lower_bound (when the algorithm left it NAN) and makespan. Caller frees *out. */
int hc_schedule_compute(const hc_problem_t *pb, const char *algo, const hc_algo_opts_t *opts,
                        hc_schedule_t **out);

/* The greedy edge heuristics of the grid broadcast (002 §2, 004 §5.2) on an abstract graph, as
 * the hierarchical broadcasts run them between cluster coordinators. Rules, in order: "flat",
 * "fef", "ecef", "ecef-la", "ecef-lat", "ecef-lamax" (formerly "ecef-laT", still accepted by
 * hc_bcast_edge_order). */
size_t hc_bcast_edge_rule_count(void);
/* Name of rule i (static storage), or NULL when i >= hc_bcast_edge_rule_count(). */
const char *hc_bcast_edge_rule_name(size_t i);
/* Edge selection order of `rule` on n nodes from `root`: costs is n x n row-major (INFINITY =
 * no edge), extra (n entries or NULL) the time each node needs after receiving (T_k, read by the
 * look-ahead rules). Writes the n - 1 selected edges from[i] -> to[i] in selection order.
 * HC_ERR_UNKNOWN for an unknown rule, HC_ERR_VALUE when a node is unreachable. */
int hc_bcast_edge_order(const char *rule, uint32_t n, const double *costs, const double *extra,
                        uint32_t root, uint32_t *from, uint32_t *to);

#ifdef __cplusplus
}
#endif
#endif
