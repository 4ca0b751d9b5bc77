/* The public collectives: argument checks, the per-call key, problem building for the planner
 * (rank 0) and execution. */
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

/* The fields every planned problem shares. */
static void problem_from(hc_problem_t *pb, hc_coll_t coll, const hc_comm_t *c,
                         const hc_matrix_t *costs, uint64_t msg, uint32_t root)
{
    hc_problem_init(pb, coll);
    pb->P = (uint32_t)c->size;
    pb->costs = costs;
    pb->msg_bytes = msg;
    pb->root = root;
    pb->platform = c->platform;
    pb->model = c->opts.model;
}

static int build_alltoall(hc_comm_t *c, const void *va, hc_problem_t *pb, hc_matrix_t **costs,
                          hc_matrix_t **sizes, uint32_t **members, uint32_t *n_members)
{
    const plan_arg_t *a = va;
    uint32_t P = (uint32_t)c->size;
    (void)members;
    (void)n_members;
    int rc = hc_matrix_create(P, P, 0.0, sizes);
    if (rc != HC_OK)
        return rc;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            HC_AT(*sizes, i, j) = i == j ? 0.0 : (double)a->bytes[(size_t)i * P + j];
    if ((rc = hc_cost_sizes(c->platform, c->opts.model, *sizes, costs)) != HC_OK)
        return rc;
    problem_from(pb, HC_COLL_ALLTOALL, c, *costs, 0, 0);
    pb->sizes = *sizes;
    return HC_OK;
}

static int build_bcast(hc_comm_t *c, const void *va, hc_problem_t *pb, hc_matrix_t **costs,
                       hc_matrix_t **sizes, uint32_t **members, uint32_t *n_members)
{
    const plan_arg_t *a = va;
    (void)sizes;
    (void)members;
    (void)n_members;
    int rc = hc_cost_uniform(c->platform, c->opts.model, a->msg, costs);
    if (rc != HC_OK)
        return rc;
    problem_from(pb, HC_COLL_BCAST, c, *costs, a->msg, a->root);
    return HC_OK;
}

/* 003's model: node i needs t(i) to send its partial result; t(i) is its time to the root. */
static int build_reduce(hc_comm_t *c, const void *va, hc_problem_t *pb, hc_matrix_t **costs,
                        hc_matrix_t **sizes, uint32_t **members, uint32_t *n_members)
{
    const plan_arg_t *a = va;
    uint32_t P = (uint32_t)c->size;
    (void)sizes;
    (void)members;
    (void)n_members;
    int rc = hc_matrix_create(P, P, 0.0, costs);
    if (rc != HC_OK)
        return rc;
    /* Without send times, "auto" and the *-pq algorithms get the sender-receiver costs
     * p2p(i, j) (003 §7): a node's partial result is cheaper to send inside its cluster than to
     * the root's, which the constant-row model cannot see (issue 8, grid benchmarks). */
    const char *an = c->algo[HC_COLL_REDUCE];
    size_t al = strlen(an);
    int pair_costs = strcmp(an, "auto") == 0 || (al > 3 && strcmp(an + al - 3, "-pq") == 0);
    for (uint32_t i = 0; i < P; i++) {
        double t = hc_platform_send_time(c->platform, i);
        int per_pair = t < 0 && pair_costs;
        if (t < 0)
            t = hc_cost_p2p(c->platform, c->opts.model, i, i == a->root ? (i + 1) % P : a->root,
                            a->msg);
        for (uint32_t j = 0; j < P; j++)
            HC_AT(*costs, i, j) = i == j     ? 0.0
                                  : per_pair ? hc_cost_p2p(c->platform, c->opts.model, i, j, a->msg)
                                             : t;
    }
    problem_from(pb, HC_COLL_REDUCE, c, *costs, a->msg, a->root);
    return HC_OK;
}

/* Senders form cluster 1, receivers cluster 2 (a rank may be in both); transfer times are the
 * bandwidth terms, the start-up beta the largest latency among the pairs. */
