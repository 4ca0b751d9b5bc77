/* NWS-style forecasting (src/net/forecast.c): battery, adaptive choice, error estimates. */
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

#define MAXM 64

typedef struct run {
    double adaptive_mae;   /* MAE of the adaptive one-step forecasts */
    double best_mae;       /* best single method's MAE in hindsight */
    uint32_t best;         /* that method */
    uint32_t final_choice; /* adaptive choice after the last sample */
    double est_mean;       /* mean error estimate over the second half */
    double true_rms;       /* RMS of the adaptive errors over the second half */
    double true_mae;       /* MAE of the adaptive errors over the second half */
} run_t;

static run_t run_series(const double *x, size_t n, hc_forecast_metric_t metric)
{
    uint32_t M = hc_forecast_method_count();
    assert_true(M <= MAXM);
    double mae[MAXM] = {0};
    hc_forecast_opts_t o;
    hc_forecast_opts_init(&o);
    o.metric = metric;
    hc_forecaster_t *f = NULL;
    assert_int_equal(hc_forecaster_create(&o, &f), HC_OK);
    run_t r = {0};
    double sq2 = 0, ab2 = 0, est2 = 0;
    size_t n2 = 0;
    for (size_t t = 0; t < n; t++) {
        if (t > 0) {
            hc_forecast_t fc;
            assert_int_equal(hc_forecaster_predict(f, &fc), HC_OK);
            assert_int_equal(fc.samples, t);
            double e = fabs(x[t] - fc.value);
            r.adaptive_mae += e;
            for (uint32_t k = 0; k < M; k++) {
                double v;
                assert_int_equal(hc_forecaster_method(f, k, &v, NULL, NULL), HC_OK);
                mae[k] += fabs(x[t] - v);
            }
            if (t >= n / 2) {
                assert_true(isfinite(fc.error) && fc.error >= 0);
                sq2 += e * e;
                ab2 += e;
                est2 += fc.error;
                n2++;
            }
        }
        assert_int_equal(hc_forecaster_update(f, x[t]), HC_OK);
    }
    r.adaptive_mae /= (double)(n - 1);
    r.best = 0;
    for (uint32_t k = 0; k < M; k++)
        if (mae[k] < mae[r.best])
            r.best = k;
    r.best_mae = mae[r.best] / (double)(n - 1);
    hc_forecast_t fc;
    assert_int_equal(hc_forecaster_predict(f, &fc), HC_OK);
    r.final_choice = fc.method;
    r.est_mean = est2 / (double)n2;
    r.true_rms = sqrt(sq2 / (double)n2);
    r.true_mae = ab2 / (double)n2;
    hc_forecaster_destroy(f);
    return r;
}

static void test_battery_names(void **state)
{
    (void)state;
    uint32_t M = hc_forecast_method_count();
    assert_true(M >= 10);
    int have_last = 0, have_median = 0, have_exp = 0, have_trim = 0, have_wmean = 0;
    for (uint32_t k = 0; k < M; k++) {
        const char *s = hc_forecast_method_name(k);
        assert_non_null(s);
        have_last |= strcmp(s, "last") == 0;
        have_median |= strncmp(s, "median-", 7) == 0;
        have_exp |= strncmp(s, "exp-", 4) == 0;
        have_trim |= strncmp(s, "trimmed-mean", 12) == 0;
        have_wmean |= strncmp(s, "window-mean-", 12) == 0;
    }
    assert_true(have_last && have_median && have_exp && have_trim && have_wmean);
    assert_null(hc_forecast_method_name(M));
}

static void test_constant(void **state)
{
    (void)state;
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = 5.0;
    run_t r = run_series(x, 100, HC_FORECAST_MSE);
    assert_true(r.adaptive_mae < 1e-12);
    assert_true(r.est_mean < 1e-12);
    hc_forecaster_t *f = NULL;
    assert_int_equal(hc_forecaster_create(NULL, &f), HC_OK);
    assert_int_equal(hc_forecaster_update(f, 5.0), HC_OK);
    hc_forecast_t fc;
    assert_int_equal(hc_forecaster_predict(f, &fc), HC_OK);
    assert_true(fc.value == 5.0);
    assert_true(isnan(fc.error)); /* nothing checked yet */
    for (uint32_t k = 0; k < hc_forecast_method_count(); k++) {
        double v;
        assert_int_equal(hc_forecaster_method(f, k, &v, NULL, NULL), HC_OK);
        assert_true(v == 5.0);
    }
    hc_forecaster_destroy(f);
}

static void test_noisy(void **state)
{
    (void)state;
    enum { N = 3000 };
    double *x = malloc(N * sizeof *x);
    assert_non_null(x);
    hc_rng_t rng;
    hc_rng_seed(&rng, 7);
    for (int i = 0; i < N; i++)
        x[i] = 10.0 + hc_rng_normal(&rng);
    for (int m = 0; m < 2; m++) {
        run_t r = run_series(x, N, m ? HC_FORECAST_MAE : HC_FORECAST_MSE);
        /* Adaptive within 5% of the best in hindsight; the choice is a smoothing method. */
        assert_true(r.adaptive_mae <= 1.05 * r.best_mae);
        const char *c = hc_forecast_method_name(r.final_choice);
        assert_true(strcmp(c, "last") != 0 && strcmp(c, "median-5") != 0);
        /* Error estimate tracks the true error (N(0,1): RMS ~ 1, MAE ~ 0.8). */
        double truth = m ? r.true_mae : r.true_rms;
        assert_true(r.est_mean > 0.8 * truth && r.est_mean < 1.25 * truth);
    }
    free(x);
}

