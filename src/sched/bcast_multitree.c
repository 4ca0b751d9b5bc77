/* `multitree` broadcast: the message cut into pieces sent over several site-level trees at
 * once, packed to the links' capacities, so that every site's uplink carries what the cut
 * bound asks and no more. On three sites whose uplinks are shared by both directions, one
 * tree (the root's site sends two copies) loads the root's uplink with 2m; mixing the direct
 * tree with the two relay trees (root -> B -> C and root -> C -> B), a third each, loads
 * every uplink with 4m/3, the cut bound (every byte entering a site left another).
 *
 * Decisions:
 *   - sites: the platform's clusters, each with a coordinator (the root in its own site, else
 *     the member cheapest to reach from the other sites; hc__hier_init);
 *   - candidate site trees: the direct tree (the root's coordinator sends to every site),
 *     per other site c the relay tree (root -> c, then c -> every other site), and the chain
 *     of sites, each left from its last node (multitree_kit.h);
 *   - weights: the fractional packing of those trees minimising the most loaded link's time
 *     (per unit of message, each site-level edge loads the links of its route; a shared link
 *     counts both directions, a split-duplex link each direction, a fat pipe nothing), by
 *     multiplicative weights over the links (Garg & Koenemann 2007; the throughput-optimal
 *     broadcast idea of Beaumont et al. 2005): the averaged best responses approach the
 *     optimal mix;
 *   - small messages: the direct tree alone when its estimate (most loaded link x m + the
 *     latency of its site path) beats the mix's (with its deepest tree's latency);
 *   - pieces: ceil(m / 64 KiB), at least one per tree used and at least two (one piece would
 *     be a whole-message tree, sent one message at a time), at most 8192 / P (between 64 and
 *     256: the events the flow model replays when the runtime ranks it; opts->segment_bytes
 *     forces the piece size), dealt to the trees by smooth weighted round robin so that all
 *     trees progress together; opts->ramp_pieces makes the first and last pieces grow and
 *     shrink linearly (hc__bc_ramp_offsets): in SimGrid's fair sharing the pieces a root keeps
 *     in flight over its uplink all complete together, then the link idles a latency before
 *     the next window's pieces flow, and the relays wait for whole windows; pieces of unequal
 *     sizes complete one after another (1 MiB on the 3-site grid in 16 KiB pieces: 0.171 s in
 *     the flow model, 0.138 s ramped over 8); the runtime tries it as a variant;
 *   - inside a site, each piece goes down a d-ary tree over the members in rank order (d = 1:
 *     a pipeline chain), d chosen by the cluster's pLogP parameters: depth x (L + g(s)) +
 *     (pieces - 1) x d x g(s); where that is the chain and the site's two-tree (bcast_kit.h:
 *     full bandwidth too, 2 ceil(log2 n) deep) is shallower than the chain's n - 1 by more
 *     than two hops, the
 *     pieces alternate between the site's two trees instead; opts->site_trees =
 *     HC_SITE_TREES_TWO takes the two trees in every site of three nodes or more (grid5000's
 *     sites of 8, 1 MiB: 0.0227 s in SMPI with them, 0.0260 s with the chain; the runtime
 *     tries both);
 *   - order: every node forwards the pieces in the order it receives them, to the other sites
 *     first (event-driven over the 1-port builder of bcast_builder.c, so the planned times are
 *     the simulator's replay).
 * Unlabelled nodes are sites of their own; without routes the resources are the private
 * coordinator pairs at the rates of the planned costs (then it packs flat and two-level trees
 * over the nodes). Complexity: O(iterations x entries), at most 2e7 for the packing,
 * O(pieces x P log P) for the
 * events. The runtime executes it with windows of sends (hc_schedule_exec_windows) and ranks
 * it by the flow model like every candidate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multitree_kit.h"

#define MT_MAX_PIECES 256u
#define MT_MIN_CAP 64u
#define MT_PIECE_BYTES 65536u

/* opts->tail_direct_pieces: the last d pieces on the direct tree (tree 0), which carries d / 4
 * more than the deal gave it, taken from the other trees in proportion to their counts; the
 * body's pieces dealt again by smooth weighted round robin over those counts. Under SimGrid's
 * default model the relay trees' last pieces still had a relay site's hop (2.19 latencies of
 * 10 ms) to make when the root's uplink sent its last (3-site grid, 63 ranks, 1 MiB: the relay
 * sites ended 0.025 s after it); a tail on the direct tree ends with the root's uplink, whose
 * extra copies the quarter more balances against the relay sites' uplinks, idle while their
 * first pieces come (flow model: 0.1605 s; a tail of 24 pieces of 144 0.1529 s, of 28 0.1519 s
 * with the quarter, 0.1534 s and 0.1555 s without). Nothing when the deal uses tree 0 alone
 * or not at all. Returns d, or 0. */
