/* The broadcast toolkit: what the broadcast algorithms (src/sched/bcast_*.c) call. Internal,
 * not installed. Each algorithm's decisions live in its own file; this header gives them
 *   - the 1-port transfer timer (bcast_builder.c),
 *   - classic broadcast descriptors and their runner, the pLogP predictor and the segment-size
 *     search of 004 §5.1 (bcast_classic.c),
 *   - the greedy edge engine of 002 §2 / 004 §5.2 with edge-rule descriptors (bcast_edge.c),
 *   - the hierarchy composer of 004 §5.2 (bcast_hier.c).
 * Classic broadcasts and edge rules register in algos.def (HC_BCAST_CLASSIC, HC_BCAST_EDGE):
 * the lists below are generated from those rows. */
#ifndef HETCOLL_BCAST_KIT_H
#define HETCOLL_BCAST_KIT_H

#include <stddef.h>
#include <stdint.h>

#include "algos.h"
#include "sched_internal.h"

/* ---------------------------------------------------------------- the builder
 * hc__bb_t times transfers with the simulator's rule: a transfer starts when its sender's port
 * is free, its receiver's port will be free when the data arrives, and the sender holds the
 * segment (1-port, full duplex). A transfer of duration d occupies the sender's port during
 * [start, start + port] and the receiver's during [end - port, end], port =
 * hc_problem_event_port_time (d itself except for pLogP broadcasts, where port = g and the
 * latency overlaps the sender's next send). Transfers must be added in an order where each
 * one's dependencies come first (a topological order); then the planned times equal
 * hc_simulate's replay exactly. Durations come from hc_problem_event_cost, the validator's
 * rule. */
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
/* Duration of a `bytes` transfer src -> dst as this builder times it (its cost override, or the
 * problem's rule). */
double hc__bb_duration(hc__bb_t *b, uint32_t src, uint32_t dst, uint64_t bytes);
/* Add transfer src -> dst of segment `seg` (`bytes` bytes) at the earliest time; *end (may be
 * NULL) gets its end. HC_ERR_INTERNAL when src does not hold the segment yet. */
int hc__bb_send(hc__bb_t *b, uint32_t src, uint32_t dst, uint32_t seg, uint64_t bytes, uint8_t tree,
                double *end);

/* ---------------------------------------------------------------- two trees
 * The two binary trees of the two-tree broadcast (bcast_two_tree.c) over indices 0 .. n-1,
 * index 0 the root: index 0 sends to top[t], the root of tree t; kid[4u + 2t + c] is child c
 * (0, 1) of index u in tree t, or -1. Every index is interior in at most one tree. kid: 4n
 * entries. */
int hc__two_tree_children(uint32_t n, int32_t *kid, int32_t top[2]);
/* The same trees as parents: up[t * n + u] is the parent index of index u in tree t (0 for
 * top[t], -1 for index 0). up: 2n entries. */
int hc__two_tree_parents(uint32_t n, int32_t *up);

/* ---------------------------------------------------------------- pLogP predictor
 * Parameters of a (homogeneous) group of nodes: L = mean latency, g(x) = mean of p2p(x) - L over
 * the ring pairs (the problem's model); without a platform L = 0 and g(x) = mean cost * x / m. */
typedef struct hc__plogp {
    const hc_problem_t *pb;
    const uint32_t *nodes;
    uint32_t n;
    double L;
    double mean_cost; /* mean whole-message cost over the pairs */
} hc__plogp_t;
void hc__plogp_init(hc__plogp_t *q, const hc_problem_t *pb, const uint32_t *nodes, uint32_t n);
double hc__plogp_gap(const hc__plogp_t *q, uint64_t bytes);

/* ---------------------------------------------------------------- classic broadcasts
 * A classic broadcast of 004 Table 1: a tree shape over ranked nodes and its Table 1 formula.
 * One descriptor per algorithm file (const hc__bc_classic_t hc__classic_<ident>), registered by
 * an HC_BCAST_CLASSIC row of algos.def; the registry entry hc__algo_<ident> is generated. */
/* Parameters of a Table 1 formula: P nodes, latency L, lg = log2 P, k segments of s bytes,
 * gm = g(m), gs = g(s). */
typedef struct hc__table1 {
    double P, L, lg, k, gm, gs;
} hc__table1_t;

typedef struct hc__bc_classic {
    const char *name;
    /* 1 = cuts the message into segments of a chosen size (hc__bc_choose searches it). */
    int segmented;
    /* Segments used on n nodes for a msg-byte message and segment size segbytes; NULL = 1, or
     * ceil(msg / segbytes) when segmented. */
    uint32_t (*nseg)(uint32_t n, uint64_t msg, uint64_t segbytes);
    /* The tree: broadcast from nodes[0] (holding every segment) to nodes[1..n-1], n >= 2, k
     * segments (hc__bc_seg_bytes gives segment i's size); set parent[] of nodes[1..] with
     * hc__bc_set_parent. */
    int (*run)(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t msg, uint64_t segbytes,
               uint32_t k, int32_t *parent);
    /* 004 Table 1 prediction from the group's parameters (hc__bc_table1 fills them). */
    double (*table1)(const hc__table1_t *x);
} hc__bc_classic_t;

