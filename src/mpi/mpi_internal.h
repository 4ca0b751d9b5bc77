/* Internal declarations of the MPI runtime (libhetcoll_mpi). */
#ifndef HETCOLL_MPI_INTERNAL_H
#define HETCOLL_MPI_INTERNAL_H

#include <stdint.h>

#include "hetcoll/mpi.h"

/* One cached plan. */
typedef struct hc__plan_entry {
    hc_coll_t coll;
    uint64_t hash; /* FNV-1a of the key words */
    uint64_t *key; /* the key words, compared exactly */
    size_t key_len;
    hc_schedule_t *s;  /* the schedule every rank executes */
    uint32_t *members; /* redistribute: senders then receivers (ranks), else NULL */
    uint64_t last_use;
} hc__plan_entry_t;

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

/* A rough platform from a quick all-pairs probe (latency: 1-byte ping-pong, bandwidth: one
 * 1 MiB exchange), measured in rounds of disjoint pairs. Collective. */
int hc__mpi_quick_probe(MPI_Comm comm, hc_platform_t **out);

/* Map an hc status to an MPI error class. */
int hc__mpi_err(int hc_status);

/* Segment k of n over `count` elements: [first, first + len). */
void hc__segment(int count, uint32_t n, uint32_t k, int *first, int *len);

/* Execute events of a pairwise exchange (alltoallv). */
int hc__exec_exchange(hc_comm_t *c, const hc_schedule_t *s, const char *sendbuf,
                      const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                      char *recvbuf, const int *recvcounts, const int *rdispls,
                      MPI_Datatype recvtype);
int hc__exec_bcast(hc_comm_t *c, const hc_schedule_t *s, char *buf, int count, MPI_Datatype type);
int hc__exec_reduce(hc_comm_t *c, const hc_schedule_t *s, char *acc, char *tmp, int count,
                    MPI_Datatype type, MPI_Op op);
int hc__exec_redistribute(hc_comm_t *c, const hc_schedule_t *s, const uint32_t *members,
                          const char *sendbuf, const int *sendcounts, const int *sdispls,
                          char *recvbuf, const int *recvcounts, const int *rdispls,
                          MPI_Datatype type);
int hc__exec_ttcc(hc_comm_t *c, const hc_schedule_t *s, char *buf, int count, MPI_Datatype type);
#endif
