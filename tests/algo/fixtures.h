/* The algorithm fixtures shared by the registry-wide test (test_registry.c) and the golden table
 * (golden_table.c): every registered algorithm runs on every fixture of its collective.
 * Header-only, for one translation unit. Define FX_OK(expr) (expr must return HC_OK) and
 * FX_TRUE(cond) before including to fail the way the includer fails; the defaults print the
 * failing expression and exit(2).
 *
 * fx_setup() builds the fixtures: first those seeded 2026 (the registry test's original set, in
 * its order), then the extra ones seeded 2027 (pLogP grids, sender-receiver reduce costs).
 * Appending fixtures is fine; changing existing ones changes the golden table. */
#ifndef HETCOLL_TEST_FIXTURES_H
#define HETCOLL_TEST_FIXTURES_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/hetcoll.h"

#ifndef FX_OK
#define FX_OK(expr)                                                                                \
    do {                                                                                           \
        int fx_rc_ = (expr);                                                                       \
        if (fx_rc_ != HC_OK) {                                                                     \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, hc_error_detail());      \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)
#endif
#ifndef FX_TRUE
#define FX_TRUE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: %s is false\n", __FILE__, __LINE__, #cond);                    \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)
#endif

#define FX_MAX 96
#define FX_MAX_P 128 /* no fixture has more nodes */

typedef struct {
    char name[96];
    hc_problem_t pb;
    hc_matrix_t *costs, *sizes;
    hc_platform_t *plat;
} fixture_t;

static fixture_t fx[FX_MAX];
static size_t n_fx;

static fixture_t *new_fixture(hc_coll_t coll, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static fixture_t *new_fixture(hc_coll_t coll, const char *fmt, ...)
{
    FX_TRUE(n_fx < FX_MAX);
    fixture_t *f = &fx[n_fx++];
    memset(f, 0, sizeof *f);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->name, sizeof f->name, fmt, ap);
    va_end(ap);
    hc_problem_init(&f->pb, coll);
    return f;
}

/* P x P costs: uniform `lo` when hi <= lo, else uniform in [lo, hi); a fraction `zero` of the
 * off-diagonal entries set to 0. */
static hc_matrix_t *random_costs(hc_rng_t *rng, uint32_t rows, uint32_t cols, double lo, double hi,
                                 double zero, int square)
{
    hc_matrix_t *m = NULL;
    FX_OK(hc_matrix_create(rows, cols, 0, &m));
    for (uint32_t i = 0; i < rows; i++)
        for (uint32_t j = 0; j < cols; j++) {
            if (square && i == j)
                continue;
            double v = hi > lo ? hc_rng_range(rng, lo, hi) : lo;
            if (zero > 0 && hc_rng_uniform(rng) < zero)
                v = 0;
            HC_AT(m, i, j) = v;
        }
    return m;
}

static void add_alltoall(hc_rng_t *rng)
{
    static const uint32_t Ps[] = {2, 3, 7, 16, 40};
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f = new_fixture(HC_COLL_ALLTOALL, "alltoall uniform P=%u", P);
        f->costs = random_costs(rng, P, P, 1e-3, 0, 0, 1);
        f->pb.P = P;
        f->pb.msg_bytes = 1024;
        f->pb.costs = f->costs;

        f = new_fixture(HC_COLL_ALLTOALL, "alltoall heterogeneous P=%u", P);
        f->costs = random_costs(rng, P, P, 1e-4, 5e-2, 0, 1);
        f->pb.P = P;
        f->pb.costs = f->costs;

        if (P >= 3) {
            f = new_fixture(HC_COLL_ALLTOALL, "alltoall zero entries + sizes P=%u", P);
            f->costs = random_costs(rng, P, P, 1e-4, 1e-2, 0.3, 1);
            FX_OK(hc_matrix_create(P, P, 0, &f->sizes));
            for (size_t x = 0; x < (size_t)P * P; x++)
                f->sizes->v[x] = f->costs->v[x] > 0 ? floor(f->costs->v[x] * 1e8) : 0;
            f->pb.P = P;
            f->pb.costs = f->costs;
            f->pb.sizes = f->sizes;
        }
    }
    /* from a platform with two clusters */
    uint32_t P = 12;
    fixture_t *f = new_fixture(HC_COLL_ALLTOALL, "alltoall platform 2 clusters P=%u", P);
    FX_OK(hc_platform_create(P, 5e-5, 1e9, &f->plat));
    for (uint32_t i = 0; i < P; i++) {
        FX_OK(hc_platform_set_cluster(f->plat, i, i < 5 ? "a" : "b"));
        for (uint32_t j = 0; j < P; j++)
            if (i != j && (i < 5) != (j < 5))
                FX_OK(hc_platform_set_link(f->plat, i, j, 1e-2, 1e7));
    }
    FX_OK(hc_cost_uniform(f->plat, HC_MODEL_HOCKNEY, 1 << 20, &f->costs));
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.platform = f->plat;
    f->pb.msg_bytes = 1 << 20;
}

