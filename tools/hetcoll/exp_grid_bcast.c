/* `hetcoll experiment grid-bcast`: 004 (Barchet-Steffenel & Mounie) Figure 4, the
 * inter-cluster broadcast heuristics on simulated grids. C clusters; between coordinators a
 * per-pair latency U[1 ms, 15 ms] and bandwidth U[1, 100] MB/s, a 1 MB message; each cluster
 * then broadcasts internally in T_k ~ U[200 ms, 3000 ms]. Heuristics: flat tree, FEF, ECEF,
 * ECEF-LA, ECEF-LAt, ECEF-LAT (hc_bcast_edge_order, the
 * greedy edge engine the hierarchical schedules use). Timing as in the hierarchical schedule: a
 * coordinator sends its inter-cluster messages one at a time (1-port), then its cluster's broadcast
 * takes T_k; the makespan is the last cluster's completion. Seeded (--seed). */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll experiment grid-bcast [--clusters LIST] [--trials N] [--msg SIZE]\n"
            "                                     [--intra MODE] [--seed S] -o DIR\n\n"
            "Reproduce Barchet-Steffenel & Mounie 2007 Figure 4: completion time of the\n"
            "inter-cluster broadcast heuristics (flat, FEF, ECEF, ECEF-LA, ECEF-LAt = ecef-lat,\n"
            "ECEF-LAT = ecef-lamax) on random grids: inter-cluster latency U[0.001, 0.015] s,\n"
            "bandwidth U[1e6, 1e8] B/s, intra-cluster broadcast time T_k U[0.2, 3] s. Writes\n"
            "DIR/grid_bcast.csv and DIR/grid_bcast.svg; prints the table.\n\n"
            "Options:\n"
            "  --clusters LIST    cluster counts (default 2..50)\n"
            "  --trials N         grids per cluster count (default 100)\n"
            "  --msg SIZE         message size (default 1MB = 1000000 B)\n"
            "  --intra MODE       when a cluster's broadcast starts: after-sends (default;\n"
            "                     1-port, after the coordinator's inter-cluster sends, as\n"
            "                     the hierarchical schedules do) or on-receipt (overlapped)\n"
            "  --seed S           seed (default 1)\n"
            "  -o, --output DIR   output directory (created with its parents; required)\n"
            "  -h, --help         this help\n"
            "Deprecated spelling, still accepted: --out.\n\n"
            "Example:\n"
            "  hetcoll experiment grid-bcast --clusters 2..50 --trials 100 -o out/grid\n");
}

/* Completion time of `rule` on C clusters. */
static int evaluate(const char *rule, uint32_t C, const double *c, const double *T, int on_receipt,
                    uint32_t *from, uint32_t *to, double *port, double *recv, double *out)
{
    int rc = hc_bcast_edge_order(rule, C, c, T, 0, from, to);
    if (rc != HC_OK)
        return rc;
    for (uint32_t k = 0; k < C; k++)
        port[k] = recv[k] = 0;
    for (uint32_t i = 0; i + 1 < C; i++) {
        uint32_t a = from[i], b = to[i];
        double st = port[a] > recv[a] ? port[a] : recv[a];
        double end = st + c[(size_t)a * C + b];
        port[a] = end;
        recv[b] = end;
    }
    double mk = 0;
    for (uint32_t k = 0; k < C; k++) {
        double d = (on_receipt || port[k] < recv[k] ? recv[k] : port[k]) + T[k];
        if (d > mk)
            mk = d;
    }
    *out = mk;
    return HC_OK;
}

