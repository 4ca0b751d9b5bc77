/* The hierarchy composer of 004 §5.2 (bcast_kit.h): clusters from the platform labels,
 * coordinators joined by an edge rule, model-best (the classics' predictions) inside each
 * cluster. The edge rules' algorithm files (fef, ecef, ...) and hier-auto call it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

int hc__bcast_use_hier(const hc_problem_t *pb, const hc_algo_opts_t *opts)
{
    int h = opts ? opts->hierarchy : -1;
    if (h == 0 || !pb->platform)
        return 0;
    if (h > 0)
        return 1;
    return hc_platform_cluster_count(pb->platform) >= 2;
}

void hc__hier_free(hc__hier_t *h)
{
    if (h->cl)
        for (uint32_t k = 0; k < h->nc; k++)
            free(h->cl[k].nodes);
    free(h->cl);
    free(h->c);
    free(h->port);
    free(h->T);
    free(h->from);
    free(h->to);
    memset(h, 0, sizeof *h);
}

/* Clusters from labels (the root's first; unlabelled nodes are singletons) and coordinators. */
int hc__hier_init(hc__hier_t *h, const hc_problem_t *pb)
{
    memset(h, 0, sizeof *h);
    h->pb = pb;
    uint32_t P = pb->P;
    uint32_t L = hc_platform_cluster_count(pb->platform);
    uint32_t *of = hc__malloc(P, sizeof *of);
    uint32_t *map = hc__malloc((size_t)L + 1, sizeof *map);
    h->cl = hc__calloc(P, sizeof *h->cl);
    int rc = HC_OK;
    if (!of || !map || !h->cl) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building clusters");
        goto done;
    }
    for (uint32_t k = 0; k <= L; k++)
        map[k] = UINT32_MAX;
    uint32_t nc = 0;
    for (uint32_t t = 0; t < P; t++) {
        uint32_t v = (pb->root + t) % P;
        int32_t lab = hc_platform_cluster_of(pb->platform, v);
        if (lab >= 0 && (uint32_t)lab < L) {
            if (map[lab] == UINT32_MAX)
                map[lab] = nc++;
            of[v] = map[lab];
        } else {
            of[v] = nc++;
        }
    }
    h->nc = nc;
    hc__cluster_t *cl = h->cl;
    for (uint32_t v = 0; v < P; v++)
        cl[of[v]].n++;
    for (uint32_t k = 0; k < nc && rc == HC_OK; k++) {
        cl[k].nodes = hc__malloc(cl[k].n, sizeof *cl[k].nodes);
        if (!cl[k].nodes)
            rc = hc__error(HC_ERR_NOMEM, "out of memory building clusters");
        cl[k].n = 0;
    }
    for (uint32_t t = 0; t < P && rc == HC_OK; t++) {
        uint32_t v = (pb->root + t) % P;
        cl[of[v]].nodes[cl[of[v]].n++] = v;
    }
    /* coordinator: the root, else the member with the cheapest total incoming cost from the
     * nodes of the other clusters */
    for (uint32_t k = 0; k < nc && rc == HC_OK; k++) {
        uint32_t best = 0;
        double bv = INFINITY;
        for (uint32_t a = 0; a < cl[k].n; a++) {
            uint32_t v = cl[k].nodes[a];
            if (v == pb->root) {
                best = a;
                break;
            }
            double sum = 0;
            for (uint32_t u = 0; u < P; u++)
                if (of[u] != k)
                    sum += HC_AT(pb->costs, u, v);
            if (sum < bv) {
                bv = sum;
                best = a;
            }
        }
        uint32_t tmp = cl[k].nodes[0];
        cl[k].nodes[0] = cl[k].nodes[best];
        cl[k].nodes[best] = tmp;
        hc__plogp_init(&cl[k].q, pb, cl[k].nodes, cl[k].n);
    }
    if (rc == HC_OK) {
        h->c = hc__malloc((size_t)nc * nc, sizeof *h->c);
        h->T = hc__malloc(nc, sizeof *h->T);
        h->from = hc__malloc(nc, sizeof *h->from);
        h->to = hc__malloc(nc, sizeof *h->to);
        if (!h->c || !h->T || !h->from || !h->to)
            rc = hc__error(HC_ERR_NOMEM, "out of memory building clusters");
    }
    for (uint32_t a = 0; a < nc && rc == HC_OK; a++)
        for (uint32_t d = 0; d < nc; d++)
            h->c[(size_t)a * nc + d] =
                a == d ? INFINITY : HC_AT(pb->costs, cl[a].nodes[0], cl[d].nodes[0]);
    if (rc == HC_OK) {
        for (uint32_t k = 0; k < nc; k++)
            of[k] = cl[k].nodes[0]; /* reuse: the coordinators */
        rc = hc__bcast_port_matrix(pb, of, nc, &h->port);
    }