static int build_redistribute(hc_comm_t *c, const void *va, hc_problem_t *pb, hc_matrix_t **costs,
                              hc_matrix_t **sizes, uint32_t **members, uint32_t *n_members)
{
    const plan_arg_t *a = va;
    uint32_t P = (uint32_t)c->size, n1 = 0, n2 = 0;
    uint32_t *m = malloc(sizeof *m * 2 * P);
    if (!m)
        return HC_ERR_NOMEM;
    for (uint32_t i = 0; i < P; i++) {
        int any = 0;
        for (uint32_t j = 0; j < P; j++)
            any |= i != j && a->bytes[(size_t)i * P + j] > 0;
        if (any)
            m[n1++] = i;
    }
    for (uint32_t j = 0; j < P; j++) {
        int any = 0;
        for (uint32_t i = 0; i < P; i++)
            any |= i != j && a->bytes[(size_t)i * P + j] > 0;
        if (any)
            m[n1 + n2++] = j;
    }
    *members = m;
    *n_members = n1 + n2;
    int rc = hc_matrix_create(n1, n2, 0.0, costs);
    if (rc == HC_OK)
        rc = hc_matrix_create(n1, n2, 0.0, sizes);
    if (rc != HC_OK)
        return rc;
    double beta = 0.0;
    for (uint32_t x = 0; x < n1; x++)
        for (uint32_t y = 0; y < n2; y++) {
            uint32_t i = m[x], j = m[n1 + y];
            uint64_t b = i == j ? 0 : a->bytes[(size_t)i * P + j];
            if (b == 0)
                continue;
            HC_AT(*sizes, x, y) = (double)b;
            HC_AT(*costs, x, y) = (double)b / hc_platform_bandwidth(c->platform, i, j);
            double L = hc_platform_latency(c->platform, i, j);
            if (L > beta)
                beta = L;
        }
    uint32_t kmax = n1 < n2 ? n1 : n2;
    hc_problem_init(pb, HC_COLL_REDISTRIBUTE);
    pb->P = n1 + n2;
    pb->n1 = n1;
    pb->n2 = n2;
    pb->costs = *costs;
    pb->sizes = *sizes;
    pb->k = (a->k <= 0 || (uint32_t)a->k > kmax) ? kmax : (uint32_t)a->k;
    pb->beta = beta;
    return HC_OK;
}

/* Gather every rank's send and receive byte counts and an error flag, so that every rank
 * takes the same decision. words[r] = [flag, send bytes to 0..P-1, recv bytes from 0..P-1]. */
