/* hetcoll-mpi: the MPI side of the hetcoll CLI (`probe` and `monitor`). Run under mpirun:
 *   mpirun -np P hetcoll-mpi probe [--sizes LIST] [--reps N] [--mode full|clustered|links] [--out
 * F] mpirun -np P hetcoll-mpi monitor --interval S --directory FILE [--mode clustered] [--count N]
 * `hetcoll probe` / `hetcoll monitor` exec this program (tools/hetcoll/cmd_mpi.c). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "netprobe.h"

static void probe_help(void)
{
    printf(
        "Usage: mpirun -np P hetcoll-mpi probe [options]   (or: mpirun -np P hetcoll probe)\n\n"
        "Measure the network between the ranks and print a platform JSON that every\n"
        "--platform option accepts, with a summary on stderr. Three modes:\n"
        "  full       latency (1-byte ping-pong, median), bandwidth and pLogP gaps g(m) of\n"
        "             every ordered pair, in rounds that are matchings (each rank in at most\n"
        "             one measurement at a time); a matrix-form platform with cluster labels\n"
        "  clustered  all-pairs latency, clustering, gaps between cluster representatives\n"
        "             only: C(C-1)+C measurements (Barchet-Steffenel and Mounie 2007)\n"
        "  links      (--links) the sites and their uplinks: C landmark rounds of small\n"
        "             messages, a gap table per site pair and per site, and per site a\n"
        "             fan-out test and a duplex test of concurrent flows, which give each\n"
        "             uplink's capacity and whether both directions share it; a link-level\n"
        "             platform (hetcoll-platform/2): a NIC per rank, an uplink per site, a\n"
        "             backbone, a route per pair. O(C^2) timed transfers for C sites.\n\n"
        "Options:\n"
        "  --mode M           full (default), clustered or links\n"
        "  --links            the same as --mode links\n"
        "  --sizes LIST       gap sizes, increasing (default 1,1KiB,16KiB,256KiB,1MiB;\n"
        "                     links: 1KiB,32KiB,63KiB,64KiB,256KiB, across the 64 KiB step)\n"
        "  --reps N           ping-pongs per pair (default 20; links: per rank and landmark, 4)\n"
        "  --gap-msgs N       messages per gap measurement (default 8; not for links)\n"
        "  --gap-trials N     repetitions of each gap measurement, minimum kept (default 3;\n"
        "                     links: 1)\n"
        "  --rho R            clustering tolerance (default 0.3). links: a host is in the\n"
        "                     landmark's site when its latency is at most (1 + R) x the\n"
        "                     nearest host's (default 3). Repeated latency samples of a pair\n"
        "                     that disagree by more than R draw a warning (noisy hosts)\n"
        "  --flows K          links: concurrent flows per site pair in the uplink tests\n"
        "                     (default 2)\n"
        "  --flow-time S      links: seconds one uplink test should take (default 0.1)\n"
        "  --serial           one measurement at a time (no concurrent pairs; not for links)\n"
        "  -o, --output FILE  write the platform JSON to FILE (default stdout; --out is the\n"
        "                     former spelling)\n"
        "  --report FILE      write counts, times (and, for links, the sites) as JSON to FILE\n"
        "  -h, --help         this help\n");
}

static int write_text(const char *path, const char *text)
{
    FILE *f = path && strcmp(path, "-") != 0 ? fopen(path, "w") : stdout;
    if (!f)
        return -1;
    fputs(text, f);
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    else
        fflush(f);
    return bad ? -1 : 0;
}

static void report_json(FILE *f, const hc__probe_result_t *r, const hc__probe_opts_t *o)
{
    fprintf(f,
            "{\"P\": %u, \"mode\": \"%s\", \"clusters\": %u, \"sizes\": %zu, "
            "\"latency_measurements\": %llu, \"latency_rounds\": %u, \"latency_time_s\": %.6f, "
            "\"gap_measurements\": %llu, \"gap_rounds\": %u, \"gap_time_s\": %.6f, "
            "\"total_time_s\": %.6f, \"full_gap_measurements\": %llu, \"noisy_pairs\": %llu}\n",
            r->P, o->clustered ? "clustered" : "full", r->C, r->S, (unsigned long long)r->n_latency,
            r->rounds_latency, r->t_latency, (unsigned long long)r->n_gap, r->rounds_gap, r->t_gap,
            r->t_total, (unsigned long long)r->P * (r->P - 1), (unsigned long long)r->noise.noisy);
}

static void report_links_json(FILE *f, const hc__links_result_t *r)
{
    fprintf(f, "{\"P\": %u, \"mode\": \"links\", \"clusters\": %u, \"sizes\": %zu, \"sites\": [",
            r->P, r->C, r->S);
    for (uint32_t s = 0; s < r->C; s++) {
        const hc__links_site_t *st = &r->sites[s];
        fprintf(f,
                "%s\n  {\"name\": \"S%u\", \"ranks\": %u, \"landmark\": %u, \"nic_Bps\": %.6g, "
                "\"uplink_Bps\": %.6g, \"uplink_latency_s\": %.6g, \"sharing\": \"%s\", "
                "\"saturated\": %s, \"fanout_Bps\": %.6g, \"duplex_out_Bps\": %.6g, "
                "\"duplex_in_Bps\": %.6g, \"flow_bytes\": %llu}",
                s ? "," : "", s, st->n, st->landmark, st->nic_bw, st->uplink_bw, st->uplink_lat,
                r->C < 2     ? "none"
                : st->shared ? "shared"
                             : "splitduplex",
                st->saturated ? "true" : "false", st->out_Bps, st->duplex_out_Bps,
                st->duplex_in_Bps, (unsigned long long)st->flow_bytes);
    }
    fprintf(f,
            "],\n \"landmark_rounds\": %u, \"pings\": %llu, \"gap_tables\": %llu, "
            "\"uplink_tests\": %llu, \"timed_flows\": %llu, \"flows_per_site_pair\": %u, "
            "\"sites_time_s\": %.6f, \"gaps_time_s\": %.6f, \"uplinks_time_s\": %.6f, "
            "\"total_time_s\": %.6f, \"noisy_pairs\": %llu, \"checked_pairs\": %llu}\n",
            r->landmark_rounds, (unsigned long long)r->pings, (unsigned long long)r->tables,
            (unsigned long long)r->tests, (unsigned long long)r->transfers, r->flows_per_pair,
            r->t_sites, r->t_gaps, r->t_uplinks, r->t_total, (unsigned long long)r->noise.noisy,
            (unsigned long long)r->noise.pairs);
}

/* Rank 0: write the platform, the summary (and warning) and the report; returns an exit code. */
static int probe_output(const hc_platform_t *p, const char *out, const char *summary,
                        const char *warning, const char *report, const hc__probe_result_t *pr,
                        const hc__probe_opts_t *o, const hc__links_result_t *lr)
{
    const char *cmd = "probe";
    char *json = NULL;
    int rc = 0;
    if (hc_platform_to_json(p, &json) != HC_OK) {
        hc__mpi_error(cmd, "%s", hc_error_detail());
        rc = 1;
    } else if (write_text(out, json) != 0) {
        hc__mpi_error(cmd, "%s: cannot write", out);
        rc = 1;
    }
    free(json);
    fprintf(stderr, "%s\n", summary);
    if (warning[0])
        fprintf(stderr, "hetcoll-mpi %s: %s\n", cmd, warning);
    if (report) {
        FILE *f = fopen(report, "w");
        if (!f) {
            hc__mpi_error(cmd, "%s: cannot write", report);
            rc = 1;
        } else {
            if (lr)
                report_links_json(f, lr);
            else
                report_json(f, pr, o);
            if (fclose(f) != 0) {
                hc__mpi_error(cmd, "%s: cannot write", report);
                rc = 1;
            }
        }
    }
    return rc;
}

