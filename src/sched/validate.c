/* The schedule validator (include/hetcoll/schedule.h, docs/design.md "Schedules, validator and
 * simulator"). Every check is O(E log E) (sorting per node) plus O(P^2) for the message tables.
 * The first violated rule is reported as "validate: <rule>: ..." naming the event index. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

#define BAD(...) hc__error(HC_ERR_INVALID_SCHEDULE, "validate: " __VA_ARGS__)

/* 1-port: mode 0 = no node in two sends at once, 1 = no node in two receives at once,
 * 2 = no node in two communications at once (half-duplex). ev: the port intervals
 * [start, end] (the events themselves, or pLogP broadcast port intervals), order: by start. */
static int check_port(const hc_event_t *ev, size_t E, uint32_t P, const size_t *order, int mode)
{
    size_t *last = hc__malloc(P, sizeof *last);
    if (!last)
        return hc__error(HC_ERR_NOMEM, "out of memory validating");
    for (uint32_t i = 0; i < P; i++)
        last[i] = SIZE_MAX;
    int rc = HC_OK;
    static const char *const what[] = {"sends", "receives", "communications"};
    static const char *const rule[] = {"1-port send", "1-port receive", "1-port (half-duplex)"};
    for (size_t q = 0; q < E && rc == HC_OK; q++) {
        size_t i = order[q];
        const hc_event_t *e = &ev[i];
        uint32_t nodes[2];
        int nn = 0;
        if (mode == 0 || mode == 2)
            nodes[nn++] = e->src;
        if (mode == 1 || mode == 2)
            nodes[nn++] = e->dst;
        for (int t = 0; t < nn && rc == HC_OK; t++) {
            uint32_t v = nodes[t];
            size_t p = last[v];
            if (p != SIZE_MAX && e->start < ev[p].end - hc__tol(ev[p].end))
                rc = BAD("%s: node %u has overlapping %s: event %zu (%u -> %u, [%.9g, %.9g]) and "
                         "event %zu (%u -> %u, [%.9g, %.9g])",
                         rule[mode], v, what[mode], p, ev[p].src, ev[p].dst, ev[p].start, ev[p].end,
                         i, e->src, e->dst, e->start, e->end);
            /* keep the event that ends last as the one to compare against */
            if (p == SIZE_MAX || e->end > ev[p].end)
                last[v] = i;
        }
    }
    free(last);
    return rc;
}

/* pLogP broadcast (hc_problem_overlaps_latency, one tree): the sender's port is busy during
 * [start, start + port], the receiver's during [end - port, end], port =
 * hc_problem_event_port_time. order: the events by start (= the send intervals' order). */
static int check_plogp_ports(const hc_schedule_t *s, const hc_problem_t *pb, const size_t *order)
{
    size_t E = s->n_events;
    hc_event_t *iv = hc__malloc(E + 1, sizeof *iv);
    size_t *rorder = NULL;
    if (!iv)
        return hc__error(HC_ERR_NOMEM, "out of memory validating");
    double *port = hc__malloc(E + 1, sizeof *port);
    if (!port) {
        free(iv);
        return hc__error(HC_ERR_NOMEM, "out of memory validating");
    }
    for (size_t i = 0; i < E; i++) {
        port[i] = hc_problem_event_port_time(pb, &s->events[i]);
        iv[i] = s->events[i];
        iv[i].end = s->events[i].start + port[i];
    }
    int rc = check_port(iv, E, s->P, order, 0);
    for (size_t i = 0; i < E && rc == HC_OK; i++) {
        iv[i].start = s->events[i].end - port[i];
        iv[i].end = s->events[i].end;
    }
    if (rc == HC_OK)
        rc = hc__event_order(iv, E, &rorder);
    if (rc == HC_OK)
        rc = check_port(iv, E, s->P, rorder, 1);
    free(rorder);
    free(port);
    free(iv);
    return rc;
}

