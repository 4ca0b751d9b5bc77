/* Grid benchmark driver: hetcoll's collectives (libhetcoll_mpi) against the MPI library's own
 * on the same platform. Standard MPI: built with smpicc for SimGrid SMPI (bench/grid/run.sh,
 * simulated times) and with mpicc for real runs (tests/netns). Usage:
 *   grid_bench [--platform SPEC] [--model hockney|plogp] --scenario NAME --ops OP[,OP...]
 *              [--reps N (3)]
 *              [--native-reps N (1: SMPI's native collectives are deterministic)] [--no-hetcoll]
 *              [--no-native] [--k K] [--label NATIVE] [--groups N1,N2] [--algos all|A,B,...]
 * (GRID_BENCH_WALL=1 in the environment: wall-clock time of each phase on stderr.)
 * OP: a2a-uniform:SIZE, a2a-skewed:SIZE (20% "server" ranks, r % 5 == 0, send 10x SIZE),
 *     bcast:SIZE (root 0), reduce:SIZE (MPI_SUM on doubles, root 0),
 *     redist:SIZE (ranks of the platform's cluster 0 send to those of cluster 1 (--groups: the
 *     first N1 ranks to the next N2), pair (i, j)
 *     carrying SIZE * (1 + (7i + 13j) mod 4) / 2 bytes; hetcoll's KPBS schedule with at most K
 *     transfers per step against "post every Isend/Irecv at once").
 * Without --platform the runtime finds one as without a platform (HETCOLL_PLATFORM, else its
 * link probe), once, reported on stderr with its cost; --model: the runtime's cost model.
 * --algos: instead of "auto", each listed registry algorithm of the op's collective in turn
 * (forced, a fresh communicator each; the label column names it): the model accuracy table.
 * SIZE: bytes with optional K/M suffix (KiB/MiB). Rank 0 prints one tab-separated row per op:
 *   scenario op bytes hetcoll_s native_s ratio algorithm predicted_s cold_s model_native_s
 *   plan_wall_s label warmup_calls warmup_s bound_s
 * hetcoll_s: the steady state, once the runtime settled (hc_comm_settled: planned, candidates
 * measured, the decision made; what runs then is hetcoll's schedule or the MPI library's own
 * collective); warmup_calls / warmup_s: the calls until then and their total time (the cost of
 * planning and measuring); cold_s: the first call; predicted_s: the schedule's modelled
 * makespan; model_native_s: the modelled makespan of the native algorithm's analogue
 * (caterpillar = pairwise exchange for alltoall, binomial for bcast; NAN otherwise);
 * plan_wall_s: processor time of the cold call (the simulator's included under SMPI). Times are the
 * median over N reps of max over ranks (t_end - t_start), each rep started by a barrier (the
 * runtime's occasional checks, e.g. whether alltoallv sizes changed, fall outside the median).
 * bound_s: a lower bound on any schedule's time on the platform's links (nan without routes):
 * bcast hc_flows_bcast_bound_model (the cut bound, tightened by the sites LP: relays forward only
 * what reached them, and under SMPI's model early bytes move at the small classes' rates); reduce
 * hc_flows_reduce_bound_model, the same for the reduction (each site's data leaves through the
 * links all routes out of it share, which on split-duplex links are the other direction); a2a-*
 * and redist hc_flows_bound_model on the op's byte matrix (the links' loads, latencies
 * and the LP over all links). With HETCOLL_FLOW_MODEL=smpi (SimGrid's default network model) the
 * same bounds on hc_flows_bound_platform's platform (latencies x 1.61075, capacities x 1.08739: the
 * most favourable message sizes' factors; shared links crossed both ways / 1.05, the cross
 * traffic), which bound any schedule under that model; the plain ones do not (8 KiB messages
 * move 1.087 bytes per unit of capacity). The exchanges' LP also sees each size class apart (a
 * byte starts at 1.61 latencies only in 1411 to 3468 B messages, at 0.61 of the 8 KiB rate).
 * Results are checked: every timed call (hetcoll's and the native's) fills its own data
 * pattern, consecutive calls differing in every byte, and checks every rank's result after
 * the call (outside the timing); a wrong one prints "grid_bench: wrong result: ..." naming the
 * call, rank and byte, and aborts (exit 3). Checked buffers are each rank's own; above
 * 32 MiB per rank (alltoallv at 1 MiB) SMPI's shared buffers are used, unchecked.
 * Each operation gets a fresh hetcoll communicator (its own plans and planning budget). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetcoll/mpi.h"

#ifdef SMPI_SHARED_MALLOC /* SimGrid: one physical copy of big buffers for all ranks */
#define BIG_ALLOC(n) SMPI_SHARED_MALLOC(n)
#define BIG_FREE(p) SMPI_SHARED_FREE(p)
#else
#define BIG_ALLOC(n) malloc(n)
#define BIG_FREE(p) free(p)
#endif

