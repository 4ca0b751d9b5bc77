/* `two-tree` broadcast: the pieces alternate between two binary trees over the non-root nodes,
 * built so that every node is interior in at most one of them (Sanders, Speck & Traeff 2009).
 * Each tree carries half the message and an interior node forwards its tree's half to two
 * children, so every NIC sends and receives about m: full bandwidth, like a pipeline chain,
 * but log2 P deep instead of P.
 *
 * Decisions:
 *   - positions 0 .. n-2 are the non-root nodes in rank order (ranks follow the caller: root,
 *     root + 1, ...), so every subtree is a contiguous range of ranks and a rack or site of
 *     consecutive ranks is entered by few tree edges;
 *   - tree 1 is the in-order binary tree over the positions in which the leaves are exactly the
 *     even positions (an odd-sized range [a, b) with a even has its root at the odd position
 *     nearest its middle); with an even count, the last position (odd) is put above that tree
 *     as its root with one child;
 *   - tree 2 has the same shape over relabelled positions: shifted by one (odd count: i -> i +
 *     1 mod n-1) or mirrored (even count: i -> n-2-i), which maps tree 1's leaves (even) onto
 *     interior positions (odd) and its interior nodes onto leaves;
 *   - piece j goes down tree j mod 2; the root sends every piece once, to that tree's root;
 *   - every node forwards its tree's pieces in piece order, left child first (a topological
 *     order of the 1-port builder, so the planned times are the simulator's replay).
 * Source: Sanders, Speck & Traeff, Two-tree algorithms for full bandwidth broadcast, reduction
 * and scan, Parallel Computing 35(12), 2009. Predicted time on a homogeneous cluster (1-port):
 * about (k + 2 log2 P)(L + g(s)). Complexity O(n + k n). */
#include <math.h>
#include <stdlib.h>

#include "bcast_kit.h"

/* In-order tree over the odd-sized range [a, b), a even: leaves at the even positions. Sets
 * par[] (positions; -1 for the range's root, which is returned). */
static int32_t inorder(int32_t *par, int32_t a, int32_t b)
{
    if (b - a == 1) {
        par[a] = -1;
        return a;
    }
    int32_t r = a + (b - a) / 2;
    if ((r - a) % 2 == 0)
        r--;
    int32_t l = inorder(par, a, r), rr = inorder(par, r + 1, b);
    par[l] = r;
    par[rr] = r;
    par[r] = -1;
    return r;
}

/* Parent positions of tree 1 over q >= 1 positions; returns its root. */
static int32_t tree_shape(int32_t *par, int32_t q)
{
    if (q % 2)
        return inorder(par, 0, q);
    if (q == 2) {
        par[0] = 1;
        par[1] = -1;
        return 1;
    }
    int32_t r = inorder(par, 0, q - 1);
    par[r] = q - 1;
    par[q - 1] = -1;
    return q - 1;
}

int hc__two_tree_children(uint32_t n, int32_t *kid, int32_t top[2])
{
    const int32_t q = (int32_t)n - 1;
    top[0] = top[1] = -1;
    for (size_t i = 0; i < 4 * (size_t)n; i++)
        kid[i] = -1;
    if (q < 1)
        return HC_OK;
    /* pp: the shape over positions; at[t * q + p]: the index at position p of tree t */
    int32_t *pp = hc__malloc((size_t)q, sizeof *pp), *at = hc__malloc(2 * (size_t)q, sizeof *at);
    if (!pp || !at) {
        free(pp);
        free(at);
        return hc__error(HC_ERR_NOMEM, "out of memory in two-tree");
    }
    int32_t r = tree_shape(pp, q);
    for (int32_t p = 0; p < q; p++) {
        at[p] = p + 1;
        at[q + (q % 2 ? (p + 1) % q : q - 1 - p)] = p + 1;
    }
    for (int t = 0; t < 2; t++) {
        top[t] = at[t * q + r];
        for (int32_t p = 0; p < q; p++) {
            if (pp[p] < 0)
                continue;
            int32_t u = at[t * q + pp[p]], *slot = &kid[4 * (size_t)u + 2 * (size_t)t];
            slot[slot[0] >= 0] = at[t * q + p];
        }
    }
    free(pp);
    free(at);
    return HC_OK;
}

int hc__two_tree_parents(uint32_t n, int32_t *up)
{
    int32_t top[2], *kid = hc__malloc(4 * (size_t)n + 1, sizeof *kid);
    int rc = kid ? hc__two_tree_children(n, kid, top)
                 : hc__error(HC_ERR_NOMEM, "out of memory in two-tree");
    for (uint32_t t = 0; rc == HC_OK && t < 2; t++) {
        for (uint32_t u = 0; u < n; u++)
            up[t * n + u] = -1;
        if (top[t] >= 0)
            up[t * n + (uint32_t)top[t]] = 0;
        for (uint32_t u = 0; u < n; u++)
            for (uint32_t c = 0; c < 2; c++) {
                int32_t v = kid[4 * (size_t)u + 2 * t + c];
                if (v >= 0)
                    up[t * n + (uint32_t)v] = (int32_t)u;
            }
        for (uint32_t u = 1; u < n; u++)
            if (up[t * n + u] < 0)
                rc = hc__error(HC_ERR_INTERNAL, "two-tree: index %u outside tree %u", u, t);
    }
    free(kid);
    return rc;
}

static int run(hc__bb_t *b, const uint32_t *nodes, uint32_t n, uint64_t m, uint64_t segbytes,
               uint32_t k, int32_t *parent)
{
    int32_t top[2];
    int32_t *kid = hc__malloc(4 * (size_t)n, sizeof *kid), *qu = hc__malloc(n, sizeof *qu);
    int rc = kid && qu ? hc__two_tree_children(n, kid, top)
                       : hc__error(HC_ERR_NOMEM, "out of memory in two-tree");
    for (uint32_t j = 0; rc == HC_OK && j < k; j++) {
        const size_t t = j % 2;
        const uint64_t bytes = hc__bc_seg_bytes(m, segbytes, k, j);
        /* the root, then breadth first down tree t: parents before children */
        uint32_t head = 0, tail = 0;
        qu[tail++] = 0;
        while (rc == HC_OK && head < tail) {
            int32_t u = qu[head++];
            for (size_t c = 0; rc == HC_OK && c < 2; c++) {
                int32_t v = u == 0 ? (c ? -1 : top[t]) : kid[4 * (size_t)u + 2 * t + c];
                if (v < 0)
                    continue;
                rc = hc__bb_send(b, nodes[u], nodes[v], j, bytes, 0, NULL);
                qu[tail++] = (uint32_t)v;
                /* parent[] describes the first piece's tree */
                if (j == 0)
                    hc__bc_set_parent(parent, nodes[v], nodes[u]);
            }
        }
    }
    free(kid);
    free(qu);
    return rc;
}

static double table1(const hc__table1_t *x)
{
    return (x->k + 2 * ceil(x->lg)) * (x->gs + x->L);
}

const hc__bc_classic_t hc__classic_bcast_two_tree = {"two-tree", 1, NULL, run, table1};
