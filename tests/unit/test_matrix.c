/* Matrices: create/clone, the text and JSON loaders (good inputs, shapes, kinds, errors with
 * origin, line and column). The bad files of tests/data/bad are covered by test_platform.c. */
#define _POSIX_C_SOURCE 200809L
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#define ASSERT_DBL(a, b, eps)                                                                      \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (eps)))                                                             \
            fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                                    \
    } while (0)

static void expect_error(int rc, int status, const char *substr)
{
    if (rc != status || !strstr(hc_error_detail(), substr))
        fail_msg("got %s '%s', expected %s with '%s'", hc_status_name(rc), hc_error_detail(),
                 hc_status_name(status), substr);
}

static void test_create_clone(void **state)
{
    (void)state;
    hc_matrix_t *m = NULL, *c = NULL;
    assert_int_equal(hc_matrix_create(2, 3, 1.5, &m), HC_OK);
    assert_int_equal(m->rows, 2);
    assert_int_equal(m->cols, 3);
    for (int k = 0; k < 6; k++)
        ASSERT_DBL(m->v[k], 1.5, 0);
    HC_AT(m, 1, 2) = 7;
    assert_int_equal(hc_matrix_clone(m, &c), HC_OK);
    ASSERT_DBL(HC_AT(c, 1, 2), 7, 0);
    HC_AT(m, 1, 2) = 8;
    ASSERT_DBL(HC_AT(c, 1, 2), 7, 0); /* deep copy */
    hc_matrix_destroy(m);
    hc_matrix_destroy(c);
    hc_matrix_destroy(NULL);
    assert_int_equal(hc_matrix_create(0, 0, 0, &m), HC_OK); /* empty is allowed */
    hc_matrix_destroy(m);
}

static void test_text(void **state)
{
    (void)state;
    hc_matrix_t *m = NULL;
    const char *t = "# a cost matrix\n"
                    "\n"
                    "  9   1.5 2e-3   # trailing comment\n"
                    "\t0.25 -4  3\r\n"
                    "1 2 nan\n"
                    "   \n";
    /* costs: the diagonal is ignored (even -4 or nan) and set to 0 */
    assert_int_equal(hc_matrix_parse(t, "C.txt", HC_MATRIX_COSTS, 0, 0, &m), HC_OK);
    assert_int_equal(m->rows, 3);
    assert_int_equal(m->cols, 3);
    ASSERT_DBL(HC_AT(m, 0, 0), 0, 0);
    ASSERT_DBL(HC_AT(m, 0, 1), 1.5, 0);
    ASSERT_DBL(HC_AT(m, 0, 2), 2e-3, 0);
    ASSERT_DBL(HC_AT(m, 1, 0), 0.25, 0);
    ASSERT_DBL(HC_AT(m, 1, 1), 0, 0);
    ASSERT_DBL(HC_AT(m, 2, 2), 0, 0);
    hc_matrix_destroy(m);
    /* the same text as sizes: 1.5 is not whole; -4 on the kept diagonal is negative */
    expect_error(hc_matrix_parse(t, "S.txt", HC_MATRIX_SIZES, 0, 0, &m), HC_ERR_VALUE,
                 "S.txt:3: column 2: size 1.5 is not a whole number of bytes");
    expect_error(hc_matrix_parse("0 1\n2 -4\n", "S.txt", HC_MATRIX_SIZES, 0, 0, &m), HC_ERR_VALUE,
                 "S.txt:2: column 2: value -4 is negative");
    assert_null(m);
    /* sizes keep the diagonal, must be whole */
    assert_int_equal(hc_matrix_parse("5 1024\n2048 7\n", "S", HC_MATRIX_SIZES, 2, 2, &m), HC_OK);
    ASSERT_DBL(HC_AT(m, 0, 0), 5, 0);
    ASSERT_DBL(HC_AT(m, 1, 0), 2048, 0);
    hc_matrix_destroy(m);
    /* no trailing newline, rectangular */
    assert_int_equal(hc_matrix_parse("1 2 3\n4 5 6", "R", HC_MATRIX_SIZES, 0, 0, &m), HC_OK);
    assert_int_equal(m->rows, 2);
    assert_int_equal(m->cols, 3);
    ASSERT_DBL(HC_AT(m, 1, 2), 6, 0);
    hc_matrix_destroy(m);
    /* largest exact size 2^53 accepted, above rejected */
    assert_int_equal(hc_matrix_parse("9007199254740992", "big", HC_MATRIX_SIZES, 0, 0, &m), HC_OK);
    hc_matrix_destroy(m);
    expect_error(hc_matrix_parse("1e300", "huge", HC_MATRIX_SIZES, 0, 0, &m), HC_ERR_VALUE,
                 "huge:1: column 1: size 1e+300 is larger than 2^53");
}