typedef struct {
    int me, P;
    hc_comm_t *hc;
    int k;
    uint64_t size;
    const char *kind;
    /* alltoallv / redistribution arguments */
    int *sc, *sd, *rc, *rd;
    char *sbuf, *rbuf;
    size_t sbytes, rbytes;
    /* real: the buffers are this rank's own (malloc), filled before and checked after every
     * timed call; else SMPI's shared buffers (one copy for all ranks), unchecked */
    int real;
    unsigned call; /* timed calls so far: each fills its own pattern */
} bench_t;

/* Per-rank buffer bytes up to which results are checked (real buffers; above: shared). */
#define CHECK_MAX ((size_t)32 << 20)

static void *buf_alloc(const bench_t *b, size_t n)
{
    return b->real ? malloc(n ? n : 1) : BIG_ALLOC(n ? n : 1);
}

static void buf_free(const bench_t *b, void *p)
{
    if (b->real)
        free(p);
    else if (p)
        BIG_FREE(p);
}

/* Processor time of the process (SMPI redirects clock_gettime and gettimeofday to the
 * simulated clock; clock() still measures the host). Under SMPI every rank is in this process,
 * so a span in which only rank 0 computes (planning) is rank 0's planning time. */
static double wall(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0)
        return -1;
    if (*end == 'K' || *end == 'k')
        v *= 1024;
    else if (*end == 'M' || *end == 'm')
        v *= 1024 * 1024;
    else if (*end == 'G' || *end == 'g')
        v *= 1024.0 * 1024 * 1024;
    *out = (uint64_t)v;
    return 0;
}

/* Pair sizes of the alltoallv variants and of the redistribution. */
static uint64_t pair_bytes(const bench_t *b, int i, int j, const int *cl)
{
    if (i == j)
        return 0;
    if (strcmp(b->kind, "a2a-uniform") == 0)
        return b->size;
    if (strcmp(b->kind, "a2a-skewed") == 0)
        return i % 5 == 0 ? 10 * b->size : b->size;
    /* redist */
    if (cl[i] != 0 || cl[j] != 1)
        return 0;
    return b->size * (uint64_t)(1 + (7 * i + 13 * j) % 4) / 2;
}

