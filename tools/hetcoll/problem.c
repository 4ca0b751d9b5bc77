/* Building an hc_problem_t from command-line options (see problem.h).
 *
 * Rules (documented in docs/formats.md, "CLI problem options"):
 *   alltoall      --costs FILE | --platform SPEC (--msg SIZE | --sizes FILE)
 *   bcast         --platform SPEC --msg SIZE | --costs FILE [--msg SIZE]; --root R (default 0)
 *   reduce        --times T1,T2,... (C[i][j] = t(i)) | --platform SPEC --msg SIZE
 *                 (C[i][j] = t(i) = send_time_s of node i when set, else p2p(i, root, msg))
 *                 | --costs FILE; --root R (default 0)
 *   redistribute  --traffic FILE --d1 --d2 --backbone: rate = min(d1, d2, backbone),
 *                 times = bytes/rate,
 *                 k = max(1, floor(backbone / rate)) capped at min(n1, n2) (--k overrides);
 *                 --traffic FILE --k K --speed S: times = bytes / S;
 *                 --times FILE --k K (seconds); and --beta SECONDS.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"

void cli_popts_init(cli_popts_t *o)
{
    memset(o, 0, sizeof *o);
    o->model = HC_MODEL_HOCKNEY;
    hc_algo_opts_init(&o->algo);
    /* Searches (bnb) stop after 10 s by default and report the best schedule and bound found:
     * a command must end (issue 17); --time-limit 0 lifts the limit. */
    o->algo.time_limit_s = 10;
}

void cli_popts_free(cli_popts_t *o)
{
    free(o->order_buf);
    o->order_buf = NULL;
}

int cli_popts_option(cli_popts_t *o, const char *cmd, int code, const char *arg, char **argv)
{
    if (code == '?' || code == ':')
        return cli_bad_option(cmd, code, argv);
    int rc = cli_popts_handle(o, cmd, code, arg);
    return rc == -1 ? cli_usage_error(cmd, "unexpected option") : rc;
}

int cli_schedule_operand(const char *cmd, int argc, char **argv, const char **path)
{
    if (!*path && optind < argc)
        *path = argv[optind++];
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (!*path)
        return cli_usage_error(cmd, "missing --schedule FILE");
    return CLI_OK;
}

int cli_popts_any(const cli_popts_t *o)
{
    return o->platform || o->costs || o->sizes || o->times || o->traffic || o->have_msg ||
           o->have_d1 || o->have_d2 || o->have_backbone || o->have_speed || o->have_beta ||
           o->have_k;
}

static int bad_value(const char *cmd, const char *opt, const char *arg, const char *what)
{
    return cli_value_error(cmd, "option '--%s': invalid value '%s' (%s)", opt, arg, what);
}

/* A bandwidth > 0 in B/s (a number, or a size with a unit and an optional "/s"). */
static int pos_rate(const char *cmd, const char *opt, const char *arg, double *out, int *have)
{
    if (cli_parse_rate(arg, out) != 0 || !(*out > 0))
        return bad_value(cmd, opt, arg,
                         "expected a bandwidth > 0 in B/s such as 1.25e8 or 125MB/s");
    if (have)
        *have = 1;
    return CLI_OK;
}

