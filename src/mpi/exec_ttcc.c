/* Two-tree (TTCC, 002) broadcast execution.
 *
 * Every non-root node has a parent in the original tree T0 and one in the redundant tree T1.
 * The message travels in segments. A node receives from both parents at once (T0 into the
 * user buffer, T1 into a scratch buffer) and holds a segment as soon as either copy of it
 * has arrived; it forwards held segments to its T0 children first, then to its T1 children,
 * one send at a time.
 *
 * Stopping the losing transfer (segment granularity), with no request left behind and no
 * MPI_Cancel (SimGrid SMPI 3.32 crashes in a later MPI_Waitany after cancelling a receive):
 *  1. When a node holds every segment it sends STOP on each of its two incoming edges.
 *  2. A parent that sees STOP on an edge sends no further segment on it and answers END(j),
 *     j = the number of segments it sent on that edge (after its in-flight send completed),
 *     and, when j < nseg, an empty message with segment j's tag: the filler.
 *  3. The child keeps a receive posted for its next segment while it has fewer than nseg and
 *     no filler; the filler (0 elements, where every segment has at least one) completes the
 *     receive of segment j, and the edge is closed once END is known too.
 * Each edge thus carries exactly one STOP, one END and at most one filler, each matched by a
 * posted receive, so every request completes.
 * No cycle of waits is possible: a node always has a receive posted on each live incoming
 * edge and answers STOP without waiting for anything but its own in-flight send. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

enum { TAG_STOP = 4, TAG_END = 6, TAG_DATA = 16 };

typedef struct {
    int peer, tree;   /* child and the tree of the edge */
    uint32_t sent;    /* segments sent so far */
    int stopped;      /* STOP received */
    int replied;      /* END sent */
    int stop_buf;     /* payload of STOP (unused) */
    uint32_t end_val; /* payload of END */
    MPI_Request stop_req, end_req, fill_req;
} out_edge_t;

typedef struct {
    int peer, tree;
    char *dst;            /* buffer the edge's segments land in */
    uint32_t next;        /* next segment index to receive */
    int32_t end;          /* END value, -1 until known */
    int closed;           /* finished: END known and drained */
    int filled;           /* the filler arrived: no segment comes any more */
    MPI_Request data_req; /* receive of segment `next` */
    MPI_Request end_req;  /* receive of END */
    uint32_t end_buf;
    int stop_val;
    MPI_Request stop_req; /* our STOP */
    int stop_sent;
} in_edge_t;

static int cmp_start(const hc_schedule_t *s, size_t a, size_t b)
{
    return s->events[a].start < s->events[b].start   ? -1
           : s->events[a].start > s->events[b].start ? 1
                                                     : (a > b) - (a < b);
}

