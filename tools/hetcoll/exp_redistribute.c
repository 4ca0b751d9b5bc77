/* `hetcoll experiment redistribute`: 001 §8.1-8.2, Figures 11-15: the evaluation ratio
 * cost / eta (eta = the lower bound of Proposition 1) of GGP, OGGP, the heuristics on weights
 * and on degrees (and our OGGP+) for k = 1..20 on random bipartite graphs.
 *
 * Instances as in 001 §8.1: n nodes on each side (20), "the number of edges, the edges, and,
 * finally, the weights were chosen randomly with a uniform distribution": m uniform in
 * [1, n^2], m distinct pairs uniform among the n^2, whole weights uniform in [1, 20] (small)
 * or [1, 100000] (large); beta = 1. Trial t uses the same graph for every k and algorithm.
 * Everything is seeded (--seed). */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ALGOS 16

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll experiment redistribute [--nodes N] [--weights small|large|both]\n"
            "                                       [--k LIST] [--trials N] [--seed S]\n"
            "                                       [--beta B] [--algos LIST] -o DIR\n\n"
            "Reproduce Cohen et al. 2006 Figures 11-15: the evaluation ratio cost/eta (eta: the\n"
            "lower bound of Proposition 1) of the redistribution algorithms on random bipartite\n"
            "graphs with N nodes per side (edge count, edges and weights uniform), per k.\n"
            "Writes DIR/redistribute_<weights>.csv (mean and max ratio per algorithm and k) and\n"
            "DIR/redistribute_<weights>_{mean,max}.svg; prints the tables.\n\n"
            "Options:\n"
            "  --nodes N        nodes on each side (default 20)\n"
            "  --weights W      small (1..20), large (1..100000) or both (default both)\n"
            "  --k LIST         values of k, e.g. 1..20 or 2,5,10,15 (default 1..min(N, 20))\n"
            "  --trials N       random graphs per weight class (default 1000)\n"
            "  --seed S         seed (default 1)\n"
            "  --beta B         start-up cost of a step in seconds (default 1)\n"
            "  --algos LIST     comma-separated (default ggp,oggp,oggp+,hweight,hdegree)\n"
            "  -o, --output DIR output directory (created with its parents; required)\n"
            "  -h, --help       this help\n"
            "Deprecated spellings, still accepted: --n (--nodes), --out (--output).\n\n"
            "Example:\n"
            "  hetcoll experiment redistribute --nodes 20 --weights small --k 1..20 "
            "--trials 1000 --seed 1 -o out/kpbs\n");
}

typedef struct acc {
    double sum, max;
    double steps;
    size_t n;
} acc_t;

/* The random graph of trial `t` for weight class `wmax`. */
static int make_instance(uint64_t seed, int wcls, uint64_t t, uint32_t n, double wmax,
                         hc_matrix_t **out, uint32_t *perm)
{
    hc_rng_t r;
    hc_rng_seed(&r, seed * 1000003u + (uint64_t)wcls * 7919u + t * 104729u + 17u);
    int rc = hc_matrix_create(n, n, 0, out);
    if (rc != HC_OK)
        return rc;
    uint32_t nn = n * n;
    uint32_t m = 1 + (uint32_t)hc_rng_below(&r, nn);
    for (uint32_t i = 0; i < nn; i++)
        perm[i] = i;
    for (uint32_t i = 0; i < m; i++) { /* partial Fisher-Yates: m distinct pairs */
        uint32_t j = i + (uint32_t)hc_rng_below(&r, nn - i);
        uint32_t x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
        (*out)->v[perm[i]] = (double)(1 + hc_rng_below(&r, (uint64_t)wmax));
    }
    return HC_OK;
}