int cli_popts_handle(cli_popts_t *o, const char *cmd, int code, const char *arg)
{
    switch (code) {
    case POPT_PLATFORM:
        o->platform = arg;
        return CLI_OK;
    case POPT_MSG:
        if (cli_parse_size(arg, &o->msg) != 0)
            return bad_value(cmd, "msg", arg,
                             "expected a whole number of bytes such as 1048576, 64KiB, 1MiB, 1MB");
        o->have_msg = 1;
        return CLI_OK;
    case POPT_SIZES:
        o->sizes = arg;
        return CLI_OK;
    case POPT_COSTS:
        o->costs = arg;
        return CLI_OK;
    case POPT_TIMES:
        o->times = arg;
        return CLI_OK;
    case POPT_TRAFFIC:
        o->traffic = arg;
        return CLI_OK;
    case POPT_ROOT:
        if (strcmp(arg, "any") == 0) {
            o->root_any = 1;
            o->have_root = 0;
            return CLI_OK;
        }
        if (cli_parse_u32(arg, &o->root) != 0)
            return bad_value(cmd, "root", arg, "expected a node id >= 0 or any");
        o->have_root = 1;
        o->root_any = 0;
        return CLI_OK;
    case POPT_D1:
        return pos_rate(cmd, "d1", arg, &o->d1, &o->have_d1);
    case POPT_D2:
        return pos_rate(cmd, "d2", arg, &o->d2, &o->have_d2);
    case POPT_BACKBONE:
        return pos_rate(cmd, "backbone", arg, &o->backbone, &o->have_backbone);
    case POPT_SPEED:
        return pos_rate(cmd, "speed", arg, &o->speed, &o->have_speed);
    case POPT_BETA:
        if (cli_parse_double(arg, &o->beta) != 0 || o->beta < 0)
            return bad_value(cmd, "beta", arg, "expected a finite number >= 0");
        o->have_beta = 1;
        return CLI_OK;
    case POPT_K:
        if (cli_parse_u32(arg, &o->k) != 0 || o->k < 1)
            return bad_value(cmd, "k", arg, "expected an integer >= 1");
        o->have_k = 1;
        return CLI_OK;
    case POPT_MODEL:
        if (hc_model_parse(arg, &o->model) != HC_OK)
            return bad_value(cmd, "model", arg, "expected hockney or plogp");
        return CLI_OK;
    case POPT_SEED:
        if (cli_parse_u64(arg, &o->algo.seed) != 0)
            return bad_value(cmd, "seed", arg, "expected an integer >= 0");
        o->have_seed = 1;
        return CLI_OK;
    case POPT_TIME_LIMIT:
        if (cli_parse_double(arg, &o->algo.time_limit_s) != 0 || o->algo.time_limit_s < 0)
            return bad_value(cmd, "time-limit", arg, "expected seconds >= 0");
        return CLI_OK;
    case POPT_ORDER: {
        uint64_t *v;
        size_t n;
        if (cli_parse_u64_list(arg, &v, &n) != 0)
            return bad_value(cmd, "order", arg, "expected node ids i,j,...");
        free(o->order_buf);
        o->order_buf = malloc(n * sizeof *o->order_buf);
        if (!o->order_buf) {
            free(v);
            return cli_error("out of memory");
        }
        for (size_t i = 0; i < n; i++) {
            if (v[i] > UINT32_MAX) {
                free(v);
                return bad_value(cmd, "order", arg, "node id too large");
            }
            o->order_buf[i] = (uint32_t)v[i];
        }
        free(v);
        o->algo.order = o->order_buf;
        o->algo.order_len = (uint32_t)n;
        return CLI_OK;
    }
    case POPT_HIERARCHY:
        if (strcmp(arg, "labels") == 0)
            o->algo.hierarchy = 1;
        else if (strcmp(arg, "none") == 0)
            o->algo.hierarchy = 0;
        else if (strcmp(arg, "auto") == 0)
            o->algo.hierarchy = -1;
        else
            return bad_value(cmd, "hierarchy", arg, "expected labels, none or auto");
        return CLI_OK;
    case POPT_ALPHA:
        if (cli_parse_double(arg, &o->algo.alpha) != 0 || o->algo.alpha < 0)
            return bad_value(cmd, "alpha", arg, "expected a fraction >= 0");
        o->have_alpha = 1;
        return CLI_OK;
    case POPT_SEGMENT:
        if (cli_parse_size(arg, &o->algo.segment_bytes) != 0)
            return bad_value(cmd, "segment", arg, "expected a whole number of bytes such as 64KiB");
        return CLI_OK;
    case POPT_RAMP:
        if (cli_parse_u32(arg, &o->algo.ramp_pieces) != 0 || o->algo.ramp_pieces > 64)
            return bad_value(cmd, "ramp", arg, "expected a number of pieces from 0 to 64");
        return CLI_OK;
    case POPT_SITE_TREES:
        if (strcmp(arg, "auto") == 0)
            o->algo.site_trees = HC_SITE_TREES_AUTO;
        else if (strcmp(arg, "two") == 0)
            o->algo.site_trees = HC_SITE_TREES_TWO;
        else
            return bad_value(cmd, "site-trees", arg, "expected auto or two");
        return CLI_OK;
    case POPT_TAIL_DIRECT:
        if (cli_parse_u32(arg, &o->algo.tail_direct_pieces) != 0)
            return bad_value(cmd, "tail-direct", arg, "expected a number of pieces");
        return CLI_OK;
    case POPT_ALTERNATE:
        if (cli_parse_size(arg, &o->algo.alternate_bytes) != 0)
            return bad_value(cmd, "alternate", arg,
                             "expected a whole number of bytes such as 5850");
        return CLI_OK;
    case POPT_VERBOSE:
        o->algo.verbose = 1;
        return CLI_OK;
    default:
        return -1;
    }
}

