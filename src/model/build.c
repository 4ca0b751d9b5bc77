/* The problem builder (include/hetcoll/problem.h): the one place where a collective's inputs
 * become an hc_problem_t. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../model/model_internal.h"
#include "hetcoll/links.h"
#include "hetcoll/problem.h"

/* A created problem and what it owns; pb first, so the problem's address is the block's. */
typedef struct built {
    hc_problem_t pb;
    hc_matrix_t *costs, *sizes;
    uint32_t *nodes;
    const hc_platform_t *node_platform; /* the platform nodes[] index (borrowed) */
} built_t;

void hc_problem_spec_init(hc_problem_spec_t *spec, hc_coll_t coll)
{
    memset(spec, 0, sizeof *spec);
    spec->struct_size = (uint32_t)sizeof *spec;
    spec->coll = coll;
    spec->model = HC_MODEL_HOCKNEY;
    spec->beta = -1;
}

void hc_problem_destroy(hc_problem_t *pb)
{
    if (!pb)
        return;
    built_t *b = (built_t *)(void *)pb;
    hc_matrix_destroy(b->costs);
    hc_matrix_destroy(b->sizes);
    free(b->nodes);
    free(b);
}

const uint32_t *hc_problem_nodes(const hc_problem_t *pb)
{
    return pb ? ((const built_t *)(const void *)pb)->nodes : NULL;
}

const hc_platform_t *hc__problem_node_platform(const hc_problem_t *pb)
{
    return pb && ((const built_t *)(const void *)pb)->nodes
               ? ((const built_t *)(const void *)pb)->node_platform
               : NULL;
}

static int need_platform(const hc_problem_spec_t *s, const char *what)
{
    return hc__error(HC_ERR_INVAL, "%s: %s needs costs or a platform", hc_coll_name(s->coll), what);
}

static int square(const hc_matrix_t *m, const char *what, hc_coll_t coll)
{
    if (m->rows != m->cols || m->rows < 2)
        return hc__error(HC_ERR_SHAPE, "%s: the %s matrix is %ux%u, expected P x P with P >= 2",
                         hc_coll_name(coll), what, m->rows, m->cols);
    return HC_OK;
}

static int build_alltoall(const hc_problem_spec_t *s, built_t *b)
{
    if (s->costs) {
        HC__TRY(square(s->costs, "costs", s->coll));
        HC__TRY(hc_matrix_clone(s->costs, &b->costs));
        if (s->sizes)
            HC__TRY(hc_matrix_clone(s->sizes, &b->sizes));
        b->pb.msg_bytes = s->msg_bytes;
        return HC_OK;
    }
    if (!s->platform)
        return need_platform(s, "the total exchange");
    if (s->sizes) {
        HC__TRY(hc_matrix_clone(s->sizes, &b->sizes));
        return hc_cost_sizes(s->platform, s->model, s->sizes, &b->costs);
    }
    if (!s->msg_bytes)
        return hc__error(HC_ERR_INVAL, "alltoall: a platform needs msg_bytes or sizes");
    b->pb.msg_bytes = s->msg_bytes;
    return hc_cost_uniform(s->platform, s->model, s->msg_bytes, &b->costs);
}

static int build_bcast(const hc_problem_spec_t *s, built_t *b)
{
    if (s->costs) {
        HC__TRY(square(s->costs, "costs", s->coll));
        HC__TRY(hc_matrix_clone(s->costs, &b->costs));
        b->pb.msg_bytes = s->msg_bytes ? s->msg_bytes : 1048576; /* labels the events */
        return HC_OK;
    }
    if (!s->platform)
        return need_platform(s, "the broadcast");
    if (!s->msg_bytes)
        return hc__error(HC_ERR_INVAL, "bcast: the message must be more than 0 bytes");
    b->pb.msg_bytes = s->msg_bytes;
    return hc_cost_uniform(s->platform, s->model, s->msg_bytes, &b->costs);
}

static int build_reduce(const hc_problem_spec_t *s, built_t *b)
{
    b->pb.msg_bytes = s->msg_bytes;
    if (s->send_times) {
        uint32_t n = s->n_send_times;
        HC__TRY(hc_matrix_create(n, n, 0, &b->costs));
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                HC_AT(b->costs, i, j) = i == j ? 0 : s->send_times[i];
        return HC_OK;
    }
    if (s->costs) {
        HC__TRY(square(s->costs, "costs", s->coll));
        return hc_matrix_clone(s->costs, &b->costs);
    }
    if (!s->platform)
        return need_platform(s, "the reduction");
    if (!s->msg_bytes)
        return hc__error(HC_ERR_INVAL, "reduce: a platform needs msg_bytes > 0");
    const hc_platform_t *pl = s->platform;
    uint32_t P = hc_platform_size(pl);
    HC__TRY(hc_matrix_create(P, P, 0, &b->costs));
    for (uint32_t i = 0; i < P; i++) {
        double t = hc_platform_send_time(pl, i);
        int per_pair = t < 0 && s->pair_costs;
        if (t < 0) /* the time to the root (the root's own row: to the next node, never used) */
            t = hc_cost_p2p(pl, s->model, i, i == s->root ? (i + 1) % P : s->root, s->msg_bytes);
        for (uint32_t j = 0; j < P; j++)
            HC_AT(b->costs, i, j) = i == j     ? 0.0
                                    : per_pair ? hc_cost_p2p(pl, s->model, i, j, s->msg_bytes)
                                               : t;
    }
    return HC_OK;
}

