/* The link probe (`hetcoll-mpi probe --links`, and the MPI runtime's quick probe): the sites,
 * each site's uplink (capacity, latency, and whether both directions share it) and a gap table
 * per site pair, in O(C) rounds of small messages and O(C^2) timed transfers for C sites,
 * never O(P^2) large transfers. The result is a link-level platform (cluster form: a NIC per
 * node, an uplink per site, a fat-pipe backbone).
 *
 * 1. Sites (landmark rounds). Ranks on one host (same processor name) are always in one site.
 *    Round c: the landmark (the lowest rank without a site) pings every other rank at once,
 *    `reps` timed 1-byte round trips after one untimed one (latency = median RTT / 2), and
 *    sends the row of latencies to everyone. Its site: its host, plus, when the nearest other
 *    host is at most LAN_MAX away, every host whose latency (its nearest rank) is at most
 *    (1 + rho) x that nearest one. C rounds; every rank computes the same labels. The rows also
 *    give each rank's NIC latency (half its latency to its landmark; the landmark's: half the
 *    median of its site's) and the latency between sites beyond the NICs; a star fit splits it
 *    into one latency per uplink (least squares, C >= 3), what it leaves over goes to a link of
 *    the site pair.
 * 2. Gap tables. Per site pair (one direction, landmark to landmark) and inside each site
 *    (landmark to a rank on another host, all sites at once): for each size m, one message of
 *    m bytes answered by a 0-byte ack (minimum over `gap_trials`): g(m) = T(m) - T(1 byte), the
 *    time a lone message takes beyond the latency, so size-dependent latency steps (SimGrid's
 *    piecewise factors, eager/rendezvous switches around 64 KiB) appear in the table. The
 *    largest size gives the pair's single-flow rate; inside a site one 1 MiB message gives the
 *    NIC rate.
 * 3. Uplinks. Per site s: the fan-out test, `flows` flows from distinct ranks of s to each other
 *    site at once, then the duplex test, the same flows while as many come in from every other
 *    site (for C = 2: both one-way tests and one duplex test). Each flow is one message timed
 *    by its sender up to the receiver's 0-byte ack, rate = bytes / (T - 2 x latency). The
 *    fan-out aggregate is the uplink's capacity when the uplink is the bottleneck; when the
 *    incoming flows slow the outgoing ones by more than 25 %, both directions share the uplink
 *    (and its capacity is the duplex test's total), otherwise it is split duplex.
 * Timed steps run one after another: every receiver posts its receives and tells rank 0; rank 0
 * then sends each sender a "go" that the sender delays so that all start at the same moment
 * (their one-way latencies from rank 0 are known from round 0); every sender reports its times
 * to rank 0 when done. Rank 0 broadcasts the timings twice (after the gap tables, which size the
 * flows, and at the end), so every rank holds the same result.
 *
 * Uses only the public API (the runtime's libhetcoll_mpi compiles this file too). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetcoll/links.h"
#include "netprobe.h"

#define TAG_PING 7301
#define TAG_ROW 7302
#define TAG_STEP 7400      /* + 4 * (step % 1024) + {0 data, 1 ack, 2 go, 3 done} */
#define LAN_MAX 1e-3       /* a landmark whose nearest other host is farther is a site alone */
#define MAX_SITES 64       /* landmark rounds at most (the site pairs are measured one by one) */
#define BW_BYTES (1 << 20) /* the message that measures a NIC */
#define MIN_FLOW 16384
#define MAX_FLOW (64 << 20)
#define SHARED_SLOWDOWN 0.75 /* duplex out < 0.75 x fan-out: both directions share the uplink */
#define SATURATED 0.9        /* fan-out < 0.9 x what the other sites could take: saturated */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median_of(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double hc__probe_spread(double *v, int n, double *q1, double *q3)
{
    if (n < 2) {
        if (q1)
            *q1 = n ? v[0] : 0;
        if (q3)
            *q3 = n ? v[0] : 0;
        return 0;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int k = (n - 1) / 4;
    double lo = v[k], hi = v[n - 1 - k];
    if (q1)
        *q1 = lo;
    if (q3)
        *q3 = hi;
    return lo > 0 ? (hi - lo) / lo : (hi > 0 ? INFINITY : 0);
}

static void fmt_time(double s, char *buf, size_t n)
{
    if (s < 1e-3)
        snprintf(buf, n, "%.1f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, n, "%.2f ms", s * 1e3);
    else
        snprintf(buf, n, "%.3f s", s);
}

void hc__probe_noise_warning(const hc__probe_noise_t *z, const char *what, const char *hint,
                             char *buf, size_t n)
{
    if (!z->noisy) {
        if (n)
            buf[0] = '\0';
        return;
    }
    char lo[32], hi[32];
    fmt_time(z->q1, lo, sizeof lo);
    fmt_time(z->q3, hi, sizeof hi);
    snprintf(buf, n,
             "warning: the repeated latency samples of %llu of %llu pairs disagree by more than "
             "rho = %g (upper vs lower quartile of %d samples; worst: ranks %u and %u, %s vs %s): "
             "noisy (loaded?) hosts, so the %s may change from run to run; %s",
             (unsigned long long)z->noisy, (unsigned long long)z->pairs, z->tol, z->reps, z->a,
             z->b, lo, hi, what, hint);
}

void hc__links_opts_init(hc__links_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 4;
    o->gap_trials = 1;
    o->flows = 2;
    o->flow_time = 0.1;
    o->rho = 3;
}

static const uint64_t default_sizes[] = {1024, 32768, 64512, 65536, 262144};

void hc__links_result_free(hc__links_result_t *r)
{
    if (!r)
        return;
    free(r->sizes);
    free(r->labels);
    free(r->names);
    free(r->nic_lat);
    free(r->site_lat);
    free(r->path_lat);
    free(r->rate);
    free(r->fixed);
    free(r->gap);
    free(r->sites);
    memset(r, 0, sizeof *r);
}

static void sleep_s(double s)
{
    if (!(s > 0))
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* ---- timed steps ---- */

/* A transfer: `trials` times the messages msg[0..nmsg-1], each answered by a 0-byte ack;
 * the sender keeps, per message, the minimum time from its send to the ack in res[slot..]. */
typedef struct lp_xfer {
    int src, dst;
    int nmsg;
    const uint64_t *msg;
    int trials;
    size_t slot;
} lp_xfer_t;

typedef struct lp_ctx {
    MPI_Comm comm;
    int me, P;
    const double *lat0; /* one-way latency from rank 0 to every rank */
    char *sbuf;         /* the data every send reads */
    int step;
    MPI_Request *pre; /* rank 0: the ready messages of the next step, posted early */
    size_t npre;
} lp_ctx_t;

typedef struct lp_role {
    const lp_xfer_t *x;
    int recv; /* 0: sender, 1: receiver */
    int i, j; /* message, trial */
    double t0;
    char *buf;
    double *best; /* sender: nmsg minima */
} lp_role_t;

/* Rank 0: post the receives of the ready messages of a step (one per receiver but rank 0). */
static size_t post_ready(MPI_Comm comm, const lp_xfer_t *xf, size_t n, int tag, MPI_Request *rq)
{
    static char dummy;
    size_t nready = 0;
    for (size_t k = 0; k < n; k++) {
        int d = xf[k].dst, first = d != 0;
        for (size_t q = 0; q < k && first; q++)
            first = xf[q].dst != d;
        if (first)
            MPI_Irecv(&dummy, 0, MPI_BYTE, d, tag + 2, comm, &rq[nready++]);
    }
    return nready;
}

/* Run one step: every transfer of xf at once, started together. Collective over the ranks of
 * the step and rank 0 (the others return at once). Rank 0 ends with every sender's minima in
 * res. The caller sized everything beforehand: roles for this rank's roles, rq for two
 * requests per role and one per sender and receiver, rbufs for its receiving roles (each as
 * large as the largest message), scratch for the minima of the step's transfers. `next` (may
 * be NULL) is the following step: rank 0 posts the receives of its ready messages now, so that
 * they arrive while this step runs (SimGrid starts a message only once its receive is posted). */
static void run_step(lp_ctx_t *c, const lp_xfer_t *xf, size_t n, const lp_xfer_t *next,
                     size_t nnext, double *res, double *scratch, lp_role_t *roles, MPI_Request *rq,
                     char **rbufs)
{
    int me = c->me, tag = TAG_STEP + 4 * (c->step++ % 1024);
    static char dummy;
    size_t nr = 0, nres = 0, nrecv = 0;
    int sender = 0;
    double lmax = 0;
    for (size_t k = 0; k < n; k++) {
        lmax = c->lat0[xf[k].src] > lmax ? c->lat0[xf[k].src] : lmax;
        if (xf[k].src == me) {
            roles[nr] = (lp_role_t){&xf[k], 0, 0, 0, 0, NULL, scratch + nres};
            for (int i = 0; i < xf[k].nmsg; i++)
                scratch[nres + (size_t)i] = INFINITY;
            nres += (size_t)xf[k].nmsg;
            nr++;
            sender = 1;
        }
        if (xf[k].dst == me) {
            roles[nr] = (lp_role_t){&xf[k], 1, 0, 0, 0, rbufs[nrecv++], NULL};
            nr++;
        }
    }
    for (size_t r = 0; r < nr; r++) {
        rq[2 * r] = rq[2 * r + 1] = MPI_REQUEST_NULL;
        if (roles[r].recv)
            MPI_Irecv(roles[r].buf, (int)roles[r].x->msg[0], MPI_BYTE, roles[r].x->src, tag,
                      c->comm, &rq[2 * r]);
    }
    /* Every other receiver tells rank 0 that its receives are posted (a message whose receive
     * is late is timed late: SimGrid starts it only then, a rendezvous protocol too). */
    for (size_t k = 0; k < n && me != 0; k++) {
        int first = xf[k].dst == me;
        for (size_t q = 0; q < k && first; q++)
            first = xf[q].dst != me;
        if (first)
            MPI_Send(&dummy, 0, MPI_BYTE, 0, tag + 2, c->comm);
    }
    /* Rank 0: the other senders' reports, posted now (SMPI starts a message only once its
     * receive is posted: receiving them one by one would cost a latency each), after its own
     * minima in scratch; the receivers' ready messages; then a go to every other sender. */
    size_t ndone = 0;
    if (me == 0) {
        size_t off = nres;
        for (size_t k = 0; k < n; k++) {
            int s = xf[k].src, first = s != 0;
            for (size_t q = 0; q < k && first; q++)
                first = xf[q].src != s;
            if (!first)
                continue;
            size_t cnt = 0;
            for (size_t q = k; q < n; q++)
                cnt += xf[q].src == s ? (size_t)xf[q].nmsg : 0;
            MPI_Irecv(scratch + off, (int)cnt, MPI_DOUBLE, s, tag + 3, c->comm,
                      &rq[2 * nr + ndone++]);
            off += cnt;
        }
        size_t nready = c->npre;
        MPI_Request *ready = c->pre;
        if (!nready) /* not posted by the previous step */
            nready = post_ready(c->comm, xf, n, tag, ready = &rq[2 * nr + ndone]);
        for (size_t d = 0; d < nready; d++)
            MPI_Wait(&ready[d], MPI_STATUS_IGNORE);
        c->npre = 0;
        for (size_t k = 0; k < n; k++) {
            int s = xf[k].src, first = s != 0;
            for (size_t q = 0; q < k && first; q++)
                first = xf[q].src != s;
            if (first)
                MPI_Send(&dummy, 0, MPI_BYTE, s, tag + 2, c->comm);
        }
        if (next)
            c->npre = post_ready(c->comm, next, nnext, TAG_STEP + 4 * (c->step % 1024), c->pre);
    }
    if (sender) {
        if (me != 0)
            MPI_Recv(&dummy, 0, MPI_BYTE, 0, tag + 2, c->comm, MPI_STATUS_IGNORE);
        sleep_s(lmax - c->lat0[me]); /* every sender starts lmax after rank 0 sent the go */
        for (size_t r = 0; r < nr; r++)
            if (!roles[r].recv) {
                roles[r].t0 = MPI_Wtime();
                MPI_Irecv(&dummy, 0, MPI_BYTE, roles[r].x->dst, tag + 1, c->comm, &rq[2 * r + 1]);
                MPI_Isend(c->sbuf, (int)roles[r].x->msg[0], MPI_BYTE, roles[r].x->dst, tag, c->comm,
                          &rq[2 * r]);
            }
    }
    while (nr > 0) { /* (SMPI's MPI_Waitany does not return MPI_UNDEFINED for count 0) */
        int idx;
        MPI_Waitany((int)(2 * nr), rq, &idx, MPI_STATUS_IGNORE);
        if (idx == MPI_UNDEFINED)
            break;
        lp_role_t *ro = &roles[idx / 2];
        const lp_xfer_t *x = ro->x;
        if (!ro->recv) {
            if (rq[2 * (idx / 2)] != MPI_REQUEST_NULL || rq[2 * (idx / 2) + 1] != MPI_REQUEST_NULL)
                continue; /* the data send or the ack still pending */
            double T = MPI_Wtime() - ro->t0;
            ro->best[ro->i] = T < ro->best[ro->i] ? T : ro->best[ro->i];
            if (++ro->i == x->nmsg) {
                ro->i = 0;
                ro->j++;
            }
            if (ro->j < x->trials) {
                ro->t0 = MPI_Wtime();
                MPI_Irecv(&dummy, 0, MPI_BYTE, x->dst, tag + 1, c->comm, &rq[idx - idx % 2 + 1]);
                MPI_Isend(c->sbuf, (int)x->msg[ro->i], MPI_BYTE, x->dst, tag, c->comm,
                          &rq[idx - idx % 2]);
            }
        } else if (idx % 2 == 0) { /* a message arrived: ack it, post the next receive */
            MPI_Wait(&rq[idx + 1], MPI_STATUS_IGNORE);
            MPI_Isend(&dummy, 0, MPI_BYTE, x->src, tag + 1, c->comm, &rq[idx + 1]);
            if (++ro->i == x->nmsg) {
                ro->i = 0;
                ro->j++;
            }
            if (ro->j < x->trials)
                MPI_Irecv(ro->buf, (int)x->msg[ro->i], MPI_BYTE, x->src, tag, c->comm, &rq[idx]);
        }
    }
    if (sender && me != 0)
        MPI_Send(scratch, (int)nres, MPI_DOUBLE, 0, tag + 3, c->comm);
    if (me != 0)
        return;
    for (size_t d = 0; d < ndone; d++)
        MPI_Wait(&rq[2 * nr + d], MPI_STATUS_IGNORE);
    size_t off = 0;
    for (size_t k = 0; k < n; k++) /* rank 0's own minima, then each sender's in order */
        if (xf[k].src == 0) {
            memcpy(res + xf[k].slot, scratch + off, (size_t)xf[k].nmsg * sizeof(double));
            off += (size_t)xf[k].nmsg;
        }
    for (size_t k = 0; k < n; k++) {
        int s = xf[k].src, first = s != 0;
        for (size_t q = 0; q < k && first; q++)
            first = xf[q].src != s;
        for (size_t q = k; first && q < n; q++)
            if (xf[q].src == s) {
                memcpy(res + xf[q].slot, scratch + off, (size_t)xf[q].nmsg * sizeof(double));
                off += (size_t)xf[q].nmsg;
            }
    }
}

/* ---- sites ---- */

/* Round with landmark lm: row[0..P) one-way latency to lm (median of reps), row[P..2P) the
 * spread, row[2P..3P) and row[3P..4P) its quartiles; every rank ends with lm's row. */
static void landmark_round(MPI_Comm comm, int me, int P, int lm, int reps, double *row,
                           double *samples, char *echo, MPI_Request *rq, int *who)
{
    static char ping = 1;
    if (me != lm) {
        for (int k = -1; k < reps; k++) {
            MPI_Recv(echo, 1, MPI_BYTE, lm, TAG_PING, comm, MPI_STATUS_IGNORE);
            MPI_Send(echo, 1, MPI_BYTE, lm, TAG_PING, comm);
        }
        MPI_Recv(row, 4 * P, MPI_DOUBLE, lm, TAG_ROW, comm, MPI_STATUS_IGNORE);
        return;
    }
    int n = P - 1;
    for (int k = -1; k < reps; k++) {
        int m = 0;
        double t0 = MPI_Wtime();
        for (int y = 0; y < P; y++)
            if (y != lm) {
                MPI_Irecv(&echo[y], 1, MPI_BYTE, y, TAG_PING, comm, &rq[m]);
                who[m++] = y;
            }
        for (int y = 0, q = 0; y < P; y++)
            if (y != lm)
                MPI_Isend(&ping, 1, MPI_BYTE, y, TAG_PING, comm, &rq[n + q++]);
        for (int d = 0; d < n; d++) {
            int idx;
            MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
            if (k >= 0)
                samples[(size_t)who[idx] * (size_t)reps + (size_t)k] = (MPI_Wtime() - t0) / 2;
        }
        for (int d = 0; d < n; d++)
            MPI_Wait(&rq[n + d], MPI_STATUS_IGNORE);
    }
    for (int y = 0; y < P; y++) {
        double *v = samples + (size_t)y * (size_t)reps;
        if (y == lm) {
            row[y] = row[P + y] = row[2 * P + y] = row[3 * P + y] = 0;
            continue;
        }
        row[P + y] = hc__probe_spread(v, reps, &row[2 * P + y], &row[3 * P + y]);
        row[y] = median_of(v, reps);
    }
    for (int y = 0, q = 0; y < P; y++)
        if (y != lm)
            MPI_Isend(row, 4 * P, MPI_DOUBLE, y, TAG_ROW, comm, &rq[q++]);
    for (int d = 0; d < n; d++)
        MPI_Wait(&rq[d], MPI_STATUS_IGNORE);
}

/* Site c of landmark lm: its host, and the hosts near it (see the file comment). */
static void assign_site(int P, int c, int lm, const double *row, const int *hid, int32_t *labels,
                        double rho, double *dh)
{
    for (int x = 0; x < P; x++)
        if (labels[x] < 0 && hid[x] == hid[lm])
            labels[x] = c;
    double d1 = INFINITY;
    for (int x = 0; x < P; x++)
        dh[x] = INFINITY;
    for (int x = 0; x < P; x++)
        if (labels[x] < 0) {
            dh[hid[x]] = row[x] < dh[hid[x]] ? row[x] : dh[hid[x]];
            d1 = row[x] < d1 ? row[x] : d1;
        }
    if (!(d1 <= LAN_MAX))
        return;
    for (int x = 0; x < P; x++)
        if (labels[x] < 0 && dh[hid[x]] <= (1 + rho) * d1)
            labels[x] = c;
}

/* ---- the probe ---- */

typedef struct lp_plan {
    int *order;     /* P: ranks by site, in member order */
    int *first;     /* C + 1: site s's members are order[first[s] .. first[s+1]) */
    uint64_t *imsg; /* intra messages: 1, sizes..., BW_BYTES */
    uint64_t *xmsg; /* inter messages: 1, sizes... */
    int ni, nx;
} lp_plan_t;

static int member(const lp_plan_t *pl, int s, size_t i)
{
    int n = pl->first[s + 1] - pl->first[s];
    return pl->order[pl->first[s] + (int)(i % (size_t)n)];
}

static int fail_nomem(const char *what)
{
    return hc_error_set(HC_ERR_NOMEM, "link probe: out of memory (%s)", what);
}

/* The rate of a pair from its timed messages msg[0..n) (T: times to the ack): the difference
 * of the two largest sizes over the difference of their times, so that a latency that depends
 * on the size (SimGrid's factors, a protocol switch, TCP's slow start) cancels as long as both
 * sizes are on the same side of the step; the largest size over its time beyond the 1-byte
 * message's when that difference is not positive. */
static double rate_of(const uint64_t *msg, const double *T, int n)
{
    double dm = n >= 3 ? (double)(msg[n - 1] - msg[n - 2]) : 0,
           dt = n >= 3 ? T[n - 1] - T[n - 2] : 0;
    if (dm > 0 && dt > 0)
        return dm / dt;
    double d = T[n - 1] - T[0];
    return (double)msg[n - 1] / (d > 0 ? d : T[n - 1] > 0 ? T[n - 1] : 1e-9);
}

/* 3. The uplink tests (C >= 2): flow sizes, the tests, a warm-up, the runs, the verdicts. res:
 * the tests' slots (one per flow, and one more). */
static int uplink_tests(lp_ctx_t *c, hc__links_result_t *r, const lp_plan_t *pl, int k,
                        double flow_time, lp_xfer_t *xf, size_t nxf, double *res, double *scratch,
                        lp_role_t *roles, size_t role_cap, MPI_Request *rq, char **rbufs,
                        char **sbuf, size_t sbytes)
{
    static const uint64_t one = 1;
    uint32_t C = r->C;
    int me = c->me;
    /* Each flow of site s's tests: flow_time x the best single-flow rate out of s, spread over
     * the flows of its fan-out, so that a fan-out lasts about flow_time at that rate. */
    uint64_t fb_max = 1;
    for (uint32_t s = 0; s < C; s++) {
        double rmax = 0;
        for (uint32_t t = 0; t < C; t++)
            if (t != s && r->rate[(size_t)s * C + t] > rmax)
                rmax = r->rate[(size_t)s * C + t];
        double b = flow_time * rmax / ((double)k * (C - 1));
        b = !(b >= MIN_FLOW) ? MIN_FLOW : b > MAX_FLOW ? MAX_FLOW : b;
        r->sites[s].flow_bytes = (uint64_t)b;
        fb_max = r->sites[s].flow_bytes > fb_max ? r->sites[s].flow_bytes : fb_max;
    }
    /* Tests: per site its fan-out and its duplex test; with two sites, both fan-outs and one
     * duplex test. Site s's flows: its ranks in turn (the landmark first) to ranks 0..k-1 of
     * every other site t; in the duplex test also ranks k..2k-1 of each t to s's next ranks. */
    int tsite[2 * MAX_SITES], tdup[2 * MAX_SITES];
    size_t ts[2 * MAX_SITES + 1], nt = 0, nf = 0;
    for (uint32_t s = 0; s < C; s++) {
        if (C == 2 && s == 1)
            break;
        tsite[nt] = (int)s;
        tdup[nt++] = 0;
        if (C == 2) {
            tsite[nt] = 1;
            tdup[nt++] = 0;
        }
        tsite[nt] = (int)s;
        tdup[nt++] = 1;
    }
    unsigned char *out = malloc(nxf);
    int ok = out != NULL;
    for (size_t q = 0; ok && q < nt; q++) {
        int s = tsite[q];
        const uint64_t *fb = &r->sites[s].flow_bytes;
        size_t is = 0;
        ts[q] = nf;
        for (int dir = 0; dir < 1 + tdup[q]; dir++)
            for (uint32_t t = 0; t < C; t++) {
                if ((int)t == s)
                    continue;
                for (int j = 0; j < k; j++) {
                    int a = member(pl, s, is++), b = member(pl, (int)t, (size_t)(dir * k + j));
                    xf[nf] = (lp_xfer_t){dir ? b : a, dir ? a : b, 1, fb, 1, nf};
                    out[nf++] = dir == 0;
                }
            }
    }
    ts[nt] = nf;
    /* The warm-up: one byte between every pair of the tests at once (MPI libraries open their
     * connections on first use; a flow must not time that). */
    lp_xfer_t *w = xf + nf;
    size_t nw = 0;
    for (size_t f = 0; f < nf; f++) {
        int seen = 0;
        for (size_t q = 0; q < nw && !seen; q++)
            seen = w[q].src == xf[f].src && w[q].dst == xf[f].dst;
        if (!seen)
            w[nw++] = (lp_xfer_t){xf[f].src, xf[f].dst, 1, &one, 1, nf};
    }
    /* Receive buffers: as many as this rank's receiving roles in one step. */
    size_t need = 0, mine = 0;
    for (size_t f = 0; f < nw; f++)
        mine += w[f].dst == me;
    need = mine;
    for (size_t q = 0; q < nt; q++) {
        mine = 0;
        for (size_t f = ts[q]; f < ts[q + 1]; f++)
            mine += xf[f].dst == me;
        need = mine > need ? mine : need;
    }
    size_t blen = (size_t)fb_max > sbytes ? (size_t)fb_max : sbytes;
    ok = ok && need <= role_cap;
    for (size_t q = 0; ok && q < need; q++) {
        char *b = realloc(rbufs[q], blen);
        ok = b != NULL;
        if (ok)
            rbufs[q] = b;
    }
    if (ok && blen > sbytes) {
        char *b = realloc(*sbuf, blen);
        ok = b != NULL;
        if (ok) {
            *sbuf = c->sbuf = b;
            memset(b, 0x5a, blen);
        }
    }
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->comm);
    if (!all_ok) {
        free(out);
        return fail_nomem("the uplink tests");
    }
    run_step(c, w, nw, xf, ts[1], res, scratch, roles, rq, rbufs);
    for (size_t q = 0; q < nt; q++)
        run_step(c, xf + ts[q], ts[q + 1] - ts[q], q + 1 < nt ? xf + ts[q + 1] : NULL,
                 q + 1 < nt ? ts[q + 2] - ts[q + 1] : 0, res, scratch, roles, rq, rbufs);
    MPI_Bcast(res, (int)nf, MPI_DOUBLE, 0, c->comm);
    r->tests = nt;
    r->transfers = nf;
    /* Per test: the aggregate rate of its outgoing and of its incoming flows. */
    double agg[2 * 2 * MAX_SITES][2];
    for (size_t q = 0; q < nt; q++) {
        agg[q][0] = agg[q][1] = 0;
        for (size_t f = ts[q]; f < ts[q + 1]; f++) {
            int x = xf[f].src, y = xf[f].dst;
            double T = res[f], d = T - r->fixed[(size_t)r->labels[x] * C + (size_t)r->labels[y]];
            agg[q][out[f] ? 0 : 1] += (double)xf[f].msg[0] / (d > 0 ? d : T);
        }
    }
    free(out);
    for (size_t q = 0; q < nt; q++) {
        int s = tsite[q];
        if (!tdup[q]) {
            r->sites[s].out_Bps = agg[q][0];
            continue;
        }
        r->sites[s].duplex_out_Bps = agg[q][0];
        r->sites[s].duplex_in_Bps = agg[q][1];
        if (C == 2) { /* the other site sees the same test mirrored */
            r->sites[1 - s].duplex_out_Bps = agg[q][1];
            r->sites[1 - s].duplex_in_Bps = agg[q][0];
        }
    }
    for (uint32_t s = 0; s < C; s++) {
        hc__links_site_t *st = &r->sites[s];
        double both = st->duplex_out_Bps + st->duplex_in_Bps;
        st->shared = st->duplex_out_Bps < SHARED_SLOWDOWN * st->out_Bps;
        st->uplink_bw = st->out_Bps;
        if (st->shared && both > st->uplink_bw)
            st->uplink_bw = both;
        if (!st->shared && st->duplex_in_Bps > st->uplink_bw)
            st->uplink_bw = st->duplex_in_Bps;
    }
    for (uint32_t s = 0; s < C; s++) {
        double could = 0; /* what the other sites' uplinks and single flows allow */
        for (uint32_t t = 0; t < C; t++) {
            double a = k * r->rate[(size_t)s * C + t], b = r->sites[t].uplink_bw;
            could += t == s ? 0 : a < b ? a : b;
        }
        r->sites[s].saturated = r->sites[s].out_Bps < SATURATED * could;
    }
    return HC_OK;
}

int hc__links_probe_run(MPI_Comm comm, const hc__links_opts_t *o, hc__links_result_t *r)
{
    int me, P;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &P);
    memset(r, 0, sizeof *r);
    const uint64_t *sizes = o->sizes ? o->sizes : default_sizes;
    size_t S = o->sizes ? o->n_sizes : sizeof default_sizes / sizeof default_sizes[0];
    int reps = o->reps > 0 ? o->reps : 1, trials = o->gap_trials > 0 ? o->gap_trials : 1;
    int k = o->flows > 0 ? o->flows : 1;
    int cmax = P < MAX_SITES ? P : MAX_SITES;
    r->P = (uint32_t)P;
    r->S = S;
    r->flows_per_pair = (uint32_t)k;
    r->noise.tol = o->rho;
    r->noise.reps = reps;
    uint64_t smax = S ? sizes[S - 1] : 1;
    size_t sbytes = (size_t)(smax > BW_BYTES ? smax : BW_BYTES);
    /* Everything the sites phase needs, allocated (and agreed on) before any message. */
    r->sizes = malloc((S ? S : 1) * sizeof *r->sizes);
    r->labels = malloc((size_t)P * sizeof *r->labels);
    r->names = calloc((size_t)P, HC__PROBE_NAME);
    r->nic_lat = calloc((size_t)P, sizeof *r->nic_lat);
    char *hosts = calloc((size_t)P, HC__PROBE_NAME);
    int *hid = malloc((size_t)P * sizeof *hid);
    double *rows = calloc((size_t)cmax * 4 * (size_t)P, sizeof *rows);
    double *samples = malloc((size_t)P * (size_t)reps * sizeof *samples);
    double *dh = malloc((size_t)P * sizeof *dh);
    char *echo = malloc((size_t)P);
    MPI_Request *rq = malloc(2 * (size_t)P * sizeof *rq);
    int *who = malloc((size_t)P * sizeof *who);
    char *sbuf = malloc(sbytes);
    lp_plan_t pl = {NULL, NULL, NULL, NULL, 0, 0};
    pl.order = malloc((size_t)P * sizeof *pl.order);
    pl.imsg = malloc((S + 2) * sizeof *pl.imsg);
    pl.xmsg = malloc((S + 1) * sizeof *pl.xmsg);
    double *res = NULL, *scratch = NULL;
    size_t role_cap = 0;
    lp_xfer_t *xf = NULL;
    lp_role_t *roles = NULL;
    MPI_Request *pre = NULL;
    char **rbufs = NULL;
    int ok = r->sizes && r->labels && r->names && r->nic_lat && hosts && hid && rows && samples &&
             dh && echo && rq && who && sbuf && pl.order && pl.imsg && pl.xmsg;
    int all_ok = 0, rc = HC_OK;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        rc = fail_nomem("the sites phase");
        goto done;
    }
    memcpy(r->sizes, sizes, S * sizeof *sizes);
    memset(sbuf, 0x5a, sbytes);
    {
        char host[MPI_MAX_PROCESSOR_NAME + 1] = "", mine[HC__PROBE_NAME];
        int len = 0;
        MPI_Get_processor_name(host, &len);
        snprintf(mine, sizeof mine, "%.*s", HC__PROBE_NAME - 1, host);
        MPI_Allgather(mine, HC__PROBE_NAME, MPI_CHAR, hosts, HC__PROBE_NAME, MPI_CHAR, comm);
    }
    for (int x = 0; x < P; x++) {
        const char *h = hosts + (size_t)x * HC__PROBE_NAME;
        snprintf(r->names + (size_t)x * HC__PROBE_NAME, HC__PROBE_NAME, "%.40s-r%d", h, x);
        hid[x] = x;
        for (int y = 0; y < x; y++)
            if (strcmp(h, hosts + (size_t)y * HC__PROBE_NAME) == 0) {
                hid[x] = y;
                break;
            }
        r->labels[x] = -1;
    }
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();

    /* 1. Sites. */
    uint32_t C = 0;
    for (;;) {
        int lm = -1;
        for (int x = 0; x < P && lm < 0; x++)
            if (r->labels[x] < 0)
                lm = x;
        if (lm < 0)
            break;
        if ((int)C == cmax) {
            rc = hc_error_set(HC_ERR_LIMIT,
                              "link probe: more than %d sites (each host more than %g ms from "
                              "every other): use the pLogP probe (--mode full or clustered)",
                              cmax, LAN_MAX * 1e3);
            goto done;
        }
        double *row = rows + (size_t)C * 4 * (size_t)P;
        landmark_round(comm, me, P, lm, reps, row, samples, echo, rq, who);
        assign_site(P, (int)C, lm, row, hid, r->labels, o->rho, dh);
        for (int y = 0; y < P; y++) {
            if (y == lm)
                continue;
            r->noise.pairs++;
            if (row[P + y] > o->rho) {
                r->noise.noisy++;
                if (row[P + y] > r->noise.worst) {
                    r->noise.worst = row[P + y];
                    r->noise.a = (uint32_t)lm;
                    r->noise.b = (uint32_t)y;
                    r->noise.q1 = row[2 * P + y];
                    r->noise.q3 = row[3 * P + y];
                }
            }
        }
        C++;
    }
    r->C = C;
    r->landmark_rounds = C;
    r->pings = (uint64_t)C * (uint64_t)(reps + 1) * (uint64_t)(P - 1);
    double t1 = MPI_Wtime();
    r->t_sites = t1 - t0;

    /* Everything else, with one agreement: the site model, the gap tables, the steps. */
    pl.ni = (int)S + 1 + (smax < BW_BYTES); /* intra: 1 byte, the sizes, 1 MiB */
    pl.nx = (int)S + 1;                     /* inter: 1 byte, the sizes */
    size_t npair = (size_t)C * (C - 1) / 2;
    size_t ntests = C >= 3 ? 2 * (size_t)C : C == 2 ? 3 : 0;
    size_t fmax = 2 * (size_t)k * (C > 1 ? C - 1 : 0); /* flows of one duplex test */
    size_t nflows = ntests * fmax;                     /* an upper bound over the tests */
    size_t nxf = 2 * nflows + C + npair + 1;           /* the steps (the tests and a warm-up) */
    size_t gap_slots = (size_t)C * (size_t)pl.ni + npair * (size_t)pl.nx;
    size_t up_slots = nflows + 1; /* the last one takes the warm-up's times */
    role_cap = 2 * (nflows + C + 1);
    res = calloc(gap_slots + up_slots, sizeof *res);
    scratch = malloc((gap_slots + up_slots) * sizeof *scratch);
    xf = calloc(nxf, sizeof *xf);
    roles = calloc(role_cap, sizeof *roles);
    MPI_Request *rq2 = realloc(rq, 4 * (role_cap > (size_t)P ? role_cap : (size_t)P) * sizeof *rq);
    if (rq2)
        rq = rq2;
    pre = malloc(role_cap * sizeof *pre);
    rbufs = calloc(role_cap, sizeof *rbufs);
    ok =
        res && scratch && xf && roles && rq2 && pre && rbufs && (rbufs[0] = malloc(sbytes)) != NULL;
    /* Members in order: the landmark, then one rank per host in turn. */
    size_t CC = (size_t)C * C;
    r->sites = calloc(C, sizeof *r->sites);
    r->site_lat = calloc(CC, sizeof *r->site_lat);
    r->path_lat = calloc(CC, sizeof *r->path_lat);
    r->rate = calloc(CC, sizeof *r->rate);
    r->fixed = calloc(CC, sizeof *r->fixed);
    r->gap = calloc(CC * (S ? S : 1), sizeof *r->gap);
    pl.first = calloc((size_t)C + 1, sizeof *pl.first);
    int *pos = calloc((size_t)P, sizeof *pos), *fill = malloc((C + 1) * sizeof *fill);
    double *u = calloc(C + 1, sizeof *u);
    ok = ok && r->sites && r->site_lat && r->path_lat && r->rate && r->fixed && r->gap &&
         pl.first && pos && fill && u;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        free(pos);
        free(fill);
        free(u);
        rc = fail_nomem("the site model and the steps");
        goto done;
    }
    for (int x = 0; x < P; x++) { /* pos: how many ranks of x's host come before it */
        for (int y = 0; y < x; y++)
            pos[x] += hid[y] == hid[x];
        pl.first[r->labels[x] + 1]++;
    }
    for (uint32_t s = 0; s < C; s++)
        pl.first[s + 1] += pl.first[s];
    for (uint32_t s = 0; s < C; s++)
        fill[s] = pl.first[s];
    for (int x = 0; x < P; x++)
        pl.order[fill[r->labels[x]]++] = x;
    free(fill);
    for (uint32_t s = 0; s < C; s++) { /* insertion sort by (landmark first, pos, rank) */
        int *m = pl.order + pl.first[s], n = pl.first[s + 1] - pl.first[s];
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0; b--) {
                int x = m[b - 1], y = m[b];
                int kx = x == m[0] && b - 1 == 0 ? -1 : pos[x], ky = pos[y];
                if (kx < ky || (kx == ky && x < y))
                    break;
                m[b - 1] = y;
                m[b] = x;
            }
        hc__links_site_t *st = &r->sites[s];
        st->landmark = (uint32_t)m[0];
        st->n = (uint32_t)n;
        st->second = (uint32_t)(n > 1 ? m[1] : m[0]);
    }
    free(pos);
    /* NIC latencies: half the latency to the landmark; the landmark's: half the median of its
     * site's (other hosts only, when there are any). */
    for (uint32_t s = 0; s < C; s++) {
        const double *row = rows + (size_t)s * 4 * (size_t)P;
        int lm = (int)r->sites[s].landmark, nv = 0, other = 0;
        for (int b = pl.first[s]; b < pl.first[s + 1]; b++)
            other |= hid[pl.order[b]] != hid[lm];
        for (int b = pl.first[s]; b < pl.first[s + 1]; b++) {
            int x = pl.order[b];
            if (x == lm)
                continue;
            r->nic_lat[x] = row[x] / 2;
            if (!other || hid[x] != hid[lm])
                dh[nv++] = row[x];
        }
        r->nic_lat[lm] = nv ? median_of(dh, nv) / 2 : 0;
    }
    /* Latency between sites beyond the NICs, symmetrised, and the star fit. */
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = 0; b < C; b++) {
            if (a == b)
                continue;
            const double *row = rows + (size_t)a * 4 * (size_t)P;
            int nv = 0;
            for (int q = pl.first[b]; q < pl.first[b + 1]; q++) {
                int y = pl.order[q];
                dh[nv++] = row[y] - r->nic_lat[y] - r->nic_lat[r->sites[a].landmark];
            }
            r->site_lat[a * C + b] = median_of(dh, nv);
        }
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = a + 1; b < C; b++) {
            double v = 0.5 * (r->site_lat[a * C + b] + r->site_lat[b * C + a]);
            r->site_lat[a * C + b] = r->site_lat[b * C + a] = v > 0 ? v : 0;
        }
    if (C == 2) {
        u[0] = u[1] = r->site_lat[1] / 2;
    } else if (C >= 3) {
        double T = 0;
        for (uint32_t a = 0; a < C; a++)
            for (uint32_t b = a + 1; b < C; b++)
                T += r->site_lat[a * C + b];
        for (uint32_t a = 0; a < C; a++) {
            double R = 0;
            for (uint32_t b = 0; b < C; b++)
                R += a != b ? r->site_lat[a * C + b] : 0;
            u[a] = (R - T / (C - 1)) / (C - 2);
            u[a] = u[a] > 0 ? u[a] : 0;
        }
        for (int pass = 0; pass < 100; pass++) { /* no pair may exceed its measured latency */
            int changed = 0;
            for (uint32_t a = 0; a < C; a++)
                for (uint32_t b = a + 1; b < C; b++) {
                    double K = r->site_lat[a * C + b];
                    if (u[a] + u[b] > K * (1 + 1e-12) && u[a] + u[b] > 0) {
                        double f = K / (u[a] + u[b]);
                        u[a] *= f;
                        u[b] *= f;
                        changed = 1;
                    }
                }
            if (!changed)
                break;
        }
    }
    for (uint32_t a = 0; a < C; a++) {
        r->sites[a].uplink_lat = u[a];
        for (uint32_t b = 0; b < C; b++) {
            double K = r->site_lat[a * C + b], left = K - u[a] - u[b];
            r->path_lat[a * C + b] = a != b && left > 0.02 * K && left > 1e-6 ? left : 0;
        }
    }
    free(u);

    /* 2. Gap tables: every site at once inside, then one site pair at a time. */
    pl.imsg[0] = pl.xmsg[0] = 1;
    memcpy(pl.imsg + 1, sizes, S * sizeof *sizes);
    memcpy(pl.xmsg + 1, sizes, S * sizeof *sizes);
    if (smax < BW_BYTES)
        pl.imsg[S + 1] = BW_BYTES;
    lp_ctx_t ctx = {comm, me, P, rows, sbuf, 0, pre, 0}; /* row 0: latencies from rank 0 */
    {
        size_t n = 0; /* the sites, all at once, then each site pair */
        for (uint32_t s = 0; s < C; s++)
            if (r->sites[s].n > 1)
                xf[n++] = (lp_xfer_t){
                    (int)r->sites[s].landmark, (int)r->sites[s].second, pl.ni, pl.imsg, trials,
                    (size_t)s * (size_t)pl.ni};
        size_t slot = (size_t)C * (size_t)pl.ni, p0 = n;
        for (uint32_t a = 0; a < C; a++)
            for (uint32_t b = a + 1; b < C; b++, slot += (size_t)pl.nx)
                xf[p0 + (slot - (size_t)C * (size_t)pl.ni) / (size_t)pl.nx] =
                    (lp_xfer_t){(int)r->sites[a].landmark,
                                (int)r->sites[b].landmark,
                                pl.nx,
                                pl.xmsg,
                                trials,
                                slot};
        if (n)
            run_step(&ctx, xf, n, npair ? xf + p0 : NULL, npair ? 1 : 0, res, scratch, roles, rq,
                     rbufs);
        for (size_t q = 0; q < npair; q++)
            run_step(&ctx, xf + p0 + q, 1, q + 1 < npair ? xf + p0 + q + 1 : NULL, 1, res, scratch,
                     roles, rq, rbufs);
        r->tables = n + npair;
        MPI_Bcast(res, (int)gap_slots, MPI_DOUBLE, 0, comm);
    }
    for (uint32_t s = 0; s < C; s++) {
        if (r->sites[s].n < 2)
            continue;
        const double *T = res + (size_t)s * (size_t)pl.ni;
        for (size_t q = 0; q < S; q++)
            r->gap[((size_t)s * C + s) * S + q] = T[q + 1] > T[0] ? T[q + 1] - T[0] : 0;
        r->sites[s].nic_bw = rate_of(pl.imsg, T, pl.ni);
        r->rate[(size_t)s * C + s] = r->sites[s].nic_bw;
    }
    {
        size_t slot = (size_t)C * (size_t)pl.ni;
        for (uint32_t a = 0; a < C; a++)
            for (uint32_t b = a + 1; b < C; b++, slot += (size_t)pl.nx) {
                const double *T = res + slot;
                for (size_t q = 0; q < S; q++)
                    r->gap[((size_t)a * C + b) * S + q] = r->gap[((size_t)b * C + a) * S + q] =
                        T[q + 1] > T[0] ? T[q + 1] - T[0] : 0;
                double v = rate_of(pl.xmsg, T, pl.nx), m = (double)pl.xmsg[pl.nx - 1];
                double fixed = T[pl.nx - 1] - m / v;
                r->rate[(size_t)a * C + b] = r->rate[(size_t)b * C + a] = v;
                r->fixed[(size_t)a * C + b] = r->fixed[(size_t)b * C + a] =
                    fixed > 0 ? fixed : T[0];
            }
    }
    double t2 = MPI_Wtime();
    r->t_gaps = t2 - t1;

    /* 3. Uplinks. */
    if (C >= 2) {
        rc = uplink_tests(&ctx, r, &pl, k, o->flow_time, xf, nxf, res + gap_slots, scratch, roles,
                          role_cap, rq, rbufs, &sbuf, sbytes);
        if (rc != HC_OK)
            goto done;
    }
    double t3 = MPI_Wtime();
    r->t_uplinks = t3 - t2;
    r->t_total = t3 - t0;
