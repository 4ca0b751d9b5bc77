/* The algorithm registry: one row per algorithm in src/sched/algos.def. */
#ifndef HETCOLL_ALGO_H
#define HETCOLL_ALGO_H

#include <stddef.h>
#include <stdint.h>

#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options every algorithm receives; each reads what concerns it. Start from
 * hc_algo_opts_default. Pointers are borrowed. */
typedef struct hc_algo_opts {
    uint64_t seed;         /* randomised algorithms (default 1) */
    double time_limit_s;   /* search algorithms; 0 = no limit (default) */
    const uint32_t *order; /* reduce `ep`: send order (node ids), NULL = algorithm's own */
    uint32_t order_len;
    int hierarchy;          /* bcast: -1 auto (labels when the platform has clusters),
                               0 none, 1 cluster labels (default -1) */
    uint64_t segment_bytes; /* bcast pipelined algorithms: 0 = algorithm chooses (default) */
    double alpha;           /* TTCC switch cost, fraction of the mean edge time (default 0) */
    int verbose;            /* algorithms may fill schedule->note with more detail */
} hc_algo_opts_t;

void hc_algo_opts_default(hc_algo_opts_t *o);

typedef int (*hc_algo_fn)(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out);

typedef struct hc_algo_info {
    hc_coll_t coll;
    const char *name;        /* CLI name, e.g. "ecef-la" */
    const char *description; /* one line */
    const char *paper;       /* source, e.g. "000 §4.2" */
    hc_algo_fn fn;
} hc_algo_info_t;

/* Number of registered algorithms and the i-th one (static storage). */
size_t hc_algo_count(void);
const hc_algo_info_t *hc_algo_get(size_t i);

/* Find by collective and name. HC_ERR_UNKNOWN lists the valid names in the detail. */
int hc_algo_find(hc_coll_t coll, const char *name, const hc_algo_info_t **out);

/* Comma-separated names of the algorithms of one collective, into buf. */
void hc_algo_names(hc_coll_t coll, char *buf, size_t len);

/* Check the problem, run the named algorithm, stamp the schedule with its name and fill
 * lower_bound (when the algorithm left it NAN) and makespan. Caller frees *out. */
int hc_schedule_compute(const hc_problem_t *pb, const char *algo, const hc_algo_opts_t *opts,
                        hc_schedule_t **out);

#ifdef __cplusplus
}
#endif
#endif
