/* The flow network replay (hc_simulate with HC_NETWORK_FLOW): the schedule executed as the MPI
 * runtime executes it (src/mpi/exec.c), its transfers sharing the platform's links by max-min
 * fairness (the incremental engine of src/net/flow.c).
 *
 * A transfer starts once its sender has posted it and its receiver has posted the matching
 * receive. What gates each side, as in the runtime:
 *   - total exchange: a node's sends and its receives in planned order (its receives
 *     round-robin over its messages' pieces with HC_RECV_ROUND_ROBIN), at most the windows of
 *     hc_schedule_exec_windows in flight (0: all at once); through site forwarders
 *     (hc_schedule_t.relay) everything posted at once, a forwarder's phase-2 messages waiting
 *     for its phase-1 ones (build_relay);
 *   - broadcast: a whole message is sent one send and one receive at a time in planned
 *     order; a segmented one keeps the sends of hc_schedule_exec_windows in flight, posted in
 *     planned order, with every receive posted; a send waits for its segment (or the whole
 *     message) to have arrived;
 *   - reduction: pipelined in hc_schedule_reduce_segment pieces; a node receives from all its
 *     children at once (W = hc_schedule_reduce_node_window pieces ahead per child), sends piece k
 *     of a tree once it has piece k from every child in that tree, at most W in flight per
 *     tree (piece k after piece k - W ended);
 *   - redistribution: KPBS steps separated by the runtime's star barrier (the planned
 *     step cost beta is not used: the barrier's messages are replayed).
 * A send of fewer than opts->eager_bytes leaves eagerly: its sender goes on at once (MPI's
 * eager protocol; SimGrid SMPI's detached sends), while the transfer still starts when the
 * receiver has posted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../net/net_internal.h"
#include "sim_internal.h"

/* Edge kinds between transfers: what gates b's sender (the release of a: its post when a is
 * eager, else its end; a's end, for data; a's post, for in-order posting) or b's receiver
 * (a's end). */
enum { X_SREL = 0, X_SEND = 1, X_REND = 2, X_SPOST = 3 };

typedef struct {
    uint32_t src, dst; /* platform nodes */
    double bytes;
    size_t ev; /* the schedule's event (SIZE_MAX: a forwarder's message, several events') */
    uint32_t sleft, rleft;
    double spost, rpost;
    double tstart, tend; /* when it ran */
    unsigned char eager, sready, rready, added, done;
} xfer_t;

typedef struct {
    xfer_t *x;
    size_t n, cap;
    hc__edges_t g;
    size_t *off_post, *adj_post, *off_end, *adj_end; /* CSR per trigger */
    size_t *stack;                                   /* worklist: edge indices */
    double *stime;                                   /* worklist: times */
    size_t top;
    hc__fe_t *fe;
    size_t *of; /* engine id -> transfer */
    size_t added;
    /* Windows with any-slot reuse (a total exchange's Waitany): group g lists its transfers in
     * posting order (idx[off[g]..off[g + 1])); the one at position q waits for a free slot,
     * i.e. for q - win[g] + 1 of the group's releases (a send's release, a receive's end). */
    size_t n_groups, *goff, *gidx, *gnext, *greleased;
    uint32_t *gwin;
    size_t *sgroup, *rgroup; /* per transfer: its send / receive group, or SIZE_MAX */
    /* Forwarders (hc_schedule_t.relay): per event between groups, its phase-1 transfer
     * (SIZE_MAX: it leaves from its forwarder) and its phase-2 transfers [a, b); rv NULL when
     * the schedule has no forwarders. */
    size_t *rv_p1, *rv_a, *rv_b;
} fr_t;

static int push_xfer(fr_t *f, uint32_t src, uint32_t dst, double bytes, size_t ev, uint64_t eager)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        xfer_t *x = realloc(f->x, cap * sizeof *x);
        if (!x)
            return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
        f->x = x;
        f->cap = cap;
    }
    xfer_t *x = &f->x[f->n++];
    memset(x, 0, sizeof *x);
    x->src = src;
    x->dst = dst;
    x->bytes = bytes;
    x->ev = ev;
    x->eager = bytes < (double)eager;
    return HC_OK;
}

/* CSR of the edges by trigger: a's post (SREL edges from an eager a, SPOST edges) or a's end. */
static int build_csr(fr_t *f)
{
    size_t n = f->n, m = f->g.n;
    f->off_post = hc__calloc(n + 2, sizeof *f->off_post);
    f->off_end = hc__calloc(n + 2, sizeof *f->off_end);
    f->adj_post = hc__malloc(m + 1, sizeof *f->adj_post);
    f->adj_end = hc__malloc(m + 1, sizeof *f->adj_end);
    f->stack = hc__malloc(m + 1, sizeof *f->stack);
    f->stime = hc__malloc(m + 1, sizeof *f->stime);
    f->of = hc__malloc(n + 1, sizeof *f->of);
    if (!f->off_post || !f->off_end || !f->adj_post || !f->adj_end || !f->stack || !f->stime ||
        !f->of)
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    for (size_t e = 0; e < m; e++) {
        size_t a = f->g.from[e];
        int on_post = (f->g.kind[e] == X_SREL && f->x[a].eager) || f->g.kind[e] == X_SPOST;
        (on_post ? f->off_post : f->off_end)[a + 1]++;
        if (f->g.kind[e] == X_REND)
            f->x[f->g.to[e]].rleft++;
        else
            f->x[f->g.to[e]].sleft++;
    }
    for (size_t i = 0; i < n; i++) {
        f->off_post[i + 1] += f->off_post[i];
        f->off_end[i + 1] += f->off_end[i];
    }
    size_t *cp = hc__malloc(n + 1, sizeof *cp), *ce = hc__malloc(n + 1, sizeof *ce);
    if (!cp || !ce) {
        free(cp);
        free(ce);
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    }
    memcpy(cp, f->off_post, n * sizeof *cp);
    memcpy(ce, f->off_end, n * sizeof *ce);
    for (size_t e = 0; e < m; e++) {
        size_t a = f->g.from[e];
        if ((f->g.kind[e] == X_SREL && f->x[a].eager) || f->g.kind[e] == X_SPOST)
            f->adj_post[cp[a]++] = e;
        else
            f->adj_end[ce[a]++] = e;
    }
    free(cp);
    free(ce);
    return HC_OK;
}

