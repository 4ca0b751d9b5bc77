/* The validator: for each collective a valid schedule and invalid variants, each rejected with
 * HC_ERR_INVALID_SCHEDULE and a detail naming the rule. */
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

static void expect_valid(const hc_schedule_t *s, const hc_problem_t *pb)
{
    int rc = hc_schedule_validate(s, pb);
    if (rc != HC_OK)
        print_message("unexpected: %s\n", hc_error_detail());
    assert_int_equal(rc, HC_OK);
}

static void expect_invalid(const hc_schedule_t *s, const hc_problem_t *pb, const char *needle)
{
    int rc = hc_schedule_validate(s, pb);
    if (rc != HC_ERR_INVALID_SCHEDULE || !strstr(hc_error_detail(), needle)) {
        print_message("want HC_ERR_INVALID_SCHEDULE with '%s', got %s: '%s'\n", needle,
                      hc_status_name(rc), hc_error_detail());
        fail();
    }
}

static hc_schedule_t *clone(const hc_schedule_t *s)
{
    hc_schedule_t *c = NULL;
    assert_int_equal(hc_schedule_clone(s, &c), HC_OK);
    return c;
}

/* Remove event i. */
static void drop(hc_schedule_t *s, size_t i)
{
    memmove(&s->events[i], &s->events[i + 1], (s->n_events - i - 1) * sizeof *s->events);
    s->n_events--;
}

/* ---- alltoall ---- */

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
    expect_valid(s, &pb);
    expect_valid(s, NULL);

    hc_schedule_t *x = clone(s);
    tu_add(x, 0, 1, 3, 4);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "duplicate");
    expect_invalid(x, NULL, "duplicate");
    hc_schedule_destroy(x);

    x = clone(s);
    drop(x, 5);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "missing: message 2 -> 1");
    expect_valid(x, NULL); /* coverage needs the problem */
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[3].start = 0.5; /* 0 -> 2 overlaps 0 -> 1 at node 0 */
    x->events[3].end = 2.5;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "1-port send");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[0].end = 1.5; /* lasts 1.5, costs 1 */
    expect_invalid(x, &pb, "duration: event 0");
    hc_schedule_destroy(x);

    x = clone(s);
    x->makespan = 2.5;
    expect_invalid(x, &pb, "makespan");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[2].dst = 2; /* 2 -> 2 */
    expect_invalid(x, &pb, "sends to itself");
    x->events[2].dst = 7;
    expect_invalid(x, &pb, "out of range");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[2].end = 0.5;
    x->events[2].start = 1;
    expect_invalid(x, NULL, "before it starts");
    hc_schedule_destroy(x);

    /* a problem with another P is refused */
    hc_problem_t other = pb;
    double c4[] = {0, 1, 1, 0};
    hc_matrix_t *c2 = tu_mat(2, 2, c4);
    other.P = 2;
    other.costs = c2;
    expect_invalid(s, &other, "3 nodes but the problem has 2");
    hc_matrix_destroy(c2);

    /* zero-cost message: must be absent */
    c->v[0 * 3 + 1] = 0;
    expect_invalid(s, &pb, "message 0 -> 1 has cost 0 and must not be sent");
    x = clone(s);
    drop(x, 0);
    expect_valid(x, &pb);
    hc_schedule_destroy(x);
    c->v[0 * 3 + 1] = 1;

    /* overlapping receives only: 0 -> 2 and 1 -> 2 at once */
    double z9[] = {0, 0, 1, 0, 0, 1, 0, 0, 0};
    hc_matrix_t *z = tu_mat(3, 3, z9);
    pb.costs = z;
    x = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_ALLTOALL, 3, &x), HC_OK);
    tu_add(x, 0, 2, 0, 1);
    tu_add(x, 1, 2, 1, 2);
    hc_schedule_finish(x);
    expect_valid(x, &pb);
    x->events[1].start = 0.5;
    x->events[1].end = 1.5;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "1-port receive: node 2");
    hc_schedule_destroy(x);
    hc_matrix_destroy(z);

    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

/* ---- redistribution ---- */

static void radd(hc_schedule_t *s, uint32_t src, uint32_t dst2, double amount)
{
    tu_add(s, src, s->n1 + dst2, 0, amount);
}

