/* libhetcoll_pmpi.so: hetcoll for unmodified MPI programs through the MPI profiling interface.
 *
 *   HETCOLL_PLATFORM=builtin:grid5000 LD_PRELOAD=libhetcoll_pmpi.so mpirun ... ./app
 *
 * Intercepts MPI_Alltoall, MPI_Alltoallv, MPI_Bcast, MPI_Reduce and (opt-in, as reduce + bcast)
 * MPI_Allreduce. Without HETCOLL_PLATFORM every call goes straight to PMPI_*.
 * Environment (docs/pmpi.md):
 *   HETCOLL_PLATFORM  platform spec (file, builtin:NAME, dir:FILE); rank r of MPI_COMM_WORLD
 *                     is node r, a sub-communicator gets the nodes of its members
 *   HETCOLL_VERBOSE   1: rank 0 of each communicator logs every decision on stderr
 *   HETCOLL_DISABLE   comma list of alltoall, alltoallv, bcast, reduce, allreduce, all
 *   HETCOLL_ENABLE    allreduce: intercept MPI_Allreduce too (off by default)
 *   HETCOLL_MIN_BYTES calls moving fewer bytes per rank pass through (default 0)
 *   HETCOLL_ALGO_*    forced algorithms, read by the runtime (include/hetcoll/mpi.h)
 * Per-communicator state (an hc_comm_t) is an MPI attribute whose delete callback frees it
 * with the communicator; MPI_COMM_WORLD's is freed in MPI_Finalize. The runtime's own
 * collective calls (plan sharing, argument gathering) re-enter MPI_Bcast and friends; a
 * per-thread depth counter sends those straight to PMPI_*. Intercommunicators, communicators
 * of one rank and calls that fail argument checks the same way on every rank pass through. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/mpi.h"

enum { D_ALLTOALL = 1, D_ALLTOALLV = 2, D_BCAST = 4, D_REDUCE = 8, D_ALLREDUCE = 16 };

static _Thread_local int depth; /* > 0: inside hetcoll; MPI calls pass through */
static int configured;
static unsigned disabled = D_ALLREDUCE;
static int verbose;
static long long min_bytes;
static hc_platform_t *platform; /* HETCOLL_PLATFORM, loaded once; NULL: pass through */
static int keyval = MPI_KEYVAL_INVALID;

typedef struct {
    hc_comm_t *hc; /* NULL: this communicator passes through */
} pmpi_state_t;

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hetcoll[pmpi]: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int world_rank(void)
{
    int r = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

static unsigned parse_list(const char *s)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"alltoall", D_ALLTOALL},
                 {"alltoallv", D_ALLTOALLV},
                 {"bcast", D_BCAST},
                 {"reduce", D_REDUCE},
                 {"allreduce", D_ALLREDUCE}};
    unsigned m = 0;
    while (s && *s) {
        size_t n = strcspn(s, ", ");
        if (n == 3 && strncmp(s, "all", 3) == 0)
            m = ~0u;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k].name) == n && strncmp(s, names[k].name, n) == 0)
                m |= names[k].bit;
        s += n;
        s += strspn(s, ", ");
    }
    return m;
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
    if (configured)
        return;
    configured = 1;
    const char *v = getenv("HETCOLL_VERBOSE");
    verbose = v && atoi(v) > 0;
    disabled = D_ALLREDUCE & ~parse_list(getenv("HETCOLL_ENABLE"));
    disabled |= parse_list(getenv("HETCOLL_DISABLE"));
    const char *mb = getenv("HETCOLL_MIN_BYTES");
    min_bytes = mb ? atoll(mb) : 0;
    const char *spec = getenv("HETCOLL_PLATFORM");
    if (!spec || !*spec) {
        if (verbose && world_rank() == 0)
            say("HETCOLL_PLATFORM is not set: every collective goes to the MPI library");
        return;
    }
    if (hc_platform_load(spec, &platform) != HC_OK) {
        if (world_rank() == 0)
            say("cannot load HETCOLL_PLATFORM (%s); passing through", hc_error_detail());
        platform = NULL;
        return;
    }
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, NULL) !=
        MPI_SUCCESS) {
        hc_platform_destroy(platform);
        platform = NULL;
        return;
    }
    if (verbose && world_rank() == 0)
        say("platform %s (%u nodes); intercepting%s%s%s%s%s", spec, hc_platform_size(platform),
            disabled & D_ALLTOALL ? "" : " alltoall", disabled & D_ALLTOALLV ? "" : " alltoallv",
            disabled & D_BCAST ? "" : " bcast", disabled & D_REDUCE ? "" : " reduce",
            disabled & D_ALLREDUCE ? "" : " allreduce");
}

