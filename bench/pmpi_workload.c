/* A workload of collectives with random sizes and roots, for the drop-in: an ordinary MPI
 * program (built without hetcoll) that times every call twice, through MPI_* (intercepted when
 * libhetcoll_pmpi.so is preloaded) and through PMPI_* (always the MPI library's own), in the
 * same run and alternating which goes first, and checks that both give the same bytes.
 *
 *   mpirun -np 8 -x LD_PRELOAD=build/libhetcoll_pmpi.so -x HETCOLL_PLATFORM=builtin:grid5000 \
 *       build/bench/bench_pmpi_workload [calls=2000] [seed=1] [max_bytes=1048576]
 *
 * Sizes are log-uniform in [1, max_bytes] bytes per rank (per pair for alltoall), roots
 * uniform; MPI_Bcast, MPI_Reduce (MPI_SUM on doubles), MPI_Alltoall and MPI_Alltoallv (skewed
 * counts). Prints the total time of each side (the slowest rank's sum of its call times) and
 * their ratio: hetcoll's planning and tuning are inside the MPI_* side. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    long calls = argc > 1 ? atol(argv[1]) : 2000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    long max_bytes = argc > 3 ? atol(argv[3]) : 1 << 20;
    size_t cap = (size_t)max_bytes * (size_t)P + 64;
    char *a = malloc(cap), *b = malloc(cap), *x = malloc(cap), *y = malloc(cap);
    int *cnt = malloc(sizeof(int) * (size_t)P * 4);
    for (size_t i = 0; i < cap; i++)
        a[i] = (char)(i * 7 + (size_t)me);
    for (size_t i = 0; i + sizeof(double) <= cap; i += sizeof(double)) {
        double v = (double)((i / 8 + (size_t)me) % 1000);
        memcpy(a + i, &v, sizeof v);
    }
    /* The MPI library's own first-call set-up of each collective, untimed (otherwise whichever
     * side runs a collective first pays it; hetcoll's own set-up stays in the MPI_* side). */
    {
        int one = 1, *oc = cnt, *od = cnt + P;
        for (int k = 0; k < P; k++) {
            oc[k] = 1;
            od[k] = k;
        }
        PMPI_Bcast(x, 1, MPI_BYTE, 0, MPI_COMM_WORLD);
        PMPI_Reduce(a, x, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        PMPI_Alltoall(a, one, MPI_BYTE, x, one, MPI_BYTE, MPI_COMM_WORLD);
        PMPI_Alltoallv(a, oc, od, MPI_BYTE, x, oc, od, MPI_BYTE, MPI_COMM_WORLD);
    }
    double t_mpi = 0, t_pmpi = 0, t;
    long bad = 0, per[4] = {0};
    uint64_t s = seed;
    for (long i = 0; i < calls; i++) {
        int coll = (int)(next(&s) % 4);
        int root = (int)(next(&s) % (uint64_t)P);
        double lg = log2((double)max_bytes) * (double)(next(&s) % 1000000) / 1e6;
        long bytes = (long)pow(2.0, lg);
        bytes = bytes < 1 ? 1 : bytes;
        per[coll]++;
        for (int side = 0; side < 2; side++) {
            int pmpi = (side + (int)(i & 1)) % 2; /* alternate which goes first */
            char *out = pmpi ? y : x;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            int err = MPI_SUCCESS;
            if (coll == 0) {
                memcpy(out, a, (size_t)bytes);
                if (me != root)
                    memset(out, 0, (size_t)bytes);
                err = pmpi ? PMPI_Bcast(out, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD)
                           : MPI_Bcast(out, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD);
            } else if (coll == 1) {
                int n = (int)(bytes / 8) + 1;
                err = pmpi ? PMPI_Reduce(a, out, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD)
                           : MPI_Reduce(a, out, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
            } else if (coll == 2) {
                int n = (int)(bytes / P) + 1;
                err = pmpi ? PMPI_Alltoall(a, n, MPI_BYTE, out, n, MPI_BYTE, MPI_COMM_WORLD)
                           : MPI_Alltoall(a, n, MPI_BYTE, out, n, MPI_BYTE, MPI_COMM_WORLD);
            } else {
                /* Skewed counts from a matrix every rank draws alike. */
                uint64_t ms = seed ^ (uint64_t)i * 7919;
                int *sc = cnt, *sd = cnt + P, *rc = cnt + 2 * P, *rd = cnt + 3 * P;
                long per_pair = bytes / P + 1, so = 0, ro = 0;
                for (int r = 0; r < P; r++)
                    for (int c = 0; c < P; c++) {
                        int v = (int)(next(&ms) % (uint64_t)(per_pair * 2));
                        if (r == me)
                            sc[c] = v;
                        if (c == me)
                            rc[r] = v;
                    }
                for (int k = 0; k < P; k++) {
                    sd[k] = (int)so;
                    rd[k] = (int)ro;
                    so += sc[k];
                    ro += rc[k];
                }
                err =
                    pmpi
                        ? PMPI_Alltoallv(a, sc, sd, MPI_BYTE, out, rc, rd, MPI_BYTE, MPI_COMM_WORLD)
                        : MPI_Alltoallv(a, sc, sd, MPI_BYTE, out, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
            }
            t = MPI_Wtime() - t0;
            if (err != MPI_SUCCESS)
                MPI_Abort(MPI_COMM_WORLD, 1);
            if (pmpi)
                t_pmpi += t;
            else
                t_mpi += t;
        }
        size_t n = coll == 0   ? (size_t)bytes
                   : coll == 1 ? (me == root ? ((size_t)bytes / 8 + 1) * 8 : 0)
                   : coll == 2 ? ((size_t)bytes / (size_t)P + 1) * (size_t)P
                               : 0;
        if (coll == 3) {
            for (int k = 0; k < P; k++)
                n += (size_t)cnt[2 * P + k];
        }
        bad += memcmp(x, y, n) != 0;
    }
    double tm, tp;
    long allbad;
    MPI_Reduce(&t_mpi, &tm, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t_pmpi, &tp, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("workload: %d ranks, %ld calls (bcast %ld, reduce %ld, alltoall %ld, alltoallv "
               "%ld), sizes 1..%ld B, seed %llu\n"
               "  MPI_* (drop-in if preloaded) %.4f s, PMPI_* (the MPI library) %.4f s, "
               "ratio %.3f, %ld differing results\n",
               P, calls, per[0], per[1], per[2], per[3], max_bytes, (unsigned long long)seed, tm,
               tp, tm / tp, allbad);
    free(a);
    free(b);
    free(x);
    free(y);
    free(cnt);
    MPI_Finalize();
    return allbad != 0;
}
