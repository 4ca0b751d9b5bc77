/* Platform JSON ("hetcoll-platform/1", docs/formats.md): the matrix form, the cluster form
 * (expanded to the matrix form), pLogP gap tables; serialisation; platform specs. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directory_internal.h"
#include "hetcoll/links.h"
#include "net_internal.h"

/* ---- small JSON readers; every error names origin and the field path ---- */

static int need_number(const char *origin, const char *path, json_t *x, double *out)
{
    if (!x)
        return hc__error(HC_ERR_PARSE, "%s: field '%s': missing", origin, path);
    if (!json_is_number(x))
        return hc__error(HC_ERR_PARSE, "%s: field '%s': expected a number", origin, path);
    *out = json_number_value(x);
    return HC_OK;
}

/* Finite and > 0. */
static int need_positive(const char *origin, const char *path, json_t *x, double *out)
{
    HC__TRY(need_number(origin, path, x, out));
    if (!isfinite(*out) || *out <= 0)
        return hc__error(HC_ERR_VALUE, "%s: field '%s': must be finite and > 0 (got %g)", origin,
                         path, *out);
    return HC_OK;
}

/* A whole number in [lo, hi]. */
static int need_count(const char *origin, const char *path, json_t *x, double lo, double hi,
                      uint64_t *out)
{
    double v;
    if (!x)
        return hc__error(HC_ERR_PARSE, "%s: field '%s': missing", origin, path);
    if (!json_is_number(x))
        return hc__error(HC_ERR_PARSE, "%s: field '%s': expected a whole number", origin, path);
    v = json_number_value(x);
    if (v != floor(v))
        return hc__error(HC_ERR_VALUE, "%s: field '%s': expected a whole number (got %g)", origin,
                         path, v);
    if (v < lo || v > hi)
        return hc__error(HC_ERR_VALUE, "%s: field '%s': must be in [%.0f, %.0f] (got %.0f)", origin,
                         path, lo, hi, v);
    *out = (uint64_t)v;
    return HC_OK;
}

static int need_string(const char *origin, const char *path, json_t *x, const char **out)
{
    if (!x)
        return hc__error(HC_ERR_PARSE, "%s: field '%s': missing", origin, path);
    if (!json_is_string(x))
        return hc__error(HC_ERR_PARSE, "%s: field '%s': expected a string", origin, path);
    *out = json_string_value(x);
    if (!**out)
        return hc__error(HC_ERR_VALUE, "%s: field '%s': must not be empty", origin, path);
    return HC_OK;
}

/* The shape of a P x P link matrix: present, P rows of P values. */
static int check_matrix_shape(const char *origin, json_t *root, const char *key, uint32_t P)
{
    json_t *m = json_object_get(root, key);
    if (!m)
        return hc__error(HC_ERR_PARSE, "%s: field '%s': missing (required in the matrix form)",
                         origin, key);
    if (!json_is_array(m))
        return hc__error(HC_ERR_PARSE, "%s: field '%s': expected an array of %u rows", origin, key,
                         P);
    if (json_array_size(m) != P)
        return hc__error(HC_ERR_SHAPE,
                         "%s: field '%s': expected %ux%u (one row per node), got %zu rows", origin,
                         key, P, P, json_array_size(m));
    for (uint32_t i = 0; i < P; i++) {
        json_t *row = json_array_get(m, i);
        if (!json_is_array(row))
            return hc__error(HC_ERR_PARSE, "%s: field '%s[%u]': expected an array (a row)", origin,
                             key, i);
        if (json_array_size(row) != P)
            return hc__error(HC_ERR_SHAPE, "%s: field '%s[%u]': row %u has %zu values, expected %u",
                             origin, key, i, i, json_array_size(row), P);
    }
    return HC_OK;
}

/* A P x P link matrix: off-diagonal entries finite and > 0; the diagonal is ignored. */
static int read_link_matrix(const char *origin, json_t *root, const char *key, uint32_t P,
                            double *dst)
{
    HC__TRY(check_matrix_shape(origin, root, key, P));
    json_t *m = json_object_get(root, key);
    char path[96];
    for (uint32_t i = 0; i < P; i++) {
        json_t *row = json_array_get(m, i);
        for (uint32_t j = 0; j < P; j++) {
            if (i == j)
                continue;
            snprintf(path, sizeof path, "%s[%u][%u]", key, i, j);
            double v;
            HC__TRY(need_positive(origin, path, json_array_get(row, j), &v));
            dst[(size_t)i * P + j] = v;
        }
    }
    return HC_OK;
}