int exp_grid_bcast_main(int argc, char **argv)
{
    const char *cmd = "experiment grid-bcast";
    static const struct option longopts[] = {{"clusters", required_argument, NULL, 'c'},
                                             {"msg", required_argument, NULL, 'm'},
                                             {"intra", required_argument, NULL, 'i'},
                                             CLI_EXP_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    const char *cl_s = "2..50", *out = NULL;
    uint64_t trials = 100, seed = 1, msg = 1000000;
    int ch, on_receipt = 0, rc;
    const cli_exp_args_t ea = {&trials, &seed, &out, 1000000};
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'c':
            cl_s = optarg;
            break;
        case 'm':
            if (cli_parse_size(optarg, &msg) != 0 || msg == 0)
                return cli_value_error(cmd, "--msg: expected a size > 0 (e.g. 1MB), got '%s'",
                                       optarg);
            break;
        case 'i':
            if (strcmp(optarg, "after-sends") == 0)
                on_receipt = 0;
            else if (strcmp(optarg, "on-receipt") == 0)
                on_receipt = 1;
            else
                return cli_value_error(cmd, "--intra: expected after-sends or on-receipt, got '%s'",
                                       optarg);
            break;
        case 'h':
            help(stdout);
            return CLI_OK;
        default:
            if ((rc = cli_exp_option(cmd, ch, optarg, argv, &ea)) != CLI_OK)
                return rc;
        }
    }
    rc = cli_check_args_done(cmd, argc, argv, out);
    if (rc != CLI_OK)
        return rc;
    uint64_t *cls = NULL;
    size_t nc = 0;
    if (cli_parse_u64_list(cl_s, &cls, &nc) != 0 || nc == 0)
        return cli_value_error(
            cmd, "--clusters: expected a list like 2..50 (at most 100000 values), got '%s'", cl_s);
    rc = cli_check_u64_range(cmd, "--clusters", cls, nc, 2, 1000);
    uint64_t cmax = 0;
    for (size_t i = 0; i < nc; i++)
        if (cls[i] > cmax)
            cmax = cls[i];
    if (rc == CLI_OK)
        rc = cli_make_outdir(out);
    enum { NR = 6 }; /* flat, fef, ecef, ecef-la, ecef-lat, ecef-lamax */
    double *sums = rc == CLI_OK ? calloc(nc * NR, sizeof *sums) : NULL;
    size_t *worst_flat = rc == CLI_OK ? calloc(nc, sizeof *worst_flat) : NULL;
    double *c = rc == CLI_OK ? malloc(cmax * cmax * sizeof *c) : NULL;
    double *T = rc == CLI_OK ? malloc(cmax * sizeof *T) : NULL;
    double *port = rc == CLI_OK ? malloc(cmax * sizeof *port) : NULL;
    double *recv = rc == CLI_OK ? malloc(cmax * sizeof *recv) : NULL;
    uint32_t *from = rc == CLI_OK ? malloc(cmax * sizeof *from) : NULL;
    uint32_t *to = rc == CLI_OK ? malloc(cmax * sizeof *to) : NULL;
    if (rc == CLI_OK && (!sums || !worst_flat || !c || !T || !port || !recv || !from || !to))
        rc = cli_error("out of memory");
    size_t total = nc * (size_t)trials, done = 0;
    cli_progress("grid-bcast", 0, total);
    for (size_t i = 0; i < nc && rc == CLI_OK; i++) {
        uint32_t C = (uint32_t)cls[i];
        hc_rng_t r;
        hc_rng_seed(&r, seed * 1000003u + C);
        for (uint64_t tr = 0; tr < trials && rc == CLI_OK; tr++) {
            for (uint32_t a = 0; a < C; a++) {
                T[a] = hc_rng_range(&r, 0.2, 3.0);
                for (uint32_t b = 0; b < C; b++)
                    c[(size_t)a * C + b] = a == b ? INFINITY
                                                  : hc_rng_range(&r, 1e-3, 15e-3) +
                                                        (double)msg / hc_rng_range(&r, 1e6, 100e6);
            }
            double t[NR];
            for (int q = 0; q < NR && rc == CLI_OK; q++) {
                int lrc = evaluate(hc_bcast_edge_rule_name((size_t)q), C, c, T, on_receipt, from,
                                   to, port, recv, &t[q]);
                if (lrc != HC_OK)
                    rc = cli_fail(lrc, cmd);
                sums[i * NR + (size_t)q] += t[q];
            }
            int flat_worst = 1;
            for (int q = 1; q < NR; q++)
                if (t[q] > t[0] * (1 + 1e-12))
                    flat_worst = 0;
            worst_flat[i] += (size_t)flat_worst;
            cli_progress("grid-bcast", ++done, total);
        }
    }
    char path[4096];
    FILE *csv = NULL;
    if (rc == CLI_OK && !(csv = cli_open_in_dir(out, "grid_bcast.csv")))
        rc = CLI_ERROR;
    if (rc == CLI_OK) {
        double Tn = (double)trials;
        fprintf(csv, "clusters,trials");
        for (int q = 0; q < NR; q++)
            fprintf(csv, ",%s_s", hc_bcast_edge_rule_name((size_t)q));
        fprintf(csv, ",flat_worst_pct\n");
        printf("Barchet-Steffenel & Mounie 2007 Fig. 4: mean completion time (s) of the "
               "inter-cluster heuristics, %llu grids "
               "per row, intra-cluster broadcast %s\n",
               (unsigned long long)trials,
               on_receipt ? "on receipt" : "after the inter-cluster sends");
        printf("%8s", "clusters");
        for (int q = 0; q < NR; q++)
            printf(" %9s", hc_bcast_edge_rule_name((size_t)q));
        printf(" %11s\n", "flat worst");
        for (size_t i = 0; i < nc; i++) {
            fprintf(csv, "%llu,%llu", (unsigned long long)cls[i], (unsigned long long)trials);
            printf("%8llu", (unsigned long long)cls[i]);
            for (int q = 0; q < NR; q++) {
                fprintf(csv, ",%.9g", sums[i * NR + (size_t)q] / Tn);
                printf(" %9.4f", sums[i * NR + (size_t)q] / Tn);
            }
            fprintf(csv, ",%.2f\n", 100.0 * (double)worst_flat[i] / Tn);
            printf(" %10.1f%%\n", 100.0 * (double)worst_flat[i] / Tn);
        }
        rc = cli_close_file(csv, "grid_bcast.csv", rc);
        double *x = malloc(nc * sizeof *x), *y = malloc(nc * NR * sizeof *y);
        cli_series_t ser[NR];
        if (!x || !y) {
            rc = cli_error("out of memory");
        } else {
            for (size_t i = 0; i < nc; i++) {
                x[i] = (double)cls[i];
                for (int q = 0; q < NR; q++)
                    y[(size_t)q * nc + i] = sums[i * NR + (size_t)q] / Tn;
            }
            for (int q = 0; q < NR; q++)
                ser[q] = (cli_series_t){hc_bcast_edge_rule_name((size_t)q), y + (size_t)q * nc};
            snprintf(path, sizeof path, "%s/grid_bcast.svg", out);
            if (cli_plot_svg(
                    path,
                    "inter-cluster broadcast heuristics (Barchet-Steffenel & Mounie 2007 Fig. 4)",
                    "clusters", "completion time (s)", x, nc, ser, NR, 0) != 0)
                rc = CLI_ERROR;
            if (rc == CLI_OK)
                printf("wrote %s/grid_bcast.csv, grid_bcast.svg\n", out);
        }
        free(x);
        free(y);
    }
    free(sums);
    free(worst_flat);
    free(c);
    free(T);
    free(port);
    free(recv);
    free(from);
    free(to);
    free(cls);
    return rc;
}
