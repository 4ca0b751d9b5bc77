/* The collectives: argument checks, the per-call key, problem building for the planner (rank 0),
 * the choice between the MPI library's collective and a schedule, execution.
 *
 * Keys are (size class, root): plans are shared by the sizes of a class (exec.c cuts any size
 * along a schedule), so programs whose sizes vary a little do not plan at every call.
 * alltoallv keys on the whole size matrix, which no rank knows alone (see hc__alltoallv). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* Gathered pair sizes: bytes[i*P + j] sent i -> j. */
typedef struct {
    const uint64_t *bytes;
    uint64_t msg;
    uint32_t root;
    int k;
} plan_arg_t;

/* ---- problems for the planner: the library's builder (include/hetcoll/problem.h) ---- */

static void spec_from(hc_problem_spec_t *sp, hc_coll_t coll, const hc_comm_t *c, uint64_t msg,
                      uint32_t root)
{
    hc_problem_spec_init(sp, coll);
    sp->platform = c->platform;
    sp->model = c->opts.model;
    sp->msg_bytes = msg;
    sp->root = root;
}

/* P x P bytes: the gathered pair sizes, or msg for every pair. */
static int pair_bytes(const hc_comm_t *c, const plan_arg_t *a, hc_matrix_t **out)
{
    uint32_t P = (uint32_t)c->size;
    int rc = hc_matrix_create(P, P, 0.0, out);
    if (rc != HC_OK)
        return rc;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            HC_AT(*out, i, j) =
                i == j ? 0.0 : (double)(a->bytes ? a->bytes[(size_t)i * P + j] : a->msg);
    return HC_OK;
}

static int build_alltoall(hc_comm_t *c, const void *va, hc_problem_t **pb, uint32_t **members,
                          uint32_t *n_members)
{
    (void)members;
    (void)n_members;
    hc_matrix_t *sizes = NULL;
    int rc = pair_bytes(c, va, &sizes);
    if (rc != HC_OK)
        return rc;
    hc_problem_spec_t sp;
    spec_from(&sp, HC_COLL_ALLTOALL, c, 0, 0);
    sp.sizes = sizes;
    rc = hc_problem_create(&sp, pb);
    hc_matrix_destroy(sizes);
    return rc;
}

static int build_bcast(hc_comm_t *c, const void *va, hc_problem_t **pb, uint32_t **members,
                       uint32_t *n_members)
{
    const plan_arg_t *a = va;
    (void)members;
    (void)n_members;
    hc_problem_spec_t sp;
    spec_from(&sp, HC_COLL_BCAST, c, a->msg, a->root);
    return hc_problem_create(&sp, pb);
}

/* 003's model: node i needs t(i) to send its partial result; t(i) is its time to the root.
 * Without send times, a selector (auto) and the sender-receiver algorithms (*-pq) get the
 * sender-receiver costs p2p(i, j) (003 §7): a node's partial result is cheaper to send inside
 * its cluster than to the root's, which the constant-row model cannot see. */
static int build_reduce(hc_comm_t *c, const void *va, hc_problem_t **pb, uint32_t **members,
                        uint32_t *n_members)
{
    const plan_arg_t *a = va;
    (void)members;
    (void)n_members;
    hc_problem_spec_t sp;
    spec_from(&sp, HC_COLL_REDUCE, c, a->msg, a->root);
    const hc_algo_info_t *info = NULL;
    if (hc_algo_find(HC_COLL_REDUCE, c->algo[HC_COLL_REDUCE], &info) == HC_OK)
        sp.pair_costs = (info->flags & (HC_ALGO_PAIR_COSTS | HC_ALGO_SELECTOR)) != 0;
    hc_error_clear();
    return hc_problem_create(&sp, pb);
}

/* Senders form cluster 1, receivers cluster 2 (a rank may be in both); transfer times are the
 * bandwidth terms, the start-up beta the largest latency among the pairs (the builder's rule). */
static int build_redistribute(hc_comm_t *c, const void *va, hc_problem_t **pb, uint32_t **members,
                              uint32_t *n_members)
{
    const plan_arg_t *a = va;
    hc_matrix_t *sizes = NULL;
    int rc = pair_bytes(c, a, &sizes);
    if (rc != HC_OK)
        return rc;
    hc_problem_spec_t sp;
    spec_from(&sp, HC_COLL_REDISTRIBUTE, c, 0, 0);
    sp.sizes = sizes;
    sp.k = a->k <= 0 ? 0 : (uint32_t)a->k;
    if (c->platform && hc_platform_size(c->platform) >= (uint32_t)c->size) {
        /* a step costs what the executor pays between two: a transfer's latency and the star
         * barrier (exec.c: everyone to rank 0, then rank 0 to everyone) */
        double lat = 0, bar = 0;
        for (uint32_t i = 0; i < (uint32_t)c->size; i++)
            for (uint32_t j = 0; j < (uint32_t)c->size; j++)
                if (i != j && HC_AT(sizes, i, j) > 0)
                    lat = fmax(lat, hc_platform_latency(c->platform, i, j));
        for (uint32_t j = 1; j < (uint32_t)c->size; j++)
            bar = fmax(bar, hc_platform_latency(c->platform, j, 0) +
                                hc_platform_latency(c->platform, 0, j));
        sp.beta = lat + bar;
    }
    rc = hc_problem_create(&sp, pb);
    hc_matrix_destroy(sizes);
    if (rc != HC_OK)
        return rc;
    uint32_t n = (*pb)->n1 + (*pb)->n2;
    *members = malloc(sizeof **members * (n ? n : 1));
    if (!*members)
        return hc_error_set(HC_ERR_NOMEM, "out of memory planning a redistribution");
    memcpy(*members, hc_problem_nodes(*pb), sizeof **members * n);
    *n_members = n;
    return HC_OK;
}

/* ---- shared steps ---- */

static const char *type_problem(MPI_Datatype type)
{
    return type == MPI_DATATYPE_NULL ? "the datatype is MPI_DATATYPE_NULL" : NULL;
}

