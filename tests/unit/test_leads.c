/* Lead pieces of a total exchange (hc_schedule_t.lead_pieces, API 24): the piece layout against
 * its definition on random cases, the schedule file's fields and their errors, the validator's,
 * and the flow replay against the same transfers run directly (grid5000-links, SimGrid's
 * factors: the far sites' messages led by small pieces end sooner). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

/* post-all on `spec`, M bytes per pair, in pieces of seg, the platform's clusters as groups and
 * L lead pieces of lb bytes between clusters a and b (both ways), none elsewhere. */
static hc_schedule_t *led(const char *spec, uint64_t M, uint64_t seg, uint32_t a, uint32_t b,
                          uint32_t L, uint64_t lb, hc_platform_t **p, hc_problem_t **pb)
{
    assert_int_equal(hc_platform_load(spec, p), HC_OK);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_ALLTOALL);
    sp.platform = *p;
    sp.msg_bytes = M;
    assert_int_equal(hc_problem_create(&sp, pb), HC_OK);
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(*pb, "post-all", NULL, &s), HC_OK);
    const uint32_t K = hc_platform_cluster_count(*p);
    s->piece_groups = malloc(sizeof *s->piece_groups * s->P);
    s->lead_pieces = calloc((size_t)K * K, sizeof *s->lead_pieces);
    assert_non_null(s->piece_groups);
    assert_non_null(s->lead_pieces);
    for (uint32_t v = 0; v < s->P; v++)
        s->piece_groups[v] = hc_platform_cluster_of(*p, v);
    s->lead_groups = K;
    s->lead_pieces[a * K + b] = s->lead_pieces[b * K + a] = L;
    s->lead_bytes = lb;
    s->segment_bytes = seg;
    s->window = HC_WINDOW_ALL;
    return s;
}

/* The pieces by definition: min(L, ceil(bytes / lb)) of lb (the last cut at bytes), then the
 * rest in hc_schedule_pieces of it, equal to within a byte; within a group one piece. */
static void check_layout(const hc_schedule_t *s, uint32_t src, uint32_t dst, uint64_t bytes)
{
    const uint32_t n = hc_schedule_message_pieces(s, src, dst, bytes);
    uint64_t want[2 * 256 + 2];
    uint32_t m = 0;
    const int32_t a = s->piece_groups[src], b = s->piece_groups[dst];
    if (a == b) {
        assert_int_equal(n, 1);
        assert_true(hc_schedule_message_piece_offset(s, src, dst, bytes, 1) == bytes);
        return;
    }
    uint32_t L = s->lead_pieces[(size_t)a * s->lead_groups + (uint32_t)b];
    uint64_t at = 0;
    for (uint32_t k = 0; k < L && at < bytes; k++) {
        at = at + s->lead_bytes < bytes ? at + s->lead_bytes : bytes;
        want[m++] = at;
    }
    if (at < bytes) {
        const uint64_t rest = bytes - at;
        const uint32_t r = hc_schedule_pieces(s, rest);
        for (uint32_t k = 1; k <= r; k++)
            want[m++] = at + hc_schedule_piece_offset(rest, r, k);
    }
    if (bytes == 0)
        want[m++] = 0;
    assert_int_equal(n, m);
    assert_true(hc_schedule_message_piece_offset(s, src, dst, bytes, 0) == 0);
    for (uint32_t k = 0; k < n; k++) {
        const uint64_t x = hc_schedule_message_piece_offset(s, src, dst, bytes, k + 1);
        if (x != want[k])
            fail_msg("%u -> %u, %llu B: piece %u ends at %llu, not %llu", src, dst,
                     (unsigned long long)bytes, k, (unsigned long long)x,
                     (unsigned long long)want[k]);
    }
    assert_true(hc_schedule_message_piece_offset(s, src, dst, bytes, n + 7) == bytes);
}