static int run_links(const hc__probe_opts_t *po, int flows, double flow_time, const char *out,
                     const char *report)
{
    hc__links_opts_t lo;
    hc__links_opts_init(&lo);
    lo.sizes = po->sizes;
    lo.n_sizes = po->n_sizes;
    lo.reps = po->reps;
    lo.gap_trials = po->gap_trials;
    lo.rho = po->rho;
    lo.flows = flows;
    lo.flow_time = flow_time;
    hc__links_result_t r;
    if (hc__links_probe_run(MPI_COMM_WORLD, &lo, &r) != HC_OK) {
        hc__mpi_error("probe", "%s", hc_error_detail());
        return 1;
    }
    int rc = 0;
    if (hc__mpi_rank() == 0) {
        hc_platform_t *p = NULL;
        if (hc__links_to_platform(&r, &p) != HC_OK) {
            hc__mpi_error("probe", "%s", hc_error_detail());
            rc = 1;
        } else {
            size_t n = 512 + 400 * (size_t)r.C;
            char *line = malloc(n), warn[1024];
            hc__probe_noise_warning(&r.noise, "sites",
                                    "probe idle hosts, or raise --reps (or --rho, the site "
                                    "tolerance)",
                                    warn, sizeof warn);
            if (line)
                hc__links_summary(&r, line, n);
            rc = probe_output(p, out, line ? line : "probe: (out of memory for the summary)", warn,
                              report, NULL, po, &r);
            free(line);
        }
        hc_platform_destroy(p);
    }
    hc__links_result_free(&r);
    return rc;
}

