/* Platform loaders: the good files of tests/data, the platform setters/getters, JSON round
 * trips, and a table-driven test over every bad input in tests/data/bad (status code AND a
 * detail naming the file and the field or line). */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#define DATA HC_TEST_DATA

/* |a - b| <= eps for doubles (cmocka 1.1 only compares floats). */
#define ASSERT_DBL(a, b, eps)                                                                      \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (eps)))                                                             \
            fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                                    \
    } while (0)

enum { PLAT, COSTS, SIZES };

typedef struct {
    const char *file; /* under tests/data/bad, or a spec when spec = 1 */
    int loader;
    uint32_t rows, cols;
    int status;
    const char *expect; /* substring of hc_error_detail() */
} bad_case_t;

/* Keep in sync with tests/data/bad/README (the test checks that every file is listed in both). */
static const bad_case_t bad_cases[] = {
    {"malformed.json", PLAT, 0, 0, HC_ERR_PARSE, "malformed.json:5: column 17:"},
    {"truncated.json", PLAT, 0, 0, HC_ERR_PARSE, "truncated.json:5: column"},
    {"empty.json", PLAT, 0, 0, HC_ERR_PARSE, "empty.json: file is empty"},
    {"blank.json", PLAT, 0, 0, HC_ERR_PARSE, "blank.json: file is empty"},
    {"not_object.json", PLAT, 0, 0, HC_ERR_PARSE, "expected a JSON object"},
    {"format_missing.json", PLAT, 0, 0, HC_ERR_PARSE, "field 'format': missing"},
    {"format_wrong.json", PLAT, 0, 0, HC_ERR_UNSUPPORTED, "field 'format': unsupported format"},
    {"nodes_zero.json", PLAT, 0, 0, HC_ERR_VALUE, "field 'nodes': must be in [1, 65536] (got 0)"},
    {"duplicate_node.json", PLAT, 0, 0, HC_ERR_VALUE, "field 'nodes[1].name': duplicate"},
    {"latency_missing.json", PLAT, 0, 0, HC_ERR_PARSE, "field 'latency_s': missing"},
    {"latency_negative.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'latency_s[0][1]': must be finite and > 0 (got -1)"},
    {"latency_zero.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'latency_s[0][1]': must be finite and > 0 (got 0)"},
    {"latency_nan.json", PLAT, 0, 0, HC_ERR_PARSE, "latency_nan.json:4: column 23: invalid token"},
    {"latency_inf.json", PLAT, 0, 0, HC_ERR_PARSE, "latency_inf.json:4: column 28: invalid token"},
    {"latency_string.json", PLAT, 0, 0, HC_ERR_PARSE, "field 'latency_s[0][1]': expected a number"},
    {"bandwidth_negative.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'bandwidth_Bps[0][1]': must be finite and > 0 (got -5)"},
    {"bandwidth_zero.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'bandwidth_Bps[0][1]': must be finite and > 0 (got 0)"},
    {"bandwidth_nan.json", PLAT, 0, 0, HC_ERR_PARSE, "bandwidth_nan.json:5: column 27"},
    {"bandwidth_inf.json", PLAT, 0, 0, HC_ERR_PARSE,
     "bandwidth_inf.json:5: column 29: real number overflow"},
    {"shape_rows.json", PLAT, 0, 0, HC_ERR_SHAPE, "field 'latency_s': expected 3x3"},
    {"shape_cols.json", PLAT, 0, 0, HC_ERR_SHAPE,
     "field 'bandwidth_Bps[1]': row 1 has 2 values, expected 3"},
    {"cluster_missing_inter.json", PLAT, 0, 0, HC_ERR_PARSE,
     "field 'inter': no entry for clusters 'A' and 'C'"},
    {"cluster_unknown_name.json", PLAT, 0, 0, HC_ERR_UNKNOWN,
     "field 'inter[0].b': unknown cluster 'Z'"},
    {"cluster_latency_negative.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'clusters[0].latency_s': must be finite and > 0"},
    {"cluster_inter_bandwidth_zero.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'inter[0].bandwidth_Bps': must be finite and > 0 (got 0)"},
    {"gap_not_increasing.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'gaps[0].sizes[1]': sizes must be strictly increasing"},
    {"gap_negative.json", PLAT, 0, 0, HC_ERR_VALUE,
     "field 'gaps[0].gap_s[1]': must be finite and >= 0"},
    {"does_not_exist.json", PLAT, 0, 0, HC_ERR_IO, "does_not_exist.json: cannot open"},
    /* matrices */
    {"costs_not_number.txt", COSTS, 0, 0, HC_ERR_PARSE,
     "costs_not_number.txt:3: column 2: 'abc' is not a number"},
    {"costs_ragged.txt", COSTS, 0, 0, HC_ERR_SHAPE,
     "costs_ragged.txt:3: row 3 has 4 values, expected 5"},
    {"costs_4x5.txt", COSTS, 5, 5, HC_ERR_SHAPE, "costs_4x5.txt: expected 5x5, got 4x5"},
    {"costs_negative.txt", COSTS, 0, 0, HC_ERR_VALUE, "costs_negative.txt:2: column 3: value -2"},
    {"costs_nan.txt", COSTS, 0, 0, HC_ERR_VALUE, "costs_nan.txt:2: column 3: value is NaN"},
    {"costs_inf.txt", COSTS, 0, 0, HC_ERR_VALUE, "costs_inf.txt:2: column 3: value is infinite"},
    {"matrix_comments_only.txt", COSTS, 0, 0, HC_ERR_PARSE,
     "matrix_comments_only.txt: no matrix rows"},
    {"sizes_fraction.txt", SIZES, 0, 0, HC_ERR_VALUE,
     "sizes_fraction.txt:2: column 3: size 1.5 is not a whole number"},
    {"matrix_malformed.json", SIZES, 0, 0, HC_ERR_PARSE, "matrix_malformed.json:1: column 25"},
    {"matrix_not_number.json", SIZES, 0, 0, HC_ERR_PARSE, "field 'sizes[1][1]': expected a number"},
    {"matrix_ragged.json", SIZES, 0, 0, HC_ERR_SHAPE,
     "field 'traffic[1]': row 1 has 2 values, expected 3"},
    {"matrix_no_field.json", SIZES, 0, 0, HC_ERR_PARSE, "matrix_no_field.json: no matrix field"},
};
#define N_BAD (sizeof bad_cases / sizeof *bad_cases)

