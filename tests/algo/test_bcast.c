/* Broadcast algorithms (issue 4):
 *   - every broadcast algorithm x fixtures: valid, makespan == simulator replay, >= bound;
 *   - an exhaustive optimal-tree oracle for N <= 7 (whole message, 1-port): ECEF / ECEF-LA /
 *     FEF / TTCC are never below it, and the gaps are reported;
 *   - TTCC with alpha 0 is never worse than ECEF (exact costs, and planned on distorted costs);
 *   - the pLogP predictions against the simulator on homogeneous platforms;
 *   - hierarchical schedules validate and hier-auto keeps the best heuristic. */
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
#include "sched/bcast_kit.h"

static int close_rel(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-12;
}

static double sim_makespan(const hc_schedule_t *s, const hc_problem_t *pb, double alpha)
{
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    o.alpha = alpha;
    hc_sim_result_t *r = NULL;
    int rc = hc_simulate(s, pb, &o, &r);
    if (rc != HC_OK)
        fprintf(stderr, "simulate %s: %s\n", s->algorithm, hc_error_detail());
    assert_int_equal(rc, HC_OK);
    double m = r->makespan;
    hc_sim_result_destroy(r);
    return m;
}

/* compute + validate + replay; returns the schedule (caller frees) */
static hc_schedule_t *run_checked(const hc_problem_t *pb, const char *algo,
                                  const hc_algo_opts_t *opts, const char *what)
{
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_compute(pb, algo, opts, &s);
    if (rc != HC_OK)
        fprintf(stderr, "%s %s: %s\n", what, algo, hc_error_detail());
    assert_int_equal(rc, HC_OK);
    rc = hc_schedule_validate(s, pb);
    if (rc != HC_OK)
        fprintf(stderr, "%s %s: %s\n", what, algo, hc_error_detail());
    assert_int_equal(rc, HC_OK);
    double sm = sim_makespan(s, pb, 0);
    if (!close_rel(sm, s->makespan, 1e-9))
        fprintf(stderr, "%s %s: planned %.17g simulated %.17g\n", what, algo, s->makespan, sm);
    assert_true(close_rel(sm, s->makespan, 1e-9));
    assert_true(s->makespan >= s->lower_bound * (1 - 1e-9));
    return s;
}

static hc_matrix_t *random_costs(hc_rng_t *rng, uint32_t P, double lo, double hi)
{
    hc_matrix_t *m = NULL;
    assert_int_equal(hc_matrix_create(P, P, 0, &m), HC_OK);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j)
                HC_AT(m, i, j) = hc_rng_range(rng, lo, hi);
    return m;
}

/* P nodes in C labelled clusters: intra 50 us / 1 Gb/s, inter 1-15 ms / 1-100 MB/s. */
static hc_platform_t *cluster_platform(hc_rng_t *rng, uint32_t P, uint32_t C)
{
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_create(P, 5e-5, 1.25e8, &p), HC_OK);
    double *lat = calloc((size_t)C * C, sizeof *lat), *bw = calloc((size_t)C * C, sizeof *bw);
    assert_non_null(lat);
    assert_non_null(bw);
    for (uint32_t a = 0; a < C; a++)
        for (uint32_t b = 0; b < C; b++) {
            lat[a * C + b] = hc_rng_range(rng, 1e-3, 15e-3);
            bw[a * C + b] = hc_rng_range(rng, 1e6, 1e8);
        }
    for (uint32_t i = 0; i < P; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%u", i % C);
        assert_int_equal(hc_platform_set_cluster(p, i, name), HC_OK);
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j && i % C != j % C)
                assert_int_equal(hc_platform_set_link(p, i, j, lat[(i % C) * C + j % C],
                                                      bw[(i % C) * C + j % C]),
                                 HC_OK);
    free(lat);
    free(bw);
    return p;
}

