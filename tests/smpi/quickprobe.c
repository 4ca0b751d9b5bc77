/* The MPI runtime's quick probe under SimGrid SMPI (tests/smpi/test_probe_links.sh runtime):
 * hc_comm_create without a platform (HETCOLL_PLATFORM unset) must give the communicator the
 * link probe's platform: 3 sites of interleaved ranks, 3 uplinks of capacity BW (within 10 %)
 * and sharing SHARING, every pair routed; a broadcast planned on it must deliver the data.
 * Usage: quickprobe BW SHARING. Rank 0 prints "probe time T" and "OK" when everything holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/links.h"
#include "hetcoll/mpi.h"

static int check(const hc_platform_t *p, int P, double bw, const char *sharing)
{
    hc_link_sharing_t want;
    if (hc_link_sharing_parse(sharing, &want) != HC_OK)
        return printf("bad sharing '%s'\n", sharing), 1;
    if ((int)hc_platform_size(p) != P || hc_platform_cluster_count(p) != 3)
        return printf("%u nodes in %u sites\n", hc_platform_size(p), hc_platform_cluster_count(p)),
               1;
    for (int i = 0; i < P; i++)
        if (hc_platform_cluster_of(p, (uint32_t)i) != hc_platform_cluster_of(p, (uint32_t)i % 3))
            return printf("rank %d in the wrong site\n", i), 1;
    if (!hc_platform_has_routes(p))
        return printf("a pair without a route\n"), 1;
    int up = 0;
    for (uint32_t l = 0; l < hc_platform_link_count(p); l++) {
        const char *name = hc_platform_link_name(p, l);
        size_t n = strlen(name);
        if (n < 7 || strcmp(name + n - 7, "-uplink") != 0)
            continue;
        double b = hc_platform_link_bandwidth(p, l);
        printf("%s: %.4g B/s, %s\n", name, b, hc_link_sharing_name(hc_platform_link_sharing(p, l)));
        if (!(fabs(b - bw) <= 0.1 * bw) || hc_platform_link_sharing(p, l) != want)
            return printf("uplink %s off\n", name), 1;
        up++;
    }
    return up == 3 ? 0 : (printf("%d uplinks\n", up), 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, P, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    unsetenv("HETCOLL_PLATFORM");
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    hc_comm_t *c = NULL;
    int err = hc_comm_create(MPI_COMM_WORLD, NULL, NULL, &c);
    double t = MPI_Wtime() - t0;
    if (err != MPI_SUCCESS) {
        if (me == 0)
            printf("hc_comm_create: %s\n", hc_error_detail());
        MPI_Finalize();
        return 1;
    }
    if (me == 0) {
        printf("%s\nprobe time %.6f\n", hc_comm_platform_origin(c), t);
        bad = argc < 3 || check(hc_comm_platform(c), P, atof(argv[1]), argv[2]);
    }
    int n = 1 << 18, *buf = malloc((size_t)n * sizeof *buf); /* 1 MiB */
    for (int i = 0; i < n; i++)
        buf[i] = me == 0 ? i * 7 + 1 : -1;
    err = hc_bcast(buf, n, MPI_INT, 0, c);
    for (int i = 0; i < n && !bad; i++)
        bad = buf[i] != i * 7 + 1;
    bad |= err != MPI_SUCCESS;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("broadcast of 1 MiB: %s (%s)\n%s\n", bad ? "wrong" : "right",
               hc_comm_last_algorithm(c), bad ? "FAIL" : "OK");
    free(buf);
    hc_comm_destroy(c);
    MPI_Finalize();
    return bad;
}
