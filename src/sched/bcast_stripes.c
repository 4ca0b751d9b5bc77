/* `stripes` broadcast: multitree's site trees (bcast_multitree.c), but each piece enters and
 * leaves every site through its own member, taken in turn, which then hands the piece to the
 * rest of its site. Where the nodes' NICs are slower than the sites' uplinks (grid5000: 1 Gb/s
 * NICs, 10 Gb/s uplinks), multitree's single exit per site sends every byte twice (to the next
 * site and into its own) and its site pipeline adds a hop per member; here every NIC sends
 * and receives about m, and a piece is one hop from its entry to every member of its site.
 *
 * Decisions:
 *   - sites, the site trees and their mix: hc__mt_pack (multitree_kit.h), pieces dealt to the
 *     trees by hc__mt_deal;
 *   - entries: piece j enters site c at its member j mod n (in the root's site the members
 *     other than the root, which sends each piece once, to its entry; a root alone in its site
 *     is every piece's entry), and leaves it to a child site from that same member, to the
 *     child's entry for piece j;
 *   - inside a site, the entry sends the piece to every other member (the root excepted), the
 *     others sites first, then the members from the entry's successor on (so that the last to
 *     get it changes from piece to piece);
 *   - pieces: as multitree (ceil(m / 64 KiB), at least two, at most 8192 / P but at least one
 *     per member of the largest site, or opts->segment_bytes), ramped by opts->ramp_pieces;
 *   - order: piece by piece, each piece down its tree breadth first (the 1-port builder's
 *     topological order, so the planned times are the simulator's replay); every node sends
 *     its pieces in piece order.
 * The runtime ranks it by the flow model beside multitree; on grid5000 under SimGrid's default
 * model it is the faster (docs/design.md). Complexity: the packing's, plus O(K x P). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multitree_kit.h"

#define ST_MAX_PIECES 256u
#define ST_MIN_CAP 64u
#define ST_PIECE_BYTES 65536u

int hc__algo_bcast_stripes(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    HC__TRY(hc__bcast_check_segment(pb, opts));
    hc__hier_t h;
    HC__TRY(hc__hier_init(&h, pb));
    const uint32_t P = pb->P, nc = h.nc, root = pb->root;
    const uint64_t m = pb->msg_bytes ? pb->msg_bytes : 1;
    hc__mt_pack_t k;
    int rc = hc__mt_pack(&h, 0, &k);
    uint32_t used = 0, widest = 1;
    for (uint32_t t = 0; rc == HC_OK && t < k.nt; t++)
        used += k.weight[t] >= HC__MT_MIN_WEIGHT;
    for (uint32_t c = 0; c < nc; c++)
        widest = h.cl[c].n > widest ? h.cl[c].n : widest;
    uint64_t seg = opts && opts->segment_bytes ? opts->segment_bytes : 0;
    if (seg == 0) {
        uint64_t kmax = 8192 / (P ? P : 1);
        kmax = kmax < ST_MIN_CAP ? ST_MIN_CAP : kmax > ST_MAX_PIECES ? ST_MAX_PIECES : kmax;
        kmax = kmax > widest ? kmax : widest;
        uint64_t K0 = (m + ST_PIECE_BYTES - 1) / ST_PIECE_BYTES;
        K0 = K0 > used ? K0 : used;
        K0 = K0 > widest ? K0 : widest;
        K0 = K0 > 2 ? K0 : 2;
        K0 = K0 < kmax ? K0 : kmax;
        K0 = K0 < m ? K0 : m;
        seg = (m + K0 - 1) / K0;
    }
    seg = seg < m ? seg : m;
    const uint32_t K = hc__bc_seg_count(m, seg);
    uint32_t *tree_of = hc__malloc(K, sizeof *tree_of), *qu = hc__malloc(nc, sizeof *qu);
    uint64_t *off = hc__malloc((size_t)K + 1, sizeof *off);
    hc_schedule_t *s = NULL;
    hc__bb_t b;
    memset(&b, 0, sizeof b);
    int ramped = 0;
    if (rc == HC_OK && (!tree_of || !qu || !off))
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the stripes broadcast");
    if (rc == HC_OK) {
        hc__mt_deal(&k, K, tree_of);
        ramped = hc__bc_ramp_offsets(m, seg, K, opts ? opts->ramp_pieces : 0, off);
        rc = hc_schedule_create(HC_COLL_BCAST, P, &s);
    }
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hc__bb_init(&b, pb, s, P, K);
    for (uint32_t j = 0; rc == HC_OK && j < K; j++) {
        const uint64_t bytes = off[j + 1] - off[j];
        const int32_t *par = &k.tpar[(size_t)tree_of[j] * nc];
        const uint32_t e0 = hc__mt_entry(&h, 0, j, root);
        if (e0 != root) {
            rc = hc__bb_send(&b, root, e0, j, bytes, 0, NULL);
            if (j == 0)
                hc__bc_set_parent(s->parent, e0, root);
        }
        /* the sites breadth first down the piece's tree */
        uint32_t head = 0, tail = 0;
        qu[tail++] = 0;
        while (rc == HC_OK && head < tail) {
            const uint32_t c = qu[head++], v = hc__mt_entry(&h, c, j, root);
            for (uint32_t d = 1; rc == HC_OK && d < nc; d++) {
                if (par[d] != (int32_t)c)
                    continue;
                const uint32_t u = hc__mt_entry(&h, d, j, root);
                rc = hc__bb_send(&b, v, u, j, bytes, 0, NULL);
                if (j == 0)
                    hc__bc_set_parent(s->parent, u, v);
                qu[tail++] = d;
            }
            const hc__cluster_t *cl = &h.cl[c];
            uint32_t at = 0;
            while (cl->nodes[at] != v)
                at++;
            for (uint32_t q = 1; rc == HC_OK && q < cl->n; q++) {
                const uint32_t u = cl->nodes[(at + q) % cl->n];
                if (u == root)
                    continue;
                rc = hc__bb_send(&b, v, u, j, bytes, 0, NULL);
                if (j == 0)
                    hc__bc_set_parent(s->parent, u, v);
            }
        }
    }
    if (rc == HC_OK) {
        s->root = root;
        s->n_segments = K;
        char mix[256];
        hc__mt_mix_note(&k, NULL, K, mix, sizeof mix);
        rc = hc_schedule_set_note(s,
                                  "stripes: %u pieces of %llu bytes%s over %u site trees (%s), "
                                  "each entering every site by its own member",
                                  K, (unsigned long long)seg, ramped ? " (ramped)" : "", used, mix);
    }
    hc__bb_free(&b);
    free(tree_of);
    free(qu);
    free(off);
    hc__mt_pack_free(&k);
    hc__hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}
