/* SVG pictures of schedules (svg.c):
 *  - the timing diagram (Gantt chart): one row per node, time to the right, each send a
 *    rectangle in the sender's row labelled with its destination. Rows carry the node names of
 *    the platform and clusters are named bands on the left with boundary lines across the plot;
 *    above CLI_SVG_DENSE_COLUMNS nodes, rows are groups of consecutive nodes of one cluster
 *    shaded by how busy their nodes are. A legend explains colours and lines, subtitles wrap.
 *    Redistribution steps are vertical bands, the receiving side of each transfer is drawn
 *    lighter in the receiver's row; bcast colours by segment (the TTCC redundant tree darker);
 *    alltoall colours by the destination's cluster.
 *  - the demo's summary bars (cli_svg_bars). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pictures.h"

/* Average glyph width of the sans-serif font, as a fraction of the font size (DejaVu Sans,
 * which rsvg-convert uses on Debian, is about 0.6). Used to keep labels inside their space. */
#define GLYPH 0.6

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

/* Text that fits `width` px at font size `fs`: the whole string, or its start and "..". */
static void fit_text(char *buf, size_t len, const char *s, double width, double fs)
{
    size_t max = width > 0 ? (size_t)(width / (GLYPH * fs)) : 0, n = strlen(s);
    if (max >= len)
        max = len - 1;
    if (n <= max) {
        snprintf(buf, len, "%s", s);
    } else if (max >= 3) {
        snprintf(buf, len, "%.*s..", (int)(max - 2), s);
    } else {
        buf[0] = '\0';
    }
}

static double text_width(const char *s, double fs)
{
    return GLYPH * fs * (double)strlen(s);
}

size_t cli_wrap_cut(const char *p, size_t max)
{
    size_t n = strlen(p), cut = n;
    if (n > max) {
        cut = max;
        while (cut > 0 && p[cut] != ' ')
            cut--;
        if (cut == 0)
            cut = max;
    }
    return cut;
}

/* Write `text` as lines of at most `width` px (breaking at spaces) from baseline y; returns
 * the number of lines. */
static int wrap_text(FILE *f, double x, double y, double fs, double width, const char *text,
                     const char *attrs)
{
    size_t max = (size_t)(width / (GLYPH * fs));
    if (max < 10)
        max = 10;
    int lines = 0;
    const char *p = text;
    while (*p) {
        size_t cut = cli_wrap_cut(p, max);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(cut < sizeof line ? cut : sizeof line - 1), p);
        fprintf(f, "<text%s x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\">", attrs ? attrs : "", x,
                y + lines * fs * 1.3, fs);
        xml_text(f, line);
        fputs("</text>\n", f);
        lines++;
        p += cut;
        while (*p == ' ')
            p++;
    }
    return lines;
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

/* ------------------------------------------------------------------ the timing diagram */

/* Cluster colours (bands, alltoall destinations): 10 distinguishable light hues. */
static const char *band_fill[] = {"#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1",
                                  "#d9d9d9", "#fde0ef", "#e5f5e0", "#f2f0f7", "#fee6ce"};
static const char *dst_fill[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759",
                                 "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"};
#define N_COLOURS 10u

typedef struct diagram {
    const hc_schedule_t *s;
    const hc_platform_t *plat;
    const uint32_t *map; /* schedule node -> platform node, NULL = identity */
    uint32_t P, n_rows;
    int aggregated;
    uint32_t *row_of;     /* P: node -> row */
    uint32_t *row_first;  /* n_rows: first node of the row */
    uint32_t *row_count;  /* n_rows: nodes in the row (consecutive ids) */
    int32_t *cluster;     /* P: cluster index of each node, -1 none */
    uint32_t n_clusters;  /* distinct cluster indices used */
    const char *side[2];  /* redistribution without a platform: the two sides' names */
    uint64_t whole_bytes; /* segmented bcast: events of this size carry the whole message
                             (UINT64_MAX when none do) */
} diagram_t;

static uint32_t pnode(const diagram_t *d, uint32_t i)
{
    return d->map ? d->map[i] : i;
}

static void node_label(const diagram_t *d, uint32_t i, char *buf, size_t len)
{
    const char *n = d->plat ? hc_platform_node_name(d->plat, pnode(d, i)) : "";
    if (n && *n)
        snprintf(buf, len, "%s", n);
    else
        snprintf(buf, len, "%u", i);
}

static const char *cluster_name(const diagram_t *d, int32_t c)
{
    if (c < 0)
        return "";
    if (d->plat && hc_platform_cluster_count(d->plat) > 0)
        return hc_platform_cluster_name(d->plat, (uint32_t)c);
    return d->side[c & 1];
}

