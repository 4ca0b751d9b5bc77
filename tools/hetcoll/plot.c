/* Simple SVG line plots for the experiments: axes, ticks, a legend, optional log y.
 * Series stay distinguishable when there are many or when they coincide: each has its own
 * combination of colour (10), dash pattern (4) and marker shape (7), earlier series are drawn
 * wider so that a later one on top of them leaves their edges visible, and markers alternate
 * filled and hollow. Long titles wrap; long legend names are cut with "..". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pictures.h"

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
#define N_PALETTE (sizeof palette / sizeof palette[0])
static const char *dashes[] = {"", "8,4", "2,3", "10,3,2,3"};
#define N_DASH (sizeof dashes / sizeof dashes[0])
#define N_MARKER 7u

/* Marker `shape` of radius r at (x, y). */
static void marker(FILE *f, unsigned shape, double x, double y, double r, const char *col,
                   int hollow)
{
    char paint[96];
    snprintf(paint, sizeof paint, "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.3\"",
             hollow ? "white" : col, col);
    switch (shape % N_MARKER) {
    case 0:
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" %s/>\n", x, y, r, paint);
        break;
    case 1:
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x - r,
                y - r, 2 * r, 2 * r, paint);
        break;
    case 2: /* triangle up */
        fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" %s/>\n", x, y - 1.2 * r,
                x - 1.1 * r, y + 0.8 * r, x + 1.1 * r, y + 0.8 * r, paint);
        break;
    case 3: /* diamond */
        fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\" %s/>\n", x,
                y - 1.3 * r, x + 1.3 * r, y, x, y + 1.3 * r, x - 1.3 * r, y, paint);
        break;
    case 4: /* triangle down */
        fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" %s/>\n", x, y + 1.2 * r,
                x - 1.1 * r, y - 0.8 * r, x + 1.1 * r, y - 0.8 * r, paint);
        break;
    case 5: /* x */
        fprintf(f,
                "<path d=\"M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f\" stroke=\"%s\" "
                "stroke-width=\"1.8\"/>\n",
                x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r, col);
        break;
    default: /* + */
        fprintf(f,
                "<path d=\"M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f\" stroke=\"%s\" "
                "stroke-width=\"1.8\"/>\n",
                x - 1.2 * r, y, x + 1.2 * r, y, x, y - 1.2 * r, x, y + 1.2 * r, col);
    }
}

static int usable(double y, int log_y)
{
    return isfinite(y) && (!log_y || y > 0);
}

/* Write `text` centred at cx from baseline y in lines of at most max_chars; returns lines. */
static int centred_lines(FILE *f, double cx, double y, double fs, size_t max_chars,
                         const char *text)
{
    int lines = 0;
    const char *p = text;
    while (*p) {
        size_t cut = cli_wrap_cut(p, max_chars);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(cut < sizeof line ? cut : sizeof line - 1), p);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"middle\">", cx,
                y + lines * fs * 1.25, fs);
        xml_text(f, line);
        fputs("</text>\n", f);
        lines++;
        p += cut;
        while (*p == ' ')
            p++;
    }
    return lines;
}

int cli_plot_svg_styled(const char *path, const char *title, const char *xlabel, const char *ylabel,
                        const double *x, size_t n, const cli_series_t *series, size_t n_series,
                        int log_y, const cli_plot_style_t *styles)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    const double W = 760, L = 80, R = 210, B = 60;
    /* the title wraps at the picture's width (about 0.6 x 16 px per character) */
    const size_t title_chars = (size_t)((W - 20) / (0.6 * 16));
    size_t tlen = title ? strlen(title) : 0;
    int title_lines = tlen > title_chars ? 2 + (tlen > 2 * title_chars) : 1;
    const double T = 30 + 20.0 * title_lines;
    /* room for the legend: 18 px per series */
    double H = 480;
    if (T + 10 + 18.0 * (double)n_series + B > H)
        H = T + 10 + 18.0 * (double)n_series + B;
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
    centred_lines(f, W / 2, 26, 16, title_chars, title ? title : "");
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
                PX(v), T + ph, PX(v), T + ph + 5, PX(v), T + ph + 18, fabs(v) < 1e-12 * xs ? 0 : v);
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
    /* series: earlier ones wider, so that coinciding later ones leave them visible */
    for (size_t k = 0; k < n_series; k++) {
        size_t ci = k % N_PALETTE, di = k % N_DASH, mi = k % N_MARKER;
        if (styles && styles[k].colour > 0)
            ci = (size_t)(styles[k].colour - 1) % N_PALETTE;
        if (styles && styles[k].dash > 0)
            di = mi = (size_t)(styles[k].dash - 1);
        di %= N_DASH;
        const char *col = palette[ci], *dash = dashes[di];
        double sw = 3.2 - 0.2 * (double)k;
        if (sw < 1.3)
            sw = 1.3;
        int hollow = (int)(k % 2);
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
                fprintf(f,
                        "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s "
                        "points=\"",
                        col, sw, *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
            fprintf(f, "%s%.2f,%.2f", open ? " " : "", PX(x[i]), PY(v));
            open = 1;
        }
        if (open)
            fputs("\"/>\n", f);
        for (size_t i = 0; i < n; i++) {
            double y = series[k].y[i];
            if (isfinite(x[i]) && usable(y, log_y))
                marker(f, (unsigned)mi, PX(x[i]), PY(log_y ? log10(y) : y), 3.5, col, hollow);
        }
        /* legend entry: the line, its marker, the name (cut to the margin) */
        double ly = T + 10 + 18.0 * (double)k;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                "stroke-width=\"%.1f\"%s%s%s/>\n",
                L + pw + 10, ly, L + pw + 44, ly, col, sw, *dash ? " stroke-dasharray=\"" : "",
                dash, *dash ? "\"" : "");
        marker(f, (unsigned)mi, L + pw + 27, ly, 3.5, col, hollow);
        char name[64];
        const char *nm = series[k].name ? series[k].name : "";
        size_t maxc = (size_t)((R - 56) / (0.6 * 11));
        if (strlen(nm) > maxc && maxc < sizeof name)
            snprintf(name, sizeof name, "%.*s..", (int)maxc - 2, nm);
        else
            snprintf(name, sizeof name, "%s", nm);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">", L + pw + 50, ly + 4);
        xml_text(f, name);
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

int cli_plot_svg(const char *path, const char *title, const char *xlabel, const char *ylabel,
                 const double *x, size_t n, const cli_series_t *series, size_t n_series, int log_y)
{
    return cli_plot_svg_styled(path, title, xlabel, ylabel, x, n, series, n_series, log_y, NULL);
}
