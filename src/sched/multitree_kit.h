/* The multi-tree toolkit: what the multi-tree broadcast and reduction (bcast_multitree.c,
 * reduce_multitree.c) share. Internal, not installed.
 *   - hc__mt_pack: candidate site trees over the sites of hc__hier_init (the direct tree, the
 *     root's site linked to every site; per other site c the relay tree root - c - every
 *     other site; with routes and 3 sites or more the chain of sites, each left from its last
 *     node, which suits NIC-bound platforms), their loads on the links of their routes and of
 *     a chain inside each site (every node's NIC), a
 *     shared link counts both directions, a split-duplex link each direction, a fat pipe
 *     nothing; without routes the private coordinator pairs at the rates of the planned costs),
 *     and the mix of them minimising the most loaded link's time, by multiplicative weights
 *     over the links (Garg & Koenemann 2007): the averaged best responses approach the optimal
 *     mix. reverse = 1 packs the trees with their edges reversed (a reduction: child site ->
 *     parent site).
 *   - hc__mt_fanout: the fan-out of the d-ary trees inside a site. */
#ifndef HETCOLL_MULTITREE_KIT_H
#define HETCOLL_MULTITREE_KIT_H

#include "bcast_kit.h"

/* The packing: candidate site trees, their loads on the resources ((link, direction) slots
 * of the routes, or private coordinator pairs without routes), and their weights. */
typedef struct {
    uint32_t nr;         /* resources */
    double *cap;         /* nr capacities (bytes per second) */
    uint32_t nt;         /* candidate trees */
    int32_t *tpar;       /* nt x nc: parent site, -1 for the root's site */
    unsigned char *tail; /* nt: 1 = a site's edges to other sites leave from its last node */
    size_t *off;         /* nt + 1: tree t's loads are res/amt[off[t] .. off[t + 1]) */
    uint32_t *res;       /* resource of each load entry */
    double *amt;         /* seconds per message byte on that resource */
    size_t n_ent;        /* load entries */
    double *weight;      /* nt, summing to 1 */
    double per_byte;     /* most loaded resource's seconds per message byte for the mix */
} hc__mt_pack_t;

/* Trees below this share of the message carry none of it: the multiplicative weights leave a
 * residue on the trees of their first iterations, and a tree given a few of many pieces costs
 * as much as a used one (grid5000, 16 MiB in 9360 B pieces, the site chain at 99.9 %: the root
 * kept the direct tree's WAN window for its own site's sends, 0.331 s predicted under SMPI's
 * model, 0.210 s without the residue). */
#define HC__MT_MIN_WEIGHT 0.02

void hc__mt_pack_free(hc__mt_pack_t *k);
/* The node of site c that sends to (broadcast) or receives from (reduction) the other sites in
 * tree t: the coordinator, or the site's last node when the tree leaves from its tail. */
uint32_t hc__mt_exit(const hc__hier_t *h, const hc__mt_pack_t *k, uint32_t t, uint32_t c);
int hc__mt_pack(const hc__hier_t *h, int reverse, hc__mt_pack_t *k);
/* Smooth weighted round robin: each of the n pieces to the tree whose credit, raised by its
 * weight w[t] per piece, is highest (the first on ties), which then pays the weights' sum: the
 * counts follow the weights and the trees interleave. Nonzero without memory (tree_of
 * untouched). */
int hc__mt_swrr(const double *w, uint32_t nt, uint32_t n, uint32_t *tree_of);
/* The K pieces dealt by hc__mt_swrr in proportion to the packing's weights (each tree of at
 * least HC__MT_MIN_WEIGHT and half a piece gets one; without memory, all on tree 0). */
void hc__mt_deal(const hc__mt_pack_t *k, uint32_t K, uint32_t *tree_of);
/* The mix for a schedule's note, into buf (len bytes): "direct 38 %, relay 31 %, ..." over the
 * trees of at least HC__MT_MIN_WEIGHT, each its weight, or with tree_of (K pieces' trees) the
 * share of the pieces it got. */
void hc__mt_mix_note(const hc__mt_pack_t *k, const uint32_t *tree_of, uint32_t K, char *buf,
                     size_t len);
/* The stripes' entries of site c (bcast_stripes.c, reduce_stripes.c): its members but the root
 * (every member when the root is alone there); stripe or piece j enters by entry j mod that
 * count. */
uint32_t hc__mt_entries(const hc__hier_t *h, uint32_t c, uint32_t root);
uint32_t hc__mt_entry(const hc__hier_t *h, uint32_t c, uint32_t j, uint32_t root);
/* Fan-out d (1 = chain) of the trees inside cluster c for K pieces of s bytes arriving at
 * best `arrive` seconds apart (the mix's most loaded resource: per_byte x s), from the
 * cluster's pLogP parameters: depth x (L + g(s)) + (K - 1) x max(d x g(s), arrive), d <= 4.
 * Where the pieces come slowly (a WAN uplink ten times slower than the NICs) the site's tree
 * is shallow and wide (1 MiB on the 3-site grid: 0.171 -> 0.158 s in the flow model); where
 * the NICs are the bottleneck, a chain. Above 32 pieces `arrive` is ignored (measured). */
uint32_t hc__mt_fanout(const hc__cluster_t *c, uint64_t s, uint32_t K, double arrive);

#endif
