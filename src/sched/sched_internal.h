/* Internal declarations of src/sched (schedule helpers, the validator, lower bounds). Not
 * installed. What the simulator shares with it lives in src/model/model_internal.h. */
#ifndef HETCOLL_SCHED_INTERNAL_H
#define HETCOLL_SCHED_INTERNAL_H

#include "../model/model_internal.h"

/* Per-collective lower bounds (src/sched/bound_<coll>.c), dispatched by hc_lower_bound. */
int hc__lower_bound_alltoall(const hc_problem_t *pb, double *out);
int hc__lower_bound_redistribute(const hc_problem_t *pb, double *out);
int hc__lower_bound_bcast(const hc_problem_t *pb, double *out);
int hc__lower_bound_reduce(const hc_problem_t *pb, double *out);

#endif
