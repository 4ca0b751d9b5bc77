/* hetcoll MPI runtime (libhetcoll_mpi): executes hetcoll schedules with MPI point-to-point
 * messages. Standard MPI-3 only (Open MPI, MPICH, SimGrid SMPI).
 *
 * Every call is collective over the communicator given to hc_comm_create and returns
 * MPI_SUCCESS or an MPI error code (MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_ROOT, MPI_ERR_TYPE,
 * MPI_ERR_OP, MPI_ERR_OTHER ...). Rank i of the communicator is node i of the platform. */
#ifndef HETCOLL_MPI_H
#define HETCOLL_MPI_H

#include <mpi.h>

#include "hetcoll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hc_comm hc_comm_t;
typedef struct hc_comm_opts hc_comm_opts_t;

struct hc_comm_opts {
    /* Algorithm per collective: a registry name, or "auto" (default): the schedule with the
     * best predicted makespan among the collective's algorithms. The environment variables
     * HETCOLL_ALGO_ALLTOALL, HETCOLL_ALGO_BCAST, HETCOLL_ALGO_REDUCE and
     * HETCOLL_ALGO_REDISTRIBUTE override these. Strings are borrowed. */
    const char *algo_alltoall;
    const char *algo_bcast;
    const char *algo_reduce;
    const char *algo_redistribute;
    hc_model_t model;       /* cost model used for planning (default Hockney) */
    int map_by_hostname;    /* 1: map ranks to platform nodes by MPI processor name */
    unsigned cache_entries; /* schedule cache size per communicator (default 32; 0 = off) */
    double plan_time_limit; /* seconds a search algorithm may spend planning (default 0.05) */
    int verbose;            /* 1: rank 0 logs each planning decision on stderr */
    /* Measured tuning for "auto" broadcast and reduction: when the model predicts several
     * different schedules within 3x of the best (for broadcast, also the binomial tree and up
     * to 16 ranks the flat one, the MPI libraries' usual trees),
     * the first calls with a new key run each of them (at most 5) this many times and keep
     * the one with the smallest median time; the model cannot see everything (CPU sharing,
     * protocol switches, probe noise). Default 5; 0 = trust the model; at most 9. The
     * environment variable HETCOLL_TUNE overrides it. */
    unsigned tune_trials;
};

/* Fill defaults. */
void hc_comm_opts_default(hc_comm_opts_t *o);

/* Create a hetcoll communicator over `comm` (duplicated internally). `platform` NULL: load the
 * spec in the environment variable HETCOLL_PLATFORM (file, builtin:NAME, dir:FILE), else run a
 * quick probe. The platform is copied. opts NULL = defaults. Collective over comm. */
int hc_comm_create(MPI_Comm comm, const hc_platform_t *platform, const hc_comm_opts_t *opts,
                   hc_comm_t **out);

/* Free (collective over the communicator). NULL-safe. */
void hc_comm_destroy(hc_comm_t *c);

int hc_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                 MPI_Datatype recvtype, hc_comm_t *c);
int hc_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, hc_comm_t *c);
/* Alltoallv-shaped redistribution: the nonzero pairs form the bipartite traffic between the
 * ranks that send (cluster 1) and the ranks that receive (cluster 2), executed in KPBS steps
 * separated by barriers (001 §8.3). k <= 0: min(#senders, #receivers). */
int hc_redistribute(const void *sendbuf, const int sendcounts[], const int sdispls[], void *recvbuf,
                    const int recvcounts[], const int rdispls[], MPI_Datatype type, int k,
                    hc_comm_t *c);
int hc_bcast(void *buf, int count, MPI_Datatype type, int root, hc_comm_t *c);
int hc_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
              hc_comm_t *c);

/* ---- introspection ---- */

/* Statistics of a communicator's schedule cache. */
typedef struct hc_comm_stats {
    unsigned long plans;        /* schedules computed */
    unsigned long cache_hits;   /* calls served from the cache */
    unsigned long calls;        /* collective calls */
    unsigned long fallbacks;    /* calls passed to the MPI library (e.g. non-commutative op) */
    unsigned long speculated;   /* alltoallv calls run from the last plan without gathering the
                                   sizes (also counted in cache_hits) */
    unsigned long spec_misses;  /* such attempts that found changed sizes and gathered after */
    unsigned long tuning_calls; /* calls that ran a candidate schedule to measure it */
} hc_comm_stats_t;
void hc_comm_get_stats(const hc_comm_t *c, hc_comm_stats_t *out);

/* The platform in use (owned by the communicator). */
const hc_platform_t *hc_comm_platform(const hc_comm_t *c);

/* Name and predicted makespan of the schedule used by the last call ("" / NAN before). */
const char *hc_comm_last_algorithm(const hc_comm_t *c);
double hc_comm_last_predicted(const hc_comm_t *c);

/* Bump the network epoch (e.g. after the directory changed): cached schedules are dropped. */
void hc_comm_new_epoch(hc_comm_t *c);

#ifdef __cplusplus
}
#endif
#endif