static void test_bad_table(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_BAD; k++) {
        const bad_case_t *c = &bad_cases[k];
        char path[1024];
        snprintf(path, sizeof path, "%s/bad/%s", DATA, c->file);
        hc_error_clear();
        int rc;
        if (c->loader == PLAT) {
            hc_platform_t *p = (hc_platform_t *)&rc; /* must be reset to NULL */
            rc = hc_platform_load(path, &p);
            assert_null(p);
        } else {
            hc_matrix_t *m = (hc_matrix_t *)&rc;
            rc = hc_matrix_load(path, c->loader == COSTS ? HC_MATRIX_COSTS : HC_MATRIX_SIZES,
                                c->rows, c->cols, &m);
            assert_null(m);
        }
        const char *d = hc_error_detail();
        if (rc != c->status || !strstr(d, path) || !strstr(d, c->expect))
            fail_msg("%s: got %s '%s', expected %s with '%s'", c->file, hc_status_name(rc), d,
                     hc_status_name(c->status), c->expect);
    }
}

/* Every file in tests/data/bad is in the table and in its README, and vice versa. */
static void test_bad_table_complete(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/bad/README", DATA);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char readme[65536];
    size_t n = fread(readme, 1, sizeof readme - 1, f);
    readme[n] = '\0';
    fclose(f);
    for (size_t k = 0; k < N_BAD; k++)
        if (!strstr(readme, bad_cases[k].file))
            fail_msg("%s is not listed in tests/data/bad/README", bad_cases[k].file);
    snprintf(path, sizeof path, "%s/bad", DATA);
    DIR *dir = opendir(path);
    assert_non_null(dir);
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0)
            continue;
        int found = 0;
        for (size_t k = 0; k < N_BAD && !found; k++)
            found = strcmp(bad_cases[k].file, e->d_name) == 0;
        if (!found) {
            closedir(dir);
            fail_msg("tests/data/bad/%s has no row in the bad-input table", e->d_name);
        }
    }
    closedir(dir);
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int status;
        const char *expect;
    } cases[] = {
        {"builtin:nope", HC_ERR_UNKNOWN,
         "unknown built-in platform 'nope' (valid: gusto, grid5000)"},
        {"builtin:", HC_ERR_UNKNOWN, "valid: gusto, grid5000"},
        {"random:nope", HC_ERR_UNKNOWN, "(valid: gusto, two-cluster, uniform, grid, sites)"},
        {"random:gusto:Q=1", HC_ERR_UNKNOWN,
         "unknown key 'Q' for generator 'gusto' (valid: P, seed)"},
        {"random:uniform:P=0", HC_ERR_VALUE, "key 'P': must be in [1, 4096] (got 0)"},
        {"random:uniform:P=2.5", HC_ERR_VALUE, "key 'P': expected a whole number"},
        {"random:uniform:P=abc", HC_ERR_VALUE, "key 'P': 'abc' is not a finite number"},
        {"random:uniform:P", HC_ERR_VALUE, "option 'P': expected key=value"},
        {"random:uniform:seed=-1", HC_ERR_VALUE, "key 'seed'"},
        {"random:uniform:P=3:P=4", HC_ERR_VALUE, "key 'P' is given twice"},
        {"random:uniform:lat_min=1:lat_max=0.5", HC_ERR_VALUE, "'lat_min' (1) is larger than"},
        {"random:grid:clusters=100:nodes=100", HC_ERR_LIMIT, "more than 4096 nodes"},
        {"random:two-cluster:jitter=1.5", HC_ERR_VALUE, "key 'jitter'"},
        {"", HC_ERR_INVAL, "empty platform spec"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        hc_platform_t *p = NULL;
        hc_error_clear();
        int rc = hc_platform_load(cases[k].spec, &p);
        assert_null(p);
        const char *d = hc_error_detail();
        if (rc != cases[k].status || !strstr(d, cases[k].expect))
            fail_msg("'%s': got %s '%s', expected %s with '%s'", cases[k].spec, hc_status_name(rc),
                     d, hc_status_name(cases[k].status), cases[k].expect);
    }
}