static void diagram_free(diagram_t *d)
{
    free(d->row_of);
    free(d->row_first);
    free(d->row_count);
    free(d->cluster);
}

static int diagram_init(diagram_t *d, const hc_schedule_t *s, const hc_platform_t *plat,
                        const uint32_t *map)
{
    memset(d, 0, sizeof *d);
    d->s = s;
    d->P = s->P ? s->P : 1;
    d->plat = plat && (!map || s->coll == HC_COLL_REDISTRIBUTE) ? plat : NULL;
    d->map = d->plat ? map : NULL;
    if (d->plat && !d->map && hc_platform_size(d->plat) != d->P)
        d->plat = NULL; /* not the schedule's platform */
    /* a segmented broadcast may also send the whole message (hierarchical: between
     * clusters): the largest events, when larger than some other and at least the pieces'
     * sum (ramped pieces differ in size: their largest is not the whole message) */
    uint64_t bmin = UINT64_MAX, bmax = 0, pieces = 0;
    uint64_t *piece = s->n_segments > 1 ? calloc(s->n_segments, sizeof *piece) : NULL;
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        bmin = e->bytes < bmin ? e->bytes : bmin;
        bmax = e->bytes > bmax ? e->bytes : bmax;
        if (piece && e->seg < s->n_segments && (!piece[e->seg] || e->bytes < piece[e->seg]))
            piece[e->seg] = e->bytes;
    }
    for (uint32_t j = 0; piece && j < s->n_segments; j++)
        pieces += piece[j];
    d->whole_bytes =
        s->n_segments > 1 && bmax > bmin && (!piece || bmax >= pieces) ? bmax : UINT64_MAX;
    free(piece);
    d->side[0] = "sending side";
    d->side[1] = "receiving side";
    uint32_t P = d->P;
    d->row_of = malloc(P * sizeof *d->row_of);
    d->row_first = malloc(P * sizeof *d->row_first);
    d->row_count = malloc(P * sizeof *d->row_count);
    d->cluster = malloc(P * sizeof *d->cluster);
    if (!d->row_of || !d->row_first || !d->row_count || !d->cluster) {
        diagram_free(d);
        return -1;
    }
    for (uint32_t i = 0; i < P; i++) {
        if (d->plat && hc_platform_cluster_count(d->plat) > 0)
            d->cluster[i] = hc_platform_cluster_of(d->plat, pnode(d, i));
        else if (s->coll == HC_COLL_REDISTRIBUTE && s->n1 > 0 && s->n1 < P)
            d->cluster[i] = i < s->n1 ? 0 : 1;
        else
            d->cluster[i] = -1;
        if (d->cluster[i] >= 0 && (uint32_t)d->cluster[i] + 1 > d->n_clusters)
            d->n_clusters = (uint32_t)d->cluster[i] + 1;
    }
    /* rows: one per node, or groups of at most g consecutive nodes of one cluster (and one
     * side of a redistribution) when there are too many nodes to draw one row each */
    d->aggregated = P > CLI_SVG_DENSE_COLUMNS;
    uint32_t g = d->aggregated ? (P + 63) / 64 : 1;
    uint32_t i = 0;
    while (i < P) {
        uint32_t j = i + 1;
        while (j < P && d->cluster[j] == d->cluster[i] &&
               !(s->coll == HC_COLL_REDISTRIBUTE && j == s->n1))
            j++;
        /* the run i..j-1 in ceil(len / g) nearly equal groups */
        uint32_t len = j - i, parts = (len + g - 1) / g;
        for (uint32_t k = 0; k < parts; k++) {
            uint32_t a = i + (uint32_t)((uint64_t)len * k / parts);
            uint32_t b = i + (uint32_t)((uint64_t)len * (k + 1) / parts);
            d->row_first[d->n_rows] = a;
            d->row_count[d->n_rows] = b - a;
            for (uint32_t v = a; v < b; v++)
                d->row_of[v] = d->n_rows;
            d->n_rows++;
        }
        i = j;
    }
    return 0;
}

static void row_label(const diagram_t *d, uint32_t r, char *buf, size_t len)
{
    char a[200], b[200];
    node_label(d, d->row_first[r], a, sizeof a);
    if (d->row_count[r] == 1) {
        snprintf(buf, len, "%s", a);
        return;
    }
    node_label(d, d->row_first[r] + d->row_count[r] - 1, b, sizeof b);
    snprintf(buf, len, "%s..%s", a, b);
}

