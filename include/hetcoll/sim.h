/* Discrete-event replay of a schedule on a "true" network (src/sim).
 *
 * Every node keeps the order of its sends and the order of its receives from the schedule
 * (by planned start). An event starts when its sender's previous send and its receiver's
 * previous receive have ended and its data dependency is met (bcast: the sender holds that
 * segment; reduce: the sender has received everything it receives). Reduction nodes are
 * half-duplex (one communication at a time), others full-duplex 1-port. Redistribution steps
 * end with a barrier. Durations come from hc_problem_event_cost on the true problem, times
 * the error factor and the slowdown factors. pLogP broadcasts (hc_problem_overlaps_latency on
 * the true problem): a transfer holds its sender's port only for [start, start + port] and its
 * receiver's for [end - port, end] (port = hc_problem_event_port_time, scaled like the
 * duration), the receive order being by planned end. Schedules with a redundant tree (TTCC)
 * use the TTCC semantics of 002 (first complete copy wins; switch cost alpha; whole-duration
 * ports under every model). */
#ifndef HETCOLL_SIM_H
#define HETCOLL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hc_sim_opts {
    uint32_t struct_size;   /* sizeof(hc_sim_opts_t), set by hc_sim_opts_init */
    double error_sigma;     /* each duration x max(error_floor, 1 + N(0, sigma)); 0 = exact */
    double error_floor;     /* default 0.01 */
    uint64_t seed;          /* error draws (default 1) */
    const double *slowdown; /* P factors (> 0) multiplying every event a node takes part in
                               (the larger of sender's and receiver's); NULL = none */
    double alpha;           /* TTCC switch cost, fraction of the mean edge time (default 0) */
    /* HC_NETWORK_PAIR (default): every pair its own link, durations from the problem's costs.
     * HC_NETWORK_FLOW: the schedule executed as the MPI runtime executes it (the windows of
     * hc_schedule_exec_windows, a reduction pipelined in hc_schedule_reduce_segment pieces,
     * eager small sends, a redistribution's steps separated by the runtime's star barrier, a
     * two-tree broadcast's race of its trees), its transfers sharing the links of the problem's
     * platform by max-min fairness (include/hetcoll/links.h; a platform without links: its NICs
     * and private pair links); error draws and slowdowns are not applied. */
    int network;
    /* With HC_NETWORK_FLOW: 1 = SMPI's default size-dependent latency and bandwidth factors
     * (hc_flow_opts_t.smpi_factors). Default 0. */
    int smpi_factors;
    /* With HC_NETWORK_FLOW: a send of fewer bytes leaves eagerly (the sender goes on at once
     * and the transfer starts when the receiver has posted its receive), as MPI's eager
     * protocol and SimGrid SMPI's detached sends (smpi/send-is-detached-thresh) do. Default
     * 65536 (Open MPI's TCP eager limit and SMPI's default); 0 = every send waits for its
     * transfer. A segmented broadcast's pieces never leave eagerly (the runtime sends them
     * with MPI_Issend). (API 4) */
    uint64_t eager_bytes;
} hc_sim_opts_t;

#define HC_NETWORK_PAIR 0
#define HC_NETWORK_FLOW 1

void hc_sim_opts_init(hc_sim_opts_t *o);
/* The name before API 2. */
#define hc_sim_opts_default hc_sim_opts_init

typedef struct hc_sim_result {
    double makespan;
    size_t n_events;
    hc_event_t *events; /* actual times, in the schedule's event order; for TTCC, events
                           that did not run (cancelled losers) have start = end = NAN */
    double *finish;     /* P entries: when each node completed its part */
} hc_sim_result_t;

/* Replay `s` on `truth` (the problem with the true costs; same shape as the planned one).
 * Caller frees *out with hc_sim_result_destroy. HC_ERR_INVALID_SCHEDULE when the orders
 * deadlock (a cyclic wait). */
int hc_simulate(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                hc_sim_result_t **out);

void hc_sim_result_destroy(hc_sim_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
