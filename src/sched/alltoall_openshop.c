/* openshop: the open shop list heuristic of 000 §4.5 (after Shmoys, Stein &
 * Wein), made event-driven. Every node is a sender and a receiver. Senders are
 * served in increasing order of the time they become free (ties by node id). A
 * sender free at time t sends to one of its remaining receivers that is already
 * free at t (all such choices start at t; we take the first free one after the
 * sender's id, cyclically, which spreads the load like the caterpillar), or,
 * when none is free, to its remaining receiver that becomes free the earliest.
 * The message starts at max(sender free, receiver free). Zero-cost messages are
 * not sent.
 *
 * Data structures: ONE binary heap of the messages in flight, keyed by (end,
 * sender) with the end's bits as an integer: popping it serves the senders in
 * order and frees the receivers (a receiver is free again when the message that
 * ends its last scheduled receive ends); it holds at most P entries (one per
 * sender). Each sender's remaining receivers are a bit set; the free receivers
 * are a bit set and a list (a few free ones are checked one by one, many by
 * word-wise AND). When none of a sender's receivers is free, the earliest one
 * is found by a direct scan of its remaining set when that is small (|R|^2 <=
 * 16 P), else by a pruned depth-first walk of the heap that mostly visits the
 * ~P/|R| messages ending before the answer. Per message: one pop and one push
 * (O(log P)), O(min(free, P/64)) words, and the scan/walk: O(P^2 log P) in
 * practice (the paper's scan is O(P^3)). Each message's receiver is found one
 * message ahead so that its cost (a cache miss) is prefetched; see the
 * look-ahead comment in the loop. P = 1024: ~0.13 s (docs/design.md).
 *
 * Guarantee (Theorem 3): makespan <= 2 LB. The proof holds for this
 * implementation: a sender idles only when every one of its remaining receivers
 * is busy. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "algos.h"
#include "alltoall_kit.h"

/* A message in flight (or, with dst == UINT32_MAX, a sender ready at time 0),
 * keyed by (end, src). key holds the bits of end: the times are >= 0 and not
 * NaN, so the order of the bits as integers is the order of the times (and
 * equal bits are equal times), which makes every comparison an integer one. */
typedef struct fl {
    uint64_t key;
    uint32_t src, dst;
} fl_t;

