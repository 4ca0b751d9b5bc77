/* The MPI runtime against the MPI library's own collectives on one machine (shared memory):
 * where hetcoll's schedules are not faster, measured tuning must leave the MPI library's
 * collective running, so the steady state costs only the call path. For 1 KiB and 1 MiB per
 * pair / message: the calls until the runtime settled (hc_comm_settled: planned and measured)
 * and what they cost beyond as many native calls, then the steady state: medians of
 * alternating hetcoll and native calls, and their ratio.
 *   mpirun -np 8 build/bench/bench_mpi_overhead [iters] [probe|homogeneous] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/mpi.h"

static int rank, size;

typedef int (*op_fn)(int which, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt, int *dsp);

/* which: 0 = hetcoll, 1 = native. */
static int op_alltoall(int which, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt, int *dsp)
{
    for (int i = 0; i < size; i++) {
        cnt[i] = (int)bytes;
        dsp[i] = (int)(i * bytes);
    }
    return which == 0 ? hc_alltoallv(a, cnt, dsp, MPI_BYTE, b, cnt, dsp, MPI_BYTE, c)
                      : MPI_Alltoallv(a, cnt, dsp, MPI_BYTE, b, cnt, dsp, MPI_BYTE, MPI_COMM_WORLD);
}

static int op_alltoall_uniform(int which, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt,
                               int *dsp)
{
    (void)cnt, (void)dsp;
    return which == 0
               ? hc_alltoall(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, c)
               : MPI_Alltoall(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
}

static int op_bcast(int which, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt, int *dsp)
{
    (void)b, (void)cnt, (void)dsp;
    return which == 0 ? hc_bcast(a, (int)bytes, MPI_BYTE, 0, c)
                      : MPI_Bcast(a, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}

static int op_reduce(int which, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt, int *dsp)
{
    (void)cnt, (void)dsp;
    int n = (int)(bytes / sizeof(double));
    return which == 0 ? hc_reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, c)
                      : MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One call of each, timed after a barrier; the slowest rank's time counts. */
static double one_call(op_fn f, int which, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt,
                       int *dsp)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (f(which, bytes, c, a, b, cnt, dsp) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* hetcoll and native calls alternate, so both see the same machine state; oversubscribed
 * runs have scheduling spikes, hence medians. */
static void interleaved(op_fn f, size_t bytes, hc_comm_t *c, char *a, char *b, int *cnt, int *dsp,
                        int reps, double *hc_med, double *nat_med)
{
    double *th = malloc(sizeof(double) * reps), *tn = malloc(sizeof(double) * reps);
    for (int r = 0; r < reps; r++) { /* who goes first alternates too */
        th[r] = one_call(f, r % 2, bytes, c, a, b, cnt, dsp);
        tn[r] = one_call(f, 1 - r % 2, bytes, c, a, b, cnt, dsp);
        if (r % 2) {
            double t = th[r];
            th[r] = tn[r];
            tn[r] = t;
        }
    }
    qsort(th, reps, sizeof *th, cmp_double);
    qsort(tn, reps, sizeof *tn, cmp_double);
    *hc_med = th[reps / 2];
    *nat_med = tn[reps / 2];
    free(th);
    free(tn);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    /* The platform the runtime uses by default: its own quick probe (HETCOLL_PLATFORM unset).
     * Probed once, shared by every communicator below. */
    hc_platform_t *p;
    if (argc > 2 && strcmp(argv[2], "homogeneous") == 0) {
        hc_platform_create((uint32_t)size, 1e-6, 5e9, &p); /* 1 us, 5 GB/s everywhere */
    } else {
        hc_comm_t *probe;
        if (hc_comm_create(MPI_COMM_WORLD, NULL, NULL, &probe) != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
        hc_platform_clone(hc_comm_platform(probe), &p);
        hc_comm_destroy(probe);
    }
    const char *names[4] = {"alltoallv", "alltoall", "bcast", "reduce"};
    op_fn fns[4] = {op_alltoall, op_alltoall_uniform, op_bcast, op_reduce};
    size_t sizes[2] = {1024, 1 << 20};
    size_t maxb = (size_t)size * (1 << 20);
    char *a = calloc(maxb, 1), *b = calloc(maxb, 1);
    int *cnt = malloc(sizeof(int) * size), *dsp = malloc(sizeof(int) * size);
    if (rank == 0)
        printf("%d ranks, %d alternating calls in the steady state (medians)\n"
               "%-10s %8s %12s %12s %8s %8s %12s %s\n",
               size, iters, "collective", "size", "native(s)", "hetcoll(s)", "ratio", "warm-up",
               "warm-up(s)", "algorithm");
    for (int o = 0; o < 4; o++)
        for (int z = 0; z < 2; z++) {
            int reps = sizes[z] > 4096 ? iters : 5 * iters;
            hc_comm_t *c;
            hc_comm_create(MPI_COMM_WORLD, p, NULL, &c);
            one_call(fns[o], 1, sizes[z], c, a, b, cnt, dsp); /* warm the native path */
            /* Warm-up: call until the runtime settled (bounded), timing what it cost. */
            int warm = 0;
            double t_warm = 0;
            do {
                t_warm += one_call(fns[o], 0, sizes[z], c, a, b, cnt, dsp);
                warm++;
            } while (!hc_comm_settled(c) && warm < 1000);
            double cached, native;
            interleaved(fns[o], sizes[z], c, a, b, cnt, dsp, reps, &cached, &native);
            if (rank == 0)
                printf("%-10s %8zu %12.3e %12.3e %8.3f %8d %12.3e %s%s\n", names[o], sizes[z],
                       native, cached, cached / native, warm, t_warm - warm * native,
                       hc_comm_last_algorithm(c), hc_comm_settled(c) ? "" : " (not settled)");
            hc_comm_destroy(c);
        }
    free(a);
    free(b);
    free(cnt);
    free(dsp);
    hc_platform_destroy(p);
    MPI_Finalize();
    return 0;
}
