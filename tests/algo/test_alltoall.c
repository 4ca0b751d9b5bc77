/* Total exchange (000 §3-5): the LAP solver against brute force, Theorem 3 (openshop <= 2 LB),
 * the caterpillar on uniform costs and on the tight example of Theorem 2, zero-cost messages,
 * replay == plan for every alltoall algorithm, and `auto` taking the best of its candidates. */
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
#include "sched/alltoall_kit.h"
#include "sched/lap.h"

static const char *const my_algos[] = {"openshop", "openshop-lb", "maxmatch",
                                       "minmatch", "greedy",      "auto"};
#define N_MY (sizeof my_algos / sizeof my_algos[0])

/* ---- LAP: brute force over all permutations for n <= 7 ---- */

static int bf_best(uint32_t n, const double *c, const unsigned char *forbid, int maximize,
                   uint32_t *perm, uint32_t k, unsigned char *usedc, double acc, double *best)
{
    if (k == n) {
        if (maximize ? acc > *best : acc < *best)
            *best = acc;
        return 1;
    }
    int any = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (usedc[j] || (forbid && forbid[k * n + j]))
            continue;
        usedc[j] = 1;
        perm[k] = j;
        any |= bf_best(n, c, forbid, maximize, perm, k + 1, usedc, acc + c[k * n + j], best);
        usedc[j] = 0;
    }
    return any;
}

static void test_lap_brute_force(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 7);
    double c[49];
    unsigned char forbid[49];
    uint32_t perm[7], got[7];
    unsigned char usedc[7];
    int checked = 0, infeasible = 0;
    for (int trial = 0; trial < 3000; trial++) {
        uint32_t n = 1 + (uint32_t)hc_rng_below(&rng, 7);
        int maximize = (int)hc_rng_below(&rng, 2);
        int integer = (int)hc_rng_below(&rng, 2); /* many ties */
        double pf = trial % 3 == 0 ? 0 : hc_rng_range(&rng, 0, 0.5);
        for (uint32_t k = 0; k < n * n; k++) {
            c[k] = integer ? (double)hc_rng_below(&rng, 4) : hc_rng_range(&rng, -5, 10);
            forbid[k] = hc_rng_uniform(&rng) < pf;
        }
        memset(usedc, 0, sizeof usedc);
        double best = maximize ? -INFINITY : INFINITY;
        int feasible = bf_best(n, c, forbid, maximize, perm, 0, usedc, 0, &best);
        feasible = feasible && isfinite(best);
        double total = NAN;
        int rc = hc__lap_solve(n, c, forbid, maximize, got, &total);
        if (!feasible) {
            assert_int_equal(rc, HC_ERR_VALUE);
            infeasible++;
            continue;
        }
        assert_int_equal(rc, HC_OK);
        /* a permutation avoiding forbidden cells, with the brute-force optimum */
        memset(usedc, 0, sizeof usedc);
        double sum = 0;
        for (uint32_t i = 0; i < n; i++) {
            assert_true(got[i] < n);
            assert_false(usedc[got[i]]);
            assert_false(forbid[i * n + got[i]]);
            usedc[got[i]] = 1;
            sum += c[i * n + got[i]];
        }
        assert_true(fabs(sum - best) <= 1e-9 * (1 + fabs(best)));
        assert_true(fabs(total - best) <= 1e-9 * (1 + fabs(best)));
        checked++;
    }
    assert_true(checked > 2000);
    assert_true(infeasible > 0);
}

/* The warm-started series of a workspace gives optimal matchings too. */
static void test_lap_warm_series(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 11);
    for (int trial = 0; trial < 200; trial++) {
        uint32_t n = 2 + (uint32_t)hc_rng_below(&rng, 6);
        int maximize = trial % 2;
        double c[49];
        unsigned char forbid[49] = {0}, usedc[7];
        uint32_t got[7], perm[7];
        for (uint32_t k = 0; k < n * n; k++)
            c[k] = hc_rng_range(&rng, 0, 3);
        hc__lap_t *w;
        assert_int_equal(hc__lap_create(n, &w), HC_OK);
        for (uint32_t step = 0; step < n; step++) {
            double total, best = maximize ? -INFINITY : INFINITY;
            memset(usedc, 0, sizeof usedc);
            assert_true(bf_best(n, c, forbid, maximize, perm, 0, usedc, 0, &best));
            assert_int_equal(hc__lap_solve_ws(w, c, forbid, maximize, 1, got, &total), HC_OK);
            assert_true(fabs(total - best) <= 1e-9 * (1 + fabs(best)));
            for (uint32_t i = 0; i < n; i++)
                forbid[i * n + got[i]] = 1;
        }
        hc__lap_destroy(w);
    }
}

