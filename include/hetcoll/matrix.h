/* Dense row-major matrices of doubles: cost matrices (seconds) and size/traffic matrices
 * (bytes, stored exactly as doubles up to 2^53). Row = sender, column = receiver. */
#ifndef HETCOLL_MATRIX_H
#define HETCOLL_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hc_matrix {
    uint32_t rows;
    uint32_t cols;
    double *v; /* rows*cols values, row-major */
} hc_matrix_t;

/* Element (i, j) of matrix m (an lvalue). */
#define HC_AT(m, i, j) ((m)->v[(size_t)(i) * (m)->cols + (size_t)(j)])

/* Allocate a rows x cols matrix filled with `fill`. Caller frees with hc_matrix_destroy. */
int hc_matrix_create(uint32_t rows, uint32_t cols, double fill, hc_matrix_t **out);

/* Deep copy. Caller frees the copy. */
int hc_matrix_clone(const hc_matrix_t *m, hc_matrix_t **out);

/* NULL-safe. */
void hc_matrix_destroy(hc_matrix_t *m);

/* What a loader accepts in each cell. */
typedef enum {
    HC_MATRIX_COSTS, /* finite, >= 0 seconds; the diagonal is ignored (read, set to 0) */
    HC_MATRIX_SIZES, /* finite, >= 0 whole numbers of bytes; diagonal kept */
    HC_MATRIX_TIMES  /* finite, >= 0 seconds, diagonal kept (a redistribution's n1 x n2) */
} hc_matrix_kind_t;

/* Load a matrix from a file: whitespace text (one row per line, '#' starts a comment) or
 * JSON (a top-level array of arrays, or an object with a "matrix"/"sizes"/"costs"/"times"/"traffic"
 * field; detected by the first non-blank character). `rows`/`cols` = 0 accept any shape, otherwise
 * the shape must match. Errors name the file, line and column. Caller frees *out. */
int hc_matrix_load(const char *path, hc_matrix_kind_t kind, uint32_t rows, uint32_t cols,
                   hc_matrix_t **out);

/* Same as hc_matrix_load from a string; `origin` names it in errors. */
int hc_matrix_parse(const char *text, const char *origin, hc_matrix_kind_t kind, uint32_t rows,
                    uint32_t cols, hc_matrix_t **out);

#ifdef __cplusplus
}
#endif
#endif
