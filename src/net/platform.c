/* Platforms: P nodes, per-pair latency and bandwidth, cluster labels, per-node send times and
 * pLogP gap tables (per node pair or per cluster pair). JSON lives in platform_json.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_internal.h"

static void gap_table_free(hc__gap_table_t *t)
{
    free(t->sizes);
    free(t->gaps);
    t->sizes = NULL;
    t->gaps = NULL;
    t->n = 0;
}

static int gap_table_copy(hc__gap_table_t *dst, size_t n, const uint64_t *sizes, const double *gaps)
{
    dst->sizes = hc__malloc(n, sizeof *dst->sizes);
    dst->gaps = hc__malloc(n, sizeof *dst->gaps);
    if (!dst->sizes || !dst->gaps) {
        free(dst->sizes);
        free(dst->gaps);
        dst->sizes = NULL;
        dst->gaps = NULL;
        dst->n = 0;
        return hc__error(HC_ERR_NOMEM, "out of memory copying a gap table");
    }
    memcpy(dst->sizes, sizes, n * sizeof *sizes);
    memcpy(dst->gaps, gaps, n * sizeof *gaps);
    dst->n = n;
    return HC_OK;
}

void hc_platform_destroy(hc_platform_t *p)
{
    if (!p)
        return;
    if (p->node_names)
        for (uint32_t i = 0; i < p->P; i++)
            free(p->node_names[i]);
    free(p->node_names);
    for (uint32_t c = 0; c < p->n_clusters; c++)
        free(p->cluster_names[c]);
    free(p->cluster_names);
    if (p->pair_gap) {
        size_t n = (size_t)p->P * p->P;
        for (size_t k = 0; k < n; k++)
            gap_table_free(&p->pair_gap[k]);
        free(p->pair_gap);
    }
    for (size_t k = 0; k < p->n_cgaps; k++)
        gap_table_free(&p->cgaps[k].t);
    free(p->cgaps);
    free(p->name);
    free(p->lat);
    free(p->bw);
    free(p->send_time);
    free(p->cluster);
    hc__links_free(p);
    free(p);
}

int hc__platform_alloc(uint32_t P, double lat, double bw, hc_platform_t **out)
{
    *out = NULL;
    if (P == 0)
        return hc__error(HC_ERR_VALUE, "a platform needs at least 1 node (got 0)");
    if (P > 65536)
        return hc__error(HC_ERR_LIMIT, "a platform has at most 65536 nodes (got %u)", P);
    /* Platforms are dense (2 P x P matrices): a few bytes of cluster form can ask for 64 GiB. */
    const uint64_t cap = hc__max_nodes();
    if (P > cap)
        return hc__error(HC_ERR_LIMIT,
                         "a platform of %u nodes needs %.3g GB of link tables, more than the "
                         "limit of %llu nodes (set HETCOLL_MAX_NODES to raise it)",
                         P, 16.0 * P * P / 1e9, (unsigned long long)cap);
    hc_platform_t *p = hc__calloc(1, sizeof *p);
    if (!p)
        return hc__error(HC_ERR_NOMEM, "out of memory allocating a %u-node platform", P);
    size_t n = (size_t)P * P;
    p->P = P;
    p->name = hc__strdup("");
    p->node_names = hc__calloc(P, sizeof *p->node_names);
    p->lat = hc__malloc(n, sizeof *p->lat);
    p->bw = hc__malloc(n, sizeof *p->bw);
    p->send_time = hc__malloc(P, sizeof *p->send_time);
    p->cluster = hc__malloc(P, sizeof *p->cluster);
    if (!p->name || !p->node_names || !p->lat || !p->bw || !p->send_time || !p->cluster) {
        hc_platform_destroy(p);
        return hc__error(HC_ERR_NOMEM, "out of memory allocating a %u-node platform", P);
    }
    for (uint32_t i = 0; i < P; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "n%u", i);
        p->node_names[i] = hc__strdup(buf);
        if (!p->node_names[i]) {
            hc_platform_destroy(p);
            return hc__error(HC_ERR_NOMEM, "out of memory allocating a %u-node platform", P);
        }
        p->send_time[i] = -1.0;
        p->cluster[i] = -1;
        for (uint32_t j = 0; j < P; j++) {
            p->lat[(size_t)i * P + j] = i == j ? 0.0 : lat;
            p->bw[(size_t)i * P + j] = i == j ? INFINITY : bw;
        }
    }
    *out = p;
    return HC_OK;
}

