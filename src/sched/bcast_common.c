/* Shared helpers of the broadcast algorithms: the 1-port transfer timer, the classic algorithms
 * of 004 Table 1 on a node subset, their pLogP predictions and the segment-size search
 * (004 §5.1), the greedy edge-selection heuristics FEF / ECEF / look-ahead (002 §2, 004 §5.2)
 * and the hierarchical grid broadcast (004 §5.2). See bcast_common.h. */
#include "bcast_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the builder */

struct hc__bb_memo {
    uint32_t src, dst;
    uint64_t bytes;
    double d, port;
    int used;
};

int hc__bb_init(hc__bb_t *b, const hc_problem_t *pb, hc_schedule_t *s, uint32_t P, uint32_t nseg)
{
    memset(b, 0, sizeof *b);
    if (nseg == 0)
        nseg = 1;
    b->pb = pb;
    b->s = s;
    b->P = P;
    b->nseg = nseg;
    b->send_free = hc__calloc(P, sizeof *b->send_free);
    b->recv_free = hc__calloc(P, sizeof *b->recv_free);
    b->hold = hc__malloc((size_t)P * nseg, sizeof *b->hold);
    b->memo = hc__calloc(HC__BB_MEMO, sizeof *b->memo);
    if (!b->send_free || !b->recv_free || !b->hold || !b->memo) {
        hc__bb_free(b);
        return hc__error(HC_ERR_NOMEM, "out of memory planning a broadcast");
    }
    for (size_t i = 0; i < (size_t)P * nseg; i++)
        b->hold[i] = INFINITY;
    hc__bb_give_all(b, pb ? pb->root : 0, 0.0);
    return HC_OK;
}

void hc__bb_free(hc__bb_t *b)
{
    free(b->send_free);
    free(b->recv_free);
    free(b->hold);
    free(b->memo);
    b->memo = NULL;
    b->send_free = b->recv_free = b->hold = NULL;
}

void hc__bb_give_all(hc__bb_t *b, uint32_t v, double t)
{
    for (uint32_t k = 0; k < b->nseg; k++) {
        double *h = &b->hold[(size_t)v * b->nseg + k];
        if (t < *h)
            *h = t;
    }
}

double hc__bb_done(const hc__bb_t *b, uint32_t v, uint32_t nseg)
{
    double d = 0;
    for (uint32_t k = 0; k < nseg && k < b->nseg; k++) {
        double h = b->hold[(size_t)v * b->nseg + k];
        if (h > d)
            d = h;
    }
    return d;
}

int hc__bb_send(hc__bb_t *b, uint32_t src, uint32_t dst, uint32_t seg, uint64_t bytes, uint8_t tree,
                double *end)
{
    if (seg >= b->nseg || src >= b->P || dst >= b->P)
        return hc__error(HC_ERR_INTERNAL, "broadcast planner: segment %u or node out of range",
                         seg);
    double h = b->hold[(size_t)src * b->nseg + seg];
    if (!isfinite(h))
        return hc__error(HC_ERR_INTERNAL,
                         "broadcast planner: node %u sends segment %u before holding it", src, seg);
    hc_event_t e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.dst = dst;
    e.seg = seg;
    e.bytes = bytes;
    e.tree = tree;
    double d, port;
    if (b->cost) {
        d = b->cost(b->ctx, src, dst, bytes, &port);
    } else {
        /* the same numbers every time for the same (src, dst, bytes): memoised */
        uint64_t hk = ((uint64_t)src * 2654435761u) ^ ((uint64_t)dst * 40503u) ^ (bytes * 97u);
        struct hc__bb_memo *mm = &b->memo[(hk ^ (hk >> 17)) % HC__BB_MEMO];
        if (mm->used && mm->src == src && mm->dst == dst && mm->bytes == bytes) {
            d = mm->d;
            port = mm->port;
        } else {
            d = hc_problem_event_cost(b->pb, &e);
            port = hc_problem_event_port_time(b->pb, &e);
            mm->used = 1;
            mm->src = src;
            mm->dst = dst;
            mm->bytes = bytes;
            mm->d = d;
            mm->port = port;
        }
        if (b->whole_port)
            port = d;
    }
    if (b->whole_port || !(port < d))
        port = d;
    /* sender port [start, start + port], receiver port [end - port, end] (the simulator's
     * rule; with port == d both are the whole transfer) */
    double st = h;
    if (b->send_free[src] > st)
        st = b->send_free[src];
    double rq = port == d ? b->recv_free[dst] : b->recv_free[dst] - (d - port);
    if (rq > st)
        st = rq;
    e.start = st;
    e.end = st + d;
    b->send_free[src] = port == d ? e.end : st + port;
    b->recv_free[dst] = e.end;
    double *hd = &b->hold[(size_t)dst * b->nseg + seg];
    if (e.end < *hd)
        *hd = e.end;
    if (e.end > b->max_end)
        b->max_end = e.end;
    if (end)
        *end = e.end;
    if (b->s)
        HC__TRY(hc_schedule_add_event(b->s, &e));
    return HC_OK;
}

/* ---------------------------------------------------------------- classics */

static const char *const bc_names[HC__BC_COUNT] = {
    "flat",     "segmented-flat",     "chain",          "pipeline", "binary",
    "binomial", "segmented-binomial", "scatter-collect"};

const char *hc__bc_name(hc__bc_algo_t a)
{
    return (unsigned)a < HC__BC_COUNT ? bc_names[a] : "?";
}

int hc__bc_segmented(hc__bc_algo_t a)
{
    return a == HC__BC_SEG_FLAT || a == HC__BC_PIPELINE || a == HC__BC_SEG_BINOMIAL;
}

