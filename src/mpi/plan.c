/* The plan cache of a communicator: sightings of keys, planning on rank 0 and sharing the
 * candidate schedules with every rank.
 *
 * One planner, one schedule: rank 0 builds the problem and plans; the schedules are
 * broadcast. Planning may use time-limited searches whose result depends on timing, so letting
 * every rank plan on its own could make ranks disagree.
 *
 * Every rank sees the same sequence of keys (a correct MPI program calls the same collectives
 * with the same sizes and roots everywhere), so lookups, sightings, evictions and the decision
 * to plan are the same on every rank without communication. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "replay_memo.h"

#define HC__SHORTLIST_RATIO 2.0 /* alternatives predicted within this factor of the best */
/* Planning and measuring must not cost more than they can save: under auto, rank 0 plans only
 * while the overhead so far (planning, sharing, trials slower than native) is at most this
 * fraction of the time spent in this communicator's collectives, plus a small allowance. */
#define HC__BUDGET 0.02
#define HC__BUDGET_MIN 0.0005

void hc__entry_free(hc__entry_t *e)
{
    if (!e)
        return;
    for (uint32_t k = 0; k < e->n_cand; k++) {
        hc_schedule_destroy(e->cand[k].s);
        hc__order_free(e->cand[k].order);
    }
    free(e->key);
    free(e->members);
    memset(e, 0, sizeof *e);
}

void hc__cache_clear(hc_comm_t *c)
{
    for (unsigned i = 0; i < c->n_cache; i++)
        hc__entry_free(&c->cache[i]);
    c->n_cache = 0;
    c->n_sightings = 0;
}

static uint64_t key_hash(const hc_comm_t *c, hc_coll_t coll, const uint64_t *key, size_t n)
{
    return hc__fnv1a(key, n, 0xcbf29ce484222325ULL ^ ((uint64_t)coll << 56) ^ c->epoch);
}

/* Count a sighting of hash h; returns how often it was seen (this one included). */
static uint32_t sighting(hc_comm_t *c, uint64_t h)
{
    unsigned lru = 0;
    for (unsigned i = 0; i < c->n_sightings; i++) {
        hc__sighting_t *s = &c->sightings[i];
        if (s->hash == h) {
            s->last_use = c->clock;
            return ++s->count;
        }
        if (s->last_use < c->sightings[lru].last_use)
            lru = i;
    }
    unsigned slot = c->n_sightings < HC__SIGHTINGS ? c->n_sightings++ : lru;
    c->sightings[slot] = (hc__sighting_t){h, 1, c->clock};
    return 1;
}

static void sighting_forget(hc_comm_t *c, uint64_t h)
{
    for (unsigned i = 0; i < c->n_sightings; i++)
        if (c->sightings[i].hash == h) {
            c->sightings[i] = c->sightings[--c->n_sightings];
            return;
        }
}

/* Same events (tree and segments): two algorithms that agree on this instance (common on
 * homogeneous platforms) need not both be measured. */
static int same_shape(const hc_schedule_t *a, const hc_schedule_t *b)
{
    if (a->coll != b->coll || a->n_events != b->n_events || a->n_segments != b->n_segments ||
        a->recv_order != b->recv_order || a->relay != b->relay ||
        (a->coll != HC_COLL_REDUCE && a->segment_bytes != b->segment_bytes) ||
        !a->piece_groups != !b->piece_groups ||
        (a->piece_groups && b->piece_groups && a->P == b->P &&
         memcmp(a->piece_groups, b->piece_groups, sizeof *a->piece_groups * a->P) != 0))
        return 0;
    if (!a->lead_pieces != !b->lead_pieces ||
        (a->lead_pieces && (a->lead_bytes != b->lead_bytes || a->lead_groups != b->lead_groups ||
                            memcmp(a->lead_pieces, b->lead_pieces,
                                   sizeof *a->lead_pieces * a->lead_groups * a->lead_groups) != 0)))
        return 0;
    for (size_t i = 0; i < a->n_events; i++)
        if (a->events[i].src != b->events[i].src || a->events[i].dst != b->events[i].dst ||
            a->events[i].seg != b->events[i].seg || a->events[i].bytes != b->events[i].bytes)
            return 0;
    return 1;
}

static int by_makespan(const void *pa, const void *pb)
{
    const hc_schedule_t *a = *(hc_schedule_t *const *)pa, *b = *(hc_schedule_t *const *)pb;
    return (a->makespan > b->makespan) - (a->makespan < b->makespan);
}

/* On a platform with links, the schedule's makespan becomes its flow-model time (transfers at
 * the same time share the links, which the per-pair plan cannot see): the runtime's
 * prediction. Schedules the flow replay does not cover keep their per-pair makespan. */
/* The replays of the planning pass under way (plan_schedules), or NULL. Thread-local: a thread
 * plans on its own; under SMPI, where ranks share a thread, one pass makes no MPI call, so no
 * other rank runs in between. */
static _Thread_local hc__memo_t *memo;

static int flow_predict(const hc_problem_t *pb, hc_schedule_t *s, int smpi)
{
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    so.network = HC_NETWORK_FLOW;
    so.smpi_factors = smpi; /* HETCOLL_FLOW_MODEL=smpi */
    double t;
    int rc = hc__memo_replay(memo, pb, &so, s, &t);
    if (rc == HC_OK)
        s->makespan = t;
    return rc;
}

/* The runtime's variants of a schedule (segment sizes, windows, ramps) are all predicted and
 * the fastest replaces the algorithm's own choice only when predicted 5 % faster than it: the
 * flow model's error on pipelined reductions reaches 15 % (16 MiB on the 3-site grid: a 128 KiB
 * variant predicted 1.999 s against 2.067 s ran 2.334 s against 1.955 s). The fastest of all,
 * not the first to beat the current choice by 5 %: that rule depended on the order of trial
 * (grid5000, 1 MiB broadcast: 32 KiB pieces at 0.0273 s were kept over 16 KiB ones at 0.0260). */
#define HC__VARIANT_GAIN 0.95
/* auto tries sub-messages across sites (split_variants) only on candidates predicted within this
 * factor of the fastest so far: the most they gained here is 18 % (grid5000, 1 MiB reduction),
 * and each try replays the candidate three times in many more transfers (grid5000's 16 MiB
 * reduction, 24 ranks on 2 cores: planned in 68 s without them, 109 s with them on every
 * candidate) */
#define HC__SPLIT_RANGE 1.5

/* The flow replays of variants stay below this many events (transfers): 11776 events (grid5000,
 * 16 MiB in 32 KiB pieces) replay in 0.03 s, 23552 in 0.06 s. Under 8192, grid5000's 16 MiB
 * broadcast could not try its 32 KiB pieces (0.546 s predicted under SMPI's defaults, against
 * 0.644 s for the 128 KiB ones it was left with). */
#define HC__MAX_EVENTS 16384
/* An exchange's piece variants may go further: they are replayed once per key, posted at once,
 * and the 3-site grid's cross-site messages need 8 KiB pieces (SMPI's best size class) to reach
 * the link bound: 22428 transfers replay in 0.02 s there, 43596 (4 KiB pieces) in 0.03 s; its
 * skewed 64 KiB exchange needs 61740 (0.6 s). Beyond HC__MAX_PIECES_BASE, HC__PIECES_PER_SECOND
 * per second of the exchange in whole messages, so that a plan's replays (a few dozen) stay
 * within a few calls' time, up to HC__MAX_PIECES (the schedules' own limit, HC__A2A_PIECES_MAX):
 * the uniform 1 MiB exchange there, 165.3 s whole, makes 300258 pieces of 9360 B (replayed in
 * 0.5 s posted at once, 0.3 s with 4 in flight per rank). */
#define HC__MAX_PIECES_BASE 65536
#define HC__PIECES_PER_SECOND 4096
#define HC__MAX_PIECES 524288
/* The fastest piece variant (every piece posted at once) is replayed again with 4 to 128
 * pieces in flight per rank and each way (pieces_windows); the first predicted within
 * HC__PIECES_WINDOW_TIE of it is kept. The flow model prices the links, not the requests: an MPI
 * library matches each arriving message against its posted receives in order, and SMPI's solver
 * shares every link among every flow in flight. 3-site grid, skewed 64 KiB exchange in 9360 B
 * pieces: all 56826 at once predicted 26.18 s, 4 per rank 26.56 s (bound 26.17 s); SMPI ran the
 * latter in 26.62 s, its 31 calls in 692 s of wall time, where one call with all at once had not
 * ended after 15 minutes. */
#define HC__PIECES_WINDOW_TIE 0.02
/* Pieces leave eagerly, so what a window gates is each rank's receives, posted in planned
 * order: a rank waits for its next planned sender while others have pieces ready. On the
 * blocked 3-site grid (ranks grouped by site) the skewed 64 KiB exchange predicts 27.37, 27.19,
 * 27.12 and 27.11 s with 4, 8, 16 and 32 in flight, within the tie only from 64 (26.69 s; 128:
 * 26.18 s), which still keeps 14 times fewer transfers in flight than all 56826 at once. */
static const uint32_t pieces_windows[] = {4, 8, 16, 32, 64, 128};
#define HC__PIECES_WINDOWS (sizeof pieces_windows / sizeof *pieces_windows)
/* Piece variants predicted within this fraction of each other count as equally fast. */
#define HC__PIECES_TIE 0.005

/* Keeps t (predicted) in *best when faster than *best (or *best is NULL); else frees it. */
static void keep(hc_schedule_t *t, hc_schedule_t **best)
{
    if (!*best || t->makespan < (*best)->makespan) {
        hc_schedule_destroy(*best);
        *best = t;
    } else {
        hc_schedule_destroy(t);
    }
}

/* keep(t, best) for a t that may be NULL (nothing to keep). */
static void keep_or_drop(hc_schedule_t *t, hc_schedule_t **best)
{
    if (t)
        keep(t, best);
}

/* Predicts t and keeps it as keep() does. */
static void offer(const hc_problem_t *pb, int smpi, hc_schedule_t *t, hc_schedule_t **best)
{
    if (flow_predict(pb, t, smpi) == HC_OK)
        keep(t, best);
    else
        hc_schedule_destroy(t);
}

/* The fastest variant replaces *s when predicted HC__VARIANT_GAIN faster. */
static void settle(hc_schedule_t *best, hc_schedule_t **s)
{
    if (best && best->makespan < HC__VARIANT_GAIN * (*s)->makespan) {
        hc_schedule_destroy(*s);
        *s = best;
    } else {
        hc_schedule_destroy(best);
    }
}

/* Under SMPI's factors, t (in pieces of `piece` bytes) at the window rule with every latency
 * counted at the pieces' size class (latency x bandwidth factors: hc_schedule_t
 * window_bdp_factor), and at bdp_more times that, each predicted and kept in *best when
 * fastest. Unlike smpi_window's floor, each node keeps what its own links need: grid5000, 16
 * MiB in 9360 B pieces down a chain, the WAN senders keep 256 and 174 in flight, the others 4
 * (predicted 0.240 s; the plain rule 0.338 s; a floor of 256 on every node 0.743 s: a node
 * receiving 256 pieces at once starves its own sends, whose way back shares its downlink).
 * The rule's window is the least that keeps one path busy when a piece's latency and transfer
 * follow each other (SimGrid's model): it leaves a shared uplink idle when several trees'
 * senders cross it, each sized as if alone (3-site grid, 63 ranks, 16 MiB multitree in 9360 B
 * pieces: 2.375 s at the class's factor, 1.987 s at 2 x, 1.885 s at 4 x, bound 1.744 s; SMPI
 * ran 1.888 s). Where fewer share, more is slower (grid5000 multitree: 0.2097 s at 1 x, 0.1988 s
 * at 2 x, 0.2138 s at 4 x). */
