/* Small helpers of the MPI runtime: hashing, segments, size classes, error mapping and agreed
 * errors. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_internal.h"

uint64_t hc__fnv1a(const uint64_t *w, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) {
            h ^= (w[i] >> (8 * b)) & 0xff;
            h *= 0x100000001b3ULL;
        }
    return h;
}

void hc__segment(int count, uint32_t n, uint32_t k, int *first, int *len)
{
    if (n == 0)
        n = 1;
    long long a = (long long)count * k / n, b = (long long)count * (k + 1) / n;
    *first = (int)a;
    *len = (int)(b - a);
}

uint64_t hc__size_class(uint64_t bytes)
{
    if (bytes < 8)
        return bytes;
    int h = 63 - __builtin_clzll(bytes); /* highest set bit, >= 3 */
    return 4 * (uint64_t)h + ((bytes >> (h - 2)) & 3);
}

int hc__mpi_err(int st)
{
    switch (st) {
    case HC_OK:
        return MPI_SUCCESS;
    case HC_ERR_NOMEM:
        return MPI_ERR_NO_MEM;
    case HC_ERR_INVAL:
    case HC_ERR_VALUE:
    case HC_ERR_SHAPE:
    case HC_ERR_UNKNOWN:
        return MPI_ERR_ARG;
    default:
        return MPI_ERR_OTHER;
    }
}

int hc__fail(int err, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    hc_error_set(HC_ERR_INVAL, "%s", buf);
    return err;
}

int hc__agree(MPI_Comm comm, int err)
{
    return hc__agree_min(comm, err, NULL, 0);
}

int hc__agree_min(MPI_Comm comm, int err, int *vals, int n)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine[8], all[8];
    mine[0] = err != MPI_SUCCESS ? rank : size;
    for (int k = 0; k < n && k < 7; k++)
        mine[1 + k] = vals[k];
    MPI_Allreduce(mine, all, 1 + (n < 7 ? n : 7), MPI_INT, MPI_MIN, comm);
    for (int k = 0; k < n && k < 7; k++)
        vals[k] = all[1 + k];
    const int first = all[0];
    if (first == size)
        return MPI_SUCCESS;
    struct {
        int err;
        char detail[400];
    } msg;
    memset(&msg, 0, sizeof msg);
    if (rank == first) {
        msg.err = err;
        const char *d = hc_error_detail();
        snprintf(msg.detail, sizeof msg.detail, "%s", d[0] ? d : "(no detail)");
    }
    MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, first, comm);
    if (rank != first)
        hc_error_set(HC_ERR_INVAL, "rank %d: %s", first, msg.detail);
    return msg.err;
}

double hc__now(void)
{
    return MPI_Wtime();
}

double hc__fault_delay(int rank)
{
    const char *e = getenv("HETCOLL_FAULT_DELAY");
    while (e && *e) {
        char *end;
        long r = strtol(e, &end, 10);
        if (*end != ':')
            return 0.0;
        double d = strtod(end + 1, &end);
        if (r == rank)
            return d > 0 ? d : 0.0;
        e = *end == ',' ? end + 1 : NULL;
    }
    return 0.0;
}

void hc__sleep(double seconds)
{
    if (!(seconds > 0))
        return;
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

static int inplace_bugs;
static pthread_once_t inplace_once = PTHREAD_ONCE_INIT;

static void check_library(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, a = 0, b = 0, c = 0;
    MPI_Get_library_version(v, &len);
    /* MPICH before 4.1.2 crashes on MPI_Reduce in place at a non-zero root (pmodels/mpich
     * issue 6540, fixed by pull request 6543) and fails MPI_Alltoall in place with
     * non-contiguous datatypes (MPI_ERR_TRUNCATE). */
    if (sscanf(v, "MPICH Version: %d.%d.%d", &a, &b, &c) >= 2)
        inplace_bugs = a < 4 || (a == 4 && (b < 1 || (b == 1 && c < 2)));
}

int hc__inplace_copy(void)
{
    pthread_once(&inplace_once, check_library);
    return inplace_bugs;
}
