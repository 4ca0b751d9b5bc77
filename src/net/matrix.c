/* Dense matrices and their loaders: whitespace text or JSON (docs/formats.md, "Size/traffic
 * and cost matrices"). Text errors name origin:line and the column (1-based value index in
 * the row); JSON errors name the field path with 0-based indices. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_internal.h"

/* Sizes are stored exactly as doubles up to 2^53. */
#define HC__MAX_EXACT 9007199254740992.0

int hc_matrix_create(uint32_t rows, uint32_t cols, double fill, hc_matrix_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_matrix_create: out is NULL");
    *out = NULL;
    hc_matrix_t *m = hc__calloc(1, sizeof *m);
    if (!m)
        return hc__error(HC_ERR_NOMEM, "out of memory allocating a %ux%u matrix", rows, cols);
    size_t n = (size_t)rows * cols;
    m->v = hc__malloc(n ? n : 1, sizeof *m->v);
    if (!m->v) {
        free(m);
        return hc__error(HC_ERR_NOMEM, "out of memory allocating a %ux%u matrix", rows, cols);
    }
    m->rows = rows;
    m->cols = cols;
    for (size_t k = 0; k < n; k++)
        m->v[k] = fill;
    *out = m;
    return HC_OK;
}

int hc_matrix_clone(const hc_matrix_t *m, hc_matrix_t **out)
{
    if (!m || !out)
        return hc__error(HC_ERR_INVAL, "hc_matrix_clone: NULL argument");
    HC__TRY(hc_matrix_create(m->rows, m->cols, 0.0, out));
    size_t n = (size_t)m->rows * m->cols;
    if (n)
        memcpy((*out)->v, m->v, n * sizeof *m->v);
    return HC_OK;
}

void hc_matrix_destroy(hc_matrix_t *m)
{
    if (!m)
        return;
    free(m->v);
    free(m);
}

/* Range check of one cell; `where` is e.g. "C.txt:3: column 2" or "S.json: field 'x[1][2]'".
 * Diagonal cells of a cost matrix are ignored. */
static int check_cell(hc_matrix_kind_t kind, double x, int diag, const char *where)
{
    if (kind == HC_MATRIX_COSTS && diag)
        return HC_OK;
    if (isnan(x))
        return hc__error(HC_ERR_VALUE, "%s: value is NaN (must be a finite number >= 0)", where);
    if (isinf(x))
        return hc__error(HC_ERR_VALUE, "%s: value is infinite (must be a finite number >= 0)",
                         where);
    if (x < 0)
        return hc__error(HC_ERR_VALUE, "%s: value %g is negative (must be >= 0)", where, x);
    if (kind == HC_MATRIX_SIZES) {
        if (x != floor(x))
            return hc__error(HC_ERR_VALUE, "%s: size %g is not a whole number of bytes", where, x);
        if (x > HC__MAX_EXACT)
            return hc__error(HC_ERR_VALUE, "%s: size %g is larger than 2^53 bytes", where, x);
    }
    return HC_OK;
}

/* A size written with more digits than a double holds: "9007199254740993" reads as 2^53. */
static int check_exact(hc_matrix_kind_t kind, const char *tok, const char *where)
{
    if (kind != HC_MATRIX_SIZES || strspn(tok, "0123456789") != strlen(tok))
        return HC_OK;
    errno = 0;
    unsigned long long v = strtoull(tok, NULL, 10);
    if (errno == ERANGE || v > (unsigned long long)HC__MAX_EXACT)
        return hc__error(HC_ERR_VALUE,
                         "%s: size %s is larger than 2^53 bytes (not exact as a "
                         "double)",
                         where, tok);
    return HC_OK;
}

static int check_shape(const char *origin, uint32_t rows, uint32_t cols, uint32_t r, uint32_t c)
{
    if ((rows && r != rows) || (cols && c != cols)) {
        char er[24], ec[24];
        if (rows)
            snprintf(er, sizeof er, "%u", rows);
        else
            snprintf(er, sizeof er, "%s", "any");
        if (cols)
            snprintf(ec, sizeof ec, "%u", cols);
        else
            snprintf(ec, sizeof ec, "%s", "any");
        return hc__error(HC_ERR_SHAPE, "%s: expected %sx%s, got %ux%u", origin, er, ec, r, c);
    }
    return HC_OK;
}

/* ---- text ---- */