static int check_structure(const hc_schedule_t *s)
{
    if ((unsigned)s->coll >= HC_COLL_COUNT)
        return BAD("structure: unknown collective %d", (int)s->coll);
    if (s->P < 1)
        return BAD("structure: schedule has no nodes");
    if (s->n_events && !s->events)
        return BAD("structure: %zu events but no event array", s->n_events);
    if (s->coll == HC_COLL_REDISTRIBUTE) {
        if ((uint64_t)s->n1 + s->n2 != s->P || s->n1 < 1 || s->n2 < 1)
            return BAD("structure: n1 + n2 = %u + %u must equal P = %u (both >= 1)", s->n1, s->n2,
                       s->P);
        if (s->k < 1)
            return BAD("structure: k must be >= 1 (got %u)", s->k);
        if (!isfinite(s->beta) || s->beta < 0)
            return BAD("structure: beta must be finite and >= 0 (got %g)", s->beta);
    }
    if ((s->coll == HC_COLL_BCAST || s->coll == HC_COLL_REDUCE) && s->root >= s->P)
        return BAD("structure: root %u out of range (P = %u)", s->root, s->P);
    if (s->coll == HC_COLL_BCAST && s->n_segments < 1)
        return BAD("structure: n_segments must be >= 1");
    if (s->coll == HC_COLL_BCAST && s->n_segments > 1 && s->n_segments > s->n_events)
        return BAD("segments: %u segments but only %zu events", s->n_segments, s->n_events);
    if (s->parent2 && !s->parent)
        return BAD("structure: a redundant tree (parent2) needs the original tree (parent)");
    if (s->relay > HC_RELAY_FORWARDERS)
        return BAD("structure: unknown relay %u", s->relay);
    if (s->relay && (s->coll != HC_COLL_ALLTOALL || !s->piece_groups))
        return BAD("structure: forwarders (relay) need a total exchange with piece_groups");
    if (s->lead_pieces) {
        if (s->coll != HC_COLL_ALLTOALL || !s->piece_groups || s->relay || !s->segment_bytes ||
            !s->lead_bytes)
            return BAD("structure: lead pieces need a total exchange in pieces (segment_bytes) "
                       "with piece_groups, lead_bytes > 0 and no relay");
        if (s->lead_groups < 1 || s->lead_groups > s->P)
            return BAD("structure: lead_groups %u must be in [1, P = %u]", s->lead_groups, s->P);
        for (uint32_t v = 0; v < s->P; v++)
            if (s->piece_groups[v] < 0 || (uint32_t)s->piece_groups[v] >= s->lead_groups)
                return BAD("structure: piece_groups[%u] = %d is not below lead_groups = %u", v,
                           s->piece_groups[v], s->lead_groups);
        for (size_t q = 0; q < (size_t)s->lead_groups * s->lead_groups; q++)
            if (s->lead_pieces[q] > HC_SCHEDULE_MAX_PIECES)
                return BAD("structure: lead_pieces[%zu][%zu] = %u is over %u", q / s->lead_groups,
                           q % s->lead_groups, s->lead_pieces[q], HC_SCHEDULE_MAX_PIECES);
    }
    if (!isfinite(s->makespan) || s->makespan < 0)
        return BAD("makespan: must be finite and >= 0 (got %g)", s->makespan);
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src >= s->P || e->dst >= s->P)
            return BAD("endpoints: event %zu: %u -> %u out of range (P = %u)", i, e->src, e->dst,
                       s->P);
        if (e->src == e->dst)
            return BAD("endpoints: event %zu: node %u sends to itself", i, e->src);
        if (!isfinite(e->start) || !isfinite(e->end))
            return BAD("times: event %zu: start and end must be finite", i);
        if (e->start < -HC__TOL_ABS)
            return BAD("times: event %zu: starts before 0 (%g)", i, e->start);
        if (e->end < e->start)
            return BAD("times: event %zu: ends (%g) before it starts (%g)", i, e->end, e->start);
        if (s->coll == HC_COLL_REDISTRIBUTE && (e->src >= s->n1 || e->dst < s->n1))
            return BAD("endpoints: event %zu: %u -> %u must go from cluster 1 (0..%u) to cluster "
                       "2 (%u..%u)",
                       i, e->src, e->dst, s->n1 - 1, s->n1, s->P - 1);
        if (s->coll == HC_COLL_BCAST && e->seg >= s->n_segments)
            return BAD("segments: event %zu: segment %u out of range (%u segments)", i, e->seg,
                       s->n_segments);
        if (s->coll != HC_COLL_REDUCE && e->tree > (s->parent2 ? 1 : 0)) /* reduce: per tree */
            return BAD("trees: event %zu: tree %u but the schedule has %d tree(s)", i, e->tree,
                       s->parent2 ? 2 : 1);
    }
    return HC_OK;
}

