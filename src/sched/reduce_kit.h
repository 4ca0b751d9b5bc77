/* The reduction toolkit (reduce_kit.c): helpers the reduction algorithms call (003,
 * Liu/Sheng/Yang): send times, the count-model earliest-possible (EP) times and the explicit
 * pairing. Internal, not installed. */
#ifndef HETCOLL_REDUCE_COMMON_H
#define HETCOLL_REDUCE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "../core/internal.h"
#include "algos.h"

/* 003's model: t[i] = C[i][j] for every j != i, for every non-root i (t[root] =
 * 0). Rows must be constant (every off-diagonal entry within 1e-12 relative of
 * the first); otherwise HC_ERR_UNSUPPORTED naming `algo`, the row and two
 * differing entries, pointing at the `-pq` variants. `t` holds P doubles. */
int hc__reduce_send_times(const hc_problem_t *pb, const char *algo, double *t);

/* Count-model EP start times (003 Figure 3) of m jobs in the given order on n
 * processors (n - 1 >= m): job i (1-based) starts at max(start of job i-1, the
 * (2i-n)-th smallest completion among jobs 1..i-1) (0 when 2i - n <= 0). `work`
 * holds m doubles (scratch). O(m log m). */
void hc__reduce_ep_times(uint32_t n, const double *dur, uint32_t m, double *start, double *work);

/* Check that order[0..len) lists every non-root node exactly once. */
int hc__reduce_check_order(const hc_problem_t *pb, const uint32_t *order, uint32_t len);

/* Build a reduction schedule from P - 1 jobs: order[k] is a non-root node
 * sending at start[k] for t[order[k]] seconds (start nondecreasing, count
 * condition 2A + C <= P satisfied, as EP gives). Receivers are assigned by the
 * reverse greedy of docs/design.md "Reduction": jobs by decreasing end, each to
 * an idle node that sends at or after that end (the earliest such), the root
 * otherwise. HC_ERR_INTERNAL when no receiver exists (the count condition
 * failed). Events are added by (start, end). Caller frees *out. */
int hc__reduce_build(const hc_problem_t *pb, const uint32_t *order, const double *start,
                     const double *t, hc_schedule_t **out);

/* Add the event v -> p (`bytes`, multi-tree index `tree`) at the earliest time of the
 * half-duplex 1-port plan the tree reductions use (multitree, two-tree): both nodes free
 * (free_at) and every child of v in (ready); then updates free_at[v], free_at[p], ready[p]. */
int hc__reduce_add_tree_event(hc_schedule_t *s, const hc_problem_t *pb, uint32_t v, uint32_t p,
                              uint64_t bytes, uint8_t tree, double *free_at, double *ready);
/* The events of one tree (parent[v]: v's parent, UINT32_MAX for the root), children before
 * parents (breadth first from the root, reversed; ord: P entries of scratch), each added by
 * hc__reduce_add_tree_event with `bytes` and `tree`; ready is reset first. HC_ERR_INTERNAL naming
 * `what` when the tree misses nodes. */
int hc__reduce_add_tree(hc_schedule_t *s, const hc_problem_t *pb, const uint32_t *parent,
                        uint32_t *ord, uint64_t bytes, uint8_t tree, double *free_at, double *ready,
                        const char *what);

/* The send order of ep and ep-pq: opts->order (checked with hc__reduce_check_order) when
 * given, else the non-root nodes by increasing id. `order` holds P - 1 entries. */
int hc__reduce_given_order(const hc_problem_t *pb, const hc_algo_opts_t *opts, uint32_t *order);

/* A send order of the non-root nodes from the constant-row send times t (the decision of ep,
 * snf). */
typedef int (*hc__reduce_order_fn)(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                   const double *t, uint32_t *order);
/* EP times (003 §3) and pairing of the constant-row send times t(i) for the senders in the order
 * order_of gives; errors name `algo`. The body of ep and snf. Caller frees *out. */
int hc__reduce_ep_schedule(const hc_problem_t *pb, const char *algo, const hc_algo_opts_t *opts,
                           hc__reduce_order_fn order_of, hc_schedule_t **out);

/* Timespec-free wall clock in seconds (C11 timespec_get), for search time
 * limits. */
double hc__reduce_now(void);

/* Sender-receiver costs (the -pq variants, 003's future work): list schedule of the senders in
 * `order` (the P - 1 non-root nodes). Sender order[k] sends once all its receives are done, to
 * the receiver among the root and the nodes after it in `order` that ends the send earliest
 * (start = max(ready of both), end = start + C[s][r]; ties to the node latest in the order, the
 * root last of all). Times follow the simulator's replay rule. Caller frees *out. */
int hc__reduce_pq_list(const hc_problem_t *pb, const uint32_t *order, hc_schedule_t **out);

/* Senders by non-increasing mean row cost (over j != i), ties by id: SNF for C[i][j]
 * (reduce_snf_pq.c; bnb-pq starts from it). */
int hc__reduce_pq_snf_order(const hc_problem_t *pb, uint32_t *order);

#endif