static int parse_text(const char *text, const char *origin, hc_matrix_kind_t kind, uint32_t rows,
                      uint32_t cols, hc_matrix_t **out)
{
    double *vals = NULL;
    size_t nvals = 0, cap = 0;
    uint32_t r = 0, c = 0;
    int rc = HC_OK;
    unsigned line = 0;
    const char *s = text;
    char tok[64];
    while (*s) {
        line++;
        const char *eol = strchr(s, '\n');
        const char *end = eol ? eol : s + strlen(s);
        const char *hash = memchr(s, '#', (size_t)(end - s));
        const char *stop = hash ? hash : end;
        uint32_t nrow = 0;
        const char *q = s;
        for (;;) {
            while (q < stop && isspace((unsigned char)*q))
                q++;
            if (q >= stop)
                break;
            const char *t0 = q;
            while (q < stop && !isspace((unsigned char)*q))
                q++;
            size_t tl = (size_t)(q - t0);
            nrow++;
            if (tl >= sizeof tok) {
                rc = hc__error(HC_ERR_PARSE, "%s:%u: column %u: '%.20s...' is not a number", origin,
                               line, nrow, t0);
                goto done;
            }
            memcpy(tok, t0, tl);
            tok[tl] = '\0';
            char *ep;
            errno = 0;
            double x = strtod(tok, &ep);
            if (ep == tok || *ep != '\0') {
                rc = hc__error(HC_ERR_PARSE, "%s:%u: column %u: '%s' is not a number", origin, line,
                               nrow, tok);
                goto done;
            }
            char where[512];
            snprintf(where, sizeof where, "%s:%u: column %u", origin, line, nrow);
            if ((rc = check_cell(kind, x, r == nrow - 1, where)) != HC_OK ||
                (rc = check_exact(kind, tok, where)) != HC_OK)
                goto done;
            if ((rc = hc__grow((void **)&vals, &cap, nvals + 1, sizeof *vals)) != HC_OK)
                goto done;
            vals[nvals++] = (kind == HC_MATRIX_COSTS && r == nrow - 1) ? 0.0 : x;
        }
        if (nrow > 0) {
            if (r == 0)
                c = nrow;
            else if (nrow != c) {
                rc = hc__error(HC_ERR_SHAPE, "%s:%u: row %u has %u values, expected %u", origin,
                               line, r + 1, nrow, c);
                goto done;
            }
            if (cols && nrow != cols) {
                rc = hc__error(HC_ERR_SHAPE, "%s:%u: row %u has %u values, expected %u", origin,
                               line, r + 1, nrow, cols);
                goto done;
            }
            r++;
        }
        s = eol ? eol + 1 : end;
    }
    if (r == 0) {
        rc = hc__error(HC_ERR_PARSE, "%s: no matrix rows (the input is empty or only comments)",
                       origin);
        goto done;
    }
    if ((rc = check_shape(origin, rows, cols, r, c)) != HC_OK)
        goto done;
    if ((rc = hc_matrix_create(r, c, 0.0, out)) != HC_OK)
        goto done;
    memcpy((*out)->v, vals, nvals * sizeof *vals);
done:
    free(vals);
    return rc;
}

/* ---- JSON ---- */

static const char *const json_fields[] = {"matrix", "sizes", "costs", "times", "traffic"};

