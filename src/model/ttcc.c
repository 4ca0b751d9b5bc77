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
 * Cost: O(E * P) for E events. Whole-message trees only (n_segments == 1).
 * The replay itself is part of the model (the planned makespan of hc_schedule_finish and the
 * validator use it on planned durations); src/sim/sim_ttcc.c runs it on true durations. */
#include <math.h>
#include <stdlib.h>

#include "model_internal.h"

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

int hc__ttcc_replay(const hc_schedule_t *s, const double *dur, double alpha_abs, double *st,
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
        if (hc__ttcc_replay(s, dur, 0.0, st, en, have, &mk) != HC_OK)
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
