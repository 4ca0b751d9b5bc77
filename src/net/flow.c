/* The flow model (include/hetcoll/links.h): concurrent transfers share the capacities of the
 * links they cross by max-min fairness (progressive filling), the rates recomputed whenever a
 * transfer begins or ends; a transfer first waits its route's latency. This is the bandwidth
 * sharing of SimGrid's network model without its TCP refinements (the latency and bandwidth
 * factors are options); with smpi_factors, SimGrid SMPI's default model as SimGrid 3.32
 * computes it (size-dependent factors, weight-S, TCP-gamma, cross traffic). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/links.h"
#include "net_internal.h"

void hc_flow_opts_init(hc_flow_opts_t *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = (uint32_t)sizeof *opts;
    opts->latency_factor = 1.0;
    opts->bandwidth_factor = 1.0;
}

/* SMPI's default piecewise factors (SimGrid 3.3x, smpi/lat-factor and smpi/bw-factor): the
 * factor of the largest threshold a message reaches once SMPI_SIZE_SLACK bytes are added to
 * its payload. Measured in SMPI 3.32 (MPI_Send and MPI_Isend of MPI_BYTE between two sites):
 * 9360 B pay 2.19 latencies, 9361 B 2.60; 5760 B 1.88, 5761 B 2.19; 3468 and 3469 B, 65456
 * and 65457 B the same step: each class begins 15 B below its threshold. */
static const struct {
    double from, lat, bw;
} smpi_factors[] = {
    {65472, 11.6436, 0.940694}, {15424, 3.48845, 0.697866}, {9376, 2.59299, 0.58729},
    {5776, 2.18796, 1.08739},   {3484, 1.88101, 0.77493},   {1426, 1.61075, 0.608902},
    {732, 1.9503, 0.341987},    {257, 1.95341, 0.338112},   {0, 2.01467, 0.812084}};

/* The rest of SMPI's default network model (SimGrid 3.32, network_cm02.cpp): network/weight-S
 * (a flow's share weight is 1 / (its route's latency + weight-S x the sum of 1 / bandwidth over
 * its links)), network/TCP-gamma (a flow's consumption is at most gamma / (2 x latency)) and
 * network/crosstraffic (a flow also loads its way back at 0.05). */
#define SMPI_WEIGHT_S 8775.0
#define SMPI_TCP_GAMMA 4194304.0
#define SMPI_CROSSTRAFFIC 0.05

#define SMPI_SIZE_SLACK 15.0

#define SMPI_CLASSES (sizeof smpi_factors / sizeof *smpi_factors)

/* The index of a message's size class in smpi_factors (SMPI_CLASSES: none). */
static uint64_t smpi_class(double bytes)
{
    for (uint64_t k = 0; k < SMPI_CLASSES; k++)
        if (bytes + SMPI_SIZE_SLACK >= smpi_factors[k].from)
            return k;
    return SMPI_CLASSES;
}

static void smpi_factor(double bytes, double *lat, double *bw)
{
    const uint64_t k = smpi_class(bytes);
    *lat = k < SMPI_CLASSES ? smpi_factors[k].lat : 1;
    *bw = k < SMPI_CLASSES ? smpi_factors[k].bw : 1;
}

void hc_flow_factors(const hc_flow_opts_t *opts, double bytes, double *latency_factor,
                     double *bandwidth_factor)
{
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    if (opts && hc__opts_read(&o, sizeof o, opts, "hc_flow_opts_t") != HC_OK) {
        hc_flow_opts_init(&o);
        hc_error_clear();
    }
    double lf = 1, bf = 1;
    if (o.smpi_factors)
        smpi_factor(bytes, &lf, &bf);
    if (latency_factor)
        *latency_factor = lf * o.latency_factor;
    if (bandwidth_factor)
        *bandwidth_factor = bf * o.bandwidth_factor;
}

/* SMPI's most favourable factors: the smallest latency factor and the largest bandwidth factor
 * any size class has (not the same class). */
static void smpi_best(double *lf, double *bf)
{
    *lf = INFINITY;
    *bf = 0;
    for (size_t k = 0; k < sizeof smpi_factors / sizeof *smpi_factors; k++) {
        *lf = smpi_factors[k].lat < *lf ? smpi_factors[k].lat : *lf;
        *bf = smpi_factors[k].bw > *bf ? smpi_factors[k].bw : *bf;
    }
}

int hc_flows_bound_platform(const hc_platform_t *p, const hc_flow_opts_t *opts, hc_platform_t **out)
{
    if (!p || !out)
        return hc__error(HC_ERR_INVAL, "hc_flows_bound_platform: NULL argument");
    *out = NULL;
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_flow_opts_t"));
    /* the factors of the most favourable sizes (a schedule may cut its messages into them) */
    double lf = 1, bf = 1;
    if (o.smpi_factors)
        smpi_best(&lf, &bf);
    lf *= o.latency_factor;
    bf *= o.bandwidth_factor;
    if (!(lf > 0) || !(bf > 0) || !isfinite(lf) || !isfinite(bf))
        return hc__error(HC_ERR_VALUE,
                         "hc_flows_bound_platform: latency factor %g and bandwidth factor %g "
                         "must be positive and finite",
                         lf, bf);
    hc_platform_t *q = NULL;
    HC__TRY(hc_platform_clone(p, &q));
    /* SMPI's cross traffic: a flow also loads its way back at 0.05, so a shared link that the
     * way back of every route across it crosses too carries 1.05 per byte */
    unsigned char *both = o.smpi_factors && q->route ? hc__calloc(q->n_links + 1, 1) : NULL;
    if (o.smpi_factors && q->route && !both) {
        hc_platform_destroy(q);
        return hc__error(HC_ERR_NOMEM, "out of memory in hc_flows_bound_platform");
    }
    for (uint32_t k = 0; both && k < q->n_links; k++)
        both[k] = q->links[k].sharing == HC_LINK_SHARED;
    for (uint32_t i = 0; both && i < q->P; i++)
        for (uint32_t j = 0; j < q->P; j++) {
            const uint32_t *r = i == j ? NULL : q->route[(size_t)i * q->P + j];
            const uint32_t *b = r ? q->route[(size_t)j * q->P + i] : NULL;
            for (uint32_t h = 0; r && h < r[0]; h++) {
                uint32_t x = r[1 + h] >> 1, back = 0;
                for (uint32_t g = 0; b && !back && g < b[0]; g++)
                    back = b[1 + g] >> 1 == x;
                if (!back)
                    both[x] = 0;
            }
        }
    for (uint32_t k = 0; k < q->n_links; k++) {
        q->links[k].lat *= lf;
        q->links[k].bw *= bf / (both && both[k] ? 1 + SMPI_CROSSTRAFFIC : 1);
        /* elsewhere hc_flows_bound adds each transfer's way back, where it knows the bytes (a
         * rack's split-duplex uplink carries 0.05 of what its nodes receive from outside) */
        q->links[k].back_load = both && !both[k] ? SMPI_CROSSTRAFFIC : 0;
    }
    for (uint32_t i = 0; i < q->P; i++)
        for (uint32_t j = 0; j < q->P; j++) {
            if (i == j)
                continue;
            size_t k = (size_t)i * q->P + j;
            const uint32_t *r = q->route ? q->route[k] : NULL;
            q->lat[k] *= lf;
            if (!r) {
                q->bw[k] *= bf;
                continue;
            }
            double bw = INFINITY; /* the route's bottleneck, as hc_platform_set_route */
            for (uint32_t h = 0; h < r[0]; h++)
                bw = fmin(bw, q->links[r[1 + h] >> 1].bw);
            q->bw[k] = bw;
        }
    free(both);
    *out = q;
    return HC_OK;
}

