/* hetcoll-mpi: the MPI side of the hetcoll CLI (`probe` and `monitor`). Run under mpirun:
 *   mpirun -np P hetcoll-mpi probe [--sizes LIST] [--reps N] [--mode full|clustered] [--out F]
 *   mpirun -np P hetcoll-mpi monitor --interval S --directory FILE [--mode clustered] [--count N]
 * `hetcoll probe` / `hetcoll monitor` exec this program (tools/hetcoll/cmd_mpi.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "netprobe.h"

static void probe_help(void)
{
    printf("Usage: mpirun -np P hetcoll-mpi probe [options]   (or: mpirun -np P hetcoll probe)\n\n"
           "Measure latency (1-byte ping-pong, median), bandwidth and pLogP gaps g(m) between\n"
           "the ranks; pairs are measured in rounds that are matchings (each rank in at most one\n"
           "measurement at a time). Prints a platform JSON (matrix form, gap tables, cluster\n"
           "labels) that every --platform option accepts, and a summary line on stderr.\n\n"
           "Options:\n"
           "  --sizes LIST       gap sizes, increasing (default 1,1KiB,16KiB,256KiB,1MiB)\n"
           "  --reps N           ping-pongs per pair (default 20)\n"
           "  --gap-msgs N       messages per gap measurement (default 8)\n"
           "  --gap-trials N     repetitions of each gap measurement, minimum kept (default 3)\n"
           "  --mode M           full (gaps on all P(P-1) ordered pairs, default) or clustered\n"
           "                     (all-pairs latency, clustering, gaps between cluster\n"
           "                     representatives only: C(C-1)+C measurements; 004 §4.2)\n"
           "  --rho R            clustering tolerance (default 0.3)\n"
           "  --serial           one measurement at a time (no concurrent pairs)\n"
           "  --out FILE         write the platform JSON to FILE (default stdout)\n"
           "  --report FILE      write counts and times as JSON to FILE\n"
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
            "\"total_time_s\": %.6f, \"full_gap_measurements\": %llu}\n",
            r->P, o->clustered ? "clustered" : "full", r->C, r->S, (unsigned long long)r->n_latency,
            r->rounds_latency, r->t_latency, (unsigned long long)r->n_gap, r->rounds_gap, r->t_gap,
            r->t_total, (unsigned long long)r->P * (r->P - 1));
}

int hc__mpi_cmd_probe(int argc, char **argv)
{
    static const struct option longopts[] = {{"sizes", required_argument, NULL, 's'},
                                             {"reps", required_argument, NULL, 'r'},
                                             {"gap-msgs", required_argument, NULL, 'g'},
                                             {"gap-trials", required_argument, NULL, 't'},
                                             {"mode", required_argument, NULL, 'm'},
                                             {"rho", required_argument, NULL, 'R'},
                                             {"serial", no_argument, NULL, 'S'},
                                             {"out", required_argument, NULL, 'o'},
                                             {"report", required_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "probe", *out = NULL, *report = NULL;
    uint64_t *sizes = NULL;
    size_t nsizes = 0;
    hc__probe_opts_t o = {NULL, 0, 20, 8, 3, 0, 0.3, 0};
    int c;
    optind = 1;
    opterr = 0;
    int rc = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1 && rc == 0) {
        int handled = hc__mpi_probe_option(cmd, c, optarg, &o, &sizes, &nsizes);
        if (handled) {
            if (handled == 2)
                rc = 2;
            continue;
        }
        switch (c) {
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
    if (rc == 0 && !sizes && hc__mpi_parse_sizes("1,1KiB,16KiB,256KiB,1MiB", &sizes, &nsizes))
        rc = 1;
    if (rc != 0) {
        free(sizes);
        return rc;
    }
    o.sizes = sizes;
    o.n_sizes = nsizes;
    int world = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (world < 2) { /* one rank measures nothing: a 1-node platform would be silent garbage */
        hc__mpi_error(cmd, "1 rank: the probe measures pairs of ranks; run it under mpirun -np P "
                           "(P >= 2, one rank per node to measure)");
        free(sizes);
        return 1;
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
        char *json = NULL;
        st = hc__probe_to_platform(&r, r.lat, r.bw, r.gap, &p);
        if (st == HC_OK)
            st = hc_platform_to_json(p, &json);
        if (st != HC_OK) {
            hc__mpi_error(cmd, "%s", hc_error_detail());
            rc = 1;
        } else if (write_text(out, json) != 0) {
            hc__mpi_error(cmd, "%s: cannot write", out);
            rc = 1;
        }
        free(json);
        hc_platform_destroy(p);
        char line[512];
        hc__probe_summary(&r, &o, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        if (report) {
            FILE *f = fopen(report, "w");
            if (!f) {
                hc__mpi_error(cmd, "%s: cannot write", report);
                rc = 1;
            } else {
                report_json(f, &r, &o);
                fclose(f);
            }
        }
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
                   "  probe    measure latency, bandwidth and pLogP gaps; print a platform\n"
                   "  monitor  probe periodically, forecast, keep a directory file\n"
                   "Run 'hetcoll-mpi <command> --help' for the options.\n");
        rc = 0;
    } else if (hc__mpi_rank() == 0)
        fprintf(stderr, "hetcoll-mpi: unknown command '%s' (valid: probe, monitor)\n", sub);
    MPI_Finalize();
    return rc;
}