static void test_all_bcast_algorithms(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 42);
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    static const uint32_t Ps[] = {2, 3, 7, 16, 33};
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        /* heterogeneous matrix, no platform */
        hc_matrix_t *c = random_costs(&rng, P, 1e-3, 1e-1);
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_BCAST);
        pb.P = P;
        pb.costs = c;
        pb.msg_bytes = 1 << 20;
        pb.root = P - 1;
        /* clustered platform */
        hc_platform_t *plat = cluster_platform(&rng, P, P < 4 ? 2 : 4);
        hc_matrix_t *pc = NULL;
        assert_int_equal(hc_cost_uniform(plat, HC_MODEL_PLOGP, 1 << 20, &pc), HC_OK);
        hc_problem_t pp;
        hc_problem_init(&pp, HC_COLL_BCAST);
        pp.P = P;
        pp.costs = pc;
        pp.msg_bytes = 1 << 20;
        pp.platform = plat;
        pp.model = HC_MODEL_PLOGP;
        pp.root = P / 2;
        for (size_t i = 0; i < hc_algo_count(); i++) {
            const hc_algo_info_t *a = hc_algo_get(i);
            if (a->coll != HC_COLL_BCAST)
                continue;
            char what[64];
            snprintf(what, sizeof what, "matrix P=%u", P);
            hc_schedule_destroy(run_checked(&pb, a->name, &opts, what));
            snprintf(what, sizeof what, "clusters P=%u", P);
            hc_schedule_destroy(run_checked(&pp, a->name, &opts, what));
            hc_algo_opts_t o2 = opts;
            o2.hierarchy = 0;
            o2.segment_bytes = 100000;
            snprintf(what, sizeof what, "clusters P=%u no hierarchy, seg 100000", P);
            hc_schedule_t *s2 = NULL;
            if (strcmp(a->name, "rounds") == 0 &&
                hc_schedule_compute(&pp, a->name, &o2, &s2) == HC_ERR_UNSUPPORTED) {
                /* 11 pieces: refused only above its 4 ceil(log2 P) */
                assert_true(P <= 3);
                continue;
            }
            hc_schedule_destroy(s2);
            hc_schedule_destroy(run_checked(&pp, a->name, &o2, what));
        }
        hc_matrix_destroy(c);
        hc_matrix_destroy(pc);
        hc_platform_destroy(plat);
    }
}

/* ---- exhaustive oracle: optimal whole-message broadcast tree under the 1-port model ----
 * Transfers are enumerated in non-decreasing start order; a transfer i -> j starts at i's
 * ready time (when it holds the message and its previous send ended). Every ASAP schedule is
 * reached that way, so the minimum is the optimum. Branch and bound on the current maximum. */
typedef struct oracle {
    uint32_t n;
    const double *c;
    double rt[8];
    int in[8];
    double best;
} oracle_t;

static void oracle_dfs(oracle_t *o, uint32_t informed, double last_start, double cur)
{
    if (cur >= o->best)
        return;
    if (informed == o->n) {
        o->best = cur;
        return;
    }
    for (uint32_t i = 0; i < o->n; i++) {
        if (!o->in[i] || o->rt[i] < last_start)
            continue;
        for (uint32_t j = 0; j < o->n; j++) {
            if (o->in[j])
                continue;
            double st = o->rt[i], end = st + o->c[i * o->n + j];
            double save = o->rt[i];
            o->in[j] = 1;
            o->rt[i] = end;
            o->rt[j] = end;
            oracle_dfs(o, informed + 1, st, cur > end ? cur : end);
            o->in[j] = 0;
            o->rt[i] = save;
        }
    }
}

static double oracle_opt(uint32_t n, const double *c, uint32_t root)
{
    oracle_t o;
    memset(&o, 0, sizeof o);
    o.n = n;
    o.c = c;
    o.in[root] = 1;
    o.best = INFINITY;
    oracle_dfs(&o, 1, 0, 0);
    return o.best;
}