static int check_link_value(const char *what, double x)
{
    if (!isfinite(x) || x <= 0)
        return hc__error(HC_ERR_VALUE, "%s: must be finite and > 0 (got %g)", what, x);
    return HC_OK;
}

int hc_platform_create(uint32_t P, double lat, double bw, hc_platform_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_platform_create: out is NULL");
    *out = NULL;
    HC__TRY(check_link_value("hc_platform_create: latency", lat));
    HC__TRY(check_link_value("hc_platform_create: bandwidth", bw));
    return hc__platform_alloc(P, lat, bw, out);
}

int hc_platform_clone(const hc_platform_t *p, hc_platform_t **out)
{
    if (!p || !out)
        return hc__error(HC_ERR_INVAL, "hc_platform_clone: NULL argument");
    *out = NULL;
    hc_platform_t *q;
    HC__TRY(hc__platform_alloc(p->P, 1.0, 1.0, &q));
    size_t n = (size_t)p->P * p->P;
    int rc = HC_OK;
    memcpy(q->lat, p->lat, n * sizeof *q->lat);
    memcpy(q->bw, p->bw, n * sizeof *q->bw);
    memcpy(q->send_time, p->send_time, p->P * sizeof *q->send_time);
    memcpy(q->cluster, p->cluster, p->P * sizeof *q->cluster);
    if ((rc = hc_platform_set_name(q, p->name)) != HC_OK)
        goto fail;
    for (uint32_t i = 0; i < p->P; i++)
        if ((rc = hc_platform_set_node_name(q, i, p->node_names[i])) != HC_OK)
            goto fail;
    if (p->n_clusters) {
        q->cluster_names = hc__calloc(p->n_clusters, sizeof *q->cluster_names);
        if (!q->cluster_names)
            goto nomem;
        q->n_clusters = p->n_clusters;
        for (uint32_t c = 0; c < p->n_clusters; c++)
            if (!(q->cluster_names[c] = hc__strdup(p->cluster_names[c])))
                goto nomem;
    }
    if (p->pair_gap) {
        q->pair_gap = hc__calloc(n, sizeof *q->pair_gap);
        if (!q->pair_gap)
            goto nomem;
        for (size_t k = 0; k < n; k++)
            if (p->pair_gap[k].n &&
                (rc = gap_table_copy(&q->pair_gap[k], p->pair_gap[k].n, p->pair_gap[k].sizes,
                                     p->pair_gap[k].gaps)) != HC_OK)
                goto fail;
    }
    for (size_t k = 0; k < p->n_cgaps; k++) {
        const hc__cluster_gap_t *g = &p->cgaps[k];
        if ((rc = hc__platform_set_cluster_gap_table(q, g->ca, g->cb, g->t.n, g->t.sizes,
                                                     g->t.gaps)) != HC_OK)
            goto fail;
    }
    if ((rc = hc__links_copy(q, p, NULL)) != HC_OK)
        goto fail;
    *out = q;
    return HC_OK;
nomem:
    rc = hc__error(HC_ERR_NOMEM, "out of memory cloning a platform");
fail:
    hc_platform_destroy(q);
    return rc;
}

/* ---- getters ---- */

uint32_t hc_platform_size(const hc_platform_t *p)
{
    return p ? p->P : 0;
}

const char *hc_platform_name(const hc_platform_t *p)
{
    return p && p->name ? p->name : "";
}

const char *hc_platform_node_name(const hc_platform_t *p, uint32_t i)
{
    if (!p || i >= p->P)
        return "";
    return p->node_names[i];
}

double hc_platform_latency(const hc_platform_t *p, uint32_t i, uint32_t j)
{
    if (!p || i >= p->P || j >= p->P)
        return NAN;
    return p->lat[(size_t)i * p->P + j];
}

