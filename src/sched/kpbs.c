/* KPBS graphs and peeling (001 §6, Fig. 5 and 6), the toolkit of GGP, OGGP and OGGP+
 * (redist_kit.h): the bipartite graph H of the remaining messages, its k-regular extension I and
 * the weight-regular graph J, then the peeling loop: each step a perfect matching of J's positive
 * edges, chosen by the algorithm's rule (redist_ggp.c, redist_oggp.c), cut to its smallest
 * weight and subtracted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"
#include "redist_kit.h"

/* ---------------------------------------------------------------- GGP graphs */

void hc__kpbs_free(hc__kpbs_t *J)
{
    if (!J)
        return;
    free(J->rows);
    free(J->cols);
    free(J->off);
    free(J->col);
    free(J->row);
    free(J->w0);
    free(J->w);
    free(J->kind);
    memset(J, 0, sizeof *J);
}

typedef struct edge_list {
    uint32_t *u, *v;
    double *w;
    uint8_t *kind;
    size_t n, cap;
} edge_list_t;

static int el_add(edge_list_t *L, uint32_t u, uint32_t v, double w, uint8_t kind)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        uint32_t *nu = hc__realloc(L->u, cap, sizeof *nu);
        if (!nu)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->u = nu;
        uint32_t *nv = hc__realloc(L->v, cap, sizeof *nv);
        if (!nv)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->v = nv;
        double *nw = hc__realloc(L->w, cap, sizeof *nw);
        if (!nw)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->w = nw;
        uint8_t *nk = hc__realloc(L->kind, cap, sizeof *nk);
        if (!nk)
            return hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        L->kind = nk;
        L->cap = cap;
    }
    L->u[L->n] = u;
    L->v[L->n] = v;
    L->w[L->n] = w;
    L->kind[L->n] = kind;
    L->n++;
    return HC_OK;
}

/* Fig. 6 on one side: the vertices of weight vw[0..cnt-1] get extension edges to new vertices
 * (numbered base, base+1, ...) of the other side, filled up to phi in order. */
static int extend_side(edge_list_t *L, const double *vw, uint32_t cnt, double phi, uint32_t base,
                       int left, uint32_t expect)
{
    uint32_t bins = 0;
    double room = 0;
    for (uint32_t s = 0; s < cnt; s++) {
        double r = phi - vw[s];
        while (r > 0) {
            if (room <= 0) {
                bins++;
                room = phi;
            }
            double t = r < room ? r : room;
            uint32_t nb = base + bins - 1;
            HC__TRY(left ? el_add(L, s, nb, t, HC__KPBS_EXT) : el_add(L, nb, s, t, HC__KPBS_EXT));
            r -= t;
            room -= t;
        }
    }
    if (bins != expect || room != 0)
        return hc__error(HC_ERR_INTERNAL,
                         "GGP extension: %u new vertices (expected %u), %g weight left", bins,
                         expect, room);
    return HC_OK;
}

