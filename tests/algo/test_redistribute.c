/* Redistribution (KPBS, 001): GGP, OGGP, OGGP+, the heuristics, and the properties the paper
 * proves: validity of every step, cost <= 8/3 eta (Theorem 2), J weight-regular
 * (Proposition 2), every perfect matching of J holds exactly k edges of I (Lemma 1), OGGP's
 * matching is the max-min one (Proposition 4, brute force), Hopcroft-Karp = brute force. */
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
#include "sched/matching.h"
#include "sched/redist_kit.h"

static const char *const ALGOS[] = {"ggp", "oggp", "oggp+", "hweight", "hdegree"};
#define N_ALGOS (sizeof ALGOS / sizeof ALGOS[0])

/* ---------------------------------------------------------------- instances */

typedef struct inst {
    hc_problem_t pb;
    hc_matrix_t *costs;
} inst_t;

/* n1 x n2 matrix, each entry nonzero with probability dens; weights whole in [1, wmax] or real
 * in (0, wmax] (real != 0). */
static void inst_random(inst_t *in, hc_rng_t *r, uint32_t n1, uint32_t n2, double dens, double wmax,
                        int real, uint32_t k, double beta)
{
    assert_int_equal(hc_matrix_create(n1, n2, 0, &in->costs), HC_OK);
    for (uint32_t i = 0; i < n1; i++)
        for (uint32_t j = 0; j < n2; j++)
            if (hc_rng_uniform(r) < dens)
                HC_AT(in->costs, i, j) = real ? wmax * (1 - hc_rng_uniform(r))
                                              : (double)(1 + hc_rng_below(r, (uint64_t)wmax));
    hc_problem_init(&in->pb, HC_COLL_REDISTRIBUTE);
    in->pb.P = n1 + n2;
    in->pb.n1 = n1;
    in->pb.n2 = n2;
    in->pb.costs = in->costs;
    in->pb.k = k;
    in->pb.beta = beta;
}

/* A random instance of the kinds the properties are tested on. */
static void inst_any(inst_t *in, hc_rng_t *r, uint32_t nmax)
{
    uint32_t n1 = 1 + (uint32_t)hc_rng_below(r, nmax), n2 = 1 + (uint32_t)hc_rng_below(r, nmax);
    uint32_t mn = n1 < n2 ? n1 : n2;
    uint32_t k = 1 + (uint32_t)hc_rng_below(r, mn + 1); /* sometimes k > min(n1, n2) */
    static const double betas[] = {1, 1, 1, 0.5, 2, 0.01, 0};
    static const double wmaxs[] = {20, 100000, 3, 1};
    double beta = betas[hc_rng_below(r, 7)];
    double wmax = wmaxs[hc_rng_below(r, 4)];
    int real = hc_rng_below(r, 3) == 0;
    double dens = 0.1 + 0.9 * hc_rng_uniform(r);
    inst_random(in, r, n1, n2, dens, wmax, real, k, beta);
}

static void inst_free(inst_t *in)
{
    hc_matrix_destroy(in->costs);
    in->costs = NULL;
}

/* ---------------------------------------------------------------- schedule checks */

/* Every step a matching of <= k transfers, transfers at step.start + beta, steps back to back,
 * durations beta + longest, every message covered exactly, cost = sum of durations >= eta. */