static void push_edges(fr_t *f, const size_t *off, const size_t *adj, size_t a, double t)
{
    for (size_t k = off[a]; k < off[a + 1]; k++) {
        f->stack[f->top] = adj[k];
        f->stime[f->top++] = t;
    }
}

static int try_add(fr_t *f, size_t y)
{
    xfer_t *x = &f->x[y];
    if (!x->sready || !x->rready || x->added)
        return HC_OK;
    x->added = 1;
    f->of[f->added++] = y;
    return hc__fe_add(f->fe, x->src, x->dst, x->bytes, fmax(x->spost, x->rpost), NULL);
}

static int side_ready(fr_t *f, size_t y, int sender);

/* A transfer of group g was released at t: the next one waiting for a slot gets it. */
static int group_release(fr_t *f, size_t g, int sender, double t)
{
    if (g == SIZE_MAX)
        return HC_OK;
    f->greleased[g]++;
    size_t n = f->goff[g + 1] - f->goff[g];
    if (f->gnext[g] >= n || f->gnext[g] >= f->greleased[g] + f->gwin[g])
        return HC_OK;
    size_t y = f->gidx[f->goff[g] + f->gnext[g]++];
    xfer_t *x = &f->x[y];
    if (sender) {
        x->spost = fmax(x->spost, t);
        return --x->sleft == 0 ? side_ready(f, y, 1) : HC_OK;
    }
    x->rpost = fmax(x->rpost, t);
    return --x->rleft == 0 ? side_ready(f, y, 0) : HC_OK;
}

/* A side of y got ready: its eager release fires, and y starts when both sides are. */
static int side_ready(fr_t *f, size_t y, int sender)
{
    xfer_t *x = &f->x[y];
    if (sender) {
        x->sready = 1;
        push_edges(f, f->off_post, f->adj_post, y, x->spost);
        if (x->eager && f->sgroup)
            HC__TRY(group_release(f, f->sgroup[y], 1, x->spost));
    } else {
        x->rready = 1;
    }
    return try_add(f, y);
}

/* Resolve the worklist. Each edge is pushed once (by its trigger), so it fits in m slots. */
static int drain(fr_t *f)
{
    int rc = HC_OK;
    while (rc == HC_OK && f->top > 0) {
        size_t e = f->stack[--f->top];
        double t = f->stime[f->top];
        size_t y = f->g.to[e];
        xfer_t *x = &f->x[y];
        if (f->g.kind[e] == X_REND) {
            x->rpost = fmax(x->rpost, t);
            if (--x->rleft == 0)
                rc = side_ready(f, y, 0);
        } else {
            x->spost = fmax(x->spost, t);
            if (--x->sleft == 0)
                rc = side_ready(f, y, 1);
        }
    }
    return rc;
}

static int run(fr_t *f, const hc_platform_t *pl, const hc_sim_opts_t *opts, hc_sim_result_t *r)
{
    HC__TRY(build_csr(f));
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = opts->smpi_factors;
    HC__TRY(hc__fe_create(pl, &fo, &f->fe));
    int rc = HC_OK;
    for (size_t y = 0; rc == HC_OK && y < f->n; y++) {
        if (f->x[y].sleft == 0 && !f->x[y].sready)
            rc = side_ready(f, y, 1);
        if (rc == HC_OK && f->x[y].rleft == 0 && !f->x[y].rready)
            rc = side_ready(f, y, 0);
        if (rc == HC_OK)
            rc = drain(f);
    }
    for (size_t i = 0; i < r->n_events; i++) {
        r->events[i].start = INFINITY;
        r->events[i].end = 0;
    }
    size_t id, done = 0;
    double t;
    while (rc == HC_OK && hc__fe_next(f->fe, &id, &t)) {
        size_t y = f->of[id];
        xfer_t *x = &f->x[y];
        x->done = 1;
        done++;
        double st = fmax(x->spost, x->rpost);
        x->tstart = st;
        x->tend = t;
        if (x->ev != SIZE_MAX) {
            hc_event_t *ev = &r->events[x->ev];
            ev->start = fmin(ev->start, st);
            ev->end = fmax(ev->end, t);
        }
        if (t > r->makespan)
            r->makespan = t;
        push_edges(f, f->off_end, f->adj_end, y, t);
        if (f->sgroup && !x->eager)
            rc = group_release(f, f->sgroup[y], 1, t);
        if (rc == HC_OK && f->rgroup)
            rc = group_release(f, f->rgroup[y], 0, t);
        if (rc == HC_OK)
            rc = drain(f);
    }
    if (rc == HC_OK && done < f->n)
        rc = hc__error(HC_ERR_INVALID_SCHEDULE,
                       "simulate: deadlock: %zu of %zu transfers wait in a cycle of the nodes' "
                       "orders",
                       f->n - done, f->n);
    for (size_t i = 0; rc == HC_OK && i < r->n_events; i++)
        if (!isfinite(r->events[i].start)) /* no transfer (an empty event) */
            r->events[i].start = r->events[i].end = 0;
    return rc;
}

/* Per node, the events it sends (or receives) in planned order: CSR over `order`. */
static int lists(const hc_schedule_t *s, const size_t *order, int receiving, size_t **off_out,
                 size_t **idx_out)
{
    size_t E = s->n_events;
    size_t *off = hc__calloc((size_t)s->P + 2, sizeof *off), *idx = hc__malloc(E + 1, sizeof *idx);
    if (!off || !idx) {
        free(off);
        free(idx);
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    }
    for (size_t i = 0; i < E; i++)
        off[(receiving ? s->events[i].dst : s->events[i].src) + 1]++;
    for (uint32_t u = 0; u < s->P; u++)
        off[u + 1] += off[u];
    size_t *cur = hc__malloc((size_t)s->P + 1, sizeof *cur);
    if (!cur) {
        free(off);
        free(idx);
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    }
    memcpy(cur, off, s->P * sizeof *cur);
    for (size_t q = 0; q < E; q++) {
        size_t i = order[q];
        idx[cur[receiving ? s->events[i].dst : s->events[i].src]++] = i;
    }
    free(cur);
    *off_out = off;
    *idx_out = idx;
    return HC_OK;
}

/* Chain a list: item q waits for item q - w (w == 0: no chain). */
static int chain(fr_t *f, const size_t *idx, size_t a, size_t b, uint32_t w, int kind)
{
    for (size_t q = a + (w ? w : b - a); q < b; q++)
        HC__TRY(hc__edges_add(&f->g, idx[q - w], idx[q], kind));
    return HC_OK;
}

