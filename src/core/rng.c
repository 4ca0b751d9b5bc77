/* xoshiro256** (Blackman & Vigna, 2018) seeded with splitmix64; Box-Muller normals. */
#include <math.h>

#include "internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void hc_rng_seed(hc_rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t hc_rng_u64(hc_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double hc_rng_uniform(hc_rng_t *r)
{
    return (double)(hc_rng_u64(r) >> 11) * 0x1.0p-53;
}

double hc_rng_range(hc_rng_t *r, double lo, double hi)
{
    return lo + (hi - lo) * hc_rng_uniform(r);
}

uint64_t hc_rng_below(hc_rng_t *r, uint64_t n)
{
    /* Lemire's rejection on the top of the range keeps it unbiased. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = hc_rng_u64(r);
    while (x >= limit);
    return x % n;
}

double hc_rng_normal(hc_rng_t *r)
{
    double u1 = 1.0 - hc_rng_uniform(r); /* (0, 1] */
    double u2 = hc_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
