/* Seeded random platform generators: "random:GEN:key=value:...". All draws use hc_rng_t
 * (xoshiro256**), so a spec gives the same platform on every machine. Ranges and
 * distributions are documented in docs/formats.md ("Platform specs"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/links.h"
#include "net_internal.h"

#define MAX_P 4096 /* random platforms: at most this many nodes */

typedef struct {
    const char *key;
    double def;
    int integer;
    double lo, hi; /* inclusive range */
    double val;
    int set;
} key_t_;

typedef struct {
    const char *name;
    const char *help;
    key_t_ keys[10];
} gen_t;

/* Keys of every generator (seed is handled separately). Units: seconds, bytes per second. */
static const gen_t generators[] = {
    {"gusto",
     "P nodes; latency U[0.0045, 0.0895] s, bandwidth log-uniform [30750, 622000] B/s (the "
     "ranges of the GUSTO tables, Bhat et al. 1998)",
     {{"P", 5, 1, 1, MAX_P, 0, 0}, {NULL, 0, 0, 0, 0, 0, 0}}},
    {"two-cluster",
     "clusters A (n1) and B (n2)",
     {{"n1", 16, 1, 1, MAX_P, 0, 0},
      {"n2", 16, 1, 1, MAX_P, 0, 0},
      {"intra_lat", 50e-6, 0, 1e-12, 1e6, 0, 0},
      {"intra_bw", 125e6, 0, 1e-6, 1e15, 0, 0},
      {"inter_lat", 10e-3, 0, 1e-12, 1e6, 0, 0},
      {"inter_bw", 12.5e6, 0, 1e-6, 1e15, 0, 0},
      {"jitter", 0.1, 0, 0, 0.99, 0, 0},
      {NULL, 0, 0, 0, 0, 0, 0}}},
    {"uniform",
     "P nodes; latency U[lat_min, lat_max], bandwidth U[bw_min, bw_max] (Cha et al.)",
     {{"P", 20, 1, 1, MAX_P, 0, 0},
      {"lat_min", 10e-6, 0, 1e-12, 1e6, 0, 0},
      {"lat_max", 1e-3, 0, 1e-12, 1e6, 0, 0},
      {"bw_min", 10e3, 0, 1e-6, 1e15, 0, 0},
      {"bw_max", 200e6, 0, 1e-6, 1e15, 0, 0},
      {"symmetric", 1, 1, 0, 1, 0, 0},
      {NULL, 0, 0, 0, 0, 0, 0}}},
    {"grid",
     "clusters x nodes; LAN inside clusters, WAN U[lat_min, lat_max] / U[bw_min, bw_max] "
     "between (Barchet-Steffenel & Mounie 2007)",
     {{"clusters", 5, 1, 1, MAX_P, 0, 0},
      {"nodes", 8, 1, 1, MAX_P, 0, 0},
      {"lat_min", 1e-3, 0, 1e-12, 1e6, 0, 0},
      {"lat_max", 15e-3, 0, 1e-12, 1e6, 0, 0},
      {"bw_min", 1e6, 0, 1e-6, 1e15, 0, 0},
      {"bw_max", 100e6, 0, 1e-6, 1e15, 0, 0},
      {NULL, 0, 0, 0, 0, 0, 0}}},
    {"sites",
     "sites x nodes with links: split-duplex NICs, one uplink per site shared by both "
     "directions, a fat-pipe backbone; ranks interleaved across sites (interleave=1) or blocked",
     {{"sites", 3, 1, 1, MAX_P, 0, 0},
      {"nodes", 4, 1, 1, MAX_P, 0, 0},
      {"nic_bw", 125e6, 0, 1e-6, 1e15, 0, 0},
      {"nic_lat", 25e-6, 0, 0, 1e6, 0, 0},
      {"uplink_bw", 12.5e6, 0, 1e-6, 1e15, 0, 0},
      {"uplink_lat", 5e-3, 0, 0, 1e6, 0, 0},
      {"interleave", 0, 1, 0, 1, 0, 0},
      {NULL, 0, 0, 0, 0, 0, 0}}},
};
#define N_GEN (sizeof generators / sizeof *generators)

const char *hc__platform_random_names(void)
{
    return "gusto, two-cluster, uniform, grid, sites";
}

int hc_platform_random_info(size_t i, const char **name, const char **desc,
                            hc_random_param_t *params, size_t max, size_t *n_params)
{
    if (i >= N_GEN)
        return hc__error(HC_ERR_VALUE, "hc_platform_random_info: there are %zu generators",
                         (size_t)N_GEN);
    const gen_t *g = &generators[i];
    size_t n = 0;
    for (const key_t_ *k = g->keys; k->key; k++, n++)
        if (params && n < max)
            params[n] = (hc_random_param_t){k->key, k->def, k->lo, k->hi, k->integer};
    if (name)
        *name = g->name;
    if (desc)
        *desc = g->help;
    if (n_params)
        *n_params = n;
    return HC_OK;
}