int hc__exec_ttcc(MPI_Comm comm, int rank, int size, const hc_schedule_t *s, char *buf, int count,
                  MPI_Datatype type)
{
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(type, &lb, &ext);
    MPI_Type_get_true_extent(type, &tlb, &text);
    const int me = rank, P = size;
    uint32_t nseg = s->n_segments > 1 ? s->n_segments : 16;
    if (nseg > 4096) /* tags: TAG_DATA + 2 * nseg must stay below MPI_TAG_UB (>= 32767) */
        nseg = 4096;
    if ((uint32_t)count < nseg)
        nseg = (uint32_t)count;
    if (nseg == 0)
        return MPI_SUCCESS;

    /* Outgoing edges: T0 children by planned start, then T1 children. */
    out_edge_t *out = calloc((size_t)2 * P, sizeof *out);
    in_edge_t in[2];
    memset(in, 0, sizeof in);
    size_t n_out = 0;
    unsigned char *held = calloc(nseg, 1), *from_t1 = calloc(nseg, 1);
    char *scratch_base = malloc((size_t)((count - 1) * ext + text) + 1);
    int err = (out && held && from_t1 && scratch_base) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    char *scratch = scratch_base ? scratch_base - tlb : NULL;
    for (int tree = 0; err == MPI_SUCCESS && tree < 2; tree++) {
        size_t first = n_out;
        for (size_t i = 0; i < s->n_events; i++) {
            const hc_event_t *e = &s->events[i];
            if (e->tree != tree || (int)e->src != me || e->seg != 0)
                continue;
            out[n_out].peer = (int)e->dst;
            out[n_out].tree = tree;
            out[n_out].end_val = (uint32_t)i; /* temporary: event index, for sorting */
            n_out++;
        }
        for (size_t a = first + 1; a < n_out; a++) /* insertion sort by planned start */
            for (size_t b = a; b > first && cmp_start(s, out[b].end_val, out[b - 1].end_val) < 0;
                 b--) {
                out_edge_t t = out[b];
                out[b] = out[b - 1];
                out[b - 1] = t;
            }
    }
    for (size_t i = 0; i < n_out; i++) {
        out[i].end_val = 0;
        out[i].stop_req = out[i].end_req = out[i].fill_req = MPI_REQUEST_NULL;
        if (err == MPI_SUCCESS)
            err = MPI_Irecv(&out[i].stop_buf, 1, MPI_INT, out[i].peer, TAG_STOP + out[i].tree, comm,
                            &out[i].stop_req);
    }
    int n_in = 0;
    if (me == (int)s->root) {
        memset(held, 1, nseg);
    } else {
        int32_t par[2] = {s->parent ? s->parent[me] : -1, s->parent2 ? s->parent2[me] : -1};
        for (int t = 0; t < 2; t++) {
            if (par[t] < 0)
                continue;
            in_edge_t *e = &in[n_in++];
            e->peer = par[t];
            e->tree = t;
            e->dst = t == 0 ? buf : scratch;
            e->end = -1;
            e->data_req = e->end_req = e->stop_req = MPI_REQUEST_NULL;
            if (err == MPI_SUCCESS)
                err = MPI_Irecv(&e->end_buf, 1, MPI_UINT32_T, e->peer, TAG_END + t, comm,
                                &e->end_req);
        }
    }
    double delay = hc__fault_delay(me);
    uint32_t n_held = me == (int)s->root ? nseg : 0;
    size_t cur = 0; /* outgoing edge being served */
    MPI_Request send_req = MPI_REQUEST_NULL;
    size_t send_edge = 0;
    MPI_Request *reqs = malloc(sizeof *reqs * (4 * (size_t)n_out + 8));
    if (!reqs)
        err = MPI_ERR_NO_MEM;

    while (err == MPI_SUCCESS) {
        /* Post what can be posted. */
        for (int i = 0; i < n_in; i++) {
            in_edge_t *e = &in[i];
            if (e->closed)
                continue;
            if (e->end >= 0 && e->data_req == MPI_REQUEST_NULL && (e->filled || e->next >= nseg)) {
                e->closed = 1;
                continue;
            }
            if (e->data_req == MPI_REQUEST_NULL && !e->filled && e->next < nseg) {
                int f, n;
                hc__segment(count, nseg, e->next, &f, &n);
                err = MPI_Irecv(e->dst + f * ext, n, type, e->peer,
                                TAG_DATA + 2 * (int)e->next + e->tree, comm, &e->data_req);
            }
            if (err == MPI_SUCCESS && n_held == nseg && !e->stop_sent) {
                e->stop_sent = 1;
                err = MPI_Isend(&e->stop_val, 1, MPI_INT, e->peer, TAG_STOP + e->tree, comm,
                                &e->stop_req);
            }
        }
        if (err != MPI_SUCCESS)
            break;
        if (send_req == MPI_REQUEST_NULL) {
            while (cur < n_out && (out[cur].stopped || out[cur].sent == nseg))
                cur++;
            if (cur < n_out && held[out[cur].sent]) {
                hc__sleep(delay);
                delay = 0;
                out_edge_t *o = &out[cur];
                int f, n;
                hc__segment(count, nseg, o->sent, &f, &n);
                char *src = from_t1[o->sent] ? scratch : buf;
                err = MPI_Isend(src + f * ext, n, type, o->peer,
                                TAG_DATA + 2 * (int)o->sent + o->tree, comm, &send_req);
                send_edge = cur;
            }
        }
        for (size_t i = 0; err == MPI_SUCCESS && i < n_out; i++) {
            out_edge_t *o = &out[i];
            int busy = send_req != MPI_REQUEST_NULL && send_edge == i;
            if (o->stopped && !o->replied && !busy) {
                o->replied = 1;
                o->end_val = o->sent;
                err = MPI_Isend(&o->end_val, 1, MPI_UINT32_T, o->peer, TAG_END + o->tree, comm,
                                &o->end_req);
                if (err == MPI_SUCCESS && o->sent < nseg) /* the child's receive of segment j */
                    err = MPI_Isend(buf, 0, type, o->peer, TAG_DATA + 2 * (int)o->sent + o->tree,
                                    comm, &o->fill_req);
            }
        }
        if (err != MPI_SUCCESS)
            break;
        /* Gather everything outstanding; done when nothing is. */
        int nr = 0;
        for (int i = 0; i < n_in; i++) {
            reqs[nr++] = in[i].data_req;
            reqs[nr++] = in[i].end_req;
            reqs[nr++] = in[i].stop_req;
        }
        reqs[nr++] = send_req;
        for (size_t i = 0; i < n_out; i++) {
            reqs[nr++] = out[i].stop_req;
            reqs[nr++] = out[i].end_req;
            reqs[nr++] = out[i].fill_req;
        }
        int live = 0;
        for (int i = 0; i < nr; i++)
            live |= reqs[i] != MPI_REQUEST_NULL;
        int pending_out = cur < n_out;
        int open_in = 0;
        for (int i = 0; i < n_in; i++)
            open_in |= !in[i].closed;
        if (!live) {
            if (pending_out || open_in || n_held < nseg)
                err = MPI_ERR_OTHER; /* nothing can make progress: inconsistent trees */
            break;
        }
        int idx;
        MPI_Status st;
        err = MPI_Waitany(nr, reqs, &idx, &st);
        if (err != MPI_SUCCESS || idx == MPI_UNDEFINED)
            break;
        /* Dispatch the completion. */
        int k = 0;
        for (int i = 0; i < n_in; i++, k += 3) {
            in_edge_t *e = &in[i];
            if (idx == k) {
                e->data_req = MPI_REQUEST_NULL;
                int got = 0;
                MPI_Get_count(&st, type, &got);
                if (got == 0) { /* the filler: segment `next` will not come on this edge */
                    e->filled = 1;
                    continue;
                }
                uint32_t g = e->next++;
                if (!held[g]) {
                    held[g] = 1;
                    from_t1[g] = e->dst == scratch;
                    n_held++;
                }
            } else if (idx == k + 1) {
                e->end_req = MPI_REQUEST_NULL;
                e->end = (int32_t)e->end_buf;
            } else if (idx == k + 2) {
                e->stop_req = MPI_REQUEST_NULL;
            }
        }
        if (idx == k) {
            send_req = MPI_REQUEST_NULL;
            out[send_edge].sent++;
        }
        k++;
        for (size_t i = 0; i < n_out; i++, k += 3) {
            if (idx == k) {
                out[i].stop_req = MPI_REQUEST_NULL;
                out[i].stopped = 1;
            } else if (idx == k + 1) {
                out[i].end_req = MPI_REQUEST_NULL;
            } else if (idx == k + 2) {
                out[i].fill_req = MPI_REQUEST_NULL;
            }
        }
    }
    /* Segments that arrived only through T1 are copied into the user buffer. */
    if (err == MPI_SUCCESS)
        for (uint32_t g = 0; g < nseg; g++)
            if (from_t1[g]) {
                int f, n;
                hc__segment(count, nseg, g, &f, &n);
                err = MPI_Sendrecv(scratch + f * ext, n, type, me, 3, buf + f * ext, n, type, me, 3,
                                   comm, MPI_STATUS_IGNORE);
            }
    free(reqs);
    free(out);
    free(held);
    free(from_t1);
    free(scratch_base);
    return err;
}
