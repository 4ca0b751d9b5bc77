/* The directory service file (000 §3.1): atomic writer, age-checking reader, and the
 * "dir:[max-age=S:]FILE" platform spec. Format: docs/directory.md. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "directory_internal.h"
#include "net_internal.h"

void hc_directory_info_init(hc_directory_info_t *info)
{
    if (info)
        memset(info, 0, sizeof *info);
}

void hc_directory_info_clear(hc_directory_info_t *info)
{
    if (!info)
        return;
    free(info->latency_error);
    free(info->bandwidth_error);
    memset(info, 0, sizeof *info);
}

static double now_s(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return (double)time(NULL);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Timestamps are seconds since 1970 before the year 10000 (so that converting one to time_t
 * is defined). */
#define HC__TS_MAX 253402300800.0

static int valid_timestamp(double t)
{
    return t >= 0 && t < HC__TS_MAX;
}

static void utc_string(double t, char *buf, size_t n)
{
    if (!valid_timestamp(t)) {
        snprintf(buf, n, "%.6g s after 1970 (not a date)", t);
        return;
    }
    time_t s = (time_t)t;
    struct tm tmv;
    if (!gmtime_r(&s, &tmv) || strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tmv) == 0)
        snprintf(buf, n, "%.0f", t);
}

/* Write all of buf to fd. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Remove PATH.tmp.PID.* files whose writer PID no longer runs (a writer killed between
 * creating its temporary file and renaming it). Best effort. */
