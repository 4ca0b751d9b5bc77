/* `hetcoll demo`: every registered algorithm of every collective on the built-in platforms (or
 * the given ones). Per problem: ONE lower bound (hc_lower_bound), each schedule's predicted
 * makespan, its replay on a perturbed network (--error-sigma, --seed), its ratio to the bound
 * and to the MPI library's default (the registry rows flagged HC_ALGO_MPI_DEFAULT), and which
 * algorithm `auto` chose; a legend, one summary line per problem, a summary picture, and the
 * timing diagrams of auto's choices (--svg). Every schedule is validated and replayed without
 * perturbation (that replay must equal the prediction); a failure exits 1.
 * New algorithms appear here through the registry; this file never names one. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pictures.h"
#include "problem.h"

enum { SVG_NONE, SVG_CHOSEN, SVG_ALL };

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll demo [--msg SIZE] [-o DIR] [--platform SPEC]...\n"
            "                    [--error-sigma S] [--seed N] [--svg none|chosen|all] [--png]\n\n"
            "On builtin:grid5000 and builtin:gusto (or the given platforms), build a default\n"
            "problem for each collective and run EVERY registered algorithm on it (time limit\n"
            "2 s): alltoall with a uniform message, bcast and reduce from root 0, redistribute\n"
            "between the first two clusters (when both have two nodes or more; else the two\n"
            "halves of the nodes) with MSG bytes per pair, rate = link bandwidth,\n"
            "k = min(4, n1, n2), beta = the largest latency between the two groups.\n"
            "Per problem it prints one lower bound, and per algorithm the predicted makespan,\n"
            "its replay on a perturbed network (each transfer x max(0.01, 1 + N(0, S)), drawn\n"
            "per transfer), the ratio to the bound and the comparison with the MPI library's\n"
            "default algorithm, and which algorithm auto chose; then one summary line per\n"
            "problem. The output explains its columns.\n"
            "Every schedule is validated and replayed without perturbation (the replay must\n"
            "equal the prediction); the demo exits 1 if any algorithm fails either check.\n"
            "Pictures in DIR: summary.svg (each algorithm's makespan / the bound, the MPI\n"
            "default and auto's choice marked) and the timing diagrams of --svg.\n\n"
            "Options:\n"
            "  --msg SIZE          message size (default 1MiB)\n"
            "  -o, --output DIR    output directory (default ./hetcoll-demo; created with its\n"
            "                      parents; --out is the former spelling)\n"
            "  --platform SPEC     platform to use instead of the built-ins (repeatable)\n"
            "  --error-sigma S     perturbation of the replay (default 0.1; 0 = exact)\n"
            "  --seed N            seed of the perturbation (default 1)\n"
            "  --svg WHICH         timing diagrams: chosen (default: auto's schedule of each\n"
            "                      problem, DIR/<platform>-<collective>-auto.svg), all (every\n"
            "                      schedule, DIR/<platform>-<collective>-<algorithm>.svg), none\n"
            "                      (no pictures at all, not even summary.svg)\n"
            "  --png               also convert every picture to PNG (needs rsvg-convert,\n"
            "                      Debian package librsvg2-bin)\n"
            "  -h, --help          this help\n\n"
            "Example:\n"
            "  hetcoll demo --msg 64KiB --error-sigma 0.2 --seed 7 -o /tmp/demo\n");
}

/* Short platform label for file names: "builtin:gusto" -> "gusto", "a/b/p.json" -> "p". */
static void label_of(const char *spec, char *buf, size_t len)
{
    const char *s = spec;
    if (strncmp(s, "builtin:", 8) == 0)
        s += 8;
    const char *slash = strrchr(s, '/');
    if (slash)
        s = slash + 1;
    size_t i = 0;
    for (; s[i] && s[i] != '.' && i + 1 < len; i++)
        buf[i] = (s[i] == ':' || s[i] == '=') ? '_' : s[i];
    buf[i] = '\0';
    if (!i)
        snprintf(buf, len, "platform");
}

