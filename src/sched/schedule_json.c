/* Schedule JSON ("hetcoll-schedule/1", docs/formats.md) with jansson.
 *
 * Output layout: one top-level member per line, stable key order, and one line
 * per element of "events" and "steps" (readable and diff-friendly even for 100k
 * events). Reals are printed with 17 significant digits so that they parse back
 * to the same doubles. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))
/* window_bdp_factor: SimGrid's largest latency factor is 11.6 (messages from 65472 B); a file
 * asking for more than this would only make every window the cap */
#define HC__MAX_WINDOW_BDP_FACTOR 100

/* ---- output ---- */

static json_t *jreal(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jint_array(const int32_t *a, uint32_t n)
{
    json_t *arr = json_array();
    for (uint32_t i = 0; arr && i < n; i++)
        json_array_append_new(arr, json_integer(a[i]));
    return arr;
}

typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} sbuf_t;

static void sb_put(sbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (b->failed)
        return;
    if (hc__grow((void **)&b->buf, &b->cap, b->len + n + 1, 1) != HC_OK) {
        b->failed = 1;
        return;
    }
    memcpy(b->buf + b->len, s, n + 1);
    b->len += n;
}

static void sb_json(sbuf_t *b, const json_t *v)
{
    char *t = json_dumps(v, DUMP_FLAGS);
    if (!t) {
        b->failed = 1;
        return;
    }
    sb_put(b, t);
    free(t);
}

/* Top-level object: members on their own lines, arrays of objects one element
 * per line. */
static void sb_top(sbuf_t *b, json_t *root)
{
    const char *key;
    json_t *val;
    int first = 1;
    sb_put(b, "{\n");
    json_object_foreach(root, key, val)
    {
        sb_put(b, first ? "  " : ",\n  ");
        first = 0;
        json_t *k = json_string(key);
        if (!k) {
            b->failed = 1;
            return;
        }
        sb_json(b, k);
        json_decref(k);
        sb_put(b, ": ");
        if (json_is_array(val) && json_array_size(val) > 0 &&
            json_is_object(json_array_get(val, 0))) {
            sb_put(b, "[\n");
            for (size_t i = 0; i < json_array_size(val); i++) {
                sb_put(b, i ? ",\n    " : "    ");
                sb_json(b, json_array_get(val, i));
            }
            sb_put(b, "\n  ]");
        } else {
            sb_json(b, val);
        }
    }
}

/* A real exactly as jansson prints it with JSON_REAL_PRECISION(17): "%.17g", ".0" added to
 * integral values, no '+' or leading zeros in the exponent; null when not finite. */
static void sb_real(sbuf_t *b, double x)
{
    char buf[40];
    if (!isfinite(x)) {
        sb_put(b, "null");
        return;
    }
    snprintf(buf, sizeof buf, "%.17g", x);
    char *e = strchr(buf, 'e');
    if (!e && !strchr(buf, '.')) {
        strcat(buf, ".0");
    } else if (e) {
        char *start = e + 1, *end;
        if (*start == '-')
            start++;
        end = start;
        if (*end == '+')
            end++;
        while (*end == '0' && end[1] != '\0')
            end++;
        if (*start == '+' || end != start)
            memmove(start, end, strlen(end) + 1);
    }
    sb_put(b, buf);
}

static void sb_int(sbuf_t *b, const char *key, long long v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%lld", key, v);
    sb_put(b, buf);
}

/* Events and steps are written directly (the same text jansson would give, much faster). */
static void sb_events(sbuf_t *b, const hc_schedule_t *s)
{
    sb_put(b, ",\n  \"events\": [");
    for (size_t i = 0; i < s->n_events && !b->failed; i++) {
        const hc_event_t *e = &s->events[i];
        sb_put(b, i ? ",\n    " : "\n    ");
        sb_int(b, "{\"src\":", e->src);
        sb_int(b, ",\"dst\":", e->dst);
        sb_put(b, ",\"start\":");
        sb_real(b, e->start);
        sb_put(b, ",\"end\":");
        sb_real(b, e->end);
        sb_int(b, ",\"bytes\":", (long long)e->bytes);
        if (s->n_segments > 1)
            sb_int(b, ",\"seg\":", e->seg);
        if (s->parent2 || (s->coll == HC_COLL_REDUCE && e->tree))
            sb_int(b, ",\"tree\":", e->tree);
        if (s->coll == HC_COLL_REDISTRIBUTE)
            sb_int(b, ",\"step\":", e->step);
        sb_put(b, "}");
    }
    sb_put(b, s->n_events ? "\n  ]" : "]");
}

