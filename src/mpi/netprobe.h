/* Internal API of the network probes, shared with the monitor (src/mpi/monitor.c), the
 * hetcoll-mpi tool (src/mpi/tool_main.c) and the MPI runtime's quick probe (quickprobe.c):
 *   probe_links.c  the link probe (sites, uplinks, duplex sharing) and the noise helpers; it
 *                  uses only the public API, so that libhetcoll_mpi can hold it too;
 *   probe.c        the pLogP probe (full or clustered), hetcoll-mpi only.
 * Not installed. */
#ifndef HETCOLL_NETPROBE_H
#define HETCOLL_NETPROBE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "hetcoll/hetcoll.h"

/* Noise of repeated measurements of one pair: sorts v[0..n-1] and returns (q3 - q1) / q1 with
 * the quartiles q1 = v[(n-1)/4] and q3 = v[n-1-(n-1)/4] of the sorted samples (for n <= 4 the
 * smallest and the largest), i.e. by how much the upper quartile exceeds the lower one,
 * relative to it: the clustering's own agreement test (v - u <= rho u) applied to the pair's
 * samples. 0 for n < 2; *q1 and *q3 (may be NULL) receive the quartiles. */
double hc__probe_spread(double *v, int n, double *q1, double *q3);

/* The noise of a probe: how many pairs' repeated latency samples disagree by more than the
 * tolerance (hc__probe_spread > tol), out of how many, and the worst pair. */
typedef struct hc__probe_noise {
    uint64_t noisy, pairs;
    double tol;
    double worst;  /* largest spread seen (0 when none) */
    uint32_t a, b; /* the worst pair (ranks) */
    double q1, q3; /* its quartiles (one-way latency, s) */
    int reps;      /* samples per pair */
} hc__probe_noise_t;

/* The warning line for `noise` (no newline), or "" when no pair is noisy. `what` names the
 * grouping that may change ("clusters", "sites"), `hint` what the user can do. */
void hc__probe_noise_warning(const hc__probe_noise_t *noise, const char *what, const char *hint,
                             char *buf, size_t n);