static int check_problem_match(const hc_schedule_t *s, const hc_problem_t *pb)
{
    if (pb->coll != s->coll)
        return BAD("problem: schedule is %s but the problem is %s", hc_coll_name(s->coll),
                   hc_coll_name(pb->coll));
    if (pb->P != s->P)
        return BAD("problem: schedule has %u nodes but the problem has %u", s->P, pb->P);
    if ((s->coll == HC_COLL_BCAST || s->coll == HC_COLL_REDUCE) && pb->root != s->root)
        return BAD("problem: schedule root %u differs from the problem's root %u", s->root,
                   pb->root);
    if (s->coll == HC_COLL_REDISTRIBUTE) {
        if (pb->n1 != s->n1 || pb->n2 != s->n2)
            return BAD("problem: schedule clusters %u x %u differ from the problem's %u x %u",
                       s->n1, s->n2, pb->n1, pb->n2);
        if (pb->k != s->k)
            return BAD("problem: schedule k = %u differs from the problem's k = %u", s->k, pb->k);
        if (!hc__close(pb->beta, s->beta))
            return BAD("problem: schedule beta = %g differs from the problem's beta = %g", s->beta,
                       pb->beta);
    }
    return HC_OK;
}

static int check_durations(const hc_schedule_t *s, const hc_problem_t *pb)
{
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        double c = hc_problem_event_cost(pb, e);
        if (!hc__close(e->end - e->start, c))
            return BAD("duration: event %zu (%u -> %u): lasts %.17g s but costs %.17g s", i, e->src,
                       e->dst, e->end - e->start, c);
    }
    return HC_OK;
}

static int check_makespan(const hc_schedule_t *s)
{
    double m = 0;
    if (s->coll == HC_COLL_REDISTRIBUTE) {
        for (size_t k = 0; k < s->n_steps; k++)
            m += s->steps[k].duration;
        if (!hc__close(s->makespan, m))
            return BAD("cost: makespan %.17g differs from the sum of the step durations %.17g",
                       s->makespan, m);
    } else if (s->coll == HC_COLL_BCAST && s->parent2) {
        /* two trees: the makespan is the TTCC replay's (first complete copies) */
        m = hc__ttcc_makespan(s);
        if (isnan(m))
            return BAD("makespan: the TTCC replay of the two-tree schedule fails");
        if (!hc__close(s->makespan, m))
            return BAD("makespan: %.17g differs from the TTCC replay's %.17g", s->makespan, m);
    } else {
        for (size_t i = 0; i < s->n_events; i++)
            if (s->events[i].end > m)
                m = s->events[i].end;
        if (!hc__close(s->makespan, m))
            return BAD("makespan: %.17g differs from the last event end %.17g", s->makespan, m);
    }
    return HC_OK;
}

/* ---- total exchange ---- */

/* Events sorted by (src, dst, index): duplicates are neighbours. Memory per event, not per
 * node pair, so a schedule claiming many nodes costs what its events cost. */
typedef struct {
    uint64_t key; /* src * P + dst */
    size_t i;
} pair_ev_t;

static int cmp_pair_ev(const void *a, const void *b)
{
    const pair_ev_t *x = a, *y = b;
    return x->key != y->key ? (x->key > y->key) - (x->key < y->key) : (x->i > y->i) - (x->i < y->i);
}

static int has_pair(const pair_ev_t *v, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].key == key;
}