static int gather_pairs(hc_comm_t *c, int local_err, const int *sendcounts, MPI_Datatype stype,
                        const int *recvcounts, MPI_Datatype rtype, uint64_t **bytes_out)
{
    const int P = c->size;
    const size_t W = 1 + 2 * (size_t)P;
    uint64_t *mine = calloc(W, sizeof *mine), *all = calloc(W * (size_t)P, sizeof *all);
    uint64_t *bytes = calloc((size_t)P * P, sizeof *bytes);
    if (!mine || !all || !bytes)
        local_err = MPI_ERR_NO_MEM;
    int ssz = 0, rsz = 0;
    if (local_err == MPI_SUCCESS) {
        MPI_Type_size(stype, &ssz);
        MPI_Type_size(rtype, &rsz);
        for (int j = 0; j < P; j++) {
            if (sendcounts[j] < 0 || recvcounts[j] < 0)
                local_err = MPI_ERR_COUNT;
            mine[1 + j] = (uint64_t)(sendcounts[j] < 0 ? 0 : sendcounts[j]) * (uint64_t)ssz;
            mine[1 + P + j] = (uint64_t)(recvcounts[j] < 0 ? 0 : recvcounts[j]) * (uint64_t)rsz;
        }
    }
    int err = local_err;
    if (mine && all) {
        mine[0] = (uint64_t)local_err;
        MPI_Allgather(mine, (int)W, MPI_UINT64_T, all, (int)W, MPI_UINT64_T, c->comm);
        err = MPI_SUCCESS;
        for (int r = 0; r < P && err == MPI_SUCCESS; r++)
            if (all[(size_t)r * W] != MPI_SUCCESS)
                err = (int)all[(size_t)r * W];
        /* What i sends to j must be what j expects from i. */
        for (int i = 0; i < P && err == MPI_SUCCESS; i++)
            for (int j = 0; j < P; j++) {
                uint64_t s = all[(size_t)i * W + 1 + j], r = all[(size_t)j * W + 1 + P + i];
                if (s != r) {
                    err = MPI_ERR_TRUNCATE;
                    break;
                }
                bytes[(size_t)i * P + j] = s;
            }
    }
    free(mine);
    free(all);
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

/* Plan (or find) and execute an exchange whose pair sizes every rank knows (`bytes`). With
 * `record`, the outcome feeds alltoallv's speculation (speculate.c). */
static int exchange(const void *sendbuf, const int *sendcounts, const int *sdispls,
                    MPI_Datatype sendtype, void *recvbuf, const int *recvcounts, const int *rdispls,
                    MPI_Datatype recvtype, int in_place, const uint64_t *bytes, int record,
                    hc_comm_t *c)
{
    const size_t P = (size_t)c->size;
    plan_arg_t arg = {bytes, 0, 0, 0};
    hc__plan_entry_t *e, tmp;
    int rc = hc__plan_get(c, HC_COLL_ALLTOALL, bytes, P * P, build_alltoall, &arg, &e, &tmp);
    if (rc != HC_OK)
        return hc__mpi_err(rc);
    const hc__order_t *o;
    int err = hc__plan_order(c, e, &o);
    char *copy = NULL;
    if (err == MPI_SUCCESS && in_place) {
        copy = span_copy(recvbuf, recvcounts, rdispls, recvtype, c->size);
        err = copy ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    if (err == MPI_SUCCESS)
        err = hc__exec_exchange(c, e->s, o, in_place ? copy : sendbuf, sendcounts, sdispls,
                                sendtype, recvbuf, recvcounts, rdispls, recvtype);
    free(copy);
    if (err == MPI_SUCCESS && record)
        hc__spec_record(c, bytes, e);
    if (e == &tmp)
        hc__plan_entry_free(&tmp);
    return err;
}

int hc_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                 MPI_Datatype recvtype, hc_comm_t *c)
{
    if (!c)
        return MPI_ERR_COMM;
    int local = MPI_SUCCESS;
    const int in_place = sendbuf == MPI_IN_PLACE;
    if (!recvcounts || !rdispls || (!in_place && (!sendcounts || !sdispls)))
        return MPI_ERR_ARG; /* the same on every rank for a correct program */
    if (in_place) {
        sendcounts = recvcounts;
        sdispls = rdispls;
        sendtype = recvtype;
    }
    if (sendtype == MPI_DATATYPE_NULL || recvtype == MPI_DATATYPE_NULL)
        local = MPI_ERR_TYPE;
    /* In place, the send side is a copy taken before anything arrives: a speculative run
     * that has to be redone must still find the original data. */
    char *copy = NULL;
    if (in_place && local == MPI_SUCCESS) {
        copy = span_copy(recvbuf, recvcounts, rdispls, recvtype, c->size);
        if (!copy)
            local = MPI_ERR_NO_MEM;
    }
    const char *src = in_place ? copy : sendbuf;
    int done = 0;
    int err = hc__spec_try(c, local == MPI_SUCCESS, src, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, &done);
    uint64_t *bytes = NULL;
    if (err == MPI_SUCCESS && !done) {
        err = gather_pairs(c, local, sendcounts, local == MPI_SUCCESS ? sendtype : MPI_BYTE,
                           recvcounts, local == MPI_SUCCESS ? recvtype : MPI_BYTE, &bytes);
        if (err != MPI_SUCCESS)
            c->spec.streak = 0; /* agreed: every rank got the error */
        else
            err = exchange(src, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, 0, bytes, 1, c);
    }
    free(bytes);
    free(copy);
    return err;
}

/* Alltoall: every pair carries sendcount elements, which every rank knows, so unlike
 * alltoallv no size gathering is needed (MPI requires matching signatures, as for
 * MPI_Alltoall). */
int hc_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, hc_comm_t *c)
{
    if (!c)
        return MPI_ERR_COMM;
    if (sendcount < 0 || recvcount < 0)
        return MPI_ERR_COUNT;
    const int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place) {
        sendcount = recvcount;
        sendtype = recvtype;
    }
    if (sendtype == MPI_DATATYPE_NULL || recvtype == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    int tsize;
    MPI_Type_size(sendtype, &tsize);
    const int P = c->size;
    int *v = malloc(sizeof *v * 4 * (size_t)P);
    uint64_t *bytes = malloc(sizeof *bytes * (size_t)P * (size_t)P);
    int err = v && bytes ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (err == MPI_SUCCESS) {
        for (int i = 0; i < P; i++) {
            v[i] = sendcount;
            v[P + i] = i * sendcount;
            v[2 * P + i] = recvcount;
            v[3 * P + i] = i * recvcount;
        }
        for (size_t i = 0; i < (size_t)P * (size_t)P; i++)
            bytes[i] = (uint64_t)sendcount * (uint64_t)tsize;
        err = exchange(in_place ? MPI_IN_PLACE : sendbuf, v, v + P, sendtype, recvbuf, v + 2 * P,
                       v + 3 * P, recvtype, in_place, bytes, 0, c);
    }
    free(v);
    free(bytes);
    return err;
}

