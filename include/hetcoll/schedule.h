/* Problems (what to schedule) and schedules (timed communication events), their JSON form,
 * the validator and the lower bounds.
 *
 * Units: seconds as double, bytes as uint64_t, node ids 0-based. */
#ifndef HETCOLL_SCHEDULE_H
#define HETCOLL_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "cost.h"
#include "matrix.h"
#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    HC_COLL_ALLTOALL = 0,
    HC_COLL_REDISTRIBUTE = 1,
    HC_COLL_BCAST = 2,
    HC_COLL_REDUCE = 3
} hc_coll_t;
#define HC_COLL_COUNT 4

/* "alltoall", "redistribute", "bcast", "reduce". */
const char *hc_coll_name(hc_coll_t c);
int hc_coll_parse(const char *name, hc_coll_t *out);

/* Current version of the schedule JSON format. */
#define HC_SCHEDULE_FORMAT "hetcoll-schedule/1"

/* One communication event. */
typedef struct hc_event {
    uint32_t src, dst; /* node ids (redistribute: dst in n1..n1+n2-1) */
    double start, end; /* seconds */
    uint64_t bytes;    /* payload */
    uint32_t seg;      /* segment index of a pipelined bcast, else 0 */
    uint32_t step;     /* redistribution step, else 0 */
    uint8_t tree;      /* TTCC: 0 original tree, 1 redundant tree */
} hc_event_t;

/* A scheduling problem. A plain struct filled by the caller (start from hc_problem_init); it
 * borrows every pointer, nothing is freed by the library.
 *
 * costs: planned durations in seconds.
 *   alltoall      P x P, C[i][j] = message i -> j; 0 means "not sent"; diagonal ignored.
 *   bcast         P x P, C[i][j] = whole message (msg_bytes) i -> j.
 *   reduce        P x P, C[i][j] = time for i to send its partial result to j. In 003's model
 *                 every row is constant: C[i][j] = t(i).
 *   redistribute  n1 x n2, C[i][j] = time to move the traffic from node i of cluster 1 to
 *                 node j of cluster 2 (001's matrix M; 0 = nothing to send).
 * sizes: optional bytes, same shape as costs; events carry them. When NULL, events carry
 *   msg_bytes (alltoall/bcast/reduce) or 0. */
typedef struct hc_problem {
    hc_coll_t coll;
    uint32_t P; /* nodes; redistribute: n1 + n2 */
    const hc_matrix_t *costs;
    const hc_matrix_t *sizes;
    uint64_t msg_bytes;
    /* Optional platform, for platform-aware algorithms (segment costs, clusters, pLogP
     * model choice). When set, costs were derived from it with `model` unless stated. */
    const hc_platform_t *platform;
    hc_model_t model;
    uint32_t root;   /* bcast, reduce */
    uint32_t n1, n2; /* redistribute: cluster sizes; node ids n1.. are cluster 2 */
    uint32_t k;      /* redistribute: at most k transfers per step */
    double beta;     /* redistribute: start-up cost of every step (s) */
} hc_problem_t;

/* Zero the struct and set coll, model = HOCKNEY. */
void hc_problem_init(hc_problem_t *pb, hc_coll_t coll);

/* Check a problem's consistency (shapes, P >= 2, root < P, values finite and >= 0, k >= 1 ...).
 * Errors say which field is wrong. */
int hc_problem_check(const hc_problem_t *pb);

/* Duration in seconds of event `e` on problem `pb` (the same rule for the validator and the
 * simulator):
 *   alltoall, reduce: costs[src][dst]
 *   bcast:            costs[src][dst] when e->bytes == msg_bytes; for a segment of other size
 *                     costs[src][dst] * p2p(bytes)/p2p(msg) with the platform's model, or
 *                     costs[src][dst] * bytes/msg without a platform
 *   redistribute:     the planned amount (e->end - e->start), as the steps fix it. */
double hc_problem_event_cost(const hc_problem_t *pb, const hc_event_t *e);

/* 1 when the transfers of `pb` follow pLogP port semantics: a broadcast (coll == BCAST) whose
 * model is HC_MODEL_PLOGP and whose platform is set. Every other problem (Hockney, no platform,
 * the other collectives) keeps the whole-duration port rule. */
int hc_problem_overlaps_latency(const hc_problem_t *pb);

