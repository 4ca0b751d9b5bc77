/* Internal declarations of the MPI runtime (libhetcoll_mpi and the drop-in libhetcoll_pmpi).
 *
 * Files, each depending only on those listed before it (scripts/layer_check.sh fails on a
 * cycle):
 *   util.c        hashing, segments, size classes, MPI error mapping, agreed errors
 *   report.c      the verbose log, native fallbacks and their reason, errors the MPI way
 *   exec_ttcc.c   the two-tree broadcast protocol
 *   exec_relay.c  a total exchange through site forwarders (hc_schedule_t.relay)
 *   exec.c        executing schedules (exchange, broadcast, reduction, redistribution)
 *   replay_memo.c flow replays already made in one planning pass (replay_memo.h, no MPI)
 *   plan.c        the plan cache: sightings, planning on rank 0, sharing the schedules
 *   speculate.c   alltoallv without gathering the sizes while they repeat
 *   probe_links.c the link probe (netprobe.h)
 *   quickprobe.c  a platform when none is given: the link probe's
 *   tune.c        choosing among the candidates (the MPI library's own collective included)
 *   comm.c        communicators: options, environment, platform
 *   coll.c        the public collectives
 *   pmpi.c        the drop-in (libhetcoll_pmpi only) */
#ifndef HETCOLL_MPI_INTERNAL_H
#define HETCOLL_MPI_INTERNAL_H

#include <stdint.h>

#include "hetcoll/mpi.h"

/* ---- util.c ---- */

/* FNV-1a over the bytes of w[0..n-1], starting from h. */
uint64_t hc__fnv1a(const uint64_t *w, size_t n, uint64_t h);

/* Segment k of n over `count` units: [first, first + len). Lengths differ by at most one and
 * the longer ones can be anywhere; every segment has at most ceil(count / n) units. */
void hc__segment(int count, uint32_t n, uint32_t k, int *first, int *len);

/* Size class of a message: 4 classes per power of two (a class spans at most 25 % more bytes
 * than its smallest member). Plans are shared by the messages of one class. */
uint64_t hc__size_class(uint64_t bytes);

/* Map an hc status to an MPI error class. */
int hc__mpi_err(int hc_status);

