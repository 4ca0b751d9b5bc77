/* Every registered algorithm x fixtures of its collective:
 *   - hc_schedule_compute succeeds (HC_ERR_UNSUPPORTED is tolerated on some fixtures, but an
 *     algorithm must support at least half of the fixtures of its collective);
 *   - hc_schedule_validate(s, pb) == HC_OK;
 *   - the makespan equals the simulator's replay (sigma 0) within 1e-9 relative;
 *   - the schedule reports hc_lower_bound(pb), the problem's one bound, and its makespan is
 *     >= it (segmented broadcasts included);
 *   - determinism: the same options (seed) give the same events (JSON text), unless a time-limited
 *     search stopped early;
 *   - `auto` is never worse than any of its candidates (registry rows flagged HC_ALGO_AUTO; an
 *     exhaustive search only where it completes).
 * All failures are listed (algorithm, fixture, detail) before the test fails.
 * HC_TEST_ALGO=a,b runs only the algorithms named a and b, HC_TEST_COLL=c only collective c;
 * HC_TEST_SKIP=c skips c. tests/CMakeLists.txt makes one CTest per registry row from them. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#define FX_OK(expr) assert_int_equal((expr), HC_OK)
#define FX_TRUE(cond) assert_true(cond)
#include "fixtures.h"

static int setup(void **state)
{
    (void)state;
    return fx_setup();
}

static int teardown(void **state)
{
    (void)state;
    fx_teardown();
    return 0;
}

static int close_rel(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-9 * m + 1e-12;
}

static size_t failures;

/* Is `name` in the comma-separated list `list`? */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        print_message("FAIL %s [%s]: ", info->name, f->name);                                      \
        print_message(__VA_ARGS__);                                                                \
        print_message("\n");                                                                       \
        failures++;                                                                                \
    } while (0)

/* Returns 1 when computed (checked), 0 when unsupported. */
static int check_one(const hc_algo_info_t *info, const fixture_t *f)
{
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    opts.time_limit_s = 2;
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_compute(&f->pb, info->name, &opts, &s);
    if (rc == HC_ERR_UNSUPPORTED)
        return 0;
    if (rc != HC_OK) {
        FAIL("compute: %s: %s", hc_status_name(rc), hc_error_detail());
        return 1;
    }
    if (strcmp(s->algorithm, "") == 0)
        FAIL("schedule has no algorithm name");
    rc = hc_schedule_validate(s, &f->pb);
    if (rc != HC_OK)
        FAIL("%s", hc_error_detail());
    hc_sim_result_t *r = NULL;
    rc = hc_simulate(s, &f->pb, NULL, &r);
    if (rc != HC_OK)
        FAIL("%s", hc_error_detail());
    else if (!close_rel(r->makespan, s->makespan))
        FAIL("makespan %.17g but the replay gives %.17g", s->makespan, r->makespan);
    hc_sim_result_destroy(r);
    if (isnan(s->lower_bound))
        FAIL("lower bound left NAN");
    else if (s->makespan < s->lower_bound - 1e-9 * (1 + fabs(s->lower_bound)))
        FAIL("makespan %.17g below the schedule's lower bound %.17g", s->makespan, s->lower_bound);
    double lb;
    if (hc_lower_bound(&f->pb, &lb) != HC_OK)
        FAIL("hc_lower_bound: %s", hc_error_detail());
    else if (s->makespan < lb - 1e-9 * (1 + fabs(lb)))
        FAIL("makespan %.17g below hc_lower_bound %.17g", s->makespan, lb);
    else if (!(s->lower_bound == lb)) /* one bound per problem, in every schedule */
        FAIL("the schedule reports %.17g, the problem's bound is %.17g", s->lower_bound, lb);
    /* the JSON round trip keeps a valid schedule */
    char *json = NULL;
    /* determinism: a second run gives the same events */
    if (!s->has_search || s->search.optimal) {
        hc_schedule_t *again = NULL;
        char *j1 = NULL, *j2 = NULL;
        if (hc_schedule_compute(&f->pb, info->name, &opts, &again) != HC_OK ||
            hc_schedule_to_json(s, &j1) != HC_OK || hc_schedule_to_json(again, &j2) != HC_OK)
            FAIL("second run: %s", hc_error_detail());
        else if (strcmp(j1, j2) != 0 && !(again->has_search && !again->search.optimal))
            FAIL("two runs with the same options differ");
        free(j1);
        free(j2);
        hc_schedule_destroy(again);
    }
    /* auto is never worse than a candidate */
    if (info->flags & HC_ALGO_AUTO &&
        (!(info->flags & HC_ALGO_EXACT) || f->pb.P <= info->auto_max_nodes)) {
        hc_schedule_t *au = NULL;
        if (hc_schedule_compute(&f->pb, "auto", &opts, &au) != HC_OK)
            FAIL("auto: %s", hc_error_detail());
        else if (au->makespan > s->makespan * (1 + 1e-12) + 1e-300)
            FAIL("auto %.17g is worse than candidate %s %.17g", au->makespan, info->name,
                 s->makespan);
        hc_schedule_destroy(au);
    }
    hc_schedule_t *back = NULL;
    if (hc_schedule_to_json(s, &json) != HC_OK ||
        hc_schedule_parse(json, info->name, &back) != HC_OK)
        FAIL("JSON round trip: %s", hc_error_detail());
    else if (hc_schedule_validate(back, &f->pb) != HC_OK)
        FAIL("validate after the JSON round trip: %s", hc_error_detail());
    free(json);
    hc_schedule_destroy(back);
    hc_schedule_destroy(s);
    return 1;
}

