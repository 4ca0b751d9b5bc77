/* hetcoll communicators: options and environment, the platform of the members, statistics.
 * What a communicator reports (log, native fallbacks, errors the MPI way) is in report.c. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int rc_ = (expr);                                                                          \
        if (rc_ != HC_OK)                                                                          \
            return rc_;                                                                            \
    } while (0)

void hc_comm_opts_init(hc_comm_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = (uint32_t)sizeof *o;
    o->algo_alltoall = o->algo_bcast = o->algo_reduce = o->algo_redistribute = "auto";
    o->model = HC_MODEL_HOCKNEY;
    o->cache_entries = 32;
    o->tune_trials = 3;
    o->plan_after = 3;
    o->plan_time_limit = 0.05;
    o->recv_order = "auto";
    o->bcast_split = "auto";
    o->reduce_split = "auto";
    o->relay = "auto";
}

int64_t hc__bcast_split_parse(const char *v)
{
    char *end = NULL;
    const long long n = strtoll(v, &end, 10);
    return strcmp(v, "auto") == 0                               ? -1
           : strcmp(v, "never") == 0                            ? 0
           : end != v && *end == '\0' && n >= 1 && n <= INT_MAX ? (int64_t)n
                                                                : -2;
}

/* A split option (bcast_split, reduce_split): the environment's `var` when set and use_env,
 * else the option `v` (NULL: auto), parsed into *out; an error naming the bad value. */
static int split_opt(int use_env, const char *var, const char *name, const char *v, int64_t *out)
{
    const char *e = use_env ? getenv(var) : NULL;
    const int from_env = e && *e;
    v = from_env ? e : v ? v : "auto";
    *out = hc__bcast_split_parse(v);
    if (*out == -2)
        return hc_error_set(HC_ERR_VALUE,
                            "%s%s%s: must be auto, never or a size in bytes (1 to %d)",
                            from_env ? var : name, from_env ? "=" : " ", v, INT_MAX);
    return HC_OK;
}

int hc__algo_check(hc_coll_t coll, const char *name)
{
    const hc_algo_info_t *info;
    if (!name || !*name)
        return hc_error_set(HC_ERR_VALUE, "empty %s algorithm name", hc_coll_name(coll));
    if (strcmp(name, "auto") == 0 || strcmp(name, "native") == 0 ||
        hc_algo_find(coll, name, &info) == HC_OK)
        return HC_OK;
    char names[1024];
    hc_algo_names(coll, names, sizeof names);
    return hc_error_set(HC_ERR_UNKNOWN, "unknown %s algorithm '%s' (valid: %s%s, native)",
                        hc_coll_name(coll), name,
                        hc_algo_find(coll, "auto", &info) == HC_OK ? "" : "auto, ", names);
}

/* Map ranks to nodes: identity, or by processor name when asked. */
static int map_ranks(hc_comm_t *c, const hc_platform_t *p, uint32_t *idx)
{
    uint32_t P = hc_platform_size(p);
    for (int r = 0; r < c->size; r++)
        idx[r] = (uint32_t)r;
    if (!c->opts.map_by_hostname)
        return HC_OK;
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    memset(name, 0, sizeof name);
    MPI_Get_processor_name(name, &len);
    char *all = malloc((size_t)c->size * MPI_MAX_PROCESSOR_NAME);
    if (!all)
        return hc_error_set(HC_ERR_NOMEM, "out of memory mapping ranks to hosts");
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  c->comm);
    /* Ranks sharing a host take that host's nodes in rank order. */
    char *used = calloc(P ? P : 1, 1);
    int rc = used ? HC_OK : hc_error_set(HC_ERR_NOMEM, "out of memory mapping ranks to hosts");
    for (int r = 0; rc == HC_OK && r < c->size; r++) {
        const char *host = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
        uint32_t j = 0;
        for (; j < P; j++)
            if (!used[j] && strcmp(hc_platform_node_name(p, j), host) == 0)
                break;
        if (j == P) {
            rc = hc_error_set(HC_ERR_UNKNOWN,
                              "map_by_hostname: rank %d runs on host '%s', which has no free node "
                              "of that name in the platform",
                              r, host);
            break;
        }
        used[j] = 1;
        idx[r] = j;
    }
    free(used);
    free(all);
    return rc;
}

