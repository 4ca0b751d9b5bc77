/* Shared helpers of the broadcast algorithms (src/sched/bcast_*.c). Internal, not installed.
 *
 * hc__bb_t ("broadcast builder") times transfers with the simulator's rule: a transfer starts
 * when its sender's port is free, its receiver's port will be free when the data arrives, and
 * the sender holds the segment (1-port, full duplex). A transfer of duration d occupies the
 * sender's port during [start, start + port] and the receiver's during [end - port, end], port =
 * hc_problem_event_port_time (d itself except for pLogP broadcasts, where port = g and the
 * latency overlaps the sender's next send). Transfers must be added in an order where each one's
 * dependencies come first (a topological order); then the planned times equal hc_simulate's
 * replay exactly. Durations come from hc_problem_event_cost, the validator's rule. */
#ifndef HETCOLL_BCAST_COMMON_H
#define HETCOLL_BCAST_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "../core/internal.h"

typedef struct hc__bb {
    const hc_problem_t *pb;
    hc_schedule_t *s; /* events are appended here */
    uint32_t P, nseg;
    double *send_free, *recv_free; /* P */
    double *hold;                  /* P * nseg; INFINITY = not held */
    double max_end;                /* latest end so far */
    /* 1 = every transfer holds both ports for its whole duration whatever the model (TTCC,
     * whose replay keeps 002's whole-duration rule). hc__bb_init sets 0. */
    int whole_port;
    /* Optional duration override (predictions on a virtual platform); NULL = the problem's
     * hc_problem_event_cost and hc_problem_event_port_time. The callback returns the duration
     * and stores the port time in *port. s may be NULL ("dry run": times only, no events). */
    double (*cost)(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, double *port);
    void *ctx;
    /* direct-mapped memo of (src, dst, bytes) -> duration, port time (HC__BB_MEMO entries) */
    struct hc__bb_memo *memo;
} hc__bb_t;
#define HC__BB_MEMO 4096u

/* nseg: segments tracked (>= 1); P nodes. The root of pb (node 0 when pb is NULL) holds every
 * segment at time 0. */
int hc__bb_init(hc__bb_t *b, const hc_problem_t *pb, hc_schedule_t *s, uint32_t P, uint32_t nseg);
void hc__bb_free(hc__bb_t *b);
/* v holds every segment from time t on (earlier holdings are kept). */
void hc__bb_give_all(hc__bb_t *b, uint32_t v, double t);
/* Time at which v holds every segment < nseg (INFINITY when not). */
double hc__bb_done(const hc__bb_t *b, uint32_t v, uint32_t nseg);
/* Add transfer src -> dst of segment `seg` (`bytes` bytes) at the earliest time; *end (may be
 * NULL) gets its end. HC_ERR_INTERNAL when src does not hold the segment yet. */
int hc__bb_send(hc__bb_t *b, uint32_t src, uint32_t dst, uint32_t seg, uint64_t bytes, uint8_t tree,
                double *end);

/* Classic algorithms of 004 Table 1, run on a subset of nodes. */
typedef enum {
    HC__BC_FLAT = 0,
    HC__BC_SEG_FLAT,
    HC__BC_CHAIN,
    HC__BC_PIPELINE,
    HC__BC_BINARY,
    HC__BC_BINOMIAL,
    HC__BC_SEG_BINOMIAL,
    HC__BC_SCATTER_COLLECT,
    HC__BC_COUNT
} hc__bc_algo_t;

const char *hc__bc_name(hc__bc_algo_t a);
/* 1 when the algorithm splits the message into segments of a chosen size. */
int hc__bc_segmented(hc__bc_algo_t a);
/* Number of segments used by algorithm a on n nodes with segment size segbytes. */
uint32_t hc__bc_nseg(hc__bc_algo_t a, uint32_t n, uint64_t msg, uint64_t segbytes);

/* Broadcast from nodes[0] to nodes[1..n-1] with algorithm a; nodes[0] must hold every segment
 * (it is pb->root, or was given everything with hc__bb_give_all). Ranks follow `nodes`. Sets
 * parent[] entries of nodes[1..] when parent is not NULL. */
int hc__bc_run(hc__bb_t *b, hc__bc_algo_t a, const uint32_t *nodes, uint32_t n, uint64_t segbytes,
               int32_t *parent);

/* A classic on the whole problem, ranks = root, root+1, ... (mod P); segment size
 * opts->segment_bytes, or the best predicted one for this algorithm. */
int hc__bcast_classic_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc__bc_algo_t a,
                               hc_schedule_t **out);

/* pLogP parameters of a (homogeneous) group of nodes: L = mean latency, g(x) = mean of
 * p2p(x) - L over the ordered pairs (the problem's model); without a platform L = 0 and
 * g(x) = mean cost * x / m. */
typedef struct hc__plogp {
    const hc_problem_t *pb;
    const uint32_t *nodes;
    uint32_t n;
    double L;
    double mean_cost; /* mean whole-message cost over the pairs */
} hc__plogp_t;
void hc__plogp_init(hc__plogp_t *q, const hc_problem_t *pb, const uint32_t *nodes, uint32_t n);
double hc__plogp_gap(const hc__plogp_t *q, uint64_t bytes);
/* 004 Table 1 prediction for algorithm a with segment size s (ignored when unsegmented). */
double hc__bc_predict(const hc__plogp_t *q, hc__bc_algo_t a, uint64_t s);

