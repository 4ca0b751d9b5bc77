/* Discrete-event replay of a schedule on a "true" problem (include/hetcoll/sim.h).
 *
 * The replay is a longest-path computation over a dependency graph whose vertices are the
 * events:
 *   - order edges: consecutive events in a node's send order and in its receive order
 *     (full-duplex 1-port; alltoall and bcast), or in its single communication order
 *     (half-duplex; reduce). Orders are by planned start, ties by event index.
 *   - data edges: bcast: the event that brings segment g to node u (or the whole message)
 *     precedes u's sends of g; a node that got the message as segments sends it whole after
 *     all its receives; the root holds everything at time 0. An event of msg_bytes (or any
 *     event when n_segments == 1) carries the whole message, others one segment.
 *     reduce: every receive of u precedes u's send.
 * pLogP broadcasts (hc_problem_overlaps_latency): a send-order edge releases the next send at
 * start + port (the sender's port time), and the receive order (by planned end) makes the next
 * receive's port interval [end - port, end] start after the previous receive's end; see
 * EDGE_SEND / EDGE_RECV below.
 * Each event starts at the latest end of its predecessors (0 without any) and lasts its true
 * duration. Kahn's worklist: O(E log E) for the sort, O(E + P * n_segments) for the graph;
 * events left unprocessed sit on a cycle (a deadlock) and give HC_ERR_INVALID_SCHEDULE.
 *
 * Redistribution replays step by step: a step starts when the previous one ends (barrier),
 * its transfers start beta later (a node in several transfers of one step does them one after
 * the other in planned order), and the step ends with its last transfer. A transfer's true
 * duration is its planned amount, scaled by truth_cost[i][j] / (sum of the planned amounts of
 * message i -> j) when that sum differs from the true cost by more than 1e-9 relative, so that
 * a plan replayed on its own problem keeps its amounts exactly.
 *
 * Durations: true cost (hc_problem_event_cost) x error factor x slowdown. The error factor
 * max(error_floor, 1 + sigma N(0,1)) is drawn for every event in event index order from
 * hc_rng seeded with opts->seed (one normal, i.e. two uniforms, per event), only when
 * sigma > 0. The slowdown is the larger of the sender's and the receiver's factors.
 * Schedules with a redundant tree (parent2) go to hc__simulate_ttcc (src/sim/sim_ttcc.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../net/net_internal.h"
#include "sim_internal.h"

void hc_sim_opts_init(hc_sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = (uint32_t)sizeof *o;
    o->error_sigma = 0;
    o->error_floor = 0.01;
    o->seed = 1;
    o->slowdown = NULL;
    o->alpha = 0;
    o->eager_bytes = 65536;
}

void hc_sim_result_destroy(hc_sim_result_t *r)
{
    if (!r)
        return;
    free(r->events);
    free(r->finish);
    free(r);
}

/* Edge kinds (sim_internal.h): what b waits for. DATA: a's end; SEND: a's start + port (a
 * and b are consecutive sends of one node); RECV: b's receive port [end - port, end] starts
 * after a's end, i.e. b starts at a's end - (dur_b - port_b) (consecutive receives). Without
 * pLogP ports every edge is DATA (the whole transfer holds both ports). */
#define EDGE_DATA HC__EDGE_DATA
#define EDGE_SEND HC__EDGE_SEND
#define EDGE_RECV HC__EDGE_RECV
typedef hc__edges_t edges_t;

int hc__edges_add(hc__edges_t *g, size_t a, size_t b, int kind)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        size_t *f = realloc(g->from, cap * sizeof *f);
        if (f)
            g->from = f;
        size_t *t = f ? realloc(g->to, cap * sizeof *t) : NULL;
        if (t)
            g->to = t;
        unsigned char *k = t ? realloc(g->kind, cap) : NULL;
        if (!k)
            return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        g->kind = k;
        g->cap = cap;
    }
    g->from[g->n] = a;
    g->to[g->n] = b;
    g->kind[g->n] = (unsigned char)kind;
    g->n++;
    return HC_OK;
}

