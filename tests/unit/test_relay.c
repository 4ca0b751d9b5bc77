/* A total exchange through site forwarders (hc_schedule_t.relay): the forwarder rule against
 * its definition, the schedule file's field and its errors, the validator's, and the flow
 * replay: groups of one node forward nothing (the same makespan as posted at once), and under
 * SimGrid's size classes gathered small blocks cross the 3-site grid's uplinks faster. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

/* post-all on `spec` with M bytes per pair, its groups the platform's clusters. */
static hc_schedule_t *relayed(const char *spec, uint64_t M, hc_platform_t **p, hc_problem_t **pb)
{
    assert_int_equal(hc_platform_load(spec, p), HC_OK);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_ALLTOALL);
    sp.platform = *p;
    sp.msg_bytes = M;
    assert_int_equal(hc_problem_create(&sp, pb), HC_OK);
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(*pb, "post-all", NULL, &s), HC_OK);
    s->piece_groups = malloc(sizeof *s->piece_groups * s->P);
    assert_non_null(s->piece_groups);
    for (uint32_t v = 0; v < s->P; v++)
        s->piece_groups[v] = hc_platform_cluster_of(*p, v);
    s->relay = HC_RELAY_FORWARDERS;
    return s;
}

static double flow(const hc_schedule_t *s, const hc_problem_t *pb, int smpi)
{
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    o.network = HC_NETWORK_FLOW;
    o.smpi_factors = smpi;
    hc_sim_result_t *r = NULL;
    assert_int_equal(hc_simulate(s, pb, &o, &r), HC_OK);
    double t = r->makespan, last = 0;
    for (size_t i = 0; i < r->n_events; i++) {
        assert_true(r->events[i].start <= r->events[i].end);
        last = fmax(last, r->events[i].end);
    }
    assert_true(last == t); /* every event's times, the forwarded ones' included */
    hc_sim_result_destroy(r);
    return t;
}

/* The k-th node of dst's group (k = dst's position in it) maps to the (k mod n)-th of src's
 * group of n; within a group, or without relay, dst itself. */
static void test_forwarder_rule(void **state)
{
    (void)state;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_ALLTOALL, 11, &s), HC_OK);
    const int32_t g[11] = {4, 0, 4, 7, 0, 4, 7, 7, 7, 0, 4}; /* groups of 4, 3 and 4 */
    s->piece_groups = malloc(sizeof g);
    assert_non_null(s->piece_groups);
    memcpy(s->piece_groups, g, sizeof g);
    assert_int_equal(hc_schedule_forwarder(s, 1, 3), 3); /* no relay yet */
    s->relay = HC_RELAY_FORWARDERS;
    for (uint32_t x = 0; x < 11; x++)
        for (uint32_t j = 0; j < 11; j++) {
            uint32_t want = j;
            if (g[x] != g[j]) {
                uint32_t k = 0, n = 0, members[11];
                for (uint32_t v = 0; v < 11; v++) {
                    k += v < j && g[v] == g[j];
                    if (g[v] == g[x])
                        members[n++] = v;
                }
                want = members[k % n];
            }
            assert_int_equal(hc_schedule_forwarder(s, x, j), want);
        }
    assert_int_equal(hc_schedule_forwarder(s, 1, 3), 1);  /* 3 is group 7's first: 1 */
    assert_int_equal(hc_schedule_forwarder(s, 2, 8), 10); /* 8 is 7's 4th, 4 mod 4: 0 */
    assert_int_equal(hc_schedule_forwarder(s, 1, 99), 99);
    assert_int_equal(hc_schedule_forwarder(NULL, 1, 3), 3);
    hc_schedule_destroy(s);
}

/* "relay": "forwarders" round-trips; an unknown value, or forwarders without groups, is an
 * error naming the field; the validator wants a total exchange with groups. */
