/* Network probe over MPI: Hockney latency/bandwidth and pLogP gaps g(m) per pair, measured in
 * rounds that are matchings (each rank takes part in at most one measurement at a time), in
 * full mode (every ordered pair) or cluster-representative mode (004 §4.2: all-pairs
 * small-message latency, Lowekamp clustering, then gaps only between one representative per
 * cluster pair and inside each cluster: C(C-1) + C measurements instead of P(P-1)).
 *
 * Measurements (as logp_mpi / netgauge do):
 *  - latency: 1-byte ping-pong, `reps` round trips after 2 warm-ups, L = median RTT / 2;
 *  - gap g(m): the sender posts n = `gap_msgs` back-to-back sends of m bytes, the receiver
 *    answers the last one with a 0-byte ack; T(n) = time until the ack (minimum over
 *    `gap_trials` repetitions); g(m) = (T(n) - T(1)) / (n - 1), so that the ack's round trip
 *    cancels (T(n) / n when noise makes the difference non-positive);
 *  - bandwidth B = m_max / g(m_max) (the streaming rate at the largest size).
 * Rounds: full mode orders the pairs by the circle method (round-robin tournament: P-1 rounds
 * of P/2 pairs for even P); clustered mode packs its pairs greedily into matchings. A barrier
 * separates rounds.
 * Noise: the ping-pong samples of each pair are checked with hc__probe_spread; rank 0 learns how
 * many pairs' samples disagree by more than rho (the clustering's own tolerance) and which pair
 * is worst, and the tool warns about it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "netprobe.h"

#define TAG_PP 7101
#define TAG_GAP 7102
#define TAG_ACK 7103

typedef struct pair {
    uint32_t a, b; /* a < b */
    int dirs;      /* gap phase: bit 0 = a->b, bit 1 = b->a */
} pair_t;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Pack pairs (in the given order) greedily into matchings. Reorders `pairs` by round and fills
 * start[r] (start[rounds] = n). Returns the number of rounds, or -1 on allocation failure. */
static int make_rounds(pair_t *pairs, size_t n, uint32_t P, int serial, size_t **start_out)
{
    pair_t *out = malloc((n ? n : 1) * sizeof *out);
    unsigned char *used = calloc(n ? n : 1, 1), *busy = malloc(P);
    size_t *start = malloc((n + 2) * sizeof *start);
    if (!out || !used || !busy || !start) {
        free(out);
        free(used);
        free(busy);
        free(start);
        return -1;
    }
    size_t done = 0;
    int rounds = 0;
    while (done < n) {
        memset(busy, 0, P);
        start[rounds] = done;
        for (size_t k = 0; k < n; k++) {
            if (used[k] || busy[pairs[k].a] || busy[pairs[k].b])
                continue;
            used[k] = 1;
            busy[pairs[k].a] = busy[pairs[k].b] = 1;
            out[done++] = pairs[k];
            if (serial)
                break;
        }
        rounds++;
    }
    start[rounds] = n;
    memcpy(pairs, out, n * sizeof *out);
    free(out);
    free(used);
    free(busy);
    *start_out = start;
    return rounds;
}

/* All unordered pairs in round-robin-tournament (circle method) order. */
static size_t tournament_pairs(uint32_t P, pair_t *pairs)
{
    uint32_t n = P % 2 ? P + 1 : P; /* n - 1 is the fixed node (a dummy when P is odd) */
    size_t k = 0;
    if (P < 2)
        return 0;
    for (uint32_t r = 0; r + 1 < n; r++) {
        uint32_t x = r, y = n - 1;
        if (y < P)
            pairs[k++] = (pair_t){x < y ? x : y, x < y ? y : x, 3};
        for (uint32_t i = 1; i < n / 2; i++) {
            x = (r + i) % (n - 1);
            y = (r + n - 1 - i) % (n - 1);
            pairs[k++] = (pair_t){x < y ? x : y, x < y ? y : x, 3};
        }
    }
    return k;
}

static double pingpong(MPI_Comm comm, int initiator, int peer, char *buf, int reps, double *tmp)
{
    for (int k = -2; k < reps; k++) {
        if (initiator) {
            double t0 = MPI_Wtime();
            MPI_Send(buf, 1, MPI_BYTE, peer, TAG_PP, comm);
            MPI_Recv(buf, 1, MPI_BYTE, peer, TAG_PP, comm, MPI_STATUS_IGNORE);
            if (k >= 0)
                tmp[k] = MPI_Wtime() - t0;
        } else {
            MPI_Recv(buf, 1, MPI_BYTE, peer, TAG_PP, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, 1, MPI_BYTE, peer, TAG_PP, comm);
        }
    }
    return initiator ? median(tmp, reps) : 0;
}