static double kv(const gen_t *g, const char *key)
{
    for (const key_t_ *k = g->keys; k->key; k++)
        if (strcmp(k->key, key) == 0)
            return k->set ? k->val : k->def;
    return NAN;
}

static void key_list(const gen_t *g, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const key_t_ *k = g->keys; k->key && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "%s, ", k->key);
    if (n < len)
        snprintf(buf + n, len - n, "seed");
}

/* Parse "GEN:k=v:..." (after "random:") into *g (a copy of the generator's table). */
static int parse_spec(const char *spec, gen_t *g, uint64_t *seed)
{
    const char *rest = spec + strlen("random:");
    const char *colon = strchr(rest, ':');
    size_t gl = colon ? (size_t)(colon - rest) : strlen(rest);
    size_t gi = N_GEN;
    for (size_t k = 0; k < N_GEN; k++)
        if (strlen(generators[k].name) == gl && strncmp(generators[k].name, rest, gl) == 0)
            gi = k;
    if (gi == N_GEN)
        return hc__error(HC_ERR_UNKNOWN, "%s: unknown random generator '%.*s' (valid: %s)", spec,
                         (int)gl, rest, hc__platform_random_names());
    *g = generators[gi];
    *seed = 1;
    int seed_set = 0;
    const char *s = colon ? colon + 1 : NULL;
    while (s) {
        const char *end = strchr(s, ':');
        size_t tl = end ? (size_t)(end - s) : strlen(s);
        char tok[128];
        if (tl == 0) {
            s = end ? end + 1 : NULL;
            continue;
        }
        if (tl >= sizeof tok)
            return hc__error(HC_ERR_VALUE, "%s: option '%.20s...' is too long", spec, s);
        memcpy(tok, s, tl);
        tok[tl] = '\0';
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || !eq[1])
            return hc__error(HC_ERR_VALUE, "%s: option '%s': expected key=value", spec, tok);
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        char *ep;
        if (strcmp(key, "seed") == 0) {
            errno = 0;
            unsigned long long u = strtoull(val, &ep, 10);
            if (seed_set)
                return hc__error(HC_ERR_VALUE, "%s: key 'seed' is given twice", spec);
            if (*ep || errno || val[0] == '-' || val[0] == '+')
                return hc__error(HC_ERR_VALUE, "%s: key 'seed': '%s' is not a non-negative integer",
                                 spec, val);
            *seed = u;
            seed_set = 1;
        } else {
            key_t_ *k = g->keys;
            while (k->key && strcmp(k->key, key) != 0)
                k++;
            if (!k->key) {
                char list[256];
                key_list(g, list, sizeof list);
                return hc__error(HC_ERR_UNKNOWN,
                                 "%s: unknown key '%s' for generator '%s' (valid: %s)", spec, key,
                                 g->name, list);
            }
            if (k->set)
                return hc__error(HC_ERR_VALUE, "%s: key '%s' is given twice", spec, key);
            errno = 0;
            double x = strtod(val, &ep);
            if (ep == val || *ep || !isfinite(x))
                return hc__error(HC_ERR_VALUE, "%s: key '%s': '%s' is not a finite number", spec,
                                 key, val);
            if (k->integer && x != floor(x))
                return hc__error(HC_ERR_VALUE, "%s: key '%s': expected a whole number (got %s)",
                                 spec, key, val);
            if (x < k->lo || x > k->hi)
                return hc__error(HC_ERR_VALUE, "%s: key '%s': must be in [%g, %g] (got %s)", spec,
                                 key, k->lo, k->hi, val);
            k->val = x;
            k->set = 1;
        }
        s = end ? end + 1 : NULL;
    }
    return HC_OK;
}

static int check_range(const char *spec, const gen_t *g, const char *lo, const char *hi)
{
    if (kv(g, lo) > kv(g, hi))
        return hc__error(HC_ERR_VALUE, "%s: key '%s' (%g) is larger than '%s' (%g)", spec, lo,
                         kv(g, lo), hi, kv(g, hi));
    return HC_OK;
}

static double log_uniform(hc_rng_t *r, double lo, double hi)
{
    return exp(hc_rng_range(r, log(lo), log(hi)));
}

/* Set both directions of the link (i, j). */
static void set_sym(hc_platform_t *p, uint32_t i, uint32_t j, double lat, double bw)
{
    p->lat[(size_t)i * p->P + j] = p->lat[(size_t)j * p->P + i] = lat;
    p->bw[(size_t)i * p->P + j] = p->bw[(size_t)j * p->P + i] = bw;
}