/* 004 Table 1 prediction of classic a with segment size s (whole message when 0 or >= m). */
double hc__bc_table1(const hc__bc_classic_t *a, const hc__plogp_t *q, uint64_t s);

#define HC_ALGO(coll, ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_EDGE(ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_CLASSIC(ident, name, flags, max_nodes, desc, paper)                               \
    extern const hc__bc_classic_t hc__classic_##ident;
#include "algos.def"
#undef HC_BCAST_CLASSIC
#define HC_BCAST_CLASSIC(ident, name, flags, max_nodes, desc, paper) hc__bc_index_##ident,
enum hc__bc_index {
#include "algos.def"
    HC__BC_COUNT
};
#undef HC_BCAST_CLASSIC
#undef HC_BCAST_EDGE
#undef HC_ALGO

/* The classics in algos.def order. */
extern const hc__bc_classic_t *const hc__bc_classics[HC__BC_COUNT];

/* Segments of ceil(msg / segbytes) (1 when segbytes is 0 or >= msg). */
uint32_t hc__bc_seg_count(uint64_t msg, uint64_t segbytes);
/* Bytes of segment i of k. */
uint64_t hc__bc_seg_bytes(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t i);
/* Piece offsets off[0..k] (off[0] = 0, off[k] = msg) of a message cut into k =
 * hc__bc_seg_count(msg, segbytes) pieces whose sizes grow linearly over the first `ramp`
 * pieces and shrink over the last `ramp` (piece j weighs min(j + 1, ramp, k - j); ramp is
 * clamped to 64); returns 1. Returns 0 with hc__bc_seg_bytes's pieces when ramp <= 1, k >
 * HC__MAX_SEG_FORCED or the smallest ramped piece would be empty. */
int hc__bc_ramp_offsets(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t ramp, uint64_t *off);
/* The same with odd pieces weighing odd / HC__BC_ODD_EQUAL of even ones besides (1 to
 * HC__BC_ODD_EQUAL; 0 or HC__BC_ODD_EQUAL: equal), so that pieces alternate between two sizes;
 * returns 1 when the pieces are weighted. Without weights, or when the lightest piece would be
 * empty, pieces of segbytes (those past msg empty: k pieces must cover msg) and 0. */
#define HC__BC_ODD_EQUAL 1024u
int hc__bc_piece_offsets(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t ramp, uint32_t odd,
                         uint64_t *off);
/* parent[v] = p when parent is not NULL. */
void hc__bc_set_parent(int32_t *parent, uint32_t v, uint32_t p);
/* Number of segments used by classic a on n nodes with segment size segbytes. */
uint32_t hc__bc_nseg(const hc__bc_classic_t *a, uint32_t n, uint64_t msg, uint64_t segbytes);
/* Broadcast from nodes[0] to nodes[1..n-1] with classic a; nodes[0] must hold every segment
 * (it is pb->root, or was given everything with hc__bb_give_all). Ranks follow `nodes`. */
int hc__bc_run(hc__bb_t *b, const hc__bc_classic_t *a, const uint32_t *nodes, uint32_t n,
               uint64_t segbytes, int32_t *parent);
/* A classic on the whole problem, ranks = root, root+1, ... (mod P); segment size
 * opts->segment_bytes, or the best predicted one for this algorithm. */
int hc__bcast_classic_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               const hc__bc_classic_t *a, hc_schedule_t **out);

/* Best prediction over the classics and segment sizes s = m/2^i (k <= HC__MAX_SEG). */
#define HC__MAX_SEG 1024u
/* A forced segment size (opts->segment_bytes) may cut the message into at most this many. */
#define HC__MAX_SEG_FORCED 65536u
/* HC_ERR_VALUE naming the sizes when opts->segment_bytes gives more than HC__MAX_SEG_FORCED. */
int hc__bcast_check_segment(const hc_problem_t *pb, const hc_algo_opts_t *opts);
typedef struct hc__bc_choice {
    const hc__bc_classic_t *algo;
    uint64_t seg;
    double predicted;
} hc__bc_choice_t;
/* Prediction = replay of the classic on a virtual homogeneous group where every x-byte
 * transfer lasts L + g(x) (the 1-port reading of pLogP; see docs/model.md). table (may be
 * NULL): HC__BC_COUNT entries, the best segment size of each classic. fixed_seg > 0 forces the
 * segment size. Ties keep the earlier classic. */