static double check_schedule(const inst_t *in, const hc_schedule_t *s, const char *algo)
{
    const hc_problem_t *pb = &in->pb;
    uint32_t n1 = pb->n1, n2 = pb->n2;
    double *got = calloc((size_t)n1 * n2, sizeof *got);
    uint8_t *busy = calloc((size_t)n1 + n2, 1);
    assert_non_null(got);
    assert_non_null(busy);
    assert_int_equal(s->coll, HC_COLL_REDISTRIBUTE);
    assert_int_equal(s->n1, n1);
    assert_int_equal(s->n2, n2);
    assert_int_equal(s->k, pb->k);
    double t = 0, cost = 0, scale = 1;
    for (size_t e = 0; e < (size_t)n1 * n2; e++)
        scale = fmax(scale, pb->costs->v[e]);
    double tol = 1e-9 * scale * (1 + (double)s->n_events);
    size_t covered = 0;
    for (size_t st = 0; st < s->n_steps; st++) {
        const hc_step_t *S = &s->steps[st];
        assert_true(S->first == covered);
        assert_true(S->count >= 1);
        assert_true(S->count <= pb->k);
        assert_true(fabs(S->start - t) <= tol);
        memset(busy, 0, (size_t)n1 + n2);
        double longest = 0;
        for (size_t e = S->first; e < S->first + S->count; e++) {
            const hc_event_t *ev = &s->events[e];
            assert_true(ev->src < n1);
            assert_true(ev->dst >= n1 && ev->dst < n1 + n2);
            assert_false(busy[ev->src]);
            assert_false(busy[ev->dst]);
            busy[ev->src] = busy[ev->dst] = 1;
            assert_int_equal(ev->step, st);
            assert_true(fabs(ev->start - (S->start + pb->beta)) <= tol);
            double a = ev->end - ev->start;
            assert_true(a > 0);
            assert_true(HC_AT(pb->costs, ev->src, ev->dst - n1) > 0);
            got[(size_t)ev->src * n2 + (ev->dst - n1)] += a;
            longest = fmax(longest, a);
        }
        assert_true(fabs(S->duration - (pb->beta + longest)) <= tol);
        covered += S->count;
        t += S->duration;
        cost += pb->beta + longest;
    }
    assert_true(covered == s->n_events);
    for (size_t e = 0; e < (size_t)n1 * n2; e++) {
        if (fabs(got[e] - pb->costs->v[e]) > tol)
            fail_msg("%s: message %zu -> %zu covered %.17g of %.17g", algo, e / n2, e % n2, got[e],
                     pb->costs->v[e]);
    }
    assert_true(fabs(s->makespan - cost) <= tol);
    double eta;
    assert_int_equal(hc_lower_bound(pb, &eta), HC_OK);
    assert_true(fabs(s->lower_bound - eta) <= tol);
    if (cost < eta - tol)
        fail_msg("%s: cost %.17g below eta %.17g", algo, cost, eta);
    assert_int_equal(hc_schedule_validate(s, pb), HC_OK);
    free(got);
    free(busy);
    return cost;
}

static double run_checked(const inst_t *in, const char *algo)
{
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_compute(&in->pb, algo, NULL, &s);
    if (rc != HC_OK)
        fail_msg("%s: %s (%s)", algo, hc_strerror(rc), hc_error_detail());
    double c = check_schedule(in, s, algo);
    hc_schedule_destroy(s);
    return c;
}

/* ---------------------------------------------------------------- tests */

static void test_validity_and_ratio(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 2024);
    double worst[N_ALGOS] = {0};
    for (int trial = 0; trial < 1200; trial++) {
        inst_t in;
        inst_any(&in, &r, trial < 600 ? 6 : 12);
        double eta;
        assert_int_equal(hc_lower_bound(&in.pb, &eta), HC_OK);
        double c[N_ALGOS];
        for (size_t a = 0; a < N_ALGOS; a++) {
            c[a] = run_checked(&in, ALGOS[a]);
            if (eta > 0)
                worst[a] = fmax(worst[a], c[a] / eta);
        }
        /* Theorem 2: GGP and OGGP (and OGGP+) within 8/3 of eta */
        for (size_t a = 0; a < 3; a++)
            if (c[a] > 8.0 / 3.0 * eta * (1 + 1e-9) + 1e-12)
                fail_msg("trial %d: %s cost %.17g > 8/3 eta = %.17g", trial, ALGOS[a], c[a],
                         8.0 / 3.0 * eta);
        /* the compaction post-pass never increases the cost */
        assert_true(c[2] <= c[1] * (1 + 1e-9) + 1e-12);
        inst_free(&in);
    }
    for (size_t a = 0; a < N_ALGOS; a++)
        print_message("worst cost/eta %-8s %.4f\n", ALGOS[a], worst[a]);
}