static int check_unique_names(const char *origin, const hc_platform_t *p)
{
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(p->node_names[i], p->node_names[k]) == 0)
                return hc__error(HC_ERR_VALUE,
                                 "%s: field 'nodes[%u].name': duplicate node name '%s' (also "
                                 "node %u)",
                                 origin, i, p->node_names[i], k);
    return HC_OK;
}

/* ---- matrix form ---- */

static int parse_matrix_form(const char *origin, json_t *root, hc_platform_t **out)
{
    json_t *nodes = json_object_get(root, "nodes");
    uint32_t P;
    char path[96];
    if (!nodes)
        return hc__error(HC_ERR_PARSE,
                         "%s: field 'nodes': missing (a platform has \"nodes\" (matrix form) or "
                         "\"clusters\" (cluster form))",
                         origin);
    if (json_is_array(nodes)) {
        if (json_array_size(nodes) == 0)
            return hc__error(HC_ERR_VALUE, "%s: field 'nodes': a platform needs at least 1 node",
                             origin);
        if (json_array_size(nodes) > 65536)
            return hc__error(HC_ERR_LIMIT, "%s: field 'nodes': more than 65536 nodes", origin);
        P = (uint32_t)json_array_size(nodes);
    } else if (json_is_number(nodes)) {
        uint64_t n;
        HC__TRY(need_count(origin, "nodes", nodes, 1, 65536, &n));
        P = (uint32_t)n;
    } else
        return hc__error(HC_ERR_PARSE,
                         "%s: field 'nodes': expected an array of nodes or a node count", origin);

    /* The matrices' shapes before anything of size P x P is allocated: a few bytes claiming
     * 16384 nodes must not cost gigabytes before the missing field is found. */
    /* version 2 with routes: the pairs' latency and bandwidth come from the routes */
    int from_routes = json_object_get(root, "routes") && !json_object_get(root, "latency_s") &&
                      !json_object_get(root, "bandwidth_Bps");
    if (!from_routes) {
        HC__TRY(check_matrix_shape(origin, root, "latency_s", P));
        HC__TRY(check_matrix_shape(origin, root, "bandwidth_Bps", P));
    }
    hc_platform_t *p;
    HC__TRY(hc__platform_alloc(P, 1.0, 1.0, &p));
    int rc = HC_OK;
    if (json_is_array(nodes)) {
        for (uint32_t i = 0; i < P; i++) {
            json_t *nd = json_array_get(nodes, i);
            const char *s;
            if (json_is_string(nd)) {
                snprintf(path, sizeof path, "nodes[%u]", i);
                if ((rc = need_string(origin, path, nd, &s)) != HC_OK ||
                    (rc = hc_platform_set_node_name(p, i, s)) != HC_OK)
                    goto fail;
                continue;
            }
            if (!json_is_object(nd)) {
                rc = hc__error(HC_ERR_PARSE,
                               "%s: field 'nodes[%u]': expected an object {\"name\", "
                               "\"cluster\"?, \"send_time_s\"?} or a name",
                               origin, i);
                goto fail;
            }
            json_t *x;
            if ((x = json_object_get(nd, "name"))) {
                snprintf(path, sizeof path, "nodes[%u].name", i);
                if ((rc = need_string(origin, path, x, &s)) != HC_OK ||
                    (rc = hc_platform_set_node_name(p, i, s)) != HC_OK)
                    goto fail;
            }
            if ((x = json_object_get(nd, "cluster")) && !json_is_null(x)) {
                snprintf(path, sizeof path, "nodes[%u].cluster", i);
                if ((rc = need_string(origin, path, x, &s)) != HC_OK ||
                    (rc = hc_platform_set_cluster(p, i, s)) != HC_OK)
                    goto fail;
            }
            if ((x = json_object_get(nd, "send_time_s")) && !json_is_null(x)) {
                double t;
                snprintf(path, sizeof path, "nodes[%u].send_time_s", i);
                if ((rc = need_positive(origin, path, x, &t)) != HC_OK)
                    goto fail;
                p->send_time[i] = t;
            }
        }
        if ((rc = check_unique_names(origin, p)) != HC_OK)
            goto fail;
    }
    if (!from_routes && ((rc = read_link_matrix(origin, root, "latency_s", P, p->lat)) != HC_OK ||
                         (rc = read_link_matrix(origin, root, "bandwidth_Bps", P, p->bw)) != HC_OK))
        goto fail;
    *out = p;
    return HC_OK;
fail:
    hc_platform_destroy(p);
    return rc;
}

