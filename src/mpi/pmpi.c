/* libhetcoll_pmpi.so: hetcoll for unmodified MPI programs through the MPI profiling interface.
 *
 *   HETCOLL_PLATFORM=builtin:grid5000 LD_PRELOAD=libhetcoll_pmpi.so mpirun ... ./app
 *
 * Intercepts MPI_Alltoall, MPI_Alltoallv, MPI_Bcast, MPI_Reduce and (opt-in) MPI_Allreduce.
 * The drop-in never hurts: whatever goes wrong on hetcoll's side (a bad variable, a platform
 * that cannot be loaded, a planning failure, an unsupported case) runs the MPI library's own
 * collective instead and says so once on stderr per communicator and reason; arguments that
 * hetcoll finds wrong are handed to the MPI library's collective, which returns (or raises)
 * exactly what it would without hetcoll. The environment is read and checked once, at the
 * first intercepted call (docs/pmpi.md lists every variable).
 *
 * Per-communicator state (an hc_comm_t) is an MPI attribute whose delete callback frees it
 * with the communicator; MPI_COMM_WORLD's is freed in MPI_Finalize. The runtime's own
 * collective calls (plan sharing, size gathering, trial timing) re-enter MPI_Bcast and
 * friends; a per-thread depth counter sends those straight to PMPI_*. The one-time set-up is
 * a pthread_once, so MPI_THREAD_MULTIPLE programs whose threads start with collectives on
 * their own communicators are safe. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

enum { D_ALLTOALL = 1, D_ALLTOALLV = 2, D_BCAST = 4, D_REDUCE = 8, D_ALLREDUCE = 16 };
#define D_ALL (D_ALLTOALL | D_ALLTOALLV | D_BCAST | D_REDUCE | D_ALLREDUCE)

static _Thread_local int depth; /* > 0: inside hetcoll; MPI calls pass through */

/* Written once by configure(), read-only afterwards. */
static struct {
    unsigned intercept; /* D_* bits */
    int verbose;
    long long min_bytes;
    hc_platform_t *platform; /* NULL: everything passes through */
    int keyval;
    hc_comm_opts_t opts;
    char algo[HC_COLL_COUNT][48];
} cfg = {.keyval = MPI_KEYVAL_INVALID};
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef struct {
    hc_comm_t *hc;   /* NULL: this communicator passes through */
    unsigned warned; /* 1 << hc__why_t reasons already reported */
} pmpi_state_t;

static int world_rank(void)
{
    int r = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

static void say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hetcoll[pmpi]: %s\n", line);
}

/* Configuration problems are the job's, not a rank's: world rank 0 reports them. */
#define WARN(...)                                                                                  \
    do {                                                                                           \
        if (world_rank() == 0)                                                                     \
            say(__VA_ARGS__);                                                                      \
    } while (0)

static const struct {
    const char *name;
    unsigned bit;
} coll_names[] = {{"alltoall", D_ALLTOALL}, {"alltoallv", D_ALLTOALLV}, {"bcast", D_BCAST},
                  {"reduce", D_REDUCE},     {"allreduce", D_ALLREDUCE}, {"all", D_ALL}};

/* A comma list of collective names; unknown names are reported and ignored. */
static unsigned parse_list(const char *var)
{
    const char *s = getenv(var);
    unsigned m = 0;
    while (s && *s) {
        size_t n = strcspn(s, ", ");
        size_t k = 0;
        for (; k < sizeof coll_names / sizeof coll_names[0]; k++)
            if (strlen(coll_names[k].name) == n && strncmp(s, coll_names[k].name, n) == 0)
                break;
        if (k < sizeof coll_names / sizeof coll_names[0])
            m |= coll_names[k].bit;
        else if (n > 0)
            WARN("%s=%s: unknown collective '%.*s' ignored (valid: alltoall, alltoallv, bcast, "
                 "reduce, allreduce, all)",
                 var, getenv(var), (int)n, s);
        s += n;
        s += strspn(s, ", ");
    }
    return m;
}