static int setup_v(bench_t *b, const int *cl)
{
    int P = b->P;
    b->sc = calloc((size_t)P, sizeof(int));
    b->sd = calloc((size_t)P, sizeof(int));
    b->rc = calloc((size_t)P, sizeof(int));
    b->rd = calloc((size_t)P, sizeof(int));
    if (!b->sc || !b->sd || !b->rc || !b->rd)
        return -1;
    size_t s = 0, r = 0;
    for (int j = 0; j < P; j++) {
        b->sc[j] = (int)pair_bytes(b, b->me, j, cl);
        b->rc[j] = (int)pair_bytes(b, j, b->me, cl);
        b->sd[j] = (int)s;
        b->rd[j] = (int)r;
        s += (size_t)b->sc[j];
        r += (size_t)b->rc[j];
    }
    b->sbytes = s;
    b->rbytes = r;
    /* checked when every rank's buffers fit (the same decision on every rank: a rank with
     * shared buffers sends no pattern) */
    size_t most = 0;
    for (int i = 0; i < P; i++) {
        size_t t = 0;
        for (int j = 0; j < P; j++)
            t += (size_t)pair_bytes(b, i, j, cl) + (size_t)pair_bytes(b, j, i, cl);
        most = t > most ? t : most;
    }
    b->real = most <= CHECK_MAX;
    b->sbuf = buf_alloc(b, s);
    b->rbuf = buf_alloc(b, r);
    return b->sbuf && b->rbuf ? 0 : -1;
}

/* Byte k of what rank i sends rank j in call c: consecutive calls differ in every byte, so a
 * native algorithm that matches a message of the previous call (SMP_linear with one rank per
 * host sends every segment twice) is caught. */
static unsigned char pat(int i, int j, size_t k, unsigned c)
{
    return (unsigned char)((k * 131u) ^ (k >> 9) ^
                           ((unsigned)i * 7u + (unsigned)j * 13u + c * 29u));
}

/* Element e of rank r's reduce contribution in call c: small integers, exact sums in any order. */
static double rval(int r, size_t e, unsigned c)
{
    return (double)(((unsigned)e * 31u ^ (unsigned)r * 17u ^ c * 101u) & 1023u);
}

/* Fill the buffers for call b->call: what each rank sends, and received data's opposite. */
static void fill(bench_t *b)
{
    if (!b->real)
        return;
    unsigned c = b->call;
    if (strcmp(b->kind, "bcast") == 0) {
        for (size_t k = 0; k < b->size; k++)
            b->sbuf[k] = (char)(b->me == 0 ? pat(0, 0, k, c) : ~pat(0, 0, k, c));
    } else if (strcmp(b->kind, "reduce") == 0) {
        size_t n = b->size / sizeof(double);
        double *x = (double *)b->sbuf, *y = (double *)b->rbuf;
        for (size_t e = 0; e < n; e++) {
            x[e] = rval(b->me, e, c);
            y[e] = -1.0;
        }
    } else {
        for (int j = 0; j < b->P; j++) {
            for (size_t k = 0; k < (size_t)b->sc[j]; k++)
                b->sbuf[(size_t)b->sd[j] + k] = (char)pat(b->me, j, k, c);
            for (size_t k = 0; k < (size_t)b->rc[j]; k++)
                b->rbuf[(size_t)b->rd[j] + k] = (char)~pat(j, b->me, k, c);
        }
    }
}

/* The first wrong byte (element for reduce) of this rank's result, or -1. *from: the rank whose
 * data it should be (-1: the reduction). */
static long long check(const bench_t *b, int *from)
{
    unsigned c = b->call;
    *from = -1;
    if (!b->real)
        return -1;
    if (strcmp(b->kind, "bcast") == 0) {
        *from = 0;
        for (size_t k = 0; k < b->size; k++)
            if ((unsigned char)b->sbuf[k] != pat(0, 0, k, c))
                return (long long)k;
    } else if (strcmp(b->kind, "reduce") == 0) {
        if (b->me != 0)
            return -1;
        size_t n = b->size / sizeof(double);
        const double *y = (const double *)b->rbuf;
        for (size_t e = 0; e < n; e++) {
            double want = 0;
            for (int r = 0; r < b->P; r++)
                want += rval(r, e, c);
            if (y[e] != want)
                return (long long)e;
        }
    } else {
        for (int j = 0; j < b->P; j++)
            for (size_t k = 0; k < (size_t)b->rc[j]; k++)
                if ((unsigned char)b->rbuf[(size_t)b->rd[j] + k] != pat(j, b->me, k, c)) {
                    *from = j;
                    return (long long)k;
                }
    }
    return -1;
}