/* ---- cluster form ---- */

typedef struct {
    const char *name;
    uint32_t n, first;
    double lat, bw, send;
} cl_t;

static int parse_cluster_form(const char *origin, json_t *root, hc_platform_t **out)
{
    json_t *cls = json_object_get(root, "clusters");
    char path[128];
    if (json_object_get(root, "nodes"))
        return hc__error(HC_ERR_PARSE,
                         "%s: fields 'clusters' and 'nodes': a platform has one or the other "
                         "(cluster form or matrix form), not both",
                         origin);
    if (!json_is_array(cls))
        return hc__error(HC_ERR_PARSE, "%s: field 'clusters': expected an array of clusters",
                         origin);
    size_t C = json_array_size(cls);
    if (C == 0)
        return hc__error(HC_ERR_VALUE, "%s: field 'clusters': needs at least one cluster", origin);
    if (C > 65536)
        return hc__error(HC_ERR_LIMIT, "%s: field 'clusters': too many clusters", origin);
    cl_t *cl = hc__calloc(C, sizeof *cl);
    double *ilat = hc__calloc(C * C, sizeof *ilat);
    double *ibw = hc__calloc(C * C, sizeof *ibw);
    hc_platform_t *p = NULL;
    int rc = HC_OK;
    if (!cl || !ilat || !ibw) {
        rc = hc__error(HC_ERR_NOMEM, "%s: out of memory", origin);
        goto done;
    }
    uint64_t total = 0;
    for (size_t c = 0; c < C; c++) {
        json_t *o = json_array_get(cls, c);
        if (!json_is_object(o)) {
            rc = hc__error(HC_ERR_PARSE,
                           "%s: field 'clusters[%zu]': expected an object {\"name\", \"nodes\", "
                           "\"latency_s\", \"bandwidth_Bps\"}",
                           origin, c);
            goto done;
        }
        snprintf(path, sizeof path, "clusters[%zu].name", c);
        if ((rc = need_string(origin, path, json_object_get(o, "name"), &cl[c].name)) != HC_OK)
            goto done;
        for (size_t k = 0; k < c; k++)
            if (strcmp(cl[k].name, cl[c].name) == 0) {
                rc = hc__error(HC_ERR_VALUE,
                               "%s: field 'clusters[%zu].name': duplicate cluster name '%s'",
                               origin, c, cl[c].name);
                goto done;
            }
        uint64_t n;
        snprintf(path, sizeof path, "clusters[%zu].nodes", c);
        if ((rc = need_count(origin, path, json_object_get(o, "nodes"), 1, 65536, &n)) != HC_OK)
            goto done;
        cl[c].n = (uint32_t)n;
        cl[c].first = (uint32_t)total;
        total += n;
        cl[c].lat = cl[c].bw = 1.0;
        json_t *x = json_object_get(o, "latency_s");
        if (n >= 2 || x) {
            snprintf(path, sizeof path, "clusters[%zu].latency_s", c);
            if ((rc = need_positive(origin, path, x, &cl[c].lat)) != HC_OK)
                goto done;
        }
        x = json_object_get(o, "bandwidth_Bps");
        if (n >= 2 || x) {
            snprintf(path, sizeof path, "clusters[%zu].bandwidth_Bps", c);
            if ((rc = need_positive(origin, path, x, &cl[c].bw)) != HC_OK)
                goto done;
        }
        cl[c].send = -1.0;
        if ((x = json_object_get(o, "send_time_s")) && !json_is_null(x)) {
            snprintf(path, sizeof path, "clusters[%zu].send_time_s", c);
            if ((rc = need_positive(origin, path, x, &cl[c].send)) != HC_OK)
                goto done;
        }
    }
    if (total > 65536) {
        rc =
            hc__error(HC_ERR_LIMIT, "%s: field 'clusters': more than 65536 nodes in total", origin);
        goto done;
    }
    /* A cluster form with links gets a route per pair (about 4 times the matrices' memory): the
     * limit is half the node cap, checked before anything is allocated. */
    if (json_object_get(root, "backbone") && total > hc__max_nodes() / 2) {
        rc =
            hc__error(HC_ERR_LIMIT,
                      "%s: field 'clusters': %llu nodes with links need about %.3g GB of route "
                      "tables, more than the limit of %llu nodes (half of HETCOLL_MAX_NODES; "
                      "set it to raise the limit)",
                      origin, (unsigned long long)total, 64.0 * (double)total * (double)total / 1e9,
                      (unsigned long long)(hc__max_nodes() / 2));
        goto done;
    }
    /* inter-cluster links: NAN = not given yet */
    for (size_t k = 0; k < C * C; k++)
        ilat[k] = ibw[k] = NAN;
    json_t *def = json_object_get(root, "default_inter");
    if (def) {
        if (!json_is_object(def)) {
            rc = hc__error(HC_ERR_PARSE,
                           "%s: field 'default_inter': expected an object {\"latency_s\", "
                           "\"bandwidth_Bps\"}",
                           origin);
            goto done;
        }
        double dl, db;
        if ((rc = need_positive(origin, "default_inter.latency_s",
                                json_object_get(def, "latency_s"), &dl)) != HC_OK ||
            (rc = need_positive(origin, "default_inter.bandwidth_Bps",
                                json_object_get(def, "bandwidth_Bps"), &db)) != HC_OK)
            goto done;
        for (size_t k = 0; k < C * C; k++) {
            ilat[k] = dl;
            ibw[k] = db;
        }
    }
    json_t *inter = json_object_get(root, "inter");
    if (inter && !json_is_array(inter)) {
        rc = hc__error(HC_ERR_PARSE, "%s: field 'inter': expected an array", origin);
        goto done;
    }
    unsigned char *seen = hc__calloc(C * C, 1);
    if (!seen) {
        rc = hc__error(HC_ERR_NOMEM, "%s: out of memory", origin);
        goto done;
    }
    for (size_t e = 0; inter && e < json_array_size(inter); e++) {
        json_t *o = json_array_get(inter, e);
        const char *nm[2];
        size_t idx[2];
        if (!json_is_object(o)) {
            rc = hc__error(HC_ERR_PARSE,
                           "%s: field 'inter[%zu]': expected an object {\"a\", \"b\", "
                           "\"latency_s\", \"bandwidth_Bps\"}",
                           origin, e);
            break;
        }
        for (int s = 0; s < 2 && rc == HC_OK; s++) {
            snprintf(path, sizeof path, "inter[%zu].%s", e, s ? "b" : "a");
            if ((rc = need_string(origin, path, json_object_get(o, s ? "b" : "a"), &nm[s])) !=
                HC_OK)
                break;
            idx[s] = C;
            for (size_t c = 0; c < C; c++)
                if (strcmp(cl[c].name, nm[s]) == 0)
                    idx[s] = c;
            if (idx[s] == C) {
                rc = hc__error(HC_ERR_UNKNOWN, "%s: field '%s': unknown cluster '%s'", origin, path,
                               nm[s]);
                break;
            }
        }
        if (rc != HC_OK)
            break;
        if (idx[0] == idx[1]) {
            rc = hc__error(HC_ERR_VALUE,
                           "%s: field 'inter[%zu]': a and b are the same cluster '%s' (intra "
                           "links go in \"clusters\")",
                           origin, e, nm[0]);
            break;
        }
        if (seen[idx[0] * C + idx[1]]) {
            rc = hc__error(HC_ERR_VALUE,
                           "%s: field 'inter[%zu]': clusters '%s' and '%s' are given twice", origin,
                           e, nm[0], nm[1]);
            break;
        }
        seen[idx[0] * C + idx[1]] = seen[idx[1] * C + idx[0]] = 1;
        double l, b;
        snprintf(path, sizeof path, "inter[%zu].latency_s", e);
        if ((rc = need_positive(origin, path, json_object_get(o, "latency_s"), &l)) != HC_OK)
            break;
        snprintf(path, sizeof path, "inter[%zu].bandwidth_Bps", e);
        if ((rc = need_positive(origin, path, json_object_get(o, "bandwidth_Bps"), &b)) != HC_OK)
            break;
        ilat[idx[0] * C + idx[1]] = ilat[idx[1] * C + idx[0]] = l;
        ibw[idx[0] * C + idx[1]] = ibw[idx[1] * C + idx[0]] = b;
    }
    free(seen);
    if (rc != HC_OK)
        goto done;
    int routed = json_object_get(root, "backbone") != NULL; /* version 2: routes set them */
    for (size_t a = 0; a < C; a++)
        for (size_t b = a + 1; b < C; b++)
            if (routed && isnan(ilat[a * C + b])) {
                ilat[a * C + b] = ilat[b * C + a] = 1.0;
                ibw[a * C + b] = ibw[b * C + a] = 1.0;
            } else if (isnan(ilat[a * C + b])) {
                rc = hc__error(HC_ERR_PARSE,
                               "%s: field 'inter': no entry for clusters '%s' and '%s' (add one, "
                               "or a \"default_inter\")",
                               origin, cl[a].name, cl[b].name);
                goto done;
            }
    if ((rc = hc__platform_alloc((uint32_t)total, 1.0, 1.0, &p)) != HC_OK)
        goto done;
    for (size_t c = 0; c < C; c++) {
        for (uint32_t k = 0; k < cl[c].n; k++) {
            uint32_t i = cl[c].first + k;
            char nbuf[512];
            snprintf(nbuf, sizeof nbuf, "%s-%u", cl[c].name, k);
            if ((rc = hc_platform_set_node_name(p, i, nbuf)) != HC_OK ||
                (rc = hc_platform_set_cluster(p, i, cl[c].name)) != HC_OK)
                goto done;
            p->send_time[i] = cl[c].send;
        }
    }
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t j = 0; j < p->P; j++) {
            if (i == j)
                continue;
            size_t a = (size_t)p->cluster[i], b = (size_t)p->cluster[j];
            double l = a == b ? cl[a].lat : ilat[a * C + b];
            double w = a == b ? cl[a].bw : ibw[a * C + b];
            p->lat[(size_t)i * p->P + j] = l;
            p->bw[(size_t)i * p->P + j] = w;
        }
    if ((rc = check_unique_names(origin, p)) != HC_OK)
        goto done;
    *out = p;
    p = NULL;
