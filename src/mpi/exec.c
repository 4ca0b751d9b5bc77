/* Executing schedules with point-to-point messages.
 *
 * Each rank follows its send order and its receive order (events sorted by planned start,
 * ties by event index), posting in that order with windows of messages in flight
 * (hc_schedule_exec_windows; 1 on a LAN); the next one is posted when one completes. This
 * cannot deadlock when the schedule is consistent with a global time order (docs/design.md,
 * "MPI runtime"): the earliest unfinished event is at the head of both its sender's and its
 * receiver's queues, so both sides have posted it and it completes; larger windows post more,
 * never less. A reduction waits only for its children (hc__exec_reduce). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* qsort has no context argument; one per thread (MPI_THREAD_MULTIPLE). */
static _Thread_local const hc_schedule_t *sort_sched;

static int by_start(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    double sa = sort_sched->events[a].start, sb = sort_sched->events[b].start;
    if (sa < sb)
        return -1;
    if (sa > sb)
        return 1;
    return a < b ? -1 : a > b;
}

/* Indices of events with src == me (sends) and dst == me (recvs), each in planned order. */
static int my_lists(const hc_schedule_t *s, uint32_t me, size_t **sends, size_t *ns, size_t **recvs,
                    size_t *nr)
{
    *ns = *nr = 0;
    *sends = malloc(sizeof **sends * (s->n_events + 1));
    *recvs = malloc(sizeof **recvs * (s->n_events + 1));
    if (!*sends || !*recvs) {
        free(*sends);
        free(*recvs);
        *sends = *recvs = NULL;
        return MPI_ERR_NO_MEM;
    }
    for (size_t i = 0; i < s->n_events; i++) {
        if (s->events[i].src == me)
            (*sends)[(*ns)++] = i;
        if (s->events[i].dst == me)
            (*recvs)[(*nr)++] = i;
    }
    sort_sched = s;
    qsort(*sends, *ns, sizeof **sends, by_start);
    qsort(*recvs, *nr, sizeof **recvs, by_start);
    return MPI_SUCCESS;
}

void hc__order_free(hc__order_t *o)
{
    if (!o)
        return;
    free(o->sends);
    free(o->recvs);
    free(o->soff);
    free(o->slen);
    free(o->roff);
    free(o->rlen);
    free(o->paced);
    free(o->paced_win);
    free(o);
}

static uint32_t uf_find(uint32_t *up, uint32_t v)
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

/* The byte ranges of a segmented broadcast. A segment index means a piece of one *family*:
 * the schedule's segment events (those not carrying the whole message) connect the nodes of
 * a family, and hierarchical schedules cut each cluster's family its own way (a pipeline of
 * 64 KiB pieces in one cluster, n pieces of a scatter in another). Within a family piece j is
 * the same size on every event and the pieces tile the message in index order. */
static int segment_ranges(const hc_comm_t *c, const hc_schedule_t *s, uint64_t plan, hc__order_t *o)
{
    const uint32_t P = s->P, me = (uint32_t)c->rank, K = s->n_segments;
    uint32_t *up = malloc(sizeof *up * P);
    uint64_t *size = calloc(K, sizeof *size), *off = calloc(K + 1, sizeof *off);
    o->soff = malloc(sizeof *o->soff * (o->ns + 1));
    o->slen = malloc(sizeof *o->slen * (o->ns + 1));
    o->roff = malloc(sizeof *o->roff * (o->nr + 1));
    o->rlen = malloc(sizeof *o->rlen * (o->nr + 1));
    int err = up && size && off && o->soff && o->slen && o->roff && o->rlen ? MPI_SUCCESS
                                                                            : MPI_ERR_NO_MEM;
    for (uint32_t v = 0; err == MPI_SUCCESS && v < P; v++)
        up[v] = v;
    for (size_t i = 0; err == MPI_SUCCESS && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->bytes != plan)
            up[uf_find(up, e->src)] = uf_find(up, e->dst);
    }
    uint32_t k = 0;
    for (size_t i = 0; err == MPI_SUCCESS && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->bytes == plan || uf_find(up, e->src) != uf_find(up, me))
            continue;
        if (e->seg >= K || (size[e->seg] && size[e->seg] != e->bytes))
            err = hc__fail(MPI_ERR_INTERN, "broadcast schedule %s: segment %u has two sizes",
                           s->algorithm, e->seg);
        else
            size[e->seg] = e->bytes;
        k = e->seg + 1 > k ? e->seg + 1 : k;
    }
    for (uint32_t j = 0; err == MPI_SUCCESS && j < k; j++)
        off[j + 1] = off[j] + size[j];
    if (err == MPI_SUCCESS && k > 0 && off[k] != plan)
        err = hc__fail(MPI_ERR_INTERN,
                       "broadcast schedule %s: rank %u's segments cover %llu of %llu bytes",
                       s->algorithm, me, (unsigned long long)off[k], (unsigned long long)plan);
    for (size_t i = 0; err == MPI_SUCCESS && i < o->ns + o->nr; i++) {
        int send = i < o->ns;
        const hc_event_t *e = &s->events[send ? o->sends[i] : o->recvs[i - o->ns]];
        uint64_t a = e->bytes == plan ? 0 : off[e->seg], n = e->bytes == plan ? plan : size[e->seg];
        if (send) {
            o->soff[i] = a;
            o->slen[i] = n;
        } else {
            o->roff[i - o->ns] = a;
            o->rlen[i - o->ns] = n;
        }
    }
    o->kseg = k;
    free(up);
    free(size);
    free(off);
    return err;
}

