/* The flow model (include/hetcoll/links.h): concurrent transfers share the capacities of the
 * links they cross by max-min fairness (progressive filling), the rates recomputed whenever a
 * transfer begins or ends; a transfer first waits its route's latency. This is the bandwidth
 * sharing of SimGrid's network model without its TCP refinements (the latency and bandwidth
 * factors are options). */
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

typedef struct fstate {
    double ready;  /* start + latency: when bytes begin to flow */
    double left;   /* bytes left */
    double cap;    /* fat-pipe cap of the flow (INFINITY: none) */
    double rate;   /* current rate */
    int phase;     /* 0 waiting, 1 transferring, 2 done */
    uint32_t *res; /* resources crossed */
    uint32_t n_res;
} fstate_t;

/* Max-min fair rates of the transferring flows (progressive filling). */
static void share(fstate_t *f, size_t n, const double *cap0, size_t n_r, double *cap, uint32_t *cnt,
                  unsigned char *fixed)
{
    memcpy(cap, cap0, n_r * sizeof *cap);
    memset(cnt, 0, n_r * sizeof *cnt);
    size_t open = 0;
    for (size_t k = 0; k < n; k++) {
        fixed[k] = f[k].phase != 1;
        if (fixed[k])
            continue;
        open++;
        for (uint32_t h = 0; h < f[k].n_res; h++)
            cnt[f[k].res[h]]++;
    }
    while (open > 0) {
        double s = INFINITY;
        for (size_t r = 0; r < n_r; r++)
            if (cnt[r] && cap[r] / cnt[r] < s)
                s = cap[r] / cnt[r];
        double fc = INFINITY;
        for (size_t k = 0; k < n; k++)
            if (!fixed[k] && f[k].cap < fc)
                fc = f[k].cap;
        double x = fc < s ? fc : s;
        if (!isfinite(x)) { /* no constraint at all: cannot happen with finite links */
            for (size_t k = 0; k < n; k++)
                if (!fixed[k])
                    f[k].rate = INFINITY, fixed[k] = 1;
            break;
        }
        for (size_t k = 0; k < n; k++) {
            if (fixed[k])
                continue;
            int take = f[k].cap <= x;
            for (uint32_t h = 0; !take && h < f[k].n_res; h++) {
                uint32_t r = f[k].res[h];
                take = cap[r] / cnt[r] <= x * (1 + 1e-12);
            }
            if (!take)
                continue;
            f[k].rate = x;
            fixed[k] = 1;
            open--;
            for (uint32_t h = 0; h < f[k].n_res; h++) {
                uint32_t r = f[k].res[h];
                cap[r] = cap[r] > x ? cap[r] - x : 0;
                cnt[r]--;
            }
        }
    }
}