static uint32_t seg_count(uint64_t msg, uint64_t segbytes)
{
    if (segbytes == 0 || segbytes >= msg)
        return 1;
    uint64_t k = (msg + segbytes - 1) / segbytes;
    return k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

int hc__bcast_check_segment(const hc_problem_t *pb, const hc_algo_opts_t *opts)
{
    if (!opts || opts->segment_bytes == 0 || opts->segment_bytes >= pb->msg_bytes)
        return HC_OK;
    uint64_t k = (pb->msg_bytes + opts->segment_bytes - 1) / opts->segment_bytes;
    if (k > HC__MAX_SEG_FORCED)
        return hc__error(HC_ERR_VALUE,
                         "bcast: segment size %llu B cuts the %llu B message into %llu segments "
                         "(at most %u)",
                         (unsigned long long)opts->segment_bytes, (unsigned long long)pb->msg_bytes,
                         (unsigned long long)k, HC__MAX_SEG_FORCED);
    return HC_OK;
}

uint32_t hc__bc_nseg(hc__bc_algo_t a, uint32_t n, uint64_t msg, uint64_t segbytes)
{
    if (hc__bc_segmented(a))
        return seg_count(msg, segbytes);
    if (a == HC__BC_SCATTER_COLLECT && n >= 2 && msg >= n)
        return n;
    return 1;
}

static uint64_t seg_bytes(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t i)
{
    if (k <= 1)
        return msg;
    uint64_t off = (uint64_t)i * segbytes;
    return msg - off < segbytes ? msg - off : segbytes;
}

static int set_parent(int32_t *parent, uint32_t v, uint32_t p)
{
    if (parent)
        parent[v] = (int32_t)p;
    return HC_OK;
}

int hc__bc_run(hc__bb_t *b, hc__bc_algo_t a, const uint32_t *nodes, uint32_t n, uint64_t segbytes,
               int32_t *parent)
{
    uint64_t m = b->pb ? b->pb->msg_bytes : 0;
    if (n < 2)
        return HC_OK;
    if (a == HC__BC_SCATTER_COLLECT && m < n)
        a = HC__BC_BINOMIAL; /* fewer bytes than pieces: no scatter */
    uint32_t k = hc__bc_nseg(a, n, m, segbytes);
    if (k > b->nseg)
        return hc__error(HC_ERR_INTERNAL, "broadcast planner: %u segments, %u tracked", k, b->nseg);
    switch (a) {
    case HC__BC_FLAT:
    case HC__BC_SEG_FLAT:
        for (uint32_t s = 0; s < k; s++)
            for (uint32_t r = 1; r < n; r++)
                HC__TRY(
                    hc__bb_send(b, nodes[0], nodes[r], s, seg_bytes(m, segbytes, k, s), 0, NULL));
        for (uint32_t r = 1; r < n; r++)
            set_parent(parent, nodes[r], nodes[0]);
        return HC_OK;
    case HC__BC_CHAIN:
    case HC__BC_PIPELINE:
        for (uint32_t s = 0; s < k; s++)
            for (uint32_t r = 0; r + 1 < n; r++)
                HC__TRY(hc__bb_send(b, nodes[r], nodes[r + 1], s, seg_bytes(m, segbytes, k, s), 0,
                                    NULL));
        for (uint32_t r = 1; r < n; r++)
            set_parent(parent, nodes[r], nodes[r - 1]);
        return HC_OK;
    case HC__BC_BINARY:
        for (uint32_t r = 0; r < n; r++)
            for (uint32_t c = 2 * r + 1; c <= 2 * r + 2 && c < n; c++) {
                HC__TRY(hc__bb_send(b, nodes[r], nodes[c], 0, m, 0, NULL));
                set_parent(parent, nodes[c], nodes[r]);
            }
        return HC_OK;
    case HC__BC_BINOMIAL:
    case HC__BC_SEG_BINOMIAL:
        for (uint32_t s = 0; s < k; s++)
            for (uint64_t mask = 1; mask < n; mask <<= 1)
                for (uint32_t r = 0; r < mask && r + mask < n; r++) {
                    uint32_t c = (uint32_t)(r + mask);
                    HC__TRY(hc__bb_send(b, nodes[r], nodes[c], s, seg_bytes(m, segbytes, k, s), 0,
                                        NULL));
                    if (s == 0)
                        set_parent(parent, nodes[c], nodes[r]);
                }
        return HC_OK;
    case HC__BC_SCATTER_COLLECT: {
        /* van de Geijn: the root scatters piece p to rank p (linear), then a ring allgather in
         * which rank r sends piece (r - t) mod n to rank r + 1 at step t, skipping the pieces
         * the receiver already holds (the root holds all). Piece p = segment p. */
        uint64_t piece = m / n, rem = m % n;
#define PIECE_BYTES(p) (piece + ((p) < rem ? 1 : 0))
        for (uint32_t r = 1; r < n; r++)
            HC__TRY(hc__bb_send(b, nodes[0], nodes[r], r, PIECE_BYTES(r), 0, NULL));
        for (uint32_t t = 0; t + 1 < n; t++)
            for (uint32_t r = 0; r < n; r++) {
                uint32_t dst = (r + 1) % n;
                uint32_t p = (uint32_t)((r + n - t % n) % n);
                if (dst == 0 || p == dst)
                    continue;
                HC__TRY(hc__bb_send(b, nodes[r], nodes[dst], p, PIECE_BYTES(p), 0, NULL));
            }
#undef PIECE_BYTES
        for (uint32_t r = 1; r < n; r++)
            set_parent(parent, nodes[r], nodes[r - 1]);
        return HC_OK;
    }
    default:
        return hc__error(HC_ERR_INTERNAL, "unknown classic broadcast %d", (int)a);
    }
}

/* ---------------------------------------------------------------- pLogP predictions */

void hc__plogp_init(hc__plogp_t *q, const hc_problem_t *pb, const uint32_t *nodes, uint32_t n)
{
    /* Parameters averaged over the ring pairs (nodes[a], nodes[a+1 mod n]): O(n) per gap
     * evaluation, exact on a homogeneous cluster. */
    memset(q, 0, sizeof *q);
    q->pb = pb;
    q->nodes = nodes;
    q->n = n;
    double sl = 0, sc = 0;
    size_t cnt = 0;
    for (uint32_t a = 0; a < n && n > 1; a++) {
        uint32_t c = (a + 1) % n;
        sc += HC_AT(pb->costs, nodes[a], nodes[c]);
        if (pb->platform)
            sl += hc_platform_latency(pb->platform, nodes[a], nodes[c]);
        cnt++;
    }
    q->L = cnt ? sl / (double)cnt : 0;
    q->mean_cost = cnt ? sc / (double)cnt : 0;
}

double hc__plogp_gap(const hc__plogp_t *q, uint64_t bytes)
{
    const hc_problem_t *pb = q->pb;
    if (!pb->platform || pb->msg_bytes == 0) {
        if (pb->msg_bytes == 0)
            return 0;
        return q->mean_cost * (double)bytes / (double)pb->msg_bytes;
    }
    /* The same scaling as hc_problem_event_cost, averaged over the pairs: the cost of a
     * `bytes` transfer minus the latency. */
    double sum = 0;
    size_t cnt = 0;
    for (uint32_t a = 0; a < q->n && q->n > 1; a++) {
        hc_event_t e;
        memset(&e, 0, sizeof e);
        e.src = q->nodes[a];
        e.dst = q->nodes[(a + 1) % q->n];
        e.bytes = bytes;
        sum += hc_problem_event_cost(pb, &e) - hc_platform_latency(pb->platform, e.src, e.dst);
        cnt++;
    }
    double g = cnt ? sum / (double)cnt : 0;
    return g > 0 ? g : 0;
}

double hc__bc_predict(const hc__plogp_t *q, hc__bc_algo_t a, uint64_t s)
{
    double P = q->n, L = q->L;
    uint64_t m = q->pb->msg_bytes;
    if (q->n < 2)
        return 0;
    if (s == 0 || s > m)
        s = m;
    double k = seg_count(m, s);
    double gm = hc__plogp_gap(q, m);
    double lg = log2(P);
    switch (a) {
    case HC__BC_FLAT:
        return L + (P - 1) * gm;
    case HC__BC_SEG_FLAT:
        return L + (P - 1) * (hc__plogp_gap(q, s) * k);
    case HC__BC_CHAIN:
        return (P - 1) * (gm + L);
    case HC__BC_PIPELINE: {
        double gs = hc__plogp_gap(q, s);
        return (P - 1) * (gs + L) + gs * (k - 1);
    }
    case HC__BC_BINARY:
        return ceil(lg) * (2 * gm + L);
    case HC__BC_BINOMIAL:
        return floor(lg) * L + floor(lg) * gm;
    case HC__BC_SEG_BINOMIAL:
        return floor(lg) * L + floor(lg) * hc__plogp_gap(q, s) * k;
    case HC__BC_SCATTER_COLLECT:
        return (lg + P - 1) * L + 2 * ((P - 1) / P) * gm;
    default:
        return INFINITY;
    }
}

/* The 1-port prediction: replay the algorithm on a virtual homogeneous group with the group's
 * pLogP parameters, every transfer of x bytes lasting L + g(x). */
typedef struct vctx {
    const hc__plogp_t *q;
    uint64_t last_bytes;
    double last_cost, last_gap;
} vctx_t;

static double virtual_cost(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, double *port)
{
    vctx_t *v = ctx;
    (void)src;
    (void)dst;
    if (bytes != v->last_bytes || v->last_cost < 0) {
        v->last_bytes = bytes;
        v->last_gap = hc__plogp_gap(v->q, bytes);
        v->last_cost = v->q->L + v->last_gap;
    }
    /* pLogP broadcasts: the sender is busy for g(x) only (hc_problem_event_port_time) */
    *port = hc_problem_overlaps_latency(v->q->pb) ? v->last_gap : v->last_cost;
    return v->last_cost;
}

static double predict_1port(const hc__plogp_t *q, hc__bc_algo_t a, uint64_t s)
{
    uint32_t n = q->n;
    uint64_t m = q->pb->msg_bytes;
    uint32_t k = hc__bc_nseg(a, n, m, s);
    uint32_t *ids = hc__malloc(n ? n : 1, sizeof *ids);
    if (!ids)
        return INFINITY;
    for (uint32_t i = 0; i < n; i++)
        ids[i] = i;
    hc_problem_t vp = *q->pb;
    vp.root = 0;
    hc__bb_t b;
    if (hc__bb_init(&b, &vp, NULL, n, k) != HC_OK) {
        free(ids);
        return INFINITY;
    }
    vctx_t v = {q, 0, -1, 0};
    b.cost = virtual_cost;
    b.ctx = &v;
    double r = hc__bc_run(&b, a, ids, n, s, NULL) == HC_OK ? b.max_end : INFINITY;
    hc__bb_free(&b);
    free(ids);
    return r;
}

void hc__bc_choose(const hc__plogp_t *q, uint64_t fixed_seg, int whole_only, hc__bc_choice_t *best,
                   hc__bc_choice_t *table)
{
    uint64_t m = q->pb->msg_bytes;
    best->algo = HC__BC_BINOMIAL;
    best->seg = m;
    best->predicted = INFINITY;
    for (int a = 0; a < HC__BC_COUNT; a++) {
        hc__bc_choice_t c = {(hc__bc_algo_t)a, m, INFINITY};
        if (whole_only && hc__bc_nseg(c.algo, q->n, m, 1) > 1) {
            if (table)
                table[a] = c;
            continue;
        }
        if (hc__bc_segmented((hc__bc_algo_t)a)) {
            if (fixed_seg > 0) {
                c.seg = fixed_seg < m ? fixed_seg : m;
                c.predicted = predict_1port(q, c.algo, c.seg);
            } else {
                for (uint64_t i = 0; i < 63; i++) {
                    uint64_t s = (m + (1ull << i) - 1) >> i; /* ceil(m / 2^i) */
                    if (s == 0 || (i > 0 && s == ((m + (1ull << (i - 1)) - 1) >> (i - 1))))
                        break;
                    if (seg_count(m, s) > HC__MAX_SEG)
                        break;
                    double t = predict_1port(q, c.algo, s);
                    if (t < c.predicted) {
                        c.predicted = t;
                        c.seg = s;
                    }
                    if (s == 1)
                        break;
                }
            }
        } else {
            c.predicted = predict_1port(q, c.algo, m);
        }
        if (table)
            table[a] = c;
        if (c.predicted < best->predicted)
            *best = c;
    }
}

/* ---------------------------------------------------------------- greedy heuristics */

static const char *const gr_names[HC__GR_COUNT] = {"flat",    "fef",      "ecef",
                                                   "ecef-la", "ecef-lat", "ecef-laT"};

const char *hc__gr_name(hc__gr_rule_t r)
{
    return (unsigned)r < HC__GR_COUNT ? gr_names[r] : "?";
}

int hc__bcast_greedy(hc__gr_rule_t rule, uint32_t n, const double *c, const double *T,
                     uint32_t root, uint32_t *from, uint32_t *to)
{
    return hc__bcast_greedy_port(rule, n, c, NULL, T, root, from, to);
}

int hc__bcast_port_matrix(const hc_problem_t *pb, const uint32_t *nodes, uint32_t n, double **out)
{
    *out = NULL;
    if (!hc_problem_overlaps_latency(pb))
        return HC_OK;
    double *p = hc__malloc((size_t)n * n + 1, sizeof *p);
    if (!p)
        return hc__error(HC_ERR_NOMEM, "out of memory in the broadcast heuristic");
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t d = 0; d < n; d++) {
            hc_event_t e;
            memset(&e, 0, sizeof e);
            e.src = nodes ? nodes[a] : a;
            e.dst = nodes ? nodes[d] : d;
            e.bytes = pb->msg_bytes;
            p[(size_t)a * n + d] = a == d ? INFINITY : hc_problem_event_port_time(pb, &e);
        }
    *out = p;
    return HC_OK;
}

