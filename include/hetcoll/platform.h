/* Platforms: P nodes with per-pair latency (s) and bandwidth (B/s), optional cluster labels,
 * optional per-node send times and optional pLogP gap tables g(m).
 *
 * A platform is an opaque handle. Getters return values or pointers owned by the platform,
 * valid until it is destroyed or modified. */
#ifndef HETCOLL_PLATFORM_H
#define HETCOLL_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hc_platform hc_platform_t;

/* Current version of the platform JSON format ("format": "hetcoll-platform/1"). */
#define HC_PLATFORM_FORMAT "hetcoll-platform/1"
/* Version 2 adds the link level (links, routes; include/hetcoll/links.h). */
#define HC_PLATFORM_FORMAT_LINKS "hetcoll-platform/2"

/* A P-node platform with every link at latency `lat` (s) and bandwidth `bw` (B/s), nodes named
 * "n0".."n{P-1}", no clusters. Caller frees with hc_platform_destroy. */
int hc_platform_create(uint32_t P, double lat, double bw, hc_platform_t **out);

/* Deep copy. */
int hc_platform_clone(const hc_platform_t *p, hc_platform_t **out);

/* NULL-safe. */
void hc_platform_destroy(hc_platform_t *p);

/* The platform seen by nodes[0..n-1] of p, in that order (node a of the result is node
 * nodes[a] of p; each node at most once). Keeps everything the model uses: latencies,
 * bandwidths, the platform's and the nodes' names, send times, cluster labels (only the
 * clusters of the kept nodes, renumbered in order of first use) and the pLogP gap tables of
 * the kept pairs and cluster pairs. This is how the MPI runtime gets a communicator's
 * platform. Caller frees *out with hc_platform_destroy. */
int hc_platform_subset(const hc_platform_t *p, const uint32_t *nodes, uint32_t n,
                       hc_platform_t **out);

/* Load from a spec:
 *   FILE                 platform JSON (matrix or cluster form)
 *   builtin:NAME         built-in platform (see hc_platform_builtin_names)
 *   random:GEN:k=v:...   seeded random generator (see docs/formats.md)
 *   dir:FILE             directory file written by the monitor (network information issue)
 *   simgrid:[hostfile=H:][np=N:]FILE.xml
 *                        SimGrid platform read by SimGrid's library (HC_ERR_UNSUPPORTED when
 *                        built without it); nodes = the hostfile's ranks or the hosts in
 *                        document order, with their links and routes (docs/formats.md)
 * Errors name the spec/file, line and field; unknown names list the valid ones. */
int hc_platform_load(const char *spec, hc_platform_t **out);

/* Parse platform JSON text; `origin` names it in errors. */
int hc_platform_parse(const char *text, const char *origin, hc_platform_t **out);

/* Serialise to matrix-form platform JSON (always the expanded matrix form, gap tables
 * included). Caller frees *out with free(). */
int hc_platform_to_json(const hc_platform_t *p, char **out);

/* Comma-separated list of built-in names, e.g. "gusto, grid5000". Static string. */
const char *hc_platform_builtin_names(void);

/* One parameter of a random generator ("random:GEN:key=value:..."). */
typedef struct hc_random_param {
    const char *key; /* e.g. "P", "lat_min" (static string) */
    double def;      /* the default */
    double lo, hi;   /* accepted values, inclusive */
    int integer;     /* 1: whole numbers only */
} hc_random_param_t;

/* The random generators, for listings: generator i (0-based) gives its name and a one-line
 * description (static strings), up to `max` of its parameters into params (may be NULL when max
 * is 0) and in *n_params how many it has. `seed` (a non-negative integer, default 1) is every
 * generator's and not among them. Returns HC_OK, or HC_ERR_VALUE when i is past the last
 * generator (list them by counting i up until then). */
int hc_platform_random_info(size_t i, const char **name, const char **desc,
                            hc_random_param_t *params, size_t max, size_t *n_params);

