/* hc_platform_subset: the platform seen by a subset of its nodes (an MPI communicator's
 * members), with everything the model uses kept: links, names, clusters, send times and the
 * pLogP gap tables (per node pair and per cluster pair). */
#include <stdlib.h>

#include "net_internal.h"

int hc_platform_subset(const hc_platform_t *p, const uint32_t *nodes, uint32_t n,
                       hc_platform_t **out)
{
    if (!p || !nodes || !out)
        return hc__error(HC_ERR_INVAL, "hc_platform_subset: NULL argument");
    *out = NULL;
    if (n == 0)
        return hc__error(HC_ERR_VALUE, "hc_platform_subset: no nodes given");
    for (uint32_t a = 0; a < n; a++)
        if (nodes[a] >= p->P)
            return hc__error(HC_ERR_VALUE,
                             "hc_platform_subset: node %u is beyond the platform's %u nodes",
                             nodes[a], p->P);
    unsigned char *seen = hc__calloc(p->P, 1);
    if (!seen)
        return hc__error(HC_ERR_NOMEM, "out of memory taking a platform subset");
    for (uint32_t a = 0; a < n; a++) {
        if (seen[nodes[a]]) {
            free(seen);
            return hc__error(HC_ERR_VALUE, "hc_platform_subset: node %u is given twice", nodes[a]);
        }
        seen[nodes[a]] = 1;
    }
    free(seen);
    hc_platform_t *q;
    HC__TRY(hc__platform_alloc(n, 1.0, 1.0, &q));
    /* Original cluster index -> the subset's (created in order of first use), -1 if absent. */
    int32_t *cmap = hc__malloc(p->n_clusters ? p->n_clusters : 1, sizeof *cmap);
    int rc = cmap ? hc_platform_set_name(q, p->name)
                  : hc__error(HC_ERR_NOMEM, "out of memory taking a platform subset");
    for (uint32_t c = 0; rc == HC_OK && c < p->n_clusters; c++)
        cmap[c] = -1;
    for (uint32_t a = 0; rc == HC_OK && a < n; a++) {
        const uint32_t i = nodes[a];
        rc = hc_platform_set_node_name(q, a, p->node_names[i]);
        q->send_time[a] = p->send_time[i];
        if (rc == HC_OK && p->cluster[i] >= 0) {
            rc = hc_platform_set_cluster(q, a, p->cluster_names[p->cluster[i]]);
            cmap[p->cluster[i]] = q->cluster[a];
        }
        for (uint32_t b = 0; b < n; b++) {
            q->lat[(size_t)a * n + b] = a == b ? 0.0 : p->lat[(size_t)i * p->P + nodes[b]];
            q->bw[(size_t)a * n + b] =
                a == b ? q->bw[(size_t)a * n + b] : p->bw[(size_t)i * p->P + nodes[b]];
        }
    }
    for (uint32_t a = 0; rc == HC_OK && p->pair_gap && a < n; a++)
        for (uint32_t b = 0; rc == HC_OK && b < n; b++) {
            const hc__gap_table_t *t = &p->pair_gap[(size_t)nodes[a] * p->P + nodes[b]];
            if (a != b && t->n)
                rc = hc_platform_set_gap_table(q, a, b, t->n, t->sizes, t->gaps);
        }
    for (size_t k = 0; rc == HC_OK && k < p->n_cgaps; k++) {
        const hc__cluster_gap_t *g = &p->cgaps[k];
        if (cmap[g->ca] >= 0 && cmap[g->cb] >= 0)
            rc = hc__platform_set_cluster_gap_table(q, (uint32_t)cmap[g->ca], (uint32_t)cmap[g->cb],
                                                    g->t.n, g->t.sizes, g->t.gaps);
    }
    free(cmap);
    if (rc == HC_OK)
        rc = hc__links_copy(q, p, nodes);
    if (rc != HC_OK) {
        hc_platform_destroy(q);
        return rc;
    }
    *out = q;
    return HC_OK;
}
