/* The simulator on hand-computed small cases, error injection, slowdown, deadlocks, scale. */
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
#include "test_util.h"

static hc_sim_result_t *sim(const hc_schedule_t *s, const hc_problem_t *pb, const hc_sim_opts_t *o)
{
    hc_sim_result_t *r = NULL;
    int rc = hc_simulate(s, pb, o, &r);
    if (rc != HC_OK)
        print_message("simulate: %s\n", hc_error_detail());
    assert_int_equal(rc, HC_OK);
    assert_int_equal(r->n_events, s->n_events);
    return r;
}

static void expect_times(const hc_sim_result_t *r, size_t i, double start, double end)
{
    if (fabs(r->events[i].start - start) > 1e-12 || fabs(r->events[i].end - end) > 1e-12) {
        print_message("event %zu: [%g, %g], want [%g, %g]\n", i, r->events[i].start,
                      r->events[i].end, start, end);
        fail();
    }
}

/* Replaying on the planned problem with sigma 0 gives back every planned time exactly. */
static void expect_plan(const hc_schedule_t *s, const hc_sim_result_t *r)
{
    assert_true(r->makespan == s->makespan);
    for (size_t i = 0; i < s->n_events; i++)
        expect_times(r, i, s->events[i].start, s->events[i].end);
}

static void test_alltoall(void **state)
{
    (void)state;
    double c9[] = {0, 1, 2, 2, 0, 1, 1, 1, 0};
    hc_matrix_t *c = tu_mat(3, 3, c9);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = 3;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_ALLTOALL, 3, &s), HC_OK);
    tu_add(s, 0, 1, 0, 1);
    tu_add(s, 1, 2, 0, 1);
    tu_add(s, 2, 0, 0, 1);
    tu_add(s, 0, 2, 1, 3);
    tu_add(s, 1, 0, 1, 3);
    tu_add(s, 2, 1, 1, 2);
    hc_schedule_finish(s);
    hc_sim_result_t *r = sim(s, &pb, NULL);
    expect_plan(s, r);
    assert_true(r->finish[0] == 3 && r->finish[1] == 3 && r->finish[2] == 3);
    hc_sim_result_destroy(r);

    /* the true 0 -> 1 takes 2: 0 -> 2 waits for node 0's send port (2), 2 -> 1 for node 1's
     * receive port (2); 1 -> 0 is unaffected */
    hc_matrix_t *t = NULL;
    assert_int_equal(hc_matrix_clone(c, &t), HC_OK);
    t->v[1] = 2;
    hc_problem_t truth = pb;
    truth.costs = t;
    r = sim(s, &truth, NULL);
    expect_times(r, 0, 0, 2);
    expect_times(r, 3, 2, 4);
    expect_times(r, 4, 1, 3);
    expect_times(r, 5, 2, 3);
    assert_true(r->makespan == 4);
    assert_true(r->finish[0] == 4 && r->finish[1] == 3 && r->finish[2] == 4);
    hc_sim_result_destroy(r);

    /* slowdown: node 2 twice as slow: every event of node 2 doubles */
    double slow[3] = {1, 1, 2};
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    assert_true(o.error_floor == 0.01 && o.seed == 1 && o.error_sigma == 0);
    o.slowdown = slow;
    r = sim(s, &pb, &o);
    expect_times(r, 0, 0, 1);
    expect_times(r, 1, 0, 2); /* 1 -> 2 */
    expect_times(r, 2, 0, 2); /* 2 -> 0 */
    expect_times(r, 3, 2, 6); /* 0 -> 2: node 2's receive port frees at 2 */
    expect_times(r, 4, 2, 4); /* 1 -> 0: node 1 sends at 2, node 0 receives at 2 */
    expect_times(r, 5, 2, 4); /* 2 -> 1: node 2 sends at 2 */
    assert_true(r->makespan == 6);
    hc_sim_result_destroy(r);
    slow[1] = 0;
    hc_sim_result_t *bad = NULL;
    assert_int_equal(hc_simulate(s, &pb, &o, &bad), HC_ERR_VALUE);
    assert_null(bad);

    hc_schedule_destroy(s);
    hc_matrix_destroy(t);
    hc_matrix_destroy(c);
}

