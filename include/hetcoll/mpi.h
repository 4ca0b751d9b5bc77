/* hetcoll MPI runtime (libhetcoll_mpi): executes hetcoll schedules with MPI point-to-point
 * messages. Standard MPI-3 only (Open MPI, MPICH, SimGrid SMPI). Links libhetcoll.so.
 *
 * Every call is collective over the communicator given to hc_comm_create and returns
 * MPI_SUCCESS or an MPI error code (MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_ROOT, MPI_ERR_TYPE,
 * MPI_ERR_OP, MPI_ERR_COMM, ...). Errors are reported the MPI way: the error handler of the
 * communicator is invoked first (the one the communicator had when hc_comm_create duplicated
 * it; with the default MPI_ERRORS_ARE_FATAL the job aborts, as a failing MPI collective would),
 * and hc_error_detail() holds a one-line explanation on every rank. Rank i of the communicator
 * is node i of the platform (or, with map_by_hostname, a node named after its host).
 *
 * Which schedule runs: with "auto" (the default) a size that recurs is planned (rank 0 plans,
 * every rank receives the schedules), and its first calls measure the MPI library's own
 * collective ("native") against the model's best schedules; a schedule is kept only when it
 * was measured faster than native. Sizes seen fewer than plan_after times run native without
 * planning. See docs/design.md "MPI runtime".
 *
 * Thread safety: MPI_THREAD_MULTIPLE programs may use different hetcoll communicators from
 * different threads at the same time; one communicator is used by one thread at a time (as MPI
 * requires for collectives on one communicator). */
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
    uint32_t struct_size; /* sizeof(hc_comm_opts_t), set by hc_comm_opts_init */
    /* Algorithm per collective: "auto" (default), "native" (always the MPI library's own
     * collective) or a registry name (that schedule always, no measurement). The environment
     * variables HETCOLL_ALGO_ALLTOALL, HETCOLL_ALGO_BCAST, HETCOLL_ALGO_REDUCE and
     * HETCOLL_ALGO_REDISTRIBUTE override these; an unknown name makes hc_comm_create fail with
     * the valid names in hc_error_detail(). Strings are borrowed. */
    const char *algo_alltoall;
    const char *algo_bcast;
    const char *algo_reduce;
    const char *algo_redistribute;
    hc_model_t model;       /* cost model used for planning (default Hockney) */
    int map_by_hostname;    /* 1: map ranks to platform nodes by MPI processor name */
    unsigned cache_entries; /* plans kept per communicator (default 32; 0 = off) */
    double plan_time_limit; /* seconds a search algorithm may spend planning (default 0.05) */
    int verbose;            /* 1: rank 0 logs each planning and tuning decision on stderr
                               (environment: HETCOLL_VERBOSE=1) */
    /* Measured tuning under "auto": rounds of trials (each candidate once per round, the MPI
     * library's collective included; candidates clearly slower than the leader are dropped
     * after one call). Default 3; 0 = trust the model's best schedule without measuring; at
     * most 9. Environment: HETCOLL_TUNE. */
    unsigned tune_trials;
    /* Under "auto", a size class (a quarter of an octave of message sizes, and the root) is
     * planned once it was seen this many times; earlier calls run the MPI library's
     * collective. The runtime raises the threshold while measurement keeps choosing native.
     * Default 3, minimum 1. Environment: HETCOLL_PLAN_AFTER. */
    unsigned plan_after;
    /* The receive order of a total exchange in pieces (hc_schedule_t.recv_order; API 17):
     * "auto" (default, or NULL): the plan offers its windowed piece variant both message by
     * message and round-robin, and tuning measures them; "messages" or "round-robin": every
     * exchange in pieces runs in that order, forced algorithms (`pieces`, `pieces-cross`)
     * included. Environment: HETCOLL_RECV_ORDER. Borrowed. */
    const char *recv_order;
    /* A segmented broadcast's pieces across sites (clusters) on a platform with links
     * (hc_schedule_t.segment_bytes and piece_groups; API 21): "auto" (default, or NULL): under
     * SimGrid's model (HETCOLL_FLOW_MODEL=smpi) the plan also tries them in sub-messages of at
     * most 3468 B, SimGrid's lowest-latency size class, kept when predicted 5 % faster;
     * "never"; or a size in bytes (1 to 2^31 - 1): every segmented broadcast planned on a
     * platform of two clusters or more sends its pieces across clusters in sub-messages of at
     * most that many bytes, forced algorithms included. Environment: HETCOLL_BCAST_SPLIT.
     * Borrowed. */
    const char *bcast_split;
    /* The same for a reduction's segments across sites (hc_schedule_t.split_bytes and
     * piece_groups; API 22): "auto" (default, or NULL), "never", or a size in bytes: every
     * reduction planned on a platform of two clusters or more sends its segments across
     * clusters in sub-messages of at most that many bytes, forced algorithms included.
     * Environment: HETCOLL_REDUCE_SPLIT. Borrowed. */
    const char *reduce_split;
    /* A total exchange through site forwarders (hc_schedule_t.relay; API 23), on a platform of
     * two clusters or more, datatypes without holes: "auto" (default, or NULL): on a platform
     * with links the plan also offers post-all through forwarders, its forwarded messages whole
     * or in pieces, when the flow model predicts it 5 % faster than post-all (small messages
     * under SimGrid's size classes: docs/design.md); "never"; "forwarders": every exchange
     * planned moves through forwarders, forced algorithms included. Environment:
     * HETCOLL_RELAY. Borrowed. */
    const char *relay;
};

