/* Status codes (one X-macro list) and the per-thread error detail. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static _Thread_local char detail[1024];

const char *hc_strerror(int status)
{
    switch (status) {
#define HC__MSG(name, value, msg)                                                                  \
    case value:                                                                                    \
        return msg;
        HC_STATUS_LIST(HC__MSG)
#undef HC__MSG
    default:
        return "unknown status";
    }
}

const char *hc_status_name(int status)
{
    switch (status) {
#define HC__NAME(name, value, msg)                                                                 \
    case value:                                                                                    \
        return "HC_" #name;
        HC_STATUS_LIST(HC__NAME)
#undef HC__NAME
    default:
        return "HC_UNKNOWN_STATUS";
    }
}

const char *hc_error_detail(void)
{
    return detail;
}

void hc_error_clear(void)
{
    detail[0] = '\0';
}

/* Formatted into a copy first: the arguments may include hc_error_detail() itself. */
static void record(const char *fmt, va_list ap)
{
    char line[sizeof detail];
    vsnprintf(line, sizeof line, fmt, ap);
    memcpy(detail, line, sizeof detail);
}

int hc_error_set(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(fmt, ap);
    va_end(ap);
    return status;
}

int hc__error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(fmt, ap);
    va_end(ap);
    return status;
}
