/* The link level: links and routes (pair latency/bandwidth derived from them, kept by clone and
 * subset), the flow model's max-min sharing against hand calculations, and the link bound of a
 * skewed all-to-all on a 3-site grid against a hand calculation. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hetcoll/hetcoll.h"

#define NIC_BW 1.25e8
#define NIC_LAT 5e-5
#define UP_BW 1.25e7 /* 100 Mb/s */
#define UP_LAT 0.005

static int close_rel(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-15;
}

/* 3 sites of `per` nodes; node i is in site i / per; NICs split duplex, one SHARED uplink per
 * site, a FATPIPE backbone. */
static hc_platform_t *three_sites(uint32_t per)
{
    uint32_t P = 3 * per;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(P, 1, 1, &p), HC_OK);
    char name[32];
    for (uint32_t i = 0; i < P; i++) {
        snprintf(name, sizeof name, "site%u", i / per);
        assert_int_equal(hc_platform_set_cluster(p, i, name), HC_OK);
        snprintf(name, sizeof name, "nic%u", i);
        assert_int_equal(hc_platform_add_link(p, name, NIC_BW, NIC_LAT, HC_LINK_SPLITDUPLEX, NULL),
                         HC_OK);
    }
    for (uint32_t s = 0; s < 3; s++) {
        snprintf(name, sizeof name, "up%u", s);
        assert_int_equal(hc_platform_add_link(p, name, UP_BW, UP_LAT, HC_LINK_SHARED, NULL), HC_OK);
    }
    assert_int_equal(hc_platform_add_link(p, "backbone", 1e10, 0, HC_LINK_FATPIPE, NULL), HC_OK);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            uint32_t si = i / per, sj = j / per;
            hc_hop_t r[5];
            size_t n = 0;
            r[n++] = (hc_hop_t){i, 0};
            if (si != sj) {
                r[n++] = (hc_hop_t){P + si, 0};
                r[n++] = (hc_hop_t){P + 3, 0};
                r[n++] = (hc_hop_t){P + sj, 1};
            }
            r[n++] = (hc_hop_t){j, 1};
            assert_int_equal(hc_platform_set_route(p, i, j, n, r), HC_OK);
        }
    assert_true(hc_platform_has_routes(p));
    return p;
}

static void test_routes_set_pairs(void **state)
{
    (void)state;
    hc_platform_t *p = three_sites(2);
    /* inside a site: two NICs; across: NIC, uplink, backbone, uplink, NIC */
    assert_true(close_rel(hc_platform_latency(p, 0, 1), 2 * NIC_LAT));
    assert_true(close_rel(hc_platform_bandwidth(p, 0, 1), NIC_BW));
    assert_true(close_rel(hc_platform_latency(p, 0, 2), 2 * NIC_LAT + 2 * UP_LAT));
    assert_true(close_rel(hc_platform_bandwidth(p, 0, 2), UP_BW));
    hc_hop_t h[8];
    assert_int_equal(hc_platform_route(p, 0, 5, h, 8), 5);
    assert_string_equal(hc_platform_link_name(p, h[1].link), "up0");
    assert_string_equal(hc_platform_link_name(p, h[3].link), "up2");
    assert_int_equal(h[3].down, 1);
    /* clone and subset keep links and routes */
    hc_platform_t *c = NULL, *s = NULL;
    assert_int_equal(hc_platform_clone(p, &c), HC_OK);
    assert_int_equal(hc_platform_link_count(c), hc_platform_link_count(p));
    assert_int_equal(hc_platform_route(c, 0, 5, NULL, 0), 5);
    uint32_t members[2] = {5, 0};
    assert_int_equal(hc_platform_subset(p, members, 2, &s), HC_OK);
    assert_int_equal(hc_platform_route(s, 0, 1, h, 8), 5); /* node 5 -> node 0 */
    assert_string_equal(hc_platform_link_name(s, h[1].link), "up2");
    assert_true(close_rel(hc_platform_latency(s, 0, 1), hc_platform_latency(p, 5, 0)));
    /* errors name the problem */
    assert_int_equal(hc_platform_add_link(p, "up0", 1, 1, HC_LINK_SHARED, NULL), HC_ERR_VALUE);
    hc_hop_t bad = {999, 0};
    assert_int_equal(hc_platform_set_route(p, 0, 1, 1, &bad), HC_ERR_VALUE);
    hc_platform_destroy(c);
    hc_platform_destroy(s);
    hc_platform_destroy(p);
}

