/* Logical clusters (src/net/cluster.c): Lowekamp greedy and all-pairs variants. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

/* Do labels a and b describe the same partition? */
static int same_partition(uint32_t P, const int32_t *a, const int32_t *b)
{
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if ((a[i] == a[j]) != (b[i] == b[j]))
                return 0;
    return 1;
}

/* Symmetric matrix from a group id per node and intra/inter distances by group pair. */
static double *block_matrix(uint32_t P, const int32_t *grp, double (*dist)(int32_t, int32_t))
{
    double *m = calloc((size_t)P * P, sizeof *m);
    assert_non_null(m);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            m[(size_t)i * P + j] = i == j ? 0 : dist(grp[i], grp[j]);
    return m;
}

static double two_groups_dist(int32_t a, int32_t b)
{
    if (a != b)
        return 1e-3;
    return a == 0 ? 10e-6 : 12e-6;
}

static void test_two_groups(void **state)
{
    (void)state;
    const uint32_t P = 8;
    int32_t grp[8] = {0, 1, 0, 1, 0, 1, 0, 1}, lab[8];
    double *m = block_matrix(P, grp, two_groups_dist);
    uint32_t C = 0;
    for (int v = 0; v < 2; v++) {
        hc_cluster_opts_t o;
        hc_cluster_opts_init(&o);
        o.variant = v ? HC_CLUSTER_ALL_PAIRS : HC_CLUSTER_GREEDY;
        assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
        assert_int_equal(C, 2);
        assert_true(same_partition(P, grp, lab));
        /* Labels are numbered by first member. */
        assert_int_equal(lab[0], 0);
        assert_int_equal(lab[1], 1);
    }
    free(m);
}

/* One site with two hidden sub-switches (50 us inside, 70 us across) and a remote site. */
static double subswitch_dist(int32_t a, int32_t b)
{
    if (a == b)
        return a == 2 ? 30e-6 : 50e-6;
    if (a < 2 && b < 2)
        return 70e-6;
    return 5e-3;
}

static void test_hidden_subswitches(void **state)
{
    (void)state;
    const uint32_t P = 16;
    int32_t grp[16], lab[16];
    for (uint32_t i = 0; i < P; i++)
        grp[i] = i < 6 ? 0 : i < 12 ? 1 : 2;
    double *m = block_matrix(P, grp, subswitch_dist);
    uint32_t C = 0;
    double rhos[] = {0.1, 0.3};
    hc_cluster_opts_t o;
    for (size_t r = 0; r < 2; r++) {
        hc_cluster_opts_init(&o);
        o.rho = rhos[r];
        assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
        assert_int_equal(C, 3);
        assert_true(same_partition(P, grp, lab));
        o.variant = HC_CLUSTER_ALL_PAIRS;
        assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
        assert_int_equal(C, 3);
        assert_true(same_partition(P, grp, lab));
    }
    /* rho 0.5 tolerates 70 vs 50 us: the sub-switches merge, the remote site stays apart. */
    hc_cluster_opts_init(&o);
    o.rho = 0.5;
    assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
    assert_int_equal(C, 2);
    for (uint32_t i = 0; i < P; i++)
        assert_int_equal(lab[i], i < 12 ? lab[0] : lab[15]);
    free(m);
}

/* Noisy intra-cluster latencies in [100, 125] us, 10 ms across: rho 0.3 recovers the two
 * groups, rho 0.01 fragments them. */
static void test_rho_sensitivity_noise(void **state)
{
    (void)state;
    const uint32_t P = 12;
    int32_t grp[12], lab[12];
    hc_rng_t rng;
    hc_rng_seed(&rng, 42);
    double *m = calloc((size_t)P * P, sizeof *m);
    assert_non_null(m);
    for (uint32_t i = 0; i < P; i++)
        grp[i] = i < 7 ? 0 : 1;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = i + 1; j < P; j++) {
            double d = grp[i] == grp[j] ? hc_rng_range(&rng, 100e-6, 125e-6) : 10e-3;
            m[(size_t)i * P + j] = m[(size_t)j * P + i] = d;
        }
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    uint32_t C = 0;
    assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
    assert_int_equal(C, 2);
    assert_true(same_partition(P, grp, lab));
    o.variant = HC_CLUSTER_ALL_PAIRS;
    assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
    assert_int_equal(C, 2);
    assert_true(same_partition(P, grp, lab));
    o.variant = HC_CLUSTER_GREEDY;
    o.rho = 0.01;
    assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
    assert_true(C > 2);
    /* Never merges across the 10 ms gap, even when fragmented. */
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (lab[i] == lab[j])
                assert_int_equal(grp[i], grp[j]);
    free(m);
}

/* A at 10 us, B at 14 us inside, 12 us across: B is closer to A than to itself; rho 0.3
 * admits B into A, rho 0.1 does not. */
static double close_dist(int32_t a, int32_t b)
{
    if (a != b)
        return 12e-6;
    return a == 0 ? 10e-6 : 14e-6;
}

static void test_rho_sensitivity_merge(void **state)
{
    (void)state;
    const uint32_t P = 8;
    int32_t grp[8] = {0, 0, 0, 0, 1, 1, 1, 1}, lab[8];
    double *m = block_matrix(P, grp, close_dist);
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    uint32_t C = 0;
    assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
    assert_int_equal(C, 1);
    o.rho = 0.1;
    assert_int_equal(hc_cluster_compute_matrix(P, m, &o, lab, &C), HC_OK);
    assert_true(C >= 2);
    for (uint32_t i = 1; i < 4; i++)
        assert_int_equal(lab[i], lab[0]);
    for (uint32_t i = 4; i < 8; i++)
        assert_int_not_equal(lab[i], lab[0]);
    free(m);
}

