/* Logical clusters: Lowekamp's greedy grouping with relative tolerance rho (004 §4.1, eq. 3),
 * and the all-pairs variant (eq. 2). See include/hetcoll/topo.h for the exact rules.
 *
 * Complexity: O(E log E) for the edge sort (E = P(P-1)/2); then O(1) per edge for greedy and
 * O(|S|) per admission test for all-pairs (each member keeps its smallest and largest in-group
 * edge: a distance u agrees with every v in [lo, hi] iff it agrees with lo and with hi, since
 * the set of values agreeing with u is the interval [u / (1 + rho), u (1 + rho)]). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_internal.h"

typedef struct edge {
    double w;
    uint32_t i, j;
} edge_t;

static int edge_cmp(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    if (x->w < y->w)
        return -1;
    if (x->w > y->w)
        return 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return 0;
}

/* u and v agree within relative tolerance rho (relative to the smaller one). */
static int agree(double u, double v, double rho)
{
    double lo = u < v ? u : v, hi = u < v ? v : u;
    return hi - lo <= rho * lo;
}

void hc_cluster_opts_init(hc_cluster_opts_t *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = (uint32_t)sizeof *opts;
    opts->rho = 0.3;
    opts->metric = HC_CLUSTER_LATENCY;
    opts->variant = HC_CLUSTER_GREEDY;
}

static int check_opts(const hc_cluster_opts_t *o)
{
    if (!isfinite(o->rho) || o->rho < 0)
        return hc__error(HC_ERR_VALUE, "cluster: rho = %g: must be finite and >= 0", o->rho);
    if (o->variant != HC_CLUSTER_GREEDY && o->variant != HC_CLUSTER_ALL_PAIRS)
        return hc__error(HC_ERR_VALUE, "cluster: unknown variant %d", (int)o->variant);
    if (o->metric != HC_CLUSTER_LATENCY && o->metric != HC_CLUSTER_BANDWIDTH)
        return hc__error(HC_ERR_VALUE, "cluster: unknown metric %d", (int)o->metric);
    return HC_OK;
}

/* The core on a symmetric distance matrix w (P*P). */
static int cluster_core(uint32_t P, const double *w, const hc_cluster_opts_t *o, int32_t *labels,
                        uint32_t *n_clusters)
{
    size_t E = (size_t)P * (P - 1) / 2;
    edge_t *edges = E ? hc__malloc(E, sizeof *edges) : NULL;
    double *nearest = hc__malloc(P, sizeof *nearest);
    double *gmin = hc__malloc(P, sizeof *gmin);       /* per group (indexed by seed label) */
    double *mlo = hc__malloc(P, sizeof *mlo);         /* per node: smallest in-group edge */
    double *mhi = hc__malloc(P, sizeof *mhi);         /* per node: largest in-group edge */
    uint32_t *mstart = hc__malloc(P, sizeof *mstart); /* per group: list head index */
    uint32_t *mnext = hc__malloc(P, sizeof *mnext);   /* per node: next member, P = end */
    int32_t *remap = hc__malloc(P, sizeof *remap);
    int rc = HC_OK;
    if ((E && !edges) || !nearest || !gmin || !mlo || !mhi || !mstart || !mnext || !remap) {
        rc = hc__error(HC_ERR_NOMEM, "cluster: out of memory for %u nodes", P);
        goto done;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < P; i++) {
        labels[i] = -1;
        nearest[i] = INFINITY;
        for (uint32_t j = 0; j < P; j++)
            if (j != i && w[(size_t)i * P + j] < nearest[i])
                nearest[i] = w[(size_t)i * P + j];
        for (uint32_t j = i + 1; j < P; j++)
            edges[k++] = (edge_t){w[(size_t)i * P + j], i, j};
    }
    if (E)
        qsort(edges, E, sizeof *edges, edge_cmp);
    int32_t ngroups = 0;
    for (size_t e = 0; e < E; e++) {
        uint32_t x = edges[e].i, y = edges[e].j;
        double we = edges[e].w;
        if (labels[x] < 0 && labels[y] < 0) {
            if (!agree(we, nearest[x], o->rho) || !agree(we, nearest[y], o->rho))
                continue;
            int32_t g = ngroups++;
            labels[x] = labels[y] = g;
            gmin[g] = we;
            mlo[x] = mhi[x] = mlo[y] = mhi[y] = we;
            mstart[g] = x;
            mnext[x] = y;
            mnext[y] = P;
            continue;
        }
        if (labels[x] >= 0 && labels[y] >= 0) {
            int32_t g1 = labels[x], g2 = labels[y];
            if (g1 == g2)
                continue;
            int ok;
            if (o->variant == HC_CLUSTER_GREEDY) {
                ok = agree(we, gmin[g1], o->rho) && agree(we, gmin[g2], o->rho);
            } else {
                ok = 1;
                for (uint32_t u = mstart[g1]; u != P && ok; u = mnext[u])
                    for (uint32_t v = mstart[g2]; v != P && ok; v = mnext[v]) {
                        double d = w[(size_t)u * P + v];
                        ok = agree(d, mlo[u], o->rho) && agree(d, mhi[u], o->rho) &&
                             agree(d, mlo[v], o->rho) && agree(d, mhi[v], o->rho);
                    }
            }
            if (!ok)
                continue;
            /* Merge g2 into g1. */
            for (uint32_t u = mstart[g1]; u != P; u = mnext[u])
                for (uint32_t v = mstart[g2]; v != P; v = mnext[v]) {
                    double d = w[(size_t)u * P + v];
                    mlo[u] = d < mlo[u] ? d : mlo[u];
                    mhi[u] = d > mhi[u] ? d : mhi[u];
                    mlo[v] = d < mlo[v] ? d : mlo[v];
                    mhi[v] = d > mhi[v] ? d : mhi[v];
                }
            uint32_t last = mstart[g2];
            for (uint32_t v = mstart[g2]; v != P; v = mnext[v]) {
                labels[v] = g1;
                last = v;
            }
            mnext[last] = mstart[g1];
            mstart[g1] = mstart[g2];
            if (gmin[g2] < gmin[g1])
                gmin[g1] = gmin[g2];
            continue;
        }
        uint32_t a = labels[x] < 0 ? x : y, m = labels[x] < 0 ? y : x;
        int32_t g = labels[m];
        int ok;
        if (o->variant == HC_CLUSTER_GREEDY) {
            ok = agree(we, gmin[g], o->rho);
        } else {
            ok = 1;
            for (uint32_t u = mstart[g]; u != P && ok; u = mnext[u]) {
                double d = w[(size_t)a * P + u];
                ok = agree(d, mlo[u], o->rho) && agree(d, mhi[u], o->rho);
            }
        }
        if (!ok)
            continue;
        double lo = INFINITY, hi = 0;
        for (uint32_t u = mstart[g]; u != P; u = mnext[u]) {
            double d = w[(size_t)a * P + u];
            if (d < mlo[u])
                mlo[u] = d;
            if (d > mhi[u])
                mhi[u] = d;
            if (d < lo)
                lo = d;
            if (d > hi)
                hi = d;
        }
        mlo[a] = lo;
        mhi[a] = hi;
        labels[a] = g;
        mnext[a] = mstart[g];
        mstart[g] = a;
    }
    /* Singletons, then renumber by first member. */
    for (uint32_t i = 0; i < P; i++)
        if (labels[i] < 0)
            labels[i] = ngroups++;
    for (int32_t g = 0; g < ngroups; g++)
        remap[g] = -1;
    int32_t next = 0;
    for (uint32_t i = 0; i < P; i++) {
        if (remap[labels[i]] < 0)
            remap[labels[i]] = next++;
        labels[i] = remap[labels[i]];
    }
    *n_clusters = (uint32_t)next;
done:
    free(edges);
    free(nearest);
    free(gmin);
    free(mlo);
    free(mhi);
    free(mstart);
    free(mnext);
    free(remap);
    return rc;
}