static const double bdp_more[] = {1.0, 2.0, 4.0};
static void bdp_variant(const hc_problem_t *pb, const hc_schedule_t *t, uint64_t piece,
                        hc_schedule_t **best)
{
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = 1;
    double lf = 1, bf = 1;
    hc_flow_factors(&fo, (double)piece, &lf, &bf);
    for (size_t k = 0; lf * bf > 1.0 && k < sizeof bdp_more / sizeof *bdp_more; k++) {
        hc_schedule_t *v = NULL;
        if (hc_schedule_clone(t, &v) != HC_OK)
            return;
        v->window = 0;
        v->window_bdp_factor = bdp_more[k] * lf * bf;
        offer(pb, 1, v, best);
    }
}

/* A segmented broadcast's segment size comes from its own per-pair model, which on a platform
 * with links misjudges what the pieces' sharing of the links costs (small pieces on a NIC-bound
 * fat tree: 0.020 s with 64 KiB pieces, 0.0103 s with 4 KiB). On such a platform the runtime
 * also tries 2x its size and 1/2 to 1/16 of it (not below 1 KiB, at most max(HC__MAX_EVENTS,
 * its events) events for the flow replay), each with the window rule of hc_schedule_exec_windows
 * and with a window of HC__WINDOW_TRY sends, then 1/2 and 2x that window on the best, and keeps the
 * one the flow model predicts fastest in *s. The rule covers the largest latency with the
 * quickest transfers; a node that feeds two children which also receive from another parent
 * (two-tree) keeps its NIC busy only with more in flight (fat tree, 1 MiB in 4 KiB pieces:
 * 0.0153 s with the rule's window, 0.0101 s with 8). Under SMPI's factors
 * (HETCOLL_FLOW_MODEL=smpi) the floor tried is smpi_window's instead: the fixed floors were
 * never kept there (fat tree 64 KiB and 1 MiB, 3-site grid 64 KiB: the same choices) and cost
 * replays. */
#define HC__WINDOW_TRY 8u
static void window_variant(const hc_problem_t *pb, int smpi, const hc_schedule_t *from,
                           uint32_t window, hc_schedule_t **best)
{
    hc_schedule_t *t = NULL;
    if (from->window != window && hc_schedule_clone(from, &t) == HC_OK) {
        t->window = window;
        offer(pb, smpi, t, best);
    }
}

/* Under SMPI's factors (HETCOLL_FLOW_MODEL=smpi) a piece's latency and rate depend on its
 * size (pieces of 5761 to 9360 B: 2.19 x the latency, 1.087 x the bandwidth), which the window
 * rule (plain latency x bandwidth) does not see: 8 KiB pieces over the 3-site grid's WAN need
 * 38 in flight where the rule gives 17 (1 MiB: predicted 0.317 s with 17, 0.231 s with 38,
 * which SMPI ran in 0.231 s). The window that covers the largest bandwidth-delay product of
 * s's sends with those factors, as a floor (0: no more than the rule's cap). A reduction
 * (piece: its segment) gets the window its longest edges need whatever the rule's cap
 * (hc_schedule_reduce_node_window takes it as a floor on those edges' nodes): 1 MiB on the
 * 3-site grid in 8 KiB pieces, 0.1860 s predicted with the rule's 17, 0.1632 s with 38. */
static uint32_t smpi_window_at(const hc_problem_t *pb, const hc_schedule_t *s, uint64_t piece,
                               int every);
static uint32_t smpi_window(const hc_problem_t *pb, const hc_schedule_t *s, uint64_t piece)
{
    return smpi_window_at(pb, s, piece, 0);
}

/* smpi_window with every event counted at `piece` bytes when `every` (else at most that). */
static uint32_t smpi_window_at(const hc_problem_t *pb, const hc_schedule_t *s, uint64_t piece,
                               int every)
{
    const hc_platform_t *p = pb->platform;
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = 1;
    double need = 0;
    for (size_t i = 0; p && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        double b = e->bytes ? (double)e->bytes : (double)pb->msg_bytes, lf, bf;
        if (piece && (every || b > (double)piece))
            b = (double)piece;
        if (!(b > 0))
            continue;
        hc_flow_factors(&fo, b, &lf, &bf);
        double w = 1 + ceil(hc_platform_latency(p, e->src, e->dst) * lf *
                            hc_platform_bandwidth(p, e->src, e->dst) * bf / b);
        need = w > need ? w : need;
    }
    if (need <= (piece ? 2 : HC_EXEC_MAX_WINDOW))
        return 0;
    return need >= HC_EXEC_MAX_BDP_WINDOW ? HC_EXEC_MAX_BDP_WINDOW : (uint32_t)need;
}

/* Bytes of a segmented broadcast's first piece (0: none). */
static uint64_t first_piece(const hc_schedule_t *s, uint64_t m)
{
    for (size_t i = 0; i < s->n_events; i++)
        if (s->events[i].seg == 0 && s->events[i].bytes != m)
            return s->events[i].bytes;
    return 0;
}

/* An algorithm that ramps its pieces (opts->ramp_pieces: multitree) run again with a ramp of
 * HC__RAMP_TRY pieces at segment size seg (0: its own) and offered when predicted
 * HC__VARIANT_GAIN faster than `flat`, the same with equal pieces (predicted). Nothing when
 * the algorithm ignores the ramp (the same first piece: not worth a replay). */
#define HC__RAMP_TRY 8u
static void ramp_offer(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                       uint64_t seg, int smpi, const hc_schedule_t *flat, hc_schedule_t **best)
{
    hc_algo_opts_t v = *o;
    v.segment_bytes = seg ? seg : o->segment_bytes;
    v.ramp_pieces = HC__RAMP_TRY;
    hc_schedule_t *t = NULL;
    if (hc_schedule_compute(pb, name, &v, &t) != HC_OK ||
        first_piece(t, pb->msg_bytes) == first_piece(flat, pb->msg_bytes) ||
        flow_predict(pb, t, smpi) != HC_OK || !(t->makespan < HC__VARIANT_GAIN * flat->makespan)) {
        hc_schedule_destroy(t);
        return;
    }
    keep(t, best);
}

/* Under SMPI's factors, the algorithm in pieces of seg ramped over HC__RAMP_TRY, 2x and 4x
 * that many pieces, at window `window` (0: the rule), each predicted and kept in *best when
 * fastest; `first` is the equal pieces' first piece (a ramp that leaves it: no ramp). */
static void smpi_ramps(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                       uint64_t seg, uint32_t window, uint64_t first, hc_schedule_t **best)
{
    for (uint32_t r = HC__RAMP_TRY; r <= 4 * HC__RAMP_TRY; r *= 2) {
        hc_algo_opts_t v = *o;
        v.segment_bytes = seg;
        v.ramp_pieces = r;
        hc_schedule_t *t = NULL;
        if (hc_schedule_compute(pb, name, &v, &t) != HC_OK ||
            first_piece(t, pb->msg_bytes) == first) {
            hc_schedule_destroy(t); /* the algorithm does not ramp */
            return;
        }
        t->window = window;
        offer(pb, 1, t, best);
    }
}

/* Under SMPI's factors (HETCOLL_FLOW_MODEL=smpi) the pieces a sender posts together share
 * its link and complete together, after which the link idles a latency (2.19 x the route's
 * for 8 KiB pieces) before the next ones flow: the window and the ramp (smpi_ramps, per
 * segment size) that stagger the completions matter more than the plain rule says. After the
 * segment sizes, the best is tried with 3/2 and 2 x its window (at least HC__WINDOW_TRY).
 * The 3-site grid of 63 ranks, 1 MiB in 8 KiB pieces at the window of 38: 0.2307 s predicted
 * with equal pieces, 0.2015 s ramped over 8, 0.1799 s over 16 (SMPI ran 0.1796 s); 16 MiB:
 * 2.417 s in 258 KiB pieces ramped over 8, 2.300 s in 126 KiB ones ramped over 16 (2.305 s). */
static void smpi_refine(const hc_problem_t *pb, hc_schedule_t **best)
{
    if (!*best)
        return;
    const uint32_t w0 = (*best)->window > HC__WINDOW_TRY ? (*best)->window : HC__WINDOW_TRY;
    hc_schedule_t *b = NULL;
    if (w0 == HC_WINDOW_ALL || hc_schedule_clone(*best, &b) != HC_OK)
        return;
    for (uint32_t k = 3; k <= 4; k++) {
        uint32_t w = (w0 * k + 1) / 2;
        window_variant(pb, 1, b, w < HC_EXEC_MAX_BDP_WINDOW ? w : HC_EXEC_MAX_BDP_WINDOW, best);
    }
    hc_schedule_destroy(b);
}

/* Under SMPI's factors a segmented broadcast's pieces between sites also go as sub-messages of at
 * most this many bytes (hc_schedule_t.segment_bytes with piece_groups, the platform's clusters):
 * SimGrid's class of 1411 to 3468 B pays 1.61 x a route's latency against 2.19 x for a piece of
 * its best class (0.609 bytes per unit of capacity against 1.087, hc_flow_factors), 3 ms less
 * per wide-area hop on grid5000 (stripes, 1 MiB: 0.0353 s predicted and 0.0354 s in SMPI in
 * whole 9360 B pieces; cut in three, 0.0315 s predicted). */
#define HC__SMPI_LOW_LAT_TOP_BYTES 3468u

/* The runtime's piece groups on p (P nodes): each node's cluster, unlabelled nodes each their
 * own group after the clusters' (ids stay below P). malloc'd (NULL when out of memory); *n:
 * the groups; *pair: 1 when one of them has two nodes or more. */
static int32_t *cluster_groups(const hc_platform_t *p, uint32_t P, uint32_t *n, int *pair)
{
    int32_t *g = malloc(sizeof *g * (P + 1));
    uint32_t *cnt = calloc(P + 1, sizeof *cnt);
    int32_t next = (int32_t)hc_platform_cluster_count(p);
    *pair = 0;
    for (uint32_t v = 0; g && cnt && v < P; v++) {
        const int32_t k = hc_platform_cluster_of(p, v);
        g[v] = k >= 0 ? k : next++;
        *pair |= ++cnt[g[v]] == 2;
    }
    *n = (uint32_t)next;
    if (!cnt) {
        free(g);
        g = NULL;
    }
    free(cnt);
    return g;
}

/* from (a segmented broadcast or a reduction on a platform of two clusters or more) with its
 * pieces (a reduction's segments) between clusters in sub-messages of at most `bytes`
 * (hc_schedule_t.segment_bytes of a broadcast, split_bytes of a reduction; piece_groups: the
 * clusters, unlabelled nodes each their own) and its note saying so, or NULL. */
static hc_schedule_t *split_clone(const hc_problem_t *pb, const hc_schedule_t *from, uint64_t bytes)
{
    const hc_platform_t *p = pb->platform;
    const uint32_t nc = p ? hc_platform_cluster_count(p) : 0;
    const int bcast = from->coll == HC_COLL_BCAST;
    hc_schedule_t *t = NULL;
    if (nc < 2 || (bcast && (from->n_segments < 2 || from->parent2 || from->segment_bytes)) ||
        (!bcast && (from->coll != HC_COLL_REDUCE || from->split_bytes)) ||
        hc_schedule_clone(from, &t) != HC_OK)
        return NULL;
    uint32_t ng;
    int pair;
    if (!(t->piece_groups = cluster_groups(p, t->P, &ng, &pair))) {
        hc_schedule_destroy(t);
        return NULL;
    }
    if (bcast)
        t->segment_bytes = bytes;
    else
        t->split_bytes = bytes;
    /* first: hc_comm_last_note keeps a note's first 159 characters */
    if (hc_schedule_set_note(t, "across sites in messages of at most %llu B; %s",
                             (unsigned long long)bytes,
                             from->note ? from->note : from->algorithm) != HC_OK)
        hc_error_clear(); /* words only */
    return t;
}