/* A call in progress, cheaply: this is every intercepted call's path, so the temporary entry
 * (used only with the cache off) is left for hc__plan_lookup to clear. Only rank 0 times calls
 * (the planning budget is its decision). */
static void call_init(hc_comm_t *c, hc__call_t *call)
{
    call->e = NULL;
    call->k = 0;
    call->native = 1;
    call->measure = 0;
    call->o = NULL;
    call->t0 = c && c->rank == 0 ? hc__now() : 0.0;
    if (c)
        c->pending = 0;
}

/* Arguments of the rooted collectives (count, type and root are the same on every rank of a
 * correct program). */
static int check_rooted(const hc_comm_t *c, const char *coll, int count, MPI_Datatype type,
                        int root)
{
    if (!c)
        return hc__fail(MPI_ERR_COMM, "%s: the hetcoll communicator is NULL", coll);
    if (root < 0 || root >= c->size)
        return hc__fail(MPI_ERR_ROOT, "%s: root %d is not a rank of the %d-rank communicator", coll,
                        root, c->size);
    if (count < 0)
        return hc__fail(MPI_ERR_COUNT, "%s: count %d is negative", coll, count);
    if (type_problem(type))
        return hc__fail(MPI_ERR_TYPE, "%s: %s", coll, type_problem(type));
    return MPI_SUCCESS;
}

/* After the lookup: the candidate this call runs, or native. */
static int choose(hc_comm_t *c, hc__lookup_t lookup, hc__call_t *call)
{
    if (lookup == HC__LOOKUP_NATIVE) {
        call->native = 1;
        return MPI_SUCCESS;
    }
    hc__entry_t *e = call->e;
    const int measuring = e->tuning;
    call->k = hc__tune_pick(c, e);
    call->measure = measuring;
    hc__cand_t *k = &e->cand[call->k];
    if (!k->s) {
        call->native = 1;
        if (e->n_cand == 1 && c->why != HC__WHY_PLAN) /* a cached planning failure */
            c->why = HC__WHY_PLAN;
        else if (e->n_cand > 1)
            hc__native_because(c, HC__WHY_POLICY, "measured");
        return MPI_SUCCESS;
    }
    call->native = 0;
    c->why = HC__WHY_NONE;
    snprintf(c->last_algo, sizeof c->last_algo, "%s", k->s->algorithm);
    c->last_predicted = k->s->makespan;
    hc__set_last_note(c, k->s);
    int err = hc__cand_order(c, e, k, &call->o);
    if (measuring)
        e->trial_start = hc__now(); /* building this rank's order is planning, not the call */
    return err;
}

int hc__call_end(hc_comm_t *c, hc__call_t *call, int err)
{
    if (c->rank == 0)
        c->t_coll += hc__now() - call->t0;
    if (call->native && err == MPI_SUCCESS)
        c->stats.native_calls++;
    if (err == MPI_SUCCESS && call->e && call->measure)
        err = hc__tune_done(c, call->e, call->k);
    /* Settled: what ran is what the next calls of this key run. */
    c->settled = call->e ? !call->e->tuning && call->k == call->e->chosen : !c->pending;
    if (call->e == &call->tmp)
        hc__entry_free(&call->tmp);
    call->e = NULL;
    return err;
}

/* ---- broadcast ---- */

int hc__bcast_start(hc_comm_t *c, int count, MPI_Datatype type, int root, hc__call_t *call)
{
    call_init(c, call);
    int err = check_rooted(c, "bcast", count, type, root);
    if (err != MPI_SUCCESS)
        return err;
    int tsize = 0;
    MPI_Type_size(type, &tsize);
    const uint64_t total = (uint64_t)count * (uint64_t)tsize;
    if (total == 0 || c->size == 1) {
        c->stats.calls++;
        hc__native_because(c, HC__WHY_POLICY, "nothing to move");
        return MPI_SUCCESS;
    }
    uint64_t key[2] = {hc__size_class(total), (uint64_t)root};
    plan_arg_t arg = {NULL, total, (uint32_t)root, 0};
    hc__lookup_t lookup;
    err = hc__plan_lookup(c, HC_COLL_BCAST, key, 2, total, build_bcast, &arg, &lookup, &call->e,
                          &call->tmp);
    if (err == MPI_SUCCESS)
        err = choose(c, lookup, call);
    if (err == MPI_SUCCESS && !call->native) {
        const hc_schedule_t *s = call->e->cand[call->k].s;
        /* Segmented schedules move bytes: one MPI message counts at most INT_MAX of them, and
         * other layouts than dense ones need a raw MPI_Pack (agreed at creation). */
        if ((s->parent2 || s->n_segments > 1) && (total > INT_MAX || !c->raw_pack)) {
            call->native = 1;
            call->measure = 0;
            hc__native_because(c, total > INT_MAX ? HC__WHY_SIZE : HC__WHY_TYPE,
                               total > INT_MAX ? "a segmented broadcast of %llu bytes (more than "
                                                 "one MPI message can count)"
                                               : "MPI_Pack does not write raw bytes here (%llu "
                                                 "bytes)",
                               (unsigned long long)total);
            c->stats.fallbacks++;
        }
    }
    return err;
}

int hc__bcast_run(hc_comm_t *c, hc__call_t *call, void *buf, int count, MPI_Datatype type)
{
    hc__entry_t *e = call->e;
    return hc__exec_bcast(c, e->cand[call->k].s, call->o, buf, count, type, e->plan_bytes);
}

int hc_bcast(void *buf, int count, MPI_Datatype type, int root, hc_comm_t *c)
{
    hc__call_t call;
    int err = hc__bcast_start(c, count, type, root, &call);
    if (err != MPI_SUCCESS) {
        if (c)
            hc__call_end(c, &call, err);
        return hc__raise(c, err);
    }
    err = call.native ? PMPI_Bcast(buf, count, type, root, c->comm)
                      : hc__bcast_run(c, &call, buf, count, type);
    return hc__raise(c, hc__call_end(c, &call, err));
}

/* ---- reduction ---- */