int hc__bcast_greedy_port(hc__gr_rule_t rule, uint32_t n, const double *c, const double *port,
                          const double *T, uint32_t root, uint32_t *from, uint32_t *to)
{
    unsigned char *inA = hc__calloc(n, 1);
    double *rt = hc__calloc(n, sizeof *rt);
    double *F = hc__calloc(n, sizeof *F);
    if (!inA || !rt || !F) {
        free(inA);
        free(rt);
        free(F);
        return hc__error(HC_ERR_NOMEM, "out of memory in the broadcast heuristic");
    }
    inA[root] = 1;
    int rc = HC_OK;
    int la = rule == HC__GR_ECEF_LA || rule == HC__GR_ECEF_LAt || rule == HC__GR_ECEF_LAT;
    for (uint32_t step = 0; step + 1 < n; step++) {
        if (la) {
            for (uint32_t j = 0; j < n; j++) {
                if (inA[j])
                    continue;
                double f = rule == HC__GR_ECEF_LAT ? -INFINITY : INFINITY;
                int any = 0;
                for (uint32_t k = 0; k < n; k++) {
                    if (inA[k] || k == j)
                        continue;
                    double v = c[(size_t)j * n + k];
                    if (!isfinite(v))
                        continue;
                    if (rule != HC__GR_ECEF_LA && T)
                        v += T[k];
                    if (rule == HC__GR_ECEF_LAT ? v > f : v < f)
                        f = v;
                    any = 1;
                }
                F[j] = any ? f : 0;
            }
        }
        double best = INFINITY;
        uint32_t bi = n, bj = n;
        for (uint32_t i = 0; i < n; i++) {
            if (!inA[i] || (rule == HC__GR_FLAT && i != root))
                continue;
            for (uint32_t j = 0; j < n; j++) {
                if (inA[j])
                    continue;
                double cij = c[(size_t)i * n + j];
                if (!isfinite(cij))
                    continue;
                double key;
                switch (rule) {
                case HC__GR_FLAT:
                case HC__GR_FEF:
                    key = cij;
                    break;
                case HC__GR_ECEF:
                    key = rt[i] + cij;
                    break;
                default:
                    key = rt[i] + cij + F[j];
                    break;
                }
                if (key < best) {
                    best = key;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (bi == n) {
            rc = hc__error(HC_ERR_VALUE,
                           "broadcast heuristic %s: no usable edge reaches the "
                           "remaining nodes",
                           hc__gr_name(rule));
            break;
        }
        double end = rt[bi] + c[(size_t)bi * n + bj];
        /* the sender's port is free again after the port time (pLogP: g; else the whole
         * transfer), the receiver holds the message at the end */
        rt[bi] = port ? rt[bi] + port[(size_t)bi * n + bj] : end;
        rt[bj] = end;
        inA[bj] = 1;
        from[step] = bi;
        to[step] = bj;
    }
    free(inA);
    free(rt);
    free(F);
    return rc;
}

int hc__bcast_greedy_schedule(const hc_problem_t *pb, hc__gr_rule_t rule, hc_schedule_t **out)
{
    uint32_t P = pb->P;
    *out = NULL;
    double *c = hc__malloc((size_t)P * P, sizeof *c), *port = NULL;
    uint32_t *from = hc__malloc(P, sizeof *from), *to = hc__malloc(P, sizeof *to);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    int rc = HC_OK;
    if (!c || !from || !to) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the broadcast heuristic");
        goto done;
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            c[(size_t)i * P + j] = i == j ? INFINITY : HC_AT(pb->costs, i, j);
    rc = hc__bcast_port_matrix(pb, NULL, P, &port);
    if (rc == HC_OK)
        rc = hc__bcast_greedy_port(rule, P, c, port, NULL, pb->root, from, to);
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, 1);
    for (uint32_t i = 0; rc == HC_OK && i + 1 < P; i++) {
        rc = hc__bb_send(&b, from[i], to[i], 0, pb->msg_bytes, 0, NULL);
        s->parent[to[i]] = (int32_t)from[i];
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        *out = s;
        s = NULL;
    }
done:
    hc__bb_free(&b);
    hc_schedule_destroy(s);
    free(c);
    free(port);
    free(from);
    free(to);
    return rc;
}

/* ---------------------------------------------------------------- hierarchy */

int hc__bcast_use_hier(const hc_problem_t *pb, const hc_algo_opts_t *opts)
{
    int h = opts ? opts->hierarchy : -1;
    if (h == 0 || !pb->platform)
        return 0;
    if (h > 0)
        return 1;
    return hc_platform_cluster_count(pb->platform) >= 2;
}

typedef struct cluster {
    uint32_t *nodes; /* coordinator first */
    uint32_t n;
    hc__plogp_t q;
    hc__bc_choice_t choice;
    uint32_t nseg;
    double T; /* intra-cluster broadcast time from its coordinator */
} cluster_t;

typedef struct hier {
    const hc_problem_t *pb;
    cluster_t *cl;
    uint32_t nc;
    double *c;    /* nc x nc coordinator costs */
    double *port; /* nc x nc coordinator port times, NULL = whole-duration ports */
    double *T;
    uint32_t *from, *to;
} hier_t;

static void hier_free(hier_t *h)
{
    if (h->cl)
        for (uint32_t k = 0; k < h->nc; k++)
            free(h->cl[k].nodes);
    free(h->cl);
    free(h->c);
    free(h->port);
    free(h->T);
    free(h->from);
    free(h->to);
    memset(h, 0, sizeof *h);
}

/* Clusters from labels (the root's first; unlabelled nodes are singletons) and coordinators. */
static int hier_init(hier_t *h, const hc_problem_t *pb)
{
    memset(h, 0, sizeof *h);
    h->pb = pb;
    uint32_t P = pb->P;
    uint32_t L = hc_platform_cluster_count(pb->platform);
    uint32_t *of = hc__malloc(P, sizeof *of);
    uint32_t *map = hc__malloc((size_t)L + 1, sizeof *map);
    h->cl = hc__calloc(P, sizeof *h->cl);
    int rc = HC_OK;
    if (!of || !map || !h->cl) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building clusters");
        goto done;
    }
    for (uint32_t k = 0; k <= L; k++)
        map[k] = UINT32_MAX;
    uint32_t nc = 0;
    for (uint32_t t = 0; t < P; t++) {
        uint32_t v = (pb->root + t) % P;
        int32_t lab = hc_platform_cluster_of(pb->platform, v);
        if (lab >= 0 && (uint32_t)lab < L) {
            if (map[lab] == UINT32_MAX)
                map[lab] = nc++;
            of[v] = map[lab];
        } else {
            of[v] = nc++;
        }
    }
    h->nc = nc;
    cluster_t *cl = h->cl;
    for (uint32_t v = 0; v < P; v++)
        cl[of[v]].n++;
    for (uint32_t k = 0; k < nc && rc == HC_OK; k++) {
        cl[k].nodes = hc__malloc(cl[k].n, sizeof *cl[k].nodes);
        if (!cl[k].nodes)
            rc = hc__error(HC_ERR_NOMEM, "out of memory building clusters");
        cl[k].n = 0;
    }
    for (uint32_t t = 0; t < P && rc == HC_OK; t++) {
        uint32_t v = (pb->root + t) % P;
        cl[of[v]].nodes[cl[of[v]].n++] = v;
    }
    /* coordinator: the root, else the member with the cheapest total incoming cost from the
     * nodes of the other clusters */
    for (uint32_t k = 0; k < nc && rc == HC_OK; k++) {
        uint32_t best = 0;
        double bv = INFINITY;
        for (uint32_t a = 0; a < cl[k].n; a++) {
            uint32_t v = cl[k].nodes[a];
            if (v == pb->root) {
                best = a;
                break;
            }
            double sum = 0;
            for (uint32_t u = 0; u < P; u++)
                if (of[u] != k)
                    sum += HC_AT(pb->costs, u, v);
            if (sum < bv) {
                bv = sum;
                best = a;
            }
        }
        uint32_t tmp = cl[k].nodes[0];
        cl[k].nodes[0] = cl[k].nodes[best];
        cl[k].nodes[best] = tmp;
        hc__plogp_init(&cl[k].q, pb, cl[k].nodes, cl[k].n);
    }
    if (rc == HC_OK) {
        h->c = hc__malloc((size_t)nc * nc, sizeof *h->c);
        h->T = hc__malloc(nc, sizeof *h->T);
        h->from = hc__malloc(nc, sizeof *h->from);
        h->to = hc__malloc(nc, sizeof *h->to);
        if (!h->c || !h->T || !h->from || !h->to)
            rc = hc__error(HC_ERR_NOMEM, "out of memory building clusters");
    }
    for (uint32_t a = 0; a < nc && rc == HC_OK; a++)
        for (uint32_t d = 0; d < nc; d++)
            h->c[(size_t)a * nc + d] =
                a == d ? INFINITY : HC_AT(pb->costs, cl[a].nodes[0], cl[d].nodes[0]);
    if (rc == HC_OK) {
        for (uint32_t k = 0; k < nc; k++)
            of[k] = cl[k].nodes[0]; /* reuse: the coordinators */
        rc = hc__bcast_port_matrix(pb, of, nc, &h->port);
    }
done:
    free(of);
    free(map);
    if (rc != HC_OK)
        hier_free(h);
    return rc;
}

/* model-best inside each cluster (segment size `seg` when > 0, else each cluster's best; the
 * validator and the simulator accept clusters that cut the message differently, a
 * whole-message transfer carrying every segment); T_k = the chosen algorithm's exact time on
 * the real costs. */
static int hier_choose(hier_t *h, uint64_t seg, uint32_t *nseg_out)
{
    const hc_problem_t *pb = h->pb;
    uint32_t nseg = 1;
    for (uint32_t k = 0; k < h->nc; k++) {
        cluster_t *c = &h->cl[k];
        c->nseg = 1;
        c->T = 0;
        c->choice.algo = HC__BC_FLAT;
        c->choice.seg = pb->msg_bytes;
        c->choice.predicted = 0;
        if (c->n < 2) {
            h->T[k] = 0;
            continue;
        }
        hc__bc_choice_t table[HC__BC_COUNT];
        hc__bc_choose(&c->q, seg, 0, &c->choice, table);
        c->nseg = hc__bc_nseg(c->choice.algo, c->n, pb->msg_bytes, c->choice.seg);
        if (c->nseg > nseg)
            nseg = c->nseg;
        hc_problem_t sub = *pb;
        sub.root = c->nodes[0];
        hc__bb_t b;
        HC__TRY(hc__bb_init(&b, &sub, NULL, pb->P, c->nseg));
        int rc = hc__bc_run(&b, c->choice.algo, c->nodes, c->n, c->choice.seg, NULL);
        c->T = b.max_end;
        h->T[k] = c->T;
        hc__bb_free(&b);
        HC__TRY(rc);
    }
    *nseg_out = nseg;
    return HC_OK;
}

/* Inter-cluster rule, then each cluster's broadcast once its coordinator has the message and
 * has done its inter-cluster sends. s NULL = dry run. */
static int hier_run(hier_t *h, hc__gr_rule_t rule, uint32_t nseg, hc_schedule_t *s,
                    double *makespan)
{
    const hc_problem_t *pb = h->pb;
    uint32_t nc = h->nc;
    if (nc > 1)
        HC__TRY(hc__bcast_greedy_port(rule, nc, h->c, h->port, h->T, 0, h->from, h->to));
    hc__bb_t b;
    HC__TRY(hc__bb_init(&b, pb, s, pb->P, nseg));
    int rc = HC_OK;
    for (uint32_t i = 0; rc == HC_OK && i + 1 < nc; i++) {
        uint32_t u = h->cl[h->from[i]].nodes[0], v = h->cl[h->to[i]].nodes[0];
        double end = 0;
        rc = hc__bb_send(&b, u, v, 0, pb->msg_bytes, 0, &end);
        if (rc == HC_OK) {
            hc__bb_give_all(&b, v, end);
            if (s)
                s->parent[v] = (int32_t)u;
        }
    }
    for (uint32_t k = 0; rc == HC_OK && k < nc; k++)
        rc = hc__bc_run(&b, h->cl[k].choice.algo, h->cl[k].nodes, h->cl[k].n, h->cl[k].choice.seg,
                        s ? s->parent : NULL);
    *makespan = b.max_end;
    hc__bb_free(&b);
    return rc;
}

static int hier_note(hier_t *h, hc__gr_rule_t rule, uint64_t seg, hc_schedule_t *s)
{
    const hc_problem_t *pb = h->pb;
    uint32_t nc = h->nc;
    cluster_t *cl = h->cl;
    size_t cap = 512 + (size_t)nc * 256, len = 0, jl = 0; /* >= every line below */
    char *note = hc__malloc(cap, 1), *js = hc__malloc(cap, 1);
    if (!note || !js) {
        free(note);
        free(js);
        return hc__error(HC_ERR_NOMEM, "out of memory in the hierarchical broadcast");
    }
    len += (size_t)snprintf(note + len, cap - len,
                            "hierarchical broadcast: %u clusters, inter-cluster %s, intra-cluster "
                            "model-best, segments %s",
                            nc, hc__gr_name(rule), seg ? "forced" : "per cluster");
    jl += (size_t)snprintf(js + jl, cap - jl, "{\"hierarchy\":{\"inter\":\"%s\",\"clusters\":[",
                           hc__gr_name(rule));
    for (uint32_t k = 0; k < nc; k++) {
        int32_t lab = hc_platform_cluster_of(pb->platform, cl[k].nodes[0]);
        const char *raw =
            lab >= 0 ? hc_platform_cluster_name(pb->platform, (uint32_t)lab) : "(unlabelled)";
        char name[48]; /* printable, JSON-safe, bounded */
        size_t nl = 0;
        for (const char *r = raw ? raw : ""; *r && nl + 1 < sizeof name; r++)
            if ((unsigned char)*r >= 0x20 && *r != '"' && *r != '\\')
                name[nl++] = *r;
        name[nl] = '\0';
        len += (size_t)snprintf(
            note + len, cap - len,
            "\n  cluster %-12.12s %3u nodes, coordinator %4u: %s, %u segment(s), "
            "T = %.6g s",
            name, cl[k].n, cl[k].nodes[0], hc__bc_name(cl[k].choice.algo), cl[k].nseg, cl[k].T);
        jl += (size_t)snprintf(js + jl, cap - jl,
                               "%s{\"name\":\"%s\",\"coordinator\":%u,\"nodes\":%u,"
                               "\"algorithm\":\"%s\",\"segments\":%u,\"T_s\":%.9g}",
                               k ? "," : "", name, cl[k].nodes[0], cl[k].n,
                               hc__bc_name(cl[k].choice.algo), cl[k].nseg, cl[k].T);
    }
    snprintf(js + jl, cap - jl, "]}}");
    free(s->note);
    s->note = note;
    free(s->extra_json);
    s->extra_json = js;
    return HC_OK;
}

int hc__bcast_hier_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc__gr_rule_t rule,
                            hc_schedule_t **out)
{
    *out = NULL;
    if (!pb->platform)
        return hc__error(HC_ERR_UNSUPPORTED,
                         "hierarchical broadcast: the problem has no platform (clusters come "
                         "from its labels); use --hierarchy none");
    HC__TRY(hc__bcast_check_segment(pb, opts));
    hier_t h;
    HC__TRY(hier_init(&h, pb));
    int rc = HC_OK;
    uint32_t nseg = 1;
    /* segment size: the forced one for every cluster, else each cluster's own best */
    uint64_t best_seg = opts && opts->segment_bytes ? opts->segment_bytes : 0;
    hc_schedule_t *s = NULL;
    double t = 0;
    rc = hier_choose(&h, best_seg, &nseg);
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_BCAST, pb->P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hier_run(&h, rule, nseg, s, &t);
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = nseg;
        if (nseg > 1)
            hc__bcast_set_seg_bound(pb, s);
        rc = hier_note(&h, rule, best_seg, s);
    }
    hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}