static void test_oracle_gap(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 7);
    static const char *const algos[] = {"ecef", "ecef-la", "fef", "ttcc", "flat", "binomial"};
    enum { NA = sizeof algos / sizeof *algos };
    double gap_sum[NA] = {0}, gap_max[NA] = {0};
    int n_opt[NA] = {0}, trials = 0;
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    for (uint32_t n = 2; n <= 7; n++) {
        for (int t = 0; t < (n <= 5 ? 40 : 12); t++) {
            hc_matrix_t *m = random_costs(&rng, n, 1e-3, 1.0);
            double c[64];
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = 0; j < n; j++)
                    c[i * n + j] = HC_AT(m, i, j);
            hc_problem_t pb;
            hc_problem_init(&pb, HC_COLL_BCAST);
            pb.P = n;
            pb.costs = m;
            pb.msg_bytes = 1000;
            pb.root = (uint32_t)hc_rng_below(&rng, n);
            double opt = oracle_opt(n, c, pb.root);
            trials++;
            for (int a = 0; a < NA; a++) {
                hc_schedule_t *s = NULL;
                assert_int_equal(hc_schedule_compute(&pb, algos[a], &opts, &s), HC_OK);
                double gap = (s->makespan - opt) / opt;
                if (gap < -1e-9)
                    fprintf(stderr, "%s below the optimum: %.17g < %.17g (n=%u)\n", algos[a],
                            s->makespan, opt, n);
                assert_true(gap >= -1e-9);
                gap_sum[a] += gap;
                if (gap > gap_max[a])
                    gap_max[a] = gap;
                if (gap <= 1e-9)
                    n_opt[a]++;
                hc_schedule_destroy(s);
            }
            hc_matrix_destroy(m);
        }
    }
    printf("# gap to the exhaustive optimum, N = 2..7, %d random matrices (costs U[1ms,1s))\n",
           trials);
    printf("# %-10s %10s %10s %8s\n", "algorithm", "mean gap", "max gap", "optimal");
    for (int a = 0; a < NA; a++)
        printf("# %-10s %9.2f%% %9.2f%% %7.0f%%\n", algos[a], 100 * gap_sum[a] / trials,
               100 * gap_max[a], 100.0 * n_opt[a] / trials);
}

/* TTCC vs ECEF, alpha 0: exact planning, and planning on distorted costs evaluated on the
 * true ones (002 §3.3). */
static void test_ttcc_never_worse(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 11);
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    int better = 0, total = 0;
    for (int t = 0; t < 60; t++) {
        uint32_t P = 3 + (uint32_t)hc_rng_below(&rng, 40);
        hc_matrix_t *truth = random_costs(&rng, P, 1e-4, 1.0);
        double sigma = (t % 3) * 0.25;
        hc_matrix_t *plan = NULL;
        assert_int_equal(hc_matrix_clone(truth, &plan), HC_OK);
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++) {
                double f = 1 + sigma * hc_rng_normal(&rng);
                HC_AT(plan, i, j) *= f < 0.01 ? 0.01 : f;
            }
        hc_problem_t pt, pp;
        hc_problem_init(&pt, HC_COLL_BCAST);
        pt.P = P;
        pt.costs = truth;
        pt.msg_bytes = 1 << 20;
        pt.root = (uint32_t)hc_rng_below(&rng, P);
        pp = pt;
        pp.costs = plan;
        hc_schedule_t *e = run_checked(&pp, "ecef", &opts, "ttcc-vs-ecef");
        hc_schedule_t *tt = run_checked(&pp, "ttcc", &opts, "ttcc-vs-ecef");
        assert_true(tt->makespan <= e->makespan * (1 + 1e-9));
        double me = sim_makespan(e, &pt, 0), mt = sim_makespan(tt, &pt, 0);
        assert_true(mt <= me * (1 + 1e-9));
        better += mt < me * (1 - 1e-9);
        total++;
        /* the switch cost only ever delays */
        double ma = sim_makespan(tt, &pt, 0.2);
        assert_true(isfinite(ma));
        hc_schedule_destroy(e);
        hc_schedule_destroy(tt);
        hc_matrix_destroy(truth);
        hc_matrix_destroy(plan);
    }
    printf("# ttcc strictly faster than ecef (alpha 0, true costs) in %d of %d cases\n", better,
           total);
}

/* The Table 1 formulas and the 1-port predictions against the simulator on homogeneous
 * platforms. */
/* `rounds` on a homogeneous Hockney cluster (every transfer c, both ports busy for it): k
 * pieces need at least k - 1 + ceil(log2 P) rounds, and the greedy takes at most two more
 * (P = 2..40, k = 1..4 ceil(log2 P)); the replay equals the plan. Also: every node receives
 * every piece exactly once (the validator), the root sends a piece per round until all left. */
