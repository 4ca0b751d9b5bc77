/* Redistribution (001) benchmark: time of each KPBS algorithm on dense n x n traffic
 * (default 100 x 100, every pair sends), beta = 1, small (1..20) and large (1..100000)
 * weights, a few k. Prints a table (never asserted) with wall and CPU seconds (the machine may
 * be shared). Target: oggp <= 2 s on 100 x 100.
 *
 *   bench_redist [n] [seed] [algos,comma,separated] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetcoll/hetcoll.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    const char *list = argc > 3 ? argv[3] : "ggp,oggp,oggp+,hweight,hdegree";
    static const uint32_t ks[] = {5, 10, 50};
    static const double wmax[] = {20, 100000};
    if (n < 1)
        n = 1;
    printf("# dense %u x %u redistribution, beta = 1, seed %llu\n", n, n, (unsigned long long)seed);
    printf("%-8s %-6s %4s %8s %10s %8s %9s %9s\n", "algo", "wts", "k", "steps", "eta", "cost/eta",
           "wall_s", "cpu_s");
    for (size_t wi = 0; wi < 2; wi++) {
        hc_matrix_t *m = NULL;
        if (hc_matrix_create(n, n, 0, &m) != HC_OK)
            return 1;
        hc_rng_t r;
        hc_rng_seed(&r, seed);
        for (size_t e = 0; e < (size_t)n * n; e++)
            m->v[e] = (double)(1 + hc_rng_below(&r, (uint64_t)wmax[wi]));
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            hc_problem_t pb;
            hc_problem_init(&pb, HC_COLL_REDISTRIBUTE);
            pb.P = 2 * n;
            pb.n1 = pb.n2 = n;
            pb.costs = m;
            pb.k = ks[ki] < n ? ks[ki] : n;
            pb.beta = 1;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", list);
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                hc_schedule_t *s = NULL;
                double t0 = now();
                clock_t c0 = clock();
                int rc = hc_schedule_compute(&pb, tok, NULL, &s);
                double dt = now() - t0, dc = (double)(clock() - c0) / CLOCKS_PER_SEC;
                if (rc != HC_OK) {
                    fprintf(stderr, "bench_redist: %s: %s\n", tok, hc_error_detail());
                    continue;
                }
                printf("%-8s %-6s %4u %8zu %10.0f %8.4f %9.3f %9.3f\n", tok, wi ? "large" : "small",
                       pb.k, s->n_steps, s->lower_bound, s->makespan / s->lower_bound, dt, dc);
                fflush(stdout);
                hc_schedule_destroy(s);
            }
        }
        hc_matrix_destroy(m);
    }
    return 0;
}