double hc_platform_bandwidth(const hc_platform_t *p, uint32_t i, uint32_t j)
{
    if (!p || i >= p->P || j >= p->P)
        return NAN;
    return p->bw[(size_t)i * p->P + j];
}

double hc_platform_send_time(const hc_platform_t *p, uint32_t i)
{
    if (!p || i >= p->P)
        return -1.0;
    return p->send_time[i];
}

uint32_t hc_platform_cluster_count(const hc_platform_t *p)
{
    return p ? p->n_clusters : 0;
}

int32_t hc_platform_cluster_of(const hc_platform_t *p, uint32_t i)
{
    if (!p || i >= p->P)
        return -1;
    return p->cluster[i];
}

const char *hc_platform_cluster_name(const hc_platform_t *p, uint32_t c)
{
    if (!p || c >= p->n_clusters)
        return "";
    return p->cluster_names[c];
}

/* ---- gaps ---- */

double hc__gap_table_eval(const hc__gap_table_t *t, uint64_t m)
{
    size_t n = t->n;
    const uint64_t *s = t->sizes;
    const double *g = t->gaps;
    double x = (double)m;
    if (m == 0)
        return 0.0;
    if (n == 1 || m <= s[0]) {
        /* Below the first sample: the line through (0, 0) and the first sample (a single
         * sample: proportional everywhere). */
        if (s[0] == 0)
            return g[0];
        return g[0] * x / (double)s[0];
    }
    size_t k = 1;
    while (k < n - 1 && s[k] < m)
        k++;
    /* Interpolate on [s[k-1], s[k]] or extrapolate from the last two points. */
    double x0 = (double)s[k - 1], x1 = (double)s[k];
    double y = g[k - 1] + (g[k] - g[k - 1]) * (x - x0) / (x1 - x0);
    return y > 0 ? y : 0.0;
}

double hc_platform_gap(const hc_platform_t *p, uint32_t i, uint32_t j, uint64_t m)
{
    if (!p || i >= p->P || j >= p->P)
        return NAN;
    if (i == j || m == 0)
        return 0.0;
    if (p->pair_gap && p->pair_gap[(size_t)i * p->P + j].n)
        return hc__gap_table_eval(&p->pair_gap[(size_t)i * p->P + j], m);
    int32_t ci = p->cluster[i], cj = p->cluster[j];
    if (ci >= 0 && cj >= 0)
        for (size_t k = 0; k < p->n_cgaps; k++)
            if (p->cgaps[k].ca == (uint32_t)ci && p->cgaps[k].cb == (uint32_t)cj)
                return hc__gap_table_eval(&p->cgaps[k].t, m);
    return (double)m / p->bw[(size_t)i * p->P + j];
}

int hc_platform_has_gaps(const hc_platform_t *p)
{
    if (!p)
        return 0;
    if (p->n_cgaps)
        return 1;
    if (p->pair_gap) {
        size_t n = (size_t)p->P * p->P;
        for (size_t k = 0; k < n; k++)
            if (p->pair_gap[k].n)
                return 1;
    }
    return 0;
}

int hc__gap_table_check(const char *what, size_t n, const uint64_t *sizes, const double *gaps)
{
    const char *sep = what && *what ? ": " : "";
    if (!what)
        what = "";
    if (n == 0)
        return hc__error(HC_ERR_VALUE, "%s%sgap table needs at least one sample", what, sep);
    if (!sizes || !gaps)
        return hc__error(HC_ERR_INVAL, "%s%sgap table: NULL sizes or gaps", what, sep);
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && sizes[k] <= sizes[k - 1])
            return hc__error(HC_ERR_VALUE,
                             "%s%sgap table: sizes must be strictly increasing (sizes[%zu] = "
                             "%llu after %llu)",
                             what, sep, k, (unsigned long long)sizes[k],
                             (unsigned long long)sizes[k - 1]);
        if (!isfinite(gaps[k]) || gaps[k] < 0)
            return hc__error(HC_ERR_VALUE,
                             "%s%sgap table: gap_s[%zu] must be finite and >= 0 (got %g)", what,
                             sep, k, gaps[k]);
    }
    return HC_OK;
}

