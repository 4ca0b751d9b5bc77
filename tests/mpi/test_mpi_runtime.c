/* MPI runtime tests, run under mpirun with 2..16 ranks: byte-exact agreement with the MPI
 * library's own collectives for every registered algorithm, skewed sizes, several roots,
 * MPI_INT / MPI_DOUBLE / a derived vector type, MPI_IN_PLACE, the schedule cache and bad
 * arguments. Every rank runs the same tests in the same order. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/mpi.h"

static int rank, size;

/* The same random heterogeneous platform on every rank (same seed). */
static hc_platform_t *random_platform(uint64_t seed)
{
    hc_platform_t *p;
    assert_int_equal(hc_platform_create((uint32_t)size, 1e-4, 1e8, &p), HC_OK);
    hc_rng_t r;
    hc_rng_seed(&r, seed);
    for (int i = 0; i < size; i++) {
        assert_int_equal(hc_platform_set_cluster(p, (uint32_t)i, i < size / 2 ? "A" : "B"), HC_OK);
        for (int j = 0; j < size; j++)
            if (i != j) { /* in sequence: argument order is unspecified in C */
                double bw = hc_rng_range(&r, 1e6, 1e9), lat = hc_rng_range(&r, 1e-5, 1e-2);
                assert_int_equal(hc_platform_set_link(p, (uint32_t)i, (uint32_t)j, lat, bw), HC_OK);
            }
    }
    return p;
}

static hc_comm_t *make_comm(uint64_t seed, hc_coll_t coll, const char *algo)
{
    hc_platform_t *p = random_platform(seed);
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.verbose = getenv("HC_TEST_VERBOSE") != NULL;
    if (algo) {
        if (coll == HC_COLL_ALLTOALL)
            o.algo_alltoall = algo;
        else if (coll == HC_COLL_BCAST)
            o.algo_bcast = algo;
        else if (coll == HC_COLL_REDUCE)
            o.algo_reduce = algo;
        else
            o.algo_redistribute = algo;
    }
    hc_comm_t *c = NULL;
    assert_int_equal(hc_comm_create(MPI_COMM_WORLD, p, &o, &c), MPI_SUCCESS);
    hc_platform_destroy(p);
    return c;
}

/* Skewed counts: mostly small, one in five up to `max` elements; identical on all ranks. */
static void skewed_counts(hc_rng_t *r, int *counts, int n, int max)
{
    for (int i = 0; i < n; i++) {
        uint64_t u = hc_rng_below(r, 10);
        counts[i] =
            u == 0 ? 0
                   : (u < 8 ? (int)hc_rng_below(r, 64) : (int)hc_rng_below(r, (uint64_t)max + 1));
    }
}

/* This rank's counts and packed displacements from the P x P matrix `all` (row i: what i
 * sends); *ts / *tr: elements sent / received (negative counts count as 0). */
static void my_counts(const int *all, int *sc, int *sd, int *rc, int *rd, int *ts, int *tr)
{
    *ts = *tr = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = all[rank * size + j];
        rc[j] = all[j * size + rank];
        sd[j] = *ts;
        rd[j] = *tr;
        *ts += sc[j] > 0 ? sc[j] : 0;
        *tr += rc[j] > 0 ? rc[j] : 0;
    }
}

static void check_alltoallv(hc_comm_t *c, uint64_t seed, MPI_Datatype type, int elem_ints, int max)
{
    /* All ranks draw the whole P x P count matrix from one seed and take their rows. */
    hc_rng_t r;
    hc_rng_seed(&r, seed);
    int *all = malloc(sizeof(int) * (size_t)size * size);
    skewed_counts(&r, all, size * size, max);
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    int ts, tr;
    my_counts(all, sc, sd, rc, rd, &ts, &tr);
    /* elem_ints ints per element (vector types stride over 2x that). */
    size_t stride = (size_t)elem_ints * (type == MPI_INT || type == MPI_DOUBLE ? 1 : 2);
    size_t scell = type == MPI_DOUBLE ? sizeof(double) : sizeof(int);
    char *sb = malloc((size_t)ts * stride * scell + 8);
    char *r1 = calloc((size_t)tr * stride * scell + 8, 1),
         *r2 = calloc((size_t)tr * stride * scell + 8, 1);
    for (size_t i = 0; i < (size_t)ts * stride * scell; i++)
        sb[i] = (char)(hc_rng_u64(&r) ^ (uint64_t)rank);
    assert_int_equal(hc_alltoallv(sb, sc, sd, type, r1, rc, rd, type, c), MPI_SUCCESS);
    MPI_Alltoallv(sb, sc, sd, type, r2, rc, rd, type, MPI_COMM_WORLD);
    assert_memory_equal(r1, r2, (size_t)tr * stride * scell + 8);
    free(all);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sb);
    free(r1);
    free(r2);
}

/* Every alltoall algorithm of the registry moves the same bytes as MPI_Alltoallv. */
static void test_alltoallv_all_algorithms(void **state)
{
    (void)state;
    for (size_t a = 0; a < hc_algo_count(); a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        if (info->coll != HC_COLL_ALLTOALL)
            continue;
        hc_comm_t *c = make_comm(11 + a, HC_COLL_ALLTOALL, info->name);
        check_alltoallv(c, 100 + a, MPI_INT, 1, 4096);
        assert_string_equal(hc_comm_last_algorithm(c)[0] ? "ok" : "", "ok");
        hc_comm_destroy(c);
    }
}

static void test_alltoallv_types_and_big(void **state)
{
    (void)state;
    hc_comm_t *c = make_comm(3, HC_COLL_ALLTOALL, NULL);
    check_alltoallv(c, 5, MPI_DOUBLE, 1, 1 << 16);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* 2 ints with a hole between */
    MPI_Type_commit(&vec);
    check_alltoallv(c, 6, vec, 2, 2048);
    MPI_Type_free(&vec);
    /* One large skewed exchange: up to 4 MiB (1 Mi ints) on a few pairs. */
    check_alltoallv(c, 7, MPI_INT, 1, size <= 4 ? (1 << 20) : (1 << 17));
    hc_comm_destroy(c);
}

/* One alltoallv with the P x P count matrix `all` (ints), in place or not, against
 * MPI_Alltoallv; returns hc_alltoallv's result (the buffers are compared only on success). */
static int alltoallv_matrix(hc_comm_t *c, const int *all, int in_place, uint64_t seed)
{
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    int ts, tr;
    my_counts(all, sc, sd, rc, rd, &ts, &tr);
    int n = (ts > tr ? ts : tr) + 1;
    int *sb = malloc(sizeof(int) * n), *r1 = calloc(n, sizeof(int)), *r2 = calloc(n, sizeof(int));
    for (int i = 0; i < n; i++)
        sb[i] = (int)(seed * 1000003 + (uint64_t)rank * 7919 + (uint64_t)i);
    int err;
    if (in_place) {
        /* In place: send and receive counts must be equal, as MPI requires. */
        memcpy(r1, sb, sizeof(int) * n);
        memcpy(r2, sb, sizeof(int) * n);
        err = hc_alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, r1, rc, rd, MPI_INT, c);
        if (err == MPI_SUCCESS)
            MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, r2, rc, rd, MPI_INT, MPI_COMM_WORLD);
    } else {
        err = hc_alltoallv(sb, sc, sd, MPI_INT, r1, rc, rd, MPI_INT, c);
        if (err == MPI_SUCCESS)
            MPI_Alltoallv(sb, sc, sd, MPI_INT, r2, rc, rd, MPI_INT, MPI_COMM_WORLD);
    }
    if (err == MPI_SUCCESS)
        assert_memory_equal(r1, r2, sizeof(int) * n);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sb);
    free(r1);
    free(r2);
    return err;
}

static void expect_spec(hc_comm_t *c, unsigned long speculated, unsigned long misses)
{
    hc_comm_stats_t st;
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.speculated, speculated);
    assert_int_equal(st.spec_misses, misses);
}

/* Repeated sizes skip the size gathering (speculation); a change on a single pair, seen by two
 * ranks only, still gives the right bytes everywhere, for a dense matrix (agreement in the
 * tags) and a sparse one (agreement by a nonblocking allreduce), in place too; bad arguments
 * met while speculating are errors on every rank, without a hang. */
static void test_alltoallv_speculation(void **state)
{
    (void)state;
    if (size < 2)
        skip();
    int *m = malloc(sizeof(int) * size * size);
    for (int sparse = 0; sparse <= 1; sparse++) {
        /* A forced algorithm gathers the sizes until a matrix repeats, then speculates. */
        hc_comm_t *c = make_comm(60 + (uint64_t)sparse, HC_COLL_ALLTOALL, "openshop");
        for (int i = 0; i < size * size; i++)
            m[i] = sparse && (i % 3 == 1) ? 0 : 1 + (i * 37) % 3000;
        unsigned long spec = 0, miss = 0;
        for (int rep = 0; rep < 4; rep++) /* plan, repeat (armed), then two speculative runs */
            assert_int_equal(alltoallv_matrix(c, m, 0, (uint64_t)rep), MPI_SUCCESS);
        expect_spec(c, spec += 2, miss);
        /* One pair changes: 0 -> 1 sends more (in the sparse case a pair that carried nothing
         * may start to). */
        m[0 * size + 1] += 5 + sparse * 3;
        m[(size - 1) * size + 0] = sparse ? 0 : m[(size - 1) * size + 0];
        assert_int_equal(alltoallv_matrix(c, m, 0, 10), MPI_SUCCESS);
        expect_spec(c, spec, ++miss);
        /* The missed call was the new matrix's first; after its second, speculation resumes. */
        for (int rep = 0; rep < 3; rep++)
            assert_int_equal(alltoallv_matrix(c, m, 0, 20 + (uint64_t)rep), MPI_SUCCESS);
        expect_spec(c, spec += 2, miss);
        /* Bad arguments while armed: a negative count on the last rank. */
        int good = m[(size - 1) * size + 1];
        m[(size - 1) * size + 1] = -1;
        assert_int_not_equal(alltoallv_matrix(c, m, 0, 30), MPI_SUCCESS);
        expect_spec(c, spec, ++miss);
        m[(size - 1) * size + 1] = good;
        for (int rep = 0; rep < 3; rep++)
            assert_int_equal(alltoallv_matrix(c, m, 0, 40 + (uint64_t)rep), MPI_SUCCESS);
        expect_spec(c, ++spec, miss);
        /* In place (symmetric counts: a change, so the first call misses), then a symmetric
         * change while armed. */
        for (int i = 0; i < size; i++)
            for (int j = 0; j < i; j++)
                m[i * size + j] = m[j * size + i];
        for (int rep = 0; rep < 3; rep++)
            assert_int_equal(alltoallv_matrix(c, m, 1, 50 + (uint64_t)rep), MPI_SUCCESS);
        expect_spec(c, ++spec, ++miss);
        m[1 * size + 0] = m[0 * size + 1] = 4000;
        assert_int_equal(alltoallv_matrix(c, m, 1, 60), MPI_SUCCESS);
        expect_spec(c, spec, ++miss);
        /* A new epoch (new network data) disarms. */
        assert_int_equal(alltoallv_matrix(c, m, 1, 61), MPI_SUCCESS);
        hc_comm_new_epoch(c);
        assert_int_equal(alltoallv_matrix(c, m, 1, 62), MPI_SUCCESS);
        expect_spec(c, spec, miss);
        hc_comm_destroy(c);
    }
    free(m);
}

