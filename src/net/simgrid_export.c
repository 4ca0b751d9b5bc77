/* SimGrid export (include/hetcoll/platform.h, hc_platform_export_simgrid; the CLI's `hetcoll
 * platform export --simgrid OUT.xml [--hostfile OUT.txt]`): a hetcoll platform as a SimGrid
 * platform (version 4.1) for SMPI.
 *
 * Cluster form (every node labelled, links uniform inside each cluster and per ordered cluster
 * pair): one <cluster> per hetcoll cluster inside a Full-routing zone. A node's private link
 * (SPLITDUPLEX: one up and one down link, i.e. a full-duplex NIC) has half the intra-cluster
 * latency and the intra-cluster bandwidth; the cluster backbone is a FATPIPE with no latency.
 * Each ordered cluster pair (A, B) gets a link of latency L_AB - x_A - x_B (x = private
 * latency) and bandwidth B_AB, so the route A-node -> B-node has exactly the platform's
 * latency and bandwidth. One-node clusters get a zero-latency private link at the node's
 * fastest inter-cluster rate.
 *
 * Matrix form (anything else): one host per node in a Full zone, one link per ordered pair
 * (latency L_ij, bandwidth B_ij) and per node an "up" and a "down" link at its fastest
 * outgoing / incoming rate (the NIC); route i -> j = up_i, l_ij, down_j.
 *
 * Both forms are checked by reconstructing every pair's route latency and bandwidth; the
 * automatic choice falls back to the matrix form when the cluster form would not be exact.
 * pLogP gap tables and per-node send times have no SimGrid counterpart and are ignored. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "hetcoll/links.h"
#include "net_internal.h"

typedef struct {
    uint32_t n;      /* nodes */
    double x;        /* private link latency */
    double nic;      /* private link bandwidth */
    char prefix[96]; /* host name prefix */
} sg_cluster_t;