/* A total exchange's windows: per node a send group and a receive group (the events of the
 * node in planned order; transfers are events). Takes the lists. */
static int groups(fr_t *f, const hc_schedule_t *s, const hc_platform_t *pl, size_t *so, size_t *si,
                  size_t *ro, size_t *ri)
{
    size_t P = s->P, E = f->n; /* transfers: a total exchange's pieces */
    f->n_groups = 2 * P;
    f->goff = hc__malloc(2 * P + 1, sizeof *f->goff);
    f->gidx = hc__malloc(2 * E + 1, sizeof *f->gidx);
    f->gnext = hc__calloc(2 * P + 1, sizeof *f->gnext);
    f->greleased = hc__calloc(2 * P + 1, sizeof *f->greleased);
    f->gwin = hc__malloc(2 * P + 1, sizeof *f->gwin);
    f->sgroup = hc__malloc(E + 1, sizeof *f->sgroup);
    f->rgroup = hc__malloc(E + 1, sizeof *f->rgroup);
    int rc = f->goff && f->gidx && f->gnext && f->greleased && f->gwin && f->sgroup && f->rgroup
                 ? HC_OK
                 : hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    size_t k = 0;
    for (uint32_t u = 0; rc == HC_OK && u < P; u++) {
        uint32_t w[2];
        rc = hc_schedule_exec_windows(s, pl, u, &w[0], &w[1]);
        for (int side = 0; rc == HC_OK && side < 2; side++) {
            size_t g = 2 * (size_t)u + (size_t)side, *off = side ? ro : so, *idx = side ? ri : si;
            size_t n = off[u + 1] - off[u];
            f->goff[g] = k;
            f->gwin[g] = w[side] ? w[side] : (uint32_t)(n ? n : 1);
            f->gnext[g] = n < f->gwin[g] ? n : f->gwin[g];
            for (size_t q = off[u]; q < off[u + 1]; q++) {
                size_t y = idx[q];
                f->gidx[k++] = y;
                (side ? f->rgroup : f->sgroup)[y] = g;
                if (q - off[u] >= f->gwin[g]) /* waits for a slot */
                    *(side ? &f->x[y].rleft : &f->x[y].sleft) += 1;
            }
        }
    }
    if (rc == HC_OK)
        f->goff[2 * P] = k;
    free(so);
    free(si);
    free(ro);
    free(ri);
    return rc;
}

/* A total exchange in pieces: the node lists of events (off, idx) become lists of transfers,
 * event i's pieces xf[i] .. xf[i + 1] - 1 in its place, in the order of `order`
 * (hc_schedule_recv_sequence: a node's receives may go round-robin over its events; its sends
 * go message by message, HC_RECV_MESSAGES). Replaces *idx. */
static int expand(size_t P, const size_t *xf, size_t *off, size_t **idx, uint32_t order)
{
    size_t n = 0;
    for (size_t q = 0; q < off[P]; q++)
        n += xf[(*idx)[q] + 1] - xf[(*idx)[q]];
    /* message order is the listing itself: no sequence to build */
    const int rr = order == HC_RECV_ROUND_ROBIN;
    size_t *out = hc__malloc(n + 1, sizeof *out), *seq = rr ? hc__malloc(n + 1, sizeof *seq) : NULL;
    size_t *flat = rr ? hc__malloc(n + 1, sizeof *flat) : NULL;
    uint32_t *cnt = rr ? hc__malloc(off[P] + 1, sizeof *cnt) : NULL;
    if (!out || (rr && (!seq || !flat || !cnt))) {
        free(out);
        free(seq);
        free(flat);
        free(cnt);
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    }
    size_t k = 0;
    for (size_t u = 0; u < P; u++) {
        const size_t from = off[u], n_msgs = off[u + 1] - from;
        off[u] = k;
        /* the listing: the transfers message by message */
        for (size_t q = 0; q < n_msgs; q++)
            for (size_t y = xf[(*idx)[from + q]]; y < xf[(*idx)[from + q] + 1]; y++)
                out[k++] = y;
        if (!rr)
            continue;
        /* round-robin: the listing in the sequence's order */
        const size_t total = k - off[u];
        for (size_t q = 0; q < n_msgs; q++)
            cnt[q] = (uint32_t)(xf[(*idx)[from + q] + 1] - xf[(*idx)[from + q]]);
        hc_schedule_recv_sequence(order, cnt, n_msgs, seq);
        memcpy(flat, out + off[u], total * sizeof *flat);
        for (size_t t = 0; t < total; t++)
            out[off[u] + t] = flat[seq[t]];
    }
    off[P] = k;
    free(seq);
    free(flat);
    free(cnt);
    free(*idx);
    *idx = out;
    return HC_OK;
}

/* Total exchange and broadcast: a transfer per event (a total exchange in pieces: a transfer per
 * piece, hc_schedule_message_pieces). */
