/* How the MPI runtime executes a schedule (include/hetcoll/schedule.h, "execution"): numbers
 * the runtime (src/mpi/exec.c) and the simulator's flow replay (src/sim/sim_flow.c) share, so
 * that the prediction models what runs. */
#include <math.h>
#include <stdlib.h>

#include "model_internal.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The cap of a window: HC_EXEC_MAX_WINDOW, raised to 1 + ceil(bdp / bytes) (at most
 * HC_EXEC_MAX_BDP_WINDOW) when the largest bandwidth-delay product of the node's messages
 * needs more of its largest messages in flight. */
static double window_cap(double bdp, double bytes)
{
    double w = bytes > 0 ? 1.0 + ceil(bdp / bytes) : 0.0;
    return w <= HC_EXEC_MAX_WINDOW       ? HC_EXEC_MAX_WINDOW
           : w >= HC_EXEC_MAX_BDP_WINDOW ? HC_EXEC_MAX_BDP_WINDOW
                                         : w;
}

/* One side's window; t: scratch of n entries. Latencies count s->window_bdp_factor times. */
static uint32_t window(const hc_platform_t *p, const hc_schedule_t *s, uint32_t me, int receiving,
                       size_t n, double *t)
{
    if (n < 2)
        return 1;
    const double lf = s->window_bdp_factor > 1.0 ? s->window_bdp_factor : 1.0;
    double lmax = 0.0, bdp = 0.0, bmax = 0.0, first = 0.0;
    /* a segmented broadcast's last piece, when smaller than its first, is what is left of m
     * (m = 64 KiB in 9352 B pieces leaves 72 B): it paces nothing, and counted as the quickest
     * transfer it raised the window to the cap, every piece of a pipeline posted at once (fat
     * tree, 24 ranks: 11.3 ms predicted instead of 2.6 ms). A ramp's ends are small on purpose
     * and its first piece counts as before. */
    const uint32_t last = s->coll == HC_COLL_BCAST && s->n_segments > 1 ? s->n_segments - 1 : 0;
    for (size_t i = 0; last && i < s->n_events; i++)
        if (s->events[i].seg == 0 && (first == 0.0 || (double)s->events[i].bytes < first))
            first = (double)s->events[i].bytes;
    size_t k = 0;
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if ((receiving ? e->dst : e->src) != me)
            continue;
        uint32_t a = receiving ? e->src : me, b = receiving ? me : e->dst;
        double L = lf * hc_platform_latency(p, a, b), bw = hc_platform_bandwidth(p, a, b);
        const double bytes = (double)e->bytes;
        t[k++] = (last && e->seg == last && bytes < first ? first : bytes) / bw;
        if (L > lmax)
            lmax = L;
        bdp = L * bw > bdp ? L * bw : bdp;
        bmax = (double)e->bytes > bmax ? (double)e->bytes : bmax;
    }
    qsort(t, n, sizeof *t, cmp_double);
    /* a broadcast node alternates fast and slow sends (its site, other sites): the window
     * covers the largest latency with the quickest transfers */
    double tmed = s->coll == HC_COLL_BCAST ? t[0] : t[n / 2];
    const double cap = window_cap(bdp, bmax);
    double w = tmed > 0 ? 1.0 + floor(lmax / tmed) : cap;
    return w >= cap ? (uint32_t)cap : (uint32_t)w;
}

