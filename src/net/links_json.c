/* The link level of a "hetcoll-platform/2" document (docs/formats.md, "Links and routes"):
 *   matrix form: "links": [{"name", "bandwidth_Bps", "latency_s", "sharing"?}], "routes":
 *   [{"src", "dst", "links": ["name" or "name:up" / "name:down", ...]}] (nodes by name or index);
 *   cluster form: each cluster's "uplink" {bandwidth_Bps, latency_s, sharing?} and a top-level
 *   "backbone" {bandwidth_Bps, latency_s?, sharing?}: every node gets a split-duplex NIC (half
 *   the cluster's latency, its bandwidth), and the route between clusters a and b is NIC up,
 *   uplink a, backbone, uplink b, NIC down. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/links.h"
#include "net_internal.h"

/* A link name from a node or cluster name: ':' (the route's direction separator) becomes '_'. */
static void link_name(char *dst, size_t cap, const char *base, const char *suffix)
{
    snprintf(dst, cap, "%s%s", base, suffix);
    for (char *c = dst; *c; c++)
        if (*c == ':')
            *c = '_';
}

/* {bandwidth_Bps, latency_s, sharing} at `path` into a new link `name`. */
static int link_object(const char *origin, const char *path, json_t *o, const char *name,
                       hc_link_sharing_t dflt, int need_latency, hc_platform_t *p, uint32_t *id)
{
    if (!json_is_object(o))
        return hc__error(HC_ERR_PARSE,
                         "%s: field '%s': expected an object {\"bandwidth_Bps\", \"latency_s\", "
                         "\"sharing\"?}",
                         origin, path);
    json_t *bw = json_object_get(o, "bandwidth_Bps"), *lat = json_object_get(o, "latency_s");
    json_t *sh = json_object_get(o, "sharing");
    if (!json_is_number(bw) || !(json_number_value(bw) > 0) || !isfinite(json_number_value(bw)))
        return hc__error(HC_ERR_VALUE, "%s: field '%s.bandwidth_Bps': must be a finite number > 0",
                         origin, path);
    if ((lat || need_latency) && (!json_is_number(lat) || !(json_number_value(lat) >= 0) ||
                                  !isfinite(json_number_value(lat))))
        return hc__error(HC_ERR_VALUE, "%s: field '%s.latency_s': must be a finite number >= 0",
                         origin, path);
    hc_link_sharing_t s = dflt;
    if (sh && (!json_is_string(sh) || hc_link_sharing_parse(json_string_value(sh), &s) != HC_OK))
        return hc__error(HC_ERR_VALUE,
                         "%s: field '%s.sharing': expected \"shared\", \"splitduplex\" or "
                         "\"fatpipe\"",
                         origin, path);
    int rc = hc_platform_add_link(p, name, json_number_value(bw), lat ? json_number_value(lat) : 0,
                                  s, id);
    if (rc != HC_OK)
        return hc__error(rc, "%s: field '%s': %s", origin, path, hc_error_detail());
    return HC_OK;
}

static int node_ref(const char *origin, const char *path, json_t *x, const hc_platform_t *p,
                    uint32_t *out)
{
    if (json_is_integer(x) && json_integer_value(x) >= 0 && json_integer_value(x) < p->P) {
        *out = (uint32_t)json_integer_value(x);
        return HC_OK;
    }
    if (json_is_string(x))
        for (uint32_t i = 0; i < p->P; i++)
            if (strcmp(p->node_names[i], json_string_value(x)) == 0) {
                *out = i;
                return HC_OK;
            }
    return hc__error(HC_ERR_VALUE, "%s: field '%s': not a node (a node name or an index < %u)",
                     origin, path, p->P);
}

