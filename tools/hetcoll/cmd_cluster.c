/* `hetcoll cluster`: logical clusters of a platform (Lowekamp, 004 §4.1). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_cluster(int argc, char **argv);

static void help(FILE *f)
{
    fprintf(
        f,
        "Usage: hetcoll cluster --platform SPEC [--rho R] [--metric latency|bandwidth]\n"
        "                       [--variant greedy|all-pairs] [--format text|json]\n"
        "                       [--write-platform OUT.json] [--prefix P] [-o FILE]\n\n"
        "Group the nodes into logical clusters whose mutual distances agree within the\n"
        "relative tolerance R (Lowekamp's greedy algorithm, Barchet-Steffenel & Mounie 2007\n"
        "§4.1; see include/hetcoll/topo.h).\n\n"
        "Options:\n"
        "  -p, --platform SPEC       platform file, builtin:NAME (%s), random:...,\n"
        "                            dir:FILE (required; see 'hetcoll platform list')\n"
        "  -r, --rho R               relative tolerance, >= 0 (default 0.3)\n"
        "  -m, --metric M            latency (default) or bandwidth (distance 1/B)\n"
        "  -v, --variant V           greedy (compare with the group's smallest edge, default)\n"
        "                            or all-pairs (compare with every in-group edge)\n"
        "  -f, --format F            text (default) or json\n"
        "  -w, --write-platform OUT  write the platform with these cluster labels (matrix-form\n"
        "                            JSON; default: not written); hierarchical schedules use\n"
        "                            the labels\n"
        "      --prefix P            cluster name prefix for --write-platform (default \"c\")\n"
        "  -o, --output FILE         write the groups to FILE instead of stdout\n"
        "  -h, --help                this help\n\n"
        "Example:\n"
        "  hetcoll cluster --platform builtin:grid5000 --rho 0.3\n",
        hc_platform_builtin_names());
}

/* Smallest and largest latency and bandwidth inside group g (i != j). */
static void intra_range(const hc_platform_t *p, const int32_t *lab, int32_t g, double r[4])
{
    uint32_t P = hc_platform_size(p);
    r[0] = r[2] = INFINITY;
    r[1] = r[3] = -INFINITY;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j && lab[i] == g && lab[j] == g) {
                double l = hc_platform_latency(p, i, j), b = hc_platform_bandwidth(p, i, j);
                r[0] = l < r[0] ? l : r[0];
                r[1] = l > r[1] ? l : r[1];
                r[2] = b < r[2] ? b : r[2];
                r[3] = b > r[3] ? b : r[3];
            }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.15g", x);
    else
        fputs("null", f);
}

/* Does the platform's existing labelling give the same partition? -1: no labels. */
static int agrees_with_labels(const hc_platform_t *p, const int32_t *lab)
{
    uint32_t P = hc_platform_size(p);
    if (hc_platform_cluster_count(p) == 0)
        return -1;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            int32_t a = hc_platform_cluster_of(p, i), b = hc_platform_cluster_of(p, j);
            int same = a >= 0 && a == b;
            if (same != (lab[i] == lab[j]))
                return 0;
        }
    return 1;
}

static void print_text(FILE *f, const hc_platform_t *p, const hc_cluster_opts_t *o,
                       const int32_t *lab, uint32_t C)
{
    uint32_t P = hc_platform_size(p);
    const char *name = hc_platform_name(p);
    fprintf(f, "platform:  %s (%u nodes)\n", name && *name ? name : "(unnamed)", P);
    fprintf(f, "metric:    %s, variant: %s, rho: %g\n",
            o->metric == HC_CLUSTER_LATENCY ? "latency" : "bandwidth",
            o->variant == HC_CLUSTER_GREEDY ? "greedy" : "all-pairs", o->rho);
    fprintf(f, "clusters:  %u\n", C);
    for (uint32_t g = 0; g < C; g++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < P; i++)
            n += lab[i] == (int32_t)g;
        double r[4];
        intra_range(p, lab, (int32_t)g, r);
        fprintf(f, "  c%-3u %4u node%s", g, n, n == 1 ? "" : "s");
        if (n > 1)
            fprintf(f, "  latency %.4g..%.4g s  bandwidth %.4g..%.4g B/s", r[0], r[1], r[2], r[3]);
        fputs("\n       ", f);
        uint32_t shown = 0;
        for (uint32_t i = 0; i < P; i++) {
            if (lab[i] != (int32_t)g)
                continue;
            if (shown == 8) {
                fprintf(f, " ... (%u more)", n - 8);
                break;
            }
            fprintf(f, " %s", hc_platform_node_name(p, i));
            shown++;
        }
        fputc('\n', f);
    }
    int a = agrees_with_labels(p, lab);
    if (a >= 0)
        fprintf(f, "platform labels (%u clusters): %s\n", hc_platform_cluster_count(p),
                a ? "same partition" : "different partition");
}