static void test_text_errors(void **state)
{
    (void)state;
    hc_matrix_t *m = NULL;
    expect_error(hc_matrix_parse("0 1\n1 0\nx 1\n", "C.txt", HC_MATRIX_COSTS, 0, 0, &m),
                 HC_ERR_PARSE, "C.txt:3: column 1: 'x' is not a number");
    expect_error(hc_matrix_parse("0 1 2\n1 0\n", "C.txt", HC_MATRIX_COSTS, 0, 0, &m), HC_ERR_SHAPE,
                 "C.txt:2: row 2 has 2 values, expected 3");
    expect_error(hc_matrix_parse("0 1\n1 0\n", "C.txt", HC_MATRIX_COSTS, 3, 3, &m), HC_ERR_SHAPE,
                 "C.txt:1: row 1 has 2 values, expected 3");
    expect_error(hc_matrix_parse("0 1\n1 0\n", "C.txt", HC_MATRIX_COSTS, 3, 0, &m), HC_ERR_SHAPE,
                 "C.txt: expected 3xany, got 2x2");
    expect_error(hc_matrix_parse("0 1 2\n1 0 2\n", "C.txt", HC_MATRIX_COSTS, 3, 3, &m),
                 HC_ERR_SHAPE, "C.txt: expected 3x3, got 2x3");
    expect_error(hc_matrix_parse("0 inf\n1 0\n", "C.txt", HC_MATRIX_COSTS, 0, 0, &m), HC_ERR_VALUE,
                 "C.txt:1: column 2: value is infinite");
    expect_error(hc_matrix_parse("0 1\n-1e-9 0\n", "C.txt", HC_MATRIX_COSTS, 0, 0, &m),
                 HC_ERR_VALUE, "C.txt:2: column 1: value -1e-09 is negative");
    expect_error(hc_matrix_parse("0 1.0.0\n", "C.txt", HC_MATRIX_COSTS, 0, 0, &m), HC_ERR_PARSE,
                 "'1.0.0' is not a number");
    expect_error(hc_matrix_parse("", "E", HC_MATRIX_COSTS, 0, 0, &m), HC_ERR_PARSE,
                 "E: no matrix rows");
    expect_error(hc_matrix_parse("1 2\n", "K", (hc_matrix_kind_t)7, 0, 0, &m), HC_ERR_INVAL,
                 "unknown matrix kind");
    assert_null(m);
}

static void test_json(void **state)
{
    (void)state;
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_parse(" [[0, 1], [2, 0]]", "a.json", HC_MATRIX_SIZES, 2, 2, &m),
                     HC_OK);
    ASSERT_DBL(HC_AT(m, 1, 0), 2, 0);
    hc_matrix_destroy(m);
    const char *fields[] = {"matrix", "sizes", "costs", "times", "traffic"};
    for (int f = 0; f < 5; f++) {
        char t[128];
        snprintf(t, sizeof t, "{\"format\": \"x\", \"%s\": [[null, 0.5], [1.5, 3]]}", fields[f]);
        assert_int_equal(hc_matrix_parse(t, "o.json", HC_MATRIX_COSTS, 0, 0, &m), HC_OK);
        ASSERT_DBL(HC_AT(m, 0, 0), 0, 0);
        ASSERT_DBL(HC_AT(m, 0, 1), 0.5, 0);
        ASSERT_DBL(HC_AT(m, 1, 0), 1.5, 0);
        ASSERT_DBL(HC_AT(m, 1, 1), 0, 0);
        hc_matrix_destroy(m);
    }
    expect_error(hc_matrix_parse("[[0, 1], [2, -1]]", "a.json", HC_MATRIX_SIZES, 0, 0, &m),
                 HC_ERR_VALUE, "a.json: field 'matrix[1][1]': value -1 is negative");
    expect_error(hc_matrix_parse("[[0, 1.5], [2, 0]]", "a.json", HC_MATRIX_SIZES, 0, 0, &m),
                 HC_ERR_VALUE, "a.json: field 'matrix[0][1]': size 1.5 is not a whole number");
    expect_error(hc_matrix_parse("[[0, 1], [2, 0]]", "a.json", HC_MATRIX_SIZES, 3, 3, &m),
                 HC_ERR_SHAPE, "a.json: expected 3x3, got 2x2");
    expect_error(hc_matrix_parse("[[0, 1],\n [2, 0]", "a.json", HC_MATRIX_SIZES, 0, 0, &m),
                 HC_ERR_PARSE, "a.json:2:");
    expect_error(hc_matrix_parse("[1, 2]", "a.json", HC_MATRIX_SIZES, 0, 0, &m), HC_ERR_PARSE,
                 "a.json: field 'matrix[0]': expected an array");
    expect_error(hc_matrix_parse("[]", "a.json", HC_MATRIX_SIZES, 0, 0, &m), HC_ERR_PARSE,
                 "no matrix rows");
    expect_error(hc_matrix_parse("{\"sizes\": 3}", "a.json", HC_MATRIX_SIZES, 0, 0, &m),
                 HC_ERR_PARSE, "field 'sizes': expected an array of rows");
    assert_null(m);
}

static void test_load_file(void **state)
{
    (void)state;
    char path[] = "/tmp/hetcoll_test_matrix_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("0 3\n4 0\n", f);
    fclose(f);
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_load(path, HC_MATRIX_COSTS, 2, 2, &m), HC_OK);
    ASSERT_DBL(HC_AT(m, 1, 0), 4, 0);
    hc_matrix_destroy(m);
    expect_error(hc_matrix_load(path, HC_MATRIX_COSTS, 3, 3, &m), HC_ERR_SHAPE, path);
    remove(path);
    expect_error(hc_matrix_load(path, HC_MATRIX_COSTS, 0, 0, &m), HC_ERR_IO, "cannot open");
    assert_null(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_clone), cmocka_unit_test(test_text),
        cmocka_unit_test(test_text_errors),  cmocka_unit_test(test_json),
        cmocka_unit_test(test_load_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