static int validate_alltoall(const hc_schedule_t *s, const hc_problem_t *pb)
{
    const uint32_t P = s->P;
    const size_t E = s->n_events;
    pair_ev_t *v = hc__malloc(E + 1, sizeof *v);
    if (!v)
        return hc__error(HC_ERR_NOMEM, "out of memory validating %zu events", E);
    for (size_t i = 0; i < E; i++)
        v[i] = (pair_ev_t){(uint64_t)s->events[i].src * P + s->events[i].dst, i};
    qsort(v, E, sizeof *v, cmp_pair_ev);
    /* Report the first problem in event order, as a scan of the events would. */
    size_t dup = SIZE_MAX, first = 0;
    for (size_t x = 1; x < E; x++)
        if (v[x].key == v[x - 1].key && (dup == SIZE_MAX || v[x].i < dup)) {
            dup = v[x].i;
            first = v[x - 1].i;
            while (x + 1 < E && v[x + 1].key == v[x].key)
                x++;
        }
    int rc = HC_OK;
    for (size_t i = 0; i < E && rc == HC_OK; i++) {
        const hc_event_t *e = &s->events[i];
        if (i == dup)
            rc = BAD("duplicate: message %u -> %u is sent twice (events %zu and %zu)", e->src,
                     e->dst, first, i);
        else if (pb && HC_AT(pb->costs, e->src, e->dst) == 0)
            rc = BAD("zero cost: message %u -> %u has cost 0 and must not be sent (event %zu)",
                     e->src, e->dst, i);
    }
    if (rc == HC_OK && pb) {
        for (uint32_t i = 0; i < P && rc == HC_OK; i++)
            for (uint32_t j = 0; j < P && rc == HC_OK; j++)
                if (i != j && HC_AT(pb->costs, i, j) > 0 && !has_pair(v, E, (uint64_t)i * P + j))
                    rc = BAD("missing: message %u -> %u (cost %g s) is never sent", i, j,
                             HC_AT(pb->costs, i, j));
    }
    free(v);
    return rc;
}

/* ---- redistribution ---- */

static int validate_redistribute(const hc_schedule_t *s, const hc_problem_t *pb)
{
    size_t E = s->n_events;
    uint32_t k = pb ? pb->k : s->k;
    double beta = pb ? pb->beta : s->beta;
    if (E && !s->n_steps)
        return BAD("steps: %zu transfers but no steps", E);
    if (s->n_steps && !s->steps)
        return BAD("steps: %zu steps but no step array", s->n_steps);
    size_t next = 0;
    double t = 0;
    for (size_t q = 0; q < s->n_steps; q++) {
        const hc_step_t *st = &s->steps[q];
        if (st->first != next || st->count > E - next)
            return BAD("steps: step %zu covers events [%zu, %zu), expected them to start at %zu "
                       "(of %zu)",
                       q, st->first, st->first + st->count, next, E);
        next += st->count;
        if (!hc__close(st->start, t))
            return BAD("steps: step %zu starts at %.17g, expected the end of the previous step "
                       "%.17g",
                       q, st->start, t);
        if (!isfinite(st->duration) || st->duration < 0)
            return BAD("steps: step %zu: duration must be finite and >= 0", q);
        t += st->duration;
    }
    if (next != E)
        return BAD("steps: the steps cover %zu of the %zu transfers", next, E);

    uint32_t P = s->P;
    size_t *used = hc__malloc(P, sizeof *used);
    size_t *who = hc__malloc(P, sizeof *who);
    if (!used || !who) {
        free(used);
        free(who);
        return hc__error(HC_ERR_NOMEM, "out of memory validating");
    }
    for (uint32_t i = 0; i < P; i++)
        used[i] = SIZE_MAX;
    int rc = HC_OK;
    for (size_t q = 0; q < s->n_steps && rc == HC_OK; q++) {
        const hc_step_t *st = &s->steps[q];
        if (st->count > k) {
            rc = BAD("k: step %zu has %zu transfers, more than k = %u", q, st->count, k);
            break;
        }
        double longest = 0;
        double lo = st->start + beta, hi = st->start + st->duration;
        for (size_t i = st->first; i < st->first + st->count && rc == HC_OK; i++) {
            const hc_event_t *e = &s->events[i];
            if (e->step != q) {
                rc = BAD("steps: event %zu is in step %zu but says step %u", i, q, e->step);
                break;
            }
            uint32_t ends[2] = {e->src, e->dst};
            for (int x = 0; x < 2 && rc == HC_OK; x++) {
                if (used[ends[x]] == q)
                    rc = BAD("matching: step %zu is not a matching: node %u is in events %zu and "
                             "%zu",
                             q, ends[x], who[ends[x]], i);
                used[ends[x]] = q;
                who[ends[x]] = i;
            }
            if (rc != HC_OK)
                break;
            if (e->start < lo - hc__tol(lo) || e->end > hi + hc__tol(hi))
                rc = BAD("step window: event %zu [%.17g, %.17g] is outside its step %zu window "
                         "[%.17g, %.17g] (step start + beta .. step end)",
                         i, e->start, e->end, q, lo, hi);
            if (e->end - e->start > longest)
                longest = e->end - e->start;
        }
        if (rc == HC_OK && !hc__close(st->duration, beta + longest))
            rc = BAD("step cost: step %zu lasts %.17g s but beta + longest transfer = %.17g s", q,
                     st->duration, beta + longest);
    }
    free(used);
    free(who);
    if (rc != HC_OK || !pb)
        return rc;
    uint32_t n1 = s->n1, n2 = s->n2;
    double *cover = hc__calloc((size_t)n1 * n2, sizeof *cover);
    if (!cover)
        return hc__error(HC_ERR_NOMEM, "out of memory validating");
    for (size_t i = 0; i < E && rc == HC_OK; i++) {
        const hc_event_t *e = &s->events[i];
        uint32_t j = e->dst - n1;
        if (HC_AT(pb->costs, e->src, j) == 0)
            rc = BAD("zero cost: message %u -> %u (cluster 2 node %u) has cost 0 and must not be "
                     "sent (event %zu)",
                     e->src, e->dst, j, i);
        cover[(size_t)e->src * n2 + j] += e->end - e->start;
    }
    for (uint32_t i = 0; i < n1 && rc == HC_OK; i++)
        for (uint32_t j = 0; j < n2 && rc == HC_OK; j++) {
            double c = HC_AT(pb->costs, i, j), got = cover[(size_t)i * n2 + j];
            if (!hc__close(got, c))
                rc = BAD("coverage: message %u -> %u (cluster 2 node %u): the transfers cover "
                         "%.17g s of its %.17g s",
                         i, n1 + j, j, got, c);
        }
    free(cover);
    return rc;
}

