/* Internal helpers shared by the library's sources. Not installed. */
#ifndef HETCOLL_INTERNAL_H
#define HETCOLL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hetcoll/hetcoll.h"

/* Record a detail for this thread (printf-style) and return `status`, so that failing paths
 * read `return hc__error(HC_ERR_VALUE, "%s:%d: ...", file, line);`. */
int hc__error(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Allocation helpers: overflow-checked; they return NULL on failure without recording. */
void *hc__malloc(size_t n, size_t size);
void *hc__calloc(size_t n, size_t size);
void *hc__realloc(void *p, size_t n, size_t size);
char *hc__strdup(const char *s);

/* Read a whole text file: NUL-terminated, *len bytes (NULL: not wanted). Errors name the file:
 * missing, a directory, a NUL byte, empty, or larger than hc__max_input(). */
int hc__read_file(const char *path, char **out, size_t *len);
/* The input size limit: HETCOLL_MAX_INPUT (bytes) or HC__MAX_INPUT_DEFAULT. */
#define HC__MAX_INPUT_DEFAULT (1ull << 30)
uint64_t hc__max_input(void);
/* The largest platform (nodes): HETCOLL_MAX_NODES or HC__MAX_NODES_DEFAULT (16384: 4 GiB of
 * link tables). */
#define HC__MAX_NODES_DEFAULT 16384u
uint64_t hc__max_nodes(void);

/* Grow *arr (of *cap elements of `size`) to hold at least `need`. */
int hc__grow(void **arr, size_t *cap, size_t need, size_t size);

/* Propagate a non-OK status. */
#define HC__TRY(expr)                                                                              \
    do {                                                                                           \
        int hc__rc_ = (expr);                                                                      \
        if (hc__rc_ != HC_OK)                                                                      \
            return hc__rc_;                                                                        \
    } while (0)

/* Per-collective lower bounds (src/sched/bound_<coll>.c). */
int hc__lower_bound_alltoall(const hc_problem_t *pb, double *out);
int hc__lower_bound_redistribute(const hc_problem_t *pb, double *out);
int hc__lower_bound_bcast(const hc_problem_t *pb, double *out);
int hc__lower_bound_reduce(const hc_problem_t *pb, double *out);

/* TTCC replay (src/sim/sim_ttcc.c), called by hc_simulate for schedules with parent2. */
int hc__simulate_ttcc(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t **out);
/* TTCC makespan of a two-tree schedule replayed on its own event durations, alpha 0 (the planned
 * makespan; hc_schedule_finish uses it when parent2 is set). When the schedule cannot be
 * replayed (segmented, incomplete), the largest event end. */
double hc__ttcc_makespan(const hc_schedule_t *s);

#endif
