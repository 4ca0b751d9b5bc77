/* Internal declarations of src/net: the platform struct (shared by platform.c and
 * platform_json.c), built-in and random platform constructors. Not installed. */
#ifndef HETCOLL_NET_INTERNAL_H
#define HETCOLL_NET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/internal.h"

/* A pLogP gap table: n samples, sizes strictly increasing (bytes), gaps >= 0 (s). */
typedef struct hc__gap_table {
    size_t n;
    uint64_t *sizes;
    double *gaps;
} hc__gap_table_t;

/* A gap table for the ordered cluster pair (ca, cb). */
typedef struct hc__cluster_gap {
    uint32_t ca, cb;
    hc__gap_table_t t;
} hc__cluster_gap_t;

/* A link shared by the flows that cross it (include/hetcoll/links.h). */
typedef struct hc__link {
    char *name;
    double bw, lat;
    int sharing; /* hc_link_sharing_t */
    /* What a transfer whose way back crosses this link loads it with, per byte: SMPI's cross
     * traffic (0.05) in hc_flows_bound_platform's copies, on the links it did not scale for it;
     * 0 elsewhere (not copied by hc__links_copy). Read by hc_flows_bound. */
    double back_load;
} hc__link_t;

struct hc_platform {
    uint32_t P;
    char *name;                /* malloc'd, never NULL ("" when unnamed) */
    char **node_names;         /* P malloc'd strings */
    double *lat;               /* P*P, s; diagonal 0 */
    double *bw;                /* P*P, B/s; diagonal inf */
    double *send_time;         /* P, s; < 0 when unset */
    int32_t *cluster;          /* P labels, -1 = none */
    uint32_t n_clusters;       /* labels are 0..n_clusters-1, each used by >= 1 node */
    char **cluster_names;      /* n_clusters malloc'd strings */
    hc__gap_table_t *pair_gap; /* P*P tables (n == 0: none), or NULL when no pair has one */
    hc__cluster_gap_t *cgaps;  /* cluster-pair tables */
    size_t n_cgaps, cap_cgaps;
    /* link level (NULL / 0 without): links, and per ordered pair its route: route[i*P+j] is
     * NULL or {n, hop_0, ..., hop_{n-1}}, hop = link id << 1 | direction (1 = down) */
    hc__link_t *links;
    uint32_t n_links, cap_links;
    uint32_t **route;
};

/* Free / copy the link level of a platform (links.c); copy maps q's node a to p's nodes[a]
 * (nodes NULL = the same ids). */
void hc__links_free(hc_platform_t *p);
int hc__links_copy(hc_platform_t *q, const hc_platform_t *p, const uint32_t *nodes);
/* The link level of a version-2 platform document (links_json.c): "links" and "routes", or in
 * the cluster form each cluster's "uplink" and the "backbone". `root` is a json_t *. */
int hc__links_parse(const char *origin, void *root, hc_platform_t *p);

/* The flow model as an engine (flow.c): transfers may be added while it runs. */
/* The links a platform without them means to the flow model, as its SimGrid matrix export
 * (src/net/simgrid_export.c) writes them: per node an up and a down link (SHARED) at its fastest
 * outgoing / incoming rate (its NIC), per ordered pair a private link with the pair's latency
 * and bandwidth; route i -> j = up-i, l-i-j, down-j. Every pair's latency and bandwidth are
 * kept. Caller frees *out with hc_platform_destroy. */
int hc__platform_nic_links(const hc_platform_t *p, hc_platform_t **out);
/* Node i's NIC in both: its fastest outgoing (*up) and incoming (*down) pair bandwidth (1e9 B/s
 * for a node without any). */
void hc__node_nic_rates(const hc_platform_t *p, uint32_t i, double *up, double *down);

typedef struct hc__fe hc__fe_t;
struct hc_flow_opts;
int hc__fe_create(const hc_platform_t *p, const struct hc_flow_opts *opts, hc__fe_t **out);
void hc__fe_destroy(hc__fe_t *e);
/* Add a transfer starting at max(start, now); *id (may be NULL) gets its index. */
int hc__fe_add(hc__fe_t *e, uint32_t src, uint32_t dst, double bytes, double start, size_t *id);
/* Advance to the next end: 1 with the transfer's *id and end *t, 0 when none is left. */
int hc__fe_next(hc__fe_t *e, size_t *id, double *t);
/* The latency a transfer of `bytes` from src to dst waits (the route's, with the factors). */
double hc__fe_latency(const hc__fe_t *e, uint32_t src, uint32_t dst, double bytes);
/* The engine's current time. */
double hc__fe_now(const hc__fe_t *e);