/* An integer variable in [lo, hi]; a bad value is reported and the default kept. */
static long long parse_int(const char *var, long long lo, long long hi, long long def)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return def;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (*end || errno || x < lo || x > hi) {
        WARN("%s=%s: not an integer from %lld to %lld; using the default %lld", var, v, lo, hi,
             def);
        return def;
    }
    return x;
}

static int delete_state(MPI_Comm comm, int kv, void *attr, void *extra)
{
    (void)comm;
    (void)kv;
    (void)extra;
    pmpi_state_t *st = attr;
    depth++;
    hc_comm_destroy(st->hc);
    depth--;
    free(st);
    return MPI_SUCCESS;
}

static void configure(void)
{
    depth++;
    hc_comm_opts_init(&cfg.opts);
    cfg.verbose = (int)parse_int("HETCOLL_VERBOSE", 0, 1, 0);
    cfg.opts.verbose = cfg.verbose;
    cfg.intercept = D_ALL & ~D_ALLREDUCE;
    cfg.intercept |= parse_list("HETCOLL_ENABLE") & D_ALLREDUCE;
    cfg.intercept &= ~parse_list("HETCOLL_DISABLE");
    cfg.min_bytes = parse_int("HETCOLL_MIN_BYTES", 0, (long long)1 << 62, 0);
    cfg.opts.tune_trials = (unsigned)parse_int("HETCOLL_TUNE", 0, HC__TUNE_TRIALS, 3);
    cfg.opts.plan_after = (unsigned)parse_int("HETCOLL_PLAN_AFTER", 1, 1000000, 3);
    const char *ro = getenv("HETCOLL_RECV_ORDER");
    if (ro && *ro && strcmp(ro, "auto") != 0 && strcmp(ro, "messages") != 0 &&
        strcmp(ro, "round-robin") != 0)
        WARN("HETCOLL_RECV_ORDER=%s: not auto, messages or round-robin; using auto", ro);
    else
        cfg.opts.recv_order = ro && *ro ? ro : NULL;
    const char *rl = getenv("HETCOLL_RELAY");
    if (rl && *rl && strcmp(rl, "auto") != 0 && strcmp(rl, "never") != 0 &&
        strcmp(rl, "forwarders") != 0)
        WARN("HETCOLL_RELAY=%s: not auto, never or forwarders; using auto", rl);
    else
        cfg.opts.relay = rl && *rl ? rl : NULL;
    const char *bs = getenv("HETCOLL_BCAST_SPLIT");
    if (bs && *bs && hc__bcast_split_parse(bs) == -2)
        WARN("HETCOLL_BCAST_SPLIT=%s: not auto, never or a size in bytes; using auto", bs);
    else
        cfg.opts.bcast_split = bs && *bs ? bs : NULL;
    const char *rs = getenv("HETCOLL_REDUCE_SPLIT");
    if (rs && *rs && hc__bcast_split_parse(rs) == -2)
        WARN("HETCOLL_REDUCE_SPLIT=%s: not auto, never or a size in bytes; using auto", rs);
    else
        cfg.opts.reduce_split = rs && *rs ? rs : NULL;
    static const struct {
        const char *var;
        hc_coll_t coll;
        unsigned bits;
        const char *calls;
    } algos[] = {
        {"HETCOLL_ALGO_ALLTOALL", HC_COLL_ALLTOALL, D_ALLTOALL | D_ALLTOALLV,
         "MPI_Alltoall and MPI_Alltoallv run"},
        {"HETCOLL_ALGO_BCAST", HC_COLL_BCAST, D_BCAST, "MPI_Bcast runs"},
        {"HETCOLL_ALGO_REDUCE", HC_COLL_REDUCE, D_REDUCE | D_ALLREDUCE,
         "MPI_Reduce and MPI_Allreduce run"},
        {"HETCOLL_ALGO_REDISTRIBUTE", HC_COLL_REDISTRIBUTE, 0, NULL},
    };
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; k++) {
        const char *v = getenv(algos[k].var);
        const char *name = v && *v ? v : "auto";
        if (hc__algo_check(algos[k].coll, name) != HC_OK || strlen(name) >= 48) {
            if (algos[k].bits)
                WARN("%s: %s; %s the MPI library's own", algos[k].var, hc_error_detail(),
                     algos[k].calls);
            cfg.intercept &= ~algos[k].bits;
            name = "auto";
        }
        snprintf(cfg.algo[algos[k].coll], sizeof cfg.algo[0], "%s", name);
    }
    cfg.opts.algo_alltoall = cfg.algo[HC_COLL_ALLTOALL];
    cfg.opts.algo_bcast = cfg.algo[HC_COLL_BCAST];
    cfg.opts.algo_reduce = cfg.algo[HC_COLL_REDUCE];
    cfg.opts.algo_redistribute = cfg.algo[HC_COLL_REDISTRIBUTE];
    const char *spec = getenv("HETCOLL_PLATFORM");
    if (!spec || !*spec) {
        WARN("HETCOLL_PLATFORM is not set: every collective runs the MPI library's own (set it to "
             "a platform: a file, builtin:NAME or dir:FILE)");
    } else if (hc_platform_load(spec, &cfg.platform) != HC_OK) {
        WARN("HETCOLL_PLATFORM=%s: %s; every collective runs the MPI library's own", spec,
             hc_error_detail());
        cfg.platform = NULL;
    } else if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &cfg.keyval, NULL) !=
               MPI_SUCCESS) {
        WARN("cannot create an MPI attribute key; every collective runs the MPI library's own");
        hc_platform_destroy(cfg.platform);
        cfg.platform = NULL;
    } else if (cfg.verbose && world_rank() == 0) {
        say("platform %s (%u nodes); intercepting%s%s%s%s%s", spec, hc_platform_size(cfg.platform),
            cfg.intercept & D_ALLTOALL ? " alltoall" : "",
            cfg.intercept & D_ALLTOALLV ? " alltoallv" : "",
            cfg.intercept & D_BCAST ? " bcast" : "", cfg.intercept & D_REDUCE ? " reduce" : "",
            cfg.intercept & D_ALLREDUCE ? " allreduce" : "");
    }
    depth--;
}

