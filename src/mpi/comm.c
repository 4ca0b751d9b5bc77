/* hetcoll communicators: platform resolution, options, the schedule cache and the sharing of
 * plans (rank 0 plans, everyone executes the same schedule). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

void hc_comm_opts_default(hc_comm_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->algo_alltoall = o->algo_bcast = o->algo_reduce = o->algo_redistribute = "auto";
    o->model = HC_MODEL_HOCKNEY;
    o->cache_entries = 32;
    o->tune_trials = 5;
    o->plan_time_limit = 0.05;
}

int hc__mpi_err(int st)
{
    switch (st) {
    case HC_OK:
        return MPI_SUCCESS;
    case HC_ERR_NOMEM:
        return MPI_ERR_NO_MEM;
    case HC_ERR_INVAL:
    case HC_ERR_VALUE:
    case HC_ERR_SHAPE:
    case HC_ERR_UNKNOWN:
        return MPI_ERR_ARG;
    default:
        return MPI_ERR_OTHER;
    }
}

/* The platform restricted to nodes idx[0..n-1], in that order. */
static int subplatform(const hc_platform_t *p, const uint32_t *idx, uint32_t n, hc_platform_t **out)
{
    hc_platform_t *q;
    int rc = hc_platform_create(n, 1.0, 1.0, &q);
    for (uint32_t a = 0; rc == HC_OK && a < n; a++) {
        rc = hc_platform_set_node_name(q, a, hc_platform_node_name(p, idx[a]));
        int32_t cl = hc_platform_cluster_of(p, idx[a]);
        if (rc == HC_OK && cl >= 0)
            rc = hc_platform_set_cluster(q, a, hc_platform_cluster_name(p, (uint32_t)cl));
        double t = hc_platform_send_time(p, idx[a]);
        if (rc == HC_OK && t >= 0)
            rc = hc_platform_set_send_time(q, a, t);
        for (uint32_t b = 0; rc == HC_OK && b < n; b++)
            if (a != b)
                rc = hc_platform_set_link(q, a, b, hc_platform_latency(p, idx[a], idx[b]),
                                          hc_platform_bandwidth(p, idx[a], idx[b]));
    }
    if (rc != HC_OK) {
        hc_platform_destroy(q);
        return rc;
    }
    *out = q;
    return HC_OK;
}

static void resolve_algo(hc_comm_t *c, hc_coll_t coll, const char *opt, const char *env)
{
    const char *e = getenv(env);
    const char *name = (e && *e) ? e : (opt ? opt : "auto");
    snprintf(c->algo[coll], sizeof c->algo[coll], "%s", name);
}

/* Map ranks to nodes: identity, or by processor name when asked and the names match. */
static int map_ranks(hc_comm_t *c, const hc_platform_t *p, uint32_t *idx)
{
    uint32_t P = hc_platform_size(p);
    for (int r = 0; r < c->size; r++)
        idx[r] = (uint32_t)r;
    if (!c->opts.map_by_hostname)
        return HC_OK;
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    char *all = malloc((size_t)c->size * MPI_MAX_PROCESSOR_NAME);
    if (!all)
        return HC_ERR_NOMEM;
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  c->comm);
    /* Ranks sharing a host take that host's nodes in rank order. */
    char *used = calloc(P ? P : 1, 1);
    int rc = used ? HC_OK : HC_ERR_NOMEM;
    for (int r = 0; rc == HC_OK && r < c->size; r++) {
        uint32_t j = 0;
        for (; j < P; j++)
            if (!used[j] &&
                strcmp(hc_platform_node_name(p, j), all + (size_t)r * MPI_MAX_PROCESSOR_NAME) == 0)
                break;
        if (j == P) {
            rc = HC_ERR_UNKNOWN;
            break;
        }
        used[j] = 1;
        idx[r] = j;
    }
    free(used);
    free(all);
    return rc;
}