static int label(hc_platform_t *p, uint32_t i, const char *cluster, uint32_t k)
{
    char nbuf[64];
    snprintf(nbuf, sizeof nbuf, "%s-%u", cluster, k);
    HC__TRY(hc_platform_set_node_name(p, i, nbuf));
    return hc_platform_set_cluster(p, i, cluster);
}

static int gen_gusto(const gen_t *g, hc_rng_t *r, hc_platform_t **out)
{
    uint32_t P = (uint32_t)kv(g, "P");
    HC__TRY(hc__platform_alloc(P, 1.0, 1.0, out));
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = i + 1; j < P; j++) {
            double lat = hc_rng_range(r, 4.5e-3, 89.5e-3);
            double bw = log_uniform(r, 246.0, 4976.0) * 125.0;
            set_sym(*out, i, j, lat, bw);
        }
    return HC_OK;
}

static int gen_two_cluster(const gen_t *g, hc_rng_t *r, hc_platform_t **out)
{
    uint32_t n1 = (uint32_t)kv(g, "n1"), n2 = (uint32_t)kv(g, "n2");
    if (n1 + n2 > MAX_P)
        return hc__error(HC_ERR_LIMIT, "random:two-cluster: n1 + n2 = %u is more than %d nodes",
                         n1 + n2, MAX_P);
    double jit = kv(g, "jitter");
    HC__TRY(hc__platform_alloc(n1 + n2, 1.0, 1.0, out));
    hc_platform_t *p = *out;
    for (uint32_t i = 0; i < n1 + n2; i++)
        HC__TRY(label(p, i, i < n1 ? "A" : "B", i < n1 ? i : i - n1));
    for (uint32_t i = 0; i < n1 + n2; i++)
        for (uint32_t j = i + 1; j < n1 + n2; j++) {
            int same = (i < n1) == (j < n1);
            double lat = kv(g, same ? "intra_lat" : "inter_lat");
            double bw = kv(g, same ? "intra_bw" : "inter_bw");
            lat *= hc_rng_range(r, 1.0 - jit, 1.0 + jit);
            bw *= hc_rng_range(r, 1.0 - jit, 1.0 + jit);
            set_sym(p, i, j, lat, bw);
        }
    return HC_OK;
}

static int gen_uniform(const gen_t *g, hc_rng_t *r, hc_platform_t **out)
{
    uint32_t P = (uint32_t)kv(g, "P");
    double l0 = kv(g, "lat_min"), l1 = kv(g, "lat_max");
    double b0 = kv(g, "bw_min"), b1 = kv(g, "bw_max");
    int sym = kv(g, "symmetric") != 0;
    HC__TRY(hc__platform_alloc(P, 1.0, 1.0, out));
    hc_platform_t *p = *out;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = sym ? i + 1 : 0; j < P; j++) {
            if (i == j)
                continue;
            double lat = hc_rng_range(r, l0, l1);
            double bw = hc_rng_range(r, b0, b1);
            if (sym)
                set_sym(p, i, j, lat, bw);
            else {
                p->lat[(size_t)i * P + j] = lat;
                p->bw[(size_t)i * P + j] = bw;
            }
        }
    return HC_OK;
}

static int gen_grid(const gen_t *g, hc_rng_t *r, hc_platform_t **out)
{
    uint32_t C = (uint32_t)kv(g, "clusters"), N = (uint32_t)kv(g, "nodes");
    if ((uint64_t)C * N > MAX_P)
        return hc__error(HC_ERR_LIMIT, "random:grid: clusters x nodes = %llu is more than %d nodes",
                         (unsigned long long)C * N, MAX_P);
    double l0 = kv(g, "lat_min"), l1 = kv(g, "lat_max");
    double b0 = kv(g, "bw_min"), b1 = kv(g, "bw_max");
    uint32_t P = C * N;
    double *lat = hc__malloc((size_t)C * C, sizeof *lat);
    double *bw = hc__malloc((size_t)C * C, sizeof *bw);
    int rc = HC_OK;
    if (!lat || !bw) {
        rc = hc__error(HC_ERR_NOMEM, "random:grid: out of memory");
        goto done;
    }
    /* Per cluster: LAN latency U[10, 100] us, bandwidth U[12.5e6, 125e6] B/s (100 Mbit/s to
     * 1 Gbit/s). Per cluster pair: WAN latency U[lat_min, lat_max], bandwidth U[bw_min,
     * bw_max]. */
    for (uint32_t a = 0; a < C; a++) {
        lat[(size_t)a * C + a] = hc_rng_range(r, 10e-6, 100e-6);
        bw[(size_t)a * C + a] = hc_rng_range(r, 12.5e6, 125e6);
    }
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = a + 1; b < C; b++) {
            lat[(size_t)a * C + b] = lat[(size_t)b * C + a] = hc_rng_range(r, l0, l1);
            bw[(size_t)a * C + b] = bw[(size_t)b * C + a] = hc_rng_range(r, b0, b1);
        }
    if ((rc = hc__platform_alloc(P, 1.0, 1.0, out)) != HC_OK)
        goto done;
    for (uint32_t i = 0; i < P && rc == HC_OK; i++) {
        char cname[32];
        snprintf(cname, sizeof cname, "C%u", i / N);
        rc = label(*out, i, cname, i % N);
    }
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j) {
                size_t k = (size_t)(i / N) * C + j / N;
                (*out)->lat[(size_t)i * P + j] = lat[k];
                (*out)->bw[(size_t)i * P + j] = bw[k];
            }
