/* Simple SVG line plots for the experiments: axes, ticks, a legend, optional log y. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
}

static double nice_step(double span, int want)
{
    if (!(span > 0))
        return 1;
    double raw = span / want, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static const char *palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static int usable(double y, int log_y)
{
    return isfinite(y) && (!log_y || y > 0);
}

int cli_plot_svg(const char *path, const char *title, const char *xlabel, const char *ylabel,
                 const double *x, size_t n, const cli_series_t *series, size_t n_series, int log_y)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    const double W = 760, H = 480, L = 80, R = 190, T = 50, B = 60;
    const double pw = W - L - R, ph = H - T - B;
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            continue;
        xmin = fmin(xmin, x[i]);
        xmax = fmax(xmax, x[i]);
        for (size_t k = 0; k < n_series; k++) {
            double y = series[k].y[i];
            if (!usable(y, log_y))
                continue;
            double v = log_y ? log10(y) : y;
            ymin = fmin(ymin, v);
            ymax = fmax(ymax, v);
        }
    }
    if (!isfinite(xmin)) {
        xmin = 0;
        xmax = 1;
    }
    if (!isfinite(ymin)) {
        ymin = 0;
        ymax = 1;
    }
    if (xmax == xmin) {
        xmin -= 0.5;
        xmax += 0.5;
    }
    if (log_y) {
        ymin = floor(ymin);
        ymax = ceil(ymax);
        if (ymax == ymin)
            ymax = ymin + 1;
    } else {
        if (ymin > 0 && ymin < 0.5 * ymax)
            ymin = 0;
        if (ymax == ymin) {
            ymax = ymin + (ymin != 0 ? fabs(ymin) * 0.1 : 1);
            ymin -= (ymin != 0 ? fabs(ymin) * 0.1 : 0);
        }
        double st = nice_step(ymax - ymin, 6);
        ymin = floor(ymin / st) * st;
        ymax = ceil(ymax / st) * st;
    }
#define PX(v) (L + ((v)-xmin) / (xmax - xmin) * pw)
#define PY(v) (T + ph - ((v)-ymin) / (ymax - ymin) * ph)
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
            W, H, W, H, W, H);
    fprintf(f, "<text x=\"%.0f\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">", L + pw / 2);
    xml_text(f, title);
    fputs("</text>\n", f);
    fprintf(f,
            "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
            "stroke=\"black\"/>\n",
            L, T, pw, ph);
    /* x ticks */
    double xs = nice_step(xmax - xmin, 8);
    for (double v = ceil(xmin / xs) * xs; v <= xmax + 1e-9 * xs; v += xs) {
        fprintf(f,
                "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"black\"/>"
                "<text x=\"%.2f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n",
                PX(v), T + ph, PX(v), T + ph + 5, PX(v), T + ph + 18, v);
    }
    /* y ticks */
    if (log_y) {
        for (double v = ymin; v <= ymax + 1e-9; v += 1)
            fprintf(f,
                    "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#ccc\"/>"
                    "<text x=\"%.0f\" y=\"%.2f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                    L, PY(v), L + pw, PY(v), L - 6, PY(v) + 4, pow(10, v));
    } else {
        double ys = nice_step(ymax - ymin, 6);
        for (double v = ymin; v <= ymax + 1e-9 * ys; v += ys)
            fprintf(f,
                    "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#ccc\"/>"
                    "<text x=\"%.0f\" y=\"%.2f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                    L, PY(v), L + pw, PY(v), L - 6, PY(v) + 4, fabs(v) < 1e-12 * ys ? 0 : v);
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\">", L + pw / 2,
            H - 18);
    xml_text(f, xlabel);
    fprintf(f,
            "</text>\n<text x=\"18\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 18 %.0f)\">",
            T + ph / 2, T + ph / 2);
    xml_text(f, ylabel);
    fputs(log_y ? " (log)</text>\n" : "</text>\n", f);
    /* series */
    for (size_t k = 0; k < n_series; k++) {
        const char *col = palette[k % (sizeof palette / sizeof palette[0])];
        int open = 0;
        for (size_t i = 0; i < n; i++) {
            double y = series[k].y[i];
            if (!isfinite(x[i]) || !usable(y, log_y)) {
                if (open)
                    fputs("\"/>\n", f);
                open = 0;
                continue;
            }
            double v = log_y ? log10(y) : y;
            if (!open)
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                        col);
            fprintf(f, "%s%.2f,%.2f", open ? " " : "", PX(x[i]), PY(v));
            open = 1;
        }
        if (open)
            fputs("\"/>\n", f);
        for (size_t i = 0; i < n; i++) {
            double y = series[k].y[i];
            if (isfinite(x[i]) && usable(y, log_y))
                fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"%s\"/>\n", PX(x[i]),
                        PY(log_y ? log10(y) : y), col);
        }
        double ly = T + 10 + 18.0 * (double)k;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                "stroke-width=\"2\"/><text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">",
                L + pw + 12, ly, L + pw + 36, ly, col, L + pw + 42, ly + 4);
        xml_text(f, series[k].name);
        fputs("</text>\n", f);
    }
#undef PX
#undef PY
    fputs("</svg>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        cli_error("%s: write error", path);
        return -1;
    }
    return 0;
}