static int build_events(fr_t *f, const hc_schedule_t *s, const hc_problem_t *truth,
                        const hc_sim_opts_t *opts, const size_t *order)
{
    const hc_platform_t *pl = truth->platform;
    /* a segmented broadcast keeps windows of sends (any slot, as the alltoall's), posted in
     * planned order, and every receive posted (hc_schedule_exec_windows); its sends are
     * synchronous (MPI_Issend: a send holds its slot until its transfer is done, so the window
     * bounds what is in flight; eager pieces would all share the link at once and arrive
     * together); a whole-message one sends one at a time */
    const int windows = s->coll == HC_COLL_BCAST && s->n_segments > 1 && !s->parent2;
    /* a total exchange in pieces, or a segmented broadcast whose pieces between groups move as
     * sub-messages (hc_schedule_message_pieces) */
    const int pieces = (s->coll == HC_COLL_ALLTOALL || windows) && s->segment_bytes > 0;
    size_t *xf = pieces ? hc__malloc(s->n_events + 1, sizeof *xf) : NULL;
    if (pieces && !xf)
        return hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    for (size_t i = 0; i < s->n_events; i++) {
        const uint64_t b = s->events[i].bytes;
        const uint32_t n = hc_schedule_message_pieces(s, s->events[i].src, s->events[i].dst, b);
        if (xf)
            xf[i] = f->n;
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t x = s->events[i].src, y = s->events[i].dst;
            const uint64_t len = hc_schedule_message_piece_offset(s, x, y, b, k + 1) -
                                 hc_schedule_message_piece_offset(s, x, y, b, k);
            int rc = push_xfer(f, s->events[i].src, s->events[i].dst, (double)len, i,
                               windows ? 0 : opts->eager_bytes);
            if (rc != HC_OK) {
                free(xf);
                return rc;
            }
        }
    }
    if (xf)
        xf[s->n_events] = f->n;
    size_t *so = NULL, *si = NULL, *ro = NULL, *ri = NULL;
    int rc = lists(s, order, 0, &so, &si);
    if (rc == HC_OK)
        rc = lists(s, order, 1, &ro, &ri);
    if (rc == HC_OK && xf)
        rc = expand(s->P, xf, so, &si, HC_RECV_MESSAGES);
    if (rc == HC_OK && xf)
        rc = expand(s->P, xf, ro, &ri, s->recv_order);
    if (rc == HC_OK && s->coll == HC_COLL_ALLTOALL) {
        free(xf);
        return groups(f, s, pl, so, si, ro, ri);
    }
    for (uint32_t u = 0; rc == HC_OK && u < s->P; u++) {
        if (windows) {
            rc = chain(f, si, so[u], so[u + 1], 1, X_SPOST);
            continue;
        }
        uint32_t ws = 1;
        if (truth->msg_bytes <= HC_EXEC_SMALL_BYTES && so[u + 1] - so[u] >= 2)
            ws = 0; /* small whole messages: every send posted at once */
        rc = chain(f, si, so[u], so[u + 1], ws, X_SREL);
        if (rc == HC_OK)
            rc = chain(f, ri, ro[u], ro[u + 1], 1, X_REND);
    }
    if (rc == HC_OK && s->coll == HC_COLL_BCAST && !xf) {
        /* data: the broadcast's edges gate the sender; they index events = transfers */
        size_t from = f->g.n;
        rc = hc__bcast_data_edges(s, truth, order, &f->g);
        for (size_t e = from; rc == HC_OK && e < f->g.n; e++)
            f->g.kind[e] = X_SEND;
    } else if (rc == HC_OK && s->coll == HC_COLL_BCAST) {
        /* with sub-messages, each of b's waits for all of a's (a piece is held once whole) */
        hc__edges_t d;
        memset(&d, 0, sizeof d);
        rc = hc__bcast_data_edges(s, truth, order, &d);
        for (size_t e = 0; rc == HC_OK && e < d.n; e++)
            for (size_t a = xf[d.from[e]]; rc == HC_OK && a < xf[d.from[e] + 1]; a++)
                for (size_t b = xf[d.to[e]]; rc == HC_OK && b < xf[d.to[e] + 1]; b++)
                    rc = hc__edges_add(&f->g, a, b, X_SEND);
        free(d.from);
        free(d.to);
        free(d.kind);
    }
    free(xf);
    if (rc == HC_OK && windows)
        return groups(f, s, pl, so, si, ro, ri);
    free(so);
    free(si);
    free(ro);
    free(ri);
    return rc;
}

/* A total exchange through forwarders (hc_schedule_t.relay), as hc_schedule_forwarder says:
 * every send and receive posted at once; messages inside a group direct (their pieces as
 * build_events cuts them); per sender and forwarder one phase-1 transfer of the sender's blocks
 * for the forwarder's destinations; per forwarder and destination the phase-2 message of the
 * group's blocks, in hc_schedule_pieces pieces, each gated by every phase-1 transfer into the
 * forwarder (data edges). Groups are numbered densely here (g), members in id order. */