int exp_redistribute_main(int argc, char **argv)
{
    const char *cmd = "experiment redistribute";
    static const struct option longopts[] = {{"nodes", required_argument, NULL, 'n'},
                                             {"n", required_argument, NULL, CLI_OPT_OLD_N},
                                             {"weights", required_argument, NULL, 'w'},
                                             {"k", required_argument, NULL, 'k'},
                                             {"beta", required_argument, NULL, 'b'},
                                             {"algos", required_argument, NULL, 'a'},
                                             CLI_EXP_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    const char *k_s = NULL, *out = NULL, *weights = "both";
    const char *algos_s = "ggp,oggp,oggp+,hweight,hdegree";
    uint64_t trials = 1000, seed = 1;
    uint32_t n = 20;
    double beta = 1;
    int c, rc;
    const cli_exp_args_t ea = {&trials, &seed, &out, 10000000};
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_OLD_N:
            cli_deprecated("--n", "--nodes");
            /* fall through */
        case 'n':
            if (cli_parse_u32(optarg, &n) != 0 || n < 1 || n > 1000)
                return cli_value_error(cmd, "--nodes: expected an integer in 1..1000, got '%s'",
                                       optarg);
            break;
        case 'w':
            if (strcmp(optarg, "small") && strcmp(optarg, "large") && strcmp(optarg, "both"))
                return cli_value_error(cmd, "--weights: expected small, large or both, got '%s'",
                                       optarg);
            weights = optarg;
            break;
        case 'k':
            k_s = optarg;
            break;
        case 'b':
            if (cli_parse_double(optarg, &beta) != 0 || !(beta >= 0))
                return cli_value_error(cmd, "--beta: expected seconds >= 0, got '%s'", optarg);
            break;
        case 'a':
            algos_s = optarg;
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
    const char *algos[MAX_ALGOS];
    size_t na = 0;
    rc = cli_parse_algo_list(cmd, HC_COLL_REDISTRIBUTE, algos_s, algos, MAX_ALGOS, &na);
    if (rc != CLI_OK)
        return rc;
    uint64_t *ks = NULL;
    size_t nk = 0;
    char kdef[32];
    if (!k_s) { /* default 1..min(n, 20) */
        snprintf(kdef, sizeof kdef, "1..%u", n < 20 ? n : 20);
        k_s = kdef;
    }
    if (cli_parse_u64_list(k_s, &ks, &nk) != 0 || nk == 0)
        return cli_value_error(
            cmd, "--k: expected a list like 1..20 (at most 100000 values), got '%s'", k_s);
    rc = cli_check_u64_range(cmd, "--k", ks, nk, 1, n);
    if (rc != CLI_OK) {
        free(ks);
        return rc;
    }
    rc = cli_make_outdir(out);
    static const char *const WNAME[2] = {"small", "large"};
    static const double WMAX[2] = {20, 100000};
    acc_t *acc = calloc(nk * na, sizeof *acc);
    uint32_t *perm = malloc((size_t)n * n * sizeof *perm);
    double *x = malloc(nk * sizeof *x), *ys = malloc(2 * na * nk * sizeof *ys);
    cli_series_t *ser = malloc(2 * na * sizeof *ser);
    if (rc == CLI_OK && (!acc || !perm || !x || !ys || !ser))
        rc = cli_error("out of memory");
    for (int wc = 0; wc < 2 && rc == CLI_OK; wc++) {
        if (strcmp(weights, "both") && strcmp(weights, WNAME[wc]))
            continue;
        memset(acc, 0, nk * na * sizeof *acc);
        size_t total = (size_t)trials * nk, done = 0;
        char label[64];
        snprintf(label, sizeof label, "redistribute %s", WNAME[wc]);
        cli_progress(label, 0, total);
        for (uint64_t t = 0; t < trials && rc == CLI_OK; t++) {
            hc_matrix_t *m = NULL;
            int st = make_instance(seed, wc, t, n, WMAX[wc], &m, perm);
            if (st != HC_OK) {
                rc = cli_fail(st, cmd);
                break;
            }
            for (size_t ki = 0; ki < nk && rc == CLI_OK; ki++) {
                hc_problem_t pb;
                hc_problem_init(&pb, HC_COLL_REDISTRIBUTE);
                pb.P = 2 * n;
                pb.n1 = pb.n2 = n;
                pb.costs = m;
                pb.k = (uint32_t)ks[ki];
                pb.beta = beta;
                for (size_t a = 0; a < na && rc == CLI_OK; a++) {
                    hc_schedule_t *s = NULL;
                    st = hc_schedule_compute(&pb, algos[a], NULL, &s);
                    if (st == HC_OK)
                        st = hc_schedule_validate(s, &pb);
                    if (st != HC_OK) {
                        rc = cli_fail(st, algos[a]);
                    } else if (s->lower_bound > 0) {
                        acc_t *e = &acc[ki * na + a];
                        double ratio = s->makespan / s->lower_bound;
                        e->sum += ratio;
                        e->max = fmax(e->max, ratio);
                        e->steps += (double)s->n_steps;
                        e->n++;
                    }
                    hc_schedule_destroy(s);
                }
                cli_progress(label, ++done, total);
            }
            hc_matrix_destroy(m);
        }
        if (rc != CLI_OK)
            break;
        /* CSV */
        FILE *csv = cli_open_in_dir(out, "redistribute_%s.csv", WNAME[wc]);
        if (!csv) {
            rc = CLI_ERROR;
            break;
        }
        fprintf(csv, "weights,n,k,algo,trials,mean_cost_over_eta,max_cost_over_eta,mean_steps\n");
        for (size_t ki = 0; ki < nk; ki++)
            for (size_t a = 0; a < na; a++) {
                const acc_t *e = &acc[ki * na + a];
                double d = e->n ? (double)e->n : NAN;
                fprintf(csv, "%s,%u,%llu,%s,%zu,%.6f,%.6f,%.3f\n", WNAME[wc], n,
                        (unsigned long long)ks[ki], algos[a], e->n, e->sum / d, e->max,
                        e->steps / d);
            }
        char csv_name[64];
        snprintf(csv_name, sizeof csv_name, "redistribute_%s.csv", WNAME[wc]);
        rc = cli_close_file(csv, csv_name, rc);
        if (rc != CLI_OK)
            break;
        /* table */
        printf("Cohen et al. 2006 Figs. 11-15, %s weights (1..%g), n = %u, beta = %g, %llu graphs: "
               "cost/eta mean / max\n",
               WNAME[wc], WMAX[wc], n, beta, (unsigned long long)trials);
        printf("%4s", "k");
        for (size_t a = 0; a < na; a++)
            printf("  %-17s", algos[a]);
        printf("\n");
        for (size_t ki = 0; ki < nk; ki++) {
            printf("%4llu", (unsigned long long)ks[ki]);
            for (size_t a = 0; a < na; a++) {
                const acc_t *e = &acc[ki * na + a];
                char b[48];
                snprintf(b, sizeof b, "%.4f / %.4f", e->n ? e->sum / (double)e->n : NAN, e->max);
                printf("  %-17s", b);
            }
            printf("\n");
        }
        for (size_t a = 0; a < na; a++) {
            double mx = 0, mean_mx = 0, sum = 0;
            size_t cnt = 0;
            for (size_t ki = 0; ki < nk; ki++) {
                const acc_t *e = &acc[ki * na + a];
                if (!e->n)
                    continue;
                mx = fmax(mx, e->max);
                mean_mx = fmax(mean_mx, e->sum / (double)e->n);
                sum += e->sum;
                cnt += e->n;
            }
            printf("  %-8s over all k: max %.4f, largest per-k mean %.4f, overall mean %.4f\n",
                   algos[a], mx, mean_mx, cnt ? sum / (double)cnt : NAN);
        }
        printf("  (Cohen et al. 2006 §8.1, heuristics: max < %s, mean < %s)\n", wc ? "2" : "2.4",
               wc ? "1.3" : "1.8");
        /* plots */
        for (size_t ki = 0; ki < nk; ki++)
            x[ki] = (double)ks[ki];
        for (size_t a = 0; a < na; a++) {
            for (size_t ki = 0; ki < nk; ki++) {
                const acc_t *e = &acc[ki * na + a];
                ys[a * nk + ki] = e->n ? e->sum / (double)e->n : NAN;
                ys[(na + a) * nk + ki] = e->n ? e->max : NAN;
            }
            ser[a] = (cli_series_t){algos[a], ys + a * nk};
            ser[na + a] = (cli_series_t){algos[a], ys + (na + a) * nk};
        }
        char title[128], path[4096];
        snprintf(path, sizeof path, "%s/redistribute_%s_mean.svg", out, WNAME[wc]);
        snprintf(title, sizeof title, "mean cost/eta, %s weights (Cohen et al. 2006 Figs. 11-15)",
                 WNAME[wc]);
        if (cli_plot_svg(path, title, "k", "cost / eta", x, nk, ser, na, 0) != 0)
            rc = CLI_ERROR;
        snprintf(path, sizeof path, "%s/redistribute_%s_max.svg", out, WNAME[wc]);
        snprintf(title, sizeof title, "max cost/eta, %s weights (Cohen et al. 2006 Figs. 11-15)",
                 WNAME[wc]);
        if (rc == CLI_OK &&
            cli_plot_svg(path, title, "k", "cost / eta", x, nk, ser + na, na, 0) != 0)
            rc = CLI_ERROR;
        if (rc == CLI_OK)
            printf("wrote %s/redistribute_%s.csv, redistribute_%s_mean.svg, "
                   "redistribute_%s_max.svg\n\n",
                   out, WNAME[wc], WNAME[wc], WNAME[wc]);
    }
    free(acc);
    free(perm);
    free(x);
    free(ys);
    free(ser);
    free(ks);
    return rc;
}
