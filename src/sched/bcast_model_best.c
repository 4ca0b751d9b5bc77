/* `model-best` broadcast: the per-cluster algorithm choice of 004 §5.1 (Barchet-Steffenel &
 * Mounie), ranked on the real problem. Every classic of Table 1 is a candidate, the segmented
 * ones with every segment size s = m/2^i (at most HC__MAX_SEG segments, or the --segment size);
 * each candidate is timed on the problem itself (a dry run of the broadcast builder with the
 * problem's heterogeneous costs and port rule, which is exactly the makespan the classic's
 * schedule gets and the simulator replays) and the fastest is built.
 * The note also gives, per classic, the two predictions of the paper's homogeneous reading
 * (L = mean latency, g(x) = mean gap over the nodes): the Table 1 formula (table1_s) and the
 * classic replayed on that virtual homogeneous cluster (predicted_s). They no longer decide: on
 * a heterogeneous platform one averaged model can rank a 4x slower tree first (on
 * random:grid:clusters=8:nodes=32:seed=3 it chose a 1.30 s pipeline over a 0.44 s binomial
 * tree); see docs/design.md.
 * Complexity: O(A * log m * P * k) builder steps (k <= HC__MAX_SEG segments).
 * Guarantee: never slower on the problem (up to a relative 1e-9) than any classic of algos.def
 * with any of the segment sizes searched, in particular than the classics' own registry rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

/* Makespan of classic a with segment size seg on pb itself (ranks = nodes), a dry run of the
 * builder: no events are kept. */
static int time_on_problem(const hc_problem_t *pb, const uint32_t *nodes, const hc__bc_classic_t *a,
                           uint64_t seg, double *t)
{
    uint32_t k = hc__bc_nseg(a, pb->P, pb->msg_bytes, seg);
    hc__bb_t b;
    HC__TRY(hc__bb_init(&b, pb, NULL, pb->P, k));
    int rc = hc__bc_run(&b, a, nodes, pb->P, seg, NULL);
    *t = b.max_end;
    hc__bb_free(&b);
    return rc;
}

/* t beats u by more than rounding (relative 1e-9): a tie keeps the earlier candidate, so a
 * segmentation that only saves rounding errors is not taken. */
static int faster(double t, double u)
{
    return t < u * (1 - 1e-9); /* u >= 0, INFINITY for none yet */
}

/* The fastest segment size of classic a on pb: the fixed one when fixed_seg > 0, else every
 * s = ceil(m / 2^i) with at most HC__MAX_SEG segments (the sizes hc__bc_choose searches). */
static int best_on_problem(const hc_problem_t *pb, const uint32_t *nodes, const hc__bc_classic_t *a,
                           uint64_t fixed_seg, hc__bc_choice_t *out)
{
    uint64_t m = pb->msg_bytes;
    out->algo = a;
    out->seg = m;
    out->predicted = INFINITY;
    if (!a->segmented)
        return time_on_problem(pb, nodes, a, m, &out->predicted);
    if (fixed_seg > 0) {
        out->seg = fixed_seg < m ? fixed_seg : m;
        return time_on_problem(pb, nodes, a, out->seg, &out->predicted);
    }
    for (uint64_t i = 0; i < 63; i++) {
        uint64_t s = (m + (1ull << i) - 1) >> i; /* ceil(m / 2^i) */
        if (s == 0 || (i > 0 && s == ((m + (1ull << (i - 1)) - 1) >> (i - 1))))
            break;
        if (hc__bc_seg_count(m, s) > HC__MAX_SEG)
            break;
        double t;
        HC__TRY(time_on_problem(pb, nodes, a, s, &t));
        if (faster(t, out->predicted)) {
            out->predicted = t;
            out->seg = s;
        }
        if (s == 1)
            break;
    }
    return HC_OK;
}

