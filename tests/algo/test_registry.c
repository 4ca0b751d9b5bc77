/* Every registered algorithm x fixtures of its collective:
 *   - hc_schedule_compute succeeds (HC_ERR_UNSUPPORTED is tolerated on some fixtures, but an
 *     algorithm must support at least half of the fixtures of its collective);
 *   - hc_schedule_validate(s, pb) == HC_OK;
 *   - the makespan equals the simulator's replay (sigma 0) within 1e-9 relative;
 *   - the makespan is >= the schedule's lower bound and, for whole-message schedules, >=
 *     hc_lower_bound(pb).
 * All failures are listed (algorithm, fixture, detail) before the test fails.
 * Debugging: HC_TEST_ALGO=a,b runs only the algorithms named a and b; HC_TEST_SKIP=c skips c. */
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

#define MAX_FIX 64

typedef struct {
    char name[96];
    hc_problem_t pb;
    hc_matrix_t *costs, *sizes;
    hc_platform_t *plat;
} fixture_t;

static fixture_t fx[MAX_FIX];
static size_t n_fx;

static fixture_t *new_fixture(hc_coll_t coll, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static fixture_t *new_fixture(hc_coll_t coll, const char *fmt, ...)
{
    assert_true(n_fx < MAX_FIX);
    fixture_t *f = &fx[n_fx++];
    memset(f, 0, sizeof *f);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->name, sizeof f->name, fmt, ap);
    va_end(ap);
    hc_problem_init(&f->pb, coll);
    return f;
}

/* P x P costs: uniform `lo` when hi <= lo, else uniform in [lo, hi); a fraction `zero` of the
 * off-diagonal entries set to 0. */
static hc_matrix_t *random_costs(hc_rng_t *rng, uint32_t rows, uint32_t cols, double lo, double hi,
                                 double zero, int square)
{
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_create(rows, cols, 0, &m), HC_OK);
    for (uint32_t i = 0; i < rows; i++)
        for (uint32_t j = 0; j < cols; j++) {
            if (square && i == j)
                continue;
            double v = hi > lo ? hc_rng_range(rng, lo, hi) : lo;
            if (zero > 0 && hc_rng_uniform(rng) < zero)
                v = 0;
            HC_AT(m, i, j) = v;
        }
    return m;
}

static void add_alltoall(hc_rng_t *rng)
{
    static const uint32_t Ps[] = {2, 3, 7, 16, 40};
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f = new_fixture(HC_COLL_ALLTOALL, "alltoall uniform P=%u", P);
        f->costs = random_costs(rng, P, P, 1e-3, 0, 0, 1);
        f->pb.P = P;
        f->pb.msg_bytes = 1024;
        f->pb.costs = f->costs;

        f = new_fixture(HC_COLL_ALLTOALL, "alltoall heterogeneous P=%u", P);
        f->costs = random_costs(rng, P, P, 1e-4, 5e-2, 0, 1);
        f->pb.P = P;
        f->pb.costs = f->costs;

        if (P >= 3) {
            f = new_fixture(HC_COLL_ALLTOALL, "alltoall zero entries + sizes P=%u", P);
            f->costs = random_costs(rng, P, P, 1e-4, 1e-2, 0.3, 1);
            assert_int_equal(hc_matrix_create(P, P, 0, &f->sizes), HC_OK);
            for (size_t x = 0; x < (size_t)P * P; x++)
                f->sizes->v[x] = f->costs->v[x] > 0 ? floor(f->costs->v[x] * 1e8) : 0;
            f->pb.P = P;
            f->pb.costs = f->costs;
            f->pb.sizes = f->sizes;
        }
    }
    /* from a platform with two clusters */
    uint32_t P = 12;
    fixture_t *f = new_fixture(HC_COLL_ALLTOALL, "alltoall platform 2 clusters P=%u", P);
    assert_int_equal(hc_platform_create(P, 5e-5, 1e9, &f->plat), HC_OK);
    for (uint32_t i = 0; i < P; i++) {
        assert_int_equal(hc_platform_set_cluster(f->plat, i, i < 5 ? "a" : "b"), HC_OK);
        for (uint32_t j = 0; j < P; j++)
            if (i != j && (i < 5) != (j < 5))
                assert_int_equal(hc_platform_set_link(f->plat, i, j, 1e-2, 1e7), HC_OK);
    }
    assert_int_equal(hc_cost_uniform(f->plat, HC_MODEL_HOCKNEY, 1 << 20, &f->costs), HC_OK);
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.platform = f->plat;
    f->pb.msg_bytes = 1 << 20;
}

