/* Speculative alltoallv: no size gathering while the sizes repeat.
 *
 * To plan, hc_alltoallv needs the whole P x P size matrix, but a rank knows only its row (what
 * it sends) and its column (what it receives). Gathering the matrix is an allgather per call,
 * which on one machine costs as much as a whole 1 KiB alltoallv. Applications mostly repeat
 * their sizes (transposes, halo-like patterns), so once two consecutive calls had the same
 * matrix, later calls run that matrix's plan directly:
 *  - each rank checks locally that its arguments are valid and its row and column are the
 *    recorded ones ("ok");
 *  - every message of the recorded plan moves with its recorded size, in the recorded order and
 *    windows, so the run is the recorded plan's run and cannot deadlock (docs/design.md). For a
 *    pair whose count changed, the rank sends zeros / receives into scratch instead, so both
 *    ends still post the recorded size: an entry (i, j) that changed is seen by i and by j;
 *  - every rank's ok bit reaches every rank: in the message tags when every pair exchanges a
 *    message (dense), else through an MPI_Iallreduce that overlaps the exchange;
 *  - if all were ok, the call is done. Otherwise every rank knows it and continues on the
 *    gathering path, which reports bad arguments or plans the new matrix and redoes the
 *    exchange. A wrong guess costs one wasted exchange, and speculation stays off until a
 *    matrix repeats, so sizes that change at every call are not exchanged twice per call.
 * The state changes only on agreed outcomes, so it is the same on every rank. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

enum { TAG_OK = 1, TAG_STALE = 3 }; /* TAG_OK is also the ordinary exchange tag */

