/* Forecasting of measurement series, after the Network Weather Service (NWS): a battery of
 * simple predictors runs side by side on each series, and the one with the lowest cumulative
 * error so far (MSE or MAE) gives the forecast. Every forecast carries an error estimate.
 *
 * The battery (hc_forecast_method_name lists it): last value; running mean; sliding-window
 * means (5, 10, 30); sliding-window medians (5, 11, 31); exponential smoothing (gains 0.05,
 * 0.1, 0.25, 0.5); 20%-trimmed mean over 31 values. State is bounded: a ring of the last 31
 * values and sorted copies of the median windows, so an update costs O(31), whatever the
 * length of the series.
 *
 * Error estimate of a forecast: the chosen method's exponentially weighted recent error,
 * sqrt(EWMA of squared errors) for MSE, EWMA of absolute errors for MAE (gain
 * opts.error_gain), where the errors are the method's own one-step-ahead errors. */
#ifndef HETCOLL_FORECAST_H
#define HETCOLL_FORECAST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    HC_FORECAST_MSE = 0, /* select by cumulative squared error, estimate = recent RMSE */
    HC_FORECAST_MAE = 1  /* select by cumulative absolute error, estimate = recent MAE */
} hc_forecast_metric_t;

typedef struct hc_forecast_opts {
    uint32_t struct_size; /* sizeof(hc_forecast_opts_t), set by hc_forecast_opts_init */
    hc_forecast_metric_t metric;
    double error_gain; /* EWMA gain of the error estimate, in (0, 1] */
} hc_forecast_opts_t;

/* Defaults: MSE, error_gain 0.1. */
void hc_forecast_opts_init(hc_forecast_opts_t *opts);

/* Parse "mse" / "mae" (case-sensitive). */
int hc_forecast_metric_parse(const char *s, hc_forecast_metric_t *out);

/* Number of methods in the battery, and the name of method k ("last", "mean",
 * "window-mean-5", "median-11", "exp-0.25", "trimmed-mean-31", ...; static strings, NULL when
 * k is out of range). */
uint32_t hc_forecast_method_count(void);
const char *hc_forecast_method_name(uint32_t k);

/* One series' forecaster (opaque). */
typedef struct hc_forecaster hc_forecaster_t;

/* opts NULL = defaults. Caller frees with hc_forecaster_destroy (NULL-safe). */
int hc_forecaster_create(const hc_forecast_opts_t *opts, hc_forecaster_t **out);
void hc_forecaster_destroy(hc_forecaster_t *f);

/* Feed the next measurement (finite). First scores every method's forecast of it, then
 * updates their state. O(window). */
int hc_forecaster_update(hc_forecaster_t *f, double value);

typedef struct hc_forecast {
    double value;     /* forecast of the next measurement */
    double error;     /* error estimate (same unit as value); NAN before any forecast was
                         checked against a measurement (fewer than 2 samples) */
    uint32_t method;  /* index of the chosen method */
    uint64_t samples; /* measurements seen */
} hc_forecast_t;

/* The adaptive forecast: the method with the lowest cumulative error (ties: lowest index).
 * HC_ERR_VALUE when no measurement was fed yet. */
int hc_forecaster_predict(const hc_forecaster_t *f, hc_forecast_t *out);

/* Method k's own forecast, cumulative error (sum of squared or absolute errors) and error
 * estimate. Any output pointer may be NULL. HC_ERR_VALUE before the first measurement. */
int hc_forecaster_method(const hc_forecaster_t *f, uint32_t k, double *forecast, double *cum_error,
                         double *error_estimate);

#ifdef __cplusplus
}
#endif
#endif