static int build_relay(fr_t *f, const hc_schedule_t *s, const hc_sim_opts_t *opts)
{
    const uint32_t P = s->P;
    const size_t E = s->n_events;
    uint32_t *g = hc__malloc(P + 1, sizeof *g), *pos = hc__malloc(P + 1, sizeof *pos);
    uint32_t *cnt = hc__calloc(P + 1, sizeof *cnt), *mem = hc__malloc(P + 1, sizeof *mem);
    uint32_t *first = hc__calloc(P + 2, sizeof *first);
    int32_t *label = hc__malloc(P + 1, sizeof *label);
    double *b1 = NULL, *b2 = NULL;
    size_t *t1 = NULL, *t2a = NULL, *t2b = NULL;
    int rc = g && pos && cnt && mem && first && label
                 ? HC_OK
                 : hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    uint32_t G = 0, maxn = 0;
    for (uint32_t v = 0; rc == HC_OK && v < P; v++) { /* dense group numbers, by first member */
        uint32_t k = 0;
        while (k < G && label[k] != s->piece_groups[v])
            k++;
        if (k == G)
            label[G++] = s->piece_groups[v];
        g[v] = k;
        pos[v] = cnt[k]++;
        maxn = cnt[k] > maxn ? cnt[k] : maxn;
    }
    for (uint32_t k = 0; rc == HC_OK && k < G; k++)
        first[k + 1] = first[k] + cnt[k];
    for (uint32_t v = 0; rc == HC_OK && v < P; v++)
        mem[first[g[v]] + pos[v]] = v;
    /* phase 1 per (sender, forwarder position), phase 2 per (destination, sender group) */
    if (rc == HC_OK) {
        b1 = hc__calloc((size_t)P * maxn + 1, sizeof *b1);
        b2 = hc__calloc((size_t)P * G + 1, sizeof *b2);
        t1 = hc__malloc((size_t)P * maxn + 1, sizeof *t1);
        t2a = hc__malloc((size_t)P * G + 1, sizeof *t2a);
        t2b = hc__malloc((size_t)P * G + 1, sizeof *t2b);
        f->rv_p1 = hc__malloc(E + 1, sizeof *f->rv_p1);
        f->rv_a = hc__malloc(E + 1, sizeof *f->rv_a);
        f->rv_b = hc__malloc(E + 1, sizeof *f->rv_b);
        if (!b1 || !b2 || !t1 || !t2a || !t2b || !f->rv_p1 || !f->rv_a || !f->rv_b)
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    }
#define FWD_POS(x, j) (pos[j] % cnt[g[x]]) /* the forwarder's position in x's group */
    for (size_t i = 0; rc == HC_OK && i < E; i++) {
        const hc_event_t *e = &s->events[i];
        f->rv_p1[i] = f->rv_a[i] = f->rv_b[i] = SIZE_MAX;
        if (g[e->src] == g[e->dst]) { /* direct */
            const uint32_t n = hc_schedule_message_pieces(s, e->src, e->dst, e->bytes);
            for (uint32_t k = 0; rc == HC_OK && k < n; k++)
                rc = push_xfer(
                    f, e->src, e->dst,
                    (double)(hc_schedule_message_piece_offset(s, e->src, e->dst, e->bytes, k + 1) -
                             hc_schedule_message_piece_offset(s, e->src, e->dst, e->bytes, k)),
                    i, opts->eager_bytes);
            continue;
        }
        const uint32_t fp = FWD_POS(e->src, e->dst), fw = mem[first[g[e->src]] + fp];
        if (fw != e->src)
            b1[(size_t)e->src * maxn + fp] += (double)e->bytes;
        b2[(size_t)e->dst * G + g[e->src]] += (double)e->bytes;
    }
    for (size_t q = 0; rc == HC_OK && q < (size_t)P * maxn; q++) {
        t1[q] = SIZE_MAX;
        const uint32_t x = (uint32_t)(q / maxn), fp = (uint32_t)(q % maxn);
        if (b1[q] > 0) {
            t1[q] = f->n;
            rc = push_xfer(f, x, mem[first[g[x]] + fp], b1[q], SIZE_MAX, opts->eager_bytes);
        }
    }
    for (size_t q = 0; rc == HC_OK && q < (size_t)P * G; q++) {
        t2a[q] = t2b[q] = f->n;
        const uint32_t j = (uint32_t)(q / G), a = (uint32_t)(q % G);
        if (b2[q] <= 0)
            continue;
        const uint32_t fw = mem[first[a] + pos[j] % cnt[a]];
        const uint64_t bytes = (uint64_t)b2[q];
        const uint32_t n = hc_schedule_message_pieces(s, fw, j, bytes);
        for (uint32_t k = 0; rc == HC_OK && k < n; k++)
            rc = push_xfer(f, fw, j,
                           (double)(hc_schedule_message_piece_offset(s, fw, j, bytes, k + 1) -
                                    hc_schedule_message_piece_offset(s, fw, j, bytes, k)),
                           SIZE_MAX, opts->eager_bytes);
        t2b[q] = f->n;
        /* gated by every phase-1 transfer into fw */
        for (uint32_t m = 0; rc == HC_OK && m < cnt[a]; m++) {
            const uint32_t x = mem[first[a] + m];
            const size_t p1 = t1[(size_t)x * maxn + pos[fw]];
            for (size_t y = t2a[q]; rc == HC_OK && p1 != SIZE_MAX && y < t2b[q]; y++)
                rc = hc__edges_add(&f->g, p1, y, X_SEND);
        }
    }
    for (size_t i = 0; rc == HC_OK && i < E; i++) { /* each event's transfers, for its times */
        const hc_event_t *e = &s->events[i];
        if (g[e->src] == g[e->dst])
            continue;
        const size_t q = (size_t)e->dst * G + g[e->src];
        f->rv_p1[i] = t1[(size_t)e->src * maxn + FWD_POS(e->src, e->dst)];
        f->rv_a[i] = t2a[q];
        f->rv_b[i] = t2b[q];
    }
#undef FWD_POS
    free(g);
    free(pos);
    free(cnt);
    free(mem);
    free(first);
    free(label);
    free(b1);
    free(b2);
    free(t1);
    free(t2a);
    free(t2b);
    return rc;
}

/* The times of the events between groups of a relay: from their phase-1 transfer's start (or
 * their phase 2's, from the forwarder itself) to the end of their phase 2. */
static void relay_times(const fr_t *f, hc_sim_result_t *r)
{
    for (size_t i = 0; f->rv_a && i < r->n_events; i++) {
        if (f->rv_a[i] == SIZE_MAX)
            continue;
        double st = INFINITY, en = 0;
        if (f->rv_p1[i] != SIZE_MAX)
            st = f->x[f->rv_p1[i]].tstart;
        for (size_t y = f->rv_a[i]; y < f->rv_b[i]; y++) {
            st = fmin(st, f->x[y].tstart);
            en = fmax(en, f->x[y].tend);
        }
        r->events[i].start = isfinite(st) ? st : 0;
        r->events[i].end = en;
    }
}

/* An edge from every transfer of piece a to every transfer of piece b (pieces in sub-messages:
 * transfers tx[a] .. tx[a + 1]). */
static int edges_all(fr_t *f, const size_t *tx, size_t a, size_t b, int kind)
{
    int rc = HC_OK;
    for (size_t x = tx[a]; rc == HC_OK && x < tx[a + 1]; x++)
        for (size_t y = tx[b]; rc == HC_OK && y < tx[b + 1]; y++)
            rc = hc__edges_add(&f->g, x, y, kind);
    return rc;
}

/* Reduction: event i split into pieces (segments); xf[i] is the first piece of event i, np[i]
 * its count; piece q moves as transfers tx[q] .. tx[q + 1] (its sub-messages,
 * hc_schedule_reduce_subs). */
