/* The planner's replay memo (src/mpi/replay_memo.c): a schedule replayed before gets the
 * recorded prediction, bit for bit the replay's, and a schedule that differs in any field a
 * replay reads is replayed again. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mpi/replay_memo.h"

typedef struct {
    hc_platform_t *p;
    hc_problem_t *pb;
    hc_sim_opts_t so;
} fixture_t;

static fixture_t setup(hc_coll_t coll, uint64_t bytes)
{
    fixture_t f = {0};
    assert_int_equal(hc_platform_load("random:sites:sites=3:nodes=4:interleave=1", &f.p), HC_OK);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, coll);
    sp.platform = f.p;
    sp.msg_bytes = bytes;
    assert_int_equal(hc_problem_create(&sp, &f.pb), HC_OK);
    hc_sim_opts_init(&f.so);
    f.so.network = HC_NETWORK_FLOW;
    f.so.smpi_factors = 1;
    return f;
}

static void teardown(fixture_t *f)
{
    hc_problem_destroy(f->pb);
    hc_platform_destroy(f->p);
}

static double direct(const fixture_t *f, const hc_schedule_t *s, int *rc)
{
    hc_sim_result_t *r = NULL;
    *rc = hc_simulate(s, f->pb, &f->so, &r);
    double t = *rc == HC_OK ? r->makespan : 0;
    hc_sim_result_destroy(r);
    return t;
}

/* t, changed by `change`, is replayed again (no hit), to the plain replay's makespan. */
static void expect_miss(hc__memo_t *m, const fixture_t *f, const hc_schedule_t *t,
                        const char *change)
{
    uint64_t hits = hc__memo_hits(m);
    double got = -1;
    int rc = hc__memo_replay(m, f->pb, &f->so, t, &got), rc2;
    double want = direct(f, t, &rc2);
    if (hc__memo_hits(m) != hits)
        fail_msg("a schedule with a different %s got a recorded prediction", change);
    assert_int_equal(rc, rc2);
    if (rc == HC_OK)
        assert_memory_equal(&got, &want, sizeof got);
}

/* The runtime's piece groups on the 3-site grid (ranks interleaved): the sites. */
static int32_t *site_groups(uint32_t P)
{
    int32_t *g = calloc(P, sizeof *g);
    assert_non_null(g);
    for (uint32_t u = 0; u < P; u++)
        g[u] = (int32_t)(u % 3);
    return g;
}

/* A clone t of s, changed by stmt, misses. */
#define CHANGED(what, stmt)                                                                        \
    do {                                                                                           \
        assert_int_equal(hc_schedule_clone(s, &t), HC_OK);                                         \
        stmt;                                                                                      \
        expect_miss(m, &f, t, what);                                                               \
        hc_schedule_destroy(t);                                                                    \
    } while (0)

/* A bcast in pieces with trees: the recorded makespan is the replay's, bit for bit; a copy that
 * differs only in its name, results or texts hits; every change a replay sees misses. */
static void test_bcast(void **state)
{
    (void)state;
    fixture_t f = setup(HC_COLL_BCAST, 1u << 20);
    hc_schedule_t *s = NULL, *t = NULL;
    assert_int_equal(hc_schedule_compute(f.pb, "multitree", NULL, &s), HC_OK);
    assert_true(s->n_segments > 1 && s->parent);
    hc__memo_t *m = NULL;
    hc__memo_create(&m);
    assert_non_null(m);
    int rc;
    double want = direct(&f, s, &rc), got = -1;
    assert_int_equal(rc, HC_OK);
    assert_int_equal(hc__memo_replay(m, f.pb, &f.so, s, &got), HC_OK);
    assert_memory_equal(&got, &want, sizeof got);
    assert_int_equal(hc__memo_hits(m), 0);

    assert_int_equal(hc_schedule_clone(s, &t), HC_OK);
    strcpy(t->algorithm, "another");
    t->makespan = 123;
    t->lower_bound = 1;
    assert_int_equal(hc_schedule_set_note(t, "%s", "a note"), HC_OK);
    got = -1;
    assert_int_equal(hc__memo_replay(m, f.pb, &f.so, t, &got), HC_OK);
    assert_int_equal(hc__memo_hits(m), 1);
    assert_memory_equal(&got, &want, sizeof got);
    hc_schedule_destroy(t);

    CHANGED("window", t->window = s->window + 3);
    CHANGED("window factor", t->window_bdp_factor = 2 * s->window_bdp_factor + 1);
    CHANGED("sub-message size", t->segment_bytes = 2000);
    CHANGED("segment count", t->n_segments = s->n_segments / 2);
    CHANGED("event size", t->events[0].bytes += 1);
    CHANGED("event start", t->events[s->n_events - 1].start += 1e-3);
    CHANGED("event end", t->events[s->n_events - 1].end += 1e-3);
    CHANGED("event order", {
        hc_event_t e = t->events[0];
        t->events[0] = t->events[s->n_events - 1];
        t->events[s->n_events - 1] = e;
    });
    CHANGED("root", t->root = (s->root + 1) % s->P);
    CHANGED("second tree", {
        t->parent2 = malloc(s->P * sizeof *t->parent2);
        assert_non_null(t->parent2);
        memcpy(t->parent2, s->parent, s->P * sizeof *t->parent2);
    });
    CHANGED("piece groups", {
        t->piece_groups = site_groups(s->P);
        t->segment_bytes = 3000;
    });
    /* the same schedule under other options or on another problem */
    hc_sim_opts_t so = f.so;
    so.smpi_factors = 0;
    uint64_t hits = hc__memo_hits(m);
    assert_int_equal(hc__memo_replay(m, f.pb, &so, s, &got), HC_OK);
    assert_int_equal(hc__memo_hits(m), hits);
    hc_problem_t *pb2 = NULL;
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_BCAST);
    sp.platform = f.p;
    sp.msg_bytes = 1u << 20;
    assert_int_equal(hc_problem_create(&sp, &pb2), HC_OK);
    assert_int_equal(hc__memo_replay(m, pb2, &f.so, s, &got), HC_OK);
    assert_int_equal(hc__memo_hits(m), hits);
    hc_problem_destroy(pb2);
    hc_schedule_destroy(s);
    hc__memo_destroy(m);
    teardown(&f);
}