static int run_native(bench_t *b)
{
    if (strncmp(b->kind, "a2a", 3) == 0)
        return MPI_Alltoallv(b->sbuf, b->sc, b->sd, MPI_BYTE, b->rbuf, b->rc, b->rd, MPI_BYTE,
                             MPI_COMM_WORLD);
    if (strcmp(b->kind, "bcast") == 0)
        return MPI_Bcast(b->sbuf, (int)b->size, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (strcmp(b->kind, "reduce") == 0)
        return MPI_Reduce(b->sbuf, b->rbuf, (int)(b->size / sizeof(double)), MPI_DOUBLE, MPI_SUM, 0,
                          MPI_COMM_WORLD);
    /* redist: brute force, every message posted at once */
    MPI_Request *req = malloc(sizeof *req * 2 * (size_t)b->P);
    int n = 0;
    if (!req)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < b->P; j++)
        if (b->rc[j] > 0)
            MPI_Irecv(b->rbuf + b->rd[j], b->rc[j], MPI_BYTE, j, 7, MPI_COMM_WORLD, &req[n++]);
    for (int j = 0; j < b->P; j++)
        if (b->sc[j] > 0)
            MPI_Isend(b->sbuf + b->sd[j], b->sc[j], MPI_BYTE, j, 7, MPI_COMM_WORLD, &req[n++]);
    int err = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(req);
    return err;
}

static int run_hetcoll(bench_t *b)
{
    if (strncmp(b->kind, "a2a", 3) == 0)
        return hc_alltoallv(b->sbuf, b->sc, b->sd, MPI_BYTE, b->rbuf, b->rc, b->rd, MPI_BYTE,
                            b->hc);
    if (strcmp(b->kind, "bcast") == 0)
        return hc_bcast(b->sbuf, (int)b->size, MPI_BYTE, 0, b->hc);
    if (strcmp(b->kind, "reduce") == 0)
        return hc_reduce(b->sbuf, b->rbuf, (int)(b->size / sizeof(double)), MPI_DOUBLE, MPI_SUM, 0,
                         b->hc);
    return hc_redistribute(b->sbuf, b->sc, b->sd, b->rbuf, b->rc, b->rd, MPI_BYTE, b->k, b->hc);
}