int hc__kpbs_build(const hc_problem_t *pb, hc__kpbs_t *J)
{
    memset(J, 0, sizeof *J);
    HC__TRY(hc__redist_check(pb));
    uint32_t n1 = pb->n1, n2 = pb->n2;
    edge_list_t L;
    memset(&L, 0, sizeof L);
    double *vw1 = NULL, *vw2 = NULL;
    int32_t *cidx = NULL;
    int rc = HC_OK;
    J->rows = hc__malloc(n1, sizeof *J->rows);
    J->cols = hc__malloc(n2, sizeof *J->cols);
    cidx = hc__malloc(n2, sizeof *cidx);
    if (!J->rows || !J->cols || !cidx) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
        goto fail;
    }
    double PG = 0;
    for (uint32_t j = 0; j < n2; j++)
        cidx[j] = -1;
    for (uint32_t i = 0; i < n1; i++) {
        int any = 0;
        for (uint32_t j = 0; j < n2; j++) {
            double c = HC_AT(pb->costs, i, j);
            if (c > 0) {
                any = 1;
                PG += c;
                if (cidx[j] < 0)
                    cidx[j] = 0;
            }
        }
        if (any)
            J->rows[J->n1r++] = i;
    }
    for (uint32_t j = 0; j < n2; j++)
        if (cidx[j] == 0) {
            cidx[j] = (int32_t)J->n2r;
            J->cols[J->n2r++] = j;
        }
    if (J->n1r == 0) {
        J->off = hc__calloc(1, sizeof *J->off);
        if (!J->off)
            rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
        goto out;
    }
    J->k = pb->k;
    if (J->k > J->n1r)
        J->k = J->n1r;
    if (J->k > J->n2r)
        J->k = J->n2r;
    /* H: whole numbers of `unit` (beta; coarser if that would exceed 2^40 units in all) */
    J->unit = pb->beta;
    if (!(J->unit > 0) || PG / J->unit > 1099511627776.0)
        J->unit = PG / 1099511627776.0;
    vw1 = hc__calloc((size_t)J->n1r + J->k + 1, sizeof *vw1); /* grown below for delta */
    vw2 = hc__calloc(J->n2r, sizeof *vw2);
    if (!vw1 || !vw2) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
        goto fail;
    }
    for (uint32_t a = 0; a < J->n1r; a++) {
        for (uint32_t j = 0; j < n2; j++) {
            double c = HC_AT(pb->costs, J->rows[a], j);
            if (c <= 0)
                continue;
            double h = ceil(c / J->unit - 1e-9);
            if (h < 1)
                h = 1;
            rc = el_add(&L, a, (uint32_t)cidx[j], h, HC__KPBS_REAL);
            if (rc != HC_OK)
                goto fail;
            vw1[a] += h;
            vw2[cidx[j]] += h;
            J->PH += h;
        }
    }
    for (uint32_t a = 0; a < J->n1r; a++)
        if (vw1[a] > J->WH)
            J->WH = vw1[a];
    for (uint32_t b = 0; b < J->n2r; b++)
        if (vw2[b] > J->WH)
            J->WH = vw2[b];
    /* I (Fig. 5 step 2) */
    J->phi = fmax(J->WH, ceil(J->PH / J->k));
    double rem = J->phi * J->k - J->PH;
    J->delta = (uint32_t)ceil(rem / J->WH);
    J->n1i = J->n1r + J->delta;
    J->n2i = J->n2r + J->delta;
    {
        double *g1 = hc__realloc(vw1, J->n1i, sizeof *g1);
        double *g2 = hc__realloc(vw2, J->n2i, sizeof *g2);
        if (g1)
            vw1 = g1;
        if (g2)
            vw2 = g2;
        if (!g1 || !g2) {
            rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graphs");
            goto fail;
        }
    }
    for (uint32_t d = 0; d < J->delta; d++) {
        double w = J->WH;
        if (d + 1 == J->delta && fmod(rem, J->WH) != 0)
            w = fmod(rem, J->WH);
        rc = el_add(&L, J->n1r + d, J->n2r + d, w, HC__KPBS_DUMMY);
        if (rc != HC_OK)
            goto fail;
        vw1[J->n1r + d] = w;
        vw2[J->n2r + d] = w;
    }
    /* J (Fig. 6): V1_I gets n1i - k new right vertices, V2_I gets n2i - k new left ones */
    J->n = J->n1i + J->n2i - J->k;
    rc = extend_side(&L, vw1, J->n1i, J->phi, J->n2i, 1, J->n1i - J->k);
    if (rc == HC_OK)
        rc = extend_side(&L, vw2, J->n2i, J->phi, J->n1i, 0, J->n2i - J->k);
    if (rc != HC_OK)
        goto fail;
    /* CSR by left vertex */
    J->m = L.n;
    J->off = hc__calloc((size_t)J->n + 1, sizeof *J->off);
    J->col = hc__malloc(J->m, sizeof *J->col);
    J->row = hc__malloc(J->m, sizeof *J->row);
    J->w0 = hc__malloc(J->m, sizeof *J->w0);
    J->w = hc__malloc(J->m, sizeof *J->w);
    J->kind = hc__malloc(J->m, sizeof *J->kind);
    if (!J->off || !J->col || !J->row || !J->w0 || !J->w || !J->kind) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory building GGP graph J");
        goto fail;
    }
    for (size_t e = 0; e < L.n; e++)
        J->off[L.u[e] + 1]++;
    for (uint32_t u = 0; u < J->n; u++)
        J->off[u + 1] += J->off[u];
    for (size_t e = 0; e < L.n; e++) {
        size_t s = J->off[L.u[e]]++;
        J->col[s] = L.v[e];
        J->row[s] = L.u[e];
        J->w0[s] = L.w[e];
        J->kind[s] = L.kind[e];
    }
    for (uint32_t u = J->n; u > 0; u--)
        J->off[u] = J->off[u - 1];
    J->off[0] = 0;
    memcpy(J->w, J->w0, J->m * sizeof *J->w);
    goto out;
fail:
    hc__kpbs_free(J);
out:
    free(L.u);
    free(L.v);
    free(L.w);
    free(L.kind);
    free(vw1);
    free(vw2);
    free(cidx);
    return rc;
}

double hc__kpbs_vertex_weight(const hc__kpbs_t *J, int side, uint32_t v)
{
    double s = 0;
    for (size_t e = 0; e < J->m; e++)
        if ((side == 0 ? J->row[e] : J->col[e]) == v)
            s += J->w0[e];
    return s;
}

/* Working copy of J's edges for peeling, in "position" space: the CSR is compacted (dead edges
 * dropped) whenever enough of it is dead, so that matchings only scan live edges. */
typedef struct peel_ws {
    size_t *off;
    uint32_t *col;
    double *w;
    size_t *slot; /* position -> edge of J */
    size_t *map;  /* old position -> new position, during a compaction */
    size_t m, live;
} peel_ws_t;