int hc_comm_create(MPI_Comm comm, const hc_platform_t *platform, const hc_comm_opts_t *opts,
                   hc_comm_t **out)
{
    if (!out || comm == MPI_COMM_NULL)
        return MPI_ERR_ARG;
    *out = NULL;
    hc_comm_t *c = calloc(1, sizeof *c);
    int size = 0;
    MPI_Comm_size(comm, &size);
    /* The speculation state is allocated here, where failures are agreed on, so that it can
     * never differ between ranks later. */
    int local = c && hc__spec_init(c, size) == MPI_SUCCESS ? HC_OK : HC_ERR_NOMEM, global;
    MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, comm);
    if (global != HC_OK) {
        if (c)
            hc__spec_free(c);
        free(c);
        return MPI_ERR_NO_MEM;
    }
    if (opts)
        c->opts = *opts;
    else
        hc_comm_opts_default(&c->opts);
    MPI_Comm_dup(comm, &c->comm);
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    resolve_algo(c, HC_COLL_ALLTOALL, c->opts.algo_alltoall, "HETCOLL_ALGO_ALLTOALL");
    resolve_algo(c, HC_COLL_BCAST, c->opts.algo_bcast, "HETCOLL_ALGO_BCAST");
    resolve_algo(c, HC_COLL_REDUCE, c->opts.algo_reduce, "HETCOLL_ALGO_REDUCE");
    resolve_algo(c, HC_COLL_REDISTRIBUTE, c->opts.algo_redistribute, "HETCOLL_ALGO_REDISTRIBUTE");
    c->last_predicted = NAN;
    const char *tune = getenv("HETCOLL_TUNE");
    if (tune && *tune)
        c->opts.tune_trials = (unsigned)strtoul(tune, NULL, 10);

    hc_platform_t *loaded = NULL;
    const hc_platform_t *src = platform;
    local = HC_OK;
    if (!src) {
        const char *spec = getenv("HETCOLL_PLATFORM");
        if (spec && *spec) {
            local = hc_platform_load(spec, &loaded);
            src = loaded;
        }
    }
    MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, c->comm);
    if (global == HC_OK && !src) {
        global = hc__mpi_quick_probe(c->comm, &loaded);
        src = loaded;
    }
    uint32_t *idx = NULL;
    if (global == HC_OK) {
        local = hc_platform_size(src) < (uint32_t)c->size ? HC_ERR_SHAPE : HC_OK;
        idx = malloc(sizeof *idx * (size_t)c->size);
        if (local == HC_OK && !idx)
            local = HC_ERR_NOMEM;
        if (local == HC_OK)
            local = map_ranks(c, src, idx);
        if (local == HC_OK)
            local = subplatform(src, idx, (uint32_t)c->size, &c->platform);
        MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, c->comm);
    }
    free(idx);
    hc_platform_destroy(loaded);
    if (global != HC_OK) {
        hc_comm_destroy(c);
        return hc__mpi_err(global);
    }
    *out = c;
    return MPI_SUCCESS;
}

void hc__plan_entry_free(hc__plan_entry_t *e)
{
    if (!e)
        return;
    hc_schedule_destroy(e->s);
    for (uint32_t k = 0; k < e->n_cand; k++) { /* still tuning: cand[0].s is e->s */
        if (k > 0)
            hc_schedule_destroy(e->cand[k].s);
        hc__order_free(e->cand[k].order);
    }
    free(e->key);
    free(e->members);
    hc__order_free(e->order);
    memset(e, 0, sizeof *e);
}

int hc__plan_order(hc_comm_t *c, hc__plan_entry_t *e, const hc__order_t **out)
{
    int err = e->order ? MPI_SUCCESS : hc__order_build(c, e->s, &e->order);
    *out = e->order;
    return err;
}

static void cache_clear(hc_comm_t *c)
{
    for (unsigned i = 0; i < c->n_cache; i++)
        hc__plan_entry_free(&c->cache[i]);
    c->n_cache = 0;
}

void hc_comm_destroy(hc_comm_t *c)
{
    if (!c)
        return;
    cache_clear(c);
    free(c->cache);
    hc__spec_free(c);
    free(c->scratch);
    hc_platform_destroy(c->platform);
    if (c->comm != MPI_COMM_NULL && c->comm != 0)
        MPI_Comm_free(&c->comm);
    free(c);
}

void hc_comm_get_stats(const hc_comm_t *c, hc_comm_stats_t *out)
{
    *out = c->stats;
}

const hc_platform_t *hc_comm_platform(const hc_comm_t *c)
{
    return c->platform;
}

