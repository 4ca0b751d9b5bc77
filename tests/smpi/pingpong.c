/* Ping-pong under SMPI (built with smpicc, no hetcoll code): for every pair "i j" read from
 * PAIRS_FILE and every size, rank i sends `size` bytes to j and j sends them back. SMPI's clock
 * is global, so the receiver's completion time minus the sender's start time is the one-way
 * time. Pairs run one at a time (barrier). Rank i prints "i j size one_way round_trip" (seconds).
 * Usage: smpirun ... ./smpi_pingpong PAIRS_FILE SIZE [SIZE...] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (argc < 3) {
        if (me == 0)
            fprintf(stderr, "usage: smpi_pingpong PAIRS_FILE SIZE [SIZE...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long maxsz = 1;
    for (int a = 2; a < argc; a++)
        if (atol(argv[a]) > maxsz)
            maxsz = atol(argv[a]);
    char *buf = calloc((size_t)maxsz, 1);
    FILE *f = fopen(argv[1], "r");
    if (!buf || !f) {
        fprintf(stderr, "smpi_pingpong: cannot read %s\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int i, j;
    while (fscanf(f, "%d %d", &i, &j) == 2) {
        MPI_Barrier(MPI_COMM_WORLD); /* one pair at a time: no other flow on the network */
        if (i < 0 || j < 0 || i >= P || j >= P || i == j || (me != i && me != j))
            continue;
        for (int a = 2; a < 2 * argc - 2; a++) { /* each size twice, printing the second:
                                                    the first absorbs the barrier's last flows */
            int m = atoi(argv[a < argc ? a : a - argc + 2]);
            char ready = 0; /* the receiver is idle: the sender's clock starts now */
            if (me == i) {
                MPI_Recv(&ready, 1, MPI_CHAR, j, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double t0 = MPI_Wtime(), t1;
                MPI_Send(buf, m, MPI_BYTE, j, 1, MPI_COMM_WORLD);
                MPI_Recv(&t1, 1, MPI_DOUBLE, j, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double t2 = MPI_Wtime();
                MPI_Send(buf, m, MPI_BYTE, j, 3, MPI_COMM_WORLD);
                MPI_Recv(buf, m, MPI_BYTE, j, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double t3 = MPI_Wtime();
                if (a >= argc) {
                    printf("%d %d %d %.12e %.12e\n", i, j, m, t1 - t0, t3 - t2);
                    fflush(stdout);
                }
            } else {
                double t1;
                MPI_Send(&ready, 1, MPI_CHAR, i, 5, MPI_COMM_WORLD);
                MPI_Recv(buf, m, MPI_BYTE, i, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t1 = MPI_Wtime();
                MPI_Send(&t1, 1, MPI_DOUBLE, i, 2, MPI_COMM_WORLD);
                MPI_Recv(buf, m, MPI_BYTE, i, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, m, MPI_BYTE, i, 4, MPI_COMM_WORLD);
            }
        }
    }
    fclose(f);
    free(buf);
    MPI_Finalize();
    return 0;
}