/* The fill of event e (per-node rows). */
static void event_fill(const diagram_t *d, const hc_event_t *e, char *buf, size_t len)
{
    const hc_schedule_t *s = d->s;
    switch (s->coll) {
    case HC_COLL_BCAST:
        if (s->n_segments > 1 && e->bytes >= d->whole_bytes)
            snprintf(buf, len, "%s", "#6baed6");
        else if (s->n_segments > 1)
            snprintf(buf, len, "hsl(%.0f,60%%,%d%%)", fmod(20 + e->seg * 47.0, 360.0),
                     e->tree ? 45 : 68);
        else
            snprintf(buf, len, "%s", e->tree ? "#1f4e79" : "#6baed6");
        break;
    case HC_COLL_REDISTRIBUTE:
        snprintf(buf, len, "hsl(%.0f,60%%,65%%)", fmod(e->step * 67.0, 360.0));
        break;
    case HC_COLL_REDUCE:
        snprintf(buf, len, "#fdae6b");
        break;
    default:
        if (d->n_clusters > 0 && e->dst < d->P && d->cluster[e->dst] >= 0)
            snprintf(buf, len, "%s", dst_fill[(uint32_t)d->cluster[e->dst] % N_COLOURS]);
        else
            snprintf(buf, len, "hsl(%.0f,55%%,62%%)", d->P ? 360.0 * e->dst / d->P : 0);
    }
}

/* One legend item: a swatch (rect, or a line when dash is not NULL) and its text; returns the
 * x after it. */
static double legend_item(FILE *f, double x, double y, const char *fill, const char *stroke,
                          const char *dash, double opacity, const char *text)
{
    if (dash)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\" stroke-dasharray=\"%s\"/>\n",
                x, y - 4, x + 22, y - 4, stroke, dash);
    else
        fprintf(f,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"10\" fill=\"%s\" "
                "fill-opacity=\"%.2f\" stroke=\"%s\" stroke-width=\"0.5\"/>\n",
                x, y - 9, fill, opacity, stroke ? stroke : "#333");
    double tx = x + (dash ? 26 : 20);
    fprintf(f, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", tx, y);
    xml_text(f, text);
    fputs("</text>\n", f);
    return tx + text_width(text, 11) + 14;
}

/* The legend of the diagram from y on, wrapped at width; returns the height used. */
static double write_legend(FILE *f, const diagram_t *d, double x0, double y, double width)
{
    const hc_schedule_t *s = d->s;
    typedef struct item {
        const char *fill, *stroke, *dash;
        double opacity;
        char text[96];
    } item_t;
    item_t it[N_COLOURS + 8];
    size_t n = 0;
#define ADD(fl, st, da, op, ...)                                                                   \
    do {                                                                                           \
        it[n].fill = (fl);                                                                         \
        it[n].stroke = (st);                                                                       \
        it[n].dash = (da);                                                                         \
        it[n].opacity = (op);                                                                      \
        snprintf(it[n].text, sizeof it[n].text, __VA_ARGS__);                                      \
        n++;                                                                                       \
    } while (0)
    if (d->aggregated) {
        ADD("#3a6ea5", NULL, NULL, 0.25, "25%% of the row's nodes communicating");
        ADD("#3a6ea5", NULL, NULL, 0.6, "60%%");
        ADD("#3a6ea5", NULL, NULL, 1.0, "100%%");
    } else {
        switch (s->coll) {
        case HC_COLL_BCAST:
            if (s->n_segments > 1) {
                ADD("hsl(67,60%,68%)", NULL, NULL, 1, "send of one segment (colour = segment)");
                if (d->whole_bytes != UINT64_MAX)
                    ADD("#6baed6", NULL, NULL, 1, "send of the whole message");
            } else
                ADD("#6baed6", NULL, NULL, 1, "send of the message");
            if (s->parent2)
                ADD("#1f4e79", NULL, NULL, 1, "redundant tree T1 (TTCC)");
            break;
        case HC_COLL_REDISTRIBUTE:
            ADD("hsl(0,60%,65%)", NULL, NULL, 1, "transfer, sender's row (colour = step)");
            ADD("hsl(0,60%,65%)", "#777", NULL, 0.45, "the same transfer, receiver's row");
            ADD("#e6eef8", "#bbb", NULL, 1, "step (beta + longest transfer)");
            break;
        case HC_COLL_REDUCE:
            ADD("#fdae6b", NULL, NULL, 1, "send of the partial result (->receiver)");
            break;
        default:
            if (d->n_clusters > 0 && d->n_clusters <= N_COLOURS) {
                for (uint32_t c = 0; c < d->n_clusters; c++)
                    ADD(dst_fill[c], NULL, NULL, 1, "to %s", cluster_name(d, (int32_t)c));
            } else {
                ADD("hsl(120,55%,62%)", NULL, NULL, 1, "send (colour = destination)");
            }
        }
    }
    ADD(NULL, "red", "6,3", 1, "makespan");
    if (!isnan(s->lower_bound) && s->lower_bound > 0)
        ADD(NULL, "green", "2,3", 1, "lower bound");
#undef ADD
    double x = x0, line = 0;
    for (size_t k = 0; k < n; k++) {
        double w = (it[k].dash ? 26 : 20) + text_width(it[k].text, 11) + 14;
        if (x > x0 && x + w > x0 + width) {
            x = x0;
            line++;
        }
        x = legend_item(f, x, y + line * 16, it[k].fill, it[k].stroke, it[k].dash, it[k].opacity,
                        it[k].text);
    }
    return (line + 1) * 16;
}

