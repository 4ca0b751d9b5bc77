/* greedy: rank-ordered lists with the fairness rule (000 §4.4).
 * Each sender ranks its messages by decreasing time. Steps are composed one after the other:
 * in each step the senders are visited in turn and each takes the first message of its list
 * that it has not sent yet and whose receiver is not already taken in this step; a sender that
 * finds none idles in this step. Fairness: the first sender that idled in a step (while it still
 * had messages) opens the next step; when nobody idled, the last sender visited opens it.
 * The step-ordered list is timed with the replay rule (no barrier between steps). Zero-cost
 * messages are not sent.
 * Complexity: O(P^2 log P) for the ranking plus O(P^2) per step; about P steps, so O(P^3).
 * Guarantee: none stated; 000 §5 reports schedules within 25 % of the lower bound. */
#include <stdlib.h>

#include "algos.h"
#include "alltoall_kit.h"

typedef struct ranked {
    double cost;
    uint32_t dst;
} ranked_t;

static int by_decreasing_cost(const void *a, const void *b)
{
    const ranked_t *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->dst < y->dst ? -1 : (x->dst > y->dst);
}

int hc__algo_alltoall_greedy(const hc_problem_t *pb, const hc_algo_opts_t *opts,
                             hc_schedule_t **out)
{
    (void)opts;
    *out = NULL;
    const hc_matrix_t *c = pb->costs;
    uint32_t P = pb->P;
    size_t cap = hc__a2a_count(c), n = 0;
    hc__a2a_msg_t *list = hc__malloc(cap + 1, sizeof *list);
    uint32_t *rank = hc__malloc((size_t)P * P + 1, sizeof *rank);
    uint32_t *len = hc__calloc(P, sizeof *len);
    uint32_t *head = hc__calloc(P, sizeof *head); /* first position that may be unsent */
    uint32_t *left = hc__calloc(P, sizeof *left);
    unsigned char *sent = hc__calloc((size_t)P * P + 1, 1);
    unsigned char *taken = hc__calloc(P, 1);
    ranked_t *tmp = hc__malloc(P, sizeof *tmp);
    if (!list || !rank || !len || !head || !left || !sent || !taken || !tmp) {
        free(list), free(rank), free(len), free(head), free(left), free(sent), free(taken);
        free(tmp);
        return hc__error(HC_ERR_NOMEM, "greedy: out of memory (P=%u)", P);
    }
    for (uint32_t i = 0; i < P; i++) {
        for (uint32_t j = 0; j < P; j++)
            if (hc__a2a_sent(c, i, j))
                tmp[len[i]++] = (ranked_t){HC_AT(c, i, j), j};
        qsort(tmp, len[i], sizeof *tmp, by_decreasing_cost);
        for (uint32_t q = 0; q < len[i]; q++)
            rank[(size_t)i * P + q] = tmp[q].dst;
        left[i] = len[i];
    }
    uint32_t first = 0;
    while (n < cap) {
        for (uint32_t j = 0; j < P; j++)
            taken[j] = 0;
        int idle_seen = 0;
        uint32_t next_first = (first + P - 1) % P;
        for (uint32_t k = 0; k < P; k++) {
            uint32_t i = (first + k) % P;
            if (!left[i])
                continue;
            const uint32_t *r = rank + (size_t)i * P;
            while (head[i] < len[i] && sent[(size_t)i * P + r[head[i]]])
                head[i]++;
            uint32_t pick = UINT32_MAX;
            for (uint32_t q = head[i]; q < len[i]; q++) {
                uint32_t j = r[q];
                if (!sent[(size_t)i * P + j] && !taken[j]) {
                    pick = j;
                    break;
                }
            }
            if (pick == UINT32_MAX) {
                if (!idle_seen) {
                    idle_seen = 1;
                    next_first = i;
                }
                continue;
            }
            taken[pick] = 1;
            sent[(size_t)i * P + pick] = 1;
            left[i]--;
            list[n++] = (hc__a2a_msg_t){i, pick};
        }
        first = next_first;
    }
    int rc = hc__a2a_build(pb, list, n, out);
    free(list), free(rank), free(len), free(head), free(left), free(sent), free(taken);
    free(tmp);
    return rc;
}
