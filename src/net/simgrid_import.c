/* SimGrid platforms as input: the "simgrid:[hostfile=H:][np=N:]FILE.xml" platform spec
 * (docs/formats.md, "SimGrid platforms as input").
 *
 * SimGrid itself reads the platform, so every construct it knows (clusters, zones of any
 * routing, zoneRoutes, link directions, sharing policies) is understood exactly as SMPI would.
 * Its engine is a per-process singleton that cannot load a second platform, and it aborts on a
 * bad file, so the work is done in a forked child: it dlopen()s libsimgrid (a process that never
 * imports a SimGrid platform does not pay for loading it and its dependencies), builds the
 * platform and writes it as hetcoll-platform/2 JSON to a pipe; the parent parses that. The
 * child's stdout and stderr go to a second pipe, from which the parent keeps the error message.
 *
 * Nodes: the hostfile's lines (SMPI's rank -> host mapping), else the hosts in document order.
 * SimGrid's host list is sorted by name (s4u::Engine::get_filtered_hosts), so the order is read
 * from the document with a small tag scanner and checked against SimGrid's host set. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, poll, kill, dlopen */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hetcoll/links.h"
#include "net_internal.h"

#ifndef HC_HAVE_SIMGRID_LIB

int hc__platform_simgrid(const char *spec, hc_platform_t **out)
{
    *out = NULL;
    return hc__error(HC_ERR_UNSUPPORTED,
                     "simgrid:%s: built without SimGrid (libsimgrid was not found when hetcoll "
                     "was configured%s)",
                     spec,
#ifdef HC_SIMGRID_SANITIZE
                     ", or the build uses the sanitizers"
#else
                     ""
#endif
    );
}

#else

#include <dlfcn.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the spec and the hostfile (parent) ---- */

typedef struct {
    char *hostfile; /* NULL: none */
    uint64_t np;    /* 0: all */
    const char *file;
} sg_spec_t;

/* "[hostfile=H:][np=N:]FILE", keys in any order. */
static int parse_spec(const char *spec, sg_spec_t *s)
{
    memset(s, 0, sizeof *s);
    const char *p = spec;
    for (;;) {
        if (strncmp(p, "hostfile=", 9) == 0 && !s->hostfile) {
            const char *colon = strchr(p + 9, ':');
            if (!colon || colon == p + 9)
                break;
            s->hostfile = malloc((size_t)(colon - p - 9) + 1);
            if (!s->hostfile)
                return hc__error(HC_ERR_NOMEM, "out of memory");
            memcpy(s->hostfile, p + 9, (size_t)(colon - p - 9));
            s->hostfile[colon - p - 9] = '\0';
            p = colon + 1;
        } else if (strncmp(p, "np=", 3) == 0 && !s->np) {
            char *end = NULL;
            errno = 0;
            unsigned long long v = strtoull(p + 3, &end, 10);
            if (end == p + 3 || *end != ':' || errno || v == 0 || v > hc__max_nodes() ||
                !isdigit((unsigned char)p[3])) {
                free(s->hostfile);
                return hc__error(HC_ERR_PARSE,
                                 "simgrid:%s: np must be a whole number in [1, %llu] "
                                 "(simgrid:[hostfile=H:][np=N:]FILE.xml)",
                                 spec, (unsigned long long)hc__max_nodes());
            }
            s->np = v;
            p = end + 1;
        } else {
            break;
        }
    }
    s->file = p;
    if (!*p) {
        free(s->hostfile);
        return hc__error(HC_ERR_PARSE,
                         "simgrid:%s: missing file name (simgrid:[hostfile=H:][np=N:]FILE.xml)",
                         spec);
    }
    return HC_OK;
}

typedef struct {
    char **v;
    size_t n, cap;
} strv_t;

