/* The directory service (000 §3.1): a file holding the current (forecast) network information,
 * rewritten periodically by the monitor (`mpirun -np P hetcoll monitor ...`) and read by
 * applications and by `--platform dir:FILE`.
 *
 * The file is JSON ("format": "hetcoll-directory/1", see docs/directory.md): the platform in
 * matrix form (exactly hc_platform_to_json's output, gap tables included) under "platform",
 * plus the network epoch (a sequence number incremented by every rewrite), a timestamp, the
 * probing interval and mode, and the error estimates of the forecasts.
 *
 * Writers replace the file atomically (temporary file in the same directory, fsync, rename,
 * fsync of the directory), so a reader sees either the previous or the new version, never a
 * partial one. */
#ifndef HETCOLL_DIRECTORY_H
#define HETCOLL_DIRECTORY_H

#include <stdint.h>

#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HC_DIRECTORY_FORMAT "hetcoll-directory/1"

typedef struct hc_directory_info {
    uint64_t epoch;          /* network epoch (sequence number of the rewrite) */
    double timestamp;        /* seconds since the Unix epoch (UTC) of the measurement; when
                                writing, <= 0 means "now" */
    double age_s;            /* set by hc_directory_load: now - timestamp, >= 0 */
    double interval_s;       /* probing interval of the monitor, 0 = unknown */
    char mode[16];           /* probe mode: "full", "clustered" or "" */
    char error_metric[8];    /* "mse" (errors are RMSE), "mae" or "" */
    uint32_t P;              /* size of the error matrices (= platform size) */
    double *latency_error;   /* P*P row-major error estimates of the latencies (s); NAN =
                                unknown; NULL = none */
    double *bandwidth_error; /* P*P error estimates of the bandwidths (B/s); NAN/NULL as above */
} hc_directory_info_t;

/* Zero every field (call before filling one by hand or passing it to hc_directory_load). */
void hc_directory_info_init(hc_directory_info_t *info);

/* Free the matrices that hc_directory_load allocated and zero the struct. NULL-safe. Do not
 * call it on an info whose matrices the caller owns. */
void hc_directory_info_clear(hc_directory_info_t *info);

/* Write the directory file `path` atomically. info may be NULL (epoch 0, now, no errors); its
 * matrices, when non-NULL, must have P = hc_platform_size(p) (they stay owned by the caller).
 * Errors name the path and the failing step. */
int hc_directory_write(const char *path, const hc_platform_t *p, const hc_directory_info_t *info);

/* Load a directory file. max_age_s > 0: refuse data older than that with HC_ERR_STALE (the
 * detail gives the age, epoch, write time and limit); max_age_s <= 0: no age check.
 * *platform receives a new platform (caller frees with hc_platform_destroy). info may be NULL;
 * otherwise it is overwritten (call hc_directory_info_clear afterwards to free its matrices,
 * also after an HC_ERR_STALE, where info is filled but *platform is NULL). */
int hc_directory_load(const char *path, double max_age_s, hc_platform_t **platform,
                      hc_directory_info_t *info);

#ifdef __cplusplus
}
#endif
#endif