done:
    hc_platform_destroy(p);
    free(cl);
    free(ilat);
    free(ibw);
    return rc;
}

/* ---- gap tables ---- */

static int find_cluster(const hc_platform_t *p, const char *name, uint32_t *out)
{
    for (uint32_t c = 0; c < p->n_clusters; c++)
        if (strcmp(p->cluster_names[c], name) == 0) {
            *out = c;
            return 1;
        }
    return 0;
}

static int parse_gaps(const char *origin, json_t *root, hc_platform_t *p)
{
    json_t *gaps = json_object_get(root, "gaps");
    char path[128];
    if (!gaps || json_is_null(gaps))
        return HC_OK;
    if (!json_is_array(gaps))
        return hc__error(HC_ERR_PARSE, "%s: field 'gaps': expected an array of gap tables", origin);
    for (size_t e = 0; e < json_array_size(gaps); e++) {
        json_t *o = json_array_get(gaps, e);
        if (!json_is_object(o))
            return hc__error(HC_ERR_PARSE,
                             "%s: field 'gaps[%zu]': expected an object {\"src\", \"dst\" (or "
                             "\"src_cluster\", \"dst_cluster\"), \"sizes\", \"gap_s\"}",
                             origin, e);
        json_t *sz = json_object_get(o, "sizes"), *gs = json_object_get(o, "gap_s");
        if (!json_is_array(sz) || !json_is_array(gs)) {
            snprintf(path, sizeof path, "gaps[%zu].%s", e, json_is_array(sz) ? "gap_s" : "sizes");
            return hc__error(HC_ERR_PARSE, "%s: field '%s': %s", origin, path,
                             json_object_get(o, json_is_array(sz) ? "gap_s" : "sizes")
                                 ? "expected an array"
                                 : "missing");
        }
        size_t n = json_array_size(sz);
        if (json_array_size(gs) != n)
            return hc__error(HC_ERR_SHAPE,
                             "%s: field 'gaps[%zu].gap_s': has %zu values but 'sizes' has %zu",
                             origin, e, json_array_size(gs), n);
        if (n == 0)
            return hc__error(HC_ERR_VALUE, "%s: field 'gaps[%zu].sizes': needs at least one sample",
                             origin, e);
        uint64_t *sizes = hc__malloc(n, sizeof *sizes);
        double *g = hc__malloc(n, sizeof *g);
        int rc = HC_OK;
        if (!sizes || !g)
            rc = hc__error(HC_ERR_NOMEM, "%s: out of memory", origin);
        for (size_t k = 0; k < n && rc == HC_OK; k++) {
            snprintf(path, sizeof path, "gaps[%zu].sizes[%zu]", e, k);
            rc = need_count(origin, path, json_array_get(sz, k), 0, 9007199254740992.0, &sizes[k]);
            if (rc == HC_OK && k > 0 && sizes[k] <= sizes[k - 1])
                rc = hc__error(HC_ERR_VALUE, "%s: field '%s': sizes must be strictly increasing",
                               origin, path);
            if (rc != HC_OK)
                break;
            snprintf(path, sizeof path, "gaps[%zu].gap_s[%zu]", e, k);
            rc = need_number(origin, path, json_array_get(gs, k), &g[k]);
            if (rc == HC_OK && (!isfinite(g[k]) || g[k] < 0))
                rc = hc__error(HC_ERR_VALUE, "%s: field '%s': must be finite and >= 0 (got %g)",
                               origin, path, g[k]);
        }
        json_t *src = json_object_get(o, "src"), *dst = json_object_get(o, "dst");
        json_t *sc = json_object_get(o, "src_cluster"), *dc = json_object_get(o, "dst_cluster");
        if (rc == HC_OK && (src || dst)) {
            uint64_t i = 0, j = 0;
            snprintf(path, sizeof path, "gaps[%zu].src", e);
            rc = need_count(origin, path, src, 0, p->P - 1.0, &i);
            if (rc == HC_OK) {
                snprintf(path, sizeof path, "gaps[%zu].dst", e);
                rc = need_count(origin, path, dst, 0, p->P - 1.0, &j);
            }
            if (rc == HC_OK && i == j)
                rc = hc__error(HC_ERR_VALUE,
                               "%s: field 'gaps[%zu]': src and dst are the same node %llu", origin,
                               e, (unsigned long long)i);
            if (rc == HC_OK)
                rc = hc_platform_set_gap_table(p, (uint32_t)i, (uint32_t)j, n, sizes, g);
        } else if (rc == HC_OK && (sc || dc)) {
            const char *a = NULL, *b = NULL;
            uint32_t ca = 0, cb = 0;
            snprintf(path, sizeof path, "gaps[%zu].src_cluster", e);
            rc = need_string(origin, path, sc, &a);
            if (rc == HC_OK && !find_cluster(p, a, &ca))
                rc = hc__error(HC_ERR_UNKNOWN, "%s: field '%s': unknown cluster '%s'", origin, path,
                               a);
            if (rc == HC_OK) {
                snprintf(path, sizeof path, "gaps[%zu].dst_cluster", e);
                rc = need_string(origin, path, dc, &b);
                if (rc == HC_OK && !find_cluster(p, b, &cb))
                    rc = hc__error(HC_ERR_UNKNOWN, "%s: field '%s': unknown cluster '%s'", origin,
                                   path, b);
            }
            if (rc == HC_OK)
                rc = hc__platform_set_cluster_gap_table(p, ca, cb, n, sizes, g);
        } else if (rc == HC_OK)
            rc = hc__error(HC_ERR_PARSE,
                           "%s: field 'gaps[%zu]': needs \"src\"/\"dst\" (node ids) or "
                           "\"src_cluster\"/\"dst_cluster\" (cluster names)",
                           origin, e);
        free(sizes);
        free(g);
        if (rc != HC_OK)
            return rc;
    }
    return HC_OK;
}