static void test_flow_sharing(void **state)
{
    (void)state;
    hc_platform_t *p = three_sites(2);
    double lat = 2 * NIC_LAT + 2 * UP_LAT, B = 1.25e6, end[3];
    hc_flow_opts_t o;
    /* alone: latency + bytes / uplink */
    hc_flow_t one[1] = {{0, 2, B, 0}};
    assert_int_equal(hc_flows_run(p, NULL, one, 1, end), HC_OK);
    assert_true(close_rel(end[0], lat + B / UP_BW));
    /* opposite directions through the same SHARED uplinks: half each */
    hc_flow_t two[2] = {{0, 2, B, 0}, {2, 0, B, 0}};
    assert_int_equal(hc_flows_run(p, NULL, two, 2, end), HC_OK);
    assert_true(close_rel(end[0], lat + B / (UP_BW / 2)));
    assert_true(close_rel(end[1], end[0]));
    /* both directions of a split-duplex NIC: full speed each */
    hc_flow_t nic[2] = {{0, 1, B, 0}, {1, 0, B, 0}};
    assert_int_equal(hc_flows_run(p, NULL, nic, 2, end), HC_OK);
    assert_true(close_rel(end[0], 2 * NIC_LAT + B / NIC_BW));
    /* a short flow leaves, the long one speeds up: A->B 1 MB and A->C 3 MB share up0 (half each
     * until the first ends at lat + 2 MB / UP_BW, then the second alone) */
    hc_flow_t three[2] = {{0, 2, 1e6, 0}, {1, 4, 3e6, 0}};
    assert_int_equal(hc_flows_run(p, NULL, three, 2, end), HC_OK);
    assert_true(close_rel(end[0], lat + 2e6 / UP_BW));
    assert_true(close_rel(end[1], lat + 4e6 / UP_BW));
    /* SMPI's defaults: 1.25 MB > 65472 B: latency x 11.6436, 0.940694 bytes per unit of link
     * capacity used; the way back loads the SHARED uplinks at 0.05 too (cross traffic) */
    hc_flow_opts_init(&o);
    o.smpi_factors = 1;
    assert_int_equal(hc_flows_run(p, &o, one, 1, end), HC_OK);
    assert_true(close_rel(end[0], lat * 11.6436 + B / (UP_BW / 1.05 * 0.940694)));
    /* a late start waits for its own start */
    hc_flow_t late[1] = {{0, 1, 0, 0.5}};
    assert_int_equal(hc_flows_run(p, NULL, late, 1, end), HC_OK);
    assert_true(close_rel(end[0], 0.5 + 2 * NIC_LAT));
    /* factors */
    hc_flow_opts_init(&o);
    o.bandwidth_factor = 0.5;
    assert_int_equal(hc_flows_run(p, &o, one, 1, end), HC_OK);
    assert_true(close_rel(end[0], lat + B / (UP_BW / 2)));
    hc_platform_destroy(p);
}

/* Many transfers arriving while others run, some ending together (the engine keeps only the
 * waiting and transferring ones in its steps, and reports the done ones from a heap): every
 * flow from node 0 to node 2 shares the uplinks equally, a processor-sharing queue that a
 * few lines replay here independently. */
