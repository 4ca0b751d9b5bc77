/* `rounds` broadcast: the message cut into pieces that spread in rounds; in each round every
 * node holding a piece sends one to a node lacking it and every node receives at most one,
 * rarest piece first, so that the NICs work in every round. k pieces need at least
 * k - 1 + ceil(log2 P) rounds (the root sends one piece per round and the last one at most
 * doubles its holders per round; Bar-Noy, Kipnis & Schieber 2000). A pipeline chain takes
 * k + P - 2 rounds and the two-tree about k + 2 log2 P; this greedy stays within a few rounds
 * of the bound (24 nodes, 12 pieces: 17 rounds against 16). For short messages, where the
 * log2 P term dominates: 64 KiB on 24 nodes of a non-blocking cluster under SimGrid's
 * factors, 1.14 ms predicted against the two-tree's 1.41 ms. With many pieces the rounds drift
 * apart in execution and nodes receive two pieces at once (1 MiB there in 5776 B pieces:
 * 15.8 ms against the pipeline's 10.8 ms), hence the cap on the pieces below.
 *
 * Decisions:
 *   - ranks: root, root + 1, ... (mod P), like the classics;
 *   - pieces: opts->segment_bytes, else the size ceil(m / 2^i) whose schedule the 1-port
 *     replay finishes first, with at most HC__ROUNDS_PIECES_PER_LOG x ceil(log2 P) pieces
 *     (a forced size above that: HC_ERR_UNSUPPORTED, which `auto` skips; the pipeline and
 *     the two-tree serve long streams);
 *   - senders of a round: the root first, then the nodes holding the most pieces (rank order
 *     on ties), so that nodes able to serve many receivers choose first;
 *   - each sender sends to the free receiver (not receiving yet this round, missing a piece)
 *     for which the rarest piece the sender holds and the receiver lacks is rarest (holders,
 *     counting this round's transfers), then the receiver holding the fewest pieces, then
 *     rank; the piece is that rarest one (lowest index on ties), so the newest pieces double
 *     their holders every round the way a binomial tree does;
 *   - links (platforms with routes): a round admits on each shared link, or each direction of
 *     a split-duplex one, floor(its capacity / the pair's bottleneck) transfers, at least one
 *     (a fat tree's 250 MB/s rack uplink: two 125 MB/s NICs; 64 KiB on the 3:1 fat tree:
 *     1.52 ms predicted with the limit, 1.95 ms without); fat pipes admit any number;
 *   - a piece received in a round is sent from the next round on; the transfers go to the
 *     1-port builder round by round (a topological order), so the planned times are the
 *     simulator's replay and every node sends in the rounds' order.
 * Complexity: O(rounds x P^2 x k / 64) per schedule (bitsets), rounds < k + P; `auto` skips it
 * on more than 128 nodes (algos.def). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"
#include "hetcoll/links.h"

/* Pieces per ceil(log2 P) at most (see above). */
#define HC__ROUNDS_PIECES_PER_LOG 4u

typedef struct {
    uint32_t u, v, q;
} xfer_t;

typedef struct {
    uint32_t n, k;
    size_t words;      /* 64-bit words per node's holdings */
    uint64_t *have;    /* n x words */
    uint32_t *holders; /* k: nodes holding piece q, with this round's transfers */
    uint32_t *count;   /* n: pieces held */
    uint64_t *order;   /* n: the round's senders as sort keys (fewest missing, rank) */
    unsigned char *busy;
    /* pair (u, v)'s resources res[off[u n + v] ..], each admitting `slots` transfers of the
     * pair per round; use: transfers on each resource this round (NULL: no routes) */
    size_t *off;
    uint32_t *res, *slots, *use;
    size_t n_res;
} state_t;

static void state_free(state_t *st)
{
    free(st->have);
    free(st->holders);
    free(st->count);
    free(st->order);
    free(st->busy);
    free(st->off);
    free(st->res);
    free(st->slots);
    free(st->use);
}