/* One alltoallv of the P x P count matrix `all` with `type` (elements of `ext` bytes apart,
 * `sz` bytes of data each) against MPI_Alltoallv: the same bytes land (holes untouched). */
static void typed_matrix(hc_comm_t *c, const int *all, MPI_Datatype type, size_t ext, uint64_t seed)
{
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    int ts, tr;
    my_counts(all, sc, sd, rc, rd, &ts, &tr);
    size_t n = (size_t)(ts > tr ? ts : tr) * ext + 8;
    char *sb = malloc(n), *r1 = calloc(n, 1), *r2 = calloc(n, 1);
    hc_rng_t r;
    hc_rng_seed(&r, seed ^ ((uint64_t)rank << 32));
    for (size_t i = 0; i < n; i++)
        sb[i] = (char)hc_rng_u64(&r);
    assert_int_equal(hc_alltoallv(sb, sc, sd, type, r1, rc, rd, type, c), MPI_SUCCESS);
    MPI_Alltoallv(sb, sc, sd, type, r2, rc, rd, type, MPI_COMM_WORLD);
    assert_memory_equal(r1, r2, n);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sb);
    free(r1);
    free(r2);
}

/* `pieces`: messages cut into byte pieces (hc_schedule_pieces), gathered and speculative runs,
 * a pair that changes while speculating, a datatype with holes (whole messages then, decided on
 * every rank from the gathered flags) and one that appears while speculating on the same byte
 * counts (a stale run, redone): the bytes are MPI_Alltoallv's at every call. */
static void test_alltoallv_pieces(void **state)
{
    (void)state;
    if (size < 2)
        skip();
    int *m = malloc(sizeof(int) * size * size);
    hc_rng_t r;
    hc_rng_seed(&r, 77);
    /* 0 to 40000 ints: up to 20 pieces of 8 KiB, uneven last pieces, empty pairs */
    for (int i = 0; i < size * size; i++)
        m[i] = hc_rng_below(&r, 6) == 0 ? 0 : (int)hc_rng_below(&r, 40001);
    hc_comm_t *c = make_comm(90, HC_COLL_ALLTOALL, "pieces");
    unsigned long spec = 0, miss = 0;
    for (int rep = 0; rep < 4; rep++)
        typed_matrix(c, m, MPI_INT, sizeof(int), 100 + (uint64_t)rep);
    expect_spec(c, spec += 2, miss);
    assert_string_equal(hc_comm_last_algorithm(c), "pieces");
    m[0 * size + 1] += 2049; /* seen by ranks 0 and 1 only */
    typed_matrix(c, m, MPI_INT, sizeof(int), 110);
    expect_spec(c, spec, ++miss);
    for (int rep = 0; rep < 3; rep++)
        typed_matrix(c, m, MPI_INT, sizeof(int), 120 + (uint64_t)rep);
    expect_spec(c, spec += 2, miss);
    /* an int every 8 bytes: the same byte counts, but holes */
    MPI_Datatype holes;
    MPI_Type_create_resized(MPI_INT, 0, 8, &holes);
    MPI_Type_commit(&holes);
    typed_matrix(c, m, holes, 8, 130); /* armed on MPI_INT's plan: stale, redone */
    expect_spec(c, spec, ++miss);
    for (int rep = 0; rep < 3; rep++)
        typed_matrix(c, m, holes, 8, 140 + (uint64_t)rep);
    expect_spec(c, spec += 2, miss);
    hc_comm_destroy(c);
    /* with holes from the first call */
    c = make_comm(91, HC_COLL_ALLTOALL, "pieces");
    for (int rep = 0; rep < 3; rep++)
        typed_matrix(c, m, holes, 8, 150 + (uint64_t)rep);
    hc_comm_destroy(c);
    /* alltoall: its plan (cached by size) serves any datatype, so whole messages, even after
     * an alltoallv whose datatypes could move in pieces */
    c = make_comm(93, HC_COLL_ALLTOALL, "pieces");
    typed_matrix(c, m, MPI_INT, sizeof(int), 170);
    for (int k = 0; k < 2; k++) {
        const int n = 3000; /* 12000 B per pair */
        size_t ext = k ? 8 : sizeof(int), len = (size_t)n * size * ext;
        char *sb = malloc(len), *r1 = calloc(len, 1), *r2 = calloc(len, 1);
        for (size_t i = 0; i < len; i++)
            sb[i] = (char)(i * 31 + (size_t)rank);
        MPI_Datatype t = k ? holes : MPI_INT;
        assert_int_equal(hc_alltoall(sb, n, t, r1, n, t, c), MPI_SUCCESS);
        MPI_Alltoall(sb, n, t, r2, n, t, MPI_COMM_WORLD);
        assert_memory_equal(r1, r2, len);
        free(sb);
        free(r1);
        free(r2);
    }
    hc_comm_destroy(c);
    /* holes at the second call, which gathers the sizes and finds the first call's plan */
    c = make_comm(92, HC_COLL_ALLTOALL, "pieces");
    typed_matrix(c, m, MPI_INT, sizeof(int), 160);
    typed_matrix(c, m, holes, 8, 161);
    typed_matrix(c, m, MPI_INT, sizeof(int), 162);
    hc_comm_destroy(c);
    MPI_Type_free(&holes);
    free(m);
}

/* `pieces-cross` on three sites sharing uplinks (rank r on site r mod 3): only the messages
 * between sites in pieces (hc_schedule_message_pieces: both sides cut each message alike), on
 * gathered and speculative calls, with a changed pair and with a datatype with holes (whole
 * messages then); the bytes are MPI_Alltoallv's at every call. */
static void test_alltoallv_pieces_cross(void **state)
{
    (void)state;
    if (size < 3)
        skip();
    char spec[80];
    snprintf(spec, sizeof spec, "random:sites:sites=3:nodes=%d:interleave=1", (size + 2) / 3);
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_load(spec, &p), HC_OK);
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.verbose = getenv("HC_TEST_VERBOSE") != NULL;
    o.algo_alltoall = "pieces-cross";
    hc_comm_t *c = NULL;
    /* the platform's first `size` nodes: rank r on site r mod 3 */
    assert_int_equal(hc_comm_create(MPI_COMM_WORLD, p, &o, &c), MPI_SUCCESS);
    hc_platform_destroy(p);
    int *m = malloc(sizeof(int) * size * size);
    hc_rng_t r;
    hc_rng_seed(&r, 78);
    /* 0 to 20000 ints: up to 10 pieces of 8 KiB, uneven last pieces, empty pairs */
    for (int i = 0; i < size * size; i++)
        m[i] = hc_rng_below(&r, 6) == 0 ? 0 : (int)hc_rng_below(&r, 20001);
    unsigned long spec_calls = 0, miss = 0;
    for (int rep = 0; rep < 4; rep++)
        typed_matrix(c, m, MPI_INT, sizeof(int), 300 + (uint64_t)rep);
    expect_spec(c, spec_calls += 2, miss);
    assert_string_equal(hc_comm_last_algorithm(c), "pieces-cross");
    m[0 * size + 1] += 3001; /* seen by ranks 0 and 1 only */
    typed_matrix(c, m, MPI_INT, sizeof(int), 310);
    expect_spec(c, spec_calls, ++miss);
    for (int rep = 0; rep < 3; rep++)
        typed_matrix(c, m, MPI_INT, sizeof(int), 320 + (uint64_t)rep);
    expect_spec(c, spec_calls += 2, miss);
    MPI_Datatype holes;
    MPI_Type_create_resized(MPI_INT, 0, 8, &holes);
    MPI_Type_commit(&holes);
    for (int rep = 0; rep < 3; rep++)
        typed_matrix(c, m, holes, 8, 330 + (uint64_t)rep);
    MPI_Type_free(&holes);
    hc_comm_destroy(c);
    free(m);
}

/* alltoallv under auto: the MPI library's collective runs while the sizes are unknown or
 * changing; a repeated matrix is planned and its candidates (native first) measured through
 * speculative runs; changes met later are redone. Bytes are right at every call. */
static void test_alltoallv_auto(void **state)
{
    (void)state;
    if (size < 2)
        skip();
    int *m = malloc(sizeof(int) * size * size);
    for (int i = 0; i < size; i++) /* symmetric: in place needs equal send and receive counts */
        for (int j = 0; j <= i; j++)
            m[i * size + j] = m[j * size + i] = 1 + ((i + 1) * (j + 3) * 53) % 5000;
    hc_comm_t *c = make_comm(64, HC_COLL_ALLTOALL, NULL);
    for (int rep = 0; rep < 20 || (!hc_comm_settled(c) && rep < 400); rep++)
        assert_int_equal(alltoallv_matrix(c, m, rep % 3 == 2, 70 + (uint64_t)rep), MPI_SUCCESS);
    assert_true(hc_comm_settled(c));
    hc_comm_stats_t st;
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 1);
    assert_true(st.tuning_calls >= 2); /* native and at least one schedule were measured */
    assert_true(st.native_calls >= 3); /* the first calls, before the matrix repeated */
    char chosen[48];
    snprintf(chosen, sizeof chosen, "%s", hc_comm_last_algorithm(c));
    for (int rep = 0; rep < 5; rep++)
        assert_int_equal(alltoallv_matrix(c, m, 0, 90 + (uint64_t)rep), MPI_SUCCESS);
    assert_string_equal(hc_comm_last_algorithm(c), chosen); /* the decision stays */
    /* Sizes that change at every call: right bytes, and the sizes are gathered ever less. */
    for (int rep = 0; rep < 12; rep++) {
        m[(rep % size) * size + (rep + 1) % size] += 7;
        m[((rep + 1) % size) * size + rep % size] += 7;
        assert_int_equal(alltoallv_matrix(c, m, rep % 2, 100 + (uint64_t)rep), MPI_SUCCESS);
    }
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 1);
    hc_comm_destroy(c);
    free(m);
}