/* ---- broadcast ---- */

/* parent[] of tree `t` must be a spanning tree rooted at root that agrees with the receives
 * of segment 0 in that tree (first[] = index of the receive event per node, or SIZE_MAX). */
static int check_tree(const hc_schedule_t *s, const int32_t *parent, int t, const size_t *first)
{
    uint32_t P = s->P;
    const char *name = t ? "parent2" : "parent";
    if (parent[s->root] != -1)
        return BAD("tree: %s[%u] (the root) must be -1, got %d", name, s->root, parent[s->root]);
    for (uint32_t v = 0; v < P; v++) {
        if (v == s->root)
            continue;
        if (parent[v] < 0 || (uint32_t)parent[v] >= P || (uint32_t)parent[v] == v)
            return BAD("tree: %s[%u] = %d is not a node", name, v, parent[v]);
        size_t i = first[v];
        if (i != SIZE_MAX && s->events[i].src != (uint32_t)parent[v])
            return BAD("tree: %s[%u] = %d but node %u receives segment 0 of tree %d from %u "
                       "(event %zu)",
                       name, v, parent[v], v, t, s->events[i].src, i);
        /* walk up: must reach the root within P steps */
        uint32_t u = v, steps = 0;
        while (u != s->root && steps <= P) {
            u = (uint32_t)parent[u];
            steps++;
        }
        if (u != s->root)
            return BAD("tree: %s has a cycle through node %u (not a spanning tree rooted at %u)",
                       name, v, s->root);
    }
    return HC_OK;
}

/* Whole-message size for the segment rules: the problem's msg_bytes; without a problem, the
 * largest event when the events have different sizes (a hierarchical schedule's whole-message
 * transfers), else 0 (every event is one segment). */
static uint64_t whole_bytes(const hc_schedule_t *s, const hc_problem_t *pb)
{
    if (pb)
        return pb->msg_bytes;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < s->n_events; i++) {
        if (s->events[i].bytes < lo)
            lo = s->events[i].bytes;
        if (s->events[i].bytes > hi)
            hi = s->events[i].bytes;
    }
    return s->n_events && lo != hi ? hi : 0;
}