static void test_edge_cases(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 7);
    /* no traffic at all */
    inst_t in;
    inst_random(&in, &r, 3, 4, 0, 1, 0, 2, 1);
    for (size_t a = 0; a < N_ALGOS; a++) {
        hc_schedule_t *s = NULL;
        assert_int_equal(hc_schedule_compute(&in.pb, ALGOS[a], NULL, &s), HC_OK);
        assert_int_equal(s->n_steps, 0);
        assert_true(s->makespan == 0);
        hc_schedule_destroy(s);
    }
    inst_free(&in);
    /* one message, k = 1, beta = 0, k far above n */
    for (uint32_t k = 1; k <= 40; k += 13) {
        inst_random(&in, &r, 1, 1, 1, 5, 1, k, 0);
        for (size_t a = 0; a < N_ALGOS; a++)
            run_checked(&in, ALGOS[a]);
        inst_free(&in);
    }
    /* dense with k = 1: every algorithm sends one message per step, no preemption needed */
    inst_random(&in, &r, 4, 4, 1, 20, 0, 1, 1);
    for (size_t a = 0; a < N_ALGOS; a++)
        run_checked(&in, ALGOS[a]);
    inst_free(&in);
    /* wrong shape: an error, not a crash */
    inst_random(&in, &r, 3, 3, 1, 20, 0, 2, 1);
    in.pb.n2 = 4;
    in.pb.P = 7;
    for (size_t a = 0; a < N_ALGOS; a++) {
        hc_schedule_t *s = NULL;
        assert_int_not_equal(hc_schedule_compute(&in.pb, ALGOS[a], NULL, &s), HC_OK);
        assert_null(s);
    }
    inst_free(&in);
}

/* Traffic in bytes: the pieces of every message carry bytes in proportion to their time and
 * sum to the message's size; JSON output carries k, beta, cost and the steps. */
static void test_bytes_split(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 17);
    for (int trial = 0; trial < 50; trial++) {
        inst_t in;
        inst_random(&in, &r, 5, 4, 0.7, 20, 0, 1 + (uint32_t)hc_rng_below(&r, 4), 0.5);
        hc_matrix_t *sz = NULL;
        assert_int_equal(hc_matrix_create(5, 4, 0, &sz), HC_OK);
        for (size_t e = 0; e < 20; e++)
            sz->v[e] = in.costs->v[e] > 0 ? (double)(1 + hc_rng_below(&r, 1000000)) : 0;
        in.pb.sizes = sz;
        for (size_t a = 0; a < N_ALGOS; a++) {
            hc_schedule_t *s = NULL;
            assert_int_equal(hc_schedule_compute(&in.pb, ALGOS[a], NULL, &s), HC_OK);
            check_schedule(&in, s, ALGOS[a]);
            uint64_t got[20] = {0};
            for (size_t e = 0; e < s->n_events; e++)
                got[s->events[e].src * 4 + (s->events[e].dst - 5)] += s->events[e].bytes;
            for (size_t e = 0; e < 20; e++)
                assert_true(got[e] == (uint64_t)sz->v[e]);
            if (trial == 0) {
                char *json = NULL;
                assert_int_equal(hc_schedule_to_json(s, &json), HC_OK);
                assert_non_null(strstr(json, "\"k\""));
                assert_non_null(strstr(json, "\"beta\""));
                assert_non_null(strstr(json, "\"cost\""));
                assert_non_null(strstr(json, "\"transfers\""));
                assert_non_null(strstr(json, "\"amount\""));
                free(json);
            }
            hc_schedule_destroy(s);
        }
        hc_matrix_destroy(sz);
        inst_free(&in);
    }
}

/* The 3-partition reduction of Theorem 1: U = {a1..a6}, m = 2 (k = 2). The lower bound is
 * reached by an optimal schedule (cost B = a(U) + 3m) when the partition exists. */
static void test_theorem1_instance(void **state)
{
    (void)state;
    static const double a[6] = {3, 4, 5, 5, 4, 3}; /* {3,4,5} and {5,4,3}: a(U)/m = 12 */
    hc_matrix_t *c = NULL;
    assert_int_equal(hc_matrix_create(8, 2, 0, &c), HC_OK);
    for (int i = 0; i < 6; i++)
        HC_AT(c, i, 0) = a[i];
    HC_AT(c, 6, 1) = 12;
    HC_AT(c, 7, 1) = 12;
    inst_t in = {.costs = c};
    hc_problem_init(&in.pb, HC_COLL_REDISTRIBUTE);
    in.pb.P = 10;
    in.pb.n1 = 8;
    in.pb.n2 = 2;
    in.pb.costs = c;
    in.pb.k = 2;
    in.pb.beta = 1;
    double eta;
    assert_int_equal(hc_lower_bound(&in.pb, &eta), HC_OK);
    assert_true(fabs(eta - (24 + 6)) < 1e-12); /* B = a(U) + 3m */
    for (size_t k = 0; k < N_ALGOS; k++) {
        double cost = run_checked(&in, ALGOS[k]);
        assert_true(cost <= 8.0 / 3.0 * eta + 1e-9 || k >= 3);
    }
    inst_free(&in);
}