int hc__algo_bcast_model_best(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out)
{
    uint32_t P = pb->P;
    *out = NULL;
    HC__TRY(hc__bcast_check_segment(pb, opts));
    uint64_t fixed = opts ? opts->segment_bytes : 0;
    uint32_t *nodes = hc__malloc(P, sizeof *nodes);
    if (!nodes)
        return hc__error(HC_ERR_NOMEM, "out of memory in model-best");
    for (uint32_t r = 0; r < P; r++)
        nodes[r] = (pb->root + r) % P;
    /* the paper's homogeneous predictions, for the note */
    hc__plogp_t q;
    hc__bc_choice_t hbest, htable[HC__BC_COUNT], table[HC__BC_COUNT];
    hc__plogp_init(&q, pb, nodes, P);
    hc__bc_choose(&q, fixed, &hbest, htable);
    /* the ranking on the problem; ties (within 1e-9) keep the earlier classic */
    int best = -1, rc = HC_OK;
    for (int a = 0; a < HC__BC_COUNT && rc == HC_OK; a++) {
        rc = best_on_problem(pb, nodes, hc__bc_classics[a], fixed, &table[a]);
        if (rc == HC_OK && (best < 0 || faster(table[a].predicted, table[best].predicted)))
            best = a;
    }
    if (rc != HC_OK) {
        free(nodes);
        return rc;
    }
    hc_algo_opts_t o;
    if (opts)
        o = *opts;
    else
        hc_algo_opts_init(&o);
    o.segment_bytes = table[best].algo->segmented ? table[best].seg : 0;
    hc_schedule_t *s = NULL;
    rc = hc__bcast_classic_schedule(pb, &o, table[best].algo, &s);
    if (rc != HC_OK) {
        free(nodes);
        return rc;
    }
    size_t cap = 640 + HC__BC_COUNT * 240, len = 0, jl = 0;
    char *note = hc__malloc(cap, 1), *js = hc__malloc(cap, 1);
    if (!note || !js) {
        free(nodes);
        free(note);
        free(js);
        hc_schedule_destroy(s);
        return hc__error(HC_ERR_NOMEM, "out of memory in model-best");
    }
    len += (size_t)snprintf(note + len, cap - len,
                            "model-best: chose %s (segment %llu B), the fastest classic timed on "
                            "this problem (on_problem_s); the homogeneous pLogP model (L = %.6g "
                            "s, g(m) = %.6g s over %u nodes) would choose %s\n"
                            "  %-20s %12s %14s %12s %14s %14s\n",
                            table[best].algo->name, (unsigned long long)table[best].seg, q.L,
                            hc__plogp_gap(&q, pb->msg_bytes), P, hbest.algo->name, "algorithm",
                            "segment_B", "on_problem_s", "model_seg_B", "table1_s", "predicted_s");
    jl += (size_t)snprintf(js + jl, cap - jl,
                           "{\"model\":{\"L_s\":%.9g,\"g_m_s\":%.9g},\"chosen\":\"%s\","
                           "\"model_choice\":\"%s\",\"predictions\":[",
                           q.L, hc__plogp_gap(&q, pb->msg_bytes), table[best].algo->name,
                           hbest.algo->name);
    for (int a = 0; a < HC__BC_COUNT; a++) {
        double t1 = hc__bc_table1(hc__bc_classics[a], &q, htable[a].seg);
        len += (size_t)snprintf(note + len, cap - len,
                                "  %-20s %12llu %14.6g %12llu %14.6g %14.6g%s\n",
                                hc__bc_classics[a]->name, (unsigned long long)table[a].seg,
                                table[a].predicted, (unsigned long long)htable[a].seg, t1,
                                htable[a].predicted, a == best ? "  <- chosen" : "");
        jl += (size_t)snprintf(js + jl, cap - jl,
                               "%s{\"algorithm\":\"%s\",\"segment\":%llu,\"on_problem_s\":%.9g,"
                               "\"model_segment\":%llu,\"table1_s\":%.9g,\"predicted_s\":%.9g}",
                               a ? "," : "", hc__bc_classics[a]->name,
                               (unsigned long long)table[a].seg, table[a].predicted,
                               (unsigned long long)htable[a].seg, t1, htable[a].predicted);
    }
    snprintf(js + jl, cap - jl, "]}");
    free(nodes); /* q points into it */
    free(s->note);
    s->note = note;
    free(s->extra_json);
    s->extra_json = js;
    *out = s;
    return HC_OK;
}