/* Resource of a hop: a shared link is one resource for both directions, a split-duplex link
 * one per direction (2 link + down); a fat pipe none (-1): it only caps each flow. */
static int64_t resource_of(const hc_platform_t *p, uint32_t hop)
{
    const hc__link_t *l = &p->links[hop >> 1];
    if (l->sharing == HC_LINK_FATPIPE)
        return -1;
    if (l->sharing == HC_LINK_SPLITDUPLEX)
        return (int64_t)hop; /* link << 1 | down */
    return (int64_t)(hop >> 1) << 1;
}

/* The latency the flow model gives pair k's transfers: its route's links' (whose sum may be 0;
 * the platform's pair latency is at least 1e-9 for the per-pair model), else the pair's. A bound
 * counting the pair latency claimed 1e-9 s too much on a route without latency (fuzz_bounds). */
static double pair_latency(const hc_platform_t *p, size_t k)
{
    const uint32_t *r = p->route ? p->route[k] : NULL;
    if (!r)
        return p->lat[k];
    double lat = 0;
    for (uint32_t h = 0; h < r[0]; h++)
        lat += p->links[r[1 + h] >> 1].lat;
    return lat;
}

typedef struct fstate {
    double ready;  /* start + latency: when bytes begin to flow */
    double left;   /* bytes left */
    double cap;    /* bound on the flow's data rate (INFINITY: none) */
    double rate;   /* current data rate */
    double w;      /* share weight: 1, or 1 / SimGrid's sharing penalty */
    double fac;    /* data rate per unit of link consumption (SMPI's bandwidth factor) */
    int phase;     /* 0 waiting, 1 transferring, 2 done */
    uint32_t *res; /* resources crossed */
    double *coef;  /* consumption on each (1; crosstraffic adds 0.05 on the way back) */
    uint32_t n_res;
    uint64_t key; /* its class: route and SMPI size class (share()) */
} fstate_t;

/* ---- the incremental engine: transfers are added while it runs (the simulator adds an event
 * when its predecessors end) ---- */

struct hc__fe {
    const hc_platform_t *p;
    hc_flow_opts_t o;
    fstate_t *f;
    double *bytes;
    size_t n, cap;
    double now;
    size_t n_r;
    double *cap0, *capw, *load;
    uint32_t *cnt;
    unsigned char *fixed; /* per position in act */
    /* The flows waiting or transferring, in id order: each step costs what is in flight, not
     * every flow added (an exchange in pieces, posted a window at a time, adds tens of
     * thousands). Done flows wait in `done`, a min-heap of ids: reported in id order. */
    size_t *act, n_act;
    size_t *done, n_done;
    /* share()'s work space: each resource's open flows (positions in act, rent[roff[r] ..
     * roff[r + 1] - 1]), a round's candidates (cand, marked in `mark`); res_sum bounds the
     * entries of rent (every flow's resources) */
    size_t *roff, *rent, *cand, res_sum, rent_cap;
    unsigned char *mark;
    /* share()'s classes: flows of one route and size class cross the same resources with the
     * same coefficients, weight, factor and cap, so max-min fairness gives them one rate
     * (a window of pieces on one route is one class). Per class a flow (crep) and how many
     * (cmul); per position in act its class (cls_of); an open-addressing table of key ->
     * class (ht, ht_size slots), a slot valid where its stamp (hstamp) is the current one. */
    size_t *crep, *cls_of, *ht;
    double *cmul, *crate;
    uint32_t *hstamp, stamp;
    size_t ht_size;
};