/* One timed call: max over ranks of (end - start) after a barrier. */
static double timed(bench_t *b, int hetcoll, double *wall_out)
{
    b->call++;
    fill(b);
    MPI_Barrier(MPI_COMM_WORLD);
#ifdef SMPI_SHARED_MALLOC
    /* SMPI's clock is global: every rank starts at the same instant, 1 s after the latest rank's
     * clock (more than the allreduce naming it takes); each sleeps (simulated) until then. A
     * barrier alone releases ranks up to a WAN latency apart, which would count in or out of the
     * time depending on who leaves last. An allreduce rather than a broadcast: the native
     * broadcast algorithm under test (--cfg=smpi/bcast:NAME) stays out of the timing. */
    double mine = MPI_Wtime() + 1.0, start;
    MPI_Allreduce(&mine, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double wait = start - MPI_Wtime();
    if (wait > 0) {
        struct timespec ts = {(time_t)wait, (long)((wait - floor(wait)) * 1e9)};
        nanosleep(&ts, NULL);
    }
#endif
    double w0 = wall(), t0 = MPI_Wtime();
    int err = hetcoll ? run_hetcoll(b) : run_native(b);
    double t1 = MPI_Wtime(), dt = t1 - t0, mx;
    if (wall_out)
        *wall_out = wall() - w0;
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "grid_bench: rank %d: %s %s failed (%d)\n", b->me,
                hetcoll ? "hetcoll" : "native", b->kind, err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
#ifdef SMPI_SHARED_MALLOC
    /* from the common start to the last end */
    MPI_Allreduce(&t1, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    mx -= start;
    (void)dt;
#else
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
    /* the result, outside the timing: the lowest rank with a wrong one names it, then abort */
    int from;
    long long at = check(b, &from);
    struct {
        int bad, rank;
    } in = {at >= 0, b->me}, out;
    MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (out.bad) {
        /* the lowest wrong rank names it and everyone aborts at once: after a wrong native,
         * stale messages (SMPI's collective tags overlap) may match any further collective */
        if (b->me == out.rank) {
            char src[32] = "";
            if (from >= 0)
                snprintf(src, sizeof src, " from rank %d", from);
            fprintf(stderr,
                    "grid_bench: wrong result: %s %s of %llu B, call %u: rank %d, %s %lld%s\n",
                    hetcoll ? "hetcoll" : "native", b->kind, (unsigned long long)b->size, b->call,
                    b->me, strcmp(b->kind, "reduce") == 0 ? "element" : "byte", at, src);
            fflush(stderr);
        }
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return mx;
}

static double median_of(bench_t *b, int hetcoll, int reps)
{
    double *t = malloc(sizeof *t * (size_t)reps), m;
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int r = 0; r < reps; r++)
        t[r] = timed(b, hetcoll, NULL);
    qsort(t, (size_t)reps, sizeof *t, cmp_d);
    m = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    free(t);
    return m;
}

/* Modelled makespan of the native algorithm's analogue (rank 0 only). For alltoall, `winner`
 * (when not NULL) receives the candidate the registry's "auto" kept (from its note). */
static double model_native(const bench_t *b, const int *cl, char *winner, size_t cap)
{
    const hc_platform_t *pl = hc_comm_platform(b->hc);
    hc_problem_t *pb = NULL;
    hc_problem_spec_t sp;
    hc_matrix_t *S = NULL;
    hc_schedule_t *s = NULL;
    double out = NAN;
    const char *algo = NULL;
    if (strncmp(b->kind, "a2a", 3) == 0) {
        if (hc_matrix_create((uint32_t)b->P, (uint32_t)b->P, 0.0, &S) != HC_OK)
            return NAN;
        for (int i = 0; i < b->P; i++)
            for (int j = 0; j < b->P; j++)
                HC_AT(S, i, j) = (double)pair_bytes(b, i, j, cl);
        hc_problem_spec_init(&sp, HC_COLL_ALLTOALL);
        sp.sizes = S;
        algo = "caterpillar";
    } else if (strcmp(b->kind, "bcast") == 0) {
        hc_problem_spec_init(&sp, HC_COLL_BCAST);
        sp.msg_bytes = b->size;
        algo = "binomial";
    } else {
        return NAN;
    }
    sp.platform = pl; /* Hockney costs, as the MPI library sees the network */
    if (hc_problem_create(&sp, &pb) != HC_OK)
        goto done;
    if (hc_schedule_compute(pb, algo, NULL, &s) == HC_OK)
        out = s->makespan;
    if (winner && pb->coll == HC_COLL_ALLTOALL) {
        hc_schedule_t *a = NULL;
        hc_algo_opts_t o;
        hc_algo_opts_init(&o);
        o.time_limit_s = 0.05; /* as the runtime plans */
        if (hc_schedule_compute(pb, "auto", &o, &a) == HC_OK && a->note &&
            strncmp(a->note, "auto: ", 6) == 0)
            snprintf(winner, cap, "auto:%.*s", (int)strcspn(a->note + 6, " "), a->note + 6);
        hc_schedule_destroy(a);
    }
done:
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    hc_matrix_destroy(S);
    return out;
}

/* bound_s of the row (see the header): NAN when the platform has no routes. */
static double link_bound(const bench_t *b, const hc_platform_t *plat, const int *cl)
{
    double lb = NAN;
    uint32_t P = hc_platform_size(plat);
    if (!hc_platform_has_routes(plat) || P != (uint32_t)b->P)
        return NAN;
    const char *fm = getenv("HETCOLL_FLOW_MODEL");
    hc_flow_opts_t fo;
    hc_flow_opts_init(&fo);
    fo.smpi_factors = fm && strcmp(fm, "smpi") == 0;
    if (strcmp(b->kind, "bcast") == 0) {
        if (hc_flows_bcast_bound_model(plat, &fo, 0, (double)b->size, &lb) != HC_OK)
            lb = NAN;
    } else if (strcmp(b->kind, "reduce") == 0) {
        if (hc_flows_reduce_bound_model(plat, &fo, 0, (double)b->size, &lb) != HC_OK)
            lb = NAN;
    } else {
        double *bytes = calloc((size_t)P * P, sizeof *bytes);
        if (!bytes)
            return NAN;
        for (int i = 0; i < b->P; i++)
            for (int j = 0; j < b->P; j++)
                bytes[(size_t)i * P + (size_t)j] = (double)pair_bytes(b, i, j, cl);
        if (hc_flows_bound_model(plat, &fo, bytes, &lb) != HC_OK)
            lb = NAN;
        free(bytes);
    }
    return lb > 0 ? lb : NAN;
}

/* Run flags of main. */
typedef struct {
    int reps, native_reps, no_hetcoll, no_native;
} run_t;

/* Whether `name` is in the comma-separated `list` ("all" holds every name). */
static int listed(const char *list, const char *name)
{
    if (strcmp(list, "all") == 0)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && strncmp(p, name, n) == 0)
            return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* One operation (b->kind, b->size) with a fresh communicator: the hetcoll row on stdout. */
static void run_op(bench_t *bb, const hc_platform_t *plat, const hc_comm_opts_t *o, const int *cl,
                   const run_t *rr, const char *scenario, const char *label)
{
    bench_t b = *bb;
    const char *tok = b.kind;
    int reps = rr->reps, native_reps = rr->native_reps, no_hetcoll = rr->no_hetcoll,
        no_native = rr->no_native;
    /* A communicator per operation: each is measured as a job's steady workload, with a
     * planning budget of its own. None with --no-hetcoll: the native collective alone (its
     * MPI_Comm_dup runs collectives that a native algorithm under test may break). */
    /* hetcoll reports errors through the communicator's handler: return them here, so that
     * the one-line detail is printed (MPI_ERRORS_ARE_FATAL would abort without it) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int err = no_hetcoll ? MPI_SUCCESS : hc_comm_create(MPI_COMM_WORLD, plat, o, &b.hc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (err != MPI_SUCCESS) {
        if (b.me == 0)
            fprintf(stderr, "grid_bench: hc_comm_create failed (%d): %s\n", err, hc_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int is_v = strncmp(tok, "a2a", 3) == 0 || strcmp(tok, "redist") == 0;
    if (is_v) {
        if (setup_v(&b, cl) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
    } else if (strcmp(tok, "bcast") == 0 || strcmp(tok, "reduce") == 0) {
        b.real = (strcmp(tok, "bcast") == 0 ? 1 : 2) * b.size <= CHECK_MAX;
        b.sbuf = buf_alloc(&b, b.size);
        b.rbuf = buf_alloc(&b, strcmp(tok, "bcast") == 0 ? 0 : b.size);
    } else {
        if (b.me == 0)
            fprintf(stderr, "grid_bench: unknown op '%s'\n", tok);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double het = NAN, cold = NAN, pw = NAN, pred = NAN, mn = NAN;
    char algo[64] = "-";
    int warm = 0;
    double warm_s = NAN;
    if (!no_native)
        timed(&b, 0, NULL); /* untimed: SMPI's first call of a collective costs more */
    if (!no_hetcoll) {
        double w1 = wall();
        cold = timed(&b, 1, &pw);
        warm_s = cold;
        /* Until the runtime settled (bounded: a plan that never settles is reported). */
        for (warm = 1; !hc_comm_settled(b.hc) && warm < 200; warm++)
            warm_s += timed(&b, 1, NULL);
        double w2 = wall();
        het = median_of(&b, 1, reps);
        if (b.me == 0 && getenv("GRID_BENCH_WALL"))
            fprintf(stderr, "grid_bench: %s: cold %.2f s, warm %.2f s wall\n", tok, w2 - w1,
                    wall() - w2);
        snprintf(algo, sizeof algo, "%s", hc_comm_last_algorithm(b.hc));
        pred = hc_comm_last_predicted(b.hc);
        double w3 = wall();
        if (b.me == 0)
            mn = model_native(&b, cl, strcmp(algo, "auto") == 0 ? algo : NULL, sizeof algo);
        if (b.me == 0 && getenv("GRID_BENCH_WALL"))
            fprintf(stderr, "grid_bench: %s: model %.2f s wall\n", tok, wall() - w3);
    }
    double w0 = wall();
    double nat = no_native ? NAN : median_of(&b, 0, native_reps);
    if (b.me == 0 && getenv("GRID_BENCH_WALL"))
        fprintf(stderr, "grid_bench: %s: native %.2f s wall\n", tok, wall() - w0);
    if (b.me == 0) {
        printf("%s\t%s\t%llu\t%.6g\t%.6g\t%.3f\t%s\t%.6g\t%.6g\t%.6g\t%.3g\t%s\t%d\t%.6g\t%.6g\n",
               scenario, tok, (unsigned long long)b.size, het, nat, het / nat, algo, pred, cold, mn,
               pw, label, warm, warm_s, link_bound(&b, plat, cl));
        fflush(stdout);
    }
    hc_comm_destroy(b.hc);
    b.hc = NULL;
    buf_free(&b, b.sbuf);
    buf_free(&b, b.rbuf);
    free(b.sc);
    free(b.sd);
    free(b.rc);
    free(b.rd);
    b.sc = b.sd = b.rc = b.rd = NULL;
    b.sbuf = b.rbuf = NULL;
    *bb = b;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    bench_t b;
    memset(&b, 0, sizeof b);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.me);
    MPI_Comm_size(MPI_COMM_WORLD, &b.P);
    const char *spec = NULL, *scenario = "-", *ops = NULL, *label = "native", *algos = NULL;
    run_t r = {3, 1, 0, 0};
    int g1 = -1, g2 = -1;
    hc_model_t model = HC_MODEL_HOCKNEY;
    b.k = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--platform") == 0 && a + 1 < argc)
            spec = argv[++a];
        else if (strcmp(argv[a], "--scenario") == 0 && a + 1 < argc)
            scenario = argv[++a];
        else if (strcmp(argv[a], "--ops") == 0 && a + 1 < argc)
            ops = argv[++a];
        else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc)
            r.reps = atoi(argv[++a]);
        else if (strcmp(argv[a], "--native-reps") == 0 && a + 1 < argc)
            r.native_reps = atoi(argv[++a]);
        else if (strcmp(argv[a], "--k") == 0 && a + 1 < argc)
            b.k = atoi(argv[++a]);
        else if (strcmp(argv[a], "--label") == 0 && a + 1 < argc)
            label = argv[++a];
        else if (strcmp(argv[a], "--algos") == 0 && a + 1 < argc)
            algos = argv[++a];
        else if (strcmp(argv[a], "--model") == 0 && a + 1 < argc &&
                 (strcmp(argv[a + 1], "hockney") == 0 || strcmp(argv[a + 1], "plogp") == 0))
            model = strcmp(argv[++a], "plogp") == 0 ? HC_MODEL_PLOGP : HC_MODEL_HOCKNEY;
        else if (strcmp(argv[a], "--no-hetcoll") == 0)
            r.no_hetcoll = 1;
        else if (strcmp(argv[a], "--no-native") == 0)
            r.no_native = 1;
        else if (strcmp(argv[a], "--groups") == 0 && a + 1 < argc &&
                 sscanf(argv[a + 1], "%d,%d", &g1, &g2) == 2 && g1 > 0 && g2 > 0)
            a++;
        else {
            if (b.me == 0)
                fprintf(stderr, "grid_bench: bad argument '%s' (see the header of grid_bench.c)\n",
                        argv[a]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (!ops || r.reps < 1) {
        if (b.me == 0)
            fprintf(stderr, "grid_bench: --ops is required\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.verbose = getenv("HETCOLL_VERBOSE") && atoi(getenv("HETCOLL_VERBOSE")) > 0;
    o.model = model;
    hc_platform_t *plat = NULL;
    if (spec && hc_platform_load(spec, &plat) != HC_OK) {
        if (b.me == 0)
            fprintf(stderr, "grid_bench: %s\n", hc_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!spec) { /* what the runtime finds itself (HETCOLL_PLATFORM, else its probe), once */
        hc_comm_t *c = NULL;
        double t0 = MPI_Wtime();
        if (hc_comm_create(MPI_COMM_WORLD, NULL, &o, &c) != MPI_SUCCESS ||
            hc_platform_clone(hc_comm_platform(c), &plat) != HC_OK) {
            if (b.me == 0)
                fprintf(stderr, "grid_bench: no platform: %s\n", hc_error_detail());
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (b.me == 0)
            fprintf(stderr, "grid_bench: platform: %s (%.3g s)\n", hc_comm_platform_origin(c),
                    MPI_Wtime() - t0);
        hc_comm_destroy(c);
    }
    int *cl = malloc(sizeof *cl * (size_t)b.P);
    if (!cl)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < b.P; i++)
        cl[i] = i < (int)hc_platform_size(plat) ? hc_platform_cluster_of(plat, (uint32_t)i) : -1;
    if (g1 > 0) /* --groups n1,n2: ranks [0, n1) are cluster 0, [n1, n1 + n2) cluster 1 */
        for (int i = 0; i < b.P; i++)
            cl[i] = i < g1 ? 0 : i < g1 + g2 ? 1 : -1;
    char *list = malloc(strlen(ops) + 1);
    strcpy(list, ops);
    char *save = NULL; /* strtok_r: SMPI ranks share libc's strtok state */
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon || parse_size(colon + 1, &b.size) != 0) {
            if (b.me == 0)
                fprintf(stderr, "grid_bench: bad op '%s'\n", tok);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        *colon = '\0';
        b.kind = tok;
        /* The collective of the op, for --algos */
        hc_coll_t coll = strncmp(tok, "a2a", 3) == 0  ? HC_COLL_ALLTOALL
                         : strcmp(tok, "bcast") == 0  ? HC_COLL_BCAST
                         : strcmp(tok, "reduce") == 0 ? HC_COLL_REDUCE
                                                      : HC_COLL_REDISTRIBUTE;
        if (!algos) {
            run_op(&b, plat, &o, cl, &r, scenario, label);
            continue;
        }
        for (size_t i = 0; i < hc_algo_count(); i++) {
            const hc_algo_info_t *a = hc_algo_get(i);
            if (a->coll != coll || !listed(algos, a->name))
                continue;
            o.algo_alltoall = coll == HC_COLL_ALLTOALL ? a->name : "auto";
            o.algo_bcast = coll == HC_COLL_BCAST ? a->name : "auto";
            o.algo_reduce = coll == HC_COLL_REDUCE ? a->name : "auto";
            o.algo_redistribute = coll == HC_COLL_REDISTRIBUTE ? a->name : "auto";
            run_op(&b, plat, &o, cl, &r, scenario, a->name);
        }
    }
    free(list);
    free(cl);
    hc_platform_destroy(plat);
    MPI_Finalize();
    return 0;
}