int hc__order_build(const hc_comm_t *c, const hc_schedule_t *s, uint64_t plan_bytes,
                    hc__order_t **out)
{
    hc__order_t *o = calloc(1, sizeof *o);
    if (!o)
        return MPI_ERR_NO_MEM;
    int err = my_lists(s, (uint32_t)c->rank, &o->sends, &o->ns, &o->recvs, &o->nr);
    if (err != MPI_SUCCESS) {
        free(o);
        return err;
    }
    if (s->coll == HC_COLL_REDUCE) {
        o->seg_bytes = hc_schedule_reduce_segment(s, c->platform);
        o->ws = hc_schedule_reduce_node_window(s, c->platform, (uint32_t)c->rank);
        o->paced = malloc(sizeof *o->paced * (s->n_events + 1));
        if (!o->paced ||
            hc_schedule_reduce_paced(s, c->platform, (uint32_t)c->rank, o->paced, &o->npaced,
                                     &o->wp) != HC_OK ||
            !(o->paced_win = malloc(sizeof *o->paced_win * (o->npaced + 1)))) {
            hc__order_free(o);
            return MPI_ERR_NO_MEM;
        }
        for (size_t q = 0; q < o->npaced; q++)
            o->paced_win[q] =
                hc_schedule_reduce_node_window(s, c->platform, s->events[o->paced[q]].dst);
    }
    if ((s->coll == HC_COLL_ALLTOALL || (s->coll == HC_COLL_BCAST && !s->parent2)) &&
        hc_schedule_exec_windows(s, c->platform, (uint32_t)c->rank, &o->ws, &o->wr) != HC_OK) {
        o->ws = s->recv_order == HC_RECV_ROUND_ROBIN ? 0 : 1; /* see hc_schedule_exec_windows */
        o->wr = 1;
    }
    if (s->coll == HC_COLL_BCAST && !s->parent2 && s->n_segments > 1) {
        err = segment_ranges(c, s, plan_bytes, o);
        if (err != MPI_SUCCESS) {
            hc__order_free(o);
            return err;
        }
    }
    *out = o;
    return MPI_SUCCESS;
}

#define HC__WAITALL_MAX 256u

int hc__exchange_run(MPI_Comm comm, hc__msg_t *sends, size_t ns, uint32_t ws, hc__msg_t *recvs,
                     size_t nr, uint32_t wr)
{
    if (ws == 0 || ws > ns)
        ws = (uint32_t)(ns ? ns : 1);
    if (wr == 0 || wr > nr)
        wr = (uint32_t)(nr ? nr : 1);
    MPI_Request *req = malloc(sizeof *req * (ws + wr));
    /* Real statuses: MPICH's headers make gcc reject MPI_STATUSES_IGNORE here. */
    MPI_Status *st = malloc(sizeof *st * (ws + wr));
    size_t *which = malloc(sizeof *which * (wr ? wr : 1)); /* receive slot -> message */
    int err = req && st && which ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (uint32_t k = 0; err == MPI_SUCCESS && k < ws + wr; k++)
        req[k] = MPI_REQUEST_NULL;
    if (err == MPI_SUCCESS && ws >= ns && wr >= nr) {
        /* Everything at once: one Waitall. */
        for (size_t i = 0; err == MPI_SUCCESS && i < nr; i++)
            err = MPI_Irecv(recvs[i].buf, recvs[i].count, recvs[i].type, recvs[i].peer,
                            recvs[i].tag, comm, &req[ws + i]);
        for (size_t i = 0; err == MPI_SUCCESS && i < ns; i++)
            err = MPI_Isend(sends[i].buf, sends[i].count, sends[i].type, sends[i].peer,
                            sends[i].tag, comm, &req[i]);
        /* Many requests (an exchange in pieces): waited for one by one in posting order, the
         * same completion for MPI; SimGrid's SMPI runs a Waitall as Waitany after Waitany, each
         * registering on every pending request, which made 368 requests per rank of a 24-rank
         * exchange take minutes of simulation per call. */
        if (err == MPI_SUCCESS && ws + wr <= HC__WAITALL_MAX)
            err = MPI_Waitall((int)(ws + wr), req, st);
        for (uint32_t k = 0; err == MPI_SUCCESS && ws + wr > HC__WAITALL_MAX && k < ws + wr; k++)
            err = MPI_Wait(&req[k], &st[k]);
        for (size_t i = 0; err == MPI_SUCCESS && i < nr; i++)
            recvs[i].tag = st[ws + i].MPI_TAG;
    } else {
        /* Windows: up to ws sends and wr receives in flight, posted in list order. */
        size_t is = 0, ir = 0;
        while (err == MPI_SUCCESS) {
            for (uint32_t k = 0; err == MPI_SUCCESS && k < ws && is < ns; k++)
                if (req[k] == MPI_REQUEST_NULL) {
                    const hc__msg_t *m = &sends[is++];
                    err = MPI_Isend(m->buf, m->count, m->type, m->peer, m->tag, comm, &req[k]);
                }
            for (uint32_t k = 0; err == MPI_SUCCESS && k < wr && ir < nr; k++)
                if (req[ws + k] == MPI_REQUEST_NULL) {
                    const hc__msg_t *m = &recvs[ir];
                    which[k] = ir++;
                    err = MPI_Irecv(m->buf, m->count, m->type, m->peer, m->tag, comm, &req[ws + k]);
                }
            if (err != MPI_SUCCESS)
                break;
            int idx;
            err = MPI_Waitany((int)(ws + wr), req, &idx, &st[0]);
            if (err != MPI_SUCCESS || idx == MPI_UNDEFINED)
                break; /* MPI_UNDEFINED: nothing was in flight, so everything is done */
            if ((uint32_t)idx >= ws)
                recvs[which[idx - (int)ws]].tag = st[0].MPI_TAG;
        }
    }
    free(req);
    free(st);
    free(which);
    return err;
}

int hc__exec_exchange(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o,
                      const char *sendbuf, const int *sendcounts, const int *sdispls,
                      MPI_Datatype sendtype, char *recvbuf, const int *recvcounts,
                      const int *rdispls, MPI_Datatype recvtype)
{
    MPI_Aint lb, sext, rext;
    MPI_Type_get_extent(sendtype, &lb, &sext);
    MPI_Type_get_extent(recvtype, &lb, &rext);
    const int me = c->rank;
    int err = MPI_SUCCESS;
    if (sendbuf && sendcounts[me] > 0)
        err = MPI_Sendrecv(sendbuf + sdispls[me] * sext, sendcounts[me], sendtype, me, 0,
                           recvbuf + rdispls[me] * rext, recvcounts[me], recvtype, me, 0, c->comm,
                           MPI_STATUS_IGNORE);
    /* (through forwarders a rank with no message of its own may forward others') */
    if (err != MPI_SUCCESS || (o->ns + o->nr == 0 && !s->relay))
        return err;
    hc__msg_t *m = malloc(sizeof *m * (o->ns + o->nr + 1));
    if (!m)
        return MPI_ERR_NO_MEM;
    for (size_t i = 0; i < o->ns; i++) {
        int d = (int)s->events[o->sends[i]].dst;
        m[i] = (hc__msg_t){(char *)sendbuf + sdispls[d] * sext, sendcounts[d], sendtype, d, 1};
    }
    for (size_t i = 0; i < o->nr; i++) {
        int f = (int)s->events[o->recvs[i]].src;
        m[o->ns + i] = (hc__msg_t){recvbuf + rdispls[f] * rext, recvcounts[f], recvtype, f, 1};
    }
    if (s->relay) {
        err = hc__dense_type(sendtype, 2) && hc__dense_type(recvtype, 2)
                  ? hc__relay_run(c->comm, me, s, o, m)
                  : hc__fail(MPI_ERR_INTERN, "alltoallv: rank %d: forwarding a datatype with holes",
                             me);
    } else if (s->segment_bytes) {
        hc__msg_t *pm = NULL;
        size_t ns = 0, nr = 0;
        err = hc__dense_type(sendtype, 2) && hc__dense_type(recvtype, 2)
                  ? hc__pieces_expand(s, o, m, &pm, &ns, &nr)
                  : hc__fail(MPI_ERR_INTERN, "alltoallv: rank %d: pieces of a datatype with holes",
                             me);
        if (err == MPI_SUCCESS)
            err = hc__exchange_run(c->comm, pm, ns, o->ws, pm + ns, nr, o->wr);
        free(pm);
    } else {
        err = hc__exchange_run(c->comm, m, o->ns, o->ws, m + o->ns, o->nr, o->wr);
    }
    free(m);
    return err;
}

