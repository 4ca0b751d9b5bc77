/* Problems, schedule construction, lower bounds and the schedule JSON round trip. */
#define _POSIX_C_SOURCE 200809L
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

static void expect_detail(const char *needle)
{
    if (!strstr(hc_error_detail(), needle)) {
        print_message("detail '%s' lacks '%s'\n", hc_error_detail(), needle);
        fail();
    }
}

static void test_coll_names(void **state)
{
    (void)state;
    for (int c = 0; c < HC_COLL_COUNT; c++) {
        hc_coll_t back;
        assert_int_equal(hc_coll_parse(hc_coll_name((hc_coll_t)c), &back), HC_OK);
        assert_int_equal(back, c);
    }
    hc_coll_t x;
    assert_int_equal(hc_coll_parse("gather", &x), HC_ERR_UNKNOWN);
    expect_detail("alltoall, redistribute, bcast, reduce");
}

static void test_problem_check(void **state)
{
    (void)state;
    double v4[] = {0, 1, 2, 0};
    hc_matrix_t *c2 = tu_mat(2, 2, v4);
    hc_matrix_t *c1 = tu_mat(1, 1, v4);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    assert_int_equal(pb.model, HC_MODEL_HOCKNEY);
    pb.P = 1;
    pb.costs = c1;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    expect_detail("needs at least 2 nodes (got 1)");
    pb.P = 2;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_SHAPE);
    expect_detail("'costs'");
    pb.costs = c2;
    assert_int_equal(hc_problem_check(&pb), HC_OK);
    c2->v[1] = NAN;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    expect_detail("costs[0][1]");
    c2->v[1] = -1;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    c2->v[1] = 1;
    c2->v[0] = NAN; /* the diagonal is ignored */
    assert_int_equal(hc_problem_check(&pb), HC_OK);
    c2->v[0] = 0;
    pb.sizes = c1;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_SHAPE);
    expect_detail("'sizes'");
    pb.sizes = NULL;

    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 2;
    pb.costs = c2;
    pb.root = 2;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    expect_detail("'root'");
    pb.root = 1;
    assert_int_equal(hc_problem_check(&pb), HC_OK);

    double r6[] = {1, 0, 2, 3, 4, 0};
    hc_matrix_t *rc = tu_mat(2, 3, r6);
    hc_problem_init(&pb, HC_COLL_REDISTRIBUTE);
    pb.P = 5;
    pb.n1 = 2;
    pb.n2 = 3;
    pb.costs = rc;
    pb.k = 0;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    expect_detail("'k'");
    pb.k = 2;
    pb.beta = INFINITY;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    expect_detail("'beta'");
    pb.beta = 0.5;
    assert_int_equal(hc_problem_check(&pb), HC_OK);
    pb.P = 4;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_VALUE);
    pb.P = 5;
    pb.costs = c2;
    assert_int_equal(hc_problem_check(&pb), HC_ERR_SHAPE);
    assert_int_equal(hc_problem_check(NULL), HC_ERR_INVAL);
    hc_matrix_destroy(c1);
    hc_matrix_destroy(c2);
    hc_matrix_destroy(rc);
}

static void test_event_cost(void **state)
{
    (void)state;
    double v4[] = {0, 2, 4, 0};
    hc_matrix_t *c = tu_mat(2, 2, v4);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 2;
    pb.costs = c;
    pb.msg_bytes = 1000;
    hc_event_t e = {0};
    e.src = 0;
    e.dst = 1;
    e.bytes = 1000;
    assert_true(hc_problem_event_cost(&pb, &e) == 2.0);
    e.bytes = 250; /* no platform: proportional */
    assert_true(fabs(hc_problem_event_cost(&pb, &e) - 0.5) < 1e-15);
    /* with a platform: C * p2p(seg) / p2p(msg), Hockney 1e-3 + m / 1e6 */
    hc_platform_t *pl = NULL;
    assert_int_equal(hc_platform_create(2, 1e-3, 1e6, &pl), HC_OK);
    pb.platform = pl;
    double want = 2.0 * (1e-3 + 250 / 1e6) / (1e-3 + 1000 / 1e6);
    assert_true(fabs(hc_problem_event_cost(&pb, &e) - want) < 1e-12);
    pb.coll = HC_COLL_ALLTOALL;
    pb.platform = NULL;
    assert_true(hc_problem_event_cost(&pb, &e) == 2.0);
    pb.coll = HC_COLL_REDISTRIBUTE;
    e.start = 1;
    e.end = 3.5;
    assert_true(hc_problem_event_cost(&pb, &e) == 2.5);
    hc_platform_destroy(pl);
    hc_matrix_destroy(c);
}

