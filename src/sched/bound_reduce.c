/* Lower bound for reduction (003's model: every non-root node sends its partial
 * result exactly once, after all its receives; a node takes part in one
 * communication at a time; C[i][j] is the time of i's send to j, in 003 a
 * constant row t(i)). The bound is max(B1, B2):
 *
 * B1 = max over non-root v of min over u != v of C[v][u]. Node v sends once, so
 * some event lasts at least that long and the makespan (the largest event end)
 * is at least it.
 *
 * B2 = ceil(log2 n) * tau, with n = P and tau = min over non-root v, u != v of
 * C[v][u]. Proof. Let R(t) be the root plus the nodes whose send has not ended
 * by time t (end > t); R(t) = all n nodes for t < tau since every send lasts >=
 * tau. Take the nodes leaving between t - tau and t (send end in (t - tau, t]).
 * Each such send started at
 *      <= end - tau <= t - tau < end, so all of them are in progress at the
 * instant t - tau; as a node is in one communication at a time, their receivers
 * are pairwise distinct. Each receiver's own send starts after this receive
 * ends (> t - tau) and lasts >= tau, so it ends after t: the receiver is in
 * R(t) (or is the root). Hence |R(t - tau)| - |R(t)| <= |R(t)|, i.e. |R(t -
 * tau)| <= 2 |R(t)|. At the makespan T, |R(T)| = 1; if T < m tau then T - (m-1)
 * tau < tau so n = |R(T - (m-1) tau)| <= 2^(m-1). With m = ceil(log2 n), n >
 * 2^(m-1), so T >= m tau. O(P^2). The reduction engineer may strengthen it
 * (e.g. with 003's search bounds).
 *
 * B3 (003's EP relaxation, reduction engineer; proof in docs/design.md "Reduction"): with
 * t'(v) = min over u != v of C[v][u] (t(v) on constant rows), m = P - 1 senders, tau = min t',
 * sig_1 <= ... <= sig_m the starts of 003's EP schedule of m jobs all lasting tau, and
 * T_1 >= ... >= T_{m-1} the t' sorted decreasing without one smallest:
 *   B3 = max(sig_m + tau, max_i (sig_i + T_i) + tau).
 * Every valid schedule meets 2A + C <= P, so the EP schedule of its start order with the
 * durations t' is no later (EP is earliest and monotone in the durations); there position i
 * starts at >= sig_i, the job at position i ends at >= sig_i + its t', the last job starts
 * after all others end and lasts >= tau; pairing the largest t' with the earliest positions
 * minimises the max. O(P^2 + P log P). */
#include <math.h>
#include <stdlib.h>

#include "reduce_kit.h"
#include "sched_internal.h"

static int by_decreasing(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a > b ? -1 : (a < b);
}

/* B3; 0 when memory is short (the bound stays valid, only weaker). */
static double ep_relaxation(const hc_problem_t *pb)
{
    uint32_t P = pb->P, m = 0;
    if (P < 3)
        return 0;
    double *t = malloc(P * sizeof *t), *d = malloc(P * sizeof *d);
    double *sig = malloc(P * sizeof *sig), *work = malloc(P * sizeof *work);
    double lb = 0;
    if (t && d && sig && work) {
        for (uint32_t v = 0; v < P; v++) {
            if (v == pb->root)
                continue;
            double mn = INFINITY;
            for (uint32_t u = 0; u < P; u++)
                if (u != v && HC_AT(pb->costs, v, u) < mn)
                    mn = HC_AT(pb->costs, v, u);
            t[m++] = mn;
        }
        qsort(t, m, sizeof *t, by_decreasing);
        double tau = t[m - 1];
        for (uint32_t i = 0; i < m; i++)
            d[i] = tau;
        hc__reduce_ep_times(P, d, m, sig, work);
        lb = sig[m - 1] + tau;
        for (uint32_t i = 0; i + 1 < m; i++)
            if (sig[i] + t[i] + tau > lb)
                lb = sig[i] + t[i] + tau;
    }
    free(t);
    free(d);
    free(sig);
    free(work);
    return lb;
}

int hc__lower_bound_reduce(const hc_problem_t *pb, double *out)
{
    uint32_t P = pb->P;
    double b1 = 0, tau = -1;
    for (uint32_t v = 0; v < P; v++) {
        if (v == pb->root)
            continue;
        double mn = -1;
        for (uint32_t u = 0; u < P; u++) {
            if (u == v)
                continue;
            double c = HC_AT(pb->costs, v, u);
            if (mn < 0 || c < mn)
                mn = c;
        }
        if (mn > b1)
            b1 = mn;
        if (tau < 0 || mn < tau)
            tau = mn;
    }
    if (tau < 0)
        tau = 0;
    uint32_t rounds = 0;
    while (rounds < 32 && ((uint64_t)1 << rounds) < P)
        rounds++;
    double b2 = rounds * tau;
    *out = b1 > b2 ? b1 : b2;
    double b3 = ep_relaxation(pb);
    if (b3 > *out)
        *out = b3;
    return HC_OK;
}