/* Record a detail (see hc_error_detail) and return the MPI error code `err`. */
int hc__fail(int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Agree on an outcome. Collective: every rank gets the error code of the lowest rank whose
 * `err` is not MPI_SUCCESS and, in hc_error_detail(), that rank's detail. MPI_SUCCESS when
 * every rank succeeded. */
int hc__agree(MPI_Comm comm, int err);
/* The same, and in the same collective the minimum over the ranks of vals[0..n-1] (n <= 7). */
int hc__agree_min(MPI_Comm comm, int err, int *vals, int n);

/* 1 when the MPI library's in-place forms of reduce and alltoall(v) are broken (MPICH before
 * 4.1.2): hetcoll then runs them in the equivalent non-in-place form on a copy. */
int hc__inplace_copy(void);

/* Seconds since an arbitrary origin (MPI_Wtime). */
double hc__now(void);

/* Fault injection for the tests: HETCOLL_FAULT_DELAY=rank:seconds[,rank:seconds...] makes
 * the listed ranks (of the collective's communicator) wait that long before their first
 * forward in a broadcast or reduction. Returns this rank's delay (0: none). */
double hc__fault_delay(int rank);
/* Sleep for `seconds` (> 0). */
void hc__sleep(double seconds);

/* ---- orders: this rank's part of a schedule (exec.c) ---- */

/* This rank's events of a schedule, each list in planned order (ties by event index); for an
 * exchange the messages in flight per side (0: all at once), for a reduction the segment size.
 * Built once per schedule. */
typedef struct hc__order {
    size_t *sends, *recvs; /* event indices */
    size_t ns, nr;
    uint32_t ws, wr;
    uint64_t seg_bytes; /* reduce: segment size (4 x the tree's largest BDP, >= 64 KiB) */
    /* reduce: the leaf sends this rank paces (hc_schedule_reduce_paced), in order, and how many
     * of them are in flight at most */
    size_t *paced, npaced;
    uint32_t wp;
    uint32_t *paced_win; /* per paced send: its receiver's hc_schedule_reduce_node_window */
    /* Segmented broadcast: the byte range [off, off + len) of the planned message that each of
     * this rank's sends / receives carries, and how many segments this rank's part is cut into
     * (hierarchical schedules cut every cluster its own way). */
    uint64_t *soff, *slen, *roff, *rlen;
    uint32_t kseg;
} hc__order_t;

/* ---- candidates and plans (plan.c, tune.c) ---- */

#define HC__CAND_MAX 4         /* candidates of a plan: the MPI library's own + up to 3 schedules */
#define HC__PLAN_AFTER_MAX 256 /* the planning threshold grows up to this many sightings */
#define HC__TUNE_TRIALS 9      /* measured calls per candidate, at most */

/* One way to run a collective: a schedule, or (s == NULL) the MPI library's own collective,
 * called "native". */
typedef struct hc__cand {
    hc_schedule_t *s;
    hc__order_t *order; /* this rank's part of s, built on first use */
    double t[HC__TUNE_TRIALS];
    uint32_t n_t;
    int dropped; /* measured clearly slower than the leader */
} hc__cand_t;

/* One cached plan: the candidates for a key (collective, size class, root...). */
typedef struct hc__entry {
    hc_coll_t coll;
    uint64_t hash; /* FNV-1a of the key words */
    uint64_t *key; /* the key words, compared exactly */
    size_t key_len;
    uint64_t last_use, calls;
    uint64_t plan_bytes;          /* bytes the schedules were planned for (bcast, reduce) */
    uint32_t *members, n_members; /* redistribute: senders then receivers (ranks), else NULL */
    hc__cand_t cand[HC__CAND_MAX];
    uint32_t n_cand;
    uint32_t chosen;     /* the candidate that runs once decided */
    int tuning;          /* 1 while the candidates are being measured */
    uint32_t round, pos; /* tuning: the round and the position in it */
    uint64_t recheck_at; /* calls at which the decision is measured again */
    double trial_start;
    /* A trial is `batch` consecutive calls of one candidate (set after the first round so that
     * a trial lasts about HC__TRIAL_MIN: short calls are noisy); acc sums this rank's time. */
    uint32_t batch, in_batch;
    double acc;
} hc__entry_t;

/* A key seen but not planned yet (one-off calls never pay for planning). */
typedef struct hc__sighting {
    uint64_t hash;
    uint32_t count;
    uint64_t last_use;
} hc__sighting_t;
#define HC__SIGHTINGS 64

/* Why the last call ran the MPI library's collective although hetcoll was asked. Reasons
 * below HC__WHY_FAILURES are the runtime's policy (measured faster, first sightings); the
 * others are failures or unsupported cases the drop-in reports once per communicator. */
typedef enum {
    HC__WHY_NONE = 0, /* a hetcoll schedule ran */
    HC__WHY_POLICY,   /* native by choice */
    HC__WHY_FAILURES, /* -- reported by the drop-in from here -- */
    HC__WHY_NONCOMMUTATIVE = HC__WHY_FAILURES,
    HC__WHY_PLAN, /* planning failed */
    HC__WHY_TYPE, /* the datatype cannot be cut into byte segments here */
    HC__WHY_SIZE, /* more bytes than one MPI message can count */
    HC__WHY_COUNT
} hc__why_t;

/* Build the problem for the planner (rank 0) with hc_problem_create; the caller frees *pb with
 * hc_problem_destroy and *members with free(). */
typedef int (*hc__build_fn)(hc_comm_t *c, const void *arg, hc_problem_t **pb, uint32_t **members,
                            uint32_t *n_members);

/* What a collective call found in the cache. */
typedef enum {
    HC__LOOKUP_NATIVE, /* not planned (a first sighting): run the MPI library's collective */
    HC__LOOKUP_ENTRY,  /* *entry holds the plan */
} hc__lookup_t;

/* Find the plan for `key`; on a miss count the sighting and, once the key was seen
 * `plan_after` times (at once when an algorithm is forced), have rank 0 plan and share the
 * candidates. Collective when it plans (every rank sees the same key sequence, so every rank
 * takes the same branch). A planning failure is agreed: *lookup = HC__LOOKUP_NATIVE and
 * c->why = HC__WHY_PLAN with the detail, or the error when an algorithm is forced outside the
 * drop-in. Entries stay owned by the cache (or *tmp with the cache off; free it with
 * hc__entry_free). */
int hc__plan_lookup(hc_comm_t *c, hc_coll_t coll, const uint64_t *key, size_t key_len,
                    uint64_t plan_bytes, hc__build_fn build, const void *arg, hc__lookup_t *lookup,
                    hc__entry_t **entry, hc__entry_t *tmp);
void hc__entry_free(hc__entry_t *e);
/* Drop every plan and sighting (new epoch, destroy). */
void hc__cache_clear(hc_comm_t *c);

/* ---- tune.c ---- */

/* The candidate this call runs (index into e->cand): the chosen one, or while measuring the
 * one whose turn it is. Starts the trial clock. */
uint32_t hc__tune_pick(hc_comm_t *c, hc__entry_t *e);
/* After a call that ran candidate k: while measuring, agree on the call's time (the slowest
 * rank's), drop candidates clearly slower than the leader and decide when the trials are
 * done. Collective while measuring, no-op otherwise. */
int hc__tune_done(hc_comm_t *c, hc__entry_t *e, uint32_t k);
/* This rank's order for candidate k (built on first use). NULL s: none needed. */
int hc__cand_order(hc_comm_t *c, const hc__entry_t *e, hc__cand_t *k, const hc__order_t **out);

/* ---- speculation (speculate.c) ---- */

/* alltoallv's state. Every field changes only on agreed outcomes, so it is the same on every
 * rank. */
typedef struct hc__spec {
    /* The last gathered size matrix and its plan. */
    uint64_t hash;       /* FNV-1a of that size matrix */
    uint64_t *row, *col; /* this rank's send / receive bytes per peer in it */
    int dense;           /* every ordered pair exchanges a message */
    unsigned streak;     /* consecutive gathered calls with that matrix */
    hc__entry_t entry;   /* the plan of that matrix (n_cand == 0: none) */
    int armed;           /* calls run the entry without gathering */
    /* auto: while no plan runs, calls go to the MPI library and the sizes are gathered only
     * every `interval` calls (doubling while they keep changing). */
    uint64_t calls, check_at;
    uint32_t interval;
} hc__spec_t;

int hc__spec_init(hc_comm_t *c, int size);
void hc__spec_free(hc_comm_t *c);
/* Run schedule `s` (this rank's order `o`) for the recorded matrix without gathering: each
 * rank checks its own row and column; pairs that changed move scratch of the recorded size
 * so nothing is left unmatched; the ok bits travel in the tags (dense) or an overlapped
 * MPI_Iallreduce. *stale = 1 (on every rank) when any rank's arguments did not match: the
 * call is then not complete. */
int hc__spec_run(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, int args_ok,
                 const char *sendbuf, const int *sendcounts, const int *sdispls,
                 MPI_Datatype sendtype, char *recvbuf, const int *recvcounts, const int *rdispls,
                 MPI_Datatype recvtype, int *stale);

/* ---- the communicator ---- */

/* hc__comm_create flags. */
enum {
    HC__DROPIN = 1, /* created by the drop-in: the environment was already read and checked,
                       errors are returned (never raised), failures run the MPI collective */
};

struct hc_comm {
    MPI_Comm comm; /* private duplicate: our tags never meet the application's */
    int rank, size;
    unsigned flags;
    hc_platform_t *platform;
    char platform_origin[160];
    hc_comm_opts_t opts;
    char algo[HC_COLL_COUNT][48]; /* resolved names (opts, then environment) */
    int flow_smpi;  /* HETCOLL_FLOW_MODEL=smpi: predictions with SMPI's default factors */
    int recv_order; /* opts.recv_order: -1 auto, else the HC_RECV_* of every exchange in pieces */
    int relay;      /* opts.relay: -1 auto, 0 never, 1 every exchange through forwarders */
    int64_t bcast_split;  /* opts.bcast_split: -1 auto, 0 never, else the sub-messages' bytes */
    int64_t reduce_split; /* opts.reduce_split, the same for a reduction's segments */
    /* alltoallv being planned: every rank's datatypes are dense (gathered), so messages may
     * move in pieces of bytes */
    int a2a_pieces_ok;
    uint64_t epoch;
    hc__entry_t *cache;
    unsigned n_cache;
    hc__sighting_t sightings[HC__SIGHTINGS];
    unsigned n_sightings;
    uint32_t plan_after[HC_COLL_COUNT]; /* sightings before planning, adapted to outcomes */
    uint64_t clock;
    hc_comm_stats_t stats;
    char last_algo[48];
    char last_note[160]; /* the schedule's note (hc_comm_last_note) */
    double last_predicted;
    hc__why_t why; /* the last call's reason for running native */
    char why_detail[256];
    hc__spec_t spec;
    void *scratch; /* hc__scratch */
    size_t scratch_size;
    int raw_pack; /* MPI_Pack writes the raw bytes (homogeneous): byte segments may be packed */
    /* The planning budget (rank 0 decides): seconds spent in collective calls on this
     * communicator, and seconds of overhead (planning, sharing, trials slower than native). */
    double t_coll, t_over;
    int native_failed; /* alltoallv: the MPI library's collective returned the last error */
    int pending;       /* the last lookup ran native because the key is not planned yet */
    int settled;       /* the last call ran what the next calls of its key will run */
    uint32_t spec_k;   /* alltoallv: the candidate of the planned matrix the call ran */
    /* redistribution: measured and decided "post everything" for k, whole or in pieces of
     * `piece` bytes (settled on the piece variant, coll.c). The next calls post everything
     * without gathering the sizes (every message posted at once is right for any sizes; pieces
     * first check in one allreduce that the sizes match and the types are dense, else gather);
     * every HC__REDIST_RECHECK-th call gathers them again and re-plans when they changed. */
    struct {
        int armed, k;
        unsigned long calls;
        uint64_t piece;
        int has_groups;  /* pieces-cross: its piece_groups in groups, else every message cut */
        int32_t *groups; /* P entries, allocated with the communicator */
        char algo[48];   /* the settled schedule's algorithm: pieces or pieces-cross */
        uint32_t ws, wr; /* its windows of pieces in flight on this rank (0: all at once) */
        char note[160];  /* its note (hc_comm_last_note) */
    } rfast;
};
#define HC__REDIST_RECHECK 16

/* Create (flags: HC__DROPIN). `nodes` (or NULL: rank i is node i) maps the ranks to the
 * platform's nodes. Errors are agreed and carry a detail on every rank. Given a platform, this
 * costs a duplicate and one small allreduce. */
int hc__comm_create(MPI_Comm comm, const hc_platform_t *platform, const uint32_t *nodes,
                    const hc_comm_opts_t *opts, unsigned flags, hc_comm_t **out);
/* Is `name` an algorithm the runtime accepts for coll ("auto", "native" or a registry name)?
 * HC_ERR_UNKNOWN with the valid names in the detail otherwise. */
/* A bcast_split value (hc_comm_opts_t, HETCOLL_BCAST_SPLIT): -1 for "auto", 0 for "never", the
 * size for 1 to INT_MAX bytes, -2 for anything else. */
int64_t hc__bcast_split_parse(const char *v);
int hc__algo_check(hc_coll_t coll, const char *name);

/* ---- what a communicator reports (report.c) ---- */

/* Report a call's error the MPI way: through the communicator's error handler (not for the
 * drop-in, which decides itself). Returns err. */
int hc__raise(hc_comm_t *c, int err);
/* Record that the call runs the MPI library's collective and why. */
/* Keeps s's note (NULL or none: "") as the last call's, for hc_comm_last_note. */
void hc__set_last_note(hc_comm_t *c, const hc_schedule_t *s);
void hc__native_because(hc_comm_t *c, hc__why_t why, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Log a decision when verbose (rank 0). */
void hc__log(const hc_comm_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- the collectives (coll.c), shared by the public API and the drop-in ---- */

/* One call in progress. */
typedef struct hc__call {
    hc__entry_t *e;       /* the plan (NULL: none) */
    uint32_t k;           /* the candidate that runs */
    int native;           /* 1: run the MPI library's collective */
    int measure;          /* 1: a tuning trial (hc__call_end measures it) */
    const hc__order_t *o; /* this rank's part of the schedule */
    double t0;            /* when the call started */
    hc__entry_t tmp;      /* the entry when the cache is off */
} hc__call_t;

/* Check the arguments and find what runs. MPI_SUCCESS: call->native says whether the caller
 * runs the MPI library's collective or hc__X_run; then hc__call_end. An error: the arguments
 * are wrong (detail recorded) or, with a forced algorithm outside the drop-in, planning
 * failed; nothing was moved. */
int hc__bcast_start(hc_comm_t *c, int count, MPI_Datatype type, int root, hc__call_t *call);
int hc__bcast_run(hc_comm_t *c, hc__call_t *call, void *buf, int count, MPI_Datatype type);
/* for_allreduce: the reduction half of an allreduce (plans and measurements of their own). */
int hc__reduce_start(hc_comm_t *c, const void *sendbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, int for_allreduce, hc__call_t *call);
int hc__reduce_run(hc_comm_t *c, hc__call_t *call, const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, int root);
int hc__alltoall_start(hc_comm_t *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       int recvcount, MPI_Datatype recvtype, hc__call_t *call);
int hc__alltoall_run(hc_comm_t *c, hc__call_t *call, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype);
/* The MPI library's collectives as hetcoll runs them. With a library whose in-place forms are
 * broken (hc__inplace_copy: MPICH before 4.1.2 crashes on MPI_Reduce in place at a non-zero
 * root and fails MPI_Alltoall(v) in place with non-contiguous datatypes), the buffer is
 * copied and the equivalent non-in-place form called, as MPICH's own fix does. */
int hc__native_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                      int root, MPI_Comm comm);
int hc__native_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int hc__native_alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls,
                         MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                         const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm);
/* Finish a call that ran with `err`: measure a trial, count, free a temporary entry. */
int hc__call_end(hc_comm_t *c, hc__call_t *call, int err);
/* The whole alltoallv (it may gather sizes, run speculatively and redo): the MPI library's
 * collective runs on native_comm when chosen. *args_bad = 1: the arguments are wrong (agreed
 * on every rank) and nothing was moved. */
int hc__alltoallv(hc_comm_t *c, const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm native_comm, int *args_bad);

/* ---- execution (exec.c, exec_ttcc.c) ---- */

/* plan_bytes: the message size a broadcast was planned for (its whole-message events carry it). */
int hc__order_build(const hc_comm_t *c, const hc_schedule_t *s, uint64_t plan_bytes,
                    hc__order_t **out);
void hc__order_free(hc__order_t *o);

/* 1 when `count` units of `type` are the bytes [buf + true_lb, + count * size) in signature
 * order: predefined types without holes and contiguous types of such. (A type whose true
 * extent equals its size may still have holes and overlaps, so the constructor is checked.) */
int hc__dense_type(MPI_Datatype type, int count);

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

/* A total exchange in pieces (hc_schedule_message_pieces): the messages m[0 .. ns) (sends, of
 * events o->sends) and m[ns .. ns + nr) (receives, of o->recvs), each of its event's bytes at
 * m->buf, become their pieces in *out (MPI_BYTE, each message's pieces consecutive, in its place;
 * with s->recv_order HC_RECV_ROUND_ROBIN the receives' pieces round-robin over the messages);
 * *ns_out and *nr_out count them. The caller frees *out. Each message's buffer must hold its
 * bytes contiguously (hc__dense_type, or MPI_BYTE scratch). */
int hc__pieces_expand(const hc_schedule_t *s, const hc__order_t *o, const hc__msg_t *m,
                      hc__msg_t **out, size_t *ns_out, size_t *nr_out);
/* The message w (src -> dst of s) of `bytes` bytes as its k = hc_schedule_message_pieces byte
 * pieces (MPI_BYTE, w's peer and tag; hc_schedule_message_piece_offset) in out[0 ..): k, or 0
 * (nothing written) when a piece would be over INT_MAX bytes. Both sides of a message see the
 * same bytes and ends, so they cut it alike. */
size_t hc__msg_pieces(const hc_schedule_t *s, uint32_t src, uint32_t dst, const hc__msg_t *w,
                      uint64_t bytes, hc__msg_t *out);

/* 1 when the exchange s moves its messages as bytes (in pieces or through forwarders), which
 * a datatype with holes cannot. */
static inline int hc__moves_bytes(const hc_schedule_t *s)
{
    return s && s->coll == HC_COLL_ALLTOALL && (s->segment_bytes || s->relay);
}

/* A total exchange through forwarders (s->relay, src/mpi/exec_relay.c): the messages m as for
 * hc__pieces_expand (sends of o->sends, then receives of o->recvs, each holding its event's
 * bytes contiguously at m->buf; tags of the messages inside a group as given, never
 * MPI_ANY_TAG), moved in the two phases of hc_schedule_t.relay on comm (rank me). */
int hc__relay_run(MPI_Comm comm, int me, const hc_schedule_t *s, const hc__order_t *o,
                  const hc__msg_t *m);

/* Execute events of a pairwise exchange (alltoallv). In pieces (s->segment_bytes) or through
 * forwarders (s->relay) the call's datatypes must be dense (hc__dense_type) on every rank: the
 * caller plans them only then (hc__moves_bytes). */
int hc__exec_exchange(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o,
                      const char *sendbuf, const int *sendcounts, const int *sdispls,
                      MPI_Datatype sendtype, char *recvbuf, const int *recvcounts,
                      const int *rdispls, MPI_Datatype recvtype);
/* Broadcast `count` units of `type` along the schedule. plan_bytes: the message size the
 * schedule was planned for (its whole-message events carry it). Segmented schedules are run
 * on bytes (type MPI_BYTE), so that ranks whose types differ but have the same signature cut
 * the same segments. */
int hc__exec_bcast(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, char *buf, int count,
                   MPI_Datatype type, uint64_t plan_bytes);
int hc__exec_reduce(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, const char *mine,
                    char *acc, int count, MPI_Datatype type, MPI_Op op);
/* The communicator's scratch area, grown to at least `bytes` (kept between calls, so large
 * collectives do not map fresh pages every time). NULL when out of memory. */
void *hc__scratch(hc_comm_t *c, size_t bytes);
int hc__exec_redistribute(hc_comm_t *c, const hc_schedule_t *s, const uint32_t *members,
                          const char *sendbuf, const int *sendcounts, const int *sdispls,
                          char *recvbuf, const int *recvcounts, const int *rdispls,
                          MPI_Datatype type);
/* Two-tree broadcast of `count` units of `type` (the executor passes bytes). */
int hc__exec_ttcc(MPI_Comm comm, int rank, int size, const hc_schedule_t *s, char *buf, int count,
                  MPI_Datatype type);

/* The platform of the link probe (probe_links.c, declared in netprobe.h): sites, their
 * uplinks, gap tables of the site pairs. Collective; returns an MPI error code. */
int hc__mpi_quick_probe(MPI_Comm comm, hc_platform_t **out);

#endif