static int same(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Host/zone names: keep [A-Za-z0-9_.-], replace anything else by '_'. */
static void sanitize(char *dst, size_t cap, const char *src)
{
    size_t k = 0;
    for (; src && src[k] && k + 1 < cap; k++) {
        char ch = src[k];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '_' || ch == '.' || ch == '-';
        dst[k] = ok ? ch : '_';
    }
    if (k == 0 && cap > 1)
        dst[k++] = '_';
    dst[k] = '\0';
}

/* When two of the n ids collide, every id becomes prefix<i> (i = its index). */
static void make_unique(char (*ids)[96], uint32_t n, const char *prefix)
{
    int unique = 1;
    for (uint32_t i = 0; i < n && unique; i++)
        for (uint32_t j = 0; j < i && unique; j++)
            unique = strcmp(ids[i], ids[j]) != 0;
    for (uint32_t i = 0; !unique && i < n; i++)
        snprintf(ids[i], sizeof ids[i], "%s%u", prefix, i);
}

static void header(FILE *f, const hc_platform_t *p, const char *form)
{
    const char *name = hc_platform_name(p);
    char safe[128];
    sanitize(safe, sizeof safe, name && *name ? name : "unnamed");
    fprintf(
        f,
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<!-- hetcoll platform '%s', %u nodes, %s form (hetcoll platform export --simgrid) -->\n"
        "<platform version=\"4.1\">\n<zone id=\"hetcoll\" routing=\"Full\">\n",
        safe, hc_platform_size(p), form);
}

/* Fill per-cluster parameters and the inter-cluster latency/bandwidth; 0 when the platform
 * has no exact cluster form (the reason in *why). */
static int cluster_form(const hc_platform_t *p, sg_cluster_t *cl, double *wlat, double *wbw,
                        const char **why)
{
    uint32_t P = hc_platform_size(p), C = hc_platform_cluster_count(p);
    for (uint32_t i = 0; i < P; i++)
        if (hc_platform_cluster_of(p, i) < 0) {
            *why = "a node has no cluster label";
            return 0;
        }
    double *ilat = calloc((size_t)C * C, sizeof *ilat), *ibw = calloc((size_t)C * C, sizeof *ibw);
    char *seen = calloc((size_t)C * C, 1);
    int ok = ilat && ibw && seen;
    if (!ok)
        *why = "out of memory";
    for (uint32_t c = 0; c < C; c++)
        cl[c].n = 0;
    for (uint32_t i = 0; ok && i < P; i++) {
        uint32_t a = (uint32_t)hc_platform_cluster_of(p, i);
        cl[a].n++;
        for (uint32_t j = 0; ok && j < P; j++) {
            if (i == j)
                continue;
            uint32_t b = (uint32_t)hc_platform_cluster_of(p, j);
            size_t k = (size_t)a * C + b;
            double L = hc_platform_latency(p, i, j), B = hc_platform_bandwidth(p, i, j);
            if (!seen[k]) {
                seen[k] = 1;
                ilat[k] = L;
                ibw[k] = B;
            } else if (!same(ilat[k], L) || !same(ibw[k], B)) {
                *why =
                    a == b ? "links inside a cluster differ" : "links between two clusters differ";
                ok = 0;
            }
        }
    }
    for (uint32_t a = 0; ok && a < C; a++) {
        if (cl[a].n >= 2) {
            cl[a].x = ilat[(size_t)a * C + a] / 2;
            cl[a].nic = ibw[(size_t)a * C + a];
        } else {
            cl[a].x = 0;
            cl[a].nic = 0;
            for (uint32_t b = 0; b < C; b++)
                if (b != a && seen[(size_t)a * C + b]) {
                    cl[a].nic = fmax(cl[a].nic, ibw[(size_t)a * C + b]);
                    cl[a].nic = fmax(cl[a].nic, ibw[(size_t)b * C + a]);
                }
            if (cl[a].nic <= 0)
                cl[a].nic = 1e9;
        }
    }
    for (uint32_t a = 0; ok && a < C; a++)
        for (uint32_t b = 0; ok && b < C; b++) {
            size_t k = (size_t)a * C + b;
            if (a == b || !seen[k])
                continue;
            double w = ilat[k] - cl[a].x - cl[b].x;
            if (w < -1e-12 * ilat[k]) {
                *why = "an inter-cluster latency is below the intra-cluster ones";
                ok = 0;
            } else if (ibw[k] > cl[a].nic * (1 + 1e-12) || ibw[k] > cl[b].nic * (1 + 1e-12)) {
                *why = "an inter-cluster bandwidth exceeds an intra-cluster one";
                ok = 0;
            }
            wlat[k] = w > 0 ? w : 0;
            wbw[k] = ibw[k];
        }
    /* Host name prefixes: the sanitized cluster name, made unique. */
    for (uint32_t a = 0; ok && a < C; a++) {
        char base[80];
        sanitize(base, sizeof base, hc_platform_cluster_name(p, a));
        snprintf(cl[a].prefix, sizeof cl[a].prefix, "%s-", base);
        for (uint32_t b = 0; b < a; b++)
            if (strcmp(cl[a].prefix, cl[b].prefix) == 0) {
                snprintf(cl[a].prefix, sizeof cl[a].prefix, "%s_%u-", base, a);
                break;
            }
    }
    free(ilat);
    free(ibw);
    free(seen);
    return ok;
}

static void write_cluster(FILE *f, const hc_platform_t *p, const sg_cluster_t *cl,
                          const double *wlat, const double *wbw, const hc_simgrid_opts_t *o)
{
    uint32_t C = hc_platform_cluster_count(p);
    header(f, p, "cluster");
    for (uint32_t a = 0; a < C; a++)
        if (cl[a].n > 0)
            fprintf(
                f,
                "  <cluster id=\"%szone\" prefix=\"%s\" suffix=\"\" radical=\"0-%u\" speed=\"1Gf\" "
                "bw=\"%.17gBps\" lat=\"%.17gs\" sharing_policy=\"SPLITDUPLEX\" bb_bw=\"%.17gBps\" "
                "bb_lat=\"0s\" bb_sharing_policy=\"FATPIPE\" router_id=\"%srouter\"/>\n",
                cl[a].prefix, cl[a].prefix, cl[a].n - 1, cl[a].nic, cl[a].x, cl[a].nic,
                cl[a].prefix);
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = 0; b < C; b++) {
            size_t k = (size_t)a * C + b;
            if (a == b || cl[a].n == 0 || cl[b].n == 0)
                continue;
            fprintf(f,
                    "  <link id=\"wan-%u-%u\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" "
                    "sharing_policy=\"%s\"/>\n",
                    a, b, wbw[k], wlat[k],
                    (o->shared_backbone && o->backbone_bw <= 0) ? "SHARED" : "FATPIPE");
            if (o->backbone_bw > 0)
                fprintf(f,
                        "  <link id=\"bb-%u-%u\" bandwidth=\"%.17gBps\" latency=\"0s\" "
                        "sharing_policy=\"SHARED\"/>\n",
                        a, b, o->backbone_bw);
        }
    /* The DTD wants zones/clusters, then links, then routes. */
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = 0; b < C; b++) {
            if (a == b || cl[a].n == 0 || cl[b].n == 0)
                continue;
            fprintf(f,
                    "  <zoneRoute src=\"%szone\" dst=\"%szone\" gw_src=\"%srouter\" "
                    "gw_dst=\"%srouter\" symmetrical=\"NO\"><link_ctn id=\"wan-%u-%u\"/>",
                    cl[a].prefix, cl[b].prefix, cl[a].prefix, cl[b].prefix, a, b);
            if (o->backbone_bw > 0)
                fprintf(f, "<link_ctn id=\"bb-%u-%u\"/>", a, b);
            fprintf(f, "</zoneRoute>\n");
        }
    fprintf(f, "</zone>\n</platform>\n");
}