static void sb_steps(sbuf_t *b, const hc_schedule_t *s)
{
    sb_put(b, ",\n  \"steps\": [");
    for (size_t k = 0; k < s->n_steps && !b->failed; k++) {
        const hc_step_t *st = &s->steps[k];
        sb_put(b, k ? ",\n    {\"duration\":" : "\n    {\"duration\":");
        sb_real(b, st->duration);
        sb_put(b, ",\"transfers\":[");
        for (size_t i = st->first; i < st->first + st->count && i < s->n_events; i++) {
            const hc_event_t *e = &s->events[i];
            sb_int(b, i > st->first ? ",{\"src\":" : "{\"src\":", e->src);
            sb_int(b, ",\"dst\":", (long long)e->dst - s->n1);
            sb_put(b, ",\"amount\":");
            sb_real(b, e->end - e->start);
            sb_int(b, ",\"bytes\":", (long long)e->bytes);
            sb_put(b, "}");
        }
        sb_put(b, "]}");
    }
    sb_put(b, s->n_steps ? "\n  ]" : "]");
}

int hc_schedule_to_json(const hc_schedule_t *s, char **out)
{
    if (!s || !out)
        return hc__error(HC_ERR_INVAL, "hc_schedule_to_json: NULL argument");
    *out = NULL;
    json_t *root = json_object();
    if (!root)
        return hc__error(HC_ERR_NOMEM, "out of memory writing schedule JSON");
    json_object_set_new(root, "format", json_string(HC_SCHEDULE_FORMAT));
    json_object_set_new(root, "collective", json_string(hc_coll_name(s->coll)));
    json_object_set_new(root, "algorithm", json_string(s->algorithm));
    json_object_set_new(root, "nodes", json_integer(s->P));
    json_object_set_new(root, "makespan", jreal(s->makespan));
    json_object_set_new(root, "lower_bound", jreal(s->lower_bound));
    if (s->coll == HC_COLL_BCAST || s->coll == HC_COLL_REDUCE)
        json_object_set_new(root, "root", json_integer(s->root));
    if (s->window)
        json_object_set_new(root, "window",
                            s->window == HC_WINDOW_ALL ? json_string("all")
                                                       : json_integer(s->window));
    if (s->window_bdp_factor > 1.0)
        json_object_set_new(root, "window_bdp_factor", jreal(s->window_bdp_factor));
    if (s->coll == HC_COLL_REDISTRIBUTE) {
        json_object_set_new(root, "n1", json_integer(s->n1));
        json_object_set_new(root, "n2", json_integer(s->n2));
        json_object_set_new(root, "k", json_integer(s->k));
        json_object_set_new(root, "beta", jreal(s->beta));
        json_object_set_new(root, "cost", jreal(s->makespan));
    }
    if (s->coll == HC_COLL_BCAST) {
        if (s->n_segments > 1)
            json_object_set_new(root, "segments", json_integer(s->n_segments));
        if (s->parent)
            json_object_set_new(root, "parent", jint_array(s->parent, s->P));
        if (s->parent && s->parent2) {
            json_t *trees = json_array();
            json_array_append_new(trees, jint_array(s->parent, s->P));
            json_array_append_new(trees, jint_array(s->parent2, s->P));
            json_object_set_new(root, "trees", trees);
        }
    }
    if (s->coll != HC_COLL_REDISTRIBUTE && s->segment_bytes)
        json_object_set_new(root, "segment_bytes", json_integer((json_int_t)s->segment_bytes));
    if (s->coll != HC_COLL_REDISTRIBUTE && s->piece_groups)
        json_object_set_new(root, "piece_groups", jint_array(s->piece_groups, s->P));
    if (s->coll == HC_COLL_REDUCE && s->split_bytes)
        json_object_set_new(root, "split_bytes", json_integer((json_int_t)s->split_bytes));
    if (s->coll == HC_COLL_ALLTOALL && s->recv_order == HC_RECV_ROUND_ROBIN)
        json_object_set_new(root, "recv_order", json_string("round-robin"));
    if (s->coll == HC_COLL_ALLTOALL && s->relay == HC_RELAY_FORWARDERS)
        json_object_set_new(root, "relay", json_string("forwarders"));
    if (s->coll == HC_COLL_ALLTOALL && s->lead_pieces) {
        json_object_set_new(root, "lead_bytes", json_integer((json_int_t)s->lead_bytes));
        json_t *rows = json_array();
        for (uint32_t a = 0; a < s->lead_groups; a++) {
            json_t *row = json_array();
            for (uint32_t b = 0; b < s->lead_groups; b++)
                json_array_append_new(row,
                                      json_integer(s->lead_pieces[(size_t)a * s->lead_groups + b]));
            json_array_append_new(rows, row);
        }
        json_object_set_new(root, "lead_pieces", rows);
    }
    if (s->coll == HC_COLL_REDUCE && s->has_search) {
        json_t *o = json_object();
        json_object_set_new(o, "nodes_visited", jreal(s->search.nodes_visited));
        json_object_set_new(o, "naive_space", jreal(s->search.naive_space));
        json_object_set_new(o, "efficiency", jreal(s->search.efficiency));
        json_object_set_new(o, "optimal", json_boolean(s->search.optimal));
        json_object_set_new(o, "best_lower_bound", jreal(s->search.best_lower_bound));
        json_object_set_new(root, "search", o);
    }
    if (s->note)
        json_object_set_new(root, "note", json_string(s->note));
    if (s->extra_json) {
        json_error_t jerr;
        json_t *extra = json_loads(s->extra_json, 0, &jerr);
        if (!extra || !json_is_object(extra)) {
            json_decref(extra);
            json_decref(root);
            return hc__error(HC_ERR_INVAL,
                             "hc_schedule_to_json: extra_json is not a JSON object (%s)",
                             extra ? "not an object" : jerr.text);
        }
        const char *key;
        json_t *val;
        json_object_foreach(extra, key, val)
        {
            if (!json_object_get(root, key) && strcmp(key, "steps") != 0 &&
                strcmp(key, "events") != 0)
                json_object_set(root, key, val);
        }
        json_decref(extra);
    }
    sbuf_t b = {0};
    sb_top(&b, root);
    json_decref(root);
    if (s->coll == HC_COLL_REDISTRIBUTE)
        sb_steps(&b, s);
    sb_events(&b, s);
    sb_put(&b, "\n}\n");
    if (b.failed || !b.buf) {
        free(b.buf);
        return hc__error(HC_ERR_NOMEM, "out of memory writing schedule JSON");
    }
    *out = b.buf;
    return HC_OK;
}