/* ---- helpers ---- */

static hc_matrix_t *random_matrix(hc_rng_t *rng, uint32_t P, double zero_frac)
{
    hc_matrix_t *m;
    assert_int_equal(hc_matrix_create(P, P, 0, &m), HC_OK);
    int kind = (int)hc_rng_below(rng, 4); /* 3: all equal (ties everywhere) */
    for (uint32_t i = 0; i < P; i++) {
        for (uint32_t j = 0; j < P; j++) {
            if (i == j || hc_rng_uniform(rng) < zero_frac)
                continue;
            double x = kind == 3   ? 0.5
                       : kind == 0 ? hc_rng_range(rng, 0.001, 1)
                       : kind == 1 ? (hc_rng_uniform(rng) < 0.5 ? 0.01 : 1.0)
                                   : exp(hc_rng_range(rng, -5, 2));
            HC_AT(m, i, j) = x;
        }
    }
    return m;
}

static void check_schedule(const hc_problem_t *pb, const hc_schedule_t *s)
{
    assert_int_equal(hc_schedule_validate(s, pb), HC_OK);
    hc_sim_result_t *r = NULL;
    assert_int_equal(hc_simulate(s, pb, NULL, &r), HC_OK);
    assert_true(fabs(r->makespan - s->makespan) <= 1e-9 * (1 + s->makespan));
    hc_sim_result_destroy(r);
    double lb;
    assert_int_equal(hc_lower_bound(pb, &lb), HC_OK);
    assert_true(s->makespan >= lb * (1 - 1e-12));
    assert_true(fabs(s->lower_bound - lb) <= 1e-9 * (1 + lb));
}

/* ---- Theorem 3: openshop <= 2 LB on 1000 random instances (openshop-lb on 200) ---- */

static void test_openshop_two_approx(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 2026);
    for (int trial = 0; trial < 1000; trial++) {
        uint32_t P = 2 + (uint32_t)hc_rng_below(&rng, 15);
        hc_matrix_t *c = random_matrix(&rng, P, trial % 4 == 0 ? 0.3 : 0);
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_ALLTOALL);
        pb.P = P;
        pb.costs = c;
        hc_schedule_t *s = NULL;
        assert_int_equal(hc_schedule_compute(&pb, "openshop", NULL, &s), HC_OK);
        assert_true(s->makespan <= 2 * s->lower_bound * (1 + 1e-12));
        if (trial % 5 == 0) { /* openshop-lb carries the same guarantee (a dense run) */
            hc_schedule_t *b = NULL;
            assert_int_equal(hc_schedule_compute(&pb, "openshop-lb", NULL, &b), HC_OK);
            assert_true(b->makespan <= 2 * b->lower_bound * (1 + 1e-12));
            hc_schedule_destroy(b);
        }
        if (trial % 10 == 0)
            check_schedule(&pb, s);
        hc_schedule_destroy(s);
        hc_matrix_destroy(c);
    }
}

/* ---- the caterpillar: uniform costs meet the bound; Theorem 2's tight example ---- */

static void test_caterpillar_uniform(void **state)
{
    (void)state;
    for (uint32_t P = 2; P <= 20; P++) {
        hc_matrix_t *c;
        assert_int_equal(hc_matrix_create(P, P, 0.25, &c), HC_OK);
        for (uint32_t i = 0; i < P; i++)
            HC_AT(c, i, i) = 0;
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_ALLTOALL);
        pb.P = P;
        pb.costs = c;
        hc_schedule_t *s = NULL;
        assert_int_equal(hc_schedule_compute(&pb, "caterpillar", NULL, &s), HC_OK);
        assert_true(fabs(s->makespan - s->lower_bound) <= 1e-12 * s->lower_bound);
        hc_schedule_destroy(s);
        hc_matrix_destroy(c);
    }
}

/* 000 Theorem 2's tight example, in hetcoll's conventions (row = sender, no diagonal, steps
 * 1..P-1): two unit messages 0 -> 3 and 1 -> 2, every other one eps. The caterpillar sends
 * 1 -> 2 in step 1 and 0 -> 3 in step 3, after 0 -> 2 had to wait for receiver 2: ~2 LB, while
 * the open shop heuristic starts both unit messages at once: LB. */