done:
    free(of);
    free(map);
    if (rc != HC_OK)
        hc__hier_free(h);
    return rc;
}

/* model-best inside each cluster (segment size `seg` when > 0, else each cluster's best; the
 * validator and the simulator accept clusters that cut the message differently, a
 * whole-message transfer carrying every segment); T_k = the chosen algorithm's exact time on
 * the real costs. */
static int hier_choose(hc__hier_t *h, uint64_t seg, uint32_t *nseg_out)
{
    const hc_problem_t *pb = h->pb;
    uint32_t nseg = 1;
    for (uint32_t k = 0; k < h->nc; k++) {
        hc__cluster_t *c = &h->cl[k];
        c->nseg = 1;
        c->T = 0;
        c->choice.algo = &hc__classic_bcast_flat;
        c->choice.seg = pb->msg_bytes;
        c->choice.predicted = 0;
        if (c->n < 2) {
            h->T[k] = 0;
            continue;
        }
        hc__bc_choice_t table[HC__BC_COUNT];
        hc__bc_choose(&c->q, seg, &c->choice, table);
        c->nseg = hc__bc_nseg(c->choice.algo, c->n, pb->msg_bytes, c->choice.seg);
        if (c->nseg > nseg)
            nseg = c->nseg;
        hc_problem_t sub = *pb;
        sub.root = c->nodes[0];
        hc__bb_t b;
        HC__TRY(hc__bb_init(&b, &sub, NULL, pb->P, c->nseg));
        int rc = hc__bc_run(&b, c->choice.algo, c->nodes, c->n, c->choice.seg, NULL);
        c->T = b.max_end;
        h->T[k] = c->T;
        hc__bb_free(&b);
        HC__TRY(rc);
    }
    *nseg_out = nseg;
    return HC_OK;
}

/* Inter-cluster rule, then each cluster's broadcast once its coordinator has the message and
 * has done its inter-cluster sends. s NULL = dry run. */
static int hier_run(hc__hier_t *h, const hc__edge_rule_t *rule, uint32_t nseg, hc_schedule_t *s,
                    double *makespan)
{
    const hc_problem_t *pb = h->pb;
    uint32_t nc = h->nc;
    if (nc > 1)
        HC__TRY(hc__edge_select(rule, nc, h->c, h->port, h->T, 0, h->from, h->to));
    hc__bb_t b;
    HC__TRY(hc__bb_init(&b, pb, s, pb->P, nseg));
    int rc = HC_OK;
    for (uint32_t i = 0; rc == HC_OK && i + 1 < nc; i++) {
        uint32_t u = h->cl[h->from[i]].nodes[0], v = h->cl[h->to[i]].nodes[0];
        double end = 0;
        rc = hc__bb_send(&b, u, v, 0, pb->msg_bytes, 0, &end);
        if (rc == HC_OK) {
            hc__bb_give_all(&b, v, end);
            if (s)
                s->parent[v] = (int32_t)u;
        }
    }
    for (uint32_t k = 0; rc == HC_OK && k < nc; k++)
        rc = hc__bc_run(&b, h->cl[k].choice.algo, h->cl[k].nodes, h->cl[k].n, h->cl[k].choice.seg,
                        s ? s->parent : NULL);
    *makespan = b.max_end;
    hc__bb_free(&b);
    return rc;
}