static int by_pos(const void *pa, const void *pb)
{
    const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

/* A flow's own cap as a filling level. */
static double cap_level(const fstate_t *f)
{
    return f->cap / (f->fac * f->w);
}

/* The classes of the transferring flows among e->f[e->act[..]] (e->crep, e->cmul, e->cls_of),
 * in the order of their first flow; returns their number. The table holds 2 x e->cap slots
 * (hc__fe_add). */
static size_t classes(hc__fe_t *e)
{
    if (++e->stamp == 0) { /* wrapped: every slot stale again */
        memset(e->hstamp, 0, e->ht_size * sizeof *e->hstamp);
        e->stamp = 1;
    }
    const size_t mask = e->ht_size - 1;
    size_t nc = 0;
    for (size_t k = 0; k < e->n_act; k++) {
        const fstate_t *f = &e->f[e->act[k]];
        e->cls_of[k] = SIZE_MAX;
        if (f->phase != 1)
            continue;
        size_t h = (size_t)((f->key * 0x9E3779B97F4A7C15ull) >> 17) & mask;
        while (e->hstamp[h] == e->stamp && e->f[e->crep[e->ht[h]]].key != f->key)
            h = (h + 1) & mask;
        if (e->hstamp[h] != e->stamp) {
            e->hstamp[h] = e->stamp;
            e->ht[h] = nc;
            e->crep[nc] = e->act[k];
            e->cmul[nc++] = 0;
        }
        e->cls_of[k] = e->ht[h];
        e->cmul[e->ht[h]] += 1;
    }
    return nc;
}

/* Weighted max-min rates of the transferring flows among e->f[e->act[..]], as SimGrid's solver
 * computes them: flow k takes level x * w[k] of every resource it crosses, times its
 * coefficient there, until a resource saturates or the flow reaches its cap; its data rate is
 * that consumption times fac. With every w, coef and fac 1 this is plain progressive filling.
 * It fills the flows' classes (classes()), a class of c flows loading each resource c times
 * one flow's consumption. A round fixes, in the order of their first flow, the classes that
 * a resource saturated at the round's level or their own cap stop. A broadcast in 8 KiB
 * pieces keeps hundreds of classes open and saturates dozens of NICs one round each, so a
 * round looks only at the classes of its saturated resources (their lists) and rescans every
 * open class only when the round is a cap's or fixed the last open class at the lowest cap
 * (other resources' ratios only grow as classes leave them, so no other class is taken). */
static void share(hc__fe_t *e)
{
    fstate_t *all = e->f;
    const size_t n = classes(e), n_r = e->n_r;
    const size_t *crep = e->crep;
    const double *mul = e->cmul;
    double *cap = e->capw, *load = e->load, *crate = e->crate;
    uint32_t *cnt = e->cnt;
    unsigned char *fixed = e->fixed, *mark = e->mark;
    memcpy(cap, e->cap0, n_r * sizeof *cap);
    memset(load, 0, n_r * sizeof *load);
    memset(cnt, 0, n_r * sizeof *cnt);
    size_t open = n;
    for (size_t k = 0; k < n; k++) {
        const fstate_t *f = &all[crep[k]];
        fixed[k] = 0;
        mark[k] = 0;
        for (uint32_t h = 0; h < f->n_res; h++) {
            load[f->res[h]] += f->coef[h] * f->w * mul[k];
            cnt[f->res[h]]++;
        }
    }
    /* the resources' lists, in class order */
    e->roff[0] = 0;
    for (size_t r = 0; r < n_r; r++)
        e->roff[r + 1] = e->roff[r] + cnt[r];
    for (size_t k = 0; k < n; k++) {
        const fstate_t *f = &all[crep[k]];
        for (uint32_t h = 0; h < f->n_res; h++)
            e->rent[e->roff[f->res[h]]++] = k;
    }
    for (size_t r = n_r; r > 0; r--)
        e->roff[r] = e->roff[r - 1];
    e->roff[0] = 0;
    /* the lowest cap level of an open class and how many open classes have it (stale:
     * recomputed): classes of one route share a cap, and fixing one of many leaves the level
     * as it was, so a round rescans every class only when it fixed the last */
    double fc = INFINITY;
    size_t nfc = 0;
    int stale = 1;
    while (open > 0) {
        /* the level at which the next resource saturates (cnt: its open classes, exact, so
         * that rounding left in a weighted load never stalls the filling) */
        double s = INFINITY;
        for (size_t r = 0; r < n_r; r++)
            if (cnt[r] && cap[r] / load[r] < s)
                s = cap[r] / load[r];
        if (stale) {
            fc = INFINITY;
            nfc = 0;
            for (size_t k = 0; k < n; k++) {
                const double l = fixed[k] ? INFINITY : cap_level(&all[crep[k]]);
                if (l < fc)
                    fc = l, nfc = 0;
                nfc += !fixed[k] && l == fc;
            }
            stale = 0;
        }
        double x = fc < s ? fc : s;
        if (!isfinite(x)) { /* no constraint at all: cannot happen with finite links */
            for (size_t k = 0; k < n; k++)
                if (!fixed[k])
                    crate[k] = INFINITY, fixed[k] = 1;
            break;
        }
        /* the candidates: the open classes of the resources saturated at x, and when a cap is
         * reached, every open class */
        size_t nc = 0;
        if (fc <= x) {
            for (size_t k = 0; k < n; k++)
                if (!fixed[k])
                    e->cand[nc++] = k;
        } else {
            size_t lists = 0;
            for (size_t r = 0; r < n_r; r++)
                if (cnt[r] && cap[r] / load[r] <= x * (1 + 1e-12)) {
                    lists++;
                    for (size_t q = e->roff[r]; q < e->roff[r + 1]; q++)
                        if (!fixed[e->rent[q]] && !mark[e->rent[q]])
                            mark[e->rent[q]] = 1, e->cand[nc++] = e->rent[q];
                }
            /* one resource's list is in class order already; several are merged by a sort,
             * or by a pass over the marks when that costs less */
            if (lists > 1 && (double)nc * log2((double)nc) > (double)n) {
                nc = 0;
                for (size_t k = 0; k < n; k++)
                    if (mark[k])
                        e->cand[nc++] = k;
            } else if (lists > 1) {
                qsort(e->cand, nc, sizeof *e->cand, by_pos);
            }
        }
        size_t took = 0;
        for (size_t c = 0; c < nc; c++) {
            const size_t k = e->cand[c];
            mark[k] = 0;
            const fstate_t *f = &all[crep[k]];
            int take = cap_level(f) <= x;
            for (uint32_t h = 0; !take && h < f->n_res; h++) {
                uint32_t r = f->res[h];
                take = cap[r] / load[r] <= x * (1 + 1e-12);
            }
            if (!take)
                continue;
            took++;
            if (cap_level(f) <= fc && (nfc == 0 || --nfc == 0))
                stale = 1;
            double v = x * f->w; /* one flow's consumption per unit coefficient */
            crate[k] = v * f->fac;
            fixed[k] = 1;
            open--;
            for (uint32_t h = 0; h < f->n_res; h++) {
                uint32_t r = f->res[h];
                double u = v * f->coef[h] * mul[k];
                cap[r] = cap[r] > u ? cap[r] - u : 0;
                load[r] = --cnt[r] ? load[r] - f->coef[h] * f->w * mul[k] : 0;
            }
        }
        if (!took) /* cannot happen: the argmin's classes take; never loop forever */
            for (size_t k = 0; k < n; k++)
                if (!fixed[k]) {
                    const fstate_t *f = &all[crep[k]];
                    crate[k] = x * f->w * f->fac, fixed[k] = 1, open--;
                }
    }
    for (size_t k = 0; k < e->n_act; k++)
        if (e->cls_of[k] != SIZE_MAX)
            all[e->act[k]].rate = crate[e->cls_of[k]];
}

void hc__fe_destroy(hc__fe_t *e)
{
    if (!e)
        return;
    for (size_t k = 0; k < e->n; k++) {
        free(e->f[k].res);
        free(e->f[k].coef);
    }
    free(e->f);
    free(e->bytes);
    free(e->cap0);
    free(e->capw);
    free(e->load);
    free(e->cnt);
    free(e->fixed);
    free(e->act);
    free(e->done);
    free(e->roff);
    free(e->rent);
    free(e->cand);
    free(e->mark);
    free(e->crep);
    free(e->cls_of);
    free(e->cmul);
    free(e->crate);
    free(e->ht);
    free(e->hstamp);
    free(e);
}

int hc__fe_create(const hc_platform_t *p, const hc_flow_opts_t *opts, hc__fe_t **out)
{
    *out = NULL;
    hc__fe_t *e = hc__calloc(1, sizeof *e);
    if (!e)
        return hc__error(HC_ERR_NOMEM, "out of memory in the flow model");
    e->p = p;
    hc_flow_opts_init(&e->o);
    int rc = opts ? hc__opts_read(&e->o, sizeof e->o, opts, "hc_flow_opts_t") : HC_OK;
    if (rc == HC_OK && (!(e->o.latency_factor >= 0) || !isfinite(e->o.latency_factor) ||
                        !(e->o.bandwidth_factor > 0) || !isfinite(e->o.bandwidth_factor)))
        rc = hc__error(HC_ERR_VALUE, "flow model: latency factor must be >= 0 and bandwidth "
                                     "factor > 0, both finite");
    e->n_r = 2 * (size_t)p->n_links;
    e->cap0 = hc__malloc(e->n_r + 1, sizeof *e->cap0);
    e->capw = hc__malloc(e->n_r + 1, sizeof *e->capw);
    e->load = hc__malloc(e->n_r + 1, sizeof *e->load);
    e->cnt = hc__malloc(e->n_r + 1, sizeof *e->cnt);
    e->roff = hc__malloc(e->n_r + 1, sizeof *e->roff);
    if (rc == HC_OK && (!e->cap0 || !e->capw || !e->load || !e->cnt || !e->roff))
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the flow model");
    if (rc != HC_OK) {
        hc__fe_destroy(e);
        return rc;
    }
    for (size_t r = 0; r < e->n_r; r++)
        e->cap0[r] = p->links[r >> 1].bw * e->o.bandwidth_factor;
    *out = e;
    return HC_OK;
}

double hc__fe_latency(const hc__fe_t *e, uint32_t src, uint32_t dst, double bytes)
{
    if (src == dst || src >= e->p->P || dst >= e->p->P)
        return 0;
    double lat = hc_platform_latency(e->p, src, dst), lf = 1, bf = 1;
    if (e->o.smpi_factors)
        smpi_factor(bytes, &lf, &bf);
    return lat * lf * e->o.latency_factor;
}

int hc__fe_add(hc__fe_t *e, uint32_t src, uint32_t dst, double bytes, double start, size_t *id)
{
    const hc_platform_t *p = e->p;
    if (src >= p->P || dst >= p->P || !isfinite(bytes) || bytes < 0 || !isfinite(start))
        return hc__error(HC_ERR_VALUE,
                         "flow model: transfer %u -> %u of %g bytes: nodes must be "
                         "< %u, bytes finite and >= 0",
                         src, dst, bytes, p->P);
    if (e->n == e->cap) {
        size_t c = e->cap ? 2 * e->cap : 64;
        int ok = 1;
        /* each array to c entries; on failure the engine keeps the old one (e->cap) */
#define FE_GROW(a)                                                                                 \
    do {                                                                                           \
        void *g_ = hc__realloc(e->a, c, sizeof *e->a);                                             \
        if (g_)                                                                                    \
            e->a = g_;                                                                             \
        ok &= g_ != NULL;                                                                          \
    } while (0)
        FE_GROW(f);
        FE_GROW(bytes);
        FE_GROW(fixed);
        FE_GROW(act);
        FE_GROW(done);
        FE_GROW(cand);
        FE_GROW(mark);
        FE_GROW(crep);
        FE_GROW(cls_of);
        FE_GROW(cmul);
        FE_GROW(crate);
#undef FE_GROW
        /* classes()'s table: 2 c slots, every stamp stale */
        size_t *ht = ok ? hc__realloc(e->ht, 2 * c, sizeof *ht) : NULL;
        if (ht)
            e->ht = ht;
        uint32_t *st = ht ? hc__realloc(e->hstamp, 2 * c, sizeof *st) : NULL;
        if (st) {
            e->hstamp = st;
            memset(st, 0, 2 * c * sizeof *st);
            e->stamp = 0;
            e->ht_size = 2 * c;
        }
        if (!ok || !st)
            return hc__error(HC_ERR_NOMEM, "out of memory in the flow model");
        e->cap = c;
    }
    fstate_t *f = &e->f[e->n];
    memset(f, 0, sizeof *f);
    f->cap = INFINITY;
    f->left = bytes;
    f->w = f->fac = 1;
    double t0 = start > e->now ? start : e->now;
    if (src != dst) {
        const uint32_t *r = p->route ? p->route[(size_t)src * p->P + dst] : NULL;
        const uint32_t *back = p->route ? p->route[(size_t)dst * p->P + src] : NULL;
        if (!r)
            return hc__error(HC_ERR_VALUE, "flow model: no route from %s to %s", p->node_names[src],
                             p->node_names[dst]);
        int smpi = e->o.smpi_factors != 0;
        uint32_t n_back = smpi && back ? back[0] : 0;
        f->res = hc__malloc(r[0] + n_back + 1, sizeof *f->res);
        f->coef = hc__malloc(r[0] + n_back + 1, sizeof *f->coef);
        if (!f->res || !f->coef)
            return hc__error(HC_ERR_NOMEM, "out of memory in the flow model");
        double lat = 0, bottleneck = INFINITY, penalty = 0;
        for (uint32_t h = 0; h < r[0] + n_back; h++) {
            int fwd = h < r[0];
            uint32_t hop = fwd ? r[1 + h] : back[1 + h - r[0]];
            const hc__link_t *l = &p->links[hop >> 1];
            int64_t res = resource_of(p, hop);
            if (fwd) {
                lat += l->lat;
                penalty += SMPI_WEIGHT_S / l->bw;
                if (l->bw < bottleneck)
                    bottleneck = l->bw;
                if (res < 0 && l->bw * e->o.bandwidth_factor < f->cap)
                    f->cap = l->bw * e->o.bandwidth_factor;
            }
            if (res < 0)
                continue; /* a fat pipe only caps each flow */
            double c = fwd ? 1 : SMPI_CROSSTRAFFIC;
            uint32_t q = 0; /* a route crossing a shared link both ways counts it once */
            while (q < f->n_res && f->res[q] != (uint32_t)res)
                q++;
            if (q == f->n_res) {
                f->res[f->n_res] = (uint32_t)res;
                f->coef[f->n_res++] = c;
            } else if (!fwd) {
                f->coef[q] += c; /* SimGrid adds the way back to a shared link's load */
            }
        }
        /* its class: the route, and under SMPI's model the size class (factors, cap) */
        f->key = ((uint64_t)src * p->P + dst) * (SMPI_CLASSES + 1) + (smpi ? smpi_class(bytes) : 0);
        if (smpi) { /* SimGrid SMPI's defaults, see hc_flow_opts_t.smpi_factors */
            double lf, bf;
            smpi_factor(bytes, &lf, &bf);
            /* the solver bounds the consumption by the bottleneck and by the TCP window over
             * the round trip; the data flows at bf x the consumption */
            double v = bottleneck;
            if (lat > 0 && SMPI_TCP_GAMMA / (2 * lat) < v)
                v = SMPI_TCP_GAMMA / (2 * lat);
            if (v * bf * e->o.bandwidth_factor < f->cap)
                f->cap = v * bf * e->o.bandwidth_factor;
            f->fac = bf;
            f->w = 1 / (lat + penalty);
            lat *= lf;
        }
        t0 += lat * e->o.latency_factor;
    } else {
        f->left = 0; /* local: no transfer */
    }
    if (e->res_sum + f->n_res > e->rent_cap) {
        size_t c = 2 * (e->res_sum + f->n_res) + 64;
        size_t *nr = hc__realloc(e->rent, c, sizeof *nr);
        if (!nr) {
            free(f->res);
            free(f->coef);
            return hc__error(HC_ERR_NOMEM, "out of memory in the flow model");
        }
        e->rent = nr;
        e->rent_cap = c;
    }
    e->res_sum += f->n_res;
    f->ready = t0;
    e->bytes[e->n] = bytes;
    if (id)
        *id = e->n;
    e->act[e->n_act++] = e->n++;
    return HC_OK;
}

/* Flow k is done: into the heap of completions to report. */
static void done_push(hc__fe_t *e, size_t k)
{
    size_t i = e->n_done++;
    for (; i > 0 && e->done[(i - 1) / 2] > k; i = (i - 1) / 2)
        e->done[i] = e->done[(i - 1) / 2];
    e->done[i] = k;
}

static size_t done_pop(hc__fe_t *e)
{
    size_t top = e->done[0], last = e->done[--e->n_done], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= e->n_done)
            break;
        if (c + 1 < e->n_done && e->done[c + 1] < e->done[c])
            c++;
        if (e->done[c] >= last)
            break;
        e->done[i] = e->done[c];
        i = c;
    }
    if (e->n_done)
        e->done[i] = last;
    return top;
}