static void test_theorem2_tight(void **state)
{
    (void)state;
    const double eps = 1e-3;
    hc_matrix_t *c;
    assert_int_equal(hc_matrix_create(4, 4, eps, &c), HC_OK);
    for (uint32_t i = 0; i < 4; i++)
        HC_AT(c, i, i) = 0;
    HC_AT(c, 0, 3) = 1;
    HC_AT(c, 1, 2) = 1;
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = 4;
    pb.costs = c;
    hc_schedule_t *cat = NULL, *os = NULL, *lb = NULL;
    assert_int_equal(hc_schedule_compute(&pb, "caterpillar", NULL, &cat), HC_OK);
    assert_int_equal(hc_schedule_compute(&pb, "openshop", NULL, &os), HC_OK);
    assert_int_equal(hc_schedule_compute(&pb, "openshop-lb", NULL, &lb), HC_OK);
    assert_true(fabs(cat->lower_bound - (1 + 2 * eps)) < 1e-12);
    assert_true(cat->makespan / cat->lower_bound > 1.99);
    assert_true(fabs(os->makespan - os->lower_bound) <= 1e-12);
    assert_true(fabs(lb->makespan - lb->lower_bound) <= 1e-12);
    hc_schedule_destroy(cat);
    hc_schedule_destroy(os);
    hc_schedule_destroy(lb);
    hc_matrix_destroy(c);
}

/* ---- zero-cost messages are absent, schedules valid, replay == plan ---- */

static void test_zero_cost_and_replay(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 99);
    for (int trial = 0; trial < 40; trial++) {
        uint32_t P = 2 + (uint32_t)hc_rng_below(&rng, 24);
        double zf = trial % 5 == 0 ? 0.9 : (trial % 2 ? 0.3 : 0);
        hc_matrix_t *c = random_matrix(&rng, P, zf);
        HC_AT(c, 0, P - 1) = 0; /* at least one zero */
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_ALLTOALL);
        pb.P = P;
        pb.costs = c;
        pb.msg_bytes = 1000;
        size_t want = hc__a2a_count(c);
        for (size_t a = 0; a < N_MY; a++) {
            hc_schedule_t *s = NULL;
            hc_algo_opts_t o;
            hc_algo_opts_init(&o);
            o.seed = (uint64_t)trial + 1;
            assert_int_equal(hc_schedule_compute(&pb, my_algos[a], &o, &s), HC_OK);
            assert_int_equal(s->n_events, want);
            for (size_t k = 0; k < s->n_events; k++) {
                assert_true(HC_AT(c, s->events[k].src, s->events[k].dst) > 0);
                assert_int_not_equal(s->events[k].src, s->events[k].dst);
            }
            check_schedule(&pb, s);
            hc_schedule_destroy(s);
        }
        hc_matrix_destroy(c);
    }
}

/* All costs zero: nothing to send, an empty valid schedule. */
static void test_all_zero(void **state)
{
    (void)state;
    hc_matrix_t *c;
    assert_int_equal(hc_matrix_create(5, 5, 0, &c), HC_OK);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = 5;
    pb.costs = c;
    for (size_t a = 0; a < N_MY; a++) {
        hc_schedule_t *s = NULL;
        assert_int_equal(hc_schedule_compute(&pb, my_algos[a], NULL, &s), HC_OK);
        assert_int_equal(s->n_events, 0);
        assert_true(s->makespan == 0);
        assert_int_equal(hc_schedule_validate(s, &pb), HC_OK);
        hc_schedule_destroy(s);
    }
    hc_matrix_destroy(c);
}

/* ---- auto: the minimum of its candidates, named "auto", with a note ---- */

