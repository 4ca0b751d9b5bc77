/* `hetcoll schedule <collective>`: build the problem, run an algorithm, print the schedule. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pictures.h"
#include "problem.h"

static void help(FILE *f, int coll)
{
    fprintf(f, "Usage: hetcoll schedule <alltoall|bcast|reduce|redistribute> [problem options]\n"
               "                        [--algo NAME] [--format text|json|svg] [-o FILE]\n\n"
               "Schedule one collective and print the schedule (events with start/end times,\n"
               "makespan and lower bound).\n\n");
    cli_popts_help(f, coll);
    if (coll >= 0) {
        char names[1024];
        hc_algo_names((hc_coll_t)coll, names, sizeof names);
        fprintf(f, "Algorithms (%s): %s\n", hc_coll_name((hc_coll_t)coll), names);
    }
    fprintf(f,
            "Algorithm:\n"
            "  -a, --algo NAME              algorithm (see 'hetcoll algorithms'; default auto:\n"
            "                               every candidate, the lowest makespan kept)\n"
            "  --seed N                     seed of randomised algorithms (default 1)\n"
            "  --time-limit S               limit of search algorithms (seconds; default 10, 0 "
            "= none)\n"
            "  --order i,j,...              reduce ep: send order (default: node ids, in order)\n"
            "  --hierarchy labels|none|auto bcast: use the platform's cluster labels (default\n"
            "                               auto: when it has two clusters or more)\n"
            "  --segment SIZE               bcast pipelined algorithms: segment size (default:\n"
            "                               the best predicted m/2^i); alltoall pieces and\n"
            "                               pieces-cross: piece size (default 8KiB)\n"
            "  --ramp N                     bcast multitree and stripes: the first and last N\n"
            "                               pieces grow and shrink linearly (0-64; default 0:\n"
            "                               equal)\n"
            "  --site-trees auto|two        bcast and reduce multitree: inside each site, the\n"
            "                               algorithm's rule (default auto) or the site's two\n"
            "                               trees (a reduction halves each range over them)\n"
            "  --tail-direct N              bcast multitree: the last N pieces on the direct\n"
            "                               site tree, which gets N/4 more (default 0: off)\n"
            "  --alternate SIZE             bcast multitree: pieces alternate between the\n"
            "                               segment and SIZE, as many as their mean makes\n"
            "                               (default 0: equal pieces)\n"
            "  --alpha A                    bcast TTCC switch cost (fraction of mean edge;\n"
            "                               default 0)\n"
            "  --verbose                    more detail in the note (default off)\n"
            "Output:\n"
            "  -f, --format text|json|svg   output format (default text)\n"
            "  -o, --output FILE            write to FILE instead of stdout\n"
            "  -h, --help                   this help\n\n"
            "Examples:\n"
            "  hetcoll schedule alltoall --costs C.txt --algo caterpillar --format json\n"
            "  hetcoll schedule bcast --platform builtin:grid5000 --root 0 --msg 1MiB "
            "--algo binomial\n"
            "  hetcoll schedule reduce --times 3,1,1,2\n"
            "  hetcoll schedule redistribute --traffic T.txt --k 2 --speed 1e8 --beta 0.01 "
            "--algo ggp\n");
}

int cli_check_format(const char *format, int allow_svg)
{
    if (strcmp(format, "text") == 0 || strcmp(format, "json") == 0)
        return 0;
    if (allow_svg && strcmp(format, "svg") == 0)
        return 0;
    return -1;
}

static void print_time(FILE *f, const char *label, double v)
{
    if (isnan(v))
        fprintf(f, "%-13s unknown\n", label);
    else
        fprintf(f, "%-13s %.9g s\n", label, v);
}

void cli_print_schedule_text(FILE *f, const hc_schedule_t *s)
{
    fprintf(f, "%-13s %s\n", "collective:", hc_coll_name(s->coll));
    fprintf(f, "%-13s %s\n", "algorithm:", s->algorithm);
    fprintf(f, "%-13s %u\n", "nodes:", s->P);
    if (s->coll == HC_COLL_BCAST || s->coll == HC_COLL_REDUCE)
        fprintf(f, "%-13s %u\n", "root:", s->root);
    if (s->coll == HC_COLL_BCAST && s->n_segments > 1)
        fprintf(f, "%-13s %u\n", "segments:", s->n_segments);
    if (s->coll == HC_COLL_REDISTRIBUTE) {
        fprintf(f, "%-13s n1=%u n2=%u k=%u\n", "clusters:", s->n1, s->n2, s->k);
        print_time(f, "beta:", s->beta);
        fprintf(f, "%-13s %zu\n", "steps:", s->n_steps);
    }
    print_time(f, "makespan:", s->makespan);
    print_time(f, "lower bound:", s->lower_bound);
    if (!isnan(s->lower_bound) && s->lower_bound > 0)
        fprintf(f, "%-13s %.6f\n", "ratio:", s->makespan / s->lower_bound);
    if (s->has_search && s->search.optimal)
        fprintf(f, "%-13s visited %.0f of %.6g (efficiency %.6f), optimal, best bound %.9g s\n",
                "search:", s->search.nodes_visited, s->search.naive_space, s->search.efficiency,
                s->search.best_lower_bound);
    else if (s->has_search) /* stopped by the time limit: say how far from proven */
        fprintf(f,
                "%-13s visited %.0f of %.6g, stopped by the time limit: not proven optimal, gap "
                "%.2f %% to the best bound %.9g s\n",
                "search:", s->search.nodes_visited, s->search.naive_space,
                s->search.best_lower_bound > 0
                    ? 100.0 * (s->makespan / s->search.best_lower_bound - 1.0)
                    : NAN,
                s->search.best_lower_bound);
    if (s->note && *s->note)
        fprintf(f, "%-13s %s\n", "note:", s->note);
    if (s->parent) {
        fprintf(f, "%-13s", "parent:");
        for (uint32_t i = 0; i < s->P; i++)
            fprintf(f, " %d", s->parent[i]);
        fputc('\n', f);
    }
    if (s->parent2) {
        fprintf(f, "%-13s", "parent2:");
        for (uint32_t i = 0; i < s->P; i++)
            fprintf(f, " %d", s->parent2[i]);
        fputc('\n', f);
    }
    if (s->coll == HC_COLL_REDISTRIBUTE && s->n_steps > 0) {
        fprintf(f,
                "(src: node of cluster 1, dst2: node of cluster 2, both 0-based; amount in s)\n");
        for (size_t k = 0; k < s->n_steps; k++) {
            const hc_step_t *st = &s->steps[k];
            fprintf(f, "\nstep %zu: start %.9g s, duration %.9g s, %zu transfers\n", k, st->start,
                    st->duration, st->count);
            fprintf(f, "  %5s %5s %16s %16s %16s %14s\n", "src", "dst2", "start", "end", "amount",
                    "bytes");
            for (size_t i = st->first; i < st->first + st->count && i < s->n_events; i++) {
                const hc_event_t *e = &s->events[i];
                fprintf(f, "  %5u %5u %16.9g %16.9g %16.9g %14llu\n", e->src,
                        e->dst >= s->n1 ? e->dst - s->n1 : e->dst, e->start, e->end,
                        e->end - e->start, (unsigned long long)e->bytes);
            }
        }
        return;
    }
    int segs = s->coll == HC_COLL_BCAST && s->n_segments > 1;
    int trees = s->parent2 != NULL;
    fprintf(f, "\nevents: %zu\n", s->n_events);
    fprintf(f, "%6s %5s %5s %16s %16s %14s%s%s\n", "#", "src", "dst", "start", "end", "bytes",
            segs ? "   seg" : "", trees ? " tree" : "");
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        fprintf(f, "%6zu %5u %5u %16.9g %16.9g %14llu", i, e->src, e->dst, e->start, e->end,
                (unsigned long long)e->bytes);
        if (segs)
            fprintf(f, " %5u", e->seg);
        if (trees)
            fprintf(f, " %4u", (unsigned)e->tree);
        fputc('\n', f);
    }
}