/* Drops the done flows from act, keeping its order. */
static void act_compact(hc__fe_t *e)
{
    size_t m = 0;
    for (size_t q = 0; q < e->n_act; q++)
        if (e->f[e->act[q]].phase < 2)
            e->act[m++] = e->act[q];
    e->n_act = m;
}

/* Phase 3: done and reported. */
int hc__fe_next(hc__fe_t *e, size_t *id, double *t)
{
    for (;;) {
        if (e->n_done) { /* completions not reported yet, in id order */
            size_t k = done_pop(e);
            e->f[k].phase = 3;
            *id = k;
            *t = e->f[k].rate; /* the end time is kept in rate once done */
            return 1;
        }
        for (size_t q = 0; q < e->n_act; q++) {
            fstate_t *f = &e->f[e->act[q]];
            if (f->phase == 0 && f->ready <= e->now) {
                if (f->left > 0) {
                    f->phase = 1;
                } else {
                    f->phase = 2;
                    f->rate = f->ready;
                    done_push(e, e->act[q]);
                }
            }
        }
        if (e->n_done) {
            act_compact(e);
            continue;
        }
        share(e);
        double next = INFINITY;
        for (size_t q = 0; q < e->n_act; q++) {
            const fstate_t *f = &e->f[e->act[q]];
            if (f->phase == 0 && f->ready < next)
                next = f->ready;
            else if (f->phase == 1 && e->now + f->left / f->rate < next)
                next = e->now + f->left / f->rate;
        }
        if (!isfinite(next))
            return 0;
        double dt = next - e->now;
        for (size_t q = 0; q < e->n_act; q++) {
            size_t k = e->act[q];
            fstate_t *f = &e->f[k];
            if (f->phase != 1)
                continue;
            double tk = e->now + f->left / f->rate;
            f->left -= f->rate * dt;
            /* done: this flow's own completion, or less than a rounding error left */
            if (tk <= next * (1 + 1e-12) || f->left <= 1e-12 * e->bytes[k]) {
                f->left = 0;
                f->phase = 2;
                f->rate = next;
                done_push(e, k);
            }
        }
        act_compact(e);
        e->now = next;
    }
}