static void test_flow_many(void **state)
{
    (void)state;
    enum { N = 400 };
    hc_platform_t *p = three_sites(2);
    const double lat = 2 * NIC_LAT + 2 * UP_LAT;
    hc_flow_t f[N];
    double end[N], left[N], ref[N];
    uint32_t x = 12345;
    for (int k = 0; k < N; k++) {
        x = x * 1103515245u + 12345u;
        /* groups of 4 identical flows posted together: they end together */
        double start = k % 4 ? f[k - 1].start : (double)(x >> 16) / 65536.0 * 20.0;
        double bytes = k % 4 ? f[k - 1].bytes : 1e3 + (double)((x >> 8) % 1000) * 1e3;
        f[k] = (hc_flow_t){0, 2, bytes, start};
        left[k] = bytes;
        ref[k] = -1;
    }
    assert_int_equal(hc_flows_run(p, NULL, f, N, end), HC_OK);
    /* the reference: from start + lat on, the active flows split UP_BW equally */
    double t = 0;
    for (int done = 0; done < N;) {
        int n = 0;
        double next = INFINITY;
        for (int k = 0; k < N; k++) {
            if (ref[k] >= 0)
                continue;
            if (f[k].start + lat <= t)
                n++;
            else if (f[k].start + lat < next)
                next = f[k].start + lat;
        }
        for (int k = 0; n && k < N; k++)
            if (ref[k] < 0 && f[k].start + lat <= t && t + left[k] * n / UP_BW < next)
                next = t + left[k] * n / UP_BW;
        for (int k = 0; k < N; k++) {
            if (ref[k] >= 0 || f[k].start + lat > t)
                continue;
            left[k] -= (next - t) * UP_BW / n;
            if (left[k] <= 1e-9 * f[k].bytes) {
                ref[k] = next;
                done++;
            }
        }
        t = next;
    }
    for (int k = 0; k < N; k++)
        assert_true(close_rel(end[k], ref[k]));
    hc_platform_destroy(p);
}

/* Flows capped at different levels (a fat pipe caps each flow that crosses it) and one capped
 * only by the NIC they share: the filling fixes the lowest caps, then the next ones, then gives
 * the uncapped flow what is left; it must move on to the next cap only once every flow at the
 * lowest one is fixed (the engine counts them). */
static void test_flow_caps(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(4, 1, 1, &p), HC_OK);
    char name[16];
    for (uint32_t i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "nic%u", i);
        assert_int_equal(hc_platform_add_link(p, name, i ? 1e9 : 1e8, 0, HC_LINK_SPLITDUPLEX, NULL),
                         HC_OK);
    }
    assert_int_equal(hc_platform_add_link(p, "capA", 1e7, 0, HC_LINK_FATPIPE, NULL), HC_OK);
    assert_int_equal(hc_platform_add_link(p, "capB", 2e7, 0, HC_LINK_FATPIPE, NULL), HC_OK);
    const hc_hop_t r1[] = {{0, 0}, {4, 0}, {1, 1}}, r2[] = {{0, 0}, {5, 0}, {2, 1}},
                   r3[] = {{0, 0}, {3, 1}};
    assert_int_equal(hc_platform_set_route(p, 0, 1, 3, r1), HC_OK);
    assert_int_equal(hc_platform_set_route(p, 0, 2, 3, r2), HC_OK);
    assert_int_equal(hc_platform_set_route(p, 0, 3, 2, r3), HC_OK);
    /* until 0.1 s: 1e7 each through capA, 2e7 each through capB, the rest of nic0 (4e7) to
     * node 3; then the capB flows keep 2e7 each and node 3's gets 6e7 until they end at
     * 0.15 s; then node 3's alone at 1e8 */
    hc_flow_t f[5] = {
        {0, 1, 1e6, 0}, {0, 2, 3e6, 0}, {0, 3, 8e6, 0}, {0, 1, 1e6, 0}, {0, 2, 3e6, 0}};
    double end[5];
    assert_int_equal(hc_flows_run(p, NULL, f, 5, end), HC_OK);
    assert_true(close_rel(end[0], 0.1));
    assert_true(close_rel(end[3], 0.1));
    assert_true(close_rel(end[1], 0.15));
    assert_true(close_rel(end[4], 0.15));
    assert_true(close_rel(end[2], 0.16));
    hc_platform_destroy(p);
}