/* A platform of P nodes in `C` clusters (labels "c0".."c{C-1}", node i in cluster i % C),
 * intra links fast, inter links slow and varied. */
static hc_platform_t *cluster_platform(hc_rng_t *rng, uint32_t P, uint32_t C)
{
    hc_platform_t *p = NULL;
    FX_OK(hc_platform_create(P, 5e-5, 1.25e8, &p));
    for (uint32_t i = 0; i < P; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%u", i % C);
        FX_OK(hc_platform_set_cluster(p, i, name));
    }
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = i + 1; j < P; j++) {
            if (i % C == j % C)
                continue;
            double lat = hc_rng_range(rng, 2e-3, 1.2e-2), bw = hc_rng_range(rng, 1e7, 1e8);
            FX_OK(hc_platform_set_link(p, i, j, lat, bw));
            FX_OK(hc_platform_set_link(p, j, i, lat, bw));
        }
    return p;
}

static void add_bcast(hc_rng_t *rng)
{
    static const uint32_t Ps[] = {2, 5, 9, 17, 33};
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f = new_fixture(HC_COLL_BCAST, "bcast uniform P=%u root 0", P);
        f->costs = random_costs(rng, P, P, 2e-3, 0, 0, 1);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.msg_bytes = 1 << 20;

        f = new_fixture(HC_COLL_BCAST, "bcast heterogeneous P=%u root %u", P, P - 1);
        f->costs = random_costs(rng, P, P, 1e-3, 3e-2, 0, 1);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.root = P - 1;
        f->pb.msg_bytes = 1 << 20;

        uint32_t C = P < 4 ? 2 : 3;
        uint64_t m = q % 2 ? 65536 : 1 << 20;
        f = new_fixture(HC_COLL_BCAST, "bcast platform %u clusters P=%u root %u m=%llu", C, P,
                        P / 2, (unsigned long long)m);
        f->plat = cluster_platform(rng, P, C);
        FX_OK(hc_cost_uniform(f->plat, HC_MODEL_HOCKNEY, m, &f->costs));
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.platform = f->plat;
        f->pb.msg_bytes = m;
        f->pb.root = P / 2;
    }
    uint32_t P = 10;
    fixture_t *f = new_fixture(HC_COLL_BCAST, "bcast platform pLogP no clusters P=%u root 3", P);
    FX_OK(hc_platform_create(P, 1e-4, 1e8, &f->plat));
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++)
            if (i != j) {
                /* Drawn in sequence (bandwidth first, the order gcc happened to use when the
                 * golden table was made): C leaves the order of arguments unspecified, and
                 * clang evaluates them the other way. */
                double bw = hc_rng_range(rng, 1e7, 1e9), lat = hc_rng_range(rng, 1e-4, 1e-2);
                FX_OK(hc_platform_set_link(f->plat, i, j, lat, bw));
            }
    FX_OK(hc_cost_uniform(f->plat, HC_MODEL_PLOGP, 1 << 20, &f->costs));
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.platform = f->plat;
    f->pb.model = HC_MODEL_PLOGP;
    f->pb.msg_bytes = 1 << 20;
    f->pb.root = 3;
}

