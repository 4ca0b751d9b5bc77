/* Built-in platforms against the papers' tables (000 Tables 1-2, 004 Table 3), and the random
 * generators: reproducible per seed, inside their documented ranges, symmetric. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#define ASSERT_DBL(a, b, eps)                                                                      \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (eps)))                                                             \
            fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                                    \
    } while (0)

static hc_platform_t *load(const char *spec)
{
    hc_platform_t *p = NULL;
    if (hc_platform_load(spec, &p) != HC_OK)
        fail_msg("%s: %s", spec, hc_error_detail());
    return p;
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(hc_platform_builtin_names(), "gusto, grid5000");
}

/* 000 Table 1 (ms) and Table 2 (kb/s), typed again from the paper. */
static void test_gusto(void **state)
{
    (void)state;
    static const char *sites[] = {"AMES", "ANL", "IND", "USC-ISI", "NCSA"};
    static const double lat_ms[5][5] = {{0, 34.5, 89.5, 12, 42},
                                        {34.5, 0, 20, 26.5, 4.5},
                                        {89.5, 20, 0, 42.5, 21.5},
                                        {12, 26.5, 42.5, 0, 29.5},
                                        {42, 4.5, 21.5, 29.5, 0}};
    static const double bw_kbps[5][5] = {{0, 512, 246, 2044, 391},
                                         {512, 0, 491, 693, 2402},
                                         {246, 491, 0, 311, 448},
                                         {2044, 693, 311, 0, 4976},
                                         {391, 2402, 448, 4976, 0}};
    hc_platform_t *p = load("builtin:gusto");
    assert_int_equal(hc_platform_size(p), 5);
    assert_string_equal(hc_platform_name(p), "gusto");
    assert_int_equal(hc_platform_cluster_count(p), 5);
    for (uint32_t i = 0; i < 5; i++) {
        assert_string_equal(hc_platform_node_name(p, i), sites[i]);
        assert_string_equal(hc_platform_cluster_name(p, (uint32_t)hc_platform_cluster_of(p, i)),
                            sites[i]);
        assert_true(hc_platform_send_time(p, i) < 0);
        for (uint32_t j = 0; j < 5; j++) {
            if (i == j) {
                ASSERT_DBL(hc_platform_latency(p, i, j), 0, 0);
                continue;
            }
            ASSERT_DBL(hc_platform_latency(p, i, j), lat_ms[i][j] / 1000.0, 1e-15);
            /* kb/s = kilobits per second = 125 bytes per second */
            ASSERT_DBL(hc_platform_bandwidth(p, i, j), bw_kbps[i][j] * 1000.0 / 8.0, 1e-9);
        }
    }
    /* spot checks in SI units: AMES-IND 89.5 ms, 246 kb/s = 30750 B/s; USC-ISI-NCSA 622000 */
    ASSERT_DBL(hc_platform_latency(p, 0, 2), 0.0895, 1e-15);
    ASSERT_DBL(hc_platform_bandwidth(p, 0, 2), 30750, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 3, 4), 622000, 0);
    hc_platform_destroy(p);
}

