/* `stripes` reduction: the mirror of the stripes broadcast (bcast_stripes.c). The elements are
 * cut into stripes, one per tree, all reduced at once; in stripe t every site's members send to
 * the site's entry for t, a member taken in turn, which sends the site's partial result to the
 * entry for t of its parent site (the root's site: to the root). Where the nodes' NICs are
 * slower than the sites' uplinks (grid5000), multitree's single coordinator per site receives
 * every site's partial results and its own site's; here every NIC receives and sends about m.
 *
 * Decisions:
 *   - sites and site trees: hc__mt_pack with the edges reversed (multitree_kit.h), the stripes
 *     dealt to the site trees by hc__mt_deal;
 *   - stripes: one per member of the widest site, or the least common multiple of the sites'
 *     entry counts when at most 64 (so that every member is an entry as often), of equal
 *     ranges (the last takes the remainder); fewer stripes than that when m is smaller;
 *   - entries: stripe t's entry of site c is its member t mod n (in the root's site the members
 *     other than the root; a root alone in its site is every stripe's entry);
 *   - planned times: the stripes one after the other, each node's communications one at a time
 *     (hc__reduce_add_tree_event, as multitree); the runtime runs the stripes at once, segment
 *     k of every stripe before segment k + 1 (src/mpi/exec.c), and the flow model replays that.
 * opts->segment_bytes is the runtime's pipeline segment (default: its rule). Complexity: the
 * packing's, plus O(T x P^2) for the trees' orders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multitree_kit.h"
#include "reduce_kit.h"

#define ST_MAX_STRIPES 64u

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        const uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

int hc__algo_reduce_stripes(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    hc__hier_t h;
    HC__TRY(hc__hier_init(&h, pb));
    const uint32_t P = pb->P, nc = h.nc, root = pb->root;
    const uint64_t m = pb->msg_bytes;
    hc__mt_pack_t k;
    int rc = hc__mt_pack(&h, 1, &k);
    /* stripes: the widest site's entries, or the lcm of every site's when small enough */
    uint32_t T = 1, widest = 1;
    for (uint32_t c = 0; c < nc; c++) {
        const uint32_t n = hc__mt_entries(&h, c, root);
        widest = n > widest ? n : widest;
        const uint64_t l = (uint64_t)T / gcd(T, n) * n;
        T = l <= ST_MAX_STRIPES ? (uint32_t)l : ST_MAX_STRIPES + 1;
    }
    T = T <= ST_MAX_STRIPES ? T : widest;
    T = m == 0 ? 1 : (uint64_t)T > m ? (uint32_t)m : T;
    uint32_t *tree_of = hc__malloc(T, sizeof *tree_of), *site = hc__malloc(P, sizeof *site);
    uint32_t *parent = hc__malloc(P, sizeof *parent), *ord = hc__malloc(P, sizeof *ord);
    double *free_at = hc__calloc(P, sizeof *free_at), *ready = hc__malloc(P, sizeof *ready);
    hc_schedule_t *s = NULL;
    if (rc == HC_OK && (!tree_of || !site || !parent || !ord || !free_at || !ready))
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the stripes reduction");
    if (rc == HC_OK) {
        hc__mt_deal(&k, T, tree_of);
        for (uint32_t c = 0; c < nc; c++)
            for (uint32_t a = 0; a < h.cl[c].n; a++)
                site[h.cl[c].nodes[a]] = c;
        rc = hc_schedule_create(HC_COLL_REDUCE, P, &s);
    }
    for (uint32_t t = 0; rc == HC_OK && t < T; t++) {
        /* stripe t's range: m / T bytes, the last the remainder (sizes only: the runtime cuts
         * the elements in proportion) */
        const uint64_t tb = t + 1 == T ? m - (m / T) * (T - 1) : m / T;
        const int32_t *par = &k.tpar[(size_t)tree_of[t] * nc];
        for (uint32_t v = 0; v < P; v++) {
            const uint32_t c = site[v], e = hc__mt_entry(&h, c, t, root);
            if (v == root)
                parent[v] = UINT32_MAX;
            else if (v != e)
                parent[v] = e;
            else if (c == 0)
                parent[v] = root;
            else
                parent[v] = hc__mt_entry(&h, (uint32_t)par[c], t, root);
        }
        rc = hc__reduce_add_tree(s, pb, parent, ord, tb, (uint8_t)t, free_at, ready,
                                 "stripes reduction");
    }
    if (rc == HC_OK) {
        s->root = root;
        s->segment_bytes = opts ? opts->segment_bytes : 0; /* forced: the runtime's too */
        rc = hc_schedule_set_note(s,
                                  "stripes: %u stripes of about %llu bytes, each reduced into "
                                  "every site by its own member",
                                  T, (unsigned long long)(T ? m / T : m));
    }
    free(tree_of);
    free(site);
    free(parent);
    free(ord);
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
