/* The command-line parts both subcommands of hetcoll-mpi share (probe in tool_main.c, monitor in
 * monitor.c): rank-0 errors, size lists, the measurement options. Apart from tool_main.c, which
 * dispatches to monitor.c: no file cycle in src/mpi. */
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
            return -1;
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
            return -1;
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
        if (strcmp(arg, "full") == 0 || strcmp(arg, "clustered") == 0 ||
            strcmp(arg, "links") == 0) {
            o->clustered = arg[0] == 'c';
            o->links = arg[0] == 'l';
            return 1;
        }
        hc__mpi_error(cmd, "--mode '%s': valid are full, clustered, links", arg);
        return -1;
    case 'R':
        o->rho = strtod(arg, &end);
        if (end == arg || *end || !isfinite(o->rho) || o->rho < 0) {
            hc__mpi_error(cmd, "--rho '%s': expected a number >= 0", arg);
            return -1;
        }
        return 1;
    case 'S':
        o->serial = 1;
        return 1;
    default:
        return 0;
    }
}