int hc__reduce_start(hc_comm_t *c, const void *sendbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, int for_allreduce, hc__call_t *call)
{
    call_init(c, call);
    int err = check_rooted(c, "reduce", count, type, root);
    if (err != MPI_SUCCESS)
        return err;
    if (op == MPI_OP_NULL)
        return hc__fail(MPI_ERR_OP, "reduce: the operation is MPI_OP_NULL");
    if (sendbuf == MPI_IN_PLACE && c->rank != root)
        return hc__fail(MPI_ERR_BUFFER, "reduce: MPI_IN_PLACE on rank %d, which is not the root",
                        c->rank);
    int tsize = 0;
    MPI_Type_size(type, &tsize);
    const uint64_t total = (uint64_t)count * (uint64_t)tsize;
    if (count == 0 || c->size == 1) {
        c->stats.calls++;
        hc__native_because(c, HC__WHY_POLICY, "nothing to combine");
        return MPI_SUCCESS;
    }
    int commute = 0;
    MPI_Op_commutative(op, &commute);
    if (!commute) {
        /* Our schedules combine in tree order; a non-commutative op needs rank order. */
        c->stats.calls++;
        c->stats.fallbacks++;
        hc__native_because(c, HC__WHY_NONCOMMUTATIVE,
                           "the reduction operation is not commutative (hetcoll's trees combine "
                           "in another order than rank order)");
        return MPI_SUCCESS;
    }
    /* An allreduce (the drop-in: reduce then broadcast) is measured as a whole against the MPI
     * library's allreduce, so it has keys of its own. */
    uint64_t key[3] = {hc__size_class(total), (uint64_t)root, 1};
    plan_arg_t arg = {NULL, total, (uint32_t)root, 0};
    hc__lookup_t lookup;
    err = hc__plan_lookup(c, HC_COLL_REDUCE, key, for_allreduce ? 3 : 2, total, build_reduce, &arg,
                          &lookup, &call->e, &call->tmp);
    if (err == MPI_SUCCESS)
        err = choose(c, lookup, call);
    return err;
}

int hc__reduce_run(hc_comm_t *c, hc__call_t *call, const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, int root)
{
    const char *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    /* The result builds up where it is wanted: the root's recvbuf. */
    return hc__exec_reduce(c, call->e->cand[call->k].s, call->o, mine,
                           c->rank == root ? recvbuf : NULL, count, type, op);
}

int hc_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
              hc_comm_t *c)
{
    hc__call_t call;
    int err = hc__reduce_start(c, sendbuf, count, type, op, root, 0, &call);
    if (err != MPI_SUCCESS) {
        if (c)
            hc__call_end(c, &call, err);
        return hc__raise(c, err);
    }
    err = call.native ? hc__native_reduce(sendbuf, recvbuf, count, type, op, root, c->comm)
                      : hc__reduce_run(c, &call, sendbuf, recvbuf, count, type, op, root);
    return hc__raise(c, hc__call_end(c, &call, err));
}

/* ---- exchanges ---- */

/* Gather every rank's send and receive byte counts and an error flag, so that every rank
 * takes the same decision. words[r] = [flags, send bytes to 0..P-1, recv bytes from 0..P-1];
 * flags: 1 = bad arguments, 2 = a datatype that cannot move as bytes (c->a2a_pieces_ok). */
static int gather_pairs(hc_comm_t *c, int local_err, const int *sendcounts, MPI_Datatype stype,
                        const int *recvcounts, MPI_Datatype rtype, uint64_t **bytes_out)
{
    const int P = c->size;
    const size_t W = 1 + 2 * (size_t)P;
    c->a2a_pieces_ok = 0;
    uint64_t *mine = calloc(W, sizeof *mine), *all = calloc(W * (size_t)P, sizeof *all);
    uint64_t *bytes = calloc((size_t)P * P, sizeof *bytes);
    if (!mine || !all || !bytes)
        local_err = hc__fail(MPI_ERR_NO_MEM, "out of memory gathering alltoallv sizes");
    int ssz = 0, rsz = 0;
    if (local_err == MPI_SUCCESS) {
        MPI_Type_size(stype, &ssz);
        MPI_Type_size(rtype, &rsz);
        for (int j = 0; j < P; j++) {
            if ((sendcounts[j] < 0 || recvcounts[j] < 0) && local_err == MPI_SUCCESS)
                local_err = hc__fail(MPI_ERR_COUNT,
                                     "alltoallv: rank %d: count for rank %d is "
                                     "negative",
                                     c->rank, j);
            mine[1 + j] = (uint64_t)(sendcounts[j] < 0 ? 0 : sendcounts[j]) * (uint64_t)ssz;
            mine[1 + P + j] = (uint64_t)(recvcounts[j] < 0 ? 0 : recvcounts[j]) * (uint64_t)rsz;
        }
    }
    int err = local_err;
    if (mine && all) {
        /* bit 1: a datatype with holes here, so no rank's messages may move in byte pieces */
        mine[0] =
            (uint64_t)(local_err == MPI_SUCCESS ? 0 : 1) |
            (local_err == MPI_SUCCESS && hc__dense_type(stype, 2) && hc__dense_type(rtype, 2) ? 0
                                                                                              : 2);
        MPI_Allgather(mine, (int)W, MPI_UINT64_T, all, (int)W, MPI_UINT64_T, c->comm);
        err = MPI_SUCCESS;
        c->a2a_pieces_ok = 1;
        for (int i = 0; i < P; i++)
            c->a2a_pieces_ok &= !(all[(size_t)i * W] & 2);
        /* What i sends to j must be what j expects from i. */
        for (int i = 0; i < P && err == MPI_SUCCESS; i++)
            for (int j = 0; j < P; j++) {
                uint64_t s = all[(size_t)i * W + 1 + j], r = all[(size_t)j * W + 1 + P + i];
                if (s != r) {
                    err = hc__fail(MPI_ERR_TRUNCATE,
                                   "alltoallv: rank %d sends %llu bytes to rank %d, which "
                                   "expects %llu",
                                   i, (unsigned long long)s, j, (unsigned long long)r);
                    break;
                }
                bytes[(size_t)i * P + j] = s;
            }
    }
    free(mine);
    free(all);
    /* Every rank gets the first failing rank's error and detail. */
    err = hc__agree(c->comm, local_err != MPI_SUCCESS ? local_err : err);
    if (err != MPI_SUCCESS) {
        free(bytes);
        return err;
    }
    *bytes_out = bytes;
    return MPI_SUCCESS;
}

