/* Cost model: hand-computed Hockney and pLogP values, gap-table interpolation and
 * extrapolation, cluster-pair tables, uniform and per-pair cost matrices. */
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

#define EPS 1e-15

static hc_platform_t *load(const char *spec)
{
    char path[1024];
    if (strchr(spec, ':'))
        snprintf(path, sizeof path, "%s", spec);
    else
        snprintf(path, sizeof path, "%s/%s", HC_TEST_DATA, spec);
    hc_platform_t *p = NULL;
    if (hc_platform_load(path, &p) != HC_OK)
        fail_msg("%s: %s", path, hc_error_detail());
    return p;
}

static void test_model_names(void **state)
{
    (void)state;
    hc_model_t m;
    assert_int_equal(hc_model_parse("hockney", &m), HC_OK);
    assert_int_equal(m, HC_MODEL_HOCKNEY);
    assert_int_equal(hc_model_parse("plogp", &m), HC_OK);
    assert_int_equal(m, HC_MODEL_PLOGP);
    assert_int_equal(hc_model_parse("logp", &m), HC_ERR_UNKNOWN);
    assert_non_null(strstr(hc_error_detail(), "valid: hockney, plogp"));
    assert_string_equal(hc_model_name(HC_MODEL_HOCKNEY), "hockney");
    assert_string_equal(hc_model_name(HC_MODEL_PLOGP), "plogp");
}

static void test_hockney(void **state)
{
    (void)state;
    hc_platform_t *p = load("builtin:gusto");
    /* AMES -> ANL: L = 34.5 ms, B = 512 kb/s = 64000 B/s; 1000 B -> 0.0345 + 0.015625 */
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_HOCKNEY, 0, 1, 1000), 0.050125, EPS);
    /* USC-ISI -> NCSA: 29.5 ms, 4976 kb/s = 622000 B/s; 1 MiB */
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_HOCKNEY, 3, 4, 1048576), 0.0295 + 1048576.0 / 622000.0,
               1e-12);
    /* no table: pLogP = Hockney */
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_PLOGP, 3, 4, 1048576),
               hc_cost_p2p(p, HC_MODEL_HOCKNEY, 3, 4, 1048576), 0);
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_HOCKNEY, 2, 2, 1000), 0, 0);
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_HOCKNEY, 0, 1, 0), 0, 0);
    assert_true(isnan(hc_cost_p2p(p, HC_MODEL_HOCKNEY, 0, 5, 1)));
    hc_platform_destroy(p);
}

static void test_plogp_tables(void **state)
{
    (void)state;
    hc_platform_t *p = load("platform_gaps.json");
    assert_true(hc_platform_has_gaps(p));
    /* pair (0,1): sizes 1000 2000 4000, gaps 1 3 4 ms */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 0), 0, 0);
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 500), 0.0005, EPS);  /* through (0, 0) */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 1000), 0.001, EPS);  /* sample */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 1500), 0.002, EPS);  /* interpolation */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 2000), 0.003, EPS);  /* sample */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 3000), 0.0035, EPS); /* interpolation */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 4000), 0.004, EPS);  /* last sample */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 8000), 0.006, EPS);  /* extrapolation, slope 5e-7 s/B */
    /* pLogP = L + g(m); Hockney = L + m/B with L = 1 ms, B = 1e6 */
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_PLOGP, 0, 1, 1500), 0.003, EPS);
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_HOCKNEY, 0, 1, 1500), 0.0025, EPS);
    /* (1,0): no pair table; cluster pair X->X has none either: m / B */
    ASSERT_DBL(hc_platform_gap(p, 1, 0, 1500), 0.0015, EPS);
    /* cluster pair X->Y: sizes 1024, 1048576; gaps 0.5 ms, 0.5 s; for nodes 0 and 1 -> 2 */
    ASSERT_DBL(hc_platform_gap(p, 0, 2, 1024), 0.0005, EPS);
    ASSERT_DBL(hc_platform_gap(p, 1, 2, 524800), 0.25025, 1e-12);
    ASSERT_DBL(hc_cost_p2p(p, HC_MODEL_PLOGP, 1, 2, 524800), 0.002 + 0.25025, 1e-12);
    /* Y->X: no table (tables are per ordered pair) */
    ASSERT_DBL(hc_platform_gap(p, 2, 0, 1024), 1024 / 1e6, EPS);
    hc_platform_destroy(p);
}

