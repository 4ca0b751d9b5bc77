/* Measured choice among a plan's candidates: the MPI library's own collective ("native") and
 * the schedules the model shortlisted.
 *
 * A model is only as good as what it sees (CPU sharing, protocol switches, probe noise), so,
 * as STAR-MPI does (Faraj & Yuan, ICS 2005), the model shortlists and measurement decides,
 * with the MPI library's collective always in the running: hetcoll never keeps a schedule
 * that was not measured faster than native.
 *  - The first calls of a plan run the candidates in rounds (after the first round, a trial
 *    is a batch of consecutive calls lasting about HC__TRIAL_MIN: single short calls are
 *    mostly noise), native first in even rounds and
 *    last in odd ones (so a candidate does not always follow the same one: caches and
 *    stragglers of the previous call are shared out). A trial's time is the slowest rank's
 *    (an MPI_Allreduce MAX), so every rank sees the same numbers and takes the same decisions.
 *  - A schedule is dropped as soon as its best time is HC__DROP_RATIO times the leader's
 *    median (HC__DROP_FIRST after its first call, which pays one-time costs): a schedule
 *    several times slower costs one or two calls, not rounds of them. Native is
 *    never dropped (one slow first call must not remove the reference).
 *  - After tune_trials rounds (or when one candidate is left) the smallest median wins. A
 *    schedule is kept only when it is clearly faster than native: its median below HC__MARGIN
 *    times native's, and faster than native in at least 3 of 4 rounds after the first (paired
 *    by round, so a burst of load that slowed one round does not decide; the first round pays
 *    one-time costs); or when the two samples separate (faster in each of at least 4 paired
 *    rounds after the first, its slowest trial below native's fastest: a smaller gain that
 *    noise cannot explain; tune_rule.c). When the leader is within
 *    HC__CLOSE of native, the rounds are doubled (up to HC__TUNE_TRIALS) before deciding.
 *  - The decision is measured again after 8 times as many calls (a cheap re-check: the
 *    candidates are kept), and a new epoch plans afresh.
 * Decisions feed the planning threshold: when measurement keeps choosing native, the next
 * sizes wait longer before they are planned (c->plan_after), so a job where hetcoll cannot
 * help stops paying for planning. */
#include <stdio.h>

#include "mpi_internal.h"
#include "tune_rule.h"

#define HC__DROP_RATIO 1.5 /* a schedule's best trial this much slower than the leader... */
#define HC__DROP_FIRST 4.0 /* ... or its first one this much: dropped */
#define HC__MARGIN 0.9     /* 10 % faster than native, or samples that separate (tune_rule.h) */
#define HC__CLOSE 0.8      /* a leader measured between 0.8 and 1.25 x native: more rounds */
#define HC__RECHECK_FACTOR 8
#define HC__TRIAL_MIN 5e-4 /* seconds: shorter calls are measured in batches ... */
#define HC__BATCH_MAX 8    /* ... of at most this many calls */

int hc__cand_order(hc_comm_t *c, const hc__entry_t *e, hc__cand_t *k, const hc__order_t **out)
{
    int err = !k->s || k->order ? MPI_SUCCESS : hc__order_build(c, k->s, e->plan_bytes, &k->order);
    *out = k->order;
    return err;
}

static double median(const hc__cand_t *k)
{
    return hc__tune_median(k->t, k->n_t);
}

static double best(const hc__cand_t *k)
{
    double b = k->t[0];
    for (uint32_t i = 1; i < k->n_t; i++)
        b = k->t[i] < b ? k->t[i] : b;
    return b;
}

static const char *cand_name(const hc__cand_t *k)
{
    return k->s ? k->s->algorithm : "native";
}

/* What tells two candidates of one algorithm apart in the log. */
static const char *cand_shape(const hc__cand_t *k)
{
    return k->s && k->s->recv_order == HC_RECV_ROUND_ROBIN ? " (round-robin receives)" : "";
}

static uint32_t rounds(const hc_comm_t *c)
{
    uint32_t r = c->opts.tune_trials;
    return r < 1 ? 1 : r > HC__TUNE_TRIALS ? HC__TUNE_TRIALS : r;
}

/* The candidate at position `pos` of round `round`: native (index 0) first in even rounds,
 * last in odd ones. */
static uint32_t slot(const hc__entry_t *e, uint32_t round, uint32_t pos)
{
    return round % 2 ? e->n_cand - 1 - pos : pos;
}

/* Next position; a wrap ends a round. */
static void advance(hc__entry_t *e)
{
    e->pos = (e->pos + 1) % e->n_cand;
    if (e->pos == 0)
        e->round++;
}

uint32_t hc__tune_pick(hc_comm_t *c, hc__entry_t *e)
{
    (void)c;
    if (!e->tuning && e->n_cand > 1 && e->recheck_at && e->calls >= e->recheck_at) {
        /* Measure again: the network or the load may have changed. */
        for (uint32_t k = 0; k < e->n_cand; k++) {
            e->cand[k].n_t = 0;
            e->cand[k].dropped = 0;
        }
        e->tuning = 1;
        e->round = e->pos = 0;
        e->in_batch = 0;
        e->acc = 0;
    }
    if (!e->tuning)
        return e->chosen;
    while (e->in_batch == 0 && e->cand[slot(e, e->round, e->pos)].dropped)
        advance(e);
    e->trial_start = hc__now();
    return slot(e, e->round, e->pos);
}