static int comm_rank(MPI_Comm comm)
{
    int r = 0;
    PMPI_Comm_rank(comm, &r);
    return r;
}

/* The nodes of comm's members: their MPI_COMM_WORLD ranks (comm rank order); the platform's
 * size for a rank it does not have, which hc_platform_subset then reports. */
static void member_nodes(MPI_Comm comm, int size, uint32_t *nodes)
{
    MPI_Group g, wg;
    int *in = malloc(sizeof *in * (size_t)size), *w = malloc(sizeof *w * (size_t)size);
    int rc = in && w ? HC_OK : hc_error_set(HC_ERR_NOMEM, "out of memory");
    if (rc == HC_OK) {
        for (int r = 0; r < size; r++)
            in[r] = r;
        PMPI_Comm_group(comm, &g);
        PMPI_Comm_group(MPI_COMM_WORLD, &wg);
        PMPI_Group_translate_ranks(g, size, in, wg, w);
        PMPI_Group_free(&g);
        PMPI_Group_free(&wg);
    }
    const uint32_t P = hc_platform_size(cfg.platform);
    for (int r = 0; r < size; r++)
        nodes[r] = rc == HC_OK && w[r] >= 0 && (uint32_t)w[r] < P ? (uint32_t)w[r] : P;
    free(in);
    free(w);
}

/* The state of comm, created on first use (collective: every rank of comm is in the same
 * collective call). NULL: pass through. */
static pmpi_state_t *state_of(MPI_Comm comm, unsigned what)
{
    pthread_once(&once, configure);
    if (!cfg.platform || !(cfg.intercept & what) || comm == MPI_COMM_NULL)
        return NULL;
    int flag = 0;
    pmpi_state_t *st = NULL;
    PMPI_Comm_get_attr(comm, cfg.keyval, &st, &flag);
    if (flag)
        return st->hc ? st : NULL;
    int inter = 0, size = 0;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    st = calloc(1, sizeof *st);
    depth++;
    if (!inter && size > 1) {
        /* Every rank calls hc__comm_create (its collectives must match): a member beyond the
         * platform fails its subset there, agreed, with the detail. */
        uint32_t *nodes = malloc(sizeof *nodes * (size_t)size);
        hc_comm_t *hc = NULL;
        if (nodes)
            member_nodes(comm, size, nodes);
        int err = hc__comm_create(comm, cfg.platform, nodes, &cfg.opts, HC__DROPIN, &hc);
        free(nodes);
        if (st)
            st->hc = hc;
        else
            hc_comm_destroy(hc);
        if (err != MPI_SUCCESS && comm_rank(comm) == 0)
            say("a communicator of %d ranks runs the MPI library's collectives: %s", size,
                hc_error_detail());
    }
    depth--;
    if (!st)
        return NULL; /* not recorded: tried again at the next call (rare) */
    PMPI_Comm_set_attr(comm, cfg.keyval, st);
    return st->hc ? st : NULL;
}

