/* `model-best` broadcast: per-cluster algorithm choice of 004 §5.1 (Barchet-Steffenel &
 * Mounie). The nodes are treated as one homogeneous cluster with pLogP parameters L (mean
 * latency) and g(x) (mean gap); every classic of Table 1 is predicted for the segment sizes
 * s = m/2^i (at most HC__MAX_SEG segments) and the fastest prediction is built.
 * Predictions: the Table 1 formula (column table1_s) and the same algorithm replayed on the
 * virtual homogeneous cluster under the 1-port model (predicted_s, which decides; see
 * docs/design.md for why the formulas of Table 1 are not used to decide).
 * Complexity: O(A * log m * P * k) for the predictions. No guarantee beyond "best predicted". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_kit.h"

int hc__algo_bcast_model_best(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                              hc_schedule_t **out)
{
    uint32_t P = pb->P;
    *out = NULL;
    HC__TRY(hc__bcast_check_segment(pb, opts));
    uint32_t *nodes = hc__malloc(P, sizeof *nodes);
    if (!nodes)
        return hc__error(HC_ERR_NOMEM, "out of memory in model-best");
    for (uint32_t r = 0; r < P; r++)
        nodes[r] = (pb->root + r) % P;
    hc__plogp_t q;
    hc__bc_choice_t best, table[HC__BC_COUNT];
    hc__plogp_init(&q, pb, nodes, P);
    hc__bc_choose(&q, opts ? opts->segment_bytes : 0, &best, table);
    hc_algo_opts_t o;
    if (opts)
        o = *opts;
    else
        hc_algo_opts_init(&o);
    o.segment_bytes = best.algo->segmented ? best.seg : 0;
    hc_schedule_t *s = NULL;
    int rc = hc__bcast_classic_schedule(pb, &o, best.algo, &s);
    if (rc != HC_OK) {
        free(nodes);
        return rc;
    }
    size_t cap = 512 + HC__BC_COUNT * 200, len = 0, jl = 0;
    char *note = hc__malloc(cap, 1), *js = hc__malloc(cap, 1);
    if (!note || !js) {
        free(nodes);
        free(note);
        free(js);
        hc_schedule_destroy(s);
        return hc__error(HC_ERR_NOMEM, "out of memory in model-best");
    }
    len += (size_t)snprintf(note + len, cap - len,
                            "model-best: pLogP L = %.6g s, g(m) = %.6g s over %u nodes; chose %s "
                            "(segment %llu B)\n  %-20s %12s %14s %14s\n",
                            q.L, hc__plogp_gap(&q, pb->msg_bytes), P, best.algo->name,
                            (unsigned long long)best.seg, "algorithm", "segment_B", "table1_s",
                            "predicted_s");
    jl += (size_t)snprintf(js + jl, cap - jl,
                           "{\"model\":{\"L_s\":%.9g,\"g_m_s\":%.9g},\"chosen\":\"%s\","
                           "\"predictions\":[",
                           q.L, hc__plogp_gap(&q, pb->msg_bytes), best.algo->name);
    for (int a = 0; a < HC__BC_COUNT; a++) {
        double t1 = hc__bc_table1(hc__bc_classics[a], &q, table[a].seg);
        len += (size_t)snprintf(note + len, cap - len, "  %-20s %12llu %14.6g %14.6g%s\n",
                                hc__bc_classics[a]->name, (unsigned long long)table[a].seg, t1,
                                table[a].predicted,
                                hc__bc_classics[a] == best.algo ? "  <- chosen" : "");
        jl += (size_t)snprintf(js + jl, cap - jl,
                               "%s{\"algorithm\":\"%s\",\"segment\":%llu,\"table1_s\":%.9g,"
                               "\"predicted_s\":%.9g}",
                               a ? "," : "", hc__bc_classics[a]->name,
                               (unsigned long long)table[a].seg, t1, table[a].predicted);
    }
    snprintf(js + jl, cap - jl, "]}");
    free(nodes);
    free(s->note);
    s->note = note;
    free(s->extra_json);
    s->extra_json = js;
    *out = s;
    return HC_OK;
}
