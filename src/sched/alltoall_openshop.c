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
 * Data structures: ONE heap of the messages in flight, keyed by (end, sender):
 * popping it serves the senders in order and frees the receivers (a receiver is
 * free again when the message that ends its last scheduled receive ends); it
 * holds at most P entries (one per sender). Each sender's remaining receivers
 * and the set of free receivers are bit sets (the free one found by word-wise
 * AND). When none of a sender's receivers is free, the earliest one is found by
 * a direct scan of its remaining set when that is small (|R|^2 <= 16 P), else
 * by a best-first walk of the heap in time order that stops at the first
 * message ending the last receive of one of them (~P/|R| steps). Per message:
 * one pop and one push (O(log P)), O(P/64) words, and the scan/walk: O(P^2 log
 * P) in practice (the paper's scan is O(P^3)).
 *
 * Guarantee (Theorem 3): makespan <= 2 LB. The proof holds for this
 * implementation: a sender idles only when every one of its remaining receivers
 * is busy. */
#include <stdlib.h>
#include <string.h>

#include "alltoall_common.h"

/* A message in flight (or, with dst == UINT32_MAX, a sender ready at time 0).
 */
typedef struct fl {
    double end;
    uint32_t src, dst;
} fl_t;

static int fl_less(const fl_t *a, const fl_t *b)
{
    return a->end < b->end || (a->end == b->end && a->src < b->src);
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

static fl_t fl_pop(fl_t *h, uint32_t *n)
{
    fl_t top = h[0], x = h[--*n];
    uint32_t k = 0, m = *n;
    for (;;) {
        uint32_t l = 2 * k + 1, r = l + 1, c = k;
        const fl_t *best = &x;
        if (l < m && fl_less(&h[l], best)) {
            c = l;
            best = &h[l];
        }
        if (r < m && fl_less(&h[r], best))
            c = r;
        if (c == k)
            break;
        h[k] = h[c];
        k = c;
    }
    if (m)
        h[k] = x;
    return top;
}

/* Earliest receiver of R that is busy: walk the heap of messages in flight in
 * time order (a small best-first heap of positions) and stop at the first one
 * that ends the last scheduled receive of a member of R. UINT32_MAX if none. */
static uint32_t earliest_walk(const fl_t *h, uint32_t n, const double *ravail, const uint64_t *R,
                              uint32_t *aux)
{
    uint32_t na = 0;
    if (!n)
        return UINT32_MAX;
    aux[na++] = 0;
    while (na) {
        uint32_t best = aux[0];
        aux[0] = aux[--na];
        for (uint32_t k = 0;;) {
            uint32_t l = 2 * k + 1, r = l + 1, m = k;
            if (l < na && fl_less(&h[aux[l]], &h[aux[m]]))
                m = l;
            if (r < na && fl_less(&h[aux[r]], &h[aux[m]]))
                m = r;
            if (m == k)
                break;
            uint32_t t = aux[k];
            aux[k] = aux[m];
            aux[m] = t;
            k = m;
        }
        uint32_t j = h[best].dst;
        if (j != UINT32_MAX && (R[j / 64] >> (j % 64) & 1) && ravail[j] == h[best].end)
            return j;
        for (uint32_t c = 2 * best + 1; c <= 2 * best + 2 && c < n; c++) {
            uint32_t k = na++;
            aux[k] = c;
            while (k > 0 && fl_less(&h[aux[k]], &h[aux[(k - 1) / 2]])) {
                uint32_t p = (k - 1) / 2, t = aux[k];
                aux[k] = aux[p];
                aux[p] = t;
                k = p;
            }
        }
    }
    return UINT32_MAX;
}

/* Earliest busy receiver of R by a direct scan of R's bits (ties: smallest id).
 */
static uint32_t earliest_scan(const uint64_t *R, uint32_t W, const double *ravail)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t w = 0; w < W; w++) {
        for (uint64_t m = R[w]; m; m &= m - 1) {
            uint32_t j = w * 64 + (uint32_t)__builtin_ctzll(m);
            if (best == UINT32_MAX || ravail[j] < ravail[best])
                best = j;
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

int hc__algo_alltoall_openshop(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out);
int hc__algo_alltoall_openshop(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                               hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    const hc_matrix_t *c = pb->costs;
    uint32_t P = pb->P, W = (P + 63) / 64;
    size_t cap = hc__a2a_count(c);
    hc_schedule_t *sched = NULL;
    uint64_t *R = hc__calloc((size_t)P * W, sizeof *R);
    uint64_t *F = hc__calloc(W, sizeof *F);
    uint32_t *left = hc__calloc(P, sizeof *left);
    uint32_t *batch = hc__malloc(P, sizeof *batch);
    uint32_t *aux = hc__malloc(P + 1, sizeof *aux);
    double *ravail = hc__calloc(P, sizeof *ravail);
    fl_t *h = hc__malloc(P, sizeof *h);
    int rc = hc_schedule_create(HC_COLL_ALLTOALL, P, &sched);
    if (rc == HC_OK)
        rc = hc__grow((void **)&sched->events, &sched->cap_events, cap + 1, sizeof *sched->events);
    if (rc != HC_OK)
        goto done;
    if (!R || !F || !left || !batch || !aux || !ravail || !h) {
        rc = hc__error(HC_ERR_NOMEM, "openshop: out of memory (P=%u)", P);
        goto done;
    }
    uint32_t nh = 0;
    for (uint32_t i = 0; i < P; i++) {
        F[i / 64] |= (uint64_t)1 << (i % 64);
        for (uint32_t j = 0; j < P; j++) {
            if (hc__a2a_sent(c, i, j)) {
                R[(size_t)i * W + j / 64] |= (uint64_t)1 << (j % 64);
                left[i]++;
            }
        }
        if (left[i])
            h[nh++] = (fl_t){0, i, UINT32_MAX}; /* keys 0, ids increasing: already a heap */
    }
    while (nh) {
        /* every message ending at the earliest time t: free its receiver (when it
         * was the receiver's last scheduled receive), then serve its sender, in
         * sender order */
        double t = h[0].end;
        uint32_t nb = 0;
        while (nh && h[0].end == t) {
            fl_t e = fl_pop(h, &nh);
            if (e.dst != UINT32_MAX && ravail[e.dst] == t)
                F[e.dst / 64] |= (uint64_t)1 << (e.dst % 64);
            if (left[e.src])
                batch[nb++] = e.src;
        }
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t i = batch[b];
            uint64_t *Ri = R + (size_t)i * W;
            uint32_t j = first_free_in(Ri, F, W, (i + 1) % P);
            double start = t;
            if (j == UINT32_MAX) {
                /* all remaining receivers busy: few of them, scan; many, walk the heap
                 * (a scan step costs far less than a walk step, hence the factor 16,
                 * tuned at P = 1024) */
                if ((double)left[i] * left[i] <= 16.0 * P)
                    j = earliest_scan(Ri, W, ravail);
                else
                    j = earliest_walk(h, nh, ravail, Ri, aux);
                if (j == UINT32_MAX) {
                    rc = hc__error(HC_ERR_INTERNAL, "openshop: sender %u has no receiver left", i);
                    goto done;
                }
                start = ravail[j];
            } else {
                F[j / 64] &= ~((uint64_t)1 << (j % 64));
            }
#if defined(__GNUC__)
            __builtin_prefetch(&HC_AT(c, i, j)); /* the costliest access: start it early */
#endif
            Ri[j / 64] &= ~((uint64_t)1 << (j % 64));
            left[i]--;
            hc_event_t *e = &sched->events[sched->n_events++];
            memset(e, 0, sizeof *e);
            e->src = i;
            e->dst = j;
            e->start = start;
            e->bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, i, j) : pb->msg_bytes;
            /* the event's times are those of the replay rule: start = max(end of i's
             * previous send, end of j's previous receive) */
            double end = start + HC_AT(c, i, j);
            e->end = end;
            ravail[j] = end;
            fl_push(h, &nh, (fl_t){end, i, j});
#if defined(__GNUC__)
            /* The cost load misses the cache; guess i's next receiver now (the first
             * free one after i) so that its cost line is near by the time i is served
             * again, ~P events later. A wrong guess costs one useless prefetch. */
            if (left[i]) {
                uint32_t g = first_free_in(Ri, F, W, (i + 1) % P);
                if (g != UINT32_MAX)
                    __builtin_prefetch(&HC_AT(c, i, g));
            }
#endif
        }
    }
    sched->lower_bound = hc__a2a_lower_bound(c);
    hc_schedule_finish(sched);
    *out = sched;
    sched = NULL;
done:
    hc_schedule_destroy(sched);
    free(R), free(F), free(left), free(batch), free(aux), free(ravail), free(h);
    return rc;
}