/* "1 MiB", "64 KiB", "1000000 B" */
static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
    if (b >= 1048576 && b % 1048576 == 0)
        snprintf(buf, len, "%llu MiB", (unsigned long long)(b / 1048576));
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, len, "%llu KiB", (unsigned long long)(b / 1024));
    else
        snprintf(buf, len, "%llu B", (unsigned long long)b);
}

/* The redistribution demo problem: MSG bytes from every node of cluster 0 to every node of
 * cluster 1 when both have at least two nodes, else from the first half of the nodes to the
 * second half; built by the library (hc_problem_create: rate = link bandwidth, beta = the largest
 * latency between the two groups), k = min(4, n1, n2). */
static int build_redistribute(const hc_platform_t *plat, uint64_t msg, cli_problem_t *p,
                              int *by_cluster)
{
    uint32_t P = hc_platform_size(plat), n1 = 0, n2 = 0;
    memset(p, 0, sizeof *p);
    for (uint32_t i = 0; i < P; i++) {
        int32_t c = hc_platform_cluster_of(plat, i);
        n1 += c == 0;
        n2 += c == 1;
    }
    *by_cluster = n1 >= 2 && n2 >= 2;
    int rc = hc_matrix_create(P, P, 0, &p->sizes);
    if (rc != HC_OK)
        return rc;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            int from = *by_cluster ? hc_platform_cluster_of(plat, i) == 0 : i < P / 2;
            int to = *by_cluster ? hc_platform_cluster_of(plat, j) == 1 : j >= P / 2;
            if (from && to && i != j)
                HC_AT(p->sizes, i, j) = (double)msg;
        }
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_REDISTRIBUTE);
    sp.platform = plat;
    sp.sizes = p->sizes;
    sp.k = 4;
    if ((rc = hc_problem_create(&sp, &p->built)) != HC_OK)
        return rc;
    p->pb = *p->built;
    return HC_OK;
}

typedef struct settings {
    uint64_t msg;
    const char *dir;
    double sigma;
    uint64_t seed;
    int svg, png;
} settings_t;

/* One algorithm's result on one problem. */
typedef struct row {
    const hc_algo_info_t *info;
    double predicted, simulated;
    int ok;            /* computed, valid, exact replay */
    char problem[400]; /* what went wrong, "" when ok */
} row_t;

/* Everything the end of the run needs: checks, summary lines, the summary picture. */
typedef struct run {
    size_t runs, valid, replays, failed, below_bound;
    char **summary;
    size_t n_summary;
    cli_bar_panel_t *panels;
    cli_bar_t **bars;
    size_t n_panels;
    char **written; /* pictures written (for --png and the closing line) */
    size_t n_written;
    int failed_io;
} run_t;

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void push_str(char ***v, size_t *n, const char *s)
{
    char **nv = realloc(*v, (*n + 1) * sizeof **v);
    if (!nv)
        return;
    *v = nv;
    if ((nv[*n] = dupstr(s)) != NULL)
        (*n)++;
}

static void note_written(run_t *r, const char *path)
{
    push_str(&r->written, &r->n_written, path);
}

/* Write a timing diagram of s to DIR/name; records the file or the error. */
static void write_diagram(const settings_t *st, run_t *r, const char *name, hc_schedule_t *s,
                          const hc_platform_t *plat, const uint32_t *nodes, const char *title)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", st->dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        r->failed_io = 1;
        return;
    }
    int rc = cli_svg_schedule_on(f, s, plat, nodes, title);
    if (cli_close_file(f, path, rc == 0 ? CLI_OK : CLI_ERROR) != CLI_OK) {
        r->failed_io = 1;
        return;
    }
    note_written(r, path);
}

/* The algorithm auto kept: the name its note starts with ("auto: NAME ..."), else the first
 * other row with the same predicted makespan. */