static void add_edge_kind(edges_t *g, size_t a, size_t b, int kind)
{
    (void)hc__edges_add(g, a, b, kind); /* capacity reserved in advance: cannot fail */
}

static void add_edge(edges_t *g, size_t a, size_t b)
{
    add_edge_kind(g, a, b, EDGE_DATA);
}

/* Durations on the true problem with error and slowdown. */
static int true_durations(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *o,
                          double *dur)
{
    size_t E = s->n_events;
    if (s->coll == HC_COLL_REDISTRIBUTE) {
        uint32_t n1 = truth->n1, n2 = truth->n2;
        double *plan = hc__calloc((size_t)n1 * n2, sizeof *plan);
        if (!plan)
            return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        for (size_t i = 0; i < E; i++) {
            const hc_event_t *e = &s->events[i];
            plan[(size_t)e->src * n2 + (e->dst - n1)] += e->end - e->start;
        }
        for (size_t i = 0; i < E; i++) {
            const hc_event_t *e = &s->events[i];
            double amount = e->end - e->start;
            double total = plan[(size_t)e->src * n2 + (e->dst - n1)];
            double c = HC_AT(truth->costs, e->src, e->dst - n1);
            if (fabs(total - c) > hc__tol(c) && total > 0)
                amount *= c / total;
            dur[i] = amount;
        }
        free(plan);
    } else {
        for (size_t i = 0; i < E; i++)
            dur[i] = hc_problem_event_cost(truth, &s->events[i]);
    }
    if (o->error_sigma > 0) {
        hc_rng_t rng;
        hc_rng_seed(&rng, o->seed);
        for (size_t i = 0; i < E; i++) {
            double f = 1 + o->error_sigma * hc_rng_normal(&rng);
            if (f < o->error_floor)
                f = o->error_floor;
            dur[i] *= f;
        }
    }
    if (o->slowdown) {
        for (size_t i = 0; i < E; i++) {
            double a = o->slowdown[s->events[i].src], b = o->slowdown[s->events[i].dst];
            dur[i] *= a > b ? a : b;
        }
    }
    return HC_OK;
}

static int check_inputs(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *o)
{
    HC__TRY(hc_problem_check(truth));
    if (s->coll != truth->coll)
        return hc__error(HC_ERR_INVAL, "simulate: schedule is %s but the problem is %s",
                         hc_coll_name(s->coll), hc_coll_name(truth->coll));
    if (s->P != truth->P)
        return hc__error(HC_ERR_SHAPE, "simulate: schedule has %u nodes but the problem has %u",
                         s->P, truth->P);
    if (!isfinite(o->error_sigma) || o->error_sigma < 0)
        return hc__error(HC_ERR_VALUE, "simulate: error sigma must be finite and >= 0 (got %g)",
                         o->error_sigma);
    if (!isfinite(o->error_floor) || o->error_floor < 0)
        return hc__error(HC_ERR_VALUE, "simulate: error floor must be finite and >= 0 (got %g)",
                         o->error_floor);
    if (o->slowdown) {
        for (uint32_t i = 0; i < s->P; i++)
            if (!isfinite(o->slowdown[i]) || o->slowdown[i] <= 0)
                return hc__error(HC_ERR_VALUE,
                                 "simulate: slowdown of node %u must be finite and > 0 (got %g)", i,
                                 o->slowdown[i]);
    }
    if (s->coll == HC_COLL_BCAST && s->n_segments > 1 && s->n_segments > s->n_events)
        return hc__error(HC_ERR_INVALID_SCHEDULE, "simulate: %u segments but only %zu events",
                         s->n_segments, s->n_events);
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src >= s->P || e->dst >= s->P || e->src == e->dst)
            return hc__error(HC_ERR_INVALID_SCHEDULE,
                             "simulate: event %zu: bad endpoints %u -> %u (P = %u)", i, e->src,
                             e->dst, s->P);
        if (!isfinite(e->start) || !isfinite(e->end))
            return hc__error(HC_ERR_INVALID_SCHEDULE, "simulate: event %zu: times must be finite",
                             i);
        if (s->coll == HC_COLL_REDISTRIBUTE && (e->src >= truth->n1 || e->dst < truth->n1))
            return hc__error(HC_ERR_INVALID_SCHEDULE,
                             "simulate: event %zu: %u -> %u does not go from cluster 1 (0..%u) "
                             "to cluster 2",
                             i, e->src, e->dst, truth->n1 - 1);
        if (s->coll == HC_COLL_BCAST && e->seg >= (s->n_segments ? s->n_segments : 1))
            return hc__error(HC_ERR_INVALID_SCHEDULE,
                             "simulate: event %zu: segment %u out of range (%u segments)", i,
                             e->seg, s->n_segments);
    }
    return HC_OK;
}