static void test_rounds_near_bound(void **state)
{
    (void)state;
    int worst = 0;
    for (uint32_t P = 2; P <= 40; P++) {
        uint32_t lg = 0;
        while ((1u << lg) < P)
            lg++;
        hc_platform_t *plat = NULL;
        assert_int_equal(hc_platform_create(P, 1e-5, 1.25e8, &plat), HC_OK);
        for (uint32_t k = 1; k <= 4 * lg; k++) {
            const uint64_t seg = 8192, m = seg * k;
            hc_matrix_t *c = NULL;
            assert_int_equal(hc_cost_uniform(plat, HC_MODEL_HOCKNEY, m, &c), HC_OK);
            hc_problem_t pb;
            hc_problem_init(&pb, HC_COLL_BCAST);
            pb.P = P;
            pb.costs = c;
            pb.msg_bytes = m;
            pb.platform = plat;
            pb.model = HC_MODEL_HOCKNEY;
            pb.root = P / 3;
            hc_algo_opts_t o;
            hc_algo_opts_init(&o);
            o.segment_bytes = seg;
            hc_schedule_t *s = run_checked(&pb, "rounds", &o, "homogeneous");
            assert_int_equal(s->n_events, (size_t)(P - 1) * k);
            const double t = s->events[0].end - s->events[0].start, lb = (k - 1 + lg) * t;
            for (size_t i = 0; i < s->n_events; i++)
                assert_true(close_rel(s->events[i].end - s->events[i].start, t, 1e-9));
            if (s->makespan < lb * (1 - 1e-9) || s->makespan > (lb + 2 * t) * (1 + 1e-9))
                fprintf(stderr, "rounds P=%u k=%u: %.6g s, bound %.6g s\n", P, k, s->makespan, lb);
            assert_true(s->makespan >= lb * (1 - 1e-9));
            assert_true(s->makespan <= (lb + 2 * t) * (1 + 1e-9));
            const int extra = (int)lround((s->makespan - lb) / t);
            worst = extra > worst ? extra : worst;
            hc_schedule_destroy(s);
            hc_matrix_destroy(c);
        }
        hc_platform_destroy(plat);
    }
    printf("# rounds: at most %d rounds above k - 1 + ceil(log2 P) (P = 2..40)\n", worst);
}