static void test_lead_layout(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = led("random:sites:sites=3:nodes=2", 65536, 8192, 0, 1, 8, 3468, &p, &pb);
    /* 64 KiB between sites 0 and 1: 8 x 3468 B, then 37792 B in 5 pieces of 8192 or less */
    /* (nodes 2 v and 2 v + 1 on site v) */
    assert_int_equal(hc_schedule_message_pieces(s, 0, 2, 65536), 8 + 5);
    assert_int_equal(hc_schedule_message_pieces(s, 3, 1, 65536), 8 + 5);
    assert_true(hc_schedule_message_piece_offset(s, 0, 2, 65536, 8) == 8 * 3468);
    assert_int_equal(hc_schedule_message_pieces(s, 0, 4, 65536), 8); /* sites 0 and 2: none */
    assert_int_equal(hc_schedule_message_pieces(s, 0, 1, 65536), 1); /* within site 0 */
    assert_int_equal(hc_schedule_message_pieces(s, 0, 2, 10000), 3); /* 3468, 3468, 3064 */
    assert_true(hc_schedule_message_piece_offset(s, 0, 2, 10000, 2) == 6936);
    /* 8 messages between sites 0 and 1, 16 between those and site 2, 6 within sites */
    assert_true(hc_schedule_piece_count(s) == 8 * 13 + 16 * 8 + 6 * 1);
    hc_rng_t r;
    hc_rng_seed(&r, 20261207);
    for (int c = 0; c < 2000; c++) {
        s->segment_bytes = 1 + hc_rng_below(&r, 20000);
        s->lead_bytes = 1 + hc_rng_below(&r, 5000);
        for (size_t q = 0; q < 9; q++)
            s->lead_pieces[q] = (uint32_t)hc_rng_below(&r, 300) * (hc_rng_uniform(&r) < 0.7);
        const uint64_t bytes = hc_rng_uniform(&r) < 0.05 ? 0 : hc_rng_below(&r, 3000000);
        const uint32_t src = (uint32_t)hc_rng_below(&r, 6), dst = (uint32_t)hc_rng_below(&r, 6);
        if (src == dst)
            continue;
        for (size_t q = 0; q < 9; q++)
            s->lead_pieces[q] = s->lead_pieces[q] > 256 ? 256 : s->lead_pieces[q];
        check_layout(s, src, dst, bytes);
    }
    /* without lead pieces the layout is hc_schedule_piece_offset's */
    uint32_t *l = s->lead_pieces;
    s->lead_pieces = NULL;
    s->segment_bytes = 8192;
    for (uint32_t k = 0; k <= 8; k++)
        assert_true(hc_schedule_message_piece_offset(s, 0, 2, 65536, k) ==
                    hc_schedule_piece_offset(65536, 8, k));
    s->lead_pieces = l;
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

static void expect_parse_error(const char *text, const char *what)
{
    hc_schedule_t *t = NULL;
    assert_int_not_equal(hc_schedule_parse(text, "t.json", &t), HC_OK);
    if (!strstr(hc_error_detail(), what))
        fail_msg("expected '%s' in: %s", what, hc_error_detail());
    assert_null(t);
}

/* text with the first `from` replaced by `to` */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    char *b = malloc(strlen(text) + strlen(to) + 1);
    assert_non_null(b);
    sprintf(b, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return b;
}

static void test_lead_file(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = led("random:sites:sites=3:nodes=2", 65536, 8192, 0, 1, 8, 3468, &p, &pb);
    hc_schedule_t *t = NULL, *c = NULL;
    assert_int_equal(hc_schedule_validate(s, pb), HC_OK);
    char *text = NULL;
    assert_int_equal(hc_schedule_to_json(s, &text), HC_OK);
    assert_non_null(strstr(text, "\"lead_bytes\": 3468"));
    assert_int_equal(hc_schedule_parse(text, "t.json", &t), HC_OK);
    assert_int_equal(t->lead_groups, 3);
    assert_true(t->lead_bytes == 3468);
    assert_memory_equal(t->lead_pieces, s->lead_pieces, sizeof *s->lead_pieces * 9);
    assert_int_equal(hc_schedule_clone(t, &c), HC_OK);
    assert_memory_equal(c->lead_pieces, s->lead_pieces, sizeof *s->lead_pieces * 9);
    assert_true(c->lead_pieces != t->lead_pieces);
    hc_schedule_destroy(c);
    hc_schedule_destroy(t);
    char *bad = replaced(text, "\"lead_bytes\": 3468", "\"lead_bytes\": 0");
    expect_parse_error(bad, "lead_bytes");
    free(bad);
    bad = replaced(text, "\"lead_pieces\"", "\"lead_piecez\"");
    expect_parse_error(bad, "'lead_bytes': needs lead_pieces");
    free(bad);
    bad = replaced(text, "[0,8,0]", "[0,8,257]");
    expect_parse_error(bad, "lead_pieces[0][2]");
    free(bad);
    bad = replaced(text, "[0,8,0]", "[0,8]");
    expect_parse_error(bad, "lead_pieces[0]");
    free(bad);
    free(text);
    /* two groups' rows for three groups' ids */
    uint32_t *l = s->lead_pieces;
    s->lead_groups = 2;
    assert_int_not_equal(hc_schedule_validate(s, pb), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "not below lead_groups"));
    assert_int_equal(hc_schedule_to_json(s, &text), HC_OK);
    expect_parse_error(text, "lead_pieces");
    free(text);
    s->lead_groups = 3;
    s->relay = HC_RELAY_FORWARDERS;
    assert_int_not_equal(hc_schedule_validate(s, pb), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "lead pieces need"));
    s->relay = HC_RELAY_NONE;
    l[1] = 300;
    assert_int_not_equal(hc_schedule_validate(s, pb), HC_OK);
    assert_non_null(strstr(hc_error_detail(), "lead_pieces[0][1] = 300"));
    l[1] = 8;
    s->segment_bytes = 0;
    assert_int_not_equal(hc_schedule_validate(s, pb), HC_OK);
    s->segment_bytes = 8192;
    assert_int_equal(hc_schedule_validate(s, pb), HC_OK);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