/* Cluster order of the cluster pipeline: the root's cluster first, then the order of the other
 * clusters minimising the sum of the coordinator-to-coordinator costs along the path
 * (exhaustive for <= 8 clusters, nearest neighbour beyond). */
static void chain_order_rec(const hier_t *h, uint32_t *cur, unsigned char *used, uint32_t depth,
                            double acc, uint32_t *best, double *bv)
{
    uint32_t nc = h->nc;
    if (acc >= *bv)
        return;
    if (depth == nc) {
        *bv = acc;
        memcpy(best, cur, nc * sizeof *cur);
        return;
    }
    for (uint32_t k = 1; k < nc; k++) {
        if (used[k])
            continue;
        used[k] = 1;
        cur[depth] = k;
        chain_order_rec(h, cur, used, depth + 1, acc + h->c[(size_t)cur[depth - 1] * nc + k], best,
                        bv);
        used[k] = 0;
    }
}

static int chain_order(const hier_t *h, uint32_t *order)
{
    uint32_t nc = h->nc;
    uint32_t *cur = hc__malloc(nc, sizeof *cur);
    unsigned char *used = hc__calloc(nc, 1);
    if (!cur || !used) {
        free(cur);
        free(used);
        return hc__error(HC_ERR_NOMEM, "out of memory in the cluster pipeline");
    }
    order[0] = cur[0] = 0;
    used[0] = 1;
    if (nc <= 8) {
        double bv = INFINITY;
        chain_order_rec(h, cur, used, 1, 0, order, &bv);
    } else {
        for (uint32_t d = 1; d < nc; d++) {
            uint32_t bk = 0;
            double b = INFINITY;
            for (uint32_t k = 1; k < nc; k++)
                if (!used[k] && h->c[(size_t)order[d - 1] * nc + k] < b) {
                    b = h->c[(size_t)order[d - 1] * nc + k];
                    bk = k;
                }
            if (bk == 0) /* unreachable only with INFINITY costs: take any */
                for (uint32_t k = 1; k < nc && !bk; k++)
                    if (!used[k])
                        bk = k;
            used[bk] = 1;
            order[d] = bk;
        }
    }
    free(cur);
    free(used);
    return HC_OK;
}

