/* openshop: the open shop list heuristic of 000 §4.5 (after Shmoys, Stein & Wein), made
 * event-driven. Every node is a sender and a receiver. Senders are served in increasing order
 * of the time they become free (a heap; ties by node id). A sender free at time t sends to one of
 * its remaining receivers that is already free at t (all such choices start at t; we take the
 * first free one after the sender's id, cyclically, which spreads the load like the
 * caterpillar), or, when none is free, to its remaining receiver that becomes free the earliest.
 * The message starts at max(sender free, receiver free). Zero-cost messages are not sent.
 *
 * Data structures: remaining receivers of each sender and the set of free receivers are bit
 * sets (the free one found by word-wise AND); busy receivers sit in an indexed heap keyed by the
 * time they become free, and the earliest busy receiver among a sender's remaining ones is found
 * by a best-first walk of that heap (stops at the first member). The P^2 messages each cost
 * O(log P) heap work plus O(P/64) words plus the walk, which visits only the busy receivers that
 * free up earlier than the chosen one: O(P^2 log P) in practice (the paper's scan is O(P^3)).
 *
 * Guarantee (Theorem 3): makespan <= 2 LB. The proof holds for this implementation: a sender
 * idles only when every one of its remaining receivers is busy. */
#include <stdlib.h>
#include <string.h>

#include "alltoall_common.h"

typedef struct os_state {
    uint32_t P, W;
    double *ravail;  /* receiver free time */
    uint32_t *bheap; /* busy receivers, min-heap on ravail */
    double *bkey;    /* bkey[k] = ravail[bheap[k]], kept next to the heap for locality */
    uint32_t *bpos;  /* position in bheap, UINT32_MAX when free */
    uint32_t nbusy;
    uint64_t *freeset; /* W words */
    uint32_t *aux;     /* best-first walk: heap positions */
} os_state_t;

static void bh_swap(os_state_t *s, uint32_t a, uint32_t b)
{
    uint32_t x = s->bheap[a], y = s->bheap[b];
    double kx = s->bkey[a];
    s->bheap[a] = y;
    s->bheap[b] = x;
    s->bkey[a] = s->bkey[b];
    s->bkey[b] = kx;
    s->bpos[y] = a;
    s->bpos[x] = b;
}

static int bh_less(const os_state_t *s, uint32_t a, uint32_t b)
{
    double ka = s->bkey[a], kb = s->bkey[b];
    return ka < kb || (ka == kb && s->bheap[a] < s->bheap[b]);
}

static void bh_up(os_state_t *s, uint32_t k)
{
    while (k > 0) {
        uint32_t p = (k - 1) / 2;
        if (!bh_less(s, k, p))
            break;
        bh_swap(s, k, p);
        k = p;
    }
}

static void bh_down(os_state_t *s, uint32_t k)
{
    for (;;) {
        uint32_t l = 2 * k + 1, r = l + 1, m = k;
        if (l < s->nbusy && bh_less(s, l, m))
            m = l;
        if (r < s->nbusy && bh_less(s, r, m))
            m = r;
        if (m == k)
            break;
        bh_swap(s, k, m);
        k = m;
    }
}

static void bh_pop(os_state_t *s)
{
    uint32_t j = s->bheap[0];
    s->nbusy--;
    if (s->nbusy) {
        bh_swap(s, 0, s->nbusy);
        bh_down(s, 0);
    }
    s->bpos[j] = UINT32_MAX;
}

