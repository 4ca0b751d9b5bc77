/* A total exchange through site forwarders (hc_schedule_t.relay, hc_schedule_forwarder): the
 * runtime's side of what the flow replay models (src/sim/sim_flow.c, build_relay).
 *
 * Every rank posts all its receives first (messages inside its group, the phase-1 messages it
 * forwards, the phase-2 messages it is sent), then its direct and phase-1 sends; once its
 * phase-1 messages are in, it assembles and sends its phase-2 messages. No send waits for
 * anything but arrivals that only depend on sends already posted, so the exchange cannot
 * deadlock. Block sizes come from the schedule's events (the exchange's planned bytes, which
 * the callers' counts equal: hc__exec_exchange plans with the gathered sizes, hc__spec_run
 * sends scratch of the recorded sizes for a changed pair). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

enum { TAG_PHASE1 = 5, TAG_PHASE2 = 6 };

/* The groups: dense numbers, member lists in id order, each node's position. */
typedef struct {
    uint32_t *g, *pos, *cnt, *first, *mem, n;
} groups_t;

static void groups_free(groups_t *G)
{
    free(G->g);
    free(G->pos);
    free(G->cnt);
    free(G->first);
    free(G->mem);
}

static int groups_of(const hc_schedule_t *s, groups_t *G)
{
    const uint32_t P = s->P;
    memset(G, 0, sizeof *G);
    G->g = malloc(sizeof *G->g * P);
    G->pos = malloc(sizeof *G->pos * P);
    G->cnt = calloc(P + 1, sizeof *G->cnt);
    G->first = calloc(P + 2, sizeof *G->first);
    G->mem = malloc(sizeof *G->mem * P);
    int32_t *label = malloc(sizeof *label * P);
    if (!G->g || !G->pos || !G->cnt || !G->first || !G->mem || !label) {
        free(label);
        groups_free(G);
        return hc__fail(MPI_ERR_NO_MEM, "out of memory relaying an exchange");
    }
    for (uint32_t v = 0; v < P; v++) {
        uint32_t k = 0;
        while (k < G->n && label[k] != s->piece_groups[v])
            k++;
        if (k == G->n)
            label[G->n++] = s->piece_groups[v];
        G->g[v] = k;
        G->pos[v] = G->cnt[k]++;
    }
    for (uint32_t k = 0; k < G->n; k++)
        G->first[k + 1] = G->first[k] + G->cnt[k];
    for (uint32_t v = 0; v < P; v++)
        G->mem[G->first[G->g[v]] + G->pos[v]] = v;
    free(label);
    return MPI_SUCCESS;
}

/* hc_schedule_forwarder in O(1): x's group's node at dst's position mod the group's size. */
static uint32_t fwd(const groups_t *G, uint32_t x, uint32_t dst)
{
    const uint32_t a = G->g[x];
    return G->mem[G->first[a] + G->pos[dst] % G->cnt[a]];
}

/* Waits for requests [a, b) one by one, in posting order (the same completion as a Waitall;
 * SMPI runs a Waitall over many requests slowly, see hc__exchange_run). */
static int wait_range(MPI_Request *r, size_t a, size_t b)
{
    int err = MPI_SUCCESS;
    for (size_t k = a; err == MPI_SUCCESS && k < b; k++)
        err = MPI_Wait(&r[k], MPI_STATUS_IGNORE);
    return err;
}

/* Posts bytes [0, len) of buf as the hc_schedule_message_pieces pieces of the message
 * src -> dst (a receive when recv). */
static int post_pieces(MPI_Comm comm, const hc_schedule_t *s, uint32_t src, uint32_t dst, char *buf,
                       uint64_t len, int recv, int tag, MPI_Request *r, size_t *n)
{
    const uint32_t k = hc_schedule_message_pieces(s, src, dst, len);
    int err = MPI_SUCCESS;
    for (uint32_t j = 0; err == MPI_SUCCESS && j < k; j++) {
        const uint64_t a = hc_schedule_message_piece_offset(s, src, dst, len, j);
        const uint64_t b = hc_schedule_message_piece_offset(s, src, dst, len, j + 1);
        if (b - a > (uint64_t)INT_MAX)
            return hc__fail(MPI_ERR_COUNT, "alltoallv: a forwarded piece over INT_MAX bytes");
        err = recv ? MPI_Irecv(buf + a, (int)(b - a), MPI_BYTE, (int)src, tag, comm, &r[(*n)++])
                   : MPI_Isend(buf + a, (int)(b - a), MPI_BYTE, (int)dst, tag, comm, &r[(*n)++]);
    }
    return err;
}