static void print_json(FILE *f, const hc_platform_t *p, const hc_cluster_opts_t *o,
                       const int32_t *lab, uint32_t C)
{
    uint32_t P = hc_platform_size(p);
    fprintf(f, "{\n  \"metric\": \"%s\",\n  \"variant\": \"%s\",\n  \"rho\": ",
            o->metric == HC_CLUSTER_LATENCY ? "latency" : "bandwidth",
            o->variant == HC_CLUSTER_GREEDY ? "greedy" : "all-pairs");
    json_num(f, o->rho);
    fprintf(f, ",\n  \"nodes\": %u,\n  \"n_clusters\": %u,\n  \"labels\": [", P, C);
    for (uint32_t i = 0; i < P; i++)
        fprintf(f, "%s%d", i ? ", " : "", (int)lab[i]);
    fputs("],\n  \"clusters\": [", f);
    for (uint32_t g = 0; g < C; g++) {
        double r[4];
        intra_range(p, lab, (int32_t)g, r);
        fprintf(f, "%s\n    {\"label\": %u, \"nodes\": [", g ? "," : "", g);
        int first = 1;
        for (uint32_t i = 0; i < P; i++)
            if (lab[i] == (int32_t)g) {
                fprintf(f, "%s", first ? "" : ", ");
                json_str(f, hc_platform_node_name(p, i));
                first = 0;
            }
        fputs("], \"latency_min_s\": ", f);
        json_num(f, r[0]);
        fputs(", \"latency_max_s\": ", f);
        json_num(f, r[1]);
        fputs(", \"bandwidth_min_Bps\": ", f);
        json_num(f, r[2]);
        fputs(", \"bandwidth_max_Bps\": ", f);
        json_num(f, r[3]);
        fputc('}', f);
    }
    int a = agrees_with_labels(p, lab);
    fprintf(f, "\n  ],\n  \"matches_platform_labels\": %s\n}\n",
            a < 0 ? "null"
            : a   ? "true"
                  : "false");
}

static int write_platform(const hc_platform_t *p, const int32_t *lab, const char *prefix,
                          const char *path)
{
    hc_platform_t *q = NULL;
    int st = hc_platform_clone(p, &q);
    if (st == HC_OK)
        st = hc_platform_apply_clusters(q, lab, prefix);
    char *json = NULL;
    if (st == HC_OK)
        st = hc_platform_to_json(q, &json);
    hc_platform_destroy(q);
    if (st != HC_OK)
        return cli_fail(st, path);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(json);
        return cli_error("%s: cannot create the file", path);
    }
    fputs(json, f);
    free(json);
    return cli_close_file(f, path, CLI_OK);
}

int cmd_cluster(int argc, char **argv)
{
    static const struct option longopts[] = {{"platform", required_argument, NULL, 'p'},
                                             {"rho", required_argument, NULL, 'r'},
                                             {"metric", required_argument, NULL, 'm'},
                                             {"variant", required_argument, NULL, 'v'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"write-platform", required_argument, NULL, 'w'},
                                             {"prefix", required_argument, NULL, 'P'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "cluster";
    const char *spec = NULL, *out_platform = NULL, *output = NULL, *prefix = "c";
    int json = 0;
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:r:m:v:f:w:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            spec = optarg;
            break;
        case 'r':
            if (cli_parse_double(optarg, &o.rho) != 0 || o.rho < 0)
                return cli_value_error(cmd, "--rho '%s': expected a number >= 0", optarg);
            break;
        case 'm':
            if (strcmp(optarg, "latency") == 0)
                o.metric = HC_CLUSTER_LATENCY;
            else if (strcmp(optarg, "bandwidth") == 0)
                o.metric = HC_CLUSTER_BANDWIDTH;
            else
                return cli_value_error(cmd, "--metric '%s': valid are latency, bandwidth", optarg);
            break;
        case 'v':
            if (strcmp(optarg, "greedy") == 0)
                o.variant = HC_CLUSTER_GREEDY;
            else if (strcmp(optarg, "all-pairs") == 0)
                o.variant = HC_CLUSTER_ALL_PAIRS;
            else
                return cli_value_error(cmd, "--variant '%s': valid are greedy, all-pairs", optarg);
            break;
        case 'f':
            if (strcmp(optarg, "text") == 0)
                json = 0;
            else if (strcmp(optarg, "json") == 0)
                json = 1;
            else
                return cli_value_error(cmd, "--format '%s': valid are text, json", optarg);
            break;
        case 'w':
            out_platform = optarg;
            break;
        case 'P':
            prefix = optarg;
            break;
        case 'o':
            output = optarg;
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
    if (!spec)
        return cli_usage_error(cmd, "missing --platform SPEC");
    hc_platform_t *p = NULL;
    if (cli_platform_load(spec, &p) != CLI_OK)
        return CLI_ERROR;
    int st;
    uint32_t P = hc_platform_size(p), C = 0;
    int32_t *lab = malloc((size_t)P * sizeof *lab);
    if (!lab) {
        hc_platform_destroy(p);
        return cli_error("out of memory");
    }
    int rc = CLI_OK;
    st = hc_cluster_compute(p, &o, lab, &C);
    if (st != HC_OK) {
        rc = cli_fail(st, spec);
        goto done;
    }
    FILE *f = cli_open_output(output);
    if (!f) {
        rc = CLI_ERROR;
        goto done;
    }
    if (json)
        print_json(f, p, &o, lab, C);
    else
        print_text(f, p, &o, lab, C);
    rc = cli_close_output(f, rc);
    if (out_platform && rc == CLI_OK)
        rc = write_platform(p, lab, prefix, out_platform);
done:
    free(lab);
    hc_platform_destroy(p);
    return rc;
}
