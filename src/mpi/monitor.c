/* The monitor daemon (000 §3.1 directory service, 004 §4.1 "a daemon process may conduct
 * regular updates on the description file"): probe every S seconds, feed every measured value
 * of every ordered pair (latency, bandwidth, gap per size) to its own NWS forecaster, and
 * rewrite the directory file atomically with the forecasts, their error estimates, a timestamp
 * and the network epoch. Epoch 1 comes at once from the link probe (probe_links.c: a few
 * seconds at most, against a minute for a full pLogP probe of 64 ranks), so that an application
 * started right after the monitor finds a directory file. Between probes every rank sleeps (no
 * busy polling beside the application). SIGINT/SIGTERM end the loop after the current probe. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"
#include "netprobe.h"

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void monitor_help(void)
{
    printf("Usage: mpirun -np P hetcoll-mpi monitor --directory FILE [options]\n"
           "       (or: mpirun -np P hetcoll monitor ...)\n\n"
           "Write a first epoch at once from the quick link probe ('hetcoll-mpi probe --links',\n"
           "mode \"links\" in the file), then probe the network every --interval seconds,\n"
           "forecast each pair's latency, bandwidth and gaps (NWS battery, adaptive choice), and\n"
           "rewrite the directory FILE atomically (docs/directory.md). Applications read it with\n"
           "hc_directory_load() or --platform dir:FILE. SIGINT/SIGTERM stop after the current\n"
           "probe.\n\n"
           "Options:\n"
           "  --directory FILE   directory file to maintain (required)\n"
           "  --interval S       seconds between probe starts (default 10)\n"
           "  --count N          stop after N pLogP probes, i.e. at epoch N+1 (default 0 = run\n"
           "                     until signalled)\n"
           "  --mode M           full (default) or clustered (see 'hetcoll-mpi probe --help')\n"
           "  --error M          forecaster selection metric: mse (default) or mae\n"
           "  --sizes LIST       gap sizes (default 1,1KiB,16KiB,256KiB,1MiB)\n"
           "  --reps N, --gap-msgs N, --gap-trials N, --rho R, --serial   as for probe\n"
           "  --quiet            no per-epoch line on stderr\n"
           "  -h, --help         this help\n");
}

/* Forecasters of one quantity for all ordered pairs (rank 0). */
typedef struct fc_set {
    hc_forecaster_t **f; /* P*P*K, NULL on the diagonal */
} fc_set_t;

static void sleep_s(double s)
{
    if (!(s > 0))
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !stop_requested)
        ;
}

/* Epoch 1: one link probe (probe_links.c, its defaults), written at once with mode "links" and
 * no error estimates. Collective. A failure is reported and skipped (the pLogP epochs follow);
 * returns the status, the same on every rank. */
static int quick_epoch(const char *dir, double interval, hc_forecast_metric_t metric, int quiet)
{
    hc__links_opts_t lo;
    hc__links_opts_init(&lo);
    hc__links_result_t r;
    int st = hc__links_probe_run(MPI_COMM_WORLD, &lo, &r);
    if (st == HC_OK && hc__mpi_rank() == 0) {
        hc_platform_t *p = NULL;
        st = hc__links_to_platform(&r, &p);
        if (st == HC_OK) {
            hc_directory_info_t info;
            hc_directory_info_init(&info);
            info.epoch = 1;
            info.interval_s = interval;
            snprintf(info.mode, sizeof info.mode, "links");
            snprintf(info.error_metric, sizeof info.error_metric, "%s",
                     metric == HC_FORECAST_MAE ? "mae" : "mse");
            info.P = r.P;
            st = hc_directory_write(dir, p, &info);
        }
        hc_platform_destroy(p);
        if (st == HC_OK && !quiet) {
            char line[512];
            hc__links_summary(&r, line, sizeof line);
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            fprintf(stderr, "monitor: epoch 1 (quick link probe) written to %s (%s)\n", dir, line);
        }
    }
    if (st != HC_OK)
        hc__mpi_error("monitor",
                      "the quick first epoch failed (%s); the first pLogP probe will "
                      "write epoch 1",
                      hc_error_detail());
    hc__links_result_free(&r);
    MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return st;
}