/* The resources of the pairs' routes (see "links" above). */
static int links_init(state_t *st, const hc_platform_t *p, const uint32_t *nodes)
{
    const uint32_t n = st->n;
    if (!p || !hc_platform_has_routes(p))
        return HC_OK;
    st->off = hc__calloc((size_t)n * n + 1, sizeof *st->off);
    if (!st->off)
        return hc__error(HC_ERR_NOMEM, "out of memory in the rounds broadcast");
    size_t cap = 0;
    hc_hop_t *h = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (uint32_t u = 0; u < n; u++)
            for (uint32_t v = 0; v < n; v++) {
                st->off[(size_t)u * n + v] = at;
                size_t nh = u == v ? 0 : hc_platform_route(p, nodes[u], nodes[v], NULL, 0);
                if (nh > cap) {
                    free(h);
                    cap = nh;
                    if (!(h = hc__malloc(cap, sizeof *h)))
                        return hc__error(HC_ERR_NOMEM, "out of memory in the rounds broadcast");
                }
                if (nh)
                    hc_platform_route(p, nodes[u], nodes[v], h, cap);
                const double bw = hc_platform_bandwidth(p, nodes[u], nodes[v]);
                for (size_t i = 0; i < nh; i++) {
                    hc_link_sharing_t sh = hc_platform_link_sharing(p, h[i].link);
                    if (sh == HC_LINK_FATPIPE)
                        continue;
                    if (pass) {
                        double r = hc_platform_link_bandwidth(p, h[i].link) / bw;
                        st->res[at] = 2 * h[i].link + (sh == HC_LINK_SHARED ? 0 : h[i].down);
                        st->slots[at] = r >= 2 && r < 65536 ? (uint32_t)r : r >= 65536 ? 65536 : 1;
                    }
                    at++;
                }
            }
        st->off[(size_t)n * n] = at;
        if (!pass) {
            st->n_res = 2 * (size_t)hc_platform_link_count(p);
            st->res = hc__malloc(at + 1, sizeof *st->res);
            st->slots = hc__malloc(at + 1, sizeof *st->slots);
            st->use = hc__calloc(st->n_res + 1, sizeof *st->use);
            if (!st->res || !st->slots || !st->use) {
                free(h);
                return hc__error(HC_ERR_NOMEM, "out of memory in the rounds broadcast");
            }
        }
    }
    free(h);
    return HC_OK;
}

/* 1 when the links of u -> v admit one more transfer this round. */
static int admits(const state_t *st, uint32_t u, uint32_t v)
{
    if (!st->use)
        return 1;
    const size_t k = (size_t)u * st->n + v;
    for (size_t i = st->off[k]; i < st->off[k + 1]; i++)
        if (st->use[st->res[i]] >= st->slots[i])
            return 0;
    return 1;
}

static void take(state_t *st, uint32_t u, uint32_t v)
{
    if (!st->use)
        return;
    const size_t k = (size_t)u * st->n + v;
    for (size_t i = st->off[k]; i < st->off[k + 1]; i++)
        st->use[st->res[i]]++;
}

/* The rarest piece u holds and v lacks (UINT32_MAX: none). */
static uint32_t rarest(const state_t *st, uint32_t u, uint32_t v)
{
    const uint64_t *a = st->have + (size_t)u * st->words, *b = st->have + (size_t)v * st->words;
    uint32_t best = UINT32_MAX;
    for (size_t w = 0; w < st->words; w++)
        for (uint64_t x = a[w] & ~b[w]; x; x &= x - 1) {
            uint32_t q = (uint32_t)(w * 64) + (uint32_t)__builtin_ctzll(x);
            if (best == UINT32_MAX || st->holders[q] < st->holders[best])
                best = q;
        }
    return best;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* One round's transfers into plan (at most n); returns how many. */
static uint32_t round_plan(state_t *st, xfer_t *plan)
{
    const uint32_t n = st->n, k = st->k;
    for (uint32_t v = 0; v < n; v++) /* the root (key 0) first */
        st->order[v] = v ? (uint64_t)(k + 1 - st->count[v]) << 32 | v : 0;
    qsort(st->order, n, sizeof *st->order, cmp_u64);
    memset(st->busy, 0, n);
    if (st->use)
        memset(st->use, 0, st->n_res * sizeof *st->use);
    uint32_t np = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t u = (uint32_t)st->order[i];
        if (st->count[u] == 0)
            break; /* the rest hold nothing either */
        uint32_t bv = UINT32_MAX, bq = UINT32_MAX;
        for (uint32_t v = 0; v < n; v++) {
            if (v == u || st->busy[v] || st->count[v] == k || !admits(st, u, v))
                continue;
            uint32_t q = rarest(st, u, v);
            if (q != UINT32_MAX &&
                (bv == UINT32_MAX || st->holders[q] < st->holders[bq] ||
                 (st->holders[q] == st->holders[bq] && st->count[v] < st->count[bv]))) {
                bv = v;
                bq = q;
            }
        }
        if (bv == UINT32_MAX)
            continue;
        st->busy[bv] = 1;
        take(st, u, bv);
        st->holders[bq]++;
        plan[np++] = (xfer_t){u, bv, bq};
    }
    return np;
}

/* The rounds of k pieces of seg bytes from nodes[0] into b; *rounds (may be NULL) receives
 * their number. */