/* Proposition 2 and the construction of I (P(I) = k phi, W(I) <= phi) on random instances. */
static void test_prop2_weight_regular(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 99);
    for (int trial = 0; trial < 1500; trial++) {
        inst_t in;
        inst_any(&in, &r, trial < 1000 ? 8 : 20);
        hc__kpbs_t J;
        assert_int_equal(hc__kpbs_build(&in.pb, &J), HC_OK);
        if (J.m == 0) {
            hc__kpbs_free(&J);
            inst_free(&in);
            continue;
        }
        assert_int_equal(J.n, J.n1i + J.n2i - J.k);
        assert_true(J.phi >= J.WH);
        assert_true(J.phi == floor(J.phi));
        double PI = 0, *vw1 = calloc(J.n, sizeof *vw1), *vw2 = calloc(J.n, sizeof *vw2);
        assert_non_null(vw1);
        assert_non_null(vw2);
        for (size_t e = 0; e < J.m; e++) {
            assert_true(J.w0[e] > 0 && J.w0[e] == floor(J.w0[e]));
            if (J.kind[e] != HC__KPBS_EXT) {
                PI += J.w0[e];
                assert_true(J.row[e] < J.n1i && J.col[e] < J.n2i);
            } else {
                /* extension edges join an old vertex to a new one, never two new ones */
                assert_true((J.row[e] < J.n1i) != (J.col[e] < J.n2i));
            }
            if (J.kind[e] == HC__KPBS_DUMMY)
                assert_true(J.w0[e] <= J.WH);
            vw1[J.row[e]] += J.w0[e];
            vw2[J.col[e]] += J.w0[e];
        }
        assert_true(PI == J.phi * J.k); /* P(I)/k = phi */
        for (uint32_t v = 0; v < J.n; v++) {
            if (vw1[v] != J.phi || vw2[v] != J.phi)
                fail_msg("trial %d: vertex %u weights %g / %g, expected %g", trial, v, vw1[v],
                         vw2[v], J.phi);
        }
        assert_true(hc__kpbs_vertex_weight(&J, 0, 0) == J.phi);
        assert_true(hc__kpbs_vertex_weight(&J, 1, J.n - 1) == J.phi);
        free(vw1);
        free(vw2);
        hc__kpbs_free(&J);
        inst_free(&in);
    }
}

/* ---- brute force over the perfect matchings of J's positive edges ---- */

typedef struct brute {
    const hc__kpbs_t *J;
    const double *w;
    uint8_t *used;   /* right vertices */
    size_t count;    /* perfect matchings seen */
    size_t limit;    /* stop after this many */
    int bad_lemma1;  /* a perfect matching without exactly k edges of I */
    double best_min; /* max over perfect matchings of the smallest weight */
} brute_t;

static void brute_rec(brute_t *b, uint32_t u, uint32_t in_i, double mn)
{
    const hc__kpbs_t *J = b->J;
    if (b->count >= b->limit)
        return;
    if (u == J->n) {
        b->count++;
        if (in_i != J->k)
            b->bad_lemma1 = 1;
        if (mn > b->best_min)
            b->best_min = mn;
        return;
    }
    for (size_t s = J->off[u]; s < J->off[u + 1]; s++) {
        if (b->w[s] <= 0 || b->used[J->col[s]])
            continue;
        b->used[J->col[s]] = 1;
        brute_rec(b, u + 1, in_i + (J->kind[s] != HC__KPBS_EXT), fmin(mn, b->w[s]));
        b->used[J->col[s]] = 0;
    }
}