/* ---- input ---- */

typedef struct {
    const char *origin;
    /* The "events" array's text when the document was read in the streaming way (events are
     * decoded one at a time, so memory stays per event, not per JSON node). */
    const char *ev_text, *doc;
    size_t ev_len, ev_count;
} ctx_t;

static int perr(const ctx_t *c, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int perr(const ctx_t *c, const char *field, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hc__error(HC_ERR_PARSE, "%s: field '%s': %s", c->origin, field, msg);
}

static int get_number(const ctx_t *c, json_t *obj, const char *key, const char *field, int required,
                      double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return perr(c, field, "missing");
        return HC_OK;
    }
    if (!json_is_number(v))
        return perr(c, field, "must be a number");
    *out = json_number_value(v);
    return HC_OK;
}

static int get_uint(const ctx_t *c, json_t *obj, const char *key, const char *field, int required,
                    uint64_t max, uint64_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return perr(c, field, "missing");
        return HC_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
        return perr(c, field, "must be an integer in [0, %llu]", (unsigned long long)max);
    *out = (uint64_t)json_integer_value(v);
    return HC_OK;
}

static int get_u32(const ctx_t *c, json_t *obj, const char *key, const char *field, int required,
                   uint32_t max, uint32_t *out)
{
    uint64_t v = *out;
    HC__TRY(get_uint(c, obj, key, field, required, max, &v));
    *out = (uint32_t)v;
    return HC_OK;
}

/* An array of P integers in [lo, P): a tree's parents (lo = -1, the root's) or piece groups. */
static int parse_tree(const ctx_t *c, json_t *v, const char *field, uint32_t P, int32_t **out)
{
    const int lo = strcmp(field, "piece_groups") == 0 ? 0 : -1;
    if (!json_is_array(v) || json_array_size(v) != P)
        return perr(c, field, "must be an array of %u %s", P,
                    lo ? "node ids (-1 for the root)" : "group ids");
    int32_t *a = hc__malloc(P, sizeof *a);
    if (!a)
        return hc__error(HC_ERR_NOMEM, "out of memory reading %s", c->origin);
    for (uint32_t i = 0; i < P; i++) {
        json_t *x = json_array_get(v, i);
        if (!json_is_integer(x) || json_integer_value(x) < lo ||
            json_integer_value(x) >= (json_int_t)P) {
            free(a);
            char f[160];
            snprintf(f, sizeof f, "%s[%u]", field, i);
            return perr(c, f, "must be an integer in [%d, %u)", lo, P);
        }
        a[i] = (int32_t)json_integer_value(x);
    }
    *out = a;
    return HC_OK;
}

/* lead_bytes and lead_pieces (K arrays of K counts, K <= P) of a total exchange in pieces with
 * piece_groups, all ids below K. */