int hc_redistribute(const void *sendbuf, const int sendcounts[], const int sdispls[], void *recvbuf,
                    const int recvcounts[], const int rdispls[], MPI_Datatype type, int k,
                    hc_comm_t *c)
{
    if (!c)
        return MPI_ERR_COMM;
    if (!sendcounts || !sdispls || !recvcounts || !rdispls || sendbuf == MPI_IN_PLACE)
        return MPI_ERR_ARG;
    int local = type == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
    uint64_t *bytes = NULL;
    MPI_Datatype t = local == MPI_SUCCESS ? type : MPI_BYTE;
    int err = gather_pairs(c, local, sendcounts, t, recvcounts, t, &bytes);
    if (err != MPI_SUCCESS)
        return err;
    const size_t P = (size_t)c->size;
    int any = 0;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < P; j++)
            any |= i != j && bytes[i * P + j] > 0;
    if (!any) { /* nothing crosses: only the local copy */
        free(bytes);
        MPI_Aint lb, ext;
        MPI_Type_get_extent(type, &lb, &ext);
        const int me = c->rank;
        if (sendcounts[me] == 0)
            return MPI_SUCCESS;
        return MPI_Sendrecv((const char *)sendbuf + sdispls[me] * ext, sendcounts[me], type, me, 0,
                            (char *)recvbuf + rdispls[me] * ext, recvcounts[me], type, me, 0,
                            c->comm, MPI_STATUS_IGNORE);
    }
    uint64_t *key = malloc(sizeof *key * (P * P + 1));
    if (!key) {
        free(bytes);
        return MPI_ERR_NO_MEM; /* every rank allocates the same size; rare and local */
    }
    memcpy(key, bytes, sizeof *key * P * P);
    key[P * P] = (uint64_t)(int64_t)k;
    plan_arg_t arg = {bytes, 0, 0, k};
    hc__plan_entry_t *e, tmp;
    int rc =
        hc__plan_get(c, HC_COLL_REDISTRIBUTE, key, P * P + 1, build_redistribute, &arg, &e, &tmp);
    free(key);
    free(bytes);
    if (rc != HC_OK)
        return hc__mpi_err(rc);
    err = hc__exec_redistribute(c, e->s, e->members, sendbuf, sendcounts, sdispls, recvbuf,
                                recvcounts, rdispls, type);
    if (e == &tmp)
        hc__plan_entry_free(&tmp);
    return err;
}

