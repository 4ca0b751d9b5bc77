/* An ordinary MPI program, built WITHOUT hetcoll (tests/pmpi/test_pmpi.sh runs it with and
 * without LD_PRELOAD=libhetcoll_pmpi.so and compares the output). It calls MPI_Bcast,
 * MPI_Reduce (sum, max, a non-commutative user op), MPI_Allreduce, MPI_Alltoall and
 * MPI_Alltoallv on MPI_COMM_WORLD and on a split communicator, twice each (the second call
 * hits hetcoll's plan cache), then prints one line per rank with a digest of every result.
 * Sums are over integer-valued doubles, so any reduction order gives the same bits. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t digest(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* a o b = b (keeps the right operand): non-commutative, result = the last rank's value */
static void keep_right(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)t;
}

static uint64_t run(MPI_Comm comm, uint64_t h)
{
    int me, P;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &P);
    const int n = 5000;
    int *ib = malloc(sizeof(int) * n);
    double *d = malloc(sizeof(double) * n), *dr = malloc(sizeof(double) * n);
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < n; i++)
            ib[i] = me == P - 1 ? i * 7 + rep : -1;
        MPI_Bcast(ib, n, MPI_INT, P - 1, comm);
        h = digest(h, ib, sizeof(int) * n);
        for (int i = 0; i < n; i++)
            d[i] = (double)((me + 1) * (i % 97) + rep);
        memset(dr, 0, sizeof(double) * n);
        MPI_Reduce(d, dr, n, MPI_DOUBLE, MPI_SUM, 0, comm);
        if (me == 0)
            h = digest(h, dr, sizeof(double) * n);
        for (int i = 0; i < n; i++)
            ib[i] = (me * 31 + i) % 1000;
        int *imax = calloc((size_t)n, sizeof(int));
        MPI_Reduce(ib, imax, n, MPI_INT, MPI_MAX, P / 2, comm);
        if (me == P / 2)
            h = digest(h, imax, sizeof(int) * n);
        MPI_Op keep;
        MPI_Op_create(keep_right, 0, &keep);
        MPI_Reduce(ib, imax, n, MPI_INT, keep, 0, comm);
        if (me == 0)
            h = digest(h, imax, sizeof(int) * n);
        MPI_Op_free(&keep);
        free(imax);
        MPI_Allreduce(d, dr, n, MPI_DOUBLE, MPI_SUM, comm);
        h = digest(h, dr, sizeof(double) * n);
        /* alltoall: 300 ints per pair */
        int m = 300;
        int *sa = malloc(sizeof(int) * (size_t)m * P), *ra = malloc(sizeof(int) * (size_t)m * P);
        for (int i = 0; i < m * P; i++)
            sa[i] = me * 100000 + i + rep;
        MPI_Alltoall(sa, m, MPI_INT, ra, m, MPI_INT, comm);
        h = digest(h, ra, sizeof(int) * (size_t)m * P);
        /* alltoallv: rank i sends (i + 2j) % 5 * 100 ints to j */
        int *sc = malloc(sizeof(int) * 4 * (size_t)P), *sd = sc + P, *rc = sc + 2 * P,
            *rd = sc + 3 * P;
        int st = 0, rt = 0;
        for (int j = 0; j < P; j++) {
            sc[j] = (me + 2 * j) % 5 * 100;
            rc[j] = (j + 2 * me) % 5 * 100;
            sd[j] = st;
            rd[j] = rt;
            st += sc[j];
            rt += rc[j];
        }
        int *sv = malloc(sizeof(int) * (size_t)(st + 1)), *rv = calloc((size_t)rt + 1, sizeof(int));
        for (int i = 0; i < st; i++)
            sv[i] = me * 7919 + i * 3 + rep;
        MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, comm);
        h = digest(h, rv, sizeof(int) * (size_t)rt);
        free(sa);
        free(ra);
        free(sc);
        free(sv);
        free(rv);
    }
    free(ib);
    free(d);
    free(dr);
    return h;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    uint64_t h = run(MPI_COMM_WORLD, 0xcbf29ce484222325ULL);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, P - me, &half); /* reversed order inside */
    h = run(half, h);
    MPI_Comm_free(&half);
    h = run(MPI_COMM_WORLD, h);
    uint64_t *all = malloc(sizeof *all * (size_t)P);
    MPI_Gather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (me == 0)
        for (int r = 0; r < P; r++)
            printf("rank %d digest %016llx\n", r, (unsigned long long)all[r]);
    free(all);
    MPI_Finalize();
    return 0;
}
