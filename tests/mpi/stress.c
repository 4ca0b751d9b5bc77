/* Stress driver for the MPI runtime (hc_* API) and the drop-in (MPI_* under
 * LD_PRELOAD=libhetcoll_pmpi.so): random cases compared byte for byte with the MPI library's
 * own collective.
 *
 * Built twice from this file: `stress` (API mode, links libhetcoll_mpi) and `stress_pmpi` (an
 * ordinary MPI program without hetcoll, -DHC_STRESS_PMPI, whose MPI_* calls the preloaded
 * drop-in intercepts; the reference is the PMPI_* entry point of the MPI library itself).
 *
 * A case draws a collective (bcast, reduce, alltoall, alltoallv, and allreduce / redistribute
 * by mode), a communicator (MPI_COMM_WORLD, a duplicate, a split with reversed or shuffled
 * ranks and absent ranks), counts (0, 1, small, around the reduction's 64 KiB segments +-1,
 * large), datatypes (predefined, contiguous, vector, indexed, resized, struct, zero-size, and
 * for broadcast / alltoall different types of the same signature on different ranks), roots,
 * MPI_IN_PLACE forms (with the arguments MPI says are ignored set to garbage), commutative and
 * non-commutative ops, repetitions (caches, tuning, speculation, changed sizes) and injected
 * delays (a rank sleeping before the call, HETCOLL_FAULT_DELAY inside the executors). API mode
 * also draws the platform (built-in, random generators, 3 sites with links, random
 * heterogeneous matrices) and
 * forces every registered algorithm, "native" and "auto" in turn; the receive order of an
 * exchange in pieces (hc_comm_opts_t.recv_order) goes auto, round-robin, messages by index,
 * and an exchange through site forwarders (hc_comm_opts_t.relay) auto, never, forwarders; half
 * the cases plan under SimGrid's model (HETCOLL_FLOW_MODEL=smpi at the communicator's creation:
 * the variants of its size classes, an all-to-all's lead pieces among them).
 *
 * Every rank draws the same cases: case k's parameters come from (seed, k) only, so
 *   mpirun -np P stress --seed S --first K --cases N
 * replays cases K..K+N-1. A watchdog (--timeout, per case) reports a hang with the case and
 * exits. Other modes: --threads T (MPI_THREAD_MULTIPLE, each thread its own communicator and
 * cases, no collective before the threads start), --errors return|fatal (bad arguments: the
 * same error class as the MPI library's; with the default fatal handler the job must abort),
 * --focus inplace|signature (only MPI_IN_PLACE forms / only different types of the same
 * signature on different ranks), and in API mode --focus redistribute (only redistributions,
 * under auto, on two sites sharing an uplink: with HETCOLL_FLOW_MODEL=smpi and HETCOLL_TUNE=0
 * in the environment they run in pieces where the model predicts it faster). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef HC_STRESS_PMPI
#include "hetcoll/mpi.h"
#endif

/* ---- random numbers (splitmix64): every rank draws the same ---- */

typedef struct {
    uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t below(rng_t *r, uint64_t n)
{
    return n ? rnd(r) % n : 0;
}

static int chance(rng_t *r, int percent)
{
    return (int)below(r, 100) < percent;
}

/* ---- datatypes ---- */

enum { B_INT, B_DOUBLE, B_LONG, B_CHAR, B_UCHAR, B_MIXED, B_PAIR2INT, B_PAIRDI };

typedef struct {
    const char *name;
    MPI_Datatype t;
    int base;        /* B_*: the basic type of every element of the signature */
    int per;         /* basic elements per unit */
    int offs[8];     /* int types: offsets (in ints) of the elements of one unit */
    int extent_ints; /* int types: the unit's extent in ints */
} dtype_t;

static dtype_t types[16];
static int n_types;

static int add_type(const char *name, MPI_Datatype t, int base, int per)
{
    if (t != MPI_INT && t != MPI_DOUBLE && t != MPI_LONG && t != MPI_CHAR &&
        t != MPI_UNSIGNED_CHAR && t != MPI_2INT && t != MPI_DOUBLE_INT)
        MPI_Type_commit(&t);
    types[n_types] = (dtype_t){name, t, base, per, {0}, 1};
    return n_types++;
}

static int T_INT, T_DOUBLE, T_LONG, T_CHAR, T_UCHAR, T_VEC, T_CONTIG7, T_RESIZED, T_INDEXED,
    T_STRUCT, T_ZERO, T_2INT, T_DINT, T_DVEC;

static void make_types(void)
{
    MPI_Datatype t;
    T_INT = add_type("int", MPI_INT, B_INT, 1);
    T_DOUBLE = add_type("double", MPI_DOUBLE, B_DOUBLE, 1);
    T_LONG = add_type("long", MPI_LONG, B_LONG, 1);
    T_CHAR = add_type("char", MPI_CHAR, B_CHAR, 1);
    T_UCHAR = add_type("unsigned char", MPI_UNSIGNED_CHAR, B_UCHAR, 1);
    MPI_Type_vector(3, 2, 4, MPI_INT, &t); /* ints 0 1 . . 4 5 . . 8 9 */
    T_VEC = add_type("vector(3,2,4,int)", t, B_INT, 6);
    memcpy(types[T_VEC].offs, (int[]){0, 1, 4, 5, 8, 9}, 6 * sizeof(int));
    types[T_VEC].extent_ints = 10;
    MPI_Type_contiguous(7, MPI_INT, &t);
    T_CONTIG7 = add_type("contiguous(7,int)", t, B_INT, 7);
    memcpy(types[T_CONTIG7].offs, (int[]){0, 1, 2, 3, 4, 5, 6}, 7 * sizeof(int));
    types[T_CONTIG7].extent_ints = 7;
    MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &t); /* an int, then a 2-int hole */
    T_RESIZED = add_type("resized(int,12)", t, B_INT, 1);
    types[T_RESIZED].extent_ints = 3;
    int bl[3] = {2, 1, 3}, disp[3] = {0, 3, 7};
    MPI_Type_indexed(3, bl, disp, MPI_INT, &t); /* ints 0 1 . 3 . . . 7 8 9 */
    T_INDEXED = add_type("indexed({2,1,3},{0,3,7},int)", t, B_INT, 6);
    memcpy(types[T_INDEXED].offs, (int[]){0, 1, 3, 7, 8, 9}, 6 * sizeof(int));
    types[T_INDEXED].extent_ints = 10;
    struct s {
        char c;
        double d;
        int i;
    };
    int sbl[3] = {1, 1, 1};
    MPI_Aint sd[3] = {offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, i)};
    MPI_Datatype st[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, raw;
    MPI_Type_create_struct(3, sbl, sd, st, &raw);
    MPI_Type_create_resized(raw, 0, sizeof(struct s), &t);
    MPI_Type_free(&raw);
    T_STRUCT = add_type("struct{char,double,int}", t, B_MIXED, 1);
    MPI_Type_contiguous(0, MPI_INT, &t);
    T_ZERO = add_type("contiguous(0,int)", t, B_INT, 0);
    T_2INT = add_type("2int", MPI_2INT, B_PAIR2INT, 1);
    T_DINT = add_type("double_int", MPI_DOUBLE_INT, B_PAIRDI, 1);
    MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t); /* doubles 0 . . 3 */
    T_DVEC = add_type("vector(2,1,3,double)", t, B_DOUBLE, 2);
}

