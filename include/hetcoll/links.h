/* The link level of a platform: the links that flows share (a site's uplink, a backbone, both
 * directions of a half-duplex path) and, per ordered node pair, the route its traffic crosses.
 * A platform without links keeps the per-pair model (every pair its own private link).
 * Setting a route also sets the pair's latency (sum over its links) and bandwidth (the
 * smallest), so the per-pair cost model and the flow model agree on a lone transfer.
 *
 * Sharing (SimGrid's policies):
 *   HC_LINK_SHARED       one capacity for both directions (a half-duplex path, a WAN uplink
 *                        shared by the flows going out and coming in)
 *   HC_LINK_SPLITDUPLEX  one capacity per direction (a full-duplex NIC)
 *   HC_LINK_FATPIPE      no sharing: every flow gets the bandwidth (a non-blocking backbone)
 *
 * The flow model (hc_flows_run) times concurrent transfers by max-min fair sharing of the
 * link capacities, as SimGrid's network model does (its correction factors are an option). */
#ifndef HETCOLL_LINKS_H
#define HETCOLL_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { HC_LINK_SHARED = 0, HC_LINK_SPLITDUPLEX = 1, HC_LINK_FATPIPE = 2 } hc_link_sharing_t;

/* "shared", "splitduplex", "fatpipe". */
const char *hc_link_sharing_name(hc_link_sharing_t s);
int hc_link_sharing_parse(const char *name, hc_link_sharing_t *out);

/* Add a link (name unique and non-empty, bandwidth and latency finite, bandwidth > 0, latency
 * >= 0); *id (may be NULL) receives its index. */
int hc_platform_add_link(hc_platform_t *p, const char *name, double bandwidth_Bps, double latency_s,
                         hc_link_sharing_t sharing, uint32_t *id);
uint32_t hc_platform_link_count(const hc_platform_t *p);
/* Link id's fields (static storage of the platform; "" / NAN / SHARED when id is out of range). */
const char *hc_platform_link_name(const hc_platform_t *p, uint32_t id);
double hc_platform_link_bandwidth(const hc_platform_t *p, uint32_t id);
double hc_platform_link_latency(const hc_platform_t *p, uint32_t id);
hc_link_sharing_t hc_platform_link_sharing(const hc_platform_t *p, uint32_t id);
/* Index of the link named `name`, or HC_ERR_UNKNOWN. */
int hc_platform_link_find(const hc_platform_t *p, const char *name, uint32_t *id);

/* A hop of a route: link `link` crossed in direction `down` (0 = up, 1 = down; only a split
 * duplex link tells them apart). */
typedef struct hc_hop {
    uint32_t link;
    uint8_t down;
} hc_hop_t;

/* Route of the ordered pair (i, j), i != j: n >= 1 hops (copied). Sets the pair's latency to
 * the sum of the links' latencies (at least 1 ns) and its bandwidth to the smallest. */
int hc_platform_set_route(hc_platform_t *p, uint32_t i, uint32_t j, size_t n, const hc_hop_t *hops);
/* Number of hops of (i, j)'s route (0 = none) and up to `cap` of them into hops (may be NULL). */
size_t hc_platform_route(const hc_platform_t *p, uint32_t i, uint32_t j, hc_hop_t *hops,
                         size_t cap);
/* 1 when every ordered pair of distinct nodes has a route. */
int hc_platform_has_routes(const hc_platform_t *p);

/* ---- the flow model ---- */

/* One transfer: `bytes` from src to dst, starting at `start` (s). */
typedef struct hc_flow {
    uint32_t src, dst;
    double bytes;
    double start;
} hc_flow_t;

