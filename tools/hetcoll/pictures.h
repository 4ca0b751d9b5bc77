/* Pictures of the command-line tool beyond cli.h's: timing diagrams that know the problem
 * (node and cluster names), the demo's summary bars, and PNG conversion. svg.c, plot.c, png.c. */
#ifndef HETCOLL_CLI_PICTURES_H
#define HETCOLL_CLI_PICTURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Timing diagram of schedule s (svg.c) on platform plat (may be NULL): rows carry the node
 * names and clusters are named bands with boundary lines; nodes (may be NULL = identity) maps
 * the schedule's node i to the platform's node (a redistribution: hc_problem_nodes of the
 * built problem). Without a platform, node numbers. Above CLI_SVG_DENSE_COLUMNS nodes, each row
 * is a group of consecutive nodes of one cluster, shaded by the share of its nodes
 * communicating. Subtitles wrap to the picture's width; a legend explains colours and lines.
 * Returns 0, HC_ERR_IO or HC_ERR_NOMEM. cli_svg_schedule (cli.h) is this without a platform. */
#define CLI_SVG_DENSE_COLUMNS 128
/* Word wrap: the length of the first line of p, at most max characters, cut at the last space
 * (mid-word when there is none). */
size_t cli_wrap_cut(const char *p, size_t max);
int cli_svg_schedule_on(FILE *f, const hc_schedule_t *s, const hc_platform_t *plat,
                        const uint32_t *nodes, const char *title);

/* The demo's summary picture (svg.c): one panel per (platform, collective), a horizontal bar
 * per algorithm of its makespan divided by the problem's lower bound (log scale), the
 * MPI default's bar in orange, auto and its choice dark blue, the others light blue; a line at
 * 1 (the bound).
 * Returns 0, or -1 after printing when the file cannot be written. */
typedef struct cli_bar {
    const char *label; /* algorithm */
    double value;      /* makespan / bound (or NAN when it failed) */
    int kind;          /* 0 other, 1 the MPI default, 2 auto's choice (and auto itself) */
} cli_bar_t;
typedef struct cli_bar_panel {
    char title[160];
    const cli_bar_t *bars;
    size_t n;
} cli_bar_panel_t;
int cli_svg_bars(const char *path, const char *title, const char *subtitle,
                 const cli_bar_panel_t *panels, size_t n_panels);

/* cli_plot_svg (cli.h) with a style per series (plot.c): colour and dash are 1-based indices
 * into the plot's palette (10 colours) and its dash patterns (solid, dashed, dotted,
 * dash-dot; the marker shape follows the dash), 0 = automatic (series k gets colour k mod 10,
 * dash k mod 4 and marker k mod 7). styles may be NULL (all automatic). */
typedef struct cli_plot_style {
    int colour, dash;
} cli_plot_style_t;
int cli_plot_svg_styled(const char *path, const char *title, const char *xlabel, const char *ylabel,
                        const double *x, size_t n, const cli_series_t *series, size_t n_series,
                        int log_y, const cli_plot_style_t *styles);

/* PNG output (png.c), through librsvg's rsvg-convert (Debian package librsvg2-bin), run as a
 * child process. cli_png_check: CLI_OK when rsvg-convert is on the PATH, else CLI_ERROR after
 * one line naming the package. cli_svg_to_png: writes the .png beside `svg_path` (its name with
 * .svg replaced); CLI_OK, or CLI_ERROR after printing. */
int cli_png_check(void);
int cli_svg_to_png(const char *svg_path);

#endif