int hc_schedule_exec_windows(const hc_schedule_t *s, const hc_platform_t *p, uint32_t node,
                             uint32_t *send_window, uint32_t *recv_window)
{
    if (!s || !p || !send_window || !recv_window)
        return hc__error(HC_ERR_INVAL, "hc_schedule_exec_windows: NULL argument");
    if (node >= s->P || hc_platform_size(p) < s->P)
        return hc__error(HC_ERR_SHAPE,
                         "hc_schedule_exec_windows: node %u of a %u-node schedule "
                         "on a %u-node platform",
                         node, s->P, hc_platform_size(p));
    /* a broadcast's own window is a floor on each node's rule (a WAN sender keeps what covers
     * its latency); its receives are all posted (below) */
    const uint32_t floor_w = s->coll == HC_COLL_BCAST ? s->window : 0;
    /* round-robin receives: every send posted at once, else a node's send window could hold
     * sends its receivers post last (whole messages above the eager limit block) */
    const int rr = s->coll == HC_COLL_ALLTOALL && s->recv_order == HC_RECV_ROUND_ROBIN;
    if (s->window && (s->coll != HC_COLL_BCAST || s->window == HC_WINDOW_ALL)) {
        *send_window = *recv_window = s->window == HC_WINDOW_ALL ? 0 : s->window;
        if (s->coll == HC_COLL_BCAST || rr)
            *(rr ? send_window : recv_window) = 0;
        return HC_OK;
    }
    size_t ns = 0, nr = 0;
    int small = 1;
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src == node || e->dst == node) {
            ns += e->src == node;
            nr += e->dst == node;
            small &= e->bytes <= HC_EXEC_SMALL_BYTES;
        }
    }
    /* small whole messages: all posted at once; a segmented broadcast's pieces, however small,
     * keep their windows (synchronous sends: the window bounds what is in flight) */
    if (small && !(s->coll == HC_COLL_BCAST && s->n_segments > 1 && !s->parent2)) {
        *send_window = *recv_window = 0;
        return HC_OK;
    }
    double *t = hc__malloc((ns > nr ? ns : nr) + 1, sizeof *t);
    if (!t) {
        *send_window = rr ? 0 : 1;
        *recv_window = 1;
        return hc__error(HC_ERR_NOMEM, "hc_schedule_exec_windows: out of memory");
    }
    *send_window = rr ? 0 : window(p, s, node, 0, ns, t);
    if (!rr && *send_window < floor_w)
        *send_window = floor_w;
    /* a broadcast posts every receive at once: each is for one (sender, segment) */
    *recv_window = s->coll == HC_COLL_BCAST ? 0 : window(p, s, node, 1, nr, t);
    free(t);
    return HC_OK;
}

/* ceil(bytes / size) pieces, at most HC_SCHEDULE_MAX_PIECES (bytes, size > 0) */
static uint32_t capped_pieces(uint64_t bytes, uint64_t size)
{
    const uint64_t n = bytes / size + (bytes % size != 0);
    return n < HC_SCHEDULE_MAX_PIECES ? (uint32_t)n : HC_SCHEDULE_MAX_PIECES;
}

uint32_t hc_schedule_pieces(const hc_schedule_t *s, uint64_t bytes)
{
    /* a broadcast's pieces: only a segmented one's (whole messages go as they are) */
    const int bcast = s && s->coll == HC_COLL_BCAST && s->n_segments > 1 && !s->parent2;
    if (!s || (s->coll != HC_COLL_ALLTOALL && !bcast) || s->segment_bytes == 0 || bytes == 0)
        return 1;
    return capped_pieces(bytes, s->segment_bytes);
}

/* The lead pieces of the message src -> dst of `bytes` (lead_pieces), and in *lead_len the bytes
 * they cover. */
static uint32_t lead_of(const hc_schedule_t *s, uint32_t src, uint32_t dst, uint64_t bytes,
                        uint64_t *lead_len)
{
    *lead_len = 0;
    if (!s || s->coll != HC_COLL_ALLTOALL || !s->lead_pieces || !s->piece_groups ||
        s->lead_bytes == 0 || s->segment_bytes == 0 || bytes == 0 || src >= s->P || dst >= s->P)
        return 0;
    const int32_t a = s->piece_groups[src], b = s->piece_groups[dst];
    if (a == b || a < 0 || b < 0 || (uint32_t)a >= s->lead_groups || (uint32_t)b >= s->lead_groups)
        return 0;
    uint32_t l = s->lead_pieces[(size_t)a * s->lead_groups + (uint32_t)b];
    l = l < HC_SCHEDULE_MAX_PIECES ? l : HC_SCHEDULE_MAX_PIECES;
    const uint32_t fit = capped_pieces(bytes, s->lead_bytes);
    l = l < fit ? l : fit;
    *lead_len = (uint64_t)l * s->lead_bytes < bytes ? (uint64_t)l * s->lead_bytes : bytes;
    return l;
}

uint32_t hc_schedule_message_pieces(const hc_schedule_t *s, uint32_t src, uint32_t dst,
                                    uint64_t bytes)
{
    if (s && s->piece_groups && src < s->P && dst < s->P &&
        s->piece_groups[src] == s->piece_groups[dst])
        return 1;
    uint64_t len;
    const uint32_t l = lead_of(s, src, dst, bytes, &len);
    if (l == 0)
        return hc_schedule_pieces(s, bytes);
    return l + (len < bytes ? hc_schedule_pieces(s, bytes - len) : 0);
}