/* SimGrid SMPI's sharing (network_cm02.cpp): a flow's weight is 1 / (its route's latency +
 * weight-S (8775) x the sum of 1 / bandwidth over its links), so node 0's NIC favours its LAN
 * flow over its WAN flow; the solver's consumption x the bandwidth factor is the data rate. */
static void test_flow_smpi_sharing(void **state)
{
    (void)state;
    hc_platform_t *p = three_sites(2);
    const double S = 8775, lf = 11.6436, bf = 0.940694;
    const double lan = 2 * NIC_LAT, wan = 2 * NIC_LAT + 2 * UP_LAT;
    const double w1 = 1 / (lan + S * 2 / NIC_BW);
    const double w2 = 1 / (wan + S * (2 / NIC_BW + 2 / UP_BW + 1 / 1e10));
    /* both start moving bytes at T0 = wan x lf: the LAN flow starts later by the difference */
    const double T0 = wan * lf, B1 = 4e6, B2 = 2e6;
    hc_flow_t f[2] = {{0, 1, B1, (wan - lan) * lf}, {0, 2, B2, 0}};
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    o.smpi_factors = 1;
    double end[2];
    assert_int_equal(hc_flows_run(p, &o, f, 2, end), HC_OK);
    /* node 0's NIC (split duplex: the ways back load the other direction) saturates first */
    const double x = NIC_BW / (w1 + w2);
    assert_true(x * 1.05 * w2 < UP_BW);
    const double t1 = B1 / (bf * w1 * x), moved = bf * w2 * x * t1;
    assert_true(close_rel(end[0], T0 + t1));
    /* then the WAN flow alone: its uplinks carry it and its way back (1.05) */
    assert_true(close_rel(end[1], T0 + t1 + (B2 - moved) / (bf * UP_BW / 1.05)));
    /* without SMPI's model the two share the NIC equally and the WAN flow is uplink-bound */
    assert_int_equal(hc_flows_run(p, NULL, f, 2, end), HC_OK);
    assert_true(close_rel(end[1], wan + B2 / UP_BW));
    hc_platform_destroy(p);
}

/* Flows of one route and size class share a rate (the engine fills them as one class): on
 * one LAN route, three 1 MB flows (SMPI's factors 11.6436 and 0.940694) and two of 9000 B
 * (2.18796 and 1.08739) start moving bytes together and take equal consumptions of node 0's
 * NIC (one route: one weight), each at its own class's data rate. */
static void test_flow_smpi_classes(void **state)
{
    (void)state;
    hc_platform_t *p = three_sites(2);
    const double lan = 2 * NIC_LAT, B1 = 1e6, B2 = 9000;
    const double lf1 = 11.6436, bf1 = 0.940694, lf2 = 2.18796, bf2 = 1.08739;
    const double T0 = lan * lf1, s2 = lan * (lf1 - lf2);
    hc_flow_t f[5] = {{0, 1, B1, 0}, {0, 1, B2, s2}, {0, 1, B1, 0}, {0, 1, B2, s2}, {0, 1, B1, 0}};
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    o.smpi_factors = 1;
    double end[5];
    assert_int_equal(hc_flows_run(p, &o, f, 5, end), HC_OK);
    /* five consumptions of NIC_BW / 5 until the small ones end, then three of NIC_BW / 3 */
    const double t2 = B2 / (bf2 * NIC_BW / 5), moved = bf1 * NIC_BW / 5 * t2;
    assert_true(close_rel(end[1], T0 + t2));
    assert_true(end[3] == end[1]);
    assert_true(close_rel(end[0], T0 + t2 + (B1 - moved) / (bf1 * NIC_BW / 3)));
    assert_true(end[2] == end[0] && end[4] == end[0]);
    hc_platform_destroy(p);
}

/* The factors behind hc_flows_run, as SMPI 3.32 applies them (measured with 0-byte to 1 MB
 * ping-pongs): the value of the largest threshold at or below the size. */