int hc_flows_run(const hc_platform_t *p, const hc_flow_opts_t *opts, const hc_flow_t *flows,
                 size_t n, double *end)
{
    if (!p || (!flows && n) || (!end && n))
        return hc__error(HC_ERR_INVAL, "hc_flows_run: NULL argument");
    hc_flow_opts_t o;
    hc_flow_opts_init(&o);
    if (opts)
        HC__TRY(hc__opts_read(&o, sizeof o, opts, "hc_flow_opts_t"));
    if (!(o.latency_factor >= 0) || !isfinite(o.latency_factor) || !(o.bandwidth_factor > 0) ||
        !isfinite(o.bandwidth_factor))
        return hc__error(HC_ERR_VALUE, "flow model: latency factor must be >= 0 and bandwidth "
                                       "factor > 0, both finite");
    size_t n_r = 2 * (size_t)p->n_links;
    fstate_t *f = hc__calloc(n ? n : 1, sizeof *f);
    double *cap0 = hc__malloc(n_r + 1, sizeof *cap0), *cap = hc__malloc(n_r + 1, sizeof *cap);
    uint32_t *cnt = hc__malloc(n_r + 1, sizeof *cnt);
    unsigned char *fixed = hc__malloc(n ? n : 1, 1);
    int rc = HC_OK;
    if (!f || !cap0 || !cap || !cnt || !fixed) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory in the flow model (%zu flows)", n);
        goto done;
    }
    for (size_t r = 0; r < n_r; r++)
        cap0[r] = p->links[r >> 1].bw * o.bandwidth_factor;
    for (size_t k = 0; k < n && rc == HC_OK; k++) {
        const hc_flow_t *x = &flows[k];
        if (x->src >= p->P || x->dst >= p->P || !isfinite(x->bytes) || x->bytes < 0 ||
            !isfinite(x->start) || x->start < 0) {
            rc = hc__error(HC_ERR_VALUE,
                           "flow %zu: nodes must be < %u, bytes and start finite "
                           "and >= 0",
                           k, p->P);
            break;
        }
        f[k].cap = INFINITY;
        f[k].left = x->bytes;
        if (x->src == x->dst) { /* local: free */
            f[k].ready = x->start;
            f[k].phase = 2;
            end[k] = x->start;
            continue;
        }
        const uint32_t *r = p->route ? p->route[(size_t)x->src * p->P + x->dst] : NULL;
        if (!r) {
            rc = hc__error(HC_ERR_VALUE, "flow model: no route from %s to %s",
                           p->node_names[x->src], p->node_names[x->dst]);
            break;
        }
        f[k].res = hc__malloc(r[0], sizeof *f[k].res);
        if (!f[k].res) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory in the flow model");
            break;
        }
        double lat = 0;
        for (uint32_t h = 0; h < r[0]; h++) {
            const hc__link_t *l = &p->links[r[1 + h] >> 1];
            lat += l->lat;
            int64_t res = resource_of(p, r[1 + h]);
            if (res < 0) {
                if (l->bw * o.bandwidth_factor < f[k].cap)
                    f[k].cap = l->bw * o.bandwidth_factor;
                continue;
            }
            int dup = 0; /* a route crossing a shared link both ways counts it once */
            for (uint32_t q = 0; q < f[k].n_res; q++)
                dup |= f[k].res[q] == (uint32_t)res;
            if (!dup)
                f[k].res[f[k].n_res++] = (uint32_t)res;
        }
        f[k].ready = x->start + lat * o.latency_factor;
    }
    if (rc != HC_OK)
        goto done;
    /* event loop: waiting flows become transferring at `ready`; transferring ones end when
     * their bytes are done */
    double now = 0;
    for (;;) {
        double next = INFINITY;
        int any = 0;
        for (size_t k = 0; k < n; k++) {
            if (f[k].phase == 0 && f[k].ready <= now) {
                f[k].phase = f[k].left > 0 ? 1 : 2;
                if (f[k].phase == 2)
                    end[k] = f[k].ready;
            }
        }
        share(f, n, cap0, n_r, cap, cnt, fixed);
        for (size_t k = 0; k < n; k++) {
            if (f[k].phase == 0) {
                any = 1;
                if (f[k].ready < next)
                    next = f[k].ready;
            } else if (f[k].phase == 1) {
                any = 1;
                double t = now + f[k].left / f[k].rate;
                if (t < next)
                    next = t;
            }
        }
        if (!any)
            break;
        double dt = next - now;
        for (size_t k = 0; k < n; k++) {
            if (f[k].phase != 1)
                continue;
            double t = now + f[k].left / f[k].rate;
            f[k].left -= f[k].rate * dt;
            /* done: this flow's own completion, or less than a rounding error left */
            if (t <= next * (1 + 1e-12) || f[k].left <= 1e-12 * flows[k].bytes) {
                f[k].left = 0;
                f[k].phase = 2;
                end[k] = next;
            }
        }
        now = next;
    }
done:
    for (size_t k = 0; f && k < n; k++)
        free(f[k].res);
    free(f);
    free(cap0);
    free(cap);
    free(cnt);
    free(fixed);
    return rc;
}

int hc_flows_bound(const hc_platform_t *p, const double *bytes, double *out)
{
    if (!p || !bytes || !out)
        return hc__error(HC_ERR_INVAL, "hc_flows_bound: NULL argument");
    *out = 0;
    size_t n_r = 2 * (size_t)p->n_links;
    double *load = hc__calloc(n_r + 1, sizeof *load);
    if (!load)
        return hc__error(HC_ERR_NOMEM, "out of memory in the link bound");
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
            if (lat + b / bw > lb)
                lb = lat + b / bw;
        }
    for (size_t r = 0; rc == HC_OK && r < n_r; r++)
        if (load[r] / p->links[r >> 1].bw > lb)
            lb = load[r] / p->links[r >> 1].bw;
    free(load);
    if (rc == HC_OK)
        *out = lb;
    return rc;
}
