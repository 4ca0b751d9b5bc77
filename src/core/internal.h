/* Internal helpers of the core layer (error detail, allocation, file reading, HC__TRY), shared
 * by every layer above it. Not installed. Each layer's own internals are in its own header
 * (src/<layer>/<layer>_internal.h). The umbrella header stays: many sources take the public
 * types from here. */
#ifndef HETCOLL_INTERNAL_H
#define HETCOLL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hetcoll/hetcoll.h"

/* Record a detail for this thread (printf-style) and return `status`, so that failing paths
 * read `return hc__error(HC_ERR_VALUE, "%s:%d: ...", file, line);`. */
int hc__error(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Allocation helpers: overflow-checked; they return NULL on failure without recording. */
void *hc__malloc(size_t n, size_t size);
void *hc__calloc(size_t n, size_t size);
void *hc__realloc(void *p, size_t n, size_t size);
char *hc__strdup(const char *s);

/* Read a whole text file: NUL-terminated, *len bytes (NULL: not wanted). Errors name the file:
 * missing, a directory, a NUL byte, empty, or larger than hc__max_input(). */
int hc__read_file(const char *path, char **out, size_t *len);
/* The input size limit: HETCOLL_MAX_INPUT (bytes) or HC__MAX_INPUT_DEFAULT. */
#define HC__MAX_INPUT_DEFAULT (1ull << 30)
uint64_t hc__max_input(void);
/* The largest platform (nodes): HETCOLL_MAX_NODES or HC__MAX_NODES_DEFAULT (16384: 4 GiB of
 * link tables). */
#define HC__MAX_NODES_DEFAULT 16384u
uint64_t hc__max_nodes(void);

/* Read a caller's options struct (first member: uint32_t struct_size, set by its _init) over the
 * defaults already in dst (dst_size bytes): at most min(struct_size, dst_size) bytes, so an
 * older caller's smaller struct is never overrun and a newer one's extra fields are ignored.
 * HC_ERR_INVAL naming `what` when struct_size is too small to be set (not initialised). */
int hc__opts_read(void *dst, size_t dst_size, const void *src, const char *what);

/* Grow *arr (of *cap elements of `size`) to hold at least `need`. */
int hc__grow(void **arr, size_t *cap, size_t need, size_t size);

/* Propagate a non-OK status. */
#define HC__TRY(expr)                                                                              \
    do {                                                                                           \
        int hc__rc_ = (expr);                                                                      \
        if (hc__rc_ != HC_OK)                                                                      \
            return hc__rc_;                                                                        \
    } while (0)

#endif