/* Options of the flow model. Start from hc_flow_opts_init. */
typedef struct hc_flow_opts {
    uint32_t struct_size;    /* sizeof(hc_flow_opts_t), set by hc_flow_opts_init */
    double latency_factor;   /* latency multiplied by this (default 1; SimGrid's default 13.01) */
    double bandwidth_factor; /* capacities multiplied by this (default 1; SimGrid's 0.97) */
    /* 1: SimGrid SMPI's default network model (SimGrid 3.32, network_cm02.cpp): a transfer of
     * m bytes waits latency x lat(m) (smpi/lat-factor); it moves bw(m) bytes per unit of link
     * capacity it uses (smpi/bw-factor), at most its route's bottleneck and TCP-gamma
     * (4 MiB) / (2 x latency) units; it also loads its way back at 0.05 (network/crosstraffic:
     * a shared link crossed both ways carries 1.05); links are shared in proportion to
     * 1 / (route latency + 8775 x the sum of 1 / bandwidth over its links) (network/weight-S:
     * a WAN flow gets little of a NIC next to LAN flows). lat and bw of the largest threshold
     * at or below m + 15 (SMPI 3.32's classes begin 15 B below their thresholds), e.g.
     * m >= 65457 B: 11.6436 and 0.940694; 5761 <= m <= 9360: 2.18796 and 1.08739 (more than
     * the link: SMPI's 8 KiB messages beat the plain link bound).
     * Default 0. */
    int smpi_factors;
} hc_flow_opts_t;
void hc_flow_opts_init(hc_flow_opts_t *opts);

/* The factors the flow model applies to a transfer of `bytes` under opts (NULL: the
 * defaults): its route's latency is multiplied by *latency_factor and its rate is at most its
 * route's bottleneck x *bandwidth_factor (with smpi_factors, also what it delivers per unit of
 * link capacity). Either pointer may be NULL. (API 10) */
void hc_flow_factors(const hc_flow_opts_t *opts, double bytes, double *latency_factor,
                     double *bandwidth_factor);

/* Time n concurrent transfers on p's routes: each waits its route's latency from its start,
 * then sends its bytes at the max-min fair rate of the links it crosses (recomputed whenever
 * a transfer begins or ends). end[k] (n entries) receives transfer k's end. Every pair used
 * needs a route (HC_ERR_VALUE names the first without). */
int hc_flows_run(const hc_platform_t *p, const hc_flow_opts_t *opts, const hc_flow_t *flows,
                 size_t n, double *end);

/* Lower bound on the time of the transfers `bytes` (P x P, row = sender) started together:
 * the largest, over the links' capacities (a shared link counting both directions), of the bytes
 * crossing it divided by its capacity, and of one transfer's latency + bytes / bottleneck; and
 * per link, for every latency L, L + the bytes of the transfers crossing it whose route
 * latency is at least L over its capacity (a transfer carries nothing before its latency;
 * up to about 1M transfer-link pairs); and the time-indexed LP that couples the links: each
 * transfer's bytes flow at any rates after its latency, every link within its capacity at
 * every moment, the least makespan (COIN-OR Clp's simplex; release times rounded down to at most 12
 * distinct values; skipped above 400000 matrix entries). */
int hc_flows_bound(const hc_platform_t *p, const double *bytes, double *out);

/* Cut bound of a broadcast (or, mirrored, a reduction) of m bytes from `root` on p's links,
 * with the platform's clusters as sites: every other site must take m in through the links all
 * routes into it share, and the root's site must let m out; when those links are the sites'
 * shared uplinks (one capacity for both directions), the k sites' uplinks together carry at
 * least 2 (k - 1) m (every byte that enters a site left another), hence at least
 * 2 (k - 1) m / (sum of their capacities). Plus the smallest latency into a site. And per
 * node: every receiver takes m in through the links common to all routes into it (its NIC),
 * plus the shortest latency path from the root to it (no flow into it carries bytes before
 * the first byte can arrive), and the root lets m out through the links common to its routes
 * out, plus the smallest latency of those routes.
 * Without clusters, or when no link is common to a site's routes, only the terms that exist
 * count. Latencies are the flow model's: a route's links' sum (which may be 0, where the pair's
 * hc_platform_latency is at least 1e-9 s). */
