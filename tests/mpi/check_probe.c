/* Checker for the MPI probe tests (tests/mpi/test_probe.sh):
 *   check_probe platform FILE P     the probe's output loads as a platform of P nodes with
 *                                   positive finite latencies/bandwidths and finite gap tables
 *   check_probe directory FILE P N  a monitor's directory file: loads (not stale within 600 s),
 *                                   epoch N, P nodes, error estimates present
 * Exit 0 when all checks pass; prints the failed check otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

static int fail(const char *what)
{
    fprintf(stderr, "check_probe: %s (%s)\n", what, hc_error_detail());
    return 1;
}

static int check_platform(const hc_platform_t *p, uint32_t P)
{
    if (hc_platform_size(p) != P)
        return fail("wrong node count");
    if (!hc_platform_has_gaps(p))
        return fail("no gap tables");
    if (hc_platform_cluster_count(p) < 1)
        return fail("no cluster labels");
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            double l = hc_platform_latency(p, i, j), b = hc_platform_bandwidth(p, i, j);
            if (!(l > 0) || !isfinite(l))
                return fail("latency not positive and finite");
            if (!(b > 0) || !isfinite(b))
                return fail("bandwidth not positive and finite");
            for (uint64_t m = 1; m <= (1u << 20); m *= 32) {
                double g = hc_platform_gap(p, i, j, m);
                if (!(g >= 0) || !isfinite(g))
                    return fail("gap not finite and >= 0");
            }
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return fail("usage: check_probe platform|directory FILE P [EPOCH]");
    uint32_t P = (uint32_t)strtoul(argv[3], NULL, 10);
    hc_platform_t *p = NULL;
    int rc;
    if (strcmp(argv[1], "platform") == 0) {
        if (hc_platform_load(argv[2], &p) != HC_OK)
            return fail("platform does not load");
        rc = check_platform(p, P);
    } else {
        hc_directory_info_t info;
        if (argc < 5)
            return fail("directory needs EPOCH");
        if (hc_directory_load(argv[2], 600, &p, &info) != HC_OK)
            return fail("directory does not load");
        rc = check_platform(p, P);
        if (!rc && info.epoch != strtoull(argv[4], NULL, 10))
            rc = fail("wrong epoch");
        if (!rc && (!info.latency_error || !info.bandwidth_error))
            rc = fail("no error estimates");
        if (!rc && strcmp(info.error_metric, "mse") != 0)
            rc = fail("wrong error metric");
        hc_directory_info_clear(&info);
        /* The dir: spec loads it too. */
        char spec[4200];
        hc_platform_t *q = NULL;
        snprintf(spec, sizeof spec, "dir:max-age=600:%s", argv[2]);
        if (!rc && hc_platform_load(spec, &q) != HC_OK)
            rc = fail("dir: spec does not load");
        hc_platform_destroy(q);
    }
    hc_platform_destroy(p);
    if (!rc)
        printf("check_probe: %s %s OK\n", argv[1], argv[2]);
    return rc;
}