static void test_errors(void **state)
{
    (void)state;
    double c4[] = {0, 1, 1, 0};
    hc_matrix_t *c = tu_mat(2, 2, c4);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = 2;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_ALLTOALL, 2, &s), HC_OK);
    for (int i = 0; i < 50; i++) {
        tu_add(s, 0, 1, i, i + 1);
        tu_add(s, 1, 0, i, i + 1);
    }
    hc_schedule_finish(s);
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    o.error_sigma = 0.3;
    o.seed = 42;
    hc_sim_result_t *a = sim(s, &pb, &o), *b = sim(s, &pb, &o);
    assert_true(a->makespan == b->makespan);
    assert_memory_equal(a->events, b->events, s->n_events * sizeof *a->events);
    int changed = 0;
    for (size_t i = 0; i < s->n_events; i++) {
        double d = a->events[i].end - a->events[i].start;
        assert_true(d >= o.error_floor - 1e-15);
        if (fabs(d - 1) > 1e-9)
            changed = 1;
    }
    assert_true(changed);
    /* the factor of event i is max(floor, 1 + sigma N(0,1)), drawn in event index order */
    hc_rng_t rng;
    hc_rng_seed(&rng, 42);
    for (size_t i = 0; i < s->n_events; i++) {
        double f = 1 + 0.3 * hc_rng_normal(&rng);
        if (f < o.error_floor)
            f = o.error_floor;
        assert_true(fabs((a->events[i].end - a->events[i].start) - f) < 1e-12);
    }
    o.seed = 43;
    hc_sim_result_t *d = sim(s, &pb, &o);
    assert_true(d->makespan != a->makespan);
    hc_sim_result_destroy(a);
    hc_sim_result_destroy(b);
    hc_sim_result_destroy(d);
    o.error_sigma = -1;
    hc_sim_result_t *x = NULL;
    assert_int_equal(hc_simulate(s, &pb, &o, &x), HC_ERR_VALUE);
    /* a problem of the wrong shape or collective */
    hc_problem_t other = pb;
    other.coll = HC_COLL_REDUCE;
    o.error_sigma = 0;
    assert_int_equal(hc_simulate(s, &other, &o, &x), HC_ERR_INVAL);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