static void test_alltoall_in_place(void **state)
{
    (void)state;
    hc_comm_t *c = make_comm(4, HC_COLL_ALLTOALL, NULL);
    int n = 37;
    int *b1 = malloc(sizeof(int) * n * size), *b2 = malloc(sizeof(int) * n * size);
    for (int i = 0; i < n * size; i++)
        b1[i] = b2[i] = rank * 100000 + i;
    assert_int_equal(hc_alltoall(MPI_IN_PLACE, n, MPI_INT, b1, n, MPI_INT, c), MPI_SUCCESS);
    MPI_Alltoall(MPI_IN_PLACE, n, MPI_INT, b2, n, MPI_INT, MPI_COMM_WORLD);
    assert_memory_equal(b1, b2, sizeof(int) * n * size);
    /* Not in place, twice (the second call is served from the cache without any size
     * gathering: alltoall's sizes are known everywhere). */
    int *s1 = malloc(sizeof(int) * n * size);
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < n * size; i++)
            s1[i] = rank * 7919 + i * 3 + rep;
        assert_int_equal(hc_alltoall(s1, n, MPI_INT, b1, n, MPI_INT, c), MPI_SUCCESS);
        MPI_Alltoall(s1, n, MPI_INT, b2, n, MPI_INT, MPI_COMM_WORLD);
        assert_memory_equal(b1, b2, sizeof(int) * n * size);
    }
    free(s1);
    free(b1);
    free(b2);
    hc_comm_destroy(c);
}

static void check_bcast(hc_comm_t *c, int count, MPI_Datatype type, size_t bytes_per, int root)
{
    size_t n = (size_t)count * bytes_per + 8;
    char *b1 = calloc(n, 1), *b2 = calloc(n, 1);
    if (rank == root)
        for (size_t i = 0; i < n; i++)
            b1[i] = b2[i] = (char)(i * 7 + (size_t)root);
    assert_int_equal(hc_bcast(b1, count, type, root, c), MPI_SUCCESS);
    MPI_Bcast(b2, count, type, root, MPI_COMM_WORLD);
    assert_memory_equal(b1, b2, n);
    free(b1);
    free(b2);
}

static void test_bcast_all_algorithms(void **state)
{
    (void)state;
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (size_t a = 0; a < hc_algo_count(); a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        if (info->coll != HC_COLL_BCAST)
            continue;
        hc_comm_t *c = make_comm(20 + a, HC_COLL_BCAST, info->name);
        int roots[3] = {0, size - 1, size / 2};
        for (int k = 0; k < 3; k++) {
            check_bcast(c, 1 + 1000 * k, MPI_INT, sizeof(int), roots[k]);
            check_bcast(c, 3, MPI_INT, sizeof(int), roots[k]); /* fewer elements than segments */
            check_bcast(c, 100, vec, 16 * sizeof(double), roots[k]);
        }
        check_bcast(c, 0, MPI_INT, sizeof(int), 0);
        check_bcast(c, 1 << 20, MPI_BYTE, 1, roots[1]);
        hc_comm_destroy(c);
    }
    MPI_Type_free(&vec);
}

/* Integer-valued doubles keep the sum exact whatever the combining order. */
static void check_reduce(hc_comm_t *c, int count, MPI_Datatype type, MPI_Op op, int root,
                         int in_place)
{
    size_t cell = type == MPI_DOUBLE ? sizeof(double) : sizeof(int);
    char *s = malloc((size_t)count * cell + 1), *r1 = calloc((size_t)count * cell + 1, 1),
         *r2 = calloc((size_t)count * cell + 1, 1);
    for (int i = 0; i < count; i++) {
        if (type == MPI_DOUBLE)
            ((double *)s)[i] = (double)((rank + 1) * (i % 1000));
        else
            ((int *)s)[i] = (rank + 3) * (i % 977) - 50;
    }
    if (in_place && rank == root) {
        memcpy(r1, s, (size_t)count * cell);
        assert_int_equal(hc_reduce(MPI_IN_PLACE, r1, count, type, op, root, c), MPI_SUCCESS);
    } else {
        assert_int_equal(hc_reduce(s, r1, count, type, op, root, c), MPI_SUCCESS);
    }
    MPI_Reduce(s, r2, count, type, op, root, MPI_COMM_WORLD);
    if (rank == root)
        assert_memory_equal(r1, r2, (size_t)count * cell);
    free(s);
    free(r1);
    free(r2);
}

static void test_reduce_all_algorithms(void **state)
{
    (void)state;
    for (size_t a = 0; a < hc_algo_count(); a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        if (info->coll != HC_COLL_REDUCE)
            continue;
        hc_comm_t *c = make_comm(30 + a, HC_COLL_REDUCE, info->name);
        for (int root = 0; root < size; root += (size > 4 ? size / 3 : 1)) {
            check_reduce(c, 1000, MPI_INT, MPI_SUM, root, 0);
            check_reduce(c, 257, MPI_DOUBLE, MPI_MAX, root, 1);
        }
        check_reduce(c, 1 << 18, MPI_DOUBLE, MPI_SUM, size - 1, 0);
        hc_comm_destroy(c);
    }
}

/* Sum over the elements of vector(2, 1, 2, MPI_INT): ints 0 and 2 of every 3 (predefined ops
 * are only defined on predefined types). */
static void vsum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    const int *a = in;
    int *b = inout;
    for (int k = 0; k < *len; k++) {
        b[3 * k] += a[3 * k];
        b[3 * k + 2] += a[3 * k + 2];
    }
}

/* A strided type (2 ints, a hole, per element) with a user op over many segments: the segment
 * slots and the accumulator must follow the extent, not the size. Every root, in place and
 * not. */
static void test_reduce_vector_type(void **state)
{
    (void)state;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* ints 0 and 2 of 3 */
    MPI_Type_commit(&vec);
    MPI_Op op;
    MPI_Op_create(vsum, 1, &op);
    const int count = 40000; /* 320 KB of data, 5 segments of 64 KiB */
    size_t n = (size_t)count * 3;
    int *s = malloc(sizeof(int) * n), *r1 = malloc(sizeof(int) * n), *r2 = malloc(sizeof(int) * n);
    hc_comm_t *c = make_comm(13, HC_COLL_REDUCE, NULL);
    for (int root = 0; root < size; root += (size > 4 ? 3 : 1))
        for (int in_place = 0; in_place <= 1; in_place++) {
            for (size_t i = 0; i < n; i++) {
                s[i] = (int)(i % 1013) * (rank + 1) - root;
                r1[i] = r2[i] = -7; /* the holes must stay untouched */
            }
            if (in_place && rank == root) {
                memcpy(r1, s, sizeof(int) * n);
                assert_int_equal(hc_reduce(MPI_IN_PLACE, r1, count, vec, op, root, c), MPI_SUCCESS);
                for (size_t i = 0; i < n; i++)
                    r2[i] = i % 3 == 1 ? s[i] : -7;
                MPI_Reduce(s, r2, count, vec, op, root, MPI_COMM_WORLD);
            } else {
                assert_int_equal(hc_reduce(s, r1, count, vec, op, root, c), MPI_SUCCESS);
                MPI_Reduce(s, r2, count, vec, op, root, MPI_COMM_WORLD);
            }
            if (rank == root)
                assert_memory_equal(r1, r2, sizeof(int) * n);
        }
    hc_comm_destroy(c);
    MPI_Op_free(&op);
    MPI_Type_free(&vec);
    free(s);
    free(r1);
    free(r2);
}

/* A non-commutative op: (a, b) -> 2a + b on ints is not commutative. */
static void noncomm(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = (2 * ((int *)in)[i] + ((int *)inout)[i]) % 1000003;
}

static void test_reduce_noncommutative_falls_back(void **state)
{
    (void)state;
    MPI_Op op;
    MPI_Op_create(noncomm, 0, &op);
    hc_comm_t *c = make_comm(8, HC_COLL_REDUCE, NULL);
    check_reduce(c, 100, MPI_INT, op, 0, 0);
    hc_comm_stats_t st;
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.fallbacks, 1);
    hc_comm_destroy(c);
    MPI_Op_free(&op);
}

/* One redistribution of `seed`'s sizes in units of `type` whose elements lie `ext` bytes apart
 * (ext > the type's size: holes, left untouched): byte-equal to MPI_Alltoallv's. */
static void check_redistribute_typed(hc_comm_t *c, uint64_t seed, int k, MPI_Datatype type,
                                     size_t ext)
{
    /* Cluster 1 = first half sends, cluster 2 = second half receives. */
    int half = size / 2;
    hc_rng_t r;
    hc_rng_seed(&r, seed);
    int *all = calloc((size_t)size * size, sizeof(int));
    for (int i = 0; i < half; i++)
        for (int j = half; j < size; j++)
            all[i * size + j] = hc_rng_below(&r, 4) == 0 ? 0 : (int)hc_rng_below(&r, 20000);
    int sc[64], sd[64], rc[64], rd[64], ts = 0, tr = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = all[rank * size + j];
        rc[j] = all[j * size + rank];
        sd[j] = ts;
        rd[j] = tr;
        ts += sc[j];
        tr += rc[j];
    }
    unsigned char *sb = malloc(ext * (ts + 1)), *r1 = calloc(tr + 1, ext),
                  *r2 = calloc(tr + 1, ext);
    for (size_t i = 0; i < ext * (ts + 1); i++)
        sb[i] = (unsigned char)(rank * 131 + i * 7 + i / 251);
    assert_int_equal(hc_redistribute(sb, sc, sd, r1, rc, rd, type, k, c), MPI_SUCCESS);
    MPI_Alltoallv(sb, sc, sd, type, r2, rc, rd, type, MPI_COMM_WORLD);
    assert_memory_equal(r1, r2, ext * (tr + 1));
    free(all);
    free(sb);
    free(r1);
    free(r2);
}

static void check_redistribute(hc_comm_t *c, uint64_t seed, int k)
{
    check_redistribute_typed(c, seed, k, MPI_DOUBLE, sizeof(double));
}

static void test_redistribute_all_algorithms(void **state)
{
    (void)state;
    if (size < 2 || size > 64)
        skip();
    for (size_t a = 0; a < hc_algo_count(); a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        if (info->coll != HC_COLL_REDISTRIBUTE)
            continue;
        hc_comm_t *c = make_comm(40 + a, HC_COLL_REDISTRIBUTE, info->name);
        for (int k = 0; k <= 3; k++)
            check_redistribute(c, 50 + a * 10 + (uint64_t)k, k);
        hc_comm_destroy(c);
    }
    /* The default (auto) too. */
    hc_comm_t *c = make_comm(41, HC_COLL_REDISTRIBUTE, NULL);
    check_redistribute(c, 77, 2);
    hc_comm_destroy(c);
}