/* Aggregated rows: share of each row's nodes communicating, per time bin. */
static int draw_activity(FILE *f, const diagram_t *d, double x0, double top, double rh,
                         double plot_w, double ms)
{
    const hc_schedule_t *s = d->s;
    uint32_t nb = (uint32_t)(plot_w / 2);
    if (nb < 1)
        nb = 1;
    double bw = ms / nb;
    double *snd = calloc((size_t)d->P * nb, sizeof *snd), *rcv = calloc((size_t)d->P * nb, 8);
    if (!snd || !rcv) {
        free(snd);
        free(rcv);
        return -1;
    }
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (!isfinite(e->start) || !isfinite(e->end) || e->end <= e->start || e->src >= d->P ||
            e->dst >= d->P)
            continue;
        uint32_t b0 = (uint32_t)fmin(nb - 1, floor(e->start / bw));
        uint32_t b1 = (uint32_t)fmin(nb - 1, floor(e->end / bw));
        for (uint32_t b = b0; b <= b1; b++) {
            double ov = fmin(e->end, (b + 1) * bw) - fmax(e->start, b * bw);
            if (ov > 0) {
                snd[(size_t)e->src * nb + b] += ov;
                rcv[(size_t)e->dst * nb + b] += ov;
            }
        }
    }
    for (uint32_t r = 0; r < d->n_rows; r++) {
        int prev = 0;
        uint32_t run = 0;
        for (uint32_t b = 0; b <= nb; b++) {
            int level = 0;
            if (b < nb) {
                double act = 0;
                for (uint32_t v = d->row_first[r]; v < d->row_first[r] + d->row_count[r]; v++)
                    act += fmin(1, fmax(snd[(size_t)v * nb + b], rcv[(size_t)v * nb + b]) / bw);
                act /= d->row_count[r];
                level = (int)lround(act * 10);
                if (level == 0 && act > 0)
                    level = 1;
            }
            if (b == nb || level != prev) {
                if (prev > 0)
                    fprintf(f,
                            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                            "fill=\"#3a6ea5\" fill-opacity=\"%.2f\"/>\n",
                            x0 + run * plot_w / nb, top + r * rh + 0.5, (b - run) * plot_w / nb,
                            rh - 1, prev / 10.0);
                prev = level;
                run = b;
            }
        }
    }
    free(snd);
    free(rcv);
    return 0;
}