done:
    free(hosts);
    free(hid);
    free(rows);
    free(samples);
    free(dh);
    free(echo);
    free(rq);
    free(who);
    free(sbuf);
    free(pl.order);
    free(pl.first);
    free(pl.imsg);
    free(pl.xmsg);
    free(res);
    free(scratch);
    free(xf);
    free(roles);
    free(pre);
    for (size_t q = 0; rbufs && q < role_cap; q++)
        free(rbufs[q]);
    free(rbufs);
    if (rc != HC_OK)
        hc__links_result_free(r);
    return rc;
}

/* ---- the platform and the summary ---- */

/* A link name from a node name: ':' separates a route's direction, so it becomes '_'. */
static void link_name(char *dst, size_t cap, const char *base, const char *suffix)
{
    snprintf(dst, cap, "%s%s", base, suffix);
    for (char *q = dst; *q; q++)
        if (*q == ':')
            *q = '_';
}

int hc__links_to_platform(const hc__links_result_t *r, hc_platform_t **out)
{
    uint32_t P = r->P, C = r->C;
    size_t S = r->S;
    hc_platform_t *p = NULL;
    char name[HC__PROBE_NAME + 32];
    int rc = hc_platform_create(P, 1e-6, 1e9, &p);
    double fallback = 0, sum = 0; /* NIC rate of one-rank sites: the fastest measured */
    for (uint32_t s = 0; s < C; s++) {
        fallback = r->sites[s].nic_bw > fallback ? r->sites[s].nic_bw : fallback;
        sum += r->sites[s].uplink_bw;
    }
    if (!(fallback > 0))
        fallback = sum > 0 ? sum : 1e9;
    if (rc == HC_OK)
        rc = hc_platform_set_name(p, "links-probe");
    for (uint32_t i = 0; i < P && rc == HC_OK; i++) {
        const char *node = r->names + (size_t)i * HC__PROBE_NAME;
        uint32_t s = (uint32_t)r->labels[i];
        double bw = r->sites[s].nic_bw > 0 ? r->sites[s].nic_bw : fallback;
        snprintf(name, sizeof name, "S%u", s);
        rc = hc_platform_set_node_name(p, i, node);
        if (rc == HC_OK)
            rc = hc_platform_set_cluster(p, i, name);
        link_name(name, sizeof name, node, "-nic");
        if (rc == HC_OK)
            rc = hc_platform_add_link(p, name, bw, r->nic_lat[i], HC_LINK_SPLITDUPLEX, NULL);
    }
    uint32_t *path = calloc((size_t)C * C, sizeof *path), backbone = 0;
    if (!path && rc == HC_OK)
        rc = hc_error_set(HC_ERR_NOMEM, "link probe: out of memory");
    if (C >= 2) {
        for (uint32_t s = 0; s < C && rc == HC_OK; s++) {
            snprintf(name, sizeof name, "S%u-uplink", s);
            rc = hc_platform_add_link(p, name, r->sites[s].uplink_bw, r->sites[s].uplink_lat,
                                      r->sites[s].shared ? HC_LINK_SHARED : HC_LINK_SPLITDUPLEX,
                                      NULL);
        }
        if (rc == HC_OK) /* not measured: every flow across it crosses two uplinks */
            rc = hc_platform_add_link(p, "backbone", sum, 0, HC_LINK_FATPIPE, &backbone);
        for (uint32_t a = 0; a < C && rc == HC_OK; a++)
            for (uint32_t b = a + 1; b < C && rc == HC_OK; b++) {
                double left = r->path_lat[(size_t)a * C + b];
                if (!(left > 0))
                    continue;
                snprintf(name, sizeof name, "S%u-S%u-path", a, b);
                rc = hc_platform_add_link(p, name, sum, left, HC_LINK_FATPIPE,
                                          &path[(size_t)a * C + b]);
                path[(size_t)b * C + a] = path[(size_t)a * C + b];
            }
    }
    double *g = malloc((S ? S : 1) * sizeof *g);
    if (!g && rc == HC_OK)
        rc = hc_error_set(HC_ERR_NOMEM, "link probe: out of memory");
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        for (uint32_t j = 0; j < P && rc == HC_OK; j++) {
            if (i == j)
                continue;
            uint32_t a = (uint32_t)r->labels[i], b = (uint32_t)r->labels[j];
            hc_hop_t hop[6];
            size_t n = 0;
            hop[n++] = (hc_hop_t){i, 0};
            if (a != b) {
                hop[n++] = (hc_hop_t){P + a, 0};
                if (path[(size_t)a * C + b])
                    hop[n++] = (hc_hop_t){path[(size_t)a * C + b], 0};
                hop[n++] = (hc_hop_t){backbone, 0};
                hop[n++] = (hc_hop_t){P + b, 1};
            }
            hop[n++] = (hc_hop_t){j, 1};
            rc = hc_platform_set_route(p, i, j, n, hop);
            if (rc != HC_OK || !S)
                continue;
            memcpy(g, r->gap + ((size_t)a * C + b) * S, S * sizeof *g);
            rc = hc_platform_set_gap_table(p, i, j, S, r->sizes, g);
        }
    free(g);
    free(path);
    if (rc != HC_OK) {
        hc_platform_destroy(p);
        return rc;
    }
    *out = p;
    return HC_OK;
}

