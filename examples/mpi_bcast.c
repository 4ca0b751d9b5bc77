/* An MPI program with the runtime (libhetcoll_mpi): a hetcoll communicator over MPI_COMM_WORLD
 * on the platform named by HETCOLL_PLATFORM (else the runtime probes the network), then
 * broadcasts and an all-to-all whose bytes every rank checks. Build: mpicc mpi_bcast.c
 * $(pkg-config --cflags --libs hetcoll_mpi); run: HETCOLL_PLATFORM=builtin:gusto mpirun -np 4
 * ./a.out. */
#include <hetcoll/mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, P, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    hc_comm_t *c = NULL;
    if (hc_comm_create(MPI_COMM_WORLD, NULL, NULL, &c) != MPI_SUCCESS) {
        fprintf(stderr, "rank %d: %s\n", me, hc_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    enum { N = 1 << 18 }; /* 1 MiB of ints */
    int *buf = malloc(sizeof *buf * N), *send = malloc(sizeof *send * 64 * (size_t)P),
        *recv = malloc(sizeof *recv * 64 * (size_t)P);
    if (!buf || !send || !recv)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int call = 0; call < 5; call++) { /* repeated: the runtime plans sizes it sees again */
        for (int i = 0; i < N; i++)
            buf[i] = me == call % P ? i * 7 + call : -1;
        hc_bcast(buf, N, MPI_INT, call % P, c);
        for (int i = 0; i < N; i++)
            bad += buf[i] != i * 7 + call;
        for (int j = 0; j < P; j++)
            for (int k = 0; k < 64; k++)
                send[j * 64 + k] = me * 1000 + j * 64 + k + call;
        hc_alltoall(send, 64, MPI_INT, recv, 64, MPI_INT, c);
        for (int j = 0; j < P; j++)
            for (int k = 0; k < 64; k++)
                bad += recv[j * 64 + k] != j * 1000 + me * 64 + k + call;
    }
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("mpi_bcast: %d ranks, last broadcast ran %s, %s\n", P, hc_comm_last_algorithm(c),
               all ? "WRONG BYTES" : "every byte right");
    hc_comm_destroy(c);
    free(buf);
    free(send);
    free(recv);
    MPI_Finalize();
    return all ? 1 : 0;
}
