/* The broadcast builder: times transfers by the simulator's 1-port rule (bcast_kit.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

struct hc__bb_memo {
    uint32_t src, dst;
    uint64_t bytes;
    double d, port;
    int used;
};

int hc__bb_init(hc__bb_t *b, const hc_problem_t *pb, hc_schedule_t *s, uint32_t P, uint32_t nseg)
{
    memset(b, 0, sizeof *b);
    if (nseg == 0)
        nseg = 1;
    b->pb = pb;
    b->s = s;
    b->P = P;
    b->nseg = nseg;
    b->send_free = hc__calloc(P, sizeof *b->send_free);
    b->recv_free = hc__calloc(P, sizeof *b->recv_free);
    b->hold = hc__malloc((size_t)P * nseg, sizeof *b->hold);
    b->memo = hc__calloc(HC__BB_MEMO, sizeof *b->memo);
    if (!b->send_free || !b->recv_free || !b->hold || !b->memo) {
        hc__bb_free(b);
        return hc__error(HC_ERR_NOMEM, "out of memory planning a broadcast");
    }
    for (size_t i = 0; i < (size_t)P * nseg; i++)
        b->hold[i] = INFINITY;
    hc__bb_give_all(b, pb ? pb->root : 0, 0.0);
    return HC_OK;
}

void hc__bb_free(hc__bb_t *b)
{
    free(b->send_free);
    free(b->recv_free);
    free(b->hold);
    free(b->memo);
    b->memo = NULL;
    b->send_free = b->recv_free = b->hold = NULL;
}

void hc__bb_give_all(hc__bb_t *b, uint32_t v, double t)
{
    for (uint32_t k = 0; k < b->nseg; k++) {
        double *h = &b->hold[(size_t)v * b->nseg + k];
        if (t < *h)
            *h = t;
    }
}

double hc__bb_done(const hc__bb_t *b, uint32_t v, uint32_t nseg)
{
    double d = 0;
    for (uint32_t k = 0; k < nseg && k < b->nseg; k++) {
        double h = b->hold[(size_t)v * b->nseg + k];
        if (h > d)
            d = h;
    }
    return d;
}

double hc__bb_duration(hc__bb_t *b, uint32_t src, uint32_t dst, uint64_t bytes)
{
    double port;
    if (b->cost)
        return b->cost(b->ctx, src, dst, bytes, &port);
    hc_event_t e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.dst = dst;
    e.bytes = bytes;
    return hc_problem_event_cost(b->pb, &e);
}

int hc__bb_send(hc__bb_t *b, uint32_t src, uint32_t dst, uint32_t seg, uint64_t bytes, uint8_t tree,
                double *end)
{
    if (seg >= b->nseg || src >= b->P || dst >= b->P)
        return hc__error(HC_ERR_INTERNAL, "broadcast planner: segment %u or node out of range",
                         seg);
    double h = b->hold[(size_t)src * b->nseg + seg];
    if (!isfinite(h))
        return hc__error(HC_ERR_INTERNAL,
                         "broadcast planner: node %u sends segment %u before holding it", src, seg);
    hc_event_t e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.dst = dst;
    e.seg = seg;
    e.bytes = bytes;
    e.tree = tree;
    double d, port;
    if (b->cost) {
        d = b->cost(b->ctx, src, dst, bytes, &port);
    } else {
        /* the same numbers every time for the same (src, dst, bytes): memoised */
        uint64_t hk = ((uint64_t)src * 2654435761u) ^ ((uint64_t)dst * 40503u) ^ (bytes * 97u);
        struct hc__bb_memo *mm = &b->memo[(hk ^ (hk >> 17)) % HC__BB_MEMO];
        if (mm->used && mm->src == src && mm->dst == dst && mm->bytes == bytes) {
            d = mm->d;
            port = mm->port;
        } else {
            d = hc_problem_event_cost(b->pb, &e);
            port = hc_problem_event_port_time(b->pb, &e);
            mm->used = 1;
            mm->src = src;
            mm->dst = dst;
            mm->bytes = bytes;
            mm->d = d;
            mm->port = port;
        }
        if (b->whole_port)
            port = d;
    }
    if (b->whole_port || !(port < d))
        port = d;
    /* sender port [start, start + port], receiver port [end - port, end] (the simulator's
     * rule; with port == d both are the whole transfer) */
    double st = h;
    if (b->send_free[src] > st)
        st = b->send_free[src];
    double rq = port == d ? b->recv_free[dst] : b->recv_free[dst] - (d - port);
    if (rq > st)
        st = rq;
    e.start = st;
    e.end = st + d;
    b->send_free[src] = port == d ? e.end : st + port;
    b->recv_free[dst] = e.end;
    double *hd = &b->hold[(size_t)dst * b->nseg + seg];
    if (e.end < *hd)
        *hd = e.end;
    if (e.end > b->max_end)
        b->max_end = e.end;
    if (end)
        *end = e.end;
    if (b->s)
        HC__TRY(hc_schedule_add_event(b->s, &e));
    return HC_OK;
}