/* The platform restricted to the world ranks of comm's members (comm rank order). */
static int member_platform(MPI_Comm comm, int size, hc_platform_t **out)
{
    MPI_Group g, wg;
    int *in = malloc(sizeof *in * (size_t)size), *w = malloc(sizeof *w * (size_t)size);
    int rc = in && w ? HC_OK : HC_ERR_NOMEM;
    if (rc == HC_OK) {
        for (int r = 0; r < size; r++)
            in[r] = r;
        PMPI_Comm_group(comm, &g);
        PMPI_Comm_group(MPI_COMM_WORLD, &wg);
        PMPI_Group_translate_ranks(g, size, in, wg, w);
        PMPI_Group_free(&g);
        PMPI_Group_free(&wg);
    }
    uint32_t P = hc_platform_size(platform);
    for (int r = 0; rc == HC_OK && r < size; r++)
        if (w[r] < 0 || (uint32_t)w[r] >= P)
            rc = HC_ERR_SHAPE;
    hc_platform_t *q = NULL;
    if (rc == HC_OK)
        rc = hc_platform_create((uint32_t)size, 1.0, 1.0, &q);
    for (int a = 0; rc == HC_OK && a < size; a++) {
        uint32_t i = (uint32_t)w[a];
        rc = hc_platform_set_node_name(q, (uint32_t)a, hc_platform_node_name(platform, i));
        int32_t cl = hc_platform_cluster_of(platform, i);
        if (rc == HC_OK && cl >= 0)
            rc = hc_platform_set_cluster(q, (uint32_t)a,
                                         hc_platform_cluster_name(platform, (uint32_t)cl));
        double t = hc_platform_send_time(platform, i);
        if (rc == HC_OK && t >= 0)
            rc = hc_platform_set_send_time(q, (uint32_t)a, t);
        for (int b = 0; rc == HC_OK && b < size; b++)
            if (a != b)
                rc = hc_platform_set_link(q, (uint32_t)a, (uint32_t)b,
                                          hc_platform_latency(platform, i, (uint32_t)w[b]),
                                          hc_platform_bandwidth(platform, i, (uint32_t)w[b]));
    }
    free(in);
    free(w);
    if (rc != HC_OK) {
        hc_platform_destroy(q);
        return rc;
    }
    *out = q;
    return HC_OK;
}

/* The hetcoll communicator of comm, created on first use (collective: every rank of comm is
 * in the same collective call). NULL: pass through. */
static hc_comm_t *state_of(MPI_Comm comm, unsigned what)
{
    configure();
    if (!platform || (disabled & what) || comm == MPI_COMM_NULL)
        return NULL;
    int flag = 0;
    pmpi_state_t *st = NULL;
    PMPI_Comm_get_attr(comm, keyval, &st, &flag);
    if (flag)
        return st->hc;
    int inter = 0, size = 0;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    st = calloc(1, sizeof *st);
    if (!st)
        return NULL; /* the same on every rank only by luck; rare enough */
    if (!inter && size > 1) {
        hc_platform_t *q = NULL;
        int local = member_platform(comm, size, &q), global;
        PMPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, comm);
        if (global == HC_OK) {
            hc_comm_opts_t o;
            hc_comm_opts_default(&o);
            o.verbose = verbose;
            depth++;
            if (hc_comm_create(comm, q, &o, &st->hc) != MPI_SUCCESS)
                st->hc = NULL;
            depth--;
        }
        hc_platform_destroy(q);
        int me = 0;
        PMPI_Comm_rank(comm, &me);
        if (!st->hc && me == 0)
            say("no hetcoll state for a communicator of %d ranks (%s); passing through", size,
                global == HC_ERR_SHAPE ? "a member is beyond the platform's nodes"
                                       : hc_error_detail());
    }
    PMPI_Comm_set_attr(comm, keyval, st);
    return st->hc;
}