int hc__mpi_cmd_probe(int argc, char **argv)
{
    static const struct option longopts[] = {{"sizes", required_argument, NULL, 's'},
                                             {"reps", required_argument, NULL, 'r'},
                                             {"gap-msgs", required_argument, NULL, 'g'},
                                             {"gap-trials", required_argument, NULL, 't'},
                                             {"mode", required_argument, NULL, 'm'},
                                             {"links", no_argument, NULL, 'L'},
                                             {"flows", required_argument, NULL, 'F'},
                                             {"flow-time", required_argument, NULL, 'T'},
                                             {"rho", required_argument, NULL, 'R'},
                                             {"serial", no_argument, NULL, 'S'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"report", required_argument, NULL, 'j'},
                                             {"out", required_argument, NULL, 'O'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "probe", *out = NULL, *report = NULL;
    uint64_t *sizes = NULL;
    size_t nsizes = 0;
    /* 0 / NAN: not given (the defaults depend on the mode) */
    hc__probe_opts_t o = {NULL, 0, 0, 0, 0, 0, NAN, 0, 0};
    int flows = 0;
    double flow_time = NAN;
    int c;
    optind = 1;
    opterr = 0;
    int rc = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1 && rc == 0) {
        int handled = hc__mpi_probe_option(cmd, c, optarg, &o, &sizes, &nsizes);
        if (handled) {
            if (handled < 0)
                rc = 1; /* a bad value */
            continue;
        }
        char *end = NULL;
        switch (c) {
        case 'L':
            o.links = 1;
            o.clustered = 0;
            break;
        case 'F': {
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 1 || v > 64) {
                hc__mpi_error(cmd, "--flows '%s': expected an integer in 1..64", optarg);
                rc = 1;
            } else
                flows = (int)v;
            break;
        }
        case 'T':
            flow_time = strtod(optarg, &end);
            if (end == optarg || *end || !isfinite(flow_time) || flow_time <= 0 ||
                flow_time > 3600) {
                hc__mpi_error(cmd, "--flow-time '%s': expected seconds in (0, 3600]", optarg);
                rc = 1;
            }
            break;
        case 'O': /* the former spelling (hetcoll's one vocabulary: -o/--output) */
            if (hc__mpi_rank() == 0)
                fprintf(stderr, "hetcoll-mpi: note: --out is deprecated; use -o/--output\n");
            /* fall through */
        case 'o':
            out = optarg;
            break;
        case 'j':
            report = optarg;
            break;
        case 'h':
            if (hc__mpi_rank() == 0)
                probe_help();
            free(sizes);
            return 0;
        default:
            hc__mpi_error(cmd, "unknown or incomplete option '%s' (try --help)", argv[optind - 1]);
            rc = 2;
        }
    }
    if (rc == 0 && optind < argc) {
        hc__mpi_error(cmd, "unexpected argument '%s'", argv[optind]);
        rc = 2;
    }
    if (rc == 0 && o.links && (o.gap_msgs || o.serial)) {
        hc__mpi_error(cmd,
                      "%s does not apply to --mode links (its gap tables time single "
                      "messages, its uplink tests run flows concurrently by design)",
                      o.gap_msgs ? "--gap-msgs" : "--serial");
        rc = 2;
    }
    if (rc == 0 && !o.links && (flows || !isnan(flow_time))) {
        hc__mpi_error(cmd, "%s applies to --mode links only", flows ? "--flows" : "--flow-time");
        rc = 2;
    }
    if (rc == 0 && !sizes && !o.links &&
        hc__mpi_parse_sizes("1,1KiB,16KiB,256KiB,1MiB", &sizes, &nsizes))
        rc = 1;
    if (rc != 0) {
        free(sizes);
        return rc;
    }
    o.sizes = sizes; /* links: NULL = its own defaults */
    o.n_sizes = nsizes;
    if (!o.reps)
        o.reps = o.links ? 4 : 20;
    if (!o.gap_msgs)
        o.gap_msgs = 8;
    if (!o.gap_trials)
        o.gap_trials = o.links ? 1 : 3;
    if (isnan(o.rho))
        o.rho = o.links ? 3 : 0.3;
    int world = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (world < 2) { /* one rank measures nothing: a 1-node platform would be silent garbage */
        hc__mpi_error(cmd, "probe needs at least 2 ranks: run it under mpirun -np N (one rank "
                           "per node to measure)");
        free(sizes);
        return 1;
    }
    if (o.links) {
        rc = run_links(&o, flows ? flows : 2, isnan(flow_time) ? 0.1 : flow_time, out, report);
        free(sizes);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        return rc;
    }
    hc__probe_result_t r;
    int st = hc__probe_run(MPI_COMM_WORLD, &o, &r);
    if (st != HC_OK) {
        hc__mpi_error(cmd, "%s", hc_error_detail());
        free(sizes);
        return 1;
    }
    if (hc__mpi_rank() == 0) {
        hc_platform_t *p = NULL;
        st = hc__probe_to_platform(&r, r.lat, r.bw, r.gap, &p);
        if (st != HC_OK) {
            hc__mpi_error(cmd, "%s", hc_error_detail());
            rc = 1;
        } else {
            char line[512], warn[1024];
            hc__probe_summary(&r, &o, line, sizeof line);
            hc__probe_noise_warning(&r.noise, "clusters",
                                    "probe idle hosts, or raise --reps or --rho", warn,
                                    sizeof warn);
            rc = probe_output(p, out, line, warn, report, &r, &o, NULL);
        }
        hc_platform_destroy(p);
    }
    hc__probe_result_free(&r);
    free(sizes);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rc = 2;
    const char *sub = argc >= 2 ? argv[1] : "";
    if (strcmp(sub, "probe") == 0)
        rc = hc__mpi_cmd_probe(argc - 1, argv + 1);
    else if (strcmp(sub, "monitor") == 0)
        rc = hc__mpi_cmd_monitor(argc - 1, argv + 1);
    else if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        if (hc__mpi_rank() == 0)
            printf("Usage: mpirun -np P hetcoll-mpi probe|monitor [options]\n"
                   "  probe    measure latency, bandwidth and pLogP gaps (or, --links, the sites\n"
                   "           and their uplinks); print a platform\n"
                   "  monitor  probe periodically, forecast, keep a directory file\n"
                   "Run 'hetcoll-mpi <command> --help' for the options.\n");
        rc = 0;
    } else if (hc__mpi_rank() == 0)
        fprintf(stderr, "hetcoll-mpi: unknown command '%s' (valid: probe, monitor)\n", sub);
    MPI_Finalize();
    return rc;
}