static hc_platform_t *load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", DATA, name);
    hc_platform_t *p = NULL;
    int rc = hc_platform_load(path, &p);
    if (rc != HC_OK)
        fail_msg("%s: %s", path, hc_error_detail());
    return p;
}

static void test_matrix_form(void **state)
{
    (void)state;
    hc_platform_t *p = load("platform_matrix.json");
    assert_int_equal(hc_platform_size(p), 4);
    assert_string_equal(hc_platform_name(p), "four-nodes");
    assert_string_equal(hc_platform_node_name(p, 2), "b0");
    assert_string_equal(hc_platform_node_name(p, 3), "x");
    ASSERT_DBL(hc_platform_latency(p, 2, 0), 0.012, 0);
    ASSERT_DBL(hc_platform_latency(p, 0, 2), 0.010, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 2, 0), 5e5, 0);
    ASSERT_DBL(hc_platform_latency(p, 1, 1), 0.0, 0);
    assert_true(isinf(hc_platform_bandwidth(p, 1, 1)));
    ASSERT_DBL(hc_platform_send_time(p, 0), 0.5, 0);
    assert_true(hc_platform_send_time(p, 1) < 0);
    assert_int_equal(hc_platform_cluster_count(p), 2);
    assert_int_equal(hc_platform_cluster_of(p, 0), 0);
    assert_int_equal(hc_platform_cluster_of(p, 1), 0);
    assert_int_equal(hc_platform_cluster_of(p, 2), 1);
    assert_int_equal(hc_platform_cluster_of(p, 3), -1);
    assert_string_equal(hc_platform_cluster_name(p, 1), "B");
    assert_false(hc_platform_has_gaps(p));
    hc_platform_destroy(p);
}

static void test_cluster_form(void **state)
{
    (void)state;
    hc_platform_t *p = load("platform_clusters.json");
    assert_int_equal(hc_platform_size(p), 6);
    assert_int_equal(hc_platform_cluster_count(p), 3);
    assert_string_equal(hc_platform_node_name(p, 0), "A-0");
    assert_string_equal(hc_platform_node_name(p, 4), "B-1");
    assert_string_equal(hc_platform_node_name(p, 5), "C-0");
    assert_int_equal(hc_platform_cluster_of(p, 2), 0);
    assert_int_equal(hc_platform_cluster_of(p, 3), 1);
    assert_int_equal(hc_platform_cluster_of(p, 5), 2);
    /* intra A, intra B, inter A-B (symmetric), default A-C and B-C */
    ASSERT_DBL(hc_platform_latency(p, 0, 2), 5e-5, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 2, 1), 1.25e8, 0);
    ASSERT_DBL(hc_platform_latency(p, 3, 4), 1e-4, 0);
    ASSERT_DBL(hc_platform_latency(p, 1, 4), 0.01, 0);
    ASSERT_DBL(hc_platform_latency(p, 4, 1), 0.01, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 4, 1), 1e7, 0);
    ASSERT_DBL(hc_platform_latency(p, 5, 0), 0.05, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 3, 5), 1e6, 0);
    ASSERT_DBL(hc_platform_send_time(p, 3), 0.002, 0);
    assert_true(hc_platform_send_time(p, 0) < 0);
    hc_platform_destroy(p);
}