static void strv_free(strv_t *s)
{
    for (size_t k = 0; k < s->n; k++)
        free(s->v[k]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int strv_push(strv_t *s, const char *str, size_t len)
{
    HC__TRY(hc__grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v));
    char *d = malloc(len + 1);
    if (!d)
        return hc__error(HC_ERR_NOMEM, "out of memory");
    memcpy(d, str, len);
    d[len] = '\0';
    s->v[s->n++] = d;
    return HC_OK;
}

/* An SMPI hostfile: one host per line, blank lines skipped, "name:count" = count lines of name
 * (smpirun unrolls it so). */
static int read_hostfile(const char *spec, const char *path, strv_t *out)
{
    char *text = NULL;
    int rc = hc__read_file(path, &text, NULL);
    if (rc != HC_OK)
        return hc__error(rc, "simgrid:%s: hostfile: %s", spec, hc_error_detail());
    unsigned line = 0;
    for (char *p = text; rc == HC_OK && *p;) {
        char *eol = strchr(p, '\n');
        char *next = eol ? eol + 1 : p + strlen(p);
        char *e = eol ? eol : next;
        line++;
        while (p < e && isspace((unsigned char)*p))
            p++;
        while (e > p && isspace((unsigned char)e[-1]))
            e--;
        if (e > p) {
            unsigned long count = 1;
            char *colon = memchr(p, ':', (size_t)(e - p));
            if (colon) {
                char *end = NULL;
                errno = 0;
                count = strtoul(colon + 1, &end, 10);
                if (end != e || colon + 1 == e || errno || count == 0 || count > hc__max_nodes() ||
                    !isdigit((unsigned char)colon[1]))
                    rc = hc__error(HC_ERR_PARSE,
                                   "simgrid:%s: hostfile %s: line %u: expected NAME or NAME:COUNT "
                                   "(COUNT a whole number > 0)",
                                   spec, path, line);
                e = colon;
            }
            if (rc == HC_OK && e == p)
                rc = hc__error(HC_ERR_PARSE, "simgrid:%s: hostfile %s: line %u: empty host name",
                               spec, path, line);
            for (unsigned long k = 0; rc == HC_OK && k < count; k++) {
                if (out->n >= hc__max_nodes())
                    rc = hc__error(HC_ERR_LIMIT, "simgrid:%s: hostfile %s: more than %llu ranks",
                                   spec, path, (unsigned long long)hc__max_nodes());
                else
                    rc = strv_push(out, p, (size_t)(e - p));
            }
        }
        p = next;
    }
    free(text);
    if (rc == HC_OK && out->n == 0)
        rc = hc__error(HC_ERR_PARSE, "simgrid:%s: hostfile %s has no host", spec, path);
    if (rc != HC_OK)
        strv_free(out);
    return rc;
}

/* ---- document order (child): <host>, <peer>, <cluster>/<cabinet> radicals, with the
 * innermost enclosing zone (or the cluster itself) as the node's cluster label ---- */

typedef struct {
    strv_t names, labels;
} sg_order_t;

/* Value of attribute `key` in the tag text [t, e) (quotes ' or "), or 0 when absent. */
static int attr(const char *t, const char *e, const char *key, const char **v, size_t *vlen)
{
    size_t kl = strlen(key);
    for (const char *p = t; p + kl < e; p++) {
        if (strncmp(p, key, kl) != 0 || !isspace((unsigned char)p[-1]))
            continue;
        const char *q = p + kl;
        while (q < e && isspace((unsigned char)*q))
            q++;
        if (q >= e || *q != '=')
            continue;
        q++;
        while (q < e && isspace((unsigned char)*q))
            q++;
        if (q >= e || (*q != '"' && *q != '\''))
            continue;
        const char *end = memchr(q + 1, *q, (size_t)(e - q - 1));
        if (!end)
            return 0;
        *v = q + 1;
        *vlen = (size_t)(end - q - 1);
        return 1;
    }
    return 0;
}

static int add_host(sg_order_t *o, const char *name, size_t len, const char *label, size_t llen)
{
    HC__TRY(strv_push(&o->names, name, len));
    return strv_push(&o->labels, label, llen);
}

/* prefix + i + suffix for i in radical "a-b,c,...". */
static int add_radical(sg_order_t *o, const char *t, const char *e, const char *label, size_t llen)
{
    const char *pre = "", *suf = "", *rad = NULL;
    size_t pl = 0, sl = 0, rl = 0;
    attr(t, e, "prefix", &pre, &pl);
    attr(t, e, "suffix", &suf, &sl);
    if (!attr(t, e, "radical", &rad, &rl))
        return HC_OK;
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)(rl < 63 ? rl : 63), rad);
    for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
        char *end = NULL;
        long a = strtol(item, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, NULL, 10);
        for (long i = a; i <= b && i - a < (long)hc__max_nodes(); i++) {
            char name[512];
            int n = snprintf(name, sizeof name, "%.*s%ld%.*s", (int)pl, pre, i, (int)sl, suf);
            if (n > 0 && (size_t)n < sizeof name)
                HC__TRY(add_host(o, name, (size_t)n, label, llen));
        }
    }
    return HC_OK;
}