static int build_reduce(fr_t *f, const hc_schedule_t *s, const hc_problem_t *truth,
                        const hc_sim_opts_t *opts, const size_t *order)
{
    size_t E = s->n_events;
    uint64_t seg = hc_schedule_reduce_segment(s, truth->platform);
    size_t *xf = hc__malloc(E + 1, sizeof *xf), *np = hc__malloc(E + 1, sizeof *np);
    size_t *so = NULL, *si = NULL, *ro = NULL, *ri = NULL;
    /* paced leaf sends (hc_schedule_reduce_paced), as src/mpi/exec.c runs them: per node its
     * list (pl, po[u] .. po[u + 1]) and window (pw); paced[i]: event i goes in that order */
    size_t *pl = hc__malloc(E + 1, sizeof *pl), *po = hc__calloc(s->P + 1, sizeof *po);
    uint32_t *pw = hc__calloc(s->P + 1, sizeof *pw), *wn = hc__malloc(s->P + 1, sizeof *wn);
    unsigned char *paced = hc__calloc(E + 1, 1);
    int rc = xf && np && pl && po && pw && wn && paced
                 ? HC_OK
                 : hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    for (size_t i = 0; rc == HC_OK && i < E; i++) {
        const double m = s->events[i].bytes ? (double)s->events[i].bytes : (double)truth->msg_bytes;
        np[i] = m > (double)seg ? (size_t)ceil(m / (double)seg) : 1;
    }
    for (uint32_t u = 0; rc == HC_OK && u < s->P; u++)
        wn[u] = hc_schedule_reduce_node_window(s, truth->platform, u);
    for (uint32_t u = 0; rc == HC_OK && u < s->P; u++) {
        size_t n = 0;
        rc = hc_schedule_reduce_paced(s, truth->platform, u, pl + po[u], &n, &pw[u]);
        /* a tree is paced when its parent posts every segment's receive at once */
        size_t k = 0;
        for (size_t q = 0; rc == HC_OK && q < n; q++) {
            const size_t i = pl[po[u] + q];
            if (np[i] <= wn[s->events[i].dst]) {
                paced[i] = 1;
                pl[po[u] + k++] = i;
            }
        }
        po[u + 1] = po[u] + k;
    }
    size_t nl = 0;
    for (size_t i = 0; i < E; i++)
        nl += np[i];
    size_t *tx = rc == HC_OK ? hc__malloc(nl + 1, sizeof *tx) : NULL;
    if (rc == HC_OK && !tx)
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    nl = 0;
    for (size_t i = 0; rc == HC_OK && i < E; i++) {
        const hc_event_t *e = &s->events[i];
        double m = e->bytes ? (double)e->bytes : (double)truth->msg_bytes;
        const size_t k = np[i];
        xf[i] = nl;
        for (size_t j = 0; rc == HC_OK && j < k; j++) {
            const double len =
                floor(m * (double)(j + 1) / (double)k) - floor(m * (double)j / (double)k);
            const uint32_t q = hc_schedule_reduce_subs(s, e->src, e->dst, (uint64_t)len);
            tx[nl++] = f->n;
            for (uint32_t z = 0; rc == HC_OK && z < q; z++)
                rc = push_xfer(f, e->src, e->dst, floor(len * (z + 1) / q) - floor(len * z / q), i,
                               paced[i] ? 0 : opts->eager_bytes);
        }
    }
    if (tx)
        tx[nl] = f->n;
    if (rc == HC_OK)
        rc = lists(s, order, 0, &so, &si);
    if (rc == HC_OK)
        rc = lists(s, order, 1, &ro, &ri);
    for (uint32_t u = 0; rc == HC_OK && u < s->P; u++) {
        const size_t W = hc_schedule_reduce_node_window(s, truth->platform, u);
        /* receives: piece k of a child once piece k - W of it arrived */
        for (size_t q = ro[u]; rc == HC_OK && q < ro[u + 1]; q++)
            for (size_t j = W; rc == HC_OK && j < np[ri[q]]; j++)
                rc = edges_all(f, tx, xf[ri[q]] + j - W, xf[ri[q]] + j, X_REND);
        for (size_t q = so[u]; rc == HC_OK && q < so[u + 1]; q++) {
            size_t i = si[q];
            for (size_t j = 0; rc == HC_OK && j < np[i]; j++) {
                /* piece j leaves once piece j of every child in its tree is in, W pieces
                 * in flight per tree */
                for (size_t c = ro[u]; rc == HC_OK && c < ro[u + 1]; c++) {
                    if (s->events[ri[c]].tree != s->events[i].tree)
                        continue;
                    size_t jc = j < np[ri[c]] ? j : np[ri[c]] - 1;
                    rc = edges_all(f, tx, xf[ri[c]] + jc, xf[i] + j, X_SEND);
                }
                if (rc == HC_OK && j >= W && !paced[i])
                    rc = edges_all(f, tx, xf[i] + j - W, xf[i] + j, X_SREL);
            }
        }
        /* paced sends: synchronous, in order, pw[u] in flight: each waits for the end of the
         * one pw[u] places before it */
        size_t a0 = po[u], j0 = 0; /* the transfer pw[u] places back */
        size_t q = 0;
        for (size_t a = po[u]; rc == HC_OK && a < po[u + 1]; a++)
            for (size_t j = 0; rc == HC_OK && j < np[pl[a]]; j++, q++) {
                if (q < pw[u])
                    continue;
                rc = edges_all(f, tx, xf[pl[a0]] + j0, xf[pl[a]] + j, X_SEND);
                if (++j0 == np[pl[a0]]) {
                    a0++;
                    j0 = 0;
                }
            }
    }
    free(tx);
    free(pl);
    free(po);
    free(pw);
    free(wn);
    free(paced);
    free(xf);
    free(np);
    free(so);
    free(si);
    free(ro);
    free(ri);
    return rc;
}

/* Redistribution: per step, every rank posts its send and its receive once it left the previous
 * barrier, and enters the next barrier when they completed (an eager send at once); the barrier
 * is the runtime's star barrier over all the platform's nodes (the communicator): node 0 has
 * heard from node j at max(j's entry, its own) + L(j, 0), and answers everyone once it heard
 * from all. */
static int run_redistribute(const hc_schedule_t *s, const hc_problem_t *truth,
                            const hc_platform_t *pl, const hc_sim_opts_t *opts, hc_sim_result_t *r)
{
    const uint32_t *map = truth->platform ? NULL : hc_problem_nodes(truth);
    const uint32_t P = hc_platform_size(pl);
    HC__TRY(hc__check_steps(s));
    hc__fe_t *fe;
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = opts->smpi_factors;
    HC__TRY(hc__fe_create(pl, &fo, &fe));
    size_t *of = hc__malloc(s->n_events + 1, sizeof *of); /* engine id -> event */
    double *ready = hc__calloc((size_t)P + 1, sizeof *ready);
    double *enter = hc__malloc((size_t)P + 1, sizeof *enter);
    double *next = hc__malloc((size_t)P + 1, sizeof *next);
    int rc = of && ready && enter && next
                 ? HC_OK
                 : hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    size_t added = 0;
    for (size_t k = 0; rc == HC_OK && k < s->n_steps; k++) {
        const hc_step_t *st = &s->steps[k];
        memcpy(enter, ready, P * sizeof *enter);
        for (size_t i = st->first; rc == HC_OK && i < st->first + st->count; i++) {
            const hc_event_t *e = &s->events[i];
            uint32_t a = map ? map[e->src] : e->src, b = map ? map[e->dst] : e->dst;
            double t0 = fmax(ready[a], ready[b]);
            r->events[i].start = t0;
            of[added++] = i;
            rc = hc__fe_add(fe, a, b, (double)e->bytes, t0, NULL);
        }
        size_t id;
        double te;
        for (size_t n = 0; rc == HC_OK && n < st->count && hc__fe_next(fe, &id, &te); n++) {
            const hc_event_t *e = &s->events[of[id]];
            uint32_t a = map ? map[e->src] : e->src, b = map ? map[e->dst] : e->dst;
            r->events[of[id]].end = te;
            enter[b] = fmax(enter[b], te);
            if (e->bytes >= opts->eager_bytes)
                enter[a] = fmax(enter[a], te);
        }
        /* the star barrier: node 0 hears from everyone, then answers all */
        double g = enter[0];
        for (uint32_t j = 1; j < P; j++)
            g = fmax(g, fmax(enter[j], enter[0]) + hc__fe_latency(fe, j, 0, 0));
        enter[0] = g;
        for (uint32_t j = 1; j < P; j++)
            enter[j] = fmax(g, enter[j]) + hc__fe_latency(fe, 0, j, 0);
        memcpy(ready, enter, P * sizeof *ready);
    }
    for (uint32_t j = 0; j < P; j++)
        r->makespan = fmax(r->makespan, ready[j]);
    hc__fe_destroy(fe);
    free(of);
    free(ready);
    free(enter);
    return rc;
}