/* An exchange in pieces: its receive order and its groups; a reduction: its sub-messages. */
static void test_exchange_reduce(void **state)
{
    (void)state;
    fixture_t f = setup(HC_COLL_ALLTOALL, 65536);
    hc_schedule_t *s = NULL, *t = NULL;
    assert_int_equal(hc_schedule_compute(f.pb, "pieces-cross", NULL, &s), HC_OK);
    assert_true(s->segment_bytes > 0 && s->piece_groups);
    hc__memo_t *m = NULL;
    hc__memo_create(&m);
    double got;
    assert_int_equal(hc__memo_replay(m, f.pb, &f.so, s, &got), HC_OK);
    CHANGED("receive order", t->recv_order = !s->recv_order);
    CHANGED("relay", t->relay = HC_RELAY_FORWARDERS);
    CHANGED("lead pieces", {
        uint32_t K = 1;
        for (uint32_t v = 0; v < s->P; v++)
            K = (uint32_t)s->piece_groups[v] + 1 > K ? (uint32_t)s->piece_groups[v] + 1 : K;
        t->lead_pieces = calloc((size_t)K * K, sizeof *t->lead_pieces);
        assert_non_null(t->lead_pieces);
        t->lead_pieces[K - 1] = 4;
        t->lead_groups = K;
        t->lead_bytes = 3468;
    });
    CHANGED("piece group", t->piece_groups[1] = s->piece_groups[1] + 1);
    CHANGED("piece size", t->segment_bytes = s->segment_bytes / 2);
    CHANGED("event destination", t->events[0].dst = s->events[1].dst);
    hc_schedule_destroy(s);
    hc__memo_destroy(m);
    teardown(&f);

    f = setup(HC_COLL_REDUCE, 1u << 20);
    assert_int_equal(hc_schedule_compute(f.pb, "stripes", NULL, &s), HC_OK);
    if (!s->piece_groups)
        s->piece_groups = site_groups(s->P);
    hc__memo_create(&m);
    assert_int_equal(hc__memo_replay(m, f.pb, &f.so, s, &got), HC_OK);
    CHANGED("split size", t->split_bytes = 3468);
    CHANGED("reduction segment", t->segment_bytes = 32768);
    hc_schedule_destroy(s);
    hc__memo_destroy(m);
    teardown(&f);
}

/* No memo: every call replays. */
static void test_no_memo(void **state)
{
    (void)state;
    fixture_t f = setup(HC_COLL_BCAST, 65536);
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(f.pb, "binomial", NULL, &s), HC_OK);
    int rc;
    double want = direct(&f, s, &rc), got = -1;
    assert_int_equal(hc__memo_replay(NULL, f.pb, &f.so, s, &got), HC_OK);
    assert_memory_equal(&got, &want, sizeof got);
    assert_int_equal(hc__memo_hits(NULL), 0);
    hc_schedule_destroy(s);
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bcast),
        cmocka_unit_test(test_exchange_reduce),
        cmocka_unit_test(test_no_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