static hc_event_t ev(uint32_t src, uint32_t dst, double start, double end, uint64_t bytes)
{
    hc_event_t e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.dst = dst;
    e.start = start;
    e.end = end;
    e.bytes = bytes;
    return e;
}

static void test_construction(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDISTRIBUTE, 4, &s), HC_OK);
    assert_true(isnan(s->lower_bound));
    assert_int_equal(s->n_segments, 1);
    s->n1 = 2;
    s->n2 = 2;
    s->k = 2;
    s->beta = 1;
    /* the caller gives amounts; close_step places them */
    hc_event_t a = ev(0, 2, 0, 3, 10), b = ev(1, 3, 0, 2, 20);
    assert_int_equal(hc_schedule_close_step(s), HC_ERR_INVAL); /* no events */
    assert_int_equal(hc_schedule_add_event(s, &a), HC_OK);
    assert_int_equal(hc_schedule_add_event(s, &b), HC_OK);
    assert_int_equal(hc_schedule_close_step(s), HC_OK);
    hc_event_t c = ev(0, 3, 0, 1.5, 5);
    assert_int_equal(hc_schedule_add_event(s, &c), HC_OK);
    assert_int_equal(hc_schedule_close_step(s), HC_OK);
    assert_int_equal(s->n_steps, 2);
    assert_true(s->steps[0].start == 0 && s->steps[0].duration == 4);
    assert_true(s->events[0].start == 1 && s->events[0].end == 4);
    assert_true(s->events[1].start == 1 && s->events[1].end == 3);
    assert_true(s->steps[1].start == 4 && s->steps[1].duration == 2.5);
    assert_true(s->events[2].start == 5 && s->events[2].end == 6.5);
    assert_int_equal(s->events[2].step, 1);
    assert_int_equal(s->steps[1].first, 2);
    assert_int_equal(s->steps[1].count, 1);
    hc_schedule_finish(s);
    assert_true(s->makespan == 6.5);
    assert_int_equal(hc_schedule_set_note(s, "chose %s because %d", "x", 3), HC_OK);
    assert_string_equal(s->note, "chose x because 3");

    hc_schedule_t *cl = NULL;
    assert_int_equal(hc_schedule_clone(s, &cl), HC_OK);
    assert_ptr_not_equal(cl->events, s->events);
    assert_ptr_not_equal(cl->note, s->note);
    assert_int_equal(cl->n_events, 3);
    assert_int_equal(cl->n_steps, 2);
    assert_string_equal(cl->note, s->note);
    assert_memory_equal(cl->events, s->events, 3 * sizeof *s->events);
    assert_int_equal(hc_schedule_add_event(cl, &a), HC_OK); /* the clone can grow */
    hc_schedule_destroy(cl);
    hc_schedule_destroy(s);
    hc_schedule_destroy(NULL);

    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 3, &s), HC_OK);
    assert_int_equal(hc_schedule_alloc_trees(s, 1), HC_OK);
    for (int i = 0; i < 3; i++)
        assert_true(s->parent[i] == -1 && s->parent2[i] == -1);
    hc_schedule_destroy(s);
}

