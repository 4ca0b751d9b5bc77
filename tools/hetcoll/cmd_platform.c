/* `hetcoll platform show|export SPEC`: summarise or serialise a platform. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
    fprintf(
        f,
        "Usage: hetcoll platform list\n"
        "       hetcoll platform show SPEC      (or --platform SPEC, as elsewhere)\n"
        "       hetcoll platform export SPEC [-o FILE]\n"
        "       hetcoll platform export SPEC --simgrid OUT.xml [--hostfile OUT.txt]\n"
        "                [--form auto|cluster|matrix] [--shared-backbone] [--backbone-bw B/s]\n\n"
        "SPEC is a platform JSON file, builtin:NAME (%s),\n"
        "random:GEN:k=v:..., dir:FILE or simgrid:[hostfile=H:][np=N:]FILE.xml\n"
        "(a SimGrid platform; see docs/formats.md).\n\n"
        "  list     the built-in platforms and the random generators with their keys and\n"
        "           defaults\n"
        "  show     P, clusters, latency/bandwidth ranges per cluster pair\n"
        "  export   matrix-form platform JSON (gap tables included)\n\n"
        "Options:\n"
        "  -o, --output FILE   write to FILE instead of stdout (export)\n"
        "  --simgrid FILE      export a SimGrid platform (XML 4.1) for SMPI instead of JSON\n"
        "  --hostfile FILE     with --simgrid: SMPI hostfile, rank r on node r\n"
        "  --form F            with --simgrid: auto (cluster form when exact; the default),\n"
        "                      cluster or matrix\n"
        "  --shared-backbone   with --simgrid: flows between two clusters share the link\n"
        "  --backbone-bw B/s   with --simgrid: shared backbone of this capacity per cluster\n"
        "                      pair (default: none, the platform's own links)\n"
        "  -h, --help          this help\n\n"
        "Examples:\n"
        "  hetcoll platform list\n"
        "  hetcoll platform show builtin:grid5000\n"
        "  hetcoll platform export builtin:gusto -o gusto.json\n"
        "  hetcoll platform export builtin:grid5000 --simgrid g5k.xml --hostfile g5k.txt\n",
        hc_platform_builtin_names());
}

typedef struct range {
    double lat_min, lat_max, bw_min, bw_max;
    size_t links;
} range_t;

static const char *group_name(const hc_platform_t *p, uint32_t g, uint32_t C)
{
    return g < C ? hc_platform_cluster_name(p, g) : "(unlabelled)";
}

static int show(const hc_platform_t *p, FILE *f)
{
    uint32_t P = hc_platform_size(p), C = hc_platform_cluster_count(p);
    const char *name = hc_platform_name(p);
    fprintf(f, "platform:  %s\n", name && *name ? name : "(unnamed)");
    fprintf(f, "nodes:     %u\n", P);
    fprintf(f, "clusters:  %u\n", C);
    uint32_t G = C + 1; /* last group: unlabelled nodes */
    size_t *count = calloc(G, sizeof *count);
    range_t *r = calloc((size_t)G * G, sizeof *r);
    if (!count || !r) {
        free(count);
        free(r);
        return cli_error("out of memory");
    }
    uint32_t *grp = malloc((P ? P : 1) * sizeof *grp);
    if (!grp) {
        free(count);
        free(r);
        return cli_error("out of memory");
    }
    for (uint32_t i = 0; i < P; i++) {
        int32_t c = hc_platform_cluster_of(p, i);
        grp[i] = (c >= 0 && (uint32_t)c < C) ? (uint32_t)c : C;
        count[grp[i]]++;
    }
    for (uint32_t g = 0; g < G; g++)
        if (count[g])
            fprintf(f, "  %-20s %zu nodes\n", group_name(p, g, C), count[g]);
    size_t with_t = 0;
    for (uint32_t i = 0; i < P; i++)
        if (hc_platform_send_time(p, i) >= 0)
            with_t++;
    if (with_t)
        fprintf(f, "send times: set on %zu nodes\n", with_t);
    fprintf(f, "pLogP gap tables: %s\n", hc_platform_has_gaps(p) ? "yes" : "no");
    for (uint32_t i = 0; i < P; i++) {
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            range_t *x = &r[(size_t)grp[i] * G + grp[j]];
            double lat = hc_platform_latency(p, i, j), bw = hc_platform_bandwidth(p, i, j);
            if (x->links == 0) {
                x->lat_min = x->lat_max = lat;
                x->bw_min = x->bw_max = bw;
            } else {
                x->lat_min = fmin(x->lat_min, lat);
                x->lat_max = fmax(x->lat_max, lat);
                x->bw_min = fmin(x->bw_min, bw);
                x->bw_max = fmax(x->bw_max, bw);
            }
            x->links++;
        }
    }
    fprintf(f, "\n%-20s %-20s %7s %23s %23s\n", "from", "to", "links", "latency (s)",
            "bandwidth (B/s)");
    for (uint32_t a = 0; a < G; a++) {
        for (uint32_t b = 0; b < G; b++) {
            const range_t *x = &r[(size_t)a * G + b];
            if (!x->links)
                continue;
            char lat[64], bw[64];
            if (x->lat_min == x->lat_max)
                snprintf(lat, sizeof lat, "%.4g", x->lat_min);
            else
                snprintf(lat, sizeof lat, "%.4g..%.4g", x->lat_min, x->lat_max);
            if (x->bw_min == x->bw_max)
                snprintf(bw, sizeof bw, "%.4g", x->bw_min);
            else
                snprintf(bw, sizeof bw, "%.4g..%.4g", x->bw_min, x->bw_max);
            fprintf(f, "%-20s %-20s %7zu %23s %23s\n", group_name(p, a, C), group_name(p, b, C),
                    x->links, lat, bw);
        }
    }
    free(grp);
    free(count);
    free(r);
    uint32_t L = hc_platform_link_count(p);
    if (L == 0)
        return CLI_OK;
    /* the link level: each link, how many routes cross it, and one route per group pair */
    size_t *uses = calloc(L, sizeof *uses);
    hc_hop_t *hops = malloc(sizeof *hops * (2 * (size_t)L + 1));
    unsigned char *shown = calloc((size_t)(C + 1) * (C + 1), 1);
    if (!uses || !hops || !shown) {
        free(uses);
        free(hops);
        free(shown);
        return cli_error("out of memory");
    }
    size_t routes = 0;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            size_t n = hc_platform_route(p, i, j, hops, 2 * (size_t)L + 1);
            routes += n > 0;
            for (size_t h = 0; h < n; h++)
                uses[hops[h].link]++;
        }
    fprintf(f, "\nlinks: %u, routes: %zu of %zu pairs\n", L, routes, (size_t)P * (P - 1));
    fprintf(f, "%-20s %15s %12s %-12s %8s\n", "link", "bandwidth (B/s)", "latency (s)", "sharing",
            "routes");
    for (uint32_t k = 0; k < L; k++)
        fprintf(f, "%-20s %15.4g %12.4g %-12s %8zu\n", hc_platform_link_name(p, k),
                hc_platform_link_bandwidth(p, k), hc_platform_link_latency(p, k),
                hc_link_sharing_name(hc_platform_link_sharing(p, k)), uses[k]);
    fprintf(f, "\nroutes (the first pair of each group pair):\n");
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            int32_t ci = hc_platform_cluster_of(p, i), cj = hc_platform_cluster_of(p, j);
            size_t g = (size_t)(ci < 0 ? C : (uint32_t)ci) * (C + 1) + (cj < 0 ? C : (uint32_t)cj);
            size_t n = hc_platform_route(p, i, j, hops, 2 * (size_t)L + 1);
            if (!n || shown[g])
                continue;
            shown[g] = 1;
            fprintf(f, "  %s -> %s:", hc_platform_node_name(p, i), hc_platform_node_name(p, j));
            for (size_t h = 0; h < n; h++)
                fprintf(f, " %s%s", hc_platform_link_name(p, hops[h].link),
                        hc_platform_link_sharing(p, hops[h].link) != HC_LINK_SPLITDUPLEX ? ""
                        : hops[h].down                                                   ? ":down"
                                                                                         : ":up");
            fputc('\n', f);
        }
    free(shown);
    free(uses);
    free(hops);
    return CLI_OK;
}