int hc_cluster_compute_matrix(uint32_t P, const double *dist, const hc_cluster_opts_t *opts,
                              int32_t *labels_out, uint32_t *n_clusters)
{
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_cluster_opts_t"));
    if (P == 0 || !dist || !labels_out || !n_clusters)
        return hc__error(HC_ERR_INVAL, "cluster: P must be >= 1 and pointers non-NULL");
    HC__TRY(check_opts(&o));
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            double d = dist[(size_t)i * P + j];
            if (i != j && (!isfinite(d) || d < 0))
                return hc__error(HC_ERR_VALUE,
                                 "cluster: distance[%u][%u] = %g: must be finite and >= 0", i, j,
                                 d);
        }
    double *w = hc__malloc((size_t)P * P, sizeof *w);
    if (!w)
        return hc__error(HC_ERR_NOMEM, "cluster: out of memory for %u nodes", P);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            w[(size_t)i * P + j] =
                i == j ? 0 : 0.5 * (dist[(size_t)i * P + j] + dist[(size_t)j * P + i]);
    int rc = cluster_core(P, w, &o, labels_out, n_clusters);
    free(w);
    return rc;
}

int hc_cluster_compute(const hc_platform_t *p, const hc_cluster_opts_t *opts, int32_t *labels_out,
                       uint32_t *n_clusters)
{
    hc_cluster_opts_t o;
    hc_cluster_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_cluster_opts_t"));
    if (!p || !labels_out || !n_clusters)
        return hc__error(HC_ERR_INVAL, "hc_cluster_compute: NULL argument");
    HC__TRY(check_opts(&o));
    uint32_t P = hc_platform_size(p);
    double *d = hc__malloc((size_t)P * P, sizeof *d);
    if (!d)
        return hc__error(HC_ERR_NOMEM, "cluster: out of memory for %u nodes", P);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            double v = 0;
            if (i != j) {
                if (o.metric == HC_CLUSTER_LATENCY) {
                    v = hc_platform_latency(p, i, j);
                } else {
                    double b = hc_platform_bandwidth(p, i, j);
                    v = b > 0 ? 1.0 / b : INFINITY;
                }
            }
            d[(size_t)i * P + j] = v;
        }
    int rc = hc_cluster_compute_matrix(P, d, &o, labels_out, n_clusters);
    free(d);
    return rc;
}

int hc_platform_apply_clusters(hc_platform_t *p, const int32_t *labels, const char *prefix)
{
    if (!p || !labels)
        return hc__error(HC_ERR_INVAL, "hc_platform_apply_clusters: NULL argument");
    if (!prefix)
        prefix = "c";
    uint32_t P = hc_platform_size(p);
    /* Remove every label first so that names never clash with the old ones. */
    for (uint32_t i = 0; i < P; i++)
        HC__TRY(hc_platform_set_cluster(p, i, NULL));
    for (uint32_t i = 0; i < P; i++) {
        if (labels[i] < 0)
            continue;
        char name[128];
        int n = snprintf(name, sizeof name, "%s%d", prefix, (int)labels[i]);
        if (n < 0 || (size_t)n >= sizeof name)
            return hc__error(HC_ERR_VALUE, "hc_platform_apply_clusters: prefix '%s' is too long",
                             prefix);
        HC__TRY(hc_platform_set_cluster(p, i, name));
    }
    return HC_OK;
}