static int hier_note(hc__hier_t *h, const hc__edge_rule_t *rule, uint64_t seg, hc_schedule_t *s)
{
    const hc_problem_t *pb = h->pb;
    uint32_t nc = h->nc;
    hc__cluster_t *cl = h->cl;
    size_t cap = 512 + (size_t)nc * 256, len = 0, jl = 0; /* >= every line below */
    char *note = hc__malloc(cap, 1), *js = hc__malloc(cap, 1);
    if (!note || !js) {
        free(note);
        free(js);
        return hc__error(HC_ERR_NOMEM, "out of memory in the hierarchical broadcast");
    }
    len += (size_t)snprintf(note + len, cap - len,
                            "hierarchical broadcast: %u clusters, inter-cluster %s, intra-cluster "
                            "model-best, segments %s",
                            nc, rule->name, seg ? "forced" : "per cluster");
    jl += (size_t)snprintf(js + jl, cap - jl, "{\"hierarchy\":{\"inter\":\"%s\",\"clusters\":[",
                           rule->name);
    for (uint32_t k = 0; k < nc; k++) {
        int32_t lab = hc_platform_cluster_of(pb->platform, cl[k].nodes[0]);
        const char *raw =
            lab >= 0 ? hc_platform_cluster_name(pb->platform, (uint32_t)lab) : "(unlabelled)";
        char name[48]; /* printable, JSON-safe, bounded */
        size_t nl = 0;
        for (const char *r = raw ? raw : ""; *r && nl + 1 < sizeof name; r++)
            if ((unsigned char)*r >= 0x20 && *r != '"' && *r != '\\')
                name[nl++] = *r;
        name[nl] = '\0';
        len += (size_t)snprintf(
            note + len, cap - len,
            "\n  cluster %-12.12s %3u nodes, coordinator %4u: %s, %u segment(s), "
            "T = %.6g s",
            name, cl[k].n, cl[k].nodes[0], cl[k].choice.algo->name, cl[k].nseg, cl[k].T);
        jl += (size_t)snprintf(js + jl, cap - jl,
                               "%s{\"name\":\"%s\",\"coordinator\":%u,\"nodes\":%u,"
                               "\"algorithm\":\"%s\",\"segments\":%u,\"T_s\":%.9g}",
                               k ? "," : "", name, cl[k].nodes[0], cl[k].n, cl[k].choice.algo->name,
                               cl[k].nseg, cl[k].T);
    }
    snprintf(js + jl, cap - jl, "]}}");
    free(s->note);
    s->note = note;
    free(s->extra_json);
    s->extra_json = js;
    return HC_OK;
}

int hc__bcast_hier_schedule(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                            const hc__edge_rule_t *rule, hc_schedule_t **out)
{
    *out = NULL;
    if (!pb->platform)
        return hc__error(HC_ERR_UNSUPPORTED,
                         "hierarchical broadcast: the problem has no platform (clusters come "
                         "from its labels); use --hierarchy none");
    HC__TRY(hc__bcast_check_segment(pb, opts));
    hc__hier_t h;
    HC__TRY(hc__hier_init(&h, pb));
    int rc = HC_OK;
    uint32_t nseg = 1;
    /* segment size: the forced one for every cluster, else each cluster's own best */
    uint64_t best_seg = opts && opts->segment_bytes ? opts->segment_bytes : 0;
    hc_schedule_t *s = NULL;
    double t = 0;
    rc = hier_choose(&h, best_seg, &nseg);
    if (rc == HC_OK)
        rc = hc_schedule_create(HC_COLL_BCAST, pb->P, &s);
    if (rc == HC_OK)
        rc = hc_schedule_alloc_trees(s, 0);
    if (rc == HC_OK)
        rc = hier_run(&h, rule, nseg, s, &t);
    if (rc == HC_OK) {
        s->root = pb->root;
        s->n_segments = nseg;
        rc = hier_note(&h, rule, best_seg, s);
    }
    hc__hier_free(&h);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    *out = s;
    return HC_OK;
}

int hc__bcast_hetero(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                     const hc__edge_rule_t *rule, hc_schedule_t **out)
{
    if (hc__bcast_use_hier(pb, opts))
        return hc__bcast_hier_schedule(pb, opts, rule, out);
    return hc__edge_schedule(pb, rule, out);
}