static void test_bcast(void **state)
{
    (void)state;
    double c16[16];
    for (int i = 0; i < 16; i++)
        c16[i] = (i % 5 == 0) ? 0 : 1;
    hc_matrix_t *c = tu_mat(4, 4, c16);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 4;
    pb.root = 1;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &s), HC_OK);
    s->root = 1;
    tu_add(s, 1, 2, 0, 1);
    tu_add(s, 1, 3, 1, 2);
    tu_add(s, 2, 0, 1, 2);
    hc_schedule_finish(s);
    hc_sim_result_t *r = sim(s, &pb, NULL);
    expect_plan(s, r);
    hc_sim_result_destroy(r);
    /* 1 -> 2 truly takes 3: the root's next send and node 2's forward both wait for it */
    c->v[1 * 4 + 2] = 3;
    r = sim(s, &pb, NULL);
    expect_times(r, 0, 0, 3);
    expect_times(r, 1, 3, 4);
    expect_times(r, 2, 3, 4);
    assert_true(r->makespan == 4);
    assert_true(r->finish[0] == 4 && r->finish[2] == 4 && r->finish[3] == 4);
    hc_sim_result_destroy(r);
    /* a node that forwards what it never receives */
    hc_sim_result_t *x = NULL;
    hc_schedule_t *bad = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &bad), HC_OK);
    bad->root = 1;
    tu_add(bad, 1, 2, 0, 1);
    tu_add(bad, 3, 0, 1, 2);
    assert_int_equal(hc_simulate(bad, &pb, NULL, &x), HC_ERR_INVALID_SCHEDULE);
    assert_non_null(strstr(hc_error_detail(), "never receives"));
    hc_schedule_destroy(bad);

    /* segments: a 2-segment pipeline 0 -> 1 -> 2, segments of 50 of 100 bytes cost 0.5 */
    c->v[1 * 4 + 2] = 1;
    pb.root = 0;
    pb.msg_bytes = 100;
    hc_schedule_t *p = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &p), HC_OK);
    p->n_segments = 2;
    tu_add(p, 0, 1, 0, 0.5);
    tu_add(p, 0, 1, 0.5, 1);
    tu_add(p, 1, 2, 0.5, 1);
    tu_add(p, 1, 2, 1, 1.5);
    tu_add(p, 0, 3, 1, 1.5);
    tu_add(p, 0, 3, 1.5, 2);
    for (size_t i = 0; i < p->n_events; i++) {
        p->events[i].bytes = 50;
        p->events[i].seg = (uint32_t)(i % 2);
    }
    hc_schedule_finish(p);
    assert_int_equal(hc_schedule_validate(p, &pb), HC_OK);
    r = sim(p, &pb, NULL);
    expect_plan(p, r);
    hc_sim_result_destroy(r);
    /* the link 0 -> 1 twice as slow: seg 0 arrives at 1, seg 1 at 2; node 1 forwards them at
     * 1 and 2 */
    c->v[0 * 4 + 1] = 2;
    r = sim(p, &pb, NULL);
    expect_times(r, 0, 0, 1);
    expect_times(r, 1, 1, 2);
    expect_times(r, 2, 1, 1.5);
    expect_times(r, 3, 2, 2.5);
    expect_times(r, 4, 2, 2.5);
    expect_times(r, 5, 2.5, 3);
    hc_sim_result_destroy(r);
    hc_schedule_destroy(p);

    /* whole message 0 -> 1, two segments 1 -> 2, whole 2 -> 3 once node 2 holds both */
    c->v[0 * 4 + 1] = 1;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &p), HC_OK);
    p->n_segments = 2;
    tu_add(p, 0, 1, 0, 1);
    tu_add(p, 1, 2, 1, 1.5);
    tu_add(p, 1, 2, 1.5, 2);
    tu_add(p, 2, 3, 2, 3);
    p->events[0].bytes = p->events[3].bytes = 100;
    p->events[1].bytes = p->events[2].bytes = 50;
    p->events[2].seg = 1;
    hc_schedule_finish(p);
    assert_int_equal(hc_schedule_validate(p, &pb), HC_OK);
    r = sim(p, &pb, NULL);
    expect_plan(p, r);
    hc_sim_result_destroy(r);
    c->v[1 * 4 + 2] = 2; /* segments take 1 each: node 2 holds everything at 3 */
    r = sim(p, &pb, NULL);
    expect_times(r, 1, 1, 2);
    expect_times(r, 2, 2, 3);
    expect_times(r, 3, 3, 4);
    hc_sim_result_destroy(r);
    hc_schedule_destroy(p);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

static void test_reduce(void **state)
{
    (void)state;
    double t[4] = {1, 1, 2, 3};
    hc_matrix_t *c = tu_rows(4, t);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_REDUCE);
    pb.P = 4;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDUCE, 4, &s), HC_OK);
    tu_add(s, 2, 1, 0, 2);
    tu_add(s, 3, 0, 0, 3);
    tu_add(s, 1, 0, 3, 4);
    hc_schedule_finish(s);
    hc_sim_result_t *r = sim(s, &pb, NULL);
    expect_plan(s, r);
    hc_sim_result_destroy(r);
    /* node 2 truly takes 4: node 1 sends after its receive, at 4 */
    for (int j = 0; j < 4; j++)
        if (j != 2)
            c->v[2 * 4 + j] = 4;
    r = sim(s, &pb, NULL);
    expect_times(r, 0, 0, 4);
    expect_times(r, 1, 0, 3);
    expect_times(r, 2, 4, 5);
    assert_true(r->makespan == 5);
    hc_sim_result_destroy(r);
    for (int j = 0; j < 4; j++)
        if (j != 2)
            c->v[2 * 4 + j] = 2;
    /* half-duplex: node 3 slowed by 2 holds the root until 6 */
    double slow[4] = {1, 1, 1, 2};
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    o.slowdown = slow;
    r = sim(s, &pb, &o);
    expect_times(r, 1, 0, 6);
    expect_times(r, 2, 6, 7);
    assert_true(r->makespan == 7);
    hc_sim_result_destroy(r);

    /* deadlock: node 1 plans its send (to 0) before its receive (from 2), and a node cannot
     * send before it has received everything */
    hc_schedule_t *d = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDUCE, 4, &d), HC_OK);
    tu_add(d, 1, 0, 0, 1);
    tu_add(d, 2, 1, 3, 5);
    tu_add(d, 3, 0, 1, 4);
    hc_sim_result_t *x = NULL;
    assert_int_equal(hc_simulate(d, &pb, NULL, &x), HC_ERR_INVALID_SCHEDULE);
    assert_non_null(strstr(hc_error_detail(), "deadlock"));
    assert_null(x);
    hc_schedule_destroy(d);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

