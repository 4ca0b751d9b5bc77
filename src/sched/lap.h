/* Linear assignment (min-cost perfect matching in a complete bipartite n x n graph with optional
 * forbidden cells): shortest augmenting path with dual potentials (Kuhn-Munkres in the
 * Jonker-Volgenant / Lawler form), O(n^3). Used by the matching series of 000 §4.3.
 * Internal, not installed. */
#ifndef HETCOLL_LAP_H
#define HETCOLL_LAP_H

#include <stddef.h>
#include <stdint.h>

/* Reusable workspace. Its dual potentials survive between solves: after cells are forbidden
 * they stay feasible, so a warm solve of a series of matchings converges much faster. */
typedef struct hc__lap hc__lap_t;

int hc__lap_create(uint32_t n, hc__lap_t **out);
void hc__lap_destroy(hc__lap_t *w);

/* Solve on cost (n x n, row-major, rows = left vertices). forbid: NULL or n*n flags, nonzero =
 * the cell may not be used; non-finite costs are forbidden too. maximize: maximise the total
 * instead (solved on the negated costs). warm: keep the potentials of the previous solve made
 * with the same `maximize` and a superset of allowed cells (else start from zero).
 * row_to_col: n entries out. total: NULL or the assignment's total cost (original sign).
 * HC_ERR_VALUE when no perfect matching avoids the forbidden cells. */
int hc__lap_solve_ws(hc__lap_t *w, const double *cost, const unsigned char *forbid, int maximize,
                     int warm, uint32_t *row_to_col, double *total);

/* One-shot solve (own workspace). */
int hc__lap_solve(uint32_t n, const double *cost, const unsigned char *forbid, int maximize,
                  uint32_t *row_to_col, double *total);

#endif