/* 1 when some piece of s crossing clusters (a reduction's: a segment) would save more latency
 * in sub-messages of HC__SMPI_LOW_LAT_TOP_BYTES (SimGrid's factors: 1.61 instead of up to 2.19 x
 * its route's) than the transfer it adds at their lower rate (0.609 bytes per unit of capacity
 * against up to 1.087), its route alone: a 3-site grid's or grid5000's pieces (5 to 12 ms
 * apart: 3 ms saved per hop, 54 us added on 1 Gb/s), not a fat tree's (microseconds apart),
 * whose replays are the planner's longest. */
static int split_pays(const hc_problem_t *pb, const hc_schedule_t *s)
{
    const hc_platform_t *p = pb->platform;
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = 1;
    const uint64_t seg = s->coll == HC_COLL_REDUCE ? hc_schedule_reduce_segment(s, p) : 0;
    for (size_t i = 0; p && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        const uint64_t b = seg && seg < e->bytes ? seg : e->bytes;
        if (hc_platform_cluster_of(p, e->src) == hc_platform_cluster_of(p, e->dst) ||
            b <= HC__SMPI_LOW_LAT_TOP_BYTES)
            continue;
        const uint64_t q = (b + HC__SMPI_LOW_LAT_TOP_BYTES - 1) / HC__SMPI_LOW_LAT_TOP_BYTES;
        double lw, bw, ls, bs;
        hc_flow_factors(&fo, (double)b, &lw, &bw);
        hc_flow_factors(&fo, (double)b / (double)q, &ls, &bs);
        const double saved = hc_platform_latency(p, e->src, e->dst) * (lw - ls);
        const double added =
            (double)b / hc_platform_bandwidth(p, e->src, e->dst) * (1 / bs - 1 / bw);
        if (saved > added)
            return 1;
    }
    return 0;
}

/* A broadcast's pieces, or a reduction's segments, across sites (hc_comm_t.bcast_split,
 * reduce_split): never (0); every segmented broadcast or reduction in sub-messages of `split`
 * bytes (> 0, predicted again); or, under SMPI's factors (-1, auto), *s in sub-messages of
 * HC__SMPI_LOW_LAT_TOP_BYTES (a broadcast at its window and at 3/2 and 2 x it), kept when
 * predicted HC__VARIANT_GAIN faster. */
static void split_variants(const hc_problem_t *pb, int smpi, int64_t split, hc_schedule_t **s)
{
    if (split == 0 || (split < 0 && !smpi))
        return;
    if (split < 0 && !split_pays(pb, *s))
        return;
    hc_schedule_t *t =
        split_clone(pb, *s, split > 0 ? (uint64_t)split : HC__SMPI_LOW_LAT_TOP_BYTES);
    if (!t)
        return;
    if (split > 0) {
        if (flow_predict(pb, t, smpi) == HC_OK) {
            hc_schedule_destroy(*s);
            *s = t;
        } else {
            hc_schedule_destroy(t);
        }
        hc_error_clear();
        return;
    }
    hc_schedule_t *best = NULL;
    const int bcast = t->coll == HC_COLL_BCAST;
    offer(pb, 1, t, &best);
    /* a broadcast's window x 3/2 and 2; a reduction's windows already hold its trees' segments
     * (grid5000, stripes in sub-messages: the same prediction at 1, 3/2 and 2 x, 1 and 16 MiB;
     * each replay of the 16 MiB one takes 5 s) */
    if (bcast)
        smpi_refine(pb, &best);
    settle(best, s);
    hc_error_clear();
}

/* SimGrid's default smpi/bw-factor steps: pieces from HC__SMPI_LARGE_BYTES move 0.94 bytes per
 * unit of capacity, from HC__SMPI_MID_BYTES up to it 0.70 (hc_flow_factors). */
#define HC__SMPI_MID_BYTES 15424u
#define HC__SMPI_LARGE_BYTES 65472u
/* The largest message of SimGrid's best size class (1.087 bytes per unit of capacity, 2.19
 * latencies: 5761 to 9360 B, hc_flow_factors). */
#define HC__SMPI_BEST_TOP_BYTES 9360u
#define HC__SMPI_BEST_BOTTOM_BYTES 5761u
/* Pieces of the best class alternating with these (hc_algo_opts_t.alternate_bytes, API 25):
 * pieces a sender posts together end together in SimGrid's fair sharing and, refilled
 * together, stay in lock step, paying each window's latency once more; two sizes keep them
 * apart. grid5000, 16 MiB multitree, flow model (SMPI's factors), at the window rule x 2 the
 * class's factor: 9360 B pieces alone 0.1988 s (their best, at 4 x); alternating with 5762,
 * 5850, 6200, 6700, 7300 and 8000 B ones 0.1849, 0.1846, 0.1845, 0.1857, 0.1870 and 0.1944 s. */
#define HC__SMPI_ALT_BYTES 5850u
/* Under SMPI's factors a broadcast is also tried in pieces of that class, in up to this many
 * events: grid5000's 16 MiB in 9360 B pieces makes 41239 (replayed in 0.1 s); the runtime's
 * choice there went from multitree in 64 KiB pieces (0.516 s predicted, 0.509 s in SMPI) to
 * pipeline in 9360 B pieces (0.240 s, 0.2397 s in SMPI). The 3-site grid's 16 MiB over 63
 * ranks makes 111166 (replayed in 0.5 to 3 s, the more in flight the longer). */
#define HC__MAX_EVENTS_BEST_CLASS 131072
/* The segment size at which a ramp of r pieces keeps its middle pieces within `top` bytes:
 * ramped pieces weigh min(j + 1, r, K - j) (hc__bc_ramp_offsets in the scheduling layer, whose
 * weights are not exported to the runtime), so the middle ones carry
 * m x r / (sum of the weights), more than m / K. 0: none within 4096 pieces. */
static uint64_t ramp_class_segment(uint64_t m, uint32_t r, uint64_t top)
{
    for (uint64_t k = m / top + 1; top > 0 && k <= 4096 && k < m; k++) {
        const uint64_t seg = (m + k - 1) / k, kk = (m + seg - 1) / seg;
        uint64_t total = 0;
        for (uint64_t j = 0; j < kk; j++) {
            uint64_t w = j + 1 < r ? j + 1 : r;
            total += kk - j < w ? kk - j : w;
        }
        if (total > 0 && (double)m * r / (double)total <= (double)top)
            return seg;
    }
    return 0;
}

/* Under SMPI's factors, ramps of class_ramps_r pieces whose middle pieces stay in the best size
 * class (smpi_ramps' ramps enlarge them out of it: 8 KiB pieces ramped over 32 make middle ones
 * of 10810 B, 0.59 bytes per unit of capacity). A ramp staggers the completions of the
 * pieces a sender posts together (smpi_ramps); a longer one staggers them over more of a WAN
 * latency and needs more in flight: each is tried at 1, 3/2 and 2 x the window that covers its
 * middle pieces' bandwidth-delay product (smpi_window_at). 3-site grid, 63 ranks, 1 MiB
 * multitree (flow model, SMPI's factors): before, ramped over 16 in 8 KiB pieces at 38 in
 * flight, 0.1795 s; at the windows 33, 50 and 66, ramped over 16 in 8192 B pieces 0.1822,
 * 0.1785, 0.1768 s, over 32 in 7282 B pieces 0.1945, 0.1605, 0.1617 s, over 48 in 6554 B
 * pieces 0.2062, 0.1748, 0.1616 s (SMPI ran the 0.1605 s one in 0.1610 s). */
static const uint32_t class_ramps_r[] = {16, 32, 48};
/* The fastest of class_ramps' candidates again with its last pieces on the direct site tree
 * (hc_algo_opts_t.tail_direct_pieces: multitree), tails of these fractions of its pieces:
 * on the 3-site grids (63 ranks, 1 MiB in 144 pieces ramped over 32, 50 in flight) the flow
 * model under SMPI's factors gave 0.1605 s without a tail, 0.1541, 0.1529, 0.1521, 0.1519 and
 * 0.1525 s with 21, 24, 26, 28 and 30 pieces, 0.1545 s with 32. Nothing when the algorithm
 * ignores the option (the same schedule as base, the candidate computed with seg and r). */
static const double tail_direct_frac[] = {1.0 / 6, 2.0 / 11, 1.0 / 5};
static void tail_variants(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                          uint64_t seg, uint32_t r, uint32_t window, const hc_schedule_t *base,
                          hc_schedule_t **best)
{
    hc_algo_opts_t v = *o;
    v.segment_bytes = seg;
    v.ramp_pieces = r;
    uint32_t prev = 0;
    for (size_t i = 0; i < sizeof tail_direct_frac / sizeof *tail_direct_frac; i++) {
        const uint32_t d = (uint32_t)lround(tail_direct_frac[i] * base->n_segments);
        if (d == 0 || d == prev)
            continue;
        prev = d;
        v.tail_direct_pieces = d;
        hc_schedule_t *t = NULL;
        if (hc_schedule_compute(pb, name, &v, &t) != HC_OK || same_shape(t, base)) {
            hc_schedule_destroy(t); /* the algorithm ignores the tail */
            break;
        }
        t->window = window;
        offer(pb, 1, t, best);
    }
    hc_error_clear();
}

static void class_ramps(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                        double max_events, hc_schedule_t **best)
{
    const uint64_t m = pb->msg_bytes;
    /* the fastest candidate: its ramp, segment and window */
    double fastest = INFINITY;
    uint64_t f_seg = 0;
    uint32_t f_r = 0, f_w = 0;
    hc_schedule_t *f = NULL; /* its schedule, tail_variants' base */
    for (size_t i = 0; i < sizeof class_ramps_r / sizeof *class_ramps_r; i++) {
        const uint32_t r = class_ramps_r[i];
        const uint64_t seg = ramp_class_segment(m, r, HC__SMPI_BEST_TOP_BYTES);
        hc_algo_opts_t v = *o;
        v.segment_bytes = seg;
        v.ramp_pieces = r;
        hc_schedule_t *t = NULL;
        if (seg == 0 || hc_schedule_compute(pb, name, &v, &t) != HC_OK ||
            (double)t->n_events > max_events || first_piece(t, m) * r > 2 * seg) {
            /* (a ramp's first piece is about a middle one / r; an algorithm that ignores the
             * ramp starts with a whole segment) */
            hc_schedule_destroy(t);
            hc_error_clear();
            break;
        }
        uint32_t w = smpi_window_at(pb, t, HC__SMPI_BEST_TOP_BYTES, 1);
        w = w > HC__WINDOW_TRY ? w : HC__WINDOW_TRY;
        for (uint32_t k = 2; k <= 4; k++) {
            const uint32_t wk = (w * k + 1) / 2;
            hc_schedule_t *c = NULL;
            if (hc_schedule_clone(t, &c) != HC_OK)
                break;
            c->window = wk < HC_EXEC_MAX_BDP_WINDOW ? wk : HC_EXEC_MAX_BDP_WINDOW;
            if (flow_predict(pb, c, 1) != HC_OK) {
                hc_schedule_destroy(c);
                continue;
            }
            if (c->makespan < fastest) {
                fastest = c->makespan;
                f_seg = seg;
                f_r = r;
                f_w = c->window;
                if (f != t) {
                    hc_schedule_destroy(f);
                    f = t;
                }
            }
            keep(c, best);
        }
        if (t != f)
            hc_schedule_destroy(t);
    }
    if (f)
        tail_variants(pb, name, o, f_seg, f_r, f_w, f, best);
    hc_schedule_destroy(f);
}

/* The best class's pieces t again alternating with HC__SMPI_ALT_BYTES ones, at bdp_variant's
 * windows; nothing when the algorithm ignores the option or the replay would exceed max_events
 * (grid5000's 16 MiB: 2207 pieces, 50761 events). */