uint64_t hc_schedule_message_piece_offset(const hc_schedule_t *s, uint32_t src, uint32_t dst,
                                          uint64_t bytes, uint32_t k)
{
    const uint32_t n = hc_schedule_message_pieces(s, src, dst, bytes);
    if (k >= n)
        return bytes;
    uint64_t len;
    const uint32_t l = lead_of(s, src, dst, bytes, &len);
    if (k < l)
        return (uint64_t)k * s->lead_bytes;
    return len + hc_schedule_piece_offset(bytes - len, n - l, k - l);
}

uint32_t hc_schedule_forwarder(const hc_schedule_t *s, uint32_t src, uint32_t dst)
{
    if (!s || s->relay != HC_RELAY_FORWARDERS || !s->piece_groups || src >= s->P || dst >= s->P ||
        s->piece_groups[src] == s->piece_groups[dst])
        return dst;
    const int32_t a = s->piece_groups[src], b = s->piece_groups[dst];
    uint32_t k = 0, n = 0;
    for (uint32_t v = 0; v < s->P; v++) {
        k += v < dst && s->piece_groups[v] == b;
        n += s->piece_groups[v] == a;
    }
    k %= n;
    for (uint32_t v = 0; v < s->P; v++)
        if (s->piece_groups[v] == a && k-- == 0)
            return v;
    return dst; /* not reached: src is in group a */
}

uint64_t hc_schedule_piece_count(const hc_schedule_t *s)
{
    uint64_t n = 0;
    for (size_t i = 0; s && i < s->n_events; i++)
        n += hc_schedule_message_pieces(s, s->events[i].src, s->events[i].dst, s->events[i].bytes);
    return n;
}

uint64_t hc_schedule_piece_offset(uint64_t bytes, uint32_t n, uint32_t k)
{
    if (n == 0 || k >= n)
        return bytes;
    /* bytes * k / n without overflow: bytes = q * n + r */
    uint64_t q = bytes / n, r = bytes % n;
    return q * k + r * k / n;
}

/* Largest bandwidth-delay product of the schedule's edges. */
static double reduce_bdp(const hc_schedule_t *s, const hc_platform_t *p)
{
    double bdp = 0.0;
    for (size_t i = 0; s && p && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        double b =
            hc_platform_bandwidth(p, e->src, e->dst) * hc_platform_latency(p, e->src, e->dst);
        if (b > bdp)
            bdp = b;
    }
    return bdp;
}

static int multi_tree(const hc_schedule_t *s)
{
    for (size_t i = 0; s && i < s->n_events; i++)
        if (s->events[i].tree > 0)
            return 1;
    return 0;
}

uint64_t hc_schedule_reduce_segment(const hc_schedule_t *s, const hc_platform_t *p)
{
    if (s && s->segment_bytes)
        return s->segment_bytes;
    if (multi_tree(s))
        return 65536;
    double bdp = reduce_bdp(s, p);
    return 4.0 * bdp > 65536.0 ? (uint64_t)(4.0 * bdp) : 65536;
}

uint32_t hc_schedule_reduce_node_window(const hc_schedule_t *s, const hc_platform_t *p,
                                        uint32_t node)
{
    double bdp = 0.0;
    for (size_t i = 0; s && p && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src != node && e->dst != node)
            continue;
        double b =
            hc_platform_bandwidth(p, e->src, e->dst) * hc_platform_latency(p, e->src, e->dst);
        bdp = b > bdp ? b : bdp;
    }
    /* 1 + the product in segments, at most HC_EXEC_MAX_BDP_WINDOW */
    double w = 1.0 + ceil(bdp / (double)hc_schedule_reduce_segment(s, p));
    /* the schedule's own window: a floor on the nodes of its long edges */
    if (s && s->coll == HC_COLL_REDUCE && s->window && s->window != HC_WINDOW_ALL &&
        s->window > w && bdp > 0 && 2.0 * bdp >= reduce_bdp(s, p))
        w = s->window;
    return w >= HC_EXEC_MAX_BDP_WINDOW ? HC_EXEC_MAX_BDP_WINDOW : w < 2 ? 2 : (uint32_t)w;
}