/* Once "post everything" is decided for k, the calls skip the sizes' gathering (re-gathered
 * every 16th call): results stay exact while every call's sizes change, across the re-check
 * and across a change of k. */
static void test_redistribute_post_everything_fast_path(void **state)
{
    (void)state;
    if (size < 2 || size > 64)
        skip();
    hc_comm_t *c = make_comm(43, HC_COLL_REDISTRIBUTE, "native");
    for (int i = 0; i < 40; i++) {
        check_redistribute(c, 900 + (uint64_t)i, i < 30 ? 2 : 3);
        assert_string_equal(hc_comm_last_algorithm(c), "native");
        assert_true(hc_comm_settled(c));
    }
    hc_comm_destroy(c);
}

/* A communicator on the platform p under SMPI's model, trusting it (HETCOLL_TUNE=0), so that
 * what runs is what the model chose. */
static hc_comm_t *smpi_model_comm_on(const hc_platform_t *p)
{
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.verbose = getenv("HC_TEST_VERBOSE") != NULL;
    setenv("HETCOLL_FLOW_MODEL", "smpi", 1);
    setenv("HETCOLL_TUNE", "0", 1);
    hc_comm_t *c = NULL;
    assert_int_equal(hc_comm_create(MPI_COMM_WORLD, p, &o, &c), MPI_SUCCESS);
    unsetenv("HETCOLL_FLOW_MODEL");
    unsetenv("HETCOLL_TUNE");
    return c;
}

/* smpi_model_comm_on the platform SPEC. */
static hc_comm_t *smpi_model_comm(const char *spec)
{
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_load(spec, &p), HC_OK);
    hc_comm_t *c = smpi_model_comm_on(p);
    hc_platform_destroy(p);
    return c;
}

/* Three sites whose uplinks are short (50 us), `size` ranks interleaved over them. */
static void short_uplinks(char *spec, size_t len)
{
    snprintf(spec, len, "random:sites:sites=3:nodes=%d:interleave=1:uplink_lat=5e-5",
             (size + 2) / 3);
}

/* Pieces with a window (plan.c piece_variants): on three sites whose uplinks are short (50 us),
 * under SMPI's model and trusting it, the runtime's exchange in pieces with a few in flight per
 * rank is predicted within 2 % of all at once and runs (hc_comm_last_note says how); so does a
 * redistribution, whose settled calls post its pieces through the same windows without the plan
 * (coll.c post_everything). The bytes are MPI_Alltoallv's. */
static void test_pieces_window(void **state)
{
    (void)state;
    if (size < 3 || size > 64)
        skip();
    char spec[96];
    short_uplinks(spec, sizeof spec);
    hc_comm_t *c = smpi_model_comm(spec);
    int *m = malloc(sizeof(int) * size * size);
    for (int i = 0; i < size * size; i++) /* 64 KiB per pair, 40 KiB from rank 0 */
        m[i] = i % (size + 1) == 0 ? 0 : i < size ? 10240 : 16384;
    for (int rep = 0; rep < 4; rep++)
        typed_matrix(c, m, MPI_INT, sizeof(int), 400 + (uint64_t)rep);
    if (rank == 0)
        printf("alltoallv on %s: %s\n", spec, hc_comm_last_note(c));
    assert_non_null(strstr(hc_comm_last_note(c), "in flight per rank"));
    hc_comm_destroy(c);
    free(m);
    /* a fresh communicator: planning the exchange counts against planning another collective */
    c = smpi_model_comm(spec);
    for (int rep = 0; rep < 4; rep++) /* planned and settled */
        check_redistribute(c, 410, 0);
    if (rank == 0)
        printf("redistribution: %s\n", hc_comm_last_note(c));
    /* on 3 ranks the model keeps 8 pieces in flight (predicted within 2 % of all at once); on
     * others the few senders need them all at once: the bytes are checked either way */
    const int windowed = strstr(hc_comm_last_note(c), "in flight per rank") != NULL;
    assert_true(windowed || size != 3);
    for (int rep = 0; rep < 6; rep++) /* other sizes through the settled pieces */
        check_redistribute(c, 420 + (uint64_t)rep, 0);
    assert_int_equal(strstr(hc_comm_last_note(c), "in flight per rank") != NULL, windowed);
    hc_comm_destroy(c);
}

/* Round-robin receives (HC_RECV_ROUND_ROBIN): the plan offers the exchange in pieces also with
 * its receives round-robin over the messages, every send posted at once; tuning measures it
 * beside the rest (hc_comm_last_note names it when it ran); hc_comm_opts_t.recv_order and
 * HETCOLL_RECV_ORDER force an order. Every call's bytes are MPI's, one rank arriving late. */
static void test_pieces_round_robin(void **state)
{
    (void)state;
    if (size < 3 || size > 64)
        skip();
    char spec[96];
    short_uplinks(spec, sizeof spec);
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_load(spec, &p), HC_OK);
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    setenv("HETCOLL_FLOW_MODEL", "smpi", 1);
    hc_comm_t *c = NULL;
    assert_int_equal(hc_comm_create(MPI_COMM_WORLD, p, &o, &c), MPI_SUCCESS);
    unsetenv("HETCOLL_FLOW_MODEL");
    hc_platform_destroy(p);
    int *m = malloc(sizeof(int) * size * size);
    for (int i = 0; i < size * size; i++) /* as test_pieces_window */
        m[i] = i % (size + 1) == 0 ? 0 : i < size ? 10240 : 16384;
    int ran = 0, calls = 0;
    for (; calls < 64 && !(ran && hc_comm_settled(c)); calls++) {
        /* one rank late by 0 to 2 ms, a different one each call: receives posted before their
         * senders arrive, and sends before their receivers do */
        if (rank == calls % size) {
            const double t = MPI_Wtime() + 1e-3 * (calls % 3);
            while (MPI_Wtime() < t)
                ;
        }
        typed_matrix(c, m, MPI_INT, sizeof(int), 600 + (uint64_t)calls);
        ran |= strstr(hc_comm_last_note(c), "round-robin") != NULL;
    }
    if (rank == 0)
        printf("alltoallv on %s: round-robin ran: %d, %d calls, settled on: %s\n", spec, ran, calls,
               hc_comm_last_note(c));
    assert_true(ran);
    hc_comm_destroy(c);
    /* "messages": never round-robin; "round-robin" (the environment's, over the options'): a
     * forced exchange in pieces too; an unknown order: an error naming it, on every rank */
    for (int k = 0; k < 3; k++) {
        assert_int_equal(hc_platform_load(spec, &p), HC_OK);
        o.recv_order = "messages";
        o.algo_alltoall = k == 1 ? "pieces" : "auto";
        if (k > 0)
            setenv("HETCOLL_RECV_ORDER", k == 1 ? "round-robin" : "sideways", 1);
        setenv("HETCOLL_FLOW_MODEL", "smpi", 1);
        int rc = hc_comm_create(MPI_COMM_WORLD, p, &o, &c);
        unsetenv("HETCOLL_FLOW_MODEL");
        unsetenv("HETCOLL_RECV_ORDER");
        hc_platform_destroy(p);
        if (k == 2) {
            assert_int_not_equal(rc, MPI_SUCCESS);
            assert_non_null(strstr(hc_error_detail(), /* "rank 0: " first when agreed */
                                   "HETCOLL_RECV_ORDER=sideways: must be auto, messages or "
                                   "round-robin"));
            continue;
        }
        assert_int_equal(rc, MPI_SUCCESS);
        int rr = 0;
        for (calls = 0; calls < 64 && !hc_comm_settled(c); calls++) {
            typed_matrix(c, m, MPI_INT, sizeof(int), 700 + (uint64_t)calls);
            rr |= strstr(hc_comm_last_note(c), "round-robin") != NULL;
        }
        assert_int_equal(rr, k == 1);
        hc_comm_destroy(c);
    }
    free(m);
}

/* Lead pieces (hc_schedule_t.lead_pieces): `size` ranks of grid5000-links spread over its 3
 * sites (C1 and C2 12.2 ms apart, C3 5.2 ms from both), M bytes per pair, under SMPI's model and
 * trusting it: the planner leads the far sites' messages with small pieces when predicted 1 %
 * faster (the note says so; from 8 ranks on, 1 MiB per pair); uniform, then random matrices with
 * empty pairs, changing and repeating (gathered and speculative runs), one rank late: the bytes
 * are MPI_Alltoallv's. */
static void test_leads(void **state)
{
    (void)state;
    if (size < 3 || size > 24) /* grid5000-links has 24 nodes */
        skip();
    hc_platform_t *g = NULL, *p = NULL;
    assert_int_equal(
        hc_platform_load(HC_TEST_DATA "/../../bench/grid/platforms/grid5000-links.json", &g),
        HC_OK);
    uint32_t *nodes = malloc(sizeof *nodes * (size_t)size);
    assert_non_null(nodes);
    for (int i = 0; i < size; i++) /* rank i on site i mod 3 (8 nodes each) */
        nodes[i] = (uint32_t)((i % 3) * 8 + i / 3);
    assert_int_equal(hc_platform_subset(g, nodes, (uint32_t)size, &p), HC_OK);
    hc_platform_destroy(g);
    free(nodes);
    int led = 0;
    hc_rng_t r;
    hc_rng_seed(&r, 2026120701);
    int *m = malloc(sizeof(int) * size * size);
    /* the uniform matrix, then random ones on a new communicator (its planning budget fresh:
     * the runtime stops planning when that costs much beside this machine's short calls) */
    for (int irregular = 0; irregular < 2; irregular++) {
        hc_comm_t *c = smpi_model_comm_on(p);
        for (int call = 0; call < 12; call++) {
            if (!irregular && call == 0)
                for (int i = 0; i < size * size; i++)
                    m[i] = i % (size + 1) == 0 ? 0 : 65536; /* 256 KiB of ints */
            else if (irregular && call % 4 == 0) /* kept for 4 calls, then speculated on */
                for (int i = 0; i < size * size; i++)
                    m[i] = i % (size + 1) == 0 || hc_rng_u64(&r) % 5 == 0
                               ? 0
                               : 1 + (int)(hc_rng_u64(&r) % 65536);
            if (rank == call % size) {
                const double t = MPI_Wtime() + 1e-3 * (call % 3);
                while (MPI_Wtime() < t)
                    ;
            }
            typed_matrix(c, m, MPI_INT, sizeof(int),
                         1000 + 100 * (uint64_t)irregular + (uint64_t)call);
            led += strstr(hc_comm_last_note(c), "beginning with") != NULL;
            if (rank == 0 && (getenv("HC_TEST_VERBOSE") || call == 3))
                printf("alltoallv (%s) on %d ranks of grid5000-links, call %d: %s\n",
                       irregular ? "random" : "uniform", size, call, hc_comm_last_note(c));
        }
        hc_comm_destroy(c);
    }
    if (rank == 0)
        printf("lead pieces in %d of 24 calls\n", led);
    if (size >= 8) /* fewer ranks: 2 to 4 KiB pieces everywhere are predicted faster */
        assert_true(led >= 4);
    free(m);
    hc_platform_destroy(p);
}