static void alternate_variant(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                              const hc_schedule_t *t, double max_events, hc_schedule_t **best)
{
    hc_algo_opts_t v = *o;
    v.segment_bytes = HC__SMPI_BEST_TOP_BYTES;
    v.alternate_bytes = HC__SMPI_ALT_BYTES;
    hc_schedule_t *a = NULL;
    if (hc_schedule_compute(pb, name, &v, &a) == HC_OK && !same_shape(a, t) &&
        (double)a->n_events <= max_events)
        bdp_variant(pb, a, HC__SMPI_BEST_TOP_BYTES, best);
    hc_schedule_destroy(a);
    hc_error_clear();
}

static void seg_variants(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                         int smpi, hc_schedule_t **s)
{
    const uint64_t m = pb->msg_bytes;
    if ((*s)->n_segments < 2 || m == 0)
        return;
    const uint64_t seg0 = (m + (*s)->n_segments - 1) / (*s)->n_segments;
    const double cap =
        (*s)->n_events > HC__MAX_EVENTS ? (double)(*s)->n_events : (double)HC__MAX_EVENTS;
    /* seg0 itself: its own windows under SMPI's factors (the schedule has the rule's); last,
     * under SMPI's factors, 65472 B when a size tried lies in SMPI's middle band (15424 to
     * 65471 B: 0.70 bytes per unit of capacity, 0.94 from 65472 B on, but 3.49 latencies
     * instead of 11.6): 3-site grid, 16 MiB, m / 260 = 64528 B pieces were predicted 3.07 s,
     * 65472 B ones 2.60 s (at the rule's windows); on grid5000 32 KiB pieces stay the best */
    uint64_t tries[] = {seg0, 2 * seg0, seg0 / 2, seg0 / 4, seg0 / 8, seg0 / 16, 0, 0, 0};
    const size_t n_tries = sizeof tries / sizeof *tries;
    for (size_t i = 0; smpi && i + 3 < n_tries; i++)
        if (tries[i] >= HC__SMPI_MID_BYTES && tries[i] < HC__SMPI_LARGE_BYTES)
            tries[n_tries - 3] = HC__SMPI_LARGE_BYTES;
    /* the best class's smallest pieces (the most pieces, the shortest pipeline fill: fat tree,
     * 64 KiB, two-tree in 5958 B pieces, 2 in flight: 1.13 ms predicted, against 1.26 ms in
     * 8 KiB ones), and its largest (their own event cap) */
    if (smpi && m / HC__SMPI_BEST_BOTTOM_BYTES >= 2) {
        const uint64_t n = m / HC__SMPI_BEST_BOTTOM_BYTES;
        tries[n_tries - 2] = (m + n - 1) / n;
    }
    if (smpi)
        tries[n_tries - 1] = HC__SMPI_BEST_TOP_BYTES;
    const int floors = !smpi;
    hc_schedule_t *best = NULL;
    if (!smpi) /* under SMPI's factors: smpi_ramps, per segment size */
        ramp_offer(pb, name, o, 0, smpi, *s, &best);
    if (floors)
        window_variant(pb, smpi, *s, HC__WINDOW_TRY, &best);
    for (size_t i = 0; i < n_tries; i++) {
        const uint64_t seg = tries[i];
        int again = 0;
        for (size_t j = 0; j < i; j++)
            again |= tries[j] == seg;
        if (again)
            continue;
        const double cap_i =
            i == n_tries - 1 && cap < HC__MAX_EVENTS_BEST_CLASS ? HC__MAX_EVENTS_BEST_CLASS : cap;
        if (i == 0 ? !smpi
                   : seg < 1024 || seg >= m ||
                         (double)(*s)->n_events * (double)seg0 / (double)seg > cap_i)
            continue;
        hc_algo_opts_t v = *o;
        v.segment_bytes = seg;
        hc_schedule_t *t = NULL;
        if (i == 0 ? hc_schedule_clone(*s, &t) != HC_OK /* predicted */
                   : hc_schedule_compute(pb, name, &v, &t) != HC_OK ||
                         flow_predict(pb, t, smpi) != HC_OK) {
            hc_schedule_destroy(t);
            continue;
        }
        hc_schedule_t *w = NULL;
        uint32_t sw = smpi ? smpi_window(pb, t, 0) : HC__WINDOW_TRY;
        if ((floors || sw) && hc_schedule_clone(t, &w) == HC_OK) {
            w->window = sw;
            offer(pb, smpi, w, &best);
        }
        /* the best class's pieces are not ramped: a ramp enlarges the pieces between its ends
         * out of the class */
        const int ramps = i != n_tries - 1;
        if (smpi)
            bdp_variant(pb, t, seg, &best);
        if (smpi && i == n_tries - 1)
            alternate_variant(pb, name, o, t, cap_i, &best);
        /* where the rule's window covers the latencies (sw 0) it is one send at a time on
         * short links, and a node feeding two children (two-tree) keeps its NIC busy only
         * with 2 (fat tree, 64 KiB in 8 KiB pieces under SMPI's factors: 1.49 ms with the rule,
         * 1.26 ms with 2, 1.51 ms with 3) */
        for (uint32_t sw_small = 2; smpi && sw == 0 && sw_small <= 3; sw_small++)
            window_variant(pb, smpi, t, sw_small, &best);
        if (smpi && ramps)
            smpi_ramps(pb, name, o, seg, sw, first_piece(t, m), &best);
        if (ramps && (smpi ? sw != 0 : i > 0)) /* at the rule's windows (seg0's: above) */
            ramp_offer(pb, name, o, seg, smpi, t, &best);
        keep(t, &best);
    }
    if (smpi)
        class_ramps(pb, name, o, cap, &best);
    if (best && best->window == HC__WINDOW_TRY) {
        hc_schedule_t *b = NULL;
        if (hc_schedule_clone(best, &b) == HC_OK) {
            window_variant(pb, smpi, b, HC__WINDOW_TRY / 2, &best);
            window_variant(pb, smpi, b, 2 * HC__WINDOW_TRY, &best);
        }
        hc_schedule_destroy(b);
    }
    if (smpi)
        smpi_refine(pb, &best);
    settle(best, s);
    hc_error_clear();
}

/* A reduction's segment size worth a replay: at least 1 KiB, below the largest transfer
 * (`most` bytes), and at most `cap` pieces (`bytes0`: the pieces at the rule's segment times
 * that segment). */
static int usable_reduce_segment(uint64_t seg, double most, double bytes0, double cap)
{
    return seg >= 1024 && (double)seg < most && bytes0 / (double)seg <= cap;
}

/* A reduction's pipeline segment (hc_schedule_reduce_segment's rule: 64 KiB or 4 x the largest
 * bandwidth-delay product) is likewise a guess; on a platform with links the runtime tries 2x
 * and 1/2 to 1/16 of it (not below 1 KiB, below the largest transfer, at most max(HC__MAX_EVENTS,
 * its pieces) pieces) and keeps the flow model's fastest as the schedule's segment_bytes. An
 * algorithm that shapes its trees by the segment (multitree: the fan-out inside the sites) is
 * run again with it, and with twice it (3-site grid under SMPI's defaults, 1 MiB: the tree
 * shaped for 16 KiB in 8 KiB pieces, predicted 0.1756 s, against 0.1860 s shaped for 8 KiB);
 * an exact search's tree is kept. Under SMPI's factors, also SimGrid's best class where the cap
 * keeps it out, and 3 in flight where the best has the rule's window (below). */
static void reduce_seg_variants(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                                int smpi, hc_schedule_t **s)
{
    const hc_platform_t *p = pb->platform;
    const uint64_t seg0 = hc_schedule_reduce_segment(*s, p);
    const hc_algo_info_t *info = NULL;
    const int rerun = hc_algo_find(HC_COLL_REDUCE, name, &info) == HC_OK &&
                      !(info->flags & (HC_ALGO_EXACT | HC_ALGO_SELECTOR));
    double most = 0, pieces0 = 0;
    for (size_t i = 0; i < (*s)->n_events; i++) {
        const hc_event_t *e = &(*s)->events[i];
        double b = e->bytes ? (double)e->bytes : (double)pb->msg_bytes;
        most = b > most ? b : most;
        pieces0 += ceil(b / (double)seg0);
    }
    const double cap = pieces0 > HC__MAX_EVENTS ? pieces0 : (double)HC__MAX_EVENTS;
    uint64_t tries[] = {2 * seg0, seg0 / 2, seg0 / 4, seg0 / 8, seg0 / 16, 0};
    const size_t n_tries = sizeof tries / sizeof *tries;
    /* under SMPI's factors, where the cap keeps SimGrid's best class out, last its largest
     * pieces in up to HC__MAX_EVENTS_BEST_CLASS, on the same tree (their replays are the longest;
     * fat tree, 16 MiB multitree: shaped for 64 KiB or for 9360 B, predicted the same to 1e-6).
     * Not within the cap: grid5000's 1 MiB multitree in 8 KiB pieces on the sites' two trees
     * (0.04247 s predicted, 0.04185 s in SMPI) lost its 5 % margin to 9360 B pieces on the
     * algorithm's trees (0.04304 s, 0.04305 s). Nor the class's smallest pieces: the fat tree's
     * 64 KiB two-tree in 6554 B pieces was predicted 0.00144 s, against 0.00159 s in 4 KiB ones,
     * and ran 0.00183 s, against 0.00165 s. */
    if (smpi && pieces0 * (double)seg0 / HC__SMPI_BEST_TOP_BYTES > cap)
        tries[n_tries - 1] = HC__SMPI_BEST_TOP_BYTES;
    hc_schedule_t *best = NULL;
    for (size_t i = 0; i < n_tries; i++) {
        const uint64_t seg = tries[i];
        const int best_class = i == n_tries - 1;
        const double cap_i =
            best_class && cap < HC__MAX_EVENTS_BEST_CLASS ? HC__MAX_EVENTS_BEST_CLASS : cap;
        if (!usable_reduce_segment(seg, most, pieces0 * (double)seg0, cap_i))
            continue;
        /* the same tree, then one shaped for seg, then one shaped for 2 seg */
        for (int again = 0; again <= (best_class ? 0 : 2) * rerun; again++) {
            hc_schedule_t *t = NULL;
            hc_algo_opts_t v = *o;
            v.segment_bytes = again == 2 ? 2 * seg : seg;
            if ((again ? hc_schedule_compute(pb, name, &v, &t) : hc_schedule_clone(*s, &t)) !=
                HC_OK)
                continue;
            t->segment_bytes = seg;
            hc_schedule_t *w = NULL;
            const uint32_t sw = smpi ? smpi_window(pb, t, seg) : 0;
            if (sw && hc_schedule_clone(t, &w) == HC_OK) {
                w->window = sw;
                offer(pb, smpi, w, &best);
            }
            offer(pb, smpi, t, &best);
        }
    }
    /* under SMPI's factors, 3/2 of the best's window too (completions come in bursts); the
     * rule's (0) counts as its floor, 2 (fat tree, 16 MiB multitree in 9360 B pieces: 0.1610 s
     * predicted at the rule's window, 0.1408 s with 3) */
    hc_schedule_t *b = NULL;
    if (smpi && best && best->window != HC_WINDOW_ALL && hc_schedule_clone(best, &b) == HC_OK) {
        const uint32_t w0 = best->window ? best->window : 2;
        uint32_t w = (3 * w0 + 1) / 2;
        window_variant(pb, smpi, b, w < HC_EXEC_MAX_BDP_WINDOW ? w : HC_EXEC_MAX_BDP_WINDOW, &best);
    }
    hc_schedule_destroy(b);
    settle(best, s);
    hc_error_clear();
}

typedef void (*hc__variants_fn)(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                                int smpi, hc_schedule_t **s);

