/* Problems and schedules: collective names, problem checking, the event-cost
 * rule, schedule construction helpers and the lower-bound dispatch. JSON lives
 * in schedule_json.c, the validator in validate.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"

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
    if (pb->coll != HC_COLL_BCAST || e->bytes == pb->msg_bytes || pb->msg_bytes == 0)
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

int hc_schedule_create(hc_coll_t coll, uint32_t P, hc_schedule_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_schedule_create: NULL output");
    *out = NULL;
    if ((unsigned)coll >= HC_COLL_COUNT)
        return hc__error(HC_ERR_VALUE, "hc_schedule_create: unknown collective %d", (int)coll);
    hc_schedule_t *s = hc__calloc(1, sizeof *s);
    if (!s)
        return hc__error(HC_ERR_NOMEM, "out of memory creating a schedule");
    s->coll = coll;
    s->P = P;
    s->makespan = 0;
    s->lower_bound = NAN;
    s->n_segments = 1;
    *out = s;
    return HC_OK;
}

void hc_schedule_destroy(hc_schedule_t *s)
{
    if (!s)
        return;
    free(s->events);
    free(s->steps);
    free(s->parent);
    free(s->parent2);
    free(s->note);
    free(s->extra_json);
    free(s);
}

int hc_schedule_add_event(hc_schedule_t *s, const hc_event_t *e)
{
    if (!s || !e)
        return hc__error(HC_ERR_INVAL, "hc_schedule_add_event: NULL argument");
    HC__TRY(hc__grow((void **)&s->events, &s->cap_events, s->n_events + 1, sizeof *s->events));
    s->events[s->n_events++] = *e;
    return HC_OK;
}

int hc_schedule_close_step(hc_schedule_t *s)
{
    if (!s)
        return hc__error(HC_ERR_INVAL, "hc_schedule_close_step: NULL schedule");
    size_t first = 0;
    double start = 0;
    if (s->n_steps) {
        const hc_step_t *prev = &s->steps[s->n_steps - 1];
        first = prev->first + prev->count;
        start = prev->start + prev->duration;
    }
    if (first >= s->n_events)
        return hc__error(HC_ERR_INVAL, "hc_schedule_close_step: step %zu has no events",
                         s->n_steps);
    HC__TRY(hc__grow((void **)&s->steps, &s->cap_steps, s->n_steps + 1, sizeof *s->steps));
    double longest = 0;
    for (size_t i = first; i < s->n_events; i++) {
        hc_event_t *e = &s->events[i];
        double amount = e->end - e->start;
        if (!(amount >= 0))
            amount = 0;
        e->start = start + s->beta;
        e->end = e->start + amount;
        e->step = (uint32_t)s->n_steps;
        if (amount > longest)
            longest = amount;
    }
    hc_step_t *st = &s->steps[s->n_steps++];
    st->start = start;
    st->duration = s->beta + longest;
    st->first = first;
    st->count = s->n_events - first;
    return HC_OK;
}

int hc_schedule_alloc_trees(hc_schedule_t *s, int two_trees)
{
    if (!s)
        return hc__error(HC_ERR_INVAL, "hc_schedule_alloc_trees: NULL schedule");
    free(s->parent);
    free(s->parent2);
    s->parent = s->parent2 = NULL;
    s->parent = hc__malloc(s->P, sizeof *s->parent);
    if (two_trees)
        s->parent2 = hc__malloc(s->P, sizeof *s->parent2);
    if (!s->parent || (two_trees && !s->parent2)) {
        free(s->parent);
        free(s->parent2);
        s->parent = s->parent2 = NULL;
        return hc__error(HC_ERR_NOMEM, "out of memory allocating trees");
    }
    for (uint32_t i = 0; i < s->P; i++) {
        s->parent[i] = -1;
        if (two_trees)
            s->parent2[i] = -1;
    }
    return HC_OK;
}

void hc_schedule_finish(hc_schedule_t *s)
{
    if (!s)
        return;
    double m = 0;
    if (s->coll == HC_COLL_REDISTRIBUTE && s->n_steps) {
        for (size_t i = 0; i < s->n_steps; i++)
            m += s->steps[i].duration;
    } else if (s->coll == HC_COLL_BCAST && s->parent2) {
        m = hc__ttcc_makespan(s); /* TTCC: first complete copies (src/sim/sim_ttcc.c) */
    } else {
        for (size_t i = 0; i < s->n_events; i++)
            if (s->events[i].end > m)
                m = s->events[i].end;
    }
    s->makespan = m;
}