static void write_matrix(FILE *f, const hc_platform_t *p, char (*names)[96])
{
    uint32_t P = hc_platform_size(p);
    header(f, p, "matrix");
    for (uint32_t i = 0; i < P; i++)
        fprintf(f, "  <host id=\"%s\" speed=\"1Gf\"/>\n", names[i]);
    for (uint32_t i = 0; i < P; i++) {
        double up, down;
        hc__node_nic_rates(p, i, &up, &down);
        fprintf(f, "  <link id=\"up-%u\" bandwidth=\"%.17gBps\" latency=\"0s\"/>\n", i, up);
        fprintf(f, "  <link id=\"down-%u\" bandwidth=\"%.17gBps\" latency=\"0s\"/>\n", i, down);
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j)
                fprintf(f, "  <link id=\"l-%u-%u\" bandwidth=\"%.17gBps\" latency=\"%.17gs\"/>\n",
                        i, j, hc_platform_bandwidth(p, i, j), hc_platform_latency(p, i, j));
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j)
                fprintf(f,
                        "  <route src=\"%s\" dst=\"%s\" symmetrical=\"NO\"><link_ctn id=\"up-%u\"/>"
                        "<link_ctn id=\"l-%u-%u\"/><link_ctn id=\"down-%u\"/></route>\n",
                        names[i], names[j], i, i, j, j);
    fprintf(f, "</zone>\n</platform>\n");
}

/* Links form (the platform has links and a route per pair): its links as they are (sharing
 * policy included) and one route per ordered pair listing them; split-duplex hops name their
 * direction. Link ids: sanitized names, or link-<id> when two collide. */
static int write_links(FILE *f, const hc_platform_t *p, char (*names)[96])
{
    uint32_t P = hc_platform_size(p), L = hc_platform_link_count(p);
    char(*ids)[96] = calloc(L ? L : 1, sizeof *ids);
    hc_hop_t *hops = NULL;
    size_t cap = 0;
    if (!ids)
        return hc__error(HC_ERR_NOMEM, "simgrid export: out of memory");
    for (uint32_t l = 0; l < L; l++)
        sanitize(ids[l], sizeof ids[l], hc_platform_link_name(p, l));
    make_unique(ids, L, "link-");
    static const char *policy[] = {"SHARED", "SPLITDUPLEX", "FATPIPE"};
    header(f, p, "links");
    for (uint32_t i = 0; i < P; i++)
        fprintf(f, "  <host id=\"%s\" speed=\"1Gf\"/>\n", names[i]);
    for (uint32_t l = 0; l < L; l++)
        fprintf(f,
                "  <link id=\"%s\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" "
                "sharing_policy=\"%s\"/>\n",
                ids[l], hc_platform_link_bandwidth(p, l), hc_platform_link_latency(p, l),
                policy[hc_platform_link_sharing(p, l)]);
    int rc = HC_OK;
    for (uint32_t i = 0; rc == HC_OK && i < P; i++)
        for (uint32_t j = 0; rc == HC_OK && j < P; j++) {
            if (i == j)
                continue;
            size_t n = hc_platform_route(p, i, j, hops, cap);
            if (n > cap) {
                free(hops);
                cap = n;
                hops = malloc(cap * sizeof *hops);
                if (!hops) {
                    rc = hc__error(HC_ERR_NOMEM, "simgrid export: out of memory");
                    break;
                }
                n = hc_platform_route(p, i, j, hops, cap);
            }
            fprintf(f, "  <route src=\"%s\" dst=\"%s\" symmetrical=\"NO\">", names[i], names[j]);
            for (size_t h = 0; h < n; h++) {
                if (hc_platform_link_sharing(p, hops[h].link) == HC_LINK_SPLITDUPLEX)
                    fprintf(f, "<link_ctn id=\"%s\" direction=\"%s\"/>", ids[hops[h].link],
                            hops[h].down ? "DOWN" : "UP");
                else
                    fprintf(f, "<link_ctn id=\"%s\"/>", ids[hops[h].link]);
            }
            fprintf(f, "</route>\n");
        }
    fprintf(f, "</zone>\n</platform>\n");
    free(hops);
    free(ids);
    return rc;
}