/* Constant rows C[i][j] = t(i) (003's model); t drawn from `levels` values to force ties. */
static hc_matrix_t *reduce_costs(hc_rng_t *rng, uint32_t P, int levels, double *t)
{
    hc_matrix_t *m = NULL;
    FX_OK(hc_matrix_create(P, P, 0, &m));
    for (uint32_t i = 0; i < P; i++) {
        t[i] = levels > 0 ? (double)(1 + hc_rng_below(rng, (uint64_t)levels))
                          : hc_rng_range(rng, 0.5, 4);
        for (uint32_t j = 0; j < P; j++)
            if (i != j)
                HC_AT(m, i, j) = t[i];
    }
    return m;
}

static void add_reduce(hc_rng_t *rng)
{
    static const uint32_t Ps[] = {2, 3, 6, 9, 12};
    double t[16];
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f = new_fixture(HC_COLL_REDUCE, "reduce random t P=%u root 0", P);
        f->costs = reduce_costs(rng, P, 0, t);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.msg_bytes = 4096;

        f = new_fixture(HC_COLL_REDUCE, "reduce ties (3 levels) P=%u root %u", P, P - 1);
        f->costs = reduce_costs(rng, P, 3, t);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.root = P - 1;
    }
    uint32_t P = 8;
    fixture_t *f = new_fixture(HC_COLL_REDUCE, "reduce all equal P=%u root 2", P);
    f->costs = reduce_costs(rng, P, 1, t);
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.root = 2;

    f = new_fixture(HC_COLL_REDUCE, "reduce platform send times P=%u root 1", P);
    FX_OK(hc_platform_create(P, 1e-4, 1e8, &f->plat));
    f->costs = reduce_costs(rng, P, 4, t);
    for (uint32_t i = 0; i < P; i++)
        FX_OK(hc_platform_set_send_time(f->plat, i, t[i]));
    f->pb.P = P;
    f->pb.costs = f->costs;
    f->pb.platform = f->plat;
    f->pb.root = 1;
}

static void add_redistribute(hc_rng_t *rng)
{
    static const struct {
        uint32_t n1, n2, k;
        double beta, zero;
    } cases[] = {
        {1, 1, 1, 0, 0},      {2, 3, 1, 0.5, 0}, {2, 3, 2, 0, 0.3},  {5, 4, 3, 1, 0.2},
        {5, 4, 4, 0.1, 0},    {8, 8, 8, 1, 0.5}, {8, 8, 3, 0.05, 0}, {12, 10, 5, 1, 0.4},
        {12, 10, 20, 0, 0.1}, {3, 9, 2, 2, 0.1},
    };
    for (size_t q = 0; q < sizeof cases / sizeof *cases; q++) {
        fixture_t *f = new_fixture(HC_COLL_REDISTRIBUTE, "redistribute %ux%u k=%u beta=%g",
                                   cases[q].n1, cases[q].n2, cases[q].k, cases[q].beta);
        f->costs = random_costs(rng, cases[q].n1, cases[q].n2, 0, 0, 0, 0);
        for (size_t x = 0; x < (size_t)cases[q].n1 * cases[q].n2; x++)
            f->costs->v[x] =
                hc_rng_uniform(rng) < cases[q].zero ? 0 : (double)(1 + hc_rng_below(rng, 10)) * 0.5;
        f->pb.P = cases[q].n1 + cases[q].n2;
        f->pb.n1 = cases[q].n1;
        f->pb.n2 = cases[q].n2;
        f->pb.k = cases[q].k;
        f->pb.beta = cases[q].beta;
        f->pb.costs = f->costs;
    }
    /* weights where preemption pays: one heavy edge per node plus light ones */
    fixture_t *f = new_fixture(HC_COLL_REDISTRIBUTE, "redistribute preemption 3x3 k=2 beta=0.1");
    static const double w[9] = {10, 1, 1, 1, 10, 1, 1, 1, 10};
    f->costs = random_costs(rng, 3, 3, 0, 0, 0, 0);
    memcpy(f->costs->v, w, sizeof w);
    f->pb.P = 6;
    f->pb.n1 = f->pb.n2 = 3;
    f->pb.k = 2;
    f->pb.beta = 0.1;
    f->pb.costs = f->costs;
    /* real-valued heterogeneous weights */
    f = new_fixture(HC_COLL_REDISTRIBUTE, "redistribute real weights 6x7 k=4 beta=0.3");
    f->costs = random_costs(rng, 6, 7, 0.01, 3, 0.15, 0);
    f->pb.P = 13;
    f->pb.n1 = 6;
    f->pb.n2 = 7;
    f->pb.k = 4;
    f->pb.beta = 0.3;
    f->pb.costs = f->costs;
}