/* TTCC (two trees) as src/mpi/exec_ttcc.c runs it: the message in nseg pieces; a node holds a
 * piece once either parent's copy arrived (each parent edge delivers its pieces in order, a
 * receive always posted, the next one once a piece arrived); it serves its T0 children, then
 * its T1 children, one edge at a time and one send at a time (an eager piece leaves at once),
 * each edge its pieces in order as they are held, skipping stopped edges. A node holding everything
 * sends STOP (a control message: its latency) to both parents; a parent stops that edge after its
 * in-flight send and answers END, which closes the child's edge. A node is done when its edges are
 * closed and its sends are done. */
typedef struct {
    uint32_t peer;
    uint32_t sent;    /* pieces posted by the sender (an eager one is gone at once) */
    uint32_t started; /* pieces whose transfer started: the child posts its receives in order */
    unsigned char stopped, replied, inflight;
} tedge_t;

enum { T_DATA = 0, T_STOP = 1, T_END = 2 };

static int run_ttcc(const hc_schedule_t *s, const hc_problem_t *truth, const hc_platform_t *pl,
                    const hc_sim_opts_t *opts, hc_sim_result_t *r)
{
    const uint32_t P = s->P, root = s->root;
    uint64_t m = truth->msg_bytes ? truth->msg_bytes : 1;
    uint32_t nseg = s->n_segments > 1 ? s->n_segments : 16;
    if (nseg > 4096)
        nseg = 4096;
    if (nseg > m)
        nseg = (uint32_t)m;
    size_t *order = NULL;
    HC__TRY(hc__event_order(s->events, s->n_events, &order));
    /* out edges per node in exec's order: T0 children by planned start, then T1 children */
    size_t *ooff = hc__calloc((size_t)P + 2, sizeof *ooff);
    tedge_t *out = hc__calloc(s->n_events + 1, sizeof *out);
    size_t *cur = hc__calloc((size_t)P + 1, sizeof *cur);
    size_t *busy = hc__malloc((size_t)P + 1, sizeof *busy); /* x * nseg + g of the send, or none */
    unsigned char *held = hc__calloc((size_t)P * nseg + 1, 1);
    uint32_t *nheld = hc__calloc((size_t)P + 1, sizeof *nheld);
    double *done = hc__calloc((size_t)P + 1, sizeof *done);
    size_t cap = 1024, n_ids = 0;
    uint32_t *id_kind = hc__malloc(cap, sizeof *id_kind), *id_a = hc__malloc(cap, sizeof *id_a);
    size_t *id_b = hc__malloc(cap, sizeof *id_b);
    hc__fe_t *fe = NULL;
    int rc = ooff && out && cur && busy && held && nheld && done && id_kind && id_a && id_b
                 ? HC_OK
                 : hc__error(HC_ERR_NOMEM, "out of memory in the simulator");
    for (size_t q = 0; rc == HC_OK && q < s->n_events; q++) {
        const hc_event_t *e = &s->events[order[q]];
        if (e->seg == 0 && e->src < P)
            ooff[e->src + 1]++;
    }
    for (uint32_t u = 0; rc == HC_OK && u < P; u++)
        ooff[u + 1] += ooff[u];
    for (int tree = 0; rc == HC_OK && tree < 2; tree++)
        for (size_t q = 0; q < s->n_events; q++) {
            const hc_event_t *e = &s->events[order[q]];
            if (e->seg != 0 || e->tree != tree || e->src >= P)
                continue;
            out[ooff[e->src] + cur[e->src]++].peer = e->dst;
        }
    for (uint32_t u = 0; u < P && rc == HC_OK; u++) {
        cur[u] = ooff[u];
        busy[u] = SIZE_MAX;
    }
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = opts->smpi_factors;
    if (rc == HC_OK)
        rc = hc__fe_create(pl, &fo, &fe);
    if (rc == HC_OK) {
        memset(held + (size_t)root * nseg, 1, nseg);
        nheld[root] = nseg;
    }
#define PIECE(g) (floor((double)m * ((g) + 1) / nseg) - floor((double)m * (g) / nseg))
/* a flow: its kind, node a, and b (an edge's x * nseg + piece, or the child of a STOP) */
#define ADD(kind, src, dst, bytes, a, b)                                                           \
    do {                                                                                           \
        if (n_ids == cap) {                                                                        \
            cap *= 2;                                                                              \
            uint32_t *k2 = realloc(id_kind, cap * sizeof *k2);                                     \
            if (k2)                                                                                \
                id_kind = k2;                                                                      \
            uint32_t *a2 = k2 ? realloc(id_a, cap * sizeof *a2) : NULL;                            \
            if (a2)                                                                                \
                id_a = a2;                                                                         \
            size_t *b2 = a2 ? realloc(id_b, cap * sizeof *b2) : NULL;                              \
            if (!b2) {                                                                             \
                rc = hc__error(HC_ERR_NOMEM, "out of memory in the simulator");                    \
                break;                                                                             \
            }                                                                                      \
            id_b = b2;                                                                             \
        }                                                                                          \
        id_kind[n_ids] = (kind);                                                                   \
        id_a[n_ids] = (a);                                                                         \
        id_b[n_ids++] = (b);                                                                       \
        rc = hc__fe_add(fe, (src), (dst), (bytes), hc__fe_now(fe), NULL);                          \
    } while (0)
/* the next posted piece of edge x (node u's) starts when the previous one has arrived */
#define START(u, x)                                                                                \
    do {                                                                                           \
        tedge_t *o_ = &out[x];                                                                     \
        if (!o_->inflight && o_->started < o_->sent) {                                             \
            o_->inflight = 1;                                                                      \
            ADD(T_DATA, (u), o_->peer, PIECE(o_->started), (u), (x)*nseg + o_->started);           \
            o_->started++;                                                                         \
        }                                                                                          \
    } while (0)
    double now = 0;
    size_t id;
    for (;;) {
        for (uint32_t u = 0; rc == HC_OK && u < P; u++)
            for (;;) { /* post what u can: one send at a time, an eager one gone at once */
                while (cur[u] < ooff[u + 1] && (out[cur[u]].stopped || out[cur[u]].sent == nseg))
                    cur[u]++;
                if (busy[u] != SIZE_MAX || cur[u] == ooff[u + 1] ||
                    !held[(size_t)u * nseg + out[cur[u]].sent])
                    break;
                size_t x = cur[u];
                uint32_t g = out[x].sent++;
                if (!(PIECE(g) < (double)opts->eager_bytes))
                    busy[u] = x * nseg + g;
                done[u] = fmax(done[u], now);
                START(u, x);
                if (rc != HC_OK)
                    break;
            }
        if (rc != HC_OK || !hc__fe_next(fe, &id, &now))
            break;
        uint32_t kind = id_kind[id], u = id_a[id];
        size_t b = id_b[id];
        if (kind == T_DATA) {
            size_t x = b / nseg;
            uint32_t g = (uint32_t)(b % nseg);
            tedge_t *o = &out[x];
            uint32_t v = o->peer;
            o->inflight = 0;
            done[v] = fmax(done[v], now);
            if (busy[u] == b) { /* u's send completed */
                busy[u] = SIZE_MAX;
                done[u] = fmax(done[u], now);
            }
            if (o->stopped && !o->replied && busy[u] == SIZE_MAX) {
                o->replied = 1;
                ADD(T_END, u, v, 0.0, v, 0);
            }
            if (!held[(size_t)v * nseg + g]) {
                held[(size_t)v * nseg + g] = 1;
                if (++nheld[v] == nseg) { /* STOP to both parents */
                    int32_t par[2] = {s->parent ? s->parent[v] : -1,
                                      s->parent2 ? s->parent2[v] : -1};
                    for (int t = 0; rc == HC_OK && t < 2; t++)
                        if (par[t] >= 0 && (uint32_t)par[t] < P)
                            ADD(T_STOP, v, (uint32_t)par[t], 0.0, (uint32_t)par[t], v);
                }
            }
            if (rc == HC_OK)
                START(u, x);
        } else if (kind == T_STOP) { /* at u = the parent, from child b */
            for (size_t k = ooff[u]; rc == HC_OK && k < ooff[u + 1]; k++) {
                tedge_t *o = &out[k];
                if (o->peer != (uint32_t)b || o->stopped)
                    continue;
                o->stopped = 1;
                if (busy[u] == SIZE_MAX || busy[u] / nseg != k) { /* no send of it in flight */
                    o->replied = 1;
                    ADD(T_END, u, o->peer, 0.0, o->peer, 0);
                }
                done[u] = fmax(done[u], now);
            }
        } else { /* END arrives at u: an edge closed */
            done[u] = fmax(done[u], now);
        }
        if (rc != HC_OK)
            break;
    }
#undef START
#undef ADD
#undef PIECE
    for (uint32_t u = 0; rc == HC_OK && u < P; u++) {
        if (nheld[u] < nseg)
            rc = hc__error(HC_ERR_INVALID_SCHEDULE,
                           "simulate: two-tree broadcast: node %u never gets %u of %u pieces", u,
                           nseg - nheld[u], nseg);
        r->makespan = fmax(r->makespan, done[u]);
        if (r->finish)
            r->finish[u] = done[u];
    }
    for (size_t i = 0; i < r->n_events; i++) { /* per-edge times are not tracked */
        r->events[i].start = 0;
        r->events[i].end = r->makespan;
    }
    hc__fe_destroy(fe);
    free(order);
    free(ooff);
    free(out);
    free(cur);
    free(busy);
    free(held);
    free(nheld);
    free(done);
    free(id_kind);
    free(id_a);
    free(id_b);
    return rc;
}

