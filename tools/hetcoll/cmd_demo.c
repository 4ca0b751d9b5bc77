/* `hetcoll demo`: every registered algorithm of every collective on the built-in platforms,
 * each schedule validated and replayed by the simulator, one table, one SVG per schedule.
 * New algorithms appear here through the registry; this file never names one. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"

static void help(FILE *f)
{
    fprintf(f, "Usage: hetcoll demo [--msg SIZE] [--out DIR] [--platform SPEC]...\n\n"
               "On builtin:grid5000 and builtin:gusto (or the given platforms), build a default\n"
               "problem for each collective and run EVERY registered algorithm on it (time\n"
               "limit 2 s): alltoall with a uniform message, bcast and reduce from root 0,\n"
               "redistribute between the first two clusters (when both have two nodes or more;\n"
               "else the two halves of the nodes) with MSG bytes per pair, rate = link\n"
               "bandwidth, k = min(4, n1, n2), beta = the largest latency between the two\n"
               "groups. Each schedule is validated and replayed by the\n"
               "simulator; one table is printed and one SVG per schedule is written to\n"
               "DIR/<platform>-<collective>-<algorithm>.svg. Exits 1 if any algorithm failed.\n\n"
               "Options:\n"
               "  --msg SIZE          message size (default 1MiB)\n"
               "  --out DIR           output directory (default ./hetcoll-demo)\n"
               "  --platform SPEC     platform to use instead of the built-ins (repeatable)\n"
               "  -h, --help          this help\n\n"
               "Example:\n"
               "  hetcoll demo --msg 64KiB --out /tmp/demo\n");
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

/* The redistribution demo problem: MSG bytes from every node of cluster 0 to every node of
 * cluster 1 when both have at least two nodes, else from the first half of the nodes to the
 * second half; built by the library (hc_problem_create: rate = link bandwidth, beta = the largest
 * latency between the two groups), k = min(4, n1, n2). */