static void test_grid5000(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_load("builtin:grid5000", &p), HC_OK);
    uint32_t P = hc_platform_size(p);
    assert_int_equal(P, 88);
    int32_t *lab = calloc(P, sizeof *lab), *truth = calloc(P, sizeof *truth);
    assert_non_null(lab);
    assert_non_null(truth);
    for (uint32_t i = 0; i < P; i++)
        truth[i] = hc_platform_cluster_of(p, i);
    for (int v = 0; v < 2; v++) {
        hc_cluster_opts_t o;
        hc_cluster_opts_init(&o);
        o.rho = 0.3;
        o.variant = v ? HC_CLUSTER_ALL_PAIRS : HC_CLUSTER_GREEDY;
        uint32_t C = 0;
        assert_int_equal(hc_cluster_compute(p, &o, lab, &C), HC_OK);
        assert_int_equal(C, 6);
        assert_true(same_partition(P, truth, lab));
    }
    /* Write the labels back under new names; the partition is preserved. */
    hc_platform_t *q = NULL;
    assert_int_equal(hc_platform_clone(p, &q), HC_OK);
    assert_int_equal(hc_platform_apply_clusters(q, lab, "L"), HC_OK);
    assert_int_equal(hc_platform_cluster_count(q), 6);
    assert_string_equal(hc_platform_cluster_name(q, (uint32_t)hc_platform_cluster_of(q, 0)), "L0");
    for (uint32_t i = 0; i < P; i++)
        truth[i] = hc_platform_cluster_of(q, i);
    assert_true(same_partition(P, truth, lab));
    hc_platform_destroy(q);
    hc_platform_destroy(p);
    free(lab);
    free(truth);
}

static void test_single_node_clusters(void **state)
{
    (void)state;
    /* d(0,1)=1 forms a pair; 2 and 3 are far from everything and from each other. */
    double m[16] = {0, 1, 5, 25, 1, 0, 6, 26, 5, 6, 0, 27, 25, 26, 27, 0};
    int32_t lab[4];
    uint32_t C = 0;
    assert_int_equal(hc_cluster_compute_matrix(4, m, NULL, lab, &C), HC_OK);
    assert_int_equal(C, 3);
    assert_int_equal(lab[0], 0);
    assert_int_equal(lab[1], 0);
    assert_int_equal(lab[2], 1);
    assert_int_equal(lab[3], 2);
    double one = 0;
    assert_int_equal(hc_cluster_compute_matrix(1, &one, NULL, lab, &C), HC_OK);
    assert_int_equal(C, 1);
    assert_int_equal(lab[0], 0);
}

/* Greedy admits node 2 on its short edge to node 0; all-pairs sees its long edge to node 1. */
static void test_variants_differ(void **state)
{
    (void)state;
    double m[9] = {0, 10, 12, 10, 0, 20, 12, 20, 0};
    int32_t lab[3];
    uint32_t C = 0;
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    assert_int_equal(hc_cluster_compute_matrix(3, m, &o, lab, &C), HC_OK);
    assert_int_equal(C, 1);
    o.variant = HC_CLUSTER_ALL_PAIRS;
    assert_int_equal(hc_cluster_compute_matrix(3, m, &o, lab, &C), HC_OK);
    assert_int_equal(C, 2);
    assert_int_equal(lab[0], lab[1]);
    assert_int_not_equal(lab[0], lab[2]);
}

static void test_bandwidth_metric(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(6, 1e-4, 1e9, &p), HC_OK);
    /* Same latency everywhere; nodes 3..5 reach everyone at 100 MB/s only. */
    for (uint32_t i = 0; i < 6; i++)
        for (uint32_t j = 0; j < 6; j++)
            if (i != j && (i >= 3 || j >= 3))
                assert_int_equal(
                    hc_platform_set_link(p, i, j, 1e-4, (i >= 3 && j >= 3) ? 2e8 : 1e8), HC_OK);
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    int32_t lab[6];
    uint32_t C = 0;
    assert_int_equal(hc_cluster_compute(p, &o, lab, &C), HC_OK);
    assert_int_equal(C, 1); /* latency cannot tell them apart */
    o.metric = HC_CLUSTER_BANDWIDTH;
    assert_int_equal(hc_cluster_compute(p, &o, lab, &C), HC_OK);
    assert_int_equal(C, 2);
    int32_t truth[6] = {0, 0, 0, 1, 1, 1};
    assert_true(same_partition(6, truth, lab));
    hc_platform_destroy(p);
}

static void test_bad_input(void **state)
{
    (void)state;
    double m[4] = {0, 1, NAN, 0};
    int32_t lab[2];
    uint32_t C;
    assert_int_equal(hc_cluster_compute_matrix(2, m, NULL, lab, &C), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "distance[1][0]"));
    m[2] = 1;
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    o.rho = -1;
    assert_int_equal(hc_cluster_compute_matrix(2, m, &o, lab, &C), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "rho"));
    assert_int_equal(hc_cluster_compute_matrix(0, m, NULL, lab, &C), HC_ERR_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_groups),
        cmocka_unit_test(test_hidden_subswitches),
        cmocka_unit_test(test_rho_sensitivity_noise),
        cmocka_unit_test(test_rho_sensitivity_merge),
        cmocka_unit_test(test_grid5000),
        cmocka_unit_test(test_single_node_clusters),
        cmocka_unit_test(test_variants_differ),
        cmocka_unit_test(test_bandwidth_metric),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