size_t hc__msg_pieces(const hc_schedule_t *s, uint32_t src, uint32_t dst, const hc__msg_t *w,
                      uint64_t bytes, hc__msg_t *out)
{
    const uint32_t k = hc_schedule_message_pieces(s, src, dst, bytes);
    uint64_t a = 0;
    for (uint32_t j = 0; j < k; j++) {
        const uint64_t b = hc_schedule_message_piece_offset(s, src, dst, bytes, j + 1);
        if (b - a > (uint64_t)INT_MAX)
            return 0;
        out[j] = (hc__msg_t){(char *)w->buf + a, (int)(b - a), MPI_BYTE, w->peer, w->tag};
        a = b;
    }
    return k;
}

/* The receives r[0..nr) (messages of cnt[i] consecutive pieces) in the schedule's receive
 * order (hc_schedule_recv_sequence, which the flow model replays too; round-robin keeps each
 * message's pieces in order, which is what MPI's non-overtaking rule needs: every piece from
 * one peer carries the same tag). */
static int recv_sequence(uint32_t order, hc__msg_t *r, const uint32_t *cnt, size_t n_msgs,
                         size_t nr)
{
    hc__msg_t *t = malloc(sizeof *t * (nr + 1));
    size_t *seq = malloc(sizeof *seq * (nr + 1));
    if (!t || !seq) {
        free(t);
        free(seq);
        return hc__fail(MPI_ERR_NO_MEM, "out of memory ordering an exchange's receives");
    }
    hc_schedule_recv_sequence(order, cnt, n_msgs, seq);
    for (size_t q = 0; q < nr; q++)
        t[q] = r[seq[q]];
    memcpy(r, t, sizeof *t * nr);
    free(t);
    free(seq);
    return MPI_SUCCESS;
}

int hc__pieces_expand(const hc_schedule_t *s, const hc__order_t *o, const hc__msg_t *m,
                      hc__msg_t **out, size_t *ns_out, size_t *nr_out)
{
    size_t n[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < (side ? o->nr : o->ns); i++) {
            const hc_event_t *e = &s->events[(side ? o->recvs : o->sends)[i]];
            n[side] += hc_schedule_message_pieces(s, e->src, e->dst, e->bytes);
        }
    hc__msg_t *pm = malloc(sizeof *pm * (n[0] + n[1] + 1));
    if (!pm)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory cutting an exchange into pieces");
    size_t q = 0;
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < (side ? o->nr : o->ns); i++) {
            const hc_event_t *e = &s->events[(side ? o->recvs : o->sends)[i]];
            const uint64_t b = e->bytes;
            const size_t k = hc__msg_pieces(s, e->src, e->dst, &m[side ? o->ns + i : i], b, pm + q);
            if (k == 0) {
                free(pm);
                return hc__fail(MPI_ERR_COUNT, "a message of %llu bytes has pieces over INT_MAX",
                                (unsigned long long)b);
            }
            q += k;
        }
    if (s->recv_order == HC_RECV_ROUND_ROBIN && o->nr > 1) {
        uint32_t *cnt = malloc(sizeof *cnt * o->nr);
        int err = cnt ? MPI_SUCCESS
                      : hc__fail(MPI_ERR_NO_MEM, "out of memory ordering an exchange's receives");
        for (size_t i = 0; cnt && i < o->nr; i++) {
            const hc_event_t *e = &s->events[o->recvs[i]];
            cnt[i] = hc_schedule_message_pieces(s, e->src, e->dst, e->bytes);
        }
        if (err == MPI_SUCCESS)
            err = recv_sequence(s->recv_order, pm + n[0], cnt, o->nr, n[1]);
        free(cnt);
        if (err != MPI_SUCCESS) {
            free(pm);
            return err;
        }
    }
    *out = pm;
    *ns_out = n[0];
    *nr_out = n[1];
    return MPI_SUCCESS;
}

/* A whole-message tree: receive once, then forward in planned order. */
static int bcast_whole(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, char *buf,
                       int count, MPI_Datatype type, uint64_t total)
{
    const size_t *sends = o->sends, *recvs = o->recvs, ns = o->ns, nr = o->nr;
    int err = MPI_SUCCESS;
    for (size_t i = 0; err == MPI_SUCCESS && i < nr; i++)
        err =
            MPI_Recv(buf, count, type, (int)s->events[recvs[i]].src, 2, c->comm, MPI_STATUS_IGNORE);
    hc__sleep(ns > 0 ? hc__fault_delay(c->rank) : 0.0);
    if (total > HC_EXEC_SMALL_BYTES || ns < 2) {
        /* One send at a time: the 1-port order the plan was timed with. */
        for (size_t i = 0; err == MPI_SUCCESS && i < ns; i++)
            err = MPI_Send(buf, count, type, (int)s->events[sends[i]].dst, 2, c->comm);
        return err;
    }
    /* Small messages leave eagerly, so sequential sends only add a wait per child: post them
     * all (still in planned order) and wait once. */
    MPI_Request *req = malloc(sizeof *req * ns);
    MPI_Status *st = malloc(sizeof *st * ns);
    err = req && st ? err : MPI_ERR_NO_MEM;
    size_t posted = 0;
    for (; err == MPI_SUCCESS && posted < ns; posted++)
        err = MPI_Isend(buf, count, type, (int)s->events[sends[posted]].dst, 2, c->comm,
                        &req[posted]);
    if (posted > 0) {
        int werr = MPI_Waitall((int)posted, req, st);
        err = err == MPI_SUCCESS ? werr : err;
    }
    free(req);
    free(st);
    return err;
}