/* Time of `count` back-to-back sends of m bytes followed by a 0-byte ack (minimum over the
 * trials). Sender side returns the time; receiver side returns 0. */
static double stream_time(MPI_Comm comm, int sender, int peer, char *buf, int m, int count,
                          int trials)
{
    double best = INFINITY;
    for (int t = 0; t < trials; t++) {
        if (sender) {
            double t0 = MPI_Wtime();
            for (int k = 0; k < count; k++)
                MPI_Send(buf, m, MPI_BYTE, peer, TAG_GAP, comm);
            MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_ACK, comm, MPI_STATUS_IGNORE);
            double T = MPI_Wtime() - t0;
            best = T < best ? T : best;
        } else {
            for (int k = 0; k < count; k++)
                MPI_Recv(buf, m, MPI_BYTE, peer, TAG_GAP, comm, MPI_STATUS_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_ACK, comm);
        }
    }
    return sender ? best : 0;
}

/* pLogP gap g(m) = (T(n) - T(1)) / (n - 1): the round trip of the ack cancels out. When noise
 * makes the difference non-positive, T(n) / n (an upper bound) is used instead. Sender side
 * returns g(m); receiver side returns 0. */
static double stream_gap(MPI_Comm comm, int sender, int peer, char *buf, int m,
                         const hc__probe_opts_t *o)
{
    double t1 = stream_time(comm, sender, peer, buf, m, 1, o->gap_trials);
    double tn = stream_time(comm, sender, peer, buf, m, o->gap_msgs, o->gap_trials);
    if (!sender)
        return 0;
    double g = (tn - t1) / (o->gap_msgs - 1);
    return g > 0 ? g : tn / o->gap_msgs;
}

void hc__probe_result_free(hc__probe_result_t *r)
{
    if (!r)
        return;
    free(r->sizes);
    free(r->lat);
    free(r->gap);
    free(r->bw);
    free(r->labels);
    free(r->names);
    memset(r, 0, sizeof *r);
}

/* Count a pair's ping-pong samples (tmp, RTTs) in the noise record. */
static void note_noise(hc__probe_noise_t *z, double *tmp, int reps, uint32_t a, uint32_t b)
{
    double q1, q3, sp = hc__probe_spread(tmp, reps, &q1, &q3);
    z->pairs++;
    if (!(sp > z->tol))
        return;
    z->noisy++;
    if (sp > z->worst) {
        z->worst = sp;
        z->a = a;
        z->b = b;
        z->q1 = q1 / 2;
        z->q3 = q3 / 2;
    }
}