int hc__bcast_hier_chain_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                  hc_schedule_t **out)
{
    *out = NULL;
    if (!pb->platform)
        return hc__error(HC_ERR_UNSUPPORTED,
                         "cluster pipeline: the problem has no platform (clusters come from its "
                         "labels)");
    HC__TRY(hc__bcast_check_segment(pb, opts));
    hier_t h;
    HC__TRY(hier_init(&h, pb));
    uint32_t P = pb->P, nc = h.nc;
    uint64_t m = pb->msg_bytes;
    uint32_t *order = hc__malloc(nc, sizeof *order);
    uint32_t *nodes = hc__malloc(P, sizeof *nodes);
    hc_schedule_t *s = NULL;
    int rc = HC_OK;
    if (!order || !nodes)
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the cluster pipeline");
    if (rc == HC_OK)
        rc = chain_order(&h, order);
    uint32_t n = 0;
    for (uint32_t d = 0; rc == HC_OK && d < nc; d++)
        for (uint32_t a = 0; a < h.cl[order[d]].n; a++)
            nodes[n++] = h.cl[order[d]].nodes[a];
    /* segment size: the forced one, else the best replayed s = m / 2^i */
    uint64_t best_seg = m;
    if (rc == HC_OK && opts && opts->segment_bytes) {
        best_seg = opts->segment_bytes < m ? opts->segment_bytes : m;
    } else if (rc == HC_OK) {
        double bt = INFINITY;
        for (uint64_t i = 0; i < 63 && rc == HC_OK; i++) {
            uint64_t sz = (m + (1ull << i) - 1) >> i;
            if (sz == 0 || (i > 0 && sz == ((m + (1ull << (i - 1)) - 1) >> (i - 1))))
                break;
            if (seg_count(m, sz) > HC__MAX_SEG)
                break;
            hc__bb_t b;
            rc = hc__bb_init(&b, pb, NULL, P, hc__bc_nseg(HC__BC_PIPELINE, n, m, sz));
            if (rc == HC_OK)
                rc = hc__bc_run(&b, HC__BC_PIPELINE, nodes, n, sz, NULL);
            if (rc == HC_OK && b.max_end < bt) {
                bt = b.max_end;
                best_seg = sz;
            }
            hc__bb_free(&b);
            if (sz == 1)
                break;
        }
    }
    uint32_t k = hc__bc_nseg(HC__BC_PIPELINE, n, m, best_seg);
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK) {
        hc__bb_t b;
        rc = hc__bb_init(&b, pb, s, P, k);
        if (rc == HC_OK)
            rc = hc__bc_run(&b, HC__BC_PIPELINE, nodes, n, best_seg, s->parent);
        hc__bb_free(&b);
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = k;
        if (k > 1)
            hc__bcast_set_seg_bound(pb, s);
        size_t cap = 160 + (size_t)nc * 64, len = 0;
        char *note = hc__malloc(cap, 1);
        if (!note) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the cluster pipeline");
        } else {
            len += (size_t)snprintf(note, cap,
                                    "cluster pipeline: %u clusters chained by coordinator cost, "
                                    "%u segment(s) of %llu bytes; cluster order (coordinators):",
                                    nc, k, (unsigned long long)best_seg);
            for (uint32_t d = 0; d < nc && len < cap; d++)
                len += (size_t)snprintf(note + len, cap - len, " %u", h.cl[order[d]].nodes[0]);
            free(s->note);
            s->note = note;
        }
    }
    free(order);
    free(nodes);
    hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}

