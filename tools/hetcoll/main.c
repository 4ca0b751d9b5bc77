/* hetcoll: the command-line tool. The subcommand table and the top-level help. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} command_t;

static const command_t commands[] = {
    {"platform", cmd_platform, "list, show or export platforms (file, builtin:NAME, random:...)"},
    {"schedule", cmd_schedule, "schedule a collective (alltoall, bcast, reduce, redistribute)"},
    {"validate", cmd_validate, "check a schedule JSON file, optionally against its problem"},
    {"simulate", cmd_simulate, "replay a schedule on a (perturbed) network"},
    {"algorithms", cmd_algorithms, "list the registered algorithms"},
    {"demo", cmd_demo, "run every algorithm on the built-in platforms"},
    {"experiment", cmd_experiment, "reproduce the papers' experiments"},
    {"cluster", cmd_cluster, "logical clusters of a platform (Lowekamp, tolerance rho)"},
    {"forecast", cmd_forecast, "NWS-style forecasts of a measurement series"},
    {"probe", cmd_probe, "measure the network over MPI (runs hetcoll-mpi probe)"},
    {"monitor", cmd_monitor, "probe periodically and keep a directory file (hetcoll-mpi)"},
    {"help", NULL, "show the help of a command: hetcoll help CMD"},
};

static void usage(FILE *f)
{
    fprintf(f, "Usage: hetcoll [--help] [--version] <command> [options]\n\n"
               "Network-aware collective communication schedules for heterogeneous clusters\n"
               "and grids.\n\nCommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nRun 'hetcoll <command> --help' for the options of a command.\n"
               "Exit codes: 0 success, 1 error (bad input or option value), 2 usage (unknown\n"
               "option, missing or unexpected argument).\n"
               "Units, in options and in the output alike: times in seconds (s), sizes in bytes\n"
               "(B; options take units such as 64KiB or 1MB), bandwidths in bytes per second\n"
               "(B/s).\n\n"
               "Example:\n"
               "  hetcoll schedule alltoall --platform builtin:gusto --msg 1MiB --format text\n");
}

static const command_t *find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int dispatch(int argc, char **argv);

/* Whatever a command printed on stdout must have been written: a full disk or a closed pipe is
 * an error (exit 1), not a silent loss. */
int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    if (rc == CLI_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "hetcoll: standard output: write failed: %s\n", strerror(errno));
        return rc == CLI_OK ? CLI_ERROR : rc;
    }
    return rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("hetcoll %s (library %s)\n", HETCOLL_VERSION_STRING, hc_version());
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return CLI_OK;
        }
        const command_t *c = find(argv[2]);
        if (!c || !c->fn) {
            fprintf(stderr, "hetcoll: unknown command '%s' (try 'hetcoll --help')\n", argv[2]);
            return CLI_USAGE;
        }
        char help[] = "--help";
        char *sub[3] = {argv[2], help, NULL};
        return c->fn(2, sub);
    }
    const command_t *c = find(cmd);
    if (!c || !c->fn) {
        if (cmd[0] == '-')
            fprintf(stderr, "hetcoll: unknown option '%s' (try 'hetcoll --help')\n", cmd);
        else
            fprintf(stderr, "hetcoll: unknown command '%s' (try 'hetcoll --help')\n", cmd);
        return CLI_USAGE;
    }
    return c->fn(argc - 1, argv + 1);
}