static void test_auto_is_min(void **state)
{
    (void)state;
    static const char *const cands[] = {"openshop-lb", "openshop", "maxmatch", "minmatch",
                                        "greedy"};
    hc_rng_t rng;
    hc_rng_seed(&rng, 5);
    for (int trial = 0; trial < 30; trial++) {
        uint32_t P = 3 + (uint32_t)hc_rng_below(&rng, 30);
        hc_matrix_t *c = random_matrix(&rng, P, trial % 3 == 0 ? 0.2 : 0);
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_ALLTOALL);
        pb.P = P;
        pb.costs = c;
        hc_algo_opts_t o;
        hc_algo_opts_init(&o);
        o.seed = (uint64_t)trial;
        double best = INFINITY;
        for (size_t k = 0; k < sizeof cands / sizeof cands[0]; k++) {
            hc_schedule_t *s = NULL;
            assert_int_equal(hc_schedule_compute(&pb, cands[k], &o, &s), HC_OK);
            if (s->makespan < best)
                best = s->makespan;
            hc_schedule_destroy(s);
        }
        hc_schedule_t *a = NULL;
        assert_int_equal(hc_schedule_compute(&pb, "auto", &o, &a), HC_OK);
        assert_string_equal(a->algorithm, "auto");
        assert_non_null(a->note);
        assert_non_null(strstr(a->note, "beat"));
        /* the best, up to rounding (a later candidate must win by more than 1e-12) */
        assert_true(a->makespan >= best && a->makespan <= best * (1 + 1e-12));
        check_schedule(&pb, a);
        hc_schedule_destroy(a);
        hc_matrix_destroy(c);
    }
}

/* openshop-lb is deterministic for a given seed. */
static void test_openshop_lb_deterministic(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 17);
    hc_matrix_t *c = random_matrix(&rng, 30, 0);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = 30;
    pb.costs = c;
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.seed = 3;
    hc_schedule_t *a = NULL, *b = NULL;
    assert_int_equal(hc_schedule_compute(&pb, "openshop-lb", &o, &a), HC_OK);
    assert_int_equal(hc_schedule_compute(&pb, "openshop-lb", &o, &b), HC_OK);
    assert_int_equal(a->n_events, b->n_events);
    for (size_t k = 0; k < a->n_events; k++) {
        assert_int_equal(a->events[k].src, b->events[k].src);
        assert_int_equal(a->events[k].dst, b->events[k].dst);
        assert_true(a->events[k].start == b->events[k].start);
    }
    hc_schedule_destroy(a);
    hc_schedule_destroy(b);
    hc_matrix_destroy(c);
}

/* The critical-path polish never makes an order worse and keeps every message exactly once. */
static void test_polish_monotone(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 23);
    for (int trial = 0; trial < 60; trial++) {
        uint32_t P = 2 + (uint32_t)hc_rng_below(&rng, 14);
        hc_matrix_t *c = random_matrix(&rng, P, trial % 4 == 0 ? 0.3 : 0);
        size_t n = hc__a2a_count(c), k = 0;
        hc__a2a_msg_t *list = malloc((n + 1) * sizeof *list);
        double *sf = malloc(2 * P * sizeof *sf);
        unsigned char *seen = calloc((size_t)P * P, 1);
        assert_non_null(list);
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                if (hc__a2a_sent(c, i, j))
                    list[k++] = (hc__a2a_msg_t){i, j};
        for (size_t a = n; a > 1; a--) { /* random order */
            size_t b = (size_t)hc_rng_below(&rng, a);
            hc__a2a_msg_t t = list[a - 1];
            list[a - 1] = list[b];
            list[b] = t;
        }
        double before = hc__a2a_time(c, list, n, sf, sf + P, NULL), after = NAN;
        assert_int_equal(hc__a2a_polish(c, list, n, 500, &rng, &after), HC_OK);
        assert_true(after <= before * (1 + 1e-12));
        assert_true(after == hc__a2a_time(c, list, n, sf, sf + P, NULL));
        assert_true(after >= hc__a2a_lower_bound(c) * (1 - 1e-12));
        for (size_t q = 0; q < n; q++) {
            size_t at = (size_t)list[q].src * P + list[q].dst;
            assert_false(seen[at]);
            seen[at] = 1;
        }
        free(list);
        free(sf);
        free(seen);
        hc_matrix_destroy(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lap_brute_force),
        cmocka_unit_test(test_lap_warm_series),
        cmocka_unit_test(test_openshop_two_approx),
        cmocka_unit_test(test_caterpillar_uniform),
        cmocka_unit_test(test_theorem2_tight),
        cmocka_unit_test(test_zero_cost_and_replay),
        cmocka_unit_test(test_all_zero),
        cmocka_unit_test(test_auto_is_min),
        cmocka_unit_test(test_openshop_lb_deterministic),
        cmocka_unit_test(test_polish_monotone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