void hc_simgrid_opts_init(hc_simgrid_opts_t *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = (uint32_t)sizeof *opts;
}

int hc_platform_export_simgrid(const hc_platform_t *p, const hc_simgrid_opts_t *o, FILE *xml,
                               FILE *hosts, hc_simgrid_form_t *form_out)
{
    hc_simgrid_opts_t def; /* the caller's options read up to its struct_size */
    hc_simgrid_opts_init(&def);
    if (o)
        HC__TRY(hc__opts_read(&def, sizeof def, o, "hc_simgrid_opts_t"));
    o = &def;
    if (o->backbone_bw < 0 || !isfinite(o->backbone_bw))
        return hc__error(HC_ERR_VALUE,
                         "simgrid export: backbone bandwidth must be finite and >= 0");
    uint32_t P = hc_platform_size(p), C = hc_platform_cluster_count(p);
    sg_cluster_t *cl = calloc(C ? C : 1, sizeof *cl);
    double *wlat = calloc((size_t)(C ? C : 1) * (C ? C : 1), sizeof *wlat);
    double *wbw = calloc((size_t)(C ? C : 1) * (C ? C : 1), sizeof *wbw);
    char(*names)[96] = calloc(P ? P : 1, sizeof *names);
    if (!cl || !wlat || !wbw || !names) {
        free(cl);
        free(wlat);
        free(wbw);
        free(names);
        return hc__error(HC_ERR_NOMEM, "simgrid export: out of memory");
    }
    const char *why = "the platform has no clusters";
    int links =
        (o->form == HC_SIMGRID_AUTO || o->form == HC_SIMGRID_LINKS) && hc_platform_has_routes(p);
    int cluster_ok =
        !links && C > 0 && o->form != HC_SIMGRID_MATRIX && cluster_form(p, cl, wlat, wbw, &why);
    int rc = HC_OK;
    if (o->form == HC_SIMGRID_LINKS && !links) {
        rc = hc__error(HC_ERR_VALUE, "simgrid export: the links form needs a platform with links "
                                     "and a route for every pair");
    } else if (o->form == HC_SIMGRID_CLUSTER && !cluster_ok) {
        rc = hc__error(HC_ERR_VALUE, "simgrid export: no exact cluster form: %s", why);
    } else if (cluster_ok) {
        write_cluster(xml, p, cl, wlat, wbw, o);
        uint32_t *next = calloc(C, sizeof *next);
        if (!next) {
            rc = hc__error(HC_ERR_NOMEM, "simgrid export: out of memory");
        } else {
            for (uint32_t i = 0; hosts && i < P; i++) {
                uint32_t a = (uint32_t)hc_platform_cluster_of(p, i);
                fprintf(hosts, "%s%u\n", cl[a].prefix, next[a]++);
            }
            free(next);
        }
        if (form_out)
            *form_out = HC_SIMGRID_CLUSTER;
    } else {
        /* Host names: sanitized node names, or n<i> when two collide. */
        for (uint32_t i = 0; i < P; i++)
            sanitize(names[i], sizeof names[i], hc_platform_node_name(p, i));
        make_unique(names, P, "n");
        if (links)
            rc = write_links(xml, p, names);
        else
            write_matrix(xml, p, names);
        for (uint32_t i = 0; hosts && i < P; i++)
            fprintf(hosts, "%s\n", names[i]);
        if (form_out)
            *form_out = links ? HC_SIMGRID_LINKS : HC_SIMGRID_MATRIX;
    }
    free(cl);
    free(wlat);
    free(wbw);
    free(names);
    return rc;
}