static uint32_t tail_direct(uint32_t nt, uint32_t K, uint32_t d, uint32_t *tree_of)
{
    uint32_t *cnt = calloc(nt, sizeof *cnt);
    double *want = calloc(nt, sizeof *want); /* swrr's weights: whole counts, exact in doubles */
    uint32_t others = 0, done = 0;
    if (!cnt || !want || K < 2)
        goto out;
    for (uint32_t j = 0; j < K; j++)
        cnt[tree_of[j]]++;
    for (uint32_t t = 1; t < nt; t++)
        others += cnt[t] > 0;
    if (cnt[0] == 0 || others == 0)
        goto out;
    d = d < K - others ? d : K - others;
    uint32_t nd = cnt[0] + (d + 2) / 4;
    nd = nd > d ? nd : d;
    nd = nd < K - others ? nd : K - others;
    /* the others' K - nd pieces in proportion to their counts (largest remainders; each
     * used tree keeps one) */
    const uint32_t rest = K - nd, had = K - cnt[0];
    uint32_t given = 0;
    for (uint32_t t = 1; t < nt; t++) {
        const uint32_t c =
            cnt[t] ? 1 + (uint32_t)((uint64_t)(cnt[t] - 1) * (rest - others) / had) : 0;
        want[t] = c;
        given += c;
    }
    for (uint32_t t = 1; given < rest; t = t + 1 < nt ? t + 1 : 1)
        if (cnt[t]) {
            want[t]++;
            given++;
        }
    want[0] = nd - d;
    /* the body, K - d pieces (the counts sum to it) */
    if (hc__mt_swrr(want, nt, K - d, tree_of) != 0)
        goto out;
    for (uint32_t j = K - d; j < K; j++)
        tree_of[j] = 0;
    done = d;
out:
    free(cnt);
    free(want);
    return done;
}

typedef struct {
    double t;
    uint32_t piece, node;
} mt_item_t;

typedef struct {
    mt_item_t *a;
    size_t n, cap;
} mt_heap_t;

static int item_less(const mt_item_t *x, const mt_item_t *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    if (x->piece != y->piece)
        return x->piece < y->piece;
    return x->node < y->node;
}

static int heap_push(mt_heap_t *h, mt_item_t it)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        mt_item_t *a = realloc(h->a, cap * sizeof *a);
        if (!a)
            return hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
        h->a = a;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && item_less(&it, &h->a[(i - 1) / 2])) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = it;
    return HC_OK;
}

static mt_item_t heap_pop(mt_heap_t *h)
{
    mt_item_t top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        const mt_item_t *v = &last;
        if (l < h->n && item_less(&h->a[l], v)) {
            m = l;
            v = &h->a[l];
        }
        if (l + 1 < h->n && item_less(&h->a[l + 1], v))
            m = l + 1;
        if (m == i)
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    if (h->n > 0)
        h->a[i] = last;
    return top;
}

/* v sends piece j to u at the earliest time; u forwards it once it arrives (the heap). The
 * first piece's tree is the schedule's parent[]. */
