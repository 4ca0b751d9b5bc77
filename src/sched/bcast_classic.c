/* The classic broadcasts of 004 Table 1 as a toolkit (bcast_kit.h): segment helpers, the
 * runner of a classic descriptor on ranked nodes, the pLogP predictor, the segment-size search
 * of 004 §5.1 and the whole-problem schedule. The descriptors themselves (tree shape, Table 1
 * formula) live in their algorithm files, listed by the HC_BCAST_CLASSIC rows of algos.def. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

#define HC_ALGO(coll, ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_EDGE(ident, name, flags, max_nodes, desc, paper)
#define HC_BCAST_CLASSIC(ident, name, flags, max_nodes, desc, paper) &hc__classic_##ident,
const hc__bc_classic_t *const hc__bc_classics[HC__BC_COUNT] = {
#include "algos.def"
};
#undef HC_BCAST_CLASSIC

/* the registry's entry points of the classics */
#define HC_BCAST_CLASSIC(ident, name, flags, max_nodes, desc, paper)                               \
    int hc__algo_##ident(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)  \
    {                                                                                              \
        return hc__bcast_classic_schedule(pb, opts, &hc__classic_##ident, out);                    \
    }
#include "algos.def"
#undef HC_BCAST_CLASSIC
#undef HC_BCAST_EDGE
#undef HC_ALGO

uint32_t hc__bc_seg_count(uint64_t msg, uint64_t segbytes)
{
    if (segbytes == 0 || segbytes >= msg)
        return 1;
    uint64_t k = (msg + segbytes - 1) / segbytes;
    return k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

uint64_t hc__bc_seg_bytes(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t i)
{
    if (k <= 1)
        return msg;
    uint64_t off = (uint64_t)i * segbytes;
    return msg - off < segbytes ? msg - off : segbytes;
}

static uint64_t ramp_weight(uint32_t k, uint32_t ramp, uint32_t j)
{
    uint64_t w = j + 1 < ramp ? j + 1 : ramp;
    return k - j < w ? k - j : w;
}

int hc__bc_ramp_offsets(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t ramp, uint64_t *off)
{
    return hc__bc_piece_offsets(msg, segbytes, k, ramp, HC__BC_ODD_EQUAL, off);
}

int hc__bc_piece_offsets(uint64_t msg, uint64_t segbytes, uint32_t k, uint32_t ramp, uint32_t odd,
                         uint64_t *off)
{
    /* weights: a ramp's, times HC__BC_ODD_EQUAL for even pieces and `odd` for odd ones; at most
     * 65536 x 64 x 1024 = 2^32 in all, so that r * w below stays under 2^64 */
    uint64_t total = 0, wmin = UINT64_MAX;
    ramp = ramp > 64 ? 64 : ramp <= 1 ? 1 : ramp;
    odd = odd == 0 || odd > HC__BC_ODD_EQUAL ? HC__BC_ODD_EQUAL : odd;
    const int weighted = ramp > 1 || odd < HC__BC_ODD_EQUAL;
    for (uint32_t j = 0; weighted && k <= HC__MAX_SEG_FORCED && j < k; j++) {
        const uint64_t w = ramp_weight(k, ramp, j) * (j % 2 ? odd : HC__BC_ODD_EQUAL);
        total += w;
        wmin = w < wmin ? w : wmin;
    }
    off[0] = 0;
    /* no weights, or a piece of the least weight would be empty (msg * wmin < total) */
    if (total == 0 || msg < total / wmin + (total % wmin != 0)) {
        for (uint32_t j = 0; j < k; j++) /* pieces past msg (k above its count) are empty */
            off[j + 1] = off[j] + (off[j] < msg ? hc__bc_seg_bytes(msg, segbytes, k, j) : 0);
        return 0;
    }
    /* off_j = msg * W_j / total without overflow: r * W_j < total^2 <= 2^64 */
    const uint64_t q = msg / total, r = msg % total;
    uint64_t w = 0;
    for (uint32_t j = 0; j < k; j++) {
        w += ramp_weight(k, ramp, j) * (j % 2 ? odd : HC__BC_ODD_EQUAL);
        off[j + 1] = q * w + r * w / total;
    }
    return 1;
}

void hc__bc_set_parent(int32_t *parent, uint32_t v, uint32_t p)
{
    if (parent)
        parent[v] = (int32_t)p;
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

uint32_t hc__bc_nseg(const hc__bc_classic_t *a, uint32_t n, uint64_t msg, uint64_t segbytes)
{
    if (a->nseg)
        return a->nseg(n, msg, segbytes);
    return a->segmented ? hc__bc_seg_count(msg, segbytes) : 1;
}

int hc__bc_run(hc__bb_t *b, const hc__bc_classic_t *a, const uint32_t *nodes, uint32_t n,
               uint64_t segbytes, int32_t *parent)
{
    uint64_t m = b->pb ? b->pb->msg_bytes : 0;
    if (n < 2)
        return HC_OK;
    uint32_t k = hc__bc_nseg(a, n, m, segbytes);
    if (k > b->nseg)
        return hc__error(HC_ERR_INTERNAL, "broadcast planner: %u segments, %u tracked", k, b->nseg);
    return a->run(b, nodes, n, m, segbytes, k, parent);
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

double hc__bc_table1(const hc__bc_classic_t *a, const hc__plogp_t *q, uint64_t s)
{
    uint64_t m = q->pb->msg_bytes;
    if (q->n < 2)
        return 0;
    if (s == 0 || s > m)
        s = m;
    hc__table1_t x;
    x.P = q->n;
    x.L = q->L;
    x.lg = log2(x.P);
    x.k = hc__bc_seg_count(m, s);
    x.gm = hc__plogp_gap(q, m);
    x.gs = hc__plogp_gap(q, s);
    return a->table1(&x);
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

static double predict_1port(const hc__plogp_t *q, const hc__bc_classic_t *a, uint64_t s)
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

void hc__bc_choose(const hc__plogp_t *q, uint64_t fixed_seg, hc__bc_choice_t *best,
                   hc__bc_choice_t *table)
{
    uint64_t m = q->pb->msg_bytes;
    best->algo = &hc__classic_bcast_binomial;
    best->seg = m;
    best->predicted = INFINITY;
    for (int a = 0; a < HC__BC_COUNT; a++) {
        hc__bc_choice_t c = {hc__bc_classics[a], m, INFINITY};
        if (c.algo->segmented) {
            if (fixed_seg > 0) {
                c.seg = fixed_seg < m ? fixed_seg : m;
                c.predicted = predict_1port(q, c.algo, c.seg);
            } else {
                for (uint64_t i = 0; i < 63; i++) {
                    uint64_t s = (m + (1ull << i) - 1) >> i; /* ceil(m / 2^i) */
                    if (s == 0 || (i > 0 && s == ((m + (1ull << (i - 1)) - 1) >> (i - 1))))
                        break;
                    if (hc__bc_seg_count(m, s) > HC__MAX_SEG)
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

/* ---------------------------------------------------------------- classic schedules */

int hc__bcast_classic_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               const hc__bc_classic_t *a, hc_schedule_t **out)
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
    if (a->segmented) {
        if (opts && opts->segment_bytes > 0) {
            seg = opts->segment_bytes;
        } else {
            hc__plogp_t q;
            hc__bc_choice_t best, table[HC__BC_COUNT];
            hc__plogp_init(&q, pb, nodes, P);
            hc__bc_choose(&q, 0, &best, table);
            for (int i = 0; i < HC__BC_COUNT; i++)
                if (hc__bc_classics[i] == a)
                    seg = table[i].seg;
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
            rc = hc_schedule_set_note(s, "%s: %u segments of %llu bytes", a->name, k,
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
