/* NWS-style adaptive forecasting (Wolski's Network Weather Service, as used by 000 §3.1 and
 * 002): a fixed battery of predictors, selection by lowest cumulative error (MSE or MAE),
 * a recent-error estimate per forecast. O(WMAX) per update, O(WMAX) memory per series. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net_internal.h"

#define WMAX 31 /* largest window in the battery */

typedef enum { M_LAST, M_MEAN, M_WMEAN, M_MEDIAN, M_EXP, M_TRIM } kind_t;

typedef struct method {
    const char *name;
    kind_t kind;
    uint32_t window; /* windows; index into the sorted windows for M_MEDIAN / M_TRIM */
    double gain;     /* M_EXP */
    int slot;        /* M_MEDIAN/M_TRIM: sorted window slot; M_EXP: smoother slot */
} method_t;

static const uint32_t sorted_windows[] = {5, 11, 31};
#define NSORTED 3
static const double exp_gains[] = {0.05, 0.1, 0.25, 0.5};
#define NEXP 4

static const method_t methods[] = {
    {"last", M_LAST, 1, 0, 0},
    {"mean", M_MEAN, 0, 0, 0},
    {"window-mean-5", M_WMEAN, 5, 0, 0},
    {"window-mean-10", M_WMEAN, 10, 0, 0},
    {"window-mean-30", M_WMEAN, 30, 0, 0},
    {"median-5", M_MEDIAN, 5, 0, 0},
    {"median-11", M_MEDIAN, 11, 0, 1},
    {"median-31", M_MEDIAN, 31, 0, 2},
    {"exp-0.05", M_EXP, 0, 0.05, 0},
    {"exp-0.1", M_EXP, 0, 0.1, 1},
    {"exp-0.25", M_EXP, 0, 0.25, 2},
    {"exp-0.5", M_EXP, 0, 0.5, 3},
    {"trimmed-mean-31", M_TRIM, 31, 0.2, 2},
};
#define NM (sizeof methods / sizeof methods[0])

struct hc_forecaster {
    hc_forecast_opts_t o;
    uint64_t n;        /* samples seen */
    double ring[WMAX]; /* sample t at ring[t % WMAX] */
    double mean;       /* running mean */
    double es[NEXP];   /* exponential smoothers */
    double sorted[NSORTED][WMAX];
    uint32_t ns[NSORTED];
    double cum[NM];  /* cumulative squared / absolute error */
    double ewma[NM]; /* recent squared / absolute error */
};

void hc_forecast_opts_init(hc_forecast_opts_t *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = (uint32_t)sizeof *opts;
    opts->metric = HC_FORECAST_MSE;
    opts->error_gain = 0.1;
}

int hc_forecast_metric_parse(const char *s, hc_forecast_metric_t *out)
{
    if (!s || !out)
        return hc__error(HC_ERR_INVAL, "forecast metric: NULL argument");
    if (strcmp(s, "mse") == 0)
        *out = HC_FORECAST_MSE;
    else if (strcmp(s, "mae") == 0)
        *out = HC_FORECAST_MAE;
    else
        return hc__error(HC_ERR_UNKNOWN, "forecast error metric '%s': valid are mse, mae", s);
    return HC_OK;
}

uint32_t hc_forecast_method_count(void)
{
    return (uint32_t)NM;
}

const char *hc_forecast_method_name(uint32_t k)
{
    return k < NM ? methods[k].name : NULL;
}

int hc_forecaster_create(const hc_forecast_opts_t *opts, hc_forecaster_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_forecaster_create: out is NULL");
    *out = NULL;
    hc_forecast_opts_t o;
    hc_forecast_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_forecast_opts_t"));
    if (o.metric != HC_FORECAST_MSE && o.metric != HC_FORECAST_MAE)
        return hc__error(HC_ERR_VALUE, "forecast: unknown error metric %d", (int)o.metric);
    if (!(o.error_gain > 0 && o.error_gain <= 1))
        return hc__error(HC_ERR_VALUE, "forecast: error_gain = %g: must be in (0, 1]",
                         o.error_gain);
    hc_forecaster_t *f = hc__calloc(1, sizeof *f);
    if (!f)
        return hc__error(HC_ERR_NOMEM, "forecast: out of memory");
    f->o = o;
    *out = f;
    return HC_OK;
}

void hc_forecaster_destroy(hc_forecaster_t *f)
{
    free(f);
}

/* Mean of the last min(n, w) samples. */
static double window_mean(const hc_forecaster_t *f, uint32_t w)
{
    uint64_t k = f->n < w ? f->n : w;
    double s = 0;
    for (uint64_t t = f->n - k; t < f->n; t++)
        s += f->ring[t % WMAX];
    return s / (double)k;
}

static double sorted_median(const double *a, uint32_t n)
{
    return n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
}