static int forward(hc__bb_t *b, mt_heap_t *hp, hc_schedule_t *s, uint32_t v, uint32_t u, uint32_t j,
                   uint64_t bytes)
{
    double end;
    HC__TRY(hc__bb_send(b, v, u, j, bytes, 0, &end));
    HC__TRY(heap_push(hp, (mt_item_t){end, j, u}));
    if (j == 0)
        hc__bc_set_parent(s->parent, u, v);
    return HC_OK;
}

/* Latency of tree t's deepest site path: the routes' latencies from the root's site down. */
static double tree_depth(const hc__hier_t *h, const hc__mt_pack_t *k, uint32_t t)
{
    const uint32_t nc = h->nc;
    const int32_t *par = &k->tpar[(size_t)t * nc];
    double deepest = 0;
    for (uint32_t c = 1; c < nc; c++) {
        double d = 0;
        for (uint32_t v = c, steps = 0; par[v] >= 0 && steps < nc; v = (uint32_t)par[v], steps++)
            d += hc_platform_latency(h->pb->platform, hc__mt_exit(h, k, t, (uint32_t)par[v]),
                                     h->cl[v].nodes[0]);
        deepest = d > deepest ? d : deepest;
    }
    return deepest;
}

/* Small messages: latency outweighs load, and a relay tree pays two WAN latencies. Keep the
 * direct tree alone when its estimate, most loaded link x m + its depth, beats the mix's
 * (most loaded link x m + the deepest tree it uses). */
static int prefer_direct(const hc__hier_t *h, hc__mt_pack_t *k, double m)
{
    if (!h->pb->platform || k->nt < 2)
        return HC_OK;
    double *load = hc__calloc(k->nr + 1, sizeof *load), direct = 0, depth_mix = 0;
    if (!load)
        return hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
    for (size_t i = k->off[0]; i < k->off[1]; i++)
        load[k->res[i]] += k->amt[i];
    for (uint32_t r = 0; r < k->nr; r++)
        direct = load[r] > direct ? load[r] : direct;
    free(load);
    for (uint32_t t = 0; t < k->nt; t++)
        if (k->weight[t] >= HC__MT_MIN_WEIGHT) {
            double d = tree_depth(h, k, t);
            depth_mix = d > depth_mix ? d : depth_mix;
        }
    if (direct * m + tree_depth(h, k, 0) < k->per_byte * m + depth_mix) {
        for (uint32_t t = 0; t < k->nt; t++)
            k->weight[t] = t == 0;
        k->per_byte = direct;
    }
    return HC_OK;
}