int cli_write_schedule(FILE *f, const hc_schedule_t *s, const char *format, const char *title)
{
    if (strcmp(format, "json") == 0) {
        char *json = NULL;
        int st = hc_schedule_to_json(s, &json);
        if (st != HC_OK)
            return cli_fail(st, "schedule JSON");
        fputs(json, f);
        size_t n = strlen(json);
        if (n == 0 || json[n - 1] != '\n')
            fputc('\n', f);
        free(json);
        return CLI_OK;
    }
    if (strcmp(format, "svg") == 0) {
        int st = cli_svg_schedule(f, s, title);
        if (st != 0)
            return cli_fail(st, "SVG output");
        return CLI_OK;
    }
    cli_print_schedule_text(f, s);
    return CLI_OK;
}

/* `auto` on a platform with links: the candidates (registry rows flagged HC_ALGO_AUTO, and the
 * MPI library's default) ranked by their replay on the flow network, where transfers at the same
 * time share the links; the per-pair plan cannot see that sharing (issue 15). The note gives
 * each candidate's flow-model time. */
static int auto_on_links(const hc_problem_t *pb, const hc_algo_opts_t *opts, hc_schedule_t **out)
{
    *out = NULL;
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    so.network = HC_NETWORK_FLOW;
    hc_schedule_t *best = NULL;
    double best_t = INFINITY;
    char note[1024];
    size_t used = 0;
    for (size_t i = 0; i < hc_algo_count(); i++) {
        const hc_algo_info_t *a = hc_algo_get(i);
        if (a->coll != pb->coll || !(a->flags & (HC_ALGO_AUTO | HC_ALGO_MPI_DEFAULT)) ||
            (a->auto_max_nodes && pb->P > a->auto_max_nodes && !(a->flags & HC_ALGO_EXACT)))
            continue;
        hc_schedule_t *s = NULL;
        hc_sim_result_t *r = NULL;
        int st = hc_schedule_compute(pb, a->name, opts, &s);
        if (st == HC_OK)
            st = hc_simulate(s, pb, &so, &r);
        if (st != HC_OK) { /* not applicable (pair costs, a two-tree broadcast...) */
            hc_error_clear();
            hc_schedule_destroy(s);
            continue;
        }
        if (used < sizeof note)
            used += (size_t)snprintf(note + used, sizeof note - used, "%s%s %.4g s",
                                     used ? ", " : "", a->name, r->makespan);
        if (r->makespan < best_t) {
            best_t = r->makespan;
            hc_schedule_destroy(best);
            best = s;
        } else {
            hc_schedule_destroy(s);
        }
        hc_sim_result_destroy(r);
    }
    if (!best)
        return hc_error_set(HC_ERR_UNSUPPORTED, "auto: no %s algorithm applies to this problem",
                            hc_coll_name(pb->coll));
    int st = hc_schedule_set_note(best,
                                  "auto on the links: kept %s, %.6g s on the flow network (the "
                                  "per-pair plan says %.6g s); candidates: %s",
                                  best->algorithm, best_t, best->makespan, note);
    if (st != HC_OK) {
        hc_schedule_destroy(best);
        return st;
    }
    snprintf(best->algorithm, sizeof best->algorithm, "auto");
    *out = best;
    return HC_OK;
}