static size_t tsize(int k)
{
    int s;
    MPI_Type_size(types[k].t, &s);
    return (size_t)s;
}

/* Bytes a buffer of n units of type k needs (from address 0: our types have lb 0). */
static size_t span(int k, long n)
{
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(types[k].t, &lb, &ext);
    MPI_Type_get_true_extent(types[k].t, &tlb, &text);
    return n > 0 ? (size_t)((n - 1) * ext + tlb + text) : 0;
}

/* ---- the reference collectives: the MPI library's own ---- */

#ifdef HC_STRESS_PMPI
#define REF(f) PMPI_##f
#else
#define REF(f) MPI_##f
#endif

/* Write n units of type k with values drawn from r: the signature's elements get values that
 * make every reduction exact (small integers, integer-valued doubles); holes keep whatever
 * the buffer held. */
static void fill(char *buf, int k, long n, rng_t *r, MPI_Comm self)
{
    const dtype_t *d = &types[k];
    long m = n * d->per;
    if (m == 0)
        return;
    if (d->base == B_MIXED) {
        size_t bytes = span(k, n);
        for (size_t i = 0; i < bytes; i++)
            buf[i] = (char)rnd(r);
        return;
    }
    size_t esz = d->base == B_PAIR2INT ? 2 * sizeof(int)
                 : d->base == B_PAIRDI ? 2 * sizeof(double)
                 : d->base == B_DOUBLE ? sizeof(double)
                 : d->base == B_LONG   ? sizeof(long)
                 : d->base == B_INT    ? sizeof(int)
                                       : 1;
    char *src = malloc(esz * (size_t)m + 16);
    for (long i = 0; i < m; i++) {
        int64_t v = (int64_t)below(r, 2001) - 1000;
        switch (d->base) {
        case B_INT:
            ((int *)src)[i] = (int)v;
            break;
        case B_DOUBLE:
            ((double *)src)[i] = (double)v;
            break;
        case B_LONG:
            ((long *)src)[i] = (long)(v * 1000003);
            break;
        case B_PAIR2INT:
            ((int *)src)[2 * i] = (int)(v % 50);
            ((int *)src)[2 * i + 1] = (int)below(r, 100);
            break;
        case B_PAIRDI: {
            struct {
                double v;
                int i;
            } *p = (void *)(src + i * esz);
            p->v = (double)(v % 50);
            p->i = (int)below(r, 100);
            break;
        }
        default:
            src[i] = (char)v;
        }
    }
    MPI_Datatype base = d->base == B_INT      ? MPI_INT
                        : d->base == B_DOUBLE ? MPI_DOUBLE
                        : d->base == B_LONG   ? MPI_LONG
                        : d->base == B_CHAR   ? MPI_CHAR
                        : d->base == B_UCHAR  ? MPI_UNSIGNED_CHAR
                                              : d->t;
    long bn = base == d->t ? n : m;
    if (base == MPI_DOUBLE_INT) { /* its padded layout is the struct above */
        memcpy(buf, src, esz * (size_t)m);
    } else if (bn > 0) {
        REF(Sendrecv)(src, (int)bn, base, 0, 99, buf, (int)n, d->t, 0, 99, self, MPI_STATUS_IGNORE);
    }
    free(src);
}

/* ---- user reduction ops ---- */

static int find_type(MPI_Datatype t)
{
    for (int k = 0; k < n_types; k++)
        if (types[k].t == t)
            return k;
    return -1;
}

/* Commutative: integer sum over the elements of any int-based type of the table. */
static void op_isum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    int k = find_type(*t);
    const dtype_t *d = &types[k >= 0 ? k : T_INT];
    const int *a = in;
    int *b = inout;
    for (int u = 0; u < *len; u++)
        for (int e = 0; e < (d->per ? d->per : 0); e++) {
            int o = u * d->extent_ints + d->offs[e];
            b[o] = (int)(((int64_t)b[o] + a[o]) % 1000003);
        }
}

/* Non-commutative: (a, b) -> (2a + b) mod p on ints. */
static void op_noncomm(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = (int)((2 * (int64_t)((int *)in)[i] + ((int *)inout)[i]) % 1000003);
}

static MPI_Op OP_ISUM, OP_NONCOMM, OP_ISUM_NC; /* the last: commutative, declared not */

/* ---- cases ---- */

enum { C_BCAST, C_REDUCE, C_ALLTOALL, C_ALLTOALLV, C_ALLREDUCE, C_REDISTRIBUTE, C_N };
static const char *coll_names[C_N] = {"bcast",     "reduce",    "alltoall",
                                      "alltoallv", "allreduce", "redistribute"};

typedef struct {
    uint64_t seed;
    long first, cases;
    double timeout;
    int verbose;
    int allreduce; /* pmpi mode: the drop-in intercepts MPI_Allreduce (HETCOLL_ENABLE) */
    int threads;
    const char *errors;
    long max_bytes;
    const char *focus; /* NULL, "inplace", "signature" or "redistribute": only such cases */
} opts_t;

static opts_t O = {1, 0, 200, 120.0, 0, 0, 0, NULL, 1 << 20, NULL};

/* What a case is; printed on a mismatch or a hang. */
typedef struct {
    long index;
    int coll, comm_kind, size, root, in_place, reps;
    int type_a, type_b; /* b: the other ranks' / receive type of the same signature */
    long count_a, count_b;
    const char *op_name;
    MPI_Op op;
    char algo[48];
    char platform[96];
    int delay_rank;
    double delay;
    char fault[48];
    const char *recv_order;   /* of an exchange in pieces (API mode): by the case's index */
    const char *bcast_split;  /* a broadcast's pieces across sites (API mode): by the index */
    const char *reduce_split; /* a reduction's segments across sites (API mode): likewise */
    const char *relay;        /* an exchange through site forwarders (API mode): likewise */
    const char *flow_model;   /* HETCOLL_FLOW_MODEL at the communicator's creation (API mode,
                               * not with threads): "smpi" for half the cases, by the index */
} case_t;

static _Thread_local const case_t *current;
static _Thread_local int thread_id;

