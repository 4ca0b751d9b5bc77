/* Status codes and error details.
 *
 * Every fallible library call returns an int status: HC_OK (0) or a negative hc_status_t.
 * The failing call also records a one-line, human-readable detail (naming the file, line,
 * field and problem where it applies) that hc_error_detail() returns for the calling thread.
 */
#ifndef HETCOLL_STATUS_H
#define HETCOLL_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, value, message): the single list behind the enum, hc_status_name and hc_strerror. */
#define HC_STATUS_LIST(X)                                                                          \
    X(OK, 0, "success")                                                                            \
    X(ERR_NOMEM, -1, "out of memory")                                                              \
    X(ERR_INVAL, -2, "invalid argument")                                                           \
    X(ERR_IO, -3, "I/O error")                                                                     \
    X(ERR_PARSE, -4, "malformed input")                                                            \
    X(ERR_SHAPE, -5, "matrix or array has the wrong shape")                                        \
    X(ERR_VALUE, -6, "value out of range")                                                         \
    X(ERR_UNKNOWN, -7, "unknown name")                                                             \
    X(ERR_UNSUPPORTED, -8, "not supported for this input")                                         \
    X(ERR_INVALID_SCHEDULE, -9, "schedule is not valid")                                           \
    X(ERR_LIMIT, -10, "limit reached")                                                             \
    X(ERR_STALE, -11, "data is too old")                                                           \
    X(ERR_INTERNAL, -12, "internal error")

typedef enum {
#define HC__STATUS_ENUM(name, value, msg) HC_##name = value,
    HC_STATUS_LIST(HC__STATUS_ENUM)
#undef HC__STATUS_ENUM
} hc_status_t;

/* Short message for a status code ("out of memory"); never NULL. */
const char *hc_strerror(int status);

/* Symbolic name of a status code ("HC_ERR_NOMEM"); never NULL. */
const char *hc_status_name(int status);

/* Detail recorded by the last failing call in this thread, e.g.
 * "plat.json:3: field 'latency_s[1][2]': must be finite and > 0".
 * Returns "" when no detail was recorded. The string is owned by the library and valid
 * until the next library call in the same thread. */
const char *hc_error_detail(void);

/* Clear the detail of this thread. */
void hc_error_clear(void);

/* Record a detail for this thread (printf-style, one line) and return `status`. For code built
 * on the library: the MPI runtime records its own errors this way, so that hc_error_detail()
 * explains them too. */
int hc_error_set(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
