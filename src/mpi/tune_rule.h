/* The measured-tuning keep rule (tune.c), apart from MPI so that it is unit tested
 * (tests/unit/test_tune_rule.c). Times are seconds per trial, in round order. */
#ifndef HC_MPI_TUNE_RULE_H
#define HC_MPI_TUNE_RULE_H

#include <stdint.h>

/* The median of n trial times (n >= 1; at most HC__RULE_MAX are read). */
double hc__tune_median(const double *t, uint32_t n);

/* Is a schedule measured clearly faster than native? x: its trials, nat: native's, by round
 * (round i of both paired; the first round pays one-time costs and is left out when there
 * are others). Either
 *  - its median is below `margin` x native's and it was faster in at least 3 of 4 paired
 *    rounds, or
 *  - the two samples separate: at least HC__RULE_SEPARATE paired rounds after the first, it was
 *    faster in each, and its slowest trial is below native's fastest. */
int hc__tune_keeps(const double *x, uint32_t nx, const double *nat, uint32_t nn, double margin);

#define HC__RULE_MAX 64
#define HC__RULE_SEPARATE 4

#endif