int cli_svg_schedule_on(FILE *f, const hc_schedule_t *s, const hc_platform_t *plat,
                        const uint32_t *nodes, const char *title)
{
    diagram_t d;
    if (diagram_init(&d, s, plat, nodes) != 0)
        return HC_ERR_NOMEM;
    const uint32_t P = d.P, R = d.n_rows;
    double ms = s->makespan;
    for (size_t i = 0; i < s->n_events; i++)
        if (isfinite(s->events[i].end) && s->events[i].end > ms)
            ms = s->events[i].end;
    if (!isnan(s->lower_bound) && s->lower_bound > ms)
        ms = s->lower_bound;
    if (!(ms > 0))
        ms = 1;

    /* geometry: rows of rh px; labels thinned so that they never overlap */
    const double W = 1200, margin = 10;
    double rh = floor(880.0 / R);
    rh = rh > 22 ? 22 : rh < 4 ? 4 : rh;
    double label_fs = rh - 1 > 11 ? 11 : rh - 1;
    uint32_t every = 1;
    if (label_fs < 7) {
        label_fs = 7;
        every = (uint32_t)ceil(8.5 / rh);
    }
    size_t name_len = 1, cl_len = 0;
    char buf[512];
    for (uint32_t r = 0; r < R; r++) {
        row_label(&d, r, buf, sizeof buf);
        if (strlen(buf) > name_len)
            name_len = strlen(buf);
    }
    for (uint32_t c = 0; c < d.n_clusters; c++)
        if (strlen(cluster_name(&d, (int32_t)c)) > cl_len)
            cl_len = strlen(cluster_name(&d, (int32_t)c));
    const double band_w = d.n_clusters ? fmin(120, 10 + GLYPH * 11 * (double)cl_len) : 0;
    const double name_w = fmin(180, 8 + GLYPH * label_fs * (double)name_len);
    const double x0 = margin + band_w + name_w + 6, plot_w = W - x0 - 24;
    const double sx = plot_w / ms;

    /* header: title, wrapped subtitle, legend (measured by a dry run into /dev/null would
     * cost a second pass; the lines are counted as they are written instead) */
    char sub[1024], a[64], b[64];
    fmt_time(a, sizeof a, s->makespan, ms);
    if (isnan(s->lower_bound))
        snprintf(b, sizeof b, "unknown");
    else
        fmt_time(b, sizeof b, s->lower_bound, ms);
    int used = snprintf(sub, sizeof sub, "%s, %s, P=%u, %zu events: makespan %s, lower bound %s",
                        hc_coll_name(s->coll), s->algorithm, s->P, s->n_events, a, b);
    if (!isnan(s->lower_bound) && s->lower_bound > 0 && used > 0 && (size_t)used < sizeof sub)
        used += snprintf(sub + used, sizeof sub - used, " (%.3fx the bound)",
                         s->makespan / s->lower_bound);
    if (used > 0 && (size_t)used < sizeof sub) {
        if (s->coll == HC_COLL_REDISTRIBUTE)
            snprintf(sub + used, sizeof sub - used,
                     ". n1=%u n2=%u k=%u beta=%.4g s, %zu steps. One row per node, time to the "
                     "right; a transfer is drawn in the sender's row (labelled with the "
                     "receiver) and, lighter, in the receiver's row.",
                     s->n1, s->n2, s->k, s->beta, s->n_steps);
        else if (d.aggregated)
            snprintf(sub + used, sizeof sub - used,
                     ". %u nodes in %u rows: each row is a group of consecutive nodes of one "
                     "cluster, shaded by the share of its nodes sending or receiving.",
                     P, R);
        else
            snprintf(sub + used, sizeof sub - used,
                     ". One row per node, time to the right; each rectangle is a send in the "
                     "sender's row, labelled with its destination%s.",
                     s->coll == HC_COLL_REDUCE ? " (->receiver)" : "");
    }
    /* the height depends on the wrapped lines: write the header into a buffer first */
    char *hdr = NULL;
    size_t hdr_len = 0;
    FILE *h = open_memstream(&hdr, &hdr_len);
    if (!h) {
        diagram_free(&d);
        return HC_ERR_NOMEM;
    }
    int tl = wrap_text(h, 10, 22, 16, W - 20, title ? title : "schedule",
                       " class=\"title\" font-weight=\"bold\"");
    double sy = 22 + (tl - 1) * 16 * 1.3 + 20;
    int nl = wrap_text(h, 10, sy, 12, W - 20, sub, " class=\"subtitle\"");
    double ly = sy + nl * 12 * 1.3 + 6;
    ly += write_legend(h, &d, 10, ly, W - 20);
    fclose(h);
    const double axis_y = ly + 12, top = axis_y + 8;
    const double plot_h = rh * R, height = top + plot_h + 36;

    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
            W, height, W, height, W, height);
    fwrite(hdr, 1, hdr_len, f);
    free(hdr);

    /* row backgrounds and cluster bands */
    for (uint32_t r = 0; r < R; r++)
        if (r % 2 == 1)
            fprintf(f,
                    "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" "
                    "fill=\"#f4f4f4\"/>\n",
                    x0, top + r * rh, plot_w, rh);
    if (d.n_clusters) {
        uint32_t r = 0;
        while (r < R) {
            int32_t c = d.cluster[d.row_first[r]];
            uint32_t e = r + 1;
            while (e < R && d.cluster[d.row_first[e]] == c)
                e++;
            double y = top + r * rh, hh = (e - r) * rh;
            if (c >= 0) {
                fprintf(f,
                        "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\" "
                        "stroke=\"white\" stroke-width=\"1\"><title>",
                        margin, y, band_w - 4, hh, band_fill[(uint32_t)c % N_COLOURS]);
                xml_text(f, cluster_name(&d, c));
                fputs("</title></rect>\n", f);
                double fs = hh - 2 < 11 ? hh - 2 : 11;
                fit_text(buf, sizeof buf, cluster_name(&d, c), band_w - 8, fs);
                if (fs >= 6 && *buf) {
                    fprintf(f,
                            "<text class=\"band\" x=\"%.1f\" y=\"%.2f\" font-size=\"%.1f\" "
                            "font-weight=\"bold\">",
                            margin + 3, y + hh / 2 + fs * 0.35, fs);
                    xml_text(f, buf);
                    fputs("</text>\n", f);
                }
            }
            if (r > 0) /* boundary across the plot */
                fprintf(f,
                        "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#666\" "
                        "stroke-width=\"%.1f\"/>\n",
                        margin, y, x0 + plot_w, y,
                        s->coll == HC_COLL_REDISTRIBUTE && d.row_first[r] == s->n1 ? 2.0 : 0.8);
            r = e;
        }
    }
    /* row labels */
    for (uint32_t r = 0; r < R; r++) {
        if (r % every != 0)
            continue;
        row_label(&d, r, buf, sizeof buf);
        char lab[256];
        fit_text(lab, sizeof lab, buf, name_w - 4, label_fs);
        fprintf(f,
                "<text class=\"row\" x=\"%.1f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"end\">",
                x0 - 4, top + r * rh + rh / 2 + label_fs * 0.35, label_fs);
        xml_text(f, lab);
        fputs("</text>\n", f);
    }
    /* redistribution steps: vertical bands */
    for (size_t k = 0; s->coll == HC_COLL_REDISTRIBUTE && k < s->n_steps; k++) {
        double x = x0 + s->steps[k].start * sx, w = s->steps[k].duration * sx;
        fprintf(f,
                "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
                "fill-opacity=\"0.6\" stroke=\"#bbb\" stroke-width=\"0.5\"/>\n",
                x, top, w > 0.3 ? w : 0.3, plot_h, k % 2 ? "#f3f3f3" : "#e6eef8");
        char lab[32];
        snprintf(lab, sizeof lab, "step %zu", k);
        if (w >= text_width(lab, 9) + 4)
            fprintf(f,
                    "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\" fill=\"#555\" "
                    "text-anchor=\"middle\">%s</text>\n",
                    x + w / 2, top + plot_h + 28, lab);
    }
    /* time axis, top and bottom, with grid lines */
    double step = nice_step(ms, 10);
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#333\" stroke-width=\"0.8\"/>\n",
            x0, top, plot_w, plot_h);
    for (int t = 0; t * step <= ms * (1 + 1e-9) && t < 1000; t++) {
        double x = x0 + t * step * sx;
        char lab[64];
        fmt_time(lab, sizeof lab, t * step, ms);
        const char *anchor = t == 0 ? "start" : "middle"; /* 0 stays right of the row names */
        fprintf(f,
                "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\" "
                "stroke-width=\"0.5\"/>\n"
                "<text x=\"%.2f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"%s\">%s</text>\n"
                "<text x=\"%.2f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"%s\">%s</text>\n",
                x, top, x, top + plot_h, x, axis_y, anchor, lab, x, top + plot_h + 14, anchor, lab);
    }
    /* events */
    int rc = 0;
    if (d.aggregated) {
        rc = draw_activity(f, &d, x0, top, rh, plot_w, ms);
    } else {
        const double ey = rh >= 6 ? 1 : 0, eh = rh - 2 * ey, fs = eh - 1 > 11 ? 11 : eh - 1;
        for (size_t i = 0; i < s->n_events; i++) {
            const hc_event_t *e = &s->events[i];
            if (!isfinite(e->start) || !isfinite(e->end) || e->src >= P)
                continue;
            double x = x0 + e->start * sx, w = (e->end - e->start) * sx;
            if (w < 0.5)
                w = 0.5;
            char fill[48], sn[256], dn[256], lab[300];
            event_fill(&d, e, fill, sizeof fill);
            node_label(&d, e->src, sn, sizeof sn);
            node_label(&d, e->dst < P ? e->dst : 0, dn, sizeof dn);
            for (int side = s->coll == HC_COLL_REDISTRIBUTE && e->dst < P ? 1 : 0; side >= 0;
                 side--) {
                /* side 1: the receiving side of a redistribution transfer, lighter */
                uint32_t row = d.row_of[side ? e->dst : e->src];
                double y = top + row * rh + ey;
                fprintf(f,
                        "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                        "%sstroke=\"#333\" stroke-width=\"0.3\"><title>",
                        x, y, w, eh, fill, side ? "fill-opacity=\"0.45\" " : "");
                xml_text(f, sn);
                fputs(" -&gt; ", f);
                xml_text(f, dn);
                fprintf(f, ": %.6g .. %.6g s, %llu B</title></rect>\n", e->start, e->end,
                        (unsigned long long)e->bytes);
                if (fs < 6)
                    continue;
                if (s->coll == HC_COLL_REDUCE)
                    snprintf(lab, sizeof lab, "->%s", dn);
                else if (side)
                    snprintf(lab, sizeof lab, "<-%s", sn);
                else
                    snprintf(lab, sizeof lab, "%s", dn);
                if (text_width(lab, fs) + 4 > w)
                    continue;
                fprintf(f,
                        "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"middle\" "
                        "fill=\"%s\">",
                        x + w / 2, y + eh / 2 + fs * 0.35, fs,
                        side      ? "#444"
                        : e->tree ? "white"
                                  : "black");
                xml_text(f, lab);
                fputs("</text>\n", f);
            }
        }
    }
    /* makespan and bound */
    fprintf(f,
            "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"red\" "
            "stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n",
            x0 + s->makespan * sx, top - 4, x0 + s->makespan * sx, top + plot_h + 4);
    if (!isnan(s->lower_bound) && s->lower_bound > 0)
        fprintf(f,
                "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"green\" "
                "stroke-width=\"1.5\" stroke-dasharray=\"2,3\"/>\n",
                x0 + s->lower_bound * sx, top - 4, x0 + s->lower_bound * sx, top + plot_h + 4);
    fputs("</svg>\n", f);
    diagram_free(&d);
    if (rc != 0)
        return HC_ERR_NOMEM;
    return ferror(f) ? HC_ERR_IO : 0;
}