double hc__fe_now(const hc__fe_t *e)
{
    return e->now;
}

int hc_flows_run(const hc_platform_t *p, const hc_flow_opts_t *opts, const hc_flow_t *flows,
                 size_t n, double *end)
{
    if (!p || (!flows && n) || (!end && n))
        return hc__error(HC_ERR_INVAL, "hc_flows_run: NULL argument");
    hc__fe_t *e;
    HC__TRY(hc__fe_create(p, opts, &e));
    int rc = HC_OK;
    for (size_t k = 0; k < n && rc == HC_OK; k++) {
        if (!isfinite(flows[k].start) || flows[k].start < 0)
            rc = hc__error(HC_ERR_VALUE, "flow %zu: start must be finite and >= 0", k);
        else
            rc = hc__fe_add(e, flows[k].src, flows[k].dst, flows[k].bytes, flows[k].start, NULL);
    }
    size_t id;
    double t;
    while (rc == HC_OK && hc__fe_next(e, &id, &t))
        end[id] = t;
    hc__fe_destroy(e);
    return rc;
}

typedef struct {
    double lat, bytes;
    uint32_t res;
} lat_load_t;

static int by_res_lat(const void *a, const void *b)
{
    const lat_load_t *x = a, *y = b;
    if (x->res != y->res)
        return x->res < y->res ? -1 : 1;
    return (x->lat < y->lat) - (x->lat > y->lat); /* latency descending */
}

/* hc_flows_bound, its LP over the nc classes cl_lat, cl_bw (hc__flows_lp_bound); when that LP
 * is too large with several classes, over the most favourable one alone. */
static int flows_bound(const hc_platform_t *p, const double *bytes, size_t nc, const double *cl_lat,
                       const double *cl_bw, double *out)
{
    *out = 0;
    size_t n_r = 2 * (size_t)p->n_links;
    double *load = hc__calloc(n_r + 1, sizeof *load);
    if (!load)
        return hc__error(HC_ERR_NOMEM, "out of memory in the link bound");
    /* (resource, latency, bytes) of every flow on every resource it crosses, for the latency
     * terms below; skipped (the plain terms only) beyond 4M entries */
    size_t n_ent = 0, cap_ent = (size_t)p->P * p->P * 4 + 1;
    lat_load_t *ent = cap_ent <= ((size_t)1 << 22) ? hc__malloc(cap_ent, sizeof *ent) : NULL;
    /* the LP's transfers (flow_lp.c): release, bytes, resources ent[off[f] .. off[f+1]) */
    size_t n_fl = 0, n_pairs = (size_t)p->P * p->P;
    double *rel = ent ? hc__malloc(n_pairs + 1, sizeof *rel) : NULL;
    double *fb = ent ? hc__malloc(n_pairs + 1, sizeof *fb) : NULL;
    size_t *foff = ent ? hc__malloc(n_pairs + 1, sizeof *foff) : NULL;
    double lb = 0;
    int rc = HC_OK;
    for (uint32_t i = 0; i < p->P && rc == HC_OK; i++)
        for (uint32_t j = 0; j < p->P; j++) {
            double b = bytes[(size_t)i * p->P + j];
            if (i == j || !(b > 0))
                continue;
            const uint32_t *r = p->route ? p->route[(size_t)i * p->P + j] : NULL;
            if (!r) {
                rc = hc__error(HC_ERR_VALUE, "link bound: no route from %s to %s", p->node_names[i],
                               p->node_names[j]);
                break;
            }
            double lat = 0, bw = INFINITY;
            int64_t seen[64];
            uint32_t ns = 0;
            for (uint32_t h = 0; h < r[0]; h++) {
                const hc__link_t *l = &p->links[r[1 + h] >> 1];
                lat += l->lat;
                if (l->bw < bw)
                    bw = l->bw;
                int64_t res = resource_of(p, r[1 + h]);
                int dup = res < 0;
                for (uint32_t q = 0; !dup && q < ns; q++)
                    dup = seen[q] == res;
                if (dup)
                    continue;
                if (ns < 64)
                    seen[ns++] = res;
                load[res] += b;
            }
            /* cross traffic (hc_flows_bound_platform): the way back loads its links */
            const uint32_t *back = p->route[(size_t)j * p->P + i];
            int64_t bseen[64];
            uint32_t nb = 0;
            for (uint32_t h = 0; back && h < back[0]; h++) {
                const hc__link_t *l = &p->links[back[1 + h] >> 1];
                int64_t res = resource_of(p, back[1 + h]);
                int dup = res < 0 || !(l->back_load > 0);
                for (uint32_t q = 0; !dup && q < nb; q++)
                    dup = bseen[q] == res;
                if (dup)
                    continue;
                if (nb < 64)
                    bseen[nb++] = res;
                load[res] += l->back_load * b;
            }
            if (lat + b / bw > lb)
                lb = lat + b / bw;
            if (ent && rel && fb && foff) {
                rel[n_fl] = lat;
                fb[n_fl] = b;
                foff[n_fl++] = n_ent;
            }
            for (uint32_t q = 0; ent && q < ns; q++) {
                if (n_ent == cap_ent) {
                    lat_load_t *ne = realloc(ent, 2 * cap_ent * sizeof *ne);
                    if (!ne) {
                        free(ent);
                        ent = NULL;
                        break;
                    }
                    ent = ne;
                    cap_ent *= 2;
                }
                ent[n_ent++] = (lat_load_t){lat, b, (uint32_t)seen[q]};
            }
        }
    for (size_t r = 0; rc == HC_OK && r < n_r; r++)
        if (load[r] / p->links[r >> 1].bw > lb)
            lb = load[r] / p->links[r >> 1].bw;
    /* the LP over every transfer's intervals after its latency (flow_lp.c), before the sort */
    if (rc == HC_OK && ent && rel && fb && foff) {
        foff[n_fl] = n_ent;
        uint32_t *res = hc__malloc(n_ent + 1, sizeof *res);
        double lp = 0;
        for (size_t q = 0; res && q < n_ent; q++)
            res[q] = ent[q].res;
        static const double one = 1.0;
        int lrc = res ? hc__flows_lp_bound(p, n_fl, rel, fb, foff, res, nc, cl_lat, cl_bw, &lp)
                      : HC_ERR_NOMEM;
        if (lrc == HC_OK && !(lp > 0) && nc > 1)
            lrc = hc__flows_lp_bound(p, n_fl, rel, fb, foff, res, 1, &one, &one, &lp);
        if (lrc == HC_OK && lp > lb)
            lb = lp;
        free(res);
        hc_error_clear();
    }
    free(rel);
    free(fb);
    free(foff);
    /* A flow carries no byte before its route's latency: the flows of latency >= L on a
     * resource need L + their bytes / its capacity, for every L. */
    if (rc == HC_OK && ent) {
        qsort(ent, n_ent, sizeof *ent, by_res_lat);
        double cum = 0;
        for (size_t q = 0; q < n_ent; q++) {
            cum = q > 0 && ent[q - 1].res == ent[q].res ? cum + ent[q].bytes : ent[q].bytes;
            double t = ent[q].lat + cum / p->links[ent[q].res >> 1].bw;
            if (t > lb)
                lb = t;
        }
    }
    free(ent);
    free(load);
    if (rc == HC_OK)
        *out = lb;
    return rc;
}

