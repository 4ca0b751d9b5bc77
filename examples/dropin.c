/* An unmodified MPI program (no hetcoll include, no hetcoll link): run it with the drop-in
 * preloaded and its broadcasts, reductions and all-to-alls go through hetcoll, byte for byte the
 * same results:
 *   HETCOLL_PLATFORM=builtin:gusto mpirun -x LD_PRELOAD=$PWD/build/libhetcoll_pmpi.so
 *       -x HETCOLL_PLATFORM -np 4 ./example_dropin */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, P, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    static double v[1 << 16], sum[1 << 16];
    static int s[16 * 64], r[16 * 64];
    if (P > 16)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int call = 0; call < 5; call++) {
        for (int i = 0; i < 1 << 16; i++)
            v[i] = me == 0 ? i + call : 0;
        MPI_Bcast(v, 1 << 16, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        for (int i = 0; i < 1 << 16; i++)
            bad += v[i] != i + call;
        MPI_Reduce(v, sum, 1 << 16, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        for (int i = 0; me == 0 && i < 1 << 16; i++)
            bad += sum[i] != (double)P * (i + call);
        for (int k = 0; k < P * 64; k++)
            s[k] = me * 100000 + k + call;
        MPI_Alltoall(s, 64, MPI_INT, r, 64, MPI_INT, MPI_COMM_WORLD);
        for (int j = 0; j < P; j++)
            for (int k = 0; k < 64; k++)
                bad += r[j * 64 + k] != j * 100000 + me * 64 + k + call;
    }
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("dropin: %d ranks, %s\n", P, all ? "WRONG BYTES" : "every byte right");
    MPI_Finalize();
    return all ? 1 : 0;
}
