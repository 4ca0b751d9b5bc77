/* The multi-tree toolkit (multitree_kit.h): site trees packed to the links' capacities, shared
 * by the multi-tree broadcast and reduction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multitree_kit.h"

#define MT_ITERS 2000

uint32_t hc__mt_exit(const hc__hier_t *h, const hc__mt_pack_t *k, uint32_t t, uint32_t c)
{
    return h->cl[c].nodes[k->tail[t] ? h->cl[c].n - 1 : 0];
}

void hc__mt_pack_free(hc__mt_pack_t *k)
{
    free(k->tail);
    free(k->cap);
    free(k->tpar);
    free(k->off);
    free(k->res);
    free(k->amt);
    free(k->weight);
}

static int add_entry(hc__mt_pack_t *k, size_t *cap_ent, uint32_t r, double amt)
{
    if (k->n_ent == *cap_ent) {
        size_t c = *cap_ent ? 2 * *cap_ent : 256;
        uint32_t *res = realloc(k->res, c * sizeof *res);
        if (res)
            k->res = res;
        double *a = res ? realloc(k->amt, c * sizeof *a) : NULL;
        if (!a)
            return hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
        k->amt = a;
        *cap_ent = c;
    }
    k->res[k->n_ent] = r;
    k->amt[k->n_ent++] = amt;
    return HC_OK;
}

/* Loads of the edge a -> b (nodes of sites ca -> cb) per message byte. */
static int edge_load(const hc__hier_t *h, hc__mt_pack_t *k, size_t *cap_ent, uint32_t ca,
                     uint32_t cb, uint32_t a, uint32_t b, hc_hop_t **hops, size_t *cap_hops)
{
    const hc_platform_t *pl = h->pb->platform;
    if (!pl || !hc_platform_has_routes(pl)) {
        uint32_t r = ca * h->nc + cb;
        return isfinite(k->cap[r]) && k->cap[r] > 0 ? add_entry(k, cap_ent, r, 1.0 / k->cap[r])
                                                    : HC_OK;
    }
    size_t need = hc_platform_route(pl, a, b, NULL, 0);
    if (need > *cap_hops) {
        hc_hop_t *nh = realloc(*hops, need * sizeof *nh);
        if (!nh)
            return hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
        *hops = nh;
        *cap_hops = need;
    }
    size_t n = hc_platform_route(pl, a, b, *hops, *cap_hops);
    for (size_t i = 0; i < n; i++) {
        const hc_hop_t *hp = &(*hops)[i];
        hc_link_sharing_t sh = hc_platform_link_sharing(pl, hp->link);
        if (sh == HC_LINK_FATPIPE)
            continue;
        uint32_t r = 2 * hp->link + (sh == HC_LINK_SPLITDUPLEX && hp->down ? 1 : 0);
        HC__TRY(add_entry(k, cap_ent, r, 1.0 / k->cap[r]));
    }
    return HC_OK;
}

/* Multiplicative weights over the first nt trees: each resource's price grows with its load;
 * each round adds the tree that is cheapest at the current prices; rounds are bounded by the
 * work. Sets k->weight (0 beyond nt) and returns the mix's most loaded resource (seconds per
 * message byte). price: nr scratch. */
static double mwu(hc__mt_pack_t *k, uint32_t nt, double *price)
{
    double norm = 0;
    for (size_t i = 0; i < k->off[nt]; i++)
        norm = k->amt[i] > norm ? k->amt[i] : norm;
    for (uint32_t r = 0; r < k->nr; r++)
        price[r] = 1.0;
    for (uint32_t t = 0; t < k->nt; t++)
        k->weight[t] = 0;
    const double eps = 0.05;
    long iters = k->off[nt] ? (long)(2e7 / (double)k->off[nt]) : 0;
    iters = iters > MT_ITERS ? MT_ITERS : iters < 50 ? 50 : iters;
    for (long it = 0; norm > 0 && it < iters; it++) {
        uint32_t best = 0;
        double bv = INFINITY;
        for (uint32_t t = 0; t < nt; t++) {
            double c = 0;
            for (size_t i = k->off[t]; i < k->off[t + 1]; i++)
                c += price[k->res[i]] * k->amt[i];
            if (c < bv) {
                bv = c;
                best = t;
            }
        }
        k->weight[best] += 1.0;
        double pmax = 0;
        for (size_t i = k->off[best]; i < k->off[best + 1]; i++) {
            double *pr = &price[k->res[i]];
            *pr *= exp(eps * k->amt[i] / norm);
            pmax = *pr > pmax ? *pr : pmax;
        }
        for (uint32_t r = 0; pmax > 1e100 && r < k->nr; r++)
            price[r] /= pmax;
    }
    double tot = 0;
    for (uint32_t t = 0; t < nt; t++)
        tot += k->weight[t];
    for (uint32_t t = 0; t < nt; t++)
        k->weight[t] = tot > 0 ? k->weight[t] / tot : (t == 0);
    /* the mix's most loaded resource (price reused as the load) */
    for (uint32_t r = 0; r < k->nr; r++)
        price[r] = 0;
    for (uint32_t t = 0; t < nt; t++)
        for (size_t i = k->off[t]; i < k->off[t + 1]; i++)
            price[k->res[i]] += k->weight[t] * k->amt[i];
    double most = 0;
    for (uint32_t r = 0; r < k->nr; r++)
        most = price[r] > most ? price[r] : most;
    return most;
}

