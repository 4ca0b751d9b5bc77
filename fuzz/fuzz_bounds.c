/* Property harness for the link bounds: a small platform with links decoded from the input
 * (2 to 4 sites of 1 to 3 nodes, split-duplex NICs, site uplinks shared or split duplex, a
 * wide-area link per pair of sites, shared or a fat pipe), then a broadcast or a reduction of a
 * registered algorithm replayed in the flow model (plain, or under SimGrid's factors). The
 * replay must not end before hc_flows_bcast_bound_model / hc_flows_reduce_bound_model under the
 * same model, nor the plain replay before the cut bound (hc_flows_bcast_bound,
 * hc_flows_reduce_bound): a bound that a real schedule beats is a wrong claim (the reduction's
 * cut bound was one before API 20). Every bound must be finite and positive.
 * Bytes: the collective and model, the sites (at most 3 under SimGrid's factors: the LP over
 * 4 sites and SimGrid's classes takes up to 1.6 s, 4 s under ASan on a loaded machine), then per
 * site its node count, NIC rate and latency, uplink rate, latency and sharing; per pair of sites
 * the wide-area rate, latency and sharing; then the root, the message size, the algorithm and
 * its piece size. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "fuzz_common.h"
#include "hetcoll/hetcoll.h"

#define MAX_SITES 4
#define MAX_NODES_PER_SITE 3

typedef struct {
    const uint8_t *d;
    size_t n, at;
} bytes_t;

static unsigned next(bytes_t *b)
{
    return b->at < b->n ? b->d[b->at++] : 0x5a;
}

/* 10^(lo + (hi - lo) x byte / 255) */
static double log_scale(bytes_t *b, double lo, double hi)
{
    return pow(10.0, lo + (hi - lo) * next(b) / 255.0);
}

typedef struct {
    char *s;
    size_t len, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= t->cap - t->len)
        abort(); /* the buffer is sized for the largest platform */
    t->len += (size_t)k;
}

static void link_json(text_t *t, const char *name, double bw, double lat, const char *sharing)
{
    put(t, "%s{\"name\":\"%s\",\"bandwidth_Bps\":%.17g,\"latency_s\":%.17g,\"sharing\":\"%s\"}",
        t->s[t->len - 1] == '[' ? "" : ",", name, bw, lat, sharing);
}

/* The platform's JSON (hetcoll-platform/2 with links and routes). */
static void platform_json(bytes_t *b, text_t *t, uint32_t max_sites, uint32_t *n_nodes)
{
    const uint32_t K = 2 + next(b) % (max_sites - 1);
    uint32_t size[MAX_SITES];
    int up_split[MAX_SITES], wan_fat[MAX_SITES][MAX_SITES];
    put(t, "{\"format\":\"hetcoll-platform/2\",\"name\":\"fuzz\",\"links\":[");
    char name[32];
    for (uint32_t s = 0; s < K; s++) {
        size[s] = 1 + next(b) % MAX_NODES_PER_SITE;
        const double nic_bw = log_scale(b, 7, 9), nic_lat = next(b) / 255.0 * 1e-4;
        for (uint32_t i = 0; i < size[s]; i++) {
            snprintf(name, sizeof name, "n%u-%u", s, i);
            link_json(t, name, nic_bw, nic_lat, "splitduplex");
        }
        const double up_bw = log_scale(b, 6, 9), up_lat = next(b) / 255.0 * 0.01;
        up_split[s] = next(b) % 2;
        snprintf(name, sizeof name, "up%u", s);
        link_json(t, name, up_bw, up_lat, up_split[s] ? "splitduplex" : "shared");
    }
    for (uint32_t a = 0; a < K; a++)
        for (uint32_t c = a + 1; c < K; c++) {
            const double bw = log_scale(b, 6, 9.5), lat = next(b) / 255.0 * 0.02;
            wan_fat[a][c] = next(b) % 2;
            snprintf(name, sizeof name, "wan%u-%u", a, c);
            link_json(t, name, bw, lat, wan_fat[a][c] ? "fatpipe" : "shared");
        }
    put(t, "],\"nodes\":[");
    *n_nodes = 0;
    for (uint32_t s = 0; s < K; s++)
        for (uint32_t i = 0; i < size[s]; i++, (*n_nodes)++)
            put(t, "%s{\"name\":\"n%u-%u\",\"cluster\":\"s%u\"}", *n_nodes ? "," : "", s, i, s);
    put(t, "],\"routes\":[");
    int first = 1;
    for (uint32_t s = 0; s < K; s++)
        for (uint32_t i = 0; i < size[s]; i++)
            for (uint32_t r = 0; r < K; r++)
                for (uint32_t j = 0; j < size[r]; j++) {
                    if (s == r && i == j)
                        continue;
                    put(t, "%s{\"src\":\"n%u-%u\",\"dst\":\"n%u-%u\",\"links\":[\"n%u-%u:up\"",
                        first ? "" : ",", s, i, r, j, s, i);
                    first = 0;
                    if (s != r) {
                        const uint32_t a = s < r ? s : r, c = s < r ? r : s;
                        put(t, ",\"up%u%s\",\"wan%u-%u\",\"up%u%s\"", s, up_split[s] ? ":up" : "",
                            a, c, r, up_split[r] ? ":down" : "");
                    }
                    put(t, ",\"n%u-%u:down\"]}", r, j);
                }
    put(t, "]}");
}