/* An unsigned integer in [lo, hi] from the environment variable `name` (unset: *out kept). */
static int env_uint(const char *name, unsigned lo, unsigned hi, unsigned *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return HC_OK;
    char *end;
    errno = 0;
    unsigned long x = strtoul(v, &end, 10);
    if (*v == '-' || *end || errno || x < lo || x > hi)
        return hc_error_set(HC_ERR_VALUE, "%s=%s: must be an integer from %u to %u", name, v, lo,
                            hi);
    *out = (unsigned)x;
    return HC_OK;
}

/* The options, then the environment (HETCOLL_ALGO_*, HETCOLL_TUNE, HETCOLL_PLAN_AFTER,
 * HETCOLL_VERBOSE, HETCOLL_FLOW_MODEL, HETCOLL_RECV_ORDER) unless the drop-in already applied
 * it. */
static int resolve_options(hc_comm_t *c)
{
    static const char *const env[HC_COLL_COUNT] = {
        [HC_COLL_ALLTOALL] = "HETCOLL_ALGO_ALLTOALL",
        [HC_COLL_REDISTRIBUTE] = "HETCOLL_ALGO_REDISTRIBUTE",
        [HC_COLL_BCAST] = "HETCOLL_ALGO_BCAST",
        [HC_COLL_REDUCE] = "HETCOLL_ALGO_REDUCE",
    };
    const char *opt[HC_COLL_COUNT] = {
        [HC_COLL_ALLTOALL] = c->opts.algo_alltoall,
        [HC_COLL_REDISTRIBUTE] = c->opts.algo_redistribute,
        [HC_COLL_BCAST] = c->opts.algo_bcast,
        [HC_COLL_REDUCE] = c->opts.algo_reduce,
    };
    const int use_env = !(c->flags & HC__DROPIN);
    for (int k = 0; k < HC_COLL_COUNT; k++) {
        const char *e = use_env ? getenv(env[k]) : NULL;
        const char *name = e && *e ? e : opt[k] ? opt[k] : "auto";
        if (hc__algo_check((hc_coll_t)k, name) != HC_OK)
            return hc_error_set(HC_ERR_UNKNOWN, "%s%s%s", e && *e ? env[k] : "",
                                e && *e ? ": " : "", hc_error_detail());
        if (strlen(name) >= sizeof c->algo[k])
            return hc_error_set(HC_ERR_VALUE, "algorithm name '%s' is too long", name);
        snprintf(c->algo[k], sizeof c->algo[k], "%s", name);
    }
    if (use_env) {
        unsigned verbose = c->opts.verbose ? 1 : 0;
        TRY(env_uint("HETCOLL_TUNE", 0, HC__TUNE_TRIALS, &c->opts.tune_trials));
        TRY(env_uint("HETCOLL_PLAN_AFTER", 1, 1000000, &c->opts.plan_after));
        TRY(env_uint("HETCOLL_VERBOSE", 0, 1, &verbose));
        c->opts.verbose = (int)verbose;
        const char *fm = getenv("HETCOLL_FLOW_MODEL");
        if (fm && *fm && strcmp(fm, "smpi") != 0 && strcmp(fm, "plain") != 0)
            return hc_error_set(HC_ERR_VALUE, "HETCOLL_FLOW_MODEL=%s: must be plain or smpi", fm);
        c->flow_smpi = fm && strcmp(fm, "smpi") == 0;
    }
    const char *ro = use_env ? getenv("HETCOLL_RECV_ORDER") : NULL;
    const int ro_env = ro && *ro;
    ro = ro_env ? ro : c->opts.recv_order ? c->opts.recv_order : "auto";
    c->recv_order = strcmp(ro, "messages") == 0      ? (int)HC_RECV_MESSAGES
                    : strcmp(ro, "round-robin") == 0 ? (int)HC_RECV_ROUND_ROBIN
                    : strcmp(ro, "auto") == 0        ? -1
                                                     : -2;
    if (c->recv_order == -2)
        return hc_error_set(HC_ERR_VALUE, "%s%s: must be auto, messages or round-robin",
                            ro_env ? "HETCOLL_RECV_ORDER=" : "recv_order ", ro);
    const char *rl = use_env ? getenv("HETCOLL_RELAY") : NULL;
    const int rl_env = rl && *rl;
    rl = rl_env ? rl : c->opts.relay ? c->opts.relay : "auto";
    c->relay = strcmp(rl, "never") == 0        ? 0
               : strcmp(rl, "forwarders") == 0 ? 1
               : strcmp(rl, "auto") == 0       ? -1
                                               : -2;
    if (c->relay == -2)
        return hc_error_set(HC_ERR_VALUE, "%s%s: must be auto, never or forwarders",
                            rl_env ? "HETCOLL_RELAY=" : "relay ", rl);
    int rc = split_opt(use_env, "HETCOLL_BCAST_SPLIT", "bcast_split", c->opts.bcast_split,
                       &c->bcast_split);
    if (rc == HC_OK)
        rc = split_opt(use_env, "HETCOLL_REDUCE_SPLIT", "reduce_split", c->opts.reduce_split,
                       &c->reduce_split);
    if (rc != HC_OK)
        return rc;
    if (c->opts.tune_trials > HC__TUNE_TRIALS)
        return hc_error_set(HC_ERR_VALUE, "tune_trials: at most %d (got %u)", HC__TUNE_TRIALS,
                            c->opts.tune_trials);
    if (c->opts.plan_after == 0)
        c->opts.plan_after = 1;
    if (!(c->opts.plan_time_limit >= 0) || !isfinite(c->opts.plan_time_limit))
        return hc_error_set(HC_ERR_VALUE, "plan_time_limit: must be finite and >= 0");
    for (int k = 0; k < HC_COLL_COUNT; k++)
        c->plan_after[k] = c->opts.plan_after;
    return HC_OK;
}