static void brute_run(brute_t *b, const hc__kpbs_t *J, const double *w, size_t limit)
{
    memset(b, 0, sizeof *b);
    b->J = J;
    b->w = w;
    b->limit = limit;
    b->best_min = -1;
    b->used = calloc(J->n + 1, 1);
    assert_non_null(b->used);
    brute_rec(b, 0, 0, HUGE_VAL);
    free(b->used);
}

typedef struct peel_ctx {
    int optimal;
    int brute; /* also brute-force the max-min value */
    size_t matchings;
    size_t brute_checks;
} peel_ctx_t;

static void on_match(void *ctx, const hc__kpbs_t *J, const int64_t *mate1, double amount)
{
    peel_ctx_t *p = ctx;
    uint32_t in_i = 0;
    double mn = HUGE_VAL;
    uint8_t *seen = calloc(J->n + 1, 1);
    assert_non_null(seen);
    for (uint32_t u = 0; u < J->n; u++) {
        assert_true(mate1[u] >= 0);
        size_t s = (size_t)mate1[u];
        assert_true(s >= J->off[u] && s < J->off[u + 1]); /* an edge of u */
        assert_true(J->w[s] > 0);
        assert_false(seen[J->col[s]]);
        seen[J->col[s]] = 1;
        in_i += J->kind[s] != HC__KPBS_EXT;
        mn = fmin(mn, J->w[s]);
    }
    free(seen);
    /* Lemma 1 on the matching used */
    assert_int_equal(in_i, J->k);
    assert_true(amount == mn);
    p->matchings++;
    if (p->optimal && p->brute) {
        brute_t b;
        brute_run(&b, J, J->w, (size_t)-1);
        assert_true(b.count > 0);
        if (b.best_min != mn)
            fail_msg("OGGP matching min %g, brute-force max-min %g", mn, b.best_min);
        p->brute_checks++;
    }
}

/* Lemma 1: every perfect matching of J (all of them, on small graphs) and every matching used
 * by GGP and OGGP (on all graphs) holds exactly k edges of I. */
static void test_lemma1(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 5);
    size_t enumerated = 0, used = 0;
    for (int trial = 0; trial < 1200; trial++) {
        inst_t in;
        inst_any(&in, &r, trial < 800 ? 4 : 10);
        hc__kpbs_t J;
        assert_int_equal(hc__kpbs_build(&in.pb, &J), HC_OK);
        if (J.n > 0 && J.n <= 9) {
            brute_t b;
            brute_run(&b, &J, J.w0, 200000);
            assert_true(b.count > 0); /* a weight-regular graph has a perfect matching */
            assert_false(b.bad_lemma1);
            enumerated += b.count;
        }
        for (int opt = 0; opt < 2; opt++) {
            peel_ctx_t ctx = {.optimal = opt};
            hc__redist_plan_t plan = {0};
            assert_int_equal(hc__kpbs_peel(&in.pb, &J, opt ? &hc__kpbs_oggp : &hc__kpbs_ggp,
                                           on_match, &ctx, &plan),
                             HC_OK);
            used += ctx.matchings;
            hc__redist_plan_free(&plan);
        }
        hc__kpbs_free(&J);
        inst_free(&in);
    }
    print_message("Lemma 1: %zu enumerated perfect matchings, %zu used matchings\n", enumerated,
                  used);
    assert_true(enumerated > 1000);
}

/* Proposition 4: each OGGP step takes a max-min perfect matching (brute force, small J). */
static void test_oggp_maxmin(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 11);
    size_t checks = 0;
    for (int trial = 0; trial < 1000; trial++) {
        inst_t in;
        inst_any(&in, &r, 4);
        hc__kpbs_t J;
        assert_int_equal(hc__kpbs_build(&in.pb, &J), HC_OK);
        if (J.n > 0 && J.n <= 8) {
            peel_ctx_t ctx = {.optimal = 1, .brute = 1};
            hc__redist_plan_t plan = {0};
            assert_int_equal(hc__kpbs_peel(&in.pb, &J, &hc__kpbs_oggp, on_match, &ctx, &plan),
                             HC_OK);
            checks += ctx.brute_checks;
            hc__redist_plan_free(&plan);
        }
        hc__kpbs_free(&J);
        inst_free(&in);
    }
    print_message("OGGP max-min checked against brute force on %zu steps\n", checks);
    assert_true(checks > 1000);
}

