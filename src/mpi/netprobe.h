/* Internal API of the network probe (src/mpi/probe.c), shared with the monitor
 * (src/mpi/monitor.c) and the hetcoll-mpi tool (src/mpi/tool_main.c). Not installed. */
#ifndef HETCOLL_NETPROBE_H
#define HETCOLL_NETPROBE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "hetcoll/hetcoll.h"

typedef struct hc__probe_opts {
    const uint64_t *sizes; /* gap sizes, strictly increasing, >= 1, <= 1 GiB */
    size_t n_sizes;
    int reps;       /* ping-pong repetitions per pair (median), >= 1 */
    int gap_msgs;   /* messages per gap measurement, >= 2 */
    int gap_trials; /* repetitions of each gap measurement (minimum kept), >= 1 */
    int clustered;  /* 0: gaps on every ordered pair; 1: cluster representatives (004 §4.2) */
    double rho;     /* clustering tolerance (labels are written in both modes) */
    int serial;     /* 1: one measurement at a time instead of a matching per round */
} hc__probe_opts_t;

typedef struct hc__probe_result {
    uint32_t P;
    size_t S;
    uint64_t *sizes;    /* S */
    double *lat;        /* P*P one-way latency = median RTT / 2 (s), symmetric */
    double *gap;        /* P*P*S pLogP gap g_ij(m) (s), [(i*P + j)*S + k] */
    double *bw;         /* P*P bandwidth m_max / g_ij(m_max) (B/s) */
    int32_t *labels;    /* P logical-cluster labels */
    uint32_t C;         /* clusters */
    char *names;        /* P * HC__PROBE_NAME node names ("host-rRANK") */
    uint64_t n_latency; /* ping-pong measurements (unordered pairs) */
    uint64_t n_gap;     /* directed gap measurements (each over all sizes) */
    uint32_t rounds_latency, rounds_gap;
    double t_latency, t_gap, t_total; /* seconds (rank 0's clock) */
} hc__probe_result_t;

#define HC__PROBE_NAME 64

/* Collective over comm. Every rank gets sizes, labels, C and the counters; rank 0 also gets
 * complete lat/gap/bw matrices and names. Returns an hc status (the same on every rank). */
int hc__probe_run(MPI_Comm comm, const hc__probe_opts_t *o, hc__probe_result_t *r);

/* Rank 0: the measured platform (matrix form, gap tables per ordered pair, cluster labels
 * "c0".."c{C-1}"), named "probe". Values are sanitised (latency >= 1 ns, finite bandwidth). */
int hc__probe_to_platform(const hc__probe_result_t *r, const double *lat, const double *bw,
                          const double *gap, hc_platform_t **out);

void hc__probe_result_free(hc__probe_result_t *r);

/* One line summary of the counts and times (no newline). */
void hc__probe_summary(const hc__probe_result_t *r, const hc__probe_opts_t *o, char *buf, size_t n);

/* Subcommands of hetcoll-mpi (argv[0] = "probe" / "monitor"); return an exit code. */
int hc__mpi_cmd_probe(int argc, char **argv);
int hc__mpi_cmd_monitor(int argc, char **argv);

/* Option helpers shared by both subcommands (tool_opts.c). */
int hc__mpi_parse_sizes(const char *s, uint64_t **out, size_t *n);
int hc__mpi_rank(void);
/* The measurement options both subcommands take (--sizes, --reps, --gap-msgs, --gap-trials,
 * --mode, --rho, --serial; getopt codes s r g t m R S). Returns 1 when `c` was one of them
 * and was applied, 0 when `c` is not one of them, 2 after printing a usage error. */
int hc__mpi_probe_option(const char *cmd, int c, const char *arg, hc__probe_opts_t *o,
                         uint64_t **sizes, size_t *nsizes);
/* Print "hetcoll-mpi <cmd>: message" on stderr from rank 0 only. */
void hc__mpi_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