static void log_call(hc_comm_t *hc, MPI_Comm comm, const char *coll, long long bytes, int err)
{
    if (!verbose)
        return;
    int me = 0, size = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Comm_size(comm, &size);
    if (me != 0)
        return;
    hc_comm_stats_t st;
    hc_comm_get_stats(hc, &st);
    const char *algo = hc_comm_last_algorithm(hc);
    if (strncmp(algo, "PMPI_", 5) == 0) { /* the runtime's own fallback (non-commutative op) */
        say("%s: %d ranks, %lld bytes per rank, algorithm %s (fallback)%s", coll, size, bytes, algo,
            err == MPI_SUCCESS ? "" : ", FAILED");
        return;
    }
    say("%s: %d ranks, %lld bytes per rank, algorithm %s, predicted %.6g s, plans %lu, cache "
        "hits %lu%s",
        coll, size, bytes, algo, hc_comm_last_predicted(hc), st.plans, st.cache_hits,
        err == MPI_SUCCESS ? "" : ", FAILED");
}

static long long type_bytes(long long count, MPI_Datatype t)
{
    int sz = 0;
    if (t != MPI_DATATYPE_NULL)
        PMPI_Type_size(t, &sz);
    return count * sz;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (depth)
        return PMPI_Bcast(buf, count, type, root, comm);
    hc_comm_t *hc = state_of(comm, D_BCAST);
    long long bytes = type_bytes(count, type);
    if (!hc || bytes < min_bytes)
        return PMPI_Bcast(buf, count, type, root, comm);
    depth++;
    int err = hc_bcast(buf, count, type, root, hc);
    depth--;
    log_call(hc, comm, "MPI_Bcast", bytes, err);
    return err;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm)
{
    if (depth)
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    hc_comm_t *hc = state_of(comm, D_REDUCE);
    long long bytes = type_bytes(count, type);
    if (!hc || bytes < min_bytes)
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    depth++;
    int err = hc_reduce(sendbuf, recvbuf, count, type, op, root, hc);
    depth--;
    log_call(hc, comm, "MPI_Reduce", bytes, err);
    return err;
}

/* Reduce to rank 0, then broadcast. */
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    if (depth)
        return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    hc_comm_t *hc = state_of(comm, D_ALLREDUCE);
    long long bytes = type_bytes(count, type);
    if (!hc || bytes < min_bytes)
        return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    int me = 0;
    PMPI_Comm_rank(comm, &me);
    const void *sb = sendbuf;
    if (sendbuf == MPI_IN_PLACE && me != 0)
        sb = recvbuf; /* non-roots send their recvbuf; hc_reduce writes only the root's */
    depth++;
    int err = hc_reduce(sb, recvbuf, count, type, op, 0, hc);
    char a1[48];
    snprintf(a1, sizeof a1, "%s", hc_comm_last_algorithm(hc));
    double p1 = hc_comm_last_predicted(hc);
    if (err == MPI_SUCCESS)
        err = hc_bcast(recvbuf, count, type, 0, hc);
    depth--;
    if (verbose && me == 0)
        say("MPI_Allreduce = reduce (%s, predicted %.6g s) + bcast:", a1, p1);
    log_call(hc, comm, "MPI_Allreduce", bytes, err);
    return err;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (depth)
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    hc_comm_t *hc = state_of(comm, D_ALLTOALL);
    int size = 0;
    PMPI_Comm_size(comm, &size);
    long long bytes = type_bytes((long long)recvcount * size, recvtype);
    if (!hc || bytes < min_bytes)
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    depth++;
    int err = hc_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, hc);
    depth--;
    log_call(hc, comm, "MPI_Alltoall", bytes, err);
    return err;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    if (depth)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    hc_comm_t *hc = state_of(comm, D_ALLTOALLV);
    int size = 0;
    PMPI_Comm_size(comm, &size);
    long long n = 0;
    for (int i = 0; recvcounts && i < size; i++)
        n += recvcounts[i];
    long long bytes = type_bytes(n, recvtype);
    /* min_bytes is not applied: ranks may differ in their byte counts */
    if (!hc)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    depth++;
    int err = hc_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, hc);
    depth--;
    log_call(hc, comm, "MPI_Alltoallv", bytes, err);
    return err;
}

int MPI_Finalize(void)
{
    if (keyval != MPI_KEYVAL_INVALID) {
        /* MPI_COMM_WORLD's attributes are not deleted by MPI_Finalize everywhere */
        int flag = 0;
        void *st = NULL;
        PMPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &st, &flag);
        if (flag)
            PMPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
        PMPI_Comm_free_keyval(&keyval);
    }
    hc_platform_destroy(platform);
    platform = NULL;
    return PMPI_Finalize();
}