void cli_popts_help(FILE *f, int coll)
{
    if (coll < 0 || coll == HC_COLL_ALLTOALL)
        fprintf(f, "Problem (alltoall):\n"
                   "  --platform SPEC --msg SIZE   uniform message size on a platform\n"
                   "  --platform SPEC --sizes M    per-pair sizes (bytes, P x P)\n"
                   "  --costs M                    direct P x P cost matrix (seconds)\n");
    if (coll < 0 || coll == HC_COLL_BCAST)
        fprintf(f, "Problem (bcast):\n"
                   "  --platform SPEC --msg SIZE   message from the root to every node\n"
                   "  --costs M [--msg SIZE]       direct P x P cost matrix of the whole message\n"
                   "  --root R                     root node (default 0)\n");
    if (coll < 0 || coll == HC_COLL_REDUCE)
        fprintf(f,
                "Problem (reduce):\n"
                "  --times T1,T2,...            send time t(i) of each node (C[i][j] = t(i)); a\n"
                "                               list or a file of one row or column\n"
                "  --platform SPEC --msg SIZE   t(i) = node's send_time_s, else p2p(i, root)\n"
                "  --costs M                    direct P x P matrix\n"
                "  --root R|any                 root node; any (schedule): try the roots, keep\n"
                "                               the best (default: any with --times and no\n"
                "                               --order, else 0)\n");
    if (coll < 0 || coll == HC_COLL_REDISTRIBUTE)
        fprintf(f, "Problem (redistribute):\n"
                   "  --traffic M --d1 B/s --d2 B/s --backbone B/s\n"
                   "                               n1 x n2 bytes; rate min(d1,d2,backbone),\n"
                   "                               k = floor(backbone / rate)\n"
                   "  --traffic M --k K --speed B/s\n"
                   "  --times M --k K              n1 x n2 matrix already in seconds\n"
                   "  --beta SECONDS               start-up cost of every step (required unless a\n"
                   "                               schedule gives it)\n");
    fprintf(f,
            "Matrices and lists (M, --times): @FILE, or a value naming an existing file, is read\n"
            "as a file (whitespace text, one row per line, or JSON); anything else is inline:\n"
            "',' between values, ';' between rows (--sizes '0,1MiB;64KiB,0', --times 3,1,1,2).\n"
            "Sizes take units (64KiB, 1MB); bandwidths are B/s, with units too (125MB/s).\n"
            "Model:\n"
            "  --model hockney|plogp        cost model for --platform (default hockney)\n");
}

#define CLI_REDUCE_TIMES_MAX 2048

/* ---- helpers ---- */

/* --costs / --sizes (a file or inline values, cli_read_matrix) as a square matrix (P x P when
 * P > 0). */
static int load_square(const char *cmd, const char *opt, const char *path, hc_matrix_kind_t kind,
                       uint32_t P, hc_matrix_t **out)
{
    int rc = cli_read_matrix(cmd, opt, path, kind, out);
    if (rc != CLI_OK)
        return rc;
    if ((*out)->rows != (*out)->cols || (P && (*out)->rows != P)) {
        uint32_t r = (*out)->rows, c = (*out)->cols;
        hc_matrix_destroy(*out);
        *out = NULL;
        if (P)
            return cli_error("%s: matrix is %ux%u, expected %ux%u", path, r, c, P, P);
        return cli_error("%s: matrix is %ux%u, expected a square P x P matrix", path, r, c);
    }
    return CLI_OK;
}

