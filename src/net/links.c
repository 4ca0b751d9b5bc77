/* The link level of a platform (include/hetcoll/links.h): links, routes, copying. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/links.h"
#include "net_internal.h"

static const char *const sharing_names[] = {"shared", "splitduplex", "fatpipe"};

const char *hc_link_sharing_name(hc_link_sharing_t s)
{
    return (unsigned)s < 3 ? sharing_names[s] : "?";
}

int hc_link_sharing_parse(const char *name, hc_link_sharing_t *out)
{
    for (int k = 0; k < 3; k++)
        if (name && strcmp(name, sharing_names[k]) == 0) {
            *out = (hc_link_sharing_t)k;
            return HC_OK;
        }
    return hc__error(HC_ERR_UNKNOWN,
                     "unknown link sharing '%s' (valid: shared, splitduplex, "
                     "fatpipe)",
                     name ? name : "(null)");
}

void hc__links_free(hc_platform_t *p)
{
    for (uint32_t k = 0; k < p->n_links; k++)
        free(p->links[k].name);
    free(p->links);
    p->links = NULL;
    p->n_links = p->cap_links = 0;
    if (p->route) {
        for (size_t k = 0; k < (size_t)p->P * p->P; k++)
            free(p->route[k]);
        free(p->route);
        p->route = NULL;
    }
}

int hc__links_copy(hc_platform_t *q, const hc_platform_t *p, const uint32_t *nodes)
{
    for (uint32_t k = 0; k < p->n_links; k++)
        HC__TRY(hc_platform_add_link(q, p->links[k].name, p->links[k].bw, p->links[k].lat,
                                     (hc_link_sharing_t)p->links[k].sharing, NULL));
    if (!p->route)
        return HC_OK;
    hc_hop_t *hops = hc__malloc(p->n_links * 2 + 1, sizeof *hops);
    if (!hops)
        return hc__error(HC_ERR_NOMEM, "out of memory copying routes");
    int rc = HC_OK;
    for (uint32_t a = 0; rc == HC_OK && a < q->P; a++)
        for (uint32_t b = 0; rc == HC_OK && b < q->P; b++) {
            uint32_t i = nodes ? nodes[a] : a, j = nodes ? nodes[b] : b;
            const uint32_t *r = a == b ? NULL : p->route[(size_t)i * p->P + j];
            if (!r)
                continue;
            for (uint32_t h = 0; h < r[0]; h++) {
                hops[h].link = r[1 + h] >> 1;
                hops[h].down = (uint8_t)(r[1 + h] & 1);
            }
            /* keep the pair's own latency and bandwidth (they may have been set after) */
            double lat = q->lat[(size_t)a * q->P + b], bw = q->bw[(size_t)a * q->P + b];
            rc = hc_platform_set_route(q, a, b, r[0], hops);
            q->lat[(size_t)a * q->P + b] = nodes ? p->lat[(size_t)i * p->P + j] : lat;
            q->bw[(size_t)a * q->P + b] = nodes ? p->bw[(size_t)i * p->P + j] : bw;
        }
    free(hops);
    return rc;
}