/* After a call: report a failure reason once per communicator, log when verbose. */
static void after(pmpi_state_t *st, MPI_Comm comm, const char *coll, long long bytes, int err)
{
    hc_comm_t *hc = st->hc;
    const int me = hc->rank; /* the duplicate's rank is the communicator's */
    (void)comm;
    if (hc->why >= HC__WHY_FAILURES && !(st->warned & (1u << hc->why))) {
        st->warned |= 1u << hc->why;
        if (me == 0)
            say("%s on a communicator of %d ranks runs the MPI library's own: %s", coll, hc->size,
                hc->why_detail[0] ? hc->why_detail : "see HETCOLL_VERBOSE=1");
    }
    if (!cfg.verbose || me != 0)
        return;
    hc_comm_stats_t s;
    hc_comm_get_stats(hc, &s);
    say("%s: %d ranks, %lld bytes per rank, algorithm %s, predicted %.6g s, plans %lu, cache "
        "hits %lu%s",
        coll, hc->size, bytes, hc_comm_last_algorithm(hc), hc_comm_last_predicted(hc), s.plans,
        s.cache_hits, err == MPI_SUCCESS ? "" : ", FAILED");
}

static long long type_bytes(long long count, MPI_Datatype t)
{
    int sz = 0;
    if (t != MPI_DATATYPE_NULL)
        PMPI_Type_size(t, &sz);
    return count * sz;
}

/* An error of hetcoll's own execution (not of the MPI library's collective, which already
 * invoked the handler): the communicator's error handler decides, as for any MPI call. */