/* On a platform with links, what the per-pair plan cannot say: the schedule's time on the flow
 * network and the link bound (total exchange: bytes over each link's capacity; broadcast and
 * reduction: the cut bound tightened by the sites LP). */
static int links_note(const hc_problem_t *pb, hc_schedule_t *s)
{
    if (!pb->platform || !hc_platform_has_routes(pb->platform) ||
        pb->coll == HC_COLL_REDISTRIBUTE || s->parent2)
        return HC_OK;
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    so.network = HC_NETWORK_FLOW;
    hc_sim_result_t *r = NULL;
    int st = hc_simulate(s, pb, &so, &r);
    if (st != HC_OK)
        return st;
    double flow = r->makespan, lb = NAN;
    hc_sim_result_destroy(r);
    if (pb->coll == HC_COLL_BCAST || pb->coll == HC_COLL_REDUCE) {
        st = pb->coll == HC_COLL_BCAST ? hc_flows_bcast_bound_model(pb->platform, NULL, pb->root,
                                                                    (double)pb->msg_bytes, &lb)
                                       : hc_flows_reduce_bound_model(pb->platform, NULL, pb->root,
                                                                     (double)pb->msg_bytes, &lb);
        if (st != HC_OK)
            return st;
        if (!(lb > 0))
            lb = NAN;
    } else if (pb->coll == HC_COLL_ALLTOALL) {
        uint32_t P = pb->P;
        double *bytes = calloc((size_t)P * P, sizeof *bytes);
        if (!bytes)
            return hc_error_set(HC_ERR_NOMEM, "out of memory");
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t j = 0; j < P; j++)
                if (i != j && HC_AT(pb->costs, i, j) > 0)
                    bytes[(size_t)i * P + j] =
                        pb->sizes ? HC_AT(pb->sizes, i, j) : (double)pb->msg_bytes;
        st = hc_flows_bound_model(pb->platform, NULL, bytes, &lb);
        free(bytes);
        if (st != HC_OK)
            return st;
    }
    char line[256];
    if (isnan(lb))
        snprintf(line, sizeof line, "on the links (flow model): %.6g s", flow);
    else
        snprintf(line, sizeof line, "on the links (flow model): %.6g s, link bound %.6g s (%.4fx)",
                 flow, lb, flow / lb);
    return s->note ? hc_schedule_set_note(s, "%s\n%s", s->note, line)
                   : hc_schedule_set_note(s, "%s", line);
}

