/* Building an hc_problem_t from command-line options: shared by `schedule`, `validate`,
 * `simulate` and `demo` (one data path: platform -> cost model -> problem). */
#ifndef HETCOLL_CLI_PROBLEM_H
#define HETCOLL_CLI_PROBLEM_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* getopt_long codes of the problem and algorithm options. */
enum {
    POPT_PLATFORM = 256,
    POPT_MSG,
    POPT_SIZES,
    POPT_COSTS,
    POPT_TIMES,
    POPT_TRAFFIC,
    POPT_ROOT,
    POPT_D1,
    POPT_D2,
    POPT_BACKBONE,
    POPT_K,
    POPT_SPEED,
    POPT_BETA,
    POPT_MODEL,
    POPT_SEED,
    POPT_TIME_LIMIT,
    POPT_ORDER,
    POPT_HIERARCHY,
    POPT_ALPHA,
    POPT_SEGMENT,
    POPT_RAMP,
    POPT_SITE_TREES,
    POPT_TAIL_DIRECT,
    POPT_ALTERNATE,
    POPT_VERBOSE,
    POPT_LAST
};

/* The long options above, to put first in a command's option table. */
#define CLI_PROBLEM_LONGOPTS                                                                       \
    {"platform", required_argument, NULL, POPT_PLATFORM},                                          \
        {"msg", required_argument, NULL, POPT_MSG},                                                \
        {"sizes", required_argument, NULL, POPT_SIZES},                                            \
        {"costs", required_argument, NULL, POPT_COSTS},                                            \
        {"times", required_argument, NULL, POPT_TIMES},                                            \
        {"traffic", required_argument, NULL, POPT_TRAFFIC},                                        \
        {"root", required_argument, NULL, POPT_ROOT}, {"d1", required_argument, NULL, POPT_D1},    \
        {"d2", required_argument, NULL, POPT_D2},                                                  \
        {"backbone", required_argument, NULL, POPT_BACKBONE},                                      \
        {"k", required_argument, NULL, POPT_K}, {"speed", required_argument, NULL, POPT_SPEED},    \
        {"beta", required_argument, NULL, POPT_BETA},                                              \
        {"model", required_argument, NULL, POPT_MODEL},                                            \
        {"seed", required_argument, NULL, POPT_SEED},                                              \
        {"time-limit", required_argument, NULL, POPT_TIME_LIMIT},                                  \
        {"order", required_argument, NULL, POPT_ORDER},                                            \
        {"hierarchy", required_argument, NULL, POPT_HIERARCHY},                                    \
        {"alpha", required_argument, NULL, POPT_ALPHA},                                            \
        {"segment", required_argument, NULL, POPT_SEGMENT},                                        \
        {"ramp", required_argument, NULL, POPT_RAMP},                                              \
        {"site-trees", required_argument, NULL, POPT_SITE_TREES},                                  \
        {"tail-direct", required_argument, NULL, POPT_TAIL_DIRECT},                                \
        {"alternate", required_argument, NULL, POPT_ALTERNATE},                                    \
    {                                                                                              \
        "verbose", no_argument, NULL, POPT_VERBOSE                                                 \
    }

/* Parsed problem/algorithm options. Strings point into argv. */
typedef struct cli_popts {
    const char *platform, *costs, *sizes, *times, *traffic;
    uint64_t msg;
    int have_msg;
    uint32_t root;
    int have_root, root_any; /* --root R, --root any (schedule reduce: every root tried) */
    double d1, d2, backbone, speed, beta;
    int have_d1, have_d2, have_backbone, have_speed, have_beta;
    uint32_t k;
    int have_k;
    hc_model_t model;
    int have_seed, have_alpha;
    hc_algo_opts_t algo;   /* seed, time limit, order, hierarchy, alpha, segment, verbose */
    uint32_t *order_buf;   /* owned: free with cli_popts_free */
    const char *algo_name; /* the algorithm to plan with, when known (reduce: pair costs) */
} cli_popts_t;

void cli_popts_init(cli_popts_t *o);
void cli_popts_free(cli_popts_t *o);
/* Handle option `code` (a POPT_* value) with argument `arg`. Returns CLI_OK, CLI_USAGE (after
 * printing the usage error for `cmd`), or -1 when `code` is not a problem option. */
int cli_popts_handle(cli_popts_t *o, const char *cmd, int code, const char *arg);
/* The default branch of a getopt_long loop over the problem options: '?' and ':' go to
 * cli_bad_option, other codes to cli_popts_handle (a code that is no problem option gives the
 * usage error "unexpected option"). Returns CLI_OK, or an exit code after printing. */
int cli_popts_option(cli_popts_t *o, const char *cmd, int code, const char *arg, char **argv);
/* After the options of `validate` and `simulate`: the schedule file is --schedule FILE (*path
 * already set) or the one argument left. Returns CLI_OK, or CLI_USAGE after printing
 * "unexpected argument" or "missing --schedule FILE". */
int cli_schedule_operand(const char *cmd, int argc, char **argv, const char **path);
/* Nonzero when any option describing the problem (not the algorithm) was given. */
int cli_popts_any(const cli_popts_t *o);
/* Help text for the problem options of `coll` (or of all collectives when coll < 0). */
void cli_popts_help(FILE *f, int coll);

/* A built problem and what it owns. */
typedef struct cli_problem {
    hc_problem_t pb;     /* a copy of *built */
    hc_problem_t *built; /* hc_problem_create's (include/hetcoll/problem.h) */
    hc_platform_t *plat; /* the inputs it was built from */
    hc_matrix_t *costs, *sizes;
    double *times;
} cli_problem_t;

/* Build the problem of collective `coll` from the options. `hint` (may be NULL) is a schedule
 * whose collective must match and which supplies what the options leave out: root, the
 * message bytes (from its events), and for redistribution n1/n2/k/beta. Returns CLI_OK,
 * CLI_ERROR or CLI_USAGE after printing one line; on error *out is left empty. */
int cli_problem_build(hc_coll_t coll, const cli_popts_t *o, const hc_schedule_t *hint,
                      const char *cmd, cli_problem_t *out);
void cli_problem_free(cli_problem_t *p);

/* Output of a schedule (cmd_schedule.c): "text", "json" or "svg" onto f. Returns an exit
 * code after printing any error. */
int cli_write_schedule(FILE *f, const hc_schedule_t *s, const char *format, const char *title);
/* The text form: header (collective, algorithm, P, makespan, lower bound, ratio, note) and the
 * events table (redistribute: steps with their transfers). */
void cli_print_schedule_text(FILE *f, const hc_schedule_t *s);
/* Parse "text|json|svg" (svg only when allow_svg). Returns 0 / -1. */
int cli_check_format(const char *format, int allow_svg);

#endif