/* Copy the span of an in-place buffer so it can serve as the send side. */
static char *span_copy(const char *buf, const int *counts, const int *displs, MPI_Datatype type,
                       int P)
{
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(type, &lb, &ext);
    MPI_Type_get_true_extent(type, &tlb, &text);
    MPI_Aint end = 0;
    for (int i = 0; i < P; i++)
        if (counts[i] > 0) {
            MPI_Aint e = (displs[i] + counts[i] - 1) * ext + tlb + text;
            if (e > end)
                end = e;
        }
    char *copy = malloc((size_t)end + 1);
    if (copy && end > 0)
        memcpy(copy, buf, (size_t)end);
    return copy;
}

int hc__native_alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls,
                         MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                         const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (sendbuf != MPI_IN_PLACE || !hc__inplace_copy() || hc__dense_type(recvtype, 2))
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    int P = 0;
    MPI_Comm_size(comm, &P);
    char *copy = span_copy(recvbuf, recvcounts, rdispls, recvtype, P);
    if (!copy)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory copying an in-place buffer");
    int err = PMPI_Alltoallv(copy, recvcounts, rdispls, recvtype, recvbuf, recvcounts, rdispls,
                             recvtype, comm);
    free(copy);
    return err;
}

int hc__native_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (sendbuf != MPI_IN_PLACE || !hc__inplace_copy() || hc__dense_type(recvtype, 2) ||
        recvcount < 0)
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    int P = 0;
    MPI_Comm_size(comm, &P);
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(recvtype, &lb, &ext);
    MPI_Type_get_true_extent(recvtype, &tlb, &text);
    size_t n = (size_t)recvcount * (size_t)P;
    size_t bytes = n ? (size_t)((n - 1) * (size_t)ext + (size_t)tlb + (size_t)text) : 0;
    char *copy = malloc(bytes + 1);
    if (!copy)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory copying an in-place buffer");
    memcpy(copy, recvbuf, bytes);
    int err = PMPI_Alltoall(copy, recvcount, recvtype, recvbuf, recvcount, recvtype, comm);
    free(copy);
    return err;
}

int hc__native_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                      int root, MPI_Comm comm)
{
    if (sendbuf != MPI_IN_PLACE || !hc__inplace_copy() || count <= 0 ||
        (root == 0 && hc__dense_type(type, 2)))
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(type, &lb, &ext);
    MPI_Type_get_true_extent(type, &tlb, &text);
    size_t bytes = (size_t)((count - 1) * ext + tlb + text);
    char *copy = malloc(bytes + 1);
    if (!copy)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory copying an in-place buffer");
    memcpy(copy, recvbuf, bytes);
    int err = PMPI_Reduce(copy, recvbuf, count, type, op, root, comm);
    free(copy);
    return err;
}

/* Plan the gathered matrix into the speculation entry (collective). */
static int plan_matrix(hc_comm_t *c, const uint64_t *bytes)
{
    hc__spec_t *sp = &c->spec;
    hc__entry_free(&sp->entry);
    const size_t P = (size_t)c->size;
    plan_arg_t arg = {bytes, 0, 0, 0};
    hc__lookup_t lookup;
    hc__entry_t *e;
    /* Planned at once (this is the second sighting of the matrix): no cache, the entry moves
     * into the speculation state. */
    unsigned saved_entries = c->opts.cache_entries;
    uint32_t saved_after = c->plan_after[HC_COLL_ALLTOALL];
    c->opts.cache_entries = 0;
    c->plan_after[HC_COLL_ALLTOALL] = 1;
    c->stats.calls--; /* the lookup counts a call; this one is already counted */
    int err = hc__plan_lookup(c, HC_COLL_ALLTOALL, bytes, P * P, 0, build_alltoall, &arg, &lookup,
                              &e, &sp->entry);
    c->opts.cache_entries = saved_entries;
    c->plan_after[HC_COLL_ALLTOALL] = saved_after;
    return err;
}

/* Record the gathered matrix; returns 1 when it is the one recorded last. */
static int record_matrix(hc_comm_t *c, const uint64_t *bytes)
{
    hc__spec_t *sp = &c->spec;
    const size_t P = (size_t)c->size, me = (size_t)c->rank;
    uint64_t h = hc__fnv1a(bytes, P * P, 0xcbf29ce484222325ULL ^ c->epoch);
    if (sp->streak > 0 && h == sp->hash) {
        sp->streak++;
        return 1;
    }
    hc__entry_free(&sp->entry);
    sp->armed = 0;
    sp->hash = h;
    sp->streak = 1;
    /* Scratch messages of a speculative run are counted in MPI_BYTE: a pair over INT_MAX
     * bytes keeps the matrix from being speculated on (streak stays 1). */
    int dense = 1, fits = 1;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < P; j++) {
            fits &= bytes[i * P + j] <= INT_MAX;
            dense &= i == j || bytes[i * P + j] > 0;
        }
    for (size_t j = 0; j < P; j++) {
        sp->row[j] = bytes[me * P + j];
        sp->col[j] = bytes[j * P + me];
    }
    sp->dense = dense;
    if (!fits)
        sp->streak = 0;
    return 0;
}

static int native_alltoallv(hc_comm_t *c, const void *sendbuf, const int *sendcounts,
                            const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                            const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    c->stats.native_calls++;
    int err = hc__native_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm);
    c->native_failed = err != MPI_SUCCESS;
    return err;
}