static void test_lower_bounds(void **state)
{
    (void)state;
    /* alltoall: rows sums 3, 7, 2; column sums 6, 3, 3 -> 7 */
    double a9[] = {0, 1, 2, 4, 0, 3, 2, 0, 0};
    hc_matrix_t *a = tu_mat(3, 3, a9);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_ALLTOALL);
    pb.P = 3;
    pb.costs = a;
    double lb;
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 7);
    /* bcast from 0: direct 0->2 costs 2, via 1: 1 + 3 = 4 -> dist(1) = 1, dist(2) = 2 */
    pb.coll = HC_COLL_BCAST;
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 2);
    pb.root = 2; /* 2->0 = 2, 2->1 = 0 -> dist(1) = 0, dist(0) = min(2, 0 + 4) = 2 */
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 2);
    /* reduce, rows t = (1, 2, 3) constant, root 0, P = 3: B1 = 3, B2 = 2 * 2 = 4,
     * B3 (EP relaxation) = sig_1 + 3 + tau = 0 + 3 + 2 = 5 (the optimum: 2 + 3) */
    double r9[] = {0, 1, 1, 2, 0, 2, 3, 3, 0};
    hc_matrix_t *r = tu_mat(3, 3, r9);
    pb.coll = HC_COLL_REDUCE;
    pb.costs = r;
    pb.root = 0;
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 5);
    pb.root = 2; /* B1 = 2, tau = 1, B2 = 2, B3 = 0 + 2 + 1 = 3 */
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 3);
    /* redistribute 2 x 3: weights {1,_,2 ; 3,4,_}: W = max(3, 7, 4, 4, 2) = 7, P = 10,
     * Delta = 2, m = 4. k = 1: eta_d = 10, eta_s = 4 -> 10 + 0.5 * 4 = 12 */
    double d6[] = {1, 0, 2, 3, 4, 0};
    hc_matrix_t *d = tu_mat(2, 3, d6);
    hc_problem_init(&pb, HC_COLL_REDISTRIBUTE);
    pb.P = 5;
    pb.n1 = 2;
    pb.n2 = 3;
    pb.costs = d;
    pb.k = 1;
    pb.beta = 0.5;
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 12);
    pb.k = 3; /* eta_d = max(7, 10/3) = 7, eta_s = max(2, 2) = 2 -> 8 */
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_OK);
    assert_true(lb == 8);
    pb.k = 0;
    assert_int_equal(hc_lower_bound(&pb, &lb), HC_ERR_VALUE);
    hc_matrix_destroy(a);
    hc_matrix_destroy(r);
    hc_matrix_destroy(d);
}

/* Serialise, parse, serialise again: the texts must be identical and the fields equal. */
static hc_schedule_t *round_trip(const hc_schedule_t *s)
{
    char *j1 = NULL, *j2 = NULL;
    assert_int_equal(hc_schedule_to_json(s, &j1), HC_OK);
    hc_schedule_t *p = NULL;
    int rc = hc_schedule_parse(j1, "rt.json", &p);
    if (rc != HC_OK)
        print_message("%s\n%s\n", hc_error_detail(), j1);
    assert_int_equal(rc, HC_OK);
    assert_int_equal(hc_schedule_to_json(p, &j2), HC_OK);
    assert_string_equal(j1, j2);
    assert_int_equal(p->coll, s->coll);
    assert_string_equal(p->algorithm, s->algorithm);
    assert_int_equal(p->P, s->P);
    assert_true(p->makespan == s->makespan);
    assert_true((isnan(p->lower_bound) && isnan(s->lower_bound)) ||
                p->lower_bound == s->lower_bound);
    assert_int_equal(p->n_events, s->n_events);
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *a = &s->events[i], *b = &p->events[i];
        assert_int_equal(a->src, b->src);
        assert_int_equal(a->dst, b->dst);
        assert_true(a->start == b->start && a->end == b->end);
        assert_true(a->bytes == b->bytes);
        assert_int_equal(a->seg, b->seg);
        assert_int_equal(a->tree, b->tree);
        assert_int_equal(a->step, b->step);
    }
    free(j1);
    free(j2);
    return p;
}

