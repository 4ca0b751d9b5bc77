/* Directory service file (src/net/directory.c): round trip, dir: specs, staleness, atomic
 * replacement under concurrent readers. */
#define _POSIX_C_SOURCE 200809L
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
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hetcoll/hetcoll.h"

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hc-test-directory-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || e->d_name[1] == '.'))
                continue;
            snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(tmpdir);
    return 0;
}

static void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static void test_round_trip(void **state)
{
    (void)state;
    char path[512];
    path_of(path, sizeof path, "dir.json");
    hc_platform_t *p = NULL, *q = NULL;
    assert_int_equal(hc_platform_load("builtin:gusto", &p), HC_OK);
    uint32_t P = hc_platform_size(p);
    double *le = calloc((size_t)P * P, sizeof *le), *be = calloc((size_t)P * P, sizeof *be);
    assert_non_null(le);
    assert_non_null(be);
    for (uint32_t i = 0; i < P * P; i++) {
        le[i] = 1e-4 * i;
        be[i] = 10.0 * i;
    }
    le[1] = NAN;
    hc_directory_info_t info, got;
    hc_directory_info_init(&info);
    info.epoch = 7;
    info.interval_s = 5;
    snprintf(info.mode, sizeof info.mode, "clustered");
    snprintf(info.error_metric, sizeof info.error_metric, "mse");
    info.P = P;
    info.latency_error = le;
    info.bandwidth_error = be;
    assert_int_equal(hc_directory_write(path, p, &info), HC_OK);
    assert_int_equal(hc_directory_load(path, 60, &q, &got), HC_OK);
    assert_int_equal(hc_platform_size(q), P);
    assert_int_equal(got.epoch, 7);
    assert_true(got.interval_s == 5);
    assert_string_equal(got.mode, "clustered");
    assert_string_equal(got.error_metric, "mse");
    assert_true(got.age_s >= 0 && got.age_s < 60);
    assert_int_equal(got.P, P);
    assert_non_null(got.latency_error);
    assert_true(isnan(got.latency_error[1]));
    for (uint32_t i = 2; i < P * P; i++) {
        assert_true(got.latency_error[i] == le[i]);
        assert_true(got.bandwidth_error[i] == be[i]);
    }
    for (uint32_t i = 0; i < P; i++) {
        assert_string_equal(hc_platform_node_name(p, i), hc_platform_node_name(q, i));
        assert_int_equal(hc_platform_cluster_of(p, i), hc_platform_cluster_of(q, i));
        for (uint32_t j = 0; j < P; j++) {
            assert_true(hc_platform_latency(p, i, j) == hc_platform_latency(q, i, j));
            assert_true(hc_platform_bandwidth(p, i, j) == hc_platform_bandwidth(q, i, j));
        }
    }
    hc_directory_info_clear(&got);
    hc_platform_destroy(q);
    /* Through the platform spec. */
    char spec[600];
    snprintf(spec, sizeof spec, "dir:%s", path);
    assert_int_equal(hc_platform_load(spec, &q), HC_OK);
    assert_int_equal(hc_platform_size(q), P);
    hc_platform_destroy(q);
    snprintf(spec, sizeof spec, "dir:max-age=60:%s", path);
    assert_int_equal(hc_platform_load(spec, &q), HC_OK);
    hc_platform_destroy(q);
    snprintf(spec, sizeof spec, "dir:max-age=abc:%s", path);
    assert_int_equal(hc_platform_load(spec, &q), HC_ERR_PARSE);
    assert_non_null(strstr(hc_error_detail(), "max-age"));
    /* Shape mismatch when writing. */
    info.P = P + 1;
    assert_int_equal(hc_directory_write(path, p, &info), HC_ERR_SHAPE);
    free(le);
    free(be);
    hc_platform_destroy(p);
}