/* Run a planned exchange after gathering (sizes known to match). */
static int exchange_gathered(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o,
                             const char *src, const int *sendcounts, const int *sdispls,
                             MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                             const int *rdispls, MPI_Datatype recvtype)
{
    snprintf(c->last_algo, sizeof c->last_algo, "%s", s->algorithm);
    c->last_predicted = s->makespan;
    hc__set_last_note(c, s);
    c->why = HC__WHY_NONE;
    return hc__exec_exchange(c, s, o, src, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                             rdispls, recvtype);
}

/* alltoallv. No rank knows the whole size matrix, and gathering it costs an allgather, as much
 * as a small exchange. So:
 *  - under "auto", while no plan runs, calls go to the MPI library and the sizes are gathered
 *    only at check points (every call at first, then every 2, 4, ... 256 calls while they keep
 *    changing). When a gathered matrix equals the previous one, it is planned (candidates:
 *    native and the model's schedules, measured as for the other collectives) and the next
 *    calls run that plan without gathering (speculate.c), checking their own sizes;
 *  - a forced algorithm gathers at every call until a matrix repeats, then speculates;
 *  - a speculative run that finds changed sizes (agreed) is redone: the sizes are gathered
 *    and the call completes with the MPI library's collective (auto) or a new plan (forced).
 * Every state change depends only on agreed outcomes. */
static int alltoallv(hc_comm_t *c, const void *sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm native_comm,
                     int *args_bad)
{
    *args_bad = 0;
    const int in_place = sendbuf == MPI_IN_PLACE;
    if (!recvcounts || !rdispls || (!in_place && (!sendcounts || !sdispls))) {
        *args_bad = 1; /* the same on every rank for a correct program */
        return hc__fail(MPI_ERR_ARG, "alltoallv: a count or displacement array is NULL");
    }
    if (in_place) {
        sendcounts = recvcounts;
        sdispls = rdispls;
        sendtype = recvtype;
    }
    int local = MPI_SUCCESS;
    if (type_problem(sendtype) || type_problem(recvtype))
        local = hc__fail(MPI_ERR_TYPE, "alltoallv: rank %d: %s", c->rank,
                         type_problem(sendtype) ? type_problem(sendtype) : type_problem(recvtype));
    const char *algo = c->algo[HC_COLL_ALLTOALL];
    const int forced = strcmp(algo, "auto") != 0;
    hc__spec_t *sp = &c->spec;
    c->stats.calls++;
    c->native_failed = 0;
    sp->calls++;
    if (strcmp(algo, "native") == 0 || c->size == 1) {
        hc__native_because(c, HC__WHY_POLICY, "native");
        return native_alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                rdispls, recvtype, native_comm);
    }
    /* In place, a speculative run may need a redo: its send side is a copy of the original. */
    char *copy = NULL;
    const char *src = sendbuf;
    int err = MPI_SUCCESS, checking = 0;
    if (sp->armed) {
        hc__entry_t *e = &sp->entry;
        e->calls++;
        const int measuring = e->tuning;
        uint32_t k = hc__tune_pick(c, e);
        c->spec_k = k;
        const hc_schedule_t *s = e->cand[k].s;
        if (!s && !e->tuning && sp->calls >= sp->check_at) {
            checking = 1; /* native was chosen: see now and then whether the sizes changed */
        } else if (!s) {
            c->stats.cache_hits++;
            hc__native_because(c, HC__WHY_POLICY, "measured");
            err = native_alltoallv(c, in_place ? MPI_IN_PLACE : sendbuf, sendcounts, sdispls,
                                   sendtype, recvbuf, recvcounts, rdispls, recvtype, native_comm);
            if (err == MPI_SUCCESS && measuring)
                err = hc__tune_done(c, e, k);
            return err;
        } else {
            const hc__order_t *o;
            err = hc__cand_order(c, e, &e->cand[k], &o);
            if (measuring)
                e->trial_start = hc__now();
            if (err == MPI_SUCCESS && in_place && local == MPI_SUCCESS) {
                copy = span_copy(recvbuf, recvcounts, rdispls, recvtype, c->size);
                err = copy ? MPI_SUCCESS : MPI_ERR_NO_MEM;
                src = copy;
            }
            int stale = 0;
            if (err == MPI_SUCCESS)
                err = hc__spec_run(c, s, o, local == MPI_SUCCESS, src, sendcounts, sdispls,
                                   sendtype, recvbuf, recvcounts, rdispls, recvtype, &stale);
            if (err == MPI_SUCCESS && !stale) {
                c->stats.cache_hits++;
                c->stats.speculated++;
                c->why = HC__WHY_NONE;
                snprintf(c->last_algo, sizeof c->last_algo, "%s", s->algorithm);
                c->last_predicted = s->makespan;
                hc__set_last_note(c, s);
                if (measuring)
                    err = hc__tune_done(c, e, k);
                free(copy);
                return err;
            }
            if (err != MPI_SUCCESS) {
                free(copy);
                return err;
            }
            /* Agreed: some rank's sizes changed. Gather and redo. */
            c->stats.spec_misses++;
            hc__entry_free(&sp->entry);
            sp->armed = 0;
            sp->streak = 0;
            checking = 1;
        }
    }
    if (!forced && !checking && sp->calls < sp->check_at) {
        hc__native_because(c, HC__WHY_POLICY, "sizes not known yet");
        return native_alltoallv(c, in_place ? MPI_IN_PLACE : sendbuf, sendcounts, sdispls, sendtype,
                                recvbuf, recvcounts, rdispls, recvtype, native_comm);
    }
    /* Gather the sizes (and every rank's argument errors). */
    uint64_t *bytes = NULL;
    err = gather_pairs(c, local, sendcounts, local == MPI_SUCCESS ? sendtype : MPI_BYTE, recvcounts,
                       local == MPI_SUCCESS ? recvtype : MPI_BYTE, &bytes);
    if (err != MPI_SUCCESS) {
        free(copy);
        *args_bad = 1;
        hc__entry_free(&sp->entry);
        sp->armed = 0;
        sp->streak = 0;
        return err;
    }
    const int same = record_matrix(c, bytes);
    const void *redo_src = copy ? copy : (in_place ? MPI_IN_PLACE : sendbuf);
    if (forced) {
        /* planned in pieces for an earlier call whose datatypes had no holes: plan again for
         * this one's (c->a2a_pieces_ok is agreed, the entry the same everywhere) */
        if (sp->entry.n_cand == 0 || (hc__moves_bytes(sp->entry.cand[0].s) && !c->a2a_pieces_ok))
            err = plan_matrix(c, bytes);
        const hc__order_t *o = NULL;
        if (err == MPI_SUCCESS && sp->entry.cand[0].s)
            err = hc__cand_order(c, &sp->entry, &sp->entry.cand[0], &o);
        if (err == MPI_SUCCESS && sp->entry.cand[0].s) {
            char *pcopy = NULL;
            if (in_place && !copy) {
                pcopy = span_copy(recvbuf, recvcounts, rdispls, recvtype, c->size);
                err = pcopy ? MPI_SUCCESS : MPI_ERR_NO_MEM;
            }
            if (err == MPI_SUCCESS)
                err = exchange_gathered(c, sp->entry.cand[0].s, o,
                                        copy    ? copy
                                        : pcopy ? pcopy
                                                : sendbuf,
                                        sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                        recvtype);
            free(pcopy);
            sp->armed = err == MPI_SUCCESS && sp->streak >= 2;
        } else if (err == MPI_SUCCESS) { /* planning failed in the drop-in: native */
            err = native_alltoallv(c, redo_src, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, native_comm);
        }
        free(bytes);
        free(copy);
        return err;
    }
    if (!same) {
        sp->interval = sp->interval * 2 > 256 ? 256 : sp->interval * 2;
        sp->check_at = sp->calls + sp->interval;
        hc__native_because(c, HC__WHY_POLICY, "sizes changed");
    } else if (sp->entry.n_cand == 0) {
        /* The same matrix twice in a row: plan it; the next calls measure the candidates. */
        err = plan_matrix(c, bytes);
        sp->armed = err == MPI_SUCCESS;
        if (c->why < HC__WHY_FAILURES)
            hc__native_because(c, HC__WHY_POLICY, "planned for the next calls");
    } else {
        /* A check point while native runs: the sizes did not change. */
        sp->armed = 1;
        sp->interval = sp->interval * 2 > 256 ? 256 : sp->interval * 2;
        sp->check_at = sp->calls + sp->interval;
        hc__native_because(c, HC__WHY_POLICY, "measured");
    }
    free(bytes);
    if (err == MPI_SUCCESS)
        err = native_alltoallv(c, redo_src, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, native_comm);
    free(copy);
    return err;
}