int hc_schedule_set_note(hc_schedule_t *s, const char *fmt, ...)
{
    if (!s || !fmt)
        return hc__error(HC_ERR_INVAL, "hc_schedule_set_note: NULL argument");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return hc__error(HC_ERR_INVAL, "hc_schedule_set_note: bad format");
    char *buf = hc__malloc((size_t)n + 1, 1);
    if (!buf)
        return hc__error(HC_ERR_NOMEM, "out of memory setting a note");
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    free(s->note);
    s->note = buf;
    return HC_OK;
}

static int dup_array(void **dst, const void *src, size_t n, size_t size)
{
    *dst = NULL;
    if (!src)
        return HC_OK;
    *dst = hc__malloc(n ? n : 1, size);
    if (!*dst)
        return HC_ERR_NOMEM;
    if (n)
        memcpy(*dst, src, n * size);
    return HC_OK;
}

int hc_schedule_clone(const hc_schedule_t *s, hc_schedule_t **out)
{
    if (!s || !out)
        return hc__error(HC_ERR_INVAL, "hc_schedule_clone: NULL argument");
    *out = NULL;
    hc_schedule_t *c = hc__malloc(1, sizeof *c);
    if (!c)
        return hc__error(HC_ERR_NOMEM, "out of memory cloning a schedule");
    *c = *s;
    c->events = NULL;
    c->steps = NULL;
    c->parent = c->parent2 = NULL;
    c->note = c->extra_json = NULL;
    c->cap_events = s->n_events;
    c->cap_steps = s->n_steps;
    int rc = HC_OK;
    rc |= dup_array((void **)&c->events, s->events, s->n_events, sizeof *s->events);
    rc |= dup_array((void **)&c->steps, s->steps, s->n_steps, sizeof *s->steps);
    rc |= dup_array((void **)&c->parent, s->parent, s->P, sizeof *s->parent);
    rc |= dup_array((void **)&c->parent2, s->parent2, s->P, sizeof *s->parent2);
    if (s->note && !(c->note = hc__strdup(s->note)))
        rc = HC_ERR_NOMEM;
    if (s->extra_json && !(c->extra_json = hc__strdup(s->extra_json)))
        rc = HC_ERR_NOMEM;
    if (rc != HC_OK) {
        hc_schedule_destroy(c);
        return hc__error(HC_ERR_NOMEM, "out of memory cloning a schedule");
    }
    if (!c->events)
        c->cap_events = 0;
    if (!c->steps)
        c->cap_steps = 0;
    *out = c;
    return HC_OK;
}

int hc_lower_bound(const hc_problem_t *pb, double *out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_lower_bound: NULL output");
    *out = NAN;
    HC__TRY(hc_problem_check(pb));
    switch (pb->coll) {
    case HC_COLL_ALLTOALL:
        return hc__lower_bound_alltoall(pb, out);
    case HC_COLL_REDISTRIBUTE:
        return hc__lower_bound_redistribute(pb, out);
    case HC_COLL_BCAST:
        return hc__lower_bound_bcast(pb, out);
    case HC_COLL_REDUCE:
        return hc__lower_bound_reduce(pb, out);
    }
    return hc__error(HC_ERR_VALUE, "hc_lower_bound: unknown collective %d", (int)pb->coll);
}