const char *hc_comm_last_algorithm(const hc_comm_t *c)
{
    return c->last_algo;
}

double hc_comm_last_predicted(const hc_comm_t *c)
{
    return c->last_predicted;
}

void hc_comm_new_epoch(hc_comm_t *c)
{
    c->epoch++;
    c->spec.streak = 0;
    cache_clear(c);
}

uint64_t hc__fnv1a(const uint64_t *w, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) {
            h ^= (w[i] >> (8 * b)) & 0xff;
            h *= 0x100000001b3ULL;
        }
    return h;
}

/* Same tree and segments: two algorithms that agree on this instance (common on homogeneous
 * platforms) need not both be tried. */
static int same_shape(const hc_schedule_t *a, const hc_schedule_t *b)
{
    if (a->n_events != b->n_events || a->n_segments != b->n_segments)
        return 0;
    for (size_t i = 0; i < a->n_events; i++)
        if (a->events[i].src != b->events[i].src || a->events[i].dst != b->events[i].dst ||
            a->events[i].seg != b->events[i].seg || a->events[i].bytes != b->events[i].bytes)
            return 0;
    return 1;
}

static int by_makespan(const void *pa, const void *pb)
{
    const hc_schedule_t *a = *(hc_schedule_t *const *)pa, *b = *(hc_schedule_t *const *)pb;
    return (a->makespan > b->makespan) - (a->makespan < b->makespan);
}

/* Run `name`, or for "auto" every algorithm of the collective except the two-tree one (it
 * hedges against errors; the plain prediction never favours it). out[0] is the best predicted;
 * with room for more (max > 1, collectives without a registry auto), out[1..] are the
 * shortlist for measured tuning: distinct schedules predicted within HC__TUNE_RATIO of the
 * best, and for broadcast the binomial tree and (up to 16 ranks) the flat one. */
static int plan_with(hc_comm_t *c, const hc_problem_t *pb, const char *name, hc_schedule_t **out,
                     uint32_t max, uint32_t *n_out)
{
    hc_algo_opts_t o;
    hc_algo_opts_default(&o);
    o.time_limit_s = c->opts.plan_time_limit;
    const hc_algo_info_t *info;
    *n_out = 0;
    if (strcmp(name, "auto") != 0) {
        int rc = hc_schedule_compute(pb, name, &o, &out[0]);
        *n_out = rc == HC_OK;
        return rc;
    }
    if (hc_algo_find(pb->coll, "auto", &info) == HC_OK) {
        /* The registry's auto, never predicted slower than the MPI library's usual algorithm
         * (pairwise exchange = caterpillar for alltoall; issue 8). */
        int rc = hc_schedule_compute(pb, name, &o, &out[0]);
        hc_schedule_t *nat = NULL;
        if (rc == HC_OK && pb->coll == HC_COLL_ALLTOALL &&
            hc_schedule_compute(pb, "caterpillar", &o, &nat) == HC_OK &&
            nat->makespan < out[0]->makespan) {
            hc_schedule_destroy(out[0]);
            out[0] = nat;
            nat = NULL;
        }
        hc_schedule_destroy(nat);
        *n_out = rc == HC_OK;
        return rc;
    }
    size_t n_algos = hc_algo_count(), n = 0;
    hc_schedule_t **all = calloc(n_algos + 1, sizeof *all);
    if (!all)
        return HC_ERR_NOMEM;
    int last = HC_ERR_UNSUPPORTED;
    for (size_t i = 0; i < n_algos; i++) {
        const hc_algo_info_t *a = hc_algo_get(i);
        if (a->coll != pb->coll || strcmp(a->name, "ttcc") == 0)
            continue;
        hc_schedule_t *s = NULL;
        last = hc_schedule_compute(pb, a->name, &o, &s);
        if (last == HC_OK)
            all[n++] = s;
    }
    if (n == 0) {
        free(all);
        return last;
    }
    qsort(all, n, sizeof *all, by_makespan);
    out[(*n_out)++] = all[0];
    all[0] = NULL;
    for (size_t i = 1; i < n; i++) {
        int take = *n_out < max && all[i]->makespan <= HC__TUNE_RATIO * out[0]->makespan;
        /* The MPI libraries' usual broadcasts: binomial, and linear in small communicators. */
        take |= *n_out < max && pb->coll == HC_COLL_BCAST &&
                (strcmp(all[i]->algorithm, "binomial") == 0 ||
                 (pb->P <= 16 && strcmp(all[i]->algorithm, "flat") == 0));
        for (uint32_t k = 0; take && k < *n_out; k++)
            take = !same_shape(all[i], out[k]);
        if (take) {
            out[(*n_out)++] = all[i];
            all[i] = NULL;
        }
    }
    for (size_t i = 0; i < n; i++)
        hc_schedule_destroy(all[i]);
    free(all);
    return HC_OK;
}