static void test_json_alltoall(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_ALLTOALL, 3, &s), HC_OK);
    snprintf(s->algorithm, sizeof s->algorithm, "caterpillar");
    hc_event_t e1 = ev(0, 1, 0, 0.1, 1024), e2 = ev(1, 2, 0.1, 1.0 / 3.0, UINT64_C(1) << 40);
    assert_int_equal(hc_schedule_add_event(s, &e1), HC_OK);
    assert_int_equal(hc_schedule_add_event(s, &e2), HC_OK);
    hc_schedule_finish(s);
    char *j = NULL;
    assert_int_equal(hc_schedule_to_json(s, &j), HC_OK);
    assert_non_null(strstr(j, "\"format\": \"hetcoll-schedule/1\""));
    assert_non_null(strstr(j, "\"lower_bound\": null"));
    assert_null(strstr(j, "\"seg\""));
    assert_null(strstr(j, "\"step\""));
    /* stable key order */
    assert_true(strstr(j, "\"format\"") < strstr(j, "\"collective\""));
    assert_true(strstr(j, "\"makespan\"") < strstr(j, "\"events\""));
    free(j);
    hc_schedule_t *p = round_trip(s);
    hc_schedule_destroy(p);
    s->lower_bound = 0.25;
    assert_int_equal(hc_schedule_set_note(s, "a \"quoted\" note"), HC_OK);
    p = round_trip(s);
    assert_string_equal(p->note, "a \"quoted\" note");
    hc_schedule_destroy(p);
    hc_schedule_destroy(s);
}

static void test_json_redistribute(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDISTRIBUTE, 4, &s), HC_OK);
    snprintf(s->algorithm, sizeof s->algorithm, "ggp");
    s->n1 = 2;
    s->n2 = 2;
    s->k = 2;
    s->beta = 0.5;
    hc_event_t a = ev(0, 2, 0, 3, 10), b = ev(1, 3, 0, 2, 20), c = ev(0, 3, 0, 1.5, 5);
    hc_schedule_add_event(s, &a);
    hc_schedule_add_event(s, &b);
    hc_schedule_close_step(s);
    hc_schedule_add_event(s, &c);
    hc_schedule_close_step(s);
    hc_schedule_finish(s);
    char *j = NULL;
    assert_int_equal(hc_schedule_to_json(s, &j), HC_OK);
    assert_non_null(strstr(j, "\"cost\": 5.5"));
    assert_non_null(strstr(j, "\"steps\": ["));
    /* transfers use cluster-local ids: event 0 -> 3 is transfer 0 -> 1 */
    assert_non_null(strstr(j, "{\"src\":0,\"dst\":1,\"amount\":1.5,\"bytes\":5}"));
    free(j);
    hc_schedule_t *p = round_trip(s);
    assert_int_equal(p->n_steps, 2);
    assert_int_equal(p->n1, 2);
    assert_int_equal(p->k, 2);
    assert_true(p->beta == 0.5);
    for (size_t k = 0; k < 2; k++) {
        assert_true(p->steps[k].start == s->steps[k].start);
        assert_true(p->steps[k].duration == s->steps[k].duration);
        assert_int_equal(p->steps[k].first, s->steps[k].first);
        assert_int_equal(p->steps[k].count, s->steps[k].count);
    }
    hc_schedule_destroy(p);
    hc_schedule_destroy(s);
}

static void test_json_bcast(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 3, &s), HC_OK);
    snprintf(s->algorithm, sizeof s->algorithm, "ttcc");
    s->root = 1;
    s->n_segments = 2;
    assert_int_equal(hc_schedule_alloc_trees(s, 1), HC_OK);
    s->parent[0] = 1;
    s->parent[2] = 0;
    s->parent2[0] = 2;
    s->parent2[2] = 1;
    hc_event_t a = ev(1, 0, 0, 1, 50);
    a.seg = 1;
    hc_event_t b = ev(1, 2, 1, 2, 50);
    b.tree = 1;
    hc_schedule_add_event(s, &a);
    hc_schedule_add_event(s, &b);
    s->makespan = 2; /* (hc_schedule_finish would replay TTCC, whole messages only) */
    char *j = NULL;
    assert_int_equal(hc_schedule_to_json(s, &j), HC_OK);
    assert_non_null(strstr(j, "\"root\": 1"));
    assert_non_null(strstr(j, "\"segments\": 2"));
    assert_non_null(strstr(j, "\"parent\": [1,-1,0]"));
    assert_non_null(strstr(j, "\"trees\": [[1,-1,0],[2,-1,1]]"));
    assert_non_null(strstr(j, "\"seg\":1"));
    assert_non_null(strstr(j, "\"tree\":1"));
    free(j);
    hc_schedule_t *p = round_trip(s);
    assert_int_equal(p->root, 1);
    assert_int_equal(p->n_segments, 2);
    assert_non_null(p->parent);
    assert_non_null(p->parent2);
    assert_memory_equal(p->parent, s->parent, 3 * sizeof(int32_t));
    assert_memory_equal(p->parent2, s->parent2, 3 * sizeof(int32_t));
    hc_schedule_destroy(p);
    /* without trees and segments: no "parent2"/"trees"/"segments" */
    free(s->parent2);
    s->parent2 = NULL;
    s->n_segments = 1;
    s->events[0].seg = 0;
    s->events[1].tree = 0;
    assert_int_equal(hc_schedule_to_json(s, &j), HC_OK);
    assert_null(strstr(j, "\"trees\""));
    assert_null(strstr(j, "\"segments\""));
    assert_null(strstr(j, "\"tree\""));
    free(j);
    p = round_trip(s);
    assert_null(p->parent2);
    hc_schedule_destroy(p);
    hc_schedule_destroy(s);
}