int hc__relay_run(MPI_Comm comm, int me_, const hc_schedule_t *s, const hc__order_t *o,
                  const hc__msg_t *m)
{
    const uint32_t P = s->P, me = (uint32_t)me_;
    groups_t G;
    int err = groups_of(s, &G);
    if (err != MPI_SUCCESS)
        return err;
    const uint32_t A = G.g[me], nA = G.cnt[A];
    /* The destinations I serve, numbered in id order (sv[j], SIZE_MAX for the others): about
     * P / nA of them, so that the tables below hold about P entries, not P x nA. */
    size_t *sv = malloc(sizeof *sv * (P + 1)), nsv = 0;
    for (uint32_t j = 0; sv && j < P; j++)
        sv[j] = G.g[j] != A && fwd(&G, me, j) == me ? nsv++ : SIZE_MAX;
    /* Per node x of my group: the bytes of its phase-1 message to me (in1[pos x]); per
     * destination I serve (k = sv[j]) and x: x's block (blen[k nA + pos x]) and its offset in
     * x's phase-1 message, whose blocks are in destination order. */
    uint64_t *in1 = calloc(nA + 1, sizeof *in1), *out1 = calloc(nA + 1, sizeof *out1);
    uint64_t *boff = malloc(sizeof *boff * (nsv * nA + 1));
    uint64_t *blen = calloc(nsv * nA + 1, sizeof *blen);
    uint64_t *out2 = calloc(P + 1, sizeof *out2), *in2 = calloc(G.n + 1, sizeof *in2);
    char **p1in = calloc(nA + 1, sizeof *p1in), **p1out = calloc(nA + 1, sizeof *p1out);
    char **p2out = calloc(P + 1, sizeof *p2out), **p2in = calloc(G.n + 1, sizeof *p2in);
    const hc__msg_t **mine2 = calloc(P + 1, sizeof *mine2); /* my own block for j, via me */
    size_t *sidx = malloc(sizeof *sidx * (P + 1)); /* my send to j: its index in o->sends */
    uint64_t *rlen = calloc(P + 1, sizeof *rlen);  /* bytes I receive from x */
    /* requests: direct and phase 1 both ways, phase 2 in up to HC_SCHEDULE_MAX_PIECES pieces
     * per remote group (receives) and per destination served (sends) */
    size_t nreq = 0, cap = o->ns + o->nr + 2 * nA + (G.n + nsv) * HC_SCHEDULE_MAX_PIECES + 8;
    MPI_Request *r = malloc(sizeof *r * cap);
    if (!sv || !in1 || !out1 || !boff || !blen || !out2 || !in2 || !p1in || !p1out || !p2out ||
        !p2in || !mine2 || !sidx || !rlen || !r)
        err = hc__fail(MPI_ERR_NO_MEM, "out of memory relaying an exchange");
    for (size_t q = 0; err == MPI_SUCCESS && q < nsv * nA; q++)
        boff[q] = UINT64_MAX;
    for (uint32_t j = 0; err == MPI_SUCCESS && j <= P; j++)
        sidx[j] = SIZE_MAX;
    for (size_t i = 0; err == MPI_SUCCESS && i < o->ns; i++)
        sidx[s->events[o->sends[i]].dst] = i;
    for (size_t i = 0; err == MPI_SUCCESS && i < o->nr; i++)
        rlen[s->events[o->recvs[i]].src] = s->events[o->recvs[i]].bytes;
    /* the forwarder's view, from the planned bytes: every event from my group that I forward */
    for (size_t i = 0; err == MPI_SUCCESS && i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        if (G.g[e->src] != A || G.g[e->dst] == A || fwd(&G, e->src, e->dst) != me)
            continue;
        blen[sv[e->dst] * nA + G.pos[e->src]] = e->bytes;
        out2[e->dst] += e->bytes;
    }
    for (uint32_t px = 0; err == MPI_SUCCESS && px < nA; px++) /* offsets in x's message */
        for (size_t k = 0; k < nsv; k++)
            if (blen[k * nA + px]) {
                boff[k * nA + px] = in1[px];
                in1[px] += blen[k * nA + px];
            }
    in1[G.pos[me]] = 0; /* my own blocks come from my send buffer */
    /* receives: phase 1 (as a forwarder; waited for before phase 2), direct, phase 2 (as a
     * destination) */
    for (uint32_t px = 0; err == MPI_SUCCESS && px < nA; px++) {
        if (!in1[px])
            continue;
        if (!(p1in[px] = malloc(in1[px])))
            err = hc__fail(MPI_ERR_NO_MEM, "out of memory relaying an exchange");
        else if (in1[px] > (uint64_t)INT_MAX)
            err = hc__fail(MPI_ERR_COUNT, "alltoallv: a forwarder's message over INT_MAX bytes");
        else
            err = MPI_Irecv(p1in[px], (int)in1[px], MPI_BYTE, (int)G.mem[G.first[A] + px],
                            TAG_PHASE1, comm, &r[nreq++]);
    }
    const size_t phase1_end = nreq;
    for (size_t i = 0; err == MPI_SUCCESS && i < o->nr; i++) {
        const hc__msg_t *w = &m[o->ns + i];
        const hc_event_t *e = &s->events[o->recvs[i]];
        if (G.g[e->src] == A)
            err = MPI_Irecv(w->buf, w->count, w->type, w->peer, w->tag, comm, &r[nreq++]);
        else
            in2[G.g[e->src]] += e->bytes;
    }
    for (uint32_t b = 0; err == MPI_SUCCESS && b < G.n; b++) {
        if (b == A || !in2[b])
            continue;
        const uint32_t f = G.mem[G.first[b] + G.pos[me] % G.cnt[b]];
        if (!(p2in[b] = malloc(in2[b])))
            err = hc__fail(MPI_ERR_NO_MEM, "out of memory relaying an exchange");
        else
            err = post_pieces(comm, s, f, me, p2in[b], in2[b], 1, TAG_PHASE2, r, &nreq);
    }
    /* sends: direct, and my blocks to each forwarder of my group (destination order: the
     * forwarder's offsets above) */
    for (size_t i = 0; err == MPI_SUCCESS && i < o->ns; i++) {
        const hc__msg_t *w = &m[i];
        const hc_event_t *e = &s->events[o->sends[i]];
        if (G.g[e->dst] == A)
            err = MPI_Isend(w->buf, w->count, w->type, w->peer, w->tag, comm, &r[nreq++]);
        else if (fwd(&G, me, e->dst) == me)
            mine2[e->dst] = w;
        else
            out1[G.pos[fwd(&G, me, e->dst)]] += e->bytes;
    }
    for (uint32_t pf = 0; err == MPI_SUCCESS && pf < nA; pf++) {
        if (!out1[pf])
            continue;
        if (out1[pf] > (uint64_t)INT_MAX || !(p1out[pf] = malloc(out1[pf]))) {
            err = hc__fail(out1[pf] > (uint64_t)INT_MAX ? MPI_ERR_COUNT : MPI_ERR_NO_MEM,
                           "alltoallv: relaying a phase-1 message of %llu bytes",
                           (unsigned long long)out1[pf]);
            break;
        }
        uint64_t off = 0;
        const uint32_t f = G.mem[G.first[A] + pf];
        for (uint32_t j = 0; j < P; j++) { /* destination order */
            const size_t i = sidx[j];
            if (i == SIZE_MAX || G.g[j] == A || fwd(&G, me, j) != f)
                continue;
            memcpy(p1out[pf] + off, m[i].buf, s->events[o->sends[i]].bytes);
            off += s->events[o->sends[i]].bytes;
        }
        err = MPI_Isend(p1out[pf], (int)out1[pf], MPI_BYTE, (int)f, TAG_PHASE1, comm, &r[nreq++]);
    }
    /* phase 2: once every phase-1 message into me is in */
    if (err == MPI_SUCCESS)
        err = wait_range(r, 0, phase1_end);
    for (uint32_t j = 0; err == MPI_SUCCESS && j < P; j++) {
        if (!out2[j])
            continue;
        if (!(p2out[j] = malloc(out2[j]))) {
            err = hc__fail(MPI_ERR_NO_MEM, "out of memory relaying an exchange");
            break;
        }
        uint64_t off = 0;
        for (uint32_t px = 0; px < nA; px++) { /* node order */
            const uint64_t len = blen[sv[j] * nA + px];
            if (!len)
                continue;
            const char *from =
                px == G.pos[me] ? (const char *)mine2[j]->buf : p1in[px] + boff[sv[j] * nA + px];
            memcpy(p2out[j] + off, from, len);
            off += len;
        }
        err = post_pieces(comm, s, me, j, p2out[j], out2[j], 0, TAG_PHASE2, r, &nreq);
    }
    if (err == MPI_SUCCESS)
        err = wait_range(r, phase1_end, nreq);
    /* unpack what came through forwarders: per remote group, its nodes' blocks in node order */
    for (size_t i = 0; err == MPI_SUCCESS && i < o->nr; i++) {
        const hc_event_t *e = &s->events[o->recvs[i]];
        if (G.g[e->src] == A)
            continue;
        uint64_t off = 0; /* the blocks of e's group before e's sender's */
        const uint32_t b = G.g[e->src];
        for (uint32_t q = 0; q < G.pos[e->src]; q++)
            off += rlen[G.mem[G.first[b] + q]];
        memcpy(m[o->ns + i].buf, p2in[b] + off, e->bytes);
    }
    for (uint32_t k = 0; k <= nA; k++) {
        free(p1in[k]);
        free(p1out[k]);
    }
    for (uint32_t k = 0; k <= P; k++)
        free(p2out[k]);
    for (uint32_t k = 0; k <= G.n; k++)
        free(p2in[k]);
    free(sv);
    free(in1);
    free(out1);
    free(boff);
    free(blen);
    free(out2);
    free(in2);
    free(p1in);
    free(p1out);
    free(p2out);
    free(p2in);
    free(mine2);
    free(sidx);
    free(rlen);
    free(r);
    groups_free(&G);
    return err;
}