/* [*f, *f + *n) of the `total` bytes of this call: the planned range [off, off + len) of the
 * plan's bytes, scaled (a plan serves the sizes of a size class; every rank scales the same). */
static void scaled(uint64_t off, uint64_t len, uint64_t plan, int total, int *f, int *n)
{
    uint64_t a = plan ? off * (uint64_t)total / plan : 0;
    uint64_t b = plan ? (off + len) * (uint64_t)total / plan : (uint64_t)total;
    *f = (int)a;
    *n = (int)(b - a);
}

/* A segmented broadcast over `total` bytes: segment k travels as tag 2 + k. Sends and receives
 * are posted in planned order, at most o->ws sends and o->wr receives in flight
 * (hc_schedule_exec_windows; 0 = no limit; a completed send frees its slot for the next one, as
 * the flow replay models it); a send also waits for its segment to be held (a whole-message
 * event: every segment). A piece between two of the schedule's piece_groups moves as the
 * hc_schedule_message_pieces sub-messages of its event (both ends count them from the planned
 * event, and cut this call's range the same way), each its own send or receive: under
 * SimGrid's size classes a wide-area route's latency weighs 1.61 x for 1411 to 3468 B against
 * 2.19 x for a whole 8 KiB piece; the segment is held once all its sub-messages are in. */
typedef struct {
    size_t i;   /* index into the send or receive list */
    uint32_t k; /* sub-message k of q */
    uint32_t q;
} sub_t;

/* The send (side 0) or receive (side 1) list of o cut into sub-messages. */
static sub_t *sub_list(const hc_schedule_t *s, const hc__order_t *o, int side, size_t *n_out)
{
    const size_t n = side ? o->nr : o->ns;
    const size_t *ev = side ? o->recvs : o->sends;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const hc_event_t *e = &s->events[ev[i]];
        total += hc_schedule_message_pieces(s, e->src, e->dst, e->bytes);
    }
    sub_t *l = malloc(sizeof *l * (total + 1));
    if (!l)
        return NULL;
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        const hc_event_t *e = &s->events[ev[i]];
        const uint32_t q = hc_schedule_message_pieces(s, e->src, e->dst, e->bytes);
        for (uint32_t k = 0; k < q; k++)
            l[t++] = (sub_t){i, k, q};
    }
    *n_out = total;
    return l;
}

/* Sub-message x->k of x->q of the range [off, off + len) scaled to this call: [*f, *f + *n). */
static void sub_range(const sub_t *x, uint64_t off, uint64_t len, uint64_t plan, int total, int *f,
                      int *n)
{
    scaled(off, len, plan, total, f, n);
    const uint64_t a = hc_schedule_piece_offset((uint64_t)*n, x->q, x->k);
    const uint64_t b = hc_schedule_piece_offset((uint64_t)*n, x->q, x->k + 1);
    *f += (int)a;
    *n = (int)(b - a);
}

static int bcast_segments(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, char *bytes,
                          int total, uint64_t plan)
{
    const uint32_t me = (uint32_t)c->rank, K = o->kseg ? o->kseg : 1;
    const size_t *sends = o->sends, *recvs = o->recvs;
    size_t ns = 0, nr = 0;
    sub_t *sl = sub_list(s, o, 0, &ns), *rl = sub_list(s, o, 1, &nr);
    const size_t ws = o->ws == 0 || o->ws > ns ? (ns ? ns : 1) : o->ws;
    const size_t wr = o->wr == 0 || o->wr > nr ? (nr ? nr : 1) : o->wr;
    unsigned char *held = calloc(K, 1);
    uint32_t *left = calloc(o->nr + 1, sizeof *left); /* sub-messages of a receive still due */
    MPI_Request *req = malloc(sizeof *req * (ws + wr));
    size_t *rev = malloc(sizeof *rev * wr); /* receive slot -> receive sub-message */
    if (!sl || !rl || !held || !left || !req || !rev) {
        free(sl);
        free(rl);
        free(held);
        free(left);
        free(req);
        free(rev);
        return MPI_ERR_NO_MEM;
    }
    for (size_t k = 0; k < ws + wr; k++)
        req[k] = MPI_REQUEST_NULL;
    for (size_t x = 0; x < nr; x++)
        left[rl[x].i] = rl[x].q;
    uint32_t n_held = 0;
    /* Only the root holds the message at the start. (A rank whose events all carry the whole
     * message, kseg == 0, holds it once its receive completed: e.g. a cluster coordinator of
     * a hierarchical broadcast relaying the whole message to another cluster.) */
    if (me == s->root) {
        memset(held, 1, K);
        n_held = K;
    }
/* receive sub-message x is in (or empty): its segment is held once all its sub-messages are */
#define RECEIVED(x)                                                                                \
    do {                                                                                           \
        const size_t ri_ = rl[x].i;                                                                \
        const hc_event_t *e_ = &s->events[recvs[ri_]];                                             \
        if (--left[ri_] == 0) {                                                                    \
            if (e_->bytes == plan) {                                                               \
                memset(held, 1, K);                                                                \
                n_held = K;                                                                        \
            } else if (e_->seg < K) {                                                              \
                n_held += !held[e_->seg];                                                          \
                held[e_->seg] = 1;                                                                 \
            }                                                                                      \
        }                                                                                          \
    } while (0)
    double delay = ns > 0 ? hc__fault_delay(c->rank) : 0.0;
    int err = MPI_SUCCESS;
    size_t is = 0, ir = 0, active = 0, sending = 0, slot = 0;
    for (;;) {
        int f, n;
        /* Sub-messages that are empty (fewer bytes than pieces) need nothing. */
        while (is < ns) {
            sub_range(&sl[is], o->soff[sl[is].i], o->slen[sl[is].i], plan, total, &f, &n);
            if (n > 0)
                break;
            is++;
        }
        while (ir < nr && req[ws + ir % wr] == MPI_REQUEST_NULL) {
            sub_range(&rl[ir], o->roff[rl[ir].i], o->rlen[rl[ir].i], plan, total, &f, &n);
            if (n > 0)
                break;
            RECEIVED(ir);
            ir++;
        }
        while (err == MPI_SUCCESS && is < ns && sending < ws) {
            const hc_event_t *e = &s->events[sends[sl[is].i]];
            if (!(e->bytes == plan ? n_held >= K : e->seg < K && held[e->seg]))
                break;
            sub_range(&sl[is], o->soff[sl[is].i], o->slen[sl[is].i], plan, total, &f, &n);
            if (n == 0) {
                is++;
                continue;
            }
            hc__sleep(delay);
            delay = 0;
            while (req[slot] != MPI_REQUEST_NULL) /* a free one exists: sending < ws */
                slot = (slot + 1) % ws;
            /* synchronous: the slot stays taken until the piece is received, so the window
             * bounds the pieces in flight (eager pieces, sent at once, would share the link
             * together and arrive together: a whole-message store and forward per hop) */
            err = MPI_Issend(bytes + f, n, MPI_BYTE, (int)e->dst, 2 + (int)e->seg, c->comm,
                             &req[slot]);
            active++;
            sending++;
            is++;
        }
        while (err == MPI_SUCCESS && ir < nr && req[ws + ir % wr] == MPI_REQUEST_NULL) {
            const hc_event_t *e = &s->events[recvs[rl[ir].i]];
            sub_range(&rl[ir], o->roff[rl[ir].i], o->rlen[rl[ir].i], plan, total, &f, &n);
            if (n == 0)
                break; /* handled (as held) by the loop above once its slot is free */
            err = MPI_Irecv(bytes + f, n, MPI_BYTE, (int)e->src, 2 + (int)e->seg, c->comm,
                            &req[ws + ir % wr]);
            rev[ir % wr] = ir;
            active++;
            ir++;
        }
        if (err != MPI_SUCCESS)
            break;
        if (active == 0) {
            if (is < ns) /* a send waits for a segment nobody will deliver: bad schedule */
                err = hc__fail(MPI_ERR_INTERN,
                               "broadcast schedule %s: rank %u never receives a segment it must "
                               "forward",
                               s->algorithm, me);
            break;
        }
        int idx;
        err = MPI_Waitany((int)(ws + wr), req, &idx, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS || idx == MPI_UNDEFINED)
            break;
        active--;
        sending -= (size_t)idx < ws;
        if ((size_t)idx >= ws)
            RECEIVED(rev[(size_t)idx - ws]);
    }
#undef RECEIVED
    free(sl);
    free(rl);
    free(held);
    free(left);
    free(req);
    free(rev);
    return err;
}