int hc__check_steps(const hc_schedule_t *s)
{
    size_t E = s->n_events;
    if (E && !s->n_steps)
        return hc__error(HC_ERR_INVALID_SCHEDULE,
                         "simulate: redistribution schedule has %zu events but no steps", E);
    size_t covered = 0;
    for (size_t k = 0; k < s->n_steps; k++) {
        if (s->steps[k].first != covered || s->steps[k].first + s->steps[k].count > E)
            return hc__error(HC_ERR_INVALID_SCHEDULE,
                             "simulate: step %zu covers events [%zu, %zu), expected to start at "
                             "%zu within %zu events",
                             k, s->steps[k].first, s->steps[k].first + s->steps[k].count, covered,
                             E);
        covered += s->steps[k].count;
    }
    if (covered != E)
        return hc__error(HC_ERR_INVALID_SCHEDULE, "simulate: steps cover %zu of the %zu events",
                         covered, E);
    return HC_OK;
}

static int replay_redistribute(const hc_schedule_t *s, const hc_problem_t *truth, const double *dur,
                               hc_sim_result_t *r)
{
    size_t E = s->n_events;
    HC__TRY(hc__check_steps(s));
    double *freet = hc__malloc(s->P, sizeof *freet);
    size_t *stamp = hc__malloc(s->P, sizeof *stamp);
    size_t *order = NULL;
    int rc = HC_OK;
    if (!freet || !stamp) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        goto done;
    }
    for (uint32_t i = 0; i < s->P; i++)
        stamp[i] = SIZE_MAX;
    rc = hc__event_order(s->events, E, &order); /* global order; steps are contiguous ranges */
    if (rc != HC_OK)
        goto done;
    /* Per step: walk the global order and pick the events of that step (the
     * ranges are contiguous, so bucket by step first). */
    size_t *bystep = hc__malloc(E, sizeof *bystep);
    size_t *pos = hc__malloc(s->n_steps + 1, sizeof *pos);
    if (!bystep || !pos) {
        free(bystep);
        free(pos);
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        goto done;
    }
    /* step of event i: binary search is unnecessary, fill from ranges */
    size_t *stepof = hc__malloc(E, sizeof *stepof);
    if (!stepof) {
        free(bystep);
        free(pos);
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        goto done;
    }
    for (size_t k = 0; k < s->n_steps; k++) {
        pos[k] = s->steps[k].first;
        for (size_t i = s->steps[k].first; i < s->steps[k].first + s->steps[k].count; i++)
            stepof[i] = k;
    }
    for (size_t q = 0; q < E; q++) {
        size_t i = order[q];
        bystep[pos[stepof[i]]++] = i;
    }
    double t = 0;
    for (size_t k = 0; k < s->n_steps; k++) {
        double t0 = t + truth->beta, end = t0;
        for (size_t q = s->steps[k].first; q < s->steps[k].first + s->steps[k].count; q++) {
            size_t i = bystep[q];
            const hc_event_t *e = &s->events[i];
            double st = t0;
            if (stamp[e->src] == k && freet[e->src] > st)
                st = freet[e->src];
            if (stamp[e->dst] == k && freet[e->dst] > st)
                st = freet[e->dst];
            double en = st + dur[i];
            r->events[i].start = st;
            r->events[i].end = en;
            stamp[e->src] = stamp[e->dst] = k;
            freet[e->src] = freet[e->dst] = en;
            if (en > end)
                end = en;
        }
        t = end;
    }
    r->makespan = t;
    free(bystep);
    free(pos);
    free(stepof);