/* ---- public parse / load ---- */

int hc_platform_parse(const char *text, const char *origin, hc_platform_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_platform_parse: out is NULL");
    *out = NULL;
    if (!origin)
        origin = "<string>";
    if (!text)
        return hc__error(HC_ERR_INVAL, "%s: no text", origin);
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return hc__error(HC_ERR_PARSE, "%s:%d: column %d: %s", origin, jerr.line, jerr.column,
                         jerr.text);
    int rc = HC_OK;
    hc_platform_t *p = NULL;
    if (!json_is_object(root)) {
        rc = hc__error(HC_ERR_PARSE, "%s: expected a JSON object (a platform) at the top level",
                       origin);
        goto done;
    }
    json_t *fmt = json_object_get(root, "format");
    if (!fmt) {
        rc = hc__error(HC_ERR_PARSE, "%s: field 'format': missing (expected \"%s\")", origin,
                       HC_PLATFORM_FORMAT);
        goto done;
    }
    int v2 = json_is_string(fmt) && strcmp(json_string_value(fmt), HC_PLATFORM_FORMAT_LINKS) == 0;
    if (!json_is_string(fmt) || (!v2 && strcmp(json_string_value(fmt), HC_PLATFORM_FORMAT) != 0)) {
        rc =
            hc__error(HC_ERR_UNSUPPORTED,
                      "%s: field 'format': unsupported format %s%s%s "
                      "(expected \"%s\" or \"%s\")",
                      origin, json_is_string(fmt) ? "'" : "",
                      json_is_string(fmt) ? json_string_value(fmt) : "(not a string)",
                      json_is_string(fmt) ? "'" : "", HC_PLATFORM_FORMAT, HC_PLATFORM_FORMAT_LINKS);
        goto done;
    }
    if (json_object_get(root, "clusters"))
        rc = parse_cluster_form(origin, root, &p);
    else
        rc = parse_matrix_form(origin, root, &p);
    if (rc != HC_OK)
        goto done;
    json_t *name = json_object_get(root, "name");
    if (name && !json_is_null(name)) {
        if (!json_is_string(name)) {
            rc = hc__error(HC_ERR_PARSE, "%s: field 'name': expected a string", origin);
            goto done;
        }
        if ((rc = hc_platform_set_name(p, json_string_value(name))) != HC_OK)
            goto done;
    }
    if ((rc = parse_gaps(origin, root, p)) != HC_OK)
        goto done;
    if (!v2 && (json_object_get(root, "links") || json_object_get(root, "routes") ||
                json_object_get(root, "backbone"))) {
        rc = hc__error(HC_ERR_PARSE, "%s: links and routes need \"format\": \"%s\"", origin,
                       HC_PLATFORM_FORMAT_LINKS);
        goto done;
    }
    if (v2 && (rc = hc__links_parse(origin, root, p)) != HC_OK)
        goto done;
    *out = p;
    p = NULL;
done:
    hc_platform_destroy(p);
    json_decref(root);
    return rc;
}