int hc__mt_pack(const hc__hier_t *h, int reverse, hc__mt_pack_t *k)
{
    const hc_problem_t *pb = h->pb;
    const hc_platform_t *pl = pb->platform;
    const uint32_t nc = h->nc;
    const int routes = pl && hc_platform_has_routes(pl);
    memset(k, 0, sizeof *k);
    k->nr = routes ? 2 * hc_platform_link_count(pl) : nc * nc;
    k->nt = routes && nc >= 2 ? nc + 1 : nc; /* direct, a relay per other site, the chain */
    k->cap = hc__calloc(k->nr + 1, sizeof *k->cap);
    k->tpar = hc__malloc((size_t)k->nt * nc, sizeof *k->tpar);
    k->off = hc__calloc((size_t)k->nt + 1, sizeof *k->off);
    k->weight = hc__calloc(k->nt, sizeof *k->weight);
    k->tail = hc__calloc(k->nt, sizeof *k->tail);
    size_t cap_hops = 16, cap_ent = 0;
    hc_hop_t *hops = hc__malloc(cap_hops, sizeof *hops);
    double *price = hc__malloc(k->nr + 1, sizeof *price);
    int rc = k->cap && k->tpar && k->off && k->weight && k->tail && hops && price
                 ? HC_OK
                 : hc__error(HC_ERR_NOMEM, "out of memory in the multitree broadcast");
    const double m = pb->msg_bytes ? (double)pb->msg_bytes : 1.0;
    for (uint32_t r = 0; rc == HC_OK && r < k->nr; r++) {
        if (routes) {
            k->cap[r] = hc_platform_link_bandwidth(pl, r / 2);
        } else if (r / nc != r % nc) {
            /* a private pair: its rate for this message, from the planned costs */
            double c = HC_AT(pb->costs, h->cl[r / nc].nodes[0], h->cl[r % nc].nodes[0]);
            k->cap[r] = c > 0 ? m / c : INFINITY;
        }
    }
    /* tree 0: the root's site sends to every site; tree t in 1..nc-1: root -> t -> every
     * other; tree nc (with routes and 3 sites or more): the sites in a chain, each entered
     * at its coordinator and left from its last node (nearest next site by coordinator
     * cost) */
    uint32_t *order = hc__malloc(nc, sizeof *order);
    unsigned char *seen = hc__calloc(nc, 1);
    if (rc == HC_OK && (!order || !seen))
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the multitree packing");
    for (uint32_t i = 0; rc == HC_OK && i < nc; i++) {
        uint32_t best = UINT32_MAX;
        double bc = INFINITY;
        for (uint32_t c = 0; c < nc; c++) {
            if (seen[c] || (i == 0 && c != 0))
                continue;
            /* with routes the latency between the coordinators (a reduction's rows problem
             * costs every receiver alike), else the coordinator cost */
            double x =
                i == 0   ? 0
                : routes ? hc_platform_latency(pl, h->cl[order[i - 1]].nodes[0], h->cl[c].nodes[0])
                         : h->c[(size_t)order[i - 1] * nc + c];
            if (best == UINT32_MAX || x < bc) {
                best = c;
                bc = x;
            }
        }
        order[i] = best;
        seen[best] = 1;
    }
    for (uint32_t t = 0; rc == HC_OK && t < k->nt; t++) {
        int32_t *par = &k->tpar[(size_t)t * nc];
        par[0] = -1;
        k->tail[t] = t == nc;
        k->off[t] = k->n_ent;
        for (uint32_t i = 1; i < nc; i++)
            if (t == nc)
                par[order[i]] = (int32_t)order[i - 1];
            else
                par[i] = t == 0 || i == t ? 0 : (int32_t)t;
        for (uint32_t c = 1; rc == HC_OK && c < nc; c++) {
            uint32_t pc = (uint32_t)par[c], a = hc__mt_exit(h, k, t, pc), b = h->cl[c].nodes[0];
            rc = reverse ? edge_load(h, k, &cap_ent, c, pc, b, a, &hops, &cap_hops)
                         : edge_load(h, k, &cap_ent, pc, c, a, b, &hops, &cap_hops);
        }
        /* inside the sites, a chain: every node's NIC, the coordinator's included */
        for (uint32_t c = 0; routes && rc == HC_OK && c < nc; c++)
            for (uint32_t q = 1; rc == HC_OK && q < h->cl[c].n; q++) {
                uint32_t a = h->cl[c].nodes[q - 1], b = h->cl[c].nodes[q];
                rc = reverse ? edge_load(h, k, &cap_ent, c, c, b, a, &hops, &cap_hops)
                             : edge_load(h, k, &cap_ent, c, c, a, b, &hops, &cap_hops);
            }
    }
    free(order);
    free(seen);
    k->off[k->nt] = k->n_ent;
    /* the chain of sites only where it lightens the most loaded link by 2 % (it pipelines
     * through every site in turn: more latency) */
    uint32_t base = k->tail[k->nt - 1] ? k->nt - 1 : k->nt;
    double w_base = 0, w_all = 0;
    double *keep = hc__calloc(k->nt, sizeof *keep);
    if (rc == HC_OK && !keep)
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the multitree packing");
    if (rc == HC_OK) {
        w_base = mwu(k, base, price);
        memcpy(keep, k->weight, k->nt * sizeof *keep);
        if (base < k->nt) {
            w_all = mwu(k, k->nt, price);
            if (!(w_all < 0.98 * w_base))
                memcpy(k->weight, keep, k->nt * sizeof *keep);
        }
        k->per_byte = base < k->nt && w_all < 0.98 * w_base ? w_all : w_base;
    }
    free(keep);
    free(hops);
    free(price);
    return rc;
}