int hc__alltoallv(hc_comm_t *c, const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm native_comm, int *args_bad)
{
    const double t0 = c->rank == 0 ? hc__now() : 0.0;
    c->spec_k = UINT32_MAX;
    int err = alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, native_comm, args_bad);
    if (c->rank == 0)
        c->t_coll += hc__now() - t0;
    c->settled = strcmp(c->algo[HC_COLL_ALLTOALL], "native") == 0 || c->size == 1 ||
                 (c->spec.armed && !c->spec.entry.tuning && c->spec_k == c->spec.entry.chosen);
    return err;
}

int hc_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                 MPI_Datatype recvtype, hc_comm_t *c)
{
    if (!c)
        return hc__raise(c, hc__fail(MPI_ERR_COMM, "alltoallv: the hetcoll communicator is NULL"));
    int bad;
    return hc__raise(c, hc__alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                      recvcounts, rdispls, recvtype, c->comm, &bad));
}

/* Alltoall: every pair carries the same bytes, which every rank knows, so unlike alltoallv no
 * size gathering is needed (MPI requires matching signatures). */
int hc__alltoall_start(hc_comm_t *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       int recvcount, MPI_Datatype recvtype, hc__call_t *call)
{
    call_init(c, call);
    if (!c)
        return hc__fail(MPI_ERR_COMM, "alltoall: the hetcoll communicator is NULL");
    if (sendbuf == MPI_IN_PLACE) { /* the send count and type are ignored */
        sendcount = recvcount;
        sendtype = recvtype;
    }
    if (sendcount < 0 || recvcount < 0)
        return hc__fail(MPI_ERR_COUNT, "alltoall: count %d is negative",
                        sendcount < 0 ? sendcount : recvcount);
    if (type_problem(sendtype) || type_problem(recvtype))
        return hc__fail(MPI_ERR_TYPE, "alltoall: %s",
                        type_problem(sendtype) ? type_problem(sendtype) : type_problem(recvtype));
    int rsize = 0;
    MPI_Type_size(recvtype, &rsize);
    const uint64_t pair = (uint64_t)recvcount * (uint64_t)rsize;
    if (pair == 0 || c->size == 1) {
        c->stats.calls++;
        hc__native_because(c, HC__WHY_POLICY, "nothing to move");
        return MPI_SUCCESS;
    }
    uint64_t key[1] = {hc__size_class(pair)};
    plan_arg_t arg = {NULL, pair, 0, 0};
    /* whole messages: this plan serves later calls of any datatype, and no rank knows whether
     * every rank's datatypes could move as byte pieces (alltoallv gathers that) */
    c->a2a_pieces_ok = 0;
    hc__lookup_t lookup;
    int err = hc__plan_lookup(c, HC_COLL_ALLTOALL, key, 1, pair, build_alltoall, &arg, &lookup,
                              &call->e, &call->tmp);
    if (err == MPI_SUCCESS)
        err = choose(c, lookup, call);
    return err;
}

int hc__alltoall_run(hc_comm_t *c, hc__call_t *call, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype)
{
    const int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place) {
        sendcount = recvcount;
        sendtype = recvtype;
    }
    const int P = c->size;
    int *v = malloc(sizeof *v * 4 * (size_t)P);
    if (!v)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < P; i++) {
        v[i] = sendcount;
        v[P + i] = i * sendcount;
        v[2 * P + i] = recvcount;
        v[3 * P + i] = i * recvcount;
    }
    char *copy = NULL;
    int err = MPI_SUCCESS;
    if (in_place) { /* the receive buffer's span is the send side: copy it first */
        copy = span_copy(recvbuf, v + 2 * P, v + 3 * P, recvtype, P);
        err = copy ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    if (err == MPI_SUCCESS)
        err = hc__exec_exchange(c, call->e->cand[call->k].s, call->o, in_place ? copy : sendbuf, v,
                                v + P, sendtype, recvbuf, v + 2 * P, v + 3 * P, recvtype);
    free(copy);
    free(v);
    return err;
}