static void remove_stale_temps(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char dir[4096];
    if (slash) {
        size_t dl = (size_t)(slash - path);
        if (dl >= sizeof dir)
            return;
        memcpy(dir, path, dl);
        dir[dl] = '\0';
        if (dl == 0)
            strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t bl = strlen(base);
    struct dirent *ent;
    while ((ent = readdir(d))) {
        const char *nm = ent->d_name;
        if (strncmp(nm, base, bl) != 0 || strncmp(nm + bl, ".tmp.", 5) != 0)
            continue;
        char *end;
        long pid = strtol(nm + bl + 5, &end, 10);
        if (end == nm + bl + 5 || *end != '.' || pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive (or not ours to judge) */
        char full[8192];
        if (snprintf(full, sizeof full, "%s/%s", dir, nm) < (int)sizeof full)
            unlink(full);
    }
    closedir(d);
}

static int atomic_write(const char *path, const char *text)
{
    size_t plen = strlen(path);
    remove_stale_temps(path);
    char *tmp = hc__malloc(plen + 40, 1);
    if (!tmp)
        return hc__error(HC_ERR_NOMEM, "%s: out of memory", path);
    /* The writer's pid in the name lets a later writer remove what a killed one left. */
    snprintf(tmp, plen + 40, "%s.tmp.%ld.XXXXXX", path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return hc__error(HC_ERR_IO, "%s: cannot create a temporary file next to it: %s", path,
                         strerror(e));
    }
    const char *step = NULL;
    int e = 0;
    if (fchmod(fd, 0644) != 0)
        step = "fchmod", e = errno;
    else if (write_all(fd, text, strlen(text)) != 0)
        step = "write", e = errno;
    else if (fsync(fd) != 0)
        step = "fsync", e = errno;
    if (close(fd) != 0 && !step)
        step = "close", e = errno;
    if (!step && rename(tmp, path) != 0)
        step = "rename", e = errno;
    if (step) {
        unlink(tmp);
        free(tmp);
        return hc__error(HC_ERR_IO, "%s: %s failed: %s", path, step, strerror(e));
    }
    free(tmp);
    /* Make the rename durable: fsync the containing directory (best effort). */
    char *dir = hc__strdup(path);
    if (dir) {
        char *slash = strrchr(dir, '/');
        const char *d = ".";
        if (slash == dir)
            d = "/";
        else if (slash) {
            *slash = '\0';
            d = dir;
        }
        int dfd = open(d, O_RDONLY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    return HC_OK;
}

/* One JSON string literal (escaped by jansson) on f. */
static int put_string(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    if (!t)
        return -1;
    fputs(t, f);
    free(t);
    return 0;
}

/* A P x P matrix, one row per line; non-finite values as null. */
static void put_matrix(FILE *f, uint32_t P, const double *m)
{
    fputs("[", f);
    for (uint32_t i = 0; i < P; i++) {
        fputs(i ? ",\n    [" : "\n    [", f);
        for (uint32_t j = 0; j < P; j++) {
            double v = m[(size_t)i * P + j];
            if (isfinite(v))
                fprintf(f, "%s%.17g", j ? ", " : "", v);
            else
                fprintf(f, "%snull", j ? ", " : "");
        }
        fputs("]", f);
    }
    fputs("\n  ]", f);
}

int hc_directory_write(const char *path, const hc_platform_t *p, const hc_directory_info_t *info)
{
    if (!path || !*path || !p)
        return hc__error(HC_ERR_INVAL, "hc_directory_write: NULL or empty argument");
    hc_directory_info_t def;
    hc_directory_info_init(&def);
    if (!info)
        info = &def;
    uint32_t P = hc_platform_size(p);
    if ((info->latency_error || info->bandwidth_error) && info->P != P)
        return hc__error(HC_ERR_SHAPE, "%s: error matrices are %ux%u but the platform has %u nodes",
                         path, info->P, info->P, P);
    if (info->interval_s < 0 || !isfinite(info->interval_s))
        return hc__error(HC_ERR_VALUE, "%s: interval_s = %g: must be finite and >= 0", path,
                         info->interval_s);
    char *ptext = NULL;
    HC__TRY(hc_platform_to_json(p, &ptext));
    size_t pl = strlen(ptext);
    while (pl > 0 && (ptext[pl - 1] == '\n' || ptext[pl - 1] == ' '))
        ptext[--pl] = '\0';
    double ts = info->timestamp > 0 ? info->timestamp : now_s();
    if (!valid_timestamp(ts))
        return hc__error(HC_ERR_VALUE,
                         "%s: timestamp %g: must be seconds since 1970 before the year 10000", path,
                         ts);
    char when[64];
    utc_string(ts, when, sizeof when);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        free(ptext);
        return hc__error(HC_ERR_NOMEM, "%s: out of memory building the directory", path);
    }
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"epoch\": %llu,\n  \"timestamp\": %.6f,\n",
            HC_DIRECTORY_FORMAT, (unsigned long long)info->epoch, ts);
    fprintf(f, "  \"time_utc\": \"%s\",\n  \"interval_s\": %.17g,\n  \"mode\": ", when,
            info->interval_s);
    int bad = put_string(f, info->mode);
    fputs(",\n  \"error_metric\": ", f);
    bad |= put_string(f, info->error_metric);
    if (info->latency_error) {
        fputs(",\n  \"latency_error_s\": ", f);
        put_matrix(f, P, info->latency_error);
    }
    if (info->bandwidth_error) {
        fputs(",\n  \"bandwidth_error_Bps\": ", f);
        put_matrix(f, P, info->bandwidth_error);
    }
    fprintf(f, ",\n  \"platform\": %s\n}\n", ptext);
    free(ptext);
    bad |= ferror(f);
    if (fclose(f) != 0 || bad || !text) {
        free(text);
        return hc__error(HC_ERR_NOMEM, "%s: out of memory building the directory", path);
    }
    int rc = atomic_write(path, text);
    free(text);
    return rc;
}

static int read_error_matrix(const char *path, json_t *root, const char *key, uint32_t P,
                             double **out)
{
    *out = NULL;
    json_t *m = json_object_get(root, key);
    if (!m || json_is_null(m))
        return HC_OK;
    if (!json_is_array(m) || json_array_size(m) != P)
        return hc__error(HC_ERR_SHAPE, "%s: field '%s': expected %u rows", path, key, P);
    double *v = hc__malloc((size_t)P * P, sizeof *v);
    if (!v)
        return hc__error(HC_ERR_NOMEM, "%s: out of memory", path);
    for (uint32_t i = 0; i < P; i++) {
        json_t *row = json_array_get(m, i);
        if (!json_is_array(row) || json_array_size(row) != P) {
            free(v);
            return hc__error(HC_ERR_SHAPE, "%s: field '%s[%u]': expected %u values", path, key, i,
                             P);
        }
        for (uint32_t j = 0; j < P; j++) {
            json_t *x = json_array_get(row, j);
            if (json_is_null(x)) {
                v[(size_t)i * P + j] = NAN;
            } else if (json_is_number(x) && json_number_value(x) >= 0) {
                v[(size_t)i * P + j] = json_number_value(x);
            } else {
                free(v);
                return hc__error(HC_ERR_VALUE,
                                 "%s: field '%s[%u][%u]': expected a number >= 0 or null", path,
                                 key, i, j);
            }
        }
    }
    *out = v;
    return HC_OK;
}

static void copy_str(char *dst, size_t n, json_t *x)
{
    const char *s = json_is_string(x) ? json_string_value(x) : "";
    snprintf(dst, n, "%s", s);
}

int hc_directory_load(const char *path, double max_age_s, hc_platform_t **platform,
                      hc_directory_info_t *info)
{
    if (!path || !platform)
        return hc__error(HC_ERR_INVAL, "hc_directory_load: NULL argument");
    *platform = NULL;
    hc_directory_info_t local;
    hc_directory_info_init(&local);
    char *text = NULL;
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) /* the monitor's usual first minute */
        return hc__error(HC_ERR_IO,
                         "%s: no such directory file (if `hetcoll monitor` writes it, its first "
                         "epoch is not there yet: wait for the file)",
                         path);
    HC__TRY(hc__read_file(path, &text, NULL));
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root)
        return hc__error(HC_ERR_PARSE, "%s:%d: column %d: %s", path, jerr.line, jerr.column,
                         jerr.text);
    int rc = HC_OK;
    hc_platform_t *p = NULL;
    char *ptext = NULL;
    char *origin = NULL;
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), HC_DIRECTORY_FORMAT) != 0) {
        rc = hc__error(HC_ERR_UNSUPPORTED,
                       "%s: field 'format': not a directory file (expected \"%s\"; a plain "
                       "platform file is loaded without the dir: prefix)",
                       path, HC_DIRECTORY_FORMAT);
        goto done;
    }
    json_t *ep = json_object_get(root, "epoch"), *ts = json_object_get(root, "timestamp");
    if (!json_is_integer(ep) || json_integer_value(ep) < 0) {
        rc = hc__error(HC_ERR_PARSE, "%s: field 'epoch': expected an integer >= 0", path);
        goto done;
    }
    if (!json_is_number(ts) || !valid_timestamp(json_number_value(ts))) {
        rc = hc__error(HC_ERR_PARSE,
                       "%s: field 'timestamp': expected seconds since 1970 before the year 10000",
                       path);
        goto done;
    }
    local.epoch = (uint64_t)json_integer_value(ep);
    local.timestamp = json_number_value(ts);
    json_t *iv = json_object_get(root, "interval_s");
    local.interval_s = json_is_number(iv) ? json_number_value(iv) : 0;
    copy_str(local.mode, sizeof local.mode, json_object_get(root, "mode"));
    copy_str(local.error_metric, sizeof local.error_metric, json_object_get(root, "error_metric"));
    double age = now_s() - local.timestamp;
    local.age_s = age > 0 ? age : 0;
    json_t *pj = json_object_get(root, "platform");
    if (!json_is_object(pj)) {
        rc = hc__error(HC_ERR_PARSE, "%s: field 'platform': missing or not an object", path);
        goto done;
    }
    ptext = json_dumps(pj, JSON_REAL_PRECISION(17));
    size_t olen = strlen(path) + 16;
    origin = hc__malloc(olen, 1);
    if (!ptext || !origin) {
        rc = hc__error(HC_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    snprintf(origin, olen, "%s:platform", path);
    if ((rc = hc_platform_parse(ptext, origin, &p)) != HC_OK)
        goto done;
    local.P = hc_platform_size(p);
    if ((rc = read_error_matrix(path, root, "latency_error_s", local.P, &local.latency_error)) !=
            HC_OK ||
        (rc = read_error_matrix(path, root, "bandwidth_error_Bps", local.P,
                                &local.bandwidth_error)) != HC_OK)
        goto done;
    if (max_age_s > 0 && local.timestamp - now_s() > max_age_s) {
        rc = hc__error(HC_ERR_STALE,
                       "%s: directory data is dated %.1f s in the future (epoch %llu); a clock is "
                       "wrong or the file is not the monitor's",
                       path, local.timestamp - now_s(), (unsigned long long)local.epoch);
        hc_platform_destroy(p);
        p = NULL;
    } else if (max_age_s > 0 && local.age_s > max_age_s) {
        char when[64];
        utc_string(local.timestamp, when, sizeof when);
        rc = hc__error(HC_ERR_STALE,
                       "%s: directory data is %.1f s old (epoch %llu, written %s), older than "
                       "the limit of %g s; is the monitor still running?",
                       path, local.age_s, (unsigned long long)local.epoch, when, max_age_s);
        hc_platform_destroy(p);
        p = NULL;
    }
done:
    free(ptext);
    free(origin);
    json_decref(root);
    if (rc == HC_OK || rc == HC_ERR_STALE) {
        if (info)
            *info = local;
        else
            hc_directory_info_clear(&local);
        *platform = p;
    } else {
        hc_platform_destroy(p);
        hc_directory_info_clear(&local);
        if (info)
            hc_directory_info_init(info);
    }
    return rc;
}

int hc__directory_load_spec(const char *spec, hc_platform_t **out)
{
    /* spec is what follows "dir:": "FILE" or "max-age=SECONDS:FILE". */
    double max_age = 0;
    const char *file = spec;
    if (strncmp(spec, "max-age=", 8) == 0) {
        char *end = NULL;
        max_age = strtod(spec + 8, &end);
        if (end == spec + 8 || *end != ':' || !isfinite(max_age) || max_age <= 0)
            return hc__error(HC_ERR_PARSE,
                             "dir:%s: expected dir:FILE or dir:max-age=SECONDS:FILE with "
                             "SECONDS > 0",
                             spec);
        file = end + 1;
    }
    if (!*file)
        return hc__error(HC_ERR_PARSE, "dir:%s: missing file name (dir:FILE)", spec);
    return hc_directory_load(file, max_age, out, NULL);
}