int hc__dense_type(MPI_Datatype type, int count)
{
    int ni, na, nd, comb, size;
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_size(type, &size);
    MPI_Type_get_extent(type, &lb, &ext);
    MPI_Type_get_true_extent(type, &tlb, &text);
    if (text != size || (count > 1 && ext != size))
        return 0;
    MPI_Type_get_envelope(type, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED)
        return 1;
    if ((comb != MPI_COMBINER_CONTIGUOUS && comb != MPI_COMBINER_DUP) || nd != 1 || ni > 1 ||
        na > 0)
        return 0;
    int ints[1];
    MPI_Aint addrs[1];
    MPI_Datatype inner;
    MPI_Type_get_contents(type, ni, na, nd, ints, addrs, &inner);
    int inner_n = comb == MPI_COMBINER_CONTIGUOUS ? ints[0] : 1;
    int d = hc__dense_type(inner, inner_n);
    int ic, ia, id, icomb;
    MPI_Type_get_envelope(inner, &ic, &ia, &id, &icomb);
    if (icomb != MPI_COMBINER_NAMED)
        MPI_Type_free(&inner);
    return d;
}

int hc__exec_bcast(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, char *buf, int count,
                   MPI_Datatype type, uint64_t plan_bytes)
{
    int tsize = 0;
    MPI_Type_size(type, &tsize);
    const uint64_t total = (uint64_t)count * (uint64_t)tsize;
    if (!s->parent2 && s->n_segments <= 1)
        return bcast_whole(c, s, o, buf, count, type, total);
    /* Segments are cut in bytes of the type signature, the same on every rank whatever its
     * datatype (a root sending N ints and ranks receiving one contiguous type of N ints cut
     * the same segments). Dense data travels in place; other layouts are packed into scratch
     * (MPI_Pack writes the raw bytes here: c->raw_pack, checked when the communicator was
     * created). The caller checked total <= INT_MAX. */
    char *bytes;
    const int packed = !hc__dense_type(type, count);
    if (packed) {
        bytes = hc__scratch(c, total ? total : 1);
        if (!bytes)
            return hc__fail(MPI_ERR_NO_MEM, "out of memory: %llu bytes of broadcast scratch",
                            (unsigned long long)total);
        int pos = 0;
        if (c->rank == (int)s->root &&
            (MPI_Pack(buf, count, type, bytes, (int)total, &pos, c->comm) != MPI_SUCCESS ||
             (uint64_t)pos != total))
            return hc__fail(MPI_ERR_TYPE,
                            "MPI_Pack of the broadcast datatype did not give %llu "
                            "bytes",
                            (unsigned long long)total);
    } else {
        MPI_Aint tlb, text;
        MPI_Type_get_true_extent(type, &tlb, &text);
        bytes = buf + tlb;
    }
    int err = s->parent2 ? hc__exec_ttcc(c->comm, c->rank, c->size, s, bytes, (int)total, MPI_BYTE)
                         : bcast_segments(c, s, o, bytes, (int)total, plan_bytes);
    if (err == MPI_SUCCESS && packed && c->rank != (int)s->root) {
        int pos = 0;
        err = MPI_Unpack(bytes, (int)total, &pos, buf, count, type, c->comm);
    }
    return err;
}

/* Bytes that `n` elements of `type` span (from the true lower bound). */
static size_t typed_span(int n, MPI_Aint ext, MPI_Aint text)
{
    return n > 0 ? (size_t)((n - 1) * ext + text) : 0;
}

void *hc__scratch(hc_comm_t *c, size_t bytes)
{
    if (bytes > c->scratch_size) {
        void *p = realloc(c->scratch, bytes);
        if (!p)
            return NULL;
        c->scratch = p;
        c->scratch_size = bytes;
    }
    return c->scratch;
}

