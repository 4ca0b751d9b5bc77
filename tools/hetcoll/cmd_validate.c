/* `hetcoll validate`: check a schedule JSON file, structurally or against its problem. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "problem.h"

static void help(FILE *f)
{
    fprintf(f, "Usage: hetcoll validate --schedule FILE [problem options]\n\n"
               "Check a schedule. Without problem options only its structure is checked\n"
               "(1-port, coverage of the nodes, step/tree rules); with them, the durations and\n"
               "the message coverage too. The collective, the root and (redistribute) k and\n"
               "beta come from the schedule unless given.\n"
               "Prints 'valid: ...' and exits 0, or prints the first violation and exits 1.\n\n"
               "Options:\n"
               "  -s, --schedule FILE          schedule JSON (also accepted as the argument)\n");
    cli_popts_help(f, -1);
    fprintf(f, "  -h, --help                   this help\n\n"
               "Example:\n"
               "  hetcoll schedule alltoall --costs C.txt --format json -o s.json\n"
               "  hetcoll validate --schedule s.json --costs C.txt\n");
}

int cmd_validate(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_PROBLEM_LONGOPTS,
                                             {"schedule", required_argument, NULL, 's'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "validate";
    cli_popts_t o;
    cli_popts_init(&o);
    const char *path = NULL;
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:h", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            path = optarg;
            break;
        case 'h':
            help(stdout);
            cli_popts_free(&o);
            return CLI_OK;
        default:
            rc = cli_popts_option(&o, cmd, c, optarg, argv);
            if (rc != CLI_OK) {
                cli_popts_free(&o);
                return rc;
            }
        }
    }
    rc = cli_schedule_operand(cmd, argc, argv, &path);
    if (rc != CLI_OK) {
        cli_popts_free(&o);
        return rc;
    }
    hc_schedule_t *s = NULL;
    int st = hc_schedule_load(path, &s);
    if (st != HC_OK) {
        cli_popts_free(&o);
        return cli_fail(st, path);
    }
    cli_problem_t p;
    int with_problem = cli_popts_any(&o);
    if (with_problem) {
        rc = cli_problem_build(s->coll, &o, s, cmd, &p);
        if (rc != CLI_OK) {
            hc_schedule_destroy(s);
            cli_popts_free(&o);
            return rc;
        }
    }
    st = hc_schedule_validate(s, with_problem ? &p.pb : NULL);
    if (st != HC_OK) {
        rc = cli_fail(st, path);
    } else {
        printf("valid: %s %s, P=%u, makespan=%.9g%s\n", hc_coll_name(s->coll), s->algorithm, s->P,
               s->makespan, with_problem ? "" : " (structure only)");
        rc = CLI_OK;
    }
    if (with_problem)
        cli_problem_free(&p);
    hc_schedule_destroy(s);
    cli_popts_free(&o);
    return rc;
}