/* MPI_Pack writes the raw bytes of the signature (a homogeneous MPI): then broadcast segments
 * of any datatype can be cut in bytes (exec.c). */
static int pack_is_raw(MPI_Comm comm)
{
    int v[6] = {11, 12, 13, 14, 15, 16}, expect[3] = {11, 13, 15};
    char out[64];
    int pos = 0, raw = 0;
    MPI_Datatype t;
    if (MPI_Type_vector(3, 1, 2, MPI_INT, &t) != MPI_SUCCESS)
        return 0;
    if (MPI_Type_commit(&t) == MPI_SUCCESS &&
        MPI_Pack(v, 1, t, out, (int)sizeof out, &pos, comm) == MPI_SUCCESS)
        raw = pos == (int)sizeof expect && memcmp(out, expect, sizeof expect) == 0;
    MPI_Type_free(&t);
    return raw;
}

/* The members' part of `src` (rank r on node nodes[r], or on the mapped / identity node). */
static int take_platform(hc_comm_t *c, const hc_platform_t *src, const uint32_t *nodes)
{
    const uint32_t P = hc_platform_size(src);
    if (!nodes && P < (uint32_t)c->size)
        return hc__fail(MPI_ERR_ARG,
                        "the platform (%s) has %u nodes but the communicator has %d ranks: rank i "
                        "runs on node i, so give a platform with at least %d nodes",
                        c->platform_origin, P, c->size, c->size);
    uint32_t *idx = malloc(sizeof *idx * (size_t)c->size);
    if (!idx)
        return hc__fail(MPI_ERR_NO_MEM, "out of memory");
    int rc = HC_OK;
    if (nodes)
        memcpy(idx, nodes, sizeof *idx * (size_t)c->size);
    else
        rc = map_ranks(c, src, idx);
    if (rc == HC_OK)
        rc = hc_platform_subset(src, idx, (uint32_t)c->size, &c->platform);
    free(idx);
    return rc == HC_OK ? MPI_SUCCESS
                       : hc__fail(hc__mpi_err(rc), "platform (%s): %s", c->platform_origin,
                                  hc_error_detail());
}