/* 004 Table 3, microseconds; 1 Gbit/s = 125e6 B/s everywhere. */
static void test_grid5000(void **state)
{
    (void)state;
    static const char *names[6] = {"C1-1", "C1-2", "C2-1", "C2-2", "C2-3", "C3"};
    static const uint32_t sizes[6] = {31, 29, 6, 1, 1, 20};
    static const double us[6][6] = {
        {47.56, 62.10, 12181.52, 12187.24, 12197.49, 5210.99},
        {62.10, 47.92, 12181.52, 12198.03, 12195.22, 5211.47},
        {12181.52, 12181.52, 35.52, 60.08, 60.08, 5388.49},
        {12187.24, 12198.03, 60.08, 0, 242.47, 5393.98},
        {12197.49, 12195.22, 60.08, 242.47, 0, 5394.10},
        {5210.99, 5211.47, 5388.49, 5393.98, 5394.10, 27.53},
    };
    hc_platform_t *p = load("builtin:grid5000");
    uint32_t P = hc_platform_size(p);
    assert_int_equal(P, 88);
    assert_string_equal(hc_platform_name(p), "grid5000");
    assert_int_equal(hc_platform_cluster_count(p), 6);
    uint32_t count[6] = {0};
    for (uint32_t i = 0; i < P; i++) {
        int32_t c = hc_platform_cluster_of(p, i);
        assert_true(c >= 0 && c < 6);
        count[c]++;
    }
    for (uint32_t c = 0; c < 6; c++) {
        assert_string_equal(hc_platform_cluster_name(p, c), names[c]);
        assert_int_equal(count[c], sizes[c]);
    }
    assert_string_equal(hc_platform_node_name(p, 0), "C1-1-0");
    assert_string_equal(hc_platform_node_name(p, 87), "C3-19");
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            int32_t a = hc_platform_cluster_of(p, i), b = hc_platform_cluster_of(p, j);
            ASSERT_DBL(hc_platform_latency(p, i, j), us[a][b] * 1e-6, 1e-15);
            ASSERT_DBL(hc_platform_bandwidth(p, i, j), 125e6, 0);
        }
    /* spot checks: node 0 (C1-1) to node 60 (C2-1, first Grenoble node): 12181.52 us;
     * C2-2 (node 66) to C2-3 (node 67): 242.47 us; C3 intra 27.53 us */
    ASSERT_DBL(hc_platform_latency(p, 0, 60), 0.01218152, 1e-15);
    ASSERT_DBL(hc_platform_latency(p, 66, 67), 242.47e-6, 1e-15);
    ASSERT_DBL(hc_platform_latency(p, 70, 71), 27.53e-6, 1e-15);
    hc_platform_destroy(p);
}

static int same_json(const char *a, const char *b)
{
    hc_platform_t *p = load(a), *q = load(b);
    char *ja = NULL, *jb = NULL;
    assert_int_equal(hc_platform_to_json(p, &ja), HC_OK);
    assert_int_equal(hc_platform_to_json(q, &jb), HC_OK);
    /* the platform name is the spec; compare from "nodes" on */
    int eq = strcmp(strstr(ja, "\"nodes\""), strstr(jb, "\"nodes\"")) == 0;
    free(ja);
    free(jb);
    hc_platform_destroy(p);
    hc_platform_destroy(q);
    return eq;
}

static void test_random_reproducible(void **state)
{
    (void)state;
    static const char *specs[][3] = {
        {"random:gusto:P=50:seed=7", "random:gusto:seed=7:P=50", "random:gusto:P=50:seed=8"},
        {"random:uniform:P=20:seed=1", "random:uniform:seed=1:P=20", "random:uniform:P=20:seed=2"},
        {"random:two-cluster:n1=16:n2=16:seed=1", "random:two-cluster:n2=16:n1=16:seed=1",
         "random:two-cluster:n1=16:n2=16:seed=3"},
        {"random:grid:clusters=5:nodes=8:seed=1", "random:grid:nodes=8:clusters=5:seed=1",
         "random:grid:clusters=5:nodes=8:seed=4"},
    };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        assert_true(same_json(specs[k][0], specs[k][0]));
        assert_true(same_json(specs[k][0], specs[k][1]));
        assert_false(same_json(specs[k][0], specs[k][2]));
    }
    /* the default seed is 1 */
    assert_true(same_json("random:uniform:P=20", "random:uniform:P=20:seed=1"));
    /* a fixed value pins the generator across machines (xoshiro256** is portable) */
    hc_platform_t *p = load("random:uniform:P=3:seed=42");
    double l = hc_platform_latency(p, 0, 1);
    hc_platform_destroy(p);
    p = load("random:uniform:P=3:seed=42");
    ASSERT_DBL(hc_platform_latency(p, 0, 1), l, 0);
    hc_platform_destroy(p);
}

typedef struct {
    double lat_lo, lat_hi, bw_lo, bw_hi;
} range_t;

static void check_ranges(const hc_platform_t *p, int symmetric, range_t r, double *lat_min,
                         double *lat_max)
{
    uint32_t P = hc_platform_size(p);
    *lat_min = INFINITY;
    *lat_max = 0;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            double l = hc_platform_latency(p, i, j), b = hc_platform_bandwidth(p, i, j);
            if (l < r.lat_lo || l > r.lat_hi || b < r.bw_lo || b > r.bw_hi)
                fail_msg("%s: link (%u,%u) lat %g bw %g out of range", hc_platform_name(p), i, j, l,
                         b);
            if (symmetric) {
                ASSERT_DBL(hc_platform_latency(p, j, i), l, 0);
                ASSERT_DBL(hc_platform_bandwidth(p, j, i), b, 0);
            }
            *lat_min = fmin(*lat_min, l);
            *lat_max = fmax(*lat_max, l);
        }
}

