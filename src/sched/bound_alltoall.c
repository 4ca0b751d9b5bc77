/* Lower bound for total exchange (000 §4.1): every node sends its messages one
 * at a time and receives one at a time, so the makespan is at least the largest
 * total send time of a node and the largest total receive time of a node.
 * O(P^2). */
#include "../core/internal.h"

int hc__lower_bound_alltoall(const hc_problem_t *pb, double *out)
{
    const hc_matrix_t *c = pb->costs;
    double best = 0;
    for (uint32_t i = 0; i < pb->P; i++) {
        double send = 0, recv = 0;
        for (uint32_t j = 0; j < pb->P; j++) {
            if (j == i)
                continue;
            send += HC_AT(c, i, j);
            recv += HC_AT(c, j, i);
        }
        if (send > best)
            best = send;
        if (recv > best)
            best = recv;
    }
    *out = best;
    return HC_OK;
}