/* Redistribution on a platform: senders form cluster 1, receivers cluster 2 (a node may be in
 * both); transfer times are the bandwidth terms. */
static int build_redist_platform(const hc_problem_spec_t *s, built_t *b, double *beta)
{
    const hc_platform_t *pl = s->platform;
    uint32_t P = hc_platform_size(pl), n1 = 0, n2 = 0;
    const hc_matrix_t *S = s->sizes;
    if (S->rows != P || S->cols != P)
        return hc__error(HC_ERR_SHAPE,
                         "redistribute: the traffic is %ux%u but the platform has %u nodes",
                         S->rows, S->cols, P);
    b->nodes = hc__malloc(2 * (size_t)P, sizeof *b->nodes);
    if (!b->nodes)
        return hc__error(HC_ERR_NOMEM, "out of memory building a redistribution");
    for (uint32_t i = 0; i < P; i++) {
        int any = 0;
        for (uint32_t j = 0; j < P; j++)
            any |= i != j && HC_AT(S, i, j) > 0;
        if (any)
            b->nodes[n1++] = i;
    }
    for (uint32_t j = 0; j < P; j++) {
        int any = 0;
        for (uint32_t i = 0; i < P; i++)
            any |= i != j && HC_AT(S, i, j) > 0;
        if (any)
            b->nodes[n1 + n2++] = j;
    }
    HC__TRY(hc_matrix_create(n1, n2, 0.0, &b->costs));
    HC__TRY(hc_matrix_create(n1, n2, 0.0, &b->sizes));
    *beta = 0.0;
    for (uint32_t x = 0; x < n1; x++)
        for (uint32_t y = 0; y < n2; y++) {
            uint32_t i = b->nodes[x], j = b->nodes[n1 + y];
            double bytes = i == j ? 0 : HC_AT(S, i, j);
            if (bytes <= 0)
                continue;
            HC_AT(b->sizes, x, y) = bytes;
            HC_AT(b->costs, x, y) = bytes / hc_platform_bandwidth(pl, i, j);
            double L = hc_platform_latency(pl, i, j);
            if (L > *beta)
                *beta = L;
        }
    return HC_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* On a platform with links, the transfers a step may hold (Cohen et al.'s k): the capacity of
 * the narrowest link that every route with traffic crosses (the backbone between the clusters)
 * over the rate of one transfer (the median pair bandwidth), at least 1; 0 when the routes
 * share no link (no limit but min(n1, n2)). */
static uint32_t backbone_k(const hc_platform_t *pl, const built_t *b)
{
    if (!pl || !hc_platform_has_routes(pl))
        return 0;
    const uint32_t n1 = b->costs->rows, n2 = b->costs->cols, L = hc_platform_link_count(pl);
    size_t *cross = hc__calloc((size_t)L + 1, sizeof *cross), pairs = 0, cap = 16;
    double *rate = hc__malloc((size_t)n1 * n2 + 1, sizeof *rate);
    hc_hop_t *hops = hc__malloc(cap, sizeof *hops);
    uint32_t k = 0;
    for (uint32_t x = 0; cross && rate && hops && x < n1; x++)
        for (uint32_t y = 0; y < n2; y++) {
            if (!(HC_AT(b->sizes, x, y) > 0))
                continue;
            uint32_t i = b->nodes[x], j = b->nodes[n1 + y];
            size_t n = hc_platform_route(pl, i, j, NULL, 0);
            if (n > cap) {
                hc_hop_t *nh = realloc(hops, n * sizeof *nh);
                if (!nh)
                    goto done;
                hops = nh;
                cap = n;
            }
            n = hc_platform_route(pl, i, j, hops, cap);
            for (size_t h = 0; h < n; h++)
                cross[hops[h].link]++;
            rate[pairs++] = hc_platform_bandwidth(pl, i, j);
        }
    if (!cross || !rate || !hops || pairs == 0)
        goto done;
    double narrow = INFINITY;
    for (uint32_t l = 0; l < L; l++)
        if (cross[l] == pairs && hc_platform_link_sharing(pl, l) != HC_LINK_FATPIPE &&
            hc_platform_link_bandwidth(pl, l) < narrow)
            narrow = hc_platform_link_bandwidth(pl, l);
    if (isfinite(narrow)) {
        qsort(rate, pairs, sizeof *rate, cmp_double);
        double q = floor(narrow / rate[pairs / 2] + 1e-9);
        k = q < 1 ? 1 : q > 1e9 ? UINT32_MAX : (uint32_t)q;
    }
done:
    free(cross);
    free(rate);
    free(hops);
    return k;
}

static int build_redistribute(const hc_problem_spec_t *s, built_t *b)
{
    double beta = 0.0;
    if (s->costs) {
        HC__TRY(hc_matrix_clone(s->costs, &b->costs));
        if (s->sizes)
            HC__TRY(hc_matrix_clone(s->sizes, &b->sizes));
    } else if (s->sizes && s->platform && !(s->rate_Bps > 0)) {
        HC__TRY(build_redist_platform(s, b, &beta));
    } else if (s->sizes) {
        if (!(s->rate_Bps > 0) || !isfinite(s->rate_Bps))
            return hc__error(HC_ERR_INVAL, "redistribute: traffic in bytes needs rate_Bps > 0 "
                                           "(or a platform)");
        HC__TRY(hc_matrix_clone(s->sizes, &b->sizes));
        HC__TRY(hc_matrix_create(s->sizes->rows, s->sizes->cols, 0, &b->costs));
        for (size_t i = 0; i < (size_t)s->sizes->rows * s->sizes->cols; i++)
            b->costs->v[i] = s->sizes->v[i] / s->rate_Bps;
    } else {
        return hc__error(HC_ERR_INVAL, "redistribute: needs costs (seconds) or sizes (bytes)");
    }
    uint32_t n1 = b->costs->rows, n2 = b->costs->cols, kmax = n1 < n2 ? n1 : n2;
    b->pb.n1 = n1;
    b->pb.n2 = n2;
    /* a step holds at most min(n1, n2); k = 0: what the backbone carries, if there is one */
    uint32_t kb = s->k == 0 && b->nodes ? backbone_k(s->platform, b) : 0;
    b->pb.k = kb > 0 && kb < kmax ? kb : s->k == 0 || s->k > kmax ? kmax : s->k;
    b->pb.beta = s->beta >= 0 ? s->beta : beta;
    return HC_OK;
}

int hc_problem_create(const hc_problem_spec_t *spec, hc_problem_t **out)
{
    if (out)
        *out = NULL;
    if (!spec || !out)
        return hc__error(HC_ERR_INVAL, "hc_problem_create: NULL argument");
    /* read what the caller's version of the struct holds, the rest at its defaults */
    hc_problem_spec_t s;
    hc_problem_spec_init(&s, spec->coll);
    size_t n = spec->struct_size < sizeof s ? spec->struct_size : sizeof s;
    if (n < offsetof(hc_problem_spec_t, coll) + sizeof s.coll)
        return hc__error(HC_ERR_INVAL,
                         "hc_problem_create: struct_size %u is too small (start "
                         "from hc_problem_spec_init)",
                         spec->struct_size);
    memcpy(&s, spec, n);
    built_t *b = hc__calloc(1, sizeof *b);
    if (!b)
        return hc__error(HC_ERR_NOMEM, "out of memory building a problem");
    hc_problem_init(&b->pb, s.coll);
    b->pb.model = s.model;
    b->pb.platform = s.platform;
    b->pb.root = s.root;
    int rc;
    switch (s.coll) {
    case HC_COLL_ALLTOALL:
        rc = build_alltoall(&s, b);
        break;
    case HC_COLL_BCAST:
        rc = build_bcast(&s, b);
        break;
    case HC_COLL_REDUCE:
        rc = build_reduce(&s, b);
        break;
    case HC_COLL_REDISTRIBUTE:
        rc = build_redistribute(&s, b);
        break;
    default:
        rc = hc__error(HC_ERR_INVAL, "hc_problem_create: unknown collective %d", (int)s.coll);
    }
    if (rc == HC_OK) {
        b->pb.costs = b->costs;
        b->pb.sizes = b->sizes;
        if (s.coll == HC_COLL_REDISTRIBUTE) {
            b->pb.P = b->pb.n1 + b->pb.n2;
            /* on a platform the problem's nodes are not the platform's: nodes[] maps them */
            if (b->nodes) {
                b->node_platform = b->pb.platform;
                b->pb.platform = NULL;
            }
        } else {
            b->pb.P = b->costs->rows;
        }
        if (s.platform && s.coll != HC_COLL_REDISTRIBUTE && hc_platform_size(s.platform) != b->pb.P)
            rc = hc__error(HC_ERR_SHAPE, "%s: the platform has %u nodes but the costs are %ux%u",
                           hc_coll_name(s.coll), hc_platform_size(s.platform), b->pb.P, b->pb.P);
    }
    if (rc == HC_OK)
        rc = hc_problem_check(&b->pb);
    if (rc != HC_OK) {
        hc_problem_destroy(&b->pb);
        return rc;
    }
    *out = &b->pb;
    return HC_OK;
}