int hc_platform_load(const char *spec, hc_platform_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_platform_load: out is NULL");
    *out = NULL;
    if (!spec || !*spec)
        return hc__error(HC_ERR_INVAL, "empty platform spec (expected FILE, builtin:NAME, "
                                       "random:GEN:k=v:..., dir:FILE or simgrid:FILE.xml)");
    if (strncmp(spec, "builtin:", 8) == 0)
        return hc__platform_builtin(spec + 8, out);
    if (strncmp(spec, "random:", 7) == 0)
        return hc__platform_random(spec, out);
    if (strncmp(spec, "dir:", 4) == 0)
        return hc__directory_load_spec(spec + 4, out);
    if (strncmp(spec, "simgrid:", 8) == 0)
        return hc__platform_simgrid(spec + 8, out);
    char *text = NULL;
    HC__TRY(hc__read_file(spec, &text, NULL));
    int rc = hc_platform_parse(text, spec, out);
    free(text);
    return rc;
}

/* ---- serialisation ---- */

typedef struct {
    char *buf;
    size_t len, cap;
    int err;
} sb_t;

static void sb_vadd(sb_t *b, const char *fmt, va_list ap)
{
    if (b->err)
        return;
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) {
        b->err = 1;
        return;
    }
    if (hc__grow((void **)&b->buf, &b->cap, b->len + (size_t)n + 1, 1) != HC_OK) {
        b->err = 1;
        return;
    }
    vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
