/* Lower bound for total exchange (000 §4.1): every node sends its messages one
 * at a time and receives one at a time, so the makespan is at least the largest
 * total send time of a node and the largest total receive time of a node.
 * O(P^2). The sums are the total-exchange algorithms' own (alltoall_kit.c). */
#include "alltoall_kit.h"
#include "sched_internal.h"

int hc__lower_bound_alltoall(const hc_problem_t *pb, double *out)
{
    *out = hc__a2a_lower_bound(pb->costs);
    return HC_OK;
}