int hc_platform_add_link(hc_platform_t *p, const char *name, double bandwidth_Bps, double latency_s,
                         hc_link_sharing_t sharing, uint32_t *id)
{
    if (!p || !name || !*name)
        return hc__error(HC_ERR_INVAL, "hc_platform_add_link: NULL platform or empty name");
    if (strchr(name, ':')) /* routes name a direction as LINK:up / LINK:down */
        return hc__error(HC_ERR_VALUE, "link '%s': a link name has no ':'", name);
    if (!isfinite(bandwidth_Bps) || bandwidth_Bps <= 0)
        return hc__error(HC_ERR_VALUE, "link '%s': bandwidth must be finite and > 0 (got %g)", name,
                         bandwidth_Bps);
    if (!isfinite(latency_s) || latency_s < 0)
        return hc__error(HC_ERR_VALUE, "link '%s': latency must be finite and >= 0 (got %g)", name,
                         latency_s);
    if ((unsigned)sharing > HC_LINK_FATPIPE)
        return hc__error(HC_ERR_VALUE, "link '%s': unknown sharing %d", name, (int)sharing);
    if (p->n_links >= (1u << 30))
        return hc__error(HC_ERR_LIMIT, "a platform has at most 2^30 links");
    for (uint32_t k = 0; k < p->n_links; k++)
        if (strcmp(p->links[k].name, name) == 0)
            return hc__error(HC_ERR_VALUE, "link '%s' is defined twice", name);
    size_t cap = p->cap_links;
    HC__TRY(hc__grow((void **)&p->links, &cap, (size_t)p->n_links + 1, sizeof *p->links));
    p->cap_links = (uint32_t)cap;
    hc__link_t *l = &p->links[p->n_links];
    l->name = hc__strdup(name);
    if (!l->name)
        return hc__error(HC_ERR_NOMEM, "out of memory adding link '%s'", name);
    l->bw = bandwidth_Bps;
    l->lat = latency_s;
    l->sharing = (int)sharing;
    l->back_load = 0;
    if (id)
        *id = p->n_links;
    p->n_links++;
    return HC_OK;
}

uint32_t hc_platform_link_count(const hc_platform_t *p)
{
    return p ? p->n_links : 0;
}

const char *hc_platform_link_name(const hc_platform_t *p, uint32_t id)
{
    return p && id < p->n_links ? p->links[id].name : "";
}

double hc_platform_link_bandwidth(const hc_platform_t *p, uint32_t id)
{
    return p && id < p->n_links ? p->links[id].bw : NAN;
}

double hc_platform_link_latency(const hc_platform_t *p, uint32_t id)
{
    return p && id < p->n_links ? p->links[id].lat : NAN;
}

hc_link_sharing_t hc_platform_link_sharing(const hc_platform_t *p, uint32_t id)
{
    return p && id < p->n_links ? (hc_link_sharing_t)p->links[id].sharing : HC_LINK_SHARED;
}

int hc_platform_link_find(const hc_platform_t *p, const char *name, uint32_t *id)
{
    for (uint32_t k = 0; p && name && k < p->n_links; k++)
        if (strcmp(p->links[k].name, name) == 0) {
            *id = k;
            return HC_OK;
        }
    return hc__error(HC_ERR_UNKNOWN, "no link named '%s'", name ? name : "(null)");
}

int hc_platform_set_route(hc_platform_t *p, uint32_t i, uint32_t j, size_t n, const hc_hop_t *hops)
{
    if (!p || (!hops && n))
        return hc__error(HC_ERR_INVAL, "hc_platform_set_route: NULL argument");
    if (i >= p->P || j >= p->P || i == j)
        return hc__error(HC_ERR_VALUE, "route %u -> %u: nodes must be distinct and < %u", i, j,
                         p->P);
    if (n == 0 || n > 2 * (size_t)p->n_links + 1)
        return hc__error(HC_ERR_VALUE, "route %s -> %s: %zu hops (1..%u)", p->node_names[i],
                         p->node_names[j], n, 2 * p->n_links + 1);
    double lat = 0, bw = INFINITY;
    for (size_t h = 0; h < n; h++) {
        if (hops[h].link >= p->n_links)
            return hc__error(HC_ERR_VALUE, "route %s -> %s: hop %zu: no link %u", p->node_names[i],
                             p->node_names[j], h, hops[h].link);
        lat += p->links[hops[h].link].lat;
        if (p->links[hops[h].link].bw < bw)
            bw = p->links[hops[h].link].bw;
    }
    if (!p->route) {
        /* A route per pair costs about 64 bytes (pointer, allocation, hops) where the matrices
         * cost 16: routes are allowed on half the node cap (the same memory). */
        const uint64_t cap = hc__max_nodes() / 2;
        if (p->P > cap)
            return hc__error(
                HC_ERR_LIMIT,
                "a platform of %u nodes with routes needs about %.3g GB of route "
                "tables, more than the limit of %llu nodes (half of HETCOLL_MAX_NODES; "
                "set it to raise the limit)",
                p->P, 64.0 * p->P * p->P / 1e9, (unsigned long long)cap);
        p->route = hc__calloc((size_t)p->P * p->P, sizeof *p->route);
        if (!p->route)
            return hc__error(HC_ERR_NOMEM, "out of memory for the routes of %u nodes", p->P);
    }
    uint32_t *r = hc__malloc(n + 1, sizeof *r);
    if (!r)
        return hc__error(HC_ERR_NOMEM, "out of memory setting a route");
    r[0] = (uint32_t)n;
    for (size_t h = 0; h < n; h++)
        r[1 + h] = hops[h].link << 1 | (hops[h].down ? 1u : 0u);
    size_t k = (size_t)i * p->P + j;
    free(p->route[k]);
    p->route[k] = r;
    p->lat[k] = lat > 1e-9 ? lat : 1e-9; /* the per-pair model needs latency > 0 */
    p->bw[k] = bw;
    return HC_OK;
}