/* Earliest busy receiver that is in the bit set R (UINT32_MAX if none). */
static uint32_t earliest_in(os_state_t *s, const uint64_t *R)
{
    uint32_t na = 0;
    if (!s->nbusy)
        return UINT32_MAX;
    s->aux[na++] = 0;
    while (na) {
        /* pop the smallest heap position by key (aux is a small min-heap of positions) */
        uint32_t best = s->aux[0];
        s->aux[0] = s->aux[--na];
        for (uint32_t k = 0;;) {
            uint32_t l = 2 * k + 1, r = l + 1, m = k;
            if (l < na && bh_less(s, s->aux[l], s->aux[m]))
                m = l;
            if (r < na && bh_less(s, s->aux[r], s->aux[m]))
                m = r;
            if (m == k)
                break;
            uint32_t t = s->aux[k];
            s->aux[k] = s->aux[m];
            s->aux[m] = t;
            k = m;
        }
        uint32_t j = s->bheap[best];
        if (R[j / 64] >> (j % 64) & 1)
            return j;
        for (uint32_t c = 2 * best + 1; c <= 2 * best + 2 && c < s->nbusy; c++) {
            uint32_t k = na++;
            s->aux[k] = c;
            while (k > 0 && bh_less(s, s->aux[k], s->aux[(k - 1) / 2])) {
                uint32_t p = (k - 1) / 2, t = s->aux[k];
                s->aux[k] = s->aux[p];
                s->aux[p] = t;
                k = p;
            }
        }
    }
    return UINT32_MAX;
}

/* Earliest busy receiver in R by a direct scan of R's bits (ties: smallest id). */
static uint32_t earliest_scan(const os_state_t *s, const uint64_t *R, const hc_matrix_t *c,
                              uint32_t i)
{
    (void)c;
    (void)i;
    uint32_t best = UINT32_MAX;
    for (uint32_t w = 0; w < s->W; w++) {
        for (uint64_t m = R[w]; m; m &= m - 1) {
            uint32_t j = w * 64 + (uint32_t)__builtin_ctzll(m);
            if (best == UINT32_MAX || s->ravail[j] < s->ravail[best])
                best = j;
        }
    }
    return best;
}

/* First receiver set in both R and the free set, cyclically from `from`. */
static uint32_t first_free_in(const os_state_t *s, const uint64_t *R, uint32_t from)
{
    uint32_t W = s->W, w0 = from / 64;
    for (uint32_t q = 0, w = w0; q <= W; q++, w = w + 1 == W ? 0 : w + 1) {
        uint64_t m = R[w] & s->freeset[w];
        if (q == 0)
            m &= ~(uint64_t)0 << (from % 64);
        else if (q == W)
            m &= (from % 64) ? ~(~(uint64_t)0 << (from % 64)) : 0;
        if (m)
            return w * 64 + (uint32_t)__builtin_ctzll(m);
    }
    return UINT32_MAX;
}

typedef struct snd {
    double t;
    uint32_t i;
} snd_t;