/* Plan header shared by rank 0. */
typedef struct {
    int32_t status;
    uint32_t n_events, n_steps, n_segments, has_parent, n_members;
    uint32_t root, n1, n2, k;
    double makespan, lower_bound, beta;
    char algorithm[48];
} plan_hdr_t;

static int share_plan(hc_comm_t *c, hc_coll_t coll, hc_schedule_t **s, uint32_t **members,
                      uint32_t *n_members)
{
    plan_hdr_t h;
    memset(&h, 0, sizeof h);
    if (c->rank == 0) {
        h.status = *s ? HC_OK : HC_ERR_INTERNAL;
        if (*s) {
            h.n_events = (uint32_t)(*s)->n_events;
            h.n_steps = (uint32_t)(*s)->n_steps;
            h.n_segments = (*s)->n_segments;
            h.has_parent = ((*s)->parent != NULL) + ((*s)->parent2 != NULL);
            h.makespan = (*s)->makespan;
            h.lower_bound = (*s)->lower_bound;
            h.root = (*s)->root;
            h.n1 = (*s)->n1;
            h.n2 = (*s)->n2;
            h.k = (*s)->k;
            h.beta = (*s)->beta;
            memcpy(h.algorithm, (*s)->algorithm, sizeof h.algorithm);
        }
        h.n_members = *n_members;
    }
    MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, c->comm);
    if (h.status != HC_OK)
        return h.status;
    int rc = HC_OK;
    if (c->rank != 0) {
        rc = hc_schedule_create(coll, (uint32_t)c->size, s);
        if (rc == HC_OK && h.n_events) {
            (*s)->events = calloc(h.n_events, sizeof(hc_event_t));
            (*s)->cap_events = h.n_events;
            rc = (*s)->events ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK && h.n_steps) {
            (*s)->steps = calloc(h.n_steps, sizeof(hc_step_t));
            (*s)->cap_steps = h.n_steps;
            rc = (*s)->steps ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK && h.has_parent)
            rc = hc_schedule_alloc_trees(*s, h.has_parent == 2);
        if (rc == HC_OK && h.n_members) {
            *members = malloc(sizeof **members * h.n_members);
            rc = *members ? HC_OK : HC_ERR_NOMEM;
        }
        if (rc == HC_OK) {
            (*s)->n_events = h.n_events;
            (*s)->n_steps = h.n_steps;
            (*s)->n_segments = h.n_segments;
            (*s)->makespan = h.makespan;
            (*s)->lower_bound = h.lower_bound;
            (*s)->root = h.root;
            (*s)->n1 = h.n1;
            (*s)->n2 = h.n2;
            (*s)->k = h.k;
            (*s)->beta = h.beta;
            memcpy((*s)->algorithm, h.algorithm, sizeof h.algorithm);
            *n_members = h.n_members;
        }
    }
    /* Memory failures are local; agree before moving payloads. */
    int global;
    MPI_Allreduce(&rc, &global, 1, MPI_INT, MPI_MIN, c->comm);
    if (global != HC_OK)
        return global;
    if (h.n_events)
        MPI_Bcast((*s)->events, (int)(h.n_events * sizeof(hc_event_t)), MPI_BYTE, 0, c->comm);
    if (h.n_steps)
        MPI_Bcast((*s)->steps, (int)(h.n_steps * sizeof(hc_step_t)), MPI_BYTE, 0, c->comm);
    if (h.has_parent)
        MPI_Bcast((*s)->parent, c->size, MPI_INT32_T, 0, c->comm);
    if (h.has_parent == 2)
        MPI_Bcast((*s)->parent2, c->size, MPI_INT32_T, 0, c->comm);
    if (h.n_members)
        MPI_Bcast(*members, (int)h.n_members, MPI_UINT32_T, 0, c->comm);
    return HC_OK;
}