/* Bytes of the whole bcast message according to a schedule: what the first receiver gets on
 * the original tree. */
static uint64_t hint_bcast_msg(const hc_schedule_t *s)
{
    if (!s || s->n_events == 0)
        return 0;
    uint32_t d = s->events[0].dst;
    uint64_t sum = 0;
    for (size_t i = 0; i < s->n_events; i++)
        if (s->events[i].dst == d && s->events[i].tree == 0)
            sum += s->events[i].bytes;
    return sum;
}

static uint64_t hint_max_bytes(const hc_schedule_t *s)
{
    uint64_t m = 0;
    for (size_t i = 0; s && i < s->n_events; i++)
        if (s->events[i].bytes > m)
            m = s->events[i].bytes;
    return m;
}

static int load_platform(const char *spec, hc_platform_t **out)
{
    return cli_platform_load(spec, out);
}

/* ---- per collective ---- */

static int build_alltoall(const cli_popts_t *o, const hc_schedule_t *hint, const char *cmd,
                          cli_problem_t *p, hc_problem_spec_t *sp)
{
    int rc;
    sp->msg_bytes = o->have_msg ? o->msg : 0;
    if (o->costs) {
        if ((rc = load_square(cmd, "--costs", o->costs, HC_MATRIX_COSTS, 0, &p->costs)) != CLI_OK)
            return rc;
        if (o->sizes && (rc = load_square(cmd, "--sizes", o->sizes, HC_MATRIX_SIZES, p->costs->rows,
                                          &p->sizes)) != CLI_OK)
            return rc;
        return CLI_OK;
    }
    if (!o->platform)
        return cli_usage_error(cmd, "alltoall needs --costs FILE or --platform SPEC");
    if ((rc = load_platform(o->platform, &p->plat)) != CLI_OK)
        return rc;
    uint32_t P = hc_platform_size(p->plat);
    if (o->sizes) {
        if ((rc = load_square(cmd, "--sizes", o->sizes, HC_MATRIX_SIZES, P, &p->sizes)) != CLI_OK)
            return rc;
    } else if (!o->have_msg && hint && hint->n_events > 0) {
        if (hint->P != P)
            return cli_error("%s: the schedule has %u nodes, the platform %u", o->platform, hint->P,
                             P);
        if (hc_matrix_create(P, P, 0, &p->sizes) != HC_OK)
            return cli_error("out of memory");
        for (size_t i = 0; i < hint->n_events; i++) {
            const hc_event_t *e = &hint->events[i];
            if (e->src < P && e->dst < P)
                HC_AT(p->sizes, e->src, e->dst) += (double)e->bytes;
        }
    } else if (!o->have_msg) {
        return cli_usage_error(cmd, "alltoall with --platform needs --msg SIZE or --sizes FILE");
    }
    return CLI_OK;
}

static int build_bcast(const cli_popts_t *o, const hc_schedule_t *hint, const char *cmd,
                       cli_problem_t *p, hc_problem_spec_t *sp)
{
    int rc;
    uint64_t msg = o->have_msg ? o->msg : hint_bcast_msg(hint);
    sp->msg_bytes = msg;
    if (o->costs) {
        if ((rc = load_square(cmd, "--costs", o->costs, HC_MATRIX_COSTS, 0, &p->costs)) != CLI_OK)
            return rc;
        if (o->platform && (rc = load_platform(o->platform, &p->plat)) != CLI_OK)
            return rc;
        if (p->plat && hc_platform_size(p->plat) != p->costs->rows)
            return cli_error("%s: the platform has %u nodes but %s is %ux%u", o->platform,
                             hc_platform_size(p->plat), o->costs, p->costs->rows, p->costs->rows);
        return CLI_OK;
    }
    if (!o->platform)
        return cli_usage_error(cmd, "bcast needs --platform SPEC --msg SIZE or --costs FILE");
    if (!msg && o->have_msg)
        return cli_value_error(cmd, "bcast: --msg must be more than 0 bytes");
    if (!msg)
        return cli_usage_error(cmd, "bcast needs --msg SIZE");
    return load_platform(o->platform, &p->plat);
}

