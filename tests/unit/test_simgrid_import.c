/* SimGrid platforms as input (simgrid:FILE.xml, src/net/simgrid_import.c): node order, per-pair
 * latency (sum along the route) and bandwidth (smallest) against hand calculations on
 * tests/data/simgrid/, sharing policies, the hostfile, and clear errors. Skipped when the
 * library was built without SimGrid. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#define DIR HC_TEST_DATA "/simgrid/"

static int close_rel(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Load spec, or skip the test when built without SimGrid. */
static hc_platform_t *load(const char *spec)
{
    hc_platform_t *p = NULL;
    int rc = hc_platform_load(spec, &p);
    if (rc == HC_ERR_UNSUPPORTED && strstr(hc_error_detail(), "without SimGrid"))
        skip();
    if (rc != HC_OK)
        fail_msg("%s: %s", spec, hc_error_detail());
    return p;
}

static uint32_t node(const hc_platform_t *p, const char *name)
{
    for (uint32_t i = 0; i < hc_platform_size(p); i++)
        if (strcmp(hc_platform_node_name(p, i), name) == 0)
            return i;
    fail_msg("no node %s", name);
    return 0;
}

static void check_pair(const hc_platform_t *p, const char *a, const char *b, double lat, double bw,
                       size_t hops)
{
    uint32_t i = node(p, a), j = node(p, b);
    if (!close_rel(hc_platform_latency(p, i, j), lat) ||
        !close_rel(hc_platform_bandwidth(p, i, j), bw))
        fail_msg("%s -> %s: latency %.17g (want %.17g), bandwidth %.17g (want %.17g)", a, b,
                 hc_platform_latency(p, i, j), lat, hc_platform_bandwidth(p, i, j), bw);
    assert_int_equal(hc_platform_route(p, i, j, NULL, 0), hops);
}

static hc_link_sharing_t sharing(const hc_platform_t *p, const char *link)
{
    uint32_t id = 0;
    if (hc_platform_link_find(p, link, &id) != HC_OK)
        fail_msg("no link %s", link);
    return hc_platform_link_sharing(p, id);
}

static void test_cluster(void **state)
{
    (void)state;
    hc_platform_t *p = load("simgrid:" DIR "cluster.xml");
    const char *order[] = {"c-3.x", "c-0.x", "c-1.x", "c-2.x"}; /* the radical "3,0-2" */
    assert_int_equal(hc_platform_size(p), 4);
    for (uint32_t i = 0; i < 4; i++) {
        assert_string_equal(hc_platform_node_name(p, i), order[i]);
        assert_int_equal(hc_platform_cluster_of(p, i), 0);
    }
    assert_string_equal(hc_platform_cluster_name(p, 0), "c");
    assert_true(hc_platform_has_routes(p));
    /* private link (50 us, 125 MB/s) up, backbone (500 us, 2.25 GB/s), private link down */
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t j = 0; j < 4; j++)
            if (i != j)
                check_pair(p, order[i], order[j], 6e-4, 1.25e8, 3);
    assert_int_equal(hc_platform_link_count(p), 9); /* 4 x (UP, DOWN) + backbone */
    assert_int_equal(sharing(p, "c_link_3_UP"), HC_LINK_SHARED);
    assert_int_equal(sharing(p, "c_link_3_DOWN"), HC_LINK_SHARED);
    assert_int_equal(sharing(p, "c_backbone"), HC_LINK_FATPIPE);
    hc_platform_destroy(p);
}

