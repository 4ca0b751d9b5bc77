/* A documented, portable PRNG: xoshiro256** seeded through splitmix64. The same seed gives the
 * same numbers on every machine; no rand(). Normal deviates use the Box-Muller transform with
 * no caching, so each call consumes exactly two uniforms. */
#ifndef HETCOLL_RNG_H
#define HETCOLL_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hc_rng {
    uint64_t s[4];
} hc_rng_t;

void hc_rng_seed(hc_rng_t *r, uint64_t seed);
uint64_t hc_rng_u64(hc_rng_t *r);
/* Uniform in [0, 1) with 53 random bits. */
double hc_rng_uniform(hc_rng_t *r);
/* Uniform in [lo, hi). */
double hc_rng_range(hc_rng_t *r, double lo, double hi);
/* Uniform integer in [0, n), unbiased (n > 0). */
uint64_t hc_rng_below(hc_rng_t *r, uint64_t n);
/* Standard normal N(0, 1). */
double hc_rng_normal(hc_rng_t *r);

#ifdef __cplusplus
}
#endif
#endif