static void fmt_rate(double Bps, char *buf, size_t n)
{
    if (Bps >= 1e9)
        snprintf(buf, n, "%.3g GB/s", Bps / 1e9);
    else
        snprintf(buf, n, "%.4g MB/s", Bps / 1e6);
}

void hc__links_summary(const hc__links_result_t *r, char *buf, size_t n)
{
    size_t len = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (len < n)                                                                               \
            len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__);                              \
    } while (0)
    if (n)
        buf[0] = '\0';
    ADD("probe: P=%u mode=links sites=%u | sites: %u landmark rounds, %llu pings, %.3f s | gap "
        "tables: %llu (x %zu sizes), %.3f s | uplinks: %llu tests, %llu timed flows (%u per site "
        "pair), %.3f s | total %.3f s",
        r->P, r->C, r->landmark_rounds, (unsigned long long)r->pings, r->t_sites,
        (unsigned long long)r->tables, r->S, r->t_gaps, (unsigned long long)r->tests,
        (unsigned long long)r->transfers, r->flows_per_pair, r->t_uplinks, r->t_total);
    for (uint32_t s = 0; s < r->C; s++) {
        const hc__links_site_t *st = &r->sites[s];
        char nic[32], up[32], o1[32], o2[32], i2[32];
        fmt_rate(st->nic_bw, nic, sizeof nic);
        fmt_rate(st->uplink_bw, up, sizeof up);
        fmt_rate(st->out_Bps, o1, sizeof o1);
        fmt_rate(st->duplex_out_Bps, o2, sizeof o2);
        fmt_rate(st->duplex_in_Bps, i2, sizeof i2);
        ADD("\nprobe: site S%u: %u ranks (landmark %u), NIC %s", s, st->n, st->landmark,
            st->n > 1 ? nic : "not measured (one rank)");
        if (r->C < 2)
            continue;
        ADD("; uplink %s%s %s, %.3g ms (fan-out %s; with as much coming in: out %s, in %s)",
            st->saturated ? "" : ">= ", up, st->shared ? "shared" : "split-duplex",
            st->uplink_lat * 1e3, o1, o2, i2);
        if (!st->saturated)
            ADD(" [not saturated: the other sites limited the fan-out, so the capacity is a lower "
                "bound]");
    }
#undef ADD
}