static const hc_algo_info_t *auto_choice(const hc_schedule_t *s, const row_t *rows, size_t n,
                                         const row_t *auto_row)
{
    if (s && s->note && strncmp(s->note, "auto: ", 6) == 0) {
        char name[64];
        if (sscanf(s->note + 6, "%63s", name) == 1)
            for (size_t i = 0; i < n; i++)
                if (&rows[i] != auto_row && strcmp(rows[i].info->name, name) == 0)
                    return rows[i].info;
    }
    for (size_t i = 0; i < n && auto_row; i++)
        if (&rows[i] != auto_row && rows[i].ok &&
            fabs(rows[i].predicted - auto_row->predicted) <= 1e-12 * auto_row->predicted)
            return rows[i].info;
    return NULL;
}

/* Print text in lines of at most width characters (breaking at spaces), the continuation
 * lines indented by `indent` spaces. */
static void print_wrapped(const char *text, size_t width, int indent)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        size_t room = width - (first ? 0 : (size_t)indent), n = strlen(p), cut = n;
        if (n > room) {
            cut = room;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = room;
        }
        printf("%*s%.*s\n", first ? 0 : indent, "", (int)cut, p);
        first = 0;
        p += cut;
        while (*p == ' ')
            p++;
    }
}

static void fmt_vs(char *buf, size_t len, double mine, double mpi)
{
    if (!(mine > 0) || !(mpi > 0))
        snprintf(buf, len, "-");
    else if (fabs(mine - mpi) <= 1e-9 * mpi)
        snprintf(buf, len, "same");
    else if (mine < mpi) /* 3 decimals near 1, so that a small gain does not read 1.00x */
        snprintf(buf, len, "%.*fx faster", mpi / mine < 1.1 ? 3 : 2, mpi / mine);
    else
        snprintf(buf, len, "%.*fx slower", mine / mpi < 1.1 ? 3 : 2, mine / mpi);
}

