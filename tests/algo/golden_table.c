/* The golden table: every registered algorithm x every fixture of its collective (fixtures.h) x
 * the option variants below -> status, makespan and lower bound to 17 digits, event count and a
 * 64-bit FNV-1a hash of everything the schedule plans (events bit for bit, steps, trees, segment
 * count). A refactor must leave it unchanged; a change is a named bug fix in its own commit.
 *
 *   golden_table                  print the table on stdout
 *   golden_table --check FILE     compare with FILE; lists every differing row (algorithm,
 *                                 fixture, variant, expected and got), exit 1 when any differs
 *
 * Regenerate on purpose only (docs/architecture.md): scripts/golden.sh --update
 * HC_TEST_ALGO=a,b limits both modes to the algorithms named a and b. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"

/* Option variants: name, collective (-1 = every one), and what they change. */
typedef struct variant {
    const char *name;
    int coll;
    /* 1 when the variant applies to fixture f (besides the collective) */
    int (*applies)(const fixture_t *f);
    void (*set)(const fixture_t *f, hc_algo_opts_t *o, uint32_t *buf);
} variant_t;

static int any_fixture(const fixture_t *f)
{
    (void)f;
    return 1;
}

static int clustered(const fixture_t *f)
{
    return f->plat && hc_platform_cluster_count(f->plat) >= 2;
}

static int large_msg(const fixture_t *f)
{
    return f->pb.msg_bytes >= 262144;
}

static void set_none(const fixture_t *f, hc_algo_opts_t *o, uint32_t *buf)
{
    (void)f;
    (void)o;
    (void)buf;
}

static void set_hier_none(const fixture_t *f, hc_algo_opts_t *o, uint32_t *buf)
{
    (void)f;
    (void)buf;
    o->hierarchy = 0;
}

static void set_segment(const fixture_t *f, hc_algo_opts_t *o, uint32_t *buf)
{
    (void)f;
    (void)buf;
    o->segment_bytes = 65536;
}

static void set_seed(const fixture_t *f, hc_algo_opts_t *o, uint32_t *buf)
{
    (void)f;
    (void)buf;
    o->seed = 7;
}

/* the non-root nodes in decreasing id order */
static void set_reverse_order(const fixture_t *f, hc_algo_opts_t *o, uint32_t *buf)
{
    uint32_t n = 0;
    for (uint32_t v = f->pb.P; v-- > 0;)
        if (v != f->pb.root)
            buf[n++] = v;
    o->order = buf;
    o->order_len = n;
}

static const variant_t variants[] = {
    {"default", -1, any_fixture, set_none},
    {"hierarchy=none", HC_COLL_BCAST, clustered, set_hier_none},
    {"segment=65536", HC_COLL_BCAST, large_msg, set_segment},
    {"seed=7", HC_COLL_ALLTOALL, any_fixture, set_seed},
    {"order=reverse", HC_COLL_REDUCE, any_fixture, set_reverse_order},
};
#define N_VARIANTS (sizeof variants / sizeof *variants)

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* an lvalue's bytes */
#define FNV_VAL(h, v) ((h) = fnv((h), &(v), sizeof(v)))

static uint64_t schedule_hash(const hc_schedule_t *s)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < s->n_events; i++) {
        const hc_event_t *e = &s->events[i];
        /* field by field: the struct's padding bytes are not part of the schedule */
        FNV_VAL(h, e->src);
        FNV_VAL(h, e->dst);
        FNV_VAL(h, e->start);
        FNV_VAL(h, e->end);
        FNV_VAL(h, e->bytes);
        FNV_VAL(h, e->seg);
        FNV_VAL(h, e->step);
        FNV_VAL(h, e->tree);
    }
    for (size_t i = 0; i < s->n_steps; i++) {
        uint64_t first = s->steps[i].first, count = s->steps[i].count;
        FNV_VAL(h, s->steps[i].start);
        FNV_VAL(h, s->steps[i].duration);
        FNV_VAL(h, first);
        FNV_VAL(h, count);
    }
    for (uint32_t v = 0; s->parent && v < s->P; v++)
        FNV_VAL(h, s->parent[v]);
    for (uint32_t v = 0; s->parent2 && v < s->P; v++)
        FNV_VAL(h, s->parent2[v]);
    FNV_VAL(h, s->n_segments);
    FNV_VAL(h, s->root);
    return h;
}