/* Every rank gets the noise of every rank's measurements. */
static void gather_noise(MPI_Comm comm, int me, hc__probe_noise_t *z)
{
    double n[2] = {(double)z->noisy, (double)z->pairs};
    struct {
        double v;
        int rank;
    } w = {z->worst, me};
    MPI_Allreduce(MPI_IN_PLACE, n, 2, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    double d[5] = {z->worst, z->a, z->b, z->q1, z->q3};
    MPI_Bcast(d, 5, MPI_DOUBLE, w.rank, comm);
    z->noisy = (uint64_t)n[0];
    z->pairs = (uint64_t)n[1];
    z->worst = d[0];
    z->a = (uint32_t)d[1];
    z->b = (uint32_t)d[2];
    z->q1 = d[3];
    z->q3 = d[4];
}

/* Run one phase: the rounds of `pairs`; gap = 0 for latency, 1 for gaps. */
static void run_phase(MPI_Comm comm, int me, const pair_t *pairs, const size_t *start, int rounds,
                      int gap, const hc__probe_opts_t *o, char *buf, double *tmp, double *lat,
                      double *gapm, uint32_t P, hc__probe_noise_t *noise)
{
    size_t S = o->n_sizes;
    for (int r = 0; r < rounds; r++) {
        MPI_Barrier(comm);
        for (size_t k = start[r]; k < start[r + 1]; k++) {
            const pair_t *q = &pairs[k];
            if ((int)q->a != me && (int)q->b != me)
                continue;
            int peer = (int)q->a == me ? (int)q->b : (int)q->a;
            if (!gap) {
                double rtt = pingpong(comm, (int)q->a == me, peer, buf, o->reps, tmp);
                if ((int)q->a == me) {
                    lat[(size_t)q->a * P + q->b] = lat[(size_t)q->b * P + q->a] = rtt / 2;
                    note_noise(noise, tmp, o->reps, q->a, q->b);
                }
                break;
            }
            for (int d = 0; d < 2; d++) {
                if (!(q->dirs & (1 << d)))
                    continue;
                uint32_t src = d == 0 ? q->a : q->b, dst = d == 0 ? q->b : q->a;
                for (size_t s = 0; s < S; s++) {
                    double g = stream_gap(comm, (int)src == me, peer, buf, (int)o->sizes[s], o);
                    if ((int)src == me)
                        gapm[((size_t)src * P + dst) * S + s] = g;
                }
            }
            break;
        }
    }
}

int hc__probe_run(MPI_Comm comm, const hc__probe_opts_t *o, hc__probe_result_t *r)
{
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    memset(r, 0, sizeof *r);
    uint32_t P = (uint32_t)np;
    size_t S = o->n_sizes;
    r->P = P;
    r->S = S;
    size_t npairs = (size_t)P * (P - 1) / 2;
    uint64_t mmax = S ? o->sizes[S - 1] : 1;
    r->sizes = malloc((S ? S : 1) * sizeof *r->sizes);
    r->lat = calloc((size_t)P * P, sizeof *r->lat);
    r->gap = calloc((size_t)P * P * (S ? S : 1), sizeof *r->gap);
    r->bw = calloc((size_t)P * P, sizeof *r->bw);
    r->labels = malloc(P * sizeof *r->labels);
    r->names = calloc(P, HC__PROBE_NAME);
    double *gap_local = calloc((size_t)P * P * (S ? S : 1), sizeof *gap_local);
    pair_t *pairs = malloc((npairs ? npairs : 1) * sizeof *pairs);
    char *buf = malloc(mmax > 1 ? (size_t)mmax : 1);
    double *tmp = malloc((size_t)(o->reps > 0 ? o->reps : 1) * sizeof *tmp);
    size_t *start = NULL;
    int ok = r->sizes && r->lat && r->gap && r->bw && r->labels && r->names && gap_local && pairs &&
             buf && tmp;
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    int rc = HC_OK;
    if (!all_ok) {
        rc = hc__error(HC_ERR_NOMEM, "probe: out of memory for %u ranks and %zu sizes", P, S);
        goto done;
    }
    memcpy(r->sizes, o->sizes, S * sizeof *r->sizes);
    memset(buf, 0x5a, mmax > 1 ? (size_t)mmax : 1);
    {
        char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
        int len = 0;
        MPI_Get_processor_name(host, &len);
        char mine[HC__PROBE_NAME];
        snprintf(mine, sizeof mine, "%.40s-r%d", host, me);
        MPI_Gather(mine, HC__PROBE_NAME, MPI_CHAR, r->names, HC__PROBE_NAME, MPI_CHAR, 0, comm);
    }
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    /* Phase 1: all-pairs latency. */
    size_t n = tournament_pairs(P, pairs);
    int rounds = make_rounds(pairs, n, P, o->serial, &start);
    if (rounds < 0) { /* same on every rank: the sizes are identical */
        rc = hc__error(HC_ERR_NOMEM, "probe: out of memory");
        goto done;
    }
    r->noise.tol = o->rho;
    r->noise.reps = o->reps;
    run_phase(comm, me, pairs, start, rounds, 0, o, buf, tmp, r->lat, NULL, P, &r->noise);
    MPI_Allreduce(MPI_IN_PLACE, r->lat, (int)((size_t)P * P), MPI_DOUBLE, MPI_SUM, comm);
    gather_noise(comm, me, &r->noise);
    r->n_latency = n;
    r->rounds_latency = (uint32_t)rounds;
    free(start);
    start = NULL;
    double t1 = MPI_Wtime();
    r->t_latency = t1 - t0;
    /* Clusters (every rank computes the same labels from the same matrix). */
    hc_cluster_opts_t co;
    hc_cluster_opts_init(&co);
    co.rho = o->rho;
    if ((rc = hc_cluster_compute_matrix(P, r->lat, &co, r->labels, &r->C)) != HC_OK)
        goto done;
    /* Phase 2: gaps. */
    uint32_t *rep = malloc(r->C * sizeof *rep), *second = malloc(r->C * sizeof *second);
    if (!rep || !second) {
        free(rep);
        free(second);
        rc = hc__error(HC_ERR_NOMEM, "probe: out of memory");
        goto done;
    }
    for (uint32_t c = 0; c < r->C; c++)
        rep[c] = second[c] = P;
    for (uint32_t i = 0; i < P; i++) {
        uint32_t c = (uint32_t)r->labels[i];
        if (rep[c] == P)
            rep[c] = i;
        else if (second[c] == P)
            second[c] = i;
    }
    uint64_t ngap = 0;
    if (!o->clustered) {
        n = tournament_pairs(P, pairs);
        ngap = (uint64_t)P * (P - 1);
    } else {
        n = 0;
        for (uint32_t c = 0; c < r->C; c++)
            for (uint32_t d = c + 1; d < r->C; d++) {
                uint32_t x = rep[c], y = rep[d];
                pairs[n++] = (pair_t){x < y ? x : y, x < y ? y : x, 3};
                ngap += 2;
            }
        for (uint32_t c = 0; c < r->C; c++)
            if (second[c] != P) { /* rep < second: direction a -> b */
                pairs[n++] = (pair_t){rep[c], second[c], 1};
                ngap += 1;
            }
    }
    rounds = make_rounds(pairs, n, P, o->serial, &start);
    if (rounds < 0) {
        free(rep);
        free(second);
        rc = hc__error(HC_ERR_NOMEM, "probe: out of memory");
        goto done;
    }
    run_phase(comm, me, pairs, start, rounds, 1, o, buf, tmp, r->lat, gap_local, P, &r->noise);
    MPI_Reduce(gap_local, r->gap, (int)((size_t)P * P * S), MPI_DOUBLE, MPI_SUM, 0, comm);
    r->n_gap = ngap;
    r->rounds_gap = (uint32_t)rounds;
    double t2 = MPI_Wtime();
    r->t_gap = t2 - t1;
    r->t_total = t2 - t0;
    if (me == 0) {
        if (o->clustered) /* copy the representatives' tables to every pair */
            for (uint32_t i = 0; i < P; i++)
                for (uint32_t j = 0; j < P; j++) {
                    uint32_t ci = (uint32_t)r->labels[i], cj = (uint32_t)r->labels[j];
                    uint32_t si = rep[ci], sj = ci != cj ? rep[cj] : second[ci];
                    if (i == j || sj == P || (si == i && sj == j))
                        continue;
                    memcpy(&r->gap[((size_t)i * P + j) * S], &r->gap[((size_t)si * P + sj) * S],
                           S * sizeof(double));
                }
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++) {
                if (i == j)
                    continue;
                double g = S ? r->gap[((size_t)i * P + j) * S + S - 1] : 0;
                double t = g > 0 ? g : 1e-9;
                r->bw[(size_t)i * P + j] = (double)mmax / t;
            }
    }
    free(rep);
    free(second);
done:
    free(start);
    free(gap_local);
    free(pairs);
    free(buf);
    free(tmp);
    if (rc != HC_OK)
        hc__probe_result_free(r);
    return rc;
}