static void describe(const case_t *c, char *out, size_t len)
{
    snprintf(out, len,
             "case %ld: %s on %s of %d ranks, root %d, %s x %ld / %s x %ld, op %s, in place %d, "
             "%d reps, algorithm %s, platform %s, delay rank %d %.4f s, fault delay '%s', "
             "receive order %s, broadcast split %s, reduction split %s, relay %s, flow model %s",
             c->index, coll_names[c->coll],
             c->comm_kind == 0   ? "MPI_COMM_WORLD"
             : c->comm_kind == 1 ? "a duplicate"
                                 : "a split",
             c->size, c->root, types[c->type_a].name, c->count_a, types[c->type_b].name, c->count_b,
             c->op_name ? c->op_name : "-", c->in_place, c->reps, c->algo, c->platform,
             c->delay_rank, c->delay, c->fault, c->recv_order ? c->recv_order : "(environment)",
             c->bcast_split ? c->bcast_split : "(environment)",
             c->reduce_split ? c->reduce_split : "(environment)",
             c->relay ? c->relay : "(environment)",
             c->flow_model ? c->flow_model : "(environment)");
}

static void watchdog(int sig)
{
    (void)sig;
    char line[1024];
    int n = snprintf(line, sizeof line, "stress: HANG (no progress for %.0f s) in ", O.timeout);
    if (current)
        describe(current, line + n, sizeof line - (size_t)n);
    fprintf(stderr, "%s; seed %llu\n", line, (unsigned long long)O.seed);
    _exit(3);
}

static long mismatches, calls_run;
static double bytes_run;
static pthread_mutex_t mismatch_lock = PTHREAD_MUTEX_INITIALIZER;

static void report(const case_t *c, MPI_Comm comm, const char *what, const void *a, const void *b,
                   size_t n)
{
    size_t i = 0;
    const unsigned char *x = a, *y = b;
    while (i < n && x[i] == y[i])
        i++;
    char line[1024];
    describe(c, line, sizeof line);
    int r;
    MPI_Comm_rank(comm, &r);
    fprintf(stderr,
            "stress: MISMATCH (%s) at byte %zu of %zu on rank %d of the case communicator; %s; "
            "replay: --seed %llu --first %ld --cases 1 (thread %d)\n",
            what, i, n, r, line, (unsigned long long)O.seed, c->index, thread_id);
    pthread_mutex_lock(&mismatch_lock);
    mismatches++;
    pthread_mutex_unlock(&mismatch_lock);
}

static void check(const case_t *c, MPI_Comm comm, const char *what, const void *a, const void *b,
                  size_t n)
{
    if (memcmp(a, b, n) != 0)
        report(c, comm, what, a, b, n);
}

/* A count of units of type k: 0, 1, small, around the reduction segments (64 KiB +-1 unit),
 * or large, within max_bytes. */
static long draw_count(rng_t *r, int k)
{
    size_t u = tsize(k) ? tsize(k) : 1;
    long max = O.max_bytes / (long)u;
    max = max > 1 ? max : 1;
    switch (below(r, 8)) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 2:
    case 3:
        return 1 + (long)below(r, 100);
    case 4: {
        long seg = (long)((65536 + u - 1) / u) * (1 + (long)below(r, 3));
        long n = seg - 1 + (long)below(r, 3);
        return n < max ? n : max;
    }
    case 5:
        return 100 + (long)below(r, (uint64_t)(max > 200 ? max / 8 : 100));
    default:
        return 1 + (long)below(r, (uint64_t)max);
    }
}

/* Another int-based type with the same signature as n units of type a: returns the count. */
static long same_signature(rng_t *r, int a, long n, int *b)
{
    static const int *ints_types[] = {&T_INT, &T_VEC, &T_CONTIG7, &T_RESIZED, &T_INDEXED};
    long elems = n * types[a].per;
    for (int tries = 0; tries < 8; tries++) {
        int k = *ints_types[below(r, 5)];
        if (types[k].per > 0 && elems % types[k].per == 0) {
            *b = k;
            return elems / types[k].per;
        }
    }
    *b = a;
    return n;
}

/* ---- the communicators of a case ---- */

typedef struct {
    MPI_Comm world; /* this thread's base communicator */
    MPI_Comm pool[3];
    long made_at;
} comms_t;

static void comms_free(comms_t *cs)
{
    for (int k = 1; k < 3; k++)
        if (cs->pool[k] != MPI_COMM_NULL)
            MPI_Comm_free(&cs->pool[k]);
}

/* The pool (base, a duplicate, a split) is remade every 25 cases: state that the runtime or
 * the drop-in attached to a communicator lives across cases, and fresh ones are created too. */
static void comms_refresh(comms_t *cs, long index)
{
    if (cs->pool[0] != MPI_COMM_NULL && (O.threads || index / 25 == cs->made_at / 25))
        return;
    if (O.threads) { /* see run_case */
        cs->pool[0] = cs->world;
        return;
    }
    comms_free(cs);
    cs->made_at = index;
    /* Drawn from the block's first case, so that --first K replays the same communicators. */
    rng_t block = {O.seed ^ ((uint64_t)(index / 25) * 0x2545f4914f6cdd1dULL) ^ (uint64_t)thread_id};
    rng_t *r = &block;
    cs->pool[0] = cs->world;
    MPI_Comm_dup(cs->world, &cs->pool[1]);
    int me, P;
    MPI_Comm_rank(cs->world, &me);
    MPI_Comm_size(cs->world, &P);
    int colors = 1 + (int)below(r, 3);
    uint64_t salt = rnd(r);
    int color = (int)((me * 2654435761u + salt) % (uint64_t)(colors + 1));
    if (color == colors && P > 2)
        color = MPI_UNDEFINED; /* some ranks are not in any part */
    else
        color %= colors;
    int key = below(r, 2) ? P - me : (int)((me * 40503u + salt) % 65521);
    MPI_Comm_split(cs->world, color, key, &cs->pool[2]);
}

/* ---- API mode: a hetcoll communicator for the case ---- */

#ifndef HC_STRESS_PMPI
static const char *algo_field(hc_comm_opts_t *o, int coll, const char *name)
{
    if (coll == C_BCAST)
        o->algo_bcast = name;
    else if (coll == C_REDUCE)
        o->algo_reduce = name;
    else if (coll == C_REDISTRIBUTE)
        o->algo_redistribute = name;
    else
        o->algo_alltoall = name;
    return name;
}

static hc_coll_t hc_coll_of(int coll)
{
    return coll == C_BCAST          ? HC_COLL_BCAST
           : coll == C_REDUCE       ? HC_COLL_REDUCE
           : coll == C_REDISTRIBUTE ? HC_COLL_REDISTRIBUTE
                                    : HC_COLL_ALLTOALL;
}