/* Through site forwarders (hc_schedule_t.relay, src/mpi/exec_relay.c): on the 3-site grid
 * (100 Mb/s, 5 ms uplinks) under SMPI's model, trusting it, the 1 KiB exchange runs through
 * forwarders (predicted faster: SimGrid's size classes favour the gathered blocks); forced by
 * HETCOLL_RELAY=forwarders with post-all, random matrices with empty pairs, changing and
 * repeating (gathered and speculative runs, a changed pair while speculating; one pair whose
 * forwarder has nothing of its own to send, stress seed 106 case 71), one rank late:
 * the bytes are MPI_Alltoallv's at every call; an unknown HETCOLL_RELAY is an error naming it. */
static void test_relay(void **state)
{
    (void)state;
    if (size < 3 || size > 64)
        skip();
    char spec[96];
    snprintf(spec, sizeof spec, "random:sites:sites=3:nodes=%d:interleave=1", (size + 2) / 3);
    int *m = malloc(sizeof(int) * size * size);
    for (int i = 0; i < size * size; i++)
        m[i] = i % (size + 1) == 0 ? 0 : 256; /* 1 KiB of ints */
    hc_comm_t *c = smpi_model_comm(spec);
    for (int rep = 0; rep < 4; rep++)
        typed_matrix(c, m, MPI_INT, sizeof(int), 800 + (uint64_t)rep);
    if (rank == 0)
        printf("alltoallv 1 KiB on %s: %s\n", spec, hc_comm_last_note(c));
    if (size % 3 == 0 && size >= 6) /* two nodes per site or more: predicted 21 % faster */
        assert_non_null(strstr(hc_comm_last_note(c), "through site forwarders"));
    hc_comm_destroy(c);
    /* post-all forced: planned at every call until a matrix repeats, then speculated on */
    hc_platform_t *p = NULL;
    assert_int_equal(hc_platform_load(spec, &p), HC_OK);
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.algo_alltoall = "post-all";
    setenv("HETCOLL_RELAY", "forwarders", 1);
    assert_int_equal(hc_comm_create(MPI_COMM_WORLD, p, &o, &c), MPI_SUCCESS);
    unsetenv("HETCOLL_RELAY");
    hc_platform_destroy(p);
    hc_rng_t r;
    hc_rng_seed(&r, 77);
    int forwarded = 0;
    for (int call = 0; call < 12; call++) {
        if (call % 4 == 0) /* a new matrix, kept for 4 calls (then speculated on) */
            for (int i = 0; i < size * size; i++)
                m[i] = i % (size + 1) == 0 || hc_rng_u64(&r) % 5 == 0
                           ? 0
                           : 1 + (int)(hc_rng_u64(&r) % 3000);
        if (call == 8 && size >= 4) {        /* one pair across sites, a and 2, whose forwarders */
            const int a = size >= 6 ? 4 : 3; /* (0 or 1; 5 or 2) have no message of their own */
            for (int i = 0; i < size * size; i++)
                m[i] = i == a * size + 2 || i == 2 * size + a ? 12 : 0;
        }
        if (call % 4 == 3 && rank == 1) /* one pair changes while speculating: a stale run */
            m[1 * size + 0] += 7;
        if (rank == call % size) {
            const double t = MPI_Wtime() + 1e-3 * (call % 3);
            while (MPI_Wtime() < t)
                ;
        }
        if (call % 4 == 3)
            MPI_Bcast(&m[1 * size + 0], 1, MPI_INT, 1, MPI_COMM_WORLD); /* the others' view */
        typed_matrix(c, m, MPI_INT, sizeof(int), 900 + (uint64_t)call);
        forwarded += strstr(hc_comm_last_note(c), "through site forwarders") != NULL;
        if (rank == 0 && getenv("HC_TEST_VERBOSE"))
            printf("call %d: %s [%s]\n", call, hc_comm_last_note(c), hc_comm_last_algorithm(c));
    }
    if (rank == 0)
        printf("forced: %d of 12 calls through forwarders: %s\n", forwarded, hc_comm_last_note(c));
    assert_int_equal(forwarded, size > 3 ? 12 : 0); /* one node per site: nothing to gather */
    hc_comm_destroy(c);
    free(m);
    setenv("HETCOLL_RELAY", "sideways", 1);
    assert_int_equal(hc_platform_load(spec, &p), HC_OK);
    int rc = hc_comm_create(MPI_COMM_WORLD, p, NULL, &c);
    unsetenv("HETCOLL_RELAY");
    hc_platform_destroy(p);
    assert_int_not_equal(rc, MPI_SUCCESS);
    assert_non_null(strstr(hc_error_detail(), "HETCOLL_RELAY=sideways: must be auto, never or "
                                              "forwarders"));
}

/* Ramps that keep SimGrid's best size class (plan.c class_ramps): on the 3-site grid (5 ms
 * uplinks shared by both directions) under SMPI's model, trusting it, the 1 MiB broadcast runs
 * the multitree in pieces ramped over more than the 16 the search had before, none above 9360 B
 * (5761 to 9360 B move 1.087 bytes per unit of capacity, 9361 to 15423 B 0.59), and every rank
 * gets the root's bytes. */
static void test_bcast_class_ramp(void **state)
{
    (void)state;
    if (size < 3 || size > 64)
        skip();
    char spec[96];
    snprintf(spec, sizeof spec, "random:sites:sites=3:nodes=%d:interleave=1", (size + 2) / 3);
    hc_comm_t *c = smpi_model_comm(spec);
    for (int rep = 0; rep < 3; rep++)
        check_bcast(c, 131072, MPI_DOUBLE, sizeof(double), 0);
    const char *note = hc_comm_last_note(c);
    if (rank == 0)
        printf("bcast 1 MiB on %s: %s: %s\n", spec, hc_comm_last_algorithm(c), note);
    unsigned over = 0;
    unsigned long long largest = 0;
    const char *r = strstr(note, "ramped up and down over ");
    assert_non_null(r);
    assert_int_equal(
        sscanf(r, "ramped up and down over %u, the largest %llu bytes", &over, &largest), 2);
    assert_true(over > 16);
    assert_true(largest <= 9360);
    hc_comm_destroy(c);
}

/* Pieces alternating between two sizes (hc_algo_opts_t.alternate_bytes): on grid5000-links
 * with rank i on site i mod 3, under SMPI's model and trusting it, a 4 MiB broadcast at 4 or 5
 * ranks plans multitree in 9360 B pieces alternating with 5850 B ones (the flow model's
 * fastest: lock step, docs/design.md); its bytes are MPI_Bcast's, a rank late on one call.
 * Other sizes plan other things (stripes, class ramps) or plan too long for a unit test. */
static void test_bcast_alternate(void **state)
{
    (void)state;
    if (size < 4 || size > 5)
        skip();
    hc_platform_t *g = NULL, *p = NULL;
    assert_int_equal(
        hc_platform_load(HC_TEST_DATA "/../../bench/grid/platforms/grid5000-links.json", &g),
        HC_OK);
    uint32_t nodes[5];
    for (int i = 0; i < size; i++) /* rank i on site i mod 3 (8 nodes each) */
        nodes[i] = (uint32_t)((i % 3) * 8 + i / 3);
    assert_int_equal(hc_platform_subset(g, nodes, (uint32_t)size, &p), HC_OK);
    hc_platform_destroy(g);
    hc_comm_t *c = smpi_model_comm_on(p);
    for (int rep = 0; rep < 3; rep++) {
        if (rep == 1 && rank == size - 1) {
            const double t = MPI_Wtime() + 2e-3;
            while (MPI_Wtime() < t)
                ;
        }
        check_bcast(c, 524288, MPI_DOUBLE, sizeof(double), 0);
    }
    const char *note = hc_comm_last_note(c);
    if (rank == 0)
        printf("bcast 4 MiB on grid5000-links (%d ranks over its sites): %s: %s\n", size,
               hc_comm_last_algorithm(c), note);
    assert_string_equal(hc_comm_last_algorithm(c), "multitree");
    assert_non_null(strstr(note, "alternating with pieces of"));
    hc_comm_destroy(c);
    hc_platform_destroy(p);
}

/* The platform `spec`'s first `size` nodes (at most 24), as the communicator sees them. */
static hc_platform_t *first_nodes(const char *spec)
{
    hc_platform_t *all = NULL, *p = NULL;
    assert_int_equal(hc_platform_load(spec, &all), HC_OK);
    uint32_t first[24];
    assert_true(size <= 24);
    for (int i = 0; i < size; i++)
        first[i] = (uint32_t)i;
    assert_int_equal(hc_platform_subset(all, first, (uint32_t)size, &p), HC_OK);
    hc_platform_destroy(all);
    return p;
}

/* The flow model's time of `name` for an m-byte broadcast (or reduction) from (to) 0 on p in
 * pieces of `seg` bytes with `window` in flight (0: the rule), under SMPI's factors. */
static double smpi_coll_time(hc_coll_t coll, const hc_platform_t *p, const char *name, uint64_t m,
                             uint64_t seg, uint32_t window)
{
    hc_problem_spec_t sp;
    hc_problem_spec_init(&sp, coll);
    sp.platform = p;
    sp.msg_bytes = m;
    sp.pair_costs = 1;
    hc_problem_t *pb = NULL;
    assert_int_equal(hc_problem_create(&sp, &pb), HC_OK);
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    o.segment_bytes = seg;
    hc_schedule_t *s = NULL;
    assert_int_equal(hc_schedule_compute(pb, name, &o, &s), HC_OK);
    s->window = window;
    if (coll == HC_COLL_REDUCE)
        s->segment_bytes = seg;
    hc_sim_opts_t so;
    hc_sim_opts_init(&so);
    so.network = HC_NETWORK_FLOW;
    so.smpi_factors = 1;
    hc_sim_result_t *r = NULL;
    assert_int_equal(hc_simulate(s, pb, &so, &r), HC_OK);
    const double t = r->makespan;
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_problem_destroy(pb);
    return t;
}

/* Short links, under SMPI's model and trusting it (plan.c seg_variants): where the window rule
 * covers the latencies with one send at a time, the runtime also tries 2 and 3 in flight and
 * the best class's smallest pieces. On the oracle's fat tree (its first `size` nodes: racks of
 * 6, 125 MB/s NICs, microseconds apart), 64 KiB: it plans what the flow model predicts faster
 * than the algorithm's 8 KiB pieces at the rule's window (24 ranks: two-tree 1.49 ms -> 1.13 ms,
 * which SMPI ran in 1.135 ms), by 5 % unless it plans a chain. */