int hc_flows_bcast_bound(const hc_platform_t *p, uint32_t root, double m, double *out);
/* The broadcast bound under the flow model of opts (NULL: the defaults): hc_flows_bcast_bound on
 * hc_flows_bound_platform's copy of p, tightened by a time-indexed LP over the sites (the
 * platform's clusters, when every node has one; up to 16): every other site must take m in
 * through the links common to the routes into it, a site sends through those common to the
 * routes out of it, and a site other than the root's forwards only bytes that reached it at
 * least its smallest latency to the destination before. With smpi_factors a message's bytes
 * flow only after its size class's latency and use capacity at its class's rate, so the early
 * bytes move at the small classes' rates: the LP sees each class SimGrid's defaults offer
 * (relative to the most favourable factors). On 3 sites sharing 100 Mb/s, 10 ms uplinks, 1 MiB:
 * the cut bound says 0.1242 s under SMPI's model, this one more (the relays idle before their
 * first bytes arrive). The search stops within 1e-7 of the LP's least makespan (from below),
 * or when its LPs have held 4M entries in all (a second or two); the LP is skipped (the cut bound
 * stands) above 400000 entries. (API 20) */
int hc_flows_bcast_bound_model(const hc_platform_t *p, const hc_flow_opts_t *opts, uint32_t root,
                               double m, double *out);
/* Cut bound of a reduction of m bytes to `root`: the broadcast bound on p with every route
 * reversed (route i -> j takes j -> i's links in the opposite order and direction), the mirror
 * of the reduction, except the nodes' latencies: the root takes m in through the links common to
 * its routes in, after the shortest latency path from the farthest node (every position it
 * receives carries that node's data), and every other node sends m out through the links common
 * to its routes out, after its smallest latency out (its data may go straight to the root while
 * its other messages are on their way). Until API 20 a node's term counted its shortest path to
 * the root, which a reduction sending part of a node's data through a nearer site beats. (API 9) */
int hc_flows_reduce_bound(const hc_platform_t *p, uint32_t root, double m, double *out);

/* The reduction's bound under the flow model of opts (NULL: the defaults): hc_flows_reduce_bound
 * on hc_flows_bound_platform's copy of p, tightened by the sites LP of
 * hc_flows_bcast_bound_model for the reduction (solved on its time reversal): every other site
 * sends m bytes (its data, maybe combined with others') out through the links common to its
 * routes out, a message's bytes flow only after its class's latency, and a site sends on toward
 * the root only data whose message into it ended before its own message started. (API 20) */
int hc_flows_reduce_bound_model(const hc_platform_t *p, const hc_flow_opts_t *opts, uint32_t root,
                                double m, double *out);

/* The bound of hc_flows_bound under the flow model of opts (NULL: the defaults): on
 * hc_flows_bound_platform's copy of p, with its time-indexed LP seeing every size class
 * SimGrid's defaults offer (with smpi_factors; relative to the most favourable factors, only
 * the classes no other beats in both): a transfer's bytes may go in any class, each flowing
 * only after its class's latency and using capacity at its class's rate. The copy's plain
 * bound gives every byte the smallest latency factor and the largest rate at once; no message
 * has both (grid5000-links, a 64 KiB all-to-all: the bytes between the two sites 12.2 ms apart
 * start at 1.61 latencies only in 1411 to 3468 B messages, at 0.61 of the rate of 8 KiB ones).
 * The classes' LP holds up to 20 release times; when it is over 400000 entries the LP of the
 * most favourable class alone stands (hc_flows_bound on the copy). (API 24) */
int hc_flows_bound_model(const hc_platform_t *p, const hc_flow_opts_t *opts, const double *bytes,
                         double *out);

/* The platform as the flow model of `opts` (NULL: the defaults) sees it at its most favourable:
 * a copy of p whose latencies (links and pairs) are multiplied by the smallest latency factor
 * and whose capacities by the largest bandwidth factor any message size gets
 * (hc_flow_factors; with smpi_factors 1.61075 for 1411 to 3468 B and 1.08739 for 5761 to
 * 9360 B, times opts' own factors); with smpi_factors, a shared link that the way back of
 * every route across it crosses too also / 1.05 (the cross traffic: each flow loads its way
 * back at 0.05), and on the copy hc_flows_bound adds 0.05 of each transfer's bytes to the
 * other links of its way back (API 12). hc_flows_bound, hc_flows_bcast_bound and
 * hc_flows_reduce_bound on it are lower bounds under that model, which those on p are not
 * under SMPI's: 8 KiB messages move 1.087 bytes per unit of capacity. The caller destroys
 * *out. (API 11) */
int hc_flows_bound_platform(const hc_platform_t *p, const hc_flow_opts_t *opts,
                            hc_platform_t **out);

#ifdef __cplusplus
}
#endif
#endif
