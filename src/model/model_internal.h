/* Internal declarations of src/model: what the schedulers (src/sched) and the simulator
 * (src/sim) both need, so that neither depends on the other. Not installed.
 * Layers (scripts/layer_check.sh): core <- net <- model <- {sched, sim} <- mpi <- tools. */
#ifndef HETCOLL_MODEL_INTERNAL_H
#define HETCOLL_MODEL_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include "../core/internal.h"

/* The one tolerance of the validator, the simulator and the tests: 1e-9 relative plus 1e-12
 * absolute. Inline so that every user computes exactly 1e-9 * |x| + 1e-12. */
#define HC__TOL_REL 1e-9
#define HC__TOL_ABS 1e-12
static inline double hc__tol(double x)
{
    return HC__TOL_REL * fabs(x) + HC__TOL_ABS;
}

/* The platform hc_problem_nodes(pb) indexes (a redistribution built on a platform), or NULL.
 * Borrowed from the problem's spec. */
const hc_platform_t *hc__problem_node_platform(const hc_problem_t *pb);

/* |a - b| <= hc__tol(max(|a|, |b|)) (src/model/event_order.c). */
int hc__close(double a, double b);

/* Event indices 0..n-1 sorted by planned start, ties by index (a stable merge sort, so it is
 * reentrant and O(n log n)). *out is malloc'd; the caller frees it. */
int hc__event_order(const hc_event_t *ev, size_t n, size_t **out);

/* The TTCC replay of a two-tree broadcast (src/model/ttcc.c, semantics there): dur[i] is the
 * duration of event i, alpha_abs the switch cost (s); st/en: out, E entries (NAN for
 * cancelled or skipped events); have: out, P entries (when each node holds the message). */
int hc__ttcc_replay(const hc_schedule_t *s, const double *dur, double alpha_abs, double *st,
                    double *en, double *have, double *makespan);

/* TTCC makespan of a two-tree schedule replayed on its own event durations, alpha 0 (the planned
 * makespan; hc_schedule_finish and the validator use it when parent2 is set). When the schedule
 * cannot be replayed (segmented, incomplete), the largest event end. */
double hc__ttcc_makespan(const hc_schedule_t *s);

#endif
