/* `hetcoll experiment alltoall`: 000 §5, Figures 9-12: completion time of the total exchange
 * schedules against the lower bound, per number of processors, on random networks guided by
 * the GUSTO tables.
 *
 * Network of (workload, P, trial): `random:gusto:P=<P>:seed=<derived>` (src/net/random.c,
 * docs/formats.md): every pair independently, latency uniform in [4.5, 89.5] ms (the range of
 * 000 Table 1), bandwidth log-uniform in [246, 4976] kb/s (the range of Table 2), symmetric.
 * Hockney costs L_ij + m_ij / B_ij. Message sizes (000 §5):
 *   small    every message --small bytes (default 1kB = 1000 B)
 *   large    every message --large bytes (default 1MB = 10^6 B)
 *   mixed    each ordered pair independently small or large with probability 1/2
 *   servers  20 % of the nodes (at least 1; nodes 0..S-1) are servers: a server sends a large
 *            message to every client; server-server, client-client and client-server messages
 *            are small (the data is partitioned evenly over the servers, so they are balanced).
 * Every algorithm sees the same instances; randomised algorithms get seed = trial + 1. Every
 * schedule is validated. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define MAX_ALGOS 16
#define N_WL 4

static const char *const WL_NAME[N_WL] = {"small", "large", "mixed", "servers"};
static const char *const WL_FIG[N_WL] = {"Figure 9", "Figure 10", "Figure 11", "Figure 12"};

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll experiment alltoall [--workload small|large|mixed|servers|all]\n"
            "                                   [--nodes LIST] [--trials N] [--seed S]\n"
            "                                   [--algos LIST] [--small SIZE] [--large SIZE]\n"
            "                                   -o DIR\n\n"
            "Reproduce Bhat et al. 1998 Figures 9-12: makespan / lower bound of the total\n"
            "exchange schedules on random GUSTO-guided networks (random:gusto), per number of\n"
            "processors. Writes DIR/alltoall_<workload>.csv (mean/max makespan/LB, mean makespan\n"
            "and lower bound in seconds, mean scheduling time per algorithm and P),\n"
            "DIR/alltoall_<workload>.svg (mean makespan/LB) and DIR/alltoall_<workload>_time.svg\n"
            "(mean makespan in seconds, with the lower bound); prints the tables.\n\n"
            "Options:\n"
            "  --workload W   small, large, mixed, servers or all (default all)\n"
            "  --nodes LIST   numbers of processors (default 10,20,30,40,50)\n"
            "  --trials N     random networks per workload and P (default 100)\n"
            "  --seed S       seed (default 1)\n"
            "  --algos LIST   comma-separated (default caterpillar,maxmatch,minmatch,greedy,\n"
            "                 openshop,openshop-lb,auto)\n"
            "  --small SIZE   small message (default 1kB = 1000 B)\n"
            "  --large SIZE   large message (default 1MB = 1000000 B)\n"
            "  -o, --output DIR\n"
            "                 output directory (created with its parents; required)\n"
            "  -h, --help     this help\n"
            "Deprecated spellings, still accepted: --procs (--nodes), --out (--output).\n\n"
            "Example:\n"
            "  hetcoll experiment alltoall --workload small --nodes 10,20,30,40,50 --trials 100 "
            "--seed 1 -o out/a2a\n");
}

typedef struct acc {
    double sum, max, mk, lb, time;
    size_t n;
} acc_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Costs of one instance. */
static int make_instance(uint64_t seed, int wl, uint32_t P, uint64_t t, uint64_t small,
                         uint64_t large, hc_matrix_t **costs, hc_matrix_t **sizes)
{
    uint64_t iseed = seed * 1000003u + (uint64_t)wl * 7919u + (uint64_t)P * 104729u + t * 15485863u;
    char spec[128];
    snprintf(spec, sizeof spec, "random:gusto:P=%u:seed=%llu", P, (unsigned long long)iseed);
    hc_platform_t *plat = NULL;
    int rc = hc_platform_load(spec, &plat);
    if (rc != HC_OK)
        return rc;
    rc = hc_matrix_create(P, P, 0, sizes);
    hc_rng_t r;
    hc_rng_seed(&r, iseed ^ 0x5eedULL);
    uint32_t S = (uint32_t)floor(0.2 * P + 0.5);
    if (S < 1)
        S = 1;
    for (uint32_t i = 0; rc == HC_OK && i < P; i++) {
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            uint64_t m = small;
            if (wl == 1)
                m = large;
            else if (wl == 2)
                m = hc_rng_uniform(&r) < 0.5 ? small : large;
            else if (wl == 3)
                m = i < S && j >= S ? large : small;
            HC_AT(*sizes, i, j) = (double)m;
        }
    }
    if (rc == HC_OK)
        rc = hc_cost_sizes(plat, HC_MODEL_HOCKNEY, *sizes, costs);
    hc_platform_destroy(plat);
    return rc;
}

