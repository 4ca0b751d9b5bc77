/* `hetcoll experiment <name>`: dispatch to the experiments registered in experiments.def. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct experiment {
    const char *name;
    const char *description;
    int (*fn)(int argc, char **argv);
} experiment_t;

/* The trailing sentinel keeps the table valid C while experiments.def is still empty. */
static const experiment_t experiments[] = {
#define HC_EXPERIMENT(ident, name, desc) {name, desc, exp_##ident##_main},
#include "experiments.def"
#undef HC_EXPERIMENT
    {NULL, NULL, NULL}};

static void list(FILE *f)
{
    fprintf(f, "Experiments:\n");
    size_t n = 0;
    for (const experiment_t *e = experiments; e->name; e++, n++)
        fprintf(f, "  %-14s %s\n", e->name, e->description);
    if (n == 0)
        fprintf(f, "  (none registered yet)\n");
}

static void help(FILE *f)
{
    fprintf(f, "Usage: hetcoll experiment <name> [options]\n"
               "       hetcoll experiment <name> --help\n\n"
               "Reproduce the papers' experiments (CSV and SVG plots). Progress goes to stderr:\n"
               "percentage, count and ETA, rewritten in place on a terminal, else a plain line\n"
               "every 5 s (HETCOLL_PROGRESS_SECONDS=S changes the interval) and at the end.\n\n");
    list(f);
    fprintf(f, "\nExample:\n  hetcoll experiment alltoall --help\n");
}

static void names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const experiment_t *e = experiments; e->name; e++) {
        int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->name);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

int cmd_experiment(int argc, char **argv)
{
    const char *cmd = "experiment";
    if (argc < 2) {
        help(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "list") == 0) {
        help(stdout);
        return CLI_OK;
    }
    for (const experiment_t *e = experiments; e->name; e++) {
        if (strcmp(e->name, name) == 0) {
            optind = 1;
            opterr = 0;
            return e->fn(argc - 1, argv + 1);
        }
    }
    char buf[1024];
    names(buf, sizeof buf);
    if (name[0] == '-')
        return cli_usage_error(cmd, "unknown option '%s'", name);
    return cli_usage_error(cmd, "unknown experiment '%s' (valid: %s)", name,
                           buf[0] ? buf : "none registered");
}