static int snd_less(snd_t a, snd_t b)
{
    return a.t < b.t || (a.t == b.t && a.i < b.i);
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
    os_state_t s = {0};
    s.P = P;
    s.W = W;
    uint64_t *R = hc__calloc((size_t)P * W, sizeof *R);
    uint32_t *left = hc__calloc(P, sizeof *left);
    snd_t *sh = hc__malloc(P, sizeof *sh);
    s.ravail = hc__calloc(P, sizeof *s.ravail);
    s.bheap = hc__malloc(P, sizeof *s.bheap);
    s.bkey = hc__malloc(P, sizeof *s.bkey);
    s.bpos = hc__malloc(P, sizeof *s.bpos);
    s.freeset = hc__calloc(W, sizeof *s.freeset);
    s.aux = hc__malloc(P + 1, sizeof *s.aux);
    int rc = hc_schedule_create(HC_COLL_ALLTOALL, P, &sched);
    if (rc == HC_OK)
        rc = hc__grow((void **)&sched->events, &sched->cap_events, cap + 1, sizeof *sched->events);
    if (rc != HC_OK)
        goto done;
    if (!R || !left || !sh || !s.ravail || !s.bheap || !s.bkey || !s.bpos || !s.freeset || !s.aux) {
        rc = hc__error(HC_ERR_NOMEM, "openshop: out of memory (P=%u)", P);
        goto done;
    }
    uint32_t nh = 0;
    for (uint32_t i = 0; i < P; i++) {
        s.bpos[i] = UINT32_MAX;
        s.freeset[i / 64] |= (uint64_t)1 << (i % 64);
        for (uint32_t j = 0; j < P; j++) {
            if (hc__a2a_sent(c, i, j)) {
                R[(size_t)i * W + j / 64] |= (uint64_t)1 << (j % 64);
                left[i]++;
            }
        }
        if (left[i])
            sh[nh++] = (snd_t){0, i}; /* all keys 0 and ids increasing: already a heap */
    }
    while (nh) {
        snd_t top = sh[0];
        sh[0] = sh[--nh];
        uint32_t i = top.i;
        double t = top.t;
        while (s.nbusy && s.bkey[0] <= t) {
            uint32_t j = s.bheap[0];
            bh_pop(&s);
            s.freeset[j / 64] |= (uint64_t)1 << (j % 64);
        }
        uint64_t *Ri = R + (size_t)i * W;
        uint32_t j = first_free_in(&s, Ri, (i + 1) % P);
        double start = t;
        if (j == UINT32_MAX) {
            /* All remaining receivers are busy. Few of them: scan their free times; many: walk
             * the busy heap in time order, which meets one of them after ~P/left[i] steps (a
             * scan step costs far less than a walk step, hence the factor 16, tuned at P = 1024).
             */
            if ((double)left[i] * left[i] <= 16.0 * P)
                j = earliest_scan(&s, Ri, c, i);
            else
                j = earliest_in(&s, Ri);
            if (j == UINT32_MAX) {
                rc = hc__error(HC_ERR_INTERNAL, "openshop: sender %u has no receiver left", i);
                goto done;
            }
            start = s.ravail[j];
        }
        /* Restore the sender heap only now: its ~log2(P) levels of work overlap the cache miss
         * on C[i][j], the costliest single access (measured: -17 % at P = 1024). */
#if defined(__GNUC__)
        __builtin_prefetch(&HC_AT(c, i, j));
#endif
        for (uint32_t k = 0;;) {
            uint32_t l = 2 * k + 1, r = l + 1, m = k;
            if (l < nh && snd_less(sh[l], sh[m]))
                m = l;
            if (r < nh && snd_less(sh[r], sh[m]))
                m = r;
            if (m == k)
                break;
            snd_t tmp = sh[k];
            sh[k] = sh[m];
            sh[m] = tmp;
            k = m;
        }
        double end = start + HC_AT(c, i, j);
        /* the event's times are those of the replay rule: start = max(end of i's previous
         * send, end of j's previous receive) */
        hc_event_t *e = &sched->events[sched->n_events++];
        memset(e, 0, sizeof *e);
        e->src = i;
        e->dst = j;
        e->start = start;
        e->end = end;
        e->bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, i, j) : pb->msg_bytes;
        s.ravail[j] = end;
        if (s.bpos[j] == UINT32_MAX) {
            s.freeset[j / 64] &= ~((uint64_t)1 << (j % 64));
            s.bheap[s.nbusy] = j;
            s.bkey[s.nbusy] = end;
            s.bpos[j] = s.nbusy++;
            bh_up(&s, s.bpos[j]);
        } else {
            s.bkey[s.bpos[j]] = end;
            bh_down(&s, s.bpos[j]);
        }
        Ri[j / 64] &= ~((uint64_t)1 << (j % 64));
        if (--left[i]) {
            uint32_t k = nh++;
            sh[k] = (snd_t){end, i};
            while (k > 0 && snd_less(sh[k], sh[(k - 1) / 2])) {
                uint32_t p = (k - 1) / 2;
                snd_t tmp = sh[k];
                sh[k] = sh[p];
                sh[p] = tmp;
                k = p;
            }
        }
    }
    sched->lower_bound = hc__a2a_lower_bound(c);
    hc_schedule_finish(sched);
    *out = sched;
    sched = NULL;
done:
    hc_schedule_destroy(sched);
    free(R), free(left), free(sh), free(s.ravail), free(s.bheap), free(s.bkey), free(s.bpos);
    free(s.freeset), free(s.aux);
    return rc;
}
