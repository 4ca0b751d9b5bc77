/* Small fixture builders shared by the unit tests (header-only). Include after <cmocka.h>:
 * the helpers fail the running test through cmocka's assertions. */
#ifndef HETCOLL_TEST_UTIL_H
#define HETCOLL_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

/* An r x c matrix holding v[0 .. r*c) (row-major). The caller destroys it. */
static inline hc_matrix_t *tu_mat(uint32_t r, uint32_t c, const double *v)
{
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_create(r, c, 0, &m), HC_OK);
    for (size_t i = 0; i < (size_t)r * c; i++)
        m->v[i] = v[i];
    return m;
}

/* An n x n reduction cost matrix in 003's model: row i is t[i] (i sends in t[i] to anyone),
 * diagonal 0. The caller destroys it. */
static inline hc_matrix_t *tu_rows(uint32_t n, const double *t)
{
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_create(n, n, 0, &m), HC_OK);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            HC_AT(m, i, j) = i == j ? 0 : t[i];
    return m;
}

/* Append the event src -> dst over [start, end] (every other field 0) to s. */
static inline void tu_add(hc_schedule_t *s, uint32_t src, uint32_t dst, double start, double end)
{
    hc_event_t e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.dst = dst;
    e.start = start;
    e.end = end;
    assert_int_equal(hc_schedule_add_event(s, &e), HC_OK);
}

#endif