/* Everything local first, then one agreement: with a platform (given or from
 * HETCOLL_PLATFORM) creating a communicator costs MPI_Comm_dup and one small allreduce. Only a
 * quick probe needs more. map_by_hostname gathers the processor names (a collective of its
 * own, called by every rank since the option is the same everywhere). */
int hc__comm_create(MPI_Comm comm, const hc_platform_t *platform, const uint32_t *nodes,
                    const hc_comm_opts_t *opts, unsigned flags, hc_comm_t **out)
{
    if (!out)
        return hc__fail(MPI_ERR_ARG, "hc_comm_create: out is NULL");
    *out = NULL;
    if (comm == MPI_COMM_NULL)
        return hc__fail(MPI_ERR_COMM, "hc_comm_create: the communicator is MPI_COMM_NULL");
    int inter = 0;
    MPI_Comm_test_inter(comm, &inter);
    if (inter)
        return hc__fail(MPI_ERR_COMM, "hc_comm_create: intercommunicators are not supported");
    MPI_Comm dup = MPI_COMM_NULL;
    int err = MPI_Comm_dup(comm, &dup);
    if (err != MPI_SUCCESS)
        return hc__fail(err, "MPI_Comm_dup failed");
    /* The drop-in decides itself what an error means (usually: run the MPI collective). */
    if (flags & HC__DROPIN)
        MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    hc_comm_t *c = calloc(1, sizeof *c);
    int size = 0;
    MPI_Comm_size(dup, &size);
    if (c) /* here, so that arming the redistribution's fast path cannot fail on one rank */
        c->rfast.groups = malloc(sizeof *c->rfast.groups * (size_t)(size > 0 ? size : 1));
    if (!c || !c->rfast.groups || hc__spec_init(c, size) != MPI_SUCCESS) {
        if (c) {
            hc__spec_free(c);
            free(c->rfast.groups);
        }
        free(c);
        /* Still one agreement, so the other ranks do not wait for a later collective. */
        int vals[2] = {0, 0};
        hc__agree_min(dup,
                      hc__fail(MPI_ERR_NO_MEM, "out of memory creating a hetcoll "
                                               "communicator"),
                      vals, 2);
        MPI_Comm_free(&dup);
        return MPI_ERR_NO_MEM;
    }
    c->comm = dup;
    c->flags = flags;
    /* the caller's options read up to its struct_size (docs/architecture.md, "ABI") */
    hc_comm_opts_init(&c->opts);
    int opts_ok = !opts || opts->struct_size > sizeof(uint32_t);
    if (opts && opts_ok)
        memcpy((char *)&c->opts + sizeof(uint32_t), (const char *)opts + sizeof(uint32_t),
               (opts->struct_size < sizeof *opts ? opts->struct_size : sizeof *opts) -
                   sizeof(uint32_t));
    MPI_Comm_rank(c->comm, &c->rank);
    c->size = size;
    c->last_predicted = NAN;
    if (!opts_ok)
        err = hc__fail(MPI_ERR_ARG,
                       "hc_comm_create: hc_comm_opts_t.struct_size is %u: start from "
                       "hc_comm_opts_init",
                       opts->struct_size);
    else
        err = resolve_options(c) == HC_OK ? MPI_SUCCESS
                                          : hc__fail(MPI_ERR_ARG, "%s", hc_error_detail());
    hc_platform_t *loaded = NULL;
    const char *spec = getenv("HETCOLL_PLATFORM");
    int have = 1; /* this rank has its platform (else every rank probes) */
    if (err == MPI_SUCCESS && platform) {
        snprintf(c->platform_origin, sizeof c->platform_origin, "given to hc_comm_create%s%s",
                 hc_platform_name(platform)[0] ? ": " : "", hc_platform_name(platform));
    } else if (err == MPI_SUCCESS && spec && *spec) {
        snprintf(c->platform_origin, sizeof c->platform_origin, "HETCOLL_PLATFORM=%s", spec);
        if (hc_platform_load(spec, &loaded) != HC_OK)
            err = hc__fail(MPI_ERR_ARG, "HETCOLL_PLATFORM=%s: %s", spec, hc_error_detail());
        platform = loaded;
    } else if (err == MPI_SUCCESS) {
        have = 0;
    }
    if (err == MPI_SUCCESS && have && !c->opts.map_by_hostname)
        err = take_platform(c, platform, nodes);
    int vals[2] = {pack_is_raw(c->comm), have};
    err = hc__agree_min(c->comm, err, vals, 2);
    c->raw_pack = vals[0];
    if (err == MPI_SUCCESS && have != vals[1])
        err = hc__fail(MPI_ERR_ARG, "HETCOLL_PLATFORM is set on some ranks only");
    if (err == MPI_SUCCESS && !vals[1]) { /* no platform anywhere: probe */
        double t0 = hc__now();
        err = hc__mpi_quick_probe(c->comm, &loaded);
        if (err != MPI_SUCCESS)
            err =
                hc__fail(err, "the quick probe of %d ranks failed: %s", c->size, hc_error_detail());
        snprintf(c->platform_origin, sizeof c->platform_origin,
                 "quick probe of %d ranks (%.2g s; set HETCOLL_PLATFORM or pass a platform to "
                 "skip it)",
                 c->size, hc__now() - t0);
        hc__log(c, "no platform given: %s", c->platform_origin);
        platform = loaded;
        have = 1;
    }
    if (err == MPI_SUCCESS && (!vals[1] || c->opts.map_by_hostname)) {
        /* map_ranks gathers processor names: every rank calls it */
        err = take_platform(c, platform, nodes);
        err = hc__agree(c->comm, err);
    }
    hc_platform_destroy(loaded);
    if (err != MPI_SUCCESS) {
        hc_comm_destroy(c);
        return err;
    }
    *out = c;
    return MPI_SUCCESS;
}

