/* Internal declarations of src/sim. Not installed. */
#ifndef HETCOLL_SIM_INTERNAL_H
#define HETCOLL_SIM_INTERNAL_H

#include "../model/model_internal.h"

/* TTCC replay on true durations (src/sim/sim_ttcc.c), called by hc_simulate for schedules with
 * parent2. */
int hc__simulate_ttcc(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t **out);

#endif