/* A broadcast's or a reduction's segment variants (seg_variants, reduce_seg_variants), and the
 * same for the algorithm run with the sites' two trees (hc_algo_opts_t.site_trees: multitree;
 * a reduction halves each range over them), which replace it when the flow model predicts
 * them HC__VARIANT_GAIN faster with their own variants. The algorithm's rule picks a chain in
 * sites of up to 10 nodes, where the two trees are barely shallower, and whether their shorter
 * paths beat the chain's single stream depends on how the links share (grid5000's sites of 8,
 * 1 MiB: broadcast predicted 0.0227 s against the chain's 0.0260 s, and SMPI ran 0.0227 s and
 * 0.0260 s; reduction 0.0235 s against 0.0263 s). Nothing when the algorithm ignores the
 * option (the same schedule). */
static void shape_variants(const hc_problem_t *pb, const char *name, const hc_algo_opts_t *o,
                           int smpi, hc_schedule_t **s)
{
    const hc__variants_fn variants = pb->coll == HC_COLL_BCAST ? seg_variants : reduce_seg_variants;
    hc_algo_opts_t v = *o;
    v.site_trees = HC_SITE_TREES_TWO;
    hc_schedule_t *t = NULL;
    if (o->site_trees != HC_SITE_TREES_TWO &&
        (pb->coll == HC_COLL_REDUCE || (*s)->n_segments > 1) &&
        hc_schedule_compute(pb, name, &v, &t) == HC_OK && !same_shape(t, *s) &&
        flow_predict(pb, t, smpi) == HC_OK) {
        variants(pb, name, &v, smpi, &t);
    } else {
        hc_schedule_destroy(t);
        t = NULL;
    }
    variants(pb, name, o, smpi, s);
    settle(t, s);
    hc_error_clear();
}

/* The algorithm on 003's rows problem (with its segment variants), kept in *s (which may be
 * NULL: the algorithm does not plan sender-receiver costs) when the flow model predicts it
 * faster on the platform. */
static void rows_variant(const hc_problem_t *pb, const hc_problem_t *rows, const char *name,
                         const hc_algo_opts_t *o, int smpi, hc_schedule_t **s)
{
    hc_schedule_t *t = NULL;
    if (hc_schedule_compute(rows, name, o, &t) == HC_OK && flow_predict(pb, t, smpi) == HC_OK) {
        reduce_seg_variants(pb, name, o, smpi, &t);
        if (!*s || t->makespan < (*s)->makespan) {
            hc_schedule_destroy(*s);
            *s = t;
            t = NULL;
        }
    }
    hc_schedule_destroy(t);
    hc_error_clear();
}

/* s's receives round-robin (HC_RECV_ROUND_ROBIN) and its note saying so (hc_comm_last_note). */
static int set_round_robin(hc_schedule_t *s)
{
    s->recv_order = HC_RECV_ROUND_ROBIN;
    return s->window && s->window != HC_WINDOW_ALL
               ? hc_schedule_set_note(s,
                                      "%s: pieces of %llu B, %u receives in flight per rank, "
                                      "round-robin over its messages, every send posted",
                                      s->algorithm, (unsigned long long)s->segment_bytes, s->window)
               : hc_schedule_set_note(s, "%s, receives round-robin",
                                      s->note ? s->note : s->algorithm);
}

/* set_round_robin, and s's prediction the flow model's again; 0 when that fails (s unusable). */
static int round_robin(const hc_problem_t *pb, hc_schedule_t *s, int smpi)
{
    return set_round_robin(s) == HC_OK && flow_predict(pb, s, smpi) == HC_OK;
}

/* Lead pieces (hc_schedule_t.lead_pieces) tried on *s, every message posted at once, under
 * SimGrid's factors: the messages between the groups farthest apart (their longest route
 * latency at least 3/4 of the longest between groups), or between any two groups, begin with
 * pieces of HC__LEAD_BYTES (in 1411 to 3468 B: their bytes start after 1.61 latencies instead
 * of 2.19, at 0.61 of the rate, so only the first bytes gain), 8 to 48 KiB of them, then the
 * count next to the best. What counts is the lead bytes, not the piece size within the class
 * (the C1-C2 pair led: 7 x 3468 B 0.030834 s, 12 x 2048 B 0.030804 s, 18 x 1411 B 0.030825 s);
 * 2048 B pieces give the finer steps. Groups: s's piece_groups, else the
 * platform's clusters (messages inside one then whole). The search stops at once when neither
 * of its first two tries gains HC__LEAD_PROBE (the exchanges limited by bandwidth alone). The
 * fastest replaces *s when predicted HC__LEAD_GAIN faster. grid5000-links, 64 KiB all-to-all:
 * 8 KiB pieces 0.03324 s; the far sites' messages (12.2 ms apart) beginning with 12 x 2048 B
 * 0.03080 s (8 x 3468 B: 0.03104 s; SMPI 0.03108 s). */
#define HC__LEAD_GAIN 0.99
#define HC__LEAD_BYTES 2048u
#define HC__LEAD_PROBE 0.995
typedef struct {
    const hc_problem_t *pb;
    const hc_schedule_t *from;
    const int32_t *g; /* the groups: from's, or own */
    uint32_t ng;
    const double *lat; /* ng x ng: the longest route latency between two groups */
    double lmax;
    int smpi;
    double max_pieces; /* the transfers a variant may make (piece_variants' budget) */
} lead_ctx_t;

/* from with `count` lead pieces of `lb` bytes between the groups at least far x lmax apart,
 * predicted; NULL when that fails. */
static hc_schedule_t *lead_try(const lead_ctx_t *x, double far, uint64_t lb, uint32_t count)
{
    hc_schedule_t *t = NULL;
    const size_t nn = (size_t)x->ng * x->ng;
    if (hc_schedule_clone(x->from, &t) != HC_OK ||
        !(t->lead_pieces = calloc(nn, sizeof *t->lead_pieces)) ||
        (!t->piece_groups && !(t->piece_groups = malloc(sizeof *x->g * x->from->P)))) {
        hc_schedule_destroy(t);
        return NULL;
    }
    if (x->g != x->from->piece_groups)
        memcpy(t->piece_groups, x->g, sizeof *x->g * x->from->P);
    for (size_t q = 0; q < nn; q++)
        t->lead_pieces[q] = x->lat[q] > 0 && x->lat[q] >= far * x->lmax ? count : 0;
    t->lead_groups = x->ng;
    t->lead_bytes = lb;
    if ((double)hc_schedule_piece_count(t) > x->max_pieces ||
        flow_predict(x->pb, t, x->smpi) != HC_OK ||
        hc_schedule_set_note(t,
                             "%s: pieces of %llu B, the messages between %s beginning with %u "
                             "of %llu B",
                             t->algorithm, (unsigned long long)t->segment_bytes,
                             far > 0 ? "the groups farthest apart" : "groups", count,
                             (unsigned long long)lb) != HC_OK) {
        hc_schedule_destroy(t);
        return NULL;
    }
    return t;
}

static void lead_variants(const hc_problem_t *pb, int smpi, double max_pieces, hc_schedule_t **s)
{
    const hc_platform_t *p = pb->platform;
    hc_schedule_t *from = *s;
    if (!p || hc_platform_size(p) != from->P || from->relay || from->lead_pieces ||
        from->window != HC_WINDOW_ALL || from->segment_bytes <= HC__SMPI_LOW_LAT_TOP_BYTES)
        return;
    uint32_t ng = 0;
    int pair;
    int32_t *own = from->piece_groups ? NULL : cluster_groups(p, from->P, &ng, &pair);
    const int32_t *g = from->piece_groups ? from->piece_groups : own;
    if (!g) {
        hc_error_clear();
        return;
    }
    for (uint32_t v = 0; v < from->P; v++)
        ng = (uint32_t)g[v] + 1 > ng ? (uint32_t)g[v] + 1 : ng;
    double *lat = calloc((size_t)ng * ng, sizeof *lat), lmax = 0;
    for (uint32_t i = 0; lat && i < from->P; i++)
        for (uint32_t j = 0; j < from->P; j++) {
            const size_t q = (size_t)g[i] * ng + (size_t)g[j];
            const double l = g[i] == g[j] ? 0 : hc_platform_latency(p, i, j);
            lat[q] = l > lat[q] ? l : lat[q];
            lmax = l > lmax ? l : lmax;
        }
    const lead_ctx_t x = {pb, from, g, ng, lat, lmax, smpi, max_pieces};
    hc_schedule_t *best = NULL;
    double best_far = 0;
    uint32_t best_n = 0;
    static const double far[] = {0.75, 0};
    static const uint32_t counts[] = {12, 4, 8, 16, 24}; /* x HC__LEAD_BYTES: 8 to 48 KiB */
    int probing = 1;
    for (size_t f = 0; lat && lmax > 0 && f < sizeof far / sizeof *far; f++)
        for (size_t q = 0; q < sizeof counts / sizeof *counts; q++) {
            hc_schedule_t *t = lead_try(&x, far[f], HC__LEAD_BYTES, counts[q]);
            if (t && (!best || t->makespan < best->makespan)) {
                best_far = far[f];
                best_n = counts[q];
            }
            if (t)
                keep(t, &best);
            /* the first two tries: does any lead gain at all? */
            if (probing && q == 1) {
                probing = 0;
                if (!best || best->makespan >= HC__LEAD_PROBE * from->makespan)
                    goto searched;
            }
        }
    for (int d = -2; best && d <= 2; d++) /* the count next to the best */
        if (d != 0 && (int)best_n + d > 0)
            keep_or_drop(lead_try(&x, best_far, HC__LEAD_BYTES, (uint32_t)((int)best_n + d)),
                         &best);
searched:
    free(lat);
    free(own);
    hc_error_clear();
    if (best && best->makespan < HC__LEAD_GAIN * from->makespan) {
        hc_schedule_destroy(from);
        *s = best;
    } else {
        hc_schedule_destroy(best);
    }
}

/* A total exchange in pieces of 64 KiB down to 1 KiB (and, under SMPI's factors, of
 * HC__SMPI_BEST_TOP_BYTES), every message cut (`pieces`) or only those crossing the busiest
 * links (`pieces-cross`, when that is not every message), each piece size below the largest
 * message and within the pieces allowed (HC__MAX_PIECES_BASE, more for long exchanges), predicted
 * by the flow model; the fastest (the fewer transfers among near ties), with a window when near as
 * fast (HC__PIECES_WINDOW_TIE), into *best when predicted HC__VARIANT_GAIN faster than `whole`
 * (post-all's time); with a window, *best again with its receives round-robin into *rr. Where a
 * message's rate depends on its size (HETCOLL_FLOW_MODEL=smpi: SimGrid's factors) pieces of 5761 to
 * 9360 B move 1.087 bytes per unit of capacity, whole 64 KiB messages 0.94, and pay 2.19 latencies
 * instead of 11.6: the fat tree's 64 KiB all-to-all is predicted 0.0274 s in 8 KiB pieces against
 * 0.0317 s whole, gusto's 132 s against 152.8 s and grid5000's 0.0332 s against 0.1499 s. */