static void test_redistribute(void **state)
{
    (void)state;
    double c4[] = {3, 2, 0, 1};
    hc_matrix_t *c = tu_mat(2, 2, c4);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_REDISTRIBUTE);
    pb.P = 4;
    pb.n1 = 2;
    pb.n2 = 2;
    pb.k = 2;
    pb.beta = 0.5;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDISTRIBUTE, 4, &s), HC_OK);
    s->n1 = s->n2 = 2;
    s->k = 2;
    s->beta = 0.5;
    tu_add(s, 0, 2, 0, 2); /* 0 -> 0' split 2 + 1 */
    tu_add(s, 1, 3, 0, 1);
    hc_schedule_close_step(s);
    tu_add(s, 0, 3, 0, 2);
    hc_schedule_close_step(s);
    tu_add(s, 0, 2, 0, 1);
    hc_schedule_close_step(s);
    hc_schedule_finish(s);
    assert_true(s->makespan == 2.5 + 2.5 + 1.5);
    assert_int_equal(hc_schedule_validate(s, &pb), HC_OK);
    hc_sim_result_t *r = sim(s, &pb, NULL);
    expect_plan(s, r);
    hc_sim_result_destroy(r);
    /* truly 0 -> 0' costs 6: each piece scales by 2 (4 and 2); steps end with barriers */
    c->v[0] = 6;
    r = sim(s, &pb, NULL);
    expect_times(r, 0, 0.5, 4.5);
    expect_times(r, 1, 0.5, 1.5);
    expect_times(r, 2, 5, 7);
    expect_times(r, 3, 7.5, 9.5);
    assert_true(r->makespan == 9.5);
    hc_sim_result_destroy(r);
    /* node 3 slowed by 3: 1 -> 1' and 0 -> 1' take 3 and 6 */
    c->v[0] = 3;
    double slow[4] = {1, 1, 1, 3};
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    o.slowdown = slow;
    r = sim(s, &pb, &o);
    expect_times(r, 1, 0.5, 3.5);
    expect_times(r, 2, 4, 10);
    assert_true(r->makespan == 3.5 + 6.5 + 1.5);
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

/* 100k+ events: a caterpillar exchange on P = 320 replays to its plan. */
static void test_scale(void **state)
{
    (void)state;
    uint32_t P = 320;
    hc_matrix_t *c = NULL;
    assert_int_equal(hc_matrix_create(P, P, 0, &c), HC_OK);
    hc_rng_t rng;
    hc_rng_seed(&rng, 3);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            HC_AT(c, i, j) = i == j ? 0 : hc_rng_range(&rng, 1e-3, 2e-3);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = P;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(&pb, "caterpillar", NULL, &s), HC_OK);
    assert_int_equal(s->n_events, (size_t)P * (P - 1));
    assert_int_equal(hc_schedule_validate(s, &pb), HC_OK);
    hc_sim_result_t *r = sim(s, &pb, NULL);
    expect_plan(s, r);
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alltoall),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bcast),        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_redistribute), cmocka_unit_test(test_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