sb_add(sb_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
}

/* Shortest "%.Ng" (N = 15..17) that reads back as x. */
static void sb_num(sb_t *b, double x)
{
    char tmp[40];
    if (!isfinite(x)) {
        sb_add(b, "null");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, x);
        if (strtod(tmp, NULL) == x)
            break;
    }
    sb_add(b, "%s", tmp);
}

static void sb_str(sb_t *b, const char *s)
{
    sb_add(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            sb_add(b, "\\%c", *c);
        else if (*c < 0x20)
            sb_add(b, "\\u%04x", *c);
        else
            sb_add(b, "%c", *c);
    }
    sb_add(b, "\"");
}

static void sb_matrix(sb_t *b, const hc_platform_t *p, const char *key, const double *m)
{
    sb_add(b, "  \"%s\": [\n", key);
    for (uint32_t i = 0; i < p->P; i++) {
        sb_add(b, "    [");
        for (uint32_t j = 0; j < p->P; j++) {
            if (j)
                sb_add(b, ", ");
            sb_num(b, i == j ? 0.0 : m[(size_t)i * p->P + j]);
        }
        sb_add(b, "]%s\n", i + 1 < p->P ? "," : "");
    }
    sb_add(b, "  ]");
}

static void sb_table(sb_t *b, const hc__gap_table_t *t)
{
    sb_add(b, ", \"sizes\": [");
    for (size_t k = 0; k < t->n; k++)
        sb_add(b, "%s%llu", k ? ", " : "", (unsigned long long)t->sizes[k]);
    sb_add(b, "], \"gap_s\": [");
    for (size_t k = 0; k < t->n; k++) {
        if (k)
            sb_add(b, ", ");
        sb_num(b, t->gaps[k]);
    }
    sb_add(b, "]}");
}