static int parse_leads(const ctx_t *c, json_t *root, json_t *v, hc_schedule_t *s)
{
    HC__TRY(get_uint(c, root, "lead_bytes", "lead_bytes", 1, UINT32_MAX, &s->lead_bytes));
    if (s->lead_bytes == 0)
        return perr(c, "lead_bytes", "must be > 0");
    if (!s->piece_groups || !s->segment_bytes || s->relay)
        return perr(c, "lead_pieces",
                    "needs segment_bytes > 0 and piece_groups, and no relay (forwarders)");
    const size_t K = json_is_array(v) ? json_array_size(v) : 0;
    if (K < 1 || K > s->P)
        return perr(c, "lead_pieces", "must be an array of 1 to %u rows (one per group)", s->P);
    for (uint32_t x = 0; x < s->P; x++)
        if ((size_t)s->piece_groups[x] >= K)
            return perr(c, "lead_pieces", "has %zu rows; piece_groups[%u] is %d", K, x,
                        s->piece_groups[x]);
    /* the rows' shapes first: K x K entries are then in the file (memory bounded by it) */
    for (size_t i = 0; i < K; i++) {
        json_t *row = json_array_get(v, i);
        if (!json_is_array(row) || json_array_size(row) != K) {
            char f[160];
            snprintf(f, sizeof f, "lead_pieces[%zu]", i);
            return perr(c, f, "must be an array of %zu counts", K);
        }
    }
    uint32_t *a = hc__malloc(K * K, sizeof *a);
    if (!a)
        return hc__error(HC_ERR_NOMEM, "out of memory reading %s", c->origin);
    for (size_t i = 0; i < K; i++) {
        json_t *row = json_array_get(v, i);
        char f[160];
        for (size_t j = 0; j < K; j++) {
            json_t *x = json_array_get(row, j);
            if (!json_is_integer(x) || json_integer_value(x) < 0 ||
                json_integer_value(x) > (json_int_t)HC_SCHEDULE_MAX_PIECES) {
                free(a);
                snprintf(f, sizeof f, "lead_pieces[%zu][%zu]", i, j);
                return perr(c, f, "must be an integer in [0, %u]", HC_SCHEDULE_MAX_PIECES);
            }
            a[i * K + j] = (uint32_t)json_integer_value(x);
        }
    }
    s->lead_pieces = a;
    s->lead_groups = (uint32_t)K;
    return HC_OK;
}

static int is_known(hc_coll_t coll, const char *key)
{
    static const char *const common[] = {"format",   "collective",       "algorithm", "nodes",
                                         "makespan", "lower_bound",      "events",    "note",
                                         "window",   "window_bdp_factor"};
    static const char *const redist[] = {"n1", "n2", "k", "beta", "cost", "steps"};
    static const char *const bcast[] = {"root",  "segments",      "parent",
                                        "trees", "segment_bytes", "piece_groups"};
    static const char *const reduce[] = {"root", "search", "segment_bytes", "piece_groups",
                                         "split_bytes"};
    static const char *const alltoall[] = {"segment_bytes", "piece_groups", "recv_order",
                                           "relay",         "lead_bytes",   "lead_pieces"};
    for (size_t i = 0; i < sizeof common / sizeof *common; i++)
        if (strcmp(key, common[i]) == 0)
            return 1;
    const char *const *list = NULL;
    size_t n = 0;
    if (coll == HC_COLL_REDISTRIBUTE) {
        list = redist;
        n = sizeof redist / sizeof *redist;
    } else if (coll == HC_COLL_BCAST) {
        list = bcast;
        n = sizeof bcast / sizeof *bcast;
    } else if (coll == HC_COLL_REDUCE) {
        list = reduce;
        n = sizeof reduce / sizeof *reduce;
    } else {
        list = alltoall;
        n = sizeof alltoall / sizeof *alltoall;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, list[i]) == 0)
            return 1;
    return 0;
}

static int parse_event(const ctx_t *c, json_t *o, size_t i, hc_schedule_t *s)
{
    char f[96];
    if (!json_is_object(o)) {
        snprintf(f, sizeof f, "events[%zu]", i);
        return perr(c, f, "must be an object");
    }
    hc_event_t e;
    memset(&e, 0, sizeof e);
    uint64_t bytes = 0;
#define FIELD(name) (snprintf(f, sizeof f, "events[%zu].%s", i, name), f)
    HC__TRY(get_u32(c, o, "src", FIELD("src"), 1, s->P ? s->P - 1 : 0, &e.src));
    HC__TRY(get_u32(c, o, "dst", FIELD("dst"), 1, s->P ? s->P - 1 : 0, &e.dst));
    HC__TRY(get_number(c, o, "start", FIELD("start"), 1, &e.start));
    HC__TRY(get_number(c, o, "end", FIELD("end"), 1, &e.end));
    HC__TRY(get_uint(c, o, "bytes", FIELD("bytes"), 1, (uint64_t)INT64_MAX, &bytes));
    HC__TRY(get_u32(c, o, "seg", FIELD("seg"), 0, UINT32_MAX, &e.seg));
    HC__TRY(get_u32(c, o, "step", FIELD("step"), 0, UINT32_MAX, &e.step));
    uint32_t tree = 0;
    /* TTCC's two trees; a multi-tree reduction's ranges */
    HC__TRY(
        get_u32(c, o, "tree", FIELD("tree"), 0, s->coll == HC_COLL_REDUCE ? UINT8_MAX : 1, &tree));
#undef FIELD
    e.tree = (uint8_t)tree;
    e.bytes = bytes;
    s->events[s->n_events++] = e;
    return HC_OK;
}