int hc__algo_bcast_multitree(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out)
{
    *out = NULL;
    HC__TRY(hc__bcast_check_segment(pb, opts));
    hc__hier_t h;
    HC__TRY(hc__hier_init(&h, pb));
    const uint32_t P = pb->P, nc = h.nc;
    const uint64_t m = pb->msg_bytes ? pb->msg_bytes : 1;
    hc__mt_pack_t k;
    int rc = hc__mt_pack(&h, 0, &k);
    if (rc == HC_OK)
        rc = prefer_direct(&h, &k, (double)m);
    uint32_t used = 0;
    for (uint32_t t = 0; rc == HC_OK && t < k.nt; t++)
        used += k.weight[t] >= HC__MT_MIN_WEIGHT;
    /* pieces */
    uint64_t seg = opts && opts->segment_bytes ? opts->segment_bytes : 0;
    if (seg == 0) {
        /* at most 8192 / P pieces (the events the flow model replays), 64 to 256 */
        uint64_t kmax = 8192 / (P ? P : 1);
        kmax = kmax < MT_MIN_CAP ? MT_MIN_CAP : kmax > MT_MAX_PIECES ? MT_MAX_PIECES : kmax;
        uint64_t K0 = (m + MT_PIECE_BYTES - 1) / MT_PIECE_BYTES;
        /* at least two: one piece is a whole-message tree, which the runtime sends one
         * message at a time (no window) */
        if (K0 < used)
            K0 = used;
        if (K0 < 2)
            K0 = 2;
        if (K0 > kmax)
            K0 = kmax;
        if (K0 > m)
            K0 = m;
        seg = (m + K0 - 1) / K0;
    }
    if (seg > m)
        seg = m;
    /* pieces alternating between seg and opts->alternate_bytes: as many as their mean size
     * makes (equal pieces below when they cannot alternate) */
    const uint64_t alt =
        opts && opts->alternate_bytes && opts->alternate_bytes < seg ? opts->alternate_bytes : 0;
    uint32_t K = hc__bc_seg_count(m, alt ? (seg + alt) / 2 : seg);
    uint32_t odd = alt ? (uint32_t)((alt * HC__BC_ODD_EQUAL + seg / 2) / seg) : HC__BC_ODD_EQUAL;
    uint32_t *tree_of = hc__malloc(K, sizeof *tree_of);
    uint64_t *off = hc__malloc((size_t)K + 1, sizeof *off);
    int ramped = 0, alternated = 0;
    uint32_t tail = 0;
    uint32_t *site = hc__malloc(P, sizeof *site), *pos = hc__malloc(P, sizeof *pos);
    uint32_t *fan = hc__malloc(nc, sizeof *fan);
    /* per site with fan-out 0: the two-tree's children and tree roots (bcast_kit.h) */
    int32_t **kid = hc__calloc(nc, sizeof *kid), *top = hc__malloc(2 * (size_t)nc, sizeof *top);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    mt_heap_t hp = {0};
    if (rc == HC_OK && (!tree_of || !off || !site || !pos || !fan || !kid || !top))
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
    if (rc == HC_OK) {
        const uint32_t r = opts ? opts->ramp_pieces : 0;
        int weighted = hc__bc_piece_offsets(m, seg, K, r, odd, off);
        if (!weighted && odd < HC__BC_ODD_EQUAL) {
            /* more than HC__MAX_SEG_FORCED pieces, or an odd one would be empty: equal pieces
             * of seg (no more than K) */
            K = hc__bc_seg_count(m, seg);
            odd = HC__BC_ODD_EQUAL;
            weighted = hc__bc_piece_offsets(m, seg, K, r, odd, off);
        }
        ramped = weighted && r > 1;
        alternated = weighted && odd < HC__BC_ODD_EQUAL && K > 2;
        hc__mt_deal(&k, K, tree_of);
        if (opts && opts->tail_direct_pieces)
            tail = tail_direct(k.nt, K, opts->tail_direct_pieces, tree_of);
        /* NIC-paced: the arrival term (pieces come no faster than the mix's most loaded link
         * lets them; a wider tree behind a slow uplink) was predicted 0.158 s for 1 MiB on the
         * 3-site grid of 63 ranks and ran 0.186 s in SMPI, where the NIC-paced tree is
         * predicted 0.171 s and runs 0.172 s */
        const double arrive = 0.0;
        for (uint32_t c = 0; c < nc; c++) {
            for (uint32_t a = 0; a < h.cl[c].n; a++) {
                site[h.cl[c].nodes[a]] = c;
                pos[h.cl[c].nodes[a]] = a;
            }
            fan[c] = hc__mt_fanout(&h.cl[c], seg, K, arrive * (double)seg);
            /* NIC-paced: the site's two-tree when it is clearly shallower than the chain (on
             * grid5000's sites of 8, 6 against 7 hops, it ran 0.0322 s against the chain's
             * 0.0281 s in SMPI, 1 MiB) */
            const uint32_t n = h.cl[c].n;
            if (fan[c] == 1 && n > 2 && 2 * (uint32_t)ceil(log2((double)n)) + 2 < n - 1)
                fan[c] = 0;
            if (opts && opts->site_trees == HC_SITE_TREES_TWO && n > 2)
                fan[c] = 0;
            if (fan[c] == 0) {
                kid[c] = hc__malloc(4 * (size_t)n, sizeof **kid);
                rc = kid[c] ? hc__two_tree_children(n, kid[c], &top[2 * (size_t)c])
                            : hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
                if (rc != HC_OK)
                    break;
            }
        }
        rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    }
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, K);
    for (uint32_t j = 0; rc == HC_OK && j < K; j++)
        rc = heap_push(&hp, (mt_item_t){0.0, j, pb->root});
    /* every node forwards each piece as it arrives: other sites first, then its site's tree */
    while (rc == HC_OK && hp.n > 0) {
        mt_item_t it = heap_pop(&hp);
        const uint32_t v = it.node, c = site[v], j = it.piece, t = tree_of[j];
        const uint64_t bytes = off[j + 1] - off[j];
        const int32_t *par = &k.tpar[(size_t)t * nc];
        if (v == hc__mt_exit(&h, &k, t, c))
            for (uint32_t d = 1; rc == HC_OK && d < nc; d++) {
                if (par[d] != (int32_t)c)
                    continue;
                rc = forward(&b, &hp, s, v, h.cl[d].nodes[0], j, bytes);
            }
        const hc__cluster_t *cl = &h.cl[c];
        for (size_t x = 0; fan[c] == 0 && rc == HC_OK && x < 2; x++) {
            int32_t q = pos[v] == 0 ? (x ? -1 : top[2 * (size_t)c + j % 2])
                                    : kid[c][4 * (size_t)pos[v] + 2 * (j % 2) + x];
            if (q < 0)
                continue;
            rc = forward(&b, &hp, s, v, cl->nodes[q], j, bytes);
        }
        for (uint64_t q = (uint64_t)pos[v] * fan[c] + 1;
             rc == HC_OK && q <= (uint64_t)pos[v] * fan[c] + fan[c] && q < cl->n; q++) {
            rc = forward(&b, &hp, s, v, cl->nodes[q], j, bytes);
        }
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = K;
        /* the note: the mix of trees */
        /* with a tail, the pieces each tree got (the packing's weights otherwise) */
        char mix[256];
        hc__mt_mix_note(&k, tail ? tree_of : NULL, K, mix, sizeof mix);
        /* a ramp: its length and largest piece (SMPI's size classes price pieces by size) */
        char ramp[96] = "";
        uint64_t largest = 0;
        for (uint32_t j = 0; ramped && j < K; j++)
            largest = off[j + 1] - off[j] > largest ? off[j + 1] - off[j] : largest;
        if (ramped)
            snprintf(ramp, sizeof ramp, " (ramped up and down over %u, the largest %llu bytes)",
                     opts->ramp_pieces > 64 ? 64 : opts->ramp_pieces, (unsigned long long)largest);
        else if (alternated) /* pieces 1 and 2: an odd one and an even one */
            snprintf(ramp, sizeof ramp, " (alternating with pieces of %llu bytes)",
                     (unsigned long long)(off[2] - off[1]));
        const uint64_t shown = alternated && !ramped ? off[1] : seg;
        char last[64] = "";
        if (tail)
            snprintf(last, sizeof last, ", the last %u on the direct tree", tail);
        rc = hc_schedule_set_note(s,
                                  "multitree: %u pieces of %llu bytes%s over %u site trees (%s%s), "
                                  "inside the sites %s%.0u",
                                  K, (unsigned long long)shown, ramp, used, mix, last,
                                  fan[nc > 1 ? 1 : 0] ? "fan-out " : "two trees",
                                  fan[nc > 1 ? 1 : 0]);
    }
    hc__bb_free(&b);
    free(hp.a);
    free(tree_of);
    free(off);
    free(site);
    free(pos);
    free(fan);
    for (uint32_t c = 0; kid && c < nc; c++)
        free(kid[c]);
    free(kid);
    free(top);
    hc__mt_pack_free(&k);
    hc__hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}