static void test_random_ranges(void **state)
{
    (void)state;
    double lo, hi;
    hc_platform_t *p = load("random:gusto:P=50:seed=7");
    assert_int_equal(hc_platform_size(p), 50);
    assert_int_equal(hc_platform_cluster_count(p), 0);
    check_ranges(p, 1, (range_t){4.5e-3, 89.5e-3, 246 * 125.0, 4976 * 125.0}, &lo, &hi);
    /* 1225 draws: the range is well covered */
    assert_true(lo < 10e-3 && hi > 80e-3);
    hc_platform_destroy(p);

    p = load("random:uniform:P=20:seed=1");
    assert_int_equal(hc_platform_size(p), 20);
    check_ranges(p, 1, (range_t){10e-6, 1e-3, 10e3, 200e6}, &lo, &hi);
    hc_platform_destroy(p);
    p = load("random:uniform:P=10:seed=1:symmetric=0:lat_min=0.5:lat_max=0.6:bw_min=1:bw_max=2");
    check_ranges(p, 0, (range_t){0.5, 0.6, 1, 2}, &lo, &hi);
    assert_true(hc_platform_latency(p, 0, 1) != hc_platform_latency(p, 1, 0));
    hc_platform_destroy(p);

    p = load("random:two-cluster:n1=16:n2=16:seed=1");
    assert_int_equal(hc_platform_size(p), 32);
    assert_int_equal(hc_platform_cluster_count(p), 2);
    assert_string_equal(hc_platform_cluster_name(p, 0), "A");
    assert_string_equal(hc_platform_cluster_name(p, 1), "B");
    assert_string_equal(hc_platform_node_name(p, 16), "B-0");
    for (uint32_t i = 0; i < 32; i++)
        for (uint32_t j = 0; j < 32; j++) {
            if (i == j)
                continue;
            int same = (i < 16) == (j < 16);
            double l = hc_platform_latency(p, i, j), b = hc_platform_bandwidth(p, i, j);
            double L = same ? 50e-6 : 10e-3, B = same ? 125e6 : 12.5e6;
            assert_true(l >= 0.9 * L && l <= 1.1 * L);
            assert_true(b >= 0.9 * B && b <= 1.1 * B);
            ASSERT_DBL(hc_platform_latency(p, j, i), l, 0);
        }
    hc_platform_destroy(p);
    p = load("random:two-cluster:n1=2:n2=3:jitter=0:inter_lat=0.2:inter_bw=5");
    ASSERT_DBL(hc_platform_latency(p, 0, 4), 0.2, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 4, 0), 5, 0);
    ASSERT_DBL(hc_platform_latency(p, 0, 1), 50e-6, 0);
    hc_platform_destroy(p);

    p = load("random:grid:clusters=5:nodes=8:seed=1");
    assert_int_equal(hc_platform_size(p), 40);
    assert_int_equal(hc_platform_cluster_count(p), 5);
    for (uint32_t i = 0; i < 40; i++) {
        assert_int_equal(hc_platform_cluster_of(p, i), (int32_t)(i / 8));
        for (uint32_t j = 0; j < 40; j++) {
            if (i == j)
                continue;
            double l = hc_platform_latency(p, i, j), b = hc_platform_bandwidth(p, i, j);
            if (i / 8 == j / 8) {
                assert_true(l >= 10e-6 && l <= 100e-6);
                assert_true(b >= 12.5e6 && b <= 125e6);
            } else {
                assert_true(l >= 1e-3 && l <= 15e-3);
                assert_true(b >= 1e6 && b <= 100e6);
            }
            /* one value per cluster pair: same as between the clusters' first nodes (or
             * nodes 0 and 1 of the cluster) */
            uint32_t i0 = (i / 8) * 8, j0 = (j / 8) * 8;
            if (i0 == j0)
                j0 = i0 + 1;
            ASSERT_DBL(l, hc_platform_latency(p, i0, j0), 0);
            ASSERT_DBL(b, hc_platform_bandwidth(p, i0, j0), 0);
            ASSERT_DBL(hc_platform_latency(p, j, i), l, 0);
        }
    }
    hc_platform_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),         cmocka_unit_test(test_gusto),
        cmocka_unit_test(test_grid5000),      cmocka_unit_test(test_random_reproducible),
        cmocka_unit_test(test_random_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