typedef struct hc__probe_opts {
    const uint64_t *sizes; /* gap sizes, strictly increasing, >= 1, <= 1 GiB */
    size_t n_sizes;
    int reps;       /* ping-pong repetitions per pair (median), >= 1 */
    int gap_msgs;   /* messages per gap measurement, >= 2 */
    int gap_trials; /* repetitions of each gap measurement (minimum kept), >= 1 */
    int clustered;  /* 0: gaps on every ordered pair; 1: cluster representatives (004 §4.2) */
    double rho;     /* clustering tolerance (labels are written in both modes) */
    int serial;     /* 1: one measurement at a time instead of a matching per round */
    int links;      /* 1: --mode links (the link probe; hetcoll-mpi probe only) */
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
    hc__probe_noise_t noise;          /* of the latency phase (rank 0) */
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

/* ---- the link probe (probe_links.c): sites, uplinks, duplex sharing ---- */

typedef struct hc__links_opts {
    const uint64_t *sizes; /* gap-table sizes, strictly increasing (NULL: the defaults) */
    size_t n_sizes;
    int reps;         /* landmark ping-pongs per rank and round (median kept), >= 1 */
    int gap_trials;   /* repetitions of each timed message of a gap table (minimum kept) */
    int flows;        /* concurrent flows per site pair in the uplink tests, >= 1 */
    double flow_time; /* target duration of one uplink test (s); sets the flow size */
    double rho;       /* a host is in the landmark's site when its latency to the landmark is
                         at most (1 + rho) x the nearest other host's */
} hc__links_opts_t;
/* Defaults: sizes 1KiB,32KiB,63KiB,64KiB,256KiB, reps 4, gap_trials 1, flows 2, flow_time
 * 0.1 s, rho 3. */
void hc__links_opts_init(hc__links_opts_t *o);

typedef struct hc__links_site {
    uint32_t landmark, n;  /* the landmark (lowest rank), number of ranks */
    uint32_t second;       /* the intra-site partner of the landmark (= landmark when n == 1) */
    double nic_bw;         /* intra-site rate of one 1 MiB message (B/s), 0 when n == 1 */
    double uplink_bw;      /* uplink capacity (B/s), 0 when C == 1 */
    double uplink_lat;     /* uplink latency (s) */
    int shared;            /* 1: both directions share the capacity; 0: split duplex */
    int saturated;         /* 1: the site's own uplink bounded its fan-out (else lower bound) */
    double out_Bps;        /* fan-out: flows to every other site */
    double duplex_out_Bps; /* the same flows while as many come in */
    double duplex_in_Bps;  /* the incoming flows of that test */
    uint64_t flow_bytes;   /* bytes per flow in this site's tests */
} hc__links_site_t;

typedef struct hc__links_result {
    uint32_t P, C;
    size_t S;         /* gap-table sizes */
    uint64_t *sizes;  /* S */
    int32_t *labels;  /* P: site of each rank (0..C-1, by landmark order) */
    char *names;      /* P * HC__PROBE_NAME node names ("host-rRANK") */
    double *nic_lat;  /* P: each rank's NIC latency (s) */
    double *site_lat; /* C*C: one-way latency between sites beyond the NICs (s) */
    double *path_lat; /* C*C: what the star model (uplink + uplink) leaves over (s) */
    double *rate;     /* C*C: single-flow rate a -> b (B/s): the size difference of the two largest
                         messages over their time difference */
    double *fixed;    /* C*C: what a lone message a -> b takes beyond bytes / rate, its ack
                         included (s): the latencies and any size-dependent latency step */
    double *gap;      /* C*C*S: gap table of site pair (a, b), a == b: inside a */
    hc__links_site_t *sites; /* C */
    hc__probe_noise_t noise;
    uint32_t landmark_rounds, flows_per_pair;
    uint64_t pings, tables, tests, transfers;
    double t_sites, t_gaps, t_uplinks, t_total; /* seconds (rank 0's clock) */
} hc__links_result_t;

/* Collective over comm: every rank gets the same complete result. Returns an hc status (the
 * same on every rank); errors are recorded with hc_error_set. */
int hc__links_probe_run(MPI_Comm comm, const hc__links_opts_t *o, hc__links_result_t *r);
/* The link-level platform of a result (any rank; the same on every rank): nodes named as
 * measured, labelled with their site "S0".."S{C-1}", a split-duplex NIC per node, a shared or
 * split-duplex uplink per site, a fat-pipe backbone, and a fat-pipe link per site pair whose
 * latency the star leaves over; every pair's route and its site pair's gap table. */
int hc__links_to_platform(const hc__links_result_t *r, hc_platform_t **out);
void hc__links_result_free(hc__links_result_t *r);
/* The summary: one line of counts and times, then one line per site (newline-separated, no
 * final newline). */
void hc__links_summary(const hc__links_result_t *r, char *buf, size_t n);

/* Subcommands of hetcoll-mpi (argv[0] = "probe" / "monitor"); return an exit code. */
int hc__mpi_cmd_probe(int argc, char **argv);
int hc__mpi_cmd_monitor(int argc, char **argv);

/* Option helpers shared by both subcommands (tool_opts.c). */
int hc__mpi_parse_sizes(const char *s, uint64_t **out, size_t *n);
int hc__mpi_rank(void);
/* The measurement options both subcommands take (--sizes, --reps, --gap-msgs, --gap-trials,
 * --mode full|clustered|links, --rho, --serial; getopt codes s r g t m R S). Returns 1 when `c`
 * was one of them and was applied, 0 when `c` is not one of them, -1 after printing that its
 * value is bad (the command then exits 1). */
int hc__mpi_probe_option(const char *cmd, int c, const char *arg, hc__probe_opts_t *o,
                         uint64_t **sizes, size_t *nsizes);
/* Print "hetcoll-mpi <cmd>: message" on stderr from rank 0 only. */
void hc__mpi_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