static int scan_order(const char *text, sg_order_t *o)
{
    /* open zone-like elements (zone, AS, cluster): their ids */
    const char *stack_id[64];
    size_t stack_len[64];
    int stack_zone[64];
    size_t depth = 0;
    for (const char *p = strchr(text, '<'); p; p = strchr(p, '<')) {
        if (strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p + 4, "-->");
            p = e ? e + 3 : p + strlen(p);
            continue;
        }
        if (p[1] == '?' || p[1] == '!') {
            const char *e = strchr(p, '>');
            p = e ? e + 1 : p + strlen(p);
            continue;
        }
        /* the tag's end, outside quotes */
        const char *e = p + 1;
        char quote = 0;
        for (; *e && (quote || *e != '>'); e++)
            if (quote && *e == quote)
                quote = 0;
            else if (!quote && (*e == '"' || *e == '\''))
                quote = *e;
        if (!*e)
            break;
        if (p[1] == '/') {
            if (depth)
                depth--;
            p = e + 1;
            continue;
        }
        const char *nm = p + 1;
        size_t nl = 0;
        while (nm + nl < e && !isspace((unsigned char)nm[nl]) && nm[nl] != '/')
            nl++;
        int self_closing = e[-1] == '/';
        const char *id = "", *lab = "";
        size_t il = 0, ll = 0;
        attr(p, e, "id", &id, &il);
        for (size_t d = depth; d-- > 0;)
            if (stack_zone[d]) {
                lab = stack_id[d];
                ll = stack_len[d];
                break;
            }
        int zone =
            (nl == 4 && strncmp(nm, "zone", 4) == 0) || (nl == 2 && strncmp(nm, "AS", 2) == 0);
        int cluster = nl == 7 && strncmp(nm, "cluster", 7) == 0;
        if ((nl == 4 && strncmp(nm, "host", 4) == 0) || (nl == 4 && strncmp(nm, "peer", 4) == 0)) {
            if (il)
                HC__TRY(add_host(o, id, il, lab, ll));
        } else if (cluster) {
            HC__TRY(add_radical(o, p, e, id, il));
        } else if (nl == 7 && strncmp(nm, "cabinet", 7) == 0) {
            HC__TRY(add_radical(o, p, e, lab, ll));
        }
        if (!self_closing) {
            if (depth < 64) {
                stack_id[depth] = id;
                stack_len[depth] = il;
                stack_zone[depth] = zone || cluster;
            }
            depth++;
        }
        p = e + 1;
    }
    return HC_OK;
}

/* ---- the child: SimGrid's C API through dlopen ---- */

typedef void *sgh_t; /* sg_host_t, sg_link_t, xbt_dynar_t: opaque here */

typedef struct {
    void (*init)(int *, char **);
    void (*load_platform)(const char *);
    void (*run)(void);
    size_t (*host_count)(void);
    sgh_t *(*host_list)(void);
    sgh_t (*host_by_name)(const char *);
    const char *(*host_name)(sgh_t);
    void (*host_route)(sgh_t, sgh_t, sgh_t);
    const char *(*link_name)(sgh_t);
    double (*link_bw)(sgh_t);
    double (*link_lat)(sgh_t);
    int (*link_shared)(sgh_t);
    sgh_t (*dynar_new)(unsigned long, void (*)(void *));
    unsigned long (*dynar_length)(sgh_t);
    void *(*dynar_get_ptr)(sgh_t, unsigned long);
    void (*dynar_reset)(sgh_t);
} sg_api_t;

