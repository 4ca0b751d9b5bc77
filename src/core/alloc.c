/* Allocation and file helpers. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

void *hc__malloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    return malloc(bytes ? bytes : 1);
}

void *hc__calloc(size_t n, size_t size)
{
    return calloc(n ? n : 1, size ? size : 1);
}

void *hc__realloc(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    return realloc(p, bytes ? bytes : 1);
}

char *hc__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int hc__grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return HC_OK;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = hc__realloc(*arr, ncap, size);
    if (!p)
        return hc__error(HC_ERR_NOMEM, "out of memory growing an array to %zu elements", ncap);
    *arr = p;
    *cap = ncap;
    return HC_OK;
}

uint64_t hc__max_input(void)
{
    const char *e = getenv("HETCOLL_MAX_INPUT");
    if (e && *e) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(e, &end, 10);
        if (!errno && *end == '\0' && v > 0)
            return v;
    }
    return HC__MAX_INPUT_DEFAULT;
}

uint64_t hc__max_nodes(void)
{
    const char *e = getenv("HETCOLL_MAX_NODES");
    if (e && *e) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(e, &end, 10);
        if (!errno && *end == '\0' && v > 0)
            return v;
    }
    return HC__MAX_NODES_DEFAULT;
}

int hc__read_file(const char *path, char **out, size_t *len)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return hc__error(HC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return hc__error(HC_ERR_IO, "%s: is a directory, not a file", path);
    }
    /* Text inputs only, and at most the cap: a device such as /dev/zero or an endless pipe
     * ends with an error after one buffer, not when memory runs out. */
    const uint64_t cap_max = hc__max_input();
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return hc__error(HC_ERR_NOMEM, "%s: out of memory", path);
    }
    int rc = HC_OK;
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                rc = hc__error(HC_ERR_NOMEM, "%s: out of memory after %zu bytes", path, n);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        const char *nul = r ? memchr(buf + n, '\0', r) : NULL;
        if (nul) {
            rc = hc__error(HC_ERR_PARSE, "%s: byte %zu is a NUL byte (not a text file)", path,
                           (size_t)(nul - buf));
            break;
        }
        n += r;
        if (n > cap_max) {
            rc = hc__error(HC_ERR_LIMIT,
                           "%s: larger than the input limit of %llu bytes (set HETCOLL_MAX_INPUT "
                           "to more bytes to read it)",
                           path, (unsigned long long)cap_max);
            break;
        }
        if (r == 0)
            break;
    }
    int err = rc == HC_OK && ferror(f);
    fclose(f);
    if (rc != HC_OK || err) {
        free(buf);
        return rc != HC_OK ? rc : hc__error(HC_ERR_IO, "%s: read error", path);
    }
    buf[n] = '\0';
    size_t i = 0;
    while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
        i++;
    if (i == n) {
        free(buf);
        return hc__error(HC_ERR_PARSE, "%s: file is empty", path);
    }
    *out = buf;
    if (len)
        *len = n;
    return HC_OK;
}

int hc__opts_read(void *dst, size_t dst_size, const void *src, const char *what)
{
    uint32_t n;
    memcpy(&n, src, sizeof n);
    if (n < sizeof(uint32_t) + 1)
        return hc__error(HC_ERR_INVAL, "%s: struct_size is %u: start from %.*s_init (ABI check)",
                         what, n, (int)(strlen(what) - 2), what); /* hc_x_t -> hc_x_init */
    uint32_t keep;
    memcpy(&keep, dst, sizeof keep); /* the library's own size stays */
    memcpy(dst, src, n < dst_size ? n : dst_size);
    memcpy(dst, &keep, sizeof keep);
    return HC_OK;
}
