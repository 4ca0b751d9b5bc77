/* Companion of tests/smpi/window_stream.c (label smpi): the flow model's prediction of the same
 * stream, compared with what SMPI measured.
 *   check_window_stream SPEC K SEG W MODE MEASURED REL [LOCKREL]
 * SPEC: a 2-node platform. The stream is a 2-node pipelined broadcast of K pieces of SEG bytes
 * (MODE 1: the first W - 1 of j * SEG / W bytes; MODE 2: odd pieces of 5 * SEG / 8 bytes, as
 * tests/smpi/window_stream.c sends them) replayed by hc_simulate's flow network
 * under SMPI's factors, with the runtime's window for broadcast pieces: the test fails when
 * that window is not W (the rule decides it, and s->window is only its floor), or when
 * |MEASURED - predicted| > REL * predicted. In lock step (MODE 0) the pieces of a window
 * start together and end together, so the prediction also has a closed form on a route
 * without cross traffic to share (LOCKREL given: checked to that): floor(K / W) windows of
 * latency x its factor + W x SEG / (bandwidth x its factor), and one more for the K mod W
 * left. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hetcoll/hetcoll.h"

int main(int argc, char **argv)
{
    if (argc != 8 && argc != 9) {
        fprintf(stderr, "usage: check_window_stream SPEC K SEG W MODE MEASURED REL [LOCKREL]\n");
        return 2;
    }
    const uint32_t K = (uint32_t)atoi(argv[2]), seg = (uint32_t)atoi(argv[3]),
                   W = (uint32_t)atoi(argv[4]);
    const int st = atoi(argv[5]);
    const double measured = atof(argv[6]), rel = atof(argv[7]);
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    hc_schedule_t *s = NULL;
    hc_sim_result_t *r = NULL;
    int rc = 1;
    if (K < 2 || seg < 1 || W < 1 || hc_platform_load(argv[1], &p) != HC_OK ||
        hc_platform_size(p) != 2) {
        fprintf(stderr, "check_window_stream: bad arguments or platform (%s)\n", hc_error_detail());
        goto out;
    }
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, HC_COLL_BCAST);
    sp.platform = p;
    sp.msg_bytes = (uint64_t)K * seg;
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.segment_bytes = seg;
    if (hc_problem_create(&sp, &pb) != HC_OK ||
        hc_schedule_compute(pb, "pipeline", &o, &s) != HC_OK || s->n_segments != K) {
        fprintf(stderr, "check_window_stream: schedule: %s\n", hc_error_detail());
        goto out;
    }
    for (size_t i = 0; st && i < s->n_events; i++) {
        hc_event_t *e = &s->events[i];
        if (st == 1 && e->seg + 1 < W)
            e->bytes = (uint64_t)seg * (e->seg + 1) / W;
        else if (st == 2 && e->seg % 2)
            e->bytes = (uint64_t)seg * 5 / 8;
    }
    s->window = W;
    uint32_t ws = 0, wr = 0;
    if (hc_schedule_exec_windows(s, p, 0, &ws, &wr) != HC_OK || ws != W) {
        fprintf(stderr, "check_window_stream: the runtime's window is %u, not %u\n", ws, W);
        goto out;
    }
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    so.network = HC_NETWORK_FLOW;
    so.smpi_factors = 1;
    if (hc_simulate(s, pb, &so, &r) != HC_OK) {
        fprintf(stderr, "check_window_stream: replay: %s\n", hc_error_detail());
        goto out;
    }
    const double pred = r->makespan, err = fabs(measured - pred) / pred;
    printf("W %u mode %d: SMPI %.6f s, flow model %.6f s (error %.2f %%)", W, st, measured, pred,
           100 * err);
    rc = err > rel;
    if (!st && argc == 9) {
        hc_flow_opts_t fo;
        hc_flow_opts_init(&fo);
        fo.smpi_factors = 1;
        double lf, bf;
        hc_flow_factors(&fo, seg, &lf, &bf);
        const double lat = lf * hc_platform_latency(p, 0, 1),
                     piece = seg / (bf * hc_platform_bandwidth(p, 0, 1));
        const double lockstep = (K / W) * (lat + W * piece) + (K % W ? lat + (K % W) * piece : 0.0);
        printf(", lock step %.6f s", lockstep);
        rc |= fabs(pred - lockstep) > atof(argv[8]) * lockstep;
    }
    printf("%s\n", rc ? "  FAIL" : "");
out:
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
    return rc;
}