static void test_model_vs_simulator(void **state)
{
    (void)state;
    static const uint32_t Ps[] = {2, 4, 7, 8, 16, 31};
    static const double lats[] = {1e-9, 5e-5};
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    printf("# %-20s %4s %9s %12s %12s %12s\n", "algorithm", "P", "L", "table1", "1-port pred",
           "simulated");
    for (size_t li = 0; li < 2; li++)
        for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
            uint32_t P = Ps[q];
            hc_platform_t *plat = NULL;
            assert_int_equal(hc_platform_create(P, lats[li], 1.25e8, &plat), HC_OK);
            hc_matrix_t *c = NULL;
            uint64_t m = 1 << 20;
            assert_int_equal(hc_cost_uniform(plat, HC_MODEL_PLOGP, m, &c), HC_OK);
            hc_problem_t pb;
            hc_problem_init(&pb, HC_COLL_BCAST);
            pb.P = P;
            pb.costs = c;
            pb.msg_bytes = m;
            pb.platform = plat;
            pb.model = HC_MODEL_PLOGP;
            uint32_t *nodes = malloc(P * sizeof *nodes);
            assert_non_null(nodes);
            for (uint32_t i = 0; i < P; i++)
                nodes[i] = i;
            hc__plogp_t qq;
            hc__plogp_init(&qq, &pb, nodes, P);
            for (int a = 0; a < HC__BC_COUNT; a++) {
                const hc__bc_classic_t *cl = hc__bc_classics[a];
                const char *nm = cl->name;
#define IS(x) (strcmp(nm, x) == 0)
                hc_algo_opts_t o = opts;
                uint64_t seg = cl->segmented ? m / 16 : m;
                o.segment_bytes = seg;
                hc_schedule_t *s = run_checked(&pb, nm, &o, "homogeneous");
                double sim = sim_makespan(s, &pb, 0);
                hc__bc_choice_t best, table[HC__BC_COUNT];
                hc__bc_choose(&qq, seg, &best, table);
                double pred = table[a].predicted;
                double t1 = hc__bc_table1(cl, &qq, seg);
                printf("# %-20s %4u %9.2g %12.6g %12.6g %12.6g\n", nm, P, lats[li], t1, pred, sim);
                /* the 1-port prediction is the simulator on a homogeneous platform */
                assert_true(close_rel(pred, sim, 1e-9));
                /* pLogP ports (the latency overlaps the sender's next send): Table 1 is the
                 * simulator exactly, at every latency, for flat, chain, pipeline and, when P
                 * is a power of two, (segmented) binomial; binary and scatter-collect: Table 1
                 * is an upper bound; binomial: between Table 1 (floor(log2 P) rounds) and
                 * ceil(log2 P) (L + g(m)) (a sender's later sends only cost g) */
                int pow2 = (P & (P - 1)) == 0;
                if (IS("flat") || IS("segmented-flat") || IS("chain") || IS("pipeline") ||
                    ((IS("binomial") || IS("segmented-binomial")) && pow2))
                    assert_true(close_rel(t1, sim, 1e-9));
                if (IS("binary"))
                    assert_true(t1 >= sim * (1 - 1e-9));
                /* scatter-collect: an upper bound up to the pieces' rounding (m/P bytes,
                 * the first m mod P pieces one byte more) */
                if (IS("scatter-collect"))
                    assert_true(t1 >= sim * (1 - 1e-4));
                if (IS("binomial")) {
                    assert_true(sim <= ceil(log2((double)P)) * HC_AT(c, 0, 1) * (1 + 1e-9));
                    assert_true(sim >= t1 * (1 - 1e-9));
                }
                hc_schedule_destroy(s);
#undef IS
            }
            /* flat (core's cheapest-first order) on a homogeneous platform with pLogP ports:
             * L + (P-1) g(m), Table 1's formula; with Hockney ports (P-1)(L + g(m)) */
            hc_schedule_t *s = run_checked(&pb, "flat", &opts, "homogeneous");
            double Lh = hc_platform_latency(plat, 0, 1);
            assert_true(close_rel(s->makespan, Lh + (P - 1) * (HC_AT(c, 0, 1) - Lh), 1e-9));
            assert_true(
                close_rel(hc__bc_table1(&hc__classic_bcast_flat, &qq, m), s->makespan, 1e-9));
            hc_schedule_destroy(s);
            pb.model = HC_MODEL_HOCKNEY; /* the same costs, whole-duration ports */
            s = run_checked(&pb, "flat", &opts, "homogeneous hockney");
            assert_true(close_rel(s->makespan, (P - 1) * HC_AT(c, 0, 1), 1e-9));
            hc_schedule_destroy(s);
            pb.model = HC_MODEL_PLOGP;
            /* model-best never predicts worse than the algorithms it compares */
            s = run_checked(&pb, "model-best", &opts, "homogeneous");
            assert_non_null(s->extra_json);
            assert_non_null(strstr(s->extra_json, "\"predictions\""));
            hc_schedule_destroy(s);
            free(nodes);
            hc_matrix_destroy(c);
            hc_platform_destroy(plat);
        }
}

/* Issue 4's acceptance under pLogP ports: on builtin:grid5000 at 1 MiB the best hierarchical
 * broadcast (hier-auto) predicts <= 0.5 x binomial (004: >= 50 % gains). */
