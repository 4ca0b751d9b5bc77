/* TTCC replay (002 §3, Cha et al., "Two-Tree Collective Communication"): a broadcast schedule
 * with an original tree (events with tree = 0, s->parent) and a redundant tree (tree = 1,
 * s->parent2).
 *
 * Semantics (docs/design.md, "Broadcast"):
 * - every node sends its tree-0 transfers first (by planned start), then its tree-1 transfers;
 *   a send starts when the node holds the message and its send port is free;
 * - a node takes the first complete copy; a send to a node that already holds the message is
 *   skipped (it never runs, its port time is not spent);
 * - when a second sender starts while a first one is still sending to the same node, the node
 *   spends the switch cost alpha_abs = alpha x (mean off-diagonal true cost) monitoring both,
 *   then keeps the one that completes first (ties keep the first); the kept transfer ends
 *   alpha_abs later, the loser's sender is released at switch time + alpha_abs;
 * - cancelled or skipped events get start = end = NAN in the result.
 * With alpha = 0 and exact costs every node holds the message no later than in the replay of
 * tree 0 alone (sends only move earlier), so TTCC is never worse than its original tree.
 * Cost: O(E * P) for E events. Whole-message trees only (n_segments == 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"

typedef struct order_key {
    uint32_t src;
    uint8_t tree;
    double start;
    size_t idx;
} order_key_t;

static int cmp_key(const void *a, const void *b)
{
    const order_key_t *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->tree != y->tree)
        return x->tree < y->tree ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->idx < y->idx ? -1 : (x->idx > y->idx ? 1 : 0);
}

/* dur[i]: duration of event i. st/en: out, E entries; have: out, P entries. */
static int ttcc_replay(const hc_schedule_t *s, const double *dur, double alpha_abs, double *st,
                       double *en, double *have, double *makespan)
{
    uint32_t P = s->P;
    size_t E = s->n_events;
    if (s->n_segments > 1)
        return hc__error(HC_ERR_UNSUPPORTED,
                         "TTCC replay: schedules with a redundant tree must send the whole "
                         "message (n_segments = %u)",
                         s->n_segments);
    if (s->root >= P)
        return hc__error(HC_ERR_INVALID_SCHEDULE, "TTCC replay: root %u out of range", s->root);
    order_key_t *keys = hc__malloc(E ? E : 1, sizeof *keys);
    size_t *first = hc__calloc((size_t)P + 1, sizeof *first);
    size_t *ptr = hc__calloc(P, sizeof *ptr);
    double *port = hc__calloc(P, sizeof *port);
    double *aend = hc__malloc(E ? E : 1, sizeof *aend);
    long *out_act = hc__malloc(P, sizeof *out_act), *in_act = hc__malloc(P, sizeof *in_act);
    int rc = HC_OK;
    if (!keys || !first || !ptr || !port || !aend || !out_act || !in_act) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the TTCC replay");
        goto done;
    }
    for (size_t i = 0; i < E; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src >= P || e->dst >= P) {
            rc = hc__error(HC_ERR_INVALID_SCHEDULE, "TTCC replay: event %zu: node out of range", i);
            goto done;
        }
        keys[i].src = e->src;
        keys[i].tree = e->tree;
        keys[i].start = e->start;
        keys[i].idx = i;
        st[i] = en[i] = NAN;
        first[e->src + 1]++;
    }
    qsort(keys, E, sizeof *keys, cmp_key);
    for (uint32_t v = 0; v < P; v++) {
        first[v + 1] += first[v];
        ptr[v] = first[v];
        have[v] = INFINITY;
        out_act[v] = in_act[v] = -1;
    }
    have[s->root] = 0;
    for (;;) {
        double tA = INFINITY, tB = INFINITY;
        uint32_t va = P, ub = P;
        for (uint32_t v = 0; v < P; v++) {
            if (in_act[v] >= 0 && aend[in_act[v]] < tA) {
                tA = aend[in_act[v]];
                va = v;
            }
            if (isfinite(have[v]) && out_act[v] < 0 && ptr[v] < first[v + 1]) {
                double t = have[v] > port[v] ? have[v] : port[v];
                if (t < tB) {
                    tB = t;
                    ub = v;
                }
            }
        }
        if (va == P && ub == P)
            break;
        if (va != P && tA <= tB) {
            size_t e = (size_t)in_act[va];
            uint32_t w = s->events[e].src;
            en[e] = tA;
            have[va] = tA;
            in_act[va] = -1;
            out_act[w] = -1;
            port[w] = tA;
            continue;
        }
        size_t e = keys[ptr[ub]++].idx;
        uint32_t v = s->events[e].dst;
        double t = tB;
        if (have[v] <= t)
            continue; /* the receiver already holds the message: skipped */
        if (in_act[v] < 0) {
            st[e] = t;
            aend[e] = t + dur[e];
            in_act[v] = (long)e;
            out_act[ub] = (long)e;
            continue;
        }
        /* switch: a second sender while the first is still sending */
        size_t a = (size_t)in_act[v];
        uint32_t w = s->events[a].src;
        double endA = aend[a] + alpha_abs, endE = t + dur[e] + alpha_abs;
        if (endE < endA) {
            st[a] = en[a] = NAN;
            out_act[w] = -1;
            port[w] = t + alpha_abs;
            st[e] = t;
            aend[e] = endE;
            in_act[v] = (long)e;
            out_act[ub] = (long)e;
        } else {
            aend[a] = endA;
            port[ub] = t + alpha_abs;
        }
    }
    double mk = 0;
    for (uint32_t v = 0; v < P; v++) {
        if (!isfinite(have[v])) {
            rc = hc__error(HC_ERR_INVALID_SCHEDULE,
                           "TTCC replay: node %u never receives the message", v);
            goto done;
        }
        if (have[v] > mk)
            mk = have[v];
    }
    *makespan = mk;
done:
    free(keys);
    free(first);
    free(ptr);
    free(port);
    free(aend);
    free(out_act);
    free(in_act);
    return rc;
}

double hc__ttcc_makespan(const hc_schedule_t *s)
{
    size_t E = s->n_events;
    double *dur = hc__malloc(E ? E : 1, sizeof *dur);
    double *st = hc__malloc(E ? E : 1, sizeof *st);
    double *en = hc__malloc(E ? E : 1, sizeof *en);
    double *have = hc__malloc(s->P ? s->P : 1, sizeof *have);
    double mk = NAN;
    if (dur && st && en && have) {
        for (size_t i = 0; i < E; i++)
            dur[i] = s->events[i].end - s->events[i].start;
        if (ttcc_replay(s, dur, 0.0, st, en, have, &mk) != HC_OK)
            mk = NAN;
    }
    free(dur);
    free(st);
    free(en);
    free(have);
    if (isnan(mk)) {
        /* not a replayable two-tree broadcast (e.g. segmented or incomplete): max event end */
        hc_error_clear();
        mk = 0;
        for (size_t i = 0; i < E; i++)
            if (s->events[i].end > mk)
                mk = s->events[i].end;
    }
    return mk;
}

int hc__simulate_ttcc(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t **out)
{
    *out = NULL;
    hc_sim_opts_t def;
    if (!opts) {
        hc_sim_opts_default(&def);
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
    rc = ttcc_replay(s, dur, opts->alpha * mean, st, en, r->finish, &r->makespan);
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