static hc_schedule_t *redist(uint32_t k, double beta)
{
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDISTRIBUTE, 4, &s), HC_OK);
    s->n1 = 2;
    s->n2 = 2;
    s->k = k;
    s->beta = beta;
    return s;
}

static void test_redistribute(void **state)
{
    (void)state;
    double c4[] = {3, 2, 0, 1}; /* 0->0': 3, 0->1': 2, 1->1': 1 */
    hc_matrix_t *c = tu_mat(2, 2, c4);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_REDISTRIBUTE);
    pb.P = 4;
    pb.n1 = 2;
    pb.n2 = 2;
    pb.k = 2;
    pb.beta = 0.5;
    pb.costs = c;

    hc_schedule_t *s = redist(2, 0.5);
    radd(s, 0, 0, 3);
    radd(s, 1, 1, 1);
    assert_int_equal(hc_schedule_close_step(s), HC_OK);
    radd(s, 0, 1, 2);
    assert_int_equal(hc_schedule_close_step(s), HC_OK);
    hc_schedule_finish(s);
    assert_true(s->makespan == 6);
    expect_valid(s, &pb);
    expect_valid(s, NULL);

    /* preemption: 0 -> 0' split over two steps */
    hc_schedule_t *x = redist(2, 0.5);
    radd(x, 0, 0, 2);
    radd(x, 1, 1, 1);
    hc_schedule_close_step(x);
    radd(x, 0, 1, 2);
    hc_schedule_close_step(x);
    radd(x, 0, 0, 1);
    hc_schedule_close_step(x);
    hc_schedule_finish(x);
    expect_valid(x, &pb);
    hc_schedule_destroy(x);

    /* not a matching: node 0 twice in one step */
    x = redist(2, 0.5);
    radd(x, 0, 0, 3);
    radd(x, 0, 1, 2);
    hc_schedule_close_step(x);
    radd(x, 1, 1, 1);
    hc_schedule_close_step(x);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "matching: step 0");
    expect_invalid(x, NULL, "matching: step 0");
    hc_schedule_destroy(x);

    /* more than k transfers */
    pb.k = 1;
    x = redist(1, 0.5);
    radd(x, 0, 0, 3);
    radd(x, 1, 1, 1);
    hc_schedule_close_step(x);
    radd(x, 0, 1, 2);
    hc_schedule_close_step(x);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "more than k = 1");
    hc_schedule_destroy(x);
    expect_invalid(s, &pb, "k = 2 differs"); /* schedule made for another k */
    pb.k = 2;

    /* message not fully covered */
    x = redist(2, 0.5);
    radd(x, 0, 0, 2.5);
    radd(x, 1, 1, 1);
    hc_schedule_close_step(x);
    radd(x, 0, 1, 2);
    hc_schedule_close_step(x);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "coverage: message 0 -> 2");
    expect_valid(x, NULL);
    hc_schedule_destroy(x);

    /* a message missing entirely */
    x = redist(2, 0.5);
    radd(x, 0, 0, 3);
    radd(x, 1, 1, 1);
    hc_schedule_close_step(x);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "coverage: message 0 -> 3");
    hc_schedule_destroy(x);

    /* zero-cost message sent */
    x = redist(2, 0.5);
    radd(x, 0, 0, 3);
    radd(x, 1, 1, 1);
    hc_schedule_close_step(x);
    radd(x, 0, 1, 2);
    radd(x, 1, 0, 1);
    hc_schedule_close_step(x);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "has cost 0");
    hc_schedule_destroy(x);

    /* wrong cost */
    x = clone(s);
    x->makespan = 7;
    expect_invalid(x, &pb, "cost: makespan");
    hc_schedule_destroy(x);

    /* a step longer than beta + its longest transfer */
    x = clone(s);
    x->steps[1].duration = 3;
    x->makespan = 6.5;
    expect_invalid(x, &pb, "step cost: step 1");
    hc_schedule_destroy(x);

    /* a transfer outside its step window (before start + beta) */
    x = clone(s);
    x->events[0].start = 0.2;
    x->events[0].end = 3.2;
    expect_invalid(x, &pb, "step window: event 0");
    hc_schedule_destroy(x);

    /* a step whose start is not the end of the previous one */
    x = clone(s);
    x->steps[1].start = 4;
    expect_invalid(x, &pb, "step 1 starts at");
    hc_schedule_destroy(x);

    /* events not covered by steps */
    x = clone(s);
    x->steps[1].count = 0;
    expect_invalid(x, &pb, "steps");
    hc_schedule_destroy(x);

    /* an event from cluster 2 */
    x = clone(s);
    x->events[1].src = 3;
    x->events[1].dst = 2;
    expect_invalid(x, &pb, "cluster 1");
    hc_schedule_destroy(x);

    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