static void test_grid5000_plogp(void **state)
{
    (void)state;
    hc_platform_t *plat = NULL;
    assert_int_equal(hc_platform_load("builtin:grid5000", &plat), HC_OK);
    uint32_t P = hc_platform_size(plat);
    uint64_t m = 1 << 20;
    hc_matrix_t *c = NULL;
    assert_int_equal(hc_cost_uniform(plat, HC_MODEL_PLOGP, m, &c), HC_OK);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = P;
    pb.costs = c;
    pb.msg_bytes = m;
    pb.platform = plat;
    pb.model = HC_MODEL_PLOGP;
    hc_algo_opts_t opts;
    hc_algo_opts_init(&opts);
    hc_schedule_t *bi = run_checked(&pb, "binomial", &opts, "grid5000 plogp");
    hc_schedule_t *h = run_checked(&pb, "hier-auto", &opts, "grid5000 plogp");
    printf("# grid5000 1 MiB pLogP: binomial %.6g s, hier-auto %.6g s, ratio %.3f\n", bi->makespan,
           h->makespan, h->makespan / bi->makespan);
    assert_true(h->makespan <= 0.5 * bi->makespan);
    /* the same plans replayed on distorted true costs still run (overlap scaled) */
    hc_matrix_t *t = NULL;
    assert_int_equal(hc_matrix_clone(c, &t), HC_OK);
    hc_rng_t rng;
    hc_rng_seed(&rng, 9);
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            HC_AT(t, i, j) *= hc_rng_range(&rng, 0.7, 1.4);
    hc_problem_t pt = pb;
    pt.costs = t;
    assert_true(isfinite(sim_makespan(h, &pt, 0)));
    assert_true(isfinite(sim_makespan(bi, &pt, 0)));
    hc_schedule_destroy(bi);
    hc_schedule_destroy(h);
    hc_matrix_destroy(t);
    hc_matrix_destroy(c);
    hc_platform_destroy(plat);
}

static void test_hierarchy(void **state)
{
    (void)state;
    hc_rng_t rng;
    hc_rng_seed(&rng, 5);
    static const char *const rules[] = {"fef", "ecef", "ecef-la", "ecef-lat", "ecef-lamax"};
    for (int t = 0; t < 6; t++) {
        uint32_t C = 2 + (uint32_t)t, P = C * (2 + (uint32_t)t);
        hc_platform_t *plat = cluster_platform(&rng, P, C);
        hc_matrix_t *c = NULL;
        uint64_t m = t % 2 ? 1 << 20 : 1000;
        assert_int_equal(hc_cost_uniform(plat, HC_MODEL_HOCKNEY, m, &c), HC_OK);
        hc_problem_t pb;
        hc_problem_init(&pb, HC_COLL_BCAST);
        pb.P = P;
        pb.costs = c;
        pb.msg_bytes = m;
        pb.platform = plat;
        pb.root = (uint32_t)hc_rng_below(&rng, P);
        hc_algo_opts_t on, off;
        hc_algo_opts_init(&on);
        on.hierarchy = 1;
        hc_algo_opts_init(&off);
        off.hierarchy = 0;
        double best = INFINITY;
        for (size_t r = 0; r < sizeof rules / sizeof *rules; r++) {
            hc_schedule_t *s = run_checked(&pb, rules[r], &on, "hierarchy");
            assert_non_null(s->extra_json);
            assert_non_null(strstr(s->extra_json, "\"hierarchy\""));
            if (s->makespan < best)
                best = s->makespan;
            hc_schedule_destroy(s);
            s = run_checked(&pb, rules[r], &off, "no hierarchy");
            assert_null(s->extra_json);
            hc_schedule_destroy(s);
        }
        hc_schedule_t *s = run_checked(&pb, "hier-auto", &on, "hierarchy");
        assert_true(s->makespan <= best * (1 + 1e-9));
        hc_schedule_destroy(s);
        hc_matrix_destroy(c);
        hc_platform_destroy(plat);
    }
    /* no platform: hierarchy = 1 is refused with a clear error, auto falls back */
    hc_rng_seed(&rng, 9);
    hc_matrix_t *c = random_costs(&rng, 5, 1e-3, 1e-2);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 5;
    pb.costs = c;
    pb.msg_bytes = 100;
    hc_algo_opts_t on;
    hc_algo_opts_init(&on);
    on.hierarchy = 1;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(&pb, "ecef", &on, &s),
                     HC_OK); /* no platform: node level */
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

/* The TTCC replay on a hand-made case: T0 = 0->1->2 with a slow 1->2, T1 = 0->2->1. Node 2 gets
 * the first copy from the root's T1 send (the later T0 sender loses the switch), node 1's T1
 * copy is skipped; alpha adds alpha x mean cost once, at node 2's switch. */