int hc__spec_init(hc_comm_t *c, int size)
{
    hc__spec_t *sp = &c->spec;
    size_t n = size > 0 ? (size_t)size : 1;
    sp->row = calloc(n, sizeof *sp->row);
    sp->col = calloc(n, sizeof *sp->col);
    sp->interval = 1;
    sp->check_at = 1;
    return sp->row && sp->col ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

void hc__spec_free(hc_comm_t *c)
{
    hc__spec_t *sp = &c->spec;
    free(sp->row);
    free(sp->col);
    hc__entry_free(&sp->entry);
    memset(sp, 0, sizeof *sp);
}

/* Bytes of `count` elements, or UINT64_MAX for a negative count. */
static uint64_t nbytes(int count, int tsize)
{
    return count < 0 ? UINT64_MAX : (uint64_t)count * (uint64_t)tsize;
}

int hc__spec_run(hc_comm_t *c, const hc_schedule_t *s, const hc__order_t *o, int args_ok,
                 const char *sendbuf, const int *sendcounts, const int *sdispls,
                 MPI_Datatype sendtype, char *recvbuf, const int *recvcounts, const int *rdispls,
                 MPI_Datatype recvtype, int *stale_out)
{
    hc__spec_t *sp = &c->spec;
    *stale_out = 0;
    const int P = c->size, me = c->rank;
    int ssz = 0, rsz = 0;
    MPI_Aint lb, sext = 0, rext = 0;
    if (args_ok) {
        MPI_Type_size(sendtype, &ssz);
        MPI_Type_size(recvtype, &rsz);
        MPI_Type_get_extent(sendtype, &lb, &sext);
        MPI_Type_get_extent(recvtype, &lb, &rext);
    }
    /* in pieces, a message moves as bytes: a datatype with holes cannot (the sizes are the
     * recorded ones, so it goes as a changed pair; the redo plans whole messages) */
    const int usable = args_ok && (!hc__moves_bytes(s) ||
                                   (hc__dense_type(sendtype, 2) && hc__dense_type(recvtype, 2)));
    /* through forwarders a message's tag cannot carry its sender's bit (a forwarded message
     * holds several senders' blocks): agree by the reduction */
    const int dense = sp->dense && !s->relay;
    int ok = usable;
    for (int j = 0; ok && j < P; j++)
        ok = nbytes(sendcounts[j], ssz) == sp->row[j] && nbytes(recvcounts[j], rsz) == sp->col[j];
    /* Pairs whose count changed (or all, for invalid arguments) use scratch of the recorded
     * size: zeros to send, separate slots to receive into. */
    uint64_t zmax = 0, rsum = 0;
    for (size_t i = 0; !ok && i < o->ns; i++) {
        uint32_t d = s->events[o->sends[i]].dst;
        if (!usable || nbytes(sendcounts[d], ssz) != sp->row[d])
            zmax = sp->row[d] > zmax ? sp->row[d] : zmax;
    }
    for (size_t i = 0; !ok && i < o->nr; i++) {
        uint32_t f = s->events[o->recvs[i]].src;
        if (!usable || nbytes(recvcounts[f], rsz) != sp->col[f])
            rsum += sp->col[f];
    }
    hc__msg_t *m = malloc(sizeof *m * (o->ns + o->nr + 1));
    char *zeros = calloc(zmax + 1, 1), *scratch = malloc(rsum + 1);
    int err = m && zeros && scratch ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    /* An allocation failure here is local; the other ranks are already exchanging, so it ends
     * the program's use of this communicator like any MPI failure would. */
    const int stag = dense ? (ok ? TAG_OK : TAG_STALE) : TAG_OK;
    const int rtag = dense ? MPI_ANY_TAG : TAG_OK;
    uint64_t roff = 0;
    for (size_t i = 0; err == MPI_SUCCESS && i < o->ns; i++) {
        int d = (int)s->events[o->sends[i]].dst;
        if (ok || (usable && nbytes(sendcounts[d], ssz) == sp->row[d]))
            m[i] =
                (hc__msg_t){(char *)sendbuf + sdispls[d] * sext, sendcounts[d], sendtype, d, stag};
        else
            m[i] = (hc__msg_t){zeros, (int)sp->row[d], MPI_BYTE, d, stag};
    }
    for (size_t i = 0; err == MPI_SUCCESS && i < o->nr; i++) {
        int f = (int)s->events[o->recvs[i]].src;
        hc__msg_t *r = &m[o->ns + i];
        if (ok || (usable && nbytes(recvcounts[f], rsz) == sp->col[f])) {
            *r = (hc__msg_t){recvbuf + rdispls[f] * rext, recvcounts[f], recvtype, f, rtag};
        } else {
            *r = (hc__msg_t){scratch + roff, (int)sp->col[f], MPI_BYTE, f, rtag};
            roff += sp->col[f];
        }
    }
    /* in pieces: the messages' pieces, each with its message's buffer, tag and peer */
    hc__msg_t *run = m, *pm = NULL;
    size_t ns = o->ns, nr = o->nr;
    if (err == MPI_SUCCESS && s->segment_bytes && !s->relay) {
        err = hc__pieces_expand(s, o, m, &pm, &ns, &nr);
        run = pm;
    }
    MPI_Request agree = MPI_REQUEST_NULL;
    int stale = !ok, any_stale = 0;
    if (err == MPI_SUCCESS && !dense)
        err = MPI_Iallreduce(&stale, &any_stale, 1, MPI_INT, MPI_MAX, c->comm, &agree);
    if (err == MPI_SUCCESS && ok && sendcounts[me] > 0)
        err = MPI_Sendrecv(sendbuf + sdispls[me] * sext, sendcounts[me], sendtype, me, 0,
                           recvbuf + rdispls[me] * rext, recvcounts[me], recvtype, me, 0, c->comm,
                           MPI_STATUS_IGNORE);
    if (err == MPI_SUCCESS && s->relay)
        err = hc__relay_run(c->comm, me, s, o, m);
    else if (err == MPI_SUCCESS)
        err = hc__exchange_run(c->comm, run, ns, o->ws, run + ns, nr, o->wr);
    if (err == MPI_SUCCESS && !dense)
        err = MPI_Wait(&agree, MPI_STATUS_IGNORE);
    if (err == MPI_SUCCESS && dense) {
        any_stale = stale;
        for (size_t i = 0; i < nr; i++)
            any_stale |= run[ns + i].tag != TAG_OK;
    }
    free(pm);
    free(m);
    free(zeros);
    free(scratch);
    *stale_out = any_stale;
    return err;
}