static double sorted_trimmed(const double *a, uint32_t n, double trim)
{
    uint32_t cut = (uint32_t)floor(trim * n);
    double s = 0;
    for (uint32_t i = cut; i < n - cut; i++)
        s += a[i];
    return s / (double)(n - 2 * cut);
}

static double method_forecast(const hc_forecaster_t *f, uint32_t k)
{
    const method_t *m = &methods[k];
    switch (m->kind) {
    case M_LAST:
        return f->ring[(f->n - 1) % WMAX];
    case M_MEAN:
        return f->mean;
    case M_WMEAN:
        return window_mean(f, m->window);
    case M_MEDIAN:
        return sorted_median(f->sorted[m->slot], f->ns[m->slot]);
    case M_EXP:
        return f->es[m->slot];
    case M_TRIM:
        return sorted_trimmed(f->sorted[m->slot], f->ns[m->slot], m->gain);
    }
    return NAN;
}

/* Remove one occurrence of v from the sorted array a[0..*n), insert x. */
static void sorted_replace(double *a, uint32_t *n, int remove, double v, double x)
{
    if (remove) {
        uint32_t lo = 0, hi = *n;
        while (lo < hi) { /* first index with a[i] >= v */
            uint32_t mid = (lo + hi) / 2;
            if (a[mid] < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < *n) {
            memmove(a + lo, a + lo + 1, (size_t)(*n - lo - 1) * sizeof *a);
            (*n)--;
        }
    }
    uint32_t i = *n;
    while (i > 0 && a[i - 1] > x) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = x;
    (*n)++;
}

int hc_forecaster_update(hc_forecaster_t *f, double x)
{
    if (!f)
        return hc__error(HC_ERR_INVAL, "hc_forecaster_update: forecaster is NULL");
    if (!isfinite(x))
        return hc__error(HC_ERR_VALUE, "forecast: measurement %g is not finite", x);
    /* Errors are squared and summed: beyond 1e100 they would overflow to infinity. */
    if (fabs(x) > 1e100)
        return hc__error(HC_ERR_VALUE, "forecast: measurement %g is out of range (|x| <= 1e100)",
                         x);
    if (f->n > 0) {
        int first = f->n == 1;
        for (uint32_t k = 0; k < NM; k++) {
            double e = x - method_forecast(f, k);
            double v = f->o.metric == HC_FORECAST_MSE ? e * e : fabs(e);
            f->cum[k] += v;
            f->ewma[k] = first ? v : f->ewma[k] + f->o.error_gain * (v - f->ewma[k]);
        }
    }
    for (uint32_t s = 0; s < NSORTED; s++) {
        uint32_t w = sorted_windows[s];
        int full = f->n >= w;
        double old = full ? f->ring[(f->n - w) % WMAX] : 0;
        sorted_replace(f->sorted[s], &f->ns[s], full, old, x);
    }
    for (uint32_t g = 0; g < NEXP; g++)
        f->es[g] = f->n == 0 ? x : f->es[g] + exp_gains[g] * (x - f->es[g]);
    f->ring[f->n % WMAX] = x;
    f->n++;
    f->mean += (x - f->mean) / (double)f->n;
    return HC_OK;
}

static double estimate(const hc_forecaster_t *f, uint32_t k)
{
    if (f->n < 2)
        return NAN;
    return f->o.metric == HC_FORECAST_MSE ? sqrt(f->ewma[k]) : f->ewma[k];
}

int hc_forecaster_method(const hc_forecaster_t *f, uint32_t k, double *forecast, double *cum_error,
                         double *error_estimate)
{
    if (!f)
        return hc__error(HC_ERR_INVAL, "hc_forecaster_method: forecaster is NULL");
    if (k >= NM)
        return hc__error(HC_ERR_VALUE, "forecast: method %u out of range (%u methods)", k,
                         (unsigned)NM);
    if (f->n == 0)
        return hc__error(HC_ERR_VALUE, "forecast: no measurement yet");
    if (forecast)
        *forecast = method_forecast(f, k);
    if (cum_error)
        *cum_error = f->cum[k];
    if (error_estimate)
        *error_estimate = estimate(f, k);
    return HC_OK;
}

int hc_forecaster_predict(const hc_forecaster_t *f, hc_forecast_t *out)
{
    if (!f || !out)
        return hc__error(HC_ERR_INVAL, "hc_forecaster_predict: NULL argument");
    if (f->n == 0)
        return hc__error(HC_ERR_VALUE, "forecast: no measurement yet");
    uint32_t best = 0;
    for (uint32_t k = 1; k < NM; k++)
        if (f->cum[k] < f->cum[best])
            best = k;
    out->value = method_forecast(f, best);
    out->error = estimate(f, best);
    out->method = best;
    out->samples = f->n;
    return HC_OK;
}