int hc_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, hc_comm_t *c)
{
    hc__call_t call;
    int err = hc__alltoall_start(c, sendbuf, sendcount, sendtype, recvcount, recvtype, &call);
    if (err != MPI_SUCCESS) {
        if (c)
            hc__call_end(c, &call, err);
        return hc__raise(c, err);
    }
    err = call.native ? hc__native_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            recvtype, c->comm)
                      : hc__alltoall_run(c, &call, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype);
    return hc__raise(c, hc__call_end(c, &call, err));
}

/* ---- redistribution ---- */

/* Redistribution's baseline: every message posted at once, the links shared by the network
 * (the brute force the KPBS schedules are measured against). MPI_Alltoallv may instead pace
 * the messages in rounds (SMPI's default took 0.133 s against 0.096 s on grid5000-links'
 * 1 MiB redistribution). piece > 0: every message as the byte pieces
 * hc_schedule_message_pieces cuts with segment_bytes = piece and piece_groups = groups (NULL:
 * every message; the type must be dense, hc__dense_type, on every rank); each side cuts from its
 * own counts, so any sizes go, as whole messages do. ws, wr: the sends and receives in flight
 * (0: all at once; a settled piece variant's windows): then the receives go in the sends'
 * rotated order (from me - 1, me - 2, ...), one global order of steps, so the earliest
 * unfinished message is posted at both ends (exec.c). */
static int post_everything(const void *sendbuf, const int *sendcounts, const int *sdispls,
                           void *recvbuf, const int *recvcounts, const int *rdispls,
                           MPI_Datatype type, uint64_t piece, const int32_t *groups, uint32_t ws,
                           uint32_t wr, hc_comm_t *c)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(type, &lb, &ext);
    int tsize = 0;
    MPI_Type_size(type, &tsize);
    const int P = c->size, me = c->rank;
    hc_schedule_t shape = {.coll = HC_COLL_ALLTOALL, .P = (uint32_t)P, .segment_bytes = piece};
    shape.piece_groups = (int32_t *)groups; /* read only */
    size_t n[2] = {0, 0};
    for (int j = 0; j < P; j++) {
        if (sendcounts[j] > 0)
            n[0] += hc_schedule_message_pieces(&shape, (uint32_t)me, (uint32_t)j,
                                               (uint64_t)sendcounts[j] * (uint64_t)tsize);
        if (recvcounts[j] > 0)
            n[1] += hc_schedule_message_pieces(&shape, (uint32_t)j, (uint32_t)me,
                                               (uint64_t)recvcounts[j] * (uint64_t)tsize);
    }
    hc__msg_t *m = malloc(sizeof *m * (n[0] + n[1] + 1));
    if (!m)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory");
    size_t q = 0, ns = 0;
    for (int side = 0; side < 2; side++) { /* the sends, then the receives */
        for (int x = 1; x <= P; x++) {
            /* sends in a rotated order, self last, as a caterpillar; receives by rank, or in
             * the same steps when windowed */
            const int j = side ? (ws || wr ? (me - x % P + P) % P : x - 1) : (me + x) % P;
            const int cnt = side ? recvcounts[j] : sendcounts[j];
            char *buf =
                side ? (char *)recvbuf + rdispls[j] * ext : (char *)sendbuf + sdispls[j] * ext;
            if (cnt <= 0)
                continue;
            const hc__msg_t whole = {buf, cnt, type, j, 2};
            /* whole: no pieces asked, or one over INT_MAX bytes (both sides see the same size) */
            const uint64_t b = (uint64_t)cnt * (uint64_t)tsize;
            const uint32_t src = (uint32_t)(side ? j : me), dst = (uint32_t)(side ? me : j);
            const size_t k = piece ? hc__msg_pieces(&shape, src, dst, &whole, b, m + q) : 0;
            if (k == 0)
                m[q++] = whole;
            q += k;
        }
        if (side == 0)
            ns = q;
    }
    int err = hc__exchange_run(c->comm, m, ns, ws, m + ns, q - ns, wr);
    free(m);
    return err;
}

/* The sizes' check of a redistribution in pieces without their allgather: what every rank
 * sends must be what its peer expects, and every rank's type dense. Each rank adds a random
 * hash of (sender, receiver, bytes) for what it sends and subtracts it for what it expects;
 * the sums over all ranks cancel exactly when the two agree (else with probability 2^-64), in
 * one small allreduce where the allgather costs a WAN latency per step. 1 when the pieces may
 * run, the same on every rank. */
static uint64_t pair_hash(int i, int j, uint64_t b)
{
    const uint64_t w[3] = {(uint64_t)(uint32_t)i, (uint64_t)(uint32_t)j, b};
    hc_rng_t r; /* splitmix64-seeded: the words' FNV-1a hash well mixed */
    hc_rng_seed(&r, hc__fnv1a(w, 3, 0xcbf29ce484222325ULL));
    return hc_rng_u64(&r);
}

static int pieces_sizes_agree(hc_comm_t *c, const int *sendcounts, const int *recvcounts,
                              MPI_Datatype type)
{
    int tsize = 0;
    MPI_Type_size(type, &tsize);
    uint64_t v[2] = {type_problem(type) || !hc__dense_type(type, 2), 0};
    for (int j = 0; j < c->size; j++) {
        v[0] += sendcounts[j] < 0 || recvcounts[j] < 0;
        v[1] += pair_hash(c->rank, j, (uint64_t)(int64_t)sendcounts[j] * (uint64_t)tsize);
        v[1] -= pair_hash(j, c->rank, (uint64_t)(int64_t)recvcounts[j] * (uint64_t)tsize);
    }
    if (MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_SUM, c->comm) != MPI_SUCCESS)
        return 0;
    return v[0] == 0 && v[1] == 0;
}