int hc_comm_create(MPI_Comm comm, const hc_platform_t *platform, const hc_comm_opts_t *opts,
                   hc_comm_t **out)
{
    int err = hc__comm_create(comm, platform, NULL, opts, 0, out);
    if (err != MPI_SUCCESS)
        MPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, err);
    return err;
}

void hc_comm_destroy(hc_comm_t *c)
{
    if (!c)
        return;
    const hc_comm_stats_t *st = &c->stats;
    if (st->calls)
        hc__log(c,
                "%d ranks: %lu calls (%lu ran the MPI library's collective, %lu fallbacks), %lu "
                "plans, %lu measured calls; %.3g s in collectives, %.3g s of it planning and "
                "measuring",
                c->size, st->calls, st->native_calls, st->fallbacks, st->plans, st->tuning_calls,
                c->t_coll, c->t_over);
    hc__cache_clear(c);
    free(c->cache);
    hc__spec_free(c);
    free(c->scratch);
    free(c->rfast.groups);
    hc_platform_destroy(c->platform);
    if (c->comm != MPI_COMM_NULL)
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

const char *hc_comm_platform_origin(const hc_comm_t *c)
{
    return c->platform_origin;
}

const char *hc_comm_last_algorithm(const hc_comm_t *c)
{
    return c->last_algo;
}

int hc_comm_settled(const hc_comm_t *c)
{
    return c ? c->settled : 0;
}

double hc_comm_last_predicted(const hc_comm_t *c)
{
    return c->last_predicted;
}

const char *hc_comm_last_note(const hc_comm_t *c)
{
    return c->last_note;
}

void hc_comm_new_epoch(hc_comm_t *c)
{
    c->epoch++;
    hc__cache_clear(c);
    hc__entry_free(&c->spec.entry);
    c->spec.armed = 0;
    c->spec.streak = 0;
    c->spec.interval = 1;
    c->spec.check_at = c->spec.calls + 1;
    for (int k = 0; k < HC_COLL_COUNT; k++)
        c->plan_after[k] = c->opts.plan_after ? c->opts.plan_after : 1;
}