int hc__mpi_cmd_monitor(int argc, char **argv)
{
    static const struct option longopts[] = {{"directory", required_argument, NULL, 'd'},
                                             {"interval", required_argument, NULL, 'i'},
                                             {"count", required_argument, NULL, 'n'},
                                             {"mode", required_argument, NULL, 'm'},
                                             {"error", required_argument, NULL, 'e'},
                                             {"sizes", required_argument, NULL, 's'},
                                             {"reps", required_argument, NULL, 'r'},
                                             {"gap-msgs", required_argument, NULL, 'g'},
                                             {"gap-trials", required_argument, NULL, 't'},
                                             {"rho", required_argument, NULL, 'R'},
                                             {"serial", no_argument, NULL, 'S'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "monitor", *dir = NULL;
    double interval = 10;
    long count = 0;
    int quiet = 0;
    uint64_t *sizes = NULL;
    size_t nsizes = 0;
    hc_forecast_opts_t fo;
    hc_forecast_opts_init(&fo);
    hc__probe_opts_t o = {NULL, 0, 20, 8, 3, 0, 0.3, 0, 0};
    int c, rc = 0;
    optind = 1;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        char *end = NULL;
        int handled = hc__mpi_probe_option(cmd, c, optarg, &o, &sizes, &nsizes);
        if (handled) {
            if (handled < 0)
                rc = 1; /* a bad value */
            continue;
        }
        switch (c) {
        case 'd':
            dir = optarg;
            break;
        case 'i':
            interval = strtod(optarg, &end);
            if (end == optarg || *end || !isfinite(interval) || interval <= 0) {
                hc__mpi_error(cmd, "--interval '%s': expected seconds > 0", optarg);
                rc = 1;
            }
            break;
        case 'n': {
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 0 || v > 100000000) {
                hc__mpi_error(cmd, "--count '%s': expected an integer >= 0", optarg);
                rc = 1;
            } else
                count = v;
            break;
        }
        case 'e':
            if (hc_forecast_metric_parse(optarg, &fo.metric) != HC_OK) {
                hc__mpi_error(cmd, "--error '%s': valid are mse, mae", optarg);
                rc = 1;
            }
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            if (hc__mpi_rank() == 0)
                monitor_help();
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
    if (rc == 0 && !dir) {
        hc__mpi_error(cmd, "missing --directory FILE");
        rc = 2;
    }
    if (rc == 0 && o.links) {
        hc__mpi_error(cmd, "--mode links: the monitor's epochs are pLogP probes (full or "
                           "clustered); its first epoch is a link probe already");
        rc = 1;
    }
    if (rc == 0 && !sizes && hc__mpi_parse_sizes("1,1KiB,16KiB,256KiB,1MiB", &sizes, &nsizes))
        rc = 1;
    if (rc != 0) {
        free(sizes);
        return rc;
    }
    o.sizes = sizes;
    o.n_sizes = nsizes;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    int me = hc__mpi_rank(), np = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2) { /* a 1-node directory would be silent garbage */
        hc__mpi_error(cmd, "monitor needs at least 2 ranks: run it under mpirun -np N (one rank "
                           "per node to measure)");
        free(sizes);
        return 1;
    }
    uint32_t P = (uint32_t)np;
    size_t K = 2 + nsizes, PP = (size_t)P * P;
    hc_forecaster_t **fc = NULL;
    double *flat = NULL, *fbw = NULL, *fgap = NULL, *elat = NULL, *ebw = NULL;
    int ok = 1;
    if (me == 0) {
        fc = calloc(PP * K, sizeof *fc);
        flat = calloc(PP, sizeof *flat);
        fbw = calloc(PP, sizeof *fbw);
        fgap = calloc(PP * nsizes, sizeof *fgap);
        elat = calloc(PP, sizeof *elat);
        ebw = calloc(PP, sizeof *ebw);
        ok = fc && flat && fbw && fgap && elat && ebw;
        for (size_t k = 0; ok && k < PP * K; k++)
            if ((k / K) / P != (k / K) % P)
                ok = hc_forecaster_create(&fo, &fc[k]) == HC_OK;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        hc__mpi_error(cmd, "out of memory for %u ranks", P);
        rc = 1;
    }
    uint64_t first = 1;
    if (rc == 0) { /* epoch 1 at once: the quick link probe, so readers need not wait */
        if (quick_epoch(dir, interval, fo.metric, quiet) == HC_OK)
            first = 2;
        int stop = stop_requested != 0; /* the first pLogP probe follows at once */
        MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (stop)
            count = -1; /* signalled already: no pLogP epoch */
    }
    for (uint64_t epoch = first; rc == 0 && count >= 0; epoch++) {
        double t0 = MPI_Wtime();
        hc__probe_result_t r;
        int st = hc__probe_run(MPI_COMM_WORLD, &o, &r);
        if (st != HC_OK) {
            hc__mpi_error(cmd, "%s", hc_error_detail());
            rc = 1;
            break;
        }
        if (me == 0) {
            for (size_t ij = 0; ij < PP && st == HC_OK; ij++) {
                if (ij / P == ij % P)
                    continue;
                hc_forecast_t f;
                for (size_t k = 0; k < K && st == HC_OK; k++) {
                    double v = k == 0 ? r.lat[ij] : k == 1 ? r.bw[ij] : r.gap[ij * nsizes + k - 2];
                    st = hc_forecaster_update(fc[ij * K + k], v);
                    if (st == HC_OK)
                        st = hc_forecaster_predict(fc[ij * K + k], &f);
                    if (st != HC_OK)
                        break;
                    if (k == 0) {
                        flat[ij] = f.value;
                        elat[ij] = f.error;
                    } else if (k == 1) {
                        fbw[ij] = f.value;
                        ebw[ij] = f.error;
                    } else {
                        fgap[ij * nsizes + k - 2] = f.value;
                    }
                }
            }
            hc_platform_t *p = NULL;
            if (st == HC_OK)
                st = hc__probe_to_platform(&r, flat, fbw, fgap, &p);
            if (st == HC_OK) {
                hc_directory_info_t info;
                hc_directory_info_init(&info);
                info.epoch = epoch;
                info.interval_s = interval;
                snprintf(info.mode, sizeof info.mode, "%s", o.clustered ? "clustered" : "full");
                snprintf(info.error_metric, sizeof info.error_metric, "%s",
                         fo.metric == HC_FORECAST_MAE ? "mae" : "mse");
                info.P = P;
                info.latency_error = elat;
                info.bandwidth_error = ebw;
                st = hc_directory_write(dir, p, &info);
            }
            hc_platform_destroy(p);
            if (st != HC_OK) {
                hc__mpi_error(cmd, "%s", hc_error_detail());
                rc = 1;
            } else if (!quiet) {
                char line[512];
                hc__probe_summary(&r, &o, line, sizeof line);
                fprintf(stderr, "monitor: epoch %llu written to %s (%s)\n",
                        (unsigned long long)epoch, dir, line);
            }
        }
        hc__probe_result_free(&r);
        /* Stop decision and sleep time, the same on every rank. */
        double ctl[3] = {(double)rc, stop_requested ? 1.0 : 0.0, interval - (MPI_Wtime() - t0)};
        MPI_Bcast(&ctl[0], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(&ctl[2], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &ctl[1], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        rc = (int)ctl[0];
        if (rc != 0 || ctl[1] > 0 || (count > 0 && epoch - first + 1 >= (uint64_t)count))
            break;
        sleep_s(ctl[2]);
    }
    if (fc)
        for (size_t k = 0; k < PP * K; k++)
            hc_forecaster_destroy(fc[k]);
    free(fc);
    free(flat);
    free(fbw);
    free(fgap);
    free(elat);
    free(ebw);
    free(sizes);
    return rc;
}
