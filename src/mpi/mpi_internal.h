/* Internal declarations of the MPI runtime (libhetcoll_mpi). */
#ifndef HETCOLL_MPI_INTERNAL_H
#define HETCOLL_MPI_INTERNAL_H

#include <stdint.h>

#include "hetcoll/mpi.h"

/* This rank's events of a schedule, each list in planned order (ties by event index); for an
 * exchange the messages in flight per side (0: all at once), for a reduction the segment size.
 * Built once per plan. */
typedef struct hc__order {
    size_t *sends, *recvs; /* event indices */
    size_t ns, nr;
    uint32_t ws, wr;
    uint64_t seg_bytes; /* reduce: segment size (4 x the tree's largest BDP, >= 64 KiB) */
} hc__order_t;

/* Measured tuning (comm.c): when the model shortlists several schedules, a cached plan runs
 * each in turn for its first calls and keeps the fastest measured. */
#define HC__TUNE_MAX 5     /* candidates per plan */
#define HC__TUNE_TRIALS 9  /* calls per candidate, at most */
#define HC__TUNE_RATIO 3.0 /* shortlist: predicted within this factor of the best */
typedef struct hc__cand {
    hc_schedule_t *s;
    hc__order_t *order;
    double t[HC__TUNE_TRIALS]; /* measured call times (slowest rank) */
} hc__cand_t;

/* One cached plan. */
typedef struct hc__plan_entry {
    hc_coll_t coll;
    uint64_t hash; /* FNV-1a of the key words */
    uint64_t *key; /* the key words, compared exactly */
    size_t key_len;
    hc_schedule_t *s;   /* the schedule every rank executes */
    uint32_t *members;  /* redistribute: senders then receivers (ranks), else NULL */
    hc__order_t *order; /* this rank's part, built on first use (hc__plan_order) */
    uint64_t last_use;
    hc__cand_t cand[HC__TUNE_MAX]; /* while tuning: the candidates, cand[0].s == s */
    uint32_t n_cand, trials;       /* n_cand > 0: still tuning; trials run so far */
    double trial_start;            /* MPI_Wtime() when the running trial was selected */
} hc__plan_entry_t;

/* hc_alltoallv without gathering the sizes while they repeat (speculate.c). The state is the
 * same on every rank: it changes only on agreed outcomes. */
typedef struct hc__spec {
    unsigned streak;     /* consecutive calls that had the matrix below; >= 2: speculate */
    uint64_t hash;       /* FNV-1a of that size matrix */
    uint64_t *row, *col; /* this rank's send / receive bytes per peer in it */
    uint32_t *to, *from; /* peers in planned send / receive order */
    uint32_t ns, nr, ws, wr;
    int dense; /* every ordered pair exchanges a message */
    char algorithm[48];
    double makespan;
} hc__spec_t;

struct hc_comm {
    MPI_Comm comm; /* private duplicate: our tags never meet the application's */
    int rank, size;
    hc_platform_t *platform;
    hc_comm_opts_t opts;
    char algo[HC_COLL_COUNT][48]; /* resolved names (opts, then environment) */
    uint64_t epoch;
    hc__plan_entry_t *cache;
    unsigned n_cache;
    uint64_t clock;
    hc_comm_stats_t stats;
    char last_algo[48];
    double last_predicted;
    hc__spec_t spec;
    void *scratch; /* hc__scratch */
    size_t scratch_size;
};

/* Look up the plan for `key` or, on a miss, have rank 0 compute it with `build` and share it
 * with every rank. Collective. The entry stays owned by the cache (or by *tmp when the cache
 * is off; free it with hc__plan_entry_free). */
typedef int (*hc__build_fn)(hc_comm_t *c, const void *arg, hc_problem_t *pb, hc_matrix_t **costs,
                            hc_matrix_t **sizes, uint32_t **members, uint32_t *n_members);
int hc__plan_get(hc_comm_t *c, hc_coll_t coll, const uint64_t *key, size_t key_len,
                 hc__build_fn build, const void *arg, hc__plan_entry_t **entry,
                 hc__plan_entry_t *tmp);
void hc__plan_entry_free(hc__plan_entry_t *e);