/* ---- broadcast ---- */

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
    assert_int_equal(hc_schedule_alloc_trees(s, 0), HC_OK);
    tu_add(s, 1, 2, 0, 1);
    tu_add(s, 1, 3, 1, 2);
    tu_add(s, 2, 0, 1, 2);
    s->parent[2] = 1;
    s->parent[3] = 1;
    s->parent[0] = 2;
    hc_schedule_finish(s);
    expect_valid(s, &pb);
    expect_valid(s, NULL);

    hc_schedule_t *x = clone(s);
    x->events[2].start = 0.5; /* 2 forwards before it holds the message */
    x->events[2].end = 1.5;
    expect_invalid(x, &pb, "holder: event 2");
    hc_schedule_destroy(x);

    x = clone(s);
    tu_add(x, 3, 0, 2, 3);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "node 0 receives the message twice");
    hc_schedule_destroy(x);

    x = clone(s);
    drop(x, 2);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "node 0 never receives");
    hc_schedule_destroy(x);

    x = clone(s);
    tu_add(x, 2, 1, 2, 3);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "the root 1 receives");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[1].start = 0.5; /* root sends twice at once */
    x->events[1].end = 1.5;
    expect_invalid(x, &pb, "1-port send: node 1");
    hc_schedule_destroy(x);

    x = clone(s);
    x->parent[0] = 1;
    expect_invalid(x, &pb, "tree: parent[0] = 1");
    x->parent[0] = 0;
    expect_invalid(x, &pb, "tree");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[1].end = 3;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "duration: event 1");
    hc_schedule_destroy(x);
    hc_schedule_destroy(s);

    /* two segments of 50 of a 100-byte message: each costs 0.5 without a platform */
    pb.msg_bytes = 100;
    pb.root = 0;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &s), HC_OK);
    s->n_segments = 2;
    tu_add(s, 0, 1, 0, 0.5);
    tu_add(s, 0, 1, 0.5, 1);
    tu_add(s, 0, 2, 1, 1.5);
    tu_add(s, 1, 2, 1.5, 2);
    tu_add(s, 0, 3, 1.5, 2);
    tu_add(s, 0, 3, 2, 2.5);
    for (size_t i = 0; i < s->n_events; i++)
        s->events[i].bytes = 50;
    s->events[1].seg = 1;
    s->events[3].seg = 1;
    s->events[5].seg = 1;
    hc_schedule_finish(s);
    expect_valid(s, &pb);
    x = clone(s);
    x->events[3].start = 1; /* node 2 receives seg 0 and seg 1 at once */
    x->events[3].end = 1.5;
    expect_invalid(x, &pb, "1-port receive: node 2");
    hc_schedule_destroy(x);
    x = clone(s);
    x->events[3].seg = 0; /* seg 0 twice, seg 1 never */
    expect_invalid(x, &pb, "receives segment 0 twice");
    hc_schedule_destroy(x);
    hc_schedule_destroy(s);

    /* hierarchical: whole messages between some nodes, segments elsewhere (msg 100) */
    pb.msg_bytes = 100;
    pb.root = 0;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &s), HC_OK);
    s->n_segments = 2;
    tu_add(s, 0, 1, 0, 1);
    tu_add(s, 1, 2, 1, 1.5);
    tu_add(s, 1, 2, 1.5, 2);
    tu_add(s, 2, 3, 2, 3);
    s->events[0].bytes = s->events[3].bytes = 100;
    s->events[1].bytes = s->events[2].bytes = 50;
    s->events[2].seg = 1;
    hc_schedule_finish(s);
    expect_valid(s, &pb);
    expect_valid(s, NULL); /* the whole size is inferred from the largest event */
    x = clone(s);
    x->events[3].start = 1.8; /* node 2 holds the whole message only at 2 */
    x->events[3].end = 2.8;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "holder: event 3");
    hc_schedule_destroy(x);
    x = clone(s);
    drop(x, 2);
    x->events[2].start = 1.5;
    x->events[2].end = 2.5;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "node 2 receives 50 of the 100 bytes");
    hc_schedule_destroy(x);
    x = clone(s);
    tu_add(x, 0, 2, 1, 2); /* node 2 gets the whole message too */
    x->events[4].bytes = 100;
    expect_invalid(x, &pb, "receives the message twice");
    hc_schedule_destroy(x);
    hc_schedule_destroy(s);

    /* TTCC-style: two spanning trees, each non-root receives once per tree */
    pb.msg_bytes = 0;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &s), HC_OK);
    assert_int_equal(hc_schedule_alloc_trees(s, 1), HC_OK);
    tu_add(s, 0, 1, 0, 1);
    tu_add(s, 0, 2, 1, 2);
    tu_add(s, 1, 3, 1, 2);
    tu_add(s, 0, 3, 2, 3); /* tree 1: 0 -> 3 -> 2 -> 1 */
    tu_add(s, 3, 2, 3, 4);
    tu_add(s, 2, 1, 4, 5);
    for (size_t i = 3; i < 6; i++)
        s->events[i].tree = 1;
    s->parent[1] = 0;
    s->parent[2] = 0;
    s->parent[3] = 1;
    s->parent2[3] = 0;
    s->parent2[2] = 3;
    s->parent2[1] = 2;
    hc_schedule_finish(s);
    expect_valid(s, &pb);
    x = clone(s);
    x->parent2[1] = 3;
    expect_invalid(x, &pb, "tree: parent2[1] = 3");
    hc_schedule_destroy(x);
    x = clone(s);
    x->events[5].tree = 0; /* node 1 twice in tree 0, never in tree 1 */
    expect_invalid(x, &pb, "twice");
    hc_schedule_destroy(x);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