/* ---- Hopcroft-Karp and the bottleneck search against brute force ---- */

static size_t brute_max_matching(uint32_t n1, uint32_t n2, const uint8_t *adj, uint32_t u,
                                 uint8_t *used)
{
    if (u == n1)
        return 0;
    size_t best = brute_max_matching(n1, n2, adj, u + 1, used); /* u unmatched */
    for (uint32_t v = 0; v < n2; v++) {
        if (!adj[u * n2 + v] || used[v])
            continue;
        used[v] = 1;
        size_t x = 1 + brute_max_matching(n1, n2, adj, u + 1, used);
        used[v] = 0;
        if (x > best)
            best = x;
    }
    return best;
}

static double brute_bottleneck(uint32_t n, const double *w, uint32_t u, uint8_t *used, double mn)
{
    if (u == n)
        return mn;
    double best = -1;
    for (uint32_t v = 0; v < n; v++) {
        if (w[u * n + v] <= 0 || used[v])
            continue;
        used[v] = 1;
        double x = brute_bottleneck(n, w, u + 1, used, fmin(mn, w[u * n + v]));
        used[v] = 0;
        if (x > best)
            best = x;
    }
    return best;
}

static void test_hopcroft_karp(void **state)
{
    (void)state;
    hc_rng_t r;
    hc_rng_seed(&r, 3);
    for (int trial = 0; trial < 2000; trial++) {
        uint32_t n1 = 1 + (uint32_t)hc_rng_below(&r, 7), n2 = 1 + (uint32_t)hc_rng_below(&r, 7);
        double dens = hc_rng_uniform(&r);
        uint8_t adj[64] = {0}, used[8] = {0};
        size_t off[9] = {0};
        uint32_t col[64];
        double w[64];
        size_t m = 0;
        for (uint32_t u = 0; u < n1; u++) {
            for (uint32_t v = 0; v < n2; v++) {
                if (hc_rng_uniform(&r) < dens) {
                    adj[u * n2 + v] = 1;
                    col[m] = v;
                    w[m] = (double)(1 + hc_rng_below(&r, 5));
                    m++;
                }
            }
            off[u + 1] = m;
        }
        hc__hk_t h;
        assert_int_equal(hc__hk_init(&h, n1, n2, off, col), HC_OK);
        size_t got = hc__hk_run(&h);
        assert_int_equal(got, brute_max_matching(n1, n2, adj, 0, used));
        /* it is a matching */
        size_t cnt = 0;
        for (uint32_t u = 0; u < n1; u++) {
            if (h.mate1[u] < 0)
                continue;
            cnt++;
            assert_true((size_t)h.mate1[u] >= off[u] && (size_t)h.mate1[u] < off[u + 1]);
            assert_int_equal(h.mate2[col[h.mate1[u]]], u);
        }
        assert_int_equal(cnt, got);
        hc__hk_free(&h);
        if (n1 == n2) {
            double dense[64] = {0};
            for (uint32_t u = 0; u < n1; u++)
                for (size_t s = off[u]; s < off[u + 1]; s++)
                    dense[u * n1 + col[s]] = w[s];
            double expect = brute_bottleneck(n1, dense, 0, used, HUGE_VAL);
            assert_int_equal(hc__hk_init(&h, n1, n2, off, col), HC_OK);
            h.w = w;
            double thr = -1;
            int ok = hc__hk_bottleneck(
                &h, hc_rng_below(&r, 2) ? (double)(1 + hc_rng_below(&r, 5)) : 0, &thr);
            if (expect < 0) {
                assert_int_equal(ok, 0);
            } else {
                assert_int_equal(ok, 1);
                assert_true(thr == expect);
                assert_int_equal(h.size, n1);
                for (uint32_t u = 0; u < n1; u++)
                    assert_true(w[h.mate1[u]] >= thr);
            }
            hc__hk_free(&h);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hopcroft_karp),        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_theorem1_instance),    cmocka_unit_test(test_bytes_split),
        cmocka_unit_test(test_prop2_weight_regular), cmocka_unit_test(test_lemma1),
        cmocka_unit_test(test_oggp_maxmin),          cmocka_unit_test(test_validity_and_ratio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