static void test_json_reduce_extra(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_REDUCE, 3, &s), HC_OK);
    snprintf(s->algorithm, sizeof s->algorithm, "bnb");
    s->root = 2;
    s->has_search = 1;
    s->search.nodes_visited = 17;
    s->search.naive_space = 120;
    s->search.efficiency = 1 - 17.0 / 120;
    s->search.optimal = 1;
    s->search.best_lower_bound = 2.5;
    hc_event_t a = ev(0, 1, 0, 1, 8), b = ev(1, 2, 1, 3, 8);
    hc_schedule_add_event(s, &a);
    hc_schedule_add_event(s, &b);
    hc_schedule_finish(s);
    s->extra_json = strdup("{\"prediction\":{\"flat\":1.5,\"binomial\":[1,2]},\"root\":99}");
    char *j = NULL;
    assert_int_equal(hc_schedule_to_json(s, &j), HC_OK);
    assert_non_null(strstr(j, "\"prediction\": {\"flat\":1.5,\"binomial\":[1,2]}"));
    assert_non_null(strstr(j, "\"optimal\":true"));
    assert_null(strstr(j, "99")); /* extras never override known members */
    free(j);
    hc_schedule_t *p = round_trip(s);
    assert_int_equal(p->has_search, 1);
    assert_true(p->search.nodes_visited == 17 && p->search.naive_space == 120);
    assert_true(p->search.efficiency == s->search.efficiency);
    assert_int_equal(p->search.optimal, 1);
    assert_true(p->search.best_lower_bound == 2.5);
    assert_non_null(p->extra_json);
    assert_non_null(strstr(p->extra_json, "\"prediction\""));
    hc_schedule_destroy(p);
    hc_schedule_destroy(s);
}

