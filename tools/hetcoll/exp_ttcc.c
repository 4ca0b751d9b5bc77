/* `hetcoll experiment ttcc`: 002 (Cha et al.) Figures 8-11. ECEF and TTCC broadcasts planned
 * on a distorted cost matrix M1 = M0 x f, one factor f per ordered pair drawn independently,
 * and replayed on the true matrix M0 (002 §3.3), with the TTCC switch cost alpha.
 * Distortion (--distortion, --floor F, default 0.01): "redraw" (the default) draws
 * f = 1 + N(0, sigma) again until f >= F, a normal truncated at F; "clamp", the older rule,
 * takes max(F, 1 + N(0, sigma)), which puts every draw below F AT F (2.4 % of the pairs at
 * sigma = 0.5): the planners then route through those near-free edges and ECEF's delay was not
 * monotone in sigma. The floor stays the clamp's 0.01 so that only the point mass goes; a
 * higher floor also cuts the normal's tail and flattens the curve. ECEF / TTCC delay at sigma
 * 0.3, 0.4, 0.5 (`--nodes 100 --trials 100`, the default sigmas and seed): redraw 0.01
 * 111 / 186 / 220 % and 57 / 88 / 105 %; clamp 168 / 452 / 324 % and 64 / 147 / 173 %; redraw
 * 0.1 73 / 87 / 90 % and 49 / 59 / 65 %.
 * M0: message 1 MB, per ordered pair latency U[10 us, 1 ms] and bandwidth
 * U[10 KB/s, 200 MB/s] (002 §4). Output: mean execution time per (nodes, sigma) and the ratio
 * of delay (P(E_sigma) - P(E_0)) / P(E_0) of each algorithm against its own sigma = 0 time.
 * Everything is seeded (--seed); the same M0 is used for every sigma of a trial. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pictures.h"

/* The default smallest distortion factor (--floor): the clamp's value of old, so that the
 * redraw rule differs from the clamp only in where the draws below it go. */
#define DEFAULT_FLOOR 0.01

/* One distortion factor: 1 when sigma is 0; else 1 + N(0, sigma), drawn again until >= floor
 * (clamp = 0) or raised to floor (clamp = 1). */
static double distortion(hc_rng_t *r, double sigma, int clamp, double floor_)
{
    if (!(sigma > 0))
        return 1;
    for (;;) {
        double f = 1 + sigma * hc_rng_normal(r);
        if (clamp)
            return f < floor_ ? floor_ : f;
        if (f >= floor_)
            return f;
    }
}

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll experiment ttcc [--nodes LIST] [--error-sigma LIST] [--trials N]\n"
            "                               [--alpha A] [--msg SIZE] [--seed S] -o DIR\n\n"
            "Reproduce Cha et al. Figures 8-11: ECEF and TTCC planned on a distorted cost matrix\n"
            "(each cost x its own factor 1 + N(0, sigma)) and replayed on the true one. Latency\n"
            "U[10us, 1ms], bandwidth U[10KB/s, 200MB/s] per ordered pair. Writes DIR/ttcc.csv,\n"
            "DIR/ttcc_time_nodes.svg (Figs. 8/10), DIR/ttcc_time_sigma.svg (Fig. 9) and\n"
            "DIR/ttcc_delay.svg (Fig. 11), and with --png a PNG of each; prints the table at the\n"
            "largest node count beside the paper's numbers.\n\n"
            "Options:\n"
            "  --nodes LIST       node counts (default 10..100:10)\n"
            "  --error-sigma LIST error standard deviations (default 0,0.1,0.2,0.3,0.4,0.5;\n"
            "                     --sigma is the former spelling)\n"
            "  --trials N         cost matrices per node count (default 100; the paper: 1000)\n"
            "  --alpha A          TTCC switch cost, fraction of the mean edge time (default 0)\n"
            "  --msg SIZE         message size (default 1MB)\n"
            "  --distortion RULE  redraw (default): a factor below the floor is drawn again (a\n"
            "                     normal truncated at the floor); clamp: max(floor, 1 + N(0,\n"
            "                     sigma)), the older rule, which piles the low draws at the floor\n"
            "  --floor F          smallest factor, 0 < F < 1 (default 0.01)\n"
            "  --png              also write each plot as PNG (needs rsvg-convert)\n"
            "  --seed S           seed (default 1)\n"
            "  -o, --output DIR   output directory (required; created with its parents)\n"
            "  -h, --help         this help\n\n"
            "Example:\n"
            "  hetcoll experiment ttcc --nodes 10..100:10 --error-sigma 0,0.1,0.2,0.3,0.4,0.5 "
            "--trials 100 --alpha 0 --seed 1 -o /tmp/ttcc\n");
}