int hc_schedule_reduce_paced(const hc_schedule_t *s, const hc_platform_t *p, uint32_t node,
                             size_t *events, size_t *n, uint32_t *window)
{
    if (!s || !p || !events || !n || !window)
        return hc__error(HC_ERR_INVAL, "hc_schedule_reduce_paced: NULL argument");
    *n = 0;
    *window = 0;
    if (s->coll != HC_COLL_REDUCE || !multi_tree(s) || node >= s->P)
        return HC_OK;
    /* the node's sends in trees where it receives nothing (`tree` is 8 bits) */
    unsigned char inner[256] = {0};
    for (size_t i = 0; i < s->n_events; i++)
        if (s->events[i].dst == node)
            inner[s->events[i].tree] = 1;
    size_t k = 0;
    for (size_t i = 0; i < s->n_events; i++)
        if (s->events[i].src == node && !inner[s->events[i].tree])
            events[k++] = i;
    if (k < HC_EXEC_PACE_TREES)
        return HC_OK;
    /* stable insertion sort by (tree, event), then keys by (round, rotated destination) */
    for (size_t a = 1; a < k; a++)
        for (size_t b = a; b > 0 && s->events[events[b - 1]].tree > s->events[events[b]].tree;
             b--) {
            const size_t t = events[b];
            events[b] = events[b - 1];
            events[b - 1] = t;
        }
    uint64_t *key = hc__malloc(k, sizeof *key);
    if (!key)
        return hc__error(HC_ERR_NOMEM, "hc_schedule_reduce_paced: out of memory");
    double bdp = 0.0;
    for (size_t a = 0; a < k; a++) {
        const hc_event_t *e = &s->events[events[a]];
        uint64_t round = 0;
        for (size_t b = 0; b < a; b++)
            round += s->events[events[b]].dst == e->dst;
        key[a] = round * s->P + (e->dst + s->P - node) % s->P;
        const double b =
            hc_platform_bandwidth(p, node, e->dst) * hc_platform_latency(p, node, e->dst);
        bdp = b > bdp ? b : bdp;
    }
    for (size_t a = 1; a < k; a++)
        for (size_t b = a; b > 0 && key[b - 1] > key[b]; b--) {
            const uint64_t t = key[b];
            key[b] = key[b - 1];
            key[b - 1] = t;
            const size_t u = events[b];
            events[b] = events[b - 1];
            events[b - 1] = u;
        }
    free(key);
    const double w = 1.0 + ceil(bdp / (double)hc_schedule_reduce_segment(s, p));
    *window = w >= HC_EXEC_MAX_BDP_WINDOW ? HC_EXEC_MAX_BDP_WINDOW
              : w <= HC_EXEC_MAX_WINDOW   ? HC_EXEC_MAX_WINDOW
                                          : (uint32_t)w;
    *n = k;
    return HC_OK;
}

uint32_t hc_schedule_reduce_subs(const hc_schedule_t *s, uint32_t src, uint32_t dst, uint64_t bytes)
{
    if (!s || s->coll != HC_COLL_REDUCE || !s->split_bytes || !s->piece_groups || src >= s->P ||
        dst >= s->P || s->piece_groups[src] == s->piece_groups[dst] || bytes == 0)
        return 1;
    return capped_pieces(bytes, s->split_bytes);
}

uint32_t hc_schedule_reduce_window(const hc_schedule_t *s, const hc_platform_t *p)
{
    if (!multi_tree(s))
        return 2;
    double w = 1.0 + ceil(reduce_bdp(s, p) / (double)hc_schedule_reduce_segment(s, p));
    return w >= HC_EXEC_MAX_WINDOW ? HC_EXEC_MAX_WINDOW : w < 2 ? 2 : (uint32_t)w;
}

void hc_schedule_recv_sequence(uint32_t recv_order, const uint32_t *cnt, size_t n_msgs, size_t *seq)
{
    size_t q = 0, total = 0, most = 0;
    for (size_t i = 0; cnt && i < n_msgs; i++) {
        total += cnt[i];
        most = cnt[i] > most ? cnt[i] : most;
    }
    if (!seq || !cnt)
        return;
    if (recv_order != HC_RECV_ROUND_ROBIN) {
        for (q = 0; q < total; q++)
            seq[q] = q;
        return;
    }
    /* round j: piece j of every message that has one; at = where message i's pieces start */
    for (size_t j = 0; j < most; j++)
        for (size_t i = 0, at = 0; i < n_msgs; at += cnt[i], i++)
            if (j < cnt[i])
                seq[q++] = at + j;
}
