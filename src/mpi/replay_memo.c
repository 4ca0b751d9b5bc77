/* Flow replays already made in one planning pass, by content (replay_memo.h). */
#include "replay_memo.h"

#include <stdlib.h>
#include <string.h>

/* A new field of hc_schedule_t must join key() below (or the list of fields replays do not
 * read in replay_memo.h): this size trips when the struct changes, on the ABI it was written
 * for. */
#if defined(__x86_64__) && defined(__LP64__)
_Static_assert(sizeof(hc_schedule_t) == 312,
               "hc_schedule_t changed: update key() in replay_memo.c");
#endif

typedef struct {
    uint64_t hash;
    const hc_problem_t *pb;
    unsigned char *key;
    size_t len;
    double makespan;
} entry_t;

struct hc__memo {
    entry_t *e;
    size_t n, cap, bytes;
    uint64_t hits;
};

typedef struct {
    unsigned char *b;
    size_t n, cap;
    int oom;
} buf_t;

static void put(buf_t *k, const void *x, size_t n)
{
    if (k->oom)
        return;
    if (k->n + n > k->cap) {
        size_t cap = k->cap ? k->cap : 1024;
        while (cap < k->n + n)
            cap *= 2;
        unsigned char *b = realloc(k->b, cap);
        if (!b) {
            k->oom = 1;
            return;
        }
        k->b = b;
        k->cap = cap;
    }
    memcpy(k->b + k->n, x, n);
    k->n += n;
}

#define PUT(k, x) put((k), &(x), sizeof(x))

/* An optional array of P entries: its presence, then its entries. */
static void put_opt(buf_t *k, const void *a, size_t size, uint32_t P)
{
    unsigned char has = a != NULL;
    PUT(k, has);
    if (a)
        put(k, a, size * P);
}

/* Every field of so and s a replay reads, field by field (no padding bytes): doubles by their
 * bits, so two keys are equal only for inputs a replay cannot tell apart. */
static void key(buf_t *k, const hc_sim_opts_t *so, const hc_schedule_t *s)
{
    PUT(k, so->error_sigma);
    PUT(k, so->error_floor);
    PUT(k, so->seed);
    PUT(k, so->alpha);
    PUT(k, so->network);
    PUT(k, so->smpi_factors);
    PUT(k, so->eager_bytes);
    PUT(k, s->coll);
    PUT(k, s->P);
    PUT(k, s->n_events);
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        PUT(k, e->src);
        PUT(k, e->dst);
        PUT(k, e->start);
        PUT(k, e->end);
        PUT(k, e->bytes);
        PUT(k, e->seg);
        PUT(k, e->step);
        PUT(k, e->tree);
    }
    PUT(k, s->n1);
    PUT(k, s->n2);
    PUT(k, s->k);
    PUT(k, s->beta);
    PUT(k, s->n_steps);
    for (size_t i = 0; i < s->n_steps; i++) {
        PUT(k, s->steps[i].start);
        PUT(k, s->steps[i].duration);
        PUT(k, s->steps[i].first);
        PUT(k, s->steps[i].count);
    }
    PUT(k, s->root);
    PUT(k, s->n_segments);
    put_opt(k, s->parent, sizeof *s->parent, s->P);
    put_opt(k, s->parent2, sizeof *s->parent2, s->P);
    PUT(k, s->window);
    PUT(k, s->segment_bytes);
    put_opt(k, s->piece_groups, sizeof *s->piece_groups, s->P);
    PUT(k, s->window_bdp_factor);
    PUT(k, s->recv_order);
    PUT(k, s->split_bytes);
    PUT(k, s->relay);
    PUT(k, s->lead_bytes);
    PUT(k, s->lead_groups);
    put_opt(k, s->lead_pieces, sizeof *s->lead_pieces,
            s->lead_pieces ? s->lead_groups * s->lead_groups : 0);
}

static uint64_t fnv1a(const unsigned char *b, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

void hc__memo_create(hc__memo_t **out)
{
    *out = calloc(1, sizeof **out);
}

void hc__memo_destroy(hc__memo_t *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->e[i].key);
    free(m->e);
    free(m);
}

static double replay(const hc_problem_t *pb, const hc_sim_opts_t *so, const hc_schedule_t *s,
                     int *rc)
{
    hc_sim_result_t *r = NULL;
    *rc = hc_simulate(s, pb, so, &r);
    double t = *rc == HC_OK ? r->makespan : 0;
    hc_sim_result_destroy(r);
    return t;
}

int hc__memo_replay(hc__memo_t *m, const hc_problem_t *pb, const hc_sim_opts_t *so,
                    const hc_schedule_t *s, double *makespan)
{
    int rc;
    if (!m || so->slowdown) {
        *makespan = replay(pb, so, s, &rc);
        return rc;
    }
    buf_t k = {0};
    key(&k, so, s);
    uint64_t h = k.oom ? 0 : fnv1a(k.b, k.n);
    for (size_t i = 0; !k.oom && i < m->n; i++) {
        const entry_t *e = &m->e[i];
        if (e->hash == h && e->pb == pb && e->len == k.n && memcmp(e->key, k.b, k.n) == 0) {
            m->hits++;
            *makespan = e->makespan;
            free(k.b);
            return HC_OK;
        }
    }
    *makespan = replay(pb, so, s, &rc);
    if (rc != HC_OK || k.oom || m->bytes + k.n > HC__MEMO_MAX_BYTES) {
        free(k.b);
        return rc;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        entry_t *e = realloc(m->e, cap * sizeof *e);
        if (!e) {
            free(k.b);
            return rc;
        }
        m->e = e;
        m->cap = cap;
    }
    m->e[m->n++] = (entry_t){h, pb, k.b, k.n, *makespan};
    m->bytes += k.n;
    return rc;
}

uint64_t hc__memo_hits(const hc__memo_t *m)
{
    return m ? m->hits : 0;
}