/* Segments: with n_segments == 1 every event carries the whole message. With more, an event
 * of msg_bytes carries the whole message (every segment), any other one segment `seg`. A
 * non-root node must get, in each tree, either one whole-message event or distinct segments
 * adding up to msg_bytes (all n_segments of them when msg_bytes is 0): clusters of a
 * hierarchical broadcast may cut the message into different numbers of segments. A node sends
 * a segment once it holds it (the root from time 0), the whole message once it holds all. */
static int validate_bcast(const hc_schedule_t *s, const hc_problem_t *pb)
{
    uint32_t P = s->P, S = s->n_segments;
    int T = s->parent2 ? 2 : 1;
    uint64_t msg = whole_bytes(s, pb);
    size_t cells = (size_t)P * S;
    if (S && cells / S != P)
        return hc__error(HC_ERR_NOMEM, "validate: too many segments");
    size_t *recv = hc__malloc(cells * (size_t)T, sizeof *recv);
    double *has = hc__malloc(cells, sizeof *has);
    size_t *whole = hc__malloc((size_t)P * T, sizeof *whole);
    uint64_t *got = hc__calloc((size_t)P * T, sizeof *got);
    uint32_t *nseg = hc__calloc((size_t)P * T, sizeof *nseg);
    double *full = hc__malloc(P, sizeof *full);     /* when v holds the whole message */
    double *wend = hc__malloc(P, sizeof *wend);     /* end of v's first whole receive */
    double *segmax = hc__calloc(P, sizeof *segmax); /* last segment receive end */
    int rc = HC_OK;
    if (!recv || !has || !whole || !got || !nseg || !full || !wend || !segmax) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory validating");
        goto done;
    }
    for (size_t x = 0; x < cells * (size_t)T; x++)
        recv[x] = SIZE_MAX;
    for (size_t x = 0; x < cells; x++)
        has[x] = INFINITY;
    for (size_t x = 0; x < (size_t)P * T; x++)
        whole[x] = SIZE_MAX;
    for (uint32_t v = 0; v < P; v++)
        full[v] = wend[v] = INFINITY;
    for (size_t i = 0; i < s->n_events && rc == HC_OK; i++) {
        const hc_event_t *e = &s->events[i];
        const char *tr = T > 1 ? (e->tree ? " in tree 1" : " in tree 0") : "";
        if (e->dst == s->root) {
            rc = BAD("receive: the root %u receives (event %zu from %u)", s->root, i, e->src);
            break;
        }
        size_t vt = (size_t)e->tree * P + e->dst;
        int is_whole = S == 1 || (msg > 0 && e->bytes == msg);
        if (is_whole) {
            if (whole[vt] != SIZE_MAX || nseg[vt]) {
                rc = BAD("receive: node %u receives the message twice%s (event %zu%s)", e->dst, tr,
                         i, whole[vt] != SIZE_MAX ? " repeats a whole-message receive" : "");
                break;
            }
            whole[vt] = i;
            if (e->end < wend[e->dst])
                wend[e->dst] = e->end;
        } else {
            if (whole[vt] != SIZE_MAX) {
                rc = BAD("receive: node %u receives the message twice%s (event %zu after the "
                         "whole-message event %zu)",
                         e->dst, tr, i, whole[vt]);
                break;
            }
            got[vt] += e->bytes;
            nseg[vt]++;
            if (e->end > segmax[e->dst])
                segmax[e->dst] = e->end;
        }
        size_t key = (size_t)e->tree * cells + (size_t)e->dst * S + e->seg;
        if (!is_whole && recv[key] != SIZE_MAX) {
            rc = BAD("receive: node %u receives segment %u%s twice (events %zu and %zu)", e->dst,
                     e->seg, tr, recv[key], i);
            break;
        }
        if (recv[key] == SIZE_MAX)
            recv[key] = i;
        if (!is_whole) {
            size_t h = (size_t)e->dst * S + e->seg;
            if (e->end < has[h])
                has[h] = e->end;
        }
    }
    for (int t = 0; t < T && rc == HC_OK; t++) {
        const char *tr = T > 1 ? (t ? " in tree 1" : " in tree 0") : "";
        for (uint32_t v = 0; v < P && rc == HC_OK; v++) {
            size_t vt = (size_t)t * P + v;
            if (v == s->root || whole[vt] != SIZE_MAX)
                continue;
            if (msg > 0 && nseg[vt] > 0) {
                if (got[vt] != msg)
                    rc = BAD("receive: node %u receives %llu of the %llu bytes%s", v,
                             (unsigned long long)got[vt], (unsigned long long)msg, tr);
                continue;
            }
            for (uint32_t g = 0; g < S && rc == HC_OK; g++)
                if (recv[(size_t)t * cells + (size_t)v * S + g] == SIZE_MAX)
                    rc = BAD("receive: node %u never receives segment %u%s", v, g, tr);
        }
    }
    /* when each node holds the whole message: its first whole receive, or its last segment */
    for (uint32_t v = 0; v < P && rc == HC_OK; v++) {
        full[v] = v == s->root ? 0 : wend[v];
        if (v != s->root && nseg[v] > 0 && segmax[v] < full[v])
            full[v] = segmax[v];
    }
    for (size_t i = 0; i < s->n_events && rc == HC_OK; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src == s->root)
            continue;
        int is_whole = S == 1 || (msg > 0 && e->bytes == msg);
        double h = full[e->src];
        if (!is_whole) {
            double hs = has[(size_t)e->src * S + e->seg];
            if (hs < h)
                h = hs;
        }
        if (!(e->start >= h - hc__tol(h)))
            rc = BAD("holder: event %zu: node %u sends %s%u to %u at %.17g but holds it only from "
                     "%.17g",
                     i, e->src, is_whole ? "the message, segment " : "segment ", e->seg, e->dst,
                     e->start, h);
    }
    if (rc == HC_OK && s->parent) {
        size_t *first = hc__malloc(P, sizeof *first);
        if (!first)
            rc = hc__error(HC_ERR_NOMEM, "out of memory validating");
        for (int t = 0; t < T && rc == HC_OK; t++) {
            for (uint32_t v = 0; v < P; v++)
                first[v] = whole[(size_t)t * P + v] != SIZE_MAX
                               ? whole[(size_t)t * P + v]
                               : recv[(size_t)t * cells + (size_t)v * S];
            rc = check_tree(s, t ? s->parent2 : s->parent, t, first);
        }
        free(first);
    }
