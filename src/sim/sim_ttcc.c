/* TTCC simulation: the TTCC replay (src/model/ttcc.c, semantics there) on true durations,
 * with the error model and the switch cost of hc_sim_opts_t. */
#include <math.h>
#include <stdlib.h>

#include "sim_internal.h"

int hc__simulate_ttcc(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t **out)
{
    *out = NULL;
    hc_sim_opts_t def;
    if (!opts) {
        hc_sim_opts_init(&def);
        opts = &def;
    }
    if (truth->P != s->P)
        return hc__error(HC_ERR_SHAPE, "TTCC replay: schedule has %u nodes, the problem %u", s->P,
                         truth->P);
    size_t E = s->n_events;
    uint32_t P = s->P;
    hc_sim_result_t *r = hc__calloc(1, sizeof *r);
    double *dur = hc__malloc(E ? E : 1, sizeof *dur);
    double *st = hc__malloc(E ? E : 1, sizeof *st);
    double *en = hc__malloc(E ? E : 1, sizeof *en);
    int rc = HC_OK;
    if (r) {
        r->events = hc__malloc(E ? E : 1, sizeof *r->events);
        r->finish = hc__malloc(P ? P : 1, sizeof *r->finish);
    }
    if (!r || !dur || !st || !en || !r->events || !r->finish) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the TTCC replay");
        goto fail;
    }
    hc_rng_t rng;
    hc_rng_seed(&rng, opts->seed);
    double floor_f = opts->error_floor > 0 ? opts->error_floor : 0.01;
    for (size_t i = 0; i < E; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src >= P || e->dst >= P) {
            rc = hc__error(HC_ERR_INVALID_SCHEDULE, "TTCC replay: event %zu: node out of range", i);
            goto fail;
        }
        double d = hc_problem_event_cost(truth, e);
        if (opts->error_sigma > 0) {
            double f = 1 + opts->error_sigma * hc_rng_normal(&rng);
            d *= f < floor_f ? floor_f : f;
        }
        if (opts->slowdown) {
            double a = opts->slowdown[e->src], b = opts->slowdown[e->dst];
            d *= a > b ? a : b;
        }
        dur[i] = d;
    }
    double mean = 0;
    if (opts->alpha > 0 && P > 1) {
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                if (i != j)
                    mean += HC_AT(truth->costs, i, j);
        mean /= (double)P * (double)(P - 1);
    }
    rc = hc__ttcc_replay(s, dur, opts->alpha * mean, st, en, r->finish, &r->makespan);
    if (rc != HC_OK)
        goto fail;
    for (size_t i = 0; i < E; i++) {
        r->events[i] = s->events[i];
        r->events[i].start = st[i];
        r->events[i].end = en[i];
    }
    r->n_events = E;
    free(dur);
    free(st);
    free(en);
    *out = r;
    return HC_OK;
fail:
    if (r) {
        free(r->events);
        free(r->finish);
        free(r);
    }
    free(dur);
    free(st);
    free(en);
    return rc;
}