static inline uint64_t t_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double t_val(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline int fl_less(const fl_t *a, const fl_t *b)
{
    return (a->key < b->key) | ((a->key == b->key) & (a->src < b->src));
}

static void fl_push(fl_t *h, uint32_t *n, fl_t x)
{
    uint32_t k = (*n)++;
    while (k > 0) {
        uint32_t p = (k - 1) / 2;
        if (!fl_less(&x, &h[p]))
            break;
        h[k] = h[p];
        k = p;
    }
    h[k] = x;
}

/* Bottom-up: the hole left by the top goes down to a leaf along the smaller
 * children (one comparison per level, no branch on it), then the last entry,
 * which belongs near the bottom, rises from there. */
static fl_t fl_pop(fl_t *h, uint32_t *n)
{
    fl_t top = h[0];
    uint32_t m = --*n, k = 0;
    if (!m)
        return top;
    fl_t x = h[m];
    for (;;) {
        uint32_t l = 2 * k + 1;
        if (l + 1 < m) {
            uint32_t c = l + (uint32_t)fl_less(&h[l + 1], &h[l]);
            h[k] = h[c];
            k = c;
        } else {
            if (l < m) {
                h[k] = h[l];
                k = l;
            }
            break;
        }
    }
    while (k > 0) {
        uint32_t p = (k - 1) / 2;
        if (!fl_less(&x, &h[p]))
            break;
        h[k] = h[p];
        k = p;
    }
    h[k] = x;
    return top;
}

/* Earliest receiver of R that is busy: the first message in flight, in (end,
 * src) order, that ends the last scheduled receive of a member of R (*at = its
 * position). A depth-first walk of the heap, smaller child first, that prunes
 * every subtree not before the best match so far (the heap order bounds a
 * subtree by its root), so it mostly visits the messages before the answer.
 * UINT32_MAX if none. stk: room for P + 1 positions. */
static uint32_t earliest_walk(const fl_t *h, uint32_t n, const uint64_t *rav, const uint64_t *R,
                              uint32_t *stk, uint32_t *at)
{
    uint32_t ns = 0, best = UINT32_MAX;
    if (!n)
        return UINT32_MAX;
    stk[ns++] = 0;
    while (ns) {
        uint32_t k = stk[--ns];
        if (best != UINT32_MAX && !fl_less(&h[k], &h[best]))
            continue;
        uint32_t j = h[k].dst;
        if (j != UINT32_MAX && (R[j / 64] >> (j % 64) & 1) && rav[j] == h[k].key) {
            best = k;
            continue;
        }
        uint32_t l = 2 * k + 1;
        if (l + 1 < n) {
            uint32_t sm = l + (uint32_t)fl_less(&h[l + 1], &h[l]);
            stk[ns++] = 2 * l + 1 - sm; /* the other child, visited after */
            stk[ns++] = sm;
        } else if (l < n) {
            stk[ns++] = l;
        }
    }
    if (best == UINT32_MAX)
        return UINT32_MAX;
    *at = best;
    return h[best].dst;
}

/* Earliest busy receiver of R by a direct scan of R's bits (ties: smallest id).
 */
static uint32_t earliest_scan(const uint64_t *R, uint32_t W, const uint64_t *rav)
{
    uint32_t best = UINT32_MAX;
    uint64_t bv = UINT64_MAX; /* above every time's bits */
    for (uint32_t w = 0; w < W; w++) {
        for (uint64_t m = R[w]; m; m &= m - 1) {
            uint32_t j = w * 64 + (uint32_t)__builtin_ctzll(m);
            uint64_t v = rav[j];
            int lt = v < bv;
            best = lt ? j : best;
            bv = lt ? v : bv;
        }
    }
    return best;
}

/* First receiver set in both R and F, cyclically from `from`. */
static uint32_t first_free_in(const uint64_t *R, const uint64_t *F, uint32_t W, uint32_t from)
{
    uint32_t w0 = from / 64;
    for (uint32_t q = 0, w = w0; q <= W; q++, w = w + 1 == W ? 0 : w + 1) {
        uint64_t m = R[w] & F[w];
        if (q == 0)
            m &= ~(uint64_t)0 << (from % 64);
        else if (q == W)
            m &= (from % 64) ? ~(~(uint64_t)0 << (from % 64)) : 0;
        if (m)
            return w * 64 + (uint32_t)__builtin_ctzll(m);
    }
    return UINT32_MAX;
}

/* The set of free receivers: the bit set F, and the same as a list (ids[0..n),
 * pos[j] = index of j) so that a small set is searched without scanning P
 * bits. */
typedef struct freeset {
    uint64_t *F;
    uint32_t *ids, *pos, n;
    uint64_t ver; /* number of changes */
} freeset_t;

static inline void fs_add(freeset_t *s, uint32_t j)
{
    if (s->F[j / 64] >> (j % 64) & 1)
        return;
    s->F[j / 64] |= (uint64_t)1 << (j % 64);
    s->ver++;
    s->pos[j] = s->n;
    s->ids[s->n++] = j;
}

static inline void fs_del(freeset_t *s, uint32_t j)
{
    s->F[j / 64] &= ~((uint64_t)1 << (j % 64));
    s->ver++;
    uint32_t k = s->pos[j], last = s->ids[--s->n];
    s->ids[k] = last;
    s->pos[last] = k;
}

/* first_free_in(R, F, ...) plus the receiver x (UINT32_MAX: none) counted as
 * free: the member of R and F, or x when in R, nearest cyclically from `from`. */
static uint32_t first_free(const uint64_t *R, const freeset_t *s, uint32_t W, uint32_t P,
                           uint32_t from, uint32_t x)
{
    if (s->n > 8) {
        uint32_t g = first_free_in(R, s->F, W, from);
        if (x == UINT32_MAX || !(R[x / 64] >> (x % 64) & 1))
            return g;
        if (g == UINT32_MAX)
            return x;
        uint32_t dg = g >= from ? g - from : g + P - from, dx = x >= from ? x - from : x + P - from;
        return dx < dg ? x : g;
    }
    uint32_t best = UINT32_MAX, bd = UINT32_MAX;
    for (uint32_t k = 0; k <= s->n; k++) {
        uint32_t f = k < s->n ? s->ids[k] : x;
        if (f == UINT32_MAX || !(R[f / 64] >> (f % 64) & 1))
            continue;
        uint32_t d = f >= from ? f - from : f + P - from;
        if (d < bd) {
            bd = d;
            best = f;
        }
    }
    return best;
}

/* The earliest busy receiver of R (a sender with `left` receivers, none free):
 * a direct scan when few remain (|R|^2 <= 16 P; a scan step costs far less
 * than a walk step, hence the factor 16, tuned at P = 1024), else the heap
 * walk. mkey, msrc: the key of the choice (ravail, and UINT32_MAX for the
 * scan; the matching message's (end, src) for the walk), used to update the
 * choice when one more message has been scheduled (the look-ahead). */
static uint32_t earliest_busy(const fl_t *h, uint32_t nh, const uint64_t *rav, const uint64_t *R,
                              uint32_t W, uint32_t left, uint32_t P, uint32_t *aux, uint64_t *mkey,
                              uint32_t *msrc)
{
    if ((double)left * left <= 16.0 * P) {
        uint32_t j = earliest_scan(R, W, rav);
        if (j != UINT32_MAX) {
            *mkey = rav[j];
            *msrc = UINT32_MAX;
        }
        return j;
    }
    uint32_t at = 0, j = earliest_walk(h, nh, rav, R, aux, &at);
    if (j != UINT32_MAX) {
        *mkey = h[at].key;
        *msrc = h[at].src;
    }
    return j;
}

int hc__algo_alltoall_openshop(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    const hc_matrix_t *c = pb->costs;
    const hc_matrix_t *sz = pb->sizes;
    uint32_t P = pb->P, W = (P + 63) / 64;
    hc_schedule_t *sched = NULL;
    uint64_t *R = hc__calloc((size_t)P * W, sizeof *R);
    uint64_t *F = hc__calloc(W, sizeof *F);
    uint32_t *fids = hc__malloc(P, sizeof *fids), *fpos = hc__malloc(P, sizeof *fpos);
    uint32_t *left = hc__calloc(P, sizeof *left);
    uint32_t *batch = hc__malloc(P, sizeof *batch);
    uint32_t *aux = hc__malloc(P + 1, sizeof *aux);
    uint64_t *rav = hc__calloc(P, sizeof *rav); /* bits of each receiver's free time */
    double *recv = hc__calloc(P, sizeof *recv);
    fl_t *h = hc__malloc(P, sizeof *h);
    int rc = hc_schedule_create(HC_COLL_ALLTOALL, P, &sched);
    if (rc != HC_OK)
        goto done;
    if (!R || !F || !fids || !fpos || !left || !batch || !aux || !rav || !recv || !h) {
        rc = hc__error(HC_ERR_NOMEM, "openshop: out of memory (P=%u)", P);
        goto done;
    }
    /* One pass over the costs: remaining receivers, message count and the lower
     * bound of hc__a2a_lower_bound (each receive total summed in the same order,
     * so the same bits). */
    freeset_t fs = {F, fids, fpos, 0, 0};
    uint32_t nh = 0;
    size_t cap = 0;
    double lb = 0;
    for (uint32_t i = 0; i < P; i++) {
        const double *row = &HC_AT(c, i, 0);
        uint64_t *Ri = R + (size_t)i * W;
        double send = 0;
        fs_add(&fs, i);
        for (uint32_t j = 0; j < P; j++) {
            double v = row[j];
            if (j != i && v > 0) {
                Ri[j / 64] |= (uint64_t)1 << (j % 64);
                left[i]++;
                send += v;
                recv[j] += v;
            }
        }
        cap += left[i];
        if (send > lb)
            lb = send;
        if (left[i])
            h[nh++] = (fl_t){0, i, UINT32_MAX}; /* keys 0, ids increasing: already a heap */
    }
    for (uint32_t j = 0; j < P; j++)
        if (recv[j] > lb)
            lb = recv[j];
    rc = hc__grow((void **)&sched->events, &sched->cap_events, cap + 1, sizeof *sched->events);
    if (rc != HC_OK)
        goto done;
    hc_event_t *ev = sched->events;
#if defined(MADV_HUGEPAGE)
    {
        /* 48 MB of fresh events at P = 1024: 2 MB pages fault 500 times less
         * often than 4 kB ones (a hint; failure is harmless) */
        uintptr_t lo = ((uintptr_t)ev + 0x1fffff) & ~(uintptr_t)0x1fffff;
        uintptr_t hi = (uintptr_t)(ev + cap) & ~(uintptr_t)0x1fffff;
        if (hi > lo)
            (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#endif
    size_t ne = 0;
    double mk = 0;
    /* Look-ahead: the cost load of a message misses the cache (8 MB at P = 1024,
     * near-random order), so each message's receiver is found one message
     * early, while the previous message's cost is loading, and its cost is
     * prefetched. The result (spec_*) is used when exactly one message,
     * prev_i -> prev_j ending at prev_key, was scheduled in between:
     * - the first free receiver, when the free set has had exactly the expected
     *   changes since (spec_ver: the receiver freed by the next pop);
     * - the earliest busy one (spec_busy), corrected for prev_j, the only
     *   receiver whose free time that message changed. */
    uint32_t spec_i = UINT32_MAX, spec_free = 0, spec_busy = 0, spec_src = 0;
    uint32_t prev_i = 0, prev_j = 0;
    uint64_t spec_key = 0, prev_key = 0, spec_ver = 0;
    size_t spec_at = 0;
    while (nh) {
        /* every message ending at the earliest time t: free its receiver (when it
         * was the receiver's last scheduled receive), then serve its sender, in
         * sender order */
        uint64_t t = h[0].key;
        uint32_t nb = 0;
        while (nh && h[0].key == t) {
            fl_t e = fl_pop(h, &nh);
            if (e.dst != UINT32_MAX && rav[e.dst] == t)
                fs_add(&fs, e.dst);
            if (left[e.src])
                batch[nb++] = e.src;
        }
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t i = batch[b];
            uint64_t *Ri = R + (size_t)i * W;
            int sp = spec_i == i && spec_at == ne;
            uint32_t j = sp && fs.ver == spec_ver
                             ? spec_free
                             : first_free(Ri, &fs, W, P, (i + 1) % P, UINT32_MAX);
            uint64_t skey = t;
            if (j == UINT32_MAX) {
                /* all remaining receivers busy: the earliest one */
                if (sp && spec_busy != UINT32_MAX) {
                    j = spec_busy;
                    if (Ri[prev_j / 64] >> (prev_j % 64) & 1) {
                        /* prev_j is now busy until prev_key (its last receive) */
                        if (spec_src == UINT32_MAX ? prev_key < spec_key || (prev_key == spec_key &&
                                                                             prev_j < spec_busy)
                                                   : prev_key < spec_key || (prev_key == spec_key &&
                                                                             prev_i < spec_src))
                            j = prev_j;
                    }
                } else {
                    uint64_t k0;
                    uint32_t s0;
                    j = earliest_busy(h, nh, rav, Ri, W, left[i], P, aux, &k0, &s0);
                }
                if (j == UINT32_MAX) {
                    rc = hc__error(HC_ERR_INTERNAL, "openshop: sender %u has no receiver left", i);
                    goto done;
                }
                skey = rav[j];
            } else {
                fs_del(&fs, j);
            }
            Ri[j / 64] &= ~((uint64_t)1 << (j % 64));
            left[i]--;
            /* the next sender served, unless this message ends first: the next of
             * the batch, else the heap's first (whose receiver its pop frees) */
            spec_i = UINT32_MAX;
            uint32_t ni = b + 1 < nb ? batch[b + 1] : nh ? h[0].src : UINT32_MAX;
            if (ni != UINT32_MAX && left[ni]) {
                const uint64_t *Rn = R + (size_t)ni * W;
                uint32_t d = UINT32_MAX;
                if (b + 1 >= nb && h[0].dst != UINT32_MAX && rav[h[0].dst] == h[0].key &&
                    !(F[h[0].dst / 64] >> (h[0].dst % 64) & 1))
                    d = h[0].dst;
                uint32_t g = first_free(Rn, &fs, W, P, (ni + 1) % P, d);
                spec_i = ni;
                spec_at = ne + 1;
                spec_free = g;
                spec_ver = d == j ? UINT64_MAX : fs.ver + (d != UINT32_MAX);
                spec_busy = UINT32_MAX;
                if (g == UINT32_MAX) {
                    g = earliest_busy(h, nh, rav, Rn, W, left[ni], P, aux, &spec_key, &spec_src);
                    if (g != j)
                        spec_busy = g;
                }
#if defined(__GNUC__)
                if (g != UINT32_MAX) {
                    __builtin_prefetch(&HC_AT(c, ni, g));
                    if (sz)
                        __builtin_prefetch(&HC_AT(sz, ni, g));
                }
#endif
            }
            /* the event's times are those of the replay rule: start = max(end of i's
             * previous send, end of j's previous receive) */
            double start = t_val(skey), end = start + HC_AT(c, i, j);
            uint64_t ekey = t_bits(end);
            ev[ne++] = (hc_event_t){.src = i,
                                    .dst = j,
                                    .start = start,
                                    .end = end,
                                    .bytes = sz ? (uint64_t)HC_AT(sz, i, j) : pb->msg_bytes};
            if (end > mk)
                mk = end;
            rav[j] = ekey;
            fl_push(h, &nh, (fl_t){ekey, i, j});
            prev_i = i;
            prev_j = j;
            prev_key = ekey;
        }
    }
    sched->n_events = ne;
    sched->lower_bound = lb;
    sched->makespan = mk; /* what hc_schedule_finish computes */
    *out = sched;
    sched = NULL;
done:
    hc_schedule_destroy(sched);
    free(R), free(F), free(fids), free(fpos), free(left), free(batch), free(aux), free(rav),
        free(recv), free(h);
    return rc;
}