int hc_platform_set_gap_table(hc_platform_t *p, uint32_t i, uint32_t j, size_t n,
                              const uint64_t *sizes, const double *gaps)
{
    if (!p)
        return hc__error(HC_ERR_INVAL, "hc_platform_set_gap_table: platform is NULL");
    if (i >= p->P || j >= p->P)
        return hc__error(HC_ERR_INVAL, "gap table for (%u, %u): node id out of range (P = %u)", i,
                         j, p->P);
    if (i == j)
        return hc__error(HC_ERR_INVAL, "gap table for (%u, %u): a node has no link to itself", i,
                         j);
    char what[64];
    snprintf(what, sizeof what, "gap table for (%u, %u)", i, j);
    HC__TRY(hc__gap_table_check(what, n, sizes, gaps));
    if (!p->pair_gap) {
        p->pair_gap = hc__calloc((size_t)p->P * p->P, sizeof *p->pair_gap);
        if (!p->pair_gap)
            return hc__error(HC_ERR_NOMEM, "out of memory allocating gap tables");
    }
    hc__gap_table_t t = {0, NULL, NULL};
    HC__TRY(gap_table_copy(&t, n, sizes, gaps));
    gap_table_free(&p->pair_gap[(size_t)i * p->P + j]);
    p->pair_gap[(size_t)i * p->P + j] = t;
    return HC_OK;
}

int hc__platform_set_cluster_gap_table(hc_platform_t *p, uint32_t ca, uint32_t cb, size_t n,
                                       const uint64_t *sizes, const double *gaps)
{
    if (!p)
        return hc__error(HC_ERR_INVAL, "cluster gap table: platform is NULL");
    if (ca >= p->n_clusters || cb >= p->n_clusters)
        return hc__error(HC_ERR_INVAL, "cluster gap table: cluster index out of range");
    char what[64];
    snprintf(what, sizeof what, "gap table for clusters (%u, %u)", ca, cb);
    HC__TRY(hc__gap_table_check(what, n, sizes, gaps));
    hc__gap_table_t t = {0, NULL, NULL};
    HC__TRY(gap_table_copy(&t, n, sizes, gaps));
    for (size_t k = 0; k < p->n_cgaps; k++)
        if (p->cgaps[k].ca == ca && p->cgaps[k].cb == cb) {
            gap_table_free(&p->cgaps[k].t);
            p->cgaps[k].t = t;
            return HC_OK;
        }
    int rc = hc__grow((void **)&p->cgaps, &p->cap_cgaps, p->n_cgaps + 1, sizeof *p->cgaps);
    if (rc != HC_OK) {
        gap_table_free(&t);
        return rc;
    }
    p->cgaps[p->n_cgaps].ca = ca;
    p->cgaps[p->n_cgaps].cb = cb;
    p->cgaps[p->n_cgaps].t = t;
    p->n_cgaps++;
    return HC_OK;
}

/* ---- setters ---- */

int hc_platform_set_link(hc_platform_t *p, uint32_t i, uint32_t j, double lat, double bw)
{
    if (!p)
        return hc__error(HC_ERR_INVAL, "hc_platform_set_link: platform is NULL");
    if (i >= p->P || j >= p->P)
        return hc__error(HC_ERR_INVAL, "link (%u, %u): node id out of range (P = %u)", i, j, p->P);
    if (i == j)
        return hc__error(HC_ERR_INVAL, "link (%u, %u): a node has no link to itself", i, j);
    /* The message is formatted only on failure: builders set P^2 links. */
    if (!isfinite(lat) || lat <= 0)
        return hc__error(HC_ERR_VALUE, "link (%u, %u): latency: must be finite and > 0 (got %g)", i,
                         j, lat);
    if (!isfinite(bw) || bw <= 0)
        return hc__error(HC_ERR_VALUE, "link (%u, %u): bandwidth: must be finite and > 0 (got %g)",
                         i, j, bw);
    p->lat[(size_t)i * p->P + j] = lat;
    p->bw[(size_t)i * p->P + j] = bw;
    return HC_OK;
}