static int raise_on(MPI_Comm comm, int err)
{
    if (err != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(comm, err);
    return err;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (depth)
        return PMPI_Bcast(buf, count, type, root, comm);
    pmpi_state_t *st = state_of(comm, D_BCAST);
    long long bytes = type_bytes(count, type);
    if (!st || bytes < cfg.min_bytes)
        return PMPI_Bcast(buf, count, type, root, comm);
    depth++;
    hc__call_t call;
    int err = hc__bcast_start(st->hc, count, type, root, &call);
    if (err != MPI_SUCCESS) { /* the MPI library judges the arguments */
        hc__call_end(st->hc, &call, err);
        depth--;
        return PMPI_Bcast(buf, count, type, root, comm);
    }
    err = call.native ? PMPI_Bcast(buf, count, type, root, comm)
                      : hc__bcast_run(st->hc, &call, buf, count, type);
    const int ours = !call.native;
    err = hc__call_end(st->hc, &call, err);
    depth--;
    after(st, comm, "MPI_Bcast", bytes, err);
    return ours ? raise_on(comm, err) : err;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm)
{
    if (depth)
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    pmpi_state_t *st = state_of(comm, D_REDUCE);
    long long bytes = type_bytes(count, type);
    if (!st || bytes < cfg.min_bytes)
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    depth++;
    hc__call_t call;
    int err = hc__reduce_start(st->hc, sendbuf, count, type, op, root, 0, &call);
    if (err != MPI_SUCCESS) {
        hc__call_end(st->hc, &call, err);
        depth--;
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    }
    err = call.native ? hc__native_reduce(sendbuf, recvbuf, count, type, op, root, comm)
                      : hc__reduce_run(st->hc, &call, sendbuf, recvbuf, count, type, op, root);
    const int ours = !call.native;
    err = hc__call_end(st->hc, &call, err);
    depth--;
    after(st, comm, "MPI_Reduce", bytes, err);
    return ours ? raise_on(comm, err) : err;
}

/* Opt-in: a reduction to rank 0 then a broadcast, measured as a whole against the MPI
 * library's allreduce (its own plans: the reduction key says "allreduce"). */
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    if (depth)
        return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    pmpi_state_t *st = state_of(comm, D_ALLREDUCE);
    long long bytes = type_bytes(count, type);
    if (!st || bytes < cfg.min_bytes)
        return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    const int me = comm_rank(comm);
    /* Non-roots send their recvbuf in place; hc_reduce writes only the root's. */
    const void *sb = sendbuf == MPI_IN_PLACE && me != 0 ? recvbuf : sendbuf;
    depth++;
    hc__call_t red, bc;
    int err = hc__reduce_start(st->hc, sb, count, type, op, 0, 1, &red);
    if (err != MPI_SUCCESS || red.native) {
        hc__call_end(st->hc, &red, err);
        depth--;
        err = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
        after(st, comm, "MPI_Allreduce", bytes, err);
        return err;
    }
    err = hc__reduce_run(st->hc, &red, sb, recvbuf, count, type, op, 0);
    if (err == MPI_SUCCESS)
        err = hc__bcast_start(st->hc, count, type, 0, &bc);
    if (err == MPI_SUCCESS) {
        err = bc.native ? PMPI_Bcast(recvbuf, count, type, 0, comm)
                        : hc__bcast_run(st->hc, &bc, recvbuf, count, type);
        err = hc__call_end(st->hc, &bc, err);
    }
    err = hc__call_end(st->hc, &red, err); /* the trial's time includes the broadcast */
    depth--;
    after(st, comm, "MPI_Allreduce", bytes, err);
    return raise_on(comm, err);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (depth)
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    pmpi_state_t *st = state_of(comm, D_ALLTOALL);
    int size = 0;
    PMPI_Comm_size(comm, &size);
    long long bytes = type_bytes((long long)recvcount * size, recvtype);
    if (!st || bytes < cfg.min_bytes)
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    depth++;
    hc__call_t call;
    int err = hc__alltoall_start(st->hc, sendbuf, sendcount, sendtype, recvcount, recvtype, &call);
    if (err != MPI_SUCCESS) {
        hc__call_end(st->hc, &call, err);
        depth--;
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    }
    err = call.native ? hc__native_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            recvtype, comm)
                      : hc__alltoall_run(st->hc, &call, sendbuf, sendcount, sendtype, recvbuf,
                                         recvcount, recvtype);
    const int ours = !call.native;
    err = hc__call_end(st->hc, &call, err);
    depth--;
    after(st, comm, "MPI_Alltoall", bytes, err);
    return ours ? raise_on(comm, err) : err;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    if (depth)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    pmpi_state_t *st = state_of(comm, D_ALLTOALLV);
    if (!st)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    int size = 0;
    PMPI_Comm_size(comm, &size);
    long long n = 0;
    for (int i = 0; recvcounts && i < size; i++)
        n += recvcounts[i] > 0 ? recvcounts[i] : 0;
    long long bytes = type_bytes(n, recvtype);
    /* HETCOLL_MIN_BYTES is not applied: ranks may differ in their byte counts. */
    depth++;
    int bad = 0;
    int err = hc__alltoallv(st->hc, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm, &bad);
    depth--;
    if (bad) /* nothing was moved; the MPI library judges the arguments */
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    after(st, comm, "MPI_Alltoallv", bytes, err);
    return st->hc->native_failed ? err : raise_on(comm, err);
}

int MPI_Finalize(void)
{
    if (cfg.keyval != MPI_KEYVAL_INVALID) {
        /* MPI_COMM_WORLD's attributes are not deleted by MPI_Finalize everywhere */
        int flag = 0;
        void *st = NULL;
        PMPI_Comm_get_attr(MPI_COMM_WORLD, cfg.keyval, &st, &flag);
        if (flag)
            PMPI_Comm_delete_attr(MPI_COMM_WORLD, cfg.keyval);
        PMPI_Comm_free_keyval(&cfg.keyval);
    }
    hc_platform_destroy(cfg.platform);
    cfg.platform = NULL;
    return PMPI_Finalize();
}
