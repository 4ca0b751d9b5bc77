/* Shared helpers of the total exchange algorithms (000 §4): message count, lower bound, the
 * one timing routine (the replay rule of hc_simulate) and the schedule builder. */
#include "alltoall_kit.h"

#include "lap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t hc__a2a_count(const hc_matrix_t *c)
{
    size_t n = 0;
    for (uint32_t i = 0; i < c->rows; i++)
        for (uint32_t j = 0; j < c->cols; j++)
            n += (size_t)hc__a2a_sent(c, i, j);
    return n;
}

double hc__a2a_lower_bound(const hc_matrix_t *c)
{
    double best = 0;
    for (uint32_t i = 0; i < c->rows; i++) {
        double send = 0, recv = 0;
        for (uint32_t j = 0; j < c->cols; j++) {
            if (hc__a2a_sent(c, i, j))
                send += HC_AT(c, i, j);
            if (hc__a2a_sent(c, j, i))
                recv += HC_AT(c, j, i);
        }
        if (send > best)
            best = send;
        if (recv > best)
            best = recv;
    }
    return best;
}

double hc__a2a_time(const hc_matrix_t *c, const hc__a2a_msg_t *list, size_t n, double *sfree,
                    double *rfree, double *start)
{
    for (uint32_t i = 0; i < c->rows; i++)
        sfree[i] = rfree[i] = 0;
    double mk = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = list[k].src, j = list[k].dst;
        double t = sfree[i] > rfree[j] ? sfree[i] : rfree[j];
        double e = t + HC_AT(c, i, j);
        sfree[i] = rfree[j] = e;
        if (start)
            start[k] = t;
        if (e > mk)
            mk = e;
    }
    return mk;
}

int hc__a2a_build(const hc_problem_t *pb, const hc__a2a_msg_t *list, size_t n, hc_schedule_t **out)
{
    *out = NULL;
    const hc_matrix_t *c = pb->costs;
    uint32_t P = pb->P;
    double *work = hc__malloc((size_t)2 * P + n + 1, sizeof *work);
    if (!work)
        return hc__error(HC_ERR_NOMEM, "alltoall: out of memory for %zu messages", n);
    double *start = work + 2 * (size_t)P;
    hc__a2a_time(c, list, n, work, work + P, start);
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_create(HC_COLL_ALLTOALL, P, &s);
    if (rc == HC_OK) /* one allocation instead of ~log2(n) growing copies */
        rc = hc__grow((void **)&s->events, &s->cap_events, n, sizeof *s->events);
    for (size_t k = 0; rc == HC_OK && k < n; k++) {
        hc_event_t e = {0};
        e.src = list[k].src;
        e.dst = list[k].dst;
        e.start = start[k];
        e.end = start[k] + HC_AT(c, e.src, e.dst);
        e.bytes = pb->sizes ? (uint64_t)HC_AT(pb->sizes, e.src, e.dst) : pb->msg_bytes;
        rc = hc_schedule_add_event(s, &e);
    }
    free(work);
    if (rc != HC_OK) {
        hc_schedule_destroy(s);
        return rc;
    }
    s->lower_bound = hc__a2a_lower_bound(c);
    hc_schedule_finish(s);
    *out = s;
    return HC_OK;
}