/* Reduction along the schedule's trees, segment by segment, so that combining segment k overlaps
 * the children sending later segments and the parent receiving earlier ones — the pipelining
 * MPI libraries use for large reductions. A multi-tree reduction (events' `tree` > 0) reduces
 * each tree's range of the elements along that tree, all trees at once.
 *  - Receives run W = hc_schedule_reduce_node_window segments ahead for every child, so a child
 *    never waits for its parent to post; per segment, children are combined in planned order
 *    with MPI_Reduce_local (the same order on every run, whatever the arrival order).
 *  - Progress follows completions (MPI_Waitany): whatever arrived is combined, and a segment
 *    leaves for the parent as soon as every child's part of it is in, up to W per tree in
 *    flight (the flow model replays this, src/sim/sim_flow.c).
 *  - No copies: a leaf sends straight from `mine`; otherwise the first child's segment lands in
 *    `acc` and `mine` is combined into it (the op is commutative, checked by the caller). When
 *    acc is mine (MPI_IN_PLACE at the root), every child goes through the slots.
 *  - Tree t's messages carry tag 1 (t = 0) or 16 + t, so that the trees' streams between two
 *    ranks never cross.
 * `acc` is the root's recvbuf, where the result builds up; NULL elsewhere (inner nodes
 * accumulate in the communicator's scratch). */
typedef struct {
    int off, n;    /* the tree's element range */
    uint32_t nseg; /* its segments */
    size_t r0, nr; /* its receives: rtree[r0 .. r0 + nr) index o->recvs */
    size_t send;   /* index into o->sends, or SIZE_MAX */
    int direct;    /* child 0 lands in acc */
    size_t slot0;  /* first slot of its children (W per child that does not land in acc) */
    int tag;
    int paced;       /* its send goes in the rank's paced order (o->paced) */
    uint32_t cur_k;  /* lowest segment not combined yet */
    size_t cur_j;    /* next child to combine into it */
    uint32_t next_s; /* next segment to send */
} rtree_t;

/* Segment k of tree x's range: elements [*f, *f + *n) of the message. */
static void tree_seg(const rtree_t *x, uint32_t k, int *f, int *n)
{
    hc__segment(x->n, x->nseg, k, f, n);
    *f += x->off;
}

/* The hc_schedule_reduce_subs sub-messages of the n elements at buf between this rank and
 * `peer`, as receives (side 0), sends (1) or synchronous sends (2), in q[0 ..); *cnt: how many. */
static int reduce_post(const hc_comm_t *c, const hc_schedule_t *s, int side, char *buf, int n,
                       MPI_Datatype type, MPI_Aint ext, int tsize, int peer, int tag,
                       MPI_Request *q, uint32_t *cnt)
{
    const uint32_t me = (uint32_t)c->rank, other = (uint32_t)peer;
    const uint32_t m = hc_schedule_reduce_subs(s, side ? me : other, side ? other : me,
                                               (uint64_t)n * (uint64_t)tsize);
    int err = MPI_SUCCESS;
    *cnt = 0;
    for (uint32_t z = 0; err == MPI_SUCCESS && z < m; z++) {
        const uint64_t a = hc_schedule_piece_offset((uint64_t)n, m, z);
        const int len = (int)(hc_schedule_piece_offset((uint64_t)n, m, z + 1) - a);
        char *p = buf + (MPI_Aint)a * ext;
        err = side == 0   ? MPI_Irecv(p, len, type, peer, tag, c->comm, &q[z])
              : side == 1 ? MPI_Isend(p, len, type, peer, tag, c->comm, &q[z])
                          : MPI_Issend(p, len, type, peer, tag, c->comm, &q[z]);
        *cnt += err == MPI_SUCCESS;
    }
    return err;
}

int hc__exec_reduce(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, const char *mine,
                    char *acc, int count, MPI_Datatype type, MPI_Op op)
{
    const size_t *sends = o->sends, *recvs = o->recvs, ns = o->ns, nr = o->nr;
    const uint32_t W = o->ws >= 2 ? o->ws : 2;
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(type, &lb, &ext);
    MPI_Type_get_true_extent(type, &tlb, &text);
    int tsize;
    MPI_Type_size(type, &tsize);
    uint32_t T = 1;
    for (size_t i = 0; i < s->n_events; i++)
        T = s->events[i].tree + 1u > T ? s->events[i].tree + 1u : T;
    rtree_t *tr = calloc(T, sizeof *tr);
    size_t *rtree = malloc(sizeof *rtree * (nr + 1));
    double *tb = calloc(T + 1, sizeof *tb);
    if (!tr || !rtree || !tb) {
        free(tr);
        free(rtree);
        free(tb);
        return MPI_ERR_NO_MEM;
    }
    /* the trees' ranges: in proportion to their events' bytes, in tree order */
    for (size_t i = 0; i < s->n_events; i++)
        tb[s->events[i].tree + 1] = (double)s->events[i].bytes;
    for (uint32_t t = 0; t < T; t++)
        tb[t + 1] += tb[t];
    uint64_t per = tsize > 0 ? o->seg_bytes / (uint64_t)tsize : 1;
    per = per ? per : 1;
    const int direct_ok = nr > 0 && (!acc || acc != mine);
    size_t k_r = 0, n_slots = 0;
    int seg_max = 1;
    for (uint32_t t = 0; t < T; t++) {
        rtree_t *x = &tr[t];
        double lo = T > 1 && tb[T] > 0 ? tb[t] / tb[T] : 0;
        double hi = T > 1 && tb[T] > 0 ? tb[t + 1] / tb[T] : 1;
        x->off = (int)floor(lo * count + 0.5);
        x->n = (int)floor(hi * count + 0.5) - x->off;
        x->nseg = x->n > 0 ? (uint32_t)(((uint64_t)x->n + per - 1) / per) : 0;
        x->tag = t == 0 ? 1 : 16 + (int)t;
        x->r0 = k_r;
        for (size_t i = 0; i < nr; i++)
            if (s->events[recvs[i]].tree == t)
                rtree[k_r++] = i;
        x->nr = k_r - x->r0;
        x->send = SIZE_MAX;
        for (size_t i = 0; i < ns; i++)
            if (s->events[sends[i]].tree == t && x->send == SIZE_MAX)
                x->send = i;
        x->direct = direct_ok && x->nr > 0;
        x->slot0 = n_slots;
        n_slots += x->nr > (size_t)x->direct ? (size_t)W * (x->nr - (size_t)x->direct) : 0;
        if (x->nseg > 0) {
            int sm = (int)(((uint64_t)x->n + x->nseg - 1) / x->nseg);
            seg_max = sm > seg_max ? sm : seg_max;
        }
    }
    free(tb);
    /* Paced leaf sends (hc_schedule_reduce_paced): synchronous, so a tree's send waits for
     * nothing but its transfer only when the parent posts every segment's receive at once,
     * i.e. the tree has at most the parent's window of segments in this call; other trees go
     * as before. */
    for (size_t q = 0; q < o->npaced; q++) {
        rtree_t *x = &tr[s->events[o->paced[q]].tree];
        x->paced = x->nr == 0 && x->send != SIZE_MAX && x->nseg <= o->paced_win[q];
    }
    /* Segments differ by at most one element and the longer ones can come anywhere (40001
     * elements in 5 segments: 8000, 8000, 8000, 8000, 8001), so every slot holds
     * ceil(n / nseg) elements. Scratch: an inner node's accumulator, then W segment slots
     * per child that does not land in the accumulator, each rounded up to 64 bytes. */
    int f, n;
    const size_t acc_span = nr > 0 && !acc ? (typed_span(count, ext, text) + 63) / 64 * 64 : 0;
    const size_t slot = (typed_span(seg_max, ext, text) + 63) / 64 * 64;
    /* request slots: W per receive (child), W per tree's send, then the paced sends' o->wp;
     * slot r holds the Q requests rq[r * Q ..] of a segment's sub-messages (Q = 1 without
     * split_bytes), left[r] of them still pending */
    const size_t pbase = (size_t)W * (nr + T), n_slot = pbase + o->wp;
    uint32_t Q = 1;
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src == (uint32_t)c->rank || e->dst == (uint32_t)c->rank) {
            const uint32_t q =
                hc_schedule_reduce_subs(s, e->src, e->dst, (uint64_t)seg_max * (uint64_t)tsize);
            Q = q > Q ? q : Q;
        }
    }
    const size_t n_req = n_slot * Q;
    MPI_Request *rq = malloc(sizeof *rq * n_req);
    uint32_t *left = calloc(n_slot, sizeof *left);
    unsigned char *arrived = calloc(n_slot, 1);
    char *area = acc_span + n_slots ? hc__scratch(c, acc_span + n_slots * slot) : NULL;
    if (!rq || !left || !arrived || (acc_span + n_slots && !area)) {
        free(rq);
        free(left);
        free(arrived);
        free(tr);
        free(rtree);
        return MPI_ERR_NO_MEM;
    }
    if (acc_span)
        acc = area - tlb;
    char *slots = n_slots ? area + acc_span - tlb : NULL;
    for (size_t i = 0; i < n_req; i++)
        rq[i] = MPI_REQUEST_NULL;
    int err = MPI_SUCCESS;
    size_t active = 0;
