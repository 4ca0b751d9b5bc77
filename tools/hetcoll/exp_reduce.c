/* `hetcoll experiment reduce`: 003 Table 1, the search efficiency 1 - visited/naive of the
 * optimal branch and bound (bnb), with the mean search time and SNF's gap to the optimum.
 *
 * Instances as in 003 §6: for each (procs n, classes K) and trial, K class send times drawn
 * uniformly in [1, 10) (the "speed table"), each of the n processors picks a class uniformly;
 * the root is a slowest processor (003: the slowest one never sends). naive = (n-1)!/prod m_i!
 * over the n - 1 senders. Everything is seeded (--seed). */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* 003 Table 1 (efficiency %, rows n = 6..16, columns K = 3..6). */
static const double PAPER[11][4] = {
    {53.22, 56.48, 58.36, 63.82}, {64.28, 72.74, 77.41, 71.38}, {71.28, 79.24, 82.26, 84.18},
    {86.78, 91.88, 93.33, 94.48}, {89.99, 93.80, 94.70, 96.42}, {94.32, 96.84, 97.29, 98.71},
    {94.62, 97.58, 97.48, 98.82}, {96.40, 98.63, 99.09, 99.62}, {96.78, 98.64, 99.40, 99.65},
    {97.70, 99.45, 99.84, 99.83}, {98.21, 99.51, 99.84, 99.96}};

static double paper_eff(uint64_t n, uint64_t K)
{
    if (n < 6 || n > 16 || K < 3 || K > 6)
        return NAN;
    return PAPER[n - 6][K - 3];
}

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll experiment reduce [--nodes LIST] [--classes LIST] [--trials N]\n"
            "                                 [--seed S] [--time-limit S] -o DIR\n\n"
            "Reproduce Liu et al. Table 1: the search efficiency 1 - visited/naive of the optimal\n"
            "branch and bound (bnb) for n processors in K speed classes, with the mean and\n"
            "largest search time, how many searches completed within the time limit, and\n"
            "SNF's gap to the optimum. Writes DIR/reduce_table1.csv, DIR/reduce_efficiency.svg\n"
            "and DIR/reduce_time.svg; prints the table (ours beside the paper's numbers).\n"
            "Instances: K class times uniform in [1, 10), each node picks a class uniformly,\n"
            "the root is a slowest node; one seeded stream per (n, K) cell.\n\n"
            "Options:\n"
            "  --nodes LIST       processors n, e.g. 6..16 or 6..16,20,24 (default 6..16)\n"
            "  --classes LIST     speed classes K (default 3..6)\n"
            "  --trials N         instances per cell (default 50)\n"
            "  --seed S           seed (default 1)\n"
            "  --time-limit S     bnb time limit per instance in seconds (default 10); a search\n"
            "                     it stops counts as not optimal in the table\n"
            "  -o, --output DIR   output directory (created with its parents; required)\n"
            "  -h, --help         this help\n"
            "Deprecated spellings, still accepted: --procs (--nodes), --out (--output).\n\n"
            "Example:\n"
            "  hetcoll experiment reduce --nodes 6..16 --classes 3..6 --trials 50 --seed 1 "
            "-o out/reduce\n");
}

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct cell {
    double eff_sum, eff_min, nodes_sum, naive_sum, time_sum, time_max, leaf_eff_sum;
    double gap_sum, gap_max;
    size_t done, optimal, snf_sub, gap_n;
} cell_t;

/* One instance: run bnb and snf. Returns an exit code. */
static int one(hc_rng_t *r, uint32_t n, uint32_t K, double limit, cell_t *c)
{
    double cls[64], t[1024];
    for (uint32_t k = 0; k < K; k++)
        cls[k] = hc_rng_range(r, 1, 10);
    uint32_t root = 0;
    for (uint32_t i = 0; i < n; i++) {
        t[i] = cls[hc_rng_below(r, K)];
        if (t[i] > t[root])
            root = i;
    }
    hc_matrix_t *m = NULL;
    int rc = hc_matrix_create(n, n, 0, &m);
    if (rc != HC_OK)
        return cli_fail(rc, "experiment reduce");
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            HC_AT(m, i, j) = (i == j || i == root) ? 0 : t[i];
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_REDUCE);
    pb.P = n;
    pb.costs = m;
    pb.root = root;
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.time_limit_s = limit;
    hc_schedule_t *b = NULL, *s = NULL;
    double t0 = now_s();
    rc = hc_schedule_compute(&pb, "bnb", &o, &b);
    double dt = now_s() - t0;
    if (rc == HC_OK)
        rc = hc_schedule_compute(&pb, "snf", &o, &s);
    if (rc == HC_OK)
        rc = hc_schedule_validate(b, &pb);
    if (rc != HC_OK) {
        hc_schedule_destroy(b);
        hc_schedule_destroy(s);
        hc_matrix_destroy(m);
        return cli_fail(rc, "experiment reduce");
    }
    double eff = 100 * b->search.efficiency, leaves = NAN;
    const char *lj = b->extra_json ? strstr(b->extra_json, "\"search_leaves\":") : NULL;
    if (lj)
        leaves = strtod(lj + strlen("\"search_leaves\":"), NULL);
    c->leaf_eff_sum += 100 * (1 - leaves / b->search.naive_space);
    c->eff_sum += eff;
    c->eff_min = c->done ? fmin(c->eff_min, eff) : eff;
    c->nodes_sum += b->search.nodes_visited;
    c->naive_sum += b->search.naive_space;
    c->time_sum += dt;
    c->time_max = fmax(c->time_max, dt);
    c->done++;
    if (b->search.optimal) {
        c->optimal++;
        double gap = 100 * (s->makespan / b->makespan - 1);
        if (gap < 0)
            gap = 0;
        c->gap_sum += gap;
        c->gap_max = fmax(c->gap_max, gap);
        c->gap_n++;
        c->snf_sub += s->makespan > b->makespan * (1 + 1e-9);
    }
    hc_schedule_destroy(b);
    hc_schedule_destroy(s);
    hc_matrix_destroy(m);
    return CLI_OK;
}