static void test_ttcc_replay_semantics(void **state)
{
    (void)state;
    double cv[9] = {0, 1, 2, 1, 0, 10, 1, 1, 0};
    hc_matrix_t *c = NULL;
    assert_int_equal(hc_matrix_create(3, 3, 0, &c), HC_OK);
    memcpy(c->v, cv, sizeof cv);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 3;
    pb.costs = c;
    pb.msg_bytes = 100;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_create(HC_COLL_BCAST, 3, &s), HC_OK);
    assert_int_equal(hc_schedule_alloc_trees(s, 1), HC_OK);
    s->parent[1] = 0;
    s->parent[2] = 1;
    s->parent2[2] = 0;
    s->parent2[1] = 2;
    hc_event_t e[4] = {{0, 1, 0, 1, 100, 0, 0, 0},
                       {1, 2, 1, 11, 100, 0, 0, 0},
                       {0, 2, 1, 3, 100, 0, 0, 1},
                       {2, 1, 11, 12, 100, 0, 0, 1}};
    for (int i = 0; i < 4; i++)
        assert_int_equal(hc_schedule_add_event(s, &e[i]), HC_OK);
    hc_schedule_finish(s);
    assert_true(close_rel(s->makespan, 3, 1e-12));
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    hc_sim_result_t *r = NULL;
    assert_int_equal(hc_simulate(s, &pb, &o, &r), HC_OK);
    assert_true(close_rel(r->makespan, 3, 1e-12));
    assert_true(close_rel(r->finish[1], 1, 1e-12));
    assert_true(close_rel(r->finish[2], 3, 1e-12));
    assert_true(isnan(r->events[1].start)); /* the T0 sender lost the switch */
    assert_true(isnan(r->events[3].start)); /* node 1 already holds: skipped */
    assert_true(close_rel(r->events[2].end, 3, 1e-12));
    hc_sim_result_destroy(r);
    o.alpha = 0.5;
    assert_int_equal(hc_simulate(s, &pb, &o, &r), HC_OK);
    double mean = (1 + 2 + 1 + 10 + 1 + 1) / 6.0;
    assert_true(close_rel(r->makespan, 3 + 0.5 * mean, 1e-12));
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_matrix_destroy(c);
}

/* ecef-laT, which differed from ecef-lat by case only, is now ecef-lamax; the old name stays an
 * alias of the registry (CLI --algo, HETCOLL_ALGO_BCAST) and of the edge-rule API. */
static void test_ecef_lamax_alias(void **state)
{
    (void)state;
    const hc_algo_info_t *a = NULL, *b = NULL;
    assert_int_equal(hc_algo_find(HC_COLL_BCAST, "ecef-lamax", &a), HC_OK);
    assert_int_equal(hc_algo_find(HC_COLL_BCAST, "ecef-laT", &b), HC_OK);
    assert_ptr_equal(a, b);
    assert_string_equal(b->name, "ecef-lamax");
    assert_int_equal(hc_algo_find(HC_COLL_REDUCE, "ecef-laT", &b), HC_ERR_UNKNOWN);
    int listed = 0;
    for (size_t i = 0; i < hc_algo_count(); i++) {
        assert_string_not_equal(hc_algo_get(i)->name, "ecef-laT");
        listed += strcmp(hc_algo_get(i)->name, "ecef-lamax") == 0;
    }
    assert_int_equal(listed, 1);
    double c[9] = {INFINITY, 1, 4, 1, INFINITY, 1, 4, 1, INFINITY}, T[3] = {0, 5, 1};
    uint32_t f1[2], t1[2], f2[2], t2[2];
    assert_int_equal(hc_bcast_edge_order("ecef-lamax", 3, c, T, 0, f1, t1), HC_OK);
    assert_int_equal(hc_bcast_edge_order("ecef-laT", 3, c, T, 0, f2, t2), HC_OK);
    assert_memory_equal(f1, f2, sizeof f1);
    assert_memory_equal(t1, t2, sizeof t1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ecef_lamax_alias),      cmocka_unit_test(test_all_bcast_algorithms),
        cmocka_unit_test(test_rounds_near_bound),     cmocka_unit_test(test_oracle_gap),
        cmocka_unit_test(test_ttcc_never_worse),      cmocka_unit_test(test_model_vs_simulator),
        cmocka_unit_test(test_grid5000_plogp),        cmocka_unit_test(test_hierarchy),
        cmocka_unit_test(test_ttcc_replay_semantics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
