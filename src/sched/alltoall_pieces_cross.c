/* `pieces-cross` total exchange: post-all with only the messages that cross the busiest links
 * cut into pieces (of opts->segment_bytes, default HC__A2A_PIECE_BYTES), the others whole,
 * everything posted at once. The schedule's piece_groups hold hc__a2a_busy_groups: messages
 * inside a group move whole.
 *
 * Why: the pieces pay off only on the links that bound the exchange (SimGrid's defaults give
 * 5761 to 9360 B messages 1.087 x the capacity, 64 KiB ones 0.94 x); the messages inside a site
 * never load those links and, whole, cost fewer transfers. On the 3-site grid (62 ranks, 64 KiB
 * to each) every message in 8 KiB pieces makes 30 000 transfers, the cross-site ones alone 20 000,
 * at 1.001 x the link bound in the flow model under SMPI's factors (whole: 1.16 x). Without links
 * (no platform with routes) every node is its own group: every message is cut, as `pieces` does.
 * Complexity O(P^2 x route length). */
#include "alltoall_kit.h"

#include <stdlib.h>

int hc__algo_alltoall_pieces_cross(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                                   hc_schedule_t **out)
{
    int rc = hc__algo_alltoall_post_all(pb, opts, out);
    if (rc != HC_OK)
        return rc;
    hc_schedule_t *s = *out;
    uint32_t g = pb->P;
    if (pb->platform && hc_platform_has_routes(pb->platform) &&
        hc_platform_size(pb->platform) == pb->P) {
        if (!(s->piece_groups = hc__malloc(pb->P, sizeof *s->piece_groups)) ||
            (rc = hc__a2a_busy_groups(pb, s->piece_groups, &g)) != HC_OK) {
            hc_schedule_destroy(s);
            *out = NULL;
            return rc != HC_OK ? rc : hc__error(HC_ERR_NOMEM, "out of memory in pieces-cross");
        }
    }
    if (g == pb->P) { /* every node alone: all cut, as `pieces` */
        free(s->piece_groups);
        s->piece_groups = NULL;
    }
    return hc__a2a_cut(out, opts ? opts->segment_bytes : 0, "pieces-cross");
}