size_t hc_platform_route(const hc_platform_t *p, uint32_t i, uint32_t j, hc_hop_t *hops, size_t cap)
{
    if (!p || !p->route || i >= p->P || j >= p->P || i == j)
        return 0;
    const uint32_t *r = p->route[(size_t)i * p->P + j];
    if (!r)
        return 0;
    for (uint32_t h = 0; hops && h < r[0] && h < cap; h++) {
        hops[h].link = r[1 + h] >> 1;
        hops[h].down = (uint8_t)(r[1 + h] & 1);
    }
    return r[0];
}

int hc_platform_has_routes(const hc_platform_t *p)
{
    if (!p || !p->route)
        return 0;
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t j = 0; j < p->P; j++)
            if (i != j && !p->route[(size_t)i * p->P + j])
                return 0;
    return 1;
}

void hc__node_nic_rates(const hc_platform_t *p, uint32_t i, double *up, double *down)
{
    uint32_t P = hc_platform_size(p);
    *up = *down = 0;
    for (uint32_t j = 0; j < P; j++)
        if (j != i) {
            *up = fmax(*up, hc_platform_bandwidth(p, i, j));
            *down = fmax(*down, hc_platform_bandwidth(p, j, i));
        }
    if (*up <= 0)
        *up = *down = 1e9;
}

int hc__platform_nic_links(const hc_platform_t *p, hc_platform_t **out)
{
    *out = NULL;
    uint32_t P = hc_platform_size(p);
    hc_platform_t *q = NULL;
    int rc = hc_platform_clone(p, &q);
    char name[64];
    /* links 2i and 2i + 1: node i's up and down NIC; then one per ordered pair */
    for (uint32_t i = 0; rc == HC_OK && i < P; i++) {
        double up, down;
        hc__node_nic_rates(p, i, &up, &down);
        snprintf(name, sizeof name, "up-%u", i);
        rc = hc_platform_add_link(q, name, up, 0, HC_LINK_SHARED, NULL);
        snprintf(name, sizeof name, "down-%u", i);
        if (rc == HC_OK)
            rc = hc_platform_add_link(q, name, down, 0, HC_LINK_SHARED, NULL);
    }
    for (uint32_t i = 0; rc == HC_OK && i < P; i++)
        for (uint32_t j = 0; rc == HC_OK && j < P; j++) {
            if (i == j)
                continue;
            uint32_t id;
            snprintf(name, sizeof name, "l-%u-%u", i, j);
            rc = hc_platform_add_link(q, name, hc_platform_bandwidth(p, i, j),
                                      hc_platform_latency(p, i, j), HC_LINK_SHARED, &id);
            hc_hop_t hops[3] = {{2 * i, 0}, {id, 0}, {2 * j + 1, 0}};
            if (rc == HC_OK)
                rc = hc_platform_set_route(q, i, j, 3, hops);
        }
    if (rc != HC_OK) {
        hc_platform_destroy(q);
        return rc;
    }
    *out = q;
    return HC_OK;
}