/* A platform of P nodes in `C` clusters (labels "c0".."c{C-1}", node i in cluster i % C),
 * intra links fast, inter links slow and varied. */
static hc_platform_t *cluster_platform(hc_rng_t *rng, uint32_t P, uint32_t C)
{
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(P, 5e-5, 1.25e8, &p), HC_OK);
    for (uint32_t i = 0; i < P; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%u", i % C);
        assert_int_equal(hc_platform_set_cluster(p, i, name), HC_OK);
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = i + 1; j < P; j++) {
            if (i % C == j % C)
                continue;
            double lat = hc_rng_range(rng, 2e-3, 1.2e-2), bw = hc_rng_range(rng, 1e7, 1e8);
            assert_int_equal(hc_platform_set_link(p, i, j, lat, bw), HC_OK);
            assert_int_equal(hc_platform_set_link(p, j, i, lat, bw), HC_OK);
        }
    return p;
}

static void add_bcast(hc_rng_t *rng)
{
    static const uint32_t Ps[] = {2, 5, 9, 17, 33};
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f = new_fixture(HC_COLL_BCAST, "bcast uniform P=%u root 0", P);
        f->costs = random_costs(rng, P, P, 2e-3, 0, 0, 1);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.msg_bytes = 1 << 20;

        f = new_fixture(HC_COLL_BCAST, "bcast heterogeneous P=%u root %u", P, P - 1);
        f->costs = random_costs(rng, P, P, 1e-3, 3e-2, 0, 1);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.root = P - 1;
        f->pb.msg_bytes = 1 << 20;

        uint32_t C = P < 4 ? 2 : 3;
        uint64_t m = q % 2 ? 65536 : 1 << 20;
        f = new_fixture(HC_COLL_BCAST, "bcast platform %u clusters P=%u root %u m=%llu", C, P,
                        P / 2, (unsigned long long)m);
        f->plat = cluster_platform(rng, P, C);
        assert_int_equal(hc_cost_uniform(f->plat, HC_MODEL_HOCKNEY, m, &f->costs), HC_OK);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.platform = f->plat;
        f->pb.msg_bytes = m;
        f->pb.root = P / 2;
    }
    uint32_t P = 10;
    fixture_t *f = new_fixture(HC_COLL_BCAST, "bcast platform pLogP no clusters P=%u root 3", P);
    assert_int_equal(hc_platform_create(P, 1e-4, 1e8, &f->plat), HC_OK);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j)
                assert_int_equal(hc_platform_set_link(f->plat, i, j, hc_rng_range(rng, 1e-4, 1e-2),
                                                      hc_rng_range(rng, 1e7, 1e9)),
                                 HC_OK);
    assert_int_equal(hc_cost_uniform(f->plat, HC_MODEL_PLOGP, 1 << 20, &f->costs), HC_OK);
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.platform = f->plat;
    f->pb.model = HC_MODEL_PLOGP;
    f->pb.msg_bytes = 1 << 20;
    f->pb.root = 3;
}

/* Constant rows C[i][j] = t(i) (003's model); t drawn from `levels` values to force ties. */
static hc_matrix_t *reduce_costs(hc_rng_t *rng, uint32_t P, int levels, double *t)
{
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_create(P, P, 0, &m), HC_OK);
    for (uint32_t i = 0; i < P; i++) {
        t[i] = levels > 0 ? (double)(1 + hc_rng_below(rng, (uint64_t)levels))
                          : hc_rng_range(rng, 0.5, 4);
        for (uint32_t j = 0; j < P; j++)
            if (i != j)
                HC_AT(m, i, j) = t[i];
    }
    return m;
}