static void piece_variants(const hc_problem_t *pb, const hc_algo_opts_t *o, int smpi, double whole,
                           int recv_order, int leads, hc_schedule_t **best, hc_schedule_t **rr)
{
    uint64_t most = 0;
    for (uint32_t i = 0; i < pb->P; i++)
        for (uint32_t j = 0; j < pb->P; j++) {
            uint64_t b = pb->sizes ? (uint64_t)HC_AT(pb->sizes, i, j) : pb->msg_bytes;
            most = i != j && b > most ? b : most;
        }
    hc_schedule_t *fastest = NULL;
    const double max_pieces =
        fmin(HC__MAX_PIECES, fmax(HC__MAX_PIECES_BASE, whole * HC__PIECES_PER_SECOND));
    /* every message cut, or only those crossing the busiest links (the same when every node
     * is its own group: then only once) */
    static const char *const algos[] = {"pieces", "pieces-cross"};
    /* 64 KiB down to 1 KiB; under SMPI's factors also the largest pieces of its best size
     * class (fewer transfers than 8 KiB ones at the same rate) */
    uint64_t segs[8];
    size_t n_segs = 0;
    for (uint64_t seg = 65536; seg >= 1024; seg /= 2)
        segs[n_segs++] = seg;
    if (smpi)
        segs[n_segs++] = HC__SMPI_BEST_TOP_BYTES;
    for (size_t k = 0; k < n_segs; k++) {
        const uint64_t seg = segs[k];
        if (seg >= most)
            continue;
        hc_algo_opts_t v = *o;
        v.segment_bytes = seg;
        for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
            hc_schedule_t *t = NULL;
            if (hc_schedule_compute(pb, algos[a], &v, &t) != HC_OK)
                continue; /* too many pieces */
            if ((double)hc_schedule_piece_count(t) > max_pieces || (a == 1 && !t->piece_groups) ||
                flow_predict(pb, t, smpi) != HC_OK) {
                hc_schedule_destroy(t);
                continue;
            }
            /* within HC__PIECES_TIE of the fastest, the fewer transfers win (each costs the
             * hosts a message, and the simulator an event) */
            const double m = fastest ? fastest->makespan : INFINITY;
            const int fewer =
                fastest && hc_schedule_piece_count(t) < hc_schedule_piece_count(fastest);
            if (t->makespan < m * (1 - HC__PIECES_TIE) ||
                (fewer && t->makespan <= m * (1 + HC__PIECES_TIE))) {
                hc_schedule_destroy(fastest);
                fastest = t;
            } else {
                hc_schedule_destroy(t);
            }
        }
    }
    if (fastest && leads && smpi)
        lead_variants(pb, smpi, max_pieces, &fastest);
    /* the fastest again with windows of pieces in flight, the smallest near enough (not when
     * it loses to whole messages anyway: windowed replays of many pieces cost more, 3-site grid
     * skewed 1 MiB, 378336 pieces: 1.2 s posted at once, 9.7 s with 4 in flight) */
    const int offered = fastest && fastest->makespan < HC__VARIANT_GAIN * whole;
    for (size_t k = 0; offered && fastest->window == HC_WINDOW_ALL && k < HC__PIECES_WINDOWS; k++) {
        hc_schedule_t *t = NULL;
        if (hc_schedule_clone(fastest, &t) != HC_OK)
            break;
        t->window = pieces_windows[k];
        if (flow_predict(pb, t, smpi) == HC_OK &&
            t->makespan <= fastest->makespan * (1 + HC__PIECES_WINDOW_TIE) &&
            hc_schedule_set_note(t, "%s: pieces of %llu B, %u in flight per rank each way",
                                 t->algorithm, (unsigned long long)t->segment_bytes,
                                 pieces_windows[k]) == HC_OK) {
            hc_schedule_destroy(fastest);
            fastest = t;
        } else {
            hc_schedule_destroy(t);
        }
    }
    hc_error_clear();
    if (fastest && recv_order == (int)HC_RECV_ROUND_ROBIN && !round_robin(pb, fastest, smpi)) {
        hc_schedule_destroy(fastest); /* forced (HETCOLL_RECV_ORDER) */
        fastest = NULL;
    }
    if (fastest && fastest->makespan < HC__VARIANT_GAIN * whole)
        *best = fastest;
    else
        hc_schedule_destroy(fastest);
    /* and with its receives round-robin, for the tuner to measure beside it: the flow model sees
     * the windows' lock step, not the noise that breaks it (docs/design.md, "Round-robin
     * receives") */
    hc_schedule_t *t = NULL;
    if (recv_order < 0 && *best && (*best)->window != HC_WINDOW_ALL &&
        hc_schedule_clone(*best, &t) == HC_OK && round_robin(pb, t, smpi)) {
        *rr = t;
        t = NULL;
    }
    hc_schedule_destroy(t);
    hc_error_clear();
}

/* s through site forwarders (hc_schedule_t.relay): its groups the platform's clusters (a node
 * of none, alone), its forwarded messages in pieces of `piece` bytes (0: whole), every message
 * posted at once; its note says so. 0 when the platform has fewer than two clusters, or none
 * of two nodes or more. */
static int set_relay(const hc_problem_t *pb, hc_schedule_t *s, uint64_t piece)
{
    const hc_platform_t *p = pb->platform;
    if (!p || hc_platform_size(p) != s->P || s->coll != HC_COLL_ALLTOALL)
        return 0;
    uint32_t n;
    int pair; /* a group of two nodes at least: else nothing to gather */
    int32_t *g = cluster_groups(p, s->P, &n, &pair);
    if (!g || n < 2 || !pair) {
        free(g);
        return 0;
    }
    free(s->piece_groups);
    s->piece_groups = g;
    s->relay = HC_RELAY_FORWARDERS;
    s->segment_bytes = piece;
    s->window = 0; /* every message at once, whatever the window */
    s->recv_order = HC_RECV_MESSAGES;
    int rc = piece ? hc_schedule_set_note(s,
                                          "%s through site forwarders, forwarded in pieces of "
                                          "%llu B",
                                          s->algorithm, (unsigned long long)piece)
                   : hc_schedule_set_note(s, "%s through site forwarders", s->algorithm);
    if (rc != HC_OK)
        hc_error_clear(); /* words only */
    return 1;
}

/* A total exchange through site forwarders (Jeannot and Steffenel's two phases,
 * hc_schedule_t.relay): post-all `from` with the platform's clusters as groups, its forwarded
 * messages whole and in pieces of SimGrid's best class (under its factors) or of 8 KiB,
 * predicted by the flow model; the fastest into *out when predicted HC__VARIANT_GAIN faster than
 * `whole` (post-all's time), or whatever its time when `forced` (HETCOLL_RELAY=forwarders).
 * Under SimGrid's size classes small blocks gathered into the best class cross a 100 Mb/s
 * uplink three times as fast: the 3-site grid's 1 KiB exchange, 63 ranks, 0.463 s predicted
 * posted at once, 0.163 s in 7168 B forwarded pieces (SMPI: 0.491 s and 0.191 s in 9360 B
 * sends, docs/design.md). */
static void relay_variants(const hc_problem_t *pb, const hc_schedule_t *from, int smpi,
                           double whole, int forced, hc_schedule_t **out)
{
    /* offered for blocks below SimGrid's best class only: from its bottom on, pieces reach
     * it without a second hop (SMPI, 16 KiB: 2.285 s through forwarders, pieces 2.255 s
     * predicted); the plain model sees no gain to gather */
    uint64_t most = 0;
    for (size_t i = 0; i < from->n_events; i++)
        most = from->events[i].bytes > most ? from->events[i].bytes : most;
    if (!forced && (!smpi || most >= HC__SMPI_BEST_BOTTOM_BYTES))
        return;
    const uint64_t pieces[] = {0, smpi ? HC__SMPI_BEST_TOP_BYTES : 8192};
    hc_schedule_t *best = NULL;
    for (size_t k = 0; k < sizeof pieces / sizeof *pieces; k++) {
        hc_schedule_t *t = NULL;
        if (hc_schedule_clone(from, &t) != HC_OK || !set_relay(pb, t, pieces[k]) ||
            flow_predict(pb, t, smpi) != HC_OK) {
            hc_schedule_destroy(t);
            continue;
        }
        keep(t, &best);
    }
    hc_error_clear();
    if (best && (forced || best->makespan < HC__VARIANT_GAIN * whole))
        *out = best;
    else
        hc_schedule_destroy(best);
}

/* Rank 0: the schedules to offer. A forced algorithm gives one. "auto" gives the best
 * predicted schedule and, when `max` > 1, up to max - 1 distinct alternatives predicted within
 * HC__SHORTLIST_RATIO of it, best first: for total exchange the registry's auto (never
 * predicted slower than the pairwise exchange), else every algorithm of the collective flagged
 * HC_ALGO_AUTO in the registry (all but the selectors and TTCC's redundant-tree broadcast, which
 * hedges against errors the prediction does not see), run with the time limit. On a platform with
 * links every collective takes the second way, the MPI library's default included, ranked by
 * the flow network. `pieces`: an exchange may move in byte pieces (piece_variants); `exch`: the
 * redistribution `pb` as a total exchange (exchange_of), whose piece variants compete with the
 * KPBS schedules. `recv_order`: hc_comm_t's (-1: both orders offered, else every exchange in
 * pieces takes it). */