static int load_api(sg_api_t *a)
{
    void *h = dlopen(HC_SIMGRID_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return hc__error(HC_ERR_UNSUPPORTED, "cannot load %s: %s", HC_SIMGRID_SONAME, dlerror());
    struct {
        const char *sym;
        void **slot;
    } tab[] = {
        {"simgrid_init", (void **)&a->init},
        {"simgrid_load_platform", (void **)&a->load_platform},
        {"simgrid_run", (void **)&a->run},
        {"sg_host_count", (void **)&a->host_count},
        {"sg_host_list", (void **)&a->host_list},
        {"sg_host_by_name", (void **)&a->host_by_name},
        {"sg_host_get_name", (void **)&a->host_name},
        {"sg_host_get_route", (void **)&a->host_route},
        {"sg_link_get_name", (void **)&a->link_name},
        {"sg_link_get_bandwidth", (void **)&a->link_bw},
        {"sg_link_get_latency", (void **)&a->link_lat},
        {"sg_link_is_shared", (void **)&a->link_shared},
        {"xbt_dynar_new", (void **)&a->dynar_new},
        {"xbt_dynar_length", (void **)&a->dynar_length},
        {"xbt_dynar_get_ptr", (void **)&a->dynar_get_ptr},
        {"xbt_dynar_reset", (void **)&a->dynar_reset},
    };
    for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
        /* POSIX: a data pointer holds a function address; copy it through memcpy. */
        void *f = dlsym(h, tab[k].sym);
        if (!f)
            return hc__error(HC_ERR_UNSUPPORTED, "%s has no symbol %s", HC_SIMGRID_SONAME,
                             tab[k].sym);
        memcpy(tab[k].slot, &f, sizeof f);
    }
    return HC_OK;
}

/* Link pointer -> hetcoll link id (open addressing; routes revisit the same links often). */
typedef struct {
    sgh_t *key;
    uint32_t *id;
    size_t cap, n;
} link_map_t;

static int link_id(link_map_t *m, const sg_api_t *a, hc_platform_t *p, sgh_t l, uint32_t *id)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        sgh_t *key = calloc(cap, sizeof *key);
        uint32_t *ids = calloc(cap, sizeof *ids);
        if (!key || !ids) {
            free(key);
            free(ids);
            return hc__error(HC_ERR_NOMEM, "out of memory");
        }
        for (size_t k = 0; k < m->cap; k++)
            if (m->key[k]) {
                size_t h = ((uintptr_t)m->key[k] >> 4) & (cap - 1);
                while (key[h])
                    h = (h + 1) & (cap - 1);
                key[h] = m->key[k];
                ids[h] = m->id[k];
            }
        free(m->key);
        free(m->id);
        m->key = key;
        m->id = ids;
        m->cap = cap;
    }
    size_t h = ((uintptr_t)l >> 4) & (m->cap - 1);
    while (m->key[h] && m->key[h] != l)
        h = (h + 1) & (m->cap - 1);
    if (m->key[h]) {
        *id = m->id[h];
        return HC_OK;
    }
    /* SHARED and each half of a SPLITDUPLEX link are shared; FATPIPE is not */
    HC__TRY(hc_platform_add_link(p, a->link_name(l), a->link_bw(l), a->link_lat(l),
                                 a->link_shared(l) ? HC_LINK_SHARED : HC_LINK_FATPIPE, id));
    m->key[h] = l;
    m->id[h] = *id;
    m->n++;
    return HC_OK;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Build the platform of `file` (text: its contents) with SimGrid; hosts: the hostfile's (NULL:
 * document order); np: ranks (0: all, wrapping around the host list as SMPI does). */