static void test_stale(void **state)
{
    (void)state;
    char path[512], spec[600];
    path_of(path, sizeof path, "old.json");
    hc_platform_t *p = NULL, *q = NULL;
    assert_int_equal(hc_platform_create(3, 1e-5, 1e9, &p), HC_OK);
    hc_directory_info_t info;
    hc_directory_info_init(&info);
    info.epoch = 42;
    info.timestamp = (double)time(NULL) - 100;
    assert_int_equal(hc_directory_write(path, p, &info), HC_OK);
    hc_directory_info_t got;
    assert_int_equal(hc_directory_load(path, 10, &q, &got), HC_ERR_STALE);
    assert_null(q);
    assert_int_equal(got.epoch, 42);
    assert_true(got.age_s >= 99);
    const char *d = hc_error_detail();
    assert_non_null(strstr(d, path));
    assert_non_null(strstr(d, "old"));
    assert_non_null(strstr(d, "epoch 42"));
    assert_non_null(strstr(d, "limit of 10 s"));
    hc_directory_info_clear(&got);
    /* No limit, or a larger one: accepted. */
    assert_int_equal(hc_directory_load(path, 0, &q, NULL), HC_OK);
    hc_platform_destroy(q);
    assert_int_equal(hc_directory_load(path, 1000, &q, NULL), HC_OK);
    hc_platform_destroy(q);
    snprintf(spec, sizeof spec, "dir:max-age=10:%s", path);
    assert_int_equal(hc_platform_load(spec, &q), HC_ERR_STALE);
    assert_null(q);
    hc_platform_destroy(p);
}

static void test_bad_files(void **state)
{
    (void)state;
    char path[512];
    hc_platform_t *p = NULL, *q = NULL;
    path_of(path, sizeof path, "missing.json");
    assert_int_equal(hc_directory_load(path, 0, &q, NULL), HC_ERR_IO);
    /* A plain platform file is not a directory file. */
    path_of(path, sizeof path, "plain.json");
    assert_int_equal(hc_platform_create(2, 1e-5, 1e9, &p), HC_OK);
    char *text = NULL;
    assert_int_equal(hc_platform_to_json(p, &text), HC_OK);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    assert_int_equal(hc_directory_load(path, 0, &q, NULL), HC_ERR_UNSUPPORTED);
    assert_non_null(strstr(hc_error_detail(), "hetcoll-directory/1"));
    /* Truncated file. */
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"format\": \"hetcoll-directory/1\", \"epoch\": 1, ", f);
    fclose(f);
    assert_int_equal(hc_directory_load(path, 0, &q, NULL), HC_ERR_PARSE);
    assert_null(q);
    hc_platform_destroy(p);
}

/* A child rewrites the file, alternating a 5-node and an 88-node platform; the parent keeps
 * loading it. Every load must succeed with one of the two sizes and a non-decreasing epoch. */
static void test_concurrent(void **state)
{
    (void)state;
    char path[512];
    path_of(path, sizeof path, "busy.json");
    hc_platform_t *a = NULL, *b = NULL;
    assert_int_equal(hc_platform_load("builtin:gusto", &a), HC_OK);
    assert_int_equal(hc_platform_load("builtin:grid5000", &b), HC_OK);
    hc_directory_info_t info;
    hc_directory_info_init(&info);
    assert_int_equal(hc_directory_write(path, a, &info), HC_OK);
    enum { WRITES = 60, MAX_READS = 5000 };
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        for (int k = 1; k <= WRITES; k++) {
            info.epoch = (uint64_t)k;
            if (hc_directory_write(path, k % 2 ? b : a, &info) != HC_OK)
                _exit(1);
        }
        _exit(0);
    }
    uint64_t last = 0;
    int reads = 0, status = 0, done = 0, saw_big = 0;
    while (reads < MAX_READS && !done) {
        hc_platform_t *q = NULL;
        hc_directory_info_t got;
        int rc = hc_directory_load(path, 0, &q, &got);
        if (rc != HC_OK)
            fprintf(stderr, "load failed: %s\n", hc_error_detail());
        assert_int_equal(rc, HC_OK);
        uint32_t P = hc_platform_size(q);
        assert_true(P == 5 || P == 88);
        saw_big |= P == 88;
        assert_true(got.epoch >= last);
        last = got.epoch;
        hc_platform_destroy(q);
        hc_directory_info_clear(&got);
        reads++;
        done = waitpid(pid, &status, WNOHANG) == pid;
    }
    if (!done)
        assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    hc_directory_info_t got;
    hc_platform_t *q = NULL;
    assert_int_equal(hc_directory_load(path, 0, &q, &got), HC_OK);
    assert_int_equal(got.epoch, WRITES);
    hc_platform_destroy(q);
    (void)saw_big;
    /* No temporary files left behind. */
    DIR *d = opendir(tmpdir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        assert_null(strstr(e->d_name, ".tmp."));
    closedir(d);
    hc_platform_destroy(a);
    hc_platform_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_stale),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_concurrent),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
