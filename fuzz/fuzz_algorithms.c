/* Property harness: a small problem decoded from the input, then a registered algorithm of its
 * collective: a schedule it returns must be valid, not below its lower bound,
 * replay in the simulator to its own makespan (no error), and survive a JSON round trip.
 * One algorithm per input (the last byte picks it among its collective's), so that inputs are
 * cheap enough for millions of executions.
 * Bytes: collective, P (2..9; redistribution n1, n2 1..5, k), root, then one cost byte per
 * pair (0 = no message for exchanges and redistribution; costs 0.5 ms steps). */
#include <math.h>
#include <stdio.h>

#include "fuzz_common.h"
#include "hetcoll/hetcoll.h"

#define FAIL(what)                                                                                 \
    do {                                                                                           \
        fprintf(stderr, "fuzz_algorithms: %s %s: %s (%s)\n", hc_coll_name(coll), info->name, what, \
                hc_error_detail());                                                                \
        abort();                                                                                   \
    } while (0)

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    hc_problem_t pb;
    hc_coll_t coll = (hc_coll_t)(data[0] % 4);
    hc_problem_init(&pb, coll);
    uint32_t rows, cols;
    if (coll == HC_COLL_REDISTRIBUTE) {
        pb.n1 = 1 + data[1] % 5;
        pb.n2 = 1 + (data[1] / 5) % 5;
        pb.k = 1 + data[2] % 6;
        pb.beta = (data[3] % 4) * 0.25;
        pb.P = pb.n1 + pb.n2;
        rows = pb.n1;
        cols = pb.n2;
    } else {
        pb.P = 2 + data[1] % 8;
        pb.root = data[2] % pb.P;
        pb.msg_bytes = 1024;
        rows = cols = pb.P;
    }
    hc_matrix_t *C = NULL;
    if (hc_matrix_create(rows, cols, 0.0, &C) != HC_OK)
        return 0;
    size_t at = 4;
    for (uint32_t i = 0; i < rows; i++)
        for (uint32_t j = 0; j < cols; j++) {
            uint8_t b = at < size ? data[at++] : (uint8_t)(1 + i + j);
            double v = (double)b * 5e-4;
            if (coll == HC_COLL_BCAST || coll == HC_COLL_REDUCE)
                v = (double)(1 + b) * 5e-4; /* every pair can talk */
            HC_AT(C, i, j) = coll != HC_COLL_REDISTRIBUTE && i == j ? 0.0 : v;
        }
    pb.costs = C;
    double bound = 0;
    if (hc_problem_check(&pb) != HC_OK || hc_lower_bound(&pb, &bound) != HC_OK) {
        hc_matrix_destroy(C);
        return 0;
    }
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.time_limit_s = 0.002; /* searches stop early: many inputs per second */
    if (coll == HC_COLL_BCAST) {
        o.ramp_pieces = data[3] % 10;              /* multitree's ramped pieces */
        o.tail_direct_pieces = data[3] / 10u % 8u; /* and its tail on the direct tree */
    }
    size_t n_coll = 0, pick;
    for (size_t a = 0; a < hc_algo_count(); a++)
        n_coll += hc_algo_get(a)->coll == coll;
    pick = n_coll ? data[size - 1] % n_coll : 0;
    for (size_t a = 0, k = 0; a < hc_algo_count(); a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        if (info->coll != coll || k++ != pick)
            continue;
        hc_schedule_t *s = NULL, *r = NULL;
        if (hc_schedule_compute(&pb, info->name, &o, &s) != HC_OK)
            continue; /* refusing a problem is allowed (with a detail) */
        if (hc_schedule_validate(s, &pb) != HC_OK)
            FAIL("invalid schedule");
        /* The problem's bound (hc_lower_bound) holds for whole-message schedules; segmented
         * broadcasts report their own (src/sched/bound_bcast.c). */
        const double lb = isfinite(s->lower_bound) ? s->lower_bound : bound;
        if (s->makespan < lb * (1 - 1e-9) - 1e-12)
            FAIL("makespan below the lower bound");
        hc_sim_result_t *res = NULL;
        if (hc_simulate(s, &pb, NULL, &res) != HC_OK)
            FAIL("replay failed");
        if (s->parent2 == NULL && !close_to(res->makespan, s->makespan))
            FAIL("replay differs from the plan"); /* TTCC races two trees: may end earlier */
        hc_sim_result_destroy(res);
        char *json = NULL;
        if (hc_schedule_to_json(s, &json) != HC_OK || hc_schedule_parse(json, "rt", &r) != HC_OK ||
            r->n_events != s->n_events || !close_to(r->makespan, s->makespan))
            FAIL("JSON round trip");
        free(json);
        hc_schedule_destroy(r);
        hc_schedule_destroy(s);
    }
    hc_matrix_destroy(C);
    return 0;
}
