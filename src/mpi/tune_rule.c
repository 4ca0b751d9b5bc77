/* The measured-tuning keep rule (tune_rule.h).
 *
 * The 10 % margin guards against noise on a shared machine, where one candidate's trials can
 * all land in a quiet spell. Where the measurements do not overlap at all (a simulator, whose
 * times repeat exactly, or a quiet machine), a smaller gain is real: SimGrid SMPI, the 3-site
 * grid of 63 ranks, 1 MiB alltoallv, the pieces schedule measured a median of 157 s against
 * native's 165 s, and the margin kept native. When both candidates' k trials after the first
 * come from one distribution, the schedule's all fall below native's with probability
 * 1 / C(2k, k): 1 / 70 for k = 4, 1 / 252 for 5 (a close call's doubled rounds); such a
 * schedule is no slower than native, so keeping it costs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "tune_rule.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double hc__tune_median(const double *t, uint32_t n)
{
    double s[HC__RULE_MAX];
    n = n > HC__RULE_MAX ? HC__RULE_MAX : n;
    if (n == 0)
        return 0.0;
    memcpy(s, t, sizeof s[0] * n);
    qsort(s, n, sizeof s[0], cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

int hc__tune_keeps(const double *x, uint32_t nx, const double *nat, uint32_t nn, double margin)
{
    const uint32_t n = nx < nn ? nx : nn, first = n > 1;
    if (n == 0)
        return 0;
    uint32_t wins = 0;
    double slowest = 0, fastest = 0;
    for (uint32_t i = first; i < n; i++) {
        wins += x[i] < nat[i];
        slowest = i == first || x[i] > slowest ? x[i] : slowest;
        fastest = i == first || nat[i] < fastest ? nat[i] : fastest;
    }
    if (hc__tune_median(x, nx) < margin * hc__tune_median(nat, nn) && 4 * wins >= 3 * (n - first))
        return 1;
    /* Separated samples imply every paired round was won, so no count is needed. */
    return n - first >= HC__RULE_SEPARATE && slowest < fastest;
}