static int parse_events(const ctx_t *c, json_t *arr, hc_schedule_t *s)
{
    if (!json_is_array(arr))
        return perr(c, "events", "must be an array");
    size_t n = json_array_size(arr);
    HC__TRY(hc__grow((void **)&s->events, &s->cap_events, n, sizeof *s->events));
    for (size_t i = 0; i < n; i++)
        HC__TRY(parse_event(c, json_array_get(arr, i), i, s));
    return HC_OK;
}

/* ---- streaming: the top-level object split value by value ---- */

static size_t skip_ws(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* "origin:line:column: malformed JSON: what" for byte `off` of the document. */
static int syntax_error(const ctx_t *c, size_t off, const char *what)
{
    int line = 1, col = 1;
    for (size_t k = 0; k < off && c->doc[k]; k++) {
        if (c->doc[k] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return hc__error(HC_ERR_PARSE, "%s:%d:%d: malformed JSON: %s", c->origin, line, col, what);
}

/* One JSON value at t[*i]; *i moves past it. */
static int read_value(const ctx_t *c, const char *t, size_t len, size_t *i, json_t **out)
{
    json_error_t e;
    *out = json_loadb(t + *i, len - *i,
                      JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &e);
    if (!*out)
        return syntax_error(c, *i + (size_t)(e.position > 0 ? e.position : 0), e.text);
    *i += (size_t)e.position;
    return HC_OK;
}

static int parse_events_text(const ctx_t *c, hc_schedule_t *s)
{
    const char *t = c->ev_text;
    size_t len = c->ev_len, i = 1, k = 0; /* past '[' */
    HC__TRY(hc__grow((void **)&s->events, &s->cap_events, c->ev_count, sizeof *s->events));
    for (i = skip_ws(t, len, i); i < len && t[i] != ']';) {
        json_t *o;
        ctx_t sub = *c;
        sub.doc = t; /* positions were checked in the first pass */
        HC__TRY(read_value(&sub, t, len, &i, &o));
        int rc = parse_event(c, o, k++, s);
        json_decref(o);
        if (rc != HC_OK)
            return rc;
        i = skip_ws(t, len, i);
        if (i < len && t[i] == ',')
            i = skip_ws(t, len, i + 1);
    }
    return HC_OK;
}

/* Split the document: every top-level member but "events" into *root; the events array is
 * only checked and counted here (each element decoded and freed) and decoded again, one event
 * at a time, by parse_root. 0: the document is not an object (the caller parses it whole for
 * the usual messages). */
static int split_document(ctx_t *c, const char *t, size_t len, json_t **root)
{
    *root = NULL;
    size_t i = skip_ws(t, len, 0);
    if (i >= len || t[i] != '{')
        return HC_OK;
    json_t *r = json_object();
    if (!r)
        return hc__error(HC_ERR_NOMEM, "out of memory reading %s", c->origin);
    int rc = HC_OK;
    i = skip_ws(t, len, i + 1);
    if (i < len && t[i] == '}') {
        i++;
    } else {
        for (;;) {
            json_t *key = NULL, *val = NULL;
            if (i >= len || t[i] != '"') {
                rc = syntax_error(c, i, "expected a member name in double quotes");
                break;
            }
            if ((rc = read_value(c, t, len, &i, &key)) != HC_OK)
                break;
            const char *k = json_string_value(key);
            i = skip_ws(t, len, i);
            if (i >= len || t[i] != ':') {
                json_decref(key);
                rc = syntax_error(c, i, "expected ':'");
                break;
            }
            i = skip_ws(t, len, i + 1);
            if (json_object_get(r, k) || (strcmp(k, "events") == 0 && c->ev_text)) {
                rc = syntax_error(c, i, "duplicate object key");
                json_decref(key);
                break;
            }
            if (strcmp(k, "events") == 0 && i < len && t[i] == '[') {
                size_t start = i, n = 0;
                i = skip_ws(t, len, i + 1);
                while (rc == HC_OK && (i >= len || t[i] != ']')) {
                    json_t *o;
                    if ((rc = read_value(c, t, len, &i, &o)) != HC_OK)
                        break;
                    json_decref(o);
                    n++;
                    i = skip_ws(t, len, i);
                    if (i < len && t[i] == ',')
                        i = skip_ws(t, len, i + 1);
                    else if (i >= len || t[i] != ']')
                        rc = syntax_error(c, i, "expected ',' or ']' in the events array");
                }
                if (rc == HC_OK) {
                    i++;
                    c->ev_text = t + start;
                    c->ev_len = i - start;
                    c->ev_count = n;
                }
            } else if ((rc = read_value(c, t, len, &i, &val)) == HC_OK) {
                json_object_set_new(r, k, val);
            }
            json_decref(key);
            if (rc != HC_OK)
                break;
            i = skip_ws(t, len, i);
            if (i < len && t[i] == ',') {
                i = skip_ws(t, len, i + 1);
                continue;
            }
            if (i < len && t[i] == '}') {
                i++;
                break;
            }
            rc = syntax_error(c, i, "expected ',' or '}'");
            break;
        }
    }
    if (rc == HC_OK && skip_ws(t, len, i) != len)
        rc = syntax_error(c, skip_ws(t, len, i), "end of file expected");
    if (rc != HC_OK) {
        json_decref(r);
        return rc;
    }
    *root = r;
    return HC_OK;
}

static int parse_steps(const ctx_t *c, json_t *arr, hc_schedule_t *s)
{
    if (!json_is_array(arr))
        return perr(c, "steps", "must be an array");
    size_t n = json_array_size(arr);
    HC__TRY(hc__grow((void **)&s->steps, &s->cap_steps, n, sizeof *s->steps));
    size_t first = 0;
    double start = 0;
    for (size_t k = 0; k < n; k++) {
        json_t *o = json_array_get(arr, k);
        char f[96];
        if (!json_is_object(o)) {
            snprintf(f, sizeof f, "steps[%zu]", k);
            return perr(c, f, "must be an object");
        }
        hc_step_t st;
        snprintf(f, sizeof f, "steps[%zu].duration", k);
        HC__TRY(get_number(c, o, "duration", f, 1, &st.duration));
        json_t *tr = json_object_get(o, "transfers");
        snprintf(f, sizeof f, "steps[%zu].transfers", k);
        if (!json_is_array(tr))
            return perr(c, f, "must be an array");
        st.first = first;
        st.count = json_array_size(tr);
        st.start = start;
        for (size_t t = 0; t < st.count; t++) {
            json_t *x = json_array_get(tr, t);
            uint32_t src = 0, dst = 0;
            snprintf(f, sizeof f, "steps[%zu].transfers[%zu]", k, t);
            if (!json_is_object(x))
                return perr(c, f, "must be an object");
            snprintf(f, sizeof f, "steps[%zu].transfers[%zu].src", k, t);
            HC__TRY(get_u32(c, x, "src", f, 1, UINT32_MAX, &src));
            snprintf(f, sizeof f, "steps[%zu].transfers[%zu].dst", k, t);
            HC__TRY(get_u32(c, x, "dst", f, 1, UINT32_MAX, &dst));
            size_t ei = first + t;
            snprintf(f, sizeof f, "steps[%zu].transfers[%zu]", k, t);
            if (ei >= s->n_events)
                return perr(c, f, "has no matching event (only %zu events)", s->n_events);
            const hc_event_t *e = &s->events[ei];
            if (e->src != src || (uint64_t)e->dst != (uint64_t)dst + s->n1)
                return perr(c, f,
                            "%u -> %u (cluster 2) does not match events[%zu] (%u -> %u, global "
                            "ids)",
                            src, dst, ei, e->src, e->dst);
        }
        first += st.count;
        start += st.duration;
        s->steps[s->n_steps++] = st;
    }
    if (first != s->n_events)
        return perr(c, "steps", "cover %zu transfers but there are %zu events", first, s->n_events);
    return HC_OK;
}

static int parse_search(const ctx_t *c, json_t *o, hc_schedule_t *s)
{
    if (!json_is_object(o))
        return perr(c, "search", "must be an object");
    hc_search_stats_t *st = &s->search;
    HC__TRY(get_number(c, o, "nodes_visited", "search.nodes_visited", 1, &st->nodes_visited));
    HC__TRY(get_number(c, o, "naive_space", "search.naive_space", 1, &st->naive_space));
    HC__TRY(get_number(c, o, "efficiency", "search.efficiency", 1, &st->efficiency));
    json_t *opt = json_object_get(o, "optimal");
    if (json_is_boolean(opt))
        st->optimal = json_is_true(opt);
    else if (json_is_integer(opt))
        st->optimal = json_integer_value(opt) != 0;
    else
        return perr(c, "search.optimal", "must be a boolean");
    json_t *bl = json_object_get(o, "best_lower_bound");
    st->best_lower_bound = NAN;
    if (bl && !json_is_null(bl))
        HC__TRY(get_number(c, o, "best_lower_bound", "search.best_lower_bound", 1,
                           &st->best_lower_bound));
    s->has_search = 1;
    return HC_OK;
}

static int parse_root(const ctx_t *c, json_t *root, hc_schedule_t **out)
{
    if (!json_is_object(root))
        return hc__error(HC_ERR_PARSE, "%s: a schedule must be a JSON object", c->origin);
    json_t *v = json_object_get(root, "format");
    if (!json_is_string(v))
        return perr(c, "format", "must be the string \"%s\"", HC_SCHEDULE_FORMAT);
    if (strcmp(json_string_value(v), HC_SCHEDULE_FORMAT) != 0)
        return perr(c, "format", "unsupported format '%s' (expected \"%s\")", json_string_value(v),
                    HC_SCHEDULE_FORMAT);
    v = json_object_get(root, "collective");
    hc_coll_t coll;
    if (!json_is_string(v) || hc_coll_parse(json_string_value(v), &coll) != HC_OK)
        return perr(c, "collective",
                    "must be one of \"alltoall\", \"redistribute\", \"bcast\", "
                    "\"reduce\"");
    v = json_object_get(root, "algorithm");
    if (v && !json_is_string(v))
        return perr(c, "algorithm", "must be a string");
    uint32_t P = 0;
    HC__TRY(get_u32(c, root, "nodes", "nodes", 1, UINT32_MAX, &P));
    if (P < 1)
        return perr(c, "nodes", "must be >= 1");
    /* per-node arrays, O(P) where a platform's tables are O(P^2): 64 x the platform cap (1M
     * nodes by default); a few bytes of JSON could otherwise ask for gigabytes */
    const uint64_t cap = hc__max_nodes() > UINT32_MAX ? UINT32_MAX : 64 * hc__max_nodes();
    if (P > cap)
        return hc__error(HC_ERR_LIMIT,
                         "%s: field 'nodes': %u nodes, more than the limit of %llu (64 x "
                         "HETCOLL_MAX_NODES)",
                         c->origin, P, (unsigned long long)cap);

    hc_schedule_t *s;
    HC__TRY(hc_schedule_create(coll, P, &s));
    int rc = HC_OK;
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        rc = (expr);                                                                               \
        if (rc != HC_OK)                                                                           \
            goto fail;                                                                             \
    } while (0)
    if (v)
        snprintf(s->algorithm, sizeof s->algorithm, "%s", json_string_value(v));
    if (json_is_null(json_object_get(root, "makespan")))
        s->makespan = NAN; /* written for a makespan that could not be computed */
    else
        TRY(get_number(c, root, "makespan", "makespan", 1, &s->makespan));
    v = json_object_get(root, "lower_bound");
    if (!v)
        TRY(perr(c, "lower_bound", "missing (use null when unknown)"));
    if (!json_is_null(v))
        TRY(get_number(c, root, "lower_bound", "lower_bound", 1, &s->lower_bound));
    if (coll == HC_COLL_BCAST || coll == HC_COLL_REDUCE) {
        TRY(get_u32(c, root, "root", "root", 1, P - 1, &s->root));
    }
    v = json_object_get(root, "window");
    if (v && json_is_string(v) && strcmp(json_string_value(v), "all") == 0)
        s->window = HC_WINDOW_ALL;
    else if (v)
        TRY(get_u32(c, root, "window", "window", 1, HC_WINDOW_ALL - 1, &s->window));
    TRY(get_number(c, root, "window_bdp_factor", "window_bdp_factor", 0, &s->window_bdp_factor));
    if (!(s->window_bdp_factor == 0 ||
          (s->window_bdp_factor >= 1 && s->window_bdp_factor <= HC__MAX_WINDOW_BDP_FACTOR)))
        TRY(perr(c, "window_bdp_factor", "must be a number in [1, %d]", HC__MAX_WINDOW_BDP_FACTOR));
    if (coll == HC_COLL_REDISTRIBUTE) {
        TRY(get_u32(c, root, "n1", "n1", 1, P, &s->n1));
        TRY(get_u32(c, root, "n2", "n2", 1, P, &s->n2));
        if ((uint64_t)s->n1 + s->n2 != P)
            TRY(perr(c, "n2", "n1 + n2 must equal nodes (%u + %u != %u)", s->n1, s->n2, P));
        TRY(get_u32(c, root, "k", "k", 1, UINT32_MAX, &s->k));
        TRY(get_number(c, root, "beta", "beta", 1, &s->beta));
        double cost = 0;
        TRY(get_number(c, root, "cost", "cost", 0, &cost));
    }
    if (coll == HC_COLL_BCAST) {
        TRY(get_u32(c, root, "segments", "segments", 0, UINT32_MAX, &s->n_segments));
        if (s->n_segments < 1)
            TRY(perr(c, "segments", "must be >= 1"));
        json_t *trees = json_object_get(root, "trees");
        json_t *par = json_object_get(root, "parent");
        if (trees) {
            if (!json_is_array(trees) || json_array_size(trees) != 2)
                TRY(perr(c, "trees", "must be an array of two parent arrays"));
            if (!par)
                TRY(parse_tree(c, json_array_get(trees, 0), "trees[0]", P, &s->parent));
            TRY(parse_tree(c, json_array_get(trees, 1), "trees[1]", P, &s->parent2));
        }
        if (par)
            TRY(parse_tree(c, par, "parent", P, &s->parent));
    }
    json_t *ev = json_object_get(root, "events");
    if (c->ev_text)
        TRY(parse_events_text(c, s));
    else if (!ev)
        TRY(perr(c, "events", "missing"));
    else
        TRY(parse_events(c, ev, s));
    if (coll == HC_COLL_REDISTRIBUTE) {
        json_t *st = json_object_get(root, "steps");
        if (!st && s->n_events)
            TRY(perr(c, "steps", "missing"));
        if (st)
            TRY(parse_steps(c, st, s));
    }
    if (coll == HC_COLL_REDUCE && json_object_get(root, "search"))
        TRY(parse_search(c, json_object_get(root, "search"), s));
    if (coll != HC_COLL_REDISTRIBUTE)
        TRY(get_uint(c, root, "segment_bytes", "segment_bytes", 0, UINT32_MAX, &s->segment_bytes));
    if (coll != HC_COLL_REDISTRIBUTE && json_object_get(root, "piece_groups"))
        TRY(parse_tree(c, json_object_get(root, "piece_groups"), "piece_groups", P,
                       &s->piece_groups));
    if (coll == HC_COLL_REDUCE)
        TRY(get_uint(c, root, "split_bytes", "split_bytes", 0, UINT32_MAX, &s->split_bytes));
    v = coll == HC_COLL_ALLTOALL ? json_object_get(root, "recv_order") : NULL;
    if (v && json_is_string(v) && strcmp(json_string_value(v), "round-robin") == 0)
        s->recv_order = HC_RECV_ROUND_ROBIN;
    else if (v && !(json_is_string(v) && strcmp(json_string_value(v), "messages") == 0))
        TRY(perr(c, "recv_order", "must be \"messages\" or \"round-robin\""));
    v = coll == HC_COLL_ALLTOALL ? json_object_get(root, "relay") : NULL;
    if (v && json_is_string(v) && strcmp(json_string_value(v), "forwarders") == 0)
        s->relay = HC_RELAY_FORWARDERS;
    else if (v && !(json_is_string(v) && strcmp(json_string_value(v), "none") == 0))
        TRY(perr(c, "relay", "must be \"none\" or \"forwarders\""));
    if (s->relay && !s->piece_groups)
        TRY(perr(c, "relay",
                 "\"forwarders\" needs piece_groups (the groups the forwarders serve)"));
    v = coll == HC_COLL_ALLTOALL ? json_object_get(root, "lead_pieces") : NULL;
    if (v)
        TRY(parse_leads(c, root, v, s));
    else if (coll == HC_COLL_ALLTOALL && json_object_get(root, "lead_bytes"))
        TRY(perr(c, "lead_bytes", "needs lead_pieces"));
    v = json_object_get(root, "note");
    if (v) {
        if (!json_is_string(v))
            TRY(perr(c, "note", "must be a string"));
        if (!(s->note = hc__strdup(json_string_value(v))))
            TRY(hc__error(HC_ERR_NOMEM, "out of memory reading %s", c->origin));
    }
    {
        json_t *extra = json_object();
        const char *key;
        json_t *val;
        if (!extra)
            TRY(hc__error(HC_ERR_NOMEM, "out of memory reading %s", c->origin));
        json_object_foreach(root, key, val)
        {
            if (!is_known(coll, key))
                json_object_set(extra, key, val);
        }
        if (json_object_size(extra) > 0) {
            s->extra_json = json_dumps(extra, DUMP_FLAGS);
            if (!s->extra_json) {
                json_decref(extra);
                TRY(hc__error(HC_ERR_NOMEM, "out of memory reading %s", c->origin));
            }
        }
        json_decref(extra);
    }
#undef TRY
    *out = s;
    return HC_OK;
fail:
    hc_schedule_destroy(s);
    return rc;
}

int hc_schedule_parse(const char *text, const char *origin, hc_schedule_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_schedule_parse: NULL output");
    *out = NULL;
    ctx_t c;
    c.origin = origin ? origin : "<schedule>";
    if (!text)
        return hc__error(HC_ERR_INVAL, "%s: NULL text", c.origin);
    c.doc = text;
    c.ev_text = NULL;
    c.ev_len = c.ev_count = 0;
    json_t *root;
    HC__TRY(split_document(&c, text, strlen(text), &root));
    if (!root) { /* not an object: the whole-document parser gives the usual messages */
        json_error_t jerr;
        root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
        if (!root)
            return hc__error(HC_ERR_PARSE, "%s:%d:%d: malformed JSON: %s", c.origin, jerr.line,
                             jerr.column, jerr.text);
    }
    int rc = parse_root(&c, root, out);
    json_decref(root);
    return rc;
}

int hc_schedule_load(const char *path, hc_schedule_t **out)
{
    if (!out)
        return hc__error(HC_ERR_INVAL, "hc_schedule_load: NULL output");
    *out = NULL;
    if (!path)
        return hc__error(HC_ERR_INVAL, "hc_schedule_load: NULL path");
    char *text = NULL;
    size_t len = 0;
    HC__TRY(hc__read_file(path, &text, &len));
    if (strlen(text) != len) {
        free(text);
        return hc__error(HC_ERR_PARSE, "%s: file contains a NUL byte", path);
    }
    int rc = hc_schedule_parse(text, path, out);
    free(text);
    return rc;
}