done:
    free(lat);
    free(bw);
    return rc;
}

/* The 3-site grid of issue 15 by default: NIC up, site uplink, backbone, site uplink, NIC down
 * between sites; NIC up, NIC down inside one. */
static int gen_sites(const gen_t *g, hc_platform_t **out)
{
    uint32_t S = (uint32_t)kv(g, "sites"), N = (uint32_t)kv(g, "nodes");
    if ((uint64_t)S * N > MAX_P)
        return hc__error(HC_ERR_LIMIT, "random:sites: sites x nodes = %llu is more than %d nodes",
                         (unsigned long long)S * N, MAX_P);
    uint32_t P = S * N;
    int inter = kv(g, "interleave") != 0;
    HC__TRY(hc__platform_alloc(P, 1.0, 1.0, out));
    hc_platform_t *p = *out;
    int rc = HC_OK;
    char name[48];
    for (uint32_t i = 0; i < P && rc == HC_OK; i++) {
        uint32_t site = inter ? i % S : i / N;
        snprintf(name, sizeof name, "S%u", site);
        if ((rc = label(p, i, name, inter ? i / S : i % N)) != HC_OK)
            break;
        snprintf(name, sizeof name, "%s-nic", p->node_names[i]);
        rc = hc_platform_add_link(p, name, kv(g, "nic_bw"), kv(g, "nic_lat"), HC_LINK_SPLITDUPLEX,
                                  NULL);
    }
    for (uint32_t s = 0; s < S && rc == HC_OK; s++) {
        snprintf(name, sizeof name, "S%u-uplink", s);
        rc = hc_platform_add_link(p, name, kv(g, "uplink_bw"), kv(g, "uplink_lat"), HC_LINK_SHARED,
                                  NULL);
    }
    if (rc == HC_OK)
        rc = hc_platform_add_link(p, "backbone", 1e12, 0, HC_LINK_FATPIPE, NULL);
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        for (uint32_t j = 0; j < P && rc == HC_OK; j++) {
            if (i == j)
                continue;
            uint32_t si = inter ? i % S : i / N, sj = inter ? j % S : j / N;
            hc_hop_t r[5];
            size_t n = 0;
            r[n++] = (hc_hop_t){i, 0};
            if (si != sj) {
                r[n++] = (hc_hop_t){P + si, 0};
                r[n++] = (hc_hop_t){P + S, 0};
                r[n++] = (hc_hop_t){P + sj, 1};
            }
            r[n++] = (hc_hop_t){j, 1};
            rc = hc_platform_set_route(p, i, j, n, r);
        }
    return rc;
}

int hc__platform_random(const char *spec, hc_platform_t **out)
{
    gen_t g;
    uint64_t seed = 1;
    *out = NULL;
    HC__TRY(parse_spec(spec, &g, &seed));
    if (strcmp(g.name, "uniform") == 0 || strcmp(g.name, "grid") == 0) {
        HC__TRY(check_range(spec, &g, "lat_min", "lat_max"));
        HC__TRY(check_range(spec, &g, "bw_min", "bw_max"));
    }
    hc_rng_t r;
    hc_rng_seed(&r, seed);
    int rc;
    if (strcmp(g.name, "gusto") == 0)
        rc = gen_gusto(&g, &r, out);
    else if (strcmp(g.name, "two-cluster") == 0)
        rc = gen_two_cluster(&g, &r, out);
    else if (strcmp(g.name, "uniform") == 0)
        rc = gen_uniform(&g, &r, out);
    else if (strcmp(g.name, "sites") == 0)
        rc = gen_sites(&g, out);
    else
        rc = gen_grid(&g, &r, out);
    if (rc == HC_OK)
        rc = hc_platform_set_name(*out, spec);
    if (rc != HC_OK) {
        hc_platform_destroy(*out);
        *out = NULL;
    }
    return rc;
}