static int build_reduce(const cli_popts_t *o, const hc_schedule_t *hint, const char *cmd,
                        cli_problem_t *p, hc_problem_spec_t *sp)
{
    sp->msg_bytes = o->have_msg ? o->msg : hint_max_bytes(hint);
    if (o->times) { /* a list, or a file of one row or one column (cli_read_matrix) */
        hc_matrix_t *m = NULL;
        int rc = cli_read_matrix(cmd, "--times", o->times, HC_MATRIX_TIMES, &m);
        if (rc != CLI_OK)
            return rc;
        size_t n = (size_t)m->rows * m->cols;
        if (m->rows != 1 && m->cols != 1) {
            uint32_t r = m->rows, c = m->cols;
            hc_matrix_destroy(m);
            return cli_value_error(cmd,
                                   "option '--times': reduce takes one send time per node (one "
                                   "row or one column), got a %ux%u matrix",
                                   r, c);
        }
        p->times = malloc(n * sizeof *p->times);
        if (!p->times) {
            hc_matrix_destroy(m);
            return cli_error("out of memory");
        }
        memcpy(p->times, m->v, n * sizeof *p->times);
        hc_matrix_destroy(m);
        for (size_t i = 0; i < n; i++)
            if (!(p->times[i] > 0))
                return cli_error("--times: t(%zu): must be a finite number > 0", i);
        /* The reduction's costs are an n x n matrix (C[i][j] = t(i)). */
        if (n > CLI_REDUCE_TIMES_MAX)
            return cli_value_error(cmd,
                                   "option '--times': %zu send times, at most %d (one per node)", n,
                                   CLI_REDUCE_TIMES_MAX);
        sp->send_times = p->times;
        sp->n_send_times = (uint32_t)n;
        return CLI_OK;
    }
    if (o->costs)
        return load_square(cmd, "--costs", o->costs, HC_MATRIX_COSTS, 0, &p->costs);
    if (!o->platform)
        return cli_usage_error(cmd, "reduce needs --times T1,T2,... or --platform SPEC --msg SIZE");
    if (!sp->msg_bytes)
        return cli_usage_error(cmd, "reduce with --platform needs --msg SIZE");
    return load_platform(o->platform, &p->plat);
}

static int build_redistribute(const cli_popts_t *o, const hc_schedule_t *hint, const char *cmd,
                              cli_problem_t *p, hc_problem_spec_t *sp)
{
    uint32_t k = 0;
    if (o->traffic) {
        int rc = cli_read_matrix(cmd, "--traffic", o->traffic, HC_MATRIX_SIZES, &p->sizes);
        if (rc != CLI_OK)
            return rc;
        if (o->have_d1 && o->have_d2 && o->have_backbone) {
            sp->rate_Bps = fmin(fmin(o->d1, o->d2), o->backbone); /* 001 §2.1: min(d1, d2, D) */
            double kk = floor(o->backbone / sp->rate_Bps);
            k = kk < 1 ? 1 : (kk > UINT32_MAX ? UINT32_MAX : (uint32_t)kk);
            uint32_t cap = p->sizes->rows < p->sizes->cols ? p->sizes->rows : p->sizes->cols;
            if (k > cap)
                k = cap;
        } else if (o->have_speed) {
            sp->rate_Bps = o->speed;
        } else {
            return cli_usage_error(cmd, "redistribute --traffic needs --d1 --d2 --backbone, or "
                                        "--k and --speed");
        }
    } else if (o->times) {
        int rc = cli_read_matrix(cmd, "--times", o->times, HC_MATRIX_TIMES, &p->costs);
        if (rc != CLI_OK)
            return rc;
    } else {
        return cli_usage_error(cmd, "redistribute needs --traffic FILE or --times FILE");
    }
    if (o->have_k)
        k = o->k;
    else if (!k && hint)
        k = hint->k;
    if (!k)
        return cli_usage_error(cmd, "redistribute needs --k K (or --d1 --d2 --backbone)");
    if (!o->have_beta && !hint)
        return cli_usage_error(cmd, "redistribute needs --beta SECONDS");
    sp->k = k;
    sp->beta = o->have_beta ? o->beta : hint->beta;
    const hc_matrix_t *m = p->costs ? p->costs : p->sizes;
    if (hint && (hint->n1 != m->rows || hint->n2 != m->cols))
        return cli_error("%s: the matrix is %ux%u but the schedule is for n1=%u, n2=%u",
                         o->traffic ? o->traffic : o->times, m->rows, m->cols, hint->n1, hint->n2);
    return CLI_OK;
}