int hc__probe_to_platform(const hc__probe_result_t *r, const double *lat, const double *bw,
                          const double *gap, hc_platform_t **out)
{
    uint32_t P = r->P;
    hc_platform_t *p = NULL;
    int rc = hc_platform_create(P, 1e-6, 1e9, &p);
    if (rc == HC_OK)
        rc = hc_platform_set_name(p, "probe");
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        rc = hc_platform_set_node_name(p, i, r->names + (size_t)i * HC__PROBE_NAME);
    double *g = malloc((r->S ? r->S : 1) * sizeof *g);
    if (!g && rc == HC_OK)
        rc = hc__error(HC_ERR_NOMEM, "probe: out of memory");
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        for (uint32_t j = 0; j < P && rc == HC_OK; j++) {
            if (i == j)
                continue;
            double l = lat[(size_t)i * P + j], b = bw[(size_t)i * P + j];
            if (!(l >= 1e-9) || !isfinite(l))
                l = 1e-9;
            if (!(b > 0) || !isfinite(b))
                b = 1e15;
            rc = hc_platform_set_link(p, i, j, l, b);
            if (rc != HC_OK || r->S == 0)
                continue;
            for (size_t s = 0; s < r->S; s++) {
                double v = gap[((size_t)i * P + j) * r->S + s];
                g[s] = isfinite(v) && v > 0 ? v : 0;
            }
            rc = hc_platform_set_gap_table(p, i, j, r->S, r->sizes, g);
        }
    free(g);
    if (rc == HC_OK)
        rc = hc_platform_apply_clusters(p, r->labels, "c");
    if (rc != HC_OK) {
        hc_platform_destroy(p);
        return rc;
    }
    *out = p;
    return HC_OK;
}

void hc__probe_summary(const hc__probe_result_t *r, const hc__probe_opts_t *o, char *buf, size_t n)
{
    /* the comparison with full mode only where it says something */
    char full[64] = "";
    if (o->clustered)
        snprintf(full, sizeof full, " (full mode would need %llu)",
                 (unsigned long long)r->P * (r->P - 1));
    snprintf(buf, n,
             "probe: P=%u mode=%s clusters=%u | latency: %llu pair measurements in %u rounds, "
             "%.3f s | gaps: %llu directed measurements (x %zu sizes) in %u rounds, %.3f s%s | "
             "total %.3f s",
             r->P, o->clustered ? "clustered" : "full", r->C, (unsigned long long)r->n_latency,
             r->rounds_latency, r->t_latency, (unsigned long long)r->n_gap, r->S, r->rounds_gap,
             r->t_gap, full, r->t_total);
}