/* Run every algorithm of problem p, print its block, record the summary. */
static void run_problem(const settings_t *st, run_t *r, const char *plat_label,
                        const char *plat_show, const hc_platform_t *plat, const cli_problem_t *p,
                        const char *what)
{
    hc_coll_t coll = p->pb.coll;
    size_t n = 0;
    for (size_t i = 0; i < hc_algo_count(); i++)
        n += hc_algo_get(i)->coll == coll;
    row_t *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) {
        cli_error("out of memory");
        r->failed++;
        return;
    }
    double lb = NAN;
    if (hc_lower_bound(&p->pb, &lb) != HC_OK || !(lb > 0))
        lb = NAN;
    const uint32_t *nodes = coll == HC_COLL_REDISTRIBUTE ? hc_problem_nodes(p->built) : NULL;
    hc_schedule_t *auto_s = NULL;
    const row_t *auto_row = NULL, *mpi_row = NULL;
    size_t k = 0;
    for (size_t i = 0; i < hc_algo_count(); i++) {
        const hc_algo_info_t *info = hc_algo_get(i);
        if (info->coll != coll)
            continue;
        row_t *w = &rows[k++];
        w->info = info;
        w->predicted = w->simulated = NAN;
        r->runs++;
        hc_algo_opts_t opts;
        hc_algo_opts_init(&opts);
        opts.time_limit_s = 2;
        hc_schedule_t *s = NULL;
        int rc = hc_schedule_compute(&p->pb, info->name, &opts, &s);
        if (rc != HC_OK) {
            snprintf(w->problem, sizeof w->problem, "FAILED: %s: %s", hc_status_name(rc),
                     hc_error_detail());
            r->failed++;
            continue;
        }
        w->predicted = s->makespan;
        if (hc_schedule_validate(s, &p->pb) != HC_OK) {
            snprintf(w->problem, sizeof w->problem, "INVALID: %s", hc_error_detail());
        } else {
            r->valid++;
            /* the unperturbed replay must be the plan */
            hc_sim_opts_t so;
            hc_sim_opts_init(&so);
            hc_sim_result_t *res = NULL;
            rc = hc_simulate(s, &p->pb, &so, &res);
            if (rc != HC_OK)
                snprintf(w->problem, sizeof w->problem, "REPLAY FAILED: %s", hc_error_detail());
            else if (fabs(res->makespan - s->makespan) > 1e-9 * fmax(1.0, s->makespan))
                snprintf(w->problem, sizeof w->problem,
                         "REPLAY DIFFERS: %.9g s replayed, %.9g s predicted", res->makespan,
                         s->makespan);
            else
                r->replays++;
            hc_sim_result_destroy(res);
        }
        /* the replay on the perturbed network */
        hc_sim_opts_t so;
        hc_sim_opts_init(&so);
        so.error_sigma = st->sigma;
        so.seed = st->seed;
        hc_sim_result_t *res = NULL;
        if (hc_simulate(s, &p->pb, &so, &res) == HC_OK)
            w->simulated = res->makespan;
        else if (!w->problem[0])
            snprintf(w->problem, sizeof w->problem, "REPLAY FAILED: %s", hc_error_detail());
        hc_sim_result_destroy(res);
        w->ok = !w->problem[0];
        if (!w->ok)
            r->failed++;
        if (!isnan(lb) && w->predicted < lb * (1 - 1e-9))
            r->below_bound++;
        if (info->flags & HC_ALGO_MPI_DEFAULT)
            mpi_row = w;
        s->lower_bound = lb; /* the pictures show the problem's bound, as the table */
        if (st->svg == SVG_ALL) {
            char name[512], title[512];
            snprintf(name, sizeof name, "%s-%s-%s.svg", plat_label, hc_coll_name(coll), info->name);
            snprintf(title, sizeof title, "%s %s on %s: %s", hc_coll_name(coll), info->name,
                     plat_show, what);
            write_diagram(st, r, name, s, plat, nodes, title);
        }
        if ((info->flags & HC_ALGO_SELECTOR) && strcmp(info->name, "auto") == 0) {
            auto_s = s;
            auto_row = w;
        } else {
            hc_schedule_destroy(s);
        }
    }
    const hc_algo_info_t *chosen = auto_row ? auto_choice(auto_s, rows, n, auto_row) : NULL;

    /* the block */
    char lbs[64] = "unknown";
    if (!isnan(lb))
        snprintf(lbs, sizeof lbs, "%.6g s", lb);
    char head[700];
    snprintf(head, sizeof head, "%s, lower bound %s: %s", hc_coll_name(coll), lbs, what);
    printf("\n");
    print_wrapped(head, 100, 4);
    printf("  %-20s %13s %13s %9s  %s\n", "algorithm", "predicted(s)", "simulated(s)", "x bound",
           "vs MPI default");
    size_t below = 0;
    for (size_t i = 0; i < n; i++) {
        const row_t *w = &rows[i];
        char pred[32] = "-", sim[32] = "-", xb[32] = "-", vs[32] = "-", mark[160] = "";
        if (!isnan(w->predicted))
            snprintf(pred, sizeof pred, "%.6g", w->predicted);
        if (!isnan(w->simulated))
            snprintf(sim, sizeof sim, "%.6g", w->simulated);
        if (!isnan(lb) && !isnan(w->predicted))
            snprintf(xb, sizeof xb, "%.3fx", w->predicted / lb);
        if (w == mpi_row)
            snprintf(vs, sizeof vs, "MPI default");
        else if (mpi_row && mpi_row->ok && w->ok)
            fmt_vs(vs, sizeof vs, w->predicted, mpi_row->predicted);
        if (w == auto_row)
            snprintf(mark, sizeof mark, "<- the default; kept %s", chosen ? chosen->name : "?");
        else if (chosen && w->info == chosen)
            snprintf(mark, sizeof mark, "<- auto's choice");
        if (!isnan(lb) && w->predicted < lb * (1 - 1e-9))
            snprintf(mark + strlen(mark), sizeof mark - strlen(mark), "%sBELOW THE BOUND",
                     mark[0] ? "; " : "");
        char tail[600];
        snprintf(tail, sizeof tail, "%s%s%s", mark, w->problem[0] && mark[0] ? "; " : "",
                 w->problem);
        if (tail[0])
            printf("  %-20s %13s %13s %9s  %-14s %s\n", w->info->name, pred, sim, xb, vs, tail);
        else
            printf("  %-20s %13s %13s %9s  %s\n", w->info->name, pred, sim, xb, vs);
        if (!isnan(lb) && w->predicted < lb * (1 - 1e-9))
            below++;
    }
    if (below)
        printf("  note: %zu schedule%s finish%s before the lower bound, which therefore does "
               "not hold for %s%s\n",
               below, below > 1 ? "s" : "", below > 1 ? "" : "es", below > 1 ? "them" : "it",
               coll == HC_COLL_BCAST ? " (the broadcast bound counts whole-message transfers; "
                                       "a segmented, pipelined broadcast can beat it)"
                                     : "");
    fflush(stdout);

    /* the summary line */
    char line[1024], msgs[32];
    fmt_bytes(msgs, sizeof msgs, st->msg);
    int used = snprintf(line, sizeof line, "%s %s on %s: ", hc_coll_name(coll), msgs, plat_show);
    if (!auto_row || !auto_row->ok) {
        snprintf(line + used, sizeof line - used, "auto failed");
    } else {
        used += snprintf(line + used, sizeof line - used, "auto chose %s, %#.4g s",
                         chosen ? chosen->name : "?", auto_row->predicted);
        if (!isnan(lb) && (size_t)used < sizeof line)
            used += snprintf(line + used, sizeof line - used, " = %.2fx the lower bound",
                             auto_row->predicted / lb);
        if ((size_t)used < sizeof line) {
            if (!mpi_row)
                snprintf(line + used, sizeof line - used,
                         ", no MPI-default algorithm of %s in hetcoll to compare with",
                         hc_coll_name(coll));
            else if (!mpi_row->ok)
                snprintf(line + used, sizeof line - used, ", the MPI default (%s) failed",
                         mpi_row->info->name);
            else if (chosen == mpi_row->info)
                snprintf(line + used, sizeof line - used, ", the MPI default itself");
            else if (fabs(auto_row->predicted - mpi_row->predicted) <= 1e-9 * mpi_row->predicted)
                snprintf(line + used, sizeof line - used,
                         ", as fast as the MPI default (%s, %#.4g s)", mpi_row->info->name,
                         mpi_row->predicted);
            else {
                char vs[32];
                fmt_vs(vs, sizeof vs, auto_row->predicted, mpi_row->predicted);
                snprintf(line + used, sizeof line - used, ", %s than the MPI default (%s, %#.4g s)",
                         vs, mpi_row->info->name, mpi_row->predicted);
            }
        }
    }
    push_str(&r->summary, &r->n_summary, line);

    /* auto's timing diagram */
    if (st->svg == SVG_CHOSEN && auto_s) {
        char name[512], title[512];
        snprintf(name, sizeof name, "%s-%s-auto.svg", plat_label, hc_coll_name(coll));
        snprintf(title, sizeof title, "%s on %s: auto chose %s (%s)", hc_coll_name(coll), plat_show,
                 chosen ? chosen->name : "?", what);
        write_diagram(st, r, name, auto_s, plat, nodes, title);
    }
    hc_schedule_destroy(auto_s);

    /* the panel of the summary picture: makespan / bound (or / the fastest without a bound) */
    double den = lb;
    if (isnan(den)) {
        den = INFINITY;
        for (size_t i = 0; i < n; i++)
            if (rows[i].ok && rows[i].predicted < den)
                den = rows[i].predicted;
    }
    cli_bar_t *bars = calloc(n ? n : 1, sizeof *bars);
    cli_bar_panel_t *np = realloc(r->panels, (r->n_panels + 1) * sizeof *np);
    cli_bar_t **nb = np ? realloc(r->bars, (r->n_panels + 1) * sizeof *nb) : NULL;
    if (np)
        r->panels = np;
    if (nb)
        r->bars = nb;
    if (!bars || !np || !nb) {
        free(bars);
    } else {
        for (size_t i = 0; i < n; i++) {
            bars[i].label = rows[i].info->name;
            bars[i].value = rows[i].ok && den > 0 && isfinite(den) ? rows[i].predicted / den : NAN;
            bars[i].kind = &rows[i] == auto_row || (chosen && rows[i].info == chosen) ? 2
                           : &rows[i] == mpi_row                                      ? 1
                                                                                      : 0;
        }
        cli_bar_panel_t *pn = &r->panels[r->n_panels];
        snprintf(pn->title, sizeof pn->title, "%s %s on %s (%s)", hc_coll_name(coll), msgs,
                 plat_show, isnan(lb) ? "x the fastest" : "x the lower bound");
        pn->bars = bars;
        pn->n = n;
        r->bars[r->n_panels++] = bars;
    }
    free(rows);
}