static int plan_pass(const hc_problem_t *pb, const char *name, hc_schedule_t **out, uint32_t max,
                     uint32_t *n_out, double limit, int links, int smpi, int pieces, int recv_order,
                     int relay, const hc_problem_t *exch, int64_t split)
{
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.time_limit_s = limit;
    *n_out = 0;
    /* links: the communicator's platform has links: rank by the flow network (flow_predict) */
    if (strcmp(name, "auto") != 0) {
        int rc = hc_schedule_compute(pb, name, &o, &out[0]);
        if (rc == HC_OK && pb->coll == HC_COLL_ALLTOALL && !pieces)
            out[0]->segment_bytes = 0; /* a datatype with holes: whole messages */
        if (rc == HC_OK && pb->coll == HC_COLL_ALLTOALL && out[0]->segment_bytes &&
            recv_order == (int)HC_RECV_ROUND_ROBIN && set_round_robin(out[0]) != HC_OK)
            hc_error_clear(); /* the note's words only; predicted below */
        if (rc == HC_OK && pb->coll == HC_COLL_ALLTOALL && pieces && relay == 1 &&
            set_relay(pb, out[0], 0)) {
            if (links && flow_predict(pb, out[0], smpi) != HC_OK) /* HETCOLL_RELAY=forwarders */
                hc_error_clear(); /* the per-pair prediction stands */
        } else if (rc == HC_OK && links && flow_predict(pb, out[0], smpi) == HC_OK) {
            /* else the per-pair prediction stands */
            if (pb->coll == HC_COLL_BCAST || pb->coll == HC_COLL_REDUCE)
                shape_variants(pb, name, &o, smpi, &out[0]);
            if (pb->coll == HC_COLL_BCAST || pb->coll == HC_COLL_REDUCE)
                split_variants(pb, smpi, split, &out[0]);
        }
        *n_out = rc == HC_OK;
        return rc;
    }
    if (pb->coll == HC_COLL_ALLTOALL && !links) {
        int rc = hc_schedule_compute(pb, "auto", &o, &out[0]);
        hc_schedule_t *pair = NULL;
        if (rc == HC_OK && pb->coll == HC_COLL_ALLTOALL &&
            hc_schedule_compute(pb, "caterpillar", &o, &pair) == HC_OK) {
            if (pair->makespan < out[0]->makespan) {
                hc_schedule_t *t = out[0];
                out[0] = pair;
                pair = t;
            }
            if (max > 1 && !same_shape(out[0], pair) &&
                pair->makespan <= HC__SHORTLIST_RATIO * out[0]->makespan) {
                out[1] = pair;
                pair = NULL;
            }
        }
        hc_schedule_destroy(pair);
        *n_out = rc == HC_OK ? 1 + (out[1] != NULL) : 0;
        return rc;
    }
    size_t n_algos = hc_algo_count(), n = 0;
    hc_schedule_t **all = calloc(n_algos + 3, sizeof *all); /* + pieces, round-robin, relay */
    if (!all)
        return hc_error_set(HC_ERR_NOMEM, "out of memory planning");
    /* auto plans a reduction with sender-receiver costs; the algorithms of 003's rows (each
     * node's time to the root) also run on those (grid5000-links, 1 MiB: snf on the rows
     * 0.0475 s in SMPI, on the pair costs 0.0567 s) */
    hc_problem_t *rows = NULL;
    if (links && pb->coll == HC_COLL_REDUCE && pb->platform) {
        hc_problem_spec_t sp;
        hc_problem_spec_init(&sp, HC_COLL_REDUCE);
        sp.platform = pb->platform;
        sp.model = pb->model;
        sp.msg_bytes = pb->msg_bytes;
        sp.root = pb->root;
        if (hc_problem_create(&sp, &rows) != HC_OK)
            rows = NULL;
        hc_error_clear();
    }
    int last = hc_error_set(HC_ERR_UNSUPPORTED, "no %s algorithm applies", hc_coll_name(pb->coll));
    double lead = INFINITY; /* the fastest candidate so far */
    for (size_t i = 0; i < n_algos; i++) {
        const hc_algo_info_t *a = hc_algo_get(i);
        if (a->coll != pb->coll ||
            !(a->flags & (links ? HC_ALGO_AUTO | HC_ALGO_MPI_DEFAULT : HC_ALGO_AUTO)))
            continue;
        hc_schedule_t *s = NULL;
        last = hc_schedule_compute(pb, a->name, &o, &s);
        if (last == HC_OK && links && (last = flow_predict(pb, s, smpi)) != HC_OK) {
            hc_schedule_destroy(s);
            s = NULL;
        }
        if (rows && !(a->flags & HC_ALGO_PAIR_COSTS)) { /* also (or only) on the rows */
            rows_variant(pb, rows, a->name, &o, smpi, &s);
            last = s ? HC_OK : last;
        }
        if (last == HC_OK && links && (pb->coll == HC_COLL_BCAST || pb->coll == HC_COLL_REDUCE))
            shape_variants(pb, a->name, &o, smpi, &s);
        if (last == HC_OK && s->makespan < lead)
            lead = s->makespan;
        if (last == HC_OK && links && (pb->coll == HC_COLL_BCAST || pb->coll == HC_COLL_REDUCE) &&
            (split >= 0 || s->makespan <= HC__SPLIT_RANGE * lead)) {
            split_variants(pb, smpi, split, &s);
            lead = s->makespan < lead ? s->makespan : lead;
        }
        if (last == HC_OK && links && pieces && strcmp(a->name, "post-all") == 0 && relay != 1)
            piece_variants(pb, &o, smpi, s->makespan, recv_order, 1, &all[n_algos],
                           &all[n_algos + 1]);
        if (last == HC_OK && links && pieces && strcmp(a->name, "post-all") == 0 && relay != 0)
            relay_variants(pb, s, smpi, s->makespan, relay == 1, &all[n_algos + 2]);
        if (last == HC_OK)
            all[n++] = s;
    }
    if (exch && links && last == HC_OK) {
        /* a redistribution as the exchange it is: post everything in pieces, offered when
         * predicted 5 % faster than in whole messages (the MPI library's way, post_everything
         * in coll.c, measured beside it anyway) */
        hc_schedule_t *whole = NULL;
        if (hc_schedule_compute(exch, "post-all", &o, &whole) == HC_OK &&
            flow_predict(exch, whole, smpi) == HC_OK)
            piece_variants(exch, &o, smpi, whole->makespan, recv_order, 0, &all[n_algos],
                           &all[n_algos + 1]);
        hc_schedule_destroy(whole);
        hc_error_clear();
    }
    if (relay == 1 && all[n_algos + 2]) { /* HETCOLL_RELAY=forwarders: nothing else */
        for (size_t i = 0; i < n; i++)
            hc_schedule_destroy(all[i]);
        n = 0;
    }
    for (size_t k = n_algos; k < n_algos + 3; k++)
        if (all[k]) { /* the piece variants */
            all[n++] = all[k];
            all[k] = NULL;
        }
    if (n == 0) {
        free(all);
        hc_problem_destroy(rows);
        return last;
    }
    qsort(all, n, sizeof *all, by_makespan);
    out[(*n_out)++] = all[0];
    all[0] = NULL;
    for (size_t i = 1; i < n && *n_out < max; i++) {
        int take = all[i]->makespan <= HC__SHORTLIST_RATIO * out[0]->makespan;
        for (uint32_t k = 0; take && k < *n_out; k++)
            take = !same_shape(all[i], out[k]);
        if (take) {
            out[(*n_out)++] = all[i];
            all[i] = NULL;
        }
    }
    for (size_t i = 0; i < n; i++)
        hc_schedule_destroy(all[i]);
    free(all);
    hc_problem_destroy(rows);
    return HC_OK;
}

/* plan_pass with its replays recorded (replay_memo.h): grid5000's 16 MiB reduction replays
 * 265 schedules, 5.2 of its 25 s in repeats within an algorithm's variants and 9.2 s in ep-pq's
 * and bnb-pq's, which equal snf-pq's there. */
static int plan_schedules(const hc_problem_t *pb, const char *name, hc_schedule_t **out,
                          uint32_t max, uint32_t *n_out, double limit, int links, int smpi,
                          int pieces, int recv_order, int relay, const hc_problem_t *exch,
                          int64_t split)
{
    hc__memo_create(&memo);
    int rc = plan_pass(pb, name, out, max, n_out, limit, links, smpi, pieces, recv_order, relay,
                       exch, split);
    hc__memo_destroy(memo);
    memo = NULL;
    return rc;
}

/* Seconds a search algorithm may take: the option, and under auto no more than what is left
 * of the planning budget (at least 0.1 ms: a search then returns its first solution). */
static double search_limit(const hc_comm_t *c, int forced)
{
    double limit = c->opts.plan_time_limit;
    if (!forced) {
        double left = HC__BUDGET * c->t_coll + HC__BUDGET_MIN - c->t_over;
        left = left > 1e-4 ? left : 1e-4;
        limit = limit > 0 && limit < left ? limit : left;
    }
    return limit;
}

/* The redistribution `pb` as the total exchange it is on the communicator's platform: what
 * node i of cluster 1 sends node j of cluster 2 (pb's sizes) from rank nodes[i] to rank
 * nodes[n1 + j]. The caller frees *out, then *sizes (the problem borrows them). */
static int exchange_of(const hc_comm_t *c, const hc_problem_t *pb, hc_problem_t **out,
                       hc_matrix_t **sizes)
{
    const uint32_t *nodes = hc_problem_nodes(pb);
    const uint32_t P = (uint32_t)c->size;
    *out = NULL;
    *sizes = NULL;
    if (!nodes || !pb->sizes)
        return hc_error_set(HC_ERR_UNSUPPORTED, "a redistribution without its platform nodes");
    int rc = hc_matrix_create(P, P, 0.0, sizes);
    for (uint32_t i = 0; rc == HC_OK && i < pb->n1; i++)
        for (uint32_t j = 0; j < pb->n2; j++)
            if (nodes[i] < P && nodes[pb->n1 + j] < P && nodes[i] != nodes[pb->n1 + j])
                HC_AT(*sizes, nodes[i], nodes[pb->n1 + j]) = HC_AT(pb->sizes, i, j);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_ALLTOALL);
    sp.platform = c->platform;
    sp.model = pb->model;
    sp.sizes = *sizes;
    return rc == HC_OK ? hc_problem_create(&sp, out) : rc;
}

/* Plan header broadcast by rank 0. */
typedef struct {
    int32_t status, coll; /* coll: a redistribution's candidate may be an exchange */
    uint32_t n_events, n_steps, n_segments, has_parent, n_members, has_groups;
    uint32_t root, n1, n2, k, window, recv_order, relay, lead_groups; /* lead_groups: 0 = none */
    double makespan, lower_bound, beta, window_bdp_factor;
    uint64_t segment_bytes, split_bytes, lead_bytes;
    char algorithm[48];
    char note[160]; /* the schedule's note, cut there (hc_comm_last_note) */
} plan_hdr_t;

/* Broadcast rank 0's schedule *s (and the members) to every rank. Collective. */
static int share_schedule(hc_comm_t *c, hc_schedule_t **s, uint32_t **members, uint32_t *n_members)
{
    plan_hdr_t h;
    memset(&h, 0, sizeof h);
    if (c->rank == 0) {
        h.coll = (int32_t)(*s)->coll;
        h.n_events = (uint32_t)(*s)->n_events;
        h.n_steps = (uint32_t)(*s)->n_steps;
        h.n_segments = (*s)->n_segments;
        h.has_parent = ((*s)->parent != NULL) + ((*s)->parent2 != NULL);
        h.has_groups = (*s)->piece_groups != NULL;
        h.makespan = (*s)->makespan;
        h.lower_bound = (*s)->lower_bound;
        h.root = (*s)->root;
        h.n1 = (*s)->n1;
        h.n2 = (*s)->n2;
        h.k = (*s)->k;
        h.beta = (*s)->beta;
        h.window = (*s)->window;
        h.recv_order = (*s)->recv_order;
        h.relay = (*s)->relay;
        h.window_bdp_factor = (*s)->window_bdp_factor;
        h.segment_bytes = (*s)->segment_bytes;
        h.split_bytes = (*s)->split_bytes;
        h.lead_bytes = (*s)->lead_bytes;
        h.lead_groups = (*s)->lead_pieces ? (*s)->lead_groups : 0;
        memcpy(h.algorithm, (*s)->algorithm, sizeof h.algorithm);
        snprintf(h.note, sizeof h.note, "%s", (*s)->note ? (*s)->note : "");
        h.n_members = *n_members;
    }
    MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, c->comm);
    int err = MPI_SUCCESS;
    if (c->rank != 0) {
        int rc = hc_schedule_create((hc_coll_t)h.coll, (uint32_t)c->size, s);
        if (rc == HC_OK && h.n_events) {
            (*s)->events = calloc(h.n_events, sizeof(hc_event_t));
            (*s)->cap_events = h.n_events;
            rc = (*s)->events ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK && h.n_steps) {
            (*s)->steps = calloc(h.n_steps, sizeof(hc_step_t));
            (*s)->cap_steps = h.n_steps;
            rc = (*s)->steps ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK && h.has_parent)
            rc = hc_schedule_alloc_trees(*s, h.has_parent == 2);
        if (rc == HC_OK && h.has_groups) {
            (*s)->piece_groups = malloc(sizeof *(*s)->piece_groups * (size_t)c->size);
            rc = (*s)->piece_groups ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK && h.lead_groups) {
            (*s)->lead_pieces = malloc(sizeof *(*s)->lead_pieces * h.lead_groups * h.lead_groups);
            rc = (*s)->lead_pieces ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK && h.n_members) {
            *members = malloc(sizeof **members * h.n_members);
            rc = *members ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK) {
            (*s)->n_events = h.n_events;
            (*s)->n_steps = h.n_steps;
            (*s)->n_segments = h.n_segments;
            (*s)->makespan = h.makespan;
            (*s)->lower_bound = h.lower_bound;
            (*s)->root = h.root;
            (*s)->n1 = h.n1;
            (*s)->n2 = h.n2;
            (*s)->k = h.k;
            (*s)->beta = h.beta;
            (*s)->window = h.window;
            (*s)->recv_order = h.recv_order;
            (*s)->relay = h.relay;
            (*s)->window_bdp_factor = h.window_bdp_factor;
            (*s)->segment_bytes = h.segment_bytes;
            (*s)->split_bytes = h.split_bytes;
            (*s)->lead_bytes = h.lead_bytes;
            (*s)->lead_groups = h.lead_groups;
            memcpy((*s)->algorithm, h.algorithm, sizeof h.algorithm);
            if (h.note[0] && hc_schedule_set_note(*s, "%s", h.note) != HC_OK)
                hc_error_clear(); /* words only: the schedule runs without them */
            *n_members = h.n_members;
        } else {
            err =
                hc__fail(MPI_ERR_NO_MEM, "out of memory receiving a %u-event schedule", h.n_events);
        }
    }
    /* Memory failures are local; agree before moving payloads. */
    err = hc__agree(c->comm, err);
    if (err != MPI_SUCCESS)
        return err;
    if (h.n_events)
        MPI_Bcast((*s)->events, (int)(h.n_events * sizeof(hc_event_t)), MPI_BYTE, 0, c->comm);
    if (h.n_steps)
        MPI_Bcast((*s)->steps, (int)(h.n_steps * sizeof(hc_step_t)), MPI_BYTE, 0, c->comm);
    if (h.has_parent)
        MPI_Bcast((*s)->parent, c->size, MPI_INT32_T, 0, c->comm);
    if (h.has_parent == 2)
        MPI_Bcast((*s)->parent2, c->size, MPI_INT32_T, 0, c->comm);
    if (h.has_groups)
        MPI_Bcast((*s)->piece_groups, c->size, MPI_INT32_T, 0, c->comm);
    if (h.lead_groups)
        MPI_Bcast((*s)->lead_pieces, (int)(h.lead_groups * h.lead_groups), MPI_UINT32_T, 0,
                  c->comm);
    if (h.n_members)
        MPI_Bcast(*members, (int)h.n_members, MPI_UINT32_T, 0, c->comm);
    return MPI_SUCCESS;
}