done:
    free(freet);
    free(stamp);
    free(order);
    return rc;
}

int hc__bcast_data_edges(const hc_schedule_t *s, const hc_problem_t *truth, const size_t *order,
                         hc__edges_t *g)
{
    size_t E = s->n_events;
    uint32_t P = s->P;
    uint32_t S = s->n_segments ? s->n_segments : 1;
    int rc = HC_OK;
    size_t *first_recv = NULL, *whole_recv = NULL, *whole_send = NULL, *last_recv = NULL;
    last_recv = hc__malloc(P, sizeof *last_recv);
    if (!last_recv)
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    /* an event of msg_bytes (or any event when n_segments == 1) carries the whole
     * message; others carry segment `seg` (see validate.c) */
    uint64_t msg = truth->msg_bytes;
    if ((uint64_t)P * S > SIZE_MAX / sizeof(size_t)) {
        rc = hc__error(HC_ERR_NOMEM, "simulate: too many segments");
        goto out;
    }
    first_recv = hc__malloc((size_t)P * S, sizeof *first_recv);
    whole_recv = hc__malloc(P, sizeof *whole_recv);
    whole_send = hc__malloc(P, sizeof *whole_send);
    if (!first_recv || !whole_recv || !whole_send) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        goto out;
    }
    for (size_t x = 0; x < (size_t)P * S; x++)
        first_recv[x] = SIZE_MAX;
    for (uint32_t v = 0; v < P; v++)
        whole_recv[v] = whole_send[v] = SIZE_MAX;
    for (size_t q = 0; q < E; q++) {
        size_t i = order[q];
        const hc_event_t *e = &s->events[i];
        int whole = S == 1 || (msg > 0 && e->bytes == msg);
        if (whole) {
            if (whole_recv[e->dst] == SIZE_MAX)
                whole_recv[e->dst] = i;
            if (whole_send[e->src] == SIZE_MAX)
                whole_send[e->src] = i;
        } else {
            size_t key = (size_t)e->dst * S + e->seg;
            if (first_recv[key] == SIZE_MAX)
                first_recv[key] = i;
        }
    }
    size_t *nrecv = last_recv; /* reuse: receives per node */
    for (uint32_t v = 0; v < P; v++)
        nrecv[v] = 0;
    for (size_t i = 0; i < E; i++)
        nrecv[s->events[i].dst]++;
    for (size_t i = 0; i < E; i++) {
        const hc_event_t *e = &s->events[i];
        int whole = S == 1 || (msg > 0 && e->bytes == msg);
        if (e->src == truth->root)
            continue;
        size_t dep = whole_recv[e->src];
        if (!whole && first_recv[(size_t)e->src * S + e->seg] != SIZE_MAX)
            dep = first_recv[(size_t)e->src * S + e->seg];
        if (dep != SIZE_MAX) {
            if ((rc = hc__edges_add(g, dep, i, HC__EDGE_DATA)) != HC_OK)
                goto out;
            continue;
        }
        if (whole && nrecv[e->src] > 0)
            continue; /* after all its receives: edges added below */
        rc = hc__error(HC_ERR_INVALID_SCHEDULE,
                       "simulate: event %zu: node %u sends %s%u that it never receives", i, e->src,
                       whole ? "the message, segment " : "segment ", e->seg);
        goto out;
    }
    /* a node that gets the message as segments sends it whole after all its receives
     * (its later whole sends follow the first one in its send order) */
    for (size_t x = 0; x < E; x++) {
        uint32_t u = s->events[x].dst;
        if (u != truth->root && whole_recv[u] == SIZE_MAX && whole_send[u] != SIZE_MAX &&
            (rc = hc__edges_add(g, x, whole_send[u], HC__EDGE_DATA)) != HC_OK)
            goto out;
    }