static void test_step_change(void **state)
{
    (void)state;
    enum { N = 400 };
    double x[N];
    hc_rng_t rng;
    hc_rng_seed(&rng, 3);
    for (int i = 0; i < N; i++)
        x[i] = (i < 200 ? 1.0 : 5.0) + 0.05 * hc_rng_normal(&rng);
    hc_forecaster_t *f = NULL;
    assert_int_equal(hc_forecaster_create(NULL, &f), HC_OK);
    double est_before = 0, est_after = 0;
    for (int i = 0; i < N; i++) {
        hc_forecast_t fc;
        if (i > 0)
            assert_int_equal(hc_forecaster_predict(f, &fc), HC_OK);
        if (i == 199)
            est_before = fc.error;
        if (i == 205)
            est_after = fc.error;
        if (i >= 240) /* 40 samples after the step, the forecast follows the new level */
            assert_true(fabs(fc.value - 5.0) < 0.3);
        assert_int_equal(hc_forecaster_update(f, x[i]), HC_OK);
    }
    /* The estimate reacts to the step. */
    assert_true(est_after > 5 * est_before);
    hc_forecaster_destroy(f);
    run_t r = run_series(x, N, HC_FORECAST_MAE);
    assert_true(r.adaptive_mae <= 1.5 * r.best_mae);
}

static void test_periodic(void **state)
{
    (void)state;
    enum { N = 1000 };
    double x[N];
    hc_rng_t rng;
    hc_rng_seed(&rng, 11);
    for (int i = 0; i < N; i++)
        x[i] = 2.0 + sin(2 * 3.14159265358979323846 * i / 25.0) + 0.02 * hc_rng_normal(&rng);
    run_t r = run_series(x, N, HC_FORECAST_MSE);
    assert_true(r.adaptive_mae <= 1.1 * r.best_mae);
    /* A long-window mean would be far off: the choice follows the fast methods. */
    const char *c = hc_forecast_method_name(r.final_choice);
    assert_true(strcmp(c, "mean") != 0 && strcmp(c, "window-mean-30") != 0);
    assert_true(r.est_mean > 0.7 * r.true_rms && r.est_mean < 1.4 * r.true_rms);
}

static void test_bad_input(void **state)
{
    (void)state;
    hc_forecaster_t *f = NULL;
    hc_forecast_t fc;
    assert_int_equal(hc_forecaster_create(NULL, &f), HC_OK);
    assert_int_equal(hc_forecaster_predict(f, &fc), HC_ERR_VALUE);
    assert_int_equal(hc_forecaster_update(f, NAN), HC_ERR_VALUE);
    assert_int_equal(hc_forecaster_update(f, INFINITY), HC_ERR_VALUE);
    assert_int_equal(hc_forecaster_method(f, 0, NULL, NULL, NULL), HC_ERR_VALUE);
    assert_int_equal(hc_forecaster_update(f, 1.0), HC_OK);
    assert_int_equal(hc_forecaster_method(f, 999, NULL, NULL, NULL), HC_ERR_VALUE);
    hc_forecaster_destroy(f);
    hc_forecaster_destroy(NULL);
    hc_forecast_opts_t o;
    hc_forecast_opts_init(&o);
    o.error_gain = 0;
    assert_int_equal(hc_forecaster_create(&o, &f), HC_ERR_VALUE);
    hc_forecast_metric_t m;
    assert_int_equal(hc_forecast_metric_parse("mae", &m), HC_OK);
    assert_int_equal(m, HC_FORECAST_MAE);
    assert_int_equal(hc_forecast_metric_parse("rmse", &m), HC_ERR_UNKNOWN);
    assert_non_null(strstr(hc_error_detail(), "mse, mae"));
}

/* Long series: state stays bounded and the window methods only see the last values. */
static void test_window_forgets(void **state)
{
    (void)state;
    hc_forecaster_t *f = NULL;
    assert_int_equal(hc_forecaster_create(NULL, &f), HC_OK);
    for (int i = 0; i < 100000; i++)
        assert_int_equal(hc_forecaster_update(f, i < 99969 ? 100.0 : 1.0), HC_OK);
    /* The last 31 values are 1.0. */
    for (uint32_t k = 0; k < hc_forecast_method_count(); k++) {
        const char *s = hc_forecast_method_name(k);
        double v;
        assert_int_equal(hc_forecaster_method(f, k, &v, NULL, NULL), HC_OK);
        if (strncmp(s, "median-", 7) == 0 || strncmp(s, "window-mean-", 12) == 0 ||
            strncmp(s, "trimmed", 7) == 0 || strcmp(s, "last") == 0)
            assert_true(fabs(v - 1.0) < 1e-9);
    }
    hc_forecaster_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_battery_names),  cmocka_unit_test(test_constant),
        cmocka_unit_test(test_noisy),          cmocka_unit_test(test_step_change),
        cmocka_unit_test(test_periodic),       cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_window_forgets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