static hc_platform_t *draw_platform(rng_t *r, int P, char *name, size_t len)
{
    hc_platform_t *p = NULL;
    char spec[96];
    switch (below(r, 5)) {
    case 0:
        snprintf(spec, sizeof spec, "%s", P <= 5 ? "builtin:gusto" : "builtin:grid5000");
        break;
    case 1: /* three sites with shared uplinks: a platform with links (multi-tree schedules);
             * no extra draw, so that the other cases keep their seeds */
        snprintf(spec, sizeof spec, "random:sites:sites=3:nodes=%d:interleave=%d", (P + 2) / 3,
                 P % 2);
        break;
    case 2:
        snprintf(spec, sizeof spec, "random:two-cluster:n1=%d:n2=%d:seed=%llu", 1 + P / 2,
                 1 + P - P / 2, (unsigned long long)below(r, 1000));
        break;
    case 3:
        snprintf(spec, sizeof spec, "random:uniform:P=%d:seed=%llu", P + (int)below(r, 3),
                 (unsigned long long)below(r, 1000));
        break;
    default: { /* a random heterogeneous matrix with two clusters */
        hc_platform_create((uint32_t)P, 1e-4, 1e8, &p);
        for (int i = 0; i < P; i++) {
            hc_platform_set_cluster(p, (uint32_t)i, i < P / 2 ? "A" : "B");
            for (int j = 0; j < P; j++)
                if (i != j)
                    hc_platform_set_link(p, (uint32_t)i, (uint32_t)j,
                                         1e-5 * (double)(1 + below(r, 1000)),
                                         1e6 * (double)(1 + below(r, 1000)));
        }
        snprintf(name, len, "random matrix");
        return p;
    }
    }
    snprintf(name, len, "%s", spec);
    if (hc_platform_load(spec, &p) != HC_OK) {
        fprintf(stderr, "stress: cannot load %s: %s\n", spec, hc_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}
#endif

/* ---- running one case ---- */

typedef struct {
    MPI_Comm comm;
#ifndef HC_STRESS_PMPI
    hc_comm_t *hc;
#endif
} target_t;

static int call_bcast(target_t *t, void *buf, int n, MPI_Datatype type, int root)
{
#ifdef HC_STRESS_PMPI
    return MPI_Bcast(buf, n, type, root, t->comm);
#else
    return hc_bcast(buf, n, type, root, t->hc);
#endif
}

static int call_reduce(target_t *t, const void *s, void *r, int n, MPI_Datatype type, MPI_Op op,
                       int root)
{
#ifdef HC_STRESS_PMPI
    return MPI_Reduce(s, r, n, type, op, root, t->comm);
#else
    return hc_reduce(s, r, n, type, op, root, t->hc);
#endif
}

static int call_alltoall(target_t *t, const void *s, int sn, MPI_Datatype st, void *r, int rn,
                         MPI_Datatype rt)
{
#ifdef HC_STRESS_PMPI
    return MPI_Alltoall(s, sn, st, r, rn, rt, t->comm);
#else
    return hc_alltoall(s, sn, st, r, rn, rt, t->hc);
#endif
}

static int call_alltoallv(target_t *t, const void *s, const int *sc, const int *sd, MPI_Datatype st,
                          void *r, const int *rc, const int *rd, MPI_Datatype rt)
{
#ifdef HC_STRESS_PMPI
    return MPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, t->comm);
#else
    return hc_alltoallv(s, sc, sd, st, r, rc, rd, rt, t->hc);
#endif
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static void before_call(const case_t *c, int me)
{
    if (c->delay > 0 && me == c->delay_rank)
        sleep_s(c->delay);
}

static void failed_call(const case_t *c, MPI_Comm comm, int err)
{
    char line[1024], msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, msg, &len);
    describe(c, line, sizeof line);
#ifdef HC_STRESS_PMPI
    const char *detail = "";
#else
    const char *detail = hc_error_detail();
#endif
    int r;
    MPI_Comm_rank(comm, &r);
    fprintf(stderr, "stress: ERROR %s (%s) on rank %d; %s; replay: --seed %llu --first %ld\n", msg,
            detail, r, line, (unsigned long long)O.seed, c->index);
    pthread_mutex_lock(&mismatch_lock);
    mismatches++;
    pthread_mutex_unlock(&mismatch_lock);
}

/* The MPI library's own collective failed: the case cannot be judged (counted as a failure,
 * since the reference forms used here should always work). */
static void failed_reference(const case_t *c, MPI_Comm comm, int err)
{
    char line[1024], msg[MPI_MAX_ERROR_STRING];
    int len = 0, r;
    MPI_Error_string(err, msg, &len);
    describe(c, line, sizeof line);
    MPI_Comm_rank(comm, &r);
    fprintf(stderr, "stress: REFERENCE ERROR (the MPI library's collective) %s on rank %d; %s\n",
            msg, r, line);
    pthread_mutex_lock(&mismatch_lock);
    mismatches++;
    pthread_mutex_unlock(&mismatch_lock);
}

/* One broadcast repetition: the root's type a, the others' type b (same signature). */
static void run_bcast(const case_t *c, target_t *t, rng_t *data, MPI_Comm self)
{
    int me;
    MPI_Comm_rank(t->comm, &me);
    int k = me == c->root ? c->type_a : c->type_b;
    long n = me == c->root ? c->count_a : c->count_b;
    size_t bytes = span(k, n) + 64;
    char *x = malloc(bytes), *y = malloc(bytes);
    memset(x, 0x5a ^ me, bytes);
    if (me == c->root)
        fill(x, k, n, data, self);
    memcpy(y, x, bytes);
    before_call(c, me);
    int err = call_bcast(t, x, (int)n, types[k].t, c->root);
    int ref = REF(Bcast)(y, (int)n, types[k].t, c->root, t->comm);
    if (ref != MPI_SUCCESS)
        failed_reference(c, t->comm, ref);
    else if (err != MPI_SUCCESS)
        failed_call(c, t->comm, err);
    else
        check(c, t->comm, "bcast buffer", x, y, bytes);
    free(x);
    free(y);
}

static void run_reduce(const case_t *c, target_t *t, rng_t *data, MPI_Comm self, int all)
{
    int me;
    MPI_Comm_rank(t->comm, &me);
    int k = c->type_a;
    long n = c->count_a;
    size_t bytes = span(k, n) + 64;
    char *s = malloc(bytes), *x = malloc(bytes), *y = malloc(bytes);
    memset(s, 0x33, bytes);
    fill(s, k, n, data, self);
    memset(x, 0x77, bytes);
    memset(y, 0x77, bytes);
    const int root_side = all || me == c->root;
    const void *sx = s, *sy = s;    /* the reference never runs in place (MPICH 4.0.2 fails some
                                       in-place forms; the non-in-place one is equivalent) */
    if (c->in_place && root_side) { /* the data starts in the receive buffer */
        memcpy(x, s, bytes);
        memcpy(y, s, bytes); /* same holes; the reference sends from s */
        sx = MPI_IN_PLACE;
    }
    /* Non-roots' receive buffers are ignored: pass NULL sometimes. */
    void *rx = !root_side && c->in_place ? NULL : x, *ry = !root_side && c->in_place ? NULL : y;
    before_call(c, me);
    int err;
    int ref;
    if (all) {
#ifdef HC_STRESS_PMPI
        err = MPI_Allreduce(sx, rx, (int)n, types[k].t, c->op, t->comm);
#else
        err = MPI_SUCCESS;
#endif
        ref = REF(Allreduce)(sy, ry, (int)n, types[k].t, c->op, t->comm);
    } else {
        err = call_reduce(t, sx, rx, (int)n, types[k].t, c->op, c->root);
        ref = REF(Reduce)(sy, ry, (int)n, types[k].t, c->op, c->root, t->comm);
    }
    if (ref != MPI_SUCCESS)
        failed_reference(c, t->comm, ref);
    else if (err != MPI_SUCCESS)
        failed_call(c, t->comm, err);
    else if (root_side)
        check(c, t->comm, all ? "allreduce result" : "reduce result", x, y, bytes);
    free(s);
    free(x);
    free(y);
}

static void run_alltoall(const case_t *c, target_t *t, rng_t *data, MPI_Comm self)
{
    int me, P;
    MPI_Comm_rank(t->comm, &me);
    MPI_Comm_size(t->comm, &P);
    int ka = c->type_a, kb = c->type_b; /* send type a x count_a, receive type b x count_b */
    MPI_Aint lb, exa, exb;
    MPI_Type_get_extent(types[ka].t, &lb, &exa);
    MPI_Type_get_extent(types[kb].t, &lb, &exb);
    size_t sbytes = span(ka, c->count_a * P) + 64, rbytes = span(kb, c->count_b * P) + 64;
    sbytes = sbytes > rbytes ? sbytes : rbytes;
    char *s = malloc(sbytes), *x = malloc(rbytes), *y = malloc(rbytes);
    memset(s, 0x11, sbytes);
    memset(x, 0x22 ^ me, rbytes);
    if (c->in_place) {
        fill(x, kb, c->count_b * P, data, self);
    } else {
        fill(s, ka, c->count_a * P, data, self);
    }
    memcpy(y, x, rbytes);
    before_call(c, me);
    int err;
    if (c->in_place) /* MPI ignores the send count and type: pass garbage */
        err =
            call_alltoall(t, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, x, (int)c->count_b, types[kb].t);
    else
        err = call_alltoall(t, s, (int)c->count_a, types[ka].t, x, (int)c->count_b, types[kb].t);
    int ref;
    if (c->in_place) { /* the reference sends from a copy (see run_reduce) */
        memcpy(s, y, rbytes);
        ref = REF(Alltoall)(s, (int)c->count_b, types[kb].t, y, (int)c->count_b, types[kb].t,
                            t->comm);
    } else {
        ref = REF(Alltoall)(s, (int)c->count_a, types[ka].t, y, (int)c->count_b, types[kb].t,
                            t->comm);
    }
    if (ref != MPI_SUCCESS)
        failed_reference(c, t->comm, ref);
    else if (err != MPI_SUCCESS)
        failed_call(c, t->comm, err);
    else
        check(c, t->comm, "alltoall buffer", x, y, rbytes);
    free(s);
    free(x);
    free(y);
}

/* The P x P count matrix of an alltoallv case (the same on every rank): skewed, with zeros;
 * symmetric in place. `change` alters one pair (a repetition whose sizes changed). */
static void v_matrix(const case_t *c, int P, int *m, int change)
{
    rng_t r = {O.seed ^ (uint64_t)c->index * 7919};
    long per = c->count_a > 0 ? c->count_a : 1;
    for (int i = 0; i < P * P; i++) {
        uint64_t u = below(&r, 10);
        m[i] = u == 0  ? 0
               : u < 7 ? (int)below(&r, (uint64_t)(per / 8 + 2))
                       : (int)below(&r, (uint64_t)per + 1);
    }
    if (c->count_a == 0)
        memset(m, 0, sizeof *m * (size_t)P * P);
    if (change) {
        int i = (int)below(&r, (uint64_t)P), j = (int)below(&r, (uint64_t)P);
        m[i * P + j] += change;
        m[j * P + i] += change;
    }
    if (c->in_place)
        for (int i = 0; i < P; i++)
            for (int j = 0; j < i; j++)
                m[i * P + j] = m[j * P + i];
}

static void run_alltoallv(const case_t *c, target_t *t, rng_t *data, MPI_Comm self, int rep,
                          int redistribute)
{
    int me, P;
    MPI_Comm_rank(t->comm, &me);
    MPI_Comm_size(t->comm, &P);
    int *m = malloc(sizeof(int) * (size_t)P * P);
    /* Sizes change at some repetitions (speculation misses, re-planning). */
    v_matrix(c, P, m, rep > 0 && (c->index + rep) % 3 == 0 ? 5 + rep : 0);
    int k = c->type_a;
    int *sc = malloc(sizeof(int) * P), *sd = malloc(sizeof(int) * P);
    int *rc = malloc(sizeof(int) * P), *rd = malloc(sizeof(int) * P);
    long ts = 0, tr = 0;
    for (int j = 0; j < P; j++) {
        sc[j] = m[me * P + j];
        rc[j] = m[j * P + me];
        sd[j] = (int)ts;
        rd[j] = (int)tr;
        ts += sc[j];
        tr += rc[j];
    }
    long units = (ts > tr ? ts : tr) + 1;
    size_t bytes = span(k, units) + 64;
    char *s = malloc(bytes), *x = malloc(bytes), *y = malloc(bytes);
    memset(s, 0x44, bytes);
    memset(x, 0x66 ^ me, bytes);
    fill(c->in_place ? x : s, k, units, data, self);
    memcpy(y, x, bytes);
    before_call(c, me);
    int err;
    if (redistribute) {
#ifndef HC_STRESS_PMPI
        err = hc_redistribute(s, sc, sd, x, rc, rd, types[k].t, (int)(c->index % 4), t->hc);
#else
        err = MPI_SUCCESS;
#endif
    } else if (c->in_place) { /* send counts, displacements and type are ignored */
        int junk[1] = {-7};
        err = call_alltoallv(t, MPI_IN_PLACE, junk, junk, MPI_DATATYPE_NULL, x, rc, rd, types[k].t);
    } else {
        err = call_alltoallv(t, s, sc, sd, types[k].t, x, rc, rd, types[k].t);
    }
    int ref;
    if (c->in_place && !redistribute) { /* the reference sends from a copy (see run_reduce) */
        memcpy(s, y, bytes);
        ref = REF(Alltoallv)(s, rc, rd, types[k].t, y, rc, rd, types[k].t, t->comm);
    } else {
        ref = REF(Alltoallv)(s, sc, sd, types[k].t, y, rc, rd, types[k].t, t->comm);
    }
    if (ref != MPI_SUCCESS)
        failed_reference(c, t->comm, ref);
    else if (err != MPI_SUCCESS)
        failed_call(c, t->comm, err);
    else
        check(c, t->comm, redistribute ? "redistribute buffer" : "alltoallv buffer", x, y, bytes);
    free(m);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(s);
    free(x);
    free(y);
}

/* Draw case `index` (every rank the same) and run it on this thread's communicators. */
static void run_case(long index, comms_t *cs, MPI_Comm self)
{
    rng_t r = {O.seed * 0x9e3779b97f4a7c15ULL + (uint64_t)index * 0xda942042e4dd58b5ULL +
               (uint64_t)thread_id};
    rnd(&r);
    comms_refresh(cs, index);
    case_t c;
    memset(&c, 0, sizeof c);
    c.index = index;
    /* With threads every case runs on the thread's own communicator (issue 13's scenario):
     * creating communicators from several threads at once is as fragile as the MPI library
     * makes it (Open MPI 4.1 can hang in ompi_comm_nextcid when memberships differ). */
    c.comm_kind = O.threads ? 0 : (int)below(&r, 3);
    MPI_Comm comm = cs->pool[c.comm_kind];
    if (comm == MPI_COMM_NULL) /* this rank is not in the split */
        return;
    int me;
    MPI_Comm_size(comm, &c.size);
    MPI_Comm_rank(comm, &me);
    int n_colls = 4;
#ifdef HC_STRESS_PMPI
    if (O.allreduce)
        n_colls = 5;
#else
    n_colls = 6;
#endif
    c.coll = (int)below(&r, (uint64_t)n_colls);
    if (c.coll == C_ALLREDUCE && n_colls == 6 && !O.allreduce)
        c.coll = C_REDUCE; /* API mode: no allreduce */
#ifndef HC_STRESS_PMPI
    if (c.coll == C_ALLREDUCE)
        c.coll = C_REDISTRIBUTE;
#endif
    const int f_inplace = O.focus && strcmp(O.focus, "inplace") == 0;
    const int f_signature = O.focus && strcmp(O.focus, "signature") == 0;
#ifndef HC_STRESS_PMPI
    const int f_redist = O.focus && strcmp(O.focus, "redistribute") == 0;
    if (f_redist)
        c.coll = C_REDISTRIBUTE;
#endif
    if (f_inplace && (c.coll == C_BCAST || c.coll == C_REDISTRIBUTE)) /* no in-place form */
        c.coll = c.coll == C_BCAST ? C_REDUCE : C_ALLTOALLV;
    if (f_signature && c.coll != C_BCAST) /* different types of one signature per rank */
        c.coll = C_ALLTOALL;
    c.root = (int)below(&r, (uint64_t)c.size);
    c.reps = 1 + (int)below(&r, 4);
    c.in_place = f_inplace || (!f_signature && chance(&r, 30));
    c.type_b = -1;
    switch (c.coll) {
    case C_BCAST: {
        static const int *pick[] = {&T_INT,     &T_DOUBLE,  &T_CHAR,   &T_VEC,  &T_CONTIG7,
                                    &T_RESIZED, &T_INDEXED, &T_STRUCT, &T_ZERO, &T_LONG};
        c.type_a = *pick[below(&r, 10)];
        if (f_signature && (types[c.type_a].base != B_INT || types[c.type_a].per == 0))
            c.type_a = T_INT;
        c.count_a = draw_count(&r, c.type_a);
        c.type_b = c.type_a;
        c.count_b = c.count_a;
        if (types[c.type_a].base == B_INT && types[c.type_a].per > 0 &&
            (chance(&r, 50) || f_signature))
            c.count_b = same_signature(&r, c.type_a, c.count_a, &c.type_b);
        break;
    }
    case C_REDUCE:
    case C_ALLREDUCE: {
        static const struct {
            const int *type;
            MPI_Op op;
            const char *name;
        } combos[] = {{&T_INT, MPI_SUM, "MPI_SUM"},
                      {&T_INT, MPI_MAX, "MPI_MAX"},
                      {&T_INT, MPI_BXOR, "MPI_BXOR"},
                      {&T_LONG, MPI_SUM, "MPI_SUM"},
                      {&T_LONG, MPI_MIN, "MPI_MIN"},
                      {&T_DOUBLE, MPI_SUM, "MPI_SUM"},
                      {&T_DOUBLE, MPI_MAX, "MPI_MAX"},
                      {&T_UCHAR, MPI_BOR, "MPI_BOR"},
                      {&T_2INT, MPI_MAXLOC, "MPI_MAXLOC"},
                      {&T_DINT, MPI_MINLOC, "MPI_MINLOC"},
                      {&T_INT, MPI_OP_NULL, "isum"},
                      {&T_VEC, MPI_OP_NULL, "isum"},
                      {&T_INDEXED, MPI_OP_NULL, "isum"},
                      {&T_RESIZED, MPI_OP_NULL, "isum"},
                      {&T_INT, MPI_OP_NULL, "noncommutative"},
                      {&T_CONTIG7, MPI_OP_NULL, "isum declared non-commutative"}};
        size_t pick = below(&r, sizeof combos / sizeof combos[0]);
        c.type_a = *combos[pick].type;
        c.op_name = combos[pick].name;
        c.op = combos[pick].op != MPI_OP_NULL             ? combos[pick].op
               : strcmp(c.op_name, "isum") == 0           ? OP_ISUM
               : strcmp(c.op_name, "noncommutative") == 0 ? OP_NONCOMM
                                                          : OP_ISUM_NC;
        if (c.op == OP_NONCOMM)
            c.type_a = T_INT;
        c.count_a = draw_count(&r, c.type_a);
        c.type_b = c.type_a;
        c.count_b = c.count_a;
        break;
    }
    case C_ALLTOALL: {
        static const int *pick[] = {&T_INT, &T_DOUBLE, &T_VEC, &T_CONTIG7, &T_STRUCT, &T_INDEXED};
        c.type_a = *pick[below(&r, 6)];
        if (f_signature && types[c.type_a].base != B_INT)
            c.type_a = T_VEC;
        c.count_a = draw_count(&r, c.type_a) / c.size;
        c.type_b = c.type_a;
        c.count_b = c.count_a;
        if (types[c.type_a].base == B_INT && (chance(&r, 50) || f_signature) && !c.in_place)
            c.count_b = same_signature(&r, c.type_a, c.count_a, &c.type_b);
        break;
    }
    default: { /* alltoallv, redistribute */
        static const int *pick[] = {&T_INT, &T_DOUBLE, &T_VEC, &T_STRUCT, &T_CHAR};
        c.type_a = *pick[below(&r, 5)];
        c.count_a = draw_count(&r, c.type_a) / (c.size > 1 ? c.size : 1);
        c.type_b = c.type_a;
        c.count_b = c.count_a;
        if (c.coll == C_REDISTRIBUTE)
            c.in_place = 0;
    }
    }
    if (chance(&r, 30)) {
        c.delay_rank = (int)below(&r, (uint64_t)c.size);
        c.delay = 1e-4 * (double)below(&r, 30);
    }
    if (chance(&r, 15) && !O.threads) /* setenv is not thread-safe */
        snprintf(c.fault, sizeof c.fault, "%d:%.4f", (int)below(&r, (uint64_t)c.size),
                 1e-4 * (double)below(&r, 50));
    target_t t;
    memset(&t, 0, sizeof t);
    t.comm = comm;
    snprintf(c.algo, sizeof c.algo, "%s", "(environment)");
    snprintf(c.platform, sizeof c.platform, "%s", "(environment)");
#ifndef HC_STRESS_PMPI
    /* The algorithm: auto, native or each registered one in turn. */
    hc_coll_t hcoll = hc_coll_of(c.coll);
    const char *names[64];
    int n_names = 0;
    names[n_names++] = "auto";
    if (c.coll != C_REDISTRIBUTE)
        names[n_names++] = "native";
    for (size_t a = 0; a < hc_algo_count() && n_names < 64; a++)
        if (hc_algo_get(a)->coll == hcoll && strcmp(hc_algo_get(a)->name, "auto") != 0)
            names[n_names++] = hc_algo_get(a)->name;
    const char *algo = names[below(&r, (uint64_t)n_names)];
    if (f_redist)
        algo = "auto";
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    algo_field(&o, c.coll, algo);
    o.plan_after = 1 + (unsigned)below(&r, 3);
    o.tune_trials = (unsigned)below(&r, 4);
    o.verbose = O.verbose > 1;
    /* from the index (hashed), not drawn, so that the other draws keep their seeds */
    static const char *const orders[] = {"auto", "round-robin", "messages"};
    c.recv_order = o.recv_order = orders[((uint64_t)c.index * 0x9E3779B97F4A7C15ull >> 40) % 3];
    /* a broadcast's pieces across sites: the planner's choice, never, or sub-messages */
    static const char *const splits[] = {"auto", "never", "1000", "3468"};
    c.bcast_split = o.bcast_split = splits[((uint64_t)c.index * 0xC2B2AE3D27D4EB4Full >> 40) % 4];
    c.reduce_split = o.reduce_split = splits[((uint64_t)c.index * 0x165667B19E3779F9ull >> 40) % 4];
    /* an exchange through site forwarders: the planner's choice, never, or always */
    static const char *const relays[] = {"auto", "never", "forwarders"};
    c.relay = o.relay = relays[((uint64_t)c.index * 0x27D4EB2F165667C5ull >> 40) % 3];
    snprintf(c.algo, sizeof c.algo, "%s", algo);
    hc_platform_t *plat = draw_platform(&r, c.size, c.platform, sizeof c.platform);
    if (f_redist) {
        hc_platform_destroy(plat);
        snprintf(c.platform, sizeof c.platform, "random:sites:sites=2:nodes=%d", (c.size + 1) / 2);
        plat = NULL;
        if (hc_platform_load(c.platform, &plat) != HC_OK)
            fprintf(stderr, "stress: %s: %s\n", c.platform, hc_error_detail());
    }
    /* SimGrid's model for the planner (its size classes: pieces, leads, forwarders, sub-messages
     * of SimGrid's best classes), for half the cases; setenv is not thread-safe */
    const char *was = getenv("HETCOLL_FLOW_MODEL");
    char saved[32] = "";
    if (was)
        snprintf(saved, sizeof saved, "%s", was);
    if (!O.threads && ((uint64_t)c.index * 0x94D049BB133111EBull >> 40) % 2) {
        c.flow_model = "smpi";
        setenv("HETCOLL_FLOW_MODEL", "smpi", 1);
    }
    int err = hc_comm_create(comm, plat, &o, &t.hc);
    if (c.flow_model && was)
        setenv("HETCOLL_FLOW_MODEL", saved, 1);
    else if (c.flow_model)
        unsetenv("HETCOLL_FLOW_MODEL");
    hc_platform_destroy(plat);
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "stress: hc_comm_create failed: %s\n", hc_error_detail());
        failed_call(&c, comm, err);
        return;
    }