static void peel_ws_free(peel_ws_t *P)
{
    free(P->off);
    free(P->col);
    free(P->w);
    free(P->slot);
    free(P->map);
}

/* Drop the dead positions and renumber the matching held by h. */
static void peel_ws_compact(peel_ws_t *P, hc__hk_t *h, uint32_t n)
{
    size_t q = 0, start = 0;
    h->thr = 0;
    hc__hk_drop_inactive(h); /* matched edges are now all live */
    for (uint32_t u = 0; u < n; u++) {
        size_t end = P->off[u + 1];
        P->off[u] = q;
        for (size_t p = start; p < end; p++) {
            if (P->w[p] > 0) {
                P->map[p] = q;
                P->col[q] = P->col[p];
                P->w[q] = P->w[p];
                P->slot[q] = P->slot[p];
                q++;
            } else {
                P->map[p] = SIZE_MAX;
            }
        }
        start = end;
    }
    P->off[n] = q;
    P->m = q;
    for (uint32_t u = 0; u < n; u++)
        if (h->mate1[u] >= 0)
            h->mate1[u] = (int64_t)P->map[h->mate1[u]];
}

int hc__kpbs_peel(const hc_problem_t *pb, hc__kpbs_t *J, const hc__kpbs_rule_t *rule,
                  hc__kpbs_match_cb cb, void *ctx, hc__redist_plan_t *plan)
{
    if (J->m == 0)
        return HC_OK;
    memcpy(J->w, J->w0, J->m * sizeof *J->w);
    peel_ws_t P;
    memset(&P, 0, sizeof P);
    hc__hk_t h;
    memset(&h, 0, sizeof h);
    int rc = HC_OK;
    double *rem = hc__malloc(J->m, sizeof *rem);
    int64_t *mslot = hc__malloc(J->n, sizeof *mslot);
    P.off = hc__malloc((size_t)J->n + 1, sizeof *P.off);
    P.col = hc__malloc(J->m, sizeof *P.col);
    P.w = hc__malloc(J->m, sizeof *P.w);
    P.slot = hc__malloc(J->m, sizeof *P.slot);
    P.map = hc__malloc(J->m, sizeof *P.map);
    if (!rem || !mslot || !P.off || !P.col || !P.w || !P.slot || !P.map) {
        rc = hc__error(HC_ERR_NOMEM, "out of memory peeling GGP graph J");
        goto done;
    }
    memcpy(P.off, J->off, ((size_t)J->n + 1) * sizeof *P.off);
    memcpy(P.col, J->col, J->m * sizeof *P.col);
    memcpy(P.w, J->w0, J->m * sizeof *P.w);
    for (size_t s = 0; s < J->m; s++) {
        P.slot[s] = s;
        rem[s] = J->kind[s] == HC__KPBS_REAL
                     ? HC_AT(pb->costs, J->rows[J->row[s]], J->cols[J->col[s]])
                     : 0;
    }
    P.m = P.live = J->m;
    rc = hc__hk_init(&h, J->n, J->n, P.off, P.col);
    if (rc != HC_OK)
        goto done;
    h.w = P.w;
    double prev = 0; /* the rule's memory between steps (OGGP: the previous max-min value) */
    while (P.live > 0) {
        double amt = 0;
        if (4 * P.live < 3 * P.m)
            peel_ws_compact(&P, &h, J->n);
        rc = rule->choose(&h, J->n, P.w, P.live, &prev, &amt);
        if (rc != HC_OK)
            break;
        if (cb) {
            for (uint32_t u = 0; u < J->n; u++)
                mslot[u] = (int64_t)P.slot[h.mate1[u]];
            cb(ctx, J, mslot, amt);
        }
        for (uint32_t u = 0; u < J->n && rc == HC_OK; u++) {
            size_t p = (size_t)h.mate1[u], s = P.slot[p];
            P.w[p] -= amt;
            if (P.w[p] <= 0) {
                P.w[p] = 0;
                P.live--;
            }
            J->w[s] = P.w[p];
            if (J->kind[s] != HC__KPBS_REAL)
                continue;
            double sec = J->w[s] == 0 ? rem[s] : fmin(amt * J->unit, rem[s]);
            rem[s] -= sec;
            if (sec > 0)
                rc = hc__redist_plan_add(plan, J->rows[u], J->cols[J->col[s]], sec);
        }
        if (rc == HC_OK)
            rc = hc__redist_plan_close(plan);
        if (rc != HC_OK)
            break;
    }
done:
    hc__hk_free(&h);
    peel_ws_free(&P);
    free(rem);
    free(mslot);
    return rc;
}

int hc__kpbs_plan(const hc_problem_t *pb, const hc__kpbs_rule_t *rule, hc__redist_plan_t *plan)
{
    hc__kpbs_t J;
    HC__TRY(hc__kpbs_build(pb, &J));
    int rc = hc__kpbs_peel(pb, &J, rule, NULL, NULL, plan);
    hc__kpbs_free(&J);
    return rc;
}
