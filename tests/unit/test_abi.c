/* The ABI rules of docs/architecture.md: the headers' API level matches the library's, and an
 * options struct from an older caller (smaller struct_size) is read only up to its size, the
 * newer fields keeping their defaults; an uninitialised one (struct_size 0) is refused. The
 * older structs live in exact-size heap blocks, so the sanitizer builds catch an overrun. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

static void test_api_version(void **state)
{
    (void)state;
    assert_int_equal(hc_api_version(), HC_API_VERSION);
    assert_string_equal(hc_version(), HETCOLL_VERSION_STRING);
}

/* A 4-node bcast problem and a schedule of it. */
static void problem(hc_problem_t **pb)
{
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_load("random:uniform:P=4:seed=3", &p), HC_OK);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_BCAST);
    sp.platform = p;
    sp.msg_bytes = 65536;
    assert_int_equal(hc_problem_create(&sp, pb), HC_OK);
}

static void test_older_algo_opts(void **state)
{
    (void)state;
    hc_problem_t *pb;
    problem(&pb);
    /* an "older" caller knew struct_size and seed only */
    size_t n = offsetof(hc_algo_opts_t, seed) + sizeof(uint64_t);
    unsigned char *buf = calloc(1, n);
    assert_non_null(buf);
    uint32_t sz = (uint32_t)n;
    uint64_t seed = 1;
    memcpy(buf + offsetof(hc_algo_opts_t, struct_size), &sz, sizeof sz);
    memcpy(buf + offsetof(hc_algo_opts_t, seed), &seed, sizeof seed);
    const hc_algo_opts_t *old = (const hc_algo_opts_t *)(void *)buf;
    hc_schedule_t *a = NULL, *b = NULL;
    assert_int_equal(hc_schedule_compute(pb, "model-best", old, &a), HC_OK);
    hc_algo_opts_t full;
    hc_algo_opts_init(&full);
    assert_int_equal(hc_schedule_compute(pb, "model-best", &full, &b), HC_OK);
    assert_true(a->makespan == b->makespan); /* hierarchy, segment: the defaults */
    assert_int_equal(a->n_events, b->n_events);
    sz = 0; /* not initialised */
    memcpy(buf, &sz, sizeof sz);
    hc_schedule_t *c = NULL;
    assert_int_equal(hc_schedule_compute(pb, "model-best", old, &c), HC_ERR_INVAL);
    assert_null(c);
    assert_non_null(strstr(hc_error_detail(), "hc_algo_opts_init"));
    free(buf);
    hc_schedule_destroy(a);
    hc_schedule_destroy(b);
    hc_platform_t *p = (hc_platform_t *)pb->platform;
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

static void test_older_sim_opts(void **state)
{
    (void)state;
    hc_problem_t *pb;
    problem(&pb);
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(pb, "binomial", NULL, &s), HC_OK);
    size_t n = offsetof(hc_sim_opts_t, error_sigma) + sizeof(double);
    unsigned char *buf = calloc(1, n);
    assert_non_null(buf);
    uint32_t sz = (uint32_t)n;
    double sigma = 0.2;
    memcpy(buf + offsetof(hc_sim_opts_t, struct_size), &sz, sizeof sz);
    memcpy(buf + offsetof(hc_sim_opts_t, error_sigma), &sigma, sizeof sigma);
    const hc_sim_opts_t *old = (const hc_sim_opts_t *)(void *)buf;
    hc_sim_opts_t full;
    hc_sim_opts_init(&full);
    full.error_sigma = 0.2;
    hc_sim_result_t *r1 = NULL, *r2 = NULL;
    assert_int_equal(hc_simulate(s, pb, old, &r1), HC_OK);
    assert_int_equal(hc_simulate(s, pb, &full, &r2), HC_OK);
    assert_true(r1->makespan == r2->makespan); /* seed, floor, alpha: the defaults */
    assert_true(r1->makespan != s->makespan);  /* sigma was read */
    hc_sim_result_destroy(r1);
    hc_sim_result_destroy(r2);
    free(buf);
    hc_schedule_destroy(s);
    hc_platform_t *p = (hc_platform_t *)pb->platform;
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_api_version),
        cmocka_unit_test(test_older_algo_opts),
        cmocka_unit_test(test_older_sim_opts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