int hc_flows_bound(const hc_platform_t *p, const double *bytes, double *out)
{
    if (!p || !bytes || !out)
        return hc__error(HC_ERR_INVAL, "hc_flows_bound: NULL argument");
    static const double one = 1.0;
    return flows_bound(p, bytes, 1, &one, &one, out);
}

/* Resources crossed by every route from outside cluster c into it (into = 1) or out of it
 * (into = 0), as a mask over the 2 L resources; 0 entries when none. Returns their count. */
static size_t common_resources(const hc_platform_t *p, uint32_t c, int into, unsigned char *mask)
{
    size_t n_r = 2 * (size_t)p->n_links;
    int first = 1;
    memset(mask, 0, n_r);
    unsigned char *here = hc__malloc(n_r ? n_r : 1, 1);
    if (!here)
        return 0;
    for (uint32_t i = 0; i < p->P; i++)
        for (uint32_t j = 0; j < p->P; j++) {
            int ci = p->cluster[i] == (int32_t)c, cj = p->cluster[j] == (int32_t)c;
            if (i == j || (into ? (ci || !cj) : (!ci || cj)))
                continue;
            const uint32_t *r = p->route[(size_t)i * p->P + j];
            memset(here, 0, n_r);
            for (uint32_t h = 0; r && h < r[0]; h++) {
                int64_t res = resource_of(p, r[1 + h]);
                if (res >= 0)
                    here[res] = 1;
            }
            for (size_t x = 0; x < n_r; x++)
                mask[x] = first ? here[x] : (unsigned char)(mask[x] & here[x]);
            first = 0;
        }
    free(here);
    size_t cnt = 0;
    for (size_t x = 0; !first && x < n_r; x++)
        cnt += mask[x];
    if (first)
        return 0;
    return cnt;
}

/* Node v's cut: m bytes must cross every resource common to all routes into v (into = 1; a
 * broadcast's receivers) or out of v (the root): m over the smallest such capacity, plus
 * `first` when receiving (no flow into v carries bytes before the first byte can reach v from
 * the root), else `last` when >= 0, else the smallest latency out of v (the first bytes' wait).
 * cnt: n_r zeros, left zeroed. */
static double node_cut(const hc_platform_t *p, uint32_t v, int into, double m, double first,
                       double last, uint32_t *cnt)
{
    size_t n_r = 2 * (size_t)p->n_links;
    double min_lat = INFINITY, t = 0;
    for (uint32_t u = 0; u < p->P; u++) {
        if (u == v)
            continue;
        size_t pair = into ? (size_t)u * p->P + v : (size_t)v * p->P + u;
        const uint32_t *r = p->route[pair];
        for (uint32_t h = 0; r && h < r[0]; h++) {
            int64_t res = resource_of(p, r[1 + h]);
            /* count a resource once per route (the count is below u + 1 then) */
            if (res >= 0 && cnt[res] == (uint32_t)(u - (u > v)))
                cnt[res]++;
        }
        if (pair_latency(p, pair) < min_lat)
            min_lat = pair_latency(p, pair);
    }
    for (size_t x = 0; x < n_r; x++) {
        if (cnt[x] == p->P - 1 && m / p->links[x >> 1].bw > t)
            t = m / p->links[x >> 1].bw;
        cnt[x] = 0;
    }
    double lat = into ? first : last >= 0 ? last : min_lat;
    return t > 0 ? t + (isfinite(lat) ? lat : 0) : 0;
}

/* The cut bound of a broadcast from root on p (mirror 0), or of a reduction to root on p with
 * its routes reversed (mirror 1; see hc_flows_reduce_bound). */