/* ---- getters ---- */
uint32_t hc_platform_size(const hc_platform_t *p);
const char *hc_platform_name(const hc_platform_t *p); /* platform name, "" if none */
const char *hc_platform_node_name(const hc_platform_t *p, uint32_t i);
double hc_platform_latency(const hc_platform_t *p, uint32_t i, uint32_t j);   /* 0 when i == j */
double hc_platform_bandwidth(const hc_platform_t *p, uint32_t i, uint32_t j); /* inf when i==j */
/* Per-node send time t(i) in seconds (reduction model), or a negative value when unset. */
double hc_platform_send_time(const hc_platform_t *p, uint32_t i);

/* Clusters: labels are dense indices 0..C-1, or -1 for an unlabelled node. */
uint32_t hc_platform_cluster_count(const hc_platform_t *p);
int32_t hc_platform_cluster_of(const hc_platform_t *p, uint32_t i);
const char *hc_platform_cluster_name(const hc_platform_t *p, uint32_t c);

/* pLogP gap g_ij(m) in seconds: linear interpolation in the pair's (or cluster pair's) table,
 * linear extrapolation from the last two points beyond it; m / B_ij when there is no table. */
double hc_platform_gap(const hc_platform_t *p, uint32_t i, uint32_t j, uint64_t m);
int hc_platform_has_gaps(const hc_platform_t *p);

/* ---- setters (validate their arguments: finite, > 0) ---- */
int hc_platform_set_link(hc_platform_t *p, uint32_t i, uint32_t j, double lat, double bw);
int hc_platform_set_node_name(hc_platform_t *p, uint32_t i, const char *name);
int hc_platform_set_send_time(hc_platform_t *p, uint32_t i, double t);
int hc_platform_set_name(hc_platform_t *p, const char *name);
/* Label node i with cluster `name` (created on first use); NULL removes the label. */
int hc_platform_set_cluster(hc_platform_t *p, uint32_t i, const char *name);
/* Gap table for the ordered pair (i, j): n samples of sizes (strictly increasing, bytes) and
 * gaps (seconds, finite, >= 0). Copied. */
int hc_platform_set_gap_table(hc_platform_t *p, uint32_t i, uint32_t j, size_t n,
                              const uint64_t *sizes, const double *gaps);

/* ---- SimGrid export (docs/formats.md, "SimGrid export") ---- */
typedef enum {
    HC_SIMGRID_AUTO = 0,
    HC_SIMGRID_CLUSTER,
    HC_SIMGRID_MATRIX,
    HC_SIMGRID_LINKS /* the platform's links and routes as they are (API 4) */
} hc_simgrid_form_t;

typedef struct hc_simgrid_opts {
    uint32_t struct_size; /* sizeof(hc_simgrid_opts_t), set by hc_simgrid_opts_init */
    /* AUTO: the links form when the platform has links and a route for every pair (its
     * shared links exported with their sharing policies), else the cluster form when the
     * platform has that structure exactly, else the matrix form. */
    hc_simgrid_form_t form;
    /* Inter-cluster links (cluster form). 0: one FATPIPE link per ordered cluster pair (every
     * flow gets the pair's bandwidth, as in hetcoll's per-pair model). 1: SHARED links (the
     * flows between two sites share the pair's bandwidth, like a real WAN). */
    int shared_backbone;
    /* > 0: add one SHARED backbone link of this capacity (B/s) per ordered cluster pair behind
     * the per-pair FATPIPE link, so a single flow still gets the pair's bandwidth but the flows
     * between two sites together get at most this. */
    double backbone_bw;
} hc_simgrid_opts_t;

/* Defaults: AUTO form, FATPIPE inter-cluster links, no backbone. */
void hc_simgrid_opts_init(hc_simgrid_opts_t *opts);

/* Write p as a SimGrid platform (XML, version 4.1) to `xml` and, when `hosts` is not NULL, an
 * SMPI hostfile (one host name per line, node order: rank r = node r). opts NULL = defaults.
 * *form_out (may be NULL) receives the form written. HC_ERR_VALUE with a detail when the
 * forced cluster form does not fit. The caller checks its streams' write errors. */
int hc_platform_export_simgrid(const hc_platform_t *p, const hc_simgrid_opts_t *opts, FILE *xml,
                               FILE *hosts, hc_simgrid_form_t *form_out);

#ifdef __cplusplus
}
#endif
#endif