/* Plan `algo` on `plan`, replay on `truth`; *t = simulated makespan. */
static int plan_and_replay(const hc_problem_t *plan, const hc_problem_t *truth, const char *algo,
                           double alpha, double *t)
{
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.alpha = alpha;
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_compute(plan, algo, &o, &s);
    hc_sim_result_t *r = NULL;
    if (rc == HC_OK) {
        hc_sim_opts_t so;
        hc_sim_opts_init(&so);
        so.alpha = alpha;
        rc = hc_simulate(s, truth, &so, &r);
    }
    if (rc == HC_OK)
        *t = r->makespan;
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    return rc;
}

int exp_ttcc_main(int argc, char **argv)
{
    const char *cmd = "experiment ttcc";
    static const struct option longopts[] = {{"nodes", required_argument, NULL, 'n'},
                                             {"error-sigma", required_argument, NULL, 'g'},
                                             {"sigma", required_argument, NULL, 'G'},
                                             {"alpha", required_argument, NULL, 'a'},
                                             {"msg", required_argument, NULL, 'm'},
                                             {"distortion", required_argument, NULL, 'd'},
                                             {"floor", required_argument, NULL, 'F'},
                                             {"png", no_argument, NULL, 'P'},
                                             CLI_EXP_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    const char *nodes_s = "10..100:10", *sigma_s = "0,0.1,0.2,0.3,0.4,0.5", *out = NULL;
    uint64_t trials = 100, seed = 1, msg = 1000000;
    double alpha = 0, floor_ = DEFAULT_FLOOR;
    int c, clamp = 0, png = 0;
    const cli_exp_args_t ea = {&trials, &seed, &out, 1000000};
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            nodes_s = optarg;
            break;
        case 'G':
            cli_deprecated("--sigma", "--error-sigma");
            /* fall through */
        case 'g':
            sigma_s = optarg;
            break;
        case 'a':
            if (cli_parse_double(optarg, &alpha) != 0 || alpha < 0)
                return cli_value_error(cmd, "--alpha: expected a number >= 0, got '%s'", optarg);
            break;
        case 'm':
            if (cli_parse_size(optarg, &msg) != 0 || msg == 0)
                return cli_value_error(cmd, "--msg: expected a size > 0 (e.g. 1MB), got '%s'",
                                       optarg);
            break;
        case 'd':
            if (strcmp(optarg, "redraw") == 0 || strcmp(optarg, "clamp") == 0)
                clamp = strcmp(optarg, "clamp") == 0;
            else
                return cli_value_error(cmd, "--distortion: expected redraw or clamp, got '%s'",
                                       optarg);
            break;
        case 'F':
            if (cli_parse_double(optarg, &floor_) != 0 || !(floor_ > 0) || !(floor_ < 1))
                return cli_value_error(cmd, "--floor: expected a number in (0, 1), got '%s'",
                                       optarg);
            break;
        case 'P':
            png = 1;
            break;
        case 'h':
            help(stdout);
            return CLI_OK;
        default: {
            int orc = cli_exp_option(cmd, c, optarg, argv, &ea);
            if (orc != CLI_OK)
                return orc;
        }
        }
    }
    int rc = cli_check_args_done(cmd, argc, argv, out);
    if (rc != CLI_OK)
        return rc;
    uint64_t *nodes = NULL;
    double *sig = NULL;
    size_t nn = 0, ns = 0;
    if (cli_parse_u64_list(nodes_s, &nodes, &nn) != 0 || nn == 0)
        return cli_value_error(
            cmd, "--nodes: expected a list like 10..100:10 (at most 100000 values), got '%s'",
            nodes_s);
    if (cli_parse_double_list(sigma_s, &sig, &ns) != 0 || ns == 0) {
        free(nodes);
        return cli_value_error(
            cmd, "--error-sigma: expected a list like 0,0.1,0.5 (at most 100000 values), got '%s'",
            sigma_s);
    }
    rc = cli_check_u64_range(cmd, "--nodes", nodes, nn, 2, 2000);
    for (size_t k = 0; k < ns && rc == CLI_OK; k++)
        if (!(sig[k] >= 0) || sig[k] > 10)
            rc = cli_value_error(cmd, "--error-sigma: %g out of range 0..10", sig[k]);
    size_t s0 = ns;
    for (size_t k = 0; k < ns; k++)
        if (sig[k] == 0)
            s0 = k;
    if (rc == CLI_OK && png)
        rc = cli_png_check();
    if (rc == CLI_OK)
        rc = cli_make_outdir(out);
    /* sums[(i * ns + k) * 2 + a], a = 0 ECEF, 1 TTCC */
    double *sums = rc == CLI_OK ? calloc(nn * ns * 2, sizeof *sums) : NULL;
    if (rc == CLI_OK && !sums)
        rc = cli_error("out of memory");
    size_t total = nn * (size_t)trials, done = 0;
    for (size_t i = 0; i < nn && rc == CLI_OK; i++) {
        uint32_t P = (uint32_t)nodes[i];
        hc_rng_t r;
        hc_rng_seed(&r, seed * 1000003u + P);
        hc_matrix_t *m0 = NULL, *m1 = NULL;
        int lrc = hc_matrix_create(P, P, 0, &m0);
        if (lrc == HC_OK)
            lrc = hc_matrix_create(P, P, 0, &m1);
        if (lrc != HC_OK)
            rc = cli_fail(lrc, cmd);
        for (uint64_t tr = 0; tr < trials && rc == CLI_OK; tr++) {
            for (uint32_t a = 0; a < P; a++)
                for (uint32_t b = 0; b < P; b++)
                    if (a != b)
                        HC_AT(m0, a, b) = hc_rng_range(&r, 10e-6, 1e-3) +
                                          (double)msg / hc_rng_range(&r, 10e3, 200e6);
            hc_problem_t truth, plan;
            hc_problem_init(&truth, HC_COLL_BCAST);
            truth.P = P;
            truth.costs = m0;
            truth.msg_bytes = msg;
            truth.root = (uint32_t)hc_rng_below(&r, P);
            plan = truth;
            plan.costs = m1;
            for (size_t k = 0; k < ns && rc == CLI_OK; k++) {
                for (uint32_t a = 0; a < P; a++)
                    for (uint32_t b = 0; b < P; b++) {
                        double f = distortion(&r, sig[k], clamp, floor_);
                        HC_AT(m1, a, b) = a == b ? 0 : HC_AT(m0, a, b) * f;
                    }
                double te = 0, tt = 0;
                lrc = plan_and_replay(&plan, &truth, "ecef", alpha, &te);
                if (lrc == HC_OK)
                    lrc = plan_and_replay(&plan, &truth, "ttcc", alpha, &tt);
                if (lrc != HC_OK) {
                    rc = cli_fail(lrc, cmd);
                    break;
                }
                sums[(i * ns + k) * 2 + 0] += te;
                sums[(i * ns + k) * 2 + 1] += tt;
            }
            cli_progress("ttcc", ++done, total);
        }
        hc_matrix_destroy(m0);
        hc_matrix_destroy(m1);
    }
    char path[4096];
    FILE *csv = NULL;
    if (rc == CLI_OK && !(csv = cli_open_in_dir(out, "ttcc.csv")))
        rc = CLI_ERROR;
    double T = (double)trials;