static void test_json_bad(void **state)
{
    (void)state;
    static const struct {
        const char *text, *detail;
    } cases[] = {
        {"{", "s.json:"},
        {"[]", "s.json: a schedule must be a JSON object"},
        {"{\"format\":\"hetcoll-schedule/9\"}", "field 'format'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"gather\"}", "field 'collective'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\"}",
         "field 'nodes': missing"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":\"1\",\"lower_bound\":null,\"events\":[]}",
         "field 'makespan': must be a number"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"events\":[]}",
         "field 'lower_bound'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"lower_bound\":null,\"events\":[{\"src\":0,\"dst\":1,"
         "\"start\":0,\"end\":1,\"bytes\":1},{\"src\":0,\"dst\":1,\"start\":0,\"end\":1,\"bytes\":"
         "1},{\"src\":0,\"dst\":1,\"start\":0,\"end\":1,\"bytes\":1},{\"src\":0,\"dst\":1,"
         "\"start\":0,\"end\":\"late\",\"bytes\":1}]}",
         "s.json: field 'events[3].end': must be a number"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"lower_bound\":null,\"events\":[{\"src\":0,\"dst\":2,"
         "\"start\":0,\"end\":1,\"bytes\":1}]}",
         "field 'events[0].dst'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"lower_bound\":null,\"events\":[{\"src\":0,\"dst\":1,"
         "\"start\":0,\"end\":1,\"bytes\":-1}]}",
         "field 'events[0].bytes'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"bcast\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"lower_bound\":null,\"root\":0,\"parent\":[-1],"
         "\"events\":[]}",
         "field 'parent'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"redistribute\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"lower_bound\":null,\"n1\":1,\"n2\":1,\"k\":1,\"beta\":0,"
         "\"events\":[{\"src\":0,\"dst\":1,\"start\":0,\"end\":1,\"bytes\":1}]}",
         "field 'steps': missing"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"redistribute\",\"algorithm\":\"x\","
         "\"nodes\":2,\"makespan\":1,\"lower_bound\":null,\"n1\":1,\"n2\":1,\"k\":1,\"beta\":0,"
         "\"steps\":[{\"duration\":1,\"transfers\":[{\"src\":0,\"dst\":1,\"amount\":1,\"bytes\":"
         "1}]}],\"events\":[{\"src\":0,\"dst\":1,\"start\":0,\"end\":1,\"bytes\":1}]}",
         "field 'steps[0].transfers[0]'"},
        {"{\"format\":\"hetcoll-schedule/1\",\"collective\":\"alltoall\",\"algorithm\":\"x\","
         "\"algorithm\":\"y\"}",
         "s.json:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hc_schedule_t *s = (hc_schedule_t *)1;
        int rc = hc_schedule_parse(cases[i].text, "s.json", &s);
        if (rc != HC_ERR_PARSE || !strstr(hc_error_detail(), cases[i].detail)) {
            print_message("case %zu: rc %d detail '%s' (want '%s')\n", i, rc, hc_error_detail(),
                          cases[i].detail);
            fail();
        }
        assert_null(s);
    }
    /* a few bytes asking for 77 million nodes' arrays (found by fuzz_schedule: 622 MB) */
    hc_schedule_t *big = (hc_schedule_t *)1;
    assert_int_equal(
        hc_schedule_parse("{\"format\":\"hetcoll-schedule/1\",\"collective\":\"reduce\","
                          "\"algorithm\":\"ep\",\"nodes\":77777725,\"makespan\":1,"
                          "\"lower_bound\":null,\"root\":0,\"events\":[]}",
                          "s.json", &big),
        HC_ERR_LIMIT);
    expect_detail("s.json: field 'nodes': 77777725 nodes, more than the limit of 1048576");
    assert_null(big);
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_load("/nonexistent/dir/s.json", &s), HC_ERR_IO);
    expect_detail("/nonexistent/dir/s.json");
    char path[] = "/tmp/hc_test_schedule_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fclose(f);
    assert_int_equal(hc_schedule_load(path, &s), HC_ERR_PARSE);
    expect_detail(path);
    remove(path);
}

static void test_json_load(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_ALLTOALL, 2, &s), HC_OK);
    hc_event_t a = ev(0, 1, 0, 1, 1), b = ev(1, 0, 0, 2, 1);
    hc_schedule_add_event(s, &a);
    hc_schedule_add_event(s, &b);
    hc_schedule_finish(s);
    char *j = NULL;
    assert_int_equal(hc_schedule_to_json(s, &j), HC_OK);
    char path[] = "/tmp/hc_test_schedule_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(j, f);
    fclose(f);
    hc_schedule_t *p = NULL;
    assert_int_equal(hc_schedule_load(path, &p), HC_OK);
    assert_int_equal(p->n_events, 2);
    assert_true(p->makespan == 2);
    remove(path);
    free(j);
    hc_schedule_destroy(p);
    hc_schedule_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coll_names),        cmocka_unit_test(test_problem_check),
        cmocka_unit_test(test_event_cost),        cmocka_unit_test(test_construction),
        cmocka_unit_test(test_lower_bounds),      cmocka_unit_test(test_json_alltoall),
        cmocka_unit_test(test_json_redistribute), cmocka_unit_test(test_json_bcast),
        cmocka_unit_test(test_json_reduce_extra), cmocka_unit_test(test_json_bad),
        cmocka_unit_test(test_json_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