static void test_zones(void **state)
{
    (void)state;
    hc_platform_t *p = load("simgrid:" DIR "zones.xml");
    /* document order, not SimGrid's (sorted by name) */
    const char *order[] = {"f-b", "f-a", "d-z", "d-y", "cl-1", "cl-0"};
    const char *zone[] = {"floyd", "floyd", "dijkstra", "dijkstra", "cl", "cl"};
    assert_int_equal(hc_platform_size(p), 6);
    for (uint32_t i = 0; i < 6; i++) {
        assert_string_equal(hc_platform_node_name(p, i), order[i]);
        assert_string_equal(hc_platform_cluster_name(p, (uint32_t)hc_platform_cluster_of(p, i)),
                            zone[i]);
    }
    assert_true(hc_platform_has_routes(p));
    /* Floyd: fl-b (1 us, 100 MB/s), fl-a (2 us, 200 MB/s) */
    check_pair(p, "f-b", "f-a", 3e-6, 1e8, 2);
    check_pair(p, "f-a", "f-b", 3e-6, 1e8, 2);
    /* Dijkstra: dl-z (4 us, 300 MB/s), dl-y (8 us, 400 MB/s, split duplex, UP one way) */
    check_pair(p, "d-z", "d-y", 12e-6, 3e8, 2);
    /* zoneRoute floyd -> dijkstra: wan-split UP (64 us, 50 MB/s), wan-shared (128 us) */
    check_pair(p, "f-b", "d-z", 197e-6, 5e7, 4);
    check_pair(p, "d-y", "f-a", 202e-6, 5e7, 4); /* reversed: wan-split DOWN */
    /* floyd <-> cl (symmetrical): wan-fat (256 us, 70 MB/s), backbone 32 us, private 16 us */
    check_pair(p, "f-a", "cl-0", 306e-6, 7e7, 4);
    check_pair(p, "cl-1", "f-b", 305e-6, 7e7, 4);
    /* dijkstra -> cl and back differ (symmetrical="NO") */
    check_pair(p, "d-y", "cl-0", 184e-6, 6e7, 4);
    check_pair(p, "cl-0", "d-y", 376e-6, 5e7, 5);
    check_pair(p, "cl-1", "cl-0", 64e-6, 1e9, 3);
    assert_int_equal(sharing(p, "fl-b"), HC_LINK_SHARED);
    assert_int_equal(sharing(p, "fl-a"), HC_LINK_FATPIPE);
    assert_int_equal(sharing(p, "wan-shared"), HC_LINK_SHARED);
    assert_int_equal(sharing(p, "wan-fat"), HC_LINK_FATPIPE);
    assert_int_equal(sharing(p, "wan-split_UP"), HC_LINK_SHARED);
    assert_int_equal(sharing(p, "wan-split_DOWN"), HC_LINK_SHARED);
    assert_int_equal(sharing(p, "cl_backbone"), HC_LINK_SHARED);
    hc_platform_destroy(p);
}

static void test_hostfile(void **state)
{
    (void)state;
    /* "cl-0", "f-a:2" (two ranks), a blank line, "d-y"; np=3 keeps the first three ranks */
    hc_platform_t *p = load("simgrid:hostfile=" DIR "zones_hosts.txt:np=3:" DIR "zones.xml");
    assert_int_equal(hc_platform_size(p), 3);
    assert_string_equal(hc_platform_node_name(p, 0), "cl-0");
    assert_string_equal(hc_platform_node_name(p, 1), "f-a");
    assert_string_equal(hc_platform_node_name(p, 2), "f-a#2");
    check_pair(p, "cl-0", "f-a", 306e-6, 7e7, 4);
    hc_platform_destroy(p);
    p = load("simgrid:np=2:" DIR "zones.xml"); /* np without a hostfile: the first nodes */
    assert_int_equal(hc_platform_size(p), 2);
    assert_string_equal(hc_platform_node_name(p, 1), "f-a");
    hc_platform_destroy(p);
}

static void expect_error(const char *spec, int status, const char *needle)
{
    hc_platform_t *p = NULL;
    int rc = hc_platform_load(spec, &p);
    if (rc == HC_ERR_UNSUPPORTED && strstr(hc_error_detail(), "without SimGrid"))
        skip();
    assert_null(p);
    if (rc != status || !strstr(hc_error_detail(), needle))
        fail_msg("%s: got %s '%s', want %s with '%s'", spec, hc_status_name(rc), hc_error_detail(),
                 hc_status_name(status), needle);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("simgrid:" DIR "missing.xml", HC_ERR_IO, "missing.xml");
    expect_error("simgrid:" DIR "bad.xml", HC_ERR_PARSE, "nosuchlink");
    expect_error("simgrid:" DIR "noroute.xml", HC_ERR_VALUE, "no route from a to b");
    expect_error("simgrid:hostfile=" DIR "zones_hosts.txt:" DIR "cluster.xml", HC_ERR_UNKNOWN,
                 "host 'cl-0' is not in the platform");
    expect_error("simgrid:np=x:" DIR "zones.xml", HC_ERR_PARSE, "np must be");
    expect_error("simgrid:", HC_ERR_PARSE, "missing file name");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cluster),
        cmocka_unit_test(test_zones),
        cmocka_unit_test(test_hostfile),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