/* `--root any` for a reduction: build and schedule the problem once per candidate root, keep the
 * lowest makespan (ties: the earlier candidate) and say in the note which root was kept.
 * Candidates: with --times (C[i][j] = t(i), the costs do not depend on the receiver) the problem
 * of root r is determined, up to renumbering the nodes, by the send times of the others, so one
 * root per distinct send time covers every problem, slowest first; and an exact search needs
 * only a slowest root: exchanging the roles of root r and a node s with t(s) >= t(r) turns any
 * schedule of root r into one of root s whose events are no longer (s's sends become r's,
 * shorter ones), so no root does better than a slowest one. Otherwise (--platform, --costs)
 * every root is tried. A time limit is shared among the candidates. Returns an exit code (after
 * printing any error); on success *p is the kept root's problem. */
static int any_root(cli_popts_t *o, const char *algo, unsigned flags, const char *cmd,
                    cli_problem_t *p, hc_schedule_t **out)
{
    *out = NULL;
    uint32_t P = p->pb.P, n = 0;
    uint32_t *cand = malloc((size_t)P * sizeof *cand);
    if (!cand)
        return cli_error("out of memory");
    const double *t = p->times;
    if (t) { /* one node per distinct send time, slowest first */
        for (uint32_t i = 0; i < P; i++) {
            int seen = 0;
            for (uint32_t k = 0; k < n && !seen; k++)
                seen = t[cand[k]] == t[i];
            if (!seen)
                cand[n++] = i;
        }
        for (uint32_t a = 1; a < n; a++) /* insertion sort, stable: by time, descending */
            for (uint32_t b = a; b > 0 && t[cand[b - 1]] < t[cand[b]]; b--) {
                uint32_t x = cand[b];
                cand[b] = cand[b - 1];
                cand[b - 1] = x;
            }
        if (flags & HC_ALGO_EXACT)
            n = 1;
    } else {
        for (uint32_t i = 0; i < P; i++)
            cand[n++] = i;
    }
    hc_algo_opts_t ao = o->algo;
    if (ao.time_limit_s > 0)
        ao.time_limit_s /= n;
    hc_schedule_t *best = NULL;
    cli_problem_t bestp;
    memset(&bestp, 0, sizeof bestp);
    char tried[512];
    size_t used = 0;
    int rc = CLI_OK;
    for (uint32_t k = 0; k < n && rc == CLI_OK; k++) {
        cli_problem_t q;
        o->root = cand[k];
        o->have_root = 1;
        if ((rc = cli_problem_build(HC_COLL_REDUCE, o, NULL, cmd, &q)) != CLI_OK)
            break;
        hc_schedule_t *s = NULL;
        int st = hc_schedule_compute(&q.pb, algo, &ao, &s);
        if (st != HC_OK) {
            rc = cli_fail(st, algo);
            cli_problem_free(&q);
            break;
        }
        if (used < sizeof tried && k < 8)
            used += (size_t)snprintf(tried + used, sizeof tried - used, "%s%u: %.6g s",
                                     used ? ", " : "", cand[k], s->makespan);
        if (!best || s->makespan < best->makespan) {
            hc_schedule_destroy(best);
            cli_problem_free(&bestp);
            best = s;
            bestp = q;
        } else {
            hc_schedule_destroy(s);
            cli_problem_free(&q);
        }
    }
    if (rc != CLI_OK) {
        free(cand);
        hc_schedule_destroy(best);
        cli_problem_free(&bestp);
        return rc;
    }
    char line[768];
    if (t && (flags & HC_ALGO_EXACT))
        snprintf(line, sizeof line,
                 "root any: root %u, a slowest node (with send times the best root is a slowest "
                 "node, so the exact search tries only it)",
                 best->root);
    else
        snprintf(line, sizeof line, "root any: kept root %u of %u tried%s: %s%s", best->root, n,
                 t ? ", one per distinct send time" : "", tried, n > 8 ? ", ..." : "");
    int st = best->note ? hc_schedule_set_note(best, "%s\n%s", best->note, line)
                        : hc_schedule_set_note(best, "%s", line);
    free(cand);
    if (st != HC_OK) {
        hc_schedule_destroy(best);
        cli_problem_free(&bestp);
        return cli_fail(st, algo);
    }
    cli_problem_free(p);
    *p = bestp;
    *out = best;
    return CLI_OK;
}

