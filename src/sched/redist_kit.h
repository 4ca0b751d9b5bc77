/* The redistribution (KPBS, 001) toolkit: the step plan and its emission as a schedule
 * (redist_plan.c), the GGP graphs (H, I of Fig. 5, the weight-regular extension J of Fig. 6)
 * and the peeling loop (kpbs.c), the loop of the §7 heuristics (redist_plan.c). The algorithms'
 * own decisions live in their files: the matching rule of GGP and OGGP, the heuristics' edge
 * keys, OGGP+'s compaction. Internal; the hooks (hc__kpbs_build, hc__kpbs_peel with a callback)
 * are exposed for the tests. */
#ifndef HETCOLL_SCHED_REDIST_KIT_H
#define HETCOLL_SCHED_REDIST_KIT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/internal.h"
#include "algos.h"
#include "matching.h"

/* ---- plan: steps of (i, j, amount seconds) transfers ---- */
typedef struct hc__redist_xfer {
    uint32_t i, j; /* row (cluster 1) and column (cluster 2), 0-based */
    double amount; /* seconds */
} hc__redist_xfer_t;

typedef struct hc__redist_plan {
    hc__redist_xfer_t *x;
    size_t n, cap;
    size_t *end; /* step s holds x[end[s-1] .. end[s]-1] (end[-1] = 0) */
    size_t n_steps, cap_steps;
} hc__redist_plan_t;

void hc__redist_plan_free(hc__redist_plan_t *p);
int hc__redist_plan_add(hc__redist_plan_t *p, uint32_t i, uint32_t j, double amount);
/* Close the current step (no-op when it is empty). */
int hc__redist_plan_close(hc__redist_plan_t *p);
/* Cost of a plan: sum over steps of beta + the longest transfer. */
double hc__redist_plan_cost(const hc__redist_plan_t *p, double beta);

/* Turn a plan into a schedule (steps closed with hc_schedule_close_step, bytes split in
 * proportion to the amounts, each message's bytes summing to its size). Caller frees. */
int hc__redist_emit(const hc_problem_t *pb, const hc__redist_plan_t *plan, hc_schedule_t **out);

/* ---- GGP graphs ---- */
enum { HC__KPBS_REAL = 0, HC__KPBS_DUMMY = 1, HC__KPBS_EXT = 2 };

/* The graph J of GGP, in CSR form by left vertex (slot ids are the edge ids).
 * Only rows/columns with traffic are kept (k is capped to their numbers). Weights are whole
 * numbers of `unit` seconds (unit = beta, or coarser when beta is 0 or tiny). */
typedef struct hc__kpbs {
    uint32_t n1r, n2r;     /* rows/cols of G with traffic */
    uint32_t *rows, *cols; /* their ids in the problem */
    uint32_t k;            /* effective k = min(k, n1r, n2r) */
    double unit;           /* seconds per weight unit */
    double WH, PH;         /* W(H), P(H) */
    double phi;            /* P(I)/k = max(W(H), ceil(P(H)/k)) */
    uint32_t delta;        /* nodes added to each side to build I */
    uint32_t n1i, n2i;     /* |V1_I| = n1r + delta, |V2_I| = n2r + delta */
    uint32_t n;            /* |V1_J| = |V2_J| = n1i + n2i - k */
    size_t m;              /* edges of J */
    size_t *off;           /* n + 1 */
    uint32_t *col;         /* m: right end in J */
    uint32_t *row;         /* m: left end in J */
    double *w0;            /* m: weight in J (units) */
    double *w;             /* m: current weight during peeling */
    uint8_t *kind;         /* m: HC__KPBS_REAL (edge of G), _DUMMY (E_2 of I), _EXT (Fig. 6) */
} hc__kpbs_t;

/* Build H, I and J for pb (redistribute). */
int hc__kpbs_build(const hc_problem_t *pb, hc__kpbs_t *J);
void hc__kpbs_free(hc__kpbs_t *J);
/* Weight of J vertex v on side 0 (left) or 1 (right), with the weights w0 (for Proposition 2). */
double hc__kpbs_vertex_weight(const hc__kpbs_t *J, int side, uint32_t v);

/* Called for every perfect matching chosen while peeling, before it is subtracted: mate1[u]
 * is the slot matched to left vertex u, `amount` the weight removed (its smallest weight). */
typedef void (*hc__kpbs_match_cb)(void *ctx, const hc__kpbs_t *J, const int64_t *mate1,
                                  double amount);

/* A peeling rule: choose the step's perfect matching in h (n left vertices, current weights w of
 * its positions, `live` positive edges; *prev is the rule's memory between steps, 0 at first)
 * and its amount *amt (the smallest matched weight). HC_OK, or an error naming the rule. */
typedef struct hc__kpbs_rule {
    const char *name;
    int (*choose)(hc__hk_t *h, uint32_t n, const double *w, size_t live, double *prev, double *amt);
} hc__kpbs_rule_t;
extern const hc__kpbs_rule_t hc__kpbs_ggp;  /* any perfect matching (redist_ggp.c) */
extern const hc__kpbs_rule_t hc__kpbs_oggp; /* the max-min one (redist_oggp.c) */

/* Peel J (J->w is reset to J->w0 first): each step the rule's perfect matching of the positive
 * edges, cut to its smallest weight and subtracted. The real edges of each matching become a
 * plan step; amounts are converted back to seconds and the last piece of every message is
 * trimmed so that its pieces sum to its cost. */
int hc__kpbs_peel(const hc_problem_t *pb, hc__kpbs_t *J, const hc__kpbs_rule_t *rule,
                  hc__kpbs_match_cb cb, void *ctx, hc__redist_plan_t *plan);

/* Build J and peel it with `rule` into a plan. */
int hc__kpbs_plan(const hc_problem_t *pb, const hc__kpbs_rule_t *rule, hc__redist_plan_t *plan);

/* The loop of the §7 heuristics (Fig. 10) into a plan: repeatedly a maximum matching of the
 * remaining messages, of which the k edges of largest key are kept, all cut to the smallest of
 * them. key_of(remaining seconds, degree of the row, degree of the column) is the heuristic's. */
typedef double (*hc__redist_key_fn)(double rem, uint32_t deg1, uint32_t deg2);
int hc__redist_heuristic(const hc_problem_t *pb, hc__redist_key_fn key_of, hc__redist_plan_t *plan);

/* Check the problem is a redistribution with the expected shape (errors name the field). */
int hc__redist_check(const hc_problem_t *pb);

#endif