/* Allocate a P-node platform (P >= 1) with all links at (lat, bw) (not validated), nodes
 * "n0".."n{P-1}", no clusters. */
int hc__platform_alloc(uint32_t P, double lat, double bw, hc_platform_t **out);

/* Gap table for the ordered cluster pair (ca, cb) (indices < cluster count); replaces an
 * existing one. Same validation as hc_platform_set_gap_table. */
int hc__platform_set_cluster_gap_table(hc_platform_t *p, uint32_t ca, uint32_t cb, size_t n,
                                       const uint64_t *sizes, const double *gaps);

/* Check a gap table's samples; `what` names it in the error ("" for none). */
int hc__gap_table_check(const char *what, size_t n, const uint64_t *sizes, const double *gaps);

/* Evaluate a gap table at m bytes (see hc_platform_gap). */
double hc__gap_table_eval(const hc__gap_table_t *t, uint64_t m);

/* builtin:NAME (src/net/builtin.c). HC_ERR_UNKNOWN lists the valid names. */
int hc__platform_builtin(const char *name, hc_platform_t **out);

/* random:GEN:k=v:... (src/net/random.c); `spec` is the full spec including "random:". */
int hc__platform_random(const char *spec, hc_platform_t **out);

/* simgrid:[hostfile=H:][np=N:]FILE.xml (src/net/simgrid_import.c); `spec` follows "simgrid:".
 * HC_ERR_UNSUPPORTED when built without SimGrid. */
int hc__platform_simgrid(const char *spec, hc_platform_t **out);

/* Comma-separated generator names, e.g. "gusto, two-cluster, uniform, grid". */
const char *hc__platform_random_names(void);

/* The time-indexed LP bound (flow_lp.c) of n transfers: transfer f carries bytes[f] after
 * rel[f] (its route's latency) over the resources res[off[f] .. off[f+1]) (resource ids as
 * flow.c numbers them, < 2 x links), each resource carrying at most its link's capacity at
 * any time. Each transfer's bytes may go in any of nc classes: in class c they flow only after
 * cl_lat[c] x rel[f] and use 1 / cl_bw[c] units of capacity per byte (nc = 1, factors 1: the
 * platform as it is). *out = the least makespan (Clp's dual simplex, lowered by 1e-6 for its
 * tolerance), or 0 when the LP is too large (over 400000 entries) or unsolved. */
int hc__flows_lp_bound(const hc_platform_t *p, size_t n, const double *rel, const double *bytes,
                       const size_t *off, const uint32_t *res, size_t nc, const double *cl_lat,
                       const double *cl_bw, double *out);

/* A broadcast over K sites for the sites LP (flow_lp.c): every site but `root` needs m bytes.
 * Arc a carries bytes from site src[a] to dst[a] (never into the root's site) over the resources
 * res[res_off[a] .. res_off[a + 1]) (ids 0 .. n_res - 1, capacities cap, B/s); in class c a byte
 * flows cl_lat[c] x lat[a] (the arc's smallest route latency at the best class) after its
 * message starts, which needs it at src[a] (the root's site from 0, another from first[src[a]],
 * the earliest any byte reaches it), and uses 1 / cl_bw[c] units of each resource's capacity.
 * mirror: a reduction run backwards in time (arcs and routes reversed): a message's latency
 * comes after its bytes, so an arc's bytes flow from first[src[a]] (0 from the root's site) until
 * T - cl_lat[c] x lat[a], and a site forwards a byte the latency of the arc it came on after it
 * flowed there. */
typedef struct hc__sites_lp {
    int mirror;
    uint32_t K, root;
    double m;
    size_t n_arcs;
    const uint32_t *src, *dst;
    const double *lat, *first;
    size_t nc;
    const double *cl_lat, *cl_bw;
    size_t n_res;
    const double *cap;
    const size_t *res_off;
    const uint32_t *res;
} hc__sites_lp_t;

/* The least T by which a time-indexed LP of s lets m bytes reach every site (each resource within
 * its capacity in every interval, each arc-class after its release, each relay forwarding only
 * what reached it an arc latency before), searched from lo (a known lower bound) by bisection:
 * *out = the largest T found short, or lo when the LP is too large or unsolved. */
int hc__flows_sites_lp_bound(const hc__sites_lp_t *s, double lo, double *out);

#endif