static int cut_bound(const hc_platform_t *p, uint32_t root, double m, int mirror, double *out)
{
    *out = 0;
    if (!hc_platform_has_routes(p) || p->P < 2)
        return HC_OK;
    /* every receiver takes m in through its own links (its NIC), the root lets m out */
    size_t n_r = 2 * (size_t)p->n_links;
    uint32_t *cnt = hc__calloc(n_r ? n_r : 1, sizeof *cnt);
    double *dist = hc__malloc(p->P, sizeof *dist);
    unsigned char *done = hc__calloc(p->P, 1);
    if (!cnt || !dist || !done) {
        free(cnt);
        free(dist);
        free(done);
        return hc__error(HC_ERR_NOMEM, "out of memory in the cut bound");
    }
    /* the first byte's earliest arrival: shortest latency paths from the root (Dijkstra) */
    for (uint32_t v = 0; v < p->P; v++)
        dist[v] = v == root ? 0 : INFINITY;
    for (uint32_t it = 0; it < p->P; it++) {
        uint32_t u = UINT32_MAX;
        for (uint32_t v = 0; v < p->P; v++)
            if (!done[v] && (u == UINT32_MAX || dist[v] < dist[u]))
                u = v;
        if (u == UINT32_MAX || !isfinite(dist[u]))
            break;
        done[u] = 1;
        for (uint32_t v = 0; v < p->P; v++)
            if (v != u && dist[u] + pair_latency(p, (size_t)u * p->P + v) < dist[v])
                dist[v] = dist[u] + pair_latency(p, (size_t)u * p->P + v);
    }
    /* A broadcast's receiver v takes no byte before dist[v]; the root's last byte may go to a
     * neighbour. The mirror (a reduction backwards in time, where a message's latency follows
     * its bytes): the root takes in, after the farthest node's shortest path, every position
     * combined with that node's data; another node's data leaves it after its own message's
     * latency, and may go straight to the root, so only that latency counts. */
    double far = 0;
    for (uint32_t v = 0; mirror && v < p->P; v++)
        if (isfinite(dist[v]) && dist[v] > far)
            far = dist[v];
    double nodes = 0;
    for (uint32_t v = 0; v < p->P; v++) {
        double first = mirror && v != root ? INFINITY : dist[v];
        for (uint32_t u = 0; mirror && v != root && u < p->P; u++)
            if (u != v && pair_latency(p, (size_t)u * p->P + v) < first)
                first = pair_latency(p, (size_t)u * p->P + v);
        double t = node_cut(p, v, v != root, m, first, mirror ? far : -1, cnt);
        nodes = t > nodes ? t : nodes;
    }
    free(cnt);
    free(dist);
    free(done);
    *out = nodes;
    if (p->n_clusters < 2 || p->cluster[root] < 0)
        return HC_OK;
    unsigned char *in = hc__malloc(n_r ? n_r : 1, 1), *outm = hc__malloc(n_r ? n_r : 1, 1);
    if (!in || !outm) {
        free(in);
        free(outm);
        return hc__error(HC_ERR_NOMEM, "out of memory in the cut bound");
    }
    uint32_t rc_root = (uint32_t)p->cluster[root];
    double lb = 0, cap_sum = 0, min_lat = INFINITY;
    int all_shared = 1;
    for (uint32_t c = 0; c < p->n_clusters; c++) {
        int is_root = c == rc_root;
        size_t n_in = common_resources(p, c, !is_root, in);
        double best = 0; /* the tightest common link: m over the smallest capacity */
        double cap_shared = INFINITY;
        for (size_t x = 0; x < n_r; x++)
            if (in[x]) {
                const hc__link_t *l = &p->links[x >> 1];
                if (m / l->bw > best)
                    best = m / l->bw;
                if (l->sharing == HC_LINK_SHARED && l->bw < cap_shared) {
                    /* the shared uplink: common to the routes in and out */
                    if (common_resources(p, c, is_root, outm) && outm[x])
                        cap_shared = l->bw;
                }
            }
        if (n_in == 0 || !isfinite(cap_shared))
            all_shared = 0;
        else
            cap_sum += cap_shared;
        if (best > lb)
            lb = best;
        if (!is_root)
            for (uint32_t i = 0; i < p->P; i++)
                for (uint32_t j = 0; j < p->P; j++)
                    if (p->cluster[i] != (int32_t)c && p->cluster[j] == (int32_t)c &&
                        pair_latency(p, (size_t)i * p->P + j) < min_lat)
                        min_lat = pair_latency(p, (size_t)i * p->P + j);
    }
    double k = p->n_clusters;
    if (all_shared && cap_sum > 0 && 2 * (k - 1) * m / cap_sum > lb)
        lb = 2 * (k - 1) * m / cap_sum;
    free(in);
    free(outm);
    lb += isfinite(min_lat) ? min_lat : 0;
    *out = lb > nodes ? lb : nodes;
    return HC_OK;
}

int hc_flows_bcast_bound(const hc_platform_t *p, uint32_t root, double m, double *out)
{
    if (!p || !out || root >= p->P || !(m >= 0))
        return hc__error(HC_ERR_INVAL, "hc_flows_bcast_bound: NULL argument, root out of range "
                                       "or negative size");
    return cut_bound(p, root, m, 0, out);
}

/* A copy of p with every route reversed: route i -> j takes j -> i's links in the opposite order
 * and direction (a reduction seen as a broadcast). */
static int reversed(const hc_platform_t *p, hc_platform_t **out)
{
    hc_platform_t *r = NULL;
    HC__TRY(hc_platform_clone(p, &r));
    size_t cap = 0;
    hc_hop_t *h = NULL, *rev = NULL;
    int rc = HC_OK;
    for (uint32_t i = 0; rc == HC_OK && i < p->P; i++)
        for (uint32_t j = 0; rc == HC_OK && j < p->P; j++) {
            size_t n = i == j ? 0 : hc_platform_route(p, j, i, NULL, 0);
            if (n == 0)
                continue;
            if (n > cap) {
                free(h);
                free(rev);
                cap = n;
                h = hc__malloc(cap, sizeof *h);
                rev = hc__malloc(cap, sizeof *rev);
                if (!h || !rev) {
                    rc = hc__error(HC_ERR_NOMEM, "out of memory in the reduction's cut bound");
                    break;
                }
            }
            hc_platform_route(p, j, i, h, cap);
            for (size_t k = 0; k < n; k++)
                rev[k] = (hc_hop_t){h[n - 1 - k].link, (uint8_t)!h[n - 1 - k].down};
            rc = hc_platform_set_route(r, i, j, n, rev);
        }
    free(h);
    free(rev);
    if (rc != HC_OK) {
        hc_platform_destroy(r);
        return rc;
    }
    *out = r;
    return HC_OK;
}

int hc_flows_reduce_bound(const hc_platform_t *p, uint32_t root, double m, double *out)
{
    if (!p || !out || root >= p->P || !(m >= 0))
        return hc__error(HC_ERR_INVAL, "hc_flows_reduce_bound: NULL argument, root out of range "
                                       "or negative size");
    *out = 0;
    if (!hc_platform_has_routes(p) || p->P < 2)
        return HC_OK;
    hc_platform_t *r = NULL;
    HC__TRY(reversed(p, &r));
    int rc = cut_bound(r, root, m, 1, out);
    hc_platform_destroy(r);
    return rc;
}

/* The classes a schedule's messages may take under opts, relative to the most favourable
 * factors (hc_flows_bound_platform's): latency factor >= 1, bytes per unit of capacity <= 1;
 * only those no other class beats in both. Returns their count (<= the table's size). */
static size_t bound_classes(const hc_flow_opts_t *o, double *lat, double *bw)
{
    enum { NT = sizeof smpi_factors / sizeof *smpi_factors };
    if (!o->smpi_factors) {
        lat[0] = bw[0] = 1;
        return 1;
    }
    double lf, bf;
    smpi_best(&lf, &bf);
    size_t n = 0;
    for (size_t k = 0; k < NT; k++) {
        int beaten = 0;
        for (size_t q = 0; q < NT && !beaten; q++)
            beaten = q != k && smpi_factors[q].lat <= smpi_factors[k].lat &&
                     smpi_factors[q].bw >= smpi_factors[k].bw &&
                     (smpi_factors[q].lat < smpi_factors[k].lat ||
                      smpi_factors[q].bw > smpi_factors[k].bw || q < k);
        if (!beaten) {
            lat[n] = smpi_factors[k].lat / lf;
            bw[n++] = smpi_factors[k].bw / bf;
        }
    }
    return n;
}

/* The sites LP of a broadcast from root on q (hc_flows_bound_platform's copy; mirror: of a
 * reduction, q's routes reversed): sites are the clusters; an arc's resources are those common to
 * every route out of its source site and into its destination site. *out = max(lo, the LP's
 * bound); lo when it does not apply. */
