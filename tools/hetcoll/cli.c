/* Shared helpers of the hetcoll command-line tool: errors, number/size/list parsing, output. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* Print `msg` on stderr with newlines and tabs flattened, so that errors stay on one line. */
static void put_flat(const char *msg)
{
    for (const char *c = msg; *c; c++)
        fputc((*c == '\n' || *c == '\r' || *c == '\t') ? ' ' : *c, stderr);
}

int cli_fail(int status, const char *context)
{
    const char *detail = hc_error_detail();
    fputs("hetcoll: ", stderr);
    if (detail && *detail) {
        if (context && *context && !strstr(detail, context)) {
            put_flat(context);
            fputs(": ", stderr);
        }
        put_flat(detail);
    } else {
        if (context && *context) {
            put_flat(context);
            fputs(": ", stderr);
        }
        put_flat(hc_strerror(status));
    }
    fputc('\n', stderr);
    return CLI_ERROR;
}

int cli_error(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fputs("hetcoll: ", stderr);
    put_flat(buf);
    fputc('\n', stderr);
    return CLI_ERROR;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hetcoll %s: ", cmd);
    put_flat(buf);
    fprintf(stderr, " (try 'hetcoll %s --help')\n", cmd);
    return CLI_USAGE;
}

int cli_value_error(const char *cmd, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hetcoll %s: ", cmd);
    put_flat(buf);
    fprintf(stderr, " (try 'hetcoll %s --help')\n", cmd);
    return CLI_ERROR;
}

void cli_deprecated(const char *old_spelling, const char *new_spelling)
{
    static char seen[16][64];
    static size_t n_seen;
    for (size_t i = 0; i < n_seen; i++)
        if (strcmp(seen[i], old_spelling) == 0)
            return;
    if (n_seen < sizeof seen / sizeof seen[0])
        snprintf(seen[n_seen++], sizeof seen[0], "%s", old_spelling);
    fprintf(stderr, "hetcoll: note: %s is deprecated; use %s\n", old_spelling, new_spelling);
}

int cli_algo_find(hc_coll_t coll, const char *name, const hc_algo_info_t **out)
{
    int st = hc_algo_find(coll, name, out);
    if (st == HC_OK && strcmp((*out)->name, name) != 0) {
        char o[96], n[96];
        snprintf(o, sizeof o, "algorithm name '%s'", name);
        snprintf(n, sizeof n, "'%s'", (*out)->name);
        cli_deprecated(o, n);
    }
    return st;
}

int cli_bad_option(const char *cmd, int optopt_value, char **argv)
{
    const char *word = (optind > 0) ? argv[optind - 1] : "?";
    if (optopt_value == ':')
        return cli_usage_error(cmd, "option '%s' needs an argument", word);
    if (optopt && optopt != '?' && optopt != ':' && !(word && word[0] == '-' && word[1] == '-'))
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return cli_usage_error(cmd, "unknown option '%s'", word ? word : "?");
}

int cli_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    if (strpbrk(s, "xXpP")) /* decimal only: no hexadecimal floats */
        return -1;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v) || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (cli_parse_u64(s, &v) != 0 || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int cli_parse_size(const char *s, uint64_t *out)
{
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {
        {"", 1.0},
        {"B", 1.0},
        {"k", 1e3},
        {"K", 1e3},
        {"kB", 1e3},
        {"KB", 1e3},
        {"Ki", 1024.0},
        {"KiB", 1024.0},
        {"M", 1e6},
        {"MB", 1e6},
        {"Mi", 1048576.0},
        {"MiB", 1048576.0},
        {"G", 1e9},
        {"GB", 1e9},
        {"Gi", 1073741824.0},
        {"GiB", 1073741824.0},
        {"T", 1e12},
        {"TB", 1e12},
        {"Ti", 1099511627776.0},
        {"TiB", 1099511627776.0},
    };
    /* Strict decimal syntax: digits, an optional fraction and exponent, then a unit ("0x10",
     * "+5", " 5" and "inf" are refused). */
    if (!s)
        return -1;
    const char *q = s;
    while (*q >= '0' && *q <= '9')
        q++;
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++)
            ;
    if (q == s || (q == s + 1 && *s == '.'))
        return -1;
    if (*q == 'e' || *q == 'E') {
        const char *d = q + 1;
        while (*d >= '0' && *d <= '9')
            d++;
        if (d == q + 1)
            return -1;
        q = d;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end != q || errno == ERANGE || !isfinite(v) || v < 0)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].suffix) == 0) {
            double exact = v * units[i].mult, bytes = nearbyint(exact);
            if (bytes >= 9007199254740992.0) /* 2^53: exact as double everywhere */
                return -1;
            if (fabs(exact - bytes) > 1e-9 * fmax(1.0, bytes)) /* "0.4", "0.1MiB" */
                return -1;
            *out = (uint64_t)bytes;
            return 0;
        }
    }
    return -1;
}