int cli_svg_schedule(FILE *f, const hc_schedule_t *s, const char *title)
{
    return cli_svg_schedule_on(f, s, NULL, NULL, title);
}

/* ------------------------------------------------------------------ the demo's bars */

/* Log-scale ticks between 1 and xmax: 1, 2, 5, 10, ... (and 1.1, 1.2, 1.5 when xmax < 3). */
static size_t bar_ticks(double xmax, double *t, size_t cap)
{
    static const double fine[] = {1, 1.1, 1.2, 1.5, 2, 3};
    size_t n = 0;
    if (xmax < 3) {
        for (size_t i = 0; i < sizeof fine / sizeof fine[0] && n < cap; i++)
            if (fine[i] <= xmax)
                t[n++] = fine[i];
        return n;
    }
    for (double m = 1; m <= xmax && n < cap; m *= 10)
        for (int k = 0; k < 3 && n < cap; k++) {
            double v = m * (k == 0 ? 1 : k == 1 ? 2 : 5);
            if (v <= xmax)
                t[n++] = v;
        }
    return n;
}

int cli_svg_bars(const char *path, const char *title, const char *subtitle,
                 const cli_bar_panel_t *panels, size_t n_panels)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("%s: cannot create: %s", path, strerror(errno)), -1;
    const double W = 1200, pw = 585, label_w = 150, bar_h = 13, gap = 3;
    const size_t ncol = n_panels > 1 ? 2 : 1;
    /* panel heights: title + axis + bars */
    double *ph = calloc(n_panels ? n_panels : 1, sizeof *ph);
    if (!ph) {
        fclose(f);
        return cli_error("out of memory"), -1;
    }
    for (size_t p = 0; p < n_panels; p++)
        ph[p] = 38 + (double)panels[p].n * (bar_h + gap) + 22;
    /* header into memory first: the wrapped subtitle decides where the panels start */
    char *hdr = NULL;
    size_t hdr_len = 0;
    FILE *h = open_memstream(&hdr, &hdr_len);
    if (!h) {
        free(ph);
        fclose(f);
        return cli_error("out of memory"), -1;
    }
    fputs("<text class=\"title\" x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">", h);
    xml_text(h, title);
    fputs("</text>\n", h);
    int nl = subtitle ? wrap_text(h, 10, 44, 12, W - 20, subtitle, " class=\"subtitle\"") : 0;
    double ly = 44 + nl * 12 * 1.3 + 6;
    double x = 10;
    x = legend_item(h, x, ly, "#08519c", NULL, NULL, 1, "auto and the algorithm it chose");
    x = legend_item(h, x, ly, "#f16913", NULL, NULL, 1, "the MPI library's default");
    x = legend_item(h, x, ly, "#9ecae1", NULL, NULL, 1, "other algorithms");
    legend_item(h, x, ly, NULL, "green", "2,3", 1, "1 = the lower bound");
    fclose(h);
    double y0 = ly + 16;
    double rows_h = 0;
    for (size_t p = 0; p < n_panels; p += ncol) {
        double m = 0;
        for (size_t c = 0; c < ncol && p + c < n_panels; c++)
            m = fmax(m, ph[p + c]);
        rows_h += m;
    }
    double H = y0 + rows_h + 10;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
            W, H, W, H, W, H);
    fwrite(hdr, 1, hdr_len, f);
    free(hdr);
    double y = y0;
    for (size_t p = 0; p < n_panels; p += ncol) {
        double row_h = 0;
        for (size_t c = 0; c < ncol && p + c < n_panels; c++) {
            const cli_bar_panel_t *pn = &panels[p + c];
            double px = 10 + (double)c * (pw + 10), bx = px + label_w, bw = pw - label_w - 60;
            row_h = fmax(row_h, ph[p + c]);
            char t[200];
            fit_text(t, sizeof t, pn->title, pw, 12);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">", px,
                    y + 14);
            xml_text(f, t);
            fputs("</text>\n", f);
            /* log scale from min(1, the smallest value) (a value below 1 means the bound
             * does not hold for that schedule: it is drawn, not hidden) */
            double xmax = 1.2, xmin = 1;
            for (size_t i = 0; i < pn->n; i++)
                if (isfinite(pn->bars[i].value) && pn->bars[i].value > 0) {
                    xmax = fmax(xmax, pn->bars[i].value * 1.05);
                    xmin = fmin(xmin, pn->bars[i].value / 1.1);
                }
            double lx = log(xmax / xmin);
#define BX(v) (bx + log(fmax(xmin, (v)) / xmin) / lx * bw)
            double by = y + 38, bh_all = (double)pn->n * (bar_h + gap);
            double tk[32];
            size_t nt = bar_ticks(xmax, tk, 32);
            for (double m = 1; xmin < 1 && m > 1e-6; m /= 10) /* 0.5, 0.2, 0.1, 0.05, ... */
                for (int q = 0; q < 3 && nt < 32; q++) {
                    double v = m * (q == 0 ? 0.5 : q == 1 ? 0.2 : 0.1);
                    if (v >= xmin)
                        tk[nt++] = v;
                }
            for (size_t i = 0; i < nt; i++)
                fprintf(f,
                        "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                        "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"middle\">"
                        "%gx</text>\n",
                        BX(tk[i]), by - 4, BX(tk[i]), by + bh_all, BX(tk[i]), by - 7, tk[i]);
            for (size_t i = 0; i < pn->n; i++) {
                const cli_bar_t *br = &pn->bars[i];
                double yy = by + (double)i * (bar_h + gap);
                fit_text(t, sizeof t, br->label, label_w - 6, 10);
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\"%s>",
                        bx - 5, yy + bar_h - 3, br->kind ? " font-weight=\"bold\"" : "");
                xml_text(f, t);
                fputs("</text>\n", f);
                if (!isfinite(br->value)) {
                    fprintf(f,
                            "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"red\">failed"
                            "</text>\n",
                            bx + 3, yy + bar_h - 3);
                    continue;
                }
                const char *fill = br->kind == 2   ? "#08519c"
                                   : br->kind == 1 ? "#f16913"
                                                   : "#9ecae1";
                double w = BX(br->value) - bx; /* from the left edge: min(1, smallest) */
                int below = br->value < 1 - 1e-9;
                fprintf(f,
                        "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                        "fill=\"%s\"/><text x=\"%.2f\" y=\"%.1f\" font-size=\"9.5\"%s>%.*fx%s"
                        "</text>\n",
                        bx, yy, w > 1 ? w : 1, bar_h, fill, bx + (w > 1 ? w : 1) + 3,
                        yy + bar_h - 3, below ? " fill=\"#c00\"" : "",
                        br->value < 9.995   ? 2
                        : br->value < 99.95 ? 1
                                            : 0,
                        br->value, below ? ": below the bound, which does not hold for it" : "");
            }
            fprintf(f,
                    "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"green\" "
                    "stroke-width=\"1.5\" stroke-dasharray=\"2,3\"/>\n",
                    BX(1), by - 4, BX(1), by + bh_all);
#undef BX
        }
        y += row_h;
    }
    fputs("</svg>\n", f);
    free(ph);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return cli_error("%s: write error", path), -1;
    return 0;
}