/* Where child j (0-based within tree x) puts segment k, at element f of the message. */
#define LAND(x, j, k, f)                                                                           \
    ((j) == 0 && (x)->direct                                                                       \
         ? acc + (f)*ext                                                                           \
         : slots + ((x)->slot0 + (size_t)W * ((j) - (size_t)(x)->direct) + (k) % W) * slot)
    /* the first W segments of every child */
    for (uint32_t t = 0; t < T; t++) {
        rtree_t *x = &tr[t];
        for (uint32_t k = 0; k < W && k < x->nseg; k++) {
            tree_seg(x, k, &f, &n);
            for (size_t j = 0; err == MPI_SUCCESS && j < x->nr; j++) {
                size_t i = rtree[x->r0 + j], r = (size_t)W * i + k % W;
                err = reduce_post(c, s, 0, LAND(x, j, k, f), n, type, ext, tsize,
                                  (int)s->events[recvs[i]].src, x->tag, &rq[r * Q], &left[r]);
                active += left[r];
            }
        }
    }
    int delayed = 0;
    size_t pi = 0;            /* paced: next event (o->paced) */
    uint32_t pk = 0, pin = 0; /* its next segment; paced sends in flight */
    for (;;) {
        /* combine what arrived, in child order per segment; post sends of complete segments */
        for (uint32_t t = 0; err == MPI_SUCCESS && t < T; t++) {
            rtree_t *x = &tr[t];
            while (err == MPI_SUCCESS && x->cur_k < x->nseg && x->cur_j < x->nr) {
                const uint32_t k = x->cur_k;
                const size_t j = x->cur_j, i = rtree[x->r0 + j], r = (size_t)W * i + k % W;
                if (!arrived[r])
                    break;
                arrived[r] = 0;
                tree_seg(x, k, &f, &n);
                err = j == 0 && x->direct
                          ? MPI_Reduce_local(mine + f * ext, acc + f * ext, n, type, op)
                          : MPI_Reduce_local(LAND(x, j, k, f), acc + f * ext, n, type, op);
                if (err == MPI_SUCCESS && k + W < x->nseg) {
                    int f2, n2;
                    tree_seg(x, k + W, &f2, &n2);
                    err = reduce_post(c, s, 0, LAND(x, j, k + W, f2), n2, type, ext, tsize,
                                      (int)s->events[recvs[i]].src, x->tag, &rq[r * Q], &left[r]);
                    active += left[r];
                }
                if (++x->cur_j == x->nr) {
                    x->cur_j = 0;
                    x->cur_k++;
                }
            }
            if (x->nr == 0)
                x->cur_k = x->nseg; /* a leaf of this tree holds every segment */
            /* segment k leaves once k - W has left (its slot is free) */
            while (err == MPI_SUCCESS && x->send != SIZE_MAX && !x->paced && x->next_s < x->cur_k &&
                   left[(size_t)W * (nr + t) + x->next_s % W] == 0) {
                const uint32_t k = x->next_s++;
                const size_t r = (size_t)W * (nr + t) + k % W;
                tree_seg(x, k, &f, &n);
                if (!delayed) {
                    hc__sleep(hc__fault_delay(c->rank));
                    delayed = 1;
                }
                char *src = x->nr > 0 ? acc + f * ext : (char *)mine + f * ext;
                err = reduce_post(c, s, 1, src, n, type, ext, tsize,
                                  (int)s->events[sends[x->send]].dst, x->tag, &rq[r * Q], &left[r]);
                active += left[r];
            }
        }
        /* paced leaf sends: in o->paced's order, each tree's segments in order, o->wp in
         * flight (any free slot) */
        while (err == MPI_SUCCESS && pi < o->npaced && pin < o->wp) {
            const hc_event_t *e = &s->events[o->paced[pi]];
            rtree_t *x = &tr[e->tree];
            if (!x->paced || pk >= x->nseg) {
                pi++;
                pk = 0;
                continue;
            }
            size_t r = pbase;
            while (left[r] != 0)
                r++;
            tree_seg(x, pk, &f, &n);
            if (!delayed) {
                hc__sleep(hc__fault_delay(c->rank));
                delayed = 1;
            }
            err = reduce_post(c, s, 2, (char *)mine + f * ext, n, type, ext, tsize, (int)e->dst,
                              x->tag, &rq[r * Q], &left[r]);
            x->next_s = ++pk;
            pin += left[r] > 0;
            active += left[r];
        }
        if (err != MPI_SUCCESS || active == 0)
            break;
        int idx;
        err = MPI_Waitany((int)n_req, rq, &idx, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS || idx == MPI_UNDEFINED)
            break;
        active--;
        const size_t r = (size_t)idx / Q;
        if (--left[r] > 0)
            continue; /* more sub-messages of that segment to come */
        if (r < (size_t)W * nr)
            arrived[r] = 1;
        else if (r >= pbase)
            pin--;
    }