static int build_redistribute(const hc_platform_t *plat, uint64_t msg, cli_problem_t *p)
{
    uint32_t P = hc_platform_size(plat), n1 = 0, n2 = 0;
    memset(p, 0, sizeof *p);
    for (uint32_t i = 0; i < P; i++) {
        int32_t c = hc_platform_cluster_of(plat, i);
        n1 += c == 0;
        n2 += c == 1;
    }
    int by_cluster = n1 >= 2 && n2 >= 2;
    int rc = hc_matrix_create(P, P, 0, &p->sizes);
    if (rc != HC_OK)
        return rc;
    n1 = n2 = 0;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            int from = by_cluster ? hc_platform_cluster_of(plat, i) == 0 : i < P / 2;
            int to = by_cluster ? hc_platform_cluster_of(plat, j) == 1 : j >= P / 2;
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

static int algo_width = 11; /* widest algorithm name, set by cmd_demo */

typedef struct totals {
    int failed;
    size_t runs;
} totals_t;

static void print_row(const char *plat, hc_coll_t coll, const char *algo, const hc_schedule_t *s,
                      double simulated, const char *status)
{
    char lb[32] = "-", ratio[32] = "-", pred[32] = "-", sim[32] = "-";
    if (s) {
        snprintf(pred, sizeof pred, "%.6g", s->makespan);
        if (!isnan(s->lower_bound)) {
            snprintf(lb, sizeof lb, "%.6g", s->lower_bound);
            if (s->lower_bound > 0)
                snprintf(ratio, sizeof ratio, "%.4f", s->makespan / s->lower_bound);
        }
    }
    if (!isnan(simulated))
        snprintf(sim, sizeof sim, "%.6g", simulated);
    printf("%-10s %-12s %-*s %13s %13s %13s %8s  %s\n", plat, hc_coll_name(coll), algo_width, algo,
           pred, sim, lb, ratio, status);
    fflush(stdout);
}

static void run_one(const char *plat, const char *dir, const cli_problem_t *p,
                    const hc_algo_info_t *info, totals_t *tot)
{
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    opts.time_limit_s = 2;
    hc_schedule_t *s = NULL;
    char status[600];
    double simulated = NAN;
    tot->runs++;
    int st = hc_schedule_compute(&p->pb, info->name, &opts, &s);
    if (st != HC_OK) {
        snprintf(status, sizeof status, "ERROR %s: %s", hc_status_name(st), hc_error_detail());
        tot->failed = 1;
        print_row(plat, p->pb.coll, info->name, NULL, NAN, status);
        return;
    }
    st = hc_schedule_validate(s, &p->pb);
    if (st != HC_OK) {
        snprintf(status, sizeof status, "INVALID: %s", hc_error_detail());
        tot->failed = 1;
    } else {
        snprintf(status, sizeof status, "yes");
    }
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    hc_sim_result_t *r = NULL;
    int sst = hc_simulate(s, &p->pb, &so, &r);
    if (sst == HC_OK) {
        simulated = r->makespan;
        if (st == HC_OK && fabs(simulated - s->makespan) > 1e-9 * fmax(1.0, s->makespan)) {
            snprintf(status, sizeof status, "yes, but the replay differs");
            tot->failed = 1;
        }
    } else if (st == HC_OK) {
        snprintf(status, sizeof status, "SIMULATION ERROR: %s", hc_error_detail());
        tot->failed = 1;
    }
    hc_sim_result_destroy(r);
    char path[1024], title[256];
    snprintf(path, sizeof path, "%s/%s-%s-%s.svg", dir, plat, hc_coll_name(p->pb.coll), info->name);
    snprintf(title, sizeof title, "%s %s on %s", hc_coll_name(p->pb.coll), info->name, plat);
    FILE *f = fopen(path, "w");
    if (f) {
        cli_svg_schedule(f, s, title);
        if (cli_close_file(f, path, CLI_OK) != CLI_OK) {
            size_t used = strlen(status);
            snprintf(status + used, sizeof status - used, " (the SVG was not written)");
            tot->failed = 1;
        }
    } else {
        size_t used = strlen(status);
        snprintf(status + used, sizeof status - used, " (cannot write the SVG: %s)",
                 strerror(errno));
        tot->failed = 1;
    }
    print_row(plat, p->pb.coll, info->name, s, simulated, status);
    hc_schedule_destroy(s);
}

static int run_platform(const char *spec, uint64_t msg, const char *dir, totals_t *tot)
{
    char plat[64];
    label_of(spec, plat, sizeof plat);
    hc_platform_t *pl = NULL;
    int st = hc_platform_load(spec, &pl);
    if (st != HC_OK) {
        tot->failed = 1;
        return cli_fail(st, spec);
    }
    for (int coll = 0; coll < HC_COLL_COUNT; coll++) {
        size_t n_algos = 0;
        for (size_t i = 0; i < hc_algo_count(); i++)
            n_algos += (int)hc_algo_get(i)->coll == coll;
        if (!n_algos)
            continue;
        cli_problem_t p;
        if (coll == HC_COLL_REDISTRIBUTE) {
            st = build_redistribute(pl, msg, &p);
            if (st != HC_OK) {
                char status[600];
                snprintf(status, sizeof status, "ERROR building the problem: %s",
                         hc_error_detail());
                print_row(plat, (hc_coll_t)coll, "-", NULL, NAN, status);
                tot->failed = 1;
                cli_problem_free(&p);
                continue;
            }
        } else {
            /* the same path as `hetcoll schedule <coll> --platform SPEC --msg SIZE` */
            cli_popts_t o;
            cli_popts_init(&o);
            o.platform = spec;
            o.msg = msg;
            o.have_msg = 1;
            if (cli_problem_build((hc_coll_t)coll, &o, NULL, "demo", &p) != CLI_OK) {
                print_row(plat, (hc_coll_t)coll, "-", NULL, NAN, "ERROR building the problem");
                tot->failed = 1;
                continue;
            }
        }
        for (size_t i = 0; i < hc_algo_count(); i++) {
            const hc_algo_info_t *info = hc_algo_get(i);
            if ((int)info->coll == coll)
                run_one(plat, dir, &p, info, tot);
        }
        cli_problem_free(&p);
    }
    hc_platform_destroy(pl);
    return CLI_OK;
}

int cmd_demo(int argc, char **argv)
{
    static const struct option longopts[] = {{"msg", required_argument, NULL, 'm'},
                                             {"out", required_argument, NULL, 'O'},
                                             {"platform", required_argument, NULL, 'p'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "demo";
    uint64_t msg = 1048576;
    const char *dir = "hetcoll-demo";
    const char *specs[16];
    size_t n_specs = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (cli_parse_size(optarg, &msg) != 0 || msg == 0)
                return cli_value_error(cmd, "option '--msg': invalid size '%s'", optarg);
            break;
        case 'O':
            dir = optarg;
            break;
        case 'p':
            if (n_specs == sizeof specs / sizeof specs[0])
                return cli_usage_error(cmd, "too many --platform options");
            specs[n_specs++] = optarg;
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
    if (cli_make_outdir(dir) != CLI_OK)
        return CLI_ERROR;
    printf("hetcoll demo: message %llu bytes, every registered algorithm, validated and "
           "simulated (sigma 0)\n\n",
           (unsigned long long)msg);
    for (size_t i = 0; i < hc_algo_count(); i++)
        if ((int)strlen(hc_algo_get(i)->name) > algo_width)
            algo_width = (int)strlen(hc_algo_get(i)->name);
    printf("%-10s %-12s %-*s %13s %13s %13s %8s  %s\n", "platform", "collective", algo_width,
           "algorithm", "predicted(s)", "simulated(s)", "lower bd(s)", "ratio", "valid");
    totals_t tot = {0, 0};
    for (size_t i = 0; i < n_specs; i++)
        run_platform(specs[i], msg, dir, &tot);
    printf("\n%zu schedules; SVG diagrams in %s/\n", tot.runs, dir);
    fflush(stdout);
    if (tot.failed)
        fprintf(stderr, "hetcoll: demo: some algorithms failed (see the table)\n");
    return tot.failed ? CLI_ERROR : CLI_OK;
}