static void test_every_algorithm(void **state)
{
    (void)state;
    failures = 0;
    size_t n = hc_algo_count();
    assert_true(n >= 3);
    for (size_t a = 0; a < n; a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        assert_non_null(info);
        assert_non_null(info->name);
        assert_non_null(info->description);
        assert_non_null(info->paper);
        const char *only = getenv("HC_TEST_ALGO"), *skip = getenv("HC_TEST_SKIP");
        const char *coll = getenv("HC_TEST_COLL");
        if ((only && !in_list(only, info->name)) || (skip && in_list(skip, info->name)) ||
            (coll && strcmp(coll, hc_coll_name(info->coll)) != 0))
            continue;
        size_t total = 0, ran = 0;
        for (size_t i = 0; i < n_fx; i++) {
            const fixture_t *f = &fx[i];
            if (f->pb.coll != info->coll)
                continue;
            total++;
            ran += (size_t)check_one(info, f);
        }
        if (2 * ran < total) {
            print_message("FAIL %s: unsupported on %zu of %zu %s fixtures\n", info->name,
                          total - ran, total, hc_coll_name(info->coll));
            failures++;
        }
    }
    if (failures)
        print_message("%zu failure(s)\n", failures);
    assert_int_equal(failures, 0);
}

static void test_registry_lookup(void **state)
{
    (void)state;
    const hc_algo_info_t *info = NULL;
    assert_int_equal(hc_algo_find(HC_COLL_ALLTOALL, "caterpillar", &info), HC_OK);
    assert_string_equal(info->name, "caterpillar");
    assert_int_equal(hc_algo_find(HC_COLL_BCAST, "no-such-algo", &info), HC_ERR_UNKNOWN);
    assert_non_null(strstr(hc_error_detail(), "flat"));
    assert_non_null(strstr(hc_error_detail(), "binomial"));
    /* names are unique within a collective */
    for (size_t a = 0; a < hc_algo_count(); a++)
        for (size_t b = a + 1; b < hc_algo_count(); b++)
            if (hc_algo_get(a)->coll == hc_algo_get(b)->coll)
                assert_string_not_equal(hc_algo_get(a)->name, hc_algo_get(b)->name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_lookup),
        cmocka_unit_test(test_every_algorithm),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