#endif
    current = &c;
    if (c.fault[0])
        setenv("HETCOLL_FAULT_DELAY", c.fault, 1);
    if (O.verbose && me == 0 && thread_id == 0) {
        char line[1024];
        describe(&c, line, sizeof line);
        fprintf(stderr, "stress: %s\n", line);
    }
    if (!O.threads)
        alarm((unsigned)O.timeout);
    rng_t data = {O.seed ^ ((uint64_t)index << 20) ^ (uint64_t)me * 0x51ed27};
    calls_run += c.reps;
    bytes_run += (double)c.reps * (double)c.count_a * (double)tsize(c.type_a);
    for (int rep = 0; rep < c.reps; rep++) {
        switch (c.coll) {
        case C_BCAST:
            run_bcast(&c, &t, &data, self);
            break;
        case C_REDUCE:
            run_reduce(&c, &t, &data, self, 0);
            break;
        case C_ALLREDUCE:
            run_reduce(&c, &t, &data, self, 1);
            break;
        case C_ALLTOALL:
            run_alltoall(&c, &t, &data, self);
            break;
        default:
            run_alltoallv(&c, &t, &data, self, rep, c.coll == C_REDISTRIBUTE);
        }
    }
    if (!O.threads)
        alarm(0);
    if (c.fault[0])
        unsetenv("HETCOLL_FAULT_DELAY");
    current = NULL;
