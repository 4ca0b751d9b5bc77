/* The program of issue 13's first finding, rebuilt from its description: a loop of
 * hc_alltoallv, hc_bcast and hc_reduce, each compared with the MPI library's collective.
 * The reduction is n = 40001 MPI_LONG (v[i] = rank * 31 + i) with MPI_SUM to root 1: with the
 * old slot sizing its last segment overran into the next slot at a segment boundary (one wrong
 * element at index 24000, about one run in 20 under load).
 *   HETCOLL_PLATFORM=builtin:gusto mpirun -np 5 loop_check [iterations (4)]
 * Exit 0 when every result matched; otherwise prints the first difference and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/mpi.h"

static int rank, size;

static int fail(const char *what, int iter, long i, long got, long want)
{
    fprintf(stderr,
            "loop_check: rank %d iteration %d: %s differs at %ld: %ld instead of %ld (%s)\n", rank,
            iter, what, i, got, want, "hetcoll vs the MPI library");
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int iters = argc > 1 ? atoi(argv[1]) : 4;
    hc_comm_t *c;
    if (hc_comm_create(MPI_COMM_WORLD, NULL, NULL, &c) != MPI_SUCCESS) {
        fprintf(stderr, "loop_check: hc_comm_create: %s\n", hc_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const long n = 40001;
    long *v = malloc(sizeof *v * n), *r1 = calloc(n, sizeof *r1), *r2 = calloc(n, sizeof *r2);
    /* alltoallv: rank r sends (r + j) % 7 * 1000 + 1 longs to rank j. */
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    int st = 0, rt = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = (rank + j) % 7 * 1000 + 1;
        rc[j] = (j + rank) % 7 * 1000 + 1;
        sd[j] = st;
        rd[j] = rt;
        st += sc[j];
        rt += rc[j];
    }
    long *sb = malloc(sizeof(long) * st), *ra = malloc(sizeof(long) * rt),
         *rb = malloc(sizeof(long) * rt);
    char *b1 = malloc(1 << 20), *b2 = malloc(1 << 20);
    int bad = 0;
    for (int it = 0; it < iters && !bad; it++) {
        for (long i = 0; i < st; i++)
            sb[i] = rank * 1000003L + i + it;
        memset(ra, 0, sizeof(long) * rt);
        memset(rb, 0, sizeof(long) * rt);
        if (hc_alltoallv(sb, sc, sd, MPI_LONG, ra, rc, rd, MPI_LONG, c) != MPI_SUCCESS ||
            MPI_Alltoallv(sb, sc, sd, MPI_LONG, rb, rc, rd, MPI_LONG, MPI_COMM_WORLD) !=
                MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (long i = 0; i < rt && !bad; i++)
            if (ra[i] != rb[i])
                bad = fail("alltoallv", it, i, ra[i], rb[i]);
        for (int i = 0; i < 1 << 20; i++)
            b1[i] = b2[i] = rank == 0 ? (char)(i * 7 + it) : 0;
        if (hc_bcast(b1, 1 << 20, MPI_BYTE, 0, c) != MPI_SUCCESS ||
            MPI_Bcast(b2, 1 << 20, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (long i = 0; i < 1 << 20 && !bad; i++)
            if (b1[i] != b2[i])
                bad = fail("bcast", it, i, b1[i], b2[i]);
        for (long i = 0; i < n; i++)
            v[i] = rank * 31L + i;
        memset(r1, 0, sizeof *r1 * n);
        memset(r2, 0, sizeof *r2 * n);
        if (hc_reduce(v, r1, (int)n, MPI_LONG, MPI_SUM, 1, c) != MPI_SUCCESS ||
            MPI_Reduce(v, r2, (int)n, MPI_LONG, MPI_SUM, 1, MPI_COMM_WORLD) != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 2);
        if (rank == 1)
            for (long i = 0; i < n && !bad; i++)
                if (r1[i] != r2[i])
                    bad = fail("reduce", it, i, r1[i], r2[i]);
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("loop_check: %d ranks, %d iterations: %s (last reduce: %s)\n", size, iters,
               any ? "MISMATCH" : "all results identical to the MPI library's",
               hc_comm_last_algorithm(c));
    hc_comm_destroy(c);
    free(v), free(r1), free(r2), free(sc), free(sd), free(rc), free(rd), free(sb), free(ra),
        free(rb), free(b1), free(b2);
    MPI_Finalize();
    return any;
}