static void test_round_trip(void **state)
{
    (void)state;
    const char *files[] = {"platform_matrix.json", "platform_clusters.json", "platform_gaps.json",
                           "builtin:gusto", "random:uniform:P=7:seed=3"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        hc_platform_t *p = strchr(files[f], ':') ? NULL : load(files[f]);
        if (!p)
            assert_int_equal(hc_platform_load(files[f], &p), HC_OK);
        char *json = NULL;
        assert_int_equal(hc_platform_to_json(p, &json), HC_OK);
        hc_platform_t *q = NULL;
        if (hc_platform_parse(json, "round-trip", &q) != HC_OK)
            fail_msg("%s: %s\n%s", files[f], hc_error_detail(), json);
        uint32_t P = hc_platform_size(p);
        assert_int_equal(hc_platform_size(q), P);
        assert_string_equal(hc_platform_name(q), hc_platform_name(p));
        assert_int_equal(hc_platform_cluster_count(q), hc_platform_cluster_count(p));
        assert_int_equal(hc_platform_has_gaps(q), hc_platform_has_gaps(p));
        for (uint32_t i = 0; i < P; i++) {
            assert_string_equal(hc_platform_node_name(q, i), hc_platform_node_name(p, i));
            assert_int_equal(hc_platform_cluster_of(q, i), hc_platform_cluster_of(p, i));
            assert_true(hc_platform_send_time(q, i) == hc_platform_send_time(p, i));
            for (uint32_t j = 0; j < P; j++) {
                assert_true(hc_platform_latency(q, i, j) == hc_platform_latency(p, i, j));
                assert_true(hc_platform_bandwidth(q, i, j) == hc_platform_bandwidth(p, i, j));
                for (uint64_t m = 0; m < 3000000; m = m * 3 + 700)
                    assert_true(hc_platform_gap(q, i, j, m) == hc_platform_gap(p, i, j, m));
            }
        }
        /* clone is equal too */
        hc_platform_t *c = NULL;
        assert_int_equal(hc_platform_clone(p, &c), HC_OK);
        char *json2 = NULL;
        assert_int_equal(hc_platform_to_json(c, &json2), HC_OK);
        assert_string_equal(json, json2);
        free(json);
        free(json2);
        hc_platform_destroy(p);
        hc_platform_destroy(q);
        hc_platform_destroy(c);
    }
}