/* Arguments of the rooted collectives; the same on every rank of a correct program. */
static int check_rooted(const hc_comm_t *c, int count, MPI_Datatype type, int root)
{
    if (!c)
        return MPI_ERR_COMM;
    if (root < 0 || root >= c->size)
        return MPI_ERR_ROOT;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (type == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

int hc_bcast(void *buf, int count, MPI_Datatype type, int root, hc_comm_t *c)
{
    int err = check_rooted(c, count, type, root);
    if (err != MPI_SUCCESS)
        return err;
    int tsize;
    MPI_Type_size(type, &tsize);
    if (count == 0 || tsize == 0 || c->size == 1)
        return MPI_SUCCESS;
    uint64_t key[2] = {(uint64_t)count * (uint64_t)tsize, (uint64_t)root};
    plan_arg_t arg = {NULL, key[0], (uint32_t)root, 0};
    hc__plan_entry_t *e, tmp;
    int rc = hc__plan_get(c, HC_COLL_BCAST, key, 2, build_bcast, &arg, &e, &tmp);
    if (rc != HC_OK)
        return hc__mpi_err(rc);
    const hc_schedule_t *s;
    const hc__order_t *o;
    int trial;
    err = hc__plan_select(c, e, &s, &o, &trial);
    if (err == MPI_SUCCESS)
        err = hc__exec_bcast(c, s, o, buf, count, type);
    if (err == MPI_SUCCESS)
        err = hc__plan_trial_end(c, e, trial);
    if (e == &tmp)
        hc__plan_entry_free(&tmp);
    return err;
}

int hc_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
              hc_comm_t *c)
{
    int err = check_rooted(c, count, type, root);
    if (err != MPI_SUCCESS)
        return err;
    if (op == MPI_OP_NULL)
        return MPI_ERR_OP;
    if (sendbuf == MPI_IN_PLACE && c->rank != root)
        return MPI_ERR_BUFFER;
    if (count == 0)
        return MPI_SUCCESS;
    int commute = 0;
    MPI_Op_commutative(op, &commute);
    if (!commute || c->size == 1) {
        /* Our schedules combine in arrival order; a non-commutative op needs rank order. */
        c->stats.fallbacks++;
        if (c->opts.verbose && c->rank == 0)
            fprintf(stderr, "hetcoll: reduce: op is not commutative, using PMPI_Reduce\n");
        snprintf(c->last_algo, sizeof c->last_algo, "PMPI_Reduce");
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, c->comm);
    }
    int tsize;
    MPI_Type_size(type, &tsize);
    uint64_t key[2] = {(uint64_t)count * (uint64_t)tsize, (uint64_t)root};
    plan_arg_t arg = {NULL, key[0], (uint32_t)root, 0};
    hc__plan_entry_t *e, tmp;
    int rc = hc__plan_get(c, HC_COLL_REDUCE, key, 2, build_reduce, &arg, &e, &tmp);
    if (rc != HC_OK)
        return hc__mpi_err(rc);
    const char *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    const hc_schedule_t *s;
    const hc__order_t *o;
    int trial;
    err = hc__plan_select(c, e, &s, &o, &trial);
    /* The result builds up where it is wanted: the root's recvbuf. */
    if (err == MPI_SUCCESS)
        err = hc__exec_reduce(c, s, o, mine, c->rank == root ? recvbuf : NULL, count, type, op);
    if (err == MPI_SUCCESS)
        err = hc__plan_trial_end(c, e, trial);
    if (e == &tmp)
        hc__plan_entry_free(&tmp);
    return err;
}