static void test_flow_factors(void **state)
{
    (void)state;
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    double lf = 0, bf = 0;
    hc_flow_factors(&o, 1e6, &lf, &bf);
    assert_true(lf == 1 && bf == 1);
    o.latency_factor = 2;
    o.bandwidth_factor = 0.5;
    hc_flow_factors(&o, 1e6, &lf, &bf);
    assert_true(lf == 2 && bf == 0.5);
    hc_flow_opts_init(&o);
    o.smpi_factors = 1;
    const struct {
        double bytes, lat, bw;
    } want[] = {/* each class from 15 B below its threshold, as SMPI 3.32 runs them */
                {0, 2.01467, 0.812084},     {241, 2.01467, 0.812084},  {242, 1.95341, 0.338112},
                {8192, 2.18796, 1.08739},   {9360, 2.18796, 1.08739},  {9361, 2.59299, 0.58729},
                {65456, 3.48845, 0.697866}, {65457, 11.6436, 0.940694}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        hc_flow_factors(&o, want[i].bytes, &lf, &bf);
        assert_true(lf == want[i].lat && bf == want[i].bw);
    }
    hc_flow_factors(NULL, 8192, &lf, NULL);
    assert_true(lf == 1);
}

/* The bound platform under SMPI's model: latencies x 1.61075, capacities x 1.08739 (the most
 * favourable sizes'), shared uplinks crossed both ways / 1.05; the plain one unchanged. A
 * 9000 B message on a fast, short link beats the plain bound in SMPI's model and not the bound
 * on that platform; and random transfer sets on the 3-site grid never beat it either. */