static void test_parse_variants(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    /* integer node count, diagonal values ignored, P = 1 accepted by the loader */
    const char *t1 = "{\"format\":\"hetcoll-platform/1\",\"nodes\":2,"
                     "\"latency_s\":[[-7,0.5],[0.25,null]],\"bandwidth_Bps\":[[0,10],[20,0]]}";
    assert_int_equal(hc_platform_parse(t1, "t1", &p), HC_OK);
    assert_string_equal(hc_platform_node_name(p, 1), "n1");
    ASSERT_DBL(hc_platform_latency(p, 0, 0), 0, 0);
    ASSERT_DBL(hc_platform_latency(p, 1, 0), 0.25, 0);
    ASSERT_DBL(hc_platform_bandwidth(p, 1, 0), 20, 0);
    hc_platform_destroy(p);
    const char *t2 = "{\"format\":\"hetcoll-platform/1\",\"nodes\":[\"solo\"],"
                     "\"latency_s\":[[0]],\"bandwidth_Bps\":[[0]]}";
    assert_int_equal(hc_platform_parse(t2, "t2", &p), HC_OK);
    assert_int_equal(hc_platform_size(p), 1);
    hc_platform_destroy(p);
    /* a JSON syntax error reports origin:line: column */
    assert_int_equal(hc_platform_parse("{\n\"format\": ,", "mem", &p), HC_ERR_PARSE);
    assert_non_null(strstr(hc_error_detail(), "mem:2: column"));
    assert_null(p);
    /* both forms at once */
    const char *t3 = "{\"format\":\"hetcoll-platform/1\",\"nodes\":2,\"clusters\":[]}";
    assert_int_equal(hc_platform_parse(t3, "t3", &p), HC_ERR_PARSE);
    assert_non_null(strstr(hc_error_detail(), "not both"));
    /* gap table naming an unknown cluster / a node out of range */
    const char *t4 = "{\"format\":\"hetcoll-platform/1\",\"nodes\":2,\"latency_s\":[[0,1],[1,0]],"
                     "\"bandwidth_Bps\":[[0,1],[1,0]],\"gaps\":[{\"src\":0,\"dst\":2,"
                     "\"sizes\":[1],\"gap_s\":[1]}]}";
    assert_int_equal(hc_platform_parse(t4, "t4", &p), HC_ERR_VALUE);
    assert_non_null(strstr(hc_error_detail(), "t4: field 'gaps[0].dst'"));
    const char *t5 = "{\"format\":\"hetcoll-platform/1\",\"nodes\":2,\"latency_s\":[[0,1],[1,0]],"
                     "\"bandwidth_Bps\":[[0,1],[1,0]],\"gaps\":[{\"src_cluster\":\"A\","
                     "\"dst_cluster\":\"A\",\"sizes\":[1],\"gap_s\":[1]}]}";
    assert_int_equal(hc_platform_parse(t5, "t5", &p), HC_ERR_UNKNOWN);
    assert_non_null(strstr(hc_error_detail(), "t5: field 'gaps[0].src_cluster': unknown cluster"));
    /* cluster form with an intra-cluster gap table and a default inter link */
    const char *t6 = "{\"format\":\"hetcoll-platform/1\",\"clusters\":[{\"name\":\"A\",\"nodes\":2,"
                     "\"latency_s\":1,\"bandwidth_Bps\":10},{\"name\":\"B\",\"nodes\":1}],"
                     "\"default_inter\":{\"latency_s\":2,\"bandwidth_Bps\":20},"
                     "\"gaps\":[{\"src_cluster\":\"A\",\"dst_cluster\":\"A\",\"sizes\":[10],"
                     "\"gap_s\":[7]}]}";
    assert_int_equal(hc_platform_parse(t6, "t6", &p), HC_OK);
    assert_int_equal(hc_platform_size(p), 3);
    ASSERT_DBL(hc_platform_gap(p, 0, 1, 20), 14, 0); /* A -> A table, one sample */
    ASSERT_DBL(hc_platform_gap(p, 1, 2, 20), 1, 0);  /* A -> B: m / B */
    ASSERT_DBL(hc_platform_latency(p, 2, 0), 2, 0);
    hc_platform_destroy(p);
}