/* One row: "algo | fixture | variant | result" (the key is everything before the last " | "). */
static void row(const hc_algo_info_t *info, const fixture_t *f, const variant_t *v, char *line,
                size_t cap)
{
    hc_algo_opts_t o;
    hc_algo_opts_init(&o);
    uint32_t buf[FX_MAX_P];
    v->set(f, &o, buf);
    hc_schedule_t *s = NULL;
    int rc = hc_schedule_compute(&f->pb, info->name, &o, &s);
    int n = snprintf(line, cap, "%s | %s | %s | ", info->name, f->name, v->name);
    if (n < 0 || (size_t)n >= cap)
        return;
    if (rc != HC_OK)
        snprintf(line + n, cap - (size_t)n, "%s", hc_status_name(rc));
    else
        snprintf(line + n, cap - (size_t)n,
                 "ok %s makespan=%.17g lb=%.17g events=%zu hash=%016" PRIx64, s->algorithm,
                 s->makespan, s->lower_bound, s->n_events, schedule_hash(s));
    hc_schedule_destroy(s);
}

static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

typedef struct lines {
    char **v;
    size_t n, cap;
} lines_t;

static void push(lines_t *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        FX_TRUE(l->v != NULL);
    }
    l->v[l->n] = malloc(strlen(s) + 1);
    FX_TRUE(l->v[l->n] != NULL);
    strcpy(l->v[l->n++], s);
}

static size_t key_len(const char *s)
{
    const char *last = NULL;
    for (const char *p = strstr(s, " | "); p; p = strstr(p + 3, " | "))
        last = p;
    return last ? (size_t)(last - s) : strlen(s);
}

static void lines_free(lines_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static const char *find_key(const lines_t *l, const char *s)
{
    size_t k = key_len(s);
    for (size_t i = 0; i < l->n; i++)
        if (key_len(l->v[i]) == k && strncmp(l->v[i], s, k) == 0)
            return l->v[i];
    return NULL;
}

int main(int argc, char **argv)
{
    const char *check = NULL;
    if (argc == 3 && strcmp(argv[1], "--check") == 0) {
        check = argv[2];
    } else if (argc != 1) {
        fprintf(stderr, "usage: golden_table [--check FILE]\n");
        return 2;
    }
    if (fx_setup() != 0)
        return 2;
    const char *only = getenv("HC_TEST_ALGO");
    lines_t got = {0}, want = {0};
    char line[1024];
    for (size_t a = 0; a < hc_algo_count(); a++) {
        const hc_algo_info_t *info = hc_algo_get(a);
        if (only && !in_list(only, info->name))
            continue;
        for (size_t i = 0; i < n_fx; i++) {
            if (fx[i].pb.coll != info->coll)
                continue;
            for (size_t v = 0; v < N_VARIANTS; v++) {
                if ((variants[v].coll >= 0 && variants[v].coll != (int)info->coll) ||
                    !variants[v].applies(&fx[i]))
                    continue;
                row(info, &fx[i], &variants[v], line, sizeof line);
                push(&got, line);
            }
        }
    }
    fx_teardown();
    if (!check) {
        printf("# hetcoll golden table: algorithm | fixture | variant | result "
               "(tests/algo/golden_table.c; regenerate with scripts/golden.sh --update)\n");
        for (size_t i = 0; i < got.n; i++)
            printf("%s\n", got.v[i]);
        lines_free(&got);
        return 0;
    }
    FILE *fp = fopen(check, "r");
    if (!fp) {
        perror(check);
        lines_free(&got);
        return 2;
    }
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char name[128];
        size_t nl = strcspn(line, " ");
        snprintf(name, sizeof name, "%.*s", (int)nl, line);
        if (only && !in_list(only, name))
            continue;
        push(&want, line);
    }
    fclose(fp);
    size_t diffs = 0;
    for (size_t i = 0; i < got.n; i++) {
        const char *w = find_key(&want, got.v[i]);
        if (!w) {
            printf("NEW      %s\n", got.v[i]);
            diffs++;
        } else if (strcmp(w, got.v[i]) != 0) {
            printf("CHANGED  %s\n     was %s\n", got.v[i], w + key_len(w) + 3);
            diffs++;
        }
    }
    for (size_t i = 0; i < want.n; i++)
        if (!find_key(&got, want.v[i])) {
            printf("MISSING  %s\n", want.v[i]);
            diffs++;
        }
    printf("golden table: %zu rows, %zu differ from %s\n", got.n, diffs, check);
    lines_free(&got);
    lines_free(&want);
    return diffs ? 1 : 0;
}