static int parse_matrix_links(const char *origin, json_t *root, hc_platform_t *p)
{
    json_t *links = json_object_get(root, "links"), *routes = json_object_get(root, "routes");
    char path[96];
    if (!json_is_array(links) || !json_is_array(routes))
        return hc__error(HC_ERR_PARSE, "%s: fields 'links' and 'routes': expected two arrays",
                         origin);
    for (size_t k = 0; k < json_array_size(links); k++) {
        json_t *o = json_array_get(links, k), *nm = json_object_get(o, "name");
        snprintf(path, sizeof path, "links[%zu]", k);
        if (!json_is_string(nm) || !*json_string_value(nm) || strchr(json_string_value(nm), ':'))
            return hc__error(HC_ERR_VALUE, "%s: field '%s.name': a non-empty name without ':'",
                             origin, path);
        HC__TRY(link_object(origin, path, o, json_string_value(nm), HC_LINK_SHARED, 1, p, NULL));
    }
    size_t cap = 2 * (size_t)p->n_links + 1;
    hc_hop_t *hops = hc__malloc(cap, sizeof *hops);
    if (!hops)
        return hc__error(HC_ERR_NOMEM, "out of memory reading routes");
    int rc = HC_OK;
    for (size_t k = 0; rc == HC_OK && k < json_array_size(routes); k++) {
        json_t *o = json_array_get(routes, k), *hl = json_object_get(o, "links");
        uint32_t i = 0, j = 0;
        snprintf(path, sizeof path, "routes[%zu].src", k);
        if ((rc = node_ref(origin, path, json_object_get(o, "src"), p, &i)) != HC_OK)
            break;
        snprintf(path, sizeof path, "routes[%zu].dst", k);
        if ((rc = node_ref(origin, path, json_object_get(o, "dst"), p, &j)) != HC_OK)
            break;
        size_t n = json_array_size(hl);
        if (!json_is_array(hl) || n == 0 || n > cap) {
            rc = hc__error(HC_ERR_VALUE, "%s: field 'routes[%zu].links': 1..%zu link names", origin,
                           k, cap);
            break;
        }
        for (size_t h = 0; rc == HC_OK && h < n; h++) {
            json_t *x = json_array_get(hl, h);
            const char *s = json_is_string(x) ? json_string_value(x) : "";
            const char *colon = strchr(s, ':');
            size_t len = colon ? (size_t)(colon - s) : strlen(s);
            hops[h].down = colon && strcmp(colon, ":down") == 0;
            /* names of any length (a fuzzing finding: a long cluster name did not round-trip) */
            char *name = hc__malloc(len + 1, 1);
            if (!name) {
                rc = hc__error(HC_ERR_NOMEM, "out of memory reading routes");
                break;
            }
            if (len == 0 || (colon && strcmp(colon, ":down") != 0 && strcmp(colon, ":up") != 0)) {
                free(name);
                rc = hc__error(HC_ERR_VALUE,
                               "%s: field 'routes[%zu].links[%zu]': expected \"LINK\", "
                               "\"LINK:up\" or \"LINK:down\"",
                               origin, k, h);
                break;
            }
            memcpy(name, s, len);
            name[len] = '\0';
            if (hc_platform_link_find(p, name, &hops[h].link) != HC_OK)
                rc = hc__error(HC_ERR_VALUE, "%s: field 'routes[%zu].links[%zu]': no link '%s'",
                               origin, k, h, name);
            free(name);
        }
        if (rc == HC_OK && (rc = hc_platform_set_route(p, i, j, n, hops)) != HC_OK)
            rc = hc__error(rc, "%s: field 'routes[%zu]': %s", origin, k, hc_error_detail());
    }
    free(hops);
    if (rc == HC_OK && !json_object_get(root, "latency_s") && !hc_platform_has_routes(p))
        rc = hc__error(HC_ERR_VALUE,
                       "%s: field 'routes': some node pair has no route (give every ordered "
                       "pair a route, or latency_s and bandwidth_Bps)",
                       origin);
    return rc;
}

static int parse_cluster_links(const char *origin, json_t *root, hc_platform_t *p)
{
    json_t *clusters = json_object_get(root, "clusters");
    uint32_t C = p->n_clusters, bb, *up = hc__malloc(C ? C : 1, sizeof *up);
    char path[96], name[600];
    if (!up)
        return hc__error(HC_ERR_NOMEM, "out of memory reading uplinks");
    int rc = HC_OK;
    /* the NICs: half the cluster's pair latency each, its bandwidth; a lone node has none (its
     * latency is in its uplink) */
    uint32_t nic0 = p->n_links;
    for (uint32_t i = 0; rc == HC_OK && i < p->P; i++) {
        double lat = 0, bw = INFINITY;
        for (uint32_t j = 0; j < p->P; j++)
            if (j != i && p->cluster[j] == p->cluster[i]) {
                lat = p->lat[(size_t)i * p->P + j] / 2;
                bw = p->bw[(size_t)i * p->P + j];
                break;
            }
        link_name(name, sizeof name, p->node_names[i], "-nic");
        rc =
            hc_platform_add_link(p, name, isfinite(bw) ? bw : 1e12, lat, HC_LINK_SPLITDUPLEX, NULL);
    }
    for (uint32_t c = 0; rc == HC_OK && c < C; c++) {
        json_t *o = json_array_get(clusters, c);
        snprintf(path, sizeof path, "clusters[%u].uplink", c);
        link_name(name, sizeof name, p->cluster_names[c], "-uplink");
        json_t *u = json_object_get(o, "uplink");
        if (!u)
            rc = hc__error(HC_ERR_PARSE,
                           "%s: field '%s': missing (a platform with a backbone gives "
                           "every cluster an uplink)",
                           origin, path);
        else
            rc = link_object(origin, path, u, name, HC_LINK_SHARED, 1, p, &up[c]);
    }
    if (rc == HC_OK)
        rc = link_object(origin, "backbone", json_object_get(root, "backbone"), "backbone",
                         HC_LINK_FATPIPE, 0, p, &bb);
    for (uint32_t i = 0; rc == HC_OK && i < p->P; i++)
        for (uint32_t j = 0; rc == HC_OK && j < p->P; j++) {
            if (i == j)
                continue;
            hc_hop_t r[5];
            size_t n = 0;
            uint32_t ci = (uint32_t)p->cluster[i], cj = (uint32_t)p->cluster[j];
            r[n++] = (hc_hop_t){nic0 + i, 0};
            if (ci != cj) {
                r[n++] = (hc_hop_t){up[ci], 0};
                r[n++] = (hc_hop_t){bb, 0};
                r[n++] = (hc_hop_t){up[cj], 1};
            }
            r[n++] = (hc_hop_t){nic0 + j, 1};
            rc = hc_platform_set_route(p, i, j, n, r);
        }
    free(up);
    return rc;
}

int hc__links_parse(const char *origin, void *vroot, hc_platform_t *p)
{
    json_t *root = vroot;
    if (json_object_get(root, "clusters")) {
        if (!json_object_get(root, "backbone"))
            return HC_OK; /* a version-2 cluster form without links */
        if (json_object_get(root, "inter") || json_object_get(root, "default_inter"))
            return hc__error(HC_ERR_PARSE,
                             "%s: a cluster form with a backbone takes its inter-cluster links "
                             "from the uplinks: drop 'inter' and 'default_inter'",
                             origin);
        return parse_cluster_links(origin, root, p);
    }
    if (!json_object_get(root, "links") && !json_object_get(root, "routes"))
        return HC_OK;
    return parse_matrix_links(origin, root, p);
}
