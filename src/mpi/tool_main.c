/* hetcoll-mpi: the MPI side of the hetcoll CLI (`probe` and `monitor`). Run under mpirun:
 *   mpirun -np P hetcoll-mpi probe [--sizes LIST] [--reps N] [--mode full|clustered] [--out F]
 *   mpirun -np P hetcoll-mpi monitor --interval S --directory FILE [--mode clustered] [--count N]
 * `hetcoll probe` / `hetcoll monitor` exec this program (tools/hetcoll/cmd_mpi.c). */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "netprobe.h"

int hc__mpi_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

void hc__mpi_error(const char *cmd, const char *fmt, ...)
{
    if (hc__mpi_rank() != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hetcoll-mpi %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || !isfinite(x) || x < 0)
        return -1;
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {{"", 1},
                 {"B", 1},
                 {"k", 1e3},
                 {"kB", 1e3},
                 {"KB", 1e3},
                 {"K", 1024},
                 {"KiB", 1024},
                 {"M", 1048576},
                 {"MB", 1e6},
                 {"MiB", 1048576},
                 {"G", 1073741824.0},
                 {"GB", 1e9},
                 {"GiB", 1073741824.0}};
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (strcmp(end, units[k].suffix) == 0) {
            double v = x * units[k].mult;
            if (v != floor(v) || v > 9e15)
                return -1;
            *out = (uint64_t)v;
            return 0;
        }
    return -1;
}

int hc__mpi_parse_sizes(const char *s, uint64_t **out, size_t *n)
{
    size_t cap = 1;
    for (const char *q = s; *q; q++)
        cap += *q == ',';
    uint64_t *v = malloc(cap * sizeof *v);
    char *copy = hc__strdup(s);
    if (!v || !copy) {
        free(v);
        free(copy);
        return -1;
    }
    size_t k = 0;
    char *tok = copy;
    for (;;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        uint64_t x;
        if (parse_size(tok, &x) != 0 || x < 1 || x > (1ull << 30) || (k > 0 && x <= v[k - 1])) {
            free(v);
            free(copy);
            return -1;
        }
        v[k++] = x;
        if (!comma)
            break;
        tok = comma + 1;
    }
    free(copy);
    *out = v;
    *n = k;
    return 0;
}

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

int hc__mpi_probe_option(const char *cmd, int c, const char *arg, hc__probe_opts_t *o,
                         uint64_t **sizes, size_t *nsizes)
{
    char *end = NULL;
    switch (c) {
    case 's':
        free(*sizes);
        *sizes = NULL;
        if (hc__mpi_parse_sizes(arg, sizes, nsizes) != 0) {
            hc__mpi_error(cmd,
                          "--sizes '%s': expected increasing sizes in 1..1GiB, e.g. "
                          "1,1KiB,64KiB,1MiB",
                          arg);
            return 2;
        }
        return 1;
    case 'r':
    case 'g':
    case 't': {
        long v = strtol(arg, &end, 10);
        long lo = c == 'g' ? 2 : 1;
        if (end == arg || *end || v < lo || v > 100000) {
            hc__mpi_error(cmd, "%s '%s': expected an integer in %ld..100000",
                          c == 'r'   ? "--reps"
                          : c == 'g' ? "--gap-msgs"
                                     : "--gap-trials",
                          arg, lo);
            return 2;
        }
        if (c == 'r')
            o->reps = (int)v;
        else if (c == 'g')
            o->gap_msgs = (int)v;
        else
            o->gap_trials = (int)v;
        return 1;
    }
    case 'm':
        if (strcmp(arg, "full") == 0 || strcmp(arg, "clustered") == 0) {
            o->clustered = arg[0] == 'c';
            return 1;
        }
        hc__mpi_error(cmd, "--mode '%s': valid are full, clustered", arg);
        return 2;
    case 'R':
        o->rho = strtod(arg, &end);
        if (end == arg || *end || !isfinite(o->rho) || o->rho < 0) {
            hc__mpi_error(cmd, "--rho '%s': expected a number >= 0", arg);
            return 2;
        }
        return 1;
    case 'S':
        o->serial = 1;
        return 1;
    default:
        return 0;
    }
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
