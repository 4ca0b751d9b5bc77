/* Cost model: time in seconds to send m bytes from node i to node j.
 *   Hockney: L_ij + m / B_ij                       (000 §3.2)
 *   pLogP:   L_ij + g_ij(m), g from the gap table, m / B_ij without one (004 §3)
 */
#ifndef HETCOLL_COST_H
#define HETCOLL_COST_H

#include <stdint.h>

#include "matrix.h"
#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { HC_MODEL_HOCKNEY = 0, HC_MODEL_PLOGP = 1 } hc_model_t;

/* Parse "hockney" / "plogp". */
int hc_model_parse(const char *name, hc_model_t *out);
const char *hc_model_name(hc_model_t m);

/* Point-to-point time for m bytes i -> j; 0 when i == j or m == 0. */
double hc_cost_p2p(const hc_platform_t *p, hc_model_t model, uint32_t i, uint32_t j, uint64_t m);

/* P x P cost matrix for a uniform message of m bytes (diagonal 0). Caller frees *out. */
int hc_cost_uniform(const hc_platform_t *p, hc_model_t model, uint64_t m, hc_matrix_t **out);

/* P x P cost matrix for a per-pair size matrix (bytes; must be P x P). A zero size gives a
 * zero cost (the message is not sent). Caller frees *out. */
int hc_cost_sizes(const hc_platform_t *p, hc_model_t model, const hc_matrix_t *sizes,
                  hc_matrix_t **out);

#ifdef __cplusplus
}
#endif
#endif