/* A cache slot for a new entry (evicting the least recently used), or tmp with the cache off. */
static hc__entry_t *new_slot(hc_comm_t *c, hc__entry_t *tmp)
{
    if (c->opts.cache_entries == 0)
        return tmp;
    if (!c->cache) {
        c->cache = calloc(c->opts.cache_entries, sizeof *c->cache);
        if (!c->cache)
            return tmp;
    }
    unsigned slot = c->n_cache;
    if (slot == c->opts.cache_entries) {
        slot = 0;
        for (unsigned i = 1; i < c->n_cache; i++)
            if (c->cache[i].last_use < c->cache[slot].last_use)
                slot = i;
        hc__entry_free(&c->cache[slot]);
    } else {
        c->n_cache++;
    }
    return &c->cache[slot];
}

/* The link bound of the planned problem pb (verbose mode's report): a broadcast's
 * hc_flows_bcast_bound_model, a reduction's hc_flows_reduce_bound_model, an exchange's
 * hc_flows_bound_model on its sizes (a redistribution's on exch, the exchange it is: NULL when
 * not built), under the runtime's flow model. */
static int link_bound(const hc_comm_t *c, const hc_problem_t *pb, const hc_problem_t *exch,
                      double *lb)
{
    const hc_problem_t *x = pb->coll == HC_COLL_REDISTRIBUTE ? exch : pb;
    if (!x || !x->platform ||
        (x->coll == HC_COLL_ALLTOALL &&
         (!x->sizes || x->sizes->rows != hc_platform_size(x->platform) ||
          x->sizes->cols != x->sizes->rows)))
        return HC_ERR_VALUE;
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = c->flow_smpi;
    if (x->coll == HC_COLL_BCAST)
        return hc_flows_bcast_bound_model(x->platform, &fo, x->root, (double)x->msg_bytes, lb);
    if (x->coll == HC_COLL_REDUCE)
        return hc_flows_reduce_bound_model(x->platform, &fo, x->root, (double)x->msg_bytes, lb);
    if (x->coll != HC_COLL_ALLTOALL)
        return HC_ERR_VALUE;
    return hc_flows_bound_model(x->platform, &fo, x->sizes->v, lb);
}

int hc__plan_lookup(hc_comm_t *c, hc_coll_t coll, const uint64_t *key, size_t key_len,
                    uint64_t plan_bytes, hc__build_fn build, const void *arg, hc__lookup_t *lookup,
                    hc__entry_t **entry, hc__entry_t *tmp)
{
    const uint64_t h = key_hash(c, coll, key, key_len);
    c->stats.calls++;
    c->clock++;
    c->pending = 0;
    *entry = NULL;
    for (unsigned i = 0; i < c->n_cache; i++) {
        hc__entry_t *e = &c->cache[i];
        if (e->coll == coll && e->hash == h && e->key_len == key_len &&
            memcmp(e->key, key, key_len * sizeof *key) == 0) {
            e->last_use = c->clock;
            e->calls++;
            c->stats.cache_hits++;
            *entry = e;
            *lookup = HC__LOOKUP_ENTRY;
            return MPI_SUCCESS;
        }
    }
    const char *algo = c->algo[coll];
    *lookup = HC__LOOKUP_NATIVE;
    if (strcmp(algo, "native") == 0) {
        hc__native_because(c, HC__WHY_POLICY, "HETCOLL_ALGO_%s=native", hc_coll_name(coll));
        return MPI_SUCCESS;
    }
    const int forced = strcmp(algo, "auto") != 0;
    if (!forced && sighting(c, h) < c->plan_after[coll]) {
        c->pending = 1;
        hc__native_because(c, HC__WHY_POLICY, "first calls of this size");
        return MPI_SUCCESS;
    }
    sighting_forget(c, h);

    /* Plan: rank 0 computes, every rank receives. */
    hc_schedule_t *cand[HC__CAND_MAX] = {NULL};
    uint32_t *members = NULL, n_members = 0;
    uint32_t n_sched = 0;
    const int tune = !forced && c->opts.tune_trials > 0;
    int err = MPI_SUCCESS;
    const double t0 = hc__now();
    const int over_budget = !forced && c->t_over > HC__BUDGET * c->t_coll + HC__BUDGET_MIN;
    if (c->rank == 0 && over_budget) {
        hc__log(c,
                "%s: not planned: planning and measuring cost %.3g s so far, %.3g s spent in "
                "collectives",
                hc_coll_name(coll), c->t_over, c->t_coll);
    } else if (c->rank == 0) {
        hc_problem_t *pb = NULL, *exch = NULL;
        hc_matrix_t *exch_sizes = NULL;
        const int links = hc_platform_has_routes(c->platform);
        int rc = build(c, arg, &pb, &members, &n_members);
        if (rc == HC_OK && !forced && links && c->a2a_pieces_ok && coll == HC_COLL_REDISTRIBUTE &&
            exchange_of(c, pb, &exch, &exch_sizes) != HC_OK) {
            exch = NULL; /* the KPBS schedules alone */
            hc_error_clear();
        }
        if (rc == HC_OK)
            rc = plan_schedules(
                pb, algo, cand, tune ? HC__CAND_MAX - 1 : 1, &n_sched, search_limit(c, forced),
                links, c->flow_smpi, coll == HC_COLL_ALLTOALL && c->a2a_pieces_ok, c->recv_order,
                c->relay, exch, coll == HC_COLL_REDUCE ? c->reduce_split : c->bcast_split);
        /* on links the prediction is the flow model's: its bound is the link bound (the
         * problem's per-pair bound is 003's whole-message model, which pipelines and pieces
         * beat), on the platform as the flow model sees it at best (under SMPI's model the
         * plain bound is not one); an exchange's on its byte matrix (a redistribution's as the
         * exchange it is) */
        double lb = rc == HC_OK ? cand[0]->lower_bound : NAN;
        const char *lb_name = "lower bound";
        if (rc == HC_OK && c->opts.verbose && links && link_bound(c, pb, exch, &lb) == HC_OK)
            lb_name = c->flow_smpi ? "link bound under SMPI's model" : "link bound";
        hc_error_clear();
        hc_problem_destroy(exch);
        hc_matrix_destroy(exch_sizes);
        hc_problem_destroy(pb);
        if (rc != HC_OK) {
            err = hc__fail(hc__mpi_err(rc), "planning %s with %s on %d ranks failed: %s",
                           hc_coll_name(coll), algo, c->size, hc_error_detail());
            n_sched = 0;
        } else {
            /* what runs, in the terms of the tuning (plan.c's variants): pieces, window */
            const hc_schedule_t *w = cand[0];
            char shape[160] = "";
            int n = 0;
            if (w->n_segments > 1)
                n = snprintf(shape, sizeof shape, ", %u pieces", w->n_segments);
            if (w->segment_bytes && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n,
                              w->coll == HC_COLL_BCAST ? ", across sites in messages of %llu B"
                                                       : ", pieces of %llu B",
                              (unsigned long long)w->segment_bytes);
            if (w->split_bytes && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n,
                              ", across sites in messages of %llu B",
                              (unsigned long long)w->split_bytes);
            if (w->window == HC_WINDOW_ALL && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n, ", every message at once");
            else if (w->window && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n, ", window %u", w->window);
            if (w->window_bdp_factor > 0 && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n, ", window rule x %.3g",
                              w->window_bdp_factor);
            if (w->recv_order == HC_RECV_ROUND_ROBIN && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n, ", receives round-robin");
            if (w->relay && n >= 0 && (size_t)n < sizeof shape)
                n += snprintf(shape + n, sizeof shape - (size_t)n, ", through site forwarders");
            if (w->lead_pieces && n >= 0 && (size_t)n < sizeof shape)
                snprintf(shape + n, sizeof shape - (size_t)n, ", far messages led by %llu B pieces",
                         (unsigned long long)w->lead_bytes);
            hc__log(c, "%s: planned in %.3g s: %s%s (predicted %.6g s, %s %.6g s)",
                    hc_coll_name(coll), hc__now() - t0, w->algorithm, shape, w->makespan, lb_name,
                    lb);
        }
    }
    err = hc__agree(c->comm, err);
    if (err == MPI_SUCCESS)
        MPI_Bcast(&n_sched, 1, MPI_UINT32_T, 0, c->comm);
    for (uint32_t k = 0; err == MPI_SUCCESS && k < n_sched; k++) {
        uint32_t none = 0, *no_members = NULL;
        err = k == 0 ? share_schedule(c, &cand[0], &members, &n_members)
                     : share_schedule(c, &cand[k], &no_members, &none);
    }
    c->t_over += hc__now() - t0;
    /* Nothing planned (over budget, agreed through n_sched): the next sizes of this collective
     * wait twice as long before asking again, so a job where planning does not pay stops
     * asking. */
    if (err == MPI_SUCCESS && n_sched == 0 && !forced)
        c->plan_after[coll] = c->plan_after[coll] * 2 > HC__PLAN_AFTER_MAX
                                  ? HC__PLAN_AFTER_MAX
                                  : c->plan_after[coll] * 2;
    hc__entry_t *e = NULL;
    if (err == MPI_SUCCESS || !forced || (c->flags & HC__DROPIN)) {
        e = new_slot(c, tmp);
        memset(e, 0, sizeof *e);
        e->key = malloc(sizeof *key * (key_len ? key_len : 1));
        if (!e->key) { /* every rank allocates the same size; rare and local */
            if (e != tmp)
                c->n_cache--;
            err = hc__fail(MPI_ERR_NO_MEM, "out of memory caching a plan");
            e = NULL;
        }
    }
    if (!e) {
        for (uint32_t k = 0; k < HC__CAND_MAX; k++)
            hc_schedule_destroy(cand[k]);
        free(members);
        return err;
    }
    memcpy(e->key, key, key_len * sizeof *key);
    e->key_len = key_len;
    e->coll = coll;
    e->hash = h;
    e->last_use = c->clock;
    e->calls = 1;
    e->plan_bytes = plan_bytes;
    if (err != MPI_SUCCESS) {
        /* Planning failed (agreed): this key runs the MPI library's collective from now on. */
        e->n_cand = 1; /* cand[0].s == NULL: native */
        for (uint32_t k = 0; k < HC__CAND_MAX; k++)
            hc_schedule_destroy(cand[k]);
        free(members);
        hc__native_because(c, HC__WHY_PLAN, "%s", hc_error_detail());
        c->stats.fallbacks++;
        *entry = e;
        *lookup = HC__LOOKUP_ENTRY;
        return MPI_SUCCESS;
    }
    c->stats.plans += n_sched > 0;
    e->members = members;
    e->n_members = n_members;
    /* Candidates: under auto the MPI library's own collective first, then the schedules best
     * predicted first; a forced algorithm is the only candidate. */
    uint32_t n = 0;
    if (!forced)
        e->cand[n++].s = NULL;
    for (uint32_t k = 0; k < n_sched; k++)
        e->cand[n++].s = cand[k];
    e->n_cand = n;
    e->chosen = forced ? 0 : 1; /* without tuning: the best predicted schedule */
    e->tuning = tune && n > 1;
    *entry = e;
    *lookup = HC__LOOKUP_ENTRY;
    return MPI_SUCCESS;
}