static int build(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t seg,
                 uint32_t k, int32_t *parent, uint32_t *rounds)
{
    state_t st = {.n = n, .k = k, .words = ((size_t)k + 63) / 64};
    st.have = hc__calloc((size_t)n * st.words, sizeof *st.have);
    st.holders = hc__calloc(k, sizeof *st.holders);
    st.count = hc__calloc(n, sizeof *st.count);
    st.order = hc__malloc(n, sizeof *st.order);
    st.busy = hc__malloc(n, 1);
    xfer_t *plan = hc__malloc(n, sizeof *plan);
    int rc = st.have && st.holders && st.count && st.order && st.busy && plan
                 ? links_init(&st, b->pb ? b->pb->platform : NULL, nodes)
                 : hc__error(HC_ERR_NOMEM, "out of memory in the rounds broadcast");
    for (uint32_t q = 0; rc == HC_OK && q < k; q++) {
        st.have[q / 64] |= (uint64_t)1 << (q % 64);
        st.holders[q] = 1;
    }
    st.count[0] = k;
    uint32_t r = 0;
    for (size_t missing = (size_t)(n - 1) * k; rc == HC_OK && missing > 0; r++) {
        uint32_t np = round_plan(&st, plan);
        if (np == 0) /* the root has a piece for every node still missing one */
            rc = hc__error(HC_ERR_INTERNAL, "rounds broadcast: round %u without transfers", r);
        for (uint32_t i = 0; rc == HC_OK && i < np; i++) {
            const xfer_t *x = &plan[i];
            rc = hc__bb_send(b, nodes[x->u], nodes[x->v], x->q, hc__bc_seg_bytes(m, seg, k, x->q),
                             0, NULL);
            st.have[(size_t)x->v * st.words + x->q / 64] |= (uint64_t)1 << (x->q % 64);
            st.count[x->v]++;
            missing--;
            if (x->q == 0) /* parent[] describes the first piece's tree */
                hc__bc_set_parent(parent, nodes[x->v], nodes[x->u]);
        }
    }
    if (rounds)
        *rounds = r;
    state_free(&st);
    free(plan);
    return rc;
}

/* 1-port replay time of the rounds in pieces of seg (INFINITY on error). */
static double dry_run(const hc_problem_t *pb, const uint32_t *nodes, uint64_t seg)
{
    const uint32_t k = hc__bc_seg_count(pb->msg_bytes, seg);
    hc__bb_t b;
    double t = INFINITY;
    if (hc__bb_init(&b, pb, NULL, pb->P, k) == HC_OK &&
        build(&b, nodes, pb->P, pb->msg_bytes, seg, k, NULL, NULL) == HC_OK)
        t = b.max_end;
    else
        hc_error_clear();
    hc__bb_free(&b);
    return t;
}

int hc__algo_bcast_rounds(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    const uint32_t P = pb->P;
    const uint64_t m = pb->msg_bytes;
    *out = NULL;
    HC__TRY(hc__bcast_check_segment(pb, opts));
    uint32_t lg = 0;
    while (lg < 32 && (1ull << lg) < P)
        lg++;
    const uint32_t cap = HC__ROUNDS_PIECES_PER_LOG * (lg ? lg : 1);
    uint64_t seg = m;
    if (opts && opts->segment_bytes > 0 && opts->segment_bytes < m) {
        seg = opts->segment_bytes;
        if (hc__bc_seg_count(m, seg) > cap)
            return hc__error(HC_ERR_UNSUPPORTED, /* `auto` skips it */
                             "rounds broadcast: segment size %llu B cuts the %llu B message into "
                             "%u pieces, at most %u on %u nodes (4 x ceil(log2 P); the pipeline "
                             "and the two-tree serve longer streams)",
                             (unsigned long long)seg, (unsigned long long)m,
                             hc__bc_seg_count(m, seg), cap, P);
    }
    uint32_t *nodes = hc__malloc(P, sizeof *nodes);
    if (!nodes)
        return hc__error(HC_ERR_NOMEM, "out of memory in the rounds broadcast");
    for (uint32_t r = 0; r < P; r++)
        nodes[r] = (pb->root + r) % P;
    if (!(opts && opts->segment_bytes > 0) && P > 1 && m > 1) {
        double best = INFINITY;
        for (uint64_t i = 0, prev = 0; i < 63; i++) {
            uint64_t s = (m + (1ull << i) - 1) >> i; /* ceil(m / 2^i) */
            if (s == prev || hc__bc_seg_count(m, s) > cap)
                break;
            double t = dry_run(pb, nodes, s);
            if (t < best) {
                best = t;
                seg = s;
            }
            prev = s;
        }
    }
    const uint32_t k = hc__bc_seg_count(m, seg);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    uint32_t rounds = 0;
    int rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, k);
    if (rc == HC_OK && P > 1)
        rc = build(&b, nodes, P, m, seg, k, s->parent, &rounds);
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = k;
        if (k > 1)
            rc = hc_schedule_set_note(s,
                                      "rounds: %u pieces of %llu bytes in %u rounds (at least "
                                      "%u)",
                                      k, (unsigned long long)seg, rounds, k - 1 + lg);
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