int hc__bcast_hetero(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc__gr_rule_t rule,
                     hc_schedule_t **out)
{
    if (hc__bcast_use_hier(pb, opts))
        return hc__bcast_hier_schedule(pb, opts, rule, out);
    return hc__bcast_greedy_schedule(pb, rule, out);
}

void hc__bcast_set_seg_bound(const hc_problem_t *pb, hc_schedule_t *s)
{
    uint32_t P = pb->P;
    /* Receiver port intervals [end - port, end] are disjoint and the first one starts at least
     * (d - port) after time 0: makespan >= min (d - port) + sum of the ports (whole-duration
     * ports: the sum of the durations). */
    double *need = hc__calloc(P, sizeof *need);
    double *lat = hc__malloc(P, sizeof *lat);
    double *mb = hc__malloc(2 * (size_t)P, sizeof *mb); /* per dst: memo of the last bytes */
    uint64_t *mbytes = hc__malloc(P, sizeof *mbytes);
    if (!need || !lat || !mb || !mbytes) {
        free(need);
        free(lat);
        free(mb);
        free(mbytes);
        s->lower_bound = 0;
        return;
    }
    for (uint32_t v = 0; v < P; v++) {
        lat[v] = INFINITY;
        mbytes[v] = UINT64_MAX;
    }
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        double best = INFINITY, bl = INFINITY;
        int hit = e->dst < P && mbytes[e->dst] == e->bytes;
        if (hit) {
            best = mb[2 * (size_t)e->dst];
            bl = mb[2 * (size_t)e->dst + 1];
        }
        for (uint32_t u = 0; u < P && !hit; u++) {
            if (u == e->dst)
                continue;
            hc_event_t f = *e;
            f.src = u;
            double d = hc_problem_event_cost(pb, &f);
            double port = hc_problem_event_port_time(pb, &f);
            if (port < best)
                best = port;
            if (d - port < bl)
                bl = d - port;
        }
        if (e->dst < P) {
            mbytes[e->dst] = e->bytes;
            mb[2 * (size_t)e->dst] = best;
            mb[2 * (size_t)e->dst + 1] = bl;
        }
        if (isfinite(best) && e->dst < P) {
            need[e->dst] += best;
            if (bl < lat[e->dst])
                lat[e->dst] = bl;
        }
    }
    double lb = 0;
    for (uint32_t v = 0; v < P; v++) {
        double x = need[v] + (isfinite(lat[v]) && lat[v] > 0 ? lat[v] : 0);
        if (x > lb)
            lb = x;
    }
    free(need);
    free(lat);
    free(mb);
    free(mbytes);
    s->lower_bound = lb;
}