int cli_parse_rate(const char *s, double *out)
{
    if (!s)
        return -1;
    if (cli_parse_double(s, out) == 0)
        return 0;
    char buf[64];
    size_t n = strlen(s);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n + 1);
    if (n > 2 && strcmp(buf + n - 2, "/s") == 0)
        buf[n - 2] = '\0';
    uint64_t v;
    if (cli_parse_size(buf, &v) != 0)
        return -1;
    *out = (double)v;
    return 0;
}

/* One list item "a", "a..b" or "a..b:step" into values appended to *vals (doubles). */
static int parse_item(const char *item, int integer, double **vals, size_t *n, size_t *cap)
{
    char buf[256];
    if (strlen(item) >= sizeof buf || !*item)
        return -1;
    strcpy(buf, item);
    double a, b, step = 1.0;
    char *dots = strstr(buf, "..");
    if (!dots) {
        if (cli_parse_double(buf, &a) != 0)
            return -1;
        b = a;
    } else {
        *dots = '\0';
        char *rest = dots + 2;
        char *colon = strchr(rest, ':');
        if (colon) {
            *colon = '\0';
            if (cli_parse_double(colon + 1, &step) != 0 || !(step > 0))
                return -1;
        }
        if (cli_parse_double(buf, &a) != 0 || cli_parse_double(rest, &b) != 0 || b < a)
            return -1;
    }
    if (integer && (a != floor(a) || b != floor(b) || step != floor(step) || a < 0))
        return -1;
    double count = floor((b - a) / step + 1e-9) + 1;
    if (count + (double)*n > CLI_LIST_MAX) /* before expanding: "2..10000001" */
        return -1;
    if (integer && b >= 9007199254740992.0) /* 2^53: exact as double, castable */
        return -1;
    for (size_t i = 0; i < (size_t)count; i++) {
        if (*n == *cap) {
            size_t nc = *cap ? *cap * 2 : 16;
            double *nv = realloc(*vals, nc * sizeof **vals);
            if (!nv)
                return -1;
            *vals = nv;
            *cap = nc;
        }
        double x = a + (double)i * step;
        if (!integer && fabs(x) < 1e-12 * step)
            x = 0;
        (*vals)[(*n)++] = x;
    }
    return 0;
}

