/* Problem semantics shared by the schedulers, the validator and the simulator: collective
 * names, problem checking and the event-cost rule (include/hetcoll/algo.h, schedule.h). */
#include <math.h>
#include <string.h>

#include "model_internal.h"

static const char *const coll_names[HC_COLL_COUNT] = {"alltoall", "redistribute", "bcast",
                                                      "reduce"};

const char *hc_coll_name(hc_coll_t c)
{
    if ((unsigned)c >= HC_COLL_COUNT)
        return "unknown";
    return coll_names[c];
}

int hc_coll_parse(const char *name, hc_coll_t *out)
{
    if (!name || !out)
        return hc__error(HC_ERR_INVAL, "hc_coll_parse: NULL argument");
    for (int c = 0; c < HC_COLL_COUNT; c++) {
        if (strcmp(name, coll_names[c]) == 0) {
            *out = (hc_coll_t)c;
            return HC_OK;
        }
    }
    return hc__error(HC_ERR_UNKNOWN,
                     "unknown collective '%s' (valid: alltoall, redistribute, bcast, reduce)",
                     name);
}

void hc_problem_init(hc_problem_t *pb, hc_coll_t coll)
{
    memset(pb, 0, sizeof *pb);
    pb->coll = coll;
    pb->model = HC_MODEL_HOCKNEY;
}

/* Every cell finite and >= 0 (the diagonal of square P x P problems is
 * ignored). */
static int check_cells(const hc_problem_t *pb, const hc_matrix_t *m, const char *what,
                       int skip_diag)
{
    if (!m->v && (size_t)m->rows * m->cols > 0)
        return hc__error(HC_ERR_INVAL, "%s: field '%s': matrix has no data", hc_coll_name(pb->coll),
                         what);
    for (uint32_t i = 0; i < m->rows; i++) {
        for (uint32_t j = 0; j < m->cols; j++) {
            if (skip_diag && i == j)
                continue;
            double v = HC_AT(m, i, j);
            if (!isfinite(v) || v < 0)
                return hc__error(HC_ERR_VALUE,
                                 "%s: field '%s[%u][%u]': must be finite and >= 0 (got %g)",
                                 hc_coll_name(pb->coll), what, i, j, v);
        }
    }
    return HC_OK;
}

int hc_problem_check(const hc_problem_t *pb)
{
    if (!pb)
        return hc__error(HC_ERR_INVAL, "problem: NULL");
    if ((unsigned)pb->coll >= HC_COLL_COUNT)
        return hc__error(HC_ERR_VALUE, "problem: field 'coll': unknown collective %d",
                         (int)pb->coll);
    const char *cn = hc_coll_name(pb->coll);
    if (pb->P < 2)
        return hc__error(HC_ERR_VALUE, "%s: needs at least 2 nodes (got %u)", cn, pb->P);
    if (!pb->costs)
        return hc__error(HC_ERR_INVAL, "%s: field 'costs': missing cost matrix", cn);
    uint32_t rows = pb->P, cols = pb->P;
    if (pb->coll == HC_COLL_REDISTRIBUTE) {
        if (pb->n1 < 1 || pb->n2 < 1)
            return hc__error(HC_ERR_VALUE,
                             "%s: fields 'n1', 'n2': both clusters need at least 1 node (got "
                             "%u and %u)",
                             cn, pb->n1, pb->n2);
        if ((uint64_t)pb->n1 + pb->n2 != pb->P)
            return hc__error(HC_ERR_VALUE, "%s: field 'P': must be n1 + n2 = %u (got %u)", cn,
                             pb->n1 + pb->n2, pb->P);
        if (pb->k < 1)
            return hc__error(HC_ERR_VALUE, "%s: field 'k': must be >= 1 (got %u)", cn, pb->k);
        if (!isfinite(pb->beta) || pb->beta < 0)
            return hc__error(HC_ERR_VALUE, "%s: field 'beta': must be finite and >= 0 (got %g)", cn,
                             pb->beta);
        rows = pb->n1;
        cols = pb->n2;
    }
    if (pb->costs->rows != rows || pb->costs->cols != cols)
        return hc__error(HC_ERR_SHAPE, "%s: field 'costs': must be %u x %u (got %u x %u)", cn, rows,
                         cols, pb->costs->rows, pb->costs->cols);
    if ((pb->coll == HC_COLL_BCAST || pb->coll == HC_COLL_REDUCE) && pb->root >= pb->P)
        return hc__error(HC_ERR_VALUE, "%s: field 'root': must be < %u (got %u)", cn, pb->P,
                         pb->root);
    int square = pb->coll != HC_COLL_REDISTRIBUTE;
    HC__TRY(check_cells(pb, pb->costs, "costs", square));
    if (pb->sizes) {
        if (pb->sizes->rows != rows || pb->sizes->cols != cols)
            return hc__error(HC_ERR_SHAPE, "%s: field 'sizes': must be %u x %u (got %u x %u)", cn,
                             rows, cols, pb->sizes->rows, pb->sizes->cols);
        HC__TRY(check_cells(pb, pb->sizes, "sizes", square));
    }
    if (pb->platform && hc_platform_size(pb->platform) != pb->P)
        return hc__error(HC_ERR_SHAPE, "%s: field 'platform': has %u nodes, the problem %u", cn,
                         hc_platform_size(pb->platform), pb->P);
    if (pb->model != HC_MODEL_HOCKNEY && pb->model != HC_MODEL_PLOGP)
        return hc__error(HC_ERR_VALUE, "%s: field 'model': unknown model %d", cn, (int)pb->model);
    return HC_OK;
}

double hc_problem_event_cost(const hc_problem_t *pb, const hc_event_t *e)
{
    if (pb->coll == HC_COLL_REDISTRIBUTE)
        return e->end - e->start;
    double c = HC_AT(pb->costs, e->src, e->dst);
    /* a broadcast's segments and a multi-tree reduction's ranges carry part of the message */
    if ((pb->coll != HC_COLL_BCAST && pb->coll != HC_COLL_REDUCE) || e->bytes == pb->msg_bytes ||
        pb->msg_bytes == 0 ||
        (pb->coll == HC_COLL_REDUCE && (e->bytes == 0 || e->bytes > pb->msg_bytes)))
        return c;
    if (pb->platform) {
        double whole = hc_cost_p2p(pb->platform, pb->model, e->src, e->dst, pb->msg_bytes);
        if (whole > 0)
            return c * (hc_cost_p2p(pb->platform, pb->model, e->src, e->dst, e->bytes) / whole);
    }
    return c * ((double)e->bytes / (double)pb->msg_bytes);
}

int hc_problem_overlaps_latency(const hc_problem_t *pb)
{
    return pb && pb->coll == HC_COLL_BCAST && pb->model == HC_MODEL_PLOGP && pb->platform;
}

double hc_problem_event_port_time(const hc_problem_t *pb, const hc_event_t *e)
{
    double d = hc_problem_event_cost(pb, e);
    if (!hc_problem_overlaps_latency(pb) || !(d > 0) || e->src == e->dst ||
        e->src >= hc_platform_size(pb->platform) || e->dst >= hc_platform_size(pb->platform))
        return d;
    double L = hc_platform_latency(pb->platform, e->src, e->dst);
    double g = hc_platform_gap(pb->platform, e->src, e->dst, e->bytes);
    double lg = L + g;
    if (!isfinite(lg) || !(lg > 0) || !(g >= 0))
        return d;
    double port = d * (g / lg);
    return port < d ? port : d;
}