/* ---------------------------------------------------------------- classic schedules */

int hc__bcast_classic_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc__bc_algo_t a,
                               hc_schedule_t **out)
{
    uint32_t P = pb->P;
    *out = NULL;
    HC__TRY(hc__bcast_check_segment(pb, opts));
    uint32_t *nodes = hc__malloc(P, sizeof *nodes);
    if (!nodes)
        return hc__error(HC_ERR_NOMEM, "out of memory in the broadcast");
    for (uint32_t r = 0; r < P; r++)
        nodes[r] = (pb->root + r) % P;
    uint64_t seg = pb->msg_bytes;
    if (hc__bc_segmented(a)) {
        if (opts && opts->segment_bytes > 0) {
            seg = opts->segment_bytes;
        } else {
            hc__plogp_t q;
            hc__bc_choice_t best, table[HC__BC_COUNT];
            hc__plogp_init(&q, pb, nodes, P);
            hc__bc_choose(&q, 0, 0, &best, table);
            seg = table[a].seg;
        }
        if (seg == 0 || seg > pb->msg_bytes)
            seg = pb->msg_bytes;
    }
    uint32_t k = hc__bc_nseg(a, P, pb->msg_bytes, seg);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    int rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, k);
    if (rc == HC_OK)
        rc = hc__bc_run(&b, a, nodes, P, seg, s->parent);
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = k;
        if (k > 1) {
            hc__bcast_set_seg_bound(pb, s);
            rc = hc_schedule_set_note(s, "%s: %u segments of %llu bytes", hc__bc_name(a), k,
                                      (unsigned long long)seg);
        }
    }
    hc__bb_free(&b);
    free(nodes);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}