/* Best prediction over the algorithms and segment sizes s = m/2^i (k <= HC__MAX_SEG). */
#define HC__MAX_SEG 1024u
/* A forced segment size (opts->segment_bytes) may cut the message into at most this many. */
#define HC__MAX_SEG_FORCED 65536u
/* HC_ERR_VALUE naming the sizes when opts->segment_bytes gives more than HC__MAX_SEG_FORCED. */
int hc__bcast_check_segment(const hc_problem_t *pb, const hc_algo_opts_t *opts);
typedef struct hc__bc_choice {
    hc__bc_algo_t algo;
    uint64_t seg;
    double predicted;
} hc__bc_choice_t;
/* Prediction = replay of the algorithm on a virtual homogeneous group where every x-byte
 * transfer lasts L + g(x) (the 1-port reading of pLogP; see docs/design.md). table (may be
 * NULL): HC__BC_COUNT entries, the best segment size of each algorithm. fixed_seg > 0 forces the
 * segment size; whole_only skips the algorithms that split the message (predicted = INFINITY). */
void hc__bc_choose(const hc__plogp_t *q, uint64_t fixed_seg, int whole_only, hc__bc_choice_t *best,
                   hc__bc_choice_t *table);

/* Greedy edge-selection heuristics on n nodes (002 §2, 004 §5.2). c: n x n costs (INFINITY =
 * forbidden edge); T: per-node extra time (intra-cluster broadcast) or NULL (zeros); rt0: initial
 * ready time of the root. Output: from[i], to[i] for the n-1 selected edges in selection order
 * (the order in which senders send). Returns HC_ERR_VALUE when some node is unreachable. */
typedef enum {
    HC__GR_FLAT = 0, /* root sends to every other, cheapest edge first */
    HC__GR_FEF,      /* fastest edge first */
    HC__GR_ECEF,     /* earliest completing edge first */
    HC__GR_ECEF_LA,  /* + F_j = min_k c_jk */
    HC__GR_ECEF_LAt, /* + F_j = min_k (c_jk + T_k) */
    HC__GR_ECEF_LAT, /* + F_j = max_k (c_jk + T_k) */
    HC__GR_COUNT
} hc__gr_rule_t;
const char *hc__gr_name(hc__gr_rule_t r);
int hc__bcast_greedy(hc__gr_rule_t rule, uint32_t n, const double *c, const double *T,
                     uint32_t root, uint32_t *from, uint32_t *to);
/* The same with port times: port (n x n, or NULL = c) is how long edge i -> j keeps i's send
 * port busy; a sender's ready time advances by port[i][j], the receiver's becomes
 * RT_i + c_ij (pLogP: the latency overlaps the sender's next send). */
int hc__bcast_greedy_port(hc__gr_rule_t rule, uint32_t n, const double *c, const double *port,
                          const double *T, uint32_t root, uint32_t *from, uint32_t *to);
/* n x n port times of the edges among nodes[0..n-1] (diagonal INFINITY) for whole-message
 * transfers on pb, or NULL when pb keeps whole-duration ports (then *out = NULL and HC_OK). */
int hc__bcast_port_matrix(const hc_problem_t *pb, const uint32_t *nodes, uint32_t n, double **out);

/* Node-level greedy broadcast as a complete schedule (whole message, one tree). */
int hc__bcast_greedy_schedule(const hc_problem_t *pb, hc__gr_rule_t rule, hc_schedule_t **out);

/* Hierarchical (grid) broadcast, 004 §5.2: clusters from the platform labels (unlabelled nodes
 * are singletons), coordinators joined by `rule`, then model-best inside each cluster.
 * HC_ERR_UNSUPPORTED without a platform. */
int hc__bcast_hier_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc__gr_rule_t rule,
                            hc_schedule_t **out);
/* Cluster pipeline: the clusters of hc__bcast_hier_schedule chained in the order minimising the
 * sum of coordinator-to-coordinator costs (root's cluster first; exhaustive up to 8 clusters),
 * each cluster's nodes consecutive from its coordinator, and one segmented pipeline along that
 * chain (segment size: opts->segment_bytes, else the best replayed m / 2^i). Under pLogP ports
 * the latencies overlap the segments' gaps, so the chain pays sum(L) + g(m) + small terms.
 * HC_ERR_UNSUPPORTED without a platform. */
int hc__bcast_hier_chain_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                  hc_schedule_t **out);
/* 1 when opts asks for (or auto-selects) the hierarchical broadcast on pb. */
int hc__bcast_use_hier(const hc_problem_t *pb, const hc_algo_opts_t *opts);
/* Heterogeneous heuristic entry point: hierarchical when hc__bcast_use_hier, else node level. */
int hc__bcast_hetero(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc__gr_rule_t rule,
                     hc_schedule_t **out);

/* Lower bound of a segmented schedule: each node receives its bytes one transfer at a time, at
 * best from its cheapest sender. */
void hc__bcast_set_seg_bound(const hc_problem_t *pb, hc_schedule_t *s);

#endif