static int run_platform(const settings_t *st, run_t *r, const char *spec)
{
    char label[64];
    label_of(spec, label, sizeof label);
    const char *show = strncmp(spec, "builtin:", 8) == 0 ? spec + 8 : spec;
    hc_platform_t *pl = NULL;
    int rc = hc_platform_load(spec, &pl);
    if (rc != HC_OK) {
        r->failed++;
        return cli_fail(rc, spec);
    }
    uint32_t P = hc_platform_size(pl), nc = hc_platform_cluster_count(pl);
    printf("\n== %s: %u nodes", show, P);
    if (nc) {
        printf(", %u clusters (", nc);
        for (uint32_t c = 0; c < nc; c++) {
            uint32_t m = 0;
            for (uint32_t i = 0; i < P; i++)
                m += hc_platform_cluster_of(pl, i) == (int32_t)c;
            printf("%s%s %u", c ? ", " : "", hc_platform_cluster_name(pl, c), m);
            if (c == 7 && nc > 9) {
                printf(", ... %u more", nc - 8);
                break;
            }
        }
        printf(")");
    }
    printf(" ==\n");
    char msgs[32];
    fmt_bytes(msgs, sizeof msgs, st->msg);
    for (int coll = 0; coll < HC_COLL_COUNT; coll++) {
        size_t n_algos = 0;
        for (size_t i = 0; i < hc_algo_count(); i++)
            n_algos += (int)hc_algo_get(i)->coll == coll;
        if (!n_algos)
            continue;
        cli_problem_t p;
        char what[400];
        if (coll == HC_COLL_REDISTRIBUTE) {
            int by_cluster = 0;
            rc = build_redistribute(pl, st->msg, &p, &by_cluster);
            if (rc != HC_OK) {
                printf("\n%s: FAILED to build the problem: %s\n", hc_coll_name((hc_coll_t)coll),
                       hc_error_detail());
                r->failed++;
                cli_problem_free(&p);
                continue;
            }
            if (by_cluster)
                snprintf(what, sizeof what,
                         "%s from every node of %s (%u) to every node of %s (%u), at most "
                         "k = %u transfers per step, beta = %.4g s per step",
                         msgs, hc_platform_cluster_name(pl, 0), p.pb.n1,
                         hc_platform_cluster_name(pl, 1), p.pb.n2, p.pb.k, p.pb.beta);
            else
                snprintf(what, sizeof what,
                         "%s from every node of the first half (%u) to every node of the "
                         "second (%u), at most k = %u transfers per step, beta = %.4g s",
                         msgs, p.pb.n1, p.pb.n2, p.pb.k, p.pb.beta);
        } else {
            /* the same path as `hetcoll schedule <coll> --platform SPEC --msg SIZE` */
            cli_popts_t o;
            cli_popts_init(&o);
            o.platform = spec;
            o.msg = st->msg;
            o.have_msg = 1;
            if (cli_problem_build((hc_coll_t)coll, &o, NULL, "demo", &p) != CLI_OK) {
                printf("\n%s: FAILED to build the problem\n", hc_coll_name((hc_coll_t)coll));
                r->failed++;
                continue;
            }
            const char *root = hc_platform_node_name(pl, p.pb.root);
            if (coll == HC_COLL_ALLTOALL)
                snprintf(what, sizeof what, "%s from every node to every other", msgs);
            else
                snprintf(what, sizeof what, "%s %s node %s", msgs,
                         coll == HC_COLL_BCAST ? "from" : "combined at",
                         root && *root ? root : "0");
        }
        run_problem(st, r, label, show, pl, &p, what);
        cli_problem_free(&p);
    }
    hc_platform_destroy(pl);
    return CLI_OK;
}

