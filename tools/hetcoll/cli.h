/* Shared helpers of the hetcoll command-line tool (implemented in cli.c, svg.c, plot.c). */
#ifndef HETCOLL_CLI_H
#define HETCOLL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hetcoll/hetcoll.h"

/* Exit codes. */
enum { CLI_OK = 0, CLI_ERROR = 1, CLI_USAGE = 2 };

/* Print ONE line "hetcoll: <context>: <library detail or strerror>" on stderr (the context is
 * left out when the library detail already names it, e.g. the file); returns CLI_ERROR. */
int cli_fail(int status, const char *context);
/* Print "hetcoll: <message>" (one line) on stderr; returns CLI_ERROR. */
int cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Print "hetcoll <cmd>: <message> (try 'hetcoll <cmd> --help')" (one line) on stderr;
 * returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same line for a bad option VALUE (malformed, out of range, unknown keyword); returns
 * CLI_ERROR: exit 1 is bad input, exit 2 a command line of the wrong shape (unknown option,
 * missing or unexpected argument). */
int cli_value_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Report getopt_long's '?' result for argv[optind - 1] as a usage error (CLI_USAGE).
 * Subcommands set opterr = 0 and call this, so that stderr stays one line. */
int cli_bad_option(const char *cmd, int optopt_value, char **argv);

/* One line "hetcoll: note: <old> is deprecated; use <new>" on stderr, once per run for each old
 * spelling (an option, an option's short form, an algorithm's former name); old spellings keep
 * working. */
void cli_deprecated(const char *old_spelling, const char *new_spelling);
/* Look up algorithm `name` of `coll` (hc_algo_find); a former name gets cli_deprecated's note.
 * Returns HC_OK or the library's status (detail set). */
int cli_algo_find(hc_coll_t coll, const char *name, const hc_algo_info_t **out);

/* "1048576", "1KiB", "1MiB", "1GiB", "1kB"/"1KB" (1000), "1MB", "1GB", "1.5MiB", "1B" -> bytes.
 * Returns 0 on success, -1 on a malformed or negative size. */
int cli_parse_size(const char *s, uint64_t *out);
/* A bandwidth in B/s: a number ("1.25e8") or a size with a unit, "/s" optional ("125MB/s",
 * "1GiB"). Returns 0 / -1. */
int cli_parse_rate(const char *s, double *out);
/* Finite double (plain number, e.g. "1e6", "0.5"). Returns 0 / -1. */
int cli_parse_double(const char *s, double *out);
/* Non-negative integer fitting uint64_t / uint32_t. Returns 0 / -1. */
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_u32(const char *s, uint32_t *out);
/* Comma-separated lists and ranges: "10,20,30", "6..16", "10..100:10" (step), at most
 * CLI_LIST_MAX values in all (integers below 2^53). Caller frees *out. Returns 0 / -1. */
#define CLI_LIST_MAX 100000
int cli_parse_u64_list(const char *s, uint64_t **out, size_t *n);
int cli_parse_double_list(const char *s, double **out, size_t *n);

/* hc_platform_load(spec) for a --platform option: CLI_OK, or CLI_ERROR after printing one line
 * that, for a plain file holding a directory (or a SimGrid platform), adds the hint "...; X looks
 * like a directory file; use dir:X". */
int cli_platform_load(const char *spec, hc_platform_t **out);

/* The one rule of the options that take a matrix or a list (--sizes, --times, --costs,
 * --traffic): "@FILE", or a value naming an existing file, is read as a matrix file
 * (hc_matrix_load: whitespace text or JSON); anything else is inline: values separated by ',',
 * rows by ';' ("0,1MiB;2MiB,0"). Sizes (HC_MATRIX_SIZES) take units (64KiB); seconds take ranges
 * (1..8:2) too. The library checks the cells for `kind`. Returns CLI_OK, or CLI_ERROR after one
 * line naming the option (and the file). */
int cli_read_matrix(const char *cmd, const char *opt, const char *arg, hc_matrix_kind_t kind,
                    hc_matrix_t **out);

/* Open the output (-o FILE, or stdout when path is NULL or "-"); NULL (after printing the
 * error) when the file cannot be created. cli_close_output flushes (stdout) or closes the
 * file and returns rc, or CLI_ERROR (after printing "FILE: write failed: ...") when rc is
 * CLI_OK but the data did not reach the file. */
FILE *cli_open_output(const char *path);
int cli_close_output(FILE *f, int rc);
/* The same check for a file opened with fopen: close it, rc or CLI_ERROR naming path. */
int cli_close_file(FILE *f, const char *path, int rc);

/* Progress of a long run on stderr: "<label> 42% (420/1000), ETA 1m05s". On a terminal the
 * line is rewritten in place (at most 5 times a second, and at the end); otherwise (logs,
 * scripts) a plain line every CLI_PROGRESS_SECONDS seconds (the environment variable
 * HETCOLL_PROGRESS_SECONDS overrides it; 0 = every call) and at the end. Call it with done = 0
 * before the work (starts the clock; prints nothing) and after each item. */
