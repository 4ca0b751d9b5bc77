/* Schedules: construction helpers, the planned makespan and the lower-bound dispatch. The
 * problem semantics live in src/model/problem.c, JSON in schedule_json.c, the validator in
 * validate.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

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
    free(s->piece_groups);
    free(s->lead_pieces);
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
        m = hc__ttcc_makespan(s); /* TTCC: first complete copies (src/model/ttcc.c) */
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
    c->parent = c->parent2 = c->piece_groups = NULL;
    c->lead_pieces = NULL;
    c->note = c->extra_json = NULL;
    c->cap_events = s->n_events;
    c->cap_steps = s->n_steps;
    int rc = HC_OK;
    rc |= dup_array((void **)&c->events, s->events, s->n_events, sizeof *s->events);
    rc |= dup_array((void **)&c->steps, s->steps, s->n_steps, sizeof *s->steps);
    rc |= dup_array((void **)&c->parent, s->parent, s->P, sizeof *s->parent);
    rc |= dup_array((void **)&c->parent2, s->parent2, s->P, sizeof *s->parent2);
    rc |= dup_array((void **)&c->piece_groups, s->piece_groups, s->P, sizeof *s->piece_groups);
    rc |= dup_array((void **)&c->lead_pieces, s->lead_pieces,
                    s->lead_pieces ? (size_t)s->lead_groups * s->lead_groups : 0,
                    sizeof *s->lead_pieces);
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