static int parse_list(const char *s, int integer, double **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!s || !*s)
        return -1;
    char *copy = malloc(strlen(s) + 1);
    if (!copy)
        return -1;
    strcpy(copy, s);
    size_t cap = 0;
    int rc = 0;
    char *p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (parse_item(p, integer, out, n, &cap) != 0) {
            rc = -1;
            break;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    free(copy);
    if (rc != 0 || *n == 0) {
        free(*out);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

int cli_parse_double_list(const char *s, double **out, size_t *n)
{
    return parse_list(s, 0, out, n);
}

int cli_parse_u64_list(const char *s, uint64_t **out, size_t *n)
{
    double *d;
    *out = NULL;
    if (parse_list(s, 1, &d, n) != 0)
        return -1;
    uint64_t *u = malloc(*n * sizeof *u);
    if (!u) {
        free(d);
        return -1;
    }
    for (size_t i = 0; i < *n; i++)
        u[i] = (uint64_t)d[i];
    free(d);
    *out = u;
    return 0;
}

int cli_platform_load(const char *spec, hc_platform_t **out)
{
    int st = hc_platform_load(spec, out);
    if (st == HC_OK)
        return CLI_OK;
    /* a plain file (no scheme) of another kind the --platform option reads with a prefix */
    static const char *const schemes[] = {"builtin:", "random:", "dir:", "simgrid:"};
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (strncmp(spec, schemes[i], strlen(schemes[i])) == 0)
            return cli_fail(st, spec);
    char head[4097];
    size_t n = 0;
    FILE *f = fopen(spec, "r");
    if (f) {
        n = fread(head, 1, sizeof head - 1, f);
        fclose(f);
    }
    head[n] = '\0';
    const char *kind = NULL, *scheme = NULL;
    if (strstr(head, "\"hetcoll-directory/")) {
        kind = "a directory file";
        scheme = "dir:";
    } else if (strstr(head, "<platform") || strstr(head, "simgrid.dtd")) {
        kind = "a SimGrid platform";
        scheme = "simgrid:";
    }
    if (!kind)
        return cli_fail(st, spec);
    const char *detail = hc_error_detail();
    char d[1024];
    snprintf(d, sizeof d, "%s", detail && *detail ? detail : hc_strerror(st));
    hc_error_clear();
    return cli_error("%s%s%s; %s looks like %s; use %s%s", strstr(d, spec) ? "" : spec,
                     strstr(d, spec) ? "" : ": ", d, spec, kind, scheme, spec);
}

/* One inline row of cli_read_matrix into text (values separated by spaces). Returns the number
 * of values, or 0 after a malformed item. */
static size_t inline_row(const char *row, hc_matrix_kind_t kind, FILE *text)
{
    size_t n = 0;
    if (kind == HC_MATRIX_SIZES) {
        char buf[128];
        for (const char *p = row;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            uint64_t v;
            if (len == 0 || len >= sizeof buf)
                return 0;
            memcpy(buf, p, len);
            buf[len] = '\0';
            if (cli_parse_size(buf, &v) != 0)
                return 0;
            fprintf(text, "%s%llu", n++ ? " " : "", (unsigned long long)v);
            if (!comma)
                break;
            p = comma + 1;
        }
        return n;
    }
    double *v;
    if (cli_parse_double_list(row, &v, &n) != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        fprintf(text, "%s%.17g", i ? " " : "", v[i]);
    free(v);
    return n;
}

int cli_read_matrix(const char *cmd, const char *opt, const char *arg, hc_matrix_kind_t kind,
                    hc_matrix_t **out)
{
    *out = NULL;
    struct stat st;
    if (arg[0] == '@' || stat(arg, &st) == 0) {
        const char *path = arg[0] == '@' ? arg + 1 : arg;
        int rc = hc_matrix_load(path, kind, 0, 0, out);
        return rc == HC_OK ? CLI_OK : cli_fail(rc, path);
    }
    const char *what = kind == HC_MATRIX_SIZES ? "sizes in bytes such as 0,64KiB;1MiB,0"
                                               : "seconds such as 0,1.5;2,0 or 3,1,1,2";
    char *copy = malloc(strlen(arg) + 1), *text = NULL;
    size_t tlen = 0, cols = 0;
    FILE *t = copy ? open_memstream(&text, &tlen) : NULL;
    if (!t) {
        free(copy);
        return cli_error("out of memory");
    }
    strcpy(copy, arg);
    int bad = 0;
    size_t row = 0;
    for (char *r = copy; r && !bad; row++) {
        char *semi = strchr(r, ';');
        if (semi)
            *semi = '\0';
        size_t n = inline_row(r, kind, t);
        fputc('\n', t);
        if (n == 0)
            bad = 1;
        else if (row == 0)
            cols = n;
        else if (n != cols)
            bad = 2;
        r = semi ? semi + 1 : NULL;
    }
    fclose(t);
    free(copy);
    int rc = CLI_OK;
    if (bad == 1)
        rc = cli_value_error(cmd, "option '%s': '%s' is neither an existing file nor inline %s",
                             opt, arg, what);
    else if (bad == 2)
        rc = cli_value_error(cmd, "option '%s': row %zu of '%s' has a different number of values",
                             opt, row, arg);
    else {
        int st2 = hc_matrix_parse(text, opt, kind, 0, 0, out);
        if (st2 != HC_OK)
            rc = cli_fail(st2, opt);
    }
    free(text);
    return rc;
}

/* Paths of the files cli_open_output opened, for cli_close_output's messages. */
static struct {
    FILE *f;
    char path[512];
} opened[8];

FILE *cli_open_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    for (size_t i = 0; i < sizeof opened / sizeof opened[0]; i++)
        if (!opened[i].f) {
            opened[i].f = f;
            snprintf(opened[i].path, sizeof opened[i].path, "%s", path);
            break;
        }
    return f;
}

int cli_close_file(FILE *f, const char *path, int rc)
{
    if (!f)
        return rc;
    errno = 0;
    int bad = fflush(f) != 0 || ferror(f);
    int e = errno;
    if (f != stdout) {
        if (fclose(f) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
    }
    if (bad && rc == CLI_OK)
        return cli_error("%s: write failed: %s", path, e ? strerror(e) : "I/O error");
    return rc;
}

int cli_close_output(FILE *f, int rc)
{
    const char *path = "standard output";
    for (size_t i = 0; f && f != stdout && i < sizeof opened / sizeof opened[0]; i++)
        if (opened[i].f == f) {
            path = opened[i].path;
            opened[i].f = NULL;
            break;
        }
    char copy[512];
    snprintf(copy, sizeof copy, "%s", path);
    return cli_close_file(f, copy, rc);
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "1h02m", "3m05s", "42s". */
static void fmt_duration(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else if (t >= 60)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%lds", t);
}

void cli_progress(const char *label, size_t done, size_t total)
{
    static char cur[64];
    static double start, last;
    static int tty = -1;
    static double every = -1;
    double now = mono_now();
    if (tty < 0) {
        tty = isatty(fileno(stderr));
        const char *e = getenv("HETCOLL_PROGRESS_SECONDS");
        double v;
        every = (e && cli_parse_double(e, &v) == 0 && v >= 0) ? v : CLI_PROGRESS_SECONDS;
    }
    if (done == 0 || strncmp(cur, label, sizeof cur - 1) != 0) { /* a new run: start the clock */
        snprintf(cur, sizeof cur, "%s", label);
        start = last = now;
        if (done == 0)
            return;
    }
    int end = done >= total;
    if (!end && now - last < (tty ? 0.2 : every))
        return;
    last = now;
    char d[24], eta[40];
    double pct = total ? 100.0 * (double)done / (double)total : 100.0;
    fmt_duration(d, sizeof d,
                 end ? now - start : (now - start) / (double)done * (double)(total - done));
    snprintf(eta, sizeof eta, end ? ", took %s" : ", ETA %s", d);
    if (tty)
        fprintf(stderr, "\r%s %3.0f%% (%zu/%zu)%s\033[K%s", label, floor(pct), done, total, eta,
                end ? "\n" : "");
    else
        fprintf(stderr, "%s %.0f%% (%zu/%zu)%s\n", label, floor(pct), done, total, eta);
    fflush(stderr);
}

int cli_exp_option(const char *cmd, int c, const char *arg, char **argv, const cli_exp_args_t *a)
{
    switch (c) {
    case 't':
        if (cli_parse_u64(arg, a->trials) != 0 || *a->trials == 0 || *a->trials > a->max_trials)
            return cli_value_error(cmd, "--trials: expected an integer in 1..%llu, got '%s'",
                                   (unsigned long long)a->max_trials, arg);
        return CLI_OK;
    case 's':
        if (cli_parse_u64(arg, a->seed) != 0)
            return cli_value_error(cmd, "--seed: expected an integer, got '%s'", arg);
        return CLI_OK;
    case CLI_OPT_OLD_OUT:
        cli_deprecated("--out", "-o/--output");
        *a->out = arg;
        return CLI_OK;
    case 'o':
        *a->out = arg;
        return CLI_OK;
    default:
        return cli_bad_option(cmd, c, argv);
    }
}

int cli_check_args_done(const char *cmd, int argc, char **argv, const char *out)
{
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (!out)
        return cli_usage_error(cmd, "-o/--output DIR is required");
    return CLI_OK;
}

int cli_parse_algo_list(const char *cmd, hc_coll_t coll, const char *list, const char **out,
                        size_t max, size_t *n)
{
    char buf[512];
    *n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        const hc_algo_info_t *info;
        if (*n == max)
            return cli_value_error(cmd, "--algos: at most %zu algorithms", max);
        if (cli_algo_find(coll, tok, &info) != HC_OK)
            return cli_value_error(cmd, "--algos: %s", hc_error_detail());
        out[(*n)++] = info->name;
    }
    if (*n == 0)
        return cli_value_error(cmd, "--algos: empty list");
    return CLI_OK;
}

int cli_check_u64_range(const char *cmd, const char *opt, const uint64_t *v, size_t n, uint64_t lo,
                        uint64_t hi)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] < lo || v[i] > hi)
            return cli_value_error(cmd, "%s: %llu out of range %llu..%llu", opt,
                                   (unsigned long long)v[i], (unsigned long long)lo,
                                   (unsigned long long)hi);
    return CLI_OK;
}

int cli_make_outdir(const char *dir)
{
    /* Parents too ("mkdir -p"), and an existing path must be a directory: otherwise every
     * result would be computed before the first file failed to open. */
    char path[4096];
    if (!dir || !*dir || strlen(dir) >= sizeof path)
        return cli_error("%s: not a usable directory name", dir ? dir : "(null)");
    strcpy(path, dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return cli_error("%s: cannot create directory: %s", path, strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return cli_error("%s: cannot create directory: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cli_error("%s: exists and is not a directory (--out takes a directory)", dir);
    return CLI_OK;
}

FILE *cli_open_in_dir(const char *dir, const char *fmt, ...)
{
    char name[1024], path[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        cli_error("%s: cannot create: %s", path, strerror(errno));
    return f;
}