static void test_flow_bound_platform(void **state)
{
    (void)state;
    hc_platform_t *p = NULL, *q = NULL;
    assert_int_equal(hc_platform_create(2, 1, 1, &p), HC_OK);
    assert_int_equal(hc_platform_add_link(p, "wire", 1e8, 1e-7, HC_LINK_SPLITDUPLEX, NULL), HC_OK);
    for (uint32_t i = 0; i < 2; i++)
        assert_int_equal(hc_platform_set_route(p, i, 1 - i, 1, &(hc_hop_t){0, (uint8_t)i}), HC_OK);
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    o.smpi_factors = 1;
    assert_int_equal(hc_flows_bound_platform(p, &o, &q), HC_OK);
    assert_true(close_rel(hc_platform_latency(q, 0, 1), 1.61075e-7));
    assert_true(close_rel(hc_platform_bandwidth(q, 1, 0), 1.08739e8));
    double bytes[4] = {0, 9000, 0, 0}, end = 0, plain = 0, lb = 0;
    hc_flow_t f = {0, 1, 9000, 0};
    assert_int_equal(hc_flows_run(p, &o, &f, 1, &end), HC_OK);
    assert_int_equal(hc_flows_bound(p, bytes, &plain), HC_OK);
    assert_int_equal(hc_flows_bound(q, bytes, &lb), HC_OK);
    assert_true(end < plain);
    assert_true(lb <= end);
    hc_platform_destroy(q);
    q = NULL;
    assert_int_equal(hc_flows_bound_platform(p, NULL, &q), HC_OK);
    assert_true(hc_platform_latency(q, 0, 1) == hc_platform_latency(p, 0, 1));
    assert_true(hc_platform_bandwidth(q, 0, 1) == hc_platform_bandwidth(p, 0, 1));
    hc_platform_destroy(q);
    hc_platform_destroy(p);

    /* random transfer sets (sizes of every factor class) on the 3-site grid, all started
     * together: SMPI's model never beats the bound on the bound platform */
    p = three_sites(3);
    assert_int_equal(hc_flows_bound_platform(p, &o, &q), HC_OK);
    /* the shared uplinks, crossed both ways by every route across them, also carry the cross
     * traffic: 1.05 per byte; a NIC's way back is its other direction */
    uint32_t up0 = 0;
    assert_int_equal(hc_platform_link_find(q, "up0", &up0), HC_OK);
    assert_true(close_rel(hc_platform_link_bandwidth(q, up0), UP_BW * 1.08739 / 1.05));
    assert_true(close_rel(hc_platform_link_latency(q, up0), UP_LAT * 1.61075));
    assert_true(close_rel(hc_platform_bandwidth(q, 0, 1), NIC_BW * 1.08739));
    assert_true(close_rel(hc_platform_bandwidth(q, 0, 3), UP_BW * 1.08739 / 1.05));
    /* a NIC's other direction carries 0.05 of what comes back over it (API 12): node 0 sends
     * 1 MB to node 1 and receives 1 MB from node 2, so its NIC's up direction carries 1.05 MB */
    {
        double b2[81] = {0};
        b2[0 * 9 + 1] = b2[2 * 9 + 0] = 1e6;
        assert_int_equal(hc_flows_bound(q, b2, &lb), HC_OK);
        assert_true(lb >= 1.05e6 / (NIC_BW * 1.08739) * (1 - 1e-12));
        hc_flow_t f2[2] = {{0, 1, 1e6, 0}, {2, 0, 1e6, 0}};
        double e2[2];
        assert_int_equal(hc_flows_run(p, &o, f2, 2, e2), HC_OK);
        assert_true((e2[0] > e2[1] ? e2[0] : e2[1]) >= lb * (1 - 1e-9));
    }
    const double sizes[] = {100, 2048, 4000, 8192, 9360, 20000, 65536, 1e6};
    hc_rng_t rng;
    hc_rng_seed(&rng, 20261126);
    for (int c = 0; c < 200; c++) {
        double b[81] = {0};
        hc_flow_t fl[81];
        double e[81];
        size_t n = 0;
        for (uint32_t i = 0; i < 9; i++)
            for (uint32_t j = 0; j < 9; j++)
                if (i != j && hc_rng_uniform(&rng) < 0.3) {
                    b[i * 9 + j] = sizes[hc_rng_below(&rng, 8)];
                    fl[n++] = (hc_flow_t){i, j, b[i * 9 + j], 0};
                }
        if (n == 0)
            continue;
        assert_int_equal(hc_flows_run(p, &o, fl, n, e), HC_OK);
        double last = 0;
        for (size_t k = 0; k < n; k++)
            last = e[k] > last ? e[k] : last;
        assert_int_equal(hc_flows_bound(q, b, &lb), HC_OK);
        if (lb > last * (1 + 1e-9))
            fail_msg("case %d: SMPI's model ran %g s, below the bound %g s", c, last, lb);
    }
    hc_platform_destroy(q);
    hc_platform_destroy(p);
}

/* Skewed all-to-all on 3 sites of 2 nodes: 64 KiB per pair, node 0 sends 10x. Site A = {0, 1}'s
 * uplink (shared by both directions) carries node 0's 4 remote messages of 640 KiB, node 1's 4
 * of 64 KiB and the 8 of 64 KiB coming in: 52 x 64 KiB, after the WAN latency; B and C carry
 * less. */
static void test_skewed_alltoallv_bound(void **state)
{
    (void)state;
    hc_platform_t *p = three_sites(2);
    double bytes[36];
    for (uint32_t i = 0; i < 6; i++)
        for (uint32_t j = 0; j < 6; j++)
            bytes[i * 6 + j] = i == j ? 0 : (i == 0 ? 10 : 1) * 65536.0;
    double lb = 0;
    assert_int_equal(hc_flows_bound(p, bytes, &lb), HC_OK);
    /* every one of them crosses the WAN: nothing moves before its latency */
    assert_true(close_rel(lb, 2 * NIC_LAT + 2 * UP_LAT + 52 * 65536.0 / UP_BW));
    /* broadcast of 16 MiB from node 0: the three shared uplinks carry 2 (k - 1) m together
     * (every byte entering a site left another): 4 m / (3 x 12.5 MB/s), plus the smallest
     * latency into a site (issue 16's 1.81 s) */
    double cut = 0, m = 16777216.0;
    assert_int_equal(hc_flows_bcast_bound(p, 0, m, &cut), HC_OK);
    assert_true(close_rel(cut, 4 * m / (3 * UP_BW) + 2 * NIC_LAT + 2 * UP_LAT));
    /* the flow model never beats it */
    hc_flow_t f[30];
    size_t n = 0;
    for (uint32_t i = 0; i < 6; i++)
        for (uint32_t j = 0; j < 6; j++)
            if (i != j)
                f[n++] = (hc_flow_t){i, j, bytes[i * 6 + j], 0};
    double end[30], mk = 0;
    assert_int_equal(hc_flows_run(p, NULL, f, n, end), HC_OK);
    for (size_t k = 0; k < n; k++)
        mk = fmax(mk, end[k]);
    assert_true(mk >= lb);
    hc_platform_destroy(p);
}