int hc__a2a_matching_series(const hc_matrix_t *c, int maximize, hc__a2a_msg_t *list, size_t *n)
{
    uint32_t P = c->rows;
    size_t cells = (size_t)P * P;
    *n = 0;
    hc__lap_t *w = NULL;
    unsigned char *forbid = hc__calloc(cells, 1);
    uint32_t *match = hc__malloc(P, sizeof *match);
    int rc = forbid && match ? hc__lap_create(P, &w)
                             : hc__error(HC_ERR_NOMEM, "alltoall: out of memory (P=%u)", P);
    for (uint32_t i = 0; i < P; i++)
        if (forbid)
            forbid[(size_t)i * P + i] = 1;
    /* K_{P,P} minus the diagonal is (P-1)-regular, and so is what is left after removing k
     * perfect matchings ((P-1-k)-regular): by Hall's theorem P-1 matchings always exist. */
    for (uint32_t step = 0; rc == HC_OK && step + 1 < P; step++) {
        rc = hc__lap_solve_ws(w, c->v, forbid, maximize, 1, match, NULL);
        for (uint32_t i = 0; rc == HC_OK && i < P; i++) {
            uint32_t j = match[i];
            forbid[(size_t)i * P + j] = 1;
            if (hc__a2a_sent(c, i, j))
                list[(*n)++] = (hc__a2a_msg_t){i, j};
        }
    }
    hc__lap_destroy(w);
    free(forbid);
    free(match);
    return rc;
}

int hc__a2a_matching_schedule(const hc_problem_t *pb, int maximize, const char *algo,
                              hc_schedule_t **out)
{
    *out = NULL;
    size_t cap = hc__a2a_count(pb->costs), n = 0;
    hc__a2a_msg_t *list = hc__malloc(cap + 1, sizeof *list);
    if (!list)
        return hc__error(HC_ERR_NOMEM, "%s: out of memory (P=%u)", algo, pb->P);
    int rc = hc__a2a_matching_series(pb->costs, maximize, list, &n);
    if (rc == HC_OK)
        rc = hc__a2a_build(pb, list, n, out);
    free(list);
    return rc;
}

/* ---- exchanges in pieces ---- */

int hc__a2a_cut(hc_schedule_t **sp, uint64_t forced, const char *algo)
{
    hc_schedule_t *s = *sp;
    s->segment_bytes = forced ? forced : HC__A2A_PIECE_BYTES;
    const uint64_t n = hc_schedule_piece_count(s);
    const char *which =
        s->piece_groups ? "the messages crossing the busiest links" : "every message";
    if (forced && n > HC__A2A_PIECES_MAX) {
        hc_schedule_destroy(s);
        *sp = NULL;
        return hc__error(
            HC_ERR_VALUE, "%s: %llu-byte pieces cut this exchange into %llu pieces, more than %u",
            algo, (unsigned long long)forced, (unsigned long long)n, HC__A2A_PIECES_MAX);
    }
    if (!forced && n > HC__A2A_PIECES_DEFAULT) {
        s->segment_bytes = 0;
        free(s->piece_groups);
        s->piece_groups = NULL;
        return hc_schedule_set_note(s,
                                    "%s: %u-byte pieces would make %llu, more than %u: whole "
                                    "messages",
                                    algo, HC__A2A_PIECE_BYTES, (unsigned long long)n,
                                    HC__A2A_PIECES_DEFAULT);
    }
    return hc_schedule_set_note(s,
                                "%s: %s in pieces of %llu B, all posted at once (%llu "
                                "transfers)",
                                algo, which, (unsigned long long)s->segment_bytes,
                                (unsigned long long)n);
}

/* Union-find root with path halving. */
static uint32_t uf_root(uint32_t *up, uint32_t i)
{
    while (up[i] != i) {
        up[i] = up[up[i]];
        i = up[i];
    }
    return i;
}

/* The load slot of a hop: one per shared link, two per split-duplex link (up, down), none
 * (UINT32_MAX) for a fatpipe. */
static uint32_t hop_slot(const hc_platform_t *p, const hc_hop_t *h)
{
    switch (hc_platform_link_sharing(p, h->link)) {
    case HC_LINK_SHARED:
        return 2 * h->link;
    case HC_LINK_SPLITDUPLEX:
        return 2 * h->link + (h->down ? 1u : 0u);
    default:
        return UINT32_MAX;
    }
}

/* The route i -> j into *hops (grown as needed, *cap entries): its hop count, or 0 when out of
 * memory (every pair has a route of at least one hop here). */