int cli_problem_build(hc_coll_t coll, const cli_popts_t *o, const hc_schedule_t *hint,
                      const char *cmd, cli_problem_t *out)
{
    memset(out, 0, sizeof *out);
    hc_problem_init(&out->pb, coll);
    if (hint && hint->coll != coll)
        return cli_error("the schedule is for %s, not %s", hc_coll_name(hint->coll),
                         hc_coll_name(coll));
    if (o->root_any && !o->have_root)
        return cli_value_error(cmd, "--root any: only 'schedule reduce' tries every root");
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, coll);
    sp.model = o->model;
    sp.root = o->have_root ? o->root : (hint ? hint->root : 0);
    /* a reduction planned by a selector or a sender-receiver algorithm gets the pair costs */
    const char *an = o->algo_name ? o->algo_name : hint ? hint->algorithm : NULL;
    const hc_algo_info_t *info = NULL;
    if (an && hc_algo_find(coll, an, &info) == HC_OK)
        sp.pair_costs = (info->flags & (HC_ALGO_PAIR_COSTS | HC_ALGO_SELECTOR)) != 0;
    hc_error_clear();
    int rc;
    switch (coll) {
    case HC_COLL_ALLTOALL:
        rc = build_alltoall(o, hint, cmd, out, &sp);
        break;
    case HC_COLL_BCAST:
        rc = build_bcast(o, hint, cmd, out, &sp);
        break;
    case HC_COLL_REDUCE:
        rc = build_reduce(o, hint, cmd, out, &sp);
        break;
    case HC_COLL_REDISTRIBUTE:
        rc = build_redistribute(o, hint, cmd, out, &sp);
        break;
    default:
        rc = cli_error("unknown collective");
    }
    int st = HC_OK;
    if (rc == CLI_OK) {
        sp.platform = out->plat;
        sp.costs = out->costs;
        sp.sizes = out->sizes;
        st = hc_problem_create(&sp, &out->built);
        if (st == HC_OK)
            out->pb = *out->built;
    }
    if (rc == CLI_OK && st == HC_OK && hint && coll != HC_COLL_REDISTRIBUTE &&
        hint->P != out->pb.P) {
        const char *what = o->platform ? "--platform"
                           : o->costs  ? "--costs"
                           : o->times  ? "--times"
                                       : "--traffic";
        const char *src = o->platform  ? o->platform
                          : o->costs   ? o->costs
                          : o->times   ? o->times
                          : o->traffic ? o->traffic
                                       : "?";
        rc = cli_error("the schedule has %u nodes but the problem of %s %s has %u", hint->P, what,
                       src, out->pb.P);
    }
    if (rc != CLI_OK) {
        cli_problem_free(out);
        return rc;
    }
    if (st != HC_OK) {
        const char *src = o->platform  ? o->platform
                          : o->costs   ? o->costs
                          : o->traffic ? o->traffic
                                       : o->times;
        if (coll == HC_COLL_REDUCE && o->times && !o->platform && !o->costs)
            src = "--times";
        rc = cli_fail(st, src);
        cli_problem_free(out);
        return rc;
    }
    return CLI_OK;
}

void cli_problem_free(cli_problem_t *p)
{
    hc_problem_destroy(p->built);
    free(p->times);
    hc_platform_destroy(p->plat);
    hc_matrix_destroy(p->costs);
    hc_matrix_destroy(p->sizes);
    memset(p, 0, sizeof *p);
}