#undef LAND
    /* every tree combined and sent (a bad schedule could leave a segment behind) */
    for (uint32_t t = 0; err == MPI_SUCCESS && t < T; t++)
        if (tr[t].cur_k < tr[t].nseg || (tr[t].send != SIZE_MAX && tr[t].next_s < tr[t].nseg))
            err = hc__fail(MPI_ERR_INTERN, "reduction schedule %s: rank %d stalled in tree %u",
                           s->algorithm, c->rank, t);
    free(rq);
    free(left);
    free(arrived);
    free(tr);
    free(rtree);
    /* A root without children (one rank) still owes the result. */
    if (err == MPI_SUCCESS && nr == 0 && ns == 0 && acc && acc != mine)
        err = MPI_Sendrecv(mine, count, type, c->rank, 0, acc, count, type, c->rank, 0, c->comm,
                           MPI_STATUS_IGNORE);
    return err;
}

/* The barrier between redistribution steps: every rank notifies rank 0, which answers all once
 * it heard from everyone (two latencies, where a dissemination barrier takes log2 P of them: on
 * a grid each may cross a WAN). Our own rather than MPI_Barrier, so that the flow model replays
 * exactly what runs (src/sim/sim_flow.c). */
static int star_barrier(MPI_Comm comm, int rank, int size)
{
    char none = 0;
    if (rank != 0)
        return MPI_Sendrecv(&none, 0, MPI_BYTE, 0, 9, &none, 0, MPI_BYTE, 0, 9, comm,
                            MPI_STATUS_IGNORE);
    size_t n = (size_t)(size > 1 ? size - 1 : 1);
    MPI_Request *req = malloc(sizeof *req * n);
    MPI_Status *st = malloc(sizeof *st * n); /* MPICH's headers make gcc reject
                                                MPI_STATUSES_IGNORE here */
    int err = req && st ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 1; err == MPI_SUCCESS && i < size; i++)
        err = MPI_Irecv(&none, 0, MPI_BYTE, i, 9, comm, &req[i - 1]);
    if (err == MPI_SUCCESS)
        err = MPI_Waitall(size - 1, req, st);
    for (int i = 1; err == MPI_SUCCESS && i < size; i++)
        err = MPI_Isend(&none, 0, MPI_BYTE, i, 9, comm, &req[i - 1]);
    if (err == MPI_SUCCESS)
        err = MPI_Waitall(size - 1, req, st);
    free(st);
    free(req);
    return err;
}

/* Redistribution in KPBS steps separated by barriers (001 §8.3). Event node ids are local:
 * members[id] is the rank. A message's pieces cover consecutive element ranges in proportion
 * to their planned amounts; every rank derives the same ranges from the same schedule. */
int hc__exec_redistribute(hc_comm_t *c, const hc_schedule_t *s, const uint32_t *members,
                          const char *sendbuf, const int *sendcounts, const int *sdispls,
                          char *recvbuf, const int *recvcounts, const int *rdispls,
                          MPI_Datatype type)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(type, &lb, &ext);
    const uint32_t P = s->n1 + s->n2;
    /* Total planned amount per message and the amount already covered. */
    double *total = calloc((size_t)s->n1 * s->n2 + 1, sizeof *total);
    double *done = calloc((size_t)s->n1 * s->n2 + 1, sizeof *done);
    int err = (total && done) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (size_t i = 0; err == MPI_SUCCESS && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (e->src >= s->n1 || e->dst < s->n1 || e->dst >= P)
            err = MPI_ERR_OTHER;
        else
            total[(size_t)e->src * s->n2 + (e->dst - s->n1)] += e->end - e->start;
    }
    const int me = c->rank;
    if (err == MPI_SUCCESS && sendcounts[me] > 0)
        err = MPI_Sendrecv(sendbuf + sdispls[me] * ext, sendcounts[me], type, me, 0,
                           recvbuf + rdispls[me] * ext, recvcounts[me], type, me, 0, c->comm,
                           MPI_STATUS_IGNORE);
    for (size_t st = 0; err == MPI_SUCCESS && st < s->n_steps; st++) {
        MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        const hc_step_t *step = &s->steps[st];
        for (size_t i = step->first; err == MPI_SUCCESS && i < step->first + step->count; i++) {
            const hc_event_t *e = &s->events[i];
            size_t m = (size_t)e->src * s->n2 + (e->dst - s->n1);
            double a0 = done[m], a1 = done[m] + (e->end - e->start);
            done[m] = a1;
            int from = (int)members[e->src], to = (int)members[e->dst];
            if (from != me && to != me)
                continue;
            int n = from == me ? sendcounts[to] : recvcounts[from];
            long long f0 = total[m] > 0 ? (long long)((double)n * a0 / total[m] + 0.5) : 0;
            long long f1 = total[m] > 0 ? (long long)((double)n * a1 / total[m] + 0.5) : n;
            if (a1 >= total[m] * (1 - 1e-12))
                f1 = n;
            if (f1 <= f0)
                continue;
            if (from == me)
                err = MPI_Isend(sendbuf + (sdispls[to] + f0) * ext, (int)(f1 - f0), type, to, 1,
                                c->comm, &req[0]);
            else
                err = MPI_Irecv(recvbuf + (rdispls[from] + f0) * ext, (int)(f1 - f0), type, from, 1,
                                c->comm, &req[1]);
        }
        MPI_Status stat[2]; /* MPICH's headers make gcc flag MPI_STATUSES_IGNORE here */
        if (err == MPI_SUCCESS)
            err = MPI_Waitall(2, req, stat);
        if (err == MPI_SUCCESS)
            err = star_barrier(c->comm, c->rank, c->size);
    }
    free(total);
    free(done);
    return err;
}
