/* `hetcoll simulate`: replay a schedule on the (optionally perturbed) true network. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"

static void help(FILE *f)
{
    fprintf(f,
            "Usage: hetcoll simulate --schedule FILE (--platform SPEC [--msg SIZE|--sizes M]\n"
            "                        | --costs M | --times ...) [--error-sigma S] [--seed N]\n"
            "                        [--slow NODE:FACTOR]... [--alpha A] [--format text|json]\n\n"
            "Replay a schedule with the discrete-event simulator on the true problem built\n"
            "from the options (the collective, root and node count come from the schedule;\n"
            "alltoall/bcast message sizes from its events when --msg/--sizes are absent;\n"
            "redistribute n1/n2/k/beta from the schedule unless given). Every node keeps\n"
            "its schedule order. Prints planned and simulated makespans and their ratio.\n\n"
            "Options:\n"
            "  -s, --schedule FILE          schedule JSON (also accepted as the argument)\n");
    cli_popts_help(f, -1);
    fprintf(f, "Simulation:\n"
               "  --error-sigma S              each duration x max(0.01, 1 + N(0, S)) (default 0)\n"
               "  --seed N                     seed of the error draws (default 1)\n"
               "  --slow NODE:FACTOR           slow a node down (repeatable; default none)\n"
               "  --network pair|flow          pair: every pair its own link (default); flow:\n"
               "                               transfers at the same time share the platform's\n"
               "                               links (max-min fair; needs a hetcoll-platform/2\n"
               "                               platform with routes)\n"
               "  --smpi-factors               with --network flow: SimGrid SMPI's default\n"
               "                               network model (size-dependent factors, weight-S\n"
               "                               sharing, TCP window, cross traffic)\n"
               "  --alpha A                    TTCC switch cost (fraction of the mean edge time;\n"
               "                               default 0)\n"
               "  -f, --format text|json       json adds the actual time of every event (default\n"
               "                               text)\n"
               "  -o, --output FILE            write to FILE instead of stdout\n"
               "  -h, --help                   this help\n\n"
               "Example:\n"
               "  hetcoll simulate --schedule s.json --costs C.txt --error-sigma 0.2 --seed 5\n");
}

enum { OPT_SIGMA = POPT_LAST + 1, OPT_SLOW, OPT_NETWORK, OPT_SMPI };

typedef struct slow {
    uint32_t node;
    double factor;
} slow_t;

static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static void print_json(FILE *f, const hc_schedule_t *s, const hc_sim_result_t *r, double sigma,
                       uint64_t seed)
{
    fprintf(f, "{\n  \"format\": \"hetcoll-simulation/1\",\n  \"collective\": \"%s\",\n",
            hc_coll_name(s->coll));
    fprintf(f, "  \"algorithm\": \"%s\",\n  \"nodes\": %u,\n  \"error_sigma\": ", s->algorithm,
            s->P);
    json_num(f, sigma);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"planned_makespan\": ", (unsigned long long)seed);
    json_num(f, s->makespan);
    fputs(",\n  \"simulated_makespan\": ", f);
    json_num(f, r->makespan);
    fputs(",\n  \"ratio\": ", f);
    json_num(f, s->makespan > 0 ? r->makespan / s->makespan : NAN);
    fputs(",\n  \"finish\": [", f);
    for (uint32_t i = 0; r->finish && i < s->P; i++) {
        if (i)
            fputs(", ", f);
        json_num(f, r->finish[i]);
    }
    fputs("],\n  \"events\": [", f);
    for (size_t i = 0; i < r->n_events; i++) {
        const hc_event_t *e = &r->events[i];
        const hc_event_t *pe = i < s->n_events ? &s->events[i] : e;
        fprintf(f, "%s\n    {\"src\": %u, \"dst\": %u, \"bytes\": %llu, \"start\": ", i ? "," : "",
                e->src, e->dst, (unsigned long long)e->bytes);
        json_num(f, e->start);
        fputs(", \"end\": ", f);
        json_num(f, e->end);
        fputs(", \"planned_start\": ", f);
        json_num(f, pe->start);
        fputs(", \"planned_end\": ", f);
        json_num(f, pe->end);
        fputc('}', f);
    }
    fputs(r->n_events ? "\n  ]\n}\n" : "]\n}\n", f);
}

int cmd_simulate(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_PROBLEM_LONGOPTS,
                                             {"schedule", required_argument, NULL, 's'},
                                             {"error-sigma", required_argument, NULL, OPT_SIGMA},
                                             {"slow", required_argument, NULL, OPT_SLOW},
                                             {"network", required_argument, NULL, OPT_NETWORK},
                                             {"smpi-factors", no_argument, NULL, OPT_SMPI},
                                             {"format", required_argument, NULL, 'f'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "simulate";
    cli_popts_t o;
    cli_popts_init(&o);
    const char *path = NULL, *format = "text", *output = NULL;
    double sigma = 0;
    int network = HC_NETWORK_PAIR, smpi = 0;
    slow_t *slows = NULL;
    size_t n_slow = 0;
    int c, rc = CLI_OK;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:f:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            path = optarg;
            break;
        case 'f':
            format = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_SMPI:
            smpi = 1;
            break;
        case OPT_NETWORK:
            if (strcmp(optarg, "pair") == 0)
                network = HC_NETWORK_PAIR;
            else if (strcmp(optarg, "flow") == 0)
                network = HC_NETWORK_FLOW;
            else {
                rc = cli_value_error(cmd, "option '--network': '%s' is not pair or flow", optarg);
                goto out;
            }
            break;
        case OPT_SIGMA:
            if (cli_parse_double(optarg, &sigma) != 0 || sigma < 0) {
                rc = cli_value_error(cmd, "option '--error-sigma': invalid value '%s'", optarg);
                goto out;
            }
            break;
        case OPT_SLOW: {
            const char *colon = strchr(optarg, ':');
            char node[32];
            slow_t sl;
            if (!colon || (size_t)(colon - optarg) >= sizeof node) {
                rc =
                    cli_value_error(cmd, "option '--slow': expected NODE:FACTOR, got '%s'", optarg);
                goto out;
            }
            memcpy(node, optarg, (size_t)(colon - optarg));
            node[colon - optarg] = '\0';
            /* A factor beyond 1e6 makes times overflow to infinity, not a slower node. */
            if (cli_parse_u32(node, &sl.node) != 0 || cli_parse_double(colon + 1, &sl.factor) ||
                !(sl.factor > 0) || sl.factor > 1e6) {
                rc = cli_value_error(cmd,
                                     "option '--slow': expected NODE:FACTOR with 0 < FACTOR <= "
                                     "1e6, got '%s'",
                                     optarg);
                goto out;
            }
            slow_t *ns = realloc(slows, (n_slow + 1) * sizeof *ns);
            if (!ns) {
                rc = cli_error("out of memory");
                goto out;
            }
            slows = ns;
            slows[n_slow++] = sl;
            break;
        }
        case 'h':
            help(stdout);
            goto out;
        default:
            rc = cli_popts_option(&o, cmd, c, optarg, argv);
            if (rc != CLI_OK)
                goto out;
        }
    }
    rc = cli_schedule_operand(cmd, argc, argv, &path);
    if (rc != CLI_OK)
        goto out;
    if (cli_check_format(format, 0) != 0) {
        rc = cli_value_error(cmd, "unknown format '%s' (valid: text, json)", format);
        goto out;
    }
    if (!cli_popts_any(&o)) {
        rc = cli_usage_error(cmd, "missing the true problem (--platform, --costs, --times or "
                                  "--traffic)");
        goto out;
    }
    hc_schedule_t *s = NULL;
    int st = hc_schedule_load(path, &s);
    if (st != HC_OK) {
        rc = cli_fail(st, path);
        goto out;
    }
    cli_problem_t p;
    rc = cli_problem_build(s->coll, &o, s, cmd, &p);
    if (rc != CLI_OK) {
        hc_schedule_destroy(s);
        goto out;
    }
    double *factors = NULL;
    if (n_slow) {
        factors = malloc(p.pb.P * sizeof *factors);
        if (!factors) {
            rc = cli_error("out of memory");
            goto done;
        }
        for (uint32_t i = 0; i < p.pb.P; i++)
            factors[i] = 1.0;
        for (size_t i = 0; i < n_slow; i++) {
            if (slows[i].node >= p.pb.P) {
                rc = cli_error("--slow: node %u: out of range (P=%u)", slows[i].node, p.pb.P);
                goto done;
            }
            factors[slows[i].node] = slows[i].factor;
        }
    }
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    so.error_sigma = sigma;
    if (o.have_seed)
        so.seed = o.algo.seed;
    so.slowdown = factors;
    so.network = network;
    so.smpi_factors = smpi;
    if (o.have_alpha)
        so.alpha = o.algo.alpha;
    hc_sim_result_t *r = NULL;
    st = hc_simulate(s, &p.pb, &so, &r);
    if (st != HC_OK) {
        rc = cli_fail(st, path);
        goto done;
    }
    FILE *f = cli_open_output(output);
    if (!f) {
        rc = CLI_ERROR;
    } else {
        if (strcmp(format, "json") == 0) {
            print_json(f, s, r, sigma, so.seed);
        } else {
            fprintf(f, "schedule:           %s %s, P=%u\n", hc_coll_name(s->coll), s->algorithm,
                    s->P);
            fprintf(f, "error sigma:        %g (seed %llu)\n", sigma, (unsigned long long)so.seed);
            if (network == HC_NETWORK_FLOW)
                fprintf(f, "network:            flow (concurrent transfers share the links)\n");
            fprintf(f, "planned makespan:   %.9g s\n", s->makespan);
            fprintf(f, "simulated makespan: %.9g s\n", r->makespan);
            if (s->makespan > 0)
                fprintf(f, "ratio:              %.6f\n", r->makespan / s->makespan);
        }
        rc = cli_close_output(f, rc);
    }
    hc_sim_result_destroy(r);
done:
    free(factors);
    cli_problem_free(&p);
    hc_schedule_destroy(s);
out:
    free(slows);
    cli_popts_free(&o);
    return rc;
}