int hc__plan_get(hc_comm_t *c, hc_coll_t coll, const uint64_t *key, size_t key_len,
                 hc__build_fn build, const void *arg, hc__plan_entry_t **entry,
                 hc__plan_entry_t *tmp)
{
    uint64_t h = hc__fnv1a(key, key_len, 0xcbf29ce484222325ULL ^ ((uint64_t)coll << 56) ^ c->epoch);
    c->stats.calls++;
    c->clock++;
    for (unsigned i = 0; i < c->n_cache; i++) {
        hc__plan_entry_t *e = &c->cache[i];
        if (e->coll == coll && e->hash == h && e->key_len == key_len &&
            memcmp(e->key, key, key_len * sizeof *key) == 0) {
            e->last_use = c->clock;
            c->stats.cache_hits++;
            *entry = e;
            snprintf(c->last_algo, sizeof c->last_algo, "%s", e->s->algorithm);
            c->last_predicted = e->s->makespan;
            return HC_OK;
        }
    }
    /* Miss: every rank takes this branch (same key everywhere). */
    hc_schedule_t *cand[HC__TUNE_MAX] = {NULL};
    uint32_t *members = NULL, n_members = 0, n_cand = 0;
    const uint32_t max = c->opts.tune_trials > 0 && c->opts.cache_entries > 0 ? HC__TUNE_MAX : 1;
    int rc = HC_OK;
    if (c->rank == 0) {
        hc_problem_t pb;
        hc_matrix_t *costs = NULL, *sizes = NULL;
        rc = build(c, arg, &pb, &costs, &sizes, &members, &n_members);
        if (rc == HC_OK)
            rc = plan_with(c, &pb, c->algo[coll], cand, max, &n_cand);
        if (rc == HC_OK && c->opts.verbose) {
            fprintf(stderr, "hetcoll: %s: planned %s, predicted %.6g s (lower bound %.6g s)",
                    hc_coll_name(coll), cand[0]->algorithm, cand[0]->makespan,
                    cand[0]->lower_bound);
            for (uint32_t k = 1; k < n_cand; k++)
                fprintf(stderr, "%s %s (%.6g s)", k == 1 ? "; to measure:" : ",",
                        cand[k]->algorithm, cand[k]->makespan);
            fprintf(stderr, "\n");
        } else if (rc != HC_OK && c->opts.verbose) {
            fprintf(stderr, "hetcoll: %s: planning failed: %s\n", hc_coll_name(coll),
                    hc_error_detail());
        }
        hc_matrix_destroy(costs);
        hc_matrix_destroy(sizes);
        if (rc != HC_OK)
            n_cand = 0;
    }
    MPI_Bcast(&n_cand, 1, MPI_UINT32_T, 0, c->comm);
    rc = share_plan(c, coll, &cand[0], &members, &n_members);
    for (uint32_t k = 1; rc == HC_OK && k < n_cand; k++) {
        uint32_t none = 0;
        uint32_t *no_members = NULL;
        rc = share_plan(c, coll, &cand[k], &no_members, &none);
    }
    if (rc != HC_OK) {
        for (uint32_t k = 0; k < HC__TUNE_MAX; k++)
            hc_schedule_destroy(cand[k]);
        free(members);
        return rc;
    }
    hc_schedule_t *s = cand[0];
    c->stats.plans++;
    snprintf(c->last_algo, sizeof c->last_algo, "%s", s->algorithm);
    c->last_predicted = s->makespan;

    hc__plan_entry_t *e = tmp;
    if (c->opts.cache_entries > 0) {
        if (!c->cache) {
            c->cache = calloc(c->opts.cache_entries, sizeof *c->cache);
            if (!c->cache)
                goto uncached;
        }
        unsigned slot = c->n_cache;
        if (slot == c->opts.cache_entries) { /* evict the least recently used */
            slot = 0;
            for (unsigned i = 1; i < c->n_cache; i++)
                if (c->cache[i].last_use < c->cache[slot].last_use)
                    slot = i;
            hc__plan_entry_free(&c->cache[slot]);
        } else {
            c->n_cache++;
        }
        e = &c->cache[slot];
    }
uncached:
    memset(e, 0, sizeof *e);
    e->key = malloc(sizeof *key * (key_len ? key_len : 1));
    if (!e->key) {
        for (uint32_t k = 0; k < HC__TUNE_MAX; k++) /* NULL past the candidates */
            hc_schedule_destroy(cand[k]);
        free(members);
        if (e != tmp)
            c->n_cache--;
        return HC_ERR_NOMEM;
    }
    memcpy(e->key, key, key_len * sizeof *key);
    e->key_len = key_len;
    e->coll = coll;
    e->hash = h;
    e->s = s;
    e->members = members;
    e->last_use = c->clock;
    /* Several candidates: the entry runs each in turn until tuned (hc__plan_select). */
    e->n_cand = n_cand > 1 ? n_cand : 0;
    for (uint32_t k = 0; k < e->n_cand; k++)
        e->cand[k].s = cand[k];
    *entry = e;
    return HC_OK;
}