uint32_t hc__mt_fanout(const hc__cluster_t *c, uint64_t s, uint32_t K, double arrive)
{
    if (c->n <= 2)
        return 1;
    double g = hc__plogp_gap(&c->q, s), hop = c->q.L + g;
    uint32_t best = 1;
    double bv = INFINITY;
    if (K > 32) /* many pieces: the flow model favours the NIC-paced rule (16 MiB on the 3-site
                   grid: 1.92 s, against 2.03 s for the shallow tree) */
        arrive = 0;
    for (uint32_t d = 1; d <= 4; d++) {
        /* depth of a d-ary heap over n nodes */
        uint32_t depth = 0;
        for (uint64_t span = 1, level = 1; span < c->n; depth++) {
            level *= d;
            span += level;
        }
        double t = depth * hop + (double)(K - 1) * fmax(d * g, arrive);
        if (t < bv) {
            bv = t;
            best = d;
        }
    }
    return best;
}

/* Smooth weighted round robin: each of the n pieces to the tree whose credit, raised by its
 * weight w[t] per piece, is highest (the first on ties), which then pays the weights' sum: the
 * counts follow the weights and the trees interleave. Nonzero without memory (tree_of
 * untouched). */
int hc__mt_swrr(const double *w, uint32_t nt, uint32_t n, uint32_t *tree_of)
{
    double *cur = calloc(nt, sizeof *cur), sum = 0;
    if (!cur)
        return -1;
    for (uint32_t t = 0; t < nt; t++)
        sum += w[t];
    for (uint32_t j = 0; j < n; j++) {
        uint32_t best = 0;
        for (uint32_t t = 0; t < nt; t++) {
            cur[t] += w[t];
            if (cur[t] > cur[best])
                best = t;
        }
        cur[best] -= sum;
        tree_of[j] = best;
    }
    free(cur);
    return 0;
}

/* The K pieces dealt by swrr in proportion to the packing's weights (each tree of at least
 * HC__MT_MIN_WEIGHT and half a piece gets one; without memory, all on tree 0). */
void hc__mt_deal(const hc__mt_pack_t *k, uint32_t K, uint32_t *tree_of)
{
    double w[64];
    uint32_t nt = k->nt < 64 ? k->nt : 64;
    uint32_t top = 0;
    double wsum = 0;
    for (uint32_t t = 0; t < nt; t++) {
        w[t] = k->weight[t] >= HC__MT_MIN_WEIGHT && k->weight[t] * K >= 0.5 ? k->weight[t] : 0;
        wsum += w[t];
        top = k->weight[t] > k->weight[top] ? t : top;
    }
    if (wsum == 0)
        w[top] = 1;
    if (hc__mt_swrr(w, nt, K, tree_of) != 0)
        memset(tree_of, 0, K * sizeof *tree_of);
}

void hc__mt_mix_note(const hc__mt_pack_t *k, const uint32_t *tree_of, uint32_t K, char *buf,
                     size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t t = 0; t < k->nt && n + 40 < len; t++) {
        uint32_t got = 0;
        for (uint32_t j = 0; tree_of && j < K; j++)
            got += tree_of[j] == t;
        if (k->weight[t] >= HC__MT_MIN_WEIGHT)
            n += (size_t)snprintf(buf + n, len - n, "%s%s %.0f %%", n ? ", " : "",
                                  t == 0       ? "direct"
                                  : k->tail[t] ? "site chain"
                                               : "relay",
                                  tree_of ? 100.0 * got / K : 100.0 * k->weight[t]);
    }
}

uint32_t hc__mt_entries(const hc__hier_t *h, uint32_t c, uint32_t root)
{
    const hc__cluster_t *cl = &h->cl[c];
    return cl->nodes[0] == root && cl->n > 1 ? cl->n - 1 : cl->n;
}

uint32_t hc__mt_entry(const hc__hier_t *h, uint32_t c, uint32_t j, uint32_t root)
{
    const hc__cluster_t *cl = &h->cl[c];
    const uint32_t n = hc__mt_entries(h, c, root);
    return cl->nodes[(n < cl->n ? 1 : 0) + j % n];
}