done:
    free(recv);
    free(has);
    free(whole);
    free(got);
    free(nseg);
    free(full);
    free(wend);
    free(segmax);
    return rc;
}

/* ---- reduction ---- */

/* Every tree of a reduction (the events' `tree`: one for the classic schedules, one per range
 * of a multi-tree reduction): each node but the root sends once, after its receives of that
 * tree ended, and the sends reach the root. The trees' ranges cover the message. */
static int validate_reduce(const hc_schedule_t *s, const hc_problem_t *pb)
{
    uint32_t P = s->P, T = 1;
    for (size_t i = 0; i < s->n_events; i++)
        T = s->events[i].tree + 1u > T ? s->events[i].tree + 1u : T;
    size_t *send = hc__malloc((size_t)P * T, sizeof *send);
    uint64_t *tbytes = hc__calloc(T, sizeof *tbytes);
    if (!send || !tbytes) {
        free(send);
        free(tbytes);
        return hc__error(HC_ERR_NOMEM, "out of memory validating");
    }
    for (size_t i = 0; i < (size_t)P * T; i++)
        send[i] = SIZE_MAX;
    int rc = HC_OK;
    for (size_t i = 0; i < s->n_events && rc == HC_OK; i++) {
        const hc_event_t *e = &s->events[i];
        size_t *snd = &send[(size_t)e->tree * P + e->src];
        if (e->src == s->root)
            rc = BAD("send: the root %u sends (event %zu to %u)", s->root, i, e->dst);
        else if (*snd != SIZE_MAX)
            rc = T > 1 ? BAD("send: node %u sends twice in tree %u (events %zu and %zu)", e->src,
                             e->tree, *snd, i)
                       : BAD("send: node %u sends twice (events %zu and %zu)", e->src, *snd, i);
        else if (T > 1 && tbytes[e->tree] && tbytes[e->tree] != e->bytes)
            rc = BAD("bytes: tree %u carries %llu bytes in event %zu, %llu elsewhere", e->tree,
                     (unsigned long long)e->bytes, i, (unsigned long long)tbytes[e->tree]);
        *snd = i;
        tbytes[e->tree] = e->bytes;
    }
    for (uint32_t t = 0; t < T && rc == HC_OK; t++)
        for (uint32_t v = 0; v < P && rc == HC_OK; v++)
            if (v != s->root && send[(size_t)t * P + v] == SIZE_MAX)
                rc = T > 1 ? BAD("send: node %u never sends its partial result in tree %u", v, t)
                           : BAD("send: node %u never sends its partial result", v);
    if (rc == HC_OK && T > 1 && pb && pb->msg_bytes) {
        uint64_t sum = 0;
        for (uint32_t t = 0; t < T; t++)
            sum += tbytes[t];
        if (sum != pb->msg_bytes)
            rc = BAD("bytes: the %u trees' ranges cover %llu bytes of %llu", T,
                     (unsigned long long)sum, (unsigned long long)pb->msg_bytes);
    }
    for (size_t i = 0; i < s->n_events && rc == HC_OK; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->dst == s->root)
            continue;
        size_t k = send[(size_t)e->tree * P + e->dst];
        const hc_event_t *snd = &s->events[k];
        if (e->end > snd->start + hc__tol(snd->start))
            rc = BAD("order: node %u receives (event %zu from %u, ends %.17g) after its send "
                     "starts (event %zu, %.17g)",
                     e->dst, i, e->src, e->end, k, snd->start);
    }
    /* the sends form a tree into the root (rules out zero-length cycles) */
    for (uint32_t t = 0; t < T && rc == HC_OK; t++)
        for (uint32_t v = 0; v < P && rc == HC_OK; v++) {
            uint32_t u = v, steps = 0;
            while (u != s->root && steps <= P) {
                u = s->events[send[(size_t)t * P + u]].dst;
                steps++;
            }
            if (u != s->root)
                rc =
                    BAD("tree: the sends from node %u never reach the root %u (cycle)", v, s->root);
        }
    free(send);
    free(tbytes);
    return rc;
}