/* Port time in seconds of event `e` on `pb`: how long the transfer occupies the sender's port
 * (from its start) and the receiver's port (up to its end). The single rule shared by the
 * broadcast planners, the validator and the simulator:
 *   pLogP broadcast (hc_problem_overlaps_latency): d * g / (L + g) with d =
 *                   hc_problem_event_cost(pb, e), L = latency(src, dst) and
 *                   g = hc_platform_gap(src, dst, bytes); with costs derived from the platform
 *                   this is exactly g_ij(bytes), and a distorted cost matrix scales it. The
 *                   sender is free again at start + port while the latency overlaps its next
 *                   send (004's pLogP); the receiver is busy during [end - port, end].
 *   otherwise:      d (the port is held for the whole transfer, 000's Hockney reading).
 * Two-tree (TTCC) broadcasts keep the whole-duration rule whatever the model (see
 * docs/design.md). Arrival is always start + d. */
double hc_problem_event_port_time(const hc_problem_t *pb, const hc_event_t *e);

/* A redistribution step: events [first, first + count) of the schedule. */
typedef struct hc_step {
    double start;    /* when the step begins; its transfers begin at start + beta */
    double duration; /* beta + longest transfer */
    size_t first, count;
} hc_step_t;

/* Branch-and-bound statistics (reduction). */
typedef struct hc_search_stats {
    double nodes_visited;
    double naive_space; /* (n-1)! / prod m_i! */
    double efficiency;  /* 1 - visited / naive */
    int optimal;        /* 1 when the search completed */
    double best_lower_bound;
} hc_search_stats_t;