/* What this call runs: the entry's plan, or while it is being tuned the candidate whose turn it
 * is (*trial = its index, else -1). */
int hc__plan_select(hc_comm_t *c, hc__plan_entry_t *e, const hc_schedule_t **s,
                    const hc__order_t **o, int *trial);
/* After a call with trial >= 0: agree on its time since hc__plan_select (the slowest rank's)
 * and, after the last trial, keep the winner. Collective; no-op for trial < 0. */
int hc__plan_trial_end(hc_comm_t *c, hc__plan_entry_t *e, int trial);

/* The entry's hc__order_t for this rank, built on first use (owned by the entry). */
int hc__plan_order(hc_comm_t *c, hc__plan_entry_t *e, const hc__order_t **out);
int hc__order_build(const hc_comm_t *c, const hc_schedule_t *s, hc__order_t **out);
void hc__order_free(hc__order_t *o);

/* One point-to-point message of an exchange. A receive's tag may be MPI_ANY_TAG; the tag that
 * arrived is written back. */
typedef struct {
    void *buf;
    int count;
    MPI_Datatype type;
    int peer, tag;
} hc__msg_t;

/* Post sends and receives in list order with at most ws / wr in flight per side (0: all at
 * once) and wait for all of them. Deadlock-free when the lists follow one global order. */
int hc__exchange_run(MPI_Comm comm, hc__msg_t *sends, size_t ns, uint32_t ws, hc__msg_t *recvs,
                     size_t nr, uint32_t wr);

/* The speculation state: allocated with the communicator, reset with the epoch. */
int hc__spec_init(hc_comm_t *c, int size);
void hc__spec_free(hc_comm_t *c);
/* Record the outcome of an alltoallv that gathered `bytes` (P x P) and ran plan `e`. */
void hc__spec_record(hc_comm_t *c, const uint64_t *bytes, hc__plan_entry_t *e);
/* When armed, run the exchange from the recorded plan without gathering. Returns MPI_SUCCESS
 * with *done = 1 when every rank's arguments matched it (the call is complete), *done = 0
 * when the caller must take the gathering path (same outcome on every rank). */
int hc__spec_try(hc_comm_t *c, int args_ok, const char *sendbuf, const int *sendcounts,
                 const int *sdispls, MPI_Datatype sendtype, char *recvbuf, const int *recvcounts,
                 const int *rdispls, MPI_Datatype recvtype, int *done);

/* A rough platform from a quick all-pairs probe (latency: 1-byte ping-pong, bandwidth: one
 * 1 MiB exchange), measured in rounds of disjoint pairs. Collective. */
int hc__mpi_quick_probe(MPI_Comm comm, hc_platform_t **out);

/* FNV-1a over the bytes of w[0..n-1], starting from h. */
uint64_t hc__fnv1a(const uint64_t *w, size_t n, uint64_t h);

/* Map an hc status to an MPI error class. */
int hc__mpi_err(int hc_status);

/* Segment k of n over `count` elements: [first, first + len). */
void hc__segment(int count, uint32_t n, uint32_t k, int *first, int *len);

/* Execute events of a pairwise exchange (alltoallv). */
int hc__exec_exchange(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o,
                      const char *sendbuf, const int *sendcounts, const int *sdispls,
                      MPI_Datatype sendtype, char *recvbuf, const int *recvcounts,
                      const int *rdispls, MPI_Datatype recvtype);
int hc__exec_bcast(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, char *buf, int count,
                   MPI_Datatype type);
int hc__exec_reduce(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, const char *mine,
                    char *acc, int count, MPI_Datatype type, MPI_Op op);
/* The communicator's scratch area, grown to at least `bytes` (kept between calls, so large
 * collectives do not map fresh pages every time). NULL when out of memory. */
void *hc__scratch(hc_comm_t *c, size_t bytes);
int hc__exec_redistribute(hc_comm_t *c, const hc_schedule_t *s, const uint32_t *members,
                          const char *sendbuf, const int *sendcounts, const int *sdispls,
                          char *recvbuf, const int *recvcounts, const int *rdispls,
                          MPI_Datatype type);
int hc__exec_ttcc(hc_comm_t *c, const hc_schedule_t *s, char *buf, int count, MPI_Datatype type);
#endif
