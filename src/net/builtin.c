/* Built-in platforms (builtin:NAME), from the papers' measured tables:
 *   gusto     5 GUSTO sites, 000 Tables 1-2 (latency ms, bandwidth "kb/s" read as kilobits
 *             per second: 1 kb/s = 125 B/s). One cluster label per site.
 *   grid5000  88 nodes in the 6 logical clusters of 004 Table 3 (latencies in microseconds,
 *             exact table values), 1 Gbit/s = 125e6 B/s on every link (intra-cluster Gigabit
 *             Ethernet too). Cluster labels C1-1, C1-2, C2-1, C2-2, C2-3, C3.
 * See docs/formats.md, "Platform specs". */
#include <stdio.h>
#include <string.h>

#include "net_internal.h"

#define GUSTO_N 5
static const char *const gusto_sites[GUSTO_N] = {"AMES", "ANL", "IND", "USC-ISI", "NCSA"};
/* 000 Table 1: latency (ms). */
static const double gusto_lat_ms[GUSTO_N][GUSTO_N] = {
    {0, 34.5, 89.5, 12, 42},   {34.5, 0, 20, 26.5, 4.5}, {89.5, 20, 0, 42.5, 21.5},
    {12, 26.5, 42.5, 0, 29.5}, {42, 4.5, 21.5, 29.5, 0},
};
/* 000 Table 2: bandwidth (kb/s = kilobits per second). */
static const double gusto_bw_kbps[GUSTO_N][GUSTO_N] = {
    {0, 512, 246, 2044, 391},  {512, 0, 491, 693, 2402},  {246, 491, 0, 311, 448},
    {2044, 693, 311, 0, 4976}, {391, 2402, 448, 4976, 0},
};

static int build_gusto(hc_platform_t **out)
{
    hc_platform_t *p;
    HC__TRY(hc__platform_alloc(GUSTO_N, 1.0, 1.0, &p));
    int rc = hc_platform_set_name(p, "gusto");
    for (uint32_t i = 0; i < GUSTO_N && rc == HC_OK; i++) {
        rc = hc_platform_set_node_name(p, i, gusto_sites[i]);
        if (rc == HC_OK)
            rc = hc_platform_set_cluster(p, i, gusto_sites[i]);
        for (uint32_t j = 0; j < GUSTO_N && rc == HC_OK; j++)
            if (i != j)
                rc = hc_platform_set_link(p, i, j, gusto_lat_ms[i][j] * 1e-3,
                                          gusto_bw_kbps[i][j] * 125.0);
    }
    if (rc != HC_OK) {
        hc_platform_destroy(p);
        return rc;
    }
    *out = p;
    return HC_OK;
}

#define G5K_C 6
static const char *const g5k_names[G5K_C] = {"C1-1", "C1-2", "C2-1", "C2-2", "C2-3", "C3"};
static const uint32_t g5k_sizes[G5K_C] = {31, 29, 6, 1, 1, 20};
/* 004 Table 3: intra (diagonal) and inter-cluster latencies in microseconds. The 1-node
 * clusters C2-2 and C2-3 have no intra pair (0 in the table). */
static const double g5k_lat_us[G5K_C][G5K_C] = {
    {47.56, 62.10, 12181.52, 12187.24, 12197.49, 5210.99},
    {62.10, 47.92, 12181.52, 12198.03, 12195.22, 5211.47},
    {12181.52, 12181.52, 35.52, 60.08, 60.08, 5388.49},
    {12187.24, 12198.03, 60.08, 0, 242.47, 5393.98},
    {12197.49, 12195.22, 60.08, 242.47, 0, 5394.10},
    {5210.99, 5211.47, 5388.49, 5393.98, 5394.10, 27.53},
};
#define G5K_BW 125e6 /* 1 Gbit/s in bytes per second */

static int build_grid5000(hc_platform_t **out)
{
    uint32_t P = 0;
    for (int c = 0; c < G5K_C; c++)
        P += g5k_sizes[c];
    hc_platform_t *p;
    HC__TRY(hc__platform_alloc(P, 1.0, G5K_BW, &p));
    int rc = hc_platform_set_name(p, "grid5000");
    uint32_t cl[88];
    uint32_t i = 0;
    for (int c = 0; c < G5K_C && rc == HC_OK; c++)
        for (uint32_t k = 0; k < g5k_sizes[c] && rc == HC_OK; k++, i++) {
            char nbuf[32];
            snprintf(nbuf, sizeof nbuf, "%s-%u", g5k_names[c], k);
            cl[i] = (uint32_t)c;
            rc = hc_platform_set_node_name(p, i, nbuf);
            if (rc == HC_OK)
                rc = hc_platform_set_cluster(p, i, g5k_names[c]);
        }
    for (uint32_t a = 0; a < P && rc == HC_OK; a++)
        for (uint32_t b = 0; b < P && rc == HC_OK; b++)
            if (a != b)
                rc = hc_platform_set_link(p, a, b, g5k_lat_us[cl[a]][cl[b]] * 1e-6, G5K_BW);
    if (rc != HC_OK) {
        hc_platform_destroy(p);
        return rc;
    }
    *out = p;
    return HC_OK;
}

const char *hc_platform_builtin_names(void)
{
    return "gusto, grid5000";
}

int hc__platform_builtin(const char *name, hc_platform_t **out)
{
    *out = NULL;
    if (strcmp(name, "gusto") == 0)
        return build_gusto(out);
    if (strcmp(name, "grid5000") == 0)
        return build_grid5000(out);
    return hc__error(HC_ERR_UNKNOWN, "builtin:%s: unknown built-in platform '%s' (valid: %s)", name,
                     name, hc_platform_builtin_names());
}