static int sites_lp(const hc_platform_t *q, const hc_flow_opts_t *o, uint32_t root, double m,
                    int mirror, double lo, double *out)
{
    *out = lo;
    const uint32_t K = q->n_clusters, P = q->P;
    if (K < 2 || K > 16)
        return HC_OK;
    for (uint32_t v = 0; v < P; v++)
        if (q->cluster[v] < 0)
            return HC_OK;
    const size_t n_r = 2 * (size_t)q->n_links, na_max = (size_t)K * (K - 1);
    double *L = hc__malloc((size_t)K * K, sizeof *L), *first = hc__malloc(K, sizeof *first);
    unsigned char *in = hc__malloc((size_t)K * (n_r ? n_r : 1), 1);
    unsigned char *outm = hc__malloc((size_t)K * (n_r ? n_r : 1), 1);
    unsigned char *done = hc__calloc(K, 1);
    uint32_t *src = hc__malloc(na_max, sizeof *src), *dst = hc__malloc(na_max, sizeof *dst);
    double *alat = hc__malloc(na_max, sizeof *alat), *cap = hc__malloc(n_r ? n_r : 1, sizeof *cap);
    size_t *off = hc__malloc(na_max + 1, sizeof *off);
    uint32_t *res = hc__malloc(na_max * (n_r ? n_r : 1), sizeof *res);
    int32_t *res_id = hc__malloc(n_r ? n_r : 1, sizeof *res_id);
    double cl_lat[sizeof smpi_factors / sizeof *smpi_factors];
    double cl_bw[sizeof smpi_factors / sizeof *smpi_factors];
    int rc = HC_OK;
    if (!L || !first || !in || !outm || !done || !src || !dst || !alat || !cap || !off || !res ||
        !res_id) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the broadcast's sites bound");
        goto done;
    }
    const uint32_t r = (uint32_t)q->cluster[root];
    for (size_t x = 0; x < (size_t)K * K; x++)
        L[x] = INFINITY;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            uint32_t ci = (uint32_t)q->cluster[i], cj = (uint32_t)q->cluster[j];
            if (ci != cj && q->route[(size_t)i * P + j] &&
                pair_latency(q, (size_t)i * P + j) < L[ci * K + cj])
                L[ci * K + cj] = pair_latency(q, (size_t)i * P + j);
        }
    /* the earliest a byte reaches each site (Dijkstra over the sites at the best class); the
     * mirror: the earliest a site may pass bytes on, its nearest latency in after the start */
    for (uint32_t c = 0; c < K; c++)
        first[c] = c == r ? 0 : INFINITY;
    for (uint32_t it = 0; !mirror && it < K; it++) {
        uint32_t u = UINT32_MAX;
        for (uint32_t c = 0; c < K; c++)
            if (!done[c] && (u == UINT32_MAX || first[c] < first[u]))
                u = c;
        if (u == UINT32_MAX || !isfinite(first[u]))
            break;
        done[u] = 1;
        for (uint32_t c = 0; c < K; c++)
            if (c != u && first[u] + L[u * K + c] < first[c])
                first[c] = first[u] + L[u * K + c];
    }
    for (uint32_t c = 0; mirror && c < K; c++) {
        for (uint32_t i = 0; c != r && i < K; i++)
            if (i != c && L[i * K + c] < first[c])
                first[c] = L[i * K + c];
    }
    for (uint32_t c = 0; c < K; c++) {
        common_resources(q, c, 1, in + (size_t)c * n_r);
        common_resources(q, c, 0, outm + (size_t)c * n_r);
    }
    size_t na = 0, nz = 0, n_res = 0;
    for (size_t x = 0; x < n_r; x++)
        res_id[x] = -1;
    off[0] = 0;
    for (uint32_t i = 0; i < K; i++)
        for (uint32_t j = 0; j < K; j++) {
            if (i == j || j == r || !isfinite(L[i * K + j]))
                continue;
            src[na] = i;
            dst[na] = j;
            alat[na] = L[i * K + j];
            for (size_t x = 0; x < n_r; x++)
                if (outm[(size_t)i * n_r + x] || in[(size_t)j * n_r + x]) {
                    if (res_id[x] < 0) {
                        res_id[x] = (int32_t)n_res;
                        cap[n_res++] = q->links[x >> 1].bw;
                    }
                    res[nz++] = (uint32_t)res_id[x];
                }
            off[++na] = nz;
        }
    size_t nc = bound_classes(o, cl_lat, cl_bw);
    hc__sites_lp_t s = {mirror, K,  r,      m,     na,    src, dst, alat,
                        first,  nc, cl_lat, cl_bw, n_res, cap, off, res};
    double lp = lo;
    rc = hc__flows_sites_lp_bound(&s, lo, &lp);
    if (rc == HC_OK && lp > lo)
        *out = lp;
done:
    free(L);
    free(first);
    free(in);
    free(outm);
    free(done);
    free(src);
    free(dst);
    free(alat);
    free(cap);
    free(off);
    free(res);
    free(res_id);
    return rc;
}

/* hc_flows_bcast_bound_model (mirror 0) and hc_flows_reduce_bound_model (mirror 1; `fn` names
 * it in errors). */
static int model_bound(const char *fn, const hc_platform_t *p, const hc_flow_opts_t *opts,
                       uint32_t root, double m, int mirror, double *out)
{
    if (!p || !out || root >= p->P || !(m >= 0))
        return hc__error(HC_ERR_INVAL, "%s: NULL argument, root out of range or negative size", fn);
    *out = 0;
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_flow_opts_t"));
    if (!hc_platform_has_routes(p) || p->P < 2)
        return HC_OK;
    hc_platform_t *q = NULL, *r = NULL;
    HC__TRY(hc_flows_bound_platform(p, &o, &q));
    int rc = HC_OK;
    if (mirror) { /* the reduction backwards in time: a broadcast on the routes reversed */
        rc = reversed(q, &r);
        hc_platform_destroy(q);
        q = r;
    }
    double cut = 0;
    if (rc == HC_OK)
        rc = cut_bound(q, root, m, mirror, &cut);
    if (rc == HC_OK)
        rc = sites_lp(q, &o, root, m, mirror, cut, out);
    hc_platform_destroy(q);
    return rc;
}

int hc_flows_bcast_bound_model(const hc_platform_t *p, const hc_flow_opts_t *opts, uint32_t root,
                               double m, double *out)
{
    return model_bound("hc_flows_bcast_bound_model", p, opts, root, m, 0, out);
}

int hc_flows_reduce_bound_model(const hc_platform_t *p, const hc_flow_opts_t *opts, uint32_t root,
                                double m, double *out)
{
    return model_bound("hc_flows_reduce_bound_model", p, opts, root, m, 1, out);
}

int hc_flows_bound_model(const hc_platform_t *p, const hc_flow_opts_t *opts, const double *bytes,
                         double *out)
{
    if (!p || !bytes || !out)
        return hc__error(HC_ERR_INVAL, "hc_flows_bound_model: NULL argument");
    *out = 0;
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_flow_opts_t"));
    hc_platform_t *q = NULL;
    HC__TRY(hc_flows_bound_platform(p, &o, &q));
    double cl_lat[sizeof smpi_factors / sizeof *smpi_factors];
    double cl_bw[sizeof smpi_factors / sizeof *smpi_factors];
    const size_t nc = bound_classes(&o, cl_lat, cl_bw);
    int rc = flows_bound(q, bytes, nc, cl_lat, cl_bw, out);
    hc_platform_destroy(q);
    return rc;
}