int exp_reduce_main(int argc, char **argv)
{
    const char *cmd = "experiment reduce";
    static const struct option longopts[] = {{"nodes", required_argument, NULL, 'p'},
                                             {"procs", required_argument, NULL, CLI_OPT_OLD_PROCS},
                                             {"classes", required_argument, NULL, 'k'},
                                             {"time-limit", required_argument, NULL, 'l'},
                                             CLI_EXP_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    const char *procs_s = "6..16", *classes_s = "3..6", *out = NULL;
    uint64_t trials = 50, seed = 1;
    double limit = 10;
    int c, rc;
    const cli_exp_args_t ea = {&trials, &seed, &out, 1000000};
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_OLD_PROCS:
            cli_deprecated("--procs", "--nodes");
            /* fall through */
        case 'p':
            procs_s = optarg;
            break;
        case 'k':
            classes_s = optarg;
            break;
        case 'l':
            if (cli_parse_double(optarg, &limit) != 0 || !(limit > 0))
                return cli_value_error(cmd, "--time-limit: expected seconds > 0, got '%s'", optarg);
            break;
        case 'h':
            help(stdout);
            return CLI_OK;
        default:
            if ((rc = cli_exp_option(cmd, c, optarg, argv, &ea)) != CLI_OK)
                return rc;
        }
    }
    rc = cli_check_args_done(cmd, argc, argv, out);
    if (rc != CLI_OK)
        return rc;
    uint64_t *procs = NULL, *classes = NULL;
    size_t np = 0, nk = 0;
    if (cli_parse_u64_list(procs_s, &procs, &np) != 0 || np == 0)
        return cli_value_error(
            cmd, "--nodes: expected a list like 6..16 (at most 100000 values), got '%s'", procs_s);
    if (cli_parse_u64_list(classes_s, &classes, &nk) != 0 || nk == 0) {
        free(procs);
        return cli_value_error(
            cmd, "--classes: expected a list like 3..6 (at most 100000 values), got '%s'",
            classes_s);
    }
    rc = cli_check_u64_range(cmd, "--nodes", procs, np, 2, 1024);
    if (rc == CLI_OK)
        rc = cli_check_u64_range(cmd, "--classes", classes, nk, 1, 64);
    if (rc == CLI_OK)
        rc = cli_make_outdir(out);
    cell_t *cells = rc == CLI_OK ? calloc(np * nk, sizeof *cells) : NULL;
    if (rc == CLI_OK && !cells)
        rc = cli_error("out of memory");
    size_t total = np * nk * (size_t)trials, done = 0;
    cli_progress("reduce", 0, total);
    for (size_t i = 0; i < np && rc == CLI_OK; i++)
        for (size_t k = 0; k < nk && rc == CLI_OK; k++) {
            hc_rng_t r;
            /* one stream per cell, so that cells do not depend on the lists given */
            hc_rng_seed(&r, seed * 1000003u + procs[i] * 1009u + classes[k]);
            for (uint64_t tr = 0; tr < trials && rc == CLI_OK; tr++) {
                rc = one(&r, (uint32_t)procs[i], (uint32_t)classes[k], limit, &cells[i * nk + k]);
                cli_progress("reduce", ++done, total);
            }
        }
    FILE *csv = NULL;
    char path[4096];
    if (rc == CLI_OK && !(csv = cli_open_in_dir(out, "reduce_table1.csv")))
        rc = CLI_ERROR;
    if (rc == CLI_OK) {
        fprintf(csv, "procs,classes,trials,paper_efficiency_pct,efficiency_pct,"
                     "min_efficiency_pct,mean_nodes,mean_naive,mean_time_s,max_time_s,"
                     "optimal,snf_gap_mean_pct,snf_gap_max_pct,snf_suboptimal_pct,"
                     "leaf_efficiency_pct\n");
        for (size_t i = 0; i < np; i++)
            for (size_t k = 0; k < nk; k++) {
                const cell_t *e = &cells[i * nk + k];
                double d = (double)e->done, pe = paper_eff(procs[i], classes[k]);
                char pbuf[32] = "";
                if (isfinite(pe))
                    snprintf(pbuf, sizeof pbuf, "%.2f", pe);
                fprintf(csv,
                        "%llu,%llu,%zu,%s,%.6f,%.6f,%.1f,%.6g,%.6f,%.6f,%zu,%.4f,%.4f,%.2f,%.6f\n",
                        (unsigned long long)procs[i], (unsigned long long)classes[k], e->done, pbuf,
                        e->eff_sum / d, e->eff_min, e->nodes_sum / d, e->naive_sum / d,
                        e->time_sum / d, e->time_max, e->optimal,
                        e->gap_n ? e->gap_sum / (double)e->gap_n : NAN, e->gap_n ? e->gap_max : NAN,
                        e->gap_n ? 100.0 * (double)e->snf_sub / (double)e->gap_n : NAN,
                        e->leaf_eff_sum / d);
            }
        rc = cli_close_file(csv, "reduce_table1.csv", rc);
        /* text table: ours (paper) */
        printf("Liu et al. Table 1: search efficiency %% = 1 - visited/naive, mean of %llu trials "
               "(paper in parentheses); visited = every search node generated\n",
               (unsigned long long)trials);
        printf("%6s", "n");
        for (size_t k = 0; k < nk; k++)
            printf("  K=%-18llu", (unsigned long long)classes[k]);
        printf("  %10s %8s %9s\n", "time(s)", "optimal", "snf gap%");
        for (size_t i = 0; i < np; i++) {
            printf("%6llu", (unsigned long long)procs[i]);
            double tsum = 0, gsum = 0;
            size_t opt = 0, all = 0, gn = 0;
            for (size_t k = 0; k < nk; k++) {
                const cell_t *e = &cells[i * nk + k];
                double pe = paper_eff(procs[i], classes[k]);
                char buf[48];
                if (isfinite(pe))
                    snprintf(buf, sizeof buf, "%.3f (%.2f)", e->eff_sum / (double)e->done, pe);
                else
                    snprintf(buf, sizeof buf, "%.5f", e->eff_sum / (double)e->done);
                printf("  %-20s", buf);
                tsum += e->time_sum;
                opt += e->optimal;
                all += e->done;
                gsum += e->gap_sum;
                gn += e->gap_n;
            }
            printf("  %10.4f %4zu/%-4zu %8.3f\n", tsum / (double)all, opt, all,
                   gn ? gsum / (double)gn : NAN);
        }
        /* plots: efficiency per K, mean time per K */
        double *x = malloc(np * sizeof *x), *ys = malloc(np * nk * 2 * sizeof *ys);
        cli_series_t *ser = malloc(nk * 2 * sizeof *ser);
        char(*names)[32] = malloc(nk * 2 * sizeof *names);
        if (!x || !ys || !ser || !names) {
            rc = cli_error("out of memory");
        } else {
            for (size_t i = 0; i < np; i++)
                x[i] = (double)procs[i];
            for (size_t k = 0; k < nk; k++) {
                for (size_t i = 0; i < np; i++) {
                    const cell_t *e = &cells[i * nk + k];
                    ys[k * np + i] = e->eff_sum / (double)e->done;
                    ys[(nk + k) * np + i] = e->time_sum / (double)e->done;
                }
                snprintf(names[k], sizeof names[k], "K=%llu", (unsigned long long)classes[k]);
                ser[k] = (cli_series_t){names[k], ys + k * np};
                ser[nk + k] = (cli_series_t){names[k], ys + (nk + k) * np};
            }
            snprintf(path, sizeof path, "%s/reduce_efficiency.svg", out);
            if (cli_plot_svg(path, "bnb search efficiency (Liu et al. Table 1)", "processors n",
                             "efficiency %", x, np, ser, nk, 0) != 0)
                rc = CLI_ERROR;
            snprintf(path, sizeof path, "%s/reduce_time.svg", out);
            if (rc == CLI_OK && cli_plot_svg(path, "bnb mean search time", "processors n",
                                             "seconds", x, np, ser + nk, nk, 1) != 0)
                rc = CLI_ERROR;
            if (rc == CLI_OK)
                printf("wrote %s/reduce_table1.csv, reduce_efficiency.svg, reduce_time.svg\n", out);
        }
        free(x);
        free(ys);
        free(ser);
        free(names);
    }
    free(cells);
    free(procs);
    free(classes);
    return rc;
}
