/* Flow-model replay benchmark: wall and CPU seconds of hc_simulate (HC_NETWORK_FLOW, SimGrid
 * SMPI's default model) on the long pipelines and piece exchanges the MPI runtime ranks its
 * variants with, and each replay's makespan to 17 digits, so that two builds of the engine can
 * be compared for speed and for their results (a change of rounding can move a replay's
 * makespan where transfers end together: docs/design.md). Prints a table (never asserted; the
 * machine may be shared: compare builds run one after the other).
 *
 *   bench_flow [platform-dir] [case]
 *
 * platform-dir: bench/grid/platforms (the default, from the source tree's root); case: run
 * only the cases whose name contains it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetcoll/hetcoll.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    const char *name;
    const char *platform; /* a spec, or a file under platform-dir when it ends in .json */
    hc_coll_t coll;
    const char *algo;
    uint64_t bytes;   /* the message; alltoall: per pair (x 10 from ranks r % 5 == 0) */
    uint64_t segment; /* hc_algo_opts_t.segment_bytes */
    uint32_t ramp;    /* hc_algo_opts_t.ramp_pieces */
    uint32_t window;  /* hc_schedule_t.window (0: the rule) */
    uint32_t split;   /* reduce: hc_schedule_t.split_bytes between clusters (0: none) */
} bench_case_t;

#define SITES "random:sites:sites=3:nodes=21:interleave=1"

static const bench_case_t cases[] = {
    {"sites-bcast-16M-8K-rule", SITES, HC_COLL_BCAST, "multitree", 16u << 20, 8192, 0, 0, 0},
    {"sites-bcast-16M-8K-r16-w76", SITES, HC_COLL_BCAST, "multitree", 16u << 20, 8192, 16, 76, 0},
    {"sites-bcast-16M-8K-r8-w128", SITES, HC_COLL_BCAST, "multitree", 16u << 20, 8192, 8, 128, 0},
    {"sites-bcast-1M-8K-r16-w38", SITES, HC_COLL_BCAST, "multitree", 1u << 20, 8192, 16, 38, 0},
    {"grid5000-bcast-16M-9000-r8", "grid5000-links.json", HC_COLL_BCAST, "multitree", 16u << 20,
     9000, 8, 0, 0},
    {"grid5000-bcast-16M-32K", "grid5000-links.json", HC_COLL_BCAST, "multitree", 16u << 20, 32768,
     0, 0, 0},
    {"sites-a2a-skewed-64K-8K", SITES, HC_COLL_ALLTOALL, "pieces-cross", 65536, 8192, 0, 0, 0},
    {"sites-a2a-skewed-64K-8K-w16", SITES, HC_COLL_ALLTOALL, "pieces-cross", 65536, 8192, 0, 16, 0},
    /* the planner's longest reduction replay: stripes in 9360 B pieces, 3468 B across sites */
    {"grid5000-reduce-16M-stripes-split", "grid5000-links.json", HC_COLL_REDUCE, "stripes",
     16u << 20, 9360, 0, 0, 3468},
};

static int run(const bench_case_t *c, const char *dir)
{
    char path[1024];
    const size_t n = strlen(c->platform);
    if (n > 5 && strcmp(c->platform + n - 5, ".json") == 0)
        snprintf(path, sizeof path, "%s/%s", dir, c->platform);
    else
        snprintf(path, sizeof path, "%s", c->platform);
    hc_platform_t *p = NULL;
    hc_matrix_t *sizes = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = NULL;
    hc_sim_result_t *r = NULL;
    int rc = hc_platform_load(path, &p);
    const uint32_t P = rc == HC_OK ? hc_platform_size(p) : 0;
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, c->coll);
    sp.platform = p;
    if (rc == HC_OK && c->coll == HC_COLL_ALLTOALL) {
        rc = hc_matrix_create(P, P, 0.0, &sizes);
        for (uint32_t i = 0; rc == HC_OK && i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                HC_AT(sizes, i, j) = i == j ? 0.0 : (double)c->bytes * (i % 5 == 0 ? 10 : 1);
        sp.sizes = sizes;
    } else {
        sp.msg_bytes = c->bytes;
    }
    if (rc == HC_OK)
        rc = hc_problem_create(&sp, &pb);
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.segment_bytes = c->segment;
    o.ramp_pieces = c->ramp;
    if (rc == HC_OK)
        rc = hc_schedule_compute(pb, c->algo, &o, &s);
    if (rc == HC_OK && c->coll == HC_COLL_REDUCE) {
        s->segment_bytes = c->segment;
        s->split_bytes = c->split;
        s->piece_groups = c->split ? malloc(P * sizeof *s->piece_groups) : NULL;
        for (uint32_t v = 0; s->piece_groups && v < P; v++)
            s->piece_groups[v] = (int32_t)hc_platform_cluster_of(p, v);
        if (c->split && !s->piece_groups)
            rc = HC_ERR_NOMEM;
    }
    if (rc == HC_OK) {
        s->window = c->window;
        hc_sim_opts_t so;
        hc_sim_opts_init(&so);
        so.network = HC_NETWORK_FLOW;
        so.smpi_factors = 1;
        const double w0 = now();
        const clock_t c0 = clock();
        rc = hc_simulate(s, pb, &so, &r);
        const double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC, wall = now() - w0;
        if (rc == HC_OK)
            printf("%-30s %8llu %22.17g %8.3f %8.3f\n", c->name,
                   (unsigned long long)(c->coll == HC_COLL_ALLTOALL ? hc_schedule_piece_count(s)
                                                                    : s->n_events),
                   r->makespan, wall, cpu);
    }
    if (rc != HC_OK)
        fprintf(stderr, "bench_flow: %s: %s\n", c->name, hc_error_detail());
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_matrix_destroy(sizes);
    hc_platform_destroy(p);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "bench/grid/platforms";
    const char *only = argc > 2 ? argv[2] : NULL;
    int failed = 0;
    printf("# flow-model replays under SMPI's default model (hc_simulate, HC_NETWORK_FLOW)\n");
    printf("%-30s %8s %22s %8s %8s\n", "case", "xfers", "makespan_s", "wall_s", "cpu_s");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (!only || strstr(cases[i].name, only))
            failed |= run(&cases[i], dir) != HC_OK;
    return failed;
}
