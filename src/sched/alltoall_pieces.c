/* `pieces` total exchange: post-all with every message cut into pieces of opts->segment_bytes
 * (default HC__A2A_PIECE_BYTES; whole messages on big exchanges: HC__A2A_PIECES_DEFAULT), every
 * piece posted at once. The events are post-all's, one per message with its 1-port times; the
 * schedule's segment_bytes tells the runtime and the flow replay to move each message as
 * ceil(bytes / segment_bytes) consecutive pieces.
 *
 * Why pieces: where a network's rate depends on the message size, the size class moves more
 * bytes per unit of capacity. SimGrid's default network model (SMPI's factors, measured on
 * real clusters) gives 5761 to 9360 B messages 1.087 x the link capacity and 2.19 x the
 * latency, messages of 64 KiB and more 0.94 x and 11.6 x: an all-to-all of 64 KiB messages
 * posted whole cannot come within 1.15 x of the link bound there, in 8 KiB pieces it can (3-site
 * grid, 63 ranks: 8.99 s against 10.44 s whole). On a network without such steps the pieces
 * only add per-message costs; the runtime predicts each piece size with the flow model
 * (HETCOLL_FLOW_MODEL) and measures before it keeps one (src/mpi/plan.c). The default cap keeps
 * the flow replays and SMPI affordable: 16384 pieces on 24 ranks replay in 0.1 s and simulate in
 * seconds per call, 15600 of 512 KiB on 63 ranks took SMPI minutes per call; larger pieces would
 * not help either, 16 to 64 KiB messages get SMPI's worst bandwidth factor, 0.70.
 * `pieces-cross` (alltoall_pieces_cross.c) cuts only the messages that cross the busiest links.
 * Complexity O(P^2). */
#include "alltoall_kit.h"

int hc__algo_alltoall_pieces(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out)
{
    int rc = hc__algo_alltoall_post_all(pb, opts, out);
    if (rc != HC_OK)
        return rc;
    return hc__a2a_cut(out, opts ? opts->segment_bytes : 0, "pieces");
}