int hc__plan_select(hc_comm_t *c, hc__plan_entry_t *e, const hc_schedule_t **s,
                    const hc__order_t **o, int *trial)
{
    *trial = -1;
    if (e->n_cand == 0) {
        *s = e->s;
        return hc__plan_order(c, e, o);
    }
    hc__cand_t *k = &e->cand[e->trials % e->n_cand];
    *trial = (int)(e->trials % e->n_cand);
    *s = k->s;
    snprintf(c->last_algo, sizeof c->last_algo, "%s", k->s->algorithm);
    c->last_predicted = k->s->makespan;
    int err = k->order ? MPI_SUCCESS : hc__order_build(c, k->s, &k->order);
    *o = k->order;
    e->trial_start = MPI_Wtime();
    return err;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int hc__plan_trial_end(hc_comm_t *c, hc__plan_entry_t *e, int trial)
{
    if (trial < 0)
        return MPI_SUCCESS;
    double seconds = MPI_Wtime() - e->trial_start;
    /* The call's time is its slowest rank's; every rank gets the same value, so every rank
     * picks the same winner. */
    double t = seconds;
    int err = MPI_Allreduce(&seconds, &t, 1, MPI_DOUBLE, MPI_MAX, c->comm);
    if (err != MPI_SUCCESS)
        return err;
    c->stats.tuning_calls++;
    const uint32_t R =
        c->opts.tune_trials < HC__TUNE_TRIALS ? c->opts.tune_trials : HC__TUNE_TRIALS;
    e->cand[trial].t[e->trials / e->n_cand] = t;
    if (++e->trials < e->n_cand * R)
        return MPI_SUCCESS;
    /* Done: the smallest median wins (ties: the better predicted); the others go. */
    uint32_t best = 0;
    double best_t = 0;
    for (uint32_t k = 0; k < e->n_cand; k++) {
        qsort(e->cand[k].t, R, sizeof(double), cmp_double);
        double med = e->cand[k].t[R / 2];
        if (k == 0 || med < best_t) {
            best = k;
            best_t = med;
        }
    }
    if (c->opts.verbose && c->rank == 0) {
        fprintf(stderr, "hetcoll: %s: measured", hc_coll_name(e->coll));
        for (uint32_t k = 0; k < e->n_cand; k++)
            fprintf(stderr, "%s %s %.3g s", k ? "," : "", e->cand[k].s->algorithm,
                    e->cand[k].t[R / 2]);
        fprintf(stderr, "; keeping %s\n", e->cand[best].s->algorithm);
    }
    hc__order_free(e->order);
    e->s = e->cand[best].s;
    e->order = e->cand[best].order;
    e->cand[best].s = NULL;
    e->cand[best].order = NULL;
    for (uint32_t k = 0; k < e->n_cand; k++) { /* the losers (cand[0].s was the old e->s) */
        hc_schedule_destroy(e->cand[k].s);
        hc__order_free(e->cand[k].order);
        e->cand[k].s = NULL;
        e->cand[k].order = NULL;
    }
    e->n_cand = 0;
    return MPI_SUCCESS;
}
