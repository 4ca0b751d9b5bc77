/* Flow replays already made in one planning pass (src/mpi/plan.c), by content: the runtime's
 * planner offers many variants of many algorithms, and several come out identical (ep-pq, snf-pq
 * and bnb-pq build the same trees on grid5000; a window or ramp variant can leave the schedule
 * as it was). A replay is deterministic, so a schedule equal in every field a replay reads gets
 * the recorded prediction instead of a second replay. Apart from MPI so that it is unit tested
 * (tests/unit/test_replay_memo.c). */
#ifndef HC_MPI_REPLAY_MEMO_H
#define HC_MPI_REPLAY_MEMO_H

#include <stdint.h>

#include "hetcoll/hetcoll.h"

typedef struct hc__memo hc__memo_t;

/* An empty memo; *out NULL when out of memory (replays then go unrecorded). Free with
 * hc__memo_destroy. */
void hc__memo_create(hc__memo_t **out);
/* NULL-safe. */
void hc__memo_destroy(hc__memo_t *m);

/* s replayed on pb with options so (hc_simulate): *makespan the replay's makespan, recorded in
 * m, or the one recorded for an equal (pb, so, s) without replaying. The key is every field of
 * s but its name, results and texts (algorithm, makespan, lower_bound, search, note,
 * extra_json), and so's fields; pb by address, so a memo lives no longer than its problems.
 * m NULL, or so with slowdowns: a plain replay. Returns hc_simulate's status (failures are not
 * recorded). */
int hc__memo_replay(hc__memo_t *m, const hc_problem_t *pb, const hc_sim_opts_t *so,
                    const hc_schedule_t *s, double *makespan);

/* Replays answered from the memo so far (m NULL: 0). */
uint64_t hc__memo_hits(const hc__memo_t *m);

/* The memo records at most this many bytes of keys; beyond, replays go unrecorded. */
#define HC__MEMO_MAX_BYTES ((size_t)64 << 20)

#endif