static int child_build(const char *file, const char *text, const strv_t *hosts, uint64_t np,
                       hc_platform_t **out)
{
    sg_api_t a;
    HC__TRY(load_api(&a));
    /* SimGrid's own log lines: the message alone, so the parent can quote it */
    char arg0[] = "hetcoll", arg1[] = "--log=root.fmt:%m%n";
    char *argv[] = {arg0, arg1, NULL};
    int argc = 2;
    a.init(&argc, argv);
    a.load_platform(file);
    /* Running the (empty) simulation seals the platform: Floyd and Dijkstra zones compute
     * their routes then, and without it have none. */
    a.run();

    size_t H = a.host_count();
    sgh_t *all = H ? a.host_list() : NULL;
    sg_order_t o = {{0}, {0}};
    int rc = HC_OK;
    strv_t order = {0};
    /* node names in order, each with its label ("" = none) */
    if (hosts) {
        for (size_t k = 0; rc == HC_OK && k < hosts->n; k++)
            if (!a.host_by_name(hosts->v[k]))
                rc = hc__error(HC_ERR_UNKNOWN, "hostfile: host '%s' is not in the platform",
                               hosts->v[k]);
        if (rc == HC_OK)
            rc = scan_order(text, &o);
        for (size_t k = 0; rc == HC_OK && k < hosts->n; k++)
            rc = strv_push(&order, hosts->v[k], strlen(hosts->v[k]));
    } else {
        rc = scan_order(text, &o);
        /* the scanned names SimGrid knows, once each, then any left in SimGrid's order */
        char *taken = calloc(H ? H : 1, 1);
        if (!taken && rc == HC_OK)
            rc = hc__error(HC_ERR_NOMEM, "out of memory");
        for (size_t k = 0; rc == HC_OK && k < o.names.n; k++) {
            sgh_t h = a.host_by_name(o.names.v[k]);
            for (size_t m = 0; h && m < H; m++)
                if (all[m] == h && !taken[m]) {
                    taken[m] = 1;
                    rc = strv_push(&order, o.names.v[k], strlen(o.names.v[k]));
                }
        }
        for (size_t m = 0; rc == HC_OK && m < H; m++)
            if (!taken[m])
                rc = strv_push(&order, a.host_name(all[m]), strlen(a.host_name(all[m])));
        free(taken);
    }
    free(all);
    if (rc == HC_OK && order.n == 0)
        rc = hc__error(HC_ERR_VALUE, "the platform has no host");
    size_t P = np ? (size_t)np : order.n;
    if (rc == HC_OK && P > hc__max_nodes())
        rc = hc__error(HC_ERR_LIMIT, "%zu nodes: more than %llu", P,
                       (unsigned long long)hc__max_nodes());
    hc_platform_t *p = NULL;
    sgh_t *node = NULL;
    if (rc == HC_OK)
        rc = hc_platform_create((uint32_t)P, 1, 1, &p);
    if (rc == HC_OK && !(node = calloc(P, sizeof *node)))
        rc = hc__error(HC_ERR_NOMEM, "out of memory");
    if (rc == HC_OK) {
        char name[256];
        snprintf(name, sizeof name, "%s", base_name(file));
        char *dot = strrchr(name, '.');
        if (dot && dot != name)
            *dot = '\0';
        rc = hc_platform_set_name(p, name);
    }
    for (size_t i = 0; rc == HC_OK && i < P; i++) {
        const char *nm = order.v[i % order.n];
        node[i] = a.host_by_name(nm);
        /* node names are unique: a host's second rank is "NAME#2" */
        unsigned seen = 1;
        for (size_t k = 0; k < i; k++)
            seen += node[k] == node[i];
        char uniq[600];
        snprintf(uniq, sizeof uniq, seen > 1 ? "%s#%u" : "%s", nm, seen);
        rc = hc_platform_set_node_name(p, (uint32_t)i, uniq);
        for (size_t k = 0; rc == HC_OK && k < o.names.n; k++)
            if (strcmp(o.names.v[k], nm) == 0) {
                if (*o.labels.v[k])
                    rc = hc_platform_set_cluster(p, (uint32_t)i, o.labels.v[k]);
                break;
            }
    }
    link_map_t lm = {0};
    sgh_t route = a.dynar_new(sizeof(void *), NULL);
    hc_hop_t *hops = NULL;
    size_t hcap = 0;
    for (size_t i = 0; rc == HC_OK && i < P; i++)
        for (size_t j = 0; rc == HC_OK && j < P; j++) {
            if (i == j)
                continue;
            a.dynar_reset(route);
            a.host_route(node[i], node[j], route);
            unsigned long n = a.dynar_length(route);
            if (n == 0) {
                rc = hc__error(HC_ERR_VALUE, "no route from %s to %s%s", order.v[i % order.n],
                               order.v[j % order.n],
                               node[i] == node[j] ? " (a host used twice needs a loopback link)"
                                                  : "");
                break;
            }
            if ((rc = hc__grow((void **)&hops, &hcap, n, sizeof *hops)) != HC_OK)
                break;
            for (unsigned long k = 0; rc == HC_OK && k < n; k++) {
                sgh_t l = *(sgh_t *)a.dynar_get_ptr(route, k);
                hops[k].down = 0; /* SimGrid splits a split-duplex link into two links */
                rc = link_id(&lm, &a, p, l, &hops[k].link);
            }
            if (rc == HC_OK)
                rc = hc_platform_set_route(p, (uint32_t)i, (uint32_t)j, n, hops);
        }
    free(hops);
    free(lm.key);
    free(lm.id);
    free(node);
    strv_free(&order);
    strv_free(&o.names);
    strv_free(&o.labels);
    if (rc == HC_OK)
        *out = p;
    else
        hc_platform_destroy(p);
    return rc;
}

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

