/* `multitree` reduction: the mirror of the multi-tree broadcast (bcast_multitree.c). The
 * message's elements are cut into ranges, one per site tree, and each range is reduced along
 * its own tree, all at once, so that the partial results entering the root's site spread over
 * the links as the cut bound asks: on three sites whose uplinks are shared by both
 * directions, one tree brings two whole partial results into the root's site (2m on its
 * uplink); the direct tree and the two relay trees (C -> B -> root, B -> C -> root), a third
 * of the elements each, load every uplink with 4m/3.
 *
 * Decisions:
 *   - sites, coordinators and the mix of site trees: hc__mt_pack with the edges reversed
 *     (child site -> parent site), multitree_kit.h;
 *   - ranges: the trees' weights times the message (trees under 2 % dropped), in tree order;
 *   - inside a site, a d-ary tree over the members in rank order into the coordinator
 *     (hc__mt_fanout for pieces of opts->segment_bytes, which then is the schedule's
 *     segment_bytes, the runtime's pipeline segment; default 256 KiB); with opts->site_trees =
 *     HC_SITE_TREES_TWO, each site tree's range is halved and the halves go up the site's two
 *     trees (bcast_kit.h; sites of three nodes or more), the mirror of the broadcast's: every
 *     member sends about m and receives about m, and the paths are 2 ceil(log2 n) deep
 *     instead of the chain's n - 1;
 *   - planned times: the trees one after the other, each node's communications one at a time
 *     (the half-duplex 1-port model of Liu et al.'s reductions, so that the planned makespan is
 *     the simulator's replay); the runtime runs the trees at once, segment k of every tree
 *     before segment k + 1 (src/mpi/exec.c), and the flow model replays that.
 * Without bytes to cut (a problem of send times) or with a single tree worth using, it is one
 * tree over the whole message. Complexity: the packing's, plus O(trees x P log P). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multitree_kit.h"
#include "reduce_kit.h"

int hc__algo_reduce_multitree(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out)
{
    *out = NULL;
    hc__hier_t h;
    HC__TRY(hc__hier_init(&h, pb));
    const uint32_t P = pb->P, nc = h.nc;
    const uint64_t m = pb->msg_bytes;
    hc__mt_pack_t k;
    int rc = hc__mt_pack(&h, 1, &k);
    uint32_t *use = hc__malloc(k.nt + 1, sizeof *use), T = 0;
    uint64_t *bytes = hc__malloc(k.nt + 1, sizeof *bytes);
    uint32_t *site = hc__malloc(P, sizeof *site), *pos = hc__malloc(P, sizeof *pos);
    uint32_t *parent = hc__malloc(P, sizeof *parent), *ord = hc__malloc(P, sizeof *ord);
    uint32_t *fan = hc__malloc(nc, sizeof *fan);
    /* with the sites' two trees: per site, the parent index of each index in tree 0 and 1 */
    const int two = opts && opts->site_trees == HC_SITE_TREES_TWO && m >= 2;
    int32_t **up = hc__calloc(nc, sizeof *up);
    double *free_at = hc__calloc(P, sizeof *free_at), *ready = hc__malloc(P, sizeof *ready);
    hc_schedule_t *s = NULL;
    if (rc == HC_OK &&
        (!use || !bytes || !site || !pos || !parent || !ord || !fan || !up || !free_at || !ready))
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the multitree reduction");
    if (rc == HC_OK) {
        /* the trees worth using, and their ranges */
        uint32_t top = 0;
        double wsum = 0;
        for (uint32_t t = 0; t < k.nt; t++) {
            top = k.weight[t] > k.weight[top] ? t : top;
            if (k.weight[t] >= HC__MT_MIN_WEIGHT && m >= k.nt) {
                use[T++] = t;
                wsum += k.weight[t];
            }
        }
        if (T <= 1) {
            T = 1;
            use[0] = top;
            bytes[0] = m;
        } else {
            uint64_t left = m;
            for (uint32_t i = 0; i < T; i++) {
                bytes[i] =
                    i + 1 == T ? left : (uint64_t)floor((double)m * k.weight[use[i]] / wsum + 0.5);
                bytes[i] = bytes[i] > left ? left : bytes[i];
                left -= bytes[i];
            }
        }
        for (uint32_t c = 0; c < nc; c++)
            for (uint32_t a = 0; a < h.cl[c].n; a++) {
                site[h.cl[c].nodes[a]] = c;
                pos[h.cl[c].nodes[a]] = a;
            }
        for (uint32_t c = 0; rc == HC_OK && two && c < nc; c++) {
            const uint32_t n = h.cl[c].n;
            if (n <= 2)
                continue;
            up[c] = hc__malloc(2 * (size_t)n, sizeof **up);
            rc = up[c] ? hc__two_tree_parents(n, up[c])
                       : hc__error(HC_ERR_NOMEM, "out of memory in the multitree reduction");
        }
        if (rc == HC_OK)
            rc = hc_schedule_create(HC_COLL_REDUCE, P, &s);
    }
    const uint64_t seg = opts && opts->segment_bytes ? opts->segment_bytes : 262144;
    /* NIC-paced (the broadcast's arrival term, a wider tree behind a slow uplink, was predicted
     * 1 % faster at 16 MiB on the 3-site grid and ran 17 % slower in SMPI: 2.30 s, 1.96 s) */
    const double arrive = 0.0;
    /* tree index ti: site tree i, or with the two trees its half x = ti % 2 */
    const uint32_t halves = two && 2 * T <= 256 ? 2 : 1;
    uint32_t tn = 0; /* trees emitted: the events' tree indices, without gaps */
    for (uint32_t ti = 0; rc == HC_OK && ti < halves * T; ti++) {
        const uint32_t i = ti / halves, x = ti % halves;
        const uint64_t tb = halves == 2 ? (x ? bytes[i] - bytes[i] / 2 : bytes[i] / 2) : bytes[i];
        if (tb == 0 && halves == 2) /* a one-byte range: one half only */
            continue;
        const int32_t *par = &k.tpar[(size_t)use[i] * nc];
        for (uint32_t c = 0; c < nc; c++) {
            uint64_t per = tb > seg ? (tb + seg - 1) / seg : 1;
            fan[c] = hc__mt_fanout(&h.cl[c], tb / per, (uint32_t)per, arrive * (double)(tb / per));
        }
        /* the tree: inside a site a d-ary heap (or the site's tree x) into the coordinator,
         * which sends to the coordinator of its parent site */
        for (uint32_t v = 0; v < P; v++) {
            const hc__cluster_t *cl = &h.cl[site[v]];
            if (v == pb->root)
                parent[v] = UINT32_MAX;
            else if (pos[v] > 0 && halves == 2 && up[site[v]])
                parent[v] = cl->nodes[up[site[v]][(size_t)x * cl->n + pos[v]]];
            else if (pos[v] > 0)
                parent[v] = cl->nodes[(pos[v] - 1) / fan[site[v]]];
            else
                parent[v] = hc__mt_exit(&h, &k, use[i], (uint32_t)par[site[v]]);
        }
        rc = hc__reduce_add_tree(s, pb, parent, ord, tb, (uint8_t)tn, free_at, ready,
                                 "multitree reduction");
        tn++;
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        s->segment_bytes = opts ? opts->segment_bytes : 0; /* forced: the runtime's too */
        char mix[256];
        size_t len = 0;
        mix[0] = 0;
        for (uint32_t i = 0; i < T && len < sizeof mix - 48; i++)
            len += (size_t)snprintf(mix + len, sizeof mix - len, "%s%s %llu bytes", len ? ", " : "",
                                    use[i] == 0      ? "direct"
                                    : k.tail[use[i]] ? "site chain"
                                                     : "relay",
                                    (unsigned long long)bytes[i]);
        rc = hc_schedule_set_note(s, "multitree: %u site trees (%s)%s", T, mix,
                                  halves == 2 ? ", each halved over the sites' two trees" : "");
    }
    free(use);
    free(bytes);
    free(site);
    free(pos);
    free(parent);
    free(ord);
    free(fan);
    for (uint32_t c = 0; up && c < nc; c++)
        free(up[c]);
    free(up);
    free(free_at);
    free(ready);
    hc__mt_pack_free(&k);
    hc__hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}