static int parse_json(const char *text, const char *origin, hc_matrix_kind_t kind, uint32_t rows,
                      uint32_t cols, hc_matrix_t **out)
{
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return hc__error(HC_ERR_PARSE, "%s:%d: column %d: %s", origin, jerr.line, jerr.column,
                         jerr.text);
    int rc = HC_OK;
    const char *field = "matrix";
    json_t *arr = root;
    if (json_is_object(root)) {
        arr = NULL;
        for (size_t k = 0; k < sizeof json_fields / sizeof *json_fields; k++) {
            json_t *f = json_object_get(root, json_fields[k]);
            if (f) {
                arr = f;
                field = json_fields[k];
                break;
            }
        }
        if (!arr) {
            rc = hc__error(HC_ERR_PARSE,
                           "%s: no matrix field (expected one of \"matrix\", \"sizes\", "
                           "\"costs\", \"times\", \"traffic\")",
                           origin);
            goto done;
        }
    }
    if (!json_is_array(arr)) {
        rc = hc__error(HC_ERR_PARSE, "%s: field '%s': expected an array of rows", origin, field);
        goto done;
    }
    size_t r = json_array_size(arr);
    if (r == 0) {
        rc = hc__error(HC_ERR_PARSE, "%s: field '%s': no matrix rows (empty array)", origin, field);
        goto done;
    }
    if (r > UINT32_MAX) {
        rc = hc__error(HC_ERR_LIMIT, "%s: field '%s': too many rows", origin, field);
        goto done;
    }
    size_t c = 0;
    for (size_t i = 0; i < r; i++) {
        json_t *row = json_array_get(arr, i);
        if (!json_is_array(row)) {
            rc = hc__error(HC_ERR_PARSE, "%s: field '%s[%zu]': expected an array (a row)", origin,
                           field, i);
            goto done;
        }
        size_t n = json_array_size(row);
        if (i == 0) {
            c = n;
            if (c == 0 || c > UINT32_MAX) {
                rc = hc__error(HC_ERR_SHAPE, "%s: field '%s[0]': row 0 has %zu values", origin,
                               field, c);
                goto done;
            }
        } else if (n != c) {
            rc =
                hc__error(HC_ERR_SHAPE, "%s: field '%s[%zu]': row %zu has %zu values, expected %zu",
                          origin, field, i, i, n, c);
            goto done;
        }
    }
    if ((rc = check_shape(origin, rows, cols, (uint32_t)r, (uint32_t)c)) != HC_OK)
        goto done;
    if ((rc = hc_matrix_create((uint32_t)r, (uint32_t)c, 0.0, out)) != HC_OK)
        goto done;
    for (size_t i = 0; i < r; i++) {
        json_t *row = json_array_get(arr, i);
        for (size_t j = 0; j < c; j++) {
            json_t *x = json_array_get(row, j);
            char where[512];
            snprintf(where, sizeof where, "%s: field '%s[%zu][%zu]'", origin, field, i, j);
            int diag = (i == j);
            if (!json_is_number(x)) {
                if (kind == HC_MATRIX_COSTS && diag && json_is_null(x)) {
                    HC_AT(*out, i, j) = 0.0;
                    continue;
                }
                rc = hc__error(HC_ERR_PARSE, "%s: expected a number", where);
                goto fail;
            }
            double v = json_number_value(x);
            if ((rc = check_cell(kind, v, diag, where)) != HC_OK)
                goto fail;
            if (kind == HC_MATRIX_SIZES && json_is_integer(x) &&
                json_integer_value(x) > (json_int_t)HC__MAX_EXACT) {
                rc = hc__error(HC_ERR_VALUE,
                               "%s: size %" JSON_INTEGER_FORMAT
                               " is larger than 2^53 bytes (not exact as a double)",
                               where, json_integer_value(x));
                goto fail;
            }
            HC_AT(*out, i, j) = (kind == HC_MATRIX_COSTS && diag) ? 0.0 : v;
        }
    }
    goto done;
fail:
    hc_matrix_destroy(*out);
    *out = NULL;
done:
    json_decref(root);
    return rc;
}

int hc_matrix_parse(const char *text, const char *origin, hc_matrix_kind_t kind, uint32_t rows,
                    uint32_t cols, hc_matrix_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_matrix_parse: out is NULL");
    *out = NULL;
    if (!origin)
        origin = "<string>";
    if (!text)
        return hc__error(HC_ERR_INVAL, "%s: no text", origin);
    if (kind != HC_MATRIX_COSTS && kind != HC_MATRIX_SIZES && kind != HC_MATRIX_TIMES)
        return hc__error(HC_ERR_INVAL, "%s: unknown matrix kind %d", origin, (int)kind);
    const char *s = text;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (*s == '[' || *s == '{')
        return parse_json(text, origin, kind, rows, cols, out);
    return parse_text(text, origin, kind, rows, cols, out);
}

int hc_matrix_load(const char *path, hc_matrix_kind_t kind, uint32_t rows, uint32_t cols,
                   hc_matrix_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_matrix_load: out is NULL");
    *out = NULL;
    if (!path)
        return hc__error(HC_ERR_INVAL, "hc_matrix_load: path is NULL");
    char *text = NULL;
    HC__TRY(hc__read_file(path, &text, NULL));
    int rc = hc_matrix_parse(text, path, kind, rows, cols, out);
    free(text);
    return rc;
}
