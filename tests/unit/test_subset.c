/* hc_platform_subset: a communicator's view of a platform keeps links, names, clusters, send
 * times and gap tables (per pair and per cluster pair), renumbered in the given order. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#define DATA HC_TEST_DATA

static void test_subset_keeps_model(void **state)
{
    (void)state;
    hc_platform_t *p, *q;
    assert_int_equal(hc_platform_load(DATA "/platform_gaps.json", &p), HC_OK);
    assert_int_equal(hc_platform_set_send_time(p, 2, 0.25), HC_OK);
    const uint32_t nodes[] = {2, 0, 1}; /* r, p, q */
    assert_int_equal(hc_platform_subset(p, nodes, 3, &q), HC_OK);
    assert_int_equal(hc_platform_size(q), 3);
    assert_string_equal(hc_platform_name(q), "gaps");
    assert_string_equal(hc_platform_node_name(q, 0), "r");
    assert_string_equal(hc_platform_node_name(q, 1), "p");
    assert_true(hc_platform_send_time(q, 0) == 0.25);
    assert_true(hc_platform_send_time(q, 1) < 0);
    assert_int_equal(hc_platform_cluster_count(q), 2);
    assert_string_equal(hc_platform_cluster_name(q, (uint32_t)hc_platform_cluster_of(q, 0)), "Y");
    assert_string_equal(hc_platform_cluster_name(q, (uint32_t)hc_platform_cluster_of(q, 2)), "X");
    assert_true(hc_platform_has_gaps(q));
    /* Every pair and size: the subset answers exactly what the original answers. */
    const uint64_t sizes[] = {1, 1000, 1500, 3000, 65536, 1048576, 4000000};
    for (uint32_t a = 0; a < 3; a++)
        for (uint32_t b = 0; b < 3; b++) {
            if (a == b)
                continue;
            assert_true(hc_platform_latency(q, a, b) == hc_platform_latency(p, nodes[a], nodes[b]));
            assert_true(hc_platform_bandwidth(q, a, b) ==
                        hc_platform_bandwidth(p, nodes[a], nodes[b]));
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                assert_true(hc_platform_gap(q, a, b, sizes[k]) ==
                            hc_platform_gap(p, nodes[a], nodes[b], sizes[k]));
        }
    /* The pair table p -> q (0 -> 1) is not m / B: g(2000) = 0.003. */
    assert_true(hc_platform_gap(q, 1, 2, 2000) == 0.003);
    hc_platform_destroy(q);

    /* Only cluster X's nodes: one cluster left, the X -> Y table has no place any more. */
    const uint32_t xs[] = {1, 0};
    assert_int_equal(hc_platform_subset(p, xs, 2, &q), HC_OK);
    assert_int_equal(hc_platform_cluster_count(q), 1);
    assert_true(hc_platform_gap(q, 1, 0, 2000) == 0.003);
    hc_platform_destroy(q);
    hc_platform_destroy(p);
}

static void test_subset_rejects(void **state)
{
    (void)state;
    hc_platform_t *p, *q = (hc_platform_t *)&q;
    assert_int_equal(hc_platform_load("builtin:gusto", &p), HC_OK);
    const uint32_t beyond[] = {0, 5};
    assert_int_equal(hc_platform_subset(p, beyond, 2, &q), HC_ERR_VALUE);
    assert_null(q);
    assert_non_null(strstr(hc_error_detail(), "node 5 is beyond the platform's 5 nodes"));
    const uint32_t twice[] = {1, 3, 1};
    assert_int_equal(hc_platform_subset(p, twice, 3, &q), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "node 1 is given twice"));
    assert_int_equal(hc_platform_subset(p, twice, 0, &q), HC_ERR_VALUE);
    assert_int_equal(hc_platform_subset(NULL, twice, 1, &q), HC_ERR_INVAL);
    hc_platform_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subset_keeps_model),
        cmocka_unit_test(test_subset_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