static void add_reduce(hc_rng_t *rng)
{
    static const uint32_t Ps[] = {2, 3, 6, 9, 12};
    double t[16];
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f = new_fixture(HC_COLL_REDUCE, "reduce random t P=%u root 0", P);
        f->costs = reduce_costs(rng, P, 0, t);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.msg_bytes = 4096;

        f = new_fixture(HC_COLL_REDUCE, "reduce ties (3 levels) P=%u root %u", P, P - 1);
        f->costs = reduce_costs(rng, P, 3, t);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.root = P - 1;
    }
    uint32_t P = 8;
    fixture_t *f = new_fixture(HC_COLL_REDUCE, "reduce all equal P=%u root 2", P);
    f->costs = reduce_costs(rng, P, 1, t);
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.root = 2;

    f = new_fixture(HC_COLL_REDUCE, "reduce platform send times P=%u root 1", P);
    assert_int_equal(hc_platform_create(P, 1e-4, 1e8, &f->plat), HC_OK);
    f->costs = reduce_costs(rng, P, 4, t);
    for (uint32_t i = 0; i < P; i++)
        assert_int_equal(hc_platform_set_send_time(f->plat, i, t[i]), HC_OK);
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.platform = f->plat;
    f->pb.root = 1;
}

static void add_redistribute(hc_rng_t *rng)
{
    static const struct {
        uint32_t n1, n2, k;
        double beta, zero;
    } cases[] = {
        {1, 1, 1, 0, 0},      {2, 3, 1, 0.5, 0}, {2, 3, 2, 0, 0.3},  {5, 4, 3, 1, 0.2},
        {5, 4, 4, 0.1, 0},    {8, 8, 8, 1, 0.5}, {8, 8, 3, 0.05, 0}, {12, 10, 5, 1, 0.4},
        {12, 10, 20, 0, 0.1}, {3, 9, 2, 2, 0.1},
    };
    for (size_t q = 0; q < sizeof cases / sizeof *cases; q++) {
        fixture_t *f = new_fixture(HC_COLL_REDISTRIBUTE, "redistribute %ux%u k=%u beta=%g",
                                   cases[q].n1, cases[q].n2, cases[q].k, cases[q].beta);
        f->costs = random_costs(rng, cases[q].n1, cases[q].n2, 0, 0, 0, 0);
        for (size_t x = 0; x < (size_t)cases[q].n1 * cases[q].n2; x++)
            f->costs->v[x] =
                hc_rng_uniform(rng) < cases[q].zero ? 0 : (double)(1 + hc_rng_below(rng, 10)) * 0.5;
        f->pb.P = cases[q].n1 + cases[q].n2;
        f->pb.n1 = cases[q].n1;
        f->pb.n2 = cases[q].n2;
        f->pb.k = cases[q].k;
        f->pb.beta = cases[q].beta;
        f->pb.costs = f->costs;
    }
    /* weights where preemption pays: one heavy edge per node plus light ones */
    fixture_t *f = new_fixture(HC_COLL_REDISTRIBUTE, "redistribute preemption 3x3 k=2 beta=0.1");
    static const double w[9] = {10, 1, 1, 1, 10, 1, 1, 1, 10};
    f->costs = random_costs(rng, 3, 3, 0, 0, 0, 0);
    memcpy(f->costs->v, w, sizeof w);
    f->pb.P = 6;
    f->pb.n1 = f->pb.n2 = 3;
    f->pb.k = 2;
    f->pb.beta = 0.1;
    f->pb.costs = f->costs;
    /* real-valued heterogeneous weights */
    f = new_fixture(HC_COLL_REDISTRIBUTE, "redistribute real weights 6x7 k=4 beta=0.3");
    f->costs = random_costs(rng, 6, 7, 0.01, 3, 0.15, 0);
    f->pb.P = 13;
    f->pb.n1 = 6;
    f->pb.n2 = 7;
    f->pb.k = 4;
    f->pb.beta = 0.3;
    f->pb.costs = f->costs;
}

static int setup(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 2026);
    n_fx = 0;
    add_alltoall(&rng);
    add_bcast(&rng);
    add_reduce(&rng);
    add_redistribute(&rng);
    for (size_t i = 0; i < n_fx; i++) {
        if (hc_problem_check(&fx[i].pb) != HC_OK) {
            print_message("fixture %s: %s\n", fx[i].name, hc_error_detail());
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_fx; i++) {
        hc_matrix_destroy(fx[i].costs);
        hc_matrix_destroy(fx[i].sizes);
        hc_platform_destroy(fx[i].plat);
    }
    n_fx = 0;
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
    hc_algo_opts_default(&opts);
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
    else if (s->n_segments <= 1 && s->makespan < lb - 1e-9 * (1 + fabs(lb)))
        FAIL("makespan %.17g below hc_lower_bound %.17g", s->makespan, lb);
    /* the JSON round trip keeps a valid schedule */
    char *json = NULL;
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
        if ((only && !in_list(only, info->name)) || (skip && in_list(skip, info->name)))
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