static size_t route_of(const hc_platform_t *p, uint32_t i, uint32_t j, hc_hop_t **hops, size_t *cap)
{
    size_t n = hc_platform_route(p, i, j, *hops, *cap);
    if (n > *cap) {
        hc_hop_t *t = realloc(*hops, n * sizeof *t);
        if (!t)
            return 0;
        *hops = t;
        *cap = n;
        n = hc_platform_route(p, i, j, *hops, *cap);
    }
    return n;
}

/* 1 when the hops cross a busy slot. */
static int crosses(const hc_platform_t *p, const hc_hop_t *hops, size_t n,
                   const unsigned char *busy)
{
    for (size_t h = 0; h < n; h++) {
        const uint32_t slot = hop_slot(p, &hops[h]);
        if (slot != UINT32_MAX && busy[slot])
            return 1;
    }
    return 0;
}

int hc__a2a_busy_groups(const hc_problem_t *pb, int32_t *groups, uint32_t *n_groups)
{
    const hc_platform_t *p = pb->platform;
    const uint32_t P = pb->P;
    if (!p || hc_platform_size(p) != P || !hc_platform_has_routes(p))
        return hc__error(HC_ERR_VALUE,
                         "the busiest links: the problem's platform has no route "
                         "for every pair of its %u nodes",
                         P);
    const uint32_t L = hc_platform_link_count(p);
    size_t cap = 16;
    double *load = hc__calloc(2 * (size_t)L + 1, sizeof *load);
    unsigned char *busy = hc__calloc(2 * (size_t)L + 1, 1);
    uint32_t *up = hc__malloc(P, sizeof *up);
    hc_hop_t *hops = hc__malloc(cap, sizeof *hops);
    int rc = HC_OK;
    if (!load || !busy || !up || !hops) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory finding the busiest links");
        goto out;
    }
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        for (uint32_t j = 0; j < P && rc == HC_OK; j++) {
            if (!hc__a2a_sent(pb->costs, i, j))
                continue;
            const double b = pb->sizes ? HC_AT(pb->sizes, i, j) : (double)pb->msg_bytes;
            const size_t n = route_of(p, i, j, &hops, &cap);
            if (n == 0) {
                rc = hc__error(HC_ERR_NOMEM, "out of memory finding the busiest links");
                break;
            }
            for (size_t h = 0; h < n; h++) {
                const uint32_t slot = hop_slot(p, &hops[h]);
                if (slot != UINT32_MAX)
                    load[slot] += b / hc_platform_link_bandwidth(p, hops[h].link);
            }
        }
    if (rc != HC_OK)
        goto out;
    double most = 0;
    for (size_t k = 0; k < 2 * (size_t)L; k++)
        most = load[k] > most ? load[k] : most;
    for (size_t k = 0; k < 2 * (size_t)L; k++)
        busy[k] = most > 0 && load[k] >= 0.5 * most;
    for (uint32_t i = 0; i < P; i++)
        up[i] = i;
    for (uint32_t i = 0; i < P && rc == HC_OK; i++)
        for (uint32_t j = i + 1; j < P; j++) {
            uint32_t a = uf_root(up, i), b = uf_root(up, j);
            if (a == b)
                continue;
            size_t n = route_of(p, i, j, &hops, &cap);
            if (n && crosses(p, hops, n, busy))
                continue;
            if (n)
                n = route_of(p, j, i, &hops, &cap);
            if (!n) {
                rc = hc__error(HC_ERR_NOMEM, "out of memory finding the busiest links");
                break;
            }
            if (!crosses(p, hops, n, busy))
                up[a > b ? a : b] = a < b ? a : b; /* the smaller id roots the group */
        }
    if (rc != HC_OK)
        goto out;
    uint32_t g = 0;
    for (uint32_t i = 0; i < P; i++) {
        groups[i] = (int32_t)uf_root(up, i);
        g += groups[i] == (int32_t)i;
    }
    *n_groups = g;
out:
    free(load);
    free(busy);
    free(up);
    free(hops);
    return rc;
}