#define DETAIL_TAG "hetcoll-simgrid-import: "

/* The child's whole life; never returns. */
static void child_main(int json_fd, int err_fd, const char *file, const char *text,
                       const strv_t *hosts, uint64_t np)
{
    /* the child's chatter (and any of the parent's stdio buffers flushed by an exit()) goes to
     * the parent's error pipe, never to its stdout */
    dup2(err_fd, 1);
    dup2(err_fd, 2);
    signal(SIGPIPE, SIG_DFL);
    hc_platform_t *p = NULL;
    char *json = NULL;
    int rc = child_build(file, text, hosts, np, &p);
    if (rc == HC_OK)
        rc = hc_platform_to_json(p, &json);
    if (rc != HC_OK) {
        const char *d = hc_error_detail();
        write_all(2, DETAIL_TAG, strlen(DETAIL_TAG));
        write_all(2, d, strlen(d));
        write_all(2, "\n", 1);
        _exit(-rc < 100 ? -rc : 100);
    }
    write_all(json_fd, json, strlen(json));
    _exit(0);
}

/* ---- the parent ---- */

typedef struct {
    char *buf;
    size_t len, cap;
} buf_t;

static int buf_read(int fd, buf_t *b, size_t limit, int *eof)
{
    if (hc__grow((void **)&b->buf, &b->cap, b->len + 65536 + 1, 1) != HC_OK)
        return hc__error(HC_ERR_NOMEM, "out of memory");
    ssize_t r = read(fd, b->buf + b->len, 65536);
    if (r < 0)
        return errno == EINTR || errno == EAGAIN
                   ? HC_OK
                   : hc__error(HC_ERR_IO, "read: %s", strerror(errno));
    if (r == 0) {
        *eof = 1;
    } else {
        b->len += (size_t)r;
        /* keep only the tail of a chatty stderr */
        if (limit && b->len > limit) {
            memmove(b->buf, b->buf + b->len - limit / 2, limit / 2);
            b->len = limit / 2;
        }
    }
    b->buf[b->len] = '\0';
    return HC_OK;
}

/* The message worth quoting from the child's stderr: our own detail line, else SimGrid's first
 * error message (SimGrid adds "Exiting now." and a backtrace), else its last line. */
static void child_message(char *err, char *msg, size_t cap)
{
    char *best = NULL;
    for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n")) {
        while (isspace((unsigned char)*line))
            line++;
        if (strncmp(line, DETAIL_TAG, strlen(DETAIL_TAG)) == 0) {
            best = line + strlen(DETAIL_TAG);
            break;
        }
        /* SimGrid's default log prefix, in case its format option was not honoured */
        char *tag = strstr(line, "/CRITICAL] ");
        if (!tag)
            tag = strstr(line, "/ERROR] ");
        if (tag)
            line = strstr(tag, "] ") + 2;
        if (strncmp(line, "Uncaught exception ", 19) == 0) {
            char *colon = strstr(line, ": ");
            line = colon ? colon + 2 : line + 19;
        }
        if (!best && *line && strcmp(line, "Exiting now.") != 0 && !strstr(line, "acktrace") &&
            strncmp(line, "->", 2) != 0)
            best = line;
    }
    snprintf(msg, cap, "%s", best ? best : "no message");
}

