/* The total exchange (alltoall) toolkit, 000 §4. Internal, not installed.
 *
 * Every alltoall algorithm of hetcoll produces an ORDER (a list of messages) and times it with
 * hc__a2a_time: messages are taken in list order and each starts at
 *     max(end of its sender's previous send, end of its receiver's previous receive).
 * This is exactly the replay rule of hc_simulate (per-node send and receive orders by planned
 * start, earliest start), so the planned makespan equals the replay with sigma 0 bit for bit.
 *
 * A message i -> j is "sent" when i != j and costs[i][j] > 0; zero-cost messages are left out. */
#ifndef HETCOLL_ALLTOALL_COMMON_H
#define HETCOLL_ALLTOALL_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "../core/internal.h"
#include "algos.h"

/* One message of a total exchange. */
typedef struct hc__a2a_msg {
    uint32_t src, dst;
} hc__a2a_msg_t;

/* 1 when the message i -> j is sent (i != j, cost > 0). */
static inline int hc__a2a_sent(const hc_matrix_t *c, uint32_t i, uint32_t j)
{
    return i != j && HC_AT(c, i, j) > 0;
}

/* Number of messages that are sent. */
size_t hc__a2a_count(const hc_matrix_t *c);

/* Lower bound of 000 §4.1 on the sent messages: max over nodes of total send and receive. */
double hc__a2a_lower_bound(const hc_matrix_t *c);

/* Makespan of the list timed with the replay rule. sfree/rfree: P doubles of workspace each
 * (overwritten). start: NULL or n doubles receiving each message's start time. */
double hc__a2a_time(const hc_matrix_t *c, const hc__a2a_msg_t *list, size_t n, double *sfree,
                    double *rfree, double *start);

/* Build the schedule of a list (timed with hc__a2a_time): events carry sizes[src][dst] bytes
 * when pb->sizes is set, else pb->msg_bytes. Sets lower_bound and makespan; the caller may set
 * the algorithm name and note. Caller frees *out. */
int hc__a2a_build(const hc_problem_t *pb, const hc__a2a_msg_t *list, size_t n, hc_schedule_t **out);

/* The matching series of 000 §4.3: P-1 complete matchings of maximum (maximize = 1) or minimum
 * weight found one after the other with the LAP solver (lap.h), the edges of each removed before
 * the next; the diagonal is never used. Appends the sent messages step by step to list (room for
 * hc__a2a_count messages) and sets *n. O(P^4) worst case, much less with warm duals. */
int hc__a2a_matching_series(const hc_matrix_t *c, int maximize, hc__a2a_msg_t *list, size_t *n);
/* The whole of maxmatch (maximize = 1) and minmatch (0): hc__a2a_matching_series of pb->costs
 * built into a schedule; errors name `algo`. Caller frees *out. */
int hc__a2a_matching_schedule(const hc_problem_t *pb, int maximize, const char *algo,
                              hc_schedule_t **out);

/* openshop-lb's improvement step (alltoall_openshop_lb.c, exposed for the tests): hill climbing
 * on the critical path; the order is rewritten in start order and *makespan set to its
 * replay-rule makespan (never above the input's). */
int hc__a2a_polish(const hc_matrix_t *c, hc__a2a_msg_t *list, size_t n, size_t max_evals,
                   hc_rng_t *rng, double *makespan);

/* ---- the LB-driven dense list scheduler (alltoall_openshop_lb.c), shared with `auto` ---- */

/* Options of one constructive run. */
typedef struct hc__a2a_dense_opts {
    int rule;         /* priority rule: 0 = max(remaining send of i, remaining recv of j), then sum;
                         1 = sum; 2 = bottleneck-first sender side; 3 = receiver side */
    double noise;     /* multiplicative noise on node weights (0 = deterministic) */
    hc_rng_t *rng;    /* used when noise > 0 */
    int reverse;      /* schedule the transposed problem and reverse the order */
    double crit;      /* reservations for nodes whose slack is below crit * LB (0 = none) */
    uint32_t max_res; /* at most this many reservations at once (0 = no limit) */
} hc__a2a_dense_opts_t;

/* Workspace of the dense scheduler for a P-node problem. */
typedef struct hc__a2a_dense hc__a2a_dense_t;
int hc__a2a_dense_create(const hc_matrix_t *c, hc__a2a_dense_t **out);
void hc__a2a_dense_destroy(hc__a2a_dense_t *d);
/* One run: writes the order of the n = hc__a2a_count messages into list, returns makespan. */
double hc__a2a_dense_run(hc__a2a_dense_t *d, const hc__a2a_dense_opts_t *o, hc__a2a_msg_t *list);

/* Best-of search used by `openshop-lb` and `auto`: deterministic rules, both directions, then
 * randomised restarts and order improvement until `budget` runs or makespan <= LB (1 + 1e-12).
 * Writes the best order into list (n messages), returns its makespan; *runs_out = runs made. */
int hc__a2a_lb_search(const hc_matrix_t *c, uint64_t seed, size_t budget, hc__a2a_msg_t *list,
                      double *makespan, size_t *runs_out, char *why, size_t why_len);

/* Algorithms called by `auto` (same prototypes as the registry's). */
int hc__algo_alltoall_openshop(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out);
int hc__algo_alltoall_greedy(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out);
int hc__algo_alltoall_maxmatch(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out);
int hc__algo_alltoall_minmatch(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out);
int hc__algo_alltoall_openshop_lb(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                  hc_schedule_t **out);

/* ---- exchanges in pieces (`pieces`, `pieces-cross`) ---- */

/* Cuts post-all's schedule *s (its piece_groups set or NULL) into pieces of `forced` bytes
 * (0: the default, HC__A2A_PIECE_BYTES, or whole messages when that makes more than
 * HC__A2A_PIECES_DEFAULT transfers) and notes it; `algo` names the algorithm in errors. A forced
 * size making more than HC__A2A_PIECES_MAX transfers is an error: *s is destroyed and NULL. */
#define HC__A2A_PIECE_BYTES 8192u
#define HC__A2A_PIECES_DEFAULT 16384u
/* 3-site grid (63 ranks), 1 MiB per pair: its cross-site messages in 9360 B pieces make 300258
 * transfers, predicted 142.9 s (the link bound) against 165.3 s whole under SMPI's model */
#define HC__A2A_PIECES_MAX 524288u
int hc__a2a_cut(hc_schedule_t **s, uint64_t forced, const char *algo);

/* The nodes of pb grouped so that the messages between two nodes of a group cross none of the
 * busiest links: each link's load is the time its messages would take it alone (bytes over
 * bandwidth, both directions of a shared link together, each direction of a split-duplex one on
 * its own, fatpipes never loaded); the links loaded at least half the heaviest are the busy ones,
 * and two nodes are joined when neither's route to the other crosses one (then transitively).
 * groups[i] is the smallest node id of i's group. Needs pb->platform with a route for every
 * pair (else HC_ERR_VALUE); *n_groups receives the number of groups. */
int hc__a2a_busy_groups(const hc_problem_t *pb, int32_t *groups, uint32_t *n_groups);

#endif