int hc_platform_to_json(const hc_platform_t *p, char **out)
{
    if (!p || !out)
        return hc__error(HC_ERR_INVAL, "hc_platform_to_json: NULL argument");
    *out = NULL;
    sb_t b = {NULL, 0, 0, 0};
    sb_add(&b, "{\n  \"format\": \"%s\",\n",
           p->n_links ? HC_PLATFORM_FORMAT_LINKS : HC_PLATFORM_FORMAT);
    if (p->name && *p->name) {
        sb_add(&b, "  \"name\": ");
        sb_str(&b, p->name);
        sb_add(&b, ",\n");
    }
    sb_add(&b, "  \"nodes\": [\n");
    for (uint32_t i = 0; i < p->P; i++) {
        sb_add(&b, "    {\"name\": ");
        sb_str(&b, p->node_names[i]);
        if (p->cluster[i] >= 0) {
            sb_add(&b, ", \"cluster\": ");
            sb_str(&b, p->cluster_names[p->cluster[i]]);
        }
        if (p->send_time[i] >= 0) {
            sb_add(&b, ", \"send_time_s\": ");
            sb_num(&b, p->send_time[i]);
        }
        sb_add(&b, "}%s\n", i + 1 < p->P ? "," : "");
    }
    sb_add(&b, "  ],\n");
    sb_matrix(&b, p, "latency_s", p->lat);
    sb_add(&b, ",\n");
    sb_matrix(&b, p, "bandwidth_Bps", p->bw);
    if (hc_platform_has_gaps(p)) {
        int first = 1;
        sb_add(&b, ",\n  \"gaps\": [");
        if (p->pair_gap)
            for (uint32_t i = 0; i < p->P; i++)
                for (uint32_t j = 0; j < p->P; j++) {
                    const hc__gap_table_t *t = &p->pair_gap[(size_t)i * p->P + j];
                    if (!t->n)
                        continue;
                    sb_add(&b, "%s\n    {\"src\": %u, \"dst\": %u", first ? "" : ",", i, j);
                    sb_table(&b, t);
                    first = 0;
                }
        for (size_t k = 0; k < p->n_cgaps; k++) {
            sb_add(&b, "%s\n    {\"src_cluster\": ", first ? "" : ",");
            sb_str(&b, p->cluster_names[p->cgaps[k].ca]);
            sb_add(&b, ", \"dst_cluster\": ");
            sb_str(&b, p->cluster_names[p->cgaps[k].cb]);
            sb_table(&b, &p->cgaps[k].t);
            first = 0;
        }
        sb_add(&b, "\n  ]");
    }
    if (p->n_links) { /* version 2: the link level */
        static const char *const sh[] = {"shared", "splitduplex", "fatpipe"};
        sb_add(&b, ",\n  \"links\": [");
        for (uint32_t k = 0; k < p->n_links; k++) {
            sb_add(&b, "%s\n    {\"name\": ", k ? "," : "");
            sb_str(&b, p->links[k].name);
            sb_add(&b, ", \"bandwidth_Bps\": ");
            sb_num(&b, p->links[k].bw);
            sb_add(&b, ", \"latency_s\": ");
            sb_num(&b, p->links[k].lat);
            sb_add(&b, ", \"sharing\": \"%s\"}", sh[p->links[k].sharing]);
        }
        sb_add(&b, "\n  ],\n  \"routes\": [");
        int first = 1;
        for (uint32_t i = 0; p->route && i < p->P; i++)
            for (uint32_t j = 0; j < p->P; j++) {
                const uint32_t *r = i == j ? NULL : p->route[(size_t)i * p->P + j];
                if (!r)
                    continue;
                sb_add(&b, "%s\n    {\"src\": %u, \"dst\": %u, \"links\": [", first ? "" : ",", i,
                       j);
                for (uint32_t h = 0; h < r[0]; h++) {
                    const hc__link_t *l = &p->links[r[1 + h] >> 1];
                    char nm[600];
                    snprintf(nm, sizeof nm, "%s%s", l->name,
                             l->sharing == HC_LINK_SPLITDUPLEX ? ((r[1 + h] & 1) ? ":down" : ":up")
                                                               : "");
                    sb_add(&b, "%s", h ? ", " : "");
                    sb_str(&b, nm);
                }
                sb_add(&b, "]}");
                first = 0;
            }
        sb_add(&b, "\n  ]");
    }
    sb_add(&b, "\n}\n");
    if (b.err) {
        free(b.buf);
        return hc__error(HC_ERR_NOMEM, "out of memory serialising a platform");
    }
    *out = b.buf;
    return HC_OK;
}