typedef struct hc_schedule {
    hc_coll_t coll;
    char algorithm[48];
    uint32_t P;
    double makespan;    /* redistribute: the cost, sum of step durations */
    double lower_bound; /* NAN when unknown */
    hc_event_t *events;
    size_t n_events, cap_events;
    /* redistribute */
    uint32_t n1, n2, k;
    double beta;
    hc_step_t *steps;
    size_t n_steps, cap_steps;
    /* bcast / reduce */
    uint32_t root;
    uint32_t n_segments; /* bcast: 1 unless pipelined */
    int32_t *parent;     /* bcast: P entries, -1 for the root; NULL otherwise */
    int32_t *parent2;    /* bcast TTCC: redundant tree, or NULL */
    /* reduce */
    int has_search;
    hc_search_stats_t search;
    /* Free text for the text output (e.g. why `auto` chose what it chose); malloc'd or NULL. */
    char *note;
    /* Optional JSON object text whose members are added to the top level of the JSON output
     * (collective-specific extras, e.g. a prediction table); malloc'd or NULL. Parsing keeps
     * unknown top-level members here. */
    char *extra_json;
    /* Execution: the messages every node keeps in flight (total exchange; a segmented
     * broadcast: at least this many sends; a reduction: at least this many segments on the
     * nodes of its longest edges, hc_schedule_reduce_node_window, API 14); 0 = the rule of
     * hc_schedule_exec_windows, HC_WINDOW_ALL = every message at once. */
    uint32_t window;
    /* Execution of a reduction: the pipeline's segment in bytes; 0 = the rule of
     * hc_schedule_reduce_segment. (API 6) Of a total exchange: every message moves as the
     * hc_schedule_pieces pieces of about this size; 0 = whole messages. (API 12) Of a
     * segmented broadcast (n_segments > 1, no parent2): each piece moves as the
     * hc_schedule_message_pieces sub-messages of about this size, each its own send, the
     * piece held once all are in; 0 = whole pieces (API 21: under SimGrid's size classes the
     * pieces crossing sites pay a smaller latency factor in sub-messages of 1411 to 3468 B). */
    uint64_t segment_bytes;
    /* Of a total exchange in pieces (or a segmented broadcast in sub-messages, API 21; a
     * reduction in sub-messages, split_bytes, API 22): NULL (every message cut) or P group ids
     * in [0, P); a message between two nodes of one group then moves whole
     * (hc_schedule_message_pieces, hc_schedule_reduce_subs). `pieces-cross` groups the nodes
     * whose routes avoid the busiest links, so that only the messages crossing them are cut;
     * the runtime's broadcasts and reductions group the nodes by cluster (site). malloc'd;
     * hc_schedule_destroy frees it. (API 13) */
    int32_t *piece_groups;
    /* Execution: the window rule of hc_schedule_exec_windows counts every latency this many
     * times (0 or 1: as the platform gives them). Under SimGrid's size-dependent factors
     * (HETCOLL_FLOW_MODEL=smpi) a piece's latency and rate grow by its size class's factors,
     * which the plain rule does not see; a node-wide floor (window) would give every node the
     * window of the widest bandwidth-delay product, and a node receiving many pieces at once
     * starves its own sends there (each flow also loads its way back). The runtime offers
     * segmented broadcasts with the pieces' latency x bandwidth factors here, and 2 x and 4 x
     * them (several trees' senders crossing one uplink). (API 16) */
    double window_bdp_factor;
    /* Execution of a total exchange in pieces: the order each node posts its receives.
     * HC_RECV_MESSAGES (0): message by message in planned order, each message's pieces in turn;
     * HC_RECV_ROUND_ROBIN: piece 0 of every message in planned order, then piece 1, and so on
     * (each sender's pieces stay in order), so the pieces a window holds come from several
     * senders over several routes instead of one. Every send is then posted at once
     * (hc_schedule_exec_windows), which keeps the exchange free of deadlock whatever the
     * receive order. (API 17) */
    uint32_t recv_order;
    /* Execution of a reduction with piece_groups (API 22): a segment between two groups moves
     * as the hc_schedule_reduce_subs sub-messages of at most about this many bytes, each its
     * own send and receive, the segment combined once all are in; 0 = whole segments. Under
     * SimGrid's size classes the segments crossing sites pay a smaller latency factor in
     * sub-messages of 1411 to 3468 B (as a broadcast's pieces, segment_bytes above). */
    uint64_t split_bytes;
    /* Execution of a total exchange with piece_groups (API 23): HC_RELAY_NONE (0), or
     * HC_RELAY_FORWARDERS: every message between two groups moves in two phases through a
     * forwarder of its sender's group (hc_schedule_forwarder). Phase 1: each node sends each
     * other forwarder of its group one message holding its blocks for the destinations that
     * forwarder serves, in destination order. Phase 2: each forwarder, once it holds every
     * phase-1 message into it, sends each destination it serves one message holding the blocks
     * of every node of its group for that destination, in node order, cut into pieces as a
     * message between groups (hc_schedule_message_pieces). Messages inside a group move as
     * before. Every send and receive is posted at once (window is ignored). The events stay
     * the exchange's messages; a group's remote bytes cross its links in n_B messages per
     * remote group of n_B nodes instead of n_A x n_B (Jeannot and Steffenel's two-phase
     * exchange), in sizes SimGrid's size classes favour. The flow replay models it; the MPI
     * runtime does not execute it yet. */
    uint32_t relay;
    /* Of a total exchange in pieces with piece_groups (segment_bytes > 0; API 24): NULL (none) or
     * lead_groups x lead_groups counts, lead_groups above every piece_groups id. A message from
     * group a to another group b begins with min(L, ceil(bytes / lead_bytes)) lead pieces of
     * lead_bytes (the last of them shorter when the message ends there), L =
     * lead_pieces[a * lead_groups + b] (at most HC_SCHEDULE_MAX_PIECES); the rest of it is cut as
     * a message of its size (hc_schedule_pieces). Under SimGrid's size classes the far sites'
     * first bytes start sooner in pieces of 1411 to 3468 B (1.61 latencies against 2.19 for
     * 8 KiB pieces) and the rest keeps the 8 KiB class's rate (hc_schedule_message_pieces,
     * hc_schedule_message_piece_offset). Not with relay. malloc'd; hc_schedule_destroy frees
     * it. */
    uint64_t lead_bytes;
    uint32_t lead_groups;
    uint32_t *lead_pieces;
} hc_schedule_t;
#define HC_WINDOW_ALL UINT32_MAX
#define HC_RECV_MESSAGES 0u
#define HC_RECV_ROUND_ROBIN 1u
#define HC_RELAY_NONE 0u
#define HC_RELAY_FORWARDERS 1u

/* Empty schedule (makespan 0, lower_bound NAN, n_segments 1). Caller frees with
 * hc_schedule_destroy. */
