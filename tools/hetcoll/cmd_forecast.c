/* `hetcoll forecast`: run the NWS-style forecaster battery on a series. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_forecast(int argc, char **argv);

static void help(FILE *f)
{
    fprintf(
        f,
        "Usage: hetcoll forecast --series FILE [--error mse|mae] [--summary] [-o FILE]\n"
        "       hetcoll forecast --synthetic KIND [--length N] [--seed S] [--error mse|mae] ...\n\n"
        "Feed a series to the forecaster battery (last value, running mean, window means\n"
        "and medians, exponential smoothing, trimmed mean) and print, after each value, the\n"
        "adaptive forecast of the next one with its error estimate and the chosen method,\n"
        "then a summary: each method's one-step MAE and RMSE, the adaptive forecaster's, and\n"
        "the best single method in hindsight.\n\n"
        "Options:\n"
        "      --series FILE     one value per line, or \"time value\"; '#' starts a comment\n"
        "                        (\"-\" reads stdin)\n"
        "  -S, --synthetic KIND  constant, noisy, step or periodic (seeded)\n"
        "      --length N        synthetic length (default 1000)\n"
        "      --seed S          synthetic seed (default 1)\n"
        "  -e, --error M         selection metric: mse (default) or mae\n"
        "  -q, --summary         print the summary only\n"
        "  -o, --output FILE     write to FILE instead of stdout\n"
        "  -h, --help            this help\n"
        "Deprecated spellings, still accepted: -s (--series; -s is --schedule elsewhere),\n"
        "-n and --n (--length).\n\n"
        "Example:\n"
        "  hetcoll forecast --synthetic step --length 400 --summary\n");
}

typedef struct series {
    double *v;
    size_t n, cap;
} series_t;

static int push(series_t *s, double x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        double *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

/* One line of f into buf (without its newline): 1 read, 0 end of file, -1 longer than cap - 1
 * bytes, -2 a NUL byte (so neither a long line nor a device like /dev/zero passes silently). */
static int read_line(FILE *f, char *buf, size_t cap)
{
    size_t n = 0;
    int ch;
    while ((ch = getc(f)) != EOF && ch != '\n') {
        if (ch == '\0')
            return -2;
        if (n + 1 >= cap)
            return -1;
        buf[n++] = (char)ch;
    }
    buf[n] = '\0';
    return ch == EOF && n == 0 ? 0 : 1;
}

static int read_series(const char *path, series_t *s)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f)
        return cli_error("%s: cannot open: %s", path, strerror(errno));
    char line[4096];
    int lineno = 0, rc = CLI_OK, got;
    while ((got = read_line(f, line, sizeof line)) > 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        double vals[3];
        int nv = 0;
        char *q = line;
        for (;;) {
            while (isspace((unsigned char)*q) || *q == ',')
                q++;
            if (!*q)
                break;
            char *end;
            errno = 0;
            double x = strtod(q, &end);
            if (end == q || errno || !isfinite(x) || nv == 2) {
                rc = cli_error("%s:%d: expected \"value\" or \"time value\" (finite numbers)", path,
                               lineno);
                goto done;
            }
            vals[nv++] = x;
            q = end;
        }
        if (nv == 0)
            continue;
        if (push(s, vals[nv - 1]) != 0) {
            rc = cli_error("out of memory");
            goto done;
        }
    }
    if (got == -1)
        rc = cli_error("%s:%d: line longer than %zu bytes", path, lineno + 1, sizeof line - 1);
    else if (got == -2)
        rc = cli_error("%s:%d: NUL byte (not a text file)", path, lineno + 1);
    else if (s->n == 0)
        rc = cli_error("%s: no values", path);
done:
    if (f != stdin)
        fclose(f);
    return rc;
}

static int synthetic(const char *kind, size_t n, uint64_t seed, series_t *s)
{
    hc_rng_t rng;
    hc_rng_seed(&rng, seed);
    int k = strcmp(kind, "constant") == 0   ? 0
            : strcmp(kind, "noisy") == 0    ? 1
            : strcmp(kind, "step") == 0     ? 2
            : strcmp(kind, "periodic") == 0 ? 3
                                            : -1;
    if (k < 0)
        return cli_value_error("forecast",
                               "--synthetic '%s': valid are constant, noisy, step, periodic", kind);
    for (size_t t = 0; t < n; t++) {
        double x;
        switch (k) {
        case 0:
            x = 5.0;
            break;
        case 1:
            x = 10.0 + hc_rng_normal(&rng);
            break;
        case 2:
            x = (t < n / 2 ? 1.0 : 5.0) + 0.05 * hc_rng_normal(&rng);
            break;
        default:
            x = 2.0 + sin(2 * 3.14159265358979323846 * (double)t / 25.0) +
                0.02 * hc_rng_normal(&rng);
            break;
        }
        if (push(s, x) != 0)
            return cli_error("out of memory");
    }
    return CLI_OK;
}

