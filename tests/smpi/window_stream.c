/* A stream of pieces under SMPI, as the runtime sends a broadcast's pieces: rank 0 sends K
 * pieces of SEG bytes to rank 1 with MPI_Issend, at most W in flight (a piece is posted as soon
 * as any send in flight completes, MPI_Waitany, as src/mpi/exec.c does); rank 1 posts every
 * receive at once. MODE 1: the first W - 1 pieces carry j * SEG / W bytes (j = 1 .. W - 1)
 * instead of SEG (staggered); MODE 2: odd pieces carry 5 * SEG / 8 bytes (two sizes). Prints the
 * simulated time from a barrier to rank 1's last receive. Built with smpicc
 * (tests/smpi/CMakeLists.txt). Usage: window_stream K SEG W MODE */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes of piece k in mode st (see above). */
static int piece(int k, int seg, int W, int st)
{
    if (st == 1 && k < W - 1)
        return (int)((long)seg * (k + 1) / W);
    if (st == 2 && k % 2)
        return (int)((long)seg * 5 / 8);
    return seg;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: window_stream K SEG W MODE (2 ranks)\n");
        MPI_Finalize();
        return 2;
    }
    const int K = atoi(argv[1]), seg = atoi(argv[2]), W = atoi(argv[3]), st = atoi(argv[4]);
    if (K < 1 || seg < 1 || W < 1) {
        MPI_Finalize();
        return 2;
    }
    char *buf = calloc((size_t)seg, 1);
    MPI_Request *rq = calloc((size_t)K, sizeof *rq);
    if (!buf || !rq)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (rank == 0) {
        /* rq[0 .. W-1]: the send slots */
        const int slots = W < K ? W : K;
        for (int k = 0; k < K; k++) {
            const int n = piece(k, seg, W, st);
            int slot = k;
            if (k >= slots)
                MPI_Waitany(slots, rq, &slot, MPI_STATUS_IGNORE);
            MPI_Issend(buf, n, MPI_BYTE, 1, k, MPI_COMM_WORLD, &rq[slot]);
        }
        MPI_Waitall(slots, rq, MPI_STATUSES_IGNORE);
    } else {
        for (int k = 0; k < K; k++) {
            const int n = piece(k, seg, W, st);
            MPI_Irecv(buf, n, MPI_BYTE, 0, k, MPI_COMM_WORLD, &rq[k]);
        }
        MPI_Waitall(K, rq, MPI_STATUSES_IGNORE);
    }
    if (rank == 1)
        printf("%.9f\n", MPI_Wtime() - t0);
    free(rq);
    free(buf);
    MPI_Finalize();
    return 0;
}