int hc__platform_simgrid(const char *spec, hc_platform_t **out)
{
    *out = NULL;
    sg_spec_t s;
    HC__TRY(parse_spec(spec, &s));
    strv_t hosts = {0};
    char *text = NULL;
    int rc = HC_OK;
    if (s.hostfile)
        rc = read_hostfile(spec, s.hostfile, &hosts);
    if (rc == HC_OK && (rc = hc__read_file(s.file, &text, NULL)) != HC_OK)
        rc = hc__error(rc, "simgrid:%s: %s", spec, hc_error_detail());
    int have_hostfile = s.hostfile != NULL;
    free(s.hostfile);
    if (rc != HC_OK) {
        strv_free(&hosts);
        return rc;
    }
    int jp[2] = {-1, -1}, ep[2] = {-1, -1};
    pid_t pid = -1;
    if (pipe(jp) != 0 || pipe(ep) != 0) {
        rc = hc__error(HC_ERR_IO, "simgrid:%s: pipe: %s", spec, strerror(errno));
    } else {
        fflush(NULL); /* nothing buffered is written twice */
        pid = fork();
        if (pid < 0)
            rc = hc__error(HC_ERR_IO, "simgrid:%s: fork: %s", spec, strerror(errno));
    }
    if (pid == 0) {
        close(jp[0]);
        close(ep[0]);
        child_main(jp[1], ep[1], s.file, text, have_hostfile ? &hosts : NULL, s.np);
    }
    free(text);
    strv_free(&hosts);
    if (jp[1] >= 0)
        close(jp[1]);
    if (ep[1] >= 0)
        close(ep[1]);
    buf_t json = {0}, err = {0};
    int jeof = pid < 0, eeof = pid < 0;
    while (rc == HC_OK && (!jeof || !eeof)) {
        struct pollfd fds[2] = {{jeof ? -1 : jp[0], POLLIN, 0}, {eeof ? -1 : ep[0], POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno != EINTR)
                rc = hc__error(HC_ERR_IO, "simgrid:%s: poll: %s", spec, strerror(errno));
            continue;
        }
        if (!jeof && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            rc = buf_read(jp[0], &json, 0, &jeof);
        if (rc == HC_OK && !eeof && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            rc = buf_read(ep[0], &err, 1 << 16, &eeof);
    }
    if (jp[0] >= 0)
        close(jp[0]);
    if (ep[0] >= 0)
        close(ep[0]);
    int status = 0, waited = 0;
    if (pid > 0) {
        if (rc != HC_OK)
            kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        waited = 1;
    }
    if (rc == HC_OK && waited) {
        char msg[1024];
        child_message(err.buf ? err.buf : (char[]){""}, msg, sizeof msg);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && json.len) {
            char origin[4096];
            snprintf(origin, sizeof origin, "simgrid:%s", spec);
            rc = hc_platform_parse(json.buf, origin, out);
        } else if (WIFEXITED(status) && WEXITSTATUS(status) > 0 && WEXITSTATUS(status) < 100)
            rc = hc__error(-WEXITSTATUS(status), "simgrid:%s: %s", spec, msg);
        else if (WIFSIGNALED(status))
            rc = hc__error(HC_ERR_PARSE, "simgrid:%s: SimGrid could not load %s: %s", spec, s.file,
                           msg);
        else
            rc = hc__error(HC_ERR_PARSE, "simgrid:%s: SimGrid could not load %s (exit %d): %s",
                           spec, s.file, WIFEXITED(status) ? WEXITSTATUS(status) : -1, msg);
    }
    free(json.buf);
    free(err.buf);
    return rc;
}

#endif