/* Fill defaults. */
void hc_comm_opts_init(hc_comm_opts_t *o);
/* The name before API 2. */
#define hc_comm_opts_default hc_comm_opts_init

/* Create a hetcoll communicator over the intracommunicator `comm` (duplicated internally).
 * `platform` NULL: load the spec in the environment variable HETCOLL_PLATFORM (file,
 * builtin:NAME, dir:FILE), else run a quick probe (hc_comm_platform_origin says which). The
 * platform must have a node per rank; the members' part is copied (hc_platform_subset).
 * opts NULL = defaults. Collective over comm; errors are agreed: every rank gets the same
 * error and detail. Free *out with hc_comm_destroy. */
int hc_comm_create(MPI_Comm comm, const hc_platform_t *platform, const hc_comm_opts_t *opts,
                   hc_comm_t **out);

/* Free (collective over the communicator). NULL-safe. */
void hc_comm_destroy(hc_comm_t *c);

/* The collectives, with the MPI signatures and semantics (MPI_IN_PLACE where MPI allows it;
 * arguments MPI says are ignored are ignored). */
int hc_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                 MPI_Datatype recvtype, hc_comm_t *c);
int hc_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, hc_comm_t *c);
/* Alltoallv-shaped redistribution: the nonzero pairs form the bipartite traffic between the
 * ranks that send (cluster 1) and the ranks that receive (cluster 2), executed in KPBS steps
 * separated by barriers (001 §8.3). k <= 0: min(#senders, #receivers). Its "native" (the
 * baseline the schedules are measured against, and the fallback) is every message posted at
 * once (MPI_Isend/MPI_Irecv, the network sharing the links), not MPI_Alltoallv. */
int hc_redistribute(const void *sendbuf, const int sendcounts[], const int sdispls[], void *recvbuf,
                    const int recvcounts[], const int rdispls[], MPI_Datatype type, int k,
                    hc_comm_t *c);
int hc_bcast(void *buf, int count, MPI_Datatype type, int root, hc_comm_t *c);
int hc_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
              hc_comm_t *c);

/* ---- introspection ---- */

/* Statistics of a communicator. */
typedef struct hc_comm_stats {
    unsigned long plans;        /* plans computed (each shares one or more schedules) */
    unsigned long cache_hits;   /* calls that found their plan */
    unsigned long calls;        /* collective calls */
    unsigned long fallbacks;    /* calls that ran the MPI library's collective because hetcoll
                                   could not (non-commutative op, planning failed, ...) */
    unsigned long speculated;   /* alltoallv calls run from the last plan without gathering the
                                   sizes (also counted in cache_hits) */
    unsigned long spec_misses;  /* such attempts that found changed sizes */
    unsigned long tuning_calls; /* calls that measured a candidate */
    unsigned long native_calls; /* calls that ran the MPI library's collective (by choice or as a
                                   fallback) */
} hc_comm_stats_t;
void hc_comm_get_stats(const hc_comm_t *c, hc_comm_stats_t *out);

/* The platform in use (owned by the communicator). */
const hc_platform_t *hc_comm_platform(const hc_comm_t *c);

/* Where the platform came from, e.g. "HETCOLL_PLATFORM=builtin:gusto" or "quick probe of 8
 * ranks (0.21 s; ...)" (owned by the communicator). */
const char *hc_comm_platform_origin(const hc_comm_t *c);

/* Name of what the last call ran ("native" for the MPI library's collective) and the
 * schedule's predicted makespan (NAN for native). "" / NAN before the first call. */
const char *hc_comm_last_algorithm(const hc_comm_t *c);
double hc_comm_last_predicted(const hc_comm_t *c);
/* How the last call's schedule ran, in words: its note, e.g. "pieces-cross: pieces of 8192 B,
 * 4 in flight per rank each way" (at most 159 bytes); "" for the MPI library's collective and
 * before the first call. Owned by the communicator, overwritten by its next call. (API 15) */
const char *hc_comm_last_note(const hc_comm_t *c);

/* 1 when the last call ran what the next calls with the same arguments will run: its plan is
 * decided (measured, or native by choice or necessity). 0 while its size is not planned yet or
 * its candidates are being measured. Benchmarks call until settled, then time the steady
 * state; the tuning cost is the time of the calls before. */
int hc_comm_settled(const hc_comm_t *c);

/* Bump the network epoch (e.g. after the directory changed): plans and measurements are
 * dropped. Local: call it on every rank at the same point of the call sequence. */
void hc_comm_new_epoch(hc_comm_t *c);

#ifdef __cplusplus
}
#endif
#endif