static void test_create_and_setters(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(0, 1, 1, &p), HC_ERR_VALUE);
    assert_int_equal(hc_platform_create(3, -1, 1, &p), HC_ERR_VALUE);
    assert_int_equal(hc_platform_create(3, 1, INFINITY, &p), HC_ERR_VALUE);
    assert_int_equal(hc_platform_create(3, 0.001, 1e6, &p), HC_OK);
    assert_string_equal(hc_platform_node_name(p, 2), "n2");
    assert_int_equal(hc_platform_cluster_count(p), 0);
    ASSERT_DBL(hc_platform_latency(p, 0, 2), 0.001, 0);
    assert_int_equal(hc_platform_set_link(p, 0, 2, 0.5, 2e6), HC_OK);
    ASSERT_DBL(hc_platform_latency(p, 0, 2), 0.5, 0);
    ASSERT_DBL(hc_platform_latency(p, 2, 0), 0.001, 0); /* one direction only */
    assert_int_equal(hc_platform_set_link(p, 0, 0, 1, 1), HC_ERR_INVAL);
    assert_int_equal(hc_platform_set_link(p, 0, 3, 1, 1), HC_ERR_INVAL);
    assert_int_equal(hc_platform_set_link(p, 0, 1, NAN, 1), HC_ERR_VALUE);
    assert_int_equal(hc_platform_set_link(p, 0, 1, 1, 0), HC_ERR_VALUE);
    assert_int_equal(hc_platform_set_send_time(p, 1, -1), HC_ERR_VALUE);
    assert_int_equal(hc_platform_set_send_time(p, 1, 0.3), HC_OK);
    ASSERT_DBL(hc_platform_send_time(p, 1), 0.3, 0);
    assert_int_equal(hc_platform_set_name(p, "demo"), HC_OK);
    assert_string_equal(hc_platform_name(p), "demo");
    assert_int_equal(hc_platform_set_node_name(p, 1, "mid"), HC_OK);
    assert_string_equal(hc_platform_node_name(p, 1), "mid");
    /* clusters: dense labels, removal compacts */
    assert_int_equal(hc_platform_set_cluster(p, 0, "X"), HC_OK);
    assert_int_equal(hc_platform_set_cluster(p, 1, "Y"), HC_OK);
    assert_int_equal(hc_platform_set_cluster(p, 2, "Y"), HC_OK);
    assert_int_equal(hc_platform_cluster_count(p), 2);
    assert_int_equal(hc_platform_cluster_of(p, 2), 1);
    assert_int_equal(hc_platform_set_cluster(p, 0, NULL), HC_OK);
    assert_int_equal(hc_platform_cluster_count(p), 1);
    assert_int_equal(hc_platform_cluster_of(p, 0), -1);
    assert_int_equal(hc_platform_cluster_of(p, 1), 0);
    assert_string_equal(hc_platform_cluster_name(p, 0), "Y");
    assert_int_equal(hc_platform_set_cluster(p, 1, ""), HC_ERR_VALUE);
    /* out-of-range getters do not crash */
    assert_true(isnan(hc_platform_latency(p, 0, 9)));
    assert_string_equal(hc_platform_node_name(p, 9), "");
    assert_string_equal(hc_platform_cluster_name(p, 9), "");
    assert_int_equal(hc_platform_cluster_of(p, 9), -1);
    hc_platform_destroy(p);
    hc_platform_destroy(NULL);
}

/* hc_platform_random_info lists every generator the loader knows, with defaults the loader
 * uses: random:GEN alone has the node count the defaults give, and a key at its bounds loads. */
static void test_random_info(void **state)
{
    (void)state;
    const char *name, *desc;
    hc_random_param_t par[16];
    size_t n, count = 0;
    for (size_t i = 0; hc_platform_random_info(i, &name, &desc, par, 16, &n) == HC_OK; i++) {
        count++;
        assert_true(n >= 1 && n <= 16);
        assert_true(strlen(desc) > 0);
        double prod = 1, sum = 0; /* nodes: P, clusters x nodes, sites x nodes, n1 + n2 */
        for (size_t k = 0; k < n; k++) {
            assert_true(par[k].lo <= par[k].def && par[k].def <= par[k].hi);
            if (!strcmp(par[k].key, "P") || !strcmp(par[k].key, "nodes") ||
                !strcmp(par[k].key, "clusters") || !strcmp(par[k].key, "sites"))
                prod *= par[k].def;
            if (!strcmp(par[k].key, "n1") || !strcmp(par[k].key, "n2"))
                sum += par[k].def;
        }
        double nodes = sum > 0 ? sum : prod;
        char spec[128];
        hc_platform_t *p = NULL;
        snprintf(spec, sizeof spec, "random:%s", name);
        assert_int_equal(hc_platform_load(spec, &p), HC_OK);
        assert_int_equal(hc_platform_size(p), (uint32_t)nodes);
        hc_platform_destroy(p);
        snprintf(spec, sizeof spec, "random:%s:%s=%.17g", name, par[0].key, par[0].lo);
        assert_int_equal(hc_platform_load(spec, &p), HC_OK);
        hc_platform_destroy(p);
    }
    assert_int_equal(count, 5); /* gusto, two-cluster, uniform, grid, sites */
    assert_int_equal(hc_platform_random_info(count, &name, &desc, par, 16, &n), HC_ERR_VALUE);
    assert_int_equal(hc_platform_random_info(0, NULL, NULL, NULL, 0, &n), HC_OK);
    assert_int_equal(n, 1); /* gusto: P */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_info),        cmocka_unit_test(test_bad_table),
        cmocka_unit_test(test_bad_table_complete), cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_matrix_form),        cmocka_unit_test(test_cluster_form),
        cmocka_unit_test(test_round_trip),         cmocka_unit_test(test_parse_variants),
        cmocka_unit_test(test_create_and_setters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