int cmd_schedule(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_PROBLEM_LONGOPTS,
                                             {"algo", required_argument, NULL, 'a'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *cmd = "schedule";
    cli_popts_t o;
    cli_popts_init(&o);
    const char *algo = NULL, *format = "text", *output = NULL;
    int c, rc = CLI_OK;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:f:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'a':
            algo = optarg;
            break;
        case 'f':
            format = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h': {
            int only = -1; /* `schedule <coll> --help`: that collective's options only */
            for (int i = 1; i < argc; i++) {
                hc_coll_t c2;
                if (argv[i][0] != '-' && hc_coll_parse(argv[i], &c2) == HC_OK)
                    only = (int)c2;
            }
            hc_error_clear();
            help(stdout, only);
            cli_popts_free(&o);
            return CLI_OK;
        }
        default:
            rc = cli_popts_option(&o, cmd, c, optarg, argv);
            if (rc != CLI_OK) {
                cli_popts_free(&o);
                return rc;
            }
        }
    }
    if (optind >= argc) {
        cli_popts_free(&o);
        return cli_usage_error(cmd, "missing collective (alltoall, bcast, reduce, redistribute)");
    }
    if (optind + 1 < argc) {
        cli_popts_free(&o);
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
    }
    hc_coll_t coll;
    if (hc_coll_parse(argv[optind], &coll) != HC_OK) {
        cli_popts_free(&o);
        return cli_usage_error(cmd,
                               "unknown collective '%s' (valid: alltoall, bcast, reduce, "
                               "redistribute)",
                               argv[optind]);
    }
    if (cli_check_format(format, 1) != 0) {
        cli_popts_free(&o);
        return cli_value_error(cmd, "unknown format '%s' (valid: text, json, svg)", format);
    }
    if (!algo)
        algo = "auto"; /* every collective has one (select.c) */
    cli_problem_t p;
    o.algo_name = algo;
    /* --root any; the default for a reduction given by its send times, whose problems (Liu et
     * al.) make a slowest node the root */
    int root_any =
        coll == HC_COLL_REDUCE &&
        (o.root_any || (o.times && !o.have_root && !o.algo.order && !o.costs && !o.platform));
    if (root_any) {
        o.root_any = 0;
        o.have_root = 1;
        o.root = 0;
    }
    rc = cli_problem_build(coll, &o, NULL, cmd, &p);
    if (rc != CLI_OK) {
        cli_popts_free(&o);
        return rc;
    }
    const hc_algo_info_t *info;
    int st = cli_algo_find(coll, algo, &info);
    if (st != HC_OK) {
        cli_problem_free(&p);
        cli_popts_free(&o);
        return cli_fail(st, NULL);
    }
    hc_schedule_t *s = NULL;
    if (root_any) {
        rc = any_root(&o, info->name, info->flags, cmd, &p, &s);
        if (rc != CLI_OK) {
            cli_problem_free(&p);
            cli_popts_free(&o);
            return rc;
        }
    } else if (strcmp(algo, "auto") == 0 && p.pb.platform &&
               hc_platform_has_routes(p.pb.platform) && coll != HC_COLL_REDISTRIBUTE)
        st = auto_on_links(&p.pb, &o.algo, &s);
    else
        st = hc_schedule_compute(&p.pb, algo, &o.algo, &s);
    if (st == HC_OK)
        st = links_note(&p.pb, s);
    if (st != HC_OK) {
        rc = cli_fail(st, algo);
    } else {
        FILE *f = cli_open_output(output);
        if (!f) {
            rc = CLI_ERROR;
        } else {
            char title[512];
            const char *src = o.platform  ? o.platform
                              : o.costs   ? o.costs
                              : o.traffic ? o.traffic
                                          : o.times;
            const char *base = src ? strrchr(src, '/') : NULL;
            snprintf(title, sizeof title, "%s %s on %s", hc_coll_name(coll), s->algorithm,
                     base ? base + 1 : (src ? src : "?"));
            if (strcmp(format, "svg") == 0) { /* node names and cluster bands */
                int sv = cli_svg_schedule_on(f, s, p.plat,
                                             p.built ? hc_problem_nodes(p.built) : NULL, title);
                rc = sv != 0 ? cli_fail(sv, "SVG output") : CLI_OK;
            } else {
                rc = cli_write_schedule(f, s, format, title);
            }
            rc = cli_close_output(f, rc);
        }
    }
    hc_schedule_destroy(s);
    cli_problem_free(&p);
    cli_popts_free(&o);
    return rc;
}
