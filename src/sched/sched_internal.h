/* Internal helpers shared by the schedule validator and the simulator. Not installed. */
#ifndef HETCOLL_SCHED_INTERNAL_H
#define HETCOLL_SCHED_INTERNAL_H

#include <stddef.h>

#include "../core/internal.h"

/* Event indices 0..n-1 sorted by planned start, ties by index (a stable merge sort, so it is
 * reentrant and O(n log n)). *out is malloc'd; the caller frees it. */
int hc__event_order(const hc_event_t *ev, size_t n, size_t **out);

/* |a - b| <= 1e-9 * max(|a|, |b|) + 1e-12: the tolerance of the validator and the tests. */
int hc__close(double a, double b);

#endif
