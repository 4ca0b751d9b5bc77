/* A quick probe for hc_comm_create when no platform is given: per pair, the median of a few
 * 1-byte round trips (latency = half of it) and one 1 MiB transfer (bandwidth). Pairs are
 * measured in rounds of a round-robin tournament, so each rank is in one measurement at a
 * time. The full probe with pLogP gaps is `hetcoll-mpi probe`. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

#define QP_REPS 5
#define QP_BIG (1 << 20)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Measure against `peer`; the lower rank leads. */
static void measure(MPI_Comm comm, int me, int peer, char *buf, double *lat, double *bw)
{
    double rtt[QP_REPS];
    int lead = me < peer;
    for (int r = 0; r < QP_REPS; r++) {
        double t0 = MPI_Wtime();
        if (lead) {
            MPI_Send(buf, 1, MPI_BYTE, peer, 7, comm);
            MPI_Recv(buf, 1, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 1, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, 1, MPI_BYTE, peer, 7, comm);
        }
        rtt[r] = MPI_Wtime() - t0;
    }
    qsort(rtt, QP_REPS, sizeof rtt[0], cmp_double);
    double L = rtt[QP_REPS / 2] / 2;
    double t0 = MPI_Wtime();
    if (lead) {
        MPI_Send(buf, QP_BIG, MPI_BYTE, peer, 8, comm);
        MPI_Recv(buf, 1, MPI_BYTE, peer, 8, comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, QP_BIG, MPI_BYTE, peer, 8, comm, MPI_STATUS_IGNORE);
        MPI_Send(buf, 1, MPI_BYTE, peer, 8, comm);
    }
    double t = MPI_Wtime() - t0 - 2 * L;
    *lat = L > 1e-9 ? L : 1e-9;
    *bw = QP_BIG / (t > 1e-9 ? t : 1e-9);
}

int hc__mpi_quick_probe(MPI_Comm comm, hc_platform_t **out)
{
    int me, P;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &P);
    size_t PP = (size_t)P * P;
    double *v = calloc(2 * PP, sizeof *v), *all = calloc(2 * PP, sizeof *all);
    char *buf = calloc(QP_BIG, 1);
    int ok = v && all && buf, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        free(v);
        free(all);
        free(buf);
        return HC_ERR_NOMEM;
    }
    /* Circle method: with an odd P a dummy node P sits out one rank per round. */
    int n = P + (P & 1);
    for (int round = 0; round < n - 1; round++) {
        for (int i = 0; i < n / 2; i++) {
            /* Pair 0 is (n-1, round); pair i is (round+i, round-i) mod n-1. */
            int a = i == 0 ? n - 1 : (round + i) % (n - 1);
            int b = i == 0 ? round : (round - i + n - 1) % (n - 1);
            if (a >= P || b >= P || (a != me && b != me))
                continue;
            int peer = a == me ? b : a;
            double L, B;
            measure(comm, me, peer, buf, &L, &B);
            if (me < peer) {
                v[(size_t)me * P + peer] = v[(size_t)peer * P + me] = L;
                v[PP + (size_t)me * P + peer] = v[PP + (size_t)peer * P + me] = B;
            }
        }
    }
    MPI_Allreduce(v, all, (int)(2 * PP), MPI_DOUBLE, MPI_MAX, comm);
    hc_platform_t *p = NULL;
    int rc = hc_platform_create((uint32_t)P, 1e-6, 1e9, &p);
    for (int i = 0; rc == HC_OK && i < P; i++)
        for (int j = 0; rc == HC_OK && j < P; j++)
            if (i != j)
                rc = hc_platform_set_link(p, (uint32_t)i, (uint32_t)j, all[(size_t)i * P + j],
                                          all[PP + (size_t)i * P + j]);
    free(v);
    free(all);
    free(buf);
    if (rc != HC_OK) {
        hc_platform_destroy(p);
        return rc;
    }
    *out = p;
    return HC_OK;
}