static void test_gap_setter(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(3, 0.001, 1e6, &p), HC_OK);
    assert_false(hc_platform_has_gaps(p));
    const uint64_t s1[] = {1000};
    const double g1[] = {0.002};
    assert_int_equal(hc_platform_set_gap_table(p, 0, 1, 1, s1, g1), HC_OK);
    assert_true(hc_platform_has_gaps(p));
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 500), 0.001, EPS); /* one sample: proportional */
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 3000), 0.006, EPS);
    /* decreasing tail: extrapolation is clamped at 0 */
    const uint64_t s2[] = {100, 200};
    const double g2[] = {1.0, 0.5};
    assert_int_equal(hc_platform_set_gap_table(p, 1, 2, 2, s2, g2), HC_OK);
    ASSERT_DBL(hc_platform_gap(p, 1, 2, 300), 0.0, EPS);
    ASSERT_DBL(hc_platform_gap(p, 1, 2, 150), 0.75, EPS);
    /* a table starting at size 0 */
    const uint64_t s3[] = {0, 1000};
    const double g3[] = {0.1, 0.2};
    assert_int_equal(hc_platform_set_gap_table(p, 2, 0, 2, s3, g3), HC_OK);
    ASSERT_DBL(hc_platform_gap(p, 2, 0, 500), 0.15, EPS);
    ASSERT_DBL(hc_platform_gap(p, 2, 0, 0), 0.0, EPS); /* nothing sent */
    /* replacing a table */
    assert_int_equal(hc_platform_set_gap_table(p, 0, 1, 2, s2, g2), HC_OK);
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 150), 0.75, EPS);
    /* bad tables */
    const uint64_t sb[] = {200, 100};
    const double gb[] = {0.1, -1};
    assert_int_equal(hc_platform_set_gap_table(p, 0, 1, 2, sb, g2), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "strictly increasing"));
    assert_int_equal(hc_platform_set_gap_table(p, 0, 1, 2, s2, gb), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "gap_s[1]"));
    assert_int_equal(hc_platform_set_gap_table(p, 0, 1, 0, s2, g2), HC_ERR_VALUE);
    assert_int_equal(hc_platform_set_gap_table(p, 0, 0, 2, s2, g2), HC_ERR_INVAL);
    assert_int_equal(hc_platform_set_gap_table(p, 0, 3, 2, s2, g2), HC_ERR_INVAL);
    hc_platform_destroy(p);
}

static void test_cost_matrices(void **state)
{
    (void)state;
    hc_platform_t *p = load("platform_matrix.json");
    hc_matrix_t *c = NULL, *s = NULL, *cs = NULL;
    assert_int_equal(hc_cost_uniform(p, HC_MODEL_HOCKNEY, 1000000, &c), HC_OK);
    assert_int_equal(c->rows, 4);
    assert_int_equal(c->cols, 4);
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t j = 0; j < 4; j++)
            ASSERT_DBL(HC_AT(c, i, j),
                       i == j ? 0.0
                              : hc_platform_latency(p, i, j) + 1e6 / hc_platform_bandwidth(p, i, j),
                       1e-12);
    /* 2 -> 0: 12 ms + 1e6 / 5e5 = 2.012 s */
    ASSERT_DBL(HC_AT(c, 2, 0), 2.012, 1e-12);
    /* per-pair sizes: zero size -> zero cost, diagonal ignored */
    assert_int_equal(hc_matrix_create(4, 4, 1000000, &s), HC_OK);
    HC_AT(s, 0, 1) = 0;
    HC_AT(s, 3, 3) = 12345;
    HC_AT(s, 1, 2) = 500000;
    assert_int_equal(hc_cost_sizes(p, HC_MODEL_PLOGP, s, &cs), HC_OK);
    ASSERT_DBL(HC_AT(cs, 0, 1), 0, 0);
    ASSERT_DBL(HC_AT(cs, 3, 3), 0, 0);
    ASSERT_DBL(HC_AT(cs, 1, 2), 0.011 + 0.5, 1e-12);
    ASSERT_DBL(HC_AT(cs, 2, 0), HC_AT(c, 2, 0), 0);
    hc_matrix_destroy(cs);
    cs = NULL;
    /* shape and value errors */
    hc_matrix_t *bad = NULL;
    assert_int_equal(hc_matrix_create(3, 4, 1, &bad), HC_OK);
    assert_int_equal(hc_cost_sizes(p, HC_MODEL_HOCKNEY, bad, &cs), HC_ERR_SHAPE);
    assert_non_null(strstr(hc_error_detail(), "size matrix is 3x4 but the platform has 4 nodes"));
    assert_null(cs);
    HC_AT(s, 2, 1) = -3;
    assert_int_equal(hc_cost_sizes(p, HC_MODEL_HOCKNEY, s, &cs), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "[2][1]"));
    HC_AT(s, 2, 1) = 1.5;
    assert_int_equal(hc_cost_sizes(p, HC_MODEL_HOCKNEY, s, &cs), HC_ERR_VALUE);
    assert_int_equal(hc_cost_uniform(p, (hc_model_t)9, 1, &cs), HC_ERR_INVAL);
    hc_matrix_destroy(bad);
    hc_matrix_destroy(s);
    hc_matrix_destroy(c);
    hc_platform_destroy(p);
}

/* pLogP on a cluster-form platform with a cluster-pair table, via the matrix API. */
static void test_plogp_matrix(void **state)
{
    (void)state;
    hc_platform_t *p = load("platform_gaps.json");
    hc_matrix_t *c = NULL;
    assert_int_equal(hc_cost_uniform(p, HC_MODEL_PLOGP, 3000, &c), HC_OK);
    ASSERT_DBL(HC_AT(c, 0, 1), 0.001 + 0.0035, EPS);
    ASSERT_DBL(HC_AT(c, 1, 0), 0.001 + 0.003, EPS);
    double g = 0.0005 + (0.5 - 0.0005) * (3000.0 - 1024.0) / (1048576.0 - 1024.0);
    ASSERT_DBL(HC_AT(c, 0, 2), 0.002 + g, EPS);
    ASSERT_DBL(HC_AT(c, 2, 1), 0.002 + 0.003, EPS);
    hc_matrix_destroy(c);
    hc_platform_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_names),   cmocka_unit_test(test_hockney),
        cmocka_unit_test(test_plogp_tables),  cmocka_unit_test(test_gap_setter),
        cmocka_unit_test(test_cost_matrices), cmocka_unit_test(test_plogp_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