/* `platform list`: the built-in platforms (loaded, for their size) and the random generators
 * with their keys, defaults and ranges (hc_platform_random_info). */
static int list(FILE *f)
{
    char names[256];
    snprintf(names, sizeof names, "%s", hc_platform_builtin_names());
    fprintf(f, "Built-in platforms (builtin:NAME):\n");
    for (char *tok = strtok(names, ", "); tok; tok = strtok(NULL, ", ")) {
        char spec[300];
        hc_platform_t *p = NULL;
        snprintf(spec, sizeof spec, "builtin:%s", tok);
        int st = hc_platform_load(spec, &p);
        if (st != HC_OK)
            return cli_fail(st, spec);
        fprintf(f, "  %-13s %u nodes, %u clusters\n", tok, hc_platform_size(p),
                hc_platform_cluster_count(p));
        hc_platform_destroy(p);
    }
    fprintf(f, "\nRandom generators (random:GEN:key=value:...; every key optional, seed=N\n"
               "(default 1) in all of them):\n");
    const char *name, *desc;
    hc_random_param_t par[16];
    size_t n;
    for (size_t i = 0; hc_platform_random_info(i, &name, &desc, par, 16, &n) == HC_OK; i++) {
        fprintf(f, "  %-13s %s\n", name, desc);
        for (size_t k = 0; k < n && k < 16; k++)
            fprintf(f, "  %-13s   %-11s default %-9g %s %g..%g\n", "", par[k].key, par[k].def,
                    par[k].integer ? "integer" : "range  ", par[k].lo, par[k].hi);
    }
    hc_error_clear();
    fprintf(f, "\nAlso: FILE (platform JSON), dir:FILE (a directory file of the monitor),\n"
               "simgrid:[hostfile=H:][np=N:]FILE.xml (docs/formats.md, \"Platform specs\").\n"
               "Example: hetcoll platform show random:grid:clusters=3:nodes=4:seed=7\n");
    return CLI_OK;
}