/* The simulator's flow network: on one shared wire, the two messages of a 2-node all-to-all
 * run at the same time and get half the wire each; the per-pair model gives each the whole. */
static void test_simulate_flow(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(2, 1, 1, &p), HC_OK);
    uint32_t w;
    assert_int_equal(hc_platform_add_link(p, "wire", 1e7, 0.001, HC_LINK_SHARED, &w), HC_OK);
    hc_hop_t h = {w, 0};
    assert_int_equal(hc_platform_set_route(p, 0, 1, 1, &h), HC_OK);
    assert_int_equal(hc_platform_set_route(p, 1, 0, 1, &h), HC_OK);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_ALLTOALL);
    sp.platform = p;
    sp.msg_bytes = 1000000;
    hc_problem_t *pb = NULL;
    assert_int_equal(hc_problem_create(&sp, &pb), HC_OK);
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(pb, "caterpillar", NULL, &s), HC_OK);
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    hc_sim_result_t *r = NULL;
    assert_int_equal(hc_simulate(s, pb, &o, &r), HC_OK);
    assert_true(close_rel(r->makespan, 0.001 + 1e6 / 1e7));
    hc_sim_result_destroy(r);
    o.network = HC_NETWORK_FLOW;
    assert_int_equal(hc_simulate(s, pb, &o, &r), HC_OK);
    assert_true(close_rel(r->makespan, 0.001 + 1e6 / 5e6));
    hc_sim_result_destroy(r);
    /* errors: draws are not applied, and a platform without routes has no flows */
    o.error_sigma = 0.1;
    assert_int_equal(hc_simulate(s, pb, &o, &r), HC_ERR_UNSUPPORTED);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    /* on the 3-site grid a caterpillar all-to-all under the flow model is no faster than the
     * link bound, and slower than the per-pair model says (the uplinks are shared) */
    hc_platform_t *g = three_sites(2);
    sp.platform = g;
    sp.msg_bytes = 65536;
    assert_int_equal(hc_problem_create(&sp, &pb), HC_OK);
    assert_int_equal(hc_schedule_compute(pb, "caterpillar", NULL, &s), HC_OK);
    o.error_sigma = 0;
    assert_int_equal(hc_simulate(s, pb, &o, &r), HC_OK);
    double bytes[36], lb;
    for (int i = 0; i < 36; i++)
        bytes[i] = i % 7 ? 65536.0 : 0;
    assert_int_equal(hc_flows_bound(g, bytes, &lb), HC_OK);
    assert_true(r->makespan >= lb);
    assert_true(r->makespan > s->makespan);
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(g);
    hc_platform_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_set_pairs),  cmocka_unit_test(test_flow_sharing),
        cmocka_unit_test(test_flow_many),         cmocka_unit_test(test_flow_caps),
        cmocka_unit_test(test_flow_smpi_sharing), cmocka_unit_test(test_flow_smpi_classes),
        cmocka_unit_test(test_flow_factors),      cmocka_unit_test(test_skewed_alltoallv_bound),
        cmocka_unit_test(test_simulate_flow),     cmocka_unit_test(test_flow_bound_platform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
