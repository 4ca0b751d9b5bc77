/* Checker of the link-probe tests (tests/smpi/test_probe_links.sh): the platform the probe
 * wrote, against the simulated grid (tests/smpi/grid3.sh):
 *   check_links FILE P C BW SHARING
 * P nodes in C sites, interleaved (node i in the site of node i mod C); C uplinks, each of
 * capacity BW within 10 % and sharing SHARING (shared, splitduplex); every pair routed, the
 * pairs of two sites across both sites' uplinks; the gap tables at 256 KiB across sites (BW)
 * and inside a site (1.25 GB/s) within 10 %. Prints what it checks; exit 0 when all hold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"
#include "hetcoll/links.h"

static int fail(const char *what, long a, long b)
{
    fprintf(stderr, "check_links: %s (%ld, %ld)\n", what, a, b);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 6)
        return fail("usage: check_links FILE P C BW SHARING", argc, 6);
    uint32_t P = (uint32_t)strtoul(argv[2], NULL, 10), C = (uint32_t)strtoul(argv[3], NULL, 10);
    double bw = strtod(argv[4], NULL);
    hc_link_sharing_t want;
    if (hc_link_sharing_parse(argv[5], &want) != HC_OK)
        return fail("bad SHARING", 0, 0);
    hc_platform_t *p = NULL;
    if (hc_platform_load(argv[1], &p) != HC_OK) {
        fprintf(stderr, "check_links: %s\n", hc_error_detail());
        return 1;
    }
    int rc = 0;
    if (hc_platform_size(p) != P)
        rc = fail("node count", hc_platform_size(p), P);
    if (!rc && hc_platform_cluster_count(p) != C)
        rc = fail("site count", hc_platform_cluster_count(p), C);
    for (uint32_t i = 0; i < P && !rc; i++)
        if (hc_platform_cluster_of(p, i) != hc_platform_cluster_of(p, i % C))
            rc = fail("node in the wrong site", i, hc_platform_cluster_of(p, i));
    if (!rc && !hc_platform_has_routes(p))
        rc = fail("a pair without a route", 0, 0);
    uint32_t up = 0;
    for (uint32_t l = 0; l < hc_platform_link_count(p) && !rc; l++) {
        const char *name = hc_platform_link_name(p, l);
        size_t n = strlen(name);
        if (n < 7 || strcmp(name + n - 7, "-uplink") != 0)
            continue;
        double b = hc_platform_link_bandwidth(p, l);
        hc_link_sharing_t s = hc_platform_link_sharing(p, l);
        printf("%s: %.4g B/s (%.2f %% off), %.4g s, %s\n", name, b, 100 * (b - bw) / bw,
               hc_platform_link_latency(p, l), hc_link_sharing_name(s));
        if (!(fabs(b - bw) <= 0.1 * bw))
            rc = fail("uplink capacity more than 10 % off", (long)b, (long)bw);
        if (s != want)
            rc = fail("uplink sharing", s, want);
        up++;
    }
    if (!rc && up != C)
        rc = fail("uplink count", up, C);
    /* Nodes 0 and 1 are in two sites: their route crosses two uplinks. */
    hc_hop_t hops[8];
    size_t nh = P > 1 ? hc_platform_route(p, 0, 1, hops, 8) : 0;
    uint32_t crossed = 0;
    for (size_t h = 0; h < nh && h < 8; h++) {
        const char *name = hc_platform_link_name(p, hops[h].link);
        size_t n = strlen(name);
        crossed += n >= 7 && strcmp(name + n - 7, "-uplink") == 0;
    }
    if (!rc && C > 1 && crossed != 2)
        rc = fail("uplinks on the route 0 -> 1", crossed, 2);
    /* Gap tables: 256 KiB takes its size over the bottleneck beyond the latency, across sites
     * (the uplink) and inside one (the 1.25 GB/s NIC of grid3.sh), within 10 %. */
    double g01 = hc_platform_gap(p, 0, 1, 262144), want01 = 262144 / bw;
    double g0c = P > C ? hc_platform_gap(p, 0, C, 262144) : 0, want0c = 262144 / 1.25e9;
    printf("gap(256 KiB): across sites %.4g s (want %.4g), inside a site %.4g s (want %.4g)\n", g01,
           want01, g0c, want0c);
    if (!rc && C > 1 && !(fabs(g01 - want01) <= 0.1 * want01))
        rc = fail("gap across sites more than 10 % off (us)", (long)(g01 * 1e6),
                  (long)(want01 * 1e6));
    if (!rc && P > C && !(fabs(g0c - want0c) <= 0.1 * want0c))
        rc = fail("gap inside a site more than 10 % off (us)", (long)(g0c * 1e6),
                  (long)(want0c * 1e6));
    hc_platform_destroy(p);
    return rc;
}