/* The live candidate with the smallest median among those measured (UINT32_MAX: none). */
static uint32_t leader(const hc__entry_t *e)
{
    uint32_t l = UINT32_MAX;
    double lt = 0;
    for (uint32_t k = 0; k < e->n_cand; k++) {
        const hc__cand_t *x = &e->cand[k];
        if (x->dropped || x->n_t == 0)
            continue;
        double m = median(x);
        if (l == UINT32_MAX || m < lt) {
            l = k;
            lt = m;
        }
    }
    return l;
}

/* Does schedule x beat native clearly (tune_rule.h)? */
static int clearly_faster(const hc__cand_t *x, const hc__cand_t *nat)
{
    return hc__tune_keeps(x->t, x->n_t, nat->t, nat->n_t, HC__MARGIN);
}

/* The leader is a schedule whose median is near native's: worth more rounds. */
static int close_call(const hc__entry_t *e, uint32_t l)
{
    const hc__cand_t *nat = e->cand[0].s ? NULL : &e->cand[0];
    if (!nat || nat->dropped || l == 0 || l == UINT32_MAX || nat->n_t == 0)
        return 0;
    double r = median(&e->cand[l]) / median(nat);
    return r > HC__CLOSE && r < 1 / HC__CLOSE;
}

static void decide(hc_comm_t *c, hc__entry_t *e)
{
    uint32_t w = leader(e);
    const hc__cand_t *nat = e->cand[0].s ? NULL : &e->cand[0];
    /* A schedule must be measured clearly faster than native, which is what runs otherwise. */
    if (nat && w != 0 && !nat->dropped && nat->n_t > 0 && !clearly_faster(&e->cand[w], nat))
        w = 0;
    e->chosen = w;
    e->tuning = 0;
    uint64_t next = e->calls * HC__RECHECK_FACTOR;
    e->recheck_at = next > 256 ? next : 256;
    uint32_t *pa = &c->plan_after[e->coll];
    if (nat && w == 0)
        *pa = *pa * 2 > HC__PLAN_AFTER_MAX ? HC__PLAN_AFTER_MAX : *pa * 2;
    else if (nat)
        *pa = *pa / 2 > 2 ? *pa / 2 : 2;
    if (c->opts.verbose && c->rank == 0) {
        char line[512];
        size_t used = 0;
        for (uint32_t k = 0; k < e->n_cand && used < sizeof line; k++) {
            const hc__cand_t *x = &e->cand[k];
            int n = snprintf(line + used, sizeof line - used, "%s%s%s %.3g s%s", k ? ", " : "",
                             cand_name(x), cand_shape(x), x->n_t ? median(x) : 0.0,
                             x->dropped ? " (dropped)" : "");
            used += n > 0 ? (size_t)n : 0;
        }
        hc__log(c, "%s: measured (median of the slowest rank) %s; keeping %s%s",
                hc_coll_name(e->coll), line, cand_name(&e->cand[w]), cand_shape(&e->cand[w]));
    }
}

int hc__tune_done(hc_comm_t *c, hc__entry_t *e, uint32_t k)
{
    if (!e->tuning)
        return MPI_SUCCESS;
    const double now = hc__now();
    e->acc += now - e->trial_start;
    c->stats.tuning_calls++;
    const uint32_t b = e->batch ? e->batch : 1;
    if (++e->in_batch < b)
        return MPI_SUCCESS;
    double seconds = e->acc / b, t = seconds;
    e->in_batch = 0;
    e->acc = 0;
    int err = MPI_Allreduce(&seconds, &t, 1, MPI_DOUBLE, MPI_MAX, c->comm);
    if (err != MPI_SUCCESS)
        return err;
    c->t_over += hc__now() - now; /* measuring is overhead too */
    hc__cand_t *x = &e->cand[k];
    if (x->n_t < HC__TUNE_TRIALS)
        x->t[x->n_t++] = t;
    /* What this trial cost beyond the MPI library's collective (the planning budget). */
    const hc__cand_t *nat = e->cand[0].s ? NULL : &e->cand[0];
    if (x->s && nat && nat->n_t > 0 && t > median(nat))
        c->t_over += b * (t - median(nat));
    /* Drop what is clearly slower than the leader. */
    uint32_t l = leader(e);
    uint32_t live = 0;
    for (uint32_t i = 0; i < e->n_cand; i++) {
        hc__cand_t *y = &e->cand[i];
        /* Native is never dropped: it is the reference every schedule must beat. */
        /* A first call pays one-time costs (connections, buffers): one sample drops only a
         * schedule far behind. */
        const double lead = median(&e->cand[l]);
        if (!y->dropped && i != l && y->s && y->n_t > 0 &&
            best(y) > (y->n_t >= 2 ? HC__DROP_RATIO : HC__DROP_FIRST) * lead)
            y->dropped = 1;
        live += !y->dropped;
    }
    do
        advance(e);
    while (e->cand[slot(e, e->round, e->pos)].dropped);
    /* After the first round, size the batches from native's time (agreed, so the same on
     * every rank). */
    if (!e->batch && e->round >= 1 && nat && nat->n_t > 0) {
        double m = median(nat), want = m > 0 ? HC__TRIAL_MIN / m : HC__BATCH_MAX;
        e->batch = want >= HC__BATCH_MAX ? HC__BATCH_MAX : want <= 1 ? 1 : (uint32_t)want + 1;
    }
    const uint32_t r = rounds(c);
    const uint32_t more = 2 * r > HC__TUNE_TRIALS ? HC__TUNE_TRIALS : 2 * r;
    if (live <= 1 || (e->round >= r && !(e->round < more && close_call(e, l))))
        decide(c, e);
    return MPI_SUCCESS;
}