static void test_relay_file(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = relayed("random:sites:sites=3:nodes=2", 1024, &p, &pb), *t = NULL;
    assert_int_equal(hc_schedule_validate(s, pb), HC_OK);
    char *text = NULL;
    assert_int_equal(hc_schedule_to_json(s, &text), HC_OK);
    assert_non_null(strstr(text, "\"relay\": \"forwarders\""));
    assert_int_equal(hc_schedule_parse(text, "t.json", &t), HC_OK);
    assert_int_equal(t->relay, HC_RELAY_FORWARDERS);
    assert_memory_equal(t->piece_groups, s->piece_groups, sizeof *s->piece_groups * s->P);
    hc_schedule_destroy(t);
    char *bad = malloc(strlen(text) + 32);
    assert_non_null(bad);
    const char *at = strstr(text, "\"forwarders\"");
    sprintf(bad, "%.*s\"sideways\"%s", (int)(at - text), text, at + strlen("\"forwarders\""));
    assert_int_not_equal(hc_schedule_parse(bad, "t.json", &t), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "relay"));
    assert_non_null(strstr(hc_error_detail(), "\"none\" or \"forwarders\""));
    free(bad);
    free(text);
    int32_t *g = s->piece_groups;
    s->piece_groups = NULL;
    assert_int_equal(hc_schedule_to_json(s, &text), HC_OK);
    assert_int_not_equal(hc_schedule_parse(text, "t.json", &t), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "needs piece_groups"));
    free(text);
    assert_int_not_equal(hc_schedule_validate(s, pb), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "forwarders (relay) need"));
    s->piece_groups = g;
    s->relay = 2;
    assert_int_not_equal(hc_schedule_validate(s, pb), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "unknown relay 2"));
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

/* Groups of one node: each message leaves from its sender, whole, as posted at once. */
static void test_relay_alone(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = relayed("random:sites:sites=3:nodes=2", 4096, &p, &pb);
    for (uint32_t v = 0; v < s->P; v++)
        s->piece_groups[v] = (int32_t)v;
    for (int smpi = 0; smpi < 2; smpi++) {
        const double with = flow(s, pb, smpi);
        s->relay = HC_RELAY_NONE;
        const double without = flow(s, pb, smpi);
        s->relay = HC_RELAY_FORWARDERS;
        assert_true(fabs(with - without) <= 1e-12 * without);
    }
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

/* 3 sites of 4 nodes, 100 Mb/s uplinks shared both ways. Under SimGrid's size classes (1 KiB
 * moves 0.34 bytes per unit of capacity, 5761 to 9360 B 1.087, 15424 to 65471 B 0.70): 1 KiB
 * per pair through forwarders (4 KiB forwarded messages) is predicted 26 % faster than posted
 * at once; 4 KiB per pair gains only in 9360 B pieces (its 16 KiB forwarded messages whole
 * lose). With the plain model forwarding gains nothing. */
static void test_relay_classes(void **state)
{
    (void)state;
    for (uint64_t M = 1024; M <= 4096; M *= 4) {
        hc_platform_t *p = NULL;
        hc_problem_t *pb = NULL;
        hc_schedule_t *s = relayed("random:sites:sites=3:nodes=4:interleave=1", M, &p, &pb);
        s->segment_bytes = 9360;
        const double pieces = flow(s, pb, 1);
        s->segment_bytes = 0;
        const double whole = flow(s, pb, 1);
        s->relay = HC_RELAY_NONE;
        const double direct = flow(s, pb, 1), plain_direct = flow(s, pb, 0);
        s->relay = HC_RELAY_FORWARDERS;
        const double plain = flow(s, pb, 0);
        print_message("%llu B: smpi: direct %.6f s, forwarded whole %.6f s, in pieces %.6f s; "
                      "plain: direct %.6f s, forwarded %.6f s\n",
                      (unsigned long long)M, direct, whole, pieces, plain_direct, plain);
        assert_true(pieces < (M == 1024 ? 0.8 : 0.95) * direct);
        assert_true(M == 1024 ? pieces <= whole : pieces < 0.7 * whole);
        assert_true(plain > 0.97 * plain_direct);
        hc_schedule_destroy(s);
        hc_problem_destroy(pb);
        hc_platform_destroy(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forwarder_rule),
        cmocka_unit_test(test_relay_file),
        cmocka_unit_test(test_relay_alone),
        cmocka_unit_test(test_relay_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
