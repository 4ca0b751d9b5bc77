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
    hc_matrix_t *c = tu_rows(4, t);
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

/* ---- bcast port rule: pLogP (sender busy for g, receiver for the last g) vs Hockney ---- */

static void test_bcast_plogp_ports(void **state)
{
    (void)state;
    /* homogeneous: L = 1 ms, 1000 bytes at 1 MB/s: g = 1 ms, a transfer lasts 2 ms */
    hc_platform_t *plat = NULL;
    assert_int_equal(hc_platform_create(4, 1e-3, 1e6, &plat), HC_OK);
    hc_matrix_t *c = NULL;
    assert_int_equal(hc_cost_uniform(plat, HC_MODEL_PLOGP, 1000, &c), HC_OK);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 4;
    pb.costs = c;
    pb.msg_bytes = 1000;
    pb.platform = plat;
    pb.model = HC_MODEL_PLOGP;
    assert_true(hc_problem_overlaps_latency(&pb));
    hc_event_t e0 = {0};
    e0.src = 0;
    e0.dst = 1;
    e0.bytes = 1000;
    assert_true(fabs(hc_problem_event_port_time(&pb, &e0) - 1e-3) < 1e-15);
    /* flat tree with overlapped sends: 0 -> 1 [0, 2], 0 -> 2 [1, 3], 0 -> 3 [2, 4] (ms) */
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &s), HC_OK);
    assert_int_equal(hc_schedule_alloc_trees(s, 0), HC_OK);
    s->root = 0;
    for (uint32_t v = 1; v < 4; v++) {
        hc_event_t e = {0};
        e.src = 0;
        e.dst = v;
        e.bytes = 1000;
        e.start = (v - 1) * 1e-3;
        e.end = e.start + 2e-3;
        s->parent[v] = 0;
        assert_int_equal(hc_schedule_add_event(s, &e), HC_OK);
    }
    hc_schedule_finish(s);
    assert_true(fabs(s->makespan - 4e-3) < 1e-15); /* L + (P-1) g, Table 1's flat */
    expect_valid(s, &pb);
    /* the replay keeps the overlap: plan = replay */
    hc_sim_result_t *r = NULL;
    assert_int_equal(hc_simulate(s, &pb, NULL, &r), HC_OK);
    assert_true(fabs(r->makespan - s->makespan) < 1e-15);
    for (size_t i = 0; i < s->n_events; i++)
        assert_true(fabs(r->events[i].start - s->events[i].start) < 1e-15);
    hc_sim_result_destroy(r);
    /* Hockney (same costs): the sender is busy for the whole transfer */
    hc_problem_t ph = pb;
    ph.model = HC_MODEL_HOCKNEY;
    assert_false(hc_problem_overlaps_latency(&ph));
    assert_true(fabs(hc_problem_event_port_time(&ph, &e0) - 2e-3) < 1e-15);
    expect_invalid(s, &ph, "1-port send: node 0");
    assert_int_equal(hc_simulate(s, &ph, NULL, &r), HC_OK);
    assert_true(fabs(r->makespan - 6e-3) < 1e-15);
    hc_sim_result_destroy(r);
    /* pLogP: sends closer than g overlap on the sender's port */
    hc_schedule_t *x = clone(s);
    x->events[1].start = 0.5e-3;
    x->events[1].end = 2.5e-3;
    x->events[2].start = 1.5e-3;
    x->events[2].end = 3.5e-3;
    hc_schedule_finish(x);
    expect_invalid(x, &pb, "1-port send: node 0");
    hc_schedule_destroy(x);
    /* receives: node 3 gets two halves (segments) from 1 and 2; ends 1 ms apart are fine under
     * pLogP ([end - g, end] disjoint) and overlap under Hockney */
    hc_schedule_t *y = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 4, &y), HC_OK);
    assert_int_equal(hc_schedule_alloc_trees(y, 0), HC_OK);
    y->root = 0;
    y->n_segments = 2;
    /* segment of 500 bytes: L + 0.5 ms = 1.5 ms; port 0.5 ms */
    const double ev[][5] = {/* src dst seg start end */
                            {0, 1, 0, 0, 1.5e-3},    {0, 2, 1, 0.5e-3, 2e-3},
                            {0, 1, 1, 1e-3, 2.5e-3}, {0, 2, 0, 1.5e-3, 3e-3},
                            {1, 3, 0, 1.5e-3, 3e-3}, {2, 3, 1, 2e-3, 3.5e-3}};
    for (size_t i = 0; i < sizeof ev / sizeof *ev; i++) {
        hc_event_t e = {0};
        e.src = (uint32_t)ev[i][0];
        e.dst = (uint32_t)ev[i][1];
        e.seg = (uint32_t)ev[i][2];
        e.bytes = 500;
        e.start = ev[i][3];
        e.end = ev[i][4];
        assert_int_equal(hc_schedule_add_event(y, &e), HC_OK);
    }
    y->parent[1] = 0;
    y->parent[2] = 0;
    y->parent[3] = 1;
    hc_schedule_finish(y);
    expect_valid(y, &pb);
    assert_int_equal(hc_simulate(y, &pb, NULL, &r), HC_OK);
    assert_true(fabs(r->makespan - y->makespan) < 1e-15);
    hc_sim_result_destroy(r);
    expect_invalid(y, &ph, "1-port");
    /* receiver port overlap under pLogP: 1 -> 3 now ends 0.25 ms before 2 -> 3 (ports
     * [2.75, 3.25] and [3, 3.5] ms) */
    y->events[4].start = 1.75e-3;
    y->events[4].end = 3.25e-3;
    hc_schedule_finish(y);
    expect_invalid(y, &pb, "1-port receive: node 3");
    hc_schedule_destroy(y);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
    hc_platform_destroy(plat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alltoall), cmocka_unit_test(test_redistribute),
        cmocka_unit_test(test_bcast),    cmocka_unit_test(test_bcast_plogp_ports),
        cmocka_unit_test(test_reduce),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