int hc__simulate_flow(const hc_schedule_t *s, const hc_problem_t *truth, const hc_sim_opts_t *opts,
                      hc_sim_result_t *r)
{
    r->makespan = 0;
    const hc_platform_t *pl = truth->platform ? truth->platform : hc__problem_node_platform(truth);
    hc_platform_t *nic = NULL; /* a platform without links: its NICs and private pair links */
    if (!pl)
        return hc__error(HC_ERR_UNSUPPORTED, "simulate: the flow network needs a platform");
    if (!hc_platform_has_routes(pl)) {
        HC__TRY(hc__platform_nic_links(pl, &nic));
        pl = nic;
    }
    if (s->coll == HC_COLL_REDISTRIBUTE || s->parent2) {
        int rc =
            s->parent2 ? run_ttcc(s, truth, pl, opts, r) : run_redistribute(s, truth, pl, opts, r);
        hc_platform_destroy(nic);
        return rc;
    }
    size_t *order = NULL;
    int rc = hc__event_order(s->events, s->n_events, &order);
    fr_t f;
    memset(&f, 0, sizeof f);
    if (rc == HC_OK)
        rc = s->coll == HC_COLL_REDUCE     ? build_reduce(&f, s, truth, opts, order)
             : s->relay && s->piece_groups ? build_relay(&f, s, opts)
                                           : build_events(&f, s, truth, opts, order);
    if (rc == HC_OK)
        rc = run(&f, pl, opts, r);
    if (rc == HC_OK)
        relay_times(&f, r);
    hc__fe_destroy(f.fe);
    hc_platform_destroy(nic);
    free(order);
    free(f.x);
    free(f.g.from);
    free(f.g.to);
    free(f.g.kind);
    free(f.off_post);
    free(f.adj_post);
    free(f.off_end);
    free(f.adj_end);
    free(f.stack);
    free(f.stime);
    free(f.of);
    free(f.goff);
    free(f.gidx);
    free(f.gnext);
    free(f.greleased);
    free(f.gwin);
    free(f.sgroup);
    free(f.rgroup);
    free(f.rv_p1);
    free(f.rv_a);
    free(f.rv_b);
    return rc;
}