static void print_legend(const settings_t *st, const char **specs, size_t n_specs)
{
    char msgs[32];
    fmt_bytes(msgs, sizeof msgs, st->msg);
    printf("hetcoll demo: %s messages on ", msgs);
    for (size_t i = 0; i < n_specs; i++)
        printf("%s%s", i ? (i + 1 == n_specs ? " and " : ", ") : "",
               strncmp(specs[i], "builtin:", 8) == 0 ? specs[i] + 8 : specs[i]);
    printf("; error sigma %g, seed %llu\n\n", st->sigma, (unsigned long long)st->seed);
    printf("Every registered algorithm of each collective plans a schedule on the platform's "
           "cost model.\n"
           "  predicted       planned makespan in seconds, on that model (what the algorithm "
           "optimises)\n");
    if (st->sigma > 0)
        printf("  simulated       the schedule replayed on a perturbed \"true\" network: each "
               "transfer lasts\n"
               "                  its planned time x max(0.01, 1 + N(0, %g)), drawn per "
               "transfer (seed %llu)\n",
               st->sigma, (unsigned long long)st->seed);
    else
        printf("  simulated       the schedule replayed by the simulator without perturbation "
               "(--error-sigma 0)\n");
    printf("  x bound         predicted / the problem's lower bound (printed above each table, "
           "the same\n"
           "                  for every algorithm): no schedule can be faster on the model; "
           "1.000x = optimal\n"
           "  vs MPI default  predicted against the algorithm MPI libraries use by default "
           "(the row marked\n"
           "                  'MPI default'): '2.40x faster' = the MPI default takes 2.4 times "
           "as long\n"
           "  auto            hetcoll's default: runs its candidates, keeps the lowest "
           "prediction; the row it\n"
           "                  kept is marked \"<- auto's choice\"\n"
           "Checks: every schedule is validated (each message delivered exactly once, one send "
           "and one receive\n"
           "per node at a time, durations as the model says) and replayed without perturbation, "
           "which must\n"
           "give the prediction. A failure is printed in its row and the demo exits 1.\n");
}