/* The flow replay of an exchange with lead pieces moves the same transfers as hc_flows_run
 * started together (every message posted at once), and on grid5000-links, 64 KiB per pair
 * under SimGrid's factors, the far sites' messages (C1-C2, 12.2 ms) led by 8 pieces of 3468 B
 * end sooner than in 8 KiB pieces alone (0.0332 s). */
static void test_lead_replay(void **state)
{
    (void)state;
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = led(HC_TEST_DATA "/../../bench/grid/platforms/grid5000-links.json", 65536,
                           8192, 0, 1, 8, 3468, &p, &pb);
    assert_int_equal(hc_schedule_validate(s, pb), HC_OK);
    double t[2], direct[2];
    for (int with = 0; with < 2; with++) {
        uint32_t *l = s->lead_pieces;
        if (!with)
            s->lead_pieces = NULL;
        hc_sim_opts_t o;
        hc_sim_opts_init(&o);
        o.network = HC_NETWORK_FLOW;
        o.smpi_factors = 1;
        hc_sim_result_t *r = NULL;
        assert_int_equal(hc_simulate(s, pb, &o, &r), HC_OK);
        t[with] = r->makespan;
        hc_sim_result_destroy(r);
        /* the same pieces, every one started at 0 */
        const size_t n = (size_t)hc_schedule_piece_count(s);
        hc_flow_t *f = malloc(sizeof *f * n);
        double *end = malloc(sizeof *end * n);
        assert_non_null(f);
        assert_non_null(end);
        size_t q = 0;
        for (size_t i = 0; i < s->n_events; i++) {
            const hc_event_t *e = &s->events[i];
            const uint32_t k = hc_schedule_message_pieces(s, e->src, e->dst, e->bytes);
            for (uint32_t j = 0; j < k; j++)
                f[q++] = (hc_flow_t){
                    e->src, e->dst,
                    (double)(hc_schedule_message_piece_offset(s, e->src, e->dst, e->bytes, j + 1) -
                             hc_schedule_message_piece_offset(s, e->src, e->dst, e->bytes, j)),
                    0};
        }
        assert_int_equal(q, n);
        hc_flow_opts_t fo;
        hc_flow_opts_init(&fo);
        fo.smpi_factors = 1;
        assert_int_equal(hc_flows_run(p, &fo, f, n, end), HC_OK);
        direct[with] = 0;
        for (size_t k = 0; k < n; k++)
            direct[with] = end[k] > direct[with] ? end[k] : direct[with];
        free(f);
        free(end);
        s->lead_pieces = l;
    }
    printf("grid5000 64 KiB all-to-all, SimGrid's factors: 8 KiB pieces %.6f s (direct %.6f s), "
           "far messages led by 8 x 3468 B %.6f s (direct %.6f s)\n",
           t[0], direct[0], t[1], direct[1]);
    for (int with = 0; with < 2; with++)
        assert_true(fabs(t[with] - direct[with]) <= 1e-6 * direct[with]);
    assert_true(t[1] < 0.95 * t[0]);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lead_layout),
        cmocka_unit_test(test_lead_file),
        cmocka_unit_test(test_lead_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