int hc_redistribute(const void *sendbuf, const int sendcounts[], const int sdispls[], void *recvbuf,
                    const int recvcounts[], const int rdispls[], MPI_Datatype type, int k,
                    hc_comm_t *c)
{
    if (!c)
        return hc__raise(c,
                         hc__fail(MPI_ERR_COMM, "redistribute: the hetcoll communicator is NULL"));
    if (!sendcounts || !sdispls || !recvcounts || !rdispls)
        return hc__raise(c, hc__fail(MPI_ERR_ARG, "redistribute: a count or displacement array "
                                                  "is NULL"));
    if (sendbuf == MPI_IN_PLACE)
        return hc__raise(c, hc__fail(MPI_ERR_BUFFER, "redistribute: MPI_IN_PLACE is not "
                                                     "supported"));
    hc__call_t call;
    if (c->rfast.armed && c->rfast.k == k && ++c->rfast.calls % HC__REDIST_RECHECK != 0 &&
        (!c->rfast.piece || pieces_sizes_agree(c, sendcounts, recvcounts, type))) {
        /* decided: post everything, whole or in pieces, without the sizes' allgather (a WAN
         * latency per step of it); the counter and the decision are the same on every rank */
        call_init(c, &call);
        c->stats.calls++;
        if (c->rfast.piece) {
            call.native = 0;
            c->why = HC__WHY_NONE;
            snprintf(c->last_algo, sizeof c->last_algo, "%s", c->rfast.algo);
            snprintf(c->last_note, sizeof c->last_note, "%s", c->rfast.note);
        } else {
            hc__native_because(c, HC__WHY_POLICY, "measured");
        }
        int ferr =
            post_everything(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, type,
                            c->rfast.piece, c->rfast.has_groups ? c->rfast.groups : NULL,
                            c->rfast.piece ? c->rfast.ws : 0, c->rfast.piece ? c->rfast.wr : 0, c);
        ferr = hc__call_end(c, &call, ferr);
        c->settled = 1;
        return hc__raise(c, ferr);
    }
    c->rfast.armed = 0;
    int local = type_problem(type) ? hc__fail(MPI_ERR_TYPE, "redistribute: %s", type_problem(type))
                                   : MPI_SUCCESS;
    uint64_t *bytes = NULL;
    MPI_Datatype t = local == MPI_SUCCESS ? type : MPI_BYTE;
    int err = gather_pairs(c, local, sendcounts, t, recvcounts, t, &bytes);
    if (err != MPI_SUCCESS)
        return hc__raise(c, err);
    const size_t P = (size_t)c->size;
    int any = 0;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < P; j++)
            any |= i != j && bytes[i * P + j] > 0;
    uint64_t *key = any ? malloc(sizeof *key * (P * P + 1)) : NULL;
    call_init(c, &call);
    if (!any) {
        c->stats.calls++;
        hc__native_because(c, HC__WHY_POLICY, "nothing crosses");
    } else if (!key) {
        err = hc__fail(MPI_ERR_NO_MEM, "out of memory"); /* the same size everywhere; rare */
    } else {
        memcpy(key, bytes, sizeof *key * P * P);
        key[P * P] = (uint64_t)(int64_t)k;
        plan_arg_t arg = {bytes, 0, 0, k};
        hc__lookup_t lookup;
        err = hc__plan_lookup(c, HC_COLL_REDISTRIBUTE, key, P * P + 1, 0, build_redistribute, &arg,
                              &lookup, &call.e, &call.tmp);
        if (err == MPI_SUCCESS)
            err = choose(c, lookup, &call);
    }
    free(key);
    free(bytes);
    const hc_schedule_t *s = err == MPI_SUCCESS && !call.native ? call.e->cand[call.k].s : NULL;
    const int holes = hc__moves_bytes(s) && !c->a2a_pieces_ok;
    if (holes) {
        /* pieces planned for these byte counts, but a datatype with holes now (agreed through
         * the gathered flags): everything at once, whole, unmeasured */
        hc__native_because(c, HC__WHY_POLICY, "pieces of a datatype with holes");
        call.native = 1;
        call.measure = 0;
        s = NULL;
    }
    if (err == MPI_SUCCESS && !s)
        err = post_everything(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, type, 0,
                              NULL, 0, 0, c);
    else if (err == MPI_SUCCESS && s->coll == HC_COLL_ALLTOALL) /* in pieces (plan.c) */
        err = hc__exec_exchange(c, s, call.o, sendbuf, sendcounts, sdispls, type, recvbuf,
                                recvcounts, rdispls, type);
    else if (err == MPI_SUCCESS)
        err = hc__exec_redistribute(c, s, call.e->members, sendbuf, sendcounts, sdispls, recvbuf,
                                    recvcounts, rdispls, type);
    err = hc__call_end(c, &call, err);
    const int pieces = s && s->coll == HC_COLL_ALLTOALL && s->segment_bytes;
    if (err == MPI_SUCCESS && (call.native || pieces) && any && c->settled && !holes) {
        /* measured and decided (or forced) native, or settled on pieces, for these sizes */
        c->rfast.armed = 1;
        c->rfast.k = k;
        c->rfast.calls = 0;
        c->rfast.piece = pieces ? s->segment_bytes : 0;
        c->rfast.has_groups = pieces && s->piece_groups;
        if (c->rfast.has_groups) /* the shared schedule's: the same on every rank */
            memcpy(c->rfast.groups, s->piece_groups, sizeof *c->rfast.groups * P);
        snprintf(c->rfast.algo, sizeof c->rfast.algo, "%s", pieces ? s->algorithm : "native");
        snprintf(c->rfast.note, sizeof c->rfast.note, "%s", pieces && s->note ? s->note : "");
        c->rfast.ws = pieces ? call.o->ws : 0;
        c->rfast.wr = pieces ? call.o->wr : 0;
    }
    return hc__raise(c, err);
}