#define MEAN(i, k, a) (sums[((i)*ns + (k)) * 2 + (a)] / T)
#define DELAY(i, k, a) (s0 < ns ? 100 * (MEAN(i, k, a) - MEAN(i, s0, a)) / MEAN(i, s0, a) : NAN)
    if (rc == CLI_OK) {
        fprintf(csv, "nodes,sigma,trials,alpha,ecef_time_s,ttcc_time_s,ecef_delay_pct,"
                     "ttcc_delay_pct\n");
        for (size_t i = 0; i < nn; i++)
            for (size_t k = 0; k < ns; k++)
                fprintf(csv, "%llu,%g,%llu,%g,%.9g,%.9g,%.4f,%.4f\n", (unsigned long long)nodes[i],
                        sig[k], (unsigned long long)trials, alpha, MEAN(i, k, 0), MEAN(i, k, 1),
                        DELAY(i, k, 0), DELAY(i, k, 1));
        rc = cli_close_file(csv, "ttcc.csv", rc);
        size_t last = nn - 1;
        printf("Cha et al. Fig. 11: N = %llu, %llu trials, alpha = %g, seed %llu, distortion %s "
               "%g (%s); ratio of delay (P(E_sigma) - P(E_0)) / P(E_0), paper in parentheses\n",
               (unsigned long long)nodes[last], (unsigned long long)trials, alpha,
               (unsigned long long)seed, clamp ? "clamp" : "redraw", floor_,
               clamp ? "max(floor, 1 + N(0, sigma))"
                     : "1 + N(0, sigma) drawn again below the floor");
        printf("%6s %14s %14s %16s %16s\n", "sigma", "ECEF time(s)", "TTCC time(s)", "ECEF delay",
               "TTCC delay");
        for (size_t k = 0; k < ns; k++) {
            const char *pe = "", *pt = "";
            if (fabs(sig[k] - 0.3) < 1e-9 && nodes[last] == 100) {
                pe = " (55%)";
                pt = " (49%)";
            } else if (fabs(sig[k] - 0.4) < 1e-9 && nodes[last] == 100) {
                pe = " (226%)";
                pt = " (76%)";
            }
            char be[40], bt[40];
            snprintf(be, sizeof be, "%.1f%%%s", DELAY(last, k, 0), pe);
            snprintf(bt, sizeof bt, "%.1f%%%s", DELAY(last, k, 1), pt);
            printf("%6g %14.6g %14.6g %16s %16s\n", sig[k], MEAN(last, k, 0), MEAN(last, k, 1), be,
                   bt);
        }
        /* plots */
        size_t nser = 2 * ns;
        double *x = malloc(nn * sizeof *x), *xs = malloc(ns * sizeof *xs);
        double *y = malloc(nser * nn * sizeof *y), *ys = malloc(4 * ns * sizeof *ys);
        cli_series_t *ser = malloc((nser + 4) * sizeof *ser);
        char(*names)[40] = malloc(nser * sizeof *names);
        if (!x || !xs || !y || !ys || !ser || !names) {
            rc = cli_error("out of memory");
        } else {
            for (size_t i = 0; i < nn; i++)
                x[i] = (double)nodes[i];
            for (size_t k = 0; k < ns; k++)
                for (int a = 0; a < 2; a++) {
                    size_t q = k * 2 + (size_t)a;
                    for (size_t i = 0; i < nn; i++)
                        y[q * nn + i] = MEAN(i, k, a);
                    snprintf(names[q], sizeof names[q], "%s sigma=%g", a ? "TTCC" : "ECEF", sig[k]);
                    ser[q] = (cli_series_t){names[q], y + q * nn};
                }
            /* one colour per sigma; ECEF solid with circles, TTCC dashed with squares */
            cli_plot_style_t *st = malloc(nser * sizeof *st);
            for (size_t q = 0; st && q < nser; q++)
                st[q] = (cli_plot_style_t){(int)(q / 2) + 1, (int)(q % 2) + 1};
            snprintf(path, sizeof path, "%s/ttcc_time_nodes.svg", out);
            if (!st)
                rc = cli_error("out of memory");
            else if (cli_plot_svg_styled(
                         path, "ECEF vs TTCC execution time (Cha et al. Figs. 8, 10)", "nodes",
                         "execution time (s)", x, nn, ser, nser, 0, st) != 0)
                rc = CLI_ERROR;
            free(st);
            for (size_t k = 0; k < ns; k++) {
                xs[k] = sig[k];
                ys[k] = MEAN(last, k, 0);
                ys[ns + k] = MEAN(last, k, 1);
                ys[2 * ns + k] = DELAY(last, k, 0);
                ys[3 * ns + k] = DELAY(last, k, 1);
            }
            cli_series_t s2[4] = {
                {"ECEF", ys}, {"TTCC", ys + ns}, {"ECEF", ys + 2 * ns}, {"TTCC", ys + 3 * ns}};
            const cli_plot_style_t st2[2] = {{1, 1}, {2, 2}};
            char title2[160];
            snprintf(path, sizeof path, "%s/ttcc_time_sigma.svg", out);
            snprintf(title2, sizeof title2, "execution time vs sigma, N = %llu (Cha et al. Fig. 9)",
                     (unsigned long long)nodes[last]);
            if (rc == CLI_OK && cli_plot_svg_styled(path, title2, "sigma", "execution time (s)", xs,
                                                    ns, s2, 2, 0, st2) != 0)
                rc = CLI_ERROR;
            snprintf(path, sizeof path, "%s/ttcc_delay.svg", out);
            snprintf(title2, sizeof title2,
                     "ratio of delay, N = %llu, %s distortion (Cha et al. Fig. 11)",
                     (unsigned long long)nodes[last], clamp ? "clamped" : "redrawn");
            if (rc == CLI_OK && cli_plot_svg_styled(path, title2, "sigma", "delay vs sigma = 0 (%)",
                                                    xs, ns, s2 + 2, 2, 0, st2) != 0)
                rc = CLI_ERROR;
            static const char *const plots[] = {"ttcc_time_nodes", "ttcc_time_sigma", "ttcc_delay"};
            for (size_t k = 0; png && rc == CLI_OK && k < 3; k++) {
                snprintf(path, sizeof path, "%s/%s.svg", out, plots[k]);
                rc = cli_svg_to_png(path);
            }
            if (rc == CLI_OK)
                printf("wrote %s/ttcc.csv, ttcc_time_nodes.svg, ttcc_time_sigma.svg, "
                       "ttcc_delay.svg%s\n",
                       out, png ? " and their .png" : "");
        }
        free(x);
        free(xs);
        free(y);
        free(ys);
        free(ser);
        free(names);
    }
#undef MEAN
#undef DELAY
    free(sums);
    free(nodes);
    free(sig);
    return rc;
}