int hc_schedule_validate(const hc_schedule_t *s, const hc_problem_t *pb)
{
    if (!s)
        return hc__error(HC_ERR_INVAL, "validate: NULL schedule");
    if (pb) {
        HC__TRY(hc_problem_check(pb));
        HC__TRY(check_problem_match(s, pb));
    }
    HC__TRY(check_structure(s));
    /* what is sent (coverage, holders, trees, orders), then how long, then when */
    switch (s->coll) {
    case HC_COLL_ALLTOALL:
        HC__TRY(validate_alltoall(s, pb));
        break;
    case HC_COLL_REDISTRIBUTE:
        HC__TRY(validate_redistribute(s, pb));
        break;
    case HC_COLL_BCAST:
        HC__TRY(validate_bcast(s, pb));
        break;
    case HC_COLL_REDUCE:
        HC__TRY(validate_reduce(s, pb));
        break;
    }
    if (pb && s->coll != HC_COLL_REDISTRIBUTE)
        HC__TRY(check_durations(s, pb));
    if (s->coll != HC_COLL_REDISTRIBUTE) {
        size_t *order = NULL;
        HC__TRY(hc__event_order(s->events, s->n_events, &order));
        int rc = HC_OK;
        if (s->coll == HC_COLL_REDUCE) {
            rc = check_port(s->events, s->n_events, s->P, order, 2);
        } else if (s->coll == HC_COLL_BCAST && !pb && !s->parent2) {
            /* the port rule of a one-tree broadcast depends on the problem's model (pLogP
             * overlaps a transfer's latency with the sender's next send): unknown here */
        } else if (s->coll == HC_COLL_BCAST && hc_problem_overlaps_latency(pb) && !s->parent2) {
            rc = check_plogp_ports(s, pb, order);
        } else {
            rc = check_port(s->events, s->n_events, s->P, order, 0);
            if (rc == HC_OK)
                rc = check_port(s->events, s->n_events, s->P, order, 1);
        }
        free(order);
        HC__TRY(rc);
    }
    return check_makespan(s);
}