static void test_bcast_short_link_windows(void **state)
{
    (void)state;
    if (size < 4 || size > 24)
        skip();
    const char *spec = HC_TEST_DATA "/../../bench/grid/platforms/fat-tree-3to1.json";
    hc_comm_t *c = smpi_model_comm(spec);
    for (int rep = 0; rep < 3; rep++)
        check_bcast(c, 8192, MPI_DOUBLE, sizeof(double), 0);
    hc_platform_t *p = first_nodes(spec);
    const char *name = hc_comm_last_algorithm(c);
    const double planned = hc_comm_last_predicted(c);
    const double rule = smpi_coll_time(HC_COLL_BCAST, p, name, 65536, 8192, 0);
    if (rank == 0)
        printf("bcast 64 KiB on %s: %s (%s), predicted %.6f s; 8 KiB pieces at the rule's window "
               "%.6f s, 2 in flight %.6f s\n",
               spec, name, hc_comm_last_note(c), planned, rule,
               smpi_coll_time(HC_COLL_BCAST, p, name, 65536, 8192, 2));
    /* never slower than the rule's 8 KiB pieces; 5 % faster where a node feeds several
     * children (a chain, which 5 ranks get, feeds one: its NIC stays busy with the rule's one
     * send at a time, and the gain is the smaller pieces' alone: 0.762 against 0.786 ms) */
    assert_true(planned <= rule);
    if (strcmp(name, "pipeline") != 0 && strcmp(name, "chain") != 0)
        assert_true(planned < 0.95 * rule);
    hc_platform_destroy(p);
    hc_comm_destroy(c);
}

/* Under ASan, whose builds time this binary out when it plans a 16 MiB reduction too (over 300 s
 * at 16 ranks on 2 cores; the plan's flow replays move 40 000 to 100 000 pieces each). */
static int sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#endif
#endif
    return 0;
}

/* Pieces between sites in SimGrid's lowest-latency class (plan.c split_variants), under SMPI's
 * model and trusting it: on grid5000's first `size` nodes (sites of 8, 1 Gb/s NICs behind 10 Gb/s
 * uplinks, 12 ms apart), 1 MiB, the runtime sends the pieces that cross sites as sub-messages of
 * at most 3468 B, predicted 10 % faster than the same schedule in whole pieces (24 ranks, stripes:
 * 0.0353 s -> 0.0315 s predicted, 0.0354 s -> 0.0323 s in SMPI). Byte for byte, the plan's size
 * and smaller ones (scaled sub-messages, some empty), from a root in either site. */
static void test_bcast_split_pieces(void **state)
{
    (void)state;
    if (size < 9 || size > 24 || sanitized()) /* its plan's replays: minutes under ASan */
        skip();
    const char *spec = HC_TEST_DATA "/../../bench/grid/platforms/grid5000-links.json";
    hc_comm_t *c = smpi_model_comm(spec);
    for (int rep = 0; rep < 3; rep++)
        check_bcast(c, 131072, MPI_DOUBLE, sizeof(double), 0);
    const char *name = hc_comm_last_algorithm(c), *note = hc_comm_last_note(c);
    const double planned = hc_comm_last_predicted(c);
    hc_platform_t *p = first_nodes(spec);
    if (rank == 0)
        printf("bcast 1 MiB on %s: %s (%s), predicted %.6f s\n", spec, name, note, planned);
    assert_non_null(strstr(note, "across sites in messages of at most 3468 B"));
    /* against whole pieces: the two site-tree broadcasts at the piece sizes and windows that
     * win there */
    double whole = INFINITY;
    const char *algos[] = {"stripes", "multitree"};
    for (int a = 0; a < 2; a++)
        for (uint64_t seg = 8192; seg <= 9360; seg += 1168)
            for (uint32_t w = 4; w <= 16; w *= 2) {
                const double t = smpi_coll_time(HC_COLL_BCAST, p, algos[a], 1048576, seg, w);
                whole = t < whole ? t : whole;
            }
    if (rank == 0)
        printf("  whole pieces at best %.6f s\n", whole);
    assert_true(planned < 0.92 * whole);
    /* other sizes of the plan's class and roots in the other site: scaled, byte for byte */
    check_bcast(c, 131071, MPI_DOUBLE, sizeof(double), size - 1);
    check_bcast(c, 100001, MPI_BYTE, 1, 0);
    check_bcast(c, 1048573, MPI_BYTE, 1, size / 2 + 1);
    hc_platform_destroy(p);
    hc_comm_destroy(c);
}

/* hc_comm_opts_t.bcast_split and HETCOLL_BCAST_SPLIT: a size forces every segmented broadcast on a
 * platform of two sites to send its pieces across sites in sub-messages of at most that size
 * (here 1000 B, with the plain flow model, which would not choose them), forced algorithms
 * included; "never" (the environment's, over the options') keeps whole pieces; anything else is
 * an error naming it. Byte for byte: the plan's size, smaller ones (some sub-messages empty),
 * roots in either site, a datatype with holes (packed by the runtime). */
static void test_bcast_split_forced(void **state)
{
    (void)state;
    char spec[96];
    snprintf(spec, sizeof spec, "random:sites:sites=2:nodes=%d", (size + 1) / 2);
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (int k = 0; k < 3; k++) {
        hc_platform_t *p = NULL;
        assert_int_equal(hc_platform_load(spec, &p), HC_OK);
        hc_comm_opts_t o;
        hc_comm_opts_init(&o);
        o.algo_bcast = "stripes";
        o.bcast_split = "1000";
        if (k > 0)
            setenv("HETCOLL_BCAST_SPLIT", k == 1 ? "never" : "12x", 1);
        hc_comm_t *c = NULL;
        const int rc = hc_comm_create(MPI_COMM_WORLD, p, &o, &c);
        unsetenv("HETCOLL_BCAST_SPLIT");
        hc_platform_destroy(p);
        if (k == 2) {
            assert_int_not_equal(rc, MPI_SUCCESS);
            assert_non_null(strstr(hc_error_detail(),
                                   "HETCOLL_BCAST_SPLIT=12x: must be auto, never or a size in "
                                   "bytes"));
            continue;
        }
        assert_int_equal(rc, MPI_SUCCESS);
        int checked = 0;
        /* roots in either site (each root is its own plan: not all of them, for the sanitizer
         * builds' sake) */
        const int roots[3] = {0, size - 1, size / 2};
        for (int ri = 0; ri < 3; ri++) {
            const int r = roots[ri];
            check_bcast(c, 65536, MPI_DOUBLE, sizeof(double), r);
            const char *note = hc_comm_last_note(c);
            const int split = strstr(note, "across sites in messages of at most 1000 B") != NULL;
            /* stripes in pieces over two sites: sub-messages unless "never" */
            if (strcmp(hc_comm_last_algorithm(c), "stripes") == 0 && strstr(note, "pieces of")) {
                assert_int_equal(split, k == 0);
                checked++;
            }
            check_bcast(c, 65535, MPI_DOUBLE, sizeof(double), r);
            check_bcast(c, 7, MPI_DOUBLE, sizeof(double), r);
            check_bcast(c, 40000, vec, 16 * sizeof(double), r);
        }
        assert_true(checked > 0);
        hc_comm_destroy(c);
    }
    MPI_Type_free(&vec);
}

/* hc_comm_opts_t.reduce_split and HETCOLL_REDUCE_SPLIT, as bcast_split above: a size forces
 * every reduction on a platform of two sites to send its segments across sites in sub-messages
 * of at most that size (1000 B here), forced algorithms included (stripes, multitree, one tree);
 * "never" keeps whole segments; anything else is an error naming it. Byte for byte against
 * MPI_Reduce: roots in either site, in place, counts that cut unevenly. */
static void test_reduce_split_forced(void **state)
{
    (void)state;
    char spec[96];
    snprintf(spec, sizeof spec, "random:sites:sites=2:nodes=%d", (size + 1) / 2);
    static const char *const algos[] = {"stripes", "multitree", "snf"};
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++) {
            hc_platform_t *p = NULL;
            assert_int_equal(hc_platform_load(spec, &p), HC_OK);
            hc_comm_opts_t o;
            hc_comm_opts_init(&o);
            o.algo_reduce = algos[a];
            o.reduce_split = "1000";
            if (k > 0)
                setenv("HETCOLL_REDUCE_SPLIT", k == 1 ? "never" : "12x", 1);
            hc_comm_t *c = NULL;
            const int rc = hc_comm_create(MPI_COMM_WORLD, p, &o, &c);
            unsetenv("HETCOLL_REDUCE_SPLIT");
            hc_platform_destroy(p);
            if (k == 2) {
                assert_int_not_equal(rc, MPI_SUCCESS);
                assert_non_null(strstr(hc_error_detail(),
                                       "HETCOLL_REDUCE_SPLIT=12x: must be auto, never or a size "
                                       "in bytes"));
                continue;
            }
            assert_int_equal(rc, MPI_SUCCESS);
            const int roots[3] = {0, size - 1, size / 2};
            for (int ri = 0; ri < 3; ri++) {
                const int r = roots[ri];
                check_reduce(c, 65536, MPI_DOUBLE, MPI_SUM, r, 0);
                const int split = strstr(hc_comm_last_note(c),
                                         "across sites in messages of at most 1000 B") != NULL;
                assert_int_equal(split, k == 0 && size > 1);
                check_reduce(c, 40001, MPI_INT, MPI_SUM, r, 1);
                check_reduce(c, 7, MPI_DOUBLE, MPI_MAX, r, 0);
            }
            hc_comm_destroy(c);
        }
}

/* A long reduction in pieces of SimGrid's best class (plan.c reduce_seg_variants), under SMPI's
 * model and trusting it: where 8 KiB pieces would be more than its usual cap on pieces, the
 * runtime tries 9360 B ones, and 3 in flight where the rule gives 2. On the oracle's fat tree (its
 * first 16 nodes), 16 MiB: it plans what the flow model predicts at least 20 % faster than its
 * reduction algorithms in 32 KiB pieces at the rule's window (multitree, 0.2252 s; the plan was
 * 0.1867 s before, 0.1395 s now: multitree in 9360 B pieces, 3 in flight; on all 24 nodes 0.1983
 * s planned and run in SMPI before, 0.1408 s and 0.1404 s now). The result is MPI_Reduce's. Not
 * in the sanitizer builds (sanitized()). */