void hc__bc_choose(const hc__plogp_t *q, uint64_t fixed_seg, hc__bc_choice_t *best,
                   hc__bc_choice_t *table);

/* ---------------------------------------------------------------- greedy edge engine
 * 002 §2 / 004 §5.2: repeatedly select an edge from a node holding the message to one that does
 * not. A rule says how edges are keyed; one descriptor per algorithm file (const
 * hc__edge_rule_t hc__edge_<ident>), registered by an HC_BCAST_EDGE row (or, for `flat`, named
 * by its classic descriptor's file). */
typedef struct hc__edge_rule {
    const char *name;
    int root_only; /* only the root sends (flat) */
    int ready;     /* the key adds the sender's ready time (ECEF family) */
    /* Look-ahead term F_j added to the key (NULL = none): n x n costs c (INFINITY = no edge),
     * per-node extra time T (may be NULL), inA[k] = k holds the message. */
    double (*lookahead)(const double *c, const double *T, const unsigned char *inA, uint32_t n,
                        uint32_t j);
} hc__edge_rule_t;

#define HC_ALGO(coll, ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_CLASSIC(ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_EDGE(ident, name, flags, max_nodes, desc, paper)                                  \
    extern const hc__edge_rule_t hc__edge_##ident;
#include "algos.def"
#undef HC_BCAST_EDGE
#define HC_BCAST_EDGE(ident, name, flags, max_nodes, desc, paper) hc__edge_index_##ident,
enum hc__edge_index {
    hc__edge_index_flat_,
#include "algos.def"
    HC__EDGE_COUNT
};
#undef HC_BCAST_EDGE
#undef HC_BCAST_CLASSIC
#undef HC_ALGO
/* flat's root-only rule (bcast_flat.c), the first of the inter-cluster rules */
extern const hc__edge_rule_t hc__edge_bcast_flat;
/* The rules of hier-auto in order: flat, then the HC_BCAST_EDGE rows. */
extern const hc__edge_rule_t *const hc__edge_rules[HC__EDGE_COUNT];

/* Greedy selection on n nodes. c: n x n costs (INFINITY = forbidden edge); port (n x n, or
 * NULL = c) is how long edge i -> j keeps i's send port busy (pLogP: the latency overlaps the
 * sender's next send); T: per-node extra time or NULL; root: the first holder. Output: from[i],
 * to[i] for the n-1 selected edges in selection order. HC_ERR_VALUE when some node is
 * unreachable. */
int hc__edge_select(const hc__edge_rule_t *rule, uint32_t n, const double *c, const double *port,
                    const double *T, uint32_t root, uint32_t *from, uint32_t *to);
/* n x n port times of the edges among nodes[0..n-1] (diagonal INFINITY) for whole-message
 * transfers on pb, or NULL when pb keeps whole-duration ports (then *out = NULL and HC_OK). */
int hc__bcast_port_matrix(const hc_problem_t *pb, const uint32_t *nodes, uint32_t n, double **out);
/* Node-level greedy broadcast as a complete schedule (whole message, one tree). */
int hc__edge_schedule(const hc_problem_t *pb, const hc__edge_rule_t *rule, hc_schedule_t **out);

/* ---------------------------------------------------------------- hierarchy composer
 * 004 §5.2: clusters from the platform labels (the root's first; unlabelled nodes are
 * singletons), a coordinator each (the root, else the member cheapest to reach from the other
 * clusters), coordinator costs and port times. */
typedef struct hc__cluster {
    uint32_t *nodes; /* coordinator first */
    uint32_t n;
    hc__plogp_t q;
    hc__bc_choice_t choice; /* model-best inside the cluster */
    uint32_t nseg;
    double T; /* intra-cluster broadcast time from its coordinator */
} hc__cluster_t;

typedef struct hc__hier {
    const hc_problem_t *pb;
    hc__cluster_t *cl;
    uint32_t nc;
    double *c;    /* nc x nc coordinator costs */
    double *port; /* nc x nc coordinator port times, NULL = whole-duration ports */
    double *T;
    uint32_t *from, *to;
} hc__hier_t;
int hc__hier_init(hc__hier_t *h, const hc_problem_t *pb);
void hc__hier_free(hc__hier_t *h);

/* Hierarchical (grid) broadcast, 004 §5.2: coordinators joined by `rule`, then model-best inside
 * each cluster. HC_ERR_UNSUPPORTED without a platform. */
int hc__bcast_hier_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                            const hc__edge_rule_t *rule, hc_schedule_t **out);
/* 1 when opts asks for (or auto-selects) the hierarchical broadcast on pb. */
int hc__bcast_use_hier(const hc_problem_t *pb, const hc_algo_opts_t *opts);
/* Heterogeneous heuristic entry point: hierarchical when hc__bcast_use_hier, else node level. */
int hc__bcast_hetero(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                     const hc__edge_rule_t *rule, hc_schedule_t **out);

#endif