int hc_schedule_create(hc_coll_t coll, uint32_t P, hc_schedule_t **out);
/* NULL-safe; frees everything the schedule holds. */
void hc_schedule_destroy(hc_schedule_t *s);
/* Append an event (copied). */
int hc_schedule_add_event(hc_schedule_t *s, const hc_event_t *e);
/* Append a redistribution step covering the events added since the previous step. Sets the
 * step's start to the end of the previous step (0 for the first) and duration to
 * beta + the longest event. The caller adds the step's events first with start/end set to
 * step_start + beta .. + amount; hc_schedule_close_step fixes them up to that rule. */
int hc_schedule_close_step(hc_schedule_t *s);
/* Allocate parent (and parent2 when two_trees) arrays filled with -1. */
int hc_schedule_alloc_trees(hc_schedule_t *s, int two_trees);
/* Set makespan: max event end, or the sum of step durations for redistribute. */
void hc_schedule_finish(hc_schedule_t *s);
/* Replace the note (printf-style). */
int hc_schedule_set_note(hc_schedule_t *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Deep copy. */
int hc_schedule_clone(const hc_schedule_t *s, hc_schedule_t **out);

/* JSON (docs/formats.md). Caller frees *out with free(). */
int hc_schedule_to_json(const hc_schedule_t *s, char **out);
int hc_schedule_parse(const char *text, const char *origin, hc_schedule_t **out);
int hc_schedule_load(const char *path, hc_schedule_t **out);

/* Validate. Structure always; durations (end - start == cost, relative tolerance 1e-9) and
 * message coverage too when `pb` is given (it must be the problem the schedule was made for,
 * or one of the same shape). The detail names the first violated rule and the event index.
 *   alltoall      every message with a nonzero cost exactly once, none other; no node in two
 *                 sends or two receives at once
 *   redistribute  each step a matching of at most k transfers; transfers inside their step;
 *                 every message's time fully covered; cost = sum of (beta + longest)
 *   bcast         every non-root node receives each segment exactly once, from a node that
 *                 already holds it; one send and one receive at a time per node (port
 *                 intervals: [start, end] for both, or with hc_problem_overlaps_latency and
 *                 one tree, [start, start + port] for the sender and [end - port, end] for
 *                 the receiver, port = hc_problem_event_port_time)
 *   reduce        each non-root sends exactly once, after all it receives, never receiving
 *                 afterwards; the root never sends; one communication at a time */
int hc_schedule_validate(const hc_schedule_t *s, const hc_problem_t *pb);

/* Lower bound on the makespan of any schedule for pb; hc_schedule_compute reports it in every
 * schedule (lower_bound), so that one bound per problem serves every ratio:
 *   alltoall      max over nodes of total send and total receive time (000 §4.1)
 *   redistribute  eta = eta_d + beta * eta_s (001 Proposition 1)
 *   bcast         max over nodes of the one-byte shortest-path time from the root and
 *                 (whole-duration ports) of the cheapest whole-message receive: valid for
 *                 segmented schedules too (src/sched/bound_bcast.c)
 *   reduce        see src/sched/bound_reduce.c */
int hc_lower_bound(const hc_problem_t *pb, double *out);

/* ---- execution: how the MPI runtime runs a schedule on platform p (the simulator's flow
 * network models the same) ---- */

/* Messages `node` keeps in flight in a total exchange or a segmented broadcast, in planned
 * order: 1 + floor(the largest latency of its messages / their median transfer time), at most
 * HC_EXEC_MAX_WINDOW, or, when the largest bandwidth-delay product of its messages needs more
 * of its largest messages in flight, at most 1 + ceil(that product / their bytes) (up to
 * HC_EXEC_MAX_BDP_WINDOW; grid5000's WAN, 5.3 ms at 125 MB/s, needs 42 pieces of 16 KiB),
 * so that transfers cover a latency (send q is posted once send q - window
 * completed, and, in a broadcast, once its segment arrived and send q - 1 was posted); 0 (all
 * at once) when every message of the node is at most HC_EXEC_SMALL_BYTES: their order hardly
 * matters and waiting for each costs more than it saves. A segmented broadcast keeps its
 * window however small its pieces, and sends them synchronously (MPI_Issend: the window
 * bounds the pieces in flight; eager pieces would all share a link at once). A broadcast posts
 * all its receives at once (*recv_window = 0). (Small whole-message broadcast sends are
 * likewise posted at once; larger whole-message ones one at a time.) */
#define HC_EXEC_MAX_WINDOW 16
#define HC_EXEC_MAX_BDP_WINDOW 256 /* (API 9) */
#define HC_EXEC_SMALL_BYTES 4096
/* A total exchange whose receives go round-robin (s->recv_order, API 17) posts every send at
 * once (*send_window = 0): its receive order differs from its senders' orders, and only sends
 * that are all posted keep every node's receives matchable. A schedule's own window (s->window)
 * replaces the rule; a segmented broadcast's is a floor on
 * each node's send window instead (a WAN sender keeps what covers its latency), and its
 * receives stay all posted. The rule counts every latency s->window_bdp_factor times (when
 * above 1; API 16). */
int hc_schedule_exec_windows(const hc_schedule_t *s, const hc_platform_t *p, uint32_t node,
                             uint32_t *send_window, uint32_t *recv_window);

/* The order in which a node posts the receives of a total exchange in pieces: its receives
 * carry cnt[0 .. n_msgs) pieces, in planned order; seq[0 .. sum of cnt) receives, in posting
 * order, each piece's index in the message-by-message listing (message 0's pieces, then
 * message 1's, ...). HC_RECV_MESSAGES: that listing; HC_RECV_ROUND_ROBIN: piece 0 of every
 * message, then piece 1, and so on (each message's pieces in order). The runtime posts by it
 * and the flow model replays by it. (API 18) */
void hc_schedule_recv_sequence(uint32_t recv_order, const uint32_t *cnt, size_t n_msgs,
                               size_t *seq);

/* A total exchange in pieces (segment_bytes > 0; a segmented broadcast's piece in sub-messages
 * likewise, API 21): a message of `bytes` moves as
 * n = min(ceil(bytes / segment_bytes), HC_SCHEDULE_MAX_PIECES) pieces, posted one after the other
 * in the message's place of the node's order; piece k (0 <= k < n) covers bytes
 * [floor(k * bytes / n), floor((k + 1) * bytes / n)). 1 for whole messages (segment_bytes 0,
 * a reduction, a redistribution, a broadcast in whole messages) and for empty ones. The cap keeps a
 * rank's messages within 2 x HC_SCHEDULE_MAX_PIECES x P, whatever piece size a schedule file names
 * (4 x with lead pieces, at most HC_SCHEDULE_MAX_PIECES more per message). (API 12) */
#define HC_SCHEDULE_MAX_PIECES 256u
uint32_t hc_schedule_pieces(const hc_schedule_t *s, uint64_t bytes);
/* Pieces of the message src -> dst of `bytes`: 1 when the schedule's piece_groups put src and
 * dst in one group, else hc_schedule_pieces(s, bytes), or with lead pieces (API 24) L leads plus
 * hc_schedule_pieces of the rest (L: the message's lead pieces, lead_pieces). (API 13) */
uint32_t hc_schedule_message_pieces(const hc_schedule_t *s, uint32_t src, uint32_t dst,
                                    uint64_t bytes);
/* Offset of piece k (0 <= k <= n, n = hc_schedule_message_pieces(s, src, dst, bytes); k == n:
 * bytes) of the message src -> dst of `bytes`: its lead pieces (lead_pieces) first, each of
 * lead_bytes, then the rest as hc_schedule_piece_offset cuts it. Without lead pieces,
 * hc_schedule_piece_offset(bytes, n, k). (API 24) */
uint64_t hc_schedule_message_piece_offset(const hc_schedule_t *s, uint32_t src, uint32_t dst,
                                          uint64_t bytes, uint32_t k);
/* Messages the schedule moves in all: hc_schedule_message_pieces summed over its events (the
 * number of events when it sends whole messages); 0 for NULL. (API 12) */
uint64_t hc_schedule_piece_count(const hc_schedule_t *s);
/* The node through which the message src -> dst of a total exchange moves (API 23): with
 * relay == HC_RELAY_FORWARDERS and src, dst in different piece_groups, the (k mod n)-th node
 * (in id order) of src's group of n nodes, k being dst's position (in id order) in its own
 * group; that may be src itself (the message then goes straight from src in phase 2). dst
 * otherwise (a direct message), and for NULL or nodes out of range. */
uint32_t hc_schedule_forwarder(const hc_schedule_t *s, uint32_t src, uint32_t dst);
/* Offset of piece k of a message of `bytes` cut into n pieces (k == n: bytes). (API 12) */
uint64_t hc_schedule_piece_offset(uint64_t bytes, uint32_t n, uint32_t k);

/* Segment size (bytes) of a pipelined reduction: the schedule's segment_bytes when set (the
 * runtime sets it on platforms with links, from the flow model), else: one tree, two segments
 * in flight per edge:
 * a segment pays its edge's latency again, so segments stay well above the largest
 * bandwidth-delay product of the tree's edges: 4 x BDP, at least 64 KiB (on a WAN, 12 ms x
 * 125 MB/s: 6 MB, i.e. whole messages). A multi-tree reduction (events with `tree` > 0): 64 KiB,
 * so that pieces pipeline through the sites, with hc_schedule_reduce_window in flight. */
uint64_t hc_schedule_reduce_segment(const hc_schedule_t *s, const hc_platform_t *p);
/* Segments a reduction keeps in flight per edge, schedule-wide (before API 7; the runtime now
 * uses hc_schedule_reduce_node_window): 2 for one tree; for a multi-tree reduction 1 +
 * ceil(largest BDP / segment), between 2 and HC_EXEC_MAX_WINDOW. */
uint32_t hc_schedule_reduce_window(const hc_schedule_t *s, const hc_platform_t *p);
/* The segments `node` keeps in flight per edge (sent to its parent, posted from each child),
 * what the runtime and the flow replay use: 1 + ceil(the largest bandwidth-delay product of
 * the node's own edges / segment), between 2 and HC_EXEC_MAX_BDP_WINDOW (API 9; before, at
 * most HC_EXEC_MAX_WINDOW: grid5000's WAN left idle); 2 for one tree in its
 * default segments. A window sized by the schedule's largest BDP gave a rack's chain as many
 * pieces in flight as the WAN needs, which then shared each NIC and arrived together (1 MiB
 * on the 3-site grid in 16 KiB pieces: 0.218 s in the flow model, 0.155 s with node windows).
 * (API 7) A reduction's own window (s->window) is a floor on the nodes with an edge whose
 * product is at least half the schedule's largest: the runtime sets it from SimGrid's
 * size-dependent latency and bandwidth factors, which the plain product does not see (the
 * 3-site grid's WAN, 8 KiB segments: 38 where the rule gives 17). (API 14) */
uint32_t hc_schedule_reduce_node_window(const hc_schedule_t *s, const hc_platform_t *p,
                                        uint32_t node);
/* A multi-tree reduction's paced sends (API 22). A node that sends as a leaf of at least
 * HC_EXEC_PACE_TREES trees (its own data, all ready at once: the stripes reduction's members)
 * would otherwise post them all at once; the NIC shared by every stream, no tree's data is
 * complete before the end, and none crosses the next (wide-area) hop early. Those sends go
 * instead one event after the other, each event's segments in order, synchronously
 * (MPI_Issend), at most *window in flight: in rounds (round r holds the r-th leaf send to each
 * destination, in tree order), a round's destinations from the node's successor on (by
 * (dst - node) mod P), so that the members of a site feed different entries at any moment
 * instead of all one. *window: 1 + ceil(the largest bandwidth-delay product of those sends /
 * segment), at least HC_EXEC_MAX_WINDOW and at most HC_EXEC_MAX_BDP_WINDOW. Writes the events
 * (indices into s->events) to events[0 .. *n), which has room for s->n_events; *n = 0 (and
 * *window = 0) when the node's sends are not paced. The runtime and the flow replay both use
 * it. (grid5000, 1 MiB in 56 stripes under SimGrid's factors: predicted 0.0406 s unpaced,
 * 0.0335 s paced.) */
#define HC_EXEC_PACE_TREES 3
/* Sub-messages of a reduction's segment of `bytes` from src to dst (API 22): 1 unless the
 * schedule has split_bytes and piece_groups that put src and dst in different groups, then
 * min(ceil(bytes / split_bytes), HC_SCHEDULE_MAX_PIECES); sub-message k covers
 * hc_schedule_piece_offset(bytes, n, k) .. (k + 1) (the runtime cuts whole elements the same
 * way). */
uint32_t hc_schedule_reduce_subs(const hc_schedule_t *s, uint32_t src, uint32_t dst,
                                 uint64_t bytes);
int hc_schedule_reduce_paced(const hc_schedule_t *s, const hc_platform_t *p, uint32_t node,
                             size_t *events, size_t *n, uint32_t *window);

#ifdef __cplusplus
}
#endif
#endif