/* Extra fixtures (seed 2027): the grid broadcast under pLogP ports, sender-receiver reduce
 * costs from a cluster platform, and a larger heterogeneous exchange. */
static void add_extra(hc_rng_t *rng)
{
    static const struct {
        uint32_t P, C;
        uint64_t m;
    } grids[] = {{9, 3, 1 << 20}, {17, 3, 65536}, {24, 4, 1 << 20}};
    for (size_t q = 0; q < sizeof grids / sizeof *grids; q++) {
        uint32_t P = grids[q].P;
        fixture_t *f = new_fixture(HC_COLL_BCAST, "bcast pLogP %u clusters P=%u root %u m=%llu",
                                   grids[q].C, P, P / 3, (unsigned long long)grids[q].m);
        f->plat = cluster_platform(rng, P, grids[q].C);
        FX_OK(hc_cost_uniform(f->plat, HC_MODEL_PLOGP, grids[q].m, &f->costs));
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.platform = f->plat;
        f->pb.model = HC_MODEL_PLOGP;
        f->pb.msg_bytes = grids[q].m;
        f->pb.root = P / 3;
    }
    static const uint32_t Ps[] = {5, 8};
    for (size_t q = 0; q < sizeof Ps / sizeof *Ps; q++) {
        uint32_t P = Ps[q];
        fixture_t *f =
            new_fixture(HC_COLL_REDUCE, "reduce pair costs 2 clusters P=%u root %u", P, P - 1);
        f->plat = cluster_platform(rng, P, 2);
        FX_OK(hc_matrix_create(P, P, 0, &f->costs));
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                if (i != j)
                    HC_AT(f->costs, i, j) = hc_cost_p2p(f->plat, HC_MODEL_HOCKNEY, i, j, 1 << 18);
        f->pb.P = P;
        f->pb.costs = f->costs;
        f->pb.platform = f->plat;
        f->pb.msg_bytes = 1 << 18;
        f->pb.root = P - 1;
    }
    uint32_t P = 64;
    fixture_t *f = new_fixture(HC_COLL_ALLTOALL, "alltoall heterogeneous P=%u", P);
    f->costs = random_costs(rng, P, P, 1e-4, 5e-2, 0.05, 1);
    f->pb.P = P;
    f->pb.costs = f->costs;
}

/* Build every fixture (see the top of this file). Returns 0, or -1 after printing the first
 * fixture that hc_problem_check rejects. */
static int fx_setup(void)
{
    hc_rng_t rng;
    hc_rng_seed(&rng, 2026);
    n_fx = 0;
    add_alltoall(&rng);
    add_bcast(&rng);
    add_reduce(&rng);
    add_redistribute(&rng);
    hc_rng_seed(&rng, 2027);
    add_extra(&rng);
    for (size_t i = 0; i < n_fx; i++) {
        if (hc_problem_check(&fx[i].pb) != HC_OK) {
            fprintf(stderr, "fixture %s: %s\n", fx[i].name, hc_error_detail());
            return -1;
        }
    }
    return 0;
}

static void fx_teardown(void)
{
    for (size_t i = 0; i < n_fx; i++) {
        hc_matrix_destroy(fx[i].costs);
        hc_matrix_destroy(fx[i].sizes);
        hc_platform_destroy(fx[i].plat);
    }
    n_fx = 0;
}

#endif