int cmd_demo(int argc, char **argv)
{
    enum { OPT_SIGMA = 256, OPT_SEED, OPT_SVG, OPT_PNG };
    static const struct option longopts[] = {{"msg", required_argument, NULL, 'm'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"out", required_argument, NULL, 'O'},
                                             {"platform", required_argument, NULL, 'p'},
                                             {"error-sigma", required_argument, NULL, OPT_SIGMA},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"svg", required_argument, NULL, OPT_SVG},
                                             {"png", no_argument, NULL, OPT_PNG},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "demo";
    settings_t st = {1048576, "hetcoll-demo", 0.1, 1, SVG_CHOSEN, 0};
    const char *specs[16];
    size_t n_specs = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (cli_parse_size(optarg, &st.msg) != 0 || st.msg == 0)
                return cli_value_error(cmd, "option '--msg': invalid size '%s'", optarg);
            break;
        case 'O':
            cli_deprecated("--out", "-o/--output");
            /* fall through */
        case 'o':
            st.dir = optarg;
            break;
        case 'p':
            if (n_specs == sizeof specs / sizeof specs[0])
                return cli_usage_error(cmd, "too many --platform options");
            specs[n_specs++] = optarg;
            break;
        case OPT_SIGMA:
            if (cli_parse_double(optarg, &st.sigma) != 0 || st.sigma < 0)
                return cli_value_error(cmd, "option '--error-sigma': invalid value '%s'", optarg);
            break;
        case OPT_SEED:
            if (cli_parse_u64(optarg, &st.seed) != 0)
                return cli_value_error(cmd, "option '--seed': invalid value '%s'", optarg);
            break;
        case OPT_SVG:
            if (strcmp(optarg, "none") == 0)
                st.svg = SVG_NONE;
            else if (strcmp(optarg, "chosen") == 0)
                st.svg = SVG_CHOSEN;
            else if (strcmp(optarg, "all") == 0)
                st.svg = SVG_ALL;
            else
                return cli_value_error(
                    cmd, "option '--svg': expected none, chosen or all, got '%s'", optarg);
            break;
        case OPT_PNG:
            st.png = 1;
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
    if (!n_specs) {
        specs[n_specs++] = "builtin:grid5000";
        specs[n_specs++] = "builtin:gusto";
    }
    if (st.png && st.svg != SVG_NONE && cli_png_check() != CLI_OK)
        return CLI_ERROR;
    if (st.svg != SVG_NONE && cli_make_outdir(st.dir) != CLI_OK)
        return CLI_ERROR;
    print_legend(&st, specs, n_specs);
    run_t r;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < n_specs; i++)
        run_platform(&st, &r, specs[i]);

    printf("\nSummary (predicted makespans; auto is what `hetcoll schedule` runs by default)\n");
    for (size_t i = 0; i < r.n_summary; i++) {
        printf("  ");
        print_wrapped(r.summary[i], 98, 4);
    }
    printf("\nChecks: %zu schedules, %zu valid, %zu replays without perturbation equal to "
           "the prediction, %zu failed.\n",
           r.runs, r.valid, r.replays, r.failed);
    if (r.below_bound)
        printf("Warning: %zu schedules finish before their problem's lower bound (marked BELOW "
               "THE BOUND):\nthat bound does not hold for them.\n",
               r.below_bound);
    if (st.svg != SVG_NONE) {
        char path[4096], sub[512];
        snprintf(path, sizeof path, "%s/summary.svg", st.dir);
        snprintf(sub, sizeof sub,
                 "Each bar: an algorithm's predicted makespan divided by its problem's lower "
                 "bound (log scale; 1 = the bound, shorter is better). Error sigma %g, seed "
                 "%llu for the replays (not shown).",
                 st.sigma, (unsigned long long)st.seed);
        char msgs[32], title[128];
        fmt_bytes(msgs, sizeof msgs, st.msg);
        snprintf(title, sizeof title, "hetcoll demo, %s: every algorithm against the bound", msgs);
        if (cli_svg_bars(path, title, sub, r.panels, r.n_panels) == 0)
            note_written(&r, path);
        else
            r.failed_io = 1;
        for (size_t i = 0; st.png && i < r.n_written; i++)
            if (cli_svg_to_png(r.written[i]) != CLI_OK)
                r.failed_io = 1;
        char pics[1200];
        snprintf(pics, sizeof pics,
                 "Pictures in %s/: summary.svg (every algorithm against the bound) and %s%s; %zu "
                 "files.",
                 st.dir,
                 st.svg == SVG_CHOSEN ? "the timing diagram of auto's schedule of each problem "
                                        "(<platform>-<collective>-auto.svg)"
                                      : "the timing diagram of every schedule "
                                        "(<platform>-<collective>-<algorithm>.svg)",
                 st.png ? ", each also as .png" : "", r.n_written * (st.png ? 2 : 1));
        printf("\n");
        print_wrapped(pics, 100, 2);
    }
    fflush(stdout);
    for (size_t i = 0; i < r.n_summary; i++)
        free(r.summary[i]);
    free(r.summary);
    for (size_t i = 0; i < r.n_written; i++)
        free(r.written[i]);
    free(r.written);
    for (size_t i = 0; i < r.n_panels; i++)
        free(r.bars[i]);
    free(r.bars);
    free(r.panels);
    if (r.failed)
        fprintf(stderr, "hetcoll: demo: %zu algorithms failed a check (see their rows)\n",
                r.failed);
    return r.failed || r.failed_io ? CLI_ERROR : CLI_OK;
}
