/* Selection as data (select.c): the `auto` of every collective. Internal, not installed. */
#ifndef HETCOLL_SELECT_H
#define HETCOLL_SELECT_H

#include "algos.h"
#include "sched_internal.h"

/* Seconds an exhaustive search may take inside `auto` beyond its auto_max_nodes. */
#define HC__AUTO_EXACT_S 2.0

/* 1 when row a is a candidate of `auto` on pb: same collective, flagged HC_ALGO_AUTO, within
 * auto_max_nodes (exhaustive searches: with a time limit, or within auto_max_nodes). */
int hc__select_applies(const hc_algo_info_t *a, const hc_problem_t *pb, const hc_algo_opts_t *opts);
/* Run every candidate of pb's collective in registry order and keep the lowest makespan (ties:
 * the earlier row); a candidate answering HC_ERR_UNSUPPORTED is left out. The note compares
 * them. Caller frees *out. */
int hc__select_best(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);

#endif