#define CLI_PROGRESS_SECONDS 5.0
void cli_progress(const char *label, size_t done, size_t total);

/* getopt_long codes of deprecated spellings (cli_deprecated notes them): --out (now
 * -o/--output), --procs and --n (now --nodes). */
enum { CLI_OPT_OLD_OUT = 0x1000, CLI_OPT_OLD_PROCS, CLI_OPT_OLD_N };

/* Experiments (exp_*.c). Options every experiment has: --trials N (1..max_trials), --seed S,
 * -o/--output DIR (--out is its deprecated spelling; stored through the pointers, whose targets
 * hold the defaults) and -h/--help. Their getopt strings are ":o:h". */
typedef struct cli_exp_args {
    uint64_t *trials, *seed;
    const char **out;
    uint64_t max_trials;
} cli_exp_args_t;
/* clang-format off */
#define CLI_EXP_LONGOPTS                                                                          \
    {"trials", required_argument, NULL, 't'}, {"seed", required_argument, NULL, 's'},             \
    {"output", required_argument, NULL, 'o'}, {"out", required_argument, NULL, CLI_OPT_OLD_OUT},  \
    {"help", no_argument, NULL, 'h'}
/* clang-format on */
/* The rest of an experiment's getopt_long switch (after its own cases and 'h'): 't', 's', 'o'
 * (and CLI_OPT_OLD_OUT) into *a; anything else is reported by cli_bad_option(cmd, optopt, argv).
 * Returns CLI_OK, CLI_ERROR after a bad value or CLI_USAGE after a bad option (printed). */
int cli_exp_option(const char *cmd, int c, const char *arg, char **argv, const cli_exp_args_t *a);
/* After the options: "unexpected argument" for a leftover argv[optind],
 * "-o/--output DIR is required" when out is NULL. Returns CLI_OK or CLI_USAGE (after
 * printing). */
int cli_check_args_done(const char *cmd, int argc, char **argv, const char *out);
/* Comma-separated --algos list of collective `coll` (empty items skipped, at most 511
 * characters read) into out[0..*n): the registry's own (static) names, in the given order, at
 * most `max`. Returns CLI_OK, or CLI_USAGE after printing the usage error of `cmd` (unknown
 * name, more than `max`, empty list). */
int cli_parse_algo_list(const char *cmd, hc_coll_t coll, const char *list, const char **out,
                        size_t max, size_t *n);
/* Every v[i] in lo..hi, else CLI_USAGE after "<opt>: <v> out of range <lo>..<hi>". */
int cli_check_u64_range(const char *cmd, const char *opt, const uint64_t *v, size_t n, uint64_t lo,
                        uint64_t hi);
/* Create the output directory (an existing one is fine). CLI_OK, or CLI_ERROR after
 * printing "<dir>: cannot create directory: <strerror>". */
int cli_make_outdir(const char *dir);
/* fopen("<dir>/<name>", "w") with the name formatted from fmt; NULL after printing
 * "<path>: cannot create: <strerror>". The caller fcloses the file. */
FILE *cli_open_in_dir(const char *dir, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* SVG timing diagram of a schedule (svg.c) without the platform (pictures.h has the form with
 * node names): one row per node, time to the right, each rectangle labelled with its
 * destination, header with makespan and lower bound, a legend. */
int cli_svg_schedule(FILE *f, const hc_schedule_t *s, const char *title);

/* Simple SVG line plot (plot.c): series share x values; y may be log-scaled (non-positive
 * values are then skipped). Returns 0, or -1 when the file cannot be written. */
typedef struct cli_series {
    const char *name;
    const double *y; /* n values; NAN = missing */
} cli_series_t;
int cli_plot_svg(const char *path, const char *title, const char *xlabel, const char *ylabel,
                 const double *x, size_t n, const cli_series_t *series, size_t n_series, int log_y);

/* Subcommands (cmd_*.c): argv[0] is the subcommand name; return an exit code. */
int cmd_platform(int argc, char **argv);
int cmd_schedule(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_algorithms(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_cluster(int argc, char **argv);  /* cmd_cluster.c */
int cmd_forecast(int argc, char **argv); /* cmd_forecast.c */
int cmd_probe(int argc, char **argv);    /* cmd_mpi.c: execs hetcoll-mpi */
int cmd_monitor(int argc, char **argv);  /* cmd_mpi.c */

/* Experiments (exp_<name>.c), one row each in experiments.def. */
#define HC_EXPERIMENT(ident, name, desc) int exp_##ident##_main(int argc, char **argv);
#include "experiments.def"
#undef HC_EXPERIMENT

#endif