static void test_reduce_best_class(void **state)
{
    (void)state;
    if (size != 16 || sanitized())
        skip();
    const char *spec = HC_TEST_DATA "/../../bench/grid/platforms/fat-tree-3to1.json";
    hc_comm_t *c = smpi_model_comm(spec);
    for (int rep = 0; rep < 3; rep++)
        check_reduce(c, 2097152, MPI_DOUBLE, MPI_SUM, 0, 0);
    hc_platform_t *p = first_nodes(spec);
    const double planned = hc_comm_last_predicted(c);
    double before = INFINITY;
    const char *algos[] = {"multitree", "two-tree"};
    for (size_t a = 0; a < 2; a++)
        before = fmin(before, smpi_coll_time(HC_COLL_REDUCE, p, algos[a], 16777216, 32768, 0));
    if (rank == 0)
        printf("reduce 16 MiB on the fat tree's first 16 nodes: %s (%s), predicted %.6f s; in "
               "32 KiB pieces at the rule's window at best %.6f s\n",
               hc_comm_last_algorithm(c), hc_comm_last_note(c), planned, before);
    assert_true(planned < 0.8 * before);
    hc_platform_destroy(p);
    hc_comm_destroy(c);
}

/* Pieces with a wide window (plan.c pieces_windows): with the ranks grouped by site and the
 * skew of the oracle's exchange (ranks r % 5 == 0 send 10 x 64 KiB), windows of up to 16 pieces
 * per rank are predicted more than 2 % slower than all at once (each rank receives in planned
 * order and waits on its next sender), so the runtime keeps a wider one (32 to 128 on these
 * sizes, by the flow model), no longer every piece at once. The bytes are MPI_Alltoallv's. */
static void test_pieces_wide_window(void **state)
{
    (void)state;
    const char *spec = size == 3    ? "random:sites:sites=3:nodes=1"
                       : size == 4  ? "random:sites:sites=2:nodes=2"
                       : size == 8  ? "random:sites:sites=2:nodes=4"
                       : size == 16 ? "random:sites:sites=4:nodes=4"
                                    : NULL;
    if (!spec)
        skip();
    hc_comm_t *c = smpi_model_comm(spec);
    int *m = malloc(sizeof(int) * size * size);
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++)
            m[i * size + j] = i == j ? 0 : i % 5 == 0 ? 163840 : 16384;
    for (int rep = 0; rep < 5; rep++) /* planned at the third call, run from the fourth */
        typed_matrix(c, m, MPI_INT, sizeof(int), 430 + (uint64_t)rep);
    const char *note = hc_comm_last_note(c), *at = strstr(note, "B, ");
    if (rank == 0)
        printf("skewed alltoallv on %s: %s\n", spec, note);
    unsigned w = 0;
    assert_non_null(strstr(note, "in flight per rank"));
    assert_non_null(at);
    assert_int_equal(sscanf(at, "B, %u in flight", &w), 1);
    assert_true(w > 16 && w <= 128);
    hc_comm_destroy(c);
    free(m);
}

/* A redistribution as the exchange it is, every message in pieces (plan.c exchange_of,
 * coll.c): on two sites sharing an uplink, under SMPI's model where a message's rate depends
 * on its size, and trusting the model (HETCOLL_TUNE=0), `auto` runs post-everything in pieces
 * (pieces-cross where some messages stay inside a site); the bytes are MPI_Alltoallv's. Once
 * settled, calls of other sizes run in pieces without the sizes' allgather; the same byte
 * counts in a datatype with holes run whole (the check fails, the plan is cached by bytes),
 * then pieces again. */
static void test_redistribute_pieces(void **state)
{
    (void)state;
    if (size < 4 || size > 64)
        skip();
    /* shift 0 (an even size): the senders (the first half) on site 0, the receivers on site 1;
     * shift 1 (or an odd size): the first receiver on site 0 too, whose messages from the
     * senders need not be cut (pieces-cross, when the flow model has it no slower, and its
     * groups on the fast path) */
    for (int shift = 0; shift < 2; shift++) {
        char spec[64];
        snprintf(spec, sizeof spec, "random:sites:sites=2:nodes=%d", (size + 1) / 2 + shift);
        hc_comm_t *c = smpi_model_comm(spec);
        for (int rep = 0; rep < 4; rep++)
            check_redistribute(c, 31, 0);
        char algo[32];
        snprintf(algo, sizeof algo, "%s", hc_comm_last_algorithm(c));
        if (rank == 0)
            printf("redistribution on %s: %s\n", spec, algo);
        if (shift == 0 && size % 2 == 0)
            assert_string_equal(algo, "pieces"); /* every message crosses: nothing to leave whole */
        else
            assert_true(strcmp(algo, "pieces") == 0 || strcmp(algo, "pieces-cross") == 0);
        /* settled: the next calls, whatever their sizes, skip the sizes' allgather and the plan
         * lookup (one allreduce checks the sizes), until the 16th regathers */
        hc_comm_stats_t a, b;
        hc_comm_get_stats(c, &a);
        for (int i = 0; i < 6; i++)
            check_redistribute(c, 200 + (uint64_t)i, 0);
        hc_comm_get_stats(c, &b);
        assert_int_equal(b.calls, a.calls + 6);
        assert_int_equal(b.cache_hits, a.cache_hits);
        assert_int_equal(b.plans, a.plans);
        assert_int_equal(b.native_calls, a.native_calls);
        assert_string_equal(hc_comm_last_algorithm(c), algo);
        MPI_Datatype holed;
        MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * sizeof(double), &holed);
        MPI_Type_commit(&holed);
        check_redistribute_typed(c, 31, 0, holed, 2 * sizeof(double));
        assert_string_equal(hc_comm_last_algorithm(c), "native");
        check_redistribute(c, 31, 0);
        assert_string_equal(hc_comm_last_algorithm(c), algo);
        MPI_Type_free(&holed);
        hc_comm_destroy(c);
    }
}

/* A forced algorithm plans at the first call; the sizes of a size class (a quarter octave)
 * share the plan; another class or a new epoch plans again. Under auto, a size is planned
 * only once it recurs (plan_after). */
static void test_cache_hits(void **state)
{
    (void)state;
    hc_comm_t *c = make_comm(9, HC_COLL_BCAST, "binomial");
    hc_comm_stats_t st;
    for (int i = 0; i < 5; i++)
        check_bcast(c, 4096, MPI_INT, sizeof(int), 1 % size);
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 1);
    assert_int_equal(st.cache_hits, 4);
    check_bcast(c, 4097, MPI_INT, sizeof(int), 1 % size); /* same class: same plan */
    check_bcast(c, 4500, MPI_INT, sizeof(int), 1 % size);
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 1);
    check_bcast(c, 8192, MPI_INT, sizeof(int), 1 % size); /* another class: a new plan */
    check_bcast(c, 8192, MPI_INT, sizeof(int), 0);        /* another root: a new plan */
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 3);
    hc_comm_new_epoch(c); /* new network data: plan again */
    check_bcast(c, 4096, MPI_INT, sizeof(int), 1 % size);
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 4);
    hc_comm_destroy(c);

    c = make_comm(9, HC_COLL_BCAST, NULL);
    for (int i = 0; i < 2; i++)
        check_bcast(c, 3000, MPI_INT, sizeof(int), 0);
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 0);
    assert_int_equal(st.native_calls, 2);
    assert_string_equal(hc_comm_last_algorithm(c), "native");
    check_bcast(c, 3000, MPI_INT, sizeof(int), 0);
    hc_comm_get_stats(c, &st);
    assert_int_equal(st.plans, 1);
    hc_comm_destroy(c);
}

/* A coordinator that relays the whole message and pipelines nothing itself (found by the
 * stress driver, seed 424253): on this platform fef's hierarchy sends the whole message 1 -> 6
 * -> 3, rank 6 also feeds its cluster with one piece, and rank 6 used to forward before its
 * receive completed. */
static void test_bcast_whole_relay(void **state)
{
    (void)state;
    if (size != 8)
        skip();
    hc_platform_t *p;
    assert_int_equal(hc_platform_load("random:grid:clusters=3:nodes=3:seed=424253", &p), HC_OK);
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.algo_bcast = "fef";
    hc_comm_t *c = NULL;
    assert_int_equal(hc_comm_create(MPI_COMM_WORLD, p, &o, &c), MPI_SUCCESS);
    hc_platform_destroy(p);
    for (int rep = 0; rep < 3; rep++)
        check_bcast(c, 16383, MPI_DOUBLE, sizeof(double), 1);
    assert_string_equal(hc_comm_last_algorithm(c), "fef");
    hc_comm_destroy(c);
}

/* Measured tuning: every trial call gives the native bytes; the MPI library's collective is
 * measured with the shortlisted schedules; tuning settles (hc_comm_settled) within the bound of
 * rounds and batches and the choice then stays; HETCOLL_TUNE=0 trusts the model (no
 * measurement, a schedule runs). */
static void test_tuning(void **state)
{
    (void)state;
    /* 4 candidates x (a first round + at most 5 more of batches of at most 8 calls) */
    const unsigned long max_tuning = 4 * (1 + 5 * 8);
    for (int off = 0; off <= 1; off++) {
        if (off)
            setenv("HETCOLL_TUNE", "0", 1);
        hc_comm_t *b = make_comm(14, HC_COLL_BCAST, NULL), *r = make_comm(15, HC_COLL_REDUCE, NULL);
        unsetenv("HETCOLL_TUNE");
        char chosen[2][48] = {"", ""};
        int settled[2] = {0, 0};
        for (int i = 0; i < 400 && !(settled[0] && settled[1]); i++) {
            if (!settled[0]) {
                check_bcast(b, 5000, MPI_INT, sizeof(int), size - 1);
                settled[0] = hc_comm_settled(b);
            }
            if (!settled[1]) {
                check_reduce(r, 3000, MPI_DOUBLE, MPI_SUM, 0, 0);
                settled[1] = hc_comm_settled(r);
            }
        }
        assert_true(settled[0] && settled[1]);
        snprintf(chosen[0], sizeof chosen[0], "%s", hc_comm_last_algorithm(b));
        snprintf(chosen[1], sizeof chosen[1], "%s", hc_comm_last_algorithm(r));
        for (int i = 0; i < 32; i++) { /* the choice stays (the re-check comes much later) */
            check_bcast(b, 5000, MPI_INT, sizeof(int), size - 1);
            check_reduce(r, 3000, MPI_DOUBLE, MPI_SUM, 0, 0);
            assert_true(hc_comm_settled(b) && hc_comm_settled(r));
        }
        assert_string_equal(hc_comm_last_algorithm(b), chosen[0]);
        assert_string_equal(hc_comm_last_algorithm(r), chosen[1]);
        hc_comm_stats_t sb, sr;
        hc_comm_get_stats(b, &sb);
        hc_comm_get_stats(r, &sr);
        assert_int_equal(sb.plans, 1);
        assert_int_equal(sr.plans, 1);
        assert_true(sb.tuning_calls <= max_tuning && sr.tuning_calls <= max_tuning);
        if (off) {
            assert_int_equal(sb.tuning_calls + sr.tuning_calls, 0);
            assert_string_not_equal(chosen[0], "native");
            assert_string_not_equal(chosen[1], "native");
        } else if (size >= 2) {
            /* native and at least one schedule were measured */
            assert_true(sb.tuning_calls >= 2 && sr.tuning_calls >= 2);
        }
        hc_comm_destroy(b);
        hc_comm_destroy(r);
    }
}

