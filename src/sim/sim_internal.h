/* Internal declarations of src/sim. Not installed. */
#ifndef HETCOLL_SIM_INTERNAL_H
#define HETCOLL_SIM_INTERNAL_H

#include "../model/model_internal.h"

/* TTCC replay on true durations (src/sim/sim_ttcc.c), called by hc_simulate for schedules with
 * parent2. */
int hc__simulate_ttcc(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t **out);

/* Dependency edges of the replays: b waits for a (kinds in src/sim/sim.c). */
enum { HC__EDGE_DATA = 0, HC__EDGE_SEND = 1, HC__EDGE_RECV = 2 };
typedef struct {
    size_t *from, *to;
    unsigned char *kind;
    size_t n, cap;
} hc__edges_t;
/* Append (growing the arrays). */
int hc__edges_add(hc__edges_t *g, size_t a, size_t b, int kind);

/* A broadcast's data edges (src/sim/sim.c): the event that brings segment g to node u (or the
 * whole message) precedes u's sends of g; a node that got the message as segments sends it
 * whole after all its receives. `order`: the events by planned start. */
int hc__bcast_data_edges(const hc_schedule_t *s, const hc_problem_t *truth, const size_t *order,
                         hc__edges_t *g);

/* A redistribution's steps cover its events in order (src/sim/sim.c). */
int hc__check_steps(const hc_schedule_t *s);

/* The flow network (src/sim/sim_flow.c): s executed as the MPI runtime executes it, its
 * transfers sharing truth's links; fills r->events (copied from s) times and r->makespan. */
int hc__simulate_flow(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t *r);

#endif