int cmd_forecast(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"series", required_argument, NULL, 's'}, {"synthetic", required_argument, NULL, 'S'},
        {"length", required_argument, NULL, 'L'}, {"n", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 'x'},   {"error", required_argument, NULL, 'e'},
        {"summary", no_argument, NULL, 'q'},      {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    const char *cmd = "forecast";
    const char *path = NULL, *kind = NULL, *output = NULL;
    uint64_t n = 1000, seed = 1;
    int summary_only = 0;
    hc_forecast_opts_t o;
    hc_forecast_opts_init(&o);
    int c, li = -1; /* li: the long option's index, -1 after a short one */
    optind = 1;
    opterr = 0;
    for (; (c = getopt_long(argc, argv, ":s:S:n:e:qo:h", longopts, &li)) != -1; li = -1) {
        switch (c) {
        case 's':
            if (li < 0)
                cli_deprecated("forecast -s", "--series (-s means --schedule elsewhere)");
            path = optarg;
            break;
        case 'S':
            kind = optarg;
            break;
        case 'n':
            cli_deprecated(li < 0 ? "forecast -n" : "forecast --n", "--length");
            /* fall through */
        case 'L':
            if (cli_parse_u64(optarg, &n) != 0 || n < 2 || n > 100000000)
                return cli_value_error(cmd, "--length '%s': expected an integer in 2..1e8", optarg);
            break;
        case 'x':
            if (cli_parse_u64(optarg, &seed) != 0)
                return cli_value_error(cmd, "--seed '%s': expected an integer >= 0", optarg);
            break;
        case 'e':
            if (hc_forecast_metric_parse(optarg, &o.metric) != HC_OK)
                return cli_value_error(cmd, "--error '%s': valid are mse, mae", optarg);
            break;
        case 'q':
            summary_only = 1;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            help(stdout);
            return CLI_OK;
        default:
            return cli_bad_option(cmd, c, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (!path == !kind)
        return cli_usage_error(cmd, "give exactly one of --series FILE and --synthetic KIND");
    series_t s = {NULL, 0, 0};
    int rc = path ? read_series(path, &s) : synthetic(kind, (size_t)n, seed, &s);
    if (rc != CLI_OK) {
        free(s.v);
        return rc;
    }
    uint32_t M = hc_forecast_method_count();
    double *mae = calloc(M, sizeof *mae), *mse = calloc(M, sizeof *mse);
    hc_forecaster_t *fc = NULL;
    FILE *f = NULL;
    int st = HC_OK;
    if (!mae || !mse) {
        rc = cli_error("out of memory");
        goto done;
    }
    if ((st = hc_forecaster_create(&o, &fc)) != HC_OK) {
        rc = cli_fail(st, "forecast");
        goto done;
    }
    f = cli_open_output(output);
    if (!f) {
        rc = CLI_ERROR;
        goto done;
    }
    if (!summary_only)
        fprintf(f, "# t value forecast_next error_estimate method\n");
    double a_mae = 0, a_mse = 0;
    hc_forecast_t cur = {0, 0, 0, 0};
    for (size_t t = 0; t < s.n; t++) {
        double x = s.v[t];
        if (t > 0) {
            double e = x - cur.value;
            a_mae += fabs(e);
            a_mse += e * e;
            for (uint32_t k = 0; k < M; k++) {
                double v;
                hc_forecaster_method(fc, k, &v, NULL, NULL);
                mae[k] += fabs(x - v);
                mse[k] += (x - v) * (x - v);
            }
        }
        if ((st = hc_forecaster_update(fc, x)) != HC_OK ||
            (st = hc_forecaster_predict(fc, &cur)) != HC_OK) {
            rc = cli_fail(st, path ? path : "forecast");
            goto done;
        }
        if (!summary_only)
            fprintf(f, "%zu %.10g %.10g %.6g %s\n", t, x, cur.value, cur.error,
                    hc_forecast_method_name(cur.method));
    }
    double m = (double)(s.n > 1 ? s.n - 1 : 1);
    uint32_t best = 0;
    for (uint32_t k = 0; k < M; k++)
        if ((o.metric == HC_FORECAST_MAE ? mae[k] < mae[best] : mse[k] < mse[best]))
            best = k;
    fprintf(f, "%s# series: %s, %zu values, selection by %s\n", summary_only ? "" : "\n",
            path ? path : kind, s.n, o.metric == HC_FORECAST_MAE ? "MAE" : "MSE");
    fprintf(f, "# %-18s %12s %12s\n", "method", "MAE", "RMSE");
    for (uint32_t k = 0; k < M; k++)
        fprintf(f, "# %-18s %12.6g %12.6g%s\n", hc_forecast_method_name(k), mae[k] / m,
                sqrt(mse[k] / m), k == best ? "  <- best in hindsight" : "");
    fprintf(f, "# %-18s %12.6g %12.6g\n", "adaptive", a_mae / m, sqrt(a_mse / m));
    uint32_t bm = 0; /* best single by MAE */
    for (uint32_t k = 0; k < M; k++)
        if (mae[k] < mae[bm])
            bm = k;
    fprintf(f, "# adaptive MAE / best single MAE = %.4f (best single by MAE: %s, MAE %.6g)\n",
            mae[bm] > 0 ? a_mae / mae[bm] : 1.0, hc_forecast_method_name(bm), mae[bm] / m);
    fprintf(f, "# final choice: %s, next forecast %.10g +- %.6g\n",
            hc_forecast_method_name(cur.method), cur.value, cur.error);
done:
    if (f)
        rc = cli_close_output(f, rc);
    hc_forecaster_destroy(fc);
    free(mae);
    free(mse);
    free(s.v);
    return rc;
}
