/* Companion of tests/smpi/pingpong.c (label smpi). Two modes:
 *   check_pingpong pairs SPEC          print the pairs to measure: one pair per ordered cluster
 *                                      pair (inside a cluster too), or every ordered pair of the
 *                                      first 12 nodes when the platform has no clusters
 *   check_pingpong check SPEC FILE REL EXTRA
 *                                      compare the measured one-way and round-trip times with
 *                                      the platform: t = L_ij + m / B_ij; fail when
 *                                      |measured - t| > REL * t + EXTRA / B_ij (EXTRA bytes:
 *                                      SMPI's per-message envelope) for any line, or when no
 *                                      line was read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

static double t_of(const hc_platform_t *p, int i, int j, double m)
{
    return hc_platform_latency(p, (uint32_t)i, (uint32_t)j) +
           m / hc_platform_bandwidth(p, (uint32_t)i, (uint32_t)j);
}

static int pairs(const hc_platform_t *p)
{
    uint32_t P = hc_platform_size(p), C = hc_platform_cluster_count(p);
    if (C == 0) {
        uint32_t n = P < 12 ? P : 12;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                if (i != j)
                    printf("%u %u\n", i, j);
        return 0;
    }
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = 0; b < C; b++) {
            int first = -1, last = -1;
            for (uint32_t i = 0; i < P && first < 0; i++)
                if (hc_platform_cluster_of(p, i) == (int32_t)a)
                    first = (int)i;
            for (uint32_t j = P; j-- > 0 && last < 0;)
                if (hc_platform_cluster_of(p, j) == (int32_t)b && (int)j != first)
                    last = (int)j;
            if (first >= 0 && last >= 0)
                printf("%d %d\n", first, last);
        }
    return 0;
}

static int check(const hc_platform_t *p, const char *file, double rel, double extra)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "check_pingpong: cannot open %s\n", file);
        return 1;
    }
    int i, j, bad = 0, n = 0;
    double m, ow, rtt, worst = 0;
    printf("%4s %4s %9s %13s %13s %9s %13s %13s\n", "src", "dst", "bytes", "one-way", "expected",
           "rel.err", "round-trip", "expected");
    while (fscanf(f, "%d %d %lf %lf %lf", &i, &j, &m, &ow, &rtt) == 5) {
        uint32_t P = hc_platform_size(p);
        if (i < 0 || j < 0 || (uint32_t)i >= P || (uint32_t)j >= P || i == j) {
            fprintf(stderr, "check_pingpong: bad pair %d %d\n", i, j);
            bad++;
            continue;
        }
        double e = t_of(p, i, j, m), er = e + t_of(p, j, i, m);
        double err = fabs(ow - e) / e;
        if (err > worst)
            worst = err;
        double xi = extra / hc_platform_bandwidth(p, (uint32_t)i, (uint32_t)j);
        double xj = extra / hc_platform_bandwidth(p, (uint32_t)j, (uint32_t)i);
        int ok = fabs(ow - e) <= rel * e + xi && fabs(rtt - er) <= rel * er + xi + xj;
        printf("%4d %4d %9.0f %13.6e %13.6e %9.2e %13.6e %13.6e%s\n", i, j, m, ow, e, err, rtt, er,
               ok ? "" : "  <-- MISMATCH");
        bad += !ok;
        n++;
    }
    fclose(f);
    printf("%d measurements, worst relative error %.3g, %d mismatches\n", n, worst, bad);
    return bad || n == 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: check_pingpong pairs SPEC | check SPEC FILE REL EXTRA\n");
        return 2;
    }
    hc_platform_t *p;
    if (hc_platform_load(argv[2], &p) != HC_OK) {
        fprintf(stderr, "check_pingpong: %s\n", hc_error_detail());
        return 1;
    }
    int rc = 2;
    if (strcmp(argv[1], "pairs") == 0)
        rc = pairs(p);
    else if (strcmp(argv[1], "check") == 0 && argc == 6)
        rc = check(p, argv[3], atof(argv[4]), atof(argv[5]));
    else
        fprintf(stderr, "usage: check_pingpong pairs SPEC | check SPEC FILE REL EXTRA\n");
    hc_platform_destroy(p);
    return rc;
}