#ifndef HC_STRESS_PMPI
    hc_comm_destroy(t.hc);
#endif
}

/* ---- modes ---- */

typedef struct {
    MPI_Comm comm;
    int id;
} thread_arg_t;

static void *thread_main(void *va)
{
    thread_arg_t *a = va;
    thread_id = a->id;
    comms_t cs = {a->comm, {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL}, 0};
    for (long k = O.first; k < O.first + O.cases; k++)
        run_case(k, &cs, MPI_COMM_SELF);
    comms_free(&cs);
    return NULL;
}

/* Bad arguments: the same error class as the MPI library's own. */
static long errors_mode(int fatal)
{
    int me, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    int buf[64] = {0}, out[64] = {0};
    long bad = 0;
    if (fatal) { /* the default handler is fatal: the job must end here */
        MPI_Bcast(buf, 4, MPI_INT, P, MPI_COMM_WORLD);
        if (me == 0)
            printf("stress: survived a fatal error\n");
        return 1;
    }
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    target_t t;
    memset(&t, 0, sizeof t);
    t.comm = dup;
#ifndef HC_STRESS_PMPI
    hc_platform_t *p = NULL;
    hc_platform_load("builtin:grid5000", &p);
    if (hc_comm_create(dup, p, NULL, &t.hc) != MPI_SUCCESS)
        return 1;
    hc_platform_destroy(p);
#endif
    for (int rep = 0; rep < 2; rep++) {
        struct {
            const char *what;
            int ours, ref;
        } r[6];
        r[0].what = "bcast root = size";
        r[0].ours = call_bcast(&t, buf, 4, MPI_INT, P);
        r[0].ref = PMPI_Bcast(buf, 4, MPI_INT, P, dup);
        r[1].what = "bcast count -1";
        r[1].ours = call_bcast(&t, buf, -1, MPI_INT, 0);
        r[1].ref = PMPI_Bcast(buf, -1, MPI_INT, 0, dup);
        r[2].what = "bcast MPI_DATATYPE_NULL";
        r[2].ours = call_bcast(&t, buf, 4, MPI_DATATYPE_NULL, 0);
        r[2].ref = PMPI_Bcast(buf, 4, MPI_DATATYPE_NULL, 0, dup);
        r[3].what = "reduce MPI_OP_NULL";
        r[3].ours = call_reduce(&t, buf, out, 4, MPI_INT, MPI_OP_NULL, 0);
        r[3].ref = PMPI_Reduce(buf, out, 4, MPI_INT, MPI_OP_NULL, 0, dup);
        r[4].what = "reduce root -1";
        r[4].ours = call_reduce(&t, buf, out, 4, MPI_INT, MPI_SUM, -1);
        r[4].ref = PMPI_Reduce(buf, out, 4, MPI_INT, MPI_SUM, -1, dup);
        r[5].what = "alltoall count -1";
        r[5].ours = call_alltoall(&t, buf, -1, MPI_INT, out, -1, MPI_INT);
        r[5].ref = PMPI_Alltoall(buf, -1, MPI_INT, out, -1, MPI_INT, dup);
        for (int k = 0; k < 6; k++) {
            int co = -1, cr = -1;
            MPI_Error_class(r[k].ours, &co);
            MPI_Error_class(r[k].ref, &cr);
            if (r[k].ref == MPI_SUCCESS || co != cr) {
                fprintf(stderr, "stress: ERRORS %s: class %d, the MPI library's %d (rank %d)\n",
                        r[k].what, co, cr, me);
                bad++;
            }
#ifndef HC_STRESS_PMPI
            if (!hc_error_detail()[0]) {
                fprintf(stderr, "stress: ERRORS %s: no hc_error_detail() on rank %d\n", r[k].what,
                        me);
                bad++;
            }
#endif
        }
    }
#ifndef HC_STRESS_PMPI
    hc_comm_destroy(t.hc);
#endif
    MPI_Comm_free(&dup);
    return bad;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: stress [--seed S] [--first K] [--cases N] [--timeout SEC] [--threads T] "
            "[--max-bytes B] [--allreduce] [--errors return|fatal] "
            "[--focus inplace|signature|redistribute] [--verbose]\n");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--seed") == 0 && v)
            O.seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--first") == 0 && v)
            O.first = atol(argv[++i]);
        else if (strcmp(a, "--cases") == 0 && v)
            O.cases = atol(argv[++i]);
        else if (strcmp(a, "--timeout") == 0 && v)
            O.timeout = atof(argv[++i]);
        else if (strcmp(a, "--threads") == 0 && v)
            O.threads = atoi(argv[++i]);
        else if (strcmp(a, "--max-bytes") == 0 && v)
            O.max_bytes = atol(argv[++i]);
        else if (strcmp(a, "--allreduce") == 0)
            O.allreduce = 1;
        else if (strcmp(a, "--errors") == 0 && v)
            O.errors = argv[++i];
        else if (strcmp(a, "--focus") == 0 && v &&
                 (strcmp(v, "inplace") == 0 || strcmp(v, "signature") == 0
#ifndef HC_STRESS_PMPI
                  || strcmp(v, "redistribute") == 0
#endif
                  ))
            O.focus = argv[++i];
        else if (strcmp(a, "--verbose") == 0)
            O.verbose++;
        else {
            usage();
            return 2;
        }
    }
    int provided = 0;
    if (O.threads > 0) {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        if (provided < MPI_THREAD_MULTIPLE) {
            fprintf(stderr, "stress: MPI_THREAD_MULTIPLE not provided\n");
            MPI_Abort(MPI_COMM_WORLD, 77);
        }
    } else {
        MPI_Init(&argc, &argv);
    }
    int me, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    make_types();
    MPI_Op_create(op_isum, 1, &OP_ISUM);
    MPI_Op_create(op_noncomm, 0, &OP_NONCOMM);
    MPI_Op_create(op_isum, 0, &OP_ISUM_NC);
    if (O.errors) {
        long bad = errors_mode(strcmp(O.errors, "fatal") == 0);
        long all = 0;
        MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (me == 0)
            printf("stress: errors %s: %ld problems\n", O.errors, all);
        MPI_Finalize();
        return all ? 1 : 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    signal(SIGALRM, watchdog);
    double t0 = MPI_Wtime();
    if (me == 0)
        printf("stress: seed %llu, cases %ld..%ld, %d ranks, %d threads\n",
               (unsigned long long)O.seed, O.first, O.first + O.cases - 1, P,
               O.threads ? O.threads : 1);
    if (O.threads > 0) {
        /* Each thread gets its own communicator; no collective runs before the threads. */
        MPI_Comm *comms = malloc(sizeof *comms * (size_t)O.threads);
        pthread_t *th = malloc(sizeof *th * (size_t)O.threads);
        thread_arg_t *args = malloc(sizeof *args * (size_t)O.threads);
        for (int k = 0; k < O.threads; k++)
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]);
        alarm((unsigned)(O.timeout * 4));
        for (int k = 0; k < O.threads; k++) {
            args[k] = (thread_arg_t){comms[k], k};
            pthread_create(&th[k], NULL, thread_main, &args[k]);
        }
        for (int k = 0; k < O.threads; k++)
            pthread_join(th[k], NULL);
        alarm(0);
        for (int k = 0; k < O.threads; k++)
            MPI_Comm_free(&comms[k]);
        free(comms);
        free(th);
        free(args);
    } else {
        comms_t cs = {MPI_COMM_WORLD, {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL}, 0};
        for (long k = O.first; k < O.first + O.cases; k++)
            run_case(k, &cs, MPI_COMM_SELF);
        comms_free(&cs);
    }
    long all = 0, calls = 0;
    double bytes = 0;
    MPI_Allreduce(&mismatches, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&calls_run, &calls, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bytes_run, &bytes, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("stress: seed %llu: %ld cases%s (%ld calls, %.3g MB per rank), %ld mismatches or "
               "errors, %.1f s\n",
               (unsigned long long)O.seed, O.cases * (O.threads ? O.threads : 1),
               O.threads ? " (all threads)" : "", calls, bytes / 1e6, all, MPI_Wtime() - t0);
    MPI_Op_free(&OP_ISUM);
    MPI_Op_free(&OP_NONCOMM);
    MPI_Op_free(&OP_ISUM_NC);
    MPI_Finalize();
    return all ? 1 : 0;
}