int cmd_platform(int argc, char **argv)
{
    static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                             {"platform", required_argument, NULL, 'P'},
                                             {"simgrid", required_argument, NULL, 'S'},
                                             {"hostfile", required_argument, NULL, 'H'},
                                             {"form", required_argument, NULL, 'F'},
                                             {"shared-backbone", no_argument, NULL, 'B'},
                                             {"backbone-bw", required_argument, NULL, 'W'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "platform";
    const char *output = NULL, *sg_xml = NULL, *sg_hosts = NULL, *platform_opt = NULL;
    hc_simgrid_opts_t sg;
    hc_simgrid_opts_init(&sg);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'S':
            sg_xml = optarg;
            break;
        case 'P': /* the spelling every other command uses */
            platform_opt = optarg;
            break;
        case 'H':
            sg_hosts = optarg;
            break;
        case 'F':
            if (strcmp(optarg, "auto") == 0)
                sg.form = HC_SIMGRID_AUTO;
            else if (strcmp(optarg, "cluster") == 0)
                sg.form = HC_SIMGRID_CLUSTER;
            else if (strcmp(optarg, "matrix") == 0)
                sg.form = HC_SIMGRID_MATRIX;
            else
                return cli_value_error(cmd, "--form: '%s' is not auto, cluster or matrix", optarg);
            break;
        case 'B':
            sg.shared_backbone = 1;
            break;
        case 'W':
            if (cli_parse_rate(optarg, &sg.backbone_bw) != 0 || !(sg.backbone_bw > 0))
                return cli_value_error(cmd, "--backbone-bw: '%s' is not a bandwidth > 0", optarg);
            break;
        case 'h':
            help(stdout);
            return CLI_OK;
        default:
            return cli_bad_option(cmd, c, argv);
        }
    }
    if (argc - optind < 1)
        return cli_usage_error(cmd, "missing action (list, show or export)");
    const char *action = argv[optind];
    int is_show = strcmp(action, "show") == 0, is_export = strcmp(action, "export") == 0;
    if (strcmp(action, "list") == 0) {
        if (argc - optind > 1)
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
        if (platform_opt || sg_xml)
            return cli_usage_error(cmd, "list takes no platform");
        FILE *f = cli_open_output(output);
        if (!f)
            return CLI_ERROR;
        return cli_close_output(f, list(f));
    }
    if (!is_show && !is_export)
        return cli_usage_error(cmd, "unknown action '%s' (valid: list, show, export)", action);
    if (platform_opt && argc - optind > 1)
        return cli_usage_error(cmd, "give the platform once: SPEC or --platform SPEC");
    if (argc - optind < 2 && !platform_opt)
        return cli_usage_error(cmd, "missing platform SPEC (or --platform SPEC)");
    if (argc - optind > 2)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 2]);
    const char *spec = platform_opt ? platform_opt : argv[optind + 1];
    hc_platform_t *p = NULL;
    if (cli_platform_load(spec, &p) != CLI_OK)
        return CLI_ERROR;
    int st, rc = CLI_OK;
    if ((sg_hosts || sg.form || sg.shared_backbone || sg.backbone_bw > 0) && !sg_xml)
        rc = cli_usage_error(cmd, "--hostfile, --form and the backbone options need --simgrid");
    else if (sg_xml && !is_export)
        rc = cli_usage_error(cmd, "--simgrid is an option of export");
    if (rc != CLI_OK) {
        hc_platform_destroy(p);
        return rc;
    }
    if (sg_xml) { /* SimGrid platform (src/net/simgrid_export.c); JSON too only when -o is given */
        FILE *x = cli_open_output(sg_xml);
        FILE *h = x && sg_hosts ? cli_open_output(sg_hosts) : NULL;
        if (!x || (sg_hosts && !h)) {
            rc = CLI_ERROR;
        } else {
            st = hc_platform_export_simgrid(p, &sg, x, h, NULL);
            if (st != HC_OK)
                rc = cli_fail(st, spec);
        }
        if (h)
            rc = cli_close_output(h, rc);
        if (x)
            rc = cli_close_output(x, rc);
        if (rc != CLI_OK || !output) {
            hc_platform_destroy(p);
            return rc;
        }
    }
    FILE *f = cli_open_output(output);
    if (!f) {
        rc = CLI_ERROR;
    } else if (is_show) {
        rc = show(p, f);
    } else {
        char *json = NULL;
        st = hc_platform_to_json(p, &json);
        if (st != HC_OK) {
            rc = cli_fail(st, spec);
        } else {
            fputs(json, f);
            size_t n = strlen(json);
            if (n == 0 || json[n - 1] != '\n')
                fputc('\n', f);
            free(json);
        }
    }
    if (f)
        rc = cli_close_output(f, rc);
    hc_platform_destroy(p);
    return rc;
}