/* ---- reduction ---- */

static void test_reduce(void **state)
{
    (void)state;
    double t[4] = {1, 1, 2, 3};
    double c16[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            c16[i * 4 + j] = i == j ? 0 : t[i];
    hc_matrix_t *c = tu_mat(4, 4, c16);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_REDUCE);
    pb.P = 4;
    pb.root = 0;
    pb.costs = c;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDUCE, 4, &s), HC_OK);
    tu_add(s, 2, 1, 0, 2);
    tu_add(s, 3, 0, 0, 3);
    tu_add(s, 1, 0, 3, 4);
    hc_schedule_finish(s);
    expect_valid(s, &pb);
    expect_valid(s, NULL);

    hc_schedule_t *x = clone(s);
    tu_add(x, 0, 2, 4, 5);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "the root 0 sends");
    hc_schedule_destroy(x);

    x = clone(s);
    tu_add(x, 2, 0, 4, 6);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "node 2 sends twice");
    hc_schedule_destroy(x);

    x = clone(s);
    drop(x, 0);
    expect_invalid(x, &pb, "node 2 never sends");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[0].start = 3; /* node 1 receives during and after its send */
    x->events[0].end = 5;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "order: node 1 receives");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[2].start = 2; /* root receives from 3 and 1 at once */
    x->events[2].end = 3;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "half-duplex");
    hc_schedule_destroy(x);

    x = clone(s);
    x->events[1].end = 2;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "duration: event 1");
    hc_schedule_destroy(x);

    /* zero-length cycle: 2 -> 3 and 3 -> 2 with zero costs */
    for (int j = 0; j < 4; j++)
        if (j != 2)
            c->v[2 * 4 + j] = 0;
    for (int j = 0; j < 4; j++)
        if (j != 3)
            c->v[3 * 4 + j] = 0;
    x = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDUCE, 4, &x), HC_OK);
    tu_add(x, 2, 3, 0, 0);
    tu_add(x, 3, 2, 0, 0);
    tu_add(x, 1, 0, 0, 1);
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "never reach the root");
    hc_schedule_destroy(x);

    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alltoall),
        cmocka_unit_test(test_redistribute),
        cmocka_unit_test(test_bcast),
        cmocka_unit_test(test_reduce),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
