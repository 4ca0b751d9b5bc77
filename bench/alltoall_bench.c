/* Total exchange (000) benchmark: scheduling time of every alltoall algorithm for
 * P = 64 .. 2048 on random GUSTO-guided networks (random:gusto, 1 MB messages), with the
 * makespan / lower bound reached. A cell is skipped when the algorithm's time at the previous P,
 * extrapolated with its complexity (x16 per doubling for the O(P^4) matching series, x8
 * otherwise), would exceed the per-cell limit. Fast cells are repeated and the best time kept.
 * Times are CPU time of the process (CLOCK_PROCESS_CPUTIME_ID), which is less disturbed than
 * wall time on a shared machine; each includes hc_schedule_compute's checks and the building
 * of the schedule (P(P-1) events).
 *
 *   bench_alltoall [max_P] [limit_s] [seed] [algos]   (defaults 2048, 10, 1, every alltoall
 *                                                       algorithm; algos comma-separated) */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetcoll/hetcoll.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MAX_ALGOS 32

/* 1 when `name` is an item of the comma-separated `list`. */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t max_p = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 2048;
    double limit = argc > 2 ? strtod(argv[2], NULL) : 10;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    const char *names[MAX_ALGOS];
    double last[MAX_ALGOS];
    size_t na = 0;
    for (size_t i = 0; i < hc_algo_count() && na < MAX_ALGOS; i++) {
        const hc_algo_info_t *a = hc_algo_get(i);
        if (a->coll == HC_COLL_ALLTOALL && (argc <= 4 || in_list(argv[4], a->name))) {
            last[na] = 0;
            names[na++] = a->name;
        }
    }
    printf("alltoall scheduling CPU time (s) [makespan/LB], random:gusto, 1 MB, seed %llu, "
           "limit %.0f s per cell\n",
           (unsigned long long)seed, limit);
    printf("%6s", "P");
    for (size_t a = 0; a < na; a++)
        printf(" %22s", names[a]);
    printf("\n");
    for (uint32_t P = 64; P <= max_p; P *= 2) {
        char spec[96];
        snprintf(spec, sizeof spec, "random:gusto:P=%u:seed=%llu", P, (unsigned long long)seed);
        hc_platform_t *plat = NULL;
        hc_matrix_t *costs = NULL;
        if (hc_platform_load(spec, &plat) != HC_OK ||
            hc_cost_uniform(plat, HC_MODEL_HOCKNEY, 1000000, &costs) != HC_OK) {
            fprintf(stderr, "bench_alltoall: %s\n", hc_error_detail());
            return 1;
        }
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_ALLTOALL);
        pb.P = P;
        pb.costs = costs;
        pb.msg_bytes = 1000000;
        printf("%6u", P);
        fflush(stdout);
        for (size_t a = 0; a < na; a++) {
            int quartic = strstr(names[a], "match") != NULL;
            double predicted = last[a] * (quartic ? 16 : 8);
            if (last[a] < 0 || predicted > limit) {
                last[a] = -1;
                printf(" %22s", "skipped");
                fflush(stdout);
                continue;
            }
            double best = INFINITY, ratio = NAN, spent = 0;
            for (int rep = 0; rep < 5 && (rep == 0 || spent < 0.5); rep++) {
                hc_schedule_t *s = NULL;
                double t0 = now_s();
                int rc = hc_schedule_compute(&pb, names[a], NULL, &s);
                double dt = now_s() - t0;
                spent += dt;
                if (rc != HC_OK) {
                    fprintf(stderr, "bench_alltoall: %s: %s\n", names[a], hc_error_detail());
                    return 1;
                }
                ratio = s->makespan / s->lower_bound;
                hc_schedule_destroy(s);
                if (dt < best)
                    best = dt;
            }
            last[a] = best;
            char cell[64];
            snprintf(cell, sizeof cell, "%.4f [%.4f]", best, ratio);
            printf(" %22s", cell);
            fflush(stdout);
        }
        printf("\n");
        hc_matrix_destroy(costs);
        hc_platform_destroy(plat);
    }
    return 0;
}
