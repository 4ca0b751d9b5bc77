/* What a communicator reports: the verbose log, why a call ran the MPI library's collective,
 * errors the MPI way. Apart from comm.c so that plan.c, tune.c and coll.c can report without
 * depending on the communicator's life cycle (which uses them: no file cycle in src/mpi). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mpi_internal.h"

void hc__log(const hc_comm_t *c, const char *fmt, ...)
{
    if (!c->opts.verbose || c->rank != 0)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hetcoll: %s\n", line);
}

void hc__set_last_note(hc_comm_t *c, const hc_schedule_t *s)
{
    snprintf(c->last_note, sizeof c->last_note, "%s", s && s->note ? s->note : "");
}

void hc__native_because(hc_comm_t *c, hc__why_t why, const char *fmt, ...)
{
    c->why = why;
    memcpy(c->last_algo, "native", sizeof "native");
    c->last_note[0] = '\0';
    c->last_predicted = NAN;
    if (why < HC__WHY_FAILURES) { /* the common, cheap case: nothing to format */
        c->why_detail[0] = '\0';
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why_detail, sizeof c->why_detail, fmt, ap);
    va_end(ap);
}

int hc__raise(hc_comm_t *c, int err)
{
    if (err == MPI_SUCCESS)
        return err;
    if (!c) {
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, err);
        return err;
    }
    if (!(c->flags & HC__DROPIN))
        MPI_Comm_call_errhandler(c->comm, err);
    return err;
}