/* TTCC with a slow rank: the rank sleeps before it forwards anything; its children get the
 * message through the redundant tree, and everyone still ends with the root's bytes. */
static void test_ttcc_slow_rank(void **state)
{
    (void)state;
    const hc_algo_info_t *info;
    if (size < 3 || hc_algo_find(HC_COLL_BCAST, "ttcc", &info) != HC_OK)
        skip();
    hc_comm_t *c = make_comm(12, HC_COLL_BCAST, "ttcc");
    for (int slow = 1; slow < size && slow <= 3; slow++) {
        char spec[32];
        snprintf(spec, sizeof spec, "%d:0.2", slow);
        setenv("HETCOLL_FAULT_DELAY", spec, 1);
        check_bcast(c, 1 << 14, MPI_INT, sizeof(int), 0);
        check_bcast(c, 1000, MPI_DOUBLE, sizeof(double), size - 1);
        unsetenv("HETCOLL_FAULT_DELAY");
    }
    hc_comm_destroy(c);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    hc_comm_t *c = make_comm(10, HC_COLL_BCAST, NULL);
    int buf[4] = {0};
    assert_int_equal(hc_bcast(buf, 4, MPI_INT, size, c), MPI_ERR_ROOT);
    assert_int_equal(hc_bcast(buf, 4, MPI_INT, -1, c), MPI_ERR_ROOT);
    assert_int_equal(hc_bcast(buf, -1, MPI_INT, 0, c), MPI_ERR_COUNT);
    assert_int_equal(hc_reduce(buf, buf, 4, MPI_INT, MPI_OP_NULL, 0, c), MPI_ERR_OP);
    assert_int_equal(hc_bcast(buf, 4, MPI_INT, 0, NULL), MPI_ERR_COMM);
    /* Mismatched alltoallv sizes: rank 0 claims to send one more int to rank 1 than rank 1
     * expects. Every rank must get an error and none may hang. */
    int sc[64], sd[64], rcnt[64], rd[64];
    for (int j = 0; j < size; j++) {
        sc[j] = rcnt[j] = 1;
        sd[j] = rd[j] = j;
    }
    if (rank == 0)
        sc[1 % size] = 2;
    int sb[130] = {0}, rb[130] = {0};
    int err = hc_alltoallv(sb, sc, sd, MPI_INT, rb, rcnt, rd, MPI_INT, c);
    assert_int_not_equal(err, MPI_SUCCESS);
    int neg[64];
    for (int j = 0; j < size; j++)
        neg[j] = rank == size - 1 && j == 0 ? -1 : 1;
    err = hc_alltoallv(sb, neg, sd, MPI_INT, rb, rcnt, rd, MPI_INT, c);
    assert_int_not_equal(err, MPI_SUCCESS);
    hc_comm_destroy(c);
}

/* Errors the MPI way: a platform with fewer nodes than ranks fails hc_comm_create on every
 * rank with a detail saying what is wrong (it is read through this program's libhetcoll: the
 * runtime must share it, one copy of the core per process). */
static void test_errors_have_detail(void **state)
{
    (void)state;
    hc_platform_t *p;
    assert_int_equal(hc_platform_create((uint32_t)size - (size > 1), 1e-4, 1e8, &p), HC_OK);
    hc_comm_t *c = (hc_comm_t *)&c;
    hc_error_clear();
    int err = hc_comm_create(MPI_COMM_WORLD, p, NULL, &c);
    hc_platform_destroy(p);
    if (size == 1) {
        assert_int_equal(err, MPI_SUCCESS);
        hc_comm_destroy(c);
        return;
    }
    assert_int_equal(err, MPI_ERR_ARG);
    assert_null(c);
    char want[128];
    snprintf(want, sizeof want, "has %d nodes but the communicator has %d ranks", size - 1, size);
    if (!strstr(hc_error_detail(), want))
        fail_msg("detail on rank %d: '%s'", rank, hc_error_detail());
    /* An unknown algorithm name in the environment names the variable and the valid names. */
    setenv("HETCOLL_ALGO_BCAST", "bogus", 1);
    assert_int_equal(hc_platform_create((uint32_t)size, 1e-4, 1e8, &p), HC_OK);
    err = hc_comm_create(MPI_COMM_WORLD, p, NULL, &c);
    unsetenv("HETCOLL_ALGO_BCAST");
    hc_platform_destroy(p);
    assert_int_equal(err, MPI_ERR_ARG);
    if (!strstr(hc_error_detail(), "HETCOLL_ALGO_BCAST: unknown bcast algorithm 'bogus' (valid: "))
        fail_msg("detail on rank %d: '%s'", rank, hc_error_detail());
    /* A call's error: every rank gets the code and a detail. */
    c = make_comm(21, HC_COLL_BCAST, NULL);
    int buf[4] = {0};
    hc_error_clear();
    assert_int_equal(hc_bcast(buf, 4, MPI_INT, size, c), MPI_ERR_ROOT);
    assert_non_null(strstr(hc_error_detail(), "root"));
    hc_comm_destroy(c);
}

/* The runtime plans with the platform's pLogP gap tables, exactly like
 * `hetcoll schedule bcast --model plogp`: a probed platform must not lose them on the way to a
 * communicator (before hc_platform_subset the runtime planned with m / B). */
static void test_plogp_plan_matches_cli(void **state)
{
    (void)state;
    if (size < 3)
        skip();
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 3 ? 0 : MPI_UNDEFINED, rank, &sub);
    if (sub == MPI_COMM_NULL)
        return;
    hc_platform_t *p;
    assert_int_equal(hc_platform_load(HC_TEST_DATA "/platform_gaps.json", &p), HC_OK);
    hc_comm_opts_t o;
    hc_comm_opts_init(&o);
    o.model = HC_MODEL_PLOGP;
    o.algo_bcast = "ecef";
    hc_comm_t *c;
    assert_int_equal(hc_comm_create(sub, p, &o, &c), MPI_SUCCESS);
    char buf[2000];
    memset(buf, 3, sizeof buf);
    assert_int_equal(hc_bcast(buf, (int)sizeof buf, MPI_BYTE, 0, c), MPI_SUCCESS);
    const double ours = hc_comm_last_predicted(c);
    hc_comm_destroy(c);
    MPI_Comm_free(&sub);
    /* The same broadcast on the platform without its gap tables differs (so this test can fail). */
    hc_platform_t *q;
    assert_int_equal(hc_platform_create(3, 1.0, 1.0, &q), HC_OK);
    for (uint32_t i = 0; i < 3; i++)
        for (uint32_t j = 0; j < 3; j++)
            if (i != j)
                hc_platform_set_link(q, i, j, hc_platform_latency(p, i, j),
                                     hc_platform_bandwidth(p, i, j));
    hc_matrix_t *C;
    hc_schedule_t *s;
    assert_int_equal(hc_cost_uniform(q, HC_MODEL_PLOGP, 2000, &C), HC_OK);
    hc_problem_t pb;
    hc_problem_init(&pb, HC_COLL_BCAST);
    pb.P = 3;
    pb.costs = C;
    pb.msg_bytes = 2000;
    pb.platform = q;
    pb.model = HC_MODEL_PLOGP;
    assert_int_equal(hc_schedule_compute(&pb, "ecef", NULL, &s), HC_OK);
    assert_true(fabs(s->makespan - ours) > 1e-6 * ours);
    hc_schedule_destroy(s);
    hc_matrix_destroy(C);
    hc_platform_destroy(q);
    hc_platform_destroy(p);
    if (rank != 0)
        return;
    char cmd[1024], line[256];
    snprintf(cmd, sizeof cmd,
             "%s schedule bcast --platform %s/platform_gaps.json --model plogp --algo ecef "
             "--root 0 --msg 2000",
             HC_CLI, HC_TEST_DATA);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    double cli = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "makespan: %lf", &cli) == 1)
            break;
    pclose(f);
    if (!(fabs(cli - ours) <= 1e-9 * ours))
        fail_msg("runtime predicted %.12g s, hetcoll schedule says %.12g s", ours, cli);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* The bad-argument tests look at the codes: errors return instead of aborting. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alltoallv_all_algorithms),
        cmocka_unit_test(test_alltoallv_types_and_big),
        cmocka_unit_test(test_alltoall_in_place),
        cmocka_unit_test(test_alltoallv_speculation),
        cmocka_unit_test(test_alltoallv_pieces),
        cmocka_unit_test(test_alltoallv_pieces_cross),
        cmocka_unit_test(test_pieces_window),
        cmocka_unit_test(test_pieces_round_robin),
        cmocka_unit_test(test_relay),
        cmocka_unit_test(test_leads),
        cmocka_unit_test(test_bcast_class_ramp),
        cmocka_unit_test(test_bcast_alternate),
        cmocka_unit_test(test_pieces_wide_window),
        cmocka_unit_test(test_bcast_short_link_windows),
        cmocka_unit_test(test_reduce_best_class),
        cmocka_unit_test(test_bcast_split_pieces),
        cmocka_unit_test(test_bcast_split_forced),
        cmocka_unit_test(test_reduce_split_forced),
        cmocka_unit_test(test_alltoallv_auto),
        cmocka_unit_test(test_bcast_all_algorithms),
        cmocka_unit_test(test_reduce_all_algorithms),
        cmocka_unit_test(test_reduce_vector_type),
        cmocka_unit_test(test_reduce_noncommutative_falls_back),
        cmocka_unit_test(test_redistribute_all_algorithms),
        cmocka_unit_test(test_redistribute_post_everything_fast_path),
        cmocka_unit_test(test_redistribute_pieces),
        cmocka_unit_test(test_cache_hits),
        cmocka_unit_test(test_tuning),
        cmocka_unit_test(test_bcast_whole_relay),
        cmocka_unit_test(test_ttcc_slow_rank),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_errors_have_detail),
        cmocka_unit_test(test_plogp_plan_matches_cli),
    };
    /* Only rank 0 prints the cmocka report; every rank's result counts. */
    if (rank != 0)
        cmocka_set_message_output(CM_OUTPUT_SUBUNIT);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any ? 1 : 0;
}
