/* SVG timing diagram of a schedule, in the style of the figures of 000: one column per node,
 * time running downward, each event a rectangle in the sender's column labelled with its
 * destination. Column width, label size and tick density adapt so that P = 100 stays readable.
 * Redistribution steps are drawn as horizontal bands; bcast events are coloured by segment
 * (the redundant TTCC tree darker); reduce labels read "->dst". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* A "nice" tick step (1, 2 or 5 x 10^k) giving about `want` ticks over `span`. */
static double nice_step(double span, int want)
{
    if (!(span > 0))
        return 1;
    double raw = span / want, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

/* Time with a unit suited to the scale of the diagram. */
static void fmt_time(char *buf, size_t len, double t, double scale)
{
    if (scale >= 1)
        snprintf(buf, len, "%.4g s", t);
    else if (scale >= 1e-3)
        snprintf(buf, len, "%.4g ms", t * 1e3);
    else
        snprintf(buf, len, "%.4g us", t * 1e6);
}

static void fill_colour(char *buf, size_t len, const hc_schedule_t *s, const hc_event_t *e)
{
    double hue;
    int light = 72;
    switch (s->coll) {
    case HC_COLL_BCAST:
        hue = s->n_segments > 1 ? fmod(e->seg * 47.0, 360.0) : 210;
        if (e->tree)
            light = 50;
        break;
    case HC_COLL_REDISTRIBUTE:
        hue = fmod(e->step * 67.0, 360.0);
        break;
    case HC_COLL_REDUCE:
        hue = 30;
        break;
    default:
        hue = s->P ? 360.0 * e->dst / s->P : 0;
    }
    snprintf(buf, len, "hsl(%.0f,60%%,%d%%)", hue, light);
}

int cli_svg_schedule(FILE *f, const hc_schedule_t *s, const char *title)
{
    const uint32_t P = s->P ? s->P : 1;
    double ms = s->makespan;
    for (size_t i = 0; i < s->n_events; i++)
        if (isfinite(s->events[i].end) && s->events[i].end > ms)
            ms = s->events[i].end;
    if (!(ms > 0))
        ms = 1;
    const double left = 80, top = 90, plot_h = P > 40 ? 900 : 700, bottom = 30, right = 20;
    double colw = 1400.0 / P;
    if (colw > 70)
        colw = 70;
    if (colw < 8)
        colw = 8;
    const double width = left + colw * P + right;
    const double total_w = width < 760 ? 760 : width;
    const double height = top + plot_h + bottom;
    const double font = colw * 0.55 < 11 ? colw * 0.55 : 11;
    const int labels = font >= 5;
    const double scale_y = plot_h / ms;

    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
            total_w, height, total_w, height);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", total_w,
            height);
    /* header */
    fputs("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", f);
    xml_text(f, title ? title : "schedule");
    fputs("</text>\n", f);
    char a[64], b[64];
    fmt_time(a, sizeof a, s->makespan, ms);
    if (isnan(s->lower_bound))
        snprintf(b, sizeof b, "unknown");
    else
        fmt_time(b, sizeof b, s->lower_bound, ms);
    fprintf(f,
            "<text x=\"10\" y=\"42\" font-size=\"12\">%s, %s, P=%u, %zu events: makespan %s, "
            "lower bound %s",
            hc_coll_name(s->coll), s->algorithm, s->P, s->n_events, a, b);
    if (!isnan(s->lower_bound) && s->lower_bound > 0)
        fprintf(f, " (ratio %.4f)", s->makespan / s->lower_bound);
    fputs("</text>\n", f);
    if (s->coll == HC_COLL_REDISTRIBUTE)
        fprintf(f,
                "<text x=\"10\" y=\"58\" font-size=\"11\">n1=%u n2=%u k=%u beta=%.4g s, %zu "
                "steps (bands); a transfer is drawn in the sender's column (labelled with the "
                "receiver) and, lighter, in the receiver's column"
                "</text>\n",
                s->n1, s->n2, s->k, s->beta, s->n_steps);
    else
        fprintf(f,
                "<text x=\"10\" y=\"58\" font-size=\"11\">one column per node, time downward;"
                " each rectangle is a send in the sender's column, labelled with its "
                "destination%s%s</text>\n",
                s->coll == HC_COLL_BCAST && s->n_segments > 1 ? "; colour = segment" : "",
                s->parent2 ? "; dark = redundant tree T1 (TTCC)" : "");

    /* redistribution steps: horizontal bands */
    for (size_t k = 0; s->coll == HC_COLL_REDISTRIBUTE && k < s->n_steps; k++) {
        double y = top + s->steps[k].start * scale_y, h = s->steps[k].duration * scale_y;
        fprintf(f,
                "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\" "
                "stroke=\"#bbb\" stroke-width=\"0.5\"/>\n",
                left, y, colw * P, h > 0.3 ? h : 0.3, k % 2 ? "#f3f3f3" : "#e6eef8");
        if (h >= 11)
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.2f\" font-size=\"9\" fill=\"#555\" "
                    "text-anchor=\"end\">step %zu</text>\n",
                    left + colw * P - 3, y + 10, k);
    }
    /* columns and node ids */
    int every = (int)ceil(12.0 / colw);
    for (uint32_t i = 0; i < P; i++) {
        double x = left + colw * i;
        if (s->coll != HC_COLL_REDISTRIBUTE && i % 2 == 1)
            fprintf(f,
                    "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\" "
                    "fill=\"#f7f7f7\"/>\n",
                    x, top, colw, plot_h);
        if (i % (uint32_t)every == 0)
            fprintf(f,
                    "<text x=\"%.2f\" y=\"%.0f\" font-size=\"%.1f\" "
                    "text-anchor=\"middle\">%u</text>\n",
                    x + colw / 2, top - 6, colw < 14 ? 8.0 : 10.0, i);
    }
    if (s->coll == HC_COLL_REDISTRIBUTE && s->n1 < P)
        fprintf(f,
                "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#333\" "
                "stroke-dasharray=\"4,3\"/>\n",
                left + colw * s->n1, top - 20, left + colw * s->n1, top + plot_h);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">node</text>\n",
            left - 4, top - 6);
    /* time axis */
    double step = nice_step(ms, 10);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left,
            top, left, top + plot_h);
    for (int t = 0; t * step <= ms * (1 + 1e-9) && t < 1000; t++) {
        double y = top + t * step * scale_y;
        char lab[64];
        fmt_time(lab, sizeof lab, t * step, ms);
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"black\"/>"
                "<text x=\"%.0f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"end\">%s</text>\n",
                left - 5, y, left, y, left - 7, y + 3.5, lab);
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#ddd\" "
                "stroke-width=\"0.5\"/>\n",
                left, y, left + colw * P, y);
    }
    /* makespan line */
    fprintf(f,
            "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"red\" "
            "stroke-dasharray=\"6,3\"/>\n",
            left, top + s->makespan * scale_y, left + colw * P, top + s->makespan * scale_y);
    if (!isnan(s->lower_bound) && s->lower_bound > 0)
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"green\" "
                "stroke-dasharray=\"2,3\"/>\n",
                left, top + s->lower_bound * scale_y, left + colw * P,
                top + s->lower_bound * scale_y);
    /* events */
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (!isfinite(e->start) || !isfinite(e->end) || e->src >= P)
            continue;
        double x = left + colw * e->src + (colw > 6 ? 1 : 0);
        double w = colw > 6 ? colw - 2 : colw;
        double y = top + e->start * scale_y, h = (e->end - e->start) * scale_y;
        if (h < 0.5)
            h = 0.5;
        char fill[48];
        fill_colour(fill, sizeof fill, s, e);
        if (s->coll == HC_COLL_REDISTRIBUTE && e->dst < P) {
            /* the receiving side, lighter, labelled with the sender */
            double xr = left + colw * e->dst + (colw > 6 ? 1 : 0);
            fprintf(f,
                    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                    "fill-opacity=\"0.45\" stroke=\"#777\" stroke-width=\"0.3\"/>\n",
                    xr, y, w, h, fill);
            if (labels && h >= font + 1)
                fprintf(f,
                        "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" fill=\"#444\" "
                        "text-anchor=\"middle\">%u</text>\n",
                        xr + w / 2, y + h / 2 + font * 0.35, font, e->src);
        }
        fprintf(f,
                "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                "stroke=\"#333\" stroke-width=\"0.4\"><title>%u -&gt; %u: %.6g .. %.6g s, %llu "
                "B</title></rect>\n",
                x, y, w, h, fill, e->src, e->dst, e->start, e->end, (unsigned long long)e->bytes);
        if (!labels || h < font + 1)
            continue;
        char lab[32];
        if (s->coll == HC_COLL_REDUCE)
            snprintf(lab, sizeof lab, "-&gt;%u", e->dst);
        else
            snprintf(lab, sizeof lab, "%u", e->dst);
        double fs = font;
        size_t nchar = strlen(lab) - (s->coll == HC_COLL_REDUCE ? 3 : 0);
        if (fs * 0.6 * (double)nchar > w) {
            /* too wide: write it vertically when the rectangle is tall enough */
            double vfs = w * 0.8 < 11 ? w * 0.8 : 11;
            if (vfs >= 5 && h >= vfs * 0.6 * (double)nchar + 2) {
                double cx = x + w / 2 + vfs * 0.35, cy = y + h / 2;
                fprintf(f,
                        "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"middle\" "
                        "transform=\"rotate(-90 %.2f %.2f)\">%s</text>\n",
                        cx, cy, vfs, cx, cy, lab);
                continue;
            }
            fs = w / (0.6 * (double)nchar);
        }
        if (fs < 5)
            continue;
        fprintf(f,
                "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                x + w / 2, y + h / 2 + fs * 0.35, fs, lab);
    }
    fputs("</svg>\n", f);
    return ferror(f) ? HC_ERR_IO : 0;
}