out:
    free(first_recv);
    free(whole_recv);
    free(whole_send);
    free(last_recv);
    return rc;
}

/* port: per-event port times (pLogP broadcast), or NULL for whole-duration ports. */
static int replay_graph(const hc_schedule_t *s, const hc_problem_t *truth, const double *dur,
                        const double *port, hc_sim_result_t *r)
{
    size_t E = s->n_events;
    uint32_t P = s->P;
    int half = s->coll == HC_COLL_REDUCE;
    int rc = HC_OK;
    size_t *order = NULL, *last_send = NULL, *last_recv = NULL;
    size_t *indeg = NULL, *off = NULL, *adj = NULL, *work = NULL, *rorder = NULL;
    unsigned char *adjk = NULL;
    hc_event_t *byend = NULL;
    double *ready = NULL;
    edges_t g = {0};

    rc = hc__event_order(s->events, E, &order);
    if (rc != HC_OK)
        return rc;
    last_send = hc__malloc(P, sizeof *last_send);
    last_recv = hc__malloc(P, sizeof *last_recv);
    g.cap = 4 * E + 1;
    g.from = hc__malloc(g.cap, sizeof *g.from);
    g.to = hc__malloc(g.cap, sizeof *g.to);
    g.kind = hc__malloc(g.cap, sizeof *g.kind);
    indeg = hc__calloc(E + 1, sizeof *indeg);
    off = hc__calloc(E + 2, sizeof *off);
    ready = hc__calloc(E + 1, sizeof *ready);
    work = hc__malloc(E + 1, sizeof *work);
    if (!last_send || !last_recv || !g.from || !g.to || !g.kind || !indeg || !off || !ready ||
        !work) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator (%zu events)", E);
        goto done;
    }
    if (port && !half) {
        /* pLogP ports: a node's receives in the order of their planned ends (their port
         * intervals [end - port, end]); sends stay in planned-start order */
        byend = hc__malloc(E + 1, sizeof *byend);
        if (!byend) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator (%zu events)", E);
            goto done;
        }
        for (size_t i = 0; i < E; i++) {
            byend[i] = s->events[i];
            byend[i].start = s->events[i].end;
        }
        rc = hc__event_order(byend, E, &rorder);
        if (rc != HC_OK)
            goto done;
    }
    for (uint32_t i = 0; i < P; i++)
        last_send[i] = last_recv[i] = SIZE_MAX;
    /* order edges */
    for (size_t q = 0; q < E; q++) {
        size_t i = order[q];
        const hc_event_t *e = &s->events[i];
        if (half) {
            /* one list per node: last_send holds the node's previous communication */
            if (last_send[e->src] != SIZE_MAX)
                add_edge(&g, last_send[e->src], i);
            if (last_send[e->dst] != SIZE_MAX && last_send[e->dst] != last_send[e->src])
                add_edge(&g, last_send[e->dst], i);
            last_send[e->src] = last_send[e->dst] = i;
        } else if (port) {
            if (last_send[e->src] != SIZE_MAX)
                add_edge_kind(&g, last_send[e->src], i, EDGE_SEND);
            last_send[e->src] = i;
            size_t j = rorder[q]; /* the receive order, by planned end */
            if (last_recv[s->events[j].dst] != SIZE_MAX)
                add_edge_kind(&g, last_recv[s->events[j].dst], j, EDGE_RECV);
            last_recv[s->events[j].dst] = j;
        } else {
            if (last_send[e->src] != SIZE_MAX)
                add_edge(&g, last_send[e->src], i);
            if (last_recv[e->dst] != SIZE_MAX)
                add_edge(&g, last_recv[e->dst], i);
            last_send[e->src] = i;
            last_recv[e->dst] = i;
        }
    }
    /* data edges */
    if (s->coll == HC_COLL_BCAST) {
        rc = hc__bcast_data_edges(s, truth, order, &g);
        if (rc != HC_OK)
            goto done;
    } else if (s->coll == HC_COLL_REDUCE) {
        /* every receive of u in a tree precedes u's send(s) in that tree (the events' `tree`:
         * one per range of a multi-tree reduction) */
        uint32_t T = 1;
        for (size_t i = 0; i < E; i++)
            T = s->events[i].tree + 1u > T ? s->events[i].tree + 1u : T;
        size_t *send_of = hc__malloc((size_t)P * T, sizeof *send_of); /* first send per tree */
        if (!send_of) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
            goto done;
        }
        for (size_t i = 0; i < (size_t)P * T; i++)
            send_of[i] = SIZE_MAX;
        for (size_t q = 0; q < E; q++) {
            size_t i = order[q];
            size_t *f = &send_of[(size_t)s->events[i].tree * P + s->events[i].src];
            if (*f == SIZE_MAX)
                *f = i;
        }
        /* a node that sends more than once in a tree: receives precede its first send, and
         * the half-duplex order chains the rest */
        for (size_t i = 0; i < E; i++) {
            size_t snd = send_of[(size_t)s->events[i].tree * P + s->events[i].dst];
            if (snd != SIZE_MAX && snd != i)
                add_edge(&g, i, snd);
        }
        free(send_of);
    }
    /* CSR */
    for (size_t x = 0; x < g.n; x++) {
        off[g.from[x] + 1]++;
        indeg[g.to[x]]++;
    }
    for (size_t i = 0; i < E; i++)
        off[i + 1] += off[i];
    adj = hc__malloc(g.n + 1, sizeof *adj);
    adjk = hc__malloc(g.n + 1, sizeof *adjk);
    if (!adj || !adjk) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        goto done;
    }
    {
        size_t *fill = work; /* temporary cursor per event */
        for (size_t i = 0; i < E; i++)
            fill[i] = off[i];
        for (size_t x = 0; x < g.n; x++) {
            adjk[fill[g.from[x]]] = g.kind[x];
            adj[fill[g.from[x]]++] = g.to[x];
        }
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < E; i++)
        if (indeg[i] == 0)
            work[tail++] = i;
    while (head < tail) {
        size_t i = work[head++];
        double st = ready[i];
        double en = st + dur[i];
        r->events[i].start = st;
        r->events[i].end = en;
        for (size_t x = off[i]; x < off[i + 1]; x++) {
            size_t j = adj[x];
            double t = en;
            if (adjk[x] == EDGE_SEND)
                t = st + port[i];
            else if (adjk[x] == EDGE_RECV)
                t = en - (dur[j] - port[j]);
            if (t > ready[j])
                ready[j] = t;
            if (--indeg[j] == 0)
                work[tail++] = j;
        }
    }
    if (tail < E) {
        size_t stuck = SIZE_MAX;
        for (size_t i = 0; i < E && stuck == SIZE_MAX; i++)
            if (indeg[i] > 0)
                stuck = i;
        const hc_event_t *e = &s->events[stuck];
        rc = hc__error(HC_ERR_INVALID_SCHEDULE,
                       "simulate: deadlock: event %zu (%u -> %u) waits in a cycle of the "
                       "nodes' orders (%zu of %zu events cannot start)",
                       stuck, e->src, e->dst, E - tail, E);
        goto done;
    }
    r->makespan = 0;
    for (size_t i = 0; i < E; i++)
        if (r->events[i].end > r->makespan)
            r->makespan = r->events[i].end;
