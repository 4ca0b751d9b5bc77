/* `two-tree` reduction: the mirror of the two-tree broadcast (bcast_two_tree.c; Sanders, Speck
 * & Traeff 2009). The elements are cut in two halves; each half is reduced into the root along
 * one of the broadcast's two binary trees with the edges reversed, both at once. Every node is
 * interior in at most one tree, so every NIC receives and sends about m (a chain's load) while
 * the depth is 2 log2 P instead of P.
 *
 * Decisions:
 *   - ranks: root, root + 1, ... (mod P), as the classic broadcasts order them, so that a rack
 *     or site of consecutive ranks is a few contiguous subtrees;
 *   - trees: hc__two_tree_children (bcast_kit.h) over those ranks, edges reversed (child ->
 *     parent), tree t's events carry `tree` = t and half the bytes (the runtime reduces each
 *     tree's range of the elements along it, segment by segment, src/mpi/exec.c);
 *   - fewer than two bytes (or a problem of send times): tree 0 alone, the whole message;
 *   - planned times: the trees one after the other, each node's communications one at a time
 *     (the half-duplex 1-port model of Liu et al.'s reductions, as multitree plans them), so
 *     that the planned makespan is the simulator's replay; the runtime pipelines them and the
 *     flow model replays that.
 * Complexity O(P). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"
#include "reduce_kit.h"

int hc__algo_reduce_two_tree(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out)
{
    *out = NULL;
    const uint32_t P = pb->P;
    const uint64_t m = pb->msg_bytes;
    const uint32_t T = m >= 2 ? 2 : 1;
    const uint64_t half[2] = {T == 2 ? m / 2 : m, m - m / 2};
    int32_t top[2];
    int32_t *kid = hc__malloc(4 * (size_t)P, sizeof *kid);
    uint32_t *ord = hc__malloc(P, sizeof *ord), *parent = hc__malloc(P, sizeof *parent);
    double *free_at = hc__calloc(P, sizeof *free_at), *ready = hc__malloc(P, sizeof *ready);
    hc_schedule_t *s = NULL;
    int rc = kid && ord && parent && free_at && ready
                 ? hc__two_tree_children(P, kid, top)
                 : hc__error(HC_ERR_NOMEM, "out of memory in the two-tree reduction");
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_REDUCE, P, &s);
    for (uint32_t t = 0; rc == HC_OK && t < T; t++) {
        /* breadth first from the root over indices (node = (root + index) mod P) */
        uint32_t n = 0;
        ord[n++] = 0;
        parent[0] = UINT32_MAX;
        for (uint32_t q = 0; q < n; q++)
            for (size_t c = 0; c < 2; c++) {
                int32_t v = ord[q] == 0 ? (c ? -1 : top[t]) : kid[4 * (size_t)ord[q] + 2 * t + c];
                if (v < 0)
                    continue;
                parent[v] = ord[q];
                ord[n++] = (uint32_t)v;
            }
        if (n != P) {
            rc =
                hc__error(HC_ERR_INTERNAL, "two-tree reduction: tree %u misses %u nodes", t, P - n);
            break;
        }
        for (uint32_t v = 0; v < P; v++)
            ready[v] = 0;
        /* children before parents */
        for (uint32_t q = n; rc == HC_OK && q-- > 1;) {
            rc = hc__reduce_add_tree_event(s, pb, (pb->root + ord[q]) % P,
                                           (pb->root + parent[ord[q]]) % P, half[t], (uint8_t)t,
                                           free_at, ready);
        }
    }
    if (rc == HC_OK) {
        s->root = pb->root;
        s->segment_bytes = opts ? opts->segment_bytes : 0; /* forced: the runtime's too */
        rc = T == 2 ? hc_schedule_set_note(s, "two-tree: 2 trees of %llu and %llu bytes",
                                           (unsigned long long)half[0], (unsigned long long)half[1])
                    : hc_schedule_set_note(s, "two-tree: tree 1 alone (no bytes to split)");
    }
    free(kid);
    free(ord);
    free(parent);
    free(free_at);
    free(ready);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}