static double replay(const hc_problem_t *pb, const hc_schedule_t *s, int smpi)
{
    hc_sim_opts_t o;
    hc_sim_opts_init(&o);
    o.network = HC_NETWORK_FLOW;
    o.smpi_factors = smpi;
    hc_sim_result_t *r = NULL;
    double t = NAN;
    if (hc_simulate(s, pb, &o, &r) == HC_OK)
        t = r->makespan;
    hc_sim_result_destroy(r);
    return t;
}

static void fail(const char *what, const char *algo, double t, double bound)
{
    fprintf(stderr, "fuzz_bounds: %s: %s replayed %.9g s, bound %.9g s (%s)\n", what, algo, t,
            bound, hc_error_detail());
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *bcast[] = {"two-tree", "multitree", "pipeline", "binomial", "flat", "ecef"};
    static const char *reduce[] = {"two-tree", "multitree", "ep", "snf-pq"};
    static const uint64_t msg[] = {4096, 20000, 65536, 262144};
    static const uint64_t seg[] = {0, 1500, 5000, 8192};
    bytes_t b = {data, size, 0};
    /* ~300 B per link and route: 12 nodes make 132 routes */
    text_t t = {malloc(1u << 16), 0, 1u << 16};
    if (!t.s)
        return 0;
    uint32_t P = 0;
    const unsigned how = next(&b);
    const int red = how % 2, smpi = how / 2 % 2;
    platform_json(&b, &t, smpi ? 3 : MAX_SITES, &P);
    const uint32_t root = next(&b) % P;
    const uint64_t m = msg[next(&b) % 4];
    const unsigned pick = next(&b), piece = next(&b);
    hc_platform_t *p = NULL;
    hc_problem_t *pb = NULL;
    if (hc_platform_parse(t.s, "fuzz", &p) != HC_OK) {
        fprintf(stderr, "fuzz_bounds: the harness's platform did not parse: %s\n",
                hc_error_detail());
        abort();
    }
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = smpi;
    double cut = 0, model = 0;
    if ((red ? hc_flows_reduce_bound : hc_flows_bcast_bound)(p, root, (double)m, &cut) != HC_OK ||
        (red ? hc_flows_reduce_bound_model : hc_flows_bcast_bound_model)(p, &fo, root, (double)m,
                                                                         &model) != HC_OK)
        fail("a bound failed", "-", NAN, NAN);
    if (!(isfinite(cut) && cut > 0 && isfinite(model) && model > 0))
        fail("a bound is not finite and positive", "-", cut, model);
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, red ? HC_COLL_REDUCE : HC_COLL_BCAST);
    sp.platform = p;
    sp.msg_bytes = m;
    sp.root = root;
    if (hc_problem_create(&sp, &pb) != HC_OK)
        fail("no problem on the platform", "-", NAN, NAN);
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.time_limit_s = 0.002;
    o.segment_bytes = seg[piece % 4];
    if (!red)
        o.ramp_pieces = piece / 4 % 2 ? 8 : 0; /* multitree's ramped pieces */
    const char *algo = red ? reduce[pick % 4] : bcast[pick % 6];
    hc_schedule_t *s = NULL;
    if (hc_schedule_compute(pb, algo, &o, &s) == HC_OK) {
        const double at = replay(pb, s, smpi);
        if (isnan(at))
            fail("the replay failed", algo, at, model);
        /* the bound's own margin is 1e-6 (the LP's search); replays round to 1e-9 */
        if (at < model * (1 - 1e-9))
            fail("replay below the model bound", algo, at, model);
        if (!smpi && at < cut * (1 - 1e-9))
            fail("replay below the cut bound", algo, at, cut);
    }
    hc_error_clear();
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_platform_destroy(p);
    free(t.s);
    return 0;
}