int hc_platform_set_node_name(hc_platform_t *p, uint32_t i, const char *name)
{
    if (!p || !name)
        return hc__error(HC_ERR_INVAL, "hc_platform_set_node_name: NULL argument");
    if (i >= p->P)
        return hc__error(HC_ERR_INVAL, "node %u: id out of range (P = %u)", i, p->P);
    char *d = hc__strdup(name);
    if (!d)
        return hc__error(HC_ERR_NOMEM, "out of memory");
    free(p->node_names[i]);
    p->node_names[i] = d;
    return HC_OK;
}

int hc_platform_set_send_time(hc_platform_t *p, uint32_t i, double t)
{
    if (!p)
        return hc__error(HC_ERR_INVAL, "hc_platform_set_send_time: platform is NULL");
    if (i >= p->P)
        return hc__error(HC_ERR_INVAL, "node %u: id out of range (P = %u)", i, p->P);
    if (!isfinite(t) || t <= 0)
        return hc__error(HC_ERR_VALUE, "node %u: send time must be finite and > 0 (got %g)", i, t);
    p->send_time[i] = t;
    return HC_OK;
}

int hc_platform_set_name(hc_platform_t *p, const char *name)
{
    if (!p || !name)
        return hc__error(HC_ERR_INVAL, "hc_platform_set_name: NULL argument");
    char *d = hc__strdup(name);
    if (!d)
        return hc__error(HC_ERR_NOMEM, "out of memory");
    free(p->name);
    p->name = d;
    return HC_OK;
}

/* Remove cluster c (no node uses it any more): drop its gap tables, shift the indices. */
static void remove_cluster(hc_platform_t *p, uint32_t c)
{
    free(p->cluster_names[c]);
    memmove(&p->cluster_names[c], &p->cluster_names[c + 1],
            (p->n_clusters - c - 1) * sizeof *p->cluster_names);
    p->n_clusters--;
    for (uint32_t i = 0; i < p->P; i++)
        if (p->cluster[i] > (int32_t)c)
            p->cluster[i]--;
    size_t w = 0;
    for (size_t k = 0; k < p->n_cgaps; k++) {
        hc__cluster_gap_t g = p->cgaps[k];
        if (g.ca == c || g.cb == c) {
            gap_table_free(&g.t);
            continue;
        }
        if (g.ca > c)
            g.ca--;
        if (g.cb > c)
            g.cb--;
        p->cgaps[w++] = g;
    }
    p->n_cgaps = w;
}

int hc_platform_set_cluster(hc_platform_t *p, uint32_t i, const char *name)
{
    if (!p)
        return hc__error(HC_ERR_INVAL, "hc_platform_set_cluster: platform is NULL");
    if (i >= p->P)
        return hc__error(HC_ERR_INVAL, "node %u: id out of range (P = %u)", i, p->P);
    int32_t old = p->cluster[i];
    int32_t c = -1;
    if (name) {
        if (!*name)
            return hc__error(HC_ERR_VALUE, "node %u: cluster name is empty", i);
        for (uint32_t k = 0; k < p->n_clusters; k++)
            if (strcmp(p->cluster_names[k], name) == 0)
                c = (int32_t)k;
        if (c < 0) {
            char *d = hc__strdup(name);
            char **names =
                d ? hc__realloc(p->cluster_names, p->n_clusters + 1, sizeof *names) : NULL;
            if (!names) {
                free(d);
                return hc__error(HC_ERR_NOMEM, "out of memory adding cluster '%s'", name);
            }
            p->cluster_names = names;
            names[p->n_clusters] = d;
            c = (int32_t)p->n_clusters++;
        }
    }
    p->cluster[i] = c;
    if (old >= 0 && old != c) {
        int used = 0;
        for (uint32_t k = 0; k < p->P && !used; k++)
            used = p->cluster[k] == old;
        if (!used)
            remove_cluster(p, (uint32_t)old);
    }
    return HC_OK;
}