done:
    free(order);
    free(last_send);
    free(last_recv);
    free(g.from);
    free(g.to);
    free(g.kind);
    free(adjk);
    free(byend);
    free(rorder);
    free(indeg);
    free(off);
    free(adj);
    free(ready);
    free(work);
    return rc;
}

int hc_simulate(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                hc_sim_result_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "simulate: NULL output");
    *out = NULL;
    if (!s || !truth)
        return hc__error(HC_ERR_INVAL, "simulate: NULL schedule or problem");
    hc_sim_opts_t o; /* the caller's options read up to its struct_size */
    hc_sim_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_sim_opts_t"));
    opts = &o;
    HC__TRY(check_inputs(s, truth, opts));
    if (opts->network != HC_NETWORK_PAIR) {
        if (opts->network != HC_NETWORK_FLOW)
            return hc__error(HC_ERR_VALUE, "simulate: unknown network model %d", opts->network);
        if (!truth->platform && !hc__problem_node_platform(truth))
            return hc__error(HC_ERR_UNSUPPORTED,
                             "simulate: the flow network needs a platform (a problem built from "
                             "costs has none)");
        if (opts->error_sigma > 0 || opts->slowdown)
            return hc__error(HC_ERR_UNSUPPORTED,
                             "simulate: the flow network does not apply error draws or slowdowns");
    }
    if (s->parent2 && opts->network != HC_NETWORK_FLOW)
        return hc__simulate_ttcc(s, truth, opts, out);

    size_t E = s->n_events;
    hc_sim_result_t *r = hc__calloc(1, sizeof *r);
    double *dur = hc__malloc(E + 1, sizeof *dur);
    if (r) {
        r->events = hc__malloc(E + 1, sizeof *r->events);
        r->finish = hc__calloc(s->P, sizeof *r->finish);
    }
    if (!r || !dur || !r->events || !r->finish) {
        free(dur);
        hc_sim_result_destroy(r);
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator (%zu events)", E);
    }
    r->n_events = E;
    if (E)
        memcpy(r->events, s->events, E * sizeof *r->events);
    int rc = true_durations(s, truth, opts, dur);
    double *port = NULL;
    if (rc == HC_OK && hc_problem_overlaps_latency(truth)) {
        /* pLogP broadcast: port time = hc_problem_event_port_time scaled like the duration
         * (error and slowdown stretch the gap and the latency alike) */
        port = hc__malloc(E + 1, sizeof *port);
        if (!port)
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator (%zu events)", E);
        for (size_t i = 0; rc == HC_OK && i < E; i++) {
            double c = hc_problem_event_cost(truth, &s->events[i]);
            double p = hc_problem_event_port_time(truth, &s->events[i]);
            if (dur[i] == c)
                port[i] = p;
            else
                port[i] = c > 0 ? p * (dur[i] / c) : dur[i];
            if (!(port[i] <= dur[i]))
                port[i] = dur[i];
        }
    }
    if (rc == HC_OK) {
        if (opts->network == HC_NETWORK_FLOW)
            rc = hc__simulate_flow(s, truth, opts, r);
        else if (s->coll == HC_COLL_REDISTRIBUTE)
            rc = replay_redistribute(s, truth, dur, r);
        else
            rc = replay_graph(s, truth, dur, port, r);
    }
    free(port);
    free(dur);
    if (rc != HC_OK) {
        hc_sim_result_destroy(r);
        return rc;
    }
    for (size_t i = 0; i < E; i++) {
        const hc_event_t *e = &r->events[i];
        if (e->end > r->finish[e->src])
            r->finish[e->src] = e->end;
        if (e->end > r->finish[e->dst])
            r->finish[e->dst] = e->end;
    }
    *out = r;
    return HC_OK;
}