int exp_alltoall_main(int argc, char **argv)
{
    const char *cmd = "experiment alltoall";
    static const struct option longopts[] = {{"workload", required_argument, NULL, 'w'},
                                             {"nodes", required_argument, NULL, 'p'},
                                             {"procs", required_argument, NULL, CLI_OPT_OLD_PROCS},
                                             {"algos", required_argument, NULL, 'a'},
                                             {"small", required_argument, NULL, 'S'},
                                             {"large", required_argument, NULL, 'L'},
                                             CLI_EXP_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    const char *procs_s = "10,20,30,40,50", *out = NULL, *workload = "all";
    const char *algos_s = "caterpillar,maxmatch,minmatch,greedy,openshop,openshop-lb,auto";
    uint64_t trials = 100, seed = 1, small = 1000, large = 1000000;
    int c, rc;
    const cli_exp_args_t ea = {&trials, &seed, &out, 10000000};
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'w':
            if (strcmp(optarg, "all") && strcmp(optarg, "small") && strcmp(optarg, "large") &&
                strcmp(optarg, "mixed") && strcmp(optarg, "servers"))
                return cli_value_error(
                    cmd, "--workload: expected small, large, mixed, servers or all, got '%s'",
                    optarg);
            workload = optarg;
            break;
        case CLI_OPT_OLD_PROCS:
            cli_deprecated("--procs", "--nodes");
            /* fall through */
        case 'p':
            procs_s = optarg;
            break;
        case 'a':
            algos_s = optarg;
            break;
        case 'S':
            if (cli_parse_size(optarg, &small) != 0 || small == 0)
                return cli_value_error(cmd, "--small: expected a size > 0, got '%s'", optarg);
            break;
        case 'L':
            if (cli_parse_size(optarg, &large) != 0 || large == 0)
                return cli_value_error(cmd, "--large: expected a size > 0, got '%s'", optarg);
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
    rc = cli_parse_algo_list(cmd, HC_COLL_ALLTOALL, algos_s, algos, MAX_ALGOS, &na);
    if (rc != CLI_OK)
        return rc;
    uint64_t *ps = NULL;
    size_t np = 0;
    if (cli_parse_u64_list(procs_s, &ps, &np) != 0 || np == 0)
        return cli_value_error(
            cmd, "--nodes: expected a list like 10,20,30,40,50 (at most 100000 values), got '%s'",
            procs_s);
    rc = cli_check_u64_range(cmd, "--nodes", ps, np, 2, 4096);
    if (rc != CLI_OK) {
        free(ps);
        return rc;
    }
    rc = cli_make_outdir(out);
    acc_t *acc = calloc(np * na, sizeof *acc);
    double *x = malloc(np * sizeof *x), *ys = malloc((na + 1) * np * sizeof *ys);
    cli_series_t *ser = malloc((na + 1) * sizeof *ser);
    if (rc == CLI_OK && (!acc || !x || !ys || !ser))
        rc = cli_error("out of memory");
    for (int wl = 0; wl < N_WL && rc == CLI_OK; wl++) {
        if (strcmp(workload, "all") && strcmp(workload, WL_NAME[wl]))
            continue;
        memset(acc, 0, np * na * sizeof *acc);
        size_t total = (size_t)trials * np, done = 0;
        char label[64];
        snprintf(label, sizeof label, "alltoall %s", WL_NAME[wl]);
        cli_progress(label, 0, total);
        for (size_t pi = 0; pi < np && rc == CLI_OK; pi++) {
            uint32_t P = (uint32_t)ps[pi];
            for (uint64_t t = 0; t < trials && rc == CLI_OK; t++) {
                hc_matrix_t *costs = NULL, *sizes = NULL;
                int st = make_instance(seed, wl, P, t, small, large, &costs, &sizes);
                if (st != HC_OK) {
                    rc = cli_fail(st, cmd);
                    hc_matrix_destroy(costs);
                    hc_matrix_destroy(sizes);
                    break;
                }
                hc_problem_t pb;
                hc_problem_init(&pb, HC_COLL_ALLTOALL);
                pb.P = P;
                pb.costs = costs;
                pb.sizes = sizes;
                hc_algo_opts_t o;
                hc_algo_opts_init(&o);
                o.seed = t + 1;
                for (size_t a = 0; a < na && rc == CLI_OK; a++) {
                    hc_schedule_t *s = NULL;
                    double t0 = now_s();
                    st = hc_schedule_compute(&pb, algos[a], &o, &s);
                    double dt = now_s() - t0;
                    if (st == HC_OK)
                        st = hc_schedule_validate(s, &pb);
                    if (st != HC_OK) {
                        rc = cli_fail(st, algos[a]);
                    } else if (s->lower_bound > 0) {
                        acc_t *e = &acc[pi * na + a];
                        double ratio = s->makespan / s->lower_bound;
                        e->sum += ratio;
                        e->max = fmax(e->max, ratio);
                        e->mk += s->makespan;
                        e->lb += s->lower_bound;
                        e->time += dt;
                        e->n++;
                    }
                    hc_schedule_destroy(s);
                }
                hc_matrix_destroy(costs);
                hc_matrix_destroy(sizes);
                cli_progress(label, ++done, total);
            }
        }
        if (rc != CLI_OK)
            break;
        FILE *csv = cli_open_in_dir(out, "alltoall_%s.csv", WL_NAME[wl]);
        if (!csv) {
            rc = CLI_ERROR;
            break;
        }
        fprintf(csv, "workload,procs,algorithm,trials,mean_makespan_over_lb,max_makespan_over_lb,"
                     "mean_makespan_s,mean_lower_bound_s,mean_sched_time_s\n");
        printf(
            "%s (Bhat et al. 1998 %s): makespan / lower bound, mean / max over %llu trials; mean "
            "scheduling time\n",
            WL_NAME[wl], WL_FIG[wl], (unsigned long long)trials);
        printf("%6s", "P");
        for (size_t a = 0; a < na; a++)
            printf(" %24s", algos[a]);
        printf("\n");
        for (size_t pi = 0; pi < np; pi++) {
            printf("%6llu", (unsigned long long)ps[pi]);
            for (size_t a = 0; a < na; a++) {
                const acc_t *e = &acc[pi * na + a];
                double n = e->n ? (double)e->n : NAN;
                fprintf(csv, "%s,%llu,%s,%zu,%.6f,%.6f,%.6g,%.6g,%.6g\n", WL_NAME[wl],
                        (unsigned long long)ps[pi], algos[a], e->n, e->sum / n, e->max, e->mk / n,
                        e->lb / n, e->time / n);
                char cell[64];
                snprintf(cell, sizeof cell, "%.4f/%.4f %8.2g s", e->sum / n, e->max, e->time / n);
                printf(" %24s", cell);
            }
            printf("\n");
        }
        printf("\n");
        if (fclose(csv) != 0) {
            rc = cli_error("%s/alltoall_%s.csv: write failed", out, WL_NAME[wl]);
            break;
        }
        /* plots: ratio, and seconds with the lower bound */
        for (size_t pi = 0; pi < np; pi++)
            x[pi] = (double)ps[pi];
        for (size_t a = 0; a < na; a++) {
            for (size_t pi = 0; pi < np; pi++) {
                const acc_t *e = &acc[pi * na + a];
                ys[a * np + pi] = e->n ? e->sum / (double)e->n : NAN;
            }
            ser[a].name = algos[a];
            ser[a].y = ys + a * np;
        }
        char title[160], path[4096];
        snprintf(title, sizeof title,
                 "total exchange, %s messages (Bhat et al. 1998 %s): makespan / LB", WL_NAME[wl],
                 WL_FIG[wl]);
        snprintf(path, sizeof path, "%s/alltoall_%s.svg", out, WL_NAME[wl]);
        if (cli_plot_svg(path, title, "processors", "makespan / lower bound", x, np, ser, na, 0) !=
            0) {
            rc = cli_error("%s: cannot write the plot", path);
            break;
        }
        for (size_t a = 0; a <= na; a++) {
            for (size_t pi = 0; pi < np; pi++) {
                const acc_t *e = &acc[pi * na + (a < na ? a : 0)];
                double v = a < na ? e->mk : e->lb;
                ys[a * np + pi] = e->n ? v / (double)e->n : NAN;
            }
            ser[a].name = a < na ? algos[a] : "lower bound";
            ser[a].y = ys + a * np;
        }
        snprintf(title, sizeof title,
                 "total exchange, %s messages (Bhat et al. 1998 %s): completion time", WL_NAME[wl],
                 WL_FIG[wl]);
        snprintf(path, sizeof path, "%s/alltoall_%s_time.svg", out, WL_NAME[wl]);
        if (cli_plot_svg(path, title, "processors", "completion time (s)", x, np, ser, na + 1, 0) !=
            0) {
            rc = cli_error("%s: cannot write the plot", path);
            break;
        }
    }
    free(ps);
    free(acc);
    free(x);
    free(ys);
    free(ser);
    return rc;
}
